"""A success flag that cannot be fooled, tried on a synthesis sample of every server.

Over `PROVE_SUCCESS_TASKS` synthesized tasks per server (default 16; `PROVE_SUCCESS_SAMPLE=DIR`
probes a synth output instead):

- gold plus one write of another task that changes a row the gold never touches fails, whatever
  the column (a tolerated detail included): tolerated details are tolerated only where the task
  writes;
- a read-only task answered with every fact in another accepted format succeeds;
- the same answer with any one fact left out, or changed, fails, and so does one that names a
  number, a day or a measure among its neighbours ('4, 5, 6'), a number, a measure, a day or a time
  in a run of values far apart ('1, 4, 7, 10'; 'Oct 23, Oct 26, Oct 29'), or a status among every
  status there is; one that lists every value of the listings the facts come from succeeds;
- an abstention task answered after a harmless look-up with a shown tool succeeds, and a call to a
  tool that was not shown fails it.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path
from collections import Counter, defaultdict
from typing import Any

import pytest

from prove_env.actions import ParsedCall
from prove_env.episode import Episode, replay
from prove_env.facts import _decimals, _key, listed, quantity
from prove_env.registry import get_toolkit, server_names
from prove_env.runtime import run_sync
from prove_env.synthesis.config import SynthConfig
from prove_env.synthesis.pipeline import synthesize
from prove_env.task import Task, load_tasks

pytestmark = pytest.mark.slow

PER_SERVER = int(os.environ.get("PROVE_SUCCESS_TASKS", "16"))
STATS: Counter[str] = Counter()


@pytest.fixture(scope="module")
def sample() -> dict[str, list[Task]]:
    """The tasks probed: synthesized here, or read from the synth output `PROVE_SUCCESS_SAMPLE` names
    (a directory holding train.jsonl and test.jsonl) for a long run on a large set."""
    tasks: dict[str, list[Task]] = defaultdict(list)
    if os.environ.get("PROVE_SUCCESS_SAMPLE"):
        folder = Path(os.environ["PROVE_SUCCESS_SAMPLE"])
        found = load_tasks(folder / "train.jsonl") + load_tasks(folder / "test.jsonl")
    else:
        servers = server_names()
        result = synthesize(servers, PER_SERVER * len(servers), seed=11, config=SynthConfig(tasks_per_world=4),
                            workers=1)
        found = result.tasks("train") + result.tasks("test")
    for task in found:
        tasks[task.server].append(task)
    return tasks


def play(task: Task, calls: list[tuple[str, dict]], answer: str | None = None) -> tuple[bool, Episode]:
    """Play calls (name, arguments) and one answer per user turn; (success, the episode, still open)."""
    episode = Episode(task.server)
    run_sync(episode.begin(task))
    for name, arguments in calls:
        run_sync(episode.call(ParsedCall(name, dict(arguments))))
    for _ in task.user_turns:
        episode.answer(answer if answer is not None else "Done.")
    return run_sync(episode.score()).success, episode


def gold_calls(task: Task) -> list[tuple[str, dict]]:
    return [(g.name, g.arguments) for g in task.gold_calls]


def changed_rows(before: dict[str, dict], after: dict[str, dict]) -> set[tuple[str, str]]:
    return {(table, key) for table in after for key in before[table].keys() | after[table].keys()
            if before[table].get(key) != after[table].get(key)}


def rows(episode: Episode) -> dict[str, dict]:
    world = episode.world
    return {table: world.row_values(table) for table in world.toolkit.table_names() if not table.startswith("prove_")}


def gold_changes(task: Task) -> tuple[dict[str, dict], set[tuple[str, str]]]:
    """The start world's rows, and the (table, row) pairs the gold calls change."""
    episode = Episode(task.server)
    try:
        run_sync(episode.begin(task))
        before = rows(episode)
        for name, arguments in gold_calls(task):
            run_sync(episode.call(ParsedCall(name, dict(arguments))))
        return before, changed_rows(before, rows(episode))
    finally:
        episode.close()


# -- changes nobody asked for ---------------------------------------------------------------------


