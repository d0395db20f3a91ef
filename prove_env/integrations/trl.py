"""TRL's `GRPOTrainer(environment_factory=...)` over the Gymnasium environments.

TRL 1.16 runs the multi-turn tool loop itself: it renders the public methods of an environment
class as the model's tools and calls them when the model emits tool calls. This module builds
such classes as thin shims over `ProveEnv`: every tool call is one `ProveEnv.step`, so calls,
errors, limits and the reward are exactly the environment's.

    from trl import GRPOConfig, GRPOTrainer
    from prove_env.integrations.trl import environment_factory, make_dataset, reward_funcs, reward_weights

    dataset = make_dataset("data/train.jsonl")                 # or make_dataset(servers=[...]): fixture tasks
    trainer = GRPOTrainer(
        model="Qwen/Qwen3-4B",
        train_dataset=dataset,
        environment_factory=environment_factory(dataset),     # {tool set: class}: TRL's multi-environment mode
        reward_funcs=reward_funcs(),                          # prove_reward (the total), then each component
        args=GRPOConfig(reward_weights=reward_weights(), ...),
    )

How an episode maps onto TRL's rollout:

- **Tools.** A class per tool set: one method per tool the task shows (its server's tools, or the
  task's own list with distractor tools of other servers and enum lists stripped), with a real
  signature (`__signature__` and `__annotations__` from the tool's JSON schema) and a Google
  docstring, so TRL's schema extraction renders the task's own schemas. `make_dataset` writes
  each row's tool set in the `environment` column, and TRL's multi-environment mode shows each
  rollout only its class's tools. A call returns the tool message the environment produced, as a
  string; a call the environment answers with an error raises `ToolCallError`, which TRL shows
  to the model as `{"error": ...}`.
- **Start.** `reset(**row)` starts the row's task (`task`, its JSON) on a fresh world and returns
  None: the prompt (system prompt and user message) is the dataset's, made by `make_dataset` from
  the environment's own reset.
- **User turns.** TRL plays one user message per rollout. `make_dataset` therefore merges a
  task's user turns into one message (blank lines between) and its gold calls into one turn; the
  start world, the gold calls and their dependencies, hence the reward, are unchanged.
- **End and reward.** Only the calls TRL made during the rollout reach the world. The reward
  functions of `reward_funcs()` receive each rollout's completion and end its episode: a call TRL
  answered itself ("Tool X not found": a name that is not a tool) is stepped into the environment,
  which records and scores it as an invalid call without running anything; the final answer is
  the episode's answer (read-only tasks are judged on the facts it states) but is never parsed for
  calls, and the calls of a last generation that TRL did not run (the tool-round limit was
  reached) are neither run nor scored. The breakdown is then final: `prove_reward`
  returns the total and the other functions one component each (`prove_validity`, ...).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import random
import re
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
    "focus_tools",
    "make_dataset",
    "make_environment_class",
    "merge_user_turns",
    "reward_funcs",
    "reward_weights",
    "tool_schemas",
    "tool_set_key",
]

REWARD_COMPONENTS = ("validity", "coverage", "efficiency", "name", "argument", "state", "success")
"""The reward breakdown's components, one reward function each in `reward_funcs()` after `prove_reward`."""

_RESERVED = {"reset", "get_reward"}


class ToolCallError(RuntimeError):
    """A tool call the environment answered with an error; TRL shows the message to the model."""


