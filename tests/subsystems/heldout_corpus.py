"""A held-out corpus of free-text model answers for every decision schema's from_text; since
seen, and the readers reworked with its misses in view, it is now a second development corpus
(see test_from_text_heldout.py).

Written without looking at the readers (golem/subsystems/text.py, the schemas' from_text) or at
the development corpus they were tuned on, so that it measures them honestly. The answers are
written as models write them: labelled fields in many forms, synonyms for the enum words,
negation and hedging, several enum words where only one is the call, small-model run-ons,
stray preambles, answers cut off mid-sentence.

Each entry is (answer, labels). The labels are what a careful human reads the answer to mean;
an answer carries only the labels its text determines. Label names per schema:

- heartbeat_decision: severity, action (the seed's enum words).
- risk_assessment: approved; adjusted_size_usd where the text states one (a number, or None
  where the text says null explicitly).
- daimon_appraisal: primary_emotion (a Plutchik label).
- curator_evaluation: entries_evaluated, entries_retained, entries_pruned where stated.
- replay_analysis: surprise (a bucket of surprise_score: low < 0.34 <= medium <= 0.66 < high)
  and lessons (how many lessons the answer lists).
- fragment_evaluation: verdict.
- dream_integration: promoted, staged, discarded (how many of each).
- threat_assessment: severity; threat_type where stated, as a phrase the read threat_type
  must contain (case-insensitive).
"""

from __future__ import annotations

Labels = dict[str, object]
Corpus = list[tuple[str, Labels]]

