"""Episodes: a task's world behind a live MCP server, the model's calls against it, and the reward.

An `Episode` owns one MCP server instance and one client session for its whole life; `begin(task)`
puts a fresh world for the task into the server's slot (a clone of a cached template: no
reconnect, no re-seed). Every call the model makes goes through real MCP dispatch and is
recorded with its outcome; `score()` turns the record into the reward.

`replay(task)` runs a task's gold calls on a fresh start world through the same MCP path, and
is what the reference state of the reward, task stamping and task verification all use; the
first episode of a task that makes exactly its gold calls stands for that run (its world is the
one the replay would end in), so a gold episode runs the gold calls once.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from prove_env.actions import ParsedCall
from prove_env.mcp_server import ToolClient, WorldSlot, build_server, tool_result, unknown_tool
from prove_env.registry import get_toolkit
from prove_env.facts import facts_stated, listed
from prove_env.reward import PAPER, Call, Gold, RewardBreakdown, RewardConfig, StateOutcome, compute_reward
from prove_env.task import Task
from prove_env.toolkit import Toolkit
from prove_env.world import World, WorldError, combine_digests, worlds

__all__ = ["CallRecord", "Episode", "Replay", "replay", "gold_records", "build_world", "shown_tools"]


@dataclass(frozen=True)
class CallRecord:
    """One model call and what the server answered (`output` is the tool message's content)."""

    id: str
    name: str | None
    arguments: Any
    ok: bool
    output: str

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "arguments": self.arguments, "ok": self.ok, "output": self.output}


@dataclass(frozen=True)
class Replay:
    """A task's gold calls replayed on a fresh start world."""

    start_digest: str
    gold_digest: str
    start_tables: dict[str, str] = field(repr=False)
    gold_tables: dict[str, str] = field(repr=False)
    records: tuple[CallRecord, ...] = field(repr=False)
    # Tables holding details (`Toolkit.details()`): their digests with the details set aside, and
    # per detail column left out of them, the rows the gold calls change, with the gold values.
    start_rest: dict[str, str] = field(default_factory=dict, repr=False)
    gold_rest: dict[str, str] = field(default_factory=dict, repr=False)
    detail_changes: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict, repr=False)
    # per table holding details, the rows (primary keys as JSON) the gold calls change, and per
    # detail column its start values: on every other row a detail is held to its start value
    touched: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    start_details: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict, repr=False)

    @property
    def failures(self) -> list[CallRecord]:
        return [r for r in self.records if not r.ok]


def build_world(toolkit: type[Toolkit], task: Task) -> World:
    """The start world of `task`, checked against the digest the task recorded."""
    if task.seed is not None:
        world = worlds.create(toolkit, task.seed)
        digest = worlds.digest(toolkit, task.seed)
    else:
        world = worlds.create_from_snapshot(toolkit, task.snapshot or {}, task.snapshot_key)
        digest = worlds.snapshot_template(toolkit, task.snapshot or {}, task.snapshot_key)[1]
    if task.start_digest and digest != task.start_digest:
        world.close()
        origin = f"seed {task.seed}" if task.seed is not None else "its snapshot"
        raise WorldError(
            f"task {task.id!r}: the start world ({task.server}, {origin}) builds to digest {digest[:12]}... on this "
            f"machine, but the task was written against {task.start_digest[:12]}.... Seeded data depends on the "
            "Faker version: install the versions the task set was made with, or re-stamp the tasks."
        )
    return world


def shown_tools(toolkit: type[Toolkit], task: Task) -> list[dict[str, Any]]:
    """The tools the model sees for `task`, in OpenAI function format."""
    if task.tools is not None:
        return task.tools
    return [spec.openai_schema() for spec in toolkit.visible_specs()]


