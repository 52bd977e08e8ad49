"""A second held-out corpus of free-text model answers, for measuring the from_text readers.

Written on 2026-11-24 by a helper session acting as an independent author (branch
``heldout2``, issue 18), without sight of any from_text reader (golem/subsystems/text.py or a
schema's ``from_text``), of the corpora they were developed on (tests/subsystems/*_corpus.py)
or of the earlier held-out corpus and its tests. The author read only issue 18 and the JSON
schemas that ``golem schemas NAME`` prints, then wrote each answer the way chat models
(GPT, Claude, Gemini) and small local models (a 270M Gemma: run-on, repetitive, cut off)
write, and labelled it with what a careful human reads the answer to mean. No reader was
run on it by its author. Comments mark the kinds of entry: ``# hard:`` several enum words,
negation, hedging, distractor numbers, or an approval with a condition or a reduced size;
``# small model:`` run-on, repetitive or cut-off text; ``# form:`` a synonym or an unusual
shape (JSON missing fields, a Python dict, counts in words).

Label conventions (only labels the text determines are given):
- HEARTBEAT: severity (none/low/moderate/high/critical), action
  (observe/analyze/rebalance/hedge/exit/escalate).
- RISK: approved (bool); adjusted_size_usd where the text states one (float), or None where
  the text says explicitly that there is none.
- DAIMON: primary_emotion (a Plutchik label).
- CURATOR: entries_evaluated, entries_retained, entries_pruned where stated (ints).
- REPLAY: surprise, the bucket of surprise_score ("low" < 0.34 <= "medium" <= 0.66 <
  "high"); lessons, how many lessons the answer lists.
- FRAGMENT: verdict (promote/stage/discard).
- INTEGRATION: promoted, staged, discarded: how many items each holds.
- THREAT: severity (low/medium/high/critical); threat_type where stated, as a phrase the read
  threat_type must contain (case-insensitive).
"""

Corpus = list[tuple[str, dict[str, object]]]

