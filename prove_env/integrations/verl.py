"""veRL 0.9: prove-env episodes in veRL's multi-turn tool agent loop.

    python -m prove_env.integrations.verl data/ data/verl/    # a `prove-env synth` output -> veRL's dataset
    # train.parquet, test.parquet and agent_loop.yaml; examples/verl/ trains with them (docs/training.md#verl)

veRL's `ToolAgentLoop` generates a turn, parses its tool calls (`multi_turn.format`, `hermes` for
`<tool_call>` blocks), runs each through a `BaseTool` (`create`, `execute`, `release`) and feeds the
results back until the model answers without a call. `ProveToolAgentLoop` is that loop, registered
as `prove_tool_agent` (the rows' `agent_name`), with one prove-env episode per trajectory:

- **World.** Each trajectory starts the row's task (`task`, its JSON) on a fresh clone of its start
  world (`ProveRollout`: one `ProveEnv` of its own), and the world is freed when the trajectory ends.
  The GRPO rollouts of one prompt are as many trajectories, each with its own world.
- **Tools.** The trajectory is shown exactly the tools its task shows (its server's, or the task's own
  list with distractors and stripped enum lists), with their full JSON schemas, rendered by the
  model's chat template; each is a `ProveTool`, a `BaseTool` whose calls run in the trajectory's
  episode, through the server's MCP dispatch, and answer with the tool message the Gymnasium
  environment would show. A call of a tool that is not shown, or with arguments that are not a
  JSON object, is stepped into the episode too, which answers and scores it as an invalid call.
  veRL's parser drops a `<tool_call>` block that is not JSON before any tool sees it.
- **Turns.** When the model answers, the answer goes to the episode; the task's next user turn, if
  any, is appended (its tokens masked out of the loss, as tool results are) and generation goes on.
- **Reward.** When the trajectory ends (the last user turn answered, veRL's turn or length limits,
  or the episode's `max_calls` reached) its reward is the episode's: PROVE's total under the loop's
  preset, set as the trajectory's `reward_score` (veRL's reward manager is not consulted), with
  every component and `success` in `reward_extra_info` as `prove_<component>`, which veRL logs.
- **Limits.** Every call is one step of the episode, which allows `max_calls` calls (50); turns are
  bounded by veRL's `multi_turn.max_assistant_turns` and `max_user_turns`.

`dataset_rows` and `write_dataset` (and this module's command) turn tasks into veRL's dataset:
Parquet rows with `prompt` (the system prompt and the first user turn, as `ProveEnv.reset` gives
them), `agent_name`, `task`, `tools` (the shown tools as JSON text, for reading; the loop takes
them from the task), `data_source` ("prove-env"), `reward_model.ground_truth` (the gold calls per
user turn, JSON) and `extra_info` (index, task id, server, split); and the agent loop config
(`agent_loop.yaml`) that tells veRL where the loop is.

verl 0.9.1 pins transformers<5.11, older than the `train` extra's: install `prove-env[verl]` in an
environment of its own, torch first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from uuid import uuid4

import pyarrow as pa
import pyarrow.parquet as pq
import yaml
from verl.experimental.agent_loop.agent_loop import register
from verl.experimental.agent_loop.tool_agent_loop import AgentData, AgentState, ToolAgentLoop
from verl.experimental.agent_loop.tool_parser import FunctionCall
from verl.tools.base_tool import BaseTool
from verl.tools.schemas import OpenAIFunctionToolSchema, ToolResponse

from prove_env.env import ProveEnv
from prove_env.reward import RewardConfig
from prove_env.task import Task, TaskError, load_tasks

__all__ = [
    "AGENT_NAME",
    "DATA_SOURCE",
    "REWARD_COMPONENTS",
    "ProveRollout",
    "ProveTool",
    "ProveToolAgentLoop",
    "agent_loop_config",
    "dataset_rows",
    "main",
    "write_dataset",
]

AGENT_NAME = "prove_tool_agent"
"""The name veRL knows the agent loop by (a dataset row's `agent_name`)."""

DATA_SOURCE = "prove-env"
"""The rows' `data_source`, by which veRL groups its validation metrics."""

REWARD_COMPONENTS = ("validity", "coverage", "efficiency", "name", "argument", "state", "success")
"""The reward breakdown's components, each in `reward_extra_info` as `prove_<component>`."""

_NO_STEP_LIMIT = 1_000_000  # the episode's own step limit; veRL's turn limits bound a trajectory


class ProveRollout:
    """One trajectory's episode: the task on a fresh clone of its start world, its tools as veRL
    tools, every call and answer stepped into a `ProveEnv` of its own."""

    def __init__(self, task: Task, *, reward: str | Mapping[str, Any] | RewardConfig = "paper",
                 max_calls: int = 50) -> None:
        self.task = task
        self.env = ProveEnv(task.server, reward=reward, max_steps=_NO_STEP_LIMIT, max_calls=max_calls)
        self.tools: dict[str, ProveTool] = {}
        self.schemas: list[dict[str, Any]] = []
        self.done = False
        self._breakdown: dict[str, Any] | None = None
        self._lock = asyncio.Lock()  # one step at a time, in the order the calls were made

    async def start(self) -> None:
        """Start the task on a fresh world; `tools` and `schemas` become the ones it shows."""
        _, info = await self.env.areset(options={"task": self.task})
        self.schemas = info["tools"]
        self.tools = {schema["function"]["name"]: ProveTool(schema, self) for schema in self.schemas}

    async def call(self, name: str, arguments: Any, call_id: str | None = None) -> tuple[str, bool]:
        """Run one call (arguments as an object, or the text the model wrote) and return the tool
        message's content and whether the call succeeded."""
        async with self._lock:
            if self.done:
                return (f"Error: this episode has ended (its limit of {self.env.max_calls} tool calls was reached)",
                        False)
            call = {"name": name, "arguments": arguments, **({"id": call_id} if call_id else {})}
            _, _, terminated, truncated, info = await self.env.astep(call)
            self._end(terminated or truncated, info)
            record = info["calls"][0]
            return info["tool_messages"][0]["content"], bool(record["ok"])

    async def answer(self, text: str) -> str | None:
        """The model's answer to the current user turn; returns the next user turn, or None when
        the episode has ended."""
        async with self._lock:
            if self.done:
                return None
            # an assistant message without calls: the text is the answer as written, never parsed for calls
            observation, _, terminated, truncated, info = await self.env.astep(
                {"role": "assistant", "content": text, "tool_calls": []})
            self._end(terminated or truncated, info)
            return None if self.done else observation

    async def breakdown(self) -> dict[str, Any]:
        """The reward breakdown: final once the episode has ended, else that of the calls and
        answers so far."""
        if self._breakdown is not None:
            return dict(self._breakdown)
        return (await self.env.episode.score()).as_dict()

    async def close(self) -> None:
        """Free the world."""
        await self.env.episode.aclose()

    def _end(self, done: bool, info: Mapping[str, Any]) -> None:
        if done:
            self.done = True
            self._breakdown = info["reward_breakdown"]


class ProveTool(BaseTool):
    """One tool a task shows, as a veRL tool: its calls run in its trajectory's episode.

    veRL 0.9 creates an instance, executes it once and releases it for every call
    (`ToolAgentLoop._call_tool`); the world is the trajectory's, so an instance holds only its
    calls' outcomes, and `calc_reward` is the trajectory's reward so far.
    """

    def __init__(self, schema: Mapping[str, Any], rollout: ProveRollout) -> None:
        # BaseTool.__init__ prints every schema: a trajectory's tools are made without it.
        self.config = {"type": "native"}
        self.tool_schema = OpenAIFunctionToolSchema.model_validate(schema)
        self.name = self.tool_schema.function.name
        self.rollout = rollout
        self._instances: dict[str, list[bool]] = {}

    async def create(self, instance_id: str | None = None, **kwargs: Any) -> tuple[str, ToolResponse]:
        instance_id = instance_id or uuid4().hex
        self._instances[instance_id] = []
        return instance_id, ToolResponse()

    async def execute(self, instance_id: str, parameters: dict[str, Any],
                      **kwargs: Any) -> tuple[ToolResponse, float, dict]:
        outcomes = self._instance(instance_id)
        output, ok = await self.rollout.call(self.name, parameters)
        outcomes.append(ok)
        return ToolResponse(text=output), 0.0, {"ok": ok}

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        self._instance(instance_id)
        return float((await self.rollout.breakdown())["total"])

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        self._instances.pop(instance_id, None)

    def _instance(self, instance_id: str) -> list[bool]:
        if instance_id not in self._instances:
            raise ValueError(f"no instance {instance_id!r} of tool {self.name!r}: create() it first")
        return self._instances[instance_id]


@register(AGENT_NAME)
class ProveToolAgentLoop(ToolAgentLoop):
    """veRL's tool agent loop with one prove-env episode per trajectory (see the module's notes).

    `reward` ("paper" or "state") and `max_calls` come from the agent loop config
    (`agent_loop_config`); the row's `task` is the task it plays.
    """

    def __init__(self, *args: Any, reward: str = "paper", max_calls: int = 50, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reward = reward
        self.max_calls = int(max_calls)
        self.rollout: ProveRollout | None = None

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> Any:
        if kwargs.get("task") is None:
            raise TaskError(f"a {AGENT_NAME!r} row needs its task in the `task` column (prove_env.integrations.verl"
                            ".dataset_rows writes it)")
        self.rollout = ProveRollout(Task.parse(kwargs["task"], "the row's task"), reward=self.reward,
                                    max_calls=self.max_calls)
        await self.rollout.start()
        try:
            output = await super().run(sampling_params, **kwargs)
            breakdown = await self.rollout.breakdown()
        finally:
            await self.rollout.close()
        output.reward_score = float(breakdown["total"])
        output.extra_fields["reward_extra_info"] = {f"prove_{name}": float(breakdown[name])
                                                    for name in REWARD_COMPONENTS}
        return output

    async def _handle_pending_state(self, agent_data: AgentData, sampling_params: dict[str, Any]) -> AgentState:
        rollout = self._rollout()
        # the trajectory's tools: the ones its task shows, in place of the worker's configured tools
        agent_data._active_tools = rollout.tools
        agent_data._active_tool_schemas = rollout.schemas
        return await super()._handle_pending_state(agent_data, sampling_params)

    async def _handle_generating_state(self, agent_data: AgentData, sampling_params: dict[str, Any],
                                       ignore_termination: bool = False) -> AgentState:
        messages = len(agent_data.messages)
        state = await super()._handle_generating_state(agent_data, sampling_params, ignore_termination)
        if state != AgentState.TERMINATED or len(agent_data.messages) == messages:
            return state  # calls to run, or a limit reached before the reply was read
        # the model answered without a call: the answer to the current user turn
        text = self.tokenizer.decode(agent_data.response_ids, skip_special_tokens=True).strip()
        next_turn = await self._rollout().answer(text)
        if next_turn is None:
            return AgentState.TERMINATED
        return await self._user_turn(agent_data, next_turn)

    async def _handle_processing_tools_state(self, agent_data: AgentData) -> AgentState:
        state = await super()._handle_processing_tools_state(agent_data)
        return AgentState.TERMINATED if self._rollout().done else state

    async def _call_tool(self, tool_call: FunctionCall, tools_kwargs: dict[str, Any],
                         agent_data: AgentData) -> tuple[ToolResponse, float, dict]:
        rollout = self._rollout()
        if tool_call.name in rollout.tools and _is_json_object(tool_call.arguments):
            return await super()._call_tool(tool_call, tools_kwargs, agent_data)
        # veRL would answer this call itself; the episode records it and scores it as invalid
        output, _ = await rollout.call(tool_call.name, tool_call.arguments, tool_call.tool_call_id)
        return ToolResponse(text=output), 0.0, {}

    async def _user_turn(self, agent_data: AgentData, text: str) -> AgentState:
        """Append the task's next user turn as context (masked out of the loss) and generate on."""
        previous = list(agent_data.messages)
        agent_data.messages.append({"role": "user", "content": text})
        merged, response_mask, response_logprobs = await self.ct_merge_context_msg(
            previous, agent_data.messages, agent_data.prompt_ids, agent_data.response_mask,
            agent_data.response_logprobs or None, tools=self._rollout().schemas)
        if len(response_mask) >= self.response_length:
            return AgentState.TERMINATED
        agent_data.prompt_ids = merged.token_ids
        agent_data.response_mask = response_mask
        if agent_data.response_logprobs:
            agent_data.response_logprobs = response_logprobs or []
        agent_data.user_turns += 1
        return AgentState.GENERATING

    def _rollout(self) -> ProveRollout:
        if self.rollout is None:
            raise RuntimeError("the trajectory has not started: run() starts it")
        return self.rollout


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except (TypeError, ValueError):
        return False


# -- the dataset --------------------------------------------------------------------------------

def dataset_rows(tasks: Iterable[Task | Mapping[str, Any] | str], *, split: str = "",
                 data_source: str = DATA_SOURCE) -> list[dict[str, Any]]:
    """veRL dataset rows for `tasks` (see the module's notes); each task is started once, which
    checks its start world on this machine."""
    rows: list[dict[str, Any]] = []
    envs: dict[str, ProveEnv] = {}  # one environment per server starts every task of that server
    try:
        for index, item in enumerate(tasks):
            task = Task.parse(item, f"task {index}")
            env = envs.get(task.server) or envs.setdefault(task.server, ProveEnv(task.server))
            _, info = env.reset(options={"task": task})
            gold = [[{"name": call.name, "arguments": call.arguments} for call in turn] for turn in task.gold]
            rows.append({
                "data_source": data_source,
                "prompt": [{"role": m["role"], "content": m["content"]} for m in info["messages"]],
                "agent_name": AGENT_NAME,
                "task": task.to_json(),
                "tools": json.dumps(info["tools"], ensure_ascii=False),
                "reward_model": {"style": "rule", "ground_truth": json.dumps(gold, ensure_ascii=False)},
                "extra_info": {"index": index, "task_id": task.id, "server": task.server, "split": split},
            })
    finally:
        for env in envs.values():
            env.close()
    return rows


def agent_loop_config(*, reward: str = "paper", max_calls: int = 50) -> list[dict[str, Any]]:
    """The agent loop config veRL reads from `actor_rollout_ref.rollout.agent.agent_loop_config_path`."""
    return [{"name": AGENT_NAME, "_target_": "prove_env.integrations.verl.ProveToolAgentLoop", "reward": reward,
             "max_calls": max_calls}]


def write_dataset(source: str | Path, out: str | Path, *, reward: str = "paper", max_calls: int = 50,
                  data_source: str = DATA_SOURCE) -> dict[str, Path]:
    """Write veRL's dataset for a `prove-env synth` output directory (its `train.jsonl` and
    `test.jsonl`, either may be missing) or a task file (its tasks as the train split): `train.parquet`,
    `test.parquet` and `agent_loop.yaml` in `out`. Returns the paths written, by name."""
    source = Path(source)
    if source.is_dir():
        splits = {split: source / f"{split}.jsonl" for split in ("train", "test")
                  if (source / f"{split}.jsonl").is_file()}
        if not splits:
            raise TaskError(f"{source} has neither train.jsonl nor test.jsonl (a `prove-env synth` output has both)")
    elif source.is_file():
        splits = {"train": source}
    else:
        raise TaskError(f"{source} is neither a directory nor a task file")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for split, path in splits.items():
        rows = dataset_rows(load_tasks(path), split=split, data_source=data_source)
        if not rows:
            raise TaskError(f"{path} has no tasks")
        written[split] = out / f"{split}.parquet"
        pq.write_table(pa.Table.from_pylist(rows), written[split])
    written["agent_loop"] = out / "agent_loop.yaml"
    written["agent_loop"].write_text(
        "# veRL's agent loop config (actor_rollout_ref.rollout.agent.agent_loop_config_path): prove-env episodes\n"
        + yaml.safe_dump(agent_loop_config(reward=reward, max_calls=max_calls), sort_keys=False),
        encoding="utf-8")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m prove_env.integrations.verl",
        description="Write veRL's dataset (train.parquet, test.parquet) and agent loop config (agent_loop.yaml) "
                    "for prove-env tasks.")
    parser.add_argument("source", help="a `prove-env synth` output directory (train.jsonl, test.jsonl) or a task file")
    parser.add_argument("out", help="the directory to write to")
    parser.add_argument("--reward", choices=["paper", "state"], default="paper", help="the reward preset (paper)")
    parser.add_argument("--max-calls", type=int, default=50, help="tool calls per trajectory (50)")
    parser.add_argument("--data-source", default=DATA_SOURCE, help=f"the rows' data_source ({DATA_SOURCE})")
    args = parser.parse_args(argv)
    try:
        written = write_dataset(args.source, args.out, reward=args.reward, max_calls=args.max_calls,
                                data_source=args.data_source)
    except (TaskError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name, path in written.items():
        rows = f" ({pq.read_metadata(path).num_rows} rows)" if path.suffix == ".parquet" else ""
        print(f"wrote {path}{rows}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
