"""`prove-env new-server NAME`: a working server skeleton to grow a real one from.

It writes, in a source checkout of the project:

    servers/NAME/__init__.py, models.py, seed.py, tools.py, synth.py
    tests/servers/test_NAME.py          the domain tests, one per rule
    fixtures/tasks/NAME.jsonl           fixture tasks, synthesized from the recipe and stamped

and regenerates docs/catalog.md. The skeleton is a small but real domain (owners and their
items: look-ups, a read, writes with rules that refuse) that passes the whole test suite as
generated; `docs/adding-a-server.md` says how to turn it into the product it should model.
"""

from __future__ import annotations

import importlib
import keyword
import re
import shutil
from pathlib import Path

__all__ = ["ScaffoldError", "new_server", "source_root"]

_NAME = re.compile(r"^[a-z][a-z0-9_]{1,30}$")
FIXTURE_TASKS = 8


class ScaffoldError(ValueError):
    """A server skeleton cannot be written as asked."""


def source_root() -> Path:
    """The checkout that holds servers/, tests/ and fixtures/ (an editable install), or an error."""
    from prove_env import servers

    root = Path(next(iter(servers.__path__))).resolve().parent
    if not all((root / part).is_dir() for part in ("servers", "tests", "fixtures", "docs")):
        raise ScaffoldError("new-server writes into a source checkout of prove-env (install it with "
                            f"`pip install -e .`); {root} has no servers/, tests/, fixtures/ and docs/")
    return root

_SERVER_ROW = re.compile(r"^\| `\w+` \| \d+ \|")


def new_server(name: str, root: Path | None = None) -> list[Path]:
    """Write the skeleton of server `name` and its stamped fixture tasks; return the files written."""
    if not _NAME.match(name) or keyword.iskeyword(name):
        raise ScaffoldError(f"a server name is 2 to 31 characters of lower-case letters, digits and underscores, "
                            f"starting with a letter, got {name!r}")
    root = root or source_root()
    folder = root / "servers" / name
    if folder.exists():
        raise ScaffoldError(f"servers/{name} already exists")
    from prove_env.registry import server_names

    if name in server_names():
        raise ScaffoldError(f"a server named {name!r} is already registered")
    title = name.replace("_", " ")
    files = {
        folder / "__init__.py": f'"""{title.capitalize()}: owners and their items (a skeleton to grow)."""\n',
        folder / "models.py": MODELS,
        folder / "seed.py": SEED,
        folder / "tools.py": TOOLS.replace("__CLASS__", _class_name(name)).replace("__NAME__", name),
        folder / "synth.py": SYNTH.replace("__NAME__", name),
        root / "tests" / "servers" / f"test_{name}.py": TESTS.replace("__NAME__", name),
    }
    folder.mkdir(parents=True)
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    written = list(files)
    try:
        written.append(_fixtures(name, root))
        written.append(_catalog(root))
        written += _readme_row(root, name)
    except BaseException:  # leave nothing half-written behind
        for path in files:
            path.unlink(missing_ok=True)
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return written


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) + "Server"


def _fixtures(name: str, root: Path) -> Path:
    """Fixture tasks drawn from the new recipe and verified like any synthesized task: a write, a
    multi-turn task and an abstention among them."""
    from prove_env import registry
    from prove_env.synthesis.config import SynthConfig
    from prove_env.synthesis.pipeline import Shard, run_shard
    from prove_env.task import Task

    registry.server_names.cache_clear()
    importlib.invalidate_caches()
    config = SynthConfig(tasks_per_world=60, distractor_rate=0.0, strip_enums_rate=0.0, irrelevant_rate=0.1,
                         hidden_rate=0.0)
    tasks = [Task.parse(line) for line in run_shard(Shard(name, 0, 60, "train", 0), config).tasks]
    picked: list[Task] = []
    for wanted in (lambda t: t.abstain, lambda t: len(t.user_turns) > 1 and t.writes, lambda t: t.writes,
                   lambda t: not t.abstain and not t.writes):
        found = next((t for t in tasks if wanted(t) and t not in picked), None)
        if found is not None:
            picked.append(found)
    picked += [t for t in tasks if t not in picked and not t.abstain][: FIXTURE_TASKS - len(picked)]
    if len(picked) < FIXTURE_TASKS:
        raise ScaffoldError(f"the {name} recipe wrote only {len(tasks)} tasks; cannot pick {FIXTURE_TASKS} fixtures")
    lines = []
    for number, task in enumerate(picked, 1):
        metadata = {"source": f"prove-env new-server {name}; replace with hand-written tasks of the domain"}
        lines.append(task.model_copy(update={"id": f"{name}-{number:03d}", "metadata": metadata}))
    path = root / "fixtures" / "tasks" / f"{name}.jsonl"
    path.write_text("".join(_stamped(t).to_json() + "\n" for t in lines), encoding="utf-8")
    return path


