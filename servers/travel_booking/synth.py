"""How tasks are written for the travel agency: travellers who introduce themselves by name or
email, and name their trips by title, their flights by route and day ("my flight from Denver to
Chicago on August 18"), their hotel stays by hotel and check-in day, and new flights by number,
route and day. Values the agency needs (dates, a fare type, a loyalty number) are now and then
held back for the assistant to ask for."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import day, money, stable

from .seed import AIRPORTS, ROUTES

Bundle = dict[str, Any]
CITY = {code: city for code, _, city in AIRPORTS}
NEW_TRIPS = ("Summer holiday", "Client visit", "Family reunion", "Ski week", "Wedding weekend", "Team offsite",
             "Spring break", "Sales kickoff", "Anniversary trip", "College tour", "Beach week", "Board meeting")
REQUESTS = ("Late arrival", "High floor, please", "Quiet room away from the elevator", "Early check-in if possible")


# -- sampling ---------------------------------------------------------------------------------------

def _date(text: str) -> dt.date:
    return dt.date.fromisoformat(text[:10])


def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every traveller whose name finds only them, with their trips, their future flight bookings
    and stays (each given one role so that requests of one conversation do not collide), a few
    future flights on their routes, and hotels."""
    today = now.date()
    flights: list[dict] = []
    for origin, destination, _ in ROUTES:
        for a, b in ((origin, destination), (destination, origin)):
            for offset in (2, 5, 9, 14):
                flights += read("search_flights", origin=a, destination=b,
                                date=(today + dt.timedelta(days=offset)).isoformat())
    flights = [f for f in flights if f["economy"]["seats_left"] >= 3 and f["business"]["seats_left"] >= 3]
    hotels = []
    for city in sorted(set(CITY.values())):
        for h in read("search_hotels", city=city):
            hotels.append({**h, "rooms": read("list_room_types", hotel_id=h["hotel_id"])})
    bundles = []
    for t in read("find_travellers", limit=100):
        if len(read("find_travellers", name=t["name"])) != 1:
            continue
        tid = t["traveller_id"]
        trips = read("list_itineraries", traveller_id=tid)
        if not trips:
            continue
        held = read("list_flight_bookings", traveller_id=tid, status="booked")
        aboard = {b["flight_id"] for b in held}  # a traveller books a flight once
        booked = [b for b in held if _date(b["departs_at"]) > today]
        routes = [(b["origin"], b["destination"], b["departs_at"][:10]) for b in booked]
        booked = [dict(b, role=rng.choice(["cancel", "change", "other", "other"]),
                       free=read("list_free_seats", flight_id=b["flight_id"], cabin=b["cabin"])["free_seats"])
                  for b in booked if routes.count((b["origin"], b["destination"], b["departs_at"][:10])) == 1]
        stays = [dict(h, role=rng.choice(["cancel", "keep"]))
                 for h in read("list_hotel_bookings", traveller_id=tid, status="booked") if _date(h["check_in"]) > today]
        bundles.append({"now": now, "traveller": t, "profile": read("get_traveller", traveller_id=tid),
                        "trips": trips, "bookings": booked, "stays": stays, "flights": flights, "hotels": hotels,
                        "aboard": aboard})
    return bundles


# -- how people name things ---------------------------------------------------------------------------

def _traveller(b: Bundle) -> Ref:
    return Ref.of("traveller", b["traveller"])


def _trip(b: Bundle, trip: dict) -> Ref:
    return Ref.of("itinerary", trip, _traveller(b))


def _booking(b: Bundle, booking: dict) -> Ref:
    return Ref.of("booking", booking, _traveller(b))


def _stay(b: Bundle, stay: dict) -> Ref:
    return Ref.of("stay", stay, _traveller(b))


def _flight(f: dict) -> Ref:
    return Ref.of("flight", f)


def _hotel(h: dict) -> Ref:
    return Ref.of("hotel", h)


def _room(h: dict, room: dict) -> Ref:
    return Ref.of("room_type", room, _hotel(h))


