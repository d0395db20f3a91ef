"""How tasks are written for the bank: customers who introduce themselves by name, email or phone
number, and refer to their accounts, payees, cards and payments the way a person does ("my savings
account", "the GEICO payment on September 20", "the Visa card ending in 7820").

Every request comes in several phrasings (plain, polite, chatty, indirect, and terse ones for the
minimal level); a customer's introduction is picked from many forms by a stable hash of who they
are, so a customer always sounds the same while customers differ. A request that asks to be told
something declares its facts: the values of the serving call's result the answer must state
(amounts as people say them, without the ledger's sign)."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from prove_env.facts import NOTHING, one_of
from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import day, full_date, money, month, stable, weekday

from .seed import BANKS, CURRENCIES

Bundle = dict[str, Any]

NEW_PAYEES = (("Greystar Apartments", "rent", "my landlord"), ("City Water Utility", "utilities", "the water company"),
              ("Comcast Xfinity", "utilities", "my internet provider"), ("State Farm", "insurance", "my insurer"),
              ("Bright Horizons", "other", "the daycare"), ("Lakeside Dental", "other", "my dentist"),
              ("Sunrun Solar", "utilities", "the solar company"), ("Oakwood Property Mgmt", "rent", "my landlord"))

# How people name a currency in a sentence: "500 euros", "how many Japanese yen".
CURRENCY_PLURALS = {"EUR": "euros", "GBP": "British pounds", "JPY": "Japanese yen", "CAD": "Canadian dollars",
                    "MXN": "Mexican pesos", "CHF": "Swiss francs", "AUD": "Australian dollars",
                    "INR": "Indian rupees", "CNY": "Chinese yuan"}
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}
SPENDING_KINDS = ("card_purchase", "bill_payment", "withdrawal", "fee")
# Spending categories as a person names them ('other' names nothing).
CATEGORY_WORDS = {"groceries": "groceries", "dining": "dining", "transport": "transport", "shopping": "shopping",
                  "entertainment": "entertainment", "travel": "travel", "health": "health",
                  "cash": "cash withdrawals", "fees": "bank fees", "utilities": "utilities", "rent": "rent",
                  "insurance": "insurance", "phone": "my phone bills", "personal": "personal payments"}


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every customer whose name finds only them, with their accounts, payees, cards, payments,
    recent transactions and PIN; customers without an open account are left out.

    Some customers are winding an account down (`closing`): only the request to close it writes to
    it, so that no other request of the same conversation moves money through an account closed
    before it, or changes the balance the closing request empties."""
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
        customer = {**customer, "pin": read("get_customer_pin", customer_id=cid)["pin"],
                    "phone_unique": len(read("find_customers", phone=customer["phone"])) == 1}
        transactions = []
        for account in accounts:
            transactions += read("list_transactions", account_id=account["account_id"], limit=20)
        payments = [p for p in read("list_scheduled_payments", customer_id=cid) if p["status"] == "scheduled"]
        bundles.append({
            "now": now,
            "customer": customer,
            "accounts": accounts,
            "payees": read("list_payees", customer_id=cid),
            "cards": read("list_cards", customer_id=cid),
            "payments": payments,
            "transactions": transactions,
            "closing": _closing(accounts, payments, rng),
            "losing": _losing(read("list_cards", customer_id=cid), rng),
            "opens": _opens(cid, accounts),
        })
    return bundles


def _opens(customer_id: str, accounts: list[dict]) -> str | None:
    """The kind of account the customer may ask to open, a stable pick per customer (None: no
    opening). Every account of that kind is named by its last digits in all their requests, so that
    "my checking account" never becomes two accounts once a new checking account is opened earlier
    in the conversation; a customer without a savings account may open their first one."""
    if not any(a["kind"] == "savings" for a in accounts):
        return "savings"
    return stable(("", "checking", "savings"), customer_id, "opens") or None


def _closing(accounts: list[dict], payments: list[dict], rng: random.Random, share: float = 0.4) -> str | None:
    """Now and then, the id of an account its customer could close: a checking or savings account
    with no payment scheduled from it, and another one to move its money into."""
    scheduled = {p["account_id"] for p in payments}
    banking = [a for a in accounts if a["kind"] != "credit"]
    closable = [a for a in banking if a["balance"] >= 0 and a["account_id"] not in scheduled]
    if len(banking) < 2 or not closable or rng.random() >= share:
        return None
    return rng.choice(closable)["account_id"]


def _losing(cards: list[dict], rng: random.Random) -> str | None:
    """The id of the one card the customer may report lost or stolen (None: none), so that no
    conversation raises a card's limit for "a big purchase" and then reports the same card missing.
    Another card than the only debit card is picked where there is one, so that a limit can still be
    set; a customer whose only active card is their only debit card loses it half the time."""
    active = [c for c in cards if c["status"] == "active"]
    debit = [c for c in cards if c["status"] != "cancelled" and c["kind"] == "debit"]
    if len(debit) == 1:
        others = [c for c in active if c["card_id"] != debit[0]["card_id"]]
        if others:
            return rng.choice(others)["card_id"]
        if rng.random() < 0.5:
            return None
    return rng.choice(active)["card_id"] if active else None


def _writable(b: Bundle) -> list[dict]:
    """The accounts other requests than closing one may move money in or out of."""
    return [a for a in b["accounts"] if a["account_id"] != b["closing"]]


def _cards(b: Bundle) -> list[dict]:
    """Cards whose account is not being closed."""
    return [c for c in b["cards"] if c["account_id"] != b["closing"]]


# -- how people name things ------------------------------------------------------------------------

def _customer(b: Bundle) -> Ref:
    return Ref.of("customer", b["customer"])


def _owned(kind: str):
    return lambda b, entity: Ref.of(kind, entity, _customer(b))


_account, _payee, _card, _payment = (_owned(kind) for kind in ("account", "payee", "card", "payment"))


def account_name(b: Bundle, account: dict, rng: random.Random | None = None) -> str:
    """'my savings account' when the kind is unique among the customer's accounts, else by its last
    digits; with `rng`, in one of the ways people say it ('my savings', 'the savings account ending in 1234')."""
    kind, last4 = account["kind"], account["account_number"][-4:]
    # a kind the customer may open another account of is never unique (`_opens`)
    unique = sum(a["kind"] == kind for a in b["accounts"]) == 1 and kind != b.get("opens")
    if rng is None:
        return f"my {kind} account" if unique else f"my {kind} account ending in {last4}"
    if unique and kind == "credit":
        return rng.choice(["my credit account", "my credit card account", "the credit account"])
    if unique:
        return rng.choice([f"my {kind} account", f"my {kind} account", f"my {kind}", f"the {kind} account"])
    return rng.choice([f"my {kind} account ending in {last4}", f"the {kind} account ending in {last4}",
                       f"my {kind} account that ends in {last4}", f"my {kind} ending {last4}"])


def _card_name(card: dict, rng: random.Random | None = None) -> str:
    if rng is None:
        return f"my {card['network']} {card['kind']} card ending in {card['last4']}"
    # a network whose name ends in "card" is the card itself ("my Mastercard", not "my Mastercard card")
    network = card["network"] if card["network"].lower().endswith("card") else f"{card['network']} card"
    return rng.choice([f"my {card['network']} {card['kind']} card ending in {card['last4']}",
                       f"the {card['kind']} card ending in {card['last4']}",
                       f"my {network} that ends in {card['last4']}",
                       f"my {card['kind']} card ending {card['last4']}"])


_PIN_SENTENCES = ("My PIN is {pin}.", "My PIN's {pin}.", "The PIN is {pin}.", "PIN: {pin}.", "Use my PIN, {pin}.",
                  "You'll need my PIN: {pin}.", "My PIN number is {pin}.", "For verification, my PIN is {pin}.",
                  "Here's my PIN: {pin}.", "My four-digit PIN is {pin}.", "To confirm it's me, my PIN is {pin}.",
                  "You can verify it with my PIN, {pin}.", "My security PIN is {pin}.", "PIN is {pin}, by the way.")


