"""Many isolated episodes of one server behind one HTTP process (`prove-env serve <server> --transport http`).

Each live episode is an `Episode` (its own world, its record and its reward). The agent reaches an episode at its own MCP endpoint, `/episodes/<episode_id>/mcp`,
with any MCP client: sessionless 2026-07-28 clients and legacy clients with or without an MCP
session. The trainer drives episodes with plain HTTP control endpoints that are not MCP tools,
so the agent never sees them:

    POST   /episodes                      {"task": {...}} | {"task_id": "..."} | {"seed": 3} | {}
                                          -> {"episode_id", "mcp_url", "observation", "info"}
    GET    /episodes                      the live episodes
    GET    /episodes/<id>                 one episode: task, calls so far, world digest, idle time
    POST   /episodes/<id>/reset           the same body as POST /episodes ({} restarts the same task)
    GET    /episodes/<id>/reward          the reward breakdown of the calls so far
    GET    /episodes/<id>/trajectory      every call and its output, and the world digest
    POST   /episodes/<id>/calls           record a call that cannot travel as MCP (an unreadable action)
    POST   /episodes/<id>/answers         {"answers": ["..."]}: the assistant's answers to user turns, in
                                          order (read-only tasks are judged on the facts they state)
    DELETE /episodes/<id>                 close it
    GET    /health

Routing. One low-level MCP `Server` serves every episode; its handlers find the episode from the
HTTP request that carries each message (`ctx.request`, which the SDK attaches to every message
on all three streamable HTTP paths: 2026-07-28 per-request, legacy stateless and legacy with a
session). The path of that request names the episode, so routing never depends on an MCP session
id or on a context variable. At `/mcp` (no episode in the path), a client with an MCP session
gets a world of its own, created on its first request and addressed by its session id in the
control endpoints; a client without a session (2026-07-28) shares the server's one shared world.

Every call goes through `Episode.call` and `mcp_server.tool_result`, the code path of the
in-process environments, so outputs, records and rewards are identical; the request has been
dispatched by this server's MCP server already, so an episode needs no in-process MCP server of
its own. Calls to one episode are serialized by a lock; calls to different episodes run
concurrently (interleaved on the event loop).

Limits: at most `max_episodes` live episodes (the shared world is not counted; more are refused
with 429), episodes idle for `idle_seconds` (no request) are closed, and request bodies above
`max_request_bytes` are refused with 413: a JSON error at the control endpoints, and a JSON-RPC
error stating the limit at the MCP endpoints.

The code: `EpisodeHost` keeps the episodes (create, reset, close, idle eviction); `AgentEndpoints`
is the MCP side (the handlers and the two MCP endpoints); `ControlEndpoints` the trainer's side;
`create_app` puts them together.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import DEFAULT_SESSION_IDLE_TIMEOUT, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from prove_env.actions import ParsedCall
from prove_env.episode import Episode, build_world
from prove_env.mcp_server import CALL_ID_META, WorldSlot, build_server
from prove_env.registry import get_toolkit
from prove_env.reward import PAPER, RewardConfig, resolve_config
from prove_env.runtime import evicting, raise_file_limit, tune_gc
from prove_env.task import Task, TaskError, fixture_tasks
from prove_env.toolkit import Toolkit
from prove_env.world import WorldError

__all__ = ["DEFAULT_IDLE_SECONDS", "DEFAULT_MAX_EPISODES", "AgentEndpoints",
           "ControlEndpoints", "EpisodeHost", "create_app", "keep_alive_seconds", "serve", "spawned"]

logger = logging.getLogger(__name__)

DEFAULT_MAX_EPISODES = 4096
DEFAULT_IDLE_SECONDS = 600.0


def keep_alive_seconds(idle_seconds: float | None) -> int:
    """How long an idle keep-alive connection is kept open: as long as an idle episode is kept
    (an hour when episodes are never closed for idleness). uvicorn's default, 5 s, is shorter than an
    agent's thinking between calls, and than setting up thousands of episodes on a loaded machine: their
    first connections were closed under them."""
    return max(1, int(idle_seconds)) if idle_seconds else 3600


SHARED = "shared"
"""The episode id of the shared world that sessionless clients reach at `/mcp`."""

_TOMBSTONES = 4096


class Refused(Exception):
    """A control request the server refuses, with its HTTP status and a readable reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(eq=False)
