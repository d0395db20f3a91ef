"""Facts are matched as facts: the outcome check of read-only tasks (`prove_env.facts`)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from prove_env.facts import facts_stated, one_of, quantity, say, stated, values

STATED = [
    (12, "You have 12 events."), (12, "12.00"), (1548.38, "$1,548.38"), (1548.38, "1548.38 USD"),
    (-45.2, "-$45.20"), (-45.2, "45.20 spent"), (0.1, "0.1 km"), (3, "3."), (7, "(7)"),
    ("10", "10 files"), ("244.10", "2026-10-31,dining,244.10,single"), ("159,3975", "cells 159,3975"), (31.2, "31.2K\t/home/megan"), (4, "4G"), ("T", "Ticker T is up"), ("in_progress", "it is in progress"),
    ("Weekly sync", "the weekly  SYNC meeting"), ("Primer, 1 gal", "Primer (1 gal) and LED work light"),
    ("Primer, 1 gal", "primer 1 gal"), (219.3333, "mean about 219.3"), (219.3333, "219.33"),
    ("Attendees: Ann, Bo,", "Attendees: Ann, Bo, Cy"), ("@jeremyg", "follows @jeremyg."), ("ORD-0104", "order ORD-0104"),
    ("01:30", "1:30 AM"), ("01:30", "01:30"), ("20:30", "8:30 PM"), ("20:30", "8:30 p.m."), ("20:30", "8:30pm"),
    ("20:30", "20:30"), ("12:00", "noon"), ("00:00", "midnight"), ("14:00", "2 pm"), ("00:30", "12:30 am"),
    ("2026-10-29", "2026-10-29"), ("2026-10-29", "October 29, 2026"), ("2026-10-29", "Oct 29"),
    ("2026-10-29", "29 October"), ("2026-10-29", "10/29/2026"), ("2026-10-29", "10/29"), ("2026-09-15", "Sept. 15th"),
    ("2026-09-15T14:30", "Sep 15th at 2:30pm"), ("2026-09-15T14:30", "2026-09-15T14:30"),
    ("2026-09-15T14:30", "Sept. 15, Tuesday, at 2:30 PM."),
    (1, "Just one: the Benefits enrollment Q&A."), (2, "There are two meetings."), (2, "Two of them are open."),
    (0, "You have zero pending invitations."), (12, "twelve files"), (1, "There's only a single message in it."),
    ("206 3063 7671", "number 206-3063-7671"), ("206 3063 7671", "20630637671, passcode 154372"),
    ("(241) 208-1991", "call 241.208.1991"), ("(241) 208-1991", "+1 241 208 1991"), ("1 800 555 0100", "1-800-555-0100"),
    (True, "anything"),
    ("Motion sensor floodlight", "4 Motion sensor floodlights"), ("Angled brush 2.5 in", "4 Angled brushes 2.5 in"),
    ("Strawberry smoothie", "two strawberry smoothies"), ("Mixed berry", "3 mixed berries"),
    ("not started", "it has not started yet"), ("engaged", "the brake is engaged, not released"),
]

NOT_STATED = [
    (12, "2025-12-07"), (21, "ACC-0021"), (14, "14:30"), (10, "ORD-0104"), (10, "104 items"), (1548.38, "1,548.4"),
    (3, "3.5 stars"), (5, "NOVA-5"), (7, "7/12/2026"), (12, "seat 12F"), (2, "at 2 pm"),
    ("10", "ORD-0104"), ("T", "the stock"), ("T", "qzAT&T"), ("Weekly sync", "weekly synchronisation"), ("Primer, 1 gal", "Primer 2 gal"), (219.3333, "219.4"), (0.1234, "0.1"),
    ("addEventListener('DOMContentLoaded', ()", "addEventListener('DOMContentLoaded', ()qz"),
    ("Spare printer (spare)", "Spare printer (spare)qz"),
    ("active", "inactive"), ("open", "reopened"), ("in", "ins"), ("Pipe wrench 14 in", "Pipe wrenches 14 inches"),
    ("engaged", "the parking brake is not engaged"), ("pressed", "the pedal isn't pressed"),
    ("pressed", "the pedal isn’t pressed"),
    (45.2, "45.0"),
    ("01:30", "13:30"), ("20:30", "8:30"), ("20:30", "8:30 am"), ("14:00", "2 am"),
    ("2026-10-29", "October 29, 2019"), ("2026-10-29", "10/29/2019"), ("2026-10-29", "October 28"),
    ("2026-09-15T14:30", "Sep 15th at 3:30pm"), ("2026-09-15T14:30", "2:30pm"),
    ("2026-09-15T14:30", "Sep 15 at 9:00 AM; Sep 16 at 2:30 PM"),  # the date and the time of two items
    (1, "No one is free."), (1, "Only the one at noon."), (1, "one of them is yours"), (3, "a three-way call"),
    (1, "Pick any one you like."), (13, "thirteen"), (1, "Not a single reply."),
    ("206 3063 7671", "1206 3063 7671"), ("206 3063 7671", "206 3063 76712"), ("206 3063 7671", "206 3063"),
    ("(241) 208-1991", "(241) 208-1992"), ("(241) 208-1991", "12412081991"), ("(241) 208-1991", "(241) 208-1991qz"),
    ("(241) 208-1991", "x241-208-1991"),
]


@pytest.mark.parametrize(("fact", "text"), STATED)
def test_a_fact_in_any_usual_form_is_stated(fact, text):
    assert stated(fact, text)


@pytest.mark.parametrize(("fact", "text"), NOT_STATED)
def test_a_fact_is_not_found_inside_something_else(fact, text):
    assert not stated(fact, text)


def test_every_fact_of_every_turn_must_be_stated():
    assert facts_stated([[3], ["2026-10-29"]], ["3 events", "on October 29"])
    assert not facts_stated([[3], ["2026-10-29"]], ["3 events on 2026-10-30"])
    assert facts_stated(None, []) is None


# -- measures with their unit, and questions with more than one right answer ------------------------

KM = quantity(1.238, "km")
CHANGE = one_of(quantity(-0.96, "USD"), quantity(-2.1, "%"))

MEASURES_STATED = [
    (KM, "1.2 km"), (KM, "1.24 km"), (KM, "1,238 m"), (KM, "0.77 mi"), (KM, "4,062 ft"), (KM, "1,200 m"),
    (KM, "1.238"),  # a bare number is in the fact's own unit
    (quantity(0.1, "km"), "127 m"), (quantity(0.1, "km"), "0.06 mi"),
    (quantity(1.0, "km", places=1), "1 km"), (quantity(1.0, "km", places=1), "1.04 km"),
    (quantity(0.0, "km", places=1), "0 m"), (quantity(0.0, "km", places=1), "0 km"),
    (quantity(95, "min"), "95 minutes"), (quantity(95, "min"), "1 h 35 min"),
    (quantity(95, "min"), "1 hour and 35 minutes"), (quantity(95, "min"), "1.6 hours"), (quantity(12, "min"), "12m"),
    (quantity(12, "min"), "720 seconds"), (quantity(68, "F"), "68°F"), (quantity(68, "F"), "20°C"),
    (quantity(-5, "F"), "-5°F"), (quantity(-5, "F"), "-21 degrees Celsius"), (quantity(4.0, "mi"), "6.4 km"),
    (quantity(315, "B"), "0.31 KB"),
    # two significant digits whose rounding ends in a zero: 498 m is 500 m, 1,996 m is 2,000 m, 96 min 100 minutes
    (quantity(498, "m"), "about 500 m"), (quantity(1996, "m"), "2,000 m"), (quantity(96, "min"), "100 minutes"),
    (CHANGE, "down $0.96"), (CHANGE, "down 96 cents"), (CHANGE, "down 2.1%"), (CHANGE, "fell 2.1 percent"),
    (one_of("preparing", "being prepared"), "it is being prepared"),
]

MEASURES_NOT_STATED = [
    (KM, "1 km"), (KM, "0.8 mi"), (KM, "1.3 km"), (KM, "1,300 m"), (KM, "12 minutes"), (KM, "1.238 miles"),
    (quantity(0.1, "km"), "160 m"), (quantity(1.0, "km", places=1), "1.4 km"), (quantity(0.0, "km", places=1), "60 m"),
    (quantity(95, "min"), "2 hours"), (quantity(95, "min"), "about 1.5 hours"), (quantity(12, "min"), "12 km"),
    (quantity(83, "m"), "80 m"), (quantity(1238, "m"), "1,000 m"), (quantity(498, "m"), "0.5 km"),
    (quantity(68, "F"), "70°F"), (quantity(-5, "F"), "5°F"), (quantity(315, "B"), "0.3 KB"),
    (CHANGE, "down $1"), (CHANGE, "down 2%"), (CHANGE, "2.1 km"),
    (one_of("preparing", "being prepared"), "it was delivered"),
]


@pytest.mark.parametrize(("fact", "text"), MEASURES_STATED)
def test_a_measure_is_stated_in_any_usual_unit_and_rounding(fact, text):
    assert stated(fact, text)


@pytest.mark.parametrize(("fact", "text"), MEASURES_NOT_STATED)
def test_a_measure_rounded_too_far_or_in_another_kind_of_unit_is_not_stated(fact, text):
    assert not stated(fact, text)


def test_structured_facts_are_json_and_the_reference_answer_states_them():
    facts = [KM, CHANGE, quantity(12, "min"), quantity(1.0, "km", places=1), 3, "Weekly sync"]
    assert json.loads(json.dumps(facts)) == facts
    assert facts_stated([facts], [say(facts)])
    assert values(CHANGE) == [-0.96, -2.1] and values(KM) == [1.238] and values("x") == ["x"]
    with pytest.raises(ValueError, match="unknown unit"):
        quantity(3, "furlongs")


# -- an answer that offers rivals is a guess, not a statement ---------------------------------------

HEDGED = [
    (5, "0 1 2 3 4 5 6 7 8"), (5, "4, 5, 6"), (5, "It is 3, 5 or 7."), (5, "5 or 6"), (6, "5 or 6"),
    (2, "one or two"), (5, "four to six, maybe 5"), (45.2, "$45.19, $45.20 or $45.21"), (45.0, "$44.99 $45.00 $45.01"), (45.0, "$44 $45 $46"), (0, "0, 1 or 2 of them"),
    ("2026-10-29", "Oct 28, Oct 29, Oct 30"), ("2026-10-29", "October 29, or October 30, or October 31"),
    ("2026-10-29", "10/27/2026, 10/29/2026, 10/30/2026"), ("12", "11 12 13"),
    (one_of(0, "none"), "0, 1, 2"),
    (4, "3-4"), (4, "3 - 4 of them"), (45.0, "$40–$45"),  # a range
    (7, "1, 4, 7, 10, 13"), (7, "0 3 7 11 15"), (9, "three, six or nine"), (40.0, "$12.50, $40.00, $7.25"),
    (12, "12 / 24 / 36"),  # a run of bare numbers that tells none apart
    ("2026-10-29", "Oct 23, Oct 26, Oct 29, Nov 1"), ("2026-10-29", "Thu Oct 29, Sun Nov 1, Wed Nov 4"),
    ("2026-10-29", "10/23, 10/26, 10/29"), ("14:30", "1:30 pm, 2:30 pm, 3:30 pm"), ("12:00", "11 am, noon, 1 pm"),
    ("2026-10-29T14:30", "Oct 29 at 1:30 pm; Oct 29 at 2:30 pm; Oct 29 at 3:30 pm"),  # a run of days or times
]

NOT_HEDGED = [
    (3, "3 events: 2 meetings and 1 call."),  # a breakdown is below its total
    (5, "5 tickets: 3 open, 2 closed, 10 in total this year"),
    (2, "2 meetings, at 3 pm and 4 pm"),  # hours of the clock are no numbers
    (8, "0 1 2 3 4 5 6 7 8"),  # a list that ends at the fact guesses no more than the fact alone
    (3, "Reply to 3 people"), (5, "5 accounts, 4 of them active, 9 followers"),
    ("2026-10-29", "Due October 29; issued October 27."),
    (4, "one, two, three, four"), (4, "1, 2, 3, 4"),  # counting up to the fact
    (3, "ACC-1: 3, ACC-2: 5, ACC-3: 7"), (5, "Oct 28 5, Oct 29 8, Oct 30 2"),  # ids and days tell numbers apart
    (12.5, "Total $12.50 ($5.00 + $7.50)"), (1, "won 3-1"), (8, "Call 555-1234-5678; 8 missed calls"),
    ("14:30", "Standup 9:00 am, Review 2:30 pm, 1:1 4:00 pm"),  # titles tell the times apart
]


@pytest.mark.parametrize(("fact", "text"), HEDGED)
def test_a_fact_among_its_rivals_is_a_guess_not_a_statement(fact, text):
    assert stated(fact, text) and not facts_stated([[fact]], [text])


@pytest.mark.parametrize(("fact", "text"), NOT_HEDGED)
def test_other_numbers_near_a_fact_are_no_guess_when_they_tell_something_else(fact, text):
    assert facts_stated([[fact]], [text])


MINUTES, DOLLARS = quantity(95, "min"), quantity(45.2, "USD", places=2)


@pytest.mark.parametrize(("fact", "text"), [
    (MINUTES, "94, 95, 96 minutes"), (MINUTES, "95 or 96 min"), (MINUTES, "94-95 min"),
    (MINUTES, "60, 95, 130 minutes"), (quantity(1.238, "km"), "1.2 km, 1.3 km or 1.4 km"),
    (DOLLARS, "$45.19, $45.20, $45.21"), (DOLLARS, "$40, $45.20, $50"), (quantity(68, "F"), "19°C, 20°C or 21°C"),
    (quantity(3, "%"), "3%, 4%, 5%"),
])
def test_a_measure_among_its_rivals_is_a_guess(fact, text):
    """A measure said beside two others near it, joined to another by 'or' or a dash, or in a run of
    bare numbers, is a guess as a number is."""
    assert stated(fact, text) and not facts_stated([[fact]], [text])


@pytest.mark.parametrize(("fact", "text"), [
    (MINUTES, "1 h 35 min, or about 2 hours"), (MINUTES, "95 min (1 h 35 min)"),
    (quantity(1.238, "km"), "Costco 1.2 km, Walmart 2 km, Target 3 km"),  # far apart at the fact's rounding
    (DOLLARS, "$45.20 ($40 + $5.20)"), (quantity(12, "min"), "12 minutes; 10-15 min usually"),
])
def test_other_measures_beside_a_measure_are_no_guess_when_they_tell_something_else(fact, text):
    assert facts_stated([[fact]], [text])


def test_the_tasks_names_tell_the_numbers_of_a_run_apart():
    facts = [["Pizza Palace", "Thai Garden", "Sushi Bar", 3]]
    assert facts_stated(facts, ["Pizza Palace 3, Thai Garden 5, Sushi Bar 7"])
    assert not facts_stated(facts, ["Pizza Palace, Thai Garden, Sushi Bar: 3, 5, 7"])


def test_another_facts_measure_is_no_rival():
    facts = [[quantity(94, "min"), quantity(95, "min"), quantity(96, "min")]]
    assert facts_stated(facts, ["94, 95, 96 minutes"])
    assert not facts_stated([[quantity(95, "min"), quantity(96, "min")]], ["94, 95, 96, 97 minutes"])
    # a rating and a count beside a duration (maps, seed 5): the task's own numbers
    assert facts_stated([[4.3, 1396, quantity(3, "min")]], ["Here is what I found: 4.30; 1396; 3 min."])


def test_a_listing_asked_for_may_give_a_few_more():
    """'The first few free times' checked by the first three: a listing of five is what was asked,
    with two more; one that holds as many others as the task's facts, or more, is a guess."""
    first = [["2026-10-29T09:00", "2026-10-29T14:00", "2026-10-30T10:00"]]
    listed = "Oct 29 at 9:00 am, Oct 29 at 2:00 pm, Oct 30 at 10:00 am, Oct 30 at 3:00 pm, Oct 31 at 9:00 am"
    assert facts_stated(first, [listed])
    assert not facts_stated(first, [listed + ", Oct 31 at 1:00 pm"])
    # a fact of the task beside a run of guesses makes it no listing
    assert not facts_stated([["2026-04-11", "2026-02-25"]], ["4/11/2026; Feb 22, Feb 25, Feb 28, Mar 3"])