@cache
def choices(toolkit: type[Toolkit]) -> tuple[frozenset[str], ...]:
    """The sets of words a tool argument of the server takes (an order's statuses, a priority): the
    rivals of a word fact, which an answer naming them all only guesses (`prove_env.facts`)."""
    found: set[frozenset[str]] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            options = node.get("enum")
            if isinstance(options, list) and len(options) > 1 and all(isinstance(o, str) for o in options):
                found.add(frozenset(options))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for spec in toolkit.specs().values():
        walk(spec.openai_schema())
    return tuple(sorted(found, key=sorted))


_RAW_ARGUMENTS_KEPT = 2_000


class Episode:
    """One server's live MCP session, reused across tasks; one task's world and record at a time.

    The methods are coroutines; the Gymnasium environment drives them from synchronous code
    through `prove_env.runtime.run_sync`, and async callers await them directly.
    """

    def __init__(self, server: str | type[Toolkit], reward: RewardConfig = PAPER, *,
                 include_hidden: bool = False, dispatched: bool = False) -> None:
        self.toolkit = get_toolkit(server) if isinstance(server, str) else server
        self.reward_config = reward
        self.slot = WorldSlot(self.toolkit)
        # include_hidden: the server also has the helper and debug tools (`serve --debug-tools`).
        self.include_hidden = include_hidden
        # dispatched: the calls reach this episode already dispatched by an MCP server (the HTTP
        # episode server's), so they run on the world without a second, in-process MCP hop.
        self._client = None if dispatched else ToolClient(
            build_server(self.toolkit, self.slot, include_hidden=include_hidden))
        self.task: Task | None = None
        self.start_tables: dict[str, str] = {}
        self.tools: list[dict[str, Any]] = []
        self.schemas: dict[str, dict[str, Any]] = {}
        self.calls: list[CallRecord] = []
        self.answers: list[str] = []
        self._shown: frozenset[float] | None = None  # the numbers of the listings the facts come from
        # The tools this server runs: a shown tool that is not one of them (a distractor of another
        # server) is as unknown as a tool never shown, and reads the same as over stdio or HTTP.
        self._served = frozenset(s.name for s in self.toolkit.specs().values() if include_hidden or not s.hidden)
        self._callable: list[str] = []

    @property
    def world(self) -> World:
        if self.slot.world is None:
            raise RuntimeError("the episode has not begun: call begin(task) first")
        return self.slot.world

    async def begin(self, task: Task) -> None:
        """Start `task` on a fresh copy of its start world."""
        if task.server != self.toolkit.name:
            raise ValueError(f"task {task.id!r} is for server {task.server!r}, not {self.toolkit.name!r}")
        world = build_world(self.toolkit, task)
        old, self.slot.world = self.slot.world, world
        if old is not None:
            old.close()
        self.task = task
        self.start_tables = world.table_digests()  # a fresh clone's digests are known, not hashed
        self.tools = shown_tools(self.toolkit, task)
        self.schemas = {t["function"]["name"]: t["function"].get("parameters", {}) for t in self.tools}
        self._callable = [name for name in self.schemas if name in self._served]
        self.calls = []
        self.answers = []
        self._shown = None
        if self._client is not None:
            await self._client.aopen()

    async def call(self, parsed: ParsedCall) -> CallRecord:
        """Execute one parsed call against the live world and record it. Never raises on bad calls."""
        call_id = parsed.id or f"call_{len(self.calls) + 1}"
        if parsed.error is not None:
            output = f"Error: {parsed.error}"
            ok = False
        elif parsed.name not in self.schemas or parsed.name not in self._served:
            output = unknown_tool(parsed.name, self._callable)
            ok = False
        else:
            if self._client is not None:
                result = await self._client.call(parsed.name, parsed.arguments)
            else:
                result = tool_result(self.slot, parsed.name, parsed.arguments, include_hidden=self.include_hidden)
            content = result.content
            output = (content[0].text if len(content) == 1 and hasattr(content[0], "text")
                      else "\n".join(block.text for block in content if hasattr(block, "text")))
            ok = not result.is_error
        arguments = parsed.arguments
        if isinstance(arguments, str) and len(arguments) > _RAW_ARGUMENTS_KEPT:
            # Unreadable arguments are kept only to be scored as such; a bounded prefix does that.
            arguments = arguments[:_RAW_ARGUMENTS_KEPT] + f"[... {len(arguments) - _RAW_ARGUMENTS_KEPT} more characters]"
        record = CallRecord(call_id, parsed.name, arguments, ok, output)
        self.calls.append(record)
        return record

    def answer(self, text: str) -> None:
        """Record the assistant's answer to a user turn (read-only tasks are judged on what it states)."""
        self.answers.append(text)

    async def state_outcome(self) -> StateOutcome:
        """The final world against the world the gold calls produce from the same start.

        The world is compared in parts: each table, except that a table holding details (values a
        user does not specify, declared by the tools) is compared with them set aside, and each
        such detail counts only on the rows the gold calls change. The write set is the parts the
        gold calls change; any other part that changed is collateral damage.
        """
        task = self._task()
        reference = await replay(task, ran=self)
        details = self.toolkit.details()
        final = self.world.table_digests()
        parts = []  # (start, gold, final) digests of each part
        for table, start in reference.start_tables.items():
            gold = reference.gold_tables[table]
            if table in details:  # the whole table equal to the start's or the gold's: so is the rest
                start_rest, gold_rest = reference.start_rest[table], reference.gold_rest[table]
                rest = (start_rest if final[table] == start else gold_rest if final[table] == gold
                        else self.world.digest_except(table, details[table]))
                parts.append((start_rest, gold_rest, rest))
            else:
                parts.append((start, gold, final[table]))
        write_set = [p for p in parts if p[0] != p[1]]
        matched_parts = sum(p[2] == p[1] for p in write_set)
        for (table, column), rows in reference.detail_changes.items():
            if final[table] == reference.gold_tables[table]:
                matched_parts += 1
                continue
            values = self.world.column_values(table, column)
            matched_parts += all(_loose(values.get(key)) == _loose(value) for key, value in rows.items())
        writes = len(write_set) + len(reference.detail_changes)
        collateral = (any(p[2] != p[0] for p in parts if p[0] == p[1])
                      or self._details_changed_elsewhere(reference, final))
        unshown = ((task.missing_tool is not None or not task.gold_calls)
                   and any(r.name not in self.schemas for r in self.calls))
        if self._shown is None:  # the listings the facts come from: read once an episode
            self._shown = listed(task.facts, [r.output for r in reference.records])
        return StateOutcome(matched=matched_parts / writes if writes else 1.0, collateral=collateral or unshown,
                            writes=bool(writes), facts=facts_stated(task.facts, self.answers, choices(self.toolkit),
                                                                    today=self.world.now.date(), shown=self._shown))

    def _details_changed_elsewhere(self, reference: Replay, final: dict[str, str]) -> bool:
        """Whether a detail changed on a row the gold calls never touch: tolerated details are
        tolerated only where the task writes, so any such change is collateral damage. `final`
        holds the world's table digests."""
        anywhere = self.toolkit.session_details()
        for table, columns in self.toolkit.details().items():
            if final[table] in (reference.start_tables[table], reference.gold_tables[table]):
                continue
            touched = reference.touched[table]
            for column in columns:
                if (table, column) in anywhere:
                    continue
                values = self.world.column_values(table, column)
                if any(values.get(key, _ABSENT) != value
                       for key, value in reference.start_details[(table, column)].items() if key not in touched):
                    return True
        return False

    async def score(self) -> RewardBreakdown:
        """The reward of the calls made so far (the episode's reward once it has ended)."""
        task = self._task()
        calls = [Call(r.name, r.arguments, r.ok) for r in self.calls]
        gold = [Gold(g.id, g.name, g.arguments, tuple(g.depends_on)) for g in task.gold_calls]
        state = await self.state_outcome()
        return compute_reward(calls, gold, self.schemas, state=state, config=self.reward_config)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
        self._drop_world()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        self._drop_world()

    def _drop_world(self) -> None:
        if self.slot.world is not None:
            self.slot.world.close()
            self.slot.world = None

    def _task(self) -> Task:
        if self.task is None:
            raise RuntimeError("the episode has not begun: call begin(task) first")
        return self.task


