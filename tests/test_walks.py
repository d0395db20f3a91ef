"""Worlds obey their own rules: fresh worlds of many seeds, and random walks of plausible calls.

For every registered server:

- the fresh world of each of `PROVE_WALK_SEEDS` seeds (default 20) breaks none of its rules:
  SQLite's integrity and foreign keys, and the server's own `invariants()` (`World.violations`);
- `PROVE_WALKS` random walks (default 40) of up to `PROVE_WALK_STEPS` calls (default 30), each on
  one of those seeds, with every argument drawn from the live world as it stands at that step: ids
  of the kind the parameter takes, values of the column it is named after, dates around the clock.
  After each call: no internal error; a refused call changed nothing; a tool annotated read-only
  wrote nothing; a call that changed the world left it breaking none of its rules; a tool annotated
  idempotent, repeated at once, succeeds again and leaves the same world.

Walks are Hypothesis state machines, derandomized (the same walks on every run); a failing walk
is shrunk and printed as the calls it made, each with the seed of its world, so it reproduces
with `Served`. A long run: `PROVE_WALKS=500 PROVE_WALK_STEPS=50 pytest tests/test_walks.py`.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import string
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from prove_env.registry import get_toolkit, server_names
from prove_env.toolkit import InternalToolError, ToolError, Toolkit
from prove_env.world import World, worlds

pytestmark = pytest.mark.slow

SEEDS = int(os.environ.get("PROVE_WALK_SEEDS", "20"))
WALKS = int(os.environ.get("PROVE_WALKS", "40"))
STEPS = int(os.environ.get("PROVE_WALK_STEPS", "30"))
STATS: Counter[str] = Counter()


@pytest.mark.parametrize("server", server_names())
def test_fresh_worlds_obey_their_rules(server):
    toolkit = get_toolkit(server)
    broken = {}
    for seed in range(SEEDS):
        world = worlds.create(toolkit, seed)
        try:
            if problems := world.violations():
                broken[seed] = problems[:5]
        finally:
            world.close()
    assert not broken, f"{server}: fresh worlds break their rules: {broken}"


# -- arguments drawn from the live world ---------------------------------------------------------


class Pool:
    """What a plausible call can name, read from the world as it stands: the ids of every entity
    kind, and the values of every column by column name (read again after each change)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._tables: dict[str, tuple[str, dict[str, set]]] = {}  # table: (digest, values by column)
        self._columns: dict[str, list[Any]] = {}
        self._texts: list[str] | None = None
        self.ids: dict[str, list[str]] = {}
        # ids the walk has named or created so far: drawn half the time, so that walks come back to
        # the same entities and drive them through their states (start, shift, drive, shift again)
        self.focus: dict[str, list[str]] = {}

    def remember(self, values: dict[str, Any], result: str | None = None) -> None:
        named = [v for value in values.values() for v in (value if isinstance(value, list) else [value])
                 if isinstance(v, str)]
        for entity in self.world.toolkit.entities:
            pattern = re.compile(rf"\b{re.escape(entity.prefix)}-\d{{{entity.width}}}\b")
            found = [v for v in named if pattern.fullmatch(v)] + (pattern.findall(result) if result else [])
            focus = self.focus.setdefault(entity.kind, [])
            focus.extend(v for v in found if v not in focus)

    def refresh(self) -> None:
        """Read again the tables that changed since the last step."""
        digests = self.world.table_digests()
        changed = [t for t, d in digests.items() if self._tables.get(t, (None,))[0] != d and not t.startswith("prove_")]
        if not changed:
            return
        for table in changed:
            names = self.world.toolkit.metadata().tables[table].columns.keys()
            values: dict[str, set] = {}
            for row in self.world.connection.execute(f'SELECT * FROM "{table}"'):
                for name, value in zip(names, row, strict=True):
                    if isinstance(value, (str, int, float)) and not (isinstance(value, str) and len(value) > 120):
                        values.setdefault(name, set()).add(value)
            self._tables[table] = (digests[table], values)
        self._columns = {}
        self._texts = None
        for entity in self.world.toolkit.entities:
            table = entity.model.__table__
            if table.name in changed:
                (key,) = table.primary_key.columns
                self.ids[entity.kind] = sorted(self._tables[table.name][1].get(key.name, ()))

    def column(self, name: str) -> list[Any]:
        """The values of every column called `name`, in a stable order."""
        if name not in self._columns:
            found = set().union(*(values.get(name, ()) for _, values in self._tables.values()))
            self._columns[name] = sorted(found, key=repr)
        return self._columns[name]

    @property
    def texts(self) -> list[str]:
        """Every short text of the world."""
        if self._texts is None:
            self._texts = sorted({v for _, values in self._tables.values() for column in values.values()
                                  for v in column if isinstance(v, str)})
        return self._texts


def _bounded(prop: dict[str, Any], low: float, high: float) -> tuple[float, float]:
    return max(low, prop.get("minimum", low)), min(high, prop.get("maximum", high))


