"""The seed: 26 people who use the budgeting app, each with 6 to 10 spending categories and
their monthly limits, about three months of expenses (the two months before "now" and the
current month to date), paychecks and side income, recurring bills and a few budget moves.

Edge cases on purpose: categories already over budget this month, categories with nothing spent
yet, archived categories with spending in an earlier month, recurring bills that are behind
(due dates up to today not posted yet) or cancelled, and two people who joined days ago with
categories but no expenses or income yet.
"""

from __future__ import annotations

import calendar
import datetime as dt

from prove_env.world import SeedContext

from .models import BudgetMonth, BudgetMove, Category, Expense, Income, RecurringExpense, User

N_USERS = 26
N_NEW_USERS = 2
METHODS = ("credit_card", "debit_card", "cash", "bank_transfer")

# name: (typical expenses a month (low, high), amount range, merchants, notes)
CATEGORIES: dict[str, tuple[tuple[int, int], tuple[float, float], tuple[str, ...], tuple[str, ...]]] = {
    "Groceries": ((4, 7), (18, 140), ("Whole Foods", "Trader Joe's", "Safeway", "Kroger", "Costco", "Aldi"),
                  ("Weekly shop", "Party supplies", "Stock-up run")),
    "Dining Out": ((3, 8), (8, 65), ("Chipotle", "Starbucks", "Olive Garden", "Sweetgreen", "Panera Bread",
                                     "Shake Shack", "Blue Bottle Coffee"), ("Lunch with team", "Date night",
                                                                           "Birthday dinner")),
    "Transport": ((2, 6), (12, 70), ("Shell", "Chevron", "Uber", "Lyft", "Clipper Card"),
                  ("Airport ride", "Fill-up")),
    "Entertainment": ((1, 4), (10, 90), ("AMC Theatres", "Ticketmaster", "Steam", "Barnes & Noble",
                                          "Bowlero"), ("Concert tickets", "Movie night")),
    "Shopping": ((1, 5), (15, 180), ("Amazon", "Target", "IKEA", "Best Buy", "Uniqlo", "REI"),
                 ("New shoes", "Kitchen stuff", "Return pending")),
    "Health": ((1, 3), (10, 90), ("CVS Pharmacy", "Walgreens", "One Medical"), ("Prescription", "Copay")),
    "Pets": ((1, 3), (15, 85), ("Petco", "Chewy", "Banfield Pet Hospital"), ("Dog food", "Vet visit")),
    "Travel": ((0, 2), (80, 420), ("Delta", "Airbnb", "Marriott", "United Airlines", "Amtrak"),
               ("Thanksgiving trip", "Weekend away")),
    "Gifts": ((0, 2), (20, 90), ("Etsy", "Amazon", "1-800-Flowers"), ("Mom's birthday", "Wedding gift")),
    "Personal Care": ((0, 2), (15, 75), ("Great Clips", "Sephora", "Ulta Beauty"), ("Haircut",)),
    "Home": ((0, 3), (20, 160), ("Home Depot", "Lowe's", "Bed Bath & Beyond", "Ace Hardware"),
             ("Paint", "Light bulbs", "Garden")),
    "Education": ((0, 1), (20, 120), ("Coursera", "Udemy", "Books Inc"), ("Online course",)),
}
ALWAYS = ("Groceries", "Dining Out")
# category: (merchant, amount, frequency, anchor day)
RECURRING = {
    "Rent": (("Greystar Apartments", None, "monthly", 1), ("Avalon Communities", None, "monthly", 1)),
    "Utilities": (("PG&E", 96.40, "monthly", 18), ("Comcast Xfinity", 79.99, "monthly", 12),
                  ("City Water", 42.15, "monthly", 22)),
    "Subscriptions": (("Netflix", 15.49, "monthly", 9), ("Spotify", 11.99, "monthly", 3),
                      ("iCloud+", 2.99, "monthly", 27), ("New York Times", 17.0, "monthly", 14)),
    "Health": (("24 Hour Fitness", 39.99, "monthly", 5),),
    "Groceries": (("Blue Apron", 59.94, "weekly", 0),),
    "Pets": (("Rover Dog Walking", 45.0, "weekly", 0),),
}
ARCHIVED = ("Wedding", "Moving Costs", "Holiday Gifts")
EMPLOYER_SUFFIX = ("Payroll",)
SIDE_INCOME = ("Freelance design", "Etsy shop sales", "Tutoring", "Tax refund", "Sold bike on Craigslist",
               "Dividends")


