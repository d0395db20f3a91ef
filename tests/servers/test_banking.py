"""The banking server through real MCP: every tool's success path and failure modes, the ledger
invariant, determinism, the hidden tool, and a replay of the hand-written tasks.

Entities are discovered through the tools (customers by id order, their accounts, cards and
payees); PINs come from the hidden debug tool, which the `bank` fixture includes.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections import defaultdict

import pytest

from prove_env.runtime import run_sync
from servers.banking.models import Transaction



# -- helpers --------------------------------------------------------------------------------------


@pytest.fixture
def bank(served):
    """A fresh seed-0 banking world, hidden tools included (for PINs)."""
    return served("banking", include_hidden=True)


def survey(s) -> list[dict]:
    """Every customer, with accounts (closed included), cards and payees, found through the tools."""
    customers = []
    while True:
        result = s.call("get_customer", customer_id=f"CUS-{len(customers) + 1:04d}")
        if not result.ok:
            break
        c = result.data
        c["accounts"] = s.ok("list_accounts", customer_id=c["customer_id"], include_closed=True)
        c["cards"] = s.ok("list_cards", customer_id=c["customer_id"])
        c["payees"] = s.ok("list_payees", customer_id=c["customer_id"])
        customers.append(c)
    assert len(customers) >= 30
    return customers


def find(customers, *, kind=None, status="open", where=lambda c, a: True):
    """The first (customer, account) pair whose account matches."""
    for c in customers:
        for a in c["accounts"]:
            if (kind is None or a["kind"] == kind) and (status is None or a["status"] == status) and where(c, a):
                return c, a
    raise AssertionError("no such account in the seed-0 world")


def own(c, kind, status="open"):
    return next((a for a in c["accounts"] if a["kind"] == kind and a["status"] == status), None)


def pin_of(s, customer_id: str) -> str:
    return s.ok("get_customer_pin", customer_id=customer_id)["pin"]


def wrong(pin: str) -> str:
    return f"{(int(pin) + 1) % 10000:04d}"


def balance(s, account_id: str) -> float:
    return s.ok("get_balance", account_id=account_id)["balance"]


def today(s) -> str:
    return s.ok("get_balance", account_id="ACC-0001")["as_of"][:10]


def reconcile(s) -> None:
    """Every account's balance is the sum of its ledger entries, and its latest entry's balance_after."""
    tables = s.world.snapshot()["tables"]
    totals: defaultdict[str, float] = defaultdict(float)
    latest: dict[str, dict] = {}
    for entry in tables["transactions"]:
        totals[entry["account_id"]] += entry["amount"]
        last = latest.get(entry["account_id"])
        if last is None or (entry["posted_at"], entry["id"]) > (last["posted_at"], last["id"]):
            latest[entry["account_id"]] = entry
    assert tables["accounts"]
    for account in tables["accounts"]:
        assert round(totals[account["id"]], 2) == account["balance"], account["id"]
        if account["id"] in latest:
            assert latest[account["id"]]["balance_after"] == account["balance"], account["id"]
    by_transfer: defaultdict[str, float] = defaultdict(float)
    for entry in tables["transactions"]:
        if entry["transfer_id"]:
            by_transfer[entry["transfer_id"]] += entry["amount"]
    assert all(abs(total) < 0.005 for total in by_transfer.values())
    assert set(by_transfer) == {t["id"] for t in tables["transfers"]}


# -- the server as a whole ----------------------------------------------------------------------


def test_tools_listed_and_hidden_tool_kept_from_the_agent(served):
    s = served("banking")
    names = [t.name for t in run_sync(s.client.list_tools())]
    assert len(names) >= 17 and len(set(names)) == len(names)
    assert "get_customer_pin" not in names
    assert {"transfer", "pay_payee", "freeze_card", "list_transaction_categories"} <= set(names)
    s.fails("get_customer_pin", "Unknown tool", customer_id="CUS-0001")
    hidden = served("banking", include_hidden=True)
    assert "get_customer_pin" in [t.name for t in run_sync(hidden.client.list_tools())]
    assert len(hidden.ok("get_customer_pin", customer_id="CUS-0001")["pin"]) == 4


def test_read_only_annotations_match_the_tools(served):
    s = served("banking")
    tools = {t.name: t for t in run_sync(s.client.list_tools())}
    for name in ("find_customers", "list_transactions", "get_spending_summary", "get_exchange_rate"):
        assert tools[name].annotations.read_only_hint is True
    for name in ("transfer", "pay_payee", "close_account", "freeze_card"):
        assert tools[name].annotations.read_only_hint is False
    assert tools["close_account"].annotations.destructive_hint is True


def test_seed_world_has_the_variety_tasks_need(bank):
    customers = survey(bank)
    accounts = [a for c in customers for a in c["accounts"]]
    assert {a["kind"] for a in accounts} == {"checking", "savings", "credit"}
    assert {a["status"] for a in accounts} == {"open", "frozen", "closed"}
    assert any(a["kind"] == "checking" and a["status"] == "open" and a["balance"] < 50 for a in accounts)
    assert {c["status"] for cu in customers for c in cu["cards"]} == {"active", "frozen", "cancelled"}
    assert sum(len(bank.ok("list_scheduled_payments", customer_id=c["customer_id"])) for c in customers) > 5
    reconcile(bank)


def test_no_visible_tool_reveals_a_pin(bank):
    c = survey(bank)[0]
    texts = [bank.call("find_customers", name=c["name"]).text,
             bank.call("get_customer", customer_id=c["customer_id"]).text]
    for a in c["accounts"]:
        texts.append(bank.call("get_account", account_id=a["account_id"]).text)
    assert all('"pin"' not in t for t in texts)


# -- customers ----------------------------------------------------------------------------------


def test_find_customers(bank):
    c = bank.ok("get_customer", customer_id="CUS-0001")
    first, last = c["name"].split(" ", 1)
    assert [m["customer_id"] for m in bank.ok("find_customers", name=c["name"])] == ["CUS-0001"]
    assert "CUS-0001" in [m["customer_id"] for m in bank.ok("find_customers", name=last.upper())]
    assert bank.ok("find_customers", email=c["email"].upper())[0]["customer_id"] == "CUS-0001"
    digits = "".join(ch for ch in c["phone"] if ch.isdigit())
    assert [m["customer_id"] for m in bank.ok("find_customers", phone=digits)] == ["CUS-0001"]
    assert bank.ok("find_customers", name=first, email="nobody@example.com") == []
    assert bank.ok("find_customers", name="zzzz-no-such-person") == []
    many = bank.ok("find_customers", name="a", limit=3)
    assert len(many) == 3 and [m["customer_id"] for m in many] == sorted(m["customer_id"] for m in many)
    assert [m["customer_id"] for m in bank.ok("find_customers", limit=2)] == ["CUS-0001", "CUS-0002"]
    bank.fails("find_customers", "limit", name="a", limit=0)
    bank.fails("find_customers", "Invalid arguments", name="a", limit="5")


def test_get_customer(bank):
    c = bank.ok("get_customer", customer_id="CUS-0002")
    assert c["customer_id"] == "CUS-0002"
    assert {"name", "email", "phone", "address", "date_of_birth", "member_since"} <= set(c)
    assert c["date_of_birth"] < c["member_since"] <= today(bank)
    bank.fails("get_customer", "missing required argument")


# -- accounts -----------------------------------------------------------------------------------


def test_list_accounts_hides_closed_unless_asked(bank):
    c, closed = find(survey(bank), status="closed")
    default = bank.ok("list_accounts", customer_id=c["customer_id"])
    assert closed["account_id"] not in [a["account_id"] for a in default]
    assert all(a["customer_id"] == c["customer_id"] and a["status"] != "closed" for a in default)
    every = bank.ok("list_accounts", customer_id=c["customer_id"], include_closed=True)
    assert closed["account_id"] in [a["account_id"] for a in every]
    assert [a["account_id"] for a in every] == sorted(a["account_id"] for a in every)


def test_get_account_and_balance(bank):
    customers = survey(bank)
    _, credit = find(customers, kind="credit", where=lambda c, a: a["balance"] < 0)
    info = bank.ok("get_account", account_id=credit["account_id"])
    assert info["kind"] == "credit" and info["credit_limit"] > 0 and info["closed_at"] is None
    money = bank.ok("get_balance", account_id=credit["account_id"])
    assert money["balance"] == credit["balance"] < 0
    assert money["available"] == round(info["credit_limit"] + credit["balance"], 2)
    assert money["currency"] == "USD"
    _, closed = find(customers, status="closed")
    assert bank.ok("get_account", account_id=closed["account_id"])["closed_at"] is not None
    assert bank.ok("get_balance", account_id=closed["account_id"])["available"] == 0
    _, frozen = find(customers, status="frozen")
    frozen_info = bank.ok("get_account", account_id=frozen["account_id"])
    assert frozen_info["status_reason"] and bank.ok("get_balance", account_id=frozen["account_id"])["available"] == 0


def test_open_account_up_to_the_limit(bank):
    c = bank.ok("get_customer", customer_id="CUS-0001")
    held = len(bank.ok("list_accounts", customer_id="CUS-0001"))
    new = bank.ok("open_account", customer_id="CUS-0001", kind="savings", nickname="Vacation fund")
    assert new["customer_id"] == c["customer_id"] and new["kind"] == "savings"
    assert new["balance"] == 0 and new["status"] == "open" and new["nickname"] == "Vacation fund"
    assert balance(bank, new["account_id"]) == 0
    numbers = [a["account_number"] for a in bank.ok("list_accounts", customer_id="CUS-0001")]
    assert len(new["account_number"]) == 10 and numbers.count(new["account_number"]) == 1
    assert new["account_id"] in [a["account_id"] for a in bank.ok("list_accounts", customer_id="CUS-0001")]
    for _ in range(6 - held - 1):
        bank.ok("open_account", customer_id="CUS-0001", kind="checking")
    bank.fails("open_account", "most allowed", customer_id="CUS-0001", kind="checking")
    bank.fails("open_account", "Invalid arguments", customer_id="CUS-0002", kind="credit")
    reconcile(bank)


def test_close_account(bank):
    customers = survey(bank)
    c = customers[0]
    pin = pin_of(bank, c["customer_id"])
    new = bank.ok("open_account", customer_id=c["customer_id"], kind="savings")
    bank.fails("close_account", "Incorrect PIN", account_id=new["account_id"], pin=wrong(pin))
    closed = bank.ok("close_account", account_id=new["account_id"], pin=pin)
    assert closed["status"] == "closed" and closed["closed_at"] and closed["cancelled_cards"] == []
    assert new["account_id"] not in [a["account_id"] for a in bank.ok("list_accounts", customer_id=c["customer_id"])]
    bank.fails("close_account", "already closed", account_id=new["account_id"], pin=pin)

    # A paid-off credit account closes and its card is cancelled.
    owner, paid_off = find(customers, kind="credit", where=lambda c, a: a["balance"] == 0)
    card = next(k for k in owner["cards"] if k["account_id"] == paid_off["account_id"])
    result = bank.ok("close_account", account_id=paid_off["account_id"], pin=pin_of(bank, owner["customer_id"]))
    assert result["cancelled_cards"] == [card["card_id"]]
    cards = {k["card_id"]: k for k in bank.ok("list_cards", customer_id=owner["customer_id"])}
    assert cards[card["card_id"]]["status"] == "cancelled"

    holder, funded = find(customers, kind="checking", where=lambda c, a: a["balance"] > 0)
    bank.fails("close_account", "still holds", account_id=funded["account_id"],
              pin=pin_of(bank, holder["customer_id"]))
    debtor, owing = find(customers, kind="credit", where=lambda c, a: a["balance"] < 0)
    bank.fails("close_account", "outstanding balance", account_id=owing["account_id"],
              pin=pin_of(bank, debtor["customer_id"]))
    frozen_owner, frozen = find(customers, status="frozen")
    bank.fails("close_account", "frozen", account_id=frozen["account_id"],
              pin=pin_of(bank, frozen_owner["customer_id"]))

    # Payments scheduled from the account block closing until they are cancelled.
    payer = next(x for x in customers if x["payees"])
    payer_pin = pin_of(bank, payer["customer_id"])
    empty = bank.ok("open_account", customer_id=payer["customer_id"], kind="checking")
    payment = bank.ok("schedule_payment", account_id=empty["account_id"], payee_id=payer["payees"][0]["payee_id"],
                      amount=25.0, date=_days_ahead(bank, 10), pin=payer_pin)
    bank.fails("close_account", "cancel them first", account_id=empty["account_id"], pin=payer_pin)
    bank.ok("cancel_scheduled_payment", payment_id=payment["payment_id"])
    assert bank.ok("close_account", account_id=empty["account_id"], pin=payer_pin)["status"] == "closed"
    reconcile(bank)


def _days_ahead(s, days: int) -> str:
    return (dt.date.fromisoformat(today(s)) + dt.timedelta(days=days)).isoformat()


# -- transactions -------------------------------------------------------------------------------


def _busiest(s, customers):
    """The account with the most ledger entries (it is well under 100)."""
    counts = {a["account_id"]: len(s.ok("list_transactions", account_id=a["account_id"], limit=100))
              for c in customers for a in c["accounts"]}
    account_id = max(counts, key=lambda k: (counts[k], k))
    assert 20 < counts[account_id] < 100
    return account_id


def test_list_transactions_filters_and_order(bank):
    account_id = _busiest(bank, survey(bank))
    everything = bank.ok("list_transactions", account_id=account_id, limit=100)
    assert len(bank.ok("list_transactions", account_id=account_id)) == 20
    keys = [(t["posted_at"], t["transaction_id"]) for t in everything]
    assert keys == sorted(keys, reverse=True)
    assert round(sum(t["amount"] for t in everything), 2) == balance(bank, account_id)
    assert everything[0]["balance_after"] == balance(bank, account_id)

    kind = everything[0]["kind"]
    by_kind = bank.ok("list_transactions", account_id=account_id, kind=kind, limit=100)
    assert by_kind and all(t["kind"] == kind for t in by_kind)
    assert len(by_kind) == sum(t["kind"] == kind for t in everything)

    category = everything[-1]["category"]
    by_category = bank.ok("list_transactions", account_id=account_id, category=category.upper(), limit=100)
    assert len(by_category) == sum(t["category"] == category for t in everything) > 0

    dates = sorted({t["posted_at"][:10] for t in everything})
    start, end = dates[len(dates) // 4], dates[3 * len(dates) // 4]
    window = bank.ok("list_transactions", account_id=account_id, start_date=start, end_date=end, limit=100)
    assert len(window) == sum(start <= t["posted_at"][:10] <= end for t in everything) > 0
    one_day = bank.ok("list_transactions", account_id=account_id, start_date=end, end_date=end, limit=100)
    assert one_day and all(t["posted_at"][:10] == end for t in one_day)

    between = bank.ok("list_transactions", account_id=account_id, min_amount=50.0, max_amount=500, limit=100)
    assert len(between) == sum(50 <= abs(t["amount"]) <= 500 for t in everything) > 0

    bank.fails("list_transactions", "ISO 8601", account_id=account_id, start_date="08/01/2026")
    bank.fails("list_transactions", "after end_date", account_id=account_id, start_date=end, end_date=start)
    bank.fails("list_transactions", "greater than max_amount", account_id=account_id, min_amount=500.0, max_amount=50.0)
    bank.fails("list_transactions", "limit", account_id=account_id, limit=101)
    bank.fails("list_transactions", "Invalid arguments", account_id=account_id, kind="purchase")
    bank.fails("list_transactions", "Invalid arguments", account_id=account_id, colour="red")


def test_search_transactions(bank):
    customers = survey(bank)
    c = next(c for c in customers
             if any(x["category"] == "income"
                    for x in bank.ok("list_transaction_categories", customer_id=c["customer_id"])))
    found = bank.ok("search_transactions", customer_id=c["customer_id"], query="PAYROLL")
    mine = {a["account_id"] for a in c["accounts"]}
    assert found and all("payroll" in t["description"].lower() and t["account_id"] in mine for t in found)
    assert len(bank.ok("search_transactions", customer_id=c["customer_id"], query="payroll", limit=1)) == 1
    assert bank.ok("search_transactions", customer_id=c["customer_id"], query="no such merchant xyz") == []
    # Memos are searched too.
    saver, checking = find(customers, kind="checking", where=lambda c, a: a["balance"] > 1 and own(c, "savings"))
    bank.ok("transfer", from_account_id=checking["account_id"], to_account_id=own(saver, "savings")["account_id"],
            amount=0.5, pin=pin_of(bank, saver["customer_id"]), memo="Quokka fund")
    hits = bank.ok("search_transactions", customer_id=saver["customer_id"], query="quokka")
    assert len(hits) == 2 and all(h["memo"] == "Quokka fund" for h in hits)
    bank.fails("search_transactions", "must not be empty", customer_id=c["customer_id"], query="  ")
    bank.fails("search_transactions", "limit", customer_id=c["customer_id"], query="a", limit=0)


def test_list_transaction_categories(bank):
    overall = bank.ok("list_transaction_categories")
    names = [c["category"] for c in overall]
    assert names == sorted(names) and {"groceries", "dining", "income", "transfer"} <= set(names)
    assert sum(c["count"] for c in overall) == len(bank.world.snapshot()["tables"]["transactions"])
    counts = {c["category"]: c["count"] for c in overall}
    mine = bank.ok("list_transaction_categories", customer_id="CUS-0001")
    assert mine and all(c["count"] <= counts[c["category"]] for c in mine)


def test_get_spending_summary_matches_the_ledger(bank):
    # A customer with a refund, over the whole month of that refund: refunds reduce spending.
    c, refund = next((c, hits[0]) for c in survey(bank)
                     if (hits := bank.ok("search_transactions", customer_id=c["customer_id"], query="refund")))
    year, month = int(refund["posted_at"][:4]), int(refund["posted_at"][5:7])
    start = f"{year:04d}-{month:02d}-01"
    end = f"{year:04d}-{month:02d}-{calendar.monthrange(year, month)[1]:02d}"
    summary = bank.ok("get_spending_summary", customer_id=c["customer_id"], start_date=start, end_date=end)
    expected: defaultdict[str, float] = defaultdict(float)
    income = 0.0
    for a in c["accounts"]:
        for t in bank.ok("list_transactions", account_id=a["account_id"], start_date=start, end_date=end, limit=100):
            if t["kind"] in ("card_purchase", "bill_payment", "withdrawal", "fee", "refund"):
                expected[t["category"]] -= t["amount"]
            elif t["kind"] in ("deposit", "interest"):
                income += t["amount"]
    assert summary["spending_by_category"] == {k: round(v, 2) for k, v in sorted(expected.items())}
    assert summary["total_spending"] == round(sum(round(v, 2) for v in expected.values()), 2)
    assert refund["category"] in summary["spending_by_category"]
    assert summary["total_income"] == round(income, 2)
    assert "transfer" not in summary["spending_by_category"]
    bank.fails("get_spending_summary", "ISO 8601", customer_id=c["customer_id"], start_date="July 1", end_date=end)
    bank.fails("get_spending_summary", "after end_date", customer_id=c["customer_id"], start_date=end, end_date=start)
    bank.fails("get_spending_summary", "missing required argument", customer_id=c["customer_id"], start_date=start)


# -- moving money -------------------------------------------------------------------------------


def test_transfer_between_own_accounts(bank):
    c, checking = find(survey(bank), kind="checking", where=lambda c, a: a["balance"] > 1000 and own(c, "savings"))
    savings = own(c, "savings")
    pin = pin_of(bank, c["customer_id"])
    result = bank.ok("transfer", from_account_id=checking["account_id"], to_account_id=savings["account_id"],
                     amount=250.25, pin=pin, memo="Rainy day")
    assert result["amount"] == 250.25 and result["transfer_id"].startswith("TRF-")
    assert result["from_account_balance"] == round(checking["balance"] - 250.25, 2)
    assert balance(bank, checking["account_id"]) == result["from_account_balance"]
    assert balance(bank, savings["account_id"]) == round(savings["balance"] + 250.25, 2)
    out = bank.ok("list_transactions", account_id=checking["account_id"], limit=1)[0]
    into = bank.ok("list_transactions", account_id=savings["account_id"], limit=1)[0]
    assert (out["kind"], out["amount"], out["transfer_id"]) == ("transfer_out", -250.25, result["transfer_id"])
    assert (into["kind"], into["amount"], into["memo"]) == ("transfer_in", 250.25, "Rainy day")
    assert bank.ok("transfer", from_account_id=checking["account_id"], to_account_id=savings["account_id"],
                   amount=3, pin=pin)["amount"] == 3
    reconcile(bank)


def test_transfer_pays_down_a_credit_account_but_not_beyond(bank):
    c, credit = find(survey(bank), kind="credit", where=lambda c, a: a["balance"] < -10 and own(c, "checking")
                     and own(c, "checking")["balance"] > -a["balance"])
    checking = own(c, "checking")
    pin = pin_of(bank, c["customer_id"])
    owed = -credit["balance"]
    bank.fails("transfer", "exceeds", from_account_id=checking["account_id"], to_account_id=credit["account_id"],
              amount=round(owed + 0.01, 2), pin=pin)
    bank.ok("transfer", from_account_id=checking["account_id"], to_account_id=credit["account_id"], amount=10.0,
            pin=pin)
    assert balance(bank, credit["account_id"]) == round(credit["balance"] + 10, 2)
    bank.ok("transfer", from_account_id=checking["account_id"], to_account_id=credit["account_id"],
            amount=round(owed - 10, 2), pin=pin)
    assert balance(bank, credit["account_id"]) == 0
    bank.fails("transfer", "exceeds", from_account_id=checking["account_id"], to_account_id=credit["account_id"],
              amount=1.0, pin=pin)
    bank.fails("transfer", "credit account", from_account_id=credit["account_id"],
              to_account_id=checking["account_id"], amount=1.0, pin=pin)
    reconcile(bank)


def test_transfer_to_another_customer_needs_the_payers_pin(bank):
    customers = survey(bank)
    payer, source = find(customers, kind="checking", where=lambda c, a: a["balance"] > 100)
    payee, target = find(customers, kind="checking", where=lambda c, a: c["customer_id"] != payer["customer_id"])
    payer_pin, payee_pin = pin_of(bank, payer["customer_id"]), pin_of(bank, payee["customer_id"])
    assert payer_pin != payee_pin
    bank.fails("transfer", "Incorrect PIN", from_account_id=source["account_id"],
              to_account_id=target["account_id"], amount=20.0, pin=payee_pin)
    bank.ok("transfer", from_account_id=source["account_id"], to_account_id=target["account_id"], amount=20.0,
            pin=payer_pin)
    assert balance(bank, target["account_id"]) == round(target["balance"] + 20, 2)


def test_transfer_failures_change_nothing(bank):
    customers = survey(bank)
    c, low = find(customers, kind="checking", where=lambda c, a: a["balance"] < 50 and own(c, "savings"))
    other = own(c, "savings")
    pin = pin_of(bank, c["customer_id"])
    src, dst = low["account_id"], other["account_id"]
    text = bank.fails("transfer", "Insufficient funds", from_account_id=src, to_account_id=dst,
                     amount=round(low["balance"] + 0.01, 2), pin=pin)
    assert f"{low['balance']:.2f}" in text
    bank.fails("transfer", "Incorrect PIN", from_account_id=src, to_account_id=dst, amount=1.0, pin=wrong(pin))
    bank.fails("transfer", "greater than 0", from_account_id=src, to_account_id=dst, amount=0, pin=pin)
    bank.fails("transfer", "greater than 0", from_account_id=src, to_account_id=dst, amount=-5.0, pin=pin)
    bank.fails("transfer", "two decimals", from_account_id=src, to_account_id=dst, amount=1.005, pin=pin)
    bank.fails("transfer", "Invalid arguments", from_account_id=src, to_account_id=dst, amount="1.00", pin=pin)
    bank.fails("transfer", "Invalid arguments", from_account_id=src, to_account_id=dst, amount=1.0)
    bank.fails("transfer", "itself", from_account_id=src, to_account_id=src, amount=1.0, pin=pin)

    frozen_owner, frozen = find(customers, status="frozen")
    bank.fails("transfer", "frozen", from_account_id=frozen["account_id"], to_account_id=src, amount=1.0,
              pin=pin_of(bank, frozen_owner["customer_id"]))

    closed_owner, closed = find(customers, status="closed")
    closed_pin = pin_of(bank, closed_owner["customer_id"])
    live = own(closed_owner, "checking") or own(closed_owner, "savings")
    bank.fails("transfer", "closed", from_account_id=closed["account_id"], to_account_id=live["account_id"],
              amount=1.0, pin=closed_pin)
    bank.fails("transfer", "closed and cannot receive", from_account_id=live["account_id"],
              to_account_id=closed["account_id"], amount=1.0, pin=closed_pin)


def test_deposit(bank):
    customers = survey(bank)
    c, checking = find(customers, kind="checking")
    entry = bank.ok("deposit", account_id=checking["account_id"], amount=120.5, description="Check #1042")
    assert entry["kind"] == "deposit" and entry["amount"] == 120.5 and entry["description"] == "Check #1042"
    assert entry["balance"] == entry["balance_after"] == round(checking["balance"] + 120.5, 2)
    assert bank.ok("deposit", account_id=checking["account_id"], amount=10_000)["description"] == "Cash deposit"
    _, frozen = find(customers, status="frozen")
    assert bank.ok("deposit", account_id=frozen["account_id"], amount=5.0)["balance"] == round(frozen["balance"] + 5, 2)
    _, credit = find(customers, kind="credit")
    bank.fails("deposit", "credit account", account_id=credit["account_id"], amount=5.0)
    _, closed = find(customers, status="closed")
    bank.fails("deposit", "closed", account_id=closed["account_id"], amount=5.0)
    bank.fails("deposit", "branch", account_id=checking["account_id"], amount=10_000.01)
    bank.fails("deposit", "greater than 0", account_id=checking["account_id"], amount=0.0)
    bank.fails("deposit", "two decimals", account_id=checking["account_id"], amount=0.001)
    reconcile(bank)


# -- payees and payments ------------------------------------------------------------------------


def test_add_and_list_payees(bank):
    c = survey(bank)[0]
    pin = pin_of(bank, c["customer_id"])
    before = bank.ok("list_payees", customer_id=c["customer_id"])
    added = bank.ok("add_payee", customer_id=c["customer_id"], name="Greystar Apartments", account_number="7712004518",
                    routing_number="021000021", pin=pin, nickname="Landlord", category="rent")
    assert added["account_number"] == "****4518" and added["bank_name"] == "Chase"
    assert (added["nickname"], added["category"]) == ("Landlord", "rent")
    after = bank.ok("list_payees", customer_id=c["customer_id"])
    assert [p["payee_id"] for p in after] == [p["payee_id"] for p in before] + [added["payee_id"]]
    plain = bank.ok("add_payee", customer_id=c["customer_id"], name="Sam Lee", account_number="1234",
                    routing_number="999999999", pin=pin)
    assert (plain["category"], plain["bank_name"], plain["nickname"]) == ("other", "Other bank", None)

    args = dict(customer_id=c["customer_id"], name="Someone", routing_number="021000021", pin=pin)
    bank.fails("add_payee", "already saved as payee " + added["payee_id"], account_number="7712004518", **args)
    bank.fails("add_payee", "account_number", account_number="12-34-56", **args)
    bank.fails("add_payee", "account_number", account_number="123", **args)
    bank.fails("add_payee", "routing_number", customer_id=c["customer_id"], name="X", account_number="55555555",
              routing_number="12345", pin=pin)
    bank.fails("add_payee", "Incorrect PIN", customer_id=c["customer_id"], name="X", account_number="55555555",
              routing_number="021000021", pin=wrong(pin))
    bank.fails("add_payee", "name must not be empty", customer_id=c["customer_id"], name=" ",
              account_number="55555555", routing_number="021000021", pin=pin)
    bank.fails("add_payee", "Invalid arguments", customer_id=c["customer_id"], name="X", account_number="55555555",
              routing_number="021000021", pin=pin, category="groceries")


def test_remove_payee(bank):
    customers = survey(bank)
    c = next(c for c in customers if c["payees"])
    pin = pin_of(bank, c["customer_id"])
    payee = bank.ok("add_payee", customer_id=c["customer_id"], name="Old Gym", account_number="99887766",
                    routing_number="026009593", pin=pin)
    assert bank.ok("remove_payee", payee_id=payee["payee_id"]) == {"payee_id": payee["payee_id"], "name": "Old Gym",
                                                                    "removed": True}
    assert payee["payee_id"] not in [p["payee_id"] for p in bank.ok("list_payees", customer_id=c["customer_id"])]
    bank.fails("remove_payee", "not found", payee_id=payee["payee_id"])
    bank.fails("pay_payee", "not found", account_id=own(c, "checking")["account_id"],
              payee_id=payee["payee_id"], amount=1.0, pin=pin)
    # Once removed, the same account may be saved again.
    bank.ok("add_payee", customer_id=c["customer_id"], name="Old Gym", account_number="99887766",
            routing_number="026009593", pin=pin)

    scheduled = next(p for x in customers for p in bank.ok("list_scheduled_payments", customer_id=x["customer_id"]))
    bank.fails("remove_payee", "cancel them first", payee_id=scheduled["payee_id"])


def test_pay_payee(bank):
    customers = survey(bank)
    c, checking = find(customers, kind="checking", where=lambda c, a: a["balance"] > 500 and c["payees"])
    payee = c["payees"][0]
    pin = pin_of(bank, c["customer_id"])
    paid = bank.ok("pay_payee", account_id=checking["account_id"], payee_id=payee["payee_id"], amount=84.99, pin=pin,
                   memo="Invoice 2231")
    assert (paid["status"], paid["amount"], paid["payee_name"]) == ("completed", 84.99, payee["name"])
    assert paid["account_balance"] == round(checking["balance"] - 84.99, 2) == balance(bank, checking["account_id"])
    entry = bank.ok("list_transactions", account_id=checking["account_id"], limit=1)[0]
    assert (entry["kind"], entry["amount"], entry["payment_id"]) == ("bill_payment", -84.99, paid["payment_id"])
    assert entry["category"] == payee["category"] and entry["memo"] == "Invoice 2231"
    reconcile(bank)

    args = dict(account_id=checking["account_id"], payee_id=payee["payee_id"])
    bank.fails("pay_payee", "Incorrect PIN", amount=1.0, pin=wrong(pin), **args)
    bank.fails("pay_payee", "Insufficient funds", amount=round(paid["account_balance"] + 1, 2), pin=pin, **args)
    bank.fails("pay_payee", "greater than 0", amount=-1.0, pin=pin, **args)
    stranger = next(x for x in customers if x["payees"] and x["customer_id"] != c["customer_id"])
    bank.fails("pay_payee", "not saved by the owner", account_id=checking["account_id"],
              payee_id=stranger["payees"][0]["payee_id"], amount=1.0, pin=pin)
    debtor, credit = find(customers, kind="credit", where=lambda c, a: c["payees"])
    bank.fails("pay_payee", "credit account", account_id=credit["account_id"],
              payee_id=debtor["payees"][0]["payee_id"], amount=1.0, pin=pin_of(bank, debtor["customer_id"]))
    poor, low = find(customers, kind="checking", where=lambda c, a: a["balance"] < 50 and c["payees"])
    bank.fails("pay_payee", "Insufficient funds", account_id=low["account_id"],
              payee_id=poor["payees"][0]["payee_id"], amount=50.0, pin=pin_of(bank, poor["customer_id"]))
    frozen_owner, frozen = find(customers, status="frozen", where=lambda c, a: c["payees"])
    bank.fails("pay_payee", "frozen", account_id=frozen["account_id"],
              payee_id=frozen_owner["payees"][0]["payee_id"], amount=1.0, pin=pin_of(bank, frozen_owner["customer_id"]))


def test_schedule_and_list_payments(bank):
    customers = survey(bank)
    c, checking = find(customers, kind="checking", where=lambda c, a: c["payees"])
    payee = c["payees"][-1]
    pin = pin_of(bank, c["customer_id"])
    before = bank.ok("list_scheduled_payments", customer_id=c["customer_id"])
    tables = bank.world.snapshot()["tables"]
    date = _days_ahead(bank, 19)
    payment = bank.ok("schedule_payment", account_id=checking["account_id"], payee_id=payee["payee_id"], amount=1450.0,
                      date=date, pin=pin, frequency="monthly", memo="September rent")
    assert (payment["status"], payment["date"], payment["frequency"]) == ("scheduled", date, "monthly")
    assert balance(bank, checking["account_id"]) == checking["balance"]  # nothing moves until the date
    assert len(bank.world.snapshot()["tables"]["transactions"]) == len(tables["transactions"])
    listed = bank.ok("list_scheduled_payments", customer_id=c["customer_id"])
    assert len(listed) == len(before) + 1 and payment in listed
    assert [(p["date"], p["payment_id"]) for p in listed] == sorted((p["date"], p["payment_id"]) for p in listed)
    # Funds are checked on the payment date, so a large amount may be scheduled.
    bank.ok("schedule_payment", account_id=checking["account_id"], payee_id=payee["payee_id"],
            amount=round(checking["balance"] + 1000, 2), date=_days_ahead(bank, 365), pin=pin)

    args = dict(account_id=checking["account_id"], payee_id=payee["payee_id"], amount=10.0, pin=pin)
    bank.fails("schedule_payment", "after today", date=today(bank), **args)
    bank.fails("schedule_payment", "after today", date="2020-01-01", **args)
    bank.fails("schedule_payment", "a year ahead", date=_days_ahead(bank, 366), **args)
    bank.fails("schedule_payment", "ISO 8601", date="next Friday", **args)
    bank.fails("schedule_payment", "Invalid arguments", date=date, frequency="daily", **args)
    bank.fails("schedule_payment", "Incorrect PIN", account_id=checking["account_id"], payee_id=payee["payee_id"],
              amount=10.0, date=date, pin=wrong(pin))
    bank.fails("schedule_payment", "two decimals", account_id=checking["account_id"], payee_id=payee["payee_id"],
              amount=10.001, date=date, pin=pin)
    frozen_owner, frozen = find(customers, status="frozen", where=lambda c, a: c["payees"])
    bank.fails("schedule_payment", "frozen", account_id=frozen["account_id"],
              payee_id=frozen_owner["payees"][0]["payee_id"], amount=10.0, date=date,
              pin=pin_of(bank, frozen_owner["customer_id"]))
    debtor, credit = find(customers, kind="credit", where=lambda c, a: c["payees"])
    bank.fails("schedule_payment", "credit account", account_id=credit["account_id"],
              payee_id=debtor["payees"][0]["payee_id"], amount=10.0, date=date, pin=pin_of(bank, debtor["customer_id"]))


def test_cancel_scheduled_payment(bank):
    customers = survey(bank)
    c = next(x for x in customers if bank.ok("list_scheduled_payments", customer_id=x["customer_id"]))
    payment = bank.ok("list_scheduled_payments", customer_id=c["customer_id"])[0]
    cancelled = bank.ok("cancel_scheduled_payment", payment_id=payment["payment_id"])
    assert cancelled == {**payment, "status": "cancelled"}
    assert payment["payment_id"] not in [p["payment_id"] for p in
                                         bank.ok("list_scheduled_payments", customer_id=c["customer_id"])]
    bank.fails("cancel_scheduled_payment", "is cancelled", payment_id=payment["payment_id"])
    payer, checking = find(customers, kind="checking", where=lambda c, a: a["balance"] > 10 and c["payees"])
    made = bank.ok("pay_payee", account_id=checking["account_id"], payee_id=payer["payees"][0]["payee_id"], amount=5.0,
                   pin=pin_of(bank, payer["customer_id"]))
    bank.fails("cancel_scheduled_payment", "is completed", payment_id=made["payment_id"])


# -- cards --------------------------------------------------------------------------------------


def test_list_cards(bank):
    customers = survey(bank)
    for c in customers[:10]:
        mine = {a["account_id"] for a in c["accounts"]}
        assert all(k["account_id"] in mine for k in c["cards"])
        assert [k["card_id"] for k in c["cards"]] == sorted(k["card_id"] for k in c["cards"])
    c = next(c for c in customers if any(k["status"] == "cancelled" for k in c["cards"]))
    assert all(len(k["last4"]) == 4 and len(k["expires"]) == 7 for k in c["cards"])


def test_freeze_card(bank):
    customers = survey(bank)
    card = next(k for c in customers for k in c["cards"] if k["status"] == "active")
    frozen = bank.ok("freeze_card", card_id=card["card_id"])
    assert frozen == {**card, "status": "frozen", "already_frozen": False}
    cancelled = next(k for c in customers for k in c["cards"] if k["status"] == "cancelled")
    bank.fails("freeze_card", "is cancelled", card_id=cancelled["card_id"])


def test_unfreeze_card(bank):
    customers = survey(bank)
    frozen_accounts = {a["account_id"] for c in customers for a in c["accounts"] if a["status"] == "frozen"}
    owner, card = next((c, k) for c in customers for k in c["cards"]
                       if k["status"] == "frozen" and k["account_id"] not in frozen_accounts)
    pin = pin_of(bank, owner["customer_id"])
    bank.fails("unfreeze_card", "Incorrect PIN", card_id=card["card_id"], pin=wrong(pin))
    unfrozen = bank.ok("unfreeze_card", card_id=card["card_id"], pin=pin)
    assert unfrozen["status"] == "active" and unfrozen["already_active"] is False
    locked_owner, locked = next((c, k) for c in customers for k in c["cards"] if k["account_id"] in frozen_accounts)
    bank.fails("unfreeze_card", "frozen account", card_id=locked["card_id"],
              pin=pin_of(bank, locked_owner["customer_id"]))


def test_freezing_a_frozen_card_again_changes_nothing(bank):
    """freeze_card is idempotent: a repeat succeeds, says the card was already frozen, and writes nothing."""
    card = next(k for c in survey(bank) for k in c["cards"] if k["status"] == "active")
    assert bank.ok("freeze_card", card_id=card["card_id"])["already_frozen"] is False
    digest = bank.world.digest()
    again = bank.ok("freeze_card", card_id=card["card_id"])
    assert again["status"] == "frozen" and again["already_frozen"] is True
    assert bank.world.digest() == digest


def test_unfreezing_an_active_card_again_changes_nothing(bank):
    """unfreeze_card is idempotent: a repeat succeeds, says the card was already active, and writes
    nothing; the PIN is still checked first."""
    owner, card = next((c, k) for c in survey(bank) for k in c["cards"] if k["status"] == "active")
    pin = pin_of(bank, owner["customer_id"])
    bank.fails("unfreeze_card", "Incorrect PIN", card_id=card["card_id"], pin=wrong(pin))
    digest = bank.world.digest()
    again = bank.ok("unfreeze_card", card_id=card["card_id"], pin=pin)
    assert again["status"] == "active" and again["already_active"] is True
    assert bank.world.digest() == digest


def test_a_time_after_the_clock_breaks_the_rules(bank):
    """Nothing that happened (a posting, a transfer, a payment...) may lie after the world's clock."""
    assert not bank.world.violations()
    with bank.world.transaction() as db:
        db.get(Transaction, "TXN-00001").posted_at = bank.world.now + dt.timedelta(minutes=30)
    assert any("TXN-00001: posted_at" in p and "after the clock" in p for p in bank.world.violations())


