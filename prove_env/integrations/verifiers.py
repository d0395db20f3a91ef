"""verifiers 0.4 (its `verifiers.v1` API): prove-env's servers as a verifiers environment.

    import prove_env.integrations.verifiers as pv

    env = pv.load_environment("data/", split="train")      # a `prove-env synth` output, or a task file
    # vf-eval prove-env-verifiers --env.taskset.tasks data/ -m MODEL --client.base-url URL -n 20

The taskset id is `prove-env-verifiers` (verifiers imports a taskset by a top-level module name:
`prove_env_verifiers` re-exports this module's taskset and environment). How an episode maps onto
verifiers' rollout:

- **Tasks.** `ProveTaskset` loads prove-env tasks (a `prove-env synth` output directory's split, a
  task file, or the servers' fixture tasks), any server or mix of servers. Each becomes a
  `ProveTask` whose data carries the task itself (`task`, its JSON); its prompt is the first user
  turn and its system prompt the environment's.
- **Tools.** Per rollout, verifiers launches `ProveToolset` (a tool server in its own process, as it
  launches every task-scoped toolset): `setup_task` builds the task's start world, a fresh clone,
  and the server registers exactly the tools the task shows (distractors and stripped enum lists
  included), under their own names, with their JSON schemas. A call runs through the server's
  real MCP dispatch against that world; the model reads what the Gymnasium environment would show
  it, errors included.
- **Turns.** `ProveVerifiersEnv` plays the task's user: it opens the exchange with the first user
  turn and, each time the agent answers (a reply without tool calls), sends the next one.
- **Reward.** Tool servers are gone by the time verifiers scores, so the rubric replays the
  trace's assistant messages, in order, through a `ProveEnv` on a fresh start world: the reward is
  the environment's own on that transcript (PROVE's validity, coverage, efficiency, name and
  argument terms, the final-state check, the answer's facts), calls the harness refused itself
  (a tool that is not shown, arguments that are not JSON) included, and so are its limits (10
  assistant turns, the agent's `max_turns` by default). `prove_reward` is the reward (weight 1);
  `success` and every component are metrics.

verifiers 0.4.0 pins `mcp==2.0.0`; prove-env runs on it (`mcp>=2.0,<3`), so `pip install
"prove-env[verifiers]"` installs both, best in an environment of its own (docs/verifiers.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import verifiers.v1 as vf
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from prove_env.actions import ParsedCall
from prove_env.env import DEFAULT_SYSTEM_PROMPT, ProveEnv
from prove_env.episode import Episode
from prove_env.registry import get_toolkit, server_names
from prove_env.task import Task, TaskError, fixture_tasks, load_tasks

__all__ = [
    "TASKSET_ID",
    "REWARD_COMPONENTS",
    "ProveEnvConfig",
    "ProveState",
    "ProveTask",
    "ProveTaskConfig",
    "ProveTaskData",
    "ProveTaskset",
    "ProveTasksetConfig",
    "ProveToolset",
    "ProveToolsetConfig",
    "ProveVerifiersEnv",
    "load_environment",
    "load_tasks_from",
    "score_trace",
]

TASKSET_ID = "prove-env-verifiers"
"""The id verifiers knows the taskset by (`vf-eval prove-env-verifiers`, `--env.taskset.id`)."""

REWARD_COMPONENTS = ("validity", "coverage", "efficiency", "name", "argument", "state", "success")
"""The reward breakdown's components, each recorded as a metric of the trace."""


# -- tasks --------------------------------------------------------------------------------------

class ProveTaskData(vf.TaskData):
    """A prove-env task as verifiers carries it: the prompt is the first user turn."""

    server: str = ""
    """The server the task runs on."""
    task: str = ""
    """The task itself, as JSON (user turns, shown tools, gold calls, digests)."""

    def prove_task(self) -> Task:
        return Task.parse(self.task, f"task {self.id!r}")


class ProveState(vf.State):
    """Per-rollout state: the reward breakdown, once scored (the rubric's functions share it)."""

    reward_breakdown: dict[str, float] | None = None


class ProveToolsetConfig(vf.ToolsetConfig):
    """Where the per-rollout tool server runs (verifiers' toolset placement: a subprocess by default)."""


