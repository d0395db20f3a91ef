"""Turning a toolkit into a real MCP server, and a client session to it.

`build_server(Toolkit, slot)` returns an `mcp` `MCPServer` whose tools are the toolkit's, with
their schemas, descriptions and annotations. The server serves whatever world its `WorldSlot`
holds: over stdio one process serves one world, and in-process each environment owns one
server and one slot, and a reset only puts a fresh world into the slot (no reconnect). The MCP
`Tool` objects are built once per toolkit; each server instance takes shallow copies whose
function closes over its own slot (looking the slot up through the SDK's request context
instead cost about 50 us per call). Isolation never relies on MCP sessions (the 2026-07-28
protocol has none).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from functools import cache
from typing import Any

from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.types import CallToolResult, TextContent, ToolAnnotations

from prove_env.runtime import private_loop, run_sync
from prove_env.toolkit import Toolkit, ToolError, ToolSpec
from prove_env.world import World

__all__ = ["CALL_ID_META", "WorldSlot", "build_server", "ToolClient", "tool_result", "unknown_tool"]

CALL_ID_META = "prove/call_id"
"""`_meta` key of a `tools/call` request that names the call in the episode's record (optional): the HTTP
server reads it, the remote episode sends it."""


class WorldSlot:
    """The world one server instance serves; swapping it is how an in-process episode resets."""

    def __init__(self, toolkit: type[Toolkit], world: World | None = None) -> None:
        self.toolkit_cls = toolkit
        self.toolkit: Toolkit | None = None
        self.world = world

    @property
    def world(self) -> World | None:
        return self._world

    @world.setter
    def world(self, world: World | None) -> None:
        self._world = world
        self.toolkit = None if world is None else self.toolkit_cls(world)


def unknown_tool(name: Any, available: Iterable[str]) -> str:
    """What the model reads when it calls a tool that is not there, on every path (stdio, HTTP, in-process)."""
    return f"Error: unknown tool {name!r}. Available tools: {', '.join(available)}."


class _Server(MCPServer):
    """An `MCPServer` that answers a call to a tool it does not have with `unknown_tool`."""

    def __init__(self, *args: Any, tools: list[Tool], **kwargs: Any) -> None:
        super().__init__(*args, tools=tools, **kwargs)
        self._tool_names = tuple(tool.name for tool in tools)
        self._known = frozenset(self._tool_names)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        if name not in self._known:
            text = unknown_tool(name, self._tool_names)
            return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
        return await super().call_tool(name, arguments, context)


def build_server(toolkit: type[Toolkit], slot: WorldSlot, *, include_hidden: bool = False) -> MCPServer:
    """An MCP server over the world in `slot`. Hidden tools are left out unless asked for."""

    from prove_env import __version__

    return _Server(
        toolkit.name,
        version=__version__,
        instructions=toolkit.description(),
        tools=[tool.model_copy(update={"fn": _bound(slot, tool.name)})
               for tool in _tools(toolkit, include_hidden)],
        log_level="WARNING",
        warn_on_duplicate_tools=False,
    )


class ToolClient:
    """An MCP client session to one in-process server, usable from synchronous and async code.

    The client is entered and exited by one owner task (anyio requires both in the same task) on
    the loop that opened it; calls may be awaited from any loop, since in-process MCP dispatch
    runs each request in the caller's own task.
    """

    def __init__(self, server: MCPServer) -> None:
        self._server = server
        self._client: Client | None = None
        self._owner: asyncio.Task[None] | None = None
        self._stop: asyncio.Event | None = None

    @property
    def is_open(self) -> bool:
        return self._client is not None

    async def aopen(self) -> ToolClient:
        if self._client is None:
            loop = asyncio.get_running_loop()
            ready: asyncio.Future[Client] = loop.create_future()
            self._stop = asyncio.Event()
            self._owner = loop.create_task(self._own(ready, self._stop))
            self._client = await ready
        return self

    def open(self) -> ToolClient:
        """Open from synchronous code (on the private loop)."""
        if self._client is None:
            run_sync(self.aopen())
        return self

    async def _own(self, ready: asyncio.Future[Client], stop: asyncio.Event) -> None:
        try:
            async with Client(self._server, raise_exceptions=False) as client:
                ready.set_result(client)
                await stop.wait()
        except BaseException as exc:  # pragma: no cover - surfaced to the opener
            if not ready.done():
                ready.set_exception(exc)
            raise

    async def call(self, name: str, arguments: dict[str, Any]) -> CallToolResult:
        if self._client is None:
            raise RuntimeError("the MCP client is closed")
        return await self._client.call_tool(name, arguments)

    async def list_tools(self) -> list[Any]:
        if self._client is None:
            raise RuntimeError("the MCP client is closed")
        return (await self._client.list_tools()).tools

    async def aclose(self) -> None:
        detached = self._detach()
        if detached is None:
            return
        owner, stop = detached
        if owner.get_loop() is asyncio.get_running_loop():
            await _stop_and_wait(stop, owner)
        elif not owner.get_loop().is_closed():
            owner.get_loop().call_soon_threadsafe(stop.set)

    def close(self) -> None:
        """Close from synchronous code. Idempotent."""
        detached = self._detach()
        if detached is None:
            return
        owner, stop = detached
        loop = owner.get_loop()
        if loop is private_loop() and not loop.is_running():
            run_sync(_stop_and_wait(stop, owner))
        elif not loop.is_closed():
            loop.call_soon_threadsafe(stop.set)

    def _detach(self) -> tuple[asyncio.Task[None], asyncio.Event] | None:
        owner, stop = self._owner, self._stop
        self._client = self._owner = self._stop = None
        if owner is None or stop is None or owner.done():
            return None
        return owner, stop


async def _stop_and_wait(stop: asyncio.Event, owner: asyncio.Task[None]) -> None:
    stop.set()
    await owner


# -- internals ----------------------------------------------------------------------------------

async def _unbound(**arguments: Any) -> CallToolResult:
    raise RuntimeError("an MCP tool is called through the server that bound it to a world")


class _PassThrough(FuncMetadata):
    """Arguments reach the toolkit untouched: it validates them strictly, with readable errors."""

    def validate_arguments(self, arguments_to_validate: dict[str, Any]) -> dict[str, Any]:
        return dict(arguments_to_validate)


@cache
def _tools(toolkit: type[Toolkit], include_hidden: bool) -> tuple[Tool, ...]:
    return tuple(_mcp_tool(spec) for spec in toolkit.specs().values() if include_hidden or not spec.hidden)


def tool_result(slot: WorldSlot, name: str, arguments: dict[str, Any], *, include_hidden: bool = True) -> CallToolResult:
    """One tool call on the world in `slot` as the MCP result the model reads.

    The single place a call becomes a result: every in-process MCP server's tools call it, and so
    does the HTTP episode server, whose own MCP server has already dispatched the request. A
    failed tool reads as the MCP SDK words one ("Error executing tool <name>: <why>"), and a tool
    the server does not serve as `unknown_tool` words it, so a call reads the same on every path.
    """
    toolkit = slot.toolkit
    if toolkit is None:
        raise RuntimeError("this server has no world loaded")
    spec = toolkit.specs().get(name)
    if spec is None or (spec.hidden and not include_hidden):
        served = [s.name for s in toolkit.specs().values() if include_hidden or not s.hidden]
        return _error_result(unknown_tool(name, served))
    try:
        text = toolkit.run(name, arguments)
    except ToolError as exc:
        return _error_result(f"Error executing tool {name}: {exc}")
    return CallToolResult(content=[TextContent(type="text", text=text)])


def _error_result(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _bound(slot: WorldSlot, name: str) -> Any:
    async def call(**arguments: Any) -> CallToolResult:
        return tool_result(slot, name, arguments)

    return call


def _mcp_tool(spec: ToolSpec) -> Tool:
    """The MCP tool of `spec`, without a world: `build_server` binds a copy to its slot."""
    return Tool(
        fn=_unbound,
        name=spec.name,
        description=spec.description,
        parameters=spec.parameters,
        fn_metadata=_PassThrough(arg_model=ArgModelBase),
        is_async=True,
        annotations=ToolAnnotations(
            read_only_hint=spec.read_only,
            destructive_hint=spec.destructive,
            idempotent_hint=spec.idempotent,
            open_world_hint=False,
        ),
        meta={"prove/produces": list(spec.produces), "prove/consumes": list(spec.consumes),
              "prove/sets": list(spec.sets), "prove/requires": list(spec.requires)},
    )
