"""The seed: 44 stocks and ETFs with about three months of daily prices up to the world's frozen
"now" and a current quote (two of them halted); 32 clients with one to three brokerage accounts
(one client with none, a few accounts closed or holding no cash), positions built from past fills,
orders resting in the book (limit and stop, day and good till cancelled) with the cash or shares
they reserve, filled, cancelled and expired orders, watchlists (some empty) and price alerts
(active, triggered and deleted).

Day orders still open were placed in today's session while the market is open, and after the close
(for the next session) once it has closed. Drawn after all of that, so that the values above stay
what they were: each instrument's day range (open, high, low), withdrawals in the accounts' cash
history (the first deposit was that much larger, so the cash is unchanged), and deposits made this
morning that have not settled yet (T+1), which add to the cash of the accounts that get one."""

from __future__ import annotations

import datetime as dt

from prove_env.world import SeedContext

from .market import CLOSE, OPEN, is_open, settlement_day, trading_day
from .models import Account, Alert, CashTransfer, Client, Fill, Instrument, Order, Position, Price, Watchlist, \
    WatchlistItem

# symbol, name, kind, sector, exchange, typical price
INSTRUMENTS = (
    ("AAPL", "Apple Inc.", "stock", "Technology", "NASDAQ", 190),
    ("MSFT", "Microsoft Corporation", "stock", "Technology", "NASDAQ", 410),
    ("NVDA", "NVIDIA Corporation", "stock", "Technology", "NASDAQ", 120),
    ("ORCL", "Oracle Corporation", "stock", "Technology", "NYSE", 140),
    ("ADBE", "Adobe Inc.", "stock", "Technology", "NASDAQ", 520),
    ("CSCO", "Cisco Systems, Inc.", "stock", "Technology", "NASDAQ", 50),
    ("INTC", "Intel Corporation", "stock", "Technology", "NASDAQ", 31),
    ("AMZN", "Amazon.com, Inc.", "stock", "Consumer Discretionary", "NASDAQ", 180),
    ("TSLA", "Tesla, Inc.", "stock", "Consumer Discretionary", "NASDAQ", 210),
    ("NKE", "Nike, Inc.", "stock", "Consumer Discretionary", "NYSE", 95),
    ("SBUX", "Starbucks Corporation", "stock", "Consumer Discretionary", "NASDAQ", 82),
    ("HD", "The Home Depot, Inc.", "stock", "Consumer Discretionary", "NYSE", 350),
    ("KO", "The Coca-Cola Company", "stock", "Consumer Staples", "NYSE", 62),
    ("PG", "Procter & Gamble Co.", "stock", "Consumer Staples", "NYSE", 165),
    ("WMT", "Walmart Inc.", "stock", "Consumer Staples", "NYSE", 68),
    ("COST", "Costco Wholesale Corporation", "stock", "Consumer Staples", "NASDAQ", 780),
    ("JPM", "JPMorgan Chase & Co.", "stock", "Financials", "NYSE", 200),
    ("BAC", "Bank of America Corporation", "stock", "Financials", "NYSE", 39),
    ("GS", "The Goldman Sachs Group, Inc.", "stock", "Financials", "NYSE", 460),
    ("V", "Visa Inc.", "stock", "Financials", "NYSE", 275),
    ("JNJ", "Johnson & Johnson", "stock", "Health Care", "NYSE", 155),
    ("PFE", "Pfizer Inc.", "stock", "Health Care", "NYSE", 28),
    ("UNH", "UnitedHealth Group Incorporated", "stock", "Health Care", "NYSE", 510),
    ("MRNA", "Moderna, Inc.", "stock", "Health Care", "NASDAQ", 105),
    ("XOM", "Exxon Mobil Corporation", "stock", "Energy", "NYSE", 115),
    ("CVX", "Chevron Corporation", "stock", "Energy", "NYSE", 158),
    ("NEE", "NextEra Energy, Inc.", "stock", "Utilities", "NYSE", 72),
    ("DUK", "Duke Energy Corporation", "stock", "Utilities", "NYSE", 101),
    ("CAT", "Caterpillar Inc.", "stock", "Industrials", "NYSE", 340),
    ("BA", "The Boeing Company", "stock", "Industrials", "NYSE", 185),
    ("UPS", "United Parcel Service, Inc.", "stock", "Industrials", "NYSE", 145),
    ("DIS", "The Walt Disney Company", "stock", "Communication Services", "NYSE", 100),
    ("NFLX", "Netflix, Inc.", "stock", "Communication Services", "NASDAQ", 640),
    ("T", "AT&T Inc.", "stock", "Communication Services", "NYSE", 18),
    ("PLD", "Prologis, Inc.", "stock", "Real Estate", "NYSE", 112),
    ("LIN", "Linde plc", "stock", "Materials", "NASDAQ", 450),
    ("SPY", "SPDR S&P 500 ETF Trust", "etf", "Broad Market", "NYSE Arca", 520),
    ("VTI", "Vanguard Total Stock Market ETF", "etf", "Broad Market", "NYSE Arca", 260),
    ("QQQ", "Invesco QQQ Trust", "etf", "Technology", "NASDAQ", 445),
    ("IWM", "iShares Russell 2000 ETF", "etf", "Broad Market", "NYSE Arca", 205),
    ("AGG", "iShares Core U.S. Aggregate Bond ETF", "etf", "Fixed Income", "NYSE Arca", 98),
    ("TLT", "iShares 20+ Year Treasury Bond ETF", "etf", "Fixed Income", "NASDAQ", 92),
    ("GLD", "SPDR Gold Shares", "etf", "Commodities", "NYSE Arca", 215),
    ("XLE", "Energy Select Sector SPDR Fund", "etf", "Energy", "NYSE Arca", 90),
)
HALTS = ("News pending", "Volatility pause")
HISTORY_DAYS = 90
ACCOUNT_KINDS = ("individual", "ira", "roth_ira", "joint")
NICKNAMES = ("Retirement", "Play money", "College fund", "Long term", "Dividends", "House fund", None, None, None)
WATCHLIST_NAMES = ("Ideas", "Maybe later", "Short list", "Retirement picks", "Watching", "Friends' tips",
                   "Momentum", "Core holdings", "To research", "Earnings this month")
