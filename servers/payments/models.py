"""The payments platform's tables: its merchants, and each merchant's customers, cards, invoices,
payments, refunds, webhook endpoints, event log and webhook deliveries. Amounts are floats rounded
to cents, in the invoice's currency.

Every customer, invoice, payment, webhook endpoint and event belongs to one merchant, and refers
only to things of the same merchant. An invoice's total is the sum of its line items; its
`amount_paid` is the sum of what its payments captured. A payment's `amount_refunded` is the sum of
its refunds and never exceeds what it captured. Events are append-only: every change of state
writes one, and one delivery record per webhook endpoint of its merchant subscribed to its type.
A failed delivery is retried on a back-off schedule: each attempt is a record of its own.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Merchant(Base):
    """A business that takes payments on the platform; its invoices are numbered with its prefix."""

    __tablename__ = "merchants"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "MER-0001"
    name: Mapped[str]  # "Northwind Studio"
    invoice_prefix: Mapped[str]  # "NW": invoices NW-1001, NW-1002, ...
    email: Mapped[str]  # where its customers write
    country: Mapped[str]
    currency: Mapped[str]  # its own currency, a new customer's default
    currencies: Mapped[str]  # the currencies it bills in, comma-separated
    created_at: Mapped[dt.datetime]


class Customer(Base):
    __tablename__ = "customers"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CUS-0003"
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    name: Mapped[str]
    email: Mapped[str] = mapped_column(index=True)
    phone: Mapped[str | None]
    currency: Mapped[str]  # the currency the customer is billed in: USD | EUR | GBP | CAD
    default_card_id: Mapped[str | None]
    created_at: Mapped[dt.datetime]


class Card(Base):
    """A saved card of a customer (a payment method)."""

    __tablename__ = "cards"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CRD-0009"
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    brand: Mapped[str]  # visa | mastercard | amex | discover
    last4: Mapped[str]
    exp_month: Mapped[int]
    exp_year: Mapped[int]
    decline_code: Mapped[str | None]  # the issuer declines every charge with this code; never shown
    added_at: Mapped[dt.datetime]


class Invoice(Base):
    __tablename__ = "invoices"
    __table_args__ = (Index("ix_invoices_created", "created_at", "id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "INV-0042"
    number: Mapped[str] = mapped_column(index=True)  # "NW-1042", what people call it
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    status: Mapped[str]  # draft | open | paid | void
    currency: Mapped[str]
    description: Mapped[str]
    due_date: Mapped[dt.date]
    total: Mapped[float]  # the sum of the line items
    amount_paid: Mapped[float]  # the sum captured by its payments
    created_at: Mapped[dt.datetime]
    finalized_at: Mapped[dt.datetime | None]
    paid_at: Mapped[dt.datetime | None]
    voided_at: Mapped[dt.datetime | None]


class LineItem(Base):
    __tablename__ = "line_items"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "LIN-0101"
    invoice_id: Mapped[str] = mapped_column(ForeignKey("invoices.id"), index=True)
    description: Mapped[str]
    quantity: Mapped[int]
    unit_amount: Mapped[float]
    amount: Mapped[float]


class Payment(Base):
    """A card payment against an invoice: authorised (held), then captured, or cancelled."""

    __tablename__ = "payments"
    __table_args__ = (Index("ix_payments_authorized", "authorized_at", "id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PAY-0031"
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    invoice_id: Mapped[str] = mapped_column(ForeignKey("invoices.id"), index=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    card_id: Mapped[str] = mapped_column(ForeignKey("cards.id"))
    currency: Mapped[str]
    amount: Mapped[float]  # authorised
    amount_captured: Mapped[float]
    amount_refunded: Mapped[float]
    status: Mapped[str]  # authorized | captured | partially_refunded | refunded | canceled
    authorized_at: Mapped[dt.datetime]
    captured_at: Mapped[dt.datetime | None]
    canceled_at: Mapped[dt.datetime | None]
    # Idempotency: the key the creating request (authorise or pay) carried, that request and its
    # result; likewise for the capture. A repeat with the same key returns the stored result.
    idempotency_key: Mapped[str | None] = mapped_column(default=None, index=True)
    idempotency_request: Mapped[str | None] = mapped_column(default=None)
    idempotency_response: Mapped[str | None] = mapped_column(default=None)
    capture_key: Mapped[str | None] = mapped_column(default=None, index=True)
    capture_request: Mapped[str | None] = mapped_column(default=None)
    capture_response: Mapped[str | None] = mapped_column(default=None)


class Refund(Base):
    __tablename__ = "refunds"
    __table_args__ = (Index("ix_refunds_created", "created_at", "id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "REF-0005"
    payment_id: Mapped[str] = mapped_column(ForeignKey("payments.id"), index=True)
    amount: Mapped[float]
    currency: Mapped[str]
    reason: Mapped[str]  # requested_by_customer | duplicate | fraudulent
    created_at: Mapped[dt.datetime]
    idempotency_key: Mapped[str | None] = mapped_column(default=None, index=True)
    idempotency_request: Mapped[str | None] = mapped_column(default=None)
    idempotency_response: Mapped[str | None] = mapped_column(default=None)


class WebhookEndpoint(Base):
    __tablename__ = "webhook_endpoints"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "WHE-0002"
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    url: Mapped[str]
    description: Mapped[str | None]
    events: Mapped[str]  # subscribed event types, comma-separated; "*" for every type
    enabled: Mapped[bool]
    created_at: Mapped[dt.datetime]


class Event(Base):
    """One change of state, appended to the log and never altered."""

    __tablename__ = "events"
    __table_args__ = (Index("ix_events_created", "created_at", "id"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "EVT-00042"
    merchant_id: Mapped[str] = mapped_column(ForeignKey("merchants.id"), index=True)
    type: Mapped[str] = mapped_column(index=True)  # such as "invoice.paid"
    summary: Mapped[str]
    customer_id: Mapped[str | None] = mapped_column(index=True)
    invoice_id: Mapped[str | None] = mapped_column(index=True)
    payment_id: Mapped[str | None] = mapped_column(index=True)
    object_id: Mapped[str]  # the id of the object the event is about
    amount: Mapped[float | None]
    created_at: Mapped[dt.datetime]


class Delivery(Base):
    """One attempt to send an event to a webhook endpoint; a retry is a new record. A failed attempt
    is retried automatically on the back-off schedule (`next_retry_at`, while the clock has not
    reached it) for about three days, unless the endpoint answered 410 Gone or was disabled; a
    person may also resend it by hand (`manual`)."""

    __tablename__ = "deliveries"
    # the failed deliveries of each endpoint, and their scheduled retries, are counted from the index
    # alone (list_webhook_endpoints)
    __table_args__ = (Index("ix_deliveries_created", "created_at", "id"),
                      Index("ix_deliveries_status", "status", "endpoint_id", "next_retry_at"))

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "DLV-00042"
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), index=True)
    endpoint_id: Mapped[str] = mapped_column(ForeignKey("webhook_endpoints.id"), index=True)
    attempt: Mapped[int]
    status: Mapped[str]  # pending | succeeded | failed
    response_code: Mapped[int | None]
    created_at: Mapped[dt.datetime]
    next_retry_at: Mapped[dt.datetime | None] = mapped_column(default=None)  # the automatic retry due
    manual: Mapped[bool] = mapped_column(default=False)  # a resend someone asked for
