"""A key the golem was given never leaves the process or lands on disk: masked by value in
every prompt whatever its context profile (and so in every request kept for replay), in
the log, and in `config check`'s output, which prints the feed's text; and keys whose
value is not known here are masked whole by their shape (Anthropic, OpenAI project, xAI
and Groq keys kept up to 40 characters in the clear, or all of them)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson
import pytest

from golem.cli import main
from golem.inference.secrets import REDACTED, Redaction
from golem.mortality import PipelineProfile
from golem.runtime.clock import VirtualClock
from golem.runtime.config.load import parse_config
from golem.runtime.life import assemble
from golem.runtime.store.state import StateStore
from golem.subsystems.context import Masker
from golem.subsystems.context import assemble as assemble_prompt
from golem.subsystems.contract import Brief
from tests.policy import CONTEXT
from tests.subsystems.context.support import rich_context

PLANTED = "sk-test-PLANTED123"  # too short for any pattern: only its value gives it away
FEED_TEXT = f"ops note: OPENAI_API_KEY={PLANTED} was pasted in the channel"
START = datetime(2026, 3, 1, tzinfo=UTC)
_BODY = "AbC-dEf_0123456789-ghIJ_klMN-opQR_stUV-wxYZ_0123-4567_89ab-cdef_ghij-klmn"
SHAPED = {
    "anthropic": f"sk-ant-api03-{_BODY}-{_BODY[:21]}AA",
    "openai project": f"sk-proj-{_BODY}_{_BODY}",
    "xai": "xai-" + "Q7w" * 27,
    "groq": "gsk_" + "r4N" * 17 + "x",
}


@pytest.mark.parametrize("key", SHAPED.values(), ids=SHAPED.keys())
def test_a_real_shaped_key_is_masked_whole(key: str) -> None:
    masked = Masker("g").mask(f"leaked: {key}, rotate it")
    assert re.fullmatch(r"leaked: <key-[0-9a-f]{8}>, rotate it", masked), masked


def test_a_known_key_is_masked_by_value_under_every_profile() -> None:
    ctx = rich_context()
    brief = Brief("You are risk.", f"Assess it. {FEED_TEXT}")
    for profile in PipelineProfile:
        prompt = assemble_prompt(
            brief, ctx, profile, secrets=Redaction([PLANTED]), settings=CONTEXT
        )
        text = "\n".join(m.content or "" for m in prompt.request.messages)
        assert PLANTED not in text, profile
        assert re.search(r"OPENAI_API_KEY=<key-[0-9a-f]{8}> was pasted", text), profile
        assert prompt.report.masked.get("key", 0) >= 1


async def test_no_kept_request_holds_a_key_the_feed_quoted(tmp_path: Path) -> None:
    config = parse_config(
        {
            "golem": {"id": "g-keys", "state_dir": str(tmp_path / "state"), "seed": 3},
            "inference": {"t1": ["synthetic"], "t2": ["synthetic"], "death": ["synthetic"]},
            "heartbeat": {"interval": "15s", "theta_base": 0.01, "theta_min": 0.0},
            "world": {"feed": [{"at": "30s", "source": "ops", "text": FEED_TEXT}]},
        }
    )
    environ = {"OPENAI_API_KEY": PLANTED}
    with StateStore.open(config.golem.state_dir) as store:
        life, pool = assemble(config, clock=VirtualClock(START), store=store, environ=environ)
        assert pool is not None
        try:
            await life.run(duration=timedelta(hours=1))
        finally:
            await pool.aclose()
        kept = store.requests.select()
    texts = [m.content or "" for k in kept for m in k.request.messages]
    assert any("OPENAI_API_KEY=<key-" in text for text in texts), "the feed item was never sent"
    assert not [text for text in texts if PLANTED in text]


@pytest.mark.parametrize("as_json", [False, True], ids=["tables", "json"])
def test_config_check_prints_no_key_the_feed_quotes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    as_json: bool,
) -> None:
    shaped = SHAPED["anthropic"]
    (tmp_path / "golem.toml").write_text(
        f'[golem]\nid = "g-check"\n\n[[world.feed]]\nat = "1m"\ntext = "{FEED_TEXT}"\n\n'
        f'[[world.feed]]\nat = "2m"\ntext = "and {shaped}"\n'
    )
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED)
    argv = ["config", "check", str(tmp_path / "golem.toml"), *(["--json"] if as_json else [])]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert PLANTED not in out + err
    assert shaped[:12] not in out + err and shaped[-12:] not in out + err
    if as_json:
        feed = orjson.loads(out)["config"]["world"]["feed"]
        assert [item["text"] for item in feed] == [
            f"ops note: OPENAI_API_KEY={REDACTED} was pasted in the channel",
            f"and {REDACTED}",
        ]