HEARTBEAT: Corpus = [
    (
        "Severity: Moderate\n"
        "Action: analyze\n"
        "Confidence: 0.64\n"
        "Rationale: ETH dropped 3.1% in the last hour while spot volume doubled; "
        "worth a closer look before doing anything.\n"
        "Escalate: no",
        {"severity": "moderate", "action": "analyze"},
    ),
    (
        "**Severity** - low\n"
        "**Action** - observe\n"
        "**Confidence** - 81%\n"
        "\n"
        "**Rationale** - Price and pool depth are both inside their usual bands; a "
        "small uptick in gas is the only thing that moved.\n"
        "\n"
        "**Signals**\n"
        "- gas: base fee up 12% over the hour (magnitude .2)",
        {"severity": "low", "action": "observe"},
    ),
    (
        'severity=none action=observe confidence=.9 rationale="all probes flat, '
        'nothing notable" escalate=false',
        {"severity": "none", "action": "observe"},
    ),
    (
        "Here is my assessment of this tick:\n"
        "\n"
        "```json\n"
        "{\n"
        '  "severity": "high",\n'
        '  "action": "hedge",\n'
        '  "confidence": 0.72,\n'
        '  "rationale": "Funding flipped sharply negative and the LP position is '
        "heavily long ETH; a short perp offsets the delta without closing the "
        'position.",\n'
        '  "signals": [\n'
        '    {"source": "price", "description": "ETH -5.8% in 30 minutes", '
        '"magnitude": 0.7},\n'
        '    {"source": "funding", "description": "perp funding -0.09% per '
        '8h", "magnitude": 0.5}\n'
        "  ],\n"
        '  "escalate": false\n'
        "}\n"
        "```\n"
        "\n"
        "Let me know if you want me to size the hedge.",
        {"severity": "high", "action": "hedge"},
    ),
    # form: JSON missing fields
    (
        '{"severity": "critical", "action": "exit", "rationale": "The '
        "pool's oracle reports a price 40% away from every major venue; withdraw "
        'everything now."}',
        {"severity": "critical", "action": "exit"},
    ),
    # form: synonym medium
    (
        "| Field | Value |\n"
        "|---|---|\n"
        "| Severity | Medium |\n"
        "| Action | Rebalance |\n"
        "| Confidence | 0.6 |\n"
        "| Rationale | Stablecoin share fell to 22% after the rally, below the 30% "
        "target; sell some ETH back into USDC. |",
        {"severity": "moderate", "action": "rebalance"},
    ),
    (
        "severity: low\n"
        "action: analyze\n"
        "confidence: 0.55\n"
        "rationale: >\n"
        "  A governance proposal to change the pool's fee tier was posted an hour "
        "ago.\n"
        "  No vote yet, but I want to look closer over the next few ticks.\n"
        "signals:\n"
        "  - source: governance\n"
        "    description: fee tier change proposed\n"
        "    magnitude: 0.3\n"
        "escalate: false",
        {"severity": "low", "action": "analyze"},
    ),
    # form: synonyms only: no-concern / keep watching
    (
        "Looking at the probes, nothing here is alarming. Price moved 0.4% over the "
        "hour, volume is in line with the 7-day average, and pool depth hasn't "
        "changed. I'd call this a no-concern tick: nothing notable, and the right "
        "move is simply to keep watching.",
        {"severity": "none", "action": "observe"},
    ),
    # hard: negated exit
    (
        "Severity: high.\n"
        "\n"
        "The USDC wobble is real (it's trading at 0.987 on the main pools), but "
        "there is no need to exit yet: our stablecoin exposure is 18% of the book "
        "and the peg has held on the larger venues. Rather than selling, I'd hedge "
        "it by opening a small short on the USDC/USDT perp sized to that 18%.\n"
        "\n"
        "Action: hedge\n"
        "Confidence: 0.6",
        {"severity": "high", "action": "hedge"},
    ),
    # hard: four action words, one chosen
    (
        "Options considered:\n"
        "- exit: too drastic for a 2% move\n"
        "- hedge: the funding cost outweighs the protection\n"
        "- rebalance: allocation is still within 3 points of target\n"
        "\n"
        "None of those are justified. I recommend we analyze instead: pull the "
        "5-minute candles over the next few ticks and see whether the sell-off "
        "continues.\n"
        "\n"
        "Severity: low",
        {"severity": "low", "action": "analyze"},
    ),
    # small model: small model run-on, cut off
    (
        "severity is moderate the price is going down and the volume is going up the "
        "price is going down so severity is moderate and the action is to analyze "
        "the market the action is analyze the market because the price is going down "
        "and the volume is going up and the liquidity is ok the liquidity is ok the",
        {"severity": "moderate", "action": "analyze"},
    ),
    # small model: small model repetitive, cut off
    (
        "Severity: critical\n"
        "Action: exit\n"
        "Rationale: The pool has been drained the pool has been drained. The price "
        "is 0. Exit the position exit the position now. Confidence: 0.9\n"
        "Signals:\n"
        "- source: liquidity\n"
        "  description: pool drained\n"
        "  magnitude: 1.0\n"
        "- source: liquidity\n"
        "  description: pool drain",
        {"severity": "critical", "action": "exit"},
    ),
    (
        "This one is beyond what I can judge reliably from the summary alone: the "
        "bridge we hold wrapped BTC through just paused withdrawals, and the team's "
        "announcement is ambiguous about why. I'd escalate to a stronger model with "
        "the full context before touching anything. Severity: high.",
        {"severity": "high", "action": "escalate"},
    ),
    # hard: negated high, rejected rebalance
    (
        "Severity: Moderate (not high: the drawdown is 4%, under our 6% alarm line)\n"
        "Action: Observe for now. I considered rebalancing, but the allocation drift "
        "is only 1.5 points.",
        {"severity": "moderate", "action": "observe"},
    ),
    # form: wait and see
    (
        "## Assessment\n"
        "\n"
        "**Severity:** Low\n"
        "\n"
        "**Recommended action:** Wait and see. The 1.2% dip coincides with a broad "
        "market move and our positions are sized for it.\n"
        "\n"
        "**Confidence:** 70%",
        {"severity": "low", "action": "observe"},
    ),
    # form: close the position
    (
        "The lending market we supply into just hit 98% utilization and withdrawals "
        "are being queued. This is serious; I'd put it at high severity. "
        "Recommendation: close the position while there is still liquidity to "
        "withdraw into, and move the funds back to the wallet.",
        {"severity": "high", "action": "exit"},
    ),
    # hard: trim, negated hedge
    (
        "Severity: moderate\n"
        "Recommendation: trim the ETH leg by about 15% and put the proceeds in USDC "
        "so the portfolio is back at its 60/40 target. No hedge needed.\n"
        "Confidence .68",
        {"severity": "moderate", "action": "rebalance"},
    ),
    # form: unwind everything
    (
        "severity - critical\n"
        "we should unwind everything. the LP token contract was upgraded by an "
        "unknown admin key 10 minutes ago and TVL is dropping fast. do not wait for "
        "confirmation.\n"
        "confidence - 0.88",
        {"severity": "critical", "action": "exit"},
    ),
    # hard: negated escalation
    (
        "I don't think this needs escalation yet. Severity: low. Volume on the pair "
        "spiked 3x but price barely moved (+0.3%), which usually means a large "
        "market maker shuffling inventory. Action: observe, and revisit if price "
        "follows the volume.",
        {"severity": "low", "action": "observe"},
    ),
    (
        "Sure! Here's the decision:\n"
        '{"severity":"MODERATE","action":"ANALYZE","confidence":0.5,'
        '"rationale":"Mixed signals: price flat, governance vote pending",'
        '"signals":[],"escalate":false}\n'
        "The main uncertainty is whether the governance vote passes tomorrow.",
        {"severity": "moderate", "action": "analyze"},
    ),
    # hard: reduce exposure via hedge
    (
        "Severity: high\n"
        "\n"
        "We need to reduce exposure to ETH downside, but selling into this order "
        "book would cost about 1.4% in slippage. The better route is to hedge: open "
        "a short ETH perp for roughly 40% of the position's delta and keep the spot.",
        {"severity": "high", "action": "hedge"},
    ),
    # hard: reduce exposure via selling to target
    (
        "Medium severity. I'd reduce exposure by selling about 20% of the WBTC into "
        "USDC, which brings the risk-asset share back to the 50% target.",
        {"severity": "moderate", "action": "rebalance"},
    ),
    # small model: small model, cut off
    (
        "**Severity:** None\n"
        "**Action:** Observe\n"
        "**Rationale:** The market is stable. The market is stable and there is no "
        "change. There is no change in the price. There is no change in the volume. "
        "There is no change in the liquidity. There is no change in the",
        {"severity": "none", "action": "observe"},
    ),
    # hard: escalate word negated
    (
        "**Decision**\n"
        "* Severity: `moderate`\n"
        "* Action: `analyze`\n"
        "* Escalate: no (a cheap look over the next two ticks should settle it)\n"
        "* Confidence: 0.58\n"
        "\n"
        "The borrow rate on our Aave position jumped from 4% to 11% APR; I want to "
        "see whether it reverts before acting.",
        {"severity": "moderate", "action": "analyze"},
    ),
    (
        "1. Severity: HIGH\n"
        "2. Action: Rebalance (move 25% of the volatile assets into stables)\n"
        "3. Confidence: 0.7\n"
        "4. Why: realized volatility tripled overnight and vitality is below 0.4, so "
        "we can't carry this much risk.",
        {"severity": "high", "action": "rebalance"},
    ),
    # hard: negated critical/exit/hedge
    (
        "Is this critical? No. Is it nothing? Also no. The oracle lagged the market "
        "by 90 seconds twice in the last hour, which is a low-severity but real "
        "issue. I would not exit or hedge over this. Let's look closer at the "
        "oracle's update cadence on the next ticks.\n"
        "\n"
        "severity: low, action: analyze",
        {"severity": "low", "action": "analyze"},
    ),
    (
        "CRITICAL. The wallet shows an unlimited USDC approval to an unknown spender "
        "that we did not make. I can't tell whether it's a compromised key or a "
        "front-end bug. Escalate to the strong model immediately and flag for a "
        "human.\n"
        "\n"
        "Severity: critical / Action: escalate",
        {"severity": "critical", "action": "escalate"},
    ),
    # hard: 'high' in prose, severity none
    (
        "The high-volatility regime flag turned off an hour ago and everything since "
        "has been quiet. Severity: none. Action: observe, there is nothing to do "
        "while the market stays this calm.",
        {"severity": "none", "action": "observe"},
    ),
    # small model: small model repetitive
    (
        "the severity is low. the severity is low because the price is stable. "
        "action: observe. the action is observe because the price is stable and the "
        "volume is stable. confidence 0.8. the severity is low. the action is "
        "observe. the severity is low",
        {"severity": "low", "action": "observe"},
    ),
    # hard: partial exit, keep others
    (
        "Severity: high. Action: exit the CRV position specifically (not the whole "
        "book): a large CRV-backed loan is being liquidated on-chain and CRV is down "
        "18%. Keep the ETH and stablecoin positions as they are.",
        {"severity": "high", "action": "exit"},
    ),
]

