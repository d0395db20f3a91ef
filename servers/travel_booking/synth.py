"""How tasks are written for the travel agency: travellers who introduce themselves by name or
email, and name their trips by title, their flights by route and day ("my flight from Denver to
Chicago on August 18"), their hotel stays by hotel and check-in day, new flights by number, route
and day, their payment methods as people do ("my Visa ending 4242", "my Trailblazer voucher",
"my gift card") and their support cases by what they were about. Values the agency needs (dates,
a card number, a loyalty number) are now and then held back for the assistant to ask for.

Money is part of most requests: a booking names what pays for it, a voucher that cannot cover a
fare is a question whose right answer is its balance (the booking is refused and nothing is
charged), upgrades and downgrades move money both ways, and cancellations are asked for with the
reason that decides the refund."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from typing import Any

from prove_env.facts import NOTHING, one_of
from prove_env.synthesis.recipe import Ask, Goals, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import day, money, stable

from .seed import AIRPORTS, FOREIGN_AIRPORTS, FOREIGN_ROUTES, ROUTES

Bundle = dict[str, Any]
CITY = {code: city for code, _, city in AIRPORTS + FOREIGN_AIRPORTS}
CURRENCY_WORDS = {"GBP": ("pounds", "British pounds", "GBP"), "EUR": ("euros", "the euro", "EUR"),
                  "CAD": ("Canadian dollars", "the Canadian dollar", "CAD")}
COMPANIONS = ("my partner", "my friend", "my colleague", "my travel companion", "my cousin")
FIRST_NAMES = ("Maria", "James", "Olivia", "Noah", "Emma", "Liam", "Sofia", "Lucas", "Ava", "Ethan", "Mia", "Leo")
NOTES = ("My booking reference from the airline is QX7PLM, in case you need it.",
         "I can send a copy of my passport if that helps.", "Please reply by email; I can't take calls at work.",
         "Any update on this? I fly soon.", "The airline's desk told me to raise it with you.")
NEW_TRIPS = ("Summer holiday", "Client visit", "Family reunion", "Ski week", "Wedding weekend", "Team offsite",
             "Spring break", "Sales kickoff", "Anniversary trip", "College tour", "Beach week", "Board meeting")
BOOK_DAYS, BOOK_NIGHTS = range(22, 28), (1, 2, 3, 4)  # new stays begin 22 to 27 days out, beyond the seeded ones
SEARCH_DAYS, SEARCH_NIGHTS = range(3, 21), (1, 2, 3, 5)  # hotel searches check in 3 to 20 days out
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
    for origin, destination, *_ in ROUTES + FOREIGN_ROUTES:
        for a, b in ((origin, destination), (destination, origin)):
            for offset in (2, 5, 9, 14):
                flights += read("search_flights", origin=a, destination=b,
                                date=(today + dt.timedelta(days=offset)).isoformat())
    # every flight of each route and day searched, seats or none: whether a cabin filter leaves one out
    searched: dict[tuple[str, str, str], list[dict]] = {}
    for f in flights:
        searched.setdefault((f["origin"], f["destination"], f["departs_at"][:10]), []).append(f)
    flights = [f for f in flights if f["economy"]["seats_left"] >= 3 and f["business"]["seats_left"] >= 3]
    hotels = []
    window = (today + dt.timedelta(days=BOOK_DAYS[0]), today + dt.timedelta(days=BOOK_DAYS[-1] + max(BOOK_NIGHTS)))
    soon = tuple(today + dt.timedelta(days=d) for d in (SEARCH_DAYS[0], SEARCH_DAYS[0] + 14,
                                                         SEARCH_DAYS[-1] + max(SEARCH_NIGHTS)))
    for city in sorted(set(CITY.values())):
        for h in read("search_hotels", city=city):
            rooms = [{**r, "free": read("check_room_availability", room_type_id=r["room_type_id"],
                                        check_in=window[0].isoformat(), check_out=window[1].isoformat()
                                        )["rooms_left_per_night"],
                      # the nights a hotel search may ask about (3 to 25 days out), 14 nights a read at most
                      "soon": {**read("check_room_availability", room_type_id=r["room_type_id"],
                                      check_in=soon[0].isoformat(), check_out=soon[1].isoformat())["rooms_left_per_night"],
                               **read("check_room_availability", room_type_id=r["room_type_id"],
                                      check_in=soon[1].isoformat(), check_out=soon[2].isoformat())["rooms_left_per_night"]}}
                     for r in read("list_room_types", hotel_id=h["hotel_id"])]
            hotels.append({**h, "rooms": rooms})
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
        flown = [b for b in held if _date(b["departs_at"]) < today]
        routes = [(b["origin"], b["destination"], b["departs_at"][:10]) for b in held]
        ledger = read("list_transactions", traveller_id=tid, limit=100)
        payer = {e["booking_id"]: e["payment_method_id"] for e in reversed(ledger)
                 if e["booking_id"] and e["item"] == "fare" and e["kind"] == "charge"}  # the first fare charge
        roles = ["cancel", "cancel", "change", "cabin", "cabin", "other", "other"]
        booked = [dict(b, role=rng.choice(roles), payer=payer.get(b["booking_id"]),
                       flight=read("get_flight", flight_id=b["flight_id"]),
                       free=[] if b["flight_status"] == "cancelled" else
                       read("list_free_seats", flight_id=b["flight_id"], cabin=b["cabin"])["free_seats"])
                  for b in booked if routes.count((b["origin"], b["destination"], b["departs_at"][:10])) == 1]
        stays = [dict(h, role=rng.choice(["cancel", "keep"]))
                 for h in read("list_hotel_bookings", traveller_id=tid, status="booked") if _date(h["check_in"]) > today]
        methods = read("list_payment_methods", traveller_id=tid)
        # whether a listing needs its status filter: only where the traveller has cancelled bookings
        cancelled = {"flights": len(read("list_flight_bookings", traveller_id=tid)) != len(held),
                     "stays": read("list_hotel_bookings", traveller_id=tid)
                     != read("list_hotel_bookings", traveller_id=tid, status="booked")}
        trips = [{**trip, "detail": read("get_itinerary", itinerary_id=trip["itinerary_id"])} for trip in trips]
        bundles.append({"now": now, "traveller": t, "held_days": sorted(_date(b["departs_at"]) for b in held), "profile": read("get_traveller", traveller_id=tid),
                        "cancelled": cancelled, "trips": trips, "bookings": booked, "stays": stays, "flights": flights,
                        "searched": searched, "hotels": hotels,
                        "aboard": aboard, "methods": methods, "ledger": ledger, "routes": set(routes),
                        "flown": [b for b in flown if routes.count((b["origin"], b["destination"],
                                                                    b["departs_at"][:10])) == 1],
                        "cases": [dict(c, role=rng.choice(["close", "note"]))
                                  for c in read("list_support_cases", traveller_id=tid)],
                        "rates": {c: read("get_exchange_rate", currency=c) for c in ("GBP", "EUR", "CAD")}})
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


def _method(b: Bundle, m: dict) -> Ref:
    return Ref.of("payment_method", m, _traveller(b))


def _case(b: Bundle, case: dict) -> Ref:
    return Ref.of("case", case, _traveller(b))


def method_said(m: dict, rng: random.Random) -> str:
    """A payment method as its owner names it: a card by brand and last digits, the voucher by
    airline, the gift card as such (a traveller has one voucher and one gift card at most)."""
    if m["kind"] == "card":
        brand = rng.choice(["Amex", "American Express card"]) if m["brand"] == "American Express" else m["brand"]
        card = brand if brand.endswith("card") else f"{brand} card"  # never "Mastercard card"
        return rng.choice([f"my {brand} ending {m['last4']}", f"the {brand} ending in {m['last4']}",
                           f"my {card} ending {m['last4']}"])
    if m["kind"] == "voucher":
        return rng.choice([f"my {m['airline']} voucher", f"the {m['airline']} travel voucher",
                           f"my travel voucher from {m['airline']}"])
    return rng.choice(["my gift card", "the gift card on my profile", "my agency gift card"])


def method_mention(m: dict) -> str:
    return m["last4"] if m["kind"] == "card" else "voucher" if m["kind"] == "voucher" else "gift card"


def _usable(b: Bundle, amount: float, airline: str | None) -> list[dict]:
    """The traveller's methods that can pay `amount` (for a flight of `airline`, or a stay when None)."""
    ok = []
    for m in b["methods"]:
        if m["expired"]:
            continue
        if m["kind"] == "voucher" and (airline is None or m["airline"] != airline or m["balance"] < amount):
            continue
        if m["kind"] == "gift_card" and m["balance"] < amount:
            continue
        ok.append(m)
    return ok


def _pick_method(b: Bundle, rng: random.Random, amount: float, airline: str | None) -> dict | None:
    """A method that covers the amount, now and then a voucher or gift card rather than a card."""
    usable = _usable(b, amount, airline)
    stored = [m for m in usable if m["kind"] != "card"]
    if stored and rng.random() < 0.45:
        return rng.choice(stored)
    cards = [m for m in usable if m["kind"] == "card"]
    return rng.choice(cards) if cards else None


def _price(f: dict, cabin: str, fare: str, party: int = 1) -> float:
    unit = round(f[cabin]["fare_usd"] * (1.35 if fare == "flex" else 1.0) + 0.0, 2)
    return round(unit * party + 0.0, 2)


def _method_of(b: Bundle, method_id: str | None) -> dict | None:
    return next((m for m in b["methods"] if m["payment_method_id"] == method_id), None)


