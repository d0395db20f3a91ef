"""The programmatic reward of PROVE (arXiv 2606.03892, section 3.3), with this project's decisions.

`compute_reward(calls, gold, schemas)` returns a `RewardBreakdown` with every component and the
weighted total. The formulas, constants and edge cases are those of `docs/reward.md`:

    R = 0.5 R_val + 0.5 R_cov + 0.15 R_eff + 0.2 R_name + 0.1 R_arg  (+ w_state R_state)

Beyond the paper, `R_state` (the final world state equals the state the gold calls produce, with
no collateral damage) and the strict `success` flag come from a `StateOutcome` that the episode
computes from the worlds; the paper preset gives `R_state` weight 0.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

__all__ = [
    "Call",
    "Gold",
    "RewardConfig",
    "RewardBreakdown",
    "StateOutcome",
    "PAPER",
    "STATE",
    "PRESETS",
    "resolve_config",
    "COMPONENTS",
    "compute_reward",
    "validity_score",
]


@dataclass(frozen=True)
class Call:
    """One model call as executed: `arguments` is a dict, or the raw text when it was not JSON."""

    name: str | None
    arguments: Any
    ok: bool


@dataclass(frozen=True)
class Gold:
    id: str
    name: str
    arguments: Mapping[str, Any]
    depends_on: tuple[str, ...] = ()


@dataclass(frozen=True)
class StateOutcome:
    """How the episode's outcome compares with the task's reference (same start world).

    Attributes:
        matched: fraction of the gold write set (the parts of the world the gold calls change)
            whose final content equals the gold final content; 1.0 when the gold calls write nothing.
        collateral: some part outside the gold write set changed (details a user does not specify
            set aside), or a missing-function task called a tool it was not shown.
        writes: the gold calls change the world (a write task).
        facts: whether the answers state every fact the task records; None when it records none.
    """

    matched: float
    collateral: bool
    writes: bool
    facts: bool | None = None

    @property
    def score(self) -> float:
        return 0.0 if self.collateral else self.matched


@dataclass(frozen=True)
class RewardConfig:
    """Weights and constants of the reward. The default is exactly the paper's."""

    validity: float = 0.5
    coverage: float = 0.5
    efficiency: float = 0.15
    name: float = 0.2
    argument: float = 0.1
    state: float = 0.0
    alpha: float = 0.5
    beta: float = 0.5
    clip_min: float | None = None
    lenient_strings: bool = False

    def with_(self, **changes: Any) -> RewardConfig:
        return replace(self, **changes)

    @property
    def maximum(self) -> float:
        return self.validity + self.coverage + self.name + self.argument + self.state


PAPER = RewardConfig()
"""PROVE's reward: validity, coverage, efficiency, name and argument terms; state not weighted."""

STATE = RewardConfig(state=0.5)
"""The paper's terms plus the final-state check at the weight of validity and coverage."""

PRESETS: dict[str, RewardConfig] = {"paper": PAPER, "state": STATE}


def resolve_config(value: str | Mapping[str, Any] | RewardConfig) -> RewardConfig:
    """A reward config from a preset name, a mapping of `RewardConfig` fields, or a config itself.

    Raises ValueError naming what is wrong (unknown preset, unknown field, a field of the wrong type).
    """
    if isinstance(value, RewardConfig):
        return value
    if isinstance(value, str):
        if value not in PRESETS:
            raise ValueError(f"reward must be one of {sorted(PRESETS)} or RewardConfig fields, got {value!r}")
        return PRESETS[value]
    if not isinstance(value, Mapping):
        raise ValueError("reward must be a preset name, a RewardConfig or a mapping of its fields")
    known = {f.name for f in fields(RewardConfig)}
    unknown = sorted(set(value) - known)
    if unknown:
        raise ValueError(f"reward has unknown fields {unknown}; RewardConfig has {sorted(known)}")
    for key, item in value.items():
        number = isinstance(item, int | float) and not isinstance(item, bool)
        ok = isinstance(item, bool) if key == "lenient_strings" else number or (key == "clip_min" and item is None)
        if not ok:
            raise ValueError(f"reward field {key!r} has the wrong type: {item!r}")
    return RewardConfig(**value)


COMPONENTS = ("validity", "coverage", "efficiency", "name", "argument", "state")
"""The reward's components, in the order every table and plot shows them."""


@dataclass(frozen=True)
class RewardBreakdown:
    validity: float
    coverage: float
    efficiency: float
    name: float
    argument: float
    state: float
    success: bool
    total: float

    def as_dict(self) -> dict[str, float | bool]:
        return asdict(self)


