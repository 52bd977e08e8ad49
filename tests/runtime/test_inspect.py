"""golem inspect on a synthetic log written by the real logging setup: filters, the
summary (and its JSON), torn and malformed lines, and following a live log."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest
import structlog

from golem.cli import build_parser, main
from golem.cli.inspect import inspect_log
from golem.runtime.logs.read import EventFilter, Malformed, follow, parse_time, read_events
from golem.runtime.logs.sinks import configure_logging
from golem.runtime.logs.summary import summarize

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _restore_structlog() -> Iterator[None]:
    yield
    structlog.reset_defaults()


def at(seconds: int) -> str:
    return (START + timedelta(seconds=seconds)).isoformat()


def decision(t: int, subsystem: str, source: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "golem": "g1",
        "time": at(t),
        "tick": t // 15,
        "subsystem": subsystem,
        "tier": "T1" if source == "model" else "T0",
        "tier_asked": "T1",
        "source": source,
        "vitality": 0.8,
        "phase": "thriving",
        "cost_usd": 0.0,
        "tokens": {"input": 0, "output": 0, "reasoning": 0},
    }
    return base | fields


def model(t: int, subsystem: str, attempts: int, cost: float, **fields: Any) -> dict[str, Any]:
    return decision(
        t,
        subsystem,
        "model",
        mode="schema_enforced",
        provider="openai",
        model="gpt-4.1-nano",
        attempts=attempts,
        cost_usd=cost,
        tokens={"input": 500, "output": 100, "reasoning": 0},
        **fields,
    )


DEGRADED = [{"reason": "budget_exhausted", "fallback": "deterministic", "tier": "T1"}]
EVENTS: list[tuple[str, str, dict[str, Any]]] = [
    ("info", "decision", decision(0, "heartbeat", "deterministic", summary="calm")),
    ("info", "decision", model(15, "heartbeat", 1, 0.001, summary="watch")),
    ("info", "decision", model(20, "daimon", 3, 0.002, summary="fear")),
    ("info", "vitality", {"time": at(30), "vitality": 0.72, "phase": "thriving"}),
    ("warning", "provider_error", {"subsystem": "risk", "provider": "openai", "error": "rate"}),
    ("info", "decision", decision(31, "risk", "fallback", error="rate_limited", vitality=0.7)),
    ("info", "phase_change", {"time": at(45), "from": "thriving", "to": "stable"}),
    ("info", "vitality", {"time": at(45), "vitality": 0.61, "phase": "stable"}),
    (
        "info",
        "decision",
        decision(60, "dream", "skipped", phase="stable", vitality=0.6, degradation=DEGRADED),
    ),
    ("info", "decision", model(75, "curator", 2, 0.004, phase="stable", vitality=0.58)),
    ("info", "vitality", {"time": at(90), "vitality": 0.64, "phase": "stable"}),
    ("info", "death", {"time": at(120), "cause": "economic", "vitality": 0.0, "phase": "terminal"}),
]


def write_log(path: Path, events: list[tuple[str, str, dict[str, Any]]] = EVENTS) -> None:
    clock = iter(START + timedelta(seconds=n) for n in range(10_000))
    with configure_logging(now=lambda: next(clock), file=path, console="off"):
        log = structlog.get_logger("golem")
        for level, name, fields in events:
            getattr(log, level)(name, **fields)


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    path = tmp_path / "golem.log"
    write_log(path)
    with path.open("ab") as file:
        file.write(b'{"event": "decision", "subsys')  # a killed writer's last words
    return path


def events_of(path: Path, problems: list[Malformed] | None = None) -> list[dict[str, Any]]:
    return list(read_events(path, (problems if problems is not None else []).append))


def test_a_torn_last_line_is_reported_with_its_number_and_skipped(log_file: Path) -> None:
    problems: list[Malformed] = []
    assert len(events_of(log_file, problems)) == len(EVENTS)
    assert problems == [Malformed(len(EVENTS) + 1, "torn last line (a killed writer?)", True)]


def test_a_malformed_line_inside_is_skipped_too(tmp_path: Path) -> None:
    path = tmp_path / "golem.log"
    path.write_bytes(b'{"event": "a"}\nnot json\n[1, 2]\n\n{"event": "b"}')
    problems: list[Malformed] = []
    assert [e["event"] for e in events_of(path, problems)] == ["a", "b"]
    assert [(p.line, p.torn) for p in problems] == [(2, False), (3, False)]


@pytest.mark.parametrize(
    ("selected", "expected"),
    [
        (EventFilter.of(subsystems=["heartbeat"]), 2),
        (EventFilter.of(subsystems=["HEARTBEAT", "risk"]), 4),
        (EventFilter.of(events=["vitality"]), 3),
        (EventFilter.of(phases=["stable"]), 4),
        (EventFilter.of(providers=["openai"]), 4),
        (EventFilter.of(degraded=True), 2),
        (EventFilter.of(since=parse_time(at(45)), until=parse_time(at(75))), 4),
        (EventFilter.of(since=parse_time("2026-03-01T12:01:00")), 4),
        (EventFilter.of(events=["decision"], degraded=True, subsystems=["dream"]), 1),
    ],
)
def test_filters(log_file: Path, selected: EventFilter, expected: int) -> None:
    assert len(list(selected.select(events_of(log_file)))) == expected


def test_the_summary_counts_what_happened(log_file: Path) -> None:
    summary = summarize(events_of(log_file)).to_json()
    subsystems = summary["subsystems"]
    assert set(subsystems) == {"heartbeat", "daimon", "risk", "dream", "curator"}
    assert subsystems["heartbeat"]["decisions"] == 2
    assert subsystems["heartbeat"]["sources"] == {"deterministic": 1, "model": 1}
    assert subsystems["daimon"]["reasks"] == 2
    assert subsystems["daimon"]["modes"] == {"schema_enforced": 1}
    assert subsystems["risk"]["fallbacks"] == 1
    assert subsystems["dream"]["skipped"] == 1
    assert subsystems["dream"]["degradations"] == 1
    assert subsystems["dream"]["degradation_reasons"] == {"budget_exhausted": 1}
    assert subsystems["curator"]["tokens"] == {"input": 500, "output": 100, "reasoning": 0}
    assert summary["spend_usd"] == pytest.approx(0.007)
    vitality = summary["vitality"]
    assert (vitality["first"], vitality["last"], vitality["min"]) == (0.8, 0.0, 0.0)
    assert vitality["phase_changes"] == [
        {"time": at(45), "from": "thriving", "to": "stable"},
        {"time": at(120), "from": "stable", "to": "terminal"},
    ]
    assert summary["death"]["cause"] == "economic"
    assert summary["events"]["decision"] == 6


def test_a_birth_phase_change_is_listed_once_and_the_right_way(tmp_path: Path) -> None:
    """As a golem born below Thriving logs it: the phase_change (previous, phase) first,
    then its first tick's decisions, made in the phase it began in, at commit."""
    path = tmp_path / "golem.log"
    write_log(
        path,
        [
            ("info", "phase_change", {"tick": 0, "previous": "thriving", "phase": "stable"}),
            ("info", "decision", decision(0, "heartbeat", "deterministic", phase="thriving")),
            ("info", "decision", model(0, "daimon", 1, 0.0, phase="thriving")),
            ("info", "vitality", {"time": at(0), "vitality": 0.69, "phase": "stable"}),
            ("info", "decision", decision(15, "heartbeat", "deterministic", phase="stable")),
        ],
    )
    vitality = summarize(events_of(path)).to_json()["vitality"]
    changes = [(c["from"], c["to"]) for c in vitality["phase_changes"]]
    assert changes == [("thriving", "stable")] and vitality["phase"] == "stable"


