"""How tasks are written for the smart home: owners who introduce themselves by name or email and
name their devices the way people do ("the kitchen pendant lights", "the front door lock", "the
Good night scene"), with values said the way people say them ("68 degrees", "40%", "halfway open").

Only commands a device would carry out are asked for here (online devices, the capability present,
values in range); the refusals are the hand-written tasks' and the domain tests' business. Each
home keeps a scene, an automation and a guest code aside for deletion, so no other request of the
same conversation uses what an earlier one removed; one automation is kept for running by hand
(every device it reaches can take its command) and another for switching on or off, so that a
request to run one never meets one another request disabled; thermostats are never switched off,
so a later request for a set point still finds one it can take. The automations' log and the
devices' history are asked about by what happened on named days, as people remember them."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from prove_env.facts import NOTHING, one_of, quantity
from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import clock, day, listing, stable

Bundle = dict[str, Any]

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
NEW_CODES = ("Dog walker", "Cleaner", "Babysitter", "Guest", "Grandma", "Contractor", "Neighbor", "Nanny",
             "Airbnb guest", "Plumber", "Handyman", "Pet sitter", "Aunt Rose", "House sitter")
NEW_SCENES = ("Reading time", "Dinner party", "Relax", "Focus", "Bedtime story", "Cozy evening", "Date night",
              "Game night", "Wind down")


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every home whose owner's name finds only it, with its rooms, devices, groups, scenes,
    automations and lock codes (digits included, as only the owner knows them)."""
    bundles = []
    for home in read("find_homes", limit=100):
        if len(read("find_homes", owner_name=home["owner_name"])) != 1:
            continue
        hid = home["home_id"]
        devices = [_full(read, d) for d in read("list_devices", home_id=hid)]
        codes = {d["device_id"]: read("reveal_lock_codes", device_id=d["device_id"])
                 for d in devices if d["type"] == "lock"}
        scenes = read("list_scenes", home_id=hid)
        automations = read("list_automations", home_id=hid)
        runs = read("list_automation_runs", home_id=hid, limit=100)
        reached = sorted({t["device_id"] for a in automations for t in a["devices"]})
        histories = {i: read("get_device_history", device_id=i, limit=100)["history"] for i in reached}
        first = home["owner_name"].split()[0]
        guest = [(lock, c) for lock, cs in codes.items() for c in cs if c["name"] != first
                 and _by_id(devices, lock)["online"]]
        bundles.append({
            "now": now, "home": home, "rooms": read("list_rooms", home_id=hid), "devices": devices,
            "groups": read("list_groups", home_id=hid), "scenes": scenes, "automations": automations,
            "codes": codes, "first": first, "runs": runs, "histories": histories,
            "drop_scene": rng.choice(scenes)["scene_id"] if scenes else None,
            "drop_automation": rng.choice(automations)["automation_id"] if automations else None,
            "drop_code": rng.choice(guest)[1]["code_id"] if guest else None,
        })
        _automation_roles(bundles[-1], rng)
    return bundles


def _automation_roles(b: Bundle, rng: random.Random) -> None:
    """The automation to run by hand (one whose every device would take its command now) and the one
    to switch on or off, never the same, nor the one set aside for deletion."""
    kept = [a for a in b["automations"] if a["automation_id"] != b["drop_automation"]]
    runnable = [a for a in kept if _runnable(b, a)]
    b["run_automation"] = rng.choice(runnable)["automation_id"] if runnable else None
    others = [a for a in kept if a["automation_id"] != b["run_automation"]]
    b["toggle_automation"] = rng.choice(others)["automation_id"] if others else None


def _runnable(b: Bundle, a: dict) -> bool:
    for target in a["devices"]:
        d = _by_id(b["devices"], target["device_id"])
        if not d["online"] or (a["command"] == "set_temperature" and d.get("mode") == "off"):
            return False
    return True


def _full(read: Reader, d: dict) -> dict:
    """A listed device with its capabilities, thermostat modes and auto-lock setting."""
    info = read("get_device", device_id=d["device_id"])
    return {**d, "caps": info["capabilities"], "modes": info.get("supported_modes", []),
            "auto_lock": info.get("auto_lock_minutes")}


def _by_id(devices: list[dict], device_id: str) -> dict:
    return next(d for d in devices if d["device_id"] == device_id)


def _online(b: Bundle, kind: str | None = None) -> list[dict]:
    return [d for d in b["devices"] if d["online"] and (kind is None or d["type"] == kind)]


# -- how people name things ------------------------------------------------------------------------

def _home(b: Bundle) -> Ref:
    return Ref.of("home", b["home"])


def _device(b: Bundle, d: dict) -> Ref:
    return Ref.of("device", d, _home(b))


def _owned(kind: str):
    return lambda b, entity: Ref.of(kind, entity, _home(b))


_room = _owned("room")


# The home's listings of groups, scenes and automations name each member device beside its id: a later
# request about one of those devices takes its id from there, with no look-up of the home's devices
# ("Members of Entertainment?", then "New scene: the dining room chandelier and speaker" where the
# chandelier is a member of another group the same listing showed).
def _ids(devices: Any) -> tuple[tuple[str, str], ...]:
    return tuple(dict.fromkeys(("device", d["device_id"]) for d in devices))


def _group_members(b: Bundle) -> tuple[tuple[str, str], ...]:
    """Every device the home's group listing shows (no request adds or removes a group)."""
    return _ids(d for g in b["groups"] for d in g["devices"])


def _scene_members(b: Bundle) -> tuple[tuple[str, str], ...]:
    """Every device the home's scene listing shows, but those of the scene another request may delete."""
    return _ids({"device_id": a["device_id"]} for s in b["scenes"] if s["scene_id"] != b["drop_scene"]
                for a in s["actions"])


def _automation_members(b: Bundle, enabled: bool | None = None) -> tuple[tuple[str, str], ...]:
    """Every device the home's automation listing shows (with `enabled`, the listing of those switched on
    or off: never the one another request switches), but those of the one another request may delete."""
    kept = [a for a in _keep_automations(b)
            if enabled is None or (a["enabled"] == enabled and a["automation_id"] != b["toggle_automation"])]
    return _ids(d for a in kept for d in a["devices"])


def _group(b: Bundle, group: dict) -> Ref:
    return Ref("group", group["group_id"], {**group, "shows": _group_members(b)}, _home(b))


def _scene(b: Bundle, scene: dict) -> Ref:
    return Ref("scene", scene["scene_id"], {**scene, "shows": _scene_members(b)}, _home(b))


def _automation(b: Bundle, automation: dict) -> Ref:
    return Ref("automation", automation["automation_id"], {**automation, "shows": _automation_members(b)},
               _home(b))


# The scene or automation set aside for deletion is looked up in the home's listing before it is
# deleted, so that listing shows every member device, its own included ("Delete the 'Lock up at
# night' automation", then the history of the back door lock it locks: the id stood in the listing).
def _doomed_scene(b: Bundle, scene: dict) -> Ref:
    shows = _ids({"device_id": a["device_id"]} for s in b["scenes"] for a in s["actions"])
    return Ref("scene", scene["scene_id"], {**scene, "shows": shows}, _home(b))


def _doomed_automation(b: Bundle, automation: dict) -> Ref:
    shows = _ids(d for a in b["automations"] for d in a["devices"])
    return Ref("automation", automation["automation_id"], {**automation, "shows": shows}, _home(b))


def _code_ref(b: Bundle, lock: dict, code: dict) -> Ref:
    return Ref("lock_code", code["code_id"], code, _device(b, lock))


def dev(d: dict, rng: random.Random | None = None) -> str:
    """'the kitchen pendant lights'; with rng sometimes 'my kitchen pendant lights'."""
    name = d["name"][0].lower() + d["name"][1:]
    name = name.replace("tV", "TV")
    if rng is not None and rng.random() < 0.35:
        return f"my {name}"
    return f"the {name}"


def _door(name: str) -> str:
    """A lock as a fact: the door it locks ('Front door' of 'Front door lock'), which an answer says
    whether it names the lock ('the Front door lock is locked') or the door ('the front door and
    the back door are locked')."""
    return name[:-len(" lock")] if name.lower().endswith(" lock") and len(name) > len(" lock") else name


def _plural(d: dict) -> bool:
    """Whether a device's name is a plural ('the kitchen pendant lights', 'the living room blinds')."""
    return d["name"].endswith("s") and not d["name"].endswith("ss")


def it(d: dict) -> str:
    """The pronoun for a device: 'them' for the kitchen pendant lights, 'it' for a lamp."""
    return "them" if _plural(d) else "it"


def degrees(value: float) -> str:
    return f"{value:g} degrees"


def percent(value: int) -> str:
    return f"{value}%"


def position_words(p: int) -> str:
    return {0: "fully closed", 50: "halfway open", 100: "fully open"}.get(p, f"{p}% open")


def _span(start: dt.date, end: dt.date) -> str:
    return day(start) if start == end else f"{day(start)} to {day(end)}"


def _period(b: Bundle, rng: random.Random, most_back: int, ends_yesterday: bool = False) -> tuple[dt.date, dt.date, str]:
    """A period of whole days in the history: plugs' days are complete only up to yesterday."""
    today = b["now"].date()
    end = today - dt.timedelta(days=rng.randint(1 if ends_yesterday else 0, 2))
    start = end - dt.timedelta(days=rng.randint(0, min(4, most_back - (today - end).days)))
    if start == end:
        said = rng.choice([f"on {day(start)}", f"for {day(start)}"])
    else:
        said = rng.choice([f"from {day(start)} to {day(end)}", f"between {day(start)} and {day(end)}",
                           f"for {day(start)} through {day(end)}"])
    return start, end, said


