"""The trading server's tools: a brokerage's clients, accounts, positions, market data, orders,
watchlists and price alerts.

Rules, in one place:
- Quotes are frozen with the world's clock: a buy fills at the ask, a sell at the bid. A quote
  carries the day's open, high and low and the 5- and 20-day moving averages of the daily closes.
- The regular session runs on weekdays from 9:30 to 16:00 exchange time (`market.py`). While it is
  open, a market order fills at once, and a limit order fills at once when it is marketable (a buy
  limit at or above the ask, a sell limit at or below the bid); otherwise it rests in the book. A
  stop order always rests: a buy stop must be above the ask, a sell stop below the bid.
- While the market is closed, no order is refused for the hour and none fills: market and limit
  orders are queued for the next open (`queued_until`), as brokers queue them; a queued market buy
  holds quantity x the current ask. Market orders are day orders (good-till-cancelled is refused).
  The clock is frozen, so prices never move by themselves: a resting or queued order stays open
  until it is modified into a fill (in the session) or cancelled.
- Sales and deposits settle on the next business day (T+1). Until then the money counts in cash and
  buying power but not in settled cash, and only settled cash that open buy orders do not reserve
  can be withdrawn. Deposits and withdrawals are kept as the account's cash history.
- A resting order reserves what it would spend: a buy reserves quantity x limit (or stop) price in
  cash, a sell reserves the shares. Buying power is cash less reserved cash; shares available to
  sell are shares held less reserved shares. Cancelling releases the reservation; modifying
  recomputes it.
- Refused: a quantity that is not a whole number above 0, a buy beyond buying power, selling more
  shares than are held and not reserved, any order on a halted instrument, trading from a closed
  account, modifying or cancelling an order that is not open (filled, cancelled, expired), and a
  withdrawal beyond the settled, unreserved cash.
- Realised P&L is booked on each sell at (fill price - average cost) x quantity; unrealised P&L is
  (last - average cost) x quantity of the shares held. Buys update the average cost; sells do not.
"""

from __future__ import annotations

import collections
import datetime as dt
from itertools import groupby
from operator import itemgetter
from typing import Literal

from sqlalchemy import bindparam, func, select

from prove_env.toolkit import Date, Detail, Entity, Id, Limit, Money, Toolkit, ToolError, check_range, sql_where, tool

from .market import CLOSE, HOURS, closed_because, is_open, last_close, next_open, settlement_day
from .models import Account, Alert, Base, CashTransfer, Client, Fill, Instrument, Order, Position, Price, \
    Watchlist, WatchlistItem
from .seed import seed

OrderStatus = Literal["open", "filled", "cancelled", "expired"]
MAX_DEPOSIT = 250_000.00
MAX_WATCHLISTS = 10
MAX_ORDER_SHARES = 100_000

# Statements built once (their compiled form is cached): one position of an account, and the sectors.
_POSITION = select(Position).where(Position.account_id == bindparam("account_id"),
                                   Position.instrument_id == bindparam("instrument_id"))

# Watchlists (`l`) with their instruments in symbol order, one row each (`_Watched`; an empty list: one
# row with no instrument); the condition names a column of `l`.
_WATCHLISTS = ("SELECT l.id, l.name, i.id, i.symbol, i.name, i.kind, i.sector, i.exchange, i.last, i.prev_close, "
               "i.halted FROM watchlists l LEFT JOIN watchlist_items w ON w.watchlist_id = l.id "
               "LEFT JOIN instruments i ON i.id = w.instrument_id WHERE l.{} = ? ORDER BY l.id, i.symbol")
# An instrument on a watchlist, as a plain row that `_instrument` reads as it reads an `Instrument`.
_Watched = collections.namedtuple("_Watched", "watchlist_id watchlist id symbol name kind sector exchange last "
                                              "prev_close halted")


