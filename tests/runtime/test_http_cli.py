"""`golem run --http`: an address that cannot be served is one line and exit 2 before
anything is made (a bad value, a non-loopback address without --http-allow-remote, a
taken port); a served one answers while the golem runs and stops with it."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from golem.cli import main

ROOT = Path(__file__).resolve().parents[2]
CONFIG = """
[golem]
id = "g-http"
state_dir = "{state}"
seed = 3

[inference]
t1 = ["synthetic"]
t2 = ["synthetic:gpt-4o"]
death = ["synthetic:gpt-4o"]

[providers.synthetic]
emulate = "openai"
model = "gpt-4o-mini"

[heartbeat]
interval = "200ms"

[logging]
console = "off"
"""


def write_config(tmp_path: Path) -> tuple[Path, Path]:
    state = tmp_path / "state"
    path = tmp_path / "golem.toml"
    path.write_text(CONFIG.format(state=state))
    return path, state


def refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    config, state = write_config(tmp_path)
    code = main(["run", str(config), *flags])
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert not state.exists()  # refused before anything was made
    return lines[0]


def test_a_non_loopback_address_is_refused_without_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(tmp_path, capsys, "--http", "0.0.0.0:8787")
    assert line.startswith("golem run: --http 0.0.0.0:8787: not a loopback address")
    assert "--http-allow-remote" in line


def test_the_flag_lets_a_non_loopback_address_through_to_the_bind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # TEST-NET-1: not this machine's, so the bind itself fails, past the refusal.
    line = refused(tmp_path, capsys, "--http", "192.0.2.1:0", "--http-allow-remote")
    assert line.startswith("golem run: --http 192.0.2.1:0: ")
    assert "loopback" not in line


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("8787", "write HOST:PORT"),
        ("127.0.0.1:http", "write HOST:PORT"),
        ("127.0.0.1:99999", "out of range"),
        ("example.org:8787", "not an IP address"),
    ],
)
def test_a_bad_value_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, says: str
) -> None:
    line = refused(tmp_path, capsys, "--http", value)
    assert line.startswith("golem run: --http: ")
    assert says in line


def test_a_taken_port_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        line = refused(tmp_path, capsys, "--http", f"127.0.0.1:{port}")
    assert line == f"golem run: --http 127.0.0.1:{port}: Address already in use"


def test_allow_remote_alone_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "needs --http" in refused(tmp_path, capsys, "--http-allow-remote")


def test_the_endpoint_answers_while_the_golem_runs(tmp_path: Path) -> None:
    config, _ = write_config(tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-m", "golem", "run", str(config), "--for", "3s", "--http", "127.0.0.1:0"],
        cwd=ROOT,  # this checkout's golem
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    lines: list[str] = []
    while not any("status endpoint at" in line for line in lines):
        line = process.stderr.readline()
        assert line, "".join(lines)
        lines.append(line)
    found = re.search(r"status endpoint at (http://\S+)", lines[-1])
    assert found is not None
    time.sleep(0.5)  # a few heartbeats
    health = httpx.get(f"{found.group(1)}/health", timeout=10).json()
    assert health["alive"] is True and health["tick"] >= 1
    rest = process.communicate(timeout=60)[1]
    assert process.returncode == 0, rest
    assert "resume with: " in rest and "--http 127.0.0.1:0" in rest
    with pytest.raises(httpx.ConnectError):  # it stopped with the golem
        httpx.get(f"{found.group(1)}/health", timeout=5)
