"""The seed: a company's video meeting account.

60 users in eight departments. About 30 of them host meetings: each has ended meetings over the last
60 days (some recurring under the same title), scheduled ones over the next 30 days, now and then a
cancelled one, and about a dozen hosts are in a live meeting right now, with participants in the
meeting (some muted, a co-host now and then), people in the waiting room, people who left or were
removed, and sometimes a recording running. Ended meetings hold completed cloud recordings, most with
a transcript, some already shared. Edge cases: hosts with no meetings, meetings without invitees,
ended meetings without recordings, recordings without a transcript, several meetings of one host
under the same title on different days."""

from __future__ import annotations

import datetime as dt

from prove_env.world import SeedContext

from .models import Invitee, Meeting, Participant, Recording, Share, User

DOMAIN = "northwindlabs.com"
N_USERS = 60
N_HOSTS = 32
N_LIVE = 22
DEPARTMENTS = ("Engineering", "Product", "Design", "Sales", "Marketing", "Finance", "People", "Support")
RECURRING = ("Weekly sync", "Team standup", "1:1 check-in", "Sprint planning", "Office hours")
ONE_OFF = ("Q3 roadmap review", "Design critique", "Customer onboarding call", "Budget review", "Hiring debrief",
           "Incident postmortem", "Launch readiness", "Partner demo", "Quarterly business review",
           "Pricing workshop", "Security training", "All-hands prep", "Vendor negotiation", "Brand refresh kickoff",
           "Data platform deep dive", "Interview loop sync", "Board deck review", "Support escalation review",
           "Mobile release retro", "OKR planning")
EXTERNAL = ("jordan.reyes@acmecorp.com", "priya.nair@globex.io", "sam.lee@initech.com", "marta.kowalski@umbrella.co",
            "devon.clarke@hooli.com", "aiko.tanaka@stark.io")
LINES = ("Let's get started, thanks everyone for joining.", "Can everyone see my screen?",
         "The numbers for last week look better than expected.", "I'll take the action item on the follow-up.",
         "We should move the deadline by a week.", "Any blockers before we wrap up?",
         "The customer asked for a demo next Tuesday.", "I can share the slides after the call.",
         "Let's revisit this in the next meeting.", "I agree with that plan.", "Can you repeat the last point?",
         "We're on track for the release.", "I'll send the summary by email.")


def seed(ctx: SeedContext) -> None:
    users = []
    for i in range(N_USERS):
        first, last = ctx.person_name()
        users.append(User(id=ctx.new_id("USR"), name=f"{first} {last}",
                          email=f"{first.lower()}.{last.lower()}@{DOMAIN}".replace("'", ""),
                          department=DEPARTMENTS[i % len(DEPARTMENTS)]))
    ctx.add(*users)
    numbers: set[str] = set()
    hosts = users[:N_HOSTS]
    for h, host in enumerate(hosts):
        others = [u for u in users if u.id != host.id]
        recurring = ctx.rng.choice(RECURRING)
        plans: list[tuple[str, str]] = []  # (status, title)
        for _ in range(ctx.rng.randint(0, 4)):
            plans.append(("ended", recurring if ctx.rng.random() < 0.5 else ctx.rng.choice(ONE_OFF)))
        for _ in range(ctx.rng.randint(0, 3)):
            plans.append(("scheduled", recurring if ctx.rng.random() < 0.4 else ctx.rng.choice(ONE_OFF)))
        if h % 4 == 1 or ctx.rng.random() < 0.15:
            plans.append(("cancelled", ctx.rng.choice(ONE_OFF)))
        if h < N_LIVE:
            plans.append(("live", ctx.rng.choice(ONE_OFF + RECURRING)))
        if h == N_HOSTS - 1:
            plans = []  # a host without any meeting
        for status, title in plans:
            _meeting(ctx, host, others, status, title, numbers)


def _number(ctx: SeedContext, taken: set[str]) -> str:
    while True:
        digits = "".join(ctx.rng.choice("0123456789") for _ in range(11))
        number = f"{ctx.rng.randint(1, 9)}{digits[:2]} {digits[2:6]} {digits[6:10]}"
        if number not in taken:
            taken.add(number)
            return number