def test_set_card_limit(bank):
    customers = survey(bank)
    owner, debit = next((c, k) for c in customers for k in c["cards"]
                        if k["kind"] == "debit" and k["status"] == "active")
    pin = pin_of(bank, owner["customer_id"])
    assert bank.ok("set_card_limit", card_id=debit["card_id"], daily_limit=1234.5, pin=pin)["daily_limit"] == 1234.5
    assert bank.ok("set_card_limit", card_id=debit["card_id"], daily_limit=5000, pin=pin)["daily_limit"] == 5000
    assert next(k for k in bank.ok("list_cards", customer_id=owner["customer_id"])
                if k["card_id"] == debit["card_id"])["daily_limit"] == 5000
    bank.fails("set_card_limit", "at most 5,000.00", card_id=debit["card_id"], daily_limit=5000.01, pin=pin)
    bank.fails("set_card_limit", "greater than 0", card_id=debit["card_id"], daily_limit=0.0, pin=pin)
    bank.fails("set_card_limit", "Incorrect PIN", card_id=debit["card_id"], daily_limit=100.0, pin=wrong(pin))

    holder, credit_card = next((c, k) for c in customers for k in c["cards"] if k["kind"] == "credit")
    limit = next(a for a in holder["accounts"] if a["account_id"] == credit_card["account_id"])["credit_limit"]
    holder_pin = pin_of(bank, holder["customer_id"])
    raised = bank.ok("set_card_limit", card_id=credit_card["card_id"], daily_limit=limit, pin=holder_pin)
    assert raised["daily_limit"] == limit
    bank.fails("set_card_limit", "at most", card_id=credit_card["card_id"], daily_limit=limit + 1, pin=holder_pin)

    gone_owner, gone = next((c, k) for c in customers for k in c["cards"] if k["status"] == "cancelled")
    bank.fails("set_card_limit", "cancelled", card_id=gone["card_id"], daily_limit=100.0,
              pin=pin_of(bank, gone_owner["customer_id"]))


