"""`prove-env bench`: the environment's speed against the targets, every figure measured in one run.

Stages, each announced on stderr as it starts: one per server (tool calls without MCP, a trivial
MCP call, the raw MCP call, `env.step`, `env.reset`, the reward), then the scale section (large
worlds, memory, stdio against in-process, command start-up), the HTTP load, with `--openenv` the
OpenEnv sessions of one process, and the synthesis rate. The servers the bench starts say nothing. The report ends with a one-screen summary of every
target and what this run measured.

Ratios between figures of one run are what to compare across machines; absolute times move with
the machine's load.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from mcp.types import CallToolResult, TextContent  # module level: the trivial tool's annotations name them

__all__ = ["Progress", "TARGETS", "print_http_table", "print_openenv_table", "print_report", "print_scale_table",
           "print_startup_table", "print_summary", "print_synth_table", "summary", "print_table", "run_all",
           "run_benchmarks", "run_http_benchmarks", "run_openenv_benchmarks", "run_scale_benchmarks",
           "run_startup_benchmarks", "run_synth_benchmark"]

TARGETS = {
    "read": 100.0,            # us, p50 of a read call's own work (the toolkit, no MCP)
    "step_ratio": 1.5,        # env.step of the server's cheapest read / a trivial raw MCP call, p50
    "step": 500.0,            # us, p50 of env.step with one read call
    "reset_p50": 3000.0,      # us
    "reset_p95": 10000.0,     # us
    "reward": 50.0,           # us, p50
    "worlds_mb": 1024.0,      # resident MB for 1,000 live worlds
    "stdio_ratio": 3.0,       # in-process rollouts at least this much faster than over stdio
    "http_calls_per_s": 1500.0,
    "http_rate": 1000.0,      # calls/s offered for the latency target
    "http_p99_ms": 25.0,
    "list_s": 0.8,            # wall time of `prove-env list`
    "serve_s": 1.5,           # `prove-env serve --transport http` until it answers
    "synth_minutes": 3.0,     # the 13.5K-task set on 2 cores
    "openenv_sessions": 4096,  # live OpenEnv sessions of one process, every step answered
    "openenv_rate": 1000.0,   # steps/s offered for the latency target
    "openenv_p99_ms": 50.0,
}


class Progress:
    """One line on stderr as each stage starts, and its time when it ends."""

    def __init__(self, stages: int, stream: Any = None) -> None:
        self.stages, self.done, self.stream = stages, 0, stream or sys.stderr

    @contextmanager
    def stage(self, what: str) -> Iterator[None]:
        self.done += 1
        print(f"[{self.done}/{self.stages}] {what} ...", end="", file=self.stream, flush=True)
        started = time.perf_counter()
        try:
            yield
        finally:
            print(f" {time.perf_counter() - started:.1f} s", file=self.stream, flush=True)


def _time(fn: Callable[[], Any], n: int, setup: Callable[[], Any] | None = None,
          warmup: int | None = None) -> dict[str, float]:
    """p50 and p95 of `fn` over `n` calls after `warmup` calls (default: up to 50); `setup` runs
    before each call, untimed."""
    for _ in range(min(50, n) if warmup is None else warmup):
        fn()
    samples = []
    for _ in range(n):
        if setup is not None:
            setup()
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    samples.sort()
    return {
        "p50_us": samples[len(samples) // 2] * 1e6,
        "p95_us": samples[int(len(samples) * 0.95)] * 1e6,
        "n": n,
    }


# -- one server: the call path, layer by layer ------------------------------------------------------


def _fixture_reads(server: str, samples: int) -> dict[str, dict[str, Any]]:
    """Each read-only tool the server's fixture tasks call, timed alone (the toolkit, no MCP) where its
    task first calls it: on the task's world, after the task's gold calls before it."""
    from prove_env.episode import build_world
    from prove_env.registry import get_toolkit
    from prove_env.task import fixture_tasks

    toolkit = get_toolkit(server)
    specs = toolkit.specs()
    reads: dict[str, dict[str, Any]] = {}
    for task in fixture_tasks(server):
        instance = toolkit(build_world(toolkit, task))
        for call in task.gold_calls:
            arguments = dict(call.arguments)
            if specs[call.name].read_only and call.name not in reads:
                run = lambda name=call.name, a=arguments: instance.run(name, a)  # noqa: E731
                reads[call.name] = {**_time(run, samples), "arguments": arguments,
                                    "cold_p50_us": _cold(instance, call.name, arguments, samples)}
            instance.run(call.name, arguments)
        instance.world.close()
    return reads


def _cold(instance: Any, name: str, arguments: dict[str, Any], samples: int) -> float:
    """p50 of the same read as the first call on a fresh clone of its world (nothing loaded yet,
    as in the first calls of an episode after `env.reset`)."""
    fresh: list[Any] = []

    def clone() -> None:
        if fresh:
            fresh.pop().world.close()
        fresh.append(type(instance)(instance.world.clone()))

    try:
        return _time(lambda: fresh[-1].run(name, arguments), samples, clone, warmup=0)["p50_us"]
    finally:
        for other in fresh:
            other.world.close()


def is_simple_read(arguments: dict[str, Any]) -> bool:
    """A simple read looks one thing up: it is called with one argument or none (an id, a name, a
    path). Searches with filters, date ranges and reports take more, and have no target."""
    return len(arguments) <= 1


def _cheapest_read(server: str, seed: int) -> tuple[str, dict[str, Any]]:
    """The server's cheapest read call on the world of `seed`: among its visible read-only tools
    called without arguments and the read calls of its fixture tasks with their arguments, those
    that succeed there, the one whose call costs least alone.

    `env.step` with it measures the stack around a call, next to a trivial MCP call: the tool's own
    work is as small as the server has (what a read costs is measured per read, without MCP)."""
    from prove_env.registry import get_toolkit
    from prove_env.task import fixture_tasks
    from prove_env.toolkit import ToolError
    from prove_env.world import worlds

    toolkit = get_toolkit(server)
    specs = toolkit.specs()
    candidates = [(spec.name, {}) for spec in toolkit.visible_specs() if spec.read_only and not spec.required]
    candidates += [(call.name, dict(call.arguments)) for task in fixture_tasks(server) for call in task.gold_calls
                   if specs[call.name].read_only and not specs[call.name].hidden]
    instance = toolkit(worlds.create(toolkit, seed))
    costs: dict[int, float] = {}
    for index, (name, arguments) in enumerate(candidates):
        if any(candidates[i] == (name, arguments) for i in costs):
            continue
        try:
            instance.run(name, arguments)
        except ToolError:
            continue
        costs[index] = _time(lambda name=name, arguments=arguments: instance.run(name, arguments), 30)["p50_us"]
    instance.world.close()
    if not costs:
        raise ValueError(f"server {server!r} has no read call that succeeds on the world of seed {seed}")
    return candidates[min(costs, key=costs.__getitem__)]


def _trivial_server() -> Any:
    """An MCP server with one tool that does nothing (an async function that returns its result, as
    prove-env's tools are): the MCP SDK's own cost of a tool call."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("trivial", log_level="WARNING")

    async def ping() -> CallToolResult:
        """Answer 'pong'."""
        return CallToolResult(content=[TextContent(type="text", text="pong")])

    server.add_tool(ping)
    return server


def run_benchmarks(server: str = "banking", n: int = 2000) -> dict[str, Any]:
    """The call path of one server, layer by layer, in one run."""
    import gymnasium as gym

    import prove_env  # noqa: F401  (registers the environments)
    from prove_env.mcp_server import ToolClient
    from prove_env.reward import Call, Gold, compute_reward
    from prove_env.runtime import run_sync
    from prove_env.task import Task, fixture_tasks

    results: dict[str, Any] = {"server": server}

    # Every read the fixture tasks make, each tool alone (no MCP): the tools' own work.
    results["reads without MCP"] = _fixture_reads(server, max(10, n // 10))

    seed = next((t.seed for t in fixture_tasks(server) if t.seed is not None), 0)
    name, arguments = _cheapest_read(server, seed)
    results["tool"], results["arguments"] = name, arguments
    task = Task(id="bench", server=server, seed=seed, user_turns=["benchmark"],
                gold=[[{"id": "g1", "name": name, "arguments": arguments}]])
    env = gym.make(f"prove/{server}-v0", tasks=[task], max_steps=10**9, max_calls=10**9)
    env.reset(seed=0)
    inner = env.unwrapped
    client = inner.episode._client
    action = {"name": name, "arguments": arguments}

    def step() -> None:
        env.step(action)
        # Keep the transcript and call record short so every sample does the same work.
        del inner._messages[2:]
        del inner.episode.calls[:]

    trivial = ToolClient(_trivial_server()).open()
    results["toolkit call, no MCP"] = _time(lambda: inner.episode.slot.toolkit.run(name, arguments), n)
    results["trivial MCP call"] = _time(lambda: run_sync(trivial.call("ping", {})), n)
    results["raw in-process MCP call"] = _time(lambda: run_sync(client.call(name, arguments)), n)
    results["env.step (one read call)"] = _time(step, n)
    results["env.reset (seeded world)"] = _time(lambda: env.reset(), max(100, n // 10))
    trivial.close()

    calls = [Call("find_account", {"owner_name": "Ada Park"}, True), Call("transfer", {"a": 1, "b": 2}, True),
             Call("get_balance", {"account_id": "ACC-0007"}, True), Call("nope", "{", False)]
    gold = [Gold("g1", "find_account", {"owner_name": "Ada Park"}), Gold("g2", "transfer", {"a": 1, "b": 2}, ("g1",)),
            Gold("g3", "get_balance", {"account_id": "ACC-0007"}, ("g2",))]
    schemas = {"find_account": {"required": ["owner_name"], "properties": {"owner_name": {"type": "string"}}},
               "transfer": {"required": ["a", "b"], "properties": {"a": {"type": "number"}, "b": {"type": "number"}}},
               "get_balance": {"required": ["account_id"], "properties": {"account_id": {"type": "string"}}}}
    results["reward (one episode)"] = _time(lambda: compute_reward(calls, gold, schemas), n)
    env.close()
    trivial_p50 = results["trivial MCP call"]["p50_us"]
    results["ratios"] = {
        "env.step / trivial MCP call (p50)": results["env.step (one read call)"]["p50_us"] / trivial_p50,
        "env.step / raw MCP call (p50)": results["env.step (one read call)"]["p50_us"]
        / results["raw in-process MCP call"]["p50_us"],
        "raw MCP call / trivial MCP call (p50)": results["raw in-process MCP call"]["p50_us"] / trivial_p50,
    }
    return results


def print_table(results: dict[str, Any]) -> None:
    shown = json.dumps(results["arguments"], ensure_ascii=False)
    print(f"server {results['server']}: env.step with {results['tool']}({shown}) (its cheapest read)\n")
    print(f"{'measurement':36} {'p50 us':>9} {'p95 us':>9}")
    for key, value in results.items():
        if isinstance(value, dict) and "p50_us" in value:
            print(f"{key:36} {value['p50_us']:9.1f} {value['p95_us']:9.1f}")
    for key, ratio in results["ratios"].items():
        print(f"{key:46} {ratio:6.2f}x")
    print(f"\nthe fixture tasks' read calls without MCP (* simple reads, one argument or none: p50 <= "
          f"{TARGETS['read']:g} us)")
    print(f"  {'':62} {'p50 us':>9} {'p95 us':>9} {'p50 cold':>9}")
    for name, value in results["reads without MCP"].items():
        shown = json.dumps(value["arguments"], ensure_ascii=False)
        shown = shown if len(shown) <= 46 else shown[:43] + "..."
        mark = "*" if is_simple_read(value["arguments"]) else " "
        print(f"{mark} {name + ' ' + shown:62} {value['p50_us']:9.1f} {value['p95_us']:9.1f} "
              f"{value['cold_p50_us']:9.1f}")


# -- scale: large worlds, memory per world, in-process versus stdio subprocesses -------------------


def run_scale_benchmarks(n: int = 200) -> dict[str, Any]:
    import gymnasium as gym

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
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _stdio_versus_in_process(n: int, episodes: int = 5) -> dict[str, Any]:
    import gymnasium as gym
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from prove_env.runtime import run_sync
    from prove_env.task import fixture_tasks

    task = next(t for t in fixture_tasks("calendar") if not t.abstain and t.seed is not None)
    calls = [(c.name, dict(c.arguments)) for c in task.gold_calls]
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "prove_env.cli", "serve", "calendar", "--seed", str(task.seed)])
    quiet = open(os.devnull, "w")  # each server announces itself on stderr: not in the bench's output

    def connect() -> Any:
        return Client(stdio_client(params, errlog=quiet))

    cheap = ("get_current_time", {})  # per-call comparison: the stack, not the tool's own work

    async def stdio_calls() -> dict[str, float]:
        async with connect() as client:
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
        async with connect() as client:
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

    try:
        out = {
            "get_current_time over stdio": run_sync(stdio_calls()),
            "get_current_time in-process (env.step)": _time(in_process_call, n),
            "episode, stdio process per episode": _time(lambda: run_sync(stdio_episode()), episodes, warmup=1),
            "episode, in-process (reset + calls)": _time(in_process_episode, max(20, n // 10)),
        }
    finally:
        env.close()
        quiet.close()
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
    print(f"\n{'memory per live world':40} {memory['mb']:8.2f} MB   (1,000 worlds: {memory['total_mb_1000']:.0f} MB)")
    for key, ratio in results["ratios"].items():
        print(f"{key:44} {ratio:8.2f}x")


# -- start-up: the command line -----------------------------------------------------------------------


def run_startup_benchmarks(runs: int = 5) -> dict[str, Any]:
    """Wall time of `prove-env list`, and of `prove-env serve <server> --transport http` until it answers."""
    from prove_env.serving.http import spawned
    from prove_env.registry import server_names

    command = [sys.executable, "-m", "prove_env.cli"]
    listing = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([*command, "list"], check=True, capture_output=True)
        listing.append(time.perf_counter() - started)

    server = server_names()[0]
    serving = []
    for _ in range(max(1, runs // 2 + 1)):
        started = time.perf_counter()
        with spawned(server):
            serving.append(time.perf_counter() - started)
    return {"prove-env list": {"median_s": statistics.median(listing), "min_s": min(listing), "runs": runs},
            f"prove-env serve {server} --transport http, until it answers":
                {"median_s": statistics.median(serving), "min_s": min(serving), "runs": len(serving)}}


def print_startup_table(results: dict[str, Any]) -> None:
    print("start-up (wall time of the whole command)\n")
    for key, value in results.items():
        print(f"{key:60} median {value['median_s']:5.2f} s, best {value['min_s']:5.2f} s of {value['runs']}")


# -- http: one episode server process under 64 concurrent episodes ---------------------------------


def run_http_benchmarks(episodes: int = 64, seconds: float = 3.0, warmup: float = 1.0,
                        rate: float = TARGETS["http_rate"]) -> dict[str, Any]:
    """`prove-env serve filesystem --transport http` in a subprocess, driven by `prove_env.serving.loadgen` in another.

    Two measurements on the same 64 episodes: every episode flat out (throughput), then the
    episodes paced to offer `rate` calls per second in all (latency at the target's load). The
    calls are the load generator's checked mix (a write, then reads that must return it). Next to
    them, the same calls through `Episode.call` in this process: what a call costs without HTTP.
    """
    from prove_env.serving.http import spawned

    results: dict[str, Any] = {"server": "filesystem", "episodes": episodes, "seconds": seconds}
    with spawned("filesystem", "--max-episodes", str(episodes)) as (base, pid):
        command = [sys.executable, "-m", "prove_env.serving.loadgen", base, "--episodes", str(episodes),
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
    print(f"{'measurement':36} {'calls/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'server CPU ms/call':>19} {'cores':>6}")
    for key, value in results.items():
        if not isinstance(value, dict) or "calls_per_s" not in value:
            continue
        cpu, share = value["server_cpu_ms_per_call"], value.get("server_cpu_share")
        print(f"{key:36} {value['calls_per_s']:8.0f} {value['p50_ms']:8.1f} {value['p99_ms']:8.1f} "
              f"{'' if cpu is None else f'{cpu:.2f}':>19} {'' if share is None else f'{share:.2f}':>6}")
    floor = results["in-process (Episode.call, same calls)"]["cpu_ms_per_call"]
    print(f"{'same calls in-process (Episode.call)':36} {'':8} {'':8} {'':8} {floor:19.2f}")


# -- openenv: one OpenEnv server process holding thousands of live sessions -------------------------------


def run_openenv_benchmarks(sessions: int = TARGETS["openenv_sessions"], seconds: float = 10.0,
                           rate: float = TARGETS["openenv_rate"]) -> dict[str, Any]:
    """`prove-env serve filesystem --transport openenv` in a subprocess, `sessions` WebSocket sessions
    live at once from a `prove_env.serving.loadgen` process, paced to offer `rate` steps per second in all.

    Each session plays whole episodes (reset, mkdir, four rounds of a write and three checked reads,
    an answer that must end the episode with a reward), every message a timed step; a step that is
    not answered, or answered wrongly, fails the run. The window opens once every session has made
    its first paced step. The server's memory is read at the end of the window.
    """
    from prove_env.serving.http import spawned

    warmup = max(1.0, sessions / rate)
    results: dict[str, Any] = {"server": "filesystem", "sessions": sessions, "seconds": seconds,
                               "cores": os.cpu_count(), "load_average_before": _load_average()}
    with spawned("filesystem", "--max-episodes", str(sessions), transport="openenv") as (base, pid):
        command = [sys.executable, "-m", "prove_env.serving.loadgen", base, "--transport", "openenv", "--episodes",
                   str(sessions), "--rates", f"{rate:g}", "--seconds", str(seconds), "--warmup", f"{warmup:g}",
                   "--server-pid", str(pid), "--json"]
        done = subprocess.run(command, check=False, capture_output=True, text=True,
                              timeout=300 + sessions * 0.2 + 2 * (seconds + warmup))
        if done.returncode != 0:
            raise RuntimeError(f"the load generator failed: {done.stderr.strip() or done.stdout.strip()}")
        (paced,) = json.loads(done.stdout)
    results["load_average_after"] = _load_average()
    results["workload"] = paced["workload"]
    results[f"offered {rate:g} steps/s"] = paced
    return results


def _load_average() -> float | None:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def print_openenv_table(results: dict[str, Any]) -> None:
    print(f"openenv: one `serve {results['server']} --transport openenv` process, {results['sessions']:,} live "
          f"sessions (one WebSocket each), load from another process\n({results['workload']}; every read checked "
          f"against the session's own writes; load average {results['load_average_before']} before, "
          f"{results['load_average_after']} after, {results['cores']} cores)\n")
    print(f"{'measurement':26} {'steps/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'server CPU ms/step':>19} {'cores':>6} "
          f"{'server MB':>10}")
    for key, value in results.items():
        if not isinstance(value, dict) or "calls_per_s" not in value:
            continue
        cpu, share, rss = value["server_cpu_ms_per_call"], value.get("server_cpu_share"), value.get("server_rss_mb")
        print(f"{key:26} {value['calls_per_s']:8.0f} {value['p50_ms']:8.1f} {value['p99_ms']:8.1f} "
              f"{'' if cpu is None else f'{cpu:.2f}':>19} {'' if share is None else f'{share:.2f}':>6} "
              f"{'' if rss is None else f'{rss:,.0f}':>10}")


# -- synthesis ------------------------------------------------------------------------------------------


def run_synth_benchmark(n: int = 1350, workers: int | None = None,
                        progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Synthesis rate: `n` tasks over every server with a recipe, every one replay-validated; with
    the CPU time of every process of the run (this one and its helpers), which a loaded machine
    changes far less than the wall time."""
    import resource

    from prove_env.synthesis.pipeline import synthesize

    def cpu() -> float:
        used = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
        return sum(u.ru_utime + u.ru_stime for u in used)

    workers = workers or os.cpu_count() or 1
    before = cpu()
    result = synthesize(None, n, seed=0, workers=workers, progress=progress)
    cpu_seconds = cpu() - before  # the helpers are joined when synthesize returns: their time is in
    tasks = len(result.train) + len(result.test)
    target = 13_500
    return {"servers": result.stats["parameters"]["servers"], "tasks": tasks, "workers": workers,
            "seconds": result.seconds, "tasks_per_s": result.rate, "cpu_seconds": cpu_seconds,
            "cpu_ms_per_task": 1000 * cpu_seconds / tasks if tasks else None,
            "worlds": sum(len(s["worlds"]["train"]) + len(s["worlds"]["test"])
                          for s in result.stats["servers"].values()),
            "drafts": sum(s["drafts"] for s in result.stats["servers"].values()),
            "minutes_for_13500": target / result.rate / 60 if result.rate else None,
            "target_minutes": TARGETS["synth_minutes"]}


def print_synth_table(results: dict[str, Any]) -> None:
    print(f"synthesis ({', '.join(results['servers'])}; {results['workers']} workers; every task replay-validated)")
    print(f"  {results['tasks']} tasks from {results['drafts']} drafts in {results['seconds']:.1f} s: "
          f"{results['tasks_per_s']:.1f} tasks/s; {results['cpu_seconds']:.1f} s of CPU in all processes "
          f"({results['cpu_ms_per_task']:.1f} ms a task); tasks from {results['worlds']} worlds")


# -- the whole bench --------------------------------------------------------------------------------------


def run_all(servers: list[str], n: int = 2000, *, scale: bool = True, http: bool = True, synth_n: int = 1350,
            openenv: int = 0, progress: Progress | None = None) -> dict[str, Any]:
    """Every section `prove-env bench` runs, each stage announced through `progress`; `openenv`
    live OpenEnv sessions are measured when it is above 0."""
    stages = len(servers) + (2 if scale else 0) + (1 if scale and http else 0) + (1 if scale and synth_n > 0 else 0)
    stages += 1 if openenv > 0 else 0
    progress = progress or Progress(stages)
    results: dict[str, Any] = {"servers": []}
    for server in servers:
        with progress.stage(f"{server}: tool calls alone, a trivial MCP call, the raw MCP call, env.step, env.reset"):
            results["servers"].append(run_benchmarks(server, n))
    if scale:
        with progress.stage("scale: a 5 MB world, 1,000 live worlds, stdio subprocesses against in-process"):
            results["scale"] = run_scale_benchmarks(max(20, n // 10))
        with progress.stage("start-up: prove-env list, prove-env serve --transport http"):
            results["startup"] = run_startup_benchmarks()
    if scale and http:
        with progress.stage("http: 64 concurrent episodes, flat out and paced"):
            results["http"] = run_http_benchmarks()
    if openenv > 0:
        with progress.stage(f"openenv: {openenv:,} live sessions, paced at {TARGETS['openenv_rate']:,.0f} steps/s"):
            results["openenv"] = run_openenv_benchmarks(openenv)
    if scale and synth_n > 0:
        with progress.stage(f"synthesis: {synth_n} tasks over every server with a recipe"):
            results["synthesis"] = run_synth_benchmark(synth_n)
    results["summary"] = summary(results)
    return results


def summary(results: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per target: what it asks, what this run measured, and whether that meets it."""
    rows: list[dict[str, Any]] = []

    def row(target: str, measured: str, met: bool | None) -> None:
        rows.append({"target": target, "measured": measured, "met": met})

    per_server = results["servers"]
    # One row per target over every server (the summary stays one screen with twenty servers); the
    # servers that miss it are named, worst first, with their figures.
    if per_server:
        for simple in (True, False):
            misses, counted, slow = [], 0, 0
            for result in per_server:
                reads = {name: value for name, value in result["reads without MCP"].items()
                         if is_simple_read(value["arguments"]) == simple}
                over = {name: value["p50_us"] for name, value in reads.items() if value["p50_us"] > TARGETS["read"]}
                counted, slow = counted + len(reads), slow + len(over)
                if over:
                    name, us = max(over.items(), key=lambda kv: kv[1])
                    misses.append((us, f"{result['server']} {len(over)} of {len(reads)} (worst {name} {us:.0f} us)"))
            measured = (f"{counted - slow} of {counted} reads; {len(per_server) - len(misses)} of {len(per_server)} "
                        "servers have none over" + (f"; over: {_worst(misses)}" if misses else ""))
            if simple:
                row(f"simple reads without MCP (one argument or none), p50 <= {TARGETS['read']:g} us", measured,
                    not misses)
            else:
                row(f"other fixture reads (searches, filters, reports), p50 <= {TARGETS['read']:g} us: no target",
                    measured, None)
        misses = []
        for result in per_server:
            ratio = result["ratios"]["env.step / trivial MCP call (p50)"]
            step = result["env.step (one read call)"]["p50_us"]
            if ratio > TARGETS["step_ratio"] or step > TARGETS["step"]:
                misses.append((ratio, f"{result['server']} {result['tool']} {ratio:.2f}x "
                                      f"({step:.0f} / {result['trivial MCP call']['p50_us']:.0f} us)"))
        row(f"env.step of the cheapest read <= {TARGETS['step_ratio']:g}x trivial MCP call, "
            f"<= {TARGETS['step']:g} us",
            f"{len(per_server) - len(misses)} of {len(per_server)} servers"
            + (f"; over: {_worst(misses)}" if misses else ""), not misses)
    resets = [r["env.reset (seeded world)"] for r in per_server]
    if resets:
        worst50, worst95 = max(r["p50_us"] for r in resets), max(r["p95_us"] for r in resets)
        row(f"env.reset p50 <= {TARGETS['reset_p50'] / 1000:g} ms, p95 <= {TARGETS['reset_p95'] / 1000:g} ms",
            f"worst server {worst50 / 1000:.2f} / {worst95 / 1000:.2f} ms",
            worst50 <= TARGETS["reset_p50"] and worst95 <= TARGETS["reset_p95"])
        worst = max(r["reward (one episode)"]["p50_us"] for r in per_server)
        row(f"reward of one episode p50 <= {TARGETS['reward']:g} us", f"{worst:.0f} us", worst <= TARGETS["reward"])
    scale = results.get("scale")
    if scale:
        large = [v for k, v in scale.items() if k.startswith("env.reset (") and "0.1 MB" not in k]
        if large:
            row("env.reset flat up to 5 MB (p50 <= 3 ms)", f"{large[0]['p50_us'] / 1000:.2f} ms",
                large[0]["p50_us"] <= TARGETS["reset_p50"])
        memory = scale["memory per live world (1,000 worlds)"]["total_mb_1000"]
        row(f"1,000 live worlds <= {TARGETS['worlds_mb']:g} MB", f"{memory:.0f} MB", memory <= TARGETS["worlds_mb"])
        ratio = scale["ratios"]["stdio episode / in-process episode (p50)"]
        row(f"in-process rollouts >= {TARGETS['stdio_ratio']:g}x faster than stdio", f"{ratio:.0f}x",
            ratio >= TARGETS["stdio_ratio"])
    startup = results.get("startup")
    if startup:
        for key, value in startup.items():
            limit = TARGETS["list_s"] if key == "prove-env list" else TARGETS["serve_s"]
            row(f"{key} <= {limit:g} s", f"{value['median_s']:.2f} s (median)", value["median_s"] <= limit)
    http = results.get("http")
    if http:
        flat = http["flat out"]
        row(f"http, {http['episodes']} episodes, flat out >= {TARGETS['http_calls_per_s']:,.0f} calls/s",
            f"{flat['calls_per_s']:,.0f} calls/s ({_cpu_note(flat)})", flat["calls_per_s"] >= TARGETS["http_calls_per_s"])
        paced = next(v for v in http.values() if isinstance(v, dict) and v.get("offered_per_s"))
        row(f"http, p99 <= {TARGETS['http_p99_ms']:g} ms at {paced['offered_per_s']:,.0f} calls/s offered",
            f"p99 {paced['p99_ms']:.1f} ms, {paced['calls_per_s']:,.0f} calls/s served",
            paced["p99_ms"] <= TARGETS["http_p99_ms"] and paced["calls_per_s"] >= 0.98 * paced["offered_per_s"])
    served = results.get("openenv")
    if served:
        paced = next(v for v in served.values() if isinstance(v, dict) and v.get("offered_per_s"))
        row(f"openenv, {TARGETS['openenv_sessions']:,} live sessions, every step answered, p99 <= "
            f"{TARGETS['openenv_p99_ms']:g} ms at {paced['offered_per_s']:,.0f} steps/s offered",
            f"{served['sessions']:,} sessions all answered; p99 {paced['p99_ms']:.1f} ms, {paced['calls_per_s']:,.0f} "
            f"steps/s served, server {paced['server_rss_mb'] or 0:,.0f} MB (load average {served['load_average_after']})",
            served["sessions"] >= TARGETS["openenv_sessions"] and paced["p99_ms"] <= TARGETS["openenv_p99_ms"]
            and paced["calls_per_s"] >= 0.98 * paced["offered_per_s"])
    synth = results.get("synthesis")
    if synth and synth["minutes_for_13500"] is not None:
        row(f"synthesis of 13,500 tasks <= {TARGETS['synth_minutes']:g} min",
            f"{synth['minutes_for_13500']:.1f} min at {synth['tasks_per_s']:.1f} tasks/s ({synth['workers']} workers)",
            synth["minutes_for_13500"] <= TARGETS["synth_minutes"])
    return rows


def _worst(misses: list[tuple[float, str]], most: int = 4) -> str:
    """The worst few of (figure, description), worst first, and how many more there are."""
    ranked = [text for _, text in sorted(misses, key=lambda m: -m[0])]
    return "; ".join(ranked[:most]) + (f"; {len(ranked) - most} more" if len(ranked) > most else "")


def _cpu_note(result: dict[str, Any]) -> str:
    cpu, share = result.get("server_cpu_ms_per_call"), result.get("server_cpu_share")
    if cpu is None or share is None:
        return "server CPU not measured"
    return f"server {cpu:.2f} ms CPU/call on {share:.2f} cores"


def print_summary(rows: list[dict[str, Any]]) -> None:
    width = max((len(r["target"]) for r in rows), default=10)
    print(f"{'target':{width}}  {'status':7} measured (this run)")
    for r in rows:
        status = "-" if r["met"] is None else "met" if r["met"] else "MISSED"
        print(f"{r['target']:{width}}  {status:7} {r['measured']}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    cores = os.cpu_count()
    if load is not None:
        print(f"\n{cores} cores, load average {load:.1f} at the end: a loaded machine moves every absolute figure")


def print_report(results: dict[str, Any]) -> None:
    """The details of every section, then the summary (last, so it is what stays on screen)."""
    for result in results["servers"]:
        print_table(result)
        print()
    if "scale" in results:
        print_scale_table(results["scale"])
        print()
    if "startup" in results:
        print_startup_table(results["startup"])
        print()
    if "http" in results:
        print_http_table(results["http"])
        print()
    if "openenv" in results:
        print_openenv_table(results["openenv"])
        print()
    if "synthesis" in results:
        print_synth_table(results["synthesis"])
        print()
    print_summary(results["summary"])
