"""OpenEnv's wire protocol, spoken natively: `prove-env serve <server> --transport openenv`.

An OpenEnv environment server has two boundaries (OpenEnv's RFC 003): the trainer's, a WebSocket
session at `/ws` carrying `reset`, `step`, `state` and `close`, whose step results carry the reward;
and the agent's, the environment's tools over MCP at `/mcp`, which never shows the control
messages. This module serves both for prove-env's servers, with `/health`, `/metadata`, `/schema`
and `/openapi.json`, so OpenEnv's own clients (`GenericEnvClient`, `MCPToolClient`), its
`openenv validate` and the trainers built on them use a prove-env server unchanged. It is written
against the protocol, not the `openenv` package, whose MCP stack is older than ours.

    WS   /ws                  {"type": "reset", "data": {...}}  -> {"type": "observation", "data": {...}}
                              {"type": "step", "data": action}  -> {"type": "observation", "data": {...}}
                              {"type": "state"}                 -> {"type": "state", "data": {...}}
                              {"type": "close"}                 (ends the session)
                              {"type": "mcp", "data": JSON-RPC} -> {"type": "mcp", "data": JSON-RPC}
    WS   /ws?session_id=ID    the same, on a session created with openenv/session/create
    POST /mcp                 JSON-RPC: openenv/session/create, openenv/session/close, tools/list,
                              tools/call ({"session_id": ID} in the params names the session)
    WS   /mcp                 the same JSON-RPC, one request per message
    GET  /health, /metadata, /schema, /openapi.json, and / (/web) a page saying what this is

Sessions. Each session is one isolated episode: a `ProveEnv` (the Gymnasium environment's step
logic: turns, answers, limits, the reward at the end) over an `Episode` whose calls run on its own
world, a clone of its task's start world, as in `prove_env.serving.http` (no MCP server per episode;
the calls are dispatched here). A WebSocket opened at `/ws` creates its session and closes it when
it ends; one opened with `?session_id=` attaches to a session that `openenv/session/create` made,
which lives until `openenv/session/close` or `--idle-seconds` without a request while no socket is
attached. Messages of one session run one at a time; sessions run concurrently.

Reset. `data` picks the task: `task` (a task object, as in the task files), `task_id` (a fixture
task of the server), else a task drawn from the server's fixture tasks with `seed` (Gymnasium's
`reset(seed=...)`); `server` names any shipped server (default: the one served), `reward` a preset
or `RewardConfig` fields, `episode_id` the id `state` reports.

Actions (`step`'s data): `{"type": "call_tool", "tool_name", "arguments"}` (one call; arguments
may be the text the model wrote, read as the environment reads it), `{"type": "answer", "text"}`
(the assistant's answer to the current user turn: the next turn follows, or the episode ends) and
`{"type": "list_tools"}`. A step result carries `reward` (0 until the episode ends, then the
episode's reward), `done`, and in `metadata` the turn and, at the end, `success` and
`reward_breakdown`. Calls made over MCP (`tools/call`) are steps of the same episode, recorded and
scored alike, but their results carry no reward: the agent never sees it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import sys
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from prove_env.env import ProveEnv
from prove_env.episode import Episode
from prove_env.serving.http import DEFAULT_IDLE_SECONDS, DEFAULT_MAX_EPISODES, keep_alive_seconds
from prove_env.registry import UnknownServerError, get_toolkit
from prove_env.reward import PAPER, resolve_config
from prove_env.runtime import evicting, raise_file_limit, tune_gc
from prove_env.task import Task, TaskError
from prove_env.toolkit import Toolkit
from prove_env.world import WorldError

__all__ = ["AnswerAction", "CALL_LIMIT", "CallToolAction", "ListToolsAction", "OpenEnvApp", "ResetOptions",
           "STEP_LIMIT", "SessionHost", "create_app", "serve"]

logger = logging.getLogger(__name__)

CALL_LIMIT = 50
"""Tool calls per episode: the call past it is answered with an error and ends the episode."""
STEP_LIMIT = 100
"""Steps (calls and answers) per episode: the step that reaches it ends the episode."""

_TOMBSTONES = 4096
_TASKS_KEPT = 1024


# -- the wire: actions, observations, state ---------------------------------------------------------


class _Wire(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ListToolsAction(_Wire):
    """The tools the agent sees: the task's (distractors included); before a reset, the server's."""

    type: Literal["list_tools"] = "list_tools"
    metadata: dict[str, Any] = Field(default_factory=dict)


class CallToolAction(_Wire):
    """One tool call, recorded and scored as the environment's `step` scores it."""

    type: Literal["call_tool"] = "call_tool"
    tool_name: str
    arguments: dict[str, Any] | str = Field(
        default_factory=dict,
        description="a JSON object, or the text the model wrote (unreadable text is an invalid call)")
    metadata: dict[str, Any] = Field(default_factory=dict)


