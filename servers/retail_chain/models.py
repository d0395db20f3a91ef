"""The chain's tables: stores, the catalogue, each store's stock line of a product, and the
movements of stock (transfers between stores, pick-up reservations, restock orders).

A stock line's `on_hand` is what is physically in the store. Active reservations whose hold has
not expired set part of it aside: what is *available* is on hand minus those holds. Stock sent on
a transfer leaves the source at once and reaches the destination only when the transfer is
received.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Store(Base):
    __tablename__ = "stores"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "STR-0003"
    name: Mapped[str]  # "Pearl District": unique in the chain
    address: Mapped[str]
    city: Mapped[str] = mapped_column(index=True)
    state: Mapped[str]
    zip_code: Mapped[str]
    phone: Mapped[str]
    latitude: Mapped[float]
    longitude: Mapped[float]
    opens: Mapped[str]  # "08:00"
    closes: Mapped[str]  # "21:00"
    sunday_opens: Mapped[str | None]  # None: closed on Sundays
    sunday_closes: Mapped[str | None]
    status: Mapped[str]  # open | closed (closed for renovation: no transfers, reservations or restocks)
    manager: Mapped[str]


class Product(Base):
    __tablename__ = "products"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PRD-0012"
    name: Mapped[str]  # unique in the catalogue
    category: Mapped[str]
    brand: Mapped[str]
    sku: Mapped[str]
    list_price: Mapped[float]  # the chain's price; a store may only sell at or below it
    discontinued: Mapped[bool]  # sold while stock lasts, never reordered


class Stock(Base):
    """One store's line of one product."""

    __tablename__ = "stock"

    store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"), primary_key=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"), primary_key=True)
    price: Mapped[float]
    on_hand: Mapped[int]
    reorder_point: Mapped[int]  # at or below this many available, the line is low

    __table_args__ = (Index("ix_stock_product", "product_id"),)


class Transfer(Base):
    __tablename__ = "transfers"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "TRF-0004"
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    from_store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"), index=True)
    to_store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"), index=True)
    quantity: Mapped[int]
    status: Mapped[str]  # in_transit | received
    created_at: Mapped[dt.datetime]
    received_at: Mapped[dt.datetime | None]


class Reservation(Base):
    __tablename__ = "reservations"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "RSV-0021"
    store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"), index=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    customer_name: Mapped[str]
    quantity: Mapped[int]
    note: Mapped[str | None]  # for the pick-up counter, such as 'Paid online'
    status: Mapped[str]  # active | collected | cancelled (an active one past expires_at has expired)
    created_at: Mapped[dt.datetime]
    expires_at: Mapped[dt.datetime]
    closed_at: Mapped[dt.datetime | None]


class RestockOrder(Base):
    __tablename__ = "restock_orders"
    # What a store has on order of one product is summed along it (`low_stock_report`, `get_stock`).
    __table_args__ = (Index("ix_restock_orders_store_product", "store_id", "product_id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "RST-0008"
    store_id: Mapped[str] = mapped_column(ForeignKey("stores.id"))
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    quantity: Mapped[int]
    status: Mapped[str]  # placed | delivered | cancelled
    created_at: Mapped[dt.datetime]
    expected_on: Mapped[dt.date]
    delivered_at: Mapped[dt.datetime | None]
