"""extract_json: one test per malformed form a model produces, and properties."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golem.inference import UnparseableOutput, extract_json

EXPECTED = {"severity": "high", "confidence": 0.72}


def check(text: str, expected: object = EXPECTED, *repairs: str) -> tuple[str, ...]:
    value, applied = extract_json(text, keys=("severity", "confidence"))
    assert value == expected
    for repair in repairs:
        assert repair in applied, applied
    return applied


def test_clean_json_takes_no_repairs() -> None:
    assert check('{"severity": "high", "confidence": 0.72}') == ()


def test_fenced_block_with_language_tag() -> None:
    check('```json\n{"severity": "high", "confidence": 0.72}\n```', EXPECTED, "fenced_block")


def test_fenced_block_without_language_tag() -> None:
    check('```\n{"severity": "high", "confidence": 0.72}\n```', EXPECTED, "fenced_block")


def test_json_tagged_fence_preferred_over_an_earlier_one() -> None:
    text = (
        "First the code:\n```python\nconfig = {'severity': 'low'}\n```\n"
        'Then the answer:\n```json\n{"severity": "high", "confidence": 0.72}\n```'
    )
    check(text, EXPECTED, "fenced_block")


def test_prose_before_and_after_with_braces() -> None:
    text = (
        "I looked at {the chart} carefully. Here:\n"
        '{"severity": "high", "confidence": 0.72}\n'
        "Note: sets like {1, 2} are not JSON {really}."
    )
    check(text, EXPECTED, "prose_trimmed")


def test_first_balanced_object_when_several_appear() -> None:
    text = (
        '{"severity": "high", "confidence": 0.72} and later {"severity": "low", "confidence": 0.1}'
    )
    check(text)


def test_object_with_the_expected_keys_wins_over_an_unrelated_one() -> None:
    text = 'Input was {"price": 3000}. Answer: {"severity": "high", "confidence": 0.72}'
    check(text)


def test_reasoning_block_with_decoy_object_is_skipped() -> None:
    text = (
        '<think>Maybe {"severity": "low", "confidence": 0.1}? No.</think>\n'
        '{"severity": "high", "confidence": 0.72}'
    )
    check(text, EXPECTED, "reasoning_skipped")


def test_reasoning_without_opening_tag_is_skipped() -> None:
    text = 'so {"severity": "low"} is wrong.</think>{"severity": "high", "confidence": 0.72}'
    check(text, EXPECTED, "reasoning_skipped")


def test_answer_only_inside_reasoning_is_still_found() -> None:
    text = '<think>{"severity": "high", "confidence": 0.72}</think>'
    check(text, EXPECTED, "taken_from_reasoning")


def test_braces_and_escaped_quotes_inside_strings() -> None:
    expected = {"severity": "high", "confidence": 0.72, "note": 'a "}" and a {brace'}
    check(
        'Answer: {"severity": "high", "confidence": 0.72, "note": "a \\"}\\" and a {brace"}',
        expected,
    )


def test_raw_newline_inside_a_string() -> None:
    expected = {**EXPECTED, "note": "line one\nline two"}
    check(
        '{"severity": "high", "confidence": 0.72, "note": "line one\nline two"}',
        expected,
        "syntax_repaired",
    )


def test_trailing_commas() -> None:
    check('{"severity": "high", "confidence": 0.72,}', EXPECTED, "syntax_repaired")
    check(
        '{"tags": ["a", "b",], "severity": "high", "confidence": 0.72}',
        {"tags": ["a", "b"], **EXPECTED},
    )


def test_comments() -> None:
    text = '{\n  // my verdict\n  "severity": "high", /* fairly sure */ "confidence": 0.72\n}'
    check(text, EXPECTED, "syntax_repaired")


def test_single_quoted_strings() -> None:
    check("{'severity': 'high', 'confidence': 0.72}", EXPECTED, "syntax_repaired")


def test_single_quotes_with_an_apostrophe_inside_double_quotes() -> None:
    check(
        '{"severity": "high", "confidence": 0.72, "note": "it\'s {odd}"}',
        {**EXPECTED, "note": "it's {odd}"},
    )


def test_smart_quoted_strings() -> None:
    check(
        "{\u201cseverity\u201d: \u201chigh\u201d, \u201cconfidence\u201d: 0.72}",
        EXPECTED,
        "syntax_repaired",
    )


def test_unquoted_keys() -> None:
    check('{severity: "high", confidence: 0.72}', EXPECTED, "syntax_repaired")


def test_python_literals() -> None:
    expected = {**EXPECTED, "escalate": True, "note": None}
    check(
        '{"severity": "high", "confidence": 0.72, "escalate": True, "note": None}',
        expected,
        "syntax_repaired",
    )


def test_one_element_array_around_the_object() -> None:
    check('[{"severity": "high", "confidence": 0.72}]', EXPECTED, "unwrapped_array")
    check('Result: [ {"severity": "high", "confidence": 0.72} ]', EXPECTED, "unwrapped_array")


def test_json_document_encoded_inside_a_json_string() -> None:
    inner = orjson.dumps(EXPECTED).decode()
    check(orjson.dumps(inner).decode(), EXPECTED, "decoded_json_string")


def test_byte_order_mark() -> None:
    check('\ufeff{"severity": "high", "confidence": 0.72}', EXPECTED, "bom_removed")


def test_truncated_object_is_closed() -> None:
    value, repairs = extract_json('{"severity": "high", "confidence": 0.72, "tags": ["a", "b"')
    assert value == {**EXPECTED, "tags": ["a", "b"]}
    assert "truncated_closed" in repairs


def test_truncated_string_value_drops_its_key() -> None:
    value, repairs = extract_json('{"severity": "high", "confidence": 0.72, "note": "the pri')
    assert value == EXPECTED
    assert "truncated_member_dropped" in repairs


def test_truncated_after_a_key_drops_it() -> None:
    assert extract_json('{"severity": "high", "confidence": 0.72, "note":')[0] == EXPECTED
    assert extract_json('{"severity": "high", "confidence": 0.72, "esc": tr')[0] == EXPECTED


def test_truncated_nested_object_keeps_what_was_complete() -> None:
    value, _ = extract_json('{"severity": "high", "confidence": 0.72, "sig": {"a": 1, "b": "x')
    assert value == {**EXPECTED, "sig": {"a": 1}}


def test_truncated_inside_a_fence() -> None:
    check(
        '```json\n{"severity": "high", "confidence": 0.72, "note": "cut',
        EXPECTED,
        "fenced_block",
        "truncated_member_dropped",
    )


def test_nothing_recoverable_raises_a_typed_error() -> None:
    with pytest.raises(UnparseableOutput) as caught:
        extract_json("I cannot decide right now.")
    assert caught.value.text == "I cannot decide right now."
    with pytest.raises(UnparseableOutput):
        extract_json("")
    with pytest.raises(UnparseableOutput):
        extract_json("[1, 2, 3]")


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
OBJECTS = st.dictionaries(st.text(min_size=1, max_size=8), JSON_VALUES, min_size=1, max_size=5)
PROSE = st.text(alphabet=st.characters(blacklist_characters="{}[]`<\"'\u201c"), max_size=40)


@settings(max_examples=200, deadline=None)
@given(obj=OBJECTS, before=PROSE, after=PROSE)
def test_any_object_in_prose_is_recovered_exactly(
    obj: dict[str, object], before: str, after: str
) -> None:
    text = f"{before}{orjson.dumps(obj).decode()}{after}"
    assert extract_json(text)[0] == obj


@settings(max_examples=200, deadline=None)
@given(obj=OBJECTS, cut=st.integers(min_value=1, max_value=400))
def test_truncation_never_raises_anything_but_the_typed_error(
    obj: dict[str, object], cut: int
) -> None:
    text = orjson.dumps(obj).decode()
    try:
        value, _ = extract_json(text[: max(1, len(text) - cut)])
    except UnparseableOutput:
        return
    assert isinstance(value, dict)


def test_think_tags_inside_json_strings_are_text() -> None:
    assert extract_json('{"<think>": null}0')[0] == {"<think>": None}
    text = '{"note": "wrap it in <think> and </think>", "severity": "high"}'
    assert extract_json(text)[0]["note"] == "wrap it in <think> and </think>"