class AnswerAction(_Wire):
    """The assistant's answer to the current user turn: the next turn follows, or the episode ends."""

    type: Literal["answer"] = "answer"
    text: str
    metadata: dict[str, Any] = Field(default_factory=dict)


Action = Annotated[ListToolsAction | CallToolAction | AnswerAction, Field(discriminator="type")]
_ACTION: TypeAdapter[ListToolsAction | CallToolAction | AnswerAction] = TypeAdapter(Action)


class ResetOptions(_Wire):
    """`reset`'s data: which task, on which server, under which reward."""

    server: str | None = Field(default=None, description="a shipped server (default: the one served)")
    task: dict[str, Any] | None = Field(default=None, description="a task object, as in the task files")
    task_id: str | None = Field(default=None, description="a fixture task of the server")
    seed: int | None = Field(default=None, ge=0,
                             description="draws the task from the server's fixture tasks when none is named")
    episode_id: str | None = Field(default=None, max_length=255, description="the id `state` reports")
    reward: str | dict[str, Any] | None = Field(default=None, description='"paper" (default), "state" or '
                                                                          "RewardConfig fields")


class ToolInfo(_Wire):
    name: str
    description: str
    input_schema: dict[str, Any]


class ToolResult(_Wire):
    """What the tool returned, in the shape OpenEnv's MCP environments give (`data` is the text)."""

    content: list[dict[str, Any]]
    structured_content: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None
    data: str
    is_error: bool


class ToolFailure(_Wire):
    error_type: Literal["tool_not_found", "execution_error"]
    message: str


class _Observation(_Wire):
    done: bool = False
    reward: float | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class TextObservation(_Observation):
    """After `reset` and `answer`: the user's next message ("" once the episode has ended)."""

    text: str


class ToolsObservation(_Observation):
    tools: list[ToolInfo]


class CallToolObservation(_Observation):
    tool_name: str
    result: ToolResult
    error: ToolFailure | None = None


class SessionState(BaseModel):
    model_config = ConfigDict(extra="allow")

    episode_id: str | None = None
    step_count: int = 0
    session_id: str
    server: str | None = None
    task_id: str | None = None
    turn: int = 0
    turns: int = 0
    calls: int = 0
    done: bool = False
    reward: float | None = None
    success: bool | None = None


def _schemas() -> dict[str, Any]:
    observation = TypeAdapter(Annotated[TextObservation | ToolsObservation | CallToolObservation, Field()])
    return {"action": _ACTION.json_schema(), "observation": observation.json_schema(),
            "reset_observation": TextObservation.model_json_schema(), "state": SessionState.model_json_schema()}


# -- sessions ----------------------------------------------------------------------------------------


class Refused(Exception):
    """A request this server refuses: an OpenEnv error code and a readable reason."""

    def __init__(self, code: str, message: str, **data: Any) -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


