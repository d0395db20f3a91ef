"""Load: 64 concurrent episodes through one HTTP episode server on loopback, with interleaved writes.

First with the official SDK: each episode has its own MCP client (half of them sessionless
2026-07-28, half legacy with an MCP session) and writes its own files on the file system server,
in rounds that all episodes start together, then reads them back. No episode may see another's
writes, no call may be lost or reordered, and each episode's final world must be exactly the world
its own calls produce when replayed alone in-process. Bounded in count (64 x 18 calls) and time.

Then with the load generator (`prove_env.serving.loadgen`) in a separate process, as `prove-env bench`
drives the server: 64 episodes flat out and paced, every read checked against the episode's own
last write; and a check that its verdict can fail: an episode pointed at another's endpoint is
caught. Only 127.0.0.1; nothing here asserts a time.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

import httpx2
import pytest
from mcp import Client

from prove_env.serving import loadgen
from prove_env.actions import ParsedCall
from prove_env.bench import print_http_table, run_http_benchmarks, summary
from prove_env.episode import Episode
from prove_env.task import Task
from tests.test_http_server import episode_server

pytestmark = pytest.mark.slow

EPISODES = 64
ROUNDS = 4
TASK = Task(id="load", server="filesystem", seed=0, user_turns=["Write your files."], gold=[[]], abstain=True)


def _rounds(i: int) -> list[list[tuple[str, dict]]]:
    """Episode i's calls: first its writes (one list per round), then its reads are checked as it goes."""
    return [
        [
            ("write_file", {"path": f"ep{i}/r{r}.txt", "content": f"episode {i} round {r}\n"}),
            ("append_file", {"path": "load.log", "content": f"{i}:{r}\n"}),
        ]
        for r in range(ROUNDS)
    ]


async def _drive(i: int, created: dict, barrier: asyncio.Barrier, latencies: list[float]) -> list[tuple[str, dict]]:
    """Run episode i's calls against its MCP endpoint; returns the calls made, in order."""
    made: list[tuple[str, dict]] = []

    async with Client(created["mcp_url"], mode="legacy" if i % 2 else "auto") as client:

        async def call(name: str, arguments: dict) -> str:
            made.append((name, arguments))
            start = time.perf_counter()
            result = await client.call_tool(name, arguments, meta={"prove/call_id": f"{i}-{len(made)}"})
            latencies.append(time.perf_counter() - start)
            text = "\n".join(block.text for block in result.content if hasattr(block, "text"))
            assert not result.is_error, f"episode {i}: {name}({arguments}) failed: {text}"
            return text

        await call("mkdir", {"path": f"ep{i}"})
        for r, writes in enumerate(_rounds(i)):
            await barrier.wait()  # every episode writes in the same window
            for name, arguments in writes:
                await call(name, arguments)
            await barrier.wait()  # ... and reads back after all of them wrote
            assert await call("cat", {"path": f"ep{i}/r{r}.txt"}) == f"episode {i} round {r}"
            assert await call("cat", {"path": "load.log"}) == "\n".join(f"{i}:{k}" for k in range(r + 1))
        listing = await call("ls", {})
        assert [name for name in listing.split() if name.startswith("ep")] == [f"ep{i}"], listing
    return made


async def _replay_alone(made: list[tuple[str, dict]]) -> tuple[list[dict], str]:
    episode = Episode("filesystem")
    try:
        await episode.begin(TASK)
        for k, (name, arguments) in enumerate(made, 1):
            await episode.call(ParsedCall(name, arguments, f"id-{k}"))
        return [{"name": r.name, "ok": r.ok, "output": r.output} for r in episode.calls], episode.world.digest()
    finally:
        await episode.aclose()


