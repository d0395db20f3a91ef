"""How tasks are written for the connected car: owners who introduce themselves by name or email, name their
vehicles the way people do ("my Model 3", "the white F-150", "Rocket") and places by name and city, by street
address, or by the label they saved them under ("Home", "Work").

A car is a state machine, so requests in one conversation must not undo what another one needs. The sampler
gives every vehicle of a bundle one story (`plan`):
- "active": the car is being used; its ignition only goes up (off -> accessory -> on, the brake pressed to
  start), it may be shifted into D, its parking brake released and driven, with cruise control; its climate,
  windows, lights, media, drive mode, display units and route change. A request that needs more power than the
  car has asks for it first ("turn the car on and ...").
- "park": the car is being parked; it is brought to a stop in P first when it moves, then its trunk, charge port,
  charging, brakes and locks change, and its ignition may be switched off.
- "fuel": a gasoline car at the pump: it is stopped and switched off, refuelled, and may set off again on a route.
Read-only requests (status, climate, tyres, routes, places, distances) go with any, and declare the facts their
answer must state; readings are in each car's display units, and so are the words of a request about them."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from dataclasses import replace
from typing import Any

from prove_env.facts import one_of, quantity
from prove_env.synthesis.wording import stable
from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref

Bundle = dict[str, Any]

HEAT_WORDS = {"driver_seat": "my seat", "passenger_seat": "the passenger seat", "rear_seats": "the rear seats",
              "steering_wheel": "the steering wheel"}
LEVEL_WORDS = {0: "off", 1: "low", 2: "medium", 3: "high"}
CATEGORY_WORDS = {"charging_station": ("charging station", "charging stations", "a charger"),
                  "fuel_station": ("gas station", "gas stations", "somewhere to fill up"),
                  "cafe": ("coffee shop", "coffee shops", "a coffee place"),
                  "restaurant": ("restaurant", "restaurants", "somewhere to eat"),
                  "grocery": ("grocery store", "grocery stores", "a supermarket"),
                  "hospital": ("hospital", "hospitals", "a hospital"),
                  "hotel": ("hotel", "hotels", "a place to stay"),
                  "park": ("park", "parks", "a park"),
                  "tyre_shop": ("tyre shop", "tyre shops", "somewhere to get my tyres seen to")}
# labels people give a saved place, by its category
NEW_LABELS = {"cafe": ("Coffee", "Morning coffee"), "restaurant": ("Favorite diner", "Lunch spot", "Date night"),
              "grocery": ("Groceries", "Supermarket"), "hospital": ("Doctor", "Clinic"), "gym": ("Gym", "Workout"),
              "school": ("Kids' school", "School"), "hotel": ("Hotel", "Weekend getaway"),
              "park": ("Park", "Dog park"), "shopping": ("Shopping", "Work"), "airport": ("Airport", "Flights"),
              "charging_station": ("Charger", "Fast charger"), "fuel_station": ("Gas", "Fill-up")}
SEARCH_CITIES = ("San Francisco", "Oakland", "San Jose", "Sacramento", "Fresno", "Los Angeles", "San Diego",
                 "Santa Barbara", "Monterey", "Napa", "Bakersfield", "Pasadena", "Irvine", "Berkeley")
MIN_ROUTE_RANGE = 60  # routes are asked of cars with enough range to reach a first charger or pump
MIN_FAR_RANGE = 100  # and trips to far cities of cars that reach a highway charger or pump from anywhere
FAR_CITIES = ("Los Angeles", "San Diego", "Santa Barbara", "Lake Tahoe", "Sacramento", "Fresno", "San Francisco")
KM_PER_MILE = 1.609344
# what a display in each unit system calls its units
UNIT_WORDS = {"imperial": {"speed": "mph", "distance": "miles", "fuel": "gallons", "step": 5},
              "metric": {"speed": "km/h", "distance": "km", "fuel": "litres", "step": 5}}
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


# -- sampling ---------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every owner whose name finds only them, with their vehicles (full status and climate, each with its
    story), saved places, and places that a name and city (or an address) find alone."""
    places: dict[str, list[dict]] = {}
    for city in SEARCH_CITIES + ("Lake Tahoe",):
        found = read("search_places", city=city, limit=100)
        places[city] = [{**p, "address_unique": len(read("search_places", query=p["address"], city=city)) == 1,
                         # what the name or the address finds without the city (see `_place_args`)
                         "alone": {by: len(read("search_places", query=p[by])) == 1 for by in ("name", "address")}}
                        for p in found if p["category"] != "residence"
                        and len(read("search_places", query=p["name"], city=city)) == 1]
    far = [p for c in FAR_CITIES for p in places.get(c, []) if p["category"] in ("hotel", "airport", "park")]
    bundles = []
    for owner in read("find_owners", limit=100):
        if len(read("find_owners", name=owner["name"])) != 1:
            continue
        vehicles = []
        for summary in read("list_vehicles", owner_id=owner["owner_id"]):
            status = read("get_vehicle_status", vehicle_id=summary["vehicle_id"])
            climate = read("get_climate", vehicle_id=summary["vehicle_id"])
            # a car already running is mostly being driven on; one switched off as often parked as started
            plan = "active" if rng.random() < (0.5 if status["ignition"] == "off" else 0.8) else "park"
            if status["powertrain"] == "gasoline" and status["fuel_percent"] < 90 \
                    and rng.random() < (0.6 if plan == "park" else 0.2):
                plan = "fuel"
            tyres = read("get_tyre_pressures", vehicle_id=summary["vehicle_id"])
            vehicles.append({**status, "climate": climate, "plan": plan, "low_tyres": tyres["low"],
                             **_imperial(status, climate)})
        if not vehicles:
            continue
        saved = read("list_saved_places", owner_id=owner["owner_id"])
        nearby = [p for p in places.get(owner["city"], [])]
        # how many cars the owner has, for the words they introduce themselves with ("my cars")
        bundles.append({"now": now, "owner": {**owner, "cars": len(vehicles)}, "vehicles": vehicles,
                        "saved": saved, "nearby": nearby,
                        "far": far, "cities": places})
    return bundles


def _imperial(status: dict, climate: dict) -> dict:
    """A car's speed, range and temperatures in imperial units whatever its display shows, to choose requests
    by (`mph`, `miles`, `target_f`, `outside_f`)."""
    def back(key: str, factor: float) -> int:
        return status[f"{key}_mph"] if f"{key}_mph" in status else round(status[f"{key}_kmh"] / factor)
    miles = status["range_miles"] if "range_miles" in status else round(status["range_km"] / KM_PER_MILE)
    temps = {k: climate[f"{k}_temp_f"] if f"{k}_temp_f" in climate else round(climate[f"{k}_temp_c"] * 9 / 5 + 32)
             for k in ("target", "outside")}
    return {"mph": back("speed", KM_PER_MILE), "miles": miles, "target_f": temps["target"],
            "outside_f": temps["outside"]}


FACT_UNITS = {"mph": "mph", "kmh": "km/h", "miles": "mi", "km": "km", "f": "F", "c": "C", "psi": "psi", "kpa": "kPa",
              "gallons": "gal", "litres": "L"}


def reading(result: dict, stem: str) -> Any:
    """A reading of a result in whichever unit the display gave it ('range' is range_miles or range_km),
    as a fact with its unit, stated in any unit of its kind (readings by name, such as the tyres', each so)."""
    for unit, said in FACT_UNITS.items():
        if f"{stem}_{unit}" in result:
            value = result[f"{stem}_{unit}"]
            if value is None:
                return None
            if isinstance(value, dict):
                return {name: quantity(v, said) for name, v in value.items()}
            return quantity(value, said)
    raise KeyError(f"no {stem} reading in {sorted(result)}")


def _level(percent: int) -> Any:
    """A battery or fuel level as a fact: an empty one is said as people say it ('the tank is empty'),
    and so is not only a zero, which the list of the owner's cars shows of the same car as well."""
    return percent if percent else one_of(0, "empty")


def _speed(result: dict) -> Any:
    """A car's speed as a fact: a standing car's is said as people say it ('0 mph', 'not moving')."""
    speed = reading(result, "speed")
    return speed if speed["quantity"] else one_of(speed, "not moving", "stationary", "standing still", "stopped")


# How people say a car's state words: the raw word of the result first, then what a driver says
# instead ('the parking brake is on', 'it's in park', 'the pedal isn't pressed').
_STATE_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "parking_brake": {"engaged": ("engaged", "applied", "brake is on", "brake's on", "brake is set",
                                  "brake's set", "brake on", "brake set"),
                      "released": ("released", "disengaged", "not engaged", "isn't engaged", "not set",
                                   "isn't set", "not on", "isn't on", "brake is off", "brake's off", "brake off")},
    "brake_pedal": {"pressed": ("pressed", "depressed", "pedal is down", "pedal's down", "held down"),
                    "released": ("released", "not pressed", "isn't pressed", "not being pressed",
                                 "isn't being pressed", "not depressed", "pedal is up", "pedal's up")},
    "gear": {"P": ("P", "park", "parked"), "D": ("D", "drive"), "R": ("R", "reverse"), "N": ("N", "neutral")},
    "ignition": {"on": ("on", "running"), "off": ("off", "not running", "switched off", "turned off")},
}


def _state(result: dict, field: str) -> Any:
    """A state word of a car as a fact, said the way the result says it or the way a driver would."""
    value = result[field]
    words = _STATE_WORDS.get(field, {}).get(value)
    if not words:
        return value
    return one_of(*dict.fromkeys(w2 for w in words for w2 in (w, w.replace("'", "\u2019"))))


def units(v: dict) -> dict[str, Any]:
    return UNIT_WORDS[v["display_units"]]


# -- how people name things ---------------------------------------------------------------------------

def _owner(b: Bundle) -> Ref:
    return Ref.of("owner", b["owner"])


def _ref(b: Bundle, v: dict) -> Ref:
    return Ref.of("vehicle", v, _owner(b))


def car(b: Bundle, v: dict, rng: random.Random | None = None) -> str:
    """'my Model 3', 'the white F-150', 'my Tesla' (when the make is the owner's only one), or its nickname."""
    forms = _forms(b, v)
    return forms[0] if rng is None else rng.choice(forms)


def _forms(b: Bundle, v: dict) -> list[str]:
    # the colour tells a car from the owner's others: an owner of one car who said "my Ioniq 5" and then "the
    # silver Ioniq 5" seems to have a second one
    forms = [f"my {v['model']}", f"my {v['model']}", f"my {v['make']} {v['model']}"]
    if len(b["vehicles"]) > 1:
        forms.insert(2, f"the {v['color']} {v['model']}")
    if sum(x["make"] == v["make"] for x in b["vehicles"]) == 1:
        forms.append(f"my {v['make']}")
    if v["nickname"]:
        forms.append(f"{v['nickname']} (my {v['model']})")
    return forms


def _place_ref(place: dict, by: str = "name") -> Ref:
    return Ref.of("place", {**place, "said_by": by})


def place_words(place: dict, by: str = "name") -> str:
    """A place by name and city ('Blue Bottle in Oakland'), the city said once where the name holds it
    ('Tesla Supercharger San Diego'), or by street address and city."""
    if by == "address":
        return f"{place['address']} in {place['city']}"
    if place["city"].lower() in place["name"].lower():
        return place["name"]
    return f"{place['name']} in {place['city']}"


