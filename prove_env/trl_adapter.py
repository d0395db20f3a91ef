"""TRL's `GRPOTrainer(environment_factory=...)` over the Gymnasium environments.

TRL 1.16 runs the multi-turn tool loop itself: it renders the public methods of an environment
class as the model's tools, calls them when the model emits tool calls, and asks `get_reward()`
for the episode's reward. This module builds, per server, such a class as a thin shim over
`ProveEnv`: every tool call is one `ProveEnv.step`, so calls, errors, limits and the reward are
exactly the environment's.

    from trl import GRPOConfig, GRPOTrainer
    from prove_env.trl_adapter import REWARD_COMPONENTS, environment_factory, make_dataset, reward_funcs

    trainer = GRPOTrainer(
        model="Qwen/Qwen3-4B",
        train_dataset=make_dataset(servers=["banking", "calendar", "filesystem"]),
        environment_factory=environment_factory(["banking", "calendar", "filesystem"]),
        reward_funcs=reward_funcs(),                      # the components, logged with weight 0
        args=GRPOConfig(reward_weights=[0.0] * len(REWARD_COMPONENTS), ...),
    )

How an episode maps onto TRL's rollout:

- **Tools.** One method per visible tool of the server, with a real signature (`__signature__`
  and `__annotations__` from the tool's JSON schema: types, enums, required and optional
  parameters) and a Google docstring (the tool's description and each parameter's), so TRL's
  schema extraction renders the server's own schema. A call returns the tool message the
  environment produced, as a string; a call the environment answers with an error raises
  `ToolCallError`, which TRL shows to the model as `{"error": ...}`.
- **Start.** `reset(**row)` starts the row's task (`task`, its JSON) on a fresh world and returns
  None: the prompt (system prompt and user message) is the dataset's, made by `make_dataset` from
  the environment's own reset.
- **User turns.** TRL plays one user message per rollout. `make_dataset` therefore merges a
  task's user turns into one message (blank lines between) and its gold calls into one turn; the
  start world, the gold calls and their dependencies, hence the reward, are unchanged.
- **End and reward.** TRL ends a rollout when the model answers without a tool call; that answer
  never reaches a tool. Calls to names that are not tools never reach the environment either
  (TRL answers "Tool X not found"), nor do the calls of the last generation once
  `max_tool_calling_iterations` is reached. The reward functions of `reward_funcs()` receive
  each rollout's completion: they step into the environment, in order, every call of the
  completion that the environment has not executed (so an unknown name is recorded and scored as
  an invalid call, exactly as `ProveEnv.step` scores it), then the final answer text, which ends
  the episode. The environment's reward breakdown is then final: each function returns one
  component (`prove_validity`, `prove_coverage`, ...) and `get_reward()` returns the total.
  TRL runs `reward_funcs` before `get_reward`; `get_reward` alone (without `reward_funcs()`)
  still ends the episode, with an empty answer and without the calls that never reached it.
"""

from __future__ import annotations

import inspect
import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal, Union

from prove_env.env import ProveEnv
from prove_env.registry import get_toolkit
from prove_env.reward import RewardConfig
from prove_env.task import Task, fixture_tasks, load_tasks

__all__ = [
    "REWARD_COMPONENTS",
    "ProveToolEnv",
    "ToolCallError",
    "environment_factory",
    "environment_tools",
    "make_dataset",
    "make_environment_class",
    "merge_user_turns",
    "reward_funcs",
    "tool_schemas",
]

REWARD_COMPONENTS = ("validity", "coverage", "efficiency", "name", "argument", "state", "success")
"""The reward breakdown's components, one reward function each in `reward_funcs()`."""

_RESERVED = {"reset", "get_reward"}


class ToolCallError(RuntimeError):
    """A tool call the environment answered with an error; TRL shows the message to the model."""


