"""A failed call reads the same to the model over stdio, over HTTP and in-process, on every server."""

from __future__ import annotations

import sys
from typing import Any

import gymnasium as gym
import pytest
from mcp import Client, StdioServerParameters

import prove_env  # noqa: F401
from prove_env.serving.http import spawned
from prove_env.registry import get_toolkit, server_names
from prove_env.task import Task

WRONG_TYPE = {"string": 5, "integer": "5", "number": "5", "boolean": "yes", "array": "x", "object": "x"}


def bad_calls(server: str) -> list[tuple[str, dict[str, Any]]]:
    """Calls that fail, derived from the server's schemas alone."""
    specs = get_toolkit(server).specs().values()
    calls: list[tuple[str, dict[str, Any]]] = [("no_such_tool", {}), ("no_such_tool", {"x": 1})]
    calls += [(s.name, {}) for s in specs if s.hidden][:1]  # not served: as unknown as a tool never shown
    reader = next((s for s in specs if not s.hidden and s.read_only and s.required), None)
    assert reader is not None, f"{server} has no read-only tool with a required argument to call wrongly"
    first = reader.required[0]
    kind = reader.parameters["properties"][first].get("type", "string")
    calls += [
        (reader.name, {}),  # a required argument is missing
        (reader.name, {first: WRONG_TYPE.get(kind, 5)}),  # of the wrong type
        (reader.name, {first: WRONG_TYPE.get(kind, 5), "no_such_argument": 1}),  # and an unknown one
    ]
    return calls


async def over_stdio(server: str, calls: list) -> list[tuple[bool, str]]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "prove_env.cli", "serve", server])
    async with Client(params) as client:
        return [_read(await client.call_tool(name, arguments)) for name, arguments in calls]


async def over_http(server: str, calls: list) -> list[tuple[bool, str]]:
    with spawned(server) as (base, _pid):
        async with Client(f"{base}/mcp") as client:
            return [_read(await client.call_tool(name, arguments)) for name, arguments in calls]


def in_process(server: str, calls: list) -> list[tuple[bool, str]]:
    env = gym.make(f"prove/{server}-v0")
    free = Task(id="free", server=server, seed=0, user_turns=["Hello"], gold=[[]], abstain=True)
    env.reset(options={"task": free})
    seen = []
    for name, arguments in calls:
        observation, *_ = env.step({"name": name, "arguments": arguments})
        seen.append((not env.unwrapped.episode.calls[-1].ok, observation))
    env.close()
    return seen


def _read(result: Any) -> tuple[bool, str]:
    return result.is_error, "\n".join(block.text for block in result.content if hasattr(block, "text"))


@pytest.mark.parametrize("server", server_names())
async def test_failed_calls_read_the_same_over_stdio_http_and_in_process(server):
    calls = bad_calls(server)
    local = in_process(server, calls)
    assert all(failed for failed, _ in local), local
    visible = ", ".join(s.name for s in get_toolkit(server).visible_specs())
    assert local[0][1] == f"Error: unknown tool 'no_such_tool'. Available tools: {visible}."
    assert local[3][1].startswith(f"Error executing tool {calls[3][0]}: Invalid arguments: missing required argument")
    assert await over_stdio(server, calls) == local
    assert await over_http(server, calls) == local


def test_a_shown_tool_of_another_server_is_unknown_like_any_other():
    """A distractor (a tool of another server in the task's list) answers as an unknown tool does."""
    own = get_toolkit("banking")
    other = next(s for name in server_names() if name != "banking" for s in get_toolkit(name).visible_specs()
                 if s.name not in own.specs())
    tools = [other.openai_schema(), *(s.openai_schema() for s in own.visible_specs())]
    env = gym.make("prove/banking-v0")
    env.reset(options={"task": Task(id="d", server="banking", seed=0, user_turns=["Hi"], gold=[[]], abstain=True,
                                    tools=tools)})
    observation, *_ = env.step({"name": other.name, "arguments": {}})
    visible = ", ".join(s.name for s in own.visible_specs())
    assert observation == f"Error: unknown tool {other.name!r}. Available tools: {visible}."
    assert not env.unwrapped.episode.calls[-1].ok
    env.close()
