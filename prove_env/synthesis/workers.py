"""Running shards over processes, the calling one included, with the results in shard order.

`Workers(run, processes)` runs `run(job)` for every job of `map(jobs)` in `processes` processes:
the calling process and `processes - 1` helpers it starts (fresh interpreters, as with `spawn`),
which live until `close()` and serve every `map` in between. Jobs are handed out one at a time,
each to the first process that is free, so every process stays busy until the last job whatever
each job costs. `map` yields the results in job order as soon as a result and all before it are
in, so the caller works on them while later jobs run.

The calling process works too, rather than waiting on helpers: it has every server imported and
its caches warm already (its recipes were checked before the run), which each fresh process pays
for again, about a second of imports and a tenth of a second of first use per server.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable, Iterable, Iterator
from multiprocessing import get_context
from typing import Any

__all__ = ["Workers", "WorkerError"]


class WorkerError(RuntimeError):
    """A job failed in a helper process (the message carries its traceback) or a helper died."""


def _helper(connection: Any, run: Callable[[Any], Any], initializer: Callable[[], None] | None) -> None:
    """A helper process: run each job it is sent until it is sent None (or the caller is gone)."""
    if initializer is not None:
        initializer()
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            reply = (True, run(job))
        except BaseException as exc:  # noqa: BLE001 - every failure goes back to the caller
            reply = (False, f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")
        connection.send(reply)


class Workers:
    """`processes` processes (this one and `processes - 1` helpers) running `run` on jobs."""

    def __init__(self, run: Callable[[Any], Any], processes: int,
                 initializer: Callable[[], None] | None = None) -> None:
        if processes < 1:
            raise ValueError("processes must be at least 1")
        self._run = run
        self._connections = []
        self._processes = []
        context = get_context("spawn")
        try:
            for _ in range(processes - 1):
                ours, theirs = context.Pipe()
                process = context.Process(target=_helper, args=(theirs, run, initializer), daemon=True)
                process.start()
                theirs.close()
                self._connections.append(ours)
                self._processes.append(process)
        except BaseException:
            self.close()
            raise

    def map(self, jobs: Iterable[Any]) -> Iterator[Any]:
        """`run(job)` for every job, in job order (the first failure is raised when its turn comes)."""
        jobs = list(jobs)
        results: list[tuple[bool, Any] | None] = [None] * len(jobs)
        changed = threading.Condition()
        state = {"next": 0, "stop": False}

        def take() -> int | None:
            with changed:
                if state["stop"] or state["next"] >= len(jobs):
                    return None
                state["next"] += 1
                return state["next"] - 1

        def serve(connection: Any) -> None:  # one thread per helper: hands it jobs, keeps its results
            while (index := take()) is not None:
                try:
                    connection.send(jobs[index])
                    reply = connection.recv()
                except (EOFError, OSError) as exc:
                    reply = (False, f"a helper process stopped ({type(exc).__name__})")
                with changed:
                    results[index] = reply
                    changed.notify_all()
                if not reply[0]:
                    return

        threads = [threading.Thread(target=serve, args=(c,), daemon=True) for c in self._connections]
        for thread in threads:
            thread.start()
        try:
            for position in range(len(jobs)):
                while results[position] is None:
                    index = take()
                    if index is None:  # every job is taken: wait for the one whose turn it is
                        with changed:
                            changed.wait_for(lambda: results[position] is not None)
                        break
                    try:
                        results[index] = (True, self._run(jobs[index]))
                    except BaseException:
                        with changed:
                            state["stop"] = True
                        raise
                ok, value = results[position]  # type: ignore[misc]
                results[position] = None
                if not ok:
                    raise WorkerError(value)
                yield value
        finally:
            with changed:
                state["stop"] = True
            for thread in threads:
                thread.join()

    def close(self) -> None:
        """Stop the helpers (each finishes its job first)."""
        for connection in self._connections:
            try:
                connection.send(None)
            except (OSError, ValueError):
                pass
        for process in self._processes:
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()
                process.join()
        for connection in self._connections:
            connection.close()
        self._connections, self._processes = [], []

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
