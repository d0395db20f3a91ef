"""Policies for evaluation: the reference calls, doing nothing, random calls, or a served model.

A policy plays one episode at a time: `start(task, info, trial)` after `env.reset`, then
`act(observation, info)` for each step, returning anything `env.step` accepts. `check()` runs once
before an evaluation's first episode and raises if the policy cannot play at all.

- `gold` replays the task's reference calls turn by turn (one call per step, then an answer that
  states the turn's facts): it must earn the maximum reward with `success` true.
- `noop` answers every turn without calling anything: it succeeds only on abstention tasks.
- `random` makes one to three random, valid-looking calls per turn (a shown tool, its required
  arguments with values of the right JSON type), then answers; seeded by task and trial.
- `openai` asks any OpenAI-compatible chat-completions endpoint with tool calling (a local vLLM
  server, for example) for the next assistant message.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

from prove_env.chat import ChatEndpoint, EndpointError
from prove_env.facts import say
from prove_env.task import Task

__all__ = ["Policy", "GoldPolicy", "NoopPolicy", "RandomPolicy", "OpenAIPolicy", "EndpointError", "make_policy",
           "SCRIPTED"]

ANSWER = "Done."


class Policy:
    name = "policy"

    def check(self) -> None:
        """Raise if this policy cannot play at all (the scripted ones always can)."""

    def start(self, task: Task, info: dict[str, Any], trial: int) -> None:
        """Called after `env.reset` with the task, the reset info and the trial number."""

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        raise NotImplementedError


class _Scripted(Policy):
    """A policy whose actions depend only on the task and trial, not on what the tools return."""

    def start(self, task: Task, info: dict[str, Any], trial: int) -> None:
        self._actions = self.actions(task, info, random.Random(_stable_seed(task.id, trial)))

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        return next(self._actions, ANSWER)

    def actions(self, task: Task, info: dict[str, Any], rng: random.Random) -> Iterator[Any]:
        raise NotImplementedError


class GoldPolicy(_Scripted):
    name = "gold"

    def actions(self, task: Task, info: dict[str, Any], rng: random.Random) -> Iterator[Any]:
        for number, turn in enumerate(task.gold):
            for call in turn:
                yield {"name": call.name, "arguments": dict(call.arguments)}
            yield say(task.facts[number]) if task.facts else ANSWER


class NoopPolicy(_Scripted):
    name = "noop"

    def actions(self, task: Task, info: dict[str, Any], rng: random.Random) -> Iterator[Any]:
        for _ in task.user_turns:
            yield "I can't help with that."


class RandomPolicy(_Scripted):
    name = "random"

    def actions(self, task: Task, info: dict[str, Any], rng: random.Random) -> Iterator[Any]:
        tools = [t["function"] for t in info["tools"]]
        for _ in task.user_turns:
            for _ in range(rng.randint(1, 3)):
                tool = rng.choice(tools)
                schema = tool.get("parameters", {})
                props = schema.get("properties", {})
                yield {"name": tool["name"],
                       "arguments": {k: _random_value(props.get(k, {}), rng) for k in schema.get("required", [])}}
            yield ANSWER


class OpenAIPolicy(Policy):
    """The next assistant message from an OpenAI-compatible `/chat/completions` endpoint."""

    name = "openai"

    def __init__(self, base_url: str, model: str, *, temperature: float = 0.0, api_key: str | None = None,
                 timeout: float = 120.0, retries: int = 3, max_tokens: int | None = None) -> None:
        self.endpoint = ChatEndpoint(base_url, model, api_key=api_key, timeout=timeout, retries=retries)
        self.temperature = temperature
        self.max_tokens = max_tokens

    def check(self) -> None:
        """Raise an EndpointError, before any episode, if nothing answers at the endpoint's address."""
        self.endpoint.check()

    def start(self, task: Task, info: dict[str, Any], trial: int) -> None:
        self._tools = info["tools"]

    def act(self, observation: str, info: dict[str, Any]) -> Any:
        body: dict[str, Any] = {"messages": _wire_messages(info["messages"]), "tools": self._tools,
                                "temperature": self.temperature}
        if self.max_tokens:
            body["max_tokens"] = self.max_tokens
        message = self.endpoint.message(body)
        if message.get("tool_calls"):
            return {"role": "assistant", "content": message.get("content") or "", "tool_calls": message["tool_calls"]}
        return message.get("content") or ""


SCRIPTED: dict[str, type[_Scripted]] = {"gold": GoldPolicy, "noop": NoopPolicy, "random": RandomPolicy}


def make_policy(name: str, **options: Any) -> Policy:
    if name in SCRIPTED:
        return SCRIPTED[name]()
    if name == "openai":
        if not options.get("base_url") or not options.get("model"):
            raise ValueError("the openai policy needs --base-url and --model")
        return OpenAIPolicy(**options)
    raise ValueError(f"unknown policy {name!r}; choose from gold, noop, random, openai")


def _wire_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The environment's chat, as chat-completions messages (assistant content never null)."""
    out = []
    for m in messages:
        m = dict(m)
        if m["role"] == "assistant" and m.get("content") is None:
            m["content"] = ""
        out.append(m)
    return out


def _random_value(schema: dict[str, Any], rng: random.Random) -> Any:
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    if kind == "integer":
        return rng.randint(0, 20)
    if kind == "number":
        return round(rng.uniform(0, 500), 2)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "array":
        return [_random_value(schema.get("items", {"type": "string"}), rng)]
    return rng.choice(["ACC-0001", "EVT-0001", "notes", "todo.md", "2026-06-01T09:00", "Alex", "report", "1"])


def _stable_seed(*parts: Any) -> int:
    return int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:8], "big")
