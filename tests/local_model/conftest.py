"""One embedded model for the whole session (loading and the llguidance tokenizer cost a few
seconds), and llama-cpp-python's OpenAI-compatible server on 127.0.0.1 for the codec."""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import httpx
import pytest

from golem.inference.local import LocalConfig, LocalProvider
from golem.inference.local.model import default_model_path, default_threads

_SERVER_DEADLINE_S = 60.0


@pytest.fixture(scope="session")
def gguf() -> Path:
    return default_model_path()


@pytest.fixture(scope="session")
def local_provider(gguf: Path) -> LocalProvider:
    provider = LocalProvider(LocalConfig(model_path=gguf, max_tokens=600))
    provider.loaded()
    return provider


@pytest.fixture(scope="session")
def llama_server(gguf: Path) -> Iterator[str]:
    """The base URL of a running `python -m llama_cpp.server` with the same model; the
    server is stopped whatever happens (terminate, then kill)."""
    port = _free_port()
    command = [
        sys.executable,
        *("-m", "llama_cpp.server", "--model", str(gguf)),
        *("--host", "127.0.0.1", "--port", str(port)),
        *("--chat_format", "gemma", "--n_ctx", "2048"),
        *("--n_threads", str(default_threads())),
    ]
    with tempfile.TemporaryFile() as output:  # a pipe nobody reads could fill and block it
        server = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        base_url = f"http://127.0.0.1:{port}/v1"
        try:
            _wait_ready(server, base_url, output)
            yield base_url
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_ready(server: subprocess.Popen[bytes], base_url: str, output: IO[bytes]) -> None:
    deadline = time.monotonic() + _SERVER_DEADLINE_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            output.seek(0)
            said = output.read().decode(errors="replace")[-4000:]
            raise RuntimeError(f"llama_cpp.server exited with {server.returncode}:\n{said}")
        try:
            if httpx.get(f"{base_url}/models", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.25)
    raise RuntimeError(f"llama_cpp.server not ready within {_SERVER_DEADLINE_S:g} s")
