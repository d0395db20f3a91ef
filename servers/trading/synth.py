"""How tasks are written for the brokerage: clients who introduce themselves by name or email, name
their accounts by kind ("my Roth IRA", "my joint account") or last digits, instruments by ticker or
company name ("Apple", "KO"), orders by what they do ("my open order to buy 20 shares of Coca-Cola")
and watchlists and alerts by their names and levels.

A bundle is one client with their active accounts (balances with settled cash, positions, orders,
fills, cash history), their watchlists and alerts, plus the market: every instrument's quote, recent
daily prices and whether the session is open (a market order while it is closed is queued for the
open, which a request can ask about). Orders are sized to a small share of the buying power and
limit prices kept away from the quote, so that every request of a conversation can still be served
after the others. Open orders and watchlists are split
between the kinds of change by their id number (an order is either modified or cancelled, a
watchlist either edited or deleted), so two requests never get in each other's way.

Every request that asks to be told something declares the facts its answer must state: prices,
quantities, amounts and symbols read from the serving call's result.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

from prove_env.facts import NOTHING, one_of, quantity
from prove_env.synthesis.recipe import Ask, Goals, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import day, full_date, money, stable

Bundle = dict[str, Any]

KIND_WORDS = {"individual": "individual account", "ira": "IRA", "roth_ira": "Roth IRA", "joint": "joint account"}
NEW_WATCHLISTS = ("Space stocks", "Long shots", "AI names", "Income ideas", "Swing trades", "Green energy",
                  "Bond ETFs", "Kids' portfolio", "Rebalance list", "Value picks")
SHARE_COUNTS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 75, 100)
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}
# Which change an open order or a watchlist may receive, by its id number.
MODIFY, CANCEL = 0, 1
EDIT, DELETE = 0, 1
# A dollar amount of zero said in words: 'the joint account has no cash', 'you can withdraw nothing'.
NO_AMOUNT = ("nothing", "none", "empty", "no cash", "no money", "no buying power", "zero")
# A profit or loss of zero said in words: 'you haven't realised anything yet', 'you broke even'.
NO_PNL = ("nothing", "none", "zero", "broke even", "break even", "breakeven", "no profit", "no gain",
          "no realised", "no realized", "haven't realised", "haven't realized", "flat")


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every client whose name finds only them and who holds an active account, with the market."""
    today = now.date()
    quotes = {}
    for ins in read("search_instruments", limit=100):
        quotes[ins["instrument_id"]] = {**read("get_quote", instrument_id=ins["instrument_id"]), "short": _short(ins)}
    market = [q for q in quotes.values()]
    history: dict[str, list[dict]] = {}
    for q in rng.sample(market, 12):
        history[q["instrument_id"]] = read("get_price_history", instrument_id=q["instrument_id"],
                                           start_date=(today - dt.timedelta(days=35)).isoformat())["days"]
    sectors = read("list_sectors")
    status = read("get_market_status")
    bundles = []
    top = 0  # the highest order number in the world: the next order placed gets the one after it
    for client in read("find_clients", limit=100):
        unique = len(read("find_clients", name=client["name"])) == 1
        accounts, listed = [], read("list_accounts", client_id=client["client_id"])
        for account in listed:
            aid = account["account_id"]
            orders = read("list_orders", account_id=aid, limit=100)
            top = max([top] + [_number(o["order_id"]) for o in orders])
            if account["status"] != "active" or not unique:
                continue
            accounts.append({**account, "summary": read("get_account_summary", account_id=aid),
                             "positions": read("get_positions", account_id=aid), "orders": orders,
                             "fills": read("list_fills", account_id=aid, limit=100),
                             "transfers": read("list_cash_transfers", account_id=aid, limit=100)})
        if not accounts:
            continue
        bundles.append({"now": now, "client": client, "accounts": accounts, "market": market, "quotes": quotes,
                        "kinds": {a["kind"] for a in listed},
                        "history": history, "sectors": sectors, "status": status,
                        "watchlists": read("list_watchlists", client_id=client["client_id"]),
                        "alerts": read("list_alerts", client_id=client["client_id"])})
    for b in bundles:
        b["next_order"] = f"ORD-{top + 1:04d}"
    return bundles


# How people name the companies ('Apple', not 'Apple Inc.'); ETFs go by their tickers.
SHORT = {"AAPL": "Apple", "MSFT": "Microsoft", "NVDA": "NVIDIA", "ORCL": "Oracle", "ADBE": "Adobe", "CSCO": "Cisco",
         "INTC": "Intel", "AMZN": "Amazon", "TSLA": "Tesla", "NKE": "Nike", "SBUX": "Starbucks", "HD": "Home Depot",
         "KO": "Coca-Cola", "PG": "Procter & Gamble", "WMT": "Walmart", "COST": "Costco", "JPM": "JPMorgan",
         "BAC": "Bank of America", "GS": "Goldman Sachs", "V": "Visa", "JNJ": "Johnson & Johnson", "PFE": "Pfizer",
         "UNH": "UnitedHealth", "MRNA": "Moderna", "XOM": "Exxon Mobil", "CVX": "Chevron", "NEE": "NextEra Energy",
         "DUK": "Duke Energy", "CAT": "Caterpillar", "BA": "Boeing", "UPS": "UPS", "DIS": "Disney", "NFLX": "Netflix",
         "T": "AT&T", "PLD": "Prologis", "LIN": "Linde"}


def _short(ins: dict) -> str:
    """The name people use: 'Apple', 'Coca-Cola', 'Home Depot'; an ETF (or an unknown name) by its ticker."""
    return SHORT.get(ins["symbol"], ins["symbol"])


# A company's legal form, which an answer leaves out ('United Parcel Service' for 'United Parcel Service, Inc.').
_LEGAL = re.compile(r"^The |,? (Inc\.|Incorporated|Corporation|Company|(& )?Co\.|plc)$")


def _called(item: dict) -> Any:
    """An instrument as an answer may name it: its ticker, the short name, its full name or that name
    without its legal form."""
    name = item.get("name")
    plain = _LEGAL.sub("", _LEGAL.sub("", name)) if name else None
    names = dict.fromkeys(x for x in (item["symbol"], SHORT.get(item["symbol"]), name, plain) if x)
    return item["symbol"] if len(names) == 1 else one_of(*names)


def _number(aid: str) -> int:
    return int(aid.split("-")[1])


# -- how people name things ------------------------------------------------------------------------

def _client(b: Bundle) -> Ref:
    return Ref.of("client", b["client"])


def _account(b: Bundle, account: dict) -> Ref:
    return Ref.of("account", account, _client(b))


def _instrument(q: dict) -> Ref:
    return Ref("instrument", q["instrument_id"], q)


def _order(b: Bundle, account: dict, order: dict) -> Ref:
    return Ref.of("order", order, _account(b, account))


def _watchlist(b: Bundle, wl: dict) -> Ref:
    return Ref.of("watchlist", wl, _client(b))


def _alert(b: Bundle, alert: dict) -> Ref:
    return Ref.of("alert", alert, _client(b))


def account_name(b: Bundle, account: dict, rng: random.Random) -> str:
    """'my IRA', 'my joint account', 'the account ending in 4821' (kinds are unique per client). A Roth
    IRA is an IRA too: a client who holds both (a closed one included) calls the other one
    'traditional IRA', or 'the IRA' could be either."""
    kind = KIND_WORDS[account["kind"]]
    if account["kind"] == "ira" and "roth_ira" in b["kinds"]:
        kind = f"traditional {kind}"
    last4 = account["account_number"][-4:]
    forms = [f"my {kind}", f"my {kind}", f"the {kind}", f"my account ending in {last4}",
             f"my {kind} ending in {last4}"]
    if len(b["accounts"]) == 1:
        forms += ["my brokerage account", "my account"]
    return rng.choice(forms)


def ins_name(q: dict, rng: random.Random) -> str:
    """A ticker or the company's short name."""
    if q["kind"] == "etf" or q["short"] == q["symbol"]:
        return q["symbol"]
    if len(q["symbol"]) == 1:  # a one-letter ticker alone ('every trade in T') reads as a stray letter
        return rng.choice([q["short"], q["short"], f"{q['short']} ({q['symbol']})"])
    return rng.choice([q["symbol"], q["short"], q["short"], f"{q['short']} ({q['symbol']})"])


def shares(n: int) -> str:
    return "1 share" if n == 1 else f"{n} shares"


SPLIT = 0.45  # share of requests that leave a required value to a sentence of its own (`Ask.detail`)


def _split(rng: random.Random) -> bool:
    return rng.random() < SPLIT


def _in_account(b: Bundle, name: str, rng: random.Random) -> str | None:
    """The sentence naming the account, when the client has several (else nothing is left to ask)."""
    if len(b["accounts"]) < 2:
        return None
    return rng.choice([f"In {name}.", f"I mean {name}.", f"It's {name}.", f"{_cap(name)}, please.",
                       f"That's for {name}."])


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _amount(x: float, words: tuple[str, ...] = NO_AMOUNT) -> Any:
    """A balance (or a profit or loss) as a fact: zero is also stated in words ('no cash', 'nothing')."""
    return one_of(x, *words) if x == 0 else x


