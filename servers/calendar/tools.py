"""The calendar server's tools: read the user's calendars, schedule and change events, answer invitations."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from functools import cached_property
from typing import Annotated, Literal

from pydantic import Field

from sqlalchemy import or_, select
from sqlalchemy.orm import selectinload

from prove_env.toolkit import Date, DateTime, Detail, Entity, Id, Limit, Toolkit, ToolError, tool

from .models import WEEKDAYS, Base, BusyBlock, Calendar, CancelledOccurrence, Contact, Event, Invitee, Reminder, Room
from .seed import seed

Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

DAY_START, DAY_END = dt.time(9, 0), dt.time(17, 0)  # working hours, Monday to Friday
MAX_EVENT_LENGTH = dt.timedelta(hours=24)
MAX_CHECK_LENGTH = dt.timedelta(days=7)  # availability look-ups may cover a week
MAX_LIST_DAYS = 92
MAX_SLOT_DAYS = 31
UPCOMING_DAYS = 92
# How far ahead a recurring series is checked (room clashes, next occurrence): rules may be endless.
HORIZON = dt.timedelta(days=366)
_PENDING_SQL = (
    "SELECT e.id, e.title, e.start, e.end, e.calendar_id, e.location, e.status, e.repeat_freq IS NOT NULL, c.name "
    "FROM invitees i JOIN events e ON e.id = i.event_id JOIN contacts c ON c.id = e.organizer_id "
    "WHERE i.contact_id = ? AND i.response = 'needs-action' AND e.status != 'cancelled'")
EMAIL = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")


class CalendarServer(Toolkit):
    """The work calendar of one person (the user), with a directory of colleagues and meeting rooms.

    Times are the user's local time in ISO 8601 without a time zone, such as '2026-03-14T09:30'.
    Call get_current_time to learn today's date before resolving 'tomorrow' or 'next Tuesday'.
    The user can change only the events they organize; invitations from others are answered with
    respond_to_invitation. Recurring events have one event id for the whole series.
    """

    name = "calendar"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("calendar", Calendar, "CAL", lookup="list_calendars"),
        Entity("event", Event, "EVT", lookup="search_events"),
        Entity("contact", Contact, "CON", lookup="find_contacts"),
        Entity("room", Room, "ROOM", lookup="list_rooms"),
        Entity("reminder", Reminder, "REM", lookup="list_reminders"),
    )

    # -- time and discovery --------------------------------------------------------------------

    @tool(read_only=True)
    def get_current_time(self) -> dict:
        """Return the current date and time, today's weekday and the user's working hours.

        Use it to turn relative dates ('tomorrow', 'next Tuesday at 3pm') into ISO dates.
        """
        return {"now": self.now, "date": self.now.date(), "weekday": _weekday(self.now.date()),
                "working_hours": "09:00-17:00, Monday to Friday"}

    @tool(read_only=True)
    def list_calendars(self) -> list[dict]:
        """List the user's calendars and the shared calendars they subscribe to.

        New events go to the default calendar unless another is named; read-only calendars
        (published by someone else) cannot take new events.
        """
        return [_calendar_dict(c) for c in self.db.scalars(select(Calendar).order_by(Calendar.id))]

    @tool(read_only=True, produces=("event",))
    def list_events(self, start_date: Date, end_date: Date, calendar_id: Id("calendar") | None = None,
                    include_cancelled: bool = False, limit: Annotated[int, Field(ge=1, le=200)] = 50) -> dict:
        """List the events on all the user's calendars between two dates (inclusive), ordered by start.

        Recurring events are expanded: every occurrence in the range is one entry carrying the
        series' event id. Cancelled events and cancelled occurrences are left out unless asked
        for. 'my_response' is the user's answer to the invitation: 'organizer' for events they
        organize, null when they are not invited. The range spans at most 92 days.

        Args:
            start_date: the first day, such as '2026-03-14'.
            end_date: the last day, included, such as '2026-03-20'; the same as start_date for one day.
            calendar_id: only events of this calendar, such as 'CAL-0003'; all calendars when omitted.
            include_cancelled: also list cancelled events and occurrences (with status 'cancelled').
            limit: the most entries to return (1-200), earliest first; 'total' counts them all.
        """
        first, last = self._date_range(start_date, end_date, MAX_LIST_DAYS)
        filters = [Event.calendar_id == self.get(Calendar, calendar_id).id] if calendar_id is not None else []
        found = self._occurrences(_midnight(first), _midnight(last + dt.timedelta(days=1)), *filters,
                                  include_cancelled=include_cancelled)
        return {"start_date": first, "end_date": last, "total": len(found),
                "events": [self._occurrence_dict(e, s) for e, s in found[:limit]]}

    @tool(read_only=True, produces=("event",))
    def list_upcoming_events(self, limit: Limit = 10, calendar_id: Id("calendar") | None = None) -> list[dict]:
        """List the next events that start from now on, soonest first, over the coming 92 days.

        Recurring events are expanded into occurrences; cancelled ones are left out.

        Args:
            calendar_id: only events of this calendar, such as 'CAL-0001'; all calendars when omitted.
        """
        filters = [Event.calendar_id == self.get(Calendar, calendar_id).id] if calendar_id is not None else []
        found = [(e, s) for e, s in self._occurrences(self.now, self.now + dt.timedelta(days=UPCOMING_DAYS), *filters)
                 if s >= self.now]
        return [self._occurrence_dict(e, s) for e, s in found[:limit]]

    @tool(read_only=True)
    def search_events(self, query: str, limit: Limit = 20) -> dict:
        """Find events, past and future, whose title, description or location contains a text.

        The match ignores case. A recurring event is listed once, with its rule and its next
        occurrence. Results are ordered by the (first) start.

        Args:
            query: the text to look for, such as 'budget' or 'Interview'.
        """
        text = query.strip()
        if not text:
            raise ToolError("query must not be empty")
        # LIKE ignores (ASCII) case; '/' escapes the wildcards a query may hold.
        needle = text.replace("/", "//").replace("%", "/%").replace("_", "/_")
        ids = [r[0] for r in self.rows(
            "SELECT id FROM events WHERE title LIKE '%' || ?1 || '%' ESCAPE '/' OR description LIKE '%' || ?1 || '%' "
            "ESCAPE '/' OR location LIKE '%' || ?1 || '%' ESCAPE '/' ORDER BY start, id", needle)]
        self.world.preload(Event, ids[:limit])
        return {"query": text, "total": len(ids),
                "events": [self._series_dict(self.db.get(Event, i)) for i in ids[:limit]]}

    @tool(read_only=True, produces=("contact", "room", "reminder", "calendar"))
    def get_event(self, event_id: Id("event")) -> dict:
        """Return one event in full: time, place, organizer, invitees and their responses, recurrence, reminders.

        Args:
        """
        return self._event_dict(self.get(Event, event_id))

    # -- scheduling ----------------------------------------------------------------------------

    @tool(produces=("event",), details=(Detail("events", "description"),))
    def create_event(self, title: str, start: DateTime, end: DateTime, calendar_id: Id("calendar") | None = None,
                     location: str | None = None, description: str | None = None,
                     invitee_ids: list[Id("contact")] | None = None) -> dict:
        """Create an event organized by the user; each invitee gets an invitation to answer.

        The start may not be in the past, the end must be after the start, and an event lasts at
        most 24 hours. The result lists, under 'conflicts', the user's other events that overlap
        it: a warning only, the event is created. To make it repeat call set_recurrence; to book a
        meeting room call book_room.

        Args:
            title: the event's title, such as 'Billing API review'.
            start: when it starts, local time such as '2026-03-14T09:30'.
            end: when it ends, such as '2026-03-14T10:00'.
            calendar_id: the calendar to put it on, such as 'CAL-0002'; the default (Work) calendar when omitted.
            location: where it happens, such as 'Zoom' or 'Cafe on 2'.
            description: notes or an agenda for the invitees.
            invitee_ids: contact ids of the people to invite, such as ['CON-0004', 'CON-0011'].
        """
        calendar = self.get(Calendar, calendar_id) if calendar_id is not None else self._default_calendar()
        if calendar.read_only:
            raise ToolError(f"Calendar '{calendar.name}' ({calendar.id}) is read-only: events cannot be added to it")
        begin, finish = _span(start, end)
        self._not_past(begin)
        guests = self._contacts(invitee_ids or [], "invitee_ids")
        event = Event(id=self.new_id("EVT"), calendar=calendar, title=_required(title, "title"),
                      description=_optional(description), location=_optional(location), start=begin, end=finish,
                      organizer=self._me(), status="confirmed")
        event.invitees = [Invitee(contact=c, response="needs-action") for c in guests]
        self.db.add(event)
        self.db.flush()  # fills the foreign keys the result shows
        return {**self._event_dict(event), "conflicts": self._my_conflicts(event)}

    @tool(destructive=True, idempotent=True)
    def update_event(self, event_id: Id("event"), title: str | None = None, location: str | None = None,
                     description: str | None = None) -> dict:
        """Change the title, location or description of an event the user organizes.

        Only the given fields change. To change the time use reschedule_event; an event with a
        booked room takes its location from the room (release_room first to set another).

        Args:
            title: the new title, such as 'Billing API review (v2)'.
            location: the new location, such as 'Zoom'; an empty string clears it.
            description: the new description; an empty string clears it.
        """
        event = self._own(self.get(Event, event_id), "edit")
        if title is None and location is None and description is None:
            raise ToolError("Nothing to update: give a title, location or description")
        if title is not None:
            event.title = _required(title, "title")
        if location is not None:
            if event.room is not None:
                raise ToolError(f"{_label(event)} has room {event.room.name} booked, which sets its location; "
                                "release the room first to set another location")
            event.location = _optional(location)
        if description is not None:
            event.description = _optional(description)
        return self._event_dict(event)

    @tool(destructive=True, idempotent=True)
    def reschedule_event(self, event_id: Id("event"), start: DateTime, end: DateTime | None = None) -> dict:
        """Move an event the user organizes to a new time; every invitee is asked to respond again.

        Without an end the event keeps its length. The new start may not be in the past. For a
        recurring event the whole series moves and restarts at the new start (a weekly rule's
        weekdays must include the new start's weekday; use set_recurrence to change them), and a
        cancelled occurrence stays cancelled only if the series still occurs on its date. A booked
        room must be free at the new time. The result lists the user's overlapping events under
        'conflicts'.

        Args:
            start: the new start, local time such as '2026-03-17T15:00'.
            end: the new end, such as '2026-03-17T15:30'; the same length as before when omitted.
        """
        event = self._own(self.get(Event, event_id), "reschedule")
        begin = start
        finish = end if end is not None else begin + event.duration
        _check_span(begin, finish)
        if (begin, finish) != (event.start, event.end):
            self._not_past(begin)
            if event.repeat_freq == "weekly" and event.weekdays and _weekday(begin).lower() not in event.weekdays:
                raise ToolError(f"{_label(event)} repeats on {', '.join(event.weekdays)}; the new start is a "
                                f"{_weekday(begin)}. Change the rule with set_recurrence first")
            if event.repeat_until is not None and event.repeat_until < begin.date():
                raise ToolError(f"{_label(event)} repeats until {event.repeat_until}, before the new start")
            event.start, event.end = begin, finish
            _drop_stale_cancellations(event)
            for invitee in event.invitees:
                invitee.response = "needs-action"
            if event.room is not None:
                self._check_room_free(event, event.room)
        return {**self._event_dict(event), "conflicts": self._my_conflicts(event)}

    @tool(destructive=True, idempotent=True, sets=("event.recurring",))
    def set_recurrence(self, event_id: Id("event"), frequency: Literal["daily", "weekly", "monthly", "none"],
                       interval: int = 1, weekdays: list[Weekday] | None = None, count: int | None = None,
                       until: Date | None = None) -> dict:
        """Make an event the user organizes repeat, replace its rule, or stop it repeating ('none').

        The event's start is the first occurrence. A weekly rule repeats on the start's weekday
        unless weekdays are given (they must include the start's weekday); a monthly rule repeats
        on the start's day of the month (months without that day are skipped). Give at most one of
        count and until; without either the event repeats indefinitely. A booked room must be free
        at every future occurrence. A cancelled occurrence stays cancelled only if the new rule
        still has an occurrence on its date. 'none' keeps the first occurrence as a one-off event
        (refused when that occurrence was cancelled); on an event that does not repeat it changes
        nothing ('was_recurring' is then false).

        Args:
            frequency: 'daily', 'weekly', 'monthly', or 'none' to make it a one-off event again.
            interval: repeat every this many days, weeks or months (1-30), such as 2 for every other week.
            weekdays: weekly only: the days it repeats on, such as ['monday', 'wednesday'].
            count: how many occurrences in all (1-500), such as 10.
            until: the last date an occurrence may fall on, such as '2026-12-18'.
        """
        event = self._own(self.get(Event, event_id), "change the recurrence of")
        if frequency == "none":
            if interval != 1 or weekdays or count is not None or until is not None:
                raise ToolError("frequency 'none' takes no interval, weekdays, count or until")
            if not event.recurring:
                return {**self._event_dict(event), "was_recurring": False}
            if event.start.date() in {c.occurrence_date for c in event.cancelled_occurrences}:
                raise ToolError(f"The first occurrence of {_label(event)}, on {event.start.date()}, was cancelled, "
                                "so a one-off event would bring it back; reschedule the event to the occurrence "
                                "to keep first, or cancel the event")
            event.repeat_freq, event.repeat_interval, event.repeat_weekdays = None, 1, None
            event.repeat_count, event.repeat_until = None, None
            event.cancelled_occurrences.clear()
            return {**self._event_dict(event), "was_recurring": True}
        if not 1 <= interval <= 30:
            raise ToolError(f"interval must be between 1 and 30, got {interval}")
        if weekdays:
            if frequency != "weekly":
                raise ToolError(f"weekdays can only be given with frequency 'weekly', not {frequency!r}")
            if len(set(weekdays)) != len(weekdays):
                raise ToolError("weekdays lists a day more than once")
            first_day = _weekday(event.start).lower()
            if first_day not in weekdays:
                raise ToolError(f"weekdays must include {first_day}, the weekday of the first occurrence "
                                f"({event.start.date()}); reschedule the event first to start on another day")
        if count is not None and until is not None:
            raise ToolError("Give either count or until, not both")
        if count is not None and not 1 <= count <= 500:
            raise ToolError(f"count must be between 1 and 500, got {count}")
        last_day = until
        if last_day is not None and last_day < event.start.date():
            raise ToolError(f"until ({last_day}) is before the first occurrence ({event.start.date()})")
        event.repeat_freq, event.repeat_interval = frequency, interval
        event.repeat_weekdays = ",".join(d for d in WEEKDAYS if d in weekdays) if weekdays else None
        event.repeat_count, event.repeat_until = count, last_day
        _drop_stale_cancellations(event)
        if event.room is not None:
            self._check_room_free(event, event.room)
        return self._event_dict(event)

    @tool(destructive=True, requires=("event.recurring",))
    def cancel_occurrence(self, event_id: Id("event"), date: Date) -> dict:
        """Cancel one occurrence of a recurring event the user organizes; the rest of the series stays.

        Only occurrences that have not started yet can be cancelled.

        Args:
            event_id: the recurring event's id, such as 'EVT-0003'.
            date: the date of the occurrence to cancel, such as '2026-03-19'.
        """
        event = self._own(self.get(Event, event_id), "cancel an occurrence of")
        if not event.recurring:
            raise ToolError(f"{_label(event)} does not repeat; use cancel_event to cancel it")
        day = date
        start = next((s for s in event.rule_starts() if s.date() >= day), None)
        if start is None or start.date() != day:
            raise ToolError(f"{_label(event)} has no occurrence on {day} ({_weekday(day)}); it repeats "
                            f"{_rule_text(event)} from {event.start.date()}")
        if day in {c.occurrence_date for c in event.cancelled_occurrences}:
            raise ToolError(f"The {day} occurrence of {_label(event)} is already cancelled")
        if start < self.now:
            raise ToolError(f"The {day} occurrence of {_label(event)} started at {_iso(start)}, before now "
                            f"({_iso(self.now)}); only future occurrences can be cancelled")
        event.cancelled_occurrences.append(CancelledOccurrence(event_id=event.id, occurrence_date=day))
        return {"event_id": event.id, "title": event.title,
                "cancelled_occurrence": {"start": start, "end": start + event.duration},
                "next_occurrence": self._next_occurrence(event)}

    @tool(destructive=True)
    def cancel_event(self, event_id: Id("event")) -> dict:
        """Cancel an event the user organizes (a recurring one: the whole series); invitees are notified.

        The event stays on the calendar with status 'cancelled'. An event that has already taken
        place cannot be cancelled.

        Args:
        """
        event = self.get(Event, event_id)
        if event.status == "cancelled":
            raise ToolError(f"{_label(event)} is already cancelled")
        self._own(event, "cancel")
        if self._next_occurrence(event) is None:
            raise ToolError(f"{_label(event)} has already taken place and cannot be cancelled")
        event.status = "cancelled"
        return {"event_id": event.id, "title": event.title, "status": event.status,
                "notified": [i.contact.name for i in event.invitees]}

    @tool(destructive=True)
    def delete_event(self, event_id: Id("event")) -> dict:
        """Delete an event the user organizes, with its invitations and reminders, for good.

        For an invitation from someone else, decline it with respond_to_invitation instead.

        Args:
        """
        event = self.get(Event, event_id)
        if event.organizer_id != self._my_id:
            raise ToolError(f"Only the organizer, {event.organizer.name}, can delete {_label(event)}; "
                            "decline it with respond_to_invitation instead")
        self.db.delete(event)
        return {"deleted": event.id, "title": event.title}

    # -- invitations ---------------------------------------------------------------------------

    @tool(sets=("event.invitees",))
    def add_invitees(self, event_id: Id("event"), contact_ids: list[Id("contact")]) -> dict:
        """Invite more people to an event the user organizes; each new invitee gets 'needs-action'.

        Fails if someone is already invited, or if the booked room would be too small.

        Args:
            contact_ids: contact ids of the people to invite, such as ['CON-0004', 'CON-0011'].
        """
        event = self._own(self.get(Event, event_id), "invite people to")
        if self._next_occurrence(event) is None:
            raise ToolError(f"{_label(event)} has already taken place")
        guests = self._contacts(contact_ids, "contact_ids")
        if not guests:
            raise ToolError("contact_ids must name at least one contact")
        invited = {i.contact_id for i in event.invitees}
        for contact in guests:
            if contact.id in invited:
                raise ToolError(f"{contact.name} ({contact.id}) is already invited to {_label(event)}")
        if event.room is not None and _headcount(event) + len(guests) > event.room.capacity:
            raise ToolError(f"Room {event.room.name} holds {event.room.capacity} people; with these invitees "
                            f"{_label(event)} would have {_headcount(event) + len(guests)}. Book a bigger room first")
        event.invitees.extend(Invitee(contact=c, response="needs-action") for c in guests)
        return {"event_id": event.id, "title": event.title, "invitees": _invitee_dicts(event)}

    @tool(destructive=True, requires=("event.invitees",))
    def remove_invitee(self, event_id: Id("event"), contact_id: Id("contact")) -> dict:
        """Withdraw one person's invitation to an event the user organizes.

        Args:
            contact_id: the invitee's contact id, such as 'CON-0011'.
        """
        event = self._own(self.get(Event, event_id), "remove invitees from")
        contact = self.get(Contact, contact_id)
        invitee = next((i for i in event.invitees if i.contact_id == contact.id), None)
        if invitee is None:
            raise ToolError(f"{contact.name} ({contact.id}) is not invited to {_label(event)}")
        event.invitees.remove(invitee)
        return {"event_id": event.id, "title": event.title, "removed": contact.id, "invitees": _invitee_dicts(event)}

    @tool(idempotent=True, requires=("invitation.pending",))
    def respond_to_invitation(self, event_id: Id("event"), response: Literal["accepted", "declined", "tentative"]) -> dict:
        """Answer an invitation from someone else: accept, decline or tentatively accept it.

        For a recurring event the answer covers the whole series. Cancelled events and events
        that have already taken place cannot be answered.

        Args:
            response: 'accepted', 'declined' or 'tentative'.
        """
        event = self.get(Event, event_id)
        if event.organizer_id == self._my_id:
            raise ToolError(f"You organize {_label(event)}; only invitees respond to it")
        invitee = next((i for i in event.invitees if i.contact_id == self._my_id), None)
        if invitee is None:
            raise ToolError(f"You are not invited to {_label(event)}")
        if event.status == "cancelled":
            raise ToolError(f"{_label(event)} was cancelled by {event.organizer.name}; there is nothing to respond to")
        if self._next_occurrence(event) is None:
            raise ToolError(f"{_label(event)} has already taken place")
        invitee.response = response
        return {"event_id": event.id, "title": event.title, "organizer": event.organizer.name, "my_response": response}

    @tool(read_only=True, produces=("event",))
    def list_pending_invitations(self, limit: Limit = 20) -> dict:
        """List the invitations the user has not answered yet, for events still to come, soonest first.

        Args:
        """
        # One query finds the unanswered invitations with what a one-off event's entry needs; only
        # recurring events are loaded, to find their next occurrence. Each entry reads as
        # `_occurrence_dict` writes it (the user's response is "needs-action"; a cancelled event or
        # occurrence is never pending).
        pending = []
        for (event_id, title, start, end, calendar_id, location, status, recurring,
             organizer) in self.rows(_PENDING_SQL, self._my_id):
            if recurring:
                event = self.db.get(Event, event_id)
                start = self._next_occurrence(event)
                if start is None:
                    continue
                end = start + event.duration
                recurrence = _rule_text(event)
            else:
                start, end = dt.datetime.fromisoformat(start), dt.datetime.fromisoformat(end)
                if end <= self.now:
                    continue
                recurrence = None
            pending.append({"event_id": event_id, "title": title, "start": start, "end": end,
                            "calendar_id": calendar_id, "location": location, "status": status,
                            "recurring": bool(recurring), "organizer": organizer, "my_response": "needs-action",
                            "recurrence": recurrence})
        pending.sort(key=lambda p: (p["start"], p["event_id"]))
        return {"total": len(pending), "invitations": pending[:limit]}

    # -- people --------------------------------------------------------------------------------

    @tool(read_only=True)
    def find_contacts(self, query: str | None = None, department: str | None = None, limit: Limit = 20) -> list[dict]:
        """Find people in the directory by name, email, company or job title, ordered by name.

        Without a query, lists everyone (of a department, if given). The user is the contact
        with is_me true.

        Args:
            query: part of a name, email, company or job title, such as 'Maria' or 'recruiter'.
            department: only this department, such as 'Engineering' or 'Sales' (ignoring case).
        """
        where, params = [], []
        if query is not None and query.strip():  # the text itself, ignoring case, in any of the four
            where.append("(instr(lower(name), lower(?)) OR instr(lower(email), lower(?)) "
                         "OR instr(lower(company), lower(?)) OR instr(lower(job_title), lower(?)))")
            params += [query.strip()] * 4
        if department is not None:
            where.append("lower(department) LIKE lower(?)")
            params.append(department.strip())
        contacts = self.load(Contact, f"SELECT id FROM contacts WHERE {' AND '.join(where) or '1'} "
                                      "ORDER BY name, id LIMIT ?", *params, limit)
        return [_contact_dict(c) for c in contacts]

    @tool(produces=("contact",))
    def add_contact(self, full_name: str, email: str, company: str | None = None,
                    job_title: str | None = None) -> dict:
        """Add a person (such as an outside guest) to the directory so they can be invited.

        Args:
            full_name: the person's full name, such as 'Ada Park'.
            email: their email address, such as 'ada.park@example.com'; it must not be in the directory yet.
            company: where they work, such as 'Globex'.
            job_title: their role, such as 'Head of Procurement'.
        """
        address = email.strip().lower()
        if not EMAIL.match(address):
            raise ToolError(f"{email!r} is not a valid email address (expected a form like 'ada.park@example.com')")
        existing = self.db.scalars(select(Contact).where(Contact.email == address)).first()
        if existing is not None:
            raise ToolError(f"{address} already belongs to {existing.name} ({existing.id})")
        contact = Contact(id=self.new_id("CON"), name=_required(full_name, "full_name"), email=address,
                          company=_optional(company), department=None, job_title=_optional(job_title), is_me=False)
        self.db.add(contact)
        return _contact_dict(contact)

    # -- availability --------------------------------------------------------------------------

    @tool(read_only=True, produces=("event",))
    def check_conflicts(self, start: DateTime, end: DateTime, contact_ids: list[Id("contact")] | None = None) -> dict:
        """Check whether the user, and optionally other people, are free for a time span.

        Someone is busy during events they organize or were invited to and have not declined
        (cancelled events do not count), and during private busy time on their own calendars
        (shown as 'Busy' without details). The span may last up to 7 days.

        Args:
            start: the start of the span, local time such as '2026-03-17T15:00'.
            end: the end of the span, such as '2026-03-17T15:30'.
            contact_ids: other people to check besides the user, such as ['CON-0004'].
        """
        begin, finish = _span(start, end, MAX_CHECK_LENGTH)
        people = [self._me(), *self._contacts(contact_ids or [], "contact_ids")]
        conflicts = [busy for own in self._busy(people, begin, finish) for busy in own]
        return {"start": begin, "end": finish, "free": not conflicts, "conflicts": conflicts}

    @tool(read_only=True)
    def find_free_slots(self, contact_ids: list[Id("contact")], start_date: Date, end_date: Date,
                        duration_minutes: int, limit: Limit = 10) -> dict:
        """Find times when the user and the given people are all free for a meeting of a given length.

        Looks at working hours only (09:00-17:00, Monday to Friday) from now on, over at most 31
        days. Each slot is a maximal free window at least duration_minutes long, earliest first;
        a meeting may start anywhere in it that leaves room for its length.

        Args:
            contact_ids: the other attendees, such as ['CON-0004', 'CON-0011']; [] for the user alone.
            start_date: the first day to search, such as '2026-03-16'.
            end_date: the last day to search, included, such as '2026-03-20'.
            duration_minutes: the meeting's length in minutes (15-480), such as 30.
        """
        first, last = self._date_range(start_date, end_date, MAX_SLOT_DAYS)
        if not 15 <= duration_minutes <= 480:
            raise ToolError(f"duration_minutes must be between 15 and 480, got {duration_minutes}")
        people = [self._me(), *self._contacts(contact_ids, "contact_ids")]
        earliest = _ceil_quarter(self.now)
        if dt.datetime.combine(last, DAY_END) <= earliest:
            raise ToolError(f"{first} to {last} has already passed; it is now {_iso(self.now)}")
        since, until = _midnight(first), _midnight(last + dt.timedelta(days=1))
        busy = sorted((b["start"], b["end"]) for own in self._busy(people, since, until) for b in own)
        need = dt.timedelta(minutes=duration_minutes)
        slots = []
        day = first
        while day <= last:
            if day.weekday() < 5:
                cursor, close = max(dt.datetime.combine(day, DAY_START), earliest), dt.datetime.combine(day, DAY_END)
                for busy_start, busy_end in busy:
                    if cursor >= close or busy_start >= close:
                        break
                    if busy_end <= cursor:
                        continue
                    if busy_start - cursor >= need:
                        slots.append({"start": cursor, "end": busy_start})
                    cursor = max(cursor, busy_end)
                if close - cursor >= need:
                    slots.append({"start": cursor, "end": close})
            day += dt.timedelta(days=1)
        return {"attendees": [{"contact_id": p.id, "name": p.name} for p in people],
                "duration_minutes": duration_minutes, "total": len(slots), "slots": slots[:limit]}

    # -- rooms ---------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_rooms(self, min_capacity: int | None = None, start: DateTime | None = None,
                   end: DateTime | None = None) -> list[dict]:
        """List the meeting rooms, optionally only those big enough and free for a whole time span.

        The span, when given, may last up to 7 days.

        Args:
            min_capacity: only rooms seating at least this many people, such as 6.
            start: with end: only rooms free from this time, such as '2026-03-17T15:00'.
            end: with start: only rooms free until this time, such as '2026-03-17T16:00'.
        """
        if (start is None) != (end is None):
            raise ToolError("Give both start and end to see which rooms are free, or neither")
        if min_capacity is not None and min_capacity < 1:
            raise ToolError(f"min_capacity must be at least 1, got {min_capacity}")
        rooms = self.db.scalars(select(Room).where(Room.capacity >= (min_capacity or 0)).order_by(Room.id)).all()
        if start is not None and end is not None:
            begin, finish = _span(start, end, MAX_CHECK_LENGTH)
            rooms = [r for r in rooms if not self._occurrences(begin, finish, Event.room_id == r.id)]
        return [_room_dict(r) for r in rooms]

    @tool(sets=("event.room",))
    def book_room(self, event_id: Id("event"), room_id: Id("room")) -> dict:
        """Book a meeting room for an event the user organizes (every future occurrence if recurring).

        The room must seat the organizer and every invitee who has not declined, and be free for
        the event; a room booked before is released. The event's location becomes the room's name.

        Args:
        """
        event = self._own(self.get(Event, event_id), "book a room for")
        room = self.get(Room, room_id)
        if event.room_id == room.id:
            raise ToolError(f"{room.name} is already booked for {_label(event)}")
        if self._next_occurrence(event) is None:
            raise ToolError(f"{_label(event)} has already taken place")
        if _headcount(event) > room.capacity:
            raise ToolError(f"Room {room.name} ({room.id}) holds {room.capacity} people; {_label(event)} has "
                            f"{_headcount(event)} attendees")
        self._check_room_free(event, room)
        event.room, event.location = room, room.name
        return self._event_dict(event)

    @tool(destructive=True, requires=("event.room",))
    def release_room(self, event_id: Id("event")) -> dict:
        """Release the meeting room booked for an event the user organizes; its location is cleared.

        Args:
        """
        event = self._own(self.get(Event, event_id), "release the room of")
        if event.room is None:
            raise ToolError(f"{_label(event)} has no room booked")
        event.room, event.location = None, None
        return self._event_dict(event)

    # -- reminders -----------------------------------------------------------------------------

    @tool(produces=("reminder",))
    def add_reminder(self, event_id: Id("event"), minutes_before: int, method: Literal["popup", "email"] = "popup") -> dict:
        """Add a reminder to an event on the user's calendars (for every occurrence if recurring).

        At most 5 reminders per event, no two alike; not for cancelled or past events.

        Args:
            minutes_before: how long before the start to remind, in minutes (0-40320), such as 15.
            method: 'popup' (a notification) or 'email'.
        """
        event = self.get(Event, event_id)
        if event.status == "cancelled":
            raise ToolError(f"{_label(event)} is cancelled")
        if not 0 <= minutes_before <= 40320:
            raise ToolError(f"minutes_before must be between 0 and 40320 (4 weeks), got {minutes_before}")
        if self._next_occurrence(event) is None:
            raise ToolError(f"{_label(event)} has already taken place")
        if any(r.minutes_before == minutes_before and r.method == method for r in event.reminders):
            raise ToolError(f"{_label(event)} already has a {method} reminder {minutes_before} minutes before")
        if len(event.reminders) >= 5:
            raise ToolError(f"{_label(event)} already has 5 reminders, the most allowed")
        reminder = Reminder(id=self.new_id("REM"), minutes_before=minutes_before, method=method)
        event.reminders.append(reminder)
        return self._reminder_dict(reminder)

    @tool(read_only=True)
    def list_reminders(self, event_id: Id("event") | None = None) -> list[dict]:
        """List reminders: those of one event, or else every reminder still to go off, soonest first.

        'next_trigger' is when the reminder next goes off (null when it never will again).

        Args:
            event_id: only this event's reminders, such as 'EVT-0042'.
        """
        if event_id is not None:
            return [self._reminder_dict(r) for r in self.get(Event, event_id).reminders]
        items = [self._reminder_dict(r) for r in self.db.scalars(select(Reminder).order_by(Reminder.id))]
        return sorted((i for i in items if i["next_trigger"] is not None), key=lambda i: i["next_trigger"])

    @tool(destructive=True)
    def remove_reminder(self, reminder_id: Id("reminder")) -> dict:
        """Remove one of the user's reminders; the event itself stays.

        Args:
        """
        reminder = self.get(Reminder, reminder_id)
        event = reminder.event
        event.reminders.remove(reminder)  # delete-orphan deletes it, and the loaded collection stays true
        return {"removed": reminder.id, "event_id": event.id, "title": event.title}

    # -- hidden helpers ------------------------------------------------------------------------

    @tool(hidden=True, idempotent=True, sets=("invitation.pending",))
    def set_invitee_response(self, event_id: Id("event"), contact_id: Id("contact"),
                             response: Literal["needs-action", "accepted", "declined", "tentative"]) -> dict:
        """Record an invitee's answer as if they had replied (a test and synthesis helper).

        Args:
            contact_id: the invitee's contact id, such as 'CON-0011'.
            response: the answer to record.
        """
        event = self.get(Event, event_id)
        invitee = next((i for i in event.invitees if i.contact_id == contact_id), None)
        if invitee is None:
            raise ToolError(f"{contact_id} is not invited to {_label(event)}")
        invitee.response = response
        return {"event_id": event.id, "contact_id": contact_id, "response": response}

    # -- invariants ----------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """Events end after they start and last at most 24 hours; recurrence fields are coherent and
        a cancelled occurrence is one the rule produces; nobody is invited to an event they
        organize; an event has at most 5 reminders, no two alike; a booked room gives the event its
        location and is never booked twice at once from now on.

        The world records no moment at which something happened (events and busy blocks are
        scheduled times, past or future alike), so no time here is bound by the clock."""
        problems = []
        events = list(self.db.scalars(select(Event).order_by(Event.id).options(
            selectinload(Event.room), selectinload(Event.invitees), selectinload(Event.reminders),
            selectinload(Event.cancelled_occurrences))))
        for event in events:
            problems += _rule_problems(event)
            if event.room is not None and event.location != event.room.name:
                problems.append(f"{event.id} has room {event.room.name} booked but location {event.location!r}")
            if any(i.contact_id == event.organizer_id for i in event.invitees):
                problems.append(f"{event.id} invites its own organizer {event.organizer_id}")
            kinds = [(r.minutes_before, r.method) for r in event.reminders]
            if len(kinds) > 5 or len(set(kinds)) != len(kinds):
                problems.append(f"{event.id} has reminders {sorted(kinds)}: at most 5, no two alike")
        since, until = self.now, self.now + HORIZON
        booked: dict[str, list[tuple[dt.datetime, dt.datetime, str]]] = {}
        for event in events:
            if event.room_id is not None and event.status != "cancelled":
                booked.setdefault(event.room_id, []).extend(
                    (start, start + event.duration, event.id) for start in event.occurrences(since, until))
        for room_id, spans in sorted(booked.items()):
            spans.sort()
            for (start, end, first), (later, _, second) in zip(spans, spans[1:]):
                if later < end and first != second:
                    problems.append(f"room {room_id} is booked twice at {_iso(later)}: {first} and {second}")
        return problems

    # -- look-ups ------------------------------------------------------------------------------

    @cached_property
    def _my_id(self) -> str:
        # The user never changes within a world, so one look-up per world is enough.
        my_id = self.db.scalars(select(Contact.id).where(Contact.is_me)).first()
        if my_id is None:
            raise ToolError("This calendar has no user: no contact is marked is_me")
        return my_id

    def _me(self) -> Contact:
        return self.db.get(Contact, self._my_id)

    def _default_calendar(self) -> Calendar:
        return self.db.scalars(select(Calendar).where(Calendar.is_default).order_by(Calendar.id)).first()

    def _contacts(self, contact_ids: list[Id("contact")], what: str) -> list[Contact]:
        """The contacts named by a list of ids: each once, each known, never the user."""
        if len(set(contact_ids)) != len(contact_ids):
            raise ToolError(f"{what} names a contact more than once")
        contacts = [self.get(Contact, i) for i in contact_ids]
        for contact in contacts:
            if contact.is_me:
                raise ToolError(f"{contact.id} is you, the user; list only other people in {what}")
        return contacts

    # -- rules ---------------------------------------------------------------------------------

    def _own(self, event: Event, action: str) -> Event:
        """The event, if the user organizes it and it is not cancelled."""
        if event.organizer_id != self._my_id:
            raise ToolError(f"Only the organizer, {event.organizer.name}, can {action} {_label(event)}; "
                            "you can respond to the invitation or add a reminder")
        if event.status == "cancelled":
            raise ToolError(f"{_label(event)} is cancelled; cannot {action} it")
        return event

    def _not_past(self, start: dt.datetime) -> None:
        if start < self.now:
            raise ToolError(f"{_iso(start)} is in the past (it is now {_iso(self.now)}); "
                            "events can only be scheduled from now on")

    def _date_range(self, first: dt.date, last: dt.date, max_days: int) -> tuple[dt.date, dt.date]:
        if last < first:
            raise ToolError(f"end_date ({last}) is before start_date ({first})")
        if (last - first).days + 1 > max_days:
            raise ToolError(f"The range may span at most {max_days} days; {first} to {last} spans "
                            f"{(last - first).days + 1}")
        return first, last

    def _occurrences(self, since: dt.datetime, until: dt.datetime, *filters,
                     include_cancelled: bool = False) -> list[tuple[Event, dt.datetime]]:
        """(event, occurrence start) for every occurrence overlapping [since, until), ordered by start."""
        stmt = select(Event).where(Event.start < until, or_(Event.repeat_freq.is_not(None), Event.end > since),
                                   *filters)
        if not include_cancelled:
            stmt = stmt.where(Event.status != "cancelled")
        found = [(event, start) for event in self.db.scalars(stmt)
                 for start in event.occurrences(since, until, include_cancelled=include_cancelled)]
        return sorted(found, key=lambda pair: (pair[1], pair[0].id))

    def _next_occurrence(self, event: Event) -> dt.datetime | None:
        """The start of the first occurrence that has not ended yet (it may be under way)."""
        return next(event.occurrences(self.now, max(self.now, event.start) + HORIZON), None)

    def _busy_of(self, person: Contact, since: dt.datetime, until: dt.datetime) -> list[dict]:
        """When one person is busy within [since, until): events they attend, and private busy blocks."""
        return self._busy([person], since, until)[0]

    def _busy(self, people: Sequence[Contact], since: dt.datetime, until: dt.datetime) -> list[list[dict]]:
        """`_busy_of` for each of `people`, with one pass over the events and blocks for all of them
        (each event's occurrences worked out once, however many of them attend)."""
        ids = {person.id for person in people}
        invited: dict[str, set[str]] = {}  # event id -> who of `people` attends it as an invitee
        for event_id, contact_id in self.db.execute(select(Invitee.event_id, Invitee.contact_id).where(
                Invitee.contact_id.in_(ids), Invitee.response != "declined")):
            invited.setdefault(event_id, set()).add(contact_id)
        found = self._occurrences(since, until, or_(Event.organizer_id.in_(ids), Event.id.in_(invited)))
        blocks: dict[str, list[BusyBlock]] = {}
        for block in self.db.scalars(select(BusyBlock).where(
                BusyBlock.contact_id.in_(ids), BusyBlock.start < until, BusyBlock.end > since)):
            blocks.setdefault(block.contact_id, []).append(block)
        out = []
        for person in people:
            busy = [{"contact_id": person.id, "name": person.name, "start": start, "end": start + event.duration,
                     "event_id": event.id, "title": event.title}
                    for event, start in found
                    if event.organizer_id == person.id or person.id in invited.get(event.id, ())]
            busy += [{"contact_id": person.id, "name": person.name, "start": b.start, "end": b.end,
                      "event_id": None, "title": "Busy"} for b in blocks.get(person.id, ())]
            out.append(sorted(busy, key=lambda b: (b["start"], b["end"])))
        return out

    def _my_conflicts(self, event: Event) -> list[dict]:
        """The user's other events overlapping the event's next occurrence."""
        start = self._next_occurrence(event)
        if start is None:
            return []
        return [{"event_id": b["event_id"], "title": b["title"], "start": b["start"], "end": b["end"]}
                for b in self._busy_of(self._me(), start, start + event.duration) if b["event_id"] != event.id]

    def _check_room_free(self, event: Event, room: Room) -> None:
        """Raise unless `room` is free at every occurrence of `event` that has not ended."""
        since = max(self.now, event.start)
        mine = list(event.occurrences(since, since + HORIZON if event.recurring else event.end))
        if not mine:
            return
        others = self._occurrences(mine[0], mine[-1] + event.duration, Event.room_id == room.id, Event.id != event.id)
        for other, other_start in others:
            other_end = other_start + other.duration
            if any(start < other_end and other_start < start + event.duration for start in mine):
                raise ToolError(f"Room {room.name} ({room.id}) is booked from {_iso(other_start)} to "
                                f"{_iso(other_end)} for '{other.title}' ({other.id}); pick another room or time")

    # -- results -------------------------------------------------------------------------------

    def _my_response(self, event: Event) -> str | None:
        if event.organizer_id == self._my_id:
            return "organizer"
        return next((i.response for i in event.invitees if i.contact_id == self._my_id), None)

    def _occurrence_dict(self, event: Event, start: dt.datetime) -> dict:
        cancelled = event.status == "cancelled" or (
            event.recurring and start.date() in {c.occurrence_date for c in event.cancelled_occurrences})
        return {"event_id": event.id, "title": event.title, "start": start, "end": start + event.duration,
                "calendar_id": event.calendar_id, "location": event.location,
                "status": "cancelled" if cancelled else event.status, "recurring": event.recurring,
                "organizer": event.organizer.name, "my_response": self._my_response(event)}

    def _series_dict(self, event: Event) -> dict:
        return {"event_id": event.id, "title": event.title, "start": event.start, "end": event.end,
                "calendar_id": event.calendar_id, "location": event.location, "status": event.status,
                "recurrence": _rule_text(event) if event.recurring else None,
                "next_occurrence": self._next_occurrence(event) if event.recurring else None,
                "organizer": event.organizer.name, "my_response": self._my_response(event)}

    def _event_dict(self, event: Event) -> dict:
        recurrence = None
        if event.recurring:
            recurrence = {"frequency": event.repeat_freq, "interval": event.repeat_interval,
                          "weekdays": event.weekdays or None, "count": event.repeat_count,
                          "until": event.repeat_until, "summary": _rule_text(event),
                          "cancelled_dates": [c.occurrence_date for c in event.cancelled_occurrences]}
        room = event.room
        return {
            "event_id": event.id, "title": event.title, "calendar_id": event.calendar_id,
            "calendar": event.calendar.name, "start": event.start, "end": event.end, "status": event.status,
            "location": event.location, "description": event.description,
            "room": {"room_id": room.id, "name": room.name, "capacity": room.capacity} if room else None,
            "organizer": {"contact_id": event.organizer.id, "name": event.organizer.name,
                          "email": event.organizer.email},
            "my_response": self._my_response(event), "invitees": _invitee_dicts(event),
            "recurrence": recurrence, "next_occurrence": self._next_occurrence(event),
            "reminders": [{"reminder_id": r.id, "minutes_before": r.minutes_before, "method": r.method}
                          for r in event.reminders],
        }

    def _reminder_dict(self, reminder: Reminder) -> dict:
        event = reminder.event
        lead = dt.timedelta(minutes=reminder.minutes_before)
        horizon = max(self.now, event.start) + HORIZON
        upcoming = (s for s in event.occurrences(self.now, horizon) if s - lead >= self.now)
        start = next(upcoming, None) if event.status != "cancelled" else None
        return {"reminder_id": reminder.id, "event_id": event.id, "title": event.title,
                "minutes_before": reminder.minutes_before, "method": reminder.method,
                "next_trigger": start - lead if start else None, "for_occurrence": start}


# -- pure helpers ---------------------------------------------------------------------------------


def _weekday(day: dt.date) -> str:
    return WEEKDAYS[day.weekday()].capitalize()


def _iso(moment: dt.datetime) -> str:
    return moment.isoformat(timespec="minutes")


def _midnight(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time())


def _ceil_quarter(moment: dt.datetime) -> dt.datetime:
    floor = moment.replace(minute=moment.minute - moment.minute % 15, second=0, microsecond=0)
    return floor if floor == moment else floor + dt.timedelta(minutes=15)


def _required(text: str, what: str) -> str:
    if not text.strip():
        raise ToolError(f"{what} must not be empty")
    return text.strip()


def _optional(text: str | None) -> str | None:
    return text.strip() or None if text is not None else None


def _span(begin: dt.datetime, finish: dt.datetime,
          longest: dt.timedelta = MAX_EVENT_LENGTH) -> tuple[dt.datetime, dt.datetime]:
    _check_span(begin, finish, longest)
    return begin, finish


def _check_span(begin: dt.datetime, finish: dt.datetime, longest: dt.timedelta = MAX_EVENT_LENGTH) -> None:
    if finish <= begin:
        raise ToolError(f"The end ({_iso(finish)}) must be after the start ({_iso(begin)})")
    if finish - begin > longest:
        what = "An event lasts" if longest == MAX_EVENT_LENGTH else "The span may last"
        raise ToolError(f"{what} at most {longest.days * 24 + longest.seconds // 3600} hours; "
                        f"{_iso(begin)} to {_iso(finish)} is longer")


def _rule_problems(event: Event) -> list[str]:
    """How an event's times and recurrence fields break the rules set_recurrence keeps."""
    problems = []
    if event.end <= event.start or event.end - event.start > MAX_EVENT_LENGTH:
        problems.append(f"{event.id} runs from {_iso(event.start)} to {_iso(event.end)}")
    if event.repeat_freq is None:
        if event.repeat_count or event.repeat_until or event.repeat_weekdays or event.repeat_interval != 1:
            problems.append(f"{event.id} has recurrence details but no frequency")
        if event.cancelled_occurrences:
            problems.append(f"{event.id} does not repeat but has cancelled occurrences")
        return problems
    if not 1 <= event.repeat_interval <= 30:
        problems.append(f"{event.id} repeats every {event.repeat_interval} {event.repeat_freq} periods")
    if event.repeat_count is not None and (event.repeat_until is not None or not 1 <= event.repeat_count <= 500):
        problems.append(f"{event.id} has count {event.repeat_count} and until {event.repeat_until}")
    if event.repeat_until is not None and event.repeat_until < event.start.date():
        problems.append(f"{event.id} repeats until {event.repeat_until}, before its start {event.start.date()}")
    if event.repeat_weekdays and (event.repeat_freq != "weekly"
                                  or WEEKDAYS[event.start.weekday()] not in event.weekdays):
        problems.append(f"{event.id} repeats {event.repeat_freq} on {event.repeat_weekdays} from a "
                        f"{_weekday(event.start)}")
    for cancelled in event.cancelled_occurrences:
        day = cancelled.occurrence_date
        if next((s.date() for s in event.rule_starts() if s.date() >= day), None) != day:
            problems.append(f"{event.id} has a cancelled occurrence on {day}, a day it does not occur")
    return problems


def _drop_stale_cancellations(event: Event) -> None:
    """Forget the cancelled occurrences of a moved series or a replaced rule that no longer fall on
    a day it occurs: they would cancel nothing now, but an occurrence if it moved back."""
    if not event.cancelled_occurrences:
        return
    last = max(c.occurrence_date for c in event.cancelled_occurrences)
    days = set()
    for start in event.rule_starts():
        if start.date() > last:
            break
        days.add(start.date())
    for cancelled in [c for c in event.cancelled_occurrences if c.occurrence_date not in days]:
        event.cancelled_occurrences.remove(cancelled)


def _label(event: Event) -> str:
    return f"'{event.title}' ({event.id})"


def _headcount(event: Event) -> int:
    """The organizer plus every invitee who has not declined."""
    return 1 + sum(i.response != "declined" for i in event.invitees)


def _rule_text(event: Event) -> str:
    unit = {"daily": "day", "weekly": "week", "monthly": "month"}[event.repeat_freq]
    text = f"every {unit}" if event.repeat_interval == 1 else f"every {event.repeat_interval} {unit}s"
    if event.repeat_freq == "weekly":
        text += " on " + ", ".join(d.capitalize() for d in event.weekdays or [WEEKDAYS[event.start.weekday()]])
    elif event.repeat_freq == "monthly":
        text += f" on day {event.start.day}"
    if event.repeat_count is not None:
        text += f", {event.repeat_count} times"
    if event.repeat_until is not None:
        text += f", until {event.repeat_until}"
    return text


def _invitee_dicts(event: Event) -> list[dict]:
    # Read through the relationship: an invitee added in this call has no contact_id until flushed.
    people = sorted(((i.contact, i.response) for i in event.invitees), key=lambda pair: pair[0].id)
    return [{"contact_id": c.id, "name": c.name, "email": c.email, "response": response} for c, response in people]


def _calendar_dict(calendar: Calendar) -> dict:
    return {"calendar_id": calendar.id, "name": calendar.name, "description": calendar.description,
            "owner": calendar.owner.name, "is_default": calendar.is_default, "shared": calendar.shared,
            "read_only": calendar.read_only, "color": calendar.color}


def _contact_dict(contact: Contact) -> dict:
    return {"contact_id": contact.id, "name": contact.name, "email": contact.email, "company": contact.company,
            "department": contact.department, "job_title": contact.job_title, "is_me": contact.is_me}


def _room_dict(room: Room) -> dict:
    return {"room_id": room.id, "name": room.name, "building": room.building, "floor": room.floor,
            "capacity": room.capacity, "has_video": room.has_video}