def _pays_later(b: Bundle, booking: dict, amount: float, rng: random.Random) -> tuple[bool, dict | None]:
    """Whether a charge on a booking can be paid, and the method the request names for it (None:
    the method that paid the fare, which the request need not name)."""
    airline = booking["flight"]["airline"]
    payer = _method_of(b, booking["payer"])
    fits = payer is not None and payer in _usable(b, amount, airline)
    if fits and rng.random() < 0.5:
        return True, None
    method = _pick_method(b, rng, amount, airline)
    if method is not None:
        return True, method
    return fits, None


def flight_said(f: dict, rng: random.Random, route: bool = True) -> str:
    """A flight as a person names one they are booking: number, route and day (number and day
    alone where the route was just said, as of the flight a booking moves to on its own route)."""
    when = day(_date(f["departs_at"]))
    a, b = f["origin"], f["destination"]
    if not route:
        return rng.choice([f"flight {f['number']} on {when}", f"{f['number']} on {when}",
                           f"the {f['number']} on {when}", f"flight {f['number']}, the one on {when}"])
    return rng.choice([f"flight {f['number']} from {a} to {b} on {when}", f"{f['number']} from {a} to {b} on {when}",
                       f"the {f['number']} {a}-{b} flight on {when}",
                       f"flight {f['number']} on {when}, {CITY[a]} ({a}) to {CITY[b]} ({b})"])


def booking_said(booking: dict, rng: random.Random) -> str:
    """A booked flight as its traveller names it: route and day."""
    when = day(_date(booking["departs_at"]))
    a, b = booking["origin"], booking["destination"]
    return rng.choice([f"my flight from {CITY[a]} to {CITY[b]} on {when}", f"my {a} to {b} flight on {when}",
                       f"my {when} flight to {CITY[b]}", f"my {CITY[b]} flight on {when}",
                       f"my {a}-{b} flight of {when}"])


def stay_said(stay: dict, rng: random.Random) -> str:
    when = day(_date(stay["check_in"]))
    return rng.choice([f"my stay at the {stay['hotel']} from {when}", f"my {stay['hotel']} booking starting {when}",
                       f"the hotel I booked at the {stay['hotel']} for {when}",
                       f"my room at the {stay['hotel']} checking in {when}"])


def trip_said(trip: dict, rng: random.Random) -> str:
    name = trip["name"]
    trip_word = "" if name.lower().endswith(" trip") else " trip"  # never "my 'Miami trip' trip"
    return rng.choice([f"my '{name}'{trip_word}", f"the itinerary called '{name}'",
                       f"my {name} itinerary", f"my trip named '{name}'"])


_BY_NAME = ("Hi, this is {name}.", "{name} here.", "Hello, my name is {name}.", "Hi there, it's {name}.",
            "Good morning, {name} speaking.", "Hey, {name} here.", "This is {name}.", "Hi! I'm {name}.",
            "My name's {name}.", "Hello, {name} calling about my travel.", "It's {name} here.",
            "Hi, I'm {name}, a customer of yours.", "{name} speaking.", "Hello there, {name} here.")
_BY_NAME_TERSE = ("{name} here.", "I'm {name}.", "It's {name}.", "Name: {name}.")
_BY_EMAIL = ("Hi, my email is {email}.", "Hello, I'm the traveller with the email {email}.",
             "My account email is {email}.", "You have me as {email}.", "I booked with the email {email}.",
             "I'm listed under {email}.", "Hi! You'll find me under {email}.", "My email with you is {email}.",
             "My bookings are under the email address {email}.", "Hello, it's the {email} account.",
             "I'm registered with {email}.", "You can look me up by {email}.")
_BY_EMAIL_TERSE = ("Email: {email}.", "{email} here.", "Account {email}.", "Me: {email}.")


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


def _apostrophes(*phrases: str) -> tuple[str, ...]:
    """Phrases with a straight apostrophe, and each also with a curly one ('don’t')."""
    return tuple(dict.fromkeys(q for p in phrases for q in (p, p.replace("'", "\u2019"))))


# No loyalty tier, as its owner hears it said: by the word none, or by having, holding or reaching none
# ('you don't currently have a status tier', 'you're not at any status level', 'you haven't reached a
# tier yet', 'you're at the base level'), never by a tier's name
_NO_TIER = _apostrophes(
    "none", "no tier", "no status", "no loyalty", "no level", "no elite", "no current", "not have a tier",
    "don't have a tier", "don't have a status", "do not have a tier", "do not have a status",
    "don't have any", "do not have any", "don't currently have", "do not currently have", "not currently in",
    "not currently at", "any tier", "any status", "any level", "any elite", "not at any", "not in any",
    "not in a tier", "not on any", "without a tier", "without any", "without status", "without a status",
    "haven't reached", "have not reached", "hasn't reached", "not yet reached", "haven't earned",
    "have not earned", "not yet earned", "haven't qualified", "have not qualified", "base level", "base tier",
    "basic level", "entry level")


def _tier(tier: str) -> Any:
    """A loyalty tier as its owner hears it: no tier is said as having none ('you have no status
    level', 'you don't currently have a tier', 'you haven't reached a tier yet'), not only by the
    word none."""
    if tier != "none":
        return tier
    return one_of(*_NO_TIER)


# No refund, as a traveller hears it said: nothing, none or $0 (NOTHING reads "you wouldn't get any money
# back" too), and also by not being refunded or by the fare being non-refundable ('that fare is
# non-refundable', 'it wouldn't be refunded')
_NO_REFUND = one_of(*NOTHING["one_of"], *_apostrophes(
    "not be refunded", "wouldn't be refunded", "won't be refunded", "isn't refunded", "not refunded",
    "non-refundable", "nonrefundable", "not refundable", "isn't refundable"))

# No charge, as a traveller hears it said: nothing, none or $0, and also as free or included ('the bags
# are included in business', 'it's free', 'it won't cost you anything')
_NO_CHARGE = one_of(*NOTHING["one_of"], *_apostrophes(
    "free", "included", "includes", "at no cost", "no cost", "no extra", "won't cost", "wouldn't cost",
    "doesn't cost", "will not cost", "would not cost", "does not cost", "not cost you"))


@goals.add("get_traveller", 0.6)
def get_traveller(b: Bundle, rng: random.Random) -> Ask | None:
    args, refs = {"traveller_id": b["traveller"]["traveller_id"]}, (_traveller(b),)
    p = b["profile"]
    if p["loyalty_number"] and rng.random() < 0.6:
        return Ask(args, say=rng.choice(["What loyalty number do you have on my profile, and what tier am I?",
                                         "Could you read me my frequent flyer number and my status level?",
                                         "I never remember it: what's my loyalty number? And my tier?"]),
                   terse="My loyalty number and tier?", refs=refs,
                   facts=lambda r: [r["loyalty_number"], _tier(r["loyalty_tier"])])
    return Ask(args, say=rng.choice(["What date of birth is on my profile? It has to match my passport.",
                                     "Can you check the birth date you have on file for me?",
                                     "Which date of birth does my profile show?"]),
               terse="Date of birth on my profile?", refs=refs, facts=lambda r: [r["date_of_birth"]])


@goals.add("search_airports", 0.4)
def search_airports(b: Bundle, rng: random.Random) -> Ask | None:
    city = rng.choice(["New York", "Chicago", "Denver", "Seattle", "Miami", "Austin", "Portland", "Boston"])
    return Ask({"text": city}, say=rng.choice([f"Which airports do you fly to in {city}? I need the codes.",
                                               f"Do you fly to more than one airport in {city}? Which codes?",
                                               f"I'm heading to {city}. Which airports could I fly into? Their codes, please."]),
               terse=f"All your airport codes for {city}?", mentions=(city,), facts=lambda r: [a["code"] for a in r])


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
                          f"Can you find me return flights {a} to {dest}, please? I'd like the flight numbers.",
                          f"Show me what flies {a}-{dest} and back."])
        detail = rng.choice([f"Going out {day(when)} and coming back {day(back)}.",
                             f"Out on {day(when)}, back on {day(back)}."])
        return Ask(args, say=say, terse=f"Return flights {a}-{dest}, {day(when)} and {day(back)}?", detail=detail,
                   mentions=(a, dest, day(when), day(back)), facts=lambda r: [f["number"] for f in r][:6])
    # business seats are asked for only where a flight of that route and day has none left: elsewhere the
    # filter leaves nothing out, and the gold would drop a condition the user stated
    sold_out = any(not x["business"] or x["business"]["seats_left"] <= 0
                   for x in b["searched"].get((a, dest, when.isoformat()), ()))
    cabin = rng.choice([None, None, "business"]) if sold_out else None
    if cabin:
        args["cabin"] = cabin
    what = " with business class seats left" if cabin else ""
    if rng.random() < 0.5:
        return Ask(args, say=rng.choice([f"Which flights{what} go from {a} to {dest}?",
                                         f"I need to get from {CITY[a]} ({a}) to {CITY[dest]} ({dest}). What flights{what} are there?",
                                         f"What are my options flying {a} to {dest}{what}?"]),
                   terse=f"Flights {a} to {dest} on {day(when)}{what}?",
                   detail=rng.choice([f"On {day(when)}.", f"I'd travel on {day(when)}.", f"The date is {day(when)}."]),
                   mentions=(a, dest, day(when)), facts=lambda r: [f["number"] for f in r][:6])
    return Ask(args, say=rng.choice([f"Which flights{what} are there from {a} to {dest} on {day(when)}?",
                                     f"Could you find me flights{what} from {CITY[a]} ({a}) to {CITY[dest]} ({dest}) on {day(when)}?",
                                     f"What's flying {a} to {dest} on {day(when)}{what}? Just the flight numbers."]),
               terse=f"Flights {a}-{dest}, {day(when)}{what}?", mentions=(a, dest, day(when)),
               facts=lambda r: [f["number"] for f in r][:6])


