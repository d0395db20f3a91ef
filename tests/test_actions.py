"""The action parser reads every accepted form and never raises on garbage."""

from __future__ import annotations

import json

import pytest

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


def test_a_message_with_a_list_of_calls_keeps_its_content_as_text():
    """Calls already read out of the text (a chat API, TRL): call-like content is the answer as written."""
    text = f"<tool_call>{json.dumps(CALL)}</tool_call> is what I would call."
    parsed = parse_action({"role": "assistant", "content": text, "tool_calls": []})
    assert parsed.is_answer and parsed.text == text
    assert _only({"role": "assistant", "content": text}).name == "get_balance"  # no list: the text is read
    assert _only({"role": "assistant", "content": text, "tool_calls": None}).name == "get_balance"


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
        parse_action(f"<|tool_call|>{action}")


# -- chat-template families --------------------------------------------------------------------------

ASSISTANT_CALL = {"role": "assistant", "content": "",
                  "tool_calls": [{"type": "function", "function": {"name": "get_balance",
                                                                   "arguments": {"account_id": "ACC-0007"}}}]}
TOOLS = [{"type": "function", "function": {
    "name": "get_balance", "description": "An account's balance.",
    "parameters": {"type": "object", "properties": {"account_id": {"type": "string", "description": "the account id"}},
                   "required": ["account_id"]}}}]


def _rendered_call(template_name: str) -> str:
    """The assistant turn of a tool call as the family's chat template writes it, with its special tokens
    removed the way decoding with skip_special_tokens removes them."""
    pytest.importorskip("trl")
    pytest.importorskip("tokenizers")
    from pathlib import Path

    import trl
    from tokenizers import Tokenizer, models
    from transformers import PreTrainedTokenizerFast

    template = (Path(trl.__file__).parent / "chat_templates" / f"{template_name}.jinja").read_text(encoding="utf-8")
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=Tokenizer(models.BPE()), eos_token="<|im_end|>")
    messages = [{"role": "system", "content": "You serve banking requests."},
                {"role": "user", "content": "My balance?"}]
    prompt = tokenizer.apply_chat_template(messages, tools=TOOLS, chat_template=template, tokenize=False,
                                           add_generation_prompt=True)
    full = tokenizer.apply_chat_template(messages + [ASSISTANT_CALL], tools=TOOLS, chat_template=template,
                                         tokenize=False)
    assert full.startswith(prompt), template_name
    turn = full[len(prompt):]
    for end_of_turn in ("<|im_end|>", "<|eot_id|>"):
        turn = turn.split(end_of_turn)[0]
    return turn


@pytest.mark.parametrize("template_name", ["qwen3", "qwen2_5", "llama3_1", "llama3_2"])
def test_tool_calls_written_by_each_template_family(template_name):
    text = _rendered_call(template_name)
    call = _only(text)
    assert (call.name, call.arguments, call.error) == ("get_balance", {"account_id": "ACC-0007"}, None), text


@pytest.mark.parametrize("text", [
    '<|python_tag|>{"name": "get_balance", "parameters": {"account_id": "ACC-0007"}}',  # Llama 3.1, kept special tokens
    '<|tool_call|>[{"name": "get_balance", "arguments": {"account_id": "ACC-0007"}}]',  # Granite 3
    '[TOOL_CALLS][{"name": "get_balance", "arguments": {"account_id": "ACC-0007"}}]',  # Mistral
    '<tool_call>\n{"name": "get_balance", "arguments": {"account_id": "ACC-0007"}}\n</tool_call>',  # Granite 4, Hermes
])
def test_tool_call_markers_of_other_families(text):
    call = _only(text)
    assert (call.name, call.arguments, call.error) == ("get_balance", {"account_id": "ACC-0007"}, None)


def test_marker_calls_keep_text_before_them_and_report_bad_json():
    parsed = parse_action('Checking.<|tool_call|>[{"name": "get_balance", "arguments": {}}, {"name": "list_accounts"}]')
    assert [c.name for c in parsed.calls] == ["get_balance", "list_accounts"] and parsed.text == "Checking."
    broken = _only('[TOOL_CALLS][{"name": "get_balance", "arguments": {"account_id": ')
    assert broken.name == "get_balance" and "not valid JSON" in broken.error
    assert "empty" in _only("<|tool_call|>[]").error