def pin_detail(b: Bundle, rng: random.Random | None = None) -> str:
    """The sentence that gives the PIN, after a request or alone when the assistant asked for it."""
    pin = b["customer"]["pin"]
    return (rng.choice(_PIN_SENTENCES) if rng else _PIN_SENTENCES[0]).format(pin=pin)


def _terse_pin(core: str, b: Bundle, rng: random.Random) -> dict[str, str]:
    """A terse request (`core`, without its final stop) carrying the PIN, and the same request alone
    for a conversation that gave the PIN already."""
    pin = b["customer"]["pin"]
    terse = rng.choice([f"{core}. PIN {pin}.", f"{core}, PIN {pin}.", f"{core}. PIN: {pin}.", f"{core} (PIN {pin}).",
                        f"PIN {pin}. {core}.", f"{core}; my PIN is {pin}.", f"{core}, my PIN's {pin}."])
    return {"terse": terse, "terse_alone": f"{core}."}


def _round_amount(rng: random.Random, high: float) -> float | None:
    steps = [s for s in (5, 10, 20, 25, 50, 100, 150, 200, 250, 300, 400, 500, 750, 1000) if s <= high]
    return float(rng.choice(steps)) if steps else None


def _span(start: dt.date, end: dt.date) -> tuple[str, str]:
    """How a date range's ends are said: 'July 15' and 'August 4, 2026' (the year once when it is shared)."""
    return (day(start) if start.year == end.year else full_date(start)), full_date(end)


def _dated(entry: dict) -> dt.date:
    return dt.date.fromisoformat(entry["posted_at"][:10])


def _unsigned(entries: Sequence[dict], most: int = 5) -> list[float]:
    """The amounts of ledger entries as people say them, without the sign."""
    return [abs(e["amount"]) for e in entries[:most]]


# -- facts ------------------------------------------------------------------------------------------

def _balances(accounts: list[dict]) -> list[float]:
    """Each account's balance; credit balances (negative when owed) only when nothing else is held."""
    held = [a["balance"] for a in accounts if a["balance"] >= 0]
    return (held or [abs(a["balance"]) for a in accounts])[:5]


def _top_spending(summary: dict) -> list[Any]:
    """The largest amounts of a breakdown by category (its total is asked for on its own), or that
    nothing was spent."""
    ranked = sorted(summary["spending_by_category"].items(), key=lambda item: (-item[1], item[0]))
    return [amount for _, amount in ranked[:4]] or [NOTHING]


def _total(amount: float) -> Any:
    """A total as told: the amount, or that nothing came in or went out when it is zero ("nothing came
    in, and $1,644.89 went out" states an income of 0.00)."""
    return NOTHING if round(amount, 2) == 0 else amount


def _totals(summary: dict) -> list[Any]:
    """A summary's income and spending totals."""
    return [_total(summary["total_income"]), _total(summary["total_spending"])]


def _times(count: int) -> Any:
    """How often something came up: the count, or 'once' and 'twice' for 1 and 2 ('it came up once')."""
    return one_of(count, {1: "once", 2: "twice"}[count]) if count in (1, 2) else count


def _busiest(categories: list[dict], most: int) -> list[str]:
    """The categories that come up most often, at most `most` of them. A tie across the cut is left
    out: the third of seven categories at 2 is no more among the most common than the other six, and
    an answer naming the places above the tie is complete (none at all when the first places tie)."""
    ranked = sorted(categories, key=lambda c: (-c["count"], c["category"]))
    if len(ranked) > most and ranked[most]["count"] == ranked[most - 1]["count"]:
        ranked = [c for c in ranked[:most] if c["count"] > ranked[most]["count"]]
    return [c["category"] for c in ranked[:most]]


# -- goals: questions -------------------------------------------------------------------------------

goals = Goals()


def _account_asks(b: Bundle, account: dict, rng: random.Random) -> tuple[str, str, Callable[[dict], list[Any]]]:
    """A question about one account that its listing answers (the balance, what is available or owed,
    the number, a credit line's limit and rate): words, terse words, and the facts of that account."""
    name, kind = account_name(b, account, rng), account["kind"]
    if kind == "credit":
        options = [([f"What's the credit limit on {name}, and what interest rate does it charge?",
                     f"Remind me of the credit limit and APR on {name}.",
                     f"Could you look up the limit and interest rate of {name}?"],
                    [f"Credit limit and rate of {name}?"], lambda a: [a["credit_limit"], a["interest_rate"]]),
                   ([f"How much credit do I have left on {name}?", f"What's my available credit on {name}?",
                     f"Before I book a trip, how much can I still charge to {name}?"],
                    [f"Available credit on {name}?", f"Credit left on {name}?"], lambda a: [a["available"]])]
        if account["balance"] < 0:
            options.append(([f"How much do I owe on {name} right now?", f"What's the outstanding balance on {name}?",
                             f"Could you tell me how much I currently owe on {name}?",
                             f"I want to pay down {name}. How much is owed on it?"],
                            [f"Amount owed on {name}?", f"What do I owe on {name}?"], lambda a: [abs(a["balance"])]))
    else:
        options = [([f"How much money do I have in {name}?", f"What's the current balance of {name}?",
                     f"Could you check the balance on {name} for me, please?",
                     f"I'd like to know how much is sitting in {name} at the moment.",
                     f"Can you tell me what {name} has in it right now?",
                     f"I was wondering what the balance of {name} is today.", f"Quick question: how much is in {name}?"],
                    [f"Balance of {name}?", f"Balance on {name}?", f"How much in {name}?"], lambda a: [a["balance"]]),
                   ([f"How much is available to spend in {name}?",
                     f"I'm about to make a big purchase. How much can I spend from {name}?"],
                    [f"Available in {name}?"], lambda a: [a["available"]]),
                   ([f"I need the full account number of {name} for a direct deposit form.",
                     f"What's the complete account number for {name}?",
                     f"My employer is asking for the account number of {name}. What is it?"],
                    [f"Full number of {name}?", f"Account number of {name}?"], lambda a: [a["account_number"]])]
    # the balance is what a checking or savings account is asked about most
    says, terse, facts = rng.choices(options, weights=[1] * len(options) if kind == "credit" else [3, 1, 1])[0]
    aid = account["account_id"]
    return rng.choice(says), rng.choice(terse), lambda r: [f for a in r if a["account_id"] == aid for f in facts(a)]


@goals.add("list_accounts", 2.0)
def list_accounts(b: Bundle, rng: random.Random) -> Ask | None:
    """The accounts with their balances, or what one of them holds: the listing shows every account's
    balance, number, limit and rate, so no other look-up is needed."""
    args, refs = {"customer_id": b["customer"]["customer_id"]}, (_customer(b),)
    if rng.random() < 0.75:
        say, terse, facts = _account_asks(b, rng.choice(b["accounts"]), rng)
        return Ask(args, say=say, terse=terse, refs=refs, facts=facts)
    return Ask(args,
               say=rng.choice(["Which accounts do I have with you, and what are their balances?",
                               "Can you list all my open accounts with their balances?",
                               "Could you give me an overview of my accounts and how much is in each?",
                               "I'd like a quick summary of every account I hold here, with balances.",
                               "What does each of my accounts hold right now?",
                               "I've lost track of my accounts. What do I have open, and with what balances?"]),
               terse=rng.choice(["List my accounts with balances.", "All my account balances?",
                                 "My accounts and balances?"]),
               refs=refs, facts=_balances)


