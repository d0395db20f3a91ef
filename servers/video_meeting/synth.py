"""How tasks are written for the video meeting service: people who introduce themselves by name or
email, name their meetings by title (and day, when a title repeats), the people in a live meeting
by name, and recordings by the meeting they belong to ("the second recording of my Budget review on
December 3"). Someone else's meeting is joined with the number and passcode from the invitation.

Each bundle is one user with the meetings they host. So that the requests of one conversation never
undo each other, the sampler gives every scheduled meeting, every participant of the live meeting
and every recording one role at most (invite to it, cancel it, start it; mute, admit, remove or
promote someone; share or delete a recording), and a live meeting that is being ended takes no
other request."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Sequence
from typing import Any

from prove_env.facts import quantity
from prove_env.synthesis.recipe import Again, Ask, Goals, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import clock, day, stable, weekday

Bundle = dict[str, Any]

NEW_TITLES = ("Roadmap sync", "Hiring plan review", "Customer kickoff", "Offsite planning", "Quarterly forecast",
              "Architecture review", "Content calendar check-in", "Renewal strategy", "Team retro", "Demo dry run")
EXTERNAL = ("nina.patel@contoso.com", "leo.martin@fabrikam.io", "grace.owens@tailspin.co", "omar.haddad@litware.com",
            "chloe.dubois@wingtip.io")


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every user whose name finds only them and who hosts a meeting (or is invited to a live one),
    with their meetings, the live session's participants, their recordings and the roles above."""
    users = read("find_users", limit=100)
    live = []
    for m in read("find_meetings", status="live", limit=100):
        full = read("get_meeting", meeting_id=m["meeting_id"])
        full["people"] = {p["user_id"] for p in read("list_participants", meeting_id=m["meeting_id"])}
        live.append(full)
    bundles = []
    for user in users:
        if len(read("find_users", name=user["name"])) != 1:
            continue
        meetings = read("find_meetings", host_id=user["user_id"], limit=100)
        _name_meetings(meetings)
        meetings = [m for m in meetings if m["said"]]
        joinable = [m for m in live if user["email"] in m["invitees"] and user["user_id"] not in m["people"]
                    and m["host_id"] != user["user_id"]]
        if not meetings and not joinable:
            continue
        b: Bundle = {"now": now, "user": user, "meetings": meetings, "joinable": joinable,
                     "colleagues": [u for u in users if u["user_id"] != user["user_id"]]}
        _live_session(read, b, rng)
        _recordings(read, b, rng)
        scheduled = [m for m in meetings if m["status"] == "scheduled"]
        roles = ["invite", "cancel", "read", "move"] + ([] if b["live"] else ["start"])
        for m in scheduled + b["live_list"]:
            m["invitees"] = read("get_meeting", meeting_id=m["meeting_id"])["invitees"]
        for m in scheduled:
            m["role"] = rng.choice(roles)
        bundles.append(b)
    return [b for b in bundles if _supported(b) >= 7]


def _supported(b: Bundle) -> int:
    """How many goals a bundle can serve: a bundle with fewer leaves conversations one request short."""
    probe = random.Random(0)
    return sum(1 for g in goals.all if g.build(b, probe) is not None)


def _name_meetings(meetings: list[dict]) -> None:
    """How each meeting is said: by title alone when the host has one meeting of that title, else
    by title and day (left out when that still finds two)."""
    for m in meetings:
        start = dt.datetime.fromisoformat(m["start_at"])
        m["date"] = start.date()
        same = [o for o in meetings if o["title"] == m["title"]]
        same_day = [o for o in same if o["start_at"][:10] == m["start_at"][:10]]
        m["dated"] = len(same) > 1
        m["said"] = len(same_day) == 1 or not m["dated"]
        if m["dated"] and len(same_day) > 1:
            m["said"] = False


def _live_session(read: Reader, b: Bundle, rng: random.Random) -> None:
    live = next((m for m in b["meetings"] if m["status"] == "live"), None)
    b["live"], b["ending"], b["people"], b["recording"] = live, False, [], None
    b["live_list"] = [live] if live else []
    if live is None:
        return
    b["ending"] = rng.random() < 0.25
    people = [p for p in read("list_participants", meeting_id=live["meeting_id"]) if p["role"] != "host"]
    for p in people:
        if p["state"] == "waiting":
            p["role_in_task"] = rng.choice(("admit", "admit", "remove", None))
        elif p["state"] == "in_meeting":
            choices = ["remove"] + (["mute"] if not p["muted"] else []) + (["promote"] if p["role"] == "attendee" else [])
            p["role_in_task"] = rng.choice(choices)
        else:
            p["role_in_task"] = None
    b["people"] = people
    running = [r for r in read("list_recordings", meeting_id=live["meeting_id"]) if r["status"] == "recording"]
    b["recording"] = running[0] if running else None


