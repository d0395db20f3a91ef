"""The budget server through real MCP: every tool's success path and refusals (each leaving the
world unchanged), month totals that always equal the sum of their expenses (also under a random
sequence of edits), recurring bills posting up to "now", and the reward judging outcomes.

Entities are found through the tools themselves, in the seed-0 world.
"""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest

from servers.budget.models import BudgetMove, Expense, Income, RecurringExpense


@pytest.fixture
def s(served):
    return served("budget")


# -- helpers --------------------------------------------------------------------------------------


def users(s) -> list[dict]:
    return s.ok("find_users", limit=100)


def today(s) -> dt.date:
    return dt.date.fromisoformat(s.ok("get_budget_summary", user_id="USR-0001")["as_of"])


def invariants(s) -> list[str]:
    return s.toolkit(s.world).invariants()


def category(s, user_id: str, name: str) -> dict:
    return next(c for c in s.ok("list_categories", user_id=user_id, include_archived=True) if c["name"] == name)


def first(s, where) -> tuple[dict, dict]:
    """The first (user, category) whose category, with this month's figures, matches."""
    for user in users(s):
        for c in s.ok("list_categories", user_id=user["user_id"], include_archived=True):
            if where(c):
                return user, c
    raise AssertionError("no such category in the seed-0 world")