# -- gold replay --------------------------------------------------------------------------------

_REPLAYS: OrderedDict[str, Replay] = OrderedDict()
_REPLAYS_MAX = 4096


async def replay(task: Task, *, ran: Episode | None = None) -> Replay:
    """Replay the gold calls of `task` on a fresh start world (cached per task content).

    `ran`, an episode of `task` that has made exactly its gold calls (the same tools with the same
    arguments, in order, every one answered), ends in the world the replay would end in: when the
    reference is not known yet, it is read off that episode's world instead of a run of its own, so
    the gold episode of a new task runs its calls once.
    """
    key = _task_key(task)
    found = _REPLAYS.get(key)
    if found is not None:
        return found
    if ran is not None and ran.task is task and _made_gold_calls(ran.calls, task):
        records = tuple(CallRecord(g.id, g.name, dict(g.arguments), r.ok, r.output)
                        for g, r in zip(task.gold_calls, ran.calls, strict=True))
        found = _reference(task, ran.world, ran.start_tables, records)
    else:
        async with _gold_played(task) as episode:
            found = _reference(task, episode.world, episode.start_tables, tuple(episode.calls))
    _REPLAYS[key] = found
    while len(_REPLAYS) > _REPLAYS_MAX:
        _REPLAYS.popitem(last=False)
    return found


