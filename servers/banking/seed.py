"""The seed recipe: 40 customers with two months of banking history before the frozen "now".

Every account's history is replayed in time order through `Account.post`, so each balance is
exactly the sum of its ledger entries, and debits that the balance cannot cover are skipped.
Accounts opened before the history window start with a "Balance brought forward" entry.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from prove_env.world import SeedContext

from .models import Account, Card, Customer, ExchangeRate, Payee, Payment, Transaction, Transfer

N_CUSTOMERS = 40
HISTORY_DAYS = 60

CURRENCIES = (
    ("USD", "US dollar", 1.0), ("EUR", "Euro", 0.92), ("GBP", "British pound", 0.79),
    ("JPY", "Japanese yen", 151.2), ("CAD", "Canadian dollar", 1.37), ("MXN", "Mexican peso", 17.1),
    ("CHF", "Swiss franc", 0.88), ("AUD", "Australian dollar", 1.52), ("INR", "Indian rupee", 83.4),
    ("CNY", "Chinese yuan", 7.24),
)

# category -> (merchants, lowest amount, highest amount)
MERCHANTS: dict[str, tuple[tuple[str, ...], float, float]] = {
    "groceries": (("Whole Foods Market", "Trader Joe's", "Safeway", "Kroger", "Costco Wholesale"), 18, 240),
    "dining": (("Chipotle", "Starbucks", "Olive Garden", "Sweetgreen", "Panera Bread", "Shake Shack"), 6, 95),
    "transport": (("Shell", "Chevron", "Uber", "Lyft", "Exxon Mobil"), 12, 85),
    "shopping": (("Amazon.com", "Target", "Best Buy", "Home Depot", "IKEA"), 15, 480),
    "entertainment": (("Netflix", "Spotify", "AMC Theatres", "Steam Games"), 9, 70),
    "travel": (("Delta Air Lines", "United Airlines", "Marriott Hotels", "Airbnb"), 120, 1400),
    "health": (("CVS Pharmacy", "Walgreens", "Planet Fitness"), 10, 120),
}
CARD_CATEGORIES = ("groceries",) * 4 + ("dining",) * 4 + ("transport",) * 3 + ("shopping",) * 3 + \
    ("entertainment",) * 2 + ("travel", "health", "health")

# (name, category, lowest monthly bill, highest monthly bill)
BILLERS = (
    ("Pacific Gas & Electric", "utilities", 60, 220), ("Con Edison", "utilities", 70, 260),
    ("Comcast Xfinity", "utilities", 55, 140), ("Verizon Wireless", "phone", 45, 180),
    ("T-Mobile", "phone", 40, 150), ("State Farm Insurance", "insurance", 90, 310),
    ("GEICO", "insurance", 80, 260), ("Oakwood Property Management", "rent", 1100, 2600),
    ("Greystar Apartments", "rent", 1200, 2900),
)
BANKS = (
    ("Chase", "021000021"), ("Bank of America", "026009593"), ("Wells Fargo", "121000248"),
    ("Citibank", "021000089"), ("US Bank", "091000022"), ("PNC Bank", "043000096"),
    ("Capital One", "051405515"),
)
FROZEN_REASONS = ("Suspected fraud under review", "Legal hold", "Identity verification pending")


def seed(ctx: SeedContext) -> None:
    for code, name, rate in CURRENCIES:
        per_usd = rate if code == "USD" else round(rate * ctx.rng.uniform(0.98, 1.02), 4)
        ctx.add(ExchangeRate(currency=code, name=name, per_usd=per_usd))
    numbers: set[str] = set()
    for _ in range(N_CUSTOMERS):
        _Household(ctx, _customer(ctx), numbers).live()


def _customer(ctx: SeedContext) -> Customer:
    first, last = ctx.person_name()
    domain = ctx.rng.choice(["gmail.com", "yahoo.com", "outlook.com", "icloud.com", "proton.me"])
    customer = Customer(
        id=ctx.new_id("CUS"),
        first_name=first,
        last_name=last,
        email=f"{first.lower()}.{last.lower()}{ctx.rng.randint(1, 99)}@{domain}",
        phone=ctx.fake.numerify("(%##) %##-####"),
        date_of_birth=ctx.now.date() - dt.timedelta(days=ctx.rng.randint(19 * 365, 82 * 365)),
        street=ctx.fake.street_address(),
        city=ctx.fake.city(),
        state=ctx.fake.state_abbr(include_territories=False, include_freely_associated_states=False),
        zip_code=ctx.fake.zipcode(),
        pin=f"{ctx.rng.randrange(10000):04d}",
        member_since=ctx.moment(-3000, -90),
    )
    ctx.add(customer)
    return customer


class _Household:
    """One customer's accounts, cards, payees and the events of their recent history."""

    def __init__(self, ctx: SeedContext, customer: Customer, numbers: set[str]) -> None:
        self.ctx = ctx
        self.rng = ctx.rng
        self.customer = customer
        self.numbers = numbers
        self.window_start = (ctx.now - dt.timedelta(days=HISTORY_DAYS)).replace(hour=0, minute=0)
        self.events: list[tuple[dt.datetime, int, Callable[[dt.datetime], None]]] = []

    # -- setup ----------------------------------------------------------------------------------

    def live(self) -> None:
        rng = self.rng
        self.checking = self._account("checking", opened=self.customer.member_since, start=rng.choice([
            round(rng.uniform(3, 120), 2),  # nearly empty
            round(rng.uniform(400, 3000), 2),
            round(rng.uniform(1500, 9000), 2),
        ]))
        self.savings = self._account("savings", opened=self._opened(), start=round(rng.uniform(50, 40000), 2)) \
            if rng.random() < 0.7 else None
        self.credit = self._account("credit", opened=self._opened(), start=0.0) if rng.random() < 0.45 else None
        if self.credit is not None and self.credit.opened_at < self.window_start:
            owed = round(rng.uniform(0, 0.5) * self.credit.credit_limit, 2)  # type: ignore[operator]
            if owed:
                self._post(self.credit, self.window_start, "balance_forward", "other", "Balance brought forward", -owed)
        self.debit_card = self._card(self.checking, "debit")
        self.credit_card = self._card(self.credit, "credit") if self.credit else None
        if rng.random() < 0.15:
            self._closed_account()
        self._payees()
        self._history()
        for when, _, event in sorted(self.events, key=lambda e: (e[0], e[1])):
            event(when)
        self._freeze_some()
        self._scheduled_payments()

    def _account_number(self) -> str:
        while True:
            number = str(self.rng.randrange(10**9, 10**10))
            if number not in self.numbers:
                self.numbers.add(number)
                return number

    def _opened(self) -> dt.datetime:
        return max(self.ctx.moment(-2900, -20), self.customer.member_since)

    def _account(self, kind: str, opened: dt.datetime, start: float) -> Account:
        rng = self.rng
        account = Account(
            id=self.ctx.new_id("ACC"),
            customer_id=self.customer.id,
            kind=kind,
            nickname=rng.choice([None, None, {"checking": "Everyday", "savings": "Rainy day fund",
                                              "credit": "Rewards card"}[kind]]),
            account_number=self._account_number(),
            currency="USD",
            balance=0.0,
            credit_limit=float(rng.choice([2000, 3500, 5000, 7500, 10000, 15000])) if kind == "credit" else None,
            interest_rate={"checking": 0.01, "savings": rng.choice([3.5, 3.75, 4.0, 4.25]),
                           "credit": rng.choice([19.99, 22.49, 24.99, 27.99])}[kind],
            status="open",
            status_reason=None,
            opened_at=opened,
            closed_at=None,
        )
        self.ctx.add(account)
        if start > 0:
            if opened < self.window_start:
                self._post(account, self.window_start, "balance_forward", "other", "Balance brought forward", start)
            else:
                self._post(account, opened, "deposit", "deposit", "Opening deposit", start)
        return account

    def _card(self, account: Account, kind: str) -> Card:
        rng = self.rng
        limit = rng.choice([500, 1000, 1500, 2000, 2500]) if kind == "debit" else \
            min(account.credit_limit or 0, rng.choice([1000, 2500, 5000]))
        card = Card(
            id=self.ctx.new_id("CRD"),
            account_id=account.id,
            kind=kind,
            network=rng.choice(["Visa", "Mastercard"]),
            last4=f"{rng.randrange(10000):04d}",
            expires=dt.date(self.ctx.now.year + rng.randint(1, 4), rng.randint(1, 12), 1),
            status="active",
            daily_limit=float(limit),
            issued_at=max(account.opened_at, self.ctx.moment(-900, -30)),
        )
        self.ctx.add(card)
        return card

    def _closed_account(self) -> None:
        rng = self.rng
        kind = rng.choice(["checking", "savings"])
        opened = max(self.customer.member_since, self.ctx.moment(-2900, -800))
        closed = self.ctx.moment(-700, -HISTORY_DAYS - 5)
        if opened >= closed:
            return
        account = Account(
            id=self.ctx.new_id("ACC"), customer_id=self.customer.id, kind=kind, nickname=None,
            account_number=self._account_number(), currency="USD", balance=0.0, credit_limit=None,
            interest_rate=0.01 if kind == "checking" else 2.5, status="closed",
            status_reason="Closed at customer's request", opened_at=opened, closed_at=closed,
        )
        self.ctx.add(account)
        amount = round(rng.uniform(100, 5000), 2)
        self._post(account, opened, "deposit", "deposit", "Opening deposit", amount)
        self._post(account, closed, "withdrawal", "cash", "Account closure payout", -amount)
        if kind == "checking":
            card = self._card(account, "debit")
            card.status = "cancelled"

    def _payees(self) -> None:
        rng = self.rng
        self.bills: list[tuple[Payee, float, float]] = []
        self.payees: list[Payee] = []
        for name, category, low, high in rng.sample(BILLERS, rng.randint(0, 3)):
            if category == "rent" and any(p.category == "rent" for p in self.payees):
                continue
            payee = self._payee(name, category)
            self.bills.append((payee, low, high))
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            self._payee(self.ctx.fake.name(), "personal", nickname=rng.choice([None, "Mom", "Landscaper", "Tutor"]))

    def _payee(self, name: str, category: str, nickname: str | None = None) -> Payee:
        bank, routing = self.rng.choice(BANKS)
        payee = Payee(
            id=self.ctx.new_id("PAY"), customer_id=self.customer.id, name=name, nickname=nickname,
            category=category, bank_name=bank, account_number=str(self.rng.randrange(10**7, 10**12)),
            routing_number=routing, added_at=max(self.customer.member_since, self.ctx.moment(-800, -HISTORY_DAYS)),
            removed_at=None,
        )
        self.ctx.add(payee)
        self.payees.append(payee)
        return payee

    # -- history --------------------------------------------------------------------------------

    def _at(self, when: dt.datetime, event: Callable[[dt.datetime], None], *accounts: Account) -> None:
        """Schedule a history event, if it falls in the window and after its accounts were opened."""
        if self.window_start <= when < self.ctx.now and all(a.opened_at <= when for a in accounts):
            self.events.append((when, len(self.events), event))

    def _history(self) -> None:
        rng, ctx = self.rng, self.ctx
        if rng.random() < 0.75:  # employed: paid every two weeks
            employer = ctx.fake.company()
            pay = round(rng.uniform(1100, 4200), 2)
            first = self.window_start + dt.timedelta(days=rng.randint(0, 13), hours=6)
            for i in range(HISTORY_DAYS // 14 + 1):
                self._at(first + dt.timedelta(days=14 * i), lambda t, e=employer, p=pay: self._deposit(t, e, p))
        for _ in range(rng.randint(2, 7)):
            self._at(ctx.moment(-HISTORY_DAYS, -0.1), lambda t: self._purchase(t, self.debit_card, self.checking))
        if self.credit is not None and self.credit_card is not None:
            for _ in range(rng.randint(2, 7)):
                self._at(ctx.moment(-HISTORY_DAYS, -0.1), lambda t: self._purchase(t, self.credit_card, self.credit),
                         self.credit)
            self._at(ctx.moment(-40, -5), self._pay_credit, self.credit)
        for _ in range(rng.choice([0, 0, 1, 2])):
            self._at(ctx.moment(-HISTORY_DAYS, -0.1), self._atm)
        if self.savings is not None:
            for _ in range(rng.choice([0, 1, 1, 2])):
                self._at(ctx.moment(-HISTORY_DAYS, -0.1), self._save, self.savings)
            month = self.window_start.replace(day=1, hour=3)
            for _ in range(3):
                month = (month + dt.timedelta(days=32)).replace(day=1)
                self._at(month, self._interest, self.savings)
        for payee, low, high in self.bills:
            amount = round(rng.uniform(low, high), 2)
            day = rng.randint(1, 28)
            for back in range(3):
                when = (ctx.now - dt.timedelta(days=30 * back)).replace(day=day, hour=8, minute=0)
                jitter = amount if payee.category == "rent" else round(amount * rng.uniform(0.85, 1.15), 2)
                self._at(when, lambda t, p=payee, a=jitter: self._bill(t, p, a))
        if rng.random() < 0.25:
            self._at(ctx.moment(-HISTORY_DAYS, -0.1), lambda t: self._fee(t, "Monthly maintenance fee", 12.0))
        if rng.random() < 0.15:
            self._at(ctx.moment(-HISTORY_DAYS, -0.1), self._refund)

    def _post(self, account: Account, when: dt.datetime, kind: str, category: str, description: str,
              amount: float, **refs: str | None) -> Transaction:
        entry = account.post(self.ctx.new_id("TXN", 5), when, kind, category, description, amount, **refs)
        self.ctx.add(entry)
        return entry

    def _deposit(self, when: dt.datetime, employer: str, amount: float) -> None:
        self._post(self.checking, when, "deposit", "income", f"Payroll - {employer}", amount)

    def _purchase(self, when: dt.datetime, card: Card, account: Account) -> None:
        category = self.rng.choice(CARD_CATEGORIES)
        merchants, low, high = MERCHANTS[category]
        amount = round(self.rng.uniform(low, min(high, card.daily_limit)), 2)
        if self._available(account) >= amount:
            self._post(account, when, "card_purchase", category, self.rng.choice(merchants), -amount, card_id=card.id)

    def _atm(self, when: dt.datetime) -> None:
        amount = float(20 * self.rng.randint(1, 15))
        if self.checking.balance >= amount:
            self._post(self.checking, when, "withdrawal", "cash", "ATM withdrawal", -amount, card_id=self.debit_card.id)

    def _fee(self, when: dt.datetime, description: str, amount: float) -> None:
        if self.checking.balance >= amount:
            self._post(self.checking, when, "fee", "fees", description, -amount)

    def _refund(self, when: dt.datetime) -> None:
        merchants, _, high = MERCHANTS["shopping"]
        self._post(self.checking, when, "refund", "shopping", f"Refund - {self.rng.choice(merchants)}",
                   round(self.rng.uniform(10, high / 2), 2))

    def _interest(self, when: dt.datetime) -> None:
        assert self.savings is not None
        interest = round(self.savings.balance * self.savings.interest_rate / 1200, 2)
        if interest >= 0.01:
            self._post(self.savings, when, "interest", "interest", "Interest payment", interest)

    def _save(self, when: dt.datetime) -> None:
        assert self.savings is not None
        amount = float(self.rng.choice([50, 100, 200, 250, 500, 1000]))
        self._transfer(when, self.checking, self.savings, amount, self.rng.choice([None, "Savings", "Emergency fund"]))

    def _pay_credit(self, when: dt.datetime) -> None:
        assert self.credit is not None
        owed = -self.credit.balance
        amount = round(owed * self.rng.choice([0.25, 0.5, 1.0]), 2)
        self._transfer(when, self.checking, self.credit, amount, "Card payment")

    def _transfer(self, when: dt.datetime, source: Account, target: Account, amount: float, memo: str | None) -> None:
        if amount <= 0 or source.balance < amount:
            return
        transfer = Transfer(id=self.ctx.new_id("TRF"), from_account_id=source.id, to_account_id=target.id,
                            amount=amount, memo=memo, created_at=when)
        self.ctx.add(transfer)
        self._post(source, when, "transfer_out", "transfer", f"Transfer to {_label(target)}", -amount,
                   transfer_id=transfer.id, memo=memo)
        self._post(target, when, "transfer_in", "transfer", f"Transfer from {_label(source)}", amount,
                   transfer_id=transfer.id, memo=memo)

    def _bill(self, when: dt.datetime, payee: Payee, amount: float) -> None:
        if self.checking.balance < amount:
            return
        payment = Payment(
            id=self.ctx.new_id("PMT"), account_id=self.checking.id, payee_id=payee.id, amount=amount, memo=None,
            frequency="once", scheduled_for=when.date(), status="completed", created_at=when,
            executed_at=when, cancelled_at=None,
        )
        self.ctx.add(payment)
        self._post(self.checking, when, "bill_payment", payee.category, f"Payment to {payee.name}", -amount,
                   payment_id=payment.id)

    def _available(self, account: Account) -> float:
        return account.balance + (account.credit_limit or 0.0)

    # -- the present ----------------------------------------------------------------------------

    def _freeze_some(self) -> None:
        rng = self.rng
        if rng.random() < 0.06:
            self.checking.status = "frozen"
            self.checking.status_reason = rng.choice(FROZEN_REASONS)
            self.debit_card.status = "frozen"
        for card in (self.debit_card, self.credit_card):
            if card is not None and rng.random() < 0.12:
                card.status = "frozen"

    def _scheduled_payments(self) -> None:
        rng = self.rng
        for payee in self.payees:
            roll = rng.random()
            if roll > 0.45:
                continue
            amount = round(rng.uniform(25, 400), 2)
            payment = Payment(
                id=self.ctx.new_id("PMT"), account_id=self.checking.id, payee_id=payee.id, amount=amount,
                memo=rng.choice([None, "Monthly", "Thanks!"]), frequency=rng.choice(["once", "monthly", "weekly"]),
                scheduled_for=self.ctx.now.date() + dt.timedelta(days=rng.randint(1, 40)),
                status="scheduled" if roll > 0.08 else "cancelled",
                created_at=self.ctx.moment(-20, -1), executed_at=None, cancelled_at=None,
            )
            if payment.status == "cancelled":
                payment.cancelled_at = self.ctx.moment(-1, -0.1)
            self.ctx.add(payment)


def _label(account: Account) -> str:
    return f"{account.kind} ...{account.account_number[-4:]}"