def _recordings(read: Reader, b: Bundle, rng: random.Random) -> None:
    b["recording_count"] = len(read("list_recordings", host_id=b["user"]["user_id"], limit=100))
    b["recordings"] = []
    for m in b["meetings"]:
        if m["status"] != "ended":
            continue
        recs = read("list_recordings", meeting_id=m["meeting_id"])
        for k, r in enumerate(recs):
            r["meeting"], r["order"], r["of"] = m, k, len(recs)
            b["recordings"].append(r)
    if b["recordings"]:
        doomed = rng.choice(b["recordings"]) if rng.random() < 0.5 else None
        for r in b["recordings"]:
            r["doomed"] = r is doomed


# -- how people name things ------------------------------------------------------------------------

def _me(b: Bundle) -> Ref:
    return Ref.of("user", b["user"])


def _mtg(b: Bundle, m: dict) -> Ref:
    return Ref.of("meeting", m, _me(b))


_NOW = re.compile(r"\b(?:now|right away|immediately|at the moment|so far|currently)\b")


def meeting_name(m: dict, rng: random.Random | None = None, timed: str = "") -> str:
    """'my "Budget review" meeting', with its day when the host has several of that title; a live
    meeting as the one running now or in progress (the meeting look-up of a live meeting asks for the
    live one, so the request says it is going on), by its title alone only in a sentence (`timed`)
    that says so itself ('End it now', 'out of it immediately', 'who is in it at the moment', 'who has
    joined so far'), so that no sentence says when twice. A title that is a call ('Customer onboarding
    call') is not called a meeting again."""
    title = m["title"]
    noun = "" if title.lower().endswith(" call") else " meeting"
    if m["status"] == "live":
        if _NOW.search(timed):
            return f'my "{title}"{noun}'
        forms = [f"the {title}{noun} I'm running now", f'the "{title}"{noun} in progress',
                 f"my {title}{noun} that's going on right now"]
        return forms[0] if rng is None else rng.choice(forms)
    on = f" on {day(m['date'])}" if m["dated"] else ""
    if rng is None:
        return f'my "{title}"{noun}{on}'
    return rng.choice([f'my "{title}"{noun}{on}', f"my {title}{noun}{on}", f'the "{title}"{noun}{on}',
                       f"the {title}{on}", f'"{title}"{on}'])


def _again(m: dict, say: str, terse: str, **values: str) -> Again:
    """A request about the live meeting once the conversation has named it: 'the meeting I'm running',
    which no other meeting is, not its title and 'I'm running now' again."""
    return Again(m["title"], say=say.format(name="the meeting I'm running", **values),
                 terse=terse.format(name="the live meeting", **values))


def _recording_name(r: dict, rng: random.Random) -> str:
    m = r["meeting"]
    title, on = m["title"], day(m["date"])
    if r["of"] == 1:
        return rng.choice([f'the recording of my "{title}" meeting on {on}', f"the {title} recording from {on}",
                           f'my recording of "{title}" ({on})'])
    nth = ("first", "second", "third")[r["order"]]
    return rng.choice([f'the {nth} recording of my "{title}" meeting on {on}',
                       f"the {nth} of the {title} recordings from {on}"])


def _title_words(m: dict) -> tuple[str, ...]:
    return (m["title"],) + ((day(m["date"]),) if m["dated"] and m["status"] != "live" else ())


def _which(text: str, rng: random.Random) -> str:
    """The sentence that names the thing a vague request held back."""
    return rng.choice([f"It's {text}.", f"I mean {text}.", f"The one I'm talking about is {text}.",
                       f"That would be {text}."])


def _vague(rng: random.Random, share: float = 0.6) -> bool:
    return rng.random() < share


def _pick(b: Bundle, status: str, role: str | None = None) -> list[dict]:
    return [m for m in b["meetings"] if m["status"] == status and (role is None or m.get("role") == role)]


def _people(b: Bundle, role: str) -> list[dict]:
    if b["ending"]:
        return []
    return [p for p in b["people"] if p["role_in_task"] == role]


def _person(b: Bundle, p: dict) -> Ref:
    return Ref.of("participant", p, _me(b))


# -- goals: meetings ------------------------------------------------------------------------------

goals = Goals()