class ProveToolEnv:
    """Base of the generated environment classes: one `ProveEnv` per instance, reused across rollouts.

    Subclasses set `server` and `env_kwargs`, and get one method per tool. Only `reset`,
    `get_reward` and the tool methods are public: TRL exposes every other public function as a tool.
    """

    server: ClassVar[str]
    env_kwargs: ClassVar[dict[str, Any]] = {}

    def __init__(self) -> None:
        self._env = ProveEnv(self.server, **self.env_kwargs)
        self._task: Task | None = None
        self._done = True
        self._executed: list[tuple[str, Any]] = []
        self._breakdown: dict[str, Any] | None = None
        self._saw_completion = False

    # -- what TRL calls ---------------------------------------------------------------------------

    def reset(self, task: str | dict[str, Any] | Task | None = None, task_id: str | None = None, **row: Any) -> None:
        """Start the row's task (`task`: a Task, its dict or JSON; or `task_id` of the environment's tasks)."""
        if task is not None:
            options: dict[str, Any] = {"task": Task.parse(task, "row['task']")}
        elif task_id is not None:
            options = {"task_id": task_id}
        else:
            raise ValueError("a dataset row needs a 'task' (the task as JSON) or a 'task_id' column")
        self._env.reset(options=options)
        self._task = self._env.task
        self._done = False
        self._executed = []
        self._breakdown = None
        self._saw_completion = False

    def get_reward(self) -> float:
        """The episode's reward (ending it first, if the reward functions have not)."""
        return float(self._finish()["total"])

    # -- internals (private: TRL must not see them as tools) --------------------------------------

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        if self._task is None:
            raise ToolCallError("no episode: reset() was not called")
        if self._done:
            raise ToolCallError("the episode has ended; no more tool calls are executed")
        self._executed.append((name, arguments))
        observation, info = self._step({"name": name, "arguments": arguments})
        record = info["calls"][0]
        if not record["ok"]:
            raise ToolCallError(observation)
        return observation

    def _step(self, action: Any) -> tuple[str, dict[str, Any]]:
        observation, _, terminated, truncated, info = self._env.step(action)
        if terminated or truncated:
            self._done = True
            self._breakdown = info["reward_breakdown"]
        return observation, info

    def _finish(self, completion: Any = None) -> dict[str, Any]:
        """End the episode with what the completion holds, once; return the reward breakdown."""
        if self._task is None:
            raise RuntimeError("no episode: reset() was not called")
        if completion is not None and not self._saw_completion:
            self._saw_completion = True
            if self._breakdown is not None and self._done and not self._executed_all(completion):
                warnings.warn(
                    "the episode had ended before its completion was seen: calls that never reached the "
                    "environment are not scored (pass reward_funcs() to GRPOTrainer)",
                    stacklevel=3,
                )
            unexecuted, answer = self._unexecuted(completion)
            if unexecuted and not self._done:
                self._step(unexecuted)
        else:
            answer = ""
        while not self._done:
            self._step(answer)
            answer = ""  # a task with several user turns (not merged): answer the rest empty
        assert self._breakdown is not None
        return self._breakdown

    def _unexecuted(self, completion: Any) -> tuple[list[dict[str, Any]], str]:
        """The completion's calls this environment did not execute, in order, and its final answer text."""
        if isinstance(completion, str):
            return [], completion
        calls = list(_completion_calls(completion))
        pending = []
        j = 0
        for call in calls:
            if j < len(self._executed) and self._executed[j] == (call["name"], call["arguments"]):
                j += 1
                continue
            pending.append(call)
        last = completion[-1] if completion else None
        answer = ""
        if isinstance(last, dict) and last.get("role") == "assistant" and not last.get("tool_calls"):
            answer = last.get("content") or ""
            answer = answer if isinstance(answer, str) else ""
        return pending, answer

    def _executed_all(self, completion: Any) -> bool:
        return not self._unexecuted(completion)[0]


def _completion_calls(completion: Sequence[Any]) -> Iterable[dict[str, Any]]:
    for message in completion:
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        for call in message.get("tool_calls") or []:
            function = call.get("function", call) if isinstance(call, dict) else {}
            name = function.get("name") if isinstance(function, dict) else None
            arguments = function.get("arguments", {}) if isinstance(function, dict) else call
            if isinstance(call, dict) and call.get("type", "function") != "function":
                name = None  # a call TRL does not run: the environment scores it as unreadable
            yield {"name": name, "arguments": arguments}


# -- classes from schemas -----------------------------------------------------------------------

_JSON_TYPES: dict[str, Any] = {"string": str, "integer": int, "number": float, "boolean": bool, "object": dict,
                               "null": type(None)}