def month_expenses(s, user_id: str, category_id: str, when: dt.date) -> list[dict]:
    start = when.replace(day=1)
    end = (start + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
    return s.ok("list_expenses", user_id=user_id, category_id=category_id, start_date=start.isoformat(),
                end_date=min(end, today(s)).isoformat(), limit=100)


def figures(s, user_id: str, category_id: str, month: str | None = None) -> dict:
    summary = s.ok("get_budget_summary", user_id=user_id, **({"month": month} if month else {}))
    return next(c for c in summary["categories"] if c["category_id"] == category_id)


def check_totals(s, user_id: str) -> None:
    """This month's summary: each category's spent is the sum of its expenses, the totals the sum
    of the categories, and the same figures as list_categories."""
    summary = s.ok("get_budget_summary", user_id=user_id)
    listed = {c["category_id"]: c for c in s.ok("list_categories", user_id=user_id)}
    for line in summary["categories"]:
        rows = month_expenses(s, user_id, line["category_id"], today(s))
        assert line["spent"] == round(sum(e["amount"] for e in rows), 2), line
        assert line["expense_count"] == len(rows)
        assert line["remaining"] == round(line["budgeted"] - line["spent"], 2)
        assert line["over_budget"] == (line["remaining"] < 0)
        if line["category_id"] in listed:
            assert listed[line["category_id"]]["spent"] == line["spent"]
    assert summary["total_spent"] == round(sum(line["spent"] for line in summary["categories"]), 2)
    assert summary["total_budgeted"] == round(sum(line["budgeted"] for line in summary["categories"]), 2)
    assert summary["total_remaining"] == round(summary["total_budgeted"] - summary["total_spent"], 2)


# -- the catalogue ----------------------------------------------------------------------------------


def test_tools_listed_and_hidden_tool_kept_from_the_agent(served):
    s = served("budget")
    from prove_env.runtime import run_sync

    names = {t.name for t in run_sync(s.client.list_tools())}
    assert len(names) >= 12 and "all_users_spending" not in names
    s.fails("all_users_spending", "unknown tool")
    hidden = served("budget", include_hidden=True)
    assert hidden.ok("all_users_spending")["total_spent"] > 0


def test_seed_world_has_the_edge_cases_tasks_need(s):
    everyone = users(s)
    assert len(everyone) >= 20 and len({u["name"] for u in everyone}) == len(everyone)
    cats = [c for u in everyone for c in s.ok("list_categories", user_id=u["user_id"], include_archived=True)]
    assert any(c["over_budget"] for c in cats) and any(c["spent"] == 0 and c["status"] == "active" for c in cats)
    assert any(c["status"] == "archived" for c in cats)
    rules = [r for u in everyone for r in s.ok("list_recurring", user_id=u["user_id"], include_cancelled=True)]
    assert any(r["due_not_posted"] for r in rules) and any(r["status"] == "cancelled" for r in rules)
    assert any(not s.ok("list_expenses", user_id=u["user_id"]) for u in everyone)  # new users
    assert not invariants(s)


@pytest.mark.parametrize("seed", range(20))
def test_nothing_in_a_fresh_world_was_recorded_after_the_clock(served, seed):
    """Today's expenses and income were entered earlier today, not later in the day than "now"."""
    world = served("budget", seed).world
    late = world.toolkit(world).after_now(Expense.created_at, Income.created_at, Expense.spent_on,
                                          Income.received_on, RecurringExpense.created_at, BudgetMove.created_at)
    assert not late, late[:5]
    assert not world.violations()


def test_a_time_after_the_clock_breaks_the_rules(s):
    """Nothing recorded as done (an expense entered, income received...) may lie after the clock."""
    with s.world.transaction() as db:
        db.get(Income, "INC-0001").created_at = s.world.now + dt.timedelta(hours=2)
    assert any("INC-0001: created_at" in p and "after the clock" in p for p in s.world.violations())


# -- users and categories ----------------------------------------------------------------------------


def test_find_users(s):
    everyone = users(s)
    one = everyone[3]
    assert s.ok("find_users", name=one["name"].split()[-1].upper())[0]["user_id"] in {
        u["user_id"] for u in everyone if one["name"].split()[-1] in u["name"]}
    assert s.ok("find_users", email=one["email"].upper()) == [one]
    assert s.ok("find_users", name="zzz-nobody") == []
    assert len(s.ok("find_users", limit=5)) == 5


def test_list_categories_shows_this_months_figures(s):
    for user in users(s)[:4]:
        check_totals(s, user["user_id"])
    user, archived = first(s, lambda c: c["status"] == "archived")
    active = s.ok("list_categories", user_id=user["user_id"])
    assert archived["category_id"] not in {c["category_id"] for c in active}
    assert [c["name"] for c in active] == sorted(c["name"] for c in active)


def test_create_category(s):
    user = users(s)[0]
    made = s.ok("create_category", user_id=user["user_id"], name="  Coffee ", monthly_limit=60.0)
    assert made["name"] == "Coffee" and made["budgeted"] == 60.0 and made["spent"] == 0 and not made["over_budget"]
    assert "Coffee" in [c["name"] for c in s.ok("list_categories", user_id=user["user_id"])]
    s.fails("create_category", "already has a category named", user_id=user["user_id"], name="coffee",
              monthly_limit=10.0)
    s.fails("create_category", "1 to 60 characters", user_id=user["user_id"], name="  ", monthly_limit=10.0)
    s.fails("create_category", "at most 100,000", user_id=user["user_id"], name="Yacht", monthly_limit=250_000.0)
    owner, archived = first(s, lambda c: c["status"] == "archived")
    s.fails("create_category", "archived category named", user_id=owner["user_id"],
              name=archived["name"].upper(), monthly_limit=10.0)


def test_set_category_limit_changes_this_months_budget(s):
    user, c = first(s, lambda c: c["status"] == "active" and c["spent"] > 0)
    result = s.ok("set_category_limit", category_id=c["category_id"], monthly_limit=c["monthly_limit"] + 100)
    assert result["previous_limit"] == c["monthly_limit"] and result["budgeted"] == c["budgeted"] + 100
    assert figures(s, user["user_id"], c["category_id"])["remaining"] == round(c["remaining"] + 100, 2)
    low = s.ok("set_category_limit", category_id=c["category_id"], monthly_limit=1.0)  # allowed: shows over budget
    assert low["over_budget"] == (c["spent"] > 1.0 + c["budgeted"] - c["monthly_limit"])
    _, archived = first(s, lambda c: c["status"] == "archived")
    s.fails("set_category_limit", "is archived", category_id=archived["category_id"], monthly_limit=50.0)
    assert not invariants(s)


def test_archive_category(s):
    for user in users(s):
        billed = {r["category_id"] for r in s.ok("list_recurring", user_id=user["user_id"])}
        cats = s.ok("list_categories", user_id=user["user_id"])
        busy = next((c for c in cats if c["category_id"] in billed), None)
        idle = next((c for c in cats if c["category_id"] not in billed), None)
        if busy and idle:
            break
    text = s.fails("archive_category", "cancel them first", category_id=busy["category_id"])
    assert "active recurring bills" in text
    archived = s.ok("archive_category", category_id=idle["category_id"])
    assert archived["status"] == "archived"
    assert idle["category_id"] not in {c["category_id"] for c in s.ok("list_categories", user_id=user["user_id"])}
    assert archived["already_archived"] is False
    s.fails("add_expense", "is archived", category_id=idle["category_id"], amount=5.0, merchant="Shell")
    s.fails("move_budget", "is archived", from_category_id=busy["category_id"],
              to_category_id=idle["category_id"], amount=1.0)
    s.fails("add_recurring_expense", "is archived", category_id=idle["category_id"], merchant="Hulu",
              amount=17.99, frequency="monthly", start_date=today(s).isoformat())
    # its spending this month still counts in the month's summary
    line = figures(s, user["user_id"], idle["category_id"]) if idle["spent"] else None
    assert line is None or line["spent"] == idle["spent"]


def test_archiving_an_archived_category_again_changes_nothing(s):
    """archive_category is idempotent: a repeat succeeds, says the category was already archived, and
    writes nothing; so does archiving a category the seed archived."""
    idle = s.ok("create_category", user_id=users(s)[0]["user_id"], name="Board Games", monthly_limit=40.0)
    assert s.ok("archive_category", category_id=idle["category_id"])["already_archived"] is False
    digest = s.world.digest()
    again = s.ok("archive_category", category_id=idle["category_id"])
    assert again["status"] == "archived" and again["already_archived"] is True
    _, seeded = first(s, lambda c: c["status"] == "archived" and c["category_id"] != idle["category_id"])
    assert s.ok("archive_category", category_id=seeded["category_id"])["already_archived"] is True
    assert s.world.digest() == digest


# -- moving budget ------------------------------------------------------------------------------------


def test_move_budget_between_categories(s):
    user, source = first(s, lambda c: c["status"] == "active" and c["remaining"] >= 50)
    target = next(c for c in s.ok("list_categories", user_id=user["user_id"])
                  if c["category_id"] != source["category_id"])
    moved = s.ok("move_budget", from_category_id=source["category_id"], to_category_id=target["category_id"],
                 amount=25.0, note="Concert")
    assert moved["from"]["budgeted"] == round(source["budgeted"] - 25, 2)
    assert moved["to"]["budgeted"] == round(target["budgeted"] + 25, 2)
    assert moved["month"] == today(s).strftime("%Y-%m")
    summary = s.ok("get_budget_summary", user_id=user["user_id"])
    before = sum(c["budgeted"] for c in s.ok("list_categories", user_id=user["user_id"]))
    assert summary["total_budgeted"] == round(before, 2)
    # exactly what is left may move; a cent more may not
    left = figures(s, user["user_id"], source["category_id"])["remaining"]
    text = s.fails("move_budget", "at most", from_category_id=source["category_id"],
                     to_category_id=target["category_id"], amount=round(left + 0.01, 2))
    assert f"{left:.2f}" in text
    done = s.ok("move_budget", from_category_id=source["category_id"], to_category_id=target["category_id"],
                amount=left)
    assert done["from"]["remaining"] == 0 and not done["from"]["over_budget"]
    s.fails("move_budget", "at budget", from_category_id=source["category_id"],
              to_category_id=target["category_id"], amount=1.0)
    assert not invariants(s)


def test_move_budget_refused_out_of_an_overspent_category(s):
    user, over = first(s, lambda c: c["status"] == "active" and c["over_budget"])
    other = next(c for c in s.ok("list_categories", user_id=user["user_id"]) if c["category_id"] != over["category_id"])
    text = s.fails("move_budget", "already over budget", from_category_id=over["category_id"],
                     to_category_id=other["category_id"], amount=10.0)
    assert f"{over['spent']:.2f}" in text and "move budget into it" in text
    # moving budget into it is the way out
    if other["remaining"] >= -over["remaining"]:
        fixed = s.ok("move_budget", from_category_id=other["category_id"], to_category_id=over["category_id"],
                     amount=round(-over["remaining"], 2))
        assert fixed["to"]["remaining"] == 0 and not fixed["to"]["over_budget"]


def test_move_budget_other_refusals(s):
    everyone = users(s)
    a = s.ok("list_categories", user_id=everyone[0]["user_id"])
    b = s.ok("list_categories", user_id=everyone[1]["user_id"])
    s.fails("move_budget", "same category", from_category_id=a[0]["category_id"],
              to_category_id=a[0]["category_id"], amount=1.0)
    s.fails("move_budget", "different users", from_category_id=a[0]["category_id"],
              to_category_id=b[0]["category_id"], amount=1.0)
    s.fails("move_budget", "greater than 0", from_category_id=a[0]["category_id"],
              to_category_id=a[1]["category_id"], amount=-5.0)


# -- totals ------------------------------------------------------------------------------------------


def test_get_budget_summary_month_to_date_and_past_months(s):
    user = users(s)[2]
    now = today(s)
    summary = s.ok("get_budget_summary", user_id=user["user_id"])
    assert summary["month_to_date"] and summary["month"] == now.strftime("%Y-%m")
    assert summary["over_budget"] == [c["name"] for c in summary["categories"] if c["over_budget"]]
    income = s.ok("list_income", user_id=user["user_id"], start_date=now.replace(day=1).isoformat(), limit=100)
    assert summary["total_income"] == income["total"] and summary["net"] == round(income["total"] - summary["total_spent"], 2)
    last = (now.replace(day=1) - dt.timedelta(days=1))
    past = s.ok("get_budget_summary", user_id=user["user_id"], month=last.strftime("%Y-%m"))
    assert not past["month_to_date"] and past["as_of"] == last.isoformat()
    for line in past["categories"]:
        assert line["spent"] == round(sum(e["amount"] for e in month_expenses(s, user["user_id"], line["category_id"],
                                                                              last)), 2)
    assert past["total_spent"] == round(sum(c["spent"] for c in past["categories"]), 2)
    nxt = (now.replace(day=1) + dt.timedelta(days=32)).strftime("%Y-%m")
    s.fails("get_budget_summary", "has not started yet", user_id=user["user_id"], month=nxt)
    s.fails("get_budget_summary", "'YYYY-MM'", user_id=user["user_id"], month="July")
    s.fails("get_budget_summary", "'YYYY-MM'", user_id=user["user_id"], month="2026-13")


def test_get_category_history(s):
    user, c = first(s, lambda c: c["status"] == "active" and c["spent"] > 0)
    history = s.ok("get_category_history", category_id=c["category_id"], months=3)
    assert [m["month"] for m in history["months"]][0] == today(s).strftime("%Y-%m")
    assert history["months"][0]["spent"] == c["spent"]
    for m in history["months"]:
        assert m["spent"] == figures(s, user["user_id"], c["category_id"], m["month"])["spent"]
    assert history["average_spent"] == round(sum(m["spent"] for m in history["months"]) / 3, 2)
    far = s.ok("get_category_history", category_id=c["category_id"], months=12)["months"]
    assert len(far) == 12 and far[-1]["spent"] == 0 and far[-1]["budgeted"] == 0
    s.fails("get_category_history", "from 1 to 12", category_id=c["category_id"], months=13)


# -- expenses ---------------------------------------------------------------------------------------


def test_list_and_get_expenses(s):
    user = users(s)[0]
    uid = user["user_id"]
    recent = s.ok("list_expenses", user_id=uid, limit=100)
    assert recent and [e["date"] for e in recent] == sorted((e["date"] for e in recent), reverse=True)
    merchant = recent[0]["merchant"]
    assert all(merchant.lower() in e["merchant"].lower()
               for e in s.ok("list_expenses", user_id=uid, merchant=merchant.upper()))
    assert all(e["amount"] >= 100 for e in s.ok("list_expenses", user_id=uid, min_amount=100.0, limit=100))
    assert all(e["payment_method"] == "cash" for e in s.ok("list_expenses", user_id=uid, payment_method="cash"))
    one = s.ok("get_expense", expense_id=recent[0]["expense_id"])
    assert one["amount"] == recent[0]["amount"] and "note" in one and "recurring_id" in one
    s.fails("list_expenses", "is after", user_id=uid, start_date="2026-05-02", end_date="2026-05-01")


def test_add_expense_grows_the_month_and_can_go_over_budget(s):
    user, c = first(s, lambda c: c["status"] == "active" and c["remaining"] > 20)
    added = s.ok("add_expense", category_id=c["category_id"], amount=12.34, merchant="Shell", payment_method="cash",
                 note="Fill-up")
    assert added["date"] == today(s).isoformat() and added["category"] == c["name"] and added["note"] == "Fill-up"
    assert added["category_month"]["spent"] == round(c["spent"] + 12.34, 2)
    big = round(c["remaining"] + 50, 2)
    over = s.ok("add_expense", category_id=c["category_id"], amount=big, merchant="Costco")
    assert over["category_month"]["over_budget"] and over["category_month"]["remaining"] == round(
        c["remaining"] - 12.34 - big, 2)
    assert c["name"] in s.ok("get_budget_summary", user_id=user["user_id"])["over_budget"]
    yesterday = (today(s) - dt.timedelta(days=1)).isoformat()
    assert s.ok("add_expense", category_id=c["category_id"], amount=1.0, merchant="Kiosk", date=yesterday)["date"] == yesterday
    tomorrow = (today(s) + dt.timedelta(days=1)).isoformat()
    s.fails("add_expense", "after today", category_id=c["category_id"], amount=5.0, merchant="Shell", date=tomorrow)
    s.fails("add_expense", "more than a year back", category_id=c["category_id"], amount=5.0, merchant="Shell",
              date="2020-01-01")
    s.fails("add_expense", "at most 50,000", category_id=c["category_id"], amount=75_000.0, merchant="Car dealer")
    s.fails("add_expense", "merchant must be 1 to 60", category_id=c["category_id"], amount=5.0, merchant=" ")
    # an expense in a month without figures yet starts that month from the category's limit
    old = (today(s) - dt.timedelta(days=200)).isoformat()
    s.ok("add_expense", category_id=c["category_id"], amount=9.99, merchant="Old receipt", date=old)
    assert figures(s, user["user_id"], c["category_id"], old[:7])["spent"] == 9.99
    check_totals(s, user["user_id"])
    assert not invariants(s)


def test_delete_expense(s):
    user, c = first(s, lambda c: c["status"] == "active" and c["expense_count"] >= 2)
    victim = month_expenses(s, user["user_id"], c["category_id"], today(s))[0]
    gone = s.ok("delete_expense", expense_id=victim["expense_id"])
    assert gone["deleted"] and gone["category_month"]["spent"] == round(c["spent"] - victim["amount"], 2)
    assert gone["category_month"]["expense_count"] == c["expense_count"] - 1
    s.fails("get_expense", "not found", expense_id=victim["expense_id"])
    s.fails("delete_expense", "not found", expense_id=victim["expense_id"])
    check_totals(s, user["user_id"])


def test_recategorize_expense(s):
    user, c = first(s, lambda c: c["status"] == "active" and c["expense_count"] >= 1)
    other = next(x for x in s.ok("list_categories", user_id=user["user_id"]) if x["category_id"] != c["category_id"])
    expense = month_expenses(s, user["user_id"], c["category_id"], today(s))[0]
    moved = s.ok("recategorize_expense", expense_id=expense["expense_id"], category_id=other["category_id"])
    assert moved["category_id"] == other["category_id"] and moved["amount"] == expense["amount"]
    assert moved["from"]["spent"] == round(c["spent"] - expense["amount"], 2)
    assert moved["to"]["spent"] == round(other["spent"] + expense["amount"], 2)
    assert moved["already_there"] is False
    stranger = s.ok("list_categories", user_id=users(s)[-3]["user_id"])[0]
    s.fails("recategorize_expense", "belongs to another user", expense_id=expense["expense_id"],
              category_id=stranger["category_id"])
    check_totals(s, user["user_id"])


def test_recategorizing_into_its_own_category_again_changes_nothing(s):
    """recategorize_expense is idempotent: a repeat succeeds, says the expense is already there, and
    writes nothing; the totals stay those of the first move."""
    user, c = first(s, lambda c: c["status"] == "active" and c["expense_count"] >= 1)
    other = next(x for x in s.ok("list_categories", user_id=user["user_id"]) if x["category_id"] != c["category_id"])
    expense = month_expenses(s, user["user_id"], c["category_id"], today(s))[0]
    moved = s.ok("recategorize_expense", expense_id=expense["expense_id"], category_id=other["category_id"])
    digest = s.world.digest()
    again = s.ok("recategorize_expense", expense_id=expense["expense_id"], category_id=other["category_id"])
    assert s.world.digest() == digest
    assert again["already_there"] is True and again["category_id"] == other["category_id"]
    assert again["to"] == again["from"] == moved["to"]
    check_totals(s, user["user_id"])


def test_split_expense(s):
    user, c = first(s, lambda c: c["status"] == "active" and any(
        e["amount"] > 30 for e in month_expenses(s, c["user_id"], c["category_id"], today(s))))
    expense = next(e for e in month_expenses(s, user["user_id"], c["category_id"], today(s)) if e["amount"] > 30)
    other = next(x for x in s.ok("list_categories", user_id=user["user_id"]) if x["category_id"] != c["category_id"])
    split = s.ok("split_expense", expense_id=expense["expense_id"], amount=20.0, category_id=other["category_id"],
                 note="Household items")
    assert split["original"]["amount"] == round(expense["amount"] - 20, 2)
    part = split["part"]
    assert part["amount"] == 20 and part["split_from"] == expense["expense_id"] and part["merchant"] == expense["merchant"]
    assert part["date"] == expense["date"] and part["payment_method"] == expense["payment_method"]
    assert split["original"]["category_month"]["spent"] == round(c["spent"] - 20, 2)
    assert split["part"]["category_month"]["spent"] == round(other["spent"] + 20, 2)
    s.fails("split_expense", "less than", expense_id=expense["expense_id"],
              amount=split["original"]["amount"], category_id=other["category_id"])
    s.fails("split_expense", "into another category", expense_id=expense["expense_id"], amount=1.0,
              category_id=c["category_id"])
    check_totals(s, user["user_id"])
    assert not invariants(s)


# -- income ----------------------------------------------------------------------------------------


def test_add_and_list_income(s):
    user = users(s)[5]
    start = today(s).replace(day=1).isoformat()
    before = s.ok("list_income", user_id=user["user_id"], start_date=start, limit=100)
    added = s.ok("add_income", user_id=user["user_id"], amount=180.0, source="Tutoring")
    assert added["date"] == today(s).isoformat() and added["month_income"] == round(before["total"] + 180, 2)
    after = s.ok("list_income", user_id=user["user_id"], start_date=start, limit=100)
    assert after["income"][0]["income_id"] == added["income_id"] and after["total"] == added["month_income"]
    assert s.ok("get_budget_summary", user_id=user["user_id"])["total_income"] == after["total"]
    tomorrow = (today(s) + dt.timedelta(days=1)).isoformat()
    s.fails("add_income", "after today", user_id=user["user_id"], amount=5.0, source="Gift", date=tomorrow)
    s.fails("add_income", "source must be", user_id=user["user_id"], amount=5.0, source="")


# -- recurring bills ---------------------------------------------------------------------------------


def _behind(s) -> tuple[dict, list[dict]]:
    for user in users(s):
        due = [r for r in s.ok("list_recurring", user_id=user["user_id"]) if r["due_not_posted"]]
        if due:
            return user, due
    raise AssertionError("no recurring bill is behind in the seed-0 world")


def test_post_due_recurring_posts_up_to_today_once(s):
    user, due = _behind(s)
    uid = user["user_id"]
    spent = {r["category_id"]: figures(s, uid, r["category_id"])["spent"] for r in due}
    posted = s.ok("post_due_recurring", user_id=uid)
    assert posted["count"] == sum(r["due_not_posted"] for r in due)
    assert all(e["date"] <= today(s).isoformat() for e in posted["posted"])
    assert posted["total"] == round(sum(e["amount"] for e in posted["posted"]), 2)
    for rule in s.ok("list_recurring", user_id=uid):
        assert rule["due_not_posted"] == 0 and rule["next_date"] > today(s).isoformat()
    this_month = today(s).strftime("%Y-%m")
    for cid, before in spent.items():
        added = sum(e["amount"] for e in posted["posted"] if e["category_id"] == cid and e["date"][:7] == this_month)
        assert figures(s, uid, cid)["spent"] == round(before + added, 2)
    entry = s.ok("get_expense", expense_id=posted["posted"][0]["expense_id"])
    assert entry["recurring_id"] in {r["recurring_id"] for r in due}
    before = s.world.digest()
    assert s.ok("post_due_recurring", user_id=uid)["count"] == 0  # nothing is posted twice
    assert s.world.digest() == before
    assert not invariants(s)


def test_add_recurring_expense_posts_the_due_dates_already_passed(s):
    user, c = first(s, lambda c: c["status"] == "active" and c["name"] == "Groceries")
    start = today(s) - dt.timedelta(days=15)
    rule = s.ok("add_recurring_expense", category_id=c["category_id"], merchant="HelloFresh", amount=71.92,
                frequency="weekly", start_date=start.isoformat())
    assert [e["date"] for e in rule["posted"]] == [(start + dt.timedelta(days=7 * i)).isoformat() for i in range(3)]
    assert rule["next_date"] == (start + dt.timedelta(days=21)).isoformat() and rule["due_not_posted"] == 0
    later = s.ok("add_recurring_expense", category_id=c["category_id"], merchant="Audible", amount=14.95,
                 frequency="monthly", start_date=(today(s) + dt.timedelta(days=3)).isoformat())
    assert later["posted"] == [] and later["status"] == "active"
    listed = {r["merchant"] for r in s.ok("list_recurring", user_id=user["user_id"])}
    assert {"HelloFresh", "Audible"} <= listed
    s.fails("add_recurring_expense", "already an active recurring bill", category_id=c["category_id"],
              merchant="hellofresh", amount=60.0, frequency="weekly", start_date=today(s).isoformat())
    s.fails("add_recurring_expense", "at most 90 days back", category_id=c["category_id"], merchant="Hulu",
              amount=17.99, frequency="monthly", start_date=(today(s) - dt.timedelta(days=120)).isoformat())
    s.fails("add_recurring_expense", "at most a year ahead", category_id=c["category_id"], merchant="Hulu",
              amount=17.99, frequency="monthly", start_date=(today(s) + dt.timedelta(days=400)).isoformat())
    check_totals(s, user["user_id"])


def test_monthly_bills_keep_their_day_in_short_months(s):
    user, c = first(s, lambda c: c["status"] == "active")
    start = today(s) - dt.timedelta(days=80)
    start = start.replace(day=31) if start.month in (1, 3, 5, 7, 8, 10, 12) else start
    rule = s.ok("add_recurring_expense", category_id=c["category_id"], merchant="Storage Unit", amount=99.0,
                frequency="monthly", start_date=start.isoformat())
    days = [dt.date.fromisoformat(e["date"]) for e in rule["posted"]]
    assert days[0] == start and all(d <= today(s) for d in days)
    if start.day == 31:
        import calendar
        assert all(d.day == min(31, calendar.monthrange(d.year, d.month)[1]) for d in days)


def test_cancel_recurring(s):
    user, due = _behind(s)
    rule = due[0]
    cancelled = s.ok("cancel_recurring", recurring_id=rule["recurring_id"])
    assert cancelled["status"] == "cancelled" and cancelled["due_not_posted"] == 0
    assert rule["recurring_id"] not in {r["recurring_id"] for r in s.ok("list_recurring", user_id=user["user_id"])}
    listed = s.ok("list_recurring", user_id=user["user_id"], include_cancelled=True)
    assert any(r["recurring_id"] == rule["recurring_id"] for r in listed)
    posted = s.ok("post_due_recurring", user_id=user["user_id"])
    assert all(e["merchant"] != rule["merchant"] for e in posted["posted"])
    s.fails("cancel_recurring", "already cancelled", recurring_id=rule["recurring_id"])


# -- totals always equal the sum of their rows -------------------------------------------------------


def test_totals_equal_the_sum_of_their_rows_over_random_edits(s):
    """A seeded random sequence of every kind of edit, with the month's totals checked against the
    expense rows (and the invariants) after each step."""
    rng = random.Random(7)
    user = users(s)[0]
    uid = user["user_id"]
    now = today(s)
    done: list[str] = []

    def edit(tool: str, **arguments) -> None:
        if s.call(tool, **arguments).ok:
            done.append(tool)

    for step in range(40):
        cats = s.ok("list_categories", user_id=uid)
        expenses = s.ok("list_expenses", user_id=uid, start_date=(now - dt.timedelta(days=50)).isoformat(), limit=100)
        action = rng.choice(["add", "add", "delete", "recategorize", "split", "move", "limit", "recurring", "update"])
        a, b = rng.sample(cats, 2)
        amount = round(rng.uniform(1, 120), 2)
        if action == "add":
            edit("add_expense", category_id=a["category_id"], amount=amount, merchant="Random Mart",
                   date=(now - dt.timedelta(days=rng.randint(0, 45))).isoformat())
        elif action == "delete" and expenses:
            edit("delete_expense", expense_id=rng.choice(expenses)["expense_id"])
        elif action == "recategorize" and expenses:
            edit("recategorize_expense", expense_id=rng.choice(expenses)["expense_id"], category_id=b["category_id"])
        elif action == "split" and expenses:
            edit("split_expense", expense_id=rng.choice(expenses)["expense_id"], amount=round(amount / 4, 2),
                   category_id=b["category_id"])
        elif action == "update" and expenses:
            edit("update_expense", expense_id=rng.choice(expenses)["expense_id"], amount=amount,
                   date=(now - dt.timedelta(days=rng.randint(0, 45))).isoformat())
        elif action == "move":
            edit("move_budget", from_category_id=a["category_id"], to_category_id=b["category_id"], amount=amount)
        elif action == "limit":
            edit("set_category_limit", category_id=a["category_id"], monthly_limit=float(rng.randrange(50, 900, 10)))
        else:
            edit("add_recurring_expense", category_id=a["category_id"], merchant=f"Bill {step}", amount=amount,
                   frequency=rng.choice(["weekly", "monthly"]),
                   start_date=(now - dt.timedelta(days=rng.randint(0, 60))).isoformat())
        assert not invariants(s), f"after step {step} ({action})"
        if step % 5 == 4:
            check_totals(s, uid)
    check_totals(s, uid)
    assert len(set(done)) == 8 and len(done) >= 25, done  # every kind of edit, most of them accepted
    last = (now.replace(day=1) - dt.timedelta(days=1))
    past = s.ok("get_budget_summary", user_id=uid, month=last.strftime("%Y-%m"))
    for line in past["categories"]:
        assert line["spent"] == round(sum(e["amount"] for e in month_expenses(s, uid, line["category_id"], last)), 2)


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------


def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play, served):
    from prove_env.task import Task

    s = served("budget")
    user = users(s)[0]
    uid, name = user["user_id"], user["name"]
    groceries = category(s, uid, "Groceries")
    dining = category(s, uid, "Dining Out")
    left = groceries["remaining"]
    ask = Task(id="left", server="budget", seed=0,
               user_turns=[f"Hi, this is {name}. How much is left in my groceries budget this month?"],
               gold=[[{"id": "g1", "name": "find_users", "arguments": {"name": name}},
                      {"id": "g2", "name": "list_categories", "arguments": {"user_id": uid}, "depends_on": ["g1"]}]],
               facts=[[left]])
    # another correct path: the month's summary carries the same figure, the user found by email
    other = play(ask, [_call("find_users", email=user["email"]), _call("get_budget_summary", user_id=uid),
                       f"You have ${left:,.2f} left for groceries."])
    assert other["success"] and other["reward_breakdown"]["coverage"] < 1
    assert not play(ask, [_call("list_categories", user_id=uid), "About a few hundred dollars."])["success"]
    # the right answer, then damage nobody asked for: an expense deleted
    victim = s.ok("list_expenses", user_id=uid, limit=1)[0]["expense_id"]
    damage = play(ask, [_call("list_categories", user_id=uid), _call("delete_expense", expense_id=victim),
                        f"You have ${left:,.2f} left."])
    assert not damage["success"]

    log = Task(id="log", server="budget", seed=0,
               user_turns=[f"This is {name}. I spent $23.40 at Safeway today; put it under groceries."],
               gold=[[{"id": "g1", "name": "find_users", "arguments": {"name": name}},
                      {"id": "g2", "name": "list_categories", "arguments": {"user_id": uid}, "depends_on": ["g1"]},
                      {"id": "g3", "name": "add_expense", "depends_on": ["g2"],
                       "arguments": {"category_id": groceries["category_id"], "amount": 23.4, "merchant": "Safeway"}}]])
    # a note the user did not ask for is a detail, not damage
    noted = play(log, [_call("add_expense", category_id=groceries["category_id"], amount=23.4, merchant="Safeway",
                             note="Groceries run"), "Logged $23.40 at Safeway."])
    assert noted["success"]
    wrong = play(log, [_call("add_expense", category_id=dining["category_id"], amount=23.4, merchant="Safeway"),
                       "Logged."])
    assert not wrong["success"]


