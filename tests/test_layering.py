"""Imports point one way: cli → simulation → runtime → subsystems → mortality and world →
inference. A module may import its own package and the packages below it, never above (so
nothing in golem/runtime imports the simulator, and the simulator never imports the CLI)."""

from __future__ import annotations

import ast
from pathlib import Path

import golem

# Each package's layer; an import must go to a lower layer (or stay in its own package).
LAYERS = {
    "inference": 0,
    "mortality": 1,
    "world": 1,
    "subsystems": 2,
    "runtime": 3,
    "simulation": 4,
    "cli": 5,
}
ROOT = Path(golem.__file__).parent


def _imports(path: Path) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return [(line, name) for line, name in found if name.startswith("golem.")]


def test_every_package_has_a_layer() -> None:
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    assert packages == set(LAYERS)


def test_imports_point_down_the_layers() -> None:
    upward: list[str] = []
    for path in sorted(ROOT.glob("*/**/*.py")):
        package = path.relative_to(ROOT).parts[0]
        for line, name in _imports(path):
            target = name.split(".")[1]
            if target != package and LAYERS[target] >= LAYERS[package]:
                upward.append(f"{path.relative_to(ROOT.parent)}:{line} imports {name}")
    assert not upward, "\n".join(upward)
