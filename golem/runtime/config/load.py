"""Loading a golem's config: TOML into the section models, then the checks that need the
provider registry and the environment. Every error is a ConfigError naming the file and
the key path. Secrets are never in the config: only the names of variables holding them.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import UnionType
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from golem.inference.providers import Registry
from golem.mortality import KeyedValueError
from golem.runtime.config.numbers import bools_for_numbers
from golem.runtime.config.providers import EMBEDDED, SYNTHETIC, ChainEntry
from golem.runtime.config.sections import REMOVED, GolemConfig, Tier

__all__ = [
    "TIERS",
    "ConfigError",
    "KeyStatus",
    "Problem",
    "build_registry",
    "key_statuses",
    "load_config",
    "parse_config",
    "secret_values",
]

TIERS: tuple[Tier, ...] = ("t1", "t2", "death")


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong: where (a dotted key path, or "" for the whole file) and what."""

    key: str
    message: str


class ConfigError(Exception):
    """A config that cannot be used. `str()` is one line per problem, each starting with
    the file and the key path: `configs/x.toml: mortality.daily_budget_usd: ...`."""

    def __init__(self, path: Path | str, problems: list[Problem]) -> None:
        self.path = Path(path)
        self.problems = tuple(problems)
        super().__init__(
            "\n".join(
                f"{path}: {p.key}: {p.message}" if p.key else f"{path}: {p.message}"
                for p in problems
            )
        )

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(p.key for p in self.problems)


def load_config(path: Path | str, environ: Mapping[str, str] | None = None) -> GolemConfig:
    """Read, validate and check the config at `path`. `environ` (default: none set) is
    where the keys of the providers in use must be set. Reads; writes nothing."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(path, [Problem("", "no such file")]) from None
    except IsADirectoryError:
        raise ConfigError(path, [Problem("", "is a directory, not a config file")]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(path, [Problem("", f"not UTF-8 text ({exc.reason})")]) from None
    except OSError as exc:
        raise ConfigError(path, [Problem("", f"cannot read: {exc.strerror}")]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, [Problem("", f"invalid TOML: {exc}")]) from None
    return parse_config(data, path, environ)


def parse_config(
    data: Mapping[str, Any], path: Path | str = "<config>", environ: Mapping[str, str] | None = None
) -> GolemConfig:
    """Validate an already-parsed TOML table as if read from `path`."""
    data, removed = _without_removed(data)
    bools = [
        Problem(key, f"takes a number, not {str(value).lower()}")
        for key, value in bools_for_numbers(GolemConfig, data)
    ]
    if bools:
        raise ConfigError(path, removed + bools)
    try:
        config = GolemConfig.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(path, removed + [p for e in exc.errors() for p in _problems(e)]) from None
    if removed:
        raise ConfigError(path, removed)
    problems = _check_providers(config, environ or {})
    if problems:
        raise ConfigError(path, problems)
    config._path = Path(path)
    return config


def build_registry(config: GolemConfig) -> Registry:
    """The shipped provider registry with the config's [providers] merged in."""
    overrides = {
        name: table
        for name, section in config.providers.entries().items()
        if (table := section.registry_overrides())
    }
    return Registry.load(overrides)


@dataclass(frozen=True, slots=True)
class KeyStatus:
    """Whether a provider's key variable is set; never its value."""

    provider: str
    env: str | None  # None: a keyless provider
    used: bool  # in some tier's chain
    set: bool

    @property
    def status(self) -> str:
        if self.env is None:
            return "keyless"
        return "set" if self.set else "unset"


def key_statuses(config: GolemConfig, environ: Mapping[str, str]) -> list[KeyStatus]:
    """The providers in use, then the others the config declares, with their key status."""
    registry = build_registry(config)
    used = [e.provider for tier in TIERS for e in config.inference.chain(tier)]
    verifier = config.subsystems.risk.verifier()
    used += [verifier.provider] if verifier is not None else []
    names = list(dict.fromkeys([*used, *config.providers.names()]))
    statuses = []
    for name in names:
        env = _key_env(registry, name)
        statuses.append(KeyStatus(name, env, name in used, bool(env and environ.get(env))))
    return statuses


def secret_values(config: GolemConfig, environ: Mapping[str, str]) -> tuple[str, ...]:
    """Every key value the environment holds for any provider the registry knows, and the
    control API's token: what the log redaction must never let through."""
    registry = build_registry(config)
    envs = {_key_env(registry, name) for name in [*registry.names(), *config.providers.names()]}
    envs.add(config.control.token_env)  # the control API's bearer token
    envs |= {url.removeprefix("env:") for url in config.notify.urls if url.startswith("env:")}
    return tuple(sorted({environ[e] for e in envs if e and environ.get(e)}))


def _key_env(registry: Registry, provider: str) -> str | None:
    if provider not in registry.names():
        return None
    return registry.profile(provider).api_key_env or None


