"""The requests kept for replay: a round trip through the store gives the request back as
it was sent (masked, without `facts`), retention drops the old ones, `keep_requests = "off"`
keeps none, and a living golem keeps exactly its model decisions' requests."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import numpy as np
import orjson
import pytest

from golem.inference import Message, Request, Response, Tool, ToolCall, Usage
from golem.inference.reasoning import ReasoningConfig, ReasoningDepth
from golem.inference.types import Mode
from golem.mortality import Allocation, ModelTier, Phase, PipelineProfile, SubsystemName
from golem.runtime.config.load import ConfigError, parse_config
from golem.runtime.kept_requests import RequestKeeper
from golem.runtime.quiet import Stretch
from golem.runtime.quiet_stretch import QuietStretch
from golem.runtime.record import DecisionRecord
from golem.runtime.store import Answer, KeptRequest, StateStore
from golem.runtime.store.requests import decode, encode
from golem.runtime.stream import Record, RecordStream
from golem.subsystems import HeartbeatDecision
from golem.subsystems.heartbeat.probes import ProbePolicy
from golem.world import MarketSummary
from tests.policy import HEARTBEAT
from tests.runtime.test_life import START
from tests.runtime.test_life_context import WALLET, _live, config
from tests.runtime.test_quiet_gate import part_on

REQUEST = Request(
    messages=(
        Message.system("You are the risk step. " * 40),
        Message.user("ETH fell 4% at <address-3f9a12c0>"),
        Message.assistant(None, (ToolCall("c1", "lookup", {"q": 1}),)),
        Message.tool("c1", "42"),
    ),
    model="claude-haiku-4-5",
    max_tokens=400,
    temperature=0.2,
    reasoning=ReasoningConfig(ReasoningDepth.MEDIUM, visible=True),
    tools=(Tool("lookup", "look it up", {"type": "object"}, strict=True),),
    tool_choice="auto",
    facts=object(),  # a simulated model's, never sent: never kept
    choices={"/prune_ids/*": ("g1", "g2"), "/entries_evaluated": (2,)},  # the local grammar's
)
DECISION = HeartbeatDecision.of({"severity": "low", "action": "observe", "confidence": 0.7})


def kept(id: str = "risk@7.0", minutes: int = 0) -> KeptRequest:
    response = Response(
        parsed=DECISION,
        provider="anthropic",
        model="claude-haiku-4-5",
        mode=Mode.TOOL_USE,
        usage=Usage(900, 0, 80, 120),
        cost_usd=0.0021,
        latency_s=1.25,
        attempts=2,
    )
    return KeptRequest(
        id=id,
        time=START + timedelta(minutes=minutes),
        subsystem=id.partition("@")[0],
        schema="heartbeat_decision",
        max_attempts=3,
        request=REQUEST,
        answer=Answer.of(response, ReasoningDepth.MEDIUM),
    )


def test_a_kept_request_round_trips_compressed() -> None:
    original = kept()
    blob = encode(original)
    back = decode(original.id, original.time, original.subsystem, blob)
    assert back == original  # Request equality leaves `facts` out, as the wire does
    assert back.request.facts is None
    assert back.request.choices == REQUEST.choices  # out of equality, but kept for the replay
    assert back.answer.decision == DECISION.json_fields()
    assert (back.answer.mode, back.answer.depth, back.answer.attempts) == (
        "tool_use_workaround",
        "medium",
        2,
    )
    assert len(blob) < len(zlib.decompress(blob)) / 2  # zlib on orjson


def test_a_kept_request_keeps_the_seed_it_repeats() -> None:
    # A re-ask (the provenance check's counterfactual) repeats its call's sampling: a
    # replay of it must repeat it too.
    original = kept()
    reask = replace(original, request=original.request.evolve(seed=1234567))
    back = decode(reask.id, reask.time, reask.subsystem, encode(reask))
    assert back.request.seed == 1234567
    assert back == reask
    # A blob kept before the seed was decodes, with none.
    body = orjson.loads(zlib.decompress(encode(original)))
    del body["request"]["seed"]
    old = zlib.compress(orjson.dumps(body))
    assert decode(original.id, original.time, original.subsystem, old).request.seed is None


def test_the_store_keeps_gets_selects_and_prunes(tmp_path: Path) -> None:
    with StateStore.open(tmp_path) as store:
        archive = store.requests
        for i, name in enumerate(("risk", "heartbeat", "risk")):
            archive.keep(kept(f"{name}@{i}.0", minutes=10 * i))
        assert archive.get("heartbeat@1.0") == kept("heartbeat@1.0", 10)
        assert archive.get("risk@9.0") is None
        assert [k.id for k in archive.select(["risk"])] == ["risk@0.0", "risk@2.0"]
        assert [k.id for k in archive.select(since=START + timedelta(minutes=5))] == [
            "heartbeat@1.0",
            "risk@2.0",
        ]
        archive.prune(START + timedelta(minutes=15))
        assert [k.id for k in archive.select()] == ["risk@2.0"]
        assert archive.span() == (START + timedelta(minutes=20),) * 2


def test_a_batched_store_keeps_requests_at_its_commit(tmp_path: Path) -> None:
    """The simulator's store holds writes back: a kept request is readable in the batch."""
    with (
        StateStore.open(tmp_path, synchronous="OFF", commit_every=50) as store,
        store.transaction(),
    ):
        store.requests.keep(kept())
        assert store.requests.get("risk@7.0") is not None
    with StateStore.open(tmp_path) as store:
        assert store.requests.get("risk@7.0") is not None