def flight_said(f: dict, rng: random.Random) -> str:
    """A flight as a person names one they are booking: number, route and day."""
    when = day(_date(f["departs_at"]))
    a, b = f["origin"], f["destination"]
    return rng.choice([f"flight {f['number']} from {a} to {b} on {when}", f"{f['number']} from {a} to {b} on {when}",
                       f"the {f['number']} {a}-{b} flight on {when}",
                       f"flight {f['number']} on {when}, {CITY[a]} ({a}) to {CITY[b]} ({b})"])


def booking_said(booking: dict, rng: random.Random) -> str:
    """A booked flight as its traveller names it: route and day."""
    when = day(_date(booking["departs_at"]))
    a, b = booking["origin"], booking["destination"]
    return rng.choice([f"my flight from {CITY[a]} to {CITY[b]} on {when}", f"my {a} to {b} flight on {when}",
                       f"the {when} flight to {CITY[b]}", f"my {CITY[b]} flight on {when}",
                       f"my booking on the {a}-{b} flight of {when}"])


def stay_said(stay: dict, rng: random.Random) -> str:
    when = day(_date(stay["check_in"]))
    return rng.choice([f"my stay at the {stay['hotel']} from {when}", f"my {stay['hotel']} booking starting {when}",
                       f"the hotel I booked at the {stay['hotel']} for {when}",
                       f"my room at the {stay['hotel']} checking in {when}"])


def trip_said(trip: dict, rng: random.Random) -> str:
    return rng.choice([f"my '{trip['name']}' trip", f"the itinerary called '{trip['name']}'",
                       f"my {trip['name']} itinerary", f"my trip named '{trip['name']}'"])


_BY_NAME = ("Hi, this is {name}.", "{name} here.", "Hello, my name is {name}.", "Hi there, it's {name}.",
            "Good morning, {name} speaking.", "Hey, {name} here.", "This is {name}.", "Hi! I'm {name}.",
            "My name's {name}.", "Hello, {name} calling about my travel.", "It's {name} again.",
            "Hi, I'm {name}, a customer of yours.", "{name} speaking.", "Hello there, {name} here.")
_BY_NAME_TERSE = ("{name} here.", "I'm {name}.", "{name}.", "Name: {name}.")
_BY_EMAIL = ("Hi, my email is {email}.", "Hello, I'm the traveller with the email {email}.",
             "My account email is {email}.", "You have me as {email}.", "I booked with the email {email}.",
             "My profile is under {email}.", "Hi! You'll find me under {email}.", "Email on file: {email}.",
             "My bookings are under the address {email}.", "Hello, it's the {email} account.",
             "I'm registered with {email}.", "You can look me up by {email}.")
_BY_EMAIL_TERSE = ("Email {email}.", "{email} here.", "Account {email}.", "Me: {email}.")


def _intro_name(ref: Ref) -> tuple[str, str]:
    name = ref.entity["name"]
    return (stable(_BY_NAME, "name", ref.key).format(name=name),
            stable(_BY_NAME_TERSE, "name terse", ref.key).format(name=name))


def _intro_email(ref: Ref) -> tuple[str, str]:
    email = ref.entity["email"]
    return (stable(_BY_EMAIL, "email", ref.key).format(email=email),
            stable(_BY_EMAIL_TERSE, "email terse", ref.key).format(email=email))


def _future_flight(b: Bundle, rng: random.Random, origin: str | None = None, destination: str | None = None,
                   after: dt.date | None = None, bookable: bool = False) -> dict | None:
    """A future flight with seats in both cabins; `bookable`: one the traveller is not booked on."""
    pool = [f for f in b["flights"] if (origin is None or f["origin"] == origin)
            and (destination is None or f["destination"] == destination)
            and (after is None or _date(f["departs_at"]) != after)
            and not (bookable and f["flight_id"] in b["aboard"])]
    return rng.choice(pool) if pool else None


# -- goals: questions -----------------------------------------------------------------------------------

goals = Goals()


