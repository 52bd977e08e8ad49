"""The provenance check, orchestrated: for each trade a decision proposes, what that
decision's prompt showed of external text, what the golem's own rules say on the same
Situation, and, when neither settles it, the counterfactual: the proposer asked again
with the world feed withheld, charged to its budget like any call and logged with
`counterfactual_of`. The re-ask repeats the proposing call's sampling (the seed its
provider reported, `Request.seed`), so only the text differs: exact for a provider that
samples by seed (synthetic, local) or deterministically; a remote model sampled at a
temperature without one answers afresh, and its noise blocks trades it would have
made (the check fails closed). The check's logic is risk's (golem.subsystems.risk.provenance); this
module only asks the questions it needs answered.
"""

from __future__ import annotations

from msgspec.structs import replace

from golem.runtime.decide import Decisions
from golem.runtime.record import DecisionRecord
from golem.subsystems.context import WithoutFeed
from golem.subsystems.contract import ProposedTrade, Situation, Subsystem
from golem.subsystems.heartbeat import escalated
from golem.subsystems.risk import (
    Provenance,
    ProvenanceCheck,
    Risk,
    in_place_of_nothing,
    untraded_needs_check,
)
from golem.world.feed import FeedItem

__all__ = ["Vetting", "untraded"]


def untraded(proposal: DecisionRecord, risk: Risk) -> bool:
    """Whether `proposal` asked for a trade and proposed none (e.g. an exit with nothing
    held) on a prompt that showed external text, with the check on: `Vetting.instead` may
    find it one."""
    outcome = proposal.outcome
    if outcome is None or outcome.trades:
        return False
    wanted = _said(proposal.decision)
    return untraded_needs_check(risk.config.provenance, _shown(proposal), wanted)


class Vetting:
    """The checks of one proposal's trades (a heartbeat's): the counterfactual is asked
    at most once, whatever the number of trades. `spent`: what its calls cost."""

    def __init__(
        self,
        proposer: Subsystem,
        proposal: DecisionRecord,
        risk: Risk,
        decisions: Decisions,
    ) -> None:
        assert proposal.situation is not None, "a proposal records its Situation"
        self.proposer, self.proposal, self.ctx = proposer, proposal, proposal.situation
        self.risk, self.decisions = risk, decisions
        self.spent = 0.0
        self.clean: DecisionRecord | None = None  # the clean re-ask's decision, once asked

    @property
    def contradicted(self) -> tuple[str, ...]:
        """The feed items the proposal's prompt showed, when the clean re-ask was asked
        and answered otherwise (another action, or none): the text changed the decision,
        and no later prompt should show it again. Empty otherwise."""
        clean = self.clean
        if clean is None or clean.source != "model":
            return ()
        if _said(clean.decision) == _said(self.proposal.decision):
            return ()
        return tuple(item.ref for item in _shown(self.proposal))

    @property
    def standing(self) -> DecisionRecord:
        """The decision the tick goes on from (its confidence, its episode): the clean
        re-ask's, once it was asked and a model answered it, else the proposal's. What the
        text said informs nothing the golem carries forward."""
        clean = self.clean
        return clean if clean is not None and clean.source == "model" else self.proposal

    async def vet(self, trade: ProposedTrade, index: int = 0) -> Provenance:
        """The provenance verdict on `trade` (the proposal's `index`th), for risk's
        Situation (`Situation.provenance`); its `goes_ahead`, when set, is what risk assesses."""
        ctx, proposer = self.ctx, self.proposer
        shown = _shown(self.proposal)
        # The rules matter only where external text was shown (the check passes the
        # rest before asking them): most proposals showed none.
        rules = proposer.deterministic(ctx) if shown else None
        rules_trades = () if rules is None else proposer.act(ctx, rules).trades
        config = self.risk.config
        check = ProvenanceCheck(
            ctx,
            trade,
            _proposed_by(self.proposal),
            shown,
            rules_trades,
            _said(rules),
            config.limits,
            config.provenance,
        )
        verdict = check.verdict()
        if verdict is not None:
            return verdict
        return check.counterfactual(*await self._clean_answer(), index)

    async def instead(self) -> tuple[Provenance, ...]:
        """For a proposal that asked for a trade and proposed none: the verdicts whose
        `goes_ahead` are the trades the clean re-ask proposes in its place (none when its
        rules say the same, or the check is off)."""
        shown, wanted = _shown(self.proposal), _said(self.proposal.decision)
        if not untraded_needs_check(self.risk.config.provenance, shown, wanted):
            return ()
        if _said(self.proposer.deterministic(self.ctx)) == wanted:  # the rules' own action
            return ()
        clean = await self._clean_answer()
        return in_place_of_nothing(_proposed_by(self.proposal), shown, wanted, *clean)

    async def _clean_answer(self) -> tuple[tuple[ProposedTrade, ...] | None, str]:
        """The clean re-ask's (trades, answer in a word), or (None, why there is no
        model's answer): asked once, whatever the number of trades."""
        record = self.clean if self.clean is not None else await self._ask_clean()
        outcome = record.outcome
        if record.source != "model" or outcome is None:
            why = record.skip_reason or record.error or _degraded(record) or record.source
            return None, f"no answer ({why})"
        return outcome.trades, _said(record.decision)

    async def _ask_clean(self) -> DecisionRecord:
        """The proposer's decision on the same Situation with the feed withheld (following
        an escalation, as the tick does), never a reused one, every call sampled as the
        proposing one was; kept as `clean`."""
        ctx = self.ctx
        memory = None if ctx.memory is None else WithoutFeed(ctx.memory)
        clean = replace(ctx, memory=memory, run=ctx.run + 1)
        record = await self._ask(clean)
        outcome = record.outcome
        if record.source == "model" and outcome is not None and outcome.escalate_to is not None:
            record = await self._ask(escalated(clean, outcome.escalate_to))
        self.clean = record
        return record

    async def _ask(self, ctx: Situation) -> DecisionRecord:
        proposal = self.proposal
        record = await self.decisions.again(self.proposer, ctx, of=proposal, seed=_seed(proposal))
        self.spent += record.cost_usd
        return record


def _shown(proposal: DecisionRecord) -> tuple[FeedItem, ...]:
    """The feed items the proposing decision's prompt showed (a reuse: its original's)."""
    if proposal.context is not None:
        return proposal.context.feed
    return () if proposal.reused is None else proposal.reused.shown


def _seed(proposal: DecisionRecord) -> int | None:
    """The sampling seed of the proposing call (a reuse: its original's), if reported."""
    if proposal.response is not None:
        return proposal.response.seed
    return None if proposal.reused is None else proposal.reused.seed


def _proposed_by(proposal: DecisionRecord) -> str:
    if proposal.source == "model":
        return proposal.decision_id
    if proposal.reused is not None:
        return f"{proposal.reused.decision_id} (reused)"
    return proposal.source


def _said(decision: object) -> str:
    """A decision's answer in a word: its action, where it has one."""
    action = getattr(decision, "action", None)
    return "no decision" if decision is None else str(action or type(decision).__name__)


def _degraded(record: DecisionRecord) -> str:
    return "; ".join(str(d.reason) for d in record.degradations)
