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
