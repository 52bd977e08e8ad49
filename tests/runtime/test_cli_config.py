"""`golem config check`: prints the resolved config with keys as set/unset only; exits 2
naming the key on a bad config; writes nothing anywhere."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from golem.cli import main

CONFIGS = Path(__file__).parents[2] / "configs"
FAKE = "sk-fake-DO-NOT-PRINT-0123456789abcdef"


def tree(root: Path) -> list[Path]:
    return sorted(root.rglob("*"))


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.endswith("_API_KEY"):
            monkeypatch.delenv(name)
    return tmp_path


@pytest.mark.parametrize("as_json", [False, True], ids=["tables", "json"])
@pytest.mark.parametrize("name", ["openai", "anthropic", "venice"])
def test_check_shows_keys_as_set_never_their_value(
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    as_json: bool,
) -> None:
    monkeypatch.setenv(f"{name.upper()}_API_KEY", FAKE)
    monkeypatch.setenv("OPENROUTER_API_KEY", FAKE + "-unused")
    argv = ["config", "check", str(CONFIGS / f"{name}.toml")] + (["--json"] if as_json else [])
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert FAKE not in out + err
    assert "set" in out
    if as_json:
        document = orjson.loads(out)
        used = [k for k in document["keys"] if k["used"] and k["env"]]
        assert used == [
            {"provider": name, "env": f"{name.upper()}_API_KEY", "used": True, "key": "set"}
        ]
        assert document["resolved"]["chains"]["t1"][0]["key"] == "set"
        assert document["config"]["golem"]["id"] == f"golem-{name}"
    assert tree(workdir) == []


def test_check_of_the_default_config_needs_no_key(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["config", "check", str(CONFIGS / "golem.toml"), "--json"]) == 0
    chains = orjson.loads(capsys.readouterr().out)["resolved"]["chains"]
    assert {e["key"] for entries in chains.values() for e in entries} == {"keyless"}
    assert tree(workdir) == []


def test_check_shows_what_the_dream_needs(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["config", "check", str(CONFIGS / "golem.toml")]) == 0
    out = capsys.readouterr().out
    assert any(
        "subsystems.dream.min_episodes" in line and " 1 " in line for line in out.splitlines()
    )


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (None, None),
        ("[golem\nid = 1\n", None),
        ("[golem]\nflavour = 'x'\n", "golem.flavour"),
        ("[mortality]\ndaily_budget_usd = -2\n", "mortality.daily_budget_usd"),
        ("[inference]\nt1 = ['nobody']\n", "inference.t1[0]"),
        ("[inference]\nt1 = ['openai:gpt-4.1-nano']\n", "inference.t1[0]"),
        ("[subsystems.curator]\nschedule = '61 * * * *'\n", "subsystems.curator.schedule"),
        ("[subsystems.dream]\nmin_episodes = 51\n", "subsystems.dream.min_episodes"),
        ("[world]\nsource = 'csv'\ncsv = 'gone.csv'\n", "world.csv"),
    ],
    ids=[
        "missing",
        "toml",
        "unknown",
        "negative",
        "provider",
        "unset-key",
        "cron",
        "episodes",
        "csv",
    ],
)
def test_a_bad_config_exits_2_naming_the_key_and_writes_nothing(
    workdir: Path, capsys: pytest.CaptureFixture[str], text: str | None, key: str | None
) -> None:
    path = workdir / "bad.toml"
    if text is not None:
        path.write_text(f"[logging]\nfile = 'logs/g.log'\n{text}")
    before = tree(workdir)
    assert main(["config", "check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"{path}: ")
    if key is not None:
        assert f": {key}: " in err
    assert tree(workdir) == before


def test_the_installed_command_leaves_no_trace_of_a_key(workdir: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env["ANTHROPIC_API_KEY"] = FAKE
    command = [sys.executable, "-m", "golem", "config", "check", str(CONFIGS / "anthropic.toml")]
    for argv in (["--json"], []):
        done = subprocess.run(
            [*command, *argv],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert FAKE not in done.stdout + done.stderr
        assert "ANTHROPIC_API_KEY" in done.stdout
    assert tree(workdir) == []


def test_check_reads_a_scenario_and_its_market_csv(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv = workdir / "market.csv"
    csv.write_text("time,price,volume\n2026-01-05T00:00:00Z,3000,1\n2026-01-06T00:00:00Z,3001,1\n")
    scenario = workdir / "replay.toml"
    scenario.write_text(
        "[simulation]\nstart = 2026-01-05T00:00:00Z\nhorizon_days = 1\n"
        '[inference]\nt1 = ["synthetic"]\n'
        f'[world]\nsource = "csv"\ncsv = "{csv}"\n'
    )
    before = tree(workdir)
    assert main(["config", "check", str(scenario), "--json"]) == 0
    document = orjson.loads(capsys.readouterr().out)
    assert document["resolved"]["market_data"] == {
        "csv": str(csv),
        "rows": 2,
        "from": "2026-01-05T00:00:00+00:00",
        "to": "2026-01-06T00:00:00+00:00",
    }
    assert tree(workdir) == before