def test_update_expense_moves_its_amount_between_months(s):
    user, c = first(s, lambda c: c["status"] == "active" and c["expense_count"] >= 1)
    uid = user["user_id"]
    expense = month_expenses(s, uid, c["category_id"], today(s))[0]
    fixed = s.ok("update_expense", expense_id=expense["expense_id"], amount=round(expense["amount"] + 10, 2),
                 payment_method="cash", note="Receipt checked")
    assert fixed["amount"] == round(expense["amount"] + 10, 2) and fixed["payment_method"] == "cash"
    assert fixed["category_month"]["spent"] == round(c["spent"] + 10, 2) and "previous_month" not in fixed
    last_month = (today(s).replace(day=1) - dt.timedelta(days=3))
    before = figures(s, uid, c["category_id"], last_month.strftime("%Y-%m"))
    moved = s.ok("update_expense", expense_id=expense["expense_id"], date=last_month.isoformat(), merchant="Corner Store")
    assert moved["merchant"] == "Corner Store" and moved["date"] == last_month.isoformat()
    assert moved["previous_month"]["spent"] == round(c["spent"] - expense["amount"], 2)
    assert moved["category_month"]["spent"] == round(before["spent"] + fixed["amount"], 2)
    assert figures(s, uid, c["category_id"])["spent"] == moved["previous_month"]["spent"]
    s.fails("update_expense", "Nothing to change", expense_id=expense["expense_id"])
    s.fails("update_expense", "after today", expense_id=expense["expense_id"],
              date=(today(s) + dt.timedelta(days=2)).isoformat())
    s.fails("update_expense", "merchant must be", expense_id=expense["expense_id"], merchant="")
    check_totals(s, uid)
    assert not invariants(s)


