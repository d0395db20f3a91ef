"""The Ray pool on a small local Ray instance: batched reset/step and rollouts match the in-process
environments exactly, results come back in input order, errors are clear, and close ends the actors."""

from __future__ import annotations

import subprocess
import sys
import time

import gymnasium as gym
import pytest

import prove_env  # noqa: F401  (registers the environments)
from prove_env.evaluate import run_episode
from prove_env.policies import make_policy
from prove_env.integrations.ray import EnvGroup, RayEnvPool  # imports Ray only when a pool is made
from prove_env.registry import UnknownServerError, server_names
from prove_env.task import TaskError, fixture_tasks

pytestmark = pytest.mark.slow

ray = pytest.importorskip("ray")

SERVERS = list(server_names()[:3])  # three servers are enough to test the pool's layout
TASKS = {s: fixture_tasks(s) for s in SERVERS}
ALL_TASKS = [t for s in SERVERS for t in TASKS[s]]


@pytest.fixture(scope="module")
def ray_session():
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=100 * 1024 * 1024)
    yield
    if started:
        ray.shutdown()


@pytest.fixture(scope="module")
def pool(ray_session):
    pool = RayEnvPool(num_actors=2, envs_per_actor=3, servers=SERVERS)
    yield pool
    pool.close()


def _actions(task):
    """A scripted episode with a malformed action and an unknown tool up front, then the gold path."""
    actions = ['<tool_call>{"name": "nope"', {"name": "no_such_tool", "arguments": {}}]
    for turn in task.gold:
        actions += [{"name": c.name, "arguments": dict(c.arguments)} for c in turn]
        actions.append("Done.")
    return actions


def _in_process(task, actions):
    env = gym.make(f"prove/{task.server}-v0")
    results = [env.reset(options={"task": task})]
    for action in actions:
        results.append(env.step(action))
        if results[-1][2] or results[-1][3]:
            break
    env.close()
    return results


def test_layout(pool):
    assert len(pool) == pool.num_envs == 6
    assert pool.servers == SERVERS * 2


