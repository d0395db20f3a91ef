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
import threading
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["run_sync", "private_loop"]

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