# -- reference data -----------------------------------------------------------------------------


def test_get_exchange_rate(bank):
    assert bank.ok("get_exchange_rate", from_currency="USD", to_currency="USD")["rate"] == 1
    usd_eur = bank.ok("get_exchange_rate", from_currency="USD", to_currency="eur")
    assert usd_eur["to_currency"] == "EUR" and 0.8 < usd_eur["rate"] < 1.0
    eur_usd = bank.ok("get_exchange_rate", from_currency="EUR", to_currency="USD")["rate"]
    assert abs(eur_usd * usd_eur["rate"] - 1) < 1e-5
    converted = bank.ok("get_exchange_rate", from_currency="USD", to_currency="JPY", amount=500.0)
    assert converted["converted_amount"] == round(500 * converted["rate"], 2)
    assert converted["as_of"] == today(bank)
    text = bank.fails("get_exchange_rate", "Unsupported currency", from_currency="USD", to_currency="XYZ")
    assert "EUR" in text and "GBP" in text
    bank.fails("get_exchange_rate", "greater than 0", from_currency="USD", to_currency="EUR", amount=-3.0)


# -- invariants ---------------------------------------------------------------------------------


def test_ledger_reconciles_after_a_sequence_of_writes(bank):
    customers = survey(bank)
    reconcile(bank)
    c, checking = find(customers, kind="checking", where=lambda c, a: a["balance"] > 2000 and c["payees"])
    pin = pin_of(bank, c["customer_id"])
    new = bank.ok("open_account", customer_id=c["customer_id"], kind="savings")
    bank.ok("transfer", from_account_id=checking["account_id"], to_account_id=new["account_id"], amount=700.0, pin=pin)
    bank.ok("deposit", account_id=new["account_id"], amount=55.55)
    bank.ok("pay_payee", account_id=new["account_id"], payee_id=c["payees"][0]["payee_id"], amount=100.1, pin=pin)
    bank.fails("pay_payee", "Insufficient funds", account_id=new["account_id"], payee_id=c["payees"][0]["payee_id"],
               amount=10_000.0, pin=pin)
    bank.ok("transfer", from_account_id=new["account_id"], to_account_id=checking["account_id"],
            amount=balance(bank, new["account_id"]), pin=pin)
    assert balance(bank, new["account_id"]) == 0
    bank.ok("close_account", account_id=new["account_id"], pin=pin)
    reconcile(bank)
    # 700 went out and 700 + 55.55 - 100.10 came back.
    assert balance(bank, checking["account_id"]) == round(checking["balance"] - 44.55, 2)
    entries = bank.ok("list_transactions", account_id=new["account_id"], limit=100)
    assert [e["kind"] for e in entries] == ["transfer_out", "bill_payment", "deposit", "transfer_in"]


