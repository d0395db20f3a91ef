"""The seed: a payments platform with three merchants. Northwind Studio (a small design and web
agency) has 36 customers, their saved cards, about seven months of invoices, card payments and
refunds, four webhook endpoints, and the event log and webhook deliveries that history wrote; Harbor
Yoga (a Canadian studio) and Copper Kettle Catering (a British caterer) come after it, smaller, with
their own catalogs, currencies, invoice numbers and endpoints. A few people are customers of two
merchants, under the same name and email, with cards saved at each.

Each customer's history is played forward in time (invoice created, items added, finalized, card
authorised, captured, refunded), and every step is logged as an event with a delivery record for
every endpoint subscribed to its type, so the log always agrees with the objects. Edge cases are
deliberate: customers without a card, expired cards and cards the issuer declines, overdue invoices,
authorisations older than the 7 days a hold lasts, partly paid invoices, fully and partly refunded
payments, a disabled endpoint, and an endpoint whose deliveries sometimes fail.

Webhook deliveries follow the clock: a failed attempt is retried on the back-off schedule
(`RETRY_AFTER`) for about three days, each retry the clock has passed is on record, and one the clock
has not reached yet is the failed attempt's `next_retry_at`. An endpoint that answers 410 Gone is
not retried, and a disabled endpoint gets no more retries. Harbor Yoga's booking system has been
down since yesterday (its deliveries are failing and retrying), and Copper Kettle's accounting sync
was rejecting every delivery before it was disabled.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from prove_env.world import SeedContext

from collections.abc import Callable

from .models import Card, Customer, Delivery, Event, Invoice, LineItem, Merchant, Payment, Refund, WebhookEndpoint

N_CUSTOMERS = 36
FIRST_NUMBER = 1001
NUMBER_PREFIX = "NW"
AUTHORIZATION_DAYS = 7

# what the studio sells: (description, unit price in USD, most units on one line)
CATALOG = (
    ("Website maintenance", 450.0, 1), ("Logo design", 1200.0, 1), ("Consulting hour", 150.0, 12),
    ("Hosting (monthly)", 29.0, 12), ("SEO audit", 800.0, 1), ("Copywriting, per page", 120.0, 8),
    ("Photography session", 600.0, 2), ("Domain renewal", 18.0, 3), ("Support plan (monthly)", 99.0, 6),
    ("Brand workshop", 950.0, 1), ("Landing page build", 1500.0, 1), ("Newsletter template", 350.0, 2),
)
# a price in another currency: the USD price times this, rounded to a whole unit
CURRENCIES = {"USD": 1.0, "EUR": 0.92, "GBP": 0.79, "CAD": 1.37}
CURRENCY_WEIGHTS = (("USD", 58), ("EUR", 16), ("GBP", 16), ("CAD", 10))
PROJECTS = ("Spring website refresh", "Brand identity", "Monthly retainer", "Product launch", "Online shop setup",
            "Annual hosting", "Photo shoot", "Newsletter redesign", "SEO push", "Conference materials",
            "Menu and signage", "Portfolio site", "Blog content", "Trade show booth", "App landing page")
BRANDS = (("visa", "4"), ("visa", "4"), ("mastercard", "5"), ("amex", "3"), ("discover", "6"))
DECLINES = ("insufficient_funds", "do_not_honor", "card_velocity_exceeded")

ENDPOINTS = (
    ("https://hooks.northwind.studio/payments", "Accounting sync", "*", True),
    ("https://api.ledgerly.io/webhooks/nw-4821", "Ledgerly bookkeeping", "invoice.paid,invoice.voided,refund.created",
     True),
    ("https://hooks.slack.com/services/T04NW/B2SALES/alerts", "Slack #sales alerts", "payment.captured,refund.created",
     True),
    ("https://crm-old.northwind.studio/hooks/stripe", "Old CRM (retired)", "customer.created,invoice.created,invoice.paid",
     False),
)
FLAKY = "https://api.ledgerly.io/webhooks/nw-4821"
RETIRED_DAYS = 45

# the merchant: (name, invoice prefix, email, country, currency, the currencies it bills in)
NORTHWIND = ("Northwind Studio", NUMBER_PREFIX, "billing@northwind.studio", "United States", "USD", "USD,EUR,GBP,CAD")

# After a failed attempt, the next one comes this much later; after the last, no more (about 3 days).
RETRY_AFTER = tuple(dt.timedelta(hours=h) for h in (1, 2, 4, 8, 12, 24, 24))
MAX_ATTEMPTS = len(RETRY_AFTER) + 1
GONE = 410  # the endpoint says it is gone: no automatic retry
RESEND_DAYS = 30  # an event can be resent by hand for this long


@dataclass(frozen=True)
class Shop:
    """A merchant after Northwind: who it is, what it sells (USD prices, billed in its currencies),
    what its invoices are for, and its webhook endpoints."""

    merchant: tuple[str, str, str, str, str, str]
    customers: int
    currency_weights: tuple[tuple[str, int], ...]
    catalog: tuple[tuple[str, float, int], ...]
    projects: tuple[str, ...]
    # (url, description, events, how it answers: 'ok', 'flaky', 'down' (since a day and a bit ago) or
    #  'rejecting' (401 for its last days before it was disabled, 10 days ago))
    endpoints: tuple[tuple[str, str, str, str], ...]
    shared: int  # Northwind customers who are its customers too


SHOPS = (
    Shop(("Harbor Yoga", "HY", "hello@harboryoga.ca", "Canada", "CAD", "CAD,USD"), 14,
         (("CAD", 80), ("USD", 20)),
         (("Monthly membership", 102.0, 3), ("10-class pass", 139.0, 2), ("Drop-in class", 18.0, 6),
          ("Private session", 70.0, 4), ("Weekend workshop", 131.0, 2), ("Teacher training deposit", 438.0, 1),
          ("Mat and towel rental", 5.0, 10)),
         ("Winter membership", "Spring workshop series", "Private sessions", "Corporate wellness classes",
          "Retreat deposit", "Teacher training", "Class pass top-up"),
         (("https://studio.harboryoga.ca/api/payment-hooks", "Studio booking system", "*", "down"),
          ("https://hooks.zapier.com/hooks/catch/77120/hyoga", "Zapier mailing list", "customer.created,invoice.paid",
           "ok")),
         3),
    Shop(("Copper Kettle Catering", "CK", "orders@copperkettle.co.uk", "United Kingdom", "GBP", "GBP,EUR"), 12,
         (("GBP", 75), ("EUR", 25)),
         (("Catering, per guest", 46.0, 60), ("Event staff, per hour", 38.0, 24), ("Delivery and setup", 63.0, 1),
          ("Celebration cake", 114.0, 2), ("Equipment hire", 190.0, 1), ("Tasting session", 152.0, 1)),
         ("Wedding reception", "Office lunch", "Birthday party", "Charity gala", "Christmas party",
          "Product launch buffet"),
         (("https://kitchen.copperkettle.co.uk/webhooks/orders", "Kitchen orders", "invoice.finalized,invoice.paid",
           "flaky"),
          ("https://accounts.copperkettle.co.uk/sync/payments", "Accounts sync", "*", "rejecting")),
         2),
)
DOWN_HOURS = 30  # how long Harbor Yoga's booking system has been down
DISABLED_DAYS = 10  # when Copper Kettle's accounts sync was switched off, after rejecting deliveries for 2 days


def subscribed(endpoint: WebhookEndpoint, event_type: str) -> bool:
    """Whether an enabled endpoint receives events of this type."""
    return endpoint.enabled and (endpoint.events == "*" or event_type in endpoint.events.split(","))


@dataclass
class _History:
    """Events gathered while the seed plays history forward; written at the end in time order."""

    ctx: SeedContext
    merchant_id: str
    events: list[tuple[dt.datetime, int, dict]] = field(default_factory=list)
    # Northwind's failed deliveries the write left to the retry schedule, with their endpoint
    unretried: list[tuple[Delivery, WebhookEndpoint]] = field(default_factory=list)

    def log(self, when: dt.datetime, type_: str, summary: str, object_id: str, *, customer_id: str | None = None,
            invoice_id: str | None = None, payment_id: str | None = None, amount: float | None = None) -> None:
        self.events.append((when, len(self.events), dict(type=type_, summary=summary, object_id=object_id,
                                                          customer_id=customer_id, invoice_id=invoice_id,
                                                          payment_id=payment_id, amount=amount,
                                                          merchant_id=self.merchant_id)))

    def write(self, endpoints: list[WebhookEndpoint]) -> None:
        """Northwind's log: the retired CRM answered 410 Gone, the Ledgerly endpoint fails one delivery
        in four, and half of those went through on the retry an hour later."""
        ctx = self.ctx
        retired = ctx.now - dt.timedelta(days=RETIRED_DAYS)  # when the old CRM endpoint was switched off
        for when, _, row in sorted(self.events, key=lambda e: (e[0], e[1])):
            event = Event(id=ctx.new_id("EVT", 5), created_at=when, **row)
            ctx.add(event)
            for endpoint in endpoints:
                retired_one = not endpoint.enabled
                if retired_one:
                    subscribed_then = row["type"] in endpoint.events.split(",") and when < retired
                else:
                    subscribed_then = subscribed(endpoint, row["type"])
                if not subscribed_then:
                    continue
                if retired_one:
                    ctx.add(Delivery(id=ctx.new_id("DLV", 5), event_id=event.id, endpoint_id=endpoint.id, attempt=1,
                                     status="failed", response_code=410, created_at=when))
                    continue
                failed = endpoint.url == FLAKY and ctx.rng.random() < 0.25
                first = Delivery(id=ctx.new_id("DLV", 5), event_id=event.id, endpoint_id=endpoint.id, attempt=1,
                                 status="failed" if failed else "succeeded",
                                 response_code=ctx.rng.choice([500, 502, 503, 504]) if failed else 200,
                                 created_at=when)
                ctx.add(first)
                if failed and ctx.rng.random() < 0.5:  # retried an hour later: it went through
                    retry_id = ctx.new_id("DLV", 5)
                    if when + RETRY_AFTER[0] <= ctx.now:
                        ctx.add(Delivery(id=retry_id, event_id=event.id, endpoint_id=endpoint.id, attempt=2,
                                         status="succeeded", response_code=200, created_at=when + RETRY_AFTER[0]))
                    else:  # the clock has not reached the retry yet
                        first.next_retry_at = when + RETRY_AFTER[0]
                elif failed:
                    self.unretried.append((first, endpoint))


def seed(ctx: SeedContext) -> None:
    northwind = _merchant(ctx, NORTHWIND, ctx.now - dt.timedelta(days=820))
    history = _History(ctx, northwind.id)
    endpoints = []
    for url, description, events, enabled in ENDPOINTS:
        endpoint = WebhookEndpoint(id=ctx.new_id("WHE"), merchant_id=northwind.id, url=url, description=description,
                                   events=events, enabled=enabled, created_at=ctx.moment(-800, -760))
        ctx.add(endpoint)
        endpoints.append(endpoint)
        history.log(endpoint.created_at, "webhook_endpoint.created", f"Webhook endpoint {url} created", endpoint.id)
        if not enabled:
            history.log(ctx.now - dt.timedelta(days=RETIRED_DAYS), "webhook_endpoint.updated",
                        f"Webhook endpoint {url} updated: disabled", endpoint.id)
    numbers = iter(range(FIRST_NUMBER, FIRST_NUMBER + 10_000))
    accounts = []
    for _ in range(N_CUSTOMERS):
        accounts.append(_Account(ctx, history, numbers, northwind))
        accounts[-1].live()
    history.write(endpoints)
    # the failures Ledgerly did not take on the hour's retry: retried on the schedule, one try in four
    # going through (some are given up after the last)
    rng = ctx.rng
    for delivery, endpoint in history.unretried:
        code = delivery.response_code
        _retry(ctx, delivery, endpoint, lambda at, code=code: 200 if rng.random() < 0.25 else code)
    for shop in SHOPS:
        _Shop(ctx, shop, [a for a in accounts if a.cards]).play()


def _merchant(ctx: SeedContext, spec: tuple[str, str, str, str, str, str], since: dt.datetime) -> Merchant:
    name, prefix, email, country, currency, currencies = spec
    merchant = Merchant(id=ctx.new_id("MER"), name=name, invoice_prefix=prefix, email=email, country=country,
                        currency=currency, currencies=currencies, created_at=since)
    ctx.add(merchant)
    return merchant


def _retry(ctx: SeedContext, delivery: Delivery, endpoint: WebhookEndpoint, answer: Callable[[dt.datetime], int],
           disabled_at: dt.datetime | None = None) -> None:
    """The automatic retries of a failed delivery, on the schedule: each one the clock has passed is on
    record with the endpoint's answer, until one goes through, the endpoint answers 410 Gone, the last
    attempt fails, or the endpoint is disabled; a retry the clock has not reached is `next_retry_at`."""
    last = delivery
    while last.status == "failed" and last.response_code != GONE and last.attempt < MAX_ATTEMPTS:
        at = last.created_at + RETRY_AFTER[last.attempt - 1]
        if disabled_at is not None and at >= disabled_at:
            return
        if at > ctx.now:
            last.next_retry_at = at
            return
        code = answer(at)
        last = Delivery(id=ctx.new_id("DLV", 5), event_id=last.event_id, endpoint_id=endpoint.id,
                        attempt=last.attempt + 1, status="succeeded" if code < 300 else "failed", response_code=code,
                        created_at=at)
        ctx.add(last)


class _Shop:
    """A merchant after Northwind, its customers (some of them Northwind's too) and their history,
    then its event log and webhook deliveries."""

    def __init__(self, ctx: SeedContext, shop: Shop, northwind: list[_Account]) -> None:
        self.ctx, self.shop, self.northwind = ctx, shop, northwind
        self.rng = ctx.rng

    def play(self) -> None:
        ctx, rng, shop = self.ctx, self.rng, self.shop
        merchant = _merchant(ctx, shop.merchant, ctx.moment(-760, -500))
        history = _History(ctx, merchant.id)
        endpoints = []
        for url, description, events, behaviour in shop.endpoints:
            endpoint = WebhookEndpoint(id=ctx.new_id("WHE"), merchant_id=merchant.id, url=url,
                                       description=description, events=events, enabled=behaviour != "rejecting",
                                       created_at=ctx.moment(-480, -400))
            ctx.add(endpoint)
            endpoints.append((endpoint, behaviour))
            history.log(endpoint.created_at, "webhook_endpoint.created", f"Webhook endpoint {url} created", endpoint.id)
            if behaviour == "rejecting":
                history.log(ctx.now - dt.timedelta(days=DISABLED_DAYS), "webhook_endpoint.updated",
                            f"Webhook endpoint {url} updated: disabled", endpoint.id)
        numbers = iter(range(FIRST_NUMBER, FIRST_NUMBER + 10_000))
        twins = rng.sample(self.northwind, shop.shared)
        people = [None] * (shop.customers - shop.shared) + twins
        rng.shuffle(people)
        for twin in people:
            _Account(ctx, history, numbers, merchant, shop, twin).live()
        self._write(history, endpoints)

    def _write(self, history: _History, endpoints: list[tuple[WebhookEndpoint, str]]) -> None:
        ctx, rng = self.ctx, self.rng
        down = ctx.now - dt.timedelta(hours=DOWN_HOURS)
        disabled = ctx.now - dt.timedelta(days=DISABLED_DAYS)
        rejecting = disabled - dt.timedelta(days=2)

        def answer(behaviour: str, at: dt.datetime, retry: bool) -> int:
            if behaviour == "down":
                return 503 if at >= down else 200
            if behaviour == "rejecting":
                return 401 if at >= rejecting else 200
            if behaviour == "flaky" and rng.random() < (0.4 if retry else 0.2):
                return rng.choice([500, 502, 504])
            return 200

        for when, _, row in sorted(history.events, key=lambda e: (e[0], e[1])):
            event = Event(id=ctx.new_id("EVT", 5), created_at=when, **row)
            ctx.add(event)
            for endpoint, behaviour in endpoints:
                wanted = endpoint.events == "*" or row["type"] in endpoint.events.split(",")
                if when < endpoint.created_at or not wanted:
                    continue
                off = disabled if behaviour == "rejecting" else None
                if off is not None and when >= off:
                    continue
                code = answer(behaviour, when, False)
                first = Delivery(id=ctx.new_id("DLV", 5), event_id=event.id, endpoint_id=endpoint.id, attempt=1,
                                 status="succeeded" if code < 300 else "failed", response_code=code, created_at=when)
                ctx.add(first)
                _retry(ctx, first, endpoint, lambda at, b=behaviour: answer(b, at, True), off)


def price(usd: float, currency: str) -> float:
    """A catalog price in the invoice's currency."""
    return usd if currency == "USD" else float(round(usd * CURRENCIES[currency]))


class _Account:
    """One customer of a merchant, their cards, and their invoices played forward. A `twin` is the same
    person's account at Northwind: the same name and email, and their first card saved again."""

    def __init__(self, ctx: SeedContext, history: _History, numbers, merchant: Merchant, shop: Shop | None = None,
                 twin: _Account | None = None) -> None:
        self.ctx, self.history, self.numbers, self.merchant = ctx, history, numbers, merchant
        self.prefix = shop.merchant[1] if shop else NUMBER_PREFIX
        self.catalog = shop.catalog if shop else CATALOG
        self.projects = shop.projects if shop else PROJECTS
        self.twin = twin
        weights = shop.currency_weights if shop else CURRENCY_WEIGHTS
        rng = ctx.rng
        if twin is None:
            first, last = ctx.person_name()
        currency = rng.choices([c for c, _ in weights], weights=[w for _, w in weights])[0]
        domain = rng.choice(["gmail.com", "outlook.com", "icloud.com", "proton.me", "yahoo.com"])
        self.since = ctx.moment(-720, -60)
        if shop is not None:  # a customer of a merchant that joined the platform later
            self.since = max(self.since, merchant.created_at + dt.timedelta(days=1))
        if twin is not None:
            name, email = twin.customer.name, twin.customer.email
        else:
            name, email = f"{first} {last}", f"{first.lower()}.{last.lower()}@{domain}"
        self.customer = Customer(id=ctx.new_id("CUS"), merchant_id=merchant.id, name=name, email=email,
                                 phone=ctx.fake.numerify("+1 (%##) %##-####") if rng.random() < 0.7 else None,
                                 currency=currency, default_card_id=None, created_at=self.since)
        ctx.add(self.customer)
        history.log(self.since, "customer.created", f"Customer {self.customer.name} created", self.customer.id,
                    customer_id=self.customer.id)
        self.cards = self._cards()

    def _cards(self) -> list[Card]:
        ctx, rng = self.ctx, self.ctx.rng
        cards: list[Card] = []
        count = rng.choices([0, 1, 2, 3], weights=[8, 45, 35, 12])[0]
        if self.twin is not None:
            count = max(count, 1)
        last4s: set[str] = set()
        for i in range(count):
            brand, _ = rng.choice(BRANDS)
            last4 = f"{rng.randrange(10000):04d}"
            if i == 0 and self.twin is not None:  # the card they also use at Northwind
                brand, last4 = self.twin.cards[0].brand, self.twin.cards[0].last4
            if last4 in last4s:
                continue
            last4s.add(last4)
            today = ctx.now.date()
            if i > 0 and rng.random() < 0.3:  # expired
                year, month = today.year - rng.randint(0, 1), rng.randint(1, 12)
                if (year, month) >= (today.year, today.month):
                    year -= 1
            else:
                year, month = today.year + rng.randint(1, 4), rng.randint(1, 12)
            if i == 0 and self.twin is not None:
                year, month = self.twin.cards[0].exp_year, self.twin.cards[0].exp_month
            card = Card(id=ctx.new_id("CRD"), customer_id=self.customer.id, brand=brand, last4=last4,
                        exp_month=month, exp_year=year,
                        decline_code=rng.choice(DECLINES) if i > 0 and rng.random() < 0.25 else None,
                        added_at=self.since + dt.timedelta(days=rng.randint(0, 30)))
            ctx.add(card)
            cards.append(card)
        usable = [c for c in cards if _usable(c, ctx.now.date())]
        if usable:
            self.customer.default_card_id = usable[0].id
        return cards

    def live(self) -> None:
        rng = self.ctx.rng
        good = [c for c in self.cards if _usable(c, self.ctx.now.date())]
        for _ in range(rng.choices([0, 1, 2, 3, 4, 5, 6], weights=[6, 14, 18, 20, 18, 14, 10])[0]):
            fate = rng.choices(["draft", "open", "paid", "void", "authorized", "partial"],
                               weights=[14, 20, 42, 8, 13, 4])[0]
            if fate in ("paid", "authorized", "partial") and not good:
                fate = rng.choice(["open", "draft", "void"])
            self._invoice(fate, rng.choice(good) if good else None)

    def _invoice(self, fate: str, card: Card | None) -> None:
        ctx, rng, customer, log = self.ctx, self.ctx.rng, self.customer, self.history.log
        recent = fate in ("draft", "authorized")
        created = ctx.moment(-12, -1) if recent else ctx.moment(-210, -3)
        created = max(created, self.since + dt.timedelta(days=1))
        if fate == "authorized" and rng.random() < 0.35:  # a hold older than the 7 days it lasts
            created = ctx.moment(-40, -12)
        invoice = Invoice(id=ctx.new_id("INV"), number=f"{self.prefix}-{next(self.numbers)}",
                          merchant_id=self.merchant.id, customer_id=customer.id, status="draft",
                          currency=customer.currency, description=rng.choice(self.projects), total=0.0,
                          amount_paid=0.0, created_at=created,
                          due_date=(created + dt.timedelta(days=rng.choice([14, 30, 30, 45]))).date(),
                          finalized_at=None, paid_at=None, voided_at=None)
        if fate == "draft":
            invoice.due_date = max(invoice.due_date, ctx.now.date() + dt.timedelta(days=7))
        ctx.add(invoice)
        log(created, "invoice.created", f"Invoice {invoice.number} created", invoice.id, customer_id=customer.id,
            invoice_id=invoice.id)
        used: set[str] = set()
        for _ in range(0 if fate == "draft" and rng.random() < 0.3 else rng.choices([1, 2, 3, 4], [35, 35, 20, 10])[0]):
            description, usd, most = rng.choice(self.catalog)
            if description in used:
                continue
            used.add(description)
            quantity = rng.randint(1, most)
            unit = price(usd, invoice.currency)
            item = LineItem(id=ctx.new_id("LIN"), invoice_id=invoice.id, description=description, quantity=quantity,
                            unit_amount=unit, amount=round(unit * quantity, 2))
            ctx.add(item)
            invoice.total = round(invoice.total + item.amount, 2)
            log(created, "invoice.updated", f"{description} added to invoice {invoice.number}", invoice.id,
                customer_id=customer.id, invoice_id=invoice.id, amount=item.amount)
        if fate == "draft":
            return
        finalized = created + dt.timedelta(hours=rng.randint(1, 20))
        invoice.status, invoice.finalized_at = "open", finalized
        log(finalized, "invoice.finalized", f"Invoice {invoice.number} finalized: {invoice.total:.2f} {invoice.currency}",
            invoice.id, customer_id=customer.id, invoice_id=invoice.id, amount=invoice.total)
        if fate == "open":
            return
        if fate == "void":
            voided = min(finalized + dt.timedelta(days=rng.randint(1, 10)), ctx.now - dt.timedelta(hours=2))
            invoice.status, invoice.voided_at = "void", voided
            log(voided, "invoice.voided", f"Invoice {invoice.number} voided", invoice.id, customer_id=customer.id,
                invoice_id=invoice.id)
            return
        assert card is not None
        authorized = min(finalized + dt.timedelta(hours=rng.randint(2, 24 * 12)), ctx.now - dt.timedelta(hours=1))
        payment = Payment(id=ctx.new_id("PAY"), merchant_id=self.merchant.id, invoice_id=invoice.id,
                          customer_id=customer.id, card_id=card.id,
                          currency=invoice.currency, amount=invoice.total, amount_captured=0.0, amount_refunded=0.0,
                          status="authorized", authorized_at=authorized, captured_at=None, canceled_at=None)
        ctx.add(payment)
        card_words = f"{card.brand.capitalize()} ending {card.last4}"
        log(authorized, "payment.authorized", f"{payment.amount:.2f} {payment.currency} authorised on {card_words}",
            payment.id, customer_id=customer.id, invoice_id=invoice.id, payment_id=payment.id, amount=payment.amount)
        if fate == "authorized":
            return
        captured = min(authorized + dt.timedelta(hours=rng.randint(0, 72)), ctx.now - dt.timedelta(minutes=30))
        amount = invoice.total if fate == "paid" else round(invoice.total * rng.choice([0.4, 0.5, 0.6]), 2)
        payment.amount_captured, payment.status, payment.captured_at = amount, "captured", captured
        log(captured, "payment.captured", f"{amount:.2f} {payment.currency} captured", payment.id,
            customer_id=customer.id, invoice_id=invoice.id, payment_id=payment.id, amount=amount)
        invoice.amount_paid = amount
        if fate == "partial":
            return
        invoice.status, invoice.paid_at = "paid", captured
        log(captured, "invoice.paid", f"Invoice {invoice.number} paid: {amount:.2f} {invoice.currency}", invoice.id,
            customer_id=customer.id, invoice_id=invoice.id, payment_id=payment.id, amount=amount)
        roll = rng.random()
        if roll < 0.18 and captured < ctx.now - dt.timedelta(days=2):
            whole = roll < 0.07
            refund_amount = amount if whole else round(amount * rng.choice([0.1, 0.2, 0.25, 0.5]), 2)
            when = captured + (ctx.now - captured) * rng.uniform(0.2, 0.9)
            when = when.replace(second=0, microsecond=0)
            refund = Refund(id=ctx.new_id("REF"), payment_id=payment.id, amount=refund_amount,
                            currency=payment.currency, reason=rng.choice(["requested_by_customer"] * 3 + ["duplicate"]),
                            created_at=when)
            ctx.add(refund)
            payment.amount_refunded = refund_amount
            payment.status = "refunded" if whole else "partially_refunded"
            log(when, "refund.created", f"{refund_amount:.2f} {payment.currency} refunded", refund.id,
                customer_id=customer.id, invoice_id=invoice.id, payment_id=payment.id, amount=refund_amount)


def _usable(card: Card, today: dt.date) -> bool:
    return (card.exp_year, card.exp_month) >= (today.year, today.month) and card.decline_code is None
