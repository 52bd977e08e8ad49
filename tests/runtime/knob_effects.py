"""Which way each config key moves what a golem does: for test_no_dead_knobs, the figure to
read from a knob's observation and the direction a change of the key must move it.

A way is one of: "with" (the figure moves the way the key's value moved), "against" (the
opposite way), "rises" or "falls" (whatever the value, for keys without an order such as a
duration written as text), "becomes" (the figure is then `expected`, or `expected(value)`),
or "redrawn" (a seed: another draw is all it should give, so the figure only differs).
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

from golem.inference.durations import parse_duration
from golem.mortality import Allocation, ModelTier, Phase, SubsystemName
from golem.world import Regime

Way = Literal["with", "against", "rises", "falls", "becomes", "redrawn"]


@dataclass(frozen=True)
class Effect:
    says: str  # what the change should do, for the failure message
    figure: Callable[[Any], Any]  # read from the knob's observation
    way: Way
    expected: Any = None  # for "becomes": the figure's value, or a function of the value set


def holds(effect: Effect, before: Any, after: Any, default: Any, value: Any) -> bool:
    """Whether `before` -> `after` moved as `effect` says, for a key changed from
    `default` to `value`."""
    if effect.way == "redrawn":
        return bool(after != before)
    if effect.way == "becomes":
        expected = effect.expected(value) if callable(effect.expected) else effect.expected
        return bool(after == expected and before != expected)
    if effect.way == "rises":
        return bool(after > before)
    if effect.way == "falls":
        return bool(after < before)
    moved = _sign(_number(value) - _number(default))
    if effect.way == "against":
        moved = -moved
    return moved != 0 and _sign(_number(after) - _number(before)) == moved


def _number(value: Any) -> float:
    if isinstance(value, str):  # a duration as config writes it ("1h")
        value = parse_duration(value)
    if isinstance(value, timedelta):
        return value.total_seconds()
    if value is None:
        return 0.0
    return float(value)


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


# --- figures of `decisions` -----------------------------------------------------------


def granted(pred: Callable[[Any, Allocation], bool] = lambda g, a: True) -> Callable[[Any], int]:
    """How many allocations on the grid granted a model call (and satisfy `pred`)."""

    def count(seen: Mapping[str, Any]) -> int:
        return sum(1 for g, a in seen["allocations"] if isinstance(a, Allocation) and pred(g, a))

    return count


def depth_sum(pred: Callable[[Any, Allocation], bool] = lambda g, a: True) -> Callable[[Any], int]:
    """The reasoning depth granted, summed over the allocations that satisfy `pred`."""

    def total(seen: Mapping[str, Any]) -> int:
        return sum(
            int(a.reasoning.depth)
            for g, a in seen["allocations"]
            if isinstance(a, Allocation) and pred(g, a)
        )

    return total


def budget(
    subsystem: SubsystemName, vitality: float | None = None, ratio: float | None = None
) -> Callable[[Any], float]:
    """`subsystem`'s daily budget line summed over the grid (at `vitality`, at `ratio`)."""

    def total(seen: Mapping[str, Any]) -> float:
        return sum(
            lines[subsystem]
            for g, lines in seen["budgets"]
            if (vitality is None or g.vitality == vitality) and g.ratio == ratio
        )

    return total


def in_phase(phase: Phase) -> Callable[[Any], int]:
    """How many (vitality, previous phase) readings `phase_of` puts in `phase`."""
    return lambda seen: sum(1 for _, p in seen["phases"] if p is phase)


def moved_up(seen: Mapping[str, Any]) -> int:
    """How many readings left their previous phase for a better one."""
    order = list(Phase)
    return sum(1 for prev, p in seen["phases"] if prev and order.index(p) < order.index(prev))


def vitality_of(pred: Callable[[Any], bool] = lambda g: True) -> Callable[[Any], float]:
    """The vitality `assess` gives, summed over the grid readings that satisfy `pred`."""
    return lambda seen: sum(v.vitality for g, v in seen["assessments"] if pred(g))


def deaths(cause: str) -> Callable[[Any], int]:
    """How many of the grid's assessments die of `cause`."""
    return lambda seen: sum(1 for _, v in seen["assessments"] if str(v.cause) == cause)


def death_chance(seen: Mapping[str, Any]) -> float:
    return float(sum(v.death_probability for _, v in seen["assessments"]))