# -- the hand-written tasks ---------------------------------------------------------------------


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------


def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play):
    from prove_env.task import Task

    balance = Task(id="balance", server="banking", seed=0,
                   user_turns=["Hi, this is Megan Chang. How much is in my checking account?"],
                   gold=[[{"id": "g1", "name": "find_customers", "arguments": {"name": "Megan Chang"}},
                          {"id": "g2", "name": "list_accounts", "arguments": {"customer_id": "CUS-0001"},
                           "depends_on": ["g1"]},
                          {"id": "g3", "name": "get_balance", "arguments": {"account_id": "ACC-0001"},
                           "depends_on": ["g2"]}]],
                   facts=[[11933.74]])
    # another correct path: the account list already carries the balance, found by email
    other = play(balance, [_call("find_customers", email="MEGAN.CHANG77@yahoo.com"),
                           _call("list_accounts", customer_id="CUS-0001"), "You have $11,933.74 in checking."])
    assert other["success"] and other["reward_breakdown"]["coverage"] < 1
    assert not play(balance, [_call("get_balance", account_id="ACC-0001"), "About $12,000."])["success"]
    # the right answer, then damage nobody asked for: a card frozen
    damage = play(balance, [_call("get_balance", account_id="ACC-0001"), _call("freeze_card", card_id="CRD-0001"),
                            "You have $11,933.74."])
    assert not damage["success"] and damage["reward_breakdown"]["coverage"] < 1

    pay = Task(id="pay", server="banking", seed=0,
               user_turns=["This is Keith Davis. Put $50 from my checking toward my credit card. My PIN is 4572."],
               gold=[[{"id": "g1", "name": "find_customers", "arguments": {"name": "Keith Davis"}},
                      {"id": "g2", "name": "list_accounts", "arguments": {"customer_id": "CUS-0003"},
                       "depends_on": ["g1"]},
                      {"id": "g3", "name": "transfer", "depends_on": ["g2"],
                       "arguments": {"from_account_id": "ACC-0004", "to_account_id": "ACC-0005", "amount": 50,
                                     "pin": "4572"}}]])
    # a memo the customer did not ask for is a detail, not damage
    memo = play(pay, [_call("transfer", from_account_id="ACC-0004", to_account_id="ACC-0005", amount=50.0,
                            pin="4572", memo="Card payment"), "Done: $50 paid toward your card."])
    assert memo["success"]
    wrong = play(pay, [_call("transfer", from_account_id="ACC-0004", to_account_id="ACC-0005", amount=55.0,
                             pin="4572"), "Done."])
    assert not wrong["success"]


