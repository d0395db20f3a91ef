"""A `prove-env synth` output directory as a Hugging Face dataset: its card and Parquet files.

`write_card(out)` reads what the run wrote (`train.jsonl`, `test.jsonl`, `stats.json`) and adds:

- `data/<server>/<split>.parquet`: every task as one row, with its difficulty features as columns
  (`FEATURES`), one file per server and split (pyarrow writes them; without it they are skipped,
  and the result says so);
- `README.md`: the dataset card. Its YAML header names a config per server and `all` (the default),
  their splits and features, and the license; its prose says how the tasks are made and verified,
  the shape figures, the seeds and generator version, and the one command that writes the same set.

`datasets.load_dataset(out)` then loads the `all` config, `load_dataset(out, "banking")` one
server's, and `row_task(row)` turns a row back into a `Task`.
"""

from __future__ import annotations

import json
import platform
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from prove_env.reward import PAPER
from prove_env.synthesis.config import SynthConfig
from prove_env.task import Task, TaskError

__all__ = ["CARD", "FEATURES", "CardResult", "dependency_depth", "row_task", "task_features", "task_row",
           "write_card"]

CARD = "README.md"
SPLITS = ("train", "test")
LICENSE = "apache-2.0"

# Each column: (name, YAML feature (datasets' dataset_info form), description). Nested task fields whose
# shape varies by tool (arguments, schemas, facts, metadata) are JSON text, so every config has one schema.
FEATURES: tuple[tuple[str, dict[str, str], str], ...] = (
    ("id", {"dtype": "string"}, "task id, unique in the set: `<server>-<world seed>-<draft>`"),
    ("server", {"dtype": "string"}, "the server the task runs on"),
    ("seed", {"dtype": "int64"}, "the seed of its start world"),
    ("snapshot", {"dtype": "string"}, "a JSON world snapshot to start from instead (null for synthesized tasks)"),
    ("user_turns", {"sequence": "string"}, "the user's messages, in order"),
    ("gold", {"dtype": "string"}, "JSON: per user turn, the reference calls (`id`, `name`, `arguments`, "
                                  "`depends_on`)"),
    ("tools", {"dtype": "string"}, "JSON: the tools shown to the model (OpenAI function schemas, distractors and "
                                   "stripped enum lists included); null shows every visible tool of the server"),
    ("facts", {"dtype": "string"}, "JSON: per user turn, the values the answer must state (null: none)"),
    ("start_digest", {"dtype": "string"}, "SHA-256 digest of the start world"),
    ("gold_digest", {"dtype": "string"}, "SHA-256 digest of the world after the reference calls"),
    ("abstain", {"dtype": "bool"}, "the right behaviour is no call at all"),
    ("missing_tool", {"dtype": "string"}, "a tool the request needs that is not shown (null: none)"),
    ("system_prompt", {"dtype": "string"}, "a system prompt replacing the environment's (null: the default)"),
    ("metadata", {"dtype": "string"}, "JSON: provenance (synthesis draft, goals, information level, voice, "
                                      "perturbations, dependency edges, the values each turn must say)"),
    ("gold_length", {"dtype": "int64"}, "difficulty: reference calls in all"),
    ("dependency_depth", {"dtype": "int64"}, "difficulty: calls on the longest chain of `depends_on` edges"),
    ("turns", {"dtype": "int64"}, "difficulty: user turns"),
    ("servers", {"sequence": "string"}, "difficulty: the servers whose tools are shown (the task's first, then "
                                        "those of distractor tools)"),
    ("perturbations", {"sequence": "string"}, "difficulty: distractors, enums_stripped, missing_function, "
                                              "irrelevant, hidden_tool"),
    ("info_level", {"dtype": "string"}, "difficulty: complete, missing (a value comes a turn later) or minimal"),
    ("kind", {"dtype": "string"}, "chain, missing_function or abstention"),
    ("writes", {"dtype": "bool"}, "the reference calls change the world"),
    ("gold_success", {"dtype": "bool"}, "reference policy `gold` (the reference calls, then the facts): success, "
                                        "as the verification gates measured it"),
    ("gold_reward", {"dtype": "float64"}, "`gold`'s reward under the paper preset (1.3 at most, 1 for an "
                                          "abstention), as the gates measured it"),
    ("noop_success", {"dtype": "bool"}, "reference policy `noop` (no call, only answers): success, as the gates "
                                        "measured it (only on abstentions)"),
)

