"""How tasks are written for the budgeting app: people who introduce themselves by name or email,
and name their categories ("my groceries budget"), expenses ("the $42.18 Chevron charge on July 3")
and recurring bills ("my Netflix bill") the way a person does.

Every request comes in several phrasings (plain, polite, chatty, indirect, and terse ones for the
minimal level). A request that asks to be told something declares its facts: the figures of the
serving call's result the answer must state. A few entities of each bundle are set aside for one
kind of change only (the expense to delete, the category to archive, the category budget is moved
out of), so that no request of a conversation undoes what another one needs.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from typing import Any

from prove_env.facts import one_of
from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import article, day, money, month, stable

Bundle = dict[str, Any]

METHOD_WORDS = {"credit_card": "credit card", "debit_card": "debit card", "cash": "cash",
                "bank_transfer": "bank transfer"}
NEW_CATEGORIES = (("Coffee", 60.0), ("Kids", 250.0), ("Charity", 100.0), ("Hobbies", 120.0), ("Car Repairs", 300.0),
                  ("Books", 40.0), ("Fitness", 80.0), ("Garden", 75.0), ("Vacation Fund", 400.0))
# merchant, amount, frequency, the kinds of category it fits
NEW_BILLS = (("Disney+", 13.99, "monthly", ("Subscriptions", "Entertainment")),
             ("Hulu", 17.99, "monthly", ("Subscriptions", "Entertainment")),
             ("Planet Fitness", 24.99, "monthly", ("Health", "Personal Care")),
             ("Audible", 14.95, "monthly", ("Subscriptions", "Entertainment", "Education")),
             ("Verizon Wireless", 85.0, "monthly", ("Utilities",)),
             ("HelloFresh", 71.92, "weekly", ("Groceries",)),
             ("Wag! Dog Walking", 40.0, "weekly", ("Pets",)),
             ("Duolingo Plus", 12.99, "monthly", ("Education", "Subscriptions")),
             ("ParkMobile Pass", 35.0, "monthly", ("Transport",)))
# the categories a purchase filed under one category may really belong to, split off or moved: a Safeway
# receipt may hold pet food or a gift, a Shell fill-up a road trip; never rent
REFILED = {
    "Groceries": ("Dining Out", "Home", "Pets", "Personal Care", "Gifts", "Health"),
    "Dining Out": ("Groceries", "Gifts", "Travel"),
    "Transport": ("Travel",),
    "Entertainment": ("Gifts", "Education"),
    "Shopping": ("Home", "Gifts", "Personal Care", "Entertainment", "Education", "Pets", "Health"),
    "Health": ("Personal Care",),
    "Pets": ("Shopping", "Gifts"),
    "Travel": ("Transport", "Entertainment", "Gifts"),
    "Gifts": ("Shopping", "Home", "Entertainment"),
    "Personal Care": ("Health", "Gifts", "Shopping"),
    "Home": ("Shopping", "Gifts"),
    "Education": ("Entertainment", "Shopping", "Gifts"),
    "Subscriptions": ("Entertainment", "Education"),
}
# categories nobody stops budgeting for: never the one set aside for archiving ("Let's get groceries off my
# active categories" right after the Aldi charges were listed); rent and utilities carry bills besides
ESSENTIAL = frozenset({"Groceries", "Rent", "Utilities"})
# merchants whose every charge is the one service they sell: nothing of it belongs elsewhere
ONE_THING = frozenset({"Rover Dog Walking", "Banfield Pet Hospital", "Greystar Apartments", "Avalon Communities",
                       "PG&E", "Comcast Xfinity", "City Water", "24 Hour Fitness", "Great Clips", "One Medical"})
NEW_SPENDING = {  # category: (merchants, amounts)
    "Groceries": (("Safeway", "Trader Joe's", "Whole Foods", "Sprouts"), (23.4, 54.18, 87.65, 112.3)),
    "Dining Out": (("Chipotle", "Starbucks", "In-N-Out", "Sweetgreen"), (6.75, 14.2, 32.5, 48.9)),
    "Transport": (("Shell", "Uber", "Chevron"), (38.0, 24.6, 51.25)),
    "Shopping": (("Target", "Amazon", "IKEA"), (29.99, 64.5, 129.0)),
    "Entertainment": (("AMC Theatres", "Ticketmaster"), (27.0, 95.5)),
    "Health": (("CVS Pharmacy", "Walgreens"), (12.49, 31.8)),
    "Pets": (("Petco", "Chewy"), (42.99, 67.3)),
    "Home": (("Home Depot", "Ace Hardware"), (18.75, 76.4)),
    "Gifts": (("Etsy", "1-800-Flowers"), (35.0, 59.99)),
    "Personal Care": (("Great Clips", "Sephora"), (28.0, 44.5)),
}
INCOME_SOURCES = (("Freelance design", (350.0, 600.0, 825.5)), ("Tutoring", (120.0, 180.0, 240.0)),
                  ("Tax refund", (412.0, 868.25)), ("Sold old bike", (150.0, 220.0)),
                  ("Birthday money from Grandma", (50.0, 100.0)), ("Etsy shop sales", (86.4, 143.2)))
# the sources a person says money came "from" as they are written ("from Tutoring"); the others are labels
FROM_SOURCES = ("Freelance design", "Tutoring", "Etsy shop sales")
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
NOTES_READ = 8  # the latest expenses of a user whose notes the sampler reads
# An amount of 0 is told in words as often as in digits ("you haven't spent anything on it yet").
NO_AMOUNT = one_of(0, "nothing", "none", "not any", "no spending", "no income", "not spent anything",
                   "haven't spent anything", "nothing left")


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every user whose name finds only them, with their categories (this month's figures), recent
    expenses, income, recurring bills, and the entities set aside for one change each."""
    bundles = []
    today = now.date()
    for user in read("find_users", limit=100):
        if len(read("find_users", name=user["name"])) != 1:
            continue
        uid = user["user_id"]
        categories = read("list_categories", user_id=uid)
        expenses = read("list_expenses", user_id=uid, start_date=(today - dt.timedelta(days=40)).isoformat(),
                        limit=100)
        recurring = read("list_recurring", user_id=uid, include_cancelled=True)
        b: Bundle = {"now": now, "user": user, "categories": categories, "expenses": expenses,
                     "recurring": recurring, "income": read("list_income", user_id=uid, limit=10)["income"]}
        # someone who joined days ago: nothing spent or received yet, and no month before this one to ask about
        b["fresh"] = not expenses and not b["income"]
        billed = {r["category_id"] for r in recurring if r["status"] == "active"}
        archivable = [c for c in categories if c["category_id"] not in billed and c["name"] not in ESSENTIAL]
        b["archive"] = rng.choice(archivable)["category_id"] if archivable and rng.random() < 0.5 else None
        donors = [c for c in categories if c["remaining"] >= 40 and c["category_id"] != b["archive"]
                  and not _filled(recurring, c)
                  and not any(r["category_id"] == c["category_id"] and r["due_not_posted"] for r in recurring)]
        b["donor"] = rng.choice(donors)["category_id"] if donors else None
        nameable = _nameable(expenses)
        b["doomed"] = rng.choice(nameable)["expense_id"] if nameable and rng.random() < 0.5 else None
        # the notes only an expense's own record shows, read for the latest few a person can name
        b["noted"] = [{**e, "note": note} for e in nameable[:NOTES_READ]
                      if (note := read("get_expense", expense_id=e["expense_id"])["note"])]
        bundles.append(b)
    return bundles