HEARTBEAT: Corpus = [
    (
        "Sure! Here is my analysis:\n\nETH is at $3,412, down 0.4% over the last hour. Volume "
        "is in line with the 24h average and the Aave health factor sits at 2.31. Nothing "
        "notable here.\n\nSeverity: none\nAction: observe",
        {"severity": "none", "action": "observe"},
    ),
    (
        "**Severity** - moderate\n**Action** - analyze\n\nFunding on ETH perps flipped to "
        "-0.012% while spot held at $3,180. That divergence is worth a closer look over the "
        "next few ticks, but nothing requires a trade yet.",
        {"severity": "moderate", "action": "analyze"},
    ),
    (
        "severity=none action=observe confidence=0.9 rationale=price flat, HF 2.8, volume normal",
        {"severity": "none", "action": "observe"},
    ),
    (
        '```json\n{"severity": "high", "action": "hedge", "confidence": .72, "rationale": "ETH '
        'dropped 6.1% in 40 minutes and our health factor fell from 1.92 to 1.58", "signals": '
        '[{"source": "price", "description": "-6.1% in 40m", "magnitude": 0.8}, {"source": '
        '"liquidity", "description": "HF 1.58", "magnitude": 0.6}], "escalate": false}\n```',
        {"severity": "high", "action": "hedge"},
    ),
    (
        "| Field | Value |\n|---|---|\n| Severity | Medium |\n| Action | Rebalance |\n"
        "| Confidence | 65% |\n\nThe LP position drifted to 71% ETH / 29% USDC after the move to "
        "$3,650; bringing it back to 50/50 is the call.",
        {"severity": "moderate", "action": "rebalance"},
    ),
    (
        # Negation: exit and hedge are named and both declined; "keep watching" is the call.
        "I don't think we need to exit here. ETH bounced off $2,950 and the health factor is "
        "still 1.74, comfortably above the 1.5 floor. Severity is low. I'd keep watching rather "
        "than hedge right now.",
        {"severity": "low", "action": "observe"},
    ),
    (
        "This is outside what I can judge confidently: a governance proposal to cut the Aave "
        "ETH LTV from 80.5% to 75% just entered voting, and our loop is sized against the "
        "current LTV. Severity: high. Recommended action: escalate to a stronger model for a "
        "full review before we touch the position.",
        {"severity": "high", "action": "escalate"},
    ),
    (
        # A small model: run-on and repetitive; "close the position" is exit.
        "The price of ETH has gone down and the price of ETH is now 2,870 which is lower than "
        "before and the health factor is 1.31 which is lower than before so the risk is high "
        "and the risk is high because the health factor is low so we should close the position "
        "to be safe and close the position before liquidation. severity high action exit",
        {"severity": "high", "action": "exit"},
    ),
    (
        # Cut off mid-sentence after the fields.
        "Sure! Here is my analysis:\n\nSeverity: critical\nAction: exit\n\nThe health factor on "
        "the Aave position is 1.06 after ETH fell 11% to $2,640 in under an hour. Liquidation "
        "starts at 1.0, and with funding at -0.09% the sell pressure is likely to contin",
        {"severity": "critical", "action": "exit"},
    ),
    (
        "- Severity: low\n- Action: observe\n- Confidence: 0.8\n- Signals:\n"
        "  - price: ETH -1.2% in 1h (magnitude 0.2)\n  - volume: 1.3x average (magnitude 0.3)\n\n"
        "A small dip on slightly elevated volume, within normal noise.",
        {"severity": "low", "action": "observe"},
    ),
    (
        # Three actions weighed; the call is the third.
        "Options I considered:\n1. Exit - too drastic; HF is 1.62 and the drop is only 3.4%.\n"
        "2. Hedge with a short perp - funding is expensive at 0.05%/8h.\n3. Rebalance - reduce "
        "exposure by moving 20% of the ETH leg into USDC.\n\nMy call: option 3, rebalance. "
        "Severity: moderate.",
        {"severity": "moderate", "action": "rebalance"},
    ),
    (
        "Nothing notable this tick. ETH $3,301 (+0.2%), gas 14 gwei, HF 2.05. No concern. "
        "Continue observing.",
        {"severity": "none", "action": "observe"},
    ),
    (
        # "Reduce exposure" by shorting a perp against the spot: a hedge, as the text says.
        "Severity: Moderate\nAction: Hedge\n\nWe are long 42 ETH of spot via the vault and "
        "implied vol jumped from 48 to 67 ahead of the FOMC print. I'd reduce exposure by "
        "opening a short perp for roughly half the delta rather than selling spot.",
        {"severity": "moderate", "action": "hedge"},
    ),
    (
        "Action: investigate. Volume on the ETH/USDC 0.05% pool is 4.3x its 24h average with no "
        "matching price move (+/-0.3%). Could be a large rebalancer or wash activity. Severity "
        "low for now.",
        {"severity": "low", "action": "analyze"},
    ),
    (
        "ETH is grinding lower (-2.8% on the day, $3,045) and funding turned slightly negative. "
        "Not yet a reason to hedge or to exit - the health factor is 1.88. I'd look closer over "
        "the next few ticks to see if the move extends. I'd put severity at moderate.",
        {"severity": "moderate", "action": "analyze"},
    ),
    (
        "SEVERITY: CRITICAL. ACTION: EXIT ALL POSITIONS NOW. The USDC/USD oracle is reporting "
        "0.87 and the lending market we are in accepts USDC as collateral at par. This is a "
        "depeg event.",
        {"severity": "critical", "action": "exit"},
    ),
    (
        "severity: high / action: escalate\nreason: the Chainlink ETH feed hasn't updated for "
        "2h14m (its heartbeat is 1h) and the Uniswap TWAP disagrees by 3.9%. I can't tell which "
        "is right; this needs the stronger model.",
        {"severity": "high", "action": "escalate"},
    ),
    (
        # A small model reasoning aloud: exit is a condition that does not hold; hedge is the call.
        "Okay. Let me think. The health factor is 1.45. The health factor is below 1.5. If the "
        "health factor goes below 1.2 we should exit. The health factor is not below 1.2. So we "
        "should not exit. We should hedge. Hedge. Severity is high.",
        {"severity": "high", "action": "hedge"},
    ),
    (
        "Assessment: medium severity. Recommendation: trim the ETH leg back to target weight "
        "(currently 64% vs 50% target), i.e. rebalance. No hedge needed; volatility is normal "
        "at 41% annualized.",
        {"severity": "moderate", "action": "rebalance"},
    ),
    (
        # JSON cut off inside the signals.
        '{"severity": "low", "action": "observe", "confidence": 0.85, "rationale": "ETH up 1.1% '
        'with volume at 0.9x average; HF 2.4. Nothing to do.", "signals": [{"source": "price", '
        '"description": "+1.1% in 1h", "magni',
        {"severity": "low", "action": "observe"},
    ),
    (
        "I would not rebalance yet. The drift is only 3 percentage points from target and gas "
        "is at 61 gwei, so the cost would eat most of the benefit. Severity: low. Action: observe.",
        {"severity": "low", "action": "observe"},
    ),
    (
        "Close the position. The borrow rate on USDC just spiked to 38% APR after utilization "
        "hit 97%, and our carry trade earns 6%. Every hour we stay open costs money. I'd rate "
        "this high severity.",
        {"severity": "high", "action": "exit"},
    ),
    (
        "## Summary\nModerate stress. ETH -4.6% in 2h, funding -0.03%, HF 1.57.\n\n## Decision\n"
        "Hedge: short 10 ETH on the perp to neutralize roughly a quarter of the delta.\n\n"
        "## Why not exit\nThe position is still well collateralized and exiting would "
        "crystallize the loss.",
        {"severity": "moderate", "action": "hedge"},
    ),
    (
        "Severity .. none really. Price is flat at 3,120, the pool's TVL moved +0.4%. I'd just "
        "keep an eye on it. action: observe",
        {"severity": "none", "action": "observe"},
    ),
    (
        # Exit considered and set aside; escalate is the stated action.
        "Given the 9% drop and a health factor of 1.21, this is critical. I'd normally exit, but "
        "liquidity on the ETH/USDC pool is thin (depth at 2% is $180k) and a market exit would "
        "slip badly. Escalate to a stronger model to plan an orderly unwind. Severity: "
        "critical, Action: escalate.",
        {"severity": "critical", "action": "escalate"},
    ),
]

