"""OpenTelemetry traces ([telemetry]): a day of life on the virtual clock makes one span
per decision and one per model call, the calls children of their decision, in the GenAI
conventions, their cost the ledger's; a simulated day's spans reach a local OTLP/HTTP
receiver at /v1/traces; without an endpoint nothing subscribes and the SDK is not imported.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import orjson
import pytest
from msgspec.structs import replace
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from golem.cli import main
from golem.inference import Usage
from golem.mortality import PipelineProfile
from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.life import assemble
from golem.runtime.logs.read import Malformed, read_events
from golem.runtime.record import DecisionRecord
from golem.runtime.spans import trace_of
from golem.runtime.store.state import StateStore
from golem.runtime.stream import Record
from golem.runtime.tracing import Traces
from golem.subsystems.context import ContextReport
from tests.runtime.records import decision

ROOT = Path(__file__).parents[2]
START = datetime(2026, 3, 1, tzinfo=UTC)
GEN_AI = (
    "gen_ai.operation.name",
    "gen_ai.system",
    "gen_ai.request.model",
    "gen_ai.usage.input_tokens",
    "gen_ai.usage.output_tokens",
)
GOLEM = ("golem.subsystem", "golem.tier", "golem.cost_usd", "golem.vitality")


def _refuse(malformed: Malformed) -> None:
    raise AssertionError(f"a malformed log line: {malformed}")


def _config(state: Path) -> dict[str, Any]:
    """A golem on the synthetic provider whose heartbeat escalates often and whose risk
    asks a second model of every stake: calls of every kind in a day."""
    return {
        "golem": {"id": "g-traced", "state_dir": str(state), "seed": 5},
        "inference": {
            "t1": ["synthetic"],
            "t2": ["synthetic:gpt-4o"],
            "death": ["synthetic:gpt-4o"],
        },
        "providers": {"synthetic": {"emulate": "openai", "model": "gpt-4o-mini"}},
        "mortality": {"initial_credits_usd": 20.0, "daily_budget_usd": 5.0},
        "heartbeat": {"interval": "60s", "theta_base": 0.05, "theta_min": 0.0},
        "subsystems": {
            "risk": {"verify_with": "synthetic:gpt-4o", "verify_above_stake": 0.0},
        },
        "logging": {"console": "off"},
    }


def _parent_ids(spans: list[ReadableSpan]) -> dict[int, ReadableSpan]:
    return {span.context.span_id: span for span in spans if span.context is not None}


async def test_a_day_of_life_makes_a_span_per_decision_and_per_call(tmp_path: Path) -> None:
    config = parse_config(_config(tmp_path / "state"))
    exporter = InMemorySpanExporter()
    published: list[Record] = []
    clock = VirtualClock(START)
    with StateStore.open(config.golem.state_dir) as store, Traces(exporter, "g-traced") as traces:
        life, pool = assemble(
            config,
            clock=clock,
            store=store,
            environ={},
            subscribers=[published.append, traces.publish],
        )
        assert pool is not None
        try:
            await life.run(duration=timedelta(days=1))
        finally:
            await pool.aclose()
        charges = [
            c for day in (START.date(), clock.now().date()) for c in store.ledger.charges(day)
        ]
    decisions = [r for r in published if isinstance(r, DecisionRecord)]
    spans = list(exporter.get_finished_spans())
    kinds = Counter(span.kind for span in spans)
    roots = [s for s in spans if s.parent is None]
    calls = [s for s in spans if s.parent is not None]
    # One span per decision, with the decision's own figures, in the order they were made.
    assert len(roots) == len(decisions) > 1000
    assert kinds[SpanKind.INTERNAL] == len(roots)
    for span, record in zip(roots, decisions, strict=True):
        attributes = span.attributes or {}
        assert span.name == f"decide {record.subsystem}"
        assert attributes["golem.subsystem"] == str(record.subsystem)
        assert attributes["golem.cost_usd"] == record.cost_usd
        assert attributes["golem.vitality"] == record.vitality
        assert (
            span.start_time == int(record.time.timestamp()) * 10**9 + record.time.microsecond * 1000
        )
    # One span per billed call, a child of its decision, in the conventions; the money on
    # the call spans is the ledger's, charge by charge.
    assert len(calls) == len(charges) > 100
    assert kinds[SpanKind.CLIENT] == len(calls)
    by_id = _parent_ids(roots)
    for call in calls:
        assert call.parent is not None and call.parent.span_id in by_id
        parent = by_id[call.parent.span_id]
        assert call.context is not None and parent.context is not None
        assert call.context.trace_id == parent.context.trace_id
        attributes = call.attributes or {}
        assert all(key in attributes for key in (*GEN_AI, *GOLEM, "golem.profile")), attributes
        assert attributes["gen_ai.operation.name"] == "chat"
        assert attributes["gen_ai.system"] == "synthetic"
        assert attributes["golem.subsystem"] == (parent.attributes or {})["golem.subsystem"]
        assert parent.start_time is not None and call.start_time is not None
        assert parent.end_time is not None and call.end_time is not None
        assert parent.start_time <= call.start_time <= call.end_time <= parent.end_time
    spent = sum(float((c.attributes or {})["golem.cost_usd"]) for c in calls)
    assert spent == pytest.approx(sum(c.usd for c in charges), abs=1e-9)
    roles = Counter((c.attributes or {})["golem.call"] for c in calls)
    assert roles["first"] > 0 and roles["verify"] > 0  # risk's second opinions are traced
    # The calls' tokens are the decisions' (output counting reasoning, as billed).
    tokens = sum(int((c.attributes or {})["gen_ai.usage.input_tokens"]) for c in calls)
    assert tokens == sum(r.usage.input_tokens for r in decisions) > 0
    assert {span.resource.attributes["service.instance.id"] for span in spans} == {"g-traced"}


def test_a_failed_call_is_an_error_span_and_a_deterministic_run_has_no_call() -> None:
    ruled = decision(START)
    assert trace_of(ruled).calls == ()
    assert trace_of(ruled).decision.start == trace_of(ruled).decision.end == START
    sent = ContextReport(PipelineProfile.STANDARD, (), 900, 4000, "estimate")
    failed = replace(
        decision(START, "risk", 2, "fallback"),
        error="provider_timeout: no answer in 30 s",
        cost_usd=0.002,
        usage=Usage(input_tokens=900),
        context=sent,
    )
    [call] = trace_of(failed).calls
    assert call.error == failed.error and call.kind == "client"
    assert call.attributes["error.type"] == "provider_timeout"
    assert call.attributes["golem.cost_usd"] == 0.002
    assert call.attributes["gen_ai.usage.input_tokens"] == 900


class Receiver:
    """A local OTLP/HTTP receiver keeping the spans posted to /v1/traces."""

    def __init__(self) -> None:
        spans: list[Any] = []
        paths: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                paths.append(self.path)
                request = ExportTraceServiceRequest()
                request.ParseFromString(body)
                for resource in request.resource_spans:
                    for scope in resource.scope_spans:
                        spans.extend(scope.spans)
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.end_headers()

            def log_message(self, *_: Any) -> None:
                pass

        self.spans, self.paths = spans, paths
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver()
    thread = threading.Thread(target=made.server.serve_forever, daemon=True)
    thread.start()
    yield made
    made.server.shutdown()
    made.server.server_close()


def _scenario(tmp_path: Path, telemetry: str) -> Path:
    text = (ROOT / "simulations" / "decline.toml").read_text()
    path = tmp_path / "traced.toml"
    path.write_text(f"{text}\n{telemetry}\n")
    return path


def test_a_simulated_day_s_spans_reach_an_otlp_receiver(tmp_path: Path, receiver: Receiver) -> None:
    path = _scenario(tmp_path, f'[telemetry]\notlp_endpoint = "{receiver.url}"')
    out = tmp_path / "out"
    assert main(["simulate", str(path), "--days", "1", "--out", str(out)]) == 0
    # Every decision, a quiet stretch's line expanded into its own (docs/speed.md).
    lines = list(read_events(out / "golem.log", on_malformed=_refuse))
    decisions = [e for e in lines if e["event"] == "decision"]
    assert set(receiver.paths) == {"/v1/traces"}
    roots = [s for s in receiver.spans if not s.parent_span_id]
    calls = [s for s in receiver.spans if s.parent_span_id]
    assert len(roots) == len(decisions) > 1000  # every span arrived: none dropped
    # A call per model answer and per prompt sent that failed; a failed call's decision
    # and the call itself are both errors.
    failed = sum("context" in d and "provider" not in d and "error" in d for d in decisions)
    answered = sum("provider" in d for d in decisions)
    assert len(calls) == answered + failed and answered > 0
    ids = {s.span_id for s in roots}
    assert all(c.parent_span_id in ids for c in calls)
    errors = [s for s in receiver.spans if s.status.code == StatusCode.ERROR.value]
    assert len(errors) == sum("error" in d for d in decisions) + failed
    assert not any(e["event"] == "telemetry_behind" for e in lines)


RUN = """
[golem]
id = "g-run-traced"
state_dir = "{state}"
seed = 11

