"""Verification gates: every task is executed before it is written.

A draft becomes a task only if, on a fresh clone of its start world and through the Gymnasium
environment itself:
1. every gold call succeeds ("gold call failed"), and a request that asks to be told something
   finds the facts in its result ("no facts in the result"; they are recorded on the task);
2. the gold trajectory earns the maximum reward with `success` true ("gold below maximum");
3. a task whose gold calls write does change the world: the start state does not already
   satisfy the goal ("already satisfied"); one whose gold calls only read records facts to judge
   the answer by, or it cannot judge an outcome ("no facts to judge");
4. a do-nothing agent fails `success`, unless the task is an abstention ("do-nothing passes").
A gold read that neither tells the user something nor gives a later call a value no earlier call
or user turn gave is taken out of the chain (an agent that skips a useless call must not lose
coverage); a chain left with no call is dropped ("look-up nobody uses"). A dependency edge stays
only where something passes along it: the target takes a value the source's result holds (one
the user never said), or run before the source the target fails, answers otherwise or leaves
another world (an order nothing passes along must not cost an agent coverage). Two writes of one turn whose order
matters (the later one replayed first fails, or ends in another world) get an ordering edge,
whether or not data flows between them. The start and gold final-state digests are recorded on
the task.

The gold calls run twice per draft: once directly on a fresh start world (`_run_once`: the results
the facts and the unused reads are read off, and the trials of idle arguments), then in the gold
episode, whose world stands for the reference replay (`prove_env.episode.replay`). Both rely on
what the test suite holds every server to: the same calls on the same start world answer and end
the same (tests/test_determinism.py), and a read-only tool changes no world (tests/test_walks.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from prove_env.env import ProveEnv
from prove_env.episode import gold_records, replay
from prove_env.evaluate import run_episode
from prove_env.facts import stated, values
from prove_env.policies import GoldPolicy, NoopPolicy
from prove_env.registry import get_toolkit
from prove_env.runtime import run_sync
from prove_env.task import Task
from prove_env.toolkit import ToolError

__all__ = ["GATES", "Verdict", "Verifier"]

GATES = ("gold call failed", "gold below maximum", "already satisfied", "no facts to judge", "look-up nobody uses",
         "do-nothing passes")


@dataclass(frozen=True)
class Verdict:
    task: Task | None  # the stamped task, or None when a gate failed
    reason: str | None = None
    detail: str = ""


class Verifier:
    """Runs the gates for one server, reusing one environment for every task."""

    def __init__(self, server: str, *, max_steps: int = 10) -> None:
        self.server = server
        self.specs = get_toolkit(server).specs()
        self.env = ProveEnv(server, max_steps=max_steps)
        self._gold, self._noop = GoldPolicy(), NoopPolicy()

    def check(self, task: Task, facts_of: Mapping[str, Callable[[Any], Sequence[Any]]] | None = None) -> Verdict:
        """Run the gates; `facts_of` maps gold call ids to what their results must tell the user."""
        if task.gold_calls:
            # the one run of the gold calls before the gold episode, whose results tell the facts
            # and which reads nobody uses (an argument left out for its default, or as idle, changes
            # no result); the gold episode's own run is the reference after it
            task, records = _run_once(_without_defaults(task, self.specs), self.specs)
            failed = [r for r in records if not r.ok]
            if failed:
                return Verdict(None, "gold call failed", f"{failed[0].name}: {failed[0].output[:200]}")
            if facts_of:
                facts = _facts(task, records, facts_of)
                if facts is None:
                    return Verdict(None, "no facts in the result")
                task = task.model_copy(update={"facts": facts})
            told = set(facts_of or ())
            shown = _shown_earlier(task, records, facts_of or {})
            told = (told - set(shown)) | set(shown.values())
            task = _without_unused_reads(task, records, self.specs, told)
            if not task.gold_calls:
                return Verdict(None, "look-up nobody uses")
        gold = run_episode(self.env, self._gold, task, 0)
        failed = [c for c in gold["calls"] if not c["ok"]]
        if failed:
            first = failed[0]
            return Verdict(None, "gold call failed", f"{first['name']}: {first['output'][:200]}")
        maximum = self.env.episode.reward_config.maximum
        if not gold["success"] or (not task.abstain and gold["reward"] < maximum - 1e-9):
            return Verdict(None, "gold below maximum", f"reward {gold['reward']:.3f}, success {gold['success']}")
        reference = run_sync(replay(task))
        writes = any(not self.specs[c.name].read_only for c in task.gold_calls)
        if writes and reference.gold_digest == reference.start_digest:
            return Verdict(None, "already satisfied")
        if task.gold_calls and not writes and not any(task.facts or []):
            return Verdict(None, "no facts to judge")
        task = _edges_that_matter(task, reference)
        task = _order_writes(task, self.specs, reference)
        if not task.abstain:
            noop = run_episode(self.env, self._noop, task, 0)
            if noop["success"]:
                return Verdict(None, "do-nothing passes", f"reward {noop['reward']:.3f}")
        stamped = task.model_copy(update={"start_digest": reference.start_digest,
                                          "gold_digest": reference.gold_digest})
        return Verdict(stamped)

    def close(self) -> None:
        self.env.close()


def _run_once(task: Task, specs: Mapping[str, Any]) -> tuple[Task, tuple[Any, ...]]:
    """The gold calls of `task` run once on the world the task starts from (`prove_env.episode.
    gold_records`), and `task` without the optional arguments of its reads that change nothing:
    each read is run again, where it stands, without each optional argument; an argument it
    answers the same without leaves the gold call (the read's result, which the run records, is
    unchanged). A read changes no world (the tool kit's walks check every read-only tool), so the
    calls after it answer as in a run without these trials. An agent that lists every alert of a
    client whose alerts are all active finds what the filtered list shows, and must match the call
    (coverage takes a call that carries every key of the gold call; one that passes the filter
    still matches). Never an id (the user named its entity, and the look-up that found it would go
    too: 'are Mary and I both free?' checks Mary though she is free), nor in the call a held-back
    value is for (`metadata["held_for"]`): the assistant asked for it, nor in a task that does not
    say which call the held-back value is for."""
    held = task.metadata.get("held_for")
    tries = not (task.metadata.get("info_level") == "missing" and held is None)
    changed: dict[str, dict[str, Any]] = {}

    def without_idle(tools: Any, call: Any, record: Any) -> None:
        if not tries or not record.ok or not specs[call.name].read_only or call.id == held:
            return
        arguments = dict(call.arguments)
        for keys in _idle_candidates(_optional(specs[call.name], call)):
            fewer = {k: v for k, v in arguments.items() if k not in keys}
            try:
                same = tools.run(call.name, fewer) == record.output
            except ToolError:
                same = False
            if same:
                arguments = fewer
        if arguments != call.arguments:
            changed[call.id] = arguments

    records = run_sync(gold_records(task, without_idle))
    if not changed:
        return task, records
    gold = [[c.model_copy(update={"arguments": changed[c.id]}) if c.id in changed else c for c in turn]
            for turn in task.gold]
    records = tuple(replace(r, arguments=changed[r.id]) if r.id in changed else r for r in records)
    return task.model_copy(update={"gold": gold}), records


def _without_defaults(task: Task, specs: Mapping[str, Any]) -> Task:
    """`task` without the arguments of its gold calls that pass their parameter's default
    ('quantity=1' for "a salmon nigiri"): coverage takes a call that carries every key of the gold
    call, so the natural call that leaves the default to the tool would match nothing, while one
    that passes it still matches. In the call a held-back value is for, a default the user's reply
    says stays (the assistant asked for it); one said before ("It's just me" with the dates held
    back) goes as anywhere else."""
    held = task.metadata.get("held_for")
    reply = next((said for said, turn in zip(task.user_turns, task.gold, strict=False)
                  if any(c.id == held for c in turn)), "")

    def kept(call: Any) -> dict[str, Any]:
        properties = specs[call.name].parameters.get("properties", {})
        return {k: v for k, v in call.arguments.items()
                if "default" not in properties.get(k, {}) or properties[k]["default"] is None
                or json.dumps(v, sort_keys=True) != json.dumps(properties[k]["default"], sort_keys=True)
                or (call.id == held and isinstance(v, str | int | float) and stated(v, reply))}

    if all(kept(c) == c.arguments for c in task.gold_calls):
        return task
    return task.model_copy(update={"gold": [[c.model_copy(update={"arguments": kept(c)}) for c in turn]
                                            for turn in task.gold]})


_BOUNDS = (("start", "end"), ("min", "max"), ("after", "before"), ("since", "until"))


def _idle_candidates(optional: Sequence[str]) -> list[tuple[str, ...]]:
    """The optional arguments to try leaving out, one at a time, but the two bounds of a range
    ('start_date' and 'end_date', 'min_amount' and 'max_amount') together: "messages from March 16"
    searched only up to March 16 answers the same on a world whose messages begin that day, and
    teaches a range the user never said."""
    out: list[tuple[str, ...]] = []
    for key in optional:
        if any(key in keys for keys in out):
            continue
        words = key.split("_")
        partners = ["_".join(b if w == a else w for w in words) for low, high in _BOUNDS
                    for a, b in ((low, high), (high, low)) if a in words]
        partner = next((p for p in partners if p in optional), None)
        out.append((key, partner) if partner else (key,))
    return out


def _optional(spec: Any, call: Any) -> list[str]:
    """The arguments of `call` that its tool does without and that name no entity (filters, pages)."""
    ids = {param for param, _, _ in spec.ids}
    return [key for key in call.arguments if key not in spec.required and key not in ids]


def _order_writes(task: Task, specs: Mapping[str, Any], reference: Any) -> Task:
    """`task` with an edge from each write of a turn to a later call of the same turn whose order
    matters: replayed first (ahead of the earlier one and of what lies between, none of which it
    needs), a call fails, the world ends otherwise, or a call whose result tells a fact shows it
    otherwise (`_still_shown`: the balance asked for after the transfer the same request makes; a
    listing that only gains the written entry beside the entries asked about orders nothing, nor a
    fact the write's own result tells)."""
    outputs = {r.id: r.output for r in reference.records}
    told: dict[str, list[str]] = {}  # a call whose result tells facts: the values it shows
    for turn, facts in zip(task.gold, task.facts or [], strict=False):
        for c in turn:
            shown = [p for f in facts for p in map(_plain, values(f)) if p in outputs[c.id]]
            if shown:
                told[c.id] = shown
    turns = [list(turn) for turn in task.gold]
    added = False
    for t, turn in enumerate(turns):
        for j, later in enumerate(turn):
            if specs[later.name].read_only and later.id not in told:
                continue
            for i, earlier in enumerate(turn[:j]):
                if specs[earlier.name].read_only or _needs(turn, later.id, {c.id for c in turn[i:j]}):
                    continue
                trial_turn = turn[:i] + [later] + turn[i:j] + turn[j + 1:]
                trial = task.model_copy(update={"gold": turns[:t] + [trial_turn] + turns[t + 1:]})
                moved = run_sync(replay(trial))
                answered = next((r.output for r in moved.records if r.id == later.id), None)
                # a result that tells a fact must show it the same; what a write merely adds or echoes
                # (the new endpoint in a list whose most failing one is asked for, the profile's post
                # count after a reply) orders nothing, nor a fact the write's own result tells (the new
                # account's number, listed after it is opened)
                own = _leaves(outputs[earlier.id])
                rest = [p for p in told.get(later.id, ()) if p not in own]
                told_otherwise = bool(rest) and answered is not None and not _still_shown(
                    outputs[later.id], answered, rest)
                if moved.failures or moved.gold_digest != reference.gold_digest or told_otherwise:
                    turn[j] = later = later.model_copy(update={"depends_on": [*later.depends_on, earlier.id]})
                    added = True
    return _with_gold(task, turns, new_edges="order") if added else task


def _edges_that_matter(task: Task, reference: Any) -> Task:
    """`task` without the dependency edges along which nothing passes: the target takes no value
    the source's result holds (nor a date worked out from one), and replayed ahead of the
    source (with the calls it needs that come between them), every call succeeds, the target
    answers the same and the world ends the same. A source that only echoes what it had from a
    call it depends on (a look-up of an endpoint's deliveries, made with the endpoint's id, shows
    the id again) carries nothing of its own: it gets the same trial, and when its edge goes, the
    target depends on the call the value first came from."""
    calls = task.gold_calls
    order = [c.id for c in calls]
    outputs = {r.id: r.output for r in reference.records}
    said = " ".join(task.user_turns).casefold()
    drop: dict[str, set[str]] = {}
    add: dict[str, set[str]] = {}
    for j, target in enumerate(calls):
        holders = _holders(target, calls[:j], outputs, said)
        carriers = {i for _, found, _ in holders for i in found}
        for source in target.depends_on:
            relayed = _relayed(source, holders, calls[:j]) if source in carriers else None
            if source in carriers and relayed is None:
                continue
            trial = _ahead(calls, target.id, source)
            if trial is None:  # the target needs the source through another call: that edge says it
                drop.setdefault(target.id, set()).add(source)
                continue
            moved = run_sync(replay(task.model_copy(update={"gold": [trial]})))
            answer = next(r.output for r in moved.records if r.id == target.id)
            if not moved.failures and answer == outputs[target.id] and moved.gold_digest == reference.gold_digest:
                drop.setdefault(target.id, set()).add(source)
                add.setdefault(target.id, set()).update(relayed or ())
    if not drop:
        return task
    gold = [[c.model_copy(update={"depends_on": sorted(
        {d for d in c.depends_on if d not in drop.get(c.id, ())} | add.get(c.id, set()), key=order.index)})
        for c in turn] for turn in task.gold]
    return _with_gold(task, gold, new_edges="data")


def _relayed(source: str, holders: Sequence[tuple[str, list[str], bool]], earlier: Sequence[Any]) -> set[str] | None:
    """When every value a call finds in `source`'s result (`holders`, from `_holders`) was already in
    the result of a call `source` depends on, directly or not: the first such call of each value;
    else None (the source gives something of its own)."""
    by_id = {c.id: c for c in earlier}
    ancestors, stack = set(), list(by_id[source].depends_on)
    while stack:
        d = stack.pop()
        if d not in ancestors and d in by_id:
            ancestors.add(d)
            stack.extend(by_id[d].depends_on)
    first = set()
    for _, found, worked_out in holders:
        if source not in found:
            continue
        before = [h for h in found if h in ancestors]
        if worked_out or not before:
            return None
        first.add(before[0])
    return first or None


def _ahead(calls: Sequence[Any], target: str, source: str) -> list[Any] | None:
    """The calls in another order: `target` just ahead of `source`, after the calls it needs that
    lie between them (None when it needs `source` through one of them)."""
    by_id = {c.id: c for c in calls}
    order = [c.id for c in calls]
    needed, stack = set(), [d for d in by_id[target].depends_on if d != source]
    while stack:
        d = stack.pop()
        if d == source:
            return None
        if d not in needed and d in by_id:
            needed.add(d)
            stack.extend(by_id[d].depends_on)
    start, end = order.index(source), order.index(target)
    moved = [i for i in order[start:end] if i in needed] + [target]
    rest = [i for i in order[start:] if i not in moved]
    return [by_id[i] for i in order[:start] + moved + rest]


def _holders(call: Any, earlier: Sequence[Any], outputs: Mapping[str, str], said: str,
             chosen: Collection[Any] = ()) -> list[tuple[str, list[str], bool]]:
    """For each value `call` takes that the user never said: the value, the earlier calls whose
    results hold it, in order, and whether it is worked out rather than found (a date not found as
    such may be worked out from any earlier result holding a date). `chosen`: values picked from a
    parameter's choices ('failed' for "failures"), which no result gives."""
    found = []
    for value in call.values():
        if value in chosen:
            continue
        text = str(value)
        if len(text) < 2 or text.casefold() in said:
            continue
        if _ISO_DATE.match(text) and stated(text, said):
            continue  # a day or a moment the user named in words ('October 14 at 9 am'): said, not looked up
        holders = [c.id for c in earlier if _holds(outputs[c.id], value, text)]
        if not holders and " " in text:
            # a text the user wrote around a looked-up value ('@edward.olson' before their words): the
            # word they never said comes from a result that holds it as a value of its own
            words = {w.strip("@,;:!?\"'") for w in text.split() if w.casefold() not in said}
            holders = [c.id for c in earlier if any(len(w) > 2 and json.dumps(w) in outputs[c.id] for w in words)]
        if holders:
            found.append((text, holders, False))
        elif _ISO_DATE.match(text):
            found.append((text, [c.id for c in earlier if _ISO_DATE.search(outputs[c.id])], True))
    return found


def _holds(output: str, value: Any, text: str) -> bool:
    """Whether a result's text holds `value`: a number as a number of its own (5077.0 is not in a cash
    of 15077.0, nor 260.0 in 5260.0), anything else as written."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return re.search(rf"(?<![\d.]){re.escape(text)}(?!\d)", output) is not None
    return text in output


def _chosen(call: Any, spec: Any) -> set[Any]:
    """The values `call` passes to parameters with a set of choices (a status, a list of event types)."""
    properties = spec.parameters.get("properties", {})
    chosen: set[Any] = set()
    for key, value in call.arguments.items():
        prop = properties.get(key, {})
        if "enum" in prop or "enum" in prop.get("items", {}):
            chosen |= set(value) if isinstance(value, list) else {value}
    return chosen


def _with_gold(task: Task, gold: list[list[Any]], new_edges: str) -> Task:
    """`task` with another gold, its metadata's chain length and dependencies made from it (an edge
    keeps its kind; a new one is of kind `new_edges`)."""
    kinds = {(e["source"], e["target"]): e["kind"] for e in task.metadata.get("dependencies", [])}
    kept = [c for turn in gold for c in turn]
    edges = [{"source": d, "target": c.id, "kind": kinds.get((d, c.id), new_edges)} for c in kept for d in c.depends_on]
    return task.model_copy(update={"gold": gold, "metadata": {**task.metadata, "chain_length": len(kept),
                                                              "dependencies": edges}})


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _without_unused_reads(task: Task, records: Sequence[Any], specs: Mapping[str, Any], told: set[str]) -> Task:
    """`task` without the gold reads whose results nobody uses: no fact comes from them, and no
    later call takes a value first found in them (a value the user said, or an earlier result
    gave, needs no look-up; a date a later call computes comes from every earlier result with a
    date). A call that depended on a removed one depends instead on the calls its values come from."""
    outputs = {r.id: r.output for r in records}
    calls = task.gold_calls
    said = " ".join(task.user_turns).casefold()
    # a task checked again (a rewritten one) knows its facts, not which calls they came from: a fact
    # no call known to tell it holds is told by the calls of its turn whose results hold it
    so_far: list[Any] = []
    for turn, facts in zip(task.gold, task.facts or [], strict=False):
        so_far += turn
        for fact in facts:
            if not any(_plain(v) in outputs[c.id] for c in so_far if c.id in told for v in values(fact)):
                told = told | {c.id for c in turn if any(_plain(v) in outputs[c.id] for v in values(fact))}
    sources: dict[str, set[str]] = {c.id: set() for c in calls}
    for j, call in enumerate(calls):
        for value, holders, worked_out in _holders(call, calls[:j], outputs, said, _chosen(call, specs[call.name])):
            if worked_out:
                sources[call.id].update(holders)
                continue
            # a value found as such comes from where it is first shown as what the user named (a
            # rep's id next to the rep's name), else from the look-up the call was planned on, else
            # from where it is first shown at all: an id shown in another role (a deal's owner id)
            # does not say whose it is
            named = [h for h in holders if _named_with(outputs[h], value, said)]
            own = [h for h in holders if h in call.depends_on]
            sources[call.id].update((named or own or holders)[:1])
    used = set().union(*sources.values())
    idle = {c.id for c in calls if specs[c.name].read_only and c.id not in used and c.id not in told}
    if not idle:
        return task

    def rewired(call: Any) -> Any:
        depends = [d for d in call.depends_on if d not in idle]
        if idle & set(call.depends_on):
            depends += [d for d in sorted(sources[call.id]) if d not in depends]
        return call.model_copy(update={"depends_on": depends})

    # a read whose only user was a removed one (a merchant's look-up that fed only the dropped look-up
    # of its customer) is unused in turn: remove until nothing more goes (each pass removes a call)
    pruned = _with_gold(task, [[rewired(c) for c in turn if c.id not in idle] for turn in task.gold], new_edges="data")
    return _without_unused_reads(pruned, records, specs, told)


def _shown_earlier(task: Task, records: Sequence[Any], facts_of: Mapping[str, Callable[[Any], Sequence[Any]]]
                   ) -> dict[str, str]:
    """The reads asked to tell something whose facts an earlier call's result already gives, read
    off its entry for the same entity (one carrying an id the read takes): the list that found an
    order shows its status, a cart write returns the cart. Read -> that earlier call."""
    outputs = {r.id: _parse(r.output) for r in records}
    calls = task.gold_calls
    shown: dict[str, str] = {}
    for j, call in enumerate(calls):
        extract = facts_of.get(call.id)
        ids = _entity_of(call, outputs[call.id])
        if extract is None or not ids:
            continue
        want = _extracted(extract, outputs[call.id])
        if not want:
            continue
        # only zeros: an entry may hold a zero of another meaning ('refund': 0.0), so only the read's own
        # extract, reading the same fields off the entity's earlier entry, may find them there; a fact
        # with a zero among its readings (NOTHING: 0 or 'nothing') is a zero
        zeros = all(any(v in (0, None, "") and not isinstance(v, bool) for v in values(f)) for f in want)
        own = list(_entries_of(outputs[call.id], ids)) or list(_entries(outputs[call.id]))[:1]
        # an extract that tells the same of nothing ignores the result: no earlier entry shows it
        reads = _extracted(extract, {}) != want and _extracted(extract, []) != want
        # a listing under an entity ('my qualification deals': a rep's deals) tells which rows there
        # are: an earlier entry carrying the rep's id shows one of them, never that there is no other
        listing = isinstance(outputs[call.id], list) and any(k.endswith("_id") for k in call.arguments)
        for earlier in calls[:j]:
            # the same read made earlier (before a write), or the same listing with fewer filters whose
            # rows show which pass them, lists the same rows, which need not carry the id the read
            # takes (a client's alerts carry no client id); then every row of the read is compared
            same = _narrowed(earlier, call, outputs)
            if listing and not same:
                continue
            entries = list(_entries(outputs[earlier.id]) if same else _entries_of(outputs[earlier.id], ids))
            mine = list(_entries(outputs[call.id])) if same else own
            # the read's own extract is tried on the entity's own entries only: a sprint report carries
            # its project's id beside counts of its own, which may equal the project's by chance
            owned = entries if same else [e for e in entries if _own_id(e) in ids]
            if (reads and any(_extracted(extract, entry) == want for entry in owned)) or (not zeros and all(
                    _same_field(fact, entries, mine) for fact in want)):
                shown[call.id] = earlier.id
                break
    return shown


def _narrowed(earlier: Any, call: Any, outputs: Mapping[str, Any]) -> bool:
    """Whether `call` lists what `earlier` listed: the same read, or the same tool with filters
    added (every argument of `earlier` kept) whose values `earlier`'s rows show, so that its rows
    passing them are the read's rows, in order (the waiting room after the host's whole participant
    list; 'my last 3 orders' after the order list). A filter its rows do not show (words matched
    in a body), or a row the earlier listing showed otherwise or cut off, keeps the read."""
    if earlier.name != call.name or not earlier.arguments.items() <= call.arguments.items():
        return False
    extra = {k: v for k, v in call.arguments.items() if k not in earlier.arguments}
    if not extra:
        return True
    before, now = outputs[earlier.id], outputs[call.id]
    if not (isinstance(before, list) and isinstance(now, list) and now
            and all(isinstance(r, dict) for r in before + now)):
        return False
    limit = extra.pop("limit", None)
    if any(k not in r for r in before for k in extra):
        return False
    passing = [r for r in before if all(r[k] == v for k, v in extra.items())]
    if isinstance(limit, int):
        passing = passing[:limit]

    def key(row: dict[str, Any]) -> Any:
        return next((v for k, v in row.items() if k == "id" or k.endswith("_id")), json.dumps(row, sort_keys=True))

    return [key(r) for r in passing] == [key(r) for r in now]


def _entity_of(call: Any, output: Any) -> set[str]:
    """The ids of the entity a read is about: those it takes (`*_id` arguments), or for a search by
    name that found one entity, that entity's own id (the first `*_id` of its one row)."""
    ids = {v for k, v in call.arguments.items() if k.endswith("_id") and isinstance(v, str)}
    if not ids and isinstance(output, list) and len(output) == 1 and isinstance(output[0], dict):
        own = next((v for k, v in output[0].items() if k.endswith("_id")), None)
        ids = {own} if isinstance(own, str) else set()
    return ids