def test_the_remaining_refusals_change_nothing(s):
    everyone = users(s)
    user, c = first(s, lambda c: c["status"] == "active" and c["remaining"] >= 60 and c["expense_count"] >= 1)
    other = next(x for x in s.ok("list_categories", user_id=user["user_id"]) if x["category_id"] != c["category_id"])
    stranger = s.ok("list_categories", user_id=everyone[-3]["user_id"])[0]
    expense = month_expenses(s, user["user_id"], c["category_id"], today(s))[0]
    # a limit below what was moved out this month would leave a negative budget
    s.ok("move_budget", from_category_id=c["category_id"], to_category_id=other["category_id"], amount=50.0)
    text = s.fails("set_category_limit", "moved out this month", category_id=c["category_id"], monthly_limit=20.0)
    assert "at least 50.00" in text
    # an archived category takes no expense, whether moved, split or corrected into it
    old = s.ok("create_category", user_id=user["user_id"], name="Old Hobby", monthly_limit=10.0)
    archived = s.ok("archive_category", category_id=old["category_id"])
    s.fails("recategorize_expense", "is archived", expense_id=expense["expense_id"],
              category_id=archived["category_id"])
    s.fails("split_expense", "is archived", expense_id=expense["expense_id"], amount=1.0,
              category_id=archived["category_id"])
    s.fails("split_expense", "belongs to another user", expense_id=expense["expense_id"], amount=1.0,
              category_id=stranger["category_id"])
    s.fails("update_expense", "at most 50,000", expense_id=expense["expense_id"], amount=60_000.0)
    s.fails("add_income", "at most 50,000", user_id=user["user_id"], amount=60_000.0, source="Lottery")
    s.fails("add_recurring_expense", "at most 50,000", category_id=c["category_id"], merchant="Yacht club",
              amount=60_000.0, frequency="monthly", start_date=today(s).isoformat())
    s.fails("add_recurring_expense", "merchant must be", category_id=c["category_id"], merchant=" ",
              amount=6.0, frequency="monthly", start_date=today(s).isoformat())
    assert not invariants(s)