# -- synthesized requests ---------------------------------------------------------------------------


def _asks(tool: str, *, seeds=(0,), draws: int = 40) -> list[tuple]:
    """Requests the recipe writes for `tool` from the bundles of a few worlds, each with the result
    of its call (after the calls it asks for first, on a copy of the world) and the customer's
    listing of accounts and search result before them."""
    import json
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("banking"), get_recipe("banking")
    found = []
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"banking asks {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == tool):
            for _ in range(draws):
                b = rng.choice(bundles)
                ask = goal.build(b, rng)
                if ask is None:
                    continue
                before = {"list_accounts": read("list_accounts", customer_id=b["customer"]["customer_id"]),
                          "find_customers": read("find_customers", name=b["customer"]["name"])}
                trial = world.clone()
                tools = toolkit(trial)
                for name, args in ask.prior:
                    tools.run(name, dict(args))
                found.append((ask, json.loads(tools.run(tool, dict(ask.args))), before))
                trial.close()
        world.close()
    return found


def _shown(fact, result) -> bool:
    """Whether a result's JSON holds the fact as written."""
    import json

    text = json.dumps(result)
    return (json.dumps(fact) if isinstance(fact, str) else str(fact)) in text


def test_a_balance_is_asked_of_its_own_tool_only_after_money_moved_into_the_account():
    """The listing of accounts shows every balance: a balance asked of `get_balance` is the one after
    a transfer the same request makes into that account, which the listing (read before it) does
    not show; a question the listing answers is asked of the listing itself."""
    asks = _asks("get_balance")
    assert len(asks) > 10
    for ask, result, before in asks:
        assert [name for name, _ in ask.prior] == ["transfer"], ask.say
        assert ask.prior[0][1]["to_account_id"] == ask.args["account_id"], ask.say
        assert not all(_shown(f, before["list_accounts"]) for f in ask.facts(result)), ask.say
    for ask, result, before in _asks("list_accounts"):
        assert ask.facts(result) and all(_shown(f, result) for f in ask.facts(result)), ask.say