[inference]
t1 = ["synthetic"]
t2 = ["synthetic:gpt-4o"]
death = ["synthetic:gpt-4o"]

[providers.synthetic]
emulate = "openai"
model = "gpt-4o-mini"

[heartbeat]
interval = "200ms"
theta_base = 0.01
theta_min = 0.0

[logging]
console = "off"

[telemetry]
otlp_endpoint = "{url}"
"""


def test_a_golem_run_s_spans_reach_the_receiver_by_its_end(
    tmp_path: Path, receiver: Receiver
) -> None:
    path, state = tmp_path / "golem.toml", tmp_path / "state"
    path.write_text(RUN.format(state=state, url=receiver.url))
    assert main(["run", str(path), "--for", "3s"]) == 0
    lines = [orjson.loads(line) for line in (state / "golem.log").read_bytes().splitlines()]
    decisions = [e for e in lines if e["event"] == "decision"]
    roots = [s for s in receiver.spans if not s.parent_span_id]
    assert len(roots) == len(decisions) > 5  # the last sent as the run ended
    calls = [s for s in receiver.spans if s.parent_span_id]
    assert len(calls) == sum("provider" in d for d in decisions) > 0


def test_without_an_endpoint_nothing_is_traced_and_the_sdk_is_not_imported(
    tmp_path: Path, receiver: Receiver
) -> None:
    """Unset (the default): a simulated life imports no OpenTelemetry SDK and sends nothing;
    set, the same life imports it and sends."""
    probe = (
        "import sys\n"
        "from golem.cli import main\n"
        "code = main(['simulate', sys.argv[1], '--days', '0.05', '--out', sys.argv[2]])\n"
        "print(code, any(m.startswith('opentelemetry.sdk') for m in sys.modules))\n"
    )
    said = {}
    for name, telemetry in (("off", ""), ("on", f'[telemetry]\notlp_endpoint = "{receiver.url}"')):
        (tmp_path / name).mkdir()
        scenario = _scenario(tmp_path / name, telemetry)
        done = subprocess.run(
            [sys.executable, "-c", probe, str(scenario), str(tmp_path / name / "out")],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )
        said[name] = done.stdout.splitlines()[-1].split()  # after the report
        if name == "off":
            assert not receiver.spans
    assert said == {"off": ["0", "False"], "on": ["0", "True"]}
    assert receiver.spans
