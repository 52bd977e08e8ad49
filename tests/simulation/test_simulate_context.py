"""The hostile-feed scenario end to end: in high-security mode every model call runs the
Full profile, and the injection the feed carries is quarantined in the decision log."""

from __future__ import annotations

from pathlib import Path

import orjson

from golem.cli import main

SCENARIO = Path(__file__).parents[2] / "simulations" / "hostile_feed.toml"


def test_the_injection_is_quarantined_and_logged(tmp_path: Path) -> None:
    assert main(["simulate", str(SCENARIO), "--days", "0.4", "--out", str(tmp_path)]) == 0
    lines = (tmp_path / "golem.log").read_bytes().splitlines()
    decisions = [orjson.loads(line) for line in lines if b'"event":"decision"' in line]
    calls = [d for d in decisions if d.get("source") == "model"]
    assert calls and {d["profile"] for d in calls} == {"full"}
    flagged = [q for d in calls for q in d["context"].get("quarantined", [])]
    assert flagged and all(q["source"] == "news" for q in flagged)  # the 8 h injection
    assert all("override" in q["reasons"] for q in flagged)
    assert all(d["context"]["masked"].get("address", 0) >= 1 for d in calls)  # the wallet
