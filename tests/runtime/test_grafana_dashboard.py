"""docs/grafana-dashboard.json imports as it is: valid JSON, panels Grafana can place, its
datasource an import input, and every metric its PromQL names one that /metrics serves
(the series names of each family /metrics declares: a counter's _total, a histogram's
_bucket, _sum and _count), read from the endpoint of a golem that lived twenty minutes."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from golem.runtime.clock import VirtualClock
from golem.runtime.http import StatusEndpoint
from golem.runtime.life import assemble
from golem.runtime.store.state import StateStore
from tests.runtime.test_http import config

DASHBOARD = Path(__file__).parents[2] / "docs" / "grafana-dashboard.json"
_METRIC = re.compile(r"\bgolem_[a-z_]+\b")
_SERIES = {
    "counter": ("_total", "_created"),
    "gauge": ("",),
    "histogram": ("_bucket", "_sum", "_count", "_created"),
}


def exported(text: str) -> set[str]:
    """The series names a /metrics body can have, from its `# TYPE` lines."""
    names: set[str] = set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split()
            if kind == "counter":  # declared as its _total series in the text format
                name = name.removesuffix("_total")
            names.update(name + suffix for suffix in _SERIES[kind])
    return names


def dashboard() -> dict[str, Any]:
    body = json.loads(DASHBOARD.read_text())
    assert isinstance(body, dict)
    return body


def test_the_dashboard_is_an_importable_grafana_model() -> None:
    body = dashboard()
    assert body["title"] and body["uid"] and isinstance(body["schemaVersion"], int)
    (source,) = body["__inputs"]
    assert source["type"] == "datasource" and source["pluginId"] == "prometheus"
    panels = [p for p in body["panels"] if p["type"] != "row"]
    assert len(panels) >= 12
    ids = [p["id"] for p in body["panels"]]
    assert len(ids) == len(set(ids))
    for panel in panels:
        assert set(panel["gridPos"]) == {"x", "y", "w", "h"}
        assert panel["gridPos"]["x"] + panel["gridPos"]["w"] <= 24
        assert panel["datasource"]["uid"] == "${" + source["name"] + "}"
        assert panel["targets"] and all(t["expr"] and t["refId"] for t in panel["targets"])


async def test_every_metric_the_dashboard_names_is_served(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    with StateStore.open(cfg.golem.state_dir) as store:
        clock = VirtualClock(datetime(2026, 3, 1, tzinfo=UTC))
        life, pool = assemble(cfg, clock=clock, store=store, environ={})
        assert pool is not None
        endpoint = StatusEndpoint(life)
        try:
            await life.run(duration=timedelta(minutes=20))
            transport = httpx.ASGITransport(app=endpoint.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://golem") as client:
                text = (await client.get("/metrics")).text
        finally:
            await pool.aclose()
    served = exported(text)
    named = {
        name
        for panel in dashboard()["panels"]
        for target in panel.get("targets", [])
        for name in _METRIC.findall(target["expr"])
    }
    named |= set(_METRIC.findall(json.dumps(dashboard()["templating"])))
    assert named, "the dashboard names no metric"
    assert named <= served, f"not in /metrics: {sorted(named - served)}"
    # It shows every family golem exports, not a chosen few.
    families = {re.sub(r"_(total|bucket|sum|count|created)$", "", n) for n in served}
    shown = {re.sub(r"_(total|bucket|sum|count|created)$", "", n) for n in named}
    assert shown == families, f"not on the dashboard: {sorted(families - shown)}"
