"""The travel_booking server's tools: travellers and their payment methods, flight and hotel search,
itineraries, bookings and what they cost, and support cases.

Rules, in one place:
- Nothing departing or checking in before today can be booked; a flight or cabin without a seat
  for every passenger, or a room type with no room left on any night of a stay, refuses the
  booking (no overbooking). First cabins fly on a few routes only.
- A cabin's seats are the agency's passengers (each booking's traveller and companions), the seats
  held by passengers who booked elsewhere, and the seats left: booking takes one for each
  passenger, cancelling gives them back. The seat map shows every seat no passenger holds.
- A passenger is on a flight once: a traveller, or a companion's name, already aboard is refused.
- Fares are per passenger, in the airline's currency, and charged in USD at the agency's exchange
  rate. 'basic' is non-refundable, and a change costs a $99 fee (waived for gold members) plus
  any fare difference; 'flex' costs 35% more, changes without a fee and is refundable. Travel
  insurance costs $30 a passenger, bought with the booking only.
- Money: a booking or stay is paid by a named payment method of its traveller: a card that has
  not expired, an airline's travel voucher (its own flights only, within its balance and before
  its expiry) or a gift card (within its balance). Bags, changes and upgrades are charged to the
  method given, or else to the one that paid the fare. Every charge and refund is a ledger entry
  of one item (fare, bag fee, change fee, insurance, hotel): fees are never part of the fare.
  Refunds go back to the methods that were charged.
- Cancelling a flight booking refunds, in this order of rules: everything when the airline
  cancelled the flight or within 24 hours of booking; the fare, bag and change fees of a flex fare,
  or of an insured booking cancelled for illness or a family emergency; nothing for a basic fare
  otherwise. A flight that has departed can no longer be changed or cancelled.
- A change keeps the route and the cabin; a cabin change keeps the flight, charging the fare
  difference up or refunding it down (with the bags the new cabin includes). A flight the airline
  cancelled is rebooked on the same route without fee or fare difference.
- Checked bags: $35 each; business includes two a passenger, first three, and gold members one
  more a booking; at most 4 a passenger.
- Hotel rates: 'refundable' refunds in full before check-in; 'nonrefundable' is 15% cheaper and
  refunds nothing. Stays are 1 to 14 nights, guests at most the room type's maximum.
- Support cases take what the tools cannot do; one case per topic and booking until it is closed.
  A note on a resolved case reopens it; a closed case takes no notes.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Date, Detail, Entity, Id, Limit, Toolkit, ToolError, tool

from .models import (Airline, Airport, Base, CaseNote, Companion, ExchangeRate, Flight, FlightBooking, Hotel,
                     HotelBooking, Itinerary, LedgerEntry, PaymentMethod, RoomType, SupportCase, Traveller)
from .seed import CABINS, INSURANCE_PRICE, cabin_fare, fare_usd, held_elsewhere, money, seat_map, seed, unit_price

CHANGE_FEE = 99.0
FLEX_MARKUP = 1.35
BAG_FEE = 35.0
MAX_BAGS = 4  # a passenger
MAX_COMPANIONS = 5
NONREFUNDABLE_DISCOUNT = 0.85
MAX_NIGHTS = 14
FREE_CANCEL = dt.timedelta(hours=24)
INCLUDED_BAGS = {"economy": 0, "business": 2, "first": 3}
RANK = {"economy": 0, "business": 1, "first": 2}
COVERED = ("illness", "family_emergency")  # the reasons travel insurance refunds
FLIGHT_ITEMS = ("fare", "bag_fee", "change_fee", "insurance")
FEE_FIELD = {"fare": "price_paid", "bag_fee": "bag_fees", "change_fee": "change_fees", "insurance": "insurance_cost"}
Cabin = Literal["economy", "business", "first"]
FareType = Literal["basic", "flex"]
Rate = Literal["refundable", "nonrefundable"]
Reason = Literal["change_of_plans", "illness", "family_emergency"]
Topic = Literal["name_correction", "special_assistance", "refund", "schedule_change", "baggage", "other"]
CaseStatus = Literal["open", "in_progress", "resolved", "closed"]
_NAME = re.compile(r"[A-Za-z][A-Za-z'\-]*( [A-Za-z][A-Za-z'\-]*)+")
_CASE_TEXT = (Detail("support_cases", "description"), Detail("case_notes", "text"))

_money = money


class TravelBookingServer(Toolkit):
    """A travel agency: find travellers and their payment methods, search flights and hotels,
    build itineraries, book and pay, pick seats, add bags, upgrade, change or cancel under the fare
    rules, follow charges and refunds, and open support cases for what the tools cannot do."""

    name = "travel_booking"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("traveller", Traveller, "TRV", lookup="find_travellers"),
        Entity("flight", Flight, "FLT", lookup="search_flights"),
        Entity("hotel", Hotel, "HTL", lookup="search_hotels"),
        Entity("room_type", RoomType, "RMT", lookup="list_room_types"),
        Entity("itinerary", Itinerary, "ITN", lookup="list_itineraries"),
        Entity("booking", FlightBooking, "FBK", lookup="list_flight_bookings"),
        Entity("stay", HotelBooking, "HBK", lookup="list_hotel_bookings"),
        Entity("payment_method", PaymentMethod, "PAY", lookup="list_payment_methods"),
        Entity("case", SupportCase, "CAS", lookup="list_support_cases"),
    )

    # -- travellers ---------------------------------------------------------------------------

    @tool(read_only=True)
    def find_travellers(self, name: str | None = None, email: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find travellers whose name or email contains a text (ignoring case), ordered by id.

        Args:
            name: part of the traveller's name, such as 'Ada Park' or 'park'.
            email: part of the traveller's email, such as 'ada.park@example.com'.
        """
        return [_traveller(t) for t in self.find(Traveller, name=name, email=email, email_part=True, limit=limit)]

    @tool(read_only=True)
    def get_traveller(self, traveller_id: Id("traveller")) -> dict:
        """Return a traveller's profile: name, email, date of birth, loyalty number and tier."""
        t = self.get(Traveller, traveller_id)
        return {**_traveller(t), "date_of_birth": t.date_of_birth}

    @tool(idempotent=True)
    def set_loyalty_number(self, traveller_id: Id("traveller"), loyalty_number: str) -> dict:
        """Add or replace the loyalty number on a traveller's profile; setting the number it already
        has changes nothing.

        Args:
            loyalty_number: 'TB' followed by 8 digits, such as 'TB12345678'.
        """
        t = self.get(Traveller, traveller_id)
        number = loyalty_number.strip().upper().replace(" ", "")
        if not re.fullmatch(r"TB\d{8}", number):
            raise ToolError(f"loyalty number {loyalty_number!r} is not valid; it is 'TB' followed by 8 digits, "
                            "such as 'TB12345678'")
        taken = self.db.scalar(select(Traveller.id).where(Traveller.loyalty_number == number, Traveller.id != t.id))
        if taken:
            raise ToolError(f"loyalty number {number} belongs to another traveller; check the number on the card")
        t.loyalty_number = number
        return _traveller(t)

    # -- payment methods and the ledger -----------------------------------------------------------

    @tool(read_only=True)
    def list_payment_methods(self, traveller_id: Id("traveller")) -> list[dict]:
        """List a traveller's payment methods, ordered by id: cards (brand, last four digits,
        expiry), airline travel vouchers (code, airline, balance, expiry) and gift cards (code,
        balance), each saying whether it has expired. Amounts are in USD."""
        return [self._method(m) for m in self.get(Traveller, traveller_id).payment_methods]

    @tool(idempotent=True, produces=("payment_method",))
    def add_card(self, traveller_id: Id("traveller"), card_number: str, expiry: str) -> dict:
        """Save a card to a traveller's profile (Visa, Mastercard or American Express). Only the
        brand and the last four digits are kept. Saving a card already on file with a new expiry
        (a renewed card) updates the expiry; saving it as it is changes nothing.

        Args:
            card_number: the full card number, spaces allowed, such as '4111 1111 1111 1111'.
            expiry: the month and year printed on the card, 'MM/YY', such as '09/28'.
        """
        t = self.get(Traveller, traveller_id)
        digits = re.sub(r"[\s-]", "", card_number)
        brand = _brand(digits)
        if brand is None:
            raise ToolError("card number is not a Visa (16 digits from 4), Mastercard (16 digits from 51-55 or "
                            "2221-2720) or American Express (15 digits from 34 or 37); check the number")
        if not _luhn(digits):
            raise ToolError(f"card number ending {digits[-4:]} fails its check digit; check the number on the card")
        match = re.fullmatch(r"\s*(\d{1,2})\s*/\s*(\d{2}|\d{4})\s*", expiry)
        if not match or not 1 <= int(match.group(1)) <= 12:
            raise ToolError(f"expiry {expiry!r} is not valid; give the month and year on the card as 'MM/YY', "
                            "such as '09/28'")
        year = int(match.group(2)) + (2000 if len(match.group(2)) == 2 else 0)
        month = int(match.group(1))
        last_day = dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)
        if last_day < self.now.date():
            raise ToolError(f"this card expired at the end of {last_day:%m/%Y}; save a card that is still valid")
        same = next((m for m in t.payment_methods if m.kind == "card" and m.brand == brand
                     and m.last4 == digits[-4:]), None)
        if same is not None:
            renewed = same.expires_on != last_day
            same.expires_on = last_day
            return {**self._method(same), "renewed": renewed}
        method = PaymentMethod(id=self.new_id("PAY"), traveller_id=t.id, kind="card", brand=brand, last4=digits[-4:],
                               code=None, airline=None, amount_issued=None, balance=None, expires_on=last_day,
                               added_at=self.now)
        self.db.add(method)
        return {**self._method(method), "renewed": False}

    @tool(read_only=True)
    def list_transactions(self, traveller_id: Id("traveller"), payment_method_id: Id("payment_method") | None = None,
                          booking_id: Id("booking") | None = None, limit: Limit = 20) -> list[dict]:
        """List the charges and refunds of a traveller's bookings and stays, newest first: each
        with its item (fare, bag_fee, change_fee, insurance or hotel), why it happened (booking,
        bags, change, upgrade, downgrade or cancellation), the amount in USD and the payment method.

        Args:
            payment_method_id: only the entries of this payment method of the traveller.
            booking_id: only the entries of this flight booking of the traveller.
        """
        t = self.get(Traveller, traveller_id)
        query = select(LedgerEntry).where(LedgerEntry.traveller_id == t.id)
        if payment_method_id is not None:
            self._own(self.get(PaymentMethod, payment_method_id), t.id)
            query = query.where(LedgerEntry.payment_method_id == payment_method_id)
        if booking_id is not None:
            booking = self.get(FlightBooking, booking_id)
            if booking.traveller_id != t.id:
                raise ToolError(f"flight booking {booking.id} is not {t.name}'s; list_flight_bookings shows theirs")
            query = query.where(LedgerEntry.booking_id == booking_id)
        entries = self.db.scalars(query.order_by(LedgerEntry.created_at.desc(), LedgerEntry.id.desc()).limit(limit))
        return [self._entry(e) for e in entries]

    @tool(read_only=True)
    def get_exchange_rate(self, currency: str) -> dict:
        """The agency's exchange rate for a currency that fares are priced in (USD, GBP, EUR, CAD),
        which converts fares to the USD charged, and the airlines that price in it.

        Args:
            currency: a three-letter currency code, such as 'GBP'.
        """
        rate = self.db.get(ExchangeRate, currency.strip().upper())
        if rate is None:
            known = ", ".join(self.db.scalars(select(ExchangeRate.currency).order_by(ExchangeRate.currency)))
            raise ToolError(f"no exchange rate for {currency!r}; fares are priced in {known}")
        airlines = self.db.scalars(select(Airline.name).where(Airline.currency == rate.currency).order_by(Airline.code))
        return {"currency": rate.currency, "usd_per_unit": rate.usd_per_unit,
                "units_per_usd": round(1 / rate.usd_per_unit, 4), "as_of": rate.as_of, "airlines": list(airlines)}

    # -- flights --------------------------------------------------------------------------------

    @tool(read_only=True)
    def search_airports(self, text: str | None = None) -> list[dict]:
        """Find airports by city, name or code (part of it, ignoring case); all airports without a text.

        Args:
            text: a city, airport name or code, such as 'Denver', 'Kennedy' or 'SEA'.
        """
        return [{"code": a.id, "name": a.name, "city": a.city}
                for a in self.find(Airport, name=text, name_columns=("city", "name"), or_id=True)]

    @tool(read_only=True)
    def search_flights(self, origin: str, destination: str, date: Date, return_date: Date | None = None,
                       cabin: Cabin | None = None) -> list[dict]:
        """Search scheduled flights between two airports on a date, one-way or return, ordered by
        departure; with a cabin, only flights with a seat left in it. Each flight shows its airline,
        and per cabin the seats left and the basic fare for one passenger in the airline's currency
        with its USD equivalent (a flex fare costs 35% more); 'first' is null where the aircraft has
        no first cabin.

        Args:
            origin: the departure airport code, such as 'JFK'.
            destination: the arrival airport code, such as 'LAX'.
            date: the outbound day, such as '2026-03-14'.
            return_date: for a return trip, the day of the way back (flights from destination to origin).
            cabin: only flights with a seat left in this cabin.
        """
        origin, destination = self._airport(origin), self._airport(destination)
        if origin == destination:
            raise ToolError("origin and destination are the same airport; pick two different airports")
        if return_date is not None and return_date < date:
            raise ToolError(f"return date {return_date} is before the outbound date {date}; "
                            "the way back must be on or after it")
        legs = [("outbound", origin, destination, date)]
        if return_date is not None:
            legs.append(("return", destination, origin, return_date))
        found = []
        for direction, a, b, day in legs:
            query = select(Flight).where(Flight.origin == a, Flight.destination == b, Flight.day == day,
                                         Flight.status == "scheduled").order_by(Flight.departs_at)
            if cabin is not None:
                query = query.where(getattr(Flight, f"{cabin}_seats_left") > 0)
            found += [{**self._flight(f), "direction": direction} for f in self.db.scalars(query)]
        return found

    @tool(read_only=True)
    def get_flight(self, flight_id: Id("flight")) -> dict:
        """Return one flight: number, airline, route, times, status, and per cabin the seats left and
        the basic fare for one passenger in the airline's currency and in USD."""
        return self._flight(self.get(Flight, flight_id))

    @tool(read_only=True)
    def list_free_seats(self, flight_id: Id("flight"), cabin: Cabin) -> dict:
        """List the seats of a cabin on a flight that no passenger holds, front to back (first rows
        5-6, business rows 1-4, economy rows 10-35; A and F are windows), and how many seats are
        left for sale. Booked passengers without a seat yet pick theirs among the free seats, so
        there can be more free seats than seats left.

        Args:
            cabin: 'economy', 'business' or 'first'.
        """
        flight = self.get(Flight, flight_id)
        self._has_cabin(flight, cabin)
        taken = self._taken_seats(flight, cabin)
        free = [s for s in seat_map(cabin) if s not in taken]
        return {"flight_id": flight.id, "cabin": cabin, "seats_left": _seats(flight, cabin), "free_seats": free}

    # -- hotels ---------------------------------------------------------------------------------

    @tool(read_only=True, produces=("room_type",))
    def search_hotels(self, city: str, check_in: Date | None = None, check_out: Date | None = None,
                      guests: int = 1, max_price: float | None = None) -> list[dict]:
        """Search hotels in a city, ordered by name. With dates, each hotel lists only the room types
        free every night of the stay that sleep the guests, and hotels with none are left out; with
        max_price, only room types whose nightly price is at most that.

        Args:
            city: the city, such as 'Denver'.
            check_in: the first night, such as '2026-03-14'.
            check_out: the day of departure, after check_in.
            guests: how many people will stay, 1 to 6.
            max_price: the most a night may cost, in dollars.
        """
        if (check_in is None) != (check_out is None):
            raise ToolError("give both check_in and check_out, or neither")
        if check_in is not None:
            self._nights(check_in, check_out)
        if not 1 <= guests <= 6:
            raise ToolError(f"guests must be 1 to 6, got {guests}")
        hotels = list(self.db.scalars(select(Hotel).where(func.lower(Hotel.city) == city.strip().lower())
                                      .order_by(Hotel.name)))
        found = []
        for hotel in hotels:
            rooms = []
            for room in self.db.scalars(select(RoomType).where(RoomType.hotel_id == hotel.id).order_by(RoomType.id)):
                if room.max_guests < guests or (max_price is not None and room.nightly_price > max_price):
                    continue
                if check_in is not None and min(self._free_rooms(room, check_in, check_out).values()) <= 0:
                    continue
                rooms.append({"room_type_id": room.id, "name": room.name, "nightly_price": room.nightly_price,
                              "max_guests": room.max_guests})
            if rooms or (check_in is None and max_price is None and guests == 1):
                found.append({**_hotel(hotel), "room_types": rooms})
        return found

    @tool(read_only=True)
    def list_room_types(self, hotel_id: Id("hotel")) -> list[dict]:
        """List a hotel's room types with nightly price and how many guests each sleeps."""
        hotel = self.get(Hotel, hotel_id)
        return [_room(r, hotel) for r in hotel.room_types]

    @tool(read_only=True)
    def check_room_availability(self, room_type_id: Id("room_type"), check_in: Date, check_out: Date) -> dict:
        """How many rooms of a type are free on each night of a stay, and the stay's price at each rate.

        Args:
            check_in: the first night, such as '2026-03-14'.
            check_out: the day of departure, 1 to 14 nights after check_in.
        """
        room = self.get(RoomType, room_type_id)
        nights = self._nights(check_in, check_out)
        free = self._free_rooms(room, check_in, check_out)
        return {"room_type_id": room.id, "name": room.name, "nights": nights,
                "rooms_left_per_night": {d.isoformat(): n for d, n in free.items()},
                "available": min(free.values()) > 0,
                "refundable_total": _money(room.nightly_price * nights),
                "nonrefundable_total": _money(room.nightly_price * NONREFUNDABLE_DISCOUNT * nights)}

    # -- itineraries ----------------------------------------------------------------------------

    @tool(read_only=True)
    def list_itineraries(self, traveller_id: Id("traveller")) -> list[dict]:
        """List a traveller's itineraries (trips), ordered by id."""
        return [_itinerary(i) for i in self.get(Traveller, traveller_id).itineraries]

    @tool(read_only=True)
    def get_itinerary(self, itinerary_id: Id("itinerary")) -> dict:
        """Return an itinerary with its flight and hotel bookings and the total of what is booked
        (fares, bag fees, change fees and insurance of the flights booked, and the stays booked)."""
        itin = self.get(Itinerary, itinerary_id)
        flights = [self._booking(b) for b in self.db.scalars(
            select(FlightBooking).where(FlightBooking.itinerary_id == itin.id).order_by(FlightBooking.id))]
        stays = [self._stay(h) for h in self.db.scalars(
            select(HotelBooking).where(HotelBooking.itinerary_id == itin.id).order_by(HotelBooking.id))]
        total = sum(f["price_paid"] + f["bag_fees"] + f["change_fees"] + f["insurance_cost"]
                    for f in flights if f["status"] == "booked")
        total += sum(s["total_price"] for s in stays if s["status"] == "booked")
        return {**_itinerary(itin), "flights": flights, "hotels": stays, "total": _money(total)}

    @tool(produces=("itinerary",))
    def create_itinerary(self, traveller_id: Id("traveller"), name: str) -> dict:
        """Start a new, empty itinerary for a traveller.

        Args:
            name: the trip's name, 1 to 60 characters, unique among the traveller's trips, such as 'Denver ski week'.
        """
        t = self.get(Traveller, traveller_id)
        name = name.strip()
        if not 1 <= len(name) <= 60:
            raise ToolError(f"itinerary name must be 1 to 60 characters, got {len(name)}")
        if self.db.scalar(select(Itinerary.id).where(Itinerary.traveller_id == t.id,
                                                     func.lower(Itinerary.name) == name.lower())):
            raise ToolError(f"{t.name} already has an itinerary named {name!r}; use it or pick another name")
        itin = Itinerary(id=self.new_id("ITN"), traveller_id=t.id, name=name, created_at=self.now)
        self.db.add(itin)
        return _itinerary(itin)

    @tool(read_only=True, produces=("flight",))
    def list_flight_bookings(self, traveller_id: Id("traveller"), status: Literal["booked", "cancelled"] | None = None
                             ) -> list[dict]:
        """List a traveller's flight bookings, ordered by id: flight and airline, cabin, fare type,
        passengers and their seats, bags, insurance, what was paid and refunded, when it was booked.

        Args:
            status: only bookings with this status: 'booked' or 'cancelled'.
        """
        bookings = [b for b in self.get(Traveller, traveller_id).flight_bookings if status in (None, b.status)]
        self.world.preload(Flight, [b.flight_id for b in bookings])
        return [self._booking(b) for b in bookings]

    @tool(read_only=True, produces=("hotel", "room_type"))
    def list_hotel_bookings(self, traveller_id: Id("traveller"), status: Literal["booked", "cancelled"] | None = None
                            ) -> list[dict]:
        """List a traveller's hotel bookings (stays) with hotel, room, dates, rate and price, ordered by id.

        Args:
            status: only bookings with this status: 'booked' or 'cancelled'.
        """
        return [self._stay(h) for h in self.get(Traveller, traveller_id).hotel_bookings if status in (None, h.status)]

    # -- flight bookings ------------------------------------------------------------------------

    @tool(produces=("booking",))
    def book_flight(self, itinerary_id: Id("itinerary"), flight_id: Id("flight"), cabin: Cabin,
                    payment_method_id: Id("payment_method"), fare_type: FareType = "basic",
                    companions: list[str] | None = None, insurance: bool = False) -> dict:
        """Book a flight into an itinerary for its traveller and any companions, taking a seat in the
        cabin for each, and charge the fare (and insurance) to one of the traveller's payment
        methods. A passenger already on the flight is refused (select_seat and add_bags change that
        booking); a voucher or gift card must cover the whole charge.

        Args:
            cabin: 'economy', 'business' or 'first' (first flies on a few routes only).
            payment_method_id: the traveller's card, voucher or gift card that pays.
            fare_type: 'basic' (non-refundable, changes cost $99 plus any fare difference) or 'flex'
                (35% more, refundable, changes without a fee).
            companions: the full names of up to 5 others flying on this booking, as on their ID,
                such as ['Maria Lopez'].
            insurance: buy travel insurance ($30 a passenger): a cancellation for illness or a family
                emergency then refunds the fare and fees.
        """
        itin = self.get(Itinerary, itinerary_id)
        traveller = self.get(Traveller, itin.traveller_id)
        names = self._companion_names(traveller, companions or [])
        flight = self._bookable(self.get(Flight, flight_id), cabin, 1 + len(names))
        self._not_aboard(traveller, names, flight)
        method = self.get(PaymentMethod, payment_method_id)
        party = 1 + len(names)
        price = _money(self._unit(flight, cabin, fare_type) * party)
        premium = _money(INSURANCE_PRICE * party) if insurance else 0.0
        self._payable(method, traveller.id, _money(price + premium), airline=flight.airline, what="this booking")
        _take_seat(flight, cabin, -party)
        booking = FlightBooking(id=self.new_id("FBK"), itinerary_id=itin.id, traveller_id=itin.traveller_id,
                                flight_id=flight.id, cabin=cabin, fare_type=fare_type, price_paid=price, seat=None,
                                bags=0, bag_fees=0.0, change_fees=0.0, insurance=insurance, insurance_cost=premium,
                                refund=0.0, status="booked", booked_at=self.now, cancelled_at=None,
                                cancel_reason=None)
        self.db.add(booking)
        for name in names:
            self.db.add(Companion(id=self.new_id("PSG"), booking_id=booking.id, name=name, seat=None))
        self._charge(method, price, "fare", "booking", booking=booking)
        if premium:
            self._charge(method, premium, "insurance", "booking", booking=booking)
        self.db.flush()
        return {**self._booking(booking), "charged": _money(price + premium), "paid_with": self._label(method)}

    @tool(idempotent=True)
    def select_seat(self, booking_id: Id("booking"), seat: str, passenger: str | None = None) -> dict:
        """Pick a seat for a passenger of a flight booking, in its cabin and free on that flight,
        such as '14A'; the seat the passenger held before is given back. Picking the seat the
        passenger already has changes nothing.

        Args:
            seat: row number and letter, such as '14A'; first rows 5-6, business rows 1-4, economy rows 10-35.
            passenger: the name of a companion on the booking; the booking's traveller when not given.
        """
        booking = self._open(self.get(FlightBooking, booking_id), "given a seat", flying=True)
        flight = self.get(Flight, booking.flight_id)
        who = self._passenger(booking, passenger)
        seat = seat.strip().upper()
        if seat not in seat_map(booking.cabin):
            raise ToolError(f"seat {seat!r} is not in the {booking.cabin} cabin; "
                            "call list_free_seats for the seats you can pick")
        if seat != who.seat and seat in self._taken_seats(flight, booking.cabin):
            raise ToolError(f"seat {seat} is taken on this flight; call list_free_seats and pick another")
        who.seat = seat
        return self._booking(booking)

    @tool()
    def add_bags(self, booking_id: Id("booking"), count: int, payment_method_id: Id("payment_method") | None = None
                 ) -> dict:
        """Add checked bags to a flight booking and charge for them: $35 a bag, business includes
        two a passenger, first three, and gold members one more; at most 4 bags a passenger.

        Args:
            count: how many bags to add, 1 to 4.
            payment_method_id: the traveller's payment method to charge; the one that paid the fare when not given.
        """
        booking = self._open(self.get(FlightBooking, booking_id), "given bags", flying=True)
        if not 1 <= count <= MAX_BAGS:
            raise ToolError(f"count must be 1 to {MAX_BAGS}, got {count}")
        party = self._party(booking)
        most = MAX_BAGS * party
        if booking.bags + count > most:
            raise ToolError(f"booking {booking.id} already has {booking.bags} bag(s); at most {MAX_BAGS} bags a "
                            f"passenger ({most} for this booking), so at most {most - booking.bags} more")
        included = self._included(booking, booking.cabin)
        charged = _money((max(0, booking.bags + count - included) - max(0, booking.bags - included)) * BAG_FEE)
        method = self._payer(booking, payment_method_id)
        if charged:
            self._payable(method, booking.traveller_id, charged, airline=self._airline_of(booking), what="the bags")
            self._charge(method, charged, "bag_fee", "bags", booking=booking)
        booking.bags += count
        booking.bag_fees = _money(booking.bag_fees + charged)
        return {**self._booking(booking), "charged_now": charged,
                "paid_with": self._label(method) if charged else None}

    @tool(read_only=True)
    def quote_flight_change(self, booking_id: Id("booking"), new_flight_id: Id("flight")) -> dict:
        """What moving a booking to another flight would cost under its fare, without changing it:
        the change fee, the fare difference for every passenger and the total due."""
        booking = self._open(self.get(FlightBooking, booking_id), "changed")
        return self._change_terms(booking, self.get(Flight, new_flight_id))

    @tool()
    def change_flight(self, booking_id: Id("booking"), new_flight_id: Id("flight"),
                      payment_method_id: Id("payment_method") | None = None) -> dict:
        """Move a booking, every passenger, to another flight on the same route and cabin, charging
        the fare's change fee and any fare difference (a lower fare refunds nothing); the old seats
        are given back. A flight the airline cancelled moves free of both. The fare paid grows by
        the difference only: the fee is kept apart and is never credit towards a later change.

        Args:
            payment_method_id: the traveller's payment method to charge; the one that paid the fare when not given.
        """
        booking = self._open(self.get(FlightBooking, booking_id), "changed")
        new = self.get(Flight, new_flight_id)
        terms = self._change_terms(booking, new)
        method = self._payer(booking, payment_method_id)
        if terms["total_due"]:
            self._payable(method, booking.traveller_id, terms["total_due"], airline=new.airline, what="this change")
            if terms["change_fee"]:
                self._charge(method, terms["change_fee"], "change_fee", "change", booking=booking)
            if terms["fare_difference"]:
                self._charge(method, terms["fare_difference"], "fare", "change", booking=booking)
        party = self._party(booking)
        old = self.get(Flight, booking.flight_id)
        _take_seat(old, booking.cabin, +party)
        _take_seat(new, booking.cabin, -party)
        booking.flight_id = new.id
        self._unseat(booking)
        booking.price_paid = _money(booking.price_paid + terms["fare_difference"])
        booking.change_fees = _money(booking.change_fees + terms["change_fee"])
        return {**self._booking(booking), "change_fee": terms["change_fee"],
                "fare_difference": terms["fare_difference"], "charged": terms["total_due"],
                "paid_with": self._label(method) if terms["total_due"] else None}

    @tool()
    def change_cabin(self, booking_id: Id("booking"), cabin: Cabin,
                     payment_method_id: Id("payment_method") | None = None) -> dict:
        """Upgrade or downgrade a booking, every passenger, to another cabin of the same flight, at
        today's fares under its fare type: an upgrade charges the fare difference, a downgrade
        refunds it to the methods that paid the fare; bag fees follow the bags the new cabin
        includes. The passengers' seats are given back (pick new ones with select_seat).

        Args:
            cabin: the cabin to move to: 'economy', 'business' or 'first'.
            payment_method_id: the traveller's payment method for an upgrade; the one that paid the fare when not given.
        """
        booking = self._open(self.get(FlightBooking, booking_id), "moved to another cabin", flying=True)
        flight = self.get(Flight, booking.flight_id)
        if cabin == booking.cabin:
            raise ToolError(f"booking {booking.id} is already in {cabin}; pick another cabin")
        party = self._party(booking)
        self._bookable(flight, cabin, party)
        new_price = _money(self._unit(flight, cabin, booking.fare_type) * party)
        new_bag_fees = _money(max(0, booking.bags - self._included(booking, cabin)) * BAG_FEE)
        fare_difference = _money(new_price - booking.price_paid)
        bag_difference = _money(new_bag_fees - booking.bag_fees)
        reason = "upgrade" if RANK[cabin] > RANK[booking.cabin] else "downgrade"
        due = _money(max(0.0, fare_difference) + max(0.0, bag_difference))
        method = self._payer(booking, payment_method_id)
        if due:
            self._payable(method, booking.traveller_id, due, airline=flight.airline, what=f"the move to {cabin}")
        refunded = 0.0
        for item, difference in (("fare", fare_difference), ("bag_fee", bag_difference)):
            if difference > 0:
                self._charge(method, difference, item, reason, booking=booking)
            elif difference < 0:
                refunded += self._refund_item(booking, item, -difference, reason)
        _take_seat(flight, booking.cabin, +party)
        _take_seat(flight, cabin, -party)
        booking.cabin = cabin
        self._unseat(booking)
        booking.price_paid, booking.bag_fees = new_price, new_bag_fees
        return {**self._booking(booking), "fare_difference": fare_difference, "bag_fee_difference": bag_difference,
                "charged": due, "refunded": _money(refunded), "paid_with": self._label(method) if due else None}

    @tool(read_only=True)
    def quote_cancellation(self, booking_id: Id("booking"), reason: Reason = "change_of_plans") -> dict:
        """What cancelling a flight booking would refund now, without cancelling it: the rule that
        applies, the refund to each payment method, and what is kept.

        Args:
            reason: why the traveller cancels: 'change_of_plans', 'illness' or 'family_emergency'
                (travel insurance refunds the last two).
        """
        booking = self._open(self.get(FlightBooking, booking_id), "cancelled")
        return self._cancel_terms(booking, reason)

    @tool(destructive=True)
    def cancel_flight_booking(self, booking_id: Id("booking"), reason: Reason = "change_of_plans") -> dict:
        """Cancel a flight booking and give its seats back, refunding to the methods that paid:
        everything when the airline cancelled the flight or within 24 hours of booking; the fare,
        bag and change fees of a flex fare, or of an insured booking cancelled for illness or a
        family emergency; nothing for a basic fare otherwise (insurance is kept after 24 hours).

        Args:
            reason: why the traveller cancels: 'change_of_plans', 'illness' or 'family_emergency'.
        """
        booking = self._open(self.get(FlightBooking, booking_id), "cancelled")
        terms = self._cancel_terms(booking, reason)
        for item in terms["items_refunded"]:
            self._refund_item(booking, item, None, "cancellation")
        flight = self.get(Flight, booking.flight_id)
        _take_seat(flight, booking.cabin, +self._party(booking))
        booking.status = "cancelled"
        self._unseat(booking)
        booking.refund = terms["refund"]
        booking.cancelled_at, booking.cancel_reason = self.now, reason
        return {**self._booking(booking), "basis": terms["basis"], "refunds": terms["refunds"]}

    # -- hotel bookings -------------------------------------------------------------------------

    @tool(produces=("stay",), details=(Detail("hotel_bookings", "request"),))
    def book_hotel(self, itinerary_id: Id("itinerary"), room_type_id: Id("room_type"), check_in: Date,
                   check_out: Date, payment_method_id: Id("payment_method"), guests: int = 1,
                   rate: Rate = "refundable", request: str | None = None) -> dict:
        """Book a room into an itinerary for every night from check_in to check_out, charging the
        stay to a card or gift card of the traveller (airline vouchers pay flights only).

        Args:
            check_in: the first night, today or later, such as '2026-03-14'.
            check_out: the day of departure, 1 to 14 nights after check_in.
            payment_method_id: the traveller's card or gift card that pays.
            guests: how many people stay, at most the room type's maximum.
            rate: 'refundable' (full refund before check-in) or 'nonrefundable' (15% cheaper, no refund).
            request: an optional note to the hotel, such as 'Late arrival' or 'High floor'.
        """
        itin = self.get(Itinerary, itinerary_id)
        room = self.get(RoomType, room_type_id)
        nights = self._nights(check_in, check_out)
        if check_in < self.now.date():
            raise ToolError(f"check-in {check_in} is in the past (today is {self.now.date()}); pick a date from today on")
        if not 1 <= guests <= room.max_guests:
            raise ToolError(f"a {room.name} sleeps at most {room.max_guests}; got {guests} guests. "
                            "Pick a larger room type (list_room_types) or book two rooms")
        full = [d.isoformat() for d, n in self._free_rooms(room, check_in, check_out).items() if n <= 0]
        if full:
            raise ToolError(f"no {room.name} room is left on {', '.join(full)}; "
                            "try other dates or another room type")
        per_night = room.nightly_price * (NONREFUNDABLE_DISCOUNT if rate == "nonrefundable" else 1.0)
        total = _money(per_night * nights)
        method = self.get(PaymentMethod, payment_method_id)
        self._payable(method, itin.traveller_id, total, airline=None, what="this stay")
        stay = HotelBooking(id=self.new_id("HBK"), itinerary_id=itin.id, traveller_id=itin.traveller_id,
                            room_type_id=room.id, check_in=check_in, check_out=check_out, guests=guests, rate=rate,
                            total_price=total, refund=0.0, request=(request or "").strip()[:200] or None,
                            status="booked", booked_at=self.now, cancelled_at=None)
        self.db.add(stay)
        self._charge(method, total, "hotel", "booking", stay=stay)
        return {**self._stay(stay), "paid_with": self._label(method)}

    @tool(destructive=True)
    def cancel_hotel_booking(self, stay_id: Id("stay")) -> dict:
        """Cancel a hotel booking before check-in, freeing its room: a refundable rate refunds the
        whole price to the method that paid, a nonrefundable one nothing."""
        stay = self.get(HotelBooking, stay_id)
        if stay.status != "booked":
            raise ToolError(f"hotel booking {stay.id} is already {stay.status}")
        if stay.check_in <= self.now.date():
            raise ToolError(f"the stay of hotel booking {stay.id} began on {stay.check_in}; "
                            "a stay can only be cancelled before its check-in day")
        stay.status = "cancelled"
        stay.cancelled_at = self.now
        stay.refund = _money(self._refund_item(stay, "hotel", None, "cancellation")) \
            if stay.rate == "refundable" else 0.0
        return self._stay(stay)

    # -- support cases ----------------------------------------------------------------------------

    @tool(read_only=True)
    def list_support_cases(self, traveller_id: Id("traveller"), status: CaseStatus | None = None) -> list[dict]:
        """List a traveller's support cases, ordered by id, each with its reference, topic, status,
        the booking it concerns and its notes.

        Args:
            status: only cases with this status: 'open', 'in_progress', 'resolved' or 'closed'.
        """
        return [self._case(c) for c in self.get(Traveller, traveller_id).cases if status in (None, c.status)]

    @tool(produces=("case",), details=_CASE_TEXT)
    def open_support_case(self, traveller_id: Id("traveller"), topic: Topic, description: str,
                          booking_id: Id("booking") | None = None, stay_id: Id("stay") | None = None) -> dict:
        """Open a support case for the agency's staff, for what the tools cannot do: a name
        correction, special assistance, a refund exception, a schedule change, a baggage claim or
        anything else. The case's id is its reference. One case per topic and booking until it is
        closed: add a note to the one there is.

        Args:
            topic: 'name_correction', 'special_assistance', 'refund', 'schedule_change', 'baggage' or 'other'.
            description: what the traveller asks for, 10 to 1000 characters.
            booking_id: the traveller's flight booking the case is about, if any.
            stay_id: the traveller's hotel booking the case is about, if any.
        """
        t = self.get(Traveller, traveller_id)
        text = _case_text(description, "description")
        if booking_id is not None and self.get(FlightBooking, booking_id).traveller_id != t.id:
            raise ToolError(f"flight booking {booking_id} is not {t.name}'s; list_flight_bookings shows theirs")
        if stay_id is not None and self.get(HotelBooking, stay_id).traveller_id != t.id:
            raise ToolError(f"hotel booking {stay_id} is not {t.name}'s; list_hotel_bookings shows theirs")
        same = next((c for c in t.cases if c.status != "closed" and (c.topic, c.booking_id, c.stay_id)
                     == (topic, booking_id, stay_id)), None)
        if same is not None:
            raise ToolError(f"case {same.id} on this is {same.status.replace('_', ' ')}; add a note to it "
                            "(add_case_note) instead of opening another")
        case = SupportCase(id=self.new_id("CAS"), traveller_id=t.id, topic=topic, booking_id=booking_id,
                           stay_id=stay_id, description=text, status="open", created_at=self.now,
                           updated_at=self.now)
        self.db.add(case)
        self.db.add(CaseNote(id=self.new_id("CNT"), case_id=case.id, author="traveller", text=text,
                             created_at=self.now))
        self.db.flush()
        self.db.expire(case, ["notes"])  # loaded before the note was added
        return self._case(case)

    @tool(details=_CASE_TEXT)
    def add_case_note(self, case_id: Id("case"), note: str) -> dict:
        """Add the traveller's note to a support case (more details, an answer to the agency). A note
        on a resolved case reopens it; a closed case takes no notes (open a new one).

        Args:
            note: the text, 1 to 1000 characters.
        """
        case = self.get(SupportCase, case_id)
        text = _case_text(note, "note", shortest=1)
        if case.status == "closed":
            raise ToolError(f"case {case.id} is closed and takes no notes; open a new case (open_support_case)")
        if case.status == "resolved":
            case.status = "open"
        case.updated_at = self.now
        self.db.add(CaseNote(id=self.new_id("CNT"), case_id=case.id, author="traveller", text=text,
                             created_at=self.now))
        self.db.flush()
        self.db.expire(case, ["notes"])  # loaded before the note was added
        return self._case(case)

    @tool(idempotent=True)
    def close_support_case(self, case_id: Id("case")) -> dict:
        """Close a support case the traveller no longer needs, whatever its status; closing a
        closed case changes nothing. A closed case cannot be reopened."""
        case = self.get(SupportCase, case_id)
        if case.status != "closed":
            case.status = "closed"
            case.updated_at = self.now
        return self._case(case)

    # -- hidden ---------------------------------------------------------------------------------

    @tool(read_only=True, hidden=True)
    def count_bookings(self) -> dict:
        """Debugging only: how many flight bookings each status has in the whole world."""
        return dict(self.db.execute(select(FlightBooking.status, func.count()).group_by(FlightBooking.status)).all())

    # -- the world's rules ------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """Seats (seats left = the cabin's seat map less the agency's passengers and the seats held
        elsewhere; a seat has one passenger; a passenger is on a flight once), money (every
        voucher's and gift card's balance is what it was issued with less its charges plus its
        refunds; every booking's fare, fees, insurance and refund are its ledger entries; refunds
        as the cancellation rules say, never more than was charged to a method), rooms per night,
        states, references and times."""
        problems = self.after_now(Itinerary.created_at, FlightBooking.booked_at, FlightBooking.cancelled_at,
                                  HotelBooking.booked_at, HotelBooking.cancelled_at, LedgerEntry.created_at,
                                  PaymentMethod.added_at, SupportCase.created_at, SupportCase.updated_at,
                                  CaseNote.created_at, ExchangeRate.as_of)
        problems += self._seat_problems()
        problems += self._flight_booking_problems()
        problems += self._stay_problems()
        problems += self._ledger_problems()
        problems += self._case_problems()
        for tid, name, n in self.rows("SELECT traveller_id, lower(name), count(*) FROM itineraries "
                                      "GROUP BY traveller_id, lower(name) HAVING count(*) > 1"):
            problems.append(f"traveller {tid} has {n} itineraries named {name!r}")
        for tid, number, tier in self.rows("SELECT id, loyalty_number, loyalty_tier FROM travellers"):
            if tier not in ("none", "silver", "gold"):
                problems.append(f"traveller {tid}: loyalty tier {tier!r}")
            if number is not None and not re.fullmatch(r"TB\d{8}", number):
                problems.append(f"traveller {tid}: loyalty number {number!r} is not 'TB' and 8 digits")
        for number, n in self.rows("SELECT loyalty_number, count(*) FROM travellers WHERE loyalty_number IS NOT NULL "
                                   "GROUP BY loyalty_number HAVING count(*) > 1"):
            problems.append(f"loyalty number {number} is on {n} travellers")
        return problems

    def _seat_problems(self) -> list[str]:
        problems = []
        maps = {cabin: (seat_map(cabin), set(seat_map(cabin))) for cabin in CABINS}
        aboard: dict[tuple[str, str], list[str | None]] = {}  # (flight, cabin): seats of the agency's passengers
        names: dict[str, list[str]] = {}  # flight: the agency's passengers by name
        for flight_id, cabin, seat, name in self.rows(
                "SELECT b.flight_id, b.cabin, b.seat, t.name FROM flight_bookings b JOIN travellers t "
                "ON t.id = b.traveller_id WHERE b.status = 'booked' UNION ALL "
                "SELECT b.flight_id, b.cabin, c.seat, c.name FROM companions c JOIN flight_bookings b "
                "ON b.id = c.booking_id WHERE b.status = 'booked'"):
            aboard.setdefault((flight_id, cabin), []).append(seat)
            names.setdefault(flight_id, []).append(name.lower())
        for fid, listed in names.items():
            if len(set(listed)) != len(listed):
                problems.append(f"flight {fid}: a passenger is aboard twice ({sorted(listed)})")
        for (fid, airline, status, day, departs, arrives, economy_left, business_left, first_left, economy_sold,
             business_sold, first_sold, first_fare) in self.rows(
                "SELECT f.id, a.code, f.status, f.day, f.departs_at, f.arrives_at, f.economy_seats_left, "
                "f.business_seats_left, f.first_seats_left, f.economy_agency_seats, f.business_agency_seats, "
                "f.first_agency_seats, f.first_fare FROM flights f LEFT JOIN airlines a ON a.code = f.airline"):
            if status not in ("scheduled", "cancelled") or airline is None:
                problems.append(f"flight {fid}: status {status!r}, airline {airline!r}")
            if not departs.startswith(day) or arrives <= departs:
                problems.append(f"flight {fid}: departs {departs} on day {day} and arrives {arrives}")
            for cabin, left, sold in (("economy", economy_left, economy_sold), ("business", business_left,
                                                                                 business_sold),
                                      ("first", first_left, first_sold)):
                (seats, cabin_seats), ours = maps[cabin], sold.split()
                if cabin == "first" and first_fare is None:
                    seats, cabin_seats = [], set()
                others = [s for s in seats if s not in set(ours)]  # held by passengers who booked elsewhere
                mine = aboard.get((fid, cabin), [])
                seated = [seat for seat in mine if seat is not None]
                if left < 0:
                    problems.append(f"flight {fid}: {left} {cabin} seats left")
                if left != len(seats) - len(others) - len(mine):
                    problems.append(f"flight {fid}: {left} {cabin} seats left, but its {len(seats)} seats less "
                                    f"{len(mine)} booked here and {len(others)} held elsewhere leave "
                                    f"{len(seats) - len(others) - len(mine)}")
                if not set(ours) <= cabin_seats or len(set(ours)) != len(ours):
                    problems.append(f"flight {fid}: the {cabin} seats the agency sells, {sold!r}, are not distinct "
                                    "seats of the cabin")
                if len(set(seated)) != len(seated) or set(seated) & set(others) or not set(seated) <= cabin_seats:
                    problems.append(f"flight {fid}: an {cabin} seat has two passengers, or is not in the cabin")
        return problems

    def _flight_booking_problems(self) -> list[str]:
        problems = []
        flights = {fid: (status, departs) for fid, status, departs in self.rows(
            "SELECT id, status, departs_at FROM flights")}
        party = {bid: 1 + n for bid, n in self.rows("SELECT booking_id, count(*) FROM companions GROUP BY booking_id")}
        unseated = {bid for bid, in self.rows(
            "SELECT c.booking_id FROM companions c JOIN flight_bookings b ON b.id = c.booking_id "
            "WHERE b.status = 'cancelled' AND c.seat IS NOT NULL")}
        held: set[tuple[str, str]] = set()
        for (bid, tid, itinerary_traveller, created, tier, fid, cabin, fare_type, price, seat, bags, bag_fees,
             change_fees, insurance, premium, refund, status, booked_at, cancelled_at, reason) in self.rows(
                "SELECT b.id, b.traveller_id, i.traveller_id, i.created_at, t.loyalty_tier, b.flight_id, b.cabin, "
                "b.fare_type, b.price_paid, b.seat, b.bags, b.bag_fees, b.change_fees, b.insurance, "
                "b.insurance_cost, b.refund, b.status, b.booked_at, b.cancelled_at, b.cancel_reason "
                "FROM flight_bookings b JOIN itineraries i ON i.id = b.itinerary_id "
                "JOIN travellers t ON t.id = b.traveller_id ORDER BY b.id"):
            where = f"flight booking {bid}"
            if status not in ("booked", "cancelled") or cabin not in CABINS or fare_type not in ("basic", "flex"):
                problems.append(f"{where}: status {status!r}, cabin {cabin!r}, fare type {fare_type!r}")
                continue
            if tid != itinerary_traveller:
                problems.append(f"{where} of traveller {tid} is in an itinerary of {itinerary_traveller}")
            flight_status, departs = flights[fid]
            if booked_at < created or booked_at >= departs:
                problems.append(f"{where}: booked at {booked_at}, before its itinerary ({created}) or after "
                                f"its flight departed ({departs})")
            if status == "cancelled":
                if cancelled_at is None or not booked_at <= cancelled_at < departs or reason not in (
                        "change_of_plans", "illness", "family_emergency"):
                    problems.append(f"{where}: cancelled at {cancelled_at} (booked {booked_at}, departs {departs}) "
                                    f"for {reason!r}")
                if seat is not None or bid in unseated:
                    problems.append(f"{where}: a cancelled booking holds a seat")
            elif cancelled_at is not None or reason is not None or refund:
                problems.append(f"{where}: booked, yet cancelled at {cancelled_at} for {reason!r}, refunded {refund}")
            if status == "booked":
                if (tid, fid) in held:
                    problems.append(f"{where}: traveller {tid} holds flight {fid} twice")
                held.add((tid, fid))
            size = party.get(bid, 1)
            if price <= 0:
                problems.append(f"{where}: a fare of {price}")
            included = INCLUDED_BAGS[cabin] * size + (1 if tier == "gold" else 0)
            if not 0 <= bags <= MAX_BAGS * size or bag_fees != _money(max(0, bags - included) * BAG_FEE):
                problems.append(f"{where}: {bags} bags for {size} passenger(s) in {cabin} charged {bag_fees}")
            free_changes = fare_type == "flex" or tier == "gold"
            if change_fees < 0 or (free_changes and change_fees) or round(change_fees / CHANGE_FEE, 6) % 1:
                problems.append(f"{where}: change fees {change_fees} on a {fare_type} fare ({tier} tier)")
            if premium != (_money(INSURANCE_PRICE * size) if insurance else 0.0):
                problems.append(f"{where}: insurance {bool(insurance)} for {size} passenger(s) cost {premium}")
        return problems

    def _stay_problems(self) -> list[str]:
        problems = []
        nights: dict[tuple[str, dt.date], int] = {}
        for (hid, tid, itinerary_traveller, room_id, rooms, max_guests, nightly, check_in, check_out, guests, rate,
             total, refund, status, booked_at, cancelled_at) in self.rows(
                "SELECT h.id, h.traveller_id, i.traveller_id, h.room_type_id, r.rooms, r.max_guests, r.nightly_price, "
                "h.check_in, h.check_out, h.guests, h.rate, h.total_price, h.refund, h.status, h.booked_at, "
                "h.cancelled_at FROM hotel_bookings h "
                "JOIN itineraries i ON i.id = h.itinerary_id JOIN room_types r ON r.id = h.room_type_id ORDER BY h.id"):
            where = f"hotel booking {hid}"
            if status not in ("booked", "cancelled") or rate not in ("refundable", "nonrefundable"):
                problems.append(f"{where}: status {status!r}, rate {rate!r}")
                continue
            if tid != itinerary_traveller:
                problems.append(f"{where} of traveller {tid} is in an itinerary of {itinerary_traveller}")
            first, last = dt.date.fromisoformat(check_in), dt.date.fromisoformat(check_out)
            stay = (last - first).days
            if not 1 <= stay <= MAX_NIGHTS or not 1 <= guests <= max_guests:
                problems.append(f"{where}: {stay} nights for {guests} guests")
                continue
            price = _money(nightly * (NONREFUNDABLE_DISCOUNT if rate == "nonrefundable" else 1.0) * stay)
            if total != price:
                problems.append(f"{where}: {stay} nights at the {rate} rate cost {price}, not {total}")
            owed = total if status == "cancelled" and rate == "refundable" else 0.0
            if refund != owed:
                problems.append(f"{where}: {status} {rate} stay refunded {refund}, not {owed}")
            if (status == "cancelled") != (cancelled_at is not None) or (
                    cancelled_at is not None and not booked_at <= cancelled_at < check_in):
                problems.append(f"{where}: {status}, cancelled at {cancelled_at} (booked {booked_at}, "
                                f"check-in {check_in})")
            if status == "booked":
                for n in range(stay):
                    night = (room_id, first + dt.timedelta(days=n))
                    nights[night] = nights.get(night, 0) + 1
                    if nights[night] == rooms + 1:
                        problems.append(f"room type {room_id}: more than its {rooms} rooms booked on {night[1]}")
        return problems

    def _ledger_problems(self) -> list[str]:
        """Money is conserved: what the ledger says each method, booking and stay paid and got back."""
        problems = []
        owners = {mid: tid for mid, tid in self.rows("SELECT id, traveller_id FROM payment_methods")}
        booking_of = {bid: tid for bid, tid in self.rows("SELECT id, traveller_id FROM flight_bookings")}
        stay_of = {hid: tid for hid, tid in self.rows("SELECT id, traveller_id FROM hotel_bookings")}
        by_method: dict[str, float] = {}
        by_item: dict[tuple[str, str, str], list[float]] = {}  # (booking or stay, item, method): [charged, refunded]
        for eid, tid, mid, bid, hid, kind, item, reason, amount, created in self.rows(
                "SELECT id, traveller_id, payment_method_id, booking_id, stay_id, kind, item, reason, amount, "
                "created_at FROM ledger ORDER BY id"):
            where = f"ledger entry {eid}"
            if kind not in ("charge", "refund") or item not in (*FLIGHT_ITEMS, "hotel") or reason not in (
                    "booking", "bags", "change", "upgrade", "downgrade", "cancellation"):
                problems.append(f"{where}: kind {kind!r}, item {item!r}, reason {reason!r}")
            if amount <= 0 or _money(amount) != amount:
                problems.append(f"{where}: amount {amount}")
            if (bid is None) == (hid is None) or (hid is not None) != (item == "hotel"):
                problems.append(f"{where}: for booking {bid!r} and stay {hid!r}, item {item!r}")
            owner = booking_of.get(bid) if bid is not None else stay_of.get(hid)
            if owners.get(mid) != tid or owner != tid:
                problems.append(f"{where} of traveller {tid}: method {mid} is {owners.get(mid)}'s, "
                                f"and what it pays for {owner}'s")
            sign = 1 if kind == "charge" else -1
            by_method[mid] = by_method.get(mid, 0.0) + sign * amount
            tally = by_item.setdefault((bid or hid, item, mid), [0.0, 0.0])
            tally[0 if kind == "charge" else 1] += amount
        for (key, item, mid), (charged, refunded) in by_item.items():
            if _money(refunded) > _money(charged):
                problems.append(f"{key}: {item} refunded {_money(refunded)} to {mid}, which was charged "
                                f"{_money(charged)}")
        for mid, kind, brand, last4, code, airline, issued, balance, expires in self.rows(
                "SELECT id, kind, brand, last4, code, airline, amount_issued, balance, expires_on "
                "FROM payment_methods"):
            where = f"payment method {mid}"
            if kind == "card":
                if brand not in ("Visa", "Mastercard", "American Express") or not re.fullmatch(r"\d{4}", last4 or "") \
                        or balance is not None or expires is None:
                    problems.append(f"{where}: card {brand!r} ending {last4!r}, balance {balance}, expires {expires}")
                continue
            if kind not in ("voucher", "gift_card") or not code or (kind == "voucher") != (airline is not None) \
                    or (kind == "voucher") != (expires is not None) or balance is None or issued is None:
                problems.append(f"{where}: {kind!r} {code!r} of {airline!r}, issued {issued}, expires {expires}")
                continue
            if balance < 0 or _money(issued - by_method.get(mid, 0.0)) != balance:
                problems.append(f"{where}: balance {balance}, but issued {issued} less {_money(by_method.get(mid, 0))} "
                                "net charges leaves " + str(_money(issued - by_method.get(mid, 0.0))))
        for tid, brand, last4, n in self.rows(
                "SELECT traveller_id, brand, last4, count(*) FROM payment_methods WHERE kind = 'card' "
                "GROUP BY traveller_id, brand, last4 HAVING count(*) > 1"):
            problems.append(f"traveller {tid} has {n} {brand} cards ending {last4}")
        # each booking's fare, fees and insurance are its ledger entries; its refund, the cancellation's
        nets: dict[tuple[str, str], float] = {}
        cancelled: dict[str, float] = {}
        for bid, item, kind, reason, amount in self.rows(
                "SELECT booking_id, item, kind, reason, sum(amount) FROM ledger WHERE booking_id IS NOT NULL "
                "GROUP BY booking_id, item, kind, reason"):
            if reason == "cancellation":
                cancelled[bid] = cancelled.get(bid, 0.0) + (amount if kind == "refund" else -amount)
            else:
                nets[bid, item] = nets.get((bid, item), 0.0) + (amount if kind == "charge" else -amount)
        for (bid, status, fare_type, insurance, reason, booked_at, cancelled_at, flight_status, price, bag_fees,
             change_fees, premium, refund) in self.rows(
                "SELECT b.id, b.status, b.fare_type, b.insurance, b.cancel_reason, b.booked_at, b.cancelled_at, "
                "f.status, b.price_paid, b.bag_fees, b.change_fees, b.insurance_cost, b.refund FROM flight_bookings b "
                "JOIN flights f ON f.id = b.flight_id ORDER BY b.id"):
            paid = {"fare": price, "bag_fee": bag_fees, "change_fee": change_fees, "insurance": premium}
            for item, value in paid.items():
                if _money(nets.get((bid, item), 0.0)) != value:
                    problems.append(f"flight booking {bid}: {FEE_FIELD[item]} {value}, but the ledger's {item} "
                                    f"entries net {_money(nets.get((bid, item), 0.0))}")
            if _money(cancelled.get(bid, 0.0)) != refund:
                problems.append(f"flight booking {bid}: refund {refund}, but the ledger refunded "
                                f"{_money(cancelled.get(bid, 0.0))} on cancellation")
            if status == "cancelled":
                items = _refunded_items(flight_status, booked_at, cancelled_at, fare_type, insurance, reason)[1]
                owed = _money(sum(paid[item] for item in items))
                if refund != owed:
                    problems.append(f"flight booking {bid}: refunded {refund}, but its rules refund {owed}")
        stays: dict[tuple[str, str], float] = {}
        for hid, kind, amount in self.rows("SELECT stay_id, kind, sum(amount) FROM ledger WHERE stay_id IS NOT NULL "
                                           "GROUP BY stay_id, kind"):
            stays[hid, kind] = amount
        for hid, total, refund in self.rows("SELECT id, total_price, refund FROM hotel_bookings"):
            if _money(stays.get((hid, "charge"), 0.0)) != total or _money(stays.get((hid, "refund"), 0.0)) != refund:
                problems.append(f"hotel booking {hid}: price {total} and refund {refund}, but the ledger charged "
                                f"{stays.get((hid, 'charge'), 0.0)} and refunded {stays.get((hid, 'refund'), 0.0)}")
        return problems

    def _case_problems(self) -> list[str]:
        problems = []
        notes: dict[str, list[tuple[str, str, str]]] = {}
        for cid, author, text, created in self.rows("SELECT case_id, author, text, created_at FROM case_notes "
                                                    "ORDER BY id"):
            notes.setdefault(cid, []).append((author, text, created))
        bookings = {bid: (tid, at) for bid, tid, at in self.rows("SELECT id, traveller_id, booked_at "
                                                                 "FROM flight_bookings")}
        stays = {hid: (tid, at) for hid, tid, at in self.rows("SELECT id, traveller_id, booked_at FROM hotel_bookings")}
        active: set[tuple] = set()
        for cid, tid, topic, bid, hid, description, status, created, updated in self.rows(
                "SELECT id, traveller_id, topic, booking_id, stay_id, description, status, created_at, updated_at "
                "FROM support_cases ORDER BY id"):
            where = f"support case {cid}"
            if topic not in Topic.__args__ or status not in CaseStatus.__args__:
                problems.append(f"{where}: topic {topic!r}, status {status!r}")
            for about in (bookings.get(bid) if bid else None, stays.get(hid) if hid else None):
                if about is not None and (about[0] != tid or created < about[1]):
                    problems.append(f"{where} of traveller {tid}, opened {created}, is about booking {bid!r} / stay "
                                    f"{hid!r} of {about[0]}, made {about[1]}")
            if (bid is not None and bid not in bookings) or (hid is not None and hid not in stays):
                problems.append(f"{where}: booking {bid!r} / stay {hid!r} does not exist")
            mine = notes.get(cid, [])
            if not mine or mine[0][:2] != ("traveller", description) or any(
                    a not in ("traveller", "agency") or not created <= c <= updated for a, _, c in mine):
                problems.append(f"{where}: notes {[(a, c) for a, _, c in mine]} do not begin with the description "
                                f"or fall outside {created} to {updated}")
            if status != "closed":
                key = (tid, topic, bid, hid)
                if key in active:
                    problems.append(f"{where}: another case of {tid} on {topic} for {bid or hid} is not closed")
                active.add(key)
        return problems

    # -- helpers --------------------------------------------------------------------------------

    def _airport(self, code: str) -> str:
        code = code.strip().upper()
        if self.db.get(Airport, code) is None:
            raise ToolError(f"airport {code!r} not found; airport codes look like 'JFK' (search_airports finds "
                            "them by city)")
        return code

    def _nights(self, check_in: dt.date, check_out: dt.date) -> int:
        nights = (check_out - check_in).days
        if not 1 <= nights <= MAX_NIGHTS:
            raise ToolError(f"a stay is 1 to {MAX_NIGHTS} nights and check_out comes after check_in; "
                            f"got {check_in} to {check_out}")
        return nights

    def _free_rooms(self, room: RoomType, check_in: dt.date, check_out: dt.date) -> dict[dt.date, int]:
        held = list(self.db.execute(select(HotelBooking.check_in, HotelBooking.check_out).where(
            HotelBooking.room_type_id == room.id, HotelBooking.status == "booked",
            HotelBooking.check_in < check_out, HotelBooking.check_out > check_in)).all())
        free = {}
        for i in range((check_out - check_in).days):
            night = check_in + dt.timedelta(days=i)
            free[night] = max(0, room.rooms - sum(a <= night < b for a, b in held))
        return free

    def _rate(self, airline: str) -> float:
        """USD per unit of the airline's currency."""
        return self.db.get(ExchangeRate, self.db.get(Airline, airline).currency).usd_per_unit

    def _unit(self, flight: Flight, cabin: str, fare_type: str) -> float:
        return unit_price(cabin_fare(flight, cabin), self._rate(flight.airline), fare_type)

    def _has_cabin(self, flight: Flight, cabin: str) -> None:
        if cabin_fare(flight, cabin) is None:
            raise ToolError(f"flight {flight.number} on {flight.day} has no {cabin} cabin; "
                            "it flies economy and business")

    def _bookable(self, flight: Flight, cabin: str, party: int = 1) -> Flight:
        if flight.status != "scheduled":
            raise ToolError(f"flight {flight.number} on {flight.day} is {flight.status}; search for another flight")
        if flight.departs_at <= self.now:
            raise ToolError(f"flight {flight.number} departed on {flight.departs_at:%Y-%m-%d %H:%M}, before now "
                            f"({self.now:%Y-%m-%d %H:%M}); only future flights can be booked")
        self._has_cabin(flight, cabin)
        left = _seats(flight, cabin)
        if left <= 0:
            raise ToolError(f"flight {flight.number} on {flight.day} has no {cabin} seat left; "
                            "try another cabin or another flight")
        if left < party:
            raise ToolError(f"flight {flight.number} on {flight.day} has {left} {cabin} seat(s) left, not the "
                            f"{party} this booking needs; try another cabin or another flight")
        return flight

    def _companion_names(self, traveller: Traveller, companions: list[str]) -> list[str]:
        names = [" ".join(n.split()) for n in companions]
        if len(names) > MAX_COMPANIONS:
            raise ToolError(f"a booking carries at most {MAX_COMPANIONS} companions, got {len(names)}; "
                            "book the others separately")
        for name in names:
            if not _NAME.fullmatch(name) or len(name) > 60:
                raise ToolError(f"companion {name!r} is not a full name; give each as on their ID, first and "
                                "last name, such as 'Maria Lopez'")
        lowered = [n.lower() for n in names]
        if len(set(lowered)) != len(lowered) or traveller.name.lower() in lowered:
            raise ToolError("each passenger is named once, and the traveller is on the booking already: list only "
                            "the others flying with them")
        return names

    def _aboard(self, flight: Flight) -> dict[str, str]:
        """The agency's passengers booked on a flight, by lower-case name: their booking."""
        return {name.lower(): bid for name, bid in self.rows(
            "SELECT t.name, b.id FROM flight_bookings b JOIN travellers t ON t.id = b.traveller_id "
            "WHERE b.flight_id = ? AND b.status = 'booked' UNION ALL SELECT c.name, b.id FROM companions c "
            "JOIN flight_bookings b ON b.id = c.booking_id WHERE b.flight_id = ? AND b.status = 'booked'",
            flight.id, flight.id)}

    def _not_aboard(self, traveller: Traveller, companions: list[str], flight: Flight) -> None:
        held = self.db.scalar(select(FlightBooking.id).where(
            FlightBooking.traveller_id == traveller.id, FlightBooking.flight_id == flight.id,
            FlightBooking.status == "booked"))
        aboard = self._aboard(flight)
        held = held or aboard.get(traveller.name.lower())
        if held:
            raise ToolError(f"traveller {traveller.id} is already booked on flight {flight.number} on {flight.day} "
                            f"(booking {held}); a traveller books a flight once. Change that booking instead "
                            "(select_seat, add_bags), or pick another flight")
        for name in companions:
            if name.lower() in aboard:
                raise ToolError(f"{name} is already booked on flight {flight.number} on {flight.day} "
                                f"(booking {aboard[name.lower()]}); a passenger is on a flight once")

    def _taken_seats(self, flight: Flight, cabin: str) -> set[str]:
        """The seats of a cabin that a passenger holds: the agency's booked passengers with a seat,
        and those who booked elsewhere."""
        mine = self.rows("SELECT seat FROM flight_bookings WHERE flight_id = ? AND cabin = ? AND status = 'booked' "
                         "AND seat IS NOT NULL UNION ALL SELECT c.seat FROM companions c JOIN flight_bookings b "
                         "ON b.id = c.booking_id WHERE b.flight_id = ? AND b.cabin = ? AND b.status = 'booked' "
                         "AND c.seat IS NOT NULL", flight.id, cabin, flight.id, cabin)
        return {seat for seat, in mine} | set(held_elsewhere(flight, cabin))

    def _open(self, booking: FlightBooking, action: str, flying: bool = False) -> FlightBooking:
        """A booked booking whose flight has not departed; `flying`: and that the airline still flies."""
        if booking.status != "booked":
            raise ToolError(f"flight booking {booking.id} is {booking.status}; it can no longer be {action}")
        flight = self.get(Flight, booking.flight_id)
        if flight.departs_at <= self.now:
            raise ToolError(f"flight {flight.number} of booking {booking.id} departed on "
                            f"{flight.departs_at:%Y-%m-%d %H:%M}; a flown booking can no longer be {action}")
        if flying and flight.status == "cancelled":
            raise ToolError(f"the airline cancelled flight {flight.number} of booking {booking.id}; move the booking "
                            "to another flight (change_flight, free of charge) or cancel it for a full refund")
        return booking

    def _party(self, booking: FlightBooking) -> int:
        return 1 + len(booking.companions)

    def _passenger(self, booking: FlightBooking, name: str | None) -> FlightBooking | Companion:
        if name is None or " ".join(name.split()).lower() == self.get(Traveller, booking.traveller_id).name.lower():
            return booking
        wanted = " ".join(name.split()).lower()
        for companion in booking.companions:
            if companion.name.lower() == wanted:
                return companion
        listed = ", ".join(c.name for c in booking.companions) or "none"
        raise ToolError(f"{name!r} is not a passenger of booking {booking.id}; its companions are: {listed}")

    def _unseat(self, booking: FlightBooking) -> None:
        booking.seat = None
        for companion in booking.companions:
            companion.seat = None

    def _included(self, booking: FlightBooking, cabin: str) -> int:
        tier = self.db.scalar(select(Traveller.loyalty_tier).where(Traveller.id == booking.traveller_id))
        return INCLUDED_BAGS[cabin] * self._party(booking) + (1 if tier == "gold" else 0)

    def _airline_of(self, booking: FlightBooking) -> str:
        return self.get(Flight, booking.flight_id).airline

    def _change_terms(self, booking: FlightBooking, new: Flight) -> dict:
        old = self.get(Flight, booking.flight_id)
        if new.id == old.id:
            raise ToolError(f"booking {booking.id} is already on flight {new.number} on {new.day}")
        if (new.origin, new.destination) != (old.origin, old.destination):
            raise ToolError(f"a change keeps the route {old.origin} to {old.destination}; flight {new.number} "
                            f"flies {new.origin} to {new.destination}. Cancel and book anew to change the route")
        party = self._party(booking)
        self._bookable(new, booking.cabin, party)
        traveller = self.get(Traveller, booking.traveller_id)
        self._not_aboard(traveller, [c.name for c in booking.companions], new)
        grounded = old.status == "cancelled"
        fee = 0.0 if grounded or booking.fare_type == "flex" or traveller.loyalty_tier == "gold" else CHANGE_FEE
        new_price = _money(self._unit(new, booking.cabin, booking.fare_type) * party)
        difference = 0.0 if grounded else _money(max(0.0, new_price - booking.price_paid))
        return {"booking_id": booking.id, "fare_type": booking.fare_type, "new_flight_id": new.id,
                "passengers": party, "airline_cancelled": grounded, "change_fee": fee, "fare_difference": difference,
                "total_due": _money(fee + difference)}

    def _cancel_terms(self, booking: FlightBooking, reason: str) -> dict:
        flight = self.get(Flight, booking.flight_id)
        basis, items = _refunded_items(flight.status, booking.booked_at, self.now, booking.fare_type,
                                       booking.insurance, reason)
        refunds: dict[str, float] = {}
        for item in items:
            for method_id, net in self._nets(booking, item):
                refunds[method_id] = _money(refunds.get(method_id, 0.0) + net)
        paid = _money(booking.price_paid + booking.bag_fees + booking.change_fees + booking.insurance_cost)
        refund = _money(sum(refunds.values()))
        return {"booking_id": booking.id, "reason": reason, "basis": basis, "refund": refund,
                "kept": _money(paid - refund), "items_refunded": list(items),
                "refunds": [{"payment_method_id": mid, "paid_with": self._label(self.db.get(PaymentMethod, mid)),
                             "amount": amount} for mid, amount in refunds.items() if amount]}

    def _nets(self, owner: FlightBooking | HotelBooking, item: str) -> list[tuple[str, float]]:
        """What each method paid for an item of a booking or stay and has not had back, the method
        charged last first."""
        column = "booking_id" if isinstance(owner, FlightBooking) else "stay_id"
        self.db.flush()
        return [(mid, _money(net)) for mid, net, _ in self.rows(
            f"SELECT payment_method_id, sum(CASE kind WHEN 'charge' THEN amount ELSE -amount END), "
            f"max(CASE kind WHEN 'charge' THEN id END) AS last FROM ledger WHERE {column} = ? AND item = ? "
            "GROUP BY payment_method_id ORDER BY last DESC", owner.id, item) if _money(net) > 0]

    def _refund_item(self, owner: FlightBooking | HotelBooking, item: str, amount: float | None, reason: str) -> float:
        """Refund `amount` of an item (all of it when None) to the methods that paid it, the one
        charged last first; the amount refunded."""
        left = amount
        refunded = 0.0
        for method_id, net in self._nets(owner, item):
            give = net if left is None else min(net, left)
            if give <= 0:
                break
            method = self.db.get(PaymentMethod, method_id)
            self._post(method, give, item, reason, owner, "refund")
            refunded += give
            if left is not None:
                left = _money(left - give)
        return _money(refunded)

    def _payer(self, booking: FlightBooking, payment_method_id: str | None) -> PaymentMethod:
        """The method named, or the one that paid the booking's fare."""
        if payment_method_id is not None:
            return self._own(self.get(PaymentMethod, payment_method_id), booking.traveller_id)
        first = self.db.scalar(select(LedgerEntry.payment_method_id).where(
            LedgerEntry.booking_id == booking.id, LedgerEntry.item == "fare", LedgerEntry.kind == "charge")
            .order_by(LedgerEntry.id).limit(1))
        return self.db.get(PaymentMethod, first)

    def _own(self, method: PaymentMethod, traveller_id: str) -> PaymentMethod:
        if method.traveller_id != traveller_id:
            raise ToolError(f"payment method {method.id} belongs to another traveller; list_payment_methods shows "
                            "this traveller's")
        return method

    def _payable(self, method: PaymentMethod, traveller_id: str, amount: float, airline: str | None, what: str) -> None:
        """Refuse a method that cannot pay `amount` for `what` (a flight of `airline`, or a stay when None)."""
        self._own(method, traveller_id)
        label = self._label(method)
        if method.expires_on is not None and method.expires_on < self.now.date():
            raise ToolError(f"{label} expired on {method.expires_on}; pay with another payment method "
                            "(list_payment_methods), or save a new card (add_card)")
        if method.kind == "voucher":
            issuer = self.db.get(Airline, method.airline).name
            if airline is None:
                raise ToolError(f"{label} is {issuer} credit and pays flights only; pay the stay with a card or a "
                                "gift card")
            if airline != method.airline:
                flying = self.db.get(Airline, airline).name
                raise ToolError(f"{label} is {issuer} credit and pays {issuer} flights only, not {flying}; "
                                "pay with a card or a gift card")
        if method.balance is not None and method.balance < amount:
            raise ToolError(f"{label} has ${method.balance:.2f} left, not enough for {what} (${amount:.2f}); nothing "
                            "was charged. Pay with another payment method (list_payment_methods)")

    def _charge(self, method: PaymentMethod, amount: float, item: str, reason: str,
                booking: FlightBooking | None = None, stay: HotelBooking | None = None) -> None:
        self._post(method, amount, item, reason, booking or stay, "charge")

    def _post(self, method: PaymentMethod, amount: float, item: str, reason: str,
              owner: FlightBooking | HotelBooking, kind: str) -> None:
        flight = isinstance(owner, FlightBooking)
        self.db.add(LedgerEntry(id=self.new_id("TXN"), traveller_id=owner.traveller_id, payment_method_id=method.id,
                                booking_id=owner.id if flight else None, stay_id=None if flight else owner.id,
                                kind=kind, item=item, reason=reason, amount=_money(amount), created_at=self.now))
        if method.balance is not None:
            method.balance = _money(method.balance + (amount if kind == "refund" else -amount))

    def _label(self, m: PaymentMethod) -> str:
        if m.kind == "card":
            return f"{m.brand} ending {m.last4}"
        if m.kind == "voucher":
            return f"{self.db.get(Airline, m.airline).name} voucher {m.code}"
        return f"gift card {m.code}"

    def _method(self, m: PaymentMethod) -> dict:
        info = {"payment_method_id": m.id, "kind": m.kind, "label": self._label(m)}
        if m.kind == "card":
            info |= {"brand": m.brand, "last4": m.last4}
        else:
            info |= {"code": m.code, "balance": m.balance}
        if m.kind == "voucher":
            info["airline"] = self.db.get(Airline, m.airline).name
        info |= {"expires_on": m.expires_on,
                 "expired": m.expires_on is not None and m.expires_on < self.now.date()}
        return info

    def _entry(self, e: LedgerEntry) -> dict:
        if e.booking_id is not None:
            b = self.db.get(FlightBooking, e.booking_id)
            f = self.db.get(Flight, b.flight_id)
            what = f"{f.number} {f.origin}-{f.destination} on {f.day}"
        else:
            h = self.db.get(HotelBooking, e.stay_id)
            what = f"{self.db.get(Hotel, self.db.get(RoomType, h.room_type_id).hotel_id).name} from {h.check_in}"
        return {"transaction_id": e.id, "created_at": e.created_at, "kind": e.kind, "item": e.item,
                "reason": e.reason, "amount": e.amount, "payment_method_id": e.payment_method_id,
                "paid_with": self._label(self.db.get(PaymentMethod, e.payment_method_id)),
                "booking_id": e.booking_id, "stay_id": e.stay_id, "for": what}

    def _flight(self, f: Flight) -> dict:
        airline = self.db.get(Airline, f.airline)
        rate = self.db.get(ExchangeRate, airline.currency).usd_per_unit
        cabins = {}
        for cabin in CABINS:
            fare = cabin_fare(f, cabin)
            cabins[cabin] = None if fare is None else {"seats_left": _seats(f, cabin), "fare": fare,
                                                       "fare_usd": fare_usd(fare, rate)}
        return {"flight_id": f.id, "number": f.number, "airline": airline.name, "origin": f.origin,
                "destination": f.destination, "departs_at": f.departs_at, "arrives_at": f.arrives_at,
                "status": f.status, "currency": airline.currency, **cabins}

    def _booking(self, b: FlightBooking) -> dict:
        f = self.db.get(Flight, b.flight_id)
        return {"booking_id": b.id, "itinerary_id": b.itinerary_id, "flight_id": f.id, "flight_number": f.number,
                "origin": f.origin, "destination": f.destination, "departs_at": f.departs_at,
                "flight_status": f.status, "cabin": b.cabin, "fare_type": b.fare_type,
                "refundable": b.fare_type == "flex", "passengers": 1 + len(b.companions), "seat": b.seat,
                "companions": [{"name": c.name, "seat": c.seat} for c in b.companions], "price_paid": b.price_paid,
                "bags": b.bags, "bag_fees": b.bag_fees, "change_fees": b.change_fees, "insurance": b.insurance,
                "insurance_cost": b.insurance_cost, "booked_at": b.booked_at, "status": b.status, "refund": b.refund,
                "cancel_reason": b.cancel_reason}

    def _stay(self, h: HotelBooking) -> dict:
        room = self.db.get(RoomType, h.room_type_id)
        hotel = self.db.get(Hotel, room.hotel_id)
        return {"stay_id": h.id, "itinerary_id": h.itinerary_id, "hotel_id": hotel.id, "hotel": hotel.name,
                "city": hotel.city, "room_type_id": room.id, "room": room.name, "check_in": h.check_in,
                "check_out": h.check_out, "guests": h.guests, "rate": h.rate, "total_price": h.total_price,
                "request": h.request, "status": h.status, "refund": h.refund}

    def _case(self, c: SupportCase) -> dict:
        notes = c.notes
        return {"case_id": c.id, "traveller_id": c.traveller_id, "topic": c.topic, "status": c.status,
                "booking_id": c.booking_id, "stay_id": c.stay_id, "description": c.description,
                "created_at": c.created_at, "updated_at": c.updated_at,
                "notes": [{"author": n.author, "text": n.text, "at": n.created_at} for n in notes]}


