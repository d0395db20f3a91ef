"""The brokerage's tables. Money is a float rounded to cents, in USD; share quantities are whole
numbers.

An account's cash moves only with fills and cash transfers. An order that rests in the book
reserves what it would spend (`reserved`: cash for a buy, shares for a sell), so an account's
buying power is its cash less the cash its open buy orders reserve, and the shares it can sell
are those it holds less those its open sell orders reserve.

Fills and deposits settle on the next business day (`settles_on`, T+1); until then the money is
in the account's cash (it can be traded with) but not in its settled cash (it cannot be withdrawn).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Client(Base):
    """A person who holds brokerage accounts."""

    __tablename__ = "clients"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CLI-0003"
    first_name: Mapped[str]
    last_name: Mapped[str]
    email: Mapped[str]
    phone: Mapped[str]
    joined_at: Mapped[dt.datetime]

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Account(Base):
    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ACT-0007"
    client_id: Mapped[str] = mapped_column(ForeignKey("clients.id"), index=True)
    kind: Mapped[str]  # individual | ira | roth_ira | joint
    account_number: Mapped[str]  # 8 digits
    nickname: Mapped[str | None]
    cash: Mapped[float]
    status: Mapped[str]  # active | closed
    opened_at: Mapped[dt.datetime]


class Instrument(Base):
    """A stock or ETF with its current quote (frozen with the world's clock)."""

    __tablename__ = "instruments"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "INS-0012"
    symbol: Mapped[str] = mapped_column(unique=True)
    name: Mapped[str]
    kind: Mapped[str]  # stock | etf
    sector: Mapped[str]
    exchange: Mapped[str]  # NYSE | NASDAQ | NYSE Arca
    bid: Mapped[float]
    ask: Mapped[float]
    last: Mapped[float]
    prev_close: Mapped[float]
    volume: Mapped[int]
    day_open: Mapped[float]  # the day's open, high and low: low <= open, last <= high
    day_high: Mapped[float]
    day_low: Mapped[float]
    halted: Mapped[bool]
    halt_reason: Mapped[str | None]


class Price(Base):
    """One trading day's open, high, low, close and volume of an instrument."""

    __tablename__ = "prices"
    __table_args__ = (Index("ix_prices_instrument_day", "instrument_id", "day"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    instrument_id: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    day: Mapped[dt.date]
    open: Mapped[float]
    high: Mapped[float]
    low: Mapped[float]
    close: Mapped[float]
    volume: Mapped[int]


class Position(Base):
    """Shares of one instrument held in one account; a position sold down to 0 keeps its realised P&L."""

    __tablename__ = "positions"
    __table_args__ = (Index("ix_positions_account_instrument", "account_id", "instrument_id", unique=True),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "POS-0031"
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    instrument_id: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    quantity: Mapped[int]
    average_cost: Mapped[float]  # per share, 4 decimals
    realized_pnl: Mapped[float]
    opened_at: Mapped[dt.datetime]


class Order(Base):
    __tablename__ = "orders"
    __table_args__ = (Index("ix_orders_account_status", "account_id", "status"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ORD-0042"
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    instrument_id: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    side: Mapped[str]  # buy | sell
    order_type: Mapped[str]  # market | limit | stop
    quantity: Mapped[int]
    limit_price: Mapped[float | None]
    stop_price: Mapped[float | None]
    time_in_force: Mapped[str]  # day | gtc
    status: Mapped[str]  # open | filled | cancelled | expired
    reserved: Mapped[float]  # while open: cash (buy) or shares (sell) held back; else 0
    filled_quantity: Mapped[int]
    average_fill_price: Mapped[float | None]
    placed_at: Mapped[dt.datetime]
    updated_at: Mapped[dt.datetime]
    closed_at: Mapped[dt.datetime | None]
    note: Mapped[str | None] = mapped_column(default=None)


class Fill(Base):
    """An execution of (part of) an order at one price."""

    __tablename__ = "fills"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "FIL-0042"
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    instrument_id: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    side: Mapped[str]
    quantity: Mapped[int]
    price: Mapped[float]
    amount: Mapped[float]  # quantity * price
    realized_pnl: Mapped[float | None]  # sells only
    filled_at: Mapped[dt.datetime]
    settles_on: Mapped[dt.date]  # the next business day after the trade (T+1)


class CashTransfer(Base):
    """Money moved between the account and the client's linked bank account."""

    __tablename__ = "cash_transfers"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CSH-0004"
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    kind: Mapped[str]  # deposit | withdrawal
    amount: Mapped[float]  # greater than 0; a withdrawal takes it out
    created_at: Mapped[dt.datetime]
    settles_on: Mapped[dt.date]  # a deposit: the next business day; a withdrawal: the day it was made


class Watchlist(Base):
    __tablename__ = "watchlists"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "WCH-0005"
    client_id: Mapped[str] = mapped_column(ForeignKey("clients.id"), index=True)
    name: Mapped[str]
    created_at: Mapped[dt.datetime]


class WatchlistItem(Base):
    __tablename__ = "watchlist_items"
    __table_args__ = (Index("ix_watchlist_items", "watchlist_id", "instrument_id", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    watchlist_id: Mapped[str] = mapped_column(ForeignKey("watchlists.id"))
    instrument_id: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    added_at: Mapped[dt.datetime]


class Alert(Base):
    """A price alert: tell the client when an instrument's last price goes above or below a level."""

    __tablename__ = "alerts"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ALR-0009"
    client_id: Mapped[str] = mapped_column(ForeignKey("clients.id"), index=True)
    instrument_id: Mapped[str] = mapped_column(ForeignKey("instruments.id"))
    condition: Mapped[str]  # above | below
    price: Mapped[float]
    status: Mapped[str]  # active | triggered | deleted
    created_at: Mapped[dt.datetime]
    triggered_at: Mapped[dt.datetime | None]
