"""The reward against the worked cases of the spec, and its properties."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prove_env.reward import PAPER, STATE, Call, Gold, StateOutcome, compute_reward

VECTORS = [json.loads(line) for line in (Path(__file__).parent / "reward_vectors.jsonl").read_text().splitlines()]


def _inputs(case):
    gold = [Gold(g["id"], g["name"], g["arguments"], tuple(g["depends_on"])) for g in case["gold"]]
    calls = [Call(c["name"], c["arguments"], c["ok"]) for c in case["calls"]]
    return calls, gold, case["schemas"]


@pytest.mark.parametrize("case", VECTORS, ids=[c["case"] for c in VECTORS])
def test_worked_cases(case):
    calls, gold, schemas = _inputs(case)
    state = StateOutcome(**case["state"]) if "state" in case else None  # the outcome cases of docs/reward.md
    breakdown = compute_reward(calls, gold, schemas, state=state).as_dict()
    for key, expected in case["expected"].items():
        if isinstance(expected, bool):
            assert breakdown[key] is expected, key
        else:
            assert round(breakdown[key], 6) == pytest.approx(expected, abs=1e-6), key


BASE = VECTORS[0]
GOLD_CALLS, GOLD, SCHEMAS = _inputs(BASE)


def test_gold_scores_the_maximum_and_succeeds():
    r = compute_reward(GOLD_CALLS, GOLD, SCHEMAS)
    assert r.total == pytest.approx(PAPER.maximum) and r.success


def test_malformed_arguments_match_nothing_but_count():
    calls = [Call("find_account", '{"owner_name": "Ada', False), *GOLD_CALLS[1:]]
    r = compute_reward(calls, GOLD, SCHEMAS)
    # g1 stays unmatched, so g3 (which depends on it) is out of order; g4 only needs g3 matched first.
    assert r.validity == pytest.approx((1 / 3 + 3) / 4) and r.coverage == pytest.approx(2 / 4)
    r = compute_reward([*GOLD_CALLS, Call("nope", "{", False)], GOLD, SCHEMAS)
    assert r.validity == pytest.approx(4 / 5)


def test_values_compare_as_canonical_json():
    calls = [Call(c.name, dict(c.arguments), c.ok) for c in GOLD_CALLS]
    calls[2] = Call("transfer", {"amount": 250.0, "to_account": "ACC-0012", "from_account": "ACC-0007"}, True)
    assert compute_reward(calls, GOLD, SCHEMAS).argument == 1.0
    calls[2] = Call("transfer", {"amount": True, "to_account": "ACC-0012", "from_account": "ACC-0007"}, True)
    gold = [*GOLD[:2], Gold("g3", "transfer", {"from_account": "ACC-0007", "to_account": "ACC-0012", "amount": 1}, ("g1", "g2")), GOLD[3]]
    assert compute_reward(calls, gold, SCHEMAS).argument < 1.0


def test_lenient_strings_fold_case_and_whitespace():
    calls = [Call("find_account", {"owner_name": " ada park "}, True), *GOLD_CALLS[1:]]
    assert compute_reward(calls, GOLD, SCHEMAS).argument < 1.0
    assert compute_reward(calls, GOLD, SCHEMAS, config=PAPER.with_(lenient_strings=True)).argument == 1.0


def test_state_preset_and_success():
    right = StateOutcome(matched=1.0, collateral=False, writes=True)
    r = compute_reward(GOLD_CALLS, GOLD, SCHEMAS, state=right, config=STATE)
    assert r.success and r.state == 1.0 and r.total == pytest.approx(STATE.maximum)
    damaged = StateOutcome(matched=1.0, collateral=True, writes=True)
    r = compute_reward(GOLD_CALLS, GOLD, SCHEMAS, state=damaged, config=STATE)
    assert not r.success and r.state == 0.0
    # The paper preset reports the state component but gives it no weight.
    assert compute_reward(GOLD_CALLS, GOLD, SCHEMAS, state=damaged).total == pytest.approx(PAPER.maximum)


def test_weights_switch_terms_off():
    r = compute_reward(GOLD_CALLS, GOLD, SCHEMAS, config=PAPER.with_(name=0.0, validity=0.0))
    assert r.total == pytest.approx(0.5 + 0.1)


def test_clip_min():
    calls = [Call("list_accounts", {}, True)] * 200
    assert compute_reward(calls, GOLD, SCHEMAS).total < -0.5
    assert compute_reward(calls, GOLD, SCHEMAS, config=PAPER.with_(clip_min=0.0)).total == 0.0


# -- properties ---------------------------------------------------------------------------------

call_names = st.sampled_from(["find_account", "get_balance", "transfer", "list_accounts", "get_weather", "nope"])
args = st.dictionaries(st.sampled_from(["owner_name", "account_id", "from_account", "to_account", "amount"]),
                       st.one_of(st.text(max_size=8), st.integers(0, 500), st.sampled_from(["ACC-0007", "Ada Park"])),
                       max_size=4)
random_calls = st.lists(st.builds(Call, call_names, args, st.booleans()), max_size=14)


@settings(max_examples=300, deadline=None)
@given(random_calls)
def test_no_trajectory_beats_gold(calls):
    assert compute_reward(calls, GOLD, SCHEMAS).total <= compute_reward(GOLD_CALLS, GOLD, SCHEMAS).total + 1e-9


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30))
def test_calls_beyond_the_budget_lower_the_reward(extra):
    budget = len(GOLD) + math.ceil(0.5 * len(GOLD))
    padded = [*GOLD_CALLS, *[GOLD_CALLS[-1]] * (budget - len(GOLD))]
    over = [*padded, *[GOLD_CALLS[-1]] * extra]
    assert compute_reward(over, GOLD, SCHEMAS).total < compute_reward(padded, GOLD, SCHEMAS).total


def test_calling_every_tool_scores_below_gold():
    spray = [Call(name, {}, False) for name in SCHEMAS]
    assert compute_reward(spray, GOLD, SCHEMAS).total < compute_reward(GOLD_CALLS, GOLD, SCHEMAS).total
    assert compute_reward([*spray, *GOLD_CALLS], GOLD, SCHEMAS).total < compute_reward(GOLD_CALLS, GOLD, SCHEMAS).total


def test_abstention():
    assert compute_reward([], [], SCHEMAS).total == 1.0
    assert compute_reward([], [], SCHEMAS).success
    assert compute_reward(GOLD_CALLS[:1], [], SCHEMAS).total == 0.0
    assert compute_reward([], [], SCHEMAS, config=STATE).total == 1.0


def test_resolve_config():
    from prove_env.reward import resolve_config

    assert resolve_config("state") is STATE and resolve_config(PAPER) is PAPER
    assert resolve_config({"state": 1.0, "clip_min": None}).state == 1.0
    for bad, message in (("nope", "one of"), ({"colour": 1}, "unknown fields"), ({"alpha": "0.5"}, "wrong type"),
                         ({"lenient_strings": 1}, "wrong type"), (3, "preset name")):
        with pytest.raises(ValueError, match=message):
            resolve_config(bad)
