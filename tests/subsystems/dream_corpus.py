"""Free-text dream answers as models write them, each with the fields it means: fragment
verdicts and scores, threats' severity and likelihood, replays' episode and surprise, and
integration (how many items land in each list)."""

from __future__ import annotations

from typing import Any

FRAGMENT: list[tuple[str, dict[str, Any]]] = [
    (
        "Novelty: 0.8\nRelevance: 0.7\nCoherence: 0.6\nVerdict: promote",
        {"verdict": "promote", "novelty": 0.8},
    ),
    ("This fragment is incoherent noise. Discard.", {"verdict": "discard"}),
    (
        (
            "Interesting but untested; let's stage it for now. Novelty high, relevance medium, "
            "coherence 0.5."
        ),
        {"verdict": "stage", "novelty": 0.75},
    ),
    ("verdict=stage novelty=.6 relevance=.4 coherence=.7", {"verdict": "stage", "coherence": 0.7}),
    ("I wouldn't promote this yet, it needs more evidence. Stage.", {"verdict": "stage"}),
    (
        (
            "Not worth keeping: it contradicts itself and has nothing to do with our positions. "
            "Throw it out."
        ),
        {"verdict": "discard"},
    ),
    (
        "**Verdict:** Promote — it is novel (0.9), relevant (0.8) and coherent (0.7).",
        {"verdict": "promote"},
    ),
    (
        (
            "The idea that funding flips precede reversals is plausible and relevant. I'd promote "
            "it to staged knowledge. Coherence 80%."
        ),
        {"verdict": "promote", "coherence": 0.8},
    ),
    (
        "Neither discard nor promote: hold it in staging until replay tests it.",
        {"verdict": "stage"},
    ),
    ("novel yes relevant kinda coherent not really so discard discard", {"verdict": "discard"}),
    (
        (
            "Decision: keep for later review (stage). Scores: novelty 6/10, relevance 5/10, "
            "coherence 7/10."
        ),
        {"verdict": "stage", "novelty": 0.6},
    ),
    ("Too vague to act on. Drop it.", {"verdict": "discard"}),
    (
        "Promote? Yes. The fragment is coherent (0.75) and highly relevant (0.9).",
        {"verdict": "promote"},
    ),
]

THREAT: list[tuple[str, dict[str, Any]]] = [
    (
        (
            "Threat: oracle manipulation on the lending pool\nSeverity: high\nLikelihood: 0.3\n"
            "Mitigation:\n- cap exposure\n- watch the TWAP"
        ),
        {"severity": "high", "likelihood": 0.3},
    ),
    (
        "A flash crash of 20% is a medium severity threat with maybe 15% probability.",
        {"severity": "medium", "likelihood": 0.15},
    ),
    (
        "Scenario: stablecoin depeg. Severity: moderate. Likelihood: low.",
        {"severity": "medium", "likelihood": 0.25},
    ),
    (
        (
            "Threat type: liquidation cascade\nSeverity: critical\nLikelihood: 40%\nMitigation "
            "actions: add collateral; reduce leverage"
        ),
        {"severity": "critical", "likelihood": 0.4},
    ),
    (
        "The risk of a governance attack is low (likelihood 5%), and its impact would be minor.",
        {"severity": "low", "likelihood": 0.05},
    ),
    (
        "severity=high likelihood=.2 threat_type=bridge exploit "
        "mitigation_actions=['cap bridged assets', 'watch the relayer']",
        {"severity": "high", "likelihood": 0.2},
    ),
    (
        "Gas spike threat. Not critical, more of a medium concern. Chance: about one in five.",
        {"severity": "medium"},
    ),
    (
        (
            "**Threat:** MEV sandwiching\n**Severity:** Low\n**Likelihood:** 0.6\n**Mitigation:** "
            "use a private RPC"
        ),
        {"severity": "low", "likelihood": 0.6},
    ),
    (
        (
            "Liquidity drain in the main pool. This is serious: severity high, 30% chance in the "
            "next week. Mitigate by splitting the position."
        ),
        {"severity": "high", "likelihood": 0.3},
    ),
    (
        (
            "Threat: smart contract exploit. Severity: catastrophic. Likelihood: 0.1. "
            "Mitigations: withdraw from unaudited pools."
        ),
        {"severity": "critical", "likelihood": 0.1},
    ),
    (
        (
            "I rate this threat as HIGH with a likelihood of 25%. Detection signals: TVL "
            "outflows, oracle deviation. To mitigate, keep collateral on two oracles."
        ),
        {"severity": "high", "likelihood": 0.25},
    ),
]