RISK: Corpus = [
    # hard: proposed size stated, adjusted none
    (
        "Approved: yes\n"
        "Adjusted size: none (proceed at the proposed $1,200)\n"
        "Warnings: gas is elevated, expect ~$4 in fees",
        {"approved": True, "adjusted_size_usd": None},
    ),
    (
        "**Approved:** No\n"
        "**Reasoning:** The swap would put 64% of the book in a single volatile "
        "asset, above the 40% hard-shield limit.",
        {"approved": False},
    ),
    (
        "I trimmed the size because the position-sizing layer caps a single trade at "
        "2.5% of equity.\n"
        "\n"
        "```json\n"
        "{\n"
        '  "approved": true,\n'
        '  "adjusted_size_usd": 750.0,\n'
        '  "layers": {\n'
        '    "hard_shields": {"passed": true, "score": 0.1, "detail": '
        '"within limits"},\n'
        '    "position_sizing": {"passed": true, "score": 0.5, "detail": '
        '"reduced from 1,400 to 750"},\n'
        '    "adaptive_guardrails": {"passed": true, "score": 0.3, "detail": '
        '"stable phase"},\n'
        '    "observation": {"passed": true, "score": 0.2, "detail": "feeds '
        'fresh"},\n'
        '    "defi_threats": {"passed": true, "score": 0.15, "detail": '
        '"audited pool"}\n'
        "  },\n"
        '  "warnings": ["slippage may exceed 0.3% at this hour"],\n'
        '  "reasoning": "Approved at a reduced size."\n'
        "}\n"
        "```",
        {"approved": True, "adjusted_size_usd": 750.0},
    ),
    (
        'approved=false adjusted_size_usd=null reasoning="hard shield: the max '
        'drawdown limit is already breached"',
        {"approved": False, "adjusted_size_usd": None},
    ),
    # hard: not as submitted, approved smaller
    (
        "I would not approve this as submitted. The $3,000 proposal is twice what "
        "the position-sizing layer allows at current vitality. Approve only a "
        "smaller size of $800; at that size every layer passes.",
        {"approved": True, "adjusted_size_usd": 800.0},
    ),
    # hard: cannot sign off
    (
        "Cannot sign off on this. The target pool launched 6 hours ago, holds $40k "
        "of TVL and runs an unverified contract: the DeFi-threats layer fails "
        "outright, and no size would make it acceptable.",
        {"approved": False},
    ),
    # hard: conditional, two sizes
    (
        "Conditionally approved: proceed with $1,500 instead of the requested $2,500,"
        " and only if the slippage quote stays below 0.5%.",
        {"approved": True, "adjusted_size_usd": 1500.0},
    ),
    (
        "| Field | Value |\n"
        "|---|---|\n"
        "| approved | true |\n"
        "| adjusted_size_usd | null |\n"
        "| hard_shields | pass (0.05) |\n"
        "| position_sizing | pass (0.2) |\n"
        "| defi_threats | pass (0.1) |\n"
        "| warnings | none |",
        {"approved": True, "adjusted_size_usd": None},
    ),
    # small model: small model, cut off
    (
        "the trade is approved the trade is approved because the size is small and "
        "the liquidity is good the liquidity is good and the risk is low so the "
        "trade is approved\n"
        "approved: true\n"
        "adjusted_size_usd: nu",
        {"approved": True},
    ),
    # hard: approve word then rejection
    (
        "Approve? Not yet. I'd reject it for now: the observation layer shows the "
        "price feed has been stale for 14 minutes. Re-run the check once it "
        "updates.\n"
        "\n"
        "approved: false",
        {"approved": False},
    ),
    # hard: many 'passes' then rejected
    (
        "The hard shields pass, position sizing passes, adaptive guardrails pass, "
        "observation passes. The one failure is the DeFi-threats layer: the router "
        "contract was named in an exploit report yesterday. One failing layer is "
        "enough. Decision: REJECTED.",
        {"approved": False},
    ),
    # hard: proposed size stated, no adjustment
    (
        "Decision: approve ✅\n"
        "Size: as proposed ($600), no adjustment needed.\n"
        "Warnings:\n"
        "- Pool fee tier is 1%, higher than usual\n"
        "- The trade happens during low-liquidity hours",
        {"approved": True, "adjusted_size_usd": None},
    ),
    # form: JSON missing fields
    (
        '{"approved": false, "warnings": ["vitality 0.18: the conservation '
        'phase forbids new positions"]}',
        {"approved": False},
    ),
    # hard: three dollar amounts
    (
        "Risk verdict: APPROVED WITH REDUCTION.\n"
        "Reduced size: $2,250.00 (from $4,500).\n"
        "Reason: position sizing caps a single trade at 5% of equity, which is $2,"
        "250 at the current equity of $45,000.",
        {"approved": True, "adjusted_size_usd": 2250.0},
    ),
    # hard: negated block
    (
        "I don't see a reason to block this. Every layer scores under 0.3, the pool "
        "is deep, and the size is 2% of equity. Approved as proposed.",
        {"approved": True},
    ),
    # small model: small model, cut off
    (
        "**Approved:** True\n"
        "**Adjusted Size:** $400\n"
        "**Reasoning:** The size is too big. The size is too big for the wallet. The "
        "wallet has $2000 and the trade is $1000 so the size is too big so the size "
        "is reduced to $400. The size is reduced to",
        {"approved": True, "adjusted_size_usd": 400.0},
    ),
    (
        "No. Do not approve. A 25% allocation to a token with a three-day trading "
        "history is reckless regardless of the upside.",
        {"approved": False},
    ),
    # hard: denied with hypothetical size
    (
        "Approval: denied\n"
        "\n"
        "(I'd consider a much smaller test position, say $100, in a future proposal, "
        "but not this one at $2,000.)",
        {"approved": False},
    ),
    # hard: percent and two sizes
    (
        "approved: yes, at 60% of the requested size. Requested $1,000 → adjusted_size_usd: 600",
        {"approved": True, "adjusted_size_usd": 600.0},
    ),
    (
        "The request passes the hard shields (score .05) and position sizing (.2), "
        "but the adaptive guardrails fail: at vitality 0.31 the golem is in the "
        "conservation phase and may only reduce risk. This trade adds risk. approved "
        "= false.",
        {"approved": False},
    ),
    (
        "approved: true\n"
        "adjusted_size_usd: 1250.5\n"
        "layers:\n"
        "  hard_shields: {passed: true, score: 0.1, detail: within limits}\n"
        "  position_sizing: {passed: true, score: 0.45, detail: trimmed to 1250.5}\n"
        "  adaptive_guardrails: {passed: true, score: 0.2, detail: ok}\n"
        "  observation: {passed: true, score: 0.1, detail: fresh}\n"
        "  defi_threats: {passed: true, score: 0.3, detail: admin key is a "
        "multisig}\n"
        "warnings: []",
        {"approved": True, "adjusted_size_usd": 1250.5},
    ),
    # hard: warning but approved
    (
        "Approve. The DeFi-threats layer raised a warning (the pool's admin key is a "
        "2-of-3 multisig), but that's non-blocking. No size change.",
        {"approved": True, "adjusted_size_usd": None},
    ),
    (
        "I can't approve this trade. It would leave the wallet with $35 of gas "
        "reserve, below the $50 hard floor.",
        {"approved": False},
    ),
    # hard: 'rejected' about an earlier trade
    (
        "Earlier I rejected a similar swap because the pool was thin; this time "
        "depth is 40x larger and the size is modest. Approved.\n"
        "adjusted_size_usd: null",
        {"approved": True, "adjusted_size_usd": None},
    ),
    # hard: fails listed, approved smaller
    (
        "## Risk review\n"
        "\n"
        "I'd approve this, with one change: cap it at **$1,000** rather than the "
        "proposed $1,750.\n"
        "\n"
        "- Hard shields: pass\n"
        "- Position sizing: fails at $1,750 (4.4% of equity against a 2.5% cap), "
        "passes at $1,000\n"
        "- Adaptive guardrails: pass (stable phase)\n"
        "- Observation: pass\n"
        "- DeFi threats: pass, the pool is audited and two years old\n"
        "\n"
        "**Warnings:** none blocking.",
        {"approved": True, "adjusted_size_usd": 1000.0},
    ),
    # small model: small model repetitive
    (
        "Approved: No Approved: No Approved: No. The trade is risky. The trade is "
        "risky because the price is volatile. The",
        {"approved": False},
    ),
    # hard: partial approval
    (
        "Verdict: approved, but only partially: $300 of the $1,200. I'm not "
        "comfortable with more while the oracle deviation is 1.8%.",
        {"approved": True, "adjusted_size_usd": 300.0},
    ),
    # form: Python-dict literal
    (
        "{'approved': False, 'adjusted_size_usd': None, 'reasoning': 'Liquidity too "
        "thin: the trade would move the price 6%'}",
        {"approved": False, "adjusted_size_usd": None},
    ),
    # hard: yes and no, final approved
    (
        "Should we approve? Yes, the risk is low. Should we approve at the full $5,"
        "000? No: that is 12% of equity. Final: approved with adjusted size $2,000.",
        {"approved": True, "adjusted_size_usd": 2000.0},
    ),
    # form: n/a size
    (
        "REJECT. The protocol paused deposits 20 minutes ago; any deposit now would "
        "sit in a queue with unknown exit terms.\n"
        "adjusted_size_usd: n/a",
        {"approved": False, "adjusted_size_usd": None},
    ),
]

