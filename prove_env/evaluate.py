"""`prove-env eval`: run policies on tasks through the Gymnasium environments and measure them.

Every episode goes through `env.reset` / `env.step`, exactly as in training. A run directory
receives `trajectories.jsonl` (one line per episode, appended as episodes finish, so an
interrupted run resumes where it stopped), `run.json` (what makes the run: its tasks, policies,
trials and settings), `metrics.json` and `report.html`.

A run directory holds one run. Running again with the same tasks, policies, trials and settings
resumes it: the episodes still missing are played, and so are those an endpoint error stopped.
Anything else is refused with what differs, unless `overwrite` asks to replace the run. A policy
that asks a model checks first that its endpoint answers at all, so an address where nothing
listens stops the run before its first episode.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import statistics
import sys
import threading
from collections import defaultdict
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import gymnasium as gym

import prove_env  # noqa: F401  (registers the environments)
from prove_env.policies import EndpointError, Policy, make_policy
from prove_env.reward import COMPONENTS, PRESETS
from prove_env.task import Task

__all__ = ["run_episode", "evaluate", "compute_metrics", "COMPONENTS", "ABSTENTION_MAXIMUM", "RUN_FILES"]

ABSTENTION_MAXIMUM = 1.0
"""The most an abstention task can score: 1 for calling nothing, under every reward preset (reward.md)."""

RUN_FILES = ("trajectories.jsonl", "run.json", "metrics.json", "report.html")
"""What a run directory holds; `overwrite` replaces exactly these."""


def run_episode(env: gym.Env, policy: Policy, task: Task, trial: int) -> dict[str, Any]:
    """Play one episode of `task` with `policy`; the record written to trajectories.jsonl."""
    observation, info = env.reset(options={"task": task})
    policy.start(task, info, trial)
    record: dict[str, Any] = {"task_id": task.id, "server": task.server, "policy": policy.name, "trial": trial,
                              "abstain": task.abstain}
    steps = 0
    try:
        while True:
            observation, reward, terminated, truncated, info = env.step(policy.act(observation, info))
            steps += 1
            if terminated or truncated:
                break
    except EndpointError as exc:
        # The model could not be asked: the episode is scored on what it did so far and flagged.
        record["error"] = str(exc)
        breakdown = env.unwrapped.get_reward().as_dict()
        info = {"reward_breakdown": breakdown, "trajectory": [c.as_dict() for c in env.unwrapped.episode.calls]}
        reward = breakdown["total"]
    breakdown = info["reward_breakdown"]
    record.update(reward=float(reward), success=bool(breakdown["success"]), breakdown=breakdown,
                  calls=info["trajectory"], steps=steps, truncated=bool(truncated) if "error" not in record else False)
    return record


def evaluate(
    tasks: Iterable[Task],
    policies: list[str],
    out: str | Path,
    *,
    trials: int = 1,
    reward: str = "paper",
    concurrency: int = 1,
    max_steps: int = 10,
    policy_options: dict[str, Any] | None = None,
    progress: bool = True,
    name: str | None = None,
    overwrite: bool = False,
) -> dict[str, Any]:
    """Run every (task, policy, trial) not yet in `out`/trajectories.jsonl, then write the metrics.

    `out` may hold only this same run (same tasks, policies, trials and settings), which is resumed;
    another run there raises a ValueError saying what differs, unless `overwrite` replaces it. An
    endpoint that cannot be reached raises an EndpointError before anything is written.
    """
    if reward not in PRESETS:
        raise ValueError(f"reward must be one of {sorted(PRESETS)}")
    if trials < 1 or concurrency < 1:
        raise ValueError("trials and concurrency must be at least 1")
    tasks = list(tasks)
    out = Path(out)
    identity = _identity(tasks, policies, trials, reward, max_steps, policy_options or {})
    if not overwrite:
        _check_same_run(out, identity)
    path = out / "trajectories.jsonl"
    records = [] if overwrite else _read(path)
    finished = [r for r in records if "error" not in r]  # an episode an endpoint error stopped is played again
    done = {_key(r) for r in finished}
    jobs = [(task, policy, trial) for policy in policies for task in tasks for trial in range(trials)
            if (task.server, task.id, policy, trial) not in done]
    pending = {policy for _, policy, _ in jobs}
    for policy in policies:  # fail early on a policy that cannot be built, or whose endpoint does not answer
        built = make_policy(policy, **(policy_options or {}))
        if policy in pending:
            try:
                built.check()
            except EndpointError as exc:
                raise EndpointError(f"{exc} (policy {policy}); no episode was run") from None

    out.mkdir(parents=True, exist_ok=True)
    if overwrite:
        for file_name in RUN_FILES:
            (out / file_name).unlink(missing_ok=True)
    (out / "run.json").write_text(json.dumps(identity, indent=2) + "\n", encoding="utf-8")
    if len(finished) < len(records):
        _rewrite(path, finished)
    elif path.exists() and not path.read_bytes().endswith(b"\n") and path.stat().st_size:
        with path.open("a", encoding="utf-8") as f:
            f.write("\n")  # an interrupted run left half a line: start the next record on its own

    lock = threading.Lock()
    local = threading.local()
    errors = 0  # episodes an endpoint error stopped, shown on the progress bar
    steps: dict[str, int] = {}
    for t in tasks:  # room for the longest reference path of each server's tasks
        steps[t.server] = max(steps.get(t.server, max_steps), len(t.gold_calls) + len(t.user_turns) + 1)

    def run(job: tuple[Task, str, int]) -> None:
        nonlocal errors
        task, policy_name, trial = job
        envs = local.__dict__.setdefault("envs", {})
        env = envs.get(task.server)
        if env is None:
            env = envs[task.server] = gym.make(f"prove/{task.server}-v0", reward=reward, max_steps=steps[task.server])
        record = run_episode(env, make_policy(policy_name, **(policy_options or {})), task, trial)
        with lock:
            with path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
            if "error" in record:
                errors += 1
                bar.set_postfix_str(f"{errors} stopped by endpoint errors")
            bar.update(1)

    bar = _progress(len(jobs), progress)
    if concurrency == 1:
        for job in jobs:
            run(job)
    else:
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            list(pool.map(run, jobs))
    bar.close()

    wanted = {(t.server, t.id) for t in tasks}
    records = [r for r in _read(path)
               if r["policy"] in policies and r["trial"] < trials and (r["server"], r["task_id"]) in wanted]
    metrics = compute_metrics(records, policies, trials, reward, name or out.name)
    (out / "metrics.json").write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf-8")
    return metrics


def compute_metrics(records: list[dict[str, Any]], policies: list[str], trials: int, reward: str,
                    name: str) -> dict[str, Any]:
    servers = sorted({r["server"] for r in records})
    maximum = PRESETS[reward].maximum
    by_policy = {}
    for policy in policies:
        mine = [r for r in records if r["policy"] == policy]
        by_policy[policy] = {"overall": _summary(mine, trials, maximum),
                             "servers": {s: _summary([r for r in mine if r["server"] == s], trials, maximum)
                                         for s in servers}}
    return {"name": name, "policies": policies, "trials": trials, "servers": servers, "reward_preset": reward,
            "reward_maximum": maximum, "abstention_maximum": ABSTENTION_MAXIMUM, "by_policy": by_policy}


def _summary(records: list[dict[str, Any]], trials: int, maximum: float) -> dict[str, Any]:
    """The metrics of some episodes. `reward_share` is the mean of each episode's reward over its
    task's own maximum (`maximum`, or ABSTENTION_MAXIMUM for an abstention task), so a policy that
    earns the maximum everywhere has 1.0 whatever its mix of tasks."""
    if not records:
        return {"tasks": 0, "episodes": 0}
    by_task: dict[tuple[str, str], list[bool]] = defaultdict(list)
    by_trial: dict[int, list[bool]] = defaultdict(list)
    for r in records:
        by_task[(r["server"], r["task_id"])].append(r["success"])
        by_trial[r["trial"]].append(r["success"])
    calls = [c for r in records for c in r["calls"]]
    rewards = [r["reward"] for r in records]
    trial_rates = [sum(v) / len(v) for v in by_trial.values()]
    return {
        "tasks": len(by_task),
        "episodes": len(records),
        "success_rate": sum(r["success"] for r in records) / len(records),
        "success_rate_std": statistics.pstdev(trial_rates) if len(trial_rates) > 1 else 0.0,
        "reward_mean": statistics.fmean(rewards),
        "reward_std": statistics.pstdev(rewards) if len(rewards) > 1 else 0.0,
        "reward_share": statistics.fmean(r["reward"] / (ABSTENTION_MAXIMUM if r.get("abstain") else maximum)
                                         for r in records),
        "components": {c: statistics.fmean(r["breakdown"][c] for r in records) for c in COMPONENTS},
        "calls_per_task": len(calls) / len(records),
        "error_rate": sum(not c["ok"] for c in calls) / len(calls) if calls else 0.0,
        "endpoint_errors": sum("error" in r for r in records),
        "pass_k": {str(k): statistics.fmean(_pass_k(v, k) for v in by_task.values()) for k in range(1, trials + 1)},
    }


def _pass_k(successes: list[bool], k: int) -> float:
    """The chance that k trials drawn from the n of a task all succeed: C(c, k) / C(n, k)."""
    n, c = len(successes), sum(successes)
    return math.comb(c, k) / math.comb(n, k) if n >= k else float("nan")


def _identity(tasks: list[Task], policies: list[str], trials: int, reward: str, max_steps: int,
              policy_options: dict[str, Any]) -> dict[str, Any]:
    """What makes a run (`run.json`): the tasks' content, the policies, trials and settings (no API key)."""
    digest = hashlib.sha256("\n".join(sorted(t.to_json() for t in tasks)).encode()).hexdigest()
    identity = {"tasks": {"count": len(tasks), "sha256": digest}, "policies": list(policies), "trials": trials,
                "reward": reward, "max_steps": max_steps,
                "policy_options": {k: v for k, v in policy_options.items() if k != "api_key"}}
    return json.loads(json.dumps(identity, default=str))