def test_the_tasks_own_facts_are_no_rivals():
    assert facts_stated([[3, 4, 5]], ["3; 4; 5"])
    assert facts_stated([["2026-10-28", "2026-10-29", "2026-10-30"]], ["Oct 28, Oct 29 and Oct 30"])
    assert not facts_stated([[4]], ["3; 4; 5"])
    assert facts_stated([[4, 5]], ["4 or 5"]) is False  # two facts offered as alternatives state neither


def test_the_digits_of_a_text_fact_are_no_rivals():
    """Free seats '1A, 1C, 2A, 2C' in one answer and '0' hotel bookings in another: no guess."""
    from prove_env.facts import NOTHING

    assert facts_stated([[NOTHING], ["New York trip", "1A", "1C", "2A", "2C"]],
                        ["0", "New York trip. Free seats: 1A, 1C, 2A, 2C."])
    assert facts_stated([[NOTHING]], ["0", "Seats 1A, 1C, 2A, 2C."])  # a seat is no number


STATUSES = [{"open", "in_progress", "blocked", "closed"}]


@pytest.mark.parametrize("text", ["open, in progress, blocked, closed", "It is in progress or blocked.",
                                  "in progress (or maybe closed)", "Either in progress, blocked or closed."])
def test_a_word_among_the_other_values_its_argument_takes_is_a_guess(text):
    assert stated("in_progress", text) and not facts_stated([["in_progress"]], [text], STATUSES)


