"""The seed: twelve airports, daily flights on eight city pairs from a few days ago to four weeks
ahead (some sold out in a cabin, a few cancelled), two or three hotels per city with room types,
and 40 travellers with itineraries holding flight and hotel bookings (some cancelled, some already
flown). Every seat of a cabin is booked through the agency, held by a passenger who booked
elsewhere, or left for sale, so that the seat map and the seats left agree; a flight records the
seats the agency sells (its passengers' and those left for sale), every other seat being held elsewhere.

Drawn after all of that, from a generator of its own so that every value above stays what it
was (`deepen`): airlines that price in pounds, euros and Canadian dollars with the day's exchange
rates, their flights to London, Paris, Toronto and Vancouver, a first cabin on the long routes,
every traveller's cards, vouchers and gift cards, the ledger of what every booking and stay was
charged and refunded, a few bookings made in the last day, on flights the airline has since
cancelled, or with companions, and support cases with their notes."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from prove_env.world import SeedContext

import random

from .models import (Airline, Airport, CaseNote, Companion, ExchangeRate, Flight, FlightBooking, Hotel, HotelBooking,
                     Itinerary, LedgerEntry, PaymentMethod, RoomType, SupportCase, Traveller)

AIRPORTS = (("JFK", "John F. Kennedy International", "New York"), ("LAX", "Los Angeles International", "Los Angeles"),
            ("ORD", "O'Hare International", "Chicago"), ("DEN", "Denver International", "Denver"),
            ("SEA", "Seattle-Tacoma International", "Seattle"), ("SFO", "San Francisco International", "San Francisco"),
            ("BOS", "Logan International", "Boston"), ("MIA", "Miami International", "Miami"),
            ("ATL", "Hartsfield-Jackson Atlanta International", "Atlanta"), ("AUS", "Austin-Bergstrom International",
                                                                             "Austin"),
            ("EWR", "Newark Liberty International", "New York"), ("PDX", "Portland International", "Portland"))
ROUTES = (("JFK", "LAX", 330), ("ORD", "DEN", 150), ("SEA", "SFO", 125), ("BOS", "MIA", 195),
          ("ATL", "AUS", 140), ("EWR", "ORD", 135), ("DEN", "PDX", 165), ("JFK", "MIA", 185))
HOTEL_BRANDS = ("Grand", "Harbor", "Park", "Central", "Riverside", "Summit", "Plaza", "Gateway")
HOTEL_KINDS = ("Hotel", "Inn", "Suites", "Lodge")
ROOMS = (("Standard Queen", 2, 1.0), ("Standard King", 2, 1.1), ("Double Queen", 4, 1.3), ("Junior Suite", 3, 1.8),
         ("Family Room", 5, 1.6))
TRIP_WORDS = ("Trip", "Weekend", "Conference", "Visit", "Getaway", "Business trip")
ECONOMY_ROWS, BUSINESS_ROWS, FIRST_ROWS = range(10, 36), range(1, 5), range(5, 7)
DAYS = range(-4, 29)
CABINS = ("economy", "business", "first")
# code, name, currency; Trailblazer Air flies the domestic routes in dollars
AIRLINES = (("TB", "Trailblazer Air", "USD"), ("KA", "Kestrel Atlantic", "GBP"), ("AE", "Aurelia Europe", "EUR"),
            ("MP", "Maple Air", "CAD"))
RATES = {"USD": 1.0, "GBP": 1.27, "EUR": 1.09, "CAD": 0.73}  # USD per unit, give or take the day's move
FOREIGN_AIRPORTS = (("LHR", "Heathrow", "London"), ("CDG", "Charles de Gaulle", "Paris"),
                    ("YYZ", "Toronto Pearson International", "Toronto"),
                    ("YVR", "Vancouver International", "Vancouver"))
# origin, destination, minutes, airline, basic economy fare per minute in the airline's currency, first cabin
FOREIGN_ROUTES = (("JFK", "LHR", 415, "KA", 0.95, True), ("BOS", "LHR", 390, "KA", 0.95, True),
                  ("JFK", "CDG", 445, "AE", 1.0, True), ("ORD", "YYZ", 110, "MP", 2.1, False),
                  ("SEA", "YVR", 65, "MP", 2.6, False))
FIRST_ROUTES = {("JFK", "LAX"), ("LAX", "JFK")}  # the domestic route flown with a first cabin
CARD_BRANDS = (("Visa", "4"), ("Mastercard", "5"), ("American Express", "3"))
CASE_TOPICS = ("name_correction", "special_assistance", "refund", "schedule_change", "baggage", "other")
INSURANCE_PRICE = 30.0  # travel insurance, per passenger


def seat_map(cabin: str) -> list[str]:
    """Every seat of a cabin, front to back: first rows 5-6 (A, F), business rows 1-4 (A, C, D, F),
    economy rows 10-35 (A to F)."""
    if cabin == "first":
        return [f"{r}{c}" for r in FIRST_ROWS for c in "AF"]
    if cabin == "business":
        return [f"{r}{c}" for r in BUSINESS_ROWS for c in "ACDF"]
    return [f"{r}{c}" for r in ECONOMY_ROWS for c in "ABCDEF"]


def held_elsewhere(flight: Flight, cabin: str) -> list[str]:
    """The seats of a cabin held by passengers who booked elsewhere, in seat map order: every seat the
    agency does not sell (none where the flight has no such cabin)."""
    if cabin == "first" and flight.first_fare is None:
        return []
    sold = set(getattr(flight, f"{cabin}_agency_seats").split())
    return [s for s in seat_map(cabin) if s not in sold]


def set_held_elsewhere(flight: Flight, cabin: str, held: list[str]) -> None:
    """Record the seats of a cabin held by passengers who booked elsewhere: the agency sells the rest."""
    elsewhere = set(held)
    setattr(flight, f"{cabin}_agency_seats", " ".join(s for s in seat_map(cabin) if s not in elsewhere))


def seed(ctx: SeedContext) -> None:
    rng = ctx.rng
    today = ctx.now.date()
    for code, name, city in AIRPORTS:
        ctx.add(Airport(id=code, name=name, city=city))
    flights: list[Flight] = []
    number = 100
    for origin, destination, minutes in ROUTES:
        for a, b in ((origin, destination), (destination, origin)):
            hours = sorted(rng.sample([6, 7, 8, 9, 11, 13, 15, 17, 19], 2))
            numbers = []
            for _ in hours:
                number += rng.randint(3, 17)
                numbers.append(f"TB {number}")
            base = round(minutes * rng.uniform(0.9, 1.3), 0)
            for offset in DAYS:
                day = today + dt.timedelta(days=offset)
                for hour, flight_no in zip(hours, numbers):
                    if rng.random() < 0.25:
                        continue  # not every departure runs every day
                    departs = dt.datetime.combine(day, dt.time(hour, rng.choice([0, 15, 30, 45])))
                    economy = float(round(base * rng.uniform(0.8, 1.5)) + 0.0) - 0.01
                    flight = Flight(id=ctx.new_id("FLT"), number=flight_no, airline="TB", origin=a, destination=b,
                                    day=day,
                                    departs_at=departs, arrives_at=departs + dt.timedelta(minutes=minutes),
                                    economy_seats_left=0 if rng.random() < 0.08 else rng.randint(1, 40),
                                    economy_fare=round(economy, 2),
                                    business_seats_left=0 if rng.random() < 0.2 else rng.randint(1, 8),
                                    business_fare=round(economy * rng.uniform(2.6, 3.4), 0) - 0.01,
                                    status="cancelled" if rng.random() < 0.02 else "scheduled",
                                    economy_agency_seats="", business_agency_seats="",
                                    first_seats_left=0, first_fare=None, first_agency_seats="")
                    ctx.add(flight)
                    flights.append(flight)
    hotels: list[tuple[Hotel, list[RoomType]]] = []
    cities = sorted({city for _, _, city in AIRPORTS})
    for city in cities:
        used: set[str] = set()
        for _ in range(rng.randint(2, 3)):
            name = f"{city} {rng.choice(HOTEL_BRANDS)} {rng.choice(HOTEL_KINDS)}"
            if name in used:
                continue
            used.add(name)
            hotel = Hotel(id=ctx.new_id("HTL"), name=name, city=city, stars=rng.randint(2, 5))
            ctx.add(hotel)
            base = 70 + 35 * hotel.stars + rng.randint(0, 40)
            rooms = []
            for room_name, guests, factor in sorted(rng.sample(ROOMS, rng.randint(2, 3)), key=lambda r: r[2]):
                room = RoomType(id=ctx.new_id("RMT"), hotel_id=hotel.id, name=room_name, max_guests=guests,
                                nightly_price=float(round(base * factor)), rooms=rng.randint(1, 6))
                ctx.add(room)
                rooms.append(room)
            hotels.append((hotel, rooms))
    city_of = {code: city for code, _, city in AIRPORTS}
    booked: dict[tuple[str, str], list[FlightBooking]] = {}  # (flight, cabin): the agency's booked passengers
    nights_booked: dict[tuple[str, dt.date], int] = {}  # (room type, night): rooms booked
    names: set[str] = set()
    for _ in range(40):
        first, last = ctx.person_name()
        if f"{first} {last}" in names:
            continue
        names.add(f"{first} {last}")
        tier = rng.choices(["none", "silver", "gold"], weights=[5, 3, 2])[0]
        traveller = Traveller(id=ctx.new_id("TRV"), name=f"{first} {last}",
                              email=f"{first.lower()}.{last.lower()}@example.com",
                              date_of_birth=today - dt.timedelta(days=rng.randint(20 * 365, 70 * 365)),
                              loyalty_number=None if tier == "none" and rng.random() < 0.6
                              else f"TB{rng.randint(10**7, 10**8 - 1)}", loyalty_tier=tier)
        ctx.add(traveller)
        trip_names: set[str] = set()
        for _ in range(rng.randint(0, 3)):
            flight = rng.choice(flights)
            if flight.status == "cancelled":
                continue
            trip = f"{city_of[flight.destination]} {rng.choice(TRIP_WORDS).lower()}"
            trip = trip[0].upper() + trip[1:]
            if trip in trip_names:
                continue
            trip_names.add(trip)
            itinerary = Itinerary(id=ctx.new_id("ITN"), traveller_id=traveller.id, name=trip,
                                  created_at=ctx.moment(-60, -8))
            ctx.add(itinerary)
            cabin = "business" if rng.random() < 0.2 else "economy"
            fare_type = "flex" if rng.random() < 0.35 else "basic"
            fare = flight.business_fare if cabin == "business" else flight.economy_fare
            price = round(fare * (1.35 if fare_type == "flex" else 1.0), 2)
            seat = rng.choice(seat_map(cabin)) if rng.random() < 0.5 else None
            status = "cancelled" if rng.random() < 0.12 else "booked"
            # one traveller holds a flight once, a seat has one passenger, and a full cabin sells no more
            aboard = [b for c in ("economy", "business") for b in booked.get((flight.id, c), ())]
            full = len(booked.get((flight.id, cabin), ())) >= len(seat_map(cabin))
            flight_status = "cancelled" if any(b.traveller_id == traveller.id for b in aboard) or full else status
            if flight_status == "cancelled" or any(b.seat == seat for b in aboard):
                seat = None
            booking = FlightBooking(id=ctx.new_id("FBK"), itinerary_id=itinerary.id, traveller_id=traveller.id,
                                    flight_id=flight.id, cabin=cabin, fare_type=fare_type, price_paid=price,
                                    seat=seat, bags=0, bag_fees=0.0, change_fees=0.0, insurance=False,
                                    insurance_cost=0.0,
                                    refund=price if flight_status == "cancelled" and fare_type == "flex" else 0.0,
                                    status=flight_status, booked_at=itinerary.created_at, cancelled_at=None,
                                    cancel_reason=None)
            ctx.add(booking)
            if flight_status == "booked":
                booked.setdefault((flight.id, cabin), []).append(booking)
            stays = [h for h in hotels if h[0].city == city_of[flight.destination]]
            if stays and rng.random() < 0.6:
                hotel, rooms = rng.choice(stays)
                room = rng.choice(rooms)
                nights = rng.randint(1, 4)
                rate = "nonrefundable" if rng.random() < 0.35 else "refundable"
                per_night = room.nightly_price * (0.85 if rate == "nonrefundable" else 1.0)
                total = round(per_night * nights, 2)
                held = [(room.id, flight.day + dt.timedelta(days=n)) for n in range(nights)]
                # no overbooking: a stay that finds a night sold out was cancelled
                stay_status = "cancelled" if any(nights_booked.get(h, 0) >= room.rooms for h in held) else status
                if stay_status == "booked":
                    for h in held:
                        nights_booked[h] = nights_booked.get(h, 0) + 1
                ctx.add(HotelBooking(id=ctx.new_id("HBK"), itinerary_id=itinerary.id, traveller_id=traveller.id,
                                     room_type_id=room.id, check_in=flight.day,
                                     check_out=flight.day + dt.timedelta(days=nights),
                                     guests=rng.randint(1, room.max_guests), rate=rate, total_price=total,
                                     refund=total if stay_status == "cancelled" and rate == "refundable" else 0.0,
                                     request=None, status=stay_status, booked_at=itinerary.created_at,
                                     cancelled_at=None))
    # The rest of each cabin: the seats left for sale, and the seats of passengers who booked elsewhere,
    # drawn last so that every value above stays what it was.
    for flight in flights:
        for cabin in ("economy", "business"):
            seats = seat_map(cabin)
            mine = booked.get((flight.id, cabin), [])
            left = min(getattr(flight, f"{cabin}_seats_left"), len(seats) - len(mine))
            setattr(flight, f"{cabin}_seats_left", left)
            agency = {b.seat for b in mine}
            free = [s for s in seats if s not in agency]
            others = sorted(rng.sample(range(len(free)), len(seats) - len(mine) - left))
            set_held_elsewhere(flight, cabin, [free[i] for i in others])
    deepen(ctx, flights, booked)



# -- drawn after everything above, from a generator of its own ---------------------------------------

def money(value: float) -> float:
    return round(value + 0.0, 2)


def fare_usd(fare: float, usd_per_unit: float) -> float:
    """A fare in the airline's currency, converted to USD at the agency's rate."""
    return money(fare * usd_per_unit)


def unit_price(fare: float, usd_per_unit: float, fare_type: str) -> float:
    """What one passenger pays in USD for a basic fare, or a flex fare (35% more)."""
    return money(fare_usd(fare, usd_per_unit) * (1.35 if fare_type == "flex" else 1.0))


def cabin_fare(flight: Flight, cabin: str) -> float | None:
    return {"economy": flight.economy_fare, "business": flight.business_fare, "first": flight.first_fare}[cabin]


CASE_TEXTS = {
    "name_correction": ("My name is misspelled on my booking {route}; it should read exactly as on my passport: "
                        "{name}.", "The middle initial is missing from my name on the ticket {route}."),
    "special_assistance": ("I will need wheelchair assistance at both airports for my flight {route}.",
                           "I am travelling with a service dog {route}; please note it on the booking."),
    "refund": ("I had to cancel my basic fare {route} because of a family funeral. Could you make an exception "
               "and refund it?", "I was charged twice for my flight {route}; please refund the duplicate."),
    "schedule_change": ("The airline moved the departure of my flight {route}; I would like to know my options.",
                        "My connection no longer works after the schedule change {route}."),
    "baggage": ("My checked bag did not arrive on my flight {route}.",
                "My suitcase came back damaged from my flight {route}; the handle is broken."),
    "other": ("Please send me an itemised invoice of my bookings for my expense report.",
              "I would like to know whether my loyalty miles were credited for my last trip."),
}
# The agency's replies, by what a case is about (a booking, where the airline has a part, or
# anything else: an invoice, loyalty miles) and, for the last reply, by how the case ended: a
# resolved case ends on a reply that settles it, a closed one may end on a refusal. Every choice
# holds three replies, so that drawing one takes the same randomness whichever it is.
AGENCY_REPLIES = {
    "booking": ("Thank you, we have passed this to the airline and will update you.",
                "We are looking into this and will reply within two working days.",
                "The airline has asked for a copy of your passport; please reply with it."),
    "other": ("Thank you, we have passed this to the team concerned and will update you.",
              "We are looking into this and will reply within two working days.",
              "We need your booking reference to look into this; please reply with it."),
}
AGENCY_CLOSING = {
    ("booking", "resolved"): ("This is done; you will see the change on your booking.",
                              "The airline has agreed; this is settled.",
                              "This is settled; thank you for your patience."),
    ("booking", "closed"): ("This is done; you will see the change on your booking.",
                            "The airline has agreed; this is settled.",
                            "The airline could not grant this request, sorry; we are closing the case."),
    ("other", "resolved"): ("This is done; we have emailed you the details.",
                            "This is settled; thank you for your patience.",
                            "This is sorted; please check your email."),
    ("other", "closed"): ("This is done; we have emailed you the details.",
                          "This is settled; thank you for your patience.",
                          "We could not help with this request, sorry; we are closing the case."),
}


def deepen(ctx: SeedContext, flights: list[Flight], booked: dict[tuple[str, str], list[FlightBooking]]) -> None:
    """Airlines and currencies, foreign flights, first cabins, payment methods, the ledger, recent,
    airline-cancelled and group bookings, and support cases: every draw from `r`, never from
    `ctx.rng`, so that the world drawn before keeps every value it had."""
    r = random.Random(f"travel_booking/{ctx.world.seed}/deepen")
    now, today = ctx.now, ctx.now.date()

    def moment(start: dt.datetime, end: dt.datetime) -> dt.datetime:
        """An instant on a 15-minute grid from start to end."""
        steps = max(0, int((end - start).total_seconds() // 900))
        return start + dt.timedelta(minutes=15 * r.randint(0, steps))

    rates = {}
    for currency, base in RATES.items():
        rate = ExchangeRate(currency=currency, as_of=today,
                            usd_per_unit=1.0 if currency == "USD" else round(base * r.uniform(0.98, 1.02), 4))
        ctx.add(rate)
        rates[currency] = rate.usd_per_unit
    usd_per_unit = {code: rates[currency] for code, _, currency in AIRLINES}
    for code, name, currency in AIRLINES:
        ctx.add(Airline(code=code, name=name, currency=currency))
    for code, name, city in FOREIGN_AIRPORTS:
        ctx.add(Airport(id=code, name=name, city=city))

    def fill(flight: Flight, cabin: str, left: int) -> None:
        seats = seat_map(cabin)
        setattr(flight, f"{cabin}_seats_left", left)
        held = sorted(r.sample(range(len(seats)), len(seats) - left))
        set_held_elsewhere(flight, cabin, [seats[i] for i in held])

    # a first cabin on the transcontinental route
    for flight in flights:
        if (flight.origin, flight.destination) in FIRST_ROUTES:
            flight.first_fare = round(flight.business_fare * r.uniform(1.6, 1.9), 0) - 0.01
            fill(flight, "first", 0 if r.random() < 0.2 else r.randint(1, 4))
    # the foreign airlines' flights, priced in their own currencies
    everything = list(flights)
    numbers = {"KA": 10, "AE": 300, "MP": 500}
    for origin, destination, minutes, airline, per_minute, first in FOREIGN_ROUTES:
        for a, b in ((origin, destination), (destination, origin)):
            numbers[airline] += r.randint(2, 9)
            flight_no, hour = f"{airline} {numbers[airline]}", r.choice([8, 10, 13, 18, 21])
            base = minutes * per_minute * r.uniform(0.9, 1.2)
            for offset in DAYS:
                if r.random() < 0.2:
                    continue
                day = today + dt.timedelta(days=offset)
                departs = dt.datetime.combine(day, dt.time(hour, r.choice([0, 15, 30, 45])))
                economy = round(base * r.uniform(0.8, 1.5), 0) - 0.01
                business = round(economy * r.uniform(2.8, 3.6), 0) - 0.01
                flight = Flight(id=ctx.new_id("FLT"), number=flight_no, airline=airline, origin=a, destination=b,
                                day=day, departs_at=departs, arrives_at=departs + dt.timedelta(minutes=minutes),
                                economy_fare=economy, business_fare=business,
                                first_fare=round(business * r.uniform(1.6, 1.9), 0) - 0.01 if first else None,
                                status="cancelled" if r.random() < 0.04 else "scheduled",
                                economy_seats_left=0, business_seats_left=0, first_seats_left=0,
                                economy_agency_seats="", business_agency_seats="", first_agency_seats="")
                fill(flight, "economy", 0 if r.random() < 0.08 else r.randint(1, 40))
                fill(flight, "business", 0 if r.random() < 0.2 else r.randint(1, 8))
                if first:
                    fill(flight, "first", 0 if r.random() < 0.25 else r.randint(1, 4))
                ctx.add(flight)
                everything.append(flight)

    session = ctx.session
    travellers = list(session.scalars(select(Traveller).order_by(Traveller.id)))
    itineraries = list(session.scalars(select(Itinerary).order_by(Itinerary.id)))
    bookings = list(session.scalars(select(FlightBooking).order_by(FlightBooking.id)))
    stays = list(session.scalars(select(HotelBooking).order_by(HotelBooking.id)))
    flight_of = {f.id: f for f in everything}

    # payment methods: a card each (some a second, now and then expired), vouchers and gift cards
    methods: dict[str, dict[str, PaymentMethod]] = {}
    for t in travellers:
        mine: dict[str, PaymentMethod] = {}
        labels: set[tuple[str, str]] = set()
        for role in ("card", "second card"):
            if role == "second card" and r.random() >= 0.3:
                continue
            brand, prefix = r.choice(CARD_BRANDS)
            last4 = f"{r.randint(0, 9999):04d}"
            while (brand, last4) in labels:
                last4 = f"{r.randint(0, 9999):04d}"
            labels.add((brand, last4))
            expired = role == "second card" and r.random() < 0.4
            months = -r.randint(1, 10) if expired else r.randint(4, 48)
            expires = _month_end(today, months)
            mine[role] = PaymentMethod(id=ctx.new_id("PAY"), traveller_id=t.id, kind="card", brand=brand, last4=last4,
                                       code=None, airline=None, amount_issued=None, balance=None, expires_on=expires,
                                       added_at=moment(now - dt.timedelta(days=900), now - dt.timedelta(days=70)))
        if r.random() < 0.45:
            code = "TBV-" + "".join(r.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
            expires = today + dt.timedelta(days=-r.randint(3, 40) if r.random() < 0.12 else r.randint(30, 330))
            balance = float(r.choice([25, 50, 75, 100, 120, 150, 200, 250, 300, 400, 450])) + r.choice([0, 0, 0.5])
            mine["voucher"] = PaymentMethod(id=ctx.new_id("PAY"), traveller_id=t.id, kind="voucher", brand=None,
                                            last4=None, code=code, airline="TB", amount_issued=balance,
                                            balance=balance, expires_on=expires,
                                            added_at=moment(now - dt.timedelta(days=400), now - dt.timedelta(days=70)))
        if r.random() < 0.25:
            code = "GC-" + "".join(r.choice("0123456789") for _ in range(8))
            balance = float(r.choice([25, 50, 75, 100, 150, 200, 300]))
            mine["gift card"] = PaymentMethod(id=ctx.new_id("PAY"), traveller_id=t.id, kind="gift_card", brand=None,
                                              last4=None, code=code, airline=None, amount_issued=balance,
                                              balance=balance, expires_on=None,
                                              added_at=moment(now - dt.timedelta(days=400),
                                                              now - dt.timedelta(days=70)))
        for m in mine.values():
            ctx.add(m)
        methods[t.id] = mine

    def charge(method: PaymentMethod, amount: float, item: str, reason: str, when: dt.datetime,
               booking: FlightBooking | None = None, stay: HotelBooking | None = None, kind: str = "charge") -> None:
        ctx.add(LedgerEntry(id=ctx.new_id("TXN"), traveller_id=method.traveller_id, payment_method_id=method.id,
                            booking_id=booking.id if booking else None, stay_id=stay.id if stay else None, kind=kind,
                            item=item, reason=reason, amount=amount, created_at=when))
        if method.kind != "card":
            method.amount_issued = money(method.amount_issued + (amount if kind == "charge" else -amount))

    def payer(traveller_id: str, airline: str | None, when: dt.datetime) -> PaymentMethod:
        """The traveller's card, now and then a voucher of the airline or a gift card valid then."""
        mine = methods[traveller_id]
        voucher, gift = mine.get("voucher"), mine.get("gift card")
        if voucher and voucher.airline == airline and voucher.expires_on > when.date() and r.random() < 0.3:
            return voucher
        if gift and r.random() < 0.2:
            return gift
        return mine["card"]

    def cancelled_at(booked_at: dt.datetime, before: dt.datetime) -> dt.datetime:
        return moment(booked_at + dt.timedelta(days=1), min(now, before - dt.timedelta(hours=2)))

    # the ledger of the seeded bookings and stays; some bookings insured
    for b in bookings:
        flight = flight_of[b.flight_id]
        method = payer(b.traveller_id, flight.airline, b.booked_at)
        charge(method, b.price_paid, "fare", "booking", b.booked_at, booking=b)
        if r.random() < 0.2:
            b.insurance, b.insurance_cost = True, INSURANCE_PRICE
            charge(method, INSURANCE_PRICE, "insurance", "booking", b.booked_at, booking=b)
        if b.status == "cancelled":
            b.cancelled_at, b.cancel_reason = cancelled_at(b.booked_at, flight.departs_at), "change_of_plans"
            if b.refund:
                charge(method, b.refund, "fare", "cancellation", b.cancelled_at, booking=b, kind="refund")
    for h in stays:
        method = payer(h.traveller_id, None, h.booked_at)
        charge(method, h.total_price, "hotel", "booking", h.booked_at, stay=h)
        if h.status == "cancelled":
            h.cancelled_at = cancelled_at(h.booked_at, dt.datetime.combine(h.check_in, dt.time(0)))
            if h.refund:
                charge(method, h.refund, "hotel", "cancellation", h.cancelled_at, stay=h, kind="refund")

    # a few more bookings: made in the last day, on a flight the airline has since cancelled, or
    # for a party; their passengers take seats that were held elsewhere, so the seats left stay
    names = {t.name for t in travellers}
    trips: dict[str, list[Itinerary]] = {}
    for i in itineraries:
        trips.setdefault(i.traveller_id, []).append(i)
    soon = [f for f in everything if f.status == "scheduled" and f.departs_at > now + dt.timedelta(days=2)]
    grounded = [f for f in everything if f.status == "cancelled" and f.departs_at > now + dt.timedelta(days=1)]
    eligible = [t for t in travellers if t.id in trips]
    r.shuffle(eligible)
    kinds = ["recent"] * r.randint(5, 8) + ["grounded"] * (r.randint(3, 5) if grounded else 0) \
        + ["party"] * r.randint(5, 7)
    for t, kind in sorted(zip(eligible, kinds), key=lambda pair: pair[0].id):
        trip = r.choice(trips[t.id])
        cabin = "business" if r.random() < 0.2 else "economy"
        party = 1 + (r.randint(1, 3) if kind == "party" else 0)
        mine = {(flight_of[x.flight_id].origin, flight_of[x.flight_id].destination, flight_of[x.flight_id].day)
                for x in bookings if x.traveller_id == t.id and x.status == "booked"}
        for _ in range(12):  # a flight with the seats, after the trip began, on no route and day the traveller holds
            flight = r.choice(grounded if kind == "grounded" else soon)
            held = held_elsewhere(flight, cabin)
            if len(held) >= party and trip.created_at < flight.departs_at and (
                    flight.origin, flight.destination, flight.day) not in mine:
                break
        else:
            continue
        taken = sorted(r.sample(range(len(held)), party))
        seats = [held[i] if r.random() < 0.5 else None for i in taken]
        set_held_elsewhere(flight, cabin, [s for i, s in enumerate(held) if i not in taken])
        fare_type = "flex" if r.random() < 0.25 else "basic"
        price = money(unit_price(cabin_fare(flight, cabin), usd_per_unit[flight.airline], fare_type) * party)
        booked_at = now - dt.timedelta(minutes=15 * r.randint(4, 88)) if kind == "recent" else trip.created_at
        booking = FlightBooking(id=ctx.new_id("FBK"), itinerary_id=trip.id, traveller_id=t.id, flight_id=flight.id,
                                cabin=cabin, fare_type=fare_type, price_paid=price, seat=seats[0], bags=0,
                                bag_fees=0.0, change_fees=0.0, insurance=False, insurance_cost=0.0, refund=0.0,
                                status="booked", booked_at=booked_at, cancelled_at=None, cancel_reason=None)
        ctx.add(booking)
        bookings.append(booking)
        booked.setdefault((flight.id, cabin), []).append(booking)
        surname = t.name.split()[-1]
        for seat in seats[1:]:
            name = f"{ctx.fake.first_name()} {surname}"
            while name in names:
                name = f"{ctx.fake.first_name()} {surname}"
            names.add(name)
            ctx.add(Companion(id=ctx.new_id("PSG"), booking_id=booking.id, name=name, seat=seat))
        method = payer(t.id, flight.airline, booked_at)
        charge(method, price, "fare", "booking", booked_at, booking=booking)
        if r.random() < 0.25:
            booking.insurance, booking.insurance_cost = True, money(INSURANCE_PRICE * party)
            charge(method, booking.insurance_cost, "insurance", "booking", booked_at, booking=booking)


    # support cases, each with the traveller's request and the agency's replies; at most one case
    # not yet closed per traveller, topic and booking
    active: set[tuple[str, str, str | None]] = set()
    for t in travellers:
        theirs = [x for x in bookings if x.traveller_id == t.id and x.booked_at < now - dt.timedelta(days=2)]
        flown = [x for x in theirs if flight_of[x.flight_id].departs_at < now and x.status == "booked"]
        ahead = [x for x in theirs if flight_of[x.flight_id].departs_at > now and x.status == "booked"]
        for _ in range(2 if r.random() < 0.15 else 1):
            if r.random() >= 0.55:
                continue
            topic = r.choice(CASE_TOPICS)
            # a bag goes missing on a flight flown; assistance, names and schedules concern flights ahead
            pool = {"baggage": flown, "refund": theirs, "other": []}.get(topic, ahead)
            if not pool:
                topic = "other"
            booking = r.choice(pool) if pool else None
            route = ""
            if booking is not None:
                f = flight_of[booking.flight_id]
                route = f"from {f.origin} to {f.destination} on {f.day:%B} {f.day.day}"
            status = r.choices(["open", "in_progress", "resolved", "closed"], weights=[35, 25, 25, 15])[0]
            key = (t.id, topic, booking.id if booking else None)
            if status != "closed":
                if key in active:
                    continue
                active.add(key)
            opened = max(now - dt.timedelta(days=30), booking.booked_at if booking else now - dt.timedelta(days=30))
            created = moment(opened, now - dt.timedelta(hours=6))
            case = SupportCase(id=ctx.new_id("CAS"), traveller_id=t.id, topic=topic,
                               booking_id=booking.id if booking else None, stay_id=None,
                               description=r.choice(CASE_TEXTS[topic]).format(route=route, name=t.name),
                               status=status, created_at=created, updated_at=created)
            ctx.add(case)
            ctx.add(CaseNote(id=ctx.new_id("CNT"), case_id=case.id, author="traveller", text=case.description,
                             created_at=created))
            when = created
            about = "other" if topic == "other" else "booking"
            # four draws for every case, whatever its status, as there always were: the cases after it stay
            picks = [r.choice(range(3)) for _ in range(4)]
            said = AGENCY_REPLIES[about]
            if status == "in_progress":
                replies = [said[picks[0]]]
            elif status == "resolved":
                replies = [said[picks[1]], AGENCY_CLOSING[about, status][picks[2]]]
            elif status == "closed":
                replies = [AGENCY_CLOSING[about, status][picks[3]]]
            else:
                replies = []
            for text in replies:
                when = moment(when + dt.timedelta(minutes=15), min(now, when + dt.timedelta(days=2)))
                ctx.add(CaseNote(id=ctx.new_id("CNT"), case_id=case.id, author="agency", text=text, created_at=when))
            case.updated_at = when


def _month_end(today: dt.date, months: int) -> dt.date:
    """The last day of the month `months` after today's."""
    index = today.year * 12 + today.month - 1 + months
    year, month = divmod(index, 12)
    following = dt.date(year + (month + 1) // 12, (month + 1) % 12 + 1, 1)
    return following - dt.timedelta(days=1)