def test_account_and_profile_questions_ask_what_the_listing_and_the_search_do_not_show():
    """`get_account` and `get_customer` are asked only for what `list_accounts` and `find_customers`
    (the look-ups that come before them) do not show: a look-up that already answers makes the call
    after it one an agent rightly skips."""
    for tool, listing in (("get_account", "list_accounts"), ("get_customer", "find_customers")):
        asks = _asks(tool)
        assert len(asks) > 20
        for ask, result, before in asks:
            assert not all(_shown(f, before[listing]) for f in ask.facts(result)), (tool, ask.say)


def test_an_account_being_closed_is_not_asked_about_as_if_it_stayed_open():
    """The account a request of the conversation closes is asked about by no other request: 'When did I
    open my savings?' right after closing it reads oddly."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("banking"), get_recipe("banking")
    world = worlds.create(toolkit, 0)
    rng = random.Random("banking closing")
    bundles = [b for b in recipe.sample(Reader(toolkit, world), world.now, rng) if b["closing"]]
    world.close()
    assert bundles
    goal = next(g for g in recipe.goals if g.tool == "get_account")
    for _ in range(200):
        b = rng.choice(bundles)
        ask = goal.build(b, rng)
        assert ask is None or ask.args["account_id"] != b["closing"], ask.say


def test_spending_by_category_records_the_categories_not_a_total_unasked():
    """'Where did my money go in August? Give me the main categories.' is answered by the categories:
    the total is recorded only where the words ask for it."""
    breakdowns = [(ask, result) for ask, result, _ in _asks("get_spending_summary", draws=80)
                  if "categor" in ask.say + ask.terse and "total" not in f"{ask.say} {ask.detail or ''} {ask.terse}"]
    assert breakdowns
    for ask, result in breakdowns:
        if result["spending_by_category"]:
            assert result["total_spending"] not in ask.facts(result) or \
                result["total_spending"] in result["spending_by_category"].values(), ask.say


def test_a_category_that_came_up_once_or_twice_is_counted_in_words_too():
    """"How often does the utilities category come up on my transactions?" with a count of 1: "it came up
    once" is the count said as people say it, and states the fact; the request asks for an exact count
    without 'roughly'."""
    from prove_env.facts import facts_stated

    asks = [(ask, result) for ask, result, _ in _asks("list_transaction_categories", draws=120) if ask.mentions]
    assert len(asks) > 10
    for ask, _ in asks:
        category = ask.mentions[0]
        assert "roughly" not in f"{ask.say} {ask.terse}".lower(), ask.say
        for count, words in ((1, "once"), (2, "twice"), (3, "3 times")):
            facts = ask.facts([{"category": f"not {category}", "count": 5}, {"category": category, "count": count}])
            assert facts_stated([facts], [f"The {category} category came up {words} in your transactions."]), \
                (ask.say, count, facts)
            assert not facts_stated([facts], [f"The {category} category came up 4 times in your transactions."])


def test_a_pin_given_in_an_earlier_turn_is_not_given_again():
    """'...; my PIN is 3069.' then 'thx. PIN 3069. Move $25 from my savings to checking.': a terse
    request leaves out the PIN the conversation already gave, as the other registers do."""
    import re

    from prove_env.synthesis.pipeline import synthesize

    result = synthesize(["banking"], 120, seed=65, workers=1)
    pin = re.compile(r"\bPIN(?::| is|'s)? \(?(\d{4})\b")
    checked = 0
    for task in result.tasks("train") + result.tasks("test"):
        for i, turn in enumerate(task.user_turns[1:], start=1):
            given = {m for t in task.user_turns[:i] for m in pin.findall(t)}
            again = given & set(pin.findall(turn))
            checked += bool(given)
            assert not again, (task.id, task.user_turns[:i + 1])
    assert checked, "no conversation gave a PIN before a later turn"


def test_a_spending_period_given_with_its_request_is_not_said_as_a_correction():
    """"Could you break down my spending by category for me? I mean between September 10 and
    September 23, 2026.": at the complete level the period follows its request in the same message,
    where "I mean" reads as the user correcting themselves; and "I'm asking about my spending for
    August 2026." answers "which period?" of a question about income and spending. The period's
    sentence names the period alone, and the request does not gloss itself with "I mean"."""
    asks = [ask for ask, _, _ in _asks("get_spending_summary", seeds=(0, 1), draws=150) if ask.detail]
    assert len(asks) > 20
    details = set()
    for ask in asks:
        assert "i mean" not in f"{ask.say} {ask.detail}".lower(), (ask.say, ask.detail)
        assert "spending" not in ask.detail.lower(), ask.detail
        assert any(m in ask.detail for m in ask.mentions), (ask.detail, ask.mentions)
        details.add(ask.detail.split(" ")[0])
    assert len(details) >= 3, details


def test_a_payee_in_the_category_other_is_not_said_to_be_in_the_other_category():
    """"Could you set up a new payee in the other category for me: Lakeside Dental, ..." reads as a
    category said before; the category named `other` is said as a name."""
    asks = [ask for ask, _, _ in _asks("add_payee", seeds=(0, 1), draws=120) if ask.args["category"] == "other"]
    assert len(asks) > 10
    for ask in asks:
        for text in (ask.say, ask.terse or ask.say):
            assert "the other category" not in text, text
            assert '"other"' in text, text


def test_a_spending_summary_is_never_missing_while_the_ledger_that_adds_up_to_it_is_shown():
    """"Where did my money go in June, category by category?" with get_spending_summary hidden and
    list_transactions shown: the ledger of each account over the period, with every entry's category
    and signed amount, adds up to the same totals, so the assistant could answer; the ledger also
    holds every entry a search finds. The ledger's tools are declared substitutes, and a
    missing-function task hides all of them or none."""
    import json

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import get_recipe
    from prove_env.world import worlds
    from servers.banking.tools import INCOME_KINDS, SPENDING_KINDS

    toolkit = get_toolkit("banking")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    checked = 0
    for ask, result, before in _asks("get_spending_summary", draws=30):
        by_category, income = defaultdict(float), 0.0
        for account in before["list_accounts"]:
            for entry in json.loads(tools.run("list_transactions", {
                    "account_id": account["account_id"], "start_date": result["start_date"],
                    "end_date": result["end_date"], "limit": 100})):
                if entry["kind"] in SPENDING_KINDS:
                    by_category[entry["category"]] -= entry["amount"]
                elif entry["kind"] in INCOME_KINDS:
                    income += entry["amount"]
        assert {c: round(v, 2) for c, v in by_category.items()} == result["spending_by_category"], ask.say
        assert round(income, 2) == result["total_income"], ask.say
        checked += 1
    searched = 0
    for ask, result, before in _asks("search_transactions", draws=30):
        ledger = [entry for account in before["list_accounts"] for entry in json.loads(tools.run(
            "list_transactions", {"account_id": account["account_id"], "limit": 100}))]
        assert all(entry in ledger for entry in result), ask.say
        searched += bool(result)
    world.close()
    assert checked > 10 and searched > 10
    ledger_tools = {"list_transactions", "search_transactions", "list_transaction_categories"}
    assert ledger_tools <= get_recipe("banking").substitutes_of("get_spending_summary")


def test_a_mastercard_is_not_called_a_mastercard_card():
    """"Could you reactivate my Mastercard card that ends in 5736?" says card twice; a Visa card
    keeps its word."""
    said = [text for tool in ("freeze_card", "unfreeze_card", "set_card_limit")
            for ask, _, _ in _asks(tool, seeds=(0, 1), draws=60) for text in (ask.say, ask.terse or ask.say)]
    assert any("my Mastercard that ends in" in text for text in said)
    assert any("my Visa card that ends in" in text for text in said)
    assert not [text for text in said if "Mastercard card" in text]


def test_a_zero_total_is_stated_by_saying_nothing_came_in_or_went_out():
    """"How much came in and how much went out?" over a month with no income: "nothing came in, and
    $1,644.89 went out" states both totals, as "$0.00 came in" does; a zero total is recorded as the
    fact of nothing, a total above zero as its amount."""
    from prove_env.facts import facts_stated

    zero = 0
    for ask, result, _ in _asks("get_spending_summary", draws=80):
        facts = ask.facts(result)
        if not any(w in f"{ask.say} {ask.terse}".lower() for w in ("came in", "income")):
            continue
        income, spent = result["total_income"], result["total_spending"]
        words = (("Nothing came in" if income == 0 else f"${income:,.2f} came in") + ", and "
                 + ("nothing went out." if spent == 0 else f"${spent:,.2f} went out."))
        assert facts_stated([facts], [words]), (ask.say, facts, words)
        if income != 0:
            assert not facts_stated([facts], ["Nothing came in, and nothing went out."]), ask.say
        zero += income == 0
    assert zero > 0


def test_the_most_common_categories_are_those_asked_and_no_tie_is_cut():
    """'Which categories show up on my transactions most often?' over income 4, dining 3 and seven
    categories at 2: income and dining, not a third picked by its name out of the seven tied; and no
    wording asks for spending categories while the facts count income among them."""
    from prove_env.facts import facts_stated

    counts = [{"category": "income", "count": 4}, {"category": "dining", "count": 3},
              *({"category": c, "count": 2} for c in ("entertainment", "groceries", "health", "other", "rent",
                                                      "transfer", "travel"))]
    asks = [ask for ask, _, _ in _asks("list_transaction_categories", draws=120) if not ask.mentions]
    assert len(asks) > 10
    for ask in asks:
        assert "spending" not in f"{ask.say} {ask.terse}".lower(), ask.say
        facts = ask.facts(counts)
        assert facts == ["income", "dining"], facts
        assert facts_stated([facts], ["Income comes up most (4), then dining (3); seven others tie at 2 each."])
        assert ask.facts(counts[:3] + [{"category": "zoo", "count": 1}]) == ["income", "dining", "entertainment"]


def test_an_account_of_a_kind_the_customer_may_open_is_named_by_its_last_digits():
    """'Would it be possible to open an extra checking account in my name?' then 'I want to deposit
    $500 into my checking account.': after the opening the customer has two checking accounts, and the
    deposit into the new one is as right as the gold's. Whatever kind a customer's conversation may
    open, every other request names an account of that kind by its last digits; and an account of a
    kind the customer has none of is asked for as their first, not as 'another'."""
    import random
    import re

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("banking"), get_recipe("banking")
    world = worlds.create(toolkit, 0)
    rng = random.Random("banking opens")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    opens_goal = next(g for g in recipe.goals if g.tool == "open_account")
    others = [g for g in recipe.goals if g.tool != "open_account"]
    checked = firsts = 0
    for b in bundles:
        kinds = {}
        for _ in range(12):
            ask = opens_goal.build(b, rng)
            if ask is not None:
                kinds[ask.args["kind"]] = ask
        for kind, ask in kinds.items():
            if not any(a["kind"] == kind for a in b["accounts"]):
                firsts += 1
                assert not re.search(r"\b(another|second|extra|separate)\b", f"{ask.say} {ask.terse}"), ask.say
        accounts = {a["account_id"]: a for a in b["accounts"]}
        for goal in others:
            for _ in range(6):
                ask = goal.build(b, rng)
                if ask is None:
                    continue
                for key in ("account_id", "from_account_id", "to_account_id"):
                    account = accounts.get(ask.args.get(key))
                    if account is None or account["kind"] not in kinds:
                        continue
                    checked += 1
                    words = " ".join(t for t in (ask.say, ask.detail, ask.terse) if t)
                    assert account["account_number"][-4:] in words, (goal.tool, kind, words)
    assert checked > 20 and firsts > 0, (checked, firsts)


def _email_introductions() -> set[tuple[str, str]]:
    """Every (complete, terse) introduction by e-mail of the customers of worlds 0 to 2."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, Ref, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("banking"), get_recipe("banking")
    by_email = [lookup for lookup in recipe.lookups if lookup.kind == "customer"
                and "email" in lookup.args(Ref.of("customer", {"customer_id": "C", "name": "N", "email": "e",
                                                                "phone": "p", "phone_unique": True}))]
    assert len(by_email) == 1
    said = set()
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        bundles = recipe.sample(Reader(toolkit, world), world.now, random.Random(seed))
        world.close()
        said |= {by_email[0].intro(Ref.of("customer", b["customer"])) for b in bundles}
    return said


