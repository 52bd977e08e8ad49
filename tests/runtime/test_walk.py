"""The walk of one heartbeat decision (docs/architecture.md, "One heartbeat decision,
walked"), measured on a running life rather than read off the code.

A synthetic-provider life (decline.toml's golem) runs on a virtual clock, and each
heartbeat decision is traced (`sys.setprofile`) from its `Decisions.run` to the publish of
its record (the record's subscribers are not the walk). A file is *entered* when a new
frame of one of its functions is called from a frame of another golem file (a coroutine
resumed after an await is not a new entry); the runtime files on the stack from the
scheduler down come first. The walk is the runtime's floor (golem/runtime) less its state
and time services: the store (golem/runtime/store/, the state's API) and the clocks
(clock.py, options.py), which the path reads through the Ledger and Clock protocols the
floors below declare, as it reads the floors below themselves (subsystems, mortality,
inference: doors it opens and comes back through). `Walk.full` keeps every runtime entry.

The first heartbeat decision a model made at T1 crosses at most 12 files, none of them
golem.py once the decision has begun (no stage calls back into the Golem), and enters
each file once. No module of golem/runtime asks whether a subsystem is a particular one
(`isinstance` on a concrete subsystem class).

`python -m tests.runtime.test_walk [-v]` prints the walk (-v: every entry, by function).
"""

from __future__ import annotations

import ast
import sys
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import CoroutineType, FrameType
from typing import Any

import pytest
import trio

import golem
from golem.mortality import ModelTier, SubsystemName
from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.decide import Decisions
from golem.runtime.life import assemble
from golem.runtime.record import DecisionRecord
from golem.runtime.store.state import StateStore

PACKAGE = Path(golem.__file__).parent
RUNTIME = PACKAGE / "runtime"
REPO = PACKAGE.parent
START = datetime(2026, 1, 5, tzinfo=UTC)
MOST_FILES = 12
# The state and time services: entered through the protocols the floors below declare.
SERVICES = (RUNTIME / "store", RUNTIME / "clock.py", RUNTIME / "options.py")
# The subsystems the runtime runs; golem/runtime may name them (the Golem builds them)
# but never branch on which one it holds.
CONCRETE = frozenset({"Heartbeat", "Risk", "Daimon", "Curator", "Dream", "Thanatopsis"})


@dataclass
class Walk:
    """The rooms a decision entered, in order (`rooms`; the scheduler's way in first, as
    `way_in`), every runtime file entry, services included (`full`), the lower floors it
    opened (`doors`, first entry of each package), and every golem file entered (`files`)."""

    way_in: list[str] = field(default_factory=list)
    rooms: list[str] = field(default_factory=list)
    full: list[str] = field(default_factory=list)
    doors: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)  # each entry: caller → callee, by function

    @property
    def path(self) -> list[str]:
        return self.way_in + self.rooms

    def reentered(self) -> list[str]:
        """The files of `path` entered again after the first time, in order."""
        seen: set[str] = set()
        again = []
        for room in self.path:
            if room in seen:
                again.append(room)
            seen.add(room)
        return again


def _file(frame: FrameType) -> Path | None:
    path = Path(frame.f_code.co_filename)
    return path if path.is_relative_to(PACKAGE) else None


def _golem_caller(frame: FrameType) -> Path | None:
    """The golem file of the nearest golem frame that called `frame`."""
    back = frame.f_back
    while back is not None:
        path = _file(back)
        if path is not None:
            return path
        back = back.f_back
    return None