RISK: Corpus = [
    (
        "Approved. The $4,000 swap into stETH is 8% of the portfolio, under the 15% cap; the "
        "health factor after the trade is 2.1. All five layers pass.",
        {"approved": True},
    ),
    (
        "Sure! Here is my assessment:\n\nApproved: no\n\nThe proposed 3x leverage loop would take "
        "the health factor to 1.18, below the 1.3 hard shield. Reject.",
        {"approved": False},
    ),
    (
        "approved=true adjusted_size_usd=2500 - the request was $5,000 but volatility is at 82% "
        "annualized, so halve it.",
        {"approved": True, "adjusted_size_usd": 2500.0},
    ),
    (
        "I would not approve this. Pool depth at 1% is only $60k and the proposed $45,000 swap "
        "would move the price about 3.4%.",
        {"approved": False},
    ),
    (
        '{"approved": false, "adjusted_size_usd": null, "warnings": ["oracle stale 47 min"], '
        '"reasoning": "the ETH oracle has not updated in 47 minutes"}',
        {"approved": False, "adjusted_size_usd": None},
    ),
    (
        "Decision: APPROVE with reduced size\nAdjusted size: $1.2k (from $3k)\nWarnings:\n"
        "- funding at 0.07%/8h\n- concentration 38%",
        {"approved": True, "adjusted_size_usd": 1200.0},
    ),
    (
        "| Layer | Result | Score |\n|---|---|---|\n| hard_shields | pass | 0.1 |\n"
        "| position_sizing | pass | 0.3 |\n| adaptive_guardrails | FAIL | 0.8 |\n"
        "| observation | pass | 0.4 |\n| defi_threats | pass | 0.2 |\n\n**Verdict:** rejected - "
        "the golem is in its conservation phase and vitality is 0.22, which caps new risk.",
        {"approved": False},
    ),
    (
        "Yes, go ahead. The hedge reduces risk rather than adding it: a $6,500 short perp "
        "against 2 ETH of spot collateral.",
        {"approved": True},
    ),
    (
        # "can't approve the full amount" but approves a smaller one: approved, at $800.
        "I can't approve the full amount, but I can approve $800 of the $2,000 rebalance; the "
        "rest would push the USDC leg past the 60% cap.",
        {"approved": True, "adjusted_size_usd": 800.0},
    ),
    (
        "the trade is risky because the health factor is 1.4 and the health factor will go down "
        "if we borrow more and borrowing more is risky so the trade is not approved not approved "
        "because risk is too high",
        {"approved": False},
    ),
    (
        "Approval: granted.\nSize: reduce to $3,750 (75% of proposed) because realized vol is "
        "elevated.\nLayers: all pass; observation is the weakest at 0.6 (trending down).",
        {"approved": True, "adjusted_size_usd": 3750.0},
    ),
    (
        "Not approved. Hard shields fail: the target protocol (a fork deployed 9 days ago) is "
        "not on the allowlist.",
        {"approved": False},
    ),
    (
        "APPROVED ✅ - $10,000 USDC deposit into the Aave v3 supply market. No borrow, no "
        "leverage, utilization 71%. Warnings: none.",
        {"approved": True},
    ),
    (
        # Cut off inside the layers.
        "Sure! Here's the risk review.\n\napproved: true\nadjusted_size_usd: 1500\nlayers:\n"
        "  hard_shields: {passed: true, score: 0.1, detail: within limits}\n"
        "  position_sizing: {passed: true, score: 0.5, detail: reduced from 2",
        {"approved": True, "adjusted_size_usd": 1500.0},
    ),
    (
        # A size is named, but as a condition for reconsidering, not an approval.
        "Reject. Why: the swap routes through a pool with $23k TVL; expected slippage 5.8% on "
        "$12,000. Would reconsider at a size under $1,000 via the 0.05% pool.",
        {"approved": False},
    ),
    (
        "Approve? Reject? On balance I approve: the exit to stables lowers risk in every layer, "
        "and the $7,200 size matches the position. No adjustment.",
        {"approved": True},
    ),
    (
        "The position sizing layer fails (the $9,000 request is 31% of NAV vs a 20% limit) but "
        "everything else passes. I'd approve it at 20% of NAV instead, which is $5,800.",
        {"approved": True, "adjusted_size_usd": 5800.0},
    ),
    (
        "approved: False - risk too high, HF would drop to 1.09",
        {"approved": False},
    ),
    (
        "Verdict - denied\n\n* hard_shields: ok\n* position_sizing: ok\n"
        "* adaptive_guardrails: ok\n* observation: fail (0.9) - ETH moved 7.4% in 30 minutes, "
        "the volatility regime is 'crash'\n* defi_threats: ok",
        {"approved": False},
    ),
    (
        "Looks fine to me. It's a small rebalance ($450) inside the limits, health factor "
        "unaffected. Approved.",
        {"approved": True},
    ),
    (
        "Risk assessment. The risk is low. The risk is low because the size is small. The size "
        "is $300. The size is small so the risk is low. Approve. Approve the trade.",
        {"approved": True},
    ),
    (
        # The approval is conditional on a cut that cannot be made: not approved.
        "I would approve this only if the size were cut, and the request is for a fixed-size "
        "hedge that can't be cut. So: not approved as submitted.",
        {"approved": False},
    ),
    (
        "✅ approve - but shrink it to 0.6 ETH (~$1,950 at $3,250) to keep the LP within the "
        "25% concentration limit.",
        {"approved": True, "adjusted_size_usd": 1950.0},
    ),
    (
        '```json\n{\n  "approved": true,\n  "adjusted_size_usd": 4200.0,\n  "layers": {\n'
        '    "hard_shields": {"passed": true, "score": 0.05, "detail": "ok"},\n'
        '    "position_sizing": {"passed": true, "score": 0.45, "detail": "cut from 6000"},\n'
        '    "adaptive_guardrails": {"passed": true, "score": 0.3, "detail": "thriving"},\n'
        '    "observation": {"passed": true, "score": 0.35, "detail": "calm"},\n'
        '    "defi_threats": {"passed": true, "score": 0.2, "detail": "HF 2.2"}\n  },\n'
        '  "warnings": ["size cut to stay under 20% of NAV"]\n}\n```',
        {"approved": True, "adjusted_size_usd": 4200.0},
    ),
    (
        "No. The proposed borrow of $15k USDC against ETH would put us at 78% LTV with the max "
        "at 80.5%; one 3% wick liquidates us. Decline.",
        {"approved": False},
    ),
]