@pytest.mark.parametrize("server", server_names())
def test_a_write_of_another_task_on_an_untouched_row_fails(server, sample):
    toolkit = get_toolkit(server)
    writes = [t for t in sample[server] if t.gold_calls and not t.missing_tool and run_sync(replay(t)).gold_digest != t.start_digest]
    # writes of the user's data: moving about the session (`cd`) changes the episode's own state
    others = [(t, g) for t in sample[server] for g in t.gold_calls
              if not toolkit.specs()[g.name].read_only and not _moves_the_session(toolkit.specs()[g.name])]
    tried = 0
    for task in writes:
        before, by_gold = gold_changes(task)
        for other, call in others:
            if other.seed != task.seed or other.id == task.id:
                continue
            success, episode = play(task, gold_calls(task) + [(call.name, call.arguments)], _gold_answer(task))
            try:
                if not episode.calls[-1].ok:
                    continue
                extra = changed_rows(before, rows(episode)) - by_gold
                if not extra:
                    continue
                tried += 1
                detail = any(table in toolkit.details() for table, _ in extra)
                STATS["collateral probes" + (" on tables with details" if detail else "")] += 1
                assert not success, (f"{task.id}: gold plus {call.name}({call.arguments}) of {other.id} changes rows "
                                     f"the task never touches ({sorted(extra)[:3]}) and still succeeds")
            finally:
                episode.close()
            break
    assert tried or not writes or not others, f"{server}: no write of another task could be played after a gold"


def _moves_the_session(spec) -> bool:
    return bool(spec.details) and all(d.anywhere for d in spec.details)


def test_a_detail_changed_on_an_untouched_row_is_collateral_damage(sample):
    """The classes the probe found: a declared detail column (an event's description, a channel's
    topic, an expense's note) changed on an entity the task never touches."""
    probes = 0
    for server, tasks in sample.items():
        toolkit = get_toolkit(server)
        detail_tools = {s.name for s in toolkit.specs().values()
                        if any(not d.anywhere for d in s.details) and not s.hidden}
        for task in tasks:
            if task.missing_tool or run_sync(replay(task)).gold_digest == task.start_digest:
                continue
            before, by_gold = gold_changes(task)
            for other in tasks:
                if other.seed != task.seed or other.id == task.id:
                    continue
                for call in (g for g in other.gold_calls if g.name in detail_tools):
                    success, episode = play(task, gold_calls(task) + [(call.name, call.arguments)], _gold_answer(task))
                    try:
                        if not (episode.calls[-1].ok and changed_rows(before, rows(episode)) - by_gold):
                            continue  # refused, or nothing changed beyond the gold (a replayed idempotency key)
                    finally:
                        episode.close()
                    probes += 1
                    assert not success, f"{task.id}: gold plus {call.name} of {other.id} still succeeds"
    STATS["detail probes"] += probes
    assert probes >= 5


# -- facts matched as facts ---------------------------------------------------------------------


def _gold_answer(task: Task) -> str:
    from prove_env.facts import say

    return say([f for turn in (task.facts or []) for f in turn])


# a measure in another unit of its kind, and the factor to it
_OTHER_UNIT = {"km": ("m", 1000), "m": ("ft", 1 / 0.3048), "mi": ("km", 1.609344), "ft": ("m", 0.3048),
               "min": ("seconds", 60), "h": ("minutes", 60), "mph": ("km/h", 1.609344)}


def render(fact: Any, other: bool = False) -> str:
    """A fact in another accepted format than the one recorded; with `other`, a different value."""
    if isinstance(fact, bool):
        return str(fact)
    if isinstance(fact, dict) and "one_of" in fact:
        last = fact["one_of"][-1]
        if other and isinstance(last, str) and render(last) == "  " + last.upper().replace(" ", "  ") + " ":
            return "qz" + last  # a word that is none of the options (one may be the start of another: 'Linde plc')
        return render(last, other)
    if isinstance(fact, dict):
        value = fact["quantity"] * (1.5 if other else 1) + (1 if other else 0)
        unit, factor = _OTHER_UNIT.get(fact["unit"], (fact["unit"], None))
        if factor is None:
            return f"{value:,} {fact['unit']}"
        return f"{value * factor:,.4f} {unit}"
    if isinstance(fact, int):
        return f"{fact + 1 if other else fact:,}"
    if isinstance(fact, float):
        value = fact + 1 if other else fact
        return f"${value:,.2f}" if value >= 0 else f"-${-value:,.2f}"
    text = str(fact)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?", text):
        moment = dt.datetime.fromisoformat(text) + (dt.timedelta(days=1) if other else dt.timedelta())
        return f"{moment:%B} {moment.day}, {moment.year} at {moment.hour % 12 or 12}:{moment:%M} {'PM' if moment.hour >= 12 else 'AM'}"
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        day = dt.date.fromisoformat(text) + (dt.timedelta(days=1) if other else dt.timedelta())
        return f"{day.month}/{day.day}/{day.year}"
    if re.fullmatch(r"\d{2}:\d{2}", text):
        hour, minute = int(text[:2]), int(text[3:])
        hour = (hour + 1) % 24 if other else hour
        return f"{hour % 12 or 12}:{minute:02d} {'p.m.' if hour >= 12 else 'a.m.'}"
    if re.fullmatch(r"-?\d+(\.\d+)?", text):
        return render(float(text) if "." in text else int(text), other)
    return text + "qz" if other else "  " + text.upper().replace(" ", "  ") + " "


