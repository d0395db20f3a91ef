"""The mail service's tables.

A message row is one mailbox's copy of a mail: the sender's copy sits in their 'sent' box, each
recipient with a mailbox here gets an 'inbox' copy. Threads belong to one mailbox; copies of the
same conversation in different mailboxes share a `conversation` key. Sent mail is never edited:
only its flags (read, starred, archived, trashed) and labels change.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "USR-0003"
    name: Mapped[str]
    address: Mapped[str] = mapped_column(index=True)

    labels: Mapped[list[Label]] = relationship(order_by="(Label.name, Label.id)", viewonly=True)
    drafts: Mapped[list[Draft]] = relationship(order_by="(Draft.updated_at.desc(), Draft.id.desc())", viewonly=True)


class Contact(Base):
    __tablename__ = "contacts"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CON-0012"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str]
    address: Mapped[str]
    phone: Mapped[str | None]
    company: Mapped[str | None]


class Label(Base):
    __tablename__ = "labels"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "LBL-0004"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str]
    color: Mapped[str]


class Thread(Base):
    __tablename__ = "threads"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "THR-0040"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    subject: Mapped[str]
    conversation: Mapped[str] = mapped_column(index=True)


class Message(Base):
    __tablename__ = "messages"
    __table_args__ = (Index("ix_messages_user_box", "user_id", "box"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "MSG-0107"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    thread_id: Mapped[str] = mapped_column(ForeignKey("threads.id"), index=True)
    box: Mapped[str]  # inbox | sent
    sender_name: Mapped[str]
    sender: Mapped[str]
    to: Mapped[str]  # comma-separated addresses
    cc: Mapped[str]
    subject: Mapped[str]
    body: Mapped[str]
    sent_at: Mapped[dt.datetime]
    read: Mapped[bool]
    starred: Mapped[bool]
    archived: Mapped[bool]
    trashed: Mapped[bool]


class MessageLabel(Base):
    __tablename__ = "message_labels"

    message_id: Mapped[str] = mapped_column(ForeignKey("messages.id"), primary_key=True)
    label_id: Mapped[str] = mapped_column(ForeignKey("labels.id"), primary_key=True, index=True)


class Draft(Base):
    __tablename__ = "drafts"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "DRF-0005"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    thread_id: Mapped[str | None] = mapped_column(ForeignKey("threads.id"))
    reply_to: Mapped[str | None]  # the message id a reply answers
    to: Mapped[str]
    cc: Mapped[str]
    subject: Mapped[str]
    body: Mapped[str]
    quote: Mapped[str]  # the quoted original a reply or forward carries below the body
    updated_at: Mapped[dt.datetime]

    files: Mapped[list[Attachment]] = relationship(order_by="Attachment.id", viewonly=True)


class Attachment(Base):
    __tablename__ = "attachments"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ATT-0009"
    message_id: Mapped[str | None] = mapped_column(ForeignKey("messages.id"), index=True)
    draft_id: Mapped[str | None] = mapped_column(ForeignKey("drafts.id"), index=True)
    filename: Mapped[str]
    size_kb: Mapped[int]
    mime_type: Mapped[str]
