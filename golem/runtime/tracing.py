"""The golem's spans made and sent through the OpenTelemetry SDK (`Traces`, a subscriber of
the record stream), from the plans of runtime/spans.py. Imported only when telemetry is on
(`telemetry.traces_of`): this module imports the SDK.

Export is batched on the SDK's worker thread; one post, its retries included, gives up
after EXPORT_TIMEOUT_S. A simulated day makes thousands of spans in a second, more than the
SDK's queue holds, so every FLUSH_EVERY spans the golem waits for the batch to go (WAIT_S at
most, less if an export fails): no span is dropped while the receiver keeps up. A receiver
that does not (a wait timed out, or an export failed after the exporter's own retries) is a
warning line, and from then on the golem never waits for it again: the SDK drops what its
queue cannot hold, and says so. A life's end waits CLOSE_S at most for its last spans (not
at all for a receiver that did not keep up) and counts those the receiver did not take.
The SDK's flush and shutdown do not keep their own timeouts (1.45), so the golem waits for
them on a thread of their own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Self

import structlog
from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.trace import Span

from golem.runtime.record import DecisionRecord
from golem.runtime.spans import SpanPlan, ns_of, trace_of
from golem.runtime.stream import Record

__all__ = ["CLOSE_S", "EXPORT_TIMEOUT_S", "FLUSH_EVERY", "WAIT_S", "Traces", "otlp_exporter"]

log = structlog.get_logger("golem")

FLUSH_EVERY = 1024  # spans between waits for the exporter: half the SDK's queue (2048)
EXPORT_TIMEOUT_S = 5.0  # one post to the receiver, its retries included (the SDK's is 10)
WAIT_S = 5.0  # the golem's longest wait for a batch to go, once per FLUSH_EVERY spans
CLOSE_S = 2.0  # the longest a life's end waits for its last spans to go
_KINDS = {"internal": trace.SpanKind.INTERNAL, "client": trace.SpanKind.CLIENT}


def otlp_exporter(endpoint: str) -> OTLPSpanExporter:
    """OTLP/HTTP to `endpoint`/v1/traces (headers from $OTEL_EXPORTER_OTLP_HEADERS), each
    post given up after EXPORT_TIMEOUT_S."""
    return OTLPSpanExporter(endpoint=endpoint.rstrip("/") + "/v1/traces", timeout=EXPORT_TIMEOUT_S)


class _Watched(SpanExporter):
    """`inner`, counting the spans the receiver took (`sent`) and remembering whether its
    last export failed (the SDK's flush does not say), each change told to `changed`'s
    waiters; once `abandoned`, it sends nothing more."""

    def __init__(self, inner: SpanExporter) -> None:
        self._inner = inner
        self.sent = 0
        self.failed = False
        self.abandoned = False
        self.changed = threading.Condition()

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        if self.abandoned:
            return SpanExportResult.FAILURE
        result = self._inner.export(spans)
        with self.changed:
            self.failed = result is not SpanExportResult.SUCCESS
            self.sent += 0 if self.failed else len(spans)
            self.changed.notify_all()
        return result

    def shutdown(self) -> None:
        self._inner.shutdown()

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        return self._inner.force_flush(timeout_millis)


class Traces:
    """The golem's spans, handed to `exporter` (OTLP/HTTP by `traces_of`; the SDK's
    in-memory exporter in tests). A subscriber: `publish` each record; `close` (or leaving
    its `with`) sends what is left."""

    def __init__(self, exporter: SpanExporter, golem: str) -> None:
        resource = Resource.create({"service.name": "golem", "service.instance.id": golem})
        self._exporter = _Watched(exporter)
        self._provider = TracerProvider(resource=resource, shutdown_on_exit=False)
        self._provider.add_span_processor(BatchSpanProcessor(self._exporter))
        self._tracer = self._provider.get_tracer("golem")
        self._made = 0
        self._unflushed = 0
        self._waits = True  # the receiver keeps up
        self._closed = False

    def publish(self, record: Record) -> None:
        if not isinstance(record, DecisionRecord):
            return
        planned = trace_of(record)
        parent = self._open(planned.decision, None)
        context = trace.set_span_in_context(parent)
        for call in planned.calls:
            self._open(call, context).end(end_time=ns_of(call.end))
        parent.end(end_time=ns_of(planned.decision.end))
        self._made += 1 + len(planned.calls)
        self._unflushed += 1 + len(planned.calls)
        if self._unflushed >= FLUSH_EVERY:
            self._flush()

    def _open(self, plan: SpanPlan, context: Context | None) -> Span:
        span = self._tracer.start_span(
            plan.name,
            context=context,
            kind=_KINDS[plan.kind],
            attributes=dict(plan.attributes),
            start_time=ns_of(plan.start),
        )
        if plan.error is not None:
            span.set_status(trace.Status(trace.StatusCode.ERROR, plan.error))
        return span

    def _flush(self) -> None:
        self._unflushed = 0
        if not self._waits:
            return
        behind = self._within(self._provider.force_flush, WAIT_S)
        if behind is not None:
            self._waits = False
            log.warning("telemetry_behind", reason=behind)

    def _within(self, step: Callable[[], object], seconds: float) -> str | None:
        """Run `step` (the SDK's flush or shutdown) on a thread of its own and wait for it,
        `seconds` at most and no longer than an export's failure: None once it is done,
        else why the golem stopped waiting (`step` goes on without it)."""
        watched, done = self._exporter, threading.Event()

        def run() -> None:
            try:
                step()
            finally:
                with watched.changed:
                    done.set()
                    watched.changed.notify_all()

        threading.Thread(target=run, name="golem-telemetry", daemon=True).start()
        with watched.changed:
            watched.changed.wait_for(lambda: done.is_set() or watched.failed, seconds)
        if watched.failed:
            return "an export failed"
        return None if done.is_set() else f"not sent within {seconds:g} s"

    def close(self) -> None:
        """Send what is left, CLOSE_S at most, and nothing once the receiver has not kept up
        (its last export failed, or a wait timed out); then send nothing more, and log how
        many spans the receiver had not taken (`telemetry_unsent`)."""
        if self._closed:
            return
        self._closed = True
        if self._waits and not self._exporter.failed:
            behind = self._within(self._provider.shutdown, CLOSE_S)
        else:
            behind = "an export failed" if self._exporter.failed else "the receiver fell behind"
            self._exporter.abandoned = True
            threading.Thread(target=self._provider.shutdown, daemon=True).start()
        self._exporter.abandoned = True  # what the SDK still holds fails at once
        with self._exporter.changed:
            unsent = self._made - self._exporter.sent
        if unsent > 0:
            log.warning("telemetry_unsent", spans=unsent, of=self._made, reason=behind)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