class Trading(Toolkit):
    """An online brokerage: look up clients, their accounts, cash, buying power, positions and profit
    and loss; search stocks and ETFs and read quotes and daily price history; place, modify and cancel
    market, limit and stop orders; read order history and fills; keep watchlists and price alerts.
    Prices are in USD and quotes are as of now; the market's session hours and T+1 settlement follow the
    world's clock, and only settled cash can be withdrawn."""

    name = "trading"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("client", Client, "CLI", lookup="find_clients"),
        Entity("account", Account, "ACT", lookup="list_accounts"),
        Entity("instrument", Instrument, "INS", lookup="search_instruments"),
        Entity("order", Order, "ORD", lookup="list_orders"),
        Entity("watchlist", Watchlist, "WCH", lookup="list_watchlists"),
        Entity("alert", Alert, "ALR", lookup="list_alerts", exists=lambda alert: alert.status != "deleted"),
    )

    # -- clients and accounts ----------------------------------------------------------------------

    @tool(read_only=True)
    def find_clients(self, name: str | None = None, email: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find clients by name or email; with neither, list clients. Ordered by client id.

        Args:
            name: part of the client's full name, case-insensitive, such as 'Ada Park' or 'park'.
            email: the client's email address, case-insensitive, such as 'ada.park7@gmail.com'.
        """
        return [_client(c) for c in self.find(Client, name=name, name_columns=(("first_name", "last_name"),),
                                              email=email, limit=limit)]

    @tool(read_only=True)
    def list_accounts(self, client_id: Id("client")) -> list[dict]:
        """List a client's brokerage accounts, closed ones included, with cash and buying power.

        Args:
        """
        client = self.get(Client, client_id)
        accounts = self.load(Account, "SELECT id FROM accounts WHERE client_id = ? ORDER BY id", client.id)
        return [{**_account(a), "buying_power": self._buying_power(a)} for a in accounts]

    @tool(read_only=True)
    def get_account_summary(self, account_id: Id("account")) -> dict:
        """Return an account's balances: cash, cash reserved by open buy orders, buying power, settled and
        unsettled cash and how much can be withdrawn now, the market value of its positions, total
        equity, unrealised and realised profit and loss, and how many orders are open.

        Args:
        """
        account = self.get(Account, account_id)
        reserved = self._reserved_cash(account.id)
        unsettled = self._unsettled_cash(account.id)
        value = unrealised = realised = 0.0
        held = 0
        for pos, ins in self._positions(account.id, include_closed=True):
            realised += pos.realized_pnl
            if pos.quantity:
                held += 1
                value += pos.quantity * ins.last
                unrealised += pos.quantity * (ins.last - pos.average_cost)
        (open_orders,), = self.rows("SELECT count(*) FROM orders WHERE account_id = ? AND status = 'open'", account.id)
        return {**_account(account), "reserved_cash": reserved, "buying_power": _cents(account.cash - reserved),
                "settled_cash": _cents(max(0.0, account.cash - unsettled)), "unsettled_cash": unsettled,
                "available_to_withdraw": _withdrawable(account.cash, unsettled, reserved),
                "market_value": _cents(value), "equity": _cents(account.cash + value),
                "unrealized_pnl": _cents(unrealised), "realized_pnl": _cents(realised), "positions": held,
                "open_orders": open_orders, "as_of": self.now}

    @tool(read_only=True, produces=("instrument",))
    def get_positions(self, account_id: Id("account"), include_closed: bool = False) -> list[dict]:
        """List an account's positions by symbol: shares held, shares available to sell (not reserved by
        open sell orders), average cost, last price, market value and unrealised and realised P&L.

        Args:
            include_closed: also list positions sold down to 0 shares, which keep their realised P&L
                (default false).
        """
        account = self.get(Account, account_id)
        reserved = self._reserved_shares(account.id)
        return [_position(pos, ins, reserved.get(ins.id, 0))
                for pos, ins in self._positions(account.id, include_closed=include_closed)]

    @tool(sets=("account.funded",))
    def deposit_cash(self, account_id: Id("account"), amount: Money) -> dict:
        """Move cash into an active account from the client's linked bank account.

        The cash can be traded with at once; it settles on the next business day (T+1) and only then can
        it be withdrawn. A single deposit may be at most 250,000.00.

        Args:
            amount: the amount in dollars, greater than 0 with at most two decimals, such as 5000.0.
        """
        account = self.get(Account, account_id)
        self._check_active(account)
        if amount > MAX_DEPOSIT:
            raise ToolError(f"A single deposit may be at most {MAX_DEPOSIT:,.2f}; split it or wire the money")
        transfer = CashTransfer(id=self.new_id("CSH"), account_id=account.id, kind="deposit", amount=amount,
                                created_at=self.now, settles_on=settlement_day(self.now.date()))
        self.db.add(transfer)
        account.cash = _cents(account.cash + amount)
        return {**_transfer(transfer, self.now), "cash": account.cash, "buying_power": self._buying_power(account)}

    @tool()
    def withdraw_cash(self, account_id: Id("account"), amount: Money) -> dict:
        """Move settled cash out of an active account to the client's linked bank account.

        Only settled cash that open buy orders do not reserve can be withdrawn: sales and deposits
        settle on the next business day (T+1), so money from today's sales or deposits must wait
        (get_account_summary tells `available_to_withdraw`).

        Args:
            amount: the amount in dollars, greater than 0 with at most two decimals, such as 1500.0.
        """
        account = self.get(Account, account_id)
        self._check_active(account)
        reserved, unsettled = self._reserved_cash(account.id), self._unsettled_cash(account.id)
        available = _withdrawable(account.cash, unsettled, reserved)
        if amount > available:
            why = [f"account {account.id} holds {account.cash:,.2f} in cash"]
            wait = ""
            if unsettled:
                settles = self._next_settlement(account.id)
                why.append(f"{unsettled:,.2f} of it is unsettled (deposits and sales settle the next business day; "
                           f"the next settles on {settles})")
                wait = f", or wait until the cash settles on {settles}"
            if reserved:
                why.append(f"{reserved:,.2f} is reserved by open buy orders")
            raise ToolError(f"Cannot withdraw {amount:,.2f}: only settled cash that open orders do not reserve can "
                            f"be withdrawn; {', '.join(why)}, so at most {available:,.2f} can be withdrawn now. "
                            f"Withdraw at most {available:,.2f}{wait}")
        transfer = CashTransfer(id=self.new_id("CSH"), account_id=account.id, kind="withdrawal", amount=amount,
                                created_at=self.now, settles_on=self.now.date())
        self.db.add(transfer)
        account.cash = _cents(account.cash - amount)
        return {**_transfer(transfer, self.now), "cash": account.cash, "buying_power": self._buying_power(account),
                "available_to_withdraw": _cents(available - amount)}

    @tool(read_only=True)
    def list_cash_transfers(self, account_id: Id("account"), kind: Literal["deposit", "withdrawal"] | None = None,
                            start_date: Date | None = None, end_date: Date | None = None,
                            limit: Limit = 20) -> list[dict]:
        """List an account's cash history, newest first: deposits from and withdrawals to the client's
        bank, with the amount, when it was made, when it settles and whether it has settled.

        Args:
            kind: only 'deposit's or only 'withdrawal's.
            start_date: the first day, such as '2026-03-01'.
            end_date: the last day, such as '2026-03-31'.
        """
        account = self.get(Account, account_id)
        check_range(start_date, end_date)
        since, until = _day_bounds(start_date, end_date)
        where, params = sql_where(("account_id = ?", account.id), ("kind = ?", kind or None),
                                  ("created_at >= ?", since), ("created_at < ?", until))
        transfers = self.load(CashTransfer, f"SELECT id FROM cash_transfers WHERE {where} "
                                            "ORDER BY created_at DESC, id DESC LIMIT ?", *params, limit)
        return [_transfer(t, self.now) for t in transfers]

    # -- market data -------------------------------------------------------------------------------

    @tool(read_only=True)
    def search_instruments(self, query: str | None = None, sector: str | None = None,
                           kind: Literal["stock", "etf"] | None = None, limit: Limit = 10) -> list[dict]:
        """Search stocks and ETFs by symbol or name, or list them by sector or kind, with the last price.

        An exact symbol comes first; then matches by symbol. Every criterion given must match.

        Args:
            query: a ticker symbol or part of the name, case-insensitive, such as 'AAPL' or 'coca-cola'.
            sector: the sector, case-insensitive, such as 'Health Care' (list_sectors names them all).
            kind: 'stock' or 'etf'.
        """
        where, params = [], []
        text = (query or "").strip().lower()
        if text:
            where.append("(lower(symbol) = ? OR lower(name) LIKE '%' || ? || '%')")
            params += [text, text]
        if sector and sector.strip():
            where.append("lower(sector) = ?")
            params.append(sector.strip().lower())
        if kind:
            where.append("kind = ?")
            params.append(kind)
        found = self.load(Instrument, f"SELECT id FROM instruments WHERE {' AND '.join(where) or '1'} "
                                         "ORDER BY lower(symbol) != ?, symbol LIMIT ?", *params, text, limit)
        return [_instrument(i) for i in found]

    @tool(read_only=True)
    def list_sectors(self) -> list[dict]:
        """List the sectors instruments belong to, with how many stocks and ETFs each has."""
        rows = self.rows("SELECT sector, kind, count(*) FROM instruments GROUP BY sector, kind ORDER BY sector, kind")
        sectors: dict[str, dict] = {}
        for sector, kind, count in rows:
            entry = sectors.setdefault(sector, {"sector": sector, "stocks": 0, "etfs": 0})
            entry["stocks" if kind == "stock" else "etfs"] += count
        return list(sectors.values())

    @tool(read_only=True)
    def get_market_status(self) -> dict:
        """Say whether the market is open now: the regular session runs on weekdays from 9:30 to 16:00
        exchange time. While it is closed, orders are queued for `next_open`; `closes_at` is today's
        close while it is open. Also the day today's trades settle on (T+1)."""
        now = self.now
        reason = closed_because(now)
        return {"as_of": now, "market_open": reason is None, "closed_reason": reason,
                "next_open": next_open(now) if reason else None,
                "closes_at": dt.datetime.combine(now.date(), CLOSE) if reason is None else None,
                "hours": HOURS, "trades_today_settle_on": settlement_day(now.date())}

    @tool(read_only=True)
    def get_quote(self, instrument_id: Id("instrument")) -> dict:
        """Return an instrument's current quote: bid, ask, last price, previous close, change since the
        previous close (in dollars and percent), the day's open, high and low, today's volume, the 5-
        and 20-day moving averages of the daily closes, and whether trading is halted.

        Args:
        """
        ins = self.get(Instrument, instrument_id)
        change = _cents(ins.last - ins.prev_close)
        closes = [c for c, in self.rows("SELECT close FROM prices WHERE instrument_id = ? ORDER BY day DESC LIMIT 20",
                                        ins.id)]
        return {**_instrument(ins), "bid": ins.bid, "ask": ins.ask, "prev_close": ins.prev_close,
                "change": change, "change_percent": round(100 * change / ins.prev_close, 2), "open": ins.day_open,
                "day_high": ins.day_high, "day_low": ins.day_low, "volume": ins.volume,
                "sma_5": _average(closes[:5]), "sma_20": _average(closes[:20]), "halt_reason": ins.halt_reason,
                "as_of": self.now}

    @tool(read_only=True)
    def get_price_history(self, instrument_id: Id("instrument"), start_date: Date | None = None,
                          end_date: Date | None = None) -> dict:
        """Return an instrument's daily prices (open, high, low, close, volume) on trading days between
        two dates, oldest first, with the period's highest high, lowest low and change from the first
        open to the last close. Without dates: the last 10 trading days.

        Args:
            start_date: the first day, such as '2026-03-02' (default: 10 trading days ago).
            end_date: the last day, such as '2026-03-31' (default: the last trading day before today).
        """
        ins = self.get(Instrument, instrument_id)
        check_range(start_date, end_date)
        sql, params = "SELECT day, open, high, low, close, volume FROM prices WHERE instrument_id = ?", [ins.id]
        if end_date is not None:
            sql, params = sql + " AND day <= ?", [*params, end_date]
        if start_date is not None:
            rows = self.rows(sql + " AND day >= ? ORDER BY day", *params, start_date)
        else:
            rows = self.rows(sql + " ORDER BY day DESC LIMIT 10", *params)[::-1]
        days = [dict(zip(("date", "open", "high", "low", "close", "volume"), row)) for row in rows]
        out = {"instrument_id": ins.id, "symbol": ins.symbol, "days": days}
        if days:
            first, last = days[0], days[-1]
            change = _cents(last["close"] - first["open"])
            out.update(start_date=first["date"], end_date=last["date"], high=max(d["high"] for d in days),
                       low=min(d["low"] for d in days), change=change,
                       change_percent=round(100 * change / first["open"], 2))
        return out

    # -- orders ------------------------------------------------------------------------------------

    @tool(produces=("order",), sets=("order.open",), details=(Detail("orders", "note"),))
    def place_order(self, account_id: Id("account"), instrument_id: Id("instrument"), side: Literal["buy", "sell"],
                    quantity: int, order_type: Literal["market", "limit", "stop"] = "market",
                    limit_price: Money | None = None, stop_price: Money | None = None,
                    time_in_force: Literal["day", "gtc"] = "day", note: str | None = None) -> dict:
        """Place an order to buy or sell whole shares.

        While the market is open (weekdays 9:30 to 16:00), a market order fills at once (buys at the ask,
        sells at the bid) and a limit order fills at once when marketable (buy limit at or above the ask,
        sell limit at or below the bid), else it rests in the book and reserves quantity x limit price in
        cash (buy) or the shares (sell). A stop order rests until the price reaches the stop (a buy stop
        above the ask, a sell stop below the bid) and reserves likewise. While the market is closed,
        market and limit orders are queued for the next open (`queued_until`) and reserve the same way
        (a market buy: quantity x the current ask). A buy needs the buying power; a sell needs shares
        held and not already reserved.

        Args:
            side: 'buy' or 'sell'.
            quantity: how many shares, a whole number greater than 0, such as 10.
            order_type: 'market' (default), 'limit' (needs limit_price) or 'stop' (needs stop_price).
            limit_price: for a limit order, the highest price to buy at or lowest to sell at, such as 185.5.
            stop_price: for a stop order, the price that triggers it, such as 170.0.
            time_in_force: for limit and stop orders, 'day' (default: the order expires at the close of its
                session if it has not filled) or 'gtc' (good till cancelled); a market order is a day order.
            note: an optional note kept with the order for the client's records, such as 'Earnings play'.
        """
        account = self.get(Account, account_id)
        ins = self.get(Instrument, instrument_id)
        self._check_active(account)
        self._check_quantity(quantity)
        self._check_tradable(ins)
        if order_type == "market" and (limit_price is not None or stop_price is not None):
            raise ToolError("A market order takes no limit_price or stop_price; use order_type 'limit' or 'stop'")
        if order_type == "limit" and (limit_price is None or stop_price is not None):
            raise ToolError("A limit order needs limit_price (and no stop_price)")
        if order_type == "stop" and (stop_price is None or limit_price is not None):
            raise ToolError("A stop order needs stop_price (and no limit_price)")
        if order_type == "market" and time_in_force == "gtc":
            raise ToolError("A market order is a day order and cannot be good till cancelled; leave time_in_force "
                            "as 'day', or place a 'gtc' limit order")
        order = Order(id=self.new_id("ORD"), account_id=account.id, instrument_id=ins.id, side=side,
                      order_type=order_type, quantity=quantity, limit_price=limit_price, stop_price=stop_price,
                      time_in_force=time_in_force, status="open", reserved=0.0,
                      filled_quantity=0, average_fill_price=None, placed_at=self.now, updated_at=self.now,
                      closed_at=None, note=(note or "").strip() or None)
        self.db.add(order)
        fill = self._execute(account, ins, order)
        return self._order_result(account, ins, order, fill)

    @tool(read_only=True, produces=("order", "instrument"))
    def list_orders(self, account_id: Id("account"), status: OrderStatus | None = None,
                    instrument_id: Id("instrument") | None = None, limit: Limit = 20) -> list[dict]:
        """List an account's orders, newest first, optionally only those with one status or on one instrument.

        Args:
            status: 'open' (resting in the book), 'filled', 'cancelled' or 'expired'.
            instrument_id: only orders on this instrument, such as 'INS-0007'.
        """
        account = self.get(Account, account_id)
        where, params = ["account_id = ?"], [account.id]
        if status:
            where.append("status = ?")
            params.append(status)
        if instrument_id is not None:
            where.append("instrument_id = ?")
            params.append(instrument_id)
        orders = self.load(Order, f"SELECT id FROM orders WHERE {' AND '.join(where)} "
                                  "ORDER BY placed_at DESC, id DESC LIMIT ?", *params, limit)
        self.world.preload(Instrument, [o.instrument_id for o in orders])
        return [_order(o, self.db.get(Instrument, o.instrument_id), self.now) for o in orders]

    @tool(read_only=True)
    def get_order(self, order_id: Id("order")) -> dict:
        """Return one order in full, with its fills (price, quantity, time, realised P&L).

        Args:
        """
        order = self.get(Order, order_id)
        ins = self.get(Instrument, order.instrument_id)
        fills = self.load(Fill, "SELECT id FROM fills WHERE order_id = ? ORDER BY id", order.id)
        return {**_order(order, ins, self.now), "placed_at": order.placed_at, "updated_at": order.updated_at,
                "closed_at": order.closed_at, "fills": [_fill(f, ins) for f in fills]}

    @tool(requires=("order.open",))
    def modify_order(self, order_id: Id("order"), quantity: int | None = None, limit_price: Money | None = None,
                     stop_price: Money | None = None) -> dict:
        """Change an open order's quantity, limit price (limit orders) or stop price (stop orders).

        The reservation is recomputed and checked against buying power (or shares) again; while the market
        is open, a limit order that becomes marketable fills at once, so the same change sent again is
        refused once the order has filled (while it is closed, the order stays queued for the open).
        Filled, cancelled and expired orders cannot be changed.

        Args:
            quantity: the new number of shares, a whole number greater than 0, such as 15.
            limit_price: the new limit price of a limit order, such as 182.0.
            stop_price: the new stop price of a stop order, such as 165.0.
        """
        order = self.get(Order, order_id)
        self._check_open(order, "modified")
        if quantity is None and limit_price is None and stop_price is None:
            raise ToolError("Nothing to change: give a new quantity, limit_price or stop_price")
        if limit_price is not None and order.order_type != "limit":
            raise ToolError(f"Order {order.id} is a {order.order_type} order and has no limit price")
        if stop_price is not None and order.order_type != "stop":
            raise ToolError(f"Order {order.id} is a {order.order_type} order and has no stop price")
        if quantity is not None:
            self._check_quantity(quantity)
        account = self.get(Account, order.account_id)
        ins = self.get(Instrument, order.instrument_id)
        self._check_tradable(ins)
        order.reserved = 0.0  # released, then taken again by the new terms
        self.db.flush()
        order.quantity = quantity if quantity is not None else order.quantity
        order.limit_price = limit_price if limit_price is not None else order.limit_price
        order.stop_price = stop_price if stop_price is not None else order.stop_price
        order.updated_at = self.now
        fill = self._execute(account, ins, order)
        return self._order_result(account, ins, order, fill)

    @tool(destructive=True, requires=("order.open",))
    def cancel_order(self, order_id: Id("order")) -> dict:
        """Cancel an open order, releasing the cash or shares it reserved. Filled, cancelled and expired
        orders cannot be cancelled.

        Args:
        """
        order = self.get(Order, order_id)
        self._check_open(order, "cancelled")
        order.status, order.reserved, order.updated_at, order.closed_at = "cancelled", 0.0, self.now, self.now
        account = self.get(Account, order.account_id)
        ins = self.get(Instrument, order.instrument_id)
        return self._order_result(account, ins, order, None)

    @tool(read_only=True)
    def list_fills(self, account_id: Id("account"), instrument_id: Id("instrument") | None = None,
                   start_date: Date | None = None, end_date: Date | None = None, limit: Limit = 20) -> list[dict]:
        """List an account's executions (trade history), newest first: side, shares, price, amount and
        the realised P&L of sells.

        Args:
            instrument_id: only fills of this instrument, such as 'INS-0007'.
            start_date: the first day, such as '2026-03-01'.
            end_date: the last day, such as '2026-03-31'.
        """
        account = self.get(Account, account_id)
        check_range(start_date, end_date)
        since, until = _day_bounds(start_date, end_date)
        where, params = sql_where(("account_id = ?", account.id), ("instrument_id = ?", instrument_id),
                                  ("filled_at >= ?", since), ("filled_at < ?", until))
        fills = self.load(Fill, f"SELECT id FROM fills WHERE {where} "
                                "ORDER BY filled_at DESC, id DESC LIMIT ?", *params, limit)
        self.world.preload(Instrument, [f.instrument_id for f in fills])
        return [_fill(f, self.db.get(Instrument, f.instrument_id)) for f in fills]

    # -- watchlists --------------------------------------------------------------------------------

    @tool(read_only=True, produces=("instrument",))
    def list_watchlists(self, client_id: Id("client")) -> list[dict]:
        """List a client's watchlists with the instruments on each (symbol, name, last price, change today).

        Args:
        """
        return self._watchlists("client_id", self.get(Client, client_id).id)

    @tool(produces=("watchlist",))
    def create_watchlist(self, client_id: Id("client"), name: str) -> dict:
        """Create an empty watchlist for a client. Names are unique per client; at most 10 watchlists.

        Args:
            name: the watchlist's name, 1 to 40 characters, such as 'Dividend stocks'.
        """
        client = self.get(Client, client_id)
        name = self._watchlist_name(client.id, name)
        count = self.db.scalar(select(func.count()).select_from(Watchlist).where(Watchlist.client_id == client.id))
        if count >= MAX_WATCHLISTS:
            raise ToolError(f"Client {client.id} already has {count} watchlists, the most allowed; delete one first")
        wl = Watchlist(id=self.new_id("WCH"), client_id=client.id, name=name, created_at=self.now)
        self.db.add(wl)
        self.db.flush()
        return self._watchlist(wl)

    @tool(idempotent=False)
    def add_to_watchlist(self, watchlist_id: Id("watchlist"), instrument_id: Id("instrument")) -> dict:
        """Add an instrument to a watchlist.

        Args:
        """
        wl = self.get(Watchlist, watchlist_id)
        ins = self.get(Instrument, instrument_id)
        if self._watch_item(wl.id, ins.id) is not None:
            raise ToolError(f"{ins.symbol} is already on watchlist '{wl.name}'")
        self.db.add(WatchlistItem(watchlist_id=wl.id, instrument_id=ins.id, added_at=self.now))
        self.db.flush()
        return self._watchlist(wl)

    @tool(destructive=True)
    def remove_from_watchlist(self, watchlist_id: Id("watchlist"), instrument_id: Id("instrument")) -> dict:
        """Take an instrument off a watchlist.

        Args:
        """
        wl = self.get(Watchlist, watchlist_id)
        ins = self.get(Instrument, instrument_id)
        item = self._watch_item(wl.id, ins.id)
        if item is None:
            raise ToolError(f"{ins.symbol} is not on watchlist '{wl.name}'")
        self.db.delete(item)
        self.db.flush()
        return self._watchlist(wl)

    @tool(destructive=True)
    def delete_watchlist(self, watchlist_id: Id("watchlist")) -> dict:
        """Delete a watchlist and the instruments listed on it (the instruments themselves are untouched).

        Args:
        """
        wl = self.get(Watchlist, watchlist_id)
        items = list(self.db.scalars(select(WatchlistItem).where(WatchlistItem.watchlist_id == wl.id)))
        for item in items:
            self.db.delete(item)
        self.db.delete(wl)
        return {"watchlist_id": wl.id, "name": wl.name, "deleted": True, "instruments_removed": len(items)}

    # -- alerts ------------------------------------------------------------------------------------

    @tool(read_only=True, produces=("instrument",))
    def list_alerts(self, client_id: Id("client"), status: Literal["active", "triggered"] | None = None) -> list[dict]:
        """List a client's price alerts (active and triggered), ordered by alert id.

        Args:
            status: only 'active' alerts (still waiting) or only 'triggered' ones.
        """
        client = self.get(Client, client_id)
        sql, params = "SELECT id FROM alerts WHERE client_id = ? AND status != 'deleted'", [client.id]
        if status:
            sql, params = sql + " AND status = ?", [*params, status]
        alerts = self.load(Alert, sql + " ORDER BY id", *params)
        return [_alert(a, self.get(Instrument, a.instrument_id)) for a in alerts]

    @tool(produces=("alert",))
    def create_price_alert(self, client_id: Id("client"), instrument_id: Id("instrument"),
                           condition: Literal["above", "below"], price: Money) -> dict:
        """Alert a client when an instrument's last price rises above or falls below a price.

        The condition must not hold already (the alert would fire at once), and the same active alert
        cannot be set twice.

        Args:
            condition: 'above' (the price rises to or above `price`) or 'below' (falls to or below it).
            price: the price level in dollars, such as 200.0.
        """
        client = self.get(Client, client_id)
        ins = self.get(Instrument, instrument_id)
        if condition == "above" and ins.last >= price:
            raise ToolError(f"{ins.symbol} is already at {ins.last:.2f}, at or above {price:.2f}; choose a higher "
                            "price for an 'above' alert")
        if condition == "below" and ins.last <= price:
            raise ToolError(f"{ins.symbol} is already at {ins.last:.2f}, at or below {price:.2f}; choose a lower "
                            "price for a 'below' alert")
        same = self.db.scalar(select(Alert.id).where(
            Alert.client_id == client.id, Alert.instrument_id == ins.id, Alert.condition == condition,
            Alert.price == price, Alert.status == "active"))
        if same is not None:
            raise ToolError(f"Alert {same} already watches {ins.symbol} going {condition} {price:.2f}")
        alert = Alert(id=self.new_id("ALR"), client_id=client.id, instrument_id=ins.id, condition=condition,
                      price=price, status="active", created_at=self.now, triggered_at=None)
        self.db.add(alert)
        return _alert(alert, ins)

    @tool(destructive=True)
    def delete_alert(self, alert_id: Id("alert")) -> dict:
        """Delete a price alert, active or triggered.

        Args:
        """
        alert = self.get(Alert, alert_id)
        ins = self.get(Instrument, alert.instrument_id)
        alert.status = "deleted"
        return {**_alert(alert, ins), "deleted": True}

    # -- hidden ------------------------------------------------------------------------------------

    @tool(read_only=True, hidden=True)
    def count_open_orders(self) -> dict:
        """Operations only: how many orders rest in the whole book, by side."""
        rows = self.db.execute(select(Order.side, func.count()).where(Order.status == "open").group_by(Order.side))
        return dict(rows.all())

    # -- rules -------------------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """Money and shares are conserved and never negative: an account's cash is its deposits less its
        withdrawals and buys plus its sells, a position holds its bought shares less its sold ones, and open
        orders reserve no more than the account holds; money leaves only once settled: fills and deposits
        settle on the next business day, and an account's settled balance (cash less unsettled deposits
        and sales, plus unsettled buys) is never below 0, so its settled cash is at most its cash; an
        order's status matches its record (an open order has no closing time, a filled one its fills, a
        closed one reserves nothing); an open day order belongs to the current session (or, while the
        market is closed, to the next), an open market order waits for the open, and while the market is
        open no resting limit order is marketable; an open stop order sits on its side of the quote; a
        day's range holds its open and last price; a closed account holds nothing and has no open order;
        an account is opened after its client joined; nothing recorded after the clock."""
        broken = [f"{aid} holds negative cash {cash}" for aid, cash in self.db.execute(
            select(Account.id, Account.cash).where(Account.cash < -0.005).order_by(Account.id))]
        broken += [f"{pid} holds {qty} shares" for pid, qty in self.db.execute(
            select(Position.id, Position.quantity).where(Position.quantity < 0).order_by(Position.id))]
        cash = (select(Order.account_id, func.sum(Order.reserved).label("reserved"))
                .where(Order.status == "open", Order.side == "buy").group_by(Order.account_id).subquery())
        broken += [f"{aid} reserves {reserved} with only {held} in cash" for aid, reserved, held in self.db.execute(
            select(cash.c.account_id, cash.c.reserved, Account.cash).join(Account, Account.id == cash.c.account_id)
            .where(cash.c.reserved > Account.cash + 0.005).order_by(cash.c.account_id))]
        shares = (select(Order.account_id, Order.instrument_id, func.sum(Order.reserved).label("reserved"))
                  .where(Order.status == "open", Order.side == "sell")
                  .group_by(Order.account_id, Order.instrument_id).subquery())
        broken += [f"{aid} reserves {reserved} {iid} shares of {held or 0}" for aid, iid, reserved, held in
                   self.db.execute(select(shares.c.account_id, shares.c.instrument_id, shares.c.reserved,
                                          Position.quantity)
                                   .join(Position, (Position.account_id == shares.c.account_id)
                                         & (Position.instrument_id == shares.c.instrument_id), isouter=True)
                                   .where(shares.c.reserved > func.coalesce(Position.quantity, 0))
                                   .order_by(shares.c.account_id, shares.c.instrument_id))]
        today = self.now.date()
        flows: dict[str, float] = {}
        pending: dict[str, float] = {}  # unsettled credits less unsettled buys: the cash not yet settled
        for tid, aid, kind, amount, created, settles in self.db.execute(
                select(CashTransfer.id, CashTransfer.account_id, CashTransfer.kind, CashTransfer.amount,
                       CashTransfer.created_at, CashTransfer.settles_on).order_by(CashTransfer.id)):
            due = settlement_day(created.date()) if kind == "deposit" else created.date()
            if kind not in ("deposit", "withdrawal") or amount <= 0 or settles != due:
                broken.append(f"{tid} is a {kind} of {amount} made {created} settling {settles}")
            flows[aid] = flows.get(aid, 0.0) + (amount if kind == "deposit" else -amount)
            if kind == "deposit" and settles > today:
                pending[aid] = pending.get(aid, 0.0) + amount
        held: dict[tuple[str, str], int] = {}
        filled: dict[str, int] = {}
        for fid, aid, iid, oid, side, qty, amount, when, settles in self.db.execute(
                select(Fill.id, Fill.account_id, Fill.instrument_id, Fill.order_id, Fill.side, Fill.quantity,
                       Fill.amount, Fill.filled_at, Fill.settles_on)):
            flows[aid] = flows.get(aid, 0.0) + (amount if side == "sell" else -amount)
            held[(aid, iid)] = held.get((aid, iid), 0) + (qty if side == "buy" else -qty)
            filled[oid] = filled.get(oid, 0) + qty
            if settles != settlement_day(when.date()):
                broken.append(f"{fid} filled at {when} settles on {settles}, not the next business day")
            if settles > today:
                pending[aid] = pending.get(aid, 0.0) + (amount if side == "sell" else -amount)
        for account in self.db.scalars(select(Account).order_by(Account.id)):
            if abs(account.cash - flows.get(account.id, 0.0)) > 0.015:
                broken.append(f"{account.id} holds {account.cash} cash but its deposits, withdrawals and fills come "
                              f"to {_cents(flows.get(account.id, 0.0))}")
            if account.cash - pending.get(account.id, 0.0) < -0.005:
                broken.append(f"{account.id} holds {account.cash} cash with {_cents(pending.get(account.id, 0.0))} "
                              "of it unsettled: money left before it settled")
        for pos in self.db.scalars(select(Position).order_by(Position.id)):
            if pos.quantity != held.pop((pos.account_id, pos.instrument_id), 0):
                broken.append(f"{pos.id} holds {pos.quantity} shares that its fills do not add up to")
        broken += [f"{aid} has fills of {iid} but no position" for (aid, iid), qty in sorted(held.items()) if qty]
        session, since = is_open(self.now), last_close(self.now)
        for order in self.db.scalars(select(Order).where(Order.status == "open").order_by(Order.id)):
            ins = self.db.get(Instrument, order.instrument_id)
            buy = order.side == "buy"
            if order.time_in_force == "day" and order.placed_at < since:
                broken.append(f"{order.id} is a day order placed at {order.placed_at}, before the close at {since}, "
                              "and still open")
            if order.order_type == "market" and (session or order.placed_at < since):
                broken.append(f"{order.id} is an open market order placed at {order.placed_at}: only one placed "
                              "while the market is closed waits, for the next open")
            if order.order_type == "market" and order.time_in_force != "day":
                broken.append(f"{order.id} is a market order good till cancelled")
            if order.order_type == "limit" and session and not ins.halted and \
                    (order.limit_price >= ins.ask if buy else order.limit_price <= ins.bid):
                broken.append(f"{order.id} rests at {order.limit_price} while the market is open at "
                              f"{ins.bid}/{ins.ask}: it would have filled")
            if order.order_type == "stop" and (order.stop_price <= ins.ask if buy else order.stop_price >= ins.bid):
                broken.append(f"{order.id} is a {order.side} stop at {order.stop_price} on the wrong side of "
                              f"{ins.bid}/{ins.ask}: it would have triggered")
        broken += [f"{sym} trades at {last} outside its day range {low} to {high} (open {opened})"
                   for sym, opened, high, low, last in self.db.execute(
                       select(Instrument.symbol, Instrument.day_open, Instrument.day_high, Instrument.day_low,
                              Instrument.last).order_by(Instrument.symbol))
                   if not low <= min(opened, last) <= max(opened, last) <= high]
        for order in self.db.scalars(select(Order).order_by(Order.id)):
            if order.status not in ("open", "filled", "cancelled", "expired") \
                    or (order.status == "open") != (order.closed_at is None) \
                    or (order.status != "open" and order.reserved) \
                    or filled.get(order.id, 0) != order.filled_quantity \
                    or (order.status == "filled") != (order.filled_quantity == order.quantity):
                broken.append(f"{order.id} is {order.status} with {order.filled_quantity} of {order.quantity} filled, "
                              f"{order.reserved} reserved, closed at {order.closed_at}")
        broken += [f"closed account {aid} has open order {oid}" for aid, oid in self.db.execute(
            select(Account.id, Order.id).join(Order, Order.account_id == Account.id)
            .where(Account.status == "closed", Order.status == "open"))]
        broken += [f"closed account {aid} holds {qty} shares in {pid}" for aid, pid, qty in self.db.execute(
            select(Account.id, Position.id, Position.quantity).join(Position, Position.account_id == Account.id)
            .where(Account.status == "closed", Position.quantity != 0))]
        broken += [f"{aid} was opened at {opened} before its client joined at {joined}" for aid, opened, joined in
                   self.db.execute(select(Account.id, Account.opened_at, Client.joined_at)
                                   .join(Client, Client.id == Account.client_id)
                                   .where(Account.opened_at < Client.joined_at).order_by(Account.id))]
        broken += [f"{a.id} is {a.status}, triggered at {a.triggered_at}" for a in self.db.scalars(select(Alert))
                   if a.status not in ("active", "triggered", "deleted")
                   or (a.status == "triggered" and a.triggered_at is None)
                   or (a.status == "active" and a.triggered_at is not None)]
        broken += self.after_now(Client.joined_at, Account.opened_at, Position.opened_at, Order.placed_at,
                                 Order.updated_at, Order.closed_at, Fill.filled_at, CashTransfer.created_at,
                                 Watchlist.created_at, WatchlistItem.added_at, Alert.created_at, Alert.triggered_at,
                                 Price.day)
        return broken

    def _check_active(self, account: Account) -> None:
        if account.status != "active":
            raise ToolError(f"Account {account.id} is {account.status}; use one of the client's active accounts")

    @staticmethod
    def _check_quantity(quantity: int) -> None:
        if quantity <= 0:
            raise ToolError(f"quantity must be a whole number of shares greater than 0, got {quantity}")
        if quantity > MAX_ORDER_SHARES:
            raise ToolError(f"quantity may be at most {MAX_ORDER_SHARES:,} shares per order, got {quantity:,}")

    @staticmethod
    def _check_tradable(ins: Instrument) -> None:
        if ins.halted:
            raise ToolError(f"Trading in {ins.symbol} is halted ({ins.halt_reason}); no orders can be placed or "
                            "changed until it resumes (open orders can still be cancelled)")

    @staticmethod
    def _check_open(order: Order, action: str) -> None:
        if order.status != "open":
            raise ToolError(f"Order {order.id} is {order.status} and cannot be {action}; only open orders can")

    def _reserved_cash(self, account_id: str) -> float:
        (total,), = self.rows("SELECT sum(reserved) FROM orders WHERE account_id = ? AND status = 'open' "
                              "AND side = 'buy'", account_id)
        return _cents(total or 0.0)

    def _unsettled_cash(self, account_id: str) -> float:
        """Money in the account's cash that has not settled: deposits and sale proceeds settling after today."""
        today = self.now.date()
        (total,), = self.rows("SELECT (SELECT coalesce(sum(amount), 0) FROM cash_transfers WHERE account_id = ? "
                              "AND kind = 'deposit' AND settles_on > ?) + (SELECT coalesce(sum(amount), 0) FROM fills "
                              "WHERE account_id = ? AND side = 'sell' AND settles_on > ?)",
                              account_id, today, account_id, today)
        return _cents(total)

    def _next_settlement(self, account_id: str) -> str:
        today = self.now.date()
        (day,), = self.rows("SELECT min(d) FROM (SELECT settles_on AS d FROM cash_transfers WHERE account_id = ? "
                            "AND kind = 'deposit' AND settles_on > ? UNION ALL SELECT settles_on FROM fills "
                            "WHERE account_id = ? AND side = 'sell' AND settles_on > ?)",
                            account_id, today, account_id, today)
        return str(day)

    def _reserved_shares(self, account_id: str) -> dict[str, int]:
        rows = self.rows("SELECT instrument_id, sum(reserved) FROM orders WHERE account_id = ? AND status = 'open' "
                         "AND side = 'sell' GROUP BY instrument_id", account_id)
        return {ins_id: int(round(total)) for ins_id, total in rows}

    def _buying_power(self, account: Account) -> float:
        return _cents(account.cash - self._reserved_cash(account.id))

    def _positions(self, account_id: str, include_closed: bool) -> list[tuple[Position, Instrument]]:
        """The account's positions by symbol, with their instruments."""
        held = "" if include_closed else " AND p.quantity > 0"
        positions = self.load(Position, "SELECT p.id FROM positions p JOIN instruments i ON i.id = p.instrument_id "
                                           f"WHERE p.account_id = ?{held} ORDER BY i.symbol", account_id)
        return [(p, self.get(Instrument, p.instrument_id)) for p in positions]

    def _position(self, account_id: str, instrument_id: str) -> Position | None:
        return self.db.scalar(_POSITION, {"account_id": account_id, "instrument_id": instrument_id})

    def _execute(self, account: Account, ins: Instrument, order: Order) -> Fill | None:
        """Fill the order at the quote when it is marketable, else rest it with its reservation; refuse
        it when the account cannot afford it or does not hold the shares."""
        buy = order.side == "buy"
        session = is_open(self.now)
        if order.order_type == "stop":
            if buy and order.stop_price <= ins.ask:
                raise ToolError(f"A buy stop must be above the ask ({ins.ask:.2f}), got {order.stop_price:.2f}; "
                                "to buy now, place a market or limit order")
            if not buy and order.stop_price >= ins.bid:
                raise ToolError(f"A sell stop must be below the bid ({ins.bid:.2f}), got {order.stop_price:.2f}; "
                                "to sell now, place a market or limit order")
            marketable = False
        elif order.order_type == "limit":
            marketable = session and (order.limit_price >= ins.ask if buy else order.limit_price <= ins.bid)
        else:
            marketable = session  # a market order placed while the market is closed is queued for the open
        price = ins.ask if buy else ins.bid
        if buy:
            held_at = price if marketable or order.order_type == "market" else order.limit_price or order.stop_price
            cost = _cents(order.quantity * held_at)
            power = self._buying_power(account)
            if cost > power:
                raise ToolError(f"Insufficient buying power: the order needs {cost:,.2f} and account {account.id} "
                                f"has {power:,.2f} (cash {account.cash:,.2f}, of which "
                                f"{_cents(account.cash - power):,.2f} is reserved by open orders); deposit cash, "
                                "buy fewer shares or cancel an open order")
        else:
            pos = self._position(account.id, ins.id)
            held = pos.quantity if pos else 0
            if held == 0:
                raise ToolError(f"Account {account.id} holds no {ins.symbol} shares to sell")
            free = held - self._reserved_shares(account.id).get(ins.id, 0)
            if order.quantity > free:
                raise ToolError(f"Cannot sell {order.quantity} {ins.symbol} shares: account {account.id} holds "
                                f"{held}, of which {free} are not reserved by open sell orders")
        if not marketable:
            order.reserved = cost if buy else float(order.quantity)
            return None
        return self._fill(account, ins, order, price)

    def _fill(self, account: Account, ins: Instrument, order: Order, price: float) -> Fill:
        amount = _cents(order.quantity * price)
        pos = self._position(account.id, ins.id)
        realised = None
        if order.side == "buy":
            if pos is None:
                pos = Position(id=self.new_id("POS"), account_id=account.id, instrument_id=ins.id, quantity=0,
                               average_cost=0.0, realized_pnl=0.0, opened_at=self.now)
                self.db.add(pos)
            elif pos.quantity == 0:
                pos.opened_at = self.now
            pos.average_cost = round((pos.quantity * pos.average_cost + amount) / (pos.quantity + order.quantity), 4)
            pos.quantity += order.quantity
            account.cash = _cents(account.cash - amount)
        else:
            realised = _cents((price - pos.average_cost) * order.quantity)
            pos.quantity -= order.quantity
            pos.realized_pnl = _cents(pos.realized_pnl + realised)
            account.cash = _cents(account.cash + amount)
        order.status, order.reserved, order.filled_quantity = "filled", 0.0, order.quantity
        order.average_fill_price, order.closed_at, order.updated_at = price, self.now, self.now
        fill = Fill(id=self.new_id("FIL"), order_id=order.id, account_id=account.id, instrument_id=ins.id,
                    side=order.side, quantity=order.quantity, price=price, amount=amount, realized_pnl=realised,
                    filled_at=self.now, settles_on=settlement_day(self.now.date()))
        self.db.add(fill)
        return fill

    def _order_result(self, account: Account, ins: Instrument, order: Order, fill: Fill | None) -> dict:
        self.db.flush()
        out = {**_order(order, ins, self.now), "buying_power": self._buying_power(account), "cash": account.cash}
        if fill is not None:
            out["fill"] = _fill(fill, ins)
        return out

    def _watch_item(self, watchlist_id: str, instrument_id: str) -> WatchlistItem | None:
        return self.db.scalar(select(WatchlistItem).where(WatchlistItem.watchlist_id == watchlist_id,
                                                          WatchlistItem.instrument_id == instrument_id))

    def _watchlist(self, wl: Watchlist) -> dict:
        return self._watchlists("id", wl.id)[0]

    def _watchlists(self, column: str, key: str) -> list[dict]:
        """The watchlists whose `column` ('id' or 'client_id') is `key`, by id, each with its instruments
        read as plain rows: loading each instrument would cost more than the query."""
        rows = self.rows(_WATCHLISTS.format(column), key)
        return [_watchlist(wl_id, name, [_Watched._make(row) for row in items if row[2] is not None])
                for (wl_id, name), items in groupby(rows, key=itemgetter(0, 1))]

    def _watchlist_name(self, client_id: str, name: str) -> str:
        name = name.strip()
        if not 1 <= len(name) <= 40:
            raise ToolError(f"name must be 1 to 40 characters, got {len(name)}")
        taken = self.db.scalar(select(Watchlist.id).where(Watchlist.client_id == client_id,
                                                          func.lower(Watchlist.name) == name.lower()))
        if taken is not None:
            raise ToolError(f"Client {client_id} already has a watchlist named {name!r} ({taken})")
        return name