REPLAY: list[tuple[str, dict[str, Any]]] = [
    (
        (
            "Episode: ep-42\nLessons:\n- hedges paid in volatile regimes (confidence 0.8)\n- "
            "exits late cost 3%\nSurprise: 0.6\nArousal delta: 0.2"
        ),
        {"episode_id": "ep-42", "surprise_score": 0.6, "arousal_delta": 0.2},
    ),
    (
        ("Replaying episode 17: the lesson is that funding flips precede reversals. Surprise 0.3."),
        {"episode_id": "17", "surprise_score": 0.3},
    ),
    (
        "episode_id=ep-9 surprise_score=.7 arousal_delta=-.1",
        {"episode_id": "ep-9", "surprise_score": 0.7, "arousal_delta": -0.1},
    ),
    (
        (
            "## Episode\nep-5\n## Lessons\n1. Volume spikes in calm markets are noise.\n2. Do not "
            "chase breakouts in a crash.\n## Counterfactuals\n- hedge instead of holding -> saved "
            "2% (plausibility 0.6)"
        ),
        {"episode_id": "ep-5"},
    ),
    (
        (
            "I reviewed 3 episodes, the latest ep-30. Surprise was high. Lesson: trust the health "
            "factor probe."
        ),
        {"episode_id": "ep-30", "episodes_reviewed": 3, "surprise_score": 0.75},
    ),
    (
        "What surprised me most (about 80%) in episode #12 was the speed of the cascade.",
        {"episode_id": "12", "surprise_score": 0.8},
    ),
    (
        (
            "Episode ep-3. Counterfactual: if we had exited early, we would have saved 5%. "
            "Plausibility 70%."
        ),
        {"episode_id": "ep-3"},
    ),
    (
        (
            "Lessons learned from ep-8: - stops get hunted in chop - rebalancing weekly beats "
            "daily. Arousal should drop a little (-0.2)."
        ),
        {"episode_id": "ep-8"},
    ),
    (
        (
            "Episode: ep-11\nSurprise score: 0.1\nNothing new learned; the market behaved as "
            "expected."
        ),
        {"episode_id": "ep-11", "surprise_score": 0.1},
    ),
    (
        (
            "Key takeaways (episode ep-20):\n* volatility clusters\n* liquidity thins on "
            "weekends\nsurprise: moderate"
        ),
        {"episode_id": "ep-20", "surprise_score": 0.5},
    ),
    # Written with the second development corpus's misses in view: surprise in words, lessons
    # as numbered labels, counted headings, inline numbers, a bare heading.
    (
        "Episode ep-61 was only mildly surprising: the dip ran deeper than the model expected.\n"
        "Lesson 1: size down before CPI prints\nLesson 2: the oracle lags on fast moves",
        {"episode_id": "ep-61", "surprise_score": 0.3, "lessons": 2},
    ),
    (
        "The liquidation wave in ep-70 came as a shock. Three lessons:\n1) keep a buffer above "
        "HF 1.5\n2) exits cost more in thin books\n3) gas doubles during cascades",
        {"episode_id": "ep-70", "surprise_score": 0.85, "lessons": 3},
    ),
    (
        "ep-72 played out as expected. My takeaway: rebalancing on a schedule beats rebalancing "
        "on signals.",
        {"episode_id": "ep-72", "surprise_score": 0.1, "lessons": 1},
    ),
    (
        "Honestly a big surprise (ep-75). Takeaways: (1) funding leads spot; (2) weekend books "
        "are thin.",
        {"episode_id": "ep-75", "surprise_score": 0.8, "lessons": 2},
    ),
    (
        "Not particularly surprising. No lessons worth keeping from ep-80.",
        {"episode_id": "ep-80", "surprise_score": 0.1, "lessons": 0},
    ),
    (
        "Lessons\n- stops below round numbers get hit\n- LP fees lag IL in trends\n\n"
        "surprise_score=0.35 episode_id=ep-83",
        {"episode_id": "ep-83", "surprise_score": 0.35, "lessons": 2},
    ),
]

