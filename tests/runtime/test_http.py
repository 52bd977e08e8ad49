"""The status endpoint of a golem living on a virtual clock with the synthetic provider,
served by Hypercorn on 127.0.0.1 in the life's nursery and asked with httpx: /health,
/status, /decisions (filters and the reasoning-tokens header), /events (a decision
arrives; the client leaving does not disturb the golem) and /metrics (parsed)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import trio
from prometheus_client.parser import text_string_to_metric_families

from golem.mortality import SubsystemName
from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.config.sections import GolemConfig
from golem.runtime.http import REASONING_HEADER, HttpAddress, StatusEndpoint, url_of
from golem.runtime.life import Life, assemble
from golem.runtime.record import DecisionRecord
from golem.runtime.store.state import StateStore
from golem.runtime.stream import Record

START = datetime(2026, 3, 1, tzinfo=UTC)
LIFE = timedelta(hours=1)


def config(tmp_path: Path) -> GolemConfig:
    return parse_config(
        {
            "golem": {"id": "g-http", "state_dir": str(tmp_path / "state"), "seed": 3},
            "inference": {
                "t1": ["synthetic"],
                "t2": ["synthetic:deepseek-reasoner"],
                "death": ["synthetic:deepseek-reasoner"],
            },
            "providers": {
                "synthetic": {
                    "emulate": "deepseek",
                    "model": "deepseek-chat",
                    # Failures to count: errors, answers that need a re-ask.
                    "faults": {"server_error": 0.2, "schema_invalid": 0.2},
                },
            },
            "mortality": {"initial_credits_usd": 10.0, "daily_budget_usd": 1.0},
            # A low threshold: the heartbeat asks a model now and then.
            "heartbeat": {"interval": "15s", "theta_base": 0.01, "theta_min": 0.0},
            "subsystems": {"curator": {"schedule": "10m"}, "dream": {"schedule": "30m"}},
        }
    )


class SteppedClock:
    """The virtual clock without its instant jumps: the scheduler waits on it before each
    job (a checkpoint, no real time), so the server's tasks run between the golem's jobs
    as they would between a daemon's ticks."""

    def __init__(self, start: datetime) -> None:
        self._clock = VirtualClock(start)

    def now(self) -> datetime:
        return self._clock.now()

    async def sleep_until(self, moment: datetime) -> None:
        await self._clock.sleep_until(moment)


async def next_frame(chunks: AsyncIterator[bytes], buffer: bytearray) -> bytes:
    """The next server-sent event's frame, split on a blank line (as bytes: SSE is framed
    on CR and LF only)."""
    while b"\n\n" not in buffer:
        buffer += (await anext(chunks)).replace(b"\r\n", b"\n")
    frame, _, rest = bytes(buffer).partition(b"\n\n")
    buffer[:] = rest
    return frame


