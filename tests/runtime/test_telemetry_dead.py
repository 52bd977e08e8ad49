"""A receiver that is down never stalls a life: a golem whose OTLP receiver never answers
waits for it once (WAIT_S), then never again, and its end does not wait at all; a
simulated life whose receiver refuses connections ends within CLOSE_S of the same life
untraced, and its log says how many spans were not sent (`telemetry_unsent`).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from structlog.testing import capture_logs

from golem.cli import main
from golem.runtime.logs.read import Malformed, read_events
from golem.runtime.tracing import (
    CLOSE_S,
    EXPORT_TIMEOUT_S,
    FLUSH_EVERY,
    WAIT_S,
    Traces,
    otlp_exporter,
)
from tests.runtime.records import decision

ROOT = Path(__file__).parents[2]
START = datetime(2026, 3, 1, tzinfo=UTC)


@pytest.fixture
def silent() -> Iterator[str]:
    """A receiver's address whose connections are accepted by the kernel and never
    answered."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(64)
        yield f"http://127.0.0.1:{listening.getsockname()[1]}"


def _refusing() -> str:
    """An address on this machine where nothing listens: every connection is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_a_receiver_that_never_answers_holds_the_golem_one_wait_at_most(silent: str) -> None:
    spans = 2 * FLUSH_EVERY  # two waits due, one decision span each
    began = time.monotonic()
    with capture_logs() as logs, Traces(otlp_exporter(silent), "g-dead") as traces:
        for tick in range(spans):
            traces.publish(decision(START + timedelta(seconds=tick)))
    took = time.monotonic() - began
    # The SDK's flush keeps no timeout: it sent every batch held, each given up after the
    # exporter's own (30 s here before); now one wait at most, and none at the end.
    assert took < WAIT_S + EXPORT_TIMEOUT_S
    behind = [e for e in logs if e["event"] == "telemetry_behind"]
    assert len(behind) == 1  # the second wait was not made
    [unsent] = [e for e in logs if e["event"] == "telemetry_unsent"]
    assert unsent["spans"] == unsent["of"] == spans
    assert unsent["reason"] in {"an export failed", "the receiver fell behind"}


def _scenario(tmp_path: Path, telemetry: str) -> Path:
    text = (ROOT / "simulations" / "decline.toml").read_text()
    path = tmp_path / "scenario.toml"
    path.write_text(f"{text}\n{telemetry}\n")
    return path


def _simulate(tmp_path: Path, telemetry: str) -> tuple[float, list[dict[str, object]]]:
    tmp_path.mkdir()
    out = tmp_path / "out"
    began = time.monotonic()
    code = main(
        ["simulate", str(_scenario(tmp_path, telemetry)), "--days", "0.05", "--out", str(out)]
    )
    took = time.monotonic() - began
    assert code == 0
    # Every event, a quiet stretch's line expanded into its decisions (docs/speed.md).
    return took, list(read_events(out / "golem.log", on_malformed=_refuse))


def test_a_simulated_life_with_its_receiver_down_ends_on_time_and_logs_its_unsent_spans(
    tmp_path: Path,
) -> None:
    untraced, _ = _simulate(tmp_path / "off", "")
    traced, lines = _simulate(tmp_path / "down", f'[telemetry]\notlp_endpoint = "{_refusing()}"')
    # Before, the life's end waited out the exporter's retries (+5.8 s here, 7 s unloaded).
    assert traced - untraced < CLOSE_S + 3.0
    decisions = [e for e in lines if e["event"] == "decision"]
    calls = sum("provider" in d or ("context" in d and "error" in d) for d in decisions)
    [unsent] = [e for e in lines if e["event"] == "telemetry_unsent"]
    assert unsent["spans"] == unsent["of"] == len(decisions) + calls > 100
    assert lines.index(unsent) > lines.index(decisions[-1])  # logged as the life ended


def _refuse(malformed: Malformed) -> None:
    raise AssertionError(f"a malformed log line: {malformed}")