@goals.add("get_traveller", 0.6)
def get_traveller(b: Bundle, rng: random.Random) -> Ask | None:
    args, refs = {"traveller_id": b["traveller"]["traveller_id"]}, (_traveller(b),)
    p = b["profile"]
    if p["loyalty_number"] and rng.random() < 0.6:
        return Ask(args, say=rng.choice(["What loyalty number do you have on my profile, and what tier am I?",
                                         "Could you read me my frequent flyer number and my status level?",
                                         "I never remember it: what's my loyalty number? And my tier?"]),
                   terse="My loyalty number and tier?", refs=refs,
                   facts=lambda r: [r["loyalty_number"], r["loyalty_tier"]])
    return Ask(args, say=rng.choice(["What date of birth is on my profile? It has to match my passport.",
                                     "Can you check the birth date you have on file for me?",
                                     "Which email address and date of birth does my profile show?"]),
               terse="Date of birth on my profile?", refs=refs, facts=lambda r: [r["date_of_birth"]])


@goals.add("search_airports", 0.4)
def search_airports(b: Bundle, rng: random.Random) -> Ask | None:
    city = rng.choice(["New York", "Chicago", "Denver", "Seattle", "Miami", "Austin", "Portland", "Boston"])
    return Ask({"text": city}, say=rng.choice([f"Which airports do you fly to in {city}? I need the codes.",
                                               f"What's the airport code for {city}?",
                                               f"I'm heading to {city}. Which airport would I fly into?"]),
               terse=f"Airport codes for {city}?", mentions=(city,), facts=lambda r: [a["code"] for a in r])


@goals.add("search_flights", 1.2)
def search_flights(b: Bundle, rng: random.Random) -> Ask | None:
    f = _future_flight(b, rng)
    if f is None:
        return None
    a, dest, when = f["origin"], f["destination"], _date(f["departs_at"])
    args: dict[str, Any] = {"origin": a, "destination": dest, "date": when.isoformat()}
    if rng.random() < 0.35:
        back = when + dt.timedelta(days=rng.choice([2, 3, 4, 7]))
        args["return_date"] = back.isoformat()
        say = rng.choice([f"I'm looking at a round trip from {CITY[a]} ({a}) to {CITY[dest]} ({dest}). "
                          f"What flights are there?",
                          f"Can you find me return flights {a} to {dest}, please? Which flight numbers run?",
                          f"Show me what flies {a}-{dest} and back."])
        detail = rng.choice([f"Going out {day(when)} and coming back {day(back)}.",
                             f"Out on {day(when)}, back on {day(back)}."])
        return Ask(args, say=say, terse=f"Return flights {a}-{dest}, {day(when)} and {day(back)}?", detail=detail,
                   mentions=(a, dest, day(when), day(back)), facts=lambda r: [f["number"] for f in r][:6])
    cabin = rng.choice([None, None, "business"])
    if cabin:
        args["cabin"] = cabin
    what = " with business class seats left" if cabin else ""
    if rng.random() < 0.5:
        return Ask(args, say=rng.choice([f"Which flights{what} go from {a} to {dest}?",
                                         f"I need to get from {CITY[a]} to {CITY[dest]}. What flights{what} are there?",
                                         f"What are my options flying {a} to {dest}{what}?"]),
                   terse=f"Flights {a} to {dest} on {day(when)}{what}?",
                   detail=rng.choice([f"On {day(when)}.", f"I'd travel on {day(when)}.", f"The date is {day(when)}."]),
                   mentions=(a, dest, day(when)), facts=lambda r: [f["number"] for f in r][:6])
    return Ask(args, say=rng.choice([f"Which flights{what} are there from {a} to {dest} on {day(when)}?",
                                     f"Could you look up flights{what} from {CITY[a]} to {CITY[dest]} on {day(when)}?",
                                     f"What's flying {a} to {dest} on {day(when)}{what}? Just the flight numbers."]),
               terse=f"Flights {a}-{dest}, {day(when)}{what}?", mentions=(a, dest, day(when)),
               facts=lambda r: [f["number"] for f in r][:6])


