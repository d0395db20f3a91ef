"""The action parser: whatever a model produced, as a list of tool calls or a text answer.

Accepted forms:
- `{"name": ..., "arguments": ...}`, arguments as a dict or a JSON string;
- an OpenAI-style tool call `{"type": "function", "id": ..., "function": {"name", "arguments"}}`;
- an assistant message `{"role": "assistant", "content": ..., "tool_calls": [...]}`: a list of
  `tool_calls` (even an empty one) says the calls were already read out of the text, so the content
  is the answer's text as written; without `tool_calls` (or with null) the content is read as text;
- a JSON string of any of these, or of a list of them;
- assistant text in the tool-call formats of the common chat-template families:
  - `<tool_call>{...}</tool_call>` blocks: Hermes, Qwen2.5, Qwen3, Granite 4;
  - a bare JSON call or list of calls, `"parameters"` standing for `"arguments"`, perhaps after
    `<|python_tag|>`: Llama 3.1 to 3.3;
  - `<|tool_call|>[...]`: Granite 3; `[TOOL_CALLS][...]`: Mistral;
- a list of any of these.
Text with no tool call is the assistant's answer. Nothing here raises on model output: a call
that cannot be read becomes a `ParsedCall` with an `error` the model can read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["ParsedCall", "ParsedAction", "parse_action"]

_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.DOTALL)
_CALL_PREFIXES = ("<|python_tag|>", "<|tool_call|>", "[TOOL_CALLS]")
"""Markers after which a chat-template family writes its calls as JSON (Llama 3, Granite 3, Mistral)."""


@dataclass(frozen=True)
class ParsedCall:
    """One call as the model wrote it.

    `arguments` is a dict when it could be read, else the raw text (or value) the model wrote;
    `error` says why the call cannot be executed (None when it can).
    """

    name: str | None
    arguments: Any
    id: str | None = None
    error: str | None = None


@dataclass(frozen=True)
class ParsedAction:
    calls: tuple[ParsedCall, ...]
    text: str

    @property
    def is_answer(self) -> bool:
        return not self.calls


def parse_action(action: Any) -> ParsedAction:
    """Read a model's action. Never raises."""
    try:
        return _parse(action)
    except RecursionError:
        return ParsedAction((ParsedCall(None, _clip(action), error="The action is nested too deeply to read."),), "")


def _parse(action: Any) -> ParsedAction:
    if isinstance(action, bytes):
        action = action.decode("utf-8", errors="replace")
    if isinstance(action, str):
        return _parse_text(action)
    if isinstance(action, dict):
        if action.get("role") == "assistant" or "tool_calls" in action:
            content = action.get("content")
            text = content if isinstance(content, str) else ""
            raw_calls = action.get("tool_calls")
            if isinstance(raw_calls, list):
                # The calls were read out of the model's text already (a chat API, TRL's parser): the
                # content is text as written, even where it looks like a call.
                return ParsedAction(tuple(_call(c) for c in raw_calls), text)
            if raw_calls:
                return ParsedAction((_call(raw_calls),), text)
            return _parse_text(text)
        return ParsedAction((_call(action),), "")
    if isinstance(action, list | tuple):
        calls: list[ParsedCall] = []
        texts: list[str] = []
        for item in action:
            parsed = _parse(item)
            calls.extend(parsed.calls)
            if parsed.text:
                texts.append(parsed.text)
        return ParsedAction(tuple(calls), "\n".join(texts))
    if action is None:
        return ParsedAction((), "")
    return ParsedAction(
        (ParsedCall(None, _clip(action), error=f"Cannot read an action of type {type(action).__name__}."),), ""
    )


def _parse_text(text: str) -> ParsedAction:
    blocks = _TOOL_CALL.findall(text)
    if blocks:
        calls = tuple(_call_from_json(block.strip()) for block in blocks)
        return ParsedAction(calls, _TOOL_CALL.sub("", text).strip())
    for prefix in _CALL_PREFIXES:
        at = text.find(prefix)
        if at >= 0:
            return _parse_after_prefix(text[:at].strip(), text[at + len(prefix):].strip())
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            value = json.loads(stripped)
        except ValueError:
            value = None
        if isinstance(value, dict) and _looks_like_call(value):
            return _parse(value)
        if isinstance(value, list) and value and all(isinstance(v, dict) and _looks_like_call(v) for v in value):
            return _parse(value)
    return ParsedAction((), text)


def _parse_after_prefix(before: str, rest: str) -> ParsedAction:
    """The JSON call, or list of calls, that follows a family's call marker; the text before it is content."""
    try:
        value, _ = json.JSONDecoder().raw_decode(rest)
    except ValueError as exc:
        problem = f"The tool call is not valid JSON ({exc.args[0]})."
        return ParsedAction((ParsedCall(_name_hint(rest), _clip(rest), error=problem),), before)
    items = value if isinstance(value, list) else [value]
    if not items:
        return ParsedAction((ParsedCall(None, [], error="The tool call list is empty."),), before)
    return ParsedAction(tuple(_call(item) for item in items), before)


def _looks_like_call(value: dict[str, Any]) -> bool:
    return "name" in value or "function" in value or "tool_calls" in value


def _call_from_json(block: str) -> ParsedCall:
    try:
        value = json.loads(block)
    except ValueError as exc:
        return ParsedCall(_name_hint(block), block, error=f"The tool call is not valid JSON ({exc.args[0]}).")
    if not isinstance(value, dict):
        return ParsedCall(None, value, error='A tool call must be a JSON object {"name": ..., "arguments": {...}}.')
    return _call(value)


def _call(raw: Any) -> ParsedCall:
    if isinstance(raw, str):
        return _call_from_json(raw)
    if not isinstance(raw, dict):
        return ParsedCall(None, _clip(raw), error='A tool call must be an object {"name": ..., "arguments": {...}}.')
    call_id = raw.get("id") if isinstance(raw.get("id"), str) else None
    body = raw.get("function") if isinstance(raw.get("function"), dict) else raw
    name = body.get("name")
    if not isinstance(name, str) or not name:
        return ParsedCall(None, body.get("arguments"), call_id, 'The tool call has no "name".')
    arguments = body.get("arguments", body.get("parameters", {}))
    if arguments is None:
        arguments = {}
    if isinstance(arguments, str):
        try:
            decoded = json.loads(arguments) if arguments.strip() else {}
        except ValueError as exc:
            return ParsedCall(name, arguments, call_id, f"The arguments of {name} are not valid JSON ({exc.args[0]}).")
        arguments = decoded
    if not isinstance(arguments, dict):
        return ParsedCall(name, arguments, call_id, f"The arguments of {name} must be a JSON object.")
    return ParsedCall(name, arguments, call_id)


def _name_hint(block: str) -> str | None:
    match = re.search(r'"name"\s*:\s*"([A-Za-z0-9_.-]{1,64})"', block)
    return match.group(1) if match else None


def _clip(value: Any, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