def _name(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


def _package(path: Path) -> str:
    parts = path.relative_to(PACKAGE).parts
    return "/".join(("golem", *parts[:2])) if len(parts) > 2 else _name(path)


class Tracer:
    """Profiles one `Decisions.run` at a time (see the module's docstring)."""

    def __init__(self) -> None:
        self.walk = Walk()
        self._root: FrameType | None = None
        self._seen: list[FrameType] = []  # held, so that no frame id is reused meanwhile
        self._ids: set[int] = set()

    def start(self, root: FrameType, caller: FrameType | None) -> None:
        """Trace `root` (a coroutine's frame, not started yet) called from `caller`."""
        self.walk, self._root = Walk(), root
        self._seen, self._ids = [root], {id(root)}
        back = caller
        way: list[str] = []
        while back is not None:
            path = _file(back)
            if path is not None and path.is_relative_to(RUNTIME):
                name = _name(path)
                if not way or way[-1] != name:
                    way.append(name)
            back = back.f_back
        way.reverse()
        scheduler = _name(RUNTIME / "scheduler.py")
        way = way[way.index(scheduler) :] if scheduler in way else way
        self.walk.way_in = [*way, _name(Path(root.f_code.co_filename))]

    def stop(self) -> Walk:
        self._root = None
        self._seen, self._ids = [], set()
        return self.walk

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or self._root is None or id(frame) in self._ids:
            return
        path = _file(frame)
        if path is None or not self._within(frame):
            return
        self._seen.append(frame)
        self._ids.add(id(frame))
        caller = _golem_caller(frame)
        if caller is None or caller == path:
            return
        walk, name = self.walk, _name(path)
        walk.files.append(name)
        walk.calls.append(f"{_name(caller)} -> {name}:{frame.f_code.co_qualname}")
        if path.is_relative_to(RUNTIME):
            walk.full.append(name)
            if not any(path.is_relative_to(service) for service in SERVICES):
                walk.rooms.append(name)
            if path == RUNTIME / "stream.py":
                self._root = None  # the record is published: its subscribers are not the walk
        elif caller.is_relative_to(RUNTIME) and _package(path) not in walk.doors:
            walk.doors.append(_package(path))

    def _within(self, frame: FrameType) -> bool:
        back: FrameType | None = frame
        while back is not None:
            if back is self._root:
                return True
            back = back.f_back
        return False


def _config(tmp_path: Path) -> Any:
    """decline.toml's golem (a jumpy heartbeat on the synthetic provider), living here."""
    data = tomllib.loads((REPO / "simulations" / "decline.toml").read_text())
    data.pop("simulation", None)
    data["golem"]["state_dir"] = str(tmp_path / "state")
    data["golem"]["seed"] = 1
    return parse_config(data)


async def heartbeat_walks(tmp_path: Path) -> list[tuple[DecisionRecord, Walk]]:
    """The heartbeat decisions of a synthetic-provider life, each with its walk, up to the
    first a model made at T1 (the life ends there, or after a day)."""
    config = _config(tmp_path)
    clock = VirtualClock(START)
    tracer = Tracer()
    walks: list[tuple[DecisionRecord, Walk]] = []
    with StateStore.open(config.golem.state_dir) as store:
        life, pool = assemble(config, clock=clock, store=store, environ={})
        decisions: Decisions = life.golem.decisions
        run = decisions.run

        async def traced(subsystem: Any, ctx: Any) -> DecisionRecord:
            if subsystem.name is not SubsystemName.HEARTBEAT:
                return await run(subsystem, ctx)
            coroutine = run(subsystem, ctx)
            assert isinstance(coroutine, CoroutineType)
            root = coroutine.cr_frame
            assert root is not None, "a coroutine not yet started has its frame"
            tracer.start(root, sys._getframe().f_back)
            sys.setprofile(tracer)
            try:
                record: DecisionRecord = await coroutine
            finally:
                sys.setprofile(None)
            walks.append((record, tracer.stop()))
            if _t1_model(record):
                life.end("walked")
            return record

        decisions.run = traced  # type: ignore[method-assign]
        try:
            await life.run(duration=timedelta(days=1))
        finally:
            if pool is not None:
                await pool.aclose()
    return walks


def _t1_model(record: DecisionRecord) -> bool:
    return record.source == "model" and record.tier is ModelTier.T1


def first_t1_model_walk(walks: list[tuple[DecisionRecord, Walk]]) -> Walk:
    for record, walk in walks:
        if _t1_model(record):
            return walk
    raise AssertionError(f"no T1 model heartbeat decision in {len(walks)} heartbeats")


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> Walk:
    return first_t1_model_walk(trio.run(heartbeat_walks, tmp_path_factory.mktemp("walk")))


def test_the_walk_goes_from_the_scheduler_to_the_record_through_the_stages(walk: Walk) -> None:
    stages = ["decide.py", "grant.py", "asking.py", "charge.py", "verify.py", "stream.py"]
    assert walk.path[:3] == [f"golem/runtime/{f}" for f in ("scheduler.py", "life.py", "golem.py")]
    firsts = [room for i, room in enumerate(walk.path) if room not in walk.path[:i]]
    assert [r for r in firsts if r.removeprefix("golem/runtime/") in stages] == [
        f"golem/runtime/{stage}" for stage in stages
    ], walk.path
    # It reached the floors below through their doors: the subsystem, the allocator.
    assert {"golem/subsystems/heartbeat", "golem/mortality/allocator.py"} <= {*walk.doors}


def test_the_walk_crosses_at_most_12_files(walk: Walk) -> None:
    assert len(set(walk.path)) <= MOST_FILES, sorted(set(walk.path))


def test_no_stage_calls_back_into_the_golem(walk: Walk) -> None:
    assert "golem/runtime/golem.py" not in walk.rooms, walk.rooms


def test_the_walk_enters_each_file_once(walk: Walk) -> None:
    assert walk.reentered() == [], walk.path


def concrete_isinstance() -> list[str]:
    """`isinstance(x, C)` in golem/runtime with C (or one of a tuple) a concrete subsystem."""
    found = []
    for path in sorted(RUNTIME.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "isinstance"
                and len(node.args) == 2
            ):
                continue
            kinds = node.args[1]
            names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
            for name in names:
                label = name.id if isinstance(name, ast.Name) else getattr(name, "attr", "")
                if label in CONCRETE:
                    found.append(f"{_name(path)}:{node.lineno} isinstance(..., {label})")
    return found


def test_the_runtime_never_asks_which_subsystem_it_holds() -> None:
    assert concrete_isinstance() == []


def test_the_check_sees_an_isinstance_on_a_subsystem(tmp_path: Path) -> None:
    """The AST check itself: it finds the branch the runtime once had (decide.py on Risk)."""
    tree = ast.parse("if isinstance(subsystem, (Risk, Situation)):\n    pass\n")
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    kinds = call.args[1]
    assert isinstance(kinds, ast.Tuple)
    assert [n.id for n in kinds.elts if isinstance(n, ast.Name) and n.id in CONCRETE] == ["Risk"]


def test_a_reentry_is_seen() -> None:
    walk = Walk(way_in=["a.py", "b.py"], rooms=["c.py", "b.py", "d.py"])
    assert walk.reentered() == ["b.py"]


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        found = first_t1_model_walk(trio.run(heartbeat_walks, Path(folder)))
    for number, room in enumerate(found.path, 1):
        print(f"{number:2}. {room}")
    full = [*found.way_in, *found.full]
    print(f"{len(set(found.path))} files, re-entered: {sorted(set(found.reentered()))}")
    print(f"with the services: {len(full)} entries into {len(set(full))} runtime files")
    print("doors to the floors below:", ", ".join(found.doors))
    print(f"golem files entered, all floors: {len(set(found.files))} distinct")
    if "-v" in sys.argv:
        print("\n".join(found.calls))
