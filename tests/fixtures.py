"""Where the shared recorded provider bodies live, for every test that reads them.

CI clones the repo with `shared/` beside it, so `<repo>/../shared/fixtures/providers`.
"""

from pathlib import Path

PROVIDER_FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "providers"


def provider_fixture(relative: str) -> bytes:
    """Raw bytes of one fixture, e.g. `provider_fixture("groq/qwen3-32b-inline-think.json")`."""
    return (PROVIDER_FIXTURES / relative).read_bytes()


def provider_fixtures(pattern: str) -> list[Path]:
    """Fixture files matching a glob relative to the providers folder, sorted, e.g. `"**/*.sse"`."""
    return sorted(PROVIDER_FIXTURES.glob(pattern))