def test_a_customer_who_gives_an_email_calls_it_an_email():
    """"My profile uses the address zachary.rose90@proton.me." reads first as the postal address a
    bank holds too: no introduction by e-mail, in either register, calls it an address without saying
    email."""
    import re

    said = {text for pair in _email_introductions() for text in pair}
    assert len(said) > 20, len(said)
    for text in said:
        assert not re.search(r"(?<!email )\baddress\b", text, re.I), text


def test_an_account_is_named_in_full_once_per_request():
    """'Move $10 from the checking account ending in 6561 to my savings, and tell me what's left in the
    checking account ending in 6561 afterwards' names one account twice in full: the second time it is
    'the checking account', unless the other account of the request is of the same kind."""
    import re

    asks = [ask for tool in ("transfer", "get_balance") for ask, *_ in _asks(tool, seeds=(0, 1, 2), draws=120)]
    asks = [ask for ask in asks if ask.facts is not None]
    assert len(asks) > 20
    shortened = 0
    for ask in asks:
        for words in (ask.say, ask.terse):
            named = re.findall(r"ending(?: in)? (\d{4})", words)
            assert len(named) == len(set(named)), words
        shortened += "the checking account" in ask.say or "the savings account" in ask.say
    assert shortened


def test_a_customer_who_gives_a_phone_number_calls_it_a_phone():
    """"Hi there, my number with you is (263) 372-0459." reads first as an account number at a bank:
    no introduction by phone, in either register, says "number" without "phone" before it."""
    import random
    import re

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, Ref, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("banking"), get_recipe("banking")
    by_phone = [lookup for lookup in recipe.lookups if lookup.kind == "customer"
                and "phone" in lookup.args(Ref.of("customer", {"customer_id": "C", "name": "N", "email": "e",
                                                                "phone": "p", "phone_unique": True}))]
    assert len(by_phone) == 1
    said = set()
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        bundles = recipe.sample(Reader(toolkit, world), world.now, random.Random(seed))
        world.close()
        for b in bundles:
            customer = {**b["customer"], "phone_unique": True}
            for text in by_phone[0].intro(Ref.of("customer", customer)):
                said.add(text)
                assert not re.search(r"(?<!phone )\bnumber\b", text, re.I), text
    assert len(said) > 10, len(said)


def test_a_cash_deposit_says_in_cash():
    """"I've got cash: $1,500 to pay into my checking account." reads as a slip: cash is said after
    the amount ("$1,500 in cash"), and no deposit request puts a colon after a word before the amount."""
    import re

    asks = [ask for ask, *_ in _asks("deposit", seeds=(0, 1, 2), draws=120)]
    assert len(asks) > 100
    in_cash = 0
    for ask in asks:
        assert not re.search(r"\w: \$", ask.say), ask.say
        in_cash += " in cash " in ask.say
    assert in_cash > 0