@pytest.mark.parametrize("text", ["It is in progress.", "In progress, not closed.", "in progress; it was open"])
def test_a_word_with_one_other_value_beside_it_is_stated(text):
    assert facts_stated([["in_progress"]], [text], STATUSES)


def test_values_that_are_facts_of_the_task_are_no_rivals_of_a_word():
    assert facts_stated([["in_progress", "closed", "open"]], ["in progress; closed; open"], STATUSES)
    assert facts_stated([["in_progress"]], ["open, in progress, blocked, closed"])  # no choices given


def test_today_tomorrow_and_yesterday_state_the_day_they_name_in_the_world():
    import datetime as dt

    thursday = dt.date(2026, 7, 23)
    assert facts_stated([["2026-07-23T16:00"]], ["The Architecture Guild, today at 4 pm."], today=thursday)
    assert facts_stated([["2026-07-24"]], ["It arrives tomorrow."], today=thursday)
    assert facts_stated([["2026-07-22"]], ["Paid yesterday."], today=thursday)
    assert not facts_stated([["2026-07-23T16:00"]], ["today at 4 pm"], today=dt.date(2026, 7, 22))
    assert not facts_stated([["2026-07-23T16:00"]], ["today at 4 pm"])  # no day known: no reading
    assert not facts_stated([["2026-07-22"]], ["yesterday, today or tomorrow"], today=dt.date(2026, 7, 22))