def test_summary_json_is_one_valid_document(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["inspect", str(log_file), "--summary", "--json"]) == 0
    out, err = capsys.readouterr()
    document = orjson.loads(out)
    assert document["subsystems"]["daimon"]["reasks"] == 2
    assert f"{log_file}:{len(EVENTS) + 1}: skipped: torn last line" in err


def test_summary_follows_the_filters(log_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(log_file), "--summary", "--json", "--subsystem", "daimon"]) == 0
    assert set(orjson.loads(capsys.readouterr().out)["subsystems"]) == {"daimon"}


def test_json_lines_are_the_matching_events(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["inspect", str(log_file), "--json", "--degraded"]) == 0
    rows = [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["subsystem"], r["source"]) for r in rows] == [
        ("risk", "fallback"),
        ("dream", "skipped"),
    ]


def test_the_table_and_the_readable_summary(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["inspect", str(log_file), "--event", "decision,death"]) == 0
    table = capsys.readouterr().out
    assert "provider:model" in table and "openai:gpt-4.1-nano" in table
    assert "fear" in table and "cause=economic" in table
    assert "vitality " not in table
    assert main(["inspect", str(log_file), "--summary"]) == 0
    text = capsys.readouterr().out
    assert "daimon" in text and "thriving → stable" in text and "died" in text


@pytest.mark.parametrize("width", [60, 80, 100])
def test_a_narrow_summary_shows_whole_columns_and_names_the_others(
    log_file: Path, capsys: pytest.CaptureFixture[str], width: int
) -> None:
    """At 80 columns the 13 columns were each squeezed to "su…" (issue 33, item 17)."""
    assert main(["inspect", str(log_file), "--summary", "--width", str(width)]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(line for line in lines if "subsystem" in line and "┃" in line)
    assert len(header) <= width
    shown = [cell.strip() for cell in header.strip("┃").split("┃")]
    assert shown[:2] == ["subsystem", "decisions"] and "spend $" in shown
    assert not any("…" in line for line in lines if "│" in line or "┃" in line)
    caption = " ".join(lines[lines.index(next(x for x in lines if x.startswith("└"))) + 1 :])
    assert "not shown at this width:" in caption
    for column in ("masked", "quarantined"):
        assert (column in shown) is (column not in caption)
    assert main(["inspect", str(log_file), "--summary", "--width", "0"]) == 0
    assert "not shown" not in capsys.readouterr().out


def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(tmp_path / "none.log")]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "g.log").write_text("")
    assert main(["inspect", str(tmp_path / "g.log"), "--summary", "--follow"]) == 2
    with pytest.raises(SystemExit) as caught:
        main(["inspect", str(tmp_path / "g.log"), "--since", "yesterday"])
    assert caught.value.code == 2


