"""The workspace's tables.

A conversation is a `channels` row: a public or private channel, or a direct-message conversation
between two members (kind 'dm'). Messages are never removed: an edit keeps the earlier text as a
`revisions` row, and a deletion only marks the message deleted.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Member(Base):
    __tablename__ = "members"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "USR-0003"
    name: Mapped[str]  # full name, unique in the workspace
    display_name: Mapped[str]  # the @handle, unique: "ada.park"
    email: Mapped[str]
    title: Mapped[str]
    status: Mapped[str]  # active | deactivated
    joined_at: Mapped[dt.datetime]
    presence: Mapped[str] = mapped_column(default="active")  # active | away | do_not_disturb
    status_text: Mapped[str | None] = mapped_column(default=None)  # "In meetings until 3pm"


class Channel(Base):
    __tablename__ = "channels"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CHN-0007"
    kind: Mapped[str]  # public | private | dm
    name: Mapped[str | None]  # lowercase, no spaces; None for a direct-message conversation
    topic: Mapped[str | None]
    purpose: Mapped[str | None]
    created_by: Mapped[str] = mapped_column(ForeignKey("members.id"))
    created_at: Mapped[dt.datetime]
    archived_at: Mapped[dt.datetime | None]


class ChannelMember(Base):
    __tablename__ = "channel_members"

    channel_id: Mapped[str] = mapped_column(ForeignKey("channels.id"), primary_key=True)
    member_id: Mapped[str] = mapped_column(ForeignKey("members.id"), primary_key=True, index=True)
    joined_at: Mapped[dt.datetime]


class Message(Base):
    __tablename__ = "messages"
    __table_args__ = (Index("ix_messages_channel_posted", "channel_id", "posted_at"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "MSG-00042"
    channel_id: Mapped[str] = mapped_column(ForeignKey("channels.id"))
    author_id: Mapped[str] = mapped_column(ForeignKey("members.id"), index=True)
    thread_parent_id: Mapped[str | None] = mapped_column(ForeignKey("messages.id"), index=True)
    text: Mapped[str]
    posted_at: Mapped[dt.datetime]
    edited_at: Mapped[dt.datetime | None]
    deleted_at: Mapped[dt.datetime | None]
    pinned_by: Mapped[str | None] = mapped_column(ForeignKey("members.id"))
    pinned_at: Mapped[dt.datetime | None]


class Revision(Base):
    """An earlier text of an edited message, kept when the edit replaced it."""

    __tablename__ = "revisions"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "REV-0004"
    message_id: Mapped[str] = mapped_column(ForeignKey("messages.id"), index=True)
    text: Mapped[str]
    written_at: Mapped[dt.datetime]  # when this text was posted or last edited
    replaced_at: Mapped[dt.datetime]


class Reaction(Base):
    __tablename__ = "reactions"

    message_id: Mapped[str] = mapped_column(ForeignKey("messages.id"), primary_key=True)
    member_id: Mapped[str] = mapped_column(ForeignKey("members.id"), primary_key=True)
    emoji: Mapped[str] = mapped_column(String, primary_key=True)  # "thumbsup", without colons
    added_at: Mapped[dt.datetime]


class Mention(Base):
    """A member @-mentioned in a message's current text."""

    __tablename__ = "mentions"

    message_id: Mapped[str] = mapped_column(ForeignKey("messages.id"), primary_key=True)
    member_id: Mapped[str] = mapped_column(ForeignKey("members.id"), primary_key=True, index=True)
