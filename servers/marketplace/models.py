"""The marketplace's tables. Amounts are USD floats rounded to cents.

Members both sell and buy. A listing is sold at a fixed price (optionally accepting offers) or by
auction (start price, hidden reserve, end time). Auctions take bids; fixed-price listings take
offers the seller accepts or declines. Winning an auction, buying at the fixed price or an
accepted offer creates an order, which the seller ships and, once delivered, either party rates
with feedback. Members watch listings on a watchlist.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Member(Base):
    __tablename__ = "members"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "MEM-0003"
    name: Mapped[str] = mapped_column(index=True)
    username: Mapped[str] = mapped_column(index=True)
    city: Mapped[str]
    joined_at: Mapped[dt.datetime]
    # ratings received, kept with the member as the feedback profile shows them
    positive: Mapped[int] = mapped_column(default=0)
    neutral: Mapped[int] = mapped_column(default=0)
    negative: Mapped[int] = mapped_column(default=0)


class Listing(Base):
    __tablename__ = "listings"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "LST-0012"
    seller_id: Mapped[str] = mapped_column(ForeignKey("members.id"), index=True)
    title: Mapped[str] = mapped_column(index=True)
    category: Mapped[str] = mapped_column(index=True)
    condition: Mapped[str]  # new | like_new | used | for_parts
    format: Mapped[str]  # fixed_price | auction
    price: Mapped[float | None]  # fixed price
    accepts_offers: Mapped[bool]
    start_price: Mapped[float | None]  # auction
    reserve_price: Mapped[float | None]  # auction, hidden from buyers
    high_bid: Mapped[float | None]
    high_bidder_id: Mapped[str | None] = mapped_column(ForeignKey("members.id"))
    bid_count: Mapped[int]
    status: Mapped[str] = mapped_column(index=True)  # active | sold | ended
    created_at: Mapped[dt.datetime]
    end_time: Mapped[dt.datetime]
    relisted_as: Mapped[str | None]


class Bid(Base):
    __tablename__ = "bids"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "BID-0040"
    listing_id: Mapped[str] = mapped_column(ForeignKey("listings.id"), index=True)
    bidder_id: Mapped[str] = mapped_column(ForeignKey("members.id"), index=True)
    amount: Mapped[float]
    placed_at: Mapped[dt.datetime]


class Offer(Base):
    __tablename__ = "offers"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "OFR-0008"
    listing_id: Mapped[str] = mapped_column(ForeignKey("listings.id"), index=True)
    buyer_id: Mapped[str] = mapped_column(ForeignKey("members.id"), index=True)
    amount: Mapped[float]
    message: Mapped[str | None]
    status: Mapped[str]  # pending | accepted | declined
    made_at: Mapped[dt.datetime]


class Order(Base):
    __tablename__ = "orders"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ORD-0005"
    listing_id: Mapped[str] = mapped_column(ForeignKey("listings.id"), index=True)
    buyer_id: Mapped[str] = mapped_column(ForeignKey("members.id"), index=True)
    seller_id: Mapped[str] = mapped_column(ForeignKey("members.id"), index=True)
    price: Mapped[float]
    how: Mapped[str]  # auction | buy_it_now | offer
    status: Mapped[str]  # paid | shipped | delivered
    ordered_at: Mapped[dt.datetime]
    carrier: Mapped[str | None]
    tracking_number: Mapped[str | None]
    shipped_at: Mapped[dt.datetime | None]
    delivered_at: Mapped[dt.datetime | None]


class Feedback(Base):
    __tablename__ = "feedback"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "FBK-0002"
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    author_id: Mapped[str] = mapped_column(ForeignKey("members.id"))
    subject_id: Mapped[str] = mapped_column(ForeignKey("members.id"), index=True)
    rating: Mapped[str]  # positive | neutral | negative
    comment: Mapped[str]
    left_at: Mapped[dt.datetime]


class Watch(Base):
    __tablename__ = "watchlist"

    member_id: Mapped[str] = mapped_column(ForeignKey("members.id"), primary_key=True)
    listing_id: Mapped[str] = mapped_column(ForeignKey("listings.id"), primary_key=True)
    added_at: Mapped[dt.datetime]