DAIMON: Corpus = [
    (
        "Emotion: fear\nPleasure: -0.7, arousal: 0.8, dominance: -0.5\nTrigger: the health "
        "factor fell to 1.22 overnight.",
        {"primary_emotion": "fear"},
    ),
    (
        "Sure! The golem would feel joy here - the hedge it opened at $3,400 paid out $1,180 "
        "when ETH fell to $3,050. Pleasant, moderately aroused, in control.",
        {"primary_emotion": "joy"},
    ),
    (
        "primary_emotion=anger secondary_emotion=disgust. The MEV bot sandwiched our swap for "
        "2.1%, a loss that felt unfair and avoidable.",
        {"primary_emotion": "anger"},
    ),
    (
        "I'd call this surprise. Nobody expected the Curve pool to rebalance that fast; the "
        "golem's model was simply wrong about timing. Not fear - the position was never at risk.",
        {"primary_emotion": "surprise"},
    ),
    (
        "**Primary:** sadness\n**Secondary:** fear\nThree consecutive losing rebalances drained "
        "6% of the treasury; the mood is low and passive.",
        {"primary_emotion": "sadness"},
    ),
    (
        "The feeling is trust: the lending market behaved exactly as the playbook predicted "
        "through a 9% drawdown, and liquidations elsewhere were orderly.",
        {"primary_emotion": "trust"},
    ),
    (
        "anticipation - funding has been creeping up for 6 hours (now 0.04%) and the golem is "
        "waiting for the flip it has seen twice before.",
        {"primary_emotion": "anticipation"},
    ),
    (
        "the emotion is the emotion of being scared because the price went down a lot and the "
        "golem has less money and less money is bad so the golem is scared. scared. fear.",
        {"primary_emotion": "fear"},
    ),
    (
        "Disgust. The 'audited' vault we were considering turns out to have a mint function "
        "callable by the deployer. Revulsion, not fear - we never deposited.",
        {"primary_emotion": "disgust"},
    ),
    (
        # Apprehension is Plutchik's mild form of fear.
        "Mostly apprehension - not panic, but a steady worry that the stETH discount (now 1.8%) "
        "will widen.",
        {"primary_emotion": "fear"},
    ),
    (
        '{"pleasure": 0.6, "arousal": 0.3, "dominance": 0.4, "primary_emotion": "joy", '
        '"secondary_emotion": "trust", "trigger": "LP fees +$212 today", "memory_bias": '
        '"recall calm fee-earning days"}',
        {"primary_emotion": "joy"},
    ),
    (
        # Cut off; annoyance is Plutchik's mild anger, and the text says so.
        "Sure! Here is the appraisal:\n\nPrimary emotion: Annoyance (anger family) - the gas "
        "spike to 140 gwei cost us $86 on a rebalance that",
        {"primary_emotion": "anger"},
    ),
]