@goals.add("find_meetings", 0.5)
def find_meetings(b: Bundle, rng: random.Random) -> Ask | None:
    days: dict[dt.date, list[dict]] = {}
    for m in b["meetings"]:
        if m["status"] in ("scheduled", "ended"):
            days.setdefault(m["date"], []).append(m)
    for m in b["meetings"]:  # a day a meeting may be moved away from or onto says nothing settled
        if m.get("role") == "move":
            days.pop(m["date"], None)
    if not days:
        return None
    when = rng.choice(sorted(days))
    on = weekday(when)
    future = when > b["now"].date()
    say = rng.choice([f"Which meetings do I host on {on}?", f"What meetings am I hosting on {on}?",
                      f"Could you tell me which meetings I'm hosting on {on}?",
                      f"I'm planning my week. Which meetings of my own are on {on}?"] if future else
                     [f"Which meetings did I host on {on}?", f"What meetings did I run on {on}?",
                      f"Could you remind me which meetings I hosted on {on}?"])
    # the terse wording in the tense of the day too ('Meetings I host, Wednesday, November 4?' five weeks
    # after that day read as if it were to come)
    terse = ([f"Meetings I'm hosting on {on}?", f"Meetings I host, {on}?"] if future else
             [f"Meetings I hosted on {on}?", f"Meetings I hosted, {on}?"])
    if _vague(rng, 0.4):
        # said in the tense of the day, and a detail that reads as well in the same message as after
        # "which day?" ('I'd like to see my meetings for one day. The day is ...' was stilted)
        say = rng.choice(["Can you check which meetings I host on a particular day?",
                          "I'd like to see the meetings I host on a certain day."] if future else
                         ["Can you check which meetings I hosted on a particular day?",
                          "I'd like to see the meetings I hosted on a certain day."])
        detail = rng.choice([f"It's {on}.", f"I mean {on}.", f"{on}, please."])
        return Ask({"host_id": b["user"]["user_id"], "on_date": when.isoformat()}, say=say, detail=detail,
                   terse=rng.choice(terse), refs=(_me(b),),
                   mentions=(day(when),), facts=lambda r: [m["title"] for m in r])
    return Ask({"host_id": b["user"]["user_id"], "on_date": when.isoformat()}, say=say,
               terse=rng.choice(terse), refs=(_me(b),),
               mentions=(day(when),), facts=lambda r: [m["title"] for m in r])


@goals.add("get_meeting", 0.8)
def get_meeting(b: Bundle, rng: random.Random) -> Ask | None:
    # a meeting to be called off is not one whose joining details or invite list the user wants (asking
    # for the passcode of the Design critique, then cancelling it)
    meetings = [m for m in _pick(b, "scheduled") if m.get("role") not in ("move", "cancel")] + _pick(b, "live")
    if not meetings:
        return None
    m = rng.choice(meetings)
    name = meeting_name(m, rng)
    args, refs, mentions = {"meeting_id": m["meeting_id"]}, (_me(b), _mtg(b, m)), _title_words(m)
    if _vague(rng, 0.4):
        return Ask(args, say=rng.choice(["I need the meeting number and passcode of one of my meetings.",
                                         "Can you give me the joining details, number and passcode, for a meeting of mine?"]),
                   detail=_which(name, rng), terse=f"Number and passcode of {name}?", refs=refs, mentions=mentions,
                   facts=lambda r: [r["number"], r["passcode"]])
    if rng.random() < 0.6:
        return Ask(args, say=rng.choice([f"What are the meeting number and passcode for {name}?",
                                         f"I need to send out the joining details for {name}. What's its number and passcode?",
                                         f"Could you look up the passcode and meeting number of {name}?",
                                         f"Someone asked me how to get into {name}; what number and passcode do they need?"]),
                   terse=rng.choice([f"Number and passcode of {name}?", f"Join details for {name}?"]),
                   refs=refs, mentions=mentions, facts=lambda r: [r["number"], r["passcode"]])
    if not m["invitees"]:
        return None
    return Ask(args, say=rng.choice([f"Who is invited to {name}? Their email addresses, please.",
                                     f"Can you tell me the email addresses on the invite list for {name}?",
                                     f"I forgot whom I invited to {name}. Could you check their addresses?"]),
               terse=f"Invitee addresses of {name}?", refs=refs, mentions=mentions, facts=lambda r: r["invitees"][:6])


@goals.add("schedule_meeting", 0.6)
def schedule_meeting(b: Bundle, rng: random.Random) -> Ask | None:
    title = rng.choice(NEW_TITLES)
    if any(m["title"] == title for m in b["meetings"]):
        return None
    when = b["now"].date() + dt.timedelta(days=rng.randint(1, 12))
    if when.weekday() >= 5:
        when += dt.timedelta(days=7 - when.weekday())
    at = dt.datetime.combine(when, dt.time(rng.randint(9, 16), rng.choice((0, 30))))
    minutes = rng.choice((30, 45, 60, 90))
    args: dict[str, Any] = {"host_id": b["user"]["user_id"], "title": title, "start_at": at.isoformat(),
                            "duration_minutes": minutes}
    on, t = weekday(when), clock(at)
    length = {30: "half an hour", 45: "45 minutes", 60: "an hour", 90: "90 minutes"}[minutes]
    extra, mentions = "", (title, day(when), t)
    if rng.random() < 0.25:
        args["waiting_room"] = False
        extra = rng.choice([" Turn the waiting room off.", " No waiting room, please.",
                            " People should get in without waiting to be admitted."])
        mentions += ("waiting",)
    elif rng.random() < 0.25:
        code = "".join(rng.choice("0123456789") for _ in range(6))
        args["passcode"] = code
        extra = rng.choice([f" Use {code} as the passcode.", f" Set the passcode to {code}."])
        mentions += (code,)
    say = rng.choice([f'Please set up a meeting called "{title}" for {length}.',
                      f'I need to schedule "{title}", {length} long.',
                      f'Could you book a new meeting, "{title}", lasting {length}?',
                      f"Can you put a new meeting, {title}, on the books for me? It'll take {length}."]) + extra
    detail = rng.choice([f"It should start on {on} at {t}.", f"Make it {on} at {t}.", f"{on}, {t}, please.",
                         f"The start time is {t} on {on}.", f"Put it on {on}, starting at {t}.",
                         f"We'd like to begin at {t} on {on}.", f"Hold it {on} at {t}.",
                         f"For the time: {on}, {t}.", f"It's on {on}; kick-off at {t}.",
                         f"Everyone is free on {on} from {t}, so let's have it then."])
    return Ask(args, say=say, detail=detail,
               terse=f'Schedule "{title}", {on} at {t}, {length}.{extra}', refs=(_me(b),), mentions=mentions)


