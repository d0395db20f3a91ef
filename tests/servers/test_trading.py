"""The trading server through real MCP: every tool's success path and failure modes, the order
book's reservations (a resting order lowers buying power or available shares until it fills or is
cancelled), fills at the quote, realised and unrealised P&L, the market's session hours (orders
placed while it is closed wait for the open), T+1 settlement and withdrawals of settled cash only,
and the outcome rules of the reward.

The seed-0 world's clock stands at 17:00 on a Monday, after the close; the seed-2 world's
(`live`) at 10:15 on a Tuesday, in the session, where orders fill. Entities are discovered through
the tools (clients by id order, their accounts, positions, orders, watchlists and alerts;
instruments by symbol)."""

from __future__ import annotations


import pytest

from prove_env.runtime import run_sync


@pytest.fixture
def s(served):
    return served("trading")


@pytest.fixture
def live(served):
    """A world whose clock is in the trading session (a Tuesday, 10:15)."""
    world = served("trading", 2)
    assert world.ok("get_market_status")["market_open"]
    return world


# `Served.call(name, ...)` cannot pass a tool argument called `name` (find_clients and
# create_watchlist have one); these go through the same MCP client with any argument names.

def clients(s) -> list[dict]:
    found = s.ok("find_clients", limit=100)
    for c in found:
        c["accounts"] = s.ok("list_accounts", client_id=c["client_id"])
    return found


def account_where(s, test) -> dict:
    for c in clients(s):
        for a in c["accounts"]:
            if a["status"] == "active" and test(a):
                return a
    raise AssertionError("no such account in the seed-0 world")


def symbol(s, sym: str) -> dict:
    found = s.ok("search_instruments", query=sym)
    assert found[0]["symbol"] == sym
    return found[0]


def quote(s, sym: str) -> dict:
    return s.ok("get_quote", instrument_id=symbol(s, sym)["instrument_id"])


def tradable(s, most: float) -> dict:
    """A quote of an instrument that is not halted and whose ask is at most `most`."""
    for ins in s.ok("search_instruments", kind="stock", limit=100):
        if not ins["halted"] and ins["last"] <= most:
            return s.ok("get_quote", instrument_id=ins["instrument_id"])
    raise AssertionError("no cheap tradable stock")


def summary(s, account_id: str) -> dict:
    return s.ok("get_account_summary", account_id=account_id)


def holding(s, min_quantity: int = 4) -> tuple[dict, dict]:
    """An active account and a position in a tradable instrument with all its shares available."""
    for c in clients(s):
        for a in c["accounts"]:
            if a["status"] != "active":
                continue
            for p in s.ok("get_positions", account_id=a["account_id"]):
                if p["quantity"] >= min_quantity and p["available_quantity"] == p["quantity"] and \
                        not s.ok("get_quote", instrument_id=p["instrument_id"])["halted"]:
                    return a, p
    raise AssertionError("no position to sell")


# -- the server as a whole ----------------------------------------------------------------------

def test_tools_listed_and_hidden_tool_kept_from_the_agent(served):
    s = served("trading")
    names = [t.name for t in run_sync(s.client.list_tools())]
    assert len(names) >= 13 and len(set(names)) == len(names)
    assert "count_open_orders" not in names
    s.fails("count_open_orders", "Unknown tool")
    hidden = served("trading", include_hidden=True)
    counts = hidden.ok("count_open_orders")
    assert counts["buy"] > 0 and counts["sell"] > 0
    tools = {t.name: t for t in run_sync(s.client.list_tools())}
    assert tools["get_quote"].annotations.read_only_hint is True
    assert tools["place_order"].annotations.read_only_hint is False
    assert tools["cancel_order"].annotations.destructive_hint is True
    assert tools["get_market_status"].annotations.read_only_hint is True
    assert tools["list_cash_transfers"].annotations.read_only_hint is True
    assert tools["withdraw_cash"].annotations.read_only_hint is False
    assert not tools["withdraw_cash"].annotations.idempotent_hint  # each call moves money again


def test_seed_world_has_the_variety_tasks_need(s):
    everyone = clients(s)
    accounts = [a for c in everyone for a in c["accounts"]]
    assert len(everyone) >= 30 and any(not c["accounts"] for c in everyone)
    assert {a["status"] for a in accounts} == {"active", "closed"}
    assert {a["kind"] for a in accounts} == {"individual", "ira", "roth_ira", "joint"}
    assert any(a["status"] == "active" and a["cash"] == 0 for a in accounts)
    assert any(a["buying_power"] < a["cash"] for a in accounts)  # open buy orders reserve cash
    instruments = s.ok("search_instruments", limit=100)
    assert len(instruments) >= 40 and {i["kind"] for i in instruments} == {"stock", "etf"}
    assert sum(i["halted"] for i in instruments) == 2
    orders = [o for a in accounts for o in s.ok("list_orders", account_id=a["account_id"], limit=100)]
    assert {o["status"] for o in orders} == {"open", "filled", "cancelled", "expired"}
    assert {(o["side"], o["order_type"]) for o in orders if o["status"] == "open"} >= {
        ("buy", "limit"), ("sell", "limit"), ("sell", "stop")}
    assert {o["time_in_force"] for o in orders if o["status"] == "open"} == {"day", "gtc"}
    lists = [w for c in everyone for w in s.ok("list_watchlists", client_id=c["client_id"])]
    assert any(w["count"] == 0 for w in lists) and any(w["count"] >= 5 for w in lists)
    alerts = [x for c in everyone for x in s.ok("list_alerts", client_id=c["client_id"])]
    assert {x["status"] for x in alerts} == {"active", "triggered"}
    transfers = [t for a in accounts for t in s.ok("list_cash_transfers", account_id=a["account_id"], limit=100)]
    assert {(t["kind"], t["status"]) for t in transfers} == {("deposit", "settled"), ("deposit", "pending"),
                                                            ("withdrawal", "settled")}
    # after the close, the day orders still open were placed after it, for the next session
    day = [o for o in orders if o["status"] == "open" and o["time_in_force"] == "day"]
    assert day and all(o["placed_at"] >= "2026-09-21T16:00" and o["queued_until"] == "2026-09-22T09:30" for o in day)
    assert s.world.toolkit(s.world).invariants() == []


# -- clients and accounts -----------------------------------------------------------------------

def test_find_clients_by_name_and_email(s):
    everyone = s.ok("find_clients", limit=100)
    assert len({c["name"] for c in everyone}) == len(everyone)
    c = everyone[3]
    assert c in s.ok("find_clients", name=c["name"].split()[-1].upper())
    assert s.ok("find_clients", email=c["email"].upper()) == [c]
    assert s.ok("find_clients", name="zzz nobody") == []


def test_account_summary_adds_up(s):
    a = account_where(s, lambda a: a["buying_power"] < a["cash"])
    full = summary(s, a["account_id"])
    positions = s.ok("get_positions", account_id=a["account_id"])
    opened = s.ok("list_orders", account_id=a["account_id"], status="open", limit=100)
    reserved = round(sum(o["reserved_cash"] for o in opened if o["side"] == "buy"), 2)
    assert full["reserved_cash"] == reserved > 0
    assert full["buying_power"] == round(full["cash"] - reserved, 2) == a["buying_power"]
    assert full["market_value"] == pytest.approx(sum(p["market_value"] for p in positions), abs=0.02)
    assert full["equity"] == pytest.approx(full["cash"] + full["market_value"], abs=0.01)
    assert full["unrealized_pnl"] == pytest.approx(sum(p["unrealized_pnl"] for p in positions), abs=0.05)
    assert full["open_orders"] == len(opened) and full["positions"] == len(positions)


def test_positions_show_unrealised_and_realised_pnl(s):
    a, p = holding(s)
    assert p["market_value"] == round(p["quantity"] * p["last"], 2)
    assert p["unrealized_pnl"] == pytest.approx((p["last"] - p["average_cost"]) * p["quantity"], abs=0.05)
    closed = [q for c in clients(s) for acc in c["accounts"]
              for q in s.ok("get_positions", account_id=acc["account_id"], include_closed=True) if q["quantity"] == 0]
    assert closed and all(q["market_value"] == 0 for q in closed) and any(q["realized_pnl"] != 0 for q in closed)


def test_deposit_cash_raises_buying_power(s):
    a = account_where(s, lambda a: a["cash"] == 0)
    done = s.ok("deposit_cash", account_id=a["account_id"], amount=2500)
    assert done["cash"] == 2500 and done["buying_power"] == 2500
    s.fails("deposit_cash", "at most 250,000.00", account_id=a["account_id"], amount=300000)
    closed = next(acc for c in clients(s) for acc in c["accounts"] if acc["status"] == "closed")
    s.fails("deposit_cash", "is closed", account_id=closed["account_id"], amount=100)


