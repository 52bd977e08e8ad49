"""`[telemetry]`: where the golem's traces go (OpenTelemetry over OTLP/HTTP); the spans
themselves are runtime/telemetry.py's."""

from __future__ import annotations

from pydantic import Field

from golem.runtime.config.providers import Section

__all__ = ["TelemetrySection"]


class TelemetrySection(Section):
    """`otlp_endpoint`: an OTLP/HTTP receiver's base URL (Jaeger's http://localhost:4318,
    Langfuse's https://cloud.langfuse.com/api/public/otel); spans are posted to its
    /v1/traces. Unset: no traces, and the OpenTelemetry SDK is never imported. Headers
    (a receiver's credentials) come from $OTEL_EXPORTER_OTLP_HEADERS, never the file."""

    otlp_endpoint: str | None = Field(default=None, pattern=r"^https?://[^/\s]+(/\S*)?$")