@goals.add("invite_to_meeting", 1.1)
def invite_to_meeting(b: Bundle, rng: random.Random) -> Ask | None:
    meetings = _pick(b, "scheduled", "invite")
    if not meetings:
        return None
    m = rng.choice(meetings)
    full_invited = set(m.get("invitees", ()))
    if rng.random() < 0.25:
        email, who = rng.choice(EXTERNAL), None
    else:
        colleague = rng.choice(b["colleagues"])
        email, who = colleague["email"], colleague["name"]
    if email in full_invited:
        return None
    name = meeting_name(m, rng)
    person = f"{who} ({email})" if who else email
    say = rng.choice([f"Please invite {person} to {name}.", f"Could you add {person} to the invite list of {name}?",
                      f"I'd like {person} to join {name}; send them an invitation, please.",
                      f"Can {person} get an invite to {name}?"])
    if who and rng.random() < 0.6:  # a colleague's address, which find_users gives, is never held back
        say = rng.choice([f"Please invite {who} to {name}.", f"Could you add {who} to the invite list of {name}?",
                          f"I'd like {who} to be at {name}; send them an invitation."])
        # the address says no action again ('send them an invitation. Send it to ...')
        say += " " + rng.choice([f"Their email is {email}.", f"They use {email}.", f"They're at {email}."])
    return Ask({"meeting_id": m["meeting_id"], "email": email}, say=say,
               terse=rng.choice([f"Invite {email} to {name}.", f"Add {email} to {name}."]),
               refs=(_me(b), _mtg(b, m)), mentions=(email,) + _title_words(m))


@goals.add("cancel_meeting", 0.9)
def cancel_meeting(b: Bundle, rng: random.Random) -> Ask | None:
    meetings = _pick(b, "scheduled", "cancel")
    if not meetings:
        return None
    m = rng.choice(meetings)
    name = meeting_name(m, rng)
    if _vague(rng):
        return Ask({"meeting_id": m["meeting_id"]},
                   say=rng.choice(["I need to cancel one of my upcoming meetings.",
                                   "Something came up, so one of my scheduled meetings has to be called off."]),
                   detail=_which(name, rng), terse=f"Cancel {name}.", refs=(_me(b), _mtg(b, m)),
                   mentions=_title_words(m))
    return Ask({"meeting_id": m["meeting_id"]},
               say=rng.choice([f"Please cancel {name}.", f"{name[0].upper() + name[1:]} isn't needed any more; cancel it.",
                               f"Could you call off {name}? Something came up.",
                               f"We've decided to skip {name}, so please cancel it."]),
               terse=f"Cancel {name}.", refs=(_me(b), _mtg(b, m)), mentions=_title_words(m))


@goals.add("reschedule_meeting", 1.0)
def reschedule_meeting(b: Bundle, rng: random.Random) -> Ask | None:
    meetings = _pick(b, "scheduled", "move")
    if not meetings:
        return None
    m = rng.choice(meetings)
    old = dt.datetime.fromisoformat(m["start_at"])
    when = old.date() + dt.timedelta(days=rng.choice((-2, -1, 1, 2, 3, 7)))
    if when.weekday() >= 5:
        when += dt.timedelta(days=7 - when.weekday())
    if when == old.date():  # a Monday moved back a day or two rolls past the weekend onto its own day
        when += dt.timedelta(days=1)  # ('... "Weekly sync" on September 7? Make it Monday, September 7 ...')
    if when <= b["now"].date():
        return None
    at = dt.datetime.combine(when, dt.time(rng.randint(9, 16), rng.choice((0, 30))))
    if at == old:
        return None
    name, on, t = meeting_name(m, rng), weekday(when), clock(at)
    mentions = _title_words(m) + (day(when), t)
    say = rng.choice([f"I need to move {name}.", f"Could you reschedule {name}?",
                      f"{name[0].upper() + name[1:]} doesn't work any more; please move it.",
                      f"Something clashes with {name}, so it has to move."])
    detail = rng.choice([f"Make it {on} at {t} instead.", f"The new time is {t} on {on}.",
                         f"Put it on {on}, starting at {t}.", f"{on} at {t} works for everyone."])
    return Ask({"meeting_id": m["meeting_id"], "start_at": at.isoformat()}, say=say, detail=detail,
               terse=f"Move {name} to {on} {t}.", refs=(_me(b), _mtg(b, m)), mentions=mentions)