class ProveToolEnv:
    """Base of the generated environment classes: a `ProveEnv` episode behind the tool methods.

    Subclasses set `server`, `tools` (the schemas shown) and `env_kwargs`, and get one method per
    tool. Only `reset` and the tool methods are public: TRL exposes every other public function as
    a tool. An instance borrows a `ProveEnv` from a pool shared by its server's classes when an
    episode starts and gives it back once the episode is scored, so many tool sets (one class
    each) cost no more environments than the rollouts in flight.
    """

    server: ClassVar[str]
    tools: ClassVar[list[dict[str, Any]]] = []
    env_kwargs: ClassVar[dict[str, Any]] = {}

    def __init__(self) -> None:
        self._env: ProveEnv | None = None
        self._task: Task | None = None
        self._done = True
        self._executed: list[tuple[str, Any]] = []
        self._breakdown: dict[str, Any] | None = None

    # -- what TRL calls ---------------------------------------------------------------------------

    def reset(self, task: str | dict[str, Any] | Task | None = None, task_id: str | None = None, **row: Any) -> None:
        """Start the row's task (`task`: a Task, its dict or JSON; or `task_id` of the environment's tasks)."""
        if task is not None:
            options: dict[str, Any] = {"task": Task.parse(task, "row['task']")}
        elif task_id is not None:
            options = {"task_id": task_id}
        else:
            raise ValueError("a dataset row needs a 'task' (the task as JSON) or a 'task_id' column")
        if self._env is None:
            self._env = _borrow(self.server, self.env_kwargs)
        self._env.reset(options=options)
        self._task = self._env.task
        shown = {t["function"]["name"] for t in self._env.tool_schemas()}
        if shown != set(self._names()):
            task_id = options.get("task_id") or options["task"].id
            self._give_back()
            raise ValueError(f"task {task_id!r} shows other tools than {type(self).__name__} has: build the classes "
                             "with environment_factory(dataset) from the same make_dataset rows")
        self._done = False
        self._executed = []
        self._breakdown = None

    # -- internals (private: TRL must not see them as tools) --------------------------------------

    @classmethod
    def _names(cls) -> list[str]:
        return [t["function"]["name"] for t in cls.tools]

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
        assert self._env is not None
        observation, _, terminated, truncated, info = self._env.step(action)
        if terminated or truncated:
            self._done = True
            self._breakdown = info["reward_breakdown"]
        return observation, info

    def _finish(self, completion: Any = None) -> dict[str, Any]:
        """End the episode after the rollout `completion`, once; return the reward breakdown.

        Calls TRL answered itself without reaching a method (unknown names) are stepped in, so the
        environment scores them as the invalid calls they are; then the completion's final answer
        text is the episode's answer. Nothing else of the completion runs.
        """
        if self._breakdown is not None and self._done:
            self._give_back()
            return self._breakdown
        if self._task is None or self._env is None:
            raise RuntimeError("no episode: reset() was not called")
        for call in _refused_calls(completion, self._executed) if completion is not None else []:
            if self._done:
                break
            self._step(call)
        answer = _final_answer(completion)
        while not self._done:
            # An assistant message with an empty list of calls: the text is the answer as written, never
            # parsed for calls. A task with several user turns (not merged) answers the rest empty.
            self._step({"role": "assistant", "content": answer, "tool_calls": []})
            answer = ""
        assert self._breakdown is not None
        self._give_back()
        return self._breakdown

    def _give_back(self) -> None:
        if self._env is not None:
            _POOLS.setdefault(_pool_key(self.server, self.env_kwargs), []).append(self._env)
            self._env = None


_POOLS: dict[tuple[str, str], list[ProveEnv]] = {}
"""Idle environments per server and settings, shared by the classes of that server's tool sets."""


def _pool_key(server: str, settings: dict[str, Any]) -> tuple[str, str]:
    return server, repr(sorted(settings.items()))


def _borrow(server: str, settings: dict[str, Any]) -> ProveEnv:
    idle = _POOLS.get(_pool_key(server, settings))
    return idle.pop() if idle else ProveEnv(server, **settings)


