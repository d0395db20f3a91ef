"""A load generator for an episode server (`prove-env serve filesystem --transport http` or `--transport openenv`).

    python -m prove_env.serving.loadgen http://127.0.0.1:8000 --episodes 64 --seconds 5 [--server-pid PID] [--json]
    python -m prove_env.serving.loadgen http://127.0.0.1:8000 --transport openenv --episodes 4096 --rates 1000

It creates `--episodes` episodes, then drives them all at once, each on its own keep-alive HTTP/1.1
connection to its own MCP endpoint (`/episodes/<id>/mcp`), one call in flight per episode, as an
agent makes them: sessionless MCP 2026-07-28 `tools/call` requests (the envelope in `params._meta`,
the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers), alternating a write
(`write_file` of a text naming the episode) and a read (`cat` of that file). Every read must return
exactly what the same episode last wrote there, so a call that reached another episode's world, or
a lost write, fails the run. Calls made during `--warmup` are not counted; throughput is the calls
that ended in the measured window over its length, and latency is each call's round trip.

With `--server-pid`, the server process's CPU time in the measured window is read from
`/proc/<pid>/stat` (Linux), which gives the server's CPU per call apart from the client's, and its
resident memory from `/proc/<pid>/status` at the end of the window (and its peak).

With `--transport openenv` each episode is an OpenEnv session on its own WebSocket (`/ws`), all of
them live at once, and each plays episodes over and over as a trainer does, one message in flight:
a `reset` (a file-system task), `mkdir`, then `--rounds` rounds of a `write_file` and `--reads` `cat`
steps (each read checked against the session's own last write, as above), then an `answer`, whose
result must end the episode with a reward and a success flag. Every message is one step, timed.

The client speaks HTTP/1.1 (and WebSocket frames) directly over asyncio streams: a request is one preformatted write and a
response one header read plus one body read, about 20 to 40 us of client CPU per call, against
several hundred for a general HTTP client. On a machine with few cores the client shares the CPU
with the server it measures, so a cheap client is what keeps the measurement about the server.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

__all__ = ["TRANSPORTS", "WORKLOADS", "LoadError", "LoadResult", "describe", "drive", "main", "run_load"]

PROTOCOL_VERSION = "2026-07-28"
_ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
    "io.modelcontextprotocol/clientInfo": {"name": "prove-env-loadgen", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}
WORKLOADS = {
    "mix": "each episode in turn writes a file (write_file) and reads it back `reads` times (cat); every read is "
           "checked against the episode's own last write",
    "pwd": "each episode calls pwd (a cheap read): the serving stack with little tool work",
}
_FILES = 4  # files each episode rewrites in turn: the world stays the same size however long the run


class LoadError(RuntimeError):
    """The server refused, failed or answered a call wrongly (another episode's state included)."""


@dataclass
class LoadResult:
    """What one load run measured."""

    workload: str
    episodes: int
    offered_per_s: float | None
    """Calls per second the paced episodes offered; None: flat out."""
    calls: int
    writes: int
    seconds: float
    calls_per_s: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    client_cpu_ms_per_call: float
    server_cpu_ms_per_call: float | None = None
    server_cpu_share: float | None = None
    """Cores the server process kept busy in the measured window (1.0 is one core all the time)."""
    warmup_calls: int = 0
    transport: str = "http"
    """http: calls to episodes' MCP endpoints; openenv: steps of OpenEnv sessions (`calls` counts the steps)."""
    server_rss_mb: float | None = None
    """The server's resident memory at the end of the measured window (with `server_pid`)."""
    server_peak_mb: float | None = None
    """The server's peak resident memory so far (with `server_pid`)."""
    latencies_ms: list[float] = field(default_factory=list, repr=False)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["latencies_ms"]
        return data


class _Connection:
    """One keep-alive HTTP/1.1 connection; one request at a time."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.authority = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"",
                      headers: str = "") -> tuple[int, dict[str, str], bytes]:
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        assert self._reader is not None
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.authority}\r\nContent-Length: {len(body)}\r\n"
                f"{headers}\r\n")
        self._writer.write(head.encode() + body)
        try:
            raw = await self._reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            await self.close()
            raise LoadError(f"{method} {path}: the server closed the connection ({exc!r})") from None
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        response_headers = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(":")
                response_headers[name.strip().lower()] = value.strip()
        if "content-length" in response_headers:
            data = await self._reader.readexactly(int(response_headers["content-length"]))
        elif response_headers.get("transfer-encoding", "").lower() == "chunked":
            data = await self._chunked()
        else:
            data = await self._reader.read()
            await self.close()
        if response_headers.get("connection", "").lower() == "close":
            await self.close()
        return status, response_headers, data

    async def _chunked(self) -> bytes:
        assert self._reader is not None
        parts = []
        while True:
            size = int((await self._reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await self._reader.readuntil(b"\r\n")
                return b"".join(parts)
            parts.append(await self._reader.readexactly(size))
            await self._reader.readexactly(2)

    async def close(self) -> None:
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()
            try:
                await writer.wait_closed()
            except (ConnectionError, OSError):
                pass


_JSON_HEADERS = "Content-Type: application/json\r\n"


async def _control(conn: _Connection, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    payload = b"" if body is None else json.dumps(body).encode()
    status, _, data = await conn.request(method, path, payload, _JSON_HEADERS if body is not None else "")
    try:
        return status, json.loads(data) if data else None
    except ValueError:
        return status, data.decode(errors="replace")


class _Episode:
    """One episode driven over its own connection."""

    def __init__(self, index: int, episode_id: str, path: str, conn: _Connection, workload: str, reads: int) -> None:
        self.index, self.episode_id, self.path, self.conn = index, episode_id, path, conn
        self.workload, self.reads = workload, reads
        self.steps = 0
        self.next_id = 0
        self.written: dict[str, str] = {}

    async def call(self, name: str, arguments: dict[str, Any]) -> tuple[bool, str]:
        self.next_id += 1
        body = json.dumps({
            "jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
            "params": {"_meta": {**_ENVELOPE, "prove/call_id": f"load-{self.next_id}"},
                       "name": name, "arguments": arguments},
        }, separators=(",", ":")).encode()
        headers = (f"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                   f"MCP-Protocol-Version: {PROTOCOL_VERSION}\r\nMcp-Method: tools/call\r\nMcp-Name: {name}\r\n")
        status, response_headers, data = await self.conn.request("POST", self.path, body, headers)
        if response_headers.get("content-type", "").startswith("text/event-stream"):
            data = _last_sse_message(data)
        if status != 200:
            raise LoadError(f"episode {self.index}: {name} answered HTTP {status}: {data[:300]!r}")
        message = json.loads(data)
        if message.get("id") != self.next_id or "result" not in message:
            raise LoadError(f"episode {self.index}: {name} answered {str(message)[:300]}")
        result = message["result"]
        text = "\n".join(block.get("text", "") for block in result.get("content", []))
        return not result.get("isError", False), text

    async def step(self, k: int) -> bool:
        """Call k of this episode (see WORKLOADS). True for a write."""
        if self.workload == "pwd":
            ok, text = await self.call("pwd", {})
            if not ok or not text.startswith("/"):
                raise LoadError(f"episode {self.index}: pwd returned {text!r}")
            return False
        turn, position = divmod(k, self.reads + 1)
        path = f"load/f{turn % _FILES}.txt"
        if position == 0:
            content = f"episode {self.index} ({self.episode_id}) call {k}"
            ok, text = await self.call("write_file", {"path": path, "content": content})
            if not ok:
                raise LoadError(f"episode {self.index}: write_file {path} failed: {text}")
            self.written[path] = content
            return True
        ok, text = await self.call("cat", {"path": path})
        if not ok or text != self.written[path]:
            raise LoadError(f"episode {self.index}: cat {path} returned {text!r}, but this episode last wrote "
                            f"{self.written[path]!r} there: a write was lost or another episode's state crossed")
        return False


def _last_sse_message(data: bytes) -> bytes:
    found = b"{}"
    for line in data.split(b"\n"):
        if line.startswith(b"data:"):
            found = line[5:].strip()
    return found


class _WebSocket:
    """One client WebSocket (RFC 6455): text messages out and in, one at a time; pings answered."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.authority = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._pending: asyncio.Future[str] | None = None
        self._failure: str | None = None

    async def open(self, path: str) -> None:
        reader, self._writer = await asyncio.open_connection(self.host, self.port)
        key = base64.b64encode(os.urandom(16)).decode()
        self._writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.authority}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                           .encode())
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            raise LoadError(f"GET {path}: the server closed the connection ({exc!r})") from None
        status = head.split(b" ", 2)[1]
        if status != b"101":
            raise LoadError(f"GET {path}: the WebSocket upgrade answered HTTP {status.decode()}")
        self._reader_task = asyncio.create_task(self._read_forever(reader))

    async def request(self, text: str) -> str:
        """Send one text message and return the next one the server sends."""
        if self._failure is not None or self._writer is None:
            raise LoadError(self._failure or "the WebSocket is not open")
        pending = self._pending = asyncio.get_running_loop().create_future()
        self._writer.write(_frame(0x1, text.encode()))
        return await pending

    async def _read_forever(self, reader: asyncio.StreamReader) -> None:
        parts: list[bytes] = []
        try:
            while True:
                head = await reader.readexactly(2)
                size = head[1] & 0x7F
                if size == 126:
                    size = int.from_bytes(await reader.readexactly(2), "big")
                elif size == 127:
                    size = int.from_bytes(await reader.readexactly(8), "big")
                payload = await reader.readexactly(size) if size else b""
                opcode = head[0] & 0x0F
                if opcode == 0x9:  # ping: the server checks this client is alive
                    assert self._writer is not None
                    self._writer.write(_frame(0xA, payload))
                elif opcode == 0x8:
                    code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
                    raise ConnectionError(f"the server closed the WebSocket (code {code}: "
                                          f"{payload[2:].decode(errors='replace')!r})")
                elif opcode in (0x0, 0x1, 0x2):
                    parts.append(payload)
                    if head[0] & 0x80:  # the last frame of a message
                        message, parts = b"".join(parts).decode(), []
                        pending, self._pending = self._pending, None
                        if pending is not None and not pending.done():
                            pending.set_result(message)
        except (asyncio.IncompleteReadError, ConnectionError, OSError) as exc:
            self._failure = f"the server closed the WebSocket ({exc})"
            if self._pending is not None and not self._pending.done():
                self._pending.set_exception(LoadError(self._failure))
        except asyncio.CancelledError:
            pass

    async def close(self, last: str | None = None) -> None:
        """Close the socket, sending `last` first (a message that ends the session) if it is still open."""
        writer, self._writer = self._writer, None
        if self._reader_task is not None:
            self._reader_task.cancel()
        if writer is not None:
            try:
                if last is not None and self._failure is None:
                    writer.write(_frame(0x1, last.encode()))
                writer.write(_frame(0x8, (1000).to_bytes(2, "big")))
                writer.close()
                await writer.wait_closed()
            except (ConnectionError, OSError):
                pass


