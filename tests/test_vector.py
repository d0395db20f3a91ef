"""Vector environments (Gymnasium's sync and async) and the async batch API."""

from __future__ import annotations

import asyncio

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

import prove_env  # noqa: F401
from prove_env.batch import EnvBatch
from prove_env.env import UnicodeText
from prove_env.task import Task, fixture_tasks

CALL = '<tool_call>{"name": "get_current_time", "arguments": {}}</tool_call>'


@pytest.mark.parametrize("mode, kwargs", [("sync", {}), ("async", {}), ("async", {"shared_memory": False})],
                         ids=["sync", "async", "async-pipes"])
def test_make_vec_next_step_autoreset(mode, kwargs):
    envs = gym.make_vec("prove/calendar-v0", num_envs=3, vectorization_mode=mode, vector_kwargs=kwargs)
    obs, info = envs.reset(seed=0)
    assert isinstance(obs, tuple) and len(obs) == 3 and all(isinstance(o, str) and o for o in obs)
    obs, reward, terminated, truncated, info = envs.step([CALL] * 3)
    assert (reward == 0).all() and not terminated.any() and '"now"' in obs[0]
    answers = 0
    while not terminated.all():  # answer every remaining user turn
        obs, reward, terminated, truncated, info = envs.step(["done"] * 3)
        answers += 1
    assert info["_reward_breakdown"].all() and (reward != 0).all()
    # NEXT_STEP: the step after the end resets that environment and ignores its action.
    obs, reward, terminated, truncated, info = envs.step([CALL] * 3)
    assert (reward == 0).all() and all(o and not o.startswith("{") for o in obs)
    envs.close()


def test_async_shared_memory_carries_any_unicode_text():
    """The async default (shared memory) passes text with spaces, newlines and any code point."""
    text = "naïve café – 東京\n\ttab \x00 😀 \u2028 end"
    task = Task(id="u", server="filesystem", seed=0, user_turns=["Say it"], gold=[[]], abstain=True)
    envs = gym.make_vec("prove/filesystem-v0", num_envs=2, vectorization_mode="async")
    obs, _ = envs.reset(options={"task": task})
    assert obs == ("Say it", "Say it")
    obs, *_ = envs.step([{"name": "echo", "arguments": {"text": text}}, {"name": "pwd", "arguments": {}}])
    assert isinstance(obs, tuple) and text in obs[0] and obs[1].startswith("/")
    envs.close()

    live = gym.make_vec("prove/filesystem-v0", num_envs=1, vectorization_mode="async", vector_kwargs={"copy": False})
    first, _ = live.reset(options={"task": task})
    assert first[0] == "Say it"
    live.step([{"name": "echo", "arguments": {"text": text}}])
    assert text in first[0]  # without copies, the batch is a view of the shared memory
    live.close()


def test_unicode_text_round_trips_through_shared_memory():
    space = UnicodeText(16)
    memory = create_shared_memory(space, n=3)
    values = ["", "a b\nc", "\x00é😀\u2028" + "z" * 12]
    for index, value in enumerate(values):
        write_to_shared_memory(space, index, value, memory)
    assert tuple(read_from_shared_memory(space, memory, n=3)) == tuple(values)
    write_to_shared_memory(space, 1, "x", memory)
    assert read_from_shared_memory(space, memory, n=3)[1] == "x"
    with pytest.raises(ValueError, match="does not fit UnicodeText"):
        write_to_shared_memory(space, 0, "y" * 17, memory)


def test_same_step_autoreset_returns_the_final_info():
    envs = gym.make_vec("prove/calendar-v0", num_envs=2, vectorization_mode="sync",
                        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP})
    envs.reset(seed=1)
    for _ in range(6):
        obs, reward, terminated, truncated, info = envs.step(["done", "done"])
        if terminated.any():
            break
    assert terminated.any()
    done = np.flatnonzero(terminated)[0]
    assert info["final_info"]["reward_breakdown"]["total"][done] == reward[done]
    assert obs[done] and info["final_obs"][done] == ""  # the next task's first turn, and the last observation
    envs.close()


def test_disabled_autoreset_with_a_reset_mask():
    envs = gym.make_vec("prove/calendar-v0", num_envs=2, vectorization_mode="sync",
                        vector_kwargs={"autoreset_mode": AutoresetMode.DISABLED})
    envs.reset(seed=2)
    for _ in range(6):
        *_, terminated, truncated, info = envs.step(["done", "done"])
        if terminated.all():
            break
    obs, info = envs.reset(options={"reset_mask": np.array([True, False])})
    assert obs[0]
    envs.close()


def test_async_batch_matches_sequential_episodes():
    tasks = [t for s in ("banking", "calendar", "filesystem") for t in fixture_tasks(s)]
    actions = [[{"name": c.name, "arguments": c.arguments} for c in t.gold_calls] for t in tasks]

    def sequential():
        out = []
        for task, acts in zip(tasks, actions, strict=True):
            env = gym.make(f"prove/{task.server}-v0", max_steps=50)
            env.reset(options={"task": task})
            out.append([env.step(a)[0] for a in acts])
            env.close()
        return out

    async def batched():
        batch = EnvBatch.make([t.server for t in tasks], max_steps=50)
        await batch.areset([{"task": t} for t in tasks])
        out = [[] for _ in tasks]
        for k in range(max(len(a) for a in actions)):
            live = [i for i, a in enumerate(actions) if k < len(a)]
            for i, result in zip(live, await batch.astep([actions[i][k] for i in live], indices=live), strict=True):
                out[i].append(result[0])
        batch.close()
        return out

    assert asyncio.run(batched()) == sequential()


def test_batch_errors():
    batch = EnvBatch.make(["calendar", "calendar"])
    batch.reset()
    with pytest.raises(ValueError, match="2 environments but 1 actions"):
        batch.step(["x"])
    with pytest.raises(ValueError, match="indices"):
        batch.step(["x"], indices=[5])
    results = batch.step([CALL, "done"])
    assert len(results) == 2 and '"now"' in results[0][0]
    batch.close()
