"""Worlds: seeded once, cloned per episode, isolated, byte-identical across processes, snapshots."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest
from sqlalchemy import ForeignKey, String, func, select, text, update
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from prove_env.registry import get_toolkit, server_names
from prove_env.toolkit import Toolkit, tool
from prove_env.world import SeedContext, World, WorldError, _seed_world, worlds

DIGEST_SCRIPT = """
import hashlib, json, sys
from prove_env.registry import get_toolkit
from prove_env.world import worlds
out = {}
for name in sys.argv[1:]:
    world = worlds.create(get_toolkit(name), 3)
    out[name] = [world.digest(), hashlib.sha256(world.serialize()).hexdigest()]
print(json.dumps(out))
"""


def _digests_in_subprocess() -> dict[str, list[str]]:
    done = subprocess.run([sys.executable, "-c", DIGEST_SCRIPT, *server_names()], capture_output=True, text=True,
                          check=True, env={"PYTHONHASHSEED": "random", "PATH": ""})
    return json.loads(done.stdout)


def test_same_seed_same_world_in_separate_processes():
    first, second = _digests_in_subprocess(), _digests_in_subprocess()
    assert first == second
    here = {n: [worlds.create(get_toolkit(n), 3).digest(), ""] for n in server_names()}
    assert {n: v[0] for n, v in here.items()} == {n: v[0] for n, v in first.items()}


@pytest.mark.parametrize("server", server_names())
def test_seeding_again_from_scratch_gives_the_cached_world(server):
    toolkit = get_toolkit(server)
    reseeded = _seed_world(toolkit, 0)
    assert reseeded.digest() == worlds.digest(toolkit, 0)
    assert reseeded.serialize() == worlds.create(toolkit, 0).serialize()
    assert len(reseeded.serialize()) < 1_000_000  # a clone stays cheap: flat reset time to 5 MB, 1,000 worlds in about 1 GB


@pytest.mark.parametrize("server", server_names())
def test_different_seeds_differ_and_clones_are_isolated(server):
    toolkit = get_toolkit(server)
    a, b = worlds.create(toolkit, 0), worlds.create(toolkit, 0)
    assert a.digest() == b.digest() == worlds.digest(toolkit, 0)
    assert worlds.create(toolkit, 1).digest() != a.digest()
    assert a.connection is not b.connection and a.session is not b.session
    table = max(toolkit.table_names(), key=lambda t: len(a.rows(t)))
    a.connection.execute(f'DELETE FROM "{table}"')
    assert a.digest() != b.digest() == worlds.digest(toolkit, 0)
    assert worlds.create(toolkit, 0).digest() == b.digest()


@pytest.mark.parametrize("server", server_names())
def test_snapshot_round_trip(server):
    toolkit = get_toolkit(server)
    world = worlds.create(toolkit, 0)
    snapshot = json.loads(json.dumps(world.snapshot()))  # through real JSON
    again = World.from_snapshot(toolkit, snapshot)
    assert again.digest() == world.digest()
    assert again.snapshot() == snapshot
    assert again.now == world.now


def test_hand_written_snapshot_and_id_continuation():
    toolkit = get_toolkit("banking")
    world = worlds.create(toolkit, 0)
    snapshot = world.snapshot()
    del snapshot["ids"], snapshot["now"]
    rebuilt = World.from_snapshot(toolkit, snapshot)
    largest = max(int(row["id"].split("-")[1]) for row in snapshot["tables"]["accounts"])
    prefix = snapshot["tables"]["accounts"][0]["id"].split("-")[0]
    assert rebuilt.new_id(prefix) == f"{prefix}-{largest + 1:04d}"


@pytest.mark.parametrize("snapshot, message", [
    ({"server": "calendar"}, "not 'banking'"),
    ({"tables": {"nope": []}}, "unknown tables"),
    ({"tables": {"accounts": [{"colour": 1}]}}, "unknown columns"),
    ({"now": "yesterday"}, "ISO 8601"),
    ([], "JSON object"),
    ({"nope": 1}, "unknown keys"),
])
def test_bad_snapshots_get_clear_errors(snapshot, message):
    with pytest.raises(WorldError, match=message):
        World.from_snapshot(get_toolkit("banking"), snapshot)


def test_failed_tool_call_changes_nothing(served):
    s = served("banking")
    before = s.world.digest()
    s.call("transfer", from_account_id="ACC-0001", to_account_id="ACC-0002", amount=10.0**12, pin="0000")
    assert s.world.digest() == before


def test_bad_seed():
    with pytest.raises(WorldError, match="non-negative integer"):
        worlds.create(get_toolkit("banking"), -1)


def test_serialized_bytes_identical_for_clones():
    toolkit = get_toolkit("calendar")
    a, b = worlds.create(toolkit, 5), worlds.create(toolkit, 5)
    assert hashlib.sha256(a.serialize()).digest() == hashlib.sha256(b.serialize()).digest()


def _first_row(world: World):
    """(model, primary key) of a row of the world's first table with a one-column primary key."""
    for mapper in sorted(world.toolkit.models.registry.mappers, key=lambda m: m.class_.__name__):
        table = mapper.local_table
        if len(mapper.primary_key) == 1 and world.rows(table.name):
            position = list(table.columns).index(mapper.primary_key[0])
            return mapper.class_, world.rows(table.name)[0][position]
    raise AssertionError(f"{world.toolkit.name} has no table with rows")