def test_a_deposit_can_be_traded_at_once_but_withdrawn_only_once_settled(s):
    a = account_where(s, lambda a: a["cash"] > 1000 and a["buying_power"] == a["cash"])
    before = summary(s, a["account_id"])
    done = s.ok("deposit_cash", account_id=a["account_id"], amount=1200)
    assert done["kind"] == "deposit" and done["status"] == "pending" and done["settles_on"] == "2026-09-22"
    after = summary(s, a["account_id"])
    assert after["buying_power"] == round(before["buying_power"] + 1200, 2)
    assert after["unsettled_cash"] == round(before["unsettled_cash"] + 1200, 2)
    assert after["available_to_withdraw"] == before["available_to_withdraw"]
    s.fails("withdraw_cash", "unsettled", account_id=a["account_id"],
            amount=round(before["available_to_withdraw"] + 1, 2))
    assert s.ok("list_cash_transfers", account_id=a["account_id"])[0]["transfer_id"] == done["transfer_id"]


def test_a_withdrawal_takes_only_settled_cash(s):
    a = account_where(s, lambda a: summary(s, a["account_id"])["unsettled_cash"] > 0)
    full = summary(s, a["account_id"])
    assert full["settled_cash"] == round(full["cash"] - full["unsettled_cash"], 2) < full["cash"]
    pending = [t for t in s.ok("list_cash_transfers", account_id=a["account_id"]) if t["status"] == "pending"]
    assert pending and all(t["kind"] == "deposit" and t["settles_on"] == "2026-09-22" for t in pending)
    available = full["available_to_withdraw"]
    s.fails("withdraw_cash", "at most", account_id=a["account_id"], amount=round(available + 0.01, 2))
    s.fails("withdraw_cash", "settles on 2026-09-22", account_id=a["account_id"], amount=full["cash"])
    out = s.ok("withdraw_cash", account_id=a["account_id"], amount=available)
    assert out["kind"] == "withdrawal" and out["status"] == "settled" and out["available_to_withdraw"] == 0
    assert out["cash"] == round(full["cash"] - available, 2)
    after = summary(s, a["account_id"])
    assert after["settled_cash"] == round(full["settled_cash"] - available, 2)
    assert after["unsettled_cash"] == full["unsettled_cash"]
    history = s.ok("list_cash_transfers", account_id=a["account_id"], kind="withdrawal")
    assert history[0]["transfer_id"] == out["transfer_id"] and history[0]["amount"] == available
    s.fails("withdraw_cash", "at most 0.00", account_id=a["account_id"], amount=1)
    closed = next(acc for c in clients(s) for acc in c["accounts"] if acc["status"] == "closed")
    s.fails("withdraw_cash", "is closed", account_id=closed["account_id"], amount=1)
    assert s.world.toolkit(s.world).invariants() == []


def test_cash_reserved_by_open_orders_cannot_be_withdrawn(s):
    a = account_where(s, lambda a: a["buying_power"] < a["cash"] and not summary(s, a["account_id"])["unsettled_cash"])
    full = summary(s, a["account_id"])
    assert full["available_to_withdraw"] == full["buying_power"] == round(full["cash"] - full["reserved_cash"], 2)
    s.fails("withdraw_cash", "reserved by open buy orders", account_id=a["account_id"],
            amount=round(full["buying_power"] + 1, 2))
    s.ok("withdraw_cash", account_id=a["account_id"], amount=full["buying_power"])
    assert summary(s, a["account_id"])["buying_power"] == 0


def test_withdrawable_cash_is_settled_cash_less_what_open_orders_reserve(s):
    a = account_where(s, lambda a: a["buying_power"] < a["cash"] and summary(s, a["account_id"])["unsettled_cash"])
    full = summary(s, a["account_id"])
    available = round(full["cash"] - full["unsettled_cash"] - full["reserved_cash"], 2)
    assert full["available_to_withdraw"] == available < full["settled_cash"] < full["cash"]
    s.fails("withdraw_cash", "reserved by open buy orders", account_id=a["account_id"], amount=full["settled_cash"])
    s.ok("withdraw_cash", account_id=a["account_id"], amount=available)
    assert summary(s, a["account_id"])["settled_cash"] == full["reserved_cash"]


def test_sale_proceeds_settle_the_next_business_day(live):
    s = live
    a, p = holding(s)
    before = summary(s, a["account_id"])
    sold = s.ok("place_order", account_id=a["account_id"], instrument_id=p["instrument_id"], side="sell", quantity=2)
    proceeds = sold["fill"]["amount"]
    after = summary(s, a["account_id"])
    assert after["cash"] == round(before["cash"] + proceeds, 2)
    assert after["unsettled_cash"] == round(before["unsettled_cash"] + proceeds, 2)
    assert after["available_to_withdraw"] == before["available_to_withdraw"]
    s.fails("withdraw_cash", "unsettled", account_id=a["account_id"],
            amount=round(before["available_to_withdraw"] + proceeds, 2))
    # a buy may use the unsettled proceeds; what is left to withdraw is still only settled cash
    q = s.ok("get_quote", instrument_id=p["instrument_id"])
    s.ok("place_order", account_id=a["account_id"], instrument_id=p["instrument_id"], side="buy", quantity=1)
    spent = summary(s, a["account_id"])
    assert spent["cash"] == round(after["cash"] - q["ask"], 2)
    assert spent["available_to_withdraw"] <= spent["settled_cash"] <= spent["cash"]
    assert s.world.toolkit(s.world).invariants() == []


def test_cash_history_lists_deposits_and_withdrawals(s):
    a = account_where(s, lambda a: any(t["kind"] == "withdrawal"
                                       for t in s.ok("list_cash_transfers", account_id=a["account_id"])))
    every = s.ok("list_cash_transfers", account_id=a["account_id"], limit=100)
    assert [t["created_at"] for t in every] == sorted((t["created_at"] for t in every), reverse=True)
    assert {t["kind"] for t in every} == {"deposit", "withdrawal"}
    assert all(t["settles_on"] == t["created_at"][:10] for t in every if t["kind"] == "withdrawal")
    assert s.ok("list_cash_transfers", account_id=a["account_id"], kind="withdrawal") == [
        t for t in every if t["kind"] == "withdrawal"]
    day = every[0]["created_at"][:10]
    assert all(t["created_at"][:10] == day
               for t in s.ok("list_cash_transfers", account_id=a["account_id"], start_date=day, end_date=day))
    s.fails("list_cash_transfers", "is after", account_id=a["account_id"], start_date=day, end_date="2020-01-01")


# -- market data --------------------------------------------------------------------------------

def test_search_instruments_by_symbol_name_sector_and_kind(s):
    assert s.ok("search_instruments", query="aapl")[0]["symbol"] == "AAPL"
    assert [i["symbol"] for i in s.ok("search_instruments", query="coca-cola")] == ["KO"]
    health = s.ok("search_instruments", sector="health care", limit=100)
    assert health and all(i["sector"] == "Health Care" for i in health)
    etfs = s.ok("search_instruments", kind="etf", limit=100)
    assert {"SPY", "QQQ"} <= {i["symbol"] for i in etfs} and all(i["kind"] == "etf" for i in etfs)
    assert s.ok("search_instruments", query="T")[0]["symbol"] == "T"  # the exact symbol first
    sectors = s.ok("list_sectors")
    assert {"Technology", "Energy", "Fixed Income"} <= {x["sector"] for x in sectors}
    assert sum(x["stocks"] + x["etfs"] for x in sectors) == len(s.ok("search_instruments", limit=100))


def test_quote_and_price_history(s):
    q = quote(s, "MSFT")
    assert q["bid"] < q["last"] < q["ask"] and q["change"] == round(q["last"] - q["prev_close"], 2)
    recent = s.ok("get_price_history", instrument_id=q["instrument_id"])
    assert len(recent["days"]) == 10 and recent["days"][-1]["close"] == q["prev_close"]
    assert recent["days"][-1]["date"] < q["as_of"][:10]
    first, last = recent["days"][2]["date"], recent["days"][6]["date"]
    span = s.ok("get_price_history", instrument_id=q["instrument_id"], start_date=first, end_date=last)
    assert [d["date"] for d in span["days"]] == [d["date"] for d in recent["days"][2:7]]
    assert span["high"] == max(d["high"] for d in span["days"]) and span["low"] == min(d["low"] for d in span["days"])
    s.fails("get_price_history", "is after", instrument_id=q["instrument_id"], start_date=last, end_date=first)


def test_quote_carries_moving_averages_day_range_and_volume(s):
    for sym in ("MSFT", "KO", "SPY"):
        q = quote(s, sym)
        days = s.ok("get_price_history", instrument_id=q["instrument_id"],
                    start_date="2026-07-01", end_date="2026-09-20")["days"]
        closes = [d["close"] for d in days]
        assert q["sma_5"] == round(sum(closes[-5:]) / 5, 2) and q["sma_20"] == round(sum(closes[-20:]) / 20, 2)
        assert q["day_low"] <= min(q["open"], q["last"]) <= max(q["open"], q["last"]) <= q["day_high"]
        assert q["volume"] > 0 and q["change"] == round(q["last"] - q["prev_close"], 2)
        assert q["change_percent"] == round(100 * q["change"] / q["prev_close"], 2)


# -- the session: the market's hours from the world's clock -----------------------------------------

