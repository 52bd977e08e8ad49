"""The heartbeat subsystem: reads the tick's probes (computed by the runtime with
`compute_probes`), asks the tier they call for, and turns a decision into an escalation
to T2 or a trade for risk; observe changes nothing. An owner's steer waiting
(`Situation.steer`) forces T2 whatever the probes say (Bardo's gate: "owner interrupts
always get full attention") and puts the messages in the prompt as the owner's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace
from pydantic import BaseModel, ConfigDict, Field

from golem.inference import ReasoningDepth, StructuredOutput
from golem.mortality import ModelTier, Phase, SubsystemName
from golem.subsystems.contract import (
    Brief,
    Event,
    Judge,
    Outcome,
    Probes,
    ProposedTrade,
    Situation,
)
from golem.subsystems.heartbeat.decision import (
    HORIZON_TICKS,
    HeartbeatAction,
    HeartbeatDecision,
    Severity,
)
from golem.subsystems.heartbeat.probes import ProbeConfig
from golem.subsystems.risk.limits import MIN_TRADE_USD, Sizing, trade_notional
from golem.world import MarketSummary, TradeAction
from golem.world.feed import FeedItem

__all__ = ["Heartbeat", "HeartbeatConfig", "escalated", "market_fields"]


class HeartbeatConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    probes: ProbeConfig = Field(default_factory=ProbeConfig)
    sizing: Sizing = Field(default_factory=Sizing)  # sizes the trades it proposes
    # The rules' confidence feeds the next tick's gate; a neutral value leaves θ where
    # the default confidence puts it, so rule-made ticks neither widen nor narrow it.
    rules_confidence: float = Field(default=0.5, ge=0, le=1)
    # With the health factor critical and a position held, the rules hedge (risk decides).
    rules_hedge_on_critical_health: bool = True
    # A smaller trade is not proposed: risk would block it, and the rules, whose hedge halves
    # the position, would ask again on every tick once only dust is left.
    min_trade_usd: float = Field(default=MIN_TRADE_USD, ge=0)


_ROLE = (
    "You are the heartbeat: on each tick whose probes surprised the golem, judge how "
    "serious it is (severity none, low, moderate, high or critical) and what to do: "
    "observe, analyze (look closer, no trade), rebalance, hedge or exit. Any trade goes to "
    "the risk subsystem before it happens. An exit needs severity high or critical and "
    "confidence of at least 0.5. Give a rationale of one or two sentences and the signals "
    "it rests on (source, description, magnitude 0..1), and the price change you expect "
    f"over the next {HORIZON_TICKS} ticks as expected_move (a fraction, e.g. -0.02; null "
    "if no view)."
)
_ESCALATE = (
    " Set escalate true, or the action escalate, (severity moderate or above) if the strong "
    "model should look."
)
_STEERED = (
    " Your owner asked for this review: weigh the owner's message with what you observe, "
    "and say in the rationale how it bore on the decision. It does not lift the risk "
    "limits: any trade still goes to risk."
)
_STEERED_TASK = (
    "Review this tick with the owner's message in mind and answer with a heartbeat_decision."
)
_RULES_KEPT = 256  # distinct rules decisions kept for reuse
# Actions that trade nothing: what the tick saw is only recorded.
_WATCHING = frozenset({HeartbeatAction.OBSERVE, HeartbeatAction.ANALYZE, HeartbeatAction.ESCALATE})


def escalated(ctx: Situation, tier: ModelTier) -> Situation:
    """The Situation of the re-run an `Outcome.escalate_to` asks for: the same tick, the
    probes at the new tier, the next run number (its charge is separate)."""
    if ctx.probes is None:
        raise ValueError("only a tick with probes can be escalated")
    return replace(ctx, probes=replace(ctx.probes, tier=tier), run=ctx.run + 1)


class Heartbeat:
    """`Heartbeat(config)`: the per-tick subsystem; T0 ticks never reach a model."""

    def __init__(self, config: HeartbeatConfig) -> None:
        self.config = config
        # The rules' decisions made so far, by what makes them: a quiet tick repeats the
        # last one, and a decision is frozen, so it is validated once, not on every tick.
        self._rules: dict[tuple[Severity, HeartbeatAction, str], HeartbeatDecision] = {}
        # `quiet`'s last decision for each PE and flags: the θ range its rationale states
        # alike, and the decision (kept as long as the rules' decisions are).
        self._quiet: dict[tuple[float, tuple[str, ...]], tuple[float, float, HeartbeatDecision]]
        self._quiet = {}

    @property
    def name(self) -> SubsystemName:
        return SubsystemName.HEARTBEAT

    def decision_type(self, ctx: Situation) -> type[StructuredOutput]:
        return HeartbeatDecision

    def tier(self, ctx: Situation) -> ModelTier:
        if ctx.steer is not None:
            return ModelTier.T2
        return ModelTier.T0 if ctx.probes is None else ctx.probes.tier

    def skip_reason(self, ctx: Situation) -> str | None:
        return None

    def deliberation(self, ctx: Situation) -> ReasoningDepth | None:
        return None

    def judges(
        self, ctx: Situation, decision: StructuredOutput, feed: Sequence[FeedItem]
    ) -> tuple[Judge, ...]:
        return ()

    def brief(self, ctx: Situation) -> Brief:
        role = _ROLE + (_ESCALATE if self.tier(ctx) is ModelTier.T1 else "")
        if ctx.steer is None:
            return Brief(role, "Decide on this tick and answer with a heartbeat_decision.")
        return Brief(role + _STEERED, _STEERED_TASK, owner=ctx.steer.messages)

    def deterministic(self, ctx: Situation) -> StructuredOutput:
        """The decision from the probes alone: severity from which fired and how far PE
        passed the gate (none when no probe fired, low when some did below the gate);
        observe, or hedge a held position when health is critical (exit
        it in Terminal, where risk allows exits only: a hedge would be blocked every tick)."""
        probes = ctx.probes or Probes(prediction_error=0.0, theta=1.0, tier=ModelTier.T0)
        health_critical = probes.health_critical
        if health_critical:
            severity = Severity.CRITICAL
        elif probes.prediction_error >= 2 * probes.theta:
            severity = Severity.HIGH
        elif probes.prediction_error >= probes.theta:
            severity = Severity.MODERATE
        else:
            severity = _below_gate(probes.flags)
        hedge = (
            health_critical
            and self.config.rules_hedge_on_critical_health
            and ctx.portfolio.exposure_usd > 0
        )
        if not hedge:
            action = HeartbeatAction.OBSERVE
        elif ctx.phase is Phase.TERMINAL:
            action = HeartbeatAction.EXIT
        else:
            action = HeartbeatAction.HEDGE
        rationale = _rationale(probes.prediction_error, probes.theta, probes.flags)
        return self._rule(severity, action, rationale)

    def quiet(
        self, theta: float, error: float = 0.0, flags: tuple[str, ...] = ()
    ) -> HeartbeatDecision:
        """The rules' decision on a quiet tick (PE `error` below the gate `theta`, from the
        probes `flags`, none of them health critical): what `deterministic` decides there,
        severity low when a probe fired (none when none did), observe. The last one made
        on the same PE and flags is given again for a θ its rationale states alike (a
        stretch's θ moves in the third decimal), without writing the rationale."""
        last = self._quiet.get((error, flags))
        if last is not None and last[0] < theta < last[1]:
            return last[2]
        decision = self._rule(
            _below_gate(flags), HeartbeatAction.OBSERVE, _rationale(error, theta, flags)
        )
        self._quiet[error, flags] = (*_stated_alike(theta), decision)
        return decision

    def _rule(
        self, severity: Severity, action: HeartbeatAction, rationale: str
    ) -> HeartbeatDecision:
        key = (severity, action, rationale[:400])
        decision = self._rules.get(key)
        if decision is None:
            if len(self._rules) >= _RULES_KEPT:
                self._rules.clear()
                self._quiet.clear()
            # No signals: the market numbers the rules read are in every heartbeat's log
            # line (`act`), and this runs on every tick.
            decision = self._rules[key] = HeartbeatDecision.of(
                {
                    "severity": severity,
                    "action": action,
                    "confidence": self.config.rules_confidence,
                    "rationale": key[2],
                }
            )
        return decision

    def act(self, ctx: Situation, decision: StructuredOutput) -> Outcome:
        if not isinstance(decision, HeartbeatDecision):
            raise TypeError(f"heartbeat acts on a HeartbeatDecision, not {type(decision).__name__}")
        probes, severity, action = ctx.probes, decision.severity, decision.action
        # The line's `decision` holds severity, action and confidence: not repeated here.
        details: dict[str, Any] = {}
        if probes is not None:
            error = probes.prediction_error
            details["prediction_error"] = round(error, 4) if error else error  # most are 0.0
            details["theta"] = round(probes.theta, 4)
            details["flags"] = list(probes.flags)
        details["market"] = _market(ctx)
        if ctx.steer is not None:
            details["steered"] = len(ctx.steer.messages)
        events = _events(ctx)
        # An escalation carries no trade: the strong model's re-run decides the action.
        if decision.escalates and self.tier(ctx) is ModelTier.T1:
            return Outcome(
                summary=f"{severity}: escalate to T2",
                escalate_to=ModelTier.T2,
                events=events,
                details=details,
            )
        if action in _WATCHING:  # an escalate action at T2 has no stronger model to ask
            return Outcome(summary=f"{severity}: {action}", events=events, details=details)
        trade_action = TradeAction(action.value)
        proposed = ProposedTrade(
            action=trade_action,
            size_usd=None,
            reason=(decision.rationale or f"{severity} heartbeat")[:200],
            origin=SubsystemName.HEARTBEAT,
        )
        size = trade_notional(proposed, ctx.portfolio, self.config.sizing)
        if size <= 0 or size < self.config.min_trade_usd:
            summary = f"{severity}: {trade_action} wanted, nothing worth trading"
            return Outcome(summary=summary, events=events, details=details)
        size_usd = None if trade_action is TradeAction.EXIT else round(size, 2)
        trade = replace(proposed, size_usd=size_usd)
        return Outcome(
            summary=f"{severity}: propose {trade_action} of ${size:,.2f} to risk",
            trades=(trade,),
            events=events,
            details=details,
        )


def _below_gate(flags: tuple[str, ...]) -> Severity:
    """The rules' severity of a tick whose PE is below the gate, health not critical."""
    return Severity.LOW if flags else Severity.NONE


def _stated_alike(theta: float) -> tuple[float, float]:
    """The open range of θ that `_rationale` states as it states `theta` (to 2 places),
    kept off the edges where the rounding turns by far more than a float's error."""
    stated = float(f"{theta:.2f}")
    return stated - 0.005 + 1e-9, stated + 0.005 - 1e-9


def _rationale(error: float, theta: float, flags: tuple[str, ...]) -> str:
    """The rules' rationale: the PE against the gate, and which probes fired."""
    fired = ", ".join(flags) if flags else "no probe fired"
    return f"rules: PE {error:.2f} against θ {theta:.2f}; {fired}"


def _events(ctx: Situation) -> tuple[Event, ...]:
    """What the daimon should hear of, once per tick (not again on an escalated re-run):
    a flip across the regime band, and a tick surprising enough for T2 (a prediction
    miss). A mere band change happens on a quarter of ticks and is not news."""
    probes = ctx.probes
    if probes is None or ctx.run > 0:
        return ()
    shift = probes.regime_flip
    miss = probes.prediction_error >= 2 * probes.theta
    if not (shift or miss):
        return ()  # a quiet tick
    if shift and miss:
        return (Event("regime_shift"), Event("prediction_miss"))
    return (Event("regime_shift"),) if shift else (Event("prediction_miss"),)


def _market(ctx: Situation) -> dict[str, float]:
    return market_fields(ctx.market)


def market_fields(m: MarketSummary) -> dict[str, float]:
    """The market numbers the probes read this tick, for the log (unknown ones left out)."""
    market: dict[str, float] = {}
    # Spelled out rather than zipped with the names: this runs on every tick.
    if m.delta_period is not None:
        market["price_delta"] = round(m.delta_period, 6)
    if m.delta_1 is not None:
        market["price_delta_tick"] = round(m.delta_1, 6)
    if m.zscore is not None:
        market["zscore"] = round(m.zscore, 6)
    if m.volume_ratio is not None:
        market["volume_ratio"] = round(m.volume_ratio, 6)
    if m.health_factor is not None:
        market["health_factor"] = round(m.health_factor, 6)
    return market