def test_a_time_of_the_worlds_day_is_stated_by_the_time_alone():
    """'When should it arrive?' 'Around 1:53 PM.': said on that day, the time names the day too."""
    import datetime as dt

    day = dt.date(2026, 7, 23)
    assert facts_stated([["2026-07-23T13:53"]], ["It should arrive around 1:53 PM."], today=day)
    assert not facts_stated([["2026-07-24T13:53"]], ["It should arrive around 1:53 PM."], today=day)
    assert not facts_stated([["2026-07-23T13:53"]], ["It should arrive around 1:53 PM."])  # no day known
    assert not facts_stated([["2026-07-23T13:53"]], ["Around 2:53 PM."], today=day)
    assert not facts_stated([["2026-07-23T13:53"]], ["July 24 at 1:53 PM."], today=day)  # another day said
    assert not facts_stated([["2026-07-23T13:53"]], ["Friday, 1:53 PM."], today=day)


@pytest.mark.parametrize(("fact", "text"), [(1, "It came up just once."), (2, "twice so far")])
def test_once_and_twice_are_counts(fact, text):
    assert facts_stated([[fact]], [text])


@pytest.mark.parametrize("fact, text, expected", [
    (quantity(1, "min"), "Meadow Gardens is about a minute away on foot.", True),
    (quantity(1, "min"), "one minute", True),
    (quantity(60, "min"), "an hour", True),
    (quantity(2, "mi"), "two miles", True),
    (quantity(90, "min"), "one hour and 30 minutes", True),
    (quantity(12, "min"), "about a minute", False),
    (quantity(30, "min"), "runs half an hour", True),  # video_meeting, seed 143: a recording's length
    (quantity(15, "min"), "a quarter of an hour", True), (quantity(45, "min"), "three quarters of an hour", True),
    (quantity(90, "min"), "an hour and a half", True), (quantity(150, "min"), "two and a half hours", True),
    (quantity(0.5, "h"), "half an hour", True), (quantity(60, "min"), "half an hour", False),
    (quantity(32, "min"), "half an hour", False), (quantity(60, "min"), "an hour and a half", False),
    (quantity(60, "min"), "a quarter of an hour", False),
])
def test_a_measure_said_in_words_states_its_quantity(fact, text, expected):
    """'about a minute' on foot states 1 min; a half or a quarter of an hour is that part of an hour,
    exactly, and no hour."""
    assert stated(fact, text) is expected


