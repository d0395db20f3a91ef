"""The Gymnasium environment: `gym.make("prove/<server>-v0")`."""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

from prove_env.actions import ParsedAction, parse_action
from prove_env.episode import CallRecord, Episode
from prove_env.reward import RewardBreakdown, RewardConfig, resolve_config
from prove_env.runtime import run_sync
from prove_env.task import Task, TaskError, fixture_tasks, load_tasks

if TYPE_CHECKING:
    from prove_env.remote import RemoteEpisode

__all__ = ["ProveEnv", "UnicodeText", "SharedTexts", "DEFAULT_SYSTEM_PROMPT"]

DEFAULT_SYSTEM_PROMPT = (
    "You are an assistant that serves the user's requests by calling the tools of the {server} service.\n"
    "{description}\n"
    "Look up ids and facts with the tools instead of guessing them. If a request needs information the "
    "user has not given, ask for it; if no available tool can serve it, say so instead of calling a tool. "
    "When the request is done, answer the user in plain text."
)

_TRUNCATED = "\n[... {n} more characters truncated]"
# Made once: `json.dumps` with options builds a new encoder on every call.
_ARGUMENTS_JSON = json.JSONEncoder(ensure_ascii=False, default=str).encode


class UnicodeText(spaces.Text):
    """A text space that contains any Unicode string up to `max_length` characters.

    `gymnasium.spaces.Text` only contains strings over its charset, so an observation with
    "é" or "–" would fall outside it; tool results and model output are arbitrary Unicode.
    Sampling still draws from the printable charset.
    """

    def __init__(self, max_length: int, *, seed: int | np.random.Generator | None = None) -> None:
        super().__init__(max_length=max_length, min_length=0, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.max_length})"


# Gymnasium's async vector environments pass observations through shared memory by default. For a
# `Text` space that memory holds indices into its charset (no space, newline or "é": a KeyError on
# the first observation), and the batch is read once, when the vector environment is built. A
# `UnicodeText` stores code points instead (plus one, so 0 pads), and its batch is a view that
# reads the memory when the vector environment copies it (its default) or when it is indexed.


class SharedTexts(Sequence[str]):
    """The observations of an async vector environment, read from its shared memory on access."""

    def __init__(self, memory: Any, n: int, width: int) -> None:
        self._rows = np.frombuffer(memory.get_obj(), dtype=np.int32).reshape(n, width)

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self)[index]
        row = self._rows[index]
        codes = row[: int(np.count_nonzero(row))] - 1
        return codes.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")

    def __copy__(self) -> tuple[str, ...]:
        return tuple(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return tuple(self)

    def __repr__(self) -> str:
        return f"SharedTexts({tuple(self)!r})"


@create_shared_memory.register(UnicodeText)
def _create_unicode_memory(space: UnicodeText, n: int = 1, ctx: ModuleType = multiprocessing) -> Any:
    return ctx.Array(np.dtype(np.int32).char, n * space.max_length)


@read_from_shared_memory.register(UnicodeText)
def _read_unicode_memory(space: UnicodeText, shared_memory: Any, n: int = 1) -> SharedTexts:
    return SharedTexts(shared_memory, n, space.max_length)


@write_to_shared_memory.register(UnicodeText)
def _write_unicode_memory(space: UnicodeText, index: int, value: str, shared_memory: Any) -> None:
    if not space.contains(value):
        raise ValueError(f"an observation of {len(value)} characters does not fit {space!r}")
    codes = np.frombuffer(value.encode("utf-32-le", "surrogatepass"), dtype="<u4").astype(np.int32) + 1
    width = space.max_length
    row = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)[index * width:(index + 1) * width]
    row[: len(codes)] = codes
    row[len(codes):] = 0