def _cents(x: float) -> float:
    return round(x + 1e-9 if x >= 0 else x - 1e-9, 2)


def _client(c: Client) -> dict:
    return {"client_id": c.id, "name": c.name, "email": c.email, "phone": c.phone}


def _account(a: Account) -> dict:
    return {"account_id": a.id, "client_id": a.client_id, "kind": a.kind, "account_number": a.account_number,
            "nickname": a.nickname, "status": a.status, "cash": a.cash}


def _instrument(i: Instrument | _Watched) -> dict:
    return {"instrument_id": i.id, "symbol": i.symbol, "name": i.name, "kind": i.kind, "sector": i.sector,
            "exchange": i.exchange, "last": i.last, "halted": bool(i.halted)}  # a plain row holds 0 or 1


def _watchlist(wl_id: str, name: str, instruments: list[_Watched]) -> dict:
    """A watchlist with its instruments (in symbol order) and their change today."""
    items = [{**_instrument(i), "change_percent": round(100 * (i.last - i.prev_close) / i.prev_close, 2)}
             for i in instruments]
    return {"watchlist_id": wl_id, "name": name, "instruments": items, "count": len(items)}


def _position(p: Position, i: Instrument, reserved: int) -> dict:
    value = _cents(p.quantity * i.last)
    cost = _cents(p.quantity * p.average_cost)
    unrealised = _cents(value - cost)
    return {"instrument_id": i.id, "symbol": i.symbol, "name": i.name, "quantity": p.quantity,
            "available_quantity": p.quantity - reserved, "average_cost": round(p.average_cost, 2), "last": i.last,
            "market_value": value, "cost_basis": cost, "unrealized_pnl": unrealised,
            "unrealized_pnl_percent": round(100 * unrealised / cost, 2) if cost else 0.0,
            "realized_pnl": p.realized_pnl}


