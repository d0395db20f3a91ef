"""The travel agency's tables: airlines with their currencies and the exchange rates the agency
converts at, airports, flights with per-cabin seats and fares, hotels with room types,
travellers with their payment methods, itineraries holding flight and hotel bookings (a flight
booking may carry companions), the ledger of every charge and refund, and support cases.

A cabin's seats are the agency's passengers (bookings and their companions), the seats held by
passengers who booked elsewhere (named, so the seat map shows them taken), and the seats left for
sale. Money moves only through the ledger: a voucher's or gift card's balance is what it was
issued with, less what it paid, plus what came back to it."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class Airline(Base):
    __tablename__ = "airlines"

    code: Mapped[str] = mapped_column(String, primary_key=True)  # "TB"
    name: Mapped[str]  # "Trailblazer Air"
    currency: Mapped[str] = mapped_column(ForeignKey("exchange_rates.currency"))  # fares are in it


class ExchangeRate(Base):
    __tablename__ = "exchange_rates"

    currency: Mapped[str] = mapped_column(String, primary_key=True)  # "GBP"
    usd_per_unit: Mapped[float]  # 1 GBP = 1.2731 USD
    as_of: Mapped[dt.date]


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
    airline: Mapped[str] = mapped_column(ForeignKey("airlines.code"))
    origin: Mapped[str] = mapped_column(ForeignKey("airports.id"))
    destination: Mapped[str] = mapped_column(ForeignKey("airports.id"))
    day: Mapped[dt.date]
    departs_at: Mapped[dt.datetime]
    arrives_at: Mapped[dt.datetime]
    # fares are per person, the basic fare, in the airline's currency
    economy_seats_left: Mapped[int]
    economy_fare: Mapped[float]
    business_seats_left: Mapped[int]
    business_fare: Mapped[float]
    first_seats_left: Mapped[int]  # 0 where the aircraft has no first cabin
    first_fare: Mapped[float | None]  # None: no first cabin on this flight
    # the seats of each cabin the agency sells, in seat map order: those its passengers hold or will pick,
    # and those left for sale ("10B 12F 31C"); every other seat of the cabin is held by a passenger who booked
    # elsewhere ('' with no first cabin)
    economy_agency_seats: Mapped[str]
    business_agency_seats: Mapped[str]
    first_agency_seats: Mapped[str]
    status: Mapped[str]  # scheduled | cancelled (by the airline)


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
    payment_methods: Mapped[list[PaymentMethod]] = relationship(order_by="PaymentMethod.id", viewonly=True)
    cases: Mapped[list[SupportCase]] = relationship(order_by="SupportCase.id", viewonly=True)


class PaymentMethod(Base):
    """A card on file, an airline's travel voucher, or an agency gift card, all in USD. A card has
    no balance the agency knows of; a voucher or gift card has one."""

    __tablename__ = "payment_methods"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PAY-0003"
    traveller_id: Mapped[str] = mapped_column(ForeignKey("travellers.id"), index=True)
    kind: Mapped[str]  # card | voucher | gift_card
    brand: Mapped[str | None]  # a card's network: Visa | Mastercard | American Express
    last4: Mapped[str | None]  # a card's last four digits
    code: Mapped[str | None]  # a voucher's or gift card's code, such as 'TBV-7K2M9Q'
    airline: Mapped[str | None] = mapped_column(ForeignKey("airlines.code"))  # the airline a voucher is credit with
    amount_issued: Mapped[float | None]  # what a voucher or gift card was issued with
    balance: Mapped[float | None]  # what a voucher or gift card has left (None for a card)
    expires_on: Mapped[dt.date | None]  # a card's last valid day, a voucher's expiry (gift cards never expire)
    added_at: Mapped[dt.datetime]


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
    cabin: Mapped[str]  # economy | business | first
    fare_type: Mapped[str]  # basic (non-refundable) | flex (refundable)
    price_paid: Mapped[float]  # the fare paid in USD for every passenger, differences of changes included (never fees)
    seat: Mapped[str | None]  # the traveller's own seat (companions have theirs)
    bags: Mapped[int]
    bag_fees: Mapped[float]
    change_fees: Mapped[float]  # the change fees paid, kept apart from the fare: never credit
    insurance: Mapped[bool]  # travel insurance bought with the booking
    insurance_cost: Mapped[float]
    refund: Mapped[float]  # what cancelling gave back (0 while booked)
    status: Mapped[str]  # booked | cancelled
    booked_at: Mapped[dt.datetime]
    cancelled_at: Mapped[dt.datetime | None]
    cancel_reason: Mapped[str | None]  # change_of_plans | illness | family_emergency

    companions: Mapped[list[Companion]] = relationship(order_by="Companion.id", viewonly=True)


class Companion(Base):
    """Someone flying on another traveller's booking, named as on their ID."""

    __tablename__ = "companions"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PSG-0002"
    booking_id: Mapped[str] = mapped_column(ForeignKey("flight_bookings.id"), index=True)
    name: Mapped[str]
    seat: Mapped[str | None]


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
    booked_at: Mapped[dt.datetime]
    cancelled_at: Mapped[dt.datetime | None]


class LedgerEntry(Base):
    """One movement of money: a charge to a payment method, or a refund to it, for one item of
    one flight booking or stay. Fees are items of their own, never part of the fare."""

    __tablename__ = "ledger"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "TXN-0007"
    traveller_id: Mapped[str] = mapped_column(ForeignKey("travellers.id"), index=True)
    payment_method_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"), index=True)
    booking_id: Mapped[str | None] = mapped_column(ForeignKey("flight_bookings.id"), index=True)
    stay_id: Mapped[str | None] = mapped_column(ForeignKey("hotel_bookings.id"), index=True)
    kind: Mapped[str]  # charge | refund
    item: Mapped[str]  # fare | bag_fee | change_fee | insurance | hotel
    reason: Mapped[str]  # booking | bags | change | upgrade | downgrade | cancellation
    amount: Mapped[float]  # USD, greater than 0
    created_at: Mapped[dt.datetime]


class SupportCase(Base):
    """A request to the agency's staff for what the tools cannot do (a name correction, a refund
    exception, special assistance), with its notes."""

    __tablename__ = "support_cases"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CAS-0004": the case's reference
    traveller_id: Mapped[str] = mapped_column(ForeignKey("travellers.id"), index=True)
    topic: Mapped[str]  # name_correction | special_assistance | refund | schedule_change | baggage | other
    booking_id: Mapped[str | None] = mapped_column(ForeignKey("flight_bookings.id"))
    stay_id: Mapped[str | None] = mapped_column(ForeignKey("hotel_bookings.id"))
    description: Mapped[str]
    status: Mapped[str]  # open | in_progress | resolved | closed
    created_at: Mapped[dt.datetime]
    updated_at: Mapped[dt.datetime]

    notes: Mapped[list[CaseNote]] = relationship(order_by="CaseNote.id", viewonly=True)


class CaseNote(Base):
    __tablename__ = "case_notes"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CNT-0009"
    case_id: Mapped[str] = mapped_column(ForeignKey("support_cases.id"), index=True)
    author: Mapped[str]  # traveller | agency
    text: Mapped[str]
    created_at: Mapped[dt.datetime]