def compute_reward(
    calls: Sequence[Call],
    gold: Sequence[Gold],
    schemas: Mapping[str, Mapping[str, Any]],
    *,
    state: StateOutcome | None = None,
    config: RewardConfig = PAPER,
) -> RewardBreakdown:
    """Score one episode.

    Args:
        calls: every model call of the episode, in order, with its execution outcome.
        gold: the task's reference calls (all user turns, in order) with dependency edges.
        schemas: the JSON schema of the parameters of every tool shown to the model, by name.
        state: the final-state comparison, when the episode has worlds to compare.
        config: weights and constants (`PAPER` by default).
    """
    n_calls = len(calls)
    if not gold:  # abstention: PROVE's term is 1 for calling nothing, else 0
        abstained = n_calls == 0
        state_score = state.score if state is not None else float(abstained)
        # success is the outcome: nothing the user did not ask for changed and no tool that was not
        # shown was called (a harmless look-up with a shown tool before declining is no failure)
        success = abstained if state is None else not state.collateral and state.facts is not False
        return _total(0.0, 0.0, 0.0, 0.0, 0.0, state_score if abstained else 0.0, success, config,
                      fixed=1.0 if abstained else 0.0)
    if n_calls == 0:
        return _total(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, False, config)

    parsed = [_arguments(c.arguments) for c in calls]
    r_val = sum(validity_score(c, args, schemas) for c, args in zip(calls, parsed, strict=True)) / n_calls

    pairs = _match(calls, parsed, gold, config.lenient_strings)
    position = {g_id: pos for g_id, (pos, _) in pairs.items()}
    ordered = 0
    for g in gold:
        if g.id in position and all(d in position and position[d] < position[g.id] for d in g.depends_on):
            ordered += 1
    r_cov = ordered / len(gold)

    n_gt = len(gold)
    budget = n_gt + math.ceil(config.beta * n_gt)
    r_eff = -config.alpha * max(0, n_calls - budget) / budget + 0.0  # + 0.0: no negative zero

    gold_names = {g.name for g in gold}
    r_name = sum(1 for c in calls if c.name in gold_names) / n_calls

    if pairs:
        by_id = {g.id: g for g in gold}
        fractions = []
        for g_id, (_, args) in pairs.items():
            expected = by_id[g_id].arguments
            fractions.append(
                1.0 if not expected
                else sum(_equal(args[k], v, config.lenient_strings) for k, v in expected.items()) / len(expected)
            )
        r_arg = sum(fractions) / len(fractions)
    else:
        r_arg = 0.0

    r_state = state.score if state is not None else 0.0
    if state is None:
        success = r_cov == 1.0 and r_arg == 1.0
    elif state.writes:
        success = state.matched == 1.0 and not state.collateral and state.facts is not False
    elif state.facts is not None:  # read-only with recorded facts: judged on the outcome alone
        success = state.facts and not state.collateral
    else:  # read-only without recorded facts (hand-written tasks may have none): the reference path
        success = r_cov == 1.0 and r_arg == 1.0 and not state.collateral
    return _total(r_val, r_cov, r_eff, r_name, r_arg, r_state, success, config)


def validity_score(call: Call, arguments: Any, schemas: Mapping[str, Mapping[str, Any]]) -> float:
    """Per-call validity: a third each for known name, well-typed required args, live success."""
    if call.name not in schemas:
        return 0.0
    schema = schemas[call.name]
    if arguments is _MALFORMED or not isinstance(arguments, dict):
        return 1 / 3  # the worked cases give a known name with unparseable arguments its third
    properties = schema.get("properties", {})
    for key in schema.get("required", ()):
        if key not in arguments or not _json_type_ok(arguments[key], properties.get(key, {})):
            return 1 / 3
    return 1.0 if call.ok else 2 / 3


# -- internals ----------------------------------------------------------------------------------

_MALFORMED = object()


def _arguments(raw: Any) -> Any:
    """Arguments as a Python value, or `_MALFORMED` when they are text that is not JSON."""
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            return _MALFORMED
    return raw


def _match(
    calls: Sequence[Call], parsed: Sequence[Any], gold: Sequence[Gold], lenient: bool
) -> dict[str, tuple[int, dict[str, Any]]]:
    """One-to-one matching: each call, in order, goes to the still-unmatched gold call of the same
    name whose argument keys it all carries, preferring the most equal values, then the earliest."""
    matched: dict[str, tuple[int, dict[str, Any]]] = {}
    for pos, (call, args) in enumerate(zip(calls, parsed, strict=True)):
        if not isinstance(args, dict):
            continue
        best: Gold | None = None
        best_equal = -1
        for g in gold:
            if g.id in matched or g.name != call.name or not all(k in args for k in g.arguments):
                continue
            equal = sum(_equal(args[k], v, lenient) for k, v in g.arguments.items())
            if equal > best_equal:
                best, best_equal = g, equal
        if best is not None:
            matched[best.id] = (pos, args)
    return matched


def _canonical(value: Any, lenient: bool) -> Any:
    # Canonical JSON: 3 == 3.0, key order ignored, true is not 1.
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and lenient:
        return value.strip().casefold()
    if isinstance(value, dict):
        return {k: _canonical(v, lenient) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v, lenient) for v in value]
    return value


def _equal(a: Any, b: Any, lenient: bool) -> bool:
    if type(a) is type(b) and isinstance(a, str | int) and not isinstance(a, bool) and not lenient:
        return a == b  # the common case, without building canonical forms
    return _canonical(a, lenient) == _canonical(b, lenient)


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _json_type_ok(value: Any, schema: Mapping[str, Any]) -> bool:
    declared = schema.get("type")
    if declared is None:
        variants = schema.get("anyOf") or schema.get("oneOf")
        return any(_json_type_ok(value, v) for v in variants) if variants else True
    for name in [declared] if isinstance(declared, str) else declared:
        allowed = _JSON_TYPES.get(name)
        if allowed is None:
            return True
        if isinstance(value, bool) and name not in ("boolean",):
            continue
        if isinstance(value, allowed):
            return True
    return False


def _total(
    val: float, cov: float, eff: float, name: float, arg: float, state: float, success: bool,
    config: RewardConfig, *, fixed: float | None = None,
) -> RewardBreakdown:
    if fixed is not None:  # abstention tasks score 1 or 0 under every preset
        total = fixed
    else:
        total = (config.validity * val + config.coverage * cov + config.efficiency * eff
                 + config.name * name + config.argument * arg + config.state * state)
    if config.clip_min is not None:
        total = max(config.clip_min, total)
    return RewardBreakdown(val, cov, eff, name, arg, state, success, total)
