"""Worlds: one isolated SQLite database per episode, with a frozen clock and deterministic ids.

A world is built from a toolkit (the server definition) and either a seed or a JSON snapshot.
For a (toolkit, seed) pair the database is seeded once with Faker and kept as a serialized
template; every world after that is a clone of the template (`sqlite3.Connection.deserialize`),
never a re-seed. Two worlds never share a connection, a session or any other mutable object.

Digests are computed over the canonical content of every table (rows ordered by primary key,
values as canonical JSON), so they do not depend on SQLite's file layout or version.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
from json.encoder import c_encode_basestring, c_make_encoder  # type: ignore[attr-defined]
import random
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from sqlalchemy import (
    Boolean, Column, Date, DateTime, Integer, MetaData, String, Table, create_engine, event, insert, inspect, select,
)
from sqlalchemy.schema import CreateIndex, CreateTable
from sqlalchemy.sql.elements import TextClause
from sqlalchemy.orm import ORMExecuteState, Session, make_transient_to_detached, object_session
from sqlalchemy.orm.attributes import instance_state
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool
from sqlalchemy.util import LRUCache

if TYPE_CHECKING:
    import faker

__all__ = ["World", "WorldError", "SeedContext", "Server", "template_digest", "worlds"]

# Tables the framework keeps in every world, next to the server's own.
_META = "prove_meta"
_IDS = "prove_ids"

# The clock of seeded worlds: a seed-derived instant in 2026, always on a full quarter hour.
_EPOCH = dt.datetime(2026, 1, 5, 9, 0)


class Server(Protocol):
    """What a world needs of its server definition (a `prove_env.toolkit.Toolkit` subclass):
    its name, its tables and its seed recipe. Worlds sit below toolkits and never import them."""

    name: ClassVar[str]
    models: ClassVar[Any]  # the declarative base of its models
    seed: ClassVar[Callable[[SeedContext], None]]

    @classmethod
    def metadata(cls) -> MetaData: ...

    @classmethod
    def table_names(cls) -> list[str]: ...


class WorldError(ValueError):
    """A world cannot be built as asked (bad snapshot, digest mismatch, unknown server)."""


def _framework_tables(metadata: MetaData) -> tuple[Table, Table]:
    if _META in metadata.tables:  # a toolkit subclassing another shares its models
        return metadata.tables[_META], metadata.tables[_IDS]
    meta = Table(_META, metadata, Column("key", String, primary_key=True), Column("value", String, nullable=False))
    ids = Table(_IDS, metadata, Column("prefix", String, primary_key=True), Column("last", Integer, nullable=False))
    return meta, ids


def _seeded_now(server: str, seed: int) -> dt.datetime:
    # random.Random seeded with a str hashes it with SHA-512: the same in every process.
    rng = random.Random(f"{server}/{seed}/clock")
    return _EPOCH + dt.timedelta(days=rng.randrange(0, 350), minutes=15 * rng.randrange(0, 36))


def _canonical(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"$bytes": value.hex()}
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _json_value(value: Any) -> Any:
    """A typed column value as plain JSON (dates as ISO 8601)."""
    if isinstance(value, dt.datetime):
        return value.isoformat(timespec="seconds") if value.microsecond == 0 else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.hex()
    return value


def _python_value(column: Column, value: Any, where: str) -> Any:
    """A JSON snapshot value converted for `column`, with a clear error when it cannot be."""
    if value is None:
        if not column.nullable and not column.primary_key:
            raise WorldError(f"{where}: column {column.name!r} may not be null")
        return None
    kind = column.type
    try:
        if isinstance(kind, DateTime):
            return value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(str(value))
        if isinstance(kind, Date):
            return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))
        if isinstance(kind, Boolean):
            if isinstance(value, bool):
                return value
            raise TypeError("expected true or false")
        if isinstance(kind, Integer):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError("expected an integer")
            return value
    except (TypeError, ValueError) as exc:
        raise WorldError(f"{where}: bad value {value!r} for column {column.name!r}: {exc}") from None
    return value


@dataclass
class SeedContext:
    """What a seed recipe gets: a seeded Faker, a seeded RNG, the frozen clock and the world to fill.

    Seed recipes must take every random choice from `fake` or `rng`, and every date relative to
    `now` (never Faker's providers that read the wall clock, such as `date_this_year`).
    """

    world: World
    fake: faker.Faker
    rng: random.Random
    now: dt.datetime
    _names: set[tuple[str, str]] = field(default_factory=set, repr=False)

    def person_name(self, *, unique_first: bool = False) -> tuple[str, str]:
        """A (first, last) name that no earlier person of this world has, so that a name alone
        says who is meant; with `unique_first`, no earlier person shares the first name either."""
        while True:
            first, last = self.fake.first_name(), self.fake.last_name()
            if (first, last) in self._names or (unique_first and any(f == first for f, _ in self._names)):
                continue
            self._names.add((first, last))
            return first, last

    @property
    def session(self) -> Session:
        return self.world.session

    def add(self, *objects: Any) -> None:
        """Add new rows (model instances) to the world, as `session.add_all` does. They are written
        at the next read of the world (a query, a new id's first use, the end of seeding), in bulk
        where the models allow it (see `World._add_rows`)."""
        self.world._add_rows(objects)

    def new_id(self, prefix: str, width: int = 4) -> str:
        return self.world.new_id(prefix, width)

    def moment(self, days_from: float, days_to: float, *, step_minutes: int = 15) -> dt.datetime:
        """A seeded instant between now+days_from and now+days_to, on a `step_minutes` grid."""
        lo = int(days_from * 24 * 60 // step_minutes)
        hi = int(days_to * 24 * 60 // step_minutes)
        return self.now + dt.timedelta(minutes=step_minutes * self.rng.randint(lo, hi))


class World:
    """One isolated SQLite database of one server, with its frozen clock and id counters.

    Attributes:
        toolkit: the server definition (a `Toolkit` subclass) this world belongs to.
        seed: the seed it was built from, or None for a world made from a snapshot.
        now: the world's frozen "now"; tools read time only from here.
    """

    def __init__(self, toolkit: type[Server], connection: sqlite3.Connection, seed: int | None) -> None:
        self.toolkit = toolkit
        self.seed = seed
        self.connection = connection
        self._session: Session | None = None
        self._pinned: list[Any] = []
        self._unwritten: dict[int, Any] = {}  # rows `_add_rows` keeps for `_write_rows`, by id()
        self._sql_written = False  # a write in SQL outside the ORM since the last commit
        # (SQLite change count, table digests) when the digests at that count are known
        self._known: tuple[int, dict[str, str]] | None = None
        # The row writes since then that the ORM reported (how many, in which tables), or None
        # once a write it cannot attribute happened (SQL outside the ORM): see `table_digests`.
        self._noted: _Noted | None = _Noted()
        row = connection.execute(f"SELECT value FROM {_META} WHERE key = 'now'").fetchone()
        self.now = dt.datetime.fromisoformat(row[0])

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def _empty(cls, toolkit: type[Server], now: dt.datetime, seed: int | None) -> World:
        connection = sqlite3.connect(":memory:", check_same_thread=False)
        engine = _engine(connection)
        metadata = toolkit.metadata()
        with engine.begin() as conn:
            # Tables, then indexes by name: `create_all` emits a table's indexes in set order, which
            # varies between processes and would give the same world different database bytes.
            for table in metadata.sorted_tables:
                conn.execute(CreateTable(table))
            for index in sorted((i for t in metadata.sorted_tables for i in t.indexes), key=lambda i: str(i.name)):
                conn.execute(CreateIndex(index))
        with engine.begin() as conn:
            conn.execute(insert(metadata.tables[_META]), [{"key": "now", "value": now.isoformat()},
                                                          {"key": "server", "value": toolkit.name}])
        engine.dispose(close=False)
        return cls(toolkit, connection, seed)

    @classmethod
    def from_bytes(cls, toolkit: type[Server], data: bytes, seed: int | None = None,
                   table_digests: Mapping[str, str] | None = None) -> World:
        """A world over a copy of serialized database bytes; `table_digests`, when given, are
        the digests of those bytes (a template's), so an unchanged clone need not hash itself."""
        connection = sqlite3.connect(":memory:", check_same_thread=False)
        connection.deserialize(data)
        world = cls(toolkit, connection, seed)
        if table_digests is not None:
            world._known = (connection.total_changes, dict(table_digests))
        return world

    @classmethod
    def from_snapshot(cls, toolkit: type[Server], snapshot: Mapping[str, Any]) -> World:
        """Build a world from a JSON snapshot (see `snapshot()` for the format).

        Hand-written snapshots may leave out `now` (the server's default clock is used), id
        counters (they continue after the largest id present) and any table (it stays empty).
        """
        if not isinstance(snapshot, Mapping):
            raise WorldError("a world snapshot must be a JSON object")
        unknown = sorted(set(snapshot) - {"server", "now", "ids", "tables"})
        if unknown:
            raise WorldError(f"snapshot has unknown keys {unknown}; a snapshot has server, now, ids and tables")
        server = snapshot.get("server", toolkit.name)
        if server != toolkit.name:
            raise WorldError(f"snapshot is of server {server!r}, not {toolkit.name!r}")
        try:
            now = dt.datetime.fromisoformat(snapshot["now"]) if snapshot.get("now") else _seeded_now(toolkit.name, 0)
        except (TypeError, ValueError):
            raise WorldError(f"snapshot 'now' must be an ISO 8601 date-time, got {snapshot.get('now')!r}") from None
        world = cls._empty(toolkit, now, None)
        tables = snapshot.get("tables", {})
        if not isinstance(tables, Mapping):
            raise WorldError("snapshot 'tables' must map table names to lists of rows")
        metadata = toolkit.metadata()
        known = {name for name in metadata.tables if name not in (_META, _IDS)}
        unknown = sorted(set(tables) - known)
        if unknown:
            raise WorldError(f"snapshot has unknown tables {unknown}; {toolkit.name} has {sorted(known)}")
        engine = _engine(world.connection)
        with engine.begin() as conn:
            for name in metadata.sorted_tables:  # parents before children
                rows = tables.get(name.name)
                if not rows:
                    continue
                if not isinstance(rows, list):
                    raise WorldError(f"snapshot table {name.name!r} must be a list of row objects")
                conn.execute(insert(name), [_row_for(name, row, f"{name.name}[{i}]") for i, row in enumerate(rows)])
            counters = snapshot.get("ids", {})
            if counters:
                conn.execute(insert(metadata.tables[_IDS]), [{"prefix": k, "last": int(v)} for k, v in counters.items()])
        engine.dispose(close=False)
        try:
            problems = world.connection.execute("PRAGMA foreign_key_check").fetchall()
        except sqlite3.Error:  # pragma: no cover
            problems = []
        if problems:
            table, rowid, parent, _ = problems[0]
            raise WorldError(f"snapshot row {rowid} of {table!r} refers to a missing row of {parent!r}")
        return world

    # -- state ---------------------------------------------------------------------------------

    @property
    def session(self) -> Session:
        """The world's SQLAlchemy session (created on first use, reused for every tool call)."""
        if self._session is None:
            # One session per world, used by every tool call. Only this session writes to the world,
            # so what it holds cannot go stale between calls: the rows a call loads or adds stay
            # loaded across calls, writes included (the common write-then-read costs no reload).
            # The identity map holds objects weakly, so they are pinned until a rollback. A commit
            # expires only relationships (`_expire_relationships`): a row added by foreign key
            # would not be in a collection loaded before it.
            # A write in SQL outside the ORM (a text statement, or DML on a table) can change rows
            # the session holds, so the commit after one expires everything.
            self._session = _WorldSession(_engine(self.connection), expire_on_commit=False, autoflush=True)
            self._session.info[_NOTED] = self
            event.listen(self._session, "loaded_as_persistent", lambda _, obj: self._pinned.append(obj))
            event.listen(self._session, "pending_to_persistent", lambda _, obj: self._pinned.append(obj))
            event.listen(self._session, "do_orm_execute", self._note_sql_write)
            _watch_row_writes(self.toolkit.models)
            event.listen(self._session, "after_commit", self._after_commit)
        return self._session

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[Session]:
        """Run one tool call: commit what it wrote, or roll all of it back if it raises.

        A read-only call (`write=False`) has nothing to commit and skips it. What a call loads or
        adds stays loaded for the calls after it (see `session`); a rollback expires it all.
        """
        session = self.session
        try:
            yield session
            if write:
                if self._unwritten:
                    self._write_rows()
                session.commit()
        except BaseException:
            self._unwritten.clear()
            session.rollback()
            self._pinned.clear()
            self._sql_written = False
            session.info.pop(_WRITTEN, None)
            raise

    def _after_commit(self, session: Session) -> None:
        written = session.info.pop(_WRITTEN, set())
        if self._sql_written:
            session.expire_all()
            self._pinned.clear()
            self._sql_written = False
        elif written:
            _expire_relationships(session, self.toolkit, written)

    def _note_sql_write(self, state: ORMExecuteState) -> None:
        if self._unwritten:  # a query sees every row added before it, as with the session's autoflush
            self._write_rows()
        statement = state.statement
        if isinstance(statement, TextClause):
            if not statement.text.lstrip()[:6].upper().startswith(("SELECT", "WITH")):
                self._sql_written = True
                self._noted = None
        elif statement.is_dml:
            self._noted = None  # how many rows a statement changes is not reported row by row
            if state.is_orm_statement:  # an ORM update or delete: the session syncs its rows
                state.session.info.setdefault(_WRITTEN, set()).add(statement.table.name)
            else:
                self._sql_written = True

    def preload(self, model: type, keys: Iterable[Any]) -> None:
        """Load the rows of `model` with these primary keys in one query, leaving out those already
        loaded, so the `session.get` calls that follow find every one without a query of its own."""
        mapper = inspect(model)
        (column,) = mapper.primary_key  # one-column primary keys
        loaded = self.session.identity_map
        missing = []
        for key in keys:
            row = loaded.get(mapper.identity_key_from_primary_key((key,)))
            if row is None or instance_state(row).expired:
                missing.append(key)
        if missing:
            self.session.scalars(select(model).where(column.in_(missing))).all()

    def new_id(self, prefix: str, width: int = 4) -> str:
        """The next id with `prefix`, such as 'EVT-0042'. Counters live in the world itself.

        A prefix without a counter yet (a world made from a hand-written snapshot) starts after
        the largest id of that form found in any table.
        """
        # The counter is read and written on the world's connection directly, inside the session's
        # transaction (so it rolls back with the call), without flushing the objects the call has
        # added so far: through the session, every id would flush them first, a flush per id (seeding
        # a world took seconds, most of it in these flushes).
        self.session.connection()
        if self._noted is not None:  # the counter's row
            self._noted.rows += 1
            self._noted.tables.add(_IDS)
        row = self.connection.execute(f"SELECT last FROM {_IDS} WHERE prefix = ?", (prefix,)).fetchone()
        if row is None:
            last = self._largest_existing(prefix)
            self.connection.execute(f"INSERT INTO {_IDS} (prefix, last) VALUES (?, ?)", (prefix, last + 1))
        else:
            last = row[0]
            self.connection.execute(f"UPDATE {_IDS} SET last = ? WHERE prefix = ?", (last + 1, prefix))
        return f"{prefix}-{last + 1:0{width}d}"

    def _largest_existing(self, prefix: str) -> int:
        self._flush()
        largest = 0
        for table in self.toolkit.metadata().sorted_tables:
            for column in table.primary_key.columns:
                if not isinstance(column.type, String):
                    continue
                for (value,) in self.connection.execute(
                        f'SELECT "{column.name}" FROM "{table.name}" WHERE "{column.name}" LIKE ?', (f"{prefix}-%",)):
                    tail = value[len(prefix) + 1:]
                    if tail.isdigit():
                        largest = max(largest, int(tail))
        return largest

    def problems(self) -> list[str]:
        """What is wrong with the database itself: SQLite's integrity check and dangling references."""
        self._flush()
        found = [f"integrity: {row[0]}" for row in self.connection.execute("PRAGMA integrity_check") if row[0] != "ok"]
        for table, rowid, parent, _ in self.connection.execute("PRAGMA foreign_key_check"):
            found.append(f"row {rowid} of {table} refers to a missing row of {parent}")
        return found

    def violations(self) -> list[str]:
        """Every rule this world breaks: the database's own problems and the server's invariants
        (`Toolkit.invariants`); empty when the world is sound."""
        return self.problems() + self.toolkit(self).invariants()

    def serialize(self) -> bytes:
        self._flush()
        return self.connection.serialize()

    def rows(self, table: str) -> list[tuple]:
        """Raw rows of one table in primary-key order (what digests are computed from)."""
        self._flush()
        return self.connection.execute(f'SELECT * FROM "{table}" ORDER BY {_order(self.toolkit, table)}').fetchall()

    def table_digests(self) -> dict[str, str]:
        """One SHA-256 per table over its canonical content.

        A world cloned from a template starts with the template's digests; while nothing has
        been written since (SQLite's change counter has not moved), they are returned as known.
        After writes, only the tables the ORM reported writing are hashed again, when its reports
        account for every row SQLite counts as changed since; otherwise (a write in SQL outside
        the ORM, a row written without a report) every table is.
        """
        self._flush()
        changes = self.connection.total_changes
        known, noted = self._known, self._noted
        if known is not None and known[0] == changes:
            return dict(known[1])
        if known is not None and noted is not None and changes - known[0] == noted.rows:
            out, tables = dict(known[1]), sorted(noted.tables & known[1].keys())
        else:
            out, tables = {}, self.toolkit.table_names()
        for table in tables:
            canonical = _canonical_columns(self.toolkit, table)
            rows = self.connection.execute(f'SELECT * FROM "{table}" ORDER BY {_order(self.toolkit, table)}')
            if canonical:
                rows = ([_canonical(v) if i in canonical else v for i, v in enumerate(row)] for row in rows)
            text = "".join(_ENCODE(row) + "\n" for row in rows)
            out[table] = hashlib.sha256(text.encode()).hexdigest()
        self._known = (changes, out)
        self._noted = _Noted()
        return dict(out)

    def digest_except(self, table: str, details: Mapping[str, Callable[[Any], Any] | None]) -> str:
        """The digest of one table with its detail columns set aside: a column mapped to None
        is left out, one mapped to a function is hashed after it (see `prove_env.toolkit.Detail`)."""
        self._flush()
        columns = list(self.toolkit.metadata().tables[table].columns.keys())
        canonical = _canonical_columns(self.toolkit, table)
        # (position, function): a column kept as stored, made canonical, or mapped and made canonical
        plan = [(i, None if i not in canonical else _canonical) if fn is _KEEP else (i, _after(fn))
                for i, fn in ((i, details.get(name, _KEEP)) for i, name in enumerate(columns)) if fn is not None]
        h = hashlib.sha256()
        for row in self.connection.execute(f'SELECT * FROM "{table}" ORDER BY {_order(self.toolkit, table)}'):
            values = [row[i] if fn is None else fn(row[i]) for i, fn in plan]
            h.update((_ENCODE(values) + "\n").encode())
        return h.hexdigest()

    def column_values(self, table: str, column: str) -> dict[str, Any]:
        """{primary key as JSON: value} of one column, for comparing it row by row."""
        self._flush()
        meta = self.toolkit.metadata().tables[table]
        keys = ", ".join(f'"{c.name}"' for c in meta.primary_key.columns) or "rowid"
        rows = self.connection.execute(f'SELECT {keys}, "{column}" FROM "{table}"')
        if list(meta.columns.keys()).index(column) not in _canonical_columns(self.toolkit, table):
            return {_ENCODE(list(row[:-1])): row[-1] for row in rows}
        return {_ENCODE(list(row[:-1])): _canonical(row[-1]) for row in rows}

    def row_values(self, table: str) -> dict[str, list[Any]]:
        """{primary key as JSON: the row's canonical values}, for finding the rows that changed."""
        self._flush()
        meta = self.toolkit.metadata().tables[table]
        width = len(meta.primary_key.columns)
        keys = ", ".join(f'"{c.name}"' for c in meta.primary_key.columns) or "rowid"
        width = width or 1
        canonical = sorted(width + i for i in _canonical_columns(self.toolkit, table))
        out = {}
        for row in self.connection.execute(f'SELECT {keys}, * FROM "{table}"'):
            values = list(row[width:])
            for i in canonical:
                values[i - width] = _canonical(row[i])
            out[_ENCODE(list(row[:width]))] = values
        return out

    def digest(self) -> str:
        """SHA-256 over the canonical content of every table: equal digests mean equal worlds."""
        return combine_digests(self.toolkit.name, self.table_digests())

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON: `{"server", "now", "ids", "tables": {table: [row, ...]}}`."""
        self._flush()
        engine = _engine(self.connection)
        metadata = self.toolkit.metadata()
        tables: dict[str, list[dict[str, Any]]] = {}
        with engine.connect() as conn:
            for table in metadata.sorted_tables:
                if table.name in (_META, _IDS):
                    continue
                order = list(table.primary_key.columns)
                tables[table.name] = [
                    {k: _json_value(v) for k, v in row._mapping.items()}
                    for row in conn.execute(select(table).order_by(*order))
                ]
            ids = {p: last for p, last in conn.execute(select(metadata.tables[_IDS]).order_by("prefix"))}
        engine.dispose(close=False)
        return {"server": self.toolkit.name, "now": self.now.isoformat(), "ids": ids, "tables": tables}

    def clone(self) -> World:
        return World.from_bytes(self.toolkit, self.serialize(), self.seed)

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session.get_bind().dispose(close=False)
            self._session = None
        self.connection.close()

    def _add_rows(self, objects: Iterable[Any]) -> None:
        """Add new rows to the world (`SeedContext.add`).

        Through the session, each row costs the unit of work's bookkeeping at the flush, much of
        the time seeding takes. Where no relationship of the models writes (nothing to cascade, no
        foreign key set through an attribute), new rows are kept instead and written by
        `_write_rows` at the next read of the world. Rows already in the session go to it.
        """
        if not _plain_rows(self.toolkit.models):
            self.session.add_all(objects)
            return
        for obj in objects:
            if instance_state(obj).key is None:
                self._unwritten[id(obj)] = obj
            else:
                self.session.add(obj)

    def _write_rows(self) -> None:
        """Write the rows `_add_rows` kept, as a flush would leave them: the tables in dependency
        order, each table's rows in the order they were added (so every row gets the rowid it
        would have), one INSERT for each run of rows that set the same columns. The objects then
        join the session as persistent rows: a later change to one is an UPDATE at the next flush,
        and a query returns the same object."""
        objects = list(self._unwritten.values())
        self._unwritten.clear()
        session = self.session
        connection = session.connection()
        by_table: dict[Table, list[tuple[Any, dict[str, Any]]]] = {}
        for obj in objects:
            state = instance_state(obj)
            values, row = state.dict, {}
            for attribute, column, fixed, value in _row_plan(state.mapper):
                if attribute in values:
                    row[column] = values[attribute]
                elif fixed:
                    row[column] = values[attribute] = value
            by_table.setdefault(state.mapper.local_table, []).append((state, row))
        for table in self.toolkit.metadata().sorted_tables:
            rows = by_table.get(table, ())
            start = 0
            while start < len(rows):
                keys = rows[start][1].keys()
                end = start + 1
                while end < len(rows) and rows[end][1].keys() == keys:
                    end += 1
                run = rows[start:end]
                missing = [c for c in table.primary_key.columns if c.key not in keys]
                if missing:  # keys the database assigns: read them back in the rows' order
                    statement = insert(table).returning(*missing, sort_by_parameter_order=True)
                    made = connection.execute(statement, [row for _, row in run]).all()
                    for (state, _), key in zip(run, made, strict=True):
                        for column, value in zip(missing, key):
                            state.dict[state.mapper.get_property_by_column(column).key] = value
                else:
                    connection.execute(insert(table), [row for _, row in run])
                start = end
        self._noted = None  # rows written outside the ORM's reports: hash every table next time
        for obj in objects:
            make_transient_to_detached(obj)
        session.add_all(objects)

    def _flush(self) -> None:
        if self._unwritten:
            self._write_rows()
        if self._session is not None and (self._session.new or self._session.dirty or self._session.deleted):
            self._session.flush()

    def __repr__(self) -> str:
        origin = f"seed={self.seed}" if self.seed is not None else "snapshot"
        return f"<World {self.toolkit.name} {origin} now={self.now.isoformat()}>"


def combine_digests(server: str, table_digests: Mapping[str, str]) -> str:
    h = hashlib.sha256(server.encode())
    for name in sorted(table_digests):
        h.update(f"\n{name}:{table_digests[name]}".encode())
    return h.hexdigest()


def _row_for(table: Table, row: Any, where: str) -> dict[str, Any]:
    if not isinstance(row, Mapping):
        raise WorldError(f"{where}: a row must be a JSON object")
    unknown = sorted(set(row) - set(table.c.keys()))
    if unknown:
        raise WorldError(f"{where}: unknown columns {unknown}; {table.name} has {sorted(table.c.keys())}")
    return {k: _python_value(table.c[k], v, where) for k, v in row.items()}


# One compact JSON encoder for every row hashed (the same text as json.dumps(row, ensure_ascii=False,
# separators=(",", ":"), default=str)); made once, as building one per row is most of the cost.
_ROW_ENCODER = c_make_encoder(None, str, c_encode_basestring, None, ":", ",", False, False, True) if c_make_encoder \
    else json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str).iterencode


def _ENCODE(value: Any) -> str:  # noqa: N802 - a module constant in spirit
    return "".join(_ROW_ENCODER(value, 0)) if c_make_encoder else "".join(_ROW_ENCODER(value))


def _KEEP(value: Any) -> Any:  # noqa: N802 - a marker: the column is hashed as it is
    return value


@functools.cache
def _after(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: _canonical(fn(value))


@functools.cache
def _canonical_columns(toolkit: type[Server], table: str) -> frozenset[int]:
    """Positions of the columns whose values `_canonical` may change.

    By SQLite's type affinity rules, only REAL and BLOB (or untyped) columns can hold a float
    with an integral value or bytes; TEXT, INTEGER and NUMERIC columns convert those on storage.
    """
    positions = set()
    for i, column in enumerate(toolkit.metadata().tables[table].columns):
        declared = column.type.compile(_DIALECT).upper()
        if "INT" in declared or "CHAR" in declared or "CLOB" in declared or "TEXT" in declared:
            continue
        if any(k in declared for k in ("REAL", "FLOA", "DOUB", "BLOB")) or not declared:
            positions.add(i)
        # everything else has NUMERIC affinity: integral reals are stored as integers
    return frozenset(positions)


def _order(toolkit: type[Server], table: str) -> str:
    pk = toolkit.metadata().tables[table].primary_key.columns
    return ", ".join(f'"{c.name}"' for c in pk) if len(pk) else "rowid"


# Every world's engine shares one initialized dialect and one cache of compiled SQL. An engine
# made with create_engine() per world would bring its own dialect, so each world would compile
# every statement again (about a millisecond for a first ORM query) and fill the cache with
# entries no other world can use.
_BASE_ENGINE = create_engine("sqlite://", poolclass=StaticPool)
with _BASE_ENGINE.connect():
    pass  # runs the dialect's one-time initialization
_DIALECT = _BASE_ENGINE.dialect
_ON_CONNECT = _DIALECT.on_connect()  # per-connection setup (SQL functions such as REGEXP)
_COMPILED = LRUCache(500)


class _WorldSession(Session):
    """The session of one world: `get` of a row already loaded returns it without the general path.

    Tools look rows up by primary key many times a call (a shell's state, every directory of a
    path), and most of those rows are loaded already (see `World.session`); `Session.get` spends
    several microseconds on each before it looks in the identity map. This answers the same for a
    loaded, unexpired row of a one-column key, and leaves everything else to `Session.get`.
    """

    def get(self, entity: Any, ident: Any, **options: Any) -> Any:
        if not options and not isinstance(ident, (tuple, list, dict)):
            mapper = _MAPPERS.get(entity)
            if mapper is None and isinstance(entity, type):
                mapper = _MAPPERS.setdefault(entity, inspect(entity))
            if mapper is not None and len(mapper.primary_key) == 1:
                row = self.identity_map.get(mapper.identity_key_from_primary_key((ident,)))
                if row is not None and isinstance(row, mapper.class_) and not instance_state(row).expired:
                    return row
        return super().get(entity, ident, **options)


_MAPPERS: dict[type, Any] = {}


def _expire_relationships(session: Session, toolkit: type[Server], written: set[str]) -> None:
    """Expire the loaded relationships that read a table the committed write changed; every
    column stays loaded.

    A collection or reference loaded before a write does not see a row the write added, removed
    or re-pointed by its foreign key alone; the next access loads it again. A relationship over
    tables the write left alone stays loaded, and when no relationship reads a written table
    the loaded rows are not even walked.
    """
    stale = {}
    for model, keys in _relationships(toolkit).items():
        hit = [key for key, tables in keys if not tables.isdisjoint(written)]
        if hit:
            stale[model] = hit
    if stale:
        of = stale.get
        for state in session.identity_map.all_states():
            keys = of(state.class_)
            row = state.obj() if keys else None
            if row is not None:
                loaded = [k for k in keys if k in row.__dict__]
                if loaded:  # (an empty list would expire every attribute)
                    session.expire(row, loaded)


@functools.cache
def _relationships(toolkit: type[Server]) -> dict[type, list[tuple[str, frozenset[str]]]]:
    """{model: [(relationship, the tables it reads)]} for the server's models that have any."""
    return {m.class_: [(key, frozenset(t.name for t in (r.parent.local_table, r.mapper.local_table, r.secondary)
                                       if t is not None)) for key, r in m.relationships.items()]
            for m in toolkit.models.registry.mappers if m.relationships}


_WRITTEN = "prove_written"  # session.info key: the tables the ORM wrote since the last commit
_NOTED = "prove_world"  # session.info key: the world whose `_Noted` row writes are counted


@dataclass
class _Noted:
    """Row writes reported since a world's digests were last known: how many rows, which tables."""

    rows: int = 0
    tables: set[str] = field(default_factory=set)


@functools.cache
def _watch_row_writes(models: type) -> None:
    """Note in its session's info the table of every row the ORM inserts, updates or deletes."""

    def note(mapper: Any, _connection: Any, target: Any) -> None:
        session = object_session(target)
        if session is not None:
            table = mapper.local_table.name
            session.info.setdefault(_WRITTEN, set()).add(table)
            world = session.info.get(_NOTED)
            if world is not None and world._noted is not None:
                world._noted.rows += 1
                world._noted.tables.add(table)

    for kind in ("after_insert", "after_update", "after_delete"):
        event.listen(models, kind, note, propagate=True)


@functools.cache
def _plain_rows(models: type) -> bool:
    """Whether new rows of these models can be written without the unit of work: no model has a
    relationship that writes (one that is only read is fine), inherits from another or keeps a
    version counter."""
    return all(all(r.viewonly for r in m.relationships) and m.inherits is None and m.version_id_col is None
               and m.local_table is m.persist_selectable for m in models.registry.mappers)


@functools.cache
def _row_plan(mapper: Any) -> tuple[tuple[str, str, bool, Any], ...]:
    """(attribute, column, fixed, value) for each column of a model: an attribute left unset is
    written as `value` when `fixed` (NULL for a column without defaults, a constant default),
    and left to the INSERT otherwise (a key, a default worked out per row or by the database)."""
    plan = []
    for prop in mapper.column_attrs:
        (column,) = prop.columns
        if column.primary_key or column.server_default is not None:
            fixed, value = False, None
        elif column.default is None:
            fixed, value = True, None
        elif column.default.is_scalar and isinstance(column.default.arg, (str, int, float, dt.date)):
            fixed, value = True, column.default.arg  # immutable: every row may hold the same one
        else:
            fixed, value = False, None
        plan.append((prop.key, column.key, fixed, value))
    return tuple(plan)


def _engine(connection: sqlite3.Connection) -> Engine:
    """An engine over one world's connection, sharing the process-wide dialect and SQL cache."""
    if _ON_CONNECT is not None:
        _ON_CONNECT(connection)
    pool = StaticPool(lambda: connection, dialect=_DIALECT)
    return Engine(pool, _DIALECT, _BASE_ENGINE.url, execution_options={"compiled_cache": _COMPILED})


class _Templates:
    """The process-wide cache of template databases: one per (server, seed), and one per snapshot.

    Building a template (seeding with Faker, or loading a JSON snapshot) happens once; every world
    after that is a clone of its serialized bytes.
    """

    _MAX_SNAPSHOTS = 256

    def __init__(self) -> None:
        self._data: dict[tuple, tuple[bytes, str, dict[str, str]]] = {}
        self._snapshots: list[tuple] = []  # insertion order, to bound the snapshot templates kept
        self._lock = threading.Lock()

    def template(self, toolkit: type[Server], seed: int) -> tuple[bytes, str, dict[str, str]]:
        """(serialized database, digest, table digests) of the seeded world."""
        return self._get((toolkit.name, "seed", seed), lambda: _seed_world(toolkit, seed))

    def create(self, toolkit: type[Server], seed: int) -> World:
        """A fresh world cloned from the (toolkit, seed) template."""
        data, _, tables = self.template(toolkit, seed)
        return World.from_bytes(toolkit, data, seed, tables)

    def digest(self, toolkit: type[Server], seed: int) -> str:
        return self.template(toolkit, seed)[1]

    def table_digests(self, toolkit: type[Server], seed: int) -> dict[str, str]:
        return dict(self.template(toolkit, seed)[2])

    def snapshot_template(self, toolkit: type[Server], snapshot: Mapping[str, Any],
                          key: str | None = None) -> tuple[bytes, str, dict[str, str]]:
        """The template of a JSON snapshot; `key` (its content hash) saves hashing it again."""
        key = key or snapshot_key(snapshot)
        return self._get((toolkit.name, "snapshot", key), lambda: World.from_snapshot(toolkit, snapshot))

    def create_from_snapshot(self, toolkit: type[Server], snapshot: Mapping[str, Any],
                             key: str | None = None) -> World:
        """A fresh world cloned from the template of a JSON snapshot (loaded once per snapshot)."""
        data, _, tables = self.snapshot_template(toolkit, snapshot, key)
        return World.from_bytes(toolkit, data, None, tables)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._snapshots.clear()

    def _get(self, key: tuple, build: Callable[[], World]) -> tuple[bytes, str, dict[str, str]]:
        found = self._data.get(key)
        if found is None:
            with self._lock:
                found = self._data.get(key)
                if found is None:
                    world = build()
                    tables = world.table_digests()
                    found = (world.serialize(), combine_digests(world.toolkit.name, tables), tables)
                    world.close()
                    self._data[key] = found
                    if key[1] == "snapshot":
                        self._snapshots.append(key)
                        if len(self._snapshots) > self._MAX_SNAPSHOTS:
                            self._data.pop(self._snapshots.pop(0), None)
        return found


def snapshot_key(snapshot: Mapping[str, Any]) -> str:
    """A content hash of a JSON snapshot (key order does not matter)."""
    text = json.dumps(snapshot, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _seed_world(toolkit: type[Server], seed: int) -> World:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise WorldError(f"a world seed must be a non-negative integer, got {seed!r}")
    now = _seeded_now(toolkit.name, seed)
    world = World._empty(toolkit, now, seed)
    import faker  # here, not at the top: only seeding a template needs it, and it is slow to import

    fake = faker.Faker("en_US")
    fake.seed_instance(seed)
    ctx = SeedContext(world=world, fake=fake, rng=random.Random(f"{toolkit.name}/{seed}"), now=now)
    with world.transaction():
        toolkit.seed(ctx)
    # Drop the seeding session so the template carries nothing but the database itself.
    world._session.close()  # type: ignore[union-attr]
    world._session = None
    world.connection.execute("VACUUM")
    return world


worlds = _Templates()
"""The process-wide world factory: `worlds.create(Toolkit, seed)` clones a cached template."""


def template_digest(toolkit: type[Server], seed: int) -> str:
    return worlds.digest(toolkit, seed)