# -- synthesized requests ---------------------------------------------------------------------------


def _asks(tool: str, *, seed: int = 0, draws: int = 60) -> list[tuple]:
    """Requests the recipe writes for `tool` from the bundles of one world, each with the result of its
    call and a reader of that world (every tool asked about here reads, or is only built)."""
    import json

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("budget"), get_recipe("budget")
    world = worlds.create(toolkit, seed)
    read = Reader(toolkit, world)
    rng = random.Random(f"budget asks {seed}")
    bundles = recipe.sample(read, world.now, rng)
    found = []
    for goal in (g for g in recipe.goals if g.tool == tool):
        for _ in range(draws):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is not None:
                result = json.loads(toolkit(world).run(tool, dict(ask.args))) if ask.facts else None
                found.append((ask, result, read))
    return found


def test_an_expense_is_looked_up_for_what_the_list_of_expenses_does_not_show():
    """The list of expenses (the look-up that finds an expense by merchant and day) shows its amount,
    category and payment method: `get_expense` is asked for its note, and a question about what the
    list shows is asked of the list itself."""
    import json

    asks = _asks("get_expense")
    assert len(asks) > 20
    for ask, result, read in asks:
        listed = read("list_expenses", user_id=result["user_id"], merchant=result["merchant"],
                      start_date=result["date"], end_date=result["date"])
        assert not all(json.dumps(f) in json.dumps(listed) for f in ask.facts(result)), ask.say
    single = [(ask, result) for ask, result, _ in _asks("list_expenses") if ask.args.get("end_date")]
    assert single
    for ask, result in single:
        assert ask.facts(result), ask.say


def test_a_split_that_waits_for_its_amount_is_not_asked_for_twice():
    """'Can you split that part off?' followed by 'Split off $20.' asks twice: the amount comes alone."""
    held = [ask for ask, _, _ in _asks("split_expense", draws=200) if ask.detail]
    assert held
    for ask in held:
        assert "split" not in ask.detail.lower(), (ask.say, ask.detail)


def test_an_amount_of_nothing_is_stated_in_words():
    """'You haven't spent anything on travel yet' answers a question whose amount is 0 (a category
    with no spending, a month without income): an amount of 0 is not only the digit."""
    from prove_env.facts import stated, values

    zeros = []
    for tool in ("list_categories", "get_budget_summary", "get_category_history"):
        for ask, result, _ in _asks(tool, draws=120):
            zeros += [(ask.say, fact) for fact in ask.facts(result) if 0 in values(fact)]
    assert zeros
    for say, fact in zeros:
        assert stated(fact, "You haven't spent anything there yet."), (say, fact)
        assert stated(fact, "Nothing so far."), (say, fact)


def test_a_held_back_month_is_asked_as_an_earlier_one():
    """A request that waits for its month ('Could you compare my income with my spending?') would be
    answered for this month, the summary's default; it says an earlier month is meant."""
    held = [ask for ask, _, _ in _asks("get_budget_summary", draws=200) if ask.detail]
    assert held
    for ask in held:
        assert "earlier month" in ask.say, ask.say


def test_a_months_income_total_is_hidden_with_its_summary():
    """"Which income did I get during November 2026? Each source, and the total." with `list_income`
    hidden is half answered by `get_budget_summary`, whose `total_income` is the month's total: the two
    are declared substitutes, so a missing-function task never hides the one while it shows the other."""
    from prove_env.synthesis.recipe import get_recipe

    months = 0
    for ask, result, read in _asks("list_income"):
        start = ask.args["start_date"]
        if start[8:] != "01" or ask.args.get("end_date", "")[:7] != start[:7]:
            continue  # this month to date (its first day alone bounds it) is skipped below as well
        summary = read("get_budget_summary", user_id=ask.args["user_id"], month=start[:7])
        if summary["month_to_date"]:
            continue
        months += 1
        assert summary["total_income"] == result["total"], ask.say
        assert result["total"] in ask.facts(result), ask.say
    assert months
    assert "get_budget_summary" in get_recipe("budget").substitutes_of("list_income")


def test_the_next_bill_asked_for_is_not_one_already_due():
    """"Next iCloud+ bill: date, amount?" asked on December 3 of a bill due November 27 and not posted has
    two readings (the one due, or the one after it): only a bill due from today on is asked about."""
    asked = due = 0
    for ask, result, _ in _asks("list_recurring", draws=300):
        if not ask.mentions:
            continue  # the list of every bill
        rule = next(r for r in result if r["merchant"] == ask.mentions[0])
        asked += 1
        assert not rule["due_not_posted"], ask.say
        due += any(r["due_not_posted"] for r in result)
    assert asked and due  # some users asked about had a bill already due


def test_income_is_said_to_come_from_a_source_only_where_that_reads():
    """"I got some money from Birthday money from Grandma yesterday" puts a label after "from": a source
    such as "Sold old bike" or "Tax refund" is given as the source's name, in the user's words."""
    sources = set()
    for ask, _, _ in _asks("add_income", draws=300):
        source = ask.args["source"]
        words = " ".join(w for w in (ask.say, ask.detail or "") if w)
        assert source in words, words
        if source in ("Sold old bike", "Birthday money from Grandma", "Tax refund"):
            sources.add(source)
            assert f"from {source}" not in words, words
    assert len(sources) == 3


def test_an_expense_named_by_merchant_and_day_is_looked_up_by_what_finds_it():
    """"Recategorize my Panera Bread expense from March 18" (the category held back) looked the expense up
    with the merchant and the day, though March 18 holds that expense alone: an agent listing the day finds
    the same and lost the call. The merchant is passed only where the day holds another expense too."""
    from prove_env.synthesis.recipe import get_recipe

    lookup = next(x for x in get_recipe("budget").lookups if x.kind == "expense")
    alone = shared = 0
    for tool in ("recategorize_expense", "delete_expense", "get_expense", "update_expense"):
        for ask, _, read in _asks(tool, draws=40):
            for ref in (r for r in ask.refs if r.kind == "expense"):
                args = lookup.args(ref)
                found = read("list_expenses", **args)
                assert ref.key in [e["expense_id"] for e in found], ask.say
                day = {k: v for k, v in args.items() if k != "merchant"}
                if "merchant" in args:
                    shared += 1
                    assert read("list_expenses", **day) != found, ask.say
                else:
                    alone += 1
                    assert len(found) == 1, ask.say
    assert alone and shared


def test_budget_given_away_is_said_to_be_a_budget():
    """"I won't need all of home this month" reads as the house: the category is said as a budget."""
    says = [ask.say for ask, _, _ in _asks("move_budget", draws=200)]
    assert any("won't need all of" in say for say in says)
    for say in says:
        if "all of" in say:
            assert "all of my" in say and "budget" in say, say


def test_a_month_given_with_its_request_is_not_said_as_a_correction():
    """"What came in during a past month? Each source and the total. I mean September 2026." corrects
    a slip that was never made: the sentence giving the month follows the request in the same message
    (or answers the assistant's question), so it names the month without "I mean"."""
    details = [ask.detail for tool in ("list_income", "get_budget_summary")
               for ask, _, _ in _asks(tool, draws=200) if ask.detail]
    assert len(details) > 20
    for detail in details:
        assert not detail.lower().startswith(("i mean", "sorry", "actually", "no,")), detail
    assert any(detail.startswith("I'm thinking of") for detail in details)


def test_no_request_is_left_to_a_hidden_total_the_shown_tools_add_up_to():
    """all_users_spending gives what every user spent this month: find_users with neither name nor
    e-mail lists every user and get_budget_summary each one's spending, so the shown tools add up to
    the total and no task asks for it as out of reach."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("budget"), get_recipe("budget")
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    total = read("all_users_spending")["total_spent"]
    users = read("find_users", limit=100)
    added = round(sum(read("get_budget_summary", user_id=u["user_id"])["total_spent"] for u in users), 2)
    world.close()
    assert total > 0 and added == total
    assert not [h for h in recipe.hidden if h.tool == "all_users_spending"]


def test_posting_due_bills_is_asked_in_plain_words():
    """"Catch up my repeating bills to today" is an odd way to ask for the due recurring bills to be
    posted: every wording of the request names them as recurring bills or expenses, never "repeating"."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("budget"), get_recipe("budget")
    world = worlds.create(toolkit, 0)
    rng = random.Random("budget post due")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    says = {ask.say for goal in recipe.goals if goal.tool == "post_due_recurring"
            for ask in (goal.build(rng.choice(bundles), rng) for _ in range(300)) if ask is not None}
    assert len(says) >= 6
    for say in says:
        assert "recurring" in say and "repeating" not in say, say