class Session:
    """One OpenEnv session: one episode at a time, on its own world."""

    def __init__(self, session_id: str, host: SessionHost) -> None:
        self.id = session_id
        self.host = host
        self.env: ProveEnv | None = None
        self.episode: Episode | None = None
        self.lock = asyncio.Lock()
        self.last_used = time.monotonic()
        self.socket = False  # a WebSocket is attached: not closed for idleness
        self.owned = False  # the socket made it: it ends with the socket
        self.closing = False  # openenv/session/close arrived while a socket was attached
        self.episode_id: str | None = None
        self.steps = 0
        self.turn = 0
        self.done = False
        self.final: dict[str, Any] | None = None  # the terminal step's metadata

    def touch(self) -> None:
        self.last_used = time.monotonic()

    async def reset(self, data: Any) -> dict[str, Any]:
        options = _validated(ResetOptions, data, "reset")
        task: Task | None = None
        if options.task is not None:
            task = self.host.task(options.task)
            if options.server is not None and task.server != options.server:
                raise Refused("VALIDATION_ERROR", f"the task {task.id!r} is for server {task.server!r}, "
                                                  f"not {options.server!r}")
            if options.task_id is not None:
                raise Refused("VALIDATION_ERROR", "give 'task' or 'task_id', not both")
        server = task.server if task is not None else options.server or self.host.toolkit.name
        try:
            get_toolkit(server)
        except UnknownServerError as exc:
            raise Refused("VALIDATION_ERROR", str(exc)) from None
        try:
            reward = resolve_config(options.reward) if options.reward is not None else PAPER
        except ValueError as exc:
            raise Refused("VALIDATION_ERROR", f"'reward': {exc}") from None
        if self.env is None or self.env.server != server:
            self._drop()
            self.episode = Episode(server, reward=reward, dispatched=True)
            self.env = ProveEnv(server, episode=self.episode, max_steps=STEP_LIMIT, max_calls=CALL_LIMIT)
        assert self.episode is not None
        self.episode.reward_config = reward
        chosen = {"task": task} if task is not None else {"task_id": options.task_id} if options.task_id else None
        try:
            observation, info = await self.env.areset(seed=options.seed, options=chosen)
        except (TaskError, WorldError, ValueError) as exc:
            raise Refused("EXECUTION_ERROR", str(exc)) from None
        self.episode_id = options.episode_id or uuid.uuid4().hex
        self.steps, self.turn, self.done, self.final = 0, 0, False, None
        # The tools are not repeated here (tens of kB for some servers, on every reset): `list_tools`
        # gives them, as OpenEnv's MCP environments do.
        metadata = {"episode_id": self.episode_id, "task_id": info["task_id"], "server": server, "turn": 0,
                    "turns": len(self.env.task.user_turns), "messages": info["messages"]}  # type: ignore[union-attr]
        return _result({"text": observation}, None, False, metadata)

    async def step(self, data: Any) -> dict[str, Any]:
        action = _validated(_ACTION, data, "step")
        if isinstance(action, ListToolsAction):
            return _result({"tools": [_tool_info(t) for t in self.tools()]}, None, self.done, {})
        env = self._playing()
        if isinstance(action, CallToolAction):
            observation, reward, terminated, truncated, info = await env.astep(
                {"name": action.tool_name, "arguments": action.arguments})
            record = info["calls"][-1]
            metadata = self._after(info, terminated, truncated)
            metadata["call"] = {"id": record["id"], "ok": record["ok"]}
            payload = {"tool_name": action.tool_name, "result": _tool_result(observation, record["ok"]),
                       "error": None if record["ok"] else self._failure(action.tool_name, observation)}
            return _result(payload, reward, terminated or truncated, metadata)
        observation, reward, terminated, truncated, info = await env.astep(
            {"role": "assistant", "content": action.text, "tool_calls": []})
        return _result({"text": observation}, reward, terminated or truncated, self._after(info, terminated, truncated))

    async def call_tool(self, name: Any, arguments: Any) -> dict[str, Any]:
        """An agent's `tools/call` over MCP: a step of the episode whose result carries no reward."""
        env = self._playing()
        if not isinstance(name, str) or not name:
            raise Refused("INVALID_PARAMS", "tools/call needs the tool's 'name'")
        observation, _, terminated, truncated, info = await env.astep({"name": name, "arguments": arguments or {}})
        self._after(info, terminated, truncated)
        return _tool_result(observation, info["calls"][-1]["ok"])

    def tools(self) -> list[dict[str, Any]]:
        """The tools the agent sees, in OpenAI function format."""
        if self.env is not None and self.env.task is not None:
            return self.env.tool_schemas()
        return self.host.default_tools

    def state(self) -> dict[str, Any]:
        env = self.env
        task = env.task if env is not None else None
        state = {"episode_id": self.episode_id, "step_count": self.steps, "session_id": self.id,
                 "server": env.server if env is not None else self.host.toolkit.name,
                 "task_id": task.id if task else None, "turn": self.turn,
                 "turns": len(task.user_turns) if task else 0,
                 "calls": len(env.episode.calls) if env is not None and task else 0, "done": self.done,
                 "reward": None, "success": None}
        if self.final is not None:
            state["reward"] = self.final["reward_breakdown"]["total"]
            state["success"] = self.final["success"]
        return state

    def close(self) -> None:
        self._drop()

    def _playing(self) -> ProveEnv:
        if self.env is None or self.env.task is None:
            raise Refused("EXECUTION_ERROR", "this session has no episode yet: send a reset first")
        if self.done:
            raise Refused("EXECUTION_ERROR", "the episode has ended: send a reset to start another")
        return self.env

    def _after(self, info: dict[str, Any], terminated: bool, truncated: bool) -> dict[str, Any]:
        self.steps = info["step"]
        self.turn = info["turn"]
        metadata: dict[str, Any] = {"episode_id": self.episode_id, "task_id": info["task_id"], "turn": self.turn,
                                    "step": self.steps}
        if terminated or truncated:
            self.done = True
            metadata.update(terminated=terminated, truncated=truncated, success=info["success"],
                            reward_breakdown=info["reward_breakdown"])
            self.final = metadata
        return metadata

    def _failure(self, name: str, message: str) -> dict[str, Any]:
        shown = name in {t["function"]["name"] for t in self.tools()}
        return {"error_type": "execution_error" if shown else "tool_not_found", "message": message}

    def _drop(self) -> None:
        if self.env is not None:
            self.env.close()
        self.env = self.episode = None