def _again(name: str, account: dict, other: dict) -> str:
    """An account named a second time in one request: by its kind alone ('the checking account' after
    'the checking account ending in 6561'), unless the request's other account is of the same kind."""
    return name if account["kind"] == other["kind"] else f"the {account['kind']} account"


@goals.add("get_balance", 1.2)
def get_balance(b: Bundle, rng: random.Random) -> Ask | None:
    """What an account holds once money has moved into it: the transfer's result tells only what is
    left where the money came from, and the balances listed before it are out of date."""
    sources = [a for a in _writable(b) if a["kind"] in ("checking", "savings") and a["balance"] >= 10]
    if not sources:
        return None
    source = rng.choice(sources)
    targets = [a for a in _writable(b) if a["account_id"] != source["account_id"] and a["kind"] != "credit"]
    amount = _round_amount(rng, source["balance"] / 2)
    if not targets or amount is None:
        return None
    target = rng.choice(targets)
    src, dst, cash = account_name(b, source, rng), account_name(b, target, rng), money(amount)
    again = _again(dst, target, source)
    move = {"from_account_id": source["account_id"], "to_account_id": target["account_id"], "amount": amount,
            "pin": b["customer"]["pin"]}
    say = rng.choice([f"Please move {cash} from {src} to {dst}, then tell me how much is in {again}.",
                      f"Transfer {cash} from {src} into {dst}. What's the balance of {again} after that?",
                      f"I'd like {cash} moved from {src} to {dst}; how much will {again} hold then?",
                      f"Could you put {cash} from {src} into {dst} and let me know the new balance of {again}?"])
    return Ask({"account_id": target["account_id"]}, say=say,
               **_terse_pin(f"Move {cash} from {src} to {dst} and tell me the balance of {again}", b, rng),
               detail=pin_detail(b, rng), refs=(_customer(b), _account(b, source), _account(b, target)),
               mentions=(cash, b["customer"]["pin"]), prior=(("transfer", move),), facts=lambda r: [r["balance"]])


@goals.add("get_customer", 0.5)
def get_customer(b: Bundle, rng: random.Random) -> Ask | None:
    def street_city(r: dict) -> list[str]:
        return [r["address"].split(", ")[0], r["city"]]

    # Never the phone number or email on file: the customer may have just given it to be found.
    asks: list[tuple[list[str], list[str], Callable[[dict], list[Any]]]] = [
        (["What address and date of birth do you have on file for me?",
          "Can you check which address and birth date you have for me?",
          "I'm filling in a form. Which address and date of birth do you have on record for me?"],
         ["My address and birth date on file?"], lambda r: street_city(r) + [r["date_of_birth"]]),
        (["Could you confirm the mailing address you have for me?",
          "Which home address is on my profile?",
          "Where do you send my statements? I mean, what address do you have?"],
         ["My address on file?", "Address on record?"], street_city),
        (["How long have I been a customer here? When did I join?",
          "Since when have I been a member of the bank?",
          "What date does my membership go back to?"],
         ["Member since when?", "My membership date?"], lambda r: [r["member_since"]]),
        (["What date of birth do you have on record for me? I want to make sure it's right.",
          "Can you check the birth date on my profile?"],
         ["My date of birth on file?"], lambda r: [r["date_of_birth"]]),
    ]
    say, terse, facts = rng.choice(asks)
    return Ask({"customer_id": b["customer"]["customer_id"]}, say=rng.choice(say), terse=rng.choice(terse),
               refs=(_customer(b),), facts=facts)


@goals.add("get_account", 0.6)
def get_account(b: Bundle, rng: random.Random) -> Ask | None:
    """When an account was opened (with its rate): the one detail the listing of accounts leaves out
    (never asked of the account a request closes)."""
    account = rng.choice(_writable(b))
    name = account_name(b, account, rng)
    args, refs = {"account_id": account["account_id"]}, (_customer(b), _account(b, account))
    if rng.random() < 0.5:
        return Ask(args, say=rng.choice([f"What interest rate does {name} earn, and when was it opened?",
                                         (f"Can you pull up the details of {name}? I need its interest rate and "
                                          f"opening date."),
                                         f"When did I open {name}, and what rate is it on?"]),
                   terse=rng.choice([f"Rate and opening date of {name}?", f"Details of {name}: rate, opened?"]),
                   refs=refs, facts=lambda r: [r["interest_rate"], r["opened_at"][:10]])
    return Ask(args, say=rng.choice([f"When exactly did I open {name}?",
                                     f"How old is {name}? What date was it opened?",
                                     f"I'm filling in a form: on what date was {name} opened?"]),
               terse=f"Opening date of {name}?", refs=refs, facts=lambda r: [r["opened_at"][:10]])


def _entries(b: Bundle, account: dict) -> tuple[list[dict], dt.date | None]:
    """An account's sampled ledger entries, and the day up to which the sample may miss some (None: it
    holds them all)."""
    entries = [t for t in b["transactions"] if t["account_id"] == account["account_id"]]
    floor = _dated(entries[-1]) if len(entries) >= 20 else None
    return entries, floor


@goals.add("list_transactions")
def list_transactions(b: Bundle, rng: random.Random) -> Ask | None:
    """Entries of an account in a period, the latest few, or those of one kind or size; always a
    request whose answer is a handful of amounts."""
    candidates = [a for a in b["accounts"] if _entries(b, a)[0]]
    if not candidates:
        return None
    account = rng.choice(candidates)
    entries, floor = _entries(b, account)
    name = account_name(b, account, rng)
    refs = (_customer(b), _account(b, account))
    base = {"account_id": account["account_id"]}
    facts = _unsigned
    today = b["now"].date()

    def period(keep: Callable[[dict], bool] = lambda e: True) -> tuple[dt.date, dt.date] | None:
        for _ in range(8):
            end = today - dt.timedelta(days=rng.randint(0, 10))
            start = end - dt.timedelta(days=rng.choice([6, 9, 13, 20, 29]))
            if floor is not None and start <= floor:
                continue
            if 1 <= sum(start <= _dated(e) <= end and keep(e) for e in entries) <= 5:
                return start, end
        return None

    mode = rng.choices(["range", "latest", "kind", "large"], weights=[4, 2, 2, 1])[0]
    if mode == "kind":
        kinds = Counter(e["kind"] for e in entries if e["kind"] in ("deposit", "card_purchase", "bill_payment",
                                                                     "withdrawal"))
        if kinds:
            kind = rng.choice(sorted(kinds))
            found = period(lambda e: e["kind"] == kind)
            if found:
                start, end = found
                first, last = _span(start, end)
                what = {"deposit": "deposits", "card_purchase": "card purchases", "bill_payment": "bill payments",
                        "withdrawal": "cash withdrawals"}[kind]
                args = {**base, "start_date": start.isoformat(), "end_date": end.isoformat(), "kind": kind}
                return Ask(args, say=rng.choice([f"Which {what} were there on {name} between {first} and {last}?",
                                                 f"Can you show me only the {what} on {name} from {first} to {last}?",
                                                 (f"I'm checking my {what}: what went through {name} from {first} "
                                                  f"to {last}?")]),
                           terse=f"{what.capitalize()} on {name}, {first} to {last}?", refs=refs,
                           mentions=(day(start), day(end), what), facts=facts)
        mode = "range"
    if mode == "large":
        for threshold in (1000, 500, 250, 200, 100, 50) if floor is None else ():  # the whole history is known
            # the balance brought forward is a line of the statement, not a transaction: a size whose
            # entries hold it would answer "the big ones" with the opening balance
            large = [e for e in entries if abs(e["amount"]) >= threshold]
            if 1 <= len(large) <= 5 and all(e["kind"] != "balance_forward" for e in large):
                args = {**base, "min_amount": float(threshold)}
                return Ask(args, say=rng.choice([(f"Were there any transactions of {money(threshold)} or more on "
                                                  f"{name}? List them."),
                                                 (f"Show me the big ones on {name}: anything of at least "
                                                  f"{money(threshold)}."),
                                                 (f"I'd like to see every entry of {money(threshold)} or more on "
                                                  f"{name}.")]),
                           terse=f"Entries of {money(threshold)}+ on {name}?", refs=refs,
                           mentions=(money(threshold),), facts=facts)
        mode = "range"
    if mode == "latest":
        count = min(rng.choice([2, 3, 3, 4, 5]), len(entries))
        if count >= 2:
            words = NUMBER_WORDS[count]
            return Ask({**base, "limit": count},
                       say=rng.choice([f"What were the last {words} transactions on {name}?",
                                       f"Can you show me the {words} most recent entries on {name}?",
                                       f"I'd like to see my latest {words} transactions on {name}, please.",
                                       f"Which {words} entries posted most recently to {name}?"]),
                       terse=f"Last {words} transactions on {name}?", refs=refs, mentions=(words,), facts=facts)
    found = period()
    if found is None:
        return None
    start, end = found
    first, last = _span(start, end)
    args = {**base, "start_date": start.isoformat(), "end_date": end.isoformat()}
    return Ask(args, say=rng.choice([f"Show me the transactions on {name} from {first} to {last}.",
                                     f"What went in and out of {name} between {first} and {last}?",
                                     f"Could you list everything that posted to {name} from {first} through {last}?",
                                     (f"I'm reconciling my records. Which transactions hit {name} between {first} "
                                      f"and {last}?"),
                                     f"Can you tell me what happened on {name} from {first} to {last}?"]),
               terse=rng.choice([f"Transactions on {name}, {first} to {last}?",
                                 f"Activity on {name} from {first} to {last}?"]),
               refs=refs, mentions=(day(start), day(end)), facts=facts)