def _filled(recurring: list[dict], category: dict) -> bool:
    """Whether one fixed bill fills `category`'s budget (the rent: a $2,750 bill, a $2,750 limit). Its limit
    is the bill's amount, so no request sets it ("my rent budget isn't realistic; make it $3,300") or moves
    budget into or out of it ("move $15 of travel over to rent", the rent paid in full)."""
    return any(r["status"] == "active" and r["category_id"] == category["category_id"]
               and r["amount"] == category["monthly_limit"] for r in recurring)


def _nameable(expenses: list[dict]) -> list[dict]:
    """Expenses a person can name by merchant and day: no other expense has both."""
    seen = Counter((e["merchant"], e["date"]) for e in expenses)
    return [e for e in expenses if seen[e["merchant"], e["date"]] == 1]


def _free(b: Bundle) -> list[dict]:
    """Categories any request may write to: not set aside for archiving or giving budget."""
    return [c for c in b["categories"] if c["category_id"] not in (b["archive"], b["donor"])]


def _creates(b: Bundle) -> bool:
    """Whether a conversation of this user may create a category: half the users by id. A category made
    today is budgeted its limit in every earlier month's summary as well, so the others alone are asked
    what an earlier month's overall budget was ("set up Hobbies with $120 a month", then "how much of my
    overall budget was left in September?" counts the $120 in September)."""
    return int(b["user"]["user_id"][-1]) % 2 == 0


def _during(when: str) -> str:
    """A month said after what was spent in it: "everything I spent in September", never "for September"."""
    return "in " + when[len("for "):] if when.startswith("for ") else when


def _came_in(when: str) -> str:
    """A month said after "came in": "What money came in during February 2026?", never "came in in
    February 2026" or "came in for February 2026"."""
    for lead in ("in ", "for "):
        if when.startswith(lead):
            return "during " + when[len(lead):]
    return when


def _topped_up(category: dict) -> bool:
    """Whether budget may be moved into `category` this month: half the categories by id. A limit is
    lowered only on the others, so that no conversation lowers a limit and tops the same budget up
    ("the new limit is $150", then "shift $50 of travel to entertainment for this month")."""
    return int(category["category_id"][-1]) % 2 == 1


def _readable(b: Bundle) -> list[dict]:
    return [c for c in b["categories"] if c["category_id"] != b["archive"]]


def _refiled(b: Bundle, expense: dict) -> list[dict]:
    """The free categories `expense` may really belong to (`REFILED`), none for a one-service merchant or
    a merchant the user has a bill with: a bill files every charge under its category, so one week of a
    weekly Blue Apron box is not "in the wrong category"."""
    if expense["merchant"] in ONE_THING or any(r["merchant"] == expense["merchant"] for r in b["recurring"]):
        return []
    fits = REFILED.get(expense["category"], ())
    return [c for c in _free(b) if c["category_id"] != expense["category_id"] and c["name"] in fits]


def _changeable(b: Bundle, parity: int) -> list[dict]:
    """Nameable expenses of free categories, not the one set aside for deletion; split and
    recategorize and correct take disjoint thirds, so that none undoes another."""
    free = {c["category_id"] for c in _free(b)}
    return [e for e in _nameable(b["expenses"]) if e["expense_id"] != b["doomed"] and e["category_id"] in free
            and int(e["expense_id"][-1]) % 3 == parity]


# -- how people name things ------------------------------------------------------------------------

def _user(b: Bundle) -> Ref:
    return Ref.of("user", b["user"])


def _category(b: Bundle, category: dict) -> Ref:
    return Ref.of("category", category, _user(b))


def _recurring(b: Bundle, rule: dict) -> Ref:
    """A bill, found in the list of the user's active bills, which shows each one's category by id."""
    shown = [r["category_id"] for r in b["recurring"] if r["status"] == "active"]
    return Ref.of("recurring", {**rule, "shown_categories": shown}, _user(b))


def _expense(b: Bundle, expense: dict) -> Ref:
    alone = sum(e["date"] == expense["date"] for e in b["expenses"]) == 1
    return Ref.of("expense", {**expense, "alone_on_day": alone}, _user(b))


def _expense_lookup(ref: Ref) -> dict:
    """The look-up of an expense the user named by merchant and day: the day's list, with the merchant
    only where the day holds another expense too. A list of that day alone finds the same, and an agent
    making it must match the call, also in a request that holds a value back (the generic pass that
    drops such a filter leaves those alone)."""
    day = ref.entity["date"]
    merchant = {} if ref.entity.get("alone_on_day") else {"merchant": ref.entity["merchant"]}
    return {"user_id": ref.owner.key, **merchant, "start_date": day, "end_date": day}


def _settles(*category_ids: str) -> tuple[tuple[str, str], ...]:
    """The categories a read's result shows by id beside their names (a month's summary, a bill, an
    expense): a later request about one of them takes its id from that result, as a person would,
    without listing the categories again."""
    return tuple(("category", cid) for cid in dict.fromkeys(category_ids))


def _expense_settles(ref: Ref) -> tuple[tuple[str, str], ...]:
    """The expense's look-up (the day's list) shows the expense's category by id."""
    return _settles(ref.entity["category_id"]) if ref.entity.get("category_id") else ()


def _steady(b: Bundle, expenses: list[dict], *, by_amount: bool = False) -> list[str]:
    """The categories of those of `expenses` that a list read later in the conversation still shows under
    that category: none that a request deletes, moves to another category or corrects (a new day, amount
    or payment method takes it out of a list of a day, of big ones or of cash). A split leaves the charge
    where it is, but smaller: `by_amount`, for a list of the charges of some amount or more."""
    changed = {e["expense_id"] for e in _changeable(b, 0) if _refiled(b, e)} | {b["doomed"]}
    changed |= {e["expense_id"] for e in _changeable(b, 2)}
    if by_amount:
        changed |= {e["expense_id"] for e in _changeable(b, 1) if e["amount"] >= 20 and _refiled(b, e)}
    return [e["category_id"] for e in expenses if e["expense_id"] not in changed]


def _settled_all(b: Bundle, expenses: list[dict], *, by_amount: bool = False) -> bool:
    """Whether a list of `expenses` shows each of their categories for certain: every category holds one
    of them that no request moves or deletes. A list that may not is not asked for: a later request about
    its category would list the categories again, though the list showed it."""
    return set(_steady(b, expenses, by_amount=by_amount)) == {e["category_id"] for e in expenses}


def cat_words(category: dict, rng: random.Random) -> str:
    name = category["name"].lower()
    return rng.choice([f"my {name} budget", f"{name}", f"the {name} category", f"my {name} category"])


def expense_words(expense: dict, rng: random.Random) -> str:
    """An expense as the object of a request ("the amount on ...", "delete ...", "a note on ..."): a noun
    phrase, never a clause ("the amount on what I spent at Kroger on December 18" reads badly)."""
    when, cash, who = day(_date(expense["date"])), money(expense["amount"]), expense["merchant"]
    return rng.choice([f"the {cash} {who} charge on {when}", f"my {who} expense from {when}",
                       f"the {who} purchase on {when} ({cash})", f"the {who} entry from {when}"])


