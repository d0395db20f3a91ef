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
from prove_env.serving.http import spawned
from prove_env.registry import server_names
from prove_env.task import load_tasks
from tests.schema_values import example

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


def test_task_show_prints_turns_gold_outputs_and_facts(capsys):
    task = next(t for t in load_tasks(Path(__file__).parents[1] / "fixtures" / "tasks" / "trading.jsonl") if t.facts)
    assert main(["task", "show", "trading", "--id", task.id]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"== {task.id}  (trading, seed {task.seed};")
    assert f"user 1: {task.user_turns[0]}" in out
    first = task.gold_calls[0]
    assert f"  {first.id} {first.name}(" in out and "FAILED" not in out
    assert "     -> " in out and "facts: " in out  # each call's replayed output, then the facts
    assert main(["task", "show", "trading", "--id", "trading-nope"]) == 2
    assert "no task with id trading-nope" in capsys.readouterr().err


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


NO_NODE = pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None, reason="node is not installed")


def _typescript_client(server: str, calls: list[dict]) -> dict:
    """What the official MCP TypeScript SDK sees of `prove-env serve <server>` over stdio."""
    if not (TS_CLIENT / "node_modules" / "@modelcontextprotocol" / "sdk").exists():
        subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=TS_CLIENT, check=True, capture_output=True,
                       timeout=300)
    done = subprocess.run(["node", "client.mjs", sys.executable, json.dumps(["-m", "prove_env.cli", "serve", server]),
                           json.dumps(calls)], cwd=TS_CLIENT, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


@NO_NODE
@pytest.mark.slow
@pytest.mark.parametrize("server", server_names())
def test_official_typescript_client_lists_and_calls_every_tool(server, served):
    """Every visible tool listed, and called with arguments made from its schema alone: the results
    over stdio are those of the same calls in-process, on the same seeded world."""
    here = served(server)
    specs = here.toolkit.visible_specs()
    calls = [{"name": spec.name,
              "arguments": {name: example(spec.parameters["properties"][name], here.world.now) for name in spec.required}}
             for spec in specs]
    expected = [here.call(call["name"], **call["arguments"]) for call in calls]
    seen = _typescript_client(server, calls)
    assert seen["server"]["name"] == server
    assert sorted(t["name"] for t in seen["tools"]) == sorted(spec.name for spec in specs)
    for call, result, want in zip(calls, seen["results"], expected, strict=True):
        assert (result["isError"], result["text"]) == (not want.ok, want.text), f"{server}.{call['name']}"


@NO_NODE
def test_official_typescript_client_drives_the_server():
    calls = [
        {"name": "find_customers", "arguments": {"name": "a", "limit": 1}},
        {"name": "get_account", "arguments": {"account_id": "ACC-0001"}},
        {"name": "deposit", "arguments": {"account_id": "ACC-0001", "amount": 125.5}},
        {"name": "get_account", "arguments": {"account_id": "ACC-0001"}},
        {"name": "get_account", "arguments": {"account_id": "ACC-9999"}},
    ]
    seen = _typescript_client("banking", calls)
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


# -- bad input: one line that says what is wrong, never a traceback ---------------------------------

BAD_ARGUMENTS = [
    (["serve", "calendar", "--transport", "http", "--port", "99999"], "argument --port: must be from 1 to 65535, got 99999"),
    (["serve", "calendar", "--transport", "http", "--port", "-1"], "argument --port: must be from 1 to 65535, got -1"),
    (["serve", "calendar", "--transport", "http", "--port", "http"], "argument --port: expected a whole number, got 'http'"),
    (["serve", "calendar", "--transport", "http", "--seed", "-1"], "argument --seed: must be at least 0, got -1"),
    (["serve", "calendar", "--transport", "http", "--max-episodes", "0"], "argument --max-episodes: must be at least 1"),
    (["serve", "calendar", "--transport", "http", "--idle-seconds", "-5"], "argument --idle-seconds: must be a number"),
    (["serve", "calendar", "--transport", "http", "--idle-seconds", "nan"], "argument --idle-seconds: must be a number"),
    (["eval", "--servers", "banking", "--trials", "0", "--out", "{tmp}"], "argument --trials: must be at least 1, got 0"),
    (["eval", "--servers", "banking", "--concurrency", "-2", "--out", "{tmp}"], "argument --concurrency: must be at least 1"),
    (["eval", "--servers", "banking", "--max-steps", "0", "--out", "{tmp}"], "argument --max-steps: must be at least 1"),
    (["eval", "--servers", "banking", "--compare", "{tmp}", "--out", "{tmp}/run"], "argument --compare: {tmp} is not an "
                                                                                   "evaluation run"),
    (["eval", "--servers", "banking", "--out", "{tmp}/file.txt"], "argument --out: {tmp}/file.txt is a file"),
    (["synth", "--servers", "banking", "--n", "-5", "--out", "{tmp}"], "argument --n: must be at least 1, got -5"),
    (["synth", "--servers", "banking", "--n", "10", "--workers", "-1", "--out", "{tmp}"], "argument --workers: must be at "
                                                                                          "least 1, got -1"),
    (["synth", "--servers", "banking", "--n", "10", "--workers", "0", "--out", "{tmp}"], "argument --workers: must be at "
                                                                                         "least 1, got 0"),
    (["synth", "--servers", "banking", "--n", "10", "--distractor-rate", "2", "--out", "{tmp}"],
     "argument --distractor-rate: must be a number from 0 to 1, got 2"),
    (["synth", "--servers", "banking", "--n", "10", "--teacher-url", "http://127.0.0.1:9/v1", "--out", "{tmp}"],
     "--teacher-url and --teacher-model go together"),
    (["bench", "--servers", "calendar", "--n", "0", "--no-scale"], "argument --n: must be at least 1, got 0"),
    (["bench", "--servers", "calendar", "--n", "10", "--synth-n", "-1"], "argument --synth-n: must be at least 0"),
    (["task", "verify", "{tmp}/missing.jsonl"], "{tmp}/missing.jsonl is neither a task file nor a server"),
]


@pytest.mark.parametrize("argv, says", BAD_ARGUMENTS,
                         ids=[f"{a[0]} {s.split(':')[0].removeprefix('argument ')}" for a, s in BAD_ARGUMENTS])
def test_bad_arguments_are_refused_with_one_clear_line(argv, says, tmp_path, capsys):
    (tmp_path / "file.txt").write_text("not a directory")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says.replace("{tmp}", str(tmp_path)) in err
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("prove-env")


# Every subcommand that takes server names, with the argument that takes them.
SERVER_ARGUMENTS = [["tools", "{}"], ["serve", "{}"], ["graph", "{}"], ["demo", "--servers", "banking,{}"],
                    ["eval", "--servers", "{}", "--out", "out"], ["bench", "--servers", "{}"],
                    ["synth", "--servers", "{}", "--out", "out"]]


@pytest.mark.parametrize("argv", SERVER_ARGUMENTS, ids=[a[0] for a in SERVER_ARGUMENTS])
def test_an_unknown_server_is_named_with_the_servers_there_are(argv, capsys):
    assert main([a.format("no_such_server") for a in argv]) == 2
    err = capsys.readouterr().err
    assert "unknown server 'no_such_server'; available: " + ", ".join(server_names()) in err
    assert "Traceback" not in err


def test_a_snapshot_that_is_not_json_names_the_file_and_the_position(tmp_path, capsys):
    snapshot = tmp_path / "world.json"
    snapshot.write_text('{"server": "banking",\n  "now": }\n')
    for transport in ("stdio", "http"):
        assert main(["serve", "banking", "--transport", transport, "--snapshot", str(snapshot)]) == 2
        err = capsys.readouterr().err
        assert f"argument --snapshot: {snapshot} is not valid JSON: Expecting value at line 2, column 10" in err
    snapshot.write_text("[1, 2]")
    assert main(["serve", "banking", "--snapshot", str(snapshot)]) == 2
    assert f"{snapshot} holds a JSON list, not a snapshot object" in capsys.readouterr().err
    snapshot.write_text('{"tables": {}, "nope": 1}')
    assert main(["serve", "banking", "--transport", "http", "--snapshot", str(snapshot)]) == 2
    assert "unknown keys ['nope']" in capsys.readouterr().err  # refused before the server starts
    assert main(["serve", "banking", "--seed", "3", "--snapshot", str(snapshot)]) == 2
    assert "argument --snapshot: not allowed with argument --seed" in capsys.readouterr().err


def test_an_address_the_server_cannot_listen_on_is_named(capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "banking", "--transport", "http", "--port", str(port)]) == 2
        assert f"cannot listen on 127.0.0.1 port {port}: Address already in use" in capsys.readouterr().err
    assert main(["serve", "banking", "--transport", "http", "--host", "no-such-host.invalid"]) == 2
    assert "--host 'no-such-host.invalid' is not an address of this machine" in capsys.readouterr().err


