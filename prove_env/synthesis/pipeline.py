"""`prove-env synth`: the whole pipeline, sharded over worlds and processes.

The work is cut into *shards*: one seeded world of one server, and a number of tasks to deliver
from it. A shard samples its world through the read-only tools, composes drafts, runs every draft
through the verification gates, drops near-duplicates and returns what passed with its drop
counts. Shards run in this process and `workers - 1` helper processes (`workers.py`); their
results are merged in shard order as they come in, deduplicated across shards, and written. Everything random is seeded from (seed, server, world seed), so the
same arguments write byte-identical files whatever the number of workers.

A shard's world seed decides its split: train and test never share a world. Each server's test
split gets its share of that server's tasks (whole tasks; at least one on each side when the share
is strictly between 0 and 1 and there are two), from worlds of its own, however few worlds there
are; a split whose worlds deliver too few tasks is made up from fresh worlds of the same split.
`split_summary` says what the split became against the share asked for, and why they differ.
"""

from __future__ import annotations

import gc
import json
import math
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prove_env.registry import get_toolkit, server_names
from prove_env.runtime import GC_THRESHOLDS, tune_gc
from prove_env.synthesis.compose import Composer, Draft
from prove_env.synthesis.config import SynthConfig
from prove_env.synthesis.dedup import Deduplicator
from prove_env.synthesis.graph import dependency_graph
from prove_env.synthesis.recipe import Reader, get_recipe
from prove_env.synthesis.shape import TARGETS, shape, tool_sequence
from prove_env.synthesis.verify import GATES, Verifier
from prove_env.synthesis.workers import Workers
from prove_env.task import Task

__all__ = ["Shard", "ShardResult", "synthesize", "run_shard", "SynthResult", "split_summary", "stats_table"]

_WORLDS_PER_SEED = 100_000  # world seeds of one run: seed * 100000 + shard number
_TOP_UP_ROUNDS = 3


@dataclass(frozen=True)
class Shard:
    server: str
    world_seed: int
    quota: int
    split: str
    run_seed: int


@dataclass
class ShardResult:
    shard: Shard
    tasks: list[str]  # Task JSON, in the order written
    drafts: int = 0
    drops: dict[str, int] = field(default_factory=dict)
    reads: int = 0
    bundles: int = 0
    seconds: float = 0.0


@dataclass
class SynthResult:
    """The written tasks as JSON lines (as they go to the files), the stats and the time taken."""

    train: list[str]
    test: list[str]
    stats: dict[str, Any]
    seconds: float

    def tasks(self, split: str = "train") -> list[Task]:
        return [Task.parse(line) for line in (self.train if split == "train" else self.test)]

    @property
    def rate(self) -> float:
        return (len(self.train) + len(self.test)) / self.seconds if self.seconds else 0.0


# -- one shard -------------------------------------------------------------------------------------

_VERIFIERS: dict[str, Verifier] = {}


def run_shard(shard: Shard, config: SynthConfig, teacher: Any = None) -> ShardResult:
    """Deliver up to `shard.quota` verified, locally distinct tasks from one seeded world."""
    from prove_env.world import worlds

    started = time.perf_counter()
    toolkit = get_toolkit(shard.server)
    recipe = get_recipe(shard.server)
    rng = random.Random(f"prove-env synth {shard.run_seed} {shard.server} {shard.world_seed}")
    world = worlds.create(toolkit, shard.world_seed)
    try:
        reader = Reader(toolkit, world)
        bundles = recipe.sample(reader, world.now, rng)
    finally:
        world.close()
    result = ShardResult(shard, [], reads=reader.calls, bundles=len(bundles))
    if not bundles:
        result.drops["no usable entities"] = 1
        return result
    composer = Composer(recipe, dependency_graph(shard.server), bundles, config, rng)
    verifier = _VERIFIERS.get(shard.server) or _VERIFIERS.setdefault(shard.server, Verifier(shard.server))
    dedup = Deduplicator()
    drops: Counter[str] = Counter()
    budget = shard.quota * config.attempts_per_task
    while len(result.tasks) < shard.quota and result.drafts < budget:
        result.drafts += 1
        draft = composer.draft()
        if draft is None:
            drops["no draft"] += 1
            continue
        if draft.unstated:
            drops["value not stated"] += 1
            continue
        task = _task(shard, result.drafts, draft)
        verdict = verifier.check(task, draft.facts_of)
        if verdict.task is None:
            drops[verdict.reason or "unknown"] += 1
            continue
        if not dedup.add(verdict.task):
            drops["near-duplicate"] += 1
            continue
        stamped = verdict.task
        if teacher is not None:
            stamped, outcome = teacher.rewrite(stamped, verifier)
            drops[f"teacher: {outcome}"] += 1
        result.tasks.append(stamped.to_json())
    result.drops = dict(sorted(drops.items()))
    result.seconds = time.perf_counter() - started
    return result


