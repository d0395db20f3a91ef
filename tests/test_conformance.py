"""The generic suite: everything `server-done.md` asks of a server that is not its domain logic,
checked for every registered server, each failure naming the server and the tool.

A server's own test file (`tests/servers/test_<name>.py`) then holds only its domain rules.
Other generic suites cover the rest for every server: `test_env.py` (gym.make, check_env),
`test_vector.py`, `test_fuzz_tools.py`, `test_determinism.py`, `test_hostile.py`,
`test_catalog.py`, `test_cli.py` (serving).
"""

from __future__ import annotations

import inspect
import random
import re
from pathlib import Path
from typing import Any

import pytest

from prove_env.env import ProveEnv
from prove_env.evaluate import run_episode
from prove_env.mcp_server import ToolClient, WorldSlot, build_server
from prove_env.params import id_kinds
from prove_env.policies import GoldPolicy, NoopPolicy
from prove_env.registry import get_toolkit, minimum_tools, server_names
from prove_env.runtime import run_sync
from prove_env.synthesis.config import SynthConfig
from prove_env.synthesis.graph import dependency_graph
from prove_env.synthesis.pipeline import Shard, run_shard
from prove_env.synthesis.recipe import Reader, get_recipe
from prove_env.task import fixture_tasks
from prove_env.toolkit import RESERVED_NAMES
from prove_env.world import World, worlds
from tests.schema_values import candidates, example

SERVERS = server_names()
MIN_FIXTURE_TASKS = 8
FORBIDDEN = re.compile(r"uuid4\(|datetime\.now\(|datetime\.utcnow\(|date\.today\(|time\.time\(|random\.random\(|"
                       r"date_this_|date_between|past_date|future_date|date_time_this|\bopen\(|import os\b|pathlib")


def _served(server: str, world: World) -> ToolClient:
    toolkit = get_toolkit(server)
    return ToolClient(build_server(toolkit, WorldSlot(toolkit, world))).open()


def _call(client: ToolClient, tool: str, arguments: dict[str, Any]) -> tuple[bool, str]:
    result = run_sync(client.call(tool, arguments))
    return not result.is_error, result.content[0].text if result.content else ""


# -- the tools ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("server", SERVERS)
def test_tools_are_named_described_and_counted(server: str) -> None:
    toolkit = get_toolkit(server)
    visible = toolkit.visible_specs()
    assert len(visible) >= minimum_tools(server), (
        f"{server}: {len(visible)} visible tools, the paper's count is {minimum_tools(server)}")
    for spec in toolkit.specs().values():
        where = f"{server}.{spec.name}"
        assert re.fullmatch(r"[a-z][a-z0-9_]*", spec.name) and spec.name not in RESERVED_NAMES, where
        assert len(spec.description) > 20, f"{where}: the description says too little"
        for name, prop in spec.parameters["properties"].items():
            assert prop.get("description"), f"{where}.{name} is not described"
            if name.endswith(("_id", "_ids")):
                assert "such as" in prop["description"], f"{where}.{name} gives no example id"
        assert not (spec.read_only and spec.destructive), where
        parameters = list(inspect.signature(spec.method).parameters)[1:]
        assert list(spec.parameters["properties"]) == parameters, f"{where}: schema and signature differ"
    assert any(not s.read_only for s in visible) and any(s.read_only for s in visible), server


@pytest.mark.parametrize("server", SERVERS)
def test_every_visible_tool_has_domain_tests(server: str) -> None:
    path = Path(__file__).parent / "servers" / f"test_{server}.py"
    assert path.exists(), f"{server} has no tests/servers/test_{server}.py"
    text = path.read_text()
    untested = [s.name for s in get_toolkit(server).visible_specs() if f'"{s.name}"' not in text]
    assert not untested, f"tools never called in tests/servers/{path.name}: {untested}"


@pytest.mark.parametrize("server", SERVERS)
def test_annotations_and_hidden_tools_over_mcp(server: str) -> None:
    toolkit = get_toolkit(server)
    world = worlds.create(toolkit, 0)
    for include_hidden in (False, True):
        client = ToolClient(build_server(toolkit, WorldSlot(toolkit, world), include_hidden=include_hidden)).open()
        listed = {t.name: t for t in run_sync(client.list_tools())}
        client.close()
        expected = {s.name for s in toolkit.specs().values() if include_hidden or not s.hidden}
        assert set(listed) == expected, server
        for name, listed_tool in listed.items():
            spec = toolkit.specs()[name]
            assert listed_tool.annotations.read_only_hint == spec.read_only, f"{server}.{name}"
            assert listed_tool.annotations.destructive_hint == spec.destructive, f"{server}.{name}"
            assert listed_tool.annotations.idempotent_hint == spec.idempotent, f"{server}.{name}"
            assert listed_tool.input_schema == spec.parameters, f"{server}.{name}"
    world.close()