def test_market_status_follows_the_world_clock(served):
    after = served("trading").ok("get_market_status")  # a Monday, 17:00
    assert after["market_open"] is False and after["closed_reason"] == "after the close"
    assert after["next_open"] == "2026-09-22T09:30" and after["closes_at"] is None
    assert after["trades_today_settle_on"] == "2026-09-22"
    during = served("trading", 2).ok("get_market_status")  # a Tuesday, 10:15
    assert during["market_open"] is True and during["closes_at"] == "2026-12-08T16:00" and during["next_open"] is None
    weekend = served("trading", 1).ok("get_market_status")  # a Sunday
    assert weekend["closed_reason"] == "weekend" and weekend["next_open"] == "2026-06-01T09:30"
    assert weekend["trades_today_settle_on"] == "2026-06-01"
    early = served("trading", 143).ok("get_market_status")  # a Monday, 9:00
    assert early["closed_reason"] == "before the open" and early["next_open"] == "2026-03-02T09:30"
    friday = served("trading", 5).ok("get_market_status")  # a Friday, 17:00: trades settle on Monday
    assert friday["trades_today_settle_on"] == "2026-09-07" and friday["next_open"] == "2026-09-07T09:30"


def test_orders_placed_while_the_market_is_closed_wait_for_the_open(s):
    q = tradable(s, 150)
    a = account_where(s, lambda a: a["buying_power"] > 3000)
    market = s.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="buy", quantity=5)
    assert market["status"] == "open" and "fill" not in market and market["queued_until"] == "2026-09-22T09:30"
    assert market["reserved_cash"] == round(5 * q["ask"], 2) and market["cash"] == a["cash"]
    assert market["buying_power"] == round(a["buying_power"] - 5 * q["ask"], 2)
    # a limit above the ask would fill in the session; now it waits with the rest
    limit = s.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="buy", quantity=2,
                 order_type="limit", limit_price=round(q["ask"] + 5, 2))
    assert limit["status"] == "open" and limit["queued_until"] == "2026-09-22T09:30"
    assert limit["reserved_cash"] == round(2 * (q["ask"] + 5), 2)
    queued = {o["order_id"] for o in s.ok("list_orders", account_id=a["account_id"], status="open", limit=100)
              if o["queued_until"]}
    assert {market["order_id"], limit["order_id"]} <= queued
    s.fails("place_order", "is a day order", account_id=a["account_id"], instrument_id=q["instrument_id"],
            side="buy", quantity=1, time_in_force="gtc")
    # a queued order can be changed (it stays queued) and cancelled
    changed = s.ok("modify_order", order_id=limit["order_id"], limit_price=round(q["ask"] + 6, 2))
    assert changed["status"] == "open" and changed["queued_until"] == "2026-09-22T09:30"
    smaller = s.ok("modify_order", order_id=market["order_id"], quantity=3)
    assert smaller["status"] == "open" and smaller["reserved_cash"] == round(3 * q["ask"], 2)
    assert s.ok("cancel_order", order_id=market["order_id"])["status"] == "cancelled"
    assert s.ok("cancel_order", order_id=limit["order_id"])["buying_power"] == a["buying_power"]
    assert s.world.toolkit(s.world).invariants() == []


def test_a_limit_order_rests_in_the_session_until_cancelled(live):
    q = tradable(live, 150)
    a = account_where(live, lambda a: a["buying_power"] > 3000)
    limit = round(q["bid"] * 0.95, 2)
    placed = live.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="buy",
                     quantity=10, order_type="limit", limit_price=limit, time_in_force="gtc")
    assert placed["status"] == "open" and placed["queued_until"] is None
    assert placed["reserved_cash"] == round(10 * limit, 2)
    # the clock is frozen and so is the quote: it rests, untouched by any call but its own
    assert live.ok("get_order", order_id=placed["order_id"])["status"] == "open"
    cancelled = live.ok("cancel_order", order_id=placed["order_id"])
    assert cancelled["status"] == "cancelled" and cancelled["buying_power"] == a["buying_power"]
    market = live.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="buy",
                     quantity=1)
    assert market["status"] == "filled" and market["fill"]["price"] == q["ask"]


# -- orders: fills at the quote -------------------------------------------------------------------

def test_market_buy_fills_at_the_ask(live):
    s = live
    q = tradable(s, 150)
    a = account_where(s, lambda a: a["buying_power"] > 2000)
    placed = s.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="buy", quantity=5)
    assert placed["status"] == "filled" and placed["fill"]["price"] == q["ask"]
    assert placed["cash"] == round(a["cash"] - round(5 * q["ask"], 2), 2)
    position = next(p for p in s.ok("get_positions", account_id=a["account_id"]) if p["symbol"] == q["symbol"])
    assert position["quantity"] >= 5
    fills = s.ok("list_fills", account_id=a["account_id"], instrument_id=q["instrument_id"])
    assert fills[0]["order_id"] == placed["order_id"] and fills[0]["quantity"] == 5
    full = s.ok("get_order", order_id=placed["order_id"])
    assert full["status"] == "filled" and full["fills"][0]["price"] == q["ask"]


def test_selling_books_realised_pnl_at_the_bid(live):
    s = live
    a, p = holding(s)
    q = s.ok("get_quote", instrument_id=p["instrument_id"])
    before = summary(s, a["account_id"])
    sold = s.ok("place_order", account_id=a["account_id"], instrument_id=p["instrument_id"], side="sell",
                quantity=2)
    assert sold["fill"]["price"] == q["bid"]
    assert sold["fill"]["realized_pnl"] == pytest.approx((q["bid"] - p["average_cost"]) * 2, abs=0.02)
    after = summary(s, a["account_id"])
    assert after["realized_pnl"] == pytest.approx(before["realized_pnl"] + sold["fill"]["realized_pnl"], abs=0.01)
    assert after["cash"] == round(before["cash"] + round(2 * q["bid"], 2), 2)
    rest = next(x for x in s.ok("get_positions", account_id=a["account_id"])
                if x["instrument_id"] == p["instrument_id"])
    assert rest["quantity"] == p["quantity"] - 2


def test_marketable_limit_fills_at_the_quote_not_the_limit(live):
    s = live
    q = tradable(s, 150)
    a = account_where(s, lambda a: a["buying_power"] > 2000)
    placed = s.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="buy",
                  quantity=3, order_type="limit", limit_price=round(q["ask"] + 5, 2))
    assert placed["status"] == "filled" and placed["average_fill_price"] == q["ask"]


# -- orders: the book's reservations ------------------------------------------------------------

def test_resting_limit_buy_reserves_buying_power_until_cancelled(s):
    q = tradable(s, 150)
    a = account_where(s, lambda a: a["buying_power"] > 3000)
    limit = round(q["bid"] * 0.9, 2)
    placed = s.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="buy",
                  quantity=10, order_type="limit", limit_price=limit, time_in_force="gtc")
    assert placed["status"] == "open" and placed["reserved_cash"] == round(10 * limit, 2)
    assert placed["cash"] == a["cash"]  # cash stays; buying power drops
    assert placed["buying_power"] == round(a["buying_power"] - 10 * limit, 2)
    assert summary(s, a["account_id"])["buying_power"] == placed["buying_power"]
    assert s.ok("list_orders", account_id=a["account_id"], status="open")[0]["order_id"] == placed["order_id"]
    cancelled = s.ok("cancel_order", order_id=placed["order_id"])
    assert cancelled["status"] == "cancelled" and cancelled["buying_power"] == a["buying_power"]
    s.fails("cancel_order", "is cancelled and cannot be cancelled", order_id=placed["order_id"])
    s.fails("modify_order", "is cancelled and cannot be modified", order_id=placed["order_id"], quantity=2)


