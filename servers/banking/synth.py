"""How tasks are written for the bank: customers who introduce themselves by name or email, and
refer to their accounts, payees, cards and payments the way a person does ("my savings account",
"the GEICO payment on September 20", "the Visa card ending in 7820")."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import day, money, month

from .seed import BANKS, CURRENCIES

Bundle = dict[str, Any]

NEW_PAYEES = (("Greystar Apartments", "rent", "my landlord"), ("City Water Utility", "utilities", "the water company"),
              ("Comcast Xfinity", "utilities", "my internet provider"), ("State Farm", "insurance", "my insurer"),
              ("Bright Horizons", "other", "the daycare"), ("Lakeside Dental", "other", "my dentist"),
              ("Sunrun Solar", "utilities", "the solar company"), ("Oakwood Property Mgmt", "rent", "my landlord"))


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every customer whose name finds only them, with their accounts, payees, cards, payments,
    recent transactions and PIN; customers without an open account are left out."""
    found: dict[str, dict] = {}
    for letter in "aeiouy":
        for customer in read("find_customers", name=letter, limit=100):
            found.setdefault(customer["customer_id"], customer)
    bundles = []
    for cid in sorted(found):
        customer = found[cid]
        if len(read("find_customers", name=customer["name"])) != 1:
            continue  # the name alone would not say who is asking
        accounts = [a for a in read("list_accounts", customer_id=cid) if a["status"] == "open"]
        if not accounts:
            continue
        customer = {**customer, "pin": read("get_customer_pin", customer_id=cid)["pin"]}
        transactions = []
        for account in accounts:
            transactions += read("list_transactions", account_id=account["account_id"], limit=20)
        bundles.append({
            "now": now,
            "customer": customer,
            "accounts": accounts,
            "payees": read("list_payees", customer_id=cid),
            "cards": read("list_cards", customer_id=cid),
            "payments": [p for p in read("list_scheduled_payments", customer_id=cid) if p["status"] == "scheduled"],
            "transactions": transactions,
        })
    return bundles


# -- how people name things ------------------------------------------------------------------------

def _customer(b: Bundle) -> Ref:
    return Ref.of("customer", b["customer"])


def _owned(kind: str):
    return lambda b, entity: Ref.of(kind, entity, _customer(b))


_account, _payee, _card, _payment = (_owned(kind) for kind in ("account", "payee", "card", "payment"))


def account_name(b: Bundle, account: dict) -> str:
    """'my savings account' when the kind is unique among the customer's accounts, else by its last digits."""
    same = [a for a in b["accounts"] if a["kind"] == account["kind"]]
    if len(same) == 1:
        return f"my {account['kind']} account"
    return f"my {account['kind']} account ending in {account['account_number'][-4:]}"


def pin_detail(b: Bundle) -> str:
    return f"My PIN is {b['customer']['pin']}."


def _round_amount(rng: random.Random, high: float) -> float | None:
    steps = [s for s in (5, 10, 20, 25, 50, 100, 150, 200, 250, 300, 400, 500, 750, 1000) if s <= high]
    return float(rng.choice(steps)) if steps else None


# -- goals ------------------------------------------------------------------------------------------

goals = Goals()


@goals.add("get_balance", 1.5)
def get_balance(b: Bundle, rng: random.Random) -> Ask | None:
    account = rng.choice(b["accounts"])
    name = account_name(b, account)
    return Ask({"account_id": account["account_id"]},
               say=rng.choice([f"How much money do I have in {name}?", f"What's the current balance of {name}?"]),
               terse=f"Balance of {name}?", refs=(_customer(b), _account(b, account)))


