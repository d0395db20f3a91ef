"""The banking server's tools: a retail bank's customers, accounts, ledger, payees, payments and cards.

Business rules, in one place:
- Money is in USD, given in dollars with at most two decimals, and always greater than 0.
- Every movement of money posts ledger entries (`transactions`), so a balance is always the sum
  of its account's entries. Credit accounts carry a negative balance: the amount owed.
- Moving money out (transfer, pay_payee, schedule_payment) and security-sensitive changes
  (add_payee, unfreeze_card, set_card_limit, close_account) need the owner's 4-digit PIN, which
  only the customer knows: no visible tool returns it.
- Money cannot leave a frozen or closed account, nor arrive in a closed one.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Date, Detail, Entity, Id, Limit, Money, Toolkit, ToolError, check_range, tool

from .models import Account, Base, Card, Customer, ExchangeRate, Payee, Payment, Transaction, Transfer
from .seed import BANKS, seed

TransactionKind = Literal["deposit", "withdrawal", "card_purchase", "transfer_in", "transfer_out",
                          "bill_payment", "fee", "interest", "refund", "balance_forward"]
PayeeCategory = Literal["utilities", "rent", "insurance", "phone", "personal", "other"]

SPENDING_KINDS = ("card_purchase", "bill_payment", "withdrawal", "fee", "refund")
INCOME_KINDS = ("deposit", "interest")
# A memo the customer did not ask for is a detail: the state check tolerates it.
_MEMOS = (Detail("transactions", "memo"), Detail("transfers", "memo"), Detail("payments", "memo"))
MAX_OPEN_ACCOUNTS = 6
MAX_DEPOSIT = 10_000.00
MAX_DEBIT_CARD_LIMIT = 5_000.00
NEW_ACCOUNT_RATES = {"checking": 0.01, "savings": 3.75}


class Banking(Toolkit):
    """A retail bank: look up customers, accounts and transactions; move money between accounts;
    pay saved payees now or on a schedule; manage debit and credit cards. All amounts are in USD.
    Moving money and security-sensitive changes need the customer's 4-digit PIN, which only the
    customer can give."""

    name = "banking"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("customer", Customer, "CUS", lookup="find_customers"),
        Entity("account", Account, "ACC", lookup="list_accounts"),
        Entity("payee", Payee, "PAY", lookup="list_payees", exists=lambda payee: payee.removed_at is None),
        Entity("payment", Payment, "PMT", lookup="list_scheduled_payments"),
        Entity("card", Card, "CRD", lookup="list_cards"),
        Entity("transaction", Transaction, "TXN", lookup="list_transactions", width=5),
    )

    # -- customers -------------------------------------------------------------------------------

    @tool(read_only=True)
    def find_customers(self, name: str | None = None, email: str | None = None, phone: str | None = None,
                       limit: Limit = 10) -> list[dict]:
        """Find customers by name, email or phone number; with none of them, list customers.

        Every criterion given must match. Results are ordered by customer id.

        Args:
            name: part of the customer's full name, case-insensitive, such as 'Ada Park' or 'park'.
            email: the customer's email address, case-insensitive, such as 'ada.park7@gmail.com'.
            phone: the customer's phone number in any format, such as '(555) 010-2233' or '5550102233'.
        """
        if email and not email.strip():
            return []  # an address of blanks is no one's
        found = self.find(Customer, name=name, name_columns=(("first_name", "last_name"),), email=email,
                          limit=None if phone else limit)
        if phone:
            digits = _digits(phone)  # phone numbers are stored as written: compared by their digits
            found = [c for c in found if _digits(c.phone) == digits][:limit]
        return [_customer_summary(c) for c in found]

    @tool(read_only=True)
    def get_customer(self, customer_id: Id("customer")) -> dict:
        """Return a customer's profile: name, contact details, address, date of birth and membership date.

        Args:
        """
        customer = self.get(Customer, customer_id)
        return {
            **_customer_summary(customer),
            "date_of_birth": customer.date_of_birth,
            "address": f"{customer.street}, {customer.city}, {customer.state} {customer.zip_code}",
            "member_since": customer.member_since.date(),
        }

    # -- accounts --------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_accounts(self, customer_id: Id("customer"), include_closed: bool = False) -> list[dict]:
        """List a customer's accounts with their balances and interest rates (an annual percentage: 3.75
        means 3.75%), ordered by account id.

        Args:
            include_closed: also list closed accounts (default false).
        """
        customer = self.get(Customer, customer_id)
        open_only = "" if include_closed else " AND status != 'closed'"
        accounts = self.load(Account, f"SELECT id FROM accounts WHERE customer_id = ?{open_only} ORDER BY id",
                                customer.id)
        return [_account_info(a) for a in accounts]

    @tool(read_only=True)
    def get_account(self, account_id: Id("account")) -> dict:
        """Return one account's details: type, number, balance, credit limit, interest rate (an annual
        percentage: 3.75 means 3.75%), status and dates.

        Args:
        """
        account = self.get(Account, account_id)
        return {**_account_info(account), "opened_at": account.opened_at, "closed_at": account.closed_at,
                "status_reason": account.status_reason}

    @tool(read_only=True)
    def get_balance(self, account_id: Id("account")) -> dict:
        """Return an account's current balance and the amount available to spend.

        For a credit account the balance is negative when money is owed, and the available amount is
        the unused part of the credit limit.

        Args:
        """
        account = self.get(Account, account_id)
        return {"account_id": account.id, "balance": account.balance, "available": _available(account),
                "currency": account.currency, "as_of": self.now}

    @tool(produces=("account",))
    def open_account(self, customer_id: Id("customer"), kind: Literal["checking", "savings"], nickname: str | None = None) -> dict:
        """Open a new checking or savings account for a customer, with a balance of 0.00.

        A customer may hold at most 6 accounts that are not closed. Credit accounts need an application
        and cannot be opened here.

        Args:
            kind: the account type: 'checking' or 'savings'.
            nickname: an optional name for the account, such as 'Vacation fund'.
        """
        customer = self.get(Customer, customer_id)
        held = self.db.scalar(select(func.count()).select_from(Account).where(
            Account.customer_id == customer.id, Account.status != "closed"))
        if held >= MAX_OPEN_ACCOUNTS:
            raise ToolError(f"Customer {customer.id} already holds {held} accounts, the most allowed")
        account_id = self.new_id("ACC")
        account = Account(
            id=account_id, customer_id=customer.id, kind=kind, nickname=(nickname or "").strip() or None,
            account_number=self._new_account_number(account_id), currency="USD", balance=0.0,
            credit_limit=None, interest_rate=NEW_ACCOUNT_RATES[kind], status="open", status_reason=None,
            opened_at=self.now, closed_at=None,
        )
        self.db.add(account)
        return _account_info(account)

    @tool(destructive=True)
    def close_account(self, account_id: Id("account"), pin: str) -> dict:
        """Close an account. Its cards are cancelled.

        The balance must be exactly 0.00 (move money out, or pay off a credit account, first), the account
        must not be frozen, and no payments may be scheduled from it.

        Args:
            pin: the account owner's 4-digit PIN, as given by the customer, such as '4821'.
        """
        account = self.get(Account, account_id)
        self._check_pin(account.customer_id, pin)
        if account.status == "closed":
            raise ToolError(f"Account {account.id} is already closed")
        if account.status == "frozen":
            raise ToolError(f"Account {account.id} is frozen ({account.status_reason}) and cannot be closed")
        if account.balance < 0:
            raise ToolError(f"Account {account.id} has an outstanding balance of {-account.balance:.2f}; "
                            "pay it off before closing")
        if account.balance > 0:
            raise ToolError(f"Account {account.id} still holds {account.balance:.2f}; move it out before closing")
        pending = self._scheduled_from(account.id)
        if pending:
            raise ToolError(f"Account {account.id} has scheduled payments ({', '.join(p.id for p in pending)}); "
                            "cancel them first")
        account.status, account.status_reason, account.closed_at = "closed", "Closed at customer's request", self.now
        cancelled = []
        for card in self.db.scalars(select(Card).where(Card.account_id == account.id).order_by(Card.id)):
            if card.status != "cancelled":
                card.status = "cancelled"
                cancelled.append(card.id)
        return {**_account_info(account), "closed_at": account.closed_at, "cancelled_cards": cancelled}

    # -- transactions ----------------------------------------------------------------------------

    @tool(read_only=True)
    def list_transactions(self, account_id: Id("account"), start_date: Date | None = None, end_date: Date | None = None,
                          kind: TransactionKind | None = None, category: str | None = None,
                          min_amount: float | None = None, max_amount: float | None = None,
                          limit: Limit = 20) -> list[dict]:
        """List an account's ledger entries, newest first, optionally filtered.

        Amounts are signed (negative = money out); min_amount and max_amount compare the amount without
        its sign. Dates are inclusive and compare the posting date.

        Args:
            start_date: the earliest posting date, such as '2026-07-01'.
            end_date: the latest posting date, such as '2026-07-31'.
            kind: only entries of this type, such as 'card_purchase' or 'transfer_in'.
            category: only entries of this category, such as 'groceries' (see list_transaction_categories).
            min_amount: the smallest amount in dollars, without sign, such as 50.0.
            max_amount: the largest amount in dollars, without sign, such as 500.0.
        """
        account = self.get(Account, account_id)
        query = select(Transaction).where(Transaction.account_id == account.id)
        query = _in_dates(query, start_date, end_date)
        if kind:
            query = query.where(Transaction.kind == kind)
        if category:
            query = query.where(func.lower(Transaction.category) == category.strip().lower())
        if min_amount is not None and max_amount is not None and min_amount > max_amount:
            raise ToolError(f"min_amount {min_amount:.2f} is greater than max_amount {max_amount:.2f}")
        if min_amount is not None:
            query = query.where(func.abs(Transaction.amount) >= min_amount)
        if max_amount is not None:
            query = query.where(func.abs(Transaction.amount) <= max_amount)
        query = query.order_by(Transaction.posted_at.desc(), Transaction.id.desc()).limit(limit)
        return [_transaction_info(t) for t in self.db.scalars(query)]

    @tool(read_only=True, produces=("transaction", "account"))
    def search_transactions(self, customer_id: Id("customer"), query: str, limit: Limit = 20) -> list[dict]:
        """Search the descriptions and memos of all of a customer's ledger entries, newest first.

        Args:
            query: text to look for, case-insensitive, such as 'starbucks' or 'Payroll'.
        """
        customer = self.get(Customer, customer_id)
        text = query.strip().lower()
        if not text:
            raise ToolError("query must not be empty")
        found = self.db.scalars(
            select(Transaction).join(Account, Transaction.account_id == Account.id)
            .where(Account.customer_id == customer.id,
                   func.lower(Transaction.description).contains(text)
                   | func.lower(func.coalesce(Transaction.memo, "")).contains(text))
            .order_by(Transaction.posted_at.desc(), Transaction.id.desc()).limit(limit)
        )
        return [_transaction_info(t) for t in found]

    @tool(read_only=True)
    def list_transaction_categories(self, customer_id: Id("customer") | None = None) -> list[dict]:
        """List the distinct transaction categories with how many entries each has, by category name.

        Args:
            customer_id: only count this customer's entries, such as 'CUS-0003'; all customers when left out.
        """
        query = select(Transaction.category, func.count()).group_by(Transaction.category).order_by(Transaction.category)
        if customer_id is not None:
            customer = self.get(Customer, customer_id)
            query = query.join(Account, Transaction.account_id == Account.id).where(Account.customer_id == customer.id)
        return [{"category": category, "count": count} for category, count in self.db.execute(query)]

    @tool(read_only=True)
    def get_spending_summary(self, customer_id: Id("customer"), start_date: Date, end_date: Date) -> dict:
        """Total a customer's spending by category, and their income, over a date range (both dates inclusive).

        Spending counts card purchases, bill payments, cash withdrawals and fees, net of refunds, on all of
        the customer's accounts. Income counts deposits and interest. Transfers between accounts count as
        neither.

        Args:
            start_date: the first day, such as '2026-07-01'.
            end_date: the last day, such as '2026-07-31'.
        """
        customer = self.get(Customer, customer_id)
        check_range(start_date, end_date)
        by_category: defaultdict[str, float] = defaultdict(float)
        income = 0.0
        for kind, category, amount in self.rows(  # in the order they were written: sums to the same last bit
                "SELECT kind, category, amount FROM transactions WHERE account_id IN "
                "(SELECT id FROM accounts WHERE customer_id = ?) AND posted_at >= ? AND posted_at < ? ORDER BY rowid",
                customer.id, dt.datetime.combine(start_date, dt.time()),
                dt.datetime.combine(end_date + dt.timedelta(days=1), dt.time())):
            if kind in SPENDING_KINDS:
                by_category[category] -= amount
            elif kind in INCOME_KINDS:
                income += amount
        spending = {c: round(v, 2) for c, v in sorted(by_category.items())}
        return {"customer_id": customer.id, "start_date": start_date, "end_date": end_date,
                "spending_by_category": spending, "total_spending": round(sum(spending.values()), 2),
                "total_income": round(income, 2)}

    # -- moving money ----------------------------------------------------------------------------

    @tool(produces=("transfer", "transaction"), requires=("account.funded",), details=_MEMOS)
    def transfer(self, from_account_id: Id("account"), to_account_id: Id("account"), amount: Money, pin: str,
                 memo: str | None = None) -> dict:
        """Move money from one account to another account at this bank, immediately.

        The paying account must be an open checking or savings account with enough money. Paying into a
        credit account pays down what is owed and may not exceed it. Needs the PIN of the paying account's
        owner.

        Args:
            from_account_id: the paying account id, such as 'ACC-0007'.
            to_account_id: the receiving account id, such as 'ACC-0012'.
            amount: the amount in dollars, greater than 0 with at most two decimals, such as 250.0.
            pin: the paying account owner's 4-digit PIN, as given by the customer, such as '4821'.
            memo: an optional note shown on both accounts' entries, such as 'Rent share'.
        """
        source = self.get(Account, from_account_id)
        target = self.get(Account, to_account_id)
        self._check_pin(source.customer_id, pin)
        if source.id == target.id:
            raise ToolError("Cannot transfer from an account to itself")
        if source.kind == "credit":
            raise ToolError(f"Cannot transfer out of credit account {source.id}; transfers come from checking "
                            "or savings")
        self._check_can_pay(source, amount)
        if target.status == "closed":
            raise ToolError(f"Account {target.id} is closed and cannot receive money")
        if target.kind == "credit" and amount > -target.balance:
            raise ToolError(f"Payment of {amount:.2f} exceeds the {max(-target.balance, 0):.2f} owed on "
                            f"credit account {target.id}")
        memo = (memo or "").strip() or None
        transfer = Transfer(id=self.new_id("TRF"), from_account_id=source.id, to_account_id=target.id,
                            amount=amount, memo=memo, created_at=self.now)
        self.db.add(transfer)
        self._post(source, "transfer_out", "transfer", f"Transfer to {_label(target)}", -amount,
                   transfer_id=transfer.id, memo=memo)
        self._post(target, "transfer_in", "transfer", f"Transfer from {_label(source)}", amount,
                   transfer_id=transfer.id, memo=memo)
        return {"transfer_id": transfer.id, "from_account_id": source.id, "to_account_id": target.id,
                "amount": amount, "memo": memo, "created_at": transfer.created_at,
                "from_account_balance": source.balance}

    @tool(produces=("transaction",), sets=("account.funded",))
    def deposit(self, account_id: Id("account"), amount: Money, description: str | None = None) -> dict:
        """Deposit cash or a check into a checking or savings account (it may be frozen, not closed).

        A single deposit may be at most 10,000.00; larger ones must be made in a branch.

        Args:
            amount: the amount in dollars, greater than 0 with at most two decimals, such as 120.5.
            description: what is deposited, shown on the statement (default 'Cash deposit'), such as 'Check #1042'.
        """
        account = self.get(Account, account_id)
        if account.kind == "credit":
            raise ToolError(f"Cannot deposit into credit account {account.id}; pay it with a transfer instead")
        if account.status == "closed":
            raise ToolError(f"Account {account.id} is closed and cannot receive money")
        if amount > MAX_DEPOSIT:
            raise ToolError(f"Deposits over {MAX_DEPOSIT:,.2f} must be made in a branch")
        entry = self._post(account, "deposit", "deposit", (description or "").strip() or "Cash deposit", amount)
        return {**_transaction_info(entry), "balance": account.balance}

    # -- payees and payments ---------------------------------------------------------------------

    @tool(read_only=True)
    def list_payees(self, customer_id: Id("customer")) -> list[dict]:
        """List a customer's saved payees (people and companies outside the bank), ordered by payee id.

        Args:
        """
        customer = self.get(Customer, customer_id)
        payees = self.load(Payee, "SELECT id FROM payees WHERE customer_id = ? AND removed_at IS NULL ORDER BY id",
                              customer.id)
        return [_payee_info(p) for p in payees]

    @tool(produces=("payee",))
    def add_payee(self, customer_id: Id("customer"), name: str, account_number: str, routing_number: str, pin: str,
                  nickname: str | None = None, category: PayeeCategory = "other") -> dict:
        """Save a new payee for a customer, so that they can pay it. Needs the customer's PIN.

        Args:
            name: the payee's name as their bank knows it, such as 'Greystar Apartments'.
            account_number: the payee's bank account number, 4 to 17 digits, such as '7712004518'.
            routing_number: the 9-digit routing number of the payee's bank, such as '021000021'.
            pin: the customer's 4-digit PIN, as given by the customer, such as '4821'.
            nickname: an optional short name, such as 'Landlord'.
            category: what the payee is paid for: 'utilities', 'rent', 'insurance', 'phone', 'personal' or
                'other' (default).
        """
        customer = self.get(Customer, customer_id)
        self._check_pin(customer.id, pin)
        name = name.strip()
        if not name:
            raise ToolError("name must not be empty")
        if not re.fullmatch(r"\d{4,17}", account_number):
            raise ToolError(f"account_number must be 4 to 17 digits, got {account_number!r}")
        if not re.fullmatch(r"\d{9}", routing_number):
            raise ToolError(f"routing_number must be 9 digits, got {routing_number!r}")
        existing = self.db.scalar(select(Payee).where(
            Payee.customer_id == customer.id, Payee.removed_at.is_(None),
            Payee.account_number == account_number, Payee.routing_number == routing_number))
        if existing is not None:
            raise ToolError(f"That account is already saved as payee {existing.id} ({existing.name})")
        payee = Payee(id=self.new_id("PAY"), customer_id=customer.id, name=name,
                      nickname=(nickname or "").strip() or None, category=category,
                      bank_name=_bank_name(routing_number), account_number=account_number,
                      routing_number=routing_number, added_at=self.now, removed_at=None)
        self.db.add(payee)
        return _payee_info(payee)

    @tool(destructive=True)
    def remove_payee(self, payee_id: Id("payee")) -> dict:
        """Remove a saved payee. Payments still scheduled to it must be cancelled first.

        Args:
        """
        payee = self.get(Payee, payee_id)
        pending = self.db.scalars(select(Payment).where(Payment.payee_id == payee.id, Payment.status == "scheduled")
                                  .order_by(Payment.id)).all()
        if pending:
            raise ToolError(f"Payee {payee.id} has scheduled payments ({', '.join(p.id for p in pending)}); "
                            "cancel them first")
        payee.removed_at = self.now
        return {"payee_id": payee.id, "name": payee.name, "removed": True}

    @tool(produces=("payment", "transaction"), requires=("account.funded",), details=_MEMOS)
    def pay_payee(self, account_id: Id("account"), payee_id: Id("payee"), amount: Money, pin: str, memo: str | None = None) -> dict:
        """Pay a saved payee now from a checking or savings account of the payee's owner. Needs the PIN.

        Args:
            account_id: the paying account id, such as 'ACC-0007'.
            amount: the amount in dollars, greater than 0 with at most two decimals, such as 84.99.
            pin: the account owner's 4-digit PIN, as given by the customer, such as '4821'.
            memo: an optional note for the payee, such as 'Invoice 2231'.
        """
        account, payee = self._paying_account_and_payee(account_id, payee_id, pin)
        self._check_can_pay(account, amount)
        payment = Payment(id=self.new_id("PMT"), account_id=account.id, payee_id=payee.id, amount=amount,
                          memo=(memo or "").strip() or None, frequency="once", scheduled_for=self.now.date(),
                          status="completed", created_at=self.now, executed_at=self.now, cancelled_at=None)
        self.db.add(payment)
        self._post(account, "bill_payment", payee.category, f"Payment to {payee.name}", -amount,
                   payment_id=payment.id, memo=payment.memo)
        return {**self._payment_info(payment), "account_balance": account.balance}

    @tool(produces=("payment",), sets=("payment.scheduled",), details=_MEMOS)
    def schedule_payment(self, account_id: Id("account"), payee_id: Id("payee"), amount: Money, date: Date, pin: str,
                         frequency: Literal["once", "weekly", "monthly"] = "once", memo: str | None = None) -> dict:
        """Schedule a payment to a saved payee on a future date, once or repeating. Needs the PIN.

        Funds are checked when the payment is made, not now. The date must be after today and at most a
        year ahead.

        Args:
            account_id: the paying checking or savings account id, such as 'ACC-0007'.
            amount: the amount in dollars, greater than 0 with at most two decimals, such as 1450.0.
            date: the (first) payment date, such as '2026-09-01'.
            pin: the account owner's 4-digit PIN, as given by the customer, such as '4821'.
            frequency: 'once' (default), 'weekly' or 'monthly'.
            memo: an optional note for the payee, such as 'September rent'.
        """
        account, payee = self._paying_account_and_payee(account_id, payee_id, pin)
        when, today = date, self.now.date()
        if when <= today:
            raise ToolError(f"date must be after today ({today.isoformat()}), got {when.isoformat()}")
        if when > today + dt.timedelta(days=365):
            raise ToolError(f"date must be at most a year ahead, got {when.isoformat()}")
        self._check_open(account)
        payment = Payment(id=self.new_id("PMT"), account_id=account.id, payee_id=payee.id, amount=amount,
                          memo=(memo or "").strip() or None, frequency=frequency, scheduled_for=when,
                          status="scheduled", created_at=self.now, executed_at=None, cancelled_at=None)
        self.db.add(payment)
        return self._payment_info(payment)

    @tool(read_only=True, produces=("payee",))
    def list_scheduled_payments(self, customer_id: Id("customer")) -> list[dict]:
        """List a customer's payments that are scheduled and not yet made, soonest first.

        Args:
        """
        customer = self.get(Customer, customer_id)
        payments = self.db.scalars(
            select(Payment).join(Account, Payment.account_id == Account.id)
            .where(Account.customer_id == customer.id, Payment.status == "scheduled")
            .order_by(Payment.scheduled_for, Payment.id))
        return [self._payment_info(p) for p in payments]

    @tool(destructive=True, requires=("payment.scheduled",))
    def cancel_scheduled_payment(self, payment_id: Id("payment")) -> dict:
        """Cancel a scheduled payment (all its repeats). Payments already made cannot be cancelled.

        Args:
        """
        payment = self.get(Payment, payment_id)
        if payment.status != "scheduled":
            raise ToolError(f"Payment {payment.id} is {payment.status} and cannot be cancelled")
        payment.status, payment.cancelled_at = "cancelled", self.now
        return self._payment_info(payment)

    # -- cards -----------------------------------------------------------------------------------

    @tool(read_only=True, produces=("account",))
    def list_cards(self, customer_id: Id("customer")) -> list[dict]:
        """List a customer's debit and credit cards, cancelled ones included, ordered by card id.

        Args:
        """
        customer = self.get(Customer, customer_id)
        cards = self.load(Card, "SELECT c.id FROM cards c JOIN accounts a ON a.id = c.account_id "
                                   "WHERE a.customer_id = ? ORDER BY c.id", customer.id)
        return [_card_info(c) for c in cards]

    @tool(idempotent=True, sets=("card.frozen",))
    def freeze_card(self, card_id: Id("card")) -> dict:
        """Freeze an active card so that it cannot be used (for example when it is lost). No PIN is needed.

        A card that is already frozen stays frozen: nothing changes and already_frozen is true.
        A cancelled card cannot be frozen.

        Args:
        """
        card = self.get(Card, card_id)
        if card.status == "cancelled":
            raise ToolError(f"Card {card.id} is cancelled; only active cards can be frozen")
        already = card.status == "frozen"
        card.status = "frozen"
        return {**_card_info(card), "already_frozen": already}

    @tool(idempotent=True, requires=("card.frozen",))
    def unfreeze_card(self, card_id: Id("card"), pin: str) -> dict:
        """Unfreeze a frozen card so that it can be used again. Needs the card owner's PIN.

        A card that is already active stays active: nothing changes and already_active is true.
        A cancelled card, or a card of a frozen or closed account, cannot be unfrozen.

        Args:
            pin: the card owner's 4-digit PIN, as given by the customer, such as '4821'.
        """
        card = self.get(Card, card_id)
        account = self.get(Account, card.account_id)
        self._check_pin(account.customer_id, pin)
        if card.status == "cancelled":
            raise ToolError(f"Card {card.id} is cancelled; only frozen cards can be unfrozen")
        if card.status == "active":
            return {**_card_info(card), "already_active": True}
        if account.status != "open":
            raise ToolError(f"Card {card.id} belongs to {account.status} account {account.id} and cannot be unfrozen")
        card.status = "active"
        return {**_card_info(card), "already_active": False}

    @tool(idempotent=True)
    def set_card_limit(self, card_id: Id("card"), daily_limit: Money, pin: str) -> dict:
        """Set a card's daily spending limit. Needs the card owner's PIN.

        A debit card's limit may be at most 5,000.00; a credit card's at most its account's credit limit.

        Args:
            daily_limit: the new limit in dollars, greater than 0 with at most two decimals, such as 1500.0.
            pin: the card owner's 4-digit PIN, as given by the customer, such as '4821'.
        """
        card = self.get(Card, card_id)
        account = self.get(Account, card.account_id)
        self._check_pin(account.customer_id, pin)
        if card.status == "cancelled":
            raise ToolError(f"Card {card.id} is cancelled")
        ceiling = MAX_DEBIT_CARD_LIMIT if card.kind == "debit" else account.credit_limit or 0.0
        if daily_limit > ceiling:
            raise ToolError(f"The daily limit of a {card.kind} card on account {account.id} may be at most "
                            f"{ceiling:,.2f}")
        card.daily_limit = daily_limit
        return _card_info(card)

    # -- reference data --------------------------------------------------------------------------

    @tool(read_only=True)
    def get_exchange_rate(self, from_currency: str, to_currency: str, amount: Money | None = None) -> dict:
        """Return today's exchange rate between two currencies, and optionally convert an amount.

        Args:
            from_currency: the 3-letter code of the currency to convert from, such as 'USD'.
            to_currency: the 3-letter code of the currency to convert to, such as 'EUR'.
            amount: an optional amount in from_currency to convert, such as 500.0.
        """
        source, target = self._get_rate(from_currency), self._get_rate(to_currency)
        rate = round(target.per_usd / source.per_usd, 6)
        result: dict = {"from_currency": source.currency, "to_currency": target.currency, "rate": rate,
                        "as_of": self.now.date()}
        if amount is not None:
                result |= {"amount": amount, "converted_amount": round(amount * rate, 2)}
        return result

    # -- hidden ----------------------------------------------------------------------------------

    @tool(read_only=True, hidden=True)
    def get_customer_pin(self, customer_id: Id("customer")) -> dict:
        """Debugging only: return a customer's PIN.

        Args:
        """
        customer = self.get(Customer, customer_id)
        return {"customer_id": customer.id, "pin": customer.pin}

    # -- invariants ------------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """Every balance is the sum of its ledger entries and its latest entry's balance_after;
        every transfer's two entries cancel out; nothing that happened lies after the clock."""
        problems = self.after_now(Customer.member_since, Account.opened_at, Account.closed_at,
                                  Transaction.posted_at, Transfer.created_at, Payee.added_at, Payee.removed_at,
                                  Payment.created_at, Payment.executed_at, Payment.cancelled_at, Card.issued_at)
        totals = dict(self.db.execute(select(Transaction.account_id, func.sum(Transaction.amount))
                                      .group_by(Transaction.account_id)).all())
        latest = {}
        for entry in self.db.scalars(select(Transaction).order_by(Transaction.posted_at, Transaction.id)):
            latest[entry.account_id] = entry.balance_after
        for account in self.db.scalars(select(Account)):
            if round(totals.get(account.id, 0.0), 2) != round(account.balance, 2):
                problems.append(f"{account.id}: balance {account.balance} but ledger sums to {totals.get(account.id, 0.0)}")
            if account.id in latest and round(latest[account.id], 2) != round(account.balance, 2):
                problems.append(f"{account.id}: balance {account.balance} but last entry says {latest[account.id]}")
        for transfer_id, total in self.db.execute(select(Transaction.transfer_id, func.sum(Transaction.amount))
                                                  .where(Transaction.transfer_id.is_not(None))
                                                  .group_by(Transaction.transfer_id)):
            if abs(total) >= 0.005:
                problems.append(f"transfer {transfer_id}: its entries sum to {total}, not 0")
        return problems

    # -- helpers ---------------------------------------------------------------------------------

    def _get_rate(self, currency: str) -> ExchangeRate:
        rate = self.db.get(ExchangeRate, currency.strip().upper())
        if rate is None:
            codes = ", ".join(self.db.scalars(select(ExchangeRate.currency).order_by(ExchangeRate.currency)))
            raise ToolError(f"Unsupported currency {currency!r}; supported: {codes}")
        return rate

    def _check_pin(self, customer_id: Id("customer"), pin: str) -> None:
        if pin != self.get(Customer, customer_id).pin:
            raise ToolError("Incorrect PIN")

    def _check_open(self, account: Account) -> None:
        if account.status == "closed":
            raise ToolError(f"Account {account.id} is closed")
        if account.status == "frozen":
            raise ToolError(f"Account {account.id} is frozen ({account.status_reason}); no money can leave it")

    def _check_can_pay(self, account: Account, amount: float) -> None:
        self._check_open(account)
        if account.balance < amount:
            raise ToolError(f"Insufficient funds: {account.id} has {account.balance:.2f}, needs {amount:.2f}")

    def _paying_account_and_payee(self, account_id: Id("account"), payee_id: Id("payee"), pin: str) -> tuple[Account, Payee]:
        account = self.get(Account, account_id)
        payee = self.get(Payee, payee_id)
        if payee.customer_id != account.customer_id:
            raise ToolError(f"Payee {payee.id} is not saved by the owner of account {account.id}")
        self._check_pin(account.customer_id, pin)
        if account.kind == "credit":
            raise ToolError(f"Payees are paid from checking or savings accounts, not credit account {account.id}")
        return account, payee

    def _new_account_number(self, account_id: Id("account")) -> str:
        """A 10-digit number derived from the id (no randomness in tools), skipping any in use."""
        number = 8_800_000_000 + int(account_id.split("-")[1])
        while self.db.scalar(select(Account.id).where(Account.account_number == str(number))) is not None:
            number += 1
        return str(number)

    def _scheduled_from(self, account_id: Id("account")) -> list[Payment]:
        return list(self.db.scalars(select(Payment).where(Payment.account_id == account_id,
                                                          Payment.status == "scheduled").order_by(Payment.id)))

    def _post(self, account: Account, kind: str, category: str, description: str, amount: float,
              **refs: str | None) -> Transaction:
        entry = account.post(self.new_id("TXN", 5), self.now, kind, category, description, amount, **refs)
        self.db.add(entry)
        return entry

    def _payment_info(self, payment: Payment) -> dict:
        payee = self.db.get(Payee, payment.payee_id)
        return {"payment_id": payment.id, "account_id": payment.account_id, "payee_id": payment.payee_id,
                "payee_name": payee.name if payee else None, "amount": payment.amount, "memo": payment.memo,
                "frequency": payment.frequency, "date": payment.scheduled_for, "status": payment.status}


