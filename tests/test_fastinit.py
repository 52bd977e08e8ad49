"""fast_init: the faster __init__ of frozen slotted dataclasses behaves as the generated one."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import InitVar, dataclass, field

import pytest

from golem._fastinit import fast_init


def make(decorate: bool) -> type:
    @dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: float
        label: str = "p"
        tags: list[str] = field(default_factory=list)

    return fast_init(Point) if decorate else Point


FAST, PLAIN = make(True), make(False)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((1, 2.0), {}), ((1,), {"y": 2.5, "tags": ["a"]}), ((), {"x": 3, "y": 0.0, "label": "q"})],
)
def test_the_same_values_as_the_generated_init(args: tuple[object, ...], kwargs: dict) -> None:
    fast, plain = FAST(*args, **kwargs), PLAIN(*args, **kwargs)
    assert dataclasses.astuple(fast) == dataclasses.astuple(plain)
    assert repr(fast).split("(", 1)[1] == repr(plain).split("(", 1)[1]
    assert fast == FAST(*args, **kwargs) and fast != PLAIN(*args, **kwargs)  # other class


def test_still_frozen_and_replace_works() -> None:
    point = FAST(1, 2.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 5  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del point.x  # type: ignore[misc]
    assert dataclasses.replace(point, label="moved").label == "moved"
    assert FAST(1, 2.0).tags is not FAST(1, 2.0).tags  # a factory runs per instance


def test_bad_calls_fail_as_before() -> None:
    with pytest.raises(TypeError):
        FAST(1)
    with pytest.raises(TypeError):
        FAST(1, 2.0, nope=3)
    with pytest.raises(TypeError):
        FAST(1, 2.0, "l", [], "extra")
    names = list(inspect.signature(FAST).parameters)
    assert names == list(inspect.signature(PLAIN).parameters) == ["x", "y", "label", "tags"]


def test_refuses_what_it_cannot_copy() -> None:
    @dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclass(slots=True)
    class NotFrozen:
        x: int

    @dataclass(frozen=True, slots=True)
    class KeywordOnly:
        x: int = field(kw_only=True)

    @dataclass(frozen=True, slots=True)
    class WithInitVar:
        x: int
        scale: InitVar[int] = 1

    @dataclass(frozen=True, slots=True)
    class NotInInit:
        x: int
        y: int = field(default=0, init=False)

    @dataclass(frozen=True, slots=True)
    class PostInit:
        x: int

        def __post_init__(self) -> None:
            pass

    for cls in (NoSlots, NotFrozen, KeywordOnly, WithInitVar, NotInInit, PostInit):
        with pytest.raises(TypeError, match="fast_init"):
            fast_init(cls)