def _stamped(task):
    from prove_env.episode import replay
    from prove_env.registry import get_toolkit
    from prove_env.runtime import run_sync

    reference = run_sync(replay(task))
    tools = task.tools or [s.openai_schema() for s in get_toolkit(task.server).visible_specs()]
    return task.model_copy(update={"tools": tools, "start_digest": reference.start_digest,
                                   "gold_digest": reference.gold_digest})


def _readme_row(root: Path, name: str) -> list[Path]:
    """The server's row in the README's server table (after the last row), with its visible tool count."""
    from prove_env.registry import get_toolkit

    path = root / "README.md"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True) if path.exists() else []
    rows = [i for i, line in enumerate(lines) if _SERVER_ROW.match(line)]
    if not rows:
        return []
    toolkit = get_toolkit(name)
    holds = " ".join(toolkit.description().split()).split(". ")[0].rstrip(".;:")
    lines.insert(rows[-1] + 1, f"| `{name}` | {len(toolkit.visible_specs())} | {holds} |\n")
    path.write_text("".join(lines), encoding="utf-8")
    return [path]


def _catalog(root: Path) -> Path:
    from prove_env.catalog import render_catalog

    path = root / "docs" / "catalog.md"
    path.write_text(render_catalog().rstrip("\n") + "\n", encoding="utf-8")
    return path


MODELS = '''"""The server's tables: owners and the items they hold.

Rename and extend them into the domain's own entities; every table needs a primary key, and
string ids with a prefix ('ITM-0007') come from `new_id`.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Owner(Base):
    __tablename__ = "owners"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "OWN-0003"
    name: Mapped[str]
    email: Mapped[str]


class Item(Base):
    __tablename__ = "items"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ITM-0007"
    owner_id: Mapped[str] = mapped_column(ForeignKey("owners.id"))
    title: Mapped[str]
    note: Mapped[str | None]
    status: Mapped[str]  # active | archived
    created_at: Mapped[dt.datetime]
'''

SEED = '''"""The seed: 30 owners with unique names, each holding 0 to 6 items (some archived), all
created before the world's frozen "now"."""

from __future__ import annotations

from prove_env.world import SeedContext

from .models import Item, Owner

N_OWNERS = 30
THINGS = ("Lamp", "Bookshelf", "Road bike", "Camera", "Tent", "Guitar", "Desk", "Kettle", "Backpack", "Monitor",
          "Rug", "Blender", "Scooter", "Printer", "Sofa")
ADJECTIVES = ("Old", "Blue", "Spare", "Small", "Vintage", "Red", "Folding", "Travel", "Garden", "Office")


def seed(ctx: SeedContext) -> None:
    for _ in range(N_OWNERS):
        first, last = ctx.person_name()
        owner = Owner(id=ctx.new_id("OWN"), name=f"{first} {last}",
                      email=f"{first.lower()}.{last.lower()}@example.com")
        ctx.add(owner)
        titles: set[str] = set()
        for _ in range(ctx.rng.randint(0, 6)):
            title = f"{ctx.rng.choice(ADJECTIVES)} {ctx.rng.choice(THINGS).lower()}"
            if title in titles:
                continue
            titles.add(title)
            ctx.add(Item(id=ctx.new_id("ITM"), owner_id=owner.id, title=title,
                         note=ctx.fake.sentence(nb_words=6) if ctx.rng.random() < 0.5 else None,
                         status="archived" if ctx.rng.random() < 0.2 else "active",
                         created_at=ctx.moment(-400, -1)))
'''