def test_an_expense_is_moved_or_split_only_into_a_category_it_may_belong_to():
    """"Recategorize my Safeway expense from March 17 as rent" and "split what I spent at Sweetgreen into
    rent" drew the new category at random among the user's others: a receipt from a store is moved or
    split only into a category its purchase may be (a Safeway receipt into pets or home, a Shell fill-up
    into travel), never into rent, utilities or subscriptions, and nothing of a one-service merchant (the
    rent, the dog walker) is moved at all."""
    from servers.budget.synth import REFILED

    bills = {"Rent", "Utilities", "Subscriptions"}
    services = {"Rover Dog Walking", "Greystar Apartments", "Avalon Communities", "PG&E", "Comcast Xfinity",
                "City Water", "24 Hour Fitness"}
    seen = 0
    for tool in ("recategorize_expense", "split_expense"):
        for seed in (0, 1):
            for ask, _, read in _asks(tool, seed=seed, draws=40):
                expense = read("get_expense", expense_id=ask.args["expense_id"])
                into = read("get_category_history", category_id=ask.args["category_id"], months=1)["name"]
                assert into not in bills and expense["merchant"] not in services, ask.say
                assert into in REFILED[expense["category"]], ask.say
                seen += 1
    assert seen > 40


def test_an_expense_is_named_by_a_noun_phrase_wherever_it_stands():
    """"The amount on what I spent at Kroger on December 18 is wrong." named the expense by a clause that
    reads badly after "the amount on", "a note on", "I typed ... wrong" or "I actually paid ... with": an
    expense a request acts on is named as a thing ("the Kroger entry from December 18"), and a change of how
    it was paid says that the expense was paid so."""
    import re

    clause = re.compile(r"\b(on|of|paid|typed|correct|delete|recategorize|file|split|remove) what I spent\b")
    says = [say for tool in ("update_expense", "get_expense", "delete_expense", "recategorize_expense",
                             "split_expense")
            for ask, _, _ in _asks(tool, draws=120) for say in (ask.say, ask.terse or "")]
    assert len(says) > 200
    for say in says:
        assert not clause.search(say) and "I actually paid the" not in say and "I actually paid my" not in say, say


def test_a_duplicate_is_named_before_it_is_called_one():
    """"That's a duplicate: remove my Aldi expense from December 7." opens the conversation with "that"
    before anything was named: the expense is named first, then said to be a duplicate."""
    says = [ask.say for ask, _, _ in _asks("delete_expense", draws=200)]
    assert any("duplicate" in say for say in says)
    for say in says:
        assert not say.startswith(("That", "It ")), say


def test_an_income_label_is_quoted_wherever_it_stands_bare():
    """"Income $220 today, Sold old bike." reads as a stray clause: a source that is a label ("Sold old
    bike", "Birthday money from Grandma") is quoted in the terse request and wherever it stands without
    "from", and a source that is a kind of work is said to be where the money came from."""
    from servers.budget.synth import FROM_SOURCES

    asks = [ask for ask, _, _ in _asks("add_income", draws=300)]
    labels = [ask for ask in asks if ask.args["source"] not in FROM_SOURCES]
    assert labels and len(labels) < len(asks)
    for ask in asks:
        source = ask.args["source"]
        if source in FROM_SOURCES:
            assert f"from {source}" in ask.terse, ask.terse
        else:
            assert f"'{source}'" in ask.terse, ask.terse
            assert f"source {source}" not in ask.say, ask.say


def test_a_category_an_earlier_read_showed_by_id_is_not_listed_again():
    """"Income vs spending in April 2026?" then "Personal Care limit $110." listed the categories before the
    limit was set, though April's summary had just shown Personal Care with its id: an agent taking the id
    from there lost coverage. A read that shows categories by id beside their names (a month's summary,
    the list of bills, an expense's line or record) settles them, and no list of the categories follows
    it only to find one of those again."""
    from prove_env.synthesis.compose import Composer
    from prove_env.synthesis.config import SynthConfig
    from prove_env.synthesis.graph import dependency_graph
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.registry import get_toolkit
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("budget"), get_recipe("budget")
    config = SynthConfig(missing_function_rate=0.0, irrelevant_rate=0.0, hidden_rate=0.0, distractor_rate=0.0)
    taking = ("category_id", "from_category_id", "to_category_id")
    problems, settled = [], 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"budget settles {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        composer = Composer(recipe, dependency_graph("budget"), bundles, config, rng)
        for draft in (d for d in (composer.draft() for _ in range(150)) if d is not None):
            trial = world.clone()
            tools = toolkit(trial)
            shown = ""  # what the reads that show categories by id have shown so far
            for call in draft.calls:
                output = tools.run(call.name, dict(call.arguments))
                takers = [c for c in draft.calls if call.id in c.depends_on]
                taken = {c.arguments[k] for c in takers for k in taking if k in c.arguments}
                if call.name == "list_categories" and not draft.facts_of.get(call.id) and taken:
                    if all(cid in shown for cid in taken):
                        problems.append(f"{draft.user_turns}: {call.id} lists the categories for {sorted(taken)}")
                if call.name in ("get_budget_summary", "list_recurring", "list_expenses", "get_expense"):
                    settled += any(cid in output for c in takers for cid in taken)
                    shown += output
            trial.close()
        world.close()
    assert not problems, "\n".join(problems[:5])
    assert settled, "no request took a category's id from a read that showed it"


def test_a_terse_total_says_which_total():
    """"Over-budget categories and total for May 2026?" was checked by the total spent alone, though the
    summary's total may as well be the total budget: every terse request for a month's total says
    whether the total spent or the total budget is meant."""
    import re

    terses = {ask.terse for ask, _, _ in _asks("get_budget_summary", draws=300)}
    assert any("Over-budget" in t for t in terses)
    for terse in terses:
        for found in re.finditer(r"\btotal\b(?: (\w+))?", terse, re.IGNORECASE):
            assert found.group(1) in ("spent", "budget"), terse


def test_a_categorys_figures_are_asked_for_this_month_in_every_wording():
    """"Spending by category in September 2026?" then "Transport: spent vs budget?" reads as September's
    transport, which the summary just showed, though the gold lists this month's categories: every request
    for a category's figures (or the categories over budget) says that this month is meant."""
    asks = [ask for ask, _, _ in _asks("list_categories", draws=300)]
    assert len({ask.terse for ask in asks}) > 5
    for ask in asks:
        for words in (ask.say, ask.terse):
            assert "this month" in words, words


def test_this_months_income_is_bounded_by_its_first_day_alone():
    """"What did I earn this month to date?" was gold with the range from November 1 to today: an agent
    listing the income from November 1 on (nothing is received after today) found the same and lost
    coverage, which takes a call carrying every key of the gold's. This month's income is asked from its
    first day alone, and a call that also passes today as the end still matches; a past month keeps
    both bounds."""
    this = past = 0
    for ask, result, read in _asks("list_income", draws=200):
        if ask.mentions:  # a past month, said by name
            past += 1
            assert {"start_date", "end_date"} <= set(ask.args), ask.say
            continue
        this += 1
        assert "end_date" not in ask.args and ask.args["start_date"].endswith("-01"), (ask.say, ask.args)
        latest = max(i["date"] for i in read("list_income", user_id=ask.args["user_id"], limit=1)["income"])
        assert all(i["date"] <= latest for i in result["income"])  # nothing after the latest entry received
    assert this and past


