"""`golem wire decode`: a recorded body or transcript printed as the normalised Response."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from golem.cli import main
from tests.fixtures import PROVIDERS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["wire", "decode", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_decodes_a_body(capsys: pytest.CaptureFixture[str]) -> None:
    path = PROVIDERS / "openai/chat-json-schema-strict-simple.json"
    code, out, _ = run(capsys, "--provider", "openai", str(path))
    assert code == 0
    shown = orjson.loads(out)
    assert shown["content"] == '{"name":"John","age":30}'
    assert shown["provider"] == "openai"
    assert shown["model"] == "gpt-4.1-nano-2025-04-14"
    assert shown["finish_reason"] == "stop"
    assert shown["finish_reason_raw"] == "stop"  # the provider's own word
    assert shown["usage"] == {
        "input_tokens": 53,
        "cached_input_tokens": 0,
        "output_tokens": 9,
        "reasoning_tokens": 0,
        "cache_write_tokens": 0,
        "total_tokens": 62,
    }
    assert shown["reasoning"]["visibility"] == "none"
    assert shown["cost_usd"] == pytest.approx((53 * 0.10 + 9 * 0.40) / 1e6)
    assert shown["priced"] is True
    assert shown["tool_calls"] == []


def test_decodes_a_stream_with_reasoning_and_tool_call(capsys: pytest.CaptureFixture[str]) -> None:
    path = PROVIDERS / "openrouter/chat-reasoning-details-stream.sse"
    code, out, _ = run(capsys, "--provider", "openrouter", "--stream", str(path))
    assert code == 0
    shown = orjson.loads(out)
    assert shown["tool_calls"] == [
        {
            "id": "toolu_bdrk_01L9pX1Wp4FAEq9TT2Z6UAe7",
            "name": "reasoning_weather",
            "arguments": {"city": "Berlin"},
        }
    ]
    assert shown["finish_reason"] == "tool_calls"
    assert shown["reasoning"]["visibility"] == "visible"
    assert shown["reasoning"]["steps"][0]["signature"].startswith("EvsCCkgIEBAB")
    assert shown["reasoning"]["reasoning_tokens"] == 54


def test_sse_suffix_implies_stream(capsys: pytest.CaptureFixture[str]) -> None:
    path = PROVIDERS / "deepseek/reasoner-reasoning-content-stream.sse"
    code, out, _ = run(capsys, "--provider", "deepseek", str(path))
    assert code == 0
    assert orjson.loads(out)["content"] == "Hello there! 😊 How can I help you today?"


def test_typed_error_prints_as_json_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    path = PROVIDERS / "openai/error-429-rate-limit-tpm.json"
    code, out, _ = run(capsys, "--provider", "openai", "--status", "429", str(path))
    assert code == 1
    shown = orjson.loads(out)
    assert shown["error"] == "InvalidRequest"
    assert shown["status"] == 429
    assert shown["transient"] is False
    assert "Limit 400000, Requested 2500013" in shown["message"]


def test_error_body_without_status_is_still_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    path = PROVIDERS / "openrouter/error-429-upstream-rate-limited.json"
    code, out, _ = run(capsys, "--provider", "openrouter", str(path))
    assert code == 1
    shown = orjson.loads(out)
    assert (shown["error"], shown["status"], shown["retry_after"]) == ("RateLimited", 429, None)


def test_refusal_prints_the_refusal(capsys: pytest.CaptureFixture[str]) -> None:
    path = PROVIDERS / "openai/chat-json-schema-refusal.json"
    code, out, _ = run(capsys, "--provider", "openai", str(path))
    assert code == 1
    assert orjson.loads(out)["refusal"] == "I'm very sorry, but I can't assist with that request."


def test_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "--provider", "openai", str(tmp_path / "absent.json"))
    assert code == 2
    assert out == ""
    assert "cannot read" in err and "absent.json" in err


def test_unknown_provider_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    body = tmp_path / "b.json"
    body.write_bytes(b"{}")
    code, _, err = run(capsys, "--provider", "nope", str(body))
    assert code == 2
    assert "unknown provider 'nope'" in err and "openrouter" in err


def test_the_wrong_provider_is_one_line_naming_the_right_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = PROVIDERS / "anthropic/messages-thinking-signature.json"
    code, out, err = run(capsys, "--provider", "openai", str(path))
    assert code == 2
    assert out == ""  # no empty "successful" Response
    assert len(err.strip().splitlines()) == 1
    assert "is not an OpenAI chat completion: it has no 'choices'" in err
    assert "it reads as --provider anthropic" in err


def test_a_compatible_vendor_s_body_reads_as_openai(capsys: pytest.CaptureFixture[str]) -> None:
    path = PROVIDERS / "deepseek/reasoner-reasoning-content.json"
    code, out, _ = run(capsys, "--provider", "openai", str(path))
    assert code == 0
    assert orjson.loads(out)["content"]


def test_a_cut_stream_is_flagged_with_its_partial_response(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    whole = PROVIDERS.read("anthropic/messages-stream-thinking-tool-use.sse")
    cut = tmp_path / "cut.sse"
    cut.write_bytes(whole[: whole.index(b"event: message_delta")])  # no usage, no stop
    code, out, err = run(capsys, "--provider", "anthropic", str(cut))
    assert code == 1
    shown = orjson.loads(out)
    assert (shown["error"], shown["transient"]) == ("IncompleteStream", True)
    assert "message_stop" in shown["message"]
    partial = shown["partial"]
    assert partial["finish_reason"] == "unknown"
    assert partial["tool_calls"] and partial["reasoning"]["content"]
    (line,) = err.strip().splitlines()
    assert line.startswith("golem wire decode: warning:") and "incomplete" in line


def test_stream_flag_on_a_json_body_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    path = PROVIDERS / "openai/chat-json-schema-strict.json"
    code, out, err = run(capsys, "--provider", "openai", "--stream", str(path))
    assert code == 2
    assert out == ""
    assert "drop --stream" in err