def _after_verb(said: str) -> str:
    """The period said after a verb of use: 'consumed on December 5', 'used from December 1 through
    December 3', not 'consumed for December 5' (the 'for' of `_period` fits a noun: 'the total for ...')."""
    if not said.startswith("for "):
        return said
    return ("from " if " through " in said else "on ") + said[4:]


def _held(said: str, start: dt.date, end: dt.date, rng: random.Random) -> str:
    """The sentence that gives a period held back from the request (`said`: the period with its
    preposition, 'on August 9'; after 'Look at' the days stand bare: 'Look at August 9 to August 10')."""
    span = _span(start, end)
    return rng.choice([f"I'm thinking of {span}.", f"{said[0].upper()}{said[1:]}, please.", f"Look at {span}.",
                       f"The period is {span}." if start != end else f"The day is {span}."])


# -- goals: questions ---------------------------------------------------------------------------------

goals = Goals()


@goals.add("get_device", 1.2)
def get_device(b: Bundle, rng: random.Random) -> Ask | None:
    """The home's device list (the look-up that finds a device by its name) already shows each
    device's state: its brightness, set point, temperature, battery and readings. A question for
    one device asks for what only the device in full holds: its make and model, when an offline
    one was last seen, a lock's auto-lock delay, a thermostat's modes."""
    d = rng.choice(b["devices"])
    name, args, refs = dev(d, rng), {"device_id": d["device_id"]}, (_device(b, d),)
    many = _plural(d)  # 'the kitchen pendant lights aren't responding'
    roll = rng.random()
    if not d["online"] and roll < 0.5:
        return Ask(args, say=rng.choice([f"{name.capitalize()} {'aren' if many else 'isn'}'t responding. When "
                                         f"{'were they' if many else 'was it'} last seen online?",
                                         f"When did {name} last check in with the hub?",
                                         f"How long {'have' if many else 'has'} {name} been offline? When "
                                         f"{'were they' if many else 'was it'} last seen?"]),
                   terse=f"{name.capitalize()}: last seen when?", refs=refs, facts=lambda r: [r["last_seen"]])
    if d["type"] == "lock" and d["auto_lock"] and roll < 0.6:
        return Ask(args, say=rng.choice([f"How long does {name} wait before locking itself?",
                                         f"How many minutes after an unlock does {name} wait before it locks again?"]),
                   terse=f"Auto-lock delay of {name}?", refs=refs,
                   facts=lambda r: [quantity(r["auto_lock_minutes"], "min")])
    if d["type"] == "thermostat" and d["modes"] and roll < 0.6:
        return Ask(args, say=rng.choice([f"Which modes can {name} run in?",
                                         f"What modes does {name} support?"]),
                   terse=f"Modes of {name}?", refs=refs, facts=lambda r: r["supported_modes"])
    return Ask(args, say=rng.choice([f"What make and model {'are' if many else 'is'} {name}?",
                                     f"I need a spare for {name}. Who makes {it(d)}, and which model "
                                     f"{'are they' if many else 'is it'}?",
                                     f"Could you tell me the brand and model of {name}?"]),
               terse=f"Make and model of {name}?", refs=refs, facts=lambda r: [r["manufacturer"], r["model"]])


@goals.add("list_devices", 1.0)
def list_devices(b: Bundle, rng: random.Random) -> Ask | None:
    hid = b["home"]["home_id"]
    roll = rng.random()
    if roll < 0.3:
        offline = [d["name"] for d in b["devices"] if not d["online"]]
        if not offline:
            return None
        # the home's whole list, as a device look-up makes it: a filtered listing after one tells
        # nothing the look-up's result did not (each device's `online`), and a request after the
        # look-up is then not drawn (the chain already makes that call); each device is stated as a
        # scene's member is ('the smoke detector in the kitchen' of "Kitchen smoke detector")
        return Ask({"home_id": hid},
                   say=rng.choice(["Which of my devices are offline right now?",
                                   "Some things aren't responding. Which devices have dropped off the network?",
                                   "Can you tell me which devices in my house are currently offline?",
                                   "Is anything in the house disconnected? Name the offline devices, please."]),
                   terse="Offline devices?", refs=(_home(b),),
                   facts=lambda r: [_member(b, d["device_id"], d["name"]) for d in r if not d["online"]][:6])
    if roll < 0.55:
        lit = [d for d in b["devices"] if d["type"] == "light" and d.get("is_on")]
        if len(lit) < 3:  # a request earlier in the conversation may switch one off
            return None
        return Ask({"home_id": hid},
                   say=rng.choice(["Which lights are on at home right now?",
                                   "I think I left some lights on. Which ones are on?",
                                   "Could you check which of my lights are currently switched on?",
                                   "Tell me which lights in the house are on, please."]),
                   terse="Which lights are on?", refs=(_home(b),),
                   facts=lambda r: [_member(b, d["device_id"], d["name"]) for d in r
                                    if d["type"] == "light" and d.get("is_on")][:6])
    if roll < 0.7:
        if not any(d["type"] == "lock" for d in b["devices"]):
            return None
        return Ask({"home_id": hid},
                   say=rng.choice(["Which door locks do I have, and is each one locked?",
                                   "Before I go to bed, could you go through my door locks and tell me whether each one is locked?",
                                   "Can you check every door lock I have and say whether it's locked?"]),
                   terse="Each lock: locked or not?", refs=(_home(b),),
                   facts=lambda r: [_door(d["name"]) for d in r if d["type"] == "lock"])
    rooms = [r for r in b["rooms"] if 2 <= r["devices"] <= 5]
    if not rooms:
        return None
    room = rng.choice(rooms)
    where = room["name"].lower()
    at = "on the" if where == "porch" else "in the"
    # the home's whole list, as the device look-up makes it: each device there names its room, so one
    # call answers it (a room look-up, then the list filtered by the room's id, is the longer route and
    # still matches it); each device is stated by its name or by its name without the room's
    # ('the pendant lights' of "Kitchen pendant lights"), the question having named the room
    return Ask({"home_id": hid},
               say=rng.choice([f"What devices do I have {at} {where}?", f"List everything set up {at} {where}.",
                               f"Which smart devices are {at} {where}?",
                               f"Remind me what's connected {at} {where}, would you?",
                               f"Can you tell me which devices are set up {at} {where}?",
                               f"I'd like a list of what's connected {at} {where}."]),
               terse=f"Devices {at} {where}?", refs=(_home(b),), mentions=(where,),
               facts=lambda r: _in_room([d["name"] for d in r if d["room_id"] == room["room_id"]], room["name"]))


def _in_room(names: list[str], room: str) -> list[Any]:
    """The devices of a room the user named, as facts: each by its name, or by its name without the
    room's ('pendant lights' of "Kitchen pendant lights"), which an answer that heads the list with the
    room says; a short name that another device of the room's name holds ('light' of "Garage light"
    beside "Garage ceiling light") is not a fact of its own, so it is said in full."""
    return [_named(name, room, names) for name in names]


def _named(name: str, room: str, names: list[str]) -> Any:
    """A device the answer names, as a fact: its name, or its name without its room's ('freezer plug'
    of "Garage freezer plug", 'the TV plug in the living room'), where no other of `names` holds that
    short name as words."""
    rest = name[len(room) + 1:] if name.casefold().startswith(room.casefold() + " ") else ""
    if len(rest) >= 3 and not any(other != name and f" {rest.casefold()} " in f" {other.casefold()} "
                                  for other in names):
        return one_of(name, rest)
    return name


