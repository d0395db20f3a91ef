"""GRPO on prove-env's servers with TRL's `GRPOTrainer` (its `environment_factory` tool loop).

One GPU:

    python examples/train_grpo.py --model Qwen/Qwen3-4B --tasks data/train.jsonl --output-dir runs/qwen3-4b

Several GPUs (one process each):

    accelerate launch --num_processes 4 examples/train_grpo.py --model Qwen/Qwen3-8B --output-dir runs/qwen3-8b

CPU smoke run (a tiny random model warmed up on gold trajectories, a few GRPO steps, no download):

    python examples/train_grpo.py --smoke

Defaults follow PROVE's training setup: 16 prompts x 16 rollouts per step, KL coefficient 0.01,
5 tool rounds per rollout, 12,384 prompt and 16,384 response tokens, 350 steps, the learning rate
of the model family, fp32 master weights with bf16 compute on a GPU. The reward is the
environment's (`prove_reward`, weight 1); its components are logged as
`rewards/prove_<component>/mean`. See docs/training.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

LEARNING_RATES = {"qwen3-4b": 1e-6, "qwen3-8b": 5e-8, "qwen2.5-7b": 3e-7, "granite": 3e-7}
"""PROVE's learning rate per model family (matched on the lower-cased model name); others get 1e-6."""

DEFAULT_LEARNING_RATE = 1e-6
SMOKE_SERVERS = ("banking", "calendar")


def default_learning_rate(model: str) -> float:
    name = model.lower().replace("_", "-")
    for family, rate in LEARNING_RATES.items():
        if family in name:
            return rate
    return DEFAULT_LEARNING_RATE


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", default="Qwen/Qwen3-4B", help="a local path or a Hugging Face Hub id")
    p.add_argument("--servers", default=None,
                   help="comma-separated servers (default: every server of --tasks, or every registered server's "
                        f"fixture tasks; smoke: {','.join(SMOKE_SERVERS)})")
    p.add_argument("--tasks", default=None, help="a task file (JSON Lines); default: the servers' fixture tasks")
    p.add_argument("--output-dir", default="runs/grpo")
    p.add_argument("--max-steps", type=int, default=350)
    p.add_argument("--prompts-per-step", type=int, default=16, help="distinct tasks per optimizer step")
    p.add_argument("--num-generations", type=int, default=16, help="rollouts per task (the GRPO group)")
    p.add_argument("--per-device-batch", type=int, default=16, help="rollouts per device per forward/backward")
    p.add_argument("--generation-batch", type=int, default=None,
                   help="rollouts generated together per device without vLLM (a multiple of --per-device-batch "
                        "holding whole groups; default: --per-device-batch); vLLM generates a whole step at once")
    p.add_argument("--learning-rate", type=float, default=None, help="default: PROVE's rate for the model family")
    p.add_argument("--beta", type=float, default=0.01, help="KL coefficient to the reference model")
    p.add_argument("--max-tool-rounds", type=int, default=5, help="tool-calling rounds per rollout")
    p.add_argument("--max-prompt-length", type=int, default=12_384,
                   help="tokens of a task's prompt (system prompt, tools, user message); longer tasks are refused")
    p.add_argument("--max-completion-length", type=int, default=16_384,
                   help="tokens per rollout after the prompt: all assistant turns and tool results")
    p.add_argument("--focus-tools", type=int, default=None, metavar="N",
                   help="show each task its gold tools, N more of its server and its distractors, with compact "
                        "descriptions (shorter prompts; PROVE shows every tool); default: every tool")
    p.add_argument("--temperature", type=float, default=1.0)
    p.add_argument("--reward", default="paper", choices=["paper", "state"], help="the environment's reward preset")
    p.add_argument("--max-calls", type=int, default=50, help="tool calls per episode")
    p.add_argument("--vllm", choices=["auto", "colocate", "server", "off"], default="auto",
                   help="generation with vLLM: auto = colocate when vLLM and a GPU are available")
    p.add_argument("--vllm-gpu-memory-utilization", type=float, default=0.3)
    p.add_argument("--vllm-server-base-url", default=None, help="with --vllm server, e.g. http://10.0.0.2:8000")
    p.add_argument("--save-steps", type=int, default=50,
                   help="a checkpoint every this many steps, for --resume; 0: none (the final model is saved)")
    p.add_argument("--save-total-limit", type=int, default=3)
    p.add_argument("--resume", action="store_true", help="resume from the last checkpoint in --output-dir")
    p.add_argument("--logging-steps", type=int, default=1)
    p.add_argument("--log-completions", action=argparse.BooleanOptionalAction, default=True,
                   help="log sampled rollouts as tables (not in smoke runs)")
    p.add_argument("--report-to", default="none", help="e.g. wandb, tensorboard")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--smoke", action="store_true", help="CPU run with a tiny random model: checks the whole pipeline")
    p.add_argument("--smoke-warmup-steps", type=int, default=80)
    return p.parse_args(argv)


