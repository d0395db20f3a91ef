"""The food_delivery server's tools: owners and their items.

Rules, in one place:
- An item's title is 1 to 80 characters and unique among its owner's items.
- Only active items can be renamed or archived; only archived items can be deleted.
"""

from __future__ import annotations

from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Entity, Id, Limit, Toolkit, ToolError, tool

from .models import Base, Item, Owner
from .seed import seed

MAX_TITLE = 80


class FoodDeliveryServer(Toolkit):
    """Owners and the items they hold: look owners up, list, read, add, rename, archive and delete
    items."""

    name = "food_delivery"
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
        item = self._active(self.get(Item, item_id), "renamed")
        item.title = self._title(item.owner_id, title, but=item.id)
        return _item(item)

    @tool(idempotent=True, sets=("item.archived",))
    def archive_item(self, item_id: Id("item")) -> dict:
        """Archive an active item: it stays listed, with status 'archived', and can then be deleted."""
        item = self._active(self.get(Item, item_id), "archived")
        item.status = "archived"
        return _item(item)

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

    def _active(self, item: Item, action: str) -> Item:
        if item.status != "active":
            raise ToolError(f"Item {item.id} is {item.status}; only active items can be {action}")
        return item

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
