"""StructuredOutput: the base class of every decision type, and the registry of them.

A decision type is a pydantic model. Its JSON Schema is generated from the model in strict
form (closed objects, every property required, optional fields as `type | null`, no
`$ref`), so every provider that enforces schemas accepts it unchanged.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import orjson
from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.json_schema import DEFAULT_REF_TEMPLATE

from golem.inference.errors import InvalidSchema, UnparseableOutput
from golem.inference.schema import ResponseSchema, SchemaIssue
from golem.inference.types import Message, Role

__all__ = [
    "StructuredOutput",
    "WorkedExample",
    "get_schema",
    "registered_schemas",
    "shown_before",
    "strict_json_schema",
    "validation_issues",
]

_REGISTRY: dict[str, type[StructuredOutput]] = {}
_DROP_KEYS = frozenset({"title", "default"})


@dataclass(frozen=True, slots=True)
class WorkedExample:
    """A short situation and a good answer to it, shown to a model whose provider's
    capabilities ask for examples (`worked_examples`: a small model), never to others."""

    situation: str
    answer: Mapping[str, Any]


def shown_before(
    examples: tuple[WorkedExample, ...], messages: tuple[Message, ...]
) -> tuple[Message, ...]:
    """`messages` with each example as an exchange of its own (the situation asked, the
    answer given) after the system message and before the call's own material."""
    lead = 1 if messages and messages[0].role is Role.SYSTEM else 0
    exchanges = tuple(
        message
        for example in examples
        for message in (
            Message.user(example.situation),
            Message.assistant(orjson.dumps(dict(example.answer)).decode()),
        )
    )
    return (*messages[:lead], *exchanges, *messages[lead:])


class StructuredOutput(BaseModel):
    """Base of every typed decision. Subclasses set `schema_name` to be registered, and
    may set `worked_examples`: two situations unlike each other and a good answer to each
    (a 270M model shown one example copies its texts whatever it is asked; shown two, it
    writes its own: see README, "Useful answers from the embedded model")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_name: ClassVar[str] = ""
    schema_description: ClassVar[str] = ""
    worked_examples: ClassVar[tuple[WorkedExample, ...]] = ()
    # Fields computed from the rest of an answer that leaves them out (a validator of the
    # subclass fills them): the local grammar does not ask for them (ResponseSchema.derived).
    derived: ClassVar[tuple[str, ...]] = ()
    _response_schema: ClassVar[ResponseSchema | None] = None

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._response_schema = None
        name = cls.__dict__.get("schema_name")
        if name:
            _REGISTRY[name] = cls

    @classmethod
    def schema(
        cls, by_alias: bool = True, ref_template: str = DEFAULT_REF_TEMPLATE
    ) -> dict[str, Any]:
        """The strict JSON Schema of this decision type."""
        return copy.deepcopy(dict(cls.response_schema().schema))

    @classmethod
    def response_schema(cls) -> ResponseSchema:
        """The ResponseSchema for this type, built and checked once."""
        cached = cls.__dict__.get("_response_schema")
        if cached is None:
            name = cls.__dict__.get("schema_name") or cls.__name__
            description = cls.schema_description or (cls.__doc__ or "").strip().split("\n")[0]
            strict = strict_json_schema(cls)
            cached = ResponseSchema(
                name=name,
                schema=strict,
                strict=True,
                description=description,
                derived=cls.derived,
                narrowed=cls.narrowed_schema(strict),
            )
            cls._response_schema = cached
        return cached

    @classmethod
    def narrowed_schema(cls, schema: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """`schema` (this type's strict schema) narrowed by what a grammar can say of the
        content rules (`validate_content`), for a decoder that builds its own grammar;
        None: nothing to add. Whatever the result accepts, `schema` accepts."""
        return None

    @classmethod
    def from_json(cls, text: str | bytes) -> Self:
        """Validate a JSON document into this type (lax: "0.72" becomes 0.72)."""
        return cls.model_validate_json(text)

    @classmethod
    def of(cls, fields: Mapping[str, Any]) -> Self:
        """`model_validate(fields)` without its keyword plumbing: a decision made by the
        rules on every tick."""
        return cls.__pydantic_validator__.validate_python(fields)  # type: ignore[no-any-return]

    def json_fields(self) -> dict[str, Any]:
        """`model_dump(mode="json")` without its keyword plumbing: each decision's log
        line carries it."""
        dump: dict[str, Any] = self.__pydantic_serializer__.to_python(self, mode="json")
        return dump

    @classmethod
    def from_text(cls, text: str) -> Self:
        """Read a decision out of free text. Each decision type writes its own."""
        raise UnparseableOutput(f"{cls.__name__} cannot be read from free text", text=text)

    @classmethod
    def prompt_guidance(cls) -> str:
        """The instruction that asks for this type when the provider cannot enforce it."""
        schema = orjson.dumps(cls.response_schema().schema).decode()
        return (
            f"Respond with a single JSON object for `{cls.response_schema().name}` that "
            "conforms to this JSON Schema. Output only the JSON object: no prose, no code "
            f"fences, every property present.\nJSON Schema: {schema}"
        )

    def validate_content(self) -> list[SchemaIssue]:
        """Checks the schema cannot express (consistency between fields, bounds that some
        backends ignore). Each issue carries a JSON pointer into the decision."""
        return []


def registered_schemas() -> dict[str, type[StructuredOutput]]:
    """Every registered decision type by schema name, sorted by name."""
    return dict(sorted(_REGISTRY.items()))


def get_schema(name: str) -> type[StructuredOutput]:
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none registered"
        raise KeyError(f"unknown schema {name!r} (known: {known})") from None


def validation_issues(exc: ValidationError) -> list[SchemaIssue]:
    """pydantic's errors as JSON-pointer issues, e.g. `/signals/0/strength: ...`."""
    issues = []
    for err in exc.errors(include_url=False):
        pointer = "".join(f"/{part}" for part in err["loc"])
        issues.append(SchemaIssue(pointer, err["msg"]))
    return issues


def strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema made strict: refs inlined, objects closed, all required."""
    raw = model.model_json_schema(mode="validation")
    defs = raw.pop("$defs", {})
    strict: dict[str, Any] = _strictify(_inline(raw, defs, ()))
    return strict


def _inline(node: Any, defs: Mapping[str, Any], seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_inline(item, defs, seen) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref.removeprefix("#/$defs/")
        if name in seen:
            raise InvalidSchema(f"recursive schema {name!r} cannot be inlined", path=ref)
        target = dict(_inline(defs[name], defs, (*seen, name)))
        # Sibling keywords (a field's description) take precedence over the target's.
        target.update({k: _inline(v, defs, seen) for k, v in node.items() if k != "$ref"})
        return target
    return {k: _inline(v, defs, seen) for k, v in node.items()}


def _strictify(node: Any) -> Any:
    """A schema node made strict. `properties` maps names (any name, "title" included)
    to schemas; every other dict value is itself a schema or a literal."""
    if isinstance(node, list):
        return [_strictify(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROP_KEYS:
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _strictify(sub) for name, sub in value.items()}
        elif key in ("enum", "const", "examples"):
            out[key] = value
        else:
            out[key] = _strictify(value)
    if out.get("type") == "object" or "properties" in out:
        out["required"] = list(out.get("properties", {}))
        out["additionalProperties"] = False
    return out