def _python_type(schema: dict[str, Any]) -> Any:
    """The Python type hint whose JSON schema (per `transformers.utils.get_json_schema`) is `schema`."""
    if "enum" in schema:
        return Literal[tuple(schema["enum"])]
    variants = schema.get("anyOf") or schema.get("oneOf")
    if variants:
        return Union[tuple(_python_type(v) for v in variants)]  # noqa: UP007
    kind = schema.get("type")
    if isinstance(kind, list):
        return Union[tuple(_python_type({**schema, "type": k}) for k in kind)]  # noqa: UP007
    if kind == "array":
        items = schema.get("items")
        return list[_python_type(items)] if items else list
    if kind in _JSON_TYPES:
        return _JSON_TYPES[kind]
    return Any


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _make_method(class_name: str, function: dict[str, Any]) -> Callable[..., str]:
    name = function["name"]
    parameters = function.get("parameters") or {}
    properties: dict[str, Any] = parameters.get("properties", {})
    required = set(parameters.get("required", []))

    def tool_method(self: ProveToolEnv, **arguments: Any) -> str:
        # The body takes any keywords: the environment validates them (unknown keys and wrong types
        # are the model's errors to see, not Python TypeErrors raised before the environment runs).
        return self._call(name, arguments)

    annotations: dict[str, Any] = {}
    signature = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    ordered = [p for p in properties if p in required] + [p for p in properties if p not in required]
    for param in ordered:
        hint = _python_type(properties[param])
        annotations[param] = hint
        default = inspect.Parameter.empty if param in required else properties[param].get("default")
        signature.append(inspect.Parameter(param, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint))
    doc = function.get("description") or name
    if ordered:
        lines = [f"    {p}: {_one_line(properties[p].get('description') or p)}" for p in ordered]
        doc += "\n\nArgs:\n" + "\n".join(lines)
    tool_method.__name__ = name
    tool_method.__qualname__ = f"{class_name}.{name}"
    tool_method.__doc__ = doc
    tool_method.__signature__ = inspect.Signature(signature)  # type: ignore[attr-defined]
    tool_method.__annotations__ = annotations
    return tool_method


def tool_schemas(server: str) -> list[dict[str, Any]]:
    """The server's visible tools in OpenAI function format: what the generated class exposes."""
    return [spec.openai_schema() for spec in get_toolkit(server).visible_specs()]


def environment_tools(environment: ProveToolEnv) -> list[Callable[..., str]]:
    """The instance's tool methods as `GRPOTrainer` lists them (by name), e.g. to render prompts the same way."""
    return [
        getattr(environment, name)
        for name, _ in inspect.getmembers(type(environment), predicate=inspect.isfunction)
        if name not in _RESERVED and not name.startswith("_")
    ]


_CLASSES: dict[tuple[str, str], type[ProveToolEnv]] = {}


def make_environment_class(
    server: str,
    *,
    reward: str | dict[str, Any] | RewardConfig = "paper",
    max_calls: int = 50,
    tasks: str | Path | list[Task | dict[str, Any]] | None = None,
) -> type[ProveToolEnv]:
    """The `environment_factory` class of one server (cached per server and settings).

    Args:
        server: the server name, such as 'banking'.
        reward: the environment's reward preset or config ("paper" by default).
        max_calls: tool calls per episode; each call is one environment step here, so the
            environment's step limit is set to allow them all and TRL's `max_tool_calling_iterations`
            bounds the rounds.
        tasks: the environment's own task set, used only by rows that give a `task_id` instead of a `task`.
    """
    settings = {"reward": reward, "max_calls": max_calls, "max_steps": max_calls + 1, "tasks": tasks}
    key = (server, repr(settings))
    cached = _CLASSES.get(key)
    if cached is not None:
        return cached
    class_name = "Prove" + "".join(part.title() for part in re.split(r"[^0-9a-zA-Z]+", server)) + "Env"
    namespace: dict[str, Any] = {"server": server, "env_kwargs": settings, "__module__": __name__,
                                 "__doc__": f"The {server} server's tools over a ProveEnv episode (for TRL)."}
    for schema in tool_schemas(server):
        function = schema["function"]
        if function["name"] in _RESERVED or function["name"].startswith("_") or not function["name"].isidentifier():
            raise ValueError(f"server {server!r}: tool name {function['name']!r} cannot be a method for TRL")
        namespace[function["name"]] = _make_method(class_name, function)
    cls = type(class_name, (ProveToolEnv,), namespace)
    _CLASSES[key] = cls
    return cls


def environment_factory(
    servers: str | Sequence[str], **settings: Any
) -> type[ProveToolEnv] | dict[str, type[ProveToolEnv]]:
    """`GRPOTrainer(environment_factory=...)`: one server's class, or `{server: class}` for several.

    With several servers, TRL's multi-environment mode routes each row by its `environment`
    column (which `make_dataset` writes) and shows each rollout only its server's tools.
    """
    if isinstance(servers, str):
        return make_environment_class(servers, **settings)
    servers = list(dict.fromkeys(servers))
    if len(servers) == 1:
        return make_environment_class(servers[0], **settings)
    return {s: make_environment_class(s, **settings) for s in servers}


# -- dataset --------------------------------------------------------------------------------------