@goals.add("start_meeting", 1.0)
def start_meeting(b: Bundle, rng: random.Random) -> Ask | None:
    meetings = _pick(b, "scheduled", "start")
    if not meetings or b["live"]:
        return None
    m = rng.choice(meetings)
    name = meeting_name(m, rng)
    terse = f"Start {name} now."
    if m["date"] == b["now"].date():  # a meeting of today is started early; one of a later day is held now instead
        vague = ["Everyone's here early, so please start one of my meetings now.",
                 "Could you start a meeting of mine right away?"]
        says = [f"Start {name} now, please; everyone's ready early.", f"Please start {name} for me.",
                f"Could you open {name} now so people can come in?", f"I'd like to kick off {name} right away."]
    else:
        terse = f"Start {name} now instead of on its day."
        vague = ["We're holding one of my upcoming meetings now instead of on its day; please start it.",
                 "One of my scheduled meetings has moved up to right now. Could you start it?"]
        says = [f"Everyone's free now, so we're not waiting for {name}: start it, please.",
                f"We're holding {name} now instead; please start it for me.",
                f"We moved {name} up to right now. Could you open it so people can come in?",
                f"I'd like to kick off {name} right away rather than on its day."]
    if _vague(rng):
        return Ask({"meeting_id": m["meeting_id"], "user_id": b["user"]["user_id"]},
                   say=rng.choice(vague),
                   detail=_which(name, rng), terse=terse, refs=(_me(b), _mtg(b, m)),
                   mentions=_title_words(m))
    return Ask({"meeting_id": m["meeting_id"], "user_id": b["user"]["user_id"]},
               say=rng.choice(says),
               terse=terse, refs=(_me(b), _mtg(b, m)), mentions=_title_words(m))


