"""Whether a golem's decisions are traced (`[telemetry] otlp_endpoint`): `traces_of` gives
the subscriber that sends their spans over OTLP/HTTP (runtime/tracing.py), or None. Only
a golem with an endpoint imports the OpenTelemetry SDK: one without subscribes nothing and
pays nothing, per tick or at start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from golem.runtime.config.telemetry import TelemetrySection

if TYPE_CHECKING:
    from golem.runtime.tracing import Traces

__all__ = ["traces_of"]


def traces_of(section: TelemetrySection, golem: str) -> Traces | None:
    """`golem`'s traces posted to `section.otlp_endpoint`/v1/traces; None, and the SDK
    left unimported, when it is unset."""
    if section.otlp_endpoint is None:
        return None
    # The SDK and its exporter take 0.07 s to import here: only a golem that traces pays it.
    from golem.runtime.tracing import Traces, otlp_exporter  # noqa: PLC0415

    return Traces(otlp_exporter(section.otlp_endpoint), golem)