def _statements(world: World) -> list[str]:
    seen: list[str] = []
    from sqlalchemy import event

    event.listen(world.session.get_bind(), "before_cursor_execute", lambda *args: seen.append(args[2]))
    return seen


@pytest.mark.parametrize("server", server_names())
def test_read_only_calls_reuse_loaded_rows_until_a_write(server):
    world = worlds.create(get_toolkit(server), 0)
    model, key = _first_row(world)
    seen = _statements(world)

    def read() -> int:
        before = len(seen)
        with world.transaction(write=False) as session:
            assert session.get(model, key) is not None
        return len(seen) - before

    assert read() == 1 and read() == 0  # the second read finds the row loaded
    with world.transaction(write=True):
        pass
    assert read() == 0  # a commit keeps it: only this session writes the world
    with pytest.raises(RuntimeError), world.transaction(write=True):
        raise RuntimeError("a failed call")
    assert read() == 1  # a rollback expires everything: read again


def test_a_write_keeps_its_rows_loaded_and_relationships_see_rows_added_by_key():
    from prove_env.servers.calendar.models import Contact, Event, Invitee

    world = worlds.create(get_toolkit("calendar"), 0)
    seen = _statements(world)
    with world.transaction(write=False) as session:
        event = session.scalars(select(Event).where(Event.invitees.any()).order_by(Event.id)).first()
        invited = {i.contact_id for i in event.invitees}
        other = session.scalars(select(Event).where(Event.id != event.id).order_by(Event.id)).first()
    with world.transaction(write=True) as session:
        event.title = "Renamed"
        contact = next(c for (c,) in session.execute(text("SELECT id FROM contacts ORDER BY id"))
                       if c not in invited)
        session.add(Invitee(event_id=event.id, contact_id=contact))  # by key, not through event.invitees
    before = len(seen)
    with world.transaction(write=False) as session:
        assert session.get(Event, event.id).title == "Renamed" and len(seen) == before  # still loaded
        assert session.get(Event, other.id).title and len(seen) == before  # its relationships were never read
        assert {i.contact_id for i in event.invitees} == invited | {contact}  # the collection was reloaded
    with world.transaction(write=True) as session:  # a write to a table the collection does not read
        session.get(Contact, contact).job_title = "Archivist"
    before = len(seen)
    with world.transaction(write=False) as session:
        assert {i.contact_id for i in event.invitees} == invited | {contact} and len(seen) == before  # kept
    with pytest.raises(RuntimeError), world.transaction(write=True):
        event.title = "Not kept"
        raise RuntimeError("a failed call")
    with world.transaction(write=False) as session:
        assert session.get(Event, event.id).title == "Renamed"
    with world.transaction(write=True) as session:  # a write in SQL, outside the ORM
        session.execute(text("UPDATE events SET title = 'Set in SQL' WHERE id = :i"), {"i": event.id})
    with world.transaction(write=False) as session:
        assert session.get(Event, event.id).title == "Set in SQL"