@goals.add("get_flight", 0.7)
def get_flight(b: Bundle, rng: random.Random) -> Ask | None:
    f = _future_flight(b, rng)
    if f is None:
        return None
    said = flight_said(f, rng)
    cabin = rng.choice(["economy", "business"])
    return Ask({"flight_id": f["flight_id"]},
               say=rng.choice([f"How many {cabin} seats are left on {said}, and at what fare?",
                               f"Is there still room in {cabin} on {said}? What does it cost?",
                               f"Before I decide: what's the {cabin} fare on {said}, and how many seats remain?"]),
               terse=f"{cabin.capitalize()} seats and fare on {said}?", refs=(_flight(f),), mentions=(f["number"],),
               facts=lambda r: [r[cabin]["seats_left"], r[cabin]["fare"]])


@goals.add("list_free_seats", 0.6)
def list_free_seats(b: Bundle, rng: random.Random) -> Ask | None:
    f = _future_flight(b, rng)
    if f is None:
        return None
    said = flight_said(f, rng)
    return Ask({"flight_id": f["flight_id"], "cabin": "business"},
               say=rng.choice([f"Which business class seats are still free on {said}?",
                               f"Can you tell me what seats are open up front in business on {said}?",
                               f"I'm thinking of flying business on {said}. Which seats could I still pick?"]),
               terse=f"Free business seats on {said}?", refs=(_flight(f),), mentions=(f["number"],),
               facts=lambda r: r["free_seats"][:4])


def _hotel_pick(b: Bundle, rng: random.Random) -> tuple[dict, dict] | None:
    hotel = rng.choice(b["hotels"])
    if not hotel["rooms"]:
        return None
    return hotel, rng.choice(hotel["rooms"])


@goals.add("search_hotels")
def search_hotels(b: Bundle, rng: random.Random) -> Ask | None:
    city = rng.choice(b["hotels"])["city"]
    start = b["now"].date() + dt.timedelta(days=rng.randint(3, 20))
    end = start + dt.timedelta(days=rng.choice([1, 2, 3, 5]))
    guests = rng.choice([1, 2, 2, 3, 4])
    args: dict[str, Any] = {"city": city, "check_in": start.isoformat(), "check_out": end.isoformat(),
                            "guests": guests}
    people = {1: "just me", 2: "two of us", 3: "three of us", 4: "four of us"}[guests]
    dates = f"from {day(start)} to {day(end)}"
    cap = ""
    if rng.random() < 0.4:
        price = rng.choice([200, 250, 300, 400])
        args["max_price"] = float(price)
        cap = f" for at most {money(price)} a night"
    return Ask(args, say=rng.choice([f"Which hotels in {city} have a room{cap} {dates}? It's {people}.",
                                     f"We're {people} going to {city}. Which hotels can put us up{cap}?",
                                     f"I need somewhere to stay in {city}{cap}, {people}. What's available?"]),
               terse=f"Hotels in {city}{cap}, {people}, {dates}?",
               detail=rng.choice([f"The dates are {dates}.", f"Checking in {day(start)}, out {day(end)}.",
                                  f"We'd stay {dates}."]),
               mentions=(city, day(start), day(end)), facts=lambda r: [h["name"] for h in r][:5])


@goals.add("list_room_types", 0.6)
def list_room_types(b: Bundle, rng: random.Random) -> Ask | None:
    hotel = rng.choice(b["hotels"])
    return Ask({"hotel_id": hotel["hotel_id"]},
               say=rng.choice([f"What kinds of rooms does the {hotel['name']} have, and what do they cost a night?",
                               f"Can you list the room types at the {hotel['name']} with their nightly prices?",
                               f"I'm curious about the {hotel['name']}: which rooms do they offer, and for how much?"]),
               terse=f"Room types and prices at the {hotel['name']}?", refs=(_hotel(hotel),),
               mentions=(hotel["name"],), facts=lambda r: [x["nightly_price"] for x in r])