class ProveTaskConfig(vf.TaskConfig):
    """Run-time settings of each task (`--env.taskset.task.*`)."""

    reward: str = "paper"
    """The reward preset: "paper" (maximum 1.3) or "state" (adds the final-state term; maximum 1.8)."""
    tools: ProveToolsetConfig = ProveToolsetConfig()
    """The tool server's placement."""


class ProveToolset(vf.Toolset[ProveToolsetConfig]):
    """One rollout's tool server: the task's start world behind the tools the task shows."""

    TOOL_PREFIX = None  # the tools keep the names the task shows them by

    def __init__(self, config: ProveToolsetConfig) -> None:
        super().__init__(config)
        self._episode: Episode | None = None

    async def setup_task(self, task: ProveTaskData) -> None:
        prove_task = task.prove_task()
        self._episode = Episode(prove_task.server)
        await self._episode.begin(prove_task)

    def register(self, mcp: MCPServer) -> None:
        if self._episode is None:
            raise vf.ToolsetError("ProveToolset serves one rollout's world: it is task-scoped (Task.toolsets), "
                                  "never shared by a taskset")
        specs = self._episode.toolkit.specs()
        for schema in self._episode.tools:
            function = schema["function"]
            spec = specs.get(function["name"])
            annotations = None if spec is None else ToolAnnotations(
                read_only_hint=spec.read_only, destructive_hint=spec.destructive, idempotent_hint=spec.idempotent,
                open_world_hint=False)
            tool = Tool(fn=self._call(function["name"]), name=function["name"],
                        description=function.get("description", ""),
                        parameters=function.get("parameters") or {"type": "object", "properties": {}},
                        fn_metadata=_PassThrough(arg_model=ArgModelBase), is_async=True, annotations=annotations)
            # The task's own schema (enum lists stripped or not) is what the model must see; MCPServer
            # builds schemas from signatures only, so the tool goes in as built (as its constructor's
            # `tools=` would put it).
            mcp._tool_manager._tools[tool.name] = tool

    def _call(self, name: str) -> Any:
        async def call(**arguments: Any) -> CallToolResult:
            assert self._episode is not None
            record = await self._episode.call(ParsedCall(name, arguments))
            return CallToolResult(content=[TextContent(type="text", text=record.output)], is_error=not record.ok)

        return call


class _PassThrough(FuncMetadata):
    """Arguments reach the episode as the model wrote them: the toolkit validates them strictly."""

    def validate_arguments(self, arguments_to_validate: dict[str, Any]) -> dict[str, Any]:
        return dict(arguments_to_validate)


class ProveTask(vf.Task[ProveTaskData, ProveState, ProveTaskConfig]):
    """A prove-env task: its tool server per rollout, and PROVE's reward as the rubric."""

    @property
    def key(self) -> str:
        return self.data.id or self.hash

    @classmethod
    def toolsets(cls, config: ProveTaskConfig) -> list[vf.Toolset]:
        return [ProveToolset(config.tools)]

    @vf.metric
    async def prove(self, task: ProveTaskData, trace: vf.Trace) -> dict[str, float]:
        """Every component of the reward breakdown, `success` included."""
        breakdown = await _breakdown(task, trace, self.config.reward)
        return {name: breakdown[name] for name in REWARD_COMPONENTS}

    @vf.reward(weight=1.0)
    async def prove_reward(self, task: ProveTaskData, trace: vf.Trace) -> float:
        """PROVE's reward of the rollout (the environment's total)."""
        return (await _breakdown(task, trace, self.config.reward))["total"]


async def _breakdown(task: ProveTaskData, trace: vf.Trace, reward: str) -> dict[str, float]:
    """The rollout's reward breakdown, scored once and kept on its state (a `ProveState`)."""
    state = trace.state
    if state.reward_breakdown is None:
        state.reward_breakdown = await score_trace(task.prove_task(), trace.assistant_messages, reward=reward)
    return state.reward_breakdown


async def score_trace(task: Task, assistant_messages: list[Any], *, reward: str = "paper") -> dict[str, float]:
    """The environment's reward breakdown for a rollout's assistant messages, replayed in order on a
    fresh start world (each message one environment step: its tool calls, or its text as the
    answer to the current user turn)."""
    env = ProveEnv(task.server, reward=reward)
    try:
        await env.areset(options={"task": task})
        info: dict[str, Any] = {}
        for message in assistant_messages:
            calls = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                     for c in message.tool_calls or []]
            _, _, terminated, truncated, info = await env.astep(
                {"role": "assistant", "content": message.content or "", "tool_calls": calls})
            if terminated or truncated:
                break
        breakdown = info.get("reward_breakdown") or (await env.episode.score()).as_dict()
    finally:
        await env.episode.aclose()
    return {name: float(value) for name, value in breakdown.items()}