def test_reserved_cash_cannot_be_spent_twice(s):
    q = tradable(s, 150)
    a = account_where(s, lambda a: 2000 < a["buying_power"] < 60000)
    shares = int(a["buying_power"] * 0.7 // (q["bid"] * 0.9))
    s.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="buy", quantity=shares,
         order_type="limit", limit_price=round(q["bid"] * 0.9, 2))
    power = summary(s, a["account_id"])["buying_power"]
    more = int(power // q["ask"]) + 2  # affordable with the cash, not with the buying power left
    assert more * q["ask"] < a["cash"]
    s.fails("place_order", "insufficient buying power", account_id=a["account_id"],
              instrument_id=q["instrument_id"], side="buy", quantity=more)
    limit = round(q["bid"] * 0.95, 2)
    s.fails("place_order", "insufficient buying power", account_id=a["account_id"],
              instrument_id=q["instrument_id"], side="buy", quantity=int(power // limit) + 1, order_type="limit",
              limit_price=limit)


def test_resting_sell_reserves_shares(live):
    s = live
    a, p = holding(s)
    q = s.ok("get_quote", instrument_id=p["instrument_id"])
    n = p["quantity"]
    placed = s.ok("place_order", account_id=a["account_id"], instrument_id=p["instrument_id"], side="sell",
                  quantity=n - 1, order_type="limit", limit_price=round(q["ask"] * 1.2, 2))
    assert placed["status"] == "open" and placed["reserved_shares"] == n - 1
    assert placed["cash"] == a["cash"]
    pos = next(x for x in s.ok("get_positions", account_id=a["account_id"]) if x["instrument_id"] == q["instrument_id"])
    assert pos["quantity"] == n and pos["available_quantity"] == 1
    s.fails("place_order", "of which 1 are not reserved", account_id=a["account_id"],
              instrument_id=p["instrument_id"], side="sell", quantity=2)
    s.ok("cancel_order", order_id=placed["order_id"])
    assert s.ok("place_order", account_id=a["account_id"], instrument_id=p["instrument_id"], side="sell",
                quantity=2)["status"] == "filled"


def test_stop_orders_rest_on_the_right_side_of_the_quote(s):
    a, p = holding(s)
    q = s.ok("get_quote", instrument_id=p["instrument_id"])
    s.fails("place_order", "sell stop must be below the bid", account_id=a["account_id"],
              instrument_id=q["instrument_id"], side="sell", quantity=1, order_type="stop",
              stop_price=round(q["bid"] + 1, 2))
    s.fails("place_order", "buy stop must be above the ask", account_id=a["account_id"],
              instrument_id=q["instrument_id"], side="buy", quantity=1, order_type="stop",
              stop_price=round(q["ask"] - 1, 2))
    s.fails("place_order", "needs stop_price", account_id=a["account_id"], instrument_id=q["instrument_id"],
              side="sell", quantity=1, order_type="stop")
    s.fails("place_order", "takes no limit_price", account_id=a["account_id"],
              instrument_id=q["instrument_id"], side="sell", quantity=1, limit_price=10)
    stop = s.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="sell", quantity=2,
                order_type="stop", stop_price=round(q["bid"] * 0.9, 2))
    assert stop["status"] == "open" and stop["reserved_shares"] == 2


def test_order_refusals_change_nothing(s):
    q = tradable(s, 150)
    a = account_where(s, lambda a: a["buying_power"] > 1000)
    base = dict(account_id=a["account_id"], instrument_id=q["instrument_id"])
    s.fails("place_order", "greater than 0", **base, side="buy", quantity=0)
    s.fails("place_order", "greater than 0, got -5", **base, side="buy", quantity=-5)
    halted = next(i for i in s.ok("search_instruments", limit=100) if i["halted"])
    s.fails("place_order", "is halted", account_id=a["account_id"], instrument_id=halted["instrument_id"],
              side="buy", quantity=1)
    held = {p["instrument_id"] for p in s.ok("get_positions", account_id=a["account_id"], include_closed=True)}
    other = next(i for i in s.ok("search_instruments", limit=100) if i["instrument_id"] not in held and not i["halted"])
    s.fails("place_order", "holds no", account_id=a["account_id"], instrument_id=other["instrument_id"],
              side="sell", quantity=1)
    s.fails("place_order", "needs limit_price", **base, side="buy", quantity=1, order_type="limit")
    closed = next(acc for c in clients(s) for acc in c["accounts"] if acc["status"] == "closed")
    s.fails("place_order", "is closed", account_id=closed["account_id"], instrument_id=q["instrument_id"],
              side="buy", quantity=1)
    filled = s.ok("list_orders", account_id=a["account_id"], status="filled")
    if filled:
        s.fails("cancel_order", "is filled and cannot be cancelled", order_id=filled[0]["order_id"])
        s.fails("modify_order", "is filled and cannot be modified", order_id=filled[0]["order_id"], quantity=1)


def test_modify_order_recomputes_the_reservation(live):
    s = live
    q = tradable(s, 150)
    a = account_where(s, lambda a: a["buying_power"] > 3000)
    limit = round(q["bid"] * 0.9, 2)
    placed = s.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="buy",
                  quantity=10, order_type="limit", limit_price=limit)
    order_id = placed["order_id"]
    lower = round(q["bid"] * 0.85, 2)
    changed = s.ok("modify_order", order_id=order_id, quantity=4, limit_price=lower)
    assert changed["status"] == "open" and changed["reserved_cash"] == round(4 * lower, 2)
    assert changed["buying_power"] == round(a["buying_power"] - 4 * lower, 2)
    s.fails("modify_order", "Nothing to change", order_id=order_id)
    s.fails("modify_order", "has no stop price", order_id=order_id, stop_price=10)
    s.fails("modify_order", "greater than 0", order_id=order_id, quantity=0)
    s.fails("modify_order", "insufficient buying power", order_id=order_id,
              quantity=int(a["cash"] // lower) + 5)
    filled = s.ok("modify_order", order_id=order_id, limit_price=round(q["ask"] + 1, 2))
    assert filled["status"] == "filled" and filled["average_fill_price"] == q["ask"]
    assert filled["cash"] == round(a["cash"] - round(4 * q["ask"], 2), 2)
    s.fails("modify_order", "is filled", order_id=order_id, quantity=3)


def test_a_modify_that_fills_is_not_repeatable(live):
    """A modify can execute a trade, which happens once: the same call sent again is refused, so
    modify_order is not annotated idempotent."""
    from prove_env.registry import get_toolkit

    s = live
    assert not get_toolkit("trading").specs()["modify_order"].idempotent
    q = tradable(s, 150)
    a = account_where(s, lambda a: a["buying_power"] > 3000)
    placed = s.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="buy",
                  quantity=2, order_type="limit", limit_price=round(q["bid"] * 0.9, 2))
    marketable = round(q["ask"] + 1, 2)
    assert s.ok("modify_order", order_id=placed["order_id"], limit_price=marketable)["status"] == "filled"
    s.fails("modify_order", "is filled and cannot be modified", order_id=placed["order_id"], limit_price=marketable)


def test_accounts_are_opened_after_their_client_joined_on_every_seed(served):
    for seed in range(20):
        s = served("trading", seed)
        early = s.world.connection.execute(
            "SELECT a.id FROM accounts a JOIN clients c ON c.id = a.client_id WHERE a.opened_at < c.joined_at"
        ).fetchall()
        assert early == [], f"seed {seed}: accounts opened before their client joined: {early}"


def test_seeded_open_orders_can_be_modified_and_cancelled(s):
    for c in clients(s):
        for acc in c["accounts"]:
            for o in s.ok("list_orders", account_id=acc["account_id"], status="open"):
                if o["order_type"] == "stop":
                    changed = s.ok("modify_order", order_id=o["order_id"], stop_price=round(o["stop_price"] * 0.98, 2))
                    assert changed["stop_price"] == round(o["stop_price"] * 0.98, 2)
                    assert s.ok("cancel_order", order_id=o["order_id"])["status"] == "cancelled"
                    return
    raise AssertionError("no open stop order")


def test_list_orders_filters(s):
    a = account_where(s, lambda a: len(s.ok("list_orders", account_id=a["account_id"], limit=100)) >= 4)
    every = s.ok("list_orders", account_id=a["account_id"], limit=100)
    assert [o["placed_at"] for o in every] == sorted((o["placed_at"] for o in every), reverse=True)
    for status in ("open", "filled", "cancelled", "expired"):
        assert s.ok("list_orders", account_id=a["account_id"], status=status, limit=100) == [
            o for o in every if o["status"] == status]
    one = every[0]["instrument_id"]
    assert all(o["instrument_id"] == one for o in s.ok("list_orders", account_id=a["account_id"], instrument_id=one))


def test_list_fills_by_date(s):
    a = account_where(s, lambda a: len(s.ok("list_fills", account_id=a["account_id"], limit=100)) >= 3)
    every = s.ok("list_fills", account_id=a["account_id"], limit=100)
    day = every[1]["filled_at"][:10]
    same = s.ok("list_fills", account_id=a["account_id"], start_date=day, end_date=day)
    assert same and all(f["filled_at"][:10] == day for f in same)
    assert all(f["realized_pnl"] is None for f in every if f["side"] == "buy")


# -- watchlists and alerts ----------------------------------------------------------------------

def test_watchlists(s):
    c = next(c for c in clients(s) if s.ok("list_watchlists", client_id=c["client_id"]))
    existing = s.ok("list_watchlists", client_id=c["client_id"])[0]
    created = s.ok("create_watchlist", client_id=c["client_id"], name="  Space stocks ")
    assert created["name"] == "Space stocks" and created["count"] == 0
    s.fails("create_watchlist", "already has a watchlist named", client_id=c["client_id"],
              name=existing["name"].upper())
    s.fails("create_watchlist", "1 to 40 characters", client_id=c["client_id"], name=" ")
    nvda = symbol(s, "NVDA")
    added = s.ok("add_to_watchlist", watchlist_id=created["watchlist_id"], instrument_id=nvda["instrument_id"])
    assert [i["symbol"] for i in added["instruments"]] == ["NVDA"]
    s.fails("add_to_watchlist", "already on watchlist", watchlist_id=created["watchlist_id"],
              instrument_id=nvda["instrument_id"])
    removed = s.ok("remove_from_watchlist", watchlist_id=created["watchlist_id"], instrument_id=nvda["instrument_id"])
    assert removed["count"] == 0
    s.fails("remove_from_watchlist", "is not on watchlist", watchlist_id=created["watchlist_id"],
              instrument_id=nvda["instrument_id"])
    gone = s.ok("delete_watchlist", watchlist_id=existing["watchlist_id"])
    assert gone["deleted"] and gone["instruments_removed"] == existing["count"]
    left = s.ok("list_watchlists", client_id=c["client_id"])
    assert existing["watchlist_id"] not in {w["watchlist_id"] for w in left}
    s.fails("delete_watchlist", "not found", watchlist_id=existing["watchlist_id"])


def test_price_alerts(s):
    c = next(c for c in clients(s) if s.ok("list_alerts", client_id=c["client_id"], status="triggered"))
    q = quote(s, "AAPL")
    s.fails("create_price_alert", "already at", client_id=c["client_id"], instrument_id=q["instrument_id"],
              condition="above", price=round(q["last"] - 1, 2))
    s.fails("create_price_alert", "already at", client_id=c["client_id"], instrument_id=q["instrument_id"],
              condition="below", price=round(q["last"] + 1, 2))
    level = float(round(q["last"] * 1.1))
    made = s.ok("create_price_alert", client_id=c["client_id"], instrument_id=q["instrument_id"], condition="above",
                price=level)
    assert made["status"] == "active" and made["symbol"] == "AAPL"
    s.fails("create_price_alert", "already watches", client_id=c["client_id"], instrument_id=q["instrument_id"],
              condition="above", price=level)
    assert made in s.ok("list_alerts", client_id=c["client_id"], status="active")
    triggered = s.ok("list_alerts", client_id=c["client_id"], status="triggered")[0]
    assert s.ok("delete_alert", alert_id=triggered["alert_id"])["deleted"]
    assert triggered["alert_id"] not in {x["alert_id"] for x in s.ok("list_alerts", client_id=c["client_id"])}
    s.fails("delete_alert", "not found", alert_id=triggered["alert_id"])


def test_invariants_hold_after_a_sequence_of_orders(live):
    s = live
    a, p = holding(s)
    q = s.ok("get_quote", instrument_id=p["instrument_id"])
    s.ok("deposit_cash", account_id=a["account_id"], amount=5000)
    s.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="buy", quantity=3)
    s.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="sell", quantity=2,
         order_type="limit", limit_price=round(q["ask"] * 1.1, 2))
    s.ok("place_order", account_id=a["account_id"], instrument_id=q["instrument_id"], side="sell",
         quantity=p["quantity"] + 1)
    assert s.world.toolkit(s.world).invariants() == []
    pos = next(x for x in s.ok("get_positions", account_id=a["account_id"]) if x["instrument_id"] == q["instrument_id"])
    assert pos["quantity"] == 2 and pos["available_quantity"] == 0


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------