def _task(shard: Shard, number: int, draft: Draft) -> Task:
    metadata = {"synthesis": {"run_seed": shard.run_seed, "draft": number, "split": shard.split},
                **draft.metadata, "mentions": draft.mentions}
    return Task(id=f"{shard.server}-{shard.world_seed}-{number:04d}", server=shard.server, seed=shard.world_seed,
                user_turns=draft.user_turns, gold=draft.gold, tools=draft.tools, abstain=draft.abstain,
                missing_tool=draft.missing_tool, metadata=metadata)


def _worker(args: tuple[Shard, SynthConfig, Any]) -> ShardResult:
    return run_shard(*args)


# -- the run ---------------------------------------------------------------------------------------

def plan(servers: list[str], n: int, seed: int, config: SynthConfig) -> list[Shard]:
    """The first round of shards: tasks split evenly over servers; each server's test share of its
    tasks from worlds of their own (after its train worlds), at most `tasks_per_world` per world."""
    shards = []
    for i, server in enumerate(servers):
        want = n // len(servers) + (1 if i < n % len(servers) else 0)
        test = held_out(want, config.test_share)
        index = 0
        for split, quota in (("train", want - test), ("test", test)):
            count = math.ceil(quota / config.tasks_per_world)
            base, extra = divmod(quota, count) if count else (0, 0)
            for k in range(count):
                shards.append(Shard(server, seed * _WORLDS_PER_SEED + index, base + (1 if k < extra else 0), split,
                                    seed))
                index += 1
    return shards


def held_out(tasks: int, share: float) -> int:
    """How many of a server's `tasks` go to the test split: the share, in whole tasks, and at least
    one on each side when 0 < share < 1 and there are two tasks or more."""
    test = round(tasks * share)
    if 0 < share < 1 and tasks >= 2:
        test = min(max(test, 1), tasks - 1)
    return test


def synthesize(
    servers: list[str] | None,
    n: int,
    seed: int = 0,
    *,
    config: SynthConfig | None = None,
    workers: int | None = None,
    teacher: Any = None,
    progress: Callable[[int, int], None] | None = None,
) -> SynthResult:
    """Write `n` verified, deduplicated tasks over `servers` (default: every server with a recipe)."""
    started = time.perf_counter()
    config = config or SynthConfig()
    if n < 1:
        raise ValueError("n must be at least 1")
    if seed < 0:
        raise ValueError("seed must be non-negative")
    servers = list(servers) if servers else [s for s in server_names() if _has_recipe(s)]
    for server in servers:
        get_recipe(server)  # unknown servers and broken recipes fail here, before any work
    workers = max(1, workers or os.cpu_count() or 1)
    shards = plan(servers, n, seed, config)
    wanted: Counter[tuple[str, str]] = Counter()  # tasks per (server, split)
    for shard in shards:
        wanted[(shard.server, shard.split)] += shard.quota
    planned = dict(wanted)
    results: list[ShardResult] = []
    next_index = Counter(shard.server for shard in shards)  # top-up worlds follow the planned ones
    # This process and `workers - 1` helpers run the shards. Each makes thousands of MCP calls, so the
    # helpers get the long-running-process GC setting, and this process its thresholds until the end
    # of the run (about 6% of its CPU).
    pool = Workers(_worker, workers, initializer=tune_gc)
    thresholds = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    done_count, total = 0, len(shards)
    try:
        todo = shards
        # per server: (JSON line, the task without its tool schemas, its split) for each task kept;
        # the schemas are most of a task's memory and only the line needs them
        kept: dict[str, list[tuple[str, Task, str]]] = {s: [] for s in servers}
        kept_count: Counter[tuple[str, str]] = Counter()
        dedup = Deduplicator()
        cross_dups: Counter[str] = Counter()
        capped: Counter[str] = Counter()
        sequences: Counter[tuple[str, tuple[str, ...]]] = Counter()
        cap = {s: max(2, int(config.max_sequence_share * (wanted[(s, "train")] + wanted[(s, "test")])))
               for s in servers}
        for round_number in range(1 + _TOP_UP_ROUNDS):
            for result in pool.map((shard, config, teacher) for shard in todo):  # merged as they come, in order
                done_count += 1
                if progress:
                    progress(done_count, total)
                results.append(result)
                split = result.shard.split
                for line in result.tasks:
                    task = Task.parse(line)
                    if kept_count[(task.server, split)] >= wanted[(task.server, split)]:
                        continue
                    sequence = (task.server, tool_sequence(task))
                    if sequence[1] and sequences[sequence] >= cap[task.server]:
                        capped[task.server] += 1  # no one tool-name sequence above its share
                        continue
                    if dedup.add(task):
                        sequences[sequence] += 1
                        kept[task.server].append((line, task.model_copy(update={"tools": None}), split))
                        kept_count[(task.server, split)] += 1
                    else:
                        cross_dups[task.server] += 1
            todo = []
            for server in servers:
                for split in ("train", "test"):  # a split short of tasks is made up from fresh worlds of its own
                    missing = wanted[(server, split)] - kept_count[(server, split)]
                    if missing <= 0 or round_number == _TOP_UP_ROUNDS:
                        continue
                    # ask for more than is missing: some of a new world's tasks repeat earlier worlds'
                    missing = min(2 * missing + 2, missing + config.tasks_per_world)
                    for _ in range(math.ceil(missing / config.tasks_per_world)):
                        index = next_index[server]
                        next_index[server] += 1
                        todo.append(Shard(server, seed * _WORLDS_PER_SEED + index,
                                          min(config.tasks_per_world, missing), split, seed))
                        missing -= config.tasks_per_world
            if not todo:
                break
            total += len(todo)
    finally:
        gc.set_threshold(*thresholds)
        pool.close()
    train, test, train_lines, test_lines = [], [], [], []
    for server in servers:
        for line, task, split in kept[server]:
            is_test = split == "test"
            (test if is_test else train).append(task)
            (test_lines if is_test else train_lines).append(line)
    seconds = time.perf_counter() - started
    stats = _stats(servers, n, seed, config, train, test, results, cross_dups, capped, planned)
    return SynthResult(train_lines, test_lines, stats, seconds)