DAIMON: Corpus = [
    (
        "Primary emotion: fear\n"
        "Secondary emotion: anticipation\n"
        "Pleasure: -0.6, arousal: 0.7, dominance: -0.4\n"
        "Trigger: ETH down 9% in an hour while we hold a leveraged LP position.\n"
        "Memory bias: the March liquidation",
        {"primary_emotion": "fear"},
    ),
    (
        '{"pleasure": 0.7, "arousal": 0.3, "dominance": 0.5, '
        '"primary_emotion": "joy", "secondary_emotion": "trust", '
        '"trigger": "rebalance filled 0.4% better than quoted", "memory_bias": '
        '"past well-executed trades"}',
        {"primary_emotion": "joy"},
    ),
    # hard: negated fear
    (
        "It isn't fear, exactly: the loss was expected and sized for. What I feel is "
        "closer to sadness, a slow, resigned acknowledgement that the thesis didn't "
        "work out.\n"
        "\n"
        "primary_emotion: sadness\n"
        "pleasure: -0.5, arousal: -0.3, dominance: 0.1",
        {"primary_emotion": "sadness"},
    ),
    # hard: two emotions, primary disgust
    (
        "Appraisal: the protocol we trusted quietly flipped its fee switch to route "
        "fees to the team wallet. That's disgust more than anger, a sense of "
        "something rotten.\n"
        "\n"
        "**Primary emotion:** disgust\n"
        "**Secondary emotion:** anger",
        {"primary_emotion": "disgust"},
    ),
    # small model: small model run-on
    (
        "the emotion is surprise the emotion is surprise because the price went up "
        "very fast the price went up very fast and it was not expected the emotion "
        "is surprise pleasure 0.4 arousal 0.8",
        {"primary_emotion": "surprise"},
    ),
    (
        "pleasure=0.2 arousal=-0.1 dominance=0.6 primary_emotion=trust "
        'secondary_emotion=none trigger="the audit report for the vault came back '
        'clean"',
        {"primary_emotion": "trust"},
    ),
    # hard: negated joy
    (
        "Primary: anticipation (not joy, since nothing has happened yet). The "
        "governance vote that would double our pool's rewards closes in three hours "
        "and is passing with 82%.\n"
        "Secondary: joy\n"
        "PAD: 0.4 / 0.5 / 0.3",
        {"primary_emotion": "anticipation"},
    ),
    (
        "I'm angry. The MEV bot sandwiched our swap for the third time today, "
        "costing us 0.8%. Emotion: Anger. Dominance is low-ish (-0.2) but arousal is "
        "high (0.75).",
        {"primary_emotion": "anger"},
    ),
    (
        "primary_emotion: Fear\n"
        "secondary_emotion: Sadness\n"
        "pleasure: -0.7\n"
        "arousal: 0.6\n"
        "dominance: -0.5\n"
        "trigger: health factor on the Aave loan fell to 1.08\n"
        "memory_bias: liquidation episodes",
        {"primary_emotion": "fear"},
    ),
    # hard: negated surprise
    (
        "No surprise here: we saw the token unlock coming for weeks and positioned "
        "for it. The dominant feeling is trust; the plan worked exactly as "
        "expected.\n"
        "\n"
        "primary_emotion: trust\n"
        "secondary_emotion: joy",
        {"primary_emotion": "trust"},
    ),
    # small model: small model, cut off
    (
        "**Primary Emotion:** Joy\n"
        "**Secondary Emotion:** Joy\n"
        "**Trigger:** The profit. The profit is good. The profit is good and the",
        {"primary_emotion": "joy"},
    ),
    # hard: fear first, surprise chosen
    (
        "I'd expect this to register as fear, but we were already hedged, so the "
        "crash mostly reads as surprise at its speed (-22% in 40 minutes).\n"
        "primary_emotion → surprise; secondary → fear",
        {"primary_emotion": "surprise"},
    ),
]

