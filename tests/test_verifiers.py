"""prove-env as a verifiers 0.4 environment, driven through verifiers' own rollout code.

verifiers 0.4.0 pins mcp==2.0.0, which the development environment does not run, so the rollouts
run in an environment of its own (tests/isolated_venv.py, `prove-env[verifiers]` from this
checkout, made once and cached): tests/drive_verifiers.py loads the environment, serves a scripted
policy as the OpenAI-compatible endpoint verifiers' clients talk to, and plays each rollout with
verifiers' `null` harness, per-rollout tool server, interception and scoring. What each rollout
should give is worked out here, through the Gymnasium environment, with the same scripted policy.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess

import pytest

from prove_env.env import ProveEnv
from prove_env.evaluate import run_episode
from prove_env.policies import SCRIPTED
from prove_env.registry import get_toolkit
from prove_env.reward import PAPER
from prove_env.task import Task, dump_tasks, fixture_tasks
from tests.isolated_venv import ROOT, isolated_venv

# The first run makes the virtual environment (minutes); then each rollout starts its own processes.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]


def _task(server: str, task_id: str) -> Task:
    return next(t for t in fixture_tasks(server) if t.id == task_id)


def _perturbed_transfer() -> Task:
    """banking-002 (look up a customer, her accounts, move money) shown as synthesized tasks show tools:
    one schema without its enum list, and two calendar tools as distractors."""
    task = _task("banking", "banking-002")
    # copies: a spec's schema is shared by every caller in this process
    tools = [copy.deepcopy(spec.openai_schema()) for spec in get_toolkit("banking").visible_specs()]
    for tool in tools:
        if tool["function"]["name"] == "list_transactions":
            tool["function"]["parameters"]["properties"]["kind"].pop("enum")
    calendar = {s.name: s.openai_schema() for s in get_toolkit("calendar").visible_specs()}
    tools += [calendar["get_current_time"], calendar["list_rooms"]]
    return task.model_copy(update={"id": "banking-002-perturbed", "tools": tools})


RUNS = [("calendar-004", "gold"), ("calendar-004", "noop"), ("banking-002-perturbed", "gold")]


@pytest.fixture(scope="module")
def rollouts(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Task], dict[tuple[str, str], dict]]:
    tasks = {t.id: t for t in (_task("calendar", "calendar-004"), _perturbed_transfer())}
    path = tmp_path_factory.mktemp("verifiers") / "tasks.jsonl"
    dump_tasks(tasks.values(), path)
    bin_dir = isolated_venv("verifiers")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}  # the harness finds uv there
    done = subprocess.run([str(bin_dir / "python"), str(ROOT / "tests" / "drive_verifiers.py"), str(path),
                           *(f"{task}={policy}" for task, policy in RUNS)],
                          capture_output=True, text=True, env=env, cwd=path.parent, timeout=1200)
    assert done.returncode == 0, done.stderr[-4000:]
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return tasks, {(r["task"], r["policy"]): r for r in results}


def _expected(task: Task, policy: str) -> dict:
    """The same scripted policy through the Gymnasium environment: reward, success and tool outputs."""
    env = ProveEnv(task.server)
    try:
        return run_episode(env, SCRIPTED[policy](), task, 0)
    finally:
        env.close()


def test_every_rollout_completes_and_is_scored(rollouts):
    _, results = rollouts
    assert set(results) == set(RUNS)
    for result in results.values():
        assert result["ok"] and not result["errors"], result["errors"]
        assert result["rewards"] == {"prove_reward": result["reward"]}
        assert set(result["metrics"]) == {"validity", "coverage", "efficiency", "name", "argument", "state",
                                          "success"}


def test_gold_earns_the_maximum_with_success_through_both_user_turns(rollouts):
    tasks, results = rollouts
    for task_id in ("calendar-004", "banking-002-perturbed"):
        task, result = tasks[task_id], results[(task_id, "gold")]
        expected = _expected(task, "gold")
        assert expected["success"] and expected["reward"] == pytest.approx(PAPER.maximum)
        assert result["reward"] == pytest.approx(PAPER.maximum)
        assert result["metrics"]["success"] == 1.0
        # the user's turns came one after the other, each after the agent answered the one before
        assert result["user_messages"] == task.user_turns
        # the model read what the world answered: the environment's own tool messages, call by call
        assert result["tool_results"] == [call["output"] for call in expected["calls"]]


def test_a_policy_that_does_nothing_scores_lower_and_fails(rollouts):
    tasks, results = rollouts
    result = results[("calendar-004", "noop")]
    expected = _expected(tasks["calendar-004"], "noop")
    assert not expected["success"]
    assert result["metrics"]["success"] == 0.0
    assert result["reward"] == pytest.approx(expected["reward"])
    assert result["reward"] < results[("calendar-004", "gold")]["reward"]
    assert result["tool_results"] == []


def test_the_agent_is_shown_exactly_the_tools_the_task_shows(rollouts):
    tasks, results = rollouts
    for task_id in ("calendar-004", "banking-002-perturbed"):
        task = tasks[task_id]
        shown = {t["function"]["name"]: t["function"]["parameters"]
                 for t in (task.tools or [s.openai_schema() for s in get_toolkit(task.server).visible_specs()])}
        assert results[(task_id, "gold")]["tools"] == shown
    perturbed = results[("banking-002-perturbed", "gold")]["tools"]
    assert "enum" not in perturbed["list_transactions"]["properties"]["kind"]
    assert {"get_current_time", "list_rooms"} <= set(perturbed)
