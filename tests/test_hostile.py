"""Hostile model output through the action parser and `env.step`, and the per-episode limits.

Whatever a policy emits, the environment never raises: the call is recorded, answered with an
error the model can read, and scored as invalid; the world stays intact.
"""

from __future__ import annotations

import json
import os

import gymnasium as gym
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import prove_env  # noqa: F401
from prove_env.registry import server_names
from prove_env.task import fixture_tasks

EXAMPLES = int(os.environ.get("PROVE_FUZZ_EXAMPLES", "40"))
INJECTIONS = [
    "'; DROP TABLE accounts; --", "\" OR \"1\"=\"1", "1; DELETE FROM nodes", "../../../../etc/shadow", "/etc/passwd\x00.txt",
    "$(rm -rf /)", "`reboot`", "{{7*7}}", "<script>alert(1)</script>", "%00", "\u202e\u2066", "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
]
TOTALS = {"actions": 0, "calls": 0}


def _task(server):
    return next(t for t in fixture_tasks(server) if not t.abstain)


def _tool_names(server):
    return [t["function"]["name"] for t in gym.make(f"prove/{server}-v0").unwrapped.tool_schemas() or []] or ["x"]


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=40),
                    st.sampled_from(INJECTIONS))
json_values = st.recursive(scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                           max_leaves=12)


def hostile_actions(names):
    name = st.one_of(st.sampled_from(names), st.text(max_size=20), st.sampled_from(INJECTIONS))
    arguments = st.one_of(json_values, st.dictionaries(st.text(max_size=12), json_values, max_size=5),
                          st.text(max_size=60), st.sampled_from(["{", '{"a":', "[]", "null", '{"x": NaN}']))
    call = st.fixed_dictionaries({"name": name, "arguments": arguments})
    as_text = call.map(lambda c: f"<tool_call>{json.dumps(c, default=str)}</tool_call>")
    truncated = as_text.flatmap(lambda t: st.integers(0, len(t)).map(lambda n: t[:n]))
    nested = call.map(lambda c: {"type": "function", "function": {"function": c}})
    openai = call.map(lambda c: {"type": "function", "function": {"name": c["name"], "arguments": json.dumps(c["arguments"], default=str)}})
    return st.one_of(call, as_text, truncated, nested, openai, json_values, st.lists(call, max_size=3),
                     st.text(max_size=200), st.binary(max_size=60),
                     st.sampled_from(INJECTIONS).map(lambda s: f"<tool_call>{s}</tool_call>"))


@pytest.mark.parametrize("server", server_names())
def test_hostile_actions_never_raise(server):
    env = gym.make(f"prove/{server}-v0", max_steps=10_000, max_calls=10_000)
    task = _task(server)
    env.reset(options={"task": task})
    names = [t["function"]["name"] for t in env.unwrapped.tool_schemas()]
    inner = env.unwrapped

    @settings(max_examples=EXAMPLES * 5, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(hostile_actions(names))
    def one(action):
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            assert "reward_breakdown" in info
            env.reset(options={"task": task})
        TOTALS["actions"] += 1
        assert isinstance(obs, str) and env.observation_space.contains(obs)
        assert isinstance(reward, float)
        TOTALS["calls"] += len(info.get("calls", []))
        for record in info.get("calls", []):
            if not record["ok"]:
                assert record["output"].startswith("Error"), record
        assert not inner.episode.world.problems()
        assert not inner.episode.toolkit(inner.episode.world).invariants()

    one()
    env.close()


def test_injection_strings_reach_tools_as_plain_data():
    env = gym.make("prove/banking-v0", max_steps=100)
    env.reset(options={"task": _task("banking")})
    start = env.unwrapped.episode.world.digest()
    for text in INJECTIONS:
        obs, *_ = env.step({"name": "find_customers", "arguments": {"name": text}})
        assert obs == "[]" or obs.startswith("Error"), obs
        obs, *_ = env.step({"name": "get_account", "arguments": {"account_id": text}})
        assert "not found" in obs
    assert env.unwrapped.episode.world.digest() == start


def test_enormous_arguments_are_refused_readably():
    env = gym.make("prove/filesystem-v0", max_steps=100)
    env.reset(options={"task": _task("filesystem")})
    start = env.unwrapped.episode.world.digest()
    obs, *_, info = env.step({"name": "write_file", "arguments": {"path": "big.txt", "content": "x" * 1_000_000}})
    assert "Arguments too large" in obs and env.unwrapped.episode.world.digest() == start
    obs, *_, info = env.step('<tool_call>{"name": "cat", "arguments": "' + "y" * 200_000 + "</tool_call>")
    assert obs.startswith("Error") and len(info["calls"][0]["arguments"]) < 3_000


def test_results_are_bounded_with_a_visible_marker():
    env = gym.make("prove/filesystem-v0", max_steps=100)
    env.reset(options={"task": _task("filesystem")})
    env.step({"name": "write_file", "arguments": {"path": "a.txt", "content": "z" * 60_000}})
    env.step({"name": "append_file", "arguments": {"path": "a.txt", "content": "z" * 60_000}})
    obs, *_ = env.step({"name": "cat", "arguments": {"path": "a.txt"}})
    assert "more characters truncated]" in obs and len(obs) <= env.observation_space.max_length


def test_call_limit_truncates_the_episode():
    env = gym.make("prove/calendar-v0", max_steps=100, max_calls=5)
    env.reset(options={"task": _task("calendar")})
    call = {"name": "get_current_time", "arguments": {}}
    for _ in range(2):
        *_, truncated, info = env.step([call, call])
        assert not truncated
    obs, reward, terminated, truncated, info = env.step([call, call])
    assert truncated and not terminated and "limit of 5 tool calls" in obs
    assert [c["ok"] for c in info["trajectory"]] == [True] * 5 + [False]


def teardown_module(module):
    print(f"\nhostile: {TOTALS}")