@pytest.mark.parametrize("text", ["No problem, the account holds $1,250.", "Nothing went wrong; it holds $1,250.",
                                  "No worries! 3 of them.", "Feel free to ask. Nothing else to add: 2."])
def test_a_pleasantry_states_no_zero_nor_absence_nor_free_slot(text):
    """The general readings and those the servers give a zero of their own (a budget's, an account's
    cash, a realised profit, a loyalty tier, a free slot)."""
    from prove_env.facts import ABSENT, NOTHING
    from prove_env.servers.budget.synth import NO_AMOUNT as NO_SPENDING
    from prove_env.servers.trading.synth import NO_AMOUNT, NO_PNL
    from prove_env.servers.travel_booking.synth import _tier

    for fact in (NOTHING, ABSENT, NO_SPENDING, one_of(0.0, *NO_AMOUNT), one_of(0.0, *NO_PNL), _tier("none"),
                 one_of("free", "available", "no conflicts", "no conflict", 0)):
        assert not facts_stated([[fact]], [text]), (fact, text)


@pytest.mark.parametrize("text", ["You have no watchlists.", "None.", "No problems found: there are none.",
                                  "No worries: nothing is due.", "No problem. You have 0."])
def test_a_zero_said_beside_a_pleasantry_is_still_said(text):
    from prove_env.facts import NOTHING

    assert facts_stated([[NOTHING]], [text])


def test_the_day_of_a_date_said_with_its_month_is_no_number():
    """'until June 6' holds no 6 of its own: beside '2 to 3 business days' it is no rival of a $5
    discount, and it states no count of 6 (as '2026-06-06' states none)."""
    assert facts_stated([[5.0, 25.0]], ["Express takes 2 to 3 business days.",
                                        "$5 off beauty of $25 or more, until June 6, 2026."])
    assert not stated(6, "Valid until June 6.") and not stated(15, "It was on Sep 15th, 2026.")
    assert not stated(6, "the 6th of June") and stated(6, "6 items, until June 6")


def test_an_amount_said_in_thousands_or_millions_states_it():
    """'the support upgrade ($15k)' states a $15,000 deal, as '$15,000' does; '$1.2M' states 1,200,000.
    A bare 'K', 'M' or 'B' is read so only after a dollar sign: '4.0K' is a file's size, '12B' a seat
    and '15 m' a length; and '$15k' is no other amount ($15,200)."""
    assert all(stated(15000.0, t) for t in ("$15k", "$15K", "15k deal", "$15 thousand", "$15,000"))
    assert stated(1200000.0, "$1.2M") and stated(1200000, "1.2 million") and stated(545600.0, "$545.6k")
    assert not stated(15200.0, "$15k") and not stated(4000, "4.0K") and not stated(15000000, "15 m")
    assert stated(quantity(95000.0, "USD"), "about $95k") and facts_stated([[95000.0, 15000.0]], ["$95K and $15k"])
    assert not facts_stated([[15000.0]], ["$14k, $15k or $16k"])  # rivals in thousands are rivals