N_CLIENTS = 32


def _weekdays(first: dt.date, last: dt.date) -> list[dt.date]:
    days, d = [], first
    while d <= last:
        if d.weekday() < 5:
            days.append(d)
        d += dt.timedelta(days=1)
    return days


def _session(when: dt.datetime) -> dt.datetime:
    """The instant moved into a trading session (weekdays, 9:30 to 15:45), keeping its day where it can."""
    d = when.date()
    while d.weekday() >= 5:
        d -= dt.timedelta(days=1)
    return dt.datetime.combine(d, dt.time(9, 30)) + dt.timedelta(minutes=(when.hour * 60 + when.minute) % 375)


def _cents(x: float) -> float:
    return round(x + 1e-9, 2)


def seed(ctx: SeedContext) -> None:
    rng, now = ctx.rng, ctx.now
    today = now.date()
    days = _weekdays(today - dt.timedelta(days=HISTORY_DAYS), today - dt.timedelta(days=1))
    closes: dict[str, dict[dt.date, float]] = {}
    instruments: list[Instrument] = []
    halted = set(rng.sample(range(len(INSTRUMENTS)), 2))
    for i, (symbol, name, kind, sector, exchange, typical) in enumerate(INSTRUMENTS):
        ins_id = ctx.new_id("INS")
        vol = 0.006 if sector == "Fixed Income" else (0.01 if kind == "etf" else 0.018)
        price = typical * rng.uniform(0.85, 1.15)
        closes[ins_id] = {}
        rows = []
        base_volume = rng.randint(2, 60) * 1_000_000
        for d in days:
            open_ = _cents(price * (1 + rng.gauss(0, vol / 3)))
            close = _cents(max(1.0, open_ * (1 + rng.gauss(0.0004, vol))))
            high = _cents(max(open_, close) * (1 + abs(rng.gauss(0, vol / 2))))
            low = _cents(min(open_, close) * (1 - abs(rng.gauss(0, vol / 2))))
            rows.append(Price(instrument_id=ins_id, day=d, open=open_, high=high, low=low, close=close,
                              volume=int(base_volume * rng.uniform(0.6, 1.6))))
            closes[ins_id][d] = close
            price = close
        prev = price
        last = _cents(prev * (1 + rng.gauss(0, vol)))
        spread = max(0.01, _cents(last * 0.0004))
        ins = Instrument(id=ins_id, symbol=symbol, name=name, kind=kind, sector=sector, exchange=exchange,
                         bid=_cents(last - spread), ask=_cents(last + spread), last=last, prev_close=prev,
                         volume=int(base_volume * rng.uniform(0.2, 0.9)), day_open=last, day_high=last,
                         day_low=last, halted=i in halted,
                         halt_reason=HALTS[sorted(halted).index(i)] if i in halted else None)
        instruments.append(ins)
        ctx.add(ins, *rows)
    tradable = [ins for ins in instruments if not ins.halted]

    clients: list[Client] = []
    active: list[tuple[Account, CashTransfer | None]] = []  # with the first deposit, if any
    for n in range(N_CLIENTS):
        first, last = ctx.person_name()
        number, domain = rng.randint(1, 99), rng.choice(["gmail.com", "outlook.com", "yahoo.com", "icloud.com"])
        email = f"{first.lower()}.{last.lower()}{number}@{domain}"
        client = Client(id=ctx.new_id("CLI"), first_name=first, last_name=last, email=email,
                        phone=ctx.fake.numerify("(###) ###-####"), joined_at=ctx.moment(-2000, -200))
        clients.append(client)
        ctx.add(client)
        n_accounts = 0 if n == 7 else rng.choice([1, 1, 2, 2, 3])
        for kind in rng.sample(ACCOUNT_KINDS, n_accounts):
            opened = _account(ctx, client, kind, days, closes, tradable, instruments)
            if opened is not None:
                active.append(opened)
        _watchlists(ctx, client, instruments)
        _alerts(ctx, client, instruments)
    _day_ranges(ctx, instruments)
    _cash_history(ctx, active)


