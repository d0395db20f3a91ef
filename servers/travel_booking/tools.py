"""The travel_booking server's tools: travellers, flight and hotel search, itineraries and bookings.

Rules, in one place:
- Nothing departing or checking in before today can be booked; a flight or cabin with no seat left,
  or a room type with no room left on any night of a stay, refuses the booking (no overbooking).
- A cabin's seats are the agency's booked passengers, the seats held by passengers who booked
  elsewhere, and the seats left: booking a flight takes one of those left, cancelling gives it
  back. The seat map shows every seat no passenger holds. Hotel rooms are counted per night from
  the bookings that hold them.
- A traveller books a flight once: a second booking of the same traveller on the same flight is
  refused (as airlines refuse a passenger twice on one flight).
- Fares: 'basic' is non-refundable, and a change costs a $99 fee (waived for gold members) plus
  any fare difference; 'flex' costs 35% more, changes free of fees and refunds in full. Change
  fees are kept apart from the fare paid: a fee is never credit towards a later change.
- A change keeps the route and the cabin, and needs a seat on the new flight; a flight that has
  departed can no longer be changed or cancelled.
- Checked bags: $35 each; business includes two, and gold members one more; at most 4 per booking.
- Hotel rates: 'refundable' refunds in full before check-in; 'nonrefundable' is 15% cheaper and
  refunds nothing. Stays are 1 to 14 nights, guests at most the room type's maximum.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Date, Detail, Entity, Id, Limit, Toolkit, ToolError, tool

from .models import Airport, Base, Flight, FlightBooking, Hotel, HotelBooking, Itinerary, RoomType, Traveller
from .seed import seat_map, seed

CHANGE_FEE = 99.0
FLEX_MARKUP = 1.35
BAG_FEE = 35.0
MAX_BAGS = 4
NONREFUNDABLE_DISCOUNT = 0.85
MAX_NIGHTS = 14
Cabin = Literal["economy", "business"]
FareType = Literal["basic", "flex"]
Rate = Literal["refundable", "nonrefundable"]


def _money(value: float) -> float:
    return round(value + 0.0, 2)


class TravelBookingServer(Toolkit):
    """A travel agency: find travellers, search flights and hotels, build itineraries, book, pick
    seats, add bags, and change or cancel under the fare rules."""

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
        departure; with a cabin, only flights with a seat left in it. Each flight shows seats left and
        the basic fare per cabin (a flex fare costs 35% more).

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
            if cabin == "economy":
                query = query.where(Flight.economy_seats_left > 0)
            elif cabin == "business":
                query = query.where(Flight.business_seats_left > 0)
            found += [{**_flight(f), "direction": direction} for f in self.db.scalars(query)]
        return found

    @tool(read_only=True)
    def get_flight(self, flight_id: Id("flight")) -> dict:
        """Return one flight: number, route, times, status, seats left and basic fare per cabin."""
        return _flight(self.get(Flight, flight_id))

    @tool(read_only=True)
    def list_free_seats(self, flight_id: Id("flight"), cabin: Cabin) -> dict:
        """List the seats of a cabin on a flight that no passenger holds, front to back (business rows
        1-4, economy rows 10-35; A and F are windows), and how many seats are left for sale. Booked
        passengers without a seat yet pick theirs among the free seats, so there can be more free
        seats than seats left.

        Args:
            cabin: 'economy' or 'business'.
        """
        flight = self.get(Flight, flight_id)
        taken = self._taken_seats(flight, cabin)
        free = [s for s in seat_map(cabin) if s not in taken]
        return {"flight_id": flight.id, "cabin": cabin, "seats_left": _seats(flight, cabin), "free_seats": free}

    # -- hotels ---------------------------------------------------------------------------------

    @tool(read_only=True)
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
        (fares, bag fees and change fees of the flights booked, and the stays booked)."""
        itin = self.get(Itinerary, itinerary_id)
        flights = [self._booking(b) for b in self.db.scalars(
            select(FlightBooking).where(FlightBooking.itinerary_id == itin.id).order_by(FlightBooking.id))]
        stays = [self._stay(h) for h in self.db.scalars(
            select(HotelBooking).where(HotelBooking.itinerary_id == itin.id).order_by(HotelBooking.id))]
        total = sum(f["price_paid"] + f["bag_fees"] + f["change_fees"] for f in flights if f["status"] == "booked")
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

    @tool(read_only=True)
    def list_flight_bookings(self, traveller_id: Id("traveller"), status: Literal["booked", "cancelled"] | None = None
                             ) -> list[dict]:
        """List a traveller's flight bookings with flight, cabin, fare type, seat and bags, ordered by id.

        Args:
            status: only bookings with this status: 'booked' or 'cancelled'.
        """
        bookings = [b for b in self.get(Traveller, traveller_id).flight_bookings if status in (None, b.status)]
        self.world.preload(Flight, [b.flight_id for b in bookings])
        return [self._booking(b) for b in bookings]

    @tool(read_only=True)
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
                    fare_type: FareType = "basic") -> dict:
        """Book a seat on a flight into an itinerary, taking one seat from the cabin. A traveller
        books a flight once: one already booked on it is refused (select_seat and add_bags change
        that booking).

        Args:
            cabin: 'economy' or 'business'.
            fare_type: 'basic' (non-refundable, changes cost $99 plus any fare difference) or 'flex'
                (35% more, refundable, changes without a fee).
        """
        itin = self.get(Itinerary, itinerary_id)
        flight = self._bookable(self.get(Flight, flight_id), cabin)
        self._not_aboard(itin.traveller_id, flight)
        _take_seat(flight, cabin, -1)
        price = _money(_fare(flight, cabin) * (FLEX_MARKUP if fare_type == "flex" else 1.0))
        booking = FlightBooking(id=self.new_id("FBK"), itinerary_id=itin.id, traveller_id=itin.traveller_id,
                                flight_id=flight.id, cabin=cabin, fare_type=fare_type, price_paid=price, seat=None,
                                bags=0, bag_fees=0.0, change_fees=0.0, refund=0.0, status="booked",
                                booked_at=self.now)
        self.db.add(booking)
        return self._booking(booking)

    @tool(idempotent=True)
    def select_seat(self, booking_id: Id("booking"), seat: str) -> dict:
        """Pick a seat for a flight booking, in its cabin and free on that flight, such as '14A'; the
        seat it held before is given back. Picking the seat it already has changes nothing.

        Args:
            seat: row number and letter, such as '14A'; business rows 1-4, economy rows 10-35.
        """
        booking = self._open(self.get(FlightBooking, booking_id), "given a seat")
        seat = seat.strip().upper()
        if seat not in seat_map(booking.cabin):
            raise ToolError(f"seat {seat!r} is not in the {booking.cabin} cabin; "
                            "call list_free_seats for the seats you can pick")
        if seat != booking.seat and seat in self._taken_seats(self.get(Flight, booking.flight_id), booking.cabin):
            raise ToolError(f"seat {seat} is taken on this flight; call list_free_seats and pick another")
        booking.seat = seat
        return self._booking(booking)

    @tool()
    def add_bags(self, booking_id: Id("booking"), count: int) -> dict:
        """Add checked bags to a flight booking and charge for them: $35 a bag, business includes
        two, gold members one more; at most 4 bags per booking.

        Args:
            count: how many bags to add, 1 to 4.
        """
        booking = self._open(self.get(FlightBooking, booking_id), "given bags")
        if not 1 <= count <= MAX_BAGS:
            raise ToolError(f"count must be 1 to {MAX_BAGS}, got {count}")
        if booking.bags + count > MAX_BAGS:
            raise ToolError(f"booking {booking.id} already has {booking.bags} bag(s); at most {MAX_BAGS} bags per "
                            f"booking, so at most {MAX_BAGS - booking.bags} more")
        tier = self.db.scalar(select(Traveller.loyalty_tier).where(Traveller.id == booking.traveller_id))
        included = _included_bags(booking.cabin, tier)
        before = max(0, booking.bags - included)
        booking.bags += count
        charged = (max(0, booking.bags - included) - before) * BAG_FEE
        booking.bag_fees = _money(booking.bag_fees + charged)
        return {**self._booking(booking), "charged_now": _money(charged)}

    @tool(read_only=True)
    def quote_flight_change(self, booking_id: Id("booking"), new_flight_id: Id("flight")) -> dict:
        """What moving a booking to another flight would cost under its fare, without changing it:
        the change fee, the fare difference and the total due."""
        booking = self._open(self.get(FlightBooking, booking_id), "changed")
        return self._change_terms(booking, self.get(Flight, new_flight_id))

    @tool()
    def change_flight(self, booking_id: Id("booking"), new_flight_id: Id("flight")) -> dict:
        """Move a booking to another flight on the same route and cabin, charging the fare's change
        fee and any fare difference (a lower fare refunds nothing); the old seat is given back. The
        fare paid grows by the difference only: the fee is kept apart and is never credit towards a
        later change."""
        booking = self._open(self.get(FlightBooking, booking_id), "changed")
        new = self.get(Flight, new_flight_id)
        terms = self._change_terms(booking, new)
        old = self.get(Flight, booking.flight_id)
        _take_seat(old, booking.cabin, +1)
        _take_seat(new, booking.cabin, -1)
        booking.flight_id = new.id
        booking.seat = None
        booking.price_paid = _money(booking.price_paid + terms["fare_difference"])
        booking.change_fees = _money(booking.change_fees + terms["change_fee"])
        return {**self._booking(booking), "change_fee": terms["change_fee"],
                "fare_difference": terms["fare_difference"], "charged": terms["total_due"]}

    @tool(destructive=True)
    def cancel_flight_booking(self, booking_id: Id("booking")) -> dict:
        """Cancel a flight booking and give its seat back: a flex fare refunds what was paid (bag fees
        included), a basic fare refunds nothing."""
        booking = self._open(self.get(FlightBooking, booking_id), "cancelled")
        flight = self.get(Flight, booking.flight_id)
        _take_seat(flight, booking.cabin, +1)
        booking.status = "cancelled"
        booking.seat = None
        booking.refund = _flight_refund(booking)
        return self._booking(booking)

    # -- hotel bookings -------------------------------------------------------------------------

    @tool(produces=("stay",), details=(Detail("hotel_bookings", "request"),))
    def book_hotel(self, itinerary_id: Id("itinerary"), room_type_id: Id("room_type"), check_in: Date,
                   check_out: Date, guests: int = 1, rate: Rate = "refundable", request: str | None = None) -> dict:
        """Book a room into an itinerary for every night from check_in to check_out.

        Args:
            check_in: the first night, today or later, such as '2026-03-14'.
            check_out: the day of departure, 1 to 14 nights after check_in.
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
        stay = HotelBooking(id=self.new_id("HBK"), itinerary_id=itin.id, traveller_id=itin.traveller_id,
                            room_type_id=room.id, check_in=check_in, check_out=check_out, guests=guests, rate=rate,
                            total_price=_money(per_night * nights), refund=0.0,
                            request=(request or "").strip()[:200] or None, status="booked")
        self.db.add(stay)
        return self._stay(stay)

    @tool(destructive=True)
    def cancel_hotel_booking(self, stay_id: Id("stay")) -> dict:
        """Cancel a hotel booking before check-in, freeing its room: a refundable rate refunds the
        whole price, a nonrefundable one nothing."""
        stay = self.get(HotelBooking, stay_id)
        if stay.status != "booked":
            raise ToolError(f"hotel booking {stay.id} is already {stay.status}")
        if stay.check_in <= self.now.date():
            raise ToolError(f"the stay of hotel booking {stay.id} began on {stay.check_in}; "
                            "a stay can only be cancelled before its check-in day")
        stay.status = "cancelled"
        stay.refund = _stay_refund(stay)
        return self._stay(stay)

    # -- hidden ---------------------------------------------------------------------------------

    @tool(read_only=True, hidden=True)
    def count_bookings(self) -> dict:
        """Debugging only: how many flight bookings each status has in the whole world."""
        return dict(self.db.execute(select(FlightBooking.status, func.count()).group_by(FlightBooking.status)).all())

    # -- the world's rules ------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """Seats (seats left = the cabin's seat map less the agency's booked passengers and the
        seats held elsewhere; a seat has one passenger; a traveller holds a flight once), money
        (fares, bag fees, change fees and refunds as the fare rules say), rooms per night, states,
        references and times."""
        problems = self.after_now(Itinerary.created_at, FlightBooking.booked_at)
        problems += self._seat_problems()
        problems += self._flight_booking_problems()
        problems += self._stay_problems()
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
        maps = {cabin: (seat_map(cabin), set(seat_map(cabin))) for cabin in ("economy", "business")}
        aboard: dict[tuple[str, str], list[str | None]] = {}  # (flight, cabin): seats of booked passengers
        for flight_id, cabin, seat in self.rows("SELECT flight_id, cabin, seat FROM flight_bookings "
                                                "WHERE status = 'booked'"):
            aboard.setdefault((flight_id, cabin), []).append(seat)
        for (fid, status, day, departs, arrives, economy_left, business_left, economy_held,
             business_held) in self.rows(
                "SELECT id, status, day, departs_at, arrives_at, economy_seats_left, business_seats_left, "
                "economy_held_elsewhere, business_held_elsewhere FROM flights"):
            if status not in ("scheduled", "cancelled"):
                problems.append(f"flight {fid}: status {status!r}")
            if not departs.startswith(day) or arrives <= departs:
                problems.append(f"flight {fid}: departs {departs} on day {day} and arrives {arrives}")
            for cabin, left, held in (("economy", economy_left, economy_held), ("business", business_left,
                                                                                 business_held)):
                (seats, cabin_seats), others = maps[cabin], held.split()
                mine = aboard.get((fid, cabin), [])
                seated = [seat for seat in mine if seat is not None]
                if left < 0:
                    problems.append(f"flight {fid}: {left} {cabin} seats left")
                if left != len(seats) - len(others) - len(mine):
                    problems.append(f"flight {fid}: {left} {cabin} seats left, but its {len(seats)} seats less "
                                    f"{len(mine)} booked here and {len(others)} held elsewhere leave "
                                    f"{len(seats) - len(others) - len(mine)}")
                if not set(others) <= cabin_seats or len(set(others)) != len(others):
                    problems.append(f"flight {fid}: {cabin} seats held elsewhere {held!r} are not distinct "
                                    "seats of the cabin")
                if len(set(seated)) != len(seated) or set(seated) & set(others):
                    problems.append(f"flight {fid}: an {cabin} seat has two passengers")
        return problems

    def _flight_booking_problems(self) -> list[str]:
        problems = []
        flights = {fid: (status, departs, economy, business) for fid, status, departs, economy, business in self.rows(
            "SELECT id, status, departs_at, economy_fare, business_fare FROM flights")}
        held: set[tuple[str, str]] = set()
        for (bid, tid, itinerary_traveller, created, tier, fid, cabin, fare_type, price, seat, bags, bag_fees,
             change_fees, refund, status, booked_at) in self.rows(
                "SELECT b.id, b.traveller_id, i.traveller_id, i.created_at, t.loyalty_tier, b.flight_id, b.cabin, "
                "b.fare_type, b.price_paid, b.seat, b.bags, b.bag_fees, b.change_fees, b.refund, b.status, "
                "b.booked_at FROM flight_bookings b JOIN itineraries i ON i.id = b.itinerary_id "
                "JOIN travellers t ON t.id = b.traveller_id ORDER BY b.id"):
            where = f"flight booking {bid}"
            if status not in ("booked", "cancelled") or cabin not in ("economy", "business") \
                    or fare_type not in ("basic", "flex"):
                problems.append(f"{where}: status {status!r}, cabin {cabin!r}, fare type {fare_type!r}")
                continue
            if tid != itinerary_traveller:
                problems.append(f"{where} of traveller {tid} is in an itinerary of {itinerary_traveller}")
            flight_status, departs, economy, business = flights[fid]
            if booked_at < created or booked_at >= departs:
                problems.append(f"{where}: booked at {booked_at}, before its itinerary ({created}) or after "
                                f"its flight departed ({departs})")
            if seat is not None and (status != "booked" or seat not in seat_map(cabin)):
                problems.append(f"{where}: {status} booking holds seat {seat!r} of the {cabin} cabin")
            if status == "booked":
                if (tid, fid) in held:
                    problems.append(f"{where}: traveller {tid} holds flight {fid} twice")
                held.add((tid, fid))
                if flight_status != "scheduled":
                    problems.append(f"{where}: booked on a {flight_status} flight")
            fare = (business if cabin == "business" else economy) * (FLEX_MARKUP if fare_type == "flex" else 1.0)
            if price < _money(fare):
                problems.append(f"{where}: paid {price} for a {fare_type} {cabin} fare of {_money(fare)}")
            if not 0 <= bags <= MAX_BAGS or bag_fees != _money(max(0, bags - _included_bags(cabin, tier)) * BAG_FEE):
                problems.append(f"{where}: {bags} bags charged {bag_fees}")
            free_changes = fare_type == "flex" or tier == "gold"
            if change_fees < 0 or (free_changes and change_fees) or round(change_fees / CHANGE_FEE, 6) % 1:
                problems.append(f"{where}: change fees {change_fees} on a {fare_type} fare ({tier} tier)")
            owed = _money(price + bag_fees + change_fees) if status == "cancelled" and fare_type == "flex" else 0.0
            if refund != owed:
                problems.append(f"{where}: {status} {fare_type} booking refunded {refund}, not {owed}")
        return problems

    def _stay_problems(self) -> list[str]:
        problems = []
        nights: dict[tuple[str, dt.date], int] = {}
        for (hid, tid, itinerary_traveller, room_id, rooms, max_guests, nightly, check_in, check_out, guests, rate,
             total, refund, status) in self.rows(
                "SELECT h.id, h.traveller_id, i.traveller_id, h.room_type_id, r.rooms, r.max_guests, r.nightly_price, "
                "h.check_in, h.check_out, h.guests, h.rate, h.total_price, h.refund, h.status FROM hotel_bookings h "
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
            if status == "booked":
                for n in range(stay):
                    night = (room_id, first + dt.timedelta(days=n))
                    nights[night] = nights.get(night, 0) + 1
                    if nights[night] == rooms + 1:
                        problems.append(f"room type {room_id}: more than its {rooms} rooms booked on {night[1]}")
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

    def _bookable(self, flight: Flight, cabin: str) -> Flight:
        if flight.status != "scheduled":
            raise ToolError(f"flight {flight.number} on {flight.day} is {flight.status}; search for another flight")
        if flight.departs_at <= self.now:
            raise ToolError(f"flight {flight.number} departed on {flight.departs_at:%Y-%m-%d %H:%M}, before now "
                            f"({self.now:%Y-%m-%d %H:%M}); only future flights can be booked")
        if _seats(flight, cabin) <= 0:
            raise ToolError(f"flight {flight.number} on {flight.day} has no {cabin} seat left; "
                            "try the other cabin or another flight")
        return flight

    def _not_aboard(self, traveller_id: str, flight: Flight) -> None:
        held = self.db.scalar(select(FlightBooking.id).where(
            FlightBooking.traveller_id == traveller_id, FlightBooking.flight_id == flight.id,
            FlightBooking.status == "booked"))
        if held:
            raise ToolError(f"traveller {traveller_id} is already booked on flight {flight.number} on {flight.day} "
                            f"(booking {held}); a traveller books a flight once. Change that booking instead "
                            "(select_seat, add_bags), or pick another flight")

    def _taken_seats(self, flight: Flight, cabin: str) -> set[str]:
        """The seats of a cabin that a passenger holds: the agency's booked passengers with a seat,
        and those who booked elsewhere."""
        mine = self.db.scalars(select(FlightBooking.seat).where(
            FlightBooking.flight_id == flight.id, FlightBooking.cabin == cabin, FlightBooking.status == "booked",
            FlightBooking.seat.is_not(None)))
        return set(mine) | set(_held_elsewhere(flight, cabin))

    def _open(self, booking: FlightBooking, action: str) -> FlightBooking:
        if booking.status != "booked":
            raise ToolError(f"flight booking {booking.id} is {booking.status}; it can no longer be {action}")
        flight = self.get(Flight, booking.flight_id)
        if flight.departs_at <= self.now:
            raise ToolError(f"flight {flight.number} of booking {booking.id} departed on "
                            f"{flight.departs_at:%Y-%m-%d %H:%M}; a flown booking can no longer be {action}")
        return booking

    def _change_terms(self, booking: FlightBooking, new: Flight) -> dict:
        old = self.get(Flight, booking.flight_id)
        if new.id == old.id:
            raise ToolError(f"booking {booking.id} is already on flight {new.number} on {new.day}")
        if (new.origin, new.destination) != (old.origin, old.destination):
            raise ToolError(f"a change keeps the route {old.origin} to {old.destination}; flight {new.number} "
                            f"flies {new.origin} to {new.destination}. Cancel and book anew to change the route")
        self._bookable(new, booking.cabin)
        self._not_aboard(booking.traveller_id, new)
        tier = self.db.scalar(select(Traveller.loyalty_tier).where(Traveller.id == booking.traveller_id))
        fee = 0.0 if booking.fare_type == "flex" or tier == "gold" else CHANGE_FEE
        new_price = _fare(new, booking.cabin) * (FLEX_MARKUP if booking.fare_type == "flex" else 1.0)
        difference = _money(max(0.0, new_price - booking.price_paid))
        return {"booking_id": booking.id, "fare_type": booking.fare_type, "new_flight_id": new.id,
                "change_fee": fee, "fare_difference": difference, "total_due": _money(fee + difference)}

    def _booking(self, b: FlightBooking) -> dict:
        f = self.db.get(Flight, b.flight_id)
        return {"booking_id": b.id, "itinerary_id": b.itinerary_id, "flight_id": f.id, "flight_number": f.number,
                "origin": f.origin, "destination": f.destination, "departs_at": f.departs_at, "cabin": b.cabin,
                "fare_type": b.fare_type, "refundable": b.fare_type == "flex", "price_paid": b.price_paid,
                "seat": b.seat, "bags": b.bags, "bag_fees": b.bag_fees, "change_fees": b.change_fees,
                "status": b.status, "refund": b.refund}

    def _stay(self, h: HotelBooking) -> dict:
        room = self.db.get(RoomType, h.room_type_id)
        hotel = self.db.get(Hotel, room.hotel_id)
        return {"stay_id": h.id, "itinerary_id": h.itinerary_id, "hotel_id": hotel.id, "hotel": hotel.name,
                "city": hotel.city, "room_type_id": room.id, "room": room.name, "check_in": h.check_in,
                "check_out": h.check_out, "guests": h.guests, "rate": h.rate, "total_price": h.total_price,
                "request": h.request, "status": h.status, "refund": h.refund}


def _seats(flight: Flight, cabin: str) -> int:
    return flight.business_seats_left if cabin == "business" else flight.economy_seats_left


def _take_seat(flight: Flight, cabin: str, delta: int) -> None:
    if cabin == "business":
        flight.business_seats_left += delta
    else:
        flight.economy_seats_left += delta


def _fare(flight: Flight, cabin: str) -> float:
    return flight.business_fare if cabin == "business" else flight.economy_fare


def _held_elsewhere(flight: Flight, cabin: str) -> list[str]:
    held = flight.business_held_elsewhere if cabin == "business" else flight.economy_held_elsewhere
    return held.split()


def _included_bags(cabin: str, tier: str) -> int:
    return (2 if cabin == "business" else 0) + (1 if tier == "gold" else 0)


def _flight_refund(b: FlightBooking) -> float:
    """What a cancelled flight booking gives back: a flex fare everything paid, a basic fare nothing."""
    return _money(b.price_paid + b.bag_fees + b.change_fees) if b.fare_type == "flex" else 0.0


def _stay_refund(h: HotelBooking) -> float:
    return h.total_price if h.rate == "refundable" else 0.0


def _traveller(t: Traveller) -> dict:
    return {"traveller_id": t.id, "name": t.name, "email": t.email, "loyalty_number": t.loyalty_number,
            "loyalty_tier": t.loyalty_tier}


def _flight(f: Flight) -> dict:
    return {"flight_id": f.id, "number": f.number, "origin": f.origin, "destination": f.destination,
            "departs_at": f.departs_at, "arrives_at": f.arrives_at, "status": f.status,
            "economy": {"seats_left": f.economy_seats_left, "fare": f.economy_fare},
            "business": {"seats_left": f.business_seats_left, "fare": f.business_fare}}


def _hotel(h: Hotel) -> dict:
    return {"hotel_id": h.id, "name": h.name, "city": h.city, "stars": h.stars}


def _room(r: RoomType, hotel: Hotel) -> dict:
    return {"room_type_id": r.id, "hotel_id": hotel.id, "name": r.name, "max_guests": r.max_guests,
            "nightly_price": r.nightly_price}


def _itinerary(i: Itinerary) -> dict:
    return {"itinerary_id": i.id, "traveller_id": i.traveller_id, "name": i.name, "created_at": i.created_at}
