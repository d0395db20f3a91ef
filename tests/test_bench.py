"""`prove-env bench`: every stage announced, servers kept quiet, a summary row per target.

Nothing here asserts a time: the targets are shown by the bench, never checked by tests.
"""

from __future__ import annotations

from prove_env.bench import Progress, print_report, run_all, run_benchmarks, run_startup_benchmarks, summary
from prove_env.bench import _stdio_versus_in_process
from prove_env.registry import get_toolkit, server_names
from prove_env.task import fixture_tasks


def test_every_server_measured_layer_by_layer_with_progress_per_stage_and_a_summary(capsys):
    servers = list(server_names())
    results = run_all(servers, n=20, scale=False)
    err = capsys.readouterr().err
    assert [line.split(" ...")[0] for line in err.splitlines()] == [
        f"[{i}/{len(servers)}] {server}: tool calls alone, a trivial MCP call, the raw MCP call, env.step, env.reset"
        for i, server in enumerate(servers, 1)]
    for server, result in zip(servers, results["servers"], strict=True):
        specs = get_toolkit(server).specs()
        spec = specs[result["tool"]]  # a read, called without arguments or as a fixture task calls it
        assert spec.read_only and (result["arguments"] == {} and not spec.required or any(
            (c.name, dict(c.arguments)) == (spec.name, result["arguments"]) for t in fixture_tasks(server) for c in t.gold_calls))
        for key in ("toolkit call, no MCP", "trivial MCP call", "raw in-process MCP call",
                    "env.step (one read call)", "env.reset (seeded world)", "reward (one episode)"):
            assert result[key]["p50_us"] > 0, (server, key)
        reads = {c.name for t in fixture_tasks(server) for c in t.gold_calls if specs[c.name].read_only}
        assert set(result["reads without MCP"]) == reads, server
        assert all(v["p50_us"] > 0 and v["cold_p50_us"] > 0 for v in result["reads without MCP"].values())
    rows = {row["target"]: row for row in results["summary"]}
    step = rows["env.step of the cheapest read <= 1.5x trivial MCP call, <= 500 us"]
    met = int(step["measured"].split(" of ")[0])  # one row over every server, naming those that miss it
    assert step["measured"].startswith(f"{met} of {len(servers)} servers"), step
    assert step["met"] == (met == len(servers))
    assert step["met"] or any(f"over: {server} " in step["measured"] for server in servers), step
    simple = rows["simple reads without MCP (one argument or none), p50 <= 100 us"]
    other = rows["other fixture reads (searches, filters, reports), p50 <= 100 us: no target"]
    for row, is_simple in ((simple, True), (other, False)):
        reads = [v for r in results["servers"] for v in r["reads without MCP"].values()
                 if (len(v["arguments"]) <= 1) == is_simple]
        fast = sum(v["p50_us"] <= 100 for v in reads)
        clean = int(row["measured"].split("; ")[1].split(" of ")[0])
        assert row["measured"].startswith(f"{fast} of {len(reads)} reads; {clean} of {len(servers)} servers"), row
        assert (clean == len(servers)) == (fast == len(reads))
        assert clean == len(servers) or any(f"over: {server} " in row["measured"] for server in servers), row
        assert row["met"] == ((fast == len(reads)) if is_simple else None)
    assert "reward of one episode p50 <= 50 us" in rows
    print_report(results)
    out = capsys.readouterr().out.rstrip().splitlines()
    summary_start = next(i for i, line in enumerate(out) if line.startswith("target "))
    assert len(out) - summary_start <= 30  # the summary is last and fits on one screen
    assert "load average" in out[-1]


def test_summary_judges_each_target_from_the_figures():
    result = run_benchmarks(server_names()[0], n=20)
    slow = {**result, "env.step (one read call)": {**result["env.step (one read call)"], "p50_us": 10_000.0},
            "ratios": {**result["ratios"], "env.step / trivial MCP call (p50)": 9.0}}
    fast = {**result, "env.step (one read call)": {**result["env.step (one read call)"], "p50_us": 100.0},
            "ratios": {**result["ratios"], "env.step / trivial MCP call (p50)": 1.5}}
    step = [row for row in summary({"servers": [slow, fast]}) if "env.step" in row["target"]]
    assert [row["met"] for row in step] == [False] and step[0]["measured"].startswith("1 of 2 servers; over: ")
    assert "9.00x" in step[0]["measured"] and "1.50x" not in step[0]["measured"]
    assert [row["met"] for row in summary({"servers": [fast]}) if "env.step" in row["target"]] == [True]


def test_stdio_servers_started_by_the_bench_say_nothing(capfd):
    result = _stdio_versus_in_process(5, episodes=1)
    assert result["ratios"]["stdio episode / in-process episode (p50)"] > 0
    captured = capfd.readouterr()
    assert "serving" not in captured.err and "serving" not in captured.out


def test_startup_figures():
    result = run_startup_benchmarks(runs=1)
    assert set(result) == {"prove-env list", f"prove-env serve {server_names()[0]} --transport http, until it answers"}
    assert all(value["median_s"] > 0 for value in result.values())


def test_progress_reports_each_stage_in_order(capsys):
    progress = Progress(2)
    with progress.stage("one"):
        pass
    with progress.stage("two"):
        pass
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(" ...")[0] for line in lines] == ["[1/2] one", "[2/2] two"]
