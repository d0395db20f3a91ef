"""The exchange's calendar, read from the world's clock (exchange time, US Eastern).

The regular session runs on weekdays from 9:30 to 16:00; there is no holiday calendar (the price
history has a bar for every weekday). Trades and deposits settle on the next business day (T+1); a
withdrawal leaves the settled cash at once.
"""

from __future__ import annotations

import datetime as dt

OPEN = dt.time(9, 30)
CLOSE = dt.time(16, 0)
HOURS = "weekdays 9:30 to 16:00 exchange time (US Eastern)"


def trading_day(day: dt.date) -> bool:
    return day.weekday() < 5


def next_business_day(day: dt.date) -> dt.date:
    day += dt.timedelta(days=1)
    while not trading_day(day):
        day += dt.timedelta(days=1)
    return day


def settlement_day(day: dt.date) -> dt.date:
    """The day a trade or deposit made on `day` settles: the next business day (T+1)."""
    return next_business_day(day)


def is_open(now: dt.datetime) -> bool:
    return trading_day(now.date()) and OPEN <= now.time() < CLOSE


def next_open(now: dt.datetime) -> dt.datetime:
    """The next opening bell after `now` (today's, when the session has not begun yet)."""
    day = now.date()
    if not (trading_day(day) and now.time() < OPEN):
        day = next_business_day(day)
    return dt.datetime.combine(day, OPEN)


def last_close(now: dt.datetime) -> dt.datetime:
    """The latest closing bell at or before `now` that ended a session before the current one:
    orders placed since then belong to the current session (or, while the market is closed, to the
    next one)."""
    day = now.date()
    if not (trading_day(day) and now.time() >= CLOSE):
        day -= dt.timedelta(days=1)
        while not trading_day(day):
            day -= dt.timedelta(days=1)
    return dt.datetime.combine(day, CLOSE)


def closed_because(now: dt.datetime) -> str | None:
    """Why the market is closed at `now` ('weekend', 'before the open', 'after the close'), or None."""
    if not trading_day(now.date()):
        return "weekend"
    if now.time() < OPEN:
        return "before the open"
    if now.time() >= CLOSE:
        return "after the close"
    return None