class Live:
    """One live episode and its bookkeeping."""

    id: str
    episode: Episode
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_used: float = field(default_factory=time.monotonic)
    in_flight: int = 0
    session: bool = False
    pinned: bool = False
    tools: list[types.Tool] = field(default_factory=list)

    def touch(self) -> None:
        self.last_used = time.monotonic()

    def busy(self) -> _Busy:
        """`with live.busy():` a request is being served: the episode is not idle until it ends."""
        return _Busy(self)


class _Busy:
    """The context of `Live.busy` (a class: it is entered on every request)."""

    __slots__ = ("live",)

    def __init__(self, live: Live) -> None:
        self.live = live

    def __enter__(self) -> None:
        self.live.in_flight += 1
        self.live.last_used = time.monotonic()

    def __exit__(self, *exc: object) -> None:
        self.live.in_flight -= 1
        self.live.last_used = time.monotonic()


class _Using:
    """The context of `EpisodeHost.using` (a class: it is entered on every tool call)."""

    __slots__ = ("host", "live")

    def __init__(self, host: EpisodeHost, live: Live) -> None:
        self.host, self.live = host, live

    async def __aenter__(self) -> Episode:
        live = self.live
        await live.lock.acquire()
        if self.host.episodes.get(live.id) is not live:
            live.lock.release()
            raise Refused(404, self.host.missing(live.id))
        return live.episode

    async def __aexit__(self, *exc: object) -> None:
        self.live.lock.release()


