"""A batch's chunks of lives on a real Dask cluster (`distributed.LocalCluster`, 2 worker
processes of one thread, on 127.0.0.1): chunked lives give the summaries of the same
lives a task each, byte for byte; short lives go many to a task; a life that raises is
reported with its error and the rest of its chunk lives on; a chunk lost whole with its
worker is run again a life a task; the pace (lives per minute, ETA) is on each life's
line and in the batch's last line. One cluster for the module (it takes seconds)."""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import dask
import pytest
from distributed import Client, LocalCluster, get_task_stream

from golem.cli import main
from golem.simulation import LifeEnd, LifeSpec, run_lives
from golem.simulation.batch import CHUNK_S, SPREAD, chunk_size, pace, pace_text

DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"
WHIPSAW = Path(__file__).parents[2] / "simulations" / "whipsaw.toml"


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    ) as local:
        yield local


@pytest.fixture
def client(cluster: LocalCluster) -> Iterator[Client]:
    with Client(cluster, set_as_default=False) as connected:
        yield connected


def _specs(out: Path, days: float, seeds: int) -> list[LifeSpec]:
    return [
        LifeSpec(scenario, seed, out / f"{scenario.stem}-{seed}", days, record=False)
        for scenario in (DECLINE, WHIPSAW)
        for seed in range(1, seeds + 1)
    ]


def test_a_chunk_is_one_life_until_a_life_is_timed_then_about_chunk_s_of_lives() -> None:
    assert chunk_size(100, 2, None) == 1  # nothing known: a long life must not wait
    assert chunk_size(10_000, 2, 0.01) == int(CHUNK_S / 0.01)  # short lives: many a task
    assert chunk_size(10_000, 2, 0.1) == int(CHUNK_S / 0.1)
    assert chunk_size(10_000, 2, 0.1) < chunk_size(10_000, 2, 0.01)  # longer lives, fewer
    assert chunk_size(10_000, 2, 60.0) == 1  # a life longer than CHUNK_S goes alone
    # Near the end, a SPREAD-th of a worker's share: the last tasks end together.
    assert chunk_size(40, 2, 0.001) == 40 // (SPREAD * 2)
    assert chunk_size(41, 2, 0.001) == 40 // (SPREAD * 2) + 1  # rounded up
    assert chunk_size(40, 4, 0.001) < chunk_size(40, 2, 0.001)
    assert chunk_size(1, 2, 0.001) == 1  # never none while lives are left
    assert chunk_size(0, 2, 0.001) == 0


def test_the_pace_is_lives_per_minute_and_the_time_the_rest_take_at_it() -> None:
    assert pace(0, 10, 5.0) == (None, None)  # no life ended: no pace yet
    assert pace(5, 20, 30.0) == (10.0, 90.0)
    assert pace_text(5, 20, 30.0) == "10 lives/min, ETA 0:01:30"
    assert pace_text(3, 20, 200.0) == "0.9 lives/min, ETA 0:18:53"  # slow: a tenth
    assert pace_text(0, 20, 3.0) == "- lives/min, ETA -"


def test_chunked_lives_give_the_summaries_of_one_life_a_task(
    tmp_path: Path, client: Client
) -> None:
    alone = run_lives(client, _specs(tmp_path / "alone", 0.02, 3), chunk=1)
    together = run_lives(client, _specs(tmp_path / "together", 0.02, 3), chunk=4)
    assert [e.error for e in alone + together] == [None] * 12
    for one, other in zip(alone, together, strict=True):
        assert (one.index, one.spec.seed) == (other.index, other.spec.seed)
        assert one.summary == other.summary
        name = one.spec.out.name
        assert (one.spec.out / "summary.json").read_bytes() == (
            tmp_path / "together" / name / "summary.json"
        ).read_bytes(), name


