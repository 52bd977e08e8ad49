"""The kill-9 trial, small: `golem run` SIGKILLed 5 times during its model calls (a local
127.0.0.1 server replaying a recorded Anthropic answer slowly), restarted each time; then
`golem inspect --summary` reconciles with the ledger to the cent and no decision id is
logged twice. tests/runtime/kill_calls.py runs the 50-kill trial as a script."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.runtime.kill_calls import RECORDED, run_trial


@pytest.mark.skipif(not RECORDED.exists(), reason=f"{RECORDED} is absent")
def test_kills_during_model_calls_leave_a_log_that_reconciles(tmp_path: Path) -> None:
    trial = run_trial(tmp_path, kills=5, delay=1.0, seed=5)
    assert trial.duplicate_ids == 0, trial.lines()
    assert trial.reconciled, trial.lines()
    assert trial.ledger_usd == pytest.approx(trial.logged_usd, abs=1e-9), trial.lines()
    assert trial.ledger_usd > 0 and trial.requests >= 5, trial.lines()
    # The answers the golem read are in the ledger, though the ticks that asked were killed.
    assert trial.ledger_usd >= trial.billed_floor_usd - 1e-9, trial.lines()
