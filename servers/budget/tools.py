"""The budget server's tools: a personal budgeting app's users, categories, expenses, income and
recurring bills.

Rules, in one place:
- Money is in USD, greater than 0 with at most two decimals.
- Each category has a monthly limit: every month starts with that much budgeted. A category's
  month (`budget_months`) keeps what is budgeted and the running total spent; every write that
  adds, removes, moves or re-dates an expense updates it, so a month's total always equals the
  sum of its expenses, and a summary's total the sum of its categories.
- Budget moves between two active categories of the same user, within the current month, and
  never takes a category below what it has already spent this month (an over-budget category
  has nothing to give).
- Expenses are dated today or earlier, at most a year back, and go to an active category of
  their user; spending past the limit is allowed and shows as over budget.
- A recurring bill posts one expense per due date, up to today, when posted (and at once for
  the due dates already passed when it is set up); a cancelled one posts nothing more.
- A category with active recurring bills cannot be archived; an archived category takes no
  expenses, budget or new bills.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Date, Detail, Entity, Id, Limit, Money, Toolkit, ToolError, check_range, tool

from .models import Base, BudgetMonth, BudgetMove, Category, Expense, Income, RecurringExpense, User
from .seed import add_month, month_key, seed

PaymentMethod = Literal["credit_card", "debit_card", "cash", "bank_transfer"]
MAX_AMOUNT = 50_000.00
MAX_LIMIT = 100_000.00
MAX_TEXT = 60
MAX_POSTED = 60  # occurrences one posting may add for one bill
_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
# A note the user did not ask for is a detail: the state check tolerates it.
_NOTES = (Detail("expenses", "note"), Detail("income", "note"), Detail("budget_moves", "note"))


class BudgetServer(Toolkit):
    """A personal budgeting app: spending categories with monthly limits, expenses and income,
    recurring bills, month-to-date and monthly totals by category with what remains, and budget
    moved between categories. Amounts are in USD; people are found by name or email."""

    name = "budget"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("user", User, "USR", lookup="find_users"),
        Entity("category", Category, "CAT", lookup="list_categories"),
        Entity("expense", Expense, "EXP", lookup="list_expenses", width=5),
        Entity("recurring", RecurringExpense, "REC", lookup="list_recurring"),
    )

    # -- users -----------------------------------------------------------------------------------

    @tool(read_only=True)
    def find_users(self, name: str | None = None, email: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find the app's users by name or email; with neither, list users. Ordered by user id.

        Args:
            name: part of the user's full name, case-insensitive, such as 'Ada Park' or 'park'.
            email: the user's email address, case-insensitive, such as 'ada.park7@gmail.com'.
        """
        return [{"user_id": u.id, "name": u.name, "email": u.email, "currency": u.currency}
                for u in self.find(User, name=name, email=email, limit=limit)]

    # -- categories and budgets ------------------------------------------------------------------

    @tool(read_only=True)
    def list_categories(self, user_id: Id("user"), include_archived: bool = False) -> list[dict]:
        """List a user's spending categories with this month's budget so far: budgeted, spent,
        remaining and whether it is over budget. Ordered by name.

        Args:
            include_archived: also list archived categories (default false).
        """
        user = self.get(User, user_id)
        return [line for line, _ in self._month_lines(user.id, self._this_month())
                if include_archived or line["status"] == "active"]

    @tool(produces=("category",))
    def create_category(self, user_id: Id("user"), name: str, monthly_limit: Money) -> dict:
        """Create a spending category with a monthly limit; this month starts with that much budgeted.

        Args:
            name: the category's name, 1 to 60 characters, unique among the user's categories, such as 'Coffee'.
            monthly_limit: the budget each month starts with, in dollars, such as 150.0 (at most 100,000).
        """
        user = self.get(User, user_id)
        name = _text(name, "name")
        taken = self.db.scalar(select(Category).where(Category.user_id == user.id,
                                                      func.lower(Category.name) == name.lower()))
        if taken is not None:
            raise ToolError(f"{user.name} already has a{'n archived' if taken.status == 'archived' else ''} "
                            f"category named {taken.name!r} ({taken.id}); choose another name")
        _check_limit(monthly_limit)
        category = Category(id=self.new_id("CAT"), user_id=user.id, name=name, monthly_limit=monthly_limit,
                            status="active", created_at=self.now)
        self.db.add(category)
        row = self._row(category, self._this_month())
        return {**_category_info(category), **_figures(row, category)}

    @tool(idempotent=True)
    def set_category_limit(self, category_id: Id("category"), monthly_limit: Money) -> dict:
        """Change a category's monthly limit, from this month on: this month's budget changes by the
        difference (budget moved in or out this month stays moved).

        Args:
            monthly_limit: the new monthly limit in dollars, such as 450.0 (at most 100,000).
        """
        category = self._active(self.get(Category, category_id))
        _check_limit(monthly_limit)
        row = self._row(category, self._this_month())
        budgeted = round(row.budgeted + monthly_limit - row.base, 2)
        if budgeted < 0:
            raise ToolError(f"{category.name} has had {row.base - row.budgeted:.2f} moved out this month, more than "
                            f"a limit of {monthly_limit:.2f}; set a limit of at least {row.base - row.budgeted:.2f}")
        previous = category.monthly_limit
        category.monthly_limit, row.base, row.budgeted = monthly_limit, monthly_limit, budgeted
        return {**_category_info(category), "previous_limit": previous, **_figures(row, category)}

    @tool(idempotent=True)
    def archive_category(self, category_id: Id("category")) -> dict:
        """Archive a category: it takes no new expenses or budget, and its past spending stays.
        Active recurring bills in it must be cancelled first. A category already archived stays
        so: nothing changes and already_archived is true.

        Args:
        """
        category = self.get(Category, category_id)
        if category.status == "archived":
            return {**_category_info(category), "already_archived": True}
        bills = self.db.scalars(select(RecurringExpense).where(RecurringExpense.category_id == category.id,
                                                               RecurringExpense.status == "active")
                                .order_by(RecurringExpense.id)).all()
        if bills:
            raise ToolError(f"Category {category.name} has active recurring bills "
                            f"({', '.join(f'{b.merchant} {b.id}' for b in bills)}); cancel them first")
        category.status = "archived"
        return {**_category_info(category), "already_archived": False}

    @tool(produces=("category",))
    def move_budget(self, from_category_id: Id("category"), to_category_id: Id("category"), amount: Money,
                    note: str | None = None) -> dict:
        """Move part of this month's budget from one category to another of the same user.

        The source keeps at least what it has already spent this month: at most its remaining
        budget can move, and nothing moves out of a category that is already over budget.

        Args:
            from_category_id: the category giving budget, such as 'CAT-0007'.
            to_category_id: the category receiving it, such as 'CAT-0012'.
            amount: the amount in dollars, greater than 0 with at most two decimals, such as 50.0.
            note: an optional reason, such as 'Concert tickets'.
        """
        source = self._active(self.get(Category, from_category_id))
        target = self._active(self.get(Category, to_category_id))
        if source.id == target.id:
            raise ToolError("from_category_id and to_category_id are the same category; pick two different ones")
        if source.user_id != target.user_id:
            raise ToolError(f"Categories {source.id} and {target.id} belong to different users; budget moves "
                            "only between one user's own categories")
        key = self._this_month()
        source_row, target_row = self._row(source, key), self._row(target, key)
        remaining = round(source_row.budgeted - source_row.spent, 2)
        if remaining <= 0:
            raise ToolError(f"{source.name} is already {'over' if remaining < 0 else 'at'} budget this month "
                            f"(spent {source_row.spent:.2f} of {source_row.budgeted:.2f}), so no budget can move out "
                            "of it; move budget into it, or take it from another category")
        if amount > remaining:
            raise ToolError(f"{source.name} has only {remaining:.2f} left this month (spent {source_row.spent:.2f} of "
                            f"{source_row.budgeted:.2f}); at most {remaining:.2f} can move out of it")
        source_row.budgeted = round(source_row.budgeted - amount, 2)
        target_row.budgeted = round(target_row.budgeted + amount, 2)
        move = BudgetMove(id=self.new_id("MOV"), user_id=source.user_id, month=key, from_category_id=source.id,
                          to_category_id=target.id, amount=amount, note=(note or "").strip() or None,
                          created_at=self.now)
        self.db.add(move)
        return {"move_id": move.id, "month": key, "amount": amount,
                "from": {**_category_info(source), **_figures(source_row, source)},
                "to": {**_category_info(target), **_figures(target_row, target)}}

    @tool(read_only=True)
    def get_budget_summary(self, user_id: Id("user"), month: str | None = None) -> dict:
        """A user's budget for one month, category by category: budgeted, spent, remaining and over
        budget, with the totals, the income received and what is left after spending. The current
        month (the default) is month to date; an earlier month holds the categories that had a budget then.

        Args:
            month: the calendar month as 'YYYY-MM', such as '2026-05'; default: the current month.
        """
        user = self.get(User, user_id)
        key = self._month(month)
        # the current month budgets each active category its limit until it has figures; an earlier month
        # holds the categories that had figures then (a category made later had no budget, as its history says)
        current = key == self._this_month()
        lines = [line for line, started in self._month_lines(user.id, key)
                 if started or (current and line["status"] == "active")]
        start, end = _month_bounds(key)
        income = self.rows("SELECT sum(amount) FROM income WHERE user_id = ? AND received_on >= ? AND received_on <= ?",
                           user.id, start, end)[0][0] or 0.0
        budgeted = round(sum(line["budgeted"] for line in lines), 2)
        spent = round(sum(line["spent"] for line in lines), 2)
        return {"user_id": user.id, "month": key, "month_to_date": key == self._this_month(),
                "as_of": min(end, self.now.date()), "categories": lines, "total_budgeted": budgeted,
                "total_spent": spent, "total_remaining": round(budgeted - spent, 2),
                "over_budget": [line["name"] for line in lines if line["over_budget"]],
                "total_income": round(income, 2), "net": round(income - spent, 2)}

    @tool(read_only=True)
    def get_category_history(self, category_id: Id("category"), months: int = 3) -> dict:
        """A category's totals month by month, newest first: budgeted, spent, remaining and the
        number of expenses, with the average spent per month.

        Args:
            months: how many months back, the current one included, from 1 to 12 (default 3).
        """
        category = self.get(Category, category_id)
        if not 1 <= months <= 12:
            raise ToolError(f"months must be from 1 to 12, got {months}")
        keys, start = [], dt.date.fromisoformat(self._this_month() + "-01")
        for _ in range(months):
            keys.append(month_key(start))
            start = (start - dt.timedelta(days=1)).replace(day=1)
        rows = {r.month: r for r in self.db.scalars(select(BudgetMonth).where(
            BudgetMonth.category_id == category.id, BudgetMonth.month.in_(keys)))}
        # the current month without figures is budgeted the limit, as every other tool shows it; an
        # earlier one had no budget
        history = [{"month": key, **_figures(rows.get(key), category, default_budget=key == keys[0])} for key in keys]
        return {**_category_info(category), "months": history,
                "average_spent": round(sum(h["spent"] for h in history) / len(history), 2)}

    # -- expenses --------------------------------------------------------------------------------

    @tool(read_only=True, produces=("category",))
    def list_expenses(self, user_id: Id("user"), category_id: Id("category") | None = None,
                      start_date: Date | None = None, end_date: Date | None = None, merchant: str | None = None,
                      payment_method: PaymentMethod | None = None, min_amount: Money | None = None,
                      limit: Limit = 20) -> list[dict]:
        """List a user's expenses, newest first, optionally of one category, in a date range, at a
        merchant, paid one way, or of at least an amount.

        Args:
            category_id: only expenses in this category, such as 'CAT-0007'.
            start_date: only expenses on or after this date, such as '2026-05-01'.
            end_date: only expenses on or before this date, such as '2026-05-31'.
            merchant: part of the merchant's name, case-insensitive, such as 'whole foods'.
            payment_method: only expenses paid this way: 'credit_card', 'debit_card', 'cash' or 'bank_transfer'.
            min_amount: only expenses of at least this many dollars, such as 100.0.
        """
        user = self.get(User, user_id)
        check_range(start_date, end_date)
        query = select(Expense).where(Expense.user_id == user.id)
        if category_id is not None:
            query = query.where(Expense.category_id == category_id)
        if start_date is not None:
            query = query.where(Expense.spent_on >= start_date)
        if end_date is not None:
            query = query.where(Expense.spent_on <= end_date)
        if merchant and merchant.strip():
            query = query.where(func.lower(Expense.merchant).contains(merchant.strip().lower()))
        if payment_method is not None:
            query = query.where(Expense.payment_method == payment_method)
        if min_amount is not None:
            query = query.where(Expense.amount >= min_amount)
        found = list(self.db.scalars(query.order_by(Expense.spent_on.desc(), Expense.id.desc()).limit(limit)))
        names = self._category_names({e.category_id for e in found})
        return [_expense_info(e, names) for e in found]

    @tool(read_only=True)
    def get_expense(self, expense_id: Id("expense")) -> dict:
        """Return one expense in full: amount, merchant, date, category, payment method, note, and the
        recurring bill or expense it came from, if any.

        Args:
        """
        expense = self.get(Expense, expense_id)
        return self._expense_full(expense)

    @tool(produces=("expense",), details=_NOTES)
    def add_expense(self, category_id: Id("category"), amount: Money, merchant: str, date: Date | None = None,
                    payment_method: PaymentMethod = "credit_card", note: str | None = None) -> dict:
        """Record an expense in one of a user's categories; the category's month total grows by it.
        Spending past the limit is allowed and shows as over budget.

        Args:
            category_id: the category the expense belongs to, such as 'CAT-0007'.
            amount: the amount in dollars, greater than 0 with at most two decimals, such as 42.5 (at most 50,000).
            merchant: where the money was spent, 1 to 60 characters, such as 'Whole Foods'.
            date: the day of the expense, today or at most a year back, such as '2026-05-14'; default today.
            payment_method: 'credit_card' (default), 'debit_card', 'cash' or 'bank_transfer'.
            note: an optional note, such as 'Team lunch'.
        """
        category = self._active(self.get(Category, category_id))
        when = self._recorded_day(date)
        if amount > MAX_AMOUNT:
            raise ToolError(f"An expense may be at most {MAX_AMOUNT:,.2f}, got {amount:,.2f}")
        expense = Expense(id=self.new_id("EXP", 5), user_id=category.user_id, category_id=category.id, amount=amount,
                          merchant=_text(merchant, "merchant"), spent_on=when, payment_method=payment_method,
                          note=(note or "").strip() or None, recurring_id=None, split_from=None, created_at=self.now)
        self.db.add(expense)
        row = self._book(expense, +1)
        return {**self._expense_full(expense), "category_month": {"month": row.month, **_figures(row, category)}}

    @tool(idempotent=True, details=_NOTES)
    def update_expense(self, expense_id: Id("expense"), amount: Money | None = None, merchant: str | None = None,
                       date: Date | None = None, payment_method: PaymentMethod | None = None,
                       note: str | None = None) -> dict:
        """Correct an expense's amount, merchant, date, payment method or note; give at least one.
        The month totals follow: a new amount changes its category month's total, and a new date in
        another month moves the expense to that month's total.

        Args:
            amount: the right amount in dollars, such as 42.5 (at most 50,000).
            merchant: the right merchant, 1 to 60 characters, such as 'Whole Foods'.
            date: the right day, today or at most a year back, such as '2026-05-14'.
            payment_method: how it was really paid: 'credit_card', 'debit_card', 'cash' or 'bank_transfer'.
            note: a new note, such as 'Team lunch'.
        """
        expense = self.get(Expense, expense_id)
        if amount is None and merchant is None and date is None and payment_method is None and note is None:
            raise ToolError("Nothing to change: give at least one of amount, merchant, date, payment_method or note")
        when = self._recorded_day(date) if date is not None else expense.spent_on
        if amount is not None and amount > MAX_AMOUNT:
            raise ToolError(f"An expense may be at most {MAX_AMOUNT:,.2f}, got {amount:,.2f}")
        name = _text(merchant, "merchant") if merchant is not None else expense.merchant
        category = self.db.get(Category, expense.category_id)
        before = self._book(expense, -1)
        previous = {"month": before.month, **_figures(before, category)}
        expense.amount = amount if amount is not None else expense.amount
        expense.merchant, expense.spent_on = name, when
        if payment_method is not None:
            expense.payment_method = payment_method
        if note is not None:
            expense.note = note.strip() or None
        row = self._book(expense, +1)
        result = {**self._expense_full(expense), "category_month": {"month": row.month, **_figures(row, category)}}
        if row.month != previous["month"]:
            result["previous_month"] = {"month": previous["month"], **_figures(before, category)}
        return result

    @tool(destructive=True)
    def delete_expense(self, expense_id: Id("expense")) -> dict:
        """Delete an expense for good; its category's month total drops by its amount.

        Args:
        """
        expense = self.get(Expense, expense_id)
        category = self.db.get(Category, expense.category_id)
        row = self._book(expense, -1)
        self.db.delete(expense)
        return {"expense_id": expense.id, "deleted": True, "amount": expense.amount, "merchant": expense.merchant,
                "category_month": {"category_id": category.id, "name": category.name, "month": row.month,
                                   **_figures(row, category)}}

    @tool(idempotent=True)
    def recategorize_expense(self, expense_id: Id("expense"), category_id: Id("category")) -> dict:
        """Move an expense to another active category of the same user: the old category's month
        total drops by its amount and the new one's grows by it. An expense already in that
        category stays there: nothing changes and already_there is true.

        Args:
            category_id: the category it should be in, such as 'CAT-0012'.
        """
        expense = self.get(Expense, expense_id)
        target = self.get(Category, category_id)
        if target.user_id != expense.user_id:
            raise ToolError(f"Category {target.id} belongs to another user; pick one of {expense.user_id}'s categories")
        if target.id == expense.category_id:
            key = month_key(expense.spent_on)
            row = self.db.get(BudgetMonth, (target.id, key))
            here = {"category_id": target.id, "name": target.name, "month": key, **_figures(row, target)}
            return {**self._expense_full(expense), "from": here, "to": here, "already_there": True}
        self._active(target)
        source = self.db.get(Category, expense.category_id)
        old = self._book(expense, -1)
        expense.category_id = target.id
        new = self._book(expense, +1)
        return {**self._expense_full(expense),
                "from": {"category_id": source.id, "name": source.name, "month": old.month, **_figures(old, source)},
                "to": {"category_id": target.id, "name": target.name, "month": new.month, **_figures(new, target)},
                "already_there": False}

    @tool(produces=("expense",), details=_NOTES)
    def split_expense(self, expense_id: Id("expense"), amount: Money, category_id: Id("category"),
                      note: str | None = None) -> dict:
        """Split part of an expense off into another category: the expense keeps the rest, and a new
        expense with the same merchant, date and payment method holds the part.

        Args:
            amount: the part to split off, in dollars, less than the expense's amount, such as 20.0.
            category_id: the category of the part, such as 'CAT-0012'.
            note: an optional note on the new part, such as 'Household items'.
        """
        expense = self.get(Expense, expense_id)
        target = self._active(self.get(Category, category_id))
        if target.user_id != expense.user_id:
            raise ToolError(f"Category {target.id} belongs to another user; pick one of {expense.user_id}'s categories")
        if target.id == expense.category_id:
            raise ToolError(f"Expense {expense.id} is already in {target.name}; split a part off into another category")
        if amount >= expense.amount:
            raise ToolError(f"The part must be less than the expense's {expense.amount:.2f}, got {amount:.2f}; to move "
                            "all of it, recategorize the expense instead")
        self._book(expense, -1)
        expense.amount = round(expense.amount - amount, 2)
        kept = self._book(expense, +1)
        part = Expense(id=self.new_id("EXP", 5), user_id=expense.user_id, category_id=target.id, amount=amount,
                       merchant=expense.merchant, spent_on=expense.spent_on, payment_method=expense.payment_method,
                       note=(note or "").strip() or None, recurring_id=None, split_from=expense.id,
                       created_at=self.now)
        self.db.add(part)
        added = self._book(part, +1)
        source = self.db.get(Category, expense.category_id)
        return {"original": {**self._expense_full(expense), "category_month": {"month": kept.month,
                                                                              **_figures(kept, source)}},
                "part": {**self._expense_full(part), "category_month": {"month": added.month,
                                                                       **_figures(added, target)}}}

    # -- income ----------------------------------------------------------------------------------

    @tool(details=_NOTES)
    def add_income(self, user_id: Id("user"), amount: Money, source: str, date: Date | None = None,
                   note: str | None = None) -> dict:
        """Record money a user received (a paycheck, a refund, a side job).

        Args:
            amount: the amount in dollars, greater than 0 with at most two decimals, such as 1250.0 (at most 50,000).
            source: where it came from, 1 to 60 characters, such as 'Freelance design'.
            date: the day it arrived, today or at most a year back, such as '2026-05-15'; default today.
            note: an optional note, such as 'Invoice 12'.
        """
        user = self.get(User, user_id)
        when = self._recorded_day(date)
        if amount > MAX_AMOUNT:
            raise ToolError(f"An income entry may be at most {MAX_AMOUNT:,.2f}, got {amount:,.2f}")
        income = Income(id=self.new_id("INC"), user_id=user.id, amount=amount, source=_text(source, "source"),
                        received_on=when, note=(note or "").strip() or None, created_at=self.now)
        self.db.add(income)
        self.db.flush()
        start, end = _month_bounds(month_key(when))
        total = self.db.scalar(select(func.sum(Income.amount)).where(
            Income.user_id == user.id, Income.received_on >= start, Income.received_on <= end)) or 0.0
        return {**_income_info(income), "month": month_key(when), "month_income": round(total, 2)}

    @tool(read_only=True)
    def list_income(self, user_id: Id("user"), start_date: Date | None = None, end_date: Date | None = None,
                    limit: Limit = 20) -> dict:
        """List a user's income, newest first, optionally in a date range, with the total of the entries listed.

        Args:
            start_date: only income on or after this date, such as '2026-05-01'.
            end_date: only income on or before this date, such as '2026-05-31'.
        """
        user = self.get(User, user_id)
        check_range(start_date, end_date)
        query = select(Income).where(Income.user_id == user.id)
        if start_date is not None:
            query = query.where(Income.received_on >= start_date)
        if end_date is not None:
            query = query.where(Income.received_on <= end_date)
        found = [_income_info(i) for i in self.db.scalars(
            query.order_by(Income.received_on.desc(), Income.id.desc()).limit(limit))]
        return {"user_id": user.id, "income": found, "total": round(sum(i["amount"] for i in found), 2)}

    # -- recurring bills -------------------------------------------------------------------------

    @tool(read_only=True, produces=("category",))
    def list_recurring(self, user_id: Id("user"), include_cancelled: bool = False) -> list[dict]:
        """List a user's recurring bills with their next due date and how many due dates up to today
        are not posted yet. Ordered by merchant.

        Args:
            include_cancelled: also list cancelled bills (default false).
        """
        user = self.get(User, user_id)
        query = select(RecurringExpense).where(RecurringExpense.user_id == user.id)
        if not include_cancelled:
            query = query.where(RecurringExpense.status == "active")
        rules = list(self.db.scalars(query.order_by(RecurringExpense.merchant, RecurringExpense.id)))
        names = self._category_names({r.category_id for r in rules})
        return [self._recurring_info(r, names) for r in rules]

    @tool(produces=("recurring", "expense"))
    def add_recurring_expense(self, category_id: Id("category"), merchant: str, amount: Money,
                              frequency: Literal["weekly", "monthly"], start_date: Date,
                              payment_method: PaymentMethod = "credit_card") -> dict:
        """Set up a bill that repeats every week or month from a start date. Due dates already passed
        (up to today) are posted as expenses at once.

        Args:
            category_id: the category its expenses go to, such as 'CAT-0007'.
            merchant: who is paid, 1 to 60 characters, such as 'Netflix'.
            amount: the amount of each payment in dollars, such as 15.49 (at most 50,000).
            frequency: 'weekly' or 'monthly' (monthly bills fall on the start date's day of the month,
                or the month's last day when it is shorter).
            start_date: the first due date, at most 90 days back and at most a year ahead, such as '2026-06-01'.
            payment_method: 'credit_card' (default), 'debit_card', 'cash' or 'bank_transfer'.
        """
        category = self._active(self.get(Category, category_id))
        merchant = _text(merchant, "merchant")
        today = self.now.date()
        if start_date < today - dt.timedelta(days=90):
            raise ToolError(f"start_date may be at most 90 days back (from {today - dt.timedelta(days=90)}), "
                            f"got {start_date}; add older payments with add_expense")
        if start_date > today + dt.timedelta(days=365):
            raise ToolError(f"start_date may be at most a year ahead, got {start_date}")
        if amount > MAX_AMOUNT:
            raise ToolError(f"A bill may be at most {MAX_AMOUNT:,.2f}, got {amount:,.2f}")
        same = self.db.scalar(select(RecurringExpense).where(
            RecurringExpense.user_id == category.user_id, RecurringExpense.status == "active",
            func.lower(RecurringExpense.merchant) == merchant.lower()))
        if same is not None:
            raise ToolError(f"There is already an active recurring bill for {same.merchant} ({same.id}, "
                            f"{same.amount:.2f} {same.frequency}); cancel it first to replace it")
        rule = RecurringExpense(id=self.new_id("REC"), user_id=category.user_id, category_id=category.id,
                                merchant=merchant, amount=amount, frequency=frequency,
                                anchor_day=start_date.weekday() if frequency == "weekly" else start_date.day,
                                next_date=start_date, payment_method=payment_method, status="active",
                                created_at=self.now)
        self.db.add(rule)
        posted = self._post_due(rule, category)
        return {**self._recurring_info(rule, {category.id: category.name}),
                "posted": [_expense_info(e, {category.id: category.name}) for e in posted]}

    @tool(destructive=True)
    def cancel_recurring(self, recurring_id: Id("recurring")) -> dict:
        """Cancel a recurring bill: it posts nothing more. Expenses it already posted stay.

        Args:
        """
        rule = self.get(RecurringExpense, recurring_id)
        if rule.status == "cancelled":
            raise ToolError(f"Recurring bill {rule.merchant} ({rule.id}) is already cancelled")
        rule.status = "cancelled"
        return self._recurring_info(rule, self._category_names({rule.category_id}))

    @tool(idempotent=True, produces=("expense",))
    def post_due_recurring(self, user_id: Id("user")) -> dict:
        """Post every due date up to today of a user's active recurring bills as expenses, so that the
        month's totals include them. Nothing is posted twice; with nothing due, nothing changes.

        Args:
        """
        user = self.get(User, user_id)
        rules = list(self.db.scalars(select(RecurringExpense).where(
            RecurringExpense.user_id == user.id, RecurringExpense.status == "active",
            RecurringExpense.next_date <= self.now.date()).order_by(RecurringExpense.merchant, RecurringExpense.id)))
        posted = []
        for rule in rules:
            category = self.db.get(Category, rule.category_id)
            posted += self._post_due(rule, category)
        names = self._category_names({e.category_id for e in posted})
        return {"user_id": user.id, "posted": [_expense_info(e, names) for e in posted], "count": len(posted),
                "total": round(sum(e.amount for e in posted), 2)}

    # -- hidden ----------------------------------------------------------------------------------

    @tool(read_only=True, hidden=True)
    def all_users_spending(self, month: str | None = None) -> dict:
        """Operators only: what every user of the app spent in one month, in total.

        Args:
            month: the calendar month as 'YYYY-MM'; default: the current month.
        """
        key = self._month(month)
        spent = self.db.scalar(select(func.sum(BudgetMonth.spent)).where(BudgetMonth.month == key)) or 0.0
        return {"month": key, "total_spent": round(spent, 2)}

    # -- invariants ------------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """Every category month's total and count equal the sum of its expenses; every expense has its
        category month; every budget equals the month's limit plus budget moved in minus moved out;
        expenses belong to their category's user; no active bill is in an archived category; nothing
        recorded as done (joined, created, spent, received) lies after the clock."""
        problems = self.after_now(User.joined_at, Category.created_at, Expense.spent_on, Expense.created_at,
                                  Income.received_on, Income.created_at, RecurringExpense.created_at,
                                  BudgetMove.created_at)
        rows = {(r.category_id, r.month): r for r in self.db.scalars(select(BudgetMonth))}
        sums: dict[tuple[str, str], list] = {}
        owners = dict(self.db.execute(select(Category.id, Category.user_id)).all())
        for category_id, user_id, amount, spent_on in self.db.execute(
                select(Expense.category_id, Expense.user_id, Expense.amount, Expense.spent_on)):
            key = (category_id, month_key(spent_on))
            entry = sums.setdefault(key, [0.0, 0])
            entry[0] += amount
            entry[1] += 1
            if amount <= 0:
                problems.append(f"an expense of {amount} in {category_id}")
            if owners.get(category_id) != user_id:
                problems.append(f"an expense of {user_id} in {category_id}, a category of {owners.get(category_id)}")
        for key, (total, count) in sums.items():
            row = rows.get(key)
            if row is None:
                problems.append(f"{key}: {count} expenses but no category month")
            elif abs(row.spent - total) >= 0.005 or row.expense_count != count:
                problems.append(f"{key}: spent {row.spent} over {row.expense_count} expenses, but its expenses sum "
                                f"to {round(total, 2)} over {count}")
        moved: dict[tuple[str, str], float] = {}
        for source, target, month, amount in self.db.execute(
                select(BudgetMove.from_category_id, BudgetMove.to_category_id, BudgetMove.month, BudgetMove.amount)):
            moved[source, month] = moved.get((source, month), 0.0) - amount
            moved[target, month] = moved.get((target, month), 0.0) + amount
        for key, row in rows.items():
            if key not in sums and (row.spent != 0 or row.expense_count != 0):
                problems.append(f"{key}: spent {row.spent} over {row.expense_count} expenses, but it has none")
            if abs(row.base + moved.get(key, 0.0) - row.budgeted) >= 0.005:
                problems.append(f"{key}: budgeted {row.budgeted}, but its limit {row.base} plus moves "
                                f"{round(moved.get(key, 0.0), 2)} is not that")
        for rule_id, category_id in self.db.execute(
                select(RecurringExpense.id, RecurringExpense.category_id)
                .join(Category, Category.id == RecurringExpense.category_id)
                .where(RecurringExpense.status == "active", Category.status == "archived")):
            problems.append(f"active recurring bill {rule_id} in archived category {category_id}")
        return problems

    # -- helpers ---------------------------------------------------------------------------------

    def _this_month(self) -> str:
        return month_key(self.now.date())

    def _month(self, month: str | None) -> str:
        if month is None or not month.strip():
            return self._this_month()
        match = _MONTH.match(month.strip())
        if match is None or not 1 <= int(match.group(2)) <= 12 or int(match.group(1)) < 1900:
            raise ToolError(f"month must be a calendar month as 'YYYY-MM', such as '2026-05', got {month!r}")
        key = month.strip()
        if key > self._this_month():
            raise ToolError(f"month {key} has not started yet; the current month is {self._this_month()}")
        return key

    def _recorded_day(self, date: dt.date | None) -> dt.date:
        today = self.now.date()
        if date is None:
            return today
        if date > today:
            raise ToolError(f"date {date} is after today ({today}); record it when it happens, or set up a "
                            "recurring bill for future payments")
        if date < today - dt.timedelta(days=365):
            raise ToolError(f"date {date} is more than a year back; the earliest is {today - dt.timedelta(days=365)}")
        return date

    def _active(self, category: Category) -> Category:
        if category.status != "active":
            raise ToolError(f"Category {category.name} ({category.id}) is archived; use one of the user's active "
                            "categories (list_categories lists them)")
        return category

    def _month_lines(self, user_id: str, key: str) -> list[tuple[dict, bool]]:
        """A user's categories by name, each as a listing shows it with its figures for one month
        (`_category_info` and `_figures`), and whether the month has figures yet; read in one query."""
        lines = []
        for category_id, owner, name, limit, status, budgeted, spent, count in self.rows(
                "SELECT c.id, c.user_id, c.name, c.monthly_limit, c.status, m.budgeted, m.spent, m.expense_count "
                "FROM categories c LEFT JOIN budget_months m ON m.category_id = c.id AND m.month = ? "
                "WHERE c.user_id = ? ORDER BY c.name, c.id", key, user_id):
            started = budgeted is not None
            budgeted, spent, remaining, count = _month_figures(limit, status, budgeted, spent, count)
            lines.append(({"category_id": category_id, "user_id": owner, "name": name, "monthly_limit": limit,
                           "status": status, "budgeted": budgeted, "spent": spent, "remaining": remaining,
                           "over_budget": remaining < 0, "expense_count": count}, started))
        return lines

    def _row(self, category: Category, key: str) -> BudgetMonth:
        """The category's month, started with its monthly limit when it has none yet."""
        row = self.db.get(BudgetMonth, (category.id, key))
        if row is None:
            row = BudgetMonth(category_id=category.id, month=key, base=category.monthly_limit,
                              budgeted=category.monthly_limit, spent=0.0, expense_count=0)
            self.db.add(row)
        return row

    def _book(self, expense: Expense, sign: int) -> BudgetMonth:
        """Add (+1) or take out (-1) an expense from its category month's running totals."""
        row = self._row(self.db.get(Category, expense.category_id), month_key(expense.spent_on))
        row.spent = round(row.spent + sign * expense.amount, 2)
        row.expense_count += sign
        return row

    def _post_due(self, rule: RecurringExpense, category: Category) -> list[Expense]:
        today, posted = self.now.date(), []
        while rule.next_date <= today and len(posted) < MAX_POSTED:
            expense = Expense(id=self.new_id("EXP", 5), user_id=rule.user_id, category_id=category.id,
                              amount=rule.amount, merchant=rule.merchant, spent_on=rule.next_date,
                              payment_method=rule.payment_method, note=None, recurring_id=rule.id, split_from=None,
                              created_at=self.now)
            self.db.add(expense)
            self._book(expense, +1)
            posted.append(expense)
            rule.next_date = (rule.next_date + dt.timedelta(days=7) if rule.frequency == "weekly"
                              else add_month(rule.next_date, rule.anchor_day))
        return posted

    def _category_names(self, ids: set[str]) -> dict[str, str]:
        if len(ids) <= 1:
            return {key: self.db.get(Category, key).name for key in ids}
        return dict(self.db.execute(select(Category.id, Category.name).where(Category.id.in_(sorted(ids)))).all())

    def _expense_full(self, expense: Expense) -> dict:
        info = _expense_info(expense, self._category_names({expense.category_id}))
        info.update(note=expense.note, recurring_id=expense.recurring_id, split_from=expense.split_from)
        return info

    def _recurring_info(self, rule: RecurringExpense, names: dict[str, str]) -> dict:
        today = self.now.date()
        due, day = 0, rule.next_date
        while rule.status == "active" and day <= today and due < MAX_POSTED:
            due += 1
            day = day + dt.timedelta(days=7) if rule.frequency == "weekly" else add_month(day, rule.anchor_day)
        return {"recurring_id": rule.id, "merchant": rule.merchant, "amount": rule.amount,
                "frequency": rule.frequency, "category_id": rule.category_id,
                "category": names.get(rule.category_id), "payment_method": rule.payment_method,
                "next_date": rule.next_date, "due_not_posted": due, "status": rule.status}


