"""Deaths per lineage and the testaments' share of the money, per lineage (summary.json)
and per policy and cause (the batch's report, read from the rows' flattened columns)."""

from __future__ import annotations

import pytest

from golem.simulation.deaths import death_report, deaths_summary
from golem.simulation.results import figures


def generation(cause: str | None, testament: float) -> dict[str, object]:
    return {
        "ended": "died" if cause else "horizon",
        "cause_of_death": cause,
        "testament_usd": testament,
    }


def test_a_lineage_counts_its_deaths_and_testaments_by_cause() -> None:
    lineage = [
        generation("stochastic", 0.2),
        generation("stochastic", 0.3),
        generation("terminal", 0.1),
        generation(None, 0.0),
    ]
    summary = deaths_summary(lineage, spend=2.0)
    assert summary["deaths_by_cause"] == {"stochastic": 2, "terminal": 1}
    assert summary["testament_usd_by_cause"] == pytest.approx({"stochastic": 0.5, "terminal": 0.1})
    assert summary["testament_share"] == pytest.approx(0.3)
    assert deaths_summary([generation(None, 0.0)], spend=0.0)["testament_share"] is None


def test_a_policys_report_reads_the_rows_flattened_columns() -> None:
    first = {
        "spend_usd": 2.0,
        "deaths": 3,
        **deaths_summary(
            [
                generation("stochastic", 0.2),
                generation("stochastic", 0.3),
                generation("terminal", 0.1),
            ],
            spend=2.0,
        ),
    }
    second = {"spend_usd": 2.0, "deaths": 0, **deaths_summary([generation(None, 0.0)], spend=2.0)}
    rows = [figures(first), figures(second)]  # as results.parquet holds them
    assert "deaths_by_cause.stochastic" in rows[0]
    for lives in (rows, [first, second]):
        report = death_report(lives)
        assert report["deaths_per_lineage_median"] == 1.5
        assert report["testament_share"] == pytest.approx(0.6 / 4.0)
        assert report["by_cause"]["stochastic"] == {
            "deaths": 2,
            "per_lineage": 1.0,
            "testament_usd": pytest.approx(0.5),
            "testament_share": pytest.approx(0.125),
        }
        assert report["by_cause"]["terminal"]["per_lineage"] == 0.5
