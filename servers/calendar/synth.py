"""How tasks are written for the calendar: its owner asks about and changes their week, naming
events by title and day ("the Release process retro on Monday, September 7"), colleagues by
name, rooms by name and reminders by what they do ("the 10-minute popup reminder").

A bundle is a fortnight (from any Monday between last week and six weeks ahead) with the events a
person can name in it, plus the directory, the rooms and the calendars. Dates that become
arguments are said with their year, so no request depends on today's date. Events the user
organizes are split between the kinds of change (by their id number), so that two requests of one
task never get in each other's way (a meeting that is cancelled is not also rescheduled, a room is
not booked for a meeting that also moves).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import clock, day, full_date, listing, weekday

from .seed import MEETING_KINDS, TOPICS

Bundle = dict[str, Any]

WEEKS = range(-1, 7)  # bundles: a fortnight from each Monday, from last week's to six weeks ahead
SPAN = 14
NEW_PEOPLE = (  # full name, email, company, job title
    ("Priya Raman", "priya.raman@globex.com", "Globex", "Head of Procurement"),
    ("Tomasz Nowak", "tomasz.nowak@initech.io", "Initech", "VP of Engineering"),
    ("Hannah Okafor", "h.okafor@brightpath.org", "BrightPath", "Program Director"),
    ("Luis Ortega", "luis.ortega@vandelay.com", "Vandelay Industries", "IT Director"),
    ("Mei Tanaka", "mei.tanaka@northwind.co", "Northwind", "Product Lead"),
    ("Oliver Brandt", "oliver@brandt-consulting.de", "Brandt Consulting", "Security Consultant"),
    ("Grace Mbeki", "grace.mbeki@acmecorp.com", "Acme Corp", "Head of Data"),
    ("Samir Haddad", "samir.haddad@umbrella.dev", "Umbrella Dev", "CTO"),
)
PERSONAL_PLANS = ("Gym session", "Pick up the kids", "Piano lesson", "Physio follow-up", "Grocery run",
                  "Call with Mom", "Yoga class", "Plumber visit")
VIDEO = ("Zoom", "Google Meet")
AGENDAS = ("Review open risks and agree on next steps.", "Walk through the latest metrics and decide on priorities.",
           "Demo of the current build, then questions.", "Go over the timeline and who owns what.")
REMINDERS = ((5, "5 minutes"), (10, "10 minutes"), (15, "15 minutes"), (30, "30 minutes"), (60, "an hour"),
             (120, "two hours"), (1440, "a day"))
RESPONSES = {"accepted": ("accept", "Accept"), "declined": ("decline", "Decline"),
             "tentative": ("tentatively accept", "Tentatively accept")}

# Share of requests that say a required value in a sentence of its own (`Ask.detail`), which the
# "missing" information level holds back for the next turn.
SPLIT = 0.6

# Which changes an event the user organizes may receive, by its id number modulo 5.
CANCEL, DELETE, MOVE, REPEAT, ROOMS = range(5)
EDITABLE = (MOVE, REPEAT, ROOMS)  # titles, invitees, reminders: compatible with every other change


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """One bundle per fortnight with an event a person can name unambiguously: its title is
    unique, or unique on its day for a one-off event (and the search for it shows it)."""
    today = now.date()
    people = [c for c in read("find_contacts", limit=100)
              if not c["is_me"] and len(read("find_contacts", query=c["name"])) == 1]
    rooms = read("list_rooms")
    calendars = read("list_calendars")
    searched: dict[str, list[dict]] = {}
    details: dict[str, dict] = {}

    def search(text: str) -> list[dict]:
        if text not in searched:
            searched[text] = read("search_events", query=text, limit=100)["events"]
        return searched[text]

    def detail(event_id: str) -> dict:
        if event_id not in details:
            details[event_id] = read("get_event", event_id=event_id)
        return details[event_id]

    fresh = [f"{topic} {kind}" for topic in TOPICS for kind in MEETING_KINDS]
    fresh = [t for t in rng.sample(fresh, 24) if not search(t)]
    new_people = [p for p in NEW_PEOPLE if not read("find_contacts", query=p[1]) and
                  not read("find_contacts", query=p[0])]
    monday = today - dt.timedelta(days=today.weekday())
    bundles = []
    for week in WEEKS:
        first = monday + dt.timedelta(weeks=week)
        last = first + dt.timedelta(days=SPAN - 1)
        listing = read("list_events", start_date=first.isoformat(), end_date=last.isoformat(),
                       include_cancelled=True, limit=200)["events"]
        occurrences = []
        for item in listing:
            if not _nameable(item, search(item["title"])):
                continue
            start = dt.datetime.fromisoformat(item["start"])
            event = detail(item["event_id"])
            occurrences.append({
                "event_id": item["event_id"], "title": item["title"], "start": start,
                "end": dt.datetime.fromisoformat(item["end"]), "recurring": item["recurring"],
                "cancelled": item["status"] == "cancelled", "series_cancelled": event["status"] == "cancelled",
                "mine": item["my_response"] == "organizer", "my_response": item["my_response"],
                "future": start > now, "event": event, "role": int(item["event_id"].split("-")[1]) % 5,
            })
        if not occurrences:
            continue
        events: dict[str, dict] = {}
        for o in occurrences:  # one entry per event: a series by its next occurrence in the fortnight
            if o["event_id"] not in events or (o["future"] and not events[o["event_id"]]["future"]):
                events[o["event_id"]] = o
        for o in events.values():
            _plan_changes(read, o, now, rng)
            o["renames"] = _renames(o, search, rng) if o["mine"] else []
        days = [first + dt.timedelta(days=i) for i in range(SPAN)]
        bundles.append({
            "now": now, "people": people, "rooms": rooms, "calendars": calendars,
            "days": days, "workdays": [d for d in days if d > today and d.weekday() < 5],
            "occurrences": occurrences, "events": list(events.values()),
            "fresh_titles": fresh, "new_people": new_people,
            "topics": sorted({t for t in TOPICS if any(o["title"].startswith(t) for o in occurrences)}),
        })
    return bundles


def _nameable(item: dict, found: list[dict]) -> bool:
    """Whether 'the <title>' (a series) or 'the <title> on <day>' (a one-off) names only this event."""
    ids = [e["event_id"] for e in found]
    if item["event_id"] not in ids[:20]:  # a search with the default limit must show it
        return False
    same = [e for e in found if e["title"] == item["title"]]
    if len(same) == 1:
        return True
    if item["recurring"] or any(e["recurrence"] for e in same):
        return False
    return sum(e["start"][:10] == item["start"][:10] for e in same) == 1


def _plan_changes(read: Reader, o: dict, now: dt.datetime, rng: random.Random) -> None:
    """Precompute, for a future one-off event of the user's, the new times it can move to and the
    rooms it can have (a booked room must be free then), so the requests cannot fail."""
    o["moves"], o["free_rooms"] = [], []
    event = o["event"]
    if not (o["mine"] and o["future"] and not o["recurring"] and not o["cancelled"]):
        return
    length = o["end"] - o["start"]
    room = event["room"]
    if o["role"] == MOVE:
        for _ in range(4):
            d = now.date() + dt.timedelta(days=rng.randint(1, 21))
            if d.weekday() >= 5 or d == o["start"].date():
                continue
            start = _slot(rng, d, int(length.total_seconds() // 60))
            if room is not None:
                free = read("list_rooms", start=_iso(start), end=_iso(start + length))
                if room["room_id"] not in {r["room_id"] for r in free}:
                    continue
            if start not in o["moves"]:
                o["moves"].append(start)
    elif o["role"] == ROOMS:
        people = _headcount(event)
        free = read("list_rooms", min_capacity=people, start=_iso(o["start"]), end=_iso(o["end"]))
        current = room["room_id"] if room else None  # nobody books the auditorium for two people
        o["free_rooms"] = [r for r in free if r["room_id"] != current and r["capacity"] <= people + 6]


def _renames(o: dict, search, rng: random.Random) -> list[str]:
    """New titles for a meeting on a topic: the same topic, another kind of meeting, used nowhere yet."""
    topic = next((t for t in TOPICS if o["title"].startswith(t + " ")), None)
    if topic is None:
        return []
    kinds = [k for k in MEETING_KINDS if f"{topic} {k}" != o["title"]]
    return [t for t in (f"{topic} {k}" for k in rng.sample(kinds, 2)) if not search(t)]


def _headcount(event: dict) -> int:
    return 1 + sum(i["response"] != "declined" for i in event["invitees"])


# -- how people say things -------------------------------------------------------------------------

def _iso(moment: dt.datetime) -> str:
    return moment.isoformat(timespec="minutes")


def date(d: dt.date) -> str:
    """'Tuesday, October 6, 2026': a day that becomes an argument, said in full."""
    return f"{weekday(d)}, {d.year}"


def names(people: list[dict], *, me: bool = False) -> str:
    """'Ana Smith, Bo Chen and Cy Diaz' (and 'I' last when `me`)."""
    return listing([p["name"] for p in people] + (["I"] if me else []))


def quoted(o: dict) -> str:
    """The title as said: quoted when its punctuation would read oddly ('Interview: Ada Park')."""
    return f"'{o['title']}'" if any(ch in o["title"] for ch in ":/") else o["title"]


def event_name(o: dict) -> str:
    """'the Platform Tech Sync' (a series) or 'the Focus time on Wednesday, September 16'."""
    if o["recurring"]:
        return f"the {quoted(o)}"
    return f"the {quoted(o)} on {weekday(o['start'].date())}"


def _event(o: dict) -> Ref:
    return Ref("event", o["event_id"], {"title": o["title"]})


def _contact(c: dict) -> Ref:
    return Ref("contact", c["contact_id"], c)


def _room(r: dict) -> Ref:
    return Ref("room", r["room_id"], r)


def _calendar(c: dict) -> Ref:
    return Ref("calendar", c["calendar_id"], c)


def _reminder(o: dict, reminder: dict) -> Ref:
    return Ref("reminder", reminder["reminder_id"],
               {**reminder, "event": {"event_id": o["event_id"], "title": o["title"]}})


def _of_event(ref: Ref) -> list[Ref]:
    event = ref.entity["event"]
    return [Ref("event", event["event_id"], event)]


def _mine(b: Bundle, roles: tuple[int, ...], *, one_off: bool = False) -> list[dict]:
    """Future, live events the user organizes whose role allows the change."""
    return [o for o in b["events"] if o["mine"] and o["future"] and not o["cancelled"] and not o["series_cancelled"]
            and o["role"] in roles and not (one_off and o["recurring"])]


def _shared(events: list[dict]) -> list[dict]:
    """Meetings whose guests or room may change: not private appointments, focus time or coffee chats."""
    return [o for o in events if o["event"]["calendar"] != "Personal" and o["title"] != "Focus time"
            and not o["title"].startswith("Coffee chat")]


def _live(b: Bundle) -> list[dict]:
    """Future, live events on the user's calendar that no request cancels or deletes."""
    return [o for o in b["events"] if o["future"] and not o["cancelled"] and not o["series_cancelled"]
            and not (o["mine"] and o["role"] in (CANCEL, DELETE))]


