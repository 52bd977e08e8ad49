"""The architecture's import rules (docs/architecture.md, "Packages and their rooms"), as
data, checked on every import in golem/: absolute and relative, at module level, inside
functions and under TYPE_CHECKING alike.

1. Packages: each package imports only the packages its row of the table names
   (cli → simulation → runtime → subsystems → mortality → inference; world beside
   mortality, importing nothing of golem; mortality takes only inference's types).
2. Siblings: inside a package, each sub-package imports only the siblings (sub-packages or
   modules of the same package) stated for it in SIBLINGS; a package's modules and
   sub-packages import each other without a cycle (imports made only for type checking
   aside: they create no dependency when the code runs).
A new package or sub-package fails here until its rule is written down.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import golem

ROOT = Path(golem.__file__).parent

# DESIGN's table: what each package may import of golem, besides itself.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "inference": frozenset(),
    "mortality": frozenset({"inference"}),
    "world": frozenset(),
    # The prediction engine, beside mortality: pure, importing nothing of golem; the
    # runtime wires it into a life (its claims, ledger, gate and the epistemic clock).
    "oracle": frozenset(),
    "subsystems": frozenset({"inference", "mortality", "world"}),
    "runtime": frozenset({"inference", "mortality", "world", "subsystems", "oracle"}),
    "simulation": frozenset({"inference", "mortality", "world", "subsystems", "runtime", "oracle"}),
    "cli": frozenset(
        {"inference", "mortality", "world", "subsystems", "runtime", "simulation", "oracle"}
    ),
}
# The modules beside the packages: golem/__init__.py holds the version and imports nothing
# (so any package may read `golem.__version__`); the entry points start the command line.
ENTRY: dict[str, frozenset[str]] = {
    "__init__": frozenset(),
    "__main__": frozenset({"_entry"}),
    "_entry": frozenset({"cli"}),
}
# DESIGN: mortality imports "`inference` types only": the value types it computes with.
INFERENCE_TYPES = frozenset(
    {
        "golem.inference.types",  # Usage
        "golem.inference.reasoning",  # ReasoningConfig, ReasoningDepth
        "golem.inference.pricing",  # Price
        "golem.inference.durations",  # DurationOrOff
        "golem.inference.seed",  # Seed
    }
)

# Inside a package: the siblings each sub-package may import (a sibling is a sub-package or
# a module of the same package). The package's own modules are bound only by the no-cycle
# rule below.
SIBLINGS: dict[str, dict[str, frozenset[str]]] = {
    "inference": {
        # Reasoning chains are the lowest floor: codecs and types build on them.
        "reasoning": frozenset(),
        # Sans-IO codecs: the neutral types, errors, modes and the SSE framer they decode.
        "codecs": frozenset({"types", "errors", "modes", "pricing", "reasoning", "schema", "sse"}),
        # The embedded model: a provider beside the HTTP ones.
        "local": frozenset({"types", "errors", "modes", "seed"}),
        # The synthetic provider wraps its answers in a real provider's wire format and
        # decodes them with that provider's codec.
        "synthetic": frozenset(
            {
                "types",
                "modes",
                "pricing",
                "providers",
                "reasoning",
                "schema",
                "seed",
                "structured",
                "codecs",
            }
        ),
    },
    "world": {},
    "oracle": {},
    "mortality": {},
    "subsystems": {
        # The shared floors: what a subsystem reads (contract) and how its prompt is
        # assembled (context) and its free text read (text).
        "text": frozenset(),
        "context": frozenset({"contract"}),
        "curator": frozenset({"facts", "contract", "meaning", "parts", "text"}),
        "risk": frozenset({"facts", "contract", "meaning", "parts", "text"}),
        # The heartbeat sizes its trades by risk's limits (Sizing, trade_notional).
        "heartbeat": frozenset(
            {"facts", "context", "contract", "meaning", "parts", "text", "risk"}
        ),
        # The daimon's informed appraisal reads the heartbeat's probe thresholds.
        "daimon": frozenset({"facts", "contract", "meaning", "parts", "text", "heartbeat"}),
        # Death and dreams normalise lessons and rank tiers as the curator does.
        "death": frozenset({"facts", "contract", "meaning", "parts", "text", "curator"}),
        "dream": frozenset({"facts", "context", "contract", "meaning", "parts", "text", "curator"}),
    },
    "runtime": {
        # The lower floors of the runtime know nothing of the Golem.
        "config": frozenset(),
        # A golem's files are its owner's alone (private: the modes), the log's as the state's.
        "store": frozenset({"private"}),
        "logs": frozenset({"private"}),
        # The status endpoint serves a living golem: its life, records and log; its
        # control routes queue the owner's commands (control) and answers (approvals).
        "http": frozenset({"approvals", "control", "golem", "life", "logs", "record", "stream"}),
    },
    "simulation": {},
    "cli": {},
}


@dataclass(frozen=True)
class Import:
    path: Path
    line: int
    module: str  # absolute, relative imports resolved
    typing_only: bool  # under `if TYPE_CHECKING:`

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT.parent)}:{self.line} imports {self.module}"


def module_of(path: Path) -> list[str]:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _typing_only_nodes(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                inside.update(id(n) for n in ast.walk(child))
    return inside


def imports_of(path: Path, source: str | None = None) -> Iterator[Import]:
    """Every import of golem in `path` (or in `source`, read as if it were `path`), relative
    ones resolved against its package."""
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    typing_only = _typing_only_nodes(tree)
    here = module_of(path)
    package = here if path.name == "__init__.py" else here[:-1]
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - (node.level - 1)]
            if node.module:
                names = [".".join([*base, node.module])]
            else:  # `from . import x`: x is a module or a name of the package
                names = [".".join([*base, alias.name]) for alias in node.names]
        for name in names:
            if name == "golem" or name.startswith("golem."):
                yield Import(path, node.lineno, name, id(node) in typing_only)


def every_import() -> list[Import]:
    return [found for path in sorted(ROOT.rglob("*.py")) for found in imports_of(path)]


def packages() -> set[str]:
    return {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}


def sub_packages(package: str) -> set[str]:
    return {p.name for p in (ROOT / package).iterdir() if (p / "__init__.py").exists()}


def test_every_package_and_sub_package_has_a_rule() -> None:
    assert packages() == set(MAY_IMPORT) == set(SIBLINGS)
    entries = {p.stem for p in ROOT.glob("*.py")}
    assert entries == set(ENTRY), f"modules beside the packages without a rule: {entries}"
    unstated = {
        f"golem/{package}/{sub}"
        for package in packages()
        for sub in sub_packages(package) - set(SIBLINGS[package])
    }
    assert not unstated, f"sub-packages with no entry in SIBLINGS: {sorted(unstated)}"


def test_relative_imports_are_resolved() -> None:
    """The walk reads `from . import x` and `from ..y import z` as the modules they name."""
    source = "from . import ledger\nfrom ..config.sections import GolemConfig\n"
    found = [i.module for i in imports_of(ROOT / "runtime" / "store" / "state.py", source)]
    assert found == ["golem.runtime.store.ledger", "golem.runtime.config.sections"]
    package = [i.module for i in imports_of(ROOT / "world" / "__init__.py", "from .x import y")]
    assert package == ["golem.world.x"]


def test_packages_import_only_what_their_row_allows() -> None:
    wrong: list[str] = []
    for found in every_import():
        source = module_of(found.path)[1]
        target = found.module.split(".")[1] if "." in found.module else "golem"
        if source in ENTRY:
            if target not in ENTRY[source]:
                wrong.append(f"{found} (the entry {source} may import {sorted(ENTRY[source])})")
        elif target not in {source, "golem"} and target not in MAY_IMPORT[source]:
            allowed = sorted(MAY_IMPORT[source]) or "nothing of golem"
            wrong.append(f"{found} ({source} may import {allowed})")
    assert not wrong, "\n".join(wrong)


def test_mortality_takes_only_inference_types() -> None:
    wrong = [
        str(found)
        for found in every_import()
        if module_of(found.path)[1] == "mortality"
        and found.module.startswith("golem.inference")
        and not any(found.module == m or found.module.startswith(m + ".") for m in INFERENCE_TYPES)
    ]
    assert not wrong, "\n".join(wrong)


def test_world_imports_nothing_of_golem() -> None:
    wrong = [
        str(found)
        for found in every_import()
        if module_of(found.path)[1] == "world" and not found.module.startswith("golem.world")
    ]
    assert not wrong, "\n".join(wrong)


def _sibling_edges() -> Iterator[tuple[str, str, str, Import]]:
    """(package, from, to, import) for each import between two siblings of a package."""
    for found in every_import():
        source = module_of(found.path)
        target = found.module.split(".")
        if len(source) >= 3 and len(target) >= 3 and source[1] == target[1]:
            if source[2] != target[2]:
                yield source[1], source[2], target[2], found
        elif len(source) >= 3 and target == ["golem", source[1]]:
            yield source[1], source[2], "__init__", found


def test_sub_packages_import_only_the_siblings_stated() -> None:
    wrong = [
        f"{found} ({package}/{here} may import {sorted(SIBLINGS[package][here])})"
        for package, here, there, found in _sibling_edges()
        if here in SIBLINGS[package] and there not in SIBLINGS[package][here]
    ]
    assert not wrong, "\n".join(wrong)


def test_siblings_import_each_other_without_a_cycle() -> None:
    graph: dict[tuple[str, str], set[tuple[str, str]]] = {}
    witness: dict[tuple[tuple[str, str], tuple[str, str]], Import] = {}
    for package, here, there, found in _sibling_edges():
        if found.typing_only or there == "__init__":
            continue
        graph.setdefault((package, here), set()).add((package, there))
        witness.setdefault(((package, here), (package, there)), found)
    cycles = list(_cycles(graph))
    described = [
        " -> ".join(f"{p}/{m}" for p, m in cycle)
        + "\n  "
        + "\n  ".join(str(witness[(a, b)]) for a, b in itertools.pairwise(cycle))
        for cycle in cycles
    ]
    assert not cycles, "\n".join(described)


def _cycles(graph: dict[tuple[str, str], set[tuple[str, str]]]) -> Iterator[list[tuple[str, str]]]:
    """One cycle through each node that is on one (depth-first, colours)."""
    colour: dict[tuple[str, str], int] = {}
    stack: list[tuple[str, str]] = []

    def visit(node: tuple[str, str]) -> Iterator[list[tuple[str, str]]]:
        colour[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if colour.get(nxt) == 1:
                yield [*stack[stack.index(nxt) :], nxt]
            elif nxt not in colour:
                yield from visit(nxt)
        stack.pop()
        colour[node] = 2

    for node in sorted(graph):
        if node not in colour:
            yield from visit(node)
