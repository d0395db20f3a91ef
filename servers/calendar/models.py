"""The calendar world: contacts, calendars, rooms, events with their invitees, recurrence and reminders.

Times are the user's local wall-clock time, stored without a time zone. A recurring event is one
row whose `start`/`end` are its first occurrence and whose `repeat_*` columns hold the rule; its
occurrences are expanded on read (`Event.occurrences`), and a cancelled occurrence is a row of
`cancelled_occurrences` keyed by the occurrence's date.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
EVENT_STATUSES = ("confirmed", "tentative", "cancelled")
RESPONSES = ("needs-action", "accepted", "declined", "tentative")
FREQUENCIES = ("daily", "weekly", "monthly")


class Base(DeclarativeBase):
    pass


class Contact(Base):
    """A colleague or outside contact; the calendar's user is the one contact with `is_me`."""

    __tablename__ = "contacts"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CON-0007"
    name: Mapped[str]
    email: Mapped[str] = mapped_column(unique=True)
    company: Mapped[str | None]
    department: Mapped[str | None]
    job_title: Mapped[str | None]
    is_me: Mapped[bool] = mapped_column(default=False)

    # The contact's invitations, one per event they are invited to.
    invitations: Mapped[list[Invitee]] = relationship(viewonly=True)


class Calendar(Base):
    __tablename__ = "calendars"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CAL-0001"
    name: Mapped[str]
    description: Mapped[str]
    owner_id: Mapped[str] = mapped_column(ForeignKey("contacts.id"))
    is_default: Mapped[bool] = mapped_column(default=False)  # where new events go unless told
    shared: Mapped[bool] = mapped_column(default=False)
    read_only: Mapped[bool] = mapped_column(default=False)  # the user cannot add events to it
    color: Mapped[str]

    owner: Mapped[Contact] = relationship()


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ROOM-0003"
    name: Mapped[str]
    building: Mapped[str]
    floor: Mapped[int]
    capacity: Mapped[int]
    has_video: Mapped[bool]