def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def test_invariants_catch_a_broken_book(s):
    toolkit = s.world.toolkit(s.world)
    with s.world.transaction():
        session = s.world.session
        from prove_env.servers.trading.models import Account, Order
        order = session.get(Order, "ORD-0010")  # an open buy limit in the seed-0 world
        assert order.status == "open" and order.side == "buy"
        session.get(Account, order.account_id).cash = 1.0
        assert any("reserves" in p for p in toolkit.invariants())
        session.rollback()


def test_invariants_catch_broken_settlement_and_sessions(s, live):
    import datetime as dt

    from prove_env.servers.trading.models import Account, CashTransfer, Instrument, Order

    def broken(world, change) -> list[str]:
        with world.world.transaction():
            change(world.world.session)
            world.world.session.flush()
            found = world.world.toolkit(world.world).invariants()
            world.world.session.rollback()
        return found

    a = account_where(s, lambda a: summary(s, a["account_id"])["unsettled_cash"] > 0)
    cash = a["cash"]

    def unsettled_out(session):  # money that left before it settled
        session.add(CashTransfer(id="CSH-9999", account_id=a["account_id"], kind="withdrawal", amount=cash,
                                 created_at=dt.datetime(2026, 9, 21, 16), settles_on=dt.date(2026, 9, 21)))
        session.get(Account, a["account_id"]).cash = 0.0
    assert any("before it settled" in p for p in broken(s, unsettled_out))

    def settles_today(session):
        session.get(CashTransfer, "CSH-0001").settles_on = session.get(CashTransfer, "CSH-0001").created_at.date()
    assert any("CSH-0001" in p for p in broken(s, settles_today))

    def stale_day_order(session):  # a day order of an earlier session still open
        order = session.get(Order, "ORD-0010")
        order.time_in_force = "day"
    assert any("day order" in p for p in broken(s, stale_day_order))

    def out_of_range(session):
        ins = session.get(Instrument, "INS-0001")
        ins.day_high = ins.last - 1
    assert any("day range" in p for p in broken(s, out_of_range))

    q = tradable(live, 150)
    acct = account_where(live, lambda a: a["buying_power"] > 3000)
    resting = live.ok("place_order", account_id=acct["account_id"], instrument_id=q["instrument_id"], side="buy",
                      quantity=1, order_type="limit", limit_price=round(q["bid"] * 0.9, 2))

    def marketable(session):  # in the session, a resting limit at the ask would have filled
        session.get(Order, resting["order_id"]).limit_price = q["ask"]
    assert any("would have filled" in p for p in broken(live, marketable))

    def waiting_market(session):  # in the session, a market order does not wait
        order = session.get(Order, resting["order_id"])
        order.order_type, order.limit_price = "market", None
    assert any("open market order" in p for p in broken(live, waiting_market))


def test_success_follows_the_outcome_not_the_path(play):
    from prove_env.task import Task

    power = Task(id="power", server="trading", seed=0,
                 user_turns=["Hi, this is Megan Chang. How much buying power do I have in my IRA?"],
                 gold=[[{"id": "g1", "name": "find_clients", "arguments": {"name": "Megan Chang"}},
                        {"id": "g2", "name": "list_accounts", "arguments": {"client_id": "CLI-0001"},
                         "depends_on": ["g1"]},
                        {"id": "g3", "name": "get_account_summary", "arguments": {"account_id": "ACT-0002"},
                         "depends_on": ["g2"]}]],
                 facts=[[5185.95]])
    # another correct path: found by email, and the account list already carries the buying power
    other = play(power, [_call("find_clients", email="MEGAN.CHANG17@yahoo.com"),
                         _call("list_accounts", client_id="CLI-0001"), "You have $5,185.95 of buying power."])
    assert other["success"] and other["reward_breakdown"]["coverage"] < 1
    # the cash is not the buying power: an open buy order reserves part of it
    assert not play(power, [_call("get_account_summary", account_id="ACT-0002"), "You have $9,338.95."])["success"]
    # the right answer, then damage nobody asked for: a resting order cancelled
    damage = play(power, [_call("get_account_summary", account_id="ACT-0002"),
                          _call("cancel_order", order_id="ORD-0010"), "You have $5,185.95."])
    assert not damage["success"] and damage["reward_breakdown"]["coverage"] < 1

    buy = Task(id="buy", server="trading", seed=0,
               user_turns=["This is Victoria Golden. Put in a limit order in my joint account to buy 10 shares of "
                           "Microsoft at $350, good till cancelled."],
               gold=[[{"id": "g1", "name": "find_clients", "arguments": {"name": "Victoria Golden"}},
                      {"id": "g2", "name": "list_accounts", "arguments": {"client_id": "CLI-0006"},
                       "depends_on": ["g1"]},
                      {"id": "g3", "name": "search_instruments", "arguments": {"query": "MSFT"}},
                      {"id": "g4", "name": "place_order", "depends_on": ["g2", "g3"],
                       "arguments": {"account_id": "ACT-0011", "instrument_id": "INS-0002", "side": "buy",
                                     "quantity": 10, "order_type": "limit", "limit_price": 350.0,
                                     "time_in_force": "gtc"}}]])
    order = {"account_id": "ACT-0011", "instrument_id": "INS-0002", "side": "buy", "quantity": 10,
             "order_type": "limit", "limit_price": 350.0, "time_in_force": "gtc"}
    # a note the client did not ask for is a detail, not damage
    noted = play(buy, [_call("place_order", **order, note="Buy the dip"), "Done: your order is working."])
    assert noted["success"]
    assert not play(buy, [_call("place_order", **{**order, "time_in_force": "day"}), "Done."])["success"]
    assert not play(buy, [_call("place_order", **{**order, "limit_price": 355.0}), "Done."])["success"]


def test_order_limits_and_terms_are_checked(s):
    q = tradable(s, 150)
    a = account_where(s, lambda a: a["buying_power"] > 1000)
    s.fails("place_order", "at most 100,000 shares", account_id=a["account_id"], instrument_id=q["instrument_id"],
              side="buy", quantity=100_001)
    s.fails("place_order", "needs limit_price (and no stop_price)", account_id=a["account_id"],
              instrument_id=q["instrument_id"], side="buy", quantity=1, order_type="limit", limit_price=10,
              stop_price=9)
    stop = next(o for c in clients(s) for acc in c["accounts"]
                for o in s.ok("list_orders", account_id=acc["account_id"], status="open") if o["order_type"] == "stop")
    s.fails("modify_order", "has no limit price", order_id=stop["order_id"], limit_price=10)
    s.fails("modify_order", "sell stop must be below the bid", order_id=stop["order_id"], stop_price=100_000)