def _has_recipe(server: str) -> bool:
    from importlib.util import find_spec

    return find_spec(f"prove_env.servers.{server}.synth") is not None


# -- statistics ------------------------------------------------------------------------------------

def _stats(servers: list[str], n: int, seed: int, config: SynthConfig, train: list[Task], test: list[Task],
           results: list[ShardResult], cross_dups: Counter[str], capped: Counter[str],
           planned: dict[tuple[str, str], int]) -> dict[str, Any]:
    per_server: dict[str, Any] = {}
    for server in servers:
        mine = [t for t in train + test if t.server == server]
        shard_results = [r for r in results if r.shard.server == server]
        drops: Counter[str] = Counter()
        for r in shard_results:
            drops.update(r.drops)
        if cross_dups[server]:
            drops["near-duplicate"] += cross_dups[server]
        if capped[server]:
            drops["tool sequence over its share"] += capped[server]
        per_server[server] = {
            "tasks": len(mine),
            "train": sum(t.server == server for t in train),
            "test": sum(t.server == server for t in test),
            "planned": {"train": planned.get((server, "train"), 0), "test": planned.get((server, "test"), 0)},
            "worlds": {"train": sorted({t.seed for t in train if t.server == server}),
                       "test": sorted({t.seed for t in test if t.server == server})},
            "drafts": sum(r.drafts for r in shard_results),
            "dropped": {reason: drops[reason] for reason in sorted(drops) if drops[reason]},
            **shape(mine, server),
        }
    everything = train + test
    return {
        "parameters": {"servers": servers, "n": n, "seed": seed, "config": config.as_dict()},
        "tasks": len(everything),
        "train": len(train),
        "test": len(test),
        "planned": {split: sum(s["planned"][split] for s in per_server.values()) for split in ("train", "test")},
        "gates": list(GATES),
        **shape(everything),
        "dropped": dict(sorted(sum((Counter(s["dropped"]) for s in per_server.values()), Counter()).items())),
        "servers": per_server,
    }


