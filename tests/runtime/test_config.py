"""load_config: every shipped config loads; every bad config is a ConfigError naming the
file and the key path; keys come from the environment only."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from golem.mortality import BudgetLine, BudgetPolicy, SubsystemName
from golem.runtime.config.durations import ScheduleKind
from golem.runtime.config.load import (
    ConfigError,
    build_registry,
    key_statuses,
    load_config,
    parse_config,
    secret_values,
)
from golem.runtime.config.providers import ChainEntry

CONFIGS = Path(__file__).parents[2] / "configs"
SHIPPED = sorted(CONFIGS.glob("*.toml"))
FAKE_KEYS = {
    env: f"fake-{env.lower()}-0123456789"
    for env in (
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "GEMINI_API_KEY",
        "OPENROUTER_API_KEY",
        "VENICE_API_KEY",
        "DEEPSEEK_API_KEY",
    )
}
PROVIDER_CONFIGS = ("openai", "anthropic", "gemini", "openrouter", "venice", "deepseek")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "golem.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path, environ: dict[str, str] | None = None) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ)
    return caught.value


def test_the_shipped_configs_are_all_there() -> None:
    names = {p.stem for p in SHIPPED}
    assert names >= {"golem", *PROVIDER_CONFIGS}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_config_loads_with_its_key_set(path: Path) -> None:
    config = load_config(path, FAKE_KEYS)
    assert config.path == path
    for tier in ("t1", "t2", "death"):
        for entry in config.inference.chain(tier):
            assert entry.provider == "local" or config.model_for(entry)


@pytest.mark.parametrize("name", PROVIDER_CONFIGS)
def test_each_provider_config_says_which_variable_it_needs(name: str) -> None:
    path = CONFIGS / f"{name}.toml"
    env = next(e for e in FAKE_KEYS if e.startswith(name.upper()))
    assert env in path.read_text().split("\n\n")[0]  # the comment header names it
    failure = error_of(path, {})
    assert env in str(failure)
    assert failure.keys[0].startswith("inference.t1[0]")
    assert FAKE_KEYS[env] not in str(failure)


def test_the_default_config_needs_no_key_and_shows_every_subsystem_soon() -> None:
    config = load_config(CONFIGS / "golem.toml", {})
    assert {e.provider for t in ("t1", "t2", "death") for e in config.inference.chain(t)} == {
        "local"
    }
    assert config.heartbeat.interval == timedelta(seconds=15)
    assert config.world.source == "simulated"
    assert config.subsystems.daimon.enabled
    for name, section in config.subsystems.jobs():
        assert section.enabled, name
        schedule = section.schedule
        if schedule.kind is ScheduleKind.INTERVAL:
            assert schedule.every is not None and schedule.every <= timedelta(minutes=5)
        else:
            assert schedule.kind is ScheduleKind.CRON
            assert schedule.cron_trigger() is not None


def test_an_empty_file_is_all_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ""), {})
    assert config.inference.chain("death") == (ChainEntry("local"),)
    assert config.log_file == Path("state") / "golem.log"
    assert config.world_seed == config.mortality_seed == 0


BAD = [
    pytest.param("[golem]\nid = 'g'\nname = 'x'\n", "golem.name", "unknown key", id="unknown-key"),
    pytest.param("[oracle]\nx = 1\n", "oracle", "unknown key", id="unknown-section"),
    pytest.param(
        "[mortality.vitality]\nsteepness = 2\n",
        "mortality.vitality.steepness",
        "unknown key",
        id="unknown-nested-key",
    ),
    pytest.param("[golem]\nseed = 'seven'\n", "golem.seed", "integer", id="wrong-type"),
    pytest.param(
        "[mortality]\ndaily_budget_usd = -1.0\n",
        "mortality.daily_budget_usd",
        "must be > 0",
        id="negative-budget",
    ),
    pytest.param(
        "[mortality]\ninitial_credits_usd = 0\n",
        "mortality.initial_credits_usd",
        "must be > 0",
        id="zero-credits",
    ),
    pytest.param(
        "[mortality]\ndaily_budget_usd = inf\n",
        "mortality.daily_budget_usd",
        "finite",
        id="infinite-budget",
    ),
    pytest.param(
        "[mortality.budgets]\nunlimited = []\n",
        "mortality.budgets.lines.death",
        "no budget line and not in unlimited",
        id="death-unfunded",
    ),
    pytest.param(
        "[mortality.budgets]\nunlimited = ['death', 'risk']\n"
        "[mortality.budgets.lines.risk]\nshare = 0.1\n",
        "mortality.budgets.lines.risk",
        "unlimited subsystem",
        id="line-and-unlimited",
    ),
    pytest.param(
        "[mortality.budgets.lines.oracle]\nshare = 0.1\n",
        "mortality.budgets.lines.oracle",
        "'heartbeat', 'risk'",
        id="line-of-no-subsystem",
    ),
    pytest.param(
        "[subsystems.curator]\nschedule = '*/5 * * *'\n",
        "subsystems.curator.schedule",
        "cron",
        id="cron-four-fields",
    ),
    pytest.param(
        "[subsystems.dream]\nschedule = '0 25 * * *'\n",
        "subsystems.dream.schedule",
        "cron",
        id="cron-bad-hour",
    ),
    pytest.param(
        "[subsystems.dream]\nschedule = '10 minutes'\n",
        "subsystems.dream.schedule",
        "cron",
        id="prose-schedule",
    ),
    pytest.param(
        "[subsystems.curator]\nschedule = '5x'\n",
        "subsystems.curator.schedule",
        "not a schedule",
        id="bad-interval",
    ),
    pytest.param(
        "[heartbeat]\ninterval = '0s'\n", "heartbeat.interval", "positive", id="zero-interval"
    ),
    pytest.param(
        "[heartbeat]\ninterval = 15\n", "heartbeat.interval", "as a string", id="number-interval"
    ),
    pytest.param(
        "[subsystems.oracle]\nenabled = true\n",
        "subsystems.oracle",
        "daimon, risk, curator, dream",
        id="unknown-subsystem",
    ),
    pytest.param(
        "[subsystems.curator]\nschedule = 'events'\n",
        "subsystems.curator.schedule",
        "an interval ('90s', '10m') or a cron expression",
        id="curator-on-events",
    ),
    # Removed keys: each refused with why (it changed nothing a golem does).
    pytest.param(
        "[subsystems.heartbeat]\nschedule = '1m'\n",
        "subsystems.heartbeat.schedule",
        "removed: the heartbeat is the tick and always runs; set its period in [heartbeat]",
        id="heartbeat-scheduled",
    ),
    pytest.param(
        "[subsystems.heartbeat]\n",
        "subsystems.heartbeat",
        "removed: the heartbeat is the tick",
        id="heartbeat-table",
    ),
    pytest.param(
        "[subsystems.death]\nenabled = false\n",
        "subsystems.death.enabled",
        "removed: death cannot be disabled",
        id="death-disabled",
    ),
    pytest.param(
        "[subsystems.risk]\nschedule = 'demand'\n",
        "subsystems.risk.schedule",
        "removed: risk runs on every trade proposal",
        id="risk-scheduled",
    ),
    pytest.param(
        "[subsystems.risk]\nenabled = false\n",
        "subsystems.risk.enabled",
        "removed: risk runs on every trade proposal",
        id="risk-disabled",
    ),
    pytest.param(
        "[subsystems.risk]\ndeliberation = 'always'\n",
        "subsystems.risk.deliberation",
        "'fixed' or 'stake'",
        id="risk-deliberation",
    ),
    pytest.param(
        "[subsystems.risk]\nsmall_stake = 0.3\n",
        "subsystems.risk",
        "small_stake must be below large_stake",
        id="risk-stakes-crossed",
    ),
    pytest.param(
        "[subsystems.risk]\nverdict_window = 'soon'\n",
        "subsystems.risk.verdict_window",
        "or 'off'",
        id="risk-verdict-window",
    ),
    pytest.param(
        "[cache]\nsubsystems = ['death']\n",
        "cache.subsystems[0]",
        "'heartbeat', 'risk' or 'daimon'",
        id="cache-death",
    ),
    pytest.param(
        "[subsystems.daimon]\nschedule = 'events'\n",
        "subsystems.daimon.schedule",
        "removed: the daimon appraises each tick's events",
        id="daimon-scheduled",
    ),
    pytest.param(
        "[world]\nsource = 'csv'\ncsv = 'no/such/market.csv'\n",
        "world.csv",
        "no such file",
        id="missing-csv",
    ),
    pytest.param("[world]\nsource = 'csv'\n", "world", "needs csv", id="csv-without-path"),
    pytest.param(
        "[world]\nsource = 'pigeon'\n",
        "world.source",
        "should be 'simulated', 'csv'",
        id="bad-source",
    ),
    pytest.param(
        "[world.market]\ninitial_price = -5\n",
        "world.market.initial_price",
        "must be > 0",
        id="bad-market",
    ),
    pytest.param(
        "[logging]\nlevel = 'chatty'\n", "logging.level", "'debug', 'info'", id="bad-level"
    ),
    pytest.param(
        "[inference]\nt1 = ['oracle']\n", "inference.t1[0]", "unknown provider", id="unknown-prov"
    ),
    pytest.param(
        "[inference]\nt2 = ['openai:']\n", "inference.t2[0]", "provider:model", id="bad-entry"
    ),
    pytest.param("[inference]\nt1 = []\n", "inference.t1", "at least 1", id="empty-chain"),
    pytest.param(
        "[inference]\nt1 = ['openai']\n", "inference.t1[0]", "names no model", id="no-model"
    ),
    pytest.param(
        "[inference.structured_outputs]\nmax_retries = 99\n",
        "inference.structured_outputs.max_retries",
        "<= 10",
        id="structured-outputs",
    ),
    pytest.param(
        "[inference.transport]\ntimeout = 3\n",
        "inference.transport.timeout",
        "unknown key",
        id="transport-key",
    ),
    pytest.param(
        "[providers.openai.models.'gpt-4.1'.price]\ninputs = 2.0\n",
        'providers.openai.models."gpt-4.1".price',
        "'inputs'",
        id="price-key",
    ),
    pytest.param(
        "[providers.openai]\ncapabilities = { tool_use = 'yes' }\n",
        "providers.openai.capabilities",
        "tool_use",
        id="capability-type",
    ),
    pytest.param(
        "[providers.mine]\nbase_url = 'http://localhost:1/v1'\n",
        "providers.mine",
        "codec family",
        id="provider-without-family",
    ),
    pytest.param(
        "[providers.mine]\nfamily = 'telepathy'\n",
        "providers.mine",
        "unknown codec family",
        id="provider-unknown-family",
    ),
    pytest.param(
        "[providers.openai]\napi_key = 'sk-in-the-file'\n",
        "providers.openai.api_key",
        "unknown key",
        id="key-in-file",
    ),
    pytest.param(
        "[providers.openai]\nthreads = 2\n", "providers.openai.threads", "unknown", id="threads"
    ),
    pytest.param(
        "[providers.local]\nmodel_path = 'no/such.gguf'\n",
        "providers.local.model_path",
        "no such file",
        id="missing-gguf",
    ),
    pytest.param(
        "[providers.local]\nthreads = 0\n", "providers.local.threads", ">= 1", id="local-threads"
    ),
    pytest.param(
        "[providers.local]\nfamily = 'openai-chat'\n",
        "providers.local.family",
        "unknown",
        id="local-family",
    ),
    pytest.param(
        "[inference]\nt1 = ['openai:gpt-9-imaginary']\n",
        "inference.t1[0]",
        "no price known",
        id="unpriced-paid-model",
    ),
]


@pytest.mark.parametrize(("text", "key", "words"), BAD)
def test_a_bad_config_names_the_file_and_the_key(
    tmp_path: Path, text: str, key: str, words: str
) -> None:
    path = write(tmp_path, text)
    failure = error_of(path, {"OPENAI_API_KEY": "sk-test-0123456789"})
    assert key in failure.keys, str(failure)
    line = next(line for line in str(failure).splitlines() if f": {key}: " in line)
    assert line.startswith(f"{path}: {key}: ")
    assert words in line
    assert "sk-test-0123456789" not in str(failure)
    assert sorted(tmp_path.iterdir()) == [path]  # nothing written


def test_one_budget_line_overrides_only_its_own_keys(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "[mortality.budgets.lines.risk]\nshare = 0.01\n"))
    lines, defaults = config.mortality.budgets.lines, BudgetPolicy().lines
    assert lines[SubsystemName.RISK] == BudgetLine(share=0.01)
    assert {k: v for k, v in lines.items() if k is not SubsystemName.RISK} == {
        k: v for k, v in defaults.items() if k is not SubsystemName.RISK
    }


def test_no_problem_shows_an_enum_repr(tmp_path: Path) -> None:
    text = "[mortality.budgets]\nunlimited = []\nnever_contracted = ['risk']\n"
    assert "<SubsystemName" not in str(error_of(write(tmp_path, text)))


def test_a_missing_file_is_said_plainly(tmp_path: Path) -> None:
    failure = error_of(tmp_path / "nope.toml")
    assert str(failure) == f"{tmp_path / 'nope.toml'}: no such file"


def test_a_directory_is_not_a_config(tmp_path: Path) -> None:
    assert "is a directory" in str(error_of(tmp_path))


def test_invalid_toml_reports_line_and_column(tmp_path: Path) -> None:
    failure = error_of(write(tmp_path, "[golem]\nid = 'g'\nseed = = 3\n"))
    assert "invalid TOML" in str(failure)
    assert "line 3" in str(failure) and "column" in str(failure)


def test_text_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "golem.toml"
    path.write_bytes(b"[golem]\nid = '\xff'\n")
    assert "not UTF-8" in str(error_of(path))


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    text = "[golem]\nx = 1\n[mortality]\ndaily_budget_usd = -1\n[subsystems.dream]\nschedule='?'\n"
    failure = error_of(write(tmp_path, text))
    assert set(failure.keys) == {
        "golem.x",
        "mortality.daily_budget_usd",
        "subsystems.dream.schedule",
    }
    assert len(str(failure).splitlines()) == 3


def test_a_removed_key_is_reported_beside_the_others_and_the_data_kept() -> None:
    data = {"golem": {"x": 1}, "subsystems": {"risk": {"enabled": True, "schedule": "demand"}}}
    with pytest.raises(ConfigError) as caught:
        parse_config(data)
    assert caught.value.keys == (
        "subsystems.risk.enabled",
        "subsystems.risk.schedule",
        "golem.x",
    )
    assert data["subsystems"] == {"risk": {"enabled": True, "schedule": "demand"}}


def test_a_used_provider_needs_its_key_variable_named_not_valued(tmp_path: Path) -> None:
    path = write(tmp_path, "[inference]\nt1 = ['openai:gpt-4.1-nano']\n")
    failure = error_of(path, {"OPENAI_API_KEY": ""})
    assert failure.keys == ("inference.t1[0]",)
    assert "OPENAI_API_KEY" in str(failure) and "unset" in str(failure)
    assert load_config(path, {"OPENAI_API_KEY": "sk-x"}).inference.t1 == ("openai:gpt-4.1-nano",)


def test_a_missing_key_is_said_once_though_every_tier_uses_it(tmp_path: Path) -> None:
    path = write(tmp_path, "[inference]\nt1 = ['anthropic:claude-haiku-4-5']\n")
    assert error_of(path, {}).keys == ("inference.t1[0]",)


def test_an_unused_provider_needs_no_key(tmp_path: Path) -> None:
    text = "[providers.openai]\ndefault_model = 'gpt-4.1-mini'\n"
    config = load_config(write(tmp_path, text), {})
    status = {s.provider: s for s in key_statuses(config, {})}["openai"]
    assert (status.used, status.status) == (False, "unset")


def test_keyless_local_servers_need_no_key(tmp_path: Path) -> None:
    text = "[inference]\nt1 = ['ollama:qwen3:8b', 'llama-cpp:gemma', 'local']\n"
    config = load_config(write(tmp_path, text), {})
    assert config.inference.chain("t1")[0] == ChainEntry("ollama", "qwen3:8b")
    assert {s.status for s in key_statuses(config, {})} == {"keyless"}


def test_a_new_provider_with_its_own_key_variable_and_prices(tmp_path: Path) -> None:
    text = """
