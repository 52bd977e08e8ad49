"""LocalProvider: the embedded llama.cpp model as a Provider. Calls run one at a time on a
worker thread; a cancelled call stops its thread at the next token, and the next call
waits for that thread, so neither the model nor its result can leak between calls."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import structlog
import trio
from llama_cpp import LogitsProcessorList, StoppingCriteriaList

from golem.inference.errors import InvalidRequest, ProviderError
from golem.inference.local.bounds import Backend
from golem.inference.local.config import LocalConfig
from golem.inference.local.constraint import GuidanceMask, SchemaCache
from golem.inference.local.model import LoadedModel, default_threads, load_model
from golem.inference.modes import Capabilities
from golem.inference.types import FinishReason, Mode, Request, Response, Usage, with_instruction

__all__ = ["CAPABILITIES", "Generation", "LocalProvider"]

log = structlog.get_logger(__name__)

# A small model: it is shown the worked examples of each decision (where the decision has
# them), and its prompt puts the task before the material.
CAPABILITIES = Capabilities(
    response_schema=True, tool_use=False, forced_tool=False, worked_examples=True, task_first=True
)


@dataclass(frozen=True, slots=True)
class Generation:
    """What one decoding run did, for logs and benchmarks."""

    schema: str | None
    backend: str | None
    text: str
    prompt_tokens: int
    output_tokens: int
    finish_reason: FinishReason
    prefill_s: float  # prompt evaluation and the first token
    decode_s: float  # every later token
    cancelled: bool = False
    specialised: tuple[str, ...] = ()  # what the grammar added to the schema: `/pointer: how`
    seed: int = 0  # the sampler's seed: the config's seed plus the runs before this one

    @property
    def tokens_per_s(self) -> float:
        """Decoding speed after the first token."""
        later = self.output_tokens - 1
        return later / self.decode_s if later > 0 and self.decode_s > 0 else 0.0


@dataclass
class _Call:
    """One call's state shared with its worker thread. Durations use perf_counter: they
    are measured on the worker thread, where trio's clock is not available."""

    cancelled: threading.Event = field(default_factory=threading.Event)
    first_token_at: float | None = None
    mask: GuidanceMask | None = None

    def stop(self, input_ids: npt.NDArray[np.intc], logits: npt.NDArray[np.single]) -> bool:
        if self.first_token_at is None:
            self.first_token_at = time.perf_counter()
        return self.cancelled.is_set() or (self.mask is not None and bool(self.mask.error))


