"""Isolation: many episodes interleaved at random (threads and asyncio) never see each other's writes.

Each episode runs its own random sequence of writing calls. Interleaved with the others, every
episode must end in exactly the world that its own sequence produces when run alone.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

import gymnasium as gym
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import prove_env  # noqa: F401
from prove_env.registry import server_names
from prove_env.task import fixture_tasks

TASK = next(t for t in fixture_tasks("filesystem") if not t.abstain)


def _actions(seed: int, n: int) -> list[dict]:
    """A deterministic sequence of writes and reads on the file system, different for each seed."""
    rng = random.Random(seed)
    actions = []
    for i in range(n):
        name = f"ep{seed}_{i}"
        choice = rng.choice(["mkdir", "write", "append", "cd", "touch", "rm", "read"])
        if choice == "mkdir":
            actions.append({"name": "mkdir", "arguments": {"path": name}})
        elif choice == "write":
            actions.append({"name": "write_file", "arguments": {"path": f"{name}.txt", "content": f"episode {seed}"}})
        elif choice == "append":
            actions.append({"name": "append_file", "arguments": {"path": "notes/todo.md", "content": f"- from {seed}\n"}})
        elif choice == "cd":
            actions.append({"name": "cd", "arguments": {"path": rng.choice(["..", "~", "notes", "/tmp"])}})
        elif choice == "touch":
            actions.append({"name": "touch", "arguments": {"path": f"{name}.log"}})
        elif choice == "rm":
            actions.append({"name": "rm", "arguments": {"path": "notes/todo.md"}})
        else:
            actions.append({"name": "ls", "arguments": {}})
    return actions


def _alone(seed: int, n: int) -> tuple[str, list[str]]:
    env = gym.make("prove/filesystem-v0", max_steps=10_000, max_calls=10_000)
    env.reset(options={"task": TASK})
    observations = [env.step(a)[0] for a in _actions(seed, n)]
    digest = env.unwrapped.episode.world.digest()
    env.close()
    return digest, observations


@settings(max_examples=6, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.integers(0, 10_000), min_size=4, max_size=10, unique=True), st.integers(0, 2**32 - 1))
def test_threads_interleaving_random_episodes(seeds, order_seed):
    n = 12
    envs = {s: gym.make("prove/filesystem-v0", max_steps=10_000, max_calls=10_000) for s in seeds}
    for env in envs.values():
        env.reset(options={"task": TASK})
    plan = [s for s in seeds for _ in range(n)]
    random.Random(order_seed).shuffle(plan)
    queues = {s: iter(_actions(s, n)) for s in seeds}
    observations = {s: [] for s in seeds}

    def step(seed):
        observations[seed].append(envs[seed].step(next(queues[seed]))[0])

    # Each episode's own steps stay in order; runs of distinct episodes step at once on threads.
    batches, batch = [], []
    for seed in plan:
        if seed in batch:
            batches.append(batch)
            batch = []
        batch.append(seed)
    batches.append(batch)
    with ThreadPoolExecutor(max_workers=4) as pool:
        for batch in batches:
            list(pool.map(step, batch))
    for seed in seeds:
        assert len(observations[seed]) == n
        digest, alone = _alone(seed, n)
        assert envs[seed].unwrapped.episode.world.digest() == digest, f"episode {seed} saw another episode's writes"
        assert observations[seed] == alone
        envs[seed].close()


def test_asyncio_interleaving_many_episodes():
    seeds = list(range(16))
    n = 10

    async def run():
        envs = {s: gym.make("prove/filesystem-v0", max_steps=10_000, max_calls=10_000).unwrapped for s in seeds}
        await asyncio.gather(*(env.areset(options={"task": TASK}) for env in envs.values()))

        async def episode(seed):
            out = []
            for action in _actions(seed, n):
                await asyncio.sleep(random.Random(seed * 31 + len(out)).random() / 1000)
                out.append((await envs[seed].astep(action))[0])
            return out

        results = await asyncio.gather(*(episode(s) for s in seeds))
        digests = {s: envs[s].episode.world.digest() for s in seeds}
        for env in envs.values():
            await env.episode.aclose()
        return dict(zip(seeds, results, strict=True)), digests

    observations, digests = asyncio.run(run())
    for seed in seeds:
        digest, alone = _alone(seed, n)
        assert digests[seed] == digest and observations[seed] == alone, f"episode {seed} was disturbed"


@pytest.mark.parametrize("server", server_names())
def test_worlds_of_one_seed_do_not_share_writes(server):
    task = next(t for t in fixture_tasks(server) if t.writes)
    a, b = gym.make(f"prove/{server}-v0", max_steps=50), gym.make(f"prove/{server}-v0", max_steps=50)
    a.reset(options={"task": task})
    b.reset(options={"task": task})
    for call in task.gold_calls:
        a.step({"name": call.name, "arguments": call.arguments})
    assert a.unwrapped.episode.world.digest() == task.gold_digest
    assert b.unwrapped.episode.world.digest() == task.start_digest
