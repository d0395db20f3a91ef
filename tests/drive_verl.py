"""prove-env's veRL integration driven through veRL's own code, with scripted rollouts; run with the
Python of an environment that has verl (tests/test_verl.py makes one).

    python tests/drive_verl.py SPEC_FILE OUT_DIR

SPEC_FILE is JSON: `tasks` (a task file), `chat_template` (the model family's template: Qwen2.5's),
`launch` (examples/verl/run_grpo.sh), `tool_api` (a task id and calls) and `runs`, each a trajectory to
play: `name`, `task` (a task id) and `actions` (call dicts `{"name", "arguments"}` or answer texts, in
order). Everything is veRL's and prove-env's own but the model: the conversion command (`python -m
prove_env.integrations.verl`), the config the example's launch script trains with (composed by
`verl.trainer.main_ppo` itself, which prints it instead of training), veRL's `RLHFDataset` and
`collate_fn` over the converted Parquet file, its agent loop registry loaded from the written
`agent_loop.yaml`, `AgentLoopWorker.generate_sequences` running `ProveToolAgentLoop` for the whole
batch at once (its continuous-token builder, Hermes tool parser, `_call_tool` with the tools'
create/execute/release), and `extract_reward` on the batch it returns. The model is a scripted LLM
server: each trajectory (veRL request id) plays the next run queued for its task, and each turn
returns the tokens of the run's next action. The tokenizer is a byte-level BPE trained on the spot
on the rendered prompts, with Qwen's special tokens and the given chat template.

Prints JSON lines: `{"dataset": ...}`, `{"tool_api": ...}` (with every server's tools taken by veRL's tool
schema) and one `{"trajectory": ...}` per run.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections import defaultdict, deque
from pathlib import Path
from typing import Any

import datasets
import numpy as np
from omegaconf import OmegaConf
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast
from verl.experimental.agent_loop import agent_loop as verl_agent_loop
from verl.experimental.agent_loop.agent_loop import AgentLoopWorker
from verl.protocol import DataProto
from verl.trainer.ppo.reward import extract_reward
from verl.utils.config import omega_conf_to_dataclass
from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn
from verl.utils.rollout_trace import RolloutTraceConfig
from verl.tools.schemas import OpenAIFunctionToolSchema
from verl.workers.rollout.replica import TokenOutput

from prove_env.integrations.verl import ProveRollout
from prove_env.registry import get_toolkit, server_names
from prove_env.task import Task, load_tasks

ADDED_TOKENS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]


def build_tokenizer(template: str, corpus: list[str]) -> PreTrainedTokenizerFast:
    """A byte-level BPE tokenizer trained on `corpus`, with Qwen's special and added tokens."""
    backend = Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    backend.decoder = decoders.ByteLevel()
    backend.train_from_iterator(corpus, trainer=trainers.BpeTrainer(
        vocab_size=3000, special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                        additional_special_tokens=["<|im_start|>"])
    tokenizer.add_tokens(ADDED_TOKENS)
    tokenizer.chat_template = template
    return tokenizer


def action_text(action: Any) -> str:
    """What the model writes for an action: a Hermes tool call, or the answer's text."""
    if isinstance(action, str):
        return action
    return "<tool_call>\n" + json.dumps({"name": action["name"], "arguments": action["arguments"]}) + "\n</tool_call>"


class ScriptedServer:
    """veRL's LLM server client (`generate`), answered by scripted runs."""

    def __init__(self, tokenizer: PreTrainedTokenizerFast, tasks: dict[str, Task], runs: list[dict[str, Any]]) -> None:
        self.tokenizer = tokenizer
        self.queues: dict[str, deque] = defaultdict(deque)
        for run in runs:
            self.queues[tasks[run["task"]].user_turns[0]].append(run)
        self.playing: dict[str, dict[str, Any]] = {}  # request id -> [run, turns answered]

    async def generate(self, request_id: str, *, prompt_ids: list[int], sampling_params: dict[str, Any],
                       **kwargs: Any) -> TokenOutput:
        state = self.playing.get(request_id)
        if state is None:
            prompt = self.tokenizer.decode(prompt_ids)
            opening = next(o for o in self.queues if o in prompt and self.queues[o])
            state = self.playing[request_id] = {"run": self.queues[opening].popleft(), "turns": 0}
        actions = state["run"]["actions"]
        text = action_text(actions[state["turns"]]) if state["turns"] < len(actions) else "Done."
        state["turns"] += 1
        ids = self.tokenizer.encode(text, add_special_tokens=False) + [self.tokenizer.eos_token_id]
        return TokenOutput(token_ids=ids, log_probs=[0.0] * len(ids), stop_reason="completed", num_preempted=0)


def launch_config(script: Path, data: Path) -> Any:
    """The config `script` (examples/verl/run_grpo.sh) trains with: veRL's trainer composes it and prints
    it (Hydra's `--cfg job`) instead of training."""
    done = subprocess.run(["bash", str(script), "--cfg", "job"], capture_output=True, text=True,
                          env={**os.environ, "DATA": str(data)})
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    config = OmegaConf.create(done.stdout)
    OmegaConf.resolve(config)
    return config


def worker_for(config: Any, tokenizer: PreTrainedTokenizerFast, server: ScriptedServer) -> AgentLoopWorker:
    """An `AgentLoopWorker` as its constructor makes one, but with the scripted server and the
    tokenizer given (a CPU test has no model to load and no LLM server)."""
    worker = AgentLoopWorker.__new__(AgentLoopWorker)
    worker.config = config
    worker.llm_client = server
    worker.teacher_client = None
    worker.reward_loop_worker_handles = None
    worker.rollout_config = omega_conf_to_dataclass(config.actor_rollout_ref.rollout)
    worker.dataset_cls = RLHFDataset
    worker.tokenizer = tokenizer
    worker.processor = None
    worker.hf_model_type = "qwen2"  # Qwen2.5's config.json model_type
    worker.mm_processor_kwargs = {}
    worker.distillation_enabled = False
    worker.tools = []  # no tool_config_path: the trajectories' tools are their tasks'
    for entry in OmegaConf.load(config.actor_rollout_ref.rollout.agent.agent_loop_config_path):
        verl_agent_loop._agent_loop_registry[entry.name] = entry
    RolloutTraceConfig.init(None, None, None, False, None)
    return worker


def conversation(text: str) -> list[tuple[str, str]]:
    """(role, content) of each ChatML message in `text`; a tool message is ("tool", its content)."""
    out = []
    for block in text.split("<|im_start|>")[1:]:
        role, _, content = block.partition("\n")
        content = content.split("<|im_end|>")[0]
        if role == "user" and content.startswith("<tool_response>"):
            out += [("tool", c) for c in re.findall(r"<tool_response>\n(.*?)\n</tool_response>", content, re.DOTALL)]
        else:
            out.append((role, content))
    return out


def shown_tools(system: str) -> list[dict[str, Any]]:
    """The tools Qwen2.5's template listed in the system message."""
    listed = system.split("<tools>\n", 1)[1].split("\n</tools>", 1)[0]
    return [json.loads(line) for line in listed.splitlines()]


async def tool_api(task: Task, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A trajectory's tools called as veRL calls them (create, execute, release), and calc_reward."""
    rollout = ProveRollout(task)
    await rollout.start()
    try:
        results, rewards = [], []
        for action in actions:
            tool = rollout.tools[action["name"]]
            instance_id, created = await tool.create(create_kwargs={})
            response, step_reward, metrics = await tool.execute(instance_id, action["arguments"], agent_data=None)
            rewards.append(await tool.calc_reward(instance_id))
            await tool.release(instance_id)
            try:
                await tool.execute(instance_id, action["arguments"])
                released = False
            except ValueError:
                released = True
            results.append({"text": response.text, "step_reward": step_reward, "metrics": metrics,
                            "created_empty": created.is_empty(), "released": released})
        return {"task": task.id, "results": results, "calc_rewards": rewards,
                "schema_names": [tool.tool_schema.function.name for tool in rollout.tools.values()]}
    finally:
        await rollout.close()


def main(spec_file: str, out_dir: str) -> None:
    spec = json.loads(Path(spec_file).read_text(encoding="utf-8"))
    out = Path(out_dir)
    tasks = {t.id: t for t in load_tasks(spec["tasks"])}

    # veRL's dataset, written by the module's command
    done = subprocess.run([sys.executable, "-m", "prove_env.integrations.verl", spec["tasks"], str(out / "verl")],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    config = launch_config(Path(spec["launch"]), out / "verl")
    parquet = str(out / "verl" / "train.parquet")

    corpus_tokenizer = build_tokenizer(spec["chat_template"], ["seed"])  # renders the corpus
    rows = datasets.load_dataset("parquet", data_files=parquet)["train"]
    corpus = [corpus_tokenizer.apply_chat_template(list(r["prompt"]), tools=json.loads(r["tools"]), tokenize=False)
              for r in rows]
    tokenizer = build_tokenizer(spec["chat_template"], corpus)

    dataset = RLHFDataset(data_files=[parquet], tokenizer=tokenizer, config=config.data)
    items = {dataset[i]["extra_info"]["task_id"]: dataset[i] for i in range(len(dataset))}
    print(json.dumps({"dataset": {
        "rows": len(dataset), "command": done.stdout,
        "items": {task_id: {"raw_prompt": list(item["raw_prompt"]), "agent_name": item["agent_name"],
                            "data_source": item["data_source"], "extra_info": item["extra_info"],
                            "ground_truth": item["reward_model"]["ground_truth"], "tools": json.loads(item["tools"])}
                  for task_id, item in items.items()},
        "agent_loop": OmegaConf.to_container(OmegaConf.load(out / "verl" / "agent_loop.yaml")),
        "rollout": {"prompt_length": config.actor_rollout_ref.rollout.prompt_length,
                    "response_length": config.actor_rollout_ref.rollout.response_length,
                    "n": config.actor_rollout_ref.rollout.n,
                    "max_assistant_turns": config.actor_rollout_ref.rollout.multi_turn.max_assistant_turns},
    }}), flush=True)

    api_run = spec["tool_api"]
    api = asyncio.run(tool_api(tasks[api_run["task"]], api_run["actions"]))
    # every visible tool of every server, in veRL's tool schema (as ProveTool takes it: this raises on any it refuses)
    api["servers"] = {server: len([OpenAIFunctionToolSchema.model_validate(spec.openai_schema())
                                   for spec in get_toolkit(server).visible_specs()]) for server in server_names()}
    print(json.dumps({"tool_api": api}), flush=True)

    # every run in one batch: the trajectories play concurrently, as veRL plays a step's
    runs = spec["runs"]
    batch = DataProto.from_single_dict(collate_fn([items[run["task"]] for run in runs]))
    server = ScriptedServer(tokenizer, tasks, runs)
    worker = worker_for(config, tokenizer, server)
    output = asyncio.run(worker.generate_sequences(batch))
    reward_tensor, extra = extract_reward(output)
    scored = {run["name"]: run for run in runs}
    for i in range(len(output)):
        mask = output.batch["attention_mask"][i].bool()
        text = tokenizer.decode(output.batch["input_ids"][i][mask].tolist())
        messages = conversation(text)
        assistant = [content for role, content in messages if role == "assistant"]
        task_id = output.non_tensor_batch["extra_info"][i]["task_id"]
        run = next(r for r in scored.values()  # the run whose actions the trajectory's assistant turns are
                   if r["task"] == task_id and [action_text(a) for a in r["actions"]] == assistant[: len(r["actions"])])
        del scored[run["name"]]
        response_mask = output.batch["response_mask"][i].bool()
        trained = tokenizer.decode(output.batch["responses"][i][response_mask].tolist())
        print(json.dumps({"trajectory": {
            "run": run["name"], "task": run["task"],
            "reward": float(reward_tensor[i].sum()),
            "extra": {key: float(np.asarray(values[i])) for key, values in extra.items()},
            "tools": shown_tools(messages[0][1]),
            "assistant": assistant,
            "tool_results": [content for role, content in messages if role == "tool"],
            "user_turns": [content for role, content in messages if role == "user"],
            "trained_text": trained,
            "num_turns": int(output.non_tensor_batch["__num_turns__"][i]),
        }}), flush=True)
    assert not scored, f"runs without a trajectory: {sorted(scored)}"


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