def month_key(d: dt.date) -> str:
    return f"{d.year:04d}-{d.month:02d}"


def month_start(d: dt.date, back: int = 0) -> dt.date:
    year, month = d.year, d.month - back
    while month < 1:
        month, year = month + 12, year - 1
    return dt.date(year, month, 1)


def add_month(d: dt.date, anchor: int) -> dt.date:
    """The same anchor day one month later, the month's last day when it is shorter."""
    year, month = (d.year + 1, 1) if d.month == 12 else (d.year, d.month + 1)
    return dt.date(year, month, min(anchor, calendar.monthrange(year, month)[1]))


def seed(ctx: SeedContext) -> None:
    _Recipe(ctx).run()


class _Recipe:
    def __init__(self, ctx: SeedContext) -> None:
        self.ctx = ctx
        self.rng = ctx.rng
        self.today = ctx.now.date()
        self.months = [month_start(self.today, back) for back in (2, 1, 0)]

    def run(self) -> None:
        for index in range(N_USERS):
            self.user(new=index >= N_USERS - N_NEW_USERS)

    def _day_in(self, start: dt.date) -> dt.date:
        last = calendar.monthrange(start.year, start.month)[1]
        if month_key(start) == month_key(self.today):
            last = self.today.day
        return start.replace(day=self.rng.randint(1, last))

    def _moment(self, day: dt.date) -> dt.datetime:
        """When something of that day was recorded: a time of day, but no later than now (today's
        entries were made this morning)."""
        moment = dt.datetime.combine(day, dt.time(self.rng.randint(7, 21), 15 * self.rng.randint(0, 3)))
        return min(moment, self.ctx.now)

    def user(self, new: bool) -> None:
        ctx, rng = self.ctx, self.rng
        first, last = ctx.person_name()
        joined = ctx.moment(-6, -1) if new else ctx.moment(-900, -120)
        user = User(id=ctx.new_id("USR"), name=f"{first} {last}", currency="USD", joined_at=joined,
                    email=f"{first.lower()}.{last.lower()}{rng.randint(1, 99)}@"
                          f"{rng.choice(['gmail.com', 'outlook.com', 'yahoo.com', 'icloud.com'])}")
        ctx.add(user)
        names = list(ALWAYS) + rng.sample([c for c in CATEGORIES if c not in ALWAYS], rng.randint(3, 6))
        bills = [c for c in RECURRING if c not in names and rng.random() < (0.55 if c != "Rent" else 0.5)]
        names += [c for c in bills if c not in names]
        names.sort(key=lambda n: (n not in ALWAYS, rng.random()))
        created = joined if new else joined + dt.timedelta(days=1)
        categories: dict[str, Category] = {}
        for name in names:
            categories[name] = Category(id=ctx.new_id("CAT"), user_id=user.id, name=name,
                                        monthly_limit=self._limit(name), status="active", created_at=created)
            ctx.add(categories[name])
        archived = None
        if not new and rng.random() < 0.25:
            name = rng.choice(ARCHIVED)
            archived = Category(id=ctx.new_id("CAT"), user_id=user.id, name=name,
                                monthly_limit=float(rng.choice([300, 500, 800])), status="archived",
                                created_at=created)
            ctx.add(archived)
        if new:
            return
        expenses: list[Expense] = []
        for name, category in categories.items():
            if name in CATEGORIES:
                expenses += self.spending(user, category, CATEGORIES[name])
        # one category in three users is already over budget this month
        if rng.random() < 0.35:
            name = rng.choice([n for n in categories if n in CATEGORIES])
            category, (_, (low, high), merchants, _notes) = categories[name], CATEGORIES[name]
            amount = round(category.monthly_limit * rng.uniform(1.05, 1.35), 2)
            expenses.append(self.expense(user, category, amount, rng.choice(merchants),
                                         self._day_in(self.months[2]), None))
        if archived is not None:
            merchants = ("The Knot", "U-Haul", "Macy's", "Zola", "Amazon")
            for _ in range(rng.randint(2, 4)):
                expenses.append(self.expense(user, archived, round(rng.uniform(40, 260), 2), rng.choice(merchants),
                                             self._day_in(self.months[0]), None))
        recurring = self.recurring(user, categories)
        for rule, occurrences in recurring:
            for day in occurrences:
                expenses.append(self.expense(user, categories_by_id(categories, rule.category_id), rule.amount,
                                             rule.merchant, day, None, method=rule.payment_method,
                                             recurring_id=rule.id))
        expenses.sort(key=lambda e: (e.spent_on, e.merchant, e.amount))
        for expense in expenses:
            expense.id = ctx.new_id("EXP", 5)
            ctx.add(expense)
        self.income(user)
        self.budget_months(user, categories, archived, expenses)

    def _limit(self, name: str) -> float:
        rng = self.rng
        if name == "Rent":
            return float(rng.randrange(1400, 3200, 50))
        if name in RECURRING and name not in CATEGORIES:
            return float(rng.choice([60, 80, 100, 150, 200, 250]))
        (low, high), (a, b), _, _ = CATEGORIES[name]
        typical = ((low + high) / 2 + 0.5) * (a + b) / 2
        step = 10 if typical < 200 else 25 if typical < 600 else 50
        return float(max(step, round(typical * rng.uniform(0.95, 1.6) / step) * step))

    def expense(self, user: User, category: Category, amount: float, merchant: str, day: dt.date,
                note: str | None, method: str | None = None, recurring_id: str | None = None) -> Expense:
        method = method or self.rng.choices(METHODS, weights=(5, 4, 1, 0))[0]  # bills are the bank transfers
        return Expense(id="", user_id=user.id, category_id=category.id, amount=round(amount, 2), merchant=merchant,
                       spent_on=day, payment_method=method, note=note, recurring_id=recurring_id, split_from=None,
                       created_at=self._moment(day))

    def spending(self, user: User, category: Category, spec) -> list[Expense]:
        rng = self.rng
        (low, high), (a, b), merchants, notes = spec
        out = []
        for start in self.months:
            count = rng.randint(low, high)
            if start == self.months[2]:
                count = round(count * self.today.day / calendar.monthrange(start.year, start.month)[1])
            for _ in range(count):
                note = rng.choice(notes) if rng.random() < 0.15 else None
                out.append(self.expense(user, category, rng.uniform(a, b), rng.choice(merchants),
                                        self._day_in(start), note))
        return out

    def recurring(self, user: User, categories: dict[str, Category]) -> list[tuple[RecurringExpense, list[dt.date]]]:
        ctx, rng = self.ctx, self.rng
        out = []
        for name, options in RECURRING.items():
            if name not in categories or (name in CATEGORIES and rng.random() < 0.5):
                continue
            most = 1 if name == "Rent" else min(2, len(options))
            for merchant, amount, frequency, anchor in rng.sample(options, rng.randint(1, most)):
                if amount is None:  # rent: the category's limit
                    amount = categories[name].monthly_limit
                if frequency == "weekly":
                    first = self.months[0] + dt.timedelta(days=rng.randint(0, 6))
                    anchor = first.weekday()
                else:
                    first = self.months[0].replace(day=anchor)
                behind = rng.random() < 0.45
                cutoff = self.today - dt.timedelta(days=rng.randint(3, 40)) if behind else self.today
                occurrences, day = [], first
                step = (lambda d: d + dt.timedelta(days=7)) if frequency == "weekly" else (lambda d: add_month(d, anchor))
                while day <= cutoff:
                    occurrences.append(day)
                    day = step(day)
                cancelled = not behind and rng.random() < 0.15
                if name in CATEGORIES and not cancelled:  # the bill is part of what the category budgets for
                    monthly = amount * (4.35 if frequency == "weekly" else 1)
                    categories[name].monthly_limit = float(round((categories[name].monthly_limit + monthly) / 10) * 10)
                rule = RecurringExpense(
                    id=ctx.new_id("REC"), user_id=user.id, category_id=categories[name].id, merchant=merchant,
                    amount=round(amount, 2), frequency=frequency, anchor_day=anchor, next_date=day,
                    payment_method="bank_transfer" if name in ("Rent", "Utilities") else "credit_card",
                    status="cancelled" if cancelled else "active", created_at=self._moment(first))
                ctx.add(rule)
                out.append((rule, occurrences))
        return out

    def income(self, user: User) -> None:
        ctx, rng = self.ctx, self.rng
        employer = ctx.fake.company().replace(",", "")
        pay = round(rng.uniform(1400, 4200), 2)
        for start in self.months:
            for day in (1, 15):
                when = start.replace(day=day)
                if when <= self.today:
                    ctx.add(Income(id=ctx.new_id("INC"), user_id=user.id, amount=pay, source=f"{employer} payroll",
                                   received_on=when, note=None, created_at=self._moment(when)))
            if rng.random() < 0.4:
                when = self._day_in(start)
                ctx.add(Income(id=ctx.new_id("INC"), user_id=user.id, amount=round(rng.uniform(40, 900), 2),
                               source=rng.choice(SIDE_INCOME), received_on=when, note=None,
                               created_at=self._moment(when)))

    def budget_months(self, user: User, categories: dict[str, Category], archived: Category | None,
                      expenses: list[Expense]) -> None:
        ctx, rng = self.ctx, self.rng
        rows: dict[tuple[str, str], BudgetMonth] = {}
        for start in self.months:
            key = month_key(start)
            for category in categories.values():
                rows[category.id, key] = BudgetMonth(category_id=category.id, month=key, base=category.monthly_limit,
                                                     budgeted=category.monthly_limit, spent=0.0, expense_count=0)
        if archived is not None:
            key = month_key(self.months[0])
            rows[archived.id, key] = BudgetMonth(category_id=archived.id, month=key, base=archived.monthly_limit,
                                                 budgeted=archived.monthly_limit, spent=0.0, expense_count=0)
        for expense in expenses:
            row = rows[expense.category_id, month_key(expense.spent_on)]
            row.spent = round(row.spent + expense.amount, 2)
            row.expense_count += 1
        # a few budget moves in earlier months, from a category with room to spare
        for start in self.months[:2]:
            if rng.random() < 0.4:
                key = month_key(start)
                spare = [r for (c, m), r in rows.items() if m == key and r.budgeted - r.spent >= 20
                         and c != (archived.id if archived else None)]
                others = [r for (c, m), r in rows.items() if m == key and c != (archived.id if archived else None)]
                if spare and len(others) > 1:
                    source = rng.choice(spare)
                    target = rng.choice([r for r in others if r is not source])
                    amount = float(min(rng.choice([20, 25, 40, 50, 75, 100]),
                                       int(source.budgeted - source.spent)))
                    source.budgeted = round(source.budgeted - amount, 2)
                    target.budgeted = round(target.budgeted + amount, 2)
                    ctx.add(BudgetMove(id=ctx.new_id("MOV"), user_id=user.id, month=key,
                                       from_category_id=source.category_id, to_category_id=target.category_id,
                                       amount=amount, note=None, created_at=self._moment(self._day_in(start))))
        ctx.add(*rows.values())


def categories_by_id(categories: dict[str, Category], category_id: str) -> Category:
    return next(c for c in categories.values() if c.id == category_id)
