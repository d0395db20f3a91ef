"""Episodes on a `prove-env serve <server> --transport http` server, for `ProveEnv(server_url=...)`.

`RemoteEpisode` has the interface of `Episode` (`begin`, `call`, `score`, `tools`, `calls`), so the
environment keeps one step logic: the episode is created and reset with the server's control
endpoints, every tool call goes through MCP to the episode's own endpoint
(`/episodes/<id>/mcp`, with the official `mcp.Client`), and the reward is the server's. Since
the server runs each call through `Episode.call` too, observations, records and rewards are the
same as in-process.

A remote episode is driven from one event loop (the synchronous `reset`/`step` use the private
loop of `prove_env.runtime`; async callers use theirs), like an in-process one.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import httpx2
from mcp import Client
from mcp.shared.exceptions import MCPError

from prove_env.actions import ParsedCall
from prove_env.episode import _RAW_ARGUMENTS_KEPT, CallRecord
from prove_env.mcp_server import CALL_ID_META, ToolClient
from prove_env.registry import get_toolkit
from prove_env.reward import PAPER, RewardBreakdown, RewardConfig
from prove_env.task import Task
from prove_env.toolkit import Toolkit
from prove_env.world import World

__all__ = ["RemoteEpisode", "RemoteError"]


class RemoteError(RuntimeError):
    """The episode server refused a request or could not be reached."""


class _HttpToolClient(ToolClient):
    """`ToolClient` over streamable HTTP: one `mcp.Client` session, owned by one task."""

    def __init__(self, url: str, timeout: float) -> None:
        super().__init__(url)  # type: ignore[arg-type]
        self._timeout = timeout

    async def _own(self, ready: Any, stop: Any) -> None:
        try:
            async with Client(self._server, read_timeout_seconds=self._timeout) as client:  # type: ignore[arg-type]
                ready.set_result(client)
                await stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc)
                return
            raise

    async def call_with_id(self, name: str, arguments: dict[str, Any], call_id: str) -> Any:
        if self._client is None:
            raise RuntimeError("the MCP client is closed")
        return await self._client.call_tool(name, arguments, meta={CALL_ID_META: call_id})


class RemoteEpisode:
    """One episode on an episode server, with `Episode`'s interface."""

    def __init__(self, server_url: str, server: str | type[Toolkit], reward: RewardConfig = PAPER, *,
                 timeout: float = 60.0) -> None:
        if not server_url.startswith(("http://", "https://")):
            raise ValueError(f"server_url must be an http(s) URL such as http://127.0.0.1:8000, got {server_url!r}")
        self.base_url = server_url.rstrip("/")
        self.toolkit = get_toolkit(server) if isinstance(server, str) else server
        self.reward_config = reward
        self.timeout = timeout
        self.episode_id: str | None = None
        self.mcp_url: str | None = None
        self.task: Task | None = None
        self.tools: list[dict[str, Any]] = []
        self.schemas: dict[str, dict[str, Any]] = {}
        self.calls: list[CallRecord] = []
        self.answers: list[str] = []
        self._answers_sent = 0
        self._client: _HttpToolClient | None = None

    @property
    def world(self) -> World:
        raise RuntimeError(
            "a remote episode's world lives on the server: see GET "
            f"{self.base_url}/episodes/{self.episode_id}/trajectory for its calls and world digest"
        )

    async def begin(self, task: Task) -> None:
        """Start `task` on a fresh world on the server (a new episode, or a reset of this one)."""
        if task.server != self.toolkit.name:
            raise ValueError(f"task {task.id!r} is for server {task.server!r}, not {self.toolkit.name!r}")
        body = {"task": task.model_dump(mode="json", exclude_none=True), "reward": asdict(self.reward_config)}
        data = None
        if self.episode_id is not None:
            data = await self._request("POST", f"/episodes/{self.episode_id}/reset", body, missing_ok=True)
        if data is None:
            data = await self._request("POST", "/episodes", body)
        served = data["info"]["server"]
        if served != self.toolkit.name:
            await self._request("DELETE", f"/episodes/{data['episode_id']}", missing_ok=True)
            raise RemoteError(f"{self.base_url} serves {served!r}, not {self.toolkit.name!r}")
        if data["mcp_url"] != self.mcp_url and self._client is not None:
            await self._client.aclose()
            self._client = None
        self.episode_id, self.mcp_url = data["episode_id"], data["mcp_url"]
        self.task = task
        self.tools = data["info"]["tools"]
        self.schemas = {t["function"]["name"]: t["function"].get("parameters", {}) for t in self.tools}
        self.calls = []
        self.answers = []
        self._answers_sent = 0
        if self._client is None:
            self._client = _HttpToolClient(self.mcp_url, self.timeout)
        await self._client.aopen()

    async def call(self, parsed: ParsedCall) -> CallRecord:
        """Execute one parsed call on the server and record it. Never raises on bad calls."""
        episode_id = self._episode_id()
        call_id = parsed.id or f"call_{len(self.calls) + 1}"
        if parsed.error is None and isinstance(parsed.name, str) and isinstance(parsed.arguments, dict):
            assert self._client is not None
            try:
                result = await self._client.call_with_id(parsed.name, parsed.arguments, call_id)
            except MCPError as exc:
                raise await self._why(exc) from exc
            output = "\n".join(block.text for block in result.content if hasattr(block, "text"))
            record = CallRecord(call_id, parsed.name, parsed.arguments, not result.is_error, output)
        else:
            # An unreadable call cannot travel as MCP tools/call; the server records it for the reward.
            error = parsed.error or "The tool call is not a name with an object of arguments."
            body = {"id": call_id, "name": parsed.name, "arguments": _jsonable(parsed.arguments), "error": error}
            data = await self._request("POST", f"/episodes/{episode_id}/calls", body)
            arguments = parsed.arguments
            if isinstance(arguments, str) and len(arguments) > _RAW_ARGUMENTS_KEPT:
                arguments = data["arguments"]
            record = CallRecord(data["id"], data["name"], arguments, data["ok"], data["output"])
        self.calls.append(record)
        return record

    def answer(self, text: str) -> None:
        """Record the assistant's answer to a user turn (sent before the next reward or trajectory request)."""
        self.answers.append(text)

    async def score(self) -> RewardBreakdown:
        """The server's reward of the calls made and the answers given so far."""
        await self._send_answers()
        data = await self._request("GET", f"/episodes/{self._episode_id()}/reward")
        return RewardBreakdown(**data["reward"])

    async def trajectory(self) -> dict[str, Any]:
        """The server's record of this episode: its calls, its answers and its world digest."""
        await self._send_answers()
        return await self._request("GET", f"/episodes/{self._episode_id()}/trajectory")

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()
        episode_id, self.episode_id = self.episode_id, None
        if episode_id is not None:
            try:
                await self._request("DELETE", f"/episodes/{episode_id}", missing_ok=True)
            except RemoteError:
                pass

    def close(self) -> None:
        """Close from synchronous code. Idempotent; a server that is gone is not an error."""
        client, self._client = self._client, None
        if client is not None:
            client.close()
        episode_id, self.episode_id = self.episode_id, None
        if episode_id is not None:
            try:
                httpx2.delete(f"{self.base_url}/episodes/{episode_id}", timeout=min(self.timeout, 10.0))
            except httpx2.HTTPError:
                pass

    # -- internals --------------------------------------------------------------------------------

    async def _why(self, exc: MCPError) -> Exception:
        """The server's reason when an MCP call fails (typically: the episode was evicted or deleted)."""
        try:
            async with httpx2.AsyncClient(timeout=self.timeout) as http:
                response = await http.get(f"{self.base_url}/episodes/{self.episode_id}")
            reason = response.json().get("error") if response.status_code >= 400 else None
        except (httpx2.HTTPError, ValueError, AttributeError):
            reason = None
        if reason is None:
            return RemoteError(f"the MCP call to {self.mcp_url} failed: {exc}")
        return RemoteError(f"{reason} (the MCP call to {self.mcp_url} failed: {exc})")

    async def _send_answers(self) -> None:
        pending = self.answers[self._answers_sent:]
        if pending:
            await self._request("POST", f"/episodes/{self._episode_id()}/answers", {"answers": pending})
            self._answers_sent = len(self.answers)

    def _episode_id(self) -> str:
        if self.episode_id is None:
            raise RuntimeError("the episode has not begun: call begin(task) first")
        return self.episode_id

    async def _request(self, method: str, path: str, body: Any = None, *, missing_ok: bool = False) -> Any:
        url = self.base_url + path
        try:
            async with httpx2.AsyncClient(timeout=self.timeout) as http:
                response = await http.request(method, url, json=body)
        except httpx2.HTTPError as exc:
            raise RemoteError(f"{method} {url}: {type(exc).__name__}: {exc}") from exc
        if response.status_code == 404 and missing_ok:
            return None
        try:
            data = response.json()
        except ValueError:
            data = None
        if response.status_code >= 400:
            reason = data.get("error") if isinstance(data, dict) else response.text[:500]
            raise RemoteError(f"{method} {url}: {response.status_code} {reason}")
        return data


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)