def _entries_of(value: Any, ids: set[str]) -> Iterator[dict[str, Any]]:
    """The JSON objects inside a value that carry one of `ids` under an `*_id` key."""
    return (e for e in _entries(value) if any(e.get(k) in ids for k in e if k.endswith("_id")))


def _same_field(fact: Any, entries: Sequence[dict[str, Any]], own: Sequence[dict[str, Any]]) -> bool:
    """Whether an earlier entry for the entity holds `fact` in every field that the read's own result
    holds it in (the list showed the recording's length; the read shows it again). A read that
    also holds it in a field the entry lacks may tell it from there: a member's `presence` 'active'
    is not the account `status` 'active' the search shows."""
    wanted = [v for v in values(fact) if not isinstance(v, bool)]
    # the objects inside each too: a product's stock of 4 on its one variant is not shown by a listing
    # of the product whose review count is 4
    holding = [(o, keys) for entry in own for o in _entries(entry)
               if (keys := [k for k, v in o.items() if not isinstance(v, bool | dict | list) and v in wanted])]
    # every entry of the read's own that holds the fact must show it where an earlier entry does: a
    # trip's total equal to its one booking's price is not shown by the list of bookings
    # an entry of another entity is no earlier showing: a host's meeting of April 7 titled 'Office
    # hours' does not tell which meetings the host had on February 3, though its title is the same
    return bool(holding) and all(any(_same_entity(e, o) and all(k in e and e[k] == o[k] for k in keys)
                                     for e in entries) for o, keys in holding)