@pytest.mark.parametrize("server", server_names())
def test_preload_queries_only_the_rows_not_loaded(server):
    world = worlds.create(get_toolkit(server), 0)
    model, key = _first_row(world)
    seen = _statements(world)
    with world.transaction(write=False) as session:
        world.preload(model, [key, "no such key"])
        assert len(seen) == 1
        assert session.get(model, key) is not None and len(seen) == 1
        world.preload(model, [key])
        assert len(seen) == 1


def test_new_ids_roll_back_with_their_call_and_flush_nothing():
    toolkit = get_toolkit("banking")
    world = worlds.create(toolkit, 0)
    prefix = world.connection.execute("SELECT prefix FROM prove_ids ORDER BY prefix").fetchone()[0]
    counters = world.connection.execute("SELECT * FROM prove_ids ORDER BY prefix").fetchall()
    with pytest.raises(RuntimeError), world.transaction() as session:
        model, key = _first_row(world)
        row = session.get(model, key)
        session.expunge(row)
        session.add(copy := model(**{c.key: getattr(row, c.key) for c in model.__mapper__.column_attrs}))
        first = world.new_id(prefix)
        assert copy in session.new  # the id did not flush the call's pending objects
        assert world.new_id(prefix) != first
        raise RuntimeError("the call fails after taking ids")
    assert world.connection.execute("SELECT * FROM prove_ids ORDER BY prefix").fetchall() == counters
    with world.transaction():
        assert world.new_id(prefix) == first


def test_kept_table_digests_match_the_content_and_only_written_tables_are_read_again():
    from prove_env.servers.calendar.models import Event, Invitee

    toolkit = get_toolkit("calendar")
    world = worlds.create(toolkit, 0)

    def fresh() -> dict[str, str]:
        other = World.from_bytes(toolkit, world.serialize())  # no digests given: every table hashed
        try:
            return other.table_digests()
        finally:
            other.close()

    def tables_read() -> set[str]:
        statements: list[str] = []
        world.connection.set_trace_callback(statements.append)
        try:
            assert world.table_digests() == fresh()
        finally:
            world.connection.set_trace_callback(None)
        return {s.split('"')[1] for s in statements if s.startswith("SELECT * FROM")}

    start = world.table_digests()
    assert tables_read() == set()  # nothing written: the digests are known
    with world.transaction() as session:
        event = session.scalars(select(Event).order_by(Event.id)).first()
        event.title = "Renamed"
    assert tables_read() == {"events"}
    with world.transaction() as session:  # a new row by key, with a new id drawn
        world.new_id("EVT")
        invited = {i.contact_id for i in event.invitees}
        contact = next(c for (c,) in session.execute(text("SELECT id FROM contacts ORDER BY id")) if c not in invited)
        session.add(Invitee(event_id=event.id, contact_id=contact))
    assert tables_read() == {"invitees", "prove_ids"}
    with pytest.raises(RuntimeError), world.transaction():  # rolled back: written, then undone
        event.title = "Not kept"
        world.session.flush()
        raise RuntimeError("a failed call")
    assert tables_read() == {"events"}
    with world.transaction() as session:  # a write in SQL outside the ORM: every table is read
        session.execute(text("UPDATE events SET title = 'Set in SQL' WHERE id = :i"), {"i": event.id})
    assert tables_read() == set(toolkit.table_names())
    with world.transaction() as session:  # an ORM statement: how many rows it changed is not reported
        session.execute(update(Event).where(Event.id == event.id).values(location="Room 9"))
    assert tables_read() == set(toolkit.table_names())
    assert world.table_digests() != start


