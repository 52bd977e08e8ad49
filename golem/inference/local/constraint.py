"""Holding the local model to a JSON Schema while it decodes: llguidance token masks
applied through llama-cpp-python's logits processing, or llama.cpp's own grammar. Each
schema's constraint is compiled once per process and reused; a call whose request names
`choices` (golem.inference.local.specialise) gets its own, compiled for it alone (its ids
change from call to call, so caching them would only grow)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import orjson
import structlog
from llama_cpp.llama_grammar import LlamaGrammar
from llguidance import LLMatcher
from llguidance.numpy import allocate_token_bitmask, fill_next_token_bitmask

from golem.inference.errors import InvalidSchema
from golem.inference.local.bounds import Backend, DecoderBounds, bounded_schema, ignored_keywords
from golem.inference.local.outline import schema_outline
from golem.inference.local.specialise import Specialised, with_choices, without, worded

if TYPE_CHECKING:
    from llguidance._lib import JsonCompileOptions  # a TypedDict the stubs alone define

__all__ = ["CompiledSchema", "GuidanceMask", "SchemaCache"]

log = structlog.get_logger(__name__)

# No whitespace between JSON tokens: a run of blanks could otherwise fill max_tokens.
_JSON_OPTIONS: JsonCompileOptions = {"whitespace_flexible": False, "lenient": True}


class CompiledSchema:
    """One schema made ready for one backend: the llguidance grammar text or the llama.cpp
    grammar object, the bounded schema it came from, that schema's prompt outline, and
    what the local grammar added to the decision's schema (`/pointer: how`)."""

    def __init__(
        self,
        backend: Backend,
        name: str,
        schema: Mapping[str, Any],
        constraint: Any,
        added: tuple[str, ...] = (),
        *,
        outlined: Mapping[str, Any] | None = None,
    ) -> None:
        self.backend = backend
        self.schema = schema
        self.constraint = constraint
        # The fields in plain words: of the decision's own schema where the grammar holds a
        # narrowed one (its alternatives would tell the model one branch as if it were all).
        self.outline = schema_outline(name, schema if outlined is None else outlined)
        self.added = added


_Key = tuple[Backend, tuple[str, ...], bytes]


class SchemaCache:
    """Compiled constraints by (backend, schema). `compilations` counts real compilations,
    so a test can show a second call for the same schema compiles nothing."""

    def __init__(self, bounds: DecoderBounds) -> None:
        self._bounds = bounds
        self._compiled: dict[_Key, CompiledSchema] = {}
        # What a schema became before compiling (and its outline's source): a call's
        # choices narrow it further, compiled for that call alone.
        self._specialised: dict[_Key, tuple[Specialised, Mapping[str, Any] | None]] = {}
        self._lock = threading.Lock()
        self.compilations = 0

    def get(
        self,
        name: str,
        schema: Mapping[str, Any],
        backend: Backend,
        choices: Mapping[str, tuple[Any, ...]] | None = None,
        *,
        derived: tuple[str, ...] = (),
        narrowed: Mapping[str, Any] | None = None,
    ) -> CompiledSchema:
        """The constraint for `schema` (held to `narrowed` where the decision gives one)
        without its `derived` fields; with `choices`, one compiled for this call alone."""
        grammar = schema if narrowed is None else narrowed
        key = (backend, derived, orjson.dumps(grammar, option=orjson.OPT_SORT_KEYS))
        with self._lock:
            compiled = self._compiled.get(key)
            if compiled is None:
                local, outlined = _specialised(schema, backend, derived, narrowed)
                self._specialised[key] = local, outlined
                compiled = self._compiled[key] = self._compile(name, local, backend, outlined)
                self.compilations += 1
            local, outlined = self._specialised[key]
        if not choices:
            return compiled
        return self._compile(name, with_choices(local, choices), backend, outlined)

    def _compile(
        self,
        name: str,
        local: Specialised,
        backend: Backend,
        outlined: Mapping[str, Any] | None = None,
    ) -> CompiledSchema:
        schema = local.schema
        bounded = bounded_schema(schema, self._bounds)
        if outlined is not None:
            outlined = bounded_schema(outlined, self._bounds)
        ignored = ignored_keywords(bounded, backend)
        if ignored:
            log.info(
                "local decoder ignores schema keywords; checked client-side",
                schema=name,
                backend=backend.value,
                keywords=ignored,
            )
        if backend is Backend.LLGUIDANCE:
            guidance = _guidance_grammar(name, bounded)
            return CompiledSchema(backend, name, bounded, guidance, local.added, outlined=outlined)
        text = orjson.dumps(bounded).decode()
        try:
            grammar = LlamaGrammar.from_json_schema(text, verbose=False)
        except (ValueError, AssertionError, KeyError) as exc:
            raise InvalidSchema(f"llama.cpp cannot build a grammar for {name!r}: {exc}") from exc
        return CompiledSchema(backend, name, bounded, grammar, local.added, outlined=outlined)


def _specialised(
    schema: Mapping[str, Any],
    backend: Backend,
    derived: tuple[str, ...],
    narrowed: Mapping[str, Any] | None,
) -> tuple[Specialised, Mapping[str, Any] | None]:
    """The grammar's schema (held to `narrowed`, if given) and, where narrowed, the
    decision's own schema the outline describes."""
    if narrowed is None:
        return _local(schema, backend, derived), None
    local = _local(narrowed, backend, derived)
    held = Specialised(local.schema, ("/: held to its content rules", *local.added))
    return held, _local(schema, backend, derived).schema


def _local(schema: Mapping[str, Any], backend: Backend, derived: tuple[str, ...]) -> Specialised:
    """The schema without its derived fields, and the words asked of free texts under
    llguidance only: llama.cpp's converter drops a string's length bounds where it has a
    pattern, so a worded text could run on."""
    if backend is Backend.LLGUIDANCE:
        return without(worded(schema), derived)
    return without(Specialised(dict(schema), ()), derived)


def _guidance_grammar(name: str, schema: Mapping[str, Any]) -> str:
    grammar = LLMatcher.grammar_from_json_schema(dict(schema), defaults=_JSON_OPTIONS)
    failed, messages = LLMatcher.validate_grammar_with_warnings(grammar)
    if failed:
        raise InvalidSchema(f"llguidance cannot compile {name!r}: {'; '.join(messages)}")
    return grammar


class GuidanceMask:
    """A llama-cpp-python logits processor: feeds each newly decoded token to an llguidance
    matcher and leaves only the tokens the schema allows next. Once the JSON is complete
    the matcher allows only end-of-sequence, so generation stops by itself."""

    def __init__(self, tokenizer: Any, grammar: str, prompt_tokens: int, n_vocab: int) -> None:
        self._matcher = LLMatcher(tokenizer, grammar)
        self._seen = prompt_tokens
        self._n_vocab = n_vocab
        self._mask = allocate_token_bitmask(1, n_vocab)

    @property
    def accepting(self) -> bool:
        return bool(self._matcher.is_accepting())

    @property
    def error(self) -> str:
        return str(self._matcher.get_error())

    def __call__(
        self, input_ids: npt.NDArray[np.intc], scores: npt.NDArray[np.single]
    ) -> npt.NDArray[np.single]:
        for token in input_ids[self._seen :]:
            self._matcher.consume_token(int(token))
        self._seen = len(input_ids)
        fill_next_token_bitmask(self._matcher, self._mask)
        allowed = np.unpackbits(self._mask.view(np.uint8), bitorder="little")[: self._n_vocab]
        scores[allowed == 0] = -np.inf
        return scores