def _own_id(entry: dict[str, Any]) -> Any:
    """The id of the entity an entry is about: its 'id' or first '*_id' field (None without one)."""
    return next((entry[k] for k in entry if k == "id" or k.endswith("_id")), None)


def _same_entity(entry: dict[str, Any], own: dict[str, Any]) -> bool:
    """Whether `entry` is about the entity of `own`: it carries the same value under `own`'s own id
    (its 'id' or first '*_id' field), or lacks that field (a count, a total)."""
    key = next((k for k in own if k == "id" or k.endswith("_id")), None)
    return key is None or key not in entry or entry[key] == own[key]


def _named_with(output: str, value: str, said: str) -> bool:
    """Whether an object of `output` that holds `value` as a field also holds a text the user said
    that names the entity the value is the id of: the object's own id (its first '*_id' field) is
    named by any text of the object the user said; another id ('home_city_id' of a user, a
    customer's 'merchant_id') only by a said text under its own name ('address' beside
    'address_id', 'customer_name' beside 'customer_id', 'invoice_number' beside 'invoice_id'): a
    person's name beside their home city's id does not say which city that is, nor a mail's subject
    whose recipients' addresses it holds."""
    def told(v: Any) -> bool:
        return isinstance(v, str) and v != value and len(v) > 3 and v.casefold() in said

    for entry in _entries(_parse(output)):
        own = next((k for k in entry if k == "id" or k.endswith("_id")), None)
        for key in (k for k, v in entry.items() if str(v) == value):
            if key == own and any(told(v) for v in entry.values()):
                return True
            stem = key[:-3] if key.endswith("_id") else None
            if stem and any(told(entry.get(n)) for n in (stem, f"{stem}_name", f"{stem}_label", f"{stem}_number")):
                return True
    return False