_JSON_COLUMNS = ("snapshot", "gold", "tools", "facts", "metadata")


@dataclass(frozen=True)
class CardResult:
    """What `write_card` wrote, and why the Parquet files were skipped when they were."""

    paths: list[Path] = field(default_factory=list)
    skipped: str | None = None


def write_card(out: str | Path) -> CardResult:
    """Write the Parquet files and the dataset card of the synthesis output in `out`."""
    out = Path(out)
    stats_path = out / "stats.json"
    if not stats_path.is_file():
        raise TaskError(f"{out} is not a `prove-env synth` output: it has no stats.json")
    stats = json.loads(stats_path.read_text(encoding="utf-8"))
    gates = tuple(stats.get("gates", ()))
    rows: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for split in SPLITS:
        path = out / f"{split}.jsonl"
        if not path.is_file():
            raise TaskError(f"{out} has no {split}.jsonl")
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            if line.strip():
                data = json.loads(line)
                task = Task.parse(data, f"{path}:{number}")
                rows[(task.server, split)].append(task_row(data, task, gates))
    servers = sorted({server for server, _ in rows})
    paths: list[Path] = []
    sizes: dict[tuple[str, str], int] = {}  # Arrow bytes per (server, split): the splits' `num_bytes`
    skipped = None
    try:
        import pyarrow.parquet  # noqa: F401  (the Parquet writer)
    except ImportError:
        skipped = ("pyarrow is not installed: the Parquet files were skipped and the card has no configs "
                   f"(pip install 'prove-env[hub]', then prove-env card {out})")
    else:
        for (server, split), server_rows in sorted(rows.items()):
            path = out / "data" / server / f"{split}.parquet"
            sizes[(server, split)] = _write_parquet(path, server_rows)
            paths.append(path)
    counts = {key: len(value) for key, value in rows.items()}
    card = out / CARD
    card.write_text(card_text(stats, servers, counts, sizes if skipped is None else None), encoding="utf-8")
    return CardResult(paths + [card], skipped)


# -- rows -----------------------------------------------------------------------------------------

def task_row(data: Mapping[str, Any], task: Task, gates: Sequence[str]) -> dict[str, Any]:
    """One task (`data`, its JSON object, and `task`, the same parsed) as a dataset row."""
    row: dict[str, Any] = {}
    for name, _, _ in FEATURES:
        if name in _JSON_COLUMNS:
            value = data.get(name)
            row[name] = None if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        elif name in ("id", "server", "seed", "user_turns", "start_digest", "gold_digest", "abstain", "missing_tool",
                      "system_prompt"):
            row[name] = getattr(task, name)
    row.update(task_features(task, gates))
    return row


def task_features(task: Task, gates: Sequence[str] = ()) -> dict[str, Any]:
    """A task's difficulty features, and the reference policies' outcomes the verification `gates`
    (the names in a run's stats.json) established for every task they let through."""
    metadata = task.metadata
    perturbations = [p for p in metadata.get("perturbations", []) if isinstance(p, str)]
    gold_checked = "gold below maximum" in gates
    return {
        "gold_length": len(task.gold_calls),
        "dependency_depth": dependency_depth(task),
        "turns": len(task.user_turns),
        "servers": shown_servers(task),
        "perturbations": perturbations,
        "info_level": metadata.get("info_level"),
        "kind": metadata.get("kind"),
        "writes": task.writes,
        "gold_success": True if gold_checked else None,
        "gold_reward": (1.0 if task.abstain else PAPER.maximum) if gold_checked else None,
        "noop_success": task.abstain if "do-nothing passes" in gates else None,
    }