def _scalar(draw, prop: dict[str, Any], name: str, kind: str | None, pool: Pool, now: dt.datetime) -> Any:
    if kind is not None:
        known = pool.ids.get(kind, [])
        focus = [i for i in pool.focus.get(kind, []) if i in known]
        if focus and draw(st.booleans()):
            return draw(st.sampled_from(focus))
        if known and draw(st.integers(0, 9)):
            return draw(st.sampled_from(known))
        return f"{next(e.prefix for e in pool.world.toolkit.entities if e.kind == kind)}-9999"
    if "enum" in prop:
        return draw(st.sampled_from(prop["enum"]))
    options = [p for p in prop.get("anyOf", []) if p.get("type") != "null"]
    if options:
        prop = options[0]
    same = [v for v in pool.column(name) if type(v) is {"string": str, "integer": int,
                                                                 "number": float}.get(prop.get("type"), type(None))]
    form = prop.get("type")
    if form == "string":
        if prop.get("format") in ("date", "date-time"):
            moment = now + dt.timedelta(days=draw(st.integers(-45, 45)), minutes=15 * draw(st.integers(-48, 48)))
            return moment.date().isoformat() if prop["format"] == "date" else moment.isoformat(timespec="minutes")
        choice = draw(st.integers(0, 9))
        if same and choice < 7:
            return draw(st.sampled_from(same))
        if pool.texts and choice < 9:
            return draw(st.sampled_from(pool.texts))
        return draw(st.text(string.ascii_letters + string.digits + " .-", min_size=1, max_size=12))
    if form == "integer":
        if same and draw(st.booleans()):
            return draw(st.sampled_from(same))
        low, high = _bounded(prop, 0, 100)
        return draw(st.integers(int(low), int(high)))
    if form == "number":
        if same and draw(st.booleans()):
            return draw(st.sampled_from(same))
        low, high = _bounded(prop, 0, 500)
        return round(draw(st.floats(low, high, allow_nan=False)), 2)
    if form == "boolean":
        return draw(st.booleans())
    return None


@st.composite
def arguments(draw, spec, pool: Pool, now: dt.datetime) -> dict[str, Any]:
    """Plausible arguments of one tool: every required parameter, each optional one half the time."""
    properties = spec.parameters.get("properties", {})
    required = set(spec.parameters.get("required", []))
    kinds = {param: (kind, many) for param, kind, many in spec.ids}
    values: dict[str, Any] = {}
    for name, prop in properties.items():
        if name not in required and draw(st.booleans()):
            continue
        kind, many = kinds.get(name, (None, False))
        if prop.get("type") == "array" or many:
            items = prop.get("items", {})
            values[name] = [_scalar(draw, items, name, kind, pool, now) for _ in range(draw(st.integers(1, 3)))]
        else:
            values[name] = _scalar(draw, prop, name, kind, pool, now)
    return values


# -- the walk -----------------------------------------------------------------------------------


def _walk(server: str) -> type[RuleBasedStateMachine]:
    toolkit_cls: type[Toolkit] = get_toolkit(server)
    specs = {spec.name: spec for spec in toolkit_cls.visible_specs()}
    names = sorted(specs)
    sound: set[int] = set()  # seeds whose fresh world was checked

    class Walk(RuleBasedStateMachine):
        world: World | None = None

        # Swarm testing: each walk calls only a few tools, so that it drives their entities deep
        # into their states instead of touching everything once.
        @initialize(seed=st.integers(0, SEEDS - 1),
                    swarm=st.lists(st.sampled_from(names), min_size=1, max_size=8, unique=True))
        def open_world(self, seed: int, swarm: list[str]) -> None:
            self.seed = seed
            self.swarm = sorted(swarm)
            self.world = worlds.create(toolkit_cls, seed)
            if seed not in sound:
                problems = self.world.violations()
                assert not problems, f"the fresh world of seed {seed} breaks its rules: {problems[:5]}"
                sound.add(seed)
            self.tools = toolkit_cls(self.world)
            self.pool = Pool(self.world)
            STATS["walks"] += 1

        def run(self, name: str, values: dict[str, Any]) -> tuple[bool, str]:
            try:
                return True, self.tools.run(name, values)
            except InternalToolError as exc:
                raise AssertionError(f"seed {self.seed}: {name}({values!r}) hit a server bug: {exc}") from None
            except ToolError as exc:
                return False, str(exc)

        @rule(data=st.data())
        def call(self, data) -> None:
            self.pool.refresh()
            spec = specs[data.draw(st.sampled_from(self.swarm), label="tool")]
            values = data.draw(arguments(spec, self.pool, self.world.now), label="arguments")
            note(f"seed {self.seed}: {spec.name}({values!r})")
            where = f"seed {self.seed}: {spec.name}({values!r})"
            before = self.world.digest()
            ok, text = self.run(spec.name, values)
            after = self.world.digest()
            self.pool.remember(values, text if ok and after != before else None)
            STATS["calls"] += 1
            STATS["ok" if ok else "refused"] += 1
            if not ok:
                assert after == before, f"{where} was refused ({text}) but changed the world"
                return
            if spec.read_only:
                assert after == before, f"{where} is annotated read-only but changed the world"
            if after != before:
                problems = self.world.violations()
                assert not problems, f"{where} left the world breaking its rules: {problems[:5]}"
            if spec.idempotent:
                STATS["repeats"] += 1
                again, text = self.run(spec.name, values)
                assert again, f"{where} is annotated idempotent but failed when repeated at once: {text}"
                assert self.world.digest() == after, (f"{where} is annotated idempotent but changed the world "
                                                      "again when repeated at once")

        def teardown(self) -> None:
            if self.world is not None:
                # The digests every check above relied on (kept per table across calls) are those
                # of the world hashed afresh.
                fresh = World.from_bytes(toolkit_cls, self.world.serialize())
                assert self.world.table_digests() == fresh.table_digests(), (
                    f"seed {self.seed}: the world's kept table digests differ from its content")
                fresh.close()
                self.world.close()

    Walk.__name__ = f"Walk_{server}"
    return Walk


@pytest.mark.parametrize("server", server_names())
def test_random_walks_keep_every_rule(server):
    run_state_machine_as_test(
        _walk(server),
        settings=settings(max_examples=WALKS, stateful_step_count=STEPS, deadline=None, derandomize=True,
                          database=None, suppress_health_check=list(HealthCheck)),
    )


def teardown_module(module):
    if STATS:
        print(f"\nwalks: {dict(sorted(STATS.items()))}")