def _order(o: Order, i: Instrument, now: dt.datetime) -> dict:
    """An order; an open one with what it reserves and, when it waits for the market to open, until when."""
    out = {"order_id": o.id, "account_id": o.account_id, "instrument_id": i.id, "symbol": i.symbol, "side": o.side,
           "order_type": o.order_type, "quantity": o.quantity, "limit_price": o.limit_price,
           "stop_price": o.stop_price, "time_in_force": o.time_in_force, "status": o.status,
           "filled_quantity": o.filled_quantity, "average_fill_price": o.average_fill_price,
           "placed_at": o.placed_at, "note": o.note}
    if o.status == "open":
        out["reserved_cash" if o.side == "buy" else "reserved_shares"] = (
            o.reserved if o.side == "buy" else int(round(o.reserved)))
        out["queued_until"] = next_open(now) if _queued(o, now) else None
    return out


def _queued(o: Order, now: dt.datetime) -> bool:
    """Whether an open order waits for the next open: placed while the market is closed, since its last close."""
    return not is_open(now) and o.placed_at >= last_close(now)


def _withdrawable(cash: float, unsettled: float, reserved: float) -> float:
    """Settled cash less the cash open buy orders reserve."""
    return _cents(max(0.0, cash - unsettled - reserved))


def _average(values: list[float]) -> float | None:
    return _cents(sum(values) / len(values)) if values else None