def dependency_depth(task: Task) -> int:
    """The most calls on one chain of `depends_on` edges (0 without calls, 1 for independent calls)."""
    depth: dict[str, int] = {}
    for call in task.gold_calls:
        depth[call.id] = 1 + max((depth[d] for d in call.depends_on), default=0)
    return max(depth.values(), default=0)


def shown_servers(task: Task) -> list[str]:
    """The task's server, then the servers whose tools are shown as distractors (a tool name several
    servers have is the one whose description the task shows)."""
    if task.tools is None:
        return [task.server]
    own = _visible(task.server)
    found: set[str] = set()
    for tool in task.tools:
        function = tool["function"]
        if function["name"] in own:
            continue
        owners = _owners().get(function["name"], {})
        matching = [s for s, description in owners.items() if description == function.get("description")]
        found.update(matching or owners)
    return [task.server] + sorted(found - {task.server})


@cache
def _visible(server: str) -> frozenset[str]:
    from prove_env.registry import get_toolkit

    return frozenset(spec.name for spec in get_toolkit(server).visible_specs())


@cache
def _owners() -> dict[str, dict[str, str]]:
    """Per visible tool name, the servers that have it and its description there."""
    from prove_env.registry import get_toolkit, server_names

    owners: dict[str, dict[str, str]] = defaultdict(dict)
    for server in server_names():
        for spec in get_toolkit(server).visible_specs():
            owners[spec.name][server] = spec.openai_schema()["function"].get("description")
    return dict(owners)


def row_task(row: Mapping[str, Any]) -> Task:
    """The `Task` of a dataset row (from the Parquet files or `datasets.load_dataset`)."""
    data: dict[str, Any] = {}
    for name in ("id", "server", "seed", "user_turns", "start_digest", "gold_digest", "abstain", "missing_tool",
                 "system_prompt", *_JSON_COLUMNS):
        value = row.get(name)
        if name in _JSON_COLUMNS and value is not None:
            value = json.loads(value)
        if value is not None:
            data[name] = list(value) if name == "user_turns" else value
    return Task.parse(data, f"row {row.get('id')!r}")


