"""`prove-env bench`: latency of the environment against the raw floors, measured in one run.

Ratios between numbers of one run are what to compare across machines; absolute times are noisy.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym

__all__ = ["print_http_table", "print_scale_table", "print_table", "run_benchmarks", "run_http_benchmarks",
           "run_scale_benchmarks"]

# Targets of the project's performance spec (docs/performance.md), in microseconds.
TARGETS = {
    "env.step (one read call)": ("p50", 500.0),
    "env.reset (seeded world)": ("p50", 3000.0),
    "reward (one episode)": ("p50", 50.0),
}


def _time(fn: Callable[[], Any], n: int) -> dict[str, float]:
    for _ in range(min(50, n)):
        fn()
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    samples.sort()
    return {
        "p50_us": samples[len(samples) // 2] * 1e6,
        "p95_us": samples[int(len(samples) * 0.95)] * 1e6,
        "n": n,
    }


def _read_call(server: str) -> tuple[int, str, dict[str, Any]]:
    """(seed, tool, arguments) of the cheapest read-only gold call among the server's fixture tasks.

    The step target measures the stack around a tool call, so the call itself should cost little;
    the table shows the call's own time next to the step time.
    """
    from prove_env.registry import get_toolkit
    from prove_env.task import fixture_tasks
    from prove_env.world import worlds

    toolkit = get_toolkit(server)
    specs = toolkit.specs()
    candidates = [(t.seed, c.name, dict(c.arguments)) for t in fixture_tasks(server) if t.seed is not None
                  for c in t.gold_calls if specs[c.name].read_only]
    if not candidates:
        raise ValueError(f"server {server!r} has no fixture task with a read-only gold call to benchmark")

    def cost(candidate: tuple[int, str, dict[str, Any]]) -> float:
        instance = toolkit(worlds.create(toolkit, candidate[0]))
        return _time(lambda: instance.run(candidate[1], candidate[2]), 100)["p50_us"]

    return min(candidates, key=cost)


def run_benchmarks(server: str = "banking", n: int = 2000) -> dict[str, Any]:
    import prove_env  # noqa: F401  (registers the environments)
    from prove_env.reward import Call, Gold, compute_reward
    from prove_env.runtime import run_sync
    from prove_env.task import Task

    seed, name, arguments = _read_call(server)
    task = Task(id="bench", server=server, seed=seed, user_turns=["benchmark"],
                gold=[[{"id": "g1", "name": name, "arguments": arguments}]])
    env = gym.make(f"prove/{server}-v0", tasks=[task], max_steps=10**9, max_calls=10**9)
    env.reset(seed=0)
    inner = env.unwrapped
    client = inner.episode._client
    toolkit = inner.episode.slot.toolkit
    action = {"name": name, "arguments": arguments}

    def step() -> None:
        env.step(action)
        # Keep the transcript and call record short so every sample does the same work.
        del inner._messages[2:]
        del inner.episode.calls[:]

    results: dict[str, Any] = {"server": server, "tool": name, "arguments": arguments}
    results["toolkit call, no MCP"] = _time(lambda: toolkit.run(name, arguments), n)
    results["raw in-process MCP call"] = _time(lambda: run_sync(client.call(name, arguments)), n)
    results["env.step (one read call)"] = _time(step, n)
    results["env.reset (seeded world)"] = _time(lambda: env.reset(), max(100, n // 10))

    calls = [Call("find_account", {"owner_name": "Ada Park"}, True), Call("transfer", {"a": 1, "b": 2}, True),
             Call("get_balance", {"account_id": "ACC-0007"}, True), Call("nope", "{", False)]
    gold = [Gold("g1", "find_account", {"owner_name": "Ada Park"}), Gold("g2", "transfer", {"a": 1, "b": 2}, ("g1",)),
            Gold("g3", "get_balance", {"account_id": "ACC-0007"}, ("g2",))]
    schemas = {"find_account": {"required": ["owner_name"], "properties": {"owner_name": {"type": "string"}}},
               "transfer": {"required": ["a", "b"], "properties": {"a": {"type": "number"}, "b": {"type": "number"}}},
               "get_balance": {"required": ["account_id"], "properties": {"account_id": {"type": "string"}}}}
    results["reward (one episode)"] = _time(lambda: compute_reward(calls, gold, schemas), n)
    env.close()
    raw = results["raw in-process MCP call"]["p50_us"]
    results["ratios"] = {
        "env.step / raw MCP call (p50)": results["env.step (one read call)"]["p50_us"] / raw,
        "raw MCP call / toolkit call (p50)": raw / results["toolkit call, no MCP"]["p50_us"],
    }
    return results


def print_table(results: dict[str, Any]) -> None:
    print(f"server {results['server']}, read call {results['tool']}({results['arguments']})\n")
    print(f"{'measurement':34} {'p50 us':>9} {'p95 us':>9}   target")
    for key, value in results.items():
        if not isinstance(value, dict) or "p50_us" not in value:
            continue
        target = TARGETS.get(key)
        verdict = ""
        if target:
            stat, limit = target
            met = value[f"{stat}_us"] <= limit
            verdict = f"{stat} <= {limit:g} us: {'met' if met else 'MISSED'}"
        print(f"{key:34} {value['p50_us']:9.1f} {value['p95_us']:9.1f}   {verdict}")
    print()
    for key, ratio in results["ratios"].items():
        print(f"{key:44} {ratio:6.2f}x")


# -- scale: large worlds, memory per world, in-process versus stdio subprocesses -------------------


def run_scale_benchmarks(n: int = 200) -> dict[str, Any]:
    import prove_env  # noqa: F401
    from prove_env.registry import get_toolkit
    from prove_env.task import Task
    from prove_env.world import worlds

    results: dict[str, Any] = {}

    # Reset flat in the size of the world: a 5 MB file-system world against the seeded one.
    toolkit = get_toolkit("filesystem")
    snapshot = worlds.create(toolkit, 0).snapshot()
    home = next(row["path"] for row in snapshot["tables"]["nodes"] if row["path"].count("/") == 2
                and row["path"].startswith("/home/"))
    base = next(row for row in snapshot["tables"]["nodes"] if row["kind"] == "file")
    for i in range(50):
        snapshot["tables"]["nodes"].append({**base, "path": f"{home}/bulk-{i:02d}.txt", "parent": home,
                                            "name": f"bulk-{i:02d}.txt", "content": f"{i:02d}" * 50_000})
    large = Task(id="large", server="filesystem", snapshot=snapshot, user_turns=["benchmark"],
                 gold=[[{"id": "g1", "name": "pwd", "arguments": {}}]])
    small = large.model_copy(update={"snapshot": None, "seed": 0, "id": "small"})
    size = len(worlds.snapshot_template(toolkit, snapshot, large.snapshot_key)[0])
    for label, task in (("env.reset (0.1 MB world)", small), (f"env.reset ({size / 2**20:.1f} MB world)", large)):
        env = gym.make("prove/filesystem-v0", tasks=[task])
        results[label] = _time(lambda env=env: env.reset(), max(100, n))
        env.close()

    # Resident memory per live world, measured over 1,000 worlds alive at once.
    banking = get_toolkit("banking")
    worlds.create(banking, 0).close()
    before = _rss_mb()
    alive = [worlds.create(banking, 0) for _ in range(1000)]
    for world in alive:
        world.session  # a live world has its session, as during an episode
    per_world = (_rss_mb() - before) / len(alive)
    for world in alive:
        world.close()
    results["memory per live world (1,000 worlds)"] = {"mb": per_world, "total_mb_1000": per_world * 1000}

    # The same calls in-process and over a stdio subprocess (PROVE's architecture).
    results.update(_stdio_versus_in_process(n))
    return results


def _rss_mb() -> float:
    import os

    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _stdio_versus_in_process(n: int) -> dict[str, Any]:
    import sys

    from mcp import Client, StdioServerParameters

    from prove_env.runtime import run_sync
    from prove_env.task import fixture_tasks

    task = next(t for t in fixture_tasks("calendar") if not t.abstain and t.seed is not None)
    calls = [(c.name, dict(c.arguments)) for c in task.gold_calls]
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "prove_env.cli", "serve", "calendar", "--seed", str(task.seed)])

    cheap = ("get_current_time", {})  # per-call comparison: the stack, not the tool's own work

    async def stdio_calls() -> dict[str, float]:
        async with Client(params) as client:
            for name, arguments in calls:
                await client.call_tool(name, arguments)
            samples = []
            for _ in range(n):
                start = time.perf_counter()
                await client.call_tool(*cheap)
                samples.append(time.perf_counter() - start)
        samples.sort()
        return {"p50_us": samples[len(samples) // 2] * 1e6, "p95_us": samples[int(len(samples) * 0.95)] * 1e6, "n": n}

    async def stdio_episode() -> None:
        # Isolation over stdio means a process per episode: start it, make the calls, stop it.
        async with Client(params) as client:
            for name, arguments in calls:
                await client.call_tool(name, arguments)

    env = gym.make("prove/calendar-v0", tasks=[task], max_steps=10**9, max_calls=10**9)
    env.reset()

    def in_process_call() -> None:
        env.step({"name": cheap[0], "arguments": cheap[1]})
        del env.unwrapped._messages[2:]
        del env.unwrapped.episode.calls[:]

    def in_process_episode() -> None:
        env.reset()
        for name, arguments in calls:
            env.step({"name": name, "arguments": arguments})

    out = {
        "get_current_time over stdio": run_sync(stdio_calls()),
        "get_current_time in-process (env.step)": _time(in_process_call, n),
        "episode, stdio process per episode": _time(lambda: run_sync(stdio_episode()), 5),
        "episode, in-process (reset + calls)": _time(in_process_episode, max(20, n // 10)),
    }
    env.close()
    out["ratios"] = {
        "stdio call / in-process call (p50)": out["get_current_time over stdio"]["p50_us"]
        / out["get_current_time in-process (env.step)"]["p50_us"],
        "stdio episode / in-process episode (p50)": out["episode, stdio process per episode"]["p50_us"]
        / out["episode, in-process (reset + calls)"]["p50_us"],
    }
    return out


def print_scale_table(results: dict[str, Any]) -> None:
    print("scale\n")
    print(f"{'measurement':40} {'p50 us':>11} {'p95 us':>11}")
    for key, value in results.items():
        if isinstance(value, dict) and "p50_us" in value:
            print(f"{key:40} {value['p50_us']:11.1f} {value['p95_us']:11.1f}")
    memory = results["memory per live world (1,000 worlds)"]
    print(f"\n{'memory per live world':40} {memory['mb']:8.2f} MB   (1,000 worlds: {memory['total_mb_1000']:.0f} MB; "
          f"target <= 1024 MB: {'met' if memory['total_mb_1000'] <= 1024 else 'MISSED'})")
    for key, ratio in results["ratios"].items():
        print(f"{key:44} {ratio:8.2f}x (target >= 3x: {'met' if ratio >= 3 else 'MISSED'})")


# -- http: one episode server process under 64 concurrent episodes ---------------------------------

HTTP_TARGET_CALLS_PER_S = 1000.0
HTTP_TARGET_P99_MS = 25.0


def run_http_benchmarks(episodes: int = 64, seconds: float = 3.0, warmup: float = 1.0,
                        rate: float = HTTP_TARGET_CALLS_PER_S) -> dict[str, Any]:
    """`prove-env serve filesystem --transport http` in a subprocess, driven by `prove_env.loadgen` in another.

    Two measurements on the same 64 episodes: every episode flat out (throughput), then the
    episodes paced to offer `rate` calls per second in all (latency at the target's load). The
    calls are the load generator's checked mix (a write, then reads that must return it). Next to
    them, the same calls through `Episode.call` in this process: what a call costs without HTTP.
    """
    import json
    import subprocess
    import sys

    from prove_env.http_server import spawned

    results: dict[str, Any] = {"server": "filesystem", "episodes": episodes, "seconds": seconds}
    with spawned("filesystem", "--max-episodes", str(episodes)) as (base, pid):
        command = [sys.executable, "-m", "prove_env.loadgen", base, "--episodes", str(episodes),
                   "--rates", f"max,{rate:g}", "--seconds", str(seconds), "--warmup", str(warmup),
                   "--server-pid", str(pid), "--json"]
        done = subprocess.run(command, check=False, capture_output=True, text=True,
                              timeout=120 + 4 * (seconds + warmup))
        if done.returncode != 0:
            raise RuntimeError(f"the load generator failed: {done.stderr.strip() or done.stdout.strip()}")
        flat, paced = json.loads(done.stdout)
    results["workload"] = flat["workload"]
    results["flat out"] = flat
    results[f"offered {rate:g} calls/s"] = paced
    results["in-process (Episode.call, same calls)"] = {"cpu_ms_per_call": _in_process_cpu_per_call(min(episodes, 16))}
    return results


def _in_process_cpu_per_call(episodes: int, calls: int = 800) -> float:
    """CPU ms per call of the load generator's mix through `Episode.call`, over `episodes` live episodes."""
    from prove_env.actions import ParsedCall
    from prove_env.episode import Episode
    from prove_env.runtime import run_sync
    from prove_env.task import Task

    task = Task(id="bench-http", server="filesystem", seed=0, user_turns=["benchmark"], gold=[[]], abstain=True)

    async def measure() -> float:
        live = []
        try:
            for _ in range(episodes):
                episode = Episode("filesystem")
                live.append(episode)
                await episode.begin(task)
                await episode.call(ParsedCall("mkdir", {"path": "load"}, None))
            mix = [("write_file", {"path": "load/f0.txt", "content": "episode 0 call 0"})]
            mix += [("cat", {"path": "load/f0.txt"})] * 3
            rounds = max(1, calls // (episodes * len(mix)))
            start = time.process_time()
            for _ in range(rounds):
                for episode in live:
                    for name, arguments in mix:
                        await episode.call(ParsedCall(name, arguments, None))
                    del episode.calls[:]
            return (time.process_time() - start) / (rounds * episodes * len(mix)) * 1000
        finally:
            for episode in live:
                await episode.aclose()

    return run_sync(measure())


def print_http_table(results: dict[str, Any]) -> None:
    print(f"http: one `serve {results['server']} --transport http` process, {results['episodes']} concurrent episodes "
          f"on loopback, load from another process\n({results['workload']}; every read checked against the "
          f"episode's own writes)\n")
    print(f"{'measurement':34} {'calls/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'server CPU ms/call':>19}   target")
    for key, value in results.items():
        if not isinstance(value, dict) or "calls_per_s" not in value:
            continue
        if value["offered_per_s"] is None:
            met = value["calls_per_s"] >= HTTP_TARGET_CALLS_PER_S
            verdict = f">= {HTTP_TARGET_CALLS_PER_S:g} calls/s: {'met' if met else 'MISSED'}"
        else:
            met = value["p99_ms"] <= HTTP_TARGET_P99_MS and value["calls_per_s"] >= 0.98 * value["offered_per_s"]
            verdict = f"p99 <= {HTTP_TARGET_P99_MS:g} ms at {value['offered_per_s']:g} calls/s: {'met' if met else 'MISSED'}"
        cpu = value["server_cpu_ms_per_call"]
        shown = "" if cpu is None else f"{cpu:.2f}"
        print(f"{key:34} {value['calls_per_s']:8.0f} {value['p50_ms']:8.1f} {value['p99_ms']:8.1f} {shown:>19}   {verdict}")
    floor = results["in-process (Episode.call, same calls)"]["cpu_ms_per_call"]
    print(f"{'same calls in-process (Episode.call)':34} {'':8} {'':8} {'':8} {floor:19.2f}")


def run_synth_benchmark(n: int = 1350, workers: int | None = None) -> dict[str, Any]:
    """Synthesis rate: `n` tasks over every server with a recipe, every one replay-validated."""
    import os

    from prove_env.synthesis.pipeline import synthesize

    workers = workers or os.cpu_count() or 1
    result = synthesize(None, n, seed=0, workers=workers)
    tasks = len(result.train) + len(result.test)
    target = 13_500
    return {"servers": result.stats["parameters"]["servers"], "tasks": tasks, "workers": workers,
            "seconds": result.seconds, "tasks_per_s": result.rate,
            "drafts": sum(s["drafts"] for s in result.stats["servers"].values()),
            "minutes_for_13500": target / result.rate / 60 if result.rate else None,
            "target_minutes": 10}


def print_synth_table(results: dict[str, Any]) -> None:
    print(f"synthesis ({', '.join(results['servers'])}; {results['workers']} workers; every task replay-validated)")
    print(f"  {results['tasks']} tasks from {results['drafts']} drafts in {results['seconds']:.1f} s: "
          f"{results['tasks_per_s']:.1f} tasks/s")
    minutes = results["minutes_for_13500"]
    print(f"  13,500 tasks at this rate: {minutes:.1f} min (target <= {results['target_minutes']} min on 2 cores)")