@pytest.mark.parametrize("server", SERVERS)
def test_server_code_is_deterministic_and_never_touches_the_disk(server: str) -> None:
    folder = Path(inspect.getfile(get_toolkit(server))).parent
    for path in sorted(folder.glob("*.py")):
        hits = [line for line in path.read_text().splitlines()
                if FORBIDDEN.search(line) and not line.strip().startswith("#")]
        assert not hits, f"servers/{server}/{path.name}: {hits}"


@pytest.mark.parametrize("server", SERVERS)
def test_entities_are_produced_consumed_and_looked_up(server: str) -> None:
    toolkit = get_toolkit(server)
    specs = toolkit.visible_specs()
    produced = {k for s in specs for k in s.produces}
    consumed = {k for s in specs for k in s.consumes}
    assert produced and consumed, server
    assert consumed <= produced, f"{server}: kinds consumed but never produced: {sorted(consumed - produced)}"
    for entity in toolkit.entities:
        assert entity.kind in toolkit.specs()[entity.lookup].produces, f"{server}: {entity.lookup} / {entity.kind}"


@pytest.mark.parametrize("server", SERVERS)
def test_schema_valid_calls_meet_no_argument_error(server: str) -> None:
    """Arguments the schema accepts are accepted by the tool: whatever a call refuses is a domain
    rule of the world, not a parameter rule the schema did not state."""
    toolkit = get_toolkit(server)
    world = worlds.create(toolkit, 0)
    client = _served(server, world)
    try:
        for spec in toolkit.visible_specs():
            props = spec.parameters["properties"]
            for chosen in (spec.required, list(props)):
                arguments = {name: example(props[name], world.now) for name in chosen}
                ok, text = _call(client, spec.name, arguments)
                assert ok or "Invalid arguments" not in text, f"{server}.{spec.name}({arguments}): {text}"
    finally:
        client.close()
        world.close()


ATTEMPTS = 24  # calls tried per tool, each with other values from the world


@pytest.mark.parametrize("server", SERVERS)
def test_read_only_tools_answer_their_smallest_schema_valid_call(server: str) -> None:
    """Every read-only tool answers the smallest call its schema allows: its required arguments
    alone, with values drawn from the live world and the schema. A tool that requires nothing
    answers the empty call; a tool refused with its required arguments alone that answers once an
    optional one is added has a rule its schema does not state ("give X or Y"), which a client
    that knows only the schema cannot follow. (A refusal that no optional argument lifts is about
    the values this world holds, not the schema, and is not judged here.)"""
    toolkit = get_toolkit(server)
    world = worlds.create(toolkit, 0)
    client = _served(server, world)
    ids = {e.kind: [row[0] for row in world.connection.execute(
        f'SELECT id FROM "{e.model.__tablename__}" ORDER BY id LIMIT {ATTEMPTS}')] for e in toolkit.entities}
    problems = []

    def values(spec, name: str) -> list[Any]:
        found = id_kinds(_hints(spec)[name])
        return candidates(spec.parameters["properties"][name], name, world,
                          ids.get(found[0]) if found else None, bool(found and found[1]))

    def answered(spec, names: list[str]) -> tuple[dict[str, Any], str] | None:
        """The first call with the parameters `names` that is answered, or None (and the first
        refusal's arguments and text)."""
        pools = [(name, values(spec, name)) for name in names]
        refused = None
        for attempt in range(ATTEMPTS if pools else 1):
            arguments = {name: pool[(attempt + j) % len(pool)] for j, (name, pool) in enumerate(pools)}
            ok, text = _call(client, spec.name, arguments)
            if ok:
                return None
            refused = refused or (arguments, text)
        return refused

    try:
        for spec in toolkit.visible_specs():
            if not spec.read_only:
                continue
            refused = answered(spec, spec.required)
            if refused is None:
                continue
            if not spec.required:
                problems.append(f"{spec.name}({{}}) is refused: {refused[1]}")
                continue
            for optional in [name for name in spec.parameters["properties"] if name not in spec.required]:
                if answered(spec, [*spec.required, optional]) is None:
                    problems.append(f"{spec.name}({refused[0]}) is refused ({refused[1]}), yet answers once "
                                    f"{optional} is given")
                    break
    finally:
        client.close()
        world.close()
    assert not problems, (f"{server}: read-only tools refuse the smallest call their schema allows; answer it "
                          "usefully or state the rule in the schema:\n" + "\n".join(problems))