TOOLS = '''"""The __NAME__ server's tools: owners and their items.

Rules, in one place:
- An item's title is 1 to 80 characters and unique among its owner's items.
- Only active items can be renamed; archiving an archived item changes nothing; only archived
  items can be deleted.
"""

from __future__ import annotations

from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Entity, Id, Limit, Toolkit, ToolError, tool

from .models import Base, Item, Owner
from .seed import seed

MAX_TITLE = 80


class __CLASS__(Toolkit):
    """Owners and the items they hold: look owners up, list, read, add, rename, archive and delete
    items."""

    name = "__NAME__"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("owner", Owner, "OWN", lookup="find_owners"),
        Entity("item", Item, "ITM", lookup="list_items"),
    )

    @tool(read_only=True)
    def find_owners(self, name: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find owners whose name contains a text (ignoring case), ordered by id; all owners without one.

        Args:
            name: part of the owner's name, such as 'Ada Park' or 'park'.
        """
        query = select(Owner).order_by(Owner.id).limit(limit)
        if name and name.strip():
            query = query.where(func.lower(Owner.name).contains(name.strip().lower()))
        return [_owner(o) for o in self.db.scalars(query)]

    @tool(read_only=True)
    def list_items(self, owner_id: Id("owner"), status: Literal["active", "archived"] | None = None) -> list[dict]:
        """List an owner's items, ordered by id, optionally only active or only archived ones.

        Args:
            status: only items with this status: 'active' or 'archived'.
        """
        owner = self.get(Owner, owner_id)
        query = select(Item).where(Item.owner_id == owner.id).order_by(Item.id)
        if status is not None:
            query = query.where(Item.status == status)
        return [_item(i) for i in self.db.scalars(query)]

    @tool(read_only=True)
    def get_item(self, item_id: Id("item")) -> dict:
        """Return one item in full: title, note, status, owner and creation time."""
        item = self.get(Item, item_id)
        return {**_item(item), "note": item.note, "created_at": item.created_at}

    @tool(produces=("item",))
    def add_item(self, owner_id: Id("owner"), title: str, note: str | None = None) -> dict:
        """Add an active item to an owner's list.

        Args:
            title: what the item is, 1 to 80 characters, unique among the owner's items, such as 'Blue lamp'.
            note: an optional note, such as 'Needs a new bulb'.
        """
        owner = self.get(Owner, owner_id)
        item = Item(id=self.new_id("ITM"), owner_id=owner.id, title=self._title(owner.id, title),
                    note=(note or "").strip() or None, status="active", created_at=self.now)
        self.db.add(item)
        return _item(item)

    @tool(idempotent=True)
    def rename_item(self, item_id: Id("item"), title: str) -> dict:
        """Give an active item a new title.

        Args:
            title: the new title, 1 to 80 characters, unique among the owner's items, such as 'Desk lamp'.
        """
        item = self.get(Item, item_id)
        if item.status != "active":
            raise ToolError(f"Item {item.id} is {item.status}; only active items can be renamed")
        item.title = self._title(item.owner_id, title, but=item.id)
        return _item(item)

    @tool(idempotent=True, sets=("item.archived",))
    def archive_item(self, item_id: Id("item")) -> dict:
        """Archive an item: it stays listed, with status 'archived', and can then be deleted. An item
        already archived stays as it is (changed is false), so asking twice is harmless."""
        item = self.get(Item, item_id)
        if item.status == "archived":
            return {**_item(item), "changed": False}
        item.status = "archived"
        return {**_item(item), "changed": True}

    @tool(destructive=True, requires=("item.archived",))
    def delete_item(self, item_id: Id("item")) -> dict:
        """Delete an archived item for good. Active items must be archived first."""
        item = self.get(Item, item_id)
        if item.status != "archived":
            raise ToolError(f"Item {item.id} is {item.status}; archive it before deleting it")
        self.db.delete(item)
        return {"item_id": item.id, "deleted": True}

    @tool(read_only=True, hidden=True)
    def count_items(self) -> dict:
        """Debugging only: how many items each status has in the whole world."""
        return dict(self.db.execute(select(Item.status, func.count()).group_by(Item.status)).all())

    def _title(self, owner_id: str, title: str, but: str | None = None) -> str:
        title = title.strip()
        if not 1 <= len(title) <= MAX_TITLE:
            raise ToolError(f"title must be 1 to {MAX_TITLE} characters, got {len(title)}")
        taken = self.db.scalar(select(Item.id).where(Item.owner_id == owner_id, func.lower(Item.title) == title.lower(),
                                                     Item.id != (but or "")))
        if taken is not None:
            raise ToolError(f"{owner_id} already has an item titled {title!r} ({taken})")
        return title


def _owner(owner: Owner) -> dict:
    return {"owner_id": owner.id, "name": owner.name, "email": owner.email}


def _item(item: Item) -> dict:
    return {"item_id": item.id, "owner_id": item.owner_id, "title": item.title, "status": item.status}
'''