def _risk(g: Any, a: Allocation) -> bool:
    return bool(g.subsystem is SubsystemName.RISK)


def _high_pressure(g: Any, a: Allocation) -> bool:
    return bool(g.vitality <= 0.2)


# --- figures of the market, the fills, the answers -------------------------------------


def _returns(path: list[Any], regime: Regime | None = None) -> list[float]:
    return [
        math.log(b.price / a.price)
        for a, b in itertools.pairwise(path)
        if regime is None or a.regime is regime
    ]


def mean_return(regime: Regime) -> Callable[[Any], float]:
    return lambda path: statistics.fmean(_returns(path, regime))


def return_spread(regime: Regime) -> Callable[[Any], float]:
    return lambda path: statistics.pstdev(_returns(path, regime))


def mean_volume(regime: Regime | None = None) -> Callable[[Any], float]:
    return lambda path: statistics.fmean(o.volume for o in path if regime in (None, o.regime))


def volume_spread(path: list[Any]) -> float:
    return statistics.pstdev(math.log(o.volume) for o in path)


def mean_funding(regime: Regime) -> Callable[[Any], float]:
    return lambda path: statistics.fmean(o.funding_rate for o in path if o.regime is regime)


def first_stay(path: list[Any]) -> int:
    """Observations until the regime first changes (the length of the first stay)."""
    return next((i for i, o in enumerate(path) if o.regime is not path[0].regime), len(path))


def next_regime(path: list[Any]) -> Regime:
    return next(o.regime for o in path if o.regime is not path[0].regime)


def largest_fall(path: list[Any]) -> float:
    return -min(_returns(path))


def health(path: list[Any]) -> float:
    return statistics.fmean(o.health_factor for o in path)


def filled(seen: Mapping[str, Any], field: str) -> float:
    return float(sum(f[field] for f in seen["fills"]))


