"""Multi-episode HTTP serving: `prove-env serve <server> --transport http` driven by real MCP clients.

Every test starts the server in a subprocess on a free loopback port and talks to it only over
HTTP: the control endpoints with a plain HTTP client, the tools with the official Python SDK in
its default (2026-07-28, sessionless) mode and in legacy mode (initialize handshake, MCP session).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import gymnasium as gym
import httpx2
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

import prove_env  # noqa: F401
from prove_env.serving.http import spawned
from prove_env.policies import GoldPolicy, NoopPolicy
from prove_env.task import fixture_tasks

CLI = [sys.executable, "-m", "prove_env.cli"]
BANKING = fixture_tasks("banking")
WRITING = next(t for t in BANKING if t.writes)  # a task whose gold calls change the world
FILESYSTEM = fixture_tasks("filesystem")


@contextmanager
def episode_server(server: str = "banking", *extra: str) -> Iterator[str]:
    """`prove-env serve <server> --transport http` on a free loopback port; yields its base URL."""
    with spawned(server, *extra) as (base, _pid):
        yield base


@pytest.fixture(scope="module")
def banking() -> Iterator[str]:
    with episode_server("banking") as base:
        yield base


def _create(base: str, body: dict, status: int = 201) -> dict:
    response = httpx2.post(f"{base}/episodes", json=body, timeout=30)
    assert response.status_code == status, response.text
    return response.json()


def _get(base: str, path: str, status: int = 200) -> dict:
    response = httpx2.get(f"{base}{path}", timeout=30)
    assert response.status_code == status, response.text
    return response.json()


def _text(result) -> str:
    return "\n".join(block.text for block in result.content if hasattr(block, "text"))


async def test_create_from_a_task_and_call_its_tools_in_both_client_modes(banking):
    created = _create(banking, {"task": WRITING.model_dump(mode="json")})
    episode_id = created["episode_id"]
    assert created["mcp_url"] == f"{banking}/episodes/{episode_id}/mcp"
    assert created["observation"] == WRITING.user_turns[0]
    assert created["info"]["task_id"] == WRITING.id and created["info"]["server"] == "banking"
    shown = [t["function"]["name"] for t in WRITING.tools]
    assert [t["function"]["name"] for t in created["info"]["tools"]] == shown

    async with Client(created["mcp_url"]) as client:  # the default: auto, 2026-07-28 without a session
        assert client.protocol_version == "2026-07-28"
        listed = (await client.list_tools()).tools
        assert [t.name for t in listed] == shown  # exactly the tools the task shows the agent
        assert all(t.annotations is not None for t in listed)
        first = WRITING.gold_calls[0]
        result = await client.call_tool(first.name, dict(first.arguments))
        assert not result.is_error
    async with Client(created["mcp_url"], mode="legacy") as client:  # initialize handshake, an MCP session
        assert client.protocol_version != "2026-07-28"
        for gold in WRITING.gold_calls[1:]:
            result = await client.call_tool(gold.name, dict(gold.arguments), meta={"prove/call_id": gold.id})
            assert not result.is_error, _text(result)
        result = await client.call_tool("no_such_tool", {})
        assert result.is_error and "unknown tool 'no_such_tool'" in _text(result)

    trajectory = _get(banking, f"/episodes/{episode_id}/trajectory")
    assert [c["name"] for c in trajectory["calls"]] == [g.name for g in WRITING.gold_calls] + ["no_such_tool"]
    assert [c["id"] for c in trajectory["calls"]][1:-1] == [g.id for g in WRITING.gold_calls[1:]]
    assert trajectory["calls"][0]["id"] == "call_1" and all(c["ok"] for c in trajectory["calls"][:-1])
    assert trajectory["world_digest"] == WRITING.gold_digest  # the gold calls' world, on the server
    httpx2.delete(f"{banking}/episodes/{episode_id}")


async def test_gold_calls_earn_the_maximum_reward(banking):
    for task in BANKING:
        created = _create(banking, {"task_id": task.id})
        async with Client(created["mcp_url"]) as client:
            for gold in task.gold_calls:
                assert not (await client.call_tool(gold.name, dict(gold.arguments))).is_error
        reward = _get(banking, f"/episodes/{created['episode_id']}/reward")
        expected = 1.0 if task.abstain else 1.3
        assert reward["total"] == pytest.approx(expected) and reward["success"] is True, (task.id, reward)
        assert reward["reward"]["total"] == reward["total"] and reward["task_id"] == task.id
        assert httpx2.delete(f"{banking}/episodes/{created['episode_id']}").status_code == 200


async def test_episodes_are_isolated(banking):
    one, two = _create(banking, {"seed": 3}), _create(banking, {"seed": 3})
    assert one["episode_id"] != two["episode_id"] and one["info"]["task_id"] == "banking-seed-3"
    async with Client(one["mcp_url"]) as a, Client(two["mcp_url"], mode="legacy") as b:
        before = json.loads(_text(await b.call_tool("get_account", {"account_id": "ACC-0001"})))
        deposit = await a.call_tool("deposit", {"account_id": "ACC-0001", "amount": 125.5})
        assert not deposit.is_error
        seen_by_a = json.loads(_text(await a.call_tool("get_account", {"account_id": "ACC-0001"})))
        seen_by_b = json.loads(_text(await b.call_tool("get_account", {"account_id": "ACC-0001"})))
    assert round(seen_by_a["balance"] - before["balance"], 2) == 125.5
    assert seen_by_b == before  # the write in one episode is invisible in the other
    digests = {_get(banking, f"/episodes/{e['episode_id']}")["world_digest"] for e in (one, two)}
    assert len(digests) == 2
    for e in (one, two):
        httpx2.delete(f"{banking}/episodes/{e['episode_id']}")


async def test_reset_restarts_the_world_and_can_change_the_task(banking):
    created = _create(banking, {"seed": 0})
    episode_id = created["episode_id"]
    start = _get(banking, f"/episodes/{episode_id}")["world_digest"]
    async with Client(created["mcp_url"]) as client:
        assert not (await client.call_tool("deposit", {"account_id": "ACC-0001", "amount": 10.0})).is_error
        assert _get(banking, f"/episodes/{episode_id}")["world_digest"] != start
        again = httpx2.post(f"{banking}/episodes/{episode_id}/reset", json={}).json()
        assert again["episode_id"] == episode_id and again["mcp_url"] == created["mcp_url"]
        assert _get(banking, f"/episodes/{episode_id}/trajectory") == {
            "episode_id": episode_id, "task_id": "banking-seed-0", "calls": [], "answers": [],
            "world_digest": start}
        other = httpx2.post(f"{banking}/episodes/{episode_id}/reset", json={"task_id": WRITING.id}).json()
        assert other["observation"] == WRITING.user_turns[0] and other["info"]["task_id"] == WRITING.id
        # the same client keeps working after a reset: the endpoint is the episode's, not the world's
        gold = WRITING.gold_calls[0]
        assert not (await client.call_tool(gold.name, dict(gold.arguments))).is_error
    assert _get(banking, f"/episodes/{episode_id}")["calls"] == 1
    httpx2.delete(f"{banking}/episodes/{episode_id}")


async def test_delete_then_everything_answers_404(banking):
    created = _create(banking, {"seed": 1})
    episode_id = created["episode_id"]
    deleted = httpx2.delete(f"{banking}/episodes/{episode_id}")
    assert deleted.status_code == 200 and deleted.json() == {"episode_id": episode_id, "closed": True}
    for path in ("", "/reward", "/trajectory"):
        gone = _get(banking, f"/episodes/{episode_id}{path}", status=404)
        assert "closed" in gone["error"] and "deleted" in gone["error"]
    assert httpx2.post(f"{banking}/episodes/{episode_id}/reset", json={}).status_code == 404
    assert httpx2.delete(f"{banking}/episodes/{episode_id}").status_code == 404
    refused = pytest.RaisesExc(MCPError, match="Not Found")
    with pytest.RaisesGroup(refused, flatten_subgroups=True, allow_unwrapped=True):
        async with Client(created["mcp_url"]) as client:
            await client.call_tool("get_account", {"account_id": "ACC-0001"})
    response = httpx2.post(created["mcp_url"], json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                           headers={"Accept": "application/json, text/event-stream"})
    assert response.status_code == 404 and episode_id in response.json()["error"]


def test_unknown_episode_and_bad_requests_are_readable_errors(banking):
    missing = _get(banking, "/episodes/nope/reward", status=404)
    assert missing == {"error": "no episode 'nope' on this server (create one with POST /episodes)", "status": 404}
    bad = httpx2.post(f"{banking}/episodes", content=b'{"seed": 3', headers={"Content-Type": "application/json"})
    assert bad.status_code == 400 and bad.json()["error"].startswith("the request body is not valid JSON")
    assert "a JSON object" in httpx2.post(f"{banking}/episodes", json=[1, 2]).json()["error"]
    assert "unknown fields ['sed']" in _create(banking, {"sed": 3}, status=400)["error"]
    assert "only one of" in _create(banking, {"seed": 3, "task_id": WRITING.id}, status=400)["error"]
    assert "non-negative integer" in _create(banking, {"seed": -1}, status=400)["error"]
    other = fixture_tasks("calendar")[0].model_dump(mode="json")
    assert "is for server 'calendar'" in _create(banking, {"task": other}, status=400)["error"]
    broken = {**WRITING.model_dump(mode="json"), "user_turns": []}
    assert "user_turns" in _create(banking, {"task": broken}, status=400)["error"]
    assert "'reward'" in _create(banking, {"seed": 0, "reward": "fast"}, status=400)["error"]
    assert _get(banking, "/episodes/shared")["shared"] is True
    assert httpx2.delete(f"{banking}/episodes/shared").status_code == 409
    health = _get(banking, "/health")
    assert health["status"] == "ok" and health["server"] == "banking"


async def test_request_size_limit_and_debug_tools():
    with episode_server("filesystem", "--max-request-bytes", "4096", "--debug-tools") as base:
        big = {"task": {**FILESYSTEM[0].model_dump(mode="json"), "metadata": {"pad": "x" * 10_000}}}
        refused = httpx2.post(f"{base}/episodes", json=big)
        assert refused.status_code == 413 and "4096" in refused.json()["error"]
        created = _create(base, {"seed": 0})
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "echo", "arguments": {"text": "x" * 10_000}}}
        response = httpx2.post(created["mcp_url"], json=call,
                               headers={"Accept": "application/json, text/event-stream"})
        assert response.status_code == 413 and response.headers["content-type"] == "application/json"
        error = response.json()["error"]  # a JSON-RPC error that states the limit, not an opaque 413
        assert response.json()["jsonrpc"] == "2.0" and error["code"] == -32600
        assert "4096 bytes" in error["message"] and error["data"] == {"max_request_bytes": 4096}
        async with Client(created["mcp_url"]) as client:  # free episodes show the hidden tools too
            with pytest.raises(MCPError, match="limit of 4096 bytes"):  # what an MCP client shows its user
                await client.call_tool("echo", {"text": "x" * 10_000})
            # the same at /mcp, the shared world's endpoint
            shared = httpx2.post(f"{base}/mcp", json=call, headers={"Accept": "application/json, text/event-stream"})
            assert shared.status_code == 413 and "4096 bytes" in shared.json()["error"]["message"]
            assert _text(await client.call_tool("echo", {"text": "small"})) == "small"
            names = {t.name for t in (await client.list_tools()).tools}
            assert "debug_nodes" in names
            result = await client.call_tool("debug_nodes", {"prefix": "/tmp"})
            assert not result.is_error, _text(result)


def test_requests_for_another_host_are_refused(banking):
    """DNS rebinding protection on a loopback server: control and MCP endpoints alike."""
    episode = _create(banking, {"seed": 0})["episode_id"]
    for method, path in (("GET", "/health"), ("POST", "/episodes"), ("POST", "/mcp"),
                         ("POST", f"/episodes/{episode}/mcp")):
        response = httpx2.request(method, f"{banking}{path}", headers={"Host": "evil.example:80"}, json={})
        assert response.status_code == 421, (method, path, response.text)
    for path in ("/episodes//mcp", f"/episodes/{episode}/x/mcp"):  # not an episode endpoint: no route
        assert httpx2.post(f"{banking}{path}", json={}).status_code == 404, path
    httpx2.delete(f"{banking}/episodes/{episode}")
    response = httpx2.get(f"{banking}/health", headers={"Origin": "http://evil.example"})
    assert response.status_code == 403 and "Origin" in response.json()["error"]


async def test_max_episodes_is_enforced_with_429():
    with episode_server("banking", "--max-episodes", "2") as base:
        first, _second = _create(base, {"seed": 0}), _create(base, {"seed": 1})
        refused = _create(base, {"seed": 2}, status=429)
        assert "at most 2" in refused["error"] and "--max-episodes" in refused["error"]
        async with Client(f"{base}/mcp", mode="legacy") as client:  # a session's world counts as well
            with pytest.raises(Exception, match="too many live episodes"):
                await client.call_tool("get_account", {"account_id": "ACC-0001"})
        httpx2.delete(f"{base}/episodes/{first['episode_id']}")
        assert _create(base, {"seed": 2})["episode_id"]


def test_idle_episodes_are_evicted():
    with episode_server("banking", "--idle-seconds", "1") as base:
        remote = gym.make("prove/banking-v0", server_url=base)
        remote.reset(options={"task": WRITING})
        idle, busy = _create(base, {"seed": 0}), _create(base, {"seed": 0})
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:  # one episode keeps being used, the other does not
            _get(base, f"/episodes/{busy['episode_id']}")
            time.sleep(0.2)
        gone = _get(base, f"/episodes/{idle['episode_id']}", status=404)
        assert "without a request" in gone["error"]
        assert _get(base, f"/episodes/{busy['episode_id']}")["episode_id"] == busy["episode_id"]
        assert _get(base, "/episodes/shared")["shared"] is True  # the shared world is never evicted
        assert _get(base, "/health")["episodes"] == 1
        with pytest.raises(RuntimeError, match="closed after 1 s without a request"):  # the remote env says why
            remote.step({"name": "get_account", "arguments": {"account_id": "ACC-0001"}})
        remote.reset(options={"task": WRITING})  # and a reset starts a new episode
        assert remote.step({"name": "get_account", "arguments": {"account_id": "ACC-0001"}})[4]["calls"][0]["ok"]
        remote.close()


async def test_sessions_at_mcp_get_a_world_each_and_sessionless_clients_share_one(banking):
    deposit = {"account_id": "ACC-0002", "amount": 50.0}
    async with Client(f"{banking}/mcp", mode="legacy") as a, Client(f"{banking}/mcp", mode="legacy") as b:
        before = json.loads(_text(await b.call_tool("get_account", {"account_id": "ACC-0002"})))
        assert not (await a.call_tool("deposit", deposit)).is_error
        after = json.loads(_text(await b.call_tool("get_account", {"account_id": "ACC-0002"})))
        assert after == before  # each MCP session has its own world
        sessions = [e for e in _get(banking, "/episodes")["episodes"] if e["session"]]
        assert len(sessions) == 2 and sorted(e["calls"] for e in sessions) == [1, 2]
    assert not [e for e in _get(banking, "/episodes")["episodes"] if e["session"]]  # closed with their sessions

    async with Client(f"{banking}/mcp") as a:  # 2026-07-28: no session, the shared world
        before = json.loads(_text(await a.call_tool("get_account", {"account_id": "ACC-0002"})))
        assert not (await a.call_tool("deposit", deposit)).is_error
    async with Client(f"{banking}/mcp") as b:
        after = json.loads(_text(await b.call_tool("get_account", {"account_id": "ACC-0002"})))
    assert round(after["balance"] - before["balance"], 2) == 50.0
    assert httpx2.post(f"{banking}/episodes/shared/reset", json={}).status_code == 200


# -- the remote environment --------------------------------------------------------------------


def _play(env, task, policy) -> list:
    """Every (observation, reward, terminated, truncated, info) of one episode, reset included."""
    observation, info = env.reset(options={"task": task})
    policy.start(task, info, 0)
    steps = [(observation, info)]
    done = False
    while not done:
        observation, reward, terminated, truncated, info = env.step(policy.act(observation, info))
        steps.append((observation, reward, terminated, truncated, info))
        done = terminated or truncated
    return steps


def test_remote_env_matches_in_process_step_for_step(banking):
    local = gym.make("prove/banking-v0")
    remote = gym.make("prove/banking-v0", server_url=banking)
    try:
        for task in BANKING:
            for policy in (GoldPolicy(), NoopPolicy()):
                here, there = _play(local, task, policy), _play(remote, task, policy)
                assert there == here, (task.id, policy.name)
            assert here[-1][1] == pytest.approx(1.0 if task.abstain else 0.0)  # noop's reward
        gold = _play(remote, WRITING, GoldPolicy())
        assert gold[-1][1] == pytest.approx(1.3) and gold[-1][4]["success"] is True
        episode_id = remote.unwrapped.episode.episode_id
        assert _get(banking, f"/episodes/{episode_id}/trajectory")["world_digest"] == WRITING.gold_digest
    finally:
        local.close()
        remote.close()
    assert httpx2.get(f"{banking}/episodes/{episode_id}").status_code == 404  # close() deletes the episode


def test_remote_env_judges_read_only_answers_on_their_facts_like_in_process(banking):
    """The answers travel to the server, which scores a read-only task on the facts they state."""
    read_only = next(t for t in BANKING if not t.writes and not t.abstain)
    task = read_only.model_copy(update={"facts": [["Vicki Burgess"]] + [[] for _ in read_only.user_turns[1:]]})
    results = []
    for kwargs in ({}, {"server_url": banking}):
        env = gym.make("prove/banking-v0", **kwargs)
        try:
            gold = _play(env, task, GoldPolicy())
            silent = _play(env, task, NoopPolicy())
            if kwargs:
                episode_id = env.unwrapped.episode.episode_id
                answers = _get(banking, f"/episodes/{episode_id}/trajectory")["answers"]
                assert answers == env.unwrapped.episode.answers
            results.append((gold, silent))
        finally:
            env.close()
    assert results[1] == results[0]
    (gold, silent) = results[0]
    assert gold[-1][4]["success"] is True and silent[-1][4]["success"] is False


def test_remote_env_scores_malformed_and_unknown_calls_like_in_process(banking):
    actions = [
        '<tool_call>{"name": "get_account", "arguments": {"account_id": </tool_call>',
        {"name": "no_such_tool", "arguments": {}},
        {"name": "get_account", "arguments": "not json"},
        [{"name": "get_account", "arguments": {"account_id": "ACC-0001"}}, {"arguments": {"x": 1}}],
        {"id": "mine", "name": "get_account", "arguments": {"account_id": "ACC-9999"}},
        "Done.",
    ]
    results = []
    for kwargs in ({}, {"server_url": banking}):
        env = gym.make("prove/banking-v0", max_steps=20, **kwargs)
        try:
            steps = [env.reset(options={"task": WRITING})]
            steps += [env.step(action) for action in actions]
            steps.append(env.unwrapped.get_reward())
            results.append(steps)
        finally:
            env.close()
    assert results[1] == results[0]
    final = results[0][-2]
    assert final[2] is True and final[4]["reward_breakdown"]["validity"] < 1
    assert [c["id"] for c in final[4]["trajectory"]][-1] == "mine"


async def test_remote_env_async_api(banking):
    remote = gym.make("prove/banking-v0", server_url=banking).unwrapped
    try:
        observation, info = await remote.areset(options={"task": WRITING})
        assert observation == WRITING.user_turns[0] and len(info["tools"]) == len(WRITING.tools)
        for gold in WRITING.gold_calls:
            await remote.astep({"name": gold.name, "arguments": dict(gold.arguments)})
        _, reward, terminated, _, info = await remote.astep("Done.")
        assert terminated and reward == pytest.approx(1.3) and info["success"]
    finally:
        await remote.episode.aclose()


def test_remote_env_refuses_a_server_for_another_toolkit(banking):
    env = gym.make("prove/filesystem-v0", server_url=banking)
    try:
        with pytest.raises(RuntimeError, match="is for server 'filesystem', but this server serves 'banking'"):
            env.reset(options={"task": FILESYSTEM[0]})
    finally:
        env.close()