async def test_64_concurrent_episodes_keep_their_worlds_apart(capsys):
    with episode_server("filesystem", "--max-episodes", str(EPISODES)) as base:
        async with httpx2.AsyncClient(timeout=60) as http:
            responses = await asyncio.gather(*(http.post(f"{base}/episodes", json={"task": TASK.model_dump(mode="json")})
                                               for _ in range(EPISODES)))
            assert all(r.status_code == 201 for r in responses), [r.text for r in responses if r.status_code != 201]
            created = [r.json() for r in responses]
            assert len({c["episode_id"] for c in created}) == EPISODES
            assert (await http.post(f"{base}/episodes", json={"seed": 0})).status_code == 429  # the limit holds

            barrier = asyncio.Barrier(EPISODES)
            latencies: list[float] = []
            start = time.perf_counter()
            made = await asyncio.wait_for(
                asyncio.gather(*(_drive(i, c, barrier, latencies) for i, c in enumerate(created))), timeout=120
            )
            elapsed = time.perf_counter() - start

            trajectories = await asyncio.gather(
                *(http.get(f"{base}/episodes/{c['episode_id']}/trajectory") for c in created)
            )
        for i, (response, calls) in enumerate(zip(trajectories, made, strict=True)):
            served = response.json()
            # nothing lost, nothing reordered, nothing from another episode
            assert [c["id"] for c in served["calls"]] == [f"{i}-{k}" for k in range(1, len(calls) + 1)]
            assert [(c["name"], c["arguments"]) for c in served["calls"]] == calls
            alone, digest = await _replay_alone(calls)
            assert [{"name": c["name"], "ok": c["ok"], "output": c["output"]} for c in served["calls"]] == alone
            assert served["world_digest"] == digest, f"episode {i} ended in another world than its calls alone make"

    ordered = sorted(latencies)
    p50, p99 = ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    with capsys.disabled():
        print(f"\nload: {EPISODES} concurrent episodes, {len(latencies)} MCP tool calls in {elapsed:.2f} s: "
              f"{len(latencies) / elapsed:.0f} calls/s, p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms "
              f"(client-side, barriers included)")


def test_load_generator_drives_64_episodes_from_another_process():
    with episode_server("filesystem", "--max-episodes", str(EPISODES)) as base:
        done = subprocess.run([sys.executable, "-m", "prove_env.serving.loadgen", base, "--episodes", str(EPISODES),
                               "--rates", "max,400", "--seconds", "1", "--warmup", "0.2", "--json"],
                              check=False, capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stderr
        flat, paced = json.loads(done.stdout)
        for result in (flat, paced):
            assert result["episodes"] == EPISODES and result["calls"] > 0 and result["writes"] > 0
            assert 0 < result["p50_ms"] <= result["p99_ms"] <= result["max_ms"]
            assert result["server_cpu_ms_per_call"] is None  # no --server-pid given
        assert flat["offered_per_s"] is None and paced["offered_per_s"] == 400
        listing = httpx2.get(f"{base}/episodes").json()
        assert listing["live"] == 0  # it closed its episodes


async def test_load_generator_catches_state_crossing_between_episodes():
    """Its check is real: episode 1's calls sent to episode 0's endpoint read episode 0's writes."""
    with episode_server("filesystem") as base:
        async with httpx2.AsyncClient(timeout=30) as http:
            created = [(await http.post(f"{base}/episodes", json={"seed": 0})).json() for _ in range(2)]
        host, port = "127.0.0.1", int(base.rsplit(":", 1)[1])
        path = httpx2.URL(created[0]["mcp_url"]).path
        mine = loadgen._Episode(0, created[0]["episode_id"], path, loadgen._Connection(host, port), "mix", 1)
        crossed = loadgen._Episode(1, created[1]["episode_id"], path, loadgen._Connection(host, port), "mix", 1)
        try:
            for episode in (mine, crossed):
                await episode.call("mkdir", {"path": "load"})
            assert await mine.step(0) is True and await mine.step(1) is False  # its own write reads back
            await crossed.step(0)
            await mine.call("write_file", {"path": "load/f0.txt", "content": "episode 0 again"})  # after "episode 1"
            with pytest.raises(loadgen.LoadError, match="another episode's state crossed"):
                await crossed.step(1)
        finally:
            await mine.conn.close()
            await crossed.conn.close()


def test_bench_http_section(capsys):
    results = run_http_benchmarks(episodes=8, seconds=0.5, warmup=0.2, rate=200)
    for key in ("flat out", "offered 200 calls/s"):
        assert results[key]["calls"] > 0 and results[key]["server_cpu_ms_per_call"] > 0
    assert results["in-process (Episode.call, same calls)"]["cpu_ms_per_call"] > 0
    print_http_table(results)
    table = capsys.readouterr().out
    assert "flat out" in table and "offered 200 calls/s" in table and "Episode.call" in table
    rows = {row["target"]: row for row in summary({"servers": [], "http": results})}
    assert set(rows) == {"http, 8 episodes, flat out >= 1,500 calls/s", "http, p99 <= 25 ms at 200 calls/s offered"}
    assert all(isinstance(row["met"], bool) and "calls/s" in row["measured"] for row in rows.values())