# -- the taskset --------------------------------------------------------------------------------

class ProveTasksetConfig(vf.TasksetConfig):
    """Which tasks load (`--env.taskset.*`)."""

    id: str = TASKSET_ID
    task: ProveTaskConfig = ProveTaskConfig()
    tasks: str | None = None
    """A `prove-env synth` output directory (its `split` file) or a task file (JSON Lines); none:
    the fixture tasks of `servers`."""
    split: str = "train"
    """The split of a synthesis output directory: "train" or "test"."""
    servers: list[str] = Field(default_factory=list)
    """Keep these servers' tasks (none: every server)."""


class ProveTaskset(vf.Taskset[ProveTask, ProveTasksetConfig]):
    """prove-env tasks of any server or mix of servers."""

    def load(self) -> Iterator[ProveTask]:
        for task in load_tasks_from(self.config.tasks, split=self.config.split, servers=self.config.servers):
            toolkit = get_toolkit(task.server)
            system = task.system_prompt or DEFAULT_SYSTEM_PROMPT.format(server=toolkit.name,
                                                                        description=toolkit.description())
            data = ProveTaskData(id=task.id, name=task.id, prompt=task.user_turns[0], system_prompt=system,
                                 server=task.server, task=task.to_json())
            yield ProveTask(data, self.config.task)


def load_tasks_from(tasks: str | Path | None = None, *, split: str = "train",
                    servers: list[str] | None = None) -> list[Task]:
    """Tasks from a synthesis output directory (`<dir>/<split>.jsonl`), a task file, or (none)
    the fixture tasks; only those of `servers` when given."""
    wanted = list(servers or [])
    unknown = sorted(set(wanted) - set(server_names()))
    if unknown:
        raise TaskError(f"unknown servers {unknown}; the servers are {', '.join(server_names())}")
    if tasks is None:
        return [t for server in wanted or server_names() for t in fixture_tasks(server)]
    path = Path(tasks)
    if path.is_dir():
        if split not in ("train", "test"):
            raise TaskError(f"split must be 'train' or 'test', got {split!r}")
        path = path / f"{split}.jsonl"
    loaded = load_tasks(path)
    return [t for t in loaded if not wanted or t.server in wanted]


# -- the environment: the user's turns ----------------------------------------------------------

class ProveEnvConfig(vf.EnvConfig):
    """The environment: the prove-env taskset and one agent, by default verifiers' `null` harness
    (a chat loop over the MCP tools) in a local subprocess, 10 model turns per rollout."""

    taskset: ProveTasksetConfig = ProveTasksetConfig()
    agent: vf.AgentConfig = vf.AgentConfig(harness={"id": "null"}, runtime=vf.SubprocessConfig(), max_turns=10)


class ProveVerifiersEnv(vf.Env[ProveEnvConfig]):
    """One agent plays a task's conversation: each of the user's turns after it answers the last."""

    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        later_turns = task.data.prove_task().user_turns[1:]
        async with agents.agent.interaction(task) as interaction:
            segment = await interaction.turn()
            for message in later_turns:
                if segment.terminated:
                    break
                segment = await interaction.turn(message)


def load_environment(tasks: str | Path | None = None, *, split: str = "train", servers: list[str] | None = None,
                     reward: str = "paper", max_turns: int = 10, **agent: Any) -> ProveVerifiersEnv:
    """The verifiers environment over `tasks` (see `load_tasks_from`), with the reward preset, the
    agent's model-turn limit and any other `AgentConfig` field (`harness`, `runtime`, `model`, ...)."""
    config = ProveEnvConfig.model_validate({
        "taskset": {"id": TASKSET_ID, "tasks": None if tasks is None else str(tasks), "split": split,
                    "servers": list(servers or []), "task": {"reward": reward}},
        "agent": {"max_turns": max_turns, **agent},  # merged onto the declared agent
    })
    env = vf.load_environment(config)
    assert isinstance(env, ProveVerifiersEnv)
    return env


if __name__ == "__main__":  # how verifiers launches the per-rollout tool server (`python -m <module>`)
    ProveToolset.run()
