"""The video meeting service's tables: users, meetings and their invitees, the participants of a
meeting's live session, and cloud recordings with their shares."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "USR-0003"
    name: Mapped[str]
    email: Mapped[str] = mapped_column(index=True)
    department: Mapped[str]


class Meeting(Base):
    __tablename__ = "meetings"
    __table_args__ = (Index("ix_meetings_host_start", "host_id", "start_at"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "MTG-0007"
    number: Mapped[str] = mapped_column(index=True)  # what people dial: "843 2210 9876"
    title: Mapped[str]
    host_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    start_at: Mapped[dt.datetime]
    duration_minutes: Mapped[int]
    passcode: Mapped[str | None]  # None: the one the service generated (see tools._passcode)
    waiting_room: Mapped[bool]
    status: Mapped[str] = mapped_column(index=True)  # scheduled | live | ended | cancelled
    started_at: Mapped[dt.datetime | None]
    ended_at: Mapped[dt.datetime | None]


class Invitee(Base):
    __tablename__ = "invitees"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "INV-0012"
    meeting_id: Mapped[str] = mapped_column(ForeignKey("meetings.id"), index=True)
    email: Mapped[str]
    invited_at: Mapped[dt.datetime]


class Participant(Base):
    __tablename__ = "participants"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PRT-0031"
    meeting_id: Mapped[str] = mapped_column(ForeignKey("meetings.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    role: Mapped[str]  # host | co_host | attendee
    state: Mapped[str]  # waiting | in_meeting | left | removed
    muted: Mapped[bool]
    joined_at: Mapped[dt.datetime]


class Recording(Base):
    __tablename__ = "recordings"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "REC-0004"
    meeting_id: Mapped[str] = mapped_column(ForeignKey("meetings.id"), index=True)
    started_by: Mapped[str] = mapped_column(ForeignKey("users.id"))
    status: Mapped[str]  # recording | completed
    started_at: Mapped[dt.datetime]
    ended_at: Mapped[dt.datetime | None]
    transcript: Mapped[str | None]  # speaker lines, one per line: "Ada Park: ..."


class Share(Base):
    __tablename__ = "shares"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "SHR-0002"
    recording_id: Mapped[str] = mapped_column(ForeignKey("recordings.id"), index=True)
    email: Mapped[str]
    shared_at: Mapped[dt.datetime]