# A client leaving an endless stream abandons httpx's own stream generators (they are
# never exhausted); the server's side of the stream is closed by the request's end.
@pytest.mark.filterwarnings(
    "ignore:Async generator 'httpx:ResourceWarning",
    "ignore:Async generator 'httpcore:ResourceWarning",
)
async def test_the_endpoints_answer_for_a_living_golem(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    clock = SteppedClock(START)
    published: list[DecisionRecord] = []

    def keep(record: Record) -> None:
        if isinstance(record, DecisionRecord):
            published.append(record)

    with StateStore.open(cfg.golem.state_dir) as store:
        life, pool = assemble(cfg, clock=clock, store=store, environ={}, subscribers=[keep])
        assert pool is not None
        endpoint = StatusEndpoint(life)
        listening = HttpAddress.parse("127.0.0.1:0").bind()
        url = url_of(listening)
        received: list[dict[str, Any]] = []
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(endpoint.serve, listening)
                async with httpx.AsyncClient(base_url=url) as client:

                    async def first_decision(*, task_status: trio.TaskStatus[None]) -> None:
                        async with client.stream("GET", "/events") as response:
                            assert response.headers["content-type"].startswith("text/event-stream")
                            chunks, buffer = response.aiter_bytes(), bytearray()
                            assert (await next_frame(chunks, buffer)).startswith(b":")
                            task_status.started()  # the listener is in place
                            frame = await next_frame(chunks, buffer)
                            while frame.startswith(b":"):  # a keep-alive comment
                                frame = await next_frame(chunks, buffer)
                            event, data = frame.split(b"\n")
                            assert event == b"event: decision"
                            received.append(orjson.loads(data.removeprefix(b"data: ")))
                        # ...and leaves while the golem lives on.

                    await nursery.start(first_decision)
                    ended = await life.run(duration=LIFE)
                    await check_answers(client, life, published, store)
                nursery.cancel_scope.cancel()
        finally:
            await pool.aclose()
    assert ended == "duration"
    assert life.golem.tick_no > 100  # it lived its hour
    assert endpoint.feed.listeners == 0  # the client's listener went with it
    assert received and received[0]["event"] == "decision"
    assert received[0]["tick"] == published[0].tick
    assert received[0]["subsystem"] == str(published[0].subsystem)


async def check_answers(
    client: httpx.AsyncClient, life: Life, published: list[DecisionRecord], store: StateStore
) -> None:
    golem, now = life.golem, life.clock.now()
    health = (await client.get("/health")).json()
    assert health["alive"] is True
    assert health["phase"] == str(golem.vitals.phase)
    assert health["tick"] == golem.tick_no
    assert 0 <= health["last_tick_age_s"] <= 30  # 15 s, or 30 s once it conserves

    status = (await client.get("/status")).json()
    assert status["vitality"] == golem.vitals.vitality
    assert set(status["clocks"]) == {"economic", "epistemic"}
    assert status["credits_usd"] == store.credits() < 10.0
    assert status["burn_rate_usd"] == golem.vitals.burn_rate_usd
    oracle = status["oracle"]  # the prediction engine: the epistemic clock is its fitness
    assert oracle["fitness"] == round(golem.predictor.fitness, 6)
    assert set(oracle["categories"]) == {
        "price_direction",
        "volatility_regime",
        "position_health",
        "inaction",
    }
    inaction = oracle["categories"]["inaction"]
    assert inaction["total"] > 0 and 0 <= inaction["hit_rate"] <= 1  # rules' ticks claimed
    assert oracle["senescence"]["stage"] == "normal"
    budgets = status["budgets"]
    assert budgets["day"] == now.date().isoformat()
    lines = budgets["subsystems"]
    assert set(lines) == {str(name) for name in SubsystemName}
    assert lines["death"]["budget_usd"] is None
    for line in lines.values():
        if line["budget_usd"] is not None:
            assert line["left_usd"] == max(0.0, line["budget_usd"] - line["spent_usd"])
    last = {str(record.subsystem): record for record in published}
    assert set(status["last_decisions"]) == set(last)
    heartbeat = status["last_decisions"]["heartbeat"]
    assert heartbeat["tick"] == last["heartbeat"].tick == golem.tick_no - 1

    response = await client.get("/decisions", params={"subsystem": "heartbeat", "since": "10m"})
    kept = response.json()
    assert kept and {d["subsystem"] for d in kept} == {"heartbeat"}
    expected = [
        r for r in published if r.subsystem == "heartbeat" and r.time >= now - timedelta(minutes=10)
    ]
    assert [d["tick"] for d in kept] == [r.tick for r in expected]
    tokens = sum(r.usage.reasoning_tokens for r in expected)
    assert response.headers[REASONING_HEADER] == str(tokens)

    everything = (await client.get("/decisions", params={"limit": "1000"})).json()
    assert len(everything) == len(published)
    iso = (await client.get("/decisions", params={"since": (now - LIFE / 2).isoformat()})).json()
    assert iso and all(d["time"] >= (now - LIFE / 2).isoformat() for d in iso)

    model = next(r for r in reversed(published) if r.source == "model")
    one = await client.get("/decisions", params={"id": model.decision_id})
    assert [d["id"] for d in one.json()] == [model.decision_id]
    assert one.headers[REASONING_HEADER] == str(model.usage.reasoning_tokens)
    assert (await client.get("/decisions", params={"id": "risk@999999.0"})).status_code == 404
    for bad in ({"subsystem": "nobody"}, {"since": "yesterday"}, {"limit": "0"}):
        refused = await client.get("/decisions", params=bad)
        assert refused.status_code == 400
        assert next(iter(bad)) in refused.json()["error"]
    assert (await client.post("/status")).status_code == 405  # read-only

    metrics = await client.get("/metrics")
    assert metrics.headers["content-type"].startswith("text/plain")
    families = {f.name: f for f in text_string_to_metric_families(metrics.text)}
    decisions = [s for s in families["golem_decisions"].samples if s.name.endswith("_total")]
    assert sum(s.value for s in decisions) == len(published)
    assert {s.labels["subsystem"] for s in decisions} == set(last)
    (ticks,) = [s for s in families["golem_ticks"].samples if s.name == "golem_ticks_total"]
    assert ticks.value == golem.tick_no
    assert families["golem_vitality"].samples[0].value == golem.vitals.vitality
    fitness = families["golem_epistemic_fitness"].samples[0].value
    assert fitness == round(golem.predictor.fitness, 6)
    accuracy = {
        s.labels["category"]: s.value for s in families["golem_prediction_accuracy"].samples
    }
    assert accuracy["inaction"] == inaction["hit_rate"]
    gated = families["golem_trades_gated"].samples
    assert [s.value for s in gated if s.name == "golem_trades_gated_total"] == [
        golem.predictor.blocked
    ]
    spent = sum(s.value for s in families["golem_spend_usd"].samples if s.name.endswith("_total"))
    assert abs(spent - sum(r.cost_usd for r in published)) < 1e-12
    latency = [
        s for s in families["golem_call_latency_seconds"].samples if s.name.endswith("_count")
    ]
    assert sum(s.value for s in latency) == sum(r.response is not None for r in published)

    def total(name: str) -> float:
        return sum(s.value for s in families[name].samples if s.name == f"{name}_total")

    errors = sum(r.error is not None and r.allocation is not None for r in published)
    reasks = sum(r.response.attempts - 1 for r in published if r.response is not None)
    assert total("golem_provider_errors") == errors > 0
    assert total("golem_reasks") == reasks > 0
    assert total("golem_degradations") == sum(len(r.degradations) for r in published)
    assert {s.labels["clock"] for s in families["golem_clock"].samples} == {"economic", "epistemic"}
