"""Plays episodes against a prove-env OpenEnv server with OpenEnv's own clients, unmodified.

Run by tests/test_openenv.py with the Python of a separate virtual environment that holds the `openenv`
package (its MCP stack is older than prove-env's, so the two do not share one) and not prove-env:

    python tests/openenv_client.py PLAN.json

The plan is `{"url": ..., "episodes": [{"reset": {...}, "actions": [...]}, ...]}`, an action being
`{"name", "arguments"}` (with `"mcp": true`: sent by the agent over MCP) or `{"text"}` (an answer). Each
episode runs on its own session with `MCPToolClient` (the WebSocket for reset and step, HTTP `/mcp` for
the agent's `tools/list` and `tools/call`): a reset with the plan's data, `list_tools()` over MCP and as
a step, each call as a typed step (`CallToolAction`) or through `call_tool` (the agent's path: no
reward), each text as an `answer` action, then `state()`. Episodes listed together as
`"interleaved": true` run one step each in turn on concurrent sessions. It prints one JSON object per
episode: every step's reward, done flag and metadata, the tool results, and the state at the end.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Literal

from openenv.core.env_server.mcp_types import CallToolAction, CallToolObservation, ListToolsAction
from openenv.core.env_server.types import Action
from openenv.core.mcp_client import MCPToolClient


class AnswerAction(Action):
    """prove-env's answer to a user turn, as an OpenEnv typed action."""

    type: Literal["answer"] = "answer"
    text: str


class Player:
    def __init__(self, url: str, episode: dict[str, Any]) -> None:
        self.env = MCPToolClient(base_url=url).sync()
        self.env.connect()
        self.plan = episode
        self.actions = list(episode["actions"])
        self.out: dict[str, Any] = {"steps": [], "mcp_results": []}
        first = self.env.reset(**episode["reset"])
        self.out["reset"] = {"reward": first.reward, "done": first.done, "metadata": first.metadata,
                             "text": getattr(first.observation, "text", None)}
        self.out["tools"] = sorted(tool.name for tool in self.env.list_tools())
        listed = self.env.step(ListToolsAction())
        self.out["tools_by_step"] = sorted(tool.name for tool in listed.observation.tools)

    @property
    def finished(self) -> bool:
        return not self.actions

    def advance(self) -> None:
        action = self.actions.pop(0)
        if "text" in action:
            result = self.env.step(AnswerAction(text=action["text"]))
        elif action.get("mcp"):
            self.out["mcp_results"].append(self.env.call_tool(action["name"], **action["arguments"]))
            return
        else:
            result = self.env.step(CallToolAction(tool_name=action["name"], arguments=action["arguments"]))
        step: dict[str, Any] = {"reward": result.reward, "done": result.done, "metadata": result.metadata}
        if isinstance(result.observation, CallToolObservation):
            data = result.observation.result
            step["result"] = data.get("data") if isinstance(data, dict) else data
            step["error"] = None if result.observation.error is None else result.observation.error.model_dump(mode="json")
        self.out["steps"].append(step)

    def finish(self) -> dict[str, Any]:
        state = self.env.state()
        self.out["state"] = {"episode_id": state.episode_id, "step_count": state.step_count}
        self.env.close()
        return self.out


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        plan = json.load(f)
    players = [Player(plan["url"], episode) for episode in plan["episodes"]]
    if plan.get("interleaved"):
        while not all(p.finished for p in players):
            for player in players:
                if not player.finished:
                    player.advance()
    else:
        for player in players:
            while not player.finished:
                player.advance()
    print(json.dumps([player.finish() for player in players]))


if __name__ == "__main__":
    main()