def _place_args(ref: Ref) -> dict[str, Any]:
    """The search for a place the user named: its name (or street address) and city, or the name alone where
    that finds only it. 'Save Pasadena Airport' says no city apart from the name, and an agent that searches
    by the name alone must match the call (one that passes the city too still does)."""
    by = "address" if ref.entity.get("said_by") == "address" else "name"
    if ref.entity.get("alone", {}).get(by):
        return {"query": ref.entity[by]}
    return {"query": ref.entity[by], "city": ref.entity["city"]}


def _vehicles(b: Bundle, plan: str | None = None, where=lambda v: True) -> list[dict]:
    return [v for v in b["vehicles"] if (plan is None or v["plan"] == plan) and where(v)]


def _drivable(v: dict) -> bool:
    return (not v["open_door"] and not v["trunk_open"] and not v.get("charge_port_open")
            and not v.get("plugged_in") and v["miles"] > 0)


Calls = tuple[tuple[str, dict], ...]


def _press(v: dict) -> Calls:
    """Pressing the brake pedal, when it is not pressed."""
    if v["brake_pedal"] == "pressed":
        return ()
    return (("set_brake_pedal", {"vehicle_id": v["vehicle_id"], "pressed": True}),)


def _power(v: dict, need: str) -> tuple[Calls, str]:
    """The calls an active car's request asks for first when the car has less power than `need`
    ('accessory' or 'on': starting presses the brake pedal first), and the level it asks for."""
    if need == "accessory" and v["ignition"] != "off":
        return (), ""
    if need == "on" and v["ignition"] == "on":
        return (), ""
    if need == "accessory":
        return ((("set_ignition", {"vehicle_id": v["vehicle_id"], "mode": "accessory"}),), "accessory")
    return _press(v) + (("set_ignition", {"vehicle_id": v["vehicle_id"], "mode": "on"}),), "on"


def _power_words(level: str, name: str, rng: random.Random, prior: Calls = ()) -> str:
    if level == "accessory":
        return rng.choice([f"Put {name} in accessory mode and ", f"Switch {name} to accessory power, then ",
                           f"Turn {name} to accessory mode and "])
    if any(tool == "set_brake_pedal" for tool, _ in prior) and rng.random() < 0.5:
        return rng.choice([f"Press the brake and start {name}, then ", f"Hold the brake, start {name} and ",
                           f"With the brake pedal pressed, switch {name}'s ignition on, then "])
    return rng.choice([f"Start {name} (ignition on) and ", f"Turn the ignition on in {name}, then ",
                       f"Switch {name}'s ignition on and "])


def _terse_power(prior: Calls) -> str:
    """How a terse request asks for the power it needs first."""
    modes = [args["mode"] for tool, args in prior if tool == "set_ignition"]
    if not modes:
        return ""
    if modes[0] == "accessory":
        return "Accessory mode, "
    return "Brake, ignition on, " if any(tool == "set_brake_pedal" for tool, _ in prior) else "Ignition on, "


def _ready(v: dict) -> Calls:
    """The calls that get an active car ready to drive off in D: the brake pressed and the ignition on when it
    is not running, the gear D, the parking brake released (which needs the brake pressed)."""
    calls: list[tuple[str, dict]] = []
    vid = v["vehicle_id"]
    if v["ignition"] != "on" or v["parking_brake"] == "engaged":
        calls += _press(v)
    if v["ignition"] != "on":
        calls.append(("set_ignition", {"vehicle_id": vid, "mode": "on"}))
    if v["gear"] != "D":
        calls.append(("shift_gear", {"vehicle_id": vid, "gear": "D"}))
    if v["parking_brake"] == "engaged":
        calls.append(("set_parking_brake", {"vehicle_id": vid, "engaged": False}))
    return tuple(calls)


def _ready_words(calls: Calls, rng: random.Random) -> list[str]:
    """How a request asks for the calls of `_ready`: the brake and the parking brake said or not, as a driver
    who knows the car does or one who leaves it to the car's errors."""
    words = {"set_brake_pedal": "press the brake", "set_ignition": "start it", "shift_gear": "shift into drive",
             "set_parking_brake": "release the parking brake"}
    said = rng.random() < 0.5
    return [words[tool] for tool, _ in calls if said or tool in ("set_ignition", "shift_gear")]


def _stop(v: dict) -> tuple[Calls, bool]:
    """The calls that bring a car to a stop in P, and whether any were needed."""
    prior: list[tuple[str, dict]] = []
    if v["mph"] > 0:
        prior.append(("set_speed", {"vehicle_id": v["vehicle_id"], "speed_mph": 0}))
    if v["gear"] != "P":
        prior.append(("shift_gear", {"vehicle_id": v["vehicle_id"], "gear": "P"}))
    return tuple(prior), bool(prior)


def _stop_words(name: str, rng: random.Random) -> str:
    return rng.choice([f"Bring {name} to a stop, shift into park, and then ",
                       f"Stop {name} and put it in park, then ",
                       f"Once {name} is stopped and in park, "])


def _which(b: Bundle, v: dict, name: str, ask: Ask, rng: random.Random) -> Ask:
    """For an owner of several cars, now and then the request says only 'my car': the assistant must ask
    which one, and the next turn names it."""
    if len(b["vehicles"]) < 2 or ask.detail is not None or name not in ask.say or rng.random() >= 0.6:
        return ask
    said = car(b, v, rng)
    detail = rng.choice([f"I mean {said}.", f"That's {said}.", f"It's {said}.", f"{_cap(said)}, that is."])
    # 'my car', not 'the car': the article points back at a car the conversation named ('... my Model Y. After
    # that, read me the tyre pressures of the car? It's my 330i.')
    return replace(ask, say=ask.say.replace(name, "my car", 1), detail=detail,
                   plain=ask.say)


def _may_ask_which(build):
    """A goal whose request may leave out which of the owner's cars it is about (see `_which`)."""
    def wrapped(b: Bundle, rng: random.Random) -> Ask | None:
        ask = build(b, rng)
        ref = next((r for r in ask.refs if r.kind == "vehicle"), None) if ask else None
        if ref is None:
            return ask
        name = next((f for f in sorted(set(_forms(b, ref.entity)), key=len, reverse=True) if f in ask.say), None)
        return ask if name is None else _which(b, dict(ref.entity), name, ask, rng)
    wrapped.__name__ = build.__name__
    return wrapped


def _prefer(cars: list[dict], ready, rng: random.Random, share: float = 0.85) -> dict:
    """Mostly a car already in the state a request needs (a short request), sometimes one that must
    get there first (a request that asks for that too)."""
    easy = [c for c in cars if ready(c)]
    return rng.choice(easy if easy and rng.random() < share else cars)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _opened(opener: str | None, name: str, core: str) -> str:
    """A request `core` about the car `name` after `opener`; None asks it, the car first and a question mark
    last: "In my Model 3, could you set the fan to 4?", never "Could you, in my Model 3, set the fan to 4."."""
    if opener is None:
        head, sep, why = core.removesuffix(".").partition(", it's ")
        head, sep, why = (head, sep, why) if sep else core.removesuffix(".").partition(", I want ")
        return f"In {name}, could you {head}?" + (f" {_cap(sep[2:])}{why}." if sep else "")
    return opener + core