def merge_user_turns(task: Task) -> Task:
    """The task as one user message: its user turns joined by blank lines, its gold calls one turn.

    The start world, gold calls, dependencies and digests are unchanged, so is the reward of a
    given list of calls. Single-turn tasks are returned as they are.
    """
    if len(task.user_turns) == 1:
        return task
    data = task.model_dump(mode="json", exclude_none=True)
    data["user_turns"] = ["\n\n".join(task.user_turns)]
    data["gold"] = [[g for turn in data["gold"] for g in turn]]
    data["metadata"] = {**data.get("metadata", {}), "merged_user_turns": len(task.user_turns)}
    return Task.parse(data, f"task {task.id!r} (merged)")


def make_dataset(
    tasks: str | Path | Sequence[Task | dict[str, Any]] | None = None,
    *,
    servers: str | Sequence[str] | None = None,
    merge_turns: bool = True,
) -> Any:
    """A `datasets.Dataset` of tasks for `GRPOTrainer`.

    Columns: `prompt` (the system prompt and the user message, as the environment's reset
    writes them), `task` (the task as JSON: `reset(**row)` rebuilds it), `task_id` and
    `environment` (the server: TRL's multi-environment routing column).

    Args:
        tasks: a task file, a list of tasks, or None for the fixture tasks of `servers`.
        servers: keep only tasks of these servers (and, with `tasks=None`, their fixture tasks).
        merge_turns: merge each task's user turns into one message (see `merge_user_turns`);
            TRL plays one user message per rollout.

    Every task is shown every visible tool of its server (its `tools` field is dropped), because
    TRL renders the environment class's methods, which are all of them.
    """
    from datasets import Dataset

    wanted = [servers] if isinstance(servers, str) else list(servers) if servers is not None else None
    if tasks is None:
        if wanted is None:
            raise ValueError("give tasks, or servers whose fixture tasks to use")
        loaded = [t for s in wanted for t in fixture_tasks(s)]
    elif isinstance(tasks, str | Path):
        loaded = load_tasks(tasks)
    else:
        loaded = [Task.parse(t, f"tasks[{i}]") for i, t in enumerate(tasks)]
    if wanted is not None:
        loaded = [t for t in loaded if t.server in wanted]
    if not loaded:
        raise ValueError("no tasks to train on")
    rows: dict[str, list[Any]] = {"prompt": [], "task": [], "task_id": [], "environment": []}
    envs: dict[str, ProveEnv] = {}
    try:
        for task in loaded:
            task = task.model_copy(update={"tools": None})
            if merge_turns:
                task = merge_user_turns(task)
            env = envs.get(task.server)
            if env is None:
                env = envs[task.server] = ProveEnv(task.server)
            _, info = env.reset(options={"task": task})
            rows["prompt"].append([{"role": m["role"], "content": m["content"]} for m in info["messages"]])
            rows["task"].append(task.to_json())
            rows["task_id"].append(task.id)
            rows["environment"].append(task.server)
    finally:
        for env in envs.values():
            env.close()
    return Dataset.from_dict(rows)


# -- reward functions ---------------------------------------------------------------------------

def _component_reward(component: str) -> Callable[..., list[float | None]]:
    def reward(completions: list[Any], environments: list[Any] | None = None, **_: Any) -> list[float | None]:
        if environments is None:
            raise ValueError(f"prove_{component} needs GRPOTrainer(environment_factory=...) environments")
        out: list[float | None] = []
        for completion, env in zip(completions, environments, strict=True):
            if not isinstance(env, ProveToolEnv):
                out.append(None)  # another kind of environment in a mixed run
                continue
            out.append(float(env._finish(completion)[component]))
        return out

    reward.__name__ = reward.__qualname__ = f"prove_{component}"
    reward.__doc__ = (f"The `{component}` component of each rollout's reward, from its environment, after the "
                      "rollout's completion has been stepped into it (calls that never reached it, then its answer).")
    return reward


def reward_funcs(components: Sequence[str] = REWARD_COMPONENTS) -> list[Callable[..., list[float | None]]]:
    """Reward functions for `GRPOTrainer(reward_funcs=...)`, one per reward component.

    Each ends its rollouts' episodes with their completions (idempotent) and returns one
    component: `prove_validity` scores every call of the completion, unknown tool names
    included. Give them weight 0 (`GRPOConfig(reward_weights=[0.0] * n)`) to log the components
    (`rewards/prove_<component>/mean`) while the environments' `get_reward()` (weight 1) is the
    reward; other weights add shaping on top of it.
    """
    unknown = [c for c in components if c not in REWARD_COMPONENTS]
    if unknown:
        raise ValueError(f"unknown reward components {unknown}; choose from {REWARD_COMPONENTS}")
    return [_component_reward(c) for c in components]