async def gold_records(task: Task, after: Callable[[Toolkit, Any, CallRecord], None] | None = None
                       ) -> tuple[CallRecord, ...]:
    """The gold calls of `task` made on a fresh start world as `replay` makes them, and what each
    answered; `after(toolkit, gold_call, record)` runs after each call, on the world as the call left
    it (what it runs there must leave the world as it is: read-only calls)."""
    async with _gold_played(task, after) as episode:
        return tuple(episode.calls)


@asynccontextmanager
async def _gold_played(task: Task, after: Callable[[Toolkit, Any, CallRecord], None] | None = None
                       ) -> AsyncIterator[Episode]:
    """An episode that has made the gold calls of `task` on a fresh start world. Its calls run on the
    world directly, without an in-process MCP server of its own: the worlds and the calls' text
    read the same on every path."""
    episode = Episode(task.server, dispatched=True)
    try:
        await episode.begin(task.model_copy(update={"tools": None}))
        for gold in task.gold_calls:
            record = await episode.call(ParsedCall(gold.name, dict(gold.arguments), gold.id))
            if after is not None:
                after(episode.slot.toolkit, gold, record)  # type: ignore[arg-type]
        yield episode
    finally:
        await episode.aclose()


def _made_gold_calls(calls: list[CallRecord], task: Task) -> bool:
    """Whether `calls` are the gold calls of `task`: the same tools with the same arguments (as JSON
    writes them: 1 is not 1.0), in order, every one answered."""
    gold = task.gold_calls
    return len(calls) == len(gold) and all(
        r.ok and r.name == g.name and isinstance(r.arguments, dict)
        and json.dumps(r.arguments, sort_keys=True) == json.dumps(g.arguments, sort_keys=True)
        for r, g in zip(calls, gold, strict=True))


