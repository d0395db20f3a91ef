"""The map's tables: cities, their road network (intersections and road segments), street
addresses, points of interest, and the people whose saved places and lists are the only state a
user changes."""

from __future__ import annotations

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class City(Base):
    __tablename__ = "cities"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CTY-0002"
    name: Mapped[str]
    state: Mapped[str]
    latitude: Mapped[float]
    longitude: Mapped[float]
    has_transit: Mapped[bool]


class Node(Base):
    """An intersection of the road network."""

    __tablename__ = "nodes"

    id: Mapped[int] = mapped_column(primary_key=True)
    city_id: Mapped[str] = mapped_column(ForeignKey("cities.id"), index=True)
    latitude: Mapped[float]
    longitude: Mapped[float]


class Segment(Base):
    """A stretch of one street between two intersections, usable both ways."""

    __tablename__ = "segments"

    id: Mapped[int] = mapped_column(primary_key=True)
    city_id: Mapped[str] = mapped_column(ForeignKey("cities.id"), index=True)
    a: Mapped[int] = mapped_column(ForeignKey("nodes.id"))
    b: Mapped[int] = mapped_column(ForeignKey("nodes.id"))
    street: Mapped[str]
    length_m: Mapped[float]
    speed_kmh: Mapped[int]  # 0: closed to cars (a pedestrian street)
    bus_line: Mapped[str | None]  # the bus line running along it, if any


class Address(Base):
    __tablename__ = "addresses"
    __table_args__ = (Index("ix_addresses_city_street", "city_id", "street"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ADR-0041"
    city_id: Mapped[str] = mapped_column(ForeignKey("cities.id"))
    number: Mapped[int]
    street: Mapped[str]
    label: Mapped[str]  # "41 Maple Street, Riverton"
    latitude: Mapped[float]
    longitude: Mapped[float]
    node_id: Mapped[int] = mapped_column(ForeignKey("nodes.id"))  # the nearest intersection along its street
    offset_m: Mapped[float]  # the distance along the street to that intersection
    pedestrian: Mapped[bool]  # on a street closed to cars


class Place(Base):
    """A point of interest at a street address."""

    __tablename__ = "places"
    __table_args__ = (Index("ix_places_city_category", "city_id", "category"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PLC-0107"
    city_id: Mapped[str] = mapped_column(ForeignKey("cities.id"))
    address_id: Mapped[str] = mapped_column(ForeignKey("addresses.id"))
    name: Mapped[str]
    category: Mapped[str]
    rating: Mapped[float]  # 1.0 to 5.0, one decimal
    review_count: Mapped[int]
    price_level: Mapped[int]  # 1 ($) to 4 ($$$$)
    phone: Mapped[str]
    opens: Mapped[int]  # minutes after midnight
    closes: Mapped[int]  # minutes after midnight; above 1440 runs past midnight; opens == closes: all day
    closed_weekday: Mapped[int | None]  # 0 Monday ... 6 Sunday: closed all that day
    status: Mapped[str]  # operational | permanently_closed


class User(Base):
    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "USR-0004"
    name: Mapped[str]
    email: Mapped[str]
    home_city_id: Mapped[str] = mapped_column(ForeignKey("cities.id"))


class SavedPlace(Base):
    __tablename__ = "saved_places"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "SAV-0012"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    place_id: Mapped[str] = mapped_column(ForeignKey("places.id"))
    label: Mapped[str | None]


class PlaceList(Base):
    __tablename__ = "place_lists"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "LST-0006"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str]


class ListEntry(Base):
    __tablename__ = "list_entries"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ENT-0030"
    list_id: Mapped[str] = mapped_column(ForeignKey("place_lists.id"), index=True)
    place_id: Mapped[str] = mapped_column(ForeignKey("places.id"))
    note: Mapped[str | None]
