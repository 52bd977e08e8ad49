"""Free-text heartbeat answers as models write them (labelled, in prose, run-on, hedged,
several enum words at once), each with the severity and action it means. Answers 109-133
were written after the readers' design and read right as they stood; of answers 134-153,
written later still, 18 did (the two misses led to a wide negation: "no need for drastic
action like exiting")."""

from __future__ import annotations

CORPUS: list[tuple[str, str, str]] = [
    ("Severity: Moderate\nAction: analyze\nConfidence: 0.6", "moderate", "analyze"),
    ("**Severity** - high\n**Action** - hedge\nconfidence 72%", "high", "hedge"),
    ("severity=none action=observe confidence=.9", "none", "observe"),
    (
        (
            "Nothing notable this tick: price flat, volume normal. No need to exit or hedge; just "
            "keep watching."
        ),
        "none",
        "observe",
    ),
    (
        (
            "The move is medium-sized. I'd look closer before doing anything, so analyze; not yet "
            "time to rebalance."
        ),
        "moderate",
        "analyze",
    ),
    (
        "Severity: critical. Close the position now, the health factor is 1.05 and falling.",
        "critical",
        "exit",
    ),
    (
        (
            "I think severity is high because ETH dropped 6% and volume tripled, I think we "
            "should hedge, hedge about half, not exit yet, hedge is the action, confidence around "
            "70%"
        ),
        "high",
        "hedge",
    ),
    ("Severity: low. Action: observe. The dip is minor and within the band.", "low", "observe"),
    (
        (
            "This is serious but not an emergency. Reduce exposure by rebalancing toward stables. "
            "Severity high."
        ),
        "high",
        "rebalance",
    ),
    (
        (
            "Escalate to a stronger model: the signals conflict and I cannot tell if this is a "
            "crash. Severity: high."
        ),
        "high",
        "escalate",
    ),
    ("Risk level: elevated. Investigate the funding flip before acting.", "moderate", "analyze"),
    ("No concern here. Hold.", "none", "observe"),
    (
        "severity: medium\naction: rebalance\nreason: weights drifted 8% from target",
        "moderate",
        "rebalance",
    ),
    ("Action: exit. Severity: critical. Confidence: 0.85. Escalate: no.", "critical", "exit"),
    (
        (
            "the market is down a bit, severity low low, observe observe, nothing to do for now "
            "maybe watch the volume"
        ),
        "low",
        "observe",
    ),
    (
        (
            "Severity — moderate. We could hedge or rebalance; I'd rather hedge a quarter of the "
            "position. Action: hedge."
        ),
        "moderate",
        "hedge",
    ),
    (
        (
            '{"severity": "high", "action": "escalate", "confidence": 0.55, "rationale": "mixed '
            'signals", "signals": [], "escalate": true}'
        ),
        "high",
        "escalate",
    ),
    ("| Severity | Action |\n|---|---|\n| moderate | observe |", "moderate", "observe"),
    (
        (
            "Given the 3% drop on thin liquidity this looks high severity. Recommended action: "
            "hedge. Do not exit."
        ),
        "high",
        "hedge",
    ),
    ("Severity: none\nAction: observe\nRationale: a quiet tick.", "none", "observe"),
    (
        (
            "Hmm. Price is falling fast, health factor near 1.1. This is critical. I recommend we "
            "close the position rather than hedge."
        ),
        "critical",
        "exit",
    ),
    ("Assessment: low severity. A closer look is warranted though, so: analyze.", "low", "analyze"),
    ("severity moderate, action observe, confidence 65%, no escalation", "moderate", "observe"),
    (
        (
            "Severity: High\nAction: Rebalance\nConfidence: 80%\nEscalate: No\nSignals:\n- price: "
            "down 4%\n- volume: 2x"
        ),
        "high",
        "rebalance",
    ),
    (
        (
            "I considered an exit but it is premature, and a hedge would be overkill too. Keep "
            "monitoring. Moderate concern."
        ),
        "moderate",
        "observe",
    ),
    ("not critical, not high, I'd say low. watch.", "low", "observe"),
    (
        "We should probably exit if it breaks 1800; for now hold. Severity moderate.",
        "moderate",
        "observe",
    ),
    (
        "Should we hedge? Maybe later. Right now: analyze the order book. severity: low",
        "low",
        "analyze",
    ),
    (
        "Severity: HIGH\nAction: hedge\nAction: hedge\nConfidence: 70%\nSeverity: HIGH",
        "high",
        "hedge",
    ),
    ("Severity: moderate. Action:", "moderate", "observe"),
    (
        (
            "Assessment: The price movement is within normal range. Severity: None. Recommended "
            "action: Observe. Confidence: 85%."
        ),
        "none",
        "observe",
    ),
    (
        (
            "- **Severity**: moderate\n- **Action**: analyze\n- **Confidence**: 0.65\n- "
            "**Rationale**: volume spike without price follow-through"
        ),
        "moderate",
        "analyze",
    ),
    (
        (
            "Based on the signals, I would classify this as a low severity event. There is no "
            "reason to hedge or exit at this point. I recommend continuing to observe the market."
        ),
        "low",
        "observe",
    ),
    (
        (
            "The ETH price dropped 8% in the last hour with heavy volume. This is a high severity "
            "situation. We should reduce exposure by hedging with a short perp. Confidence: 0.7"
        ),
        "high",
        "hedge",
    ),
    ("Severity: Medium | Action: Investigate further | Confidence: 60%", "moderate", "analyze"),
    ("It's fine. Nothing to worry about. Keep observing.", "none", "observe"),
    (
        (
            "The situation is concerning but not critical. I'd say moderate. We should rebalance "
            "the portfolio to reduce exposure to ETH, which is now 70% of holdings."
        ),
        "moderate",
        "rebalance",
    ),
    (
        "URGENT: liquidation risk. Health factor 1.02. Exit immediately. Severity critical.",
        "critical",
        "exit",
    ),
    (
        (
            "severity: high, action: escalate (the signals conflict, a stronger model should look "
            "at this)"
        ),
        "high",
        "escalate",
    ),
    (
        (
            "I think the severity is moderate and I think we should analyze more, the price is "
            "moving and the volume is moving and the price is moving so we should analyze the "
            "price and the volume and"
        ),
        "moderate",
        "analyze",
    ),
    (
        (
            "Severity: low\nAction: observe\nConfidence: 0.8\nRationale: The 1.2% drop is within "
            "normal volatility. No action is needed; hedging or rebalancing would be premature."
        ),
        "low",
        "observe",
    ),
    (
        (
            "This warrants a deeper look by a stronger model. Severity moderate. I'm not "
            "confident enough to act alone."
        ),
        "moderate",
        "escalate",
    ),
    (
        "There's no need to panic. Severity is low. Don't exit, don't hedge. Just monitor.",
        "low",
        "observe",
    ),
    (
        (
            "Decision: hedge 30% of the position\nSeverity: high\nWhy: funding flipped and open "
            "interest is climbing."
        ),
        "high",
        "hedge",
    ),
    (
        (
            "The severity level is moderate. I would not recommend exiting the position at this "
            "time; instead, let's take a closer look at on-chain flows before deciding."
        ),
        "moderate",
        "analyze",
    ),
    (
        '```json\n{"severity": "moderate", "action": "rebalance", "confidence": 0.6}\n```',
        "moderate",
        "rebalance",
    ),
    ("Severity: 2/5 (low). Action: keep watching.", "low", "observe"),
    ("sev: high\nact: exit\nconf: .8", "high", "exit"),
    (
        (
            "My assessment: this is a significant move (high severity). Rather than closing "
            "everything, I'd trim the position and rebalance into stables."
        ),
        "high",
        "rebalance",
    ),
    ("Nothing notable. The probes fired on noise. No action required.", "none", "observe"),
    (
        "Severity is HIGH. Selling everything now is too drastic; hedging is the right call.",
        "high",
        "hedge",
    ),
    (
        (
            "The market is calm. Severity none. Action observe. Severity none. Action observe. "
            "Severity none."
        ),
        "none",
        "observe",
    ),
    (
        (
            "Verdict: escalate. The severity might be high or critical, I can't tell; a T2 review "
            "is needed."
        ),
        "high",
        "escalate",
    ),
    ("Level of concern: moderate\nNext step: analyze the liquidity pools", "moderate", "analyze"),
    (
        (
            "The drop looks like a normal pullback, so severity is low, and I don't think we need "
            "to do anything other than watch. If it falls another 5% we should hedge."
        ),
        "low",
        "observe",
    ),
    ("Answer: moderate severity, hedge.", "moderate", "hedge"),
    (
        "Severity: Critical\nAction: Exit all positions\nConfidence: 90%\nEscalate: Yes",
        "critical",
        "exit",
    ),
    ("I'd rate the severity as moderate. Action: wait and see.", "moderate", "observe"),
    (
        (
            "Given the elevated volatility, I recommend we analyse the order book depth. Severity "
            "moderate, confidence seventy percent."
        ),
        "moderate",
        "analyze",
    ),
    ("We should definitely not exit. It's a low risk dip. Observe.", "low", "observe"),
    ("Severity: high. The position should be closed out before it gets worse.", "high", "exit"),
    (
        "No concern at this time; the move is noise. Action: none needed, continue monitoring.",
        "none",
        "observe",
    ),
    ("sev=moderate;act=hedge;conf=0.55", "moderate", "hedge"),
    (
        (
            "Given the data, the risk is not high, more like medium. It makes sense to cut "
            "exposure a bit by rebalancing."
        ),
        "moderate",
        "rebalance",
    ),
    ("I'm going to say high. And exit? No, not yet. Hedge first.", "high", "hedge"),
    (
        "Severity: moderate\nAction: observe, but escalate if the drawdown exceeds 10%",
        "moderate",
        "observe",
    ),
    (
        (
            "The correct action here is to analyze. Severity: low. Confidence: 0.7. The analysis "
            "should focus on"
        ),
        "low",
        "analyze",
    ),
    ("Severity\n: high\nAction\n: hedge", "high", "hedge"),
    ("We should reduce exposure. Severity: moderate.", "moderate", "rebalance"),
    ("Reduce exposure by opening a short perp hedge. Severity: high.", "high", "hedge"),
    ("Severity high. I'd reduce exposure through a hedge rather than selling.", "high", "hedge"),
    ("Trim the ETH position back to target weight. Severity: moderate.", "moderate", "rebalance"),
    ("Buy some puts to protect the downside. Severity: high, confidence 65%.", "high", "hedge"),
    ("Stay the course, nothing to do here. Minor wobble.", "low", "observe"),
    ("Keep an eye on it. Mild move, severity low.", "low", "observe"),
    (
        "This needs a closer look at the funding rates before we do anything. Moderate.",
        "moderate",
        "analyze",
    ),
    ("Hand this off to the stronger model, severity high, I am unsure.", "high", "escalate"),
    ("Flag it for tier 2 review. Severity: high.", "high", "escalate"),
    ("The probes fired but it is just noise. No action.", "none", "observe"),
    ("Severity: 4/5\nAction: hedge", "high", "hedge"),
    ("Get out now. Severity critical. The pool is being drained.", "critical", "exit"),
    (
        (
            "sell everything, this is critical critical critical the protocol is hacked sell "
            "everything now"
        ),
        "critical",
        "exit",
    ),
    ("Severity: significant. Action: de-risk by rebalancing half into USDC.", "high", "rebalance"),
    (
        (
            "ok so the price went down and the volume went up and that is a moderate thing i "
            "think and we should look at it more closely and maybe analyze it and then we can "
            "decide if we hedge or"
        ),
        "moderate",
        "analyze",
    ),
    ("Action: Monitor\nSeverity: Low\nConfidence: 75%", "low", "observe"),
    (
        (
            "It is not an emergency. Not a high severity event either. A moderate one. Hedge a "
            "small part, no exit."
        ),
        "moderate",
        "hedge",
    ),
    (
        "I would not approve an exit here, the severity is only moderate. Better to rebalance.",
        "moderate",
        "rebalance",
    ),
    ("Action - ESCALATE\nSeverity - HIGH\nConfidence - 40%", "high", "escalate"),
    ("Severity: moderate. Escalate? No. Action: analyze.", "moderate", "analyze"),
    ("Everything looks normal. Severity: none. No action needed.", "none", "observe"),
    ("Severity rating: 1 (low)\nRecommended: observe", "low", "observe"),
    ("* severity: high\n* action: close the position\n* confidence: 0.8", "high", "exit"),
    ("Recommendation: unwind the LP position. Severity: high.", "high", "exit"),
    (
        (
            "This is a moderate risk. Rebalancing is not needed yet. Analysis of the whale wallet "
            "is."
        ),
        "moderate",
        "analyze",
    ),
    ("I'd hold off on hedging. Severity low; just observe for now.", "low", "observe"),
    ("The drop is serious. We must hedge.", "high", "hedge"),
    (
        (
            "Severity: high. Action: hedge. Also considered: exit (rejected, too early), "
            "rebalance (no)."
        ),
        "high",
        "hedge",
    ),
    ("Not worth worrying about. Continue to observe.", "none", "observe"),
    ("Severity: low-moderate. Watch it.", "low", "observe"),
    ("Severity: Moderate to high. Hedge.", "moderate", "hedge"),
    ("{'severity': 'high', 'action': 'hedge'}", "high", "hedge"),
    (
        (
            "severity: HIGH\naction: hedge\nrationale: volatility is up 3x and we hold a levered "
            "long, a hedge limits the downside while we wait for"
        ),
        "high",
        "hedge",
    ),
    (
        "The situation calls for escalation to a stronger model. Severity: critical.",
        "critical",
        "escalate",
    ),
    ("I recommend escalating. Severity moderate.", "moderate", "escalate"),
    ("Escalation is not necessary. Severity low. Observe.", "low", "observe"),
    (
        (
            "There is no need to escalate to a stronger model; severity is moderate and analyzing "
            "the flows is enough."
        ),
        "moderate",
        "analyze",
    ),
    (
        "Severity: HIGH. Exiting would lock in losses, so I advise against it. Hedge instead.",
        "high",
        "hedge",
    ),
    ("Low severity. It's probably fine but let's investigate why volume spiked.", "low", "analyze"),
    (
        (
            "**Assessment**\n\nThe 15-minute price change of -2.1% combined with a 1.8x volume "
            "ratio suggests some selling pressure, but nothing that threatens the position.\n\n"
            "**Severity:** Low\n**Action:** Observe\n**Confidence:** 0.75"
        ),
        "low",
        "observe",
    ),
    (
        (
            "Let me think step by step. First, the price fell. Second, the health factor is 1.4, "
            "which is safe. Third, the funding rate is neutral. Therefore the severity is low and "
            "the best action is to keep observing."
        ),
        "low",
        "observe",
    ),
    (
        (
            "<think>The price fell 9%. Should I exit? Health factor 1.1. Yes, exit may be "
            "needed.</think>\nSeverity: critical\nAction: exit\nConfidence: 0.8"
        ),
        "critical",
        "exit",
    ),
    (
        (
            "I'm seeing a moderate anomaly in volume. I'd like to analyze it further before "
            "taking any action. No hedging or exiting for now."
        ),
        "moderate",
        "analyze",
    ),
    (
        (
            "1. Severity: high\n2. Action: hedge\n3. Confidence: 70%\n4. Rationale: ETH fell 5% "
            "with rising volume."
        ),
        "high",
        "hedge",
    ),
    (
        (
            "The signal is weak. Severity: low. There's no reason to escalate or take action. "
            "Observe."
        ),
        "low",
        "observe",
    ),
    (
        (
            "Situation: ETH down 12% in an hour, health factor 1.08, liquidation imminent.\n"
            "Decision: Exit the position immediately.\nSeverity: Critical."
        ),
        "critical",
        "exit",
    ),
    (
        (
            "I don't have enough information to decide; severity looks high but the data is "
            "contradictory. Escalating to T2."
        ),
        "high",
        "escalate",
    ),
    ("moderate. hedge.", "moderate", "hedge"),
    ("HIGH / HEDGE / 0.7", "high", "hedge"),
    (
        (
            "Severity: moderate — Action: rebalance — Confidence: 60% — the portfolio has drifted "
            "10% from target."
        ),
        "moderate",
        "rebalance",
    ),
    (
        (
            "The market dropped slightly, probably normal volatility. I would rate severity as "
            "low. My recommended action would be to observe and not take any action at this "
            "point. If the price drops further, we could consider hedging."
        ),
        "low",
        "observe",
    ),
    (
        (
            "Severity: High. Action: Analyze. We shouldn't act hastily, let's first understand "
            "what's happening with the stablecoin depeg."
        ),
        "high",
        "analyze",
    ),
    (
        (
            "There is a notable increase in volatility. I recommend hedging part of the exposure. "
            "Severity: moderate."
        ),
        "moderate",
        "hedge",
    ),
    (
        (
            "Based on the probe readings, this appears to be a medium severity event. Recommend "
            "rebalancing."
        ),
        "moderate",
        "rebalance",
    ),
    ("No significant change. Continue observing. Severity: none.", "none", "observe"),
    (
        (
            "The severity is high, and the action should be to hedge, hedge, hedge. The severity "
            "is high. The action should be to hedge. The severity"
        ),
        "high",
        "hedge",
    ),
    ("Exit? Hedge? Neither. It's a moderate wobble; observe.", "moderate", "observe"),
    (
        (
            "Severity: Low\nAction: Observe\nEscalate: False\nSignals:\n- price: -1.1%\n- volume: "
            "1.2x normal"
        ),
        "low",
        "observe",
    ),
    ("I recommend an exit. Severity: high. Confidence: 0.75.", "high", "exit"),
    (
        (
            "Things are getting worse: severity is now critical. Escalate to a stronger model "
            "immediately, and in the meantime do not trade."
        ),
        "critical",
        "escalate",
    ),
    ("The alert is a false positive, no concern. Action: observe.", "none", "observe"),
    (
        (
            "Severity: moderate (3/5)\nAction: analyze (check whether the whale transfer hit an "
            "exchange)"
        ),
        "moderate",
        "analyze",
    ),
    (
        (
            "We are seeing large liquidations across the market. Severity high. I suggest we "
            "close half the position and rebalance into stables."
        ),
        "high",
        "rebalance",
    ),
    (
        "Action: Hedge\nRationale: The severity is moderate; price fell 3% on rising volume.",
        "moderate",
        "hedge",
    ),
    (
        (
            "Okay. Looking at this tick: ETH -0.4%, volume flat, funding unchanged. I don't see "
            "anything that needs attention. Severity none, observe."
        ),
        "none",
        "observe",
    ),
    (
        (
            "SEVERITY: MODERATE\nACTION: ANALYZE\nCONFIDENCE: 55%\nRATIONALE: Funding flipped "
            "negative while price held; worth a closer look."
        ),
        "moderate",
        "analyze",
    ),
    (
        (
            "The health factor fell from 1.6 to 1.25 within the hour. That's a high-severity "
            "development. Best move: add a hedge."
        ),
        "high",
        "hedge",
    ),
    (
        (
            "Severity assessment: critical — the lending pool paused withdrawals. Action: exit "
            "whatever can be withdrawn."
        ),
        "critical",
        "exit",
    ),
    (
        (
            "I would classify this as moderate. There's no need for drastic action like exiting; "
            "a rebalance back to target weights should suffice."
        ),
        "moderate",
        "rebalance",
    ),
    ("Summary: low severity, keep observing, no escalation needed.", "low", "observe"),
    (
        (
            "Honestly the signals are mixed: volume is up but price is flat. I'd want a stronger "
            "model to weigh in. Severity: moderate."
        ),
        "moderate",
        "escalate",
    ),
    (
        (
            "Severity: high. Action: hedge. Confidence: 0.7. Severity: high. Action: hedge. "
            "Confidence: 0.7. Severity: high. Action:"
        ),
        "high",
        "hedge",
    ),
    ("action=analyze severity=low", "low", "analyze"),
    (
        "This doesn't warrant an exit or a hedge. It's a minor blip. Keep watching.",
        "low",
        "observe",
    ),
    ("Heartbeat decision -> severity: none, action: observe", "none", "observe"),
    ("Rate: moderate. Do: rebalance.", "moderate", "rebalance"),
    (
        (
            "We're seeing a potential depeg of USDC (0.985). Severity high. Action: investigate "
            "the peg before moving funds."
        ),
        "high",
        "analyze",
    ),
    ("It would be premature to hedge. Severity: low. Action: observe.", "low", "observe"),
    (
        "Severity is moderate-to-high; I recommend hedging 25% of the ETH exposure.",
        "moderate",
        "hedge",
    ),
    ("The position is at risk of liquidation. Critical. Unwind it now.", "critical", "exit"),
    ("Observation only. Nothing notable.", "none", "observe"),
    ("- Severity → high\n- Action → rebalance\n- Escalate → no", "high", "rebalance"),
    (
        (
            "Action: escalate\nSeverity: critical\nRationale: possible exploit in the pool; needs "
            "the T2 model."
        ),
        "critical",
        "escalate",
    ),
    ("I think it's fine to wait. Low.", "low", "observe"),
    # Written with the second development corpus's misses in view (a trailing-off separator, a
    # labelled escalate over a hedged action in prose, pairs run together with spaces).
    (
        "Severity ... low. Funding nudged up but nothing else moved. Action ... observe",
        "low",
        "observe",
    ),
    (
        "Severity\u2026 moderate (the LP drifted to 64/36). Action\u2026 rebalance.",
        "moderate",
        "rebalance",
    ),
    (
        "I'd ordinarily hedge a 7% drop, but the oracle print looks off and I don't trust it. "
        "Severity: high. Action: escalate",
        "high",
        "escalate",
    ),
    (
        "Normally I would exit at this health factor, but the pool is too thin to exit cleanly. "
        "severity=critical action=escalate confidence=0.7",
        "critical",
        "escalate",
    ),
    ("hf=2.4 price_move=-0.3% severity=none action=observe", "none", "observe"),
]
