"""Tasks: what an episode asks of the model, and the reference calls it is scored against.

A task is JSON-serialisable (one per line in a `.jsonl` file). Its start world is either a seeded
world (`seed`) or a hand-written JSON snapshot (`snapshot`); `start_digest` records the digest of
that world as built when the task was written, so an environment can refuse a task whose world
builds differently on this machine (seed data depends on the Faker version).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

__all__ = ["GoldCall", "Task", "TaskError", "load_tasks", "fixture_tasks", "dump_tasks"]


class TaskError(ValueError):
    """A task file or task object is invalid."""


class GoldCall(BaseModel):
    """One reference call. `depends_on` names the gold calls whose results or effects it needs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    depends_on: list[str] = Field(default_factory=list)

    def values(self) -> list[str | int | float]:
        """Every scalar value the call passes (strings and numbers, nested ones included)."""
        found: list[str | int | float] = []
        stack: list[Any] = [self.arguments]
        while stack:
            value = stack.pop()
            if isinstance(value, dict):
                stack.extend(reversed(list(value.values())))
            elif isinstance(value, list):
                stack.extend(reversed(value))
            elif isinstance(value, str | int | float) and not isinstance(value, bool):
                found.append(value)
        return found


class Task(BaseModel):
    """One multi-turn tool-use task on one server.

    Attributes:
        id: unique within its file, such as 'calendar-003'.
        server: the server name, such as 'calendar'.
        seed: the seed of the start world (or None when `snapshot` is given).
        snapshot: a JSON world snapshot to start from instead of a seed.
        user_turns: the user's messages, in order.
        gold: per user turn, the reference calls that serve it (empty for a turn the assistant
            should answer without calling anything).
        tools: the tools shown to the model, in OpenAI function format (distractors included), each
            name once. None shows every visible tool of the server.
        start_digest: digest of the start world when the task was written.
        gold_digest: digest of the world after the gold calls.
        abstain: the right behaviour is to make no call at all.
        facts: per user turn, the values the assistant's answers must state (read from the
            reference calls' results: a balance, a date, a file name). A read-only task succeeds
            on its outcome: the world unchanged and every fact stated, whatever tools found them.
        missing_tool: a tool the request needs that is not shown (a missing-function task): the
            assistant makes the calls still possible and says what it cannot do.
        system_prompt: replaces the default system prompt when given.
        metadata: free-form provenance (synthesis parameters, perturbations, ...).
    """

    model_config = ConfigDict(extra="forbid")

    id: str
    server: str
    seed: int | None = Field(default=None, ge=0)
    snapshot: dict[str, Any] | None = None
    user_turns: list[str] = Field(min_length=1)
    gold: list[list[GoldCall]]
    tools: list[dict[str, Any]] | None = None
    start_digest: str | None = None
    gold_digest: str | None = None
    abstain: bool = False
    facts: list[list[Any]] | None = None
    missing_tool: str | None = None
    system_prompt: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> Task:
        if (self.seed is None) == (self.snapshot is None):
            raise ValueError("a task has exactly one of 'seed' and 'snapshot'")
        if len(self.gold) != len(self.user_turns):
            raise ValueError(f"'gold' has {len(self.gold)} turns but 'user_turns' has {len(self.user_turns)}")
        seen: set[str] = set()
        for call in self.gold_calls:
            if call.id in seen:
                raise ValueError(f"gold call id {call.id!r} is used twice")
            missing = [d for d in call.depends_on if d not in seen]
            if missing:
                raise ValueError(f"gold call {call.id!r} depends on {missing}, which are not earlier gold calls")
            seen.add(call.id)
        if self.facts is not None and len(self.facts) != len(self.user_turns):
            raise ValueError(f"'facts' has {len(self.facts)} turns but 'user_turns' has {len(self.user_turns)}")
        if self.missing_tool is not None and self.tools is not None and any(
                t.get("function", {}).get("name") == self.missing_tool for t in self.tools):
            raise ValueError(f"the missing tool {self.missing_tool!r} is among the tools shown")
        if self.abstain and seen:
            raise ValueError("an abstention task has no gold calls")
        if not self.abstain and not seen:
            raise ValueError("a task without gold calls must be marked 'abstain': true")
        if self.tools is not None:
            shown: set[str] = set()
            for tool in self.tools:
                if tool.get("type") != "function" or "name" not in tool.get("function", {}):
                    raise ValueError("'tools' must be OpenAI function schemas: {'type': 'function', 'function': {...}}")
                name = tool["function"]["name"]
                if name in shown:
                    raise ValueError(f"'tools' lists the tool {name!r} twice: a client keys tools by name")
                shown.add(name)
        return self

    @cached_property
    def snapshot_key(self) -> str | None:
        """The content hash of `snapshot` (computed once per Task object), keying its cached template."""
        from prove_env.world import snapshot_key

        return None if self.snapshot is None else snapshot_key(self.snapshot)

    @property
    def gold_calls(self) -> list[GoldCall]:
        """All gold calls of all turns, in order."""
        return [call for turn in self.gold for call in turn]

    @property
    def writes(self) -> bool:
        """Whether the gold calls change the world (known once the task is stamped)."""
        return self.gold_digest is not None and self.gold_digest != self.start_digest

    @classmethod
    def parse(cls, data: Any, where: str = "task") -> Task:
        """A Task from a dict or JSON text, or a TaskError that says what is wrong."""
        if isinstance(data, Task):
            return data
        try:
            return cls.model_validate_json(data) if isinstance(data, str | bytes) else cls.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'task'}: {e['msg']}" for e in exc.errors(include_url=False)
            )
            raise TaskError(f"{where}: {problems}") from None

    def to_json(self) -> str:
        return self.model_dump_json(exclude_none=True)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Task:
        """A Task from a row of `datasets.load_dataset("json", ...)` over a task file.

        Arrow gives every record of a column the union of the keys seen in that column, filled
        with None; those keys are dropped again (task files never hold null arguments, and a
        null schema default means the same as none).
        """
        return cls.parse(_drop_nulls(dict(row)), "dataset row")