class EpisodeHost:
    """The live episodes of one server, by episode id."""

    def __init__(
        self,
        toolkit: type[Toolkit],
        *,
        seed: int = 0,
        snapshot: dict[str, Any] | None = None,
        max_episodes: int = DEFAULT_MAX_EPISODES,
        idle_seconds: float | None = DEFAULT_IDLE_SECONDS,
        include_hidden: bool = False,
    ) -> None:
        if max_episodes < 1:
            raise ValueError("max_episodes must be at least 1")
        if idle_seconds is not None and idle_seconds <= 0:
            idle_seconds = None
        self.toolkit = toolkit
        self.include_hidden = include_hidden
        self.max_episodes = max_episodes
        self.idle_seconds = idle_seconds
        self.default_task = _free_task(toolkit, seed=None if snapshot is not None else seed, snapshot=snapshot,
                                       include_hidden=include_hidden)
        self.episodes: dict[str, Live] = {}
        self._reserved = 0
        self._gone: OrderedDict[str, str] = OrderedDict()
        self._listing: dict[str, types.Tool] | None = None
        self._session_lock = asyncio.Lock()

    # -- lifecycle --------------------------------------------------------------------------------

    @property
    def live_count(self) -> int:
        """Episodes that count against the limit (the shared world does not)."""
        return sum(not live.pinned for live in self.episodes.values()) + self._reserved

    async def create(self, task: Task, reward: RewardConfig = PAPER, *, episode_id: str | None = None,
                     session: bool = False, pinned: bool = False) -> Live:
        if not pinned and self.live_count >= self.max_episodes:
            raise Refused(429, f"too many live episodes: this server holds at most {self.max_episodes} "
                               "(--max-episodes). Close finished ones with DELETE /episodes/<id>, or wait for idle "
                               f"ones to be closed{self._idle_note()}.")
        # A handle, not world state: random so that one client cannot guess another's episode. It
        # never enters a world, an observation or a reward, which all stay reproducible from the seed.
        episode_id = episode_id or uuid.uuid4().hex
        self._reserved += not pinned
        # Its calls arrive dispatched by this server's own MCP server: no second, in-process MCP hop.
        episode = Episode(self.toolkit, reward=reward, include_hidden=self.include_hidden, dispatched=True)
        try:
            await episode.begin(task)
            tools = await self._tools_of(episode)
        except BaseException:
            await episode.aclose()
            raise
        finally:
            self._reserved -= not pinned
        live = Live(episode_id, episode, session=session, pinned=pinned, tools=tools)
        self.episodes[episode_id] = live
        return live

    async def session_episode(self, session_id: str) -> Live:
        """The world of an MCP session at `/mcp`, created on the session's first request."""
        async with self._session_lock:  # two first requests of one session make one world
            live = self.find(session_id)
            if live is not None:
                return live
            if session_id in self._gone:
                raise MCPError(types.INVALID_REQUEST, self.missing(session_id) + "; open a new MCP session")
            try:
                return await self.create(self.default_task, episode_id=session_id, session=True)
            except Refused as refused:
                raise MCPError(types.INTERNAL_ERROR, refused.message) from None

    def using(self, live: Live) -> _Using:
        """`async with host.using(live) as episode:` hold the episode's lock (its requests run one at a
        time) while it is still live; 404 once it is closed."""
        return _Using(self, live)

    async def reset(self, live: Live, task: Task, reward: RewardConfig | None) -> None:
        async with self.using(live):
            if reward is not None:
                live.episode.reward_config = reward
            await live.episode.begin(task)
            live.tools = await self._tools_of(live.episode)

    async def close(self, episode_id: str, reason: str) -> bool:
        live = self.episodes.pop(episode_id, None)
        if live is None:
            return False
        self._gone[episode_id] = reason
        while len(self._gone) > _TOMBSTONES:
            self._gone.popitem(last=False)
        async with live.lock:
            await live.episode.aclose()
        return True

    async def close_all(self) -> None:
        for episode_id in list(self.episodes):
            with contextlib.suppress(Exception):
                await self.close(episode_id, "the server stopped")

    async def evict_idle(self) -> list[str]:
        if self.idle_seconds is None:
            return []
        limit = self.idle_seconds

        def idle(live: Live | None) -> bool:
            return (live is not None and not live.pinned and live.in_flight == 0 and not live.lock.locked()
                    and time.monotonic() - live.last_used > limit)

        closed = []
        for episode_id in [live.id for live in self.episodes.values() if idle(live)]:
            if idle(self.find(episode_id)):  # still idle: closing the ones before may have taken a while
                await self.close(episode_id, f"it was closed after {limit:g} s without a request")
                closed.append(episode_id)
        return closed

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """The host's lifetime in a server: the shared world opens, idle episodes are closed as they
        go idle, and every episode is closed at the end."""
        await self.create(self.default_task, episode_id=SHARED, pinned=True)
        try:
            async with evicting(self.evict_idle, self.idle_seconds):
                yield
        finally:
            await self.close_all()

    # -- lookups ----------------------------------------------------------------------------------

    def find(self, episode_id: str) -> Live | None:
        return self.episodes.get(episode_id)

    def get(self, episode_id: str) -> Live:
        live = self.episodes.get(episode_id)
        if live is None:
            raise Refused(404, self.missing(episode_id))
        return live

    def missing(self, episode_id: str) -> str:
        reason = self._gone.get(episode_id)
        if reason is not None:
            return f"episode {episode_id!r} is closed: {reason}"
        return f"no episode {episode_id!r} on this server (create one with POST /episodes)"

    def _idle_note(self) -> str:
        return f" (after {self.idle_seconds:g} s without a request)" if self.idle_seconds is not None else ""

    # -- tool listings ----------------------------------------------------------------------------

    async def _tools_of(self, episode: Episode) -> list[types.Tool]:
        """The MCP listing of the tools the episode's task shows (annotations and `_meta` from the server)."""
        if self._listing is None:
            server = build_server(self.toolkit, WorldSlot(self.toolkit), include_hidden=True)
            self._listing = {tool.name: tool for tool in await server.list_tools()}
        listed = []
        for shown in episode.tools:
            function = shown["function"]
            base = self._listing.get(function["name"])
            description = function.get("description")
            schema = function.get("parameters") or {"type": "object", "properties": {}}
            if base is not None and base.description == description and base.input_schema == schema:
                listed.append(base)
            elif base is not None:
                listed.append(base.model_copy(update={"description": description, "input_schema": schema}))
            else:
                listed.append(types.Tool(name=function["name"], description=description, input_schema=schema))
        return listed

    def input_schema(self, name: str) -> dict[str, Any] | None:
        spec = self.toolkit.specs().get(name)
        return None if spec is None else spec.parameters


def _free_task(toolkit: type[Toolkit], *, seed: int | None, snapshot: dict[str, Any] | None,
               include_hidden: bool) -> Task:
    """A task with no request and no gold calls: a free episode on a seeded or snapshot world."""
    origin = f"seed-{seed}" if seed is not None else "snapshot"
    tools = [spec.openai_schema() for spec in toolkit.specs().values()] if include_hidden else None
    return Task(id=f"{toolkit.name}-{origin}", server=toolkit.name, seed=seed, snapshot=snapshot,
                user_turns=[""], gold=[[]], abstain=True, tools=tools)


