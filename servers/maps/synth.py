"""How tasks are written for the map: people who introduce themselves by name when their saved
places or lists are involved, and otherwise name street addresses the way they are written
("41 Maple Street, Riverton"), places by their name ("Trattoria Rossi"), cities by name and
categories in everyday words ("a pharmacy", "somewhere to get coffee").

Each request comes in several phrasings (plain, polite, chatty, indirect, and terse ones for the
minimal level). A request that asks to be told something declares its facts: the values of the
serving call's result the answer must state (a duration in minutes, a distance in kilometers, a
place's name, a phone number)."""

from __future__ import annotations

import datetime as dt
import math
import random
from collections import Counter
from typing import Any

from prove_env.facts import one_of, quantity
from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import listing, stable

Bundle = dict[str, Any]

CATEGORY_WORDS = {"pharmacy": ("pharmacy", "pharmacies"), "cafe": ("café", "cafés"),
                  "restaurant": ("restaurant", "restaurants"), "supermarket": ("supermarket", "supermarkets"),
                  "gas_station": ("gas station", "gas stations"), "hospital": ("hospital", "hospitals"),
                  "bank": ("bank", "banks"), "museum": ("museum", "museums"), "park": ("park", "parks"),
                  "gym": ("gym", "gyms"), "bakery": ("bakery", "bakeries"), "bar": ("bar", "bars"),
                  "hotel": ("hotel", "hotels"), "library": ("library", "libraries")}
MODE_WORDS = {"driving": ("drive", "by car", ("I'll be driving.", "By car.", "I'm taking the car.", "Driving, please.",
                                               "I'll drive there.", "Assume I'm driving.")),
              "walking": ("walk", "on foot", ("I'll be walking.", "On foot.", "I'm going to walk.", "Walking, please.",
                                              "I'd walk it.", "Assume I'm on foot.")),
              "transit": ("take the bus", "by bus", ("I'll take the bus.", "By bus.", "I'm going by bus.",
                                                     "Public transit, please.", "I'd ride the bus.",
                                                     "Assume I'm taking transit."))}
# new lists take the first four names, renamed lists the others
NEW_LISTS = ("Tacos to try", "Sunday errands", "Kid-friendly spots", "Late-night eats", "Study spots",
             "Anniversary ideas", "Places for visitors", "Quick lunches")
# the places one search_places call lists when no limit is given
SEARCH_PAGE = 10
# the radius `nearby_places` searches when given none
NEARBY_RADIUS = 1000
# the kinds of place a list's name asks for: a hotel put on 'Coffee to try' or a pharmacy on
# 'Date night' is no request a person makes (a list not named here takes any place)
_FOOD = ("restaurant", "cafe", "bakery")
LIST_KINDS = {"Coffee to try": ("cafe", "bakery"), "Weekend brunch": _FOOD, "Work lunches": _FOOD,
              "Quick lunches": _FOOD, "Tacos to try": ("restaurant",), "Late-night eats": ("restaurant", "bar"),
              "Date night": (*_FOOD, "bar", "museum", "park"), "Study spots": ("cafe", "library", "bakery"),
              "Rainy day ideas": (*_FOOD, "museum", "library", "bar", "gym"),
              "Kid-friendly spots": (*_FOOD, "park", "museum", "library"),
              "Road trip stops": (*_FOOD, "gas_station", "supermarket", "museum", "park", "hotel"),
              "Anniversary ideas": (*_FOOD, "bar", "museum", "park", "hotel"),
              "Places for visitors": (*_FOOD, "bar", "museum", "park", "hotel", "library"),
              "Visiting parents": (*_FOOD, "bar", "museum", "park", "hotel", "library"),
              "Sunday errands": ("pharmacy", "supermarket", "bank", "bakery", "gas_station", "library")}
# kinds of place that are not called a business
NOT_BUSINESSES = ("park", "library", "museum", "hospital")
NEW_LABELS = ("Favorite", "To visit", "Meet-up spot", "Near the office", "Weekend plans", "Sam's pick")


# -- sampling ------------------------------------------------------------------------------------

def _meters(a: dict, b: dict) -> float:
    dy = (b["latitude"] - a["latitude"]) * 111_320.0
    dx = (b["longitude"] - a["longitude"]) * 111_320.0 * math.cos(math.radians((a["latitude"] + b["latitude"]) / 2))
    return math.hypot(dx, dy)