def training_settings(args: argparse.Namespace, *, cuda: bool, world: int, use_vllm: bool) -> dict[str, Any]:
    """The `GRPOConfig` fields of a full run (not smoke) on `world` devices.

    - Precision: the weights, hence the optimizer's master copy, stay in float32; on a GPU the
      forward and backward passes run in bfloat16 autocast (`bf16=True`). An AdamW step on bfloat16
      weights would round an update of 1e-6 away: bfloat16 resolves about 0.4% of a weight.
    - Generation: without vLLM, each device generates `--generation-batch` rollouts at a time (one
      `generate` call per accumulation step), not the whole step at once; vLLM takes the whole step.
    """
    rollouts = args.prompts_per_step * args.num_generations
    per_step = args.per_device_batch * world
    if rollouts % per_step:
        raise SystemExit(f"{rollouts} rollouts per step ({args.prompts_per_step} tasks x {args.num_generations}) do "
                         f"not split into {world} devices x {args.per_device_batch} (--per-device-batch)")
    accumulation = rollouts // per_step
    settings: dict[str, Any] = {
        "max_steps": args.max_steps, "learning_rate": args.learning_rate or default_learning_rate(args.model),
        "per_device_train_batch_size": args.per_device_batch, "gradient_accumulation_steps": accumulation,
        "num_generations": args.num_generations, "max_completion_length": args.max_completion_length,
        "max_tool_calling_iterations": args.max_tool_rounds, "bf16": cuda,
        "activation_checkpointing": True, "save_strategy": "steps" if args.save_steps else "no",
        "save_steps": args.save_steps or 500,
        "save_total_limit": args.save_total_limit, "model_init_kwargs": {"dtype": "float32"},
    }
    if use_vllm:
        settings.update(use_vllm=True, vllm_mode="server" if args.vllm == "server" else "colocate",
                        vllm_gpu_memory_utilization=args.vllm_gpu_memory_utilization,
                        vllm_max_model_length=args.max_prompt_length + args.max_completion_length)
        if args.vllm_server_base_url:
            settings["vllm_server_base_url"] = args.vllm_server_base_url
    else:
        chunk = args.generation_batch or args.per_device_batch
        if chunk % args.per_device_batch or (chunk * world) % args.num_generations or rollouts % (chunk * world):
            raise SystemExit(f"--generation-batch {chunk} must be a multiple of --per-device-batch "
                             f"({args.per_device_batch}) whose {world} device(s) together hold whole groups of "
                             f"{args.num_generations} and divide the {rollouts} rollouts of a step")
        settings["steps_per_generation"] = chunk // args.per_device_batch
    return settings