def record(minutes: int, source: str = "model") -> DecisionRecord:
    """A model decision's record as decide() makes it, `minutes` after START."""
    allocation = Allocation(
        subsystem=SubsystemName.HEARTBEAT,
        tier=ModelTier.T1,
        ceiling=ModelTier.T1,
        budget_left_usd=1.0,
        profile=PipelineProfile.FAST,
        reasoning=ReasoningConfig(),
        worst_case_cost_usd=0.01,
        worst_case_total_usd=0.03,
        max_attempts=3,
    )
    return DecisionRecord(
        "g",
        START + timedelta(minutes=minutes),
        0.9,
        Phase.THRIVING,
        SubsystemName.HEARTBEAT,
        minutes,
        ModelTier.T1,
        ModelTier.T1,
        source,
        decision=DECISION,
        response=Response(parsed=DECISION, provider="p", model="m"),
        allocation=allocation,
        request=REQUEST,
    )


def test_the_keeper_keeps_model_decisions_and_drops_the_old(tmp_path: Path) -> None:
    with StateStore.open(tmp_path) as store:
        keeper = RequestKeeper(store.requests, timedelta(minutes=30))
        records: list[Record] = [record(m) for m in range(0, 120, 5)]
        records.append(record(120, source="deterministic"))
        for each in records:
            keeper(each)
        ids = [k.id for k in store.requests.select()]
        # Pruned every 3 minutes of the clock (a tenth of 30): nothing older than 30
        # minutes and a prune's lag.
        assert ids[-1] == "heartbeat@115.0" and "heartbeat@120.0" not in ids
        assert ids[0] in ("heartbeat@85.0", "heartbeat@80.0")


async def test_a_living_golem_keeps_its_model_decisions_masked_as_sent(tmp_path: Path) -> None:
    """Full profile: the wallet is masked in what was sent, and so in what is kept; each
    kept request is one the provider received."""
    cfg = config(tmp_path, security=True, wallet=WALLET)
    decisions, sent = await _live(cfg, 20)
    with StateStore.open(cfg.golem.state_dir) as store:
        kept_all = store.requests.select()
    assert [k.id for k in kept_all] == [d["id"] for d in decisions if d["source"] == "model"]
    texts = ["\n".join(m.content or "" for m in k.request.messages) for k in kept_all]
    assert not any(WALLET in text for text in texts)
    assert any("<address-" in text for text in texts)
    assert all(text in sent for text in texts)
    assert all(k.request.facts is None for k in kept_all)


async def test_keep_requests_off_keeps_none(tmp_path: Path) -> None:
    cfg = config(tmp_path, security=False)
    cfg = cfg.model_copy(update={"golem": cfg.golem.model_copy(update={"keep_requests": None})})
    await _live(cfg, 10)
    with StateStore.open(cfg.golem.state_dir) as store:
        assert store.requests.span() is None


@pytest.mark.parametrize(("value", "wanted"), [("2d", timedelta(days=2)), ("off", None)])
def test_keep_requests_reads_a_duration_or_off(value: str, wanted: timedelta | None) -> None:
    assert parse_config({"golem": {"keep_requests": value}}).golem.keep_requests == wanted
    assert parse_config({}).golem.keep_requests == timedelta(days=14)


def test_a_bad_keep_requests_is_named() -> None:
    with pytest.raises(ConfigError, match=r"golem\.keep_requests"):
        parse_config({"golem": {"keep_requests": "fortnight"}})


def test_the_keeper_hears_a_quiet_stretch_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fast-forward's quiet stretch is the rules' decisions: the stream hands it to the
    keeper whole (its records are not built one by one to be skipped), and none is kept."""
    policy = ProbePolicy.of(HEARTBEAT.probes)
    published: list[QuietStretch] = []
    part = part_on(policy.gate, published, policy.health_critical)
    market = MarketSummary(0, START, 100.0, None, None, None, None, None, None)
    times = [START + timedelta(seconds=15 * i) for i in range(3)]
    stretch = Stretch(0, times, [market] * 3, np.empty(0), np.full(3, 100.0))
    stretch.fired = [(), (), ()]
    assert part.begin(stretch) == 3 and all(part.admits(i) for i in range(3))
    part.end(3)
    (quiet,) = published

    def built(self: QuietStretch) -> Iterator[DecisionRecord]:
        raise AssertionError("the stretch's records were built for the keeper")

    monkeypatch.setattr(QuietStretch, "records", built)
    with StateStore.open(tmp_path) as store:
        keeper = RequestKeeper(store.requests, timedelta(minutes=30))
        RecordStream([keeper]).publish(quiet)
        assert store.requests.span() is None
        keeper(record(5))  # a model decision still is
        assert [k.id for k in store.requests.select()] == ["heartbeat@5.0"]
