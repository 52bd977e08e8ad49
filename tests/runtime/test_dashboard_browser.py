"""The dashboard in a real browser: Playwright driving the machine's Chromium against a
golem living on a virtual clock (the synthetic provider, served as `golem run --http`
serves it), in a thread of its own whose clock moves only when the test opens it. The
page loads with no console error, its charts have points, a decision made appears within
a second, a reasoning panel opens from the keyboard, the layout holds at 390 px; a
finished simulation's out directory opens the same way (`golem view`). Screenshots go
under each test's tmp_path.

Skipped, with the reason, where Playwright or Chromium (/usr/bin/chromium: `make test`
installs Debian's when it can) is missing."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio

from golem.mortality import SubsystemName
from golem.runtime.clock import VirtualClock
from golem.runtime.http import (
    HttpAddress,
    RecordedLife,
    StatusEndpoint,
    serve_app,
    status_app,
    url_of,
)
from golem.runtime.life import assemble
from golem.runtime.logs import LogSinks
from golem.runtime.record import DecisionRecord
from golem.runtime.store.state import StateStore
from golem.runtime.stream import Record
from golem.simulation.run import LifeSpec, run_life
from tests.runtime.test_http import config

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
)

START = datetime(2026, 3, 1, tzinfo=UTC)
LIVED = timedelta(hours=1)  # before the page opens: readings and decisions to draw
DECLINE = Path(__file__).parents[2] / "simulations" / "decline.toml"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class GatedClock:
    """A virtual clock the golem's scheduler may move only up to `until`, which the test
    opens from its own thread (`open_until`); past it, the scheduler waits."""

    def __init__(self, start: datetime) -> None:
        self._clock = VirtualClock(start)
        self.until = start
        self._moved = trio.Event()

    def now(self) -> datetime:
        return self._clock.now()

    async def sleep_until(self, moment: datetime) -> None:
        while moment > self.until:
            await self._moved.wait()
        await self._clock.sleep_until(moment)

    def open_until(self, moment: datetime) -> None:
        self.until = moment
        self._moved.set()
        self._moved = trio.Event()


@dataclass
class Server:
    """An app served in a thread running trio; `call` runs a function in that thread."""

    url: str
    token: trio.lowlevel.TrioToken
    stop: trio.CancelScope
    published: list[tuple[DecisionRecord, float]] = field(default_factory=list)
    clock: GatedClock | None = None
    ticks: int = 0  # those its state holds when it is served

    def call(self, function: Any, *args: Any) -> Any:
        return trio.from_thread.run_sync(function, *args, trio_token=self.token)


def _threaded(main: Any) -> Iterator[Server]:
    """Run `main(ready)` (which puts a Server on `ready`) in a thread; stop it after."""
    ready: queue.Queue[Server | BaseException] = queue.Queue()

    def target() -> None:
        try:
            trio.run(main, ready)
        except BaseException as exc:  # handed to the test thread, never lost
            ready.put(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    server = ready.get(timeout=60)
    if isinstance(server, BaseException):
        raise server
    try:
        yield server
    finally:
        server.call(server.stop.cancel)
        thread.join(timeout=30)
    failure = None if ready.empty() else ready.get()
    if failure is not None:
        raise failure


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A golem that has lived an hour, its clock then held until a test opens it."""
    cfg = config(tmp_path_factory.mktemp("live"))

    async def main(ready: queue.Queue[Server | BaseException]) -> None:
        clock = GatedClock(START)
        published: list[tuple[DecisionRecord, float]] = []

        def keep(record: Record) -> None:
            if isinstance(record, DecisionRecord):
                published.append((record, time.perf_counter()))

        with StateStore.open(cfg.golem.state_dir) as store:
            life, pool = assemble(cfg, clock=clock, store=store, environ={}, subscribers=[keep])
            assert pool is not None
            endpoint = StatusEndpoint(life)
            listening = HttpAddress.parse("127.0.0.1:0").bind()
            url = url_of(listening)
            try:
                async with trio.open_nursery() as nursery:
                    await nursery.start(endpoint.serve, listening)
                    nursery.start_soon(life.run)
                    clock.open_until(START + LIVED)
                    while clock.now() < START + LIVED:
                        await trio.sleep(0.01)
                    token = trio.lowlevel.current_trio_token()
                    stop = nursery.cancel_scope
                    ready.put(Server(url, token, stop, published, clock))
            finally:
                await pool.aclose()

    yield from _threaded(main)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        # A new, empty profile for each launch (Playwright's own temporary directory).
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Page:
    page: Any
    errors: list[str]