# -- the MCP side: the agent's endpoints ---------------------------------------------------------


class AgentEndpoints:
    """What the agent reaches: `/episodes/<id>/mcp` and `/mcp`, served by one low-level MCP server.

    The server's handlers find each message's episode from the HTTP request that carried it (see
    the module's docstring); the session manager runs the streamable HTTP transport for both paths.
    """

    def __init__(self, host: EpisodeHost, security: TransportSecuritySettings | None, max_request_bytes: int) -> None:
        from prove_env import __version__

        self.host = host
        self.max_request_bytes = max_request_bytes
        self.server: Server[Any] = Server(
            host.toolkit.name,
            version=__version__,
            instructions=host.toolkit.description(),
            get_tool_input_schema=host.input_schema,
            on_list_tools=self.list_tools,
            on_call_tool=self.call_tool,
        )
        self.manager = StreamableHTTPSessionManager(
            app=self.server,
            json_response=True,
            stateless=False,
            security_settings=security,
            max_request_body_size=max_request_bytes,
            session_idle_timeout=host.idle_seconds or DEFAULT_SESSION_IDLE_TIMEOUT,
        )

    def routes(self) -> list[Route]:
        return [Route("/episodes/{episode_id}/mcp", _AsgiEndpoint(self.episode_endpoint)),
                Route("/mcp", _AsgiEndpoint(self.shared_endpoint))]

    # -- the MCP handlers ---------------------------------------------------------------------------

    async def resolve(self, ctx: Any) -> Live:
        """The episode a message is for: the one in its request's path, else its MCP session's world,
        else the shared world."""
        request = getattr(ctx, "request", None)
        path_params = getattr(request, "path_params", None) or {}
        episode_id = path_params.get("episode_id")
        if episode_id is not None:
            live = self.host.find(episode_id)
            if live is None:
                raise MCPError(types.INVALID_PARAMS, self.host.missing(episode_id))
            return live
        session_id = _session_id(ctx)
        if session_id is None:
            return self.host.get(SHARED)
        return self.host.find(session_id) or await self.host.session_episode(session_id)

    async def list_tools(self, ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        live = await self.resolve(ctx)
        live.touch()
        return types.ListToolsResult(tools=list(live.tools))

    async def call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        live = await self.resolve(ctx)
        meta = params.meta or {}
        call_id = meta.get(CALL_ID_META)
        with live.busy():
            try:
                async with self.host.using(live) as episode:
                    record = await episode.call(ParsedCall(
                        params.name, dict(params.arguments or {}), call_id if isinstance(call_id, str) else None
                    ))
            except Refused as refused:
                raise MCPError(types.INVALID_PARAMS, refused.message) from None
        return types.CallToolResult(content=[types.TextContent(type="text", text=record.output)], is_error=not record.ok)

    # -- the endpoints ------------------------------------------------------------------------------

    async def episode_endpoint(self, scope: Scope, receive: Receive, send: Send) -> None:
        """`/episodes/<id>/mcp`: an episode's own MCP endpoint (nearly every request under load)."""
        episode_id = scope["path_params"]["episode_id"]
        live = self.host.find(episode_id)
        if live is None:
            await _error(404, self.host.missing(episode_id))(scope, receive, send)
            return
        send = _TooLargeAsJsonRpc(send, scope, self.max_request_bytes)
        if scope.get("method") == "GET":  # a standing SSE stream is not activity
            live.touch()
            await self.manager.handle_request(scope, receive, send)
            return
        with live.busy():
            await self.manager.handle_request(scope, receive, send)

    async def shared_endpoint(self, scope: Scope, receive: Receive, send: Send) -> None:
        """`/mcp`: a legacy client's MCP session gets a world of its own; a sessionless one the shared world."""
        send = _TooLargeAsJsonRpc(send, scope, self.max_request_bytes)
        session_id = Request(scope).headers.get("mcp-session-id")
        live = self.host.find(session_id) if session_id else None
        if live is None or not live.session:
            await self.manager.handle_request(scope, receive, send)
            return
        if scope.get("method") == "GET":
            live.touch()
            await self.manager.handle_request(scope, receive, send)
            return
        status = 0

        async def watch(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        with live.busy():
            await self.manager.handle_request(scope, receive, watch)
        if scope.get("method") == "DELETE" and status < 300:  # the client ended its session: its world goes too
            await self.host.close(live.id, "its MCP session ended")


class _TooLargeAsJsonRpc:
    """The `send` of an MCP request, turning the transport's plain-text 413 (a body over the size
    limit) into a JSON-RPC error that states the limit: MCP clients show a JSON-RPC error's
    message, but only an opaque failure for a bare 413."""

    __slots__ = ("send", "scope", "limit", "replaced")

    def __init__(self, send: Send, scope: Scope, limit: int) -> None:
        self.send, self.scope, self.limit, self.replaced = send, scope, limit, False

    async def __call__(self, message: Any) -> None:
        if message["type"] == "http.response.start" and message["status"] == 413:
            self.replaced = True
            declared = Request(self.scope).headers.get("content-length")
            size = f" ({declared} bytes)" if declared and declared.isdigit() else ""
            body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {
                "code": types.INVALID_REQUEST,
                "message": f"the request body{size} is larger than this server's limit of {self.limit} bytes "
                           "(prove-env serve --max-request-bytes): send smaller tool arguments",
                "data": {"max_request_bytes": self.limit},
            }}).encode()
            await self.send({"type": "http.response.start", "status": 413,
                             "headers": [(b"content-type", b"application/json"),
                                         (b"content-length", str(len(body)).encode())]})
            await self.send({"type": "http.response.body", "body": body})
        elif not self.replaced:
            await self.send(message)