def _order_words(order: dict, b: Bundle, rng: random.Random) -> str:
    """'my open order to buy 20 shares of Coca-Cola', 'the stop order on 15 MSFT shares'."""
    q = b["quotes"][order["instrument_id"]]
    name = ins_name(q, rng)
    what = {"limit": "limit order", "stop": "stop order", "market": "order"}[order["order_type"]]
    verb = order["side"]
    said = rng.choice([f"my open {what} to {verb} {shares(order['quantity'])} of {name}",
                       f"the {what} to {verb} {shares(order['quantity'])} of {name}",
                       f"my {verb} {what} for {order['quantity']} {name} shares"])
    if len(b["accounts"]) > 1:  # which account it is in, or an agent searches them all
        account = next(a for a in b["accounts"] if a["account_id"] == order["account_id"])
        said += f" in {account_name(b, account, rng)}"
    return said


def _order_args(ref: Ref) -> dict[str, Any]:
    """An order looked up in its account's list of orders of its status: the default page (the 20
    newest) when it is well inside it, else a longer one, so that the gold call is the one an agent
    makes."""
    args = {"account_id": ref.owner.key, "status": ref.entity["status"]}
    same = [o["order_id"] for o in ref.owner.entity["orders"] if o["status"] == ref.entity["status"]]
    return args if same.index(ref.key) < 15 else {**args, "limit": 100}


def _tradable(b: Bundle) -> list[dict]:
    return [q for q in b["market"] if not q["halted"]]


def _nameable_orders(account: dict, status: str) -> list[dict]:
    """Orders of a status whose side, instrument and quantity no other order of the account shares."""
    orders = account["orders"]
    key = lambda o: (o["side"], o["instrument_id"], o["quantity"])  # noqa: E731
    return [o for o in orders if o["status"] == status and sum(key(x) == key(o) for x in orders) == 1]


def _size(price: float, budget: float, rng: random.Random) -> int | None:
    counts = [n for n in SHARE_COUNTS if n * price <= budget]
    return rng.choice(counts[-6:]) if counts else None


def _price(x: float) -> float:
    """A price as a person picks one: whole dollars above $20, else dimes."""
    return float(round(x)) if x > 20 else round(x, 1)


# -- goals: accounts -------------------------------------------------------------------------------

goals = Goals()