@goals.add("list_accounts", 0.5)
def list_accounts(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({"customer_id": b["customer"]["customer_id"]},
               say=rng.choice(["Which accounts do I have with you, and what are their balances?",
                               "Can you list all my open accounts?"]),
               terse="List my accounts.", refs=(_customer(b),))


@goals.add("get_customer", 0.5)
def get_customer(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({"customer_id": b["customer"]["customer_id"]},
               say=rng.choice(["What address and phone number do you have on file for me?",
                               "Can you check which contact details you have for me?"]),
               terse="My contact details on file?", refs=(_customer(b),))


@goals.add("list_transactions")
def list_transactions(b: Bundle, rng: random.Random) -> Ask | None:
    account = rng.choice(b["accounts"])
    end = b["now"].date() - dt.timedelta(days=rng.randint(0, 10))
    start = end - dt.timedelta(days=rng.choice([6, 13, 20, 29]))
    name = account_name(b, account)
    args = {"account_id": account["account_id"], "start_date": start.isoformat(), "end_date": end.isoformat()}
    return Ask(args, say=f"Show me the transactions on {name} from {day(start)} to {day(end)}, {end.year}.",
               terse=f"Transactions on {name}, {day(start)} to {day(end)}, {end.year}?",
               refs=(_customer(b), _account(b, account)), mentions=(day(start), day(end)))


@goals.add("get_spending_summary")
def get_spending_summary(b: Bundle, rng: random.Random) -> Ask | None:
    now = b["now"].date()
    first_this = now.replace(day=1)
    last_prev = first_this - dt.timedelta(days=1)
    start, end = last_prev.replace(day=1), last_prev
    month_name = month(start)
    args = {"customer_id": b["customer"]["customer_id"], "start_date": start.isoformat(), "end_date": end.isoformat()}
    if rng.random() < 0.5:
        return Ask(args, say="Could you break down my spending by category for me?",
                   terse=f"Spending by category for {month_name}?", detail=f"For {month_name}, please.",
                   refs=(_customer(b),), mentions=(month_name,))
    return Ask(args, say=f"How much did I spend in {month_name}, by category?", terse=f"Spending in {month_name}?",
               refs=(_customer(b),), mentions=(month_name,))


@goals.add("search_transactions")
def search_transactions(b: Bundle, rng: random.Random) -> Ask | None:
    merchants = sorted({t["description"] for t in b["transactions"] if t["kind"] == "card_purchase"})
    if not merchants:
        return None
    merchant = rng.choice(merchants)
    return Ask({"customer_id": b["customer"]["customer_id"], "query": merchant},
               say=f"Find my purchases at {merchant}.", terse=f"Purchases at {merchant}?",
               refs=(_customer(b),), mentions=(merchant,))


@goals.add("transfer", 2.0)
def transfer(b: Bundle, rng: random.Random) -> Ask | None:
    sources = [a for a in b["accounts"] if a["kind"] in ("checking", "savings") and a["balance"] >= 10]
    if not sources:
        return None
    source = rng.choice(sources)
    targets = [a for a in b["accounts"] if a["account_id"] != source["account_id"] and a["kind"] != "credit"]
    if not targets:
        return None
    target = rng.choice(targets)
    amount = _round_amount(rng, source["balance"] / 2)
    if amount is None:
        return None
    src, dst = account_name(b, source), account_name(b, target)
    args = {"from_account_id": source["account_id"], "to_account_id": target["account_id"], "amount": amount,
            "pin": b["customer"]["pin"]}
    return Ask(args, say=rng.choice([f"Please move {money(amount)} from {src} to {dst}.",
                                     f"I'd like to transfer {money(amount)} from {src} into {dst}."]),
               terse=f"Transfer {money(amount)} from {src} to {dst}. PIN {b['customer']['pin']}.",
               detail=pin_detail(b), refs=(_customer(b), _account(b, source), _account(b, target)),
               mentions=(money(amount), b["customer"]["pin"]))


@goals.add("deposit")
def deposit(b: Bundle, rng: random.Random) -> Ask | None:
    account = rng.choice([a for a in b["accounts"] if a["kind"] != "credit"] or [None])
    if account is None:
        return None
    amount = float(rng.choice([50, 100, 120, 200, 250, 300, 500, 800, 1000, 1500]))
    name = account_name(b, account)
    return Ask({"account_id": account["account_id"], "amount": amount},
               say=rng.choice([f"I want to deposit {money(amount)} into {name}.",
                               f"Please put a {money(amount)} deposit into {name}."]),
               terse=f"Deposit {money(amount)} to {name}.", refs=(_customer(b), _account(b, account)),
               mentions=(money(amount),))


def _paying(b: Bundle) -> list[dict]:
    return [a for a in b["accounts"] if a["kind"] in ("checking", "savings") and a["balance"] >= 20]


@goals.add("pay_payee", 1.5)
def pay_payee(b: Bundle, rng: random.Random) -> Ask | None:
    accounts, payees = _paying(b), b["payees"]
    if not accounts or not payees:
        return None
    account, payee = rng.choice(accounts), rng.choice(payees)
    amount = _round_amount(rng, min(account["balance"] / 2, 1000))
    if amount is None:
        return None
    name = account_name(b, account)
    args = {"account_id": account["account_id"], "payee_id": payee["payee_id"], "amount": amount,
            "pin": b["customer"]["pin"]}
    return Ask(args, say=f"Please pay {money(amount)} to {payee['name']} from {name} today.",
               terse=f"Pay {payee['name']} {money(amount)} from {name}. PIN {b['customer']['pin']}.",
               detail=pin_detail(b), refs=(_customer(b), _account(b, account), _payee(b, payee)),
               mentions=(money(amount), payee["name"], b["customer"]["pin"]))


@goals.add("schedule_payment")
def schedule_payment(b: Bundle, rng: random.Random) -> Ask | None:
    accounts, payees = _paying(b), b["payees"]
    if not accounts or not payees:
        return None
    account, payee = rng.choice(accounts), rng.choice(payees)
    amount = float(rng.choice([40, 60, 75, 90, 120, 150, 200, 350, 600, 1200]))
    when = b["now"].date() + dt.timedelta(days=rng.randint(3, 45))
    frequency = rng.choice(["once", "once", "monthly"])
    name = account_name(b, account)
    args = {"account_id": account["account_id"], "payee_id": payee["payee_id"], "amount": amount,
            "date": when.isoformat(), "pin": b["customer"]["pin"]}
    repeat = ""
    if frequency == "monthly":
        args["frequency"] = "monthly"
        repeat = ", repeating every month"
    return Ask(args, say=f"Schedule a payment of {money(amount)} to {payee['name']} from {name} on "
                         f"{day(when)}, {when.year}{repeat}.",
               terse=f"Schedule {money(amount)} to {payee['name']} on {day(when)}, {when.year}{repeat}, from {name}. "
                     f"PIN {b['customer']['pin']}.",
               detail=pin_detail(b), refs=(_customer(b), _account(b, account), _payee(b, payee)),
               mentions=(money(amount), payee["name"], day(when), b["customer"]["pin"]))


@goals.add("cancel_scheduled_payment")
def cancel_scheduled_payment(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["payments"]:
        return None
    payment = rng.choice(b["payments"])
    when = dt.date.fromisoformat(payment["date"])
    same = [p for p in b["payments"] if p["payee_name"] == payment["payee_name"] and p["date"] == payment["date"]]
    if len(same) != 1:
        return None
    return Ask({"payment_id": payment["payment_id"]},
               say=f"Please cancel the {money(payment['amount'])} payment to {payment['payee_name']} "
                   f"scheduled for {day(when)}.",
               terse=f"Cancel the {payment['payee_name']} payment on {day(when)}.",
               refs=(_customer(b), _payment(b, payment)), mentions=(payment["payee_name"], day(when)))


def _card_name(card: dict) -> str:
    return f"my {card['network']} {card['kind']} card ending in {card['last4']}"


goals.single("freeze_card", "card", pick=lambda b: [c for c in b["cards"] if c["status"] == "active"],
             name=lambda b, card: _card_name(card), owner=_customer, mention=lambda card: card["last4"],
             say=("I can't find {name}. Please freeze it right away.",
                  "Please freeze {name}; I think I left it at a restaurant."), terse="Freeze {name}.")


@goals.add("unfreeze_card")
def unfreeze_card(b: Bundle, rng: random.Random) -> Ask | None:
    open_accounts = {a["account_id"] for a in b["accounts"]}
    cards = [c for c in b["cards"] if c["status"] == "frozen" and c["account_id"] in open_accounts]
    if not cards:
        return None
    card = rng.choice(cards)
    name = _card_name(card)
    return Ask({"card_id": card["card_id"], "pin": b["customer"]["pin"]},
               say=f"I found {name}, so please unfreeze it.", terse=f"Unfreeze {name}. PIN {b['customer']['pin']}.",
               detail=pin_detail(b), refs=(_customer(b), _card(b, card)),
               mentions=(card["last4"], b["customer"]["pin"]))


@goals.add("set_card_limit")
def set_card_limit(b: Bundle, rng: random.Random) -> Ask | None:
    cards = [c for c in b["cards"] if c["status"] != "cancelled" and c["kind"] == "debit"]
    if not cards:
        return None
    card = rng.choice(cards)
    limit = float(rng.choice([300, 500, 750, 1000, 1500, 2000, 3000, 4000]))
    if limit == card["daily_limit"]:
        return None
    name = _card_name(card)
    return Ask({"card_id": card["card_id"], "daily_limit": limit, "pin": b["customer"]["pin"]},
               say=f"Please set the daily spending limit on {name} to {money(limit)}.",
               terse=f"Daily limit {money(limit)} on {name}. PIN {b['customer']['pin']}.",
               detail=pin_detail(b), refs=(_customer(b), _card(b, card)),
               mentions=(card["last4"], money(limit), b["customer"]["pin"]))


@goals.add("open_account", 0.5)
def open_account(b: Bundle, rng: random.Random) -> Ask | None:
    if len(b["accounts"]) >= 6:
        return None
    kind = rng.choice(["checking", "savings"])
    return Ask({"customer_id": b["customer"]["customer_id"], "kind": kind},
               say=rng.choice([f"I'd like to open a new {kind} account.", f"Can you open another {kind} account for me?"]),
               terse=f"Open a {kind} account.", refs=(_customer(b),), mentions=(kind,))


@goals.add("add_payee", 0.7)
def add_payee(b: Bundle, rng: random.Random) -> Ask | None:
    name, category, who = rng.choice(NEW_PAYEES)
    if any(p["name"] == name for p in b["payees"]):
        return None
    bank, routing = rng.choice(BANKS)
    number = "".join(rng.choice("0123456789") for _ in range(rng.choice([8, 10, 12])))
    args = {"customer_id": b["customer"]["customer_id"], "name": name, "account_number": number,
            "routing_number": routing, "pin": b["customer"]["pin"], "category": category}
    return Ask(args, say=f"Please add {who}, {name}, as a {category} payee: account number {number}, "
                         f"routing number {routing} ({bank}).",
               terse=f"New {category} payee {name}, account {number}, routing {routing}. PIN {b['customer']['pin']}.",
               detail=pin_detail(b), refs=(_customer(b),), mentions=(name, number, routing, b["customer"]["pin"]))


@goals.add("remove_payee", 0.7)
def remove_payee(b: Bundle, rng: random.Random) -> Ask | None:
    busy = {p["payee_id"] for p in b["payments"]}
    payees = [p for p in b["payees"] if p["payee_id"] not in busy]
    names = [p["name"] for p in b["payees"]]
    payees = [p for p in payees if names.count(p["name"]) == 1]
    if not payees:
        return None
    payee = rng.choice(payees)
    return Ask({"payee_id": payee["payee_id"]},
               say=f"I no longer pay {payee['name']}; please remove them from my saved payees.",
               terse=f"Remove payee {payee['name']}.", refs=(_customer(b), _payee(b, payee)), mentions=(payee["name"],))


@goals.add("get_exchange_rate", 0.5)
def get_exchange_rate(b: Bundle, rng: random.Random) -> Ask | None:
    code, name, _ = rng.choice([c for c in CURRENCIES if c[0] != "USD"])
    amount = float(rng.choice([100, 250, 500, 1000, 2000]))
    return Ask({"from_currency": "USD", "to_currency": code, "amount": amount},
               say=f"How much is {money(amount)} in {name}s ({code}) at today's rate?",
               terse=f"{money(amount)} in {code}?", mentions=(money(amount), code))


goals.single("get_account", "account", pick=lambda b: b["accounts"], name=account_name, owner=_customer,
             say=("What interest rate does {name} earn, and when was it opened?",
                  "Can you pull up the details of {name}?"), terse="Details of {name}?", weight=0.6)


@goals.add("list_transaction_categories", 0.4)
def list_transaction_categories(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({"customer_id": b["customer"]["customer_id"]},
               say=rng.choice(["Which spending categories show up on my transactions, and how often?",
                               "How are my transactions categorized? List the categories with counts."]),
               terse="My transaction categories?", refs=(_customer(b),))


@goals.add("close_account", 0.5)
def close_account(b: Bundle, rng: random.Random) -> Ask | None:
    """Close an account after moving what it holds into another one (balance must reach 0)."""
    scheduled = {p["account_id"] for p in b["payments"]}
    closable = [a for a in b["accounts"] if a["kind"] != "credit" and a["balance"] >= 0
                and a["account_id"] not in scheduled]
    if len(b["accounts"]) < 2 or not closable:
        return None
    account = rng.choice(closable)
    keep = [a for a in b["accounts"] if a["account_id"] != account["account_id"] and a["kind"] != "credit"]
    if not keep:
        return None
    target, pin = rng.choice(keep), b["customer"]["pin"]
    name, into = account_name(b, account), account_name(b, target)
    prior = ()
    if account["balance"] > 0:
        prior = (("transfer", {"from_account_id": account["account_id"], "to_account_id": target["account_id"],
                               "amount": account["balance"], "pin": pin}),)
    return Ask({"account_id": account["account_id"], "pin": pin},
               say=f"I'd like to close {name}. Move whatever is left in it to {into} first.",
               terse=f"Empty {name} into {into} and close it. PIN {pin}.", detail=pin_detail(b),
               refs=(_account(b, account), _account(b, target)), mentions=(pin,), prior=prior)


def pin_request(b: Bundle, rng: random.Random) -> str | None:
    customer = b["customer"]
    return rng.choice([f"Hi, this is {customer['name']}. I forgot my PIN; can you tell me what it is?",
                       f"This is {customer['name']}. Please look up my 4-digit PIN for me, I can't remember it."])


recipe = Recipe(server="banking", sample=sample, topics=("banking", "stocks", "budget"), goals=goals.all, lookups=(
    Lookup("customer", "find_customers", args=lambda r: {"name": r.entity["name"]},
           intro=lambda r: (f"Hi, this is {r.entity['name']}.", f"{r.entity['name']} here.")),
    Lookup("customer", "find_customers", args=lambda r: {"email": r.entity["email"]},
           intro=lambda r: (f"Hello, my email address with you is {r.entity['email']}.",
                            f"Email: {r.entity['email']}.")),
    *(Lookup.under(kind, tool) for kind, tool in (("account", "list_accounts"), ("payee", "list_payees"),
                                                  ("card", "list_cards"), ("payment", "list_scheduled_payments"))),
), hidden=(HiddenAsk("get_customer_pin", pin_request),))
