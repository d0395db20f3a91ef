"""The issue tracker's tables: people, projects and their members, issues with labels, comments,
history and links, and sprints."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "USR-0003"
    name: Mapped[str] = mapped_column(index=True)
    email: Mapped[str]
    title: Mapped[str]  # job title, such as 'Backend Engineer'


class Project(Base):
    __tablename__ = "projects"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PRJ-0002"
    key: Mapped[str] = mapped_column(unique=True)  # "APOLLO": the prefix of its issue keys
    name: Mapped[str]
    description: Mapped[str]
    lead_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    next_number: Mapped[int]  # the number the next issue's key takes
    created_at: Mapped[dt.datetime]


class Member(Base):
    __tablename__ = "members"

    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    role: Mapped[str]  # lead | developer | designer | qa
    joined_at: Mapped[dt.datetime]


class Sprint(Base):
    __tablename__ = "sprints"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "SPR-0004"
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"), index=True)
    name: Mapped[str]
    goal: Mapped[str | None]
    status: Mapped[str]  # planned | active | closed
    start_date: Mapped[dt.date]
    end_date: Mapped[dt.date]
    started_at: Mapped[dt.datetime | None]
    closed_at: Mapped[dt.datetime | None]
    committed_points: Mapped[int | None]  # story points in the sprint when it started
    completed_points: Mapped[int | None]  # story points of the done issues it holds, once closed
    scope_points: Mapped[int | None]  # story points it held when it closed, done or not


class Issue(Base):
    __tablename__ = "issues"
    __table_args__ = (Index("ix_issues_project_status", "project_id", "status"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ISS-0042"
    project_id: Mapped[str] = mapped_column(ForeignKey("projects.id"))
    key: Mapped[str] = mapped_column(unique=True)  # "APOLLO-12"
    title: Mapped[str]
    description: Mapped[str | None]
    type: Mapped[str]  # bug | story | task
    priority: Mapped[str]  # lowest | low | medium | high | highest
    status: Mapped[str]  # to_do | in_progress | in_review | done
    resolution: Mapped[str | None]  # done | won't do | duplicate, once closed
    story_points: Mapped[int | None]
    reporter_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    assignee_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), index=True)
    sprint_id: Mapped[str | None] = mapped_column(ForeignKey("sprints.id"), index=True)
    created_at: Mapped[dt.datetime]
    updated_at: Mapped[dt.datetime]
    resolved_at: Mapped[dt.datetime | None]


class Label(Base):
    __tablename__ = "labels"

    issue_id: Mapped[str] = mapped_column(ForeignKey("issues.id"), primary_key=True)
    name: Mapped[str] = mapped_column(primary_key=True, index=True)


class Comment(Base):
    __tablename__ = "comments"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CMT-0101"
    issue_id: Mapped[str] = mapped_column(ForeignKey("issues.id"), index=True)
    author_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    body: Mapped[str]
    created_at: Mapped[dt.datetime]


class Change(Base):
    """One entry of an issue's history: a field that changed, from what, to what."""

    __tablename__ = "history"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "HST-00042"
    issue_id: Mapped[str] = mapped_column(ForeignKey("issues.id"), index=True)
    field: Mapped[str]
    old_value: Mapped[str | None]
    new_value: Mapped[str | None]
    changed_at: Mapped[dt.datetime]


class Link(Base):
    """`source` blocks / duplicates / relates to `target`."""

    __tablename__ = "links"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "LNK-0007"
    source_id: Mapped[str] = mapped_column(ForeignKey("issues.id"), index=True)
    target_id: Mapped[str] = mapped_column(ForeignKey("issues.id"), index=True)
    kind: Mapped[str]  # blocks | duplicates | relates_to
    created_at: Mapped[dt.datetime]