def _fare(cabin: dict) -> Any:
    """A cabin's fare, in the airline's currency or in dollars."""
    return cabin["fare"] if cabin["fare"] == cabin["fare_usd"] else one_of(cabin["fare"], cabin["fare_usd"])


@goals.add("get_flight", 0.7)
def get_flight(b: Bundle, rng: random.Random) -> Ask | None:
    """Seats and fare in a cabin of a flight the traveller is booked on (an upgrade, or someone joining, in
    mind): the flight's id comes from the booking. A flight named by number and day is not asked about here:
    the search that finds it shows its seats and fares already."""
    mine = [x for x in b["bookings"] if x["role"] in ("other", "cabin") and x["flight_status"] == "scheduled"]
    if not mine:
        return None
    booking = rng.choice(mine)
    f = booking["flight"]
    cabins = [c for c in ("economy", "business", "first") if f.get(c) and f[c]["seats_left"] > 0]
    if not cabins:
        return None
    cabin = rng.choice([c for c in cabins if c != booking["cabin"]] or cabins)
    said = booking_said(booking, rng)
    wording = rng.randrange(3)
    if wording == 2:
        # someone joining flies the traveller's own cabin; without a seat left there, another cabin is asked as such
        if booking["cabin"] in cabins:
            cabin = booking["cabin"]
        else:
            wording = 0
    return Ask({"flight_id": booking["flight_id"]},
               say=[f"How many {cabin} seats are left on {said}, and what's the {cabin} fare now?",
                    f"Is there still room in {cabin} on {said}? How many seats, and what does one cost?",
                    f"Someone may join me on {said}. How many {cabin} seats remain, and at what fare?"][wording],
               terse=f"{cabin.capitalize()} seats left and fare on {said}?", refs=(_booking(b, booking),),
               facts=lambda r: [r[cabin]["seats_left"], _fare(r[cabin])])


@goals.add("list_free_seats", 0.6)
def list_free_seats(b: Bundle, rng: random.Random) -> Ask | None:
    f = _future_flight(b, rng)
    if f is None:
        return None
    said = flight_said(f, rng)
    return Ask({"flight_id": f["flight_id"], "cabin": "business"},
               say=rng.choice([f"Which business class seats are still free on {said}?",
                               f"Can you tell me which business seats are still open on {said}?",
                               f"I'm thinking of flying business on {said}. Which seats could I still pick?"]),
               # asked with "which": "Free business seats on TB 386?" reads as well as "how many"
               terse=f"Which business seats are free on {said}?", refs=(_flight(f),), mentions=(f["number"],),
               # every free seat: "which seats could I still pick?" asks for all of them (a business cabin has 16);
               # no "up front" (read as the front rows, it would ask for a few of them)
               facts=lambda r: r["free_seats"])


def _hotel_pick(b: Bundle, rng: random.Random) -> tuple[dict, dict] | None:
    hotel = rng.choice(b["hotels"])
    if not hotel["rooms"]:
        return None
    return hotel, rng.choice(hotel["rooms"])


def _hotels_found(b: Bundle, city: str, start: dt.date, end: dt.date, guests: int, price: float | None) -> list:
    """What `search_hotels` finds in the city for the stay, the party and the cap, off the sampled rooms:
    each hotel's room types that sleep the party, cost at most the cap and are free every night."""
    nights = [(start + dt.timedelta(days=i)).isoformat() for i in range((end - start).days)]
    found = []
    for h in b["hotels"]:
        if h["city"] != city:
            continue
        rooms = [r["room_type_id"] for r in h["rooms"] if r["max_guests"] >= guests
                 and (price is None or r["nightly_price"] <= price) and all(r["soon"][n] > 0 for n in nights)]
        if rooms:
            found.append((h["hotel_id"], rooms))
    return found


@goals.add("search_hotels")
def search_hotels(b: Bundle, rng: random.Random) -> Ask | None:
    city = rng.choice(b["hotels"])["city"]
    start = b["now"].date() + dt.timedelta(days=rng.choice(SEARCH_DAYS))
    end = start + dt.timedelta(days=rng.choice(SEARCH_NIGHTS))
    # the party and the price cap are said only where they change what the search finds (the gold
    # leaves out a filter that changes nothing, which would teach dropping what the user said): a party
    # of two that every room sleeps, or a cap above every free room's price, is not asked about
    guests = rng.choice([1, 2, 2, 3, 4])
    price = rng.choice([200, 250, 300, 400]) if rng.random() < 0.4 else None
    if guests > 1 and _hotels_found(b, city, start, end, guests, price) == _hotels_found(b, city, start, end, 1, price):
        guests = 1
    if price is not None and _hotels_found(b, city, start, end, guests, price) \
            == _hotels_found(b, city, start, end, guests, None):
        price = None
    # a party of one is the tool's default and stays out of the arguments: the dates are held back, and the gold
    # of the call a held-back value is for keeps every argument it carries, so guests=1 there cost the natural
    # search that leaves the party of one to the tool its coverage ("It's just me", then the dates)
    args: dict[str, Any] = {"city": city, "check_in": start.isoformat(), "check_out": end.isoformat()}
    if guests > 1:
        args["guests"] = guests
    people = {1: "just me", 2: "two of us", 3: "three of us", 4: "four of us"}[guests]
    dates = f"from {day(start)} to {day(end)}"
    cap = ""
    if price is not None:
        args["max_price"] = float(price)
        cap = f" for at most {money(price)} a night"
    # a party of one is no "we" ("I'm going to Denver on my own. Which hotels can put me up?"), and a party
    # is counted as "there are two of us", not "we're two of us"
    party = "It's just me" if guests == 1 else f"There are {people}"
    going, us, we = ((f"I'm going to {city} on my own", "me", "I") if guests == 1
                     else (f"There are {people} going to {city}", "us", "We"))
    return Ask(args, say=rng.choice([f"Which hotels in {city} have a room{cap}? {party}.",
                                     f"{going}. Which hotels can put {us} up{cap}?",
                                     f"I need somewhere to stay in {city}{cap}, {people}. What's available?"]),
               terse=f"Hotels in {city}{cap}, {people}, {dates}?",
               detail=rng.choice([f"The dates are {dates}.", f"Checking in {day(start)}, out {day(end)}.",
                                  f"{we}'d stay {dates}."]),
               mentions=(city, day(start), day(end)), facts=lambda r: [h["name"] for h in r][:5] or [NOTHING])


@goals.add("list_room_types", 0.6)
def list_room_types(b: Bundle, rng: random.Random) -> Ask | None:
    """The room types of the hotel of one of the traveller's stays (another room in mind): the hotel's id
    comes from the stay. A hotel named on its own is not asked about here: the city's hotel search that finds
    it lists its rooms and prices already."""
    # The stay is said by its city and day, never its hotel's name (the city's hotel search would list
    # a named hotel's rooms in one call), and only in a city of several hotels, where the booking tells
    # which one is the traveller's.
    in_city = Counter(h["city"] for h in b["hotels"])
    stays = [s for s in b["stays"] if s["role"] == "keep" and in_city[s["city"]] > 1]
    if not stays:
        return None
    stay = rng.choice(stays)
    when = day(_date(stay["check_in"]))
    said = rng.choice([f"my stay in {stay['city']} from {when}", f"my {stay['city']} booking starting {when}",
                       f"my room in {stay['city']} checking in {when}"])
    return Ask({"hotel_id": stay["hotel_id"]},
               say=rng.choice([f"I might switch rooms for {said}. What room types does that hotel have, and what "
                               "do they cost a night?",
                               f"What kinds of rooms are there at the hotel of {said}, and at what nightly price?",
                               f"About {said}: which room types does the hotel offer, and for how much a night?"]),
               terse=f"Room types and nightly prices at my {stay['city']} hotel from {when}?", refs=(_stay(b, stay),),
               mentions=(stay["city"],), facts=lambda r: [v for x in r for v in (x["name"], x["nightly_price"])])


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
    # how many are left for the whole stay: the one thing the hotel search with the dates does not tell (it lists
    # the room, free every night, at its nightly price, and the non-refundable rate is 15% less), so that the
    # check is the call the question needs rather than a longer route to what one search answers
    facts = lambda r: ([min(r["rooms_left_per_night"].values()) or _SOLD_OUT]  # noqa: E731
                       + ([r[key]] if r["available"] else []))
    if rng.random() < 0.4:
        return Ask(args, say=rng.choice([f"Is {what} available, how many are left, and what would one cost at {rate}?",
                                         f"Could you price {what} for me at {rate}, and tell me how many are left?"]),
                   terse=f"{what}, {day(start)}-{day(end)}, {rate}: how many left, and price?",
                   detail=rng.choice([f"From {day(start)} to {day(end)}.", f"I'd arrive {day(start)} and leave "
                                      f"{day(end)}."]),
                   refs=(_room(hotel, room),), mentions=(room["name"], hotel["name"], day(start), day(end)),
                   facts=facts)
    return Ask(args,
               say=rng.choice([f"Is {what} free from {day(start)} to {day(end)}? How many are left for the whole "
                               f"stay, and what would one cost at {rate}?",
                               f"How much would {what} be at {rate}, {day(start)} to {day(end)}? And how many of "
                               "them are still free every night?",
                               f"Could you price {what} for {day(start)} through {day(end)} at {rate}, and tell me "
                               "how many are left for those nights?"]),
               terse=f"{what}, {day(start)}-{day(end)}, {rate}: how many left, and price?",
               refs=(_room(hotel, room),), mentions=(room["name"], hotel["name"], day(start), day(end)),
               facts=facts)


