"""`prove-env serve <server> --transport openenv`: OpenEnv's protocol, driven by OpenEnv's own clients.

The openenv package (0.10.0) needs fastmcp 3 and so an mcp older than 2, which prove-env cannot run
on, so its clients run from a virtual environment of their own that holds `openenv` and not prove-env:
made once and reused (tests/isolated_venv.py, `package_venv`). `tests/openenv_client.py` runs there and plays
episodes against a server this process started; `openenv validate` checks the server from there too.
The protocol's edges (errors, limits, sessions over MCP, isolation) are checked from this process with
the `websockets` package (prove-env's `openenv` extra).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import websockets.sync.client as websockets_sync
from websockets.exceptions import InvalidStatus

from prove_env.bench import print_openenv_table, run_openenv_benchmarks, summary
from prove_env.env import ProveEnv
from prove_env.serving.http import spawned
from prove_env.serving.loadgen import run_load
from prove_env.policies import GoldPolicy
from prove_env.reward import PAPER, STATE
from prove_env.task import fixture_tasks
from tests.isolated_venv import package_venv


OPENENV = "openenv==0.10.0"
CLIENT = Path(__file__).with_name("openenv_client.py")
BANKING = {t.id: t for t in fixture_tasks("banking")}
CALENDAR = {t.id: t for t in fixture_tasks("calendar")}


# -- the servers and the openenv environment -------------------------------------------------------


def openenv_python() -> Path:
    """The Python of a virtual environment holding `openenv` (and not prove-env), made once."""
    return package_venv(OPENENV) / "python"


@pytest.fixture(scope="module")
def banking() -> Iterator[str]:
    with spawned("banking", transport="openenv") as (base, _pid):
        yield base


def _ws(base: str) -> str:
    return base.replace("http://", "ws://")


class Socket:
    """A trainer's WebSocket to `/ws`, speaking the protocol's JSON messages."""

    def __init__(self, base: str, query: str = "") -> None:
        self._stack = contextlib.ExitStack()
        self.conn = self._stack.enter_context(websockets_sync.connect(f"{_ws(base)}/ws{query}"))

    def send(self, kind: str, data: Any = None) -> dict[str, Any]:
        message: dict[str, Any] = {"type": kind}
        if data is not None:
            message["data"] = data
        self.conn.send(json.dumps(message))
        return json.loads(self.conn.recv(timeout=30))

    def reset(self, **data: Any) -> dict[str, Any]:
        reply = self.send("reset", data)
        assert reply["type"] == "observation", reply
        return reply["data"]

    def step(self, action: dict[str, Any]) -> dict[str, Any]:
        reply = self.send("step", action)
        assert reply["type"] == "observation", reply
        return reply["data"]

    def call(self, name: str, **arguments: Any) -> dict[str, Any]:
        return self.step({"type": "call_tool", "tool_name": name, "arguments": arguments})

    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> Socket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _rpc(base: str, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    response = httpx2.post(f"{base}/mcp", json={"jsonrpc": "2.0", "id": 7, "method": method, "params": params or {}},
                           timeout=30)
    assert response.status_code == 200
    body = response.json()
    assert body["jsonrpc"] == "2.0" and body["id"] == 7
    return body


def _gold_actions(task) -> list[dict[str, Any]]:
    """The reference policy's actions for `task`, as the client script takes them."""
    policy = GoldPolicy()
    policy.start(task, {}, 0)
    actions: list[dict[str, Any]] = []
    while sum("text" in a for a in actions) < len(task.user_turns):
        action = policy.act("", {})
        actions.append({"name": action["name"], "arguments": action["arguments"]} if isinstance(action, dict)
                       else {"text": action})
    return actions


def _in_process(task, actions: list[dict[str, Any]]) -> tuple[list[str], dict[str, Any]]:
    """The same actions through the in-process environment: its observations and the final breakdown."""
    env = ProveEnv(task.server, tasks=[task])
    try:
        env.reset(options={"task": task})
        observations, info = [], {}
        for action in actions:
            step = {"name": action["name"], "arguments": action["arguments"]} if "name" in action else \
                {"role": "assistant", "content": action["text"], "tool_calls": []}
            observation, _, _, _, info = env.step(step)
            observations.append(observation)
        return observations, info["reward_breakdown"]
    finally:
        env.close()


# -- OpenEnv's own clients ---------------------------------------------------------------------------