# Pleasantries that hold the words of a zero, an absence or a free slot: they state no fact.
PLEASANTRIES = "No problem! Nothing went wrong, no worries, and feel free to ask; nothing else to add. "


def _with_facts(task: Task) -> list[Any]:
    return [f for turn in (task.facts or []) for f in turn]


@pytest.mark.parametrize("server", server_names())
def test_facts_in_other_formats_pass_and_a_missing_or_wrong_fact_fails(server, sample):
    from prove_env.facts import stated

    reads = [t for t in sample[server] if _with_facts(t) and not t.abstain]
    for task in reads:
        facts = _with_facts(task)
        checked = [f for f in facts if not isinstance(f, bool)]
        answer = "; ".join(render(f) for f in facts)
        success, episode = play(task, gold_calls(task), answer)
        episode.close()
        assert success, f"{task.id}: facts {facts} answered as {answer!r} fail"
        STATS["facts in another format"] += len(checked)
        for i, fact in enumerate(facts):
            if isinstance(fact, bool):
                continue
            rest = [render(f) for j, f in enumerate(facts) if j != i]
            if stated(fact, "; ".join(rest)):
                STATS["facts stated by the others too (not probed)"] += 1
                continue
            for variant, words in (("left out", rest), ("changed", rest + [render(fact, other=True)])):
                success, episode = play(task, gold_calls(task), "; ".join(words))
                episode.close()
                STATS[f"facts {variant}"] += 1
                assert not success, f"{task.id}: fact {fact!r} {variant} ({'; '.join(words)!r}) still succeeds"