def split_summary(stats: dict[str, Any]) -> str:
    """What the train/test split became against the test share asked for, and why when they differ."""
    asked = stats["parameters"]["config"]["test_share"]
    total, test = stats["tasks"], stats["test"]
    share = test / total if total else 0.0
    text = (f"split by world (train and test share no world): {stats['train']} train, {test} test, "
            f"{100 * share:.1f}% test against {100 * asked:.1f}% asked")
    if not total or abs(share - asked) < 0.01:
        return text
    n, planned = stats["parameters"]["n"], stats["planned"]
    why = []
    if abs(planned["test"] / n - asked) >= 0.01:
        sizes = sorted({s["planned"]["train"] + s["planned"]["test"] for s in stats["servers"].values()})
        why.append(f"{planned['test']} of the {n} tasks were planned for test, as each server's test split is a "
                   f"whole number of its {' or '.join(map(str, sizes))} tasks, with at least one on each side")
    short = [f"{split} worlds gave {stats[split]} of {planned[split]} tasks" for split in ("train", "test")
             if stats[split] < planned[split]]
    if short:
        why.append(" and ".join(short) + " (the rest failed the gates or repeated other tasks, and fresh worlds "
                                         "did not make up for them)")
    return text + ": " + "; ".join(why) if why else text


def stats_table(stats: dict[str, Any]) -> str:
    """The stats report as a readable text table: the split, then one row per server and an "all" row."""
    lines = [split_summary(stats), ""]
    servers = stats["servers"]
    name_width = max([len("server"), len("all")] + [len(name) for name in servers])
    header = (f"{'server':<{name_width}} {'tasks':>6} {'train':>6} {'test':>5} {'drafts':>7} {'writes':>6} "
              f"{'abstain':>7}")
    lines += [header, "-" * len(header)]
    for name, s in servers.items():
        lines.append(f"{name:<{name_width}} {s['tasks']:>6} {s['train']:>6} {s['test']:>5} {s['drafts']:>7} "
                     f"{s['writes']:>6} {s['abstention']:>7}")
    lines.append(f"{'all':<{name_width}} {stats['tasks']:>6} {stats['train']:>6} {stats['test']:>5} "
                 f"{sum(s['drafts'] for s in servers.values()):>7} {stats['writes']:>6} {stats['abstention']:>7}")

    def block(title: str, key: str) -> None:
        lines.append("")
        lines.append(title)
        keys = list(stats[key])
        for name, s in servers.items():
            keys += [k for k in s[key] if k not in keys]
        width = max([len(k) for k in keys] + [6])
        lines.append(f"  {'':<{name_width}}" + "".join(f" {k:>{width}}" for k in keys))
        for name, s in list(servers.items()) + [("all", stats)]:
            lines.append(f"  {name:<{name_width}}" + "".join(f" {s[key].get(k, 0):>{width}}" for k in keys))

    block("chain length (gold calls)", "chain_length")
    block("user turns", "turns")
    block("information level (tasks with calls)", "info_level")
    block("perturbations", "perturbations")
    block("shape against its targets (shares)", "targets")
    lines.append("  targets: " + ", ".join(f"{k} <= {v}" for k, v in TARGETS.items())
                 + ", missing_function_share about 0.1")
    block("dropped, by reason", "dropped")
    lines.append("")
    lines.append("visible tools in no gold chain")
    for name, s in servers.items():
        lines.append(f"  {name:<{name_width}} {', '.join(s['tools_in_no_chain']) or '(none)'}")
    lines.append("")
    lines.append("most frequent sentence templates")
    for name, s in servers.items():
        lines.append(f"  {name}")
        lines += [f"    {number:>5}  {template}" for template, number in s["top_templates"][:5]]
    return "\n".join(lines) + "\n"


def write_output(result: SynthResult, out: str | Path) -> list[Path]:
    """Write train.jsonl, test.jsonl, stats.json and stats.txt into `out`."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, lines in (("train.jsonl", result.train), ("test.jsonl", result.test)):
        path = out / name
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        paths.append(path)
    (out / "stats.json").write_text(json.dumps(result.stats, indent=2) + "\n", encoding="utf-8")
    (out / "stats.txt").write_text(stats_table(result.stats), encoding="utf-8")
    return paths + [out / "stats.json", out / "stats.txt"]


def progress_bar(total_hint: int) -> Callable[[int, int], None]:
    """A tqdm progress bar over shards (on stderr), as a `progress(done, total)` callback."""
    from tqdm import tqdm

    bar = tqdm(total=total_hint, unit="world", desc="synth", file=sys.stderr, leave=True)

    def update(done: int, total: int) -> None:
        if bar.total != total:
            bar.total = total
        bar.n = done
        bar.refresh()
        if done >= total:
            bar.close()

    return update
