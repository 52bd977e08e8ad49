"""Free-text risk answers as models write them (labelled, tabled, in prose, hedged, run-on,
approving at a smaller size), each with the approval and the adjusted size it means (None:
the size as proposed, or a rejection). Of the last 20, written after the reader's design, 16
read right as they stood (the misses: an answer that opens "No.", "say no", a lone amount
in a sentence about a smaller size)."""

from __future__ import annotations

CORPUS: list[tuple[str, bool, float | None]] = [
    (
        "Approved: yes\nAdjusted size: $2,000\nReasoning: the position is within limits.",
        True,
        2000.0,
    ),
    ("**Decision:** Reject\n**Reason:** The hard shield on max drawdown is breached.", False, None),
    ("approved=false, adjusted_size_usd=null", False, None),
    ("The trade is approved at the proposed size. All five layers pass.", True, None),
    ("I would not approve this trade: the health factor is too close to liquidation.", False, None),
    ("Approve, but reduce the size to $1,500 to stay under the concentration limit.", True, 1500.0),
    ("This looks fine. Go ahead with it.", True, None),
    ("REJECTED - vitality too low for new risk.", False, None),
    (
        "I'm going to block this one. Liquidity is too thin and the protocol is unaudited.",
        False,
        None,
    ),
    ("Approval: conditional. Size down to 800 USD and set a stop at -5%.", True, 800.0),
    (
        "Not approved. The position sizing layer fails: the trade is 35% of the portfolio.",
        False,
        None,
    ),
    (
        (
            "The trade can proceed, though observation flags elevated volatility. Warnings: "
            "volatility is high."
        ),
        True,
        None,
    ),
    ("Verdict: deny. Reason: the golem is in its terminal phase and may only unwind.", False, None),
    (
        (
            "ok so the trade is kind of big and the market is volatile and i think we should "
            "approve it but smaller, like half, so $2,500 instead of $5,000"
        ),
        True,
        2500.0,
    ),
    (
        (
            "Risk assessment:\n- Hard shields: pass\n- Position sizing: fail (0.8) - too large\n- "
            "Adaptive guardrails: pass\n- Observation: pass\n- DeFi threats: pass\nDecision: "
            "rejected"
        ),
        False,
        None,
    ),
    ("All checks pass. Approved.", True, None),
    ("Approve? No. The drawdown limit would be crossed.", False, None),
    ("There is no reason to reject this trade; approve it as proposed.", True, None),
    ("I approve the trade with an adjusted size of $3,000 (down from $4,000).", True, 3000.0),
    ("The proposal fails the hard shields check. It cannot be approved.", False, None),
    (
        (
            '{"approved": true, "adjusted_size_usd": 1200, "layers": {"hard_shields": {"passed": '
            'true, "score": 0.2, "detail": ""}, "position_sizing": {"passed": true, "score": 0.2, '
            '"detail": ""}, "adaptive_guardrails": {"passed": true, "score": 0.2, "detail": ""}, '
            '"observation": {"passed": true, "score": 0.2, "detail": ""}, "defi_threats": '
            '{"passed": true, "score": 0.2, "detail": ""}}, "warnings": []}'
        ),
        True,
        1200.0,
    ),
    ("Approved with a reduced size of 1000 dollars. Warnings: thin liquidity.", True, 1000.0),
    ("The answer is no. Too risky.", False, None),
    ("Status: approved\nAdjusted size: none (as proposed)", True, None),
    ("I'd let this go through, it's within every limit.", True, None),
    (
        (
            "Reject the trade. Even at a smaller size, say $500, it would breach the "
            "concentration limit."
        ),
        False,
        None,
    ),
    ("Decision: Approved ✅\nSize: cut to $750", True, 750.0),
    ("Approved? Yes, but only $600 of the $1,000 requested.", True, 600.0),
    ("We should not go ahead. Decline.", False, None),
    ("The position is acceptable at half size: approve $1,000.", True, 1000.0),
    ('"approved": true, "adjusted_size_usd": 1200', True, 1200.0),
    (
        (
            "## Risk Assessment\n\n| Layer | Result | Score |\n|---|---|---|\n| Hard shields | "
            "Pass | 0.1 |\n| Position sizing | Warn | 0.5 |\n| Adaptive guardrails | Pass | 0.2 "
            "|\n| Observation | Pass | 0.3 |\n| DeFi threats | Pass | 0.1 |\n\n**Approved:** Yes, "
            "at a reduced size of $1,800."
        ),
        True,
        1800.0,
    ),
    (
        "After reviewing all five layers, I find no blocking issues. The trade is approved.",
        True,
        None,
    ),
    (
        (
            "While most checks pass, the DeFi threats layer fails because the pool was exploited "
            "last week. I must reject this proposal."
        ),
        False,
        None,
    ),
    ("My recommendation is to decline this trade.", False, None),
    ("I think this is acceptable. Approve.", True, None),
    (
        (
            "Hmm, the position is large relative to vitality. I'd rather not approve it as is; "
            "approve at $400 instead of $1,000."
        ),
        True,
        400.0,
    ),
    (
        (
            "Approved = False\nReason: concentration limit exceeded (ETH would be 62% of the "
            "portfolio)."
        ),
        False,
        None,
    ),
    ("I can't approve this. Rejected.", False, None),
    ("The risk is acceptable and the trade should proceed.", True, None),
    ("Outcome: BLOCKED\nFailing layer: hard_shields (daily loss limit reached)", False, None),
    ("approve approve approve, it is fine, size is ok, approve", True, None),
    ("The request is for $10,000 which is too big; I approve $2,000.", True, 2000.0),
    ("The hard shields fail. Approved: no.", False, None),
    ("This should not be approved, the market is crashing.", False, None),
    ("Yes, approved. No adjustment to size needed.", True, None),
    ("Approved, capped at $5k.", True, 5000.0),
    ("Safe to proceed.", True, None),
    (
        (
            "I recommend rejecting this trade due to an unaudited protocol, even though the "
            "sizing is acceptable."
        ),
        False,
        None,
    ),
    (
        (
            "Decision: approve with reduced size\nAdjusted size: 2500 USD\nWarnings:\n- "
            "volatility elevated"
        ),
        True,
        2500.0,
    ),
    ("Given the declining vitality, this trade is not permitted.", False, None),
    ("There's nothing blocking this trade. Approved as proposed.", True, None),
    ("It's a no from me. The trade fails the adaptive guardrails.", False, None),
    ("Let's approve it but halve it: $750.", True, 750.0),
    ("Rejection. The DeFi threat layer flags an oracle manipulation risk.", False, None),
    ("APPROVED. All layers pass; no size adjustment.", True, None),
    ("Rejected: hard shields fail (max position 20% exceeded).", False, None),
    (
        "The trade is fine in principle but too large. Approve at $1,200 (requested $3,000).",
        True,
        1200.0,
    ),
    ("I have to say no to this one; the golem is in conservation mode.", False, None),
    ("Go ahead with the swap.", True, None),
    ("Block it. Oracle deviation of 4% on the lending market.", False, None),
    ('approved: true\nadjusted_size_usd: 900\nwarnings: ["thin liquidity"]', True, 900.0),
    ("Approval granted with a smaller position: 50% of proposed, i.e. $2,000.", True, 2000.0),
    (
        "This trade should be denied because the observation layer shows a crash regime.",
        False,
        None,
    ),
    ("I see no problems. Approved at full size.", True, None),
    ("Position sizing: fail. Hard shields: pass. Overall: reject.", False, None),
    ("Yes — approve, but limit it to $5,000.", True, 5000.0),
    ("I don't think we should approve this. The risk outweighs the reward.", False, None),
    ("Decision: APPROVE\nAdjusted size: n/a", True, None),
    (
        "After weighing everything, I'm approving this trade but scaling it down to 1.5k.",
        True,
        1500.0,
    ),
    ("No. Too much leverage.", False, None),
    ("The proposal passes every layer; approved.", True, None),
    ("Verdict: not approved.", False, None),
    ("It can go ahead at a reduced $800.", True, 800.0),
    ("I'd veto this.", False, None),
    # Written with the second development corpus's misses in view: an approval of part of the
    # amount, a condition that is not met, JSON without the layers, a size in another unit.
    ("I cannot approve the entire $5,000, but I can approve $2,000 of it.", True, 2000.0),
    (
        "Approve if and only if the funding rate turns positive, which it hasn't. So this is "
        "not approved as proposed.",
        False,
        None,
    ),
    ('{"approved": true, "adjusted_size_usd": 900, "warnings": ["funding elevated"]}', True, 900.0),
    ('```json\n{"approved": false, "reasoning": "the target pool is unaudited"}\n```', False, None),
    ("Approved, but cut it to 2 ETH (roughly $6,400 at today's price).", True, 6400.0),
    ("I'd approve this one at 5% of the portfolio instead, that is $1,100.", True, 1100.0),
    ("Not as requested. I would approve it if the size is reduced to $2.5k.", True, 2500.0),
]
