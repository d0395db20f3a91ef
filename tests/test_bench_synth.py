"""The bench's synthesis section: the rate, and the CPU time of every process of the run."""

from __future__ import annotations

import resource

from prove_env.bench import run_synth_benchmark


def test_the_synthesis_bench_counts_the_cpu_of_the_helpers_too() -> None:
    def own() -> float:
        used = resource.getrusage(resource.RUSAGE_SELF)
        return used.ru_utime + used.ru_stime

    before = own()
    result = run_synth_benchmark(20, workers=2)
    mine = own() - before
    assert result["tasks"] == 20 and result["workers"] == 2
    assert result["cpu_seconds"] > mine  # the helper's imports and shards are in it
    assert result["cpu_ms_per_task"] == 1000 * result["cpu_seconds"] / 20
    assert result["worlds"] >= len(result["servers"])
