"""The action parser reads every accepted form and never raises on garbage."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from prove_env.actions import parse_action

CALL = {"name": "get_balance", "arguments": {"account_id": "ACC-0007"}}


def _only(action):
    parsed = parse_action(action)
    assert len(parsed.calls) == 1, parsed
    return parsed.calls[0]


def test_plain_dict():
    call = _only(CALL)
    assert (call.name, call.arguments, call.error) == ("get_balance", {"account_id": "ACC-0007"}, None)


def test_openai_tool_call_with_string_arguments():
    call = _only({"id": "call_9", "type": "function",
                  "function": {"name": "get_balance", "arguments": json.dumps(CALL["arguments"])}})
    assert call.id == "call_9" and call.arguments == CALL["arguments"] and call.error is None


def test_json_string_of_a_call_and_of_a_list():
    assert _only(json.dumps(CALL)).arguments == CALL["arguments"]
    assert len(parse_action(json.dumps([CALL, CALL])).calls) == 2


def test_hermes_blocks_with_surrounding_text():
    text = f"Let me check.\n<tool_call>{json.dumps(CALL)}</tool_call>\n<tool_call>{json.dumps(CALL)}</tool_call>"
    parsed = parse_action(text)
    assert len(parsed.calls) == 2 and parsed.text == "Let me check."


def test_assistant_message_with_tool_calls():
    message = {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": CALL}]}
    assert _only(message).name == "get_balance"


def test_list_of_mixed_forms():
    parsed = parse_action([CALL, {"type": "function", "function": CALL}, f"<tool_call>{json.dumps(CALL)}</tool_call>"])
    assert [c.name for c in parsed.calls] == ["get_balance"] * 3


def test_text_without_a_call_is_an_answer():
    parsed = parse_action("Your balance is $12.")
    assert parsed.is_answer and parsed.text == "Your balance is $12."
    assert parse_action('{"note": "json but not a call"}').is_answer


def test_malformed_calls_carry_readable_errors():
    truncated = _only('<tool_call>{"name": "get_balance", "arguments": {"account_id": "ACC-</tool_call>')
    assert truncated.name == "get_balance" and "not valid JSON" in truncated.error
    bad_args = _only({"name": "get_balance", "arguments": "{not json"})
    assert bad_args.arguments == "{not json" and "not valid JSON" in bad_args.error
    assert "name" in _only({"arguments": {}}).error
    assert "object" in _only({"name": "x", "arguments": [1, 2]}).error
    assert _only(42).error


def test_unclosed_block_still_read():
    assert _only(f"<tool_call>{json.dumps(CALL)}").name == "get_balance"


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.binary(), st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                                                     lambda c: st.lists(c) | st.dictionaries(st.text(), c))))
def test_never_raises(action):
    parse_action(action)
    if isinstance(action, str):
        parse_action(f"<tool_call>{action}</tool_call>")
