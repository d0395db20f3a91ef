"""`prove-env bench`: latency of the environment against the raw floors, measured in one run.

Ratios between numbers of one run are what to compare across machines; absolute times are noisy.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym

__all__ = ["run_benchmarks", "print_table"]

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