SYNTH = '''"""How tasks are written for __NAME__: owners who introduce themselves by name and refer to
their items by title.

A request that asks to be told something declares its facts: the values of the serving call's
result the answer must state. Two items of each bundle are set aside for one kind of change only
(the item to delete, the item to archive), and the other requests leave them alone, so that no
request of a conversation undoes what a later one needs.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref

Bundle = dict[str, Any]
NEW_THINGS = ("Standing desk", "Coffee grinder", "Winter coat", "Drone", "Tripod", "Kayak paddle")


def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every owner whose name finds only them, with their items and the two set aside."""
    bundles = []
    for owner in read("find_owners", limit=100):
        if len(read("find_owners", name=owner["name"])) != 1:
            continue
        items = read("list_items", owner_id=owner["owner_id"])
        doomed = rng.choice(items)["item_id"] if items else None
        active = [i for i in items if i["status"] == "active" and i["item_id"] != doomed]
        shelved = rng.choice(active)["item_id"] if active else None
        bundles.append({"owner": owner, "items": items, "doomed": doomed, "shelved": shelved})
    return bundles


def _owner(b: Bundle) -> Ref:
    return Ref.of("owner", b["owner"])


def _item(b: Bundle, item: dict) -> Ref:
    return Ref.of("item", item, _owner(b))


def _titled(b: Bundle, item: dict) -> str:
    return f"my {item['title'].lower()}"


def _kept(b: Bundle) -> list[dict]:
    """Items no request deletes."""
    return [i for i in b["items"] if i["item_id"] != b["doomed"]]


def _set_aside(b: Bundle, key: str) -> dict | None:
    return next((i for i in b["items"] if i["item_id"] == b[key]), None)


goals = Goals()

goals.single("get_item", "item", pick=lambda b: [i for i in _kept(b) if i["status"] == "active"], name=_titled,
             owner=_owner, say=("Is {name} still active?", "Can you show me everything about {name}?"),
             terse="Details of {name}?", mention=lambda item: item["title"].lower(),
             facts=lambda r: [r["title"], r["status"]])


@goals.add("list_items", 0.7)
def list_items(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["items"]:
        return None
    return Ask({"owner_id": b["owner"]["owner_id"]}, say=rng.choice(["What items do I have?", "List my items, please."]),
               terse="My items?", refs=(_owner(b),), facts=lambda r: [i["title"] for i in r])


@goals.add("add_item")
def add_item(b: Bundle, rng: random.Random) -> Ask | None:
    title = rng.choice(NEW_THINGS)
    if any(i["title"].lower() == title.lower() for i in b["items"]):
        return None
    return Ask({"owner_id": b["owner"]["owner_id"], "title": title}, say=f"Please add a {title.lower()} to my items.",
               terse=f"Add item: {title}.", refs=(_owner(b),), mentions=(title.lower(),))


@goals.add("rename_item")
def rename_item(b: Bundle, rng: random.Random) -> Ask | None:
    items = [i for i in _kept(b) if i["status"] == "active" and i["item_id"] != b["shelved"]]
    if not items:
        return None
    item = rng.choice(items)
    title = f"{item['title']} (spare)"
    return Ask({"item_id": item["item_id"], "title": title},
               say=f"Rename {_titled(b, item)} to '{title}'.", terse=f"Rename {item['title']} to '{title}'.",
               refs=(_item(b, item),), mentions=(title,))


@goals.add("archive_item")
def archive_item(b: Bundle, rng: random.Random) -> Ask | None:
    item = _set_aside(b, "shelved")
    if item is None:
        return None
    return Ask({"item_id": item["item_id"]}, say=f"I don't use {_titled(b, item)} any more; please archive it.",
               terse=f"Archive {item['title']}.", refs=(_item(b, item),), mentions=(item["title"].lower(),))


@goals.add("delete_item")
def delete_item(b: Bundle, rng: random.Random) -> Ask | None:
    item = _set_aside(b, "doomed")
    if item is None:
        return None
    prior = () if item["status"] == "archived" else (("archive_item", {"item_id": item["item_id"]}),)
    return Ask({"item_id": item["item_id"]}, say=f"Get rid of {_titled(b, item)} for good.",
               terse=f"Delete {item['title']}.", refs=(_item(b, item),), mentions=(item["title"].lower(),),
               prior=prior)


def counts_request(b: Bundle, rng: random.Random) -> str | None:
    return "How many items are archived across everyone's lists, in total?"


recipe = Recipe(
    server="__NAME__",
    sample=sample,
    topics=("shopping",),  # what this server serves, from prove_env.synthesis.topics.TOPICS
    goals=goals.all,
    lookups=(
        Lookup("owner", "find_owners", args=lambda r: {"name": r.entity["name"]},
               intro=lambda r: (f"Hi, this is {r.entity['name']}.", f"{r.entity['name']} here.")),
        Lookup.under("item", "list_items"),
    ),
    hidden=(HiddenAsk("count_items", counts_request),),
)
'''

