"""The fresh corpus (issue 34): recordings from projects the conformance corpus never used,
and bodies built from the vendors' documentation where no recording of a failure class was
found, each decoded and compared with its expected.json entry by the conformance test's
rules. The corpus is not in the repository (other projects' recordings stay out of it): it
lives in ../shared/fixtures/fresh, and these tests skip when it is absent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from golem.inference.errors import ProviderError
from golem.inference.wire import StreamDecoder, decode
from tests.inference.test_conformance import Outcome, _error_mismatches, _response_mismatches

FRESH = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "fresh"
EXPECTED: dict[str, dict[str, Any]] = (
    json.loads((FRESH / "expected.json").read_bytes())
    if (FRESH / "expected.json").is_file()
    else {}
)
pytestmark = pytest.mark.skipif(not EXPECTED, reason=f"no fresh corpus at {FRESH}")


def _outcome(name: str, chunked: bool = False) -> Outcome:
    entry = EXPECTED[name]
    body = (FRESH / name).read_bytes()
    try:
        if chunked:
            decoder = StreamDecoder(entry["provider"])
            for i in range(0, len(body), 7):
                decoder.feed(body[i : i + 7])
            return Outcome(response=decoder.finish())
        return Outcome(
            response=decode(entry["provider"], body, stream=entry["stream"], status=entry["status"])
        )
    except ProviderError as exc:
        return Outcome(error=exc)


def _mismatches(name: str, outcome: Outcome) -> list[str]:
    entry = EXPECTED[name]
    if entry["error"] or entry["status"] >= 400:
        return _error_mismatches(entry, outcome)
    if outcome.error is not None:
        return [f"raised {type(outcome.error).__name__}: {outcome.error}"]
    assert outcome.response is not None
    found = _response_mismatches(entry, outcome.response)
    raw = entry["finish_reason_raw"]
    if outcome.response.finish_reason_raw != (None if raw is None else str(raw)):
        found.append(f"finish_reason_raw: {outcome.response.finish_reason_raw!r}, not {raw!r}")
    return found


def test_sources_name_every_file() -> None:
    sources = (FRESH / "SOURCES.md").read_text()
    assert all(f"`{name}`" in sources for name in EXPECTED)
    files = sorted(
        str(p.relative_to(FRESH)) for p in FRESH.rglob("*") if p.suffix in (".json", ".sse")
    )
    assert [f for f in files if f != "expected.json"] == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED), ids=str)
def test_fresh_recording_decodes_as_expected(name: str) -> None:
    assert _mismatches(name, _outcome(name)) == []


@pytest.mark.parametrize("name", [n for n in sorted(EXPECTED) if n.endswith(".sse")], ids=str)
def test_fresh_stream_decodes_the_same_in_small_chunks(name: str) -> None:
    assert _mismatches(name, _outcome(name, chunked=True)) == []