def _reference(task: Task, world: World, start_tables: dict[str, str], records: tuple[CallRecord, ...]) -> Replay:
    """The reference of `task` from `world`, the start world (whose table digests are `start_tables`)
    after the gold calls, which answered `records`. What it needs of the start world's tables is read
    once per distinct table content, from a fresh start world built only when one is not known yet."""
    toolkit = world.toolkit
    details = toolkit.details()
    start: list[World] = []  # the fresh start world, once one is needed

    def of_start(read: Callable[[World], Any]) -> Callable[[], Any]:
        def go() -> Any:
            if not start:
                start.append(build_world(toolkit, task))  # type: ignore[arg-type]
            return read(start[0])
        return go

    try:
        start_rest = {t: _view(toolkit.name, t, start_tables[t], "rest",
                               of_start(lambda w, t=t, d=d: w.digest_except(t, d))) for t, d in details.items()}
        start_details = {(t, c): _view(toolkit.name, t, start_tables[t], "column:" + c,
                                       of_start(lambda w, t=t, c=c: w.column_values(t, c)))
                         for t, d in details.items() for c in d}
        start_rows = {t: _view(toolkit.name, t, start_tables[t], "rows", of_start(lambda w, t=t: w.row_values(t)))
                      for t in details}
    finally:
        if start:
            start[0].close()
    gold_tables = world.table_digests()
    gold_rest = {t: start_rest[t] if gold_tables[t] == start_tables[t] else world.digest_except(t, d)
                 for t, d in details.items()}
    touched = {}
    for table in details:
        before = start_rows[table]
        after = before if gold_tables[table] == start_tables[table] else world.row_values(table)
        touched[table] = frozenset(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    stated = _stated_values(task)
    detail_changes = {}
    for (table, column), before in start_details.items():
        if gold_tables[table] == start_tables[table] or details[table][column] is not None:
            continue
        after = world.column_values(table, column)
        # a detail counts where the reference sets it to a value the user stated (a changed
        # value, or a new row's non-empty one, given in the gold calls' arguments); anything
        # else the gold calls write there (a time, the previous directory) is tolerated
        changed = {key: value for key, value in after.items()
                   if before.get(key, _ABSENT) != value and (key in before or value is not None)
                   and _is_stated(value, stated)}
        if changed:
            detail_changes[(table, column)] = changed
    return Replay(
        start_digest=combine_digests(task.server, start_tables),
        gold_digest=combine_digests(task.server, gold_tables),
        start_tables=dict(start_tables),
        gold_tables=gold_tables,
        records=records,
        start_rest=start_rest,
        gold_rest=gold_rest,
        detail_changes=detail_changes,
        touched=touched,
        start_details=start_details,
    )


_ABSENT = object()


def _loose(value: Any) -> Any:
    """A detail as the user's words compare: free text in any letter case and spacing, with or
    without a final full stop ('too big' written as 'Too big.')."""
    return " ".join(value.split()).casefold().removesuffix(".") if isinstance(value, str) else value


def _stated_values(task: Task) -> set[Any]:
    """The values the gold calls pass (what the user stated), as `_loose` compares them."""
    return {_loose(v) for call in task.gold_calls for v in call.values()}


def _is_stated(value: Any, stated: set[Any]) -> bool:
    """Whether a value the gold calls wrote is one the user gave: an argument itself, or a path
    that an argument names relative to a directory ('/home/ada/notes' for 'notes')."""
    value = _loose(value)
    if value in stated:
        return True
    return isinstance(value, str) and any(isinstance(s, str) and s and not s.startswith("/")
                                          and value.endswith("/" + s.rstrip("/")) for s in stated)


# Views of a table's content that depend only on it (keyed by server, table, full digest, ...):
# a start world's are read once, however many tasks start from it.
_VIEWS: OrderedDict[tuple[str, ...], Any] = OrderedDict()
_VIEWS_MAX = 1024


def _view(server: str, table: str, full: str, what: str, read: Callable[[], Any]) -> Any:
    key = (server, table, full, what)
    if key not in _VIEWS:
        _VIEWS[key] = read()
        while len(_VIEWS) > _VIEWS_MAX:
            _VIEWS.popitem(last=False)
    return _VIEWS[key]


def _task_key(task: Task) -> str:
    payload = task.model_dump(include={"server", "seed", "snapshot", "gold"}, mode="json")
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