class SessionHost:
    """The sessions of one process, by session id: the limit, idle closing, and why a gone one went."""

    def __init__(self, toolkit: type[Toolkit], *, max_sessions: int = DEFAULT_MAX_EPISODES,
                 idle_seconds: float | None = DEFAULT_IDLE_SECONDS) -> None:
        if max_sessions < 1:
            raise ValueError("max_sessions must be at least 1")
        self.toolkit = toolkit
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds if idle_seconds and idle_seconds > 0 else None
        self.default_tools = [spec.openai_schema() for spec in toolkit.visible_specs()]
        self.sessions: dict[str, Session] = {}
        self._gone: OrderedDict[str, str] = OrderedDict()
        self._tasks: OrderedDict[str, Task] = OrderedDict()

    def task(self, value: dict[str, Any]) -> Task:
        """The task a reset sends, parsed once per distinct task: the sessions that play one task
        (a GRPO group, a load test) share one `Task` and its tool schemas, in memory and parsing."""
        key = hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                                        default=str).encode()).hexdigest()
        found = self._tasks.get(key)
        if found is not None:
            self._tasks.move_to_end(key)
            return found
        try:
            found = Task.parse(value, "'task'")
        except TaskError as exc:
            raise Refused("VALIDATION_ERROR", str(exc)) from None
        self._tasks[key] = found
        while len(self._tasks) > _TASKS_KEPT:
            self._tasks.popitem(last=False)
        return found

    def create(self) -> Session:
        if len(self.sessions) >= self.max_sessions:
            raise Refused("CAPACITY_REACHED",
                          f"this server holds at most {self.max_sessions} sessions (--max-episodes); close finished "
                          "ones, or wait for idle ones to be closed",
                          active_sessions=len(self.sessions), max_sessions=self.max_sessions)
        session = Session(uuid.uuid4().hex, self)  # a handle: random, so one client cannot guess another's
        self.sessions[session.id] = session
        return session

    def get(self, session_id: Any) -> Session:
        session = self.sessions.get(session_id) if isinstance(session_id, str) else None
        if session is None:
            raise Refused("SESSION_ERROR", self.missing(session_id))
        return session

    def missing(self, session_id: Any) -> str:
        reason = self._gone.get(session_id) if isinstance(session_id, str) else None
        if reason is not None:
            return f"session {session_id!r} is closed: {reason}"
        return f"unknown session_id {session_id!r}: create one with openenv/session/create, or open /ws"

    async def close(self, session: Session, reason: str) -> None:
        """Close a session: no new message reaches it, and its world goes once the one in flight is done."""
        if self.sessions.pop(session.id, None) is None:
            return
        self._gone[session.id] = reason
        while len(self._gone) > _TOMBSTONES:
            self._gone.popitem(last=False)
        async with session.lock:
            session.close()

    async def close_all(self) -> None:
        for session in list(self.sessions.values()):
            await self.close(session, "the server stopped")

    async def evict_idle(self) -> int:
        if self.idle_seconds is None:
            return 0
        limit, now = self.idle_seconds, time.monotonic()
        idle = [s for s in self.sessions.values()
                if not s.socket and not s.lock.locked() and now - s.last_used > limit]
        for session in idle:
            await self.close(session, f"it was closed after {limit:g} s without a request")
        return len(idle)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        try:
            async with evicting(self.evict_idle, self.idle_seconds):
                yield
        finally:
            await self.close_all()