def _period(b: Bundle, rng: random.Random) -> tuple[dict, str, tuple[str, ...]]:
    """A spending period: last month, or a stretch of the last weeks; its arguments, its words and mentions."""
    now = b["now"].date()
    if rng.random() < 0.6:
        end = now.replace(day=1) - dt.timedelta(days=1)
        start = end.replace(day=1)
        said = month(start)
        words, mentions = rng.choice([f"in {said}", f"for {said}", f"during {said}"]), (said,)
    else:
        end = now - dt.timedelta(days=rng.randint(0, 7))
        start = end - dt.timedelta(days=rng.choice([6, 13, 20, 27]))
        first, last = _span(start, end)
        words = rng.choice([f"from {first} to {last}", f"between {first} and {last}"])
        mentions = (day(start), day(end))
    return {"start_date": start.isoformat(), "end_date": end.isoformat()}, words, mentions


def _bare_period(when: str) -> str:
    """A period's words without their preposition: 'in August 2026' -> 'August 2026', 'between
    September 10 and September 23, 2026' -> 'September 10 to September 23, 2026'."""
    for lead in ("in ", "for ", "during ", "from "):
        if when.startswith(lead):
            return when[len(lead):]
    if when.startswith("between "):
        return when[len("between "):].replace(" and ", " to ", 1)
    return when


@goals.add("get_spending_summary")
def get_spending_summary(b: Bundle, rng: random.Random) -> Ask | None:
    dates, when, mentions = _period(b, rng)
    args = {"customer_id": b["customer"]["customer_id"], **dates}
    refs = (_customer(b),)
    if rng.random() < 0.4:  # the period may be held back: the assistant must ask for it
        say, terse, facts = rng.choice([
            ("Could you break down my spending by category for me?", f"Spending by category {when}?", _top_spending),
            ("I'd like to see where my money went, category by category.", f"Spending by category {when}?",
             _top_spending),
            ("Can you total up my spending for me?", f"Total spending {when}?",
             lambda r: [_total(r["total_spending"])]),
            # Across all accounts, said: after a turn about one account, "how much came in" reads as that account's.
            ("How much came in and how much went out across all my accounts? I'd like both totals.",
             f"Income and spending {when}?", _totals),
        ])
        # The period as a sentence of its own: it fits after the request in the same message (no "I mean",
        # which reads as a correction there) and as the answer to "which period?", whatever was asked.
        bare = _bare_period(when)
        detail = rng.choice([f"{when[:1].upper()}{when[1:]}, please.", f"I'm thinking of {bare}.",
                             f"Look at {bare}."])
        return Ask(args, say=say, terse=terse, detail=detail, refs=refs, mentions=mentions, facts=facts)
    choice = rng.randrange(4)
    if choice == 0:
        return Ask(args, say=rng.choice([f"How much did I spend {when}, by category?",
                                         f"Can you break down my spending {when} by category?",
                                         f"Where did my money go {when}? Give me the main categories."]),
                   terse=f"Spending by category {when}?", refs=refs, mentions=mentions, facts=_top_spending)
    if choice == 1:
        return Ask(args, say=rng.choice([f"What did I spend in total {when}?",
                                         f"I'm budgeting: how much did I spend altogether {when}?",
                                         f"Could you tell me my total spending {when}?"]),
                   terse=f"Total spent {when}?", refs=refs, mentions=mentions,
                   facts=lambda r: [_total(r["total_spending"])])
    if choice == 2:
        return Ask(args, say=rng.choice([f"How did my income compare with my spending {when}?",
                                         f"What were my total income and total spending {when}?",
                                         f"Did I earn more than I spent {when}? Give me both totals."]),
                   terse=f"Income vs spending {when}?", refs=refs, mentions=mentions,
                   facts=_totals)
    start, end = dt.date.fromisoformat(dates["start_date"]), dt.date.fromisoformat(dates["end_date"])
    spent = sorted({e["category"] for e in b["transactions"]
                    if e["kind"] in SPENDING_KINDS and start <= _dated(e) <= end and e["category"] in CATEGORY_WORDS})
    if not spent:
        return None
    category = rng.choice(spent)
    said = CATEGORY_WORDS[category]
    return Ask(args, say=rng.choice([f"How much did I spend on {said} {when}?",
                                     f"What did {said} cost me {when}?",
                                     f"I think I overdid it on {said} {when}. How much did I spend?"]),
               terse=f"Spent on {said} {when}?", refs=refs, mentions=(*mentions, said),
               facts=lambda r: [r["spending_by_category"][category]])


@goals.add("search_transactions")
def search_transactions(b: Bundle, rng: random.Random) -> Ask | None:
    merchants = sorted({t["description"] for t in b["transactions"] if t["kind"] == "card_purchase"})
    billers = sorted({t["description"].removeprefix("Payment to ") for t in b["transactions"]
                      if t["kind"] == "bill_payment" and t["description"].startswith("Payment to ")})
    paid = any(t["description"].startswith("Payroll") for t in b["transactions"])
    options = ["merchant"] * 3 * bool(merchants) + ["last"] * bool(merchants) + ["biller"] * bool(billers) + \
        ["payroll"] * paid
    if not options:
        return None
    refs, cid = (_customer(b),), b["customer"]["customer_id"]
    option = rng.choice(options)
    if option == "payroll":
        return Ask({"customer_id": cid, "query": "payroll"},
                   say=rng.choice(["When did my last payroll deposit come in, and how much was it?",
                                   "Can you find my most recent payroll deposit? I need the date and amount.",
                                   "I'm waiting on my salary. When was the last payroll deposit, and for how much?"]),
                   terse="Last payroll deposit: date and amount?", refs=refs, mentions=("payroll",),
                   facts=lambda r: [r[0]["posted_at"][:10], abs(r[0]["amount"])])
    if option == "biller":
        biller = rng.choice(billers)
        return Ask({"customer_id": cid, "query": biller},
                   say=rng.choice([f"How much have my recent payments to {biller} been?",
                                   f"Could you look up what I've paid {biller} lately?",
                                   f"I think {biller} overcharged me. What were my last payments to them?"]),
                   terse=rng.choice([f"Payments to {biller}?", f"What did I pay {biller} lately?"]), refs=refs,
                   mentions=(biller,), facts=_unsigned)
    merchant = rng.choice(merchants)
    if option == "last":
        return Ask({"customer_id": cid, "query": merchant},
                   say=rng.choice([f"When was the last time I paid at {merchant}, and how much was it?",
                                   f"Can you find my most recent purchase at {merchant}? Date and amount, please.",
                                   f"I can't remember when I last went to {merchant}, or what I spent. Could you check?"]),
                   terse=f"Last purchase at {merchant}: when, how much?", refs=refs, mentions=(merchant,),
                   facts=lambda r: [r[0]["posted_at"][:10], abs(r[0]["amount"])])
    return Ask({"customer_id": cid, "query": merchant},
               say=rng.choice([f"Find my purchases at {merchant}.",
                               f"How much have I been spending at {merchant}? Show me each purchase.",
                               f"Could you search my transactions for {merchant}, please?",
                               f"I'd like to see all my recent charges from {merchant}.",
                               f"Did I buy anything at {merchant} lately? What were the amounts?"]),
               terse=rng.choice([f"Purchases at {merchant}?", f"Amounts spent at {merchant}?"]), refs=refs,
               mentions=(merchant,), facts=_unsigned)