def _slot(rng: random.Random, d: dt.date, minutes: int) -> dt.datetime:
    """A start on the quarter hour within working hours (9 to 5) that leaves room for `minutes`."""
    steps = (8 * 60 - minutes) // 15
    return dt.datetime.combine(d, dt.time(9)) + dt.timedelta(minutes=15 * rng.randint(0, max(steps, 0)))


def _ask(rng: random.Random, args: dict, *, vague: str, detail: str, says: list[str], terse: str,
         refs: tuple[Ref, ...], mentions: tuple[str, ...]) -> Ask:
    """A request that either leaves the 'which one' to a second sentence (`vague` then `detail`,
    which the "missing" level holds back) or names it at once (one of `says`)."""
    if rng.random() < SPLIT / 2:
        return Ask(args, say=vague, terse=terse, detail=detail, refs=refs, mentions=mentions)
    return Ask(args, say=rng.choice(says), terse=terse, refs=refs, mentions=mentions)


def _length(minutes: int) -> str:
    return {60: "one-hour", 90: "90-minute", 120: "two-hour"}.get(minutes, f"{minutes}-minute")


# -- goals: reading the calendar ----------------------------------------------------------------------

goals = Goals()


@goals.add("get_current_time", 0.2)
def get_current_time(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({}, say=rng.choice(["What's today's date?", "What day is it today, and what time is it?"]),
               terse="Today's date?")


@goals.add("list_calendars", 0.2)
def list_calendars(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({}, say=rng.choice(["Which calendars do I have access to?",
                                   "Can you list my calendars, including the shared ones?"]),
               terse="List my calendars.")


@goals.add("list_events", 1.5)
def list_events(b: Bundle, rng: random.Random) -> Ask | None:
    first = rng.choice([d for d in b["days"] if d.weekday() < 5])
    friday = first + dt.timedelta(days=4 - first.weekday())
    last = first if rng.random() < 0.6 else friday  # one day, or the rest of that work week
    args = {"start_date": first.isoformat(), "end_date": last.isoformat()}
    span = f"on {date(first)}" if first == last else f"from {weekday(first)} to {date(last)}"
    terse_span = full_date(first) if first == last else f"{day(first)} to {full_date(last)}"
    refs: tuple[Ref, ...] = ()
    where, terse_where = "my calendar", "My calendar for"
    if rng.random() < 0.25:
        calendar = rng.choice([c for c in b["calendars"] if not c["is_default"]])
        args["calendar_id"] = calendar["calendar_id"]
        refs = (_calendar(calendar),)
        where, terse_where = f"the {calendar['name']} calendar", f"{calendar['name']} calendar for"
    mentions = (day(first),) if first == last else (day(first), day(last))
    if rng.random() < SPLIT / 2:
        return Ask(args, say=f"Can you check what's on {where} for me?", terse=f"{terse_where} {terse_span}?",
                   detail=f"I mean {span.removeprefix('on ')}.", refs=refs, mentions=mentions)
    return Ask(args, say=rng.choice([f"What's on {where} {span}?", f"What do I have on {where} {span}?"]),
               terse=f"{terse_where} {terse_span}?", refs=refs, mentions=mentions)


@goals.add("list_upcoming_events", 0.5)
def list_upcoming_events(b: Bundle, rng: random.Random) -> Ask | None:
    limit = rng.choice([3, 5, 5, 8])
    if rng.random() < 0.3:
        calendar = rng.choice([c for c in b["calendars"] if c["name"] in ("Personal", "Hiring", "Platform Team")]
                              or b["calendars"])
        return Ask({"limit": limit, "calendar_id": calendar["calendar_id"]},
                   say=f"What are the next {limit} events on the {calendar['name']} calendar?",
                   terse=f"Next {limit} events, {calendar['name']} calendar.", refs=(_calendar(calendar),),
                   mentions=(calendar["name"],))
    return Ask({"limit": limit}, say=rng.choice([f"What are my next {limit} events?",
                                                  f"Show me the next {limit} things coming up on my calendar."]),
               terse=f"Next {limit} events?")


@goals.add("search_events", 0.7)
def search_events(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["topics"]:
        return None
    topic = rng.choice(b["topics"])
    return Ask({"query": topic}, say=rng.choice([f"Find all the events about {topic}, past and upcoming.",
                                                 f"Which meetings have I had or will I have on {topic}?"]),
               terse=f"Events about {topic}?", mentions=(topic,))


goals.single("get_event", "event", pick=lambda b: [o for o in b["events"] if not o["cancelled"]],
             name=lambda b, o: event_name(o), mention=lambda o: o["title"],
             say=("Who is invited to {name}, and have they replied?",
                  "Can you pull up the details of {name}? Where is it, and who's coming?"), terse="Details of {name}.")


@goals.add("list_pending_invitations", 0.3)
def list_pending_invitations(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({}, say=rng.choice(["Which meeting invitations haven't I answered yet?",
                                   "Do I have any invitations I still need to respond to?"]),
               terse="Unanswered invitations?")


@goals.add("list_reminders", 0.6)
def list_reminders(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.3:
        return Ask({}, say="Which reminders do I have coming up?", terse="Upcoming reminders?")
    events = [o for o in _live(b) if o["event"]["reminders"]]
    if not events:
        return None
    o = rng.choice(events)
    return Ask({"event_id": o["event_id"]}, say=f"What reminders have I set for {event_name(o)}?",
               terse=f"Reminders on {event_name(o)}?", refs=(_event(o),), mentions=(o["title"],))


@goals.add("find_contacts", 0.6)
def find_contacts(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.3:
        departments = sorted({p["department"] for p in b["people"] if p["department"]})
        department = rng.choice(departments)
        return Ask({"department": department}, say=f"Who works in the {department} department?",
                   terse=f"People in {department}?", mentions=(department,))
    person = rng.choice(b["people"])
    return Ask({"query": person["name"]},
               say=rng.choice([f"What's {person['name']}'s email address?",
                               f"What's {person['name']}'s job title, and which team are they on?"]),
               terse=f"Look up {person['name']}.", mentions=(person["name"],))


@goals.add("check_conflicts")
def check_conflicts(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["workdays"]:
        return None
    d = rng.choice(b["workdays"])
    minutes = rng.choice([30, 60, 60, 90])
    start = _slot(rng, d, minutes)
    end = start + dt.timedelta(minutes=minutes)
    args: dict[str, Any] = {"start": _iso(start), "end": _iso(end)}
    when = f"on {date(d)} from {clock(start)} to {clock(end)}"
    terse_when = f"{full_date(d)}, {clock(start)} to {clock(end)}?"
    others = rng.sample(b["people"], rng.choice([0, 1, 1, 2]))
    if others:
        args["contact_ids"] = [p["contact_id"] for p in others]
        both = "both" if len(others) == 1 else "all"
        ask, whether = f"Are {names(others, me=True)} {both} free", f"{names(others, me=True)} are {both} free"
        terse = f"Are {names(others, me=True)} free {terse_when}"
    else:
        ask, whether, terse = "Am I free", "I'm free", f"Am I free {terse_when}"
    refs = tuple(_contact(p) for p in others)
    mentions = tuple(p["name"] for p in others) + (day(d), clock(start), clock(end))
    if rng.random() < SPLIT:
        return Ask(args, say=f"I'd like to check whether {whether}.", terse=terse,
                   detail=f"{when[:1].upper()}{when[1:]}.", refs=refs, mentions=mentions)
    return Ask(args, say=f"{ask} {when}?", terse=terse, refs=refs, mentions=mentions)


@goals.add("find_free_slots")
def find_free_slots(b: Bundle, rng: random.Random) -> Ask | None:
    if len(b["workdays"]) < 2:
        return None
    first, last = sorted(rng.sample(b["workdays"], 2))
    minutes = rng.choice([30, 45, 60, 90])
    others = rng.sample(b["people"], rng.choice([1, 1, 2, 3]))
    args = {"contact_ids": [p["contact_id"] for p in others], "start_date": first.isoformat(),
            "end_date": last.isoformat(), "duration_minutes": minutes}
    who = f"{names(others, me=True)} {'are both' if len(others) == 1 else 'are all'} free"
    span = f"between {weekday(first)} and {date(last)}"
    refs = tuple(_contact(p) for p in others)
    terse = f"Find a {minutes}-minute slot for me and {names(others)}, {day(first)} to {full_date(last)}."
    mentions = tuple(p["name"] for p in others) + (f"{minutes}-minute", day(first), day(last))
    if rng.random() < SPLIT:
        return Ask(args, say=f"Can you find a {minutes}-minute slot when {who}?", terse=terse,
                   detail=f"Any time {span} works.", refs=refs, mentions=mentions)
    return Ask(args, say=f"Find me a {minutes}-minute slot {span} when {who}.", terse=terse, refs=refs,
               mentions=mentions)


@goals.add("list_rooms", 0.6)
def list_rooms(b: Bundle, rng: random.Random) -> Ask | None:
    capacity = rng.choice([4, 6, 8, 10])
    if not b["workdays"] or rng.random() < 0.4:
        return Ask({"min_capacity": capacity}, say=f"Which meeting rooms seat at least {capacity} people?",
                   terse=f"Rooms for {capacity}+?")
    d = rng.choice(b["workdays"])
    start = _slot(rng, d, 60)
    end = start + dt.timedelta(minutes=rng.choice([30, 60]))
    args: dict[str, Any] = {"start": _iso(start), "end": _iso(end)}
    when = f"on {date(d)} from {clock(start)} to {clock(end)}"
    if rng.random() < 0.5:
        args = {"min_capacity": capacity, **args}
        return Ask(args, say=f"Which rooms for at least {capacity} people are free {when}?",
                   terse=f"Free rooms for {capacity}+, {full_date(d)}, {clock(start)} to {clock(end)}?",
                   mentions=(day(d), clock(start), clock(end)))
    return Ask(args, say=f"Which meeting rooms are free {when}?",
               terse=f"Free rooms {full_date(d)}, {clock(start)} to {clock(end)}?",
               mentions=(day(d), clock(start), clock(end)))


# -- goals: scheduling -----------------------------------------------------------------------------

@goals.add("create_event", 2.0)
def create_event(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["workdays"]:
        return None
    d = rng.choice(b["workdays"])
    if rng.random() < 0.2:  # a private appointment on the Personal calendar, after work
        calendar = next((c for c in b["calendars"] if c["name"] == "Personal" and not c["read_only"]), None)
        if calendar is None:
            return None
        title = rng.choice(PERSONAL_PLANS)
        start = dt.datetime.combine(d, dt.time(rng.choice([17, 18, 19]), rng.choice([0, 30])))
        end = start + dt.timedelta(minutes=60)
        args = {"title": title, "start": _iso(start), "end": _iso(end), "calendar_id": calendar["calendar_id"]}
        what = f"'{title}' on my Personal calendar"
        return Ask(args, say=f"Please put {what} on {date(d)} from {clock(start)} to {clock(end)}.",
                   terse=f"Personal calendar: '{title}', {full_date(d)}, {clock(start)} to {clock(end)}.",
                   refs=(_calendar(calendar),), mentions=(title, "Personal", day(d), clock(start), clock(end)))
    if not b["fresh_titles"]:
        return None
    title = rng.choice(b["fresh_titles"])
    minutes = rng.choice([30, 45, 60, 60, 90])
    start = _slot(rng, d, minutes)
    end = start + dt.timedelta(minutes=minutes)
    guests = rng.sample(b["people"], rng.choice([0, 1, 1, 2, 2, 3]))
    args: dict[str, Any] = {"title": title, "start": _iso(start), "end": _iso(end)}
    where = ""
    if rng.random() < 0.3:
        args["location"] = rng.choice(VIDEO)
        where = f" on {args['location']}"
    if guests:
        args["invitee_ids"] = [p["contact_id"] for p in guests]
    with_whom = f" with {names(guests)}" if guests else ""
    what = f"a {_length(minutes)} meeting called '{title}'{with_whom}{where}"
    terse = (f"New event '{title}', {full_date(d)}, {clock(start)} to {clock(end)}{where}"
             + (f", invite {names(guests)}." if guests else "."))
    refs = tuple(_contact(p) for p in guests)
    mentions = (title,) + tuple(p["name"] for p in guests) + (day(d), clock(start))
    if rng.random() < SPLIT:
        return Ask(args, say=f"Please set up {what}.", terse=terse,
                   detail=f"Make it {date(d)} at {clock(start)}.", refs=refs, mentions=mentions)
    return Ask(args, say=rng.choice([f"Please set up {what} on {date(d)} at {clock(start)}.",
                                     f"Schedule {what} for {date(d)} at {clock(start)}."]),
               terse=terse, refs=refs, mentions=mentions)


@goals.add("reschedule_event", 1.5)
def reschedule_event(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in _mine(b, (MOVE,), one_off=True) if o["moves"]]
    if not events:
        return None
    o = rng.choice(events)
    start = rng.choice(o["moves"])
    name = event_name(o)
    new = f"{date(start.date())} at {clock(start)}"
    args = {"event_id": o["event_id"], "start": _iso(start)}
    terse = f"Move {name} to {full_date(start.date())}, {clock(start)}, same length."
    mentions = (o["title"], day(start.date()), clock(start))
    if rng.random() < SPLIT:
        return Ask(args, say=f"I need to move {name}; same length as before.", terse=terse,
                   detail=f"Please make it {new} instead.", refs=(_event(o),), mentions=mentions)
    return Ask(args, say=rng.choice([f"Please move {name} to {new}; keep the same length.",
                                     f"Can you reschedule {name} to {new}? It should last as long as before."]),
               terse=terse, refs=(_event(o),), mentions=mentions)


@goals.add("set_recurrence", 2.0)
def set_recurrence(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in _mine(b, (REPEAT,), one_off=True) if o["event"]["room"] is None]
    if not events:
        return None
    o = rng.choice(events)
    first = o["start"].date()
    args: dict[str, Any] = {"event_id": o["event_id"]}
    kind = rng.choice(["weekly", "weekly", "biweekly", "daily", "monthly", "until", "weekdays"])
    if o["event"]["calendar"] == "Personal":
        kind = "monthly"  # a haircut, not a daily stand-up
    count = rng.choice([4, 6, 8, 10])
    if kind == "weekly":
        args.update(frequency="weekly", count=count)
        rule = f"every week, {count} times in all"
    elif kind == "biweekly":
        args.update(frequency="weekly", interval=2, count=count)
        rule = f"every other week, {count} times in all"
    elif kind == "daily":
        count = rng.choice([3, 5])
        args.update(frequency="daily", count=count)
        rule = f"every day, {count} times in all"
    elif kind == "monthly":
        count = rng.choice([3, 6, 12])
        args.update(frequency="monthly", count=count)
        rule = f"every month, {count} times in all"
    elif kind == "until":
        until = first + dt.timedelta(weeks=rng.randint(4, 12))
        args.update(frequency="weekly", until=until.isoformat())
        rule = f"every week until {date(until)}"
    else:
        start_day = first.weekday()
        other = rng.choice([d for d in range(5) if d != start_day])
        chosen = sorted({start_day, other})
        weekdays = [dt.date(2024, 1, 1 + d).strftime("%A") for d in chosen]  # 2024-01-01 was a Monday
        args.update(frequency="weekly", weekdays=[w.lower() for w in weekdays], count=count)
        rule = f"every week on {weekdays[0]} and {weekdays[1]}, {count} times in all"
    name = event_name(o)
    terse = f"Make {name} repeat {rule}."
    if rng.random() < SPLIT:
        return Ask(args, say=f"Please make {name} a recurring event.", terse=terse,
                   detail=f"It should repeat {rule}.", refs=(_event(o),), mentions=(o["title"], rule))
    return Ask(args, say=f"Please make {name} repeat {rule}.", terse=terse, refs=(_event(o),),
               mentions=(o["title"], rule))


@goals.add("cancel_occurrence")
def cancel_occurrence(b: Bundle, rng: random.Random) -> Ask | None:
    occurrences = [o for o in b["occurrences"] if o["recurring"] and o["mine"] and o["future"]
                   and not o["cancelled"] and not o["series_cancelled"] and o["role"] in EDITABLE]
    if not occurrences:
        return None
    o = rng.choice(occurrences)
    d = o["start"].date()
    if rng.random() < SPLIT / 2:
        return Ask({"event_id": o["event_id"], "date": d.isoformat()},
                   say=f"I can't make one of the upcoming {quoted(o)} sessions; please cancel just that one.",
                   terse=f"Cancel only the {quoted(o)} on {full_date(d)}.", detail=f"The one on {date(d)}.",
                   refs=(_event(o),), mentions=(o["title"], day(d)))
    return Ask({"event_id": o["event_id"], "date": d.isoformat()},
               say=rng.choice([f"I can't make the {quoted(o)} on {date(d)}. Please cancel just that one.",
                               f"Please skip the {quoted(o)} on {date(d)} only; the rest of the series stays."]),
               terse=f"Cancel only the {quoted(o)} on {full_date(d)}.", refs=(_event(o),),
               mentions=(o["title"], day(d)))


@goals.add("cancel_event")
def cancel_event(b: Bundle, rng: random.Random) -> Ask | None:
    events = _mine(b, (CANCEL,))
    if not events:
        return None
    o = rng.choice(events)
    name = event_name(o)
    if o["recurring"]:
        say = f"Please cancel {name} altogether, the whole series, and let everyone know."
    else:
        say = rng.choice([f"Please cancel {name}; it's no longer needed.",
                          f"Call off {name}, please, and notify the invitees."])
    return Ask({"event_id": o["event_id"]}, say=say, terse=f"Cancel {name}.", refs=(_event(o),),
               mentions=(o["title"],))


@goals.add("delete_event", 0.7)
def delete_event(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in b["events"] if o["mine"] and o["role"] == DELETE]
    if not events:
        return None
    o = rng.choice(events)
    name = event_name(o)
    return Ask({"event_id": o["event_id"]},
               say=rng.choice([f"Delete {name} from my calendar for good.",
                               f"Please remove {name} from my calendar entirely."]),
               terse=f"Delete {name}.", refs=(_event(o),), mentions=(o["title"],))


@goals.add("update_event")
def update_event(b: Bundle, rng: random.Random) -> Ask | None:
    events = _mine(b, EDITABLE)
    if not events:
        return None
    o = rng.choice(events)
    event, name = o["event"], event_name(o)
    change = rng.choice(["title", "location", "description"])
    if change != "title" and not _shared([o]):
        return None  # agendas and video links are for meetings
    if change == "location" and (event["room"] is not None or o["role"] == ROOMS):
        change = "description"
    if change == "title" and not o["renames"]:
        change = "description"
    if change == "title":
        if not o["renames"]:
            return None
        value = rng.choice(o["renames"])
        return Ask({"event_id": o["event_id"], "title": value}, say=f"Please rename {name} to '{value}'.",
                   terse=f"Rename {name} to '{value}'.", detail=None, refs=(_event(o),),
                   mentions=(o["title"], value))
    if change == "location":
        value = rng.choice([v for v in (*VIDEO, "Cafe on 2") if v != event["location"]])
        return Ask({"event_id": o["event_id"], "location": value},
                   say=f"Please change the location of {name} to {value}.",
                   terse=f"Location of {name}: {value}.", refs=(_event(o),), mentions=(o["title"], value))
    value = rng.choice([a for a in AGENDAS if a != event["description"]])
    if rng.random() < SPLIT:
        return Ask({"event_id": o["event_id"], "description": value},
                   say=f"I'd like to update the description of {name}.",
                   terse=f"Description of {name}: \"{value}\"", detail=f"Set it to: \"{value}\"",
                   refs=(_event(o),), mentions=(o["title"],))
    return Ask({"event_id": o["event_id"], "description": value},
               say=f"Please set the description of {name} to: \"{value}\"",
               terse=f"Description of {name}: \"{value}\"", refs=(_event(o),), mentions=(o["title"], value))


# -- goals: people, invitations, rooms, reminders ------------------------------------------------------

@goals.add("add_invitees", 1.2)
def add_invitees(b: Bundle, rng: random.Random) -> Ask | None:
    # not where a room may be booked in the same task: it is chosen for today's guest list
    events = [o for o in _shared(_mine(b, (MOVE, REPEAT))) if o["event"]["next_occurrence"]]
    if not events:
        return None
    o = rng.choice(events)
    event = o["event"]
    invited = {i["contact_id"] for i in event["invitees"]}
    candidates = [p for p in b["people"] if p["contact_id"] not in invited]
    k = rng.choice([1, 1, 2])
    if event["room"] is not None:
        k = min(k, event["room"]["capacity"] - _headcount(event))
    if k < 1 or len(candidates) < k:
        return None
    guests = rng.sample(candidates, k)
    name = event_name(o)
    if rng.random() < SPLIT / 2:
        return Ask({"event_id": o["event_id"], "contact_ids": [p["contact_id"] for p in guests]},
                   say=f"I'd like to invite more people to {name}.", terse=f"Invite {names(guests)} to {name}.",
                   detail=f"Please add {names(guests)}.", refs=(_event(o), *(_contact(p) for p in guests)),
                   mentions=(o["title"], *(p["name"] for p in guests)))
    return Ask({"event_id": o["event_id"], "contact_ids": [p["contact_id"] for p in guests]},
               say=rng.choice([f"Please invite {names(guests)} to {name}.", f"Can you add {names(guests)} to {name}?"]),
               terse=f"Invite {names(guests)} to {name}.",
               refs=(_event(o), *(_contact(p) for p in guests)),
               mentions=(o["title"], *(p["name"] for p in guests)))


@goals.add("remove_invitee")
def remove_invitee(b: Bundle, rng: random.Random) -> Ask | None:
    people = {p["contact_id"]: p for p in b["people"]}
    events = [o for o in _shared(_mine(b, EDITABLE)) if any(i["contact_id"] in people for i in o["event"]["invitees"])]
    if not events:
        return None
    o = rng.choice(events)
    person = people[rng.choice([i["contact_id"] for i in o["event"]["invitees"] if i["contact_id"] in people])]
    name = event_name(o)
    return _ask(rng, {"event_id": o["event_id"], "contact_id": person["contact_id"]},
                vague=f"Someone on the invite list for {name} doesn't need to come.",
                detail=f"Please remove {person['name']}.",
                says=[f"Please take {person['name']} off the invite list for {name}.",
                      f"{person['name']} doesn't need to come to {name}; please remove them."],
                terse=f"Uninvite {person['name']} from {name}.", refs=(_event(o), _contact(person)),
                mentions=(o["title"], person["name"]))


@goals.add("respond_to_invitation", 1.5)
def respond_to_invitation(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in b["events"] if not o["mine"] and o["my_response"] is not None and o["future"]
              and not o["cancelled"] and not o["series_cancelled"]]
    if not events:
        return None
    pending = [o for o in events if o["my_response"] == "needs-action"]
    o = rng.choice(pending if pending and rng.random() < 0.7 else events)
    response = rng.choice([r for r in RESPONSES if r != o["my_response"]])
    verb, Verb = RESPONSES[response]
    name = event_name(o)
    args = {"event_id": o["event_id"], "response": response}
    terse = f"{Verb} {name}."
    if rng.random() < SPLIT:
        return Ask(args, say=f"I need to answer the invitation to {name}.", terse=terse,
                   detail=f"Please {verb} it.", refs=(_event(o),), mentions=(o["title"],))
    if response == "declined":
        say = f"I can't make {name}. Please decline the invitation."
    else:
        say = f"Please {verb} the invitation to {name}."
    return Ask(args, say=say, terse=terse, refs=(_event(o),), mentions=(o["title"],))


@goals.add("add_contact", 0.6)
def add_contact(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["new_people"]:
        return None
    name, email, company, title = rng.choice(b["new_people"])
    args = {"full_name": name, "email": email, "company": company, "job_title": title}
    terse = f"New contact: {name}, {email}, {title} at {company}."
    if rng.random() < SPLIT:
        return Ask(args, say=f"Please add {name}, {title} at {company}, to my contacts so I can invite them.",
                   terse=terse, detail=f"The email address is {email}.", refs=(), mentions=(name, company))
    return Ask(args, say=f"Please add {name} to my contacts: {title} at {company}, email {email}.",
               terse=terse, mentions=(name, email, company))


@goals.add("book_room", 2.0)
def book_room(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in _mine(b, (ROOMS,), one_off=True) if o["free_rooms"] and o["event"]["calendar"] != "Personal"
              and not o["title"].startswith("Coffee chat")]
    if not events:
        return None
    o = rng.choice(events)
    room = rng.choice(o["free_rooms"])
    name = event_name(o)
    return _ask(rng, {"event_id": o["event_id"], "room_id": room["room_id"]},
                vague=f"{name[:1].upper() + name[1:]} needs a meeting room; can you book one?",
                detail=f"The {room['name']} room, please.",
                says=[f"Please book the {room['name']} room for {name}.", f"Can you reserve {room['name']} for {name}?"],
                terse=f"Book {room['name']} for {name}.", refs=(_event(o), _room(room)),
                mentions=(o["title"], room["name"]))


@goals.add("release_room", 0.7)
def release_room(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in _mine(b, (ROOMS,)) if o["event"]["room"] is not None]
    if not events:
        return None
    o = rng.choice(events)
    room, name = o["event"]["room"]["name"], event_name(o)
    return Ask({"event_id": o["event_id"]},
               say=f"We won't need the {room} room for {name} after all; please release it.",
               terse=f"Release the room of {name}.", refs=(_event(o),), mentions=(o["title"],))


@goals.add("add_reminder", 1.2)
def add_reminder(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in _live(b) if len(o["event"]["reminders"]) < 5]
    if not events:
        return None
    o = rng.choice(events)
    minutes, lead = rng.choice(REMINDERS)
    method = "email" if rng.random() < 0.35 else "popup"
    if any(r["minutes_before"] == minutes and r["method"] == method for r in o["event"]["reminders"]):
        return None
    args: dict[str, Any] = {"event_id": o["event_id"], "minutes_before": minutes}
    kind = "a reminder"
    if method == "email":
        args["method"] = "email"
        kind = "an email reminder"
    name = event_name(o)
    terse = f"{kind.capitalize()} {lead} before {name}."
    if rng.random() < SPLIT:
        return Ask(args, say=f"Please set {kind} for {name}.", terse=terse,
                   detail=f"{lead.capitalize()} before it starts.", refs=(_event(o),), mentions=(o["title"],))
    return Ask(args, say=rng.choice([f"Please set {kind} {lead} before {name}.",
                                     f"Remind me {lead} before {name}" +
                                     (" by email." if method == "email" else ".")]),
               terse=terse, refs=(_event(o),), mentions=(o["title"], lead))


def _reminder_words(reminder: dict) -> str:
    """'the 10-minute popup reminder': unique on its event (no two reminders are alike)."""
    minutes = reminder["minutes_before"]
    lead = {60: "one-hour", 120: "two-hour", 1440: "one-day"}.get(minutes, f"{minutes}-minute")
    return f"the {lead} {reminder['method']} reminder"


@goals.add("remove_reminder", 0.8)
def remove_reminder(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in _live(b) if o["event"]["reminders"]]
    if not events:
        return None
    o = rng.choice(events)
    reminder = rng.choice(o["event"]["reminders"])
    what, name = _reminder_words(reminder), event_name(o)
    return Ask({"reminder_id": reminder["reminder_id"]},
               say=rng.choice([f"Please remove {what} on {name}.", f"I don't need {what} for {name}; delete it."]),
               terse=f"Remove {what} on {name}.", refs=(_event(o), _reminder(o, reminder)),
               mentions=(o["title"],))


# -- hidden ------------------------------------------------------------------------------------------

def record_answer(b: Bundle, rng: random.Random) -> str | None:
    """Only the hidden set_invitee_response could record someone else's answer."""
    people = {p["contact_id"]: p for p in b["people"]}
    events = [(o, i) for o in b["events"] if o["mine"] and o["future"] and not o["cancelled"]
              for i in o["event"]["invitees"] if i["contact_id"] in people and i["response"] != "accepted"]
    if not events:
        return None
    o, invitee = rng.choice(events)
    person = people[invitee["contact_id"]]["name"]
    return rng.choice([
        f"{person} told me in the hallway that they'll come to {event_name(o)}. Please mark them as accepted.",
        f"Please record that {person} accepted my invitation to {event_name(o)}; they replied by phone.",
    ])


recipe = Recipe(server="calendar", sample=sample, topics=("calendar",), goals=goals.all, lookups=(
    Lookup("event", "search_events", args=lambda r: {"query": r.entity["title"]}),
    Lookup("contact", "find_contacts", args=lambda r: {"query": r.entity["name"]}),
    Lookup("room", "list_rooms", args=lambda r: {}),
    Lookup("calendar", "list_calendars", args=lambda r: {}),
    Lookup("reminder", "list_reminders", args=lambda r: {"event_id": r.entity["event"]["event_id"]},
           needs=_of_event),
), hidden=(HiddenAsk("set_invitee_response", record_answer),))