def _check_same_run(out: Path, identity: dict[str, Any]) -> None:
    """Refuse, saying what differs, a run directory that holds another run than `identity`."""
    recorded_path, trajectories = out / "run.json", out / "trajectories.jsonl"
    if recorded_path.exists():
        try:
            recorded = json.loads(recorded_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            recorded = {}
        if not isinstance(recorded, dict):
            recorded = {}
    elif trajectories.exists() and trajectories.stat().st_size:
        raise ValueError(f"{out} holds episodes (trajectories.jsonl) but no run.json saying which run they belong "
                         "to: use a new --out directory, or --overwrite to replace them")
    else:
        return
    if recorded == identity:
        return
    differences = []
    for key in identity:
        before, now = recorded.get(key), identity[key]
        if before == now:
            continue
        if before is None:
            differences.append(f"{key}: not recorded there")
        elif key == "tasks":
            count = before.get("count") if isinstance(before, dict) else None
            differences.append(f"tasks: {count} there, {now['count']} here" if count != now["count"]
                               else f"tasks: {count} there and here, but other tasks")
        elif key == "policies":
            differences.append(f"policies: {_listed(before)} there, {_listed(now)} here")
        else:
            differences.append(f"{key}: {json.dumps(before)} there, {json.dumps(now)} here")
    raise ValueError(f"{out} holds another run ({'; '.join(differences)}): the same tasks, policies, trials and "
                     "settings resume it; use a new --out directory, or --overwrite to replace it")


def _listed(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, list) else json.dumps(value)


def _rewrite(path: Path, records: list[dict[str, Any]]) -> None:
    """Replace `path` with `records`, one a line, at once (a crash leaves the old file or the new one)."""
    scratch = path.with_name(path.name + ".tmp")
    scratch.write_text("".join(json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in records),
                       encoding="utf-8")
    os.replace(scratch, path)


def _key(record: dict[str, Any]) -> tuple[str, str, str, int]:
    return record["server"], record["task_id"], record["policy"], record["trial"]


def _read(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").split("\n"):  # not splitlines: JSON may hold U+2028 raw
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut short by an interrupted run; its episode is run again
    return records


class _NoBar:
    def update(self, n: int) -> None: ...

    def set_postfix_str(self, text: str) -> None: ...

    def close(self) -> None: ...


def _progress(total: int, enabled: bool) -> Any:
    if not enabled or total == 0:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="episode", file=sys.stderr, dynamic_ncols=True, leave=False,
                disable=not sys.stderr.isatty())

