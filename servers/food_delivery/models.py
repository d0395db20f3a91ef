"""The server's tables: owners and the items they hold.

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