def answers(seen: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(seen["answers"])


def tokens(kind: str) -> Callable[[Any], int]:
    """The answers' usage of `kind` tokens, summed."""
    return lambda seen: sum(getattr(a["usage"], kind) for a in answers(seen) if "usage" in a)


def troubled(seen: Mapping[str, Any]) -> int:
    """Answers that failed, or took more than one attempt."""
    return sum(1 for a in answers(seen) if "error" in a or a["attempts"] > 1)


def prose(seen: Mapping[str, Any]) -> int:
    """Answers whose text does not start as the JSON object."""
    return sum(1 for a in answers(seen) if not (a.get("content") or "{").startswith("{"))


def modes(seen: Mapping[str, Any]) -> frozenset[str]:
    return frozenset(a["mode"] for a in answers(seen) if "mode" in a)


def count(items: Iterable[Any], pred: Callable[[Any], bool]) -> int:
    return sum(1 for item in items if pred(item))


_STRUCTURED = frozenset({"schema_enforced", "tool_use_workaround"})


def _blocked(verdict: Mapping[str, Any] | None) -> bool:
    return bool(verdict and verdict.get("blocked"))


def _csv_prices() -> frozenset[float]:
    import golem

    path = Path(golem.__file__).parent / "world" / "data" / "example_market.csv"
    rows = path.read_text().splitlines()[1:]
    return frozenset(float(row.split(",")[1]) for row in rows)


# --- the table ------------------------------------------------------------------------

S = SubsystemName
_T2 = ModelTier.T2


def _regime_effects(regime: Regime) -> dict[str, Effect]:
    at = f"world.market.regimes.{regime}"
    return {
        f"{at}.drift": Effect(f"returns in {regime} follow the drift", mean_return(regime), "with"),
        f"{at}.volatility": Effect(
            f"returns in {regime} spread with the volatility", return_spread(regime), "with"
        ),
        # The first stay (the path starts in this regime): the same draw scaled by the mean.
        f"{at}.mean_duration": Effect("the first stay is shorter", first_stay, "with"),
        f"{at}.volume_multiplier": Effect(
            f"volume in {regime} follows the multiplier", mean_volume(regime), "with"
        ),
        f"{at}.funding_rate": Effect(
            f"funding in {regime} follows the rate", mean_funding(regime), "with"
        ),
        f"{at}.transitions": Effect(
            f"{regime} turns into the regime given all the weight",
            next_regime,
            "becomes",
            lambda weights: Regime(max(weights, key=weights.get)),
        ),
    }


EFFECTS: dict[str, Effect] = {
    # [golem]
    "golem.id": Effect("the context names the new id", lambda s: s["golem_id"], "becomes", str),
    "golem.state_dir": Effect(
        "the golem keeps its state there", lambda s: s["state_dir"], "becomes", str
    ),
    "golem.seed": Effect("the market draws another path", lambda path: path, "redrawn"),
    "golem.wallet": Effect("the context shows the wallet", lambda s: s["wallet"], "becomes", str),
    "golem.max_consecutive_failures": Effect(
        "the scheduler stops after that many failures", lambda s: s["max_failures"], "with"
    ),
    "golem.keep_requests": Effect("fewer requests are kept", len, "falls"),
    # [providers]
    "providers.local.model_path": Effect(
        "the model is loaded from there",
        lambda s: str(s[3].model_path),
        "becomes",
        str,
    ),
    "providers.local.threads": Effect(
        "generation runs on that many threads", lambda s: s[0], "with"
    ),
    "providers.local.backend": Effect(
        "that backend constrains decoding", lambda s: str(s[1]), "becomes", str
    ),
    "providers.local.context_tokens": Effect(
        "the model's context window", lambda s: s[3].context_tokens, "with"
    ),
    "providers.local.max_tokens": Effect(
        "answers are cut there", lambda s: s[3].max_tokens, "with"
    ),
    "providers.local.temperature": Effect(
        "sampling temperature", lambda s: s[3].temperature, "with"
    ),
    "providers.local.repeat_penalty": Effect(
        "repetition is penalised so much", lambda s: s[3].repeat_penalty, "with"
    ),
    "providers.local.seed": Effect("sampling draws from that seed", lambda s: s[3].seed, "with"),
    "providers.local.outline": Effect(
        "the prompt outlines the decision", lambda s: s[3].outline, "with"
    ),
    "providers.local.max_string_chars": Effect(
        "the grammar bounds strings there", lambda s: s[2].max_string_chars, "with"
    ),
    "providers.local.max_array_items": Effect(
        "the grammar bounds lists there", lambda s: s[2].max_array_items, "with"
    ),
    "providers.local.answer_chars": Effect(
        "the grammar bounds the answer there", lambda s: s[2].answer_chars, "with"
    ),
    "providers.synthetic.emulate": Effect(
        "answers come in that provider's structured mode",
        modes,
        "becomes",
        frozenset({"schema_enforced"}),
    ),
    "providers.synthetic.model": Effect(
        "T1 is answered by that model", lambda s: answers(s)[0]["model"], "becomes", str
    ),
    "providers.synthetic.seed": Effect("the answers are drawn again", answers, "redrawn"),
    "providers.synthetic.prose_wrap": Effect("more answers come wrapped in prose", prose, "with"),
    "providers.synthetic.tokens.chars_per_token": Effect(
        "the same text counts more tokens", tokens("output_tokens"), "against"
    ),
    "providers.synthetic.tokens.noise": Effect("token counts are drawn again", answers, "redrawn"),
    "providers.synthetic.tokens.reasoning_fraction": Effect(
        "fewer reasoning tokens", tokens("reasoning_tokens"), "with"
    ),
    "providers.synthetic.tokens.reasoning_noise": Effect(
        "reasoning counts are drawn again", answers, "redrawn"
    ),
    "providers.synthetic.tokens.cached_fraction": Effect(
        "fewer input tokens are cached", tokens("cached_input_tokens"), "with"
    ),
    "providers.synthetic.faults.*": Effect("more answers fail or are re-asked", troubled, "with"),
    "providers.synthetic.faults.prose": Effect("more answers come as prose", prose, "with"),
    "providers.synthetic.faults.malformed_json": Effect(
        "more answers need repairs", lambda s: sum(a.get("repairs", 0) for a in answers(s)), "with"
    ),
    "providers.synthetic.faults.retry_after_s": Effect(
        "a rate limit asks for that wait",
        lambda s: max(a.get("retry_after") or 0.0 for a in answers(s)),
        "with",
    ),
    "providers.synthetic.compromised": Effect(
        "the model obeys the feed's exit", lambda s: s.count("exit"), "with"
    ),
    # [inference]
    "inference.t1": Effect(
        "T1 asks that model",
        lambda s: s["routes"]["t1"][0],
        "becomes",
        lambda v: v[0].split(":")[1],
    ),
    "inference.t2": Effect(
        "T2 asks that model",
        lambda s: s["routes"]["t2"][0],
        "becomes",
        lambda v: v[0].split(":")[1],
    ),
    "inference.death": Effect(
        "death asks that model",
        lambda s: s["routes"]["death"][0],
        "becomes",
        lambda v: v[0].split(":")[1],
    ),
    "inference.max_output_tokens": Effect(
        "answers are capped lower", lambda s: s["routes"]["t1"][2], "with"
    ),
    "inference.structured_outputs.enabled": Effect(
        "no answer comes structured",
        lambda s: count(answers(s), lambda a: a.get("mode") in _STRUCTURED),
        "with",
    ),
    "inference.structured_outputs.prefer_schema_enforcement": Effect(
        "answers no longer come schema-enforced", lambda s: "schema_enforced" in modes(s), "with"
    ),
    "inference.structured_outputs.validation": Effect(
        "an unsound answer is not re-asked", lambda s: s[0][1], "with"
    ),
    "inference.structured_outputs.retry_on_validation_failure": Effect(
        "invalid answers are not re-asked",
        lambda s: sum(a.get("attempts", 0) for a in answers(s)),
        "with",
    ),
    "inference.structured_outputs.max_retries": Effect(
        "calls are granted more attempts",
        lambda s: sum(a.max_attempts for _, a in s["allocations"] if isinstance(a, Allocation)),
        "with",
    ),
    "inference.transport.connect_timeout_s": Effect(
        "requests carry that connect timeout",
        lambda s: s["failing"]["timeouts"]["connect"],
        "with",
    ),
    "inference.transport.read_timeout_s": Effect(
        "requests carry that read timeout", lambda s: s["failing"]["timeouts"]["read"], "with"
    ),
    "inference.transport.total_timeout_s": Effect(
        "a silent server is waited for so long", lambda s: s["silent"]["waited_s"], "with"
    ),
    "inference.transport.max_stream_s": Effect(
        "a silent stream is waited for so long", lambda s: s["silent_stream"]["waited_s"], "with"
    ),
    "inference.transport.max_response_bytes": Effect(
        "a large body is refused", lambda s: s["large"]["outcome"] == "answered", "with"
    ),
    "inference.transport.max_retries": Effect(
        "a failing server is tried so often", lambda s: s["failing"]["attempts"], "with"
    ),
    "inference.transport.backoff_base_s": Effect(
        "retries wait longer", lambda s: s["failing"]["waited_s"], "with"
    ),
    "inference.transport.backoff_max_s": Effect(
        "retries wait at most that", lambda s: s["failing"]["waited_s"], "with"
    ),
    "inference.transport.max_retry_after_s": Effect(
        "a long Retry-After is no longer waited for", lambda s: s["limited"]["attempts"], "with"
    ),
    "inference.transport.proxy": Effect(
        "connections go through the proxy", lambda s: s["proxy"], "becomes", str
    ),
    "inference.transport.rate_limits": Effect(
        "a second request in the minute waits for the first's to pass",
        lambda s: s["waited_s"],
        "becomes",
        60.0,
    ),
    "inference.transport.learn_rate_limits": Effect(
        "the provider's word that none remain holds the next request back",
        lambda s: s["waited_s"],
        "with",
    ),
    # [mortality]
    "mortality.policy": Effect("no model call is granted", granted(), "becomes", 0),
    "mortality.initial_credits_usd": Effect(
        "the golem is born richer", lambda s: s["credits"], "with"
    ),
    "mortality.daily_budget_usd": Effect("every line gets less", budget(S.HEARTBEAT), "with"),
    "mortality.lineage_credits_usd": Effect(
        "the same money is less of a richer lineage's", lambda s: s["vitals"].economic, "against"
    ),
    "mortality.income_usd_per_day": Effect(
        "income covers more of the burn", lambda s: s["state"].sustainability_ratio, "with"
    ),
    "mortality.diem_allowance": Effect(
        "DIEM-priced calls are granted", granted(lambda g, a: g.diem), "with"
    ),
    "mortality.security": Effect(
        "more calls run under the Full profile",
        granted(lambda g, a: str(a.profile) == "full"),
        "with",
    ),
    "mortality.stochastic_death": Effect(
        "no golem dies of the hazard roll", deaths("stochastic"), "with"
    ),
    "mortality.seed": Effect("the hazard rolls again", lambda s: s["assessments"], "redrawn"),
    "mortality.burn_decay": Effect(
        "a new spend weighs more in the burn rate", lambda s: s["vitals"].burn_rate_usd, "against"
    ),
    "prediction.gate.enabled": Effect(
        "off: every trade risk approved goes ahead", lambda permitted: permitted, "rises"
    ),
    "prediction.gate.category_threshold": Effect(
        "the gate permits fewer trades", lambda permitted: permitted, "against"
    ),
    "prediction.gate.inaction_comparison": Effect(
        "off: inaction's better record no longer blocks", lambda permitted: permitted, "rises"
    ),
    "prediction.gate.inaction_margin": Effect(
        "a wider margin lets more trades past inaction", lambda permitted: permitted, "with"
    ),
    "mortality.senescence_threshold": Effect(
        "fewer golems are senescent", deaths("epistemic"), "with"
    ),
    "mortality.senescence_grace": Effect("senescence kills later", deaths("epistemic"), "against"),
    "mortality.terminal_grace": Effect("Terminal kills sooner", lambda s: s["tick"], "falls"),
    "mortality.reserve.*": Effect("more is held back for death", lambda s: s["born"], "with"),
    "mortality.reserve.per_position_usd": Effect(
        "an open position holds more back", lambda s: s["later"], "with"
    ),
    "mortality.reserve.recalculate_ticks": Effect(
        "the reserve follows the open position later", lambda s: s["later"], "against"
    ),
    "mortality.fit_depth": Effect(
        "no depth is fitted to the money", granted(lambda g, a: a.fitted_from is not None), "falls"
    ),
    "mortality.vitality.economic_centre": Effect(
        "the same money is worth more vitality", vitality_of(), "against"
    ),
    "mortality.vitality.economic_steepness": Effect(
        "a full wallet is worth more vitality", vitality_of(lambda g: g.credits == 8.0), "with"
    ),
    "mortality.vitality.epistemic_centre": Effect(
        "the same skill is worth more vitality", vitality_of(), "against"
    ),
    "mortality.vitality.epistemic_steepness": Effect(
        "a skill above the centre is worth more", vitality_of(lambda g: g.epistemic == 0.5), "with"
    ),
    "mortality.vitality.age_weight": Effect(
        "age costs less vitality", vitality_of(lambda g: g.tick == 400_000), "against"
    ),
    "mortality.vitality.age_horizon": Effect(
        "age costs less vitality", vitality_of(lambda g: g.tick == 400_000), "with"
    ),
    "mortality.hazard.makeham": Effect("death is less likely", death_chance, "with"),
    "mortality.hazard.gompertz": Effect("death is less likely", death_chance, "with"),
    "mortality.hazard.ageing": Effect("death is less likely", death_chance, "with"),
    "mortality.hazard.max_fitness_multiplier": Effect("death is less likely", death_chance, "with"),
    "mortality.hazard.cap": Effect("death is less likely", death_chance, "with"),
    # the parameters are per reference tick: the same values over a shorter tick are a
    # faster rate, so over the same interval death is likelier
    "mortality.hazard.reference_tick": Effect("death is likelier", death_chance, "against"),
    "mortality.phases.thriving": Effect(
        "more readings are Thriving", in_phase(Phase.THRIVING), "against"
    ),
    "mortality.phases.stable": Effect(
        "more readings are Stable", in_phase(Phase.STABLE), "against"
    ),
    "mortality.phases.conservation": Effect(
        "more readings are in Conservation", in_phase(Phase.CONSERVATION), "against"
    ),
    "mortality.phases.declining": Effect(
        "more readings are Declining", in_phase(Phase.DECLINING), "against"
    ),
    "mortality.phases.hysteresis": Effect("moving up comes easier", moved_up, "against"),
    **{
        f"mortality.budgets.lines.{line}.share": Effect(
            f"{line}'s line gets less", budget(line), "with"
        )
        for line in S
        if line is not S.DEATH
    },
    **{
        f"mortality.budgets.lines.{line}.pressure_weight": Effect(
            f"{line}'s line shrinks more under pressure", budget(line, vitality=0.2), "against"
        )
        for line in S
        if line is not S.DEATH
    },
    "mortality.budgets.unlimited": Effect(
        "the operator's line is unlimited", budget(S.OPERATOR), "becomes", math.inf
    ),
    "mortality.budgets.expand_above": Effect(
        "a sustainable golem's lines no longer expand", budget(S.HEARTBEAT, ratio=3.0), "against"
    ),
    "mortality.budgets.expansion": Effect(
        "a sustainable golem's lines expand less", budget(S.HEARTBEAT, ratio=3.0), "with"
    ),
    "mortality.budgets.contract_below": Effect(
        "a burning golem's lines no longer contract", budget(S.HEARTBEAT, ratio=0.3), "against"
    ),
    "mortality.budgets.contraction": Effect(
        "a burning golem's lines contract more", budget(S.HEARTBEAT, ratio=0.3), "with"
    ),
    "mortality.budgets.never_contracted": Effect(
        "risk's line contracts too", budget(S.RISK, ratio=0.3), "falls"
    ),
    "mortality.cost_cap.no_top_tier_at": Effect(
        "the top tier is refused sooner in the day", granted(lambda g, a: a.tier is _T2), "with"
    ),
    "mortality.cost_cap.risk_and_death_only_at": Effect(
        "the others are refused sooner in the day",
        granted(lambda g, a: g.subsystem not in (S.RISK, S.DEATH)),
        "with",
    ),
    "mortality.reasoning.downgrade_above": Effect(
        "reasoning is cut at less pressure", depth_sum(), "with"
    ),
    "mortality.reasoning.none_above": Effect(
        "reasoning is switched off at less pressure", depth_sum(), "with"
    ),
    "mortality.reasoning.exempt": Effect(
        "risk's reasoning is cut under pressure",
        lambda s: sum(int(d) for (sub, _), d in s["pressured"].items() if sub is S.RISK),
        "falls",
    ),
    # [heartbeat]
    "heartbeat.interval": Effect(
        "the heartbeat beats less often", lambda s: s["intervals"][Phase.THRIVING], "rises"
    ),
    "heartbeat.theta_base": Effect(
        "the gate opens for smaller surprises", lambda s: sum(p.theta for p in s), "with"
    ),
    "heartbeat.theta_min": Effect(
        "the gate's floor is lower", lambda s: min(p.theta for p in s), "with"
    ),
    "heartbeat.theta_max": Effect(
        "the gate's ceiling is lower", lambda s: max(p.theta for p in s), "with"
    ),
    "heartbeat.conservation_factor": Effect(
        "Conservation slows the heartbeat more",
        lambda s: s["intervals"][Phase.CONSERVATION],
        "with",
    ),
    # [subsystems]
    "subsystems.daimon.enabled": Effect(
        "the daimon decides nothing", lambda s: s[1].count(S.DAIMON), "with"
    ),
    "subsystems.curator.enabled": Effect(
        "the curator is not scheduled", lambda s: "curator" in s["jobs"], "with"
    ),
    "subsystems.curator.schedule": Effect(
        "the curator runs later", lambda s: s["jobs"]["curator"], "rises"
    ),
    "subsystems.dream.enabled": Effect(
        "the dream is not scheduled", lambda s: "dream" in s["jobs"], "with"
    ),
    "subsystems.dream.schedule": Effect(
        "the dream runs later", lambda s: s["jobs"]["dream"], "rises"
    ),
    "subsystems.dream.min_episodes": Effect(
        "fewer resolved episodes needed: the first dream comes sooner", lambda m: m, "with"
    ),
    "subsystems.risk.deliberation": Effect(
        "every trade is judged at the seeds' tier and depth",
        lambda s: count(s, lambda d: d[1] is None),
        "rises",
    ),
    "subsystems.risk.small_stake": Effect(
        "fewer trades are judged with no reasoning",
        lambda s: count(s, lambda d: d[1] is not None and int(d[1]) == 0),
        "with",
    ),
    "subsystems.risk.large_stake": Effect(
        "more trades are judged on the dear tier",
        lambda s: sum(1 for t, _ in s if t is _T2),
        "against",
    ),
    "subsystems.risk.verdict_window": Effect(
        "risk's verdicts are reused", lambda s: count(s, lambda d: d[4] == "verdict"), "rises"
    ),
    "subsystems.risk.verdict_size_bucket": Effect(
        "coarser buckets reuse more verdicts",
        lambda s: count(s, lambda d: d[4] == "verdict"),
        "with",
    ),
    "subsystems.risk.verdict_error_bucket": Effect(
        "finer buckets reuse fewer verdicts",
        lambda s: count(s, lambda d: d[4] == "verdict"),
        "with",
    ),
    "subsystems.risk.verify_with": Effect(
        "risk's assessments get a second opinion",
        lambda s: count(s, lambda d: d[3] is not None),
        "rises",
    ),
    "subsystems.risk.verify_above_stake": Effect(
        "fewer assessments are verified",
        lambda s: count(s, lambda d: d[3] is not None and d[3][2] is None),
        "against",
    ),
    "subsystems.risk.external_allow": Effect(
        "the allowed address is not blocked", _blocked, "falls"
    ),
    "subsystems.risk.provenance": Effect(
        "nothing is checked, so nothing is blocked", _blocked, "with"
    ),
    # [cache]
    "cache.enabled": Effect(
        "model decisions are reused", lambda s: count(s, lambda d: d[3] == "hit"), "with"
    ),
    "cache.ttl": Effect(
        "fewer decisions are reused", lambda s: count(s, lambda d: d[3] == "hit"), "falls"
    ),
    "cache.subsystems": Effect(
        "only the daimon's decisions are reused",
        lambda s: frozenset(str(d[1]) for d in s if d[3] == "hit"),
        "becomes",
        frozenset,
    ),
    "cache.size_bucket": Effect(
        "finer buckets reuse fewer decisions",
        lambda s: count(s, lambda d: d[3] == "hit"),
        "with",
    ),
    # [world]
    "world.source": Effect(
        "the prices are the file's",
        lambda path: all(o.price in _csv_prices() for o in path),
        "becomes",
        True,
    ),
    "world.seed": Effect("the market draws another path", lambda path: path, "redrawn"),
    "world.market.initial_price": Effect("prices start higher", lambda path: path[0].price, "with"),
    # Measured: a longer tick changes only the volume an observation shows (halved when
    # the interval doubles); the price path and the tick numbers stay as they were.
    "world.market.tick_interval": Effect(
        "each observation shows less volume", mean_volume(), "against"
    ),
    "world.market.initial_regime": Effect(
        "the market starts volatile", lambda path: path[0].regime, "becomes", Regime
    ),
    **{k: v for r in Regime for k, v in _regime_effects(r).items()},
    "world.market.base_volume": Effect("volume follows the base", mean_volume(), "with"),
    "world.market.volume_noise": Effect("volume spreads with the noise", volume_spread, "with"),
    "world.market.volume_return_sensitivity": Effect(
        "volume follows the moves less", volume_spread, "with"
    ),
    "world.market.shocks": Effect("the shock brings a larger fall", largest_fall, "rises"),
    "world.market.random_shocks": Effect("shocks bring larger falls", largest_fall, "rises"),
    "world.market.lending.collateral_usd": Effect("the position is healthier", health, "with"),
    "world.market.lending.debt_usd": Effect("the position is less healthy", health, "against"),
    "world.market.lending.liquidation_threshold": Effect(
        "the position is less healthy", health, "with"
    ),
    "world.csv": Effect("the prices are the file's", lambda path: path[0].price, "rises"),
    "world.cash_usd": Effect("the portfolio starts with that cash", lambda s: s["cash"], "with"),
    "world.portfolio.asset": Effect(
        "the golem trades that asset", lambda s: s["fills"][0]["asset"], "becomes", str
    ),
    "world.portfolio.costs.fee_bps": Effect(
        "trades pay more fees", lambda s: filled(s, "fee_usd"), "with"
    ),
    "world.portfolio.costs.base_slippage_bps": Effect(
        "trades slip more", lambda s: filled(s, "slippage_bps"), "with"
    ),
    "world.portfolio.costs.impact_bps": Effect(
        "large trades slip more", lambda s: filled(s, "slippage_bps"), "with"
    ),
    "world.portfolio.costs.impact_notional_usd": Effect(
        "the same trade moves the market less", lambda s: filled(s, "slippage_bps"), "against"
    ),
    "world.portfolio.costs.volatility_factor": Effect(
        "volatility widens slippage less", lambda s: filled(s, "slippage_bps"), "with"
    ),
    "world.portfolio.costs.max_slippage_bps": Effect(
        "slippage is capped lower", lambda s: filled(s, "slippage_bps"), "with"
    ),
    "world.portfolio.max_order_usd": Effect(
        "orders are capped", lambda s: filled(s, "notional_usd"), "falls"
    ),
    "world.portfolio.min_order_usd": Effect(
        "a small order fills", lambda s: sum(1 for f in s["fills"] if f["quantity"] > 0), "against"
    ),
    "world.portfolio.target_weight": Effect(
        "a rebalance buys less", lambda s: s["fills"][0]["notional_usd"], "with"
    ),
    "world.portfolio.initial_weight": Effect(
        "born holding more of the asset", lambda s: s["held_at_birth"], "with"
    ),
    "world.portfolio.hedge_fraction": Effect(
        "a hedge sells less", lambda s: s["fills"][1]["notional_usd"], "with"
    ),
    "world.feed": Effect("the golem hears the feed", lambda s: len(s["feed"]), "rises"),
    # A missing candle file's error names the `golem data fetch` that makes it.
    "world.candles": Effect("the fetch writes that file", lambda s: s["out"], "becomes", str),
    "world.exchange": Effect(
        "the fetch asks that exchange", lambda s: s["exchange"], "becomes", str
    ),
    "world.symbol": Effect("the fetch asks for that symbol", lambda s: s["symbol"], "becomes", str),
    "world.timeframe": Effect(
        "the fetch asks for those candles", lambda s: s["timeframe"], "becomes", str
    ),
    "world.api_url": Effect(
        "the exchange is asked there",
        lambda s: s["public_api"],
        "becomes",
        lambda url: url + "/api/v3",
    ),
    "world.timeout": Effect("a request waits less", lambda s: s["timeout_ms"], "falls"),
    "world.stale_after": Effect("the market goes stale sooner", lambda s: s["stale_from"], "with"),
    # [context]
    **{
        f"context.{profile}.{field}": Effect(
            f"the {profile} prompt holds less",
            lambda s, p=profile, f=field: _limit(s, p, f),
            "with",
        )
        for profile in ("minimal", "fast", "standard", "full")
        for field in ("max_tokens", "observations", "feed_items", "knowledge", "episodes")
    },
    "subsystems.risk.approve_above_stake": Effect(
        "trades above it wait for the owner",
        lambda s: s[("approval_waiting", None)],
        "rises",
    ),
    "subsystems.risk.approval_timeout": Effect(
        "sooner, more unanswered trades are denied by it",
        lambda s: s[("approval_decided", "timeout")],
        "against",
    ),
    "subsystems.risk.approval_policy": Effect(
        "the policy approves for the owner: held trades execute",
        lambda s: s[("approval_executed", "policy")],
        "rises",
    ),
    # [control], [notify]
    "control.token_env": Effect(
        "the token is read from that variable: the control API opens",
        lambda s: s["token_read"],
        "becomes",
        True,
    ),
    "control.budget_min_usd": Effect(
        "the lowest daily budget an owner may set follows", lambda s: s["bounds"][0], "with"
    ),
    "control.budget_max_usd": Effect(
        "the highest daily budget an owner may set is it",
        lambda s: s["bounds"][1],
        "becomes",
        lambda value: value,
    ),
    "notify.urls": Effect("a notifier sends to them", lambda s: s["notifier"], "becomes", True),
    "notify.events": Effect(
        "only the events named are queued", lambda s: sum(s["queued"].values()), "falls"
    ),
    # [telemetry]
    "telemetry.otlp_endpoint": Effect(
        "decisions are traced to it", lambda traced: traced, "becomes", True
    ),
    # [logging]
    "logging.file": Effect("the log is written there", lambda s: s[0], "becomes", str),
    "logging.level": Effect("debug lines are written too", lambda s: s[1], "rises"),
    "logging.console": Effect("the console shows no JSON", lambda s: sum(s[2]), "falls"),
}


def _limit(seen: Mapping[str, Any], profile: str, field: str) -> int:
    limits = {str(p): v for p, v in seen["limits"].items()}
    return int(getattr(limits[profile], field))


def effect_for(key: str) -> Effect | None:
    """The most specific entry matching `key` (an exact key before a pattern)."""
    import fnmatch

    if key in EFFECTS:
        return EFFECTS[key]
    patterns = [p for p in EFFECTS if fnmatch.fnmatchcase(key, p)]
    return EFFECTS[max(patterns, key=len)] if patterns else None
