"""Whether an answer states a fact: the outcome check of read-only tasks.

A read-only task records the facts the user asked for (values taken from the results of its
reference calls: a balance, a date, a file name, a count). The answer states a fact when its text
holds the value in any usual form, whatever tools produced it, and as a fact, not as a piece of
something else:

- numbers and money: a number token of the text equal to it to the cent, sign aside ('$1,548.38',
  '1548.38 USD'; '-$45.20' and '45.20 spent' state the same debit; '1,548.4' does not state
  1548.38; a value printed with three or more decimals, such as a mean, also to one decimal:
  '219.3' states 219.3333), an amount in thousands or millions ('$15k', '$1.2M', '15 thousand';
  a bare 'K' or 'M' only after '$'), or a small count in words ('just one', 'twice', 'a single'); never
  digits inside a date, a time, an id or a longer number (12 is not stated by '2025-12-07', 21
  not by 'ACC-0021', 14 not by '14:30', 10 not by '104', 12 not by seat '12F', 2 not by '2 pm');
- dates ('2026-09-15'): ISO, the month's name (or its first three letters) with the day in either
  order, on one line ('September 15', 'Sep 15th', '15 September'; a day 1 to 31), or M/D/YYYY ('9/15/2026', '9/15'); a year
  written with the date must be the right one ('September 15, 2019' does not state it); and, where
  the world's date is known (`facts_stated(..., today=)`), 'today', 'tomorrow' or 'yesterday';
- times ('14:30', and the time of '2026-09-15T14:30' with its date as above, both in one item of
  the answer: one line, or one part between semicolons or sentences; on the world's day, the time
  alone): 24-hour ('14:30') or
  12-hour ('2:30 pm', '2:30PM', '2:30 p.m.', '2 pm' on the hour), 'noon' and 'midnight'; the start
  of a span whose am or pm follows its end only takes that half of the day ('3:00-4:30 pm' and '3 to
  4 pm' state 15:00, not 03:00), or the other where the start would come after the end ('11:30-1 pm');
- booleans: 'yes'/'no' words are too loose to check, so a boolean fact is always stated;
- a number in groups of digits (a phone or meeting number, '(241) 208-1991', '206 3063 7671'): by
  the same digits in a row of groups, whatever joins them ('241-208-1991', '+1 241.208.1991',
  '20630637671'), none more or fewer;
- any other text: as a whole word or phrase, ignoring case, runs of white space, the difference
  between '_' and a space, a comma before a space and round brackets, and a word of three letters
  or more said in the plural ('T' is not stated by 'the' nor by 'AT&T'; 'in_progress' is by 'in
  progress', 'Primer, 1 gal' by 'Primer (1 gal)', 'Angled brush 2.5 in' by '4 Angled brushes 2.5 in'),
  never right after 'not' ('not engaged' states no 'engaged', 'isn't pressed' no 'pressed'), nor
  inside a pleasantry ('No problem', 'no worries', 'nothing else', 'nothing went wrong', 'feel
  free'), which says nothing of the world: 'No problem, the account holds $1,250' states no zero.

Two structured forms (JSON objects, so that tasks stay JSON) say more than a bare value:

- a measure with its unit, `quantity(1.238, "km")` = `{"quantity": 1.238, "unit": "km"}`: stated by
  a number in any usual unit of its kind, written with its unit or, bare, in the fact's own unit,
  and rounded as a person rounds it: at least two significant digits (or as many as the fact
  has), within the rounding of both ('1.2 km', '1.24 km', '1,238 m', '0.77 mi', '4,062 ft' state
  1.238 km; '1 km' and '0.8 mi' do not). Durations may be said in parts ('1 h 35 min', '1 hour
  and 35 minutes' state 95 minutes), a number up to twelve in words ('a minute', 'two miles'), and
  the parts of an hour in words, exactly ('half an hour' is 30 minutes, 'a quarter of an hour' 15,
  'an hour and a half' 90); a length of 0 also in words ('right where your car is', 'already there').
  Sign aside, as for plain numbers. The units: km, m, mi, ft
  (length); s, min, h, d (time); mph, km/h (speed); F, C (temperature); psi, kPa, bar
  (pressure); kWh, Wh (energy); L, gal (volume); % (a share); B, KB, MB, GB (size); USD (money:
  '$0.96', '96 cents');
- a question with more than one right answer, `one_of(a, b)` = `{"one_of": [a, b]}`: stated when
  any of its facts is ('down $0.96' or 'down 2.1%' for a price change; 'preparing' or 'being
  prepared' for an order's stage). `NOTHING` is the fact of an empty answer ('no', 'none', '0');
  `ABSENT` of a thing that is not there ('no', 'doesn't exist', 'not found').

An answer states a task's facts (`facts_stated`) when it holds each one and offers no rivals for
it, because a guess that names every candidate is no statement:

- a number or a day is not stated among the values nearest it: two of the four a step and two
  steps either way, one of them above it ('4, 5, 6'; 'Oct 28, 29 or 30'; '$45.19, $45.20'), a
  step being 1 for a whole number, a cent for an amount (both for a whole amount) and a day for a
  date; values below it alone are a breakdown, not a guess ('3 events: 2 meetings, 1 call');
- nor a number joined to another by 'or', 'to' or a dash ('5 or 6', 'one to three', '3-4');
- nor a number in a run of bare numbers with two others, which tells none of them apart ('1, 4, 7,
  10'; '$12.50 / $40.00 / $7.25'): no word, id or day between them (a number recorded as text is a
  table's cell, which a print of its column lists among the others: no guess);
- nor a measure beside two others of its kind near it at the rounding it is said to ('94, 95, 96
  minutes'), joined to one ('95 or 96 min'), or in a run of bare numbers ('60, 95, 130 minutes');
- nor a word that is one of the values a tool's argument takes (a status, a priority) beside two
  of its other values, or joined to one by 'or' ('open or closed'; the episode passes the server's
  choices);
- the task's own facts are no rivals: an answer that lists them all is no guess; nor are the other
  values of a listing the facts come from (`listed`: the totals of every order where the facts keep
  the first five, the sizes of every shoe in stock), which a full answer names.

A list that counts up to the fact ('0 1 2 ... 8' for 8) is as likely right as the fact said alone,
so it is let be; hours of the clock ('2 pm') are times, never numbers.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["stated", "facts_stated", "listed", "say", "quantity", "one_of", "values", "NOTHING", "ABSENT"]

_SPACE = re.compile(r"\s+")
_CLOCK_FACT = re.compile(r"(\d{2}):(\d{2})(?::\d{2})?")  # a time fact, '14:30'
# Where one item of an answer ends: a line, a semicolon, a sentence (not the point of 'Sep. 15').
_ITEMS = re.compile(r"[;\n]|\.\s+(?=[A-Z])")
# What is blanked out before numbers are read: ids, dates and clock times hold digits that are not
# numbers of their own.
_NOT_NUMBERS = re.compile(
    r"\b[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*[-_]\d+\b"  # ids: ACC-0021, NOVA-9, txn_0042
    r"|\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?"  # ISO dates and date-times
    r"|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"  # M/D/YYYY
    r"|\b\d{1,2}:\d{2}(?::\d{2})?\b"  # clock times
    r"|\b\d{1,2}\s*[ap]\.?\s?m\b\.?"  # hours of the clock: 2 pm, 9a.m.
    r"|\b\d{1,2}\s+(?:in\s+the\s+(?:morning|afternoon|evening)|at\s+night)\b"  # 3 in the afternoon
    r"|(?<![\w.,])\d{1,3}(?![KMGTBP]\b)[A-Z]\b"  # seats, gates, flats: 12F, 2C (not sizes: 31.2K, 4G)
)
# a number, also a count written 'x4' ('Oscillating multi-tool x4'; not the x of '0x1F' or 'box4')
_NUMBER = re.compile(r"(?:(?<![\w.,])|(?<=(?<![\w.,])x))-?\$?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d,]\d|\.\d|[-_/:]\d)")
# A small count written as a word ('just one', 'three meetings'); 'one' not as a pronoun ('no one',
# 'the one at noon', 'one of them'), and no word inside a compound ('three-way').
_WORD_NUMBERS = {w: i for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven",
                                             "eight", "nine", "ten", "eleven", "twelve"))}
_NUMBER_WORD = re.compile(
    r"(?<![\w-])(?:(?<!\bno )(?<!\bthe )(?<!\beach )(?<!\bwhich )(?<!\bthis )(?<!\bthat )(?<!\bany )"
    r"(?<!\bevery )one(?! of\b)|" + "|".join(w for w in _WORD_NUMBERS if w != "one") + r")(?![\w-])", re.I)
_AMOUNT_TEXT = re.compile(r"-?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?")  # a number written as text
_OFTEN = re.compile(r"(?<![\w-])(once|twice)(?![\w-])", re.I)
# a count of one said as 'a single message' (not 'not a single'; 'the one at noon' is no count either)
_ONE = re.compile(r"(?<!\bnot )(?<![\w-])a single(?![\w-])", re.I)
# A number written in groups of digits (a phone or meeting number: '(241) 208-1991', '206 3063 7671'),
# and a run of such groups in an answer, whatever joins them.
_DIGIT_GROUPS = re.compile(r"\+?\(?\d+\)?(?:[\s.-]*\(?\d+\)?)+")
_DIGIT_RUN = re.compile(rf"(?<!\w){_DIGIT_GROUPS.pattern}(?!\w)")  # not within a word: '555-3595qz'
_MONTHS = {m: i for i, m in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                          "september", "october", "november", "december"), start=1)}
_MONTH = r"(?P<month>" + "|".join(sorted({*_MONTHS, *(m[:3] for m in _MONTHS), "sept"}, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
# The day of a date said with its month's name ('June 6', 'Sep 15th, 2026', '6 June'; not '2 may'): no
# number of its own, as the digits of an ISO date are none
_MONTH_WORDS = "|".join(sorted({*_MONTHS, *(m[:3] for m in _MONTHS), "sept"}, key=len, reverse=True))
_DAY_NUMBER = r"(?:3[01]|[12]\d|0?[1-9])"  # a day of a month: 1 to 31
_NAMED_DAY = re.compile(
    rf"\b(?:{_MONTH_WORDS})\.?[ \t]+{_DAY_NUMBER}(?:st|nd|rd|th)?\b(?:,?[ \t]+\d{{4}})?"
    rf"|\b{_DAY_NUMBER}(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?(?:{_MONTH_WORDS.replace('|may', '')})\b\.?"
    rf"(?:,?[ \t]+\d{{4}})?", re.I)
_YEAR = r"(?:,?[ \t]+(?P<year>\d{4}))?"
# a date said with its month's name, on one line ('jul' over '11' in a table is no date)
_NAMED_DATES = (re.compile(rf"\b{_MONTH}[ \t]+{_DAY}\b{_YEAR}"),
                re.compile(rf"\b{_DAY}[ \t]+(?:of[ \t]+)?{_MONTH}\b{_YEAR}"))
_SLASH_DATE = re.compile(r"(?<![\d/])(?P<month>\d{1,2})/(?P<day>\d{1,2})(?:/(?P<year>\d{4}|\d{2}))?(?![\d/])")
# am or pm, also in words ('1:30 in the afternoon', '9 in the morning', '11 at night')
_MERIDIEM = (r"\s*(?P<half>a\.?\s?m\.?|p\.?\s?m\.?|in\s+the\s+(?:morning|afternoon|evening)|at\s+night)"
             r"(?![a-z])")
_CLOCK = re.compile(rf"(?<![\d:])(?P<hour>\d{{1,2}}):(?P<minute>\d{{2}})(?::\d{{2}})?(?![\d:])(?:{_MERIDIEM})?")
_HOUR = re.compile(rf"(?<![\d:])(?P<hour>\d{{1,2}}){_MERIDIEM}")
# a span of time whose am or pm is said after its end only ('3:00-4:30 pm', '3 to 4 pm', '11:30-1 pm')
_SPAN = re.compile(r"(?<![\d:./-])(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?(?![\d:])\s*(?:-|–|—|to|until|till)\s*"
                   rf"(?P<end>\d{{1,2}})(?::(?P<end_minute>\d{{2}}))?(?![\d:]){_MERIDIEM}")
_MONTH_BEFORE = re.compile(rf"\b(?:{_MONTH_WORDS})\.?\s*$")
# no thing at all, said with a negated verb: 'not any', "aren't any", "couldn't find any", "won't get anything"
# (one word at most between, and no doubt: "not sure if any", "not sure any", "don't know any")
_NONE_SAID = re.compile(r"(?<![\w&])(?:not|\w+n['’]t)(?:\s+(?!sure\b|certain\b|know\b|clear\b)\w+)?\s+any(?:thing)?"
                        r"(?![\w&])")
# a distance that rounds to nothing, in words: 'right where your car is', 'you're already there'
_HERE = re.compile(r"\b(?:right (?:there|here|where|next to|beside|by|outside)|already (?:there|here|at)|next door"
                   r"|same (?:spot|place|location)|you['’]re (?:there|at)|(?:less than|under) a tenth)\b")
# Pleasantries that hold a word of a zero or of a free slot ('no', 'nothing', 'free') and say nothing
# of the world: not read as a fact ('No problem!' is no empty answer, 'feel free' no free slot).
_PLEASANTRIES = re.compile(
    r"(?<![\w'’])(?:no problem(?!s)|not a problem|no worries|no worry|no trouble|no rush|no doubt|no matter"
    r"|no need to worry|nothing else|nothing more|nothing further|nothing (?:went |has gone |is )?wrong"
    r"|nothing to worry about|none taken|feel free)(?![\w'’])", re.I)


def quantity(value: float, unit: str, places: int | None = None) -> dict[str, Any]:
    """A measure with its unit, stated in any usual unit of its kind (see the module's rules).
    `places`: the decimals the value was rounded to, where its digits do not show them (a distance
    rounded to 0.1 km reads 1.0)."""
    if unit not in _UNITS:
        raise ValueError(f"unknown unit {unit!r}; known: {sorted(_UNITS)}")
    return {"quantity": value, "unit": unit, **({"places": places} if places is not None else {})}


def one_of(*facts: Any) -> dict[str, Any]:
    """A fact stated by any one of `facts` (a question with more than one right answer)."""
    if not facts:
        raise ValueError("one_of needs at least one fact")
    return {"one_of": list(facts)}


# The fact of an empty answer ('you have no watchlists', 'there are none', '0 open orders').
NOTHING = one_of(0, "no", "none", "not any", "don't have any", "do not have any", "nothing")

# The fact of a thing that is not there ('No, it doesn't exist.', 'nothing at that path'): found in a
# result whose `exists` or `found` flag is false.
ABSENT = one_of("no", "nope", "nothing", "doesn't exist", "does not exist", "doesn\u2019t exist", "not there",
                "isn't there", "isn\u2019t there", "is not there", "not found", "no such", "missing",
                "not present", "absent")


def values(fact: Any) -> list[Any]:
    """The plain values a fact stands for (a structured fact's number, or each of its choices)."""
    if isinstance(fact, dict):
        if "one_of" in fact:
            return [v for choice in fact["one_of"] for v in values(choice)]
        if "quantity" in fact:
            return [fact["quantity"]]
    return [fact]


def stated(fact: Any, text: str, today: dt.date | None = None) -> bool:
    """Whether `text` holds `fact` in any usual form (see the module's rules); an answer that
    holds it among its rivals still states nothing (`facts_stated`)."""
    if isinstance(fact, bool) or fact is None:
        return True
    if isinstance(fact, dict):
        if "one_of" in fact:
            return any(stated(choice, text, today) for choice in fact["one_of"])
        if "quantity" in fact:
            places, unit = fact.get("places", _decimals(fact["quantity"])), _UNITS[fact["unit"]]
            if fact["quantity"] == 0 and unit.kind == "length" and _HERE.search(_fold(text)):
                return True  # 'Costco is right where your car is': a distance that rounds to nothing
            return _quantity_stated(float(fact["quantity"]), unit, places, text)
        raise ValueError(f"not a fact: {fact!r}")
    if isinstance(fact, int | float):
        said = _numbers(text)
        if any(abs(n - abs(fact)) < 0.005 for n in said):
            return True
        # a computed value printed with three or more places (a mean, 219.3333) is also said to one
        # decimal, where three significant digits stay ('219.3'; not '0.1' for 0.1234)
        return (isinstance(fact, float) and _decimals(fact) >= 3 and abs(fact) >= 10
                and any(_decimals(n) == 1 and abs(n - round(abs(fact), 1)) < 1e-9 for n in said))
    value = str(fact).strip()
    if _AMOUNT_TEXT.fullmatch(value):  # not '159,3975': the cells of a row
        # a number written as text is also a whole cell of a comma-separated row, as printed
        return (stated(float(value.replace("$", "").replace(",", "")), text)
                or re.search(rf"(?m)(?:^|,){re.escape(value)}(?=,|\s*$)", text) is not None)
    clock = _CLOCK_FACT.fullmatch(value)
    if clock:
        return _time_stated(int(clock[1]), int(clock[2]), text)
    moment = _moment(value)
    if isinstance(moment, dt.datetime):  # the date and the time together, in one item of the answer
        # on the world's day, a time said with no day at all says its day ('around 1:53 pm')
        return any(_time_stated(moment.hour, moment.minute, part)
                   and (_date_stated(moment.date(), part, today) or (moment.date() == today and not _names_a_day(part)))
                   for part in _ITEMS.split(text))
    if moment is not None:
        return _date_stated(moment, text, today)
    if not _PLEASANTRIES.search(value):
        text = _PLEASANTRIES.sub(" ", text)
    return _phrase_stated(value, text)


def facts_stated(facts: Sequence[Sequence[Any]] | None, answers: Sequence[str],
                 choices: Sequence[Collection[str]] = (), today: dt.date | None = None,
                 shown: Collection[float] = ()) -> bool | None:
    """Whether the answers, together, state every fact of the task, none among its rivals in any one
    answer (None: the task declares none). `choices`: the sets of values the server's tool arguments
    take (the statuses an order may have), whose other values are a word fact's rivals. `today`: the
    world's date, which 'today', 'tomorrow' and 'yesterday' name. `shown`: the numbers of the
    listings the facts come from (`listed`), which are no rivals either."""
    if facts is None:
        return None
    every = [fact for turn in facts for fact in turn]
    return all(_answered(fact, answers, every, choices, today, frozenset(shown)) for fact in every)


def listed(facts: Sequence[Sequence[Any]] | None, outputs: Sequence[str]) -> frozenset[float]:
    """The numbers of the listings the task's facts come from, in the results `outputs` (JSON): every
    value of a field that holds two or more of the facts' numbers (the totals of a customer's orders,
    of which the facts keep the first five; the sizes a shoe comes in). A full answer names them
    beside the facts; a field that holds one of them (one order's total) lends none of its values."""
    numbers = {_key(v) for turn in facts or [] for f in turn for v in values(f)
               if not isinstance(v, bool) and isinstance(v, int | float)}
    if len(numbers) < 2:
        return frozenset()
    fields: dict[str, set[float]] = {}
    for output in outputs:
        try:
            data = json.loads(output)
        except ValueError:
            continue
        for key, value in _fields(data):
            fields.setdefault(key, set()).add(round(float(value), 2))
    return frozenset(n for held in fields.values() if len(held & numbers) >= 2 for n in held)


def _fields(data: Any) -> Iterator[tuple[str, float]]:
    """The numbers a JSON value holds, each with the key it is under."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                yield key, value
            else:
                yield from _fields(value)
    elif isinstance(data, list):
        for item in data:
            yield from _fields(item)


def _answered(fact: Any, answers: Sequence[str], every: Sequence[Any], choices: Sequence[Collection[str]],
              today: dt.date | None, shown: frozenset[float] = frozenset()) -> bool:
    """Whether the answers state `fact` and none offers rivals for it (`every`: the task's facts). A
    guess is made in one answer: the count an earlier turn's answer gave ('Three holds expired') is
    no rival of this turn's ('One transfer is on its way: 2 ...')."""
    if isinstance(fact, dict) and "one_of" in fact:
        return any(_answered(choice, answers, every, choices, today, shown) for choice in fact["one_of"])
    return (stated(fact, "\n".join(answers), today)
            and not any(_hedged(fact, answer, every, choices, today, shown) for answer in answers))


def say(facts: Sequence[Any]) -> str:
    """A plain answer stating `facts` (what the reference policy answers)."""
    if not facts:
        return "Done."
    return "Here is what I found: " + "; ".join(_plain(f) for f in facts) + "."


# -- internals ------------------------------------------------------------------------------------

def _plain(fact: Any) -> str:
    if isinstance(fact, dict):
        if "one_of" in fact:
            return _plain(fact["one_of"][0])
        unit = _UNITS[fact["unit"]]
        value = fact["quantity"]
        number = f"{abs(value):,}" if isinstance(value, int) else f"{abs(value):,.{fact.get('places', _decimals(value))}f}"
        sign = "-" if value < 0 else ""
        return f"{sign}${number}" if unit.name == "USD" else f"{sign}{number}{unit.written}"
    if isinstance(fact, float):
        return f"{fact:.2f}" if fact != int(fact) else str(int(fact))
    return str(fact)


def _hedged(fact: Any, text: str, others: Sequence[Any], choices: Sequence[Collection[str]],
            today: dt.date | None, shown: frozenset[float] = frozenset()) -> bool:
    """Whether `text` offers rivals for a number, a day or a choice: for a number or a day, two of
    the four values nearest it (a step each way and two, a step being 1, a cent or a day), one of
    them above it, or a number joined to it by 'or' or 'to' ('5 or 6', 'four to six'); for a word
    that is one of the values a tool's argument takes (`choices`: a status, a priority), two other
    values of it, or one joined to it by 'or' ('open or closed'). Values of the task's facts are no
    rivals (an answer that lists them is no guess), nor the numbers of the listings they come from
    (`shown`), nor the digits inside a text fact (seats '1A', '2C' beside a count of 0)."""
    known = {_key(v) for other in others for v in values(other)}
    numbers = known | shown
    said_text = text
    for other in others:
        for v in values(other):
            if isinstance(v, str) and v.strip() and _as_number(v) is None:
                words = r"\s+".join(map(re.escape, v.split()))  # spaced as the answer spaces it
                text = re.sub(rf"(?<!\w){words}(?!\w)", " · ", text, flags=re.I)  # no word, but no run goes on
    if isinstance(fact, dict) and "quantity" in fact:
        return _quantity_hedged(fact, text, others, shown)
    if isinstance(fact, str) and (_moment(fact.strip()) or _CLOCK_FACT.fullmatch(fact.strip())) and any(
            _dated_among(fact, run[0], others, today) for run in _WHEN_RUN.finditer(text)):
        return True
    for rivals in _rivals(fact):
        said = [step for step, rival in rivals if _key(rival) not in numbers and stated(rival, text, today)]
        if len(said) >= 2 and max(said) > 0:
            return True
    number = _as_number(fact)
    if number is not None:
        # a number recorded as text is a cell of printed data, which a print of its column lists
        # among the others ('jan: 11, 3, 5, 12, -3, 9'): no run of a table's cells is a guess
        return (any(number in pair and len(set(pair)) > 1 for pair in _numbers_joined(text))
                or not isinstance(fact, str) and any(_listed_among(number, run, numbers) for run in _runs(text)))
    if isinstance(fact, str) and choices:
        return _choice_hedged(_fold(fact), said_text, text, {_fold(str(k)) for k in known}, choices)
    return False


# What a negation denies, up to the end of its clause: "she hasn't been contacted or qualified" offers
# no status beside 'new'; but not a doubt ("not sure, maybe contacted or qualified", "I don't know"),
# which offers them
_DENIED = re.compile(r"(?:\b(?:not|never|neither|nor|no longer|yet to be)\b|n['’]t\b)"
                     r"(?!\s+(?:be\s+)?(?:sure|certain|clear|know|knowing|remember|recall|tell|say)\b)[^.;:!?\n]*", re.I)
_DOUBT = re.compile(r"\b(?:maybe|perhaps|possibly|probably|might|may|could|or so|i think|i guess)\b", re.I)


def _choice_hedged(word: str, said: str, rest: str, known: set[str], choices: Sequence[Collection[str]]) -> bool:
    """Whether an answer names, beside `word`, two other values of a choice that holds it, or one
    joined to it by 'or' (`rest`: the answer without the task's text facts); a value it denies ('not
    contacted or qualified') is none."""
    folded = _fold(said)
    rest = _DENIED.sub(lambda m: m[0] if _DOUBT.search(m[0]) else " ", rest)
    for choice in choices:
        options = {_fold(c) for c in choice}
        if word not in options:
            continue
        rivals = [o for o in options - known - {word} if o and _phrase_stated(o, rest)]
        if len(rivals) >= 2:
            return True
        for rival in rivals:
            a, b = re.escape(word), re.escape(rival)
            joined = r"[\s,(]+or\s+(?:maybe\s+|perhaps\s+)?"
            if re.search(rf"(?<!\w)(?:{a}{joined}{b}|{b}{joined}{a})(?!\w)", folded):
                return True
    return False


# A run of bare numbers on one line, joined by commas, slashes, spaces, 'or' or 'and' alone, with no
# word to tell them apart ('1, 4, 7, 10', '$12.50 / $40.00 / $7.25', 'three, six or nine').
_BARE = rf"-?\$?(?:\d{{1,3}}(?:,\d{{3}})+|\d+)(?:\.\d+)?|(?:{'|'.join(_WORD_NUMBERS)})"
_BARE_NUMBER = re.compile(rf"(?<![\w.,$-])(?:{_BARE})(?![\w%]|[.,]\d)", re.I)
# what joins the items of a run: a comma, a semicolon, a slash or a space, then 'or' or 'and' alone
_RUN_JOIN = r"(?:[ \t]*[,;/][ \t]*|[ \t]+)(?:(?:or|and)[ \t]+)?"
_RUN = re.compile(rf"(?<![\w.,$-])(?:{_BARE})(?:{_RUN_JOIN}(?:{_BARE})){{2,}}(?![\w%]|[.,]\d)", re.I)


def _runs(text: str) -> list[list[float]]:
    """The runs of bare numbers in `text` (`_RUN`), each as its numbers; ids, dates and times are
    words here, which tell the numbers beside them apart ('ACC-1 3, ACC-2 5')."""
    text = _NAMED_DAY.sub(" on ", _NOT_NUMBERS.sub(" at ", _unscaled(text)))
    return [[_bare(m[0]) for m in _BARE_NUMBER.finditer(run[0])] for run in _RUN.finditer(text)]


def _bare(token: str) -> float:
    word = _WORD_NUMBERS.get(token.lower())
    return float(word) if word is not None else float(token.lstrip("-$").replace(",", ""))


def _listed_among(number: float, run: list[float], known: set[Any]) -> bool:
    """Whether a run of bare numbers offers `number` among two others that are not the task's facts:
    a list that tells nothing of which is meant ('1, 4, 7, 10' for 7). A count up to the number ('1,
    2, 3, 4' for 4) says no more than the number alone."""
    if not any(abs(n - number) < 0.005 for n in run):
        return False
    if run[-1] == number and run == [run[0] + k for k in range(len(run))] and run[0] in (0, 1):
        return False
    return sum(abs(n - number) >= 0.005 and round(n, 2) not in known for n in run) >= 2


# A run of days or times on one line with nothing to tell them apart ('Oct 23, Oct 26, Oct 29';
# '1:30 pm, 2:30 pm, 3:30 pm'; 'Oct 29 at 9 am; Oct 29 at 2 pm; Oct 30 at 10 am').
_WEEKDAY = r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?|(?:mon|tues|wednes|thurs|fri|satur|sun)day),?[ \t]+"
_DAY_ITEM = (rf"(?:{_WEEKDAY})?(?:\b(?:{_MONTH_WORDS})\.?[ \t]+{_DAY_NUMBER}(?:st|nd|rd|th)?\b(?:,?[ \t]+\d{{4}})?"
             rf"|\b{_DAY_NUMBER}(?:st|nd|rd|th)?[ \t]+(?:of[ \t]+)?(?:{_MONTH_WORDS})\b\.?(?:,?[ \t]+\d{{4}})?"
             r"|\b\d{4}-\d{2}-\d{2}\b|(?<![\d/])\d{1,2}/\d{1,2}(?:/\d{2,4})?(?![\d/]))")
_TIME_ITEM = r"(?:(?<![\d:])\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]?[ap]\.?[ \t]?m\b\.?)?|(?<![\d:])\d{1,2}[ \t]?[ap]\.?[ \t]?m\b\.?|\bnoon\b|\bmidnight\b)"
_WHEN_ITEM = (rf"(?:{_DAY_ITEM}(?:,?[ \t]+(?:at[ \t]+)?{_TIME_ITEM}|T\d{{2}}:\d{{2}}(?::\d{{2}})?)?"
              rf"|{_TIME_ITEM}(?:,?[ \t]+(?:on[ \t]+)?{_DAY_ITEM})?)")
_WHEN = re.compile(_WHEN_ITEM, re.I)
_WHEN_RUN = re.compile(rf"{_WHEN_ITEM}(?:{_RUN_JOIN}{_WHEN_ITEM}){{2,}}", re.I)


def _dated_among(fact: str, run: str, every: Sequence[Any], today: dt.date | None) -> bool:
    """Whether a run of days or times offers a day or a time fact among two others that state none
    of the task's facts: a list that tells nothing of which is meant ('Oct 23, Oct 26, Oct 29'). A
    run whose items state more of the task's facts than not is a listing asked for, a few more
    given ('the first few free times'), no guess."""
    items = [m[0] for m in _WHEN.finditer(run)]
    if not any(stated(fact, item, today) for item in items):
        return False
    told = [item for item in items if any(stated(f, item, today) for f in every if not isinstance(f, bool))]
    return len(items) - len(told) >= max(2, len(told))


def _rivals(fact: Any) -> list[list[tuple[int, Any]]]:
    """The values nearest a number or a day fact, with their signed steps from it: for a whole
    number a step of 1, for an amount with decimals (a float, or a text with a point) a cent, and
    for a whole float both."""
    number = _as_number(fact)
    if number is not None:
        whole = number == int(number)
        decimal = isinstance(fact, float) or (isinstance(fact, str) and "." in fact)
        steps = [1.0] * whole + [0.01] * (decimal or not whole)
        return [[(k, round(number + k * step, 2)) for k in (-2, -1, 1, 2) if number + k * step >= 0]
                for step in steps]
    if isinstance(fact, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", fact.strip()):
        day = _moment(fact.strip())
        if isinstance(day, dt.date):
            return [[(k, (day + dt.timedelta(days=k)).isoformat()) for k in (-2, -1, 1, 2)]]
    return []


def _as_number(fact: Any) -> float | None:
    if isinstance(fact, bool):
        return None
    if isinstance(fact, int | float):
        return abs(float(fact))
    if isinstance(fact, str) and _AMOUNT_TEXT.fullmatch(fact.strip()):
        return abs(float(fact.strip().replace("$", "").replace(",", "")))
    return None


def _key(value: Any) -> Any:
    number = _as_number(value)
    return round(number, 2) if number is not None else str(value).strip()


_TOKEN = r"-?\$?\d[\d,]*(?:\.\d+)?|[a-z]+"
_FIGURE = r"\$?\d[\d,]*(?:\.\d+)?"
# two values offered as alternatives or a range: '5 or 6', 'one to three', '3-4', '$40–$50' (a dash
# between figures alone, not within a longer chain of them: '555-1234-5678', '2026-11-28')
_JOINED = re.compile(rf"(?<![\w.])(?P<a>{_TOKEN}),?\s+(?:or|to)\s+(?:maybe\s+|perhaps\s+)?(?=(?P<b>{_TOKEN})\b)"
                     rf"|(?<![\w.,$-])(?P<low>{_FIGURE})[ \t]?[-–—][ \t]?(?=(?P<high>{_FIGURE})(?![\w.,-]?\d|[-–—]))", re.I)


# An amount said in thousands, millions or billions ('$15k', '$1.2M', '15 thousand'): a bare 'K', 'M'
# or 'B' only after a dollar sign ('4.0K' is a file's size, '12B' a seat, '15 m' a length)
_SCALED = re.compile(r"(?<![\w.,])(?P<lead>-?\$?)(?P<number>\d{1,3}(?:,\d{3})+|\d+)(?P<fraction>\.\d+)?[ \t]?"
                     r"(?P<scale>thousand|million|billion|bn|k|K|M|m|B)(?![\w'’])")
_SCALES = {"thousand": 3, "k": 3, "K": 3, "million": 6, "M": 6, "m": 6, "billion": 9, "bn": 9, "B": 9}


def _unscaled(text: str) -> str:
    """`text` with its amounts said in thousands or millions written in digits ('$15k' -> '$15000')."""
    def digits(m: re.Match[str]) -> str:
        if "$" not in m["lead"] and m["scale"] not in ("thousand", "million", "billion", "bn", "k"):
            return m[0]
        whole, fraction = m["number"].replace(",", ""), (m["fraction"] or ".")[1:]
        shift = _SCALES[m["scale"]]
        digits = (whole + fraction.ljust(shift, "0"))
        point = len(whole) + shift
        return f"{m['lead']}{int(digits[:point])}" + (f".{digits[point:]}" if digits[point:].strip("0") else "")

    return _SCALED.sub(digits, text)


def _numbers_joined(text: str) -> list[tuple[float, float]]:
    """The pairs of numbers an answer offers as alternatives or a range ('5 or 6', 'one to three')."""
    def number(token: str) -> float | None:
        word = _WORD_NUMBERS.get(token.lower())
        if word is not None:
            return float(word)
        digits = token.lstrip("-$").replace(",", "")
        return float(digits) if re.fullmatch(r"\d+(\.\d+)?", digits) else None

    pairs = []
    for m in _JOINED.finditer(_NAMED_DAY.sub(" ", _NOT_NUMBERS.sub(" ", _unscaled(text)))):
        a, b = (number(m["a"]), number(m["b"])) if m["a"] else (number(m["low"]), number(m["high"]))
        if a is not None and b is not None and (m["a"] or a < b):  # a range runs upwards: not a score '3-1'
            pairs.append((a, b))
    return pairs


def _numbers(text: str) -> list[float]:
    """The number tokens of `text`, without their sign, the counts up to twelve written as words, and
    'once' and 'twice' (how often something came up)."""
    text = _NAMED_DAY.sub(" ", _NOT_NUMBERS.sub(" ", _unscaled(text)))
    return ([float(whole.replace(",", "") + (fraction or "")) for whole, fraction in _NUMBER.findall(text)]
            + [float(_WORD_NUMBERS[word.lower()]) for word in _NUMBER_WORD.findall(text)]
            + [1.0 if m.lower() == "once" else 2.0 for m in _OFTEN.findall(text)]
            + [1.0 for _ in _ONE.finditer(text)])


def _moment(value: str) -> dt.date | None:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?", value):
        return None
    try:
        return dt.datetime.fromisoformat(value) if len(value) > 10 else dt.date.fromisoformat(value)
    except ValueError:
        return None


_RELATIVE_DAYS = {"yesterday": -1, "today": 0, "tonight": 0, "this morning": 0, "this afternoon": 0,
                  "this evening": 0, "tomorrow": 1}


def _date_stated(day: dt.date, text: str, today: dt.date | None = None) -> bool:
    if day.isoformat() in text:
        return True
    folded = _fold(text)
    if today is not None and any(day == today + dt.timedelta(days=k) and re.search(rf"(?<!\w){word}(?!\w)", folded)
                                 for word, k in _RELATIVE_DAYS.items()):
        return True
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


def _names_a_day(text: str) -> bool:
    """Whether `text` says a day of its own: a date in any form, a weekday, today or another."""
    return (any(p.search(text.lower()) for p in _NAMED_DATES) or _SLASH_DATE.search(text) is not None
            or re.search(r"\d{4}-\d{2}-\d{2}|\b(?:today|tonight|tomorrow|yesterday|monday|tuesday|wednesday|thursday"
                         r"|friday|saturday|sunday)\b", text, re.I) is not None)


def _time_stated(hour: int, minute: int, text: str) -> bool:
    folded = _fold(text)
    if (hour, minute) == (12, 0) and re.search(r"\bnoon\b", folded):
        return True
    if (hour, minute) == (0, 0) and re.search(r"\bmidnight\b", folded):
        return True
    spans = {}  # where a span starts: the start's hour read with the end's am or pm
    for m in _SPAN.finditer(folded):
        start, end = _as_24(int(m["hour"]), m["half"]), _as_24(int(m["end"]), m["half"])
        if start is None or end is None or _MONTH_BEFORE.search(folded, 0, m.start()):
            continue  # not '12 – 3 pm' of 'Nov 12 – 3 pm': that 12 is a day
        if (start, int(m["minute"] or 0)) > (end, int(m["end_minute"] or 0)):  # '11:30-1 pm' starts in the morning
            start = (start + 12) % 24
        spans[m.start()] = start
        if (start, int(m["minute"] or 0)) == (hour, minute):
            return True
    for m in _CLOCK.finditer(folded):
        if m["half"] is None and m.start() in spans:
            continue  # '3:00' of '3:00-4:30 pm' is 15:00 only
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
    if half.endswith("night"):  # '11 at night', '12 at night' (midnight), '2 at night'
        return hour % 12 + (12 if 6 <= hour < 12 else 0)
    return hour % 12 + (12 if half.startswith("p") or half.endswith(("afternoon", "evening")) else 0)


def _phrase_stated(value: str, text: str) -> bool:
    if _DIGIT_GROUPS.fullmatch(value) and len(re.findall(r"\d", value)) >= 7:
        return _digits_stated(re.sub(r"\D", "", value), text)
    phrase = _loose(value)
    if not phrase:
        return True
    if phrase == "not any":  # NOTHING's 'not any', said with a verb too: "there aren't any", "I couldn't find any"
        return _NONE_SAID.search(_loose(text)) is not None
    # a sentence's own full stop may be left out where a quote of it ends ('posted "Writing it up now" in
    # #eng' states 'Writing it up now.'), but not for another stop ('Writing it up now!' is another text)
    stop = phrase.endswith(".") and len(phrase) > 1 and phrase[-2] not in ".!?"
    words = r"\s+".join(_plural(w) for w in (phrase[:-1] if stop else phrase).split(" "))
    if stop:
        words += r"(?:\.|(?![\w&!?.]))"
    # brackets in the answer are optional only for a fact without any ('Primer (1 gal)' states
    # 'Primer, 1 gal'; 'Spare printer (spare)' is matched with its own)
    said = _loose(text, brackets="(" not in value and ")" not in value)
    # not the T of 'AT&T', nor a word said as not so ('not engaged' states no 'engaged')
    negated = "" if re.match(r"not\b|\w+n['’]t\b", phrase) else r"(?<!\bnot )(?<!n't )(?<!n’t )"
    if re.search(rf"(?<![\w&]){negated}{words}(?![\w&])", said) is not None:
        return True
    return not stop and _listed(phrase.split(" "), _fold(text), negated)


# one item of a list said in words: one or two words, none of them 'and', 'or' or 'the' (a list that
# shares its noun after it says 'the' before the whole list: 'the living room and office blinds';
# 'the budget, and the quarterly review' is two things); before a shared noun an item may take 'the'
_BARE_ITEM = r"(?!(?:and|or|the)\b)[\w'’-]+(?:\s+(?!(?:and|or|the)\b)[\w'’-]+)?"
_ITEM = rf"(?:the\s+)?{_BARE_ITEM}"
_AND = r"\s*,?\s+(?:and|or|&)\s+"
_PLACES = ("in", "on", "at", "by", "near", "inside", "outside")


def _listed(words: list[str], said: str, negated: str) -> bool:
    """Whether `said` names the phrase of these words as one item of a list that shares the rest of
    it: its last words after the list ('the living room, master bedroom and office blinds' names
    'master bedroom blinds'; 'the lamp and the blinds in the office' names 'lamp in the office') or
    its first words before it ('the blinds in the living room and the office' names 'blinds in the
    office'). An item is a whole item, between commas, 'and' or 'or' ('the living room lamp and office
    blinds' names no 'living room blinds')."""
    if len(words) < 2 or ("," not in said and not re.search(r"\s(?:and|or|&)\s", said)):
        return False
    for cut in range(1, len(words)):
        head, tail = (r"\s+".join(_plural(w) for w in part) for part in (words[:cut], words[cut:]))
        bare_head = r"\s+".join(map(re.escape, words[:cut]))
        # before a shared place ('in the living room') each item may take 'the': 'the ceiling light
        # and the blinds in the living room'
        item = _ITEM if words[cut] in _PLACES else _BARE_ITEM
        shared_after = (rf"(?<![\w&]){negated}{bare_head}(?:\s*,\s*{item})*{_AND}{item}\s+{tail}"
                        r"(?![\w&])")
        shared_before = (rf"(?<![\w&]){negated}{head}\s+(?:{_ITEM}\s*,\s*)*(?:{_ITEM}{_AND})?(?:the\s+)?"
                         rf"{tail}(?=\s*(?:,|and\b|or\b|&|[.;:!?)]|$))")
        if re.search(shared_after, said) or re.search(shared_before, said):
            return True
    return False


def _plural(word: str) -> str:
    """A word of a text fact as matched: a word of three letters or more also in the plural
    ('4 Motion sensor floodlights', '2 Angled brushes 2.5 in', 'two berries'), and a word joined
    by hyphens in the plural of its last part ('4 Oscillating multi-tools', '3 check-ins')."""
    head, hyphen, tail = word.rpartition("-")
    compound = bool(hyphen) and re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)*", head) is not None and tail.isalpha()
    if compound:
        return re.escape(head + hyphen) + _plural(tail) if len(tail) >= 3 else re.escape(word) + "s?"
    if not word.isalpha() or len(word) < 3:
        return re.escape(word)
    if word[-1] == "y" and word[-2] not in "aeiou":
        return re.escape(word[:-1]) + "(?:y|ies)"
    return re.escape(word) + "(?:e?s)?"


def _loose(text: str, brackets: bool = False) -> str:
    """A phrase as matched: folded, with a comma before a space (or at the end) read as a space,
    and with `brackets`, round brackets around words too ('Primer, 1 gal' is stated by 'Primer 1
    gal' and 'Primer (1 gal)'; '1,238' keeps its comma, 'ready()' its brackets)."""
    return _fold(re.sub(r",(?=\s|$)|\((?=\w)|(?<=\w)\)" if brackets else r",(?=\s|$)", " ", text))


def _digits_stated(digits: str, text: str) -> bool:
    """Whether `text` writes these digits as one number in groups, joined by spaces, dashes, points or
    nothing, from the start of a group to its end ('241-208-1991' and '+1 241.208.1991' state
    '(241) 208-1991'; '1241-208-1991' does not)."""
    for run in _DIGIT_RUN.finditer(text):
        groups = re.findall(r"\d+", run.group(0))
        for i in range(len(groups)):
            said = ""
            for group in groups[i:]:
                said += group
                if said == digits:
                    return True
                if len(said) >= len(digits):
                    break
    return False


def _fold(text: str) -> str:
    return _SPACE.sub(" ", text.replace("_", " ")).strip().casefold()


# -- measures -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Unit:
    name: str
    kind: str
    scale: float  # one of this unit in the kind's base unit
    offset: float = 0.0  # added after scaling (temperatures)
    written: str = ""  # how an answer writes it after the number (' km', '%')


_UNITS = {u.name: u for u in (
    _Unit("km", "length", 1000.0, written=" km"), _Unit("m", "length", 1.0, written=" m"),
    _Unit("mi", "length", 1609.344, written=" mi"), _Unit("ft", "length", 0.3048, written=" ft"),
    _Unit("s", "time", 1.0, written=" s"), _Unit("min", "time", 60.0, written=" min"),
    _Unit("h", "time", 3600.0, written=" h"), _Unit("d", "time", 86400.0, written=" days"),
    _Unit("mph", "speed", 1.609344, written=" mph"), _Unit("km/h", "speed", 1.0, written=" km/h"),
    _Unit("F", "temperature", 5 / 9, -32 * 5 / 9, written="°F"), _Unit("C", "temperature", 1.0, written="°C"),
    _Unit("psi", "pressure", 6.894757, written=" psi"), _Unit("kPa", "pressure", 1.0, written=" kPa"),
    _Unit("bar", "pressure", 100.0, written=" bar"),
    _Unit("kWh", "energy", 1000.0, written=" kWh"), _Unit("Wh", "energy", 1.0, written=" Wh"),
    _Unit("%", "share", 1.0, written="%"),
    _Unit("L", "volume", 1.0, written=" litres"), _Unit("gal", "volume", 3.785411784, written=" gallons"),
    _Unit("B", "size", 1.0, written=" bytes"), _Unit("KB", "size", 1e3, written=" KB"),
    _Unit("MB", "size", 1e6, written=" MB"), _Unit("GB", "size", 1e9, written=" GB"),
    _Unit("KiB", "size", 1024.0, written=" KiB"), _Unit("MiB", "size", 1024.0 ** 2, written=" MiB"),
    _Unit("USD", "money", 1.0, written=" USD"), _Unit("cents", "money", 0.01, written=" cents"),
)}
# The words that name a unit after a number (lower case; 'm' is a metre or a minute: the kind decides).
_SPELLED = {
    "km": ("km", "kms", "kilometer", "kilometers", "kilometre", "kilometres"),
    "m": ("m", "meter", "meters", "metre", "metres"), "mi": ("mi", "mile", "miles"),
    "ft": ("ft", "foot", "feet"),
    "s": ("s", "sec", "secs", "second", "seconds"), "min": ("m", "min", "mins", "minute", "minutes"),
    "h": ("h", "hr", "hrs", "hour", "hours"), "d": ("d", "day", "days"),
    "mph": ("mph", "miles per hour", "miles an hour"), "km/h": ("km/h", "kph", "kmh", "kilometers per hour",
                                                               "kilometres per hour"),
    "F": ("f", "°f", "° f", "ºf", "degrees f", "degrees fahrenheit", "fahrenheit", "°", "degrees"),
    "C": ("c", "°c", "° c", "ºc", "degrees c", "degrees celsius", "celsius", "°", "degrees"),
    "psi": ("psi",), "kPa": ("kpa",), "bar": ("bar",),
    "kWh": ("kwh", "kilowatt-hours", "kilowatt hours", "kilowatt-hour", "kilowatt hour"), "Wh": ("wh", "watt-hours"),
    "%": ("%", "percent", "per cent", "pct"),
    "L": ("l", "liter", "liters", "litre", "litres"), "gal": ("gal", "gallon", "gallons"),
    "B": ("b", "byte", "bytes"), "KB": ("kb", "kilobytes"), "MB": ("mb", "megabytes"), "GB": ("gb", "gigabytes"),
    "KiB": ("kib",), "MiB": ("mib",),
    "USD": ("usd", "dollars", "dollar", "bucks"), "cents": ("cents", "cent", "¢"),
}
_UNIT_WORDS = sorted({w for words in _SPELLED.values() for w in words}, key=len, reverse=True)
_MEASURE = re.compile(
    r"(?<![\w.,])(?P<sign>-|minus\s)?(?P<dollar>\$)?(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?![\d,]\d|\.\d|[-_/:]\d)"
    r"(?:\s?(?P<unit>" + "|".join(re.escape(w) for w in _UNIT_WORDS) + r")(?![a-z0-9]))?")
# A measure said in words before its unit ('one minute', 'a minute', 'an hour', 'two miles'): read
# as digits; not a half or a part of one ('half an hour', 'a quarter of an hour').
_WORDED = re.compile(
    r"(?<![\w-])(?<!\bhalf )(?<!\bof )(?P<word>an?|" + "|".join(_WORD_NUMBERS) + r")\s+(?=(?:"
    + "|".join(re.escape(w) for w in _UNIT_WORDS if len(w) > 1 and w.replace(" ", "").isalpha())
    + r")(?![a-z0-9]))")


# Parts of an hour said in words ('half an hour', 'a quarter of an hour', 'an hour and a half', 'two and
# a half hours'), as the minutes they are: exactly so many, no rounding read into them.
_HOUR_PARTS = re.compile(
    r"(?<![\w-])(?:(?P<half>half an hour|half-an-hour)|(?:a )?(?P<quarter>quarter of an hour|quarter-hour|quarter hour)"
    r"|(?P<three>three quarters of an hour)|(?P<whole>an?|one|" + "|".join(w for w in _WORD_NUMBERS if w not in ("zero", "one"))
    + r"|\d{1,2})(?: hours? and a half| and a half hours?))(?![\w-])", re.I)


def _in_minutes(m: re.Match[str]) -> str:
    if m["half"]:
        return "30 minutes"
    if m["quarter"]:
        return "15 minutes"
    if m["three"]:
        return "45 minutes"
    whole = m["whole"].lower()
    hours = int(whole) if whole.isdigit() else _WORD_NUMBERS.get(whole, 1)
    return f"{hours * 60 + 30} minutes"


def _worded(text: str) -> str:
    """`text` with the measures said in words written in digits."""
    return _WORDED.sub(lambda m: f"{_WORD_NUMBERS.get(m['word'], 1)} ", _HOUR_PARTS.sub(_in_minutes, text))


# The parts of a duration said in parts: '1 h 35 min', '1 hour and 35 minutes', '2 days, 3 hours'.
_JOIN = re.compile(r"\s*(?:,\s*)?(?:and\s+)?$")


def _decimals(number: float) -> int:
    """The decimal places a recorded number carries (its precision): 1.238 -> 3, 12 -> 0."""
    text = repr(float(number)) if isinstance(number, float) else str(number)
    if "e" in text or "E" in text:
        return 6
    return len(text.split(".")[1].rstrip("0")) if "." in text else 0


def _steps(digits: str) -> tuple[float, ...]:
    """The rounding steps a written number may have: '1.24' -> 0.01, '7' -> 1, '1,200' -> 1, 10 or
    100 (exact, or rounded to the ten or the hundred: '500 m' is 498 m to two significant digits)."""
    digits = digits.replace(",", "")
    if "." in digits:
        return (10.0 ** -len(digits.split(".")[1]),)
    whole = digits.lstrip("0")
    zeros = len(whole) - len(whole.rstrip("0")) if whole else 0
    return tuple(10.0 ** k for k in range(zeros + 1))


def _base(value: float, unit: _Unit) -> float:
    return value * unit.scale + unit.offset


def _quantity_stated(value: float, unit: _Unit, decimals: int, text: str) -> bool:
    """Whether `text` states `value` `unit` (recorded to `decimals` places) in any unit of its kind."""
    truth, step = _truth(value, unit, decimals)
    return any(_agrees(said, truth, step) for _, said in _measures(_measured(text), unit))


def _truth(value: float, unit: _Unit, decimals: int) -> tuple[float, float]:
    """A recorded measure in its kind's base unit, with its own rounding (`decimals` places)."""
    return _base(value if unit.offset else abs(value), unit), 10.0 ** -decimals * unit.scale


def _measured(text: str) -> str:
    """`text` as its measures are read: folded, ids and times blanked, thousands and words in digits."""
    return _worded(_NOT_NUMBERS.sub(" at ", _unscaled(_fold(text))))


def _quantity_hedged(fact: dict[str, Any], text: str, others: Sequence[Any],
                     shown: frozenset[float] = frozenset()) -> bool:
    """Whether `text` offers rivals for a measure: two other measures of its kind near the one that
    states it (within two of the steps it is stated to, one of them above: '94, 95, 96 minutes',
    '1.2, 1.3 or 1.4 km'), one joined to it by 'or', 'to' or a dash ('95 or 96 minutes', '1.2-1.4
    km'), or a run of bare numbers that holds it among two others ('60, 95, 130 minutes'). What
    agrees with another of the task's measures, or writes another of its numbers or a number of the
    listings they come from (`shown`), is no rival."""
    unit = _UNITS[fact["unit"]]
    truth, step = _truth(float(fact["quantity"]), unit, fact.get("places", _decimals(fact["quantity"])))
    measures = [m for other in others for m in (other.get("one_of", [other]) if isinstance(other, dict) else ())]
    known = [_truth(float(m["quantity"]), _UNITS[m["unit"]], m.get("places", _decimals(m["quantity"])))
             for m in measures if isinstance(m, dict) and "quantity" in m and _UNITS[m["unit"]].kind == unit.kind]
    numbers = ({_as_number(v) for other in others for v in values(other)} - {None}) | shown
    measured = _measured(text)
    said: dict[int, list[_Said]] = {}
    for at, reading in _measures(measured, unit):
        said.setdefault(at, []).append(reading)

    def right(readings: list[_Said]) -> bool:
        return any(_agrees(r, truth, step) for r in readings)

    def rival(readings: list[_Said]) -> bool:  # neither this measure nor another fact's measure or number
        return not right(readings) and not any(_agrees(r, t, s) for r in readings for t, s in known) \
            and not any(abs(r.written - n) < 0.005 for r in readings for n in numbers)

    stating = [r.step for readings in said.values() for r in readings if _agrees(r, truth, step)]
    if not stating:
        return False
    near = max(min(stating), step) * 2 * (1 + 1e-9)
    close = [min(r.value for r in readings) - truth for readings in said.values()
             if rival(readings) and min(abs(r.value - truth) for r in readings) <= near]
    if len(close) >= 2 and max(close) > 0:
        return True
    for m in _JOINED.finditer(measured):
        a, b = (m.start("a"), m.start("b")) if m["a"] else (m.start("low"), m.start("high"))
        if a in said and b in said and (right(said[a]) and rival(said[b]) or right(said[b]) and rival(said[a])):
            return True
    for run in _RUN.finditer(measured):
        spots = [run.start() + m.start() for m in _BARE_NUMBER.finditer(run[0])]
        readings = [said[at] for at in spots if at in said]
        if any(map(right, readings)) and sum(map(rival, readings)) >= 2:
            return True
    return False


@dataclass(frozen=True)
class _Said:
    value: float  # in base units
    step: float  # its rounding, in base units
    written: float  # the number as written, in its own unit
    written_step: float


def _agrees(said: _Said, truth: float, step: float) -> bool:
    """Whether a number said is the recorded one rounded as a person rounds it: both roundings
    overlap, and the said one keeps two significant digits at least (or all the recorded one has)."""
    off, tolerance = abs(said.value - truth), 1e-9 * max(1.0, abs(truth))
    if off <= tolerance:
        return True
    if off >= (said.step + step) / 2 - tolerance:
        return False
    if said.step <= step * (1 + 1e-9) or said.written == 0:
        return True
    return said.written_step <= 10.0 ** (math.floor(math.log10(abs(said.written))) - 1) * (1 + 1e-9)


def _unit_named(word: str | None, unit: _Unit) -> _Unit | None:
    """The unit of `unit`'s kind a word after a number names (a bare number: `unit` itself)."""
    if word is None:
        return unit
    named = [_UNITS[name] for name, words in _SPELLED.items() if word in words and _UNITS[name].kind == unit.kind]
    return unit if unit in named else (named[0] if named else None)


def _measures(text: str, unit: _Unit) -> Iterator[tuple[int, _Said]]:
    """The numbers of a folded text that may measure something of `unit`'s kind, each with where it
    starts: written with a unit of that kind, or bare (taken in `unit`); the parts of a duration said
    in parts are added up (their sum starts where the first part does)."""
    parts: list[tuple[float, float, int, int]] = []  # a duration said in parts so far: value, unit scale, end, start
    for m in _MEASURE.finditer(text):
        number = float(m["number"].replace(",", ""))
        if m["sign"] and unit.offset:
            number = -number
        found = (_UNITS["USD"] if unit.kind == "money" else None) if m["dollar"] else _unit_named(m["unit"], unit)
        if found is None:
            parts = []
            continue
        said = _base(number, found)
        steps = _steps(m["number"])
        yield from ((m.start(), _Said(said, step * found.scale, number, step)) for step in steps)
        if unit.kind != "time" or m["unit"] is None:
            parts = []
        elif parts and found.scale < parts[-1][1] and _JOIN.fullmatch(text[parts[-1][2]:m.start()]):
            parts.append((said, found.scale, m.end(), parts[0][3]))  # '1 h 35 min': 95 minutes, to the minute
            total = sum(p[0] for p in parts)
            yield parts[0][3], _Said(total, steps[0] * found.scale, total / found.scale, steps[0])
        else:
            parts = [(said, found.scale, m.end(), m.start())]