def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every person whose name finds only them, with their city's addresses and places (places
    only when their name is unique on the map), their saved places and lists."""
    cities = {c["city_id"]: c for c in read("list_cities")}
    addresses: dict[str, list[dict]] = {}
    places: dict[str, list[dict]] = {}
    for cid in cities:
        found = {}
        for word in ("street", "avenue", "boulevard"):
            for a in read("geocode", query=word, city_id=cid, limit=100):
                found[a["address_id"]] = a
        addresses[cid] = [found[k] for k in sorted(found)]
        places[cid] = read("search_places", city_id=cid, limit=100)
    names = Counter(p["name"] for ps in places.values() for p in ps)
    kinds = Counter(p["category"] for ps in places.values() for p in ps)  # the whole map's, closed ones too
    bundles = []
    for user in read("find_users", limit=100):
        if len(read("find_users", name=user["name"])) != 1:
            continue
        cid = user["home_city_id"]
        by_id = {a["address_id"]: a for a in addresses[cid]}
        unique = [{**p, "at": by_id[p["address_id"]]} for p in places[cid] if names[p["name"]] == 1]
        lists = [read("get_list", list_id=x["list_id"]) for x in read("list_lists", user_id=user["user_id"])]
        # one list the conversation may delete and another it may rename; other requests leave both alone
        ids = [x["list_id"] for x in lists]
        rng.shuffle(ids)
        bundles.append({"now": now, "user": user, "city": cities[cid], "addresses": addresses[cid],
                        "places": unique, "all_places": places[cid], "map_kinds": kinds,
                        "saved": read("list_saved_places", user_id=user["user_id"]), "lists": lists,
                        "doomed": ids[0] if ids else None, "renamed": ids[1] if len(ids) > 1 else None})
    return bundles


# -- how people name things ------------------------------------------------------------------------

def _user(b: Bundle) -> Ref:
    return Ref.of("user", b["user"])


def _open(b: Bundle) -> list[dict]:
    return [p for p in b["places"] if p["status"] == "operational"]


def _drivable(addresses: list[dict]) -> list[dict]:
    """Addresses a car reaches: none on Market Street, whose middle is a pedestrian mall."""
    return [a for a in addresses if "Market Street" not in a["label"]]


def _street(address: dict) -> str:
    return address["label"]


def _place_words(place: dict) -> str:
    return place["name"]


# -- goals: finding things ------------------------------------------------------------------------

goals = Goals()


@goals.add("list_cities", 0.3)
def list_cities(b: Bundle, rng: random.Random) -> Ask | None:
    say = rng.choice(["Which cities does the map cover, and which of them have bus service?",
                      "Can you tell me which cities you have maps for? I also want to know where buses run.",
                      "I'm curious which towns are on the map and which ones have public transit.",
                      "List all the cities you cover, please, and tell me which of them have buses."])
    return Ask({}, say=say, terse="Cities covered, and which have buses?",
               facts=lambda r: [c["name"] for c in r])


@goals.add("geocode", 0.6)
def geocode(b: Bundle, rng: random.Random) -> Ask | None:
    a = rng.choice(b["addresses"])
    label = a["label"]
    say = rng.choice([f"What are the GPS coordinates of {label}?",
                      f"Could you look up the latitude and longitude for {label}?",
                      f"I need to put {label} into a drone flight plan; what are its coordinates?",
                      f"Where exactly is {label}? Give me the latitude and longitude."])
    return Ask({"query": label}, say=say, terse=f"Coordinates of {label}?", mentions=(label,),
               facts=lambda r: [r[0]["latitude"], r[0]["longitude"]])


@goals.add("reverse_geocode", 0.6)
def reverse_geocode(b: Bundle, rng: random.Random) -> Ask | None:
    a = rng.choice(b["addresses"])
    lat, lon = round(a["latitude"] + rng.choice((-1, 1)) * 0.0001, 5), round(a["longitude"], 5)
    say = rng.choice([f"My phone says I'm at {lat}, {lon}. What's the street address here?",
                      f"What's the nearest street address to {lat}, {lon}?",
                      f"Someone sent me the pin {lat}, {lon}; which address is that?",
                      f"Could you turn the coordinates {lat}, {lon} into an address for me?"])
    return Ask({"latitude": lat, "longitude": lon}, say=say, terse=f"Address at {lat}, {lon}?",
               mentions=(str(lat), str(lon)), facts=lambda r: [r["label"].split(",")[0]])


@goals.add("search_places", 0.7)
def search_places(b: Bundle, rng: random.Random) -> Ask | None:
    counts = Counter(p["category"] for p in b["all_places"])
    category = rng.choice(sorted(c for c, n in counts.items() if 1 <= n <= 6))
    one, many = CATEGORY_WORDS[category]
    city = b["city"]["name"]
    # the city is always named with the request: "around here" after an address the user gave
    # reads as near that address, which is another search
    say = rng.choice([f"Which {many} are there in {city}?", f"Can you list the {many} in {city} for me?",
                      f"I just moved to {city}. What {many} does it have?",
                      f"Give me every {one} you know of in {city}, please."])
    # the places still open: one closed for good may be left out of a right answer
    cid = b["city"]["city_id"]
    if b["map_kinds"][category] < SEARCH_PAGE:
        # every place of the category on the map fits one page of the search, each with its city:
        # that one search answers it, where a look-up of the city's id would be a longer route (a
        # page filled to its limit may be cut off, which its reader cannot tell, so it must fall short)
        return Ask({"category": category}, say=say, terse=f"{many.capitalize()} in {city}?", mentions=(city,),
                   facts=lambda r: [p["name"] for p in r if p["status"] == "operational" and p["city_id"] == cid][:6])
    return Ask({"city_id": cid, "category": category}, say=say,
               terse=f"{many.capitalize()} in {city}?",
               refs=(Ref.of("city", b["city"]),), mentions=(city,),
               facts=lambda r: [p["name"] for p in r if p["status"] == "operational"][:6])


@goals.add("list_categories", 0.5)
def list_categories(b: Bundle, rng: random.Random) -> Ask | None:
    city = b["city"]["name"]
    say = rng.choice([f"What kinds of places are there in {city}, and how many of each?",
                      f"Give me a breakdown of {city}'s places by category.",
                      f"How many places of each type does the map have in {city}?"])
    return Ask({"city_id": b["city"]["city_id"]}, say=say, terse=f"Place counts by category in {city}?",
               refs=(Ref.of("city", b["city"]),), mentions=(city,),
               # every category's count: a full breakdown says them all, and a count left out of the
               # facts would read as a rival of a recorded one (a hotel count of 5 beside a fact of 3)
               facts=lambda r: [c["places"] for c in r])


def _place_question(b: Bundle, rng: random.Random, forms: list[str], terse: str, facts,
                    held: tuple[str, ...] = ()) -> Ask | None:
    places = _open(b)
    if not places:
        return None
    place = rng.choice(places)
    name = place["name"]
    say, detail = rng.choice(forms).format(name=name), None
    if held and rng.random() < 0.4:
        # a park, a library, a museum or a hospital is no business: "a business's phone number" is
        # asked only of a shop, a restaurant, a bank and the like
        fits = [h for h in held if "business" not in h or place["category"] not in NOT_BUSINESSES]
        say = rng.choice(fits)
        # the name said as a name: "It's Museum of Saffron History." wants an article a name
        # like "Trattoria Rossi" must not take
        detail = rng.choice([f"It's called {name}.", f"The place is called {name}.", f"Its name is {name}."])
    return Ask({"place_id": place["place_id"]}, say=say, detail=detail, terse=terse.format(name=name),
               refs=(Ref.of("place", place),), mentions=(name,), facts=facts)


@goals.add("get_place")
def get_place_phone(b: Bundle, rng: random.Random) -> Ask | None:
    return _place_question(b, rng, ["What's the phone number for {name}?", "Could you find me the number to call {name}?",
                                    "I need to ring {name}. What's their number?",
                                    "How do I reach {name} by phone?"],
                           "{name} phone number?", lambda r: [r["phone"]],
                           ("I need a phone number for a place.", "Can you look up a business's phone number for me?"))


@goals.add("get_place", 0.8)
def get_place_rating(b: Bundle, rng: random.Random) -> Ask | None:
    return _place_question(b, rng, ["How well rated is {name}, and from how many reviews?",
                                    "What rating does {name} have? How many people reviewed it?",
                                    "Is {name} any good? Tell me its star rating and review count."],
                           "{name} rating and review count?", lambda r: [r["rating"], r["review_count"]],
                           ("How well reviewed is a spot I'm considering? Rating and review count, please.",
                            "Can you check a place's star rating for me, with how many reviews it has?"))


@goals.add("get_place", 0.6)
def get_place_address(b: Bundle, rng: random.Random) -> Ask | None:
    # the search that finds a place by its name already shows its address: the phone number,
    # which only the place in full holds, is asked with it
    return _place_question(b, rng, ["Where is {name}, and what's its phone number? I need the street address.",
                                    "What's the address of {name}? Their phone number too, please.",
                                    "Can you tell me where {name} is located and how to call them?"],
                           "{name} address and phone?", lambda r: [r["address"].split(",")[0], r["phone"]],
                           ("I need the street address and phone number of a place.",
                            "Could you look up where a business is located, and its phone number?"))


def _nearby_filters(b: Bundle, rng: random.Random) -> tuple[dict, str, dict, bool] | None:
    """An address, a category and the filters of a nearby search drawn around them, with whether
    every filter drawn changes what the search finds. Each filter the request states must: the gates
    drop a filter that changes nothing from the gold, which would then search the default kilometre
    where the user said 2 km, or every gym where the user wanted one open now; a filter that would
    change nothing is left unsaid (the radius then said as the default 1 km)."""
    center = rng.choice(b["addresses"])
    category = rng.choice(sorted(CATEGORY_WORDS))
    radius = rng.choice((500, 1000, 1000, 2000))
    open_now = rng.random() < 0.6
    min_rating = rng.choice((None, None, 4.0))
    priced = category in ("restaurant", "cafe", "bar", "bakery", "hotel", "gym")
    max_price = rng.choice((None, None, 2)) if min_rating is None and priced else None
    stated = {"radius_m": radius, "open_now": open_now, "min_rating": min_rating, "max_price_level": max_price}
    unset = {"radius_m": NEARBY_RADIUS, "open_now": False, "min_rating": None, "max_price_level": None}
    kept = True
    while True:
        found = _nearby(b, center, category=category, **stated)
        idle = next((k for k in stated if stated[k] != unset[k]
                     and _nearby(b, center, category=category, **{**stated, k: unset[k]}) == found), None)
        if idle is None:
            break
        stated[idle], kept = unset[idle], False
    if not found or _nearby(b, center, category=None, **stated) == found:
        return None  # nothing found, or the category changes nothing (the gold would drop it)
    # no place of the category lies about on a radius the request or the default draws: a metre of
    # rounding would decide whether it is found
    by_id = {a["address_id"]: a for a in b["addresses"]}
    if any(abs(_meters(center, by_id[p["address_id"]]) - r) < 15 for p in b["all_places"]
           if p["category"] == category and p["status"] == "operational"
           for r in {stated["radius_m"], NEARBY_RADIUS}):
        return None
    return center, category, stated, kept


@goals.add("nearby_places", 2.0)
def nearby_places(b: Bundle, rng: random.Random) -> Ask | None:
    # a few draws, the first whose every filter matters taken (or else the first that works with
    # fewer): most places are open and most searches find the same within 1 km as within 2
    draws = [d for d in (_nearby_filters(b, rng) for _ in range(6)) if d is not None]
    if not draws:
        return None
    center, category, stated, _ = next((d for d in draws if d[3]), draws[0])
    one, many = CATEGORY_WORDS[category]
    radius, open_now, min_rating, max_price = (stated["radius_m"], stated["open_now"], stated["min_rating"],
                                               stated["max_price_level"])
    label = center["label"]
    distance = "half a kilometer" if radius == 500 else f"{radius // 1000} km"
    quality = " rated 4 stars or better" if min_rating else (" priced at $$ or less" if max_price else "")
    # "open right now" is a sentence of its own: inside the noun phrase it would stand between the
    # place and the address ("the nearest gas station that's open right now to 574 Birch Street")
    when = " I need one that's open right now." if open_now else ""
    far = rng.random() < 0.5  # and how far it is
    # a nearest place at the address itself is no distance to ask for: "How far is the nearest
    # bakery?" of the bakery's own address is rightly answered "it's right at your address", not "0 m"
    by_id = {a["address_id"]: a for a in b["addresses"]}
    places = {p["place_id"]: p for p in b["all_places"]}
    nearest = places[_nearby(b, center, category=category, **stated)[0]]
    if round(_meters(center, by_id[nearest["address_id"]])) < 50:
        far = False
    # the radius is said with the request, never held back: a search has a default radius an
    # assistant may rightly use
    if far:
        say = rng.choice([f"What's the closest {one}{quality} to {label}, and how far away is it?",
                          f"Find me the nearest {one}{quality} to {label}, and tell me how far it is.",
                          f"I'm at {label}. How far is the nearest {one}{quality}?"])
    else:
        say = rng.choice([f"Find me the nearest {one}{quality} to {label}.",
                          f"I'm at {label}. Which {one}{quality} is closest?",
                          f"Could you check which {one}{quality} is nearest to {label}?"])
    say = f"{say}{when} " + rng.choice([f"Within {distance}, please.", f"No more than {distance} away.",
                                        f"It has to be within {distance}."])
    args = {"address_id": center["address_id"], "radius_m": radius, "category": category}
    if open_now:
        args["open_now"] = True
    if min_rating:
        args["min_rating"] = min_rating
    if max_price:
        args["max_price_level"] = max_price
    mentions = (label, distance) + (("4 stars",) if min_rating else ()) + (("$$",) if max_price else ())
    return Ask(args, say=say, terse=f"Nearest {'open ' if open_now else ''}{one}{quality} within {distance} of {label}"
               + (", and how far?" if far else "?"),
               refs=(Ref.of("address", center),), mentions=mentions,
               facts=(lambda r: [r[0]["name"], quantity(r[0]["distance_m"], "m")]) if far else (lambda r: [r[0]["name"]]))


def _nearby(b: Bundle, center: dict, *, radius_m: int, category: str | None, open_now: bool,
            min_rating: float | None, max_price_level: int | None) -> list[str]:
    """The places `nearby_places` lists around `center` with these filters, as the tool finds
    them: operating places of the city within the radius, nearest first (ties by name), one page."""
    by_id = {a["address_id"]: a for a in b["addresses"]}
    rows = []
    for p in b["all_places"]:
        if p["status"] != "operational" or (category is not None and p["category"] != category) \
                or (open_now and not p["open_now"]) or (min_rating is not None and p["rating"] < min_rating) \
                or (max_price_level is not None and len(p["price_level"]) > max_price_level):
            continue
        distance = round(_meters(center, by_id[p["address_id"]]))
        if distance <= radius_m:
            rows.append((distance, p["name"], p["place_id"]))
    return [place_id for _, _, place_id in sorted(rows)[:SEARCH_PAGE]]


# -- goals: getting somewhere ---------------------------------------------------------------------

def _mode(b: Bundle, rng: random.Random) -> str:
    modes = ["driving", "walking"] + (["transit"] if b["city"]["has_transit"] else [])
    return rng.choice(modes)


@goals.add("get_route", 1.5)
def route_between_addresses(b: Bundle, rng: random.Random) -> Ask | None:
    mode = _mode(b, rng)
    pool = _drivable(b["addresses"]) if mode == "driving" else b["addresses"]
    start, end = rng.sample(pool, 2)
    verb, manner, details = MODE_WORDS[mode]
    detail = rng.choice(details)
    a, z = start["label"], end["label"]
    if rng.random() < 0.7:  # the time and the distance
        say = rng.choice([f"How long does it take to get from {a} to {z}, and how far is it?",
                          f"Quick one: what's the travel time from {a} over to {z}? Distance too, please.",
                          f"Could you work out the route from {a} to {z} and tell me how long it takes and how "
                          f"far it is?"])
        terse, facts = f"{a} to {z} {manner}: time and distance?", _time_and_distance
    else:  # the time alone
        say = rng.choice([f"I need directions from {a} to {z}. How many minutes will it take?",
                          f"How long will it take me to get from {a} to {z}?"])
        terse, facts = f"{a} to {z} {manner}: how long?", _time
    if "please" in say and "please" in detail:  # not 'Distance too, please. Driving, please.'
        detail = next(d for d in details if "please" not in d)
    # the mode is said with the request, never held back: a route is by car unless told
    return Ask({"from_address_id": start["address_id"], "to_address_id": end["address_id"], "mode": mode},
               say=f"{say} {detail}", terse=terse,
               refs=(Ref.of("address", start), Ref.of("address", end)), mentions=(a, z), facts=facts)


def _time(route: dict) -> list[Any]:
    return [quantity(route["duration_min"], "min")]


def _time_and_distance(route: dict) -> list[Any]:
    # the distance in the route's metres or in its own km field: 0.6 km (one significant digit) is what
    # the route says of 552 m, and a reader who repeats it answers right
    return [quantity(route["duration_min"], "min"),
            one_of(quantity(route["distance_m"], "m"), quantity(route["distance_km"], "km", places=1))]


@goals.add("get_route", 1.5)
def route_to_place(b: Bundle, rng: random.Random) -> Ask | None:
    mode = _mode(b, rng)
    places = [p for p in _open(b) if mode != "driving" or "Market Street" not in p["address"]]
    pool = _drivable(b["addresses"]) if mode == "driving" else b["addresses"]
    if not places:
        return None
    place = rng.choice(places)
    start = rng.choice([a for a in pool if a["address_id"] != place["address_id"]])
    verb, manner, details = MODE_WORDS[mode]
    detail = rng.choice(details)
    a, name = start["label"], place["name"]
    say = rng.choice([f"How long would it take me to {verb} from {a} to {name}?",
                      f"I'm at {a} and want to {verb} to {name}. How many minutes is that?",
                      f"Can you time the trip from {a} to {name} {manner} for me?",
                      f"What's the travel time {manner} from {a} to {name}?"])
    plain = rng.choice([f"How long would it take me to get from {a} to {name}?",
                        f"I'm at {a} and need to get to {name}. How many minutes is that?",
                        f"Can you time the trip from {a} to {name} for me?"])
    held = rng.random() < 0.5
    return Ask({"from_address_id": start["address_id"], "to_address_id": place["address_id"], "mode": mode},
               say=f"{plain} {detail}" if held else say, terse=f"{a} to {name} {manner}: how long?",
               refs=(Ref.of("address", start), Ref.of("place", place)), mentions=(a, name), facts=_time)


@goals.add("distance_matrix", 1.2)
def distance_matrix(b: Bundle, rng: random.Random) -> Ask | None:
    mode = _mode(b, rng)
    places = [p for p in _open(b) if mode != "driving" or "Market Street" not in p["address"]]
    pool = _drivable(b["addresses"]) if mode == "driving" else b["addresses"]
    if len(places) < 3:
        return None
    targets = rng.sample(places, rng.choice((2, 3)))
    start = rng.choice([a for a in pool if all(a["address_id"] != p["address_id"] for p in targets)])
    verb, manner, details = MODE_WORDS[mode]
    detail = rng.choice(details)
    said = [p["name"] for p in targets]
    names, either = listing(said), ", ".join(said[:-1]) + " or " + said[-1]  # 'A, B or C': a choice among them
    a = start["label"]
    quickest = f"Which is quickest to reach from {a}: {either}? Give me the minutes for each."
    say = rng.choice([f"From {a}, how long would it take to get to each of {names}?",
                      f"I'm staying at {a}. Compare the travel times to {names} for me.", quickest])

    def times(r: list[dict]) -> list:
        # "which is quickest" presumes one: two places tied at the shortest time leave the draft
        durations = sorted(c["duration_min"] for c in r)
        if say == quickest and durations[:2].count(durations[0]) > 1:
            raise ValueError("the quickest is a tie")
        return [quantity(c["duration_min"], "min") for c in r]

    return Ask({"from_address_ids": [start["address_id"]], "to_address_ids": [p["address_id"] for p in targets],
                "mode": mode}, say=f"{say} {detail}", terse=f"Travel times {manner} from {a} to {names}?",
               refs=(Ref.of("address", start), *(Ref.of("place", p) for p in targets)),
               mentions=(a, *(p["name"] for p in targets)), facts=times)


# -- goals: saved places and lists ----------------------------------------------------------------

@goals.add("list_saved_places", 0.6)
def list_saved_places(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["saved"]:
        return None
    say = rng.choice(["Which places have I saved?", "Can you remind me what's in my saved places?",
                      "What do I have saved on my map?", "Show me my saved places, please."])
    return Ask({"user_id": b["user"]["user_id"]}, say=say, terse="My saved places?", refs=(_user(b),),
               facts=lambda r: [p["name"] for p in r])


@goals.add("save_place", 1.2)
def save_place(b: Bundle, rng: random.Random) -> Ask | None:
    saved = {p["place_id"] for p in b["saved"]}
    places = [p for p in _open(b) if p["place_id"] not in saved]
    if not places:
        return None
    place = rng.choice(places)
    name = place["name"]
    labels = {(p["label"] or "").lower() for p in b["saved"]}
    label = rng.choice([x for x in NEW_LABELS if x.lower() not in labels])
    args = {"user_id": b["user"]["user_id"], "place_id": place["place_id"]}
    if rng.random() < 0.5:
        return Ask(args, say=rng.choice([f"Please save {name} to my places.", f"Can you add {name} to my saved places?",
                                         f"I love {name}; save it for me."]),
                   terse=f"Save {name}.", refs=(_user(b), Ref.of("place", place)), mentions=(name,))
    # the label is said with the request, never held back: a place is saved without one unless told
    return Ask({**args, "label": label}, say=rng.choice([f"Save {name} for me, would you?",
                                                          f"Could you add {name} to my saved places?"])
               + " " + rng.choice([f"Label it '{label}'.", f"Call it '{label}'."]),
               terse=f"Save {name} as '{label}'.", refs=(_user(b), Ref.of("place", place)), mentions=(name, label))


@goals.add("remove_saved_place", 0.8)
def remove_saved_place(b: Bundle, rng: random.Random) -> Ask | None:
    names = Counter(p["name"] for p in b["saved"])
    saved = [p for p in b["saved"] if names[p["name"]] == 1]
    if not saved:
        return None
    entry = rng.choice(saved)
    name = entry["name"]
    say = rng.choice([f"Take {name} out of my saved places.", f"I don't need {name} saved anymore; remove it.",
                      f"Please unsave {name}."])
    return Ask({"saved_place_id": entry["saved_place_id"]}, say=say, terse=f"Unsave {name}.",
               refs=(Ref.of("saved_place", entry, _user(b)),), mentions=(name,))


def _lists(b: Bundle) -> list[dict]:
    """The lists requests other than deleting or renaming one may use."""
    return [x for x in b["lists"] if x["list_id"] not in (b["doomed"], b["renamed"])]


def _list_ref(b: Bundle, lst: dict) -> Ref:
    return Ref.of("list", lst, _user(b))


@goals.add("list_lists", 0.5)
def list_lists(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["lists"]:
        return None
    say = rng.choice(["What lists have I made?", "Which place lists do I have?",
                      "Remind me what lists I've got on my map."])
    return Ask({"user_id": b["user"]["user_id"]}, say=say, terse="My lists?", refs=(_user(b),),
               facts=lambda r: [x["name"] for x in r])


@goals.add("get_list")
def get_list(b: Bundle, rng: random.Random) -> Ask | None:
    lists = [x for x in _lists(b) if x["places"]]
    if not lists:
        return None
    lst = rng.choice(lists)
    name = lst["name"]
    say = rng.choice([f"What's on my '{name}' list?", f"Read me the places on my '{name}' list.",
                      f"Which spots did I put on my '{name}' list again?"])
    return Ask({"list_id": lst["list_id"]}, say=say, terse=f"Places on list '{name}'?", refs=(_list_ref(b, lst),),
               mentions=(name,), facts=lambda r: [p["name"] for p in r["places"]])


@goals.add("create_list")
def create_list(b: Bundle, rng: random.Random) -> Ask | None:
    taken = {x["name"].lower() for x in b["lists"]}
    name = rng.choice([n for n in NEW_LISTS[:4] if n.lower() not in taken])
    return Ask({"user_id": b["user"]["user_id"], "name": name},
               say=rng.choice(["Start a new list of places for me.", "I'd like a new list on my map.",
                               "Can you set up a fresh list for me?"]),
               terse=f"New list '{name}'.", detail=rng.choice([f"Call it '{name}'.", f"Name it '{name}'.", f"'{name}' would be a good name.",
                                  f"The name should be '{name}'.", f"Let's go with '{name}' as the name.",
                                  f"I'm thinking '{name}'."]),
               refs=(_user(b),), mentions=(name,))


@goals.add("rename_list", 0.8)
def rename_list(b: Bundle, rng: random.Random) -> Ask | None:
    lst = next((x for x in b["lists"] if x["list_id"] == b["renamed"]), None)
    if lst is None:
        return None
    taken = {x["name"].lower() for x in b["lists"]}
    new = rng.choice([n for n in NEW_LISTS[4:] if n.lower() not in taken])
    return Ask({"list_id": lst["list_id"], "name": new},
               say=rng.choice([f"Rename my '{lst['name']}' list.", f"I want to change the name of my '{lst['name']}' list."]),
               terse=f"Rename list '{lst['name']}' to '{new}'.", detail=rng.choice([f"Make it '{new}'.", f"The new name is '{new}'."]),
               refs=(_list_ref(b, lst),), mentions=(lst["name"], new))


@goals.add("add_to_list", 1.5)
def add_to_list(b: Bundle, rng: random.Random) -> Ask | None:
    if not _lists(b):
        return None
    lst = rng.choice(_lists(b))
    on = {p["place_id"] for p in lst["places"]}
    kinds = LIST_KINDS.get(lst["name"])
    places = [p for p in _open(b) if p["place_id"] not in on and (kinds is None or p["category"] in kinds)]
    if not places or len(on) >= 25:
        return None
    place = rng.choice(places)
    name = place["name"]
    say = rng.choice([f"Add {name} to my '{lst['name']}' list.", f"Could you put {name} on my '{lst['name']}' list?",
                      f"{name} looks great; stick it on my '{lst['name']}' list."])
    return Ask({"list_id": lst["list_id"], "place_id": place["place_id"]}, say=say,
               terse=f"Add {name} to list '{lst['name']}'.", refs=(_list_ref(b, lst), Ref.of("place", place)),
               mentions=(name, lst["name"]))


@goals.add("remove_from_list")
def remove_from_list(b: Bundle, rng: random.Random) -> Ask | None:
    unique = {p["place_id"] for p in b["places"]}
    pairs = [(x, p) for x in _lists(b) for p in x["places"] if p["place_id"] in unique]
    if not pairs:
        return None
    lst, place = rng.choice(pairs)
    name = place["name"]
    say = rng.choice([f"Take {name} off my '{lst['name']}' list.", f"Please remove {name} from my '{lst['name']}' list.",
                      f"I went to {name} and didn't like it, so drop it from my '{lst['name']}' list."])
    return Ask({"list_id": lst["list_id"], "place_id": place["place_id"]}, say=say,
               terse=f"Remove {name} from list '{lst['name']}'.", refs=(_list_ref(b, lst), Ref.of("place", place)),
               mentions=(name, lst["name"]))


@goals.add("delete_list", 0.7)
def delete_list(b: Bundle, rng: random.Random) -> Ask | None:
    lst = next((x for x in b["lists"] if x["list_id"] == b["doomed"]), None)
    if lst is None:
        return None
    say = rng.choice([f"Delete my '{lst['name']}' list.", f"I'm done with the '{lst['name']}' list; please delete it.",
                      f"Get rid of my '{lst['name']}' list entirely."])
    return Ask({"list_id": lst["list_id"]}, say=say, terse=f"Delete list '{lst['name']}'.", refs=(_list_ref(b, lst),),
               mentions=(lst["name"],))


# -- introductions and hidden requests ------------------------------------------------------------

_BY_NAME = ("Hi, this is {name}.", "Hello, it's {name} here.", "Hey there, {name} speaking.", "My name is {name}.",
            "Hi! {name} here.", "Good morning, this is {name}.", "This is {name}.")
# never the bare name: "Richard Berry. New list 'Tacos to try'." reads as a signature, not an opener
_BY_NAME_TERSE = ("{name} here.", "It's {name}.", "I'm {name}.")


def _by_name(ref: Ref) -> tuple[str, str]:
    name = ref.entity["name"]
    return (stable(_BY_NAME, "name", ref.key, name).format(name=name),
            stable(_BY_NAME_TERSE, "terse", ref.key, name).format(name=name))


def network_request(b: Bundle, rng: random.Random) -> str | None:
    city = b["city"]["name"]
    return rng.choice([f"How many intersections and road segments does {city}'s street network have in total?",
                       f"Give me the internal stats of the {city} road graph: node and segment counts.",
                       f"For a school project, how many street intersections are mapped in {city}?"])


# Tools that do one another's job for some request (a distance matrix of one pair times a trip as
# a route does; a place shows in its search): a missing-function task hides all of a group or
# none.
SUBSTITUTES = (
    ("get_route", "distance_matrix"),
    ("get_place", "search_places", "nearby_places"),
)


recipe = Recipe(
    server="maps",
    sample=sample,
    topics=("maps", "travel", "stores"),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("user", "find_users", args=lambda r: {"name": r.entity["name"]}, intro=_by_name),
        Lookup("city", "list_cities", args=lambda r: {"name": r.entity["name"]}),
        Lookup("address", "geocode", args=lambda r: {"query": r.entity["label"]}),
        Lookup("place", "search_places", args=lambda r: {"query": r.entity["name"]}),
        Lookup.under("saved_place", "list_saved_places"),
        Lookup.under("list", "list_lists"),
    ),
    hidden=(HiddenAsk("network_stats", network_request,
                      facts=lambda r: [n for city in r.values() for n in (city["nodes"], city["segments"])]),),
)