TESTS = '''"""The __NAME__ server's domain rules, through real MCP (the generic suite covers the rest)."""

from __future__ import annotations

import pytest


@pytest.fixture
def s(served):
    return served("__NAME__")


def first_owner_with(s, status: str) -> tuple[dict, dict]:
    for owner in s.ok("find_owners", limit=100):
        items = s.ok("list_items", owner_id=owner["owner_id"], status=status)
        if items:
            return owner, items[0]
    raise AssertionError(f"no owner holds an {status} item in the seed-0 world")


def unchanged(s, tool: str, match: str, **arguments) -> None:
    before = s.world.digest()
    s.fails(tool, match, **arguments)
    assert s.world.digest() == before, f"refused {tool} changed the world"


def test_find_owners_by_part_of_a_name(s):
    everyone = s.ok("find_owners", limit=100)
    assert len(everyone) == 30 and len({o["name"] for o in everyone}) == 30
    last = everyone[4]["name"].split()[-1]
    assert everyone[4] in s.ok("find_owners", name=last.upper())
    assert s.ok("find_owners", name="zzzz-nobody") == []


def test_list_and_get_items(s):
    owner, item = first_owner_with(s, "active")
    listed = s.ok("list_items", owner_id=owner["owner_id"])
    assert item in listed and all(i["owner_id"] == owner["owner_id"] for i in listed)
    full = s.ok("get_item", item_id=item["item_id"])
    assert full["title"] == item["title"] and "created_at" in full


def test_add_item_and_titles_are_unique_per_owner(s):
    owner, item = first_owner_with(s, "active")
    added = s.ok("add_item", owner_id=owner["owner_id"], title="  Kayak paddle ", note="Blue one")
    assert added["title"] == "Kayak paddle" and added["status"] == "active"
    unchanged(s, "add_item", "already has an item titled", owner_id=owner["owner_id"], title=item["title"].upper())
    unchanged(s, "add_item", "1 to 80 characters", owner_id=owner["owner_id"], title="   ")


def test_rename_only_active_items(s):
    _, item = first_owner_with(s, "active")
    assert s.ok("rename_item", item_id=item["item_id"], title="Renamed")["title"] == "Renamed"
    _, archived = first_owner_with(s, "archived")
    unchanged(s, "rename_item", "only active items can be renamed", item_id=archived["item_id"], title="New")


def test_archive_then_delete(s):
    _, item = first_owner_with(s, "active")
    unchanged(s, "delete_item", "archive it before deleting it", item_id=item["item_id"])
    archived = s.ok("archive_item", item_id=item["item_id"])
    assert archived == {**item, "status": "archived", "changed": True}
    before = s.world.digest()
    assert s.ok("archive_item", item_id=item["item_id"]) == {**archived, "changed": False}
    assert s.world.digest() == before, "archiving an archived item changed the world"
    assert s.ok("delete_item", item_id=item["item_id"]) == {"item_id": item["item_id"], "deleted": True}
    s.fails("get_item", "not found", item_id=item["item_id"])
'''