def _parse(output: str) -> Any:
    try:
        return json.loads(output)
    except ValueError:
        return output


def _entries(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object inside a value, the value itself included."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _entries(v)
    elif isinstance(value, list):
        for v in value:
            yield from _entries(v)


def _extracted(extract: Callable[[Any], Sequence[Any]], value: Any) -> list[Any] | None:
    try:
        return [v for v in extract(value) if not isinstance(v, bool)]
    except (KeyError, IndexError, TypeError, ValueError, StopIteration, AttributeError):
        return None


def _still_shown(output: str, moved: str, shown: Sequence[str]) -> bool:
    """Whether a result read elsewhere in the turn (`moved`) shows each object of `output` that holds
    a fact's value (`shown`, as `_plain` writes them) in a field of its own unchanged: the endpoint
    with the most failures with the same count, the light asked about in the same state. A result
    whose facts no object holds must be the same."""
    before = _holding(_parse(output), shown)
    return before <= _holding(_parse(moved), shown) if before else output == moved


def _leaves(output: str) -> set[str]:
    """Every plain value of a result, as `_plain` writes it (a string quoted, a number bare)."""
    return {json.dumps(v, ensure_ascii=False) for e in _entries(_parse(output)) for v in e.values()
            if not isinstance(v, (dict, list))}


def _holding(value: Any, shown: Sequence[str]) -> set[str]:
    def holds(leaf: Any) -> bool:
        return not isinstance(leaf, (dict, list)) and any(p in json.dumps(leaf, ensure_ascii=False) for p in shown)

    return {json.dumps(e, sort_keys=True, ensure_ascii=False) for e in _entries(value) if any(map(holds, e.values()))}


def _plain(value: Any) -> str:
    """A fact as a result's JSON writes it."""
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


def _needs(turn: Sequence[Any], call_id: str, among: set[str]) -> bool:
    """Whether the call `call_id` depends, directly or not, on one of the calls `among`."""
    by_id = {c.id: c for c in turn}
    stack, seen = list(by_id[call_id].depends_on), set()
    while stack:
        d = stack.pop()
        if d in among:
            return True
        if d not in seen and d in by_id:
            seen.add(d)
            stack.extend(by_id[d].depends_on)
    return False


def _facts(task: Task, records: Sequence[Any], facts_of: Mapping[str, Callable[[Any], Sequence[Any]]]
           ) -> list[list[Any]] | None:
    """Per user turn, the facts the results of its calls hold (None when a result holds none)."""
    outputs = {r.id: r.output for r in records}
    facts: list[list[Any]] = [[] for _ in task.user_turns]
    for number, turn in enumerate(task.gold):
        for call in turn:
            extract = facts_of.get(call.id)
            if extract is None:
                continue
            try:
                result = json.loads(outputs[call.id])
            except ValueError:
                result = outputs[call.id]
            try:
                found = [v for v in extract(result) if isinstance(v, str | int | float | dict) and not isinstance(v, bool)]
            except (KeyError, IndexError, TypeError, ValueError):
                return None
            if not found:
                return None
            known = {json.dumps(f, sort_keys=True) for f in facts[number]}
            for fact in found:  # each once
                key = json.dumps(fact, sort_keys=True)
                if key not in known:
                    known.add(key)
                    facts[number].append(fact)
    return facts