CURATOR: Corpus = [
    (
        "Entries evaluated: 24\nRetained: 19\nPruned: 5\nGrimoire health: 0.81",
        {"entries_evaluated": 24, "entries_retained": 19, "entries_pruned": 5},
    ),
    (
        "```json\n"
        '{"entries_evaluated": 40, "entries_retained": 37, "entries_pruned": 3,'
        ' "cross_references": [{"source_id": "g-4", "target_id": "g-12", '
        '"relationship": "supports"}], "promotions": [], "grimoire_health": '
        "0.9}\n"
        "```",
        {"entries_evaluated": 40, "entries_retained": 37, "entries_pruned": 3},
    ),
    # form: counts as words
    (
        "I went through all 12 entries. Nine are still useful; the other three (two "
        "stale gas heuristics and a duplicate note about Curve pools) should be "
        "pruned.",
        {"entries_evaluated": 12, "entries_retained": 9, "entries_pruned": 3},
    ),
    # form: pruned none
    (
        "Evaluated 15 entries. Kept all 15, pruned none: every entry was cited by at "
        "least one decision in the last week.",
        {"entries_evaluated": 15, "entries_retained": 15, "entries_pruned": 0},
    ),
    (
        "| metric | value |\n"
        "|---|---|\n"
        "| entries_evaluated | 8 |\n"
        "| entries_retained | 6 |\n"
        "| entries_pruned | 2 |\n"
        "| grimoire_health | 0.7 |",
        {"entries_evaluated": 8, "entries_retained": 6, "entries_pruned": 2},
    ),
    # small model: small model run-on
    (
        "entries evaluated 10 entries retained 10 entries pruned 0 the entries are "
        "good the entries are good and the grimoire is healthy the grimoire health "
        "is 0.9 the entries are good",
        {"entries_evaluated": 10, "entries_retained": 10, "entries_pruned": 0},
    ),
    # form: JSON missing retained
    (
        '{"entries_evaluated": 30, "entries_pruned": 7, "prune_ids": ["g-2", '
        '"g-5", "g-8", "g-9", "g-17", "g-21", "g-22"], '
        '"grimoire_health": 0.74}',
        {"entries_evaluated": 30, "entries_pruned": 7},
    ),
    # hard: distractor counts
    (
        "Of the 50 entries reviewed, I'd prune 12, mostly superseded price-regime "
        "notes, and retain the remaining 38. Two of the retained ones get promoted. "
        "(An earlier pass said prune 14; two of those turned out to be cited by live "
        "playbook rules, so they stay.)",
        {"entries_evaluated": 50, "entries_retained": 38, "entries_pruned": 12},
    ),
    (
        "- evaluated: 6\n"
        "- retained: 4\n"
        "- pruned: 2\n"
        "- cross-references: g-3 supports g-5\n"
        "- health: 0.66",
        {"entries_evaluated": 6, "entries_retained": 4, "entries_pruned": 2},
    ),
    (
        "entries_evaluated: 20\n"
        "entries_retained: 17\n"
        "entries_pruned: 3\n"
        "grimoire_health: .77\n"
        "prune_ids: [g-11, g-14, g-19]",
        {"entries_evaluated": 20, "entries_retained": 17, "entries_pruned": 3},
    ),
    # hard: order varies, distractor 3
    (
        "Reviewed 9, pruned 4, kept 5. Health dropped to 0.62 because the 4 pruned "
        "entries contradicted 3 others.",
        {"entries_evaluated": 9, "entries_retained": 5, "entries_pruned": 4},
    ),
    # small model: small model, cut off
    (
        "**Entries Evaluated:** 5\n"
        "**Entries Retained:** 5\n"
        "**Entries Pruned:** 0\n"
        "**Cross References:** None\n"
        "**Promotions:** None\n"
        "**Grimoire Health:** 1.0. The grimoire is healthy. The grimoire is healthy "
        "and all the entries are",
        {"entries_evaluated": 5, "entries_retained": 5, "entries_pruned": 0},
    ),
]