def _rows_in_order(world: World) -> dict[str, list[tuple]]:
    tables = [name for (name,) in world.connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: world.connection.execute(f'SELECT rowid, * FROM "{t}" ORDER BY rowid').fetchall() for t in tables}


@pytest.mark.parametrize("server", server_names())
def test_rows_written_in_bulk_are_the_rows_the_session_writes(server, monkeypatch):
    """Seeding writes new rows in bulk where the models allow it; every row, in every table, has the
    values and the rowid it gets through the session's unit of work."""
    toolkit = get_toolkit(server)
    bulk = _seed_world(toolkit, 1)
    monkeypatch.setattr("prove_env.world._plain_rows", lambda models: False)
    through_session = _seed_world(toolkit, 1)
    assert _rows_in_order(bulk) == _rows_in_order(through_session)
    assert bulk.serialize() == through_session.serialize()


class _Base(DeclarativeBase):
    pass


class _Shelf(_Base):
    __tablename__ = "shelves"

    id: Mapped[str] = mapped_column(String, primary_key=True)
    label: Mapped[str]
    count: Mapped[int] = mapped_column(default=0)
    note: Mapped[str | None]
    code: Mapped[str] = mapped_column(default=lambda: "std")


class _Entry(_Base):
    __tablename__ = "entries"

    id: Mapped[int] = mapped_column(primary_key=True)
    shelf_id: Mapped[str] = mapped_column(ForeignKey("shelves.id"))
    text: Mapped[str]


def _seed_shelves(ctx: SeedContext) -> None:
    first = _Shelf(id=ctx.new_id("SHF"), label="first")
    ctx.add(first, first)  # the same row twice is one row
    first.count = 2  # changed before it is written
    second = _Shelf(id=ctx.new_id("SHF"), label="second", note="kept", count=5, code="own")
    ctx.add(second, _Entry(shelf_id=first.id, text="a"), _Entry(shelf_id=second.id, text="b"))
    # a query sees every row added before it, and returns the objects that were added
    assert ctx.session.scalar(select(func.count()).select_from(_Shelf)) == 2
    assert ctx.session.get(_Shelf, first.id) is first
    second.label = "second, renamed"  # changed after it is written: an update
    entries = ctx.session.scalars(select(_Entry).order_by(_Entry.id)).all()
    assert [(e.id, e.text) for e in entries] == [(1, "a"), (2, "b")]  # keys the database assigned
    ctx.add(_Entry(shelf_id=second.id, text="c"))


class _Shelves(Toolkit):
    """Shelves and what is written on them: a world whose seed reads and changes rows it added."""

    name = "shelves_for_world_test"
    models = _Base
    seed = staticmethod(_seed_shelves)

    @tool(read_only=True)
    def count_shelves(self) -> int:
        """How many shelves there are."""
        return len(self.db.scalars(select(_Shelf)).all())


def test_rows_kept_for_writing_in_bulk_act_as_the_session_would(monkeypatch):
    bulk = _seed_world(_Shelves, 0)
    assert bulk.rows("shelves") == [("SHF-0001", "first", 2, None, "std"),
                                    ("SHF-0002", "second, renamed", 5, "kept", "own")]
    assert bulk.rows("entries") == [(1, "SHF-0001", "a"), (2, "SHF-0002", "b"), (3, "SHF-0002", "c")]
    monkeypatch.setattr("prove_env.world._plain_rows", lambda models: False)
    assert _rows_in_order(_seed_world(_Shelves, 0)) == _rows_in_order(bulk)


def test_rows_kept_for_writing_in_bulk_roll_back_with_their_call():
    world = _seed_world(_Shelves, 0)
    with pytest.raises(RuntimeError), world.transaction():
        SeedContext(world=world, fake=None, rng=None, now=world.now).add(_Shelf(id="SHF-0009", label="gone"))
        raise RuntimeError("the call fails after adding a row")
    with world.transaction():
        world.new_id("SHF")
    assert [row[0] for row in world.rows("shelves")] == ["SHF-0001", "SHF-0002"]
