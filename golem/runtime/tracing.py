"""The golem's spans made and sent through the OpenTelemetry SDK (`Traces`, a subscriber of
the record stream), from the plans of runtime/spans.py. Imported only when telemetry is on
(`telemetry.traces_of`): this module imports the SDK.

Export is batched on the SDK's worker thread. A simulated day makes thousands of spans in
a second, more than the SDK's queue holds, so every FLUSH_EVERY spans the golem waits for
the batch to go (FLUSH_TIMEOUT_S at most): no span is dropped while the receiver keeps up.
A receiver that does not (a wait timed out, or an export failed after the exporter's own
retries) is a warning line, and from then on the golem no longer waits: the SDK drops what
its queue cannot hold, and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
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

__all__ = ["FLUSH_EVERY", "FLUSH_TIMEOUT_S", "Traces", "otlp_exporter"]

log = structlog.get_logger("golem")

FLUSH_EVERY = 1024  # spans between waits for the exporter: half the SDK's queue (2048)
FLUSH_TIMEOUT_S = 10.0
_KINDS = {"internal": trace.SpanKind.INTERNAL, "client": trace.SpanKind.CLIENT}


def otlp_exporter(endpoint: str) -> OTLPSpanExporter:
    """OTLP/HTTP to `endpoint`/v1/traces (headers from $OTEL_EXPORTER_OTLP_HEADERS)."""
    return OTLPSpanExporter(endpoint=endpoint.rstrip("/") + "/v1/traces")


class _Watched(SpanExporter):
    """`inner`, remembering whether its last export failed (the SDK's flush does not say);
    once `abandoned`, it sends nothing more."""

    def __init__(self, inner: SpanExporter) -> None:
        self._inner = inner
        self.failed = False
        self.abandoned = False

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        if self.abandoned:
            return SpanExportResult.FAILURE
        result = self._inner.export(spans)
        self.failed = result is not SpanExportResult.SUCCESS
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
        self._unflushed = 0
        self._waits = True  # the receiver keeps up

    def publish(self, record: Record) -> None:
        if not isinstance(record, DecisionRecord):
            return
        planned = trace_of(record)
        parent = self._open(planned.decision, None)
        context = trace.set_span_in_context(parent)
        for call in planned.calls:
            self._open(call, context).end(end_time=ns_of(call.end))
        parent.end(end_time=ns_of(planned.decision.end))
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
        sent = self._provider.force_flush(int(FLUSH_TIMEOUT_S * 1000))
        if not sent or self._exporter.failed:
            self._waits = False
            log.warning(
                "telemetry_behind",
                reason="an export failed" if sent else f"not sent within {FLUSH_TIMEOUT_S:g} s",
            )

    def close(self) -> None:
        """Send what is left, unless the receiver's last answer was a failure: a life does
        not end waiting out the exporter's retries for each batch left (10 s each)."""
        if self._exporter.failed:
            self._exporter.abandoned = True
            log.warning("telemetry_unsent", reason="the receiver's last export failed")
        self._provider.shutdown()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
