"""The bank's tables. Money is a float rounded to cents, in USD.

Every movement of money is a row of `transactions` (the ledger), so an account's balance is
always the sum of its ledger entries. Credit accounts carry a negative balance: the amount owed.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Customer(Base):
    __tablename__ = "customers"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CUS-0003"
    first_name: Mapped[str]
    last_name: Mapped[str]
    email: Mapped[str]
    phone: Mapped[str]
    date_of_birth: Mapped[dt.date]
    street: Mapped[str]
    city: Mapped[str]
    state: Mapped[str]
    zip_code: Mapped[str]
    pin: Mapped[str]  # 4 digits; never returned by a visible tool
    member_since: Mapped[dt.datetime]

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Account(Base):
    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ACC-0007"
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"))
    kind: Mapped[str]  # checking | savings | credit
    nickname: Mapped[str | None]
    account_number: Mapped[str]
    currency: Mapped[str] = mapped_column(default="USD")
    balance: Mapped[float]  # credit accounts: negative = owed
    credit_limit: Mapped[float | None]  # credit accounts only
    interest_rate: Mapped[float]  # annual percentage
    status: Mapped[str]  # open | frozen | closed
    status_reason: Mapped[str | None]
    opened_at: Mapped[dt.datetime]
    closed_at: Mapped[dt.datetime | None]

    def post(self, txn_id: str, when: dt.datetime, kind: str, category: str, description: str, amount: float,
             **refs: str | None) -> Transaction:
        """Apply a signed amount to the balance and return its ledger entry (for the caller to add)."""
        amount = round(amount, 2)
        self.balance = round(self.balance + amount, 2)
        return Transaction(id=txn_id, account_id=self.id, posted_at=when, kind=kind, category=category,
                           description=description, amount=amount, balance_after=self.balance, **refs)


class Transaction(Base):
    """One ledger entry: a signed amount posted to one account."""

    __tablename__ = "transactions"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "TXN-00042"
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    posted_at: Mapped[dt.datetime]
    kind: Mapped[str]  # see TRANSACTION_KINDS in tools.py
    category: Mapped[str]
    description: Mapped[str]
    amount: Mapped[float]  # positive = money in, negative = money out
    balance_after: Mapped[float]
    memo: Mapped[str | None] = mapped_column(default=None)
    card_id: Mapped[str | None] = mapped_column(ForeignKey("cards.id"), default=None)
    transfer_id: Mapped[str | None] = mapped_column(ForeignKey("transfers.id"), default=None)
    payment_id: Mapped[str | None] = mapped_column(ForeignKey("payments.id"), default=None)


class Transfer(Base):
    """Money moved between two accounts of the bank (two ledger entries)."""

    __tablename__ = "transfers"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "TRF-0012"
    from_account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    to_account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    amount: Mapped[float]
    memo: Mapped[str | None]
    created_at: Mapped[dt.datetime]


class Payee(Base):
    """A saved beneficiary outside the bank that a customer pays bills or people to."""

    __tablename__ = "payees"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PAY-0005"
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"))
    name: Mapped[str]
    nickname: Mapped[str | None]
    category: Mapped[str]
    bank_name: Mapped[str]
    account_number: Mapped[str]
    routing_number: Mapped[str]
    added_at: Mapped[dt.datetime]
    removed_at: Mapped[dt.datetime | None]


class Payment(Base):
    """A payment to a payee: made now (completed) or scheduled for a later date."""

    __tablename__ = "payments"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PMT-0031"
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    payee_id: Mapped[str] = mapped_column(ForeignKey("payees.id"))
    amount: Mapped[float]
    memo: Mapped[str | None]
    frequency: Mapped[str]  # once | weekly | monthly
    scheduled_for: Mapped[dt.date]
    status: Mapped[str]  # scheduled | completed | cancelled
    created_at: Mapped[dt.datetime]
    executed_at: Mapped[dt.datetime | None]
    cancelled_at: Mapped[dt.datetime | None]


class Card(Base):
    __tablename__ = "cards"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CRD-0009"
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    kind: Mapped[str]  # debit | credit
    network: Mapped[str]
    last4: Mapped[str]
    expires: Mapped[dt.date]  # the first day of the expiry month
    status: Mapped[str]  # active | frozen | cancelled
    daily_limit: Mapped[float]
    issued_at: Mapped[dt.datetime]


class ExchangeRate(Base):
    """How many units of a currency one US dollar buys."""

    __tablename__ = "exchange_rates"

    currency: Mapped[str] = mapped_column(String, primary_key=True)  # "EUR"
    name: Mapped[str]
    per_usd: Mapped[float]