CURATOR: Corpus = [
    (
        "Evaluated 20 entries. Retained 17, pruned 3 (g-04, g-11, g-19: contradicted by the last "
        "two weeks of data).",
        {"entries_evaluated": 20, "entries_retained": 17, "entries_pruned": 3},
    ),
    (
        "entries_evaluated: 8\nentries_retained: 8\nentries_pruned: 0\ngrimoire_health: 0.91",
        {"entries_evaluated": 8, "entries_retained": 8, "entries_pruned": 0},
    ),
    (
        # Numbers in words; "stay" is retained, "should go" is pruned.
        "Sure! I reviewed twelve entries. Nine are still supported by recent episodes and stay; "
        "three are stale and should go.",
        {"entries_evaluated": 12, "entries_retained": 9, "entries_pruned": 3},
    ),
    (
        "| Metric | Count |\n|---|---|\n| Evaluated | 15 |\n| Kept | 11 |\n| Pruned | 4 |",
        {"entries_evaluated": 15, "entries_retained": 11, "entries_pruned": 4},
    ),
    (
        "Pruned 2 entries (e-7 'gas is cheapest on Sundays', e-9 'USDC never depegs'), both "
        "contradicted. Promoted e-3 from 0.6 to 0.8.",
        {"entries_pruned": 2},
    ),
    (
        '{"entries_evaluated": 30, "entries_retained": 26, "entries_pruned": 4, '
        '"cross_references": [{"source_id": "e-2", "target_id": "e-5", "relationship": '
        '"supports"}], "grimoire_health": 0.78}',
        {"entries_evaluated": 30, "entries_retained": 26, "entries_pruned": 4},
    ),
    (
        "I looked at the entries. There were 10 entries. I kept the entries that are good. The "
        "good entries are 7. The bad entries are 3 and I removed the bad entries.",
        {"entries_evaluated": 10, "entries_retained": 7, "entries_pruned": 3},
    ),
    (
        "Of the 25 entries reviewed, none were pruned; all 25 retained. Health 0.95.",
        {"entries_evaluated": 25, "entries_retained": 25, "entries_pruned": 0},
    ),
    (
        "- evaluated: 6\n- retained: 5\n- pruned: 1 (h-12, superseded by h-14)\n"
        "- cross-refs: h-14 extends h-12",
        {"entries_evaluated": 6, "entries_retained": 5, "entries_pruned": 1},
    ),
    (
        "Nothing to prune this cycle. 4 entries checked, all still hold.",
        {"entries_evaluated": 4, "entries_retained": 4, "entries_pruned": 0},
    ),
    (
        "Evaluated: 18 | Retained: 12 | Pruned: 6. The pruned six all relied on the pre-Dencun "
        "gas regime.",
        {"entries_evaluated": 18, "entries_retained": 12, "entries_pruned": 6},
    ),
    (
        # Cut off inside the cross-references.
        "Summary of the curation pass:\n\nentries evaluated - 9\nentries retained - 7\n"
        "entries pruned - 2\n\nCross references:\n- e-31 contradicts e-",
        {"entries_evaluated": 9, "entries_retained": 7, "entries_pruned": 2},
    ),
]