def test_a_limit_is_not_lowered_on_a_budget_a_move_tops_up():
    """"My entertainment budget needs changing. The new limit is $150." (down from $190) and then "Could you
    shift part of my travel budget to entertainment for this month? Let's make it $50." lowers a budget and
    tops it up in one conversation: a category budget may be moved into is never one whose limit is lowered."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("budget"), get_recipe("budget")
    lowered, topped = set(), set()
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"budget lowered {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        world.close()
        for goal in recipe.goals:
            if goal.tool not in ("set_category_limit", "move_budget"):
                continue
            for b in bundles:
                limits = {c["category_id"]: c["monthly_limit"] for c in b["categories"]}
                for _ in range(40):
                    ask = goal.build(b, rng)
                    if ask is None:
                        continue
                    if goal.tool == "move_budget":
                        topped.add(ask.args["to_category_id"])
                    elif ask.args["monthly_limit"] < limits[ask.args["category_id"]]:
                        lowered.add(ask.args["category_id"])
    assert len(lowered) > 10 and len(topped) > 10
    assert not lowered & topped, sorted(lowered & topped)[:5]


def test_a_payment_aside_is_closed_before_the_category():
    """"Please record $6.75 for Starbucks on March 28, paid cash in my dining out category." reads as cash
    paid in a category: an aside ", paid cash" or ", paid by debit card" is closed by a comma before the
    words that name the category."""
    import re

    says = [say for ask, _, _ in _asks("add_expense", draws=300) for say in (ask.say, ask.terse or "")]
    assert any(", paid " in say for say in says)
    for say in says:
        assert not re.search(r", paid (?:cash|by [a-z]+ [a-z]+) (?:in|under|to)\b", say), say


def test_a_new_category_is_not_said_to_be_the_thing_tracked():
    """"I want to start tracking Garden." (or "tracking Kids") takes the category's name for what is
    tracked: the request says a category of that name is wanted."""
    asks = [ask for ask, _, _ in _asks("create_category", draws=300)]
    assert asks
    for ask in asks:
        assert f"tracking {ask.args['name']}" not in ask.say, ask.say


def test_every_wording_of_a_categorys_history_counts_this_month():
    """"Subscriptions spending, last two months?" (terse) may read as the two months before this one,
    though the tool counts this month as the first: every wording, the terse one too, says that this
    month is one of them."""
    asks = [ask for ask, _, _ in _asks("get_category_history", draws=200)]
    assert asks
    for ask in asks:
        for words in (ask.say, ask.terse):
            assert "this" in words, words


def test_a_split_names_the_category_it_goes_to_once():
    """"Part of the Amtrak entry from March 13 was really transport: split $40 of it off into transport."
    says the category twice: every wording of a split names it once."""
    import re

    asks = [ask for ask, _, _ in _asks("split_expense", draws=300)]
    assert len(asks) > 20
    for ask in asks:
        into = next(w for w in ask.mentions[2:] if not w.startswith("$"))
        for words in (ask.say, ask.terse):
            assert len(re.findall(rf"\b{re.escape(into)}\b", words)) == 1, words


def test_income_that_tells_what_came_in_opens_as_a_telling():
    """"Set up HelloFresh ... first payment on April 2. After that, $868.25 came in on March 27 ('Tax
    refund')." put a word of sequence before money that came in earlier: a wording that tells what came in
    opens with "I", which the voice reads as telling (no "Then" or "After that" before it); the others ask."""
    from prove_env.synthesis.voice import Voice

    asks = [ask for ask, _, _ in _asks("add_income", draws=300)]
    assert len({ask.say.split()[0] for ask in asks}) > 2
    for ask in asks:
        assert Voice.tells(ask.say) or ask.say.startswith(("Please", "Log", "Add", "I'd like")), ask.say


def test_a_payment_method_is_said_as_how_it_was_paid():
    """"... wasn't paid the way it says; it was debit card." lacks its verb: it was paid by debit card,
    or in cash."""
    says = [ask.say for ask, _, _ in _asks("update_expense", draws=300) if "payment_method" in ask.args]
    assert any("the way it says" in say for say in says)
    for say in says:
        assert "it was debit" not in say and "it was credit" not in say and "it was cash" not in say, say


@pytest.mark.parametrize("seed", [0, 3, 121])
def test_a_categorys_history_shows_this_months_budget_as_the_category_list_does(served, seed):
    """A category with no figures this month yet is budgeted its limit by the category list and the
    month's summary; its history said 0 for the same month (groceries: 625 in one, 0 in the other).
    Every category of every user reads the same this-month figures in both."""
    s = served("budget", seed)
    checked = 0
    for user in s.ok("find_users", limit=100):
        for category in s.ok("list_categories", user_id=user["user_id"], include_archived=True):
            now = s.ok("get_category_history", category_id=category["category_id"], months=2)["months"][0]
            assert (now["budgeted"], now["spent"], now["remaining"]) == (
                category["budgeted"], category["spent"], category["remaining"]), (category, now)
            checked += 1
    assert checked


def _bundles(seed: int) -> tuple[list[dict], object]:
    """The bundles the recipe samples from the world of `seed`, with the recipe."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("budget"), get_recipe("budget")
    world = worlds.create(toolkit, seed)
    try:
        return recipe.sample(Reader(toolkit, world), world.now, random.Random(f"budget bundles {seed}")), recipe
    finally:
        world.close()


def test_a_budget_its_bill_fills_is_neither_reset_nor_topped_up():
    """"My rent budget isn't realistic; make it $3,300 a month." (the rent is $2,750, its budget too) and
    "move some of this month's travel budget over to rent. Move $15." (the rent paid in full, nothing
    left to need) change a budget that one fixed bill fills: no limit is set on such a category, and no
    budget moves into or out of it."""
    changed, rents = [], 0
    for seed in (0, 1, 2):
        bundles, recipe = _bundles(seed)
        rng = random.Random(f"budget filled {seed}")
        for b in bundles:
            filled = {c["category_id"] for c in b["categories"]
                      if any(r["status"] == "active" and r["category_id"] == c["category_id"]
                             and r["amount"] == c["monthly_limit"] for r in b["recurring"])}
            rents += bool(filled)
            for goal in (g for g in recipe.goals if g.tool in ("set_category_limit", "move_budget")):
                for _ in range(30):
                    ask = goal.build(b, rng)
                    if ask is None:
                        continue
                    ids = {ask.args.get(k) for k in ("category_id", "from_category_id", "to_category_id")}
                    changed += [ask.say] if ids & filled else []
    assert rents > 10
    assert not changed, changed[:5]


def test_groceries_are_not_archived():
    """"Let's get groceries off my active categories. Archive it, please." right after the Aldi charges
    were listed: nobody stops budgeting for food. The category set aside for archiving is never groceries
    (rent and utilities carry bills, which keep them from it already)."""
    archived = []
    for seed in range(6):
        bundles, _ = _bundles(seed)
        archived += [c["name"] for b in bundles for c in b["categories"] if c["category_id"] == b["archive"]]
    assert len(archived) > 20
    assert "Groceries" not in archived, archived


def test_a_charge_a_bill_posts_is_not_refiled_alone():
    """"The Blue Apron entry from May 12 is in the wrong category. Move it to dining out." moves one week
    of a weekly bill that files every charge under groceries: an expense at a merchant the user has a
    bill with is never recategorized or split."""
    refiled, checked = [], 0
    for seed in (0, 1, 2):
        bundles, recipe = _bundles(seed)
        rng = random.Random(f"budget billed {seed}")
        for b in bundles:
            billed = {r["merchant"] for r in b["recurring"]}
            merchants = {e["expense_id"]: e["merchant"] for e in b["expenses"]}
            for goal in (g for g in recipe.goals if g.tool in ("recategorize_expense", "split_expense")):
                for _ in range(30):
                    ask = goal.build(b, rng)
                    if ask is None:
                        continue
                    checked += 1
                    if merchants[ask.args["expense_id"]] in billed:
                        refiled.append(ask.say)
    assert checked > 50
    assert not refiled, refiled[:5]


def test_a_month_the_conversation_named_is_not_asked_as_an_earlier_one():
    """"Could you list my income for one of the past months ...? I'm thinking of May 2026." then "For an
    earlier month, which budget categories did I go over ...? May 2026, please." calls the month just
    named "an earlier month": a month's request held back as "an earlier month" also has a plain wording
    that names the month outright, said wherever the user is already known (a later turn)."""
    import re

    from prove_env.synthesis.compose import Composer
    from prove_env.synthesis.config import SynthConfig
    from prove_env.synthesis.graph import dependency_graph

    asks = [ask for tool in ("get_budget_summary", "list_income") for ask, _, _ in _asks(tool, draws=200)
            if ask.detail]
    assert len(asks) > 20
    for ask in asks:
        assert ask.plain and ask.mentions[0] in ask.plain, (ask.say, ask.plain)
        assert "earlier" not in ask.plain and "past" not in ask.plain, ask.plain
    bundles, recipe = _bundles(0)
    config = SynthConfig(missing_function_rate=0.0, irrelevant_rate=0.0, hidden_rate=0.0, distractor_rate=0.0)
    composer = Composer(recipe, dependency_graph("budget"), bundles, config, random.Random("budget plain"))
    drafts = [d for d in (composer.draft() for _ in range(400))
              if d is not None and d.metadata.get("info_level") != "missing"]  # held back: said as earlier
    month = re.compile(r"\b(?:January|February|March|April|May|June|July|August|September|October|November"
                       r"|December) \d{4}\b")
    again, named = [], 0
    for draft in drafts:
        for index, turn in enumerate(draft.user_turns):
            before = " ".join(draft.user_turns[:index])
            for said in month.findall(turn):
                if said in before:
                    named += 1
                    if re.search(r"\b(?:earlier month|past months?)\b", turn):
                        again.append(draft.user_turns)
    assert named
    assert not again, again[:3]


def test_budget_is_moved_into_a_category_tighter_than_the_one_it_leaves():
    """"Could you shift part of my home budget to transport for this month? $15 should do it." took $15
    out of home ($47.69 left) for transport ($143.33 left): budget moves only into a category with less
    left than the one it comes from, and "I'm running short on" is said only of a budget with less than
    a quarter of it left."""
    moved = 0
    for seed in (0, 1, 2):
        bundles, recipe = _bundles(seed)
        rng = random.Random(f"budget tighter {seed}")
        for b in bundles:
            left = {c["category_id"]: c for c in b["categories"]}
            for goal in (g for g in recipe.goals if g.tool == "move_budget"):
                for _ in range(30):
                    ask = goal.build(b, rng)
                    if ask is None:
                        continue
                    moved += 1
                    source, target = left[ask.args["from_category_id"]], left[ask.args["to_category_id"]]
                    assert target["remaining"] < source["remaining"], (ask.say, source, target)
                    if "running short" in ask.say:
                        assert target["remaining"] < 0.25 * target["budgeted"], (ask.say, target)
    assert moved > 50