class Event(Base):
    __tablename__ = "events"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "EVT-0042"
    calendar_id: Mapped[str] = mapped_column(ForeignKey("calendars.id"))
    title: Mapped[str]
    description: Mapped[str | None]
    location: Mapped[str | None]
    room_id: Mapped[str | None] = mapped_column(ForeignKey("rooms.id"))
    start: Mapped[dt.datetime]
    end: Mapped[dt.datetime]
    organizer_id: Mapped[str] = mapped_column(ForeignKey("contacts.id"))
    status: Mapped[str] = mapped_column(default="confirmed")  # one of EVENT_STATUSES
    # The recurrence rule; a one-off event has repeat_freq None.
    repeat_freq: Mapped[str | None]  # one of FREQUENCIES
    repeat_interval: Mapped[int] = mapped_column(default=1)
    repeat_weekdays: Mapped[str | None]  # weekly only: "monday,thursday"
    repeat_count: Mapped[int | None]  # number of occurrences, or
    repeat_until: Mapped[dt.date | None]  # last date an occurrence may start on

    calendar: Mapped[Calendar] = relationship()
    organizer: Mapped[Contact] = relationship()
    room: Mapped[Room | None] = relationship()
    invitees: Mapped[list[Invitee]] = relationship(
        back_populates="event", cascade="all, delete-orphan", order_by="Invitee.contact_id")
    reminders: Mapped[list[Reminder]] = relationship(
        back_populates="event", cascade="all, delete-orphan", order_by="Reminder.id")
    cancelled_occurrences: Mapped[list[CancelledOccurrence]] = relationship(
        cascade="all, delete-orphan", order_by="CancelledOccurrence.occurrence_date")

    @property
    def duration(self) -> dt.timedelta:
        return self.end - self.start

    @property
    def recurring(self) -> bool:
        return self.repeat_freq is not None

    @property
    def weekdays(self) -> list[str]:
        return self.repeat_weekdays.split(",") if self.repeat_weekdays else []

    def rule_starts(self, after: dt.datetime | None = None) -> Iterator[dt.datetime]:
        """The start of every occurrence the rule generates, in order, cancelled ones included.

        Unbounded for a rule without count or until: callers stop at the end of their range.
        `after`: the starts at or before it may be left out (a long series is not walked from
        its first occurrence to reach a range far from it).
        """
        if self.repeat_freq is None:
            yield self.start
            return
        count, until = self.repeat_count, self.repeat_until
        for produced, start in self._candidates(after):
            if count is not None and produced >= count:
                return
            if until is not None and start.date() > until:
                return
            yield start

    def occurrences(self, since: dt.datetime, until: dt.datetime, *,
                    include_cancelled: bool = False) -> Iterator[dt.datetime]:
        """The starts of the occurrences overlapping [since, until), in order."""
        duration = self.duration
        skipped = set()
        if self.recurring and not include_cancelled:
            skipped = {c.occurrence_date for c in self.cancelled_occurrences}
        for start in self.rule_starts(after=since - duration):
            if start >= until:
                return
            if start + duration > since and start.date() not in skipped:
                yield start

    def _candidates(self, after: dt.datetime | None) -> Iterator[tuple[int, dt.datetime]]:
        """(how many candidates came before, candidate) from the first candidate, or from the last
        whole day (daily) or week (weekly) of candidates at or before `after`."""
        step, first = self.repeat_interval, self.start
        if self.repeat_freq == "daily":
            every = dt.timedelta(days=step)
            k = max(0, (after - first) // every) if after is not None else 0
            while True:
                yield k, first + k * every
                k += 1
        elif self.repeat_freq == "weekly":
            days = sorted(WEEKDAYS.index(d) for d in self.weekdays) or [first.weekday()]
            monday = first - dt.timedelta(days=first.weekday())
            every = dt.timedelta(weeks=step)
            in_first_week = sum(monday + dt.timedelta(days=day) >= first for day in days)
            # a week whose last candidate is at or before `after` is passed over whole
            week = max(0, (after - monday - dt.timedelta(days=days[-1])) // every) if after is not None else 0
            produced = 0 if week == 0 else in_first_week + (week - 1) * len(days)
            while True:
                for day in days:
                    candidate = monday + week * every + dt.timedelta(days=day)
                    if candidate >= first:
                        yield produced, candidate
                        produced += 1
                week += 1
        elif self.repeat_freq == "monthly":
            k = produced = 0
            while True:
                index = first.month - 1 + k * step
                try:
                    candidate = first.replace(year=first.year + index // 12, month=index % 12 + 1)
                except ValueError:
                    pass  # like RFC 5545: a month without that day (the 31st) has no occurrence
                else:
                    yield produced, candidate
                    produced += 1
                k += 1
        else:  # pragma: no cover - guarded by set_recurrence
            raise ValueError(f"unknown recurrence frequency {self.repeat_freq!r}")


class Invitee(Base):
    __tablename__ = "invitees"
    __table_args__ = (Index("ix_invitees_contact", "contact_id", "response", "event_id"),)  # a person's invitations

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), primary_key=True)
    contact_id: Mapped[str] = mapped_column(ForeignKey("contacts.id"), primary_key=True)
    response: Mapped[str] = mapped_column(default="needs-action")  # one of RESPONSES

    event: Mapped[Event] = relationship(back_populates="invitees")
    contact: Mapped[Contact] = relationship()


class CancelledOccurrence(Base):
    """One occurrence of a recurring event that was cancelled (an exception to its rule)."""

    __tablename__ = "cancelled_occurrences"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), primary_key=True)
    occurrence_date: Mapped[dt.date] = mapped_column(primary_key=True)


class Reminder(Base):
    """The user's reminder for an event (for every occurrence of a recurring one)."""

    __tablename__ = "reminders"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "REM-0012"
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"))
    minutes_before: Mapped[int]
    method: Mapped[str]  # "popup" or "email"

    event: Mapped[Event] = relationship(back_populates="reminders")


class BusyBlock(Base):
    """Time a colleague is busy on their own calendar: the user sees when, never what."""

    __tablename__ = "busy_blocks"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "BSY-0101"
    contact_id: Mapped[str] = mapped_column(ForeignKey("contacts.id"))
    start: Mapped[dt.datetime]
    end: Mapped[dt.datetime]