def open_page(
    browser: Any, url: str, width: int, height: int = 900, *, listed: bool = True
) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "/")
    try:
        page.wait_for_function(  # a function, not an expression: the policy forbids eval
            "(listed) => (!listed || document.querySelectorAll('#decision-list li').length > 0)"
            " && Number(document.getElementById('chart-vitality').dataset.points) > 0",
            arg=listed,
        )
    except sync_api.TimeoutError:
        pytest.fail(f"the page did not draw: {page.text_content('#state')!r}, errors {errors}")
    return Page(page, errors)


def points(page: Any, chart: str) -> int:
    return int(page.get_attribute(f"#{chart}", "data-points"))


def overflow(page: Any) -> int:
    """How far the page is wider than its viewport (0: no horizontal scroll)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth"))


def test_the_page_loads_with_charts_and_no_console_error(
    live: Server, browser: Any, tmp_path: Path
) -> None:
    view = open_page(browser, live.url, 1280)
    page = view.page
    assert page.text_content("#golem-id") == "g-http"
    assert page.text_content("#phase") in {"thriving", "stable", "conservation", "declining"}
    for chart in ("chart-vitality", "chart-credits", "chart-equity"):
        assert points(page, chart) >= 6, chart  # a reading every 10 minutes of the hour
    assert page.locator("#chart-vitality polyline").count() == 3  # vitality and its clocks
    assert page.locator("#chart-phase rect").count() >= 6
    rows = page.locator("#budgets tbody tr")
    assert rows.count() == len(SubsystemName) + 1  # each line and the daily cap
    assert page.locator("#spend .bar").count() >= 3
    listed = page.locator("#decision-list li").count()
    assert listed == 100  # the newest 100 of the hour's
    assert page.locator("#control").is_hidden()  # no token configured: no control routes
    # The golem's /status carries its prediction engine's report: a row per category.
    page.wait_for_selector("#accuracy tbody tr")
    assert page.locator("#accuracy tbody tr").count() == 4
    page.screenshot(path=str(tmp_path / "dashboard-1280.png"), full_page=True)
    assert view.errors == []
    page.context.close()


def test_a_new_decision_appears_within_a_second(live: Server, browser: Any) -> None:
    view = open_page(browser, live.url, 1280)
    page = view.page
    assert live.clock is not None
    page.wait_for_function("() => document.body.dataset.stream === 'open'")
    made = len(live.published)
    # The next heartbeat: 15 s apart, 30 s once the golem conserves.
    live.call(live.clock.open_until, live.clock.until + timedelta(seconds=30))
    deadline = time.perf_counter() + 10
    while len(live.published) == made and time.perf_counter() < deadline:
        time.sleep(0.005)
    record, at = live.published[made]
    # Arrived from /events (class "new"), not listed at load; others of its tick may be above.
    shown = f'#decision-list li.new[data-tick="{record.tick}"][data-subsystem="{record.subsystem}"]'
    page.wait_for_selector(shown, timeout=5000)
    latency = time.perf_counter() - at
    print(f"decision {record.decision_id} on the page {latency * 1000:.0f} ms after it was made")
    assert latency < 1.0
    assert view.errors == []
    page.context.close()


def test_a_reasoning_panel_opens_from_the_keyboard(
    live: Server, browser: Any, tmp_path: Path
) -> None:
    view = open_page(browser, live.url, 1280)
    page = view.page
    model = page.locator("#decision-list li[data-id]").first  # a model's decision
    summary = model.locator("summary")
    summary.focus()
    page.keyboard.press("Enter")
    assert model.locator("details").get_attribute("open") is not None
    reasoning = model.locator(".reasoning")
    assert reasoning.is_visible()
    assert "reasoning" in reasoning.inner_text()
    assert model.locator(".panel").first.inner_text().startswith("decision ")
    model.screenshot(path=str(tmp_path / "reasoning.png"))
    assert view.errors == []
    page.context.close()


def test_the_layout_holds_at_390_pixels(live: Server, browser: Any, tmp_path: Path) -> None:
    view = open_page(browser, live.url, 390, 844)
    page = view.page
    assert overflow(page) <= 0
    page.locator("#decision-list li summary").first.click()  # an open panel too
    assert overflow(page) <= 0
    page.screenshot(path=str(tmp_path / "dashboard-390.png"), full_page=True)
    assert view.errors == []
    page.context.close()


TOKEN = "owner-token-7f3a"


@pytest.fixture(scope="module")
def controlled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A golem with the control API (its owner's token), ten minutes old, clock held."""
    cfg = config(tmp_path_factory.mktemp("controlled"))
    lived = timedelta(minutes=10)

    async def main(ready: queue.Queue[Server | BaseException]) -> None:
        clock = GatedClock(START)
        with StateStore.open(cfg.golem.state_dir) as store:
            life, pool = assemble(cfg, clock=clock, store=store, environ={})
            assert pool is not None
            endpoint = StatusEndpoint(life, control_token=TOKEN)
            listening = HttpAddress.parse("127.0.0.1:0").bind()
            url = url_of(listening)
            try:
                async with trio.open_nursery() as nursery:
                    await nursery.start(endpoint.serve, listening)
                    nursery.start_soon(life.run)
                    clock.open_until(START + lived)
                    while clock.now() < START + lived:
                        await trio.sleep(0.01)
                    token = trio.lowlevel.current_trio_token()
                    ready.put(Server(url, token, nursery.cancel_scope, clock=clock))
            finally:
                await pool.aclose()

    yield from _threaded(main)


