"""Numbers in a config are numbers: `true` or `false` where a key takes an integer or a
float is refused, naming the key (pydantic's lax mode reads a bool as 1 or 0, so
`max_consecutive_failures = true` would have been a limit of one)."""

from __future__ import annotations

from collections.abc import Mapping
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel

__all__ = ["bools_for_numbers"]

_NUMBERS = (int, float)


def bools_for_numbers(model: type[BaseModel], data: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """(dotted key, value) of every bool in `data` (a table of `model`, at any depth)
    where the key takes a number and not a bool."""
    found: list[tuple[str, bool]] = []
    _walk(model, data, "", found)
    return found


def _walk(kind: Any, value: object, at: str, found: list[tuple[str, bool]]) -> None:
    kinds = _alternatives(kind)
    if isinstance(value, bool):
        if bool not in kinds and any(k in _NUMBERS for k in kinds):
            found.append((at, value))
        return
    for one in kinds:
        origin, args = get_origin(one), get_args(one)
        if isinstance(one, type) and issubclass(one, BaseModel) and isinstance(value, Mapping):
            fields = one.model_fields
            for key, item in value.items():
                if key in fields:
                    _walk(fields[key].annotation, item, _key(at, key), found)
        elif origin in (tuple, list, frozenset, set) and args and isinstance(value, list):
            for i, item in enumerate(value):
                _walk(args[0], item, f"{at}[{i}]", found)
        elif origin is dict and len(args) == 2 and isinstance(value, Mapping):
            for key, item in value.items():
                _walk(args[1], item, _key(at, str(key)), found)


def _alternatives(kind: Any) -> list[Any]:
    """The types a value of `kind` may be: X | Y | None as [X, Y, None], Annotated[X, ...]
    as X."""
    if get_origin(kind) is Annotated:
        return _alternatives(get_args(kind)[0])
    if get_origin(kind) in (Union, UnionType):
        return [k for arg in get_args(kind) for k in _alternatives(arg)]
    return [kind]


def _key(at: str, key: str) -> str:
    return f"{at}.{key}" if at else key
