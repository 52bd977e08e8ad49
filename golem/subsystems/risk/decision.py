"""RiskAssessment: the five-layer check of a proposed action (hard shields, position
sizing, adaptive guardrails, observation, DeFi threats) that approves it, caps its size or
blocks it, with non-blocking warnings (its layers are layers.py's, its text reader
reading.py's)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from pydantic import Field

from golem.inference import SchemaIssue, StructuredOutput, WorkedExample
from golem.inference.narrow import Change, either, keywords, narrowed
from golem.subsystems.meaning import has_words, items_have_words, nonzero
from golem.subsystems.parts import ListItem
from golem.subsystems.risk.layers import FAIL_AT_LEAST, LAYERS, PASS_AT_MOST, RiskLayers
from golem.subsystems.risk.reading import read_assessment
from golem.subsystems.text import decision_from_text

__all__ = ["RiskAssessment", "risk_meaningful"]

MAX_USD = 1e9


# Shown to a small model (a provider whose capabilities ask for worked examples).
EXAMPLES = (
    WorkedExample(
        "Proposed trade: sell 200 USD of BTC; portfolio 1,000 USD, 60% BTC; calm market.",
        {
            "approved": True,
            "adjusted_size_usd": None,
            "layers": {
                "hard_shields": {
                    "passed": True,
                    "score": 0.1,
                    "detail": "sell 200 USD of BTC is within limits",
                },
                "position_sizing": {
                    "passed": True,
                    "score": 0.2,
                    "detail": "60% BTC falls to 40% BTC",
                },
                "adaptive_guardrails": {
                    "passed": True,
                    "score": 0.1,
                    "detail": "selling BTC in a calm market lowers risk",
                },
                "observation": {"passed": True, "score": 0.2, "detail": "a calm market for BTC"},
                "defi_threats": {
                    "passed": True,
                    "score": 0.1,
                    "detail": "the 1,000 USD portfolio holds no loan",
                },
            },
            "warnings": ["60% BTC of 1,000 USD is concentrated"],
            "reasoning": "Selling 200 USD of BTC cuts 60% BTC to 40% BTC in a calm market.",
            "proposed_size_usd": 200.0,
        },
    ),
    WorkedExample(
        "Proposed trade: buy 900 USD of SOL; portfolio 1,500 USD, 50% SOL; volatile market.",
        {
            "approved": False,
            "adjusted_size_usd": None,
            "layers": {
                "hard_shields": {
                    "passed": True,
                    "score": 0.3,
                    "detail": "buy 900 USD of SOL is within limits",
                },
                "position_sizing": {
                    "passed": False,
                    "score": 0.8,
                    "detail": "SOL would rise from 50% to 80% of the portfolio",
                },
                "adaptive_guardrails": {
                    "passed": True,
                    "score": 0.5,
                    "detail": "a volatile market for SOL",
                },
                "observation": {"passed": True, "score": 0.4, "detail": "SOL in a volatile market"},
                "defi_threats": {
                    "passed": True,
                    "score": 0.2,
                    "detail": "the 1,500 USD portfolio holds no loan",
                },
            },
            "warnings": ["buy 900 USD of SOL in a volatile market"],
            "reasoning": "Buying 900 USD of SOL would put 80% of the portfolio in one token.",
            "proposed_size_usd": 900.0,
        },
    ),
)


class RiskAssessment(StructuredOutput):
    """Whether a proposed action may go ahead, and at what size."""

    schema_name = "risk_assessment"
    worked_examples = EXAMPLES

    approved: bool
    adjusted_size_usd: float | None = Field(
        default=None, ge=0, le=MAX_USD, description="a smaller size to allow; null: as proposed"
    )
    layers: RiskLayers
    warnings: list[ListItem] = Field(
        default_factory=list, max_length=5, description="non-blocking concerns"
    )
    reasoning: str | None = Field(default=None, max_length=400)
    proposed_size_usd: float | None = Field(
        default=None, ge=0, le=MAX_USD, description="the size proposed, as given; null if none"
    )

    @classmethod
    def narrowed_schema(cls, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """An approval whose every layer passes (score <= 0.7), or a rejection with a
        warning and no size, whose layers each pass or fail (score >= 0.3)."""
        passing = {"/passed": keywords(const=True), "/score": keywords(maximum=PASS_AT_MOST)}
        failing = {"/passed": keywords(const=False), "/score": keywords(minimum=FAIL_AT_LEAST)}

        def passes(layer: Mapping[str, Any]) -> dict[str, Any]:
            return narrowed(layer, passing)

        def either_way(layer: Mapping[str, Any]) -> dict[str, Any]:
            return either(layer, passing, failing)

        approve: dict[str, Change] = {"/approved": keywords(const=True)}
        reject: dict[str, Change] = {
            "/approved": keywords(const=False),
            "/adjusted_size_usd": keywords(anyOf=[{"type": "null"}]),
            "/warnings": keywords(minItems=1),
        }
        for name in LAYERS:
            approve[f"/layers/{name}"] = passes
            reject[f"/layers/{name}"] = either_way
        return either(schema, approve, reject)

    @property
    def risk_score(self) -> float:
        """The overall risk: the riskiest layer's score."""
        layers = self.layers
        return max(
            layers.hard_shields.score,
            layers.position_sizing.score,
            layers.adaptive_guardrails.score,
            layers.observation.score,
            layers.defi_threats.score,
        )

    def validate_content(self) -> list[SchemaIssue]:
        issues = []
        layers = dict(self.layers)
        failing = [name for name, layer in layers.items() if not layer.passed]
        if self.approved and failing:
            issues.append(SchemaIssue("/approved", f"approved although {failing[0]} fails"))
        if not (self.approved or failing or self.warnings):
            issues.append(
                SchemaIssue("/approved", "rejected although every layer passes, unwarned")
            )
        for name, layer in layers.items():
            if layer.passed and layer.score > PASS_AT_MOST:
                issues.append(
                    SchemaIssue(f"/layers/{name}/score", f"a pass needs score <= {PASS_AT_MOST}")
                )
            if not layer.passed and layer.score < FAIL_AT_LEAST:
                issues.append(
                    SchemaIssue(f"/layers/{name}/score", f"a fail needs score >= {FAIL_AT_LEAST}")
                )
        adjusted, proposed = self.adjusted_size_usd, self.proposed_size_usd
        if adjusted is not None and not self.approved and adjusted > 0:
            issues.append(SchemaIssue("/adjusted_size_usd", "a rejection allows no size"))
        if adjusted is not None and proposed is not None and adjusted > proposed:
            issues.append(
                SchemaIssue("/adjusted_size_usd", "the adjusted size exceeds the proposed size")
            )
        for i, warning in enumerate(self.warnings):
            if not warning.strip():
                issues.append(SchemaIssue(f"/warnings/{i}", "an empty warning"))
        return issues

    @classmethod
    def from_text(cls, text: str) -> Self:
        return decision_from_text(cls, text, read_assessment)


def risk_meaningful(decision: RiskAssessment, prompt: str) -> list[str]:
    """Each layer's detail in words, the layers' scores not all zero, warnings that are not
    placeholders."""
    layers = [(name, getattr(decision.layers, name)) for name in LAYERS]
    problems = [p for name, layer in layers for p in has_words(layer.detail, f"/layers/{name}", 1)]
    problems += nonzero([layer.score for _, layer in layers], "/layers/*/score")
    return problems + items_have_words(decision.warnings, "/warnings")