REPLAY: Corpus = [
    (
        "Episode ep-0412 replayed.\nSurprise: 0.82\nLessons:\n1. Funding flips negative about 2h "
        "before the larger drawdowns (confidence 0.7)\n2. Hedging at HF 1.6 instead of 1.4 "
        "would have saved ~1.1%\nCounterfactual: hedge at 14:00 -> loss 0.9% instead of 2.0%",
        {"surprise": "high", "lessons": 2},
    ),
    (
        "surprise_score=0.1. Nothing unexpected: the rebalance did what the playbook said. One "
        "lesson: gas under 20 gwei on weekends made the rebalance cheap.",
        {"surprise": "low", "lessons": 1},
    ),
    (
        "Sure! Here is the replay analysis:\n\nThe outcome was moderately surprising (surprise "
        "≈ 45%). Lessons learned:\n- the stETH discount widens when the Lido withdrawal queue "
        "exceeds 5 days\n- our exit trigger fired late twice\n- LP fees didn't cover IL in the "
        "trending regime",
        {"surprise": "medium", "lessons": 3},
    ),
    (
        '{"episode_id": "ep-88", "lessons": [{"insight": "oracle lag widens in fast markets", '
        '"confidence": 0.6, "applicable_conditions": ["volatile"]}], "surprise_score": .9, '
        '"counterfactuals": [], "arousal_delta": 0.3}',
        {"surprise": "high", "lessons": 1},
    ),
    (
        "Very surprising episode - the golem expected a bounce and got a further 8% drop. "
        "Surprise: 0.9. No clear lesson yet; one episode is not enough to generalize.",
        {"surprise": "high", "lessons": 0},
    ),
    (
        "**Surprise score:** 0.2\n**Lessons:**\n- Thin books on the weekend amplify moves "
        "(confidence 0.5, calm)\n- Don't rebalance during the funding settlement minute",
        {"surprise": "low", "lessons": 2},
    ),
    (
        "the episode was surprising. the episode was surprising because the price went up and "
        "we thought the price would go down. surprise is 0.7. the lesson is that the price can "
        "go up.",
        {"surprise": "high", "lessons": 1},
    ),
    (
        "Replayed 5 episodes (latest ep-120). Surprise was middling, about .5. Two lessons: "
        "(1) the oracle lag matters only above 3% moves; (2) HF alerts at 1.5 give enough time "
        "to act.",
        {"surprise": "medium", "lessons": 2},
    ),
    (
        "Lessons\n1. Exiting at the first sign of stress saved the treasury on 3 of 4 "
        "occasions.\n2. Gas spikes coincide with liquidation waves.\n3. Re-entry after an exit "
        "was always too early.\n4. Funding above 0.05% predicts mean reversion within a day."
        "\n\nSurprise: low (0.15).",
        {"surprise": "low", "lessons": 4},
    ),
    (
        "Not surprising at all (0.05). The lesson: when utilization passes 95% the borrow APR "
        "jumps, so avoid borrowing there.",
        {"surprise": "low", "lessons": 1},
    ),
    (
        # Cut off inside the second lesson: only the surprise is determined.
        "Surprise score: 0.76\n\nLessons:\n- The hedge was too small to offset the drawdown "
        "(confidence 0.8, applies in crash)\n- Liquidity on the",
        {"surprise": "high"},
    ),
    (
        "| field | value |\n|---|---|\n| surprise | 0.4 |\n| episodes reviewed | 7 |\n\n"
        "Lessons:\n- pre-hedge before FOMC\n- use narrower LP ranges in trending markets\n"
        "- check the oracle before any exit",
        {"surprise": "medium", "lessons": 3},
    ),
]