def _check_providers(config: GolemConfig, environ: Mapping[str, str]) -> list[Problem]:
    problems: list[Problem] = []
    registry = Registry.load()
    gguf = config.providers.local.model_path
    if gguf is not None and not gguf.is_file():
        problems.append(Problem("providers.local.model_path", f"no such file: {gguf}"))
    for name, section in config.providers.entries().items():
        where = f"providers.{_quote(name)}"
        table = section.registry_overrides()
        if not table:
            continue
        try:
            candidate = registry.with_overrides({name: table})
            candidate.codec(name)
        except (ValueError, KeyError, TypeError) as exc:
            problems.append(Problem(where, str(exc.args[0] if exc.args else exc)))
            continue
        registry = candidate
    if problems:
        return problems
    known = {*registry.names(), EMBEDDED, SYNTHETIC}
    seen: set[str] = set()  # one problem per message: a missing key is said once
    for tier in TIERS:
        key = config.inference.chain_key(tier)
        for i, entry in enumerate(config.inference.chain(tier)):
            problem = _check_entry(config, registry, known, entry, environ)
            if problem and problem not in seen:
                seen.add(problem)
                problems.append(Problem(f"{key}[{i}]", problem))
    verifier = config.subsystems.risk.verifier()
    if verifier is not None:
        problem = _check_entry(config, registry, known, verifier, environ)
        if problem and problem not in seen:
            problems.append(Problem("subsystems.risk.verify_with", problem))
    return problems


def _check_entry(
    config: GolemConfig,
    registry: Registry,
    known: set[str],
    entry: ChainEntry,
    environ: Mapping[str, str],
) -> str | None:
    name = entry.provider
    if name not in known:
        return f"unknown provider {name!r}; known: {', '.join(sorted(known))}"
    if name == EMBEDDED and name not in registry.names():
        return None
    if name == SYNTHETIC:
        emulated = config.providers.synthetic.emulate
        known_emulated = emulated in registry.names()
        return None if known_emulated else f"[providers.synthetic] emulate: unknown {emulated!r}"
    model = config.model_for(entry)
    if model is None and name != EMBEDDED:
        return (
            f"{name!r} names no model: write '{name}:MODEL' or set [providers.{name}] default_model"
        )
    env = _key_env(registry, name)
    if env is None:
        return None
    if not environ.get(env):
        return f"provider {name!r} needs its key in the environment variable {env}, which is unset"
    if model is not None and registry.price_for(name, model) is None:
        return (
            f"no price known for {name}:{model}: add "
            f'[providers.{name}.models."{model}"] price = {{ input = ..., output = ... }} '
            "(USD per million tokens)"
        )
    return None


# -- pydantic's errors as key paths -------------------------------------------------------


def _without_removed(data: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    """`data` without the removed keys (`sections.REMOVED`) it sets, and a problem
    naming each one it set: `subsystems.risk.schedule: removed: risk runs on ...`. The
    caller's tables are copied where a key is taken out, never changed."""
    out = dict(data)
    problems: list[Problem] = []
    for dotted, why in REMOVED.items():
        *path, last = dotted.split(".")
        table = out
        for part in path:
            inner = table.get(part)
            if not isinstance(inner, Mapping):
                break
            table[part] = dict(inner)
            table = table[part]
        else:
            if last in table:
                value = table.pop(last)
                keys = [f"{dotted}.{k}" for k in value] if isinstance(value, Mapping) else []
                problems += [Problem(key, f"removed: {why}") for key in keys or [dotted]]
    return out, problems


def _problems(error: Mapping[str, Any]) -> list[Problem]:
    """A validation error's problems, each naming its key in full (a model's own check
    may name keys below it: a `KeyedValueError`)."""
    raised = error.get("ctx", {}).get("error")
    if isinstance(raised, KeyedValueError):
        at = _dotted(tuple(error["loc"]))
        return [Problem(f"{at}.{key}" if at else key, raised.message) for key in raised.keys]
    return [_problem(error)]


def _problem(error: Mapping[str, Any]) -> Problem:
    loc = tuple(part for part in error["loc"] if part != "[key]")
    key = _dotted(loc)
    kind = error["type"]
    if kind == "extra_forbidden":
        allowed = _allowed_keys(loc[:-1])
        hint = f"; expected one of: {', '.join(allowed)}" if allowed else ""
        return Problem(key, f"unknown key{hint}")
    if kind == "missing":
        return Problem(key, "required key missing")
    if kind in _BOUNDS:
        op, bound = _BOUNDS[kind], next(iter(error.get("ctx", {}).values()), "?")
        bound = f"{bound:g}" if isinstance(bound, float) else bound
        return Problem(key, f"must be {op} {bound}, got {error['input']!r}")
    message = str(error["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    return Problem(key, message)


_BOUNDS = {
    "greater_than": ">",
    "greater_than_equal": ">=",
    "less_than": "<",
    "less_than_equal": "<=",
}


def _dotted(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + _quote(part)
    return out


def _quote(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else f'"{key}"'


def _allowed_keys(loc: tuple[int | str, ...]) -> list[str]:
    """The keys the model at `loc` accepts (best effort, for error hints)."""
    kind: Any = GolemConfig
    for part in loc:
        kind = _unwrap(kind)
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            field = kind.model_fields.get(str(part))
            if field is None:
                return []
            kind = field.annotation
        elif get_origin(kind) in (dict, tuple, list):
            kind = [a for a in get_args(kind) if a is not Ellipsis][-1]
        else:
            return []
    kind = _unwrap(kind)
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return list(kind.model_fields)
    return []


def _unwrap(kind: Any) -> Any:
    """X from X | None."""
    if get_origin(kind) in (Union, UnionType):
        args = [a for a in get_args(kind) if a is not type(None)]
        return args[0] if len(args) == 1 else kind
    return kind
