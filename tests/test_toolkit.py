"""The kit's SQL helpers on a tiny server: `Toolkit.find`, the one look-up of rows by part of a name and/or an
email, and `Toolkit.rows`."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from prove_env.toolkit import Entity, Toolkit, tool
from prove_env.world import SeedContext, worlds


class Base(DeclarativeBase):
    pass


class Person(Base):
    __tablename__ = "people"

    id: Mapped[str] = mapped_column(String, primary_key=True)
    first_name: Mapped[str]
    last_name: Mapped[str]
    email: Mapped[str]
    status: Mapped[str]
    city: Mapped[str]


PEOPLE = [
    ("PER-0001", "Ada", "Park", "ada.park@x.com", "active", "Oslo"),
    ("PER-0002", "Bob", "Adams", "bob@x.com", "active", "Rome"),
    ("PER-0003", "Cara", "Lopez", "cara@x.com", "left", "Adana"),
    ("PER-0004", "Dan", "Park", "dan@x.com", "active", "Bergen"),
    ("PER-0005", "Eve", "Stone", "EVE@X.COM", "active", "Park City"),
]


def seed(ctx: SeedContext) -> None:
    ctx.add(*(Person(id=i, first_name=f, last_name=la, email=e, status=s, city=c) for i, f, la, e, s, c in PEOPLE))


class People(Toolkit):
    """A directory of people: the smallest server a look-up needs."""

    name = "people_for_find_test"
    models = Base
    seed = staticmethod(seed)
    entities = (Entity("person", Person, "PER", lookup="find_people"),)

    @tool(read_only=True)
    def find_people(self, name: str | None = None) -> list[str]:
        """Find people by part of their full name.

        Args:
            name: part of the name.
        """
        return [p.id for p in self.find(Person, name=name, name_columns=(("first_name", "last_name"),))]

    @tool()
    def rename_and_find(self, person_id: str, last_name: str) -> list[str]:
        """Rename a person and add one, then find both by the new last name in the same call.

        Args:
            person_id: who is renamed.
            last_name: the new last name.
        """
        self.get(Person, person_id).last_name = last_name
        self.db.add(Person(id="PER-0006", first_name="Zed", last_name=last_name, email="zed@x.com",
                           status="active", city="Oslo"))
        return [p.id for p in self.find(Person, name=last_name, name_columns=(("first_name", "last_name"),))]


@pytest.fixture
def kit() -> People:
    instance = People(worlds.create(People, 0))
    yield instance
    instance.world.close()


def ids(kit: People, **criteria) -> list[str]:
    criteria.setdefault("name_columns", (("first_name", "last_name"),))
    with kit.world.transaction(write=False):
        return [p.id for p in kit.find(Person, **criteria)]


def test_name_is_part_of_the_joined_name_ignoring_case_and_spaces(kit):
    assert ids(kit, name="park") == ["PER-0001", "PER-0004"]
    assert ids(kit, name="  PaRK ") == ["PER-0001", "PER-0004"]
    assert ids(kit, name="a p") == ["PER-0001"]  # across first and last name: "Ada Park"
    assert ids(kit, name="Ada Park") == ["PER-0001"]
    assert ids(kit, name="ada  park") == []
    assert ids(kit, name="zz") == []
    assert ids(kit, name="ada") == ["PER-0001", "PER-0002"]  # Ada, Adams; not the city Adana
    assert ids(kit) == ids(kit, name="   ") == [p[0] for p in PEOPLE]  # blank: no criterion


def test_any_of_several_name_columns_and_the_id(kit):
    assert ids(kit, name="ada", name_columns=(("first_name", "last_name"), "city")) == ["PER-0001", "PER-0002",
                                                                                        "PER-0003"]
    assert ids(kit, name="park", name_columns=("last_name", "city")) == ["PER-0001", "PER-0004", "PER-0005"]
    assert ids(kit, name="per-0002") == []
    assert ids(kit, name="per-0002", or_id=True) == ["PER-0002"]
    assert ids(kit, name="@@ada", name_lstrip="@") == ["PER-0001", "PER-0002"]


def test_email_is_the_whole_address_ignoring_case(kit):
    assert ids(kit, email="ADA.PARK@x.com ") == ["PER-0001"]
    assert ids(kit, email="eve@x.com") == ["PER-0005"]
    assert ids(kit, email="da.park@x.com") == ids(kit, email="ada.park@x") == []
    assert ids(kit, email="ada.park@x", email_part=True) == ["PER-0001"]
    assert ids(kit, email="  ") == [p[0] for p in PEOPLE]  # blank: no criterion
    assert ids(kit, name="park", email="dan@x.com") == ["PER-0004"]  # every criterion given must match
    assert ids(kit, name="ada", email="dan@x.com") == []


def test_where_order_and_limit(kit):
    assert ids(kit, name="a", where="status = 'active'") == ["PER-0001", "PER-0002", "PER-0004"]
    assert ids(kit, order_by="city") == ["PER-0003", "PER-0004", "PER-0001", "PER-0005", "PER-0002"]
    assert ids(kit, limit=2) == ["PER-0001", "PER-0002"]
    assert ids(kit, name="park", limit=1) == ["PER-0001"]
    assert ids(kit, order_by="city", limit=2, where="status = 'active'") == ["PER-0004", "PER-0001"]


def test_returns_the_session_objects_loaded_or_not(kit):
    with kit.world.transaction(write=False):
        (ada,) = kit.find(Person, email="ada.park@x.com")
        assert ada is kit.get(Person, "PER-0001") and ada.first_name == "Ada"
    with kit.world.transaction(write=True):  # a commit keeps what was loaded
        pass
    with kit.world.transaction(write=False):
        assert [p.last_name for p in kit.find(Person, name="park", name_columns=("last_name",))] == ["Park", "Park"]


def test_sees_the_calls_own_pending_writes(kit):
    assert json.loads(kit.run("rename_and_find", {"person_id": "PER-0002", "last_name": "Quill"})) == [
        "PER-0002", "PER-0006"]
    assert json.loads(kit.run("find_people", {"name": "quill"})) == ["PER-0002", "PER-0006"]
    assert json.loads(kit.run("find_people", {"name": "adams"})) == []


def test_unknown_columns_are_refused(kit):
    with pytest.raises(ValueError, match="not a column"):
        ids(kit, name="x", name_columns=("nickname",))


def test_columns_give_records_of_the_same_rows(kit):
    with kit.world.transaction(write=False):
        records = kit.find(Person, name="park", name_columns=("last_name", "city"), columns=("id", "city"), limit=2)
    assert records == [("PER-0001", "Oslo"), ("PER-0004", "Bergen")]
    assert [r.city for r in records] == ["Oslo", "Bergen"]


def test_load_gives_the_objects_a_query_selects_in_its_order(kit):
    with kit.world.transaction(write=False):
        loaded = kit.load(Person, "SELECT id FROM people WHERE status = ? ORDER BY city DESC", "active")
        assert [p.id for p in loaded] == ["PER-0002", "PER-0005", "PER-0001", "PER-0004"]
        assert loaded[0] is kit.get(Person, "PER-0002") and kit.load(Person, "SELECT id FROM people WHERE 0") == []
    with kit.world.transaction(write=True):
        kit.get(Person, "PER-0003").status = "active"  # pending: the query sees it
        assert [p.id for p in kit.load(Person, "SELECT id FROM people WHERE status = 'active' AND city = ?",
                                       "Adana")] == ["PER-0003"]


def test_rows_passes_dates_and_datetimes_as_the_world_stores_them():
    import datetime as dt

    from prove_env.registry import get_toolkit
    from prove_env.servers.social_media.models import Post

    toolkit = get_toolkit("social_media")
    instance = toolkit(worlds.create(toolkit, 0))
    with instance.world.transaction(write=False) as session:
        post = session.query(Post).order_by(Post.id).first()
        at = post.created_at
        assert instance.rows("SELECT id FROM posts WHERE created_at = ? AND id = ?", at, post.id) == [(post.id,)]
        assert instance.rows("SELECT count(*) FROM posts WHERE created_at <= ?", at) == instance.rows(
            "SELECT count(*) FROM posts WHERE created_at < ?", at + dt.timedelta(microseconds=1))
        assert instance.rows("SELECT ? = substr(created_at, 1, 10) FROM posts WHERE id = ?", at.date(),
                             post.id) == [(1,)]


def test_sql_where_keeps_the_given_conditions_in_order():
    from prove_env.toolkit import sql_where

    assert sql_where() == ("1", [])
    assert sql_where(("a = ?", None), ("b = ?", 0), ("c LIKE ?", "x%")) == ("b = ? AND c LIKE ?", [0, "x%"])
    with pytest.raises(ValueError):  # not a pair
        sql_where(("a = ?",))