@goals.add("list_rooms", 0.4)
def list_rooms(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({"home_id": b["home"]["home_id"]},
               say=rng.choice(["Which rooms are set up in my home?", "What rooms does my smart home have?",
                               "Can you list the rooms in my house for me?"]),
               terse="My rooms?", refs=(_home(b),), facts=lambda r: [x["name"] for x in r])


@goals.add("list_lock_codes", 0.7)
def list_lock_codes(b: Bundle, rng: random.Random) -> Ask | None:
    locks = [d for d in b["devices"] if d["type"] == "lock" and len(b["codes"][d["device_id"]]) > 1]
    if not locks:
        return None
    lock = rng.choice(locks)
    name = dev(lock, rng)
    codes = b["codes"][lock["device_id"]]
    if sum(c["status"] == "expired" and c["code_id"] != b["drop_code"] for c in codes) >= 1 and rng.random() < 0.6:
        return Ask({"device_id": lock["device_id"]},
                   say=rng.choice([f"Which codes on {name} have expired?",
                                   f"Whose codes on {name} don't work any more because they expired?",
                                   f"Can you tell me which of the codes on {name} are expired?"]),
                   terse=f"Expired codes on {name}?", refs=(_device(b, lock),),
                   facts=lambda r: [c["name"] for c in r if c["status"] == "expired"])
    # Who has a code: the people whose code works. An expired code lets nobody in, so an answer that
    # names the active ones alone is as right as one listing every code with its status. At least one
    # active code is someone else's than the owner's (their own is no fact to tell them) and not the
    # one set aside for deletion.
    if not any(c["status"] == "active" and c["name"] != b["first"] and c["code_id"] != b["drop_code"]
               for c in codes):
        return None
    return Ask({"device_id": lock["device_id"]},
               say=rng.choice([f"Who has a code for {name}?", f"Which people have codes on {name}?",
                               f"List just the names of the codes set on {name}."]),
               terse=f"Codes on {name}?", refs=(_device(b, lock),),
               facts=lambda r: [c["name"] for c in r if c["status"] == "active"])


def _history_devices(b: Bundle) -> list[dict]:
    return [d for d in b["devices"] if d["type"] == "plug" or (d["type"] == "sensor")]


@goals.add("get_sensor_readings", 0.9)
def get_sensor_readings(b: Bundle, rng: random.Random) -> Ask | None:
    sensors = [d for d in b["devices"] if d["type"] == "sensor" and d["sensor"] in ("temperature", "humidity")]
    # When a door last opened: the device list shows a door sensor's newest reading, which is
    # mostly the door closing again (a motion sensor's newest reading is its last event, shown
    # there already). The history as it comes by default: the user names no number of readings.
    doors = [d for d in b["devices"] if d["type"] == "sensor" and d["sensor"] == "contact" and d["reading_at"]]
    if doors and rng.random() < 0.35:
        d = rng.choice(doors)
        name = dev(d)
        return Ask({"device_id": d["device_id"]},
                   say=rng.choice([f"When did the door last open, according to {name}?",
                                   f"Can you check when {name} last saw the door open?"]),
                   terse=f"Last door opening on {name}?", refs=(_device(b, d),), facts=_last_event)
    if not sensors:
        return None
    d = rng.choice(sensors)
    n = rng.choice([2, 3, 4, 5])
    name, count = dev(d, rng), NUMBER_WORDS[n]
    # the number of readings is said with the request, never held back: the history has a default
    return Ask({"device_id": d["device_id"], "limit": n},
               say=rng.choice([f"What were the last {count} readings from {name}?",
                               f"Show me the {count} most recent values {name} recorded.",
                               f"Could you pull up the latest {count} readings of {name}?",
                               f"I'd like to see how {name} has been trending: give me its last {count} readings."]),
               terse=f"Last {count} readings of {name}?", refs=(_device(b, d),), mentions=(count,),
               facts=lambda r: [x["value"] for x in r["readings"]])


def _last_event(r: dict) -> list[Any]:
    """When a motion or contact sensor last fired: its newest reading of 1 (a 0 clears it: for a
    door sensor, the door closing)."""
    return next(([x["at"]] for x in r["readings"] if x["value"] == 1), [])


def _unsaid(said: str | None) -> tuple[str, str]:
    """The period at the end of a request, with its space, and after a verb of use ('...use from July 7
    to July 11'); both empty for a period held back: its days follow as a sentence of their own, in
    the same message or the next ('How much energy did X use? The period is July 7 to July 11.'),
    never after a vague word they contradict ('... use lately? The period is ...')."""
    if said is None:
        return "", ""
    return f" {said}", f" {_after_verb(said)}"


@goals.add("get_reading_summary", 1.0)
def get_reading_summary(b: Bundle, rng: random.Random) -> Ask | None:
    """A sensor's readings over days. A plug's energy is asked through get_energy_summary, which lists
    every plug of the home in one call after the home's look-up (no device look-up first)."""
    candidates = [d for d in _history_devices(b) if d["type"] == "sensor" and d["sensor"] != "smoke"]
    if not candidates:
        return None
    d = rng.choice(candidates)
    kind = d["sensor"]
    start, end, said = _period(b, rng, 6)
    args = {"device_id": d["device_id"], "start_date": start.isoformat(), "end_date": end.isoformat()}
    name, refs, mentions = dev(d, rng), (_device(b, d),), (day(start), day(end))
    held = _held(said, start, end, rng) if rng.random() < 0.6 else None
    at, after = _unsaid(None if held else said)
    if kind in ("temperature", "humidity"):
        if not d["reading_at"] or d["reading_at"][:10] < start.isoformat():
            return None  # offline since before the period: it recorded nothing then
        pick = rng.choice(["highest", "lowest", "average"])
        word = {"highest": "highest", "lowest": "lowest", "average": "average"}[pick]
        return Ask(args, say=rng.choice([f"What was the {word} {kind} {name} recorded{after}?",
                                         f"Could you tell me the {word} {kind} reading from {name}{at}?",
                                         f"{said[:1].upper()}{said[1:]}, what was the {word} {kind} on {name}?"
                                         if not held else f"Tell me the {word} {kind} on {name}."]),
                   terse=f"{word.capitalize()} {kind} on {name}, {_span(start, end)}?", refs=refs, detail=held,
                   mentions=mentions, facts=lambda r: [r[pick]] if r[pick] is not None else [])
    what = "motion events" if kind == "motion" else "door openings"
    return Ask(args, say=rng.choice([f"How many {what} did {name} log{after}?",
                                     f"Can you count the {what} on {name}{at}?"]),
               terse=f"Count of {what} on {name}, {_span(start, end)}?", refs=refs, mentions=mentions,
               detail=held, facts=lambda r: [r["events"] or NOTHING])  # "none" says a 0 as well


@goals.add("get_energy_summary", 1.2)
def get_energy_summary(b: Bundle, rng: random.Random) -> Ask | None:
    plugs = [d for d in b["devices"] if d["type"] == "plug"]
    if not plugs:
        return None
    start, end, said = _period(b, rng, 13, True)
    args = {"home_id": b["home"]["home_id"], "start_date": start.isoformat(), "end_date": end.isoformat()}
    held = _held(said, start, end, rng) if rng.random() < 0.6 else None
    at, after = _unsaid(None if held else said)
    which = rng.random()
    if which < 0.35:  # one plug's use: its line of the home's summary
        d = rng.choice(plugs)
        name, pid = dev(d, rng), d["device_id"]
        return Ask(args, say=rng.choice([f"How much energy did {name} use{after}?",
                                         f"What was the total kWh on {name}{at}?",
                                         f"I want to know what {name} consumed{after}, in kilowatt-hours."]),
                   terse=f"Energy use of {name} in kWh, {_span(start, end)}?", refs=(_home(b),), detail=held,
                   mentions=(day(start), day(end)),
                   facts=lambda r: [quantity(e["kwh"], "kWh") for e in r["devices"] if e["device_id"] == pid])
    if which < 0.675:
        return Ask(args, say=rng.choice([f"How much electricity did my smart plugs use in total{after}?",
                                         f"What's the total energy use of my plugs{at}?",
                                         f"Could you add up the kWh my plugs used{after}?"]),
                   terse=f"Total plug energy, {_span(start, end)}?", refs=(_home(b),), detail=held,
                   mentions=(day(start), day(end)), facts=lambda r: [quantity(r["total_kwh"], "kWh")])
    return Ask(args, say=rng.choice([f"Which of my plugs used the most energy{after}, and how much?",
                                     f"{said[:1].upper()}{said[1:]}, what was the biggest energy user among my plugs, "
                                     f"and how much did it use?" if not held else
                                     "What was the biggest energy user among my plugs, and how much did it use?",
                                     f"Tell me the top energy-consuming plug{at} and its kWh."]),
               terse=f"Top plug by energy, {_span(start, end)}?", refs=(_home(b),), detail=held,
               mentions=(day(start), day(end)),
               facts=lambda r: [_top_plug(b, r["devices"][0]), quantity(r["devices"][0]["kwh"], "kWh")])


def _top_plug(b: Bundle, entry: dict) -> Any:
    """The plug that used the most, by its name or by its name without its room's ('the freezer plug',
    'your TV plug in the living room'), the short name being no other device's of the home."""
    room = _by_id(b["devices"], entry["device_id"])["room"]
    return _named(entry["name"], room, [d["name"] for d in b["devices"]])


def _member(b: Bundle, device_id: str, name: str) -> Any:
    """A device of a group or scene, as a fact: its name, or its name without its room's (an answer that
    lists the members by room: 'the ceiling light and floor lamp in the living room'), the short name
    being no other device's of the home; or its name without its room's followed by the room ('the lamp
    in the guest bedroom' of "Guest bedroom lamp"), which names it even where the short name is shared;
    a lock also by the door it locks ('locks the front door' of "Front door lock")."""
    device = _by_id(b["devices"], device_id)
    room = device["room"]
    fact = _named(name, room, [d["name"] for d in b["devices"]])
    forms = fact["one_of"] if isinstance(fact, dict) else [fact]
    rest = name[len(room) + 1:] if name.casefold().startswith(room.casefold() + " ") else ""
    if len(rest) >= 3:
        forms.append(f"{rest} in the {room.casefold()}")
    if device["type"] == "lock" and _door(name) != name:  # "... and locks the front door"
        forms.append(_door(name))
    return one_of(*forms) if len(forms) > 1 else forms[0]


@goals.add("list_groups", 0.6)
def list_groups(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["groups"]:
        return None
    group = rng.choice(b["groups"])
    gid = group["group_id"]
    return Ask({"home_id": b["home"]["home_id"]},
               say=rng.choice([f"Which devices are in my {group['name']} group?",
                               f"What's included in the '{group['name']}' group?",
                               f"Remind me what the {group['name']} group controls."]),
               terse=f"Members of {group['name']}?", refs=(_home(b),), mentions=(group["name"],),
               settles=_group_members(b),
               # read off the group's own entry: facts that ignored the result would be "found" in any
               # earlier entry of the home (its look-up), and the listing dropped as shown before
               facts=lambda r: [_member(b, d["device_id"], d["name"])
                                for g in r if g["group_id"] == gid for d in g["devices"]])


@goals.add("list_scenes", 0.6)
def list_scenes(b: Bundle, rng: random.Random) -> Ask | None:
    scenes = [x for x in b["scenes"] if x["scene_id"] != b["drop_scene"]]
    if not scenes:
        return None
    scene = rng.choice(scenes)
    sid = scene["scene_id"]
    return Ask({"home_id": b["home"]["home_id"]},
               say=rng.choice([f"Which devices does my {scene['name']} scene control?",
                               f"What does the '{scene['name']}' scene change?",
                               f"Remind me which devices the {scene['name']} scene touches."]),
               terse=f"Devices in the {scene['name']} scene?", refs=(_home(b),), mentions=(scene["name"],),
               settles=_scene_members(b),
               # every device the scene touches: cut short, an answer that forgets one would pass
               facts=lambda r: [_member(b, i, name) for i, name in dict.fromkeys(
                   (a["device_id"], a["device"]) for s in r if s["scene_id"] == sid for a in s["actions"])])


@goals.add("list_automations", 0.8)
def list_automations(b: Bundle, rng: random.Random) -> Ask | None:
    kept = _keep_automations(b)
    steady = [a for a in kept if a["automation_id"] not in (b["toggle_automation"], b["run_automation"])]
    timed = [a for a in steady if a["enabled"] and a["trigger"] == "time"]
    paused = [a for a in steady if not a["enabled"]]
    if (timed or paused) and rng.random() < 0.45:
        a = rng.choice(timed + paused)
        name, aid = a["name"], a["automation_id"]
        if a["enabled"]:
            return Ask({"home_id": b["home"]["home_id"]},
                       say=rng.choice([f"When is my '{name}' automation going to run next?",
                                       f"What's the next time {name} will kick in?",
                                       f"Can you tell me when the {name} automation runs next?"]),
                       terse=f"Next run of {name}?", refs=(_home(b),), mentions=(name,),
                       settles=_automation_members(b),
                       facts=lambda r: [x["next_run"] for x in r if x["automation_id"] == aid])
        return Ask({"home_id": b["home"]["home_id"]},
                   say=rng.choice([f"When did my '{name}' automation get switched off?",
                                   f"Since when has {name} been disabled?",
                                   f"I noticed {name} isn't running. When was it turned off?"]),
                   terse=f"When was {name} disabled?", refs=(_home(b),), mentions=(name,),
                   settles=_automation_members(b),
                   facts=lambda r: [x["disabled_at"] for x in r if x["automation_id"] == aid])
    states = [s for s in (True, False) if sum(a["enabled"] == s for a in kept) >= 2]
    if not states:  # another request may flip or delete one: at least two must remain either way
        return None
    enabled = rng.choice(states)
    word = "turned on" if enabled else "switched off"
    return Ask({"home_id": b["home"]["home_id"], "enabled": enabled},
               say=rng.choice([f"Which of my automations are {word}?",
                               f"Can you list the automations that are currently {word}?",
                               f"I can't remember which automations I have {word}. Which are they?"]),
               terse=f"Automations {word}?", refs=(_home(b),), settles=_automation_members(b, enabled),
               facts=lambda r: [a["name"] for a in r])


# -- goals: switching and setting ------------------------------------------------------------------------


def _switchable(b: Bundle) -> list[dict]:
    return [d for d in _online(b) if d["type"] in ("light", "plug", "speaker", "camera")]


@goals.add("turn_on", 1.0)
def turn_on(b: Bundle, rng: random.Random) -> Ask | None:
    off = [d for d in _switchable(b) if not d["is_on"]]
    if not off:
        return None
    d = rng.choice(off)
    name = dev(d, rng)
    return Ask({"device_id": d["device_id"]},
               say=rng.choice([f"Please turn on {name}.", f"Can you switch {name} on?", f"Turn {name} on for me.",
                               (f"It's dark in here; could you put {name} on?" if d["type"] == "light"
                                else f"Could you put {name} on?"),
                               f"I'd like {name} on, please.", f"Would you mind switching on {name}?"]),
               # the terse form keeps its verb: "The kitchen pendant lights off." reads as saying how they are
               terse=f"Turn on {name}.", refs=(_device(b, d),))


@goals.add("turn_off", 1.0)
def turn_off(b: Bundle, rng: random.Random) -> Ask | None:
    on = [d for d in _switchable(b) if d["is_on"]]
    if not on:
        return None
    d = rng.choice(on)
    name = dev(d, rng)
    return Ask({"device_id": d["device_id"]},
               say=rng.choice([f"Please turn off {name}.", f"Can you switch {name} off?",
                               f"I left {name} on. Turn {it(d)} off, please.", f"Shut {name} off for me.",
                               f"Could you kill {name}? Nobody's using {it(d)}.", f"Switch off {name}, would you?"]),
               terse=f"Turn off {name}.", refs=(_device(b, d),))


@goals.add("set_brightness", 1.0)
def set_brightness(b: Bundle, rng: random.Random) -> Ask | None:
    lights = [d for d in _online(b, "light") if "brightness" in d]
    if not lights:
        return None
    d = rng.choice(lights)
    level = rng.choice([10, 20, 25, 30, 40, 50, 60, 75, 80, 100])
    if level == d["brightness"] and d["is_on"]:
        return None
    name, said = dev(d, rng), percent(level)
    if rng.random() < 0.6:
        return Ask({"device_id": d["device_id"], "brightness": level},
                   say=rng.choice([f"I'd like to change how bright {name} {'are' if _plural(d) else 'is'}.", f"Can you adjust the brightness of {name}?",
                                   f"{name.capitalize()} {'are' if _plural(d) else 'is'} not at the right brightness; could you change that?"]),
                   detail=rng.choice([f"Make it {said}.", f"{said.capitalize()}, please.", f"Set it to {said}."]),
                   terse=f"{name.capitalize()} to {said}.", refs=(_device(b, d),), mentions=(said,))
    # the verb fits the change: "dim" only a light that is on and brighter than asked, "turn up" one
    # that is on and dimmer, and a light that is off is turned on at the level ("Dim the desk lamp to
    # 100%" was said of a lamp off at 10%)
    if not d["is_on"]:
        move = f"Turn on {name} at {said}, please."
    elif level < d["brightness"]:
        move = f"Dim {name} to {said}, please."
    else:
        move = f"Turn {name} up to {said}, please."
    return Ask({"device_id": d["device_id"], "brightness": level},
               say=rng.choice([f"Set {name} to {said} brightness.", move,
                               f"Could you put {name} at {said}?", f"I'd like {name} at {said} brightness.",
                               f"Make {name} {said} bright, would you?"]),
               # the terse forms say "to" ("My kitchen pendant lights 100%." reads as how they are)
               terse=f"{name.capitalize()} to {said}.", refs=(_device(b, d),), mentions=(said,))


@goals.add("set_color_temperature", 0.8)
def set_color_temperature(b: Bundle, rng: random.Random) -> Ask | None:
    lights = [d for d in _online(b, "light") if "color_temp" in d["caps"]]
    if not lights:
        return None
    d = rng.choice(lights)
    kelvin, words = rng.choice([(2700, "warm white"), (3000, "soft white"), (4000, "neutral white"),
                                (5000, "daylight")])
    if kelvin == d.get("color_temp") and d["is_on"] and "color" not in d:
        return None
    name = dev(d, rng)
    if rng.random() < 0.6:
        return Ask({"device_id": d["device_id"], "kelvin": kelvin},
                   say=rng.choice([f"Could you change the white tone of {name}?",
                                   f"I want a different colour temperature on {name}."]),
                   detail=rng.choice([f"{kelvin} K, please.", f"Make it {kelvin} kelvin.", f"Set it to {kelvin}K."]),
                   terse=f"{name.capitalize()} to {kelvin}K.", refs=(_device(b, d),), mentions=(str(kelvin),))
    return Ask({"device_id": d["device_id"], "kelvin": kelvin},
               say=rng.choice([f"Set {name} to {kelvin} K.", f"Make {name} {words}, {kelvin} kelvin please.",
                               f"Could you change {name}'s colour temperature to {kelvin}K?",
                               f"I want {name} at {kelvin} kelvin ({words})."]),
               terse=f"{name.capitalize()} to {kelvin}K.", refs=(_device(b, d),), mentions=(str(kelvin),))


@goals.add("set_color", 0.8)
def set_color(b: Bundle, rng: random.Random) -> Ask | None:
    lights = [d for d in _online(b, "light") if "color" in d["caps"]]
    if not lights:
        return None
    d = rng.choice(lights)
    color = rng.choice(["red", "orange", "yellow", "green", "blue", "purple", "pink"])
    if color == d.get("color") and d["is_on"]:
        return None
    name = dev(d, rng)
    if rng.random() < 0.6:
        return Ask({"device_id": d["device_id"], "color": color},
                   say=rng.choice([f"Can you change the colour of {name}?", f"I'd like {name} in a different colour."]),
                   detail=rng.choice([f"Make it {color}.", f"{color.capitalize()}, please.", f"Let's go with {color}."]),
                   terse=f"{name.capitalize()} to {color}.", refs=(_device(b, d),), mentions=(color,))
    return Ask({"device_id": d["device_id"], "color": color},
               say=rng.choice([f"Turn {name} {color}.", f"Can you make {name} glow {color}?",
                               f"Set {name} to {color}, please.", f"I'd love {name} in {color}."]),
               terse=f"{name.capitalize()} to {color}.", refs=(_device(b, d),), mentions=(color,))


@goals.add("set_thermostat_mode", 0.8)
def set_thermostat_mode(b: Bundle, rng: random.Random) -> Ask | None:
    thermostats = _online(b, "thermostat")
    if not thermostats:
        return None
    d = rng.choice(thermostats)
    modes = [m for m in ("heat", "cool", "auto") if m != d["mode"] and m in d["modes"]]
    if not modes:
        return None
    mode = rng.choice(modes)
    name = dev(d, rng)
    phrase = {"heat": "heating", "cool": "cooling", "auto": "auto"}[mode]
    # the mode said on its own after the request is dropped when the user's words hold it already, even
    # inside another word ('auto' in every "automation", 'heat' in "space heater"): the request would
    # then name no mode, so such a mode is said in the request itself
    inside = "auto" if mode == "auto" else next((mode for x in (*b["devices"], *b["automations"])
                                                 if mode in x["name"].lower()), None)
    if inside is None and rng.random() < 0.6:
        return Ask({"device_id": d["device_id"], "mode": mode},
                   say=rng.choice([f"Can you change the mode on {name}?", f"I'd like {name} in another mode."]),
                   detail=rng.choice([f"{mode.capitalize()} mode, please.", f"Put it on {phrase}.",
                                      f"Switch it to {mode}."]),
                   terse=f"{name.capitalize()}: {mode}.", refs=(_device(b, d),), mentions=(mode,))
    return Ask({"device_id": d["device_id"], "mode": mode},
               say=rng.choice([f"Switch {name} to {mode} mode.", f"Put {name} on {phrase}, please.",
                               f"Could you set {name} to {mode}?", f"I'd like {name} in {mode} mode now."]),
               terse=f"{name.capitalize()}: {mode}.", refs=(_device(b, d),), mentions=(mode,))


@goals.add("set_temperature", 1.2)
def set_temperature(b: Bundle, rng: random.Random) -> Ask | None:
    thermostats = _online(b, "thermostat")
    if not thermostats:
        return None
    d = rng.choice(thermostats)
    target = rng.choice([62, 64, 65, 66, 68, 69, 70, 71, 72, 73, 75])
    if target == d["target_temp"]:
        return None
    name, said = dev(d, rng), degrees(target)
    args = {"device_id": d["device_id"], "temperature": target}
    if d["mode"] == "off":
        return Ask(args, say=rng.choice([f"{name.capitalize()} is off. Turn the heat on and set it to {said}.",
                                         f"Please switch {name} to heat mode and set it to {said}.",
                                         f"Could you get {name} heating again, at {said}?"]),
                   terse=f"{name.capitalize()}: heat, {said}.", refs=(_device(b, d),), mentions=(str(target),),
                   prior=(("set_thermostat_mode", {"device_id": d["device_id"], "mode": "heat"}),))
    if rng.random() < 0.6:
        return Ask(args, say=rng.choice([f"I want to change the temperature on {name}.",
                                         f"Could you adjust {name}'s set point for me?",
                                         f"Can you change what {name} is set to?"]),
                   detail=rng.choice([f"Make it {said}.", f"{said.capitalize()}, please.", f"Set it to {said}.",
                                      f"I'd like {said}."]),
                   terse=f"{name.capitalize()} to {said}.", refs=(_device(b, d),), mentions=(str(target),))
    feel = "chilly" if target > d["target_temp"] else "warm"  # raising the set point: the room is too cold
    return Ask(args, say=rng.choice([f"Set {name} to {said}.", f"Could you change {name} to {said}, please?",
                                     f"It's a bit {feel} in here; put {name} at {said}.",
                                     f"I'd like {name} set to {said}.", f"Bump {name} to {said}, would you?"]),
               terse=f"{name.capitalize()} to {said}.", refs=(_device(b, d),), mentions=(str(target),))


@goals.add("set_blind_position", 0.9)
def set_blind_position(b: Bundle, rng: random.Random) -> Ask | None:
    blinds = _online(b, "blind")
    if not blinds:
        return None
    d = rng.choice(blinds)
    p = rng.choice([0, 25, 50, 75, 100])
    if p == d["position"]:
        return None
    name = dev(d, rng)
    if p == 0:
        say = rng.choice([f"Close {name}, please.", f"Shut {name} all the way.", f"Can you lower {name} fully?"])
    elif p == 100:
        say = rng.choice([f"Open {name} all the way.", f"Raise {name} fully, please.", f"Let the light in: open {name}."])
    else:
        said = position_words(p)
        say = rng.choice([f"Set {name} to {said}.", f"Move {name} so they're {said}.", f"Put {name} {said}, please."])
        if rng.random() < 0.6:
            return Ask({"device_id": d["device_id"], "position": p},
                       say=rng.choice([f"Could you adjust {name}?", f"I want {name} at a different position."]),
                       detail=rng.choice([f"{said.capitalize()}, please.", f"Make them {said}.", f"I'd like them {said}."]),
                       terse=f"Set {name} to {said}.", refs=(_device(b, d),), mentions=(said,))
    # the terse form keeps a verb: "The guest bedroom blinds fully open." reads as saying how they are
    terse = {0: f"Close {name}.", 100: f"Open {name} fully."}.get(p, f"Set {name} to {position_words(p)}.")
    return Ask({"device_id": d["device_id"], "position": p}, say=say, terse=terse, refs=(_device(b, d),))


@goals.add("set_volume", 0.7)
def set_volume(b: Bundle, rng: random.Random) -> Ask | None:
    speakers = _online(b, "speaker")
    if not speakers:
        return None
    d = rng.choice(speakers)
    v = rng.choice([10, 15, 20, 25, 30, 40, 50, 60])
    if v == d["volume"]:
        return None
    name, said = dev(d, rng), percent(v)
    if rng.random() < 0.6:
        return Ask({"device_id": d["device_id"], "volume": v},
                   say=rng.choice([f"Can you change the volume on {name}?", f"I'd like {name} at a different volume."]),
                   detail=rng.choice([f"{said.capitalize()}, please.", f"Put it at {said}.", f"Make it {said}."]),
                   terse=f"{name.capitalize()} volume to {said}.", refs=(_device(b, d),), mentions=(said,))
    return Ask({"device_id": d["device_id"], "volume": v},
               say=rng.choice([f"Set the volume on {name} to {said}.", f"Turn {name} to {said} volume.",
                               f"Could you change {name}'s volume to {said}?",
                               f"{name.capitalize()} is too {'loud' if v < d['volume'] else 'quiet'}; put it at "
                               f"{said}."]),
               terse=f"{name.capitalize()} volume to {said}.", refs=(_device(b, d),), mentions=(said,))


# -- goals: locks ------------------------------------------------------------------------------------------


def _owner_code(b: Bundle, lock: dict) -> str:
    return next(c["code"] for c in b["codes"][lock["device_id"]] if c["name"] == b["first"])


_CODE_SENTENCES = ("My code is {code}.", "The code is {code}.", "Use my code, {code}.", "My door code is {code}.",
                   "Code: {code}.", "You'll need my code: {code}.", "It's {code}, my usual code.")


@goals.add("lock_door", 0.9)
def lock_door(b: Bundle, rng: random.Random) -> Ask | None:
    locks = [d for d in _online(b, "lock") if d["locked"] is False]
    if not locks:
        return None
    d = rng.choice(locks)
    name = dev(d, rng)
    return Ask({"device_id": d["device_id"]},
               say=rng.choice([f"Lock {name}, please.", f"I forgot to lock {name}. Can you lock it?",
                               f"Could you make sure {name} is locked?", f"Please lock {name} now."]),
               terse=f"Lock {name}.", refs=(_device(b, d),))


@goals.add("unlock_door", 0.9)
def unlock_door(b: Bundle, rng: random.Random) -> Ask | None:
    locks = [d for d in _online(b, "lock") if d["locked"]]
    if not locks:
        return None
    d = rng.choice(locks)
    code, name = _owner_code(b, d), dev(d, rng)
    detail = rng.choice(_CODE_SENTENCES).format(code=code)
    return Ask({"device_id": d["device_id"], "code": code},
               say=rng.choice([f"Please unlock {name}; a friend is dropping by.", f"Can you unlock {name}?",
                               f"I need {name} unlocked for a delivery.", f"Unlock {name} for me, would you?"]),
               terse=f"Unlock {name}, code {code}.", detail=detail, refs=(_device(b, d),), mentions=(code,))


@goals.add("set_auto_lock", 0.6)
def set_auto_lock(b: Bundle, rng: random.Random) -> Ask | None:
    locks = _online(b, "lock")
    if not locks:
        return None
    d = rng.choice(locks)
    minutes = rng.choice([0, 1, 2, 5, 10, 15, 30])
    current = d["auto_lock"]
    name = dev(d, rng)
    if minutes == current:
        return None
    if minutes == 0:
        return Ask({"device_id": d["device_id"], "minutes": 0},
                   say=rng.choice([f"Turn off auto-lock on {name}.", f"Please stop {name} from re-locking on its own.",
                                   f"Disable the auto-lock of {name}, please."]),
                   terse=f"Auto-lock off on {name}.", refs=(_device(b, d),))
    unit = "minute" if minutes == 1 else "minutes"
    if rng.random() < 0.6:
        return Ask({"device_id": d["device_id"], "minutes": minutes},
                   # a lock whose auto-lock is off has no delay to change; the name is never followed by
                   # the verb ("I want the front door lock to lock itself ..."), nor does "after" come twice
                   say=rng.choice([f"Please change the auto-lock delay on {name}.",
                                   f"I want a different auto-lock delay on {name}."] if current else
                                  [f"Please turn on the auto-lock on {name}.",
                                   f"I want {name} to re-lock on its own once it's unlocked."]),
                   detail=rng.choice([f"{minutes} {unit}, please.", f"Make it {minutes} {unit}.",
                                      f"After {minutes} {unit}."]),
                   # the delay with its unit: a bare "1" stands in an e-mail address or a PIN said before,
                   # and the detail would then go unsaid
                   terse=f"Auto-lock {name}: {minutes} {unit}.", refs=(_device(b, d),),
                   mentions=(f"{minutes} {unit}",))
    return Ask({"device_id": d["device_id"], "minutes": minutes},
               # the verb never follows the name: "Have the front door lock lock itself ..." said "lock" twice
               say=rng.choice([f"Once {name} is unlocked, have it lock itself again after {minutes} {unit}.",
                               f"Set the auto-lock on {name} to {minutes} {unit}.",
                               f"Could {name} re-lock automatically after {minutes} {unit}?"]),
               terse=f"Auto-lock {name}: {minutes} min.", refs=(_device(b, d),), mentions=(str(minutes),))


@goals.add("add_lock_code", 0.8)
def add_lock_code(b: Bundle, rng: random.Random) -> Ask | None:
    locks = [d for d in _online(b, "lock") if len(b["codes"][d["device_id"]]) < 9]
    if not locks:
        return None
    d = rng.choice(locks)
    held = b["codes"][d["device_id"]]
    who = rng.choice([n for n in NEW_CODES if all(c["name"].lower() != n.lower() for c in held)])
    code = "".join(rng.choice("0123456789") for _ in range(rng.choice([4, 6])))
    if any(c["code"] == code for c in held) or code.startswith("0"):
        return None
    name = dev(d, rng)
    args = {"device_id": d["device_id"], "name": who, "code": code}
    mentions: tuple[str, ...] = (who, code)
    until = ""
    if rng.random() < 0.5:
        last = b["now"].date() + dt.timedelta(days=rng.choice([3, 7, 10, 14, 30]))
        args["expires_on"] = last.isoformat()
        until = rng.choice([f", valid through {day(last)}", f" that stops working after {day(last)}",
                            f", good until {day(last)}"])
        mentions += (day(last),)
    # "that stops working" only where it follows the code itself ("her own code on ... that stops
    # working"); after the digits or a name it reads as theirs ("906403 that stops", "for Grandma that
    # stops"), so there the clause is set off: "'Aunt Rose', 906403, valid through October 13"
    after_code = until.replace(" that stops working after", ", valid through")
    # the code's name is said as it is stored: a person by their name ("for Grandma"), a role in
    # quotes ("named 'Dog walker'"), never "for the dog walker", which leaves its spelling open
    person = who in ("Grandma", "Aunt Rose")  # both "her": "give Grandma their own code" read oddly
    whose = f"for {who}" if person else f"named '{who}'"
    if rng.random() < 0.6:
        return Ask(args, say=rng.choice([f"Please add a new code on {name} {whose}{after_code}.",
                                         (f"Could you give {who} her own code on {name}{until}?" if person else
                                          f"Could you set up a '{who}' code on {name}{after_code}?"),
                                         f"I need a code on {name} named '{who}'{after_code}."]),
                   detail=rng.choice([f"Make the code {code}.", f"The digits should be {code}.", f"Use {code}."]),
                   terse=f"New code on {name}: '{who}', {code}{after_code}.", refs=(_device(b, d),), mentions=mentions)
    return Ask(args, say=rng.choice([f"Add a code {whose} on {name}: {code}{after_code}.",
                                     f"Please create a new code {code} on {name} named '{who}'{after_code}.",
                                     f"Could you set up code {code} on {name} {whose}{after_code}?"]),
               terse=f"New code on {name}: '{who}', {code}{after_code}.", refs=(_device(b, d),), mentions=mentions)


@goals.add("remove_lock_code", 0.7)
def remove_lock_code(b: Bundle, rng: random.Random) -> Ask | None:
    if b["drop_code"] is None:
        return None
    lock_id, code = next((lid, c) for lid, cs in b["codes"].items() for c in cs if c["code_id"] == b["drop_code"])
    lock = _by_id(b["devices"], lock_id)
    name, who = dev(lock, rng), code["name"]
    why = " It has expired anyway." if code["status"] == "expired" else ""
    return Ask({"code_id": code["code_id"]},
               say=rng.choice([f"Remove the '{who}' code from {name}.{why}",
                               f"Please delete {who}'s code on {name}.{why}",
                               f"I don't want the {who} code on {name} any more; take it off.{why}"]),
               terse=f"Delete code '{who}' on {name}.", refs=(_code_ref(b, lock, code),), mentions=(who,))


# -- goals: groups, scenes, automations --------------------------------------------------------------------


@goals.add("switch_group", 1.0)
def switch_group(b: Bundle, rng: random.Random) -> Ask | None:
    ready = [g for g in b["groups"] if all(m["online"] for m in g["devices"])]
    if not ready:
        return None
    group = rng.choice(ready)
    states = [s for s in ("on", "off") if any(m["is_on"] != (s == "on") for m in group["devices"])]
    state = rng.choice(states)
    name = group["name"]
    return Ask({"group_id": group["group_id"], "state": state},
               say=rng.choice([f"Turn {state} the {name} group.", f"Switch everything in the {name} group {state}, please.",
                               f"Could you turn everything in my '{name}' group {state}?",
                               f"I'd like the whole {name} group {state}."]),
               # the terse form says what the name is: "Entertainment on." tells no group
               terse=f"{name} {state}." if name.lower().endswith("group") else f"{name} group {state}.",
               refs=(_group(b, group),), mentions=(name,))


def _scene_runs(b: Bundle, scene: dict) -> bool:
    devices = {d["device_id"]: d for d in b["devices"]}
    return all(devices[a["device_id"]]["online"] for a in scene["actions"])


@goals.add("activate_scene", 1.2)
def activate_scene(b: Bundle, rng: random.Random) -> Ask | None:
    scenes = [s for s in b["scenes"] if s["scene_id"] != b["drop_scene"] and _scene_runs(b, s)]
    if not scenes:
        return None
    scene = rng.choice(scenes)
    name = scene["name"]
    return Ask({"scene_id": scene["scene_id"]},
               say=rng.choice([f"Activate the {name} scene.", f"Run my '{name}' scene, please.",
                               f"Could you start the {name} scene?", f"Time for {name}: set the scene, please.",
                               f"Please put the house in {name} mode."]),
               terse=f"Activate scene '{name}'.", refs=(_scene(b, scene),), mentions=(name,))


def _together(room: dict, members: list[dict]) -> str:
    """Devices of one room said together: 'the master bedroom ceiling light, bedside lamp and
    blinds', the room said once when every name starts with it."""
    prefix = room["name"].lower() + " "
    names = [d["name"][0].lower() + d["name"][1:] for d in members]
    if all(n.lower().startswith(prefix) and len(n) > len(prefix) for n in names):
        return f"the {room['name'][0].lower()}{room['name'][1:]} " + listing([n[len(prefix):] for n in names])
    return listing([dev(d) for d in members])


@goals.add("create_scene", 0.9)
def create_scene(b: Bundle, rng: random.Random) -> Ask | None:
    taken = {s["name"].lower() for s in b["scenes"]}
    names = [n for n in NEW_SCENES if n.lower() not in taken]
    by_room: dict[str, list[dict]] = {}
    for d in _online(b):
        if d["type"] in ("light", "blind", "speaker", "plug"):
            by_room.setdefault(d["room_id"], []).append(d)
    rooms = [r for r in b["rooms"] if len(by_room.get(r["room_id"], [])) >= 2]
    if not rooms or not names:
        return None
    room = rng.choice(rooms)
    members = rng.sample(by_room[room["room_id"]], min(len(by_room[room["room_id"]]), rng.choice([2, 3])))
    members.sort(key=lambda d: d["device_id"])
    label = rng.choice(names)
    said = _together(room, members)
    if rng.random() < 0.6:
        return Ask({"home_id": b["home"]["home_id"], "name": label, "device_ids": [d["device_id"] for d in members]},
                   say=rng.choice([f"Save how {said} are set right now as a new scene.",
                                   f"Make a scene out of the current state of {said}."]),
                   detail=rng.choice([f"Call it '{label}'.", f"Name it '{label}'.", f"The name should be '{label}'."]),
                   terse=f"New scene '{label}': {said}, as they are now.", refs=tuple(_device(b, d) for d in members),
                   mentions=(label,))
    return Ask({"home_id": b["home"]["home_id"], "name": label, "device_ids": [d["device_id"] for d in members]},
               say=rng.choice([f"Save a scene called '{label}' with how {said} are set right now.",
                               f"I like how {said} are right now. Make that a scene named '{label}'.",
                               f"Could you create a '{label}' scene from the current state of {said}?"]),
               terse=f"New scene '{label}': {said}, as they are now.", refs=tuple(_device(b, d) for d in members),
               mentions=(label,))


@goals.add("delete_scene", 0.6)
def delete_scene(b: Bundle, rng: random.Random) -> Ask | None:
    scene = next((s for s in b["scenes"] if s["scene_id"] == b["drop_scene"]), None)
    if scene is None:
        return None
    name = scene["name"]
    # the terse forms quote a scene's or automation's name: "Delete scene Good night." read as a farewell
    return Ask({"scene_id": scene["scene_id"]},
               say=rng.choice([f"Delete the {name} scene; I never use it.", f"Please remove my '{name}' scene.",
                               f"Get rid of the {name} scene for me."]),
               terse=f"Delete scene '{name}'.", refs=(_doomed_scene(b, scene),), mentions=(name,))


def _keep_automations(b: Bundle) -> list[dict]:
    return [a for a in b["automations"] if a["automation_id"] != b["drop_automation"]]


@goals.add("set_automation_enabled", 0.9)
def set_automation_enabled(b: Bundle, rng: random.Random) -> Ask | None:
    a = next((x for x in b["automations"] if x["automation_id"] == b["toggle_automation"]), None)
    if a is None:
        return None
    name = a["name"]
    if a["enabled"]:
        return Ask({"automation_id": a["automation_id"], "enabled": False},
                   say=rng.choice([f"Pause the '{name}' automation for now.", f"Please disable my {name} automation.",
                                   f"Turn off the {name} automation, but keep it saved."]),
                   terse=f"Disable automation '{name}'.", refs=(_automation(b, a),), mentions=(name,))
    return Ask({"automation_id": a["automation_id"], "enabled": True},
               say=rng.choice([f"Turn the '{name}' automation back on.", f"Please re-enable my {name} automation.",
                               f"Can you enable the {name} automation again?"]),
               terse=f"Enable automation '{name}'.", refs=(_automation(b, a),), mentions=(name,))


@goals.add("run_automation", 1.1)
def run_automation(b: Bundle, rng: random.Random) -> Ask | None:
    a = next((x for x in b["automations"] if x["automation_id"] == b["run_automation"]), None)
    if a is None:
        return None
    name, args, refs = a["name"], {"automation_id": a["automation_id"]}, (_automation(b, a),)
    if not a["enabled"]:
        return Ask(args, say=rng.choice([f"My '{name}' automation is switched off. Turn it back on and run it once "
                                         "right now.",
                                         f"Please re-enable the {name} automation and run it straight away.",
                                         f"Could you enable the {name} automation again and trigger it now?"]),
                   terse=f"Enable automation '{name}' and run it now.", refs=refs, mentions=(name,),
                   prior=(("set_automation_enabled", {"automation_id": a["automation_id"], "enabled": True}),))
    return Ask(args, say=rng.choice([f"Run my '{name}' automation now, please.",
                                     f"I don't want to wait for it: trigger the {name} automation right now.",
                                     f"Can you run the {name} automation once, now?",
                                     f"Please kick off my {name} automation immediately."]),
               terse=f"Run automation '{name}' now.", refs=refs, mentions=(name,))


def _on_day(runs: list[dict], d: dt.date) -> list[dict]:
    return [r for r in runs if r["at"].startswith(d.isoformat())]


@goals.add("list_automation_runs", 1.2)
def list_automation_runs(b: Bundle, rng: random.Random) -> Ask | None:
    hid, today = b["home"]["home_id"], b["now"].date()
    runs = [r for r in b["runs"] if r["automation_id"] not in (None, b["drop_automation"])]
    failed = [r for r in runs if r["status"] == "failed"]
    roll = rng.random()
    if failed and roll < 0.3:
        return Ask({"home_id": hid, "status": "failed"},
                   say=rng.choice(["Did any of my automations fail recently? Which ones?",
                                   "Has an automation of mine failed to run lately? Tell me which.",
                                   "I want to know if any of my automations didn't go through. Which failed?"]),
                   terse="Failed automation runs?", refs=(_home(b),),
                   facts=lambda r: list(dict.fromkeys(x["automation"] for x in r))[:3])
    if roll < 0.6:
        evening = dt.datetime.combine(today - dt.timedelta(days=1), dt.time(18, 0))
        morning = dt.datetime.combine(today, dt.time(7, 0))
        night = [r for r in runs if evening.isoformat() <= r["at"] <= morning.isoformat()]
        if not night:
            return None
        args = {"home_id": hid, "start": evening.isoformat(), "end": morning.isoformat()}
        said = f"between {clock(evening)} on {day(evening)} and {clock(morning)} on {day(morning)}"
        # asked as which automations ran, as the facts are their names: "What did my automations do
        # overnight?" was rightly answered by what was done ("the doors were locked at 11 pm"), no name
        return Ask(args, say=rng.choice([f"Which of my automations ran {said}?",
                                         f"Which automations kicked in overnight, {said}?",
                                         f"Can you tell me which automations went off {said}?"]),
                   terse=f"Automation runs {said}?", refs=(_home(b),),
                   mentions=(day(evening), day(morning), clock(evening), clock(morning)),
                   facts=lambda r: list(dict.fromkeys(x["automation"] for x in r))[:4])
    by_automation: dict[str, list[dict]] = {}
    for r in runs:
        by_automation.setdefault(r["automation_id"], []).append(r)
    back = rng.randint(1, 3)
    when = today - dt.timedelta(days=back)
    busy = [a for a in _keep_automations(b) if _on_day(by_automation.get(a["automation_id"], []), when)]
    # the home's log of that day, which names each run's automation, answers it in one call (no
    # look-up of the automation's id first), when the whole day fits in one page of the log
    whole = len(b["runs"]) < 100 or b["runs"][-1]["at"] < when.isoformat()
    if not busy or not whole or len(_on_day(b["runs"], when)) > 20:
        return None
    a = rng.choice(busy)
    name, aid = a["name"], a["automation_id"]
    args = {"home_id": hid, "start": f"{when.isoformat()}T00:00:00", "end": f"{when.isoformat()}T23:59:59"}
    return Ask(args, say=rng.choice([f"At what times did my '{name}' automation run on {day(when)}?",
                                     f"On {day(when)}, when did my {name} automation go off?",
                                     f"Can you check the log: at what times did the {name} automation run on {day(when)}?"]),
               terse=f"Runs of automation '{name}' on {day(when)}?", refs=(_home(b),), mentions=(name, day(when)),
               facts=lambda r: [_on_the_day(x["at"]) for x in r if x["automation_id"] == aid][:4])


@goals.add("get_device_history", 1.1)
def get_device_history(b: Bundle, rng: random.Random) -> Ask | None:
    # asked for what was done, not which automation: the home's run log names each run's automation,
    # its time and the devices it reached, so it would tell "which automation, and when" without the
    # device's id; what a run sent a device only the device's history (or the automation's own entry
    # besides the log) tells. Devices some run turned on are left out: "on" is no word to check.
    changed = [d for d in b["devices"] if b["histories"].get(d["device_id"])
               and d["device_id"] not in _run_targets(b)
               and all(x["command"] in _DONE for x in b["histories"][d["device_id"]])]
    if not changed:
        return None
    d = rng.choice(changed)
    name, args, refs = dev(d, rng), {"device_id": d["device_id"]}, (_device(b, d),)
    history = b["histories"][d["device_id"]]
    if rng.random() < 0.5:
        return Ask(args, say=rng.choice([f"What was the last thing an automation did to {name}, and when?",
                                         f"What did an automation last do to {name}, and when?",
                                         f"Something changed {name} on its own. What was done to {it(d)}, "
                                         "and when did it happen?"]),
                   terse=f"Last automated change to {name}: what, and when?", refs=refs,
                   facts=lambda r: [_done(r["history"][0]), r["history"][0]["at"]])
    when = dt.date.fromisoformat(rng.choice(history)["at"][:10])
    args = {**args, "start": f"{when.isoformat()}T00:00:00", "end": f"{when.isoformat()}T23:59:59"}
    return Ask(args, say=rng.choice([f"On {day(when)}, what did my automations do to {name}, and at what times?",
                                     f"Look at the history of {name}: what did automations do to {it(d)} on "
                                     f"{day(when)}, and at what times?",
                                     f"Can you tell me what automations did to {name} on {day(when)}, and "
                                     "when?"]),
               terse=f"Automated changes to {name} on {day(when)}: what, and when?", refs=refs,
               mentions=(day(when),),
               facts=lambda r: _once(_done(x) for x in r["history"]) + [_on_the_day(x["at"]) for x in r["history"]][:4])


def _on_the_day(moment: str) -> Any:
    """A time on the day the user named as a fact: the time alone states it ("at 11 PM"), as does the
    date with it; the question already said which day."""
    return one_of(moment, moment[11:16])


# what an automation did to a device, as the answer says it ("turned it off", "locked it", "set it to 68")
_DONE = ("turn_off", "lock", "set_temperature")


def _done(entry: dict) -> Any:
    if entry["command"] == "set_temperature":
        return quantity(entry["value"], "F")
    return "off" if entry["command"] == "turn_off" else one_of("locked", "lock")


def _once(facts: Any) -> list[Any]:
    """The facts in order, each once (a measure or a choice is a dict, which a set cannot hold)."""
    out: list[Any] = []
    for f in facts:
        if f not in out:
            out.append(f)
    return out


def _run_targets(b: Bundle) -> set[str]:
    """The devices the automation kept for running by hand reaches: their newest entry may be that run."""
    a = next((x for x in b["automations"] if x["automation_id"] == b["run_automation"]), None)
    return {t["device_id"] for t in a["devices"]} if a else set()


@goals.add("delete_automation", 0.6)
def delete_automation(b: Bundle, rng: random.Random) -> Ask | None:
    a = next((x for x in b["automations"] if x["automation_id"] == b["drop_automation"]), None)
    if a is None:
        return None
    name = a["name"]
    return Ask({"automation_id": a["automation_id"]},
               say=rng.choice([f"Delete the '{name}' automation.", f"I don't need the {name} automation any more; remove it.",
                               f"Please get rid of my {name} automation for good."]),
               terse=f"Delete automation '{name}'.", refs=(_doomed_automation(b, a),), mentions=(name,))


@goals.add("create_automation", 1.3)
def create_automation(b: Bundle, rng: random.Random) -> Ask | None:
    taken = {a["name"].lower() for a in b["automations"]}
    hid = b["home"]["home_id"]
    options = []
    lights = [d for d in b["devices"] if d["type"] == "light"]
    if lights:
        d = rng.choice(lights)
        hour, minute = rng.choice([(6, 30), (7, 0), (18, 30), (19, 0), (20, 15), (21, 0)])
        at = dt.time(hour, minute)
        options.append((f"{d['name']} at {clock(at)}", "time", {"at_time": f"{hour:02d}:{minute:02d}"},
                        "turn_on", None, [d],
                        f"every day at {clock(at)}, turn on {dev(d)}", (clock(at),)))
    locks = [d for d in b["devices"] if d["type"] == "lock"]
    if locks:
        hour, minute = rng.choice([(21, 30), (22, 0), (22, 45), (23, 15)])
        at = dt.time(hour, minute)
        # "Lock up", not "Lock doors": most homes have one lock, and 'Lock doors at 10:45 pm' for the
        # front door alone named more doors than it locks (seed 135)
        options.append((f"Lock up at {clock(at)}", "time", {"at_time": f"{hour:02d}:{minute:02d}"}, "lock", None,
                        locks, f"lock {listing([dev(x) for x in locks])} every night at {clock(at)}", (clock(at),)))
    humid = [d for d in b["devices"] if d["type"] == "sensor" and d["sensor"] == "humidity"]
    plugs = [d for d in b["devices"] if d["type"] == "plug" and ("fan" in d["name"] or "dehumid" in d["name"])]
    if humid and plugs:
        s, p = rng.choice(humid), rng.choice(plugs)
        level = rng.choice([55, 58, 67])  # no brightness, volume or degrees a later request sets ("60%" went unsaid)
        options.append((f"Humidity over {level}", "above", {"sensor_id": s["device_id"], "threshold": level},
                        "turn_on", None, [p],
                        f"when {dev(s)} goes above {level}% humidity, turn on {dev(p)}", (f"{level}%",)))
    temps = [d for d in b["devices"] if d["type"] == "sensor" and d["sensor"] == "temperature"]
    thermostats = [d for d in b["devices"] if d["type"] == "thermostat"]
    if temps and thermostats:
        s, t = rng.choice(temps), thermostats[0]
        # no degrees a later set-point request asks for ("Make it 69 degrees" went unsaid after this
        # rule's "69 degrees"), and no "heat" a later mode request says
        below, target = rng.choice([(60, 67), (61, 67), (57, 63), (58, 63)])
        options.append((f"Warm up under {below}", "below", {"sensor_id": s["device_id"], "threshold": below},
                        "set_temperature", target, [t],
                        f"when {dev(s)} drops below {degrees(below)}, set {dev(t)} to {degrees(target)}",
                        (str(below), str(target))))
    motion = [d for d in b["devices"] if d["type"] == "sensor" and d["sensor"] == "motion"]
    dimmable = [d for d in lights if "brightness" in d]
    if motion and dimmable:
        s, d = rng.choice(motion), rng.choice(dimmable)
        level = rng.choice([35, 45, 85, 90])  # no brightness, volume or degrees a later request sets
        options.append((f"Motion light {level}", "motion", {"sensor_id": s["device_id"]}, "set_brightness", level, [d],
                        f"whenever {dev(s)} sees motion, set {dev(d)} to {level}% brightness", (f"{level}%",)))
    options = [o for o in options if o[0].lower() not in taken]
    if not options:
        return None
    label, trigger, extra, command, value, targets, what, mentions = rng.choice(options)
    args = {"home_id": hid, "name": label, "trigger": trigger, "command": command,
            "device_ids": [d["device_id"] for d in targets], **extra}
    if value is not None:
        args["value"] = value
    refs = tuple(_device(b, d) for d in targets)
    if "sensor_id" in extra:
        refs += (_device(b, _by_id(b["devices"], extra["sensor_id"])),)
    sentence = what[:1].upper() + what[1:]
    if rng.random() < 0.6:
        return Ask(args, say=rng.choice([f"Set up an automation: {what}.", f"I'd like a new automation: {what}."]),
                   detail=rng.choice([f"Call it '{label}'.", f"Name it '{label}'.", f"Its name should be '{label}'."]),
                   terse=f"Automation '{label}': {what}.", refs=refs, mentions=(label, *mentions))
    return Ask(args, say=rng.choice([f"Create an automation called '{label}': {what}.",
                                     f"Please set up a new automation named '{label}'. {sentence}.",
                                     f"Could you add an automation called '{label}'? {sentence}.",
                                     f"I'd like an automation '{label}': {what}."]),
               terse=f"Automation '{label}': {what}.", refs=refs, mentions=(label, *mentions))


# -- who is asking ----------------------------------------------------------------------------------------

_BY_NAME = ("Hi, this is {name}.", "My name is {name}.", "This is {name}, it's about my smart home.",
            "Hello, {name} here.", "Hey, it's {name}.", "I'm {name}.", "Good evening, this is {name}.",
            "{name} here, I have a question about my home.", "Hi there, I'm {name}.",
            "It's {name} speaking.", "Hello! {name} here, from the {home}.")
# never the bare name ("Shirley Reed. The kitchen pendant lights off.") nor a form field ("Owner: ...")
_BY_NAME_TERSE = ("{name} here.", "It's {name}.", "This is {name}.", "I'm {name}.")
_BY_EMAIL = ("Hi, my account email is {email}.", "You have me under {email}.", "My login is {email}.",
             "Hello, I'm registered as {email}.", "The email on my home account is {email}.",
             "You can look me up by my email, {email}.")  # no "Please": requests open with it
# a sentence, never a form field or a bare label ("Account holly.reyes31@gmail.com. New code on ...")
_BY_EMAIL_TERSE = ("My email is {email}.", "My login is {email}.", "Account's under {email}.")


def _by_name(ref: Ref) -> tuple[str, str]:
    e = ref.entity
    return (stable(_BY_NAME, "name", ref.key).format(name=e["owner_name"], home=e["name"]),
            stable(_BY_NAME_TERSE, "terse", ref.key).format(name=e["owner_name"]))


def _by_email(ref: Ref) -> tuple[str, str]:
    e = ref.entity
    return (stable(_BY_EMAIL, "email", ref.key).format(email=e["email"]),
            stable(_BY_EMAIL_TERSE, "email terse", ref.key).format(email=e["email"]))


def code_request(b: Bundle, rng: random.Random) -> str | None:
    locks = [d for d in b["devices"] if d["type"] == "lock" and len(b["codes"][d["device_id"]]) > 1]
    if not locks:
        return None
    lock = rng.choice(locks)
    who = b["codes"][lock["device_id"]][-1]["name"]
    intro = _by_name(_home(b))[0]
    return intro + " " + rng.choice([f"What's the {who} code on {dev(lock)} again? I need to tell them.",
                                     f"Can you read me the digits of the '{who}' code for {dev(lock)}?",
                                     f"I forgot which code I set up as '{who}' on {dev(lock)}. What is it?"])


# Tools that do one another's job for some request (a device's state shows in the home's device
# list; setting a light's brightness or colour turns it on; an automation's last run shows in the
# automation list; a plug's energy over days is its line of the home's summary, its own summary, or
# its daily readings added up): a missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("get_device", "list_devices"),
    ("list_automation_runs", "list_automations"),
    ("turn_on", "set_brightness", "set_color_temperature", "set_color"),
    ("get_energy_summary", "get_reading_summary", "get_sensor_readings"),
)


recipe = Recipe(
    server="iot_devices",
    sample=sample,
    topics=("smart_home",),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("home", "find_homes", args=lambda r: {"owner_name": r.entity["owner_name"]}, intro=_by_name),
        Lookup("home", "find_homes", args=lambda r: {"email": r.entity["email"]}, intro=_by_email),
        *(Lookup.under(kind, tool) for kind, tool in (("room", "list_rooms"), ("device", "list_devices"),
                                                      ("lock_code", "list_lock_codes"))),
        # the home's listing of groups, scenes or automations shows their member devices' ids
        *(Lookup(kind, tool, args=lambda ref: {"home_id": ref.owner.key}, settles=lambda ref: ref.entity["shows"])
          for kind, tool in (("group", "list_groups"), ("scene", "list_scenes"), ("automation", "list_automations"))),
    ),
    hidden=(HiddenAsk("reveal_lock_codes", code_request, facts=lambda r: [c["code"] for c in r]),),
)