# -- the protocol ------------------------------------------------------------------------------------

_RPC_ERRORS = {"PARSE_ERROR": -32700, "INVALID_REQUEST": -32600, "METHOD_NOT_FOUND": -32601,
               "INVALID_PARAMS": -32602, "INTERNAL_ERROR": -32603}
_RPC_SERVER_ERROR = -32000


class OpenEnvApp:
    """The ASGI app: WebSockets (`/ws`, `/mcp`) straight to their handlers, the rest through Starlette."""

    def __init__(self, host: SessionHost, *, max_request_bytes: int, loopback: bool) -> None:
        from prove_env import __version__

        self.host = host
        self.max_request_bytes = max_request_bytes
        self.loopback = loopback
        self.version = __version__
        self.schemas = _schemas()
        self.http = Starlette(routes=[
            Route("/health", self.health, methods=["GET"]),
            Route("/metadata", self.metadata, methods=["GET"]),
            Route("/schema", self.schema, methods=["GET"]),
            Route("/openapi.json", self.openapi, methods=["GET"]),
            Route("/mcp", self.mcp_post, methods=["POST"]),
            # what a Hugging Face Space's page shows (`openenv push` points it at /web)
            Route("/", self.index, methods=["GET"]),
            Route("/web", self.index, methods=["GET"]),
        ], lifespan=self._lifespan)

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        async with self.host.running():
            yield

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            path = scope["path"]
            if path in ("/ws", "/mcp") and self._allowed(scope):
                await (self._session_socket if path == "/ws" else self._mcp_socket)(scope, receive, send)
            else:
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] == "http" and not self._allowed(scope):
            await _json(403, {"error": "a loopback server answers only loopback Host and Origin headers"})(
                scope, receive, send)
            return
        await self.http(scope, receive, send)

    def _allowed(self, scope: Scope) -> bool:
        """Against DNS rebinding from a browser: on a loopback address, only loopback Host and Origin."""
        if not self.loopback:
            return True
        headers = dict(scope.get("headers") or [])
        host = headers.get(b"host", b"").decode("latin-1")
        origin = headers.get(b"origin")
        if _host_name(host) not in _LOOPBACK:
            return False
        if origin is None:
            return True
        text = origin.decode("latin-1")
        return text.startswith(("http://", "https://")) and _host_name(text.split("://", 1)[1]) in _LOOPBACK

    # -- /ws: the trainer's session --------------------------------------------------------------

    async def _session_socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        query = _query(scope)
        try:
            if "session_id" in query:
                session = self.host.get(query["session_id"])
                if session.socket:
                    raise Refused("SESSION_ERROR", f"session {session.id!r} already has a WebSocket attached")
            else:
                session = self.host.create()
                session.owned = True
        except Refused as refused:
            await _send(send, {"type": "error", "data": {"message": refused.message, "code": refused.code,
                                                         **refused.data}})
            await _close(send)
            return
        session.socket = True
        session.touch()
        try:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return
                reply, end = await self._session_message(session, _text(message))
                if reply is not None:
                    await send({"type": "websocket.send", "text": reply})
                if end:
                    await _close(send)
                    return
        except OSError:  # the client went away while we answered
            return
        finally:
            session.socket = False
            session.touch()
            if session.owned or session.closing:
                await self.host.close(session, "its WebSocket closed")

    async def _session_message(self, session: Session, raw: str) -> tuple[str | None, bool]:
        try:
            message = json.loads(raw)
        except ValueError as exc:
            return _error("INVALID_JSON", f"Invalid JSON: {exc}"), False
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "close":
            return None, True
        if kind == "mcp":
            data = message.get("data")
            return json.dumps({"type": "mcp", "data": await self.rpc(data, session)}), False
        if kind not in ("reset", "step", "state"):
            return _error("UNKNOWN_TYPE", f"Unknown message type: {kind}"), False
        unknown = sorted(set(message) - {"type", "data"})
        if unknown:
            return _error("VALIDATION_ERROR", f"Invalid message: unknown fields {unknown}"), False
        session.touch()
        try:
            async with session.lock:
                if kind == "state":
                    return json.dumps({"type": "state", "data": session.state()}), False
                data = message.get("data", {} if kind == "reset" else None)
                result = await (session.reset(data) if kind == "reset" else session.step(data))
        except Refused as refused:
            return _error(refused.code, refused.message, **refused.data), False
        except Exception as exc:  # a bug: reported to the client and logged, the session goes on
            logger.exception("%s failed", kind)
            return _error("EXECUTION_ERROR", f"internal error: {type(exc).__name__}: {exc}"), False
        finally:
            session.touch()
        return json.dumps({"type": "observation", "data": result}, ensure_ascii=False), False

    # -- /mcp: the agent's tools -----------------------------------------------------------------

    async def _mcp_socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        try:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return
                try:
                    request = json.loads(_text(message))
                except ValueError as exc:
                    reply = _rpc_error(None, "PARSE_ERROR", f"Parse error: {exc}")
                else:
                    reply = await self.rpc(request, None)
                await send({"type": "websocket.send", "text": json.dumps(reply, ensure_ascii=False)})
        except OSError:
            return

    async def mcp_post(self, request: Request) -> Response:
        body = await request.body()
        if len(body) > self.max_request_bytes:
            return JSONResponse(_rpc_error(None, "INVALID_REQUEST", f"the request body is larger than this server's "
                                           f"limit of {self.max_request_bytes} bytes (--max-request-bytes)"))
        try:
            value = json.loads(body)
        except ValueError:
            return JSONResponse(_rpc_error(None, "PARSE_ERROR", "Parse error"))
        return JSONResponse(await self.rpc(value, None))

    async def rpc(self, request: Any, socket_session: Session | None) -> dict[str, Any]:
        """One JSON-RPC request: OpenEnv's session methods and MCP's `tools/list` and `tools/call`.

        `socket_session` is the session of the `/ws` socket that carried it; otherwise a request
        names its session with `session_id` in its params."""
        if not isinstance(request, dict) or request.get("jsonrpc") != "2.0" or not isinstance(request.get("method"), str):
            return _rpc_error(request.get("id") if isinstance(request, dict) else None, "INVALID_REQUEST",
                              'Invalid request: a JSON-RPC 2.0 request has "jsonrpc": "2.0" and a "method"')
        rid, method = request.get("id"), request["method"]
        params = request.get("params", {})
        if not isinstance(params, dict):
            return _rpc_error(rid, "INVALID_PARAMS", "Params must be an object")
        try:
            if method == "openenv/session/create":
                if socket_session is not None:
                    return _rpc_result(rid, {"session_id": socket_session.id})
                return _rpc_result(rid, {"session_id": self.host.create().id})
            if method == "openenv/session/close":
                return _rpc_result(rid, await self._close_session(params.get("session_id"), socket_session))
            if method not in ("tools/list", "tools/call"):
                return _rpc_error(rid, "METHOD_NOT_FOUND", f"Method not found: {method}")
            session = socket_session
            if session is None and params.get("session_id") is not None:
                session = self.host.get(params["session_id"])
            if method == "tools/list":
                tools = session.tools() if session is not None else self.host.default_tools
                return _rpc_result(rid, {"tools": [_mcp_tool(t) for t in tools]})
            if session is None:
                raise Refused("INVALID_PARAMS", "tools/call acts on a session's episode: give its 'session_id' "
                                                "(openenv/session/create, then reset over /ws?session_id=...)")
            session.touch()
            try:
                async with session.lock:
                    return _rpc_result(rid, await session.call_tool(params.get("name"), params.get("arguments")))
            finally:
                session.touch()
        except Refused as refused:
            code = _RPC_ERRORS.get(refused.code, _RPC_SERVER_ERROR)
            return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": refused.message,
                                                             "data": refused.data or None}}
        except Exception as exc:  # a bug: reported and logged
            logger.exception("%s failed", method)
            return _rpc_error(rid, "INTERNAL_ERROR", f"internal error: {type(exc).__name__}: {exc}")

    async def _close_session(self, session_id: Any, socket_session: Session | None) -> dict[str, Any]:
        if not session_id:
            raise Refused("INVALID_PARAMS", "Invalid params - 'session_id' is required")
        if socket_session is not None and session_id == socket_session.id:
            raise Refused("INVALID_REQUEST", "Cannot close active WebSocket-managed session via MCP method")
        session = self.host.get(session_id)
        if session.socket:  # closed when its socket ends
            session.closing = True
            return {"session_id": session.id, "closed": False, "closing": True}
        await self.host.close(session, "it was closed with openenv/session/close")
        return {"session_id": session.id, "closed": True}

    # -- plain HTTP --------------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        name = self.host.toolkit.name
        return PlainTextResponse(
            f"prove-env {self.version}: an OpenEnv environment ({name} by default; a reset's `server` picks any of "
            "prove-env's servers).\n\n"
            "  WS   /ws       reset, step, state, close: one isolated episode per session, the reward in the step "
            "results\n"
            "  POST /mcp      the agent's tools (tools/list, tools/call) and openenv/session/create|close\n"
            "  GET  /health, /metadata, /schema\n\n"
            "Clients: openenv's GenericEnvClient or MCPToolClient with this address as base_url.\n")

    async def health(self, request: Request) -> Response:
        host = self.host
        return JSONResponse({"status": "healthy", "server": host.toolkit.name, "sessions": len(host.sessions),
                             "max_sessions": host.max_sessions, "idle_seconds": host.idle_seconds,
                             "max_request_bytes": self.max_request_bytes})

    async def metadata(self, request: Request) -> Response:
        toolkit = self.host.toolkit
        return JSONResponse({
            "name": f"prove-env-{toolkit.name}",
            "description": f"{toolkit.description()} A prove-env server: a live SQLite world per session, "
                           "tool calls over MCP, the PROVE reward and an outcome-based success flag at the end.",
            "readme_content": None,
            "version": self.version,
            "author": None,
            "documentation_url": None,
        })

    async def schema(self, request: Request) -> Response:
        return JSONResponse(self.schemas)

    async def openapi(self, request: Request) -> Response:
        def get(summary: str) -> dict[str, Any]:
            return {"get": {"summary": summary, "responses": {"200": {"description": "OK"}}}}

        return JSONResponse({
            "openapi": "3.1.0",
            "info": {"title": f"prove-env {self.host.toolkit.name} (OpenEnv)", "version": self.version},
            "paths": {
                "/health": get("Health check"),
                "/metadata": get("Environment metadata"),
                "/schema": get("JSON schemas of the actions, observations and state"),
                "/mcp": {"post": {"summary": "MCP JSON-RPC: tools/list, tools/call, openenv/session/create|close",
                                  "responses": {"200": {"description": "a JSON-RPC response"}}}},
            },
        })