def _spread(fact: Any) -> list[Any] | None:
    """Values around a number, a day or a measure fact, the fact among them (a guess that names its
    neighbours; a measure's at the rounding it is recorded to); None for other facts."""
    plain = fact["one_of"][0] if isinstance(fact, dict) and "one_of" in fact else fact
    if isinstance(plain, dict) and "quantity" in plain:
        places = plain.get("places", _decimals(plain["quantity"]))
        return [quantity(round(plain["quantity"] + k * 10.0 ** -places, places), plain["unit"], places)
                for k in (-2, -1, 0, 1, 2) if plain["unit"] in ("F", "C") or plain["quantity"] + k * 10.0 ** -places >= 0]
    if isinstance(plain, bool) or isinstance(plain, dict):
        return None
    if isinstance(plain, int):
        return [plain + k for k in (-2, -1, 0, 1, 2) if plain + k >= 0]
    if isinstance(plain, float):
        return [round(plain + k * 0.01, 2) for k in (-2, -1, 0, 1, 2)]
    if isinstance(plain, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", plain):
        day = dt.date.fromisoformat(plain)
        return [(day + dt.timedelta(days=k)).isoformat() for k in (-2, -1, 0, 1, 2)]
    return None


def _said(value: Any) -> str:
    """A value of a guess as an answer writes it: a measure in its own unit and rounding."""
    if isinstance(value, dict) and "quantity" in value:
        return f"{value['quantity']:.{value.get('places', 0)}f} {value['unit']}"
    return render(value)


def _value(value: Any) -> Any:
    return value["quantity"] if isinstance(value, dict) and "quantity" in value else value


def _far_apart(fact: Any) -> tuple[list[str], str] | None:
    """A run of values three steps apart that holds a number, a measure, a day or a time fact, with
    nothing to tell them apart ('1, 4, 7, 10', '88, 95, 102, 109 min', 'Oct 23, Oct 26, Oct 29', '1:30
    pm, 2:30 pm, 3:30 pm'): its values, each said on its own, and the run as said; None for other facts."""
    plain = fact["one_of"][0] if isinstance(fact, dict) and "one_of" in fact else fact
    if isinstance(plain, dict) and "quantity" in plain:
        places = plain.get("places", _decimals(plain["quantity"]))
        run = [round(plain["quantity"] + k * 3 * 10.0 ** -places, places) for k in (-1, 0, 1, 2)]
        if plain["unit"] not in ("F", "C"):
            run = [v for v in run if v >= 0]
        items = [f"{v:.{places}f}" for v in run]
        return [f"{item} {plain['unit']}" for item in items], ", ".join(items) + f" {plain['unit']}"
    if isinstance(plain, int | float) and not isinstance(plain, bool):
        items = [f"{v:,}" if isinstance(v, int) else f"{v:,.2f}" for v in (plain - 3, plain, plain + 3, plain + 6) if v >= 0]
        return items, ", ".join(items)
    text = str(plain)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        days = [dt.date.fromisoformat(text) + dt.timedelta(days=3 * k) for k in (-1, 0, 1, 2)]
        items = [f"{day:%b} {day.day}" for day in days]
        return items, ", ".join(items)
    if re.fullmatch(r"\d{2}:\d{2}", text) or re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?", text):
        moment = dt.datetime.fromisoformat(text if "T" in text else f"2026-01-01T{text}")
        times = [moment + dt.timedelta(minutes=30 * k) for k in (-1, 0, 1, 2)]
        clock = [f"{t.hour % 12 or 12}:{t:%M} {'pm' if t.hour >= 12 else 'am'}" for t in times]
        if "T" not in text:
            return clock, ", ".join(clock)
        items = [f"{t:%b} {t.day} at {c}" for t, c in zip(times, clock)]
        return items, "; ".join(items)
    return None


def _listings(task: Task) -> frozenset[float]:
    """The numbers of the listings `task`'s facts come from, in its gold results (`prove_env.facts.listed`)."""
    return listed(task.facts, [r.output for r in run_sync(replay(task)).records])


def _number(text: str) -> float | None:
    found = re.fullmatch(r"-?\$?([\d,]+(?:\.\d+)?)", text.strip())
    return float(found[1].replace(",", "")) if found else None


@pytest.mark.parametrize("server", server_names())
def test_a_full_listing_beyond_the_facts_succeeds(server, sample):
    """The facts keep the first few values of a listing (the totals of five orders of seven): an
    answer that states them and then every value of that listing, in one run with nothing between
    them, names what the results hold, which is no guess, and succeeds."""
    for task in [t for t in sample[server] if _with_facts(t) and not t.abstain]:
        facts = _with_facts(task)
        told = {_key(v) for f in facts for v in (f.get("one_of", [f]) if isinstance(f, dict) else [f])
                if isinstance(v, int | float) and not isinstance(v, bool)}
        more = sorted(_listings(task) - told)
        if not more:
            continue
        run = ", ".join(f"{n:g}" for n in sorted(told | set(more)) if n >= 0)
        success, episode = play(task, gold_calls(task), "; ".join([render(f) for f in facts] + [run]))
        episode.close()
        STATS["full listings beyond the facts"] += 1
        assert success, f"{task.id}: the listing {run!r} beyond the facts {facts!r} fails"


@pytest.mark.parametrize("server", server_names())
def test_a_pleasantry_states_no_fact(server, sample):
    """'No problem! Nothing went wrong ...' holds the words that say a zero ('no', 'nothing'), an
    absence or a free slot ('free'), but says nothing of the world: it states no fact of any task
    (a long run on a large sample: PROVE_SUCCESS_SAMPLE)."""
    from prove_env.facts import facts_stated, values

    for task in [t for t in sample[server] if _with_facts(t)]:
        for fact in _with_facts(task):
            if isinstance(fact, bool):
                continue
            words = [v for v in values(fact) if isinstance(v, str) and re.search(
                rf"(?<!\w){re.escape(v)}(?!\w)", PLEASANTRIES, re.I)]
            STATS["facts with a word a pleasantry holds"] += bool(words)
            assert not facts_stated([[fact]], [PLEASANTRIES]), (task.id, fact)


@pytest.mark.parametrize("server", server_names())
def test_a_guess_that_names_a_facts_neighbours_fails(server, sample):
    """Every fact stated, but a number or a day among the values around it ('4, 5, 6', 'Oct 28,
    29 or 30'): a guess, which fails, unless those values are facts of the task themselves."""
    from prove_env.facts import stated, values

    reads = [t for t in sample[server] if _with_facts(t) and not t.abstain]
    for task in reads:
        facts = _with_facts(task)
        known = {_key(v) for f in facts for v in values(f)} | _listings(task)
        for i, fact in enumerate(facts):
            spread = _spread(fact)
            plain = fact["one_of"][0] if isinstance(fact, dict) and "one_of" in fact else fact
            if spread is None or any(_key(_value(v)) in known for v in spread if v != plain):
                continue
            if all(stated(fact, _said(v)) for v in spread):
                continue  # each value states it at a rounding the task accepts ('1236 m' is 1.2 km)
            rest = [render(f) for j, f in enumerate(facts) if j != i]
            if stated(fact, "; ".join(rest)):
                continue  # the other facts state it too (two turns that both found nothing)
            words = rest + [", ".join(_said(v) for v in spread)]
            success, episode = play(task, gold_calls(task), "; ".join(words))
            episode.close()
            STATS["facts guessed among neighbours"] += 1
            assert not success, f"{task.id}: fact {fact!r} guessed among {spread} still succeeds"


@pytest.mark.parametrize("server", server_names())
def test_a_guess_that_names_values_far_apart_fails(server, sample):
    """Every fact stated, but a number, a measure, a day or a time only in a run of values far apart
    ('1, 4, 7, 10'; '88, 95, 102 min'; 'Oct 23, Oct 26, Oct 29'; '1:30 pm, 2:30 pm, 3:30 pm'), which
    tells none of them apart: a guess, which fails."""
    from prove_env.facts import stated

    reads = [t for t in sample[server] if _with_facts(t) and not t.abstain]
    for task in reads:
        facts = _with_facts(task)
        shown = _listings(task)
        for i, fact in enumerate(facts):
            guess = _far_apart(fact)
            if guess is None:
                continue
            alone, said = guess
            if any(_key(_number(one)) in shown for one in alone if _number(one) is not None):
                continue  # values of the listing the facts come from, which a full answer names: no guess
            rest = [render(f) for j, f in enumerate(facts) if j != i]
            others = [f for j, f in enumerate(facts) if j != i and not isinstance(f, bool)]
            if stated(fact, "; ".join(rest)) or any(stated(o, one) for one in alone for o in others):
                continue  # the other facts state it, or sit in the run themselves
            if sum(stated(fact, one) for one in alone) > 1:
                continue  # two values state it at a rounding the task accepts ('1235 m', '1241 m' are 1.2 km)
            success, episode = play(task, gold_calls(task), "; ".join(rest + [said]))
            episode.close()
            STATS["facts guessed among values far apart"] += 1
            assert not success, f"{task.id}: fact {fact!r} guessed in {said!r} still succeeds"


@pytest.mark.parametrize("server", server_names())
def test_a_guess_that_names_every_value_a_word_fact_may_take_fails(server, sample):
    """Every fact stated, but a word fact that is one of the values a tool argument takes (a
    status) said among all its other values: a guess, which fails."""
    from prove_env.episode import choices
    from prove_env.facts import stated, values

    options = choices(get_toolkit(server))
    for task in [t for t in sample[server] if _with_facts(t) and not t.abstain]:
        facts = _with_facts(task)
        known = {str(v).casefold() for f in facts for v in values(f)}
        for i, fact in enumerate(facts):
            word = fact["one_of"][0] if isinstance(fact, dict) and "one_of" in fact else fact
            if not isinstance(word, str):
                continue
            for choice in options:
                if word not in choice or len(choice - {word}) < 2 or {o.casefold() for o in choice - {word}} & known:
                    continue
                rest = [render(f) for j, f in enumerate(facts) if j != i]
                if stated(fact, "; ".join(rest)):
                    continue
                words = rest + [", ".join(sorted(choice))]
                success, episode = play(task, gold_calls(task), "; ".join(words))
                episode.close()
                STATS["word facts guessed among their values"] += 1
                assert not success, f"{task.id}: fact {fact!r} guessed among {sorted(choice)} still succeeds"


@pytest.mark.parametrize("server", server_names())
def test_every_task_can_judge_its_outcome(server, sample):
    """A task whose gold only reads is judged on the facts of its answer: it records some."""
    specs = get_toolkit(server).specs()
    for task in sample[server]:
        if task.gold_calls and all(specs[g.name].read_only for g in task.gold_calls):
            assert _with_facts(task), f"{task.id} only reads and records no fact: its outcome cannot be judged"


# -- gold chains that are right ------------------------------------------------------------------


@pytest.mark.parametrize("server", server_names())
def test_every_gold_read_feeds_a_later_call_or_tells_a_fact(server, sample):
    """A look-up nobody uses costs an agent that skips it coverage: the gold has none."""
    from prove_env.facts import stated

    specs = get_toolkit(server).specs()
    for task in sample[server]:
        records = {r.id: r for r in run_sync(replay(task)).records}
        calls = task.gold_calls
        said = " ".join(task.user_turns).casefold()
        for turn, facts in zip(task.gold, task.facts or [[] for _ in task.gold], strict=True):
            for call in turn:
                if not specs[call.name].read_only:
                    continue
                output = records[call.id].output
                later = [str(v) for c in calls[calls.index(call) + 1:] for v in c.values()
                         if len(str(v)) > 1 and str(v).casefold() not in said]
                STATS["gold reads"] += 1
                # a fact may be read off a result rather than copied from it (a count of the reminders
                # listed, 'no' for an empty list): the turn's last read tells the turn's facts
                last_read = call is [c for c in turn if specs[c.name].read_only][-1]
                tells = any(stated(f, output) for f in facts) or bool(facts and last_read)
                assert (tells or any(v in output for v in later)
                        or (later and re.search(r"\d{4}-\d{2}-\d{2}", output))), (
                    f"{task.id}: {call.name}({call.arguments}) feeds no later call and tells no fact")



def _depends(turn, later, earlier) -> bool:
    by_id = {c.id: c for c in turn}
    stack, seen = list(later.depends_on), set()
    while stack:
        d = stack.pop()
        if d == earlier.id:
            return True
        if d not in seen and d in by_id:
            seen.add(d)
            stack.extend(by_id[d].depends_on)
    return False


@pytest.mark.parametrize("server", server_names())
def test_free_text_the_user_gives_is_in_the_user_words(server, sample):
    """A note, memo, reason or description the gold writes (a tolerated detail the user stated) is
    the user's own words, so an agent that copies them reaches the gold state."""
    specs = get_toolkit(server).specs()
    for task in sample[server]:
        said = " ".join(" ".join(task.user_turns).split()).casefold()
        for call in task.gold_calls:
            for detail in specs[call.name].details:
                value = call.arguments.get(detail.column)
                chosen = "enum" in specs[call.name].parameters.get("properties", {}).get(detail.column, {})
                if (isinstance(value, str) and value.strip() and not detail.anywhere and detail.normalize is None
                        and not chosen):
                    STATS["free text in the gold"] += 1
                    assert " ".join(value.split()).casefold() in said, (
                        f"{task.id}: {call.name} writes {detail.column}={value!r}, which the user never said")


@pytest.mark.parametrize("server", server_names())
def test_every_order_the_gold_edges_allow_succeeds(server, sample):
    """Coverage accepts any order that keeps the gold's edges, so each such order must reach the
    task's outcome too: an ordering the world needs is an edge of the chain."""
    for task in sample[server]:
        for t, turn in enumerate(task.gold):
            for j in range(1, len(turn)):
                earlier, later = turn[j - 1], turn[j]
                if _depends(turn, later, earlier):
                    continue
                swapped = [c for turn_ in task.gold[:t] for c in turn_] + turn[:j - 1] + [later, earlier] + turn[j + 1:] \
                    + [c for turn_ in task.gold[t + 1:] for c in turn_]
                success, episode = play(task, [(c.name, c.arguments) for c in swapped], _gold_answer(task))
                episode.close()
                STATS["orders the edges allow"] += 1
                assert success, (f"{task.id}: {later.name} before {earlier.name} keeps every edge of the chain "
                                 "but fails the task: the order is missing from depends_on")


# -- abstention as the spec says -----------------------------------------------------------------


@pytest.mark.parametrize("server", server_names())
def test_an_abstention_may_look_before_declining(server, sample):
    toolkit = get_toolkit(server)
    abstentions = [t for t in sample[server] if not t.gold_calls]
    for task in abstentions:
        shown = {t["function"]["name"] for t in task.tools or []}
        looks = [s for s in toolkit.visible_specs() if s.read_only and s.name in shown and not s.required]
        if looks:
            success, episode = play(task, [(looks[0].name, {})], "I can't do that with the tools I have.")
            episode.close()
            assert success, f"{task.id}: a look-up with {looks[0].name} before declining fails"
            STATS["abstentions with a look-up"] += 1
        unshown = next((s.name for s in toolkit.visible_specs() if s.name not in shown), None)
        if unshown:
            success, episode = play(task, [(unshown, {})], "Done.")
            episode.close()
            assert not success, f"{task.id}: a call to {unshown}, which was not shown, still succeeds"


def teardown_module(module):
    if STATS:
        print(f"\nsuccess probes: {dict(sorted(STATS.items()))}")