def test_follow_picks_up_appended_lines_and_waits_for_a_line_s_end(tmp_path: Path) -> None:
    path = tmp_path / "golem.log"
    write_log(path, EVENTS[:2])
    appends = iter(
        [
            b'{"event": "vitality", "vitality": 0.5}\n{"event": "deci',
            b'sion", "subsystem": "risk"}\n',
            b"",
        ]
    )

    def sleep(_seconds: float) -> None:
        with path.open("ab") as file:
            file.write(next(appends, b""))

    polls = 0

    def stop() -> bool:
        nonlocal polls
        polls += 1
        return polls > 3

    problems: list[Malformed] = []
    seen = [e["event"] for e in follow(path, problems.append, sleep=sleep, poll_s=0, stop=stop)]
    assert seen == ["decision", "decision", "vitality", "decision"]
    assert problems == []


def test_follow_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "golem.log"
    write_log(path, EVENTS[:1])
    later = iter([EVENTS[1:3], EVENTS[3:5]])

    def sleep(_seconds: float) -> None:
        batch = next(later, [])
        with path.open("ab") as file:
            for _level, name, fields in batch:
                file.write(orjson.dumps({"event": name, **fields}) + b"\n")

    args = build_parser().parse_args(
        ["inspect", str(path), "--follow", "--json", "--event", "decision", "--max-polls", "4"]
    )
    assert inspect_log(args, sleep=sleep) == 0
    rows = [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["subsystem"] for r in rows] == ["heartbeat", "heartbeat", "daimon"]
    args = build_parser().parse_args(["inspect", str(path), "-f", "--max-polls", "2"])
    assert inspect_log(args, sleep=lambda _s: None) == 0
    assert "daimon" in capsys.readouterr().out


def test_a_huge_log_is_read_as_a_stream(tmp_path: Path) -> None:
    path = tmp_path / "golem.log"
    line = orjson.dumps({"event": "decision"} | decision(0, "heartbeat", "deterministic")) + b"\n"
    with path.open("wb") as file:
        for _ in range(20):
            file.write(line * 1000)
    events = read_events(path, lambda _p: None)
    assert next(events)["subsystem"] == "heartbeat"  # a generator: nothing read ahead
    assert summarize(events).subsystems["heartbeat"].decisions == 19_999


ORACLE = {
    "fitness": 0.41,
    "regime": "within",
    "categories": {
        "price_direction": {
            "total": 40,
            "hit_rate": 0.75,
            "skill": 0.3,
            "ece": 0.1,
            "regimes": {
                "within": {"total": 30, "hit_rate": 0.8},
                "above": {"total": 10, "hit_rate": 0.6},
            },
        },
        "inaction": {"total": 0, "hit_rate": None, "skill": None, "ece": None, "regimes": {}},
    },
    "gate": {"blocked": 2, "permitted": 0, "would_be_pnl_usd": -3.5},
}


def test_the_summary_tells_the_prediction_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The last `oracle` line's fitness and accuracy per category and regime, the trades
    the gate blocked by reason and their would-be P&L; provenance blocks stay listed."""
    path = tmp_path / "golem.log"
    gated = {"tick": 9, "action": "hedge", "check": "oracle_gate"}
    write_log(
        path,
        [
            ("info", "oracle", {**ORACLE, "fitness": 0.6}),
            ("info", "action_blocked", {**gated, "reason": "insufficient data: n=3"}),
            ("info", "action_blocked", {**gated, "reason": "inaction 90% > action 70%"}),
            ("info", "gated_trade_resolved", {"tick": 9, "would_be_pnl_usd": -1.25}),
            ("info", "gated_trade_resolved", {"tick": 9, "would_be_pnl_usd": -2.25}),
            ("info", "action_blocked", {"tick": 10, "action": "exit", "check": "provenance"}),
            ("info", "oracle", ORACLE),
        ],
    )
    summary = summarize(events_of(path)).to_json()
    oracle = summary["oracle"]
    assert oracle["fitness"] == 0.41  # the last line's
    assert oracle["categories"]["price_direction"]["regimes"]["above"]["hit_rate"] == 0.6
    assert oracle["gated_by_reason"] == {"insufficient": 1, "inaction": 1}
    assert (oracle["gated_resolved"], oracle["would_be_pnl_usd"]) == (2, -3.5)
    assert [b["check"] for b in summary["blocked"]] == ["provenance"]
    assert main(["inspect", str(path), "--summary", "--width", "0"]) == 0
    text = capsys.readouterr().out
    assert "epistemic fitness 0.410" in text
    assert (
        "price_direction: 75% of 40 right, skill +0.30 (above 60% of 10, within 80% of 30)" in text
    )
    assert (
        "blocked 2 trades (insufficient 1, inaction 1); 2 resolved would have made $-3.50" in text
    )
