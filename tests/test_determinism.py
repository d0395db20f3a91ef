"""Determinism: the same seed and actions give the same observations, rewards and final world,
in separate processes and after any number of earlier episodes in the same process."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

SCENARIO = r'''
import json, random, sys
import gymnasium as gym
import prove_env
from prove_env.task import fixture_tasks

def scenario(server, seed):
    env = gym.make(f"prove/{server}-v0", max_steps=60, max_calls=60)
    obs, info = env.reset(seed=seed)
    task = next(t for t in fixture_tasks(server) if t.id == info["task_id"])
    rng = random.Random(seed)
    tools = info["tools"]
    actions = []
    for turn in task.gold:
        actions += [{"name": c.name, "arguments": c.arguments} for c in turn]
        for _ in range(rng.randint(0, 3)):
            tool = rng.choice(tools)["function"]
            actions.append({"name": tool["name"], "arguments": {k: "x" for k in tool["parameters"].get("required", [])}})
        actions.append("done")
    transcript = [obs, info["task_id"]]
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(action)
        transcript.append([obs, reward, terminated, truncated, info.get("reward_breakdown")])
        if terminated or truncated:
            break
    transcript.append(env.unwrapped.episode.world.digest())
    env.close()
    return transcript

def all_scenarios():
    return {f"{s}/{k}": scenario(s, k) for s in prove_env.server_names() for k in (0, 7)}
'''


def _in_subprocess() -> dict:
    code = SCENARIO + "\nprint(json.dumps(all_scenarios()))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={"PYTHONHASHSEED": "random", "PATH": ""})
    return json.loads(done.stdout)


def test_same_across_processes_and_after_earlier_episodes():
    first, second = _in_subprocess(), _in_subprocess()
    assert first == second
    namespace: dict = {}
    exec(SCENARIO, namespace)
    for _ in range(3):  # earlier episodes in this process, on every server, must not change anything
        namespace["all_scenarios"]()
    here = json.loads(json.dumps(namespace["all_scenarios"]()))
    assert here == first