@pytest.mark.slow
def test_openenv_clients_play_tasks_to_their_reward(banking: str, tmp_path: Path) -> None:
    """Three sessions at once with `MCPToolClient`: the reference calls (one of them sent by the
    agent over MCP) reach the maximum reward with success; wrong calls do not succeed; a task sent
    as an object plays on another server. Every tool result and reward is the in-process one."""
    python = openenv_python()
    writing = BANKING["banking-002"]
    gold = _gold_actions(writing)
    gold[1]["mcp"] = True  # the agent's own call: a step of the episode, without a reward
    wrong = [gold[0], {"name": "get_account", "arguments": {"account_id": "ACC-0035"}},
             {"name": "no_such_tool", "arguments": {}}, {"text": "Done."}]
    two_turns = CALENDAR["calendar-007"]
    plan = {"url": banking, "interleaved": True, "episodes": [
        {"reset": {"task_id": writing.id}, "actions": gold},
        {"reset": {"task_id": writing.id, "episode_id": "wrong-1"}, "actions": wrong},
        {"reset": {"task": json.loads(two_turns.to_json())}, "actions": _gold_actions(two_turns)},
    ]}
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    done = subprocess.run([str(python), str(CLIENT), str(tmp_path / "plan.json")], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    played = json.loads(done.stdout)

    for outcome, (task, actions) in zip(played, [(writing, gold), (writing, wrong), (two_turns, _gold_actions(two_turns))],
                                        strict=True):
        shown = sorted(t["function"]["name"] for t in task.tools)
        assert outcome["tools"] == shown and outcome["tools_by_step"] == shown
        assert outcome["reset"]["reward"] is None and outcome["reset"]["done"] is False
        assert outcome["reset"]["text"] == task.user_turns[0]
        assert outcome["reset"]["metadata"]["task_id"] == task.id
        steps = outcome["steps"]
        assert all(s["reward"] == 0.0 and s["done"] is False for s in steps[:-1])
        assert steps[-1]["done"] is True
        observations, breakdown = _in_process(task, actions)
        by_step = [o for o, a in zip(observations, actions, strict=True) if "name" in a and not a.get("mcp")]
        assert [s["result"] for s in steps if "result" in s] == by_step
        assert outcome["mcp_results"] == [o for o, a in zip(observations, actions, strict=True) if a.get("mcp")]
        assert steps[-1]["metadata"]["reward_breakdown"] == breakdown
        assert steps[-1]["reward"] == breakdown["total"]
        assert outcome["state"]["step_count"] == len(actions)

    gold_run, wrong_run, calendar_run = played
    for run in (gold_run, calendar_run):
        assert run["steps"][-1]["reward"] == pytest.approx(PAPER.maximum)
        assert run["steps"][-1]["metadata"]["success"] is True
    assert wrong_run["steps"][-1]["metadata"]["success"] is False
    assert wrong_run["steps"][-1]["reward"] < PAPER.maximum
    assert wrong_run["state"]["episode_id"] == "wrong-1"
    assert wrong_run["steps"][2]["error"]["error_type"] == "tool_not_found"
    assert calendar_run["reset"]["metadata"]["server"] == "calendar"


@pytest.mark.slow
def test_openenv_validate_accepts_the_running_server(banking: str) -> None:
    openenv = openenv_python().with_name("openenv")
    done = subprocess.run([str(openenv), "validate", "--url", banking, "--json"], capture_output=True, text=True,
                          timeout=120)
    report = json.loads(done.stdout)
    assert report["passed"], [c for c in report["criteria"] if not c["passed"]]
    assert report["mode"] == "production"  # the control messages are on the WebSocket only, never HTTP routes


@pytest.mark.slow
def test_openenv_validate_accepts_the_manifest(tmp_path: Path) -> None:
    """openenv.yaml, as `openenv validate` reads a package's (its static level: the manifest)."""
    shutil.copy(Path(__file__).resolve().parents[1] / "openenv.yaml", tmp_path / "openenv.yaml")
    openenv = openenv_python().with_name("openenv")
    done = subprocess.run([str(openenv), "validate", "--level", "static", "--skip-build", "--json", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    report = json.loads(done.stdout)
    assert report["verdict"] == "pass", report["results"]


# -- the protocol, from this process -------------------------------------------------------------------


def test_info_endpoints(banking: str) -> None:
    health = httpx2.get(f"{banking}/health", timeout=30).json()
    assert health["status"] == "healthy" and health["server"] == "banking"
    metadata = httpx2.get(f"{banking}/metadata", timeout=30).json()
    assert metadata["name"] == "prove-env-banking" and "bank" in metadata["description"]
    schema = httpx2.get(f"{banking}/schema", timeout=30).json()
    assert set(schema) == {"action", "observation", "reset_observation", "state"}
    assert set(schema["action"]["discriminator"]["mapping"]) == {"call_tool", "answer", "list_tools"}
    paths = httpx2.get(f"{banking}/openapi.json", timeout=30).json()["paths"]
    assert set(paths) == {"/health", "/metadata", "/schema", "/mcp"}


def test_an_episode_and_its_errors(banking: str) -> None:
    task = BANKING["banking-002"]
    with Socket(banking) as ws:
        assert ws.send("step", {"type": "call_tool", "tool_name": "find_customers"})["data"]["code"] == "EXECUTION_ERROR"
        assert ws.send("hello")["data"]["code"] == "UNKNOWN_TYPE"
        ws.conn.send("{not json")
        assert json.loads(ws.conn.recv(timeout=30))["data"]["code"] == "INVALID_JSON"
        assert ws.send("reset", {"task_id": "banking-999"})["data"]["code"] == "EXECUTION_ERROR"
        assert ws.send("reset", {"tasks": "banking-002"})["data"]["code"] == "VALIDATION_ERROR"
        assert ws.send("reset", {"server": "no_such_server"})["data"]["code"] == "VALIDATION_ERROR"

        first = ws.reset(task_id=task.id)
        assert first["observation"]["text"] == task.user_turns[0] and first["done"] is False
        assert ws.send("step", {"type": "call_tool"})["data"]["code"] == "VALIDATION_ERROR"
        assert ws.send("step", {"type": "dance"})["data"]["code"] == "VALIDATION_ERROR"
        bad = ws.call("transfer", amount="lots")
        assert bad["observation"]["result"]["is_error"] and bad["observation"]["error"]["error_type"] == "execution_error"
        unreadable = ws.step({"type": "call_tool", "tool_name": "find_customers", "arguments": "{name: "})
        assert "not valid JSON" in unreadable["observation"]["result"]["data"]
        state = ws.send("state")["data"]
        assert state["task_id"] == task.id and state["calls"] == 2 and state["step_count"] == 2 and not state["done"]
        end = ws.step({"type": "answer", "text": "I could not do it."})
        assert end["done"] and end["metadata"]["success"] is False and end["observation"]["text"] == ""
        assert ws.send("state")["data"]["success"] is False
        assert "ended" in ws.send("step", {"type": "answer", "text": "again"})["data"]["message"]
        assert ws.step({"type": "list_tools"})["observation"]["tools"]  # listing needs no live episode

        again = ws.reset(task_id=task.id)  # a fresh world, an empty record
        assert again["metadata"]["episode_id"] != end["metadata"]["episode_id"]
        assert ws.send("state")["data"]["calls"] == 0


def test_reset_options_pick_the_task(banking: str) -> None:
    with Socket(banking) as one, Socket(banking) as two:
        drawn = {one.reset(seed=5)["metadata"]["task_id"], two.reset(seed=5)["metadata"]["task_id"]}
        assert len(drawn) == 1 and drawn < set(BANKING)
        other = CALENDAR["calendar-002"]
        switched = one.reset(task=json.loads(other.to_json()), reward="state")
        assert switched["metadata"]["server"] == "calendar" and switched["metadata"]["task_id"] == other.id
        for action in _gold_actions(other):
            last = one.call(action["name"], **action["arguments"]) if "name" in action else \
                one.step({"type": "answer", "text": action["text"]})
        assert last["done"] and last["reward"] == pytest.approx(STATE.maximum)
        assert two.send("reset", {"server": "banking", "task": json.loads(other.to_json())})["data"]["code"] == \
            "VALIDATION_ERROR"


def test_sessions_are_isolated(banking: str) -> None:
    """A write in one session's world is not in another's, though both play the same task."""
    task = BANKING["banking-002"]
    transfer = next(g for g in task.gold_calls if g.name == "transfer")
    account = transfer.arguments["from_account_id"]
    with Socket(banking) as writer, Socket(banking) as reader:
        writer.reset(task_id=task.id)
        reader.reset(task_id=task.id)
        before = reader.call("get_balance", account_id=account)["observation"]["result"]["data"]
        assert not writer.call("transfer", **transfer.arguments)["observation"]["result"]["is_error"]
        assert writer.call("get_balance", account_id=account)["observation"]["result"]["data"] != before
        assert reader.call("get_balance", account_id=account)["observation"]["result"]["data"] == before


def test_the_agents_tools_over_mcp(banking: str) -> None:
    """The agent's side: tools/list and tools/call at /mcp, on a session made there and reset by
    the trainer over /ws?session_id=...; the control messages are never tools."""
    assert _rpc(banking, "tools/call", {"name": "get_balance", "arguments": {}})["error"]["code"] == -32602
    assert _rpc(banking, "initialize")["error"]["code"] == -32601
    assert "error" in httpx2.post(f"{banking}/mcp", json={}, timeout=30).json()
    session = _rpc(banking, "openenv/session/create")["result"]["session_id"]
    task = BANKING["banking-003"]
    with Socket(banking, f"?session_id={session}") as trainer:
        trainer.reset(task_id=task.id)
        listed = _rpc(banking, "tools/list", {"session_id": session})["result"]["tools"]
        assert sorted(t["name"] for t in listed) == sorted(t["function"]["name"] for t in task.tools)
        assert not {"reset", "step", "state", "close"} & {t["name"] for t in listed}
        first = task.gold_calls[0]
        result = _rpc(banking, "tools/call", {"session_id": session, "name": first.name,
                                              "arguments": first.arguments})["result"]
        assert not result["is_error"] and result["content"][0]["text"] == result["data"]
        assert "reward" not in result
        assert trainer.send("state")["data"]["calls"] == 1
        closing = _rpc(banking, "openenv/session/close", {"session_id": session})["result"]
        assert closing == {"session_id": session, "closed": False, "closing": True}  # a socket is attached
    gone = _rpc(banking, "tools/list", {"session_id": session})
    assert "is closed" in gone["error"]["message"]


def test_loopback_origins_only(banking: str) -> None:
    with pytest.raises(InvalidStatus, match="403"):
        websockets_sync.connect(f"{_ws(banking)}/ws", origin="http://evil.example")
    assert httpx2.get(f"{banking}/health", headers={"Host": "evil.example"}, timeout=30).status_code == 403


def test_session_limit() -> None:
    with spawned("banking", "--max-episodes", "1", transport="openenv") as (base, _pid):
        with Socket(base) as first:
            first.reset(task_id="banking-001")
            with Socket(base) as second:
                refused = json.loads(second.conn.recv(timeout=30))
                assert refused["type"] == "error" and refused["data"]["code"] == "CAPACITY_REACHED"
            assert _rpc(base, "openenv/session/create")["error"]["data"]["max_sessions"] == 1


def test_cli_refuses_world_options() -> None:
    done = subprocess.run([sys.executable, "-m", "prove_env.cli", "serve", "banking", "--transport", "openenv",
                           "--debug-tools", "--port", "1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "do not apply to --transport openenv" in done.stderr


def test_load_generator_drives_sessions() -> None:
    """The load generator's OpenEnv mode: sessions playing whole episodes, every read checked."""
    with spawned("filesystem", transport="openenv") as (base, pid):
        (result,) = run_load(base, transport="openenv", episodes=8, rounds=1, seconds=1.0, warmup=0.2,
                             server_pid=pid)
    assert result.transport == "openenv" and result.episodes == 8 and result.calls > 0
    assert result.server_rss_mb is not None and result.server_peak_mb >= result.server_rss_mb


def test_bench_section(capsys: pytest.CaptureFixture[str]) -> None:
    """`prove-env bench --openenv N`: the section's figures, its table and its summary row (whose
    verdict counts the sessions: 16 are not the target's 4,096)."""
    results = run_openenv_benchmarks(sessions=16, seconds=1.0)
    paced = results["offered 1000 steps/s"]
    assert results["sessions"] == paced["episodes"] == 16 and paced["transport"] == "openenv"
    assert paced["calls"] > 0 and paced["server_rss_mb"] > 0
    assert results["load_average_before"] is not None and results["load_average_after"] is not None
    (row,) = [r for r in summary({"servers": [], "openenv": results}) if r["target"].startswith("openenv")]
    assert row["met"] is False and "16 sessions all answered" in row["measured"]
    print_openenv_table(results)
    out = capsys.readouterr().out
    assert "16 live sessions" in out and "load average" in out and "offered 1000 steps/s" in out
