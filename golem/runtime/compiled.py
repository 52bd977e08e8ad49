"""A golem's config compiled once for its life (`Compiled`): the mortality policy, the
subsystems' settings, the heartbeat's probes and schedule, the decision memo's keys and
the prompt limits. The Golem and the decision stages read these; nothing reads the raw
config's sections for them after start.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from golem.inference import StructuredOutputConfig
from golem.mortality import MortalityPolicy
from golem.oracle import CalibrationParams, CorrectorParams
from golem.runtime.config.sections import GolemConfig
from golem.runtime.control import budget_bounds
from golem.runtime.memo import MemoPolicy
from golem.subsystems.context import ContextSettings
from golem.subsystems.curator import CuratorConfig
from golem.subsystems.daimon import DaimonConfig
from golem.subsystems.death import DeathConfig
from golem.subsystems.dream import DreamConfig
from golem.subsystems.heartbeat import (
    HeartbeatConfig,
    HeartbeatSchedule,
    ProbeConfig,
    ProbePolicy,
)
from golem.subsystems.heartbeat.probes import GateParams
from golem.subsystems.risk import RiskConfig

__all__ = ["Compiled"]


@dataclass(frozen=True, slots=True)
class Compiled:
    """`appraises`: the daimon runs (without it a golem's mood stays neutral).
    `budget_bounds`: the daily budgets an owner may set ([control]); `log_file`: where
    the golem's log is written (the status endpoint recalls its last decisions there)."""

    golem_id: str
    log_file: Path
    budget_bounds: tuple[float, float]
    mortality: MortalityPolicy
    structured: StructuredOutputConfig
    context: ContextSettings
    risk: RiskConfig
    daimon: DaimonConfig
    curator: CuratorConfig
    death: DeathConfig
    dream: DreamConfig
    heartbeat: HeartbeatConfig
    probes: ProbePolicy
    schedule: HeartbeatSchedule
    memo: MemoPolicy
    appraises: bool
    corrector: CorrectorParams  # [prediction]: the Oracle's residual corrector
    calibration: CalibrationParams  # [calibration]: its confidence calibrator
    novelty_threshold: float  # [prediction]: what a senescent golem's dream replays

    @classmethod
    def of(cls, config: GolemConfig) -> Compiled:
        structured = config.inference.structured_outputs
        risk = config.subsystems.risk.config()
        sizing = risk.limits.sizing  # the heartbeat's trades and the memo's keys
        hb = config.heartbeat
        gate = GateParams(base=hb.theta_base, floor=hb.theta_min, ceiling=hb.theta_max)
        probes = ProbeConfig(gate=gate)
        return cls(
            golem_id=config.golem.id,
            log_file=config.log_file,
            budget_bounds=budget_bounds(config),
            mortality=config.mortality.compile(
                seed=config.mortality_seed, max_attempts=structured.max_attempts
            ),
            structured=structured,
            context=config.context.settings(),
            risk=risk,
            daimon=config.subsystems.daimon.config(),
            # No key sets the curator's or death's parameters: their own, compiled here.
            curator=CuratorConfig(),
            death=DeathConfig(),
            dream=config.subsystems.dream.config(),
            heartbeat=HeartbeatConfig(probes=probes, sizing=sizing),
            probes=ProbePolicy.of(probes),
            schedule=HeartbeatSchedule.conserving(
                hb.interval.total_seconds(), hb.conservation_factor
            ),
            # Model decisions reused instead of asked again ([cache], verdict_window).
            memo=MemoPolicy.of(config, sizing),
            appraises=config.subsystems.daimon.enabled,
            corrector=config.prediction.corrector(),
            calibration=config.calibration.params(),
            novelty_threshold=config.prediction.novelty_threshold,
        )
