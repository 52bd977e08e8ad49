"""SyntheticConfig: the `[providers.synthetic]` table. Which provider the synthetic one
emulates, its seed, its token distributions and its fault rates; all plain data."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from golem.inference.seed import Seed

__all__ = ["FaultRates", "SyntheticConfig", "TokenModel"]


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class TokenModel(_Table):
    """How many tokens a call reports. Input ≈ prompt chars ÷ chars_per_token, output ≈
    answer chars ÷ chars_per_token, each times a lognormal factor of spread `noise`;
    reasoning ≈ `reasoning_fraction` of the depth's budget, times a lognormal factor."""

    chars_per_token: float = Field(default=4.0, gt=0)
    noise: float = Field(default=0.08, ge=0, le=2)
    reasoning_fraction: float = Field(default=0.25, ge=0, le=1)
    reasoning_noise: float = Field(default=0.5, ge=0, le=3)
    cached_fraction: float = Field(default=0.0, ge=0, le=1)  # of input served from cache


class FaultRates(_Table):
    """The chance, per call, of each fault (at most one fault a call)."""

    rate_limit: float = Field(default=0.0, ge=0, le=1)  # HTTP 429: RateLimited
    server_error: float = Field(default=0.0, ge=0, le=1)  # HTTP 5xx: ServerError
    malformed_json: float = Field(default=0.0, ge=0, le=1)  # truncated / trailing comma
    schema_invalid: float = Field(default=0.0, ge=0, le=1)  # a wrong enum, a number out of range
    prose: float = Field(default=0.0, ge=0, le=1)  # labelled prose instead of JSON
    retry_after_s: float = Field(default=2.0, ge=0)  # the most a 429 asks to wait

    @model_validator(mode="after")
    def _at_most_one(self) -> FaultRates:
        if self.total > 1:
            raise ValueError(f"fault rates add up to {self.total:g}, more than 1")
        return self

    @property
    def total(self) -> float:
        return (
            self.rate_limit
            + self.server_error
            + self.malformed_json
            + self.schema_invalid
            + self.prose
        )


class SyntheticConfig(_Table):
    """The `[providers.synthetic]` section: `emulate` names a provider of the registry
    (its wire format, codec and prices are used), `model` one of its models. To try golem
    with no key and no network, name `synthetic` (or `synthetic:MODEL`) in the chains:

        [inference]
        t1 = ["synthetic"]
        t2 = ["synthetic:claude-sonnet-4"]

        [providers.synthetic]
        emulate = "anthropic"
        model = "claude-haiku-4-5"
        seed = 1
        faults = { rate_limit = 0.02, schema_invalid = 0.05 }
        tokens = { reasoning_fraction = 0.3 }

    `compromised`: the chance that a call whose prompt showed an instruction in external
    text (a world-feed item a scenario labels with the action it `asks` for) obeys it,
    proposing or approving exactly that action: the attack simulation's model. 0: never.
    """

    emulate: str = Field(default="openai", min_length=1)
    model: str = Field(default="gpt-4o-mini", min_length=1)
    seed: Seed = 0
    prose_wrap: float = Field(default=0.3, ge=0, le=1)  # prompt-guided JSON in prose/fences
    tokens: TokenModel = TokenModel()
    faults: FaultRates = FaultRates()
    compromised: float = Field(default=0.0, ge=0, le=1)
