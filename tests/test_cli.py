"""The command line, and `prove-env serve` driven by real MCP clients over stdio."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from prove_env.cli import main
from prove_env.http_server import spawned
from prove_env.registry import server_names
from prove_env.task import load_tasks

CLI = [sys.executable, "-m", "prove_env.cli"]
TS_CLIENT = Path(__file__).parent / "ts_client"


def test_list(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for name in server_names():
        assert name in out


def test_tools_prints_openai_schemas(capsys):
    assert main(["tools", "filesystem"]) == 0
    tools = json.loads(capsys.readouterr().out)
    assert len(tools) >= 40 and all(t["type"] == "function" for t in tools)
    assert {"pwd", "ls", "cd", "mkdir", "touch", "echo", "cat", "find", "grep", "wc", "sort", "tail", "du", "diff",
            "mv", "cp", "rm", "rmdir"} <= {t["function"]["name"] for t in tools}


def test_unknown_server_is_a_clear_error(capsys):
    assert main(["tools", "nope"]) == 2
    assert "unknown server 'nope'" in capsys.readouterr().err


def test_task_stamp_and_verify(tmp_path, capsys):
    source = Path(__file__).parents[1] / "fixtures" / "tasks" / "banking.jsonl"
    tasks = load_tasks(source)
    bare = tmp_path / "bare.jsonl"
    bare.write_text("".join(t.model_copy(update={"tools": None, "start_digest": None, "gold_digest": None}).to_json() + "\n" for t in tasks))
    assert main(["task", "stamp", str(bare)]) == 0
    assert [t.model_dump() for t in load_tasks(bare)] == [t.model_dump() for t in tasks]
    assert main(["task", "verify", str(bare)]) == 0
    broken = tmp_path / "broken.jsonl"
    bad = tasks[0].model_copy(update={"gold": [[c.model_copy(update={"arguments": {"nope": 1}}) for c in turn] for turn in tasks[0].gold]})
    broken.write_text(bad.to_json() + "\n")
    assert main(["task", "stamp", str(broken)]) == 1
    assert "failed" in capsys.readouterr().err


def test_demo_runs_the_reference_policies_and_writes_a_report(tmp_path, capsys):
    assert main(["demo", "--servers", "banking", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "gold" in out and "noop" in out and "random" in out and "gold earns the maximum" in out
    assert (tmp_path / "report.html").exists() and (tmp_path / "metrics.json").exists()


async def test_serve_over_stdio_with_the_python_sdk():
    params = StdioServerParameters(command=sys.executable, args=["-m", "prove_env.cli", "serve", "calendar", "--seed", "2"])
    async with Client(params) as client:
        tools = (await client.list_tools()).tools
        assert len(tools) >= 17
        annotations = {t.name: t.annotations for t in tools}
        assert any(a.read_only_hint for a in annotations.values()) and any(not a.read_only_hint for a in annotations.values())
        result = await client.call_tool("no_such_tool", {})
        assert result.is_error


def test_stdio_server_exits_when_stdin_closes():
    proc = subprocess.Popen([*CLI, "serve", "banking"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    assert proc.stdout.read() == b""  # nothing but protocol messages may ever reach stdout


@pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None, reason="node is not installed")
def test_official_typescript_client_drives_the_server():
    if not (TS_CLIENT / "node_modules" / "@modelcontextprotocol" / "sdk").exists():
        subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=TS_CLIENT, check=True, capture_output=True, timeout=300)
    calls = [
        {"name": "find_customers", "arguments": {"name": "a", "limit": 1}},
        {"name": "get_account", "arguments": {"account_id": "ACC-0001"}},
        {"name": "deposit", "arguments": {"account_id": "ACC-0001", "amount": 125.5}},
        {"name": "get_account", "arguments": {"account_id": "ACC-0001"}},
        {"name": "get_account", "arguments": {"account_id": "ACC-9999"}},
    ]
    done = subprocess.run(["node", "client.mjs", sys.executable, json.dumps(["-m", "prove_env.cli", "serve", "banking"]), json.dumps(calls)],
                          cwd=TS_CLIENT, capture_output=True, text=True, timeout=120, check=True)
    seen = json.loads(done.stdout)
    names = {t["name"] for t in seen["tools"]}
    assert len(names) >= 17 and "deposit" in names
    assert seen["server"]["name"] == "banking"
    by_name = {t["name"]: t for t in seen["tools"]}
    assert by_name["get_account"]["annotations"]["readOnlyHint"] is True
    assert by_name["deposit"]["annotations"]["readOnlyHint"] is False
    results = seen["results"]
    assert not any(r["isError"] for r in results[:4]) and results[4]["isError"]
    before, after = json.loads(results[1]["text"]), json.loads(results[3]["text"])
    assert round(after["balance"] - before["balance"], 2) == 125.5  # the state changed, and stayed changed


@contextmanager
def _http_server(*extra: str):
    """`prove-env serve banking --transport http` on a free loopback port; yields the port."""
    with spawned("banking", *extra) as (base, _pid):
        yield int(base.rsplit(":", 1)[1])


async def test_serve_over_http_on_loopback():
    with _http_server() as port:
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            assert len((await client.list_tools()).tools) >= 17
            result = await client.call_tool("get_account", {"account_id": "ACC-0002"})
            assert not result.is_error and json.loads(result.content[0].text)["account_id"] == "ACC-0002"


def test_http_request_size_limit():
    with _http_server("--max-request-bytes", "4096") as port:
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                           "params": {"name": "find_customers", "arguments": {"name": "x" * 10_000}}}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", data=body, method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "Accept": "application/json, text/event-stream"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 413


def test_bench_runs(capsys):
    assert main(["bench", "--servers", "calendar", "--n", "30", "--no-scale", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["servers"][0]
    assert result["env.step (one read call)"]["p50_us"] > 0 and result["ratios"]
