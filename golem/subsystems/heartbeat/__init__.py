"""Heartbeat: every tick's deterministic probes, the gate to T1/T2, and the decision an
escalated tick asks a model for."""

from golem.subsystems.heartbeat.decision import (
    HeartbeatAction,
    HeartbeatDecision,
    Severity,
    Signal,
)

__all__ = ["HeartbeatAction", "HeartbeatDecision", "Severity", "Signal"]