def test_orders_on_a_halted_instrument_can_be_cancelled_not_changed(s):
    from prove_env.servers.trading.models import Instrument, Order

    order = s.ok("get_order", order_id="ORD-0010")  # an open buy limit in the seed-0 world
    with s.world.transaction():
        halted = s.world.session.get(Instrument, order["instrument_id"])
        halted.halted, halted.halt_reason = True, "News pending"
    s.fails("modify_order", "is halted", order_id="ORD-0010", quantity=1)
    assert s.ok("cancel_order", order_id="ORD-0010")["status"] == "cancelled"
    with s.world.transaction():
        assert s.world.session.get(Order, "ORD-0010").reserved == 0


def test_a_client_holds_at_most_ten_watchlists(s):
    c = next(c for c in clients(s) if s.ok("list_watchlists", client_id=c["client_id"]))
    held = len(s.ok("list_watchlists", client_id=c["client_id"]))
    for n in range(10 - held):
        s.ok("create_watchlist", client_id=c["client_id"], name=f"List {n}")
    s.fails("create_watchlist", "the most allowed; delete one first", client_id=c["client_id"], name="One more")


# -- synthesized requests ---------------------------------------------------------------------------

def _asks(tool: str, *, listing=None, seeds=(0,), draws: int = 60) -> list[tuple]:
    """Requests the recipe writes for `tool` from the bundles of a few worlds, each with the result of
    its call (after the calls it asks for first, on a copy of the world) and, given
    `listing(ask, read)`, the entry a look-up's listing shows for the same entity."""
    import json
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("trading"), get_recipe("trading")
    found = []
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"trading asks {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == tool):
            for _ in range(draws):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None:
                    continue
                entry = listing(ask, read) if listing else None
                trial = world.clone()
                tools = toolkit(trial)
                for name, args in ask.prior:
                    tools.run(name, dict(args))
                found.append((ask, json.loads(tools.run(tool, dict(ask.args))), entry))
                trial.close()
        world.close()
    return found


def _account_listed(ask, read) -> dict | None:
    account = next(r for r in ask.refs if r.kind == "account")
    return next((a for a in read("list_accounts", client_id=account.owner.key) if a["account_id"] == account.key), None)


def _searched(ask, read) -> dict | None:
    q = next(r for r in ask.refs if r.kind == "instrument")
    return next((i for i in read("search_instruments", query=q.entity["symbol"]) if i["instrument_id"] == q.key), None)


def _order_listed(ask, read) -> dict | None:
    order = next(r for r in ask.refs if r.kind == "order")
    listed = read("list_orders", account_id=order.owner.key, status=order.entity["status"], limit=100)
    return next((o for o in listed if o["order_id"] == order.key), None)


def test_a_question_the_account_list_or_the_search_answers_is_asked_of_it():
    """The account list shows each account's cash and buying power, the search an instrument's last
    price, the order list an order's fill price: `get_account_summary`, `get_quote` and `get_order`
    are asked only what those look-ups (made before them) do not show, or an agent that rightly
    skips the second call loses coverage."""
    for tool, listing in (("get_account_summary", _account_listed), ("get_quote", _searched),
                          ("get_order", _order_listed)):
        asks = [(ask, result, entry) for ask, result, entry in _asks(tool, listing=listing) if not ask.prior]
        assert len(asks) > 20
        for ask, result, entry in asks:
            try:
                read_off = entry is not None and ask.facts(entry) == ask.facts(result)
            except (KeyError, IndexError, TypeError):
                read_off = False
            assert not read_off, (tool, ask.say)


def test_holdings_are_named_as_people_name_them_and_counted_only_when_asked():
    """'Which stocks do I own?' is answered by the companies' names or tickers; the share counts are
    facts only of a wording that asks how many."""
    from prove_env.facts import facts_stated

    asks = _asks("get_positions")
    listings = [(ask, result) for ask, result, _ in asks if "average" not in ask.say]
    assert len(listings) > 10
    for ask, result in listings:
        words = " ".join(w for w in (ask.say, ask.detail, ask.terse) if w).lower()
        names = "; ".join(p["name"] for p in result)
        if "how many" not in words and "share count" not in words:
            assert facts_stated([ask.facts(result)], [f"You hold {names}."]), ask.say
        else:
            assert not facts_stated([ask.facts(result)], [f"You hold {names}."]), ask.say


def test_the_sectors_are_what_the_instrument_search_lists_so_the_two_are_substitutes():
    """Listing every instrument shows every sector: a task that leaves `list_sectors` out also
    leaves the search out (or hides another tool)."""
    from prove_env.synthesis.recipe import get_recipe

    from_search = {i["sector"] for i in _call_read("search_instruments", limit=100)}
    assert {s["sector"] for s in _call_read("list_sectors")} <= from_search
    assert "search_instruments" in get_recipe("trading").substitutes_of("list_sectors")


def _call_read(tool: str, **arguments):
    import json

    from prove_env.registry import get_toolkit
    from prove_env.world import worlds

    toolkit = get_toolkit("trading")
    world = worlds.create(toolkit, 0)
    try:
        return json.loads(toolkit(world).run(tool, arguments))
    finally:
        world.close()


def test_an_order_is_named_with_its_account_and_looked_up_as_an_agent_would():
    """A client with several accounts says which one holds the order to change or cancel, and the
    look-up lists the account's orders of that status as an agent would: the default page when the
    order is on it, a longer one only when it lies further down."""
    from prove_env.servers.trading.synth import KIND_WORDS
    from prove_env.synthesis.recipe import get_recipe

    def accounts(ask, read) -> int:
        client = next(r for r in ask.refs if r.kind == "client")
        return sum(a["status"] == "active" for a in read("list_accounts", client_id=client.key))

    lookup = next(x for x in get_recipe("trading").lookups if x.kind == "order")
    several = 0
    for tool in ("cancel_order", "modify_order"):
        for ask, _, held in _asks(tool, listing=accounts):
            order = next((r for r in ask.refs if r.kind == "order"), None)
            if order is None:
                continue  # a limit order placed and cancelled in the same request
            account = order.owner.entity
            same = [o["order_id"] for o in account["orders"] if o["status"] == order.entity["status"]]
            assert ("limit" in lookup.args(order)) == (same.index(order.key) >= 15), ask.say
            if held > 1:
                words = " ".join(w for w in (ask.say, ask.detail, ask.terse) if w)
                assert KIND_WORDS[account["kind"]] in words or account["account_number"][-4:] in words, words
                several += 1
    assert several


def test_an_amount_the_user_does_not_say_is_read_from_the_account_summary_first():
    """Finding: "Send all the cash that can be withdrawn ... How much was it?" withdrew 305.00 with
    only the account list read, which shows 1,805.00 of cash: what can go out now shows only in the
    summary, so the request reads it first (and an agent that checks it is not scored down)."""
    from prove_env.synthesis.wording import money

    asks = _asks("withdraw_cash", seeds=(0, 1))
    unsaid = [ask for ask, _, _ in asks
              if money(ask.args["amount"]) not in " ".join(w for w in (ask.say, ask.detail, ask.terse) if w)]
    assert len(unsaid) > 5
    for ask in unsaid:
        assert ("get_account_summary", {"account_id": ask.args["account_id"]}) in [
            (name, dict(args)) for name, args in ask.prior], ask.say


def test_a_watchlist_question_asks_only_for_its_symbols():
    """Finding: "Which symbols are in my Momentum watchlist, and how are they doing today?" recorded
    only the symbols, so an answer without the day's changes passed."""
    asks = _asks("list_watchlists")
    assert len(asks) > 20
    for ask, _, _ in asks:
        words = " ".join(w for w in (ask.say, ask.detail, ask.terse) if w)
        assert "doing" not in words and "change" not in words, words


def test_a_listing_asks_for_a_longer_page_only_when_the_default_one_misses_some():
    """Finding: "Which ETFs are there?" was searched with limit=20 while the default page of 10 lists
    all 8, so an agent that leaves the page size out lost the call's coverage. And "the Technology
    stocks, with their prices" recorded only the names."""
    asks = _asks("search_instruments")
    etfs = [(ask, result) for ask, result, _ in asks if ask.args.get("kind") == "etf"]
    assert len(etfs) > 5
    for ask, result in etfs:
        assert "limit" not in ask.args or len(result) > 10, (ask.args, len(result))
    for ask, _, _ in asks:
        if "sector" in ask.args:
            assert "price" not in ask.say, ask.say


def test_an_order_wanted_only_if_it_fills_at_once_is_not_good_till_cancelled():
    """Finding: "GTC limit buy 3 Home Depot at $336 in the IRA; cancel unless filled at once." asked
    for an order that stays until cancelled and, in the same breath, one that does not. The order
    placed and cancelled at once is a day order (the default), and no wording says otherwise."""
    asks = [ask for ask, _, _ in _asks("cancel_order") if ask.prior]
    assert len(asks) > 10
    for ask in asks:
        (name, placed), = ask.prior
        assert name == "place_order" and "time_in_force" not in placed, placed
        words = " ".join(w for w in (ask.say, ask.detail, ask.terse) if w).lower()
        assert "gtc" not in words and "good till" not in words and "good-till" not in words, words