def _listed(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


goals = Goals()


# -- reads ------------------------------------------------------------------------------------------

@goals.add("list_vehicles", 0.5)
def list_vehicles(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({"owner_id": b["owner"]["owner_id"]},
               say=rng.choice(["Which cars do I have registered with you?",
                               "Can you list the vehicles on my account?",
                               "I forget what's on my account. What vehicles do you have for me?",
                               # not which are "connected": an introduction may just have said so
                               "Could you tell me which cars I have set up in the app?"]),
               terse=rng.choice(["My vehicles?", "List my cars."]), refs=(_owner(b),),
               facts=lambda r: [v["model"] for v in r][:4])


@goals.add("get_vehicle_status", 0.9)
@_may_ask_which
def get_vehicle_status(b: Bundle, rng: random.Random) -> Ask | None:
    v = rng.choice(b["vehicles"])
    name = car(b, v, rng)
    args, refs = {"vehicle_id": v["vehicle_id"]}, (_owner(b), _ref(b, v))
    energy = "battery" if v["powertrain"] == "electric" else "fuel"
    key = "battery_percent" if v["powertrain"] == "electric" else "fuel_percent"
    choice = rng.randrange(7)
    if choice == 6 and v["plan"] == "active" and v["ignition"] != "off":  # switch the units, then read in them
        target = "metric" if v["display_units"] == "imperial" else "imperial"
        prior, level = _power(v, "accessory")
        prior += (("set_display_units", {"vehicle_id": v["vehicle_id"], "units": target}),)
        distance = UNIT_WORDS[target]["distance"]
        lead = _power_words(level, name, rng, prior) if level else ""
        return Ask(args, say=_cap(lead + rng.choice([f"switch {name}'s display to {target} units and tell me its "
                                                     f"range and odometer in {distance}.",
                                                     f"change the units in {name} to {target}; how many {distance} "
                                                     "of range does it have, and what does the odometer read?"])),
                   terse=f"{_terse_power(prior)}{target} units in {name}; range and odometer?", refs=refs,
                   mentions=(target,), prior=prior, facts=lambda r: [reading(r, "range"), reading(r, "odometer")])
    if choice == 4 and v["powertrain"] == "gasoline":
        fuel = units(v)["fuel"]
        return Ask(args, say=rng.choice([f"How many {fuel} of fuel are in {name}'s tank, and how much does the "
                                         "tank hold?",
                                         f"What's in the tank of {name} right now, in {fuel}? And its size?"]),
                   terse=f"Fuel and tank size of {name}?", refs=refs,
                   facts=lambda r: [reading(r, "fuel"), reading(r, "tank")])
    if choice == 5:
        return Ask(args, say=rng.choice([f"Is the parking brake on in {name}? And is the brake pedal pressed?",
                                         f"Can you check the brakes on {name}: the parking brake and the pedal?"]),
                   terse=f"Parking brake and brake pedal of {name}?", refs=refs,
                   facts=lambda r: [_state(r, "parking_brake"), _state(r, "brake_pedal")])
    if choice in (0, 4, 6):
        return Ask(args, say=rng.choice([f"How much {energy} does {name} have left, and how far can it go?",
                                         f"What's the {energy} level on {name}? And the range?",
                                         f"Before I head out, how much range does {name} have and what's the "
                                         f"{energy} at?"]),
                   terse=f"{_cap(energy)} and range of {name}?", refs=refs,
                   facts=lambda r, key=key: [_level(r[key]), reading(r, "range")])
    if choice == 1:
        return Ask(args, say=rng.choice([f"What's the odometer reading on {name}?",
                                         f"How many {units(v)['distance']} are on {name} now?",
                                         f"I need the mileage of {name} for a service booking. What is it?"]),
                   terse=f"Mileage of {name}?", refs=refs, facts=lambda r: [reading(r, "odometer")])
    if choice == 2:
        return Ask(args, say=rng.choice([f"Where is {name} right now? Which city?",
                                         f"Can you tell me what city {name} is in at the moment?",
                                         f"My partner took {name}. What city is it in?"]),
                   terse=f"Where's {name}?", refs=refs, facts=lambda r: [r["location"]["city"]])
    return Ask(args, say=rng.choice([f"Is {name} running? What gear is it in and how fast is it going?",
                                     f"What's {name} doing right now: ignition, gear and speed?",
                                     f"Could you check on {name}? I want its ignition state, gear and speed."]),
               terse=f"Ignition, gear and speed of {name}?", refs=refs,
               facts=lambda r: [_state(r, "ignition"), _state(r, "gear"), _speed(r)])


@goals.add("get_climate", 1.2)
@_may_ask_which
def get_climate(b: Bundle, rng: random.Random) -> Ask | None:
    v = rng.choice(b["vehicles"])
    name = car(b, v, rng)
    args, refs = {"vehicle_id": v["vehicle_id"]}, (_owner(b), _ref(b, v))
    if rng.random() < 0.5:
        return Ask(args, say=rng.choice([f"How warm is it inside {name} right now, and how warm is it outside?",
                                         f"What's the cabin temperature in {name}, and the outside temperature?",
                                         f"Is it cold in {name}? Give me the inside and outside temperatures."]),
                   terse=f"Inside and outside temperature of {name}?", refs=refs,
                   facts=lambda r: [reading(r, "inside_temp"), reading(r, "outside_temp")])
    return Ask(args, say=rng.choice([f"What temperature is the climate in {name} set to?",
                                     f"Which temperature did I set the climate in {name} to?",
                                     f"Remind me what the thermostat in {name} is set at."]),
               # not "Set temperature in my Bolt EV?": it reads as a command whose value is missing
               terse=f"Target temperature in {name}?", refs=refs, facts=lambda r: [reading(r, "target_temp")])


@goals.add("get_tyre_pressures", 1.3)
@_may_ask_which
def get_tyre_pressures(b: Bundle, rng: random.Random) -> Ask | None:
    v = rng.choice(b["vehicles"])
    name = car(b, v, rng)
    # at the air pump only a car that stands; the tyre light comes on only where a tyre is low, not of a car
    # whose tyres all read well
    pump = not v["mph"]
    if rng.random() < 0.35:  # what they should be, asked in every wording
        return Ask({"vehicle_id": v["vehicle_id"]},
                   say=rng.choice([f"Can you read me the tire pressures of {name}, and what they should be?"]
                                  + [f"I'm at the air pump with {name}. What's each tyre at, and what's the "
                                     "recommended pressure?"] * pump),
                   terse=f"Tyre pressures of {name}, and the recommended one?", refs=(_owner(b), _ref(b, v)),
                   facts=lambda r: list(reading(r, "tyres").values()) + [reading(r, "recommended")])
    says = [f"What are the tyre pressures on {name}?"]
    if v["low_tyres"]:
        says.append(f"The tyre light came on in {name}. What pressure is each tyre at?")
    if pump:
        says.append(f"I'm at the air pump with {name}. What's each tyre at right now?")
    return Ask({"vehicle_id": v["vehicle_id"]},
               say=rng.choice(says),
               terse=f"Tyre pressures of {name}?", refs=(_owner(b), _ref(b, v)),
               facts=lambda r: list(reading(r, "tyres").values()))


@goals.add("search_places")
def search_places(b: Bundle, rng: random.Random) -> Ask | None:
    city = rng.choice(sorted(b["cities"]))
    # a kind of place the city has more than one of: asked right after a route to the only park in Fresno,
    # "Can you find me a park in Fresno?" would ask for the place just named
    count = Counter(p["category"] for p in b["cities"][city] if p["category"] in CATEGORY_WORDS)
    present = sorted(category for category, n in count.items() if n > 1)
    if not present:
        return None
    category = rng.choice(present)
    one, many, some = CATEGORY_WORDS[category]
    if rng.random() < 0.4:
        return Ask({"category": category, "city": city},
                   say=rng.choice([f"Can you find me {some}?", f"I need {some}. What is there?",
                                   f"Which {many} do you know of?"]),
                   terse=f"{_cap(many)} in {city}?", detail=rng.choice([f"In {city}.", f"I mean in {city}.",
                                                                        f"Around {city}, please."]),
                   mentions=(city,), facts=lambda r: [p["name"] for p in r][:4])
    return Ask({"category": category, "city": city},
               say=rng.choice([f"Which {many} are there in {city}?", f"Can you find {some} in {city}?",
                               f"I'll be in {city} later. What {many} can I go to there?",
                               f"List the {many} you know of in {city}, please."]),
               terse=f"{_cap(many)} in {city}?", mentions=(city, one),
               facts=lambda r: [p["name"] for p in r][:4])


@goals.add("list_saved_places", 0.6)
def list_saved_places(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["saved"]:
        return None
    return Ask({"owner_id": b["owner"]["owner_id"]},
               say=rng.choice(["Which places have I saved in navigation?", "What are my saved places?",
                               "Could you read me the list of places I've saved?",
                               "I can't remember what I saved as favorites. What's on the list?"]),
               terse="My saved places?", refs=(_owner(b),), facts=lambda r: [_saved_as(s, b) for s in r][:5])


def _saved_as(s: dict, b: Bundle) -> Any:
    """A saved place as an answer may name it: by its label ('Mom's place') or by the place's own name
    ('Modesto Botanical Garden'); a home named for its owner only by its label."""
    if s["name"] == s["label"] or b["owner"]["name"] in s["name"]:
        return s["label"]
    return one_of(s["label"], s["name"])


def _destination(b: Bundle, rng: random.Random, far: bool = False, miles: int = MIN_FAR_RANGE
                 ) -> tuple[dict, Ref, str] | None:
    """A place to drive to, and the words that name it: a saved place by its label, a business by name and
    city, or an address. Places in other cities only for a car with `miles` of range enough to reach a highway
    charger or pump on the way."""
    roll = rng.random()
    reach = miles >= MIN_FAR_RANGE
    saved = [s for s in b["saved"] if reach or s["city"] == b["owner"]["city"]]
    if not far and saved and roll < 0.35:
        saved = rng.choice(saved)
        label = saved["label"]
        said = "home" if label == "Home" else f"my saved place '{label}'"
        return {"place_id": saved["place_id"]}, Ref.of("saved_place", saved, _owner(b)), said
    pool = b["far"] if far else (b["nearby"] or (b["far"] if reach else []))
    if not pool:
        return None
    place = rng.choice(pool)
    by = "address" if roll > 0.8 and not far and place["address_unique"] else "name"
    return place, _place_ref(place, by), place_words(place, by)


_TO_HOME = re.compile(r"\b(going|Going|get|take me|make it|I mean) to home\b")


def _home(ask: Ask | None) -> Ask | None:
    """Home is where one goes, not goes to: "I'm going home", "take me home", "how long to get home", never
    "I'm going to home" (a saved Home place is said as the bare word "home"); "from work to home", "navigate
    to home" and "set the destination to home" stay. A bare "To home." detail is "Going home."."""
    if ask is None:
        return None

    def fix(text: str | None) -> str | None:
        if text is None:
            return None
        return _TO_HOME.sub(r"\1 home", re.sub(r"^To home\.", "Going home.", text))

    return replace(ask, say=fix(ask.say), terse=fix(ask.terse), detail=fix(ask.detail), plain=fix(ask.plain),
                   terse_alone=fix(ask.terse_alone))


@goals.add("plan_route", 1.0)
def plan_route(b: Bundle, rng: random.Random) -> Ask | None:
    return _home(_plan_route(b, rng))


def _plan_route(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, None, lambda v: v["miles"] >= MIN_ROUTE_RANGE)
    if not cars:
        return None
    v = rng.choice(cars)
    far = rng.random() < 0.5 and v["miles"] >= MIN_FAR_RANGE
    found = _destination(b, rng, far=far, miles=v["miles"])
    if found is None:
        return None
    place, ref, said = found
    name = car(b, v, rng)
    args = {"vehicle_id": v["vehicle_id"], "place_id": place["place_id"]}
    refs = (_owner(b), _ref(b, v), ref)
    if far and rng.random() < 0.4:
        return Ask(args, say=rng.choice([f"I'm thinking of a road trip in {name}. How far, how long, and where "
                                         "would I stop on the way?",
                                         f"Plan a long drive for {name}: distance, time and stops."]),
                   detail=rng.choice([f"To {said}.", f"The destination is {said}.", f"Going to {said}."]),
                   terse=f"Route for {name} to {said}: miles, time, stops?", refs=refs,
                   facts=lambda r: [reading(r, "distance"), quantity(r["minutes"], "min")] + [s["name"] for s in r["stops"]])
    if far:
        return Ask(args, say=rng.choice([f"If I drive {name} to {said}, how far is it, how long will it take, and "
                                         f"where would I have to stop to {'charge' if v['powertrain'] == 'electric' else 'refuel'}?",
                                         f"I'm planning a trip in {name} to {said}. Distance, driving time and any "
                                         f"stops I'd need?",
                                         f"Can {name} make it to {said}? Tell me the distance, the time, and the "
                                         f"stops on the way."]),
                   terse=f"Route for {name} to {said}: miles, time, stops?", refs=refs,
                   facts=lambda r: [reading(r, "distance"), quantity(r["minutes"], "min")] + [s["name"] for s in r["stops"]])
    if rng.random() < 0.4:
        return Ask(args, say=rng.choice([f"How far is it from where {name} is now, and how long a drive?",
                                         f"Could you check the distance and drive time for {name}?"]),
                   terse=f"Distance and time to {said} in {name}?", refs=refs,
                   detail=rng.choice([f"To {said}.", f"I mean to {said}.", f"Going to {said}."]),
                   facts=lambda r: [reading(r, "distance"), quantity(r["minutes"], "min")])
    return Ask(args, say=rng.choice([f"How far is {said} from where {name} is, and how long is the drive?",
                                     f"How long would it take {name} to get to {said}? And how many "
                                     f"{units(v)['distance']}?",
                                     f"Without starting navigation, what's the distance and drive time to "
                                     f"{said} in {name}?"]),
               terse=f"Distance and time to {said} in {name}?", refs=refs,
               facts=lambda r: [reading(r, "distance"), quantity(r["minutes"], "min")])


# -- active cars: power, driving, comfort, navigation -----------------------------------------------

@goals.add("set_ignition", 1.0)
def set_ignition(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.5:
        cars = _vehicles(b, "park", lambda v: v["ignition"] != "off")
        if cars:
            v = rng.choice(cars)
            prior, stopping = _stop(v)
            name = car(b, v, rng)
            lead = _stop_words(name, rng) if stopping else ""
            say = (lead + rng.choice(["switch the ignition off.", "turn it off."]) if stopping else
                   rng.choice([f"Please turn {name} off.", f"Switch off the ignition in {name}.",
                               f"I'm done with {name} for today; turn the ignition off.",
                               f"Could you shut {name} off for me?"]))
            return Ask({"vehicle_id": v["vehicle_id"], "mode": "off"}, say=_cap(say),
                       terse=f"{'Stop, park, ' if stopping else ''}ignition off in {name}.",
                       refs=(_owner(b), _ref(b, v)), mentions=("off",), prior=prior)
    # accessory power for a parked car that is off (an active car's ignition only goes up to on)
    resting = _vehicles(b, "park", lambda v: v["ignition"] == "off")
    if resting and rng.random() < 0.35:
        v = rng.choice(resting)
        name = car(b, v, rng)
        return Ask({"vehicle_id": v["vehicle_id"], "mode": "accessory"},
                   say=rng.choice([f"Switch {name} to accessory mode; I just want the radio and windows.",
                                   f"Put {name} in accessory, please, not fully on.",
                                   f"Could you turn {name} to accessory power?"]),
                   terse=f"Accessory mode in {name}.", refs=(_owner(b), _ref(b, v)), mentions=("accessory",))
    cars = _vehicles(b, "active", lambda v: v["ignition"] != "on")
    if not cars:
        return None
    v = rng.choice(cars)
    name = car(b, v, rng)
    prior = _press(v)  # an engine starts only with the brake pressed
    if prior and rng.random() < 0.5:
        return Ask({"vehicle_id": v["vehicle_id"], "mode": "on"},
                   say=rng.choice([f"Press the brake and start {name}.", f"Hold the brake pedal and start {name} "
                                   "(ignition on).", f"Put the brake on and switch {name}'s ignition on, please."]),
                   terse=f"Brake, ignition on, {name}.", refs=(_owner(b), _ref(b, v)), mentions=("on",),
                   prior=prior)
    if rng.random() < 0.4:
        return Ask({"vehicle_id": v["vehicle_id"], "mode": "on"},
                   say=rng.choice([f"Can you power up {name}?", f"Wake {name} up for me, please."]),
                   detail=rng.choice(["Ignition fully on, not just accessory.", "All the way on, please.",
                                      "I mean ignition on."]),
                   terse=f"Ignition on, {name}.", refs=(_owner(b), _ref(b, v)), mentions=("on",), prior=prior)
    return Ask({"vehicle_id": v["vehicle_id"], "mode": "on"},
               say=rng.choice([f"Turn the ignition on in {name}.", f"Please start {name}; switch the ignition on.",
                               f"Can you switch {name}'s ignition fully on?",
                               f"I'm heading out soon. Turn {name} on, please (ignition on)."]),
               terse=f"Ignition on, {name}.", refs=(_owner(b), _ref(b, v)), mentions=("on",), prior=prior)


@goals.add("shift_gear", 0.45)
def shift_gear(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, "active", lambda v: v["gear"] == "P" and _drivable(v))
    if not cars:
        return None
    v = _prefer(cars, lambda c: c["ignition"] == "on", rng, share=0.7)
    name = car(b, v, rng)
    prior, level = _power(v, "on")
    lead = _power_words(level, name, rng, prior) if level else ""
    core = rng.choice(["shift into drive.", "put it in D.", "shift it to D, please."]) if lead else \
        rng.choice([f"Shift {name} into drive.", f"Put {name} in D, please.", f"Take {name} out of park and into drive."])
    say, detail = lead + core, None
    if rng.random() < 0.5:
        say = (lead + "take it out of park.") if lead else rng.choice(
            [f"Take {name} out of park.", f"Shift {name} out of P for me."])
        detail = rng.choice(["Into drive, please.", "Put it in D.", "Drive, not reverse."])
    return Ask({"vehicle_id": v["vehicle_id"], "gear": "D"}, say=_cap(say), detail=detail,
               terse=f"{_terse_power(prior)}{name} in D.", refs=(_owner(b), _ref(b, v)),
               prior=prior)


@goals.add("set_speed", 1.3)
def set_speed(b: Bundle, rng: random.Random) -> Ask | None:
    # a car at most two steps from driving off, so that the request fits a conversation
    cars = _vehicles(b, "active", lambda v: _drivable(v) and v["gear"] in ("P", "D") and len(_ready(v)) <= 2)
    if not cars:
        return None
    v = _prefer(cars, lambda c: not _ready(c), rng)
    speed = rng.choice([25, 30, 35, 40, 45, 50, 55, 60, 65, 70])
    if speed == v["mph"]:
        return None
    name = car(b, v, rng)
    prior = _ready(v)
    steps = _ready_words(prior, rng)
    if steps:
        say = f"In {name}, {_listed(steps)}, then " + rng.choice([f"drive at {speed} mph.",
                                                                  f"get going at {speed} mph."])
        terse = f"{_cap(', '.join(steps))}, {speed} mph in {name}."
    else:
        say = rng.choice([f"Take {name} to {speed} mph.",
                          f"{'Speed up' if speed > v['mph'] else 'Slow down'} to {speed} mph, please.",
                          f"Hold {name} at {speed} miles per hour.", f"Let's go {speed} mph in {name}."])
        terse = f"{speed} mph, {name}."
    detail = None
    if rng.random() < 0.7:
        say = (say[:say.rfind(", then ")] + ", then drive off.") if steps else \
            rng.choice([f"Change the speed of {name}.", f"Set a new speed for {name}, please."])
        detail = rng.choice([f"{speed} mph.", f"Make it {speed} mph.", f"{speed} miles per hour, please."])
    return Ask({"vehicle_id": v["vehicle_id"], "speed_mph": speed}, say=_cap(say), terse=terse, detail=detail,
               refs=(_owner(b), _ref(b, v)), mentions=(str(speed),), prior=prior)


def _comfort(b: Bundle, rng: random.Random, need: str = "accessory", where=lambda v: True):
    """An active car for a comfort request, the call for power it asks first, and how it is said."""
    cars = _vehicles(b, "active", where)
    if not cars:
        return None
    v = _prefer(cars, lambda c: not _power(c, need)[0], rng, share=0.85 if need == "accessory" else 0.95)
    name = car(b, v, rng)
    prior, level = _power(v, need)
    return v, name, prior, (_power_words(level, name, rng, prior) if level else "")


@goals.add("set_cabin_temperature", 1.2)
def set_cabin_temperature(b: Bundle, rng: random.Random) -> Ask | None:
    found = _comfort(b, rng)
    if found is None:
        return None
    v, name, prior, lead = found
    temp = rng.choice([64, 66, 68, 69, 70, 71, 72, 73, 74, 75, 76])
    if v["climate"]["climate_on"] and temp == v["target_f"]:
        return None
    if lead:
        say = lead + rng.choice([f"set the climate to {temp} degrees.", f"warm it up to {temp} degrees.",
                                 f"get the cabin to {temp}°F."])
    else:
        say = rng.choice([f"Set the temperature in {name} to {temp} degrees.",
                          f"Could you put the climate in {name} at {temp}°F?",
                          f"It's {'freezing' if v['outside_f'] < 50 else 'hot'} out; make "
                          f"{name} {temp} degrees inside, please.",
                          f"I'd like {name} at {temp} degrees when I get in."])
    detail = None
    # a climate already running is not turned on: "Turn on the climate in my R1S" of a cabin held at 70 degrees
    # reads as if it were off; the request then asks for another temperature
    on = v["climate"]["climate_on"]
    if lead and rng.random() < 0.5:
        say = lead + rng.choice(["change the cabin temperature.", "set a different temperature."] if on else
                                ["turn the climate on.", "get the climate going."])
        detail = rng.choice([f"{temp} degrees.", f"Set it to {temp}, please.", f"Make it {temp} degrees."])
    elif not lead and rng.random() < 0.7:
        say = rng.choice([f"Change the temperature in {name}, please.", f"Can you adjust the climate in {name}?"]
                         if on else [f"Turn on the climate in {name}, please.",
                                     f"Can you get the climate going in {name}?"])
        detail = rng.choice([f"{temp} degrees.", f"Set it to {temp}, please.", f"Make it {temp} degrees."])
    return Ask({"vehicle_id": v["vehicle_id"], "temperature_f": temp}, say=_cap(say),
               terse=f"{_terse_power(prior)}cabin to {temp}°F, {name}.", detail=detail,
               refs=(_owner(b), _ref(b, v)), mentions=(str(temp),), prior=prior)


@goals.add("set_fan_speed", 0.6)
def set_fan_speed(b: Bundle, rng: random.Random) -> Ask | None:
    found = _comfort(b, rng)
    if found is None:
        return None
    v, name, prior, lead = found
    level = rng.choice([1, 2, 4, 5, 6, 7])
    if v["climate"]["climate_on"] and v["climate"]["fan_speed"] == level:
        return None
    core = rng.choice([f"set the fan to {level}.", f"put the fan speed on {level}.", f"turn the blower to level {level}."])
    say = lead + core if lead else _opened(rng.choice([f"In {name}, ", f"For {name}, please ", None]), name, core)
    detail = None
    if not lead and rng.random() < 0.5:
        say = rng.choice([f"The fan in {name} is {'too weak' if level > v['climate']['fan_speed'] else 'too loud'}. "
                          "Change it, please.", f"Adjust the fan speed in {name}."]) if v["climate"]["climate_on"] \
            else rng.choice([f"Turn on the fan in {name}.", f"Get some air moving in {name}, please."])
        detail = rng.choice([f"Level {level}.", f"Make it {level}.", f"Put it on {level}, please."])
    return Ask({"vehicle_id": v["vehicle_id"], "level": level}, say=_cap(say),
               terse=f"{_terse_power(prior)}fan {level}, {name}.", detail=detail,
               refs=(_owner(b), _ref(b, v)), mentions=(str(level),), prior=prior)


@goals.add("set_heating")
def set_heating(b: Bundle, rng: random.Random) -> Ask | None:
    found = _comfort(b, rng)
    if found is None:
        return None
    v, name, prior, lead = found
    zones = ["driver_seat", "passenger_seat", "rear_seats"] + (["steering_wheel"] if
                                                               v["climate"]["heating"]["steering_wheel"] is not None else [])
    zone = rng.choice(zones)
    level = rng.choice([1, 2, 3])
    if v["climate"]["heating"][zone] == level:
        return None
    what, how = HEAT_WORDS[zone], LEVEL_WORDS[level]
    # a heater already on is turned up or down, not on ("Turn on the heat for my seat" of a seat heated on low)
    current = v["climate"]["heating"][zone]
    way = "up" if level > current else "down"
    if zone == "steering_wheel":
        core = rng.choice([f"turn the wheel heater {way} to {how}.", f"turn the wheel heater to {how}."] if current
                          else [f"heat the steering wheel on {how}.", f"turn the wheel heater to {how}."])
    else:
        core = rng.choice([f"turn the heater for {what} {way} to {how}.", f"set the seat heating for {what} to {how}."]
                          if current else [f"turn on the heater for {what} on {how}.", f"warm up {what}, setting {how}.",
                                           f"set the seat heating for {what} to {how}."])
    say = lead + core if lead else _opened(rng.choice([f"In {name}, ", f"For {name}, please ", None]), name, core)
    detail = None
    if not lead and rng.random() < 0.7:
        say = rng.choice([f"Change the heat for {what} in {name}.", f"Could you turn {way} the heat for {what} in "
                          f"{name}?"] if current else [f"Turn on the heat for {what} in {name}.",
                                                       f"Could you warm up {what} in {name}?"])
        detail = rng.choice([f"On {how}, please.", f"Set it to {how}.", f"{_cap(how)}."])
    return Ask({"vehicle_id": v["vehicle_id"], "zone": zone, "level": level}, say=_cap(say),
               terse=f"{_terse_power(prior)}{what} heat {how}, {name}.", detail=detail,
               refs=(_owner(b), _ref(b, v)), mentions=(how,), prior=prior)


@goals.add("set_defrost", 0.8)
def set_defrost(b: Bundle, rng: random.Random) -> Ask | None:
    found = _comfort(b, rng)
    if found is None:
        return None
    v, name, prior, lead = found
    zone = rng.choice(["front", "rear"])
    if v["climate"][f"defrost_{zone}"]:
        return Ask({"vehicle_id": v["vehicle_id"], "zone": zone, "on": False},
                   say=rng.choice([f"The {'windshield' if zone == 'front' else 'rear window'} in {name} is clear "
                                   f"now; turn the {zone} defrost off.",
                                   f"Switch off the {zone} defroster in {name}."]),
                   terse=f"{_cap(zone)} defrost off, {name}.", refs=(_owner(b), _ref(b, v)), mentions=(zone,))
    glass = "windshield" if zone == "front" else "rear window"
    core = rng.choice([f"defrost the {glass}.", f"turn on the {zone} defroster.", f"clear the {glass}, it's fogged up."])
    say = lead + core if lead else _opened(rng.choice([f"In {name}, please ", None]), name, core)
    detail = None
    if rng.random() < 0.6:
        say = (lead + "turn on the defroster.") if lead else rng.choice(
            [f"The glass in {name} is all fogged up. Turn on the defroster.", f"Can you defrost {name}?"])
        detail = rng.choice([f"The {glass}.", f"The {zone} one.", f"I mean the {glass}."])
    return Ask({"vehicle_id": v["vehicle_id"], "zone": zone, "on": True}, say=_cap(say),
               terse=f"{_terse_power(prior)}{zone} defrost on, {name}.", refs=(_owner(b), _ref(b, v)),
               detail=detail, prior=prior)


@goals.add("turn_off_climate", 0.7)
@_may_ask_which
def turn_off_climate(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, None, lambda v: v["climate"]["climate_on"])
    if not cars:
        return None
    v = rng.choice(cars)
    name = car(b, v, rng)
    return Ask({"vehicle_id": v["vehicle_id"]},
               say=rng.choice([f"Turn off the climate in {name}.", f"Shut off the AC and heaters in {name}, please.",
                               f"It's comfortable now, so switch the climate in {name} off.",
                               f"Could you stop the climate control in {name}?"]),
               terse=f"Climate off, {name}.", refs=(_owner(b), _ref(b, v)))


@goals.add("set_windows", 0.8)
def set_windows(b: Bundle, rng: random.Random) -> Ask | None:
    found = _comfort(b, rng)
    if found is None:
        return None
    v, name, prior, lead = found
    position = rng.choice([p for p in ("closed", "vent", "open") if p != v["windows"]])
    core = {"closed": rng.choice(["close all the windows.", "roll the windows up."]),
            "vent": rng.choice(["crack the windows open a bit (vent).", "put the windows on vent."]),
            "open": rng.choice(["open all the windows fully.", "roll the windows all the way down (open)."])}[position]
    say = lead + core if lead else _opened(rng.choice([f"In {name}, please ", None, f"For {name}: "]), name, core)
    detail = None
    if not lead and rng.random() < 0.7:
        say = rng.choice([f"Can you do something about the windows in {name}?", f"I want to adjust the windows in {name}."])
        detail = {"closed": rng.choice(["Close them all, please.", "Roll them all up."]),
                  "vent": rng.choice(["Just crack them open a bit (vent).", "Put them on vent."]),
                  "open": rng.choice(["Open them all the way.", "Fully open, please."])}[position]
    return Ask({"vehicle_id": v["vehicle_id"], "position": position}, say=_cap(say),
               terse=f"{_terse_power(prior)}windows {position}, {name}.", refs=(_owner(b), _ref(b, v)),
               detail=detail, prior=prior)


@goals.add("set_headlights", 0.8)
def set_headlights(b: Bundle, rng: random.Random) -> Ask | None:
    mode = rng.choice(["auto", "auto", "low", "low", "high"])
    found = _comfort(b, rng, need="on" if mode == "high" else "accessory", where=lambda v: v["headlights"] != mode)
    if found is None:
        return None
    v, name, prior, lead = found
    core = {"auto": rng.choice(["set the headlights to auto.", "put the lights on automatic."]),
            "low": rng.choice(["turn on the low beams.", "switch the headlights to low beam."]),
            "high": rng.choice(["turn on the high beams.", "switch to high beams, it's pitch dark."])}[mode]
    say = lead + core if lead else _opened(rng.choice([f"In {name}, please ", None]), name, core)
    detail = None
    if not lead and rng.random() < 0.7:
        say = rng.choice([f"Change the headlights in {name}.", f"Could you adjust the headlight setting in {name}?"])
        detail = {"auto": "Auto, please.", "low": "Low beams.", "high": "High beams, please."}[mode]
    return Ask({"vehicle_id": v["vehicle_id"], "mode": mode}, say=_cap(say),
               terse=f"{_terse_power(prior)}headlights {mode}, {name}.", refs=(_owner(b), _ref(b, v)),
               mentions=(mode,), detail=detail, prior=prior)


@goals.add("set_drive_mode", 0.45)
def set_drive_mode(b: Bundle, rng: random.Random) -> Ask | None:
    found = _comfort(b, rng, need="on")
    if found is None:
        return None
    v, name, prior, lead = found
    modes = [m for m in v["drive_modes"] if m != v["drive_mode"]]
    mode = rng.choice(modes)
    core = rng.choice([f"switch to {mode} mode.", f"change the drive mode to {mode}.", f"put it in {mode} mode."])
    say = lead + core if lead else _opened(rng.choice([f"For {name}, ", f"In {name}, please ", None]), name, core)
    detail = None
    if not lead and rng.random() < 0.7:
        say = rng.choice([f"I'd like a different drive mode in {name}.", f"Change the drive mode of {name}, please."])
        detail = rng.choice([f"{_cap(mode)}, please.", f"Make it {mode}.", f"The {mode} mode."])
    return Ask({"vehicle_id": v["vehicle_id"], "mode": mode}, say=_cap(say),
               terse=f"{_terse_power(prior)}{mode} mode, {name}.", refs=(_owner(b), _ref(b, v)),
               mentions=(mode,), detail=detail, prior=prior)


@goals.add("play_media", 0.8)
def play_media(b: Bundle, rng: random.Random) -> Ask | None:
    found = _comfort(b, rng)
    if found is None:
        return None
    v, name, prior, lead = found
    options = ["radio"] * 3 + (["bluetooth"] if v["paired_phone"] and v["media_source"] != "bluetooth" else []) + \
        (["off"] if v["media_source"] != "off" and not lead else [])
    source = rng.choice(options)
    args: dict[str, Any] = {"vehicle_id": v["vehicle_id"], "source": source}
    detail = None
    if source == "radio":
        station = rng.choice(["88.5 FM", "91.7 FM", "94.9 FM", "98.1 FM", "101.3 FM", "103.7 FM", "740 AM",
                              "1070 AM", "99.7 FM"])
        if v["media_source"] == "radio" and v["radio_station"] == station:
            return None
        args["station"] = station
        core = rng.choice([f"put on {station}.", f"tune the radio to {station}.", f"play {station} on the radio."])
        mentions: tuple[str, ...] = (station,)
        if not lead and rng.random() < 0.7:
            core, detail = rng.choice(["put the radio on.", "play the radio."]), rng.choice(
                [f"{station}, please.", f"Tune it to {station}."])
    elif source == "bluetooth":
        core = rng.choice([f"play music from my {v['paired_phone']} over Bluetooth.",
                           "switch the audio to my phone over Bluetooth."])
        mentions = ("Bluetooth",)
    else:
        core = rng.choice(["turn the music off.", "switch the media off, I want some quiet."])
        mentions = ("off",)
    say = lead + core if lead else _opened(rng.choice([f"In {name}, ", None, f"For {name}, please "]), name, core)
    return Ask(args, say=_cap(say), terse=f"{_terse_power(prior)}{core[:-1]} in {name}.", detail=detail,
               refs=(_owner(b), _ref(b, v)), mentions=mentions, prior=prior)


@goals.add("start_navigation", 1.0)
def start_navigation(b: Bundle, rng: random.Random) -> Ask | None:
    return _home(_start_navigation(b, rng))


def _start_navigation(b: Bundle, rng: random.Random) -> Ask | None:
    found = _refuel_first(b, rng) if rng.random() < 0.15 else None
    found = found or _comfort(b, rng, where=lambda v: v["miles"] >= MIN_ROUTE_RANGE)
    if found is None:
        return None
    v, name, prior, lead = found
    dest = _destination(b, rng, far=rng.random() < 0.25 and v["miles"] >= MIN_FAR_RANGE, miles=v["miles"])
    if dest is None:
        return None
    place, ref, said = dest
    core = rng.choice([f"navigate to {said}.", f"take me to {said}.", f"start directions to {said}.",
                       f"set the destination to {said}."])
    say = lead + core if lead else rng.choice([f"In {name}, ", f"Please, in {name}, ", f"For {name}, "]) + core
    detail = None
    if not lead and rng.random() < 0.7:
        say = rng.choice([f"Start navigation in {name}.", f"I need directions in {name}."])
        detail = rng.choice([f"To {said}.", f"I'm going to {said}.", f"The destination is {said}."])
    return Ask({"vehicle_id": v["vehicle_id"], "place_id": place["place_id"]}, say=_cap(say),
               terse=f"{_terse_power(prior)}navigate {name} to {said}.", detail=detail,
               refs=(_owner(b), _ref(b, v), ref), prior=prior)


@goals.add("cancel_navigation", 2.0)
def cancel_navigation(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, "active", lambda v: v["navigation"] is not None)
    if not cars:
        return None
    v = rng.choice(cars)
    name = car(b, v, rng)
    where = v["navigation"]["destination"]
    return Ask({"vehicle_id": v["vehicle_id"]},
               say=rng.choice([f"Cancel the route in {name}; I know the way to {where}.",
                               f"Stop the navigation in {name}, please.",
                               f"We're not going to {where} after all. End the directions in {name}."]),
               terse=f"End navigation, {name}.", refs=(_owner(b), _ref(b, v)))


# -- both: locks, saved places, charge limit ------------------------------------------------------------

@goals.add("lock_doors", 0.8)
@_may_ask_which
def lock_doors(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, None, lambda v: not v["locked"] and not v["open_door"])
    if not cars:
        return None
    v = rng.choice(cars)
    name = car(b, v, rng)
    return Ask({"vehicle_id": v["vehicle_id"]},
               say=rng.choice([f"Did I forget to lock {name}? Lock it, please.", f"Lock {name}.",
                               f"Please lock the doors of {name}.", f"Can you lock up {name} for me remotely?"]),
               terse=f"Lock {name}.", refs=(_owner(b), _ref(b, v)))


@goals.add("unlock_doors", 0.8)
@_may_ask_which
def unlock_doors(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, "park", lambda v: v["locked"] and v["mph"] == 0)
    if not cars:
        return None
    v = rng.choice(cars)
    name = car(b, v, rng)
    return Ask({"vehicle_id": v["vehicle_id"]},
               say=rng.choice([f"My kid needs to get something from {name}. Unlock it, please.",
                               f"Unlock {name}.", f"Could you unlock the doors of {name}?",
                               f"I'm standing next to {name} without my key. Can you unlock it?"]),
               terse=f"Unlock {name}.", refs=(_owner(b), _ref(b, v)))


@goals.add("set_charge_limit", 0.7)
def set_charge_limit(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, None, lambda v: v["powertrain"] == "electric" and v["battery_percent"] < 90)
    if not cars:
        return None
    v = rng.choice(cars)
    limits = [p for p in (80, 85, 90, 95, 100) if p > v["battery_percent"] and p != v["charge_limit"]]
    if not limits:
        return None
    percent = rng.choice(limits)
    name = car(b, v, rng)
    say = rng.choice([f"Set the charge limit on {name} to {percent}%.",
                      f"I've got a road trip coming; let {name} charge up to {percent} percent.",
                      f"Change {name}'s charging limit to {percent}%."])
    detail = None
    if rng.random() < 0.7:
        say, detail = f"I want to change the charge limit on {name}.", rng.choice(
            [f"{percent}%, please.", f"Make it {percent} percent."])
    return Ask({"vehicle_id": v["vehicle_id"], "percent": percent}, say=say, terse=f"Charge limit {percent}%, {name}.",
               detail=detail, refs=(_owner(b), _ref(b, v)), mentions=(str(percent),))


@goals.add("save_place", 0.8)
def save_place(b: Bundle, rng: random.Random) -> Ask | None:
    taken_labels = {s["label"].lower() for s in b["saved"]}
    taken_places = {s["place_id"] for s in b["saved"]}
    pool = [p for p in b["nearby"] + b["far"] if p["place_id"] not in taken_places]
    if not pool:
        return None
    place = rng.choice(pool)
    labels = [label for label in NEW_LABELS.get(place["category"], ()) if label.lower() not in taken_labels]
    if not labels:
        return None
    label = rng.choice(labels)
    said = place_words(place)
    say = rng.choice([f"Save {said} to my places as '{label}'.", f"Please add {said} to my saved places, labelled '{label}'.",
                      f"I go to {said} a lot. Save it as '{label}'."])
    detail = None
    if rng.random() < 0.7:
        say, detail = rng.choice([f"Can you save {said} in my navigation favorites?",
                                  f"I'd like {said} in my saved places.",
                                  f"Please add {said} to my saved places."]), rng.choice(
            [f"Call it '{label}'.", f"Label it '{label}', please."])
    return Ask({"owner_id": b["owner"]["owner_id"], "place_id": place["place_id"], "label": label}, say=say,
               terse=f"Save {said} as '{label}'.", detail=detail, refs=(_owner(b), _place_ref(place)),
               mentions=(label,))


@goals.add("delete_saved_place", 0.6)
def delete_saved_place(b: Bundle, rng: random.Random) -> Ask | None:
    saved = [s for s in b["saved"] if s["label"] != "Home"] or b["saved"]
    if not saved:
        return None
    s = rng.choice(saved)
    label = s["label"]
    if rng.random() < 0.5:
        return Ask({"saved_place_id": s["saved_place_id"]},
                   say=rng.choice(["I want to clean up my saved places. Please delete one.",
                                   "Can you remove one of my saved places?"]),
                   detail=rng.choice([f"The one called '{label}'.", f"'{label}', please.", f"Delete '{label}'."]),
                   terse=f"Delete saved place '{label}'.", refs=(_owner(b), Ref.of("saved_place", s, _owner(b))),
                   mentions=(label,))
    return Ask({"saved_place_id": s["saved_place_id"]},
               say=rng.choice([f"Remove '{label}' from my saved places.", f"I don't need the saved place '{label}' "
                               "anymore; delete it.", f"Please delete my saved place called '{label}'."]),
               terse=f"Delete saved place '{label}'.", refs=(_owner(b), Ref.of("saved_place", s, _owner(b))),
               mentions=(label,))


# -- parked cars: trunk, charge port, charging ----------------------------------------------------------

@goals.add("open_trunk", 1.2)
def open_trunk(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, "park", lambda v: not v["trunk_open"])
    if not cars:
        return None
    v = _prefer(cars, lambda c: c["gear"] == "P", rng)
    name = car(b, v, rng)
    prior, stopping = _stop(v)
    say = (_stop_words(name, rng) + rng.choice(["open the trunk.", "pop the trunk."])) if stopping else \
        rng.choice([f"Open the trunk of {name}.", f"Pop the trunk on {name}, my hands are full.",
                    f"Could you open {name}'s trunk for the delivery driver?"])
    return Ask({"vehicle_id": v["vehicle_id"]}, say=_cap(say),
               terse=f"{'Stop, park, ' if stopping else ''}open trunk, {name}.", refs=(_owner(b), _ref(b, v)),
               prior=prior)


@goals.add("close_trunk", 0.8)
@_may_ask_which
def close_trunk(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, None, lambda v: v["trunk_open"])
    if not cars:
        return None
    v = rng.choice(cars)
    name = car(b, v, rng)
    return Ask({"vehicle_id": v["vehicle_id"]},
               say=rng.choice([f"I left the trunk of {name} open. Close it, please.", f"Close {name}'s trunk.",
                               f"Shut the trunk on {name}, would you?"]),
               terse=f"Close trunk, {name}.", refs=(_owner(b), _ref(b, v)))


@goals.add("open_charge_port", 0.8)
def open_charge_port(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, "park", lambda v: v["powertrain"] == "electric" and not v["charge_port_open"])
    if not cars:
        return None
    v = rng.choice(cars)
    name = car(b, v, rng)
    prior, stopping = _stop(v)
    say = (_stop_words(name, rng) + "open the charge port.") if stopping else \
        rng.choice([f"Open the charge port on {name}; I'm at the charger.", f"Open {name}'s charge port door.",
                    f"I'm about to plug in {name}. Can you open the charge port?"])
    return Ask({"vehicle_id": v["vehicle_id"]}, say=_cap(say),
               terse=f"{'Stop, park, ' if stopping else ''}open charge port, {name}.", refs=(_owner(b), _ref(b, v)),
               prior=prior)


@goals.add("close_charge_port", 1.5)
@_may_ask_which
def close_charge_port(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, None, lambda v: v.get("charge_port_open") and not v.get("plugged_in"))
    if not cars:
        return None
    v = rng.choice(cars)
    name = car(b, v, rng)
    return Ask({"vehicle_id": v["vehicle_id"]},
               say=rng.choice([f"The charge port on {name} is still open. Close it, please.",
                               f"Close the charge port door of {name}."]),
               terse=f"Close charge port, {name}.", refs=(_owner(b), _ref(b, v)))


@goals.add("start_charging", 1.0)
@_may_ask_which
def start_charging(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, None, lambda v: v.get("plugged_in") and not v["charging"] and v["battery_percent"] < 100)
    if not cars:
        return None
    v = rng.choice(cars)
    name = car(b, v, rng)
    if v["battery_percent"] >= v["charge_limit"]:  # at its limit: the request raises it first
        return Ask({"vehicle_id": v["vehicle_id"]},
                   say=rng.choice([f"Charge {name} all the way to 100%; I've got a long drive tomorrow.",
                                   f"Raise {name}'s charge limit to 100 percent and start charging it.",
                                   f"I need a full battery in {name}. Set the limit to 100% and charge it."]),
                   terse=f"Limit 100%, start charging {name}.", refs=(_owner(b), _ref(b, v)), mentions=("100",),
                   prior=(("set_charge_limit", {"vehicle_id": v["vehicle_id"], "percent": 100}),))
    return Ask({"vehicle_id": v["vehicle_id"]},
               say=rng.choice([f"{name[:1].upper()}{name[1:]} is plugged in; start charging it.",
                               f"Please start charging {name}.", f"Can you kick off a charge on {name}?",
                               f"I plugged in {name} but it isn't charging. Start it, please."]),
               terse=f"Start charging {name}.", refs=(_owner(b), _ref(b, v)))


@goals.add("stop_charging", 1.5)
@_may_ask_which
def stop_charging(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, None, lambda v: v.get("charging"))
    if not cars:
        return None
    v = rng.choice(cars)
    name = car(b, v, rng)
    return Ask({"vehicle_id": v["vehicle_id"]},
               say=rng.choice([f"Stop charging {name}; I need to leave.", f"Please stop the charge on {name}.",
                               f"Electricity is expensive right now. Pause charging {name}."]),
               terse=f"Stop charging {name}.", refs=(_owner(b), _ref(b, v)))


# -- brakes, cruise control, display units ---------------------------------------------------------------

@goals.add("set_brake_pedal", 0.8)
@_may_ask_which
def set_brake_pedal(b: Bundle, rng: random.Random) -> Ask | None:
    roll = rng.random()
    moving = _vehicles(b, "park", lambda v: v["mph"] > 0)
    if moving and roll < 0.4:  # braking a moving car to a stop
        v = rng.choice(moving)
        name = car(b, v, rng)
        return Ask({"vehicle_id": v["vehicle_id"], "pressed": True},
                   say=rng.choice([f"Hit the brakes on {name} and hold them.",
                                   f"Brake {name} to a stop and keep the pedal down.",
                                   f"Press the brake pedal in {name} until we stop, and keep it pressed."]),
                   terse=f"Brake {name} to a stop.", refs=(_owner(b), _ref(b, v)))
    held = _vehicles(b, "park", lambda v: v["mph"] == 0 and v["brake_pedal"] == "pressed")
    if held and roll < 0.7:
        v = rng.choice(held)
        name = car(b, v, rng)
        return Ask({"vehicle_id": v["vehicle_id"], "pressed": False},
                   say=rng.choice([f"You can let go of the brake pedal in {name} now.",
                                   f"Release the brake pedal in {name}; it's parked.",
                                   f"Take the brake off in {name}, the pedal I mean."]),
                   terse=f"Release the brake pedal, {name}.", refs=(_owner(b), _ref(b, v)))
    cars = _vehicles(b, "active", lambda v: v["mph"] == 0 and v["brake_pedal"] == "released")
    if not cars:
        return None
    v = rng.choice(cars)
    name = car(b, v, rng)
    return Ask({"vehicle_id": v["vehicle_id"], "pressed": True},
               say=rng.choice([f"I'm about to start {name}. Press and hold the brake pedal for me.",
                               f"Hold the brake in {name}, please.",
                               f"Press the brake pedal down in {name} and keep it there for me."]),
               terse=f"Press the brake, {name}.", refs=(_owner(b), _ref(b, v)))


@goals.add("set_parking_brake", 1.2)
@_may_ask_which
def set_parking_brake(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.45:
        cars = [v for v in b["vehicles"] if v["plan"] in ("park", "fuel") and v["parking_brake"] == "released"]
        if cars:
            v = rng.choice(cars)
            name = car(b, v, rng)
            prior = (("set_speed", {"vehicle_id": v["vehicle_id"], "speed_mph": 0}),) if v["mph"] > 0 else ()
            say = rng.choice([f"Bring {name} to a stop and put the parking brake on.",
                              f"Stop {name} and set the parking brake."]) if prior else \
                rng.choice([f"Put the parking brake on in {name}.", f"Engage {name}'s parking brake, please; it's "
                            "parked on a hill.", f"Set the handbrake on {name}."])
            return Ask({"vehicle_id": v["vehicle_id"], "engaged": True}, say=say,
                       terse=f"{'Stop, ' if prior else ''}parking brake on, {name}.", refs=(_owner(b), _ref(b, v)),
                       prior=prior)
    # mostly by a driver sitting in a running car; a car switched off is started first
    cars = _vehicles(b, "active", lambda v: v["parking_brake"] == "engaged" and _drivable(v))
    if not cars:
        return None
    v = _prefer(cars, lambda c: c["ignition"] == "on", rng, share=0.9 if rng.random() < 0.7 else 0.0)
    name = car(b, v, rng)
    prior, level = _power(v, "on")
    if not level:
        prior = _press(v)  # the parking brake releases only with the brake pressed
    if level:
        say = _power_words(level, name, rng, prior) + "release the parking brake."
    elif prior and rng.random() < 0.5:
        say = rng.choice([f"Press the brake and release the parking brake in {name}.",
                          f"With the brake pedal down, take {name}'s parking brake off."])
    else:
        say = rng.choice([f"Release the parking brake in {name}.", f"Take the parking brake off in {name}, please.",
                          f"{_cap(name)}'s handbrake is still on. Release it."])
    return Ask({"vehicle_id": v["vehicle_id"], "engaged": False}, say=_cap(say),
               terse=f"{_terse_power(prior)}parking brake off, {name}.", refs=(_owner(b), _ref(b, v)), prior=prior)


def _cruising(v: dict) -> bool:
    return v["ignition"] == "on" and v["gear"] == "D" and v["mph"] >= 25


@goals.add("set_cruise_control", 1.2)
@_may_ask_which
def set_cruise_control(b: Bundle, rng: random.Random) -> Ask | None:
    on = _vehicles(b, "park", lambda v: v["cruise_control"]["on"])  # then brought to a stop and parked
    if on and rng.random() < 0.5:
        v = rng.choice(on)
        name = car(b, v, rng)
        return Ask({"vehicle_id": v["vehicle_id"], "on": False},
                   say=rng.choice([f"Turn off cruise control in {name}; I'll drive myself.",
                                   f"Switch the cruise control off in {name}.", f"Cancel cruise in {name}, please."]),
                   terse=f"Cruise off, {name}.", refs=(_owner(b), _ref(b, v)))
    cars = _vehicles(b, "active", lambda v: not v["cruise_control"]["on"] and _drivable(v) and len(_ready(v)) <= 1)
    if not cars:
        return None
    v = _prefer(cars, _cruising, rng, share=0.6)
    name = car(b, v, rng)
    if _cruising(v):
        return Ask({"vehicle_id": v["vehicle_id"], "on": True},
                   say=rng.choice([f"Turn on cruise control in {name}.", f"Set cruise control in {name} at this "
                                   "speed.", f"Engage cruise in {name}; hold the speed we're at."]),
                   terse=f"Cruise on, {name}.", refs=(_owner(b), _ref(b, v)))
    speed = rng.choice([45, 50, 55, 60, 65])
    ready = _ready(v)
    steps = _ready_words(ready, rng) + [f"get going at {speed} mph"]
    return Ask({"vehicle_id": v["vehicle_id"], "on": True},
               say=f"In {name}, {_listed(steps)}, then turn on cruise control.",
               terse=f"{_cap(', '.join(steps))}, cruise on, {name}.", refs=(_owner(b), _ref(b, v)),
               mentions=(str(speed),),
               prior=ready + (("set_speed", {"vehicle_id": v["vehicle_id"], "speed_mph": speed}),))


@goals.add("adjust_cruise_speed", 1.5)
def adjust_cruise_speed(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, "active", _cruising)
    if not cars:
        return None
    v = rng.choice(cars)
    name, unit = car(b, v, rng), units(v)
    # steps that keep cruise control within 20 to 85 mph from any speed an earlier request may set (25 to 70)
    steps = rng.choice([-1, 1, 1, 2, 3])
    mph_step = unit["step"] / KM_PER_MILE if v["display_units"] == "metric" else unit["step"]
    if not 20 <= v["mph"] + steps * mph_step <= 85:
        return None
    prior = () if v["cruise_control"]["on"] else (("set_cruise_control", {"vehicle_id": v["vehicle_id"], "on": True}),)
    by, way = abs(steps) * unit["step"], "up" if steps > 0 else "down"
    verb = "raise" if steps > 0 else "lower"
    if rng.random() < 0.6:
        core, mention = rng.choice([f"{verb} the cruise speed by {by} {unit['speed']}",
                                    f"take the cruise control {way} {by} {unit['speed']}"]), str(by)
    else:
        count = NUMBER_WORDS[abs(steps)]
        core = rng.choice([f"bump the cruise speed {way} {count} step{'s' if abs(steps) > 1 else ''}",
                           f"click the cruise control {way} {count} notch{'es' if abs(steps) > 1 else ''}"])
        mention = count
    if prior:  # "Turn on cruise control in my Model Y and take it up 5 mph", not "cruise control" twice
        core = core.replace("the cruise control", "it")
    say = (f"Turn on cruise control in {name} and {core}." if prior else
           rng.choice([f"In {name}, {core}.", f"{_cap(core)} in {name}, please."]))
    detail = None
    if rng.random() < 0.5:  # how far is said on its own
        say = (f"Turn on cruise control in {name} and change its speed." if prior else
               rng.choice([f"Change the cruise speed in {name}.", f"I want a different cruise speed in {name}."]))
        # the request named the cruise speed already: "Change the cruise speed in my Rivian. Bump it up one
        # step.", not "the cruise speed" again
        detail = f"{_cap(core.replace('the cruise speed', 'it').replace('the cruise control', 'it'))}."
    return Ask({"vehicle_id": v["vehicle_id"], "steps": steps}, say=say, detail=detail,
               terse=f"{'Cruise on, ' if prior else ''}{core}, {name}.", refs=(_owner(b), _ref(b, v)),
               mentions=(mention,), prior=prior)


@goals.add("set_following_distance", 0.6)
def set_following_distance(b: Bundle, rng: random.Random) -> Ask | None:
    found = _comfort(b, rng)
    if found is None:
        return None
    v, name, prior, lead = found
    distance = rng.choice([d for d in ("short", "medium", "long") if d != v["cruise_control"]["following_distance"]])
    core = rng.choice([f"set the following distance to {distance}.", f"make the cruise control's gap {distance}.",
                       f"set a {distance} following distance for cruise control."])
    say = lead + core if lead else rng.choice([f"In {name}, ", f"For {name}, please "]) + core
    detail = None
    if not lead and rng.random() < 0.5:
        say = rng.choice([f"Change the following distance in {name}.",
                          f"I want a different gap to the car ahead when {name} is on cruise control."])
        detail = rng.choice([f"{_cap(distance)}, please.", f"Make it {distance}.", f"The {distance} setting."])
    return Ask({"vehicle_id": v["vehicle_id"], "distance": distance}, say=_cap(say),
               terse=f"{_terse_power(prior)}following distance {distance}, {name}.", detail=detail,
               refs=(_owner(b), _ref(b, v)), mentions=(distance,), prior=prior)


@goals.add("set_display_units", 0.6)
def set_display_units(b: Bundle, rng: random.Random) -> Ask | None:
    found = _comfort(b, rng)
    if found is None:
        return None
    v, name, prior, lead = found
    target = "metric" if v["display_units"] == "imperial" else "imperial"
    # an electric car shows no fuel: its units are said without litres or gallons
    what = {"metric": "kilometres, litres and Celsius", "imperial": "miles, gallons and Fahrenheit"}[target]
    if v["powertrain"] == "electric":
        what = {"metric": "kilometres and Celsius", "imperial": "miles and Fahrenheit"}[target]
    core = rng.choice([f"switch the display to {target} units.", f"change the units on the screen to {target}.",
                       f"show everything in {target} units ({what})."])
    say = lead + core if lead else rng.choice([f"In {name}, ", f"On {name}'s display, please "]) + core
    detail = None
    if not lead and rng.random() < 0.5:
        say = rng.choice([f"I'd like {name}'s display in other units.", f"Change the unit system in {name}."])
        detail = rng.choice([f"{_cap(target)}, please.", f"Make it {target}: {what}."])
    return Ask({"vehicle_id": v["vehicle_id"], "units": target}, say=_cap(say),
               terse=f"{_terse_power(prior)}{target} units, {name}.", detail=detail, refs=(_owner(b), _ref(b, v)),
               mentions=(target,), prior=prior)


# -- the pump: refuelling --------------------------------------------------------------------------------

AMOUNTS = {"gallons": (3, 5, 8, 10, 12), "litres": (10, 15, 20, 30, 40)}


@goals.add("refuel", 1.0)
@_may_ask_which
def refuel(b: Bundle, rng: random.Random) -> Ask | None:
    cars = _vehicles(b, "fuel")
    if not cars:
        return None
    v = rng.choice(cars)
    name, fuel = car(b, v, rng), units(v)["fuel"]
    stop, stopping = _stop(v)
    prior = stop + ((("set_ignition", {"vehicle_id": v["vehicle_id"], "mode": "off"}),) if v["ignition"] != "off"
                    else ())
    lead = "" if not prior else (f"I'm pulling into the gas station with {name}: stop, park and switch it off, then "
                                 if stopping else f"I'm at the pump with {name}; switch it off, then ")
    args: dict[str, Any] = {"vehicle_id": v["vehicle_id"]}
    facts = lambda r: [reading(r, "added")]  # noqa: E731 - what went in, in the display's units
    if rng.random() < 0.45:
        core = rng.choice([f"fill it up. How many {fuel} did it take?", "fill the tank. How much went in?"])
        say = lead + core if lead else rng.choice([f"I'm at the pump with {name}. Fill it up; how many {fuel} did "
                                                   "it take?", f"Fill up {name}'s tank and tell me how much went in."])
        return Ask(args, say=_cap(say), terse=f"{'Stop, off, ' if prior else ''}fill up {name}; how much?",
                   refs=(_owner(b), _ref(b, v)), prior=prior, facts=facts)
    unit = fuel if rng.random() < 0.8 else ("litres" if fuel == "gallons" else "gallons")
    amount = rng.choice(AMOUNTS[unit])
    args |= {"amount": amount, "unit": unit}
    core = rng.choice([f"put {amount} {unit} in. How much went in?",
                       f"add {amount} {unit} of fuel, and tell me how much it took."])
    say = lead + core if lead else rng.choice([f"At the pump with {name}: put {amount} {unit} in, and tell me how "
                                               "much went in.", f"Add {amount} {unit} of fuel to {name}. How much "
                                               "did it take?"])
    return Ask(args, say=_cap(say), terse=f"{'Stop, off, ' if prior else ''}{amount} {unit} in {name}; how much?",
               refs=(_owner(b), _ref(b, v)), mentions=(str(amount), unit), prior=prior, facts=facts)


def _refuel_first(b: Bundle, rng: random.Random):
    """A gasoline car at the pump, switched off, that is filled up and put in accessory mode before a route:
    the car, its name, the calls that come first and the words that ask for them."""
    cars = _vehicles(b, "fuel", lambda v: v["ignition"] == "off")
    if not cars:
        return None
    v = rng.choice(cars)
    name = car(b, v, rng)
    prior = (("refuel", {"vehicle_id": v["vehicle_id"]}),
             ("set_ignition", {"vehicle_id": v["vehicle_id"], "mode": "accessory"}))
    lead = rng.choice([f"I'm at the pump with {name}. Fill it up, then switch it to accessory and ",
                       f"Fill up {name}'s tank first, then put it in accessory mode and "])
    return v, name, prior, lead


# -- places near the car, distances, postal addresses ------------------------------------------------------

@goals.add("find_nearby_places", 1.5)
@_may_ask_which
def find_nearby_places(b: Bundle, rng: random.Random) -> Ask | None:
    low = [v for v in b["vehicles"] if v["low_tyres"]]
    if low and rng.random() < 0.6:
        v = rng.choice(low)
        name, tyre = car(b, v, rng), v["low_tyres"][0].replace("_", " ")
        category = "tyre_shop"
        say = rng.choice([f"The tyre warning came on in {name}; the {tyre} tyre is low. Where's the nearest tyre "
                          "shop, and how far is it?",
                          f"My {tyre} tyre on {name} is losing air. Which tyre shop is closest to the car, and how "
                          "far away?",
                          f"{_cap(name)} has a soft {tyre} tyre. Find me the nearest tyre shop and its distance."])
        terse = f"Nearest tyre shop to {name}, and how far?"
    else:
        v = rng.choice(b["vehicles"])
        name = car(b, v, rng)
        category = rng.choice(["fuel_station" if v["powertrain"] == "gasoline" else "charging_station", "cafe",
                               "tyre_shop", "restaurant", "grocery"])
        one, _, some = CATEGORY_WORDS[category]
        say = rng.choice([f"What's the nearest {one} to {name}, and how far is it?",
                          f"Find me {some} close to where {name} is. Which is nearest, and how far?",
                          f"Where's the closest {one} to {name} right now, and how far away is it?"])
        terse = f"Nearest {one} to {name}, and how far?"
    return Ask({"vehicle_id": v["vehicle_id"], "category": category}, say=say, terse=terse,
               refs=(_owner(b), _ref(b, v)), facts=lambda r: [r[0]["name"], reading(r[0], "distance")])


@goals.add("get_distance", 0.4)
def get_distance(b: Bundle, rng: random.Random) -> Ask | None:
    return _home(_get_distance(b, rng))


def _get_distance(b: Bundle, rng: random.Random) -> Ask | None:
    """Between two of the owner's saved places ('from home to the gym'), a saved place and a place named by name
    and city, or two named places, now and then as a car whose display is metric gives it."""
    cities = sorted(c for c in b["cities"] if b["cities"][c])
    ends: list[tuple[dict, Ref, str]] = []
    saved = list(b["saved"])
    rng.shuffle(saved)
    for s in saved[:rng.choice([1, 2, 2, 2])]:
        ends.append(({"place_id": s["place_id"]}, Ref.of("saved_place", s, _owner(b)),
                     "home" if s["label"] == "Home" else f"my saved place '{s['label']}'"))
    pool = [p for p in b["nearby"] if p["place_id"] not in {e[0]["place_id"] for e in ends}]
    while len(ends) < 2:
        if pool and rng.random() < 0.7:
            place = pool.pop(rng.randrange(len(pool)))
        elif len(cities) >= 2:
            taken = {e[0].get("city") for e in ends}
            place = rng.choice(b["cities"][rng.choice([c for c in cities if c not in taken])])
        else:
            return None
        ends.append((place, _place_ref(place), place_words(place)))
    (first, ref_a, a), (second, ref_z, z) = ends if rng.random() < 0.5 else ends[::-1]
    if first["place_id"] == second["place_id"]:
        return None
    args = {"from_place_id": first["place_id"], "to_place_id": second["place_id"]}
    refs: tuple[Ref, ...] = (ref_a, ref_z)
    whose, distance = "", "miles"
    metric = [v for v in b["vehicles"] if v["display_units"] == "metric"]
    if metric and rng.random() < 0.15:  # as a car whose display is metric gives it
        v = rng.choice(metric)
        args["vehicle_id"], refs = v["vehicle_id"], (_owner(b), _ref(b, v)) + refs
        whose, distance = f" on {car(b, v, rng)}'s navigation", "km"
    say, detail = rng.choice([f"How far is it by road from {a} to {z}{whose}, and how long a drive?",
                              f"Check{whose or ' for me'}: how many {distance} from {a} to {z}, and the drive time?",
                              f"I'm planning a day out. What's the distance between {a} and {z}{whose}, and how "
                              "long does it take?"]), None
    if rng.random() < 0.4:  # where to is said on its own
        say = rng.choice([f"How far is it by road from {a}{whose}, and how long a drive?",
                          f"I'll be driving from {a}. How many {distance} is it{whose}, and the drive time?"])
        detail = rng.choice([f"To {z}.", f"I'm going to {z}.", f"The other end is {z}."])
    return Ask(args, say=say, detail=detail,
               terse=f"Distance and time, {a} to {z}{whose}?", refs=refs,
               facts=lambda r: [reading(r, "distance"), quantity(r["minutes"], "min")])


@goals.add("navigate_to_address", 1.0)
def navigate_to_address(b: Bundle, rng: random.Random) -> Ask | None:
    found = _refuel_first(b, rng) if rng.random() < 0.25 else None
    found = found or _comfort(b, rng, where=lambda v: v["miles"] >= MIN_ROUTE_RANGE)
    pool = [p for p in b["nearby"] if p["address_unique"]]
    if found is None or not pool:
        return None
    v, name, prior, lead = found
    place = rng.choice(pool)
    code = place["postal_code"]
    args: dict[str, Any] = {"vehicle_id": v["vehicle_id"], "postal_code": code}
    if rng.random() < 0.45:
        core = rng.choice([f"navigate to ZIP code {code}.", f"take me to the {code} area; that's the postal code.",
                           f"set the destination to postal code {code}."])
        target, mentions = f"ZIP code {code}", (code,)
    else:
        args["street"] = place["address"]
        core = rng.choice([f"navigate to {place['address']}, {code}.",
                           f"take me to {place['address']}, postal code {code}."])
        target, mentions = f"{place['address']}, {code}", (code, place["address"])
    if lead:
        say = lead + core
    else:
        opener = rng.choice([f"In {name}, ", f"For {name}, please "])
        if core.startswith("take me"):  # a car takes its driver somewhere: not "For my Jeep, please take me to"
            opener = opener if opener.startswith("In ") else f"Please, in {name}, "
        say = opener + core
    detail = None
    if not lead and rng.random() < 0.5:
        say = rng.choice([f"I need directions in {name} to an address.", f"Start navigation in {name}."])
        # "It's ..." points back at the address only where the request named one: after "Start navigation in
        # the white R1S." it reads first as where the car is
        detail = rng.choice([f"To {target}.", f"It's {target}." if say.endswith("to an address.")
                             else f"The destination is {target}.", f"The address is {target}."])
    return Ask(args, say=_cap(say), terse=f"{_terse_power(prior)}navigate {name} to {target}.", detail=detail,
               refs=(_owner(b), _ref(b, v)), mentions=mentions, prior=prior)


# -- who is asking ----------------------------------------------------------------------------------

_BY_NAME = ("Hi, this is {name}.", "My name is {name}.", "It's {name} here.", "Hey, it's {name}.", "I'm {name}.",
            "Hello, {name} here.", "This is {name}, I have the car app.", "This is {name} speaking.",
            "Hi, I'm {name}; my cars are connected to your service.", "Good morning, this is {name}.",
            "Hey there, {name} calling.", "This is {name}, one of your drivers.", "Hi, my name's {name}.",
            "It's {name}, calling about my car.")
_BY_NAME_TERSE = ("This is {name}.", "Name: {name}.", "It's {name}.", "Owner: {name}.")
_BY_EMAIL = ("My account email is {email}.", "Hi, I'm registered as {email}.", "You have me under {email}.",
             "The email on my car account is {email}.", "Look me up by my email, {email}.",
             "Hello, my login is {email}.", "I signed up for the car app with {email}.",
             "Find me under the email {email}.", "Hi there, I'm the owner registered as {email}.",
             "My cars are under {email}.", "You should have me on file as {email}.")
_BY_EMAIL_TERSE = ("Email: {email}.", "Account {email}.", "Login: {email}.")


def _my_cars(text: str, ref: Ref) -> str:
    """An introduction in the words of an owner of one car ('my car is connected', not 'my cars are')."""
    if ref.entity.get("cars", 2) > 1:
        return text
    return text.replace("my cars are", "my car is").replace("My cars are", "My car is")


def _by_name(ref: Ref) -> tuple[str, str]:
    name = ref.entity["name"]
    return (_my_cars(stable(_BY_NAME, "name", ref.key).format(name=name), ref),
            stable(_BY_NAME_TERSE, "terse", ref.key).format(name=name))


def _by_email(ref: Ref) -> tuple[str, str]:
    email = ref.entity["email"]
    return (_my_cars(stable(_BY_EMAIL, "email", ref.key).format(email=email), ref),
            stable(_BY_EMAIL_TERSE, "terse email", ref.key).format(email=email))


# No request is left to the hidden fleet_census: every count it gives (vehicles by ignition state and gear) is a
# sum the shown tools reach, find_owners with no name or email listing every owner and list_vehicles showing each
# car's ignition and gear. "How many cars across the fleet are being driven right now?" is answered that way, so
# declining it would teach the wrong thing.
FLEET_WIDE: tuple[HiddenAsk, ...] = ()


# Tools that do one another's job for some request (a vehicle's live state shows in the owner's
# vehicle list): a missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("get_vehicle_status", "list_vehicles"),
    # a street address in a postal code is a place; stopping holds the brake pedal, as pressing it brings a
    # moving car to a stop; cruise control's set speed is the speed set_speed sets while it is on
    ("start_navigation", "navigate_to_address"),
    ("set_speed", "set_brake_pedal", "adjust_cruise_speed"),
    # distances: from the car to a place, to the places near it, and between two places (a parked car stands
    # at a place)
    ("plan_route", "find_nearby_places", "get_distance"),
)


recipe = Recipe(
    server="vehicle",
    sample=sample,
    topics=("vehicle", "maps"),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("owner", "find_owners", args=lambda r: {"name": r.entity["name"]}, intro=_by_name),
        Lookup("owner", "find_owners", args=lambda r: {"email": r.entity["email"]}, intro=_by_email),
        Lookup.under("vehicle", "list_vehicles"),
        Lookup.under("saved_place", "list_saved_places"),
        Lookup("place", "search_places", args=_place_args, needs=lambda r: ()),
    ),
    hidden=FLEET_WIDE,
)
