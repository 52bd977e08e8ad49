"""llama.cpp's own logging is silenced: loading the embedded model printed
"llama_kv_cache_iswa: using full-size SWA cache ..." on stderr at every `golem run` and
`golem ask`, between golem's own lines (issue 33, item 17)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]
_LOAD = (
    "from golem.inference.local.model import load_model\n"
    "loaded = load_model(None, 1, 512)\n"
    "print(len(loaded.llama.tokenize(b'hello')))\n"
)


def test_loading_the_model_says_nothing_of_llama_cpp() -> None:
    environ = os.environ | {"PYTHONPATH": str(_ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _LOAD],
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert done.stdout.splitlines()[-1].isdigit()  # the model loaded and works
    said = done.stdout + done.stderr
    assert "llama_" not in said and "SWA cache" not in said, said
