"""`prove-env eval`: run policies on tasks through the Gymnasium environments and measure them.

Every episode goes through `env.reset` / `env.step`, exactly as in training. A run directory
receives `trajectories.jsonl` (one line per episode, appended as episodes finish, so an
interrupted run resumes where it stopped), `metrics.json` and `report.html`.
"""

from __future__ import annotations

import json
import math
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

__all__ = ["run_episode", "evaluate", "compute_metrics", "COMPONENTS"]



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
) -> dict[str, Any]:
    """Run every (task, policy, trial) not yet in `out`/trajectories.jsonl, then write the metrics."""
    if reward not in PRESETS:
        raise ValueError(f"reward must be one of {sorted(PRESETS)}")
    if trials < 1 or concurrency < 1:
        raise ValueError("trials and concurrency must be at least 1")
    tasks = list(tasks)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    _check_settings(out, {"reward": reward, "max_steps": max_steps,
                          "policy_options": {k: v for k, v in (policy_options or {}).items() if k != "api_key"}})
    path = out / "trajectories.jsonl"
    if path.exists() and not path.read_bytes().endswith(b"\n") and path.stat().st_size:
        with path.open("a", encoding="utf-8") as f:
            f.write("\n")  # an interrupted run left half a line: start the next record on its own
    done = {_key(r) for r in _read(path)}
    jobs = [(task, policy, trial) for policy in policies for task in tasks for trial in range(trials)
            if (task.server, task.id, policy, trial) not in done]
    for policy in policies:  # fail early on a policy that cannot be built
        make_policy(policy, **(policy_options or {}))

    lock = threading.Lock()
    local = threading.local()
    steps: dict[str, int] = {}
    for t in tasks:  # room for the longest reference path of each server's tasks
        steps[t.server] = max(steps.get(t.server, max_steps), len(t.gold_calls) + len(t.user_turns) + 1)

    def run(job: tuple[Task, str, int]) -> None:
        task, policy_name, trial = job
        envs = local.__dict__.setdefault("envs", {})
        env = envs.get(task.server)
        if env is None:
            env = envs[task.server] = gym.make(f"prove/{task.server}-v0", reward=reward, max_steps=steps[task.server])
        record = run_episode(env, make_policy(policy_name, **(policy_options or {})), task, trial)
        with lock, path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
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
    by_policy = {}
    for policy in policies:
        mine = [r for r in records if r["policy"] == policy]
        by_policy[policy] = {"overall": _summary(mine, trials),
                             "servers": {s: _summary([r for r in mine if r["server"] == s], trials) for s in servers}}
    return {"name": name, "policies": policies, "trials": trials, "servers": servers, "reward_preset": reward,
            "reward_maximum": PRESETS[reward].maximum, "by_policy": by_policy}


def _summary(records: list[dict[str, Any]], trials: int) -> dict[str, Any]:
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


def _check_settings(out: Path, settings: dict[str, Any]) -> None:
    """A run directory keeps the settings its episodes were played with; resuming needs the same."""
    path = out / "run.json"
    settings = json.loads(json.dumps(settings, default=str))
    if path.exists():
        recorded = json.loads(path.read_text(encoding="utf-8"))
        if recorded != settings:
            changed = sorted(k for k in set(recorded) | set(settings) if recorded.get(k) != settings.get(k))
            raise ValueError(f"{out} holds a run made with other settings ({', '.join(changed)}): "
                             "use a new --out directory, or the same settings to resume it")
    else:
        path.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")


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

    def close(self) -> None: ...


def _progress(total: int, enabled: bool) -> Any:
    if not enabled or total == 0:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="episode", file=sys.stderr, dynamic_ncols=True, leave=False,
                disable=not sys.stderr.isatty())