def _office_hours(ctx: SeedContext, moment: dt.datetime) -> dt.datetime:
    """The day of `moment`, at a half hour between 8 am and 5:30 pm."""
    return dt.datetime.combine(moment.date(), dt.time(ctx.rng.randint(8, 17), ctx.rng.choice((0, 30))))


def _meeting(ctx: SeedContext, host: User, others: list[User], status: str, title: str, numbers: set[str]) -> None:
    rng = ctx.rng
    duration = rng.choice((15, 30, 30, 45, 60, 60, 90))
    if status == "ended":
        start = _office_hours(ctx, ctx.moment(-60, -1))
    elif status == "live":
        start = ctx.now - dt.timedelta(minutes=rng.choice((5, 10, 15, 20, 30, 40)))
    else:
        start = _office_hours(ctx, ctx.moment(1, 30))
    meeting = Meeting(id=ctx.new_id("MTG"), number=_number(ctx, numbers), title=title, host_id=host.id,
                      start_at=start, duration_minutes=duration,
                      passcode="".join(rng.choice("0123456789") for _ in range(6)),
                      waiting_room=rng.random() < 0.6, status=status,
                      started_at=start if status in ("live", "ended") else None,
                      ended_at=start + dt.timedelta(minutes=duration + rng.choice((-5, 0, 5, 10)))
                      if status == "ended" else None)
    ctx.add(meeting)
    guests = rng.sample(others, rng.choice((0, 2, 3, 4, 5, 6, 7)))
    invited = min(start, ctx.now)  # invitations went out days before the meeting, and before now
    for guest in guests:
        ctx.add(Invitee(id=ctx.new_id("INV"), meeting_id=meeting.id, email=guest.email,
                        invited_at=invited - dt.timedelta(days=rng.randint(1, 10))))
    if guests and rng.random() < 0.2:
        ctx.add(Invitee(id=ctx.new_id("INV"), meeting_id=meeting.id, email=rng.choice(EXTERNAL),
                        invited_at=invited - dt.timedelta(days=rng.randint(1, 10))))
    if status not in ("live", "ended"):
        return
    live = status == "live"
    people = [(host, "host")] + [(g, "attendee") for g in guests if rng.random() < 0.85]
    if live and len(people) > 2 and rng.random() < 0.35:
        people[1] = (people[1][0], "co_host")
    for k, (user, role) in enumerate(people):
        joined = start + dt.timedelta(minutes=min(k, 4))
        if not live:
            state = "left"
        elif role != "attendee":
            state = "in_meeting"
        elif k == len(people) - 1 and k >= 2 and meeting.waiting_room:
            state = "waiting"  # a late arrival, still in the waiting room
        else:
            state = rng.choices(("in_meeting", "waiting", "left", "removed"), (70, 15 if meeting.waiting_room else 0,
                                                                               10, 5))[0]
        ctx.add(Participant(id=ctx.new_id("PRT"), meeting_id=meeting.id, user_id=user.id, role=role, state=state,
                            muted=state == "in_meeting" and role == "attendee" and rng.random() < 0.4,
                            joined_at=joined))
    speakers = [u.name for u, _ in people]
    if live and rng.random() < 0.4:
        ctx.add(Recording(id=ctx.new_id("REC"), meeting_id=meeting.id, started_by=host.id, status="recording",
                          started_at=start + dt.timedelta(minutes=2), ended_at=None, transcript=None))
    if not live:
        for r in range(rng.choices((0, 1, 2), (35, 50, 15))[0]):
            begin = start + dt.timedelta(minutes=1 + r * duration // 2)
            length = max(5, duration // 2 - rng.choice((0, 2, 5)))
            transcript = None
            if rng.random() < 0.7:
                transcript = "\n".join(f"{rng.choice(speakers)}: {rng.choice(LINES)}" for _ in range(rng.randint(3, 7)))
            recording = Recording(id=ctx.new_id("REC"), meeting_id=meeting.id, started_by=host.id,
                                  status="completed", started_at=begin, ended_at=begin + dt.timedelta(minutes=length),
                                  transcript=transcript)
            ctx.add(recording)
            if rng.random() < 0.3 and guests:
                ctx.add(Share(id=ctx.new_id("SHR"), recording_id=recording.id, email=rng.choice(guests).email,
                              shared_at=min(meeting.ended_at + dt.timedelta(hours=rng.randint(1, 30)), ctx.now)))
