"""Whether an answer states a fact: the outcome check of read-only tasks.

A read-only task records the facts the user asked for (values taken from the results of its
reference calls: a balance, a date, a file name, a count). The answer states a fact when its text
holds the value in any usual form, whatever tools produced it:

- numbers and money: any number in the text equal to it to the cent, sign aside ('$1,548.38',
  '1548.38 USD'; '-$45.20' and '45.20 spent' state the same debit; '1,548.4' does not state
  1548.38); an integer also as itself ('3 events');
- dates ('2026-09-15'): ISO, or the month's name (or its first three letters) with the day, in
  either order ('September 15', 'Sep 15th', '15 September');
- times ('2026-09-15T14:30'): the date as above and the time as '14:30', '2:30 pm' or '2:30pm'
  ('14:00' also as '2 pm');
- booleans: 'yes'/'no' words are too loose to check, so a boolean fact is always stated;
- any other text: contained in the answer, ignoring case and runs of white space.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any

__all__ = ["stated", "facts_stated", "say"]

_NUMBER = re.compile(r"(?<![\w.])-?\$?\d[\d,]*(?:\.\d+)?")
_SPACE = re.compile(r"\s+")


def stated(fact: Any, text: str) -> bool:
    """Whether `text` states `fact` (see the module's rules)."""
    if isinstance(fact, bool) or fact is None:
        return True
    if isinstance(fact, int | float):
        return any(abs(abs(n) - abs(fact)) < 0.005 for n in _numbers(text))
    value = str(fact).strip()
    moment = _moment(value)
    if isinstance(moment, dt.datetime):
        return _date_stated(moment.date(), text) and _time_stated(moment, text)
    if moment is not None:
        return _date_stated(moment, text)
    return _fold(value) in _fold(text)


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
    found = []
    for match in _NUMBER.findall(text):
        try:
            found.append(float(match.replace("$", "").replace(",", "")))
        except ValueError:
            continue
    return found


def _moment(value: str) -> dt.date | None:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?", value):
        return None
    try:
        return dt.datetime.fromisoformat(value) if "T" in value else dt.date.fromisoformat(value)
    except ValueError:
        return None


def _date_stated(day: dt.date, text: str) -> bool:
    if day.isoformat() in text:
        return True
    folded = _fold(text)
    month, short = f"{day:%B}".lower(), f"{day:%b}".lower()
    number = rf"0?{day.day}(?:st|nd|rd|th)?"
    return any(re.search(pattern, folded) for pattern in (
        rf"\b(?:{month}|{short})\.?\s+{number}\b", rf"\b{number}\s+(?:of\s+)?(?:{month}|{short})\b"))


def _time_stated(moment: dt.datetime, text: str) -> bool:
    folded = _fold(text)
    if f"{moment:%H:%M}" in folded:
        return True
    hour = moment.hour % 12 or 12
    suffix = "am" if moment.hour < 12 else "pm"
    minutes = rf":{moment.minute:02d}" if moment.minute else r"(?::00)?"
    if re.search(rf"\b{hour}{minutes}\s*{suffix}\b", folded):
        return True
    return moment.hour == 12 and moment.minute == 0 and "noon" in folded


def _fold(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold()
