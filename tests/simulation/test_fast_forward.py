"""Fast-forward against the reference (issue [speed]): every shipped scenario lived with
quiet stretches in bulk (`[simulation] fast_forward`, the default) and one heartbeat at a
time (`golem simulate --step`) writes the same summary.json, byte for byte; Hypothesis
varies the seed and a scenario knob or two. The key's direction: fast-forwarding lives
stretches of several heartbeats in one run of the heartbeat job; `--step` never does."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from golem.cli import main
from golem.cli.simulate_batch import Batch
from golem.runtime.fast_forward import FastForward
from golem.simulation.arms import Arm
from golem.simulation.run import LifeSpec, run_life
from golem.simulation.scenario import load_scenario
from tests.world.test_candles import event_data

SIMULATIONS = Path(__file__).parents[2] / "simulations"
STEP = ("simulation.fast_forward", False)
DAYS = 3.0  # "a few days" (issue 40): 17,280 heartbeats of 15 s, 4,320 of 60 s


def _summaries(
    tmp_path: Path, name: str, seed: int, days: float, *overrides: tuple[str, Any]
) -> tuple[bytes, bytes]:
    """summary.json of `name`'s life fast-forwarded, then stepped, with the same seed."""
    scenario = SIMULATIONS / f"{name}.toml"
    if "candles" in tomllib.loads(scenario.read_text()).get("world", {}):
        event_data(scenario)  # a real event's data is shared, not ours: skipped when absent
    made = []
    for how, extra in (("forward", ()), ("step", (STEP,))):
        out = tmp_path / how
        spec = LifeSpec(scenario, seed, out, days, record=False, overrides=(*overrides, *extra))
        run_life(spec)
        made.append((out / "summary.json").read_bytes())
    return made[0], made[1]


@pytest.mark.parametrize("name", sorted(path.stem for path in SIMULATIONS.glob("*.toml")))
def test_every_scenario_fast_forwarded_writes_the_summary_of_its_steps(
    tmp_path: Path, name: str
) -> None:
    forward, step = _summaries(tmp_path, name, 1, DAYS)
    assert forward == step


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    seed=st.integers(0, 2**31),
    regime=st.sampled_from(["calm", "trending", "volatile", "crash"]),
    credits=st.sampled_from([0.5, 5.0, 50.0]),
)
def test_any_seed_and_market_fast_forwarded_writes_the_summary_of_its_steps(
    tmp_path_factory: pytest.TempPathFactory, seed: int, regime: str, credits: float
) -> None:
    forward, step = _summaries(
        tmp_path_factory.mktemp("life"),
        "whipsaw",
        seed,
        0.1,
        ("world.market.initial_regime", regime),
        ("mortality.initial_credits_usd", credits),
    )
    assert forward == step


def test_fast_forward_lives_stretches_and_step_lives_each_heartbeat_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lived: list[int] = []
    live = FastForward.live

    async def counted(self: FastForward, *args: Any) -> int:
        lived.append(await live(self, *args))
        return lived[-1]

    monkeypatch.setattr(FastForward, "live", counted)
    decline = str(SIMULATIONS / "decline.toml")
    assert main(["simulate", decline, "--days", "0.1", "--out", str(tmp_path / "f")]) == 0
    stretches = [n for n in lived if n > 1]
    assert stretches, "no quiet stretch was lived in bulk"
    # Each run lived its stretch, or (0) one tick step by step: fewer runs than ticks.
    assert sum(lived) > sum(1 for n in lived if n)
    lived.clear()
    args = ["simulate", decline, "--days", "0.1", "--out", str(tmp_path / "s"), "--step"]
    assert main(args) == 0
    assert lived == []  # the driver is never asked: each heartbeat is a tick


def test_a_batch_with_step_lives_every_life_step_by_step(tmp_path: Path) -> None:
    scenario = load_scenario(SIMULATIONS / "decline.toml")
    arms = [Arm(scenario.config.mortality.policy)]
    for step, key in ((False, None), (True, STEP)):
        batch = Batch(scenario, [()], arms, range(1, 3), tmp_path, 0.1, False, step=step)
        for life in batch.lives():
            overrides = dict(batch.spec(*life).overrides)
            assert overrides.get(STEP[0]) is (None if key is None else False)
