"""What a careful reader checks in every synthesized task, over a sample of every server (present and
future: the registry decides): the shown tools can be told apart by name, a missing-function task
hides no tool a shown one could stand in for, a value is held back only where a call that stays
needs it and has no default, an abstention is real, an order edge stands where something passes
along it, every fact is in a gold result and is what the words ask for (never the user's own
name), and the user's words greet and introduce once, at the start, ask nothing twice, put 'a' and
'an' where they belong and say every relative day so that it has one reading."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from collections.abc import Collection, Iterator
from typing import Any

import pytest

from prove_env.episode import replay
from prove_env.facts import ABSENT, stated, values
from prove_env.registry import get_toolkit, server_names
from prove_env.runtime import run_sync
from prove_env.synthesis.compose import Composer, Draft
from prove_env.synthesis.config import SynthConfig
from prove_env.synthesis.graph import dependency_graph
from prove_env.synthesis.perturb import shown_tools
from prove_env.synthesis.pipeline import synthesize
from prove_env.synthesis.recipe import Ask, Reader, get_recipe
from prove_env.synthesis.voice import _JOINERS, greets
from prove_env.synthesis.wording import article
from prove_env.task import Task, TaskError
from prove_env.world import worlds

from .stand_ins import fanned_out_counts, followed, holds, keyed_facts, parse, probes, run, scalars

SERVERS = server_names()
# every perturbation often, so that a sample of a few tasks a server meets each rule
STRESS = SynthConfig(tasks_per_world=8, info_levels=(0.4, 0.4, 0.2), missing_function_rate=0.4, irrelevant_rate=0.1,
                     hidden_rate=0.1, distractor_rate=0.8)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@pytest.fixture(scope="module")
def sample() -> list[Task]:
    result = synthesize(SERVERS, 16 * len(SERVERS), seed=7, config=STRESS, workers=1)
    return result.tasks("train") + result.tasks("test")


def _names(tools: list[dict[str, Any]]) -> list[str]:
    return [t["function"]["name"] for t in tools]


# -- the shown tools: one of each name -------------------------------------------------------------

def test_no_two_shown_tools_share_a_name(sample: list[Task]) -> None:
    for task in sample:
        names = _names(task.tools)
        assert len(names) == len(set(names)), (task.id, sorted(n for n in names if names.count(n) > 1))


@pytest.mark.parametrize("server", SERVERS)
def test_distractors_share_no_name_with_each_other_or_the_servers_tools(server: str) -> None:
    own = set(get_toolkit(server).specs())  # hidden tools included: one is never shown under their name
    for seed in range(30):
        tools, applied = shown_tools(server, random.Random(seed), distractor_rate=1.0, distractors=(8, 8),
                                     strip_enums_rate=0.0)
        names = _names(tools)
        assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
        assert not set(applied["distractors"]) & own


def test_a_task_listing_a_tool_twice_is_refused() -> None:
    schema = get_toolkit("banking").specs()["get_balance"].openai_schema()
    task = {"id": "t", "server": "banking", "seed": 0, "user_turns": ["Hi"], "gold": [[]], "abstain": True,
            "tools": [schema, schema]}
    with pytest.raises(TaskError, match="'tools' lists the tool 'get_balance' twice"):
        Task.parse(task)


# -- missing-function tasks: no stand-in shown -----------------------------------------------------

def test_a_missing_tool_is_never_shown_with_a_declared_substitute(sample: list[Task]) -> None:
    missing = [t for t in sample if t.missing_tool]
    assert missing
    for task in missing:
        substitutes = get_recipe(task.server).substitutes_of(task.missing_tool)
        assert not substitutes & set(_names(task.tools)), (task.id, task.missing_tool, substitutes)


@pytest.fixture(scope="module")
def missing_drafts() -> list[tuple[str, int, Draft]]:
    """Drafts of missing-function tasks (before the gates) from two worlds of every server."""
    config = SynthConfig(missing_function_rate=1.0, irrelevant_rate=0.0, hidden_rate=0.0, info_levels=(0.5, 0.5, 0.0),
                         distractor_rate=0.0)
    drafts = []
    for server in SERVERS:
        toolkit, recipe = get_toolkit(server), get_recipe(server)
        for seed in (0, 1):
            world = worlds.create(toolkit, seed)
            rng = random.Random(f"missing {server} {seed}")
            bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
            world.close()
            composer = Composer(recipe, dependency_graph(server), bundles, config, rng)
            found = [d for d in (composer.draft() for _ in range(120)) if d is not None and d.missing_call is not None]
            drafts += [(server, seed, d) for d in found[:12]]
    return drafts


def _listed(arguments: dict[str, Any], kind: str, spec: Any) -> list[Any]:
    """The ids of `kind` that `arguments` of a call of `spec` pass."""
    found = []
    for param, of, many in spec.ids:
        value = arguments.get(param)
        if of == kind and value is not None:
            found += value if many else [value]
    return found


def _telling(fact: Any, said: Collection[str] = ()) -> bool:
    """Whether a fact is a measure no coincidence gives: an amount with cents, a number of 100 or
    more, or a path the call was not given (where a link leads). Names and titles turn up in any
    listing of their kind, and small counts in many a result, so other text answers' stand-ins are
    found by reading the tools, and declared."""
    if isinstance(fact, str):
        return "/" in fact.strip("/") and fact not in said
    return isinstance(fact, int | float) and not isinstance(fact, bool) and (abs(fact) >= 100 or fact != int(fact))


def _stand_ins(server: str, seed: int, draft: Draft) -> Iterator[tuple[str, str]]:
    """The shown tools that do the job of the draft's missing call in its world: a read whose
    result (or a look-up of the chain, or a listing followed by a read of each entry it lists)
    states what the call's result would have told the user, a write that leaves the world as the
    call does."""
    missing = draft.missing_call
    toolkit = get_toolkit(server)
    specs = toolkit.specs()
    source = specs[missing.name]
    shown = [specs[n] for n in _names(draft.tools) if n in specs and n != missing.name]
    world = worlds.create(toolkit, seed)
    tools = toolkit(world)
    earlier = draft.chain[:[c.id for c in draft.chain].index(missing.id)]
    looked_up = []
    for call in earlier:
        result = run(tools, call.name, call.arguments)
        if result is None:
            return  # the chain does not run in this world: a gate drops the draft
        looked_up.append((call.name, result))
    before = world.digest()
    trial = world.clone()
    result = run(toolkit(trial), missing.name, missing.arguments)
    after = trial.digest()
    trial.close()
    if result is None:
        return
    if source.read_only:
        if draft.missing_facts is None:
            return
        said = {str(v) for v in missing.arguments.values()}
        facts = keyed_facts(result, [f for f in draft.missing_facts(result) if _telling(f, said)])
        if not facts or not missing.arguments:
            return
        names = {s.name for s in shown}
        ids = [str(v) for _, kind, _ in source.ids for v in _listed(missing.arguments, kind, source)]
        if not ids and not any(v.startswith("/") for v in said):
            return  # nothing to tell what a result says about the call's entities from what it says of others
        # a file tool's result is about the path it is given (a resolved path names no other): the
        # probes pass the call's path, and the whole result counts
        for name, output in looked_up:  # what the chain's own calls found out about the same entities
            if name in names and specs[name].read_only and holds(output, facts, about=ids):
                yield name, f"the chain's own look-up states {[f for f, _ in facts]}"
        reads = [s for s in shown if s.read_only]
        for spec in reads:
            for arguments in probes(spec, source, missing.arguments, anchored=True):
                output = run(tools, spec.name, arguments)
                if output is not None and holds(output, facts, about=ids):
                    yield spec.name, f"{spec.name}({arguments}) states {[f for f, _ in facts]}"
                    break
                told = next((per for per, told in followed(tools, output, reads) if holds(told, facts, about=ids)),
                            None) if output is not None else None
                if told is not None:  # the listing, then a read of each entry it lists
                    yield spec.name, f"{spec.name}({arguments}) then {told} of each states {[f for f, _ in facts]}"
                    break
    elif after != before:
        for spec in (s for s in shown if not s.read_only):
            for arguments in probes(spec, source, missing.arguments):
                trial = world.clone()
                done = run(toolkit(trial), spec.name, arguments) is not None and trial.digest() == after
                trial.close()
                if done:
                    yield spec.name, f"{spec.name}({arguments}) does {missing.name}({missing.arguments})"
                    break
    world.close()


def test_no_shown_tool_does_the_missing_tools_job(missing_drafts: list[tuple[str, int, Draft]]) -> None:
    assert {server for server, _, _ in missing_drafts} == set(SERVERS)
    found: dict[str, str] = {}
    for server, seed, draft in missing_drafts:
        for name, how in _stand_ins(server, seed, draft):
            found.setdefault(f"{server}: {draft.missing_tool} ~ {name}", how)
    assert not found, "shown tools do the missing tool's job; declare them substitutes in the recipe:\n" + \
        "\n".join(f"{pair}: {how}" for pair, how in sorted(found.items()))


@pytest.mark.parametrize("server", SERVERS)
def test_no_shown_listing_counts_what_a_count_request_asks(server: str) -> None:
    """'How many .js files are under projects?' with `count_files` missing and `find` shown: `find`
    given the request's own arguments lists the files, and its length is the count. A visible read
    whose result, called with the arguments it shares with a request that asks one count, is a list
    (or lines of text) as long as that count for nearly every such request tried (four in five, of
    three at least) does the counting tool's job: it is declared its substitute, so that the two
    are hidden together."""
    toolkit, recipe = get_toolkit(server), get_recipe(server)
    specs = toolkit.specs()
    visible = [s for s in toolkit.visible_specs() if s.read_only]
    tried: Counter[tuple[str, str]] = Counter()
    hit: Counter[tuple[str, str]] = Counter()
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"counts {server} {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        tools = toolkit(world)
        for goal in (g for g in recipe.goals if specs[g.tool].read_only):
            for _ in range(8):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None or ask.facts is None or ask.prior:
                    continue
                result = run(tools, goal.tool, ask.args)
                told = [] if result is None else _told(ask, result)
                if len(told) != 1 or type(told[0]) is not int:
                    continue
                for other in visible:
                    if other.name == goal.tool or other.name in recipe.substitutes_of(goal.tool):
                        continue
                    shared = {k: v for k, v in ask.args.items() if k in other.parameters.get("properties", {})}
                    if set(other.required) - set(shared) or (ask.args and not shared):
                        continue
                    output = run(tools, other.name, shared)
                    listed = (len(output) if isinstance(output, list)
                              else len([line for line in output.splitlines() if line.strip()])
                              if isinstance(output, str) else None)
                    tried[goal.tool, other.name] += 1
                    hit[goal.tool, other.name] += listed == told[0]
        world.close()
    found = [f"{tool} ~ {other} ({hit[tool, other]} of {n})" for (tool, other), n in tried.items()
             if n >= 3 and hit[tool, other] >= 0.8 * n]
    assert not found, "visible listings count what a count request asks; declare them substitutes:\n" + "\n".join(found)


def test_a_missing_tool_takes_no_step_the_user_asked_for_before_it(missing_drafts: list[tuple[str, int, Draft]]
                                                                  ) -> None:
    """'Back up the folder, then unpack a copy' with the unpacking tool missing: the backup is a step
    the user asked for, which a shown tool does, so doing it and declining the rest would be as right
    as declining it all. Such a request is never the one left out: every write the chain needed and
    the gold leaves out depends on the missing call."""
    problems = []
    for server, _, draft in missing_drafts:
        specs = get_toolkit(server).specs()
        kept = {c.id for c in draft.calls}
        after = {draft.missing_call.id}
        for call in draft.chain:
            if after & set(call.depends_on):
                after.add(call.id)
        for call in draft.chain:
            if not specs[call.name].read_only and call.id not in kept and call.id not in after:
                problems.append(f"{server}: {call.name} left out with the missing {draft.missing_tool}: "
                                f"{draft.user_turns!r}")
    assert not problems, "\n".join(problems)


def test_a_value_is_held_back_only_for_a_call_the_gold_keeps(missing_drafts: list[tuple[str, int, Draft]],
                                                            sample: list[Task]) -> None:
    held = [d for _, _, d in missing_drafts if d.held_for is not None]
    assert held
    for draft in held:
        assert draft.held_for in {c.id for c in draft.calls}, (draft.missing_tool, draft.user_turns)
    for task in sample:  # the turn that gives a held-back value has calls to take it
        for turn, (calls, following) in enumerate(zip(task.gold, task.gold[1:])):
            assert calls or following, (task.id, turn)


_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
                 10: "ten"}


def _forms(value: Any) -> list[str]:
    """The ways a request says a value: as written, a whole float without its '.0', a small count in
    words ('Two of them.'), an amount of money ('$5', '$5.00'), and meters in kilometers ('1 km',
    'half a kilometer')."""
    forms = [str(value)]
    if isinstance(value, bool) or not isinstance(value, int | float):
        return forms
    if float(value).is_integer():
        forms.append(str(int(value)))
        forms += [_NUMBER_WORDS[int(value)]] if int(value) in _NUMBER_WORDS else []
        if value >= 100 and value % 100 == 0:
            forms += [f"{value / 1000:g} km"] + (["half a kilometer"] if value == 500 else [])
    return forms + [f"${value:,.2f}", f"${value:g}"]


def _says(text: str, value: Any) -> bool:
    return any(re.search(rf"(?<![\w.:/-]){re.escape(form)}(?!\w|\.\d|:\d)", text, re.IGNORECASE) is not None
               for form in _forms(value))


def _defaulted(prop: dict[str, Any]) -> bool:
    """Whether a parameter has a default an assistant may rightly use (not an empty one)."""
    return prop.get("default") not in (None, "", [], {})


@pytest.mark.parametrize("server", SERVERS)
def test_no_value_with_a_default_is_held_back(server: str) -> None:
    """A request that holds a value back (the assistant must ask for it) holds back a value the
    call cannot do without: never only values of parameters with a default, which an assistant may
    rightly leave to it (`relist_listing` runs 7 days unless told otherwise)."""
    toolkit, recipe = get_toolkit(server), get_recipe(server)
    specs = toolkit.specs()
    problems = set()
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        rng = random.Random(seed)
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        world.close()
        for _ in range(8):
            for bundle in bundles[:6]:
                for goal in recipe.goals:
                    ask = goal.build(bundle, rng)
                    if ask is None or ask.detail is None:
                        continue
                    properties = specs[goal.tool].parameters.get("properties", {})
                    ids = {param for param, _, _ in specs[goal.tool].ids}
                    plain = {k: v for k, v in ask.args.items() if not isinstance(v, bool) and k in properties}
                    # a defaulted value the request does not say is held back, however the detail says
                    # it ('Over the past week, please.' for hours=168)
                    held = [k for k, v in plain.items() if _defaulted(properties[k]) and not _says(ask.say, v)]
                    others = [k for k in plain if k not in held and k not in ids and not _defaulted(properties[k])]
                    if held and all(_says(ask.say, plain[k]) for k in others):  # nothing else is held back
                        problems.add(f"{goal.tool}: {ask.say!r} holds back only {held}, in {ask.detail!r}")
    assert not problems, "\n".join(sorted(problems))


# -- abstentions: nothing shown answers them ---------------------------------------------------------

def _ids(bundle: Any, kind: str) -> list[str]:
    found, stack = set(), [bundle]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get(f"{kind}_id"), str):
                found.add(value[f"{kind}_id"])
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
    return sorted(found)


def _hidden_calls(spec: Any, bundle: Any) -> list[dict[str, Any]]:
    """Calls of a hidden tool about the entities of a bundle (its id parameters), with each value of
    its enums; none when another required parameter needs a value."""
    choices = []
    kinds = {param: kind for param, kind, _ in spec.ids}
    for name, prop in spec.parameters.get("properties", {}).items():
        if name in kinds:
            choices.append([(name, v) for v in _ids(bundle, kinds[name])[:2]])
        elif "enum" in prop:
            choices.append([(name, v) for v in prop["enum"][:2]])
        elif name in spec.required:
            return []
    combos = [dict(c) for c in itertools.product(*choices)] if choices else [{}]
    return combos[:4]


def _leaves(value: Any) -> Iterator[Any]:
    return (v for v in scalars(value) if v is not None and not isinstance(v, bool))


@pytest.mark.parametrize("server", SERVERS)
def test_a_hidden_tool_request_is_not_served_by_a_shown_tool(server: str) -> None:
    """What a hidden-tool request asks for (`HiddenAsk.facts` of the hidden tool's result, or, when
    it does not say, any part of it) is given by no visible read-only tool called with any enum
    value, flag, largest page or id the request concerns, in every world tried (a list's length
    counts as a count), nor by such a listing followed by a read of each entry it lists, nor, for a
    count, by listing every owner and adding up each owner's list;
    no visible write tool does what a hidden write tool does."""
    toolkit, recipe = get_toolkit(server), get_recipe(server)
    specs = toolkit.specs()
    reads = [s for s in toolkit.visible_specs() if s.read_only]
    writes = [s for s in toolkit.visible_specs() if not s.read_only]
    problems = set()
    for hidden in recipe.hidden:
        spec = specs[hidden.tool]
        answered: dict[tuple, set[int]] = {}
        asked: set[int] = set()
        for seed in (0, 1, 2):
            world = worlds.create(toolkit, seed)
            bundles = recipe.sample(Reader(toolkit, world), world.now, random.Random(seed))
            tools = toolkit(world)
            for call in _hidden_calls(spec, bundles[0]):
                if spec.read_only:
                    result = run(tools, hidden.tool, call)
                    if result is None:
                        continue
                    echo = {str(v) for v in call.values()}
                    if hidden.facts:  # what the request asks for
                        questions = {"what it asks": keyed_facts(result, list(hidden.facts(result)))}
                    else:  # any part of the result it may ask for
                        questions = {"/".join(sorted(keys)) or str(i): [(fact, keys)] for i, (fact, keys) in
                                     enumerate(keyed_facts(result, [v for v in _leaves(result) if str(v) not in echo]))
                                     if i < 40}
                    if not any(questions.values()):
                        continue
                    asked.add(seed)
                    counts = [f for f, _ in questions.get("what it asks", []) if type(f) is int]
                    if counts and len(counts) == len(questions["what it asks"]) and len(set(counts)) == 1:
                        for pair, arguments, total in fanned_out_counts(tools, reads):
                            if total == counts[0]:
                                shape = tuple(sorted((k, str(v)) for k, v in arguments.items()))
                                answered.setdefault((pair, shape, "what it asks"), set()).add(seed)
                    for other in reads:
                        for arguments in probes(other, spec, call):
                            output = run(tools, other.name, arguments)
                            if output is None:
                                continue
                            shape = tuple(sorted((k, "<asked>" if v in call.values() else str(v))
                                                 for k, v in arguments.items()))
                            for question, keyed in questions.items():
                                if keyed and holds(output, keyed, limit=arguments.get("limit"), counts=True):
                                    answered.setdefault((other.name, shape, question), set()).add(seed)
                            for per, told in followed(tools, output, reads):  # the listing, then each entry
                                for question, keyed in questions.items():
                                    if keyed and holds(told, keyed):
                                        answered.setdefault((f"{other.name} then {per}", shape, question),
                                                            set()).add(seed)
                else:
                    trial = world.clone()
                    changed = run(toolkit(trial), hidden.tool, call) is not None
                    after = trial.digest()
                    trial.close()
                    if not changed or after == world.digest():
                        continue
                    for other in writes:
                        for arguments in probes(other, spec, call):
                            trial = world.clone()
                            if run(toolkit(trial), other.name, arguments) is not None and trial.digest() == after:
                                problems.add(f"{other.name}({arguments}) does what {hidden.tool}({call}) does")
                            trial.close()
            world.close()
        for (name, shape, question), seeds in answered.items():
            if len(asked) >= 2 and seeds >= asked:
                problems.add(f"{name}{dict(shape)} answers {question!r} of {hidden.tool}, in every world tried")
    assert not problems, "\n".join(sorted(problems))


def test_an_irrelevant_request_shows_no_tool_of_a_server_that_serves_it(sample: list[Task]) -> None:
    irrelevant = [t for t in sample if "irrelevant" in t.metadata.get("perturbations", [])]
    assert irrelevant
    for task in irrelevant:
        topic = task.metadata["irrelevant_topic"]
        assert topic not in get_recipe(task.server).topics
        for tool in task.tools:
            function = tool["function"]
            serving = [s for s in SERVERS if topic in get_recipe(s).topics
                       and function["name"] in get_toolkit(s).specs()
                       and get_toolkit(s).specs()[function["name"]].description == function["description"]]
            assert not serving, (task.id, topic, function["name"], serving)


# -- dependency edges: something passes along each -------------------------------------------------

def _carries(output: str, call: Any) -> bool:
    for value in call.values():
        text = str(value)
        if len(text) >= 2 and (text in output or (_ISO_DATE.match(text) and _ISO_DATE.search(output))):
            return True
    return False


def test_no_read_carries_an_optional_argument_that_changes_nothing(sample: list[Task]) -> None:
    """A gold read passes no optional argument it answers the same without where it stands in the
    gold, on the task's start world with the gold's writes before it ('list_alerts(status="active")'
    for a client whose alerts are all active; a place searched by name and city after a charge limit
    was set, where the name alone finds it): an agent that leaves it out would find the same and
    must match the call. Ids (the user named the entity) and held-back values (the assistant asked
    for them) stay, and the two bounds of a range are left out together or not at all (a day's
    search keeps its start though nothing was sent before it)."""
    from prove_env.episode import build_world
    from prove_env.synthesis.verify import _idle_candidates

    problems, checked = [], 0
    for task in sample:
        toolkit = get_toolkit(task.server)
        specs = toolkit.specs()
        tools = None
        for call in task.gold_calls:
            ids = {param for param, _, _ in specs[call.name].ids}
            optional = [k for k in call.arguments if k not in specs[call.name].required and k not in ids]
            tools = tools or toolkit(build_world(toolkit, task))
            answer = run(tools, call.name, dict(call.arguments))
            if not specs[call.name].read_only or call.id == task.metadata.get("held_for"):
                continue  # a write moves the world on; the user was asked for a held-back value
            for keys in _idle_candidates(optional):
                checked += 1
                fewer = {k: v for k, v in call.arguments.items() if k not in keys}
                if answer is not None and run(tools, call.name, fewer) == answer:
                    problems.append(f"{task.id}: {call.name} answers the same without "
                                    f"{', '.join(f'{k}={call.arguments[k]!r}' for k in keys)}")
        if tools is not None:
            tools.world.close()
    assert checked
    assert not problems, "\n".join(problems)


def test_no_gold_call_passes_a_parameters_default(sample: list[Task]) -> None:
    """A gold call leaves out an argument whose value is its parameter's default ('quantity=1' for "a
    salmon nigiri"): coverage needs every key of the gold call, so the natural call that leaves the
    default to the tool would match nothing, while a model that passes it still matches a gold
    without it. The call a held-back value is for keeps one the user's reply says (the assistant
    asked for it), never one said before ("It's just me" with the dates held back)."""
    from prove_env.facts import stated

    problems, checked = [], 0
    for task in sample:
        specs = get_toolkit(task.server).specs()
        held = task.metadata.get("held_for")
        reply = next((said for said, turn in zip(task.user_turns, task.gold) if any(c.id == held for c in turn)), "")
        for call in task.gold_calls:
            properties = specs[call.name].parameters.get("properties", {})
            for key, value in call.arguments.items():
                default = properties.get(key, {}).get("default")
                if default is None or (call.id == held and stated(value, reply)):
                    continue
                checked += 1
                if json.dumps(value, sort_keys=True) == json.dumps(default, sort_keys=True):
                    problems.append(f"{task.id}: {call.name} passes {key}={value!r}, its default")
    assert checked
    assert not problems, "\n".join(problems)


def test_a_greeting_names_the_part_of_the_day_the_worlds_clock_is_in(sample: list[Task]) -> None:
    """'Good morning, it's Adam Bryant.' is not said when the world's clock reads 15:45."""
    from prove_env.world import worlds

    parts = re.compile(r"\bgood (morning|afternoon|evening)\b|^(morning|afternoon|evening)\b", re.I)
    problems, greeted = [], 0
    for task in sample:
        found = parts.search(task.user_turns[0])
        if not found:
            continue
        greeted += 1
        world = worlds.create(get_toolkit(task.server), task.seed)
        now = world.now
        world.close()
        part = "morning" if now.hour < 12 else "afternoon" if now.hour < 18 else "evening"
        if (found[1] or found[2]).lower() != part:
            problems.append(f"{task.id} at {now:%H:%M}: {task.user_turns[0]!r}")
    assert greeted
    assert not problems, "\n".join(problems)


_ENTITY_ID = re.compile(r"[A-Z]{2,5}-\d{2,6}")
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")


def test_every_id_and_name_a_gold_call_takes_was_given(sample: list[Task]) -> None:
    """An entity id, a name or an e-mail address a gold call passes is one the user said (by the turn of the call) or an
    earlier gold result holds: never one that came from nowhere ('Add Lauren Martin to Orion' with the
    project's id passed and no look-up of it; a customer searched by a name the user never said)."""
    problems, checked = [], 0
    for task in sample:
        if not task.gold_calls:
            continue
        outputs = {r.id: r.output for r in run_sync(replay(task)).records}
        earlier: list[str] = []
        for turn, calls in enumerate(task.gold):
            said = " ".join(task.user_turns[: turn + 1]).casefold()
            for call in calls:
                for param, value in [(p, v) for p, vs in call.arguments.items()
                                     for v in (vs if isinstance(vs, list) else [vs])]:
                    if not isinstance(value, str) or not (_ENTITY_ID.fullmatch(value) or _ADDRESS.fullmatch(value)
                                                          or param == "name" and value[:1].isupper()):
                        continue  # a pattern ('*.txt') or a value made from the words is not an entity's
                    checked += 1
                    if value.casefold() not in said and not any(value in outputs[c] for c in earlier):
                        problems.append(f"{task.id}: {call.name} {param}={value!r} was never given")
                earlier.append(call.id)
    assert checked
    assert not problems, "\n".join(problems)


def test_every_dependency_edge_carries_data_or_an_effect(sample: list[Task]) -> None:
    """A gold call depends on another only when it takes a value of that call's result, or when,
    run ahead of it (after the calls it needs that lie between), a call fails, it answers
    otherwise or the world ends otherwise: an order nothing passes along drops an agent's
    coverage for nothing."""
    edges = 0
    problems = []
    for task in sample:
        if not task.gold_calls:
            continue
        reference = run_sync(replay(task))
        outputs = {r.id: r.output for r in reference.records}
        calls = task.gold_calls
        by_id = {c.id: c for c in calls}
        for target in calls:
            for source in target.depends_on:
                edges += 1
                if _carries(outputs[source], target):
                    continue
                order = [c.id for c in calls]
                needed, stack = set(), [d for d in target.depends_on if d != source]
                while stack:
                    d = stack.pop()
                    if d not in needed:
                        needed.add(d)
                        stack.extend(by_id[d].depends_on)
                if source in needed:
                    problems.append(f"{task.id}: {target.id} {target.name} needs {source} through another call "
                                    "and again directly, with no data")
                    continue
                start, end = order.index(source), order.index(target.id)
                moved = [i for i in order[start:end] if i in needed] + [target.id]
                trial = [by_id[i] for i in order[:start] + moved + [i for i in order[start:] if i not in moved]]
                swapped = run_sync(replay(task.model_copy(update={"gold": [trial]})))
                answer = next(r.output for r in swapped.records if r.id == target.id)
                if (not swapped.failures and answer == outputs[target.id]
                        and swapped.gold_digest == reference.gold_digest):
                    problems.append(f"{task.id}: {by_id[source].name} ({source}) -> {target.name} ({target.id}): "
                                    "no data, and the other order changes nothing")
    assert edges
    assert not problems, "\n".join(problems)


def test_a_read_that_tells_its_turn_nothing_sits_in_the_turn_that_first_uses_it(sample: list[Task]) -> None:
    """A gold read whose turn records no facts, and whose result only a later turn's call takes,
    belongs to that later turn: turn one of "Amanda here; move $40 to subscriptions", with that
    tool missing, is answered without looking Amanda up."""
    problems = []
    for task in sample:
        specs = get_toolkit(task.server).specs()
        turn_of = {c.id: i for i, turn in enumerate(task.gold) for c in turn}
        for i, turn in enumerate(task.gold):
            told = bool(task.facts and i < len(task.facts) and task.facts[i])
            for call in turn:
                users = [turn_of[c.id] for c in task.gold_calls if call.id in c.depends_on]
                if specs[call.name].read_only and not told and users and min(users) > i:
                    problems.append(f"{task.id}: {call.name} ({call.id}) in turn {i + 1}, first used in turn "
                                    f"{min(users) + 1}")
    assert not problems, "\n".join(problems)


# -- facts: what the question asks, found in the results ------------------------------------------

@pytest.fixture(scope="module")
def results(sample: list[Task]) -> dict[str, dict[str, Any]]:
    """Per task with facts, its gold calls' results (parsed), by call id."""
    found = {}
    for task in sample:
        if any(task.facts or []):
            found[task.id] = {r.id: parse(r.output) for r in run_sync(replay(task)).records}
    return found


def _lengths(value: Any) -> set[int]:
    found, stack = set(), [value]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            found.add(len(v))
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
    return found


def _found_in(fact: Any, result: Any) -> bool:
    """Whether a result holds a fact in some usual form: a value of it stated by one of its scalars
    (a cell of a line of text included), or, for a whole number, the length of a list it holds;
    `ABSENT` in a result whose `exists` or `found` flag is false."""
    if fact == ABSENT:
        return isinstance(result, dict) and any(result.get(k) is False for k in ("exists", "found"))
    for value in values(fact):
        for leaf in _leaves(result):
            text = str(leaf)
            if (isinstance(value, int | float) and isinstance(leaf, int | float) and abs(leaf - value) < 0.005) \
                    or stated(value, text) or str(value) in re.split(r"[,\t\n|]", text):
                return True
        if isinstance(value, int) and value in _lengths(result):
            return True
    return False


@pytest.fixture(scope="module")
def asks() -> list[tuple[str, str, Ask, Any]]:
    """Requests for every goal of every server (two dozen of each from two worlds' bundles: their
    wordings), the first few of each with the result of its serving call in that world (None when
    it asks nothing, was not run, or the call fails)."""
    found = []
    for server in SERVERS:
        toolkit, recipe = get_toolkit(server), get_recipe(server)
        for seed in (0, 1):
            world = worlds.create(toolkit, seed)
            rng = random.Random(f"asks {server} {seed}")
            bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
            for goal in recipe.goals:
                for number in range(24):
                    ask = goal.build(rng.choice(bundles), rng)
                    if ask is None:
                        continue
                    result = None
                    if ask.facts is not None and number < 4:
                        trial = world.clone()
                        tools = toolkit(trial)
                        if all(run(tools, name, arguments) is not None for name, arguments in ask.prior):
                            result = run(tools, goal.tool, ask.args)
                        trial.close()
                    found.append((server, goal.tool, ask, result))
            world.close()
    return found


def _told(ask: Ask, result: Any) -> list[Any]:
    try:
        return [f for f in ask.facts(result) if not isinstance(f, bool)]
    except (KeyError, IndexError, TypeError, ValueError):
        return []  # the gate drops such a draft ("no facts in the result")


def test_every_fact_is_found_in_a_gold_result(sample: list[Task], results: dict[str, dict[str, Any]],
                                              asks: list[tuple[str, str, Ask, Any]]) -> None:
    """A fact is a value the gold calls' results hold (in some usual form, or a count of a list they
    hold): one no tool gives cannot be asked of an assistant ('being prepared' for the status
    `preparing` is a choice of the two)."""
    problems = set()
    for task in sample:
        outputs = results.get(task.id)
        for turn, facts in enumerate(task.facts or []):
            for fact in facts:
                if not any(_found_in(fact, output) for output in outputs.values()):
                    problems.add(f"{task.id} turn {turn + 1}: {fact!r} is in no gold result")
    for server, tool, ask, result in asks:
        for fact in _told(ask, result) if result is not None else []:
            if not _found_in(fact, result):
                problems.add(f"{server} {tool}: {fact!r} is not in the result of {tool}({ask.args})")
    assert not problems, "\n".join(sorted(problems))


def test_every_gold_look_up_feeds_a_later_call_or_holds_a_fact(sample: list[Task],
                                                               results: dict[str, dict[str, Any]]) -> None:
    """A gold read that no later call depends on holds a fact of the task (a merchant looked up for a
    customer look-up that left the gold leaves it too): an agent that skips a useless call must not
    lose coverage."""
    specs = {server: get_toolkit(server).specs() for server in SERVERS}
    problems, checked = [], 0
    for task in sample:
        outputs = results.get(task.id)
        if outputs is None:
            continue
        calls = task.gold_calls
        used = {d for c in calls for d in c.depends_on}
        facts = [f for turn in task.facts or [] for f in turn]
        for call in calls:
            if not specs[task.server][call.name].read_only or call.id in used:
                continue
            checked += 1
            if not any(_found_in(f, outputs[call.id]) for f in facts):
                problems.append(f"{task.id}: {call.name}({call.arguments}) feeds no call and holds no fact")
    assert checked
    assert not problems, "\n".join(problems)


# What a question must say for a fact of a kind (the kind read off the keys the fact has in the result:
# every key of the fact of that kind), so that an answer to the words asked states the fact.
_FIELDS = {
    "a count": (re.compile(r"count|^total$|^unread$"), re.compile(
        r"how many|number|count|\bmany\b|total|tally|statistic|\bstats\b", re.IGNORECASE)),
    "a distance": (re.compile(r"distance|radius|range|_km$|_m$|_mi$|_miles$"), re.compile(
        r"\bfar\b|distance|\bkm\b|kilomet|mile|met(?:er|re)|\blong\b|radius|away|range|reach",
        re.IGNORECASE)),
    "a duration": (re.compile(r"duration|minutes|_min$|_hours$|_seconds$"), re.compile(
        r"\blong\b|time|minute|hour|take|duration|\beta\b|quick|fast|soon|length", re.IGNORECASE)),
    "a balance": (re.compile(r"balance"), re.compile(
        r"balance|left|\bhave\b|hold|much|money|fund|availab|remain|cash|owe", re.IGNORECASE)),
    "a status": (re.compile(r"^(?:status|state|stage)$"), re.compile(
        r"status|state|stage|where|update|track|progress|standing|overview", re.IGNORECASE)),
}


def _unasked(fact: Any, results: list[Any], words: str) -> list[str]:
    """The kinds of field a fact is (a count, a distance, ...) that `words` do not ask for. A status
    is asked for by its own word too ('has it shipped?' asks whether it is `shipped`, and is no
    question for `paid`). A fact with choices is asked for when one of them is."""
    if isinstance(fact, dict) and "one_of" in fact:
        unasked = [_unasked(choice, results, words) for choice in fact["one_of"]]
        return [] if any(not u for u in unasked) else unasked[0]
    keys = {k for r in results for v in values(fact) for _, found in keyed_facts(r, [v]) for k in found}
    kinds = [kind for kind, (key, _) in _FIELDS.items() if keys and all(key.search(k) for k in keys)]
    number = values(fact)[0]
    whole = isinstance(number, int) and not isinstance(number, bool)
    if not whole and "a count" in kinds:
        kinds.remove("a count")
    if whole and not keys and any(number in _lengths(r) for r in results):  # a count of what was listed
        kinds.append("a count")
    own = [str(v)[:4] for v in values(fact) if isinstance(v, str) and len(str(v)) >= 4]
    return [f"{kind} ({'/'.join(sorted(keys)) or 'a list'})" for kind in kinds if not _FIELDS[kind][1].search(words)
            and not (kind == "a status" and any(w.casefold() in words.casefold() for w in own))]


_QUESTION = re.compile(r"\?|\b(?:tell|let me know|show|list|give|what|which|how|who|when|where|read|remind|check|"
                       r"find|pull|walk me|look|see|print|count|compare|confirm|report|overview|summar|need|"
                       r"want to know|like to know)", re.IGNORECASE)


def _asked(task: Task, turn: int) -> str:
    """The words that ask for a turn's facts: the turn's, and those of the turns before it that
    waited for a value it gives."""
    first = turn
    while first > 0 and not task.gold[first - 1]:
        first -= 1
    return " ".join(task.user_turns[first:turn + 1])


def _entries_with(value: Any, ids: set[str]) -> Iterator[dict[str, Any]]:
    """The JSON objects inside a result that carry one of `ids` under an `*_id` key."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if any(k.endswith("_id") and v[k] in ids for k in v):
                yield v
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def test_no_read_repeats_what_an_earlier_result_shows_of_the_same_entity(sample: list[Task],
                                                                         results: dict[str, dict[str, Any]]) -> None:
    """A read of one entity (an `*_id` argument) is in the gold for the facts it tells or the values it
    passes on; when an earlier result's entry for that entity (the list that found it, a write that
    returned it) shows every fact the read tells, in the same field with the same value, and nothing
    later takes a value only the read's result has, an agent that skips the read is right and must
    not lose coverage."""
    specs = {server: get_toolkit(server).specs() for server in SERVERS}
    problems, checked = [], 0
    for task in sample:
        if task.id not in results:
            continue
        outputs, calls = results[task.id], task.gold_calls
        turn_of = {c.id: i for i, turn in enumerate(task.gold) for c in turn}
        for j, call in enumerate(calls):
            ids = {v for k, v in call.arguments.items() if k.endswith("_id") and isinstance(v, str)}
            found = outputs[call.id]
            if not ids and isinstance(found, list) and len(found) == 1 and isinstance(found[0], dict):
                # a search by name that found one entity reads that entity ('who is Natalie Williams?')
                own_id = next((v for k, v in found[0].items() if k.endswith("_id")), None)
                ids = {own_id} if isinstance(own_id, str) else set()
            own = list(_entries_with(outputs[call.id], ids))
            facts = [f for f in task.facts[turn_of[call.id]] if _found_in(f, outputs[call.id])]
            if not own or not facts or not specs[task.server][call.name].read_only or all(
                    v in (0, 0.0, None, "") for f in facts for v in values(f)):
                continue
            checked += 1
            mine = {str(leaf) for leaf in _leaves(outputs[call.id])}
            earlier = {str(leaf) for c in calls[:j] for leaf in _leaves(outputs[c.id])}
            if any(str(v) in mine - earlier for c in calls[j + 1:] for v in c.values()):
                continue  # it passes on a value no earlier result has

            def shows(entries: list[dict[str, Any]], fact: Any) -> bool:
                # every field of the read's entry that holds the fact shows the same value before
                # (February's budget of 190 does not show this month's 190 left)
                return any(held and all(e.get(key) == value for key, value in held)
                           for o in own for e in entries
                           for held in [[(k, v) for k, v in o.items()
                                         if not isinstance(v, bool | dict | list) and _found_in(fact, v)]])

            for before in calls[:j]:
                entries = list(_entries_with(outputs[before.id], ids))
                if entries and all(shows(entries, f) for f in facts):
                    problems.append(f"{task.id}: {call.id} {call.name} tells only what {before.id} {before.name} "
                                    f"already shows of {sorted(ids)}: {facts}")
                    break
    assert checked
    assert not problems, "\n".join(problems)


def test_every_fact_is_the_field_every_wording_asks_for(sample: list[Task], results: dict[str, dict[str, Any]],
                                                        asks: list[tuple[str, str, Ask, Any]]) -> None:
    """A count is asked for by 'how many' (not by 'who follows X?'), a distance by 'how far', a
    duration by 'how long', a balance by what is left, a status by where things stand (not by 'has
    it shipped?' when it is `paid`): an answer to the words asked, in whatever words, states every
    fact. Every wording of a request asks for every fact it records, the terse one too: a change
    that also tells something asks for it ('Move $100 to my savings' records no balance)."""
    problems = set()
    for task in sample:
        for turn, facts in enumerate(task.facts or []):
            turn_results = [results[task.id][c.id] for c in task.gold[turn]]
            for fact in facts:
                for kind in _unasked(fact, turn_results, _asked(task, turn)):
                    problems.add(f"{task.id} turn {turn + 1}: {fact!r}, {kind}, is not asked for by "
                                 f"{_asked(task, turn)!r}")
    for server, tool, ask, result in asks:
        if result is None:
            continue
        for words in (f"{ask.say} {ask.detail or ''}", ask.terse or ask.say):
            writes = not get_toolkit(server).specs()[tool].read_only  # a change asked for, and something told
            if writes and _told(ask, result) and not _QUESTION.search(words):
                problems.add(f"{server} {tool}: {words.strip()!r} asks nothing, yet records {_told(ask, result)}")
        for fact in _told(ask, result):
            for words in (f"{ask.say} {ask.detail or ''}", ask.terse or ask.say):
                for kind in _unasked(fact, [result], words):
                    problems.add(f"{server} {tool}: {fact!r}, {kind}, is not asked for by {words.strip()!r}")
    assert not problems, "\n".join(sorted(problems))


_NAME = r"[A-Z][a-z]+(?:[ '-][A-Z][a-z]+){1,2}"
_SELF = re.compile(rf"(?:\bI'm|\bI am|\b[Tt]his is|\b[Mm]y name is|\bName's|\bName:|\bUser:|\bMe:)\s+({_NAME})\b"
                   rf"|\b({_NAME}) (?:here|speaking|writing|calling)\b")


def test_no_fact_is_the_users_own_name(sample: list[Task]) -> None:
    """The user's own name is no fact to tell them (an answer says "you"): the names the user
    introduced themselves with, and the signed-in user's, are recorded (`metadata.user`) and never
    required."""
    problems = []
    recorded = 0
    for task in sample:
        user = task.metadata.get("user", [])
        recorded += bool(user)
        if not task.abstain:
            for m in _SELF.finditer(task.user_turns[0]):
                if (m[1] or m[2]) not in user:
                    problems.append(f"{task.id}: the user introduced as {m[1] or m[2]!r} is not recorded ({user})")
        own = {n.casefold().lstrip("@") for n in user}
        for turn, facts in enumerate(task.facts or []):
            for fact in facts:
                if isinstance(fact, str) and fact.casefold().lstrip("@") in own:
                    problems.append(f"{task.id} turn {turn + 1}: {fact!r} is the user's own name")
    assert recorded
    assert not problems, "\n".join(problems)


# -- the user's words ----------------------------------------------------------------------------

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'])")
_QUOTED = re.compile(r"\"[^\"]*\"|(?<!\w)'[^']*'(?!\w)")


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(_QUOTED.sub("QUOTE", text)) if s.strip()]


def test_greetings_and_introductions_open_the_first_message_only(sample: list[Task],
                                                               asks: list[tuple[str, str, Ask, Any]]) -> None:
    """A user greets once, at the start of the first message ('Hey there! Hello there, I'm' greets
    twice; 'Once that's done, hello there, I'm Ann' greets mid-message), and introduces themselves
    there too (never 'Then Ann Lee.' in a later turn, nor 'Ann Lee again.' first). A request's own
    words never greet: the voice and the introductions do, where they belong."""
    introductions = {lookup.tool for server in SERVERS for lookup in get_recipe(server).lookups
                     if lookup.intro is not None}
    problems = []
    for server, tool, ask, _ in asks:
        for text in (ask.say, ask.terse, ask.detail):
            if text and any(greets(s) for s in _sentences(text)):
                problems.append(f"{server} {tool}: the request greets: {text!r}")
    for task in sample:
        if task.abstain:
            continue
        for number, text in enumerate(task.user_turns):
            greeting = [i for i, s in enumerate(_sentences(text)) if greets(s)]
            if greeting and (number > 0 or greeting[0] > 1 or len(greeting) > 1):
                problems.append(f"{task.id} turn {number + 1} greets mid-conversation: {text!r}")
        user = task.metadata.get("user", [])
        for name in user:
            for number, text in enumerate(task.user_turns[1:], start=2):
                if re.search(rf"(?:I'm|I am|this is|it's|name's|name is|me:)\s+{re.escape(name)}\b|"
                             rf"\b{re.escape(name)}(?: here| speaking| again| calling)", text, re.IGNORECASE):
                    problems.append(f"{task.id} turn {number} introduces {name} again: {text!r}")
            if re.search(rf"\b{re.escape(name)} again\b", task.user_turns[0]):
                problems.append(f"{task.id}: the first message says {name!r} again: {task.user_turns[0]!r}")
        for call in task.gold_calls:  # an introduction's values are said first
            if call.name in introductions and any(str(v) in user for v in call.arguments.values()):
                if not any(str(v) in task.user_turns[0] for v in call.arguments.values()):
                    problems.append(f"{task.id}: the user is introduced after the first message")
    assert not problems, "\n".join(problems)


_SECRET = re.compile(r"pin|passcode|password|code$|^cvv$|otp")


def test_no_message_asks_or_tells_the_same_thing_twice(sample: list[Task]) -> None:
    """One message never holds the same sentence twice, nor a secret (a PIN) twice, nor the same word
    twice in a row ("my 'Miami trip' trip"), nor asks twice for one change the gold makes once
    ('Switch the F-150 to accessory power ... And put my Ford in accessory mode')."""
    problems = []
    for task in sample:
        for number, (text, calls) in enumerate(zip(task.user_turns, task.gold, strict=True)):
            sentences = [re.sub(r"\W+", " ", s).strip().casefold() for s in _sentences(text)]
            twice = {s for s in sentences if s and sentences.count(s) > 1}
            if twice:
                problems.append(f"{task.id} turn {number + 1} says {sorted(twice)} twice: {text!r}")
            doubled = re.search(r"\b([a-z]{3,})['\"]?\s+['\"]?\1\b", text, re.IGNORECASE)
            if doubled:
                problems.append(f"{task.id} turn {number + 1} says {doubled[0]!r}: {text!r}")
            secrets = {str(v) for c in task.gold_calls for k, v in c.arguments.items() if _SECRET.search(k)}
            for secret in secrets:
                if len(re.findall(rf"(?<![\w$.]){re.escape(secret)}(?!\w)", text)) > 1:
                    problems.append(f"{task.id} turn {number + 1} gives {secret!r} twice: {text!r}")
            changes = Counter(v for c in calls if not get_toolkit(task.server).specs()[c.name].read_only
                              for k, v in c.arguments.items() if isinstance(v, str) and len(v) >= 5
                              and "enum" in get_toolkit(task.server).specs()[c.name].parameters["properties"]
                              .get(k, {}))
            unquoted = _QUOTED.sub(" ", text)  # a title may hold the word ('Miami business trip')
            for value, made in changes.items():
                if len(re.findall(rf"\b{re.escape(value)}\b", unquoted, re.IGNORECASE)) > made:
                    problems.append(f"{task.id} turn {number + 1} asks for {value!r} more often than the gold "
                                    f"makes it ({made}): {text!r}")
    assert not problems, "\n".join(problems)


def test_a_message_joins_its_requests_with_different_words_and_stops_once(sample: list[Task]) -> None:
    """'Also, ... Also, ...' in one message, and '... about "Lunch on Thursday?".', read as written
    without care."""
    # 'And' and 'Then' open requests' own sentences too ('And my tier?')
    joiners = sorted({j.strip(" ,:") for js in _JOINERS.values() for j in js if j.strip()} - {"And", "Then"},
                     key=len, reverse=True)
    opening = re.compile(rf"(?:^|[.?!]\s+)({'|'.join(map(re.escape, joiners))})\b")
    problems = []
    for task in sample:
        for number, text in enumerate(task.user_turns):
            said = Counter(m.group(1).casefold() for m in opening.finditer(text))
            again = sorted(j for j, n in said.items() if n > 1)
            if again:
                problems.append(f"{task.id} turn {number + 1} joins with {again} twice: {text!r}")
            if re.search(r"[.!?][\"']\.(?:\s|$)", text):
                problems.append(f"{task.id} turn {number + 1} stops twice: {text!r}")
    assert not problems, "\n".join(problems)


def test_a_message_says_please_once(sample: list[Task]) -> None:
    """'Please set a reminder for the Budget review. 15 minutes beforehand, please.': a request and its
    value said in one message, or two requests joined in one, say 'please' once; the user's quoted
    words are theirs, and kept."""
    problems = [f"{task.id} turn {number + 1}: {text!r}" for task in sample
                for number, text in enumerate(task.user_turns)
                if len(re.findall(r"\bplease\b", _QUOTED.sub("QUOTE", text), re.IGNORECASE)) > 1]
    assert not problems, "\n".join(problems)


def test_a_value_said_with_its_request_is_no_correction(sample: list[Task]) -> None:
    """'Could you break down my spending? I mean between September 10 and 23.': a detail that
    answers "which one?" is said as a correction when it follows its own request in one message."""
    problems = [f"{task.id} turn {number + 1}: {text!r}" for task in sample if task.metadata.get("info_level") != "missing"
                for number, text in enumerate(task.user_turns) if re.search(r"[.?!] I mean [^,]", text)]
    assert not problems, "\n".join(problems)


def _wordings(sample: list[Task], asks: list[tuple[str, str, Ask, Any]]) -> Iterator[tuple[str, str]]:
    """Every user message of the sample, and every wording of the requests (where each came from)."""
    for task in sample:
        for text in task.user_turns:
            yield task.id, text
    for server, tool, ask, _ in asks:
        for text in (ask.say, ask.terse, ask.detail):
            if text:
                yield f"{server} {tool}", text


def test_a_and_an_fit_the_next_word(sample: list[Task], asks: list[tuple[str, str, Ask, Any]]) -> None:
    """'an economy seat', 'a user', 'an hour', and one article at a time ('the an airline deal');
    quoted words are the user's own, and kept."""
    problems = set()
    for where, text in _wordings(sample, asks):
        unquoted = _QUOTED.sub("QUOTE", text)
        for said, word in re.findall(r"(?<![\w&'.@-])([Aa]n?)\s+([\w'-]+)", unquoted):
            if word != "QUOTE" and said.casefold() != article(word):
                problems.add(f"{where}: {said!r} before {word!r}: {text!r}")
        for doubled in re.findall(r"\b(?:the|a|an)\s+(?:the|a|an)\b", unquoted, re.IGNORECASE):
            problems.add(f"{where}: {doubled!r}: {text!r}")
    assert not problems, "\n".join(sorted(problems))


def test_words_of_sequence_join_a_request_not_a_report(sample: list[Task]) -> None:
    """'Then', 'After that', 'Next', 'And if you could' join a request that asks for something;
    before a sentence that tells they read wrongly ('Then I just had a call with Rhonda Ibarra',
    'And if you could, I forget how I organized my mail'); 'Then I'd like ...' asks."""
    problems = [f"{task.id}: {text!r}" for task in sample for text in task.user_turns
                if re.search(r"(?:\bThen|\bAfter that,|\bNext,|\bAnd then|Once that's done,|\bAnd if you could,) "
                             r"(?:I|I'm|I've|We|We're|"
                             r"We've|My|Our)\b(?!['’]d like| want| need| would like)", text)]
    assert not problems, "\n".join(problems)


_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_MONTH = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
_DATE = re.compile(rf"\b{_MONTH}\s+\d{{1,2}}\b|\b\d{{1,2}}\s+{_MONTH}\b|\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b\d{{1,2}}/\d{{1,2}}\b",
                   re.IGNORECASE)
_ANCHORED = re.compile(  # a relative day with its date beside it: 'next Monday (November 30)', 'tomorrow, May 6'
    rf"\b(?:today|tomorrow|yesterday|(?:(?:next|this|coming)\s+)?{_WEEKDAY})\s*(?:\(|,)\s*(?:{_WEEKDAY},?\s+)?"
    rf"(?:{_MONTH}\s+\d{{1,2}}|\d{{1,2}}\s+{_MONTH})(?:,?\s+\d{{4}})?\)?", re.IGNORECASE)
_RELATIVE = re.compile(
    rf"\b(?:today|tonight|tomorrow|yesterday|(?:next|this|last|coming)\s+(?:{_WEEKDAY}|week|month)"
    rf"|(?<!every )(?<!each )(?<!and ){_WEEKDAY}(?!s\b)(?!,?\s+(?:the\s+)?(?:{_MONTH}|\d)))\b", re.IGNORECASE)


def test_a_relative_day_has_one_reading(sample: list[Task], asks: list[tuple[str, str, Ask, Any]]) -> None:
    """'Push my Focus time on Tuesday, August 18 to next Monday', said on a Saturday in July, reads
    from today or from August 18: a sentence that names a date says every other day as a date, or
    gives the date beside the relative words ('next Monday (November 30)')."""
    problems = set()
    for where, text in _wordings(sample, asks):
        for sentence in _sentences(text):
            if re.search(r"\b(?:every|each|weekly|repeat|recurr)", sentence, re.IGNORECASE):
                continue  # a rule's weekdays ('every week on Tuesday and Thursday') are no days
            unanchored = _ANCHORED.sub(" ", sentence)
            relative = _RELATIVE.search(unanchored)
            if relative and _DATE.search(unanchored):
                problems.add(f"{where}: {relative[0]!r} beside a date: {sentence!r}")
    assert not problems, "\n".join(sorted(problems))


# The topics of off-topic requests that a server's own tools serve, and that server.
_SERVED = {"auctions": "marketplace", "stores": "retail_chain", "payments": "payments", "banking": "banking",
           "stocks": "trading", "budget": "budget", "calendar": "calendar", "sales": "crm", "email": "email",
           "files": "filesystem", "food_delivery": "food_delivery", "smart_home": "iot_devices",
           "projects": "issue_tracker", "maps": "maps", "travel": "travel_booking", "shopping": "shopping",
           "social_media": "social_media", "chat": "team_chat", "vehicle": "vehicle", "meetings": "video_meeting"}


def test_an_off_topic_request_is_never_of_a_topic_the_server_serves() -> None:
    """'Bid 20 dollars more on the vintage shoes listing' was drawn as off-topic for the marketplace,
    whose own tools place the bid: a server declares every topic its tools serve."""
    from prove_env.synthesis.topics import TOPICS

    assert set(_SERVED) <= TOPICS, set(_SERVED) - TOPICS
    missing = [f"{server} serves {topic!r} but does not declare it" for topic, server in _SERVED.items()
               if server in server_names() and topic not in get_recipe(server).topics]
    assert not missing, "\n".join(missing)


def test_facts_are_read_off_the_result(asks: list[tuple[str, str, Ask, Any]]) -> None:
    """A request's facts come from its call's result, never from a list built beforehand: an
    extract that tells the same of nothing would be 'shown' by any earlier entry of the entity,
    and the read that tells it would leave the gold."""
    from prove_env.synthesis.verify import _extracted

    checked, problems = 0, []
    for server, tool, ask, result in asks:
        if result is None or ask.facts is None or result in ({}, []):
            continue  # an empty result tells that there is nothing, as nothing does
        want = _extracted(ask.facts, result)
        if not want:
            continue
        checked += 1
        if _extracted(ask.facts, {}) == want or _extracted(ask.facts, []) == want:
            problems.append(f"{server} {tool}: {ask.say!r} tells {want} of an empty result")
    assert checked
    assert not problems, "\n".join(problems[:20])


def test_an_introduction_reads_as_one(asks: list[tuple[str, str, Ask, Any]]) -> None:
    """How a user says who they are, complete or terse, for every server's look-ups that introduce
    someone: never a bare name that reads as a signature ('Richard Berry. New list ...'), nor 'Email
    ada@example.com.', which reads first as an order to send an email."""
    problems = set()
    for server, _, ask, _ in asks:
        intros = [lookup for lookup in get_recipe(server).lookups if lookup.intro is not None]
        refs = list(ask.refs)
        while refs:
            ref = refs.pop()
            refs.extend([ref.owner] if ref.owner is not None else [])
            for lookup in intros:
                if lookup.kind != ref.kind:
                    continue
                try:
                    texts = lookup.intro(ref)
                except (KeyError, TypeError):
                    continue  # an entity this look-up does not introduce (no e-mail on file)
                for text in texts:
                    name = str(ref.entity.get("name", "")).strip()
                    if (name and text.strip() == f"{name}.") or re.match(r"Email [^:\s]+@", text):
                        problems.add(f"{server} {lookup.tool}: {text!r}")
    assert not problems, "\n".join(sorted(problems))
