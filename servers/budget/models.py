"""The budgeting app's tables. Money is a float rounded to cents, in USD.

Every user keeps their own spending categories, each with a monthly limit. A category's figures
for one calendar month live in one `budget_months` row: what is budgeted (the limit at the time,
plus budget moved in, minus budget moved out) and the running total spent and count of expenses,
kept up to date by every write, so that a month's totals always equal the sum of its expense rows.
"""

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
    email: Mapped[str]
    currency: Mapped[str] = mapped_column(default="USD")
    joined_at: Mapped[dt.datetime]


class Category(Base):
    __tablename__ = "categories"
    __table_args__ = (Index("ix_categories_user", "user_id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CAT-0012"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str]
    monthly_limit: Mapped[float]  # the budget each new month starts with
    status: Mapped[str]  # active | archived
    created_at: Mapped[dt.datetime]


class BudgetMonth(Base):
    """One category's figures for one calendar month ('2026-05')."""

    __tablename__ = "budget_months"

    category_id: Mapped[str] = mapped_column(ForeignKey("categories.id"), primary_key=True)
    month: Mapped[str] = mapped_column(String, primary_key=True)  # "2026-05"
    base: Mapped[float]  # the category's monthly limit for this month
    budgeted: Mapped[float]  # base + moved in - moved out
    spent: Mapped[float]  # the sum of the month's expenses in the category
    expense_count: Mapped[int]


class Expense(Base):
    __tablename__ = "expenses"
    __table_args__ = (Index("ix_expenses_user_date", "user_id", "spent_on"),
                      Index("ix_expenses_category_date", "category_id", "spent_on"))

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "EXP-00042"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    category_id: Mapped[str] = mapped_column(ForeignKey("categories.id"))
    amount: Mapped[float]  # greater than 0
    merchant: Mapped[str]
    spent_on: Mapped[dt.date]
    payment_method: Mapped[str]  # credit_card | debit_card | cash | bank_transfer
    note: Mapped[str | None]
    recurring_id: Mapped[str | None] = mapped_column(ForeignKey("recurring_expenses.id"), default=None)
    split_from: Mapped[str | None] = mapped_column(default=None)  # the expense a split part came out of
    created_at: Mapped[dt.datetime]


class Income(Base):
    __tablename__ = "income"
    __table_args__ = (Index("ix_income_user_date", "user_id", "received_on"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "INC-0031"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    amount: Mapped[float]
    source: Mapped[str]
    received_on: Mapped[dt.date]
    note: Mapped[str | None]
    created_at: Mapped[dt.datetime]


class RecurringExpense(Base):
    """A bill that repeats: it posts an expense on each due date, up to today, when posted."""

    __tablename__ = "recurring_expenses"
    __table_args__ = (Index("ix_recurring_user", "user_id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "REC-0008"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    category_id: Mapped[str] = mapped_column(ForeignKey("categories.id"))
    merchant: Mapped[str]
    amount: Mapped[float]
    frequency: Mapped[str]  # weekly | monthly
    anchor_day: Mapped[int]  # monthly: the day of the month it falls on (the month's last day when shorter)
    next_date: Mapped[dt.date]  # the next occurrence not posted yet
    payment_method: Mapped[str]
    status: Mapped[str]  # active | cancelled
    created_at: Mapped[dt.datetime]


class BudgetMove(Base):
    """Budget moved from one category to another for one month."""

    __tablename__ = "budget_moves"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "MOV-0004"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    month: Mapped[str]
    from_category_id: Mapped[str] = mapped_column(ForeignKey("categories.id"))
    to_category_id: Mapped[str] = mapped_column(ForeignKey("categories.id"))
    amount: Mapped[float]
    note: Mapped[str | None]
    created_at: Mapped[dt.datetime]