_LOOPBACK = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})


def _host_name(authority: str) -> str:
    """The host of a `host[:port]` authority (`[::1]:8000` -> `[::1]`)."""
    authority = authority.split("/", 1)[0]
    if authority.startswith("["):
        return authority[: authority.find("]") + 1]
    return authority.rsplit(":", 1)[0] if authority.count(":") == 1 else authority


def _query(scope: Scope) -> dict[str, str]:
    from urllib.parse import parse_qsl

    return dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))


def _text(message: dict[str, Any]) -> str:
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        text = data.decode("utf-8", errors="replace")
    return text


async def _send(send: Send, value: dict[str, Any]) -> None:
    await send({"type": "websocket.send", "text": json.dumps(value, ensure_ascii=False)})


async def _close(send: Send) -> None:
    with contextlib.suppress(OSError, RuntimeError):
        await send({"type": "websocket.close", "code": 1000})


def _json(status: int, value: Any) -> JSONResponse:
    return JSONResponse(value, status_code=status)


def _validated(model: Any, data: Any, what: str) -> Any:
    try:
        if isinstance(model, TypeAdapter):
            return model.validate_python(data)
        return model.model_validate(data if data is not None else {})
    except ValidationError as exc:
        errors = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
        raise Refused("VALIDATION_ERROR", f"Invalid {what} data: {_first_error(exc)}", errors=errors) from None


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"])
    return f"{where}: {error['msg']}" if where else error["msg"]