FRAGMENT: Corpus = [
    (
        "Verdict: promote. Novelty 0.7, relevance 0.8, coherence 0.9 - 'gas spikes precede "
        "liquidation waves by ~10 minutes' held in 4 of 5 replays.",
        {"verdict": "promote"},
    ),
    (
        "Discard. This fragment ('ETH always pumps on Tuesdays') is incoherent with everything "
        "in the grimoire.",
        {"verdict": "discard"},
    ),
    (
        "Stage it: interesting (novelty .8) but only one episode supports it so far.",
        {"verdict": "stage"},
    ),
    (
        # Promote is named and declined.
        "I wouldn't promote this yet - relevance is high but coherence is only 0.4. Keep it "
        "staged and see if the next dream cycle supports it.",
        {"verdict": "stage"},
    ),
    (
        '{"novelty": 0.1, "relevance": 0.3, "coherence": 0.6, "verdict": "discard"}',
        {"verdict": "discard"},
    ),
    (
        "the fragment is good. the fragment is about funding rates and funding rates are "
        "important. it is new and it makes sense. promote promote.",
        {"verdict": "promote"},
    ),
    (
        "Sure! Here is my evaluation:\n\n- Novelty: 0.55\n- Relevance: 0.6\n- Coherence: 0.5\n"
        "- Verdict: **stage** (hold for more evidence; not strong enough to promote, not bad "
        "enough to discard)",
        {"verdict": "stage"},
    ),
    (
        "Throw it out. The fragment mixes up the stETH discount with the ETH funding rate; it "
        "makes no sense as a hypothesis.",
        {"verdict": "discard"},
    ),
    (
        "Keep it in the grimoire - promote. It's novel (0.75) and directly relevant to the LP "
        "position we hold.",
        {"verdict": "promote"},
    ),
    (
        "verdict=stage novelty=0.9 relevance=0.35 coherence=0.5",
        {"verdict": "stage"},
    ),
    (
        "Not worth keeping. Novelty near zero: the playbook already says the same thing about "
        "weekend liquidity. Drop it.",
        {"verdict": "discard"},
    ),
    (
        "Verdict - Promote\n\nThe fragment ('when the Lido withdrawal queue exceeds 7 days the "
        "stETH discount widens past 1%') is novel, coherent and relevant to our stETH coll",
        {"verdict": "promote"},
    ),
]

INTEGRATION: Corpus = [
    (
        "Promoted:\n- h-3: funding flips precede reversals (0.8)\nStaged:\n- weekend books are "
        "thin (0.5)\n- gas spikes precede liquidations (0.55)\nDiscarded:\n- ETH pumps on "
        "Tuesdays",
        {"promoted": 1, "staged": 2, "discarded": 1},
    ),
    (
        "Sure! After integration: promote 2 hypotheses (h-7, oracle lag matters above 3% moves; "
        "h-9, HF alerts at 1.5 give enough time), stage none, and discard 1 (h-4, the "
        "moon-phase idea).",
        {"promoted": 2, "staged": 0, "discarded": 1},
    ),
    (
        '{"promoted": [], "staged": [{"hypothesis_id": "h-12", "summary": "stETH discount '
        'widens with the withdrawal queue", "confidence": 0.5, "rationale": "one supporting '
        'episode"}], "discarded": [{"hypothesis_id": "h-2", "summary": "USDC never depegs", '
        '"confidence": 0.1, "rationale": "contradicted in March 2023"}], "playbook_diff": null}',
        {"promoted": 0, "staged": 1, "discarded": 1},
    ),
    (
        "Nothing promoted this cycle. Staged: 3 (h-21, h-22, h-23). Discarded: 0.",
        {"promoted": 0, "staged": 3, "discarded": 0},
    ),
    (
        "| Hypothesis | Fate |\n|---|---|\n| h-1 LP ranges should narrow in calm regimes | "
        "promoted |\n| h-5 exits should wait for the second HF alert | staged |\n| h-6 gas "
        "predicts volatility | discarded |\n| h-8 funding above 0.05% mean-reverts | promoted |",
        {"promoted": 2, "staged": 1, "discarded": 1},
    ),
    (
        "the hypotheses are h-1 and h-2. h-1 is good so h-1 is promoted. h-2 is not good so "
        "h-2 is discarded. that is all.",
        {"promoted": 1, "staged": 0, "discarded": 1},
    ),
    (
        "## Promote\n(none)\n## Stage\n- h-30: borrow APR jumps above 95% utilization\n"
        "## Discard\n- h-31: Sunday gas is always cheapest\n- h-32: stETH never trades above par"
        "\n\nPlaybook diff: none.",
        {"promoted": 0, "staged": 1, "discarded": 2},
    ),
    (
        "promoted=1 staged=1 discarded=1\n(h-70 promoted, h-71 staged, h-72 discarded)",
        {"promoted": 1, "staged": 1, "discarded": 1},
    ),
    (
        # Promote and discard are named only to say why not.
        "All four candidates go to staging - none has enough replay support yet to promote, and "
        "none is contradicted enough to discard.",
        {"promoted": 0, "staged": 4, "discarded": 0},
    ),
    (
        "Promoting h-40 (pre-hedge before FOMC, confidence 0.75) to the playbook. Discarding "
        "h-41 and h-42: both were contradicted by last week's episodes.",
        {"promoted": 1, "staged": 0, "discarded": 2},
    ),
    (
        "Promoted (3): h-50, h-51, h-52\nStaged (0)\nDiscarded (0)\nPlaybook diff: add 'hedge "
        "half the delta when funding < -0.02%'",
        {"promoted": 3, "staged": 0, "discarded": 0},
    ),
    (
        # Cut off inside the second staged item, before any discard list: the discards are
        # not determined.
        "Integration result:\n\nPromoted:\n1. h-60 - exit on the second consecutive HF alert "
        "below 1.4 (confidence 0.7)\n\nStaged:\n1. h-61 - narrow LP ranges in calm regimes\n"
        "2. h-62 - gas above 100 gwei preced",
        {"promoted": 1, "staged": 2},
    ),
]