def test_a_choice_denied_is_no_rival():
    """'Has my lead been qualified yet?' of a new lead: 'Not yet: she is still a new lead; she hasn't been
    contacted or qualified' denies the other statuses, it does not offer them; naming them without a
    negation, or joined by 'or', is still a guess."""
    statuses = [("new", "contacted", "qualified", "disqualified", "converted")]
    for denial in ("Not yet: she is still a new lead; she hasn't been contacted or qualified.",
                   "No, it is still new. It has not been contacted, qualified or converted.",
                   "Still new: it was never contacted nor qualified."):
        assert facts_stated([["new"]], [denial], statuses), denial
    for guess in ("It is new, contacted or qualified.", "Probably new or contacted.",
                  "It's not clear: new, contacted or qualified.",
                  "It is new, not sure though, maybe contacted or qualified.",  # a doubt is no denial
                  "New? I don't know, contacted or qualified.", "New, not contacted, maybe qualified or converted."):
        assert not facts_stated([["new"]], [guess], statuses), guess


def test_a_sentence_quoted_without_its_full_stop_states_it():
    """A message quoted inside a sentence drops its own full stop ('posted "Writing it up now" in #eng', or
    logical quotation with the stop after the quote mark): still the message; another stop ('Writing it
    up now!', the text an edit made of it) is another text."""
    fact = "Found an issue with the data pipeline, writing it up now."
    for answer in ('April posted "Found an issue with the data pipeline, writing it up now" in #engineering.',
                   "April wrote \u201cFound an issue with the data pipeline, writing it up now\u201d.",
                   'She wrote: "Found an issue with the data pipeline, writing it up now."'):
        assert stated(fact, answer), answer
    assert not stated(fact, "She wrote: Found an issue with the data pipeline, writing it up now!")
    assert not stated("Deploy is done.", "Deploy is done?") and stated("Deploy is done.", "'Deploy is done', she said")


def test_a_month_named_column_over_a_number_is_no_date():
    """A table whose columns are named by month ('jan  jul' over '11  31') or printed a column a line
    ('jan: 11, 3, 9' over 'jul: 31, 32') holds no day: a date said with its month's name stands on
    one line, and a day is 1 to 31 ('jul 33' is none)."""
    assert facts_stated([["11"]], ["jan  jul\n11  31"])
    assert facts_stated([["9"]], ["jan: 11, 3, 5, 12, -3, 9\njul: 31, 32"])  # a column's cells: no guess
    assert not facts_stated([[9]], ["jan: 11, 3, 5, 12, -3, 9\njul: 31, 32"])  # a count among others
    assert stated(33, "apr 20, jul 33") and not stated(20, "apr 20, jul 33")
    assert not stated(11, "jul 11") and stated("2026-07-11", "Jul 11", dt.date(2026, 7, 1))
    assert stated(2, "2 may arrive late")  # 'may' after a number is no month


@pytest.mark.parametrize("fact, text, expected", [
    ("2026-11-12T15:00", "How about Thursday, November 12, 3:00-4:30 pm?", True),
    ("2026-11-12T15:00", "Thursday, November 12, 3-4:30 pm", True),
    ("2026-11-12T15:00", "Thursday, November 12 from 3 to 4:30 pm", True),
    ("2026-11-12T15:00", "Thursday, November 12, 3:00 – 4:30 PM", True),
    ("2026-11-12T15:00", "Thursday, November 12, 3:00 pm-4:30 pm", True),
    ("2026-11-12T11:30", "Thursday, November 12, 11:30-1 pm", True),  # the start before the end: morning
    ("2026-11-12T09:45", "Thursday, November 12, 9:45-11:15 am", True),
    ("2026-11-12T12:00", "Thursday, November 12, 12:00-1:30 pm", True),
    ("2026-11-12T03:00", "Thursday, November 12, 3:00-4:30 pm", False),  # the span's start is 15:00 only
    ("2026-11-12T15:00", "Thursday, November 12, 3:00-4:30 am", False),
    ("2026-11-12T11:30", "Thursday, November 12, 11:30-1 am", False),  # 11:30 pm to 1 am
    ("2026-11-12T16:30", "Thursday, November 12, 3:00-4:30 pm", True),  # the end, as before
    ("2026-11-12T12:00", "Thu Nov 12 – 3:00 pm: Standup", False),  # that 12 is the day
    ("2026-11-12T12:00", "2026-11-12 - 1 pm", False),
    ("2026-11-12T15:00", "11/12, 3-4 pm", True),
])
def test_a_span_with_am_or_pm_after_its_end_gives_its_start_the_same_half_of_the_day(fact, text, expected):
    """'3:00-4:30 pm' is how a slot is usually written: its start is 3 pm, not 3 am."""
    assert facts_stated([[fact]], [text]) is expected


