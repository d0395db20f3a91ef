"""Facts are matched as facts: the outcome check of read-only tasks (`prove_env.facts`)."""

from __future__ import annotations

import pytest

from prove_env.facts import facts_stated, stated

STATED = [
    (12, "You have 12 events."), (12, "12.00"), (1548.38, "$1,548.38"), (1548.38, "1548.38 USD"),
    (-45.2, "-$45.20"), (-45.2, "45.20 spent"), (0.1, "0.1 km"), (3, "3."), (7, "(7)"),
    ("10", "10 files"), ("T", "Ticker T is up"), ("in_progress", "it is in progress"),
    ("Weekly sync", "the weekly  SYNC meeting"), ("@jeremyg", "follows @jeremyg."), ("ORD-0104", "order ORD-0104"),
    ("01:30", "1:30 AM"), ("01:30", "01:30"), ("20:30", "8:30 PM"), ("20:30", "8:30 p.m."), ("20:30", "8:30pm"),
    ("20:30", "20:30"), ("12:00", "noon"), ("00:00", "midnight"), ("14:00", "2 pm"), ("00:30", "12:30 am"),
    ("2026-10-29", "2026-10-29"), ("2026-10-29", "October 29, 2026"), ("2026-10-29", "Oct 29"),
    ("2026-10-29", "29 October"), ("2026-10-29", "10/29/2026"), ("2026-10-29", "10/29"), ("2026-09-15", "Sept. 15th"),
    ("2026-09-15T14:30", "Sep 15th at 2:30pm"), ("2026-09-15T14:30", "2026-09-15T14:30"),
    ("2026-09-15T14:30", "Sept. 15, Tuesday, at 2:30 PM."),
    (True, "anything"),
]

NOT_STATED = [
    (12, "2025-12-07"), (21, "ACC-0021"), (14, "14:30"), (10, "ORD-0104"), (10, "104 items"), (1548.38, "1,548.4"),
    (3, "3.5 stars"), (5, "NOVA-5"), (7, "7/12/2026"),
    ("10", "ORD-0104"), ("T", "the stock"), ("Weekly sync", "weekly synchronisation"),
    ("01:30", "13:30"), ("20:30", "8:30"), ("20:30", "8:30 am"), ("14:00", "2 am"),
    ("2026-10-29", "October 29, 2019"), ("2026-10-29", "10/29/2019"), ("2026-10-29", "October 28"),
    ("2026-09-15T14:30", "Sep 15th at 3:30pm"), ("2026-09-15T14:30", "2:30pm"),
    ("2026-09-15T14:30", "Sep 15 at 9:00 AM; Sep 16 at 2:30 PM"),  # the date and the time of two items
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