@goals.add("list_accounts", 0.5)
def list_accounts(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({"client_id": b["client"]["client_id"]},
               say=rng.choice(["Which accounts do I have with you, and how much cash is in each?",
                               "Can you list my brokerage accounts with their cash balances?",
                               "I'd like an overview of my accounts: how much uninvested cash does each hold?",
                               "What accounts are open under my name, and what's the cash in them?",
                               "Remind me which accounts I have here and the cash sitting in each one."]),
               terse=rng.choice(["My accounts and cash?", "List my accounts and the cash in each."]),
               refs=(_client(b),), facts=lambda r: [_amount(a["cash"]) for a in r if a["status"] == "active"][:4])


@goals.add("list_accounts", 0.6)
def buying_power(b: Bundle, rng: random.Random) -> Ask | None:
    """An account's buying power: the account list shows it, so no other call is needed."""
    account = rng.choice(b["accounts"])
    name, aid = account_name(b, account, rng), account["account_id"]
    args, refs = {"client_id": b["client"]["client_id"]}, (_client(b),)
    facts = lambda r: [_amount(a["buying_power"]) for a in r if a["account_id"] == aid]  # noqa: E731
    which = _in_account(b, name, rng)
    if which and _split(rng):
        return Ask(args, say=rng.choice(["How much buying power do I have?", "What's my buying power right now?",
                                         "Before I trade, how much can I spend?"]),
                   terse=f"Buying power in {name}?", detail=which, refs=refs, facts=facts)
    return Ask(args, say=rng.choice([f"How much buying power do I have in {name}?",
                                     f"What's my buying power in {name} right now?",
                                     f"Before I trade, how much can I spend in {name}?",
                                     f"I'm thinking of buying something. What's available to trade with in {name}?",
                                     f"Could you check how much buying power is left in {name}?"]),
               terse=rng.choice([f"Buying power in {name}?", f"{_cap(name)}: buying power?"]), refs=refs, facts=facts)


@goals.add("get_account_summary", 1.3)
def get_account_summary(b: Bundle, rng: random.Random) -> Ask | None:
    account = rng.choice(b["accounts"])
    name = account_name(b, account, rng)
    args, refs = {"account_id": account["account_id"]}, (_client(b), _account(b, account))
    mode = rng.choice(["equity", "realized", "unrealized", "reserved", "withdraw", "unsettled"])
    if mode == "equity":
        return Ask(args, say=rng.choice([f"What's {name} worth in total, cash and holdings together?",
                                         f"How much is {name} worth right now, including the cash?",
                                         f"Can you tell me the total value of {name}?"]),
                   terse=rng.choice([f"Total value of {name}?", f"Equity in {name}?"]),
                   refs=refs, facts=lambda r: [_amount(r["equity"])])
    if mode == "realized":
        if not account["fills"]:
            return None
        return Ask(args, say=rng.choice([f"How much profit or loss have I actually realised from sales in {name}?",
                                         f"What's my realised gain or loss so far in {name}?",
                                         f"For taxes: how much have I realised in profit or loss in {name}?"]),
                   terse=f"Realised P&L in {name}?", refs=refs, facts=lambda r: [_amount(r["realized_pnl"], NO_PNL)])
    if mode == "unrealized":
        if not account["positions"]:
            return None
        return Ask(args, say=rng.choice([f"Am I up or down on what I hold in {name}? By how much, on paper?",
                                         f"What's the unrealised profit or loss across {name}?",
                                         f"Overall, how much are my holdings in {name} up or down on paper?"]),
                   terse=f"Unrealised P&L in {name}?", refs=refs,
                   facts=lambda r: [_amount(r["unrealized_pnl"], NO_PNL)])
    if mode == "withdraw":
        return Ask(args, say=rng.choice([f"How much could I withdraw from {name} today?",
                                         f"What's the most I can take out of {name} to my bank right now?",
                                         f"If I wanted to move money from {name} back to my bank today, how much "
                                         "is available?"]),
                   terse=f"Withdrawable from {name}?", refs=refs,
                   facts=lambda r: [_amount(r["available_to_withdraw"])])
    if mode == "unsettled":
        if not account["summary"]["unsettled_cash"]:
            return None
        return Ask(args, say=rng.choice([f"How much of the cash in {name} hasn't settled yet, and how much has?",
                                         f"Some money in {name} is still settling. How much, and how much is "
                                         "already settled?",
                                         f"What are my settled and unsettled cash balances in {name}?"]),
                   terse=f"Settled and unsettled cash in {name}?", refs=refs,
                   facts=lambda r: [r["unsettled_cash"], r["settled_cash"]])
    if sum(1 for o in account["orders"] if o["status"] == "open" and o.get("reserved_cash")) < 2:
        return None  # one order's reservation shows in the order list; several add up only here
    return Ask(args, say=rng.choice([f"How much cash is tied up by my open orders in {name}?",
                                     f"Some of my cash in {name} seems held back. How much is reserved by orders?",
                                     f"What amount do my pending buy orders reserve in {name}?"]),
               terse=f"Cash reserved by orders in {name}?", refs=refs, facts=lambda r: [r["reserved_cash"]])


@goals.add("get_positions", 1.2)
def get_positions(b: Bundle, rng: random.Random) -> Ask | None:
    held = [a for a in b["accounts"] if a["positions"]]
    if not held:
        return None
    account = rng.choice(held)
    name = account_name(b, account, rng)
    args, refs = {"account_id": account["account_id"]}, (_client(b), _account(b, account))
    held_counts = lambda r: [x for p in r[:4] for x in (_called(p), p["quantity"])]  # noqa: E731
    held = lambda r: [_called(p) for p in r[:4]]  # noqa: E731
    which = _in_account(b, name, rng)
    if which and _split(rng):
        if rng.random() < 0.5:
            return Ask(args, say="What do I hold, and how many shares of each?",
                       terse=f"Positions and share counts in {name}?", detail=which, refs=refs, facts=held_counts)
        return Ask(args, say=rng.choice(["Can you list my positions?",
                                         "Which stocks or funds do I own at the moment?"]),
                   terse=f"Positions in {name}?", detail=which, refs=refs, facts=held)
    if rng.random() < 0.6:
        if rng.random() < 0.5:
            return Ask(args, say=rng.choice([f"What do I hold in {name}, and how many shares of each?",
                                             f"What's in {name} at the moment? Symbols and share counts, please."]),
                       terse=f"Positions and share counts in {name}?", refs=refs, facts=held_counts)
        return Ask(args, say=rng.choice([f"Can you list my positions in {name}?",
                                         f"I forget what's in {name}. Which stocks or funds do I own there?",
                                         f"Show me the holdings of {name}, please."]),
                   terse=rng.choice([f"Positions in {name}?", f"Holdings of {name}?"]), refs=refs, facts=held)
    p = rng.choice(account["positions"])
    q = b["quotes"][p["instrument_id"]]
    said = ins_name(q, rng)
    return Ask(args, say=rng.choice([f"How is my {said} position in {name} doing? What did I pay on average?",
                                     f"What's my average cost on {said} in {name}, and am I up or down on it?",
                                     f"Could you check my {said} shares in {name}: average price and gain or loss?"]),
               terse=f"{said} in {name}: average cost and P&L?", refs=refs,
               facts=lambda r: [x for pos in r if pos["instrument_id"] == p["instrument_id"]
                                for x in (pos["average_cost"], pos["unrealized_pnl"])])


@goals.add("deposit_cash", 0.8)
def deposit_cash(b: Bundle, rng: random.Random) -> Ask | None:
    account = rng.choice(b["accounts"])
    name = account_name(b, account, rng)
    amount = float(rng.choice([250, 500, 1000, 1500, 2000, 2500, 5000, 7500, 10000]))
    said = money(amount)
    args, refs = {"account_id": account["account_id"], "amount": amount}, (_client(b), _account(b, account))
    if rng.random() < 0.4:
        return Ask(args, say=rng.choice([f"I'd like to move some money into {name} from my bank.",
                                         f"Can you add cash to {name} for me?",
                                         f"I want to fund {name}."]),
                   terse=f"Deposit {said} into {name}.",
                   detail=rng.choice([f"{said}, please.", f"Make it {said}.", f"Let's do {said}."]),
                   refs=refs, mentions=(said,))
    return Ask(args, say=rng.choice([f"Please deposit {said} into {name} from my linked bank account.",
                                     f"Move {said} from my bank into {name}, please.",
                                     f"Could you add {said} of cash to {name}?",
                                     f"I just got paid. Put {said} into {name}."]),
               terse=rng.choice([f"Deposit {said} into {name}.", f"Add {said} to {name}."]), refs=refs,
               mentions=(said,))


def _round_down(x: float, step: int) -> float:
    return float(int(x // step) * step)


@goals.add("withdraw_cash", 1.0)
def withdraw_cash(b: Bundle, rng: random.Random) -> Ask | None:
    """Settled cash out to the bank: an amount within what can be withdrawn, all of it, or a larger
    amount (the cash, unsettled money included) that is refused, with the settled part taken instead."""
    options = [a for a in b["accounts"] if a["summary"]["available_to_withdraw"] >= 100]
    if not options:
        return None
    account = rng.choice(options)
    name = account_name(b, account, rng)
    summary = account["summary"]
    available, refs = summary["available_to_withdraw"], (_client(b), _account(b, account))
    # the amount that can go out now shows only in the summary: a request for all of it, or for what
    # has settled, reads it first (the account list shows the cash, unsettled money included)
    check = (("get_account_summary", {"account_id": account["account_id"]}),)
    mode = rng.choice(["amount", "amount", "all", "unsettled"])
    if mode == "unsettled" and summary["unsettled_cash"] >= 100 and not summary["reserved_cash"] \
            and summary["cash"] > available + 50:  # what holds the rest back is settlement, not open orders
        asked = _round_down(summary["cash"], 100)
        if asked <= available:
            return None
        return Ask({"account_id": account["account_id"], "amount": available},
                   say=rng.choice([f"Please withdraw {money(asked)} from {name} to my bank. If you can't send all "
                                   "of it, send whatever has settled and tell me how much went out.",
                                   f"I need {money(asked)} from {name} in my bank account. If part of it isn't "
                                   "available yet, withdraw just what you can and tell me the amount."]),
                   terse=f"Withdraw {money(asked)} from {name}, or as much as has settled; how much went out?",
                   refs=refs, mentions=(money(asked),), prior=check,
                   facts=lambda r: [r["amount"]] if r["available_to_withdraw"] == 0 else [])
    if mode == "all":
        return Ask({"account_id": account["account_id"], "amount": available},
                   say=rng.choice([f"Withdraw everything I can from {name} to my bank, and tell me how much that is.",
                                   f"Send all the cash that can be withdrawn from {name} to my bank account. How "
                                   "much was it?",
                                   f"Please move as much as you're able to out of {name} and into my bank; let me "
                                   "know the amount."]),
                   terse=f"Withdraw all I can from {name}; how much?", refs=refs, prior=check,
                   facts=lambda r: [r["amount"]] if r["available_to_withdraw"] == 0 else [])
    amount = _round_down(available * rng.choice([0.3, 0.5, 0.8]), 100 if available >= 1000 else 50)
    if amount < 50:
        return None
    said = money(amount)
    args = {"account_id": account["account_id"], "amount": amount}
    if _split(rng):
        return Ask(args, say=rng.choice([f"I'd like to take some money out of {name}.",
                                         f"Can you send some cash from {name} back to my bank?"]),
                   terse=f"Withdraw {said} from {name}.",
                   detail=rng.choice([f"{said}, please.", f"Make it {said}.", f"Withdraw {said}."]),
                   refs=refs, mentions=(said,))
    return Ask(args, say=rng.choice([f"Withdraw {said} from {name} to my bank account.",
                                     f"Please move {said} out of {name} and back to my bank.",
                                     f"Could you send {said} from {name} to my linked bank account?",
                                     f"I need {said} from {name} transferred to my bank."]),
               terse=rng.choice([f"Withdraw {said} from {name}.", f"{said} out of {name} to my bank."]),
               refs=refs, mentions=(said,))


@goals.add("list_cash_transfers", 0.8)
def list_cash_transfers(b: Bundle, rng: random.Random) -> Ask | None:
    options = [a for a in b["accounts"] if a["transfers"]]
    if not options:
        return None
    account = rng.choice(options)
    name = account_name(b, account, rng)
    transfers, refs = account["transfers"], (_client(b), _account(b, account))
    args = {"account_id": account["account_id"]}
    pending = [t for t in transfers if t["status"] == "pending"]
    withdrawals = [t for t in transfers if t["kind"] == "withdrawal"]
    mode = rng.choice(["pending", "last", "withdrawals"])
    if mode == "pending" and len(pending) == 1:
        t = pending[0]
        said = money(t["amount"])
        return Ask(args, say=rng.choice([f"Has my {said} deposit into {name} settled yet? If not, when will it?",
                                         f"When does the {said} I deposited into {name} settle?",
                                         f"I put {said} into {name} today. When can I withdraw that money?"]),
                   terse=f"{said} deposit to {name}: settles when?", refs=refs, mentions=(said,),
                   facts=lambda r: [x["settles_on"] for x in r if x["transfer_id"] == t["transfer_id"]])
    if mode == "withdrawals" and 1 <= len(withdrawals) <= 4:
        return Ask({**args, "kind": "withdrawal"},
                   say=rng.choice([f"What withdrawals have I made from {name}? Amounts and dates, please.",
                                   f"When did I take money out of {name}, and how much each time?",
                                   f"List the cash I've withdrawn from {name} to my bank."]),
                   terse=f"Withdrawals from {name}?", refs=refs,
                   facts=lambda r: [x for t in r[:4] for x in (t["amount"], t["created_at"][:10])])
    deposits = [t for t in transfers if t["kind"] == "deposit"]
    if not deposits:
        return None
    return Ask({**args, "kind": "deposit"},
               say=rng.choice([f"When did I last deposit money into {name}, and how much was it?",
                               f"What was my most recent deposit to {name}? The date and the amount.",
                               f"How much did I last put into {name} from my bank, and on what day?"]),
               terse=f"Last deposit to {name}: when, how much?", refs=refs,
               facts=lambda r: [r[0]["amount"], r[0]["created_at"][:10]])


# -- goals: market data ----------------------------------------------------------------------------

@goals.add("get_quote", 1.2)
def get_quote(b: Bundle, rng: random.Random) -> Ask | None:
    q = rng.choice(b["market"])
    said = ins_name(q, rng)
    args, refs = {"instrument_id": q["instrument_id"]}, (_instrument(q),)
    if q["halted"]:
        return Ask(args, say=rng.choice([f"Why is trading in {said} halted?",
                                         f"{said} is halted, isn't it? What's the reason?",
                                         f"What's behind the trading halt on {said}?"]),
                   terse=f"Why is {said} halted?", refs=refs, mentions=(said,), facts=lambda r: [r["halt_reason"]])
    mode = rng.choice(["spread", "change", "change", "averages", "trend", "range", "volume"])
    if mode == "spread":
        return Ask(args, say=rng.choice([f"What are the bid and ask on {said} right now?",
                                         f"Could you get me the current bid and ask for {said}?",
                                         f"I want to see the spread on {said}: bid and ask?"]),
                   terse=f"{said} bid/ask?", refs=refs, mentions=(said,), facts=lambda r: [r["bid"], r["ask"]])
    if mode == "change":  # the change as asked: in percent, in dollars, both, or either where the words leave it open
        unit = rng.choice(["percent", "dollars", "both", "either", "either"])
        if unit == "percent":
            return Ask(args, say=rng.choice([f"How much has {said} moved today, in percent?",
                                             f"By what percentage is {said} up or down today?",
                                             f"What's {said}'s percent change since yesterday's close?"]),
                       terse=f"{said} % change today?", refs=refs, mentions=(said,),
                       facts=lambda r: [quantity(r["change_percent"], "%")])
        if unit == "dollars":
            return Ask(args, say=rng.choice([f"How many dollars is {said} up or down today?",
                                             f"What's {said}'s change since yesterday's close, in dollars?",
                                             f"By how much per share has {said} moved today, in dollars?"]),
                       terse=f"{said} change today, in dollars?", refs=refs, mentions=(said,),
                       facts=lambda r: [quantity(r["change"], "USD")])
        if unit == "both":
            return Ask(args, say=rng.choice([f"Is {said} up or down today? Give me the change in dollars and in "
                                             "percent.",
                                             f"How much has {said} moved since yesterday's close, both in dollars and "
                                             "as a percentage?"]),
                       terse=f"{said} change today, $ and %?", refs=refs, mentions=(said,),
                       facts=lambda r: [quantity(r["change"], "USD"), quantity(r["change_percent"], "%")])
        return Ask(args, say=rng.choice([f"Is {said} up or down today, and by how much?",
                                         f"What's {said}'s change since yesterday's close?",
                                         f"How has {said} done today?"]),
                   terse=f"{said} change today?", refs=refs, mentions=(said,),
                   facts=lambda r: [one_of(quantity(r["change"], "USD"), quantity(r["change_percent"], "%"))])
    if mode == "averages":
        return Ask(args, say=rng.choice([f"What are the 5-day and 20-day moving averages of {said}?",
                                         f"Can you give me {said}'s 5- and 20-day moving averages?",
                                         f"I'm looking at the trend in {said}. Where are its 5-day and 20-day "
                                         "moving averages?"]),
                   terse=f"{said} 5- and 20-day moving averages?", refs=refs, mentions=(said,),
                   facts=lambda r: [r["sma_5"], r["sma_20"]])
    if mode == "trend":
        return Ask(args, say=rng.choice([f"Is {said} trading above or below its 20-day moving average? Give me both "
                                         "numbers.",
                                         f"Where is {said} now compared with its 20-day moving average?"]),
                   terse=f"{said} vs its 20-day average?", refs=refs, mentions=(said,),
                   facts=lambda r: [r["last"], r["sma_20"]])
    if mode == "range":
        return Ask(args, say=rng.choice([f"What's {said}'s trading range today: the high and the low?",
                                         f"How high and how low has {said} traded today?",
                                         f"Give me today's range for {said}."]),
                   terse=f"{said} day range?", refs=refs, mentions=(said,),
                   facts=lambda r: [r["day_low"], r["day_high"]])
    return Ask(args, say=rng.choice([f"How many {said} shares have traded today?",
                                     f"What's the volume in {said} so far today?"]),
               terse=f"{said} volume today?", refs=refs, mentions=(said,), facts=lambda r: [r["volume"]])


@goals.add("search_instruments", 1.0)
def last_price(b: Bundle, rng: random.Random) -> Ask | None:
    """The last price of an instrument that trades: the search that finds it shows the price and
    that it is not halted, so no other call is needed (why one is halted, only its quote says). The
    price is asked for as a price: 'where is it trading?' also reads as the exchange it lists on."""
    q = rng.choice(_tradable(b))
    said, iid = ins_name(q, rng), q["instrument_id"]
    args = {"query": q["symbol"]}  # as the instrument look-up searches
    facts = lambda r: [i["last"] for i in r if i["instrument_id"] == iid]  # noqa: E731
    if rng.random() < 0.2:
        # 'is it trading right now?' while the market is closed reads as 'is the market open?', whose
        # right answer ('no, it's closed') states no price: then the question is about a halt alone
        asks = [f"Is there a trading halt on {said}? If not, what price is it trading at?"]
        if b["status"]["market_open"]:
            asks += [f"Is {said} trading right now? If it is, at what price?",
                     f"Can I trade {said} at the moment, or is it halted? If it trades, what's the last price?"]
        return Ask(args, say=rng.choice(asks),
                   terse=f"Is {said} halted? Else its price?", mentions=(said,), facts=facts)
    return Ask(args, say=rng.choice([f"What's {said} trading at?", f"What's the latest price of {said}?",
                                     f"Can you check the current price of {said} for me?",
                                     f"What price is {said} trading at right now?",
                                     f"I'm curious, what does a share of {said} cost at the moment?"]),
               terse=rng.choice([f"{said} price?", f"Quote for {said}?", f"Last price of {said}?"]),
               mentions=(said,), facts=facts)


@goals.add("get_price_history", 1.0)
def get_price_history(b: Bundle, rng: random.Random) -> Ask | None:
    iid = rng.choice(sorted(b["history"]))
    days = b["history"][iid]
    if len(days) < 12:
        return None
    q = b["quotes"][iid]
    said = ins_name(q, rng)
    refs = (_instrument(q),)
    if rng.random() < 0.5:
        d = rng.choice(days[:-1])
        when = dt.date.fromisoformat(d["date"])
        words = full_date(when)
        args = {"instrument_id": iid, "start_date": d["date"], "end_date": d["date"]}
        if _split(rng):
            return Ask(args, say=rng.choice([f"I need a closing price for {said} on a past day.",
                                             f"Can you look up where {said} closed on a particular day?"]),
                       terse=f"{said} close on {words}?",
                       detail=rng.choice([f"The day is {words}.", f"On {words}.", f"For {words}, please."]),
                       refs=refs, mentions=(day(when),), facts=lambda r: [r["days"][0]["close"]] if r["days"] else [])
        return Ask(args, say=rng.choice([f"What did {said} close at on {words}?",
                                         f"Can you look up {said}'s closing price on {words}?",
                                         f"I need the close of {said} for {words}.",
                                         f"Where did {said} finish the day on {words}?"]),
                   terse=f"{said} close on {words}?", refs=refs, mentions=(day(when),),
                   facts=lambda r: [r["days"][0]["close"]] if r["days"] else [])
    i = rng.randrange(0, len(days) - 10)
    j = i + rng.choice([4, 5, 7, 9])
    first, last = dt.date.fromisoformat(days[i]["date"]), dt.date.fromisoformat(days[j]["date"])
    a_words, b_words = day(first), full_date(last)
    args = {"instrument_id": iid, "start_date": days[i]["date"], "end_date": days[j]["date"]}
    return Ask(args, say=rng.choice([f"What were the highest and lowest prices of {said} between {a_words} and "
                                     f"{b_words}?",
                                     f"Give me {said}'s trading range from {a_words} to {b_words}: the high and "
                                     "the low.",
                                     f"How high and how low did {said} go from {a_words} through {b_words}?"]),
               terse=f"{said} high and low, {a_words} to {b_words}?", refs=refs,
               mentions=(day(first), day(last)), facts=lambda r: [r["high"], r["low"]])


@goals.add("search_instruments", 0.6)
def search_instruments(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.3:
        # the default page (10) lists every ETF where there are no more: a longer page is asked only then
        etfs = sum(q["kind"] == "etf" for q in b["market"])
        return Ask({"kind": "etf"} if etfs <= 10 else {"kind": "etf", "limit": 20},
                   say=rng.choice(["Which ETFs can I trade with you?", "What exchange-traded funds do you offer?",
                                   "I'd rather buy funds than single stocks. Which ETFs are there?"]),
                   terse="List the ETFs.", facts=lambda r: [_called(i) for i in r][:5])
    sector = rng.choice([x for x in b["sectors"] if x["stocks"] >= 2])["sector"]
    return Ask({"sector": sector, "kind": "stock"},
               say=rng.choice([f"Which {sector} stocks can I buy here?",
                               f"Can you list the stocks you have in the {sector} sector?",
                               f"I want more exposure to {sector}. What individual stocks are available?",
                               f"Show me the {sector} stocks you have."]),
               terse=f"{sector} stocks?", mentions=(sector,),
               facts=lambda r: [_called(i) for i in r][:5])


@goals.add("list_sectors", 0.3)
def list_sectors(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({}, say=rng.choice(["Which sectors can I browse stocks and funds by?",
                                   "What sectors do your instruments cover?",
                                   "How are your stocks grouped? Which sectors are there?"]),
               terse="List the sectors.", facts=lambda r: [x["sector"] for x in r][:6])


@goals.add("get_market_status", 0.6)
def get_market_status(b: Bundle, rng: random.Random) -> Ask | None:
    status = b["status"]
    if rng.random() < 0.3:
        return Ask({}, say=rng.choice(["If I sell something today, on what day will the cash settle?",
                                       "When would a trade I make today settle?",
                                       "What settlement date would today's trades get?"]),
                   terse="Settlement date for trades today?", facts=lambda r: [r["trades_today_settle_on"]])
    if status["market_open"]:
        return Ask({}, say=rng.choice(["Is the stock market open right now? Until when?",
                                       "Can I still trade today? When does the market close?",
                                       "Is the market open at the moment, and what time does it close?"]),
                   terse="Market open? Closes when?", facts=lambda r: [r["closes_at"]] if r["market_open"] else [])
    return Ask({}, say=rng.choice(["Is the stock market open right now? If not, when does it open?",
                                   "Can I trade at the moment, or is the market closed? When's the next open?",
                                   "When does the market open next?"]),
               terse="Market open? If not, next open?",
               facts=lambda r: [r["next_open"]] if not r["market_open"] else [])


# -- goals: orders ----------------------------------------------------------------------------------

def _spendable(b: Bundle) -> list[dict]:
    return [a for a in b["accounts"] if a["summary"]["buying_power"] >= 300]


@goals.add("place_order", 2.2)
def place_order(b: Bundle, rng: random.Random) -> Ask | None:
    mode = rng.choices(["market_buy", "limit_buy", "sell", "stop", "limit_sell", "funded_buy", "queued"],
                       weights=[4, 4, 4, 2, 2, 1, 2])[0]
    if mode in ("sell", "stop", "limit_sell"):
        return _sell(b, rng, mode)
    if mode == "funded_buy":
        return _funded_buy(b, rng)
    if mode == "queued":
        return _queued_buy(b, rng)
    accounts = _spendable(b)
    if not accounts:
        return None
    account = rng.choice(accounts)
    q = rng.choice(_tradable(b))
    budget = account["summary"]["buying_power"] * 0.2
    name, said = account_name(b, account, rng), ins_name(q, rng)
    refs = (_client(b), _account(b, account), _instrument(q))
    if mode == "market_buy":
        n = _size(q["ask"], budget, rng)
        if n is None:
            return None
        args = {"account_id": account["account_id"], "instrument_id": q["instrument_id"], "side": "buy",
                "quantity": n}
        if _split(rng):
            return Ask(args, say=rng.choice([f"I'd like to buy some {said} in {name} at market.",
                                             f"Can you place a market buy for {said} in {name}?",
                                             f"I want to add {said} to {name}."]),
                       terse=f"Buy {n} {said} at market in {name}.",
                       detail=rng.choice([f"{_cap(shares(n))}.", f"Make it {shares(n)}, at market.",
                                          f"Let's say {shares(n)}."]),
                       refs=refs, mentions=(str(n), said))
        says = [f"Buy {shares(n)} of {said} in {name} at market.",
                f"Please buy {shares(n)} of {said} for {name}, at the market price.",
                f"Go ahead and purchase {shares(n)} of {said} in {name} at market."]
        if b["status"]["market_open"]:  # while it is closed the order waits for the open: not 'right away'
            says.append(f"I'd like to pick up {shares(n)} of {said} in {name} right away.")
        return Ask(args, say=rng.choice(says),
                   terse=f"Buy {n} {said} at market in {name}.", refs=refs, mentions=(str(n), said))
    limit = _price(q["bid"] * rng.choice([0.9, 0.93, 0.95]))
    n = _size(limit, budget, rng)
    if n is None or limit >= q["bid"]:
        return None
    gtc = rng.random() < 0.5
    args = {"account_id": account["account_id"], "instrument_id": q["instrument_id"], "side": "buy",
            "quantity": n, "order_type": "limit", "limit_price": limit, **({"time_in_force": "gtc"} if gtc else {})}
    # a day order placed while the market is closed works in the next session, not 'today'
    day_only = " Just for today." if b["status"]["market_open"] else " A day order is fine."
    until = rng.choice([" Keep it open until I cancel it.", " Good till cancelled.",
                        " Leave it working until cancelled."]) if gtc else rng.choice(["", "", day_only])
    mention = ("cancel",) if gtc else ()
    if rng.random() < 0.35:
        return Ask(args, say=rng.choice([f"I want to buy {shares(n)} of {said} in {name}, but only if it gets cheaper.",
                                         f"Set up a limit order in {name} to buy {shares(n)} of {said}."]),
                   terse=f"Limit buy {n} {said} at {money(limit)} in {name}.{until}",
                   detail=rng.choice([f"My limit is {money(limit)} a share.{until}",
                                      f"Put the limit at {money(limit)}.{until}"]),
                   refs=refs, mentions=(str(n), said, money(limit)) + mention)
    return Ask(args, say=rng.choice([f"Place a limit order in {name} to buy {shares(n)} of {said} at "
                                     f"{money(limit)}.{until}",
                                     f"Buy {shares(n)} of {said} in {name} if it drops to {money(limit)}; use a limit "
                                     f"order.{until}",
                                     f"Could you put in a bid for {shares(n)} of {said} at {money(limit)} a share in "
                                     f"{name}?{until}"]),
               terse=f"Limit buy {n} {said} at {money(limit)} in {name}.{until}", refs=refs,
               mentions=(str(n), said, money(limit)) + mention)


def _sell(b: Bundle, rng: random.Random, mode: str) -> Ask | None:
    options = [(a, p) for a in b["accounts"] for p in a["positions"]
               if p["available_quantity"] >= 2 and not b["quotes"][p["instrument_id"]]["halted"]]
    if not options:
        return None
    account, p = rng.choice(options)
    q = b["quotes"][p["instrument_id"]]
    n = rng.choice([x for x in SHARE_COUNTS if x <= p["available_quantity"] // 2] or [1])
    name, said = account_name(b, account, rng), ins_name(q, rng)
    refs = (_client(b), _account(b, account), _instrument(q))
    base = {"account_id": account["account_id"], "instrument_id": q["instrument_id"], "side": "sell", "quantity": n}
    if mode == "sell":
        if _split(rng):
            return Ask(base, say=rng.choice([f"I want to sell part of my {said} position in {name} at market.",
                                             f"Please sell some of the {said} I hold in {name}."]),
                       terse=f"Sell {n} {said} in {name}.",
                       detail=rng.choice([f"Sell {shares(n)}.", f"{_cap(shares(n))}, please.",
                                          f"Just {shares(n)} for now."]),
                       refs=refs, mentions=(str(n), said))
        says = [f"Sell {shares(n)} of my {said} in {name} at market.",
                f"I want to take some profit: sell {shares(n)} of {said} in {name}.",
                f"Could you sell {shares(n)} of the {said} I hold in {name}?"]
        if b["status"]["market_open"]:  # while it is closed the order waits for the open: not 'now'
            says.append(f"Please sell {shares(n)} of {said} from {name} now.")
        return Ask(base, say=rng.choice(says),
                   terse=f"Sell {n} {said} in {name}.", refs=refs, mentions=(str(n), said))
    if mode == "stop":
        stop = _price(q["bid"] * rng.choice([0.85, 0.9, 0.92]))
        if stop >= q["bid"]:
            return None
        args = {**base, "order_type": "stop", "stop_price": stop, "time_in_force": "gtc"}
        if _split(rng):
            return Ask(args, say=rng.choice([f"I want a good-till-cancelled stop order to sell {shares(n)} of {said} "
                                             f"in {name}.",
                                             f"Protect {shares(n)} of my {said} in {name} with a stop order that stays "
                                             "until I cancel it."]),
                       terse=f"GTC stop sell {n} {said} at {money(stop)} in {name}.",
                       detail=rng.choice([f"Put the stop at {money(stop)}.", f"Trigger it at {money(stop)}.",
                                          f"Stop price {money(stop)}."]),
                       refs=refs, mentions=(str(n), said, money(stop)))
        return Ask(args, say=rng.choice([f"Protect my {said} in {name}: put a stop at {money(stop)} to sell "
                                         f"{shares(n)}, good till cancelled.",
                                         f"Set a good-till-cancelled stop order to sell {shares(n)} of {said} in "
                                         f"{name} if it falls to {money(stop)}.",
                                         f"If {said} drops to {money(stop)}, sell {shares(n)} from {name}. Use a stop "
                                         "order that stays until I cancel it."]),
                   terse=f"GTC stop sell {n} {said} at {money(stop)} in {name}.", refs=refs,
                   mentions=(str(n), said, money(stop)))
    limit = _price(q["ask"] * rng.choice([1.06, 1.1, 1.15]))
    args = {**base, "order_type": "limit", "limit_price": limit}
    # while the market is closed (a weekend, after the close) the day order works in the next session
    today = "for today" if b["status"]["market_open"] else "as a day order"
    return Ask(args, say=rng.choice([f"Put in a limit order to sell {shares(n)} of {said} from {name} at "
                                     f"{money(limit)}, {today}.",
                                     f"Offer {shares(n)} of my {said} in {name} at {money(limit)} a share; a day "
                                     "order is fine.",
                                     f"I'd sell {shares(n)} of {said} in {name} if it reaches {money(limit)}. Place "
                                     f"a limit sell {today}."]),
               terse=f"Limit sell {n} {said} at {money(limit)} in {name}, day order.", refs=refs,
               mentions=(str(n), said, money(limit)))


def _queued_buy(b: Bundle, rng: random.Random) -> Ask | None:
    """A market buy while the market is closed: queued for the open, which the client asks about."""
    accounts = _spendable(b)
    if b["status"]["market_open"] or not accounts:
        return None
    account = rng.choice(accounts)
    q = rng.choice(_tradable(b))
    n = _size(q["ask"], account["summary"]["buying_power"] * 0.2, rng)
    if n is None:
        return None
    name, said = account_name(b, account, rng), ins_name(q, rng)
    args = {"account_id": account["account_id"], "instrument_id": q["instrument_id"], "side": "buy", "quantity": n}
    return Ask(args, say=rng.choice([f"Buy {shares(n)} of {said} in {name} at market. When will it actually "
                                     "execute?",
                                     f"Put in a market order for {shares(n)} of {said} in {name}, and tell me when "
                                     "it will go through.",
                                     f"I want {shares(n)} of {said} in {name} at the market price. If it can't fill "
                                     "right now, when will it?"]),
               terse=f"Market buy {n} {said} in {name}; executes when?",
               refs=(_client(b), _account(b, account), _instrument(q)), mentions=(str(n), said),
               facts=lambda r: [r["queued_until"]] if r["status"] == "open" and r.get("queued_until") else [])


def _funded_buy(b: Bundle, rng: random.Random) -> Ask | None:
    """Deposit first, then buy with the new cash: the purchase would not fit the buying power without it."""
    account = rng.choice(b["accounts"])
    q = rng.choice([x for x in _tradable(b) if 40 <= x["ask"] <= 700])
    power = account["summary"]["buying_power"]
    n = rng.choice([10, 15, 20, 25, 30])
    cost = n * q["ask"]
    if cost <= power:
        return None
    deposit = float(-(-(cost - power + 100) // 500) * 500)
    name, said = account_name(b, account, rng), ins_name(q, rng)
    args = {"account_id": account["account_id"], "instrument_id": q["instrument_id"], "side": "buy", "quantity": n}
    prior = (("deposit_cash", {"account_id": account["account_id"], "amount": deposit}),)
    return Ask(args, say=rng.choice([f"Deposit {money(deposit)} into {name} and then buy {shares(n)} of {said} "
                                     "with it at market.",
                                     f"I want {shares(n)} of {said} in {name}. Move {money(deposit)} in from my bank "
                                     "first, then place the market buy.",
                                     f"Add {money(deposit)} to {name}, then buy {shares(n)} of {said}."]),
               terse=f"Deposit {money(deposit)} to {name}, then buy {n} {said}.",
               refs=(_client(b), _account(b, account), _instrument(q)), prior=prior,
               mentions=(money(deposit), str(n), said))


@goals.add("list_orders", 1.0)
def list_orders(b: Bundle, rng: random.Random) -> Ask | None:
    account = rng.choice(b["accounts"])
    name = account_name(b, account, rng)
    refs = (_client(b), _account(b, account))
    opened = [o for o in account["orders"] if o["status"] == "open"]
    if opened or rng.random() < 0.3:
        return Ask({"account_id": account["account_id"], "status": "open"},
                   say=rng.choice([f"Which orders do I have open in {name}?",
                                   f"Do I have any orders still working in {name}? What are they?",
                                   f"List my pending orders in {name}, please.",
                                   f"What's sitting in the book for {name}? Any open orders?"]),
                   terse=f"Open orders in {name}?", refs=refs,
                   facts=lambda r: [x for o in r[:4] for x in (_called(o), o["quantity"])] or [NOTHING])
    cancelled = [o for o in account["orders"] if o["status"] in ("cancelled", "expired")]
    if not cancelled:
        return None
    status = rng.choice(sorted({o["status"] for o in cancelled}))
    return Ask({"account_id": account["account_id"], "status": status},
               say=rng.choice([f"Which of my orders in {name} ended up {status}?",
                               f"Show me the {status} orders in {name}.",
                               f"Can you list the orders in {name} that were {status}?"]),
               terse=f"{_cap(status)} orders in {name}?", refs=refs, mentions=(status,),
               facts=lambda r: [_called(o) for o in r[:5]])


@goals.add("list_fills", 0.5)
def fill_price(b: Bundle, rng: random.Random) -> Ask | None:
    """What a filled order was executed at, asked of the trade history like its fill time and a sale's
    realised P&L (`order_fills`): a conversation that asks both reads the one list, which the gates
    see as read before (the order list's average fill price would be a second read of what the
    fills already showed). Only an order with one fill, on the history's first page."""
    options = [(a, o) for a in b["accounts"] for o in _nameable_orders(a, "filled")
               if len(at := [i for i, f in enumerate(a["fills"]) if f["order_id"] == o["order_id"]]) == 1
               and at[0] < 15]
    if not options:
        return None
    account, order = rng.choice(options)
    q = b["quotes"][order["instrument_id"]]
    said, oid = ins_name(q, rng), order["order_id"]
    verb = {"buy": "bought", "sell": "sold"}[order["side"]]
    when = day(dt.date.fromisoformat(order["placed_at"][:10]))
    name = account_name(b, account, rng)
    return Ask({"account_id": account["account_id"]},
               say=rng.choice([f"On {when} I {verb} {shares(order['quantity'])} of {said} in {name}. What price did "
                               "that fill at?",
                               f"What was the fill price of my order on {when} for {shares(order['quantity'])} of "
                               f"{said} in {name}?",
                               f"Could you check at what price my {order['quantity']}-share {said} order from {when} "
                               f"in {name} was executed?"]),
               terse=f"Fill price of my {order['quantity']} {said} order on {when} in {name}?",
               refs=(_client(b), _account(b, account)), mentions=(str(order["quantity"]), said),
               facts=lambda r: [f["price"] for f in r if f["order_id"] == oid])


@goals.add("list_fills", 0.6)
def order_fills(b: Bundle, rng: random.Random) -> Ask | None:
    """When a filled order filled, and what a sale realised: the account's trade history shows each
    fill with its order, time and realised P&L in one call (the order look-up and the order in full
    would be a longer route to the same). Only an order whose fills are on the history's first page."""
    options = [(a, o) for a in b["accounts"] for o in _nameable_orders(a, "filled")
               if any(f["order_id"] == o["order_id"] for f in a["fills"][:15])
               and all(i < 15 for i, f in enumerate(a["fills"]) if f["order_id"] == o["order_id"])]
    if not options:
        return None
    account, order = rng.choice(options)
    oid = order["order_id"]
    q = b["quotes"][order["instrument_id"]]
    said = ins_name(q, rng)
    when = day(dt.date.fromisoformat(order["placed_at"][:10]))
    name = account_name(b, account, rng)
    refs = (_client(b), _account(b, account))
    n = order["quantity"]
    mine = lambda r: [f for f in r if f["order_id"] == oid]  # noqa: E731
    if order["side"] == "sell" and rng.random() < 0.6:
        return Ask({"account_id": account["account_id"]},
                   say=rng.choice([f"How much did I make or lose on selling {shares(n)} of {said} on {when} in {name}?",
                                   f"What profit or loss did my sale of {shares(n)} of {said} from {when} in {name} "
                                   "realise?"]),
                   terse=f"Realised P&L of my {n} {said} sale on {when} in {name}?", refs=refs,
                   mentions=(str(n), said),
                   facts=lambda r: [round(sum(f["realized_pnl"] or 0 for f in mine(r)), 2)] if mine(r) else [])
    verb = {"buy": "buy", "sell": "sale"}[order["side"]]
    return Ask({"account_id": account["account_id"]},
               say=rng.choice([f"When exactly did my {verb} of {shares(n)} of {said} from {when} in {name} fill?",
                               f"At what time did my {n}-share {said} {order['side']} order from {when} in {name} get filled?"]),
               terse=f"Fill time of my {n} {said} order on {when} in {name}?", refs=refs, mentions=(str(n), said),
               facts=lambda r: [f["filled_at"] for f in mine(r)][:4])


@goals.add("get_order", 0.6)
def get_order(b: Bundle, rng: random.Random) -> Ask | None:
    """What only the full order tells: when an order that did not fill was cancelled or expired (the
    order list shows when it was placed, not when it closed; a fill's time and a sale's realised P&L
    are in the trade history, `order_fills`)."""
    options = [(a, o) for a in b["accounts"] for status in ("cancelled", "expired")
               for o in _nameable_orders(a, status)]
    if not options:
        return None
    account, order = rng.choice(options)
    q = b["quotes"][order["instrument_id"]]
    said = ins_name(q, rng)
    when = day(dt.date.fromisoformat(order["placed_at"][:10]))
    name = account_name(b, account, rng)
    refs = (_client(b), _account(b, account), _order(b, account, order))
    n, side = order["quantity"], order["side"]
    # 'expired' is said of the order itself ('it expired'), 'cancelled' of what was done to it
    past, asked = {"cancelled": ("was cancelled", "was {} cancelled"),
                   "expired": ("expired", "did {} expire")}[order["status"]]
    return Ask({"order_id": order["order_id"]},
               say=rng.choice([f"My order from {when} to {side} {shares(n)} of {said} in {name} {past}. "
                               "When exactly did that happen?",
                               "At what time " + asked.format(f"my {n}-share {said} {side} order from {when} in "
                                                              f"{name}") + "?"]),
               terse="When " + asked.format(f"my {n} {said} {side} order of {when} in {name}") + "?", refs=refs,
               mentions=(str(n), said), facts=lambda r: [r["closed_at"]] if r["closed_at"] else [])


def _open_orders(b: Bundle, role: int) -> list[tuple[dict, dict]]:
    return [(a, o) for a in b["accounts"] for o in _nameable_orders(a, "open")
            if _number(o["order_id"]) % 2 == role and not b["quotes"][o["instrument_id"]]["halted"]]


@goals.add("modify_order", 1.0)
def modify_order(b: Bundle, rng: random.Random) -> Ask | None:
    options = _open_orders(b, MODIFY)
    if not options:
        return None
    account, order = rng.choice(options)
    q = b["quotes"][order["instrument_id"]]
    words = _order_words(order, b, rng)
    refs = (_client(b), _account(b, account), _order(b, account, order))
    if order["order_type"] == "limit":
        new = _price(order["limit_price"] * (0.97 if order["side"] == "buy" else 1.03))
        if new == order["limit_price"] or (order["side"] == "buy" and new >= q["ask"]) or \
                (order["side"] == "sell" and new <= q["bid"]):
            return None
        args, field_words = {"order_id": order["order_id"], "limit_price": new}, "limit price"
    elif order["order_type"] == "stop":
        new = _price(order["stop_price"] * 0.97)
        if new == order["stop_price"] or new >= q["bid"]:
            return None
        args, field_words = {"order_id": order["order_id"], "stop_price": new}, "stop price"
    else:
        return None
    if rng.random() < 0.35:
        return Ask(args, say=rng.choice([f"I want to change the {field_words} on {words}.",
                                         f"Can you adjust {words}? The {field_words} needs to change."]),
                   terse=f"Change {words}: {field_words} {money(new)}.",
                   detail=rng.choice([f"Make it {money(new)}.", f"Set it to {money(new)}."]),
                   refs=refs, mentions=(money(new),))
    return Ask(args, say=rng.choice([f"Change the {field_words} of {words} to {money(new)}.",
                                     f"Please move {words} to a {field_words} of {money(new)}.",
                                     f"Could you update {words} so the {field_words} is {money(new)}?"]),
               terse=f"{_cap(words)}: {field_words} to {money(new)}.", refs=refs, mentions=(money(new),))


@goals.add("cancel_order", 1.2)
def cancel_order(b: Bundle, rng: random.Random) -> Ask | None:
    options = _open_orders(b, CANCEL)
    if not options:
        return None
    account, order = rng.choice(options)
    words = _order_words(order, b, rng)
    refs = (_client(b), _account(b, account), _order(b, account, order))
    if _split(rng):
        return Ask({"order_id": order["order_id"]},
                   say=rng.choice(["I need to cancel one of my open orders.", "Can you cancel an order for me?",
                                   "There's an order I want to pull."]),
                   terse=f"Cancel {words}.",
                   detail=rng.choice([f"It's {words}.", f"{_cap(words)}.", f"The one I mean is {words}."]),
                   refs=refs)
    return Ask({"order_id": order["order_id"]},
               say=rng.choice([f"Please cancel {words}.", f"I changed my mind. Cancel {words}.",
                               f"Could you pull {words}? I don't want it anymore.",
                               f"Kill {words}, please."]),
               terse=f"Cancel {words}.", refs=(_client(b), _account(b, account), _order(b, account, order)))


@goals.add("cancel_order", 0.5)
def limit_then_cancel(b: Bundle, rng: random.Random) -> Ask | None:
    """A limit buy below the market that the client cancels unless it fills at once: it rests (or is
    queued while the market is closed), so the placing and the cancelling are both made. It is a day
    order (the default): a good-till-cancelled order wanted only if it fills at once says two
    opposite things. The order
    gets the world's next order number; the facts check that the cancelled order is the one placed
    (another order placed earlier in the conversation would take that number, and drops the draft)."""
    accounts = _spendable(b)
    if not accounts:
        return None
    account = rng.choice(accounts)
    q = rng.choice(_tradable(b))
    limit = _price(q["bid"] * rng.choice([0.9, 0.93, 0.95, 0.97]))
    n = _size(limit, account["summary"]["buying_power"] * 0.2, rng)
    if n is None or limit >= q["bid"]:
        return None
    name, said = account_name(b, account, rng), ins_name(q, rng)
    placed = {"account_id": account["account_id"], "instrument_id": q["instrument_id"], "side": "buy", "quantity": n,
              "order_type": "limit", "limit_price": limit}

    def facts(r: dict) -> list:
        same = (r["status"] == "cancelled" and r["instrument_id"] == q["instrument_id"] and r["quantity"] == n
                and r["limit_price"] == limit)
        return [r["buying_power"]] if same else []

    return Ask({"order_id": b["next_order"]},
               say=rng.choice([f"Put in a limit order to buy {shares(n)} of {said} at {money(limit)} in {name}. "
                               "If it doesn't fill right away, cancel it, and tell me my buying power after that.",
                               f"Try a limit buy for {shares(n)} of {said} at {money(limit)} in {name}; I only "
                               "want it if it executes immediately, so cancel it otherwise. What's my buying power "
                               "then?",
                               f"Place a limit order in {name}: buy {shares(n)} of {said} at {money(limit)}. "
                               "Unless it fills at once, cancel it and let me know my buying power."]),
               terse=f"Limit buy {n} {said} at {money(limit)} in {name}; cancel unless filled at once. "
                     "Buying power after?",
               refs=(_client(b), _account(b, account), _instrument(q)),
               mentions=(str(n), said, money(limit)), prior=(("place_order", placed),), facts=facts)


@goals.add("list_fills", 0.8)
def list_fills(b: Bundle, rng: random.Random) -> Ask | None:
    options = [a for a in b["accounts"] if a["fills"]]
    if not options:
        return None
    account = rng.choice(options)
    name = account_name(b, account, rng)
    refs = (_client(b), _account(b, account))
    fills = account["fills"]
    symbols = {}
    for f in fills:
        symbols.setdefault(f["instrument_id"], []).append(f)
    iid = rng.choice(sorted(symbols))
    mine = symbols[iid]
    if len(mine) <= 4 and rng.random() < 0.6:
        # A history that fits on the default page (20) shows every trade of the instrument: the whole list is
        # the short route, the instrument's id (a search) and the filter only serve a longer history.
        q = b["quotes"][iid]
        said = ins_name(q, rng)
        whole = len(fills) < 20
        args = {"account_id": account["account_id"]} if whole else {"account_id": account["account_id"],
                                                                    "instrument_id": iid}
        say = rng.choice([f"Show me every trade I've made in {said} in {name}, with the prices.",
                          f"What are my executions in {said} in {name}? Prices and share counts.",
                          f"When did I buy or sell {said} in {name}, and at what prices?"])
        when = say.startswith("When")  # asked when, the days are facts too (and the terse form asks them)
        return Ask(args, say=say,
                   terse=f"My {said} fills in {name}" + (": days and prices?" if when else ", with prices?"),
                   refs=refs if whole else refs + (_instrument(q),), mentions=(said,),
                   facts=lambda r: [x for f in [f for f in r if f["instrument_id"] == iid][:4]
                                    for x in ((f["price"], f["filled_at"][:10]) if when else (f["price"],))])
    d = dt.date.fromisoformat(fills[0]["filled_at"][:10])
    start = d - dt.timedelta(days=rng.choice([3, 6, 9]))
    found = [f for f in fills if start.isoformat() <= f["filled_at"][:10] <= d.isoformat()]
    if len(found) > 5 or len(fills) >= 100:
        return None
    return Ask({"account_id": account["account_id"], "start_date": start.isoformat(), "end_date": d.isoformat()},
               say=rng.choice([f"Which trades went through in {name} between {day(start)} and {full_date(d)}, "
                               "and at what prices?",
                               f"List the fills in {name} from {day(start)} to {full_date(d)}, with their prices.",
                               f"What did I trade in {name} from {day(start)} through {full_date(d)}, and at what "
                               "prices?"]),
               terse=f"Fills in {name}, {day(start)} to {full_date(d)}, with prices?", refs=refs,
               mentions=(day(start), day(d)), facts=lambda r: [x for f in r[:4] for x in (_called(f), f["price"])])


# -- goals: watchlists and alerts -------------------------------------------------------------------

def _lists(b: Bundle, role: int) -> list[dict]:
    return [w for w in b["watchlists"] if _number(w["watchlist_id"]) % 2 == role or role is None]


@goals.add("list_watchlists", 0.7)
def list_watchlists(b: Bundle, rng: random.Random) -> Ask | None:
    lists = [w for w in b["watchlists"] if w["count"]]
    args, refs = {"client_id": b["client"]["client_id"]}, (_client(b),)
    if not lists:
        if b["watchlists"]:
            return None
        return Ask(args, say=rng.choice(["Do I have any watchlists set up?", "What watchlists do I have?"]),
                   terse="My watchlists?", refs=refs, facts=lambda r: [w["name"] for w in r] or [NOTHING])
    wl = rng.choice(lists)
    return Ask(args, say=rng.choice([f"What's on my '{wl['name']}' watchlist?",
                                     f"Which symbols are in my '{wl['name']}' watchlist?",
                                     f"Remind me what I put on {_wl_list(wl)}."]),
               terse=f"'{wl['name']}' watchlist?", refs=refs, mentions=(wl["name"],),
               facts=lambda r: [_called(i) for w in r if w["watchlist_id"] == wl["watchlist_id"]
                                for i in w["instruments"]][:6])


@goals.add("create_watchlist", 0.6)
def create_watchlist(b: Bundle, rng: random.Random) -> Ask | None:
    taken = {w["name"].lower() for w in b["watchlists"]}
    names = [n for n in NEW_WATCHLISTS if n.lower() not in taken]
    if not names or len(b["watchlists"]) >= 10:
        return None
    name = rng.choice(names)
    if _split(rng):
        return Ask({"client_id": b["client"]["client_id"], "name": name},
                   # "another" only where the client already keeps a watchlist
                   say=rng.choice(["I'd like to start a new watchlist."]
                                  + (["Can you make me another watchlist?"] if b["watchlists"] else [])),
                   terse=f"New watchlist '{name}'.",
                   detail=rng.choice([f"Call it '{name}'.", f"Name it '{name}'.", f"'{name}' is the name."]),
                   refs=(_client(b),), mentions=(name,))
    return Ask({"client_id": b["client"]["client_id"], "name": name},
               say=rng.choice([f"Create a new watchlist called '{name}'.",
                               f"Could you start a watchlist for me named '{name}'?",
                               f"I'd like an empty watchlist, '{name}', to collect ideas in."]),
               terse=f"New watchlist '{name}'.", refs=(_client(b),), mentions=(name,))


@goals.add("add_to_watchlist", 1.0)
def add_to_watchlist(b: Bundle, rng: random.Random) -> Ask | None:
    lists = _lists(b, EDIT)
    if not lists:
        return None
    wl = rng.choice(lists)
    on = {i["instrument_id"] for i in wl["instruments"]}
    q = rng.choice([x for x in b["market"] if x["instrument_id"] not in on])
    said = ins_name(q, rng)
    return Ask({"watchlist_id": wl["watchlist_id"], "instrument_id": q["instrument_id"]},
               say=rng.choice([f"Add {said} to my '{wl['name']}' watchlist.",
                               f"Please put {said} on {_wl_list(wl)}.",
                               f"I want to keep an eye on {said}. Add it to my {wl['name']} watchlist."]),
               terse=f"Add {said} to watchlist '{wl['name']}'.", refs=(_watchlist(b, wl), _instrument(q)),
               mentions=(said, wl["name"]))


@goals.add("remove_from_watchlist", 0.7)
def remove_from_watchlist(b: Bundle, rng: random.Random) -> Ask | None:
    lists = [w for w in _lists(b, EDIT) if w["instruments"]]
    if not lists:
        return None
    wl = rng.choice(lists)
    item = rng.choice(wl["instruments"])
    q = b["quotes"][item["instrument_id"]]
    said = ins_name(q, rng)
    return Ask({"watchlist_id": wl["watchlist_id"], "instrument_id": q["instrument_id"]},
               say=rng.choice([f"Take {said} off my '{wl['name']}' watchlist.",
                               f"Remove {said} from {_wl_list(wl)}, please.",
                               f"I'm done watching {said}; drop it from my '{wl['name']}' watchlist."]),
               terse=f"Remove {said} from watchlist '{wl['name']}'.", refs=(_watchlist(b, wl), _instrument(q)),
               mentions=(said, wl["name"]))


@goals.add("delete_watchlist", 0.6)
def delete_watchlist(b: Bundle, rng: random.Random) -> Ask | None:
    lists = _lists(b, DELETE)
    if not lists:
        return None
    wl = rng.choice(lists)
    return Ask({"watchlist_id": wl["watchlist_id"]},
               say=rng.choice([f"Delete my '{wl['name']}' watchlist.", f"I don't use {_wl_list(wl)}; remove it.",
                               f"Please get rid of the watchlist called '{wl['name']}'."]),
               terse=f"Delete watchlist '{wl['name']}'.", refs=(_watchlist(b, wl),), mentions=(wl["name"],))


def _wl_list(wl: dict) -> str:
    """'the Ideas list', or 'the Short list watchlist' where 'list' would be said twice."""
    return f"the {wl['name']} watchlist" if wl["name"].lower().endswith("list") else f"the {wl['name']} list"


def _alert_words(alert: dict, b: Bundle, rng: random.Random) -> str:
    q = b["quotes"][alert["instrument_id"]]
    return rng.choice([f"my alert for {ins_name(q, rng)} going {alert['condition']} {money(alert['price'])}",
                       f"the alert I set for when {ins_name(q, rng)} goes {alert['condition']} {money(alert['price'])}"])


@goals.add("list_alerts", 0.7)
def list_alerts(b: Bundle, rng: random.Random) -> Ask | None:
    args, refs = {"client_id": b["client"]["client_id"]}, (_client(b),)
    if any(a["status"] == "triggered" for a in b["alerts"]) and rng.random() < 0.4:
        return Ask({**args, "status": "triggered"},
                   say=rng.choice(["Which of my price alerts have gone off?", "Have any of my alerts triggered?",
                                   "Show me the alerts that already fired."]),
                   terse="Triggered alerts?", refs=refs, facts=lambda r: [_called(a) for a in r][:5])
    return Ask({**args, "status": "active"},
               say=rng.choice(["Which of my price alerts are still waiting to go off?",
                               "Which alerts are still active for me?",
                               "Remind me which price levels I'm watching with alerts."]),
               terse="My active alerts?", refs=refs,
               facts=lambda r: [x for a in r[:4] for x in (_called(a), a["price"])] or [NOTHING])


@goals.add("create_price_alert", 1.0)
def create_price_alert(b: Bundle, rng: random.Random) -> Ask | None:
    q = rng.choice(b["market"])
    condition = rng.choice(["above", "below"])
    level = _price(q["last"] * (rng.choice([1.05, 1.1, 1.2]) if condition == "above" else rng.choice([0.8, 0.9, 0.95])))
    if (condition == "above" and level <= q["last"]) or (condition == "below" and level >= q["last"]):
        return None
    if any(a["instrument_id"] == q["instrument_id"] and a["condition"] == condition and a["price"] == level
           for a in b["alerts"]):
        return None
    said = ins_name(q, rng)
    move = {"above": rng.choice(["goes above", "rises above", "climbs past"]),
            "below": rng.choice(["drops below", "falls below", "dips under"])}[condition]
    args = {"client_id": b["client"]["client_id"], "instrument_id": q["instrument_id"], "condition": condition,
            "price": level}
    if _split(rng):
        return Ask(args, say=rng.choice([f"Can you set up a price alert on {said} for me?",
                                         f"I'd like an alert on {said}."]),
                   terse=f"Alert: {said} {condition} {money(level)}.",
                   detail=rng.choice([f"Tell me if it {move} {money(level)}.", f"When it {move} {money(level)}.",
                                      f"The trigger: it {move} {money(level)}."]),
                   refs=(_client(b), _instrument(q)), mentions=(said, money(level)))
    return Ask(args, say=rng.choice([f"Alert me when {said} {move} {money(level)}.",
                                     f"Set a price alert for {said}: let me know if it {move} {money(level)}.",
                                     f"Can you ping me if {said} {move} {money(level)}?"]),
               terse=f"Alert: {said} {condition} {money(level)}.", refs=(_client(b), _instrument(q)),
               mentions=(said, money(level)))


@goals.add("delete_alert", 0.7)
def delete_alert(b: Bundle, rng: random.Random) -> Ask | None:
    def unique(a: dict) -> bool:
        return sum(x["instrument_id"] == a["instrument_id"] and x["condition"] == a["condition"]
                   for x in b["alerts"]) == 1
    alerts = [a for a in b["alerts"] if unique(a)]
    if not alerts:
        return None
    alert = rng.choice(alerts)
    words = _alert_words(alert, b, rng)
    return Ask({"alert_id": alert["alert_id"]},
               say=rng.choice([f"Delete {words}.", f"I don't need {words} anymore; remove it.",
                               f"Please clear {words}."]),
               terse=f"Delete {words}.", refs=(_alert(b, alert),), mentions=(money(alert["price"]),))


# -- who is asking ----------------------------------------------------------------------------------

_BY_NAME = ("Hi, this is {name}.", "My name is {name}.", "It's {name} here.", "Hello, {name} here.",
            "Hi, I'm {name}, I trade with you.", "This is {name}, one of your clients.", "Hey, it's {name}.",
            "I'm {name}.", "Good morning, this is {name}.", "My name's {name} and I have a brokerage account here.",
            "{name} speaking.", "Hi there, {name} calling about my investments.")
_BY_NAME_TERSE = ("This is {name}.", "Name: {name}.", "It's {name}.", "Client: {name}.", "I'm {name}.")
_BY_EMAIL = ("Hello, my email with you is {email}.", "Hi, my account is under {email}.",
             "You can find me by my email, {email}.", "I'm the client registered as {email}.",
             "My login email is {email}.", "Hi there, you have me as {email}.", "Look me up under {email}, please.")
_BY_EMAIL_TERSE = ("Email: {email}.", "Email on file: {email}.", "My email: {email}.", "Account email: {email}.")


def _by_name(ref: Ref) -> tuple[str, str]:
    name = ref.entity["name"]
    return (stable(_BY_NAME, "name", ref.key).format(name=name),
            stable(_BY_NAME_TERSE, "terse", ref.key).format(name=name))


def _by_email(ref: Ref) -> tuple[str, str]:
    email = ref.entity["email"]
    return (stable(_BY_EMAIL, "email", ref.key).format(email=email),
            stable(_BY_EMAIL_TERSE, "email terse", ref.key).format(email=email))


# Tools that do one another's job for some request (an account's balances show in the account
# list, an order in the order list and its fills in the fills, a quote in the instrument search,
# the sectors in the instruments it lists, a position in the orders that filled): a
# missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("get_account_summary", "list_accounts"),
    ("get_order", "list_orders", "list_fills"),
    ("get_quote", "search_instruments"),
    ("list_sectors", "search_instruments"),
    ("get_positions", "list_orders", "list_fills"),
)


recipe = Recipe(
    server="trading",
    sample=sample,
    topics=("stocks", "banking", "budget"),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("client", "find_clients", args=lambda r: {"name": r.entity["name"]}, intro=_by_name),
        Lookup("client", "find_clients", args=lambda r: {"email": r.entity["email"]}, intro=_by_email),
        Lookup("instrument", "search_instruments", args=lambda r: {"query": r.entity["symbol"]}),
        Lookup("order", "list_orders", args=_order_args),
        *(Lookup.under(kind, tool) for kind, tool in (("account", "list_accounts"), ("watchlist", "list_watchlists"),
                                                      ("alert", "list_alerts"))),
    ),
    # No hidden-tool request: the one hidden tool counts the open orders of every client, and the shown
    # tools add that up (`find_clients` with neither name nor email lists every client, then each one's
    # accounts and each account's open orders), so declining would be taught where an answer exists.
)
