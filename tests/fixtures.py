"""Where the third-party recordings and corpora live, for every test and benchmark that reads them.

They are not part of this repository: data taken from other projects' repositories (recorded
provider bodies, the conformance corpus, the injection corpora, each with its provenance in
its SOURCES.md) live beside the checkout, in `../shared/fixtures/<folder>`, or wherever the
GOLEM_SHARED environment variable points (its `fixtures/<folder>`). When a folder is absent,
every test that needs it is skipped with one line saying so, and the rest of the suite runs.

    PROVIDERS.read("groq/qwen3-32b-inline-think.json")   # bytes; skips the test when absent
    PROVIDERS / "openai/chat-json-schema-strict.json"    # a Path; skips the test when absent
    @pytest.mark.parametrize("path", PROVIDERS.params("**/*.sse"), ids=str)
    @PROVIDERS.needed   # on an async test: pytest-trio drops the reason of a skip raised in it

Their bytes (CRLF framing included) are read exactly as recorded.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_ENV = "GOLEM_SHARED"


def shared_root() -> Path:
    """GOLEM_SHARED when set, else `../shared` beside the repository's root."""
    return Path(os.environ.get(SHARED_ENV) or ROOT.parent / "shared")


class SharedFolder:
    """One folder of `<shared>/fixtures`: its paths and files, or a skip naming why not."""

    def __init__(self, name: str, what: str) -> None:
        self.name = name
        self.what = what
        self.path = shared_root() / "fixtures" / name

    @property
    def present(self) -> bool:
        return self.path.is_dir()

    @property
    def reason(self) -> str:
        where = self.path if SHARED_ENV in os.environ else f"../shared/fixtures/{self.name}"
        return f"{where} is absent: {self.what} live beside the checkout, not in it"

    def require(self) -> Path:
        """The folder; in a test (or at a module's top) skips it when the folder is absent."""
        if not self.present:
            pytest.skip(self.reason, allow_module_level=True)
        return self.path

    def __truediv__(self, relative: str) -> Path:
        return self.require() / relative

    def read(self, relative: str) -> bytes:
        """Raw bytes of one file, e.g. `PROVIDERS.read("gemini/error-429-quota.json")`."""
        return (self / relative).read_bytes()

    def files(self, pattern: str) -> list[Path]:
        """Files matching a glob relative to the folder, sorted; none when it is absent."""
        return sorted(self.path.glob(pattern)) if self.present else []

    def params(self, pattern: str) -> list[Any]:
        """`files(pattern)` for a parametrize list (one skipped case when absent)."""
        return self.cases(self.files(pattern))

    @property
    def needed(self) -> pytest.MarkDecorator:
        """A mark for a test that reads the folder outside its body (a Hypothesis strategy)."""
        return pytest.mark.skipif(not self.present, reason=self.reason)

    def cases(self, values: list[Any]) -> list[Any]:
        """A parametrize list: the values, or when the folder is absent one case skipped with
        the reason (an empty list would be skipped with pytest's "got empty parameter set")."""
        if self.present:
            return values
        return [pytest.param(None, marks=pytest.mark.skip(reason=self.reason), id="absent")]


PROVIDERS = SharedFolder("providers", "recorded provider bodies")
CONFORMANCE = SharedFolder("conformance", "the conformance recordings (other projects' cassettes)")
INJECTION = SharedFolder("injection", "the injection corpora (public attack and benign texts)")


def provider_fixture(relative: str) -> bytes:
    """Raw bytes of one recorded provider body, e.g. `provider_fixture("groq/x.json")`."""
    return PROVIDERS.read(relative)
