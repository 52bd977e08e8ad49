"""`golem simulate`'s summary table is plain text: no Python reprs (`None`, `[]`, nested
dicts as `{'model': {...}}`; issue 33, item 20)."""

from __future__ import annotations

from rich.console import Console

from golem.cli.simulate_report import summary_table

SUMMARY = {
    "scenario": "decline",
    "seed": 1,
    "policy": "vitality",
    "cause_of_death": None,
    "adaptation_ticks": [],
    "shocks": [3, 9],
    "provenance": True,
    "decisions_by_tier": {"T0": 14376, "T1": 212},
    "decisions_judged": {
        "daimon": {"model": {"judged": 6, "right": 4}, "rules": {"judged": 23, "right": 23}}
    },
    "lineage": [{"generation": 1}],
}


def _rows() -> dict[str, str]:
    console = Console(width=200, record=True)
    console.print(summary_table(SUMMARY))
    rows = {}
    for line in console.export_text().splitlines():
        cells = [cell.strip() for cell in line.strip("│").split("│")]
        if len(cells) == 2 and line.startswith("│"):
            rows[cells[0]] = cells[1]
    return rows


def test_the_summary_table_shows_no_python_reprs() -> None:
    rows = _rows()
    assert rows["cause_of_death"] == "-"
    assert rows["adaptation_ticks"] == "-"
    assert rows["shocks"] == "3, 9"
    assert rows["provenance"] == "yes"
    assert rows["decisions_by_tier"] == "T0 14376, T1 212"
    assert rows["decisions_judged.daimon.model"] == "judged 6, right 4"
    assert rows["decisions_judged.daimon.rules"] == "judged 23, right 23"
    assert "lineage" not in rows  # its own table
    text = " ".join(rows.values())
    assert not any(repr_ in text for repr_ in ("None", "{", "[", "'"))