@goals.add("end_meeting", 0.9)
def end_meeting(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["ending"]:
        return None
    m = b["live"]
    say = rng.choice(["The meeting has run its course; please end {name} for everyone.", "End {name} now, please.",
                      "Could you wrap up {name}? End it for all participants.",
                      "Close {name} for everybody; the discussion is finished."])
    name = meeting_name(m, rng, timed=say)
    return Ask({"meeting_id": m["meeting_id"], "user_id": b["user"]["user_id"]}, say=say.format(name=name),
               terse=f"End {meeting_name(m)}.", refs=(_me(b), _mtg(b, m)), mentions=_title_words(m),
               again=_again(m, say, "End {name}."))


@goals.add("join_meeting", 1.2)
def join_meeting(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["joinable"]:
        return None
    m = rng.choice(b["joinable"])
    number, code, host = m["number"], m["passcode"], m["host_name"]
    say = rng.choice([f"{host} invited me to a meeting that's running now, number {number}. Please get me in.",
                      f"Could you get me into meeting {number}? It's {host}'s {m['title']} meeting.",
                      f"I'm late for {host}'s meeting. Get me into meeting {number}, please.",
                      f"Please connect me to the meeting with number {number}."])
    detail = rng.choice([f"The passcode is {code}.", f"Passcode: {code}.", f"The code to get in is {code}."])
    return Ask({"meeting_number": number, "passcode": code, "user_id": b["user"]["user_id"]}, say=say, detail=detail,
               terse=f"Join meeting {number}, passcode {code}.", refs=(_me(b),),
               # the host's name, where said, is a name the request says: joined after other words, a
               # request that opens with it keeps its capital ('And then rachel Booker invited me ...')
               mentions=(number, code, *([host] if host in say else [])))


# -- goals: the live session -----------------------------------------------------------------------

@goals.add("list_participants", 1.3)
def list_participants(b: Bundle, rng: random.Random) -> Ask | None:
    m = b["live"]
    if m is None or b["ending"]:
        return None
    refs, mentions = (_me(b),), _title_words(m)
    # the people listed (the host among those in the meeting) carry the live meeting's id
    settles = (("meeting", m["meeting_id"]),)
    # the whole list is read and the facts are the people in the state asked about: a state filter the
    # user's words allow as well as the unfiltered list, which a gold read with the filter scored at half
    # coverage ("Who is in my "All-hands prep" meeting at the moment?" answered off every participant)
    waiting = [p for p in b["people"] if p["state"] == "waiting" and p["role_in_task"] is None]
    if waiting and rng.random() < 0.4:
        name = meeting_name(m, rng)
        say = rng.choice(["Who is in the waiting room of {name}?", "Is anybody waiting to be let into {name}?",
                          "Can you check who's stuck in the waiting room for {name}?"])
        return Ask({"host_id": b["user"]["user_id"]}, say=say.format(name=name),
                   terse=f"Waiting room of {name}?", refs=refs, mentions=mentions,
                   facts=lambda r: [p["name"] for p in r if p["state"] == "waiting"],
                   settles=settles, again=_again(m, say, "Waiting room of {name}?"))
    say = rng.choice(["Who's in {name} right now?", "Can you tell me who has joined {name} so far?",
                      "I'm on my phone and can't see the gallery. Who is in {name} at the moment?"])
    name = meeting_name(m, rng, timed=say)
    return Ask({"host_id": b["user"]["user_id"]}, say=say.format(name=name),
               terse=f"Who's in {meeting_name(m)}?", refs=refs, mentions=mentions,
               facts=lambda r: [p["name"] for p in r if p["state"] == "in_meeting"], settles=settles,
               again=_again(m, say, "Who's in {name}?"))


def _person_ask(b: Bundle, rng: random.Random, role: str, says: Sequence[str], vague: Sequence[str],
                terse: str, waiting: tuple[Sequence[str], Sequence[str], str] | None = None) -> Ask | None:
    """A request about one person in the live meeting: named in the request, or, held back, in the
    sentence after a request that only says 'someone'. `waiting`: the wordings (`says`, `vague`,
    `terse`) for a person still in the waiting room, who is not in the meeting."""
    people = _people(b, role)
    if not people:
        return None
    p = rng.choice(people)
    if waiting is not None and p["state"] == "waiting":
        says, vague, terse = waiting
    m = b["live"]
    args = {"participant_id": p["participant_id"], "user_id": b["user"]["user_id"]}
    refs, mentions = (_me(b), _person(b, p)), (p["name"],) + _title_words(m)
    if rng.random() < 0.4:
        say = rng.choice(list(says))
        name = meeting_name(m, rng, timed=say)
        return Ask(args, say=say.format(who=p["name"], name=name),
                   terse=terse.format(who=p["name"], name=meeting_name(m)), refs=refs, mentions=mentions,
                   again=_again(m, say, terse, who=p["name"]))
    detail = rng.choice(["It's {who}.", "I mean {who}.", "That's {who}.", "The person is {who}."]).format(who=p["name"])
    say = rng.choice(list(vague))
    name = meeting_name(m, rng, timed=say)
    return Ask(args, say=say.format(name=name), detail=detail,
               terse=terse.format(who=p["name"], name=meeting_name(m)), refs=refs, mentions=mentions,
               again=_again(m, say, terse, who=p["name"]))


@goals.add("admit_participant", 1.6)
def admit_participant(b: Bundle, rng: random.Random) -> Ask | None:
    return _person_ask(b, rng, "admit", ("{who} is in the waiting room of {name}; please let them in.",
                                         "Please admit {who} into {name}.",
                                         "Could you let {who} into {name}? They've been waiting.",
                                         "{who} is waiting to get into {name}. Admit them, please."),
                       ("Someone I'm expecting is in the waiting room of {name}; please let them in.",
                        "A colleague is stuck waiting to get into {name}. Could you admit them?"),
                       "Admit {who} to {name}.")


@goals.add("mute_participant", 1.6)
def mute_participant(b: Bundle, rng: random.Random) -> Ask | None:
    return _person_ask(b, rng, "mute", ("There's a lot of background noise from {who} in {name}; please mute them.",
                                        "Please mute {who} in {name}.",
                                        "Could you mute {who}? They're echoing in {name}.",
                                        "{who} forgot to mute in {name}. Mute them for me."),
                       ("Someone in {name} has a barking dog in the background. Please mute them.",
                        "One person in {name} is causing an echo; can you mute them?"),
                       "Mute {who} in {name}.")


@goals.add("remove_participant", 1.4)
def remove_participant(b: Bundle, rng: random.Random) -> Ask | None:
    return _person_ask(b, rng, "remove", ("Please remove {who} from {name}.",
                                          "{who} shouldn't be in {name}. Remove them, please.",
                                          "Could you take {who} out of {name}? This part is confidential.",
                                          "I need {who} out of {name} immediately."),
                       ("Someone who shouldn't be there is in {name}. Please remove them.",
                        "I need someone out of {name} for the confidential part; remove them, please."),
                       "Remove {who} from {name}.",
                       waiting=(("{who} is in the waiting room of {name} and shouldn't join. Remove them, please.",
                                 "Please remove {who} from the waiting room of {name}; they shouldn't get in.",
                                 "Could you take {who} out of the waiting room of {name}? This part is confidential.",
                                 "I don't want {who} in {name}. They're waiting to get in; remove them, please."),
                                ("Someone who shouldn't be there is waiting to get into {name}. Please remove them.",
                                 "I need someone kept out of {name} for the confidential part; they're in "
                                 "the waiting room. Remove them, please."),
                                "Remove {who} from the waiting room of {name}."))


@goals.add("make_co_host", 1.5)
def make_co_host(b: Bundle, rng: random.Random) -> Ask | None:
    return _person_ask(b, rng, "promote", ("Please make {who} a co-host of {name}.",
                                           "I have to step away soon; make {who} co-host in {name}.",
                                           "Could you give {who} co-host rights in {name}?",
                                           "{who} will help me with {name}. Make them a co-host."),
                       ("I'd like someone to help me with {name}; please make them a co-host.",
                        "I'll need a co-host in {name} while I present."),
                       "Co-host {who} in {name}.")


@goals.add("start_recording", 1.3)
def start_recording(b: Bundle, rng: random.Random) -> Ask | None:
    m = b["live"]
    if m is None or b["ending"] or b["recording"] is not None:
        return None
    say = rng.choice(["Please start recording {name}.", "Can you hit record on {name}? Cloud recording is fine.",
                      "We're about to go through the decisions in {name}; start a recording, please.",
                      "Record {name} from now on, please."])
    name = meeting_name(m, rng, timed=say)
    return Ask({"meeting_id": m["meeting_id"], "user_id": b["user"]["user_id"]}, say=say.format(name=name),
               terse=f"Record {meeting_name(m)}.", refs=(_me(b), _mtg(b, m)), mentions=_title_words(m),
               again=_again(m, say, "Record {name}."))


@goals.add("stop_recording", 1.3)
def stop_recording(b: Bundle, rng: random.Random) -> Ask | None:
    m = b["live"]
    if m is None or b["ending"] or b["recording"] is None:
        return None
    say = rng.choice(["Please stop the recording of {name}.", "We're off the record now; stop recording {name}.",
                      "Could you stop recording {name}? The rest is informal.",
                      "Turn off the recording in {name}, please."])
    name = meeting_name(m, rng, timed=say)
    return Ask({"meeting_id": m["meeting_id"], "user_id": b["user"]["user_id"]}, say=say.format(name=name),
               terse=f"Stop recording {meeting_name(m)}.", refs=(_me(b), _mtg(b, m)), mentions=_title_words(m),
               again=_again(m, say, "Stop recording {name}."))


# -- goals: recordings ------------------------------------------------------------------------------

def _rec_ref(b: Bundle, r: dict) -> Ref:
    return Ref.of("recording", r, _me(b))


def _kept(b: Bundle) -> list[dict]:
    return [r for r in b["recordings"] if not r["doomed"]]


@goals.add("list_recordings", 0.8)
def list_recordings(b: Bundle, rng: random.Random) -> Ask | None:
    """The lengths of a past meeting's recordings, read off the listing of every recording of the
    user's meetings (each entry names its meeting and start): one call after the user's look-up,
    where finding the meeting first and listing its recordings takes two."""
    if b["recording_count"] > 20:  # the listing's page: the meeting's recordings might not be on it
        return None
    ended = [m for m in _pick(b, "ended") if any(r["meeting"] is m for r in b["recordings"])
             and not any(r["doomed"] for r in b["recordings"] if r["meeting"] is m)]
    if not ended:
        return None
    m = rng.choice(ended)
    on = day(m["date"])
    title = m["title"]
    args = {"host_id": b["user"]["user_id"]}
    several = sum(1 for r in b["recordings"] if r["meeting"] is m) > 1

    def facts(result: list[dict]) -> list[Any]:
        return [quantity(x["duration_minutes"], "min") for x in result if x["meeting_id"] == m["meeting_id"]]

    # 'how many minutes of recording' asks for a total: said only of a meeting recorded once, whose
    # one length is that total
    if _vague(rng, 0.45):
        return Ask(args,
                   say=rng.choice(["I'd like to know how long the recordings of one of my past meetings are."]
                                  + ([] if several else
                                     ["I'd like to know how many minutes of recording I have of an earlier meeting."])),
                   detail=_which(f'"{title}" on {on}', rng), terse=f"Recordings of {title}, {on}: how long?",
                   refs=(_me(b),), mentions=(title, on), facts=facts)
    return Ask(args,
               say=rng.choice([f'Did I record "{title}" on {on}? How long are the recordings?',
                               f'Can you list the recordings of my "{title}" meeting from {on}, with their lengths?']
                              + ([] if several else [f"How many minutes of recording do I have of the {title} on {on}?"])),
               terse=f"Recordings of {title}, {on}: how long?", refs=(_me(b),), mentions=(title, on), facts=facts)


@goals.add("get_transcript", 1.0)
def get_transcript(b: Bundle, rng: random.Random) -> Ask | None:
    recs = [r for r in _kept(b) if r["has_transcript"]]
    if not recs:
        return None
    r = rng.choice(recs)
    name = _recording_name(r, rng)
    if _vague(rng, 0.45) and len(b["recordings"]) > 1:  # 'one of my recordings' when there are several
        return Ask({"recording_id": r["recording_id"]},
                   say=rng.choice(["I'd like to know who spoke in one of my recordings; the transcript should say.",
                                   "Could you check a transcript for me and tell me who talked?"]),
                   detail=_which(name, rng), terse=f"Speakers in transcript of {name}?", refs=(_me(b), _rec_ref(b, r)),
                   mentions=(r["meeting"]["title"],), facts=lambda res: res["speakers"])
    return Ask({"recording_id": r["recording_id"]},
               say=rng.choice([f"Who spoke in {name}? The transcript should say.",
                               f"Could you pull up the transcript of {name} and tell me who talked?",
                               f"I need the list of speakers from the transcript of {name}."]),
               terse=f"Speakers in transcript of {name}?", refs=(_me(b), _rec_ref(b, r)),
               mentions=(r["meeting"]["title"],), facts=lambda res: res["speakers"])


@goals.add("share_recording", 1.0)
def share_recording(b: Bundle, rng: random.Random) -> Ask | None:
    recs = _kept(b)
    if not recs:
        return None
    r = rng.choice(recs)
    colleague = rng.choice(b["colleagues"])
    name = _recording_name(r, rng)
    who, email = colleague["name"], colleague["email"]
    # the colleague is in the directory (find_users gives the address), so the address is said with
    # the request, never held back for the assistant to ask
    # 'it' is the meeting, said after it: never 'X missed it, so please share ...' ahead of its name
    say = rng.choice([f"Please share {name} with {who}; they missed the meeting.", f"Please share {name} with {who}.",
                      f"Could you send {name} to {who}?", f"{who} asked for {name}; share it with them."])
    # the address says no action again ('... share it with them. Send it to ...' asked for the share twice)
    say += " " + rng.choice([f"Their email is {email}.", f"The address is {email}.", f"They're at {email}."])
    return Ask({"recording_id": r["recording_id"], "email": email}, say=say,
               terse=f"Share {name} with {who} ({email}).", refs=(_me(b), _rec_ref(b, r)),
               mentions=(email, r["meeting"]["title"], who))


@goals.add("delete_recording", 0.9)
def delete_recording(b: Bundle, rng: random.Random) -> Ask | None:
    recs = [r for r in b["recordings"] if r["doomed"]]
    if not recs:
        return None
    r = recs[0]
    name = _recording_name(r, rng)
    if _vague(rng) and len(b["recordings"]) > 1:  # 'one of my recordings' when there are several
        return Ask({"recording_id": r["recording_id"]},
                   say=rng.choice(["I want to delete one of my cloud recordings for good.",
                                   "One of my recordings was made by mistake; please delete it."]),
                   detail=_which(name, rng), terse=f"Delete {name}.", refs=(_me(b), _rec_ref(b, r)),
                   mentions=(r["meeting"]["title"],))
    return Ask({"recording_id": r["recording_id"]},
               say=rng.choice([f"Please delete {name}; we don't need it any more.", f"Get rid of {name} for good.",
                               f"Could you delete {name}? It was recorded by mistake.",
                               f"I want {name} gone. Delete it, please."]),
               terse=f"Delete {name}.", refs=(_me(b), _rec_ref(b, r)), mentions=(r["meeting"]["title"],))


# -- who is asking ----------------------------------------------------------------------------------

_BY_NAME = ("Hi, this is {name}.", "My name is {name}.", "This is {name} speaking.", "It's {name} here.",
            "Hi, I'm {name} from {dept}.", "Hey, it's {name}.", "I'm {name}.", "Hello, {name} here.",
            "{name} from {dept} here.", "Good morning, this is {name}.", "Hi there, I'm {name}.")
_BY_NAME_TERSE = ("This is {name}.", "{name} speaking.", "It's {name}.", "I'm {name}.", "{name} here.")
_BY_EMAIL = ("Hi, my account is {email}.", "I'm signed in as {email}.", "My email here is {email}.",
             "Hello, you have me as {email}.", "I use the account {email}.", "My login is {email}.")
_BY_EMAIL_TERSE = ("Account: {email}.", "Email: {email}.", "Login: {email}.")


def _by_name(ref: Ref) -> tuple[str, str]:
    name, dept = ref.entity["name"], ref.entity["department"]
    return (stable(_BY_NAME, "name", ref.key).format(name=name, dept=dept),
            stable(_BY_NAME_TERSE, "terse", ref.key).format(name=name))


def _by_email(ref: Ref) -> tuple[str, str]:
    email = ref.entity["email"]
    return (stable(_BY_EMAIL, "email", ref.key).format(email=email),
            stable(_BY_EMAIL_TERSE, "email terse", ref.key).format(email=email))


def _meeting_args(ref: Ref) -> dict[str, Any]:
    if ref.entity["status"] == "live":
        return {"host_id": ref.owner.key, "status": "live"}
    args: dict[str, Any] = {"host_id": ref.owner.key, "title": ref.entity["title"]}
    if ref.entity.get("dated"):
        args["on_date"] = ref.entity["date"].isoformat()
    return args


# Tools that do one another's job for some request (a meeting's time, status and number show in
# the meeting search): a missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("get_meeting", "find_meetings"),
)


recipe = Recipe(
    server="video_meeting",
    sample=sample,
    topics=("meetings", "calendar", "chat"),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("user", "find_users", args=lambda r: {"name": r.entity["name"]}, intro=_by_name),
        Lookup("user", "find_users", args=lambda r: {"email": r.entity["email"]}, intro=_by_email),
        Lookup("meeting", "find_meetings", args=_meeting_args),
        # the participants listed are those of the meeting the host runs now: their rows carry its id
        Lookup("participant", "list_participants", args=lambda r: {"host_id": r.owner.key},
               settles=lambda r: (("meeting", r.entity["meeting_id"]),)),
        Lookup("recording", "list_recordings", args=lambda r: {"host_id": r.owner.key}),
    ),
    # no hidden-tool request: the hidden meeting counts are what find_meetings lists, status by status
)