def _session_id(ctx: Any) -> str | None:
    connection = getattr(getattr(ctx, "session", None), "_connection", None)
    return getattr(connection, "session_id", None)


# -- the control side ---------------------------------------------------------------------------


def _reward_config(value: Any, default: RewardConfig | None) -> RewardConfig | None:
    if value is None:
        return default
    try:
        return resolve_config(value)
    except ValueError as exc:
        raise Refused(400, f"'reward': {exc}") from None


def _task_from(body: dict[str, Any], host: EpisodeHost, current: Task | None) -> Task:
    """The task a create or reset body asks for (`current` for an empty reset body)."""
    keys = [k for k in ("task", "task_id", "seed") if k in body]
    unknown = sorted(set(body) - {"task", "task_id", "seed", "reward"})
    if unknown:
        raise Refused(400, f"unknown fields {unknown}: the body takes one of 'task', 'task_id' or 'seed', "
                           "and optionally 'reward'")
    if len(keys) > 1:
        raise Refused(400, f"give only one of 'task', 'task_id' and 'seed', not {keys}")
    if not keys:
        return current or host.default_task
    if "task" in body:
        try:
            task = Task.parse(body["task"], "'task'")
        except TaskError as exc:
            raise Refused(400, str(exc)) from None
        if task.server != host.toolkit.name:
            raise Refused(400, f"the task {task.id!r} is for server {task.server!r}, but this server serves "
                               f"{host.toolkit.name!r}")
        return task
    if "task_id" in body:
        wanted = body["task_id"]
        found = next((t for t in fixture_tasks(host.toolkit.name) if t.id == wanted), None)
        if found is None:
            known = [t.id for t in fixture_tasks(host.toolkit.name)]
            raise Refused(404, f"no fixture task {wanted!r} for {host.toolkit.name!r}; known: {known}")
        return found
    seed = body["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise Refused(400, f"'seed' must be a non-negative integer, got {seed!r}")
    return _free_task(host.toolkit, seed=seed, snapshot=None, include_hidden=host.include_hidden)


async def _json_body(request: Request, limit: int) -> dict[str, Any]:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise Refused(413, f"the request body ({declared} bytes) is larger than this server's limit of {limit} "
                           "bytes (--max-request-bytes)")
    data = bytearray()
    async for chunk in request.stream():
        data.extend(chunk)
        if len(data) > limit:
            raise Refused(413, f"the request body is larger than this server's limit of {limit} bytes "
                               "(--max-request-bytes)")
    if not data.strip():
        return {}
    try:
        value = json.loads(data)
    except UnicodeDecodeError:
        raise Refused(400, "the request body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise Refused(400, f"the request body is not valid JSON: {exc.msg} at line {exc.lineno} column "
                           f"{exc.colno}") from None
    if not isinstance(value, dict):
        raise Refused(400, 'the request body must be a JSON object, such as {"seed": 3} or {"task": {...}}')
    return value


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status)


