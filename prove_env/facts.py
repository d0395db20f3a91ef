"""Whether an answer states a fact: the outcome check of read-only tasks.

A read-only task records the facts the user asked for (values taken from the results of its
reference calls: a balance, a date, a file name, a count). The answer states a fact when its text
holds the value in any usual form, whatever tools produced it, and as a fact, not as a piece of
something else:

- numbers and money: a number token of the text equal to it to the cent, sign aside ('$1,548.38',
  '1548.38 USD'; '-$45.20' and '45.20 spent' state the same debit; '1,548.4' does not state
  1548.38); never digits inside a date, a time, an id or a longer number (12 is not stated by
  '2025-12-07', 21 not by 'ACC-0021', 14 not by '14:30', 10 not by '104');
- dates ('2026-09-15'): ISO, the month's name (or its first three letters) with the day in either
  order ('September 15', 'Sep 15th', '15 September'), or M/D/YYYY ('9/15/2026', '9/15'); a year
  written with the date must be the right one ('September 15, 2019' does not state it);
- times ('14:30', and the time of '2026-09-15T14:30' with its date as above, both in one item of
  the answer: one line, or one part between semicolons or sentences): 24-hour ('14:30') or
  12-hour ('2:30 pm', '2:30PM', '2:30 p.m.', '2 pm' on the hour), 'noon' and 'midnight';
- booleans: 'yes'/'no' words are too loose to check, so a boolean fact is always stated;
- any other text: as a whole word or phrase, ignoring case, runs of white space and the
  difference between '_' and a space ('T' is not stated by 'the'; 'in_progress' by 'in progress').
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any

__all__ = ["stated", "facts_stated", "say"]

_SPACE = re.compile(r"\s+")
# Where one item of an answer ends: a line, a semicolon, a sentence (not the point of 'Sep. 15').
_ITEMS = re.compile(r"[;\n]|\.\s+(?=[A-Z])")
# What is blanked out before numbers are read: ids, dates and clock times hold digits that are not
# numbers of their own.
_NOT_NUMBERS = re.compile(
    r"\b[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*[-_]\d+\b"  # ids: ACC-0021, NOVA-9, txn_0042
    r"|\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?"  # ISO dates and date-times
    r"|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"  # M/D/YYYY
    r"|\b\d{1,2}:\d{2}(?::\d{2})?\b"  # clock times
)
_NUMBER = re.compile(r"(?<![\w.,])-?\$?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d,]\d|\.\d|[-_/:]\d)")
_MONTHS = {m: i for i, m in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                          "september", "october", "november", "december"), start=1)}
_MONTH = r"(?P<month>" + "|".join(sorted({*_MONTHS, *(m[:3] for m in _MONTHS), "sept"}, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<year>\d{4}))?"
_NAMED_DATES = (re.compile(rf"\b{_MONTH}\s+{_DAY}\b{_YEAR}"), re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}\b{_YEAR}"))
_SLASH_DATE = re.compile(r"(?<![\d/])(?P<month>\d{1,2})/(?P<day>\d{1,2})(?:/(?P<year>\d{4}|\d{2}))?(?![\d/])")
_MERIDIEM = r"\s*(?P<half>a\.?\s?m\.?|p\.?\s?m\.?)(?![a-z])"
_CLOCK = re.compile(rf"(?<![\d:])(?P<hour>\d{{1,2}}):(?P<minute>\d{{2}})(?::\d{{2}})?(?![\d:])(?:{_MERIDIEM})?")
_HOUR = re.compile(rf"(?<![\d:])(?P<hour>\d{{1,2}}){_MERIDIEM}")


def stated(fact: Any, text: str) -> bool:
    """Whether `text` states `fact` (see the module's rules)."""
    if isinstance(fact, bool) or fact is None:
        return True
    if isinstance(fact, int | float):
        return any(abs(n - abs(fact)) < 0.005 for n in _numbers(text))
    value = str(fact).strip()
    if re.fullmatch(r"-?\$?\d[\d,]*(\.\d+)?", value):
        return stated(float(value.replace("$", "").replace(",", "")), text)
    clock = re.fullmatch(r"(\d{2}):(\d{2})(?::\d{2})?", value)
    if clock:
        return _time_stated(int(clock[1]), int(clock[2]), text)
    moment = _moment(value)
    if isinstance(moment, dt.datetime):  # the date and the time together, in one item of the answer
        return any(_date_stated(moment.date(), part) and _time_stated(moment.hour, moment.minute, part)
                   for part in _ITEMS.split(text))
    if moment is not None:
        return _date_stated(moment, text)
    return _phrase_stated(value, text)


def facts_stated(facts: Sequence[Sequence[Any]] | None, answers: Sequence[str]) -> bool | None:
    """Whether the answers, together, state every fact of the task (None: the task declares none)."""
    if facts is None:
        return None
    text = "\n".join(answers)
    return all(stated(fact, text) for turn in facts for fact in turn)


def say(facts: Sequence[Any]) -> str:
    """A plain answer stating `facts` (what the reference policy answers)."""
    if not facts:
        return "Done."
    return "Here is what I found: " + "; ".join(_plain(f) for f in facts) + "."


# -- internals ------------------------------------------------------------------------------------

def _plain(fact: Any) -> str:
    if isinstance(fact, float):
        return f"{fact:.2f}" if fact != int(fact) else str(int(fact))
    return str(fact)


def _numbers(text: str) -> list[float]:
    """The number tokens of `text`, without their sign."""
    text = _NOT_NUMBERS.sub(" ", text)
    return [float(whole.replace(",", "") + (fraction or "")) for whole, fraction in _NUMBER.findall(text)]


def _moment(value: str) -> dt.date | None:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?", value):
        return None
    try:
        return dt.datetime.fromisoformat(value) if len(value) > 10 else dt.date.fromisoformat(value)
    except ValueError:
        return None


def _date_stated(day: dt.date, text: str) -> bool:
    if day.isoformat() in text:
        return True
    folded = _fold(text)
    for pattern in (*_NAMED_DATES, _SLASH_DATE):
        for m in pattern.finditer(folded):
            month = m["month"]
            month = int(month) if month.isdigit() else _MONTHS.get(month) or _MONTHS.get(
                next(name for name in _MONTHS if name.startswith(month[:3])))
            year = m["year"]
            if year is not None and len(year) == 2:
                year = str(2000 + int(year))
            if month == day.month and int(m["day"]) == day.day and (year is None or int(year) == day.year):
                return True
    return False


def _time_stated(hour: int, minute: int, text: str) -> bool:
    folded = _fold(text)
    if (hour, minute) == (12, 0) and re.search(r"\bnoon\b", folded):
        return True
    if (hour, minute) == (0, 0) and re.search(r"\bmidnight\b", folded):
        return True
    for m in _CLOCK.finditer(folded):
        if _as_24(int(m["hour"]), m["half"]) == hour and int(m["minute"]) == minute:
            return True
    if minute == 0:
        return any(_as_24(int(m["hour"]), m["half"]) == hour for m in _HOUR.finditer(folded))
    return False


def _as_24(hour: int, half: str | None) -> int | None:
    """The hour of a written time on the 24-hour clock (None: not a time of day)."""
    if half is None:
        return hour if hour <= 23 else None
    if not 1 <= hour <= 12:
        return None
    return hour % 12 + (12 if half.startswith("p") else 0)


def _phrase_stated(value: str, text: str) -> bool:
    phrase = _fold(value)
    if not phrase:
        return True
    words = r"\s+".join(re.escape(w) for w in phrase.split(" "))
    return re.search(rf"(?<!\w){words}(?!\w)", _fold(text)) is not None


def _fold(text: str) -> str:
    return _SPACE.sub(" ", text.replace("_", " ")).strip().casefold()