def test_a_company_is_stated_by_its_name_without_its_legal_form():
    """Finding: "list the stocks ... in the Industrials sector" recorded UPS as 'UPS' or 'United Parcel
    Service, Inc.', so "Boeing, Caterpillar and United Parcel Service" failed."""
    from prove_env.facts import stated
    from servers.trading.synth import _called

    for symbol, name, said in (("UPS", "United Parcel Service, Inc.", "United Parcel Service"),
                               ("JPM", "JPMorgan Chase & Co.", "JPMorgan Chase"),
                               ("UNH", "UnitedHealth Group Incorporated", "UnitedHealth Group")):
        assert stated(_called({"symbol": symbol, "name": name}), f"It is {said}."), name
    assert not stated(_called({"symbol": "UPS", "name": "United Parcel Service, Inc."}), "It is Boeing.")


def test_a_watchlist_name_is_quoted_where_no_article_frames_it():
    """Finding: the terse "Maybe later watchlist?" read as words; a name said bare is quoted."""
    for tool in ("list_watchlists", "delete_watchlist"):
        asks = _asks(tool)
        assert asks
        for ask, _, _ in (a for a in asks if a[0].mentions):
            name = ask.mentions[0]
            for words in (ask.terse, *(s for s in [ask.say] if "called" in ask.say or "in my" in ask.say)):
                assert f"'{name}'" in words, words


def test_no_request_is_left_for_a_hidden_tool_the_shown_tools_add_up():
    """Finding: "Across every client of the firm, how many buy and sell orders are open?" was an
    abstention, but find_clients lists every client, and their accounts' open orders add up to what
    count_open_orders tells."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import get_recipe
    from prove_env.world import worlds

    toolkit = get_toolkit("trading")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    clients = tools.find_clients(limit=100)
    assert len(clients) < 100
    sides = {"buy": 0, "sell": 0}
    for client in clients:
        for account in tools.list_accounts(client["client_id"]):
            for order in tools.list_orders(account["account_id"], status="open", limit=100):
                sides[order["side"]] += 1
    assert sides == tools.count_open_orders()
    assert not [h for h in get_recipe("trading").hidden if h.tool == "count_open_orders"]


def test_an_order_change_does_not_name_its_price_field_again_with_the_new_price():
    """Finding: "Can you adjust my open limit order ...? The limit price needs to change. The new limit
    price is $70." said 'limit price' in every sentence; the held-back price is said without it."""
    asks = [a for a, _, _ in _asks("modify_order", seeds=(0, 1, 2)) if a.detail]
    assert asks
    for ask in asks:
        assert "price" not in ask.detail, (ask.say, ask.detail)


def test_a_fill_time_or_a_realised_pnl_is_asked_of_the_trade_history():
    """"Fill time of my 20 SPY order on July 24?": the trade history (`list_fills`) shows each fill with
    its order, time and realised P&L in one call, so asking it through the order list and the order in
    full (`get_order`) is a longer route than a shown tool offers. `get_order` is asked only what the
    trade history does not show (when an order that did not fill was cancelled or expired), and a
    filled order's time is asked of the trade history itself."""
    import json

    def history(ask, read) -> list:
        order = next(r for r in ask.refs if r.kind == "order")
        return read("list_fills", account_id=order.owner.key, limit=100)

    asks = _asks("get_order", listing=history)
    assert len(asks) > 20
    for ask, result, fills in asks:
        facts = ask.facts(result)
        assert facts, ask.say
        text = json.dumps(fills)
        assert not all((json.dumps(f) if isinstance(f, str) else str(f)) in text for f in facts), ask.say
    filled = [(ask, result) for ask, result, _ in _asks("list_fills") if "fill" in ask.terse.lower()
              and ask.terse.startswith(("Fill time", "Realised"))]
    assert filled
    for ask, result in filled:
        assert ask.facts(result), ask.say


def test_an_expired_order_is_said_to_have_expired_not_to_have_been_expired():
    """'My order ... was expired.' reads wrong: an order expires; it is cancelled."""
    asks = _asks("get_order")
    assert any("expire" in ask.say for ask, _, _ in asks)
    for ask, _, _ in asks:
        assert "was expired" not in f"{ask.say} {ask.terse}" and "expired?" not in ask.say + ask.terse, ask.say


def test_a_client_with_a_roth_ira_calls_the_other_ira_traditional():
    """A Roth IRA is an IRA too: 'Add $5,000 to the IRA' after a question about the Roth IRA could mean
    either, so the `ira` account of a client who also holds a Roth IRA is said to be the traditional
    IRA (or named by its last digits), never 'the IRA' or 'my IRA' alone."""
    import re

    def accounts(ask, read) -> list:
        account = next(r for r in ask.refs if r.kind == "account")
        return read("list_accounts", client_id=account.owner.key)

    both = 0
    for tool in ("deposit_cash", "list_orders", "get_positions"):
        for ask, _, listed in _asks(tool, listing=accounts):
            account = next(r for r in ask.refs if r.kind == "account").entity
            if account["kind"] != "ira" or not any(a["kind"] == "roth_ira" for a in listed):
                continue
            both += 1
            words = " ".join(w for w in (ask.say, ask.detail, ask.terse) if w)
            assert not re.search(r"(?<!traditional )(?<!Roth )\bIRA\b", words), words
    assert both > 5


def test_the_active_alerts_are_asked_for_in_words_that_leave_out_the_triggered_ones():
    """'What price alerts do I have set?' does not say whether an alert that already went off counts,
    and the gold lists only the active ones (status='active'): every such request says so."""
    import re

    asks = [ask for ask, _, _ in _asks("list_alerts") if ask.args.get("status") == "active"]
    assert len(asks) > 10
    for ask in asks:
        assert re.search(r"still|active|watching", ask.say) and "active" in ask.terse, ask.say


def test_a_limit_buy_says_it_buys():
    """Finding: "Set up a limit order in my individual account for 1 share of Netflix. My limit is $717
    a share." never said buy or sell; every request for a limit buy says which side it is."""
    import re

    asks = [ask for ask, _, _ in _asks("place_order", draws=200)
            if ask.args.get("order_type") == "limit" and ask.args["side"] == "buy"]
    assert len(asks) > 10
    for ask in asks:
        assert re.search(r"\bbuy\b|\bbid\b", ask.say, re.I) and re.search(r"\bbuy\b", ask.terse, re.I), ask.say


def test_a_fill_price_is_asked_of_the_trade_history_that_shows_the_fill_time():
    """'At what time did my DUK order fill?' reads the account's fills, which show every fill's price
    too: a later 'what was the fill price of my BA order?' in the same account is asked of the same
    list (the gates see it read before), not of the order list's average fill price, a second read
    of what the fills already showed."""
    from prove_env.synthesis.recipe import get_recipe

    recipe = get_recipe("trading")
    prices = [g for g in recipe.goals if g.build.__name__ == "fill_price"]
    assert [g.tool for g in prices] == ["list_fills"]
    asks = _asks("list_fills", draws=80)
    priced = [(ask, result) for ask, result, _ in asks if ask.terse.startswith("Fill price of my")]
    assert len(priced) > 5
    for ask, result in priced:
        assert set(ask.args) == {"account_id"}, ask.say  # the same call as the fill time's
        facts = ask.facts(result)
        assert len(facts) == 1 and any(f["price"] == facts[0] for f in result), ask.say


def test_a_request_whose_facts_are_fill_prices_asks_for_the_prices():
    """Finding: "What did I trade in the IRA from April 7 through April 13, 2026?" required the fill's price
    406.36, and "You sold 15 shares of Linde (LIN) on April 13." failed: every request of the trade
    history that records a fill's price asks for prices, in every wording."""
    import re

    asks = _asks("list_fills", draws=120)
    priced = [ask for ask, result, _ in asks
              if any(f["price"] in ask.facts(result) for f in result if isinstance(f, dict))]
    kinds = {next((k for k in ("My ", "Fills in ", "Fill price of my ") if ask.terse.startswith(k)), ask.terse)
             for ask in priced}
    assert {"My ", "Fills in ", "Fill price of my "} <= kinds  # by instrument, by dates, of one order
    for ask in priced:
        assert re.search(r"\bprices?\b", ask.say, re.I) and re.search(r"\bprices?\b", ask.terse, re.I), \
            (ask.say, ask.terse)



def test_every_trade_in_one_instrument_is_read_off_a_history_that_fits_on_a_page():
    """Finding: "Show me every trade I've made in GLD in my brokerage account, with the prices." searched
    GLD for its id and filtered the account's fills by it, but the account held one fill in all: the
    whole history (a page of 20, list_fills' default) shows every trade, so listing it is the short
    route and the search and the filter are a longer one. The filter is kept for a longer history."""
    def history(ask, read) -> list:
        account = next(r for r in ask.refs if r.kind == "account")
        return read("list_fills", account_id=account.key, limit=100)

    asks = [(ask, result, every) for ask, result, every in _asks("list_fills", listing=history, draws=120)
            if ask.terse.startswith("My ") and " fills in " in ask.terse]
    assert asks
    whole = 0
    for ask, result, every in asks:
        facts = ask.facts(result)
        assert facts, ask.say
        if len(every) < 20:
            whole += 1
            assert set(ask.args) == {"account_id"}, ask.say
            assert not [r for r in ask.refs if r.kind == "instrument"], ask.say
        else:
            assert "instrument_id" in ask.args, ask.say
    assert whole


