"""The seed recipe: a staff engineer's calendar at a mid-sized software company.

About 45 contacts (colleagues in eight departments plus a few customers), five calendars (Work,
Personal, the Platform team's, a read-only Company Events and the shared Hiring calendar), seven
meeting rooms, a dozen recurring series (daily standup, 1:1s, biweekly sprint planning, monthly
reviews) and about 170 one-off events between 60 days before and 60 days after "now", on a
15-minute grid in working hours, with invitees, RSVPs, rooms, reminders and some cancellations.
Colleagues also have private busy blocks, so free/busy look-ups have something to find.
"""

from __future__ import annotations

import datetime as dt
import re

from sqlalchemy import select

from prove_env.world import SeedContext

from .models import BusyBlock, Calendar, CancelledOccurrence, Contact, Event, Invitee, Reminder, Room

COMPANY = "Lumen Labs"
DOMAIN = "lumenlabs.com"
DEPARTMENTS = {
    "Engineering": ["Software Engineer", "Senior Software Engineer", "Site Reliability Engineer", "Staff Engineer"],
    "Product": ["Product Manager", "Senior Product Manager"],
    "Design": ["Product Designer", "UX Researcher"],
    "Sales": ["Account Executive", "Sales Engineer"],
    "Marketing": ["Marketing Manager", "Content Strategist"],
    "Finance": ["Financial Analyst", "Controller"],
    "People": ["People Partner", "Recruiter"],
    "Customer Success": ["Customer Success Manager", "Support Lead"],
}
ROOMS = [  # name, floor, capacity, has_video
    ("Aurora", 2, 4, True), ("Borealis", 2, 8, True), ("Cascade", 3, 12, True), ("Dune", 3, 6, False),
    ("Everest", 4, 20, True), ("Fjord", 2, 2, False), ("Glacier", 4, 10, True),
]
TOPICS = [
    "Billing API", "Search relevance", "Mobile onboarding", "Data pipeline", "Q4 roadmap", "Observability",
    "Auth migration", "Pricing page", "Kubernetes upgrade", "Incident postmortem", "Checkout flow",
    "Notifications service", "Cost optimization", "Partner integrations", "Design system", "SSO rollout",
    "Analytics dashboard", "Rate limiting", "Feature flags", "Database sharding", "Accessibility audit",
    "Release process", "On-call tooling", "API versioning", "Customer health score",
]
MEETING_KINDS = ["sync", "review", "kickoff", "retro", "planning", "deep dive", "working session", "demo"]
PERSONAL = [
    "Dentist appointment", "Car service", "Parent-teacher conference", "Haircut", "Physiotherapy",
    "Pick up dry cleaning", "Vet appointment for Biscuit", "Bank appointment", "Eye exam",
    "Flu shot", "Call with landlord", "Passport renewal appointment",
]
COMPANY_EVENTS = [
    "Security awareness training", "Benefits enrollment Q&A", "Quarterly town hall", "Summer social",
    "Hackathon demos", "Diversity & inclusion workshop", "New hire welcome breakfast", "Wellness webinar",
    "Office fire drill", "Volunteer day briefing",
]
VIDEO = ["Zoom", "Google Meet"]
CUSTOMER_ROLES = ["Head of Procurement", "VP of Engineering", "IT Director", "Operations Manager", "CTO",
                  "Product Lead", "Head of Data"]


def seed(ctx: SeedContext) -> None:
    _Recipe(ctx).run()