def _day_ranges(ctx: SeedContext, instruments: list[Instrument]) -> None:
    """The day's open, high and low around the previous close and the last price."""
    rng = ctx.rng
    for ins in instruments:
        vol = 0.006 if ins.sector == "Fixed Income" else (0.01 if ins.kind == "etf" else 0.018)
        ins.day_open = _cents(ins.prev_close * (1 + rng.gauss(0, vol / 3)))
        ins.day_high = _cents(max(ins.day_open, ins.last) * (1 + abs(rng.gauss(0, vol / 2))))
        ins.day_low = _cents(min(ins.day_open, ins.last) * (1 - abs(rng.gauss(0, vol / 2))))


def _cash_history(ctx: SeedContext, active: list[tuple[Account, CashTransfer | None]]) -> None:
    """Past withdrawals (out of a first deposit that was that much larger, so the cash stays as it
    was) and deposits made this morning, still unsettled, in accounts that already hold cash."""
    rng = ctx.rng
    for account, first in active:
        if first is None or rng.random() > 0.45:
            continue
        earliest = dt.datetime.combine(first.settles_on, dt.time(10))
        span = (ctx.now - dt.timedelta(days=2) - earliest).days
        if span < 10:
            continue
        moments = sorted(earliest + dt.timedelta(days=rng.randint(0, span), minutes=15 * rng.randint(0, 28))
                         for _ in range(rng.choice([1, 1, 2])))
        for when in moments:
            amount = float(rng.choice([200, 500, 750, 1000, 1500, 2500, 4000]))
            first.amount = _cents(first.amount + amount)
            ctx.add(CashTransfer(id=ctx.new_id("CSH"), account_id=account.id, kind="withdrawal", amount=amount,
                                 created_at=when, settles_on=when.date()))
    for account, _ in active:
        if account.cash <= 0 or rng.random() > 0.22:
            continue
        amount = float(rng.choice([300, 500, 1000, 1500, 2000, 2500, 5000, 10000]))
        when = ctx.moment(-0.3, -0.01)
        account.cash = _cents(account.cash + amount)
        ctx.add(CashTransfer(id=ctx.new_id("CSH"), account_id=account.id, kind="deposit", amount=amount,
                             created_at=when, settles_on=settlement_day(when.date())))


