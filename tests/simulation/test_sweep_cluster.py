"""A sweep on a real Dask cluster (`distributed.LocalCluster`, 2 worker processes of one
thread, on 127.0.0.1): its rows equal those of the same lives run in this process, each
life's summary.json byte for byte; a worker killed mid-sweep still leaves every life
reported once; a failed life is a row with its error, and `--resume` runs only the lives
without a row. One cluster for the module (it takes seconds to start)."""

from __future__ import annotations

import dataclasses
import logging
import os
import signal
import socket
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from distributed import Client, LocalCluster

from golem.cli import main
from golem.mortality import PolicyName
from golem.simulation import LifeEnd, LifeSpec, load_scenario, run_life, run_lives
from golem.simulation.results import read_rows, row, write_rows
from golem.simulation.sweep import grid, parse_setting, point_name

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"
DAYS = "1"  # the issue's: one simulated day a life
SWEEP = ("--seeds", "2", "--compare", "fixed", "--set", "mortality.daily_budget_usd=0.5,1")


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        dashboard_address=":0",  # a free port: 8787 may be taken (its warning is an error here)
        silence_logs=logging.ERROR,
    ) as local:
        yield local


@pytest.fixture
def client(cluster: LocalCluster) -> Iterator[Client]:
    with Client(cluster, set_as_default=False) as connected:
        yield connected


def _sweep(out: Path, cluster: LocalCluster, *more: str) -> int:
    address = cluster.scheduler_address
    args = [str(DECLINE), "--days", DAYS, *SWEEP, "--scheduler", address, "--out", str(out)]
    return main(["simulate", *args, *more])


def _lives() -> list[tuple[str, tuple[tuple[str, Any], ...], PolicyName, int]]:
    points = grid([parse_setting("mortality.daily_budget_usd=0.5,1")])
    return [
        (f"{point_name(point)}/{policy}/seed-{seed}", point, policy, seed)
        for point in points
        for policy in (PolicyName.VITALITY, PolicyName.FIXED)
        for seed in (1, 2)
    ]


def _specs(out: Path) -> list[LifeSpec]:
    return [
        LifeSpec(DECLINE, seed, out / life, float(DAYS), policy, record=False, overrides=point)
        for life, point, policy, seed in _lives()
    ]


def _blank_free(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if v is not None} for r in rows]


def test_a_sweep_on_the_cluster_gives_the_rows_and_summaries_of_one_run_here(
    tmp_path: Path, cluster: LocalCluster
) -> None:
    assert _sweep(tmp_path / "dask", cluster) == 0
    here = []
    for (life, point, policy, seed), spec in zip(_lives(), _specs(tmp_path / "here"), strict=True):
        summary = run_life(spec).summary
        scenario = load_scenario(DECLINE).name
        here.append(
            row(life, scenario=scenario, point=point, policy=policy, seed=seed, summary=summary)
        )
        # Byte-identical, whichever executor ran it and in whatever order.
        ran = (tmp_path / "dask" / life / "summary.json").read_bytes()
        assert ran == (tmp_path / "here" / life / "summary.json").read_bytes(), life
    rows = read_rows(tmp_path / "dask")
    assert len(rows) == 8
    assert rows == _blank_free(here)
    for point in ("mortality.daily_budget_usd=0.5", "mortality.daily_budget_usd=1"):
        for name in ("report.json", "compare.csv", "outcomes.png"):
            assert (tmp_path / "dask" / point / name).is_file()
    assert (tmp_path / "dask" / "results.csv").read_text().count("\n") == 9


def test_a_worker_killed_mid_sweep_leaves_every_life_reported_once(
    tmp_path: Path, client: Client
) -> None:
    specs = _specs(tmp_path)
    heard: list[LifeEnd] = []
    killed: list[int] = []

    def ended(end: LifeEnd) -> None:
        heard.append(end)
        if not killed:  # the first life is done: kill a worker that is running another
            # once the cluster has forgotten the finished life (run_lives released it:
            # a result still held would be computed again, rewriting its directory)
            def held() -> bool:
                keys = (str(key) for held in client.has_what().values() for key in held)
                return any(key.rsplit("-", 1)[-1] == str(end.index) for key in keys)

            deadline = time.monotonic() + 10
            while held() and time.monotonic() < deadline:
                time.sleep(0.01)
            busy = [w for w, keys in client.processing().items() if keys]
            assert busy, "no worker is running a life"
            pids = client.run(os.getpid, workers=busy[:1])
            killed.extend(pids.values())
            os.kill(killed[0], signal.SIGKILL)

    ends = run_lives(client, specs, ended)
    assert killed and len(heard) == len(specs) == 8
    assert sorted(end.index for end in heard) == list(range(8))
    assert [end.error for end in ends] == [None] * 8
    assert all((spec.out / "summary.json").is_file() for spec in specs)
    assert killed[0] not in client.run(os.getpid).values()  # its nanny started another


def test_a_failed_life_is_a_row_with_its_error_and_resume_runs_only_what_has_no_row(
    tmp_path: Path, client: Client, cluster: LocalCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = [dataclasses.replace(spec, scenario=tmp_path / "gone.toml") for spec in _specs(tmp_path)]
    ends = run_lives(client, gone[:2])
    assert all(end.summary is None and "ConfigError" in str(end.error) for end in ends)
    assert "gone.toml: no such file" in str(ends[0].error)

    out = tmp_path / "sweep"
    assert _sweep(out, cluster) == 0
    first = read_rows(out)
    report = out / "mortality.daily_budget_usd=1" / "report.json"
    reported = report.read_bytes()
    life = out / first[0]["life"]
    (life / "summary.json").unlink()  # a life with a row is not run again
    capsys.readouterr()
    assert _sweep(out, cluster, "--resume") == 0
    assert "resuming: 8 of 8 lives have rows; 0 to run" in capsys.readouterr().out
    assert not (life / "summary.json").exists()
    assert read_rows(out) == first
    # A failed life's row does not count: --resume runs it again.
    failed = {k: v for k, v in first[1].items() if k in ("life", "scenario", "policy", "seed")}
    swept = ["mortality.daily_budget_usd"]
    failed |= {"mortality.daily_budget_usd": first[1][swept[0]], "error": "KilledWorker: x"}
    write_rows(out, [first[0], failed, *first[2:]], swept)
    assert _sweep(out, cluster, "--resume") == 0
    assert "resuming: 7 of 8 lives have rows; 1 to run" in capsys.readouterr().out
    assert read_rows(out) == first
    assert report.read_bytes() == reported  # the same report from the rows kept


def test_a_batch_runs_beside_a_cluster_holding_the_default_ports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another Dask cluster (or anything) on 8787 does not stop or trouble a batch."""
    with socket.socket() as taken:
        with suppress(OSError):  # already taken: all the better
            taken.bind(("127.0.0.1", 8787))
            taken.listen()
        args = ["--days", "0.01", "--seeds", "1", "--jobs", "1", "--out", str(tmp_path)]
        assert main(["simulate", str(DECLINE), *args]) == 0
    assert "8787" not in capsys.readouterr().err
    assert len(read_rows(tmp_path)) == 1
