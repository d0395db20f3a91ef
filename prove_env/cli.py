"""The `prove-env` command line."""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

__all__ = ["main"]

_MAX_EPISODES = 4096
"""`serve --max-episodes`'s default: `prove_env.serving.http.DEFAULT_MAX_EPISODES` (not imported here: `prove-env
--help` and `list` stay quick)."""


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command: each subcommand and argument has its help text."""
    from prove_env import __version__

    parser = argparse.ArgumentParser(prog="prove-env", description="Live, stateful MCP tool-use environments.")
    parser.add_argument("--version", action="version", version=f"prove-env {__version__}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True)

    _command(sub, "list", "servers and their tool counts")

    p = _command(sub, "tools", "a server's tools as OpenAI function schemas (JSON on stdout)")
    p.add_argument("server", type=_server, help="the server, such as banking (prove-env list names them all)")

    p = _command(sub, "serve", "serve a server to any MCP client: one world over stdio, many episodes over http")
    p.add_argument("server", type=_server, help="the server to serve, such as banking")
    start = p.add_mutually_exclusive_group()
    start.add_argument("--seed", type=_whole(0), default=0, help="seed of the world (default 0)")
    start.add_argument("--snapshot", type=_snapshot_file, help="start from a JSON world snapshot instead of a seed")
    p.add_argument("--transport", choices=["stdio", "http", "openenv"], default="stdio",
                   help="stdio: one world for the client that started this process; http: many isolated episodes "
                        "at /episodes/<id>/mcp; openenv: OpenEnv's protocol, one episode per session at /ws, the "
                        "agent's tools at /mcp (default stdio)")
    p.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1)")
    p.add_argument("--port", type=_whole(1, 65535), default=8000, help="HTTP port, 1 to 65535 (default 8000)")
    p.add_argument("--debug-tools", action="store_true", help="also expose hidden helper and debug tools")
    p.add_argument("--max-request-bytes", type=_whole(1), default=4 * 1024 * 1024,
                   help="HTTP and OpenEnv: largest request body or message accepted (default 4 MiB)")
    p.add_argument("--max-episodes", type=_whole(1), default=_MAX_EPISODES,
                   help=f"HTTP and OpenEnv: most live episodes (sessions) at once; more are refused (default "
                        f"{_MAX_EPISODES})")
    p.add_argument("--idle-seconds", type=_number(0), default=600.0,
                   help="HTTP and OpenEnv: close an episode after this many seconds without a request (OpenEnv: "
                        "one without a WebSocket attached); 0 never (default 600)")

    p = _command(sub, "demo", "the first run: gold, noop and random on every server's fixture tasks, with a report")
    p.add_argument("--servers", type=_server_list, help="comma-separated servers (default: all)")
    p.add_argument("--out", type=_out_dir, default=Path("prove-env-demo"),
                   help="run directory (default prove-env-demo/); re-running the same demo resumes it")
    p.add_argument("--overwrite", action="store_true", help=_OVERWRITE_HELP)

    p = _command(sub, "eval", "evaluate policies on tasks through the environments")
    p.add_argument("--tasks", type=Path, help="a task file (JSON Lines); default: the fixture tasks of every server")
    p.add_argument("--servers", type=_server_list, help="comma-separated servers to keep (default: all)")
    p.add_argument("--policies", default="gold,noop,random", help="comma-separated: gold, noop, random, openai")
    p.add_argument("--trials", type=_whole(1), default=1, help="episodes per task and policy, for pass^k (default 1)")
    p.add_argument("--out", type=_out_dir, required=True,
                   help="run directory; the same command again resumes it (another run there is refused)")
    p.add_argument("--overwrite", action="store_true", help=_OVERWRITE_HELP)
    p.add_argument("--compare", type=_run_dir, help="another run directory to compare with in the report")
    p.add_argument("--reward", choices=["paper", "state"], default="paper",
                   help="reward preset: paper (PROVE's five terms, maximum 1.3) or state (plus the final-state "
                        "check, maximum 1.8); abstention tasks score 1 or 0 under both (default paper)")
    p.add_argument("--max-steps", type=_whole(1), default=10, help="assistant actions per episode (default 10)")
    p.add_argument("--base-url", help="openai: the endpoint, such as http://127.0.0.1:8000/v1")
    p.add_argument("--model", help="openai: the model name the endpoint serves")
    p.add_argument("--temperature", type=_number(0), default=0.0,
                   help="openai: the sampling temperature sent with every request (default 0)")
    p.add_argument("--concurrency", type=_whole(1), default=1, help="episodes in flight at once (default 1)")
    p.add_argument("--api-key-env", default="OPENAI_API_KEY", help="environment variable holding the API key")
    p.add_argument("--name", help="the run's name in the report (default: the directory name)")

    _command(sub, "catalog", "Markdown catalog of every server and tool (docs/catalog.md)")

    p = _command(sub, "new-server", "write a working server skeleton (source checkout): folder, tests, fixtures")
    p.add_argument("name", help="the new server's name: lower-case letters, digits and underscores")

    p = _command(sub, "task", "work with task files: stamp them, verify them, or read them")
    task_sub = p.add_subparsers(dest="task_command", required=True)
    s = _command(task_sub, "stamp", "replay tasks and record their tools, start and gold digests")
    s.add_argument("file", type=Path, help="a task file (JSON Lines), stamped in place unless --out is given")
    s.add_argument("--out", type=Path, help="write here instead of in place")
    s = _command(task_sub, "verify", "replay tasks and check their gold calls and digests")
    s.add_argument("file", help="a task file (JSON Lines), or a server name for the fixture tasks it ships with")
    s = _command(task_sub, "show", "print tasks for reading: the user's turns, the gold calls with what they return, "
                                   "the facts, and what is hidden or abstained")
    s.add_argument("file", help="a task file (JSON Lines), or a server name for the fixture tasks it ships with")
    s.add_argument("--id", action="append", dest="ids", help="only this task id (repeatable)")
    s.add_argument("--server", type=_server, help="only tasks of this server")
    s.add_argument("--limit", type=_whole(1), help="at most this many tasks")
    s.add_argument("--width", type=_whole(40), default=400, help="cut each gold output to this many characters "
                                                                  "(default 400)")

    p = _command(sub, "graph", "a server's tool dependency graph, as text, Graphviz DOT or JSON")
    p.add_argument("server", type=_server, help="the server whose graph to print, such as calendar")
    p.add_argument("--format", choices=["text", "dot", "json"], default="text",
                   help="text (readable), dot (Graphviz) or json (default text)")

    p = _command(sub, "synth", "write verified multi-turn tasks from live server state")
    p.add_argument("--servers", type=_server_list, help="comma-separated servers (default: every server with a recipe)")
    p.add_argument("--n", type=_whole(1), default=1000, help="tasks to write in all, split evenly over servers")
    p.add_argument("--seed", type=_whole(0), default=0, help="run seed: the same arguments write the same bytes")
    p.add_argument("--out", type=_out_dir, required=True,
                   help="directory for train.jsonl, test.jsonl, stats.json/.txt and the Hugging Face dataset card "
                        "(README.md, data/<server>/<split>.parquet)")
    p.add_argument("--workers", type=_whole(1), help="worker processes (default: every core)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    defaults = _synth_defaults()
    for name, help_text in (("distractor_rate", "share of tasks with distractor tools"),
                            ("strip_enums_rate", "share of tasks whose schemas lose enum lists"),
                            ("irrelevant_rate", "share of irrelevant queries (gold: no call)"),
                            ("hidden_rate", "share of hidden-tool requests (gold: no call)"),
                            ("test_share", "share of tasks in the test split, which shares no world with "
                                           "train")):
        p.add_argument("--" + name.replace("_", "-"), type=_number(0, 1), default=defaults[name],
                       help=f"{help_text} (default {defaults[name]})")
    p.add_argument("--info-levels", default=",".join(str(x) for x in defaults["info_levels"]),
                   help="shares of complete, missing and minimal requests (default %(default)s)")
    p.add_argument("--tasks-per-world", type=_whole(1), default=defaults["tasks_per_world"],
                   help="tasks written from one seeded world (default %(default)s)")
    p.add_argument("--teacher-url", help="rewrite user turns through this OpenAI-compatible endpoint "
                                         "(such as http://127.0.0.1:8000/v1); kept only if they still validate")
    p.add_argument("--teacher-model", help="the model name the teacher endpoint serves")
    p.add_argument("--teacher-api-key-env", default="OPENAI_API_KEY", help="environment variable with its API key")

    p = _command(sub, "card", "write the Hugging Face dataset card and Parquet files of a synth output directory")
    p.add_argument("dir", type=_synth_dir, help="a `prove-env synth` output directory (synth writes them itself)")

    p = _command(sub, "bench", "latency of env.step, env.reset, raw MCP calls and the reward")
    p.add_argument("--servers", type=_server_list, help="comma-separated servers (default: all)")
    p.add_argument("--n", type=_whole(1), default=2000, help="calls per measurement")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--no-scale", action="store_true",
                   help="skip the slow sections: large worlds, memory, stdio comparisons and the HTTP load")
    p.add_argument("--no-http", action="store_true",
                   help="skip the HTTP load (one server process, 64 concurrent episodes; about 15 s)")
    p.add_argument("--openenv", type=_whole(1), nargs="?", const=4096, default=0, metavar="SESSIONS",
                   help="also measure one `serve --transport openenv` process holding SESSIONS live sessions (default "
                        "4,096) paced at 1,000 steps/s: memory, every step answered, latency (a few minutes)")
    p.add_argument("--synth-n", type=_whole(0), default=1350,
                   help="tasks synthesized to measure the synthesis rate (default 1350, a tenth of the full set; 0 skips it)")

    _name_choices(parser)
    return parser


_OVERWRITE_HELP = ("replace the run already in --out (its trajectories.jsonl, metrics.json, report.html and "
                   "run.json) instead of resuming it")


def _command(sub: argparse._SubParsersAction, name: str, summary: str) -> argparse.ArgumentParser:
    """A subcommand whose one-line summary is both its entry in the list of commands and its description."""
    return sub.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ".")


def _name_choices(parser: argparse.ArgumentParser) -> None:
    """A missing subcommand is reported by its choices ({stamp,verify}), not by an internal name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            action.metavar = "{" + ",".join(action.choices) + "}"
            for child in action.choices.values():
                _name_choices(child)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, or a usage error argparse has explained on stderr
        return stop.code if isinstance(stop.code, int) else 0
    from prove_env.chat import EndpointError
    from prove_env.registry import UnknownServerError
    from prove_env.task import TaskError
    from prove_env.world import WorldError

    try:
        code = _COMMANDS[args.command](args)
        sys.stdout.flush()  # inside the try: a reader that went away is seen here, not at exit
        return code
    except BrokenPipeError:
        return _output_closed()
    except KeyboardInterrupt:
        print("prove-env: interrupted", file=sys.stderr)
        return 130
    except (UnknownServerError, TaskError, WorldError, EndpointError, OSError, ValueError) as exc:
        print(f"prove-env: {exc}", file=sys.stderr)
        return 2