def test_a_zero_balance_is_stated_in_words_too():
    """'How much cash does each account hold?' with an empty account: 'the joint account has no cash'
    is a right answer, not only '$0'; so is 'nothing realised yet' for a realised P&L of zero."""
    from prove_env.facts import stated, values

    zeros = [(ask.say, fact) for tool in ("list_accounts", "get_account_summary")
             for ask, result, _ in _asks(tool, seeds=(0, 1), draws=30)
             for fact in ask.facts(result) if 0 in values(fact)]
    assert any("cash" in say for say, _ in zeros) and any("realised" in say for say, _ in zeros)
    for say, fact in zeros:
        assert stated(fact, "Nothing at the moment, I'm afraid."), say
        assert not stated(fact, "It holds $12.50."), say
        if "cash" in say:
            assert stated(fact, "Your joint account has no cash."), say
        if "realised" in say:
            assert stated(fact, "You haven't realised any gain or loss there yet."), say


def test_a_last_price_is_asked_for_as_a_price_not_as_where_it_trades():
    """'If not, where is it trading?' also reads as the exchange the search shows (NASDAQ), and an
    answer naming the exchange is scored wrong: the request for the last price says 'price'."""
    asks = [ask for ask, result, _ in _asks("search_instruments", seeds=(0, 1), draws=120)
            if ask.facts(result) == [i["last"] for i in result if i["symbol"] == ask.args.get("query")] != []]
    assert len(asks) > 50
    for ask in asks:
        words = " ".join(w for w in (ask.say, ask.terse, ask.detail) if w).lower()
        assert "where is" not in words and "where's" not in words, ask.say


def test_a_market_order_is_not_asked_for_now_while_the_market_is_closed():
    """Finding: "Please sell 6 shares of Prologis from my joint account now." on a Sunday: the market order
    can only wait for Monday's open, so a careful agent that says so and asks whether to queue it fails the
    task. While the market is closed a market order is asked for without 'now' or 'right away' (the
    queued buy asks when it will go through, which is what the world answers)."""
    import re

    status = [result for ask, result, _ in _asks("get_market_status", draws=5)]
    assert status and not any(r.get("market_open") for r in status)  # the seed-0 world is after the close
    asks = [ask for ask, _, _ in _asks("place_order", draws=400)
            if ask.args.get("order_type", "market") == "market" and "executes when" not in ask.terse]
    assert len(asks) > 50
    for ask in asks:
        words = " ".join(w for w in (ask.say, ask.detail) if w)
        assert not re.search(r"\bnow\b(?! on)|right away|immediately|at once", words.replace("for now", "")), words


def test_whether_an_instrument_trades_is_not_asked_while_the_market_is_closed():
    """'Is GLD trading right now? If it is, at what price?' on a closed market reads as 'is the market
    open?': 'No, the market is closed' is a right answer that states no price, and the task records the
    last price. While the market is closed the halt question asks about a halt only."""
    asks = [ask for ask, result, _ in _asks("search_instruments", draws=300)
            if ask.terse.startswith("Is ") and "halted" in ask.terse]
    assert len(asks) > 10
    for ask in asks:
        assert "right now" not in ask.say and "at the moment" not in ask.say, ask.say


def test_a_day_order_is_not_asked_for_today_while_the_market_is_closed():
    """Finding (seed 107): "Put in a limit order to sell 2 shares of VTI from my brokerage account at $247,
    for today." on a Sunday: the day order is queued for Monday's open and works only then, so 'for today'
    asks for what cannot be, and a careful agent that says so and asks whether Monday will do fails the
    task. While the market is closed a limit day order is asked for as a day order, not for today."""
    status = [result for ask, result, _ in _asks("get_market_status", draws=5)]
    assert status and not any(r.get("market_open") for r in status)  # the seed-0 world is after the close
    asks = [ask for ask, _, _ in _asks("place_order", draws=400)
            if ask.args.get("order_type") == "limit" and ask.args.get("time_in_force", "day") == "day"]
    assert len(asks) > 20 and any(ask.args["side"] == "sell" for ask in asks)
    for ask in asks:
        words = " ".join(w for w in (ask.say, ask.terse, ask.detail) if w)
        assert "today" not in words.lower(), words


def test_an_alert_is_named_in_words_not_as_a_hyphenated_compound():
    """Finding (seed 129): "I don't need the T below-$23.67 alert anymore; remove it." reads clumsily, worst
    with a one-letter symbol: an alert is named by its instrument, its condition and its price in words."""
    import re

    asks = [ask for ask, _, _ in _asks("delete_alert", draws=200)]
    assert len(asks) > 50
    for ask in asks:
        for words in (ask.say, ask.terse):
            assert not re.search(r"(above|below)-\$", words), words
            assert re.search(r"(above|below) \$", words), words


def test_a_one_letter_ticker_is_not_said_alone():
    """Finding (seed 141): "Show me every trade I've made in T in my account ending in 9413" reads T as a
    stray letter: a one-letter ticker is said with the company's name ('AT&T', 'AT&T (T)')."""
    import random

    from servers.trading.synth import ins_name

    q = {"symbol": "T", "short": "AT&T", "kind": "stock"}
    rng = random.Random(0)
    said = {ins_name(q, rng) for _ in range(200)}
    assert "T" not in said and said <= {"AT&T", "AT&T (T)"}, said


def test_a_trade_history_asked_when_states_the_days_too():
    """Finding (seed 141): "When did I buy or sell Coca-Cola (KO) in my account ending in 3394, and at what
    prices?" had the fill prices alone as facts: asked when, the days of the fills are facts too."""
    asks = [(ask, result) for ask, result, _ in _asks("list_fills", draws=200)
            if ask.say.startswith("When did I buy or sell")]
    assert asks
    for ask, result in asks:
        facts = ask.facts(result)
        days = {f["filled_at"][:10] for f in result}
        assert any(x in days for x in facts), ask.say
        assert "days" in ask.terse, ask.terse


def test_an_unrealised_pnl_is_asked_as_an_amount_up_or_down():
    """Finding (seed 143): "How are my holdings in my account ending in 6636 doing overall, unrealised?" asks
    how they are doing with the kind of figure tacked on: the amount is asked for, up or down."""
    asks = [ask for ask, _, _ in _asks("get_account_summary", draws=300)]
    assert len(asks) > 50
    for ask in asks:
        assert "doing overall, unrealised" not in ask.say, ask.say


def test_a_fill_time_asked_by_count_names_the_side_of_the_order():
    """Finding (seed 143): "At what time did my 640-share AT&T (T) order from May 26 in the IRA get filled?"
    came right after the client changed an open order to sell 640 AT&T shares: the order asked about is
    named with its side ('buy order', 'sell order')."""
    import re

    asks = [ask for ask, _, _ in _asks("list_fills", draws=300) if ask.say.startswith("At what time did my")]
    assert asks
    for ask in asks:
        assert re.search(r"-share .* (buy|sell) order from", ask.say), ask.say


def test_an_accounts_listing_with_cash_asks_for_every_account():
    """Finding (seed 145): "List my accounts with cash." reads as "the accounts that hold cash", so a model
    leaving out the account at $0.00 failed the fact that reads its zero: the terse wording asks for the cash
    in each account."""
    asks = [ask for ask, _, _ in _asks("list_accounts", draws=200) if "cash" in ask.terse]
    assert asks
    for ask in asks:
        assert ask.terse != "List my accounts with cash.", ask.terse


def test_a_closing_price_of_a_past_day_is_not_called_a_few_days_back():
    """Finding (seed 145): "I need a closing price for Home Depot from a few days back. The day is October
    30, 2026." was said on December 4: the day can be weeks back, so it is not called "a few days back"."""
    asks = [ask for ask, _, _ in _asks("get_price_history", draws=300)]
    assert len(asks) > 50
    for ask in asks:
        assert "a few days back" not in ask.say, ask.say


def test_another_watchlist_is_asked_only_by_a_client_who_keeps_one():
    """Finding (seed 147): "Can you make me another watchlist?" was asked by a client with no watchlist
    at all; "another" is said only where the client already keeps one."""
    found = _asks("create_watchlist", listing=lambda ask, read: read("list_watchlists", client_id=ask.args["client_id"]),
                  seeds=(0, 1, 2), draws=120)
    assert any(not kept for _, _, kept in found)
    for ask, _, kept in found:
        if not kept:
            assert "another" not in ask.say, ask.say


def test_a_watchlist_edit_names_the_watchlist_as_one():
    """Finding (seed 155): "Add UPS to Watching." named the watchlist bare, so it read as a verb ("Remove
    TLT from Core holdings." as holdings): an edit of a watchlist says it is a watchlist, its name quoted."""
    for goal in ("add_to_watchlist", "remove_from_watchlist"):
        asks = [ask for ask, _, _ in _asks(goal, draws=200)]
        assert asks
        for ask in asks:
            for text in (ask.say, ask.terse):
                name = ask.mentions[-1]
                assert any(f in text for f in (f"'{name}'", f"{name} watchlist", f"the {name} list")), text