def check_task_count(tasks: int, prompts_per_step: int) -> None:
    """A step draws `prompts_per_step` distinct tasks: with fewer, TRL's sampler yields no batch at all."""
    if tasks < prompts_per_step:
        raise SystemExit(
            f"{tasks} tasks, but each step draws {prompts_per_step} distinct tasks (--prompts-per-step): "
            f"lower --prompts-per-step to at most {tasks}, or give more tasks (--tasks FILE, e.g. written by "
            "prove-env synth)")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    if args.resume and not args.smoke:
        _check_checkpoint(args.output_dir)
    import torch
    from trl import GRPOConfig, GRPOTrainer

    from prove_env.task import load_tasks
    from prove_env.integrations.trl import environment_factory, make_dataset, reward_funcs, reward_weights

    from prove_env.registry import server_names

    tasks = load_tasks(args.tasks) if args.tasks else None
    if args.servers:
        servers = args.servers.split(",")
    elif args.smoke:
        servers = list(SMOKE_SERVERS)
    else:
        servers = None if tasks is not None else list(server_names())
    dataset = make_dataset(tasks, servers=servers, focus=args.focus_tools)
    servers = sorted({key.split("+")[0] for key in dataset["environment"]})
    factory = environment_factory(dataset, reward=args.reward, max_calls=args.max_calls)

    summary: dict[str, Any] = {"servers": servers, "tasks": len(dataset), "tool_sets": len(factory)}
    if args.smoke:
        torch.set_num_threads(1)  # a tiny model runs faster on one thread than on contended ones
        model, tokenizer, warmup = _smoke_model(dataset, factory, args)
        summary["warmup"] = warmup
        check_task_count(len(dataset), 2)
        config_overrides = {
            "use_cpu": True, "bf16": False, "activation_checkpointing": False,
            "max_steps": args.max_steps if args.max_steps != 350 else 2, "learning_rate": args.learning_rate or 1e-3,
            "per_device_train_batch_size": 8, "gradient_accumulation_steps": 1,
            "num_generations": 4, "max_completion_length": 80, "max_tool_calling_iterations": 2, "save_strategy": "no",
            "dataloader_num_workers": 0, "model_init_kwargs": {"dtype": "float32"},
        }
        use_vllm = False
    else:
        check_task_count(len(dataset), args.prompts_per_step)
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(args.model)
        _check_prompt_lengths(dataset, factory, tokenizer, args.max_prompt_length)
        model = args.model
        use_vllm = _use_vllm(args.vllm)
        config_overrides = training_settings(args, cuda=torch.cuda.is_available(),
                                             world=int(os.environ.get("WORLD_SIZE", "1")), use_vllm=use_vllm)

    config = GRPOConfig(
        output_dir=args.output_dir,
        beta=args.beta,
        temperature=args.temperature,
        chat_template_kwargs={"enable_thinking": False},
        reward_weights=reward_weights(),  # prove_reward (the total) counts; the components are logged
        logging_steps=args.logging_steps,
        log_completions=args.log_completions and not args.smoke,
        report_to=args.report_to,
        seed=args.seed,
        **config_overrides,
    )
    timer = _step_timer()
    trainer = GRPOTrainer(
        model=model,
        processing_class=tokenizer,
        reward_funcs=reward_funcs(),
        args=config,
        train_dataset=dataset,
        environment_factory=factory,
        callbacks=[timer],
    )
    before = {n: p.detach().clone() for n, p in trainer.model.named_parameters()} if args.smoke else None
    trainer.train(resume_from_checkpoint=True if args.resume else None)
    if not args.smoke:
        trainer.save_model(str(Path(args.output_dir) / "final"))

    logs = [entry for entry in trainer.state.log_history if "reward" in entry]
    summary.update(
        steps=trainer.state.global_step,
        use_vllm=use_vllm,
        parameter_dtype=str(next(trainer.model.parameters()).dtype).removeprefix("torch."),
        step_seconds=timer.seconds,
        logs=logs,
    )
    if before is not None:
        summary["max_parameter_change"] = max(
            (p.detach() - before[n]).abs().max().item() for n, p in trainer.model.named_parameters()
        )
    print(json.dumps({k: v for k, v in summary.items() if k != "logs"}, default=str))
    for entry in logs:
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in entry.items()
                          if k.startswith(("reward", "frac_reward", "step", "tools/", "kl"))}))
    return summary


