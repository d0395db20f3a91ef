"""How tasks are written for the calendar: its owner asks about and changes their week, naming
events by title (and their day when the title alone is not enough: "the Release process retro on
Monday, September 7"), colleagues by name, rooms by name and reminders by what they do ("the
10-minute popup reminder").

A bundle is a fortnight (from any Monday between last week and six weeks ahead) with the events a
person can name in it, plus the directory, the rooms and the calendars. A day that becomes an
argument is said either in full, with its year, or the way people say it from today ("tomorrow",
"next Tuesday"): then the request first asks for the current date (`get_current_time`), which the
tools say to call before resolving such words. Events the user organizes are split between the
kinds of change (by their id number), so that two requests of one task never get in each other's
way (a meeting that is cancelled is not also rescheduled, a room is not booked for a meeting that
also moves).

Every request that asks to be told something declares the facts its answer must state: titles,
names, counts, dates and times read from the serving call's result.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from prove_env.facts import NOTHING, one_of
from prove_env.synthesis.recipe import (
    Ask,
    Goals,
    HiddenAsk,
    Lookup,
    Reader,
    Recipe,
    Ref,
)
from prove_env.synthesis.wording import (
    article,
    clock,
    day,
    full_date,
    listing,
    relative_day,
    weekday,
)

from .seed import MEETING_KINDS, TOPICS

Bundle = dict[str, Any]
Facts = Callable[[Any], Sequence[Any]]

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
VERB_TITLES = ("Pick up ",)  # titles said in quotes: they start with a verb
PERSONAL_PLANS = ("Gym session", "Pick up the kids", "Piano lesson", "Physio follow-up", "Grocery run",
                  "Call with Mom", "Yoga class", "Plumber visit")
VIDEO = ("Zoom", "Google Meet")
AGENDAS = ("Review open risks and agree on next steps.", "Walk through the latest metrics and decide on priorities.",
           "Demo of the current build, then questions.", "Go over the timeline and who owns what.")
REMINDERS = ((5, "5 minutes"), (10, "10 minutes"), (15, "15 minutes"), (30, "30 minutes"), (60, "an hour"),
             (120, "two hours"), (1440, "a day"))
RESPONSES = {"accepted": ("accept", "Accept"), "declined": ("decline", "Decline"),
             "tentative": ("tentatively accept", "Tentatively accept")}
NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 8: "eight", 10: "ten", 12: "twelve"}

# Share of requests that say a required value in a sentence of its own (`Ask.detail`), which the
# "missing" information level holds back for the next turn.
SPLIT = 0.6
# Share of days said from today ("tomorrow", "next Tuesday") where such words exist.
RELATIVE = 0.4
NOW = (("get_current_time", {}),)  # what a request that names a day from today asks for first

# Which changes an event the user organizes may receive, by its id number modulo 5.
CANCEL, DELETE, MOVE, REPEAT, ROOMS = range(5)
EDITABLE = (MOVE, REPEAT, ROOMS)  # titles, invitees, reminders: compatible with every other change


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """One bundle per fortnight with an event a person can name unambiguously: its title is
    unique, or unique on its day for a one-off event (and the search for it shows it)."""
    today = now.date()
    directory = read("find_contacts", limit=100)
    me = next(c for c in directory if c["is_me"])
    people = [c for c in directory if not c["is_me"] and len(read("find_contacts", query=c["name"])) == 1]
    rooms = read("list_rooms")
    calendars = read("list_calendars")
    upcoming = [c["calendar_id"] for c in calendars
                if read("list_upcoming_events", limit=1, calendar_id=c["calendar_id"])]
    pending = read("list_pending_invitations", limit=1)["total"]
    # the reminders a listing of every reminder still to go off shows, with their event's title
    listed_reminders = {r["reminder_id"] for r in read("list_reminders")}
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
        listed = read("list_events", start_date=first.isoformat(), end_date=last.isoformat(),
                      include_cancelled=True, limit=200)["events"]
        busy: dict[dt.date, list[str]] = {}  # day -> the calendars with a live event on it
        for item in listed:
            if item["status"] != "cancelled":
                busy.setdefault(dt.date.fromisoformat(item["start"][:10]), []).append(item["calendar_id"])
        occurrences = []
        for item in listed:
            found = search(item["title"])
            if not _nameable(item, found):
                continue
            start = dt.datetime.fromisoformat(item["start"])
            event = detail(item["event_id"])
            occurrences.append({
                "event_id": item["event_id"], "title": item["title"], "start": start,
                "end": dt.datetime.fromisoformat(item["end"]), "recurring": item["recurring"],
                "cancelled": item["status"] == "cancelled", "series_cancelled": event["status"] == "cancelled",
                "mine": item["my_response"] == "organizer", "my_response": item["my_response"],
                "future": start > now, "event": event, "role": int(item["event_id"].split("-")[1]) % 5,
                "unique": sum(e["title"] == item["title"] for e in found) == 1,
            })
        if not occurrences:
            continue
        others_busy: dict[str, list[tuple[dt.datetime, dt.datetime]]] = {}  # contact id -> busy spans
        for offset in range(0, SPAN, 7) if people else ():
            since = dt.datetime.combine(first + dt.timedelta(days=offset), dt.time())
            checked = read("check_conflicts", start=_iso(since), end=_iso(since + dt.timedelta(days=7)),
                           contact_ids=[p["contact_id"] for p in people])
            for c in checked["conflicts"]:
                if c["contact_id"] != me["contact_id"]:
                    others_busy.setdefault(c["contact_id"], []).append(
                        (dt.datetime.fromisoformat(c["start"]), dt.datetime.fromisoformat(c["end"])))
        events: dict[str, dict] = {}
        for o in occurrences:  # one entry per event: a series by its next occurrence in the fortnight
            if o["event_id"] not in events or (o["future"] and not events[o["event_id"]]["future"]):
                events[o["event_id"]] = o
        for o in events.values():
            _plan_changes(read, o, now, rng)
            o["renames"] = _renames(o, search, rng) if o["mine"] else []
        days = [first + dt.timedelta(days=i) for i in range(SPAN)]
        workdays = [d for d in days if d > today and d.weekday() < 5]
        bundles.append({
            "now": now, "me": me, "people": people, "rooms": rooms, "calendars": calendars,
            "upcoming_calendars": upcoming, "pending": pending, "listed_reminders": listed_reminders,
            "busy": busy, "others_busy": others_busy,
            "days": days, "workdays": workdays, "room_spans": _room_spans(read, occurrences, workdays, rng),
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
    if o["role"] == MOVE and o["unique"]:  # named by its title alone: a day beside it goes stale once it moves
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


def _room_spans(read: Reader, occurrences: list[dict], workdays: list[dt.date], rng: random.Random) -> list[dict]:
    """Spans to ask which rooms are free in, each overlapping a future occurrence that holds a room
    no request in the task frees (others' meetings, and the user's own one-offs that may only be
    made to repeat), with the rooms free then: at least that one room is not."""
    spans = []
    for o in occurrences:
        if not (o["future"] and o["event"]["room"] and not o["cancelled"] and not o["series_cancelled"]
                and o["start"].date() in workdays
                and (not o["mine"] or (o["role"] == REPEAT and not o["recurring"]))):
            continue
        start = o["start"] - dt.timedelta(minutes=rng.choice([0, 15]))
        end = start + dt.timedelta(minutes=rng.choice([30, 60]))
        free = read("list_rooms", start=_iso(start), end=_iso(end))
        if o["event"]["room"]["room_id"] not in {r["room_id"] for r in free}:
            spans.append({"start": start, "end": end, "free": free})
    return spans


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


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Day:
    """A day that becomes an argument, as the user says it.

    Attributes:
        on: with its preposition: 'on Tuesday, October 6, 2026', 'tomorrow', 'next Tuesday'.
        bare: without it: 'Tuesday, October 6, 2026', 'tomorrow', 'next Tuesday'.
        mention: what the words must keep: 'October 6', 'tomorrow', 'next Tuesday'.
        prior: the calls the request makes first: the current date for a day said from today.
    """

    on: str
    bare: str
    mention: str
    prior: tuple[tuple[str, dict[str, Any]], ...] = ()


def say_day(b: Bundle, d: dt.date, rng: random.Random, relative: float = RELATIVE) -> Day:
    """The day in full with its year, or (`relative` of the time, where such words exist) from today."""
    today = b["now"].date()
    words = relative_day(d, today)
    if words.startswith("next ") and d.weekday() > today.weekday():
        words = f"on {day(d)}"  # 'next Friday' said on a Tuesday may as well be this Friday: the date is said
    if words != f"on {day(d)}" and rng.random() < relative:
        bare = words.removeprefix("on ")
        return Day(words, bare, bare, NOW)
    form = rng.choice([date(d), date(d), full_date(d)])
    return Day(f"on {form}", form, day(d))


def _range(b: Bundle, first: dt.date, last: dt.date, rng: random.Random) -> tuple[Day, Day]:
    """The first and last days of a span: both from today, or both in full (the year said once): a
    day from today beside a date would read from either."""
    start = say_day(b, first, rng)
    if start.prior:
        end = say_day(b, last, rng, relative=1.0)
        if end.prior:
            return start, end
    return Day(f"on {weekday(first)}", weekday(first), day(first)), Day(f"on {date(last)}", date(last), day(last))


def names(people: list[dict], *, me: bool = False) -> str:
    """'Ana Smith, Bo Chen and Cy Diaz' (and 'I' last when `me`)."""
    return listing([p["name"] for p in people] + (["I"] if me else []))


def quoted(o: dict) -> str:
    """The title as said: quoted when its punctuation would read oddly ('Interview: Ada Park'), or
    when it starts with a verb ('Pick up dry cleaning': "make my Pick up dry cleaning ..." reads oddly)."""
    title = o["title"]
    return f"'{title}'" if any(ch in title for ch in ":/") or title.startswith(VERB_TITLES) else title


def event_name(o: dict, rng: random.Random | None = None) -> str:
    """'the Platform Tech Sync' (a series), 'the Focus time on Wednesday, September 16' (a one-off;
    one that may move in the task by its title alone, which names it before and after the move);
    with `rng`, one of the ways that still name only this event ('my Platform Tech Sync', 'the
    Billing API review' when no other event has that title, 'the Focus time on September 16')."""
    title = quoted(o)
    if o.get("moves"):  # it may move earlier in the task: its old day would then name no event
        return rng.choice([f"the {title}", f"my {title}"]) if rng else f"the {title}"
    if rng is None:
        return f"the {title}" if o["recurring"] else f"the {title} on {weekday(o['start'].date())}"
    if o["recurring"]:
        return rng.choice([f"the {title}", f"the {title}", f"my {title}", f"the recurring {title}"])
    d = o["start"].date()
    dated = [f"the {title} on {weekday(d)}", f"the {title} on {day(d)}", f"my {title} on {weekday(d)}"]
    return rng.choice(dated + ([f"the {title}", f"my {title}"] if o["unique"] else []))


def _event(o: dict) -> Ref:
    return Ref("event", o["event_id"], {"title": o["title"]})


def _contact(c: dict) -> Ref:
    return Ref("contact", c["contact_id"], c)


def _room(r: dict) -> Ref:
    return Ref("room", r["room_id"], r)


def _calendar(c: dict) -> Ref:
    return Ref("calendar", c["calendar_id"], c)


def _reminder(o: dict, reminder: dict, listed: bool = False) -> Ref:
    """A reminder named by what it does on its event; `listed`: the listing of every reminder still
    to go off shows it (with the event's title), so one call finds it without the event."""
    return Ref("reminder", reminder["reminder_id"],
               {**reminder, "event": {"event_id": o["event_id"], "title": o["title"]}, "listed": listed})


def _of_event(ref: Ref) -> list[Ref]:
    if ref.entity.get("listed"):
        return []
    event = ref.entity["event"]
    return [Ref("event", event["event_id"], event)]


def _reminder_lookup(ref: Ref) -> dict:
    """Every reminder still to go off where that listing shows it, else the event's own."""
    return {} if ref.entity.get("listed") else {"event_id": ref.entity["event"]["event_id"]}


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




def _ask(rng: random.Random, args: dict, *, says: Sequence[str], terse: Sequence[str],
         vague: Sequence[str] = (), details: Sequence[str] = (), split: float = SPLIT / 2,
         refs: tuple[Ref, ...] = (), mentions: tuple[str, ...] = (),
         prior: tuple[tuple[str, dict[str, Any]], ...] = (), facts: Facts | None = None) -> Ask:
    """A request in one of its phrasings: either the 'which one' left to a second sentence (one of
    `vague`, then one of `details`, which the "missing" level holds back), `split` of the time
    when there are such phrasings, or said at once (one of `says`); `terse` for the minimal level."""
    short = rng.choice(list(terse))
    if vague and rng.random() < split:
        say, detail = rng.choice(list(vague)), rng.choice(list(details))
        return Ask(args, say=say, terse=short, detail=detail,
                   refs=refs, mentions=mentions, prior=prior, facts=facts)
    return Ask(args, say=rng.choice(list(says)), terse=short, refs=refs, mentions=mentions, prior=prior,
               facts=facts)


def _length(minutes: int) -> str:
    return {60: "one-hour", 90: "90-minute", 120: "two-hour"}.get(minutes, f"{minutes}-minute")


def _duration(minutes: int) -> str:
    return {30: "half an hour", 45: "45 minutes", 60: "an hour", 90: "an hour and a half",
            120: "two hours"}.get(minutes, f"{minutes} minutes")


def _count(n: int, rng: random.Random) -> str:
    """A small number as a word or in digits."""
    return NUMBERS[n] if n in NUMBERS and rng.random() < 0.5 else str(n)


# -- facts: what an answer states, read from a result ---------------------------------------------------

def _first(values: Sequence[Any], n: int = 5) -> list[Any]:
    """The first `n` distinct values, skipping empty ones."""
    return list(dict.fromkeys(v for v in values if v not in (None, "")))[:n]


# A title of the form 'Kind: who' as an answer says it: 'Interview: Ronald Meyers' is as right said as
# 'an interview with Ronald Meyers' (seed 127: "No, you have an interview with Ronald Meyers then."
# failed), 'Mentoring: Julia Lane' as 'mentoring with Julia Lane', 'Customer call: Clark LLC' as 'a
# customer call with Clark LLC'
_TITLE_WORDS = {
    "Interview": ("interview with {}", "{} interview", "interviewing {}", "interview of {}"),
    "Mentoring": ("mentoring with {}", "mentoring session with {}", "mentoring {}", "{} mentoring"),
    "Customer call": ("customer call with {}", "call with {}", "{} customer call", "{} call"),
}


def _title(title: Any) -> Any:
    """An event title as a fact: the title, or the words an answer says it in ('Kind: who')."""
    kind, sep, who = str(title).partition(": ")
    if not sep or kind not in _TITLE_WORDS or not who.strip():
        return title
    return one_of(title, *(words.format(who) for words in _TITLE_WORDS[kind]))


def _said(titles: Sequence[Any]) -> list[Any]:
    return [_title(t) for t in titles]


def _titles(key: str | None = None, n: int = 5) -> Facts:
    """The titles of the first `n` distinct entries of a list result (or of its `key` list)."""
    return lambda r: _said(_first([e["title"] for e in (r[key] if key else r)], n))


# -- goals: reading the calendar ----------------------------------------------------------------------

goals = Goals()


@goals.add("get_current_time", 0.2)
def get_current_time(b: Bundle, rng: random.Random) -> Ask | None:
    kind = rng.choice(["date", "date", "moment", "weekday"])
    if kind == "date":
        return Ask({}, say=rng.choice(["What's today's date?", "What's the date today?",
                                       "I've lost track of the days. What's the date today?",
                                       "Could you remind me what today's date is?"]),
                   terse=rng.choice(["Today's date?", "Date today?"]), facts=lambda r: [r["date"]])
    if kind == "moment":
        return Ask({}, say=rng.choice(["What's the date and time right now?",
                                       "Can you tell me the current date and time?",
                                       "What day is it today, and what time is it?"]),
                   terse=rng.choice(["Date and time now?", "Current date and time?"]), facts=lambda r: [r["now"]])
    return Ask({}, say=rng.choice(["What day of the week is it today?", "Is it a weekday today? Which day is it?",
                                   "Which day of the week are we on?"]),
               terse="Day of the week today?", facts=lambda r: [r["weekday"]])


@goals.add("list_calendars", 0.2)
def list_calendars(b: Bundle, rng: random.Random) -> Ask | None:
    # never which calendar is the default: create_event's own description names it (Work), so the
    # question needs no call and is no missing-function task when list_calendars is hidden
    kind = rng.choice(["all", "all", "shared", "read-only"])
    if kind == "shared" and any(c["shared"] for c in b["calendars"]):
        return Ask({}, say=rng.choice(["Which of my calendars are shared ones?",
                                       "Which shared calendars am I subscribed to?"]),
                   terse="Shared calendars?",
                   facts=lambda r: _first([c["name"] for c in r if c["shared"]]))
    if kind == "read-only":
        return Ask({}, say=rng.choice(["Are any of my calendars read-only? Which ones?",
                                       "Which calendars can't I add events to?"]),
                   terse="Read-only calendars?",
                   facts=lambda r: _first([c["name"] for c in r if c["read_only"]]))
    return Ask({}, say=rng.choice(["Which calendars do I have access to?",
                                   "Can you list my calendars, including the shared ones?",
                                   "What calendars are on my account?",
                                   "Remind me which calendars I'm subscribed to."]),
               terse=rng.choice(["List my calendars.", "My calendars?"]),
               facts=lambda r: _first([c["name"] for c in r]))


@goals.add("list_events", 1.5)
def list_events(b: Bundle, rng: random.Random) -> Ask | None:
    busy = b["busy"]
    firsts = [d for d in b["days"] if d.weekday() < 5 and any(
        busy.get(d + dt.timedelta(days=i)) for i in range(5 - d.weekday()))]
    if not firsts:
        return None
    first = rng.choice(firsts)
    friday = first + dt.timedelta(days=4 - first.weekday())
    last = first if rng.random() < 0.6 and busy.get(first) else friday  # one day, or the rest of that work week
    days = [first + dt.timedelta(days=i) for i in range((last - first).days + 1)]
    args: dict[str, Any] = {"start_date": first.isoformat(), "end_date": last.isoformat()}
    refs: tuple[Ref, ...] = ()
    where, mentions = "my calendar", ()
    held = {c for d in days for c in busy.get(d, [])}
    others = [c for c in b["calendars"] if not c["is_default"] and c["calendar_id"] in held]
    if others and rng.random() < 0.25:
        calendar = rng.choice(others)
        args["calendar_id"] = calendar["calendar_id"]
        refs, where, mentions = (_calendar(calendar),), f"the {calendar['name']} calendar", (calendar["name"],)
    if first == last:
        start = say_day(b, first, rng)
        span, bare, prior = start.on, start.bare, start.prior
        mentions += (start.mention,)
    else:
        start, end = _range(b, first, last, rng)
        span = bare = f"from {start.bare} to {end.bare}"
        prior = start.prior or end.prior
        mentions += (start.mention, end.mention)
    kind = rng.choice(["list", "list", "list", "count", "first"]) if first == last else "list"
    # days already gone are asked of in the past tense, and never to plan ahead
    over = last < b["now"].date()
    if kind == "count":
        facts: Facts = lambda r: [r["total"]]
        says = ([f"How many events did I have on {where} {span}?", f"How many meetings were on {where} {span}?",
                 f"How busy was I {span}? Just give me the number of events on {where}."] if over else
                [f"How many events do I have on {where} {span}?", f"How many meetings are on {where} {span}?",
                 f"How busy am I {span}? Just give me the number of events on {where}."])
        terse = [f"How many events {span}?" if where == "my calendar" else f"How many events {span} on {where}?"]
    elif kind == "first":
        facts = lambda r: [_title(r["events"][0]["title"])]
        # never "on Tuesday, March 17, 2026 on my calendar" (seed 135): the calendar, if named, is "in"
        inside = "" if where == "my calendar" else f" in {where}"
        says = ([f"What was the first thing on {where} {span}?", f"What was my first event {span}{inside}?",
                 f"Which event came first on {where} {span}?"] if over else
                [f"What's the first thing on {where} {span}?", f"What's my first event {span}{inside}?",
                 f"Which event comes first on {where} {span}?"])
        terse = [f"First event {span}{inside}?"]
    else:
        facts = _titles("events", 50)  # every title asked for (seed 133: five of six on one day)
        says = ([f"What was on {where} {span}?", f"What did I have on {where} {span}?",
                 f"Looking back, what was on {where} {span}?",
                 f"Can you tell me what was scheduled on {where} {span}, please?"] if over else
                [f"What's on {where} {span}?", f"What do I have on {where} {span}?",
                 f"Could you go through {where} {span} for me?",
                 f"I'm trying to plan ahead. What's on {where} {span}?",
                 f"Can you tell me what's scheduled on {where} {span}, please?",
                 f"Walk me through {where} {span}, please."])
        terse = [f"{_cap(where)} {span}?", f"Events on {where} {span}?"]
    vague = [f"Can you check what {'was' if over else 'is'} on {where} for me?", f"I need to look at {where}.",
             f"Could you pull up {where}?"] if kind == "list" else ()
    details = [f"I mean {bare}.", f"{_cap(bare)}, please."] + ([f"For {bare}."] if first == last else [])
    return _ask(rng, args, says=says, terse=terse, vague=vague, details=details, refs=refs, mentions=mentions,
                prior=prior, facts=facts)


def _starts_at(start: str, now: dt.datetime) -> list[Any]:
    """When an event starts, as the facts of an answer: its date and time together, or, for an event
    today or tomorrow, the day said either way ('today at 4 pm' is as right as 'July 23 at 4 pm') and
    the time."""
    moment = dt.datetime.fromisoformat(start)
    near = {now.date(): "today", now.date() + dt.timedelta(days=1): "tomorrow"}.get(moment.date())
    if near is None:
        return [start]
    return [one_of(moment.date().isoformat(), near), moment.strftime("%H:%M")]


@goals.add("list_upcoming_events", 0.5)
def list_upcoming_events(b: Bundle, rng: random.Random) -> Ask | None:
    limit = rng.choice([1, 3, 5, 5, 8])
    args: dict[str, Any] = {"limit": limit}
    refs: tuple[Ref, ...] = ()
    where, mentions = "on my calendar", ()
    calendars = [c for c in b["calendars"] if c["calendar_id"] in b["upcoming_calendars"] and not c["is_default"]]
    if calendars and rng.random() < 0.3:
        calendar = rng.choice(calendars)
        args["calendar_id"] = calendar["calendar_id"]
        refs, where, mentions = (_calendar(calendar),), f"on the {calendar['name']} calendar", (calendar["name"],)
    if limit == 1:
        return Ask(args, say=rng.choice([f"What's the next thing {where}, and when is it?",
                                         f"What's coming up next {where}? When does it start?",
                                         f"When is my next event {where}, and what is it?"]),
                   terse=f"Next event {where}, and when?", refs=refs, mentions=mentions,
                   facts=lambda r: [_title(r[0]["title"]), *_starts_at(r[0]["start"], b["now"])])
    n = _count(limit, rng)
    return Ask(args, say=rng.choice([f"What are the next {n} events {where}?",
                                     f"Show me the next {n} things coming up {where}.",
                                     f"What's coming up {where}? The next {n} events, please.",
                                     f"Could you list my next {n} events {where}?",
                                     f"I'd like a quick look ahead: what are the next {n} things {where}?"]),
               terse=rng.choice([f"Next {n} events {where}?", f"Upcoming, {where}: next {n}?"]),
               refs=refs, mentions=mentions, facts=_titles(n=limit))  # every one asked for (seed 125: 5 of 8)


@goals.add("search_events", 0.7)
def search_events(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["topics"]:
        return None
    topic = rng.choice(b["topics"])
    if rng.random() < 0.3:
        return Ask({"query": topic}, say=rng.choice([f"How many events about {topic} are on my calendar?",
                                                     f"How many {topic} meetings have there been, or are planned?"]),
                   terse=f"Number of events about {topic}?", mentions=(topic,), facts=lambda r: [r["total"]])
    return Ask({"query": topic}, say=rng.choice([f"Find all the events about {topic}, past and upcoming.",
                                                 f"Which meetings have I had, or will I have, about {topic}?",
                                                 f"Could you search my calendar for anything about {topic}?",
                                                 f"I need everything on my calendar to do with {topic}.",
                                                 f"Has {topic} come up in any meetings? Past or future is fine."]),
               terse=rng.choice([f"Events about {topic}?", f"Search my calendar: {topic}."]), mentions=(topic,),
               facts=_titles("events", 20))  # all of them, as asked, not the first five


def _standing(b: Bundle) -> list[dict]:
    """Live events (past ones included) that no request cancels or deletes."""
    return [o for o in b["events"] if not o["cancelled"] and not o["series_cancelled"]
            and not (o["mine"] and o["role"] in (CANCEL, DELETE))]


@goals.add("search_events", 0.8)
def event_facts(b: Bundle, rng: random.Random) -> Ask | None:
    """Where an event is, when it is (next) and whose it is: its line in a search by its title
    shows them, so the search that finds it answers."""
    events = _standing(b)
    if not events:
        return None
    o = rng.choice(events)
    event, name = o["event"], event_name(o, rng)
    kinds = ["place"] if event["location"] else []
    kinds += ["when"] if o["recurring"] and event["next_occurrence"] or o["unique"] and o["future"] else []
    kinds += ["organizer"] if not o["mine"] else []
    if not kinds:
        return None
    kind, eid = rng.choice(kinds), o["event_id"]

    def line(read: Callable[[dict], Any]) -> Facts:
        return lambda r: [read(e) for e in r["events"] if e["event_id"] == eid]

    over = not o["recurring"] and o["end"] <= b["now"]  # a one-off already held: asked of in the past tense
    if kind == "place":
        facts = line(lambda e: e["location"])
        says = ([f"Where was {name}?", f"Where did {name} take place?", f"Remind me where {name} was held?",
                 f"I forgot where {name} was. Can you check?"] if over else
                [f"Where is {name}?", f"Where's {name} happening?", f"Remind me where {name} takes place?",
                 f"I forgot where {name} is. Can you check?"])
        terse = [f"Location of {name}?"]
    elif kind == "when":
        facts = line(lambda e: e["next_occurrence"] or e["start"])
        title, nxt = f"the {quoted(o)}", " next" if o["recurring"] else ""
        says = [f"When is {title}{nxt}?", f"What day and time is {title}{nxt}?", f"Can you check when {title} is{nxt}?",
                f"I can't remember when {title} is{nxt}. Could you look it up?"]
        terse = [f"When is {title}{nxt}?"]
    else:
        facts = line(lambda e: e["organizer"])
        says = [f"Who organized {name}?", f"Who set up {name}?", f"Whose meeting {'was' if over else 'is'} {name}?"]
        terse = [f"Organizer of {name}?"]
    return _ask(rng, {"query": o["title"]}, says=says, terse=terse, mentions=(o["title"],), facts=facts)


@goals.add("get_event", 1.0)
def get_event(b: Bundle, rng: random.Random) -> Ask | None:
    """Who is invited to an event, or who has not replied: only the event's own record lists its guests
    (others than the user; never asked of a meeting whose title names them all, such as a coffee chat).
    The guest list is asked as who is invited, never as who is coming: a guest who has not replied or
    declined is on the list but not coming."""

    def guests(o: dict) -> list[dict]:
        return [i for i in o["event"]["invitees"] if i["contact_id"] != b["me"]["contact_id"]]

    events = [o for o in _standing(b) if guests(o) and not all(i["name"] in o["title"] for i in guests(o))]
    if not events:
        return None
    o = rng.choice(events)
    event, name = o["event"], event_name(o, rng)
    kinds = ["guests", "guests"] + (["overview"] if event["location"] else [])
    kinds += ["waiting"] if any(i["response"] == "needs-action" for i in guests(o)) else []
    kind = rng.choice(kinds)
    args, refs, mentions = {"event_id": o["event_id"]}, (_event(o),), (o["title"],)

    def listed(r: dict, response: str | None = None) -> list[str]:
        """Every guest asked about (others than the user), not the first few."""
        found = [i["name"] for i in r["invitees"] if i["contact_id"] != b["me"]["contact_id"]
                 and response in (None, i["response"])]
        return _first(found, len(found))

    over = not o["recurring"] and o["end"] <= b["now"]  # a one-off already held: asked of in the past tense
    if kind == "guests":
        # asked as who is invited, never how they replied: the facts are the names alone, every one of
        # them (seed 127: four of the six guests of the Platform Standup were checked)
        facts: Facts = lambda r: listed(r)
        says = ([f"Who was on the invite list for {name}?", f"Who was on the guest list for {name}?",
                 f"Can you tell me who was invited to {name}?", f"Remind me who was invited to {name}."] if over
                else [f"Who is on the invite list for {name}?", f"Who's on the guest list for {name}?",
                      f"Can you tell me who's been invited to {name}?", f"I'd like to know who's invited to {name}."])
        terse = [f"Invitees of {name}?", f"Who was invited to {name}?" if over else f"Who's invited to {name}?"]
    elif kind == "waiting":
        facts = lambda r: listed(r, "needs-action")
        says = ([f"Who never answered the invitation to {name}?", f"Did anyone not reply to {name}? Who?",
                 f"Which guests of {name} never responded?"] if over else
                [f"Who still hasn't answered the invitation to {name}?",
                 f"Is anyone yet to reply to {name}? Who?", f"Which guests of {name} haven't responded yet?"])
        terse = [f"Who didn't reply to {name}?" if over else f"Who hasn't replied to {name}?"]
    else:
        facts = lambda r: [r["location"], *listed(r)]
        says = ([f"Can you pull up the details of {name}? Where was it, and who was invited?",
                 f"Where was {name}, and who was invited?", f"Tell me about {name}: the place and the guest list."]
                if over else
                [f"Can you pull up the details of {name}? Where is it, and who's invited?",
                 f"Where is {name}, and who's invited?", f"Tell me about {name}: the place and the guest list."])
        terse = [f"Place and invitees of {name}?"]
    return _ask(rng, args, says=says, terse=terse, refs=refs, mentions=mentions, facts=facts)


@goals.add("list_pending_invitations", 0.3)
def list_pending_invitations(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["pending"]:
        return None
    kind = rng.choice(["list", "list", "count", "next"])
    if kind == "count":
        return Ask({}, say=rng.choice(["How many invitations am I still to answer?",
                                       "How many meeting invites haven't I replied to yet?"]),
                   terse="Number of unanswered invitations?", facts=lambda r: [r["total"]])
    if kind == "next":
        return Ask({}, say=rng.choice(["What's the soonest invitation I still need to answer?",
                                       "Of the invitations I haven't answered, which one is coming up first?"]),
                   terse="Soonest unanswered invitation?", facts=lambda r: [_title(r["invitations"][0]["title"])])
    # every one asked for is read: past the default page of 20 (seed 133: 20 of 21), a longer one
    args = {} if b["pending"] <= 20 else {"limit": 100}
    return Ask(args, say=rng.choice(["Which meeting invitations haven't I answered yet?",
                                     "Do I have any invitations I still need to respond to?",
                                     "Have people invited me to anything I haven't replied to?",
                                     "Could you list the invites that are still waiting on my answer?"]),
               # every invitation asked for is checked, not the first five (seed 125: five of twelve)
               terse=rng.choice(["Unanswered invitations?", "Pending invites?"]), facts=_titles("invitations", 100))


@goals.add("list_reminders", 0.6)
def list_reminders(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.3:
        if rng.random() < 0.5:
            return Ask({}, say=rng.choice(["What's the next reminder that will go off, and when?",
                                           "When does my next reminder fire, and for which event?"]),
                       terse="Next reminder, and when?",
                       facts=lambda r: [_title(r[0]["title"]), r[0]["next_trigger"]])
        return Ask({}, say=rng.choice(["Which reminders do I have coming up?",
                                       "Which events have reminders set that are still to go off?",
                                       "Can you list my upcoming reminders?"]),
                   terse="Upcoming reminders?", facts=_titles())
    events = [o for o in _live(b) if o["event"]["reminders"]]
    if not events:
        return None
    o = rng.choice(events)
    name = event_name(o, rng)
    kind = rng.choice(["count", "minutes", "when"])
    # where the listing of every reminder still to go off shows each of the event's reminders (with
    # its title), that listing alone answers: no search for the event, and the rows are the event's
    listed = all(m["reminder_id"] in b["listed_reminders"] for m in o["event"]["reminders"])
    own: Callable[[Any], list[dict]] = (lambda r: [m for m in r if m["event_id"] == o["event_id"]]) if listed \
        else (lambda r: r)
    if kind == "count":
        facts: Facts = lambda r: [len(own(r))]
        says = [f"How many reminders have I set for {name}?", f"How many reminders are on {name}?"]
        terse = [f"Number of reminders on {name}?"]
    elif kind == "minutes":
        facts = lambda r: _first([m["minutes_before"] for m in own(r)])
        says = [f"How many minutes before {name} do my reminders go off?",
                f"For {name}, how many minutes ahead am I reminded?"]
        terse = [f"Reminders on {name}: how many minutes before?"]
    else:
        facts = lambda r: _first([m["next_trigger"] for m in own(r)])
        says = [f"When will my reminders for {name} go off?", f"At what time will I be reminded about {name}?"]
        terse = [f"When do the reminders for {name} go off?"]
    if listed:
        ask = _ask(rng, {}, says=says, terse=terse, mentions=(o["title"],), facts=facts)
        return replace(ask, settles=(("event", o["event_id"]),))
    return _ask(rng, {"event_id": o["event_id"]}, says=says, terse=terse, refs=(_event(o),),
                mentions=(o["title"],), facts=facts)


@goals.add("find_contacts", 0.6)
def find_contacts(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.3:
        departments = sorted({p["department"] for p in b["people"] if p["department"]})
        department = rng.choice(departments)
        return Ask({"department": department},
                   say=rng.choice([f"Who works in the {department} department?", f"Who's on the {department} team?",
                                   f"Can you list the people in {department}?",
                                   f"I need to reach someone in {department}. Who's there?"]),
                   terse=rng.choice([f"People in {department}?", f"{department} team members?"]),
                   mentions=(department,), facts=lambda r: _first([c["name"] for c in r]))
    person = rng.choice(b["people"])
    who = person["name"]
    kinds = ["email", "email"] + (["role"] if person["department"] else []) + (
        ["company"] if person["company"] != b["me"]["company"] else [])
    kind = rng.choice(kinds)
    if kind == "email":
        facts: Facts = lambda r: [r[0]["email"]]
        says = [f"What's {who}'s email address?", f"Can you look up the email for {who}?",
                f"I need to write to {who}. What's their address?"]
        terse = [f"Email of {who}?"]
    elif kind == "role":
        facts = lambda r: _first([r[0]["job_title"], r[0]["department"]])
        says = [f"What's {who}'s job title, and which team are they on?",
                f"What does {who} do here, and in which department?",
                f"Which department is {who} in, and what's their role?"]
        terse = [f"Role and department of {who}?"]
    else:
        facts = lambda r: [r[0]["company"], r[0]["job_title"]]
        says = [f"Which company is {who} with, and what's their role?", f"Where does {who} work, and as what?"]
        terse = [f"Company and role of {who}?"]
    return Ask({"query": who}, say=rng.choice(says), terse=rng.choice(terse), mentions=(who,), facts=facts)


def _conflicts(me: dict, others: Sequence[dict], *, free: bool) -> Facts:
    """The user's events and the other people busy in a span; 'free' when nobody is (if asked so). A
    colleague the user asked about is told by their name or by their first name alone ('Tamara is busy
    until 10:30'), where nobody else asked about, the user included, has that first name."""
    firsts = [p["name"].split()[0].casefold() for p in (me, *others)]

    def who(name: str) -> Any:
        first = name.split()[0]
        return one_of(name, first) if " " in name and firsts.count(first.casefold()) == 1 else name

    def facts(r: dict) -> list[Any]:
        if r["free"]:  # nobody busy: 'free', or any words of it (an empty list of conflicts)
            return [one_of("free", "available", "no conflicts", "no conflict", 0)] if free else []
        # someone busy in an event the user has too is told by that event ('you both have the standup')
        mine = {c["event_id"] for c in r["conflicts"] if c["contact_id"] == me["contact_id"] and c.get("event_id")}
        told = [c for c in r["conflicts"]
                if c["contact_id"] == me["contact_id"] or not c.get("event_id") or c["event_id"] not in mine]
        names = {c["name"] for c in told if c["contact_id"] != me["contact_id"]}
        return [who(v) if v in names else _title(v) for v in _first(
            [c["title"] if c["contact_id"] == me["contact_id"] else c["name"] for c in told])]

    return facts


@goals.add("check_conflicts")
def check_conflicts(b: Bundle, rng: random.Random) -> Ask | None:
    taken = [o for o in b["occurrences"] if o["future"] and not o["cancelled"] and o["my_response"] not in
             (None, "declined") and o["start"].date() in b["workdays"] and o["start"].date() == o["end"].date()]
    minutes = rng.choice([30, 60, 60, 90])
    if taken and rng.random() < 0.6:  # a span that holds one of the user's events
        o = rng.choice(taken)
        start = o["start"] - dt.timedelta(minutes=rng.choice([0, 0, 15]))
        d, busy = start.date(), True
    elif b["workdays"]:
        d = rng.choice(b["workdays"])
        start, busy = _slot(rng, d, minutes), False
    else:
        return None
    end = start + dt.timedelta(minutes=minutes)
    args: dict[str, Any] = {"start": _iso(start), "end": _iso(end)}
    others = rng.sample(b["people"], rng.choice([0, 1, 1, 2]))
    # the others are asked about only where one of them is busy then: were they all free, the answer
    # would be the same without them, and the gold would check the user's calendar alone
    clash = [p for p in b["people"] if any(s < end and e > start for s, e in b["others_busy"].get(p["contact_id"], ()))]
    if others and not any(p in clash for p in others):
        others = [rng.choice(clash)] + others[1:] if clash else []
    on = say_day(b, d, rng)
    span = rng.choice([f"from {clock(start)} to {clock(end)}", f"between {clock(start)} and {clock(end)}"])
    when = rng.choice([f"{on.on} {span}", f"{span} {on.on}"])
    # what is in the way of a taken span is what the answer must name: every wording asks for it
    if others:
        args["contact_ids"] = [p["contact_id"] for p in others]
        both = "both" if len(others) == 1 else "all"
        we = names(others, me=True)
        says = [f"Are {we} {both} free {when}? If not, what's in the way?",
                f"Can you check whether {we} are {both} free {when}, and if not, what's in the way?"]
        if busy:
            us = f"{names(others)} and me"
            says += [f"Would {when} work for {us}, or does someone have a clash? Who or what?",
                     f"Does {when} work for {us}, or is someone busy? With what?"]
        vague = [f"I'd like to check whether {we} are {both} free, and if not, what's in the way.",
                 f"Could you see if {we} are {both} free for a meeting? If not, what's in the way?"]
        terse = [f"Are {we} free {when}? If not, what clashes?"]
    else:
        says = [f"Am I free {when}? If not, what's on?", f"Do I have anything {when}? What is it?",
                f"Is my calendar clear {when}? If not, what's on it?",
                f"Can you check if anything clashes {when}, and what?"] if busy else [
                f"Am I free {when}? If not, what's on?", f"Could you check whether I'm free {when}, and if not, "
                "what's on?", f"Quick check: am I free {when}? If not, what's on?"]
        vague = ["I'd like to check whether I'm free, and if not, what's on.",
                 "Could you check if I'm free for a meeting? If not, what's on?"]
        terse = [f"Am I free {when}? If not, what's on?", f"Free {when}? If not, what's on?"]
    details = [f"{_cap(when)}.", f"I mean {when}.", f"That's {when}."]
    mentions = tuple(p["name"] for p in others) + (on.mention, clock(start), clock(end))
    ask = _ask(rng, args, says=says, terse=terse, vague=vague, details=details, split=SPLIT, mentions=mentions,
               refs=tuple(_contact(p) for p in others), prior=on.prior)
    # a free span is stated by that word only when the request asks whether someone is free
    free = all("free" in text.lower() for text in (ask.say + (ask.detail or ""), ask.terse))
    return replace(ask, facts=_conflicts(b["me"], others, free=free))


@goals.add("find_free_slots")
def find_free_slots(b: Bundle, rng: random.Random) -> Ask | None:
    if len(b["workdays"]) < 2:
        return None
    first, last = sorted(rng.sample(b["workdays"], 2))
    minutes = rng.choice([30, 45, 60, 90])
    others = rng.sample(b["people"], rng.choice([1, 1, 2, 3]))
    args = {"contact_ids": [p["contact_id"] for p in others], "start_date": first.isoformat(),
            "end_date": last.isoformat(), "duration_minutes": minutes}
    start, end = _range(b, first, last, rng)
    span = rng.choice([f"between {start.bare} and {end.bare}", f"from {start.bare} to {end.bare}"])
    length = rng.choice([f"{minutes}-minute", _duration(minutes)])
    slot = f"a {length} slot" if length.endswith("-minute") else length
    we = names(others, me=True)
    who = f"{we} {'are both' if len(others) == 1 else 'are all'} free"
    earliest = rng.random() < 0.4
    if earliest:
        facts: Facts = lambda r: [r["slots"][0]["start"]]
        says = [f"When's the earliest {span} that {who} for {_duration(minutes)}?",
                f"What's the first time {span} when {who} for {slot}?"]
        # "the earliest" alone means from now on: the days held back are the user's own
        vague = [f"On the days I have in mind, when's the earliest {who} for {_duration(minutes)}?"]
        terse = [f"Earliest {minutes}-minute slot with {names(others)}, {span}?"]
    elif rng.random() < 0.4:  # the first few times: an answer lists them
        facts = lambda r: _first([s["start"] for s in r["slots"]], 3)
        says = [f"Which times {span} work for {slot} when {who}? The first few, please.",
                f"I need {slot} with {names(others)} {span}. What are the first few times we're all free?"]
        vague = [f"Which times work for {slot} when {who}? The first few, please."]
        terse = [f"First few free {minutes}-minute slots with {names(others)}, {span}?"]
    else:  # one time: any slot it names in a free window is a right answer (noon to 12:45 in 11:15 to 2 pm)
        facts = lambda r: [one_of(*starts)] if (starts := _slot_starts(r["slots"][:10], minutes)) else []
        says = [f"Find me {slot} {span} when {who}.", f"Can you find {slot} {span} when {who}?",
                f"When could I meet {names(others)} for {_duration(minutes)} {span}?"]
        vague = [f"Can you find {slot} when {who}?", f"I'm looking for {slot} when {who}."]
        terse = [f"Find {slot} with {names(others)}, {span}."]
    details = [f"Any time {span} works.", f"Look {span}.", f"Sometime {span}, please."]
    mentions = tuple(p["name"] for p in others) + (start.mention, end.mention)
    return _ask(rng, args, says=says, terse=terse, vague=vague, details=details, split=SPLIT,
                refs=tuple(_contact(p) for p in others), mentions=mentions, prior=start.prior or end.prior, facts=facts)


def _slot_starts(windows: Sequence[dict], minutes: int) -> list[str]:
    """Every time a `minutes`-long meeting can start in the free `windows`: each window's own start
    and each quarter hour after it that leaves room before the window ends."""
    starts = []
    length, quarter = dt.timedelta(minutes=minutes), dt.timedelta(minutes=15)
    for window in windows:
        start, end = dt.datetime.fromisoformat(window["start"]), dt.datetime.fromisoformat(window["end"])
        at = start
        while at + length <= end:
            starts.append(_iso(at))
            at = at.replace(minute=at.minute // 15 * 15) + quarter
    return _first(starts, len(starts))


@goals.add("list_rooms", 0.6)
def list_rooms(b: Bundle, rng: random.Random) -> Ask | None:
    capacity = rng.choice([4, 6, 8, 10])
    roll = rng.random()
    if roll < 0.15:
        room = rng.choice(b["rooms"])
        return Ask({}, say=rng.choice([f"How many people does the {room['name']} room seat?",
                                       f"How big is {room['name']}? How many people fit?"]),
                   terse=f"Capacity of {room['name']}?", mentions=(room["name"],),
                   facts=lambda r: [x["capacity"] for x in r if x["name"] == room["name"]])
    if roll < 0.25:
        return Ask({}, say=rng.choice(["Which is our biggest meeting room, and how many does it seat?",
                                       "What's the largest room I can book, and for how many people?"]),
                   terse="Biggest room and its capacity?",
                   facts=lambda r: [max(r, key=lambda x: x["capacity"])[k] for k in ("name", "capacity")])
    # a span asked about is one that some room is booked in, and a cap one that some free room falls
    # short of: a span every room is free in, or a cap every free room meets, changes nothing, so the
    # gold would leave out what the user said (seed 125: "free rooms for 8+, from 9:30 am to 10 am"
    # on a morning every room for 8 was free read as rooms for 8+)
    if not b["room_spans"] or roll < 0.45:
        return Ask({"min_capacity": capacity},
                   say=rng.choice([f"Which meeting rooms seat at least {capacity} people?",
                                   f"I need a room for {capacity}. Which ones are big enough?",
                                   f"What rooms do we have for {capacity} or more people?"]),
                   terse=f"Rooms for {capacity}+?", facts=lambda r: _first([x["name"] for x in r], len(r)))
    span = rng.choice(b["room_spans"])
    start, end, free = span["start"], span["end"], span["free"]
    d = start.date()
    args: dict[str, Any] = {"start": _iso(start), "end": _iso(end)}
    on = say_day(b, d, rng)
    when = rng.choice([f"{on.on} from {clock(start)} to {clock(end)}", f"from {clock(start)} to {clock(end)} {on.on}"])
    mentions = (on.mention, clock(start), clock(end))
    facts = lambda r: _first([x["name"] for x in r], len(r))  # every free room (seed 125: five of six)
    taken = [r for r in b["rooms"] if r["room_id"] not in {f["room_id"] for f in free}]
    fits = [c for c in (4, 6, 8, 10) if any(r["capacity"] >= c for r in taken) and any(r["capacity"] < c for r in free)]
    if fits and rng.random() < 0.5:
        capacity = rng.choice(fits)
        args = {"min_capacity": capacity, **args}
        return Ask(args, say=rng.choice([f"Which rooms for at least {capacity} people are free {when}?",
                                         f"I need a room for {capacity} {when}. What's available?"]),
                   terse=f"Free rooms for {capacity}+, {when}?", mentions=mentions, prior=on.prior, facts=facts)
    if rng.random() < 0.3:  # any one free room answers
        return Ask(args, say=rng.choice([f"Is there a room free {when}? Which one?",
                                         f"Can I still get a room {when}? Name one that's free."]),
                   terse=f"Any room free {when}? Which?", mentions=mentions, prior=on.prior,
                   facts=lambda r: [one_of(*[x["name"] for x in r])] if r else [NOTHING])
    return Ask(args, say=rng.choice([f"Which meeting rooms are free {when}?", f"What rooms can I still get {when}?"]),
               terse=f"Free rooms {when}?", mentions=mentions, prior=on.prior, facts=facts)


# -- goals: scheduling -----------------------------------------------------------------------------

@goals.add("create_event", 2.0)
def create_event(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["workdays"]:
        return None
    d = rng.choice(b["workdays"])
    on = say_day(b, d, rng)
    if rng.random() < 0.2:  # a private appointment on the Personal calendar, after work
        calendar = next((c for c in b["calendars"] if c["name"] == "Personal" and not c["read_only"]), None)
        if calendar is None:
            return None
        title = rng.choice(PERSONAL_PLANS)
        start = dt.datetime.combine(d, dt.time(rng.choice([17, 18, 19]), rng.choice([0, 30])))
        end = start + dt.timedelta(minutes=60)
        args = {"title": title, "start": _iso(start), "end": _iso(end), "calendar_id": calendar["calendar_id"]}
        span = f"from {clock(start)} to {clock(end)}"
        return _ask(rng, args, says=[
            f"Please put '{title}' on my Personal calendar {on.on} {span}.",
            f"Could you add '{title}' to my Personal calendar? It's {on.bare}, {span}.",
            f"I've got a private thing {on.on}: '{title}', {span}. Put it on the Personal calendar, please.",
            f"Block {span} {on.on} on my Personal calendar for '{title}'."],
            terse=[f"Personal calendar: add '{title}', {on.bare}, {span}.",
                   f"Add '{title}' {on.on} {span}, Personal calendar."],
            refs=(_calendar(calendar),), mentions=(title, "Personal", on.mention, clock(start), clock(end)),
            prior=on.prior)
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
    what = rng.choice([f"a {_length(minutes)} meeting called '{title}'{with_whom}{where}",
                       f"'{title}', a {_length(minutes)} meeting{with_whom}{where}"])
    # the apposition closes with a comma where the sentence goes on ("put 'X', a one-hour meeting with
    # Ana Smith, on my calendar")
    amid = f"{what}," if what.startswith("'") else what
    at = f"at {clock(start)}"
    terse = [f"New event '{title}', {on.bare}, {clock(start)} to {clock(end)}{where}"
             + (f", invite {names(guests)}." if guests else "."),
             f"Schedule '{title}' {on.on} {at} for {_duration(minutes)}{where}{with_whom}."]
    refs = tuple(_contact(p) for p in guests)
    mentions = (title,) + tuple(p["name"] for p in guests) + (on.mention, clock(start))
    invite = f" and invite {names(guests)}" if guests else ""
    says = [f"Please set up {amid} {on.on} {at}.", f"Schedule {amid} for {on.bare} {at}.",
            f"Can you book {_duration(minutes)} {on.on} {at} for '{title}'{where}{invite}?",
            f"I'd like to get '{title}' on the calendar {on.on}, {clock(start)} to {clock(end)}{where}{invite}.",
            f"Could you create an event called '{title}' {on.on}, {clock(start)} to {clock(end)}{where}{invite}?"]
    vague = [f"Please set up {what}.", f"I need to schedule {what}.", f"Could you put {amid} on my calendar?"]
    details = [f"Make it {on.bare} {at}.", f"{_cap(on.bare)} {at} works best.",
               f"How about {on.bare}, starting {at}?", f"It should start {at} {on.on}."]
    return _ask(rng, args, says=says, terse=terse, vague=vague, details=details, split=SPLIT, refs=refs,
                mentions=mentions, prior=on.prior)


@goals.add("reschedule_event", 1.5)
def reschedule_event(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in _mine(b, (MOVE,), one_off=True) if o["moves"]]
    if not events:
        return None
    o = rng.choice(events)
    start = rng.choice(o["moves"])
    name = event_name(o, rng)
    # a new day said from today only where no other day is named beside it ('the Focus time on
    # Tuesday, August 18 to next Monday' reads from either)
    on = say_day(b, start.date(), rng, relative=0.0 if day(o["start"].date()) in name else RELATIVE)
    new = f"{on.bare} at {clock(start)}"
    args = {"event_id": o["event_id"], "start": _iso(start)}
    mentions = (o["title"], on.mention, clock(start))
    later = [f"Push {name} to {new}, please. Same duration as now."] if start > o["start"] else []  # 'push' delays
    return _ask(rng, args, says=[
        f"Please move {name} to {new}; keep the same length.",
        f"Can you reschedule {name} to {new}? It should last as long as before.",
        f"Something came up, so {name} has to move. Could you make it {new} instead, same length?",
        *later,
        f"I'd like {name} moved to {new}, keeping its length."],
        terse=[f"Move {name} to {new}, same length.", f"Reschedule {name}: {new}, same duration."],
        vague=[f"I need to move {name}; same length as before.", f"{_cap(name)} has to move. Keep the same length.",
               f"Could you reschedule {name} for me? It can stay the same length."],
        details=[f"Please make it {new} instead.", f"{_cap(new)} would work.", f"Let's do {new}.",
                 f"Move it to {new}, please."],
        split=SPLIT, refs=(_event(o),), mentions=mentions, prior=on.prior)


RULES = {  # how people say a rule, by kind: {n} the count, {days} the weekdays, {until} the last day. A count is
    # said as a number of times: "for 3 months" may as well be read as a last day (the same occurrences, another rule)
    "weekly": ("every week, {n} times in all", "weekly, {n} times", "once a week, {n} times in all"),
    "biweekly": ("every other week, {n} times in all", "every two weeks, {n} times"),
    "daily": ("every day, {n} times in all", "daily, {n} times"),
    "monthly": ("every month, {n} times in all", "monthly, {n} times in all", "once a month, {n} times"),
    "until": ("every week until {until}", "weekly until {until}"),
    "weekdays": ("every week on {days}, {n} times in all", "on {days} each week, {n} times"),
}


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
    until, days = "", ""
    if kind == "weekly":
        args.update(frequency="weekly", count=count)
    elif kind == "biweekly":
        args.update(frequency="weekly", interval=2, count=count)
    elif kind == "daily":
        count = rng.choice([3, 5])
        args.update(frequency="daily", count=count)
    elif kind == "monthly":
        count = rng.choice([3, 6, 12])
        args.update(frequency="monthly", count=count)
    elif kind == "until":
        last = first + dt.timedelta(weeks=rng.randint(4, 12))
        args.update(frequency="weekly", until=last.isoformat())
        until = date(last)
    else:
        start_day = first.weekday()
        other = rng.choice([d for d in range(5) if d != start_day])
        chosen = sorted({start_day, other})
        weekdays = [dt.date(2024, 1, 1 + d).strftime("%A") for d in chosen]  # 2024-01-01 was a Monday
        args.update(frequency="weekly", weekdays=[w.lower() for w in weekdays], count=count)
        days = f"{weekdays[0]}s and {weekdays[1]}s" if rng.random() < 0.5 else f"{weekdays[0]} and {weekdays[1]}"
    rule = rng.choice(RULES[kind]).format(n=count, until=until, days=days)
    name = event_name(o, rng)
    return _ask(rng, args, says=[
        f"Please make {name} repeat {rule}.", f"Can you turn {name} into a recurring event, {rule}?",
        f"I'd like {name} to happen {rule}.", f"Let's make {name} a regular thing: {rule}."],
        terse=[f"Make {name} repeat {rule}.", f"Repeat {name} {rule}."],
        vague=[f"Please make {name} a recurring event.", f"{_cap(name)} should become a recurring event.",
               f"Could you set {name} to repeat?"],
        details=[f"Let's say {rule}.", f"{_cap(rule)}, please.", f"Make it {rule}."],
        split=SPLIT, refs=(_event(o),), mentions=(o["title"], rule))


@goals.add("cancel_occurrence")
def cancel_occurrence(b: Bundle, rng: random.Random) -> Ask | None:
    occurrences = [o for o in b["occurrences"] if o["recurring"] and o["mine"] and o["future"]
                   and not o["cancelled"] and not o["series_cancelled"] and o["role"] in EDITABLE]
    if not occurrences:
        return None
    o = rng.choice(occurrences)
    d = o["start"].date()
    on = say_day(b, d, rng)
    title = quoted(o)
    return _ask(rng, {"event_id": o["event_id"], "date": d.isoformat()}, says=[
        f"I can't make the {title} {on.on}. Please cancel just that one.",
        f"Please skip the {title} {on.on} only; the rest of the series stays.",
        f"Could you cancel the {title} {on.on}, but keep all the other sessions?",
        f"Drop the {title} {on.on} from the series, please. Only that one."],
        terse=[f"Cancel only the {title} {on.on}.", f"Skip the {title} {on.on}, just that one."],
        # a private appointment or focus time is no meeting (seed 125: "One of the Lunch run meetings")
        vague=[f"I can't make one of the upcoming {title} sessions; please cancel just that one.",
               f"One of the {title} meetings needs to be called off, not the whole series." if _shared([o]) else
               f"Just one {title} needs to be called off, not the whole series."],
        details=[f"The one {on.on}.", f"It's the one {on.on}.", f"I mean the session {on.on}."],
        refs=(_event(o),), mentions=(o["title"], on.mention), prior=on.prior)


@goals.add("cancel_event")
def cancel_event(b: Bundle, rng: random.Random) -> Ask | None:
    events = _mine(b, (CANCEL,))
    if not events:
        return None
    o = rng.choice(events)
    name = event_name(o, rng)
    # whom to tell follows the guests (seed 131: "let everyone know" of a 1:1 mentoring with one guest)
    guests = [i["name"] for i in o["event"]["invitees"] if i["contact_id"] != b["me"]["contact_id"]]
    one = ("them" if guests and guests[0] in o["title"] else guests[0]) if len(guests) == 1 else ""
    tell = (", and let everyone know" if len(guests) > 1 else f", and let {one} know" if one else "")
    notify = (", please, and notify the invitees" if len(guests) > 1 else f", please, and let {one} know" if one
              else ", please")
    if o["recurring"]:
        says = [f"Please cancel {name} altogether, the whole series{tell}.",
                f"We're done with {name}. Cancel the whole series, please.",
                f"Could you call off {name} for good? Every future session."]
    else:
        says = [f"Please cancel {name}; it's no longer needed.", f"Call off {name}{notify}.",
                f"{_cap(name)} isn't happening anymore. Can you cancel it?",
                f"We don't need {name} after all. Please cancel it."]
    return _ask(rng, {"event_id": o["event_id"]}, says=says, terse=[f"Cancel {name}.", f"Call off {name}."],
                refs=(_event(o),), mentions=(o["title"],))


@goals.add("delete_event", 0.7)
def delete_event(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in b["events"] if o["mine"] and o["role"] == DELETE]
    if not events:
        return None
    o = rng.choice(events)
    name = event_name(o, rng)
    return _ask(rng, {"event_id": o["event_id"]}, says=[
        f"Delete {name} from my calendar for good.", f"Please remove {name} from my calendar entirely.",
        f"I don't want {name} on my calendar at all anymore. Delete it, please.",
        f"Could you get rid of {name}? Delete it, don't just cancel it."],
        terse=[f"Delete {name}.", f"Remove {name} for good."], refs=(_event(o),), mentions=(o["title"],))


@goals.add("update_event")
def update_event(b: Bundle, rng: random.Random) -> Ask | None:
    events = _mine(b, EDITABLE)
    if not events:
        return None
    o = rng.choice(events)
    event, name = o["event"], event_name(o, rng)
    change = rng.choice(["title", "location", "description"])
    if change != "title" and not _shared([o]):
        return None  # agendas and video links are for meetings
    if change == "location" and (event["room"] is not None or o["role"] == ROOMS):
        change = "description"
    if change == "title" and not o["renames"]:
        change = "description"
    ref = (_event(o),)
    if change == "title":
        value = rng.choice(o["renames"])
        return _ask(rng, {"event_id": o["event_id"], "title": value}, says=[
            f"Please rename {name} to '{value}'.", f"Can you change the title of {name} to '{value}'?",
            f"{_cap(name)} should really be called '{value}'. Could you rename it?"],
            terse=[f"Rename {name} to '{value}'.", f"New title for {name}: '{value}'."],
            vague=[f"I'd like to rename {name}.", f"The title of {name} needs changing."],
            details=[f"Call it '{value}'.", f"The new title is '{value}'.", f"Make it '{value}', please."],
            refs=ref, mentions=(o["title"], value))
    if change == "location":
        value = rng.choice([v for v in (*VIDEO, "Cafe on 2") if v != event["location"]])
        return _ask(rng, {"event_id": o["event_id"], "location": value}, says=[
            f"Please change the location of {name} to {value}.", f"Can you set the location of {name} to {value}?",
            f"{_cap(name)} will be on {value} now; please update the location."
            if value in VIDEO else f"We're meeting at the {value} for {name}; please update the location."],
            terse=[f"Location of {name}: {value}.", f"Set {name} location to {value}."],
            vague=[f"The location of {name} has changed.", f"Could you update where {name} happens?"],
            details=[f"It's {value} now.", f"Set it to {value}, please.", f"Make it {value}."],
            refs=ref, mentions=(o["title"], value))
    value = rng.choice([a for a in AGENDAS if a != event["description"]])
    return _ask(rng, {"event_id": o["event_id"], "description": value}, says=[
        f"Please set the description of {name} to: \"{value}\"",
        f"Can you put this agenda in the description of {name}: \"{value}\"",
        f"Update the notes on {name} to read \"{value}\", please."],
        terse=[f"Description of {name}: \"{value}\"", f"Set the agenda of {name} to \"{value}\""],
        vague=[f"I'd like to update the description of {name}.", f"The agenda on {name} is out of date.",
               f"Could you rewrite the description of {name}?"],
        details=[f"Set it to: \"{value}\"", f"It should say: \"{value}\"", f"Replace it with \"{value}\""],
        split=SPLIT, refs=ref, mentions=(o["title"],))


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
    name, who = event_name(o, rng), names(guests)
    return _ask(rng, {"event_id": o["event_id"], "contact_ids": [p["contact_id"] for p in guests]}, says=[
        f"Please invite {who} to {name}.", f"Can you add {who} to {name}?",
        f"{who} should be at {name} too. Could you send {'them' if k > 1 else 'an'} invite{'s' if k > 1 else ''}?",
        f"I'd like {who} to join {name}; please add {'them' if k > 1 else 'the invite'}."],
        terse=[f"Invite {who} to {name}.", f"Add {who} to {name}."],
        # one guest is 'someone else', never 'more people'
        vague=[f"I'd like to invite more people to {name}." if k > 1 else f"I'd like to invite someone else to {name}.",
               f"A few more people should come to {name}." if k > 1 else f"Someone else should come to {name}."],
        details=[f"Please add {who}.", f"That's {who}.", f"Invite {who}, please."],
        refs=(_event(o), *(_contact(p) for p in guests)), mentions=(o["title"], *(p["name"] for p in guests)))


@goals.add("remove_invitee")
def remove_invitee(b: Bundle, rng: random.Random) -> Ask | None:
    people = {p["contact_id"]: p for p in b["people"]}
    events = [o for o in _shared(_mine(b, EDITABLE)) if any(i["contact_id"] in people for i in o["event"]["invitees"])]
    if not events:
        return None
    o = rng.choice(events)
    person = people[rng.choice([i["contact_id"] for i in o["event"]["invitees"] if i["contact_id"] in people])]
    name, who = event_name(o, rng), person["name"]
    return _ask(rng, {"event_id": o["event_id"], "contact_id": person["contact_id"]}, says=[
        f"Please take {who} off the invite list for {name}.",
        f"{who} doesn't need to come to {name}; please remove them.",
        f"Can you uninvite {who} from {name}?", f"Remove {who} from {name}, please. They don't need to be there."],
        terse=[f"Uninvite {who} from {name}.", f"Remove {who} from {name}."],
        vague=[f"Someone on the invite list for {name} doesn't need to come.",
               f"I invited one person too many to {name}."],
        details=[f"Please remove {who}.", f"It's {who}.", f"Take {who} off, please."],
        refs=(_event(o), _contact(person)), mentions=(o["title"], who))


@goals.add("respond_to_invitation", 1.5)
def respond_to_invitation(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in b["events"] if not o["mine"] and o["my_response"] is not None and o["future"]
              and not o["cancelled"] and not o["series_cancelled"]]
    if not events:
        return None
    pending = [o for o in events if o["my_response"] == "needs-action"]
    o = rng.choice(pending if pending and rng.random() < 0.7 else events)
    response = rng.choice([r for r in RESPONSES if r != o["my_response"]])
    Verb = RESPONSES[response][1]
    name = event_name(o, rng)
    args = {"event_id": o["event_id"], "response": response}
    says = {"accepted": [f"Please accept the invitation to {name}.", f"I'll be at {name}; please accept the invite.",
                         f"Can you let them know I'm coming to {name}?",
                         f"Count me in for {name}. Please accept."],
            "declined": [f"I can't make {name}. Please decline the invitation.",
                         f"Please decline {name}; I won't be there.",
                         f"Could you send my regrets for {name}? I can't make it."],
            "tentative": [f"Please tentatively accept the invitation to {name}.",
                          f"I might make {name}, but I'm not sure yet. Tentatively accept it, please.",
                          f"Mark me as tentative for {name}, please."]}[response]
    details = {"accepted": ["Please accept it.", "Accept it, please.", "I'll go, so accept."],
               "declined": ["Please decline it.", "Decline it, please; I can't go."],
               "tentative": ["Please tentatively accept it.", "Put me down as tentative."]}[response]
    # an invitation already answered is answered again: the user changes their reply
    vague = ([f"I need to answer the invitation to {name}.", f"Could you reply to the invite for {name}?"]
             if o["my_response"] == "needs-action" else
             [f"I need to change my answer to the invitation to {name}.",
              f"Could you change my reply to the invite for {name}?"])
    return _ask(rng, args, says=says, terse=[f"{Verb} {name}.", f"{Verb} the invite to {name}."], vague=vague,
                details=details, split=SPLIT, refs=(_event(o),), mentions=(o["title"],))


@goals.add("add_contact", 0.6)
def add_contact(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["new_people"]:
        return None
    name, email, company, title = rng.choice(b["new_people"])
    args = {"full_name": name, "email": email, "company": company, "job_title": title}
    return _ask(rng, args, says=[
        f"Please add {name} to my contacts: {title} at {company}, email {email}.",
        f"Can you save a new contact? {name}, {title} at {company}, {email}.",
        f"I'd like to add {name} ({email}) to the directory; they're the {title} at {company}."],
        terse=[f"New contact: {name}, {email}, {title} at {company}.",
               f"Add contact {name}, {title}, {company}, {email}."],
        vague=[f"Please add {name}, {title} at {company}, to my contacts so I can invite them.",
               f"I met {name}, the {title} at {company}. Could you add them to my contacts?",
               f"Can you create a contact for {name}? They're {article(title)} {title} at {company}."],
        details=[f"The email address is {email}.", f"Their email is {email}.", f"You can reach them at {email}.",
                 f"Use {email} for the email."],
        split=SPLIT, mentions=(name, email, company))


@goals.add("book_room", 2.0)
def book_room(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in _mine(b, (ROOMS,), one_off=True) if o["free_rooms"] and o["event"]["calendar"] != "Personal"
              and not o["title"].startswith("Coffee chat")]
    if not events:
        return None
    o = rng.choice(events)
    room = rng.choice(o["free_rooms"])
    name, where = event_name(o, rng), room["name"]
    # an event that has a room already is asked to change rooms, never to get one
    vague = ([f"{_cap(name)} needs a different room; can you book another one?",
              f"Could you move {name} to another room?", f"We need somewhere else to meet for {name}."]
             if o["event"]["room"] else
             [f"{_cap(name)} needs a meeting room; can you book one?", f"Could you get a room for {name}?",
              f"We need somewhere to meet for {name}."])
    return _ask(rng, {"event_id": o["event_id"], "room_id": room["room_id"]}, says=[
        f"Please book the {where} room for {name}.", f"Can you reserve {where} for {name}?",
        f"Let's hold {name} in {where}. Could you book it?", f"I'd like {where} for {name}, please book it."],
        terse=[f"Book {where} for {name}.", f"Room {where} for {name}."], vague=vague,
        details=[f"The {where} room, please.", f"{where} would be good.", f"Book {where}."],
        refs=(_event(o), _room(room)), mentions=(o["title"], where))


@goals.add("release_room", 0.7)
def release_room(b: Bundle, rng: random.Random) -> Ask | None:
    events = [o for o in _mine(b, (ROOMS,)) if o["event"]["room"] is not None]
    if not events:
        return None
    o = rng.choice(events)
    room, name = o["event"]["room"]["name"], event_name(o, rng)
    return _ask(rng, {"event_id": o["event_id"]}, says=[
        f"We won't need the {room} room for {name} after all; please release it.",
        f"Please give up the room booked for {name}.", f"Can you free the {room} room we booked for {name}?",
        f"{_cap(name)} doesn't need a room anymore. Release it, please."],
        terse=[f"Release the room of {name}.", f"Free the room for {name}."], refs=(_event(o),),
        mentions=(o["title"],))


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
    kind, by = "a reminder", ""
    if method == "email":
        args["method"] = "email"
        kind, by = "an email reminder", " by email"
    name = event_name(o, rng)
    return _ask(rng, args, says=[
        f"Please set {kind} {lead} before {name}.", f"Remind me {lead} before {name}{by}.",
        f"Can you add {kind} for {name}, {lead} ahead?", f"I always forget {name}. Remind me{by} {lead} before it."],
        terse=[f"{_cap(kind)} {lead} before {name}.", f"Remind me{by} {lead} before {name}."],
        vague=[f"Please set {kind} for {name}.", f"I'd like {kind} for {name}.",
               f"Could you remind me{by} about {name}?"],
        details=[f"{_cap(lead)} before it starts.", f"Make it {lead} ahead.", f"{_cap(lead)} beforehand, please.",
                 f"{_cap(lead)} before would be good."],
        split=SPLIT, refs=(_event(o),), mentions=(o["title"], lead))


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
    what, name = _reminder_words(reminder), event_name(o, rng)
    return _ask(rng, {"reminder_id": reminder["reminder_id"]}, says=[
        f"Please remove {what} on {name}.", f"I don't need {what} for {name}; delete it.",
        f"Can you turn off {what} for {name}?", f"Get rid of {what} on {name}, please."],
        terse=[f"Remove {what} on {name}.", f"Delete {what} for {name}."],
        refs=_reminder_refs(o, reminder, b), mentions=(o["title"],))


def _reminder_refs(o: dict, reminder: dict, b: Bundle) -> tuple[Ref, ...]:
    """A reminder to act on: found in the listing of every reminder where that shows it, with no
    look-up of its event (a search that then feeds nothing, which the gates keep where a later
    request's date, worked out from any earlier result with a date, takes it as a source); else
    through its event."""
    listed = reminder["reminder_id"] in b["listed_reminders"]
    return ((_event(o),) if not listed else ()) + (_reminder(o, reminder, listed),)


# -- hidden ------------------------------------------------------------------------------------------

def record_answer(b: Bundle, rng: random.Random) -> str | None:
    """Only the hidden set_invitee_response could record someone else's answer."""
    people = {p["contact_id"]: p for p in b["people"]}
    # never a meeting whose title names the guest ('Mary Guerra said yes to my Coffee chat with Mary Guerra')
    events = [(o, i) for o in b["events"] if o["mine"] and o["future"] and not o["cancelled"]
              for i in o["event"]["invitees"] if i["contact_id"] in people and i["response"] != "accepted"
              and people[i["contact_id"]]["name"] not in o["title"]]
    if not events:
        return None
    o, invitee = rng.choice(events)
    person = people[invitee["contact_id"]]["name"]
    name = event_name(o, rng)
    return rng.choice([
        f"{person} told me in the hallway that they'll come to {name}. Please mark them as accepted.",
        f"Please record that {person} accepted my invitation to {name}; they replied by phone.",
        f"{person} said yes to {name} over chat. Can you set their answer to accepted?",
    ])


# Tools that do one another's job for some request (an event's details show in a search or a
# day's listing, its reminders in the event, the unanswered invitations in any listing of the
# coming events, whose entries carry the user's reply as 'my_response'): a missing-function task
# hides all of a group or none.
SUBSTITUTES = (
    ("get_event", "search_events", "list_events"),
    ("list_events", "list_upcoming_events"),
    ("list_reminders", "get_event"),
    ("list_pending_invitations", "list_upcoming_events", "list_events"),
    # the busy spans of everyone over the days asked (up to a week a call) leave the free ones
    ("find_free_slots", "check_conflicts"),
)


recipe = Recipe(server="calendar", sample=sample, topics=("calendar",), goals=goals.all, lookups=(
    Lookup("event", "search_events", args=lambda r: {"query": r.entity["title"]}),
    Lookup("contact", "find_contacts", args=lambda r: {"query": r.entity["name"]}),
    Lookup("room", "list_rooms", args=lambda r: {}),
    Lookup("calendar", "list_calendars", args=lambda r: {}),
    Lookup("reminder", "list_reminders", args=_reminder_lookup, needs=_of_event),
), substitutes=SUBSTITUTES, hidden=(HiddenAsk("set_invitee_response", record_answer),))
