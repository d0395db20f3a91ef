"""SkyRL-Gym: prove-env episodes as a `BaseTextEnv`, registered as "prove".

    import prove_env.integrations.skyrl  # registers "prove" with skyrl_gym (import it in SkyRL's entrypoint)
    import skyrl_gym

    env = skyrl_gym.make("prove", env_config={"reward": "paper"}, extras=row)   # row: from dataset_rows()
    conversation, info = env.init(row["prompt"])
    output = env.step(model_text)      # {"observations", "reward", "done", "metadata"}

SkyRL's generator makes the environment by the dataset row's `env_class` ("prove") with the row's
other columns as `extras` (and `max_turns`), calls `init` with the row's prompt, then `step` with
each model response until `done`. An episode is one `ProveEnv` episode of the row's task (`task`,
its JSON), any of the twenty servers:

- `init` starts the task on a fresh clone of its start world and returns the opening conversation:
  the system prompt with the task's shown tools written into it (Hermes/Qwen style: a `<tools>`
  block, calls as `<tool_call>{"name": ..., "arguments": ...}</tool_call>`; SkyRL renders the chat
  template without a tool list) and the first user turn. `dataset_rows` writes the same
  conversation as each row's prompt.
- `step(text)` is one environment step: the `<tool_call>` blocks of the text run against the world
  (the observations are one `tool` message per call), and a text without a call answers the
  current user turn (the observation is the next user turn).
- `done` comes with the last user turn answered or the step limit (`max_turns`, 10 by default)
  reached; that step carries PROVE's reward, and `metadata["reward_breakdown"]` every component and
  `success` (also what `get_metrics` returns).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import skyrl_gym
from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput

from prove_env.env import ProveEnv
from prove_env.task import Task

__all__ = ["ENV_ID", "ProveTextEnv", "dataset_rows", "opening", "register", "tools_prompt"]

ENV_ID = "prove"
"""The name SkyRL makes the environment by (a dataset row's `env_class`)."""

_DEFAULT_MAX_TURNS = 10


class ProveTextEnv(BaseTextEnv):
    """A prove-env task as a SkyRL-Gym text environment.

    `extras` holds the task (`task`: a Task, its dict or its JSON) and optionally `max_turns`
    (assistant steps per episode; SkyRL's generator sets it); `env_config` optionally holds
    `reward` ("paper" or "state").
    """

    def __init__(self, env_config: Mapping[str, Any] | None = None, extras: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        extras = dict(extras or {})
        if "task" not in extras:
            raise ValueError("a prove-env row needs its task in `extras['task']` (see dataset_rows)")
        self.task = Task.parse(extras["task"], "extras['task']")
        self.max_turns = int(extras.get("max_turns") or _DEFAULT_MAX_TURNS)
        reward = (env_config or {}).get("reward", "paper")
        self.env = ProveEnv(self.task.server, reward=reward, max_steps=self.max_turns)
        self._breakdown: dict[str, Any] | None = None

    def init(self, prompt: Any = None) -> tuple[list[dict[str, str]], dict[str, Any]]:
        """Start the task on a fresh world; the opening conversation replaces `prompt` (a row's
        prompt from `dataset_rows` is the same conversation)."""
        _, info = self.env.reset(options={"task": self.task})
        self.turns = 0
        self._breakdown = None
        return opening(info), {"task_id": self.task.id, "server": self.task.server, "tools": info["tools"]}

    def step(self, action: str) -> BaseTextEnvStepOutput:
        self.turns += 1
        observation, reward, terminated, truncated, info = self.env.step(action)
        done = terminated or truncated
        if done:
            observations: list[dict[str, str]] = []
            self._breakdown = info["reward_breakdown"]
        elif "tool_messages" in info:
            observations = [{"role": "tool", "content": m["content"]} for m in info["tool_messages"]]
        else:
            observations = [{"role": "user", "content": observation}]
        metadata: dict[str, Any] = {"task_id": self.task.id, "turn": info["turn"], "calls": info.get("calls", [])}
        if done:
            metadata["reward_breakdown"] = self._breakdown
            metadata["success"] = info["success"]
        return BaseTextEnvStepOutput(observations=observations, reward=float(reward), done=done, metadata=metadata)

    def get_metrics(self) -> dict[str, Any]:
        """The episode's reward breakdown once it has ended (every component, `success` as 0 or 1)."""
        if self._breakdown is None:
            return {}
        return {name: float(value) for name, value in self._breakdown.items()}

    def close(self) -> None:
        self.env.close()


def opening(info: Mapping[str, Any]) -> list[dict[str, str]]:
    """The conversation an episode opens with: the system prompt with the shown tools, then the
    first user turn (from a `ProveEnv.reset` info)."""
    system, user = info["messages"][0], info["messages"][1]
    return [{"role": "system", "content": tools_prompt(system["content"], info["tools"])},
            {"role": "user", "content": user["content"]}]


def tools_prompt(system: str, tools: Iterable[Mapping[str, Any]]) -> str:
    """`system` followed by the tools (OpenAI function schemas) and how to call them, as chat
    templates with Hermes-style tool calling (Qwen2.5, Qwen3) write them into the system turn."""
    listed = "\n".join(json.dumps(tool, ensure_ascii=False) for tool in tools)
    return (f"{system}\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
            f"You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n{listed}\n"
            "</tools>\n\nFor each function call, return a json object with function name and arguments within "
            "<tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": "
            "<args-json-object>}\n</tool_call>")


def dataset_rows(tasks: Iterable[Task | Mapping[str, Any] | str], *,
                 data_source: str = "prove-env") -> list[dict[str, Any]]:
    """SkyRL dataset rows for `tasks` (write them with `datasets.Dataset.from_list(rows).to_parquet(...)`):
    `prompt` (the opening conversation), `env_class` ("prove"), `task` (the task's JSON, which the
    environment starts), `data_source` and `extra_info` (task id, server, split of origin)."""
    rows, envs = [], {}  # one environment per server starts every task of that server
    try:
        for item in tasks:
            task = Task.parse(item)
            env = envs.get(task.server) or envs.setdefault(task.server, ProveEnv(task.server))
            _, info = env.reset(options={"task": task})
            rows.append(_row(task, opening(info), data_source))
    finally:
        for env in envs.values():
            env.close()
    return rows


def _row(task: Task, prompt: list[dict[str, str]], data_source: str) -> dict[str, Any]:
    split = task.metadata.get("synthesis", {}).get("split", "")
    return {"data_source": data_source, "prompt": prompt, "env_class": ENV_ID, "task": task.to_json(),
            "extra_info": {"task_id": task.id, "server": task.server, "split": split}}


def register() -> None:
    """Register "prove" with skyrl_gym (once; importing this module does it)."""
    if ENV_ID not in skyrl_gym.registry:
        skyrl_gym.register(id=ENV_ID, entry_point=f"{__name__}:ProveTextEnv")


register()