def _check_checkpoint(output_dir: str) -> None:
    from transformers.trainer_utils import get_last_checkpoint

    if not Path(output_dir).is_dir() or get_last_checkpoint(output_dir) is None:
        raise SystemExit(f"--resume: no checkpoint in {output_dir} (a run writes checkpoint-<step> folders there every "
                         "--save-steps steps); run without --resume to start training")


def _check_prompt_lengths(dataset: Any, factory: dict[str, Any], tokenizer: Any, limit: int) -> None:
    """Refuse tasks whose prompt, rendered with their tools as TRL renders it, exceeds `limit` tokens."""
    from transformers.utils import get_json_schema

    from prove_env.integrations.trl import environment_tools

    # each tool set's schemas as TRL renders them, converted once
    tools = {key: [get_json_schema(m) for m in environment_tools(cls())] for key, cls in factory.items()}
    longest: list[tuple[int, str]] = []
    for prompt, key, task_id in zip(dataset["prompt"], dataset["environment"], dataset["task_id"], strict=True):
        ids = tokenizer.apply_chat_template(prompt, tools=tools[key], tokenize=True, add_generation_prompt=True,
                                            return_dict=True, enable_thinking=False)["input_ids"]
        if len(ids) > limit:
            longest.append((len(ids), task_id))
    if longest:
        longest.sort(reverse=True)
        named = ", ".join(f"{task_id} ({n} tokens)" for n, task_id in longest[:5])
        raise SystemExit(f"{len(longest)} task prompts exceed --max-prompt-length {limit}: {named}; raise the limit "
                         "or leave those tasks out")


def _step_timer() -> Any:
    from transformers import TrainerCallback

    class StepTimer(TrainerCallback):
        """Wall-clock seconds of each optimizer step (generation, rewards and update)."""

        def __init__(self) -> None:
            self.seconds: list[float] = []
            self._start = 0.0

        def on_step_begin(self, args, state, control, **kwargs):
            self._start = time.perf_counter()

        def on_step_end(self, args, state, control, **kwargs):
            self.seconds.append(time.perf_counter() - self._start)

    return StepTimer()


def _use_vllm(choice: str) -> bool:
    if choice == "off":
        return False
    import torch
    from trl.import_utils import is_vllm_available

    available = is_vllm_available() and torch.cuda.is_available()
    if choice in ("colocate", "server") and not available:
        raise SystemExit("--vllm needs vLLM (TRL 1.16 supports 0.22.0 to 0.31.0) and a GPU")
    return available


def _smoke_model(dataset: Any, factory: Any, args: argparse.Namespace) -> tuple[Any, Any, dict[str, float]]:
    """The tiny model and tokenizer, warmed up on the dataset's gold trajectories as TRL will render them."""
    from prove_env.task import Task
    from prove_env.tiny_model import (
        build_tiny_model,
        build_tokenizer,
        gold_conversations,
        set_seed,
        sft_warmup,
    )
    from prove_env.integrations.trl import environment_tools, tool_set_key

    set_seed(args.seed)
    instances = {key: cls() for key, cls in factory.items()}

    def methods(task: Task) -> list[Any]:  # the task's tools exactly as GRPOTrainer renders them
        return environment_tools(instances[tool_set_key(task.server, task.tools)])

    tasks = [Task.parse(t) for t in dataset["task"]]
    conversations = gold_conversations(tasks, tools=methods)
    tokenizer = build_tokenizer(conversations)
    model = build_tiny_model(tokenizer, seed=args.seed)
    warmup = sft_warmup(model, tokenizer, conversations, steps=args.smoke_warmup_steps, seed=args.seed)
    # GRPOTrainer loads its reference model from the policy's path: save the warmed-up model.
    path = Path(args.output_dir) / "tiny-model"
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return str(path), tokenizer, warmup


if __name__ == "__main__":
    main(sys.argv[1:])