def test_a_limit_lowered_is_not_called_unrealistic():
    """"My dining out budget isn't realistic; make it $200 a month." lowered a $250 limit right after
    December's dining out had come to $328.98: a budget that is not realistic is too low, so the words
    go only with a limit raised."""
    lowered, unrealistic = 0, 0
    for seed in (0, 1):
        limits = {c["category_id"]: c["monthly_limit"] for b in _bundles(seed)[0] for c in b["categories"]}
        for ask, _, _ in _asks("set_category_limit", seed=seed, draws=300):
            lowered += ask.args["monthly_limit"] < limits[ask.args["category_id"]]
            if "realistic" in ask.say:
                unrealistic += 1
                assert ask.args["monthly_limit"] > limits[ask.args["category_id"]], ask.say
    assert lowered and unrealistic


def test_a_month_that_is_over_is_asked_of_in_the_past_tense():
    """"Give me the big picture for November 2025: total budget and how much of it remains." (asked in
    January) reads as if November were still running: a summary is asked only of a month before this
    one, so its wordings say what was left and what was spent, never what remains or is left."""
    import re

    asks = [ask for ask, _, _ in _asks("get_budget_summary", draws=400)]
    assert any("was left" in ask.say for ask in asks)
    for ask in asks:
        assert ask.args.get("month"), ask.say
        for words in (ask.say, ask.plain or ""):
            assert not re.search(r"\b(?:remains|is left|what's left|what's budgeted|have I spent|What's my)\b",
                                 words), words


def test_no_earlier_month_is_asked_of_someone_who_joined_days_ago():
    """Neil Camacho joined days ago, then "How much of my overall budget was left in September 2026?" was
    answered $1,920: the summary budgets a month before he joined at each category's limit, while the
    category's history says it had no budget. Someone with nothing spent or received yet is asked about
    no earlier month: neither a month's summary nor a category's history is built for them."""
    fresh, asked = 0, []
    for seed in (0, 1, 2):
        bundles, recipe = _bundles(seed)
        rng = random.Random(f"budget fresh {seed}")
        for b in bundles:
            if b["expenses"] or b["income"]:
                continue
            fresh += 1
            for goal in (g for g in recipe.goals if g.tool in ("get_budget_summary", "get_category_history")):
                for _ in range(30):
                    ask = goal.build(b, rng)
                    asked += [ask.say] if ask is not None else []
    assert fresh >= 3
    assert not asked, asked[:5]


def test_an_earlier_months_budget_is_not_asked_where_a_category_may_be_made():
    """"I want to start tracking a new category, Hobbies ... $120 a month", then "How much of my overall
    budget was left in September 2026?": a category made today is budgeted its limit in every earlier
    month's summary too, so September's total budget grew by $120. A user whose conversations may create a
    category is never asked an earlier month's overall budget."""
    creators, askers = set(), set()
    for seed in (0, 1, 2):
        bundles, recipe = _bundles(seed)
        rng = random.Random(f"budget created {seed}")
        for b in bundles:
            uid = (seed, b["user"]["user_id"])
            for goal in recipe.goals:
                for _ in range(40 if goal.tool in ("create_category", "get_budget_summary") else 0):
                    ask = goal.build(b, rng)
                    if ask is None:
                        continue
                    if goal.tool == "create_category":
                        creators.add(uid)
                    elif "budget" in ask.say and "left" in ask.say:
                        askers.add(uid)
    assert creators and askers
    assert not creators & askers, sorted(creators & askers)[:5]


def test_an_earlier_months_overall_budget_is_asked_with_what_was_left():
    """"How much of my overall budget was left in September?" asks what was left alone, but its facts are
    the total budgeted and what was left: every wording whose facts hold the total budgeted asks for it."""
    checked = 0
    for ask, result, _ in _asks("get_budget_summary", draws=400):
        if result["total_budgeted"] != abs(result["total_remaining"]) and result["total_budgeted"] in ask.facts(result):
            checked += 1
            assert re.search(r"overall budget [^,?]*, and|budgeted|total budget", ask.say), ask.say
    assert checked


def test_a_month_is_said_after_what_was_spent_in_it():
    """"Add up everything I spent for September 2026, please.": what was spent was spent in a month, not
    for it."""
    said = [words for ask, _, _ in _asks("get_budget_summary", draws=400)
            for words in (ask.say, ask.plain or "", ask.terse or "")]
    assert any(re.search(r"\bspen[dt]\b", words) for words in said)
    for words in said:
        assert not re.search(r"\bspen[dt](?: in total| altogether)? for\b", words), words


def test_a_months_summary_and_each_categorys_history_agree_on_what_was_budgeted():
    """Finding (seed 127): a category made today counted in every earlier month's total budget, which
    its own history says it never had. Over several worlds, before and after a category is made, every
    month of the last six has the same budget in the summary as in the categories' histories."""
    import json

    from prove_env.registry import get_toolkit
    from prove_env.world import worlds

    toolkit = get_toolkit("budget")
    for seed in range(4):
        world = worlds.create(toolkit, seed)
        try:
            tools = toolkit(world)
            for user in json.loads(tools.run("find_users", {}))[:3]:
                uid = user["user_id"]
                for made in (False, True):
                    if made:
                        tools.run("create_category", {"user_id": uid, "name": "Hobbies made today", "monthly_limit": 120.0})
                    categories = json.loads(tools.run("list_categories", {"user_id": uid, "include_archived": True}))
                    histories = [json.loads(tools.run("get_category_history", {"category_id": c["category_id"],
                                                                               "months": 6}))
                                 for c in categories]
                    for month in histories[0]["months"]:
                        key = month["month"]
                        summary = json.loads(tools.run("get_budget_summary", {"user_id": uid, "month": key}))
                        by_history = {h["category_id"]: m["budgeted"] for h in histories for m in h["months"]
                                      if m["month"] == key and m["budgeted"]}
                        by_summary = {line["category_id"]: line["budgeted"] for line in summary["categories"]
                                      if line["budgeted"]}
                        assert by_summary == by_history, f"seed {seed}, {uid}, {key}, made={made}"
        finally:
            world.close()


def test_a_categorys_trend_counts_this_month_among_the_months_said():
    """Finding (seed 129): "dining out spending over the past two months, this month too" reads as two
    months and this one (three), where the gold asks two months, this one included: months=3 scored less.
    Every wording of a category's history says the month asked is among the months counted."""
    said = [ask.say for ask, _, _ in _asks("get_category_history", draws=200)]
    assert said
    for words in said:
        assert not re.search(r"this month too|, too\b", words), words
        assert re.search(r"this one included|counting this one|incl\. this one", words), words


def test_a_merchant_eats_the_budget_only_when_charged_again_and_again():
    """Finding (seed 129): "I think Shell is eating my budget. What did I pay there since May 3?" of a
    single $36.76 charge: that wording is kept for a merchant charged three times or more."""
    checked = 0
    for ask, result, _ in _asks("list_expenses", draws=600):
        if "eating my budget" in ask.say:
            checked += 1
            assert len(result) >= 3, (ask.say, result)
    for seed in (1, 2):
        for ask, result, _ in _asks("list_expenses", seed=seed, draws=600):
            if "eating my budget" in ask.say:
                checked += 1
                assert len(result) >= 3, (ask.say, result)
    assert checked


def test_which_recurring_bills_is_checked_by_their_merchants_too():
    """Finding (seed 129): "Which subscriptions and bills are set up to repeat? Amounts too, please." was
    checked by the amounts alone, so "$59.94 and $45.00" passed: each bill's merchant is a fact too."""
    checked = 0
    for ask, result, _ in _asks("list_recurring", draws=200):
        if "next" in ask.say:
            continue
        checked += 1
        facts = ask.facts(result)
        for bill in result[:5]:
            assert bill["merchant"] in facts and bill["amount"] in facts, (ask.say, facts)
    assert checked


def test_an_expense_to_add_is_said_from_its_day():
    """Finding (seed 129): "I need to add a Ticketmaster expense yesterday to entertainment." reads as when
    to add it: the expense is "from yesterday", "from June 9"."""
    from prove_env.synthesis.recipe import get_recipe

    recipe = get_recipe("budget")
    said = []
    for seed in (0, 1):
        bundles, _ = _bundles(seed)
        rng = random.Random(f"budget from {seed}")
        for goal in (g for g in recipe.goals if g.tool == "add_expense"):
            for _ in range(300):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is not None and ask.say.startswith("I need to add"):
                    said.append(ask.say)
    assert said
    for words in said:
        assert re.search(r" expense from (?:today|earlier today|this morning|yesterday|[A-Z][a-z]+ \d+)\b", words), words


def test_money_that_came_in_is_said_during_its_month():
    """Finding (seed 131): "What money came in in February 2026? List it with the total." doubled its
    "in" (and "came in for February 2026" reads as what it was for): a past month's income is what came
    in during it."""
    said = []
    for seed in (0, 1):
        for ask, _, _ in _asks("list_income", seed=seed, draws=300):
            said += [w for w in (ask.say, ask.plain) if w and "came in" in w]
    assert any("came in during" in words for words in said), said
    for words in said:
        assert not re.search(r"came in (?:in|for) ", words), words
