"""What every server must have (servers.md), checked for every registered server."""

from __future__ import annotations

import inspect
import re

import pytest

from prove_env.mcp_server import ToolClient, WorldSlot, build_server
from prove_env.registry import get_toolkit, server_names
from prove_env.runtime import run_sync
from prove_env.toolkit import RESERVED_NAMES
from prove_env.world import worlds

MINIMUM_TOOLS = {"banking": 17, "calendar": 17, "filesystem": 40}
FORBIDDEN = re.compile(r"uuid4\(|datetime\.now\(|datetime\.utcnow\(|date\.today\(|time\.time\(|random\.random\(|"
                       r"date_this_|date_between|past_date|future_date|date_time_this|\bopen\(|import os\b|pathlib")


@pytest.mark.parametrize("server", server_names())
def test_tool_count_names_and_docs(server):
    toolkit = get_toolkit(server)
    visible = toolkit.visible_specs()
    assert len(visible) >= MINIMUM_TOOLS.get(server, 10)
    for spec in toolkit.specs().values():
        assert re.fullmatch(r"[a-z][a-z0-9_]*", spec.name) and spec.name not in RESERVED_NAMES
        assert len(spec.description) > 20, spec.name
        for name, prop in spec.parameters["properties"].items():
            assert prop.get("description"), f"{spec.name}.{name} is not described"
            if name.endswith("_id") or name.endswith("_ids"):
                assert "such as" in prop["description"] or "e.g." in prop["description"], f"{spec.name}.{name} has no example"
        assert not (spec.read_only and spec.destructive)
        parameters = list(inspect.signature(spec.method).parameters)[1:]
        assert list(spec.parameters["properties"]) == parameters, f"{spec.name}: schema and signature differ"
        assert set(spec.parameters["required"]) <= set(parameters)


@pytest.mark.parametrize("server", server_names())
def test_annotations_and_hidden_tools_over_mcp(server):
    toolkit = get_toolkit(server)
    world = worlds.create(toolkit, 0)
    for include_hidden in (False, True):
        client = ToolClient(build_server(toolkit, WorldSlot(toolkit, world), include_hidden=include_hidden)).open()
        listed = {t.name: t for t in run_sync(client.list_tools())}
        client.close()
        expected = {s.name for s in toolkit.specs().values() if include_hidden or not s.hidden}
        assert set(listed) == expected
        for name, tool in listed.items():
            spec = toolkit.specs()[name]
            assert tool.annotations.read_only_hint == spec.read_only
            assert tool.annotations.destructive_hint == spec.destructive
            assert tool.annotations.idempotent_hint == spec.idempotent
            assert tool.input_schema == spec.parameters
    assert any(not s.read_only for s in toolkit.visible_specs()) and any(s.read_only for s in toolkit.visible_specs())


@pytest.mark.parametrize("server", server_names())
def test_server_code_is_deterministic_and_never_touches_the_disk(server):
    module = inspect.getmodule(get_toolkit(server))
    folder = __import__("pathlib").Path(module.__file__).parent
    for path in folder.glob("*.py"):
        hits = [line for line in path.read_text().splitlines() if FORBIDDEN.search(line) and not line.strip().startswith("#")]
        assert not hits, f"{path.name}: {hits}"


@pytest.mark.parametrize("server", server_names())
def test_produces_and_consumes_declared(server):
    specs = get_toolkit(server).visible_specs()
    produced = {k for s in specs for k in s.produces}
    consumed = {k for s in specs for k in s.consumes}
    assert produced and consumed
    assert consumed <= produced, f"kinds consumed but never produced: {consumed - produced}"


@pytest.mark.parametrize("server", server_names())
def test_every_visible_tool_has_tests(server):
    path = __import__("pathlib").Path(__file__).parent / "servers" / f"test_{server}.py"
    assert path.exists(), f"{server} has no tests/servers/test_{server}.py"
    text = path.read_text()
    untested = [s.name for s in get_toolkit(server).visible_specs() if f'"{s.name}"' not in text]
    assert not untested, f"tools never called in {path.name}: {untested}"