def test_the_big_entries_asked_for_are_never_the_balance_brought_forward():
    """"Show me the big ones on my savings account: anything of at least $1,000." answered only by the
    "Balance brought forward" line reads the opening balance as a transaction (and "no transactions of
    $1,000 or more" would fail): no request by size has that line among the entries it finds."""
    asks = [(ask, result) for ask, result, _ in _asks("list_transactions", seeds=(0, 1, 2, 3), draws=150)
            if "min_amount" in ask.args]
    assert len(asks) > 5
    for ask, result in asks:
        assert result, ask.say
        assert all(entry["kind"] != "balance_forward" for entry in result), (ask.say, result)


def test_a_terse_question_about_payments_keeps_its_verb():
    """"What I paid Con Edison lately?" drops the "did" of a question: no terse request of a search
    by description opens "What I"."""
    import re

    asks = [ask for ask, *_ in _asks("search_transactions", seeds=(0, 1, 2), draws=150)]
    assert len(asks) > 100
    billers = 0
    for ask in asks:
        assert not re.match(r"What I\b", ask.terse or ""), ask.terse
        billers += "lately" in (ask.terse or "")
    assert billers


def test_no_profile_question_asks_back_how_the_customer_was_found():
    """"My phone number: (451) 146-5103. ... My address and phone on file?" asks the bank for the number
    the customer has just given to be found (and the fact drops it): a request for the profile never
    asks for the phone number or the email on file, which introduce the customer."""
    import re

    asks = [ask for ask, *_ in _asks("get_customer", seeds=(0, 1, 2), draws=120)]
    assert len(asks) > 100
    for ask in asks:
        for words in (ask.say, ask.terse or ""):
            assert not re.search(r"\b(phone|e-?mail)\b", words, re.I), words


def test_a_terse_introduction_by_email_does_not_read_as_an_order():
    """"Email kimberly.johnson61@gmail.com. Daily limit $4,000 on my Visa ..." reads first as an order to
    send an email: a terse introduction by email puts a colon or other words between "Email" and the
    address."""
    import re

    said = {terse for _, terse in _email_introductions()}
    assert len(said) > 20, len(said)
    for text in said:
        assert not re.match(r"Email \S+@", text), text


def test_a_count_of_the_category_other_says_other_as_a_name():
    """"How many of my transactions are filed under other?" and "Count of other transactions?" read as
    the rest of the transactions, or some category said before: a count of the category named `other`
    says it as a name, in quotes, as a payee filed under "other" is."""
    import re

    asks = [ask for ask, _, _ in _asks("list_transaction_categories", seeds=(0, 1, 2), draws=200)
            if ask.mentions == ("other",)]
    assert len(asks) > 5
    for ask in asks:
        for text in (ask.say, ask.terse or ask.say):
            assert '"other"' in text, text
            assert not re.search(r"\b(under|the|of) other\b", text), text


def _card_asks_by_customer(seeds=(0, 1, 2, 3), draws: int = 30) -> dict[str, dict[str, set]]:
    """For each customer of a few worlds, the cards that the requests to freeze a card and to set a
    card's limit name, over many draws."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("banking"), get_recipe("banking")
    named: dict[str, dict[str, set]] = {}
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        bundles = recipe.sample(Reader(toolkit, world), world.now, random.Random(f"banking cards {seed}"))
        world.close()
        rng = random.Random(f"banking card asks {seed}")
        for b in bundles:
            for goal in (g for g in recipe.goals if g.tool in ("freeze_card", "set_card_limit")):
                for _ in range(draws):
                    ask = goal.build(b, rng)
                    if ask is not None:
                        key = f"{seed} {b['customer']['customer_id']}"
                        named.setdefault(key, {}).setdefault(goal.tool, set()).add(ask.args["card_id"])
    return named


def test_a_card_reported_missing_is_never_one_whose_limit_is_changed():
    """"I've got a big purchase coming. Raise the daily limit on my Mastercard that ends in 9361 to
    $4,000" and two turns later "Could you lock the debit card ending in 9361? It's gone missing."
    tell two stories of one card: a customer reports one card missing at most, never one whose limit
    any request changes, while both requests are still drawn."""
    named = _card_asks_by_customer()
    both = 0
    for key, tools in named.items():
        frozen, limited = tools.get("freeze_card", set()), tools.get("set_card_limit", set())
        assert len(frozen) <= 1, (key, frozen)
        assert not frozen & limited, (key, frozen, limited)
        both += bool(frozen) and bool(limited)
    assert sum("freeze_card" in tools for tools in named.values()) > 10
    assert sum("set_card_limit" in tools for tools in named.values()) > 10
    assert both > 3


def test_only_a_person_is_paid_weekly():
    """"Schedule $150 to Oakwood Property Management on Wednesday, January 28, 2026, then every week
    after that" pays rent weekly: a scheduled payment repeats weekly only to a payee filed as a person
    (or "other"), never to rent, a utility, an insurer or a phone company."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader
    from prove_env.world import worlds

    toolkit, weekly = get_toolkit("banking"), 0
    for seed in (0, 1, 2):
        asks = _asks("schedule_payment", seeds=(seed,), draws=200)
        assert len(asks) > 50
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        for ask, _, before in asks:
            if ask.args.get("frequency") != "weekly":
                continue
            weekly += 1
            payees = read("list_payees", customer_id=before["find_customers"][0]["customer_id"])
            category = next(p["category"] for p in payees if p["payee_id"] == ask.args["payee_id"])
            assert category in ("personal", "other"), (category, ask.say)
        world.close()
    assert weekly > 3


def test_income_and_spending_asked_after_an_account_names_all_accounts():
    """"What went in and out of my checking account ...?" then "How much came in and how much went out?
    I'd like both totals." reads as the same checking account (its transactions, coverage 0.8), while the
    gold adds up every account's: a spending summary asked as money coming in and going out says it is
    across all the customer's accounts."""
    import re

    asks = [ask for ask, *_ in _asks("get_spending_summary", seeds=(0, 1, 2), draws=200)]
    assert len(asks) > 100
    said = 0
    for ask in asks:
        if re.search(r"came in|went out", ask.say):
            said += 1
            assert "all my accounts" in ask.say, ask.say
    assert said > 3


def test_a_new_payee_of_a_kind_already_held_is_said_to_be_new():
    """"I need to start paying my landlord. Can you save Oakwood Property Mgmt as a rent payee? ... And
    then can you pay Greystar Apartments $5 today" tells two stories of one landlord: a customer who
    already has a payee of the new payee's kind speaks of "my new landlord" (a "new" one), while a
    customer without one still says "my landlord"."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    from servers.banking.synth import NEW_PAYEES

    toolkit, recipe = get_toolkit("banking"), get_recipe("banking")
    goal = next(g for g in recipe.goals if g.tool == "add_payee")
    held = fresh = 0
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        bundles = recipe.sample(Reader(toolkit, world), world.now, random.Random(f"banking new payees {seed}"))
        world.close()
        rng = random.Random(f"banking new payee asks {seed}")
        for b in bundles:
            for _ in range(20):
                ask = goal.build(b, rng)
                if ask is None:
                    continue
                name, category, who = next(p for p in NEW_PAYEES if p[0] == ask.args["name"])
                words = who.split(" ", 1)[1]
                if category != "other" and any(p["category"] == category for p in b["payees"]):
                    held += f"new {words}" in ask.say
                    assert f" {who}" not in ask.say, ask.say
                else:
                    fresh += f" {who}" in ask.say
    assert held > 3 and fresh > 3, (held, fresh)


def _asks_of(tool: str, label: str, per_bundle: int = 30):
    """(bundle, ask) for `per_bundle` requests of `tool` on each bundle of banking's worlds 0 to 2."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("banking"), get_recipe("banking")
    goal = next(g for g in recipe.goals if g.tool == tool)
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        bundles = recipe.sample(Reader(toolkit, world), world.now, random.Random(f"banking {label} {seed}"))
        world.close()
        rng = random.Random(f"banking {label} asks {seed}")
        for b in bundles:
            for _ in range(per_bundle):
                ask = goal.build(b, rng)
                if ask is not None:
                    yield b, ask


def test_a_category_spend_is_asked_without_a_dangling_it():
    """"I think I overdid it on groceries. What did I spend on it between March 3 and March 16?" reads
    "it" as the overdoing: the period goes with the category ("I think I overdid it on groceries between
    March 3 and March 16, 2026. How much did I spend?") and no "spend on it" is left."""
    overdid = 0
    for _, ask in _asks_of("get_spending_summary", "overdid"):
        assert "spend on it" not in ask.say, ask.say
        overdid += "overdid it" in ask.say
    assert overdid > 3, overdid


def test_a_person_payee_is_not_removed_as_a_switched_provider():
    """"I switched providers, so Daniel Johnson can go from my saved payees." gives a person the reason
    of a company: a personal payee is removed for no longer being paid, and only a company payee (a
    phone, insurance or utility provider) is left because the customer switched providers."""
    switched = 0
    for b, ask in _asks_of("remove_payee", "removals"):
        if "switched providers" not in ask.say:
            continue
        payee = next(p for p in b["payees"] if p["payee_id"] == ask.args["payee_id"])
        assert payee["category"] != "personal", ask.say
        switched += 1
    assert switched > 3, switched