def _write_parquet(path: Path, rows: list[dict[str, Any]]) -> int:
    """Write `rows` to `path`; returns their size in Arrow's memory layout."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {"string": pa.string(), "int64": pa.int64(), "bool": pa.bool_(), "float64": pa.float64()}
    schema = pa.schema([(name, pa.list_(types[f["sequence"]]) if "sequence" in f else types[f["dtype"]])
                        for name, f, _ in FEATURES])
    table = pa.Table.from_pylist(rows, schema=schema)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, compression="zstd")
    return table.nbytes


# -- the card -------------------------------------------------------------------------------------

def card_text(stats: Mapping[str, Any], servers: Sequence[str], counts: Mapping[tuple[str, str], int],
              sizes: Mapping[tuple[str, str], int] | None) -> str:
    """The dataset card: the YAML header, then the prose. `sizes` (the Parquet files' Arrow bytes per
    server and split) is None when no Parquet files were written: the card then has no configs."""
    return _header(servers, counts, sizes) + "\n" + _prose(stats, servers, counts, sizes is not None)


def _header(servers: Sequence[str], counts: Mapping[tuple[str, str], int],
            sizes: Mapping[tuple[str, str], int] | None) -> str:
    total = sum(counts.values())
    lines = ["---", f"license: {LICENSE}", "language:", "- en", 'pretty_name: "prove-env verified tool-use tasks"',
             "size_categories:", f"- {_size_category(total)}", "task_categories:", "- text-generation", "tags:"]
    lines += [f"- {tag}" for tag in ("tool-use", "function-calling", "mcp", "agents", "reinforcement-learning",
                                     "synthetic")]
    if sizes is not None:
        configs = [("all", {split: f"data/*/{split}.parquet" for split in SPLITS
                            if any(counts.get((s, split)) for s in servers)})]
        configs += [(server, {split: f"data/{server}/{split}.parquet" for split in SPLITS
                              if counts.get((server, split))}) for server in servers]
        lines.append("configs:")
        for name, files in configs:
            lines.append(f"- config_name: {name}")
            if name == "all":
                lines.append("  default: true")
            lines.append("  data_files:")
            for split, path in files.items():
                lines += [f"  - split: {split}", f"    path: {_quote(path)}"]
        lines.append("dataset_info:")
        for name, _ in configs:
            lines += [f"- config_name: {name}", "  features:"]
            for column, feature, _ in FEATURES:
                kind, value = next(iter(feature.items()))
                lines += [f"  - name: {column}", f"    {kind}: {value}"]
            lines.append("  splits:")
            for split in SPLITS:
                members = servers if name == "all" else [name]
                n = sum(counts.get((s, split), 0) for s in members)
                if n:
                    size = sum(sizes.get((s, split), 0) for s in members)
                    lines += [f"  - name: {split}", f"    num_bytes: {size}", f"    num_examples: {n}"]
    lines.append("---")
    return "\n".join(lines) + "\n"


def _size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "1M<n<10M"


def _quote(text: str) -> str:
    return json.dumps(text)  # a JSON string is a YAML double-quoted scalar


def _prose(stats: Mapping[str, Any], servers: Sequence[str], counts: Mapping[tuple[str, str], int],
           parquet: bool) -> str:
    parameters = stats.get("parameters", {})
    per_server = stats.get("servers", {})
    total = stats.get("tasks", sum(counts.values()))
    out: list[str] = []
    add = out.append
    add(f"# prove-env tasks: {total:,} verified multi-turn tool-use tasks over {len(servers)} "
        f"server{'s' if len(servers) != 1 else ''}\n")
    add("Each task is one user's conversation (one to three turns) with an assistant that has the tools of one of "
        "prove-env's servers: live, stateful MCP servers over seeded SQLite worlds (banking, calendar, a file "
        "system, ...). A task gives the user's messages, the tools shown, the reference calls per turn with the "
        "calls each depends on, the values the answers must state, and the digests of its start world and of the "
        "world after the reference calls. The environments (`gym.make(\"prove/<server>-v0\")`) score an agent "
        "against it with PROVE's reward (validity, dependency-aware coverage, efficiency, tool-name precision, "
        "argument match) and an outcome-based success flag; no judge model is involved.\n")
    add("## Loading\n")
    add("```python")
    add("from datasets import load_dataset")
    add("from prove_env.synthesis.card import row_task")
    add("")
    add(f'tasks = load_dataset("path/to/this/folder")                  # the "all" config: {", ".join(SPLITS)}')
    if servers:
        add(f'{servers[0]} = load_dataset("path/to/this/folder", "{servers[0]}")   # one server\'s tasks')
    add('task = row_task(tasks["train"][0])                          # a prove_env Task')
    add("")
    add("import gymnasium as gym, prove_env")
    add('env = gym.make(f"prove/{task.server}-v0")')
    add('observation, info = env.reset(options={"task": task})')
    add("```\n")
    if not parquet:
        add("The Parquet files of this folder were not written (pyarrow was not installed); `train.jsonl` and "
            "`test.jsonl` hold the same tasks, one JSON object per line.\n")
    else:
        add("`train.jsonl` and `test.jsonl` hold the same tasks as JSON lines (`prove_env.load_tasks`); "
            "`data/<server>/<split>.parquet` are the configs' files.\n")
    add("## How the tasks are made\n")
    add("`prove-env synth` writes tasks from the live state of seeded worlds; no language model is involved "
        "(unless a teacher model rewords the user turns, see below):\n")
    add("1. **Dependency graph.** From each server's code: which tools produce the entity ids others consume, and "
        "which set the states others require.")
    add("2. **State sampling.** A server's recipe reads a seeded world through its read-only tools and picks "
        "entities a person could name unambiguously.")
    add("3. **Chains and conversations.** One to three requests per conversation, in a person's words at an "
        "information level (complete, a value missing until the next turn, or minimal); the look-ups that resolve "
        "what each request names are walked back through the graph, and each reference call records the calls it "
        "depends on.")
    add("4. **Perturbations.** Distractor tools of other servers, enum value lists stripped from schemas, "
        "requests no tool serves or only a hidden tool could (abstentions), and a needed tool left out "
        "(missing-function tasks).")
    add("5. **Verification.** Every draft runs, before it is written, on a fresh copy of its start world through "
        "the environment itself; the gates are: " + _gates_text(stats.get("gates", ())) + ".")
    add("6. **Dedup and splits.** Near-duplicates (by reference calls) and over-frequent tool sequences are dropped; "
        "train and test come from different worlds.\n")
    add("## Shape\n")
    add(_split_line(stats))
    add("")
    add(_server_table(servers, per_server, counts))
    add("")
    for title, key in (("Reference calls per task", "chain_length"), ("User turns", "turns"),
                       ("Information level (tasks with calls)", "info_level"), ("Perturbations", "perturbations"),
                       ("Shares against their targets", "targets"), ("Drafts dropped, by reason", "dropped")):
        figures = stats.get(key)
        if figures:
            add(f"**{title}:** " + ", ".join(f"{k}: {_number(v)}" for k, v in figures.items()) + "\n")
    add("## Columns\n")
    add("| column | type | meaning |")
    add("|---|---|---|")
    for column, feature, description in FEATURES:
        kind, value = next(iter(feature.items()))
        add(f"| `{column}` | {'list of ' + value if kind == 'sequence' else value} | {description} |")
    add("")
    add("## Seeds and generator\n")
    add(_seeds_text(stats, parameters, per_server))
    add("")
    add("## Reproduce\n")
    add("```bash")
    add(reproduce_command(parameters))
    add("```\n")
    add("The same arguments write byte-identical task files on any number of workers, given the same package "
        "versions (seeded world data depends on the Faker version; every task records its start world's digest, "
        "and an environment refuses a task whose world builds differently).")
    if any(str(reason).startswith("teacher:") for reason in stats.get("dropped", {})):
        add("The user turns were reworded by a teacher model (`--teacher-url`); a rewording is kept only if the "
            "task still validates, and is not reproduced without the same model.")
    add("")
    add("## License\n")
    add("Apache-2.0, as prove-env. The worlds are synthetic (Faker): the people, companies and accounts in them "
        "do not exist.")
    return "\n".join(out) + "\n"


def _gates_text(gates: Iterable[str]) -> str:
    meaning = {
        "gold call failed": "every reference call succeeds",
        "gold below maximum": "the reference calls earn the maximum reward with success",
        "already satisfied": "a task that writes changes the world",
        "no facts to judge": "a read-only task records the facts its answer must state",
        "look-up nobody uses": "no reference look-up goes unused",
        "do-nothing passes": "doing nothing fails (unless the task is an abstention)",
    }
    return "; ".join(f"{meaning.get(g, g)} (\"{g}\")" for g in gates) or "(not recorded)"


def _split_line(stats: Mapping[str, Any]) -> str:
    from prove_env.synthesis.pipeline import split_summary

    try:
        text = split_summary(stats)
        return text[0].upper() + text[1:] + "."
    except (KeyError, TypeError, ZeroDivisionError):
        return f"{stats.get('train', 0)} train and {stats.get('test', 0)} test tasks."


def _server_table(servers: Sequence[str], per_server: Mapping[str, Any], counts: Mapping[tuple[str, str], int]) -> str:
    lines = ["| server | tasks | train | test | writes | abstentions | missing-function |",
             "|---|---|---|---|---|---|---|"]
    totals = Counter()
    for server in servers:
        s = per_server.get(server, {})
        row = {"tasks": counts.get((server, "train"), 0) + counts.get((server, "test"), 0),
               "train": counts.get((server, "train"), 0), "test": counts.get((server, "test"), 0),
               "writes": s.get("writes", 0), "abstention": s.get("abstention", 0),
               "missing": s.get("perturbations", {}).get("missing_function", 0)}
        totals.update(row)
        lines.append(f"| {server} | {row['tasks']} | {row['train']} | {row['test']} | {row['writes']} | "
                     f"{row['abstention']} | {row['missing']} |")
    lines.append(f"| **all** | {totals['tasks']} | {totals['train']} | {totals['test']} | {totals['writes']} | "
                 f"{totals['abstention']} | {totals['missing']} |")
    return "\n".join(lines)


def _seeds_text(stats: Mapping[str, Any], parameters: Mapping[str, Any], per_server: Mapping[str, Any]) -> str:
    seed = parameters.get("seed")
    worlds = {split: sorted({w for s in per_server.values() for w in s.get("worlds", {}).get(split, [])})
              for split in SPLITS}
    lines = [f"- Run seed {seed}. World seeds (`run seed * 100000 + n`, one world per shard): "
             + "; ".join(f"{split} {_ranges(worlds[split])}" for split in SPLITS if worlds[split]) + "."]
    config = parameters.get("config", {})
    if config:
        lines.append("- Synthesis parameters: " + ", ".join(f"`{k}` {_number(v)}" for k, v in config.items()) + ".")
    lines.append(f"- Generator: prove-env {_version('prove-env')} (Faker {_version('faker')}, SQLAlchemy "
                 f"{_version('sqlalchemy')}, Python {platform.python_version()}), the versions that wrote this "
                 "card.")
    return "\n".join(lines)


def _ranges(values: Sequence[int]) -> str:
    parts, start = [], None
    for i, value in enumerate(values):
        if start is None:
            start = value
        if i + 1 == len(values) or values[i + 1] != value + 1:
            parts.append(str(start) if start == value else f"{start}-{value}")
            start = None
    return ", ".join(parts)


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "unknown"


def _number(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        return "(" + ", ".join(_number(v) for v in value) + ")"
    return str(value)


def reproduce_command(parameters: Mapping[str, Any]) -> str:
    """The `prove-env synth` command that writes the same tasks (and this card) again."""
    parts = ["prove-env synth"]
    servers = parameters.get("servers") or []
    if servers:
        parts.append("--servers " + ",".join(servers))
    parts += [f"--n {parameters.get('n')}", f"--seed {parameters.get('seed')}"]
    defaults = SynthConfig().as_dict()
    config = parameters.get("config", {})
    flags = {"distractor_rate": "--distractor-rate", "strip_enums_rate": "--strip-enums-rate",
             "irrelevant_rate": "--irrelevant-rate", "hidden_rate": "--hidden-rate", "test_share": "--test-share",
             "tasks_per_world": "--tasks-per-world"}
    for key, flag in flags.items():
        if key in config and config[key] != defaults[key]:
            parts.append(f"{flag} {_number(config[key])}")
    if "info_levels" in config and list(config["info_levels"]) != list(defaults["info_levels"]):
        parts.append("--info-levels " + ",".join(_number(v) for v in config["info_levels"]))
    other = sorted(k for k in config if k in defaults and k not in flags and k != "info_levels"
                   and config[k] != defaults[k])
    command = " ".join(parts) + " --out DIR"
    if other:
        command += ("\n# and, through the Python API (SynthConfig), " +
                    ", ".join(f"{k}={_number(config[k])}" for k in other))
    return command
