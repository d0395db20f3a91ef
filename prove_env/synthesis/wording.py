"""How people say values: the words every recipe uses for money, days, times and lists.

Each helper says one kind of value one way, so that a task's words and its mentions (the values
a rewrite must keep) agree across servers:

    money(1250.0)            '$1,250'          money(84.99)   '$84.99'
    day(date)                'October 6'       (a day of the current year; also what a mention checks)
    full_date(date)          'October 6, 2026'
    weekday(date)            'Tuesday, October 6'
    relative_day(date, now)  'today', 'tomorrow', 'on Friday', 'next Tuesday', else 'on October 6'
    month(date)              'July 2026'
    clock(time)              '9 am', '3:30 pm', 'noon'
    listing(["A", "B", "C"]) 'A, B and C'
    article("economy")       'an'              (the article said before a word: 'an hour', 'a user', 'an SSD')

and two helpers of phrasing: `stable(forms, *keys)` picks the same one of several phrasings for
the same keys on every run (a customer always introduced the same way), and `lower_first`
lowers a sentence's first letter where it follows other words, unless it starts a name.
"""

from __future__ import annotations

import datetime as dt
import re
import zlib
from collections.abc import Sequence

__all__ = ["money", "day", "full_date", "weekday", "relative_day", "month", "clock", "listing", "article",
           "lower_first", "stable"]


def money(amount: float) -> str:
    return f"${amount:,.0f}" if amount == int(amount) else f"${amount:,.2f}"


def day(d: dt.date) -> str:
    return f"{d:%B} {d.day}"


def full_date(d: dt.date) -> str:
    return f"{day(d)}, {d.year}"


def weekday(d: dt.date) -> str:
    return f"{d:%A}, {day(d)}"


def relative_day(d: dt.date, today: dt.date) -> str:
    """A day as said from `today`: 'today', 'tomorrow', 'yesterday', 'on Friday' (this week),
    'next Tuesday' (the week after, when no Tuesday is left this week: said on a Tuesday, 'next
    Friday' may as well mean this Friday), else 'on October 6'."""
    delta = (d - today).days
    if delta == 0:
        return "today"
    if delta == 1:
        return "tomorrow"
    if delta == -1:
        return "yesterday"
    if 1 < delta < 7 and d.weekday() > today.weekday():
        return f"on {d:%A}"
    monday = today - dt.timedelta(days=today.weekday())
    if 7 <= (d - monday).days < 14 and d.weekday() <= today.weekday():
        return f"next {d:%A}"
    return f"on {day(d)}"


def month(d: dt.date) -> str:
    return f"{d:%B %Y}"


def clock(t: dt.datetime | dt.time) -> str:
    if t.hour == 12 and t.minute == 0:
        return "noon"
    hour = t.hour % 12 or 12
    suffix = "am" if t.hour < 12 else "pm"
    return f"{hour} {suffix}" if t.minute == 0 else f"{hour}:{t.minute:02d} {suffix}"


def listing(words: Sequence[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    words = list(words)
    if not words:
        raise ValueError("nothing to list")
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


_YOU = re.compile(r"u(?:ni|s[aeiu]|t[eiu]|r[aeiou]|k|bi)|eu|ew|one\b|once\b", re.IGNORECASE)  # 'a user', 'a one-way'
_SILENT_H = re.compile(r"h(?:our|onest|onou?r|eir)", re.IGNORECASE)  # 'an hour'


def article(word: str) -> str:
    """'a' or 'an', as said before `word` (by its first sound: 'an hour', 'a user', 'an SSD', 'an 8-hour')."""
    head = word.lstrip("'\"(")
    if not head:
        return "a"
    if head[0].isdigit():
        number = re.match(r"\d+", head)[0]
        return "an" if number.startswith("8") or (len(number) in (2, 5, 8) and number[:2] in ("11", "18")) else "a"
    letters = re.match(r"[A-Za-z]+", head)
    if letters and len(letters[0]) > 1 and letters[0].isupper():  # an acronym, said letter by letter
        return "an" if letters[0][0] in "AEFHILMNORSX" else "a"
    if _SILENT_H.match(head):
        return "an"
    return "an" if head[0].lower() in "aeiou" and not _YOU.match(head) else "a"


def lower_first(text: str, names: Sequence[str] = ()) -> str:
    """The text with its first letter lowered, where it follows other words ("Also, ..."), unless it
    starts with one of `names` (a person's or a thing's name) as a word of its own (a car in gear 'D'
    leaves 'Did I lock it?' to be lowered), an acronym such as 'PIN', or "I"."""
    word = re.match(r"[A-Za-z/]*", text).group(0)  # 'A' of "A colleague" is no acronym
    if word == "I" or (len(word) > 1 and word.isupper()) or any(
            name and text.startswith(name) and not text[len(name):len(name) + 1].isalnum() for name in names):
        return text
    return text[:1].lower() + text[1:]


def stable(forms: Sequence[str], *keys: str) -> str:
    """One of `forms`, always the same for the same keys (a hash that does not change between runs)."""
    return forms[zlib.crc32("|".join(keys).encode()) % len(forms)]
