"""Free-text heartbeat answers as models write them (labelled, in prose, run-on, hedged,
several enum words at once), each with the severity and action it means."""

from __future__ import annotations

CORPUS: list[tuple[str, str, str]] = [
    ("Severity: Moderate\nAction: analyze\nConfidence: 0.6", "moderate", "analyze"),
    ("**Severity** - high\n**Action** - hedge\nconfidence 72%", "high", "hedge"),
    ("severity=none action=observe confidence=.9", "none", "observe"),
    (
        "Nothing notable this tick: price flat, volume normal. No need to exit or hedge; "
        "just keep watching.",
        "none",
        "observe",
    ),
    (
        "The move is medium-sized. I'd look closer before doing anything, so analyze; "
        "not yet time to rebalance.",
        "moderate",
        "analyze",
    ),
    (
        "Severity: critical. Close the position now, the health factor is 1.05 and falling.",
        "critical",
        "exit",
    ),
    (
        "I think severity is high because ETH dropped 6% and volume tripled, I think we should "
        "hedge, hedge about half, not exit yet, hedge is the action, confidence around 70%",
        "high",
        "hedge",
    ),
    (
        "Severity: low. Action: observe. The dip is minor and within the band.",
        "low",
        "observe",
    ),
    (
        "This is serious but not an emergency. Reduce exposure by rebalancing toward stables. "
        "Severity high.",
        "high",
        "rebalance",
    ),
    (
        "Escalate to a stronger model: the signals conflict and I cannot tell if this is a "
        "crash. Severity: high.",
        "high",
        "escalate",
    ),
    (
        "Risk level: elevated. Investigate the funding flip before acting.",
        "moderate",
        "analyze",
    ),
    (
        "No concern here. Hold.",
        "none",
        "observe",
    ),
    (
        "severity: medium\naction: rebalance\nreason: weights drifted 8% from target",
        "moderate",
        "rebalance",
    ),
    (
        "Action: exit. Severity: critical. Confidence: 0.85. Escalate: no.",
        "critical",
        "exit",
    ),
    (
        "the market is down a bit, severity low low, observe observe, nothing to do for now "
        "maybe watch the volume",
        "low",
        "observe",
    ),
    (
        "Severity — moderate. We could hedge or rebalance; I'd rather hedge a quarter of the "
        "position. Action: hedge.",
        "moderate",
        "hedge",
    ),
    (
        '{"severity": "high", "action": "escalate", "confidence": 0.55, "rationale": '
        '"mixed signals", "signals": [], "escalate": true}',
        "high",
        "escalate",
    ),
    (
        "| Severity | Action |\n|---|---|\n| moderate | observe |",
        "moderate",
        "observe",
    ),
    (
        "Given the 3% drop on thin liquidity this looks high severity. Recommended action: "
        "hedge. Do not exit.",
        "high",
        "hedge",
    ),
    (
        "Severity: none\nAction: observe\nRationale: a quiet tick.",
        "none",
        "observe",
    ),
    (
        "Hmm. Price is falling fast, health factor near 1.1. This is critical. I recommend we "
        "close the position rather than hedge.",
        "critical",
        "exit",
    ),
    (
        "Assessment: low severity. A closer look is warranted though, so: analyze.",
        "low",
        "analyze",
    ),
    (
        "severity moderate, action observe, confidence 65%, no escalation",
        "moderate",
        "observe",
    ),
    (
        "Severity: High\nAction: Rebalance\nConfidence: 80%\nEscalate: No\nSignals:\n"
        "- price: down 4%\n- volume: 2x",
        "high",
        "rebalance",
    ),
    (
        "I considered an exit but it is premature, and a hedge would be overkill too. Keep "
        "monitoring. Moderate concern.",
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
]
