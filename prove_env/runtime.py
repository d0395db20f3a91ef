"""Running coroutines from synchronous code without a thread hop.

The Gymnasium API is synchronous while MCP clients are async. A background event-loop thread
(an anyio blocking portal) costs a thread switch per call; instead, synchronous callers run the
coroutine to completion on one private event loop, in their own thread. An asyncio loop is not
tied to a thread, so any thread may run it, one at a time (a lock serializes them). A caller whose
thread already runs an event loop (a notebook, an async framework calling the sync API) cannot
nest loops, so its coroutine goes to a helper thread that runs the private loop instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["evicting", "private_loop", "raise_file_limit", "run_sync", "tune_gc"]

logger = logging.getLogger(__name__)

_lock = threading.RLock()
_loop: asyncio.AbstractEventLoop | None = None
_helper: ThreadPoolExecutor | None = None


def private_loop() -> asyncio.AbstractEventLoop:
    """The process-wide loop that synchronous callers run coroutines on."""
    global _loop
    if _loop is None or _loop.is_closed():
        _loop = asyncio.new_event_loop()
    return _loop


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run `coro` to completion on the private loop and return its result."""
    try:
        asyncio.get_running_loop()
        in_a_loop = True
    except RuntimeError:
        in_a_loop = False
    if not in_a_loop:  # outside the except block, so errors raised here carry no unrelated context
        with _lock:
            return private_loop().run_until_complete(coro)
    global _helper
    if _helper is None:
        _helper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="prove-env-loop")
    return _helper.submit(run_sync, coro).result()


GC_THRESHOLDS = (10_000, 10, 10)


def tune_gc() -> None:
    """Garbage collection for a long-running process that makes many MCP calls (`serve --transport
    http` and the synthesis workers call it; it is the process's own setting).

    Every request leaves a few small reference cycles (the MCP SDK's per-request connection and
    runner), and with 64 requests in flight the default thresholds (700, 10, 10) promote them
    fast enough to run a full collection every half second, each walking every object the
    process holds: the 140,000 or so of the imported libraries included. Under load that took
    a third of the CPU and put 100 ms pauses into the latency tail. Freezing what exists once
    the app is built takes the libraries' objects out of every collection (they live as long as
    the process), and a larger young generation lets the per-request cycles die young. Garbage
    is still collected; only how often, and over what, changes.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def raise_file_limit() -> int:
    """Raise this process's open-file limit to its hard limit, and return it (`serve` over HTTP or
    OpenEnv calls it; it is the process's own setting).

    Every live connection holds a file descriptor. The usual soft limit is 1,024 (the hard one often
    much higher), so a server holding a few thousand episodes, each with its client's connection,
    would have `accept` fail with "Too many open files" and drop the connections past the limit.
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return -1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):  # pragma: no cover - a platform cap below the hard limit
            pass
    return soft


@contextlib.asynccontextmanager
async def evicting(evict_idle: Callable[[], Awaitable[Any]], idle_seconds: float | None) -> AsyncIterator[None]:
    """While the block runs, call `evict_idle` every quarter of `idle_seconds` (from 0.05 to 5 s):
    a server closing the episodes left idle that long. Nothing runs when `idle_seconds` is None."""
    if idle_seconds is None:
        yield
        return

    async def forever() -> None:
        period = max(0.05, min(idle_seconds / 4, 5.0))
        while True:
            await asyncio.sleep(period)
            try:
                await evict_idle()
            except Exception:  # pragma: no cover
                logger.exception("idle eviction failed")

    evictor = asyncio.create_task(forever())
    try:
        yield
    finally:
        evictor.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await evictor