def _refused_calls(completion: Any, executed: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    """The calls of a completion that TRL answered without running them: not among `executed`, in
    order, and followed by tool messages (a call of a generation that TRL did not run has none)."""
    if not isinstance(completion, list | tuple):
        return []
    refused = []
    j = 0
    for i, message in enumerate(completion):
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        following = completion[i + 1] if i + 1 < len(completion) else None
        answered = isinstance(following, dict) and following.get("role") == "tool"
        for call in _message_calls(message):
            if j < len(executed) and executed[j] == (call["name"], call["arguments"]):
                j += 1
            elif answered:
                refused.append(call)
    return refused


def _final_answer(completion: Any) -> str:
    """The text of the completion's last message when it is an answer (an assistant message without calls)."""
    if isinstance(completion, str):
        return completion
    last = completion[-1] if isinstance(completion, list | tuple) and completion else None
    if isinstance(last, dict) and last.get("role") == "assistant" and not last.get("tool_calls"):
        content = last.get("content")
        return content if isinstance(content, str) else ""
    return ""


def _message_calls(message: dict[str, Any]) -> Iterable[dict[str, Any]]:
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
    """The server's visible tools in OpenAI function format: what a task without its own list shows."""
    return [spec.openai_schema() for spec in get_toolkit(server).visible_specs()]


def environment_tools(environment: ProveToolEnv) -> list[Callable[..., str]]:
    """The instance's tool methods as `GRPOTrainer` lists them (by name), e.g. to render prompts the same way."""
    return [
        getattr(environment, name)
        for name, _ in inspect.getmembers(type(environment), predicate=inspect.isfunction)
        if name not in _RESERVED and not name.startswith("_")
    ]


def tool_set_key(server: str, tools: list[dict[str, Any]] | None) -> str:
    """The name of a task's tool set: its server's when it shows the server's visible tools (in any
    order, as TRL lists methods by name), else the server and a digest of the schemas."""
    if tools is None:
        return server
    canonical = _canonical(tools)
    if canonical == _canonical(tool_schemas(server)):
        return server
    return f"{server}+{hashlib.sha256(canonical.encode()).hexdigest()[:12]}"


def _canonical(tools: list[dict[str, Any]]) -> str:
    return json.dumps(sorted(tools, key=lambda t: t["function"]["name"]), sort_keys=True, ensure_ascii=False)


_CLASSES: dict[tuple[str, str, str], type[ProveToolEnv]] = {}


def make_environment_class(
    server: str,
    *,
    tools: list[dict[str, Any]] | None = None,
    reward: str | dict[str, Any] | RewardConfig = "paper",
    max_calls: int = 50,
    tasks: str | Path | list[Task | dict[str, Any]] | None = None,
) -> type[ProveToolEnv]:
    """The `environment_factory` class of one tool set of a server (cached per tools and settings).

    Args:
        server: the server name, such as 'banking'.
        tools: the tools shown, in OpenAI function format (a task's `tools`: distractors of other
            servers and stripped enums included); None for the server's visible tools.
        reward: the environment's reward preset or config ("paper" by default).
        max_calls: tool calls per episode; each call is one environment step here, so the
            environment's step limit is set to allow them all and TRL's `max_tool_calling_iterations`
            bounds the rounds.
        tasks: the environment's own task set, used only by rows that give a `task_id` instead of a `task`.
    """
    shown = tool_schemas(server) if tools is None else [dict(t) for t in tools]
    key = tool_set_key(server, tools)
    settings = {"reward": reward, "max_calls": max_calls, "max_steps": max_calls + 1, "tasks": tasks}
    cache_key = (key, _canonical(shown), repr(settings))
    cached = _CLASSES.get(cache_key)
    if cached is not None:
        return cached
    class_name = "Prove" + "".join(part.title() for part in re.split(r"[^0-9a-zA-Z]+", server)) + "Env"
    if key != server:
        class_name += "_" + key.rsplit("+", 1)[1]
    namespace: dict[str, Any] = {
        "server": server, "tools": shown, "env_kwargs": settings, "__module__": __name__,
        "__doc__": f"Tool set {key!r} of the {server} server over a ProveEnv episode (for TRL).",
    }
    for schema in shown:
        function = schema["function"]
        name = function["name"]
        if name in _RESERVED or name.startswith("_") or not name.isidentifier():
            raise ValueError(f"server {server!r}: tool name {name!r} cannot be a method for TRL")
        if name in namespace:
            raise ValueError(f"server {server!r}: tool {name!r} is shown twice")
        namespace[name] = _make_method(class_name, function)
    cls = type(class_name, (ProveToolEnv,), namespace)
    _CLASSES[cache_key] = cls
    return cls


def environment_factory(source: Any, **settings: Any) -> type[ProveToolEnv] | dict[str, type[ProveToolEnv]]:
    """`GRPOTrainer(environment_factory=...)` for a dataset of `make_dataset`, or for servers.

    Args:
        source: a dataset made by `make_dataset` (any mapping or `datasets.Dataset` with its `task`
            and `environment` columns): returns `{tool set: class}` for every tool set of its rows,
            TRL's multi-environment mode, which renders each row's prompt with its class's tools.
            Or a server name (its class, showing the server's visible tools), or several names
            (`{server: class}`), for tasks that show their server's tools.
        **settings: `reward`, `max_calls`, `tasks`, as in `make_environment_class`.
    """
    if isinstance(source, str):
        return make_environment_class(source, **settings)
    if _is_dataset(source):
        keys, rows = source["environment"], source["task"]
        classes: dict[str, type[ProveToolEnv]] = {}
        for key, row in zip(keys, rows, strict=True):
            if key not in classes:
                task = Task.parse(row, f"the task of environment {key!r}")
                if tool_set_key(task.server, task.tools) != key:
                    raise ValueError(f"row of task {task.id!r}: environment {key!r} is not its tool set "
                                     f"{tool_set_key(task.server, task.tools)!r}; make the dataset with make_dataset")
                classes[key] = make_environment_class(task.server, tools=task.tools, **settings)
        return classes
    servers = list(dict.fromkeys(source))
    if len(servers) == 1:
        return make_environment_class(servers[0], **settings)
    return {s: make_environment_class(s, **settings) for s in servers}


def _is_dataset(source: Any) -> bool:
    try:
        return "environment" in source.column_names and "task" in source.column_names
    except AttributeError:
        return isinstance(source, dict) and "environment" in source and "task" in source


# -- dataset --------------------------------------------------------------------------------------

def merge_user_turns(task: Task) -> Task:
    """The task as one user message: its user turns joined by blank lines, its gold calls (and facts) one turn.

    The start world, gold calls, dependencies and digests are unchanged, so is the reward of a
    given list of calls. Single-turn tasks are returned as they are.
    """
    if len(task.user_turns) == 1:
        return task
    data = task.model_dump(mode="json", exclude_none=True)
    data["user_turns"] = ["\n\n".join(task.user_turns)]
    data["gold"] = [[g for turn in data["gold"] for g in turn]]
    if data.get("facts") is not None:
        data["facts"] = [[f for turn in data["facts"] for f in turn]]
    data["metadata"] = {**data.get("metadata", {}), "merged_user_turns": len(task.user_turns)}
    return Task.parse(data, f"task {task.id!r} (merged)")


def focus_tools(task: Task, *, others: int = 3, compact: bool = True) -> Task:
    """The task showing fewer tools: those its gold calls use, `others` more of its server, and the
    distractors of other servers it already shows; with `compact`, each description cut to its first
    paragraph (what the tool does; the parameters keep their own descriptions).

    A departure from PROVE, which shows every tool of the server: a small model's context (and a
    CPU's time) does not fit twenty-five full schemas, 4,875 SmolLM2 tokens for a banking task.
    The `others` tools are drawn by a digest of the task's id, so a task always shows the same
    set; a tool the task hides (a missing-function task's) stays hidden. The start world, gold
    calls and facts are unchanged; a call to a tool no longer shown is scored as the environment
    scores any tool the task does not show.
    """
    shown = task.tools if task.tools is not None else tool_schemas(task.server)
    own = {t["function"]["name"] for t in tool_schemas(task.server)}
    needed = {call.name for call in task.gold_calls}
    spare = sorted(t["function"]["name"] for t in shown if t["function"]["name"] in own - needed)
    digest = int.from_bytes(hashlib.sha256(task.id.encode()).digest()[:8], "big")
    extra = set(random.Random(digest).sample(spare, min(others, len(spare))))
    kept = [t for t in shown if t["function"]["name"] in needed | extra or t["function"]["name"] not in own]
    if compact:
        kept = [_compact(t) for t in kept]
    data = task.model_dump(mode="json", exclude_none=True)
    data["tools"] = kept
    data["metadata"] = {**data.get("metadata", {}), "focused_tools": {"others": others, "compact": compact}}
    return Task.parse(data, f"task {task.id!r} (focused tools)")


def _compact(tool: dict[str, Any]) -> dict[str, Any]:
    function = dict(tool["function"])
    function["description"] = function.get("description", "").split("\n\n")[0].strip()
    return {**tool, "function": function}


def make_dataset(
    tasks: str | Path | Sequence[Task | dict[str, Any]] | None = None,
    *,
    servers: str | Sequence[str] | None = None,
    merge_turns: bool = True,
    focus: int | None = None,
) -> Any:
    """A `datasets.Dataset` of tasks for `GRPOTrainer`.

    Columns: `prompt` (the system prompt and the user message, as the environment's reset
    writes them), `task` (the task as JSON: `reset(**row)` rebuilds it), `task_id` and
    `environment` (the task's tool set, `tool_set_key`: the server's name when the task shows the
    server's tools, else the server and a digest; TRL routes each row by it, and
    `environment_factory(dataset)` makes one class per tool set).

    Args:
        tasks: a task file, a list of tasks, or None for the fixture tasks of `servers`.
        servers: keep only tasks of these servers (and, with `tasks=None`, their fixture tasks).
        merge_turns: merge each task's user turns into one message (see `merge_user_turns`);
            TRL plays one user message per rollout.
        focus: show each task its gold tools and this many more of its server (and its
            distractors), with compact descriptions (see `focus_tools`); None shows every tool.

    Each task is shown exactly its own tools (`task.tools`, distractors and stripped enums
    included; its server's visible tools when it has none).
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
            if merge_turns:
                task = merge_user_turns(task)
            if focus is not None:
                task = focus_tools(task, others=focus)
            env = envs.get(task.server)
            if env is None:
                env = envs[task.server] = ProveEnv(task.server)
            _, info = env.reset(options={"task": task})
            rows["prompt"].append([{"role": m["role"], "content": m["content"]} for m in info["messages"]])
            rows["task"].append(task.to_json())
            rows["task_id"].append(task.id)
            rows["environment"].append(tool_set_key(task.server, task.tools))
    finally:
        for env in envs.values():
            env.close()
    return Dataset.from_dict(rows)


# -- reward functions ---------------------------------------------------------------------------

def _episode_reward(component: str | None) -> Callable[..., list[float | None]]:
    key = component or "total"

    def reward(completions: list[Any], environments: list[Any] | None = None, log_metric: Any = None,
               **_: Any) -> list[float | None]:
        if environments is None:
            raise ValueError(f"{reward.__name__} needs GRPOTrainer(environment_factory=...) environments")
        out: list[float | None] = []
        by_server: dict[str, list[float]] = {}
        for completion, env in zip(completions, environments, strict=True):
            if not isinstance(env, ProveToolEnv):
                out.append(None)  # another kind of environment in a mixed run
                continue
            value = float(env._finish(completion)[key])
            out.append(value)
            by_server.setdefault(env.server, []).append(value)
        if component is None and log_metric is not None:
            for server, values in sorted(by_server.items()):
                log_metric(f"rewards/{server}/mean", sum(values) / len(values))
        return out

    reward.__name__ = reward.__qualname__ = f"prove_{component}" if component else "prove_reward"
    reward.__doc__ = (f"The {'reward' if component is None else f'`{component}` component'} of each rollout, from "
                      "its environment, once the rollout's completion has ended the episode.")
    return reward


def reward_funcs(components: Sequence[str] = REWARD_COMPONENTS) -> list[Callable[..., list[float | None]]]:
    """Reward functions for `GRPOTrainer(reward_funcs=...)`: `prove_reward`, then one per component.

    `prove_reward` is the environment's total under its preset (and logs `rewards/<server>/mean`);
    each of the others returns one component, `prove_validity` counting every call the model
    wrote, unknown tool names included. With `reward_weights()` (1 for the total, 0 for the
    components) the components are only logged (`rewards/prove_<component>/mean`); other weights
    add shaping on top of the total. Each ends its rollouts' episodes first (once).
    """
    unknown = [c for c in components if c not in REWARD_COMPONENTS]
    if unknown:
        raise ValueError(f"unknown reward components {unknown}; choose from {REWARD_COMPONENTS}")
    return [_episode_reward(None)] + [_episode_reward(c) for c in components]


def reward_weights(components: Sequence[str] = REWARD_COMPONENTS) -> list[float]:
    """`GRPOConfig(reward_weights=...)` for `reward_funcs(components)`: the total counts, the components are logged."""
    return [1.0] + [0.0] * len(components)