def _describe(live: Live, request: Request) -> dict[str, Any]:
    episode = live.episode
    task = episode.task
    assert task is not None
    return {
        "episode_id": live.id,
        "mcp_url": _mcp_url(request, live.id),
        "observation": task.user_turns[0],
        "info": {
            "task_id": task.id,
            "server": episode.toolkit.name,
            "turn": 0,
            "turns": len(task.user_turns),
            "tools": [dict(t) for t in episode.tools],
        },
    }


def _mcp_url(request: Request, episode_id: str) -> str:
    return f"{str(request.base_url).rstrip('/')}/episodes/{episode_id}/mcp"


Handler = Callable[[Request], Awaitable[Response]]


class ControlEndpoints:
    """What the trainer reaches: plain HTTP endpoints, not MCP tools, so the agent never sees them.

    Each endpoint is a method; `routes()` maps them to their paths, each behind `_guarded`, which
    applies the transport's host and origin checks and turns refusals into readable JSON errors.
    """

    def __init__(self, host: EpisodeHost, security: TransportSecuritySettings | None, max_request_bytes: int) -> None:
        self.host = host
        self.guard = TransportSecurityMiddleware(security)
        self.max_request_bytes = max_request_bytes

    def routes(self) -> list[Route]:
        guarded = self._guarded
        return [
            Route("/health", guarded(self.health), methods=["GET"]),
            Route("/episodes", guarded(self.create), methods=["POST"]),
            Route("/episodes", guarded(self.listing), methods=["GET"]),
            Route("/episodes/{episode_id}", guarded(self.describe), methods=["GET"]),
            Route("/episodes/{episode_id}", guarded(self.delete), methods=["DELETE"]),
            Route("/episodes/{episode_id}/reset", guarded(self.reset), methods=["POST"]),
            Route("/episodes/{episode_id}/reward", guarded(self.reward), methods=["GET"]),
            Route("/episodes/{episode_id}/trajectory", guarded(self.trajectory), methods=["GET"]),
            Route("/episodes/{episode_id}/calls", guarded(self.record_call), methods=["POST"]),
            Route("/episodes/{episode_id}/answers", guarded(self.record_answers), methods=["POST"]),
        ]

    def _guarded(self, handler: Handler) -> Handler:
        async def endpoint(request: Request) -> Response:
            refused = await self.guard.validate_request(request, is_post=False)
            if refused is not None:
                return _error(refused.status_code, bytes(refused.body).decode())
            try:
                return await handler(request)
            except Refused as exc:
                return _error(exc.status, exc.message)
            except (TaskError, WorldError, ValueError) as exc:
                return _error(400, str(exc))
            except Exception as exc:  # pragma: no cover - a bug, reported rather than hidden
                logger.exception("control request %s %s failed", request.method, request.url.path)
                return _error(500, f"internal error: {type(exc).__name__}: {exc}")

        return endpoint

    async def health(self, request: Request) -> Response:
        host = self.host
        return JSONResponse({
            "status": "ok",
            "server": host.toolkit.name,
            "episodes": host.live_count,
            "max_episodes": host.max_episodes,
            "idle_seconds": host.idle_seconds,
            "max_request_bytes": self.max_request_bytes,
        })

    async def create(self, request: Request) -> Response:
        body = await _json_body(request, self.max_request_bytes)
        task = _task_from(body, self.host, None)
        reward = _reward_config(body.get("reward"), PAPER)
        assert reward is not None
        live = await self.host.create(task, reward)
        return JSONResponse(_describe(live, request), status_code=201)

    async def listing(self, request: Request) -> Response:
        now = time.monotonic()
        return JSONResponse({
            "episodes": [
                {"episode_id": live.id, "task_id": live.episode._task().id, "calls": len(live.episode.calls),
                 "idle_s": round(now - live.last_used, 3), "session": live.session, "shared": live.pinned}
                for live in self.host.episodes.values()
            ],
            "live": self.host.live_count,
            "max_episodes": self.host.max_episodes,
        })

    async def describe(self, request: Request) -> Response:
        live = self.host.get(request.path_params["episode_id"])
        with live.busy():
            async with self.host.using(live) as episode:
                return JSONResponse({
                    "episode_id": live.id,
                    "mcp_url": _mcp_url(request, live.id),
                    "task_id": episode._task().id,
                    "server": self.host.toolkit.name,
                    "calls": len(episode.calls),
                    "world_digest": episode.world.digest(),
                    "session": live.session,
                    "shared": live.pinned,
                })

    async def reset(self, request: Request) -> Response:
        live = self.host.get(request.path_params["episode_id"])
        with live.busy():
            body = await _json_body(request, self.max_request_bytes)
            task = _task_from(body, self.host, live.episode.task)
            reward = _reward_config(body.get("reward"), None)
            await self.host.reset(live, task, reward)
            return JSONResponse(_describe(live, request))

    async def reward(self, request: Request) -> Response:
        live = self.host.get(request.path_params["episode_id"])
        with live.busy():
            async with self.host.using(live) as episode:
                breakdown = await episode.score()
                return JSONResponse({
                    "episode_id": live.id,
                    "task_id": episode._task().id,
                    "calls": len(episode.calls),
                    "reward": breakdown.as_dict(),
                    "total": breakdown.total,
                    "success": breakdown.success,
                })

    async def trajectory(self, request: Request) -> Response:
        live = self.host.get(request.path_params["episode_id"])
        with live.busy():
            async with self.host.using(live) as episode:
                return JSONResponse({
                    "episode_id": live.id,
                    "task_id": episode._task().id,
                    "calls": [record.as_dict() for record in episode.calls],
                    "answers": list(episode.answers),
                    "world_digest": episode.world.digest(),
                })

    async def record_call(self, request: Request) -> Response:
        live = self.host.get(request.path_params["episode_id"])
        with live.busy():
            body = await _json_body(request, self.max_request_bytes)
            unknown = sorted(set(body) - {"id", "name", "arguments", "error"})
            error = body.get("error")
            if unknown or not isinstance(error, str) or not error:
                raise Refused(400, 'the body is {"id", "name", "arguments", "error"} with a non-empty "error": '
                                   "only calls that cannot be sent as MCP tools/call are recorded here")
            name, call_id = body.get("name"), body.get("id")
            if name is not None and not isinstance(name, str) or call_id is not None and not isinstance(call_id, str):
                raise Refused(400, "'name' and 'id' must be strings or null")
            async with self.host.using(live) as episode:
                record = await episode.call(ParsedCall(name, body.get("arguments"), call_id, error))
            return JSONResponse(record.as_dict(), status_code=201)

    async def record_answers(self, request: Request) -> Response:
        live = self.host.get(request.path_params["episode_id"])
        with live.busy():
            body = await _json_body(request, self.max_request_bytes)
            answers = body.get("answers")
            if set(body) != {"answers"} or not isinstance(answers, list) \
                    or not all(isinstance(a, str) for a in answers):
                raise Refused(400, 'the body is {"answers": [...]}: the assistant\'s answers as strings, in order')
            async with self.host.using(live) as episode:
                for text in answers:
                    episode.answer(text)
                return JSONResponse({"episode_id": live.id, "answers": len(episode.answers)}, status_code=201)

    async def delete(self, request: Request) -> Response:
        episode_id = request.path_params["episode_id"]
        live = self.host.get(episode_id)
        if live.pinned:
            raise Refused(409, "the shared world cannot be closed; reset it with POST /episodes/shared/reset")
        await self.host.close(episode_id, "it was deleted")
        return JSONResponse({"episode_id": episode_id, "closed": True})


