"""Schema-driven fuzzing of every tool of every registered server, through real MCP.

Each example is a sequence of calls on a fresh world. Arguments are drawn from the tool's input
schema: valid values (ids, names and paths that exist in the world, and plausible free values),
boundary values (empty, zero, negative, huge, long, odd Unicode) and invalid ones (wrong types,
missing required keys, unknown keys). Every call must end in success or a readable domain error,
never an internal error; after every sequence the database passes SQLite's integrity and foreign-key
checks and the server's own invariants, and a failed call must have left the world unchanged.

`PROVE_FUZZ_EXAMPLES=N` runs N sequences per server (default 40 in CI; the closing counts of a run
are printed at the end of the session).
"""

from __future__ import annotations

import os
import string
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prove_env.mcp_server import ToolClient, WorldSlot, build_server
from prove_env.registry import get_toolkit, server_names
from prove_env.runtime import run_sync
from prove_env.world import worlds

pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("PROVE_FUZZ_EXAMPLES", "40"))
STATS: Counter[str] = Counter()

ODD_STRINGS = [
    "", " ", "\x00", "\n\t", "é✓漢字🙂", "' OR 1=1 --", "'; DROP TABLE accounts; --", "../../etc/passwd", "/", "//",
    "~", "..", ".", "*", "?", "[", "\\", "%s%n", "${jndi:ldap://x}", "a" * 5000, "-1", "1e309", "NaN", "null",
    "2026-02-30T25:61", "0000-00-00", "9999-12-31T23:59:59",
]
ODD_NUMBERS = [0, -1, 1, 2**31, -(2**63), 10**18, 0.001, -0.5, 1e300, 3.14159, 100000.0]


def _pool(world) -> dict[str, list]:
    """Values found in the world, so fuzzed calls reach deep code paths, not only 'not found'."""
    ids, texts = set(), set()
    for table in world.toolkit.table_names():
        if table.startswith("prove_"):
            continue
        meta = world.toolkit.metadata().tables[table]
        pk = [c.name for c in meta.primary_key.columns]
        for row in world.connection.execute(f'SELECT * FROM "{table}" LIMIT 60'):
            for column, value in zip(meta.columns.keys(), row, strict=True):
                if isinstance(value, str) and len(value) <= 80:
                    (ids if column in pk else texts).add(value)
    return {"ids": sorted(ids), "texts": sorted(texts)}


def _value(prop: dict, pool: dict[str, list], name: str) -> st.SearchStrategy:
    kind = prop.get("type")
    if "enum" in prop:
        valid = st.sampled_from(prop["enum"])
    elif kind == "string":
        known = pool["ids"] if name.endswith(("_id", "id", "path", "source", "target", "destination")) else pool["texts"]
        valid = st.one_of(st.sampled_from(known or ["x"]), st.text(string.printable, max_size=12))
    elif kind == "integer":
        valid = st.integers(-3, 60)
    elif kind == "number":
        valid = st.one_of(st.integers(-10, 5000), st.floats(-100, 10000, allow_nan=False).map(lambda f: round(f, 2)))
    elif kind == "boolean":
        valid = st.booleans()
    elif kind == "array":
        valid = st.lists(_value(prop.get("items", {"type": "string"}), pool, name), max_size=4)
    else:
        valid = st.none()
    boundary = st.sampled_from(ODD_STRINGS if kind in ("string", None) else ODD_NUMBERS if kind in ("integer", "number") else [None])
    wrong = st.sampled_from([None, True, 7, 2.5, "7", [], {}, ["a"], {"a": 1}])
    return st.one_of(valid, valid, valid, boundary, wrong)


def _example(prop: dict, pool: dict[str, list], name: str):
    """One plausible valid value for a parameter, taken from the world where possible."""
    kind = prop.get("type")
    if "enum" in prop:
        return prop["enum"][0]
    if kind == "string":
        known = pool["ids"] if name.endswith(("_id", "id", "path", "source", "target", "destination")) else pool["texts"]
        return known[len(known) // 2] if known else "x"
    if kind == "array":
        return [_example(prop.get("items", {"type": "string"}), pool, name)]
    return {"integer": 3, "number": 25.0, "boolean": True}.get(kind)


@st.composite
def _call(draw, specs, pool):
    spec = draw(st.sampled_from(specs))
    props = spec.parameters["properties"]
    required = set(spec.parameters.get("required", []))
    arguments = {}
    for name, prop in props.items():
        if name in required or draw(st.booleans()):
            arguments[name] = draw(_value(prop, pool, name))
    mutation = draw(st.sampled_from(["none"] * 8 + ["drop", "extra"]))
    if mutation == "drop" and arguments:
        arguments.pop(draw(st.sampled_from(sorted(arguments))))
    elif mutation == "extra":
        arguments[draw(st.sampled_from(["extra", "id", "__proto__", "self"]))] = draw(_value({}, pool, "extra"))
    return spec.name, arguments


@pytest.mark.parametrize("server", server_names())
def test_fuzz_every_tool(server):
    toolkit = get_toolkit(server)
    specs = toolkit.visible_specs()
    pool = _pool(worlds.create(toolkit, 0))
    slot = WorldSlot(toolkit)
    client = ToolClient(build_server(toolkit, slot)).open()
    called: set[str] = set()

    def call(name, arguments):
        before = slot.world.digest()
        result = run_sync(client.call(name, arguments))
        text = result.content[0].text if result.content else ""
        STATS["calls"] += 1
        STATS["errors" if result.is_error else "ok"] += 1
        called.add(name)
        assert "internal error" not in text, f"{name}({arguments!r}) hit a server bug: {text}"
        assert text, f"{name}({arguments!r}) answered nothing"
        if result.is_error:
            assert text.startswith(f"Error executing tool {name}: ") and len(text) > len(name) + 30, text
            assert slot.world.digest() == before, f"failed call {name}({arguments!r}) changed the world"

    def fresh_world():
        if slot.world is not None:
            problems = slot.world.violations()
            assert not problems, problems[:5]
            slot.world.close()
        slot.world = worlds.create(toolkit, 0)

    # A sweep first, so every tool is reached whatever the number of examples: no arguments, the
    # required ones from the world, and every one from the world.
    for spec in specs:
        fresh_world()
        props, required = spec.parameters["properties"], spec.parameters.get("required", [])
        sample = {k: _example(props[k], pool, k) for k in props}
        for arguments in ({}, {k: sample[k] for k in required}, sample):
            call(spec.name, arguments)

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.lists(_call(specs, pool), min_size=1, max_size=12))
    def sequence(calls):
        fresh_world()
        for name, arguments in calls:
            call(name, arguments)

    try:
        sequence()
        fresh_world()
    finally:
        client.close()
    assert called == {s.name for s in specs}
    STATS[f"tools:{server}"] = len(called)
    STATS["tools fuzzed"] += len(called)


def teardown_module(module):
    if STATS:
        print(f"\nfuzz: {dict(sorted(STATS.items()))}")
