"""The food_delivery server's domain rules, through real MCP (the generic suite covers the rest)."""

from __future__ import annotations

import pytest


@pytest.fixture
def s(served):
    return served("food_delivery")


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
    assert s.ok("archive_item", item_id=item["item_id"])["status"] == "archived"
    unchanged(s, "archive_item", "only active items can be archived", item_id=item["item_id"])
    assert s.ok("delete_item", item_id=item["item_id"]) == {"item_id": item["item_id"], "deleted": True}
    s.fails("get_item", "not found", item_id=item["item_id"])
