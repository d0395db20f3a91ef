"""prove-env as a SkyRL-Gym text environment, through SkyRL-Gym's own interfaces.

An episode is played as SkyRL's generator plays one: the environment is made by the row's
`env_class` with the row's other columns as `extras` (and `max_turns`), `init` gets the row's
prompt, and `step` gets each model response as text until `done`.
"""

from __future__ import annotations

import json
import random

import datasets
import pytest
import skyrl_gym
from skyrl_gym.envs.base_text_env import BaseTextEnv

import prove_env.integrations.skyrl as ps
from prove_env.policies import SCRIPTED
from prove_env.reward import PAPER
from prove_env.task import Task, fixture_tasks


def _task(server: str, task_id: str) -> Task:
    return next(t for t in fixture_tasks(server) if t.id == task_id)


def _make(row: dict, max_turns: int = 10) -> BaseTextEnv:
    extras = {k: v for k, v in row.items() if k not in ("prompt", "env_class")}
    return skyrl_gym.make(row["env_class"], env_config={"reward": "paper"}, extras={**extras, "max_turns": max_turns})


def _text(action) -> str:
    """A scripted policy's action as a model writes it: `<tool_call>` blocks, or the answer."""
    if isinstance(action, str):
        return action
    return "Let me check.\n<tool_call>\n" + json.dumps(action) + "\n</tool_call>"


def _play(env: BaseTextEnv, row: dict, policy: str) -> list[dict]:
    """Start the row's episode and play it with a scripted policy; the step outputs."""
    _, info = env.init(row["prompt"])
    task = Task.parse(row["task"])
    outputs = []
    for action in SCRIPTED[policy]().actions(task, info, random.Random(0)):
        output = env.step(_text(action))
        outputs.append(output)
        if output["done"]:
            break
    return outputs


def test_prove_is_registered_with_skyrl_gym_by_importing_the_module():
    assert ps.ENV_ID in skyrl_gym.registry
    ps.register()  # again: nothing happens (skyrl_gym refuses a name twice)
    assert skyrl_gym.registry[ps.ENV_ID].entry_point == "prove_env.integrations.skyrl:ProveTextEnv"


def test_a_two_turn_task_played_by_the_reference_policy_earns_the_maximum():
    task = _task("calendar", "calendar-004")
    row = ps.dataset_rows([task])[0]
    env = _make(row)
    assert isinstance(env, ps.ProveTextEnv)
    conversation, info = env.init(row["prompt"])
    assert conversation == row["prompt"]
    system, user = conversation
    assert user == {"role": "user", "content": task.user_turns[0]}
    shown = [json.loads(line) for line in system["content"].split("<tools>\n")[1].split("\n</tools>")[0].splitlines()]
    assert shown == info["tools"] == env.env.tool_schemas()

    outputs = _play(env, row, "gold")
    roles = [[o["role"] for o in out["observations"]] for out in outputs]
    # a call, the answer (the next user turn comes back), two calls, the last answer (done)
    assert roles == [["tool"], ["user"], ["tool"], ["tool"], []]
    assert outputs[1]["observations"][0]["content"] == task.user_turns[1]
    assert [o["reward"] for o in outputs[:-1]] == [0.0] * (len(outputs) - 1)
    last = outputs[-1]
    assert last["done"] and last["reward"] == pytest.approx(PAPER.maximum)
    assert last["metadata"]["success"] is True
    assert env.get_metrics()["success"] == 1.0 and env.get_metrics()["total"] == pytest.approx(PAPER.maximum)
    env.close()


def test_doing_nothing_or_calling_what_is_not_shown_scores_lower():
    row = ps.dataset_rows([_task("banking", "banking-002")])[0]
    env = _make(row)
    noop = _play(env, row, "noop")[-1]
    assert noop["done"] and noop["metadata"]["success"] is False and noop["reward"] < PAPER.maximum

    env.init(row["prompt"])
    made_up = env.step(_text({"name": "launch_rocket", "arguments": {}}))
    assert not made_up["done"] and "unknown tool 'launch_rocket'" in made_up["observations"][0]["content"]
    assert made_up["metadata"]["calls"][0]["ok"] is False
    last = env.step("I moved the money.")
    assert last["done"] and last["reward"] < PAPER.maximum and last["metadata"]["success"] is False
    assert last["metadata"]["reward_breakdown"]["validity"] == 0.0
    env.close()


def test_max_turns_ends_the_episode_and_scores_what_was_done():
    task = _task("banking", "banking-002")
    row = ps.dataset_rows([task])[0]
    env = _make(row, max_turns=2)
    outputs = _play(env, row, "gold")
    assert len(outputs) == 2 and outputs[-1]["done"]
    assert 0 < outputs[-1]["reward"] < PAPER.maximum and outputs[-1]["metadata"]["success"] is False
    env.close()


def test_episodes_of_one_task_have_worlds_of_their_own():
    task = _task("banking", "banking-002")  # find_customers, list_accounts, transfer
    row = ps.dataset_rows([task])[0]
    first, second = _make(row), _make(row)
    second.init(row["prompt"])
    played = _play(first, row, "gold")  # the transfer is made in the first episode's world
    assert played[-1]["metadata"]["success"] is True
    accounts = task.gold_calls[1]
    before = played[1]["observations"][0]["content"]  # the first episode's accounts, before its transfer
    seen = second.step(_text({"name": accounts.name, "arguments": dict(accounts.arguments)}))
    assert seen["observations"][0]["content"] == before  # the second world never saw it
    for env in (first, second):
        env.close()


def test_dataset_rows_survive_a_parquet_round_trip_and_start_their_task(tmp_path):
    tasks = [_task("calendar", "calendar-004"), _task("banking", "banking-002")]
    path = tmp_path / "train.parquet"
    datasets.Dataset.from_list(ps.dataset_rows(tasks)).to_parquet(str(path))
    loaded = datasets.load_dataset("parquet", data_files=str(path), split="train", cache_dir=str(tmp_path / "cache"))
    assert [r["env_class"] for r in loaded] == ["prove", "prove"]
    for task, row in zip(tasks, loaded):
        assert Task.parse(row["task"]) == task and row["extra_info"]["task_id"] == task.id
        outputs = _play(_make(dict(row)), dict(row), "gold")
        assert outputs[-1]["reward"] == pytest.approx(PAPER.maximum)
