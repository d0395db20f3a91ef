"""The seed: twelve airports, daily flights on eight city pairs from a few days ago to four weeks
ahead (some sold out in a cabin, a few cancelled), two or three hotels per city with room types,
and 40 travellers with itineraries holding flight and hotel bookings (some cancelled, some already
flown). Every seat of a cabin is booked through the agency, held by a passenger who booked
elsewhere, or left for sale, so that the seat map and the seats left agree."""

from __future__ import annotations

import datetime as dt

from prove_env.world import SeedContext

from .models import Airport, Flight, FlightBooking, Hotel, HotelBooking, Itinerary, RoomType, Traveller

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
ECONOMY_ROWS, BUSINESS_ROWS = range(10, 36), range(1, 5)
DAYS = range(-4, 29)


def seat_map(cabin: str) -> list[str]:
    """Every seat of a cabin, front to back: business rows 1-4 (A, C, D, F), economy rows 10-35 (A to F)."""
    if cabin == "business":
        return [f"{r}{c}" for r in BUSINESS_ROWS for c in "ACDF"]
    return [f"{r}{c}" for r in ECONOMY_ROWS for c in "ABCDEF"]


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
                    flight = Flight(id=ctx.new_id("FLT"), number=flight_no, origin=a, destination=b, day=day,
                                    departs_at=departs, arrives_at=departs + dt.timedelta(minutes=minutes),
                                    economy_seats_left=0 if rng.random() < 0.08 else rng.randint(1, 40),
                                    economy_fare=round(economy, 2),
                                    business_seats_left=0 if rng.random() < 0.2 else rng.randint(1, 8),
                                    business_fare=round(economy * rng.uniform(2.6, 3.4), 0) - 0.01,
                                    status="cancelled" if rng.random() < 0.02 else "scheduled",
                                    economy_held_elsewhere="", business_held_elsewhere="")
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
                                    seat=seat, bags=0, bag_fees=0.0, change_fees=0.0,
                                    refund=price if flight_status == "cancelled" and fare_type == "flex" else 0.0,
                                    status=flight_status, booked_at=itinerary.created_at)
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
                                     request=None, status=stay_status))
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
            setattr(flight, f"{cabin}_held_elsewhere", " ".join(free[i] for i in others))
