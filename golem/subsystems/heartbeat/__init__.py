"""Heartbeat: every tick's deterministic probes, the gate to T1/T2, and the decision an
escalated tick asks a model for."""

from golem.subsystems.heartbeat.decision import (
    HORIZON_TICKS,
    HeartbeatAction,
    HeartbeatDecision,
    Severity,
    Signal,
)
from golem.subsystems.heartbeat.probes import (
    Gate,
    GateParams,
    ProbeConfig,
    ProbePolicy,
    ProbeThresholds,
    ProbeWeights,
    Reading,
    band_of,
    compute_probes,
    gate,
    readings,
    tier_for,
)
from golem.subsystems.heartbeat.schedule import HeartbeatSchedule, interval, interval_multiplier
from golem.subsystems.heartbeat.subsystem import Heartbeat, HeartbeatConfig, escalated

__all__ = [
    "HORIZON_TICKS",
    "Gate",
    "GateParams",
    "Heartbeat",
    "HeartbeatAction",
    "HeartbeatConfig",
    "HeartbeatDecision",
    "HeartbeatSchedule",
    "ProbeConfig",
    "ProbePolicy",
    "ProbeThresholds",
    "ProbeWeights",
    "Reading",
    "Severity",
    "Signal",
    "band_of",
    "compute_probes",
    "escalated",
    "gate",
    "interval",
    "interval_multiplier",
    "readings",
    "tier_for",
]