def _frame(opcode: int, payload: bytes) -> bytes:
    """One final, masked client frame."""
    size = len(payload)
    if size < 126:
        head = bytes((0x80 | opcode, 0x80 | size))
    elif size < 1 << 16:
        head = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + size.to_bytes(8, "big")
    key = os.urandom(4)
    keys = (key * (size // 4 + 1))[:size]
    masked = (int.from_bytes(payload, "little") ^ int.from_bytes(keys, "little")).to_bytes(size, "little")
    return head + key + masked


_LOAD_TASK = {"id": "load", "server": "filesystem", "seed": 0, "user_turns": ["Keep some notes in load/."],
              "gold": [[]], "abstain": True}
"""The task an OpenEnv session plays over and over: the seed-0 file system, every tool shown, no gold calls."""


class _Session:
    """One OpenEnv session on its own WebSocket, playing episodes one after another.

    An episode is `reset`, `mkdir` (`pwd` for the pwd workload), `rounds` rounds of the workload's
    calls, then `answer`: one message each, every one a step of `_measure`.
    """

    def __init__(self, index: int, socket: _WebSocket, workload: str, reads: int, rounds: int) -> None:
        self.index, self.socket, self.workload, self.reads = index, socket, workload, reads
        self.length = 3 + rounds * (reads + 1)  # reset, mkdir, the rounds, answer
        self.steps = 0
        self.episodes = 0
        self.written: dict[str, str] = {}

    async def open(self, path: str) -> None:
        """Connect and play the first episode's first two steps (reset, mkdir), untimed."""
        await self.socket.open(path)
        await self._position(0, 0)
        await self._position(1, 1)

    async def step(self, k: int) -> bool:
        """Step k of this session (k counts from the first timed step). True for a write."""
        return await self._position((k + 2) % self.length, k + 2)

    async def _position(self, position: int, k: int) -> bool:
        if position == 0:
            self.episodes += 1
            self.written = {}
            data = await self._send("reset", {"task": _LOAD_TASK, "episode_id": f"load-{self.index}-{self.episodes}"})
            if data["done"] or not data["observation"].get("text"):
                raise LoadError(f"session {self.index}: reset answered {str(data)[:300]}")
            return False
        if position == self.length - 1:
            data = await self._send("step", {"type": "answer", "text": "I kept the notes."})
            metadata = data.get("metadata") or {}
            if not data["done"] or not isinstance(data["reward"], int | float) or not isinstance(
                    metadata.get("success"), bool):
                raise LoadError(f"session {self.index}: the answer did not end the episode with a reward: "
                                f"{str(data)[:300]}")
            return False
        if position == 1:
            ok, text = await self.call("mkdir" if self.workload == "mix" else "pwd",
                                       {"path": "load"} if self.workload == "mix" else {})
            if not ok:
                raise LoadError(f"session {self.index}: the first call failed: {text}")
            return False
        if self.workload == "pwd":
            ok, text = await self.call("pwd", {})
            if not ok or not text.startswith("/"):
                raise LoadError(f"session {self.index}: pwd returned {text!r}")
            return False
        turn, slot = divmod(position - 2, self.reads + 1)
        path = f"load/f{turn % _FILES}.txt"
        if slot == 0:
            content = f"session {self.index} episode {self.episodes} step {k}"
            ok, text = await self.call("write_file", {"path": path, "content": content})
            if not ok:
                raise LoadError(f"session {self.index}: write_file {path} failed: {text}")
            self.written[path] = content
            return True
        ok, text = await self.call("cat", {"path": path})
        if not ok or text != self.written[path]:
            raise LoadError(f"session {self.index}: cat {path} returned {text!r}, but this session last wrote "
                            f"{self.written[path]!r} there: a write was lost or another session's state crossed")
        return False

    async def call(self, name: str, arguments: dict[str, Any]) -> tuple[bool, str]:
        data = await self._send("step", {"type": "call_tool", "tool_name": name, "arguments": arguments})
        result = data["observation"].get("result") or {}
        return not result.get("is_error", True), result.get("data", "")

    async def _send(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        reply = json.loads(await self.socket.request(json.dumps({"type": kind, "data": data}, separators=(",", ":"))))
        if reply.get("type") != "observation":
            raise LoadError(f"session {self.index}: {kind} answered {str(reply)[:300]}")
        return reply["data"]

    async def close(self) -> None:
        await self.socket.close('{"type":"close"}')


def _cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of a process, from /proc (None where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _percentile(ordered: list[float], q: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


TRANSPORTS = ("http", "openenv")
_SETUP_CONCURRENCY = 32  # episodes set up at once before a run: quick, without a burst of thousands


async def drive(base_url: str, *, episodes: int = 64, rates: list[float | None] | None = None,
                seconds: float = 5.0, warmup: float = 1.0, workload: str = "mix", reads: int = 3,
                server_pid: int | None = None, transport: str = "http", rounds: int = 4) -> list[LoadResult]:
    """Open `episodes` episodes on the server at `base_url` and drive them all at once (see the module).

    One measurement per entry of `rates`, on the same episodes: None drives every episode flat out
    (its next call as soon as its last one is answered: the server's throughput), a number paces
    the episodes to offer that many calls per second in all, as agents that think between calls.
    A paced call's latency counts from when it was due, so a server that falls behind shows it.
    `transport` is the server's: `http` (episodes' MCP endpoints) or `openenv` (sessions at `/ws`,
    each playing episodes of `rounds` rounds of calls between a reset and an answer).
    """
    from prove_env.runtime import raise_file_limit

    rates = [None] if rates is None else list(rates)
    if episodes < 1:
        raise ValueError("episodes must be at least 1")
    if workload not in WORKLOADS:
        raise ValueError(f"unknown workload {workload!r}: one of {', '.join(WORKLOADS)}")
    if transport not in TRANSPORTS:
        raise ValueError(f"unknown transport {transport!r}: one of {', '.join(TRANSPORTS)}")
    if reads < 0 or rounds < 1:
        raise ValueError("reads must not be negative, and rounds must be at least 1")
    if seconds <= 0 or warmup < 0:
        raise ValueError("seconds must be positive and warmup not negative")
    if not rates or any(rate is not None and not rate > 0 for rate in rates):
        raise ValueError(f"rates are calls per second above 0, or None for flat out, got {rates}")
    url = urlsplit(base_url)
    if url.scheme != "http" or not url.hostname:
        raise ValueError(f"the load generator speaks plain http to a host: give a URL such as "
                         f"http://127.0.0.1:8000, not {base_url!r}")
    host, port, prefix = url.hostname, url.port or 80, url.path.rstrip("/")
    raise_file_limit()  # one connection per episode: thousands of them
    control = _Connection(host, port)
    try:
        status, health = await _control(control, "GET", f"{prefix}/health")
    except OSError as exc:
        raise LoadError(f"cannot reach the episode server at {base_url}: {exc}") from None
    finally:
        await control.close()  # idle through the run, the server would close it (keep-alive timeout)
    if status != 200 or not isinstance(health, dict):
        raise LoadError(f"GET {base_url}/health answered {status}: {health}")
    if transport == "http" and health.get("server") != "filesystem":
        raise LoadError(f"the load generator's calls are file-system calls, but {base_url} serves "
                        f"{health.get('server')!r}: start `prove-env serve filesystem --transport http`")

    created: list[Any] = [None] * episodes
    gate = asyncio.Semaphore(_SETUP_CONCURRENCY)

    async def open_episode(i: int) -> None:
        async with gate:
            if transport == "openenv":
                session = _Session(i, _WebSocket(host, port), workload, reads, rounds)
                created[i] = session
                await session.open(f"{prefix}/ws")
                return
            conn = _Connection(host, port)
            status, data = await _control(conn, "POST", f"{prefix}/episodes", {"seed": 0})
            if status != 201:
                await conn.close()
                raise LoadError(f"POST /episodes answered {status}: {data}")
            episode = created[i] = _Episode(i, data["episode_id"], urlsplit(data["mcp_url"]).path, conn, workload,
                                            reads)
            ok, text = await episode.call("mkdir", {"path": "load"})
            if not ok:
                raise LoadError(f"episode {i}: mkdir failed: {text}")

    results = []
    try:
        await _all(open_episode(i) for i in range(episodes))
        for rate in rates:
            result = await _measure(created, rate, seconds, warmup, server_pid)
            if transport == "openenv":
                result.transport = "openenv"
                result.workload = (f"episodes of reset, {'mkdir' if workload == 'mix' else 'pwd'}, {rounds} x ("
                                   + ("write_file, " + f"{reads} cat" if workload == "mix" else f"{reads + 1} pwd")
                                   + "), answer")
            results.append(result)
    finally:
        await _all(_dispose(episode, prefix, gate) for episode in created if episode is not None)
    return results


async def _all(coroutines: Any) -> None:
    """Run them all; the first failure is raised once every one has ended."""
    outcomes = await asyncio.gather(*coroutines, return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome


async def _dispose(episode: Any, prefix: str, gate: asyncio.Semaphore) -> None:
    """Close an episode's connection; an HTTP episode is deleted on the server first."""
    async with gate:
        if isinstance(episode, _Session):
            await episode.close()
            return
        try:
            await _control(episode.conn, "DELETE", f"{prefix}/episodes/{episode.episode_id}")
        except (LoadError, OSError):
            pass
        await episode.conn.close()


async def _measure(created: list[Any], rate: float | None, seconds: float, warmup: float,
                   server_pid: int | None) -> LoadResult:
    clock = time.perf_counter
    start = clock()
    window_start, window_end = start + warmup, start + warmup + seconds
    interval = None if rate is None else len(created) / rate
    latencies: list[float] = []
    counts = {"calls": 0, "writes": 0, "warmup": 0}
    marks: dict[str, float | None] = {}
    memory: dict[str, float] = {}

    async def mark_window() -> None:
        await asyncio.sleep(max(0.0, window_start - clock()))
        marks["cpu0"], marks["server0"] = time.process_time(), _server_cpu(server_pid)
        await asyncio.sleep(max(0.0, window_end - clock()))
        marks["cpu1"], marks["server1"] = time.process_time(), _server_cpu(server_pid)
        memory.update(_server_memory(server_pid))

    async def run(episode: Any) -> None:
        n = 0
        due = start + (0.0 if interval is None else interval * episode.index / len(created))
        while True:
            if interval is not None:
                await asyncio.sleep(max(0.0, due - clock()))
            began = clock()
            if began >= window_end:
                return
            wrote = await episode.step(episode.steps)
            ended = clock()
            episode.steps += 1
            n += 1
            if window_start <= ended <= window_end:
                latencies.append(ended - (began if interval is None else min(began, due)))
                counts["calls"] += 1
                counts["writes"] += wrote
            elif ended < window_start:
                counts["warmup"] += 1
            if interval is not None:
                due += interval

    await asyncio.gather(mark_window(), *(run(episode) for episode in created))
    calls = counts["calls"]
    if calls == 0:
        raise LoadError("no call ended in the measured window: the server answered nothing")
    ordered = sorted(latencies)
    client_cpu = (marks["cpu1"] or 0.0) - (marks["cpu0"] or 0.0)
    server_cpu = None
    if marks.get("server0") is not None and marks.get("server1") is not None:
        server_cpu = marks["server1"] - marks["server0"]  # type: ignore[operator]
    workload = created[0].workload
    return LoadResult(
        workload=workload if workload == "pwd" else f"mix: 1 write_file, {created[0].reads} cat",
        episodes=len(created),
        offered_per_s=rate,
        calls=calls,
        writes=counts["writes"],
        seconds=seconds,
        calls_per_s=calls / seconds,
        p50_ms=_percentile(ordered, 0.5) * 1000,
        p90_ms=_percentile(ordered, 0.9) * 1000,
        p99_ms=_percentile(ordered, 0.99) * 1000,
        max_ms=ordered[-1] * 1000,
        client_cpu_ms_per_call=client_cpu / calls * 1000,
        server_cpu_ms_per_call=None if server_cpu is None else server_cpu / calls * 1000,
        server_cpu_share=None if server_cpu is None else server_cpu / seconds,
        warmup_calls=counts["warmup"],
        server_rss_mb=memory.get("VmRSS"),
        server_peak_mb=memory.get("VmHWM"),
        latencies_ms=[value * 1000 for value in ordered],
    )


def _server_cpu(pid: int | None) -> float | None:
    return None if pid is None else _cpu_seconds(pid)


def _server_memory(pid: int | None) -> dict[str, float]:
    """The server's resident memory now (VmRSS) and at its peak (VmHWM), in MB, from /proc (Linux)."""
    if pid is None:
        return {}
    try:
        with open(f"/proc/{pid}/status") as f:
            lines = f.read().splitlines()
    except OSError:
        return {}
    found = {}
    for line in lines:
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0]) / 1024
    return found


def run_load(base_url: str, **options: Any) -> list[LoadResult]:
    """`drive` from synchronous code."""
    return asyncio.run(drive(base_url, **options))


def describe(result: LoadResult) -> str:
    """One line about one measurement."""
    unit = "steps" if result.transport == "openenv" else "calls"
    each = unit[:-1]
    who = "sessions" if result.transport == "openenv" else "episodes"
    offered = "flat out" if result.offered_per_s is None else f"offered {result.offered_per_s:g} {unit}/s"
    server = (f", server CPU {result.server_cpu_ms_per_call:.2f} ms/{each} ({result.server_cpu_share:.2f} cores busy)"
              if result.server_cpu_ms_per_call is not None and result.server_cpu_share is not None else "")
    memory = (f", server memory {result.server_rss_mb:,.0f} MB (peak {result.server_peak_mb:,.0f} MB)"
              if result.server_rss_mb is not None and result.server_peak_mb is not None else "")
    return (f"{result.workload}, {result.episodes} {who}, {offered}: {result.calls_per_s:.0f} {unit}/s, "
            f"p50 {result.p50_ms:.1f} ms, p99 {result.p99_ms:.1f} ms, client CPU "
            f"{result.client_cpu_ms_per_call:.3f} ms/{each}{server}{memory}")


def _rate(text: str) -> float | None:
    if text == "max":
        return None
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"a rate is 'max' or a number of calls per second above 0, not {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m prove_env.serving.loadgen", description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the episode server, such as http://127.0.0.1:8000")
    parser.add_argument("--transport", choices=TRANSPORTS, default="http",
                        help="the server's: http (episodes' MCP endpoints, the default) or openenv (sessions at /ws)")
    parser.add_argument("--episodes", type=int, default=64, help="concurrent episodes or sessions (default 64)")
    parser.add_argument("--rates", default="max",
                        help="comma-separated measurements: 'max' (every episode flat out) or calls per second "
                             "offered in all, such as max,500,1000 (default max)")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each measured window (default 5)")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds of calls not counted first (default 1)")
    parser.add_argument("--workload", choices=list(WORKLOADS), default="mix",
                        help="mix: write_file then --reads cat calls, each checked (default); pwd: a cheap read")
    parser.add_argument("--reads", type=int, default=3, help="mix: reads after each write (default 3)")
    parser.add_argument("--rounds", type=int, default=4,
                        help="openenv: rounds of calls (a write and its reads) per episode, between a reset and an "
                             "answer (default 4)")
    parser.add_argument("--server-pid", type=int,
                        help="the server's process id, to measure its CPU per call and its memory")
    parser.add_argument("--json", action="store_true", help="print the results as a JSON list")
    args = parser.parse_args(argv)
    try:
        rates = [_rate(part.strip()) for part in args.rates.split(",")]
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    try:
        results = run_load(args.url, episodes=args.episodes, rates=rates, seconds=args.seconds, warmup=args.warmup,
                           workload=args.workload, reads=args.reads, server_pid=args.server_pid,
                           transport=args.transport, rounds=args.rounds)
    except (LoadError, ValueError) as exc:
        print(f"loadgen: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps([result.as_dict() for result in results]))
    else:
        for result in results:
            print(describe(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