def _output_closed() -> int:
    """The reader of our output went away (`prove-env catalog | head`): stop quietly, as a shell tool does.

    What is still buffered for stdout goes to /dev/null, so the interpreter's last flush does not
    fail again on the way out. The status is a shell's for a process ended by SIGPIPE (128 + 13).
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141


# -- argument types: a bad value stops the command with one line naming the argument, before any work


def _whole(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """A whole number from `minimum` (to `maximum`)."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum or (maximum is not None and value > maximum):
            bounds = f"from {minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value}")
        return value

    return whole


def _number(minimum: float, maximum: float | None = None) -> Callable[[str], float]:
    """A finite number from `minimum` (to `maximum`)."""

    def number(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not math.isfinite(value) or value < minimum or (maximum is not None and value > maximum):
            bounds = f"from {minimum:g} to {maximum:g}" if maximum is not None else f"at least {minimum:g}"
            raise argparse.ArgumentTypeError(f"must be a number {bounds}, got {text}")
        return value

    return number


def _server(text: str) -> str:
    """The name of a server of this installation."""
    from prove_env.registry import UnknownServerError, server_names

    if text not in server_names():
        raise argparse.ArgumentTypeError(str(UnknownServerError(text)))
    return text


def _server_list(text: str) -> list[str]:
    """Comma-separated server names, each a server of this installation, in the order given."""
    names = list(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    if not names:
        raise argparse.ArgumentTypeError(f"expected server names separated by commas, such as banking,calendar; "
                                         f"got {text!r}")
    return [_server(name) for name in names]


def _out_dir(text: str) -> Path:
    """A directory to write into: it may not exist yet, but it may not be a file."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a file, not a directory")
    return path


def _synth_dir(text: str) -> Path:
    """The directory of an earlier synthesis run."""
    path = Path(text)
    if not (path / "stats.json").is_file():
        raise argparse.ArgumentTypeError(f"{path} is not a synth output: it holds no stats.json")
    return path


def _run_dir(text: str) -> Path:
    """The directory of an earlier evaluation run."""
    path = Path(text)
    if not (path / "metrics.json").is_file():
        raise argparse.ArgumentTypeError(f"{path} is not an evaluation run: it holds no metrics.json")
    return path


def _snapshot_file(text: str) -> dict:
    """A world snapshot: a JSON object read from the file `text`."""
    path = Path(text)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise argparse.ArgumentTypeError(f"{path} is not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(
            f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno} (character {exc.pos})"
        ) from None
    if not isinstance(data, dict):
        raise argparse.ArgumentTypeError(f"{path} holds a JSON {type(data).__name__}, not a snapshot object "
                                         "(World.snapshot() writes one)")
    return data


def _list(args: argparse.Namespace) -> int:
    from prove_env.registry import server_summaries

    summaries = server_summaries()
    rows = [(s["name"], str(s["tools"]), str(s["writes"]), str(s["hidden"]), s["description"]) for s in summaries]
    _table(["server", "tools", "write", "hidden", "description"], rows)
    print(f"\n{len(rows)} servers, {sum(s['tools'] for s in summaries)} tools the agent sees; "
          f"{sum(s['hidden'] for s in summaries)} more are hidden helpers (served with --debug-tools, and counted "
          "by `prove-env graph`)")
    return 0


def _tools(args: argparse.Namespace) -> int:
    from prove_env.registry import get_toolkit

    schemas = [spec.openai_schema() for spec in get_toolkit(args.server).visible_specs()]
    print(json.dumps(schemas, indent=2, ensure_ascii=False))
    return 0


def _serve(args: argparse.Namespace) -> int:
    # The stdio transport owns stdout: everything else goes to stderr.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from prove_env.mcp_server import WorldSlot, build_server
    from prove_env.registry import get_toolkit
    from prove_env.world import World, worlds

    toolkit = get_toolkit(args.server)
    if args.transport == "openenv":
        from prove_env.serving.openenv import serve as serve_openenv

        if args.snapshot is not None or args.seed != 0 or args.debug_tools:
            raise ValueError("--seed, --snapshot and --debug-tools do not apply to --transport openenv: each "
                             "session's world is its task's, chosen when the session resets")
        _check_listen(args.host, args.port)
        serve_openenv(toolkit, host=args.host, port=args.port, max_sessions=args.max_episodes,
                      idle_seconds=args.idle_seconds or None, max_request_bytes=args.max_request_bytes)
        return 0
    if args.transport == "http":
        from prove_env.serving.http import serve

        if args.snapshot is not None:
            World.from_snapshot(toolkit, args.snapshot).close()  # a bad snapshot is refused before serving
        _check_listen(args.host, args.port)
        serve(toolkit, host=args.host, port=args.port, seed=args.seed, snapshot=args.snapshot,
              max_episodes=args.max_episodes, idle_seconds=args.idle_seconds or None,
              max_request_bytes=args.max_request_bytes, include_hidden=args.debug_tools)
        return 0
    if args.snapshot is not None:
        world = World.from_snapshot(toolkit, args.snapshot)
    else:
        world = worlds.create(toolkit, args.seed)
    server = build_server(toolkit, WorldSlot(toolkit, world), include_hidden=args.debug_tools)
    print(f"prove-env: serving {toolkit.name} ({world!r}) over {args.transport}", file=sys.stderr)
    _exit_with_parent()
    server.run("stdio")
    return 0


def _check_listen(host: str, port: int) -> None:
    """Raise a ValueError naming the address if the HTTP server could not listen on it."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise ValueError(f"--host {host!r} is not an address of this machine ({exc})") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server itself binds
        try:
            probe.bind(address)
        except OSError as exc:
            raise ValueError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None


def _exit_with_parent() -> None:
    """Stop serving if the process that started us dies without closing our stdin."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watchdog").start()


def _demo(args: argparse.Namespace) -> int:
    from prove_env.registry import server_names

    tasks = _fixture_task_list(args.servers or list(server_names()))
    code = _run_eval(tasks, ["gold", "noop", "random"], args.out, trials=3, reward="paper", max_steps=10,
                     concurrency=1, policy_options={}, compare=None, name="prove-env demo", overwrite=args.overwrite)
    expected = _check_reference_policies(args.out)
    print("\n" + expected if expected else "\ngold earns the maximum on every task; doing nothing passes only the abstention tasks")
    return 1 if expected else code


def _eval(args: argparse.Namespace) -> int:
    from prove_env.registry import server_names

    servers = args.servers or list(server_names())
    tasks = _file_tasks(args.tasks, args.servers) if args.tasks else _fixture_task_list(servers)
    options = {}
    policies = args.policies.split(",")
    if "openai" in policies:
        options = {"base_url": args.base_url, "model": args.model, "temperature": args.temperature,
                   "api_key": os.environ.get(args.api_key_env)}
    return _run_eval(tasks, policies, args.out, trials=args.trials, reward=args.reward, max_steps=args.max_steps,
                     concurrency=args.concurrency, policy_options=options, compare=args.compare, name=args.name,
                     overwrite=args.overwrite)


def _fixture_task_list(servers: list[str]) -> list:
    """The fixture tasks of `servers`, or a ValueError when none of them ships any."""
    from prove_env.task import fixture_tasks

    tasks = [t for server in servers for t in fixture_tasks(server)]
    if not tasks:
        raise ValueError(f"no tasks to evaluate: {', '.join(servers)} ship{'s' if len(servers) == 1 else ''} no "
                         "fixture tasks (fixtures/tasks/<server>.jsonl); pass --tasks FILE")
    return tasks


def _file_tasks(path: Path, servers: list[str] | None) -> list:
    """The tasks of a task file for `servers` (all when None), or a ValueError that says why there are none.

    A task for a server this installation lacks is refused rather than skipped, unless --servers
    leaves its server out anyway.
    """
    from prove_env.registry import server_names
    from prove_env.task import load_tasks

    tasks = load_tasks(path)
    counts = Counter(t.server for t in tasks)
    found = ", ".join(f"{server} ({n})" for server, n in sorted(counts.items()))
    unknown = sorted(server for server in counts if server not in server_names())
    if servers is None and unknown:
        raise ValueError(f"{path} has tasks for servers this installation does not have: "
                         f"{', '.join(f'{s} ({counts[s]} of {len(tasks)} tasks)' for s in unknown)}; the servers are "
                         f"{', '.join(server_names())} (--servers keeps only some)")
    kept = [t for t in tasks if servers is None or t.server in servers]
    if not kept:
        if not tasks:
            raise ValueError(f"{path} holds no tasks")
        raise ValueError(f"no tasks to evaluate: {path} has no task for --servers {','.join(servers or [])}; its "
                         f"tasks are for {found}")
    return kept


def _run_eval(tasks, policies, out, *, trials, reward, max_steps, concurrency, policy_options, compare, name,
              overwrite) -> int:
    """Run the evaluation and report it; 1 when every episode of a policy was stopped by an endpoint error."""
    from prove_env.evaluate import evaluate
    from prove_env.report import print_summary, write_report

    metrics = evaluate(tasks, policies, out, trials=trials, reward=reward, max_steps=max_steps,
                       concurrency=concurrency, policy_options=policy_options, name=name, overwrite=overwrite)
    print(print_summary(metrics))
    report = write_report(out, compare=compare)
    print(f"\nwrote {out / 'trajectories.jsonl'}, {out / 'metrics.json'} and {report}")
    failed = [p for p in policies if (m := metrics["by_policy"][p]["overall"]).get("episodes")
              and m.get("endpoint_errors") == m["episodes"]]
    if failed:
        print(f"prove-env: every episode of {', '.join(failed)} was stopped by an endpoint error before it ended, so "
              "these numbers do not measure the model (each error is in trajectories.jsonl; the same command "
              "again retries them)", file=sys.stderr)
        return 1
    return 0


def _check_reference_policies(out: Path) -> str:
    """What is wrong, if gold does not score the maximum everywhere or noop passes a task needing calls."""
    text = (out / "trajectories.jsonl").read_text(encoding="utf-8")
    records = [json.loads(line) for line in text.split("\n") if line.strip()]  # JSON may hold U+2028 raw
    problems = [f"gold did not succeed on {r['task_id']}" for r in records if r["policy"] == "gold" and not r["success"]]
    problems += [f"noop succeeded on {r['task_id']}, which needs calls" for r in records
                 if r["policy"] == "noop" and r["success"] and not r["abstain"]]
    return "\n".join(problems)


def _catalog(args: argparse.Namespace) -> int:
    from prove_env.catalog import render_catalog

    print(render_catalog(), end="")
    return 0


def _task(args: argparse.Namespace) -> int:
    from prove_env.episode import replay
    from prove_env.registry import get_toolkit
    from prove_env.runtime import run_sync
    from prove_env.task import dump_tasks

    if args.task_command == "show":
        return _show_tasks(args)
    tasks = _tasks_to_check(args.file) if args.task_command == "verify" else _file_tasks(args.file, None)
    out, problems = [], 0
    for task in tasks:
        result = run_sync(replay(task.model_copy(update={"start_digest": None})))
        for record in result.failures:
            problems += 1
            print(f"{task.id}: gold call {record.id} {record.name} failed: {record.output}", file=sys.stderr)
        if args.task_command == "verify":
            for field, value in (("start_digest", result.start_digest), ("gold_digest", result.gold_digest)):
                recorded = getattr(task, field)
                if recorded is not None and recorded != value:
                    problems += 1
                    print(f"{task.id}: {field} is {recorded[:12]}... but replays to {value[:12]}...", file=sys.stderr)
        tools = _current_schemas(get_toolkit(task.server), task)
        out.append(task.model_copy(update={"tools": tools, "start_digest": result.start_digest,
                                           "gold_digest": result.gold_digest}))
    if args.task_command == "stamp" and not problems:
        dump_tasks(out, args.out or args.file)
    verb = "stamped" if args.task_command == "stamp" else "verified"
    if problems:
        print(f"{problems} problems in {len(tasks)} tasks; nothing written", file=sys.stderr)
        return 1
    print(f"{verb} {len(tasks)} tasks")
    return 0


def _show_tasks(args: argparse.Namespace) -> int:
    """Each chosen task as a reader sees it, its gold replayed on a fresh world to show what every call returns."""
    from prove_env.episode import replay
    from prove_env.runtime import run_sync

    tasks = [t for t in _tasks_to_check(args.file)
             if (not args.ids or t.id in args.ids) and (args.server is None or t.server == args.server)]
    if args.ids and len(tasks) < len(set(args.ids)):
        missing = sorted(set(args.ids) - {t.id for t in tasks})
        raise ValueError(f"no task with id {', '.join(missing)} in {args.file}")
    for task in tasks[: args.limit]:
        outputs = {r.id: ("" if r.ok else "FAILED: ") + r.output
                   for r in run_sync(replay(task.model_copy(update={"start_digest": None}))).records}
        kind = ("abstain" if task.abstain else f"missing tool {task.missing_tool}" if task.missing_tool
                else "writes" if task.writes else "read-only")
        extra = {k: v for k, v in task.metadata.items() if k not in ("user",)}
        print(f"== {task.id}  ({task.server}, seed {task.seed}; {kind}; {len(task.user_turns)} turns)")
        if extra:
            print(f"   {json.dumps(extra, sort_keys=True, default=str)}")
        for turn, (said, calls) in enumerate(zip(task.user_turns, task.gold), 1):
            print(f"user {turn}: {said}")
            for call in calls:
                after = f" after {','.join(call.depends_on)}" if call.depends_on else ""
                output = " ".join(outputs.get(call.id, "").split())
                output = output if len(output) <= args.width else output[: args.width] + " ..."
                print(f"  {call.id} {call.name}({json.dumps(call.arguments, sort_keys=True)}){after}")
                print(f"     -> {output}")
        if task.facts:
            print(f"facts: {json.dumps(task.facts, default=str)}")
        if task.tools:
            print(f"shown: {', '.join(t['function']['name'] for t in task.tools)}")
        print()
    return 0


def _tasks_to_check(source: str) -> list:
    """The tasks of a task file, or the fixture tasks a server ships when `source` names one (and no file)."""
    from prove_env.registry import server_names
    from prove_env.task import fixture_tasks

    if Path(source).exists() or source not in server_names():
        if not Path(source).exists():
            raise ValueError(f"{source} is neither a task file nor a server (the servers are "
                             f"{', '.join(server_names())})")
        return _file_tasks(Path(source), None)
    tasks = fixture_tasks(source)
    if not tasks:
        raise ValueError(f"server {source} ships no fixture tasks")
    return tasks


def _current_schemas(toolkit, task) -> list[dict]:
    """The task's shown tools with this server's tools at their current schemas (others kept)."""
    from prove_env.episode import shown_tools

    current = {spec.name: spec.openai_schema() for spec in toolkit.visible_specs()}
    shown = shown_tools(toolkit, task)
    return [current.get(tool["function"]["name"], tool) for tool in shown]


def _bench(args: argparse.Namespace) -> int:
    from prove_env.bench import print_report, run_all
    from prove_env.registry import server_names

    servers = args.servers or list(server_names())
    results = run_all(servers, args.n, scale=not args.no_scale, http=not args.no_http, synth_n=args.synth_n,
                      openenv=args.openenv)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_report(results)
    return 0


def _table(header: list[str], rows: list[tuple[str, ...]]) -> None:
    """Columns padded to their widest cell; on a terminal the last column wraps under itself."""
    import shutil
    import textwrap

    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    indent = sum(widths[:-1]) + 2 * (len(widths) - 1)
    room = shutil.get_terminal_size().columns - indent if sys.stdout.isatty() else 0

    def line(cells: tuple[str, ...] | list[str]) -> str:
        head = "".join(c.ljust(w) + "  " for c, w in zip(cells[:-1], widths, strict=False))
        last = cells[-1]
        if room >= 20 and len(last) > room:
            last = ("\n" + " " * indent).join(textwrap.wrap(last, room))
        return head + last

    print(line(header))
    print(line(["-" * w for w in widths[:-1]] + ["-" * (min(widths[-1], room) if room >= 20 else widths[-1])]))
    for row in rows:
        print(line(row))


def _synth_defaults() -> dict:
    from prove_env.synthesis.config import SynthConfig

    return SynthConfig().as_dict()


def _graph(args: argparse.Namespace) -> int:
    from prove_env.synthesis.graph import dependency_graph

    graph = dependency_graph(args.server)
    if args.format == "dot":
        print(graph.to_dot(), end="")
    elif args.format == "json":
        print(json.dumps(graph.as_dict(), indent=2))
    else:
        print(graph.to_text(), end="")
    return 0


def _synth(args: argparse.Namespace) -> int:
    from prove_env.synthesis.config import SynthConfig
    from prove_env.synthesis.pipeline import progress_bar, split_summary, stats_table, synthesize, write_output
    from prove_env.synthesis.card import write_card

    try:
        levels = tuple(float(x) for x in args.info_levels.split(","))
    except ValueError:
        raise ValueError(f"--info-levels must be three numbers such as 0.6,0.2,0.2, got {args.info_levels!r}") from None
    if len(levels) != 3:
        raise ValueError("--info-levels takes three shares: complete, missing, minimal")
    config = SynthConfig(info_levels=levels, distractor_rate=args.distractor_rate,
                         strip_enums_rate=args.strip_enums_rate, irrelevant_rate=args.irrelevant_rate,
                         hidden_rate=args.hidden_rate, test_share=args.test_share,
                         tasks_per_world=args.tasks_per_world)
    teacher = None
    if bool(args.teacher_url) != bool(args.teacher_model):
        raise ValueError("--teacher-url and --teacher-model go together: the endpoint and the model it serves")
    if args.teacher_url or args.teacher_model:
        from prove_env.chat import ChatEndpoint
        from prove_env.synthesis.teacher import Teacher

        endpoint = ChatEndpoint(args.teacher_url, args.teacher_model, api_key=os.environ.get(args.teacher_api_key_env))
        endpoint.check()  # a teacher that cannot be reached stops the run before any task, not every rewrite
        teacher = Teacher(endpoint)
    servers = args.servers
    if args.workers == 1:
        from prove_env.runtime import tune_gc

        tune_gc()  # this process does the work itself
    progress = None if args.no_progress else progress_bar(0)
    result = synthesize(servers, args.n, args.seed, config=config, workers=args.workers, teacher=teacher,
                        progress=progress)
    paths = write_output(result, args.out)
    card = write_card(args.out)
    paths += card.paths
    print(stats_table(result.stats), end="")
    total = len(result.train) + len(result.test)
    print(f"\n{total} tasks in {result.seconds:.1f} s ({result.rate:.1f} tasks/s), every one replay-validated")
    print(split_summary(result.stats))
    print("wrote " + ", ".join(str(p) for p in paths))
    if card.skipped:
        print(f"prove-env: {card.skipped}", file=sys.stderr)
    if total < args.n:
        print(f"prove-env: only {total} of {args.n} tasks passed the gates", file=sys.stderr)
        return 1
    return 0


def _card(args: argparse.Namespace) -> int:
    from prove_env.synthesis.card import write_card

    card = write_card(args.dir)
    print("wrote " + ", ".join(str(p) for p in card.paths))
    if card.skipped:
        print(f"prove-env: {card.skipped}", file=sys.stderr)
    return 0


def _new_server(args: argparse.Namespace) -> int:
    from prove_env.scaffold import new_server, source_root

    root = source_root()
    for path in new_server(args.name, root):
        print(f"wrote {path.relative_to(root)}")
    print(f"\nServer {args.name!r} passes the test suite as written (python -m pytest -q); "
          "docs/adding-a-server.md says how to grow it into the product it should model.")
    return 0


_COMMANDS = {"list": _list, "tools": _tools, "serve": _serve, "demo": _demo, "eval": _eval, "catalog": _catalog,
             "task": _task, "bench": _bench, "graph": _graph, "synth": _synth, "card": _card,
             "new-server": _new_server}

if __name__ == "__main__":
    sys.exit(main())