def _account(ctx: SeedContext, client: Client, kind: str, days: list[dt.date],
             closes: dict[str, dict[dt.date, float]], tradable: list[Instrument],
             instruments: list[Instrument]) -> tuple[Account, CashTransfer | None] | None:
    """An account with its past trades, orders and first deposit; None when it is closed."""
    rng, now = ctx.rng, ctx.now
    closed = rng.random() < 0.08
    account = Account(id=ctx.new_id("ACT"), client_id=client.id, kind=kind,
                      account_number=f"{rng.randint(10_000_000, 99_999_999)}", nickname=rng.choice(NICKNAMES),
                      cash=0.0, status="closed" if closed else "active",
                      opened_at=max(ctx.moment(-1500, -120), client.joined_at))  # never before the client joined
    ctx.add(account)
    if closed:
        return None
    # past trades, in time order: (day index, instrument, side, quantity)
    events: list[tuple[int, Instrument, str, int]] = []
    for ins in rng.sample(instruments, rng.randint(0, 6)):
        price = closes[ins.id][days[0]]
        qty = max(1, int(rng.choice([1500, 3000, 5000, 8000, 12000]) / price))
        qty = max(1, int(round(qty, -1))) if qty > 20 else qty
        start = rng.randrange(0, len(days) - 20)
        events.append((start, ins, "buy", qty))
        if rng.random() < 0.4:
            events.append((rng.randrange(start + 1, len(days) - 5), ins, "buy", max(1, qty // 2)))
        if rng.random() < 0.35:
            events.append((rng.randrange(start + 5, len(days) - 1), ins, "sell", "part"))  # type: ignore[arg-type]
    events.sort(key=lambda e: (e[0], e[1].id))
    held: dict[str, list] = {}  # instrument id -> [quantity, average cost, realised, opened]
    cash_flow, lowest = 0.0, 0.0
    fills = []
    for index, ins, side, qty in events:
        d = days[index]
        price = closes[ins.id][d]
        when = dt.datetime.combine(d, dt.time(9, 30)) + dt.timedelta(minutes=15 * rng.randint(0, 25))
        if side == "sell":
            have = held[ins.id][0]
            qty = have if rng.random() < 0.3 else max(1, have // 2)
            pos = held[ins.id]
            pnl = _cents((price - pos[1]) * qty)
            pos[0] -= qty
            pos[2] = _cents(pos[2] + pnl)
            cash_flow += price * qty
        else:
            pos = held.setdefault(ins.id, [0, 0.0, 0.0, when])
            pos[1] = round((pos[0] * pos[1] + qty * price) / (pos[0] + qty), 4)
            pos[0] += qty
            pnl = None
            cash_flow -= price * qty
        lowest = min(lowest, cash_flow)
        fills.append((when, ins, side, qty, price, pnl))
    deposit = _cents(-lowest + rng.choice([0, 0, 250, 1000, 2500, 5000, 10000, 25000]) + rng.randint(0, 99) / 1)
    if not fills and rng.random() < 0.5:
        deposit = 0.0  # a funded-later account: no cash yet
    first = None
    if deposit:
        created = account.opened_at + dt.timedelta(days=1)
        first = CashTransfer(id=ctx.new_id("CSH"), account_id=account.id, kind="deposit", amount=deposit,
                             created_at=created, settles_on=settlement_day(created.date()))
        ctx.add(first)
    account.cash = _cents(deposit + cash_flow)
    for when, ins, side, qty, price, pnl in fills:
        order = Order(id=ctx.new_id("ORD"), account_id=account.id, instrument_id=ins.id, side=side,
                      order_type=rng.choice(["market", "market", "limit"]), quantity=qty, limit_price=None,
                      stop_price=None, time_in_force="day", status="filled", reserved=0.0, filled_quantity=qty,
                      average_fill_price=price, placed_at=when, updated_at=when, closed_at=when)
        if order.order_type == "limit":
            order.limit_price = _cents(price * (1.002 if side == "buy" else 0.998))
        ctx.add(order, Fill(id=ctx.new_id("FIL"), order_id=order.id, account_id=account.id, instrument_id=ins.id,
                            side=side, quantity=qty, price=price, amount=_cents(qty * price), realized_pnl=pnl,
                            filled_at=when, settles_on=settlement_day(when.date())))
    for ins_id in sorted(held):
        qty, cost, realised, opened = held[ins_id]
        ctx.add(Position(id=ctx.new_id("POS"), account_id=account.id, instrument_id=ins_id, quantity=qty,
                         average_cost=cost, realized_pnl=realised, opened_at=opened))
    by_id = {ins.id: ins for ins in instruments}
    # orders that ended without a fill
    for _ in range(rng.randint(0, 2)):
        ins = rng.choice(instruments)
        when = _session(ctx.moment(-40, -2))
        status = rng.choice(["cancelled", "expired"])
        closed = dt.datetime.combine(when.date(), dt.time(16)) if status == "expired" else when + dt.timedelta(hours=1)
        limit = _cents(closes[ins.id][days[-1]] * rng.uniform(0.85, 0.95))
        ctx.add(Order(id=ctx.new_id("ORD"), account_id=account.id, instrument_id=ins.id, side="buy",
                      order_type="limit", quantity=rng.randint(1, 30), limit_price=limit, stop_price=None,
                      time_in_force="day" if status == "expired" else rng.choice(["day", "gtc"]), status=status,
                      reserved=0.0, filled_quantity=0, average_fill_price=None, placed_at=when,
                      updated_at=closed, closed_at=closed))
    # orders resting in the book, within what the account can reserve
    free = account.cash
    for ins in rng.sample(tradable, rng.randint(0, 2)):
        limit = _cents(ins.bid * rng.choice([0.9, 0.92, 0.95, 0.97]))
        qty = rng.choice([2, 5, 10, 15, 20, 25, 50])
        if qty * limit > free * 0.6:
            continue
        free = _cents(free - qty * limit)
        _resting(ctx, account, ins, "buy", "limit", qty, limit, None, _cents(qty * limit))
    for ins_id in sorted(held):
        qty = held[ins_id][0]
        ins = by_id[ins_id]
        if qty < 2 or ins.halted or rng.random() > 0.3:
            continue
        part = max(1, qty // rng.choice([1, 2, 4]))
        if rng.random() < 0.5:
            _resting(ctx, account, ins, "sell", "limit", part, _cents(ins.ask * rng.choice([1.04, 1.08, 1.15])), None,
                     float(part))
        else:
            _resting(ctx, account, ins, "sell", "stop", part, None, _cents(ins.bid * rng.choice([0.9, 0.93, 0.95])),
                     float(part))
    return account, first


def _resting(ctx: SeedContext, account: Account, ins: Instrument, side: str, order_type: str, qty: int,
             limit: float | None, stop: float | None, reserved: float) -> None:
    tif = ctx.rng.choice(["gtc", "gtc", "day"])
    if tif == "day":  # placed today: in the session while it is open, after the close for the next one
        when = ctx.moment(-0.2, 0)
        opening = dt.datetime.combine(ctx.now.date(), OPEN)
        closing = dt.datetime.combine(ctx.now.date(), CLOSE)
        if is_open(ctx.now):
            when = min(max(when, opening), opening + dt.timedelta(hours=6, minutes=15))
        elif trading_day(ctx.now.date()) and ctx.now >= closing and when < closing:
            steps = int((ctx.now - closing).total_seconds() // 900)
            when = closing + dt.timedelta(minutes=15 * (int((closing - when).total_seconds() // 900) % (steps + 1)))
    else:
        when = _session(ctx.moment(-30, -1))
    ctx.add(Order(id=ctx.new_id("ORD"), account_id=account.id, instrument_id=ins.id, side=side, order_type=order_type,
                  quantity=qty, limit_price=limit, stop_price=stop, time_in_force=tif, status="open",
                  reserved=reserved, filled_quantity=0, average_fill_price=None, placed_at=when, updated_at=when,
                  closed_at=None))


def _watchlists(ctx: SeedContext, client: Client, instruments: list[Instrument]) -> None:
    rng = ctx.rng
    for name in rng.sample(WATCHLIST_NAMES, rng.choice([0, 1, 1, 2, 3])):
        wl = Watchlist(id=ctx.new_id("WCH"), client_id=client.id, name=name, created_at=ctx.moment(-300, -3))
        ctx.add(wl)
        count = 0 if rng.random() < 0.12 else rng.randint(2, 7)
        for ins in sorted(rng.sample(instruments, count), key=lambda i: i.id):
            ctx.add(WatchlistItem(watchlist_id=wl.id, instrument_id=ins.id,
                                  added_at=wl.created_at + dt.timedelta(days=rng.randint(0, 2))))


def _alerts(ctx: SeedContext, client: Client, instruments: list[Instrument]) -> None:
    rng = ctx.rng
    taken = set()
    for ins in rng.sample(instruments, rng.choice([0, 1, 2, 3, 4])):
        condition = rng.choice(["above", "below"])
        status = rng.choice(["active", "active", "active", "triggered", "deleted"])
        factor = rng.choice([1.05, 1.1, 1.2]) if condition == "above" else rng.choice([0.95, 0.9, 0.8])
        price = _cents(ins.last * factor)
        if status == "triggered":  # crossed on the way to today's price
            price = _cents(ins.last * (0.97 if condition == "above" else 1.03))
        price = round(price) if price > 50 else price
        if (ins.id, condition) in taken:
            continue
        taken.add((ins.id, condition))
        created = ctx.moment(-60, -5)
        ctx.add(Alert(id=ctx.new_id("ALR"), client_id=client.id, instrument_id=ins.id, condition=condition,
                      price=float(price), status=status, created_at=created,
                      triggered_at=created + dt.timedelta(days=rng.randint(1, 4)) if status == "triggered" else None))