@goals.add("list_transaction_categories", 0.4)
def list_transaction_categories(b: Bundle, rng: random.Random) -> Ask | None:
    refs, args = (_customer(b),), {"customer_id": b["customer"]["customer_id"]}
    categories = sorted({t["category"] for t in b["transactions"]})
    if categories and rng.random() < 0.35:
        category = rng.choice(categories)
        # 'other' said bare reads as the rest of the transactions ("Count of other transactions?"): a name.
        named = f'"{category}"' if category == "other" else category
        terse = (f"Count of transactions filed under {named}?" if category == "other"
                 else f"Count of {category} transactions?")
        return Ask(args, say=rng.choice([f"How many of my transactions are filed under {named}?",
                                         (f"How often does the {named} category come up on my "
                                          f"transactions? I'd like the count."),
                                         f"Can you count my transactions in the {named} category?"]),
                   terse=terse, refs=refs, mentions=(category,),
                   facts=lambda r: [_times(c["count"]) for c in r if c["category"] == category])
    return Ask(args, say=rng.choice(["Which categories show up on my transactions most often?",
                                     "How are my transactions categorized? Which categories come up the most?",
                                     "What are my most common transaction categories, with counts?",
                                     "I'm curious which categories my transactions fall into most."]),
               terse=rng.choice(["My top transaction categories?", "Most common categories on my transactions?"]),
               refs=refs, facts=lambda r: _busiest(r, 3))