def _drop_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


def load_tasks(path: str | Path) -> list[Task]:
    """Tasks from a JSON Lines file (blank lines are skipped)."""
    path = Path(path)
    if not path.exists():
        raise TaskError(f"no task file at {path}")
    return list(_parse_lines(path.read_text(encoding="utf-8").split("\n"), str(path)))


def dump_tasks(tasks: Iterable[Task], path: str | Path) -> None:
    Path(path).write_text("".join(t.to_json() + "\n" for t in tasks), encoding="utf-8")


def fixture_tasks(server: str) -> list[Task]:
    """The hand-written tasks that ship for `server` (empty if it has none)."""
    return list(_fixture_tasks(server))


def _fixture_tasks(server: str) -> tuple[Task, ...]:
    cached = _FIXTURES.get(server)
    if cached is None:
        node = resources.files("prove_env.fixtures").joinpath("tasks", f"{server}.jsonl")
        text = node.read_text(encoding="utf-8") if node.is_file() else ""
        cached = _FIXTURES[server] = tuple(_parse_lines(text.split("\n"), f"fixtures/tasks/{server}.jsonl"))
    return cached


_FIXTURES: dict[str, tuple[Task, ...]] = {}


def _parse_lines(lines: list[str], where: str) -> Iterator[Task]:
    # Lines end at "\n" only: JSON text may hold U+2028 or U+0085 raw, which str.splitlines() breaks on.
    ids: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TaskError(f"{where}:{number}: not valid JSON ({exc.msg})") from None
        task = Task.parse(data, f"{where}:{number}")
        if task.id in ids:
            raise TaskError(f"{where}:{number}: task id {task.id!r} is used twice")
        ids.add(task.id)
        yield task