class ProveEnv(gym.Env[str, Any]):
    """A live, stateful tool-use environment over one MCP server, with a programmatic reward.

    ## Description

    Each episode is one task: a user with one or more requests, and the server's tools. The
    world is an isolated SQLite database cloned from the task's seeded (or snapshot) start state;
    every tool call of the model executes through real MCP dispatch against that world. The
    reward is PROVE's (validity, dependency-aware coverage, adaptive efficiency, tool-name
    precision, argument match), plus a final-state check and a strict success flag.

    ## Action Space

    `UnicodeText(max_action_chars)` in the space, but `step` accepts whatever a model produced:
    `{"name", "arguments"}`; an OpenAI tool call (arguments as a dict or a JSON string); an
    assistant message with `tool_calls`; a JSON string of any of these; assistant text with one or
    more `<tool_call>{...}</tool_call>` blocks; or a list of calls. Text without a tool call is
    the assistant's answer to the current user turn. Malformed actions never raise: they are
    recorded, answered with a readable error and scored as invalid calls.

    ## Observation Space

    `UnicodeText(max_observation_chars)`. After `reset` and after an answer: the next user turn.
    After tool calls: the tool message content the model would see (one call), or the contents
    of all tool messages joined by blank lines (several calls). Longer text is truncated with a
    visible marker.

    ## Rewards

    0 on every step but the last; on the terminal or truncated step, the episode's reward under
    the chosen preset ("paper" by default: maximum 1.3, unbounded below through the efficiency
    term; abstention tasks score 1 or 0), with `info["reward_breakdown"]` holding every component
    (`validity`, `coverage`, `efficiency`, `name`, `argument`, `state`, `success`, `total`).

    ## Starting State

    `reset(seed, options)` starts `options["task"]` (a Task or its dict), `options["task_id"]` (a
    task of the environment's task set), or else a task drawn with `self.np_random`. The world is
    a fresh clone of the task's start world; a task whose start world builds to a different
    digest on this machine is refused with an error. `info` holds `tools` (OpenAI function
    format), `messages` (the chat so far, system prompt included), `task_id`, `server`, `turn`.

    ## Episode End

    Terminated when the assistant answers the last user turn; truncated after `max_steps`
    assistant actions, or on the step whose calls reach `max_calls` (calls past the limit are not
    executed: they are answered with an error and count as invalid calls).

    ## Arguments

    - `server`: the server name (set by the registered id, e.g. `prove/calendar-v0`).
    - `tasks`: a task file (JSON Lines; the tasks of this server are kept, so one file written
      by `prove-env synth` serves every environment) or a list of tasks to draw from; default:
      the server's fixture tasks.
    - `reward`: "paper", "state", a `RewardConfig` or a mapping of its fields.
    - `max_steps`: assistant actions per episode (default 10).
    - `max_calls`: tool calls per episode (default 50).
    - `max_observation_chars`, `max_action_chars`: sizes of the text spaces.
    - `system_prompt`: a format string with `{server}` and `{description}`.
    - `render_mode`: None or "ansi" (the transcript as text).
    - `server_url`: the base URL of a `prove-env serve <server> --transport http` server, such as
      "http://127.0.0.1:8000": each episode then lives on that server (created with its control
      endpoints, tool calls over MCP at the episode's own endpoint, reward computed there) instead
      of in this process. Observations, rewards and `info` are the same; `episode.world` is not
      available (the server's `GET /episodes/<id>/trajectory` has the world digest).
    - `episode`: the `Episode` to drive instead of a new in-process one (not with `server_url`).
      A server that dispatches the calls itself (the OpenEnv transport, `prove_env.serving.openenv`)
      passes one made with `dispatched=True`: many environments in one process, without an
      in-process MCP server each.

    ## Version History

    - v0: initial release.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        server: str,
        *,
        tasks: str | Path | list[Task | dict[str, Any]] | None = None,
        reward: str | dict[str, Any] | RewardConfig = "paper",
        max_steps: int = 10,
        max_calls: int = 50,
        max_observation_chars: int = 32_768,
        max_action_chars: int = 32_768,
        system_prompt: str = DEFAULT_SYSTEM_PROMPT,
        render_mode: str | None = None,
        server_url: str | None = None,
        episode: Episode | None = None,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        reward = resolve_config(reward)
        if max_steps < 1 or max_calls < 1:
            raise ValueError("max_steps and max_calls must be at least 1")
        self.max_calls = max_calls
        self.server = server
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.system_prompt = system_prompt
        self.observation_space = UnicodeText(max_observation_chars)
        self.action_space = UnicodeText(max_action_chars)
        self.server_url = server_url
        self._episode: Episode | RemoteEpisode
        if episode is not None:
            if server_url is not None:
                raise ValueError("give server_url or episode, not both")
            if episode.toolkit.name != server:
                raise ValueError(f"the episode is of server {episode.toolkit.name!r}, not {server!r}")
            episode.reward_config = reward
            self._episode = episode
        elif server_url is None:
            self._episode = Episode(server, reward=reward)
        else:
            from prove_env.remote import RemoteEpisode

            self._episode = RemoteEpisode(server_url, server, reward=reward)
        self.tasks = self._load(tasks)
        self._by_id = {t.id: t for t in self.tasks}
        self._task: Task | None = None
        self._messages: list[dict[str, Any]] = []
        self._turn = 0
        self._steps = 0
        self._done = True
        self._breakdown: RewardBreakdown | None = None

    # -- the Gymnasium API ------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        return run_sync(self._areset(self._choose(options)))

    def step(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        return run_sync(self._astep(action))

    async def areset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """`reset` for async frameworks: the same code path, awaited on the caller's loop."""
        super().reset(seed=seed)
        return await self._areset(self._choose(options))

    async def astep(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """`step` for async frameworks: the same code path, awaited on the caller's loop."""
        return await self._astep(action)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        lines = []
        for m in self._messages:
            if m["role"] == "assistant" and m.get("tool_calls"):
                calls = ", ".join(f"{c['function']['name']}({c['function']['arguments']})" for c in m["tool_calls"])
                lines.append(f"assistant -> {calls}" + (f"\n  {m['content']}" if m.get("content") else ""))
            elif m["role"] == "tool":
                lines.append(f"tool[{m['name']}]: {m['content']}")
            else:
                lines.append(f"{m['role']}: {m['content']}")
        if self._breakdown is not None:
            lines.append("reward: " + json.dumps(self._breakdown.as_dict()))
        return "\n".join(lines) + "\n"

    def close(self) -> None:
        self._episode.close()

    # -- conveniences -----------------------------------------------------------------------------

    @property
    def task(self) -> Task | None:
        return self._task

    @property
    def episode(self) -> Episode | RemoteEpisode:
        """The live episode: its world (`.world`, in-process only), its calls (`.calls`) and its tools."""
        return self._episode

    def tool_schemas(self) -> list[dict[str, Any]]:
        return [dict(t) for t in self._episode.tools]

    def get_reward(self) -> RewardBreakdown:
        """The reward of the episode so far (final once the episode has ended)."""
        return run_sync(self._episode.score())

    # -- internals --------------------------------------------------------------------------------

    def _load(self, tasks: str | Path | list[Task | dict[str, Any]] | None) -> list[Task]:
        if tasks is None:
            loaded = fixture_tasks(self.server)
        elif isinstance(tasks, str | Path):
            # a file may hold several servers' tasks (`prove-env synth` writes them together)
            everything = load_tasks(tasks)
            loaded = [t for t in everything if t.server == self.server]
            if everything and not loaded:
                raise TaskError(f"{tasks} has no tasks for server {self.server!r}")
            return loaded
        else:
            loaded = [Task.parse(t, f"tasks[{i}]") for i, t in enumerate(tasks)]
        wrong = [t.id for t in loaded if t.server != self.server]
        if wrong:
            raise TaskError(f"tasks {wrong[:5]} are for other servers than {self.server!r}")
        return loaded

    def _choose(self, options: dict[str, Any] | None) -> Task:
        options = options or {}
        if "task" in options:
            task = Task.parse(options["task"], "options['task']")
            if task.server != self.server:
                raise TaskError(f"options['task'] is for server {task.server!r}, not {self.server!r}")
            return task
        if "task_id" in options:
            found = self._by_id.get(options["task_id"])
            if found is None:
                raise TaskError(f"no task {options['task_id']!r} in this environment's {len(self.tasks)} tasks")
            return found
        if not self.tasks:
            raise TaskError(f"server {self.server!r} has no tasks: pass tasks=... or options={{'task': ...}}")
        return self.tasks[int(self.np_random.integers(len(self.tasks)))]

    async def _areset(self, task: Task) -> tuple[str, dict[str, Any]]:
        await self._episode.begin(task)
        self._task = task
        self._turn = 0
        self._steps = 0
        self._done = False
        self._breakdown = None
        toolkit = self._episode.toolkit
        system = task.system_prompt or self.system_prompt.format(server=toolkit.name, description=toolkit.description())
        self._messages = [{"role": "system", "content": system}, {"role": "user", "content": task.user_turns[0]}]
        info = self._info()
        info["tools"] = self.tool_schemas()
        return self._clip(task.user_turns[0]), info

    async def _astep(self, action: Any) -> tuple[str, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode has ended: call reset() before step()")
        self._steps += 1
        parsed = parse_action(action)
        info: dict[str, Any] = {}
        limit_reached = False
        if parsed.is_answer:
            self._messages.append({"role": "assistant", "content": parsed.text})
            self._episode.answer(parsed.text)
            self._turn += 1
            terminated = self._turn >= len(self._task.user_turns)  # type: ignore[union-attr]
            if terminated:
                observation = ""
            else:
                observation = self._task.user_turns[self._turn]  # type: ignore[union-attr]
                self._messages.append({"role": "user", "content": observation})
        else:
            records = []
            for call in parsed.calls:
                if len(self._episode.calls) >= self.max_calls:
                    limit_reached = True
                    call = replace(call, error=f"this episode's limit of {self.max_calls} tool calls is reached")
                records.append(await self._episode.call(call))
            self._messages.append(_assistant_message(parsed, records))
            tool_messages = [
                {"role": "tool", "tool_call_id": r.id, "name": r.name or "", "content": self._clip(r.output)}
                for r in records
            ]
            self._messages.extend(tool_messages)
            observation = "\n\n".join(m["content"] for m in tool_messages)
            info["tool_messages"] = tool_messages
            info["calls"] = [r.as_dict() for r in records]
            terminated = False
        truncated = not terminated and (self._steps >= self.max_steps or limit_reached)
        reward = 0.0
        if terminated or truncated:
            self._done = True
            self._breakdown = await self._episode.score()
            reward = float(self._breakdown.total)
            info["reward_breakdown"] = self._breakdown.as_dict()
            info["trajectory"] = [r.as_dict() for r in self._episode.calls]
            info["success"] = self._breakdown.success
        info.update(self._info())
        return self._clip(observation), reward, terminated, truncated, info

    def _info(self) -> dict[str, Any]:
        task = self._task
        assert task is not None
        return {
            "task_id": task.id,
            "server": self.server,
            "turn": self._turn,
            "step": self._steps,
            "messages": [dict(m) for m in self._messages],
        }

    def _clip(self, text: str) -> str:
        limit = self.observation_space.max_length
        if len(text) <= limit:
            return text
        marker = _TRUNCATED.format(n=len(text) - limit)
        keep = max(0, limit - len(marker) - 8)
        return text[:keep] + _TRUNCATED.format(n=len(text) - keep)


def _assistant_message(parsed: ParsedAction, records: list[CallRecord]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": parsed.text,
        "tool_calls": [
            {
                "id": r.id,
                "type": "function",
                "function": {
                    "name": r.name or "",
                    "arguments": r.arguments if isinstance(r.arguments, str) else _ARGUMENTS_JSON(r.arguments),
                },
            }
            for r in records
        ],
    }
