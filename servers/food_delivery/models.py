"""The delivery app's tables. Money is a float rounded to cents, in USD; distances are in miles
on a city grid (each neighborhood has a centre point)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Customer(Base):
    __tablename__ = "customers"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CUS-0003"
    name: Mapped[str]
    email: Mapped[str]
    phone: Mapped[str]


class Address(Base):
    __tablename__ = "addresses"
    __table_args__ = (Index("ix_addresses_customer", "customer_id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ADR-0005"
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"))
    label: Mapped[str]  # Home, Work, ...
    street: Mapped[str]
    neighborhood: Mapped[str]


class Restaurant(Base):
    __tablename__ = "restaurants"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "RST-0004"
    name: Mapped[str]
    cuisine: Mapped[str]
    rating: Mapped[float]
    neighborhood: Mapped[str]
    opens_at: Mapped[int]  # minutes after midnight
    closes_at: Mapped[int]  # minutes after midnight; before opens_at when open past midnight
    delivery_radius: Mapped[float]  # miles
    delivery_fee: Mapped[float]
    min_order: Mapped[float]


class MenuItem(Base):
    __tablename__ = "menu_items"
    __table_args__ = (Index("ix_menu_items_restaurant", "restaurant_id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ITM-0042"
    restaurant_id: Mapped[str] = mapped_column(ForeignKey("restaurants.id"))
    name: Mapped[str]
    category: Mapped[str]
    price: Mapped[float]
    options: Mapped[str]  # "Large:2.5;Extra cheese:1.0" ('' when none)
    available: Mapped[bool]


class Cart(Base):
    """One cart per customer and restaurant."""

    __tablename__ = "carts"
    __table_args__ = (Index("ix_carts_customer", "customer_id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CRT-0002"
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"))
    restaurant_id: Mapped[str] = mapped_column(ForeignKey("restaurants.id"))


class CartLine(Base):
    __tablename__ = "cart_lines"
    __table_args__ = (Index("ix_cart_lines_cart", "cart_id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CLN-0010"
    cart_id: Mapped[str] = mapped_column(ForeignKey("carts.id"))
    item_id: Mapped[str] = mapped_column(ForeignKey("menu_items.id"))
    option: Mapped[str | None]
    quantity: Mapped[int]


class Promo(Base):
    __tablename__ = "promos"

    code: Mapped[str] = mapped_column(String, primary_key=True)  # "SAVE10"
    percent_off: Mapped[float | None]
    amount_off: Mapped[float | None]
    min_subtotal: Mapped[float]
    restaurant_id: Mapped[str | None] = mapped_column(ForeignKey("restaurants.id"))
    expires_on: Mapped[dt.date]
    once_per_customer: Mapped[bool]


class Order(Base):
    """An order; its stage follows from placed_at and the clock unless it was cancelled."""

    __tablename__ = "orders"
    __table_args__ = (Index("ix_orders_customer", "customer_id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ORD-0031"
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"))
    restaurant_id: Mapped[str] = mapped_column(ForeignKey("restaurants.id"))
    address_id: Mapped[str] = mapped_column(ForeignKey("addresses.id"))
    placed_at: Mapped[dt.datetime]
    subtotal: Mapped[float]
    delivery_fee: Mapped[float]
    discount: Mapped[float]
    tip: Mapped[float]
    total: Mapped[float]
    promo_code: Mapped[str | None]
    cancelled_at: Mapped[dt.datetime | None]
    rating: Mapped[int | None]
    comment: Mapped[str | None]


class OrderLine(Base):
    __tablename__ = "order_lines"
    __table_args__ = (Index("ix_order_lines_order", "order_id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "OLN-0100"
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"))
    item_id: Mapped[str] = mapped_column(ForeignKey("menu_items.id"))
    name: Mapped[str]
    option: Mapped[str | None]
    quantity: Mapped[int]
    unit_price: Mapped[float]