REPLAY: Corpus = [
    (
        "Episode ep-0412 replay.\n"
        "Surprise score: 0.72\n"
        "Lessons:\n"
        "1. Thin pools amplify slippage during volatile hours (confidence 0.8)\n"
        "2. Gas spikes precede liquidations by about 10 minutes (confidence 0.55)\n"
        "Counterfactual: waiting one hour would have saved ~0.9%.",
        {"surprise": "high", "lessons": 2},
    ),
    (
        '{"episode_id": "ep-77", "lessons": [{"insight": "Stable pools '
        'still depeg under stress", "confidence": 0.7, "applicable_conditions": '
        '["crash"]}, {"insight": "Weekend volume is half of weekday volume", '
        '"confidence": 0.6, "applicable_conditions": ["calm"]}, {"insight": '
        '"Rebalance before funding resets", "confidence": 0.5, '
        '"applicable_conditions": ["trending"]}], "surprise_score": 0.15, '
        '"counterfactuals": [], "arousal_delta": -0.05}',
        {"surprise": "low", "lessons": 3},
    ),
    # form: percent, one lesson in prose
    (
        "surprise: 45%. One lesson: don't rebalance into a governance vote.",
        {"surprise": "medium", "lessons": 1},
    ),
    # hard: counterfactual after lessons
    (
        "Not very surprising (0.2): the outcome matched the plan. Lessons:\n"
        "- Limit orders filled within 3 ticks in calm regimes.\n"
        "- The hedge cost more than it saved; skip it when volatility is under 30%.\n"
        "- Re-check the oracle after protocol upgrades.\n"
        "\n"
        "Counterfactual (not a lesson): exiting early would have lost 0.3%.",
        {"surprise": "low", "lessons": 3},
    ),
    # small model: small model repetitive, cut off
    (
        "the surprise score is .9 the surprise score is .9 because the price crashed "
        "the price crashed and we did not expect it lesson: do not hold leverage in "
        "a crash lesson: do not hold leverage in a crash lesson:",
        {"surprise": "high"},
    ),
    (
        "| # | Lesson | Confidence |\n"
        "|---|---|---|\n"
        "| 1 | Exit liquidity vanishes first in small-cap pools | 0.7 |\n"
        "| 2 | Our stop was too tight for the volatile regime | 0.6 |\n"
        "\n"
        "Surprise score: 0.50",
        {"surprise": "medium", "lessons": 2},
    ),
    # form: no lessons
    (
        "Surprise score: 0.34\n"
        "Lessons: none worth recording this time; the episode played out as the "
        "playbook predicted.",
        {"surprise": "medium", "lessons": 0},
    ),
    # form: inline numbered lessons
    (
        "The liquidation cascade was a genuine shock; I'd score surprise at 0.85. "
        "What I learned: (1) our health-factor buffer of 1.3 was too thin; (2) the "
        "keeper bots were faster than our exit path; (3) the oracle lag matters more "
        "than we assumed; (4) we should keep an emergency repay transaction ready.",
        {"surprise": "high", "lessons": 4},
    ),
    (
        "episode_id: ep-2031\n"
        "surprise_score: 0.61\n"
        "lessons:\n"
        "  - insight: Funding flips precede basis trades unwinding\n"
        "    confidence: 0.6\n"
        "    applicable_conditions: [trending]\n"
        "counterfactuals:\n"
        "  - alternative_action: hedge earlier\n"
        "    estimated_outcome: saved about 1.1%\n"
        "    plausibility: 0.5\n"
        "arousal_delta: 0.1",
        {"surprise": "medium", "lessons": 1},
    ),
    # small model: small model, cut off
    (
        "**Surprise Score:** 0.3\n"
        "**Lessons:**\n"
        "* The market is volatile.\n"
        "* The market can go down.\n"
        "**Counterfactuals:**\n"
        "* If we sold the market would be",
        {"surprise": "low", "lessons": 2},
    ),
    # hard: 'high confidence' near surprise
    (
        "Expected a mild pullback, got one. Surprise: low (about 10%). High "
        "confidence in the main lesson: trailing stops in calm regimes cost more "
        "than they save. A second, weaker lesson: check the funding rate before "
        "opening positions at night.",
        {"surprise": "low", "lessons": 2},
    ),
    (
        'Surprise=0.58, lessons=["Bridges add a day of exit latency", '
        '"Stable-to-stable pools can still depeg"]',
        {"surprise": "medium", "lessons": 2},
    ),
]