# -- the app ------------------------------------------------------------------------------------


def create_app(
    server: str | type[Toolkit],
    *,
    seed: int = 0,
    snapshot: dict[str, Any] | None = None,
    max_episodes: int = DEFAULT_MAX_EPISODES,
    idle_seconds: float | None = DEFAULT_IDLE_SECONDS,
    max_request_bytes: int = 4 * 1024 * 1024,
    include_hidden: bool = False,
    host: str = "127.0.0.1",
) -> Starlette:
    """The multi-episode ASGI app of one server. Raises WorldError/ValueError for a bad default world."""
    toolkit = get_toolkit(server) if isinstance(server, str) else server
    episodes = EpisodeHost(toolkit, seed=seed, snapshot=snapshot, max_episodes=max_episodes,
                           idle_seconds=idle_seconds, include_hidden=include_hidden)
    # Fail now, not at the first request, when the default world cannot be built.
    build_world(toolkit, episodes.default_task).close()
    security = _loopback_security(host)
    agent = AgentEndpoints(episodes, security, max_request_bytes)
    control = ControlEndpoints(episodes, security, max_request_bytes)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with agent.manager.run(), episodes.running():
            yield

    app = _EpisodeApp(agent.episode_endpoint, routes=control.routes() + agent.routes(), lifespan=lifespan)
    app.state.episodes = episodes
    return app