@pytest.mark.parametrize("server", SERVERS)
def test_unknown_ids_are_not_found_and_change_nothing(server: str) -> None:
    """Every id parameter of every tool: an id of the right form that no row has is refused with
    the server's one "not found" wording, and the world is unchanged."""
    toolkit = get_toolkit(server)
    world = worlds.create(toolkit, 0)
    client = _served(server, world)
    known = {e.kind: world.connection.execute(f'SELECT id FROM "{e.model.__tablename__}" ORDER BY id').fetchone()
             for e in toolkit.entities}
    checked = 0
    try:
        for spec in toolkit.visible_specs():
            hints = {name: id_kinds(hint) for name, hint in _hints(spec).items()}
            props = spec.parameters["properties"]
            for param, found in hints.items():
                if found is None:
                    continue
                kind, many = found
                entity = toolkit.entity_of(kind)
                missing = f"{entity.prefix}-{10 ** entity.width - 1}"
                arguments = {name: _valid(props[name], hints.get(name), known, world) for name in spec.required}
                arguments[param] = [missing] if many else missing
                before = world.digest()
                ok, text = _call(client, spec.name, arguments)
                assert not ok and entity.not_found(missing) in text, (
                    f"{server}.{spec.name}({arguments}) should say {entity.not_found(missing)!r}, said {text!r}")
                assert world.digest() == before, f"{server}.{spec.name} changed the world on an unknown id"
                checked += 1
    finally:
        client.close()
        world.close()
    assert checked or not toolkit.entities, f"{server}: entities declared but no tool takes their ids"


def _hints(spec) -> dict[str, Any]:
    import typing

    hints = typing.get_type_hints(spec.method, include_extras=True)
    return {name: hints[name] for name in spec.parameters["properties"]}


def _valid(prop: dict[str, Any], ids: tuple[str, bool] | None, known: dict[str, Any], world: World) -> Any:
    if ids is not None:
        row = known.get(ids[0])
        value = row[0] if row else "x"
        return [value] if ids[1] else value
    return example(prop, world.now)


# -- tasks -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("server", SERVERS)
def test_fixture_tasks_are_stamped_and_replay_at_the_maximum(server: str) -> None:
    tasks = fixture_tasks(server)
    assert len(tasks) >= MIN_FIXTURE_TASKS, f"{server}: {len(tasks)} fixture tasks, at least {MIN_FIXTURE_TASKS}"
    assert any(t.abstain for t in tasks), f"{server}: no abstention fixture task"
    assert any(len(t.user_turns) > 1 for t in tasks), f"{server}: no multi-turn fixture task"
    toolkit = get_toolkit(server)
    writes = {s.name for s in toolkit.visible_specs() if not s.read_only}
    assert any({c.name for c in t.gold_calls} & writes for t in tasks), f"{server}: no write fixture task"
    env = ProveEnv(server, max_steps=max(len(t.gold_calls) for t in tasks) + len(tasks[0].user_turns) + 4)
    try:
        for task in tasks:
            where = f"{server} fixture {task.id}"
            assert task.server == server, where
            assert task.start_digest and task.gold_digest and task.tools, f"{where} is not stamped"
            if task.seed is not None:
                assert worlds.digest(toolkit, task.seed) == task.start_digest, f"{where}: the start world differs"
            gold = run_episode(env, GoldPolicy(), task, 0)
            failed = [c for c in gold["calls"] if not c["ok"]]
            assert not failed, f"{where}: gold call {failed[0]['name']} failed: {failed[0]['output'][:200]}"
            assert gold["success"], f"{where}: gold does not succeed"
            if not task.abstain:
                assert gold["reward"] == pytest.approx(env.episode.reward_config.maximum), f"{where}: gold below maximum"
                assert env.episode.world.digest() == task.gold_digest, f"{where}: gold ends in another world"
                assert not run_episode(env, NoopPolicy(), task, 0)["success"], f"{where}: doing nothing succeeds"
    finally:
        env.close()


@pytest.mark.parametrize("server", SERVERS)
def test_recipe_covers_every_tool_and_samples_read_only(server: str) -> None:
    recipe = get_recipe(server)  # a broken recipe fails here, with the server's name
    toolkit = get_toolkit(server)
    world = worlds.create(toolkit, 0)
    before = world.digest()
    bundles = recipe.sample(Reader(toolkit, world), world.now, random.Random(0))
    assert bundles, f"{server}: the sampler found nothing to write tasks about in the seed-0 world"
    assert world.digest() == before, f"{server}: sampling changed the world"
    world.close()
    graph = dependency_graph(server)
    for lookup in recipe.lookups:
        assert graph.successors(lookup.tool), f"{server}: look-up {lookup.tool} leads nowhere"
    # every kind of id a tool takes can be found from what a person says
    consumed = {kind for spec in toolkit.visible_specs() for kind in spec.consumes} & {e.kind for e in toolkit.entities}
    unresolved = sorted(consumed - {lookup.kind for lookup in recipe.lookups})
    assert not unresolved, f"{server}: the recipe has no look-up for the entity kinds {unresolved}"


@pytest.mark.parametrize("server", SERVERS)
def test_recipe_writes_tasks_that_pass_the_gates(server: str) -> None:
    config = SynthConfig(tasks_per_world=12, irrelevant_rate=0.0)
    result = run_shard(Shard(server, 1, 12, "train", 0), config)
    assert len(result.tasks) == 12, f"{server}: 12 tasks asked, {len(result.tasks)} written; dropped {result.drops}"
    assert not {r for r in result.drops if r.startswith("gold")}, f"{server}: gates failed: {result.drops}"
