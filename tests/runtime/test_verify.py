"""Risk's cross-model verification (`[subsystems.risk] verify_with`): two scripted providers
through the real decide(), allocator and ledger. The stricter assessment stands, a
disagreement is a logged event, both calls are charged to risk; a small stake, a second
opinion the allocator cannot fund, or a failing verifier leave the first standing; the
log line and `golem inspect --summary` say how often the two agreed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pytest
import structlog
from structlog.testing import capture_logs

from golem.cli import main
from golem.inference import ServerError
from golem.inference.pricing import Price
from golem.inference.scripted import ScriptedProvider, ScriptStep
from golem.mortality import InMemoryLedger, SubsystemName, utc_day
from golem.runtime.asking import Budgeting, Route
from golem.runtime.config.load import ConfigError, key_statuses, parse_config
from golem.runtime.decide import decide
from golem.runtime.logs.sinks import configure_logging
from golem.runtime.record import DecisionRecord
from golem.runtime.routes import ProviderPool, build_routes
from golem.runtime.store.state import StateStore
from golem.simulation.scenario import load_scenario
from golem.subsystems.contract import PortfolioView, ProposedTrade, Situation
from golem.subsystems.risk import Risk, RiskAssessment, RiskConfig
from golem.world import TradeAction
from tests.policy import RISK
from tests.subsystems.support import NOW, PRICE, budgeting, context

CASH = PortfolioView(cash_usd=1000.0, equity_usd=1000.0)
VERIFYING = Risk(RiskConfig(verify_above_stake=0.2))


@pytest.fixture(autouse=True)
def _restore_structlog() -> Iterator[None]:
    yield
    structlog.reset_defaults()


def proposing(size: float) -> Situation:
    trade = ProposedTrade(TradeAction.BUY, size, "test", SubsystemName.HEARTBEAT)
    return context(proposed=trade, portfolio=CASH)


def layers(passed: bool = True) -> dict[str, Any]:
    layer = {"passed": True, "score": 0.2, "detail": "fine"}
    observed = {"passed": passed, "score": 0.2 if passed else 0.9, "detail": "a crash"}
    names = ("hard_shields", "position_sizing", "adaptive_guardrails", "defi_threats")
    return dict.fromkeys(names, layer) | {"observation": observed}


def approval(size: float | None, *, warning: str = "") -> str:
    answer = {"approved": True, "adjusted_size_usd": size, "layers": layers()}
    answer |= {"warnings": [warning] if warning else [], "proposed_size_usd": 200.0}
    return orjson.dumps(answer).decode()


REJECTION = orjson.dumps(
    {"approved": False, "layers": layers(passed=False), "warnings": ["crash"]}
).decode()


def provider(name: str, *steps: ScriptStep) -> ScriptedProvider:
    return ScriptedProvider(list(steps), name=name, model=f"{name}-1", price=PRICE)


def verified_by(
    first: ScriptedProvider, second: ScriptedProvider, *, price: Price = PRICE, **changes: Any
) -> Budgeting:
    env = budgeting(first, **changes)
    verify = Route(provider=second, model=second.model, price=price)
    return replace(env, routes=replace(env.routes, verify=verify))


def risk_charges(env: Budgeting) -> list[tuple[str, str, float]]:
    assert isinstance(env.ledger, InMemoryLedger)
    return [
        (c.idempotency_key.rsplit(":", 1)[-1], c.provider, c.usd)
        for c in env.ledger.charges(utc_day(NOW))
        if c.subsystem is SubsystemName.RISK
    ]


async def test_a_rejection_beats_an_approval_logged_and_both_charged_to_risk() -> None:
    first, second = provider("first", approval(150.0)), provider("second", REJECTION)
    env = verified_by(first, second)
    with capture_logs() as logs:
        record = await decide(VERIFYING, proposing(200.0), env)
    assert record.source == "model"
    assert isinstance(record.decision, RiskAssessment) and not record.decision.approved
    assert record.outcome is not None and record.outcome.blocked is not None
    line = record.fields()
    assert (line["verified_by"], line["agreed"], line["verify_kept"]) == (
        "second:second-1",
        False,
        "second",
    )
    [event] = [e for e in logs if e["event"] == "risk_disagreement"]
    assert event["log_level"] == "warning"
    assert (event["first_model"], event["first_approved"], event["first_size_usd"]) == (
        "first:first-1",
        True,
        150.0,
    )
    assert (event["second_model"], event["second_approved"], event["second_size_usd"]) == (
        "second:second-1",
        False,
        None,
    )
    assert event["id"] == record.decision_id and event["kept"] == "second"
    # Two charges to risk, each its own key; the decision's cost is both, to the cent.
    charges = risk_charges(env)
    assert [(key, name) for key, name, _ in charges] == [("2", "first"), ("verify", "second")]
    assert all(usd > 0 for _, _, usd in charges)
    assert record.cost_usd == pytest.approx(sum(usd for *_, usd in charges), abs=0)
    assert env.ledger.spent_usd(utc_day(NOW), SubsystemName.RISK) == record.cost_usd
    assert line["verify_cost_usd"] == charges[1][2]
    assert record.usage.input_tokens == 200  # the scripted 100 of each call


async def test_a_first_rejection_stands_against_a_verifier_approval() -> None:
    first, second = provider("first", REJECTION), provider("second", approval(None))
    with capture_logs() as logs:
        record = await decide(VERIFYING, proposing(200.0), verified_by(first, second))
    assert isinstance(record.decision, RiskAssessment) and not record.decision.approved
    assert record.fields()["verify_kept"] == "first"
    [event] = [e for e in logs if e["event"] == "risk_disagreement"]
    assert (event["first_approved"], event["second_approved"]) == (False, True)
    assert event["second_size_usd"] == 200.0  # as proposed


async def test_two_approvals_keep_the_smaller_size_whole() -> None:
    first = provider("first", approval(150.0))
    second = provider("second", approval(80.0, warning="thin book"))
    with capture_logs() as logs:
        record = await decide(VERIFYING, proposing(200.0), verified_by(first, second))
    assert record.outcome is not None and record.outcome.approved is not None
    assert record.outcome.approved.size_usd == 80.0
    assert isinstance(record.decision, RiskAssessment)
    assert record.decision.warnings == ["thin book"]  # the verifier's assessment, whole
    line = record.fields()
    assert (line["agreed"], line["verify_kept"]) == (True, "second")
    assert not [e for e in logs if e["event"] == "risk_disagreement"]


async def test_a_stake_below_the_threshold_is_asked_once() -> None:
    first, second = provider("first", approval(None)), provider("second")
    env = verified_by(first, second)
    record = await decide(VERIFYING, proposing(150.0), env)  # 15% of equity < 20%
    assert record.source == "model" and second.requests == []
    assert "verified_by" not in record.fields() and "verify_skipped" not in record.fields()
    assert [key for key, *_ in risk_charges(env)] == ["2"]


async def test_the_verifier_is_sent_the_same_prompt() -> None:
    first, second = provider("first", approval(None)), provider("second", approval(None))
    await decide(VERIFYING, proposing(200.0), verified_by(first, second))
    assert first.requests[0].messages == second.requests[0].messages
    assert second.requests[0].model == "second-1"


async def test_the_verifier_is_granted_no_more_reasoning_than_the_first() -> None:
    first, second = provider("first", approval(None)), provider("second", approval(None))
    env = verified_by(first, second)
    dear = {
        tier: replace(route, price=Price(200.0, 200.0)) for tier, route in env.routes.tiers.items()
    }
    env = replace(env, routes=replace(env.routes, tiers=dear))  # the verifier stays cheap
    record = await decide(VERIFYING, proposing(200.0), env)
    assert record.allocation is not None and record.allocation.fitted_from is not None
    granted = record.allocation.reasoning.depth
    assert granted < record.allocation.fitted_from  # the money left cut the first's
    assert second.requests[0].reasoning.depth == first.requests[0].reasoning.depth == granted


async def test_a_second_opinion_the_allocator_cannot_fund_leaves_the_first() -> None:
    first, second = provider("first", approval(150.0)), provider("second")
    dear = Price(input=1e5, output=1e5)  # USD per million tokens: far beyond risk's line
    env = verified_by(first, second, price=dear)
    record = await decide(VERIFYING, proposing(200.0), env)
    assert second.requests == []
    assert record.outcome is not None and record.outcome.approved is not None
    assert record.outcome.approved.size_usd == 150.0
    line = record.fields()
    assert line["verify_skipped"] in {
        "not funded: budget_exhausted",
        "not funded: cost_cap_exhausted",
    }
    assert line["verify_with"] == "second:second-1" and "verified_by" not in line
    assert [key for key, *_ in risk_charges(env)] == ["2"]


async def test_a_failing_verifier_leaves_the_first() -> None:
    first = provider("first", approval(150.0))
    second = provider("second", *[ServerError("down", provider="second", status=503)] * 3)
    record = await decide(VERIFYING, proposing(200.0), verified_by(first, second))
    assert record.outcome is not None and record.outcome.approved is not None
    assert record.fields()["verify_skipped"].startswith("server_error")


async def test_rules_and_fallbacks_are_never_verified() -> None:
    failing = provider("first", *[ServerError("down", provider="first", status=503)] * 3)
    second = provider("second")
    record = await decide(VERIFYING, proposing(200.0), verified_by(failing, second))
    assert record.source == "fallback" and second.requests == []
    terminal = await decide(
        VERIFYING, proposing(200.0), verified_by(provider("first"), second, daily_budget_usd=0.0)
    )
    assert terminal.source == "deterministic" and second.requests == []


async def test_without_a_threshold_nothing_is_verified() -> None:
    first, second = provider("first", approval(None)), provider("second")
    record = await decide(Risk(RISK), proposing(400.0), verified_by(first, second))
    assert record.verification is None and second.requests == []


# --- config --------------------------------------------------------------------------------


def config(**risk: Any) -> dict[str, Any]:
    return {
        "inference": {"t1": ["synthetic:claude-haiku-4-5"]},
        "providers": {"synthetic": {"emulate": "anthropic", "model": "claude-haiku-4-5"}},
        "subsystems": {"risk": risk},
    }


def test_verify_with_builds_a_route_and_compiles_the_threshold() -> None:
    parsed = parse_config(config(verify_with="synthetic:claude-sonnet-4", verify_above_stake=0.3))
    routes = build_routes(ProviderPool(parsed, {}))
    assert routes.verify is not None and routes.verify.model == "claude-sonnet-4"
    assert routes.verify.price.output > 0
    assert parsed.subsystems.risk.config().verify_above_stake == 0.3
    unset = parse_config(config(verify_above_stake=0.3))
    assert build_routes(ProviderPool(unset, {})).verify is None
    assert unset.subsystems.risk.config().verify_above_stake is None


@pytest.mark.parametrize(
    ("risk", "message"),
    [
        ({"verify_with": "nowhere:m"}, "unknown provider 'nowhere'"),
        ({"verify_with": "openai:"}, "write 'provider' or 'provider:model'"),
        ({"verify_with": "openai:gpt-4o-mini"}, "needs its key in the environment variable"),
        ({"verify_with": "synthetic", "verify_above_stake": 1.5}, "must be <= 1"),
    ],
)
def test_config_errors_name_the_key(risk: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(config(**risk))
    [problem] = caught.value.problems
    assert problem.key.startswith("subsystems.risk.verify_")
    assert message in problem.message


# --- the log and inspect --summary ---------------------------------------------------------


async def test_inspect_summary_shows_the_agreement_rate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = [
        (approval(150.0), REJECTION),
        (approval(150.0), approval(120.0)),
        (approval(150.0), approval(150.0)),
    ]
    records: list[DecisionRecord] = []
    for first, second in answers:
        env = verified_by(provider("first", first), provider("second", second))
        records.append(await decide(VERIFYING, proposing(200.0), env))
    dear = verified_by(provider("first", approval(None)), provider("second"), price=Price(1e5, 1e5))
    records.append(await decide(VERIFYING, proposing(200.0), dear))
    log = tmp_path / "golem.log"
    with configure_logging(now=lambda: NOW, file=log, console="off") as sinks:
        for record in records:
            sinks.publish(record)
    capsys.readouterr()  # what the decisions logged before the log was configured
    assert main(["inspect", str(log), "--summary", "--json"]) == 0
    verification = orjson.loads(capsys.readouterr().out)["verification"]
    assert verification == {
        "verified": 3,
        "agreed": 2,
        "disagreements": 1,
        "agreement_rate": pytest.approx(2 / 3),
        "skipped": 1,
    }
    assert main(["inspect", str(log), "--summary"]) == 0
    text = capsys.readouterr().out
    assert "2 of 3 verified decisions agreed (66.7%), 1 disagreements, 1 not verified" in text


def test_a_log_without_verification_says_nothing_of_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "golem.log"
    with configure_logging(now=lambda: NOW, file=log, console="off"):
        structlog.get_logger("golem").info("decision", subsystem="risk", source="model")
    assert main(["inspect", str(log), "--summary"]) == 0
    assert "verification" not in capsys.readouterr().out


def test_a_simulation_verifies_with_the_synthetic_provider_only(tmp_path: Path) -> None:
    scenario = tmp_path / "s.toml"
    text = (Path(__file__).parents[2] / "simulations" / "decline.toml").read_text()
    scenario.write_text(text + '\n[subsystems.risk]\nverify_with = "local"\n')
    with pytest.raises(ConfigError) as caught:
        load_scenario(scenario)
    assert [(p.key, p.message) for p in caught.value.problems] == [
        (
            "subsystems.risk.verify_with",
            "a simulation runs on 'synthetic' (a real model: golem simulate --provider)",
        )
    ]
    scenario.write_text(text + '\n[subsystems.risk]\nverify_with = "synthetic:claude-sonnet-4"\n')
    assert load_scenario(scenario).config.subsystems.risk.verify_with == "synthetic:claude-sonnet-4"


def test_config_check_counts_the_verifier_as_used() -> None:
    environ = {"OPENAI_API_KEY": "sk-test"}
    parsed = parse_config(config(verify_with="openai:gpt-4o-mini"), environ=environ)
    [openai] = [s for s in key_statuses(parsed, environ) if s.provider == "openai"]
    assert openai.used and openai.status == "set"


async def test_a_tick_killed_mid_verifier_keeps_the_verifiers_bill(tmp_path: Path) -> None:
    """The verifier's answered attempt is held as the provider answers it, under the
    verifier's key: a tick that dies before the verifier's charge voids it, as it does the
    first call's."""
    first = provider("first", approval(150.0))
    second = provider("second", "not an assessment", RuntimeError("killed mid-call"))
    with StateStore.open(tmp_path) as store:
        store.fund(10.0, NOW)
        env = replace(verified_by(first, second), ledger=store.ledger, hold_bill=store.hold_bill)
        with pytest.raises(RuntimeError, match="killed"), store.transaction():
            await decide(VERIFYING, proposing(200.0), env)
        voided = {
            c.idempotency_key.split(":void:")[0].rsplit(":", 1)[-1]: (c.provider, c.usd)
            for c in store.ledger.charges(utc_day(NOW))
        }
    one_call = PRICE.input * 100 / 1e6 + PRICE.output * 50 / 1e6
    assert voided == {
        "2": ("first", pytest.approx(one_call)),
        "verify": ("second", pytest.approx(one_call)),
    }