# -- results ------------------------------------------------------------------------------------


def _category_info(category: Category) -> dict:
    return {"category_id": category.id, "user_id": category.user_id, "name": category.name,
            "monthly_limit": category.monthly_limit, "status": category.status}


def _figures(row: BudgetMonth | None, category: Category, default_budget: bool = True) -> dict:
    """A category month's figures; a month without a row has spent nothing, and is budgeted the
    category's limit (None in a history, where it had no budget)."""
    budgeted, spent, remaining, count = _month_figures(category.monthly_limit, category.status, row and row.budgeted,
                                                       row and row.spent, row and row.expense_count, default_budget)
    return {"budgeted": budgeted, "spent": spent, "remaining": remaining, "over_budget": remaining < 0,
            "expense_count": count}


def _month_figures(limit: float, status: str, budgeted: float | None, spent: float | None, count: int | None,
                   default_budget: bool = True) -> tuple[float, float, float, int]:
    """(budgeted, spent, remaining, expense count) of a category month; a month without figures
    (budgeted None) has spent nothing, and is budgeted the category's limit while it is active."""
    if budgeted is None:
        budgeted, spent, count = limit if default_budget and status == "active" else 0.0, 0.0, 0
    return budgeted, spent, round(budgeted - spent, 2), count


def _expense_info(expense: Expense, names: dict[str, str]) -> dict:
    return {"expense_id": expense.id, "user_id": expense.user_id, "date": expense.spent_on,
            "merchant": expense.merchant, "amount": expense.amount, "category_id": expense.category_id,
            "category": names.get(expense.category_id), "payment_method": expense.payment_method}


def _income_info(income: Income) -> dict:
    return {"income_id": income.id, "date": income.received_on, "source": income.source, "amount": income.amount,
            "note": income.note}


# -- small rules --------------------------------------------------------------------------------


def _text(value: str, what: str) -> str:
    value = " ".join(value.split())
    if not 1 <= len(value) <= MAX_TEXT:
        raise ToolError(f"{what} must be 1 to {MAX_TEXT} characters, got {len(value)}")
    return value


def _check_limit(limit: float) -> None:
    if limit > MAX_LIMIT:
        raise ToolError(f"A monthly limit may be at most {MAX_LIMIT:,.2f}, got {limit:,.2f}")


def _month_bounds(key: str) -> tuple[dt.date, dt.date]:
    year, month = int(key[:4]), int(key[5:])
    return dt.date(year, month, 1), dt.date(year, month, calendar.monthrange(year, month)[1])
