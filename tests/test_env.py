"""The Gymnasium environments: registration, spaces, every action form, rewards, async API."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import prove_env
from prove_env.facts import say
from prove_env.registry import server_names
from prove_env.task import TaskError, fixture_tasks
from prove_env.world import WorldError


def _task(server: str = "banking", multi_turn: bool = False):
    tasks = [t for t in fixture_tasks(server) if not t.abstain and (len(t.user_turns) > 1) == multi_turn]
    return tasks[0]


def _gold_actions(task):
    for number, turn in enumerate(task.gold):
        for call in turn:
            yield {"name": call.name, "arguments": call.arguments}
        yield say(task.facts[number]) if task.facts else "Done."  # an answer stating the turn's facts


def _run(env, task, actions):
    obs, info = env.reset(options={"task": task.model_dump()})
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return reward, info
    raise AssertionError("episode did not end")


def test_every_server_is_registered():
    ids = {spec for spec in gym.registry if spec.startswith("prove/")}
    assert ids == {f"prove/{s}-v0" for s in server_names()}


def test_module_prefix_make_imports_the_package():
    code = "import gymnasium as gym; env = gym.make('prove_env:prove/calendar-v0'); print(env.reset(seed=0)[1]['server'])"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "calendar"


@pytest.mark.parametrize("server", server_names())
def test_check_env(server):
    env = gym.make(f"prove/{server}-v0", render_mode="ansi")
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("server", server_names())
def test_gold_and_noop_through_the_env(server):
    env = gym.make(f"prove/{server}-v0", max_steps=50)
    for task in fixture_tasks(server):
        reward, info = _run(env, task, _gold_actions(task))
        assert info["reward_breakdown"]["success"], (task.id, info["reward_breakdown"])
        assert reward == pytest.approx(1.0 if task.abstain else prove_env.PAPER.maximum), task.id
        reward, info = _run(env, task, ["I can't do that."] * len(task.user_turns))
        assert info["reward_breakdown"]["success"] == task.abstain, task.id
    env.close()


def test_reset_info_and_observation():
    env = gym.make("prove/banking-v0")
    task = _task()
    obs, info = env.reset(seed=0, options={"task_id": task.id})
    assert obs == task.user_turns[0]
    assert info["task_id"] == task.id and info["server"] == "banking"
    assert info["messages"][0]["role"] == "system" and info["messages"][1] == {"role": "user", "content": obs}
    assert all(t["type"] == "function" and {"name", "description", "parameters"} <= set(t["function"]) for t in info["tools"])
    with pytest.raises(TaskError, match="no task 'nope'"):
        env.reset(options={"task_id": "nope"})
    with pytest.raises(TaskError, match="other servers|not 'banking'"):
        env.reset(options={"task": _task("calendar").model_dump()})


def test_every_action_form_executes():
    env = gym.make("prove/banking-v0", max_steps=50)
    task = _task()
    env.reset(options={"task": task})
    call = task.gold_calls[0]
    forms = [
        {"name": call.name, "arguments": call.arguments},
        {"id": "c1", "type": "function", "function": {"name": call.name, "arguments": json.dumps(call.arguments)}},
        json.dumps({"name": call.name, "arguments": call.arguments}),
        f"<tool_call>{json.dumps({'name': call.name, 'arguments': call.arguments})}</tool_call>",
        {"role": "assistant", "content": None, "tool_calls": [{"type": "function", "function": {"name": call.name, "arguments": call.arguments}}]},
    ]
    outputs = set()
    for form in forms:
        obs, reward, terminated, truncated, info = env.step(form)
        assert info["calls"][0]["ok"], (form, obs)
        assert reward == 0.0 and not terminated and not truncated
        outputs.add(obs)
    assert len(outputs) == 1  # the same call, the same tool message
    obs, *_ , info = env.step([{"name": call.name, "arguments": call.arguments}] * 2)
    assert len(info["tool_messages"]) == 2 and obs == "\n\n".join(m["content"] for m in info["tool_messages"])


@pytest.mark.parametrize("action", [
    '<tool_call>{"name": "get_balance", "arguments": {"account_id": </tool_call>',
    {"name": "no_such_tool", "arguments": {}},
    {"name": "get_balance", "arguments": "{broken"},
    {"name": "get_balance", "arguments": {"account_id": 7}},
    {"function": {"arguments": {}}},
    [None, 3.5, {"x": 1}],
    "<tool_call>[1, 2]</tool_call>",
    "\x00\x01" * 1000 + "<tool_call>" * 50,
])
def test_malformed_actions_never_raise_and_score_invalid(action):
    env = gym.make("prove/banking-v0")
    env.reset(options={"task": _task()})
    obs, reward, terminated, truncated, info = env.step(action)
    assert isinstance(obs, str) and env.observation_space.contains(obs)
    if "calls" in info:
        assert not any(c["ok"] for c in info["calls"]) and obs.startswith("Error")
        *_, info = env.step("stop")
        assert info["reward_breakdown"]["validity"] < 1.0


def test_truncation_scores_the_episode():
    env = gym.make("prove/banking-v0", max_steps=3)
    task = _task()
    env.reset(options={"task": task})
    call = task.gold_calls[0]
    for _ in range(3):
        obs, reward, terminated, truncated, info = env.step({"name": call.name, "arguments": call.arguments})
    assert truncated and not terminated and "reward_breakdown" in info and reward == info["reward_breakdown"]["total"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step("more")


def test_multi_turn_flow():
    env = gym.make("prove/banking-v0", max_steps=50)
    task = _task(multi_turn=True)
    obs, info = env.reset(options={"task": task})
    for turn, calls in enumerate(task.gold):
        assert obs == task.user_turns[turn] and info["turn"] == turn
        for call in calls:
            obs, reward, terminated, *_ = env.step({"name": call.name, "arguments": call.arguments})
        obs, reward, terminated, truncated, info = env.step("done")
    assert terminated and info["reward_breakdown"]["success"]
    assert [m["content"] for m in info["messages"] if m["role"] == "user"] == task.user_turns


def test_wrong_start_digest_is_refused():
    env = gym.make("prove/banking-v0")
    task = _task().model_copy(update={"start_digest": "0" * 64})
    with pytest.raises(WorldError, match="builds to digest"):
        env.reset(options={"task": task})


def test_same_seed_same_everything():
    def episode():
        env = gym.make("prove/filesystem-v0", max_steps=50)
        rng_task = env.reset(seed=11)[1]["task_id"]
        task = next(t for t in fixture_tasks("filesystem") if t.id == rng_task)
        transcript = [env.step(a)[:4] for a in _gold_actions(task)]
        digest = env.unwrapped.episode.world.digest()
        env.close()
        return rng_task, transcript, digest
    assert episode() == episode()


def test_async_api_matches_sync():
    task = _task()
    actions = list(_gold_actions(task))
    env = gym.make("prove/banking-v0", max_steps=50).unwrapped
    env.reset(options={"task": task})
    sync = [env.step(a) for a in actions]

    async def run():
        other = gym.make("prove/banking-v0", max_steps=50).unwrapped
        await other.areset(options={"task": task})
        out = [await other.astep(a) for a in actions]
        other.close()
        return out

    assert asyncio.run(run()) == sync
    env.close()


def test_render_ansi_is_the_transcript():
    env = gym.make("prove/banking-v0", render_mode="ansi", max_steps=50)
    task = _task()
    _run(env, task, _gold_actions(task))
    text = env.render()
    assert task.user_turns[0] in text and task.gold_calls[0].name in text and "reward:" in text


def test_long_results_are_truncated_with_a_marker():
    env = gym.make("prove/banking-v0", max_observation_chars=200)
    env.reset(options={"task": _task()})
    obs, *_ = env.step({"name": "no_such_tool", "arguments": {}})
    assert len(obs) <= 200 and "truncated" in obs


def test_task_from_a_hand_written_snapshot():
    from prove_env.registry import get_toolkit
    from prove_env.world import worlds

    snapshot = worlds.create(get_toolkit("banking"), 0).snapshot()
    account = snapshot["tables"]["accounts"][0]
    account["balance"] = 4321.0
    task = {"id": "snap-1", "server": "banking", "snapshot": snapshot, "user_turns": ["What is my balance?"],
            "gold": [[{"id": "g1", "name": "get_balance", "arguments": {"account_id": account["id"]}}]]}
    env = gym.make("prove/banking-v0")
    env.reset(options={"task": task})
    obs, *_ = env.step({"name": "get_balance", "arguments": {"account_id": account["id"]}})
    assert "4321" in obs
    *_, info = env.step("Your balance is $4,321.00.")
    assert info["reward_breakdown"]["success"] and info["reward_breakdown"]["total"] == pytest.approx(1.3)


def test_sync_api_inside_a_running_event_loop():
    """A notebook runs an event loop in the main thread; the synchronous API must still work there."""
    task = _task()
    actions = list(_gold_actions(task))

    async def notebook_cell():
        env = gym.make("prove/banking-v0", max_steps=50)
        env.reset(options={"task": task})
        out = [env.step(a) for a in actions]
        env.close()
        return out

    results = asyncio.run(notebook_cell())
    assert results[-1][2] and results[-1][4]["reward_breakdown"]["success"]