def test_numbers_inside_a_text_fact_spaced_otherwise_are_no_rivals():
    """A count of 1 beside the matching line 'return [1, 2, 3]': the line's numbers are the line's own,
    however the answer spaces it."""
    facts = [[1, "return [1, 2, 3]"]]
    assert facts_stated(facts, ["1 line: return [1, 2, 3]"])
    assert facts_stated(facts, ["1; RETURN  [1,  2,  3]"])
    assert facts_stated(facts, ["1 match:\n    return [1,\n    2, 3]"])
    assert not facts_stated(facts, ["1 or 2; return [1, 2, 3]"])


@pytest.mark.parametrize("fact, text, expected", [
    (quantity(0.0, "mi"), "Costco Wholesale, right where your Camry is.", True),
    (quantity(0.0, "km"), "You're already there.", True),
    (quantity(0.0, "mi"), "It's in the same spot as your car.", True),
    (quantity(0.0, "mi"), "0.0 miles", True),
    (quantity(0.2, "mi"), "Costco Wholesale, right where your Camry is.", False),  # only a distance of nothing
    (quantity(0.0, "mi"), "It's a short drive away.", False),
])
def test_a_distance_of_nothing_is_stated_in_words_too(fact, text, expected):
    assert stated(fact, text) is expected


@pytest.mark.parametrize("text, expected", [
    ("There aren't any.", True), ("You haven't got any watchlists.", True), ("I couldn't find any.", True),
    ("You wouldn't get any money back.", True), ("You won't get anything back.", True), ("There are not any.", True),
    ("I'm not sure if any exist.", False), ("Not sure any are left.", False), ("I don't know any.", False),
    ("You have 3 of them.", False),
])
def test_nothing_is_stated_by_a_negated_verb_before_any(text, expected):
    """"There aren't any" and "I couldn't find any" say nothing is there, as "not any" does; a doubt does not."""
    from prove_env.facts import NOTHING

    assert facts_stated([[NOTHING]], [text]) is expected


@pytest.mark.parametrize("fact, text, expected", [
    ("Oscillating multi-tool", "4 Oscillating multi-tools", True),  # the last part of the compound
    ("Check-in", "2 check-ins left", True),
    ("Storage tote 27 gal", "5 Storage totes 27 gal", True),
    ("Oscillating multi-tool", "Oscillating multi-toolz", False),
    ("Oscillating multi-tool", "Oscillating multitool", False),
])
def test_a_name_joined_by_hyphens_is_stated_in_the_plural_too(fact, text, expected):
    """'4 Oscillating multi-tools' lists the product 'Oscillating multi-tool' four times over."""
    assert stated(fact, text) is expected


@pytest.mark.parametrize("text, expected", [
    ("Oscillating multi-tool x4", True),
    ("4x Oscillating multi-tool", True),
    ("Oscillating multi-tool ×4", True),
    ("register 0x4", False),  # a hexadecimal literal
    ("box4", False),  # part of a word
])
def test_a_count_written_x4_states_it(text, expected):
    assert stated(4, text) is expected


@pytest.mark.parametrize("fact, text, expected", [
    ("2026-04-22T13:30", "It's on April 22 at 1:30 in the afternoon.", True),
    ("2026-04-22T09:00", "April 22 at 9 in the morning", True),
    ("2026-04-22T19:15", "April 22 at 7:15 in the evening", True),
    ("2026-04-22T23:00", "April 22 at 11 at night", True),
    ("2026-04-22T00:00", "April 22 at 12 at night", True),
    ("2026-04-22T01:30", "April 22 at 1:30 in the afternoon", False),
    ("2026-04-22T21:00", "April 22 at 9 in the morning", False),
])
def test_the_half_of_the_day_said_in_words_places_a_time(fact, text, expected):
    """'1:30 in the afternoon' is 13:30, as '1:30 pm' is."""
    assert facts_stated([[fact]], [text]) is expected


@pytest.mark.parametrize("text", ["one meeting, at 9 in the morning", "one meeting, at 9 am"])
def test_an_hour_said_with_its_half_of_the_day_is_no_count(text):
    """The 9 of 'at 9 in the morning' is a time, as the 9 of '9 am' is: it states no count of 9."""
    assert not facts_stated([[9]], [text])


def test_rivals_are_offered_within_one_answer():
    """Finding (retail_chain, seed 133): "Three holds expired uncollected: ..." answered turn 1, and "One
    transfer is on its way: 2 Shower head rain 8 in" turn 2; the 3 and the 1 of two answers were read as
    rivals of the count 2. A guess is made within one answer."""
    facts = [["Tammie Patrick", "Richard Taylor", "Shirley Moore"], ["Shower head rain 8 in", 2]]
    second = "One transfer is on its way: 2 Shower head rain 8 in from West Seattle."
    assert facts_stated(facts, ["Three holds expired uncollected: Tammie Patrick, Richard Taylor and Shirley Moore.",
                                second])
    assert not facts_stated(facts, ["Tammie Patrick, Richard Taylor and Shirley Moore.",
                                    "1, 2 or 3 of Shower head rain 8 in are on their way."])
    assert not facts_stated([[5]], ["Nothing yet.", "There are 4, 5 or 6."])