@goals.add("check_room_availability", 0.8)
def check_room_availability(b: Bundle, rng: random.Random) -> Ask | None:
    picked = _hotel_pick(b, rng)
    if picked is None:
        return None
    hotel, room = picked
    start = b["now"].date() + dt.timedelta(days=rng.randint(3, 20))
    end = start + dt.timedelta(days=rng.choice([2, 3, 4]))
    what = f"a {room['name']} at the {hotel['name']}"
    refundable = rng.random() < 0.5
    key = "refundable_total" if refundable else "nonrefundable_total"
    rate = "the refundable rate" if refundable else "the non-refundable rate"
    args = {"room_type_id": room["room_type_id"], "check_in": start.isoformat(), "check_out": end.isoformat()}
    if rng.random() < 0.4:
        return Ask(args, say=rng.choice([f"Is {what} available, and what would it cost at {rate}?",
                                         f"Could you price {what} for me at {rate}?"]),
                   terse=f"{what}, {day(start)}-{day(end)}, {rate}: free, and price?",
                   detail=rng.choice([f"From {day(start)} to {day(end)}.", f"I'd arrive {day(start)} and leave "
                                      f"{day(end)}."]),
                   refs=(_room(hotel, room),), mentions=(room["name"], hotel["name"], day(start), day(end)),
                   facts=lambda r: [r[key]])
    return Ask(args,
               say=rng.choice([f"Is {what} free from {day(start)} to {day(end)}, and what would it cost at {rate}?",
                               f"How much would {what} be at {rate}, {day(start)} to {day(end)}? Is it available?",
                               f"Could you price {what} for {day(start)} through {day(end)} at {rate}?"]),
               terse=f"{what}, {day(start)}-{day(end)}, {rate}: free, and price?",
               refs=(_room(hotel, room),), mentions=(room["name"], hotel["name"], day(start), day(end)),
               facts=lambda r: [r[key]])


