"""Scripted rollouts through the Gymnasium environments: the gold policy and the do-nothing policy.

`gold` replays a task's reference calls turn by turn (one call per step, then a short answer) and
must earn the maximum reward with `success` true; `noop` answers every turn without calling
anything and must fail every task that needs a call. Both go through `env.reset` / `env.step`,
exactly as a model's actions would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from prove_env.task import Task

__all__ = ["Rollout", "gold_actions", "noop_actions", "POLICIES", "rollout"]


@dataclass(frozen=True)
class Rollout:
    task_id: str
    server: str
    policy: str
    reward: float
    breakdown: dict[str, Any]
    calls: int
    steps: int


def gold_actions(task: Task) -> Iterator[Any]:
    for turn in task.gold:
        for call in turn:
            yield {"name": call.name, "arguments": dict(call.arguments)}
        yield "Done."


def noop_actions(task: Task) -> Iterator[Any]:
    for _ in task.user_turns:
        yield "I cannot help with that."


POLICIES: dict[str, Callable[[Task], Iterator[Any]]] = {"gold": gold_actions, "noop": noop_actions}


def rollout(env: gym.Env, task: Task, policy: str) -> Rollout:
    """Run one scripted episode of `task` in `env` (a `prove/<server>-v0` environment)."""
    env.reset(options={"task": task})
    reward, info, steps = 0.0, {}, 0
    for action in POLICIES[policy](task):
        _, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            break
    return Rollout(
        task_id=task.id,
        server=task.server,
        policy=policy,
        reward=float(reward),
        breakdown=info.get("reward_breakdown", {}),
        calls=len(info.get("trajectory", [])),
        steps=steps,
    )