def _loopback_security(host: str) -> TransportSecuritySettings | None:
    """DNS rebinding protection for a server bound to loopback: only loopback hosts and origins."""
    if host not in ("127.0.0.1", "localhost", "::1"):
        return None
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
    )


class _EpisodeApp(Starlette):
    """The app, with a direct path for the requests that carry tool calls.

    `/episodes/<id>/mcp` takes nearly every request under load; it goes straight to its endpoint,
    with the path parameter Starlette's route would set, instead of through Starlette's middleware
    stack and a match against every route. Every other request takes the routes.
    """

    def __init__(self, episode_mcp: Callable[[Scope, Receive, Send], Awaitable[None]], **options: Any) -> None:
        super().__init__(**options)
        self._episode_mcp = episode_mcp

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("root_path"):
            path: str = scope["path"]
            if path.startswith("/episodes/") and path.endswith("/mcp"):
                episode_id = path[len("/episodes/"):-len("/mcp")]
                if episode_id and "/" not in episode_id:
                    scope["app"] = self
                    scope["path_params"] = {"episode_id": episode_id}
                    await self._episode_mcp(scope, receive, send)
                    return
        await super().__call__(scope, receive, send)


class _AsgiEndpoint:
    """A plain ASGI callable as a Starlette route endpoint (every method goes to it)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


def serve(
    server: str | type[Toolkit],
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    seed: int = 0,
    snapshot: dict[str, Any] | None = None,
    max_episodes: int = DEFAULT_MAX_EPISODES,
    idle_seconds: float | None = DEFAULT_IDLE_SECONDS,
    max_request_bytes: int = 4 * 1024 * 1024,
    include_hidden: bool = False,
) -> None:
    """Serve episodes of `server` over HTTP until interrupted."""
    import uvicorn

    app = create_app(server, seed=seed, snapshot=snapshot, max_episodes=max_episodes, idle_seconds=idle_seconds,
                     max_request_bytes=max_request_bytes, include_hidden=include_hidden, host=host)
    shown = f"[{host}]" if ":" in host else host
    name = app.state.episodes.toolkit.name
    print(f"prove-env: serving {name} episodes over http at http://{shown}:{port} "
          f"(POST /episodes; an episode's MCP endpoint is /episodes/<id>/mcp; the shared world is /mcp)",
          file=sys.stderr)
    raise_file_limit()
    tune_gc()
    # The backlog holds a burst of as many clients connecting as there may be episodes.
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=3,
                timeout_keep_alive=keep_alive_seconds(idle_seconds), backlog=max(2048, max_episodes))


@contextlib.contextmanager
def spawned(server: str, *options: str, attempts: int = 5, timeout: float = 60.0,
            transport: str = "http") -> Iterator[tuple[str, int]]:
    """`prove-env serve <server> --transport http [options]` (or another network transport: `openenv`)
    in a subprocess on a free loopback port.

    Yields (base URL, process id) once `/health` answers, and stops the process on exit. A port
    another process takes between choosing and binding it is retried on another port.
    """
    import socket
    import subprocess
    import tempfile
    import urllib.request

    for _attempt in range(attempts):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        base = f"http://127.0.0.1:{port}"
        # the log is a file, not a pipe: a server that logs a lot must never block on it
        with tempfile.TemporaryFile() as log:
            proc = subprocess.Popen([sys.executable, "-m", "prove_env.cli", "serve", server, "--transport", transport,
                                     "--port", str(port), *options], stdout=subprocess.DEVNULL, stderr=log)
            try:
                deadline = time.monotonic() + timeout
                while proc.poll() is None:
                    try:
                        with urllib.request.urlopen(f"{base}/health", timeout=1):
                            break
                    except OSError:
                        if time.monotonic() > deadline:
                            raise TimeoutError(f"the episode server did not start in {timeout:g} s") from None
                        time.sleep(0.02)
                if proc.poll() is None:
                    yield base, proc.pid
                    return
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:  # pragma: no cover
                    proc.kill()
                    proc.wait()
            log.seek(0)
            error = log.read().decode(errors="replace")
        if "address already in use" not in error:
            raise RuntimeError(f"the episode server exited with {proc.returncode}: {error.strip()}")
    raise RuntimeError(f"no free loopback port for the episode server after {attempts} attempts")
