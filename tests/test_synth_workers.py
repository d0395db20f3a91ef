"""The synthesis workers: this process and its helpers run the jobs, results come in job order,
and a failure anywhere reaches the caller."""

from __future__ import annotations

import os
import time

import pytest

from prove_env.synthesis.workers import WorkerError, Workers


def _pid_after(job: tuple[int, float]) -> tuple[int, int]:
    number, pause = job
    time.sleep(pause)
    return number, os.getpid()


def _fails_in_a_helper(job: tuple[int, int]) -> int:
    caller, number = job
    time.sleep(0.05)
    if os.getpid() != caller:
        raise ValueError(f"job {number} refused in a helper")
    return number


def _dies_in_a_helper(job: tuple[int, int]) -> int:
    caller, number = job
    time.sleep(0.05)
    if os.getpid() != caller:
        os._exit(3)
    return number


def test_every_process_works_and_results_come_in_job_order() -> None:
    with Workers(_pid_after, 2) as workers:
        first = list(workers.map((i, 0.1) for i in range(60)))
        again = list(workers.map((i, 0.0) for i in range(5)))  # the helpers serve every map until close
    assert [number for number, _ in first] == list(range(60))
    pids = {pid for _, pid in first}
    assert os.getpid() in pids and len(pids) == 2  # the caller ran jobs, and so did its one helper
    assert [number for number, _ in again] == list(range(5))


def test_one_process_is_the_caller_alone() -> None:
    with Workers(_pid_after, 1) as workers:
        assert list(workers.map((i, 0.0) for i in range(3))) == [(i, os.getpid()) for i in range(3)]


def test_a_job_failing_in_a_helper_is_raised_with_its_traceback() -> None:
    with Workers(_fails_in_a_helper, 2) as workers:
        with pytest.raises(WorkerError, match=r"ValueError: job \d+ refused in a helper(.|\n)*Traceback"):
            list(workers.map((os.getpid(), i) for i in range(100)))


def test_a_helper_that_dies_is_reported() -> None:
    with Workers(_dies_in_a_helper, 2) as workers:
        with pytest.raises(WorkerError, match="a helper process stopped"):
            list(workers.map((os.getpid(), i) for i in range(100)))


def test_a_job_failing_in_the_caller_is_raised_as_it_is() -> None:
    def refuse(job: int) -> int:
        raise KeyError(job)

    with Workers(refuse, 1) as workers, pytest.raises(KeyError):
        list(workers.map(range(3)))


def test_at_least_one_process() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Workers(_pid_after, 0)
