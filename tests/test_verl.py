"""prove-env in veRL 0.9's multi-turn tool agent loop, driven through veRL's own code.

verl 0.9.1 pins transformers<5.11, which the development environment's TRL cannot run on, so the
integration runs in an environment of its own (tests/isolated_venv.py: torch==2.13.0, the CPU build,
then `prove-env[verl]` from this checkout; made once and cached): tests/drive_verl.py converts the
tasks with `python -m prove_env.integrations.verl`, loads them with veRL's `RLHFDataset`, takes the
config examples/verl/run_grpo.sh trains with (veRL's trainer prints it), calls a trajectory's tools
through the `BaseTool` interface, and plays scripted trajectories, all in one batch, through
`AgentLoopWorker.generate_sequences` and `ProveToolAgentLoop`. What each trajectory should give is
worked out here, through the Gymnasium environment, with the same actions.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
from typing import Any

import pytest

from prove_env.env import ProveEnv
from prove_env.policies import SCRIPTED
from prove_env.registry import get_toolkit, server_names
from prove_env.reward import PAPER
from prove_env.task import Task, dump_tasks, fixture_tasks
from tests.isolated_venv import ROOT, isolated_venv

# The first run makes the virtual environment (minutes); then the driver takes about half a minute.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]

COMPONENTS = ("validity", "coverage", "efficiency", "name", "argument", "state", "success")


def _task(server: str, task_id: str) -> Task:
    return next(t for t in fixture_tasks(server) if t.id == task_id)


def _perturbed_transfer() -> Task:
    """banking-002 shown as synthesized tasks show tools: one schema without its enum list, and two
    calendar tools as distractors."""
    task = _task("banking", "banking-002")
    # copies: a spec's schema is shared by every caller in this process
    tools = [copy.deepcopy(spec.openai_schema()) for spec in get_toolkit("banking").visible_specs()]
    for tool in tools:
        if tool["function"]["name"] == "list_transactions":
            tool["function"]["parameters"]["properties"]["kind"].pop("enum")
    calendar = {s.name: s.openai_schema() for s in get_toolkit("calendar").visible_specs()}
    tools += [calendar["get_current_time"], calendar["list_rooms"]]
    return task.model_copy(update={"id": "banking-002-perturbed", "tools": tools})


def _actions(task: Task, policy: str) -> list[Any]:
    env = ProveEnv(task.server)
    try:
        _, info = env.reset(options={"task": task})
    finally:
        env.close()
    return list(SCRIPTED[policy]().actions(task, info, None))


TASKS = {t.id: t for t in (_task("calendar", "calendar-004"), _perturbed_transfer(), _task("banking", "banking-004"))}


def _deposit(amount: float) -> list[Any]:
    return [{"name": "deposit", "arguments": {"account_id": "ACC-0023", "amount": amount}},
            {"name": "get_balance", "arguments": {"account_id": "ACC-0023"}}, "Done, the money is in."]


RUNS = {
    "calendar-gold": ("calendar-004", _actions(TASKS["calendar-004"], "gold")),
    "calendar-noop": ("calendar-004", _actions(TASKS["calendar-004"], "noop")),
    "transfer-gold": ("banking-002-perturbed", _actions(TASKS["banking-002-perturbed"], "gold")),
    # a hidden tool the task does not show, then arguments the tool refuses
    "stray": ("banking-004", [{"name": "get_customer_pin", "arguments": {"customer_id": "CUS-0011"}},
                              {"name": "deposit", "arguments": {"account_id": "ACC-0023", "amount": "lots"}},
                              "I could not do it."]),
    # two trajectories of one task, at once, writing differently
    "deposit-111": ("banking-004", _deposit(111.0)),
    "deposit-222": ("banking-004", _deposit(222.0)),
}


@pytest.fixture(scope="module")
def driven(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from trl.chat_template_utils import qwen2_5_chat_template  # Qwen2.5's own template, as TRL ships it

    folder = tmp_path_factory.mktemp("verl")
    dump_tasks(TASKS.values(), folder / "tasks.jsonl")
    spec = {"tasks": str(folder / "tasks.jsonl"), "chat_template": qwen2_5_chat_template,
            "launch": str(ROOT / "examples" / "verl" / "run_grpo.sh"),
            "tool_api": {"task": "banking-002-perturbed", "actions": RUNS["transfer-gold"][1][:-1]},
            "runs": [{"name": name, "task": task, "actions": actions} for name, (task, actions) in RUNS.items()]}
    (folder / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    bin_dir = isolated_venv("verl", first=("torch==2.13.0",))
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "VERL_LOGGING_LEVEL": "ERROR"}
    done = subprocess.run([str(bin_dir / "python"), str(ROOT / "tests" / "drive_verl.py"), str(folder / "spec.json"),
                           str(folder)], capture_output=True, text=True, env=env, cwd=folder, timeout=1200)
    assert done.returncode == 0, done.stderr[-6000:]
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    result: dict[str, Any] = {"trajectories": {}}
    for line in lines:
        if "trajectory" in line:
            result["trajectories"][line["trajectory"]["run"]] = line["trajectory"]
        else:
            result.update(line)
    return result


def _play(task: Task, actions: list[Any]) -> dict[str, Any]:
    """The actions through the Gymnasium environment, then "Done." until the episode ends (as the
    scripted server answers once its actions run out)."""
    env = ProveEnv(task.server)
    try:
        _, info = env.reset(options={"task": task})
        played = {"tools": info["tools"], "messages": info["messages"], "tool_results": [],
                  "user_turns": [task.user_turns[0]], "rewards": []}
        queue = list(actions)
        while True:
            observation, reward, terminated, truncated, info = env.step(queue.pop(0) if queue else "Done.")
            if "tool_messages" in info:
                played["tool_results"] += [m["content"] for m in info["tool_messages"]]
                played["rewards"].append(env.get_reward().total)
            elif not (terminated or truncated):
                played["user_turns"].append(observation)
            if terminated or truncated:
                return {**played, "reward": reward, "breakdown": info["reward_breakdown"]}
    finally:
        env.close()


def test_the_command_writes_a_dataset_that_verls_dataset_class_loads(driven):
    dataset = driven["dataset"]
    assert dataset["rows"] == len(TASKS)
    assert "train.parquet (3 rows)" in dataset["command"] and "agent_loop.yaml" in dataset["command"]
    assert dataset["agent_loop"] == [{"name": "prove_tool_agent",
                                      "_target_": "prove_env.integrations.verl.ProveToolAgentLoop",
                                      "reward": "paper", "max_calls": 50}]
    for task_id, item in dataset["items"].items():
        task, expected = TASKS[task_id], _play(TASKS[task_id], [])
        assert item["agent_name"] == "prove_tool_agent" and item["data_source"] == "prove-env"
        assert item["raw_prompt"] == expected["messages"]  # the system prompt and the first user turn
        assert item["tools"] == expected["tools"]
        assert json.loads(item["ground_truth"]) == [[{"name": c.name, "arguments": c.arguments} for c in turn]
                                                    for turn in task.gold]
        assert item["extra_info"]["task_id"] == task_id and item["extra_info"]["server"] == task.server
    # the launch script's config, as veRL's trainer composes it (every key one of veRL's), with the values it sets
    assert dataset["rollout"] == {"prompt_length": 12288, "response_length": 4096, "n": 16, "max_assistant_turns": 10}


def test_tools_called_through_the_base_tool_interface_run_in_the_episode(driven):
    api = driven["tool_api"]
    task = TASKS["banking-002-perturbed"]
    actions = RUNS["transfer-gold"][1][:-1]
    expected = _play(task, actions)
    assert api["schema_names"] == [t["function"]["name"] for t in task.tools]
    assert [r["text"] for r in api["results"]] == expected["tool_results"][: len(actions)]
    assert all(r["created_empty"] and r["released"] and r["step_reward"] == 0.0 and r["metrics"] == {"ok": True}
               for r in api["results"])
    # calc_reward: the trajectory's reward after each call, as the environment scores the calls so far
    assert api["calc_rewards"] == pytest.approx(expected["rewards"][: len(actions)])
    # every tool of every server is a veRL tool as it stands
    assert api["servers"] == {server: len(get_toolkit(server).visible_specs()) for server in server_names()}


def test_each_trajectorys_reward_is_the_environments_for_the_same_actions(driven):
    trajectories = driven["trajectories"]
    assert set(trajectories) == set(RUNS)
    for name, (task_id, actions) in RUNS.items():
        trajectory, expected = trajectories[name], _play(TASKS[task_id], actions)
        assert trajectory["reward"] == pytest.approx(expected["reward"]), name
        assert trajectory["extra"] == pytest.approx({f"prove_{c}": float(expected["breakdown"][c])
                                                     for c in COMPONENTS}), name
        assert trajectory["tool_results"] == expected["tool_results"], name
    for name in ("calendar-gold", "transfer-gold"):
        assert trajectories[name]["reward"] == pytest.approx(PAPER.maximum)
        assert trajectories[name]["extra"]["prove_success"] == 1.0
    assert trajectories["calendar-noop"]["extra"]["prove_success"] == 0.0
    assert trajectories["calendar-noop"]["reward"] < trajectories["calendar-gold"]["reward"]


def test_user_turns_come_one_after_another_and_only_the_models_tokens_are_trained(driven):
    for name, trajectory in driven["trajectories"].items():
        task_id, actions = RUNS[name]
        assert trajectory["user_turns"] == TASKS[task_id].user_turns, name
        # the loss mask covers the model's turns, not the tool results or the later user turns
        assert trajectory["trained_text"] == "".join(text + "<|im_end|>" for text in trajectory["assistant"]), name
    gold = driven["trajectories"]["calendar-gold"]
    assert len(TASKS["calendar-004"].user_turns) == 2 and gold["assistant"][-1] == RUNS["calendar-gold"][1][-1]


def test_a_trajectory_is_shown_exactly_its_tasks_tools(driven):
    for name, trajectory in driven["trajectories"].items():
        assert trajectory["tools"] == _play(TASKS[RUNS[name][0]], [])["tools"], name
    perturbed = {t["function"]["name"]: t["function"] for t in driven["trajectories"]["transfer-gold"]["tools"]}
    assert "enum" not in perturbed["list_transactions"]["parameters"]["properties"]["kind"]
    assert {"get_current_time", "list_rooms"} <= set(perturbed)


def test_calls_veRL_would_answer_itself_are_scored_by_the_episode(driven):
    stray = driven["trajectories"]["stray"]
    expected = _play(TASKS["banking-004"], RUNS["stray"][1])
    assert stray["tool_results"] == expected["tool_results"]
    assert "get_customer_pin" in stray["tool_results"][0] and stray["extra"]["prove_validity"] < 1.0


def test_concurrent_trajectories_of_one_task_each_have_their_own_world(driven):
    trajectories = driven["trajectories"]
    results = {name: trajectories[name]["tool_results"] for name in ("deposit-111", "deposit-222")}
    for name in results:  # each saw exactly what a fresh world gives for its own calls
        assert results[name] == _play(TASKS["banking-004"], RUNS[name][1])["tool_results"]
    assert results["deposit-111"][1] != results["deposit-222"][1]  # the balances differ: no shared writes