def _status(server: Server) -> dict[str, Any]:
    return dict(httpx.get(server.url + "/status", timeout=10).json())


def test_the_owner_pauses_the_golem_from_the_page(
    controlled: Server, browser: Any, tmp_path: Path
) -> None:
    """The control section shows (the server has control routes); a command without the
    token asks for it; with it, Pause is queued and at the next tick /status says paused.
    Kill asks first (dismissed: nothing queued); a wrong token is refused, and forgotten."""
    view = open_page(browser, controlled.url, 1280)
    page = view.page
    assert page.locator("#control").is_visible()
    said = page.locator("#control-said")
    page.get_by_role("button", name="Pause").click()
    assert "token first" in said.inner_text()
    page.get_by_label("Control token").fill(TOKEN)
    page.get_by_role("button", name="Use token").click()
    assert page.evaluate("() => sessionStorage.getItem('golem-control-token')") == TOKEN
    assert TOKEN not in page.url
    page.get_by_role("button", name="Pause").click()
    page.wait_for_function(
        "() => document.getElementById('control-said').textContent.includes('queued')"
    )
    assert said.inner_text().startswith("pause queued")
    assert _status(controlled)["paused"] is False  # applied at the next tick, not before
    assert controlled.clock is not None
    controlled.call(controlled.clock.open_until, controlled.clock.until + timedelta(seconds=30))
    deadline = time.perf_counter() + 10
    while not _status(controlled)["paused"] and time.perf_counter() < deadline:
        time.sleep(0.05)
    assert _status(controlled)["paused"] is True
    page.wait_for_function(  # the page's own refresh says so too
        "() => document.getElementById('state').textContent.includes('paused')", timeout=8000
    )
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="Kill…").click()
    assert said.inner_text() == "Kill cancelled."
    page.get_by_label("Daily budget (USD)").fill("0.5")
    page.get_by_role("button", name="Set budget").click()
    page.wait_for_function(
        "() => document.getElementById('control-said').textContent.startsWith('budget')"
    )
    assert said.inner_text().startswith("budget $0.50 queued")
    page.screenshot(path=str(tmp_path / "control-1280.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    assert overflow(page) <= 0  # the controls wrap at 390 px
    page.evaluate("() => sessionStorage.setItem('golem-control-token', 'wrong')")
    page.get_by_role("button", name="Resume").click()
    page.wait_for_function(
        "() => document.getElementById('control-said').textContent.includes('401')"
    )
    assert page.evaluate("() => sessionStorage.getItem('golem-control-token')") is None
    assert _status(controlled)["alive"] is True  # the kill was never sent
    # The one console error is Chromium's note of the refused request.
    [refused] = view.errors
    assert "status of 401" in refused
    page.context.close()


# /status's `oracle` as the prediction engine reports it (runtime/predictions.py's report).
ORACLE = {
    "fitness": 0.412,
    "regime": "trending_up",
    "categories": {
        "price_direction": {"total": 48, "hit_rate": 0.6458, "skill": 0.21, "ece": 0.08},
        "volatility_regime": {"total": 12, "hit_rate": 0.75, "skill": 0.4, "ece": None},
        "position_health": {"total": 0, "hit_rate": None, "skill": None, "ece": None},
        "inaction": {"total": 300, "hit_rate": 0.67, "skill": 0.05, "ece": 0.02},
    },
    "gate": {"blocked": 3, "permitted": 7, "would_be_pnl_usd": -1.25},
}


def test_the_prediction_engine_s_accuracy_by_category_shows_when_status_has_it(
    live: Server, browser: Any
) -> None:
    """A /status carrying the prediction engine's report (`oracle`) is drawn: fitness,
    regime, the gate's count, and a row per category; the golem's own /status, with the
    report added on its way to the browser."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})

    def with_oracle(route: Any) -> None:
        served = route.fetch()
        route.fulfill(response=served, json={**served.json(), "oracle": ORACLE})

    context.route("**/status", with_oracle)
    page = context.new_page()
    page.goto(live.url + "/")
    page.wait_for_selector("#accuracy tbody tr")
    rows = page.locator("#accuracy tbody tr")
    assert rows.count() == 4
    assert rows.nth(0).inner_text().split("\t") == [
        "price direction",
        "64.6%",
        "0.210",
        "0.080",
        "48",
    ]
    assert rows.nth(2).inner_text().split("\t") == ["position health", "–", "–", "–", "0"]
    figures = page.locator("#accuracy-figures").inner_text()
    assert "0.412" in figures and "3 blocked, 7 let through" in figures
    context.close()


@pytest.fixture(scope="module")
def restarted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A golem that lived an hour, then restarted: its endpoint served, no tick run yet."""
    cfg = config(tmp_path_factory.mktemp("restarted"))

    async def main(ready: queue.Queue[Server | BaseException]) -> None:
        clock = VirtualClock(START)
        with StateStore.open(cfg.golem.state_dir) as store:
            life, pool = assemble(cfg, clock=clock, store=store, environ={})
            assert pool is not None
            try:
                await life.run(duration=LIVED)
            finally:
                await pool.aclose()
            ticks = store.tick()
        with StateStore.open(cfg.golem.state_dir) as store:
            life, pool = assemble(cfg, clock=clock, store=store, environ={})
            assert pool is not None
            endpoint = StatusEndpoint(life)
            listening = HttpAddress.parse("127.0.0.1:0").bind()
            url = url_of(listening)
            try:
                async with trio.open_nursery() as nursery:
                    await nursery.start(endpoint.serve, listening)
                    token = trio.lowlevel.current_trio_token()
                    ready.put(Server(url, token, nursery.cancel_scope, ticks=ticks))
            finally:
                await pool.aclose()

    yield from _threaded(main)


def test_a_restarted_golem_s_page_draws_its_past_at_load(
    restarted: Server, browser: Any, tmp_path: Path
) -> None:
    """Its charts are drawn from the state at once, before the new process told a reading
    (it has run no tick): each of the hour's ticks a point of vitality and its clocks, and
    the page's own reading of /status after them."""
    view = open_page(browser, restarted.url, 1280, listed=False)
    page = view.page
    ticks = restarted.ticks
    assert ticks >= 120  # a 15 s heartbeat, 30 s once it conserves
    assert points(page, "chart-vitality") == 3 * (ticks + 1)
    assert points(page, "chart-credits") == ticks + 1
    assert page.locator("#chart-phase rect").count() == ticks + 1
    assert page.locator("#spend .bar").count() >= 3  # spend by subsystem, from the ledger
    page.screenshot(path=str(tmp_path / "restarted-1280.png"), full_page=True)
    assert view.errors == []
    page.context.close()


@dataclass
class Relaunched:
    server: Server
    logged: list[DecisionRecord]  # the decisions of its life before the restart


@pytest.fixture(scope="module")
def relaunched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Relaunched]:
    """A golem that lived half an hour, its records logged to its log file, then restarted
    (a new process's endpoint and life on the same state and log), its clock held."""
    cfg = config(tmp_path_factory.mktemp("relaunched"))
    logged: list[DecisionRecord] = []

    def keep(into: list[Any]) -> Any:
        def publish(record: Record) -> None:
            if isinstance(record, DecisionRecord):
                into.append(record if into is logged else (record, time.perf_counter()))

        return publish

    async def main(ready: queue.Queue[Server | BaseException]) -> None:
        clock = VirtualClock(START)
        with (
            StateStore.open(cfg.golem.state_dir) as store,
            LogSinks(cfg.log_file, None, "json", now=clock.now) as sinks,
        ):
            subscribers = [sinks.publish, keep(logged)]
            life, pool = assemble(
                cfg, clock=clock, store=store, environ={}, subscribers=subscribers
            )
            assert pool is not None
            try:
                await life.run(duration=LIVED / 2)
            finally:
                await pool.aclose()
        gated = GatedClock(clock.now())
        published: list[tuple[DecisionRecord, float]] = []
        with StateStore.open(cfg.golem.state_dir) as store:
            life, pool = assemble(
                cfg, clock=gated, store=store, environ={}, subscribers=[keep(published)]
            )
            assert pool is not None
            endpoint = StatusEndpoint(life)
            listening = HttpAddress.parse("127.0.0.1:0").bind()
            url = url_of(listening)
            try:
                async with trio.open_nursery() as nursery:
                    await nursery.start(endpoint.serve, listening)
                    nursery.start_soon(life.run)
                    token = trio.lowlevel.current_trio_token()
                    stop = nursery.cancel_scope
                    ready.put(Server(url, token, stop, published, gated))
            finally:
                await pool.aclose()

    for server in _threaded(main):
        yield Relaunched(server, logged)


def test_a_restarted_golem_s_page_lists_its_last_decisions_then_streams(
    relaunched: Relaunched, browser: Any, tmp_path: Path
) -> None:
    """The decision list at load holds the decisions logged before the restart (from the
    golem's log: the state keeps none), the newest first; one made after is added above
    them from /events."""
    server, logged = relaunched.server, relaunched.logged
    assert len(logged) >= 100
    view = open_page(browser, server.url, 1280)
    page = view.page
    page.wait_for_function("() => document.body.dataset.stream === 'open'")
    made = len(server.published)  # by the new process, before the page read the list
    items = page.locator("#decision-list li")
    assert items.count() == 100
    keys = [(str(r.tick), str(r.subsystem)) for r in logged[-(100 - made) :]]
    shown = [
        (items.nth(i).get_attribute("data-tick"), items.nth(i).get_attribute("data-subsystem"))
        for i in range(made, 100)
    ]
    assert shown == keys[::-1]  # the log's last, newest first, under the new process's
    assert page.locator("#decision-list li.new").count() == 0
    assert server.clock is not None
    server.call(server.clock.open_until, server.clock.until + timedelta(seconds=30))
    deadline = time.perf_counter() + 10
    while len(server.published) == made and time.perf_counter() < deadline:
        time.sleep(0.005)
    record, _ = server.published[made]
    fresh = f'#decision-list li.new[data-tick="{record.tick}"][data-subsystem="{record.subsystem}"]'
    page.wait_for_selector(fresh, timeout=5000)
    assert items.count() == 100  # the oldest recalled one made room
    page.screenshot(path=str(tmp_path / "relaunched-1280.png"), full_page=True)
    assert view.errors == []
    page.context.close()


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`golem view` of a tenth of a day of the decline scenario, simulated."""
    out = tmp_path_factory.mktemp("view") / "life"
    run_life(LifeSpec(DECLINE, 1, out, days=0.1))
    life = RecordedLife.open(out)

    async def main(ready: queue.Queue[Server | BaseException]) -> None:
        listening = HttpAddress.parse("127.0.0.1:0").bind()
        url = url_of(listening)
        async with trio.open_nursery() as nursery:
            await nursery.start(serve_app, status_app(life, life.feed, None), listening)
            token = trio.lowlevel.current_trio_token()
            ready.put(Server(url, token, nursery.cancel_scope))

    yield from _threaded(main)


def test_a_finished_life_opens_the_same_way(recorded: Server, browser: Any, tmp_path: Path) -> None:
    view = open_page(browser, recorded.url, 1280)
    page = view.page
    assert "finished life" in page.text_content("#state")
    assert points(page, "chart-vitality") >= 3 * 14  # a reading every 10 minutes, 3 lines
    assert points(page, "chart-equity") > 0
    assert page.locator("#budgets tbody tr").count() >= 2
    page.screenshot(path=str(tmp_path / "view-1280.png"), full_page=True)
    assert view.errors == []
    page.context.close()