# No room of the type left on some night of the stay, as a person says it
_SOLD_OUT = one_of(0, "none", "no rooms", "not available", "unavailable", "isn't available", "isn\u2019t available",
                   "fully booked", "sold out", "booked up")


@goals.add("list_itineraries", 0.5)
def list_itineraries(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({"traveller_id": b["traveller"]["traveller_id"]},
               say=rng.choice(["Which trips do I have with you?", "Can you list my itineraries?",
                               "I've lost track. What trips have I planned with you so far?"]),
               terse="My trips?", refs=(_traveller(b),), facts=lambda r: [t["name"] for t in r])


@goals.add("get_itinerary", 0.8)
def get_itinerary(b: Bundle, rng: random.Random) -> Ask | None:
    # a trip with something booked and nothing cancelled: the total counts only what is booked, so
    # a cancelled booking the traveller paid for would make "the total" and "what I spent" differ
    # ... and a total that is not the price of one of its bookings: the bookings list (which shows
    # prices, not trips) would then seem to tell it, and the trip's own read be dropped as unneeded
    trips = [t for t in b["trips"] if t["detail"]["total"] > 0
             and all(x["status"] == "booked" for x in t["detail"]["flights"] + t["detail"]["hotels"])
             and t["detail"]["total"] not in {x["price_paid"] for x in t["detail"]["flights"]}
             | {x["total_price"] for x in t["detail"]["hotels"]}]
    if not trips:
        return None
    trip = rng.choice(trips)
    said = trip_said(trip, rng)
    return Ask({"itinerary_id": trip["itinerary_id"]},
               say=rng.choice([f"What does {said} come to in total?", f"What's the total of what's booked in {said}?",
                               f"Could you add up everything booked in {said}?"]),
               terse=f"Total of {said}?", refs=(_trip(b, trip),), mentions=(trip["name"],),
               facts=lambda r: [r["total"] or NOTHING],
               # the trip's read shows its bookings and stays with their ids: a later request about one of
               # them (cancel my flight) takes the id from here, with no bookings listing of its own
               settles=tuple(("booking", x["booking_id"]) for x in trip["detail"]["flights"])
               + tuple(("stay", x["stay_id"]) for x in trip["detail"]["hotels"]))


def _booked_only(b: Bundle, which: str) -> dict[str, Any]:
    """A listing of the traveller's bookings, filtered to the booked ones only where some are
    cancelled: else the filter changes nothing, and an agent that leaves it out lists the same (the
    facts take the booked ones, whatever the call returns after a cancellation earlier on)."""
    args = {"traveller_id": b["traveller"]["traveller_id"]}
    return {**args, "status": "booked"} if b["cancelled"][which] else args


@goals.add("list_flight_bookings", 0.6)
def list_flight_bookings(b: Bundle, rng: random.Random) -> Ask | None:
    today = b["now"].date()
    if today in b["held_days"]:
        return None  # a flight of today is upcoming or flown by the hour: two readings
    ahead = [d for d in b["held_days"] if d > today]
    if len(ahead) != len(b["held_days"]) and not ahead:
        return None  # only flown flights: "none upcoming" would be its answer, and a listing of them another
    return Ask(_booked_only(b, "flights"),
               # every wording asks for the numbers the facts are: "What flights am I booked on?" is rightly answered
               # by route and day ("San Francisco to Seattle on April 16"), which named no number and failed; and
               # for the upcoming ones, the facts: "right now" left a flight flown yesterday in or out (seed 155)
               say=rng.choice(["Which upcoming flights do I have booked? The flight numbers, please.",
                               "Can you list my upcoming flight bookings? I need the flight numbers.",
                               "What upcoming flights am I booked on? Just the flight numbers."]),
               terse="Flight numbers of my upcoming flights?", refs=(_traveller(b),),
               facts=lambda r: [x["flight_number"] for x in r if x["status"] == "booked"
                                and _date(x["departs_at"]) > today] or [NOTHING])


@goals.add("list_hotel_bookings", 0.6)
def list_hotel_bookings(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask(_booked_only(b, "stays"),
               say=rng.choice(["Which hotels have I got booked?", "Can you remind me where I'm staying? My hotel "
                               "bookings, please.", "List my current hotel reservations."]),
               terse="My hotel bookings?", refs=(_traveller(b),),
               facts=lambda r: [x["hotel"] for x in r if x["status"] == "booked"] or [NOTHING])


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
               mentions=(new["number"],), facts=lambda r: [r["total_due"] or _NO_CHARGE])


# -- goals: changes ------------------------------------------------------------------------------------

@goals.add("set_loyalty_number", 0.6)
def set_loyalty_number(b: Bundle, rng: random.Random) -> Ask | None:
    number = f"TB{rng.randint(10**7, 10**8 - 1)}"
    # said as the call takes it: a number said 'TB 1234 5678' and stored 'TB12345678' scores the user's own copy lower
    return Ask({"traveller_id": b["traveller"]["traveller_id"], "loyalty_number": number},
               # a number replaced is said to be updated, one added where there is none to be added
               say=rng.choice(["I just got a new loyalty card. Can you update the number you have for me?",
                               "My frequent flyer number has changed. Could you replace the one on my profile?"]
                              if b["traveller"]["loyalty_number"] else
                              ["I'd like my loyalty number added to my profile.",
                               "Could you put my frequent flyer number on my profile, please?"]),
               terse=f"Set my loyalty number to {number}.",
               detail=rng.choice([f"It's {number}.", f"The number is {number}.", f"Loyalty number: {number}."]),
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


def _trip_city(trip: dict) -> str | None:
    """The city a trip's name says ('Miami conference'), if any ('Team offsite')."""
    return next((c for c in sorted(set(CITY.values()), key=len, reverse=True) if c.lower() in trip["name"].lower()),
                None)


def _trip_flight(b: Bundle, trip: dict, rng: random.Random) -> dict | None:
    """A future flight the traveller is not booked on that fits a trip: to or from the city its name says,
    any flight for a trip whose name says none."""
    city = _trip_city(trip)
    pool = [f for f in b["flights"] if f["flight_id"] not in b["aboard"]
            and (city is None or city in (CITY[f["origin"]], CITY[f["destination"]]))]
    return rng.choice(pool) if pool else None


@goals.add("book_flight", 1.3)
def book_flight(b: Bundle, rng: random.Random) -> Ask | None:
    trip = rng.choice(b["trips"])
    f = _trip_flight(b, trip, rng)
    if f is None:
        return None
    party = 1 + (rng.choice([1, 1, 2]) if rng.random() < 0.25 else 0)
    first = f["first"] and f["first"]["seats_left"] >= party
    cabins = ["economy", "economy", "business"] + (["first"] if first else [])
    cabin = rng.choice(cabins)
    fare = rng.choice(["basic", "flex"])
    insured = rng.random() < 0.2
    cost = round(_price(f, cabin, fare, party) + (30.0 * party if insured else 0.0), 2)
    method = _pick_method(b, rng, cost, f["airline"])
    if method is None:
        return None
    # the fare is said as a fare: a bare "basic," read as nothing in "Economy, in my trip; basic, on my card"
    fare_words = {"basic": rng.choice(["the basic fare", "the cheapest, non-refundable fare", "a basic fare"]),
                  "flex": rng.choice(["the flex fare", "a refundable flex fare", "a flex fare"])}[fare]
    said, into, paid = flight_said(f, rng), trip_said(trip, rng), method_said(method, rng)
    args: dict[str, Any] = {"itinerary_id": trip["itinerary_id"], "flight_id": f["flight_id"], "cabin": cabin,
                            "fare_type": fare, "payment_method_id": method["payment_method_id"]}
    refs = (_traveller(b), _trip(b, trip), _flight(f), _method(b, method))
    mentions = [f["number"], cabin, trip["name"], method_mention(method)] + ([fare] if fare in fare_words else [])
    extras = []
    if party > 1:
        surname = b["traveller"]["name"].split()[-1]
        first = b["traveller"]["name"].split()[0]
        names = [f"{n} {surname}" for n in rng.sample([n for n in FIRST_NAMES if n != first], party - 1)]
        args["companions"] = names
        who = " and ".join(f"{rng.choice(COMPANIONS)} {n}" for n in names)
        extras.append(rng.choice([f"It's for me and {who}.", f"{who[0].upper() + who[1:]} will fly with me on the "
                                  "same booking."]))
        mentions += names
    if insured:
        args["insurance"] = True
        extras.append(rng.choice(["Add travel insurance too.", "And I'd like the travel insurance.",
                                  "Please include travel insurance."]))
        mentions.append("insurance")
    extra = (" " + " ".join(extras)) if extras else ""
    # the fare is never held back: a booking is 'basic' unless told, and an assistant may rightly book it so
    return Ask(args, say=rng.choice([f"Book {said} for me in {cabin} on {fare_words}, and put it in {into}. "
                                     f"Charge {paid}.",
                                     f"Could you reserve {said}, {cabin} class, {fare_words}? It belongs to {into}; "
                                     f"pay with {paid}.",
                                     f"Add {said} to {into}: {cabin}, {fare_words}, paid with {paid}, please.",
                                     f"Please book me on {said} in {cabin}, and add it to {into}. Make it {fare_words} "
                                     f"and use {paid}.",
                                     f"Can you get me on {said}? {cabin.capitalize()}, in {into}; {fare_words}, "
                                     f"on {paid}."]) + extra,
               terse=f"Book {said}, {cabin}, {fare} fare, into {into}, pay with {paid}.{extra}", refs=refs,
               mentions=tuple(mentions))


@goals.add("select_seat")
def select_seat(b: Bundle, rng: random.Random) -> Ask | None:
    mine = [x for x in b["bookings"] if x["role"] == "other" and x["free"]]
    if not mine:
        return None
    booking = rng.choice(mine)
    seat = rng.choice(booking["free"][:12])
    said = booking_said(booking, rng)
    args = {"booking_id": booking["booking_id"], "seat": seat}
    if booking["companions"] and rng.random() < 0.6:
        name = rng.choice(booking["companions"])["name"]
        args["passenger"] = name
        return Ask(args, say=rng.choice([f"Can {name} have seat {seat} on {said}?",
                                         f"Please put {name}, who's on my booking, in {seat} on {said}.",
                                         f"I'd like to pick a seat for {name} on {said}: {seat}, if it's free."]),
                   terse=f"Seat {seat} for {name} on {said}.", refs=(_booking(b, booking),), mentions=(seat, name))
    return Ask(args,
               say=rng.choice([f"Can I have seat {seat} on {said}?", f"Please put me in {seat} on {said}.",
                               f"I'd like to choose my seat for {said}: {seat}, if it's free."]),
               terse=f"Seat {seat} on {said}.", refs=(_booking(b, booking),), mentions=(seat,))


@goals.add("add_bags")
def add_bags(b: Bundle, rng: random.Random) -> Ask | None:
    mine = [x for x in b["bookings"] if x["role"] == "other" and x["bags"] == 0 and x["flight_status"] == "scheduled"]
    if not mine:
        return None
    booking = rng.choice(mine)
    count = rng.choice([1, 1, 2])
    words = {1: "one checked bag", 2: "two checked bags"}[count]
    said = booking_said(booking, rng)
    possible, method = _pays_later(b, booking, 35.0 * count, rng)
    if not possible:
        return None
    args: dict[str, Any] = {"booking_id": booking["booking_id"], "count": count}
    refs, mentions, paid = [_booking(b, booking)], [words.split()[0]], ""
    if method is not None:
        args["payment_method_id"] = method["payment_method_id"]
        refs.append(_method(b, method))
        mentions.append(method_mention(method))
        paid = " " + rng.choice([f"Put it on {method_said(method, rng)}.", f"Charge {method_said(method, rng)}."])
    them = "it" if count == 1 else "them"
    owe = f"Could you add {words} to {said}, and tell me what I owe?"
    say = rng.choice([f"Please add {words} to {said}.", f"I'll be travelling with {words} on {said}. "
                      f"Can you add {them}?", owe])
    if say == owe:
        # asked what is owed: the answer states what this call charged (nothing where the cabin includes them)
        return Ask(args, say=say + paid, terse=f"Add {words} to {said}; what do I owe?{paid}", refs=tuple(refs),
                   mentions=tuple(mentions), facts=lambda r: [r["charged_now"] or _NO_CHARGE])
    return Ask(args, say=say + paid, terse=f"Add {words} to {said}.{paid}", refs=tuple(refs), mentions=tuple(mentions))


@goals.add("change_flight", 1.2)
def change_flight(b: Bundle, rng: random.Random) -> Ask | None:
    mine = [x for x in b["bookings"] if x["role"] == "change"]
    if not mine:
        return None
    booking = rng.choice(mine)
    new = _future_flight(b, rng, booking["origin"], booking["destination"], after=_date(booking["departs_at"]),
                         bookable=True)
    if new is None or new["flight_id"] == booking["flight_id"] or new[booking["cabin"]] is None \
            or new[booking["cabin"]]["seats_left"] < booking["passengers"]:
        return None
    grounded = booking["flight_status"] == "cancelled"
    fee = 0.0 if grounded or booking["fare_type"] == "flex" or b["traveller"]["loyalty_tier"] == "gold" else 99.0
    difference = 0.0 if grounded else max(0.0, _price(new, booking["cabin"], booking["fare_type"],
                                                      booking["passengers"]) - booking["price_paid"])
    possible, method = _pays_later(b, booking, round(fee + difference, 2), rng) if fee + difference else (True, None)
    if not possible:
        return None
    # the new flight flies the booking's own route: its number and day name it, the route is said once
    said, target = booking_said(booking, rng), flight_said(new, rng, route=False)
    args: dict[str, Any] = {"booking_id": booking["booking_id"], "new_flight_id": new["flight_id"]}
    refs = [_booking(b, booking), _flight(new)]
    mentions, paid = [new["number"]], ""
    if method is not None:
        args["payment_method_id"] = method["payment_method_id"]
        refs.append(_method(b, method))
        mentions.append(method_mention(method))
        paid = " " + rng.choice([f"Charge whatever it costs to {method_said(method, rng)}.",
                                 f"Any fee goes on {method_said(method, rng)}."])
    if grounded:
        return Ask(args, say=rng.choice([f"The airline cancelled {said}. Please rebook me on {target} instead.",
                                         f"{said[0].upper() + said[1:]} was cancelled by the airline; move me to "
                                         f"{target}, please."]) + paid,
                   terse=f"Airline cancelled {said}; move it to {target}.{paid}", refs=tuple(refs),
                   mentions=tuple(mentions))
    if rng.random() < 0.4:
        return Ask(args, say=rng.choice([f"My plans changed; I need to move {said} to another flight.",
                                         f"Can you switch {said} to a different flight for me?"]) + paid,
                   terse=f"Move {said} to {target}.{paid}",
                   detail=rng.choice([f"Put me on {target}, whatever the fee.", f"The new one is {target}."]),
                   refs=tuple(refs), mentions=tuple(mentions))
    return Ask(args, say=rng.choice([f"Please move {said} to {target}; I accept the fee if there is one.",
                                     f"I need {said} changed to {target}. Go ahead, whatever it costs.",
                                     f"Could you rebook {said} onto {target}?"]) + paid,
               terse=f"Move {said} to {target}.{paid}", refs=tuple(refs), mentions=tuple(mentions))


REASON_WORDS = {"illness": ("I've come down with pneumonia and my doctor says I can't fly.",
                            "I'm ill and can't travel.", "I'm sick, so I can't make it."),
                "family_emergency": ("There's been a family emergency.", "My father is in hospital; it's a family "
                                     "emergency.", "A family emergency came up.")}


@goals.add("cancel_flight_booking", 1.2)
def cancel_flight_booking(b: Bundle, rng: random.Random) -> Ask | None:
    mine = [x for x in b["bookings"] if x["role"] == "cancel"]
    if not mine:
        return None
    booking = rng.choice(mine)
    said = booking_said(booking, rng)
    args: dict[str, Any] = {"booking_id": booking["booking_id"]}
    refs = (_booking(b, booking),)
    if booking["flight_status"] == "cancelled":
        return Ask(args, say=rng.choice([f"The airline cancelled {said}. Please cancel my booking and refund me.",
                                         f"I saw {said} was cancelled by the airline; I'd like my money back, so "
                                         "cancel the booking."]),
                   terse=f"Airline cancelled {said}: cancel and refund.", refs=refs)
    if b["now"] - dt.datetime.fromisoformat(booking["booked_at"]) < dt.timedelta(hours=24):
        return Ask(args, say=rng.choice([f"Please cancel {said}. I only booked it yesterday, and I've changed my mind.",
                                         f"Cancel {said}, please; I made that booking just a few hours ago."]),
                   terse=f"Cancel {said} (booked in the last day).", refs=refs)
    if booking["insurance"] and rng.random() < 0.6:
        reason = rng.choice(["illness", "family_emergency"])
        args["reason"] = reason
        why = rng.choice(REASON_WORDS[reason])
        return Ask(args, say=rng.choice([f"{why} Please cancel {said}; I bought travel insurance with it.",
                                         f"I have to cancel {said}. {why}"]),
                   terse=f"Cancel {said}: {why[0].lower() + why[1:]}", refs=refs)
    return Ask(args, say=rng.choice([f"Please cancel {said}, even if I get nothing back.",
                                     f"I won't be travelling after all. Cancel {said}, whatever the refund.",
                                     f"Could you cancel {said} for me?"]),
               terse=f"Cancel {said}.", refs=refs)


@goals.add("book_hotel", 0.6)
def book_hotel(b: Bundle, rng: random.Random) -> Ask | None:
    trip = rng.choice(b["trips"])
    city = _trip_city(trip)  # a hotel in the city the trip's name says, any for a trip whose name says none
    hotels = [h for h in b["hotels"] if h["rooms"] and city in (None, h["city"])]
    if not hotels:
        return None
    hotel = rng.choice(hotels)
    room = rng.choice(hotel["rooms"])
    today = b["now"].date()
    stays = [(first, nights) for first in BOOK_DAYS for nights in BOOK_NIGHTS  # a room free every night
             if all(room["free"][(today + dt.timedelta(days=first + i)).isoformat()] > 0 for i in range(nights))]
    if not stays:
        return None
    first, nights = rng.choice(stays)
    start, end = today + dt.timedelta(days=first), today + dt.timedelta(days=first + nights)
    guests = rng.randint(1, room["max_guests"])
    rate = rng.choice(["refundable", "nonrefundable"])
    nights = (end - start).days
    total = round(room["nightly_price"] * (0.85 if rate == "nonrefundable" else 1.0) * nights + 0.0, 2)
    method = _pick_method(b, rng, total, None)
    if method is None:
        return None
    what = f"a {room['name']} at the {hotel['name']}"
    into = trip_said(trip, rng)
    paid = " " + rng.choice([f"Pay with {method_said(method, rng)}.", f"Charge it to {method_said(method, rng)}."])
    rate_words = "refundable" if rate == "refundable" else rng.choice(["non-refundable", "cheaper non-refundable"])
    people = "just me" if guests == 1 else f"{guests} guests"
    # the tool's defaults (one guest, the refundable rate) stay out of the arguments, as for the hotel search: where
    # the dates are held back, the gold would keep them, and a booking that leaves them to the tool lost coverage
    args = {"itinerary_id": trip["itinerary_id"], "room_type_id": room["room_type_id"], "check_in": start.isoformat(),
            "check_out": end.isoformat(), "payment_method_id": method["payment_method_id"]}
    if guests > 1:
        args["guests"] = guests
    if rate != "refundable":
        args["rate"] = rate
    refs = (_traveller(b), _trip(b, trip), _room(hotel, room), _method(b, method))
    mentions = (room["name"], hotel["name"], day(start), day(end), trip["name"], method_mention(method))
    dates = f"from {day(start)} to {day(end)}"
    if rng.random() < 0.45:
        return Ask(args, say=rng.choice([f"Please book {what} for {into}, {people}, {rate_words} rate.",
                                         f"I'd like {what} added to {into}: {people}, at the {rate_words} rate."])
                   + paid, terse=f"Book {what}, {dates}, {people}, {rate_words}, into {into}.{paid}",
                   detail=rng.choice([f"Checking in {day(start)}, out {day(end)}.", f"The dates are {dates}."]),
                   refs=refs, mentions=mentions)
    return Ask(args, say=rng.choice([f"Book {what} {dates} for {people}, {rate_words} rate, in {into}.",
                                     f"Could you reserve {what}, {dates}? {people.capitalize()}, {rate_words}. "
                                     f"It's for {into}.",
                                     f"Please add a hotel to {into}: {what}, {dates}, {people}, {rate_words} rate."])
               + paid, terse=f"Book {what}, {dates}, {people}, {rate_words}, into {into}.{paid}", refs=refs,
               mentions=mentions)


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


# -- goals: money ---------------------------------------------------------------------------------------

@goals.add("list_payment_methods", 1.1)
def list_payment_methods(b: Bundle, rng: random.Random) -> Ask | None:
    args, refs = {"traveller_id": b["traveller"]["traveller_id"]}, (_traveller(b),)
    live = [m for m in b["methods"] if not m["expired"]]
    stored = [m for m in live if m["kind"] != "card"]
    roll = rng.random()
    if roll < 0.35:
        # a booking the voucher cannot cover: the right outcome is no booking, and the balance said
        vouchers = [m for m in stored if m["kind"] == "voucher"]
        # short even if every charge on the voucher came back to it in the same conversation
        spent = {m["payment_method_id"]: sum(e["amount"] for e in b["ledger"] if e["kind"] == "charge"
                                             and e["payment_method_id"] == m["payment_method_id"]) for m in vouchers}
        short = [(m, f) for m in vouchers for f in b["flights"] if f["airline"] == m["airline"]
                 and f["flight_id"] not in b["aboard"]
                 and f["economy"]["fare_usd"] > m["balance"] + spent[m["payment_method_id"]]]
        if short:
            m, f = rng.choice(short)
            vid, said, paid = m["payment_method_id"], flight_said(f, rng), method_said(m, rng)
            # the user says the fare: the condition they set is then checked on the voucher's balance alone
            # (the gold reads the payment methods only, and a fare look-up would tell nothing they asked)
            fare = money(f["economy"]["fare_usd"])
            return Ask(args, say=rng.choice([
                f"I'd like to book {said} in economy, basic fare, paid entirely with {paid}; the fare is {fare}. "
                "If the voucher doesn't cover that, don't book anything; just tell me how much is left on it.",
                f"The economy basic fare on {said} is {fare}. Can {paid} pay for it on its own? If not, leave it "
                "unbooked and tell me its balance."]), terse=f"Book {said}, economy, basic ({fare}), all on {paid}; "
                "if it won't cover it, just tell me its balance.", refs=refs, mentions=(f["number"], "voucher", fare),
                facts=lambda r: [next(x["balance"] for x in r if x["payment_method_id"] == vid) or NOTHING])
    if roll < 0.5:
        # a card that has expired: no booking, and its expiry said
        expired = [m for m in b["methods"] if m["expired"] and m["kind"] == "card"]
        if expired and b["flights"]:
            m, f = rng.choice(expired), rng.choice(b["flights"])
            mid, said, paid = m["payment_method_id"], flight_said(f, rng), method_said(m, rng)
            return Ask(args, say=f"Please book {said} in economy and charge {paid}. If that card is no longer "
                       "valid, don't book; tell me when it expired.",
                       terse=f"Book {said}, economy, on {paid}; if it's expired, tell me when instead.", refs=refs,
                       mentions=(f["number"], m["last4"]),
                       facts=lambda r: [_card_expiry(next(x["expires_on"] for x in r
                                                           if x["payment_method_id"] == mid))])
    if stored and roll < 0.85:
        m = rng.choice(stored)
        mid, said = m["payment_method_id"], method_said(m, rng)
        if m["kind"] == "voucher" and rng.random() < 0.4:
            return Ask(args, say=rng.choice([f"When does {said} expire?", f"How long is {said} still good for?"]),
                       terse=f"Expiry of {said}?", refs=refs, mentions=("voucher",),
                       facts=lambda r: [next(x["expires_on"] for x in r if x["payment_method_id"] == mid)])
        return Ask(args, say=rng.choice([f"How much is left on {said}?", f"What's the balance of {said}?",
                                         f"Could you check what I still have on {said}?"]),
                   terse=f"Balance of {said}?", refs=refs, mentions=(method_mention(m),),
                   facts=lambda r: [next(x["balance"] for x in r if x["payment_method_id"] == mid) or NOTHING])
    cards = [m for m in live if m["kind"] == "card"]
    if not cards:
        return None
    return Ask(args, say=rng.choice(["Which cards do you have on file for me? Just the last four digits.",
                                     "What cards are saved on my profile?"]),
               terse="My saved cards?", refs=refs,
               facts=lambda r: [x["last4"] for x in r if x["kind"] == "card" and not x["expired"]])


def _card_expiry(expires_on: str) -> Any:
    """A card's expiry as a person says it: a card runs to the end of its month, so "it expired in February 2026"
    and "02/26" (as the card prints it) tell the stored last day, 2026-02-28, as well as the date itself."""
    d = dt.date.fromisoformat(expires_on)
    month = d.strftime("%B")
    return one_of(expires_on, f"{month} {d.year}", f"{month[:3]} {d.year}", f"{d.month:02d}/{d.year % 100:02d}",
                  f"{d.month:02d}/{d.year}")


def _card_number(rng: random.Random) -> tuple[str, str]:
    """A card number that passes its check digit, and how a person reads it out (in groups)."""
    brand = rng.choice(["4", "5", "3"])
    body = {"4": "4", "5": f"5{rng.randint(1, 5)}", "3": rng.choice(["34", "37"])}[brand]
    length = 15 if brand == "3" else 16
    while len(body) < length - 1:
        body += str(rng.randint(0, 9))
    total = 0
    for i, d in enumerate(reversed(body)):
        n = int(d) * (1 if i % 2 else 2)
        total += n - 9 if n > 9 else n
    number = body + str((10 - total % 10) % 10)
    groups = (number[:4], number[4:10], number[10:]) if length == 15 \
        else tuple(number[i:i + 4] for i in range(0, 16, 4))
    return number, " ".join(groups)


@goals.add("add_card", 0.7)
def add_card(b: Bundle, rng: random.Random) -> Ask | None:
    _, spoken = _card_number(rng)
    expiry = f"{rng.randint(1, 12):02d}/{rng.randint(27, 31)}"
    # the number as the user says it, in groups (the call takes it so): a copy of their words is the right call
    args = {"traveller_id": b["traveller"]["traveller_id"], "card_number": spoken, "expiry": expiry}
    return Ask(args, say=rng.choice(["I've got a new card I'd like saved to my profile.",
                                     "Please add a new credit card for me.",
                                     "Could you put my new card on file for future bookings?"]),
               terse=f"Save card {spoken}, expiry {expiry}.",
               detail=rng.choice([f"The number is {spoken}, expiring {expiry}.",
                                  f"It's {spoken}, valid through {expiry}.", f"Card {spoken}, expiry {expiry}."]),
               refs=(_traveller(b),), mentions=(spoken, expiry))


def _payer(label: str) -> Any:
    """What paid, as its owner says it: a card by its last digits, a voucher or the gift card as such."""
    card = re.search(r"ending (\d{4})$", label)
    if card:
        return card[1]
    return one_of("voucher" if "voucher" in label.lower() else "gift card", label)


def _charges_and_payers(r: list[dict]) -> list[Any]:
    """A booking's first charges and refunds, and what paid them (each payer once)."""
    entries = r[:4]
    payers = {e["paid_with"]: _payer(e["paid_with"]) for e in entries}
    return [e["amount"] for e in entries] + list(payers.values())


def _narrows(b: Bundle, key: str, value: str) -> bool:
    """Whether the traveller's charges and refunds filtered to `key` = `value` are some, not all."""
    return len({e[key] == value for e in b["ledger"]}) == 2


@goals.add("list_transactions", 0.9)
def list_transactions(b: Bundle, rng: random.Random) -> Ask | None:
    """The charges of one booking or one payment method. The traveller's whole list (one page) labels
    each entry with what it was for ("TB 195 SEA-SFO on 2026-06-21") and what paid it ("Mastercard
    ending 1017"), so the gold lists it all and picks the entries: filtering by id would first need the
    booking or the card looked up, a call longer than reading the labels."""
    tid = b["traveller"]["traveller_id"]
    page = b["ledger"][:20]  # what the listing shows without a limit
    if len(b["ledger"]) > len(page):
        return None

    def only(key: str, value: str) -> Any:
        return lambda r: [e for e in r if e[key] == value]

    labels: dict[str, set] = {}
    for e in page:
        labels.setdefault(e["for"], set()).add(e["booking_id"])
    # the list shows each booking's and stay's id beside its route and day or its hotel and check-in day: a
    # later request about one whose label no other entry shares takes the id from here, with no listing
    stays: dict[str, set] = {}
    for e in page:
        stays.setdefault(e["for"], set()).add(e["stay_id"])
    settles = tuple(sorted({("booking", e["booking_id"]) for e in page
                            if e["booking_id"] and labels[e["for"]] == {e["booking_id"]}}
                           | {("stay", e["stay_id"]) for e in page
                              if e["stay_id"] and stays[e["for"]] == {e["stay_id"]}}))
    # a booking whose entries no other booking's share the label of (the same route and day)
    charged = [x for x in b["bookings"] + b["flown"] if _narrows(b, "booking_id", x["booking_id"])
               and all(labels[e["for"]] == {x["booking_id"]} for e in page if e["booking_id"] == x["booking_id"])]
    if charged and rng.random() < 0.6:
        booking = rng.choice(charged)
        said = booking_said(booking, rng) if booking in b["bookings"] else flown_said(booking, rng)
        pick = only("booking_id", booking["booking_id"])
        # the bookings list shows what a booking cost (its fare and fees), never what paid for it:
        # every wording asks the card too, which only the charges show
        return Ask({"traveller_id": tid},
                   say=rng.choice([f"What exactly have you charged me for {said}? Every charge, and what I paid "
                                   "it with, please.",
                                   f"Could you break down the charges on {said}, and what I paid for them with?",
                                   f"I'm doing my expenses: what did {said} cost me, charge by charge, and what did "
                                   "I pay with?"]),
                   terse=f"Charges on {said}, and paid with what?", refs=(_traveller(b),),
                   facts=lambda r: _charges_and_payers(pick(r)), settles=settles)
    used = [m for m in b["methods"] if _narrows(b, "payment_method_id", m["payment_method_id"])]
    if not used:
        return None
    m = rng.choice(used)
    said = method_said(m, rng)
    pick = only("payment_method_id", m["payment_method_id"])
    return Ask({"traveller_id": tid},
               say=rng.choice([f"What have you put through {said}? The amounts, newest first.",
                               f"Can you list the charges and refunds on {said}?",
                               f"I'm reconciling {said}: what did your agency charge or refund on it?"]),
               terse=f"Charges and refunds on {said}?", refs=(_traveller(b),),
               mentions=(method_mention(m),), facts=lambda r: [e["amount"] for e in pick(r)][:3],
               settles=settles)


@goals.add("get_exchange_rate", 0.5)
def get_exchange_rate(b: Bundle, rng: random.Random) -> Ask | None:
    currency = rng.choice(sorted(CURRENCY_WORDS))
    words = rng.choice(CURRENCY_WORDS[currency])
    return Ask({"currency": currency},
               # "US dollars", never bare "dollars": "convert Canadian dollars to dollars" names no currency
               say=rng.choice([f"What exchange rate do you use for {words}? How many US dollars to one?",
                               f"Some of your fares are in {words}, right? At what rate do you convert them to "
                               "US dollars?", f"How much is one unit of {words} in US dollars at your rate?"]),
               terse=f"Your rate for {words} in US dollars?", mentions=(words,),
               facts=lambda r: [r["usd_per_unit"]])


CABIN_WORDS = {"economy": "economy", "business": "business class", "first": "first class"}


@goals.add("change_cabin", 1.6)
def change_cabin(b: Bundle, rng: random.Random) -> Ask | None:
    mine = [x for x in b["bookings"] if x["role"] == "cabin" and x["flight_status"] == "scheduled"]
    if not mine:
        return None
    booking = rng.choice(mine)
    f, party = booking["flight"], booking["passengers"]
    targets = [c for c in ("economy", "business", "first") if c != booking["cabin"] and f[c] is not None
               and f[c]["seats_left"] >= party]
    if not targets:
        return None
    cabin = rng.choice(targets)
    rank = {"economy": 0, "business": 1, "first": 2}
    included = {"economy": 0, "business": 2, "first": 3}
    gold = 1 if b["traveller"]["loyalty_tier"] == "gold" else 0
    new_bags = max(0, booking["bags"] - included[cabin] * party - gold) * 35.0
    due = round(max(0.0, _price(f, cabin, booking["fare_type"], party) - booking["price_paid"])
                + max(0.0, new_bags - booking["bag_fees"]), 2)
    possible, method = _pays_later(b, booking, due, rng) if due else (True, None)
    if not possible:
        return None
    said, where = booking_said(booking, rng), CABIN_WORDS[cabin]
    args: dict[str, Any] = {"booking_id": booking["booking_id"], "cabin": cabin}
    refs, mentions, paid = [_booking(b, booking)], [cabin], ""
    if method is not None:
        args["payment_method_id"] = method["payment_method_id"]
        refs.append(_method(b, method))
        mentions.append(method_mention(method))
        paid = " " + rng.choice([f"Charge the difference to {method_said(method, rng)}.",
                                 f"Put it on {method_said(method, rng)}."])
    if rank[cabin] > rank[booking["cabin"]]:
        say = rng.choice([f"I'd like to upgrade {said} to {where}.", f"Please move me up to {where} on {said}.",
                          f"Can you upgrade {said} to {where}? I'll pay the difference."])
    else:
        say = rng.choice([f"Please downgrade {said} to {where} and refund me the difference.",
                          f"I don't need the upgrade after all: move {said} down to {where}.",
                          f"Can you change {said} to {where}? I want the fare difference back."])
    return Ask(args, say=say + paid, terse=f"{where.capitalize()} on {said}.{paid}", refs=tuple(refs),
               mentions=tuple(mentions))


@goals.add("quote_cancellation", 1.0)
def quote_cancellation(b: Bundle, rng: random.Random) -> Ask | None:
    mine = [x for x in b["bookings"] if x["role"] in ("other", "change", "cabin")]
    if not mine:
        return None
    booking = rng.choice(mine)
    said = booking_said(booking, rng)
    args: dict[str, Any] = {"booking_id": booking["booking_id"]}
    why = ""
    # a reason is told only where it changes the quote: an insured basic fare that is neither cancelled by the
    # airline nor booked in the last day (those refund in full whatever the reason, a flex fare its fare), so
    # a quote without the reason is never a wrong one
    covers = (booking["insurance"] and booking["fare_type"] != "flex" and booking["flight_status"] != "cancelled"
              and b["now"] - dt.datetime.fromisoformat(booking["booked_at"]) >= dt.timedelta(hours=24))
    if covers and rng.random() < 0.5:
        reason = rng.choice(["illness", "family_emergency"])
        args["reason"] = reason
        why = " " + rng.choice(REASON_WORDS[reason])
    return Ask(args, say=rng.choice([f"If I cancelled {said} now, how much would I get back?{why} Don't cancel yet.",
                                     f"Before I decide:{why} what refund would cancelling {said} give me?",
                                     f"What would I be refunded if I cancel {said}?{why} Just asking for now."]),
               terse=f"Refund if I cancel {said}?{why}", refs=(_booking(b, booking),),
               facts=_quoted_refund)


def _quoted_refund(r: Any) -> list[Any]:
    """What a cancellation would give back, read off the quote only: a booking's own `refund` (what was
    refunded so far, 0.0 on every live booking) is another thing under the same name, and the listing
    that found the booking does not answer the question. No refund is also said as getting none back."""
    return [r["refund"] or _NO_REFUND] if isinstance(r, dict) and "kept" in r else []


# -- goals: support cases ------------------------------------------------------------------------------

TOPIC_WORDS = {"name_correction": "name correction", "special_assistance": "special assistance",
               "refund": "refund", "schedule_change": "schedule change", "baggage": "baggage",
               "other": "general"}


def flown_said(booking: dict, rng: random.Random) -> str:
    when = day(_date(booking["departs_at"]))
    a, b = booking["origin"], booking["destination"]
    return rng.choice([f"my flight from {CITY[a]} to {CITY[b]} on {when}", f"my {a} to {b} flight on {when}",
                       f"the {when} flight I took to {CITY[b]}"])


def _free_topic(b: Bundle, topic: str, booking: dict | None) -> bool:
    """No case of the traveller on this topic and booking is still open (one would take a note instead)."""
    key = booking["booking_id"] if booking else None
    return not any(c["topic"] == topic and c["booking_id"] == key and c["stay_id"] is None and c["status"] != "closed"
                   for c in b["cases"])


@goals.add("open_support_case", 1.0)
def open_support_case(b: Bundle, rng: random.Random) -> Ask | None:
    tid = b["traveller"]["traveller_id"]
    options = []
    for booking in b["bookings"]:
        if booking["role"] in ("cancel", "change") or booking["flight_status"] == "cancelled":
            continue  # a case on a booking the same conversation cancels would be moot, and one the
            # conversation moves to another flight would be named by a day it no longer flies; one on a
            # flight the airline cancelled is moot too (its cancellation refunds it in full)
        options += [("name_correction", booking), ("special_assistance", booking), ("refund", booking)]
    options += [("baggage", booking) for booking in b["flown"]]
    options.append(("other", None))
    # a case is named by its topic ("my refund request"): a topic the traveller has a case of already
    # would give two of it, and a later request naming one by topic two readings
    had = {c["topic"] for c in b["cases"]}
    options = [(t, x) for t, x in options if t not in had and _free_topic(b, t, x)]
    if not options:
        return None
    topic, booking = rng.choice(options)
    args: dict[str, Any] = {"traveller_id": tid, "topic": topic}
    refs: list[Ref] = [_traveller(b)]
    if booking is not None:
        args["booking_id"] = booking["booking_id"]
        refs.append(_booking(b, booking))
    name = b["traveller"]["name"]
    said = flown_said(booking, rng) if topic == "baggage" else booking_said(booking, rng) if booking else ""
    if topic == "name_correction":
        wrong = name.split()[0][:-1] + " " + name.split()[-1]
        text = f"The name on the ticket reads {wrong}; it should be {name}, as on my passport."
        ask = rng.choice([f"My name is misspelled on {said}. Please open a name correction case",
                          f"My name was printed wrong on {said}; raise a name correction request"])
    elif topic == "special_assistance":
        need = rng.choice(["wheelchair assistance at both airports", "help boarding with my guide dog",
                           "an oxygen concentrator on board"])
        text = f"I need {need} on this flight."
        ask = rng.choice([f"I need special assistance on {said}. Please open a case with your team",
                          f"Please log a special assistance request for {said}"])
    elif topic == "refund":
        text = rng.choice(["I am asking for an exception to the fare rules and a refund of this booking.",
                           "My employer cancelled the event; please consider refunding this fare as an exception."])
        ask = rng.choice([f"I know the fare rules, but I'd like to ask for an exception on {said}. Open a "
                          "refund case", f"Please open a refund request with your team for {said}"])
    elif topic == "baggage":
        text = rng.choice(["My checked bag did not arrive at my destination.",
                           "My suitcase arrived with a broken wheel and a torn side."])
        ask = rng.choice([f"I have a problem with my luggage from {said}. Please open a baggage claim",
                          f"Please file a baggage case about {said}"])
    else:
        text = "Please send me an itemised invoice of my bookings for my expense report."
        ask = rng.choice(["Please open a general request with your team", "Please log a support request"])
    args["description"] = text
    joined = rng.choice([" saying: ", " with this description: ", ", in these words: "])
    return Ask(args, say=f'{ask}{joined}"{text}"', terse=f'{TOPIC_WORDS[topic].capitalize()} case'
               f'{" on " + said if said else ""}: "{text}"', refs=tuple(refs), mentions=(text,))


def _case_said(case: dict, b: Bundle, rng: random.Random) -> str:
    what = TOPIC_WORDS[case["topic"]]
    return rng.choice([f"my {what} request", f"the {what} case I opened", f"my {what} support case"])


def _namable_cases(b: Bundle, statuses: tuple[str, ...], role: str | None = None) -> list[dict]:
    """Cases a traveller can name by topic (the only one of its topic), with the role given (so that
    one conversation does not close a case and then write to it)."""
    topics = [c["topic"] for c in b["cases"]]
    return [c for c in b["cases"] if topics.count(c["topic"]) == 1 and c["status"] in statuses
            and role in (None, c["role"])]


# What the agency's replies (seed.AGENCY_REPLIES, seed.AGENCY_CLOSING) tell, in the words a faithful retelling
# of each keeps: "what did they say?" is answered by its gist as well as by a quote.
_REPLY_GIST = {
    # also 'passed your request on to the airline', 'forwarded the case to the airline', 'escalated it'
    "passed this to the airline": ("passed this to the airline", "passed it to the airline", "passed it on to the airline",
                                   "forwarded it to the airline", "forwarded this to the airline",
                                   "sent it to the airline", "referred it to the airline", "passed your request",
                                   "passed the request", "passed your case", "passed the case", "passed it on",
                                   "passed this on", "forwarded your request", "forwarded the request",
                                   "forwarded your case", "forwarded the case", "escalated"),
    "within two working days": ("two working days", "2 working days", "two business days", "2 business days",
                                "48 hours"),
    "passed this to the team concerned": ("passed this to the team", "passed it to the team", "passed it on to the team",
                                          "passed your request", "passed the request", "passed it on",
                                          "passed this on", "forwarded", "escalated"),
    "copy of your passport": ("passport",),
    "booking reference": ("booking reference",),
    "emailed you the details": ("emailed", "by email", "sent you the details", "sent the details",
                                "check your email", "in your email", "in your inbox"),
    "check your email": ("check your email", "emailed", "by email", "in your email", "in your inbox", "sent you"),
    "for your patience": ("settled", "resolved", "sorted", "taken care of", "it's done", "it is done"),
    "could not help": ("could not help", "couldn't help", "cannot help", "can't help", "unable to help", "declined",
                       "refused", "closing the case", "closed the case"),
    "you will see the change": ("see the change", "change on your booking", "has been done", "has been made",
                                "it's done", "it is done"),
    # 'the airline said yes, it's settled', 'the airline accepted it'
    "has agreed": ("agreed", "agrees", "approved", "granted", "accepted", "confirmed", "said yes", "settled"),
    "could not grant": ("could not grant", "couldn't grant", "cannot grant", "can't grant", "unable to grant",
                        "declined", "denied", "refused", "rejected", "turned down"),
}


def _reply_said(text: str) -> Any:
    """A support note as the answer may tell it: word for word, or by the gist of a known reply."""
    gist = next((words for key, words in _REPLY_GIST.items() if key in text), ())
    return one_of(text, *gist) if gist else text


@goals.add("list_support_cases", 0.7)
def list_support_cases(b: Bundle, rng: random.Random) -> Ask | None:
    cases = _namable_cases(b, ("open", "in_progress", "resolved", "closed"))
    if not cases:
        return None
    case = rng.choice(cases)
    cid, said = case["case_id"], _case_said(case, b, rng)
    if len(case["notes"]) > 1 and rng.random() < 0.4:
        return Ask({"traveller_id": b["traveller"]["traveller_id"]},
                   say=rng.choice([f"Has your team replied on {said}? What did they say?",
                                   f"What's the latest note on {said}?"]),
                   terse=f"Latest reply on {said}?", refs=(_traveller(b),),
                   facts=lambda r: [_reply_said(next(c["notes"][-1]["text"] for c in r if c["case_id"] == cid))])
    return Ask({"traveller_id": b["traveller"]["traveller_id"]},
               say=rng.choice([f"What's the status of {said}? And its reference number?",
                               f"Where are we with {said}? Please give me the reference too.",
                               f"Can you check on {said} and tell me its status and reference?"]),
               terse=f"Status and reference of {said}?", refs=(_traveller(b),),
               facts=lambda r: [next(c["status"] for c in r if c["case_id"] == cid), cid])


@goals.add("add_case_note", 1.1)
def add_case_note(b: Bundle, rng: random.Random) -> Ask | None:
    cases = _namable_cases(b, ("open", "in_progress", "resolved"), "note")
    if not cases:
        return None
    case = rng.choice(cases)
    note, said = rng.choice(NOTES), _case_said(case, b, rng)
    return Ask({"case_id": case["case_id"], "note": note},
               say=rng.choice([f"Please add this to {said}: \"{note}\"", f"Can you add a note to {said}? It should "
                               f"say: \"{note}\""]),
               terse=f"Note on {said}: \"{note}\"", refs=(_case(b, case),), mentions=(note,))


@goals.add("close_support_case", 0.8)
def close_support_case(b: Bundle, rng: random.Random) -> Ask | None:
    cases = _namable_cases(b, ("open", "in_progress", "resolved"), "close")
    if not cases:
        return None
    case = rng.choice(cases)
    said = _case_said(case, b, rng)
    return Ask({"case_id": case["case_id"]},
               say=rng.choice([f"I don't need {said} any more; please close it.",
                               f"You can close {said}; it's sorted.", f"Please withdraw {said}."]),
               terse=f"Close {said}.", refs=(_case(b, case),))


# No request is left to the hidden `count_bookings`: every count it gives, an assistant works out by
# listing the travellers and each one's bookings, so asking it of the agency is no abstention.

def _flight_args(ref: Ref) -> dict[str, Any]:
    f = ref.entity
    return {"origin": f["origin"], "destination": f["destination"], "date": f["departs_at"][:10]}


# Tools that do one another's job for some request (a flight's fares and seats show in the flight
# search, a hotel's rooms in the hotel search, a traveller's loyalty details in the traveller
# search): a missing-function task hides all of a group or none.
SUBSTITUTES = (
    # a card or voucher that has paid for something shows, with its id and label, in the transactions
    ("list_payment_methods", "list_transactions"),
    ("get_flight", "search_flights"),
    ("list_room_types", "search_hotels"),
    # with the stay's dates, the hotel search lists a room type only where it is free every night, at its
    # nightly price: "is it free, and what at the refundable rate?" is answered there (the non-refundable rate
    # is 15% less, as book_hotel says), so the availability check is never hidden while the search is shown
    ("check_room_availability", "search_hotels"),
    ("get_traveller", "find_travellers"),
    # a traveller's trips show through the bookings: each flight and stay names its itinerary, which
    # get_itinerary reads out by name (and a trip's total adds up from those listings once its id is known)
    ("list_itineraries", "get_itinerary"),
    # a traveller's flights and stays show in their trips (get_itinerary of each) and in the charges
    # (each fare and hotel charge names its flight or hotel and day)
    ("list_flight_bookings", "get_itinerary", "list_transactions"),
    ("list_hotel_bookings", "get_itinerary", "list_transactions"),
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
        # a room type named with its hotel shows in the city's hotel search (listing the hotel's room types
        # after it would tell nothing new)
        Lookup("room_type", "search_hotels", args=lambda r: {"city": r.owner.entity["city"]}, needs=lambda r: ()),
        *(Lookup.under(kind, tool) for kind, tool in (("itinerary", "list_itineraries"),
                                                      ("booking", "list_flight_bookings"),
                                                      ("stay", "list_hotel_bookings"),
                                                      ("payment_method", "list_payment_methods"),
                                                      ("case", "list_support_cases"))),
    ),
    skip={"find_travellers": "the look-up that opens every request; a traveller never asks for it alone"},
)