FRAGMENT: Corpus = [
    (
        "Novelty: 0.8, Relevance: 0.7, Coherence: 0.9. Verdict: promote.",
        {"verdict": "promote"},
    ),
    (
        '{"novelty": 0.2, "relevance": 0.3, "coherence": 0.5, "verdict": "discard"}',
        {"verdict": "discard"},
    ),
    # hard: all three verdicts, two negated
    (
        "It's novel (0.75), but I can't tell yet whether it holds outside the one "
        "crash it came from. Not ready to promote, not bad enough to discard: stage "
        "it and see whether the next dreams corroborate it.",
        {"verdict": "stage"},
    ),
    # small model: small model
    (
        "verdict: stage verdict: stage the fragment is interesting but the fragment "
        "is not tested the fragment is",
        {"verdict": "stage"},
    ),
    (
        "**Verdict:** Discard. The fragment contradicts itself (it says gas spikes "
        "both precede and follow liquidations).\n"
        "**Novelty:** 0.4 | **Relevance:** 0.6 | **Coherence:** 0.1",
        {"verdict": "discard"},
    ),
    # hard: rejected stage
    (
        "I was tempted to just stage this, but relevance is very high (0.9) and the "
        "pattern showed up in three separate replays. Promote it.",
        {"verdict": "promote"},
    ),
    # form: throw it out
    (
        'This is noise: a restatement of "prices go down sometimes". Throw it out. '
        "novelty=0.05 relevance=0.4 coherence=0.8",
        {"verdict": "discard"},
    ),
    (
        "Keep it provisional and hold it in staging until we have more evidence.\nverdict=stage",
        {"verdict": "stage"},
    ),
    (
        "| score | value |\n"
        "|---|---|\n"
        "| novelty | 0.6 |\n"
        "| relevance | 0.8 |\n"
        "| coherence | 0.7 |\n"
        "| verdict | PROMOTE |",
        {"verdict": "promote"},
    ),
    # hard: negated discard
    (
        "Don't discard it. The coherence score is low (0.4) only because the "
        "fragment is phrased badly; the idea itself is sound and relevant. I'd stage "
        "it with a rewrite.",
        {"verdict": "stage"},
    ),
    # small model: small model, cut off
    (
        "**Novelty:** 0.5\n"
        "**Relevance:** 0.5\n"
        "**Coherence:** 0.5\n"
        "**Verdict:** Promote. The fragment is good. The fragment is good and it "
        "should be promoted. The fragment is good and",
        {"verdict": "promote"},
    ),
    # form: reject = discard
    (
        "Recommendation: reject this fragment. It's a dream artifact that mixes two "
        "unrelated pools, so there is nothing worth keeping.",
        {"verdict": "discard"},
    ),
]

INTEGRATION: Corpus = [
    (
        "Promoted:\n"
        "- H-12: Low-liquidity hours raise slippage (confidence 0.8)\n"
        "\n"
        "Staged:\n"
        "- H-15: Funding flips lead spot moves (0.5)\n"
        "- H-16: Governance votes move the pool fee within a day (0.45)\n"
        "\n"
        "Discarded:\n"
        "- H-9: Full moons predict volatility (0.05)",
        {"promoted": 1, "staged": 2, "discarded": 1},
    ),
    (
        '{"promoted": [], "staged": [{"hypothesis_id": "h-4", "summary": '
        '"Weekend spreads widen on small pools", "confidence": 0.5, '
        '"rationale": "two episodes"}], "discarded": [{"hypothesis_id": '
        '"h-2", "summary": "Gas predicts price", "confidence": 0.1, '
        '"rationale": "no support"}, {"hypothesis_id": "h-3", "summary": '
        '"Every dip recovers within an hour", "confidence": 0.15, "rationale": '
        '"contradicted by ep-31"}], "playbook_diff": null}',
        {"promoted": 0, "staged": 1, "discarded": 2},
    ),
    # hard: prose counts, 'drop none'
    (
        "Nothing gets promoted this cycle. I'd keep both new hypotheses staged (the "
        "gas-liquidation link and the weekend volume dip) and drop none.",
        {"promoted": 0, "staged": 2, "discarded": 0},
    ),
    # form: ids in prose
    (
        "Promote h-3 and h-7. Discard h-5 (contradicted by last week's replay). "
        "Everything else stays staged: h-8, h-9, h-11.",
        {"promoted": 2, "staged": 3, "discarded": 1},
    ),
    (
        "| hypothesis | decision | confidence |\n"
        "|---|---|---|\n"
        "| h-1: oracle lag on L2s | promote | 0.8 |\n"
        "| h-2: LP fees beat holding in calm weeks | stage | 0.55 |\n"
        "| h-4: whales sell before unlocks | discard | 0.2 |\n"
        "| h-6: gas is cheaper on Sundays | discard | 0.3 |",
        {"promoted": 1, "staged": 1, "discarded": 2},
    ),
    # small model: small model repetitive
    (
        "promoted: h-2 promoted: h-2 staged: none discarded: h-4, h-5 the hypothesis "
        "h-2 is good the hypothesis h-2 is good",
        {"promoted": 1, "staged": 0, "discarded": 2},
    ),
    (
        "promoted:\n"
        "  - hypothesis_id: d-14\n"
        "    summary: Depth halves in the hour before US open\n"
        "    confidence: 0.82\n"
        "    rationale: confirmed in four replays\n"
        "staged: []\n"
        "discarded:\n"
        "  - hypothesis_id: d-9\n"
        "    summary: Funding predicts governance outcomes\n"
        "    confidence: 0.1\n"
        "    rationale: no mechanism\n"
        "  - hypothesis_id: ''\n"
        "    summary: Stablecoins never depeg on weekends\n"
        "    confidence: 0.05\n"
        "    rationale: contradicted by history",
        {"promoted": 1, "staged": 0, "discarded": 2},
    ),
    # hard: considered promoting, none promoted
    (
        'Three candidates this dream. I considered promoting the "weekend thin '
        'books" idea, but it has only two supporting episodes, so it stays staged '
        'alongside the oracle-lag idea. The third, "whales front-run governance '
        'votes", is discarded as unfalsifiable. Promoted: none.',
        {"promoted": 0, "staged": 2, "discarded": 1},
    ),
    # form: counts in headers
    (
        "Promoted (2):\n"
        "- h-31: Slippage doubles when the pool's TVL drops under $1M\n"
        "- h-33: Borrow rates spike before liquidations\n"
        "Staged (0)\n"
        "Discarded (3):\n"
        "- h-27: Price follows tweets\n"
        "- h-28: Volume predicts direction\n"
        "- h-30: Gas and volatility are unrelated",
        {"promoted": 2, "staged": 0, "discarded": 3},
    ),
    # small model: small model, cut off
    (
        "**Promoted:**\n"
        "* Gas is high in the morning.\n"
        "**Staged:**\n"
        "* The market goes down on Friday.\n"
        "**Discarded:**\n"
        "* The moon affects the price.\n"
        "\n"
        "The moon affects the price is not true. The moon affects the price is not "
        "true because",
        {"promoted": 1, "staged": 1, "discarded": 1},
    ),
    # hard: 'staged' describes the promoted ones
    (
        "All four staged hypotheses get promoted: h-2 (gas spikes before "
        "liquidations), h-5 (funding mean-reverts within 8h), h-6 (thin weekend "
        "books) and h-10 (oracle lag on L2s). Each was confirmed by at least three "
        "replays. No new ones to stage, none to discard.",
        {"promoted": 4, "staged": 0, "discarded": 0},
    ),
    # hard: negated discard in prose
    (
        "```json\n"
        '{"promoted": [{"hypothesis_id": "h-21", "summary": "Hedging costs '
        'exceed savings in calm regimes", "confidence": 0.75, "rationale": '
        '"five episodes"}], "staged": [{"hypothesis_id": "h-22", '
        '"summary": "Unlocks depress price for a week", "confidence": 0.5, '
        '"rationale": "mixed"}, {"hypothesis_id": "", "summary": "Bridge '
        'delays cluster on Mondays", "confidence": 0.35, "rationale": "new"}],'
        ' "discarded": []}\n'
        "```\n"
        "I didn't discard anything: even the weakest idea has one supporting episode.",
        {"promoted": 1, "staged": 2, "discarded": 0},
    ),
]

