"""Context engineering: what each pipeline profile puts around a subsystem's question.

Every model call's prompt is assembled here (`assemble`), from the subsystem's Brief and
the golem's Situation, running the layers its profile names (see `layers` for L1 to L8):
the state, the observation window and world feed, the probes, retrieved knowledge and
episodes, the call's budget, identifier masking and injection screening. The result is
the Request and a ContextReport for the decision log: layers run, tokens, what was cut,
masked or quarantined.
"""

from golem.subsystems.context.assemble import (
    PERSONA,
    ContextReport,
    Prompt,
    Quarantined,
    assemble,
)
from golem.subsystems.context.layers import (
    PROFILE_LAYERS,
    ContextSettings,
    Layer,
    ProfileLimits,
)
from golem.subsystems.context.masking import Masker
from golem.subsystems.context.recall import Memory, WithoutFeed, estimate_regime, words_of
from golem.subsystems.context.render import (
    CallBudget,
    entry_line,
    episode_line,
    knowledge_line,
    probe_lines,
    state_lines,
)
from golem.subsystems.context.screening import DATA_RULE, Screened, delimit, screen
from golem.subsystems.context.tokens import TokenCounter, estimate_tokens

__all__ = [
    "DATA_RULE",
    "PERSONA",
    "PROFILE_LAYERS",
    "CallBudget",
    "ContextReport",
    "ContextSettings",
    "Layer",
    "Masker",
    "Memory",
    "ProfileLimits",
    "Prompt",
    "Quarantined",
    "Screened",
    "TokenCounter",
    "WithoutFeed",
    "assemble",
    "delimit",
    "entry_line",
    "episode_line",
    "estimate_regime",
    "estimate_tokens",
    "knowledge_line",
    "probe_lines",
    "screen",
    "state_lines",
    "words_of",
]
