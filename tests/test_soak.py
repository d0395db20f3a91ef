"""Soak: thousands of episodes created and closed; memory returns to its baseline.

`PROVE_SOAK_EPISODES=N` runs longer (default 2,000 resets and 300 environments created and closed).
"""

from __future__ import annotations

import gc
import os

import gymnasium as gym
import pytest

import prove_env  # noqa: F401
from prove_env.task import fixture_tasks

pytestmark = pytest.mark.slow

EPISODES = int(os.environ.get("PROVE_SOAK_EPISODES", "2000"))


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _episode(env, task):
    env.reset(options={"task": task})
    for call in task.gold_calls:
        env.step({"name": call.name, "arguments": call.arguments})
    env.step("done")


def test_memory_returns_to_baseline():
    tasks = [t for s in ("banking", "calendar", "filesystem") for t in fixture_tasks(s) if len(t.user_turns) == 1]
    envs = {s: gym.make(f"prove/{s}-v0", max_steps=50) for s in ("banking", "calendar", "filesystem")}

    def cycle(n):
        for i in range(n):
            task = tasks[i % len(tasks)]
            _episode(envs[task.server], task)
        for i in range(max(1, n // 7)):  # whole environments (server, client, world) come and go too
            env = gym.make("prove/calendar-v0")
            env.reset(seed=i)
            env.close()
        gc.collect()

    cycle(EPISODES // 4)  # warm up: templates, caches, compiled SQL
    baseline = _rss_mb()
    cycle(EPISODES)
    after = _rss_mb()
    for env in envs.values():
        env.close()
    print(f"\nsoak: {EPISODES} episodes, rss {baseline:.1f} MB -> {after:.1f} MB")
    assert after - baseline < 10, f"memory grew from {baseline:.1f} MB to {after:.1f} MB over {EPISODES} episodes"