THREAT: Corpus = [
    (
        "Threat type: oracle manipulation\nSeverity: high\nLikelihood: 0.15\nImpact: liquidation "
        "of the ETH collateral at a false price\nMitigations:\n- cap borrow at 50% LTV\n"
        "- alert on oracle/TWAP deviation > 2%",
        {"severity": "high", "threat_type": "oracle manipulation"},
    ),
    (
        "Sure! Rehearsing a stETH depeg: severity medium, likelihood 20%. If stETH trades at "
        "0.93 our HF falls to 1.3 - painful but survivable. Mitigation: keep HF above 1.8.",
        {"severity": "medium"},
    ),
    (
        "severity=critical threat_type=smart contract exploit on the lending protocol "
        "likelihood=.05",
        {"severity": "critical", "threat_type": "smart contract exploit"},
    ),
    (
        '{"threat_type": "liquidation cascade", "severity": "high", "likelihood": 0.3, '
        '"impact_if_realized": "HF hits 1.0 within an hour", "mitigation_actions": ["add '
        'collateral"], "detection_signals": ["HF < 1.4"], "rehearsal_outcome": "survived with '
        '12% loss"}',
        {"severity": "high", "threat_type": "liquidation cascade"},
    ),
    (
        "Low severity. A gas price spike (>200 gwei) would make our rebalances uneconomic for a "
        "few hours, nothing worse.",
        {"severity": "low"},
    ),
    (
        "**Threat:** USDC depeg\n**Severity:** Critical - half our collateral is USDC and the "
        "lending market values it at par\n**Likelihood:** 3%",
        {"severity": "critical", "threat_type": "USDC depeg"},
    ),
    (
        "the threat is a rug pull. a rug pull is when the team takes the money. the team could "
        "take the money. this is bad. this is very bad. severity high.",
        {"severity": "high", "threat_type": "rug pull"},
    ),
    (
        # High is named and declined.
        "I'd rate this medium rather than high: a governance attack on the pool's fee switch "
        "would cut LP yield by maybe 30% but would not touch principal.",
        {"severity": "medium"},
    ),
    (
        "- Type: MEV sandwiching on large swaps\n- Severity: low\n- Likelihood: 0.6\n"
        "- Mitigation: use a private mempool (Flashbots Protect), cap slippage at 0.5%",
        {"severity": "low", "threat_type": "MEV sandwiching"},
    ),
    (
        "Bridge hack (the canonical bridge we use for Arbitrum). Severity: CRITICAL. Likelihood "
        "low, maybe 2%, but the impact is total loss of bridged funds.",
        {"severity": "critical"},
    ),
    (
        "The threat is a funding rate squeeze against our short hedge. Severity - medium. The "
        "rehearsal showed the hedge costs about 0.3%/day at worst, which the LP fees cover.",
        {"severity": "medium", "threat_type": "funding rate squeeze"},
    ),
    (
        "Threat assessment:\n\nthreat_type: stale oracle during high volatility\nseverity: high\n"
        "likelihood: 0.25\nimpact_if_realized: our exit executes at a price 4% worse than",
        {"severity": "high", "threat_type": "stale oracle"},
    ),
]
