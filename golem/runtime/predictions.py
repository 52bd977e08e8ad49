"""The prediction engine in a golem's life (Bardo 17-prediction-engine.md): the claims its
decisions make, inaction's claim on every tick the rules act, their resolution each tick
against the world's readings, the action gate a trade must pass, and the would-be P&L of
the trades it blocked. Its fitness is the epistemic clock (vitals.py reads it).

Claims, in golem's world (each checkpoint one horizon of time after the claim):
- a model-made heartbeat decision that states `expected_move` claims the price's direction
  over the horizon (up, down, or flat: a move within one trade's cost, fee plus base
  slippage); one that states none but trades claims the direction its action implies (an
  exit or a hedge a fall, a rebalance a rise); its severity is its view of the volatility
  regime (none: calm; low or moderate: normal; high or critical: wild); where the world has
  a lending position, the decision claims it stays healthy unless it exits (a hedge
  protects a position it expects to keep).
- on every tick the rules act (no model decision), inaction claims "holding is optimal":
  the portfolio loses no more than one trade's cost by the horizon.
Confidence is the decision's (raw), calibrated by the Oracle per (category, regime); the
regime tag is the golem's own (the price against its 20-tick band: above, within, below).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import structlog

from golem.oracle import (
    EQUITY,
    HEALTH,
    PRICE,
    VOLATILITY,
    CalibrationParams,
    Category,
    ConfidenceCalibrator,
    CorrectorParams,
    Direction,
    Draft,
    GatedTrade,
    GateParams,
    GateVerdict,
    Oracle,
    Prediction,
    PredictionBook,
    ResidualCorrector,
    Resolution,
    Source,
    VolatilityBands,
    holding_is_optimal,
    permits,
    position_health,
    price_direction,
    volatility_regime,
)
from golem.oracle.tally import Tally
from golem.runtime.quiet_oracle import QuietOracle
from golem.runtime.readings import REPORT_EVERY, health, hourly_volatility, regime_of
from golem.runtime.store.predictions import PredictionTable
from golem.subsystems.contract import Event
from golem.world import MarketSummary, PaperPortfolio
from golem.world.costs import CostModel

__all__ = ["GatedTrade", "Predictor", "regime_of"]

log = structlog.get_logger("golem")

# Realised volatility, as the σ of returns scaled to one hour (so that the band does not
# depend on the heartbeat's interval): calm below 0.3% an hour, wild from 1%.
BANDS = VolatilityBands(calm_below=0.003, wild_from=0.01)
_SEVERITY_BAND = {
    "none": "calm",
    "low": "normal",
    "moderate": "normal",
    "high": "wild",
    "critical": "wild",
}
_IMPLIED = {"exit": Direction.DOWN, "hedge": Direction.DOWN, "rebalance": Direction.UP}


class Predictor:
    """One life's Oracle, rebuilt from the ledger at birth (a restart keeps its fitness and
    calibration), writing each prediction and resolution to it as they happen."""

    def __init__(
        self,
        table: PredictionTable,
        *,
        golem_id: str,
        horizon: timedelta,
        costs: CostModel,
        gate: GateParams,
        gating: bool = True,
        corrector: CorrectorParams | None = None,
        calibration: CalibrationParams | None = None,
        novelty_threshold: float = 2.0,
    ) -> None:
        self._table, self._params = table, (corrector, calibration)
        self.oracle = self._rebuilt()
        self.novelty_threshold = novelty_threshold  # what the dream replays ([prediction])
        self._golem_id, self._horizon, self._costs, self.gate = golem_id, horizon, costs, gate
        self.gating = gating  # False: the gate permits every trade (its disabled mode)
        self.flat_bps = costs.fee_bps + costs.base_slippage_bps  # one trade's cost
        self._checkpoints = (horizon,)
        self.regime = "unknown"
        self._last: datetime | None = None  # when the last reading was taken
        self._gated: list[GatedTrade] = []  # blocked trades whose horizon has not come
        self.blocked = 0  # trades the gate blocked in this process
        self.permitted = 0  # trades it let through (risk approved, something to fill)
        self.would_be_pnl_usd = 0.0  # of the blocked trades resolved so far
        # Resolutions in this process: per category over its life (the reports' lifetime
        # counts), per (category, regime) over the gate's window (the hourly report's).
        self.tally = Tally()
        self.resolved = self.tally.resolved
        self._reported: datetime | None = None  # when the last `oracle` line was logged
        self._alarmed: set[tuple[str, str]] = set()  # (category, regime) whose gap alarms
        self._checked: datetime | None = None  # when the calibration gap was last read

    def _rebuilt(self) -> Oracle:
        """The Oracle as the committed ledger has it (its rows taught again, in order)."""
        corrector, calibration = self._params
        oracle = Oracle(
            PredictionBook(ledger=self._table),
            corrector=ResidualCorrector(corrector),
            calibrator=ConfidenceCalibrator(calibration),
        )
        oracle.restore(*self._table.load())
        return oracle

    def rebuild(self) -> None:
        """After a rollback: what the book kept of the undone writes is dropped with them
        (a rolled-back prediction resolved later would name a row the ledger never kept)."""
        self.oracle = self._rebuilt()

    @property
    def fitness(self) -> float:
        """Epistemic fitness (golem/oracle/fitness.py): the epistemic clock."""
        return self.oracle.fitness.level

    def regime_samples(self) -> int:
        """Resolved claims made in the current regime (senescence's learning grace)."""
        return self.oracle.fitness.regime_samples(self.regime)

    def observe(
        self, now: datetime, market: MarketSummary, portfolio: PaperPortfolio
    ) -> list[Resolution]:
        """Resolve what is due at `now` against this tick's readings, and the blocked trades
        whose horizon has come."""
        self.regime = regime_of(market)
        readings = {PRICE: market.price, EQUITY: portfolio.equity()}
        hourly = hourly_volatility(market, self._last, now)
        self._last = now
        if hourly is not None:
            readings[VOLATILITY] = hourly
        healthy = health(market)
        if healthy is not None:
            readings[HEALTH] = healthy
        resolved = self.oracle.tick(now, self.regime, readings)
        self.tally.count(resolved)
        self.tally.forget(now - self.gate.window)
        while self._gated and self._gated[0].due <= now:
            gated = self._gated.pop(0)
            pnl = gated.pnl(market.price)
            self.would_be_pnl_usd += pnl
            log.info(
                "gated_trade_resolved",
                golem=self._golem_id,
                tick=gated.tick,
                action=gated.action,
                would_be_pnl_usd=round(pnl, 6),
            )
        if self._reported is None or now - self._reported >= REPORT_EVERY:
            self._reported = now
            log.info("oracle", golem=self._golem_id, **self.report(now))
        return resolved

    def quiet(self, confidence: float) -> QuietOracle:
        """This Predictor's part of a quiet stretch (quiet_oracle.py): `observe`, `hold` at
        the rules' decision's `confidence`, and `calibration_alarms`, on each tick."""
        return QuietOracle(self, confidence)

    def calibration_alarms(self, now: datetime) -> list[Event]:
        """`calibration_gap` once for each category whose expected calibration error in
        the current regime has risen above `ece_alarm_threshold` since it last did (the
        daimon hears it: Bardo's large ECE lowers dominance). Read at most hourly, as the
        `oracle` line reads it (an ECE is a pass over the history)."""
        if self._checked is not None and now - self._checked < REPORT_EVERY:
            return []
        self._checked = now
        calibrator, events = self.oracle.calibrator, list[Event]()
        for category in Category:
            key = (str(category), self.regime)
            ece = calibrator.ece(*key)
            if ece is None:
                continue
            if calibrator.alarming(*key):
                if key not in self._alarmed:
                    self._alarmed.add(key)
                    events.append(Event("calibration_gap", round(ece, 4)))
                    log.info(
                        "calibration_gap",
                        golem=self._golem_id,
                        category=key[0],
                        regime=key[1],
                        ece=round(ece, 4),
                        threshold=calibrator.params.ece_alarm_threshold,
                    )
            else:
                self._alarmed.discard(key)
        return events

    def claim(
        self,
        now: datetime,
        decision: object,
        market: MarketSummary,
        *,
        tier: str,
        bias: float | None = None,
    ) -> list[Prediction]:
        """The claims a model-made heartbeat decision states or implies (see the module)."""
        action = str(getattr(decision, "action", "observe"))
        confidence = min(1.0, max(0.0, float(getattr(decision, "confidence", 0.5))))
        draft = Draft(now, self.regime, self._checkpoints, confidence, Source.ANALYTICAL, tier)
        made: list[Prediction] = []
        stated = getattr(decision, "expected_move", None)
        direction: Direction | None = _IMPLIED.get(action)
        if stated is not None or bias is not None:  # a bias is an error in every forecast
            move = float(stated or 0.0) + (bias or 0.0)
            flat = abs(move) * 10_000 <= self.flat_bps
            direction = Direction.FLAT if flat else Direction.UP if move > 0 else Direction.DOWN
        if direction is not None:
            made.append(
                price_direction(
                    self._next(),
                    draft,
                    price=market.price,
                    direction=direction,
                    flat_bps=self.flat_bps,
                )
            )
            self._register(made[-1])
        band = _SEVERITY_BAND.get(str(getattr(decision, "severity", "")))
        if band is not None:
            made.append(volatility_regime(self._next(), draft, bands=BANDS, band=band))
            self._register(made[-1])
        if market.health_factor is not None:
            made.append(position_health(self._next(), draft, healthy=action != "exit"))
            self._register(made[-1])
        return made

    def hold(self, now: datetime, equity: float, confidence: float = 0.5) -> Prediction:
        """Inaction's claim on a tick the rules acted: holding is optimal. (Calibrated
        here, so the Oracle need not copy it: this is made on most ticks.)"""
        raw = min(1.0, max(0.0, confidence))
        calibrated = self.oracle.calibrator.calibrate(Category.INACTION, self.regime, raw)
        draft = Draft(now, self.regime, self._checkpoints, raw, calibrated=calibrated)
        prediction = holding_is_optimal(
            self._next(), draft, equity=equity, tolerance_bps=self.flat_bps
        )
        return self.oracle.book.register(prediction)  # calibrated above

    def _next(self) -> int:
        return self.oracle.book.next_id()

    def _register(self, prediction: Prediction) -> Prediction:
        return self.oracle.register(prediction)

    def permits(
        self,
        now: datetime,
        action: str,
        *,
        cost_usd: float,
        expected_value_usd: float,
    ) -> GateVerdict:
        """The gate's verdict on a trade: it depends on the price's direction, and a hedge
        on the volatility regime too. Disabled, every trade is permitted."""
        if not self.gating:
            return GateVerdict(True, "", 0.0, (), None)
        categories = [Category.PRICE_DIRECTION]
        if action == "hedge":
            categories.append(Category.VOLATILITY_REGIME)
        return permits(
            categories,
            self.oracle.book,
            now=now,
            regime=self.regime,
            cost=cost_usd,
            expected_value=expected_value_usd,
            params=self.gate,
        )

    def gated(self, now: datetime, tick: int, action: str, fill: object) -> None:
        """A blocked trade (its would-be `fill` on a copy of the portfolio) to resolve at
        its horizon."""
        side = str(getattr(fill, "side", "none"))
        quantity = float(getattr(fill, "quantity", 0.0))
        self.blocked += 1
        if side == "none" or quantity <= 0:
            return
        self._gated.append(
            GatedTrade(
                tick=tick,
                due=now + self._horizon,
                action=action,
                sign=1.0 if side == "buy" else -1.0,
                quantity=quantity,
                execution_price=float(getattr(fill, "execution_price", 0.0)),
                fee_usd=float(getattr(fill, "fee_usd", 0.0)),
            )
        )

    def largest_residuals(self, n: int) -> tuple[str, ...]:
        """The `n` recent missed claims with the largest residuals among the novel ones
        (`novelty_threshold` σ from their (category, regime)'s mean: what a senescent
        golem's dream replays), largest first, each in a line."""
        corrector, threshold = self.oracle.corrector, self.novelty_threshold
        missed = [
            r
            for r in self.oracle.book.recent()
            if not r.correct and corrector.novel(r.category, r.regime, r.residual, threshold)
        ]
        worst = sorted(missed, key=lambda r: abs(r.residual), reverse=True)[:n]
        return tuple(
            f"{r.category} in {r.regime}: claimed {r.forecast}, was {r.observed}"
            f" (residual {r.residual:+.4g}, {r.resolved_at.isoformat()})"
            for r in worst
        )

    def report(self, now: datetime) -> dict[str, Any]:
        """What `golem inspect --summary`, /status, /metrics and a simulation's report show:
        epistemic fitness; per category its skill, the calibration gap (ECE) in the current
        regime, and accuracy over the gate's window (as of the last resolutions), overall
        and per regime; the gate's blocked and permitted trades and the blocked ones'
        would-be P&L."""
        buckets: dict[str, dict[str, list[int]]] = {str(c): {} for c in Category}
        for (category, regime), counts in self.tally.windowed.items():
            if counts[0]:
                buckets[category][regime] = counts
        fitness, calibrator = self.oracle.fitness, self.oracle.calibrator
        categories: dict[str, Any] = {}
        for category in Category:
            regimes = buckets[str(category)]
            total = sum(n for n, _ in regimes.values())
            hits = sum(h for _, h in regimes.values())
            categories[str(category)] = {
                "total": total,
                "hit_rate": _rate(hits, total),
                "skill": _rounded(fitness.skill(category)),
                "ece": _rounded(calibrator.ece(category, self.regime)),
                "regimes": {
                    regime: {"total": n, "hit_rate": _rate(h, n)}
                    for regime, (n, h) in sorted(regimes.items())
                },
            }
        return {
            "fitness": round(self.fitness, 6),
            "regime": self.regime,
            "categories": categories,
            "gate": {
                "blocked": self.blocked,
                "permitted": self.permitted,
                "would_be_pnl_usd": round(self.would_be_pnl_usd, 6),
            },
        }


def _rate(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