[providers.acme]
kind = "openai-compatible"
base_url = "https://llm.acme.test/v1"
api_key_env = "ACME_KEY"
default_model = "acme-1"
models = { "acme-1" = { price = { input = 1.0, output = 2.0 } } }

[inference]
t1 = ["acme"]
"""
    path = write(tmp_path, text)
    assert "ACME_KEY" in str(error_of(path, {}))
    config = load_config(path, {"ACME_KEY": "acme-secret-value"})
    registry = build_registry(config)
    assert registry.profile("acme").api_key_env == "ACME_KEY"
    assert registry.price_for("acme", "acme-1") is not None
    assert secret_values(config, {"ACME_KEY": "acme-secret-value"}) == ("acme-secret-value",)


def test_price_overrides_reach_the_registry(tmp_path: Path) -> None:
    text = "[providers.openai.models.'gpt-4.1-nano']\nprice = { input = 9.0, output = 9.0 }\n"
    price = build_registry(load_config(write(tmp_path, text), {})).price_for(
        "openai", "gpt-4.1-nano"
    )
    assert price is not None and price.input == 9.0


def test_secret_values_are_every_known_key_in_the_environment() -> None:
    config = parse_config({})
    environ = {"OPENAI_API_KEY": "sk-a", "VENICE_API_KEY": "v-b", "HOME": "/root"}
    assert secret_values(config, environ) == ("sk-a", "v-b")


def test_the_csv_world_reads_a_file_that_exists(tmp_path: Path) -> None:
    csv = tmp_path / "market.csv"
    csv.write_text("time,price\n")
    config = load_config(write(tmp_path, f"[world]\nsource = 'csv'\ncsv = '{csv}'\n"), {})
    assert config.world.csv == csv


def test_chains_default_down_the_tiers(tmp_path: Path) -> None:
    text = "[inference]\nt1 = ['ollama:small']\nt2 = ['ollama:big']\n"
    config = load_config(write(tmp_path, text), {})
    assert config.inference.chain("death") == (ChainEntry("ollama", "big"),)
    assert config.inference.chain_key("death") == "inference.t2"


def test_the_local_model_s_settings_live_under_providers_local(tmp_path: Path) -> None:
    gguf = tmp_path / "other.gguf"
    gguf.write_bytes(b"GGUF")
    text = f"[providers.local]\nmodel_path = '{gguf}'\nthreads = 2\n"
    config = load_config(write(tmp_path, text), {})
    assert (config.providers.local.model_path, config.providers.local.threads) == (gguf, 2)
    assert [(s.provider, s.status) for s in key_statuses(config, {})] == [("local", "keyless")]


def test_a_bool_is_no_number_at_any_depth() -> None:
    """`true` where a number goes (pydantic's lax mode would read 1) is named, nested keys
    and all; a bool key still takes a bool."""
    with pytest.raises(ConfigError) as raised:
        parse_config(
            {
                "mortality": {"security": True, "initial_credits_usd": True},
                "world": {"market": {"lending": {"collateral_usd": False}}},
            }
        )
    assert raised.value.keys == (
        "mortality.initial_credits_usd",
        "world.market.lending.collateral_usd",
    )
    assert "takes a number, not false" in str(raised.value)
