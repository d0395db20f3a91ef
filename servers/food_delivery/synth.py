"""How tasks are written for food_delivery: owners who introduce themselves by name and refer to
their items by title."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref

Bundle = dict[str, Any]
NEW_THINGS = ("Standing desk", "Coffee grinder", "Winter coat", "Drone", "Tripod", "Kayak paddle")


def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every owner whose name finds only them, with their items."""
    bundles = []
    for owner in read("find_owners", limit=100):
        if len(read("find_owners", name=owner["name"])) == 1:
            bundles.append({"owner": owner, "items": read("list_items", owner_id=owner["owner_id"])})
    return bundles


def _owner(b: Bundle) -> Ref:
    return Ref.of("owner", b["owner"])


def _item(b: Bundle, item: dict) -> Ref:
    return Ref.of("item", item, _owner(b))


def _titled(b: Bundle, item: dict) -> str:
    return f"my {item['title'].lower()}"


def _active(b: Bundle) -> list[dict]:
    return [i for i in b["items"] if i["status"] == "active"]


goals = Goals()

goals.single("get_item", "item", pick=lambda b: b["items"], name=_titled, owner=_owner,
             say=("What note did I leave on {name}?", "Can you show me everything about {name}?"),
             terse="Details of {name}?", mention=lambda item: item["title"].lower())


@goals.add("list_items", 0.7)
def list_items(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({"owner_id": b["owner"]["owner_id"]}, say=rng.choice(["What items do I have?", "List my items, please."]),
               terse="My items?", refs=(_owner(b),))


@goals.add("add_item")
def add_item(b: Bundle, rng: random.Random) -> Ask | None:
    title = rng.choice(NEW_THINGS)
    if any(i["title"].lower() == title.lower() for i in b["items"]):
        return None
    return Ask({"owner_id": b["owner"]["owner_id"], "title": title}, say=f"Please add a {title.lower()} to my items.",
               terse=f"Add item: {title}.", refs=(_owner(b),), mentions=(title.lower(),))


@goals.add("rename_item")
def rename_item(b: Bundle, rng: random.Random) -> Ask | None:
    items = _active(b)
    if not items:
        return None
    item = rng.choice(items)
    title = f"{item['title']} (spare)"
    return Ask({"item_id": item["item_id"], "title": title},
               say=f"Rename {_titled(b, item)} to '{title}'.", terse=f"Rename {item['title']} to '{title}'.",
               refs=(_item(b, item),), mentions=(title,))


@goals.add("archive_item")
def archive_item(b: Bundle, rng: random.Random) -> Ask | None:
    items = _active(b)
    if not items:
        return None
    item = rng.choice(items)
    return Ask({"item_id": item["item_id"]}, say=f"I don't use {_titled(b, item)} any more; please archive it.",
               terse=f"Archive {item['title']}.", refs=(_item(b, item),), mentions=(item["title"].lower(),))


@goals.add("delete_item")
def delete_item(b: Bundle, rng: random.Random) -> Ask | None:
    items = b["items"]
    if not items:
        return None
    item = rng.choice(items)
    prior = () if item["status"] == "archived" else (("archive_item", {"item_id": item["item_id"]}),)
    return Ask({"item_id": item["item_id"]}, say=f"Get rid of {_titled(b, item)} for good.",
               terse=f"Delete {item['title']}.", refs=(_item(b, item),), mentions=(item["title"].lower(),),
               prior=prior)


def counts_request(b: Bundle, rng: random.Random) -> str | None:
    return "How many items are archived across everyone's lists, in total?"


recipe = Recipe(
    server="food_delivery",
    sample=sample,
    topics=("shopping",),  # what this server serves, from prove_env.synthesis.perturb.TOPICS
    goals=goals.all,
    lookups=(
        Lookup("owner", "find_owners", args=lambda r: {"name": r.entity["name"]},
               intro=lambda r: (f"Hi, this is {r.entity['name']}.", f"{r.entity['name']} here.")),
        Lookup.under("item", "list_items"),
    ),
    hidden=(HiddenAsk("count_items", counts_request),),
)
