"""The CRM's tables. Amounts are USD floats rounded to cents.

Companies have an account owner (a sales rep); contacts belong to companies; leads are people not
yet qualified as customers, owned by a rep, that move new -> contacted -> qualified -> converted
(or disqualified). Converting a lead links or creates a company and a contact and opens a deal.
Deals move through the pipeline's stages; every stage change is a row of `stage_changes`.
Activities (calls, meetings, notes and tasks) hang off a contact, a deal or both. A rep who left the
team keeps their records until they are reassigned; every change of a lead's or a deal's owner is a
row of `owner_changes`.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Rep(Base):
    """A sales rep: owns companies, leads, deals and activities."""

    __tablename__ = "reps"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "REP-0003"
    name: Mapped[str]
    email: Mapped[str]
    region: Mapped[str]
    deactivated_at: Mapped[dt.datetime | None] = mapped_column(default=None)  # when they left the team


class Company(Base):
    __tablename__ = "companies"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CMP-0012"
    name: Mapped[str] = mapped_column(index=True)
    industry: Mapped[str]
    city: Mapped[str]
    website: Mapped[str]
    employees: Mapped[int]
    owner_id: Mapped[str] = mapped_column(ForeignKey("reps.id"), index=True)
    created_at: Mapped[dt.datetime]


class Contact(Base):
    __tablename__ = "contacts"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CON-0031"
    company_id: Mapped[str] = mapped_column(ForeignKey("companies.id"), index=True)
    first_name: Mapped[str]
    last_name: Mapped[str]
    email: Mapped[str] = mapped_column(index=True)
    phone: Mapped[str | None]
    title: Mapped[str | None]
    created_at: Mapped[dt.datetime]

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Lead(Base):
    __tablename__ = "leads"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "LEA-0044"
    owner_id: Mapped[str] = mapped_column(ForeignKey("reps.id"), index=True)
    first_name: Mapped[str]
    last_name: Mapped[str]
    email: Mapped[str] = mapped_column(index=True)
    company_name: Mapped[str]
    title: Mapped[str | None]
    source: Mapped[str | None]  # web | referral | event | cold_call | partner; None when not told
    status: Mapped[str] = mapped_column(index=True)  # new | contacted | qualified | converted | disqualified
    disqualified_reason: Mapped[str | None]
    created_at: Mapped[dt.datetime]
    status_changed_at: Mapped[dt.datetime]
    converted_company_id: Mapped[str | None] = mapped_column(ForeignKey("companies.id"))
    converted_contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"))
    converted_deal_id: Mapped[str | None] = mapped_column(ForeignKey("deals.id"))

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Deal(Base):
    __tablename__ = "deals"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "DEA-0008"
    name: Mapped[str]
    company_id: Mapped[str] = mapped_column(ForeignKey("companies.id"), index=True)
    contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"), index=True)
    owner_id: Mapped[str] = mapped_column(ForeignKey("reps.id"), index=True)
    stage: Mapped[str] = mapped_column(index=True)  # see STAGES in tools.py
    amount: Mapped[float]
    probability: Mapped[int]  # percent, 0 to 100
    close_date: Mapped[dt.date] = mapped_column(index=True)
    lost_reason: Mapped[str | None]
    created_at: Mapped[dt.datetime]
    closed_at: Mapped[dt.datetime | None]


class StageChange(Base):
    """One move of a deal from a stage to another (from_stage is None when the deal opened)."""

    __tablename__ = "stage_changes"
    __table_args__ = (Index("ix_stage_changes_deal", "deal_id", "changed_at"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "STC-00012"
    deal_id: Mapped[str] = mapped_column(ForeignKey("deals.id"))
    from_stage: Mapped[str | None]
    to_stage: Mapped[str]
    changed_at: Mapped[dt.datetime]
    rep_id: Mapped[str] = mapped_column(ForeignKey("reps.id"))


class OwnerChange(Base):
    """A lead or a deal (exactly one of them) handed from one rep to another."""

    __tablename__ = "owner_changes"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "OWC-0003"
    lead_id: Mapped[str | None] = mapped_column(ForeignKey("leads.id"), index=True)
    deal_id: Mapped[str | None] = mapped_column(ForeignKey("deals.id"), index=True)
    from_rep_id: Mapped[str] = mapped_column(ForeignKey("reps.id"))
    to_rep_id: Mapped[str] = mapped_column(ForeignKey("reps.id"))
    changed_at: Mapped[dt.datetime]


class Activity(Base):
    """A call, meeting or note that happened, or a task to do by a due date."""

    __tablename__ = "activities"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ACT-0101"
    kind: Mapped[str]  # call | meeting | note | task
    subject: Mapped[str]
    notes: Mapped[str | None]
    rep_id: Mapped[str] = mapped_column(ForeignKey("reps.id"), index=True)
    contact_id: Mapped[str | None] = mapped_column(ForeignKey("contacts.id"), index=True)
    deal_id: Mapped[str | None] = mapped_column(ForeignKey("deals.id"), index=True)
    occurred_at: Mapped[dt.datetime]  # when logged or created
    due_date: Mapped[dt.date | None]  # tasks only
    completed_at: Mapped[dt.datetime | None]  # tasks only
