"""The golem's Prometheus metrics, in a registry of its own (never the process-global one).

Counted from the record stream as decisions are made (since this process started):
decisions by subsystem, tier and source; spend and tokens; degradations by reason; model
calls that ended in an error, by its code; re-asks (attempts after a call's first); call
latency. Read from the golem when scraped: ticks lived, vitality, its two clocks, phase,
credits, burn rate, what each budget line has left today, and the prediction engine's
epistemic fitness, accuracy and calibration gap per category and trades its gate blocked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from golem.mortality import Phase
from golem.runtime.http.status import budgets_today, oracle
from golem.runtime.life import Life
from golem.runtime.record import DecisionRecord
from golem.runtime.stream import Record

__all__ = ["LATENCY_BUCKETS", "GolemMetrics"]

# Seconds: a local model's few hundred milliseconds up to a deep reasoning call's minutes.
LATENCY_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 40.0, 80.0, 160.0)


class GolemMetrics:
    """A subscriber of the golem's record stream (`observe`) and its `/metrics` text."""

    def __init__(self, life: Life) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self._decisions = Counter(
            "golem_decisions",
            "Decisions made, by subsystem, tier and source (model, deterministic, ...)",
            ["subsystem", "tier", "source"],
            registry=registry,
        )
        self._spend = Counter(
            "golem_spend_usd", "USD charged for model calls", ["subsystem"], registry=registry
        )
        self._tokens = Counter(
            "golem_tokens", "Tokens of model calls", ["subsystem", "kind"], registry=registry
        )
        self._degradations = Counter(
            "golem_degradations",
            "Calls the allocator degraded, by reason",
            ["subsystem", "reason"],
            registry=registry,
        )
        self._errors = Counter(
            "golem_provider_errors",
            "Model calls that ended in an error (the decision fell back to the rules), by code",
            ["subsystem", "code"],
            registry=registry,
        )
        self._reasks = Counter(
            "golem_reasks",
            "Attempts after a call's first (re-asks)",
            ["subsystem"],
            registry=registry,
        )
        self._latency = Histogram(
            "golem_call_latency_seconds",
            "Model call latency, all attempts of one decision",
            ["subsystem", "tier"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        registry.register(_LiveGolem(life))

    def observe(self, record: Record) -> None:
        if not isinstance(record, DecisionRecord):
            return
        subsystem, tier = str(record.subsystem), str(record.tier)
        self._decisions.labels(subsystem, tier, record.source).inc()
        if record.cost_usd:
            self._spend.labels(subsystem).inc(record.cost_usd)
        usage = record.usage
        for kind, count in (
            ("input", usage.input_tokens),
            ("output", usage.output_tokens),
            ("reasoning", usage.reasoning_tokens),
        ):
            if count:
                self._tokens.labels(subsystem, kind).inc(count)
        for degradation in record.degradations:
            self._degradations.labels(subsystem, str(degradation.reason)).inc()
        if record.error is not None and record.allocation is not None:
            # A granted call that failed: decide() writes its error as "code: message".
            self._errors.labels(subsystem, record.error.partition(":")[0]).inc()
        response = record.response
        if response is not None:
            if response.attempts > 1:
                self._reasks.labels(subsystem).inc(response.attempts - 1)
            self._latency.labels(subsystem, tier).observe(response.latency_s)

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _LiveGolem:
    """The metrics read from the golem at each scrape."""

    def __init__(self, life: Life) -> None:
        self._life = life

    def describe(self) -> Iterator[Metric]:
        return self.collect()

    def collect(self) -> Iterator[Metric]:
        golem = self._life.golem
        vitals = golem.vitals
        yield CounterMetricFamily("golem_ticks", "Heartbeat ticks lived", value=golem.tick_no)
        yield GaugeMetricFamily("golem_vitality", "Vitality, 0 to 1", value=vitals.vitality)
        clocks = GaugeMetricFamily("golem_clock", "The mortality clocks, 0 to 1", labels=["clock"])
        clocks.add_metric(["economic"], vitals.economic)
        clocks.add_metric(["epistemic"], vitals.epistemic)
        yield clocks
        phase = GaugeMetricFamily("golem_phase", "1 for the current phase", labels=["phase"])
        for each in Phase:
            phase.add_metric([str(each)], 1.0 if each is vitals.phase else 0.0)
        yield phase
        yield GaugeMetricFamily("golem_alive", "1 until the golem dies", value=not golem.dead)
        yield GaugeMetricFamily(
            "golem_credits_usd", "Credits left in the wallet", value=golem.store.credits()
        )
        yield GaugeMetricFamily(
            "golem_burn_rate_usd", "Spend per tick, smoothed", value=vitals.burn_rate_usd
        )
        budgets = budgets_today(golem, self._life.clock.now())
        left = GaugeMetricFamily(
            "golem_budget_left_usd", "Left today of each finite budget line", labels=["subsystem"]
        )
        for subsystem, line in budgets["subsystems"].items():
            if line["left_usd"] is not None:
                left.add_metric([subsystem], line["left_usd"])
        yield left
        yield GaugeMetricFamily(
            "golem_cost_cap_left_usd", "Left today of the daily cost cap", value=budgets["left_usd"]
        )
        yield from _oracle(oracle(golem, self._life.clock.now()))


def _oracle(report: dict[str, Any]) -> Iterator[Metric]:
    """The prediction engine's gauges and the gate's counter (runtime/predictions.py)."""
    yield GaugeMetricFamily(
        "golem_epistemic_fitness",
        "Chance-corrected skill of the claims, 0 to 1",
        value=report["fitness"],
    )
    accuracy = GaugeMetricFamily(
        "golem_prediction_accuracy",
        "Share of claims resolved right over the gate's window, by category",
        labels=["category"],
    )
    ece = GaugeMetricFamily(
        "golem_calibration_ece",
        "Expected calibration error in the current regime, by category",
        labels=["category"],
    )
    for category, row in report["categories"].items():
        if row["hit_rate"] is not None:
            accuracy.add_metric([category], row["hit_rate"])
        if row["ece"] is not None:
            ece.add_metric([category], row["ece"])
    yield accuracy
    yield ece
    yield CounterMetricFamily(
        "golem_trades_gated", "Trades the action gate blocked", value=report["gate"]["blocked"]
    )
