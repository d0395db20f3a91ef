"""The payments server's tools: a payments platform's merchants, and each merchant's customers, saved
cards, invoices, card payments, refunds, webhook endpoints and the event log, in the manner of Stripe.

Business rules, in one place:
- Every customer, invoice, payment, webhook endpoint and event belongs to one merchant. A person who
  buys from two merchants is a customer of each, with cards saved at each: a card charges only
  invoices of its own customer at its own merchant. Emails are unique among a merchant's customers,
  invoice numbers carry the merchant's prefix, and a customer is billed in one of the currencies
  the merchant takes.
- An invoice goes draft -> open (finalize) -> paid, or open -> void. Line items are added to drafts
  only; a draft needs at least one to be finalized. A void invoice cannot be paid; a paid one
  cannot be voided (refund its payment instead). Voiding cancels any authorisation still held.
- An invoice is in its customer's billing currency. A card payment authorises the amount due (a
  hold that lasts 7 days), then captures all or part of it; capturing the amount due pays the
  invoice. Expired cards cannot be charged, and an issuer may decline a card.
- A refund, full or partial, is never more than the payment captured minus what was refunded.
- A money-moving request (authorise, capture, pay, refund) may carry an idempotency key: repeating
  it with the same key returns the first result and moves no money again; the same key with
  different arguments is refused.
- Every change of state appends an event to the merchant's log, and a pending delivery record for
  every enabled webhook endpoint of the merchant subscribed to the event's type.
- A failed webhook delivery is retried automatically on a back-off schedule (1, 2, 4, 8, 12, 24 and 24
  hours after each failure: about three days), each retry a new attempt, until one goes through; the
  failed attempt shows when the next retry is due. An endpoint that answers 410 Gone is not retried;
  disabling an endpoint cancels its scheduled retries. A failed delivery can be resent by hand
  while its event is at most 30 days old and the endpoint is enabled; the resend takes the place of
  the scheduled retry.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Annotated, Literal

from pydantic import Field
from sqlalchemy import func, select

from prove_env.toolkit import Date, Detail, Entity, Id, Limit, Money, Toolkit, ToolError, to_json, tool, sql_where

from .models import (Base, Card, Customer, Delivery, Event, Invoice, LineItem, Merchant, Payment, Refund,
                     WebhookEndpoint)
from .seed import AUTHORIZATION_DAYS, GONE, MAX_ATTEMPTS, RESEND_DAYS, RETRY_AFTER, seed, subscribed

Currency = Literal["USD", "EUR", "GBP", "CAD"]
InvoiceStatus = Literal["draft", "open", "paid", "void"]
PaymentStatus = Literal["authorized", "expired", "captured", "partially_refunded", "refunded", "canceled"]
RefundReason = Literal["requested_by_customer", "duplicate", "fraudulent"]
DeliveryStatus = Literal["pending", "succeeded", "failed"]
EventType = Literal["customer.created", "invoice.created", "invoice.updated", "invoice.finalized", "invoice.paid",
                    "invoice.voided", "payment.authorized", "payment.captured", "payment.canceled", "refund.created",
                    "webhook_endpoint.created", "webhook_endpoint.updated"]
EVENT_TYPES = EventType.__args__
Quantity = Annotated[int, Field(ge=1, le=1000)]
MAX_TEXT = 200
MAX_DUE_DAYS = 365
# Where a request's idempotency key, the request and its first result are kept: (model, column prefix).
KEYED = ((Payment, "idempotency"), (Payment, "capture"), (Refund, "idempotency"))
# An idempotency key the user did not ask for is a detail: the state check tolerates it.
_KEYS = tuple(Detail(table, f"{prefix}_{part}") for table, prefix in (("payments", "idempotency"),
                                                                       ("payments", "capture"),
                                                                       ("refunds", "idempotency"))
              for part in ("key", "request", "response"))


class Payments(Toolkit):
    """A payments platform with several merchants (Northwind Studio, Harbor Yoga, Copper Kettle
    Catering): look up a merchant's customers, their saved cards, invoices and payments; draft,
    finalize, void and collect invoices; authorise, capture, cancel and refund card payments, with
    idempotency keys against charging twice; manage webhook endpoints, read the event log and the
    webhook delivery attempts with their retries, and resend a failed delivery. Amounts are in the
    invoice's currency."""

    name = "payments"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("merchant", Merchant, "MER", lookup="list_merchants"),
        Entity("customer", Customer, "CUS", lookup="find_customers"),
        Entity("card", Card, "CRD", lookup="list_payment_methods"),
        Entity("invoice", Invoice, "INV", lookup="list_invoices"),
        Entity("payment", Payment, "PAY", lookup="list_payments"),
        Entity("endpoint", WebhookEndpoint, "WHE", lookup="list_webhook_endpoints"),
        Entity("event", Event, "EVT", lookup="list_events", width=5),
        Entity("delivery", Delivery, "DLV", lookup="list_deliveries", width=5),
    )

    # -- merchants and customers -----------------------------------------------------------------

    @tool(read_only=True)
    def list_merchants(self, name: str | None = None) -> list[dict]:
        """List the merchants on the platform, or those whose name contains `name`: their invoice number
        prefix, contact email, country, own currency and the currencies they bill in. Ordered by id.

        Args:
            name: part of the merchant's name, case-insensitive, such as 'Harbor Yoga' or 'kettle'.
        """
        return [_merchant(m) for m in self.find(Merchant, name=name)]

    @tool(read_only=True)
    def find_customers(self, name: str | None = None, email: str | None = None,
                       merchant_id: Id("merchant") | None = None, limit: Limit = 10) -> list[dict]:
        """Find customers by part of their name or by email, at one merchant or at any; with neither, list
        customers. Ordered by id. A person who buys from two merchants is a customer of each.

        Args:
            name: part of the customer's name, case-insensitive, such as 'Ada Park' or 'park'.
            email: the customer's email address, case-insensitive, such as 'ada.park@gmail.com'.
            merchant_id: only the customers of this merchant.
        """
        if merchant_id is None:
            return [_customer(c) for c in self.find(Customer, name=name, email=email, limit=limit)]
        merchant = self.get(Merchant, merchant_id)
        found = [c for c in self.find(Customer, name=name, email=email) if c.merchant_id == merchant.id]
        return [_customer(c) for c in found[:limit]]

    @tool(read_only=True, produces=("card",))
    def get_customer(self, customer_id: Id("customer")) -> dict:
        """Return a customer's profile with a summary of their account: invoices by status, the amount
        outstanding on open invoices, what they have paid and been refunded, and their default card."""
        customer = self.get(Customer, customer_id)
        counts = dict(self.rows("SELECT status, count(*) FROM invoices WHERE customer_id = ? GROUP BY status",
                                customer.id))
        (outstanding, paid, refunded), = self.rows(
            "SELECT (SELECT sum(total - amount_paid) FROM invoices WHERE customer_id = ? AND status = 'open'), "
            "sum(amount_captured), sum(amount_refunded) FROM payments WHERE customer_id = ?", customer.id, customer.id)
        outstanding = outstanding or 0.0
        card = self.db.get(Card, customer.default_card_id) if customer.default_card_id else None
        return {**_customer(customer), "created_at": customer.created_at,
                "invoices": {status: counts.get(status, 0) for status in ("draft", "open", "paid", "void")},
                "outstanding": round(outstanding, 2), "total_paid": round(paid or 0.0, 2),
                "total_refunded": round(refunded or 0.0, 2),
                "default_card": _card(card, self.today, customer) if card else None}

    @tool(produces=("customer",))
    def create_customer(self, merchant_id: Id("merchant"), name: str, email: str, currency: Currency | None = None,
                        phone: str | None = None) -> dict:
        """Add a customer for a merchant to bill. The email must not belong to another customer of the
        merchant (a customer of another merchant may have it).

        Args:
            name: the customer's full name, such as 'Ada Park'.
            email: their email address, where invoices go, such as 'ada.park@gmail.com'.
            currency: the currency they are billed in, one the merchant bills in: 'USD', 'EUR', 'GBP' or
                'CAD'; the merchant's own currency if left out.
            phone: an optional phone number, such as '+1 (415) 555-0134'.
        """
        merchant = self.get(Merchant, merchant_id)
        currency = currency or merchant.currency
        if currency not in merchant.currencies.split(","):
            raise ToolError(f"{merchant.name} bills only in {merchant.currencies.replace(',', ', ')}, not {currency}; "
                            "pick one of those or leave the currency out")
        name, email = name.strip(), email.strip().lower()
        if not 1 <= len(name) <= MAX_TEXT:
            raise ToolError(f"name must be 1 to {MAX_TEXT} characters, got {len(name)}")
        if "@" not in email or " " in email or len(email) > MAX_TEXT or email.startswith("@") or email.endswith("@"):
            raise ToolError(f"email {email!r} is not an email address such as 'ada.park@gmail.com'")
        taken = self.db.scalar(select(Customer.id).where(func.lower(Customer.email) == email,
                                                         Customer.merchant_id == merchant.id))
        if taken is not None:
            raise ToolError(f"Customer {taken} of {merchant.name} already has the email {email}; use that customer "
                            "instead")
        customer = Customer(id=self.new_id("CUS"), merchant_id=merchant.id, name=name, email=email,
                            phone=(phone or "").strip() or None, currency=currency, default_card_id=None,
                            created_at=self.now)
        self.db.add(customer)
        self._emit("customer.created", f"Customer {name} created", customer.id, merchant.id, customer_id=customer.id)
        return _customer(customer)

    @tool(read_only=True)
    def list_payment_methods(self, customer_id: Id("customer")) -> list[dict]:
        """List a customer's saved cards: brand, last 4 digits, expiry, whether expired and which is the default."""
        customer = self.get(Customer, customer_id)
        cards = self.load(Card, "SELECT id FROM cards WHERE customer_id = ? ORDER BY id", customer.id)
        return [_card(c, self.today, customer) for c in cards]

    # -- invoices --------------------------------------------------------------------------------

    @tool(read_only=True, produces=("customer",))
    def list_invoices(self, customer_id: Id("customer") | None = None, status: InvoiceStatus | None = None,
                      overdue_only: bool = False, number: str | None = None,
                      merchant_id: Id("merchant") | None = None, limit: Limit = 20) -> list[dict]:
        """List invoices, newest first: one customer's, one merchant's or everyone's, optionally of one status,
        only overdue ones, or the one with a given number.

        Args:
            customer_id: only this customer's invoices, such as 'CUS-0007'.
            merchant_id: only this merchant's invoices, such as 'MER-0002'.
            status: only invoices in this status: 'draft', 'open', 'paid' or 'void'.
            overdue_only: only open invoices whose due date has passed (default false).
            number: the invoice number as printed on it, case-insensitive, such as 'NW-1042'.
        """
        where, params = [], []
        if number is not None:
            where.append("number = ?")
            params.append(number.strip().upper())
        if customer_id is not None:
            where.append("customer_id = ?")
            params.append(customer_id)
        if merchant_id is not None:
            where.append("merchant_id = ?")
            params.append(merchant_id)
        if status is not None:
            where.append("status = ?")
            params.append(status)
        if overdue_only:
            where.append("status = 'open' AND due_date < ?")
            params.append(self.today)
        invoices = self.load(Invoice, f"SELECT id FROM invoices WHERE {' AND '.join(where) or '1'} "
                                      "ORDER BY created_at DESC, id DESC LIMIT ?", *params, limit)
        return [self._invoice(i) for i in invoices]

    @tool(read_only=True, produces=("payment",))
    def get_invoice(self, invoice_id: Id("invoice")) -> dict:
        """Return one invoice in full: its line items, totals, amount due, dates and the payments made against it."""
        invoice = self.get(Invoice, invoice_id)
        items = self.load(LineItem, "SELECT id FROM line_items WHERE invoice_id = ? ORDER BY id", invoice.id)
        payments = self.load(Payment, "SELECT id FROM payments WHERE invoice_id = ? ORDER BY id", invoice.id)
        return {**self._invoice(invoice), "created_at": invoice.created_at, "finalized_at": invoice.finalized_at,
                "paid_at": invoice.paid_at, "voided_at": invoice.voided_at,
                "amount_refunded": round(sum(p.amount_refunded for p in payments), 2),
                "line_items": [{"description": i.description, "quantity": i.quantity, "unit_amount": i.unit_amount,
                                "amount": i.amount} for i in items],
                "payments": [self._payment(p) for p in payments]}

    @tool(produces=("invoice",))
    def create_invoice(self, customer_id: Id("customer"), description: str, due_date: Date,
                       currency: Currency | None = None) -> dict:
        """Start a draft invoice for a customer, with no line items yet (add them, then finalize it).

        Args:
            description: what the invoice is for, such as 'Spring website refresh'.
            due_date: when payment is due, from today to a year ahead, such as '2026-07-31'.
            currency: the invoice's currency; it must be the customer's billing currency (the default).
        """
        customer = self.get(Customer, customer_id)
        description = description.strip()
        if not 1 <= len(description) <= MAX_TEXT:
            raise ToolError(f"description must be 1 to {MAX_TEXT} characters, got {len(description)}")
        if currency is not None and currency != customer.currency:
            raise ToolError(f"Customer {customer.id} is billed in {customer.currency}, so their invoices are in "
                            f"{customer.currency}, not {currency}; leave the currency out or use {customer.currency}")
        if due_date < self.today:
            raise ToolError(f"due_date {due_date.isoformat()} is in the past; today is {self.today.isoformat()}")
        if due_date > self.today + dt.timedelta(days=MAX_DUE_DAYS):
            raise ToolError(f"due_date must be at most a year ahead, got {due_date.isoformat()}")
        merchant = self.get(Merchant, customer.merchant_id)
        last = self.db.scalar(select(func.max(Invoice.number)).where(Invoice.merchant_id == merchant.id))
        number = f"{merchant.invoice_prefix}-{int(last.split('-')[1]) + 1 if last else 1001}"
        invoice = Invoice(id=self.new_id("INV"), number=number, merchant_id=merchant.id, customer_id=customer.id,
                          status="draft",
                          currency=customer.currency, description=description, due_date=due_date, total=0.0,
                          amount_paid=0.0, created_at=self.now, finalized_at=None, paid_at=None, voided_at=None)
        self.db.add(invoice)
        self._emit("invoice.created", f"Invoice {number} created", invoice.id, merchant.id, customer_id=customer.id,
                   invoice_id=invoice.id)
        return self._invoice(invoice)

    @tool()
    def add_line_item(self, invoice_id: Id("invoice"), description: str, unit_amount: Money,
                      quantity: Quantity = 1) -> dict:
        """Add a line to a draft invoice; its total grows by quantity times unit amount.

        Args:
            description: what is billed, such as 'Consulting hour'.
            unit_amount: the price of one unit in the invoice's currency, such as 150.0.
            quantity: how many units, from 1 to 1000 (default 1).
        """
        invoice = self.get(Invoice, invoice_id)
        if invoice.status != "draft":
            raise ToolError(f"Invoice {invoice.number} is {invoice.status}; line items can only be added to a draft. "
                            "Create a new invoice for further charges")
        description = description.strip()
        if not 1 <= len(description) <= MAX_TEXT:
            raise ToolError(f"description must be 1 to {MAX_TEXT} characters, got {len(description)}")
        item = LineItem(id=self.new_id("LIN"), invoice_id=invoice.id, description=description, quantity=quantity,
                        unit_amount=unit_amount, amount=round(unit_amount * quantity, 2))
        self.db.add(item)
        invoice.total = round(invoice.total + item.amount, 2)
        self._emit("invoice.updated", f"{description} added to invoice {invoice.number}", invoice.id,
                   invoice.merchant_id, customer_id=invoice.customer_id, invoice_id=invoice.id, amount=item.amount)
        return {**self._invoice(invoice), "added": {"description": description, "quantity": quantity,
                                                    "unit_amount": unit_amount, "amount": item.amount}}

    @tool(sets=("invoice.open",))
    def finalize_invoice(self, invoice_id: Id("invoice")) -> dict:
        """Finalize a draft invoice: it becomes open, can no longer be edited, and can be paid."""
        invoice = self.get(Invoice, invoice_id)
        if invoice.status != "draft":
            raise ToolError(f"Invoice {invoice.number} is already {invoice.status}; only drafts can be finalized")
        if not self.db.scalar(select(func.count()).select_from(LineItem).where(LineItem.invoice_id == invoice.id)):
            raise ToolError(f"Invoice {invoice.number} has no line items; add at least one before finalizing")
        if invoice.due_date < self.today:
            raise ToolError(f"Invoice {invoice.number} was due {invoice.due_date.isoformat()}, which has passed; "
                            "create a new invoice with a later due date")
        invoice.status, invoice.finalized_at = "open", self.now
        self._emit("invoice.finalized", f"Invoice {invoice.number} finalized: {invoice.total:.2f} {invoice.currency}",
                   invoice.id, invoice.merchant_id, customer_id=invoice.customer_id, invoice_id=invoice.id,
                   amount=invoice.total)
        return self._invoice(invoice)

    @tool(destructive=True, requires=("invoice.open",))
    def void_invoice(self, invoice_id: Id("invoice")) -> dict:
        """Void an open invoice that will not be paid. Any card authorisation still held for it is cancelled.

        Paid invoices cannot be voided (refund the payment instead), nor can invoices that have
        received part of their amount.
        """
        invoice = self.get(Invoice, invoice_id)
        if invoice.status == "paid":
            raise ToolError(f"Invoice {invoice.number} is paid and cannot be voided; refund its payment instead")
        if invoice.status == "void":
            raise ToolError(f"Invoice {invoice.number} is already void")
        if invoice.status == "draft":
            raise ToolError(f"Invoice {invoice.number} is a draft that was never sent; there is nothing to void")
        if invoice.amount_paid > 0:
            raise ToolError(f"Invoice {invoice.number} has already received {invoice.amount_paid:.2f} "
                            f"{invoice.currency}; refund that payment before voiding it")
        released = []
        for payment in self.db.scalars(select(Payment).where(Payment.invoice_id == invoice.id,
                                                             Payment.status == "authorized").order_by(Payment.id)):
            self._cancel(payment)
            released.append(payment.id)
        invoice.status, invoice.voided_at = "void", self.now
        self._emit("invoice.voided", f"Invoice {invoice.number} voided", invoice.id, invoice.merchant_id,
                   customer_id=invoice.customer_id, invoice_id=invoice.id)
        return {**self._invoice(invoice), "canceled_payments": released}

    # -- payments --------------------------------------------------------------------------------

    @tool(read_only=True, produces=("invoice", "card"))
    def list_payments(self, customer_id: Id("customer") | None = None, invoice_id: Id("invoice") | None = None,
                      status: PaymentStatus | None = None, merchant_id: Id("merchant") | None = None,
                      limit: Limit = 20) -> list[dict]:
        """List card payments, newest first: a customer's, an invoice's, a merchant's or everyone's, optionally
        of one status.

        An authorisation is 'expired' once the 7 days it is held for have passed without a capture.

        Args:
            customer_id: only this customer's payments, such as 'CUS-0007'.
            invoice_id: only payments against this invoice, such as 'INV-0007'.
            status: only payments in this status: 'authorized', 'expired', 'captured', 'partially_refunded',
                'refunded' or 'canceled'.
            merchant_id: only this merchant's payments, such as 'MER-0002'.
        """
        where, params = [], []
        if customer_id is not None:
            where.append("customer_id = ?")
            params.append(customer_id)
        if merchant_id is not None:
            where.append("merchant_id = ?")
            params.append(merchant_id)
        if invoice_id is not None:
            where.append("invoice_id = ?")
            params.append(invoice_id)
        if status is not None:
            cutoff = self.now - dt.timedelta(days=AUTHORIZATION_DAYS)
            if status == "authorized":
                where.append("status = 'authorized' AND authorized_at >= ?")
                params.append(cutoff)
            elif status == "expired":
                where.append("status = 'authorized' AND authorized_at < ?")
                params.append(cutoff)
            else:
                where.append("status = ?")
                params.append(status)
        payments = self.load(Payment, f"SELECT id FROM payments WHERE {' AND '.join(where) or '1'} "
                                      "ORDER BY authorized_at DESC, id DESC LIMIT ?", *params, limit)
        return [self._payment(p) for p in payments]

    @tool(sets=("payment.authorized",), requires=("invoice.open",), produces=("payment",), details=_KEYS)
    def authorize_payment(self, invoice_id: Id("invoice"), card_id: Id("card") | None = None,
                          idempotency_key: str | None = None) -> dict:
        """Place a hold on a customer's card for the amount due on an open invoice, to capture later.

        The hold lasts 7 days. An invoice may have one authorisation held at a time.

        Args:
            card_id: the card to charge, one of the invoice's customer's; the customer's default card if left out.
            idempotency_key: an optional unique key for this request, such as 'order-1042-auth'; repeating the
                request with the same key returns the first result without charging again.
        """
        args = {"invoice_id": invoice_id, "card_id": card_id}
        replay = self._replayed("authorize_payment", idempotency_key, args)
        if replay is not None:
            return replay
        invoice, card = self._chargeable(invoice_id, card_id)
        payment = self._authorize(invoice, card)
        return self._remember(payment, "idempotency", "authorize_payment", idempotency_key, args, self._payment(payment))

    @tool(sets=("payment.captured",), requires=("payment.authorized",), details=_KEYS)
    def capture_payment(self, payment_id: Id("payment"), amount: Money | None = None,
                        idempotency_key: str | None = None) -> dict:
        """Capture an authorised payment, in full or in part (the rest of the hold is released).

        Capturing the invoice's whole amount due marks the invoice paid.

        Args:
            amount: how much to capture, at most the authorised amount; the whole authorisation if left out.
            idempotency_key: an optional unique key for this request, such as 'order-1042-capture'; repeating the
                request with the same key returns the first result without capturing again.
        """
        args = {"payment_id": payment_id, "amount": amount}
        replay = self._replayed("capture_payment", idempotency_key, args)
        if replay is not None:
            return replay
        payment = self.get(Payment, payment_id)
        if payment.status != "authorized":
            advice = {"canceled": "authorise the invoice again",
                      "captured": "it needs no second capture"}.get(payment.status, "it needs no second capture")
            raise ToolError(f"Payment {payment.id} is {payment.status}, not authorised; {advice}")
        expires = payment.authorized_at + dt.timedelta(days=AUTHORIZATION_DAYS)
        if self.now > expires:
            raise ToolError(f"The authorisation of payment {payment.id} expired on {expires.date().isoformat()}; "
                            "cancel it and authorise the invoice again")
        amount = payment.amount if amount is None else amount
        if amount > payment.amount:
            raise ToolError(f"Cannot capture {amount:.2f} {payment.currency}: payment {payment.id} authorised only "
                            f"{payment.amount:.2f}")
        self._capture(payment, amount)
        return self._remember(payment, "capture", "capture_payment", idempotency_key, args, self._payment(payment))

    @tool(destructive=True, requires=("payment.authorized",))
    def cancel_payment(self, payment_id: Id("payment")) -> dict:
        """Cancel an authorised payment that has not been captured, releasing the hold on the card.

        Captured payments cannot be cancelled: refund them instead.
        """
        payment = self.get(Payment, payment_id)
        if payment.status != "authorized":
            advice = "refund it instead" if payment.amount_captured > 0 else "there is nothing to cancel"
            raise ToolError(f"Payment {payment.id} is {payment.status}; {advice}")
        self._cancel(payment)
        return self._payment(payment)

    @tool(sets=("payment.captured",), requires=("invoice.open",), produces=("payment",), details=_KEYS)
    def pay_invoice(self, invoice_id: Id("invoice"), card_id: Id("card") | None = None,
                    idempotency_key: str | None = None) -> dict:
        """Charge a customer's card for the whole amount due on an open invoice now (authorise and capture),
        which marks the invoice paid.

        Args:
            card_id: the card to charge, one of the invoice's customer's; the customer's default card if left out.
            idempotency_key: an optional unique key for this request, such as 'invoice-1042'; repeating the
                request with the same key returns the first result without charging again.
        """
        args = {"invoice_id": invoice_id, "card_id": card_id}
        replay = self._replayed("pay_invoice", idempotency_key, args)
        if replay is not None:
            return replay
        invoice, card = self._chargeable(invoice_id, card_id)
        payment = self._authorize(invoice, card, quiet=True)
        self._capture(payment, payment.amount)
        return self._remember(payment, "idempotency", "pay_invoice", idempotency_key, args,
                              {**self._payment(payment), "invoice_status": invoice.status})

    # -- refunds ---------------------------------------------------------------------------------

    @tool(requires=("payment.captured",), details=_KEYS)
    def refund_payment(self, payment_id: Id("payment"), amount: Money | None = None,
                       reason: RefundReason = "requested_by_customer", idempotency_key: str | None = None) -> dict:
        """Refund a captured payment, in full or in part, to the card it was paid with.

        A refund may be at most what was captured minus what was already refunded. The invoice stays paid.

        Args:
            amount: how much to refund; everything still refundable if left out.
            reason: 'requested_by_customer' (default), 'duplicate' or 'fraudulent'.
            idempotency_key: an optional unique key for this request, such as 'refund-1042'; repeating the
                request with the same key returns the first result without refunding again.
        """
        args = {"payment_id": payment_id, "amount": amount, "reason": reason}
        replay = self._replayed("refund_payment", idempotency_key, args)
        if replay is not None:
            return replay
        payment = self.get(Payment, payment_id)
        if payment.amount_captured <= 0:
            raise ToolError(f"Payment {payment.id} is {self._status(payment)} and captured nothing, so there is "
                            "nothing to refund" + ("; cancel it instead" if payment.status == "authorized" else ""))
        left = round(payment.amount_captured - payment.amount_refunded, 2)
        if left <= 0:
            raise ToolError(f"Payment {payment.id} is already fully refunded ({payment.amount_refunded:.2f} "
                            f"{payment.currency})")
        amount = left if amount is None else amount
        if amount > left:
            raise ToolError(f"Cannot refund {amount:.2f} {payment.currency}: payment {payment.id} captured "
                            f"{payment.amount_captured:.2f} and {payment.amount_refunded:.2f} was already refunded, "
                            f"so at most {left:.2f} can be refunded")
        refund = Refund(id=self.new_id("REF"), payment_id=payment.id, amount=amount, currency=payment.currency,
                        reason=reason, created_at=self.now)
        self.db.add(refund)
        payment.amount_refunded = round(payment.amount_refunded + amount, 2)
        payment.status = "refunded" if payment.amount_refunded >= payment.amount_captured else "partially_refunded"
        self._emit("refund.created", f"{amount:.2f} {payment.currency} refunded", refund.id, payment.merchant_id,
                   customer_id=payment.customer_id, invoice_id=payment.invoice_id, payment_id=payment.id, amount=amount)
        return self._remember(refund, "idempotency", "refund_payment", idempotency_key, args,
                              {**_refund(refund), "payment_status": payment.status,
                               "refundable_left": round(payment.amount_captured - payment.amount_refunded, 2)})

    @tool(read_only=True, produces=("payment",))
    def list_refunds(self, customer_id: Id("customer") | None = None, payment_id: Id("payment") | None = None,
                     merchant_id: Id("merchant") | None = None, limit: Limit = 20) -> list[dict]:
        """List refunds, newest first: a customer's, one payment's, a merchant's or everyone's.

        Args:
            customer_id: only refunds to this customer, such as 'CUS-0007'.
            payment_id: only refunds of this payment, such as 'PAY-0007'.
            merchant_id: only the refunds this merchant gave, such as 'MER-0002'.
        """
        where, params = [], []
        if merchant_id is not None:
            where.append("p.merchant_id = ?")
            params.append(merchant_id)
        if customer_id is not None:
            where.append("p.customer_id = ?")
            params.append(customer_id)
        if payment_id is not None:
            where.append("r.payment_id = ?")
            params.append(payment_id)
        refunds = self.load(Refund, "SELECT r.id FROM refunds r JOIN payments p ON p.id = r.payment_id "
                                    f"WHERE {' AND '.join(where) or '1'} ORDER BY r.created_at DESC, r.id DESC LIMIT ?",
                            *params, limit)
        return [_refund(r) for r in refunds]

    # -- webhooks and events ---------------------------------------------------------------------

    @tool(read_only=True)
    def list_webhook_endpoints(self, merchant_id: Id("merchant") | None = None) -> list[dict]:
        """List the webhook endpoints, of one merchant or of all: URL, description, subscribed event types,
        whether enabled, how many delivery attempts to each have failed, and how many automatic retries
        are scheduled.

        Args:
            merchant_id: only this merchant's endpoints, such as 'MER-0002'.
        """
        rows = self.rows("SELECT w.id, w.merchant_id, w.url, w.description, w.events, w.enabled, "
                         "(SELECT count(*) FROM deliveries d WHERE d.status = 'failed' AND d.endpoint_id = w.id), "
                         "(SELECT count(*) FROM deliveries d WHERE d.status = 'failed' AND d.endpoint_id = w.id "
                         "AND d.next_retry_at IS NOT NULL) FROM webhook_endpoints w "
                         "WHERE ?1 IS NULL OR w.merchant_id = ?1 ORDER BY w.id", merchant_id)
        return [{"endpoint_id": endpoint_id, "merchant_id": merchant, "url": url, "description": description,
                 "events": events.split(","), "enabled": bool(enabled), "failed_deliveries": failed,
                 "retries_scheduled": waiting}
                for endpoint_id, merchant, url, description, events, enabled, failed, waiting in rows]

    @tool(produces=("endpoint",), details=(Detail("webhook_endpoints", "description"),))
    def create_webhook_endpoint(self, merchant_id: Id("merchant"), url: str, events: list[str],
                                description: str | None = None) -> dict:
        """Register a webhook endpoint of a merchant that receives the merchant's events of the listed types.

        Args:
            url: where events are sent; an https URL the merchant has not registered yet, such as
                'https://example.com/hooks'.
            events: the event types to send, such as ['invoice.paid', 'refund.created'], or ['*'] for every type.
            description: an optional note on what the endpoint is for, such as 'Bookkeeping sync'.
        """
        merchant = self.get(Merchant, merchant_id)
        url = self._url(url, merchant)
        endpoint = WebhookEndpoint(id=self.new_id("WHE"), merchant_id=merchant.id, url=url,
                                   description=(description or "").strip() or None, events=_event_list(events),
                                   enabled=True, created_at=self.now)
        self.db.add(endpoint)
        self.db.flush()
        self._emit("webhook_endpoint.created", f"Webhook endpoint {url} created", endpoint.id, merchant.id)
        return _endpoint(endpoint)

    @tool(idempotent=True, sets=("endpoint.enabled",))
    def update_webhook_endpoint(self, endpoint_id: Id("endpoint"), url: str | None = None,
                                events: list[str] | None = None, enabled: bool | None = None,
                                description: str | None = None) -> dict:
        """Change a webhook endpoint: its URL, subscribed event types, description, or enable or disable it.

        A disabled endpoint receives no events, and disabling one cancels its scheduled retries (enabling
        it again does not bring them back). Give at least one change.

        Args:
            url: a new https URL, such as 'https://example.com/hooks'.
            events: the new list of event types, such as ['invoice.paid'], or ['*'] for every type; it replaces
                the old list.
            enabled: true to enable the endpoint, false to disable it.
            description: a new description.
        """
        endpoint = self.get(WebhookEndpoint, endpoint_id)
        if url is None and events is None and enabled is None and description is None:
            raise ToolError("Nothing to change: give a url, events, enabled or description")
        changed = []
        if url is not None and url.strip() != endpoint.url:
            endpoint.url = self._url(url, self.get(Merchant, endpoint.merchant_id))
            changed.append("url")
        if events is not None:
            listed = _event_list(events)
            if listed != endpoint.events:
                endpoint.events = listed
                changed.append("events")
        canceled = 0
        if enabled is not None and enabled != endpoint.enabled:
            endpoint.enabled = enabled
            changed.append("enabled" if enabled else "disabled")
            if not enabled:
                for waiting in self.db.scalars(select(Delivery).where(Delivery.endpoint_id == endpoint.id,
                                                                      Delivery.next_retry_at.is_not(None))):
                    waiting.next_retry_at = None
                    canceled += 1
        if description is not None and (description.strip() or None) != endpoint.description:
            endpoint.description = description.strip() or None
            changed.append("description")
        if changed:
            self.db.flush()
            self._emit("webhook_endpoint.updated", f"Webhook endpoint {endpoint.url} updated: {', '.join(changed)}",
                       endpoint.id, endpoint.merchant_id)
        out = {**_endpoint(endpoint), "changed": changed}
        if canceled:
            out["retries_canceled"] = canceled
        return out

    @tool(read_only=True, produces=("customer", "invoice", "payment"))
    def list_events(self, type: EventType | None = None, customer_id: Id("customer") | None = None,
                    invoice_id: Id("invoice") | None = None, payment_id: Id("payment") | None = None,
                    merchant_id: Id("merchant") | None = None, limit: Limit = 20) -> list[dict]:
        """List events from the append-only log, newest first, optionally of one type, of one merchant, or
        about one customer, invoice or payment.

        Args:
            type: only events of this type, such as 'invoice.paid'.
            customer_id: only events about this customer, such as 'CUS-0007'.
            invoice_id: only events about this invoice, such as 'INV-0007'.
            payment_id: only events about this payment, such as 'PAY-0007'.
            merchant_id: only this merchant's events, such as 'MER-0002'.
        """
        sql, params = sql_where(("type = ?", type), ("customer_id = ?", customer_id),
                                ("invoice_id = ?", invoice_id), ("payment_id = ?", payment_id),
                                ("merchant_id = ?", merchant_id))
        events = self.load(Event, f"SELECT id FROM events WHERE {sql} ORDER BY created_at DESC, id DESC LIMIT ?",
                           *params, limit)
        return [_event(e) for e in events]

    @tool(read_only=True, produces=("event", "endpoint"))
    def list_deliveries(self, endpoint_id: Id("endpoint") | None = None, event_id: Id("event") | None = None,
                        status: DeliveryStatus | None = None, limit: Limit = 20) -> list[dict]:
        """List webhook delivery attempts, newest first, with the event each one sent: to one endpoint, of one
        event, or of one status. Each attempt has its number, the endpoint's HTTP status code, whether it
        was a resend by hand, and for a failed attempt the time its automatic retry is due (null when none
        will come: it was retried, went through a later attempt, was given up after about three days,
        answered 410 Gone, or its endpoint was disabled).

        Args:
            endpoint_id: only deliveries to this endpoint, such as 'WHE-0007'.
            event_id: only deliveries of this event, such as 'EVT-00007'.
            status: only deliveries in this status: 'pending', 'succeeded' or 'failed'.
        """
        sql, params = sql_where(("d.endpoint_id = ?", endpoint_id), ("d.event_id = ?", event_id), ("d.status = ?", status))
        rows = self.rows("SELECT d.id, d.endpoint_id, d.event_id, e.type, e.summary, d.attempt, d.status, "
                         "d.response_code, d.manual, d.created_at, d.next_retry_at FROM deliveries d "
                         f"JOIN events e ON e.id = d.event_id WHERE {sql} ORDER BY d.created_at DESC, d.id DESC "
                         "LIMIT ?", *params, limit)
        return [{**dict(zip(_DELIVERY_KEYS, row[:-3])), "manual": bool(row[-3]),
                 "created_at": dt.datetime.fromisoformat(row[-2]),
                 "next_retry_at": dt.datetime.fromisoformat(row[-1]) if row[-1] else None} for row in rows]

    @tool(requires=("endpoint.enabled",))
    def retry_delivery(self, delivery_id: Id("delivery")) -> dict:
        """Resend a failed webhook delivery by hand: a new attempt is queued (status 'pending'); the failed
        record stays, and the automatic retry it was waiting for, if any, is replaced by this one.

        Only the latest attempt of an event to an endpoint can be resent, only to an enabled endpoint, and
        only while the event is at most 30 days old.
        """
        delivery = self.get(Delivery, delivery_id)
        if delivery.status != "failed":
            raise ToolError(f"Delivery {delivery.id} is {delivery.status}; only failed deliveries can be retried")
        later = self.db.scalar(select(Delivery.id).where(Delivery.event_id == delivery.event_id,
                                                         Delivery.endpoint_id == delivery.endpoint_id,
                                                         Delivery.attempt > delivery.attempt).limit(1))
        if later is not None:
            raise ToolError(f"Delivery {delivery.id} was already retried as {later}; look at that attempt instead")
        endpoint = self.db.get(WebhookEndpoint, delivery.endpoint_id)
        if not endpoint.enabled:
            raise ToolError(f"Endpoint {endpoint.id} ({endpoint.url}) is disabled; enable it before retrying")
        event = self.db.get(Event, delivery.event_id)
        if event.created_at < self.now - dt.timedelta(days=RESEND_DAYS):
            raise ToolError(f"Event {event.id} happened on {event.created_at.date().isoformat()}, more than "
                            f"{RESEND_DAYS} days ago, so it can no longer be resent; the event log still has it "
                            "(list_events) for the endpoint's owner to catch up from")
        delivery.next_retry_at = None
        retry = Delivery(id=self.new_id("DLV", 5), event_id=delivery.event_id, endpoint_id=endpoint.id,
                         attempt=delivery.attempt + 1, status="pending", response_code=None, created_at=self.now,
                         next_retry_at=None, manual=True)
        self.db.add(retry)
        return _delivery(retry, event)

    # -- hidden ----------------------------------------------------------------------------------

    @tool(read_only=True, hidden=True)
    def get_card_decline_code(self, card_id: Id("card")) -> dict:
        """Testing only: the code the card's issuer declines every charge with, or null when it accepts them."""
        card = self.get(Card, card_id)
        return {"card_id": card.id, "decline_code": card.decline_code}

    # -- invariants ------------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """Totals match line items, amounts paid match captures, refunds never exceed captures,
        statuses agree with amounts, an invoice holds at most one live authorisation, references stay
        within one merchant (`_merchant_rules`), webhook retries follow the clock (`_delivery_rules`),
        and nothing that happened (created, added, finalized, paid, voided, authorised, captured,
        canceled, refunded, logged, delivered) lies after the clock."""
        problems = self.after_now(Merchant.created_at,
                                  Customer.created_at, Card.added_at, Invoice.created_at, Invoice.finalized_at,
                                  Invoice.paid_at, Invoice.voided_at, Payment.authorized_at, Payment.captured_at,
                                  Payment.canceled_at, Refund.created_at, WebhookEndpoint.created_at,
                                  Event.created_at, Delivery.created_at)
        items = dict(self.db.execute(select(LineItem.invoice_id, func.sum(LineItem.amount))
                                     .group_by(LineItem.invoice_id)).all())
        captured = dict(self.db.execute(select(Payment.invoice_id, func.sum(Payment.amount_captured))
                                        .group_by(Payment.invoice_id)).all())
        for invoice in self.db.scalars(select(Invoice)):
            if round(items.get(invoice.id, 0.0), 2) != round(invoice.total, 2):
                problems.append(f"{invoice.id}: total {invoice.total} but line items sum to {items.get(invoice.id)}")
            if round(captured.get(invoice.id, 0.0), 2) != round(invoice.amount_paid, 2):
                problems.append(f"{invoice.id}: paid {invoice.amount_paid} but captures sum to {captured.get(invoice.id)}")
            if (invoice.status == "paid") != (invoice.total > 0 and invoice.amount_paid >= invoice.total):
                problems.append(f"{invoice.id}: status {invoice.status} with {invoice.amount_paid} of {invoice.total}")
        refunds = dict(self.db.execute(select(Refund.payment_id, func.sum(Refund.amount))
                                       .group_by(Refund.payment_id)).all())
        live: dict[str, int] = {}
        cutoff = self.now - dt.timedelta(days=AUTHORIZATION_DAYS)
        for payment in self.db.scalars(select(Payment)):
            if round(refunds.get(payment.id, 0.0), 2) != round(payment.amount_refunded, 2):
                problems.append(f"{payment.id}: refunded {payment.amount_refunded} but refunds sum to "
                                f"{refunds.get(payment.id)}")
            if not payment.amount_refunded <= payment.amount_captured + 0.001 <= payment.amount + 0.002:
                problems.append(f"{payment.id}: refunded {payment.amount_refunded}, captured "
                                f"{payment.amount_captured}, authorised {payment.amount}")
            if payment.status == "authorized" and payment.authorized_at >= cutoff:
                live[payment.invoice_id] = live.get(payment.invoice_id, 0) + 1
        problems += [f"{inv}: {n} live authorisations" for inv, n in live.items() if n > 1]
        problems += self._merchant_rules()
        problems += self._delivery_rules()
        return problems

    def _merchant_rules(self) -> list[str]:
        """Everything refers only to things of its own merchant: an invoice to its customer, a payment to
        its invoice, customer and card, an event to what it is about, a delivery to an endpoint of the
        event's merchant; invoice numbers carry the merchant's prefix, customers are billed in one of
        its currencies, and no two customers of a merchant share an email."""
        problems = []
        merchants = {m: (prefix, currencies.split(",")) for m, prefix, currencies in self.rows(
            "SELECT id, invoice_prefix, currencies FROM merchants")}
        customers = {c: m for c, m in self.rows("SELECT id, merchant_id FROM customers")}
        problems += [f"customer {c} of {m} is billed in {currency}" for c, m, currency in self.rows(
            "SELECT id, merchant_id, currency FROM customers") if currency not in merchants[m][1]]
        problems += [f"{m} has {n} customers with the email {email}" for m, email, n in self.rows(
            "SELECT merchant_id, lower(email), count(*) FROM customers GROUP BY merchant_id, lower(email) "
            "HAVING count(*) > 1")]
        invoices = {}
        for i, m, number, c in self.rows("SELECT id, merchant_id, number, customer_id FROM invoices"):
            invoices[i] = m
            if customers.get(c) != m or not number.startswith(merchants[m][0] + "-"):
                problems.append(f"invoice {i} ({number}) of {m} is for customer {c} of {customers.get(c)}")
        payments = {}
        for p, m, i, c, holder in self.rows("SELECT p.id, p.merchant_id, p.invoice_id, p.customer_id, k.customer_id "
                                            "FROM payments p JOIN cards k ON k.id = p.card_id"):
            payments[p] = m
            if invoices.get(i) != m or customers.get(c) != m or holder != c:
                problems.append(f"payment {p} of {m} is for invoice {i}, customer {c} and a card of {holder}")
        for e, m, c, i, p in self.rows("SELECT id, merchant_id, customer_id, invoice_id, payment_id FROM events"):
            if (c and customers.get(c) != m) or (i and invoices.get(i) != m) or (p and payments.get(p) != m):
                problems.append(f"event {e} of {m} is about {c}, {i}, {p} of another merchant")
        problems += [f"delivery {d} of an event of {m} went to endpoint {w} of {n}" for d, m, w, n in self.rows(
            "SELECT d.id, e.merchant_id, d.endpoint_id, w.merchant_id FROM deliveries d JOIN events e "
            "ON e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id "
            "WHERE e.merchant_id != w.merchant_id")]
        return problems

    def _delivery_rules(self) -> list[str]:
        """The attempts of an event to an endpoint are numbered 1, 2, ...; an automatic retry came exactly
        on the back-off schedule after the failure before it; a retry is scheduled only on the latest
        attempt, when it failed (not with 410 Gone), before the last attempt, at its time on the schedule,
        on an enabled endpoint, and never in the past: every retry the clock reached was made."""
        problems = []
        enabled = {w: bool(on) for w, on in self.rows("SELECT id, enabled FROM webhook_endpoints")}
        stamp = dt.datetime.fromisoformat
        chains: dict[tuple[str, str], list[tuple]] = {}
        for row in self.rows("SELECT id, event_id, endpoint_id, attempt, status, response_code, created_at, "
                             "next_retry_at, manual FROM deliveries ORDER BY attempt"):
            chains.setdefault((row[1], row[2]), []).append(row)
        for (_, endpoint), chain in chains.items():
            if [row[3] for row in chain] != list(range(1, len(chain) + 1)):
                problems.append(f"deliveries {', '.join(r[0] for r in chain)} are numbered {[r[3] for r in chain]}")
                continue
            for before, after in zip(chain, chain[1:]):
                if not after[8] and (before[4] != "failed"
                                     or stamp(after[6]) != stamp(before[6]) + RETRY_AFTER[before[3] - 1]):
                    problems.append(f"delivery {after[0]} (attempt {after[3]}) is not on the retry schedule after "
                                    f"{before[0]}")
            for d, _, _, attempt, status, code, at, due, _ in chain:
                if due is None:
                    continue
                wanted = (d == chain[-1][0] and status == "failed" and code != GONE and attempt < MAX_ATTEMPTS
                          and enabled[endpoint] and stamp(due) == stamp(at) + RETRY_AFTER[attempt - 1])
                if not wanted:
                    problems.append(f"delivery {d} (attempt {attempt}, {status}) has a retry scheduled at {due}")
                elif stamp(due) <= self.now:
                    problems.append(f"delivery {d} waits for a retry at {due}, which the clock has passed")
        return problems

    # -- helpers ---------------------------------------------------------------------------------

    @property
    def today(self) -> dt.date:
        return self.now.date()

    def _emit(self, type_: str, summary: str, object_id: str, merchant_id: str, *, customer_id: str | None = None,
              invoice_id: str | None = None, payment_id: str | None = None, amount: float | None = None) -> Event:
        """Append an event to the merchant's log, with a pending delivery for every enabled endpoint of the
        merchant subscribed to its type."""
        event = Event(id=self.new_id("EVT", 5), merchant_id=merchant_id, type=type_, summary=summary,
                      object_id=object_id, customer_id=customer_id, invoice_id=invoice_id, payment_id=payment_id,
                      amount=amount, created_at=self.now)
        self.db.add(event)
        for endpoint in self.db.scalars(select(WebhookEndpoint).where(WebhookEndpoint.enabled.is_(True),
                                                                      WebhookEndpoint.merchant_id == merchant_id)
                                        .order_by(WebhookEndpoint.id)):
            if subscribed(endpoint, type_):
                self.db.add(Delivery(id=self.new_id("DLV", 5), event_id=event.id, endpoint_id=endpoint.id, attempt=1,
                                     status="pending", response_code=None, created_at=self.now))
        return event

    def _replayed(self, tool_name: str, key: str | None, args: dict) -> dict | list | None:
        """The first result of a request repeated with its idempotency key, or None for a new request."""
        if key is None:
            return None
        key = key.strip()
        if not 1 <= len(key) <= MAX_TEXT:
            raise ToolError(f"idempotency_key must be 1 to {MAX_TEXT} characters, got {len(key)}")
        request = _canonical({"tool": tool_name, **args})
        for model, prefix in KEYED:
            row = self.db.scalar(select(model).where(getattr(model, f"{prefix}_key") == key).limit(1))
            if row is None:
                continue
            if getattr(row, f"{prefix}_request") != request:
                raise ToolError(f"Idempotency key {key!r} was already used for a different request "
                                f"({getattr(row, f'{prefix}_request')}); use a new key for a new request")
            return json.loads(getattr(row, f"{prefix}_response"))
        return None

    def _remember(self, row: Payment | Refund, prefix: str, tool_name: str, key: str | None, args: dict,
                  result: dict) -> dict:
        """Keep the request made with an idempotency key, and its result, on the row it created or changed."""
        if key is not None:
            setattr(row, f"{prefix}_key", key.strip())
            setattr(row, f"{prefix}_request", _canonical({"tool": tool_name, **args}))
            setattr(row, f"{prefix}_response", to_json(result))
        return result

    def _chargeable(self, invoice_id: str, card_id: str | None) -> tuple[Invoice, Card]:
        invoice = self.get(Invoice, invoice_id)
        if invoice.status == "void":
            raise ToolError(f"Invoice {invoice.number} is void and cannot be paid; create a new invoice instead")
        if invoice.status == "paid":
            raise ToolError(f"Invoice {invoice.number} is already paid; nothing is due")
        if invoice.status == "draft":
            raise ToolError(f"Invoice {invoice.number} is a draft; finalize it before taking payment")
        held = self.db.scalar(select(Payment).where(
            Payment.invoice_id == invoice.id, Payment.status == "authorized",
            Payment.authorized_at >= self.now - dt.timedelta(days=AUTHORIZATION_DAYS)).limit(1))
        if held is not None:
            raise ToolError(f"Invoice {invoice.number} already has payment {held.id} authorised for "
                            f"{held.amount:.2f} {held.currency}; capture it or cancel it first")
        customer = self.get(Customer, invoice.customer_id)
        if card_id is None:
            if customer.default_card_id is None:
                raise ToolError(f"Customer {customer.id} has no default card; give a card_id from "
                                "list_payment_methods")
            card_id = customer.default_card_id
        card = self.get(Card, card_id)
        if card.customer_id != customer.id:
            holder = self.get(Customer, card.customer_id)
            if holder.merchant_id != customer.merchant_id and holder.email == customer.email:
                raise ToolError(f"Card {card.id} is saved with {self.get(Merchant, holder.merchant_id).name} (customer "
                                f"{holder.id}); cards are not shared between merchants. Use one of {customer.id}'s "
                                f"cards at {self.get(Merchant, customer.merchant_id).name} (list_payment_methods)")
            raise ToolError(f"Card {card.id} belongs to another customer, not to {customer.id}, who owes invoice "
                            f"{invoice.number}")
        if (card.exp_year, card.exp_month) < (self.today.year, self.today.month):
            raise ToolError(f"Card {card.id} ({card.brand} ending {card.last4}) expired in "
                            f"{card.exp_month:02d}/{card.exp_year}; use another card")
        if card.decline_code is not None:
            raise ToolError(f"The card {card.brand} ending {card.last4} was declined by its issuer "
                            f"({card.decline_code}); ask the customer for another card")
        return invoice, card

    def _authorize(self, invoice: Invoice, card: Card, quiet: bool = False) -> Payment:
        due = round(invoice.total - invoice.amount_paid, 2)
        payment = Payment(id=self.new_id("PAY"), merchant_id=invoice.merchant_id, invoice_id=invoice.id,
                          customer_id=invoice.customer_id,
                          card_id=card.id, currency=invoice.currency, amount=due, amount_captured=0.0,
                          amount_refunded=0.0, status="authorized", authorized_at=self.now, captured_at=None,
                          canceled_at=None)
        self.db.add(payment)
        if not quiet:
            self._emit("payment.authorized", f"{due:.2f} {invoice.currency} authorised on {card.brand.capitalize()} "
                       f"ending {card.last4}", payment.id, invoice.merchant_id, customer_id=invoice.customer_id,
                       invoice_id=invoice.id, payment_id=payment.id, amount=due)
        return payment

    def _capture(self, payment: Payment, amount: float) -> None:
        payment.amount_captured, payment.status, payment.captured_at = amount, "captured", self.now
        invoice = self.db.get(Invoice, payment.invoice_id)
        self._emit("payment.captured", f"{amount:.2f} {payment.currency} captured", payment.id, payment.merchant_id,
                   customer_id=payment.customer_id, invoice_id=invoice.id, payment_id=payment.id, amount=amount)
        invoice.amount_paid = round(invoice.amount_paid + amount, 2)
        if invoice.amount_paid >= invoice.total:
            invoice.status, invoice.paid_at = "paid", self.now
            self._emit("invoice.paid", f"Invoice {invoice.number} paid: {invoice.amount_paid:.2f} {invoice.currency}",
                       invoice.id, invoice.merchant_id, customer_id=invoice.customer_id, invoice_id=invoice.id,
                       payment_id=payment.id, amount=invoice.amount_paid)

    def _cancel(self, payment: Payment) -> None:
        payment.status, payment.canceled_at = "canceled", self.now
        self._emit("payment.canceled", f"Authorisation of {payment.amount:.2f} {payment.currency} canceled",
                   payment.id, payment.merchant_id, customer_id=payment.customer_id, invoice_id=payment.invoice_id,
                   payment_id=payment.id, amount=payment.amount)

    def _url(self, url: str, merchant: Merchant) -> str:
        url = url.strip()
        if not url.startswith("https://") or len(url) <= len("https://") or " " in url or len(url) > 2048:
            raise ToolError(f"url must be an https URL such as 'https://example.com/hooks', got {url!r}")
        taken = self.db.scalar(select(WebhookEndpoint.id).where(WebhookEndpoint.url == url,
                                                                WebhookEndpoint.merchant_id == merchant.id))
        if taken is not None:
            raise ToolError(f"Endpoint {taken} of {merchant.name} already receives events at {url}; update that "
                            "endpoint instead")
        return url

    def _status(self, payment: Payment) -> str:
        if payment.status == "authorized" and self.now > payment.authorized_at + dt.timedelta(days=AUTHORIZATION_DAYS):
            return "expired"
        return payment.status

    def _invoice(self, invoice: Invoice) -> dict:
        customer = self.db.get(Customer, invoice.customer_id)
        return {"invoice_id": invoice.id, "number": invoice.number, "merchant_id": invoice.merchant_id,
                "customer_id": invoice.customer_id,
                "customer_name": customer.name, "description": invoice.description, "status": invoice.status,
                "currency": invoice.currency, "total": invoice.total, "amount_paid": invoice.amount_paid,
                "amount_due": round(invoice.total - invoice.amount_paid, 2) if invoice.status in ("draft", "open")
                else 0.0, "due_date": invoice.due_date,
                "overdue": invoice.status == "open" and invoice.due_date < self.today}

    def _payment(self, payment: Payment) -> dict:
        card = self.db.get(Card, payment.card_id)
        invoice = self.db.get(Invoice, payment.invoice_id)
        info = {"payment_id": payment.id, "merchant_id": payment.merchant_id, "invoice_id": payment.invoice_id,
                "invoice_number": invoice.number, "customer_id": payment.customer_id, "card_id": payment.card_id,
                "card": f"{card.brand} ending {card.last4}", "currency": payment.currency,
                "amount": payment.amount, "amount_captured": payment.amount_captured,
                "amount_refunded": payment.amount_refunded, "status": self._status(payment),
                "authorized_at": payment.authorized_at}
        if payment.status == "authorized":
            info["capture_before"] = payment.authorized_at + dt.timedelta(days=AUTHORIZATION_DAYS)
        if payment.captured_at is not None:
            info["captured_at"] = payment.captured_at
        if payment.canceled_at is not None:
            info["canceled_at"] = payment.canceled_at
        return info


# -- results ------------------------------------------------------------------------------------


def _merchant(merchant: Merchant) -> dict:
    return {"merchant_id": merchant.id, "name": merchant.name, "invoice_prefix": merchant.invoice_prefix,
            "email": merchant.email, "country": merchant.country, "currency": merchant.currency,
            "currencies": merchant.currencies.split(",")}


def _customer(customer: Customer) -> dict:
    return {"customer_id": customer.id, "merchant_id": customer.merchant_id, "name": customer.name,
            "email": customer.email, "phone": customer.phone, "currency": customer.currency}


def _card(card: Card, today: dt.date, customer: Customer) -> dict:
    return {"card_id": card.id, "brand": card.brand, "last4": card.last4,
            "expires": f"{card.exp_month:02d}/{card.exp_year}",
            "expired": (card.exp_year, card.exp_month) < (today.year, today.month),
            "default": customer.default_card_id == card.id}


def _refund(refund: Refund) -> dict:
    return {"refund_id": refund.id, "payment_id": refund.payment_id, "amount": refund.amount,
            "currency": refund.currency, "reason": refund.reason, "created_at": refund.created_at}


def _endpoint(endpoint: WebhookEndpoint) -> dict:
    return {"endpoint_id": endpoint.id, "merchant_id": endpoint.merchant_id, "url": endpoint.url,
            "description": endpoint.description, "events": endpoint.events.split(","), "enabled": endpoint.enabled}


def _event(event: Event) -> dict:
    info = {"event_id": event.id, "merchant_id": event.merchant_id, "type": event.type, "created_at": event.created_at,
            "summary": event.summary, "object_id": event.object_id}
    for key in ("customer_id", "invoice_id", "payment_id", "amount"):
        if getattr(event, key) is not None:
            info[key] = getattr(event, key)
    return info


_DELIVERY_KEYS = ("delivery_id", "endpoint_id", "event_id", "event_type", "event_summary", "attempt", "status",
                  "response_code")  # the order of `_delivery`'s keys, then manual, created_at and next_retry_at


def _delivery(delivery: Delivery, event: Event) -> dict:
    return {"delivery_id": delivery.id, "endpoint_id": delivery.endpoint_id, "event_id": delivery.event_id,
            "event_type": event.type, "event_summary": event.summary, "attempt": delivery.attempt,
            "status": delivery.status, "response_code": delivery.response_code, "manual": delivery.manual,
            "created_at": delivery.created_at, "next_retry_at": delivery.next_retry_at}


def _event_list(events: list[str]) -> str:
    """The subscribed types as stored, after checking each is a known type (or '*')."""
    chosen = list(dict.fromkeys(e.strip() for e in events if e.strip()))
    if not chosen:
        raise ToolError("events must name at least one event type, or ['*'] for every type")
    unknown = [e for e in chosen if e != "*" and e not in EVENT_TYPES]
    if unknown:
        raise ToolError(f"Unknown event types {unknown}; known types: {', '.join(EVENT_TYPES)}, or '*' for all")
    return "*" if "*" in chosen else ",".join(chosen)


def _canonical(args: dict) -> str:
    return json.dumps(args, sort_keys=True, default=str)