@pytest.mark.parametrize("text", [
    "It opens the living room, master bedroom and office blinds.",
    "Living room, master bedroom, and office blinds.",
    "It opens the blinds in the living room, master bedroom and office.",
    "It opens the blinds in the living room, the master bedroom and the office.",
])
def test_a_list_that_shares_a_noun_names_each_item_with_it(text):
    """Finding (iot_devices, seed 135): "the living room, master bedroom and office blinds" named the
    three blinds of a scene, and stated only the office's: a list that shares its noun, after it or
    before it, names each of its items with the noun."""
    facts = [[one_of("Living room blinds", "blinds in the living room"),
              one_of("Master bedroom blinds", "blinds in the master bedroom"),
              one_of("Office blinds", "blinds in the office")]]
    assert facts_stated(facts, [text])


@pytest.mark.parametrize("fact, text", [
    ("Living room blinds", "It opens the living room lamp and office blinds."),  # not an item of the list
    ("Living room blinds", "the kitchen, hall and office blinds"),
    ("Office blinds", "the blinds in the kitchen, and the lamp in the office"),
    ("Savings account", "I closed the savings and left the checking account"),
])
def test_a_list_names_no_item_it_does_not_hold(fact, text):
    assert not stated(fact, text)


@pytest.mark.parametrize("text", ["the ceiling light and the blinds in the living room",
                                  "the ceiling light and blinds in the living room",
                                  "the living room ceiling light and blinds"])
def test_a_list_that_shares_a_place_names_each_item_in_it(text):
    """Finding (iot_devices, seed 137): 'the ceiling light and the blinds in the living room' named
    the living room's two offline devices and stated only the blinds: before a shared place each item
    may take 'the'."""
    facts = [[one_of("Living room ceiling light", "ceiling light in the living room"),
              one_of("Living room blinds", "blinds in the living room")]]
    assert facts_stated(facts, [text])
    assert not stated(one_of("Office ceiling light", "ceiling light in the office"), text)


def test_a_list_of_kinds_names_each_kind():
    assert stated("Checking account", "your checking and savings accounts")
    assert stated("Savings account", "your checking and savings accounts")


def test_two_things_said_apart_are_no_list_that_shares_a_noun():
    """'the budget, and the quarterly review' speaks of two things: no 'Budget review'."""
    assert not stated("Budget review", "We went over the budget, and the quarterly review is next.")
    assert stated("Budget review", "the budget and quarterly reviews")


def test_a_full_listing_beyond_the_facts_is_no_guess():
    """'Your delivered orders: $12.50, $30.20, $8.99, $45.00, $21.75, $17.40 and $9.10' where the facts
    keep the first five totals: the other two are values of the same listing (`listed`), which a full
    answer names, not guesses. One order's total among other orders' totals is still a guess: a
    field that holds one fact lends none of its values, nor does a field of other numbers."""
    import json

    from prove_env.facts import listed

    orders = json.dumps([{"order_id": f"O{i}", "total": total, "items": items}
                         for i, (total, items) in enumerate([(12.5, 2), (30.2, 1), (8.99, 3), (45.0, 1), (21.75, 2),
                                                             (17.4, 5), (9.1, 4)])])
    first = [[12.5, 30.2, 8.99, 45.0, 21.75]]
    full = "Your delivered orders: $12.50, $30.20, $8.99, $45.00, $21.75, $17.40 and $9.10."
    shown = listed(first, [orders, "not JSON"])
    assert shown == {12.5, 30.2, 8.99, 45.0, 21.75, 17.4, 9.1}
    assert facts_stated(first, [full], shown=shown) and not facts_stated(first, [full])
    # sizes 7 and 9 of a shoe in 7, 8, 9 and 11: '7, 8, 9 and 11' names both among the listing's own
    sizes = json.dumps([{"colour": "red", "size": s} for s in (7, 8, 9, 11)])
    assert facts_stated([[7, 9]], ["Red in 7, 8, 9 and 11"], shown=listed([[7, 9]], [sizes]))
    assert not facts_stated([[9]], ["Red in 7, 8, 9 and 11"], shown=listed([[9]], [sizes]))
    assert listed([[30.2]], [orders]) == frozenset()
    assert not facts_stated([[30.2]], ["$12.50, $30.20, $8.99"], shown=listed([[30.2]], [orders]))
    assert not facts_stated(first, ["$12.50, $30.20, $8.99, $45.00, $21.75, 3, 5, 4"], shown=shown)