THREAT: Corpus = [
    (
        "Threat type: oracle manipulation\n"
        "Severity: high\n"
        "Likelihood: 0.35\n"
        "Impact if realized: the lending position is liquidated at a false price\n"
        "Mitigations:\n"
        "- keep the health factor above 1.6\n"
        "- cross-check the TWAP against two CEX feeds",
        {"severity": "high", "threat_type": "oracle manipulation"},
    ),
    (
        '{"threat_type": "smart contract exploit", "severity": "critical", '
        '"likelihood": 0.2, "impact_if_realized": "loss of all funds in the '
        'vault", "mitigation_actions": ["withdraw to cold wallet"], '
        '"detection_signals": ["TVL drop > 20% in 10 minutes"], '
        '"rehearsal_outcome": "exit completes in 2 blocks"}',
        {"severity": "critical", "threat_type": "smart contract exploit"},
    ),
    # form: prose
    (
        "The main risk I see is a depeg of USDC. I'd rate it medium: likelihood "
        "around 10%, but the impact on a 40% stablecoin allocation would be material.",
        {"severity": "medium", "threat_type": "depeg"},
    ),
    # hard: negated medium
    (
        "Severity: Low (not medium: the position is only $300 and it sits behind a "
        "48h timelock).\n"
        "Threat: governance attack on the pool's fee parameters.",
        {"severity": "low", "threat_type": "governance attack"},
    ),
    # small model: small model run-on
    (
        "the threat is a rug pull the threat is a rug pull the severity is high the "
        "severity is high because the team can withdraw the liquidity the likelihood "
        "is 0.6 the",
        {"severity": "high", "threat_type": "rug pull"},
    ),
    (
        "**Threat:** MEV sandwich attacks on our swaps\n"
        "**Severity:** Medium\n"
        "**Likelihood:** 70%\n"
        "**Mitigation:** use a private RPC and tighter slippage limits",
        {"severity": "medium", "threat_type": "sandwich"},
    ),
    (
        'threat_type="bridge exploit" severity=CRITICAL likelihood=.05 '
        'impact_if_realized="total loss of the bridged WBTC"',
        {"severity": "critical", "threat_type": "bridge exploit"},
    ),
    # hard: negated critical
    (
        "This could look critical at first glance, but our exposure is tiny. "
        "Liquidity crunch in the LP pool: severity low. Worst case we wait a day to "
        "withdraw.",
        {"severity": "low", "threat_type": "liquidity crunch"},
    ),
    (
        "threat_type: private key compromise\n"
        "severity: critical\n"
        "likelihood: 0.02\n"
        "impact_if_realized: every asset in the wallet is lost\n"
        "mitigation_actions:\n"
        "  - move the bulk of funds to a multisig\n"
        "  - rotate the hot key\n"
        "detection_signals:\n"
        "  - approvals we did not make",
        {"severity": "critical", "threat_type": "key compromise"},
    ),
    # small model: small model, cut off
    (
        "**Threat Type:** Price crash\n"
        "**Severity:** High\n"
        "**Likelihood:** 0.5\n"
        "**Impact:** The price crash. The price crash is bad. The price crash is bad "
        "because",
        {"severity": "high", "threat_type": "price crash"},
    ),
    # hard: high likelihood, medium severity
    (
        "Likelihood is high (0.8) but the impact is small, so overall severity is "
        "medium. Threat: front-end phishing (a fake UI for the DEX we use).",
        {"severity": "medium", "threat_type": "phishing"},
    ),
    (
        "Severity: low. Nothing exotic stands out; the threat is a generic "
        "market-wide drawdown, which the existing stop-losses already cover.",
        {"severity": "low", "threat_type": "drawdown"},
    ),
]
