"""HeartbeatDecision.from_text on a corpus of free-text answers as models write them: the
severity and the action each read right on at least 90% of them (the issue's bar)."""

from __future__ import annotations

from golem.subsystems.heartbeat import HeartbeatDecision

from .heartbeat_corpus import CORPUS


def test_the_corpus_is_varied_enough() -> None:
    assert len(CORPUS) >= 20
    several = [text for text, _, _ in CORPUS if sum(w in text.lower() for w in _ACTIONS) >= 2]
    assert len(several) >= 5  # answers that mention more than one action word


_ACTIONS = ("observe", "analyze", "rebalance", "hedge", "exit", "escalate")


def test_severity_and_action_are_read_right_on_nine_in_ten() -> None:
    read = [HeartbeatDecision.from_text(text) for text, _, _ in CORPUS]
    severity = sum(d.severity == s for d, (_, s, _) in zip(read, CORPUS, strict=True))
    action = sum(d.action == a for d, (_, _, a) in zip(read, CORPUS, strict=True))
    assert severity / len(CORPUS) >= 0.9, f"severity right on {severity}/{len(CORPUS)}"
    assert action / len(CORPUS) >= 0.9, f"action right on {action}/{len(CORPUS)}"
    assert all(d.validate_content() == [] for d in read)
