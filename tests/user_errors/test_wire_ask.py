"""User errors of `golem wire decode` and `golem ask`: each is one line on stderr naming
what is wrong, exit 2, no traceback, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures import PROVIDERS
from tests.user_errors.support import golem, tree

ANTHROPIC_BODY = PROVIDERS.path / "anthropic/messages-thinking-signature.json"
OPENAI_BODY = PROVIDERS.path / "openai/chat-json-schema-strict.json"
ASK = ("ask", "--schema", "heartbeat_decision")

# (case, args, the fragment the one line must hold)
CASES = [
    (
        "wire-wrong-provider",
        ("wire", "decode", "--provider", "openai", ANTHROPIC_BODY),
        "is not an OpenAI chat completion: it has no 'choices'",
    ),
    (
        "wire-unknown-provider",
        ("wire", "decode", "--provider", "nope", ANTHROPIC_BODY),
        "unknown provider 'nope'",
    ),
    ("wire-missing-file", ("wire", "decode", "--provider", "openai", "gone.json"), "gone.json"),
    (
        "wire-stream-flag-on-a-body",
        ("wire", "decode", "--provider", "openai", "--stream", OPENAI_BODY),
        "drop --stream",
    ),
    ("ask-empty-prompt", (*ASK, "--provider", "synthetic", ""), "the PROMPT is empty"),
    ("ask-blank-prompt", (*ASK, "--provider", "synthetic", " \t "), "the PROMPT is empty"),
    ("ask-unknown-provider", (*ASK, "--provider", "nope", "x"), "unknown provider 'nope'"),
    *[
        (
            f"ask-max-tokens-{value}",
            (*ASK, "--provider", "synthetic", f"--max-tokens={value}", "x"),
            f"--max-tokens: must be a positive integer, not '{value}'",
        )
        for value in ("0", "-1", "abc")
    ],
]


@pytest.mark.parametrize(("case", "args", "fragment"), CASES, ids=[c[0] for c in CASES])
def test_user_error_is_one_line(
    tmp_path: Path, case: str, args: tuple[str | Path, ...], fragment: str
) -> None:
    if any(isinstance(a, Path) and PROVIDERS.path in a.parents for a in args):
        PROVIDERS.require()
    before = tree(tmp_path)
    ran = golem(*args, cwd=tmp_path)
    line = ran.one_line_error(code=2)
    assert fragment in line, (case, line)
    assert ran.out == ""
    assert tree(tmp_path) == before