@goals.add("list_itineraries", 0.5)
def list_itineraries(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({"traveller_id": b["traveller"]["traveller_id"]},
               say=rng.choice(["Which trips do I have with you?", "Can you list my itineraries?",
                               "I've lost track. What trips have I planned with you so far?"]),
               terse="My trips?", refs=(_traveller(b),), facts=lambda r: [t["name"] for t in r])


@goals.add("get_itinerary", 0.8)
def get_itinerary(b: Bundle, rng: random.Random) -> Ask | None:
    trip = rng.choice(b["trips"])
    said = trip_said(trip, rng)
    return Ask({"itinerary_id": trip["itinerary_id"]},
               say=rng.choice([f"What does {said} come to in total?", f"How much have I spent on {said} so far?",
                               f"Could you add up everything booked in {said}?"]),
               terse=f"Total of {said}?", refs=(_trip(b, trip),), mentions=(trip["name"],),
               facts=lambda r: [r["total"]])


@goals.add("list_flight_bookings", 0.6)
def list_flight_bookings(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({"traveller_id": b["traveller"]["traveller_id"], "status": "booked"},
               say=rng.choice(["Which flights do I have booked at the moment? The flight numbers, please.",
                               "Can you list my current flight bookings?",
                               "What flights am I booked on right now?"]),
               terse="My booked flights?", refs=(_traveller(b),), facts=lambda r: [x["flight_number"] for x in r])


@goals.add("list_hotel_bookings", 0.6)
def list_hotel_bookings(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({"traveller_id": b["traveller"]["traveller_id"], "status": "booked"},
               say=rng.choice(["Which hotels have I got booked?", "Can you remind me where I'm staying? My hotel "
                               "bookings, please.", "List my current hotel reservations."]),
               terse="My hotel bookings?", refs=(_traveller(b),), facts=lambda r: [x["hotel"] for x in r])


@goals.add("quote_flight_change", 0.9)
def quote_flight_change(b: Bundle, rng: random.Random) -> Ask | None:
    mine = [x for x in b["bookings"] if x["role"] == "other"]
    if not mine:
        return None
    booking = rng.choice(mine)
    new = _future_flight(b, rng, booking["origin"], booking["destination"], after=_date(booking["departs_at"]),
                         bookable=True)
    if new is None or new["flight_id"] == booking["flight_id"]:
        return None
    said, target = booking_said(booking, rng), flight_said(new, rng)
    return Ask({"booking_id": booking["booking_id"], "new_flight_id": new["flight_id"]},
               say=rng.choice([f"What would it cost me to move {said} to {target}? Don't change anything yet.",
                               f"If I switched {said} to {target}, what would I pay in all, fee and fare difference together?",
                               f"Just a quote, please: {said} moved to {target}. How much?"]),
               terse=f"Cost to move {said} to {target}?", refs=(_booking(b, booking), _flight(new)),
               mentions=(new["number"],), facts=lambda r: [r["total_due"]])


# -- goals: changes ------------------------------------------------------------------------------------

@goals.add("set_loyalty_number", 0.6)
def set_loyalty_number(b: Bundle, rng: random.Random) -> Ask | None:
    number = f"TB{rng.randint(10**7, 10**8 - 1)}"
    spaced = rng.choice([number, f"TB {number[2:]}"])
    return Ask({"traveller_id": b["traveller"]["traveller_id"], "loyalty_number": number},
               say=rng.choice(["I'd like my loyalty number added to my profile.",
                               "Could you put my frequent flyer number on my profile, please?",
                               "I just got a new loyalty card. Can you update the number you have for me?"]),
               terse=f"Set my loyalty number to {spaced}.",
               detail=rng.choice([f"It's {spaced}.", f"The number is {spaced}.", f"Loyalty number: {spaced}."]),
               refs=(_traveller(b),), mentions=(number[2:],))


@goals.add("create_itinerary", 0.7)
def create_itinerary(b: Bundle, rng: random.Random) -> Ask | None:
    taken = {t["name"].lower() for t in b["trips"]}
    name = rng.choice([n for n in NEW_TRIPS if n.lower() not in taken])
    return Ask({"traveller_id": b["traveller"]["traveller_id"], "name": name},
               say=rng.choice([f"Please start a new itinerary for me called '{name}'.",
                               f"I'm planning something new. Can you open a trip named '{name}'?",
                               f"Create an empty itinerary, '{name}', so I can add bookings later."]),
               terse=f"New itinerary '{name}'.", refs=(_traveller(b),), mentions=(name,))


@goals.add("book_flight", 1.3)
def book_flight(b: Bundle, rng: random.Random) -> Ask | None:
    trip = rng.choice(b["trips"])
    f = _future_flight(b, rng, bookable=True)
    if f is None:
        return None
    cabin = rng.choice(["economy", "economy", "business"])
    fare = rng.choice(["basic", "flex"])
    fare_words = {"basic": rng.choice(["the basic fare", "the cheapest, non-refundable fare", "basic"]),
                  "flex": rng.choice(["the flex fare", "a refundable flex fare", "flex"])}[fare]
    said, into = flight_said(f, rng), trip_said(trip, rng)
    args = {"itinerary_id": trip["itinerary_id"], "flight_id": f["flight_id"], "cabin": cabin, "fare_type": fare}
    refs = (_traveller(b), _trip(b, trip), _flight(f))
    mentions = (f["number"], cabin, fare, trip["name"])
    # the fare is never held back: a booking is 'basic' unless told, and an assistant may rightly book it so
    return Ask(args, say=rng.choice([f"Book {said} for me in {cabin} on {fare_words}, and put it in {into}.",
                                     f"Could you reserve {said}, {cabin} class, {fare_words}? It belongs to {into}.",
                                     f"Add {said} to {into}: {cabin}, {fare_words}, please.",
                                     f"Please book me on {said} in {cabin}, and add it to {into}. Make it {fare_words}.",
                                     f"Can you get me on {said}? {cabin.capitalize()}, in {into}; {fare_words}."]),
               terse=f"Book {said}, {cabin}, {fare} fare, into {into}.", refs=refs, mentions=mentions)


@goals.add("select_seat")
def select_seat(b: Bundle, rng: random.Random) -> Ask | None:
    mine = [x for x in b["bookings"] if x["role"] == "other" and x["free"]]
    if not mine:
        return None
    booking = rng.choice(mine)
    seat = rng.choice(booking["free"][:12])
    said = booking_said(booking, rng)
    return Ask({"booking_id": booking["booking_id"], "seat": seat},
               say=rng.choice([f"Can I have seat {seat} on {said}?", f"Please put me in {seat} on {said}.",
                               f"I'd like to choose my seat for {said}: {seat}, if it's free."]),
               terse=f"Seat {seat} on {said}.", refs=(_booking(b, booking),), mentions=(seat,))


@goals.add("add_bags")
def add_bags(b: Bundle, rng: random.Random) -> Ask | None:
    mine = [x for x in b["bookings"] if x["role"] == "other" and x["bags"] == 0]
    if not mine:
        return None
    booking = rng.choice(mine)
    count = rng.choice([1, 1, 2])
    words = {1: "one checked bag", 2: "two checked bags"}[count]
    said = booking_said(booking, rng)
    return Ask({"booking_id": booking["booking_id"], "count": count},
               say=rng.choice([f"Please add {words} to {said}.", f"I'll be travelling with {words} on {said}. "
                               "Can you add them?", f"Could you add {words} to {said}, and tell me what I owe?"]),
               terse=f"Add {words} to {said}.", refs=(_booking(b, booking),), mentions=(words.split()[0],))


@goals.add("change_flight", 1.2)
def change_flight(b: Bundle, rng: random.Random) -> Ask | None:
    mine = [x for x in b["bookings"] if x["role"] == "change"]
    if not mine:
        return None
    booking = rng.choice(mine)
    new = _future_flight(b, rng, booking["origin"], booking["destination"], after=_date(booking["departs_at"]),
                         bookable=True)
    if new is None or new["flight_id"] == booking["flight_id"]:
        return None
    said, target = booking_said(booking, rng), flight_said(new, rng)
    args = {"booking_id": booking["booking_id"], "new_flight_id": new["flight_id"]}
    refs = (_booking(b, booking), _flight(new))
    if rng.random() < 0.4:
        return Ask(args, say=rng.choice([f"My plans changed; I need to move {said} to another flight.",
                                         f"Can you switch {said} to a different flight for me?"]),
                   terse=f"Move {said} to {target}.",
                   detail=rng.choice([f"Put me on {target}, whatever the fee.", f"The new one is {target}."]),
                   refs=refs, mentions=(new["number"],))
    return Ask(args, say=rng.choice([f"Please move {said} to {target}; I accept the fee if there is one.",
                                     f"I need {said} changed to {target}. Go ahead, whatever it costs.",
                                     f"Could you rebook {said} onto {target}?"]),
               terse=f"Move {said} to {target}.", refs=refs, mentions=(new["number"],))


@goals.add("cancel_flight_booking")
def cancel_flight_booking(b: Bundle, rng: random.Random) -> Ask | None:
    mine = [x for x in b["bookings"] if x["role"] == "cancel"]
    if not mine:
        return None
    booking = rng.choice(mine)
    said = booking_said(booking, rng)
    return Ask({"booking_id": booking["booking_id"]},
               say=rng.choice([f"Please cancel {said}, even if I get nothing back.",
                               f"I won't be travelling after all. Cancel {said}, whatever the refund.",
                               f"Could you cancel {said} for me?"]),
               terse=f"Cancel {said}.", refs=(_booking(b, booking),))


@goals.add("book_hotel", 1.2)
def book_hotel(b: Bundle, rng: random.Random) -> Ask | None:
    trip = rng.choice(b["trips"])
    picked = _hotel_pick(b, rng)
    if picked is None:
        return None
    hotel, room = picked
    start = b["now"].date() + dt.timedelta(days=rng.randint(22, 27))  # beyond the seeded stays
    end = start + dt.timedelta(days=rng.choice([1, 2, 3, 4]))
    guests = rng.randint(1, room["max_guests"])
    rate = rng.choice(["refundable", "nonrefundable"])
    what = f"a {room['name']} at the {hotel['name']}"
    into = trip_said(trip, rng)
    rate_words = "refundable" if rate == "refundable" else rng.choice(["non-refundable", "the cheaper non-refundable"])
    people = "just me" if guests == 1 else f"{guests} guests"
    args = {"itinerary_id": trip["itinerary_id"], "room_type_id": room["room_type_id"], "check_in": start.isoformat(),
            "check_out": end.isoformat(), "guests": guests, "rate": rate}
    refs = (_traveller(b), _trip(b, trip), _room(hotel, room))
    mentions = (room["name"], hotel["name"], day(start), day(end), trip["name"])
    dates = f"from {day(start)} to {day(end)}"
    if rng.random() < 0.45:
        return Ask(args, say=rng.choice([f"Please book {what} for {into}, {people}, {rate_words} rate.",
                                         f"I'd like {what} added to {into}: {people}, at the {rate_words} rate."]),
                   terse=f"Book {what}, {dates}, {people}, {rate_words}, into {into}.",
                   detail=rng.choice([f"Checking in {day(start)}, out {day(end)}.", f"The dates are {dates}."]),
                   refs=refs, mentions=mentions)
    return Ask(args, say=rng.choice([f"Book {what} {dates} for {people}, {rate_words} rate, in {into}.",
                                     f"Could you reserve {what}, {dates}? {people.capitalize()}, {rate_words}. "
                                     f"It's for {into}.",
                                     f"Please add a hotel to {into}: {what}, {dates}, {people}, {rate_words} rate."]),
               terse=f"Book {what}, {dates}, {people}, {rate_words}, into {into}.", refs=refs, mentions=mentions)


@goals.add("cancel_hotel_booking", 0.8)
def cancel_hotel_booking(b: Bundle, rng: random.Random) -> Ask | None:
    mine = [x for x in b["stays"] if x["role"] == "cancel"]
    if not mine:
        return None
    stay = rng.choice(mine)
    said = stay_said(stay, rng)
    return Ask({"stay_id": stay["stay_id"]},
               say=rng.choice([f"Please cancel {said}.", f"I don't need {said} any more; cancel it, refund or not.",
                               f"Could you cancel {said} for me?"]),
               terse=f"Cancel {said}.", refs=(_stay(b, stay),), mentions=(stay["hotel"],))


# Questions about every traveller's bookings: a traveller's own are all the tools list.
AGENCY_WIDE = (
    HiddenAsk("count_bookings", lambda b, rng: "How many flight bookings does your agency hold in total, across all "
              "customers?", facts=lambda r: [sum(r.values())]),
    HiddenAsk("count_bookings", lambda b, rng: "Out of curiosity, how many bookings have been cancelled across the "
              "whole agency?", facts=lambda r: [r.get("cancelled", 0)]),
)


def _flight_args(ref: Ref) -> dict[str, Any]:
    f = ref.entity
    return {"origin": f["origin"], "destination": f["destination"], "date": f["departs_at"][:10]}


# Tools that do one another's job for some request (a flight's fares and seats show in the flight
# search, a hotel's rooms in the hotel search, a traveller's loyalty details in the traveller
# search): a missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("get_flight", "search_flights"),
    ("list_room_types", "search_hotels"),
    ("get_traveller", "find_travellers"),
)


recipe = Recipe(
    server="travel_booking",
    sample=sample,
    topics=("travel",),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("traveller", "find_travellers", args=lambda r: {"name": r.entity["name"]}, intro=_intro_name),
        Lookup("traveller", "find_travellers", args=lambda r: {"email": r.entity["email"]}, intro=_intro_email),
        Lookup("flight", "search_flights", args=_flight_args),
        Lookup("hotel", "search_hotels", args=lambda r: {"city": r.entity["city"]}),
        *(Lookup.under(kind, tool) for kind, tool in (("itinerary", "list_itineraries"),
                                                      ("booking", "list_flight_bookings"),
                                                      ("stay", "list_hotel_bookings"),
                                                      ("room_type", "list_room_types"))),
    ),
    hidden=AGENCY_WIDE,
    skip={"find_travellers": "the look-up that opens every request; a traveller never asks for it alone"},
)