class LocalProvider:
    """The `local` provider: llama.cpp in this process, no key, no network, 0 USD.

    The model loads on the first call (once per process for the same path and threads).
    SchemaEnforced requests decode under the schema with the configured backend; other
    modes decode freely. `on_generation` (if given) sees every decoding run's record.
    """

    def __init__(
        self,
        config: LocalConfig | None = None,
        *,
        on_generation: Callable[[Generation], None] | None = None,
    ) -> None:
        self.config = config or LocalConfig()
        self.threads = self.config.threads or default_threads()
        self.backend = Backend(self.config.backend)
        self.schemas = SchemaCache(self.config.bounds())
        self.on_generation = on_generation
        self._model: LoadedModel | None = None
        self._calls = 0

    @property
    def name(self) -> str:
        return "local"

    @property
    def capabilities(self) -> Capabilities:
        return CAPABILITIES

    @property
    def model(self) -> str:
        return self._model.name if self._model is not None else "gemma-3-270m-q4_k_m"

    def __repr__(self) -> str:
        return f"LocalProvider(backend={self.backend.value!r}, threads={self.threads})"

    def count_tokens(self, text: str) -> int:
        """`text`'s length in the model's own tokens (the context layers fit prompts by it);
        loads the model if it is not yet."""
        tokens: list[int] = self.loaded().llama.tokenize(text.encode(), add_bos=False)
        return len(tokens)

    def loaded(self) -> LoadedModel:
        """The model, loaded now if it is not yet."""
        if self._model is None:
            self._model = load_model(
                self.config.model_path, self.threads, self.config.context_tokens
            )
        return self._model

    async def complete(self, request: Request) -> Response:
        if request.mode is Mode.TOOL_USE or request.tools:
            raise InvalidRequest("the local model takes no tools", provider=self.name)
        call = _Call()
        started = trio.current_time()
        try:
            generation = await trio.to_thread.run_sync(
                self._generate, request, call, abandon_on_cancel=True
            )
        finally:
            call.cancelled.set()  # an abandoned thread stops at its next token
        usage = Usage(input_tokens=generation.prompt_tokens, output_tokens=generation.output_tokens)
        return Response(
            content=generation.text,
            finish_reason=generation.finish_reason,
            usage=usage,
            provider=self.name,
            model=self.model,
            mode=request.mode,
            cost_usd=0.0,
            latency_s=trio.current_time() - started,
            seed=generation.seed,
        )

    def _seed(self, request: Request) -> int:
        """The seed a call decodes with: the one of the call it repeats (`Request.seed`),
        else the configured seed plus the calls counted."""
        return self.config.seed + self._calls if request.seed is None else request.seed

    def generate(self, request: Request) -> Generation:
        """Decode one answer, blocking the calling thread."""
        return self._generate(request, _Call())

    def _generate(self, request: Request, call: _Call) -> Generation:
        model = self.loaded()
        # One run at a time on the model, whichever provider asks: an abandoned (cancelled)
        # run keeps the lock until it stops, so the next run starts on a quiet model.
        with model.busy:
            if call.cancelled.is_set():  # its caller left while it waited: nobody reads this
                return Generation(None, None, "", 0, 0, FinishReason.UNKNOWN, 0.0, 0.0, True)
            return self._run(model, request, call)

    def _run(self, model: LoadedModel, request: Request, call: _Call) -> Generation:
        options: dict[str, Any] = {}
        messages = request.messages
        schema = request.response_schema if request.mode is Mode.SCHEMA_ENFORCED else None
        compiled = None
        if schema is not None:
            compiled = self.schemas.get(
                schema.name,
                schema.schema,
                self.backend,
                request.choices or None,
                derived=schema.derived,
                narrowed=schema.narrowed,
            )
            if self.config.outline:
                messages = with_instruction(messages, compiled.outline)
        prompt = model.prompt_tokens(messages)
        if len(prompt) >= self.config.context_tokens:
            raise InvalidRequest(
                f"the prompt ({len(prompt)} tokens) does not fit the local model's context "
                f"({self.config.context_tokens})",
                provider=self.name,
            )
        if compiled is not None:
            if self.backend is Backend.LLGUIDANCE:
                call.mask = GuidanceMask(
                    model.tokenizer(), compiled.constraint, len(prompt), model.n_vocab
                )
                options["logits_processor"] = LogitsProcessorList([call.mask])
            else:
                options["grammar"] = compiled.constraint
        temperature = (
            self.config.temperature if request.temperature is None else request.temperature
        )
        seed = self._seed(request)
        started = time.perf_counter()
        try:
            out = model.llama.create_completion(
                prompt,
                max_tokens=request.max_tokens or self.config.max_tokens,
                temperature=temperature,
                seed=seed,
                repeat_penalty=self.config.repeat_penalty,
                stop=["<end_of_turn>"],
                stopping_criteria=StoppingCriteriaList([call.stop]),
                **options,
            )
        except (ValueError, RuntimeError) as exc:
            raise ProviderError(f"llama.cpp failed: {exc}", provider=self.name) from exc
        ended = time.perf_counter()
        if request.seed is None:  # a repeat of an earlier call is not a call of the sequence
            self._calls += 1
        choice = out["choices"][0]
        first = call.first_token_at or ended
        generation = Generation(
            schema=schema.name if schema is not None else None,
            backend=self.backend.value if schema is not None else None,
            text=choice["text"],
            prompt_tokens=out["usage"]["prompt_tokens"],
            output_tokens=out["usage"]["completion_tokens"],
            finish_reason=FinishReason.LENGTH
            if choice["finish_reason"] == "length"
            else FinishReason.STOP,
            prefill_s=first - started,
            decode_s=ended - first,
            cancelled=call.cancelled.is_set(),
            specialised=compiled.added if compiled is not None else (),
            seed=seed,
        )
        log.debug(
            "local generation",
            schema=generation.schema,
            backend=generation.backend,
            specialised=list(generation.specialised),
            prompt_tokens=generation.prompt_tokens,
            output_tokens=generation.output_tokens,
            finish_reason=generation.finish_reason.value,
            prefill_s=round(generation.prefill_s, 3),
            tokens_per_s=round(generation.tokens_per_s, 1),
        )
        if self.on_generation is not None:
            self.on_generation(generation)
        return generation