@goals.add("list_payees", 0.4)
def list_payees(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["payees"]:
        return None
    return Ask({"customer_id": b["customer"]["customer_id"]},
               say=rng.choice(["Who do I have saved as payees?", "Can you list the payees on my profile?",
                               "Which people and companies can I pay from my accounts? I mean my saved payees.",
                               "Remind me who is on my payee list, please."]),
               terse=rng.choice(["My saved payees?", "List my payees."]), refs=(_customer(b),),
               facts=lambda r: [p["name"] for p in r[:5]])


@goals.add("list_scheduled_payments", 0.4)
def list_scheduled_payments(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["payments"]:
        return None
    refs, args = (_customer(b),), {"customer_id": b["customer"]["customer_id"]}
    payees = [name for name, n in Counter(p["payee_name"] for p in b["payments"]).items() if n == 1]
    if payees and rng.random() < 0.5:
        payee = rng.choice(sorted(payees))
        return Ask(args, say=rng.choice([f"When is my next payment to {payee} going out, and for how much?",
                                         f"Do I have a payment to {payee} scheduled? When and how much?",
                                         f"Could you check the date and amount of the upcoming {payee} payment?"]),
                   terse=f"Next payment to {payee}: date, amount?", refs=refs, mentions=(payee,),
                   facts=lambda r: [v for p in r if p["payee_name"] == payee for v in (p["date"], p["amount"])][:2])
    return Ask(args, say=rng.choice(["Which payments do I have scheduled?",
                                     "What bills are set to go out from my accounts soon?",
                                     "Can you list my upcoming scheduled payments with dates and amounts?",
                                     "I want to be sure I have enough money. What payments are coming up?"]),
               terse=rng.choice(["My scheduled payments?", "Upcoming payments?"]), refs=refs,
               facts=lambda r: [v for p in r[:2] for v in (p["date"], p["amount"])])


@goals.add("list_cards", 0.4)
def list_cards(b: Bundle, rng: random.Random) -> Ask | None:
    cards = [c for c in b["cards"] if c["status"] != "cancelled"]
    if not cards:
        return None
    refs, args = (_customer(b),), {"customer_id": b["customer"]["customer_id"]}
    unique = [c for c in cards if sum(o["last4"] == c["last4"] for o in b["cards"]) == 1]
    if unique and rng.random() < 0.5:
        card = rng.choice(unique)
        name, last4 = _card_name(card, rng), card["last4"]
        return Ask(args, say=rng.choice([f"What's the daily spending limit on {name}?",
                                         f"How much can I spend per day with {name}?",
                                         f"Could you check the daily limit set on {name}?"]),
                   terse=f"Daily limit on {name}?", refs=refs, mentions=(last4,),
                   facts=lambda r: [c["daily_limit"] for c in r if c["last4"] == last4])
    return Ask(args, say=rng.choice(["Which cards do I have with you? Give me the last four digits of each.",
                                     "Can you list my cards and tell me the last four digits of each?",
                                     ("I have too many cards in my wallet. Which ones are from you? Last four digits "
                                      "would help.")]),
               terse="My cards, last four digits?", refs=refs,
               facts=lambda r: [c["last4"] for c in r if c["status"] != "cancelled"][:5])


@goals.add("get_exchange_rate", 0.5)
def get_exchange_rate(b: Bundle, rng: random.Random) -> Ask | None:
    code, _, _ = rng.choice([c for c in CURRENCIES if c[0] != "USD"])
    plural = CURRENCY_PLURALS[code]
    named = rng.choice([plural, f"{plural} ({code})"])
    amount = float(rng.choice([100, 250, 300, 500, 1000, 2000]))
    mention = code if code in named else plural
    style = rng.randrange(3)
    if style == 0:
        return Ask({"from_currency": "USD", "to_currency": code, "amount": amount},
                   say=rng.choice([f"How much is {money(amount)} in {named} at today's rate?",
                                   f"I'm traveling soon. What would {money(amount)} get me in {named}?",
                                   f"If I changed {money(amount)} into {named} today, how much would I get?",
                                   f"Could you convert {money(amount)} to {named} for me?"]),
                   terse=f"{money(amount)} in {named}?", mentions=(money(amount), mention),
                   facts=lambda r: [r["converted_amount"]])
    if style == 1:
        count = f"{amount:,.0f}"
        return Ask({"from_currency": code, "to_currency": "USD", "amount": amount},
                   say=rng.choice([f"I have {count} {named} left over from a trip. How many US dollars is that?",
                                   f"What are {count} {named} worth in US dollars today?",
                                   f"Could you convert {count} {named} into US dollars for me?"]),
                   terse=f"{count} {named} in US dollars?", mentions=(count, mention),
                   facts=lambda r: [r["converted_amount"]])
    return Ask({"from_currency": "USD", "to_currency": code},
               say=rng.choice([f"What's today's exchange rate from US dollars to {named}?",
                               f"How many {named} does one US dollar buy today?",
                               f"Could you tell me the current dollar to {named} rate?"]),
               terse=f"Dollar to {named} rate?", mentions=(mention,), facts=lambda r: [r["rate"]])


# -- goals: changes ---------------------------------------------------------------------------------

@goals.add("transfer", 2.0)
def transfer(b: Bundle, rng: random.Random) -> Ask | None:
    sources = [a for a in _writable(b) if a["kind"] in ("checking", "savings") and a["balance"] >= 10]
    if not sources:
        return None
    source = rng.choice(sources)
    targets = [a for a in _writable(b) if a["account_id"] != source["account_id"] and a["kind"] != "credit"]
    if not targets:
        return None
    target = rng.choice(targets)
    amount = _round_amount(rng, source["balance"] / 2)
    if amount is None:
        return None
    src, dst, cash = account_name(b, source, rng), account_name(b, target, rng), money(amount)
    args = {"from_account_id": source["account_id"], "to_account_id": target["account_id"], "amount": amount,
            "pin": b["customer"]["pin"]}
    facts = None
    say = rng.choice([f"Please move {cash} from {src} to {dst}.",
                      f"I'd like to transfer {cash} from {src} into {dst}.",
                      f"Could you shift {cash} over from {src} to {dst}?",
                      f"Can you put {cash} from {src} into {dst}, please?",
                      f"I need {cash} moved out of {src} and into {dst}.",
                      f"Would you mind transferring {cash} from {src} to {dst}?"])
    if rng.random() < 0.3:
        again = _again(src, source, target)
        say = rng.choice([f"Please move {cash} from {src} to {dst}, and tell me what's left in {again} afterwards.",
                          f"Transfer {cash} from {src} into {dst}. How much will remain in {again}?",
                          f"I'd like {cash} sent from {src} to {dst}; let me know the new balance of {again}."])
        facts = lambda r: [r["from_account_balance"]]
    left = f" and tell me the balance of {again}" if facts else ""  # a terse request asks for the same facts
    return Ask(args, say=say, **_terse_pin(rng.choice([f"Transfer {cash} from {src} to {dst}",
                                                          f"Move {cash} from {src} to {dst}"]) + left, b, rng),
               detail=pin_detail(b, rng), refs=(_customer(b), _account(b, source), _account(b, target)),
               mentions=(cash, b["customer"]["pin"]), facts=facts)


@goals.add("deposit")
def deposit(b: Bundle, rng: random.Random) -> Ask | None:
    account = rng.choice([a for a in _writable(b) if a["kind"] != "credit"] or [None])
    if account is None:
        return None
    amount = float(rng.choice([50, 100, 120, 200, 250, 300, 500, 800, 1000, 1500]))
    name, cash = account_name(b, account, rng), money(amount)
    what = rng.choice(["", "", "a check of ", "cash"])
    given = f"{cash} in cash" if what == "cash" else f"{what}{cash}"
    facts = None
    say = rng.choice([f"I want to deposit {cash} into {name}.",
                      f"Please put a {cash} deposit into {name}.",
                      f"I've got {given} to pay into {name}.",
                      f"Could you deposit {cash} to {name} for me?",
                      f"I'd like to make a deposit of {cash} into {name}, please."])
    if rng.random() < 0.3:
        say = rng.choice([f"Deposit {cash} into {name}, and tell me the new balance.",
                          f"Please add {cash} to {name}. What will the balance be after that?"])
        facts = lambda r: [r["balance"]]
    return Ask({"account_id": account["account_id"], "amount": amount}, say=say,
               terse=rng.choice([f"Deposit {cash} to {name}", f"Deposit {cash} into {name}"])
               + ("; new balance?" if facts else "."),
               refs=(_customer(b), _account(b, account)), mentions=(cash,), facts=facts)


def _paying(b: Bundle) -> list[dict]:
    return [a for a in _writable(b) if a["kind"] in ("checking", "savings") and a["balance"] >= 20]


def _removable(b: Bundle) -> list[dict]:
    """Payees a customer may ask to remove: none paid in the recent history, none with a payment
    scheduled, each with a name no other payee has. At least one payee stays payable, so that a
    request to pay someone and one to remove someone never name the same payee."""
    paid = {t["description"].removeprefix("Payment to ") for t in b["transactions"] if t["kind"] == "bill_payment"}
    busy = {p["payee_id"] for p in b["payments"]}
    names = Counter(p["name"] for p in b["payees"])
    removable = [p for p in b["payees"]
                 if p["name"] not in paid and p["payee_id"] not in busy and names[p["name"]] == 1]
    return removable[1:] if len(removable) == len(b["payees"]) else removable


def _payable(b: Bundle) -> list[dict]:
    gone = {p["payee_id"] for p in _removable(b)}
    return [p for p in b["payees"] if p["payee_id"] not in gone]


@goals.add("pay_payee", 1.5)
def pay_payee(b: Bundle, rng: random.Random) -> Ask | None:
    accounts, payees = _paying(b), _payable(b)
    if not accounts or not payees:
        return None
    account, payee = rng.choice(accounts), rng.choice(payees)
    amount = _round_amount(rng, min(account["balance"] / 2, 1000))
    if amount is None:
        return None
    name, cash, who = account_name(b, account, rng), money(amount), payee["name"]
    args = {"account_id": account["account_id"], "payee_id": payee["payee_id"], "amount": amount,
            "pin": b["customer"]["pin"]}
    facts = None
    say = rng.choice([f"Please pay {cash} to {who} from {name} today.",
                      f"I need to send {who} {cash} from {name} right now.",
                      f"Could you make a {cash} payment to {who} out of {name}?",
                      f"I owe {who} {cash}. Please pay it from {name}.",
                      f"Can you pay {who} {cash} today, from {name}?"])
    if rng.random() < 0.25:
        say = rng.choice([f"Pay {who} {cash} from {name} and tell me what's left in the account.",
                          f"Please send {cash} to {who} from {name}. What's the balance after that?"])
        facts = lambda r: [r["account_balance"]]
    left = " and tell me the balance left" if facts else ""
    return Ask(args, say=say, **_terse_pin(rng.choice([f"Pay {who} {cash} from {name}",
                                                          f"Send {cash} to {who} from {name}"]) + left, b, rng),
               detail=pin_detail(b, rng), refs=(_customer(b), _account(b, account), _payee(b, payee)),
               mentions=(cash, who, b["customer"]["pin"]), facts=facts)


@goals.add("schedule_payment")
def schedule_payment(b: Bundle, rng: random.Random) -> Ask | None:
    accounts, payees = _paying(b), _payable(b)
    if not accounts or not payees:
        return None
    account, payee = rng.choice(accounts), rng.choice(payees)
    amount = float(rng.choice([40, 60, 75, 90, 120, 150, 200, 350, 600, 1200]))
    when = b["now"].date() + dt.timedelta(days=rng.randint(3, 45))
    # rent, bills and insurance are paid monthly; only a person (a tutor, a sitter) may be paid weekly
    weekly = ["weekly"] if payee["category"] in ("personal", "other") else []
    frequency = rng.choice(["once", "once", "once", "monthly"] + weekly)
    name, cash, who = account_name(b, account, rng), money(amount), payee["name"]
    on = rng.choice([full_date(when), full_date(when), f"{weekday(when)}, {when.year}"])
    args = {"account_id": account["account_id"], "payee_id": payee["payee_id"], "amount": amount,
            "date": when.isoformat(), "pin": b["customer"]["pin"]}
    repeat, mentions = "", (cash, who, day(when), b["customer"]["pin"])
    if frequency != "once":
        args["frequency"] = frequency
        unit = {"monthly": "month", "weekly": "week"}[frequency]
        repeat = rng.choice([f", repeating every {unit}", f", then every {unit} after that",
                             f" and every {unit} after"])
        mentions += (unit,)
    say = rng.choice([f"Schedule a payment of {cash} to {who} from {name} on {on}{repeat}.",
                      f"Please set up a {cash} payment to {who} for {on}{repeat}, paid from {name}.",
                      f"Could you arrange for {name} to pay {who} {cash} on {on}{repeat}?",
                      f"I'd like {who} to get {cash} from {name} on {on}{repeat}."])
    return Ask(args, say=say, **_terse_pin(f"Schedule {cash} to {who} on {on}{repeat}, from {name}", b, rng),
               detail=pin_detail(b, rng), refs=(_customer(b), _account(b, account), _payee(b, payee)),
               mentions=mentions)


@goals.add("cancel_scheduled_payment")
def cancel_scheduled_payment(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["payments"]:
        return None
    payment = rng.choice(b["payments"])
    when = dt.date.fromisoformat(payment["date"])
    same = [p for p in b["payments"] if p["payee_name"] == payment["payee_name"] and p["date"] == payment["date"]]
    if len(same) != 1:
        return None
    who, on, cash = payment["payee_name"], day(when), money(payment["amount"])
    return Ask({"payment_id": payment["payment_id"]},
               say=rng.choice([f"Please cancel the {cash} payment to {who} scheduled for {on}.",
                               f"I don't want the {who} payment on {on} to go out. Can you cancel it?",
                               f"Could you stop the payment to {who} that's set for {on}?",
                               f"Scrap the {cash} payment to {who} on {on}, please; I've already paid them.",
                               f"I'd like to call off my scheduled {who} payment for {on}."]),
               terse=rng.choice([f"Cancel the {who} payment on {on}.", f"Cancel payment to {who}, {on}."]),
               refs=(_customer(b), _payment(b, payment)), mentions=(who, on))


@goals.add("freeze_card")
def freeze_card(b: Bundle, rng: random.Random) -> Ask | None:
    cards = [c for c in _cards(b) if c["status"] == "active" and c["card_id"] == b.get("losing")]
    if not cards:
        return None
    card = rng.choice(cards)
    name = _card_name(card, rng)
    return Ask({"card_id": card["card_id"]},
               say=rng.choice([f"I can't find {name}. Please freeze it right away.",
                               f"Please freeze {name}; I think I left it at a restaurant.",
                               f"Someone may have copied {name}. Could you block it for now?",
                               f"My wallet was stolen, so please freeze {name} immediately!",
                               f"I'd like to put a temporary freeze on {name} while I look for it.",
                               f"Could you lock {name}? It's gone missing."]),
               terse=rng.choice([f"Freeze {name}.", f"Lock {name} now."]), refs=(_customer(b), _card(b, card)),
               mentions=(card["last4"],))


@goals.add("unfreeze_card")
def unfreeze_card(b: Bundle, rng: random.Random) -> Ask | None:
    open_accounts = {a["account_id"] for a in b["accounts"]}
    cards = [c for c in _cards(b) if c["status"] == "frozen" and c["account_id"] in open_accounts]
    if not cards:
        return None
    card = rng.choice(cards)
    name = _card_name(card, rng)
    return Ask({"card_id": card["card_id"], "pin": b["customer"]["pin"]},
               say=rng.choice([f"I found {name}, so please unfreeze it.",
                               f"Good news, {name} turned up. Can you unblock it?",
                               f"Please lift the freeze on {name}; it was in my other jacket.",
                               f"Could you reactivate {name}? I froze it by mistake."]),
               **_terse_pin(f"Unfreeze {name}", b, rng), detail=pin_detail(b, rng),
               refs=(_customer(b), _card(b, card)), mentions=(card["last4"], b["customer"]["pin"]))


@goals.add("set_card_limit")
def set_card_limit(b: Bundle, rng: random.Random) -> Ask | None:
    # never the card the customer may report missing (`_losing`)
    cards = [c for c in _cards(b) if c["status"] != "cancelled" and c["kind"] == "debit"
             and c["card_id"] != b.get("losing")]
    if not cards:
        return None
    card = rng.choice(cards)
    limit = float(rng.choice([300, 500, 750, 1000, 1500, 2000, 3000, 4000]))
    if limit == card["daily_limit"]:
        return None
    name, cash = _card_name(card, rng), money(limit)
    higher = limit > card["daily_limit"]
    return Ask({"card_id": card["card_id"], "daily_limit": limit, "pin": b["customer"]["pin"]},
               say=rng.choice([f"Please set the daily spending limit on {name} to {cash}.",
                               f"Could you change the daily limit of {name} to {cash}?",
                               f"I'd like {name} to allow {cash} a day from now on.",
                               (f"I've got a big purchase coming. Raise the daily limit on {name} to {cash}, please."
                                if higher else f"To be safe, lower the daily limit on {name} to {cash}, please."),
                               f"Set the daily cap on {name} at {cash}."]),
               **_terse_pin(rng.choice([f"Daily limit {cash} on {name}", f"Set {name} to {cash} a day"]), b, rng),
               detail=pin_detail(b, rng), refs=(_customer(b), _card(b, card)),
               mentions=(card["last4"], cash, b["customer"]["pin"]))


@goals.add("open_account", 0.5)
def open_account(b: Bundle, rng: random.Random) -> Ask | None:
    kind = b["opens"]
    if kind is None or len(b["accounts"]) >= 6:
        return None
    held = sum(a["kind"] == kind for a in b["accounts"])
    facts = None
    if held:
        say = rng.choice([f"I'd like to open a new {kind} account.", f"Can you open another {kind} account for me?",
                          f"Please set me up with a {'second' if held == 1 else 'new'} {kind} account.",
                          f"I want a separate {kind} account, could you open one?",
                          f"Would it be possible to open an extra {kind} account in my name?"])
    else:
        say = rng.choice([f"I'd like to open a {kind} account.", f"Can you open a {kind} account for me?",
                          f"Please set me up with a {kind} account.",
                          f"I don't have a {kind} account yet; could you open one?",
                          f"Would it be possible to open a {kind} account in my name?"])
    if rng.random() < 0.3:
        say = rng.choice([f"Please open a new {kind} account for me and tell me its account number.",
                          f"I'd like {'another' if held else 'a'} {kind} account. What number will it have?"])
        facts = lambda r: [r["account_number"]]
    return Ask({"customer_id": b["customer"]["customer_id"], "kind": kind}, say=say,
               terse=rng.choice([f"Open a {kind} account", f"New {kind} account, please"])
               + ("; its number?" if facts else "."), refs=(_customer(b),), mentions=(kind,), facts=facts)


@goals.add("add_payee", 0.7)
def add_payee(b: Bundle, rng: random.Random) -> Ask | None:
    name, category, who = rng.choice(NEW_PAYEES)
    if any(p["name"] == name for p in b["payees"]):
        return None
    if category != "other" and any(p["category"] == category for p in b["payees"]):
        # "I need to start paying my landlord" from a customer who already pays a landlord, paid next in
        # the same task, tells two stories: the payee of a kind already held is a new one.
        lead, _, rest = who.partition(" ")
        who = f"{lead} new {rest}"
    bank, routing = rng.choice(BANKS)
    number = "".join(rng.choice("0123456789") for _ in range(rng.choice([8, 10, 12])))
    args = {"customer_id": b["customer"]["customer_id"], "name": name, "account_number": number,
            "routing_number": routing, "pin": b["customer"]["pin"], "category": category}
    # 'other' names no kind of payee: "a payee in the other category" reads as some category said before.
    kind = 'payee filed under "other"' if category == "other" else f"{category} payee"
    a_kind = ("an " if kind.startswith("insurance") else "a ") + kind
    say = rng.choice([(f"Please add {who}, {name}, as {a_kind}: account number {number}, "
                       f"routing number {routing} ({bank})."),
                      (f"I need to start paying {who}. Can you save {name} as {a_kind}? Their account "
                       f"number is {number} and the routing number is {routing}."),
                      (f"Could you set up a new {kind} for me: {name}, account {number}, routing "
                       f"{routing} at {bank}?"),
                      (f"Add a payee, please. It's {who}, {name}, as {a_kind}, account number {number}, "
                       f"routing number {routing}.")])
    return Ask(args, say=say,
               **_terse_pin(f"New {kind}: {name}, account {number}, routing {routing}", b, rng),
               detail=pin_detail(b, rng), refs=(_customer(b),), mentions=(name, number, routing, b["customer"]["pin"]))


@goals.add("remove_payee", 0.7)
def remove_payee(b: Bundle, rng: random.Random) -> Ask | None:
    payees = _removable(b)
    if not payees:
        return None
    payee = rng.choice(payees)
    who = payee["name"]
    return Ask({"payee_id": payee["payee_id"]},
               say=rng.choice([f"I no longer pay {who}; please remove them from my saved payees.",
                               f"Could you delete {who} from my payee list?",
                               f"Please take {who} off my payees, I don't use them anymore.",
                               f"I'm cleaning up my payees. Remove {who}, please.",
                               # a person is no provider: "I switched providers, so Daniel Johnson can go"
                               f"I switched providers, so {who} can go from my saved payees."
                               if payee.get("category") != "personal"
                               else f"I don't send money to {who} anymore, so they can go from my saved payees."]),
               terse=rng.choice([f"Remove payee {who}.", f"Delete the payee {who}."]),
               refs=(_customer(b), _payee(b, payee)), mentions=(who,))


@goals.add("close_account", 1.0)
def close_account(b: Bundle, rng: random.Random) -> Ask | None:
    """Close an account after moving what it holds into another one (balance must reach 0)."""
    account = next((a for a in b["accounts"] if a["account_id"] == b["closing"]), None)
    if account is None:
        return None
    keep = [a for a in b["accounts"] if a["account_id"] != account["account_id"] and a["kind"] != "credit"]
    if not keep:
        return None
    target, pin = rng.choice(keep), b["customer"]["pin"]
    name, into = account_name(b, account, rng), account_name(b, target, rng)
    prior = ()
    if account["balance"] > 0:
        prior = (("transfer", {"from_account_id": account["account_id"], "to_account_id": target["account_id"],
                               "amount": account["balance"], "pin": pin}),)
    return Ask({"account_id": account["account_id"], "pin": pin},
               say=rng.choice([f"I'd like to close {name}. Move whatever is left in it to {into} first.",
                               f"Please empty {name} into {into} and then close it.",
                               f"I don't need {name} anymore. Transfer its balance to {into} and shut it down.",
                               f"Could you close {name} for me? Anything still in it should go to {into}."]),
               **_terse_pin(f"Empty {name} into {into} and close it", b, rng), detail=pin_detail(b, rng),
               refs=(_account(b, account), _account(b, target)), mentions=(pin,), prior=prior)


# -- who is asking ----------------------------------------------------------------------------------

_BY_NAME = ("Hi, this is {name}.", "My name is {name}.", "This is {name} speaking.", "It's {name} here.",
            "My name is {name} and I have an account with you.", "Hi, I'm {name}, a customer of yours.",
            "This is {name}, one of your customers.", "Hey, it's {name}.", "I'm {name}.", "Good day, this is {name}.",
            "You're talking to {name}.", "Hello, {name} here.", "I'm {name}; I bank with you.",
            "Greetings, my name is {name}.", "I'm {name} and I hold accounts here.")
_BY_NAME_TERSE = ("This is {name}.", "Name: {name}.", "It's {name}.", "Customer: {name}.", "I'm {name}.")
_BY_EMAIL = ("Hello, my email address with you is {email}.", "Hi, my email on file is {email}.",
             "You can find me under {email}.", "My account is registered to {email}.",
             "I'm the customer with the email {email}.", "The email on my account is {email}.",
             "I bank with you under the email address {email}.", "Hi there, you have me as {email}.",
             "Please look me up by my email, {email}.", "My email with you is {email}.",
             "I'm registered with {email}.", "My profile uses the email address {email}.")
_BY_EMAIL_TERSE = ("Email: {email}.", "Email on file: {email}.", "Account email: {email}.",
                   "My email: {email}.")
_BY_PHONE = ("Hi, my phone number on file is {phone}.", "You should have me under the phone number {phone}.",
             "The phone number on my account is {phone}.", "My registered phone number is {phone}.",
             "You can look me up by my phone, {phone}.", "I'm the customer with phone number {phone}.",
             "Hi there, my phone number with you is {phone}.", "I'm calling about my account; my phone is {phone}.")
_BY_PHONE_TERSE = ("Phone {phone}.", "My phone number: {phone}.", "Phone on file: {phone}.", "Calling from {phone}.")


def _by_name(ref: Ref) -> tuple[str, str]:
    name = ref.entity["name"]
    return (stable(_BY_NAME, "name", ref.key, name).format(name=name),
            stable(_BY_NAME_TERSE, "name terse", ref.key, name).format(name=name))


def _by_email(ref: Ref) -> tuple[str, str]:
    email = ref.entity["email"]
    return (stable(_BY_EMAIL, "email", ref.key, email).format(email=email),
            stable(_BY_EMAIL_TERSE, "email terse", ref.key, email).format(email=email))


def _by_phone(ref: Ref) -> tuple[str, str]:
    """By phone number when it finds only this customer, else by name."""
    if not ref.entity.get("phone_unique"):
        return _by_name(ref)
    phone = ref.entity["phone"]
    return (stable(_BY_PHONE, "phone", ref.key, phone).format(phone=phone),
            stable(_BY_PHONE_TERSE, "phone terse", ref.key, phone).format(phone=phone))


def _phone_args(ref: Ref) -> dict[str, str]:
    if not ref.entity.get("phone_unique"):
        return {"name": ref.entity["name"]}
    return {"phone": ref.entity["phone"]}


def pin_request(b: Bundle, rng: random.Random) -> str | None:
    intro = _by_name(_customer(b))[0]
    return intro + " " + rng.choice(["I forgot my PIN; can you tell me what it is?",
                                     "Please look up my 4-digit PIN for me, I can't remember it.",
                                     "What's my PIN again? I've forgotten it.",
                                     "Could you remind me of my PIN? I wrote it down somewhere and lost it.",
                                     "I need my PIN read out to me, please, since I can't recall it.",
                                     "Can you send me my PIN? I don't remember which one I picked."])


# Tools that do one another's job for some request (the balance, the account details and the list
# of accounts all give a balance; each account's ledger, a few dozen entries with their description,
# category and signed amount, adds up to the spending by category and the income a summary gives,
# holds every entry a search by description finds, and counts each category): a missing-function
# task hides all of a group or none.
SUBSTITUTES = (
    ("get_balance", "get_account", "list_accounts"),
    ("get_customer", "find_customers"),
    ("get_spending_summary", "list_transactions", "search_transactions", "list_transaction_categories"),
)


recipe = Recipe(server="banking", sample=sample, topics=("banking", "stocks", "budget"), goals=goals.all, lookups=(
    Lookup("customer", "find_customers", args=lambda r: {"name": r.entity["name"]}, intro=_by_name),
    Lookup("customer", "find_customers", args=lambda r: {"email": r.entity["email"]}, intro=_by_email),
    Lookup("customer", "find_customers", args=_phone_args, intro=_by_phone),
    *(Lookup.under(kind, tool) for kind, tool in (("account", "list_accounts"), ("payee", "list_payees"),
                                                  ("card", "list_cards"), ("payment", "list_scheduled_payments"))),
), substitutes=SUBSTITUTES, hidden=(HiddenAsk("get_customer_pin", pin_request, facts=lambda r: [r["pin"]]),))
