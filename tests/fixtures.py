"""Where the recorded provider bodies live, for every test that reads them.

`tests/data/providers/` is a byte-exact copy of the project's shared recorded bodies
(`../shared/fixtures/providers`), with their provenance in its SOURCES.md, one line a
file. Copied so that a clone of this repository tests on its own; `.gitattributes`
keeps their bytes (CRLF framing included) exactly as recorded.
"""

from pathlib import Path

PROVIDER_FIXTURES = Path(__file__).resolve().parent / "data" / "providers"


def provider_fixture(relative: str) -> bytes:
    """Raw bytes of one fixture, e.g. `provider_fixture("groq/qwen3-32b-inline-think.json")`."""
    return (PROVIDER_FIXTURES / relative).read_bytes()


def provider_fixtures(pattern: str) -> list[Path]:
    """Fixture files matching a glob relative to the providers folder, sorted, e.g. `"**/*.sse"`."""
    return sorted(PROVIDER_FIXTURES.glob(pattern))