def _date(text: str) -> dt.date:
    return dt.date.fromisoformat(text[:10])


def _expense_mentions(expense: dict) -> tuple[str, ...]:
    return (expense["merchant"], day(_date(expense["date"])))


def _amount(value: float) -> Any:
    """The fact of an amount of money: a zero is also stated in words."""
    return value if value else NO_AMOUNT


def _nice(high: float) -> float | None:
    steps = [s for s in (10, 15, 20, 25, 30, 40, 50, 60, 75, 100, 120, 150, 200) if s <= high]
    return float(steps[-1] if len(steps) < 3 else steps[len(steps) // 2]) if steps else None


# -- goals: questions -------------------------------------------------------------------------------

goals = Goals()


@goals.add("list_categories", 1.2)
def list_categories(b: Bundle, rng: random.Random) -> Ask | None:
    categories = _readable(b)
    if not categories:
        return None
    refs, args = (_user(b),), {"user_id": b["user"]["user_id"]}
    over = [c for c in categories if c["over_budget"]]
    if over and rng.random() < 0.4:
        return Ask(args, say=rng.choice(["Which of my categories are over budget this month?",
                                         "Am I over budget anywhere this month? Which categories?",
                                         "I have a feeling I've overspent somewhere. Which budgets have I blown "
                                         "through this month?",
                                         "Could you check which of my budget categories have gone over so far this "
                                         "month?"]),
                   terse="Over-budget categories this month?", refs=refs,
                   facts=lambda r: [c["name"] for c in r if c["over_budget"]])
    category = rng.choice(categories)
    name, cid = category["name"], category["category_id"]
    words = name.lower()

    def left(r: list) -> list:
        found = next(c for c in r if c["category_id"] == cid)
        return [_amount(abs(found["remaining"]))]

    def spent(r: list) -> list:
        found = next(c for c in r if c["category_id"] == cid)
        return [_amount(found["spent"]), _amount(found["budgeted"])]

    if rng.random() < 0.5:
        return Ask(args, say=rng.choice([f"How much do I have left in my {words} budget this month?",
                                         f"What's left to spend on {words} this month?",
                                         f"Before I go out: how much room is left in {words} for this month?",
                                         f"Could you tell me my remaining {words} budget for this month?"]),
                   terse=f"{name} left this month?", refs=refs, mentions=(words,), facts=left)
    return Ask(args, say=rng.choice([f"How much have I spent on {words} this month, and what's the budget?",
                                     f"Where am I on {words} this month? Spent so far versus the budget, please.",
                                     f"I'd like to know my {words} spending so far this month against its budget."]),
               terse=f"{name}: spent vs budget this month?", refs=refs, mentions=(words,), facts=spent)


def _past_month(b: Bundle, rng: random.Random, *, this: bool = True) -> tuple[dict, str, tuple[str, ...]]:
    """This month (no argument; not when `this` is false) or one of the two before it, with its words
    and mentions."""
    today = b["now"].date()
    back = rng.choice([0, 0, 1, 1, 2] if this else [1, 1, 2])
    if back == 0:
        return {}, rng.choice(["this month", "so far this month", "this month to date"]), ()
    start = today.replace(day=1)
    for _ in range(back):
        start = (start - dt.timedelta(days=1)).replace(day=1)
    said = month(start)
    return {"month": start.strftime("%Y-%m")}, rng.choice([f"in {said}", f"for {said}", f"during {said}"]), (said,)


@goals.add("get_budget_summary", 1.5)
def get_budget_summary(b: Bundle, rng: random.Random) -> Ask | None:
    """A past month's totals or spending by category. This month's lines are those of the list of
    categories, which other requests read: after one of them the summary would only repeat it (and
    the other way round). Never asked of someone who joined days ago: a month before it had no budget,
    though the summary budgets it each category's limit ("$1,920 of your budget was left in September")."""
    if b["fresh"]:
        return None
    extra, when, mentions = _past_month(b, rng, this=False)
    spent_when = _during(when)
    args = {"user_id": b["user"]["user_id"], **extra}
    refs = (_user(b),)
    # every month's summary lists each active category by id: a later request about one takes it from there
    shown = _settles(*(c["category_id"] for c in b["categories"] if c["status"] == "active"))
    if extra and rng.random() < 0.4:
        said = mentions[0]
        # the plain wording names the month outright: said in a later turn, where the conversation may have
        # named that month already ("income for May 2026" then "for an earlier month ... May 2026, please")
        say, plain, terse, facts = rng.choice([
            ("How much did I spend in total in an earlier month?", f"How much did I spend in total {spent_when}?",
             f"Total spent {spent_when}?", lambda r: [_amount(r["total_spent"])]),
            ("Could you compare my income with my spending for an earlier month?",
             f"Could you compare my income with my spending {when}?", f"Income vs spending {when}?",
             lambda r: [_amount(r["total_income"]), _amount(r["total_spent"])]),
            ("For an earlier month, which budget categories did I go over, and how much did I spend overall?",
             f"Which budget categories did I go over {when}, and how much did I spend overall?",
             f"Over-budget categories and total spent {spent_when}?",
             lambda r: [*r["over_budget"], _amount(r["total_spent"])]),
        ])
        return Ask(args, say=say, plain=plain, terse=terse, refs=refs, mentions=mentions, facts=facts, settles=shown,
                   detail=rng.choice([f"I'm thinking of {said}.", f"{said}, please.", f"The month is {said}.",
                                      f"Let's look at {said}."]))
    # what was budgeted in an earlier month counts a category made today: not asked of a user who may make one
    choice = rng.choice([0, 2, 3] if _creates(b) else [0, 1, 2, 3])
    if choice == 0:
        # every month asked of here is over: said in the past tense ("how much have I spent in November",
        # "how much of it remains" read as if the month were still running)
        say = rng.choice([f"How much did I spend in total {spent_when}?", f"What was my total spending {when}?",
                          f"Add up everything I spent {spent_when}, please.",
                          f"I'm curious: what did I spend altogether {spent_when}?"])
        return Ask(args, say=say, terse=f"Total spent {spent_when}?", refs=refs, mentions=mentions,
                   facts=lambda r: [_amount(r["total_spent"])], settles=shown)
    if choice == 1:
        # every wording asks for both figures: the total budgeted is a fact too
        say = rng.choice([f"What was my overall budget {when}, and how much of it was left?",
                          f"Across all my categories, what was budgeted and what was left {when}?",
                          f"Give me the big picture {when}: total budget and how much of it was left."])
        return Ask(args, say=say, terse=f"Total budget and remaining {when}?", refs=refs, mentions=mentions,
                   facts=lambda r: [_amount(r["total_budgeted"]), _amount(abs(r["total_remaining"]))], settles=shown)
    if choice == 2:
        say = rng.choice([f"How did my income compare with my spending {when}?",
                          f"What came in and what went out {when}? Give me both totals.",
                          f"Did I earn more than I spent {spent_when}? I'd like the two numbers."])
        return Ask(args, say=say, terse=f"Income vs spending {when}?", refs=refs, mentions=mentions,
                   facts=lambda r: [_amount(r["total_income"]), _amount(r["total_spent"])], settles=shown)
    say = rng.choice([f"Give me a category-by-category breakdown of my spending {when}.",
                      f"Where did my money go {when}? Break it down by category.",
                      f"Can you go through my budget categories {when} and tell me what I spent in each?"])
    return Ask(args, say=say, terse=f"Spending by category {when}?", refs=refs, mentions=mentions,
               facts=lambda r: [line["spent"] for line in sorted(r["categories"], key=lambda x: -x["spent"])[:4]
                                if line["spent"]] or [NO_AMOUNT], settles=shown)


@goals.add("get_category_history")
def get_category_history(b: Bundle, rng: random.Random) -> Ask | None:
    if b["fresh"]:
        return None  # joined days ago: every earlier month of the history is before it
    categories = [c for c in _readable(b) if c["expense_count"] or c["monthly_limit"] >= 100]
    if not categories:
        return None
    category = rng.choice(categories)
    words = category["name"].lower()
    count = rng.choice([2, 3, 3])
    number = NUMBER_WORDS[count]
    # the number of months is always said: the tool has a default for it, so it is never held back
    args = {"category_id": category["category_id"], "months": count}
    say = rng.choice([f"What did I spend on {words} in each of the last {number} months, this one included?",
                      f"Show me my {words} spending month by month for the last {number} months, this one included.",
                      f"I want to see a trend: {words} spending over the last {number} months, this one included.",
                      f"How has my {words} spending looked over the last {number} months, counting this one?"])
    return Ask(args, say=say, terse=f"{category['name']} spending, last {number} months incl. this one?",
               refs=(_category(b, category),), mentions=(words, number),
               facts=lambda r: [_amount(m["spent"]) for m in r["months"]])


@goals.add("list_expenses", 1.3)
def list_expenses(b: Bundle, rng: random.Random) -> Ask | None:
    expenses = b["expenses"]
    if not expenses:
        return None
    uid = b["user"]["user_id"]
    refs = (_user(b),)
    mode = rng.choice(["one", "one", "merchant", "merchant", "category", "big", "method"])
    if mode == "one":
        # an expense that stays under its category, as for a merchant's charges below
        named = [e for e in _nameable(expenses) if e["expense_id"] != b["doomed"] and _steady(b, [e])]
        if not named:
            return None
        expense = rng.choice(named)
        who, when, eid = expense["merchant"], day(_date(expense["date"])), expense["expense_id"]
        args = {"user_id": uid, "merchant": who, "start_date": expense["date"], "end_date": expense["date"]}

        def fields(*keys: str) -> Any:
            return lambda r: [e[k] for e in r if e["expense_id"] == eid for k in keys]

        if rng.random() < 0.6:
            return Ask(args, say=rng.choice([f"How much was my {who} expense on {when}, and which category is it under?",
                                             f"Could you look up what I spent at {who} on {when}? Amount and category, "
                                             "please.",
                                             f"Tell me about my {who} expense from {when}: the amount and its category.",
                                             f"What was the amount of my {who} purchase on {when}? Also which category?"]),
                       terse=f"{who} on {when}: amount, category?", refs=refs, mentions=_expense_mentions(expense),
                       facts=fields("amount", "category"), settles=_settles(*_steady(b, [expense])))
        return Ask(args, say=rng.choice([f"How did I pay for {who} on {when}, and how much was it?",
                                         f"What did I pay with at {who} on {when}, and what did it come to?"]),
                   terse=f"{who} on {when}: amount, paid how?", refs=refs, mentions=_expense_mentions(expense),
                   facts=fields("payment_method", "amount"), settles=_settles(*_steady(b, [expense])))
    if mode == "merchant":
        # a merchant whose charges all stay under their categories: its list shows each category by id for a
        # later request ("Chewy since January 28?" then "Pets spending, last three months?"), where a charge
        # another request may move or delete leaves its category unknown, to be listed again
        merchants = sorted(m for m in {e["merchant"] for e in expenses}
                           if _settled_all(b, [e for e in expenses if e["merchant"] == m]))
        if not merchants:
            return None
        merchant = rng.choice(merchants)
        found = [e for e in expenses if e["merchant"] == merchant]
        if len(found) > 5:
            return None
        start = (b["now"].date() - dt.timedelta(days=40))
        args = {"user_id": uid, "merchant": merchant, "start_date": start.isoformat()}
        since = day(start)
        return Ask(args, say=rng.choice([f"What have I spent at {merchant} since {since}?",
                                         f"List my {merchant} expenses from {since} on, please.",
                                         f"Can you pull up every charge at {merchant} since {since}?",
                                         # "eating my budget" only of a merchant charged again and again
                                         *([f"I think {merchant} is eating my budget. What did I pay there since "
                                            f"{since}?"] if len(found) >= 3 else [])]),
                   terse=f"{merchant} since {since}?", refs=refs, mentions=(merchant, since),
                   facts=lambda r: [e["amount"] for e in r[:5]], settles=_settles(*_steady(b, found)))
    if mode == "category":
        categories = [c for c in _readable(b) if c["expense_count"]]
        if not categories:
            return None
        category = rng.choice(categories)
        count = min(rng.choice([2, 3, 3, 4]), category["expense_count"])
        if count < 2:
            return None
        words, number = category["name"].lower(), NUMBER_WORDS[count]
        return Ask({"user_id": uid, "category_id": category["category_id"], "limit": count},
                   say=rng.choice([f"What were my last {number} {words} expenses?",
                                   f"Show me the {number} most recent things I spent on {words}.",
                                   f"Remind me of my latest {number} {words} purchases, with amounts."]),
                   terse=f"Last {number} {words} expenses?", refs=(_user(b), _category(b, category)),
                   mentions=(words, number), facts=lambda r: [e["amount"] for e in r])
    if mode == "method":
        cash = [e for e in expenses if e["payment_method"] == "cash"]
        if not 1 <= len(cash) <= 5:
            return None
        start = b["now"].date() - dt.timedelta(days=40)
        since = day(start)
        return Ask({"user_id": uid, "payment_method": "cash", "start_date": start.isoformat()},
                   say=rng.choice([f"Which expenses did I pay in cash since {since}?",
                                   f"I lose track of cash. What did I pay for in cash from {since} on?",
                                   f"List my cash payments since {since}, please."]),
                   terse=f"Cash expenses since {since}?", refs=refs, mentions=("cash", since),
                   facts=lambda r: [e["amount"] for e in r[:5]], settles=_settles(*_steady(b, cash)))
    for threshold in (500, 300, 200, 150, 100):
        big = [e for e in expenses if e["amount"] >= threshold]
        if 1 <= len(big) <= 4 and _settled_all(b, big, by_amount=True):
            start = b["now"].date() - dt.timedelta(days=40)
            since = day(start)
            return Ask({"user_id": uid, "min_amount": float(threshold), "start_date": start.isoformat()},
                       say=rng.choice([f"Did I have any expenses of {money(threshold)} or more since {since}?",
                                       f"Show me the big ones: everything of at least {money(threshold)} since {since}.",
                                       f"Which purchases since {since} were {money(threshold)} or more?"]),
                       terse=f"Expenses of {money(threshold)}+ since {since}?", refs=refs,
                       mentions=(money(threshold), since), facts=lambda r: [e["amount"] for e in r[:5]],
                       settles=_settles(*_steady(b, big, by_amount=True)))
    return None


@goals.add("get_expense")
def get_expense(b: Bundle, rng: random.Random) -> Ask | None:
    """The note on an expense: the one thing its record says that the list of expenses does not."""
    expenses = [e for e in b["noted"] if e["expense_id"] != b["doomed"]]
    if not expenses:
        return None
    expense = rng.choice(expenses)
    name = expense_words(expense, rng)
    return Ask({"expense_id": expense["expense_id"]},
               say=rng.choice([f"What note did I leave on {name}?", f"Did I write a note on {name}? What does it say?",
                               f"I added a note to {name}. Can you remind me what it says?",
                               f"Could you read me the note on {name}?"]),
               terse=f"Note on {name}?", refs=(_expense(b, expense),), mentions=_expense_mentions(expense),
               facts=lambda r: [r["note"]], settles=_settles(*_steady(b, [expense])))


@goals.add("list_income")
def list_income(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["income"]:
        return None
    args, when, mentions = _past_month(b, rng)
    today = b["now"].date()
    income_args = {"user_id": b["user"]["user_id"]}
    if "month" in args:
        start = dt.date.fromisoformat(args["month"] + "-01")
        end = (start + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
        income_args.update(start_date=start.isoformat(), end_date=end.isoformat())
    else:
        # this month to date: nothing is received after today, so the month's first day is the only bound
        # ("this month to date" listed from November 1 alone finds what the gold's range up to today does)
        income_args["start_date"] = today.replace(day=1).isoformat()
    if mentions and rng.random() < 0.4:
        return Ask(income_args, say=rng.choice(["Could you list my income for one of the past months, with the total?",
                                                "What came in during a past month? Each source and the total."]),
                   plain=rng.choice([f"Could you list my income {when}, with the total?",
                                     f"What came in {_came_in(when)}? Each source and the total."]),
                   detail=rng.choice([f"{mentions[0]}, please.", f"I'm thinking of {mentions[0]}."]),
                   terse=f"Income {when}: sources and total?", refs=(_user(b),), mentions=mentions,
                   facts=lambda r: [i["source"] for i in r["income"][:4]] + [r["total"]])
    # the entries with their total: a month's summary shows the total alone
    return Ask(income_args,
               say=rng.choice([f"What money came in {_came_in(when)}? List it with the total.",
                               f"Which income did I get {when}? Each source, and the total.",
                               f"I'm doing my books: what did I earn {when}, source by source, and in all?"]),
               terse=f"Income {when}: sources and total?", refs=(_user(b),), mentions=mentions,
               facts=lambda r: [i["source"] for i in r["income"][:4]] + [r["total"]])


@goals.add("list_recurring")
def list_recurring(b: Bundle, rng: random.Random) -> Ask | None:
    active = [r for r in b["recurring"] if r["status"] == "active"]
    if not active:
        return None
    args, refs = {"user_id": b["user"]["user_id"]}, (_user(b),)
    shown = _settles(*(r["category_id"] for r in active))  # the list of active bills shows each one's category
    # a bill whose due date has passed without posting has no single "next" date (the one due, or the
    # one after it): only bills due from today on are asked about
    upcoming = [r for r in active if not r["due_not_posted"]]
    if (rng.random() < 0.5 or len(active) == 1) and upcoming:
        rule = rng.choice(upcoming)
        who = rule["merchant"]
        return Ask(args, say=rng.choice([f"When is my {who} bill due next, and how much is it?",
                                         f"What's the next due date for {who}? And the amount?",
                                         f"I need to plan for {who}: when does it come out next, and for how much?"]),
                   terse=f"Next {who} bill: date, amount?", refs=refs, mentions=(who,),
                   facts=lambda r: [next(x for x in r if x["merchant"] == who)["next_date"],
                                    next(x for x in r if x["merchant"] == who)["amount"]], settles=shown)
    return Ask(args, say=rng.choice(["What recurring bills do I have, and how much is each?",
                                     "Can you list my repeating expenses with their amounts?",
                                     "Which subscriptions and bills are set up to repeat? Amounts too, please."]),
               terse="My recurring bills and amounts?", refs=refs,
               # which bills is asked as well as their amounts: each bill's merchant is a fact beside its amount
               facts=lambda r: [fact for x in r[:5] for fact in (x["merchant"], x["amount"])],
               settles=shown)


# -- goals: changes ---------------------------------------------------------------------------------

@goals.add("create_category", 0.7)
def create_category(b: Bundle, rng: random.Random) -> Ask | None:
    if not _creates(b):
        return None
    name, limit = rng.choice(NEW_CATEGORIES)
    if any(c["name"].lower() == name.lower() for c in b["categories"]):
        return None
    cash = money(limit)
    args = {"user_id": b["user"]["user_id"], "name": name, "monthly_limit": limit}
    if rng.random() < 0.45:
        return Ask(args, say=rng.choice([f"I'd like a new budget category called {name}.",
                                         f"Can you add {article(name)} {name} category to my budget?"]),
                   detail=rng.choice([f"Give it {cash} a month.", f"The monthly limit should be {cash}.",
                                      f"Let's say {cash} per month."]),
                   terse=f"New category {name}, {cash}/month.", refs=(_user(b),), mentions=(name, cash))
    return Ask(args,
               say=rng.choice([f"Please add a new budget category called {name} with a monthly limit of {cash}.",
                               f"I want to start tracking a new category, {name}. Can you set it up with {cash} a month?",
                               f"Could you set up a '{name}' category for me? Budget {cash} per month.",
                               f"New category, please: {name}, with {cash} a month."]),
               terse=f"New category {name}, {cash}/month.", refs=(_user(b),), mentions=(name, cash))


@goals.add("set_category_limit")
def set_category_limit(b: Bundle, rng: random.Random) -> Ask | None:
    categories = [c for c in _free(b) if not _filled(b["recurring"], c)]
    if not categories:
        return None
    category = rng.choice(categories)
    current = category["monthly_limit"]
    limit = float(max(10, round(current * rng.choice([0.8, 1.2, 1.25, 1.5]) / 10) * 10))
    if limit == current or (limit < current and _topped_up(category)):
        return None
    words, cash = category["name"].lower(), money(limit)
    verb = "raise" if limit > current else "lower"
    args = {"category_id": category["category_id"], "monthly_limit": limit}
    if rng.random() < 0.45:
        return Ask(args, say=rng.choice([f"I want to {verb} my monthly {words} limit.",
                                         f"My {words} budget needs changing."]),
                   detail=rng.choice([f"Make it {cash} a month.", f"{cash} per month, please.",
                                      f"The new limit is {cash}."]),
                   terse=f"{category['name']} limit {cash}.", refs=(_category(b, category),), mentions=(words, cash))
    return Ask(args,
               say=rng.choice([f"Please change my {words} limit to {cash} a month.",
                               f"I'd like to {verb} my monthly {words} budget to {cash}.",
                               f"Can you set {words} to {cash} per month from now on?",
                               # too low to be realistic: said only of a limit raised
                               *([f"My {words} budget isn't realistic; make it {cash} a month."]
                                 if limit > current else [])]),
               terse=f"{category['name']} limit {cash}.", refs=(_category(b, category),), mentions=(words, cash))


@goals.add("archive_category", 0.8)
def archive_category(b: Bundle, rng: random.Random) -> Ask | None:
    category = next((c for c in b["categories"] if c["category_id"] == b["archive"]), None)
    if category is None:
        return None
    words = category["name"].lower()
    return Ask({"category_id": category["category_id"]},
               say=rng.choice([f"I don't need the {words} category anymore; please archive it.",
                               f"Could you archive {words}? I'm not budgeting for it now.",
                               f"Please retire my {words} category. Keep its history, just archive it.",
                               f"Let's get {words} off my active categories. Archive it, please."]),
               terse=f"Archive {words}.", refs=(_category(b, category),), mentions=(words,))


@goals.add("move_budget", 1.5)
def move_budget(b: Bundle, rng: random.Random) -> Ask | None:
    donor = next((c for c in b["categories"] if c["category_id"] == b["donor"]), None)
    if donor is None:
        return None
    # budget goes where it is tighter than where it comes from: "$15 should do it" for transport with $143
    # left, taken out of home with $48, has no reason
    targets = [c for c in _free(b) if _topped_up(c) and not _filled(b["recurring"], c)
               and c["remaining"] < donor["remaining"]]
    if not targets:
        return None
    amount = _nice(donor["remaining"] / 2)
    if amount is None:
        return None
    target = rng.choice(targets)
    source, into, cash = donor["name"].lower(), target["name"].lower(), money(amount)
    # "running short" only of a budget with less than a quarter of it left
    short = target["remaining"] < 0.25 * target["budgeted"]
    args = {"from_category_id": donor["category_id"], "to_category_id": target["category_id"], "amount": amount}
    refs = (_category(b, donor), _category(b, target))
    if rng.random() < 0.45:
        return Ask(args, say=rng.choice([f"I'd like to move some of this month's {source} budget over to {into}.",
                                         f"Could you shift part of my {source} budget to {into} for this month?"]),
                   detail=rng.choice([f"Move {cash}.", f"{cash} should do it.", f"Let's make it {cash}."]),
                   terse=f"Move {cash} {source} -> {into}.", refs=refs, mentions=(source, into, cash))
    return Ask(args,
               say=rng.choice([f"Move {cash} of this month's budget from {source} to {into}.",
                               *([f"I'm running short on {into}. Could you shift {cash} over from {source}?"]
                                 if short else []),
                               f"Please take {cash} out of my {source} budget and put it into {into} for this month.",
                               f"Can you reallocate {cash} from {source} to {into} this month?",
                               f"I won't need all of my {source} budget this month, so give {cash} of it to {into}."]),
               terse=f"Move {cash} {source} -> {into}.", refs=(_category(b, donor), _category(b, target)),
               mentions=(source, into, cash))


@goals.add("add_expense", 1.5)
def add_expense(b: Bundle, rng: random.Random) -> Ask | None:
    categories = [c for c in _free(b) if c["name"] in NEW_SPENDING]
    if not categories:
        return None
    category = rng.choice(categories)
    merchants, amounts = NEW_SPENDING[category["name"]]
    merchant, amount = rng.choice(merchants), rng.choice(amounts)
    today = b["now"].date()
    back = rng.choice([0, 0, 1, 2, 3])
    when = today - dt.timedelta(days=back)
    args = {"category_id": category["category_id"], "amount": amount, "merchant": merchant}
    mentions = [merchant, money(amount), category["name"].lower()]
    if back == 0:
        on = rng.choice(["today", "earlier today", "this morning"])
    elif back == 1:
        on, args["date"] = "yesterday", when.isoformat()
        mentions.append("yesterday")
    else:
        on, args["date"] = f"on {day(when)}", when.isoformat()
        mentions.append(day(when))
    method = rng.choice([None, None, "debit_card", "cash", "credit_card"])
    paid = ""
    if method:
        args["payment_method"] = method
        paid = rng.choice([f" with my {METHOD_WORDS[method]}", f", paid by {METHOD_WORDS[method]}"]) \
            if method != "cash" else rng.choice([" in cash", ", paid cash"])
        mentions.append(METHOD_WORDS[method])
    # ", paid cash" is an aside: closed by a comma before the category ("on March 28, paid cash, in my dining
    # out category", not "paid cash in my dining out category")
    closed = f"{paid}," if paid.startswith(",") else paid
    words, cash = category["name"].lower(), money(amount)
    if rng.random() < 0.4:
        return Ask(args, say=rng.choice([f"Please log what I spent at {merchant} {on}{closed} under {words}.",
                                         f"I need to add {article(merchant)} {merchant} expense from {_from(on)}{closed} to {words}."]),
                   detail=rng.choice([f"It was {cash}.", f"The amount was {cash}.", f"{cash}, to be exact."]),
                   terse=f"{cash} {merchant} {on}{paid}, {words}.", refs=(_category(b, category),),
                   mentions=tuple(mentions))
    say = rng.choice([f"Log an expense: {cash} at {merchant} {on}{paid}, under {words}.",
                      f"I spent {cash} at {merchant} {on}{paid}. Put it in {words}, please.",
                      f"Please record {cash} for {merchant} {on}{closed} in my {words} category.",
                      f"Add {merchant} {on}{paid}, {cash}, to {words}."])
    return Ask(args, say=say, terse=f"{cash} {merchant} {on}{paid}, {words}.",
               refs=(_category(b, category),), mentions=tuple(mentions))


def _from(on: str) -> str:
    """The day of a spending said after "from": "an Uber expense from yesterday", "from June 9" (not "an
    Uber expense yesterday", which reads as when to add it)."""
    return on[3:] if on.startswith("on ") else on


@goals.add("delete_expense", 0.8)
def delete_expense(b: Bundle, rng: random.Random) -> Ask | None:
    expense = next((e for e in b["expenses"] if e["expense_id"] == b["doomed"]), None)
    if expense is None:
        return None
    name = expense_words(expense, rng)
    return Ask({"expense_id": expense["expense_id"]},
               say=rng.choice([f"Please delete {name}; it was entered by mistake.",
                               f"{name[:1].upper()}{name[1:]} is a duplicate; please remove it.",
                               f"I got refunded in full, so take {name} off my expenses.",
                               f"Could you delete {name}? It shouldn't be there."]),
               terse=f"Delete {name}.", refs=(_expense(b, expense),), mentions=_expense_mentions(expense))


@goals.add("recategorize_expense")
def recategorize_expense(b: Bundle, rng: random.Random) -> Ask | None:
    expenses = [e for e in _changeable(b, 0) if _refiled(b, e)]
    if not expenses:
        return None
    expense = rng.choice(expenses)
    target = rng.choice(_refiled(b, expense))
    name, into = expense_words(expense, rng), target["name"].lower()
    if rng.random() < 0.4:
        return Ask({"expense_id": expense["expense_id"], "category_id": target["category_id"]},
                   say=rng.choice([f"{name[:1].upper()}{name[1:]} is filed under the wrong category.",
                                   f"I need to recategorize {name}."]),
                   detail=rng.choice([f"It belongs in {into}.", f"Put it under {into}.", f"It should be {into}."]),
                   terse=f"Recategorize {name} to {into}.", refs=(_expense(b, expense), _category(b, target)),
                   mentions=(*_expense_mentions(expense), into))
    return Ask({"expense_id": expense["expense_id"], "category_id": target["category_id"]},
               say=rng.choice([f"{name[:1].upper()}{name[1:]} is in the wrong category. Move it to {into}.",
                               f"Please recategorize {name} as {into}.",
                               f"Could you file {name} under {into} instead?",
                               f"Oops, {name} should count toward {into}. Can you fix that?"]),
               terse=f"Recategorize {name} to {into}.", refs=(_expense(b, expense), _category(b, target)),
               mentions=(*_expense_mentions(expense), into))


@goals.add("split_expense")
def split_expense(b: Bundle, rng: random.Random) -> Ask | None:
    expenses = [e for e in _changeable(b, 1) if e["amount"] >= 20 and _refiled(b, e)]
    if not expenses:
        return None
    expense = rng.choice(expenses)
    targets = _refiled(b, expense)
    amount = _nice(expense["amount"] * 0.6)
    if not targets or amount is None or amount >= expense["amount"]:
        return None
    target = rng.choice(targets)
    name, into, cash = expense_words(expense, rng), target["name"].lower(), money(amount)
    args = {"expense_id": expense["expense_id"], "amount": amount, "category_id": target["category_id"]}
    refs = (_expense(b, expense), _category(b, target))
    if rng.random() < 0.4:
        return Ask(args, say=rng.choice([f"Part of {name} was really {into}. Can you split that part off?",
                                         f"I'd like to split {name} so some of it counts as {into}."]),
                   detail=rng.choice([f"The {into} part is {cash}.", f"That part came to {cash}.", f"{cash} of it."]),
                   terse=f"Split {cash} of {name} into {into}.", refs=refs,
                   mentions=(*_expense_mentions(expense), into, cash))
    return Ask(args,
               say=rng.choice([f"Part of {name} was really {into}: split {cash} of it off.",
                               f"Please split {name}: {cash} goes to {into}, the rest stays where it is.",
                               f"{cash} of {name} should count as {into}. Can you split it?",
                               f"Could you break {cash} out of {name} and put that part under {into}?"]),
               terse=f"Split {cash} of {name} into {into}.", refs=(_expense(b, expense), _category(b, target)),
               mentions=(*_expense_mentions(expense), into, cash))


@goals.add("update_expense")
def update_expense(b: Bundle, rng: random.Random) -> Ask | None:
    expenses = _changeable(b, 2)
    if not expenses:
        return None
    expense = rng.choice(expenses)
    name, refs = expense_words(expense, rng), (_expense(b, expense),)
    mode = rng.choice(["amount", "amount", "method", "date"])
    if mode == "amount":
        amount = round(expense["amount"] + rng.choice([-1, 1]) * rng.choice([1.0, 5.0, 10.0, 0.9]), 2)
        if amount <= 0:
            return None
        cash = money(amount)
        if rng.random() < 0.5:
            return Ask({"expense_id": expense["expense_id"], "amount": amount},
                       say=rng.choice([f"The amount on {name} is wrong. Can you fix it?",
                                       f"I need to correct the amount of {name}."]),
                       detail=rng.choice([f"It should be {cash}.", f"The receipt says {cash}.", f"Make it {cash}."]),
                       terse=f"Fix {name}: amount {cash}.", refs=refs, mentions=(*_expense_mentions(expense), cash))
        return Ask({"expense_id": expense["expense_id"], "amount": amount},
                   say=rng.choice([f"I typed {name} wrong: it was really {cash}. Please fix it.",
                                   f"Could you correct {name}? The receipt says {cash}.",
                                   f"The amount on {name} is off; change it to {cash}, please."]),
                   terse=f"Fix {name}: amount {cash}.", refs=refs, mentions=(*_expense_mentions(expense), cash))
    if mode == "method":
        methods = [m for m in METHOD_WORDS if m != expense["payment_method"] and m != "bank_transfer"]
        method = rng.choice(methods)
        words = METHOD_WORDS[method]
        return Ask({"expense_id": expense["expense_id"], "payment_method": method},
                   say=rng.choice([f"{name[:1].upper()}{name[1:]} was actually paid with "
                                   f"{'cash' if method == 'cash' else 'my ' + words}. Please update it.",
                                   f"Please change the payment method on {name} to {words}.",
                                   f"{name[:1].upper()}{name[1:]} wasn't paid the way it says; it was paid "
                                   f"{'in cash' if method == 'cash' else 'by ' + words}."]),
                   terse=f"{name}: paid by {words}.", refs=refs, mentions=(*_expense_mentions(expense), words))
    when = _date(expense["date"]) - dt.timedelta(days=rng.choice([1, 2]))
    if any(e["merchant"] == expense["merchant"] and e["date"] == when.isoformat() for e in b["expenses"]):
        return None
    on = day(when)
    return Ask({"expense_id": expense["expense_id"], "date": when.isoformat()},
               say=rng.choice([f"{name[:1].upper()}{name[1:]} has the wrong date; it happened on {on}.",
                               f"Please move the date of {name} to {on}, when I actually paid.",
                               f"Could you change {name} so it's dated {on}?"]),
               terse=f"Redate {name} to {on}.", refs=refs, mentions=(*_expense_mentions(expense), on))


@goals.add("add_income", 0.8)
def add_income(b: Bundle, rng: random.Random) -> Ask | None:
    source, amounts = rng.choice(INCOME_SOURCES)
    amount = rng.choice(amounts)
    back = rng.choice([0, 0, 1, 4])
    when = b["now"].date() - dt.timedelta(days=back)
    args = {"user_id": b["user"]["user_id"], "amount": amount, "source": source}
    mentions = [source, money(amount)]
    if back == 0:
        on = "today"
    else:
        args["date"] = when.isoformat()
        on = "yesterday" if back == 1 else f"on {day(when)}"
        mentions.append("yesterday" if back == 1 else day(when))
    cash = money(amount)
    # "from {source}" reads only where the source is a kind of work or sale; a label such as "Sold old bike"
    # or "Birthday money from Grandma" is given as the source's name
    paid_by = source in FROM_SOURCES
    # a label is quoted wherever it stands bare ("Income $220 today, Sold old bike." reads as a stray clause)
    terse = f"Income {cash} {on} from {source}." if paid_by else f"Income {cash} {on}, source '{source}'."
    named = source if paid_by else f"'{source}'"
    if rng.random() < 0.4:
        return Ask(args, say=rng.choice([f"I got some money from {source} {on}; please record it as income."
                                         if paid_by else
                                         f"I got some money {on}; please record it as income, source '{source}'.",
                                         f"Add income from {source}, received {on}." if paid_by else
                                         f"Add income received {on}; the source is '{source}'."]),
                   detail=rng.choice([f"It was {cash}.", f"{cash} in total.", f"The amount is {cash}."]),
                   terse=terse, refs=(_user(b),), mentions=tuple(mentions))
    say = rng.choice([f"I received {cash} {on} from {source}. Please record it as income." if paid_by else
                      f"I had {cash} come in {on} ('{source}'). Please record it as income.",
                      f"Log {cash} of income {on}; the source is '{source}'.",
                      f"I've got good news: {cash} came in {on} " + (f"from {source}." if paid_by else f"('{source}').")
                      + " Add it to my income.",
                      f"Please add income of {cash}, source {named}, received {on}."])
    return Ask(args, say=say, terse=terse, refs=(_user(b),), mentions=tuple(mentions))


@goals.add("add_recurring_expense", 0.9)
def add_recurring_expense(b: Bundle, rng: random.Random) -> Ask | None:
    merchant, amount, frequency, kinds = rng.choice(NEW_BILLS)
    if any(r["merchant"] == merchant and r["status"] == "active" for r in b["recurring"]):
        return None
    categories = [c for c in _free(b) if c["name"] in kinds]
    if not categories:
        return None
    category = rng.choice(categories)
    today = b["now"].date()
    start = today + dt.timedelta(days=rng.choice([-20, -9, -3, 2, 5, 11]))
    args = {"category_id": category["category_id"], "merchant": merchant, "amount": amount,
            "frequency": frequency, "start_date": start.isoformat()}
    every = "week" if frequency == "weekly" else "month"
    words, cash, on = category["name"].lower(), money(amount), day(start)
    tense = "started" if start <= today else "starts"
    if rng.random() < 0.4:
        return Ask(args, say=rng.choice([f"I signed up for {merchant}: {cash} a {every}. Track it as a recurring "
                                         f"{words} expense.",
                                         f"Please add {merchant} as a {frequency} bill of {cash} in {words}."]),
                   detail=rng.choice([f"The first payment {'was' if start <= today else 'is'} on {on}.",
                                      f"It {tense} on {on}.", f"Starting {on}."]),
                   terse=f"Recurring {merchant} {cash}/{every} from {on}, {words}.",
                   refs=(_category(b, category),), mentions=(merchant, cash, on, every, words))
    say = rng.choice([f"Set up a recurring {words} expense: {merchant}, {cash} every {every}, first payment on {on}.",
                      f"I signed up for {merchant}. It's {cash} a {every} and {tense} on {on}; track it under {words}.",
                      f"Please add {merchant} as a {frequency} bill of {cash} in {words}, beginning {on}.",
                      f"Could you make {merchant} a repeating expense? {cash} each {every}, from {on}, in {words}."])
    return Ask(args, say=say, terse=f"Recurring {merchant} {cash}/{every} from {on}, {words}.",
               refs=(_category(b, category),), mentions=(merchant, cash, on, every, words))


@goals.add("cancel_recurring", 0.9)
def cancel_recurring(b: Bundle, rng: random.Random) -> Ask | None:
    rules = [r for r in b["recurring"] if r["status"] == "active"]
    if not rules:
        return None
    rule = rng.choice(rules)
    who = rule["merchant"]
    return Ask({"recurring_id": rule["recurring_id"]},
               say=rng.choice([f"I cancelled {who}, so please stop tracking it as a recurring bill.",
                               f"Please cancel my recurring {who} expense.",
                               f"Could you remove {who} from my repeating bills? I don't pay it anymore.",
                               f"No more {who} for me. Cancel that recurring expense, please."]),
               terse=f"Cancel recurring {who}.", refs=(_recurring(b, rule),), mentions=(who,))


@goals.add("post_due_recurring", 1.2)
def post_due_recurring(b: Bundle, rng: random.Random) -> Ask | None:
    due = [r for r in b["recurring"] if r["status"] == "active" and r["due_not_posted"]]
    if not due:
        return None
    refs, args = (_user(b),), {"user_id": b["user"]["user_id"]}
    if rng.random() < 0.5:
        return Ask(args, say=rng.choice(["Please post my recurring bills that have come due, so my totals are "
                                         "up to date. How much was posted in all?",
                                         "Bring my recurring expenses up to date and tell me the total that got added.",
                                         "Enter any recurring bills that are due as of today. What did they come to?"]),
                   terse="Post due recurring bills; total?", refs=refs, facts=lambda r: [r["total"]])
    return Ask(args, say=rng.choice(["My budget looks off; I think some recurring bills haven't posted yet. "
                                     "Can you post whatever's due?",
                                     "Please post all my recurring bills that are due as of today.",
                                     "Could you catch up my recurring expenses? Anything due should be entered."]),
               terse="Post due recurring bills.", refs=refs)


# -- who is asking ----------------------------------------------------------------------------------

_BY_NAME = ("Hi, this is {name}.", "My name is {name}.", "Hello, {name} here.", "It's {name}.",
            "Hi, I'm {name} and I use your budgeting app.", "Hey there, {name} speaking.", "I'm {name}.",
            "This is {name}; I track my budget with you.", "Good morning, it's {name}.", "Hi! {name} here.",
            "You're talking to {name}.", "{name} here, hello.")
_BY_NAME_TERSE = ("This is {name}.", "Name: {name}.", "{name} here.", "User: {name}.", "I'm {name}.")
_BY_EMAIL = ("Hi, my account email is {email}.", "Hello, I'm signed up as {email}.", "My login email is {email}.",
             "You can find me under {email}.", "The email on my budget account is {email}.",
             "Hi there, my account is under {email}.", "I'm registered with {email}.")
_BY_EMAIL_TERSE = ("Email: {email}.", "Account: {email}.", "Login {email}.", "My email: {email}.")


def _by_name(ref: Ref) -> tuple[str, str]:
    name = ref.entity["name"]
    return (stable(_BY_NAME, "name", ref.key).format(name=name),
            stable(_BY_NAME_TERSE, "terse", ref.key).format(name=name))


def _by_email(ref: Ref) -> tuple[str, str]:
    email = ref.entity["email"]
    return (stable(_BY_EMAIL, "email", ref.key).format(email=email),
            stable(_BY_EMAIL_TERSE, "email terse", ref.key).format(email=email))


# No request is left to the hidden all_users_spending: its total is a sum the shown tools reach.
# find_users with neither name nor email lists every user and get_budget_summary gives each one's
# spending this month, so "what's the total spending of everyone who uses this app this month?" is
# answered by adding up, and declining it would teach the wrong thing.
EVERYONE: tuple[HiddenAsk, ...] = ()


# Tools that do one another's job for some request (a month's budget is the list of categories
# with this month's figures; a month's income total is in its summary; a bill's charges show in the
# list of expenses): a missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("get_budget_summary", "list_categories"),
    ("list_income", "get_budget_summary"),  # a month's summary shows its total income
    ("list_recurring", "list_expenses"),
    # a category's month is in its history, and its id in any expense or bill: "how much room is left
    # in utilities?" is answered without the list of categories
    ("list_categories", "get_category_history"),
)


recipe = Recipe(
    server="budget",
    sample=sample,
    topics=("budget",),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("user", "find_users", args=lambda r: {"name": r.entity["name"]}, intro=_by_name),
        Lookup("user", "find_users", args=lambda r: {"email": r.entity["email"]}, intro=_by_email),
        Lookup.under("category", "list_categories"),
        Lookup("recurring", "list_recurring", args=lambda r: {"user_id": r.owner.key},
               settles=lambda r: _settles(*r.entity.get("shown_categories", ()))),
        Lookup("expense", "list_expenses", args=_expense_lookup, settles=_expense_settles),
    ),
    hidden=EVERYONE,
)