def test_eval_says_why_a_task_file_gives_nothing_to_evaluate(tmp_path, capsys):
    first = load_tasks(Path(__file__).parents[1] / "fixtures" / "tasks" / "calendar.jsonl")[0]
    tasks = tmp_path / "tasks.jsonl"
    elsewhere = first.model_copy(update={"id": "elsewhere-001", "server": "no_such_server"})
    tasks.write_text(elsewhere.to_json() + "\n" + first.to_json() + "\n")
    assert main(["eval", "--tasks", str(tasks), "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert (f"{tasks} has tasks for servers this installation does not have: no_such_server (1 of 2 tasks); "
            f"the servers are {', '.join(server_names())}") in err
    assert main(["eval", "--tasks", str(tasks), "--servers", "banking", "--out", str(tmp_path / "run")]) == 2
    assert (f"{tasks} has no task for --servers banking; its tasks are for calendar (1), no_such_server (1)"
            in capsys.readouterr().err)
    tasks.write_text("\n")
    assert main(["eval", "--tasks", str(tasks), "--out", str(tmp_path / "run")]) == 2
    assert f"{tasks} holds no tasks" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()  # refused before anything ran


def test_output_closed_by_its_reader_ends_quietly():
    """`prove-env catalog | head`: the reader leaves early; no traceback, no error line."""
    proc = subprocess.Popen([*CLI, "catalog"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first write
    assert proc.wait(timeout=120) == 141  # a shell's status for a process ended by SIGPIPE
    assert proc.stderr.read() == b""


def test_help_returns_instead_of_exiting(capsys):
    assert main(["serve", "--help"]) == 0
    assert "--snapshot" in capsys.readouterr().out


def test_task_verify_takes_a_server_name_for_its_packaged_fixtures(capsys):
    from prove_env.task import fixture_tasks

    for server in server_names():
        count = len(fixture_tasks(server))
        assert main(["task", "verify", server]) == (0 if count else 2), server
        captured = capsys.readouterr()
        assert (f"verified {count} tasks" in captured.out) if count else (
            f"server {server} ships no fixture tasks" in captured.err)


def test_list_and_graph_count_the_same_tools(capsys):
    from prove_env.registry import get_toolkit

    assert main(["list"]) == 0
    listed = capsys.readouterr().out
    rows = {cells[0]: cells for cells in (line.split() for line in listed.splitlines())
            if cells and cells[0] in server_names()}
    hidden_total = 0
    for server in server_names():
        toolkit = get_toolkit(server)
        visible, hidden = len(toolkit.visible_specs()), len(toolkit.specs()) - len(toolkit.visible_specs())
        hidden_total += hidden
        assert (rows[server][1], rows[server][3]) == (str(visible), str(hidden))
        assert main(["graph", server]) == 0
        header = capsys.readouterr().out.splitlines()[0]
        assert header.startswith(f"{server}: {visible + hidden} tools ({visible} the agent sees, {hidden} hidden)")
    assert f"; {hidden_total} more are hidden helpers" in listed


# -- what every command says about itself -----------------------------------------------------------


def test_version_prints_the_package_version(capsys):
    from prove_env import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"prove-env {__version__}"


def _commands(parser, path=()):
    """(command path, its parser) for the program and every subcommand below it."""
    import argparse

    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, child in action.choices.items():
                yield (*path, name, "summary"), helps.get(name)
                yield from _commands(child, (*path, name))


def test_every_command_and_argument_says_what_it_is():
    import argparse

    from prove_env.cli import build_parser

    missing = []
    for path, parser in _commands(build_parser()):
        if path and path[-1] == "summary":
            if not parser:
                missing.append(" ".join(path))  # its line in the list of commands
            continue
        if not parser.description:
            missing.append(f"{' '.join(('prove-env', *path))}: description")
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{' '.join(('prove-env', *path))} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, f"without help: {missing}"


@pytest.mark.parametrize("argv, choices", [
    ([], "{list,tools,serve,demo,eval,catalog,new-server,task,graph,synth,card,bench}"),
    (["task"], "{stamp,verify,show}"),
])
def test_a_missing_command_is_named_by_its_choices(argv, choices, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"the following arguments are required: {choices}" in err
    assert "task_command" not in err


def test_the_run_directories_of_the_examples_are_ignored_by_git():
    import re

    root = Path(__file__).parents[1]
    if not (root / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    defaults = {m for path in (root / "examples").glob("*.py")
                for m in re.findall(r'default="(runs/[^"]+)"', path.read_text(encoding="utf-8"))}
    assert defaults
    for directory in sorted(defaults) + ["runs/baselines"]:
        ignored = subprocess.run(["git", "check-ignore", "--no-index", "-q", f"{directory}/metrics.json"], cwd=root)
        assert ignored.returncode == 0, f"{directory}/ is not in .gitignore"


# -- eval: failures that must not look like success -----------------------------------------------


def _closed_port() -> int:
    """A local port where nothing listens: bound, then closed."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_eval_against_an_endpoint_where_nothing_listens_stops_before_the_first_task(tmp_path, capsys):
    port = _closed_port()
    out = tmp_path / "run"
    code = main(["eval", "--policies", "openai", "--base-url", f"http://127.0.0.1:{port}/v1", "--model", "x",
                 "--out", str(out)])
    captured = capsys.readouterr()
    assert code != 0
    assert captured.out == ""  # no table of numbers that measure nothing
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("prove-env: cannot reach the model endpoint "
                                                   f"http://127.0.0.1:{port}/v1")
    assert "no episode was run" in lines[0]
    assert not out.exists()  # nothing written


def test_eval_resumes_only_the_same_run(tmp_path, capsys):
    out = tmp_path / "run"
    calendar = ["eval", "--servers", "calendar", "--policies", "noop", "--out", str(out)]
    assert main(calendar) == 0
    trajectories = (out / "trajectories.jsonl").read_bytes()
    assert main(calendar) == 0  # the same run: resumed, nothing left to play
    assert (out / "trajectories.jsonl").read_bytes() == trajectories

    other_tasks = tmp_path / "banking.jsonl"
    other_tasks.write_bytes((Path(__file__).parents[1] / "fixtures" / "tasks" / "banking.jsonl").read_bytes())
    capsys.readouterr()
    for argv, says in (
        (["eval", "--tasks", str(other_tasks), "--policies", "noop", "--out", str(out)], "tasks: "),
        ([*calendar, "--trials", "2"], "trials: 1 there, 2 here"),
        (["eval", "--servers", "calendar", "--policies", "noop,gold", "--out", str(out)],
         "policies: noop there, noop,gold here"),
        ([*calendar, "--reward", "state"], 'reward: "paper" there, "state" here'),
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert f"{out} holds another run (" in err and says in err, err
        assert "--overwrite to replace it" in err
        assert (out / "trajectories.jsonl").read_bytes() == trajectories  # nothing appended, nothing lost

    assert main(["eval", "--tasks", str(other_tasks), "--policies", "noop", "--out", str(out), "--overwrite"]) == 0
    records = [json.loads(line) for line in (out / "trajectories.jsonl").read_text().splitlines()]
    assert {r["server"] for r in records} == {"banking"} and len(records) == len(load_tasks(other_tasks))
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["servers"] == ["banking"]


def test_synth_with_a_teacher_where_nothing_listens_stops_before_any_task(tmp_path, capsys):
    port = _closed_port()
    out = tmp_path / "data"
    assert main(["synth", "--servers", "banking", "--n", "4", "--out", str(out), "--no-progress",
                 "--teacher-url", f"http://127.0.0.1:{port}/v1", "--teacher-model", "m"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"prove-env: cannot reach the model endpoint http://127.0.0.1:{port}/v1")
    assert not out.exists()