INTEGRATION: list[tuple[str, dict[str, Any]]] = [
    (
        (
            "Promoted:\n- [h1] funding flips precede reversals (0.8)\nStaged:\n- [h2] weekend "
            "liquidity is thin (0.5)\nDiscarded:\n- [h3] moon phase matters"
        ),
        {"promoted": 1, "staged": 1, "discarded": 1},
    ),
    (
        "Promote h1 (confidence 0.8). Stage h2. Discard h3.",
        {"promoted": 1, "staged": 1, "discarded": 1},
    ),
    (
        (
            "**Promoted**\n1. Volatility clusters - held in 3 replays (0.75)\n**Discarded**\n1. "
            "Gas price predicts direction"
        ),
        {"promoted": 1, "staged": 0, "discarded": 1},
    ),
    (
        "promoted: none\nstaged: [h4] oracles lag in fast markets (0.6)\ndiscarded: none",
        {"promoted": 0, "staged": 1, "discarded": 0},
    ),
    (
        (
            "- promote: hedging early beats hedging late (0.7)\n- stage: weekly rebalancing is "
            "enough\n- discard: RSI divergence on 1m"
        ),
        {"promoted": 1, "staged": 1, "discarded": 1},
    ),
    ("Nothing to integrate this cycle.", {"promoted": 0, "staged": 0, "discarded": 0}),
    (
        (
            "Promoted: h7 — confirmed by two episodes (conf 0.9)\nStaged: h8 — needs more "
            "evidence\nPlaybook diff: add a rule to hedge when funding flips negative."
        ),
        {"promoted": 1, "staged": 1, "discarded": 0},
    ),
    (
        "Keep h1 and h2 staged, promote h3 (0.85), and drop h4.",
        {"promoted": 1, "staged": 2, "discarded": 1},
    ),
    (
        (
            "## Promote\n- [g-3] liquidation cascades start on thin books (0.8)\n## Stage\n- "
            "[g-4] stablecoin depegs recover within a day\n## Discard\n(nothing)"
        ),
        {"promoted": 1, "staged": 1, "discarded": 0},
    ),
    (
        (
            "Items:\n1. promote: momentum persists in trends (0.7)\n2. discard: Tuesday effect\n"
            "3. stage: funding skew predicts tops"
        ),
        {"promoted": 1, "staged": 1, "discarded": 1},
    ),
    # Written with the second development corpus's misses in view: ids inline under headings,
    # several fates in one sentence, count-only fields, items listed in parentheses.
    (
        "Promote: h-20, h-21\nStage: h-22 and h-23\nDiscard: none",
        {"promoted": 2, "staged": 2, "discarded": 0},
    ),
    (
        "Promote none; stage 2 hypotheses (h-40, gas spikes precede liquidations; h-41, funding "
        "leads spot); discard 1 (h-42, the Tuesday effect).",
        {"promoted": 0, "staged": 2, "discarded": 1},
    ),
    (
        "h-50 promoted, h-51 and h-52 staged, h-53 discarded.",
        {"promoted": 1, "staged": 2, "discarded": 1},
    ),
    (
        "To promote:\n- [h-60] exits on the second HF alert (0.7)\nTo stage:\n- [h-61] narrower "
        "LP ranges in calm markets\nTo discard: nothing",
        {"promoted": 1, "staged": 1, "discarded": 0},
    ),
    (
        "promoted=0 staged=2 discarded=0\nStaging h-64 and h-65 until more replays confirm them.",
        {"promoted": 0, "staged": 2, "discarded": 0},
    ),
    (
        "Promoting h-70 (funding flips, 0.8). Dropping h-71 and h-72: both were contradicted.",
        {"promoted": 1, "staged": 0, "discarded": 2},
    ),
]
