"""The travel agency's tables: airports, flights with per-cabin seats and fares, hotels with room
types, travellers, and itineraries holding flight and hotel bookings.

A cabin's seats are the agency's booked passengers, the seats held by passengers who booked
elsewhere (named, so the seat map shows them taken), and the seats left for sale."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class Airport(Base):
    __tablename__ = "airports"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # IATA code, "DEN"
    name: Mapped[str]
    city: Mapped[str] = mapped_column(index=True)


class Flight(Base):
    __tablename__ = "flights"
    __table_args__ = (Index("ix_flight_route_day", "origin", "destination", "day"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "FLT-0007"
    number: Mapped[str]  # "TB 412"
    origin: Mapped[str] = mapped_column(ForeignKey("airports.id"))
    destination: Mapped[str] = mapped_column(ForeignKey("airports.id"))
    day: Mapped[dt.date]
    departs_at: Mapped[dt.datetime]
    arrives_at: Mapped[dt.datetime]
    economy_seats_left: Mapped[int]
    economy_fare: Mapped[float]
    business_seats_left: Mapped[int]
    business_fare: Mapped[float]
    # the seats held by passengers who booked elsewhere, in seat map order: "10B 12F 31C" ('' when none)
    economy_held_elsewhere: Mapped[str]
    business_held_elsewhere: Mapped[str]
    status: Mapped[str]  # scheduled | cancelled


class Hotel(Base):
    __tablename__ = "hotels"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "HTL-0003"
    name: Mapped[str]
    city: Mapped[str] = mapped_column(index=True)
    stars: Mapped[int]

    room_types: Mapped[list[RoomType]] = relationship(order_by="RoomType.id", viewonly=True)


class RoomType(Base):
    __tablename__ = "room_types"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "RMT-0010"
    hotel_id: Mapped[str] = mapped_column(ForeignKey("hotels.id"), index=True)
    name: Mapped[str]  # "Standard King"
    max_guests: Mapped[int]
    nightly_price: Mapped[float]
    rooms: Mapped[int]  # rooms of this type the hotel sells each night


class Traveller(Base):
    __tablename__ = "travellers"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "TRV-0004"
    name: Mapped[str]
    email: Mapped[str]
    date_of_birth: Mapped[dt.date]
    loyalty_number: Mapped[str | None]
    loyalty_tier: Mapped[str]  # none | silver | gold

    itineraries: Mapped[list[Itinerary]] = relationship(order_by="Itinerary.id", viewonly=True)
    flight_bookings: Mapped[list[FlightBooking]] = relationship(order_by="FlightBooking.id", viewonly=True)
    hotel_bookings: Mapped[list[HotelBooking]] = relationship(order_by="HotelBooking.id", viewonly=True)


class Itinerary(Base):
    __tablename__ = "itineraries"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ITN-0002"
    traveller_id: Mapped[str] = mapped_column(ForeignKey("travellers.id"), index=True)
    name: Mapped[str]
    created_at: Mapped[dt.datetime]


class FlightBooking(Base):
    __tablename__ = "flight_bookings"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "FBK-0012"
    itinerary_id: Mapped[str] = mapped_column(ForeignKey("itineraries.id"), index=True)
    traveller_id: Mapped[str] = mapped_column(ForeignKey("travellers.id"), index=True)
    flight_id: Mapped[str] = mapped_column(ForeignKey("flights.id"), index=True)
    cabin: Mapped[str]  # economy | business
    fare_type: Mapped[str]  # basic (non-refundable) | flex (refundable)
    price_paid: Mapped[float]  # the fare paid, differences of changes included (never the change fees)
    seat: Mapped[str | None]
    bags: Mapped[int]
    bag_fees: Mapped[float]
    change_fees: Mapped[float]  # the change fees paid, kept apart from the fare: never credit
    refund: Mapped[float]  # what cancelling gave back (0 while booked)
    status: Mapped[str]  # booked | cancelled
    booked_at: Mapped[dt.datetime]


class HotelBooking(Base):
    __tablename__ = "hotel_bookings"
    __table_args__ = (Index("ix_stay_room_status", "room_type_id", "status"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "HBK-0005"
    itinerary_id: Mapped[str] = mapped_column(ForeignKey("itineraries.id"), index=True)
    traveller_id: Mapped[str] = mapped_column(ForeignKey("travellers.id"), index=True)
    room_type_id: Mapped[str] = mapped_column(ForeignKey("room_types.id"))
    check_in: Mapped[dt.date]
    check_out: Mapped[dt.date]
    guests: Mapped[int]
    rate: Mapped[str]  # refundable | nonrefundable
    total_price: Mapped[float]
    refund: Mapped[float]  # what cancelling gave back (0 while booked)
    request: Mapped[str | None]  # a special request to the hotel, such as 'Late arrival'
    status: Mapped[str]  # booked | cancelled