def test_short_lives_go_many_to_a_task_and_each_is_heard_once(
    tmp_path: Path, client: Client
) -> None:
    specs = _specs(tmp_path, 0.01, 20)
    heard: list[int] = []
    with get_task_stream(client) as stream:
        ends = run_lives(client, specs, lambda end: heard.append(end.index))
    assert [e.error for e in ends] == [None] * 40
    assert sorted(heard) == list(range(40))
    tasks = [t for t in stream.data if str(t["key"]).startswith("golem-life-")]
    assert len(tasks) < 40 / 2, len(tasks)  # at least two lives a task on average


def test_a_life_that_raises_is_reported_and_the_rest_of_its_chunk_lives(
    tmp_path: Path, client: Client
) -> None:
    specs = _specs(tmp_path, 0.01, 2)
    specs[1] = dataclasses.replace(specs[1], scenario=tmp_path / "gone.toml")
    heard: list[LifeEnd] = []
    ends = run_lives(client, specs, heard.append, chunk=4)
    assert sorted(e.index for e in heard) == [0, 1, 2, 3]
    assert ends[1].summary is None and "gone.toml: no such file" in str(ends[1].error)
    assert str(ends[1].error).startswith("ConfigError: ")
    assert [e.error for e in (ends[0], *ends[2:])] == [None] * 3
    assert all((s.out / "summary.json").is_file() for s in (specs[0], *specs[2:]))


def test_a_chunk_lost_with_its_worker_is_run_again_a_life_a_task(tmp_path: Path) -> None:
    """With no failure allowed a task (allowed-failures 0), a chunk whose worker is
    killed comes back as KilledWorker; its lives run again one a task and all end."""
    specs = _specs(tmp_path, 0.2, 4)
    killed: list[int] = []
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        ) as cluster,
        Client(cluster, set_as_default=False) as client,
    ):

        def kill_one_running_a_chunk() -> None:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                for worker, keys in client.processing().items():
                    if any(str(key).endswith("-4") for key in keys):
                        pid = client.run(os.getpid, workers=[worker])[worker]
                        time.sleep(0.2)  # a life or so into the chunk
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
                        return
                time.sleep(0.01)

        killer = threading.Thread(target=kill_one_running_a_chunk)
        killer.start()
        with get_task_stream(client) as stream:
            ends = run_lives(client, specs, chunk=4)
        killer.join()
    assert killed, "no chunk was seen running"
    assert [e.error for e in ends] == [None] * 8
    assert all((s.out / "summary.json").is_file() for s in specs)
    alone = {str(t["key"]) for t in stream.data if re.fullmatch(r"golem-life-\w+-\d+", t["key"])}
    assert len(alone) == 4, alone  # the lost chunk's lives, one a task


def test_a_batch_prints_its_pace_on_each_life_and_at_the_end(
    tmp_path: Path, cluster: LocalCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--days", "0.01", "--seeds", "3", "--out", str(tmp_path)]
    assert main(["simulate", str(DECLINE), *args, "--scheduler", cluster.scheduler_address]) == 0
    out, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.startswith("[")]
    assert len(lines) == 3, err
    for line in lines:
        assert re.search(r"\(\d+\.\d s\); \d+(\.\d)? lives/min, ETA \d+:\d\d:\d\d$", line), line
    assert lines[-1].endswith("ETA 0:00:00")  # none left
    assert re.search(r"^3 lives in \d+\.\d s: \d+\.\d lives/min, 2 workers \d+% busy$", out, re.M)


_WORKERS_SCRIPT = """
from golem.simulation.batch import executor

if __name__ == "__main__":
    with executor() as client:
        print(len(client.nthreads()), sum(client.nthreads().values()))
"""


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity")
def test_a_local_cluster_has_a_worker_of_one_thread_per_core_it_may_use(tmp_path: Path) -> None:
    """Narrowed to one core (as `taskset` or a container would), a batch starts one worker
    process, not one per core of the machine: no two lives share a core."""
    script = tmp_path / "workers.py"
    script.write_text(_WORKERS_SCRIPT)
    root = Path(__file__).parents[2]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    ran = subprocess.run(
        [sys.executable, str(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}),
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["1", "1"]  # one worker process, one thread