def _error(code: str, message: str, **data: Any) -> str:
    return json.dumps({"type": "error", "data": {"message": message, "code": code, **data}}, ensure_ascii=False)


def _result(observation: dict[str, Any], reward: float | None, done: bool, metadata: dict[str, Any]) -> dict[str, Any]:
    """A step result as OpenEnv serializes one: the observation's fields with its metadata, and
    the reward, done flag and metadata beside it."""
    observation["metadata"] = metadata
    return {"observation": observation, "reward": reward, "done": done, "metadata": metadata}


def _tool_result(text: str, ok: bool) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "structured_content": None, "meta": None, "data": text,
            "is_error": not ok}


def _tool_info(tool: dict[str, Any]) -> dict[str, Any]:
    function = tool["function"]
    return {"name": function["name"], "description": function.get("description") or "",
            "input_schema": function.get("parameters") or {"type": "object", "properties": {}}}


def _mcp_tool(tool: dict[str, Any]) -> dict[str, Any]:
    function = tool["function"]
    return {"name": function["name"], "description": function.get("description") or "",
            "inputSchema": function.get("parameters") or {"type": "object", "properties": {}}}


def _rpc_result(rid: Any, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def _rpc_error(rid: Any, code: str, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": _RPC_ERRORS[code], "message": message, "data": None}}


# -- the app and the server ------------------------------------------------------------------------------


def create_app(
    server: str | type[Toolkit],
    *,
    max_sessions: int = DEFAULT_MAX_EPISODES,
    idle_seconds: float | None = DEFAULT_IDLE_SECONDS,
    max_request_bytes: int = 4 * 1024 * 1024,
    host: str = "127.0.0.1",
) -> OpenEnvApp:
    """The OpenEnv app of one server (the default of resets that name none)."""
    toolkit = get_toolkit(server) if isinstance(server, str) else server
    sessions = SessionHost(toolkit, max_sessions=max_sessions, idle_seconds=idle_seconds)
    return OpenEnvApp(sessions, max_request_bytes=max_request_bytes, loopback=host in ("127.0.0.1", "localhost", "::1"))


def serve(
    server: str | type[Toolkit],
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    max_sessions: int = DEFAULT_MAX_EPISODES,
    idle_seconds: float | None = DEFAULT_IDLE_SECONDS,
    max_request_bytes: int = 4 * 1024 * 1024,
) -> None:
    """Serve `server` over OpenEnv's protocol until interrupted."""
    import uvicorn

    try:
        import websockets  # noqa: F401  (uvicorn's WebSocket protocol)
    except ImportError:
        raise RuntimeError("--transport openenv needs the websockets package: pip install 'prove-env[openenv]'") \
            from None
    app = create_app(server, max_sessions=max_sessions, idle_seconds=idle_seconds,
                     max_request_bytes=max_request_bytes, host=host)
    shown = f"[{host}]" if ":" in host else host
    print(f"prove-env: serving {app.host.toolkit.name} over OpenEnv's protocol at http://{shown}:{port} "
          f"(sessions at ws://{shown}:{port}/ws, the agent's tools at /mcp)", file=sys.stderr)
    raise_file_limit()
    tune_gc()
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=3,
                ws="websockets-sansio", ws_max_size=max_request_bytes, ws_per_message_deflate=False,
                backlog=max(2048, max_sessions), timeout_keep_alive=keep_alive_seconds(idle_seconds))