def test_batched_reset_and_step_match_in_process(pool):
    # three rounds cover all 18 fixture tasks; indices are given out of order so routing must restore it
    order = [4, 0, 5, 2, 1, 3]
    for round_ in range(3):
        tasks = {i: TASKS[pool.servers[i]][round_ + 3 * (i // 3)] for i in range(6)}
        actions = {i: _actions(tasks[i]) for i in range(6)}
        got = {i: [r] for i, r in zip(order, pool.reset(order, [tasks[i] for i in order]), strict=True)}
        assert [got[i][0][1]["task_id"] for i in range(6)] == [tasks[i].id for i in range(6)]
        live, k = list(order), 0
        while live:
            results = pool.step(live, [actions[i][k] for i in live])
            for i, result in zip(live, results, strict=True):
                got[i].append(result)
            live = [i for i, r in zip(live, results, strict=True) if not (r[2] or r[3])]
            live = live[::-1]  # a different order every step
            k += 1
        for i in range(6):
            assert got[i] == _in_process(tasks[i], actions[i]), f"env {i}, task {tasks[i].id}"
            assert got[i][-1][2] and "reward_breakdown" in got[i][-1][4]


def test_reset_forms_and_subsets(pool):
    task = TASKS[SERVERS[1]][0]  # envs 1 and 4 serve the second server
    by_task, by_dict = pool.reset([1, 4], [task, task.model_dump()])
    (by_json,) = pool.reset([1], [{"task": task.to_json()}])
    (by_id,) = pool.reset([4], [{"task_id": task.id}])
    assert by_task == by_dict == by_json == by_id
    seeded = pool.reset([0, 3], seeds=[7, 7])  # drawn from the server's fixture tasks with the same seed
    assert seeded[0][1]["task_id"] == seeded[1][1]["task_id"]
    assert pool.reset([], []) == [] and pool.step([], []) == []


def test_rollout_gold_noop_in_input_order(pool):
    gold = pool.rollout(ALL_TASKS, "gold", trials=2)
    assert [(r["task_id"], r["trial"]) for r in gold] == [(t.id, k) for t in ALL_TASKS for k in range(2)]
    assert all(r["policy"] == "gold" and r["success"] for r in gold)
    for r in gold:
        assert r["reward"] == pytest.approx(1.0 if r["abstain"] else 1.3)
    noop = pool.rollout(ALL_TASKS, "noop")
    assert [r["task_id"] for r in noop] == [t.id for t in ALL_TASKS]
    assert all(r["success"] == r["abstain"] for r in noop)
    assert any(r["abstain"] for r in noop) and not all(r["abstain"] for r in noop)


def test_rollout_matches_run_episode(pool):
    records = pool.rollout(ALL_TASKS, "random", trials=2, chunk_size=5)
    envs = {s: gym.make(f"prove/{s}-v0") for s in SERVERS}
    expected = [run_episode(envs[t.server], make_policy("random"), t, k) for t in ALL_TASKS for k in range(2)]
    for env in envs.values():
        env.close()
    assert records == expected
    assert pool.rollout([], "gold") == []


async def test_async_api(pool):
    task = TASKS[SERVERS[5 % len(SERVERS)]][0]  # env i serves SERVERS[i % 3]
    (obs, info), = await pool.areset([5], [task])
    assert obs == task.user_turns[0] and info["task_id"] == task.id
    results = await pool.astep([5], ["Done."])
    assert results[0][0] == (task.user_turns[1] if len(task.user_turns) > 1 else "")


def test_errors(pool):
    task = TASKS[SERVERS[0]][0]
    for bad in (6, -1, "0", True, 2.0):
        with pytest.raises(IndexError, match=r"out of range: this pool has environments 0\.\.5"):
            pool.reset([bad], [task])
    with pytest.raises(ValueError, match="at most once"):
        pool.step([0, 0], ["Done.", "Done."])
    with pytest.raises(ValueError, match="2 indices but 1 actions"):
        pool.step([0, 3], ["Done."])
    with pytest.raises(TaskError, match=f"env 1 serves '{SERVERS[1]}', but task '{task.id}' is for server '{SERVERS[0]}'"):
        pool.reset([1], [task])
    with pytest.raises(TaskError, match="no task 'nope'"):  # raised in the actor, re-raised here as TaskError
        pool.reset([0], [{"task_id": "nope"}])
    with pytest.raises(TypeError, match="expected a Task"):
        pool.reset([0], [42])
    pool.reset([0], [task])
    assert pool.step([0], ["Done."])[0][2]
    with pytest.raises(RuntimeError, match="call reset"):
        pool.step([0], ["Done."])
    with pytest.raises(ValueError, match="scripted policies"):
        pool.rollout([task], "openai")
    with pytest.raises(UnknownServerError):
        RayEnvPool(1, 1, servers=["nope"])
    # the pool is still usable after errors
    assert pool.reset([0], [task])[0][1]["task_id"] == task.id


def test_close(ray_session):
    with RayEnvPool(1, 1, servers="banking", num_cpus_per_actor=0) as pool:
        actor = pool._actors[0]
        assert pool.reset([0], [TASKS["banking"][0]])[0][0] == TASKS["banking"][0].user_turns[0]
    assert pool.closed
    pool.close()  # idempotent
    with pytest.raises(RuntimeError, match="closed"):
        pool.step([0], ["Done."])
    with pytest.raises(RuntimeError, match="closed"):
        pool.rollout(ALL_TASKS[:1], "gold")
    with pytest.raises(ray.exceptions.RayActorError):  # the kill is asynchronous: wait for it to land
        for _ in range(100):
            ray.get(actor.ready.remote(), timeout=30)
            time.sleep(0.1)


def test_env_group_without_ray():
    group = EnvGroup(["calendar", "banking"])
    task = TASKS["banking"][1]
    (obs, _), = group.reset_batch([(1, task)])
    assert obs == task.user_turns[0]
    with pytest.raises(IndexError, match="slot 2"):
        group.step_batch([(2, "Done.")])
    assert group.rollout([(task, 0)], "gold", {"banking": 10})[0]["success"]
    group.close()


def test_missing_ray_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match=r'pip install "prove-env\[ray\]"'):
        RayEnvPool(1, 1)


def test_importing_prove_env_does_not_import_ray():
    code = "import sys, prove_env, prove_env.integrations.ray, prove_env.evaluate; assert 'ray' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
