"""What the provider billed for every attempt is in the ledger: streams cut at random byte
offsets (real Anthropic stream bytes from ../shared/fixtures), then an answer or none,
through httpx.MockTransport, the transport, run_structured, decide() and the SQLite
ledger. Billed, for a cut attempt: what its stream reported plus what it streamed; the
decision record says how much of the charge is that estimate."""

from __future__ import annotations

import tempfile

import httpx
import orjson
import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golem.inference import Capabilities, Request, Response, Usage
from golem.inference.transport import HTTPProvider, TransportConfig
from golem.runtime.asking import Route
from golem.runtime.decide import decide
from golem.runtime.store.state import StateStore
from tests.inference.decisions import VALID
from tests.inference.test_cut_billing import (
    ENV,
    MODEL,
    PRICE,
    RECORDING,
    billed,
    needs_recording,
    recording,
)
from tests.inference.transport_support import ChunkedBody, Script
from tests.runtime.test_decide import Toy, context
from tests.runtime.test_decide_charges import budgeting

ANSWERED = Usage(input_tokens=700, output_tokens=40)


def answer() -> bytes:
    """A whole Anthropic stream whose text is a valid decision."""
    text = orjson.dumps(VALID).decode()
    events: list[tuple[str, dict[str, object]]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "model": "claude-sonnet-4-5-20250929",
                    "id": "msg_1",
                    "type": "message",
                    "role": "assistant",
                    "content": [],
                    "usage": {"input_tokens": ANSWERED.input_tokens, "output_tokens": 1},
                },
            },
        ),
        (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}},
        ),
        *(
            (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": text[i : i + 16]},
                },
            )
            for i in range(0, len(text), 16)
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn"},
                "usage": {"output_tokens": ANSWERED.output_tokens},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return b"".join(
        f"event: {name}\n".encode() + b"data: " + orjson.dumps(data) + b"\n\n"
        for name, data in events
    )


class Streaming:
    """The provider, asked to stream (as a watched call is): cuts happen to streams."""

    def __init__(self, provider: HTTPProvider) -> None:
        self._provider = provider

    @property
    def name(self) -> str:
        return self._provider.name

    @property
    def capabilities(self) -> Capabilities:
        return self._provider.capabilities

    async def complete(self, request: Request) -> Response:
        return await self._provider.complete(request.evolve(stream=True))


def cut_at(body: bytes, offset: int, split: int) -> httpx.Response:
    """The first `offset` bytes in two chunks (split at `split`), then a reset."""
    prefix = body[:offset]
    at = min(split, len(prefix))
    chunks = [part for part in (prefix[:at], prefix[at:]) if part]
    reset = ChunkedBody(chunks, error=httpx.ReadError("connection reset"))
    return httpx.Response(200, stream=reset, headers={"content-type": "text/event-stream"})


RETRIES = 3


def run(cuts: list[tuple[int, int]]) -> tuple[float, float, str, float, list[str]]:
    """decide() through `cuts` then the answer: (ledger total, the provider's bill,
    the record's source, the estimated part its log line states, the cut errors)."""
    body, whole = recording(), answer()
    steps: list[httpx.Response] = [cut_at(body, offset, split) for offset, split in cuts]
    steps.append(httpx.Response(200, content=whole))
    config = TransportConfig(max_retries=RETRIES, backoff_base_s=0.0)
    http = HTTPProvider.named(
        "anthropic",
        MODEL,
        transport=httpx.MockTransport(Script(steps)),
        environ=ENV,
        config=config,
    )
    assert PRICE is not None
    route = Route(Streaming(http), MODEL, price=PRICE)
    answered = len(cuts) <= RETRIES
    bill = sum(PRICE.cost(billed(body[:offset])) for offset, _ in cuts)
    bill += PRICE.cost(ANSWERED) if answered else 0.0
    with tempfile.TemporaryDirectory() as state_dir, StateStore.open(state_dir) as store:
        record = trio.run(decide, Toy(), context(), budgeting(route, store))
        fields = record.fields()
        errors = [a["error"] for a in fields.get("failed_attempts", [])]
        estimated = float(fields.get("cost_estimated_usd", 0.0))
        assert record.cost_usd == pytest.approx(store.ledger.total_usd(), abs=1e-12)
        return store.ledger.total_usd(), bill, record.source, estimated, errors


@needs_recording
def test_one_cut_then_an_answer_is_charged_for_both() -> None:
    body = recording()
    offset = body.index(b"event: content_block_delta", body.index(b"input_json_delta"))
    total, bill, source, estimated, errors = run([(offset, 100)])
    assert source == "model" and errors == ["connection_failed"]
    assert total == pytest.approx(bill, rel=1e-12)
    assert PRICE is not None and total > PRICE.cost(ANSWERED) * 1.5
    assert 0 < estimated < total - PRICE.cost(ANSWERED)


@needs_recording
def test_four_cuts_are_charged_though_the_decision_falls_back() -> None:
    size = len(recording())
    total, bill, source, estimated, errors = run([(size // 2, 7)] * 4)
    assert source == "fallback" and errors == ["connection_failed"] * 4
    assert total == pytest.approx(bill, rel=1e-12) and total > 0
    assert 0 < estimated < total


@pytest.mark.skipif(not RECORDING.exists(), reason=f"{RECORDING} is absent")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.integers(0, 3200), st.integers(0, 3200)), min_size=0, max_size=RETRIES + 1
    )
)
def test_the_ledger_holds_what_the_provider_billed_for_every_attempt(
    cuts: list[tuple[int, int]],
) -> None:
    total, bill, source, _, errors = run(cuts)
    assert total == pytest.approx(bill, rel=1e-12, abs=1e-15)
    assert source == ("model" if len(cuts) <= RETRIES else "fallback")
    assert len(errors) <= len(cuts)