# -- results ------------------------------------------------------------------------------------


def _customer_summary(customer: Customer) -> dict:
    return {"customer_id": customer.id, "name": customer.name, "email": customer.email, "phone": customer.phone,
            "city": customer.city, "state": customer.state}


def _account_info(account: Account) -> dict:
    info = {"account_id": account.id, "customer_id": account.customer_id, "kind": account.kind,
            "nickname": account.nickname, "account_number": account.account_number, "currency": account.currency,
            "balance": account.balance, "available": _available(account), "interest_rate": account.interest_rate,
            "status": account.status}
    if account.kind == "credit":
        info["credit_limit"] = account.credit_limit
    return info


def _transaction_info(entry: Transaction) -> dict:
    info = {"transaction_id": entry.id, "account_id": entry.account_id, "posted_at": entry.posted_at,
            "kind": entry.kind, "category": entry.category, "description": entry.description,
            "amount": entry.amount, "balance_after": entry.balance_after}
    for key in ("memo", "card_id", "transfer_id", "payment_id"):
        if getattr(entry, key) is not None:
            info[key] = getattr(entry, key)
    return info


def _payee_info(payee: Payee) -> dict:
    return {"payee_id": payee.id, "name": payee.name, "nickname": payee.nickname, "category": payee.category,
            "bank_name": payee.bank_name, "account_number": "****" + payee.account_number[-4:]}


def _card_info(card: Card) -> dict:
    return {"card_id": card.id, "account_id": card.account_id, "kind": card.kind, "network": card.network,
            "last4": card.last4, "expires": card.expires.strftime("%Y-%m"), "status": card.status,
            "daily_limit": card.daily_limit}


# -- small rules --------------------------------------------------------------------------------


def _available(account: Account) -> float:
    if account.status != "open":
        return 0.0
    return round(account.balance + (account.credit_limit or 0.0), 2)


def _label(account: Account) -> str:
    return f"{account.kind} ...{account.account_number[-4:]}"


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _bank_name(routing_number: str) -> str:
    return next((bank for bank, routing in BANKS if routing == routing_number), "Other bank")


def _in_dates(query, start: dt.date | None, end: dt.date | None):
    """Restrict a Transaction query to posting dates from start to end, both inclusive."""
    check_range(start, end)
    if start:
        query = query.where(Transaction.posted_at >= dt.datetime.combine(start, dt.time()))
    if end:
        query = query.where(Transaction.posted_at < dt.datetime.combine(end + dt.timedelta(days=1), dt.time()))
    return query
