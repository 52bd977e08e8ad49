"""The injection-screening rules: one named regular expression per class of attack.

Each rule targets a class of phrasing that published prompt-injection corpora share, not a
string from one of them; `benchmarks/bench_screening.py` prints how often each rule fires
on attacks and on real financial text. Patterns run with IGNORECASE and MULTILINE (`^` is
the start of any line); a part that must keep its case says so with `(?-i:...)`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["FLAGS", "RULES", "Rule"]

FLAGS = re.IGNORECASE | re.MULTILINE

# Words that mark the reader as a machine: an injection planted in data addresses whoever
# processes the data, and that is a model or an agent, not a human.
_MACHINE = (
    r"(?:AI|A\.I\.|LLMs?|GPTs?|ChatGPT|chat ?bots?|bots?|assistants?|agents?|"
    r"language models?|models?|golem)"
)
# What a model produces: injections that want to steer the output name it.
_OUTPUT = (
    r"(?:responses?|repl(?:y|ies)|answers?|outputs?|messages?|summary|summaries|"
    r"code(?:base)?|implementation|solution|algorithm|program logic|elucidation)"
)
_INVISIBLE = "[\u200b\u202a-\u202e\u2060-\u2064\ufeff]"
# Where an imperative may start: a line or sentence start, or after a softener.
_IMPERATIVE = r"(?:^[\s>*\-#]*|[.!?:;\]>]\s*|\b(?:and|then|just|simply|please|now|only)\s+)"


@dataclass(frozen=True, slots=True)
class Rule:
    """A named pattern, the class of attack it targets, and its cues: lower-case literals
    of which any text the pattern matches holds at least one (none: the rule always runs)."""

    name: str
    targets: str
    pattern: str
    cues: tuple[str, ...] = ()

    def compiled(self) -> re.Pattern[str]:
        return re.compile(self.pattern, FLAGS)


RULES: tuple[Rule, ...] = (
    Rule(
        "override",
        "telling the reader to drop what it was told before or the data around the text",
        r"\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}?"
        r"(?:\b(?:instructions?|prompts?|directions?|guidelines?|rules?|context)\b|"
        r"\b(?:this|the|all|any|other|previous|prior|above|earlier)\s+"
        r"(?:data|content|text|info(?:rmation)?|documents?|snippets?|messages?)\b|"
        r"\b(?:everything|the above|all of the above)\b)",
        cues=("ignore", "disregard", "forget", "override", "bypass"),
    ),
    Rule(
        "role",
        "re-assigning the reader's role or unlocking a mode; 'act as' only as an imperative "
        "('may act as a resistance' is market talk)",
        r"\b(?:you are now|from now on,? you|pretend (?:to be|you are|that you)|"
        r"you (?:will|must|should|shall) now|developer mode|jailbreak(?:ed|ing)?|"
        r"system prompt|your (?:new|real|true) (?:role|task|instructions?|purpose))\b|"
        r"(?:I want you to|you (?:will|must|should|shall)|please|now)\s+act as\b|"
        r"^[\s>*\-]*act as\b|\bnew instructions?\b",
        cues=(
            "you are now",
            "from now on",
            "pretend",
            "you will",
            "you must",
            "you should",
            "you shall",
            "developer mode",
            "jailbreak",
            "system prompt",
            "your new",
            "your real",
            "your true",
            "act as",
            "new instruction",
        ),
    ),
    Rule(
        "template",
        "chat-template and role markers that fake a turn of the conversation",
        r"<\|[a-z_]+\|>|</?(?:im_start|im_end|system|instructions?|start_of_turn|"
        r"end_of_turn|end of session|user|assistant)>|\[/?INST\]|<</?SYS>>|"
        r"\[/?(?:system|assistant|user)\]|"
        r"^\s*#{2,}\s*(?:system|instructions?|response|assistant|user|human)\b|"
        r"^[\s>*\-]*(?:system|assistant|user|human)\s*:",
        cues=(
            "<|",
            "im_start",
            "im_end",
            "system",
            "instruction",
            "start_of_turn",
            "end_of_turn",
            "end of session",
            "user",
            "assistant",
            "inst]",
            "sys>>",
            "response",
            "human",
        ),
    ),
    Rule(
        "authority",
        "a header claiming a privileged sender or a block of orders",
        r"\b(?:system|admin(?:istrator)?|developer|operator|core)\s+"
        r"(?:messages?|requests?|annotations?|instructions?|override|notes?|actions?)\b|"
        r"\b(?:begin|end)\s+(?:instructions|reprogramming)\b|"
        r"\bfollow (?:th(?:is|ese)|my|the following) instructions?\b|"
        r"\b(?:obey|execute|follow) (?:this|the following) (?:instruction|order|routine|program)",
        cues=(
            "system",
            "admin",
            "developer",
            "operator",
            "core",
            "instructions",
            "reprogramming",
            "follow",
            "obey",
            "execute",
        ),
    ),
    Rule(
        "address_model",
        "text addressed to an AI or agent reader rather than to people",
        r"\b(?:if|when) you(?:'re| are) (?:an?|the)\s+(?:[\w'-]+\s+){0,3}?" + _MACHINE + r"\b|"
        r"\b" + _MACHINE + r"\s*[,:]\s*(?:please\s+)?(?:you\s+)?"
        r"(?:must|should|shall|need to|are instructed to|ignore|reply|respond|answer|print|"
        r"say|include|remember|always|never|do not|don't)\b|"
        r"\b" + _MACHINE + r"\s+(?:must|shall|are instructed to)\s+(?:now\s+)?"
        r"(?:ignore|reply|respond|answer|print|say|include|sell|exit|transfer|send|approve)\b|"
        r"\bnote (?:to|for) (?:the |any )?(?:automated|" + _MACHINE + r")|"
        r"\b(?:visible|readable|meant|intended|instructions?) (?:to|for) (?:the |any )?"
        r"(?:automated\s+(?:\w+\s+)?(?:systems?|software|scanners?|agents?|readers?)|"
        r"LLMs?|AIs?|language models?|bots?)\b|"
        r"\bLLM scan|\byou \((?:the )?(?:assistant|AI|model|agent)",
        cues=(
            "you're",
            "you are",
            "ai",
            "a.i.",
            "llm",
            "gpt",
            "bot",
            "assistant",
            "agent",
            "model",
            "golem",
            "note to",
            "note for",
            "visible",
            "readable",
            "meant",
            "intended",
            "instruction",
            "you (",
        ),
    ),
    Rule(
        "policy_change",
        "a claim that a policy or procedure changed, so the reader must now act differently",
        r"\b(?:polic(?:y|ies)|procedures?|protocols?|instructions?|rules?|guidelines?|"
        r"configuration|settings?|routines?)\s+(?:has|have)\s+(?:now\s+)?been\s+"
        r"(?:updated|changed|revised|modified|replaced|overridden)\b[^\n]{0,80}?"
        r"\byou\s+(?:must|should|shall|will|need to|are (?:now )?(?:required|expected|to))\b|"
        r"\b(?:emergency|security|maintenance|compliance|override)\s+"
        r"(?:protocols?|routines?|procedures?|mode)\s+(?:(?:has|have)\s+been\s+|is\s+|are\s+)?"
        r"(?:activated|enabled|engaged|in effect|to be executed|has to be executed)\b|"
        r"\bfrom now on\b[,\s]+(?:you|always|only|respond|reply|answer|speak|use|include)\b|"
        r"\b(?:has|have) (?:configured|authori[sz]ed|instructed|asked) you to\b",
        cues=(
            "been",
            "emergency",
            "security",
            "maintenance",
            "compliance",
            "override",
            "from now on",
            "you to",
        ),
    ),
    Rule(
        "output_request",
        "asking to put something into the reader's own output (its reply, answer, code)",
        r"\byour\s+(?:\w+\s+)?"
        + _OUTPUT
        + r"\b|"
        + _IMPERATIVE
        + r"(?:respond|reply|answer)\s+(?:only\s+)?(?:with|using|in)\b",
        cues=("your", "respond", "reply", "answer"),
    ),
    Rule(
        "say_this",
        "asking the reader to print, say or repeat given words, or to pass them to its user",
        _IMPERATIVE + r"(?:print|say|repeat|output|type|write|report)\b[^.\n]{0,30}?"
        r"(?:[\"'“‘<]|\bthe following\b|\bexactly\b|\bverbatim\b|\bonly\b)|"
        r"\b(?:could|can|would|will) you (?:please )?(?:repeat|print|say|output)\b|"
        r"\b(?:tell|inform|remind|convince|forward (?:it |this )?to|provide it to|show) "
        r"the user\b|"
        r"\bjust print\b",
        cues=("print", "say", "repeat", "output", "type", "write", "report", "the user"),
    ),
    Rule(
        "task_request",
        "a bare task for an assistant (write, explain, translate ...) opening a line",
        r"^[\s>*\-]*(?:please\s+)?(?:explain|describe|draft|compose|translate|summari[sz]e|"
        r"recommend|suggest|analy[sz]e|classify|break down|"
        r"write (?:a|an|one|me|the|some)|help me|show me|tell me|give me|"
        r"(?:can|could|would) you (?:please )?(?:\w+ )?(?:me|write|explain|describe|"
        r"provide|list|show|help|tell|give|translate|summari[sz]e|classify|recommend))\b",
        cues=(
            "explain",
            "describe",
            "draft",
            "compose",
            "translate",
            "summari",
            "recommend",
            "suggest",
            "analy",
            "classify",
            "break down",
            "write",
            "help me",
            "show me",
            "tell me",
            "give me",
            "can you",
            "could you",
            "would you",
        ),
    ),
    Rule(
        "hidden",
        "content hidden from a human reader: invisible characters, HTML comments, "
        "invisible styling, base64 blobs",
        # Invisible characters (zero-width space, word joiner, invisible operators, bidi
        # overrides, BOM) inside a word or in a run, and any Unicode tag character. A lone
        # zero-width space between paragraphs is an editor's trace, and ZWJ/ZWNJ join
        # emoji and scripts in ordinary text.
        f"{_INVISIBLE}(?<=\\w{_INVISIBLE}){_INVISIBLE}*(?=\\w)|{_INVISIBLE}{{2,}}|"
        "[\U000e0000-\U000e007f]|"
        r"<!--|display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px)?\b|"
        r"white[- ]text|invisible to (?:humans|people|users|the user|readers)|"
        # A base64 blob: a free-standing token (not inside a URL or a path) of 48+ base64
        # characters mixing cases and digits (48 clear a 42-character 0x address and
        # IPFS's 46-character Qm hashes). The first character is matched before the
        # look-arounds so that the scan skips ahead on it.
        r"[A-Za-z0-9+/](?<![^\s\"'`(\[:][A-Za-z0-9+/])"
        r"(?=[A-Za-z0-9+/]{0,200}(?-i:[A-Z]))(?=[A-Za-z0-9+/]{0,200}(?-i:[a-z]))"
        r"(?=[A-Za-z0-9+/]{0,200}[0-9])[A-Za-z0-9+/]{47,}={0,2}(?=$|[\s\"'`)\]])",
    ),
    Rule(
        # An imperative about the money, aimed at the reader: at the start of a sentence
        # or after "and/then/now/please", not a report ("whales sell all their ETH").
        "command",
        "an imperative that would move the golem's money",
        r"(?:^|[.!?:;]\s*|\b(?:and|then|now|please|immediately|you|must|should)\s+)"
        r"(?:exit|close|sell|liquidate|transfer|send|withdraw|approve|sign|drain)\b"
        r"[^.\n]{0,30}?\b(?:all|every|entire|your|the golem'?s?)\b[^.\n]{0,20}?"
        r"\b(?:positions?|funds?|holdings?|assets?|tokens?|transfers?|wallet|balance|"
        r"collateral)\b",
        cues=(
            "exit",
            "close",
            "sell",
            "liquidate",
            "transfer",
            "send",
            "withdraw",
            "approve",
            "sign",
            "drain",
        ),
    ),
)