class _Recipe:
    def __init__(self, ctx: SeedContext) -> None:
        self.ctx = ctx
        self.rng = ctx.rng
        self.today = ctx.now.date()
        self.user_busy: list[tuple[dt.datetime, dt.datetime]] = []
        self.room_busy: dict[str, list[tuple[dt.datetime, dt.datetime]]] = {}
        self.titles: set[str] = set()

    def run(self) -> None:
        self.people()
        self.calendars_and_rooms()
        self.ctx.session.flush()
        self.series()
        self.one_off_events()
        self.busy_blocks()

    # -- people, calendars, rooms -------------------------------------------------------------

    def person(self, department: str | None, job_title: str | None, *, company: str = COMPANY,
               domain: str = DOMAIN, is_me: bool = False) -> Contact:
        first, last = self.ctx.person_name(unique_first=True)
        local = re.sub(r"[^a-z]", "", first.lower()) + "." + re.sub(r"[^a-z]", "", last.lower())
        contact = Contact(id=self.ctx.new_id("CON"), name=f"{first} {last}", email=f"{local}@{domain}",
                          company=company, department=department, job_title=job_title, is_me=is_me)
        self.ctx.add(contact)
        return contact

    def people(self) -> None:
        self.me = self.person("Engineering", "Staff Engineer", is_me=True)
        self.lead = self.person("Engineering", "Engineering Manager")
        self.ceo = self.person("Executive", "Chief Executive Officer")
        self.cpo = self.person("Product", "VP of Product")
        self.people_head = self.person("People", "Head of People")
        self.recruiter = self.person("People", "Technical Recruiter")
        self.pm = self.person("Product", "Senior Product Manager")
        self.sre = self.person("Engineering", "Site Reliability Engineer")
        self.team = [self.sre] + [self.person("Engineering", self.rng.choice(DEPARTMENTS["Engineering"][:3]))
                                  for _ in range(4)]
        self.junior = self.person("Engineering", "Software Engineer")  # whom the user mentors
        self.team.append(self.junior)
        self.others = [self.person(dept, self.rng.choice(titles))
                       for dept, titles in DEPARTMENTS.items() for _ in range(3)]
        self.colleagues = [self.lead, self.ceo, self.cpo, self.people_head, self.recruiter, self.pm,
                           *self.team, *self.others]
        self.sales = [c for c in self.others if c.department == "Sales"]
        self.externals = []
        for _ in range(6):
            company = self.ctx.fake.company()
            domain = re.sub(r"[^a-z]", "", company.lower().split()[0].split(",")[0]) + ".com"
            self.externals.append(self.person(None, self.rng.choice(CUSTOMER_ROLES), company=company, domain=domain))

    def calendars_and_rooms(self) -> None:
        def calendar(name: str, description: str, owner: Contact, color: str, **flags: bool) -> Calendar:
            cal = Calendar(id=self.ctx.new_id("CAL"), name=name, description=description, owner_id=owner.id,
                           color=color, **flags)
            self.ctx.add(cal)
            return cal

        self.work = calendar("Work", "Your main work calendar; invitations land here.", self.me, "blue",
                             is_default=True)
        self.personal = calendar("Personal", "Private appointments, visible to colleagues as busy.", self.me,
                                 "green")
        self.team_cal = calendar("Platform Team", "Shared calendar of the Platform engineering team.",
                                 self.lead, "orange", shared=True)
        self.company = calendar("Company Events", "Company-wide events, published by the People team.",
                                self.people_head, "purple", shared=True, read_only=True)
        self.hiring = calendar("Hiring", "Interview loops and hiring debriefs.", self.recruiter, "red",
                               shared=True)
        self.rooms = []
        for name, floor, capacity, video in ROOMS:
            room = Room(id=self.ctx.new_id("ROOM"), name=name, building="HQ", floor=floor, capacity=capacity,
                        has_video=video)
            self.rooms.append(room)
            self.room_busy[room.id] = []
            self.ctx.add(room)

    # -- events -------------------------------------------------------------------------------

    def at(self, day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
        return dt.datetime.combine(day, dt.time(hour, minute))

    def next_weekday(self, day: dt.date, weekday: int) -> dt.date:
        return day + dt.timedelta(days=(weekday - day.weekday()) % 7)

    def response(self, past: bool, *, me: bool = False) -> str:
        if past:
            weights = (3, 85, 8, 4) if me else (5, 80, 8, 7)
        else:
            weights = (30, 55, 5, 10) if me else (25, 50, 10, 15)
        return self.rng.choices(["needs-action", "accepted", "declined", "tentative"], weights)[0]

    def event(self, calendar: Calendar, title: str, start: dt.datetime, minutes: int, organizer: Contact,
              invitees: list[Contact], *, room: Room | None = None, location: str | None = None,
              description: str | None = None, status: str = "confirmed", responses: dict[str, str] | None = None,
              **rule) -> Event:
        end = start + dt.timedelta(minutes=minutes)
        event = Event(id=self.ctx.new_id("EVT"), calendar_id=calendar.id, title=title, description=description,
                      location=room.name if room else location, room_id=room.id if room else None, start=start,
                      end=end, organizer_id=organizer.id, status=status, **rule)
        past = end <= self.ctx.now
        for contact in invitees:
            answer = (responses or {}).get(contact.id) or self.response(past, me=contact is self.me)
            event.invitees.append(Invitee(contact_id=contact.id, response=answer))
        self.ctx.add(event)
        self.titles.add(title)
        return event

    def series(self) -> None:
        base = self.today - dt.timedelta(days=119)
        accepted = {c.id: "accepted" for c in [self.me, *self.team, self.pm]}
        monday = self.next_weekday(base, 0)
        standup = self.event(
            self.team_cal, "Platform Standup", self.at(monday, 9, 30), 15, self.lead, [self.me, *self.team],
            location="Platform team area", responses=accepted, repeat_freq="weekly",
            repeat_weekdays="monday,tuesday,wednesday,thursday,friday",
            description="Daily check-in: yesterday, today, blockers. 15 minutes, standing.")
        skipped = {monday + dt.timedelta(weeks=3, days=4), monday + dt.timedelta(weeks=9, days=2)}
        skipped.add(self.next_weekday(self.today + dt.timedelta(days=3), 4))  # a Friday soon
        for day in sorted(skipped):
            self.ctx.add(CancelledOccurrence(event_id=standup.id, occurrence_date=day))

        room = {r.name: r for r in self.rooms}
        one_on_one = self.event(
            self.work, f"1:1 {self.lead.name.split()[0]} / {self.me.name.split()[0]}",
            self.at(self.next_weekday(base, 1), 14), 30, self.lead, [self.me], room=room["Aurora"],
            responses=accepted, repeat_freq="weekly")
        self.ctx.add(Reminder(id=self.ctx.new_id("REM"), event_id=one_on_one.id, minutes_before=5, method="popup"))
        self.event(self.team_cal, "Sprint Planning", self.at(monday, 10), 60, self.lead,
                   [self.me, *self.team, self.pm], room=room["Cascade"], responses=accepted, repeat_freq="weekly",
                   repeat_interval=2, description="Plan the next two-week sprint; bring estimates.")
        self.event(self.team_cal, "Platform Tech Sync", self.at(self.next_weekday(base, 3), 11), 45, self.me,
                   self.team[:4], room=room["Borealis"], repeat_freq="weekly",
                   description="Cross-cutting technical decisions for the Platform team.")
        self.event(self.work, f"Mentoring: {self.junior.name}", self.at(self.next_weekday(base, 2), 15), 30,
                   self.me, [self.junior], room=room["Fjord"], responses={self.junior.id: "accepted"},
                   repeat_freq="weekly", repeat_interval=2)
        self.event(self.work, "Monthly Business Review", self.at(base.replace(day=10), 15), 60, self.cpo,
                   [self.me, self.lead, self.pm, *self.others[:4]], room=room["Everest"], repeat_freq="monthly",
                   repeat_count=8, responses={self.me.id: "accepted"},
                   description="Metrics, revenue and roadmap status for the month.")
        everyone = [c for c in self.colleagues if c is not self.ceo]
        self.event(self.company, "Company All-Hands", self.at(self.next_weekday(base, 4), 15), 60, self.ceo,
                   [self.me, *everyone], location="Main auditorium", repeat_freq="weekly", repeat_interval=4,
                   responses={self.me.id: "accepted"})
        self.event(self.personal, "Lunch run", self.at(self.next_weekday(base, 1), 12, 15), 45, self.me, [],
                   location="Riverside path", repeat_freq="weekly", repeat_weekdays="tuesday,thursday",
                   repeat_until=self.today + dt.timedelta(days=45))
        self.event(self.team_cal, "Architecture Guild", self.at(self.next_weekday(base, 3), 16), 60,
                   self.team[1], [self.me, *self.team[2:], self.lead], location="Zoom",
                   responses={self.me.id: "tentative"}, repeat_freq="weekly",
                   repeat_until=self.today + dt.timedelta(days=30))
        launch_day = self.next_weekday(self.today + dt.timedelta(days=2), 0)
        self.event(self.work, "Launch war room: Billing v2", self.at(launch_day, 16, 30), 30, self.pm,
                   [self.me, self.lead, self.sre, *self.sales[:1]], location="Zoom",
                   responses={self.me.id: "needs-action"}, repeat_freq="daily", repeat_count=5,
                   description="Daily go/no-go check for the Billing v2 launch.")
        self.event(self.team_cal, "On-call handoff", self.at(self.next_weekday(base, 4), 16), 15, self.sre,
                   [self.me, *self.team[1:]], location="Zoom", responses={self.me.id: "accepted"},
                   repeat_freq="weekly", repeat_count=20)
        self.ctx.session.flush()
        window = (self.ctx.now - dt.timedelta(days=130), self.ctx.now + dt.timedelta(days=130))
        for event in self.ctx.session.scalars(select(Event)):
            attends = event.organizer_id == self.me.id or any(
                i.contact_id == self.me.id and i.response != "declined" for i in event.invitees)
            for start in event.occurrences(*window):
                span = (start, start + event.duration)
                if attends:
                    self.user_busy.append(span)
                if event.room_id:
                    self.room_busy[event.room_id].append(span)

    def one_off_events(self) -> None:
        kinds = ["meeting", "interview", "customer", "coffee", "personal", "company", "focus"]
        weights = [45, 12, 12, 9, 10, 8, 4]
        company_titles = list(COMPANY_EVENTS)
        personal_titles = list(PERSONAL)
        plans = []
        for _ in range(200):
            kind = self.rng.choices(kinds, weights)[0]
            plan = self.plan(kind, company_titles, personal_titles)
            if plan is not None:
                plans.append(plan)
        # Ids follow time, as a calendar export would number them.
        plans.sort(key=lambda p: (p["start"], p["title"]))
        for plan in plans:
            reminder = plan.pop("reminder")
            event = self.event(**plan)
            if reminder:
                minutes, method = reminder
                self.ctx.add(Reminder(id=self.ctx.new_id("REM"), event_id=event.id, minutes_before=minutes,
                                      method=method))

    def plan(self, kind: str, company_titles: list[str], personal_titles: list[str]) -> dict | None:
        rng, fake = self.rng, self.ctx.fake
        internal = [c for c in self.colleagues if c not in (self.ceo,)]
        room_wanted = False
        location = None
        description = None
        if kind == "meeting":
            title = f"{rng.choice(TOPICS)} {rng.choice(MEETING_KINDS)}"
            organizer = self.me if rng.random() < 0.45 else rng.choice(internal)
            guests = rng.sample([c for c in internal if c is not organizer], rng.randint(2, 6))
            calendar = self.team_cal if rng.random() < 0.25 else self.work
            if organizer is not self.me and (calendar is self.work or rng.random() < 0.7):
                guests.insert(0, self.me)
            room_wanted = rng.random() < 0.6
            location = rng.choice(VIDEO)
            description = fake.sentence(nb_words=10) if rng.random() < 0.5 else None
            minutes = rng.choice([30, 45, 60, 60, 90])
        elif kind == "interview":
            title = f"Interview: {fake.name()}"
            calendar, organizer = self.hiring, self.recruiter
            guests = [self.me, *rng.sample(self.team, rng.randint(0, 2))]
            room_wanted = rng.random() < 0.7
            location = "Zoom"
            description = rng.choice(["System design round.", "Coding round.", "Team fit conversation."])
            minutes = rng.choice([45, 60])
        elif kind == "customer":
            customer = rng.choice(self.externals)
            title = f"Customer call: {customer.company}"
            organizer = self.me if rng.random() < 0.4 else rng.choice(self.sales)
            guests = [customer, rng.choice([c for c in self.sales if c is not organizer])]
            if organizer is not self.me:
                guests.insert(0, self.me)
            calendar, location = self.work, rng.choice(VIDEO)
            minutes = rng.choice([30, 45, 60])
        elif kind == "coffee":
            other = rng.choice(internal)
            title = f"Coffee chat with {other.name}"
            calendar, organizer, guests, location, minutes = self.work, self.me, [other], "Cafe on 2", 30
        elif kind == "personal":
            if not personal_titles:
                return None
            title = personal_titles.pop(rng.randrange(len(personal_titles)))
            calendar, organizer, guests, minutes = self.personal, self.me, [], rng.choice([45, 60, 90])
            location = f"{fake.street_address()}, {fake.city()}"
        elif kind == "company":
            if not company_titles:
                return None
            title = company_titles.pop(rng.randrange(len(company_titles)))
            calendar, organizer, guests = self.company, self.people_head, [self.me]
            location, minutes = "Main auditorium", rng.choice([45, 60])
        else:
            title, calendar, organizer, guests, minutes = "Focus time", self.work, self.me, [], 120
        if title in self.titles and kind != "focus":
            return None
        attendees = [organizer, *guests]
        for _ in range(20):
            day = self.today + dt.timedelta(days=rng.randint(-60, 60))
            if day.weekday() >= 5:
                continue
            start = self.at(day, 9) + dt.timedelta(minutes=15 * rng.randint(0, (8 * 60 - minutes) // 15))
            span = (start, start + dt.timedelta(minutes=minutes))
            if self.me in attendees and _clashes(span, self.user_busy):
                continue
            room = None
            if room_wanted:
                fitting = [r for r in self.rooms if r.capacity >= len(attendees)]
                rng.shuffle(fitting)
                room = next((r for r in fitting if not _clashes(span, self.room_busy[r.id])), None)
            break
        else:
            return None
        self.titles.add(title)
        status = rng.choices(["confirmed", "tentative", "cancelled"], [87, 7, 6])[0]
        if status != "cancelled":
            if self.me in attendees:
                self.user_busy.append(span)
            if room is not None:
                self.room_busy[room.id].append(span)
        reminder = None
        if self.me in attendees and span[0] > self.ctx.now and rng.random() < 0.35:
            reminder = rng.choice([(10, "popup"), (10, "popup"), (15, "popup"), (60, "email"), (1440, "email")])
        return {"calendar": calendar, "title": title, "start": start, "minutes": minutes, "organizer": organizer,
                "invitees": guests, "room": room, "location": location, "description": description,
                "status": status, "reminder": reminder}

    def busy_blocks(self) -> None:
        for contact in self.colleagues:
            for _ in range(8):
                day = self.today + dt.timedelta(days=self.rng.randint(-3, 21))
                if day.weekday() >= 5:
                    continue
                minutes = self.rng.choice([30, 60, 60, 90, 120])
                start = self.at(day, 9) + dt.timedelta(minutes=15 * self.rng.randint(0, (8 * 60 - minutes) // 15))
                self.ctx.add(BusyBlock(id=self.ctx.new_id("BSY"), contact_id=contact.id, start=start,
                                       end=start + dt.timedelta(minutes=minutes)))


def _clashes(span: tuple[dt.datetime, dt.datetime], taken: list[tuple[dt.datetime, dt.datetime]]) -> bool:
    return any(start < span[1] and span[0] < end for start, end in taken)