def _refunded_items(flight_status: str, booked_at: dt.datetime | str, at: dt.datetime | str, fare_type: str,
                    insured: bool, reason: str | None) -> tuple[str, tuple[str, ...]]:
    """Which rule a cancellation at `at` falls under, and the items it refunds in full."""
    if isinstance(booked_at, str):
        booked_at, at = dt.datetime.fromisoformat(booked_at), dt.datetime.fromisoformat(at)
    if flight_status == "cancelled":
        return "airline_cancelled", FLIGHT_ITEMS
    if at - booked_at < FREE_CANCEL:
        return "within_24_hours", FLIGHT_ITEMS
    if fare_type == "flex":
        return "refundable_fare", ("fare", "bag_fee", "change_fee")
    if insured and reason in COVERED:
        return "travel_insurance", ("fare", "bag_fee", "change_fee")
    return "non_refundable", ()


def _seats(flight: Flight, cabin: str) -> int:
    return getattr(flight, f"{cabin}_seats_left")


def _take_seat(flight: Flight, cabin: str, delta: int) -> None:
    setattr(flight, f"{cabin}_seats_left", _seats(flight, cabin) + delta)


def _brand(digits: str) -> str | None:
    if not digits.isdigit():
        return None
    if len(digits) == 16 and digits[0] == "4":
        return "Visa"
    if len(digits) == 16 and (51 <= int(digits[:2]) <= 55 or 2221 <= int(digits[:4]) <= 2720):
        return "Mastercard"
    if len(digits) == 15 and digits[:2] in ("34", "37"):
        return "American Express"
    return None


def _luhn(digits: str) -> bool:
    total = 0
    for i, d in enumerate(reversed(digits)):
        n = int(d) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def _case_text(text: str, what: str, shortest: int = 10) -> str:
    text = " ".join(text.split())
    if not shortest <= len(text) <= 1000:
        raise ToolError(f"the {what} must be {shortest} to 1000 characters, got {len(text)}; say what the "
                        "traveller needs")
    return text


def _traveller(t: Traveller) -> dict:
    return {"traveller_id": t.id, "name": t.name, "email": t.email, "loyalty_number": t.loyalty_number,
            "loyalty_tier": t.loyalty_tier}


def _hotel(h: Hotel) -> dict:
    return {"hotel_id": h.id, "name": h.name, "city": h.city, "stars": h.stars}


def _room(r: RoomType, hotel: Hotel) -> dict:
    return {"room_type_id": r.id, "hotel_id": hotel.id, "name": r.name, "max_guests": r.max_guests,
            "nightly_price": r.nightly_price}


def _itinerary(i: Itinerary) -> dict:
    return {"itinerary_id": i.id, "traveller_id": i.traveller_id, "name": i.name, "created_at": i.created_at}
