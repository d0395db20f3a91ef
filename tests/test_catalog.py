"""docs/catalog.md is generated from the servers' code and never drifts from it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from prove_env.catalog import REGENERATE, _cell, _inline, render_catalog
from prove_env.registry import get_toolkit, server_names

CATALOG = Path(__file__).parents[1] / "docs" / "catalog.md"
README = Path(__file__).parents[1] / "README.md"


@pytest.fixture(scope="module")
def rendered() -> str:
    return render_catalog()


def test_committed_catalog_matches_the_code(rendered):
    committed = CATALOG.read_text(encoding="utf-8") if CATALOG.exists() else ""
    # Trailing newlines are not content (`print` adds one when the command writes the file).
    assert committed.rstrip("\n") == rendered.rstrip("\n"), (
        f"docs/catalog.md is out of date with the servers' code; regenerate it with `{REGENERATE}` "
        "(or: python -c \"from prove_env.catalog import render_catalog; "
        "open('docs/catalog.md', 'w', encoding='utf-8').write(render_catalog())\")"
    )


def test_rendering_is_deterministic(rendered):
    assert render_catalog() == rendered


def test_header_says_generated_and_not_to_edit(rendered):
    head = rendered.splitlines()[0]
    assert "prove-env catalog" in head and "do not edit" in head.lower()


def test_every_visible_tool_is_listed_and_hidden_ones_are_not(rendered):
    for name in server_names():
        toolkit = get_toolkit(name)
        assert f"\n## {name}\n" in rendered
        visible = toolkit.visible_specs()
        hidden = [s for s in toolkit.specs().values() if s.hidden]
        assert f"| [`{name}`](#{name}) | {len(visible)} |" in rendered
        for spec in visible:
            assert f"| [`{spec.name}`](#{name}-{spec.name}) |" in rendered, f"{name}.{spec.name} missing from the table"
            assert f'<a id="{name}-{spec.name}"></a>\n\n#### `{spec.name}`\n' in rendered
            for parameter in spec.parameters.get("properties", {}):
                assert f"| `{parameter}` |" in rendered
        for spec in hidden:
            assert f"`{spec.name}`" not in rendered, f"hidden tool {name}.{spec.name} is listed"
            assert spec.description.splitlines()[0] not in rendered
        if hidden:
            assert f"plus {len(hidden)} hidden helper tool" in rendered


def test_table_cells_escape_pipes(rendered):
    assert _cell("'ERROR|WARN' or `a|b`") == "'ERROR\\|WARN' or `a\\|b`"
    with_pipes = [  # today: filesystem grep's 'ERROR|WARN'.
        _inline(schema.get("description", ""))
        for name in server_names()
        for spec in get_toolkit(name).visible_specs()
        for schema in spec.parameters.get("properties", {}).values()
        if "|" in schema.get("description", "")
    ]
    for text in with_pipes:
        assert _cell(text) in rendered and f"| {text} |" not in rendered


def test_rows_have_as_many_cells_as_their_header(rendered):
    width = None
    for line in rendered.splitlines():
        if not line.startswith("|"):
            width = None
            continue
        cells = len(re.split(r"(?<!\\)\|", line.strip())) - 2
        if width is None:
            width = cells
        assert cells == width, f"row with {cells} cells under a header of {width}: {line}"


def test_readme_lists_every_server_with_its_tool_count():
    rows = dict(re.findall(r"^\| `(\w+)` \| (\d+) \|", README.read_text(encoding="utf-8"), flags=re.MULTILINE))
    counts = {name: str(len(get_toolkit(name).visible_specs())) for name in server_names()}
    assert rows == counts, "the README's server table: one row per server, with the tools the agent sees"