def _transfer(t: CashTransfer, now: dt.datetime) -> dict:
    return {"transfer_id": t.id, "account_id": t.account_id, "kind": t.kind, "amount": t.amount,
            "created_at": t.created_at, "settles_on": t.settles_on,
            "status": "pending" if t.settles_on > now.date() else "settled"}


def _fill(f: Fill, i: Instrument) -> dict:
    return {"fill_id": f.id, "order_id": f.order_id, "instrument_id": i.id, "symbol": i.symbol, "side": f.side,
            "quantity": f.quantity, "price": f.price, "amount": f.amount, "realized_pnl": f.realized_pnl,
            "filled_at": f.filled_at, "settles_on": f.settles_on}


def _alert(a: Alert, i: Instrument) -> dict:
    return {"alert_id": a.id, "instrument_id": i.id, "symbol": i.symbol, "condition": a.condition, "price": a.price,
            "status": a.status, "last": i.last, "created_at": a.created_at, "triggered_at": a.triggered_at}


def _day_bounds(start: dt.date | None, end: dt.date | None) -> tuple[dt.datetime | None, dt.datetime | None]:
    """The first moment of `start` and the moment after `end` (either None: open-ended)."""
    return (None if start is None else dt.datetime.combine(start, dt.time()),
            None if end is None else dt.datetime.combine(end + dt.timedelta(days=1), dt.time()))
