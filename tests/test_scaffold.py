"""`prove-env new-server`: the skeleton it writes is a working server that the generic suite
accepts, and the suite names the tool when the recipe loses a goal."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from prove_env import registry
from prove_env import servers as servers_package
from prove_env.cli import main
from prove_env.scaffold import ScaffoldError, new_server
from prove_env.synthesis import recipe as recipe_module
from prove_env.synthesis.recipe import RecipeError, get_recipe
from prove_env.task import load_tasks

NAME = "skeleton_probe"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A checkout-shaped folder whose servers/ the registry also searches, for the test's length."""
    for part in ("servers", "tests/servers", "fixtures/tasks", "docs"):
        (tmp_path / part).mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "tests" / "conftest.py")
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    monkeypatch.setattr(servers_package, "__path__", [*servers_package.__path__, str(tmp_path / "servers")])
    registry.server_names.cache_clear()
    yield tmp_path
    registry.server_names.cache_clear()
    registry.get_toolkit.cache_clear()
    recipe_module._RECIPES.pop(NAME, None)
    for module in [m for m in sys.modules if m.startswith(f"prove_env.servers.{NAME}")]:
        del sys.modules[module]


def test_new_server_writes_a_server_the_suite_accepts(scratch: Path) -> None:
    written = new_server(NAME, scratch)
    assert {p.relative_to(scratch).as_posix() for p in written} == {
        *(f"servers/{NAME}/{f}" for f in ("__init__.py", "models.py", "seed.py", "tools.py", "synth.py")),
        f"tests/servers/test_{NAME}.py", f"fixtures/tasks/{NAME}.jsonl", "docs/catalog.md", "README.md"}
    assert NAME in registry.server_names()
    toolkit = registry.get_toolkit(NAME)
    assert len(toolkit.visible_specs()) >= registry.minimum_tools(NAME)
    get_recipe(NAME)
    tasks = load_tasks(scratch / "fixtures" / "tasks" / f"{NAME}.jsonl")
    assert len(tasks) >= 8 and any(t.abstain for t in tasks) and any(t.writes for t in tasks)
    assert f"## {NAME}" in (scratch / "docs" / "catalog.md").read_text()
    assert f"| `{NAME}` | {len(toolkit.visible_specs())} | Owners and the items they hold: look owners up, list," in (
        scratch / "README.md").read_text()  # the server table's new row
    # the generated domain tests pass, run by pytest in a process of their own
    run = subprocess.run(
        [sys.executable, "-c",
         "import sys, pytest; import prove_env.servers as s; from prove_env.registry import server_names; "
         "s.__path__.append(sys.argv[1]); server_names.cache_clear(); "
         "sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', sys.argv[2]]))",
         str(scratch / "servers"), str(scratch / "tests" / "servers" / f"test_{NAME}.py")],
        capture_output=True, text=True, timeout=300, cwd=scratch)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]

    # a goal removed from the recipe: the check names the tool
    synth = scratch / "servers" / NAME / "synth.py"
    synth.write_text(synth.read_text().replace('@goals.add("rename_item")\n', ""))
    recipe_module._RECIPES.pop(NAME, None)
    for module in [m for m in sys.modules if m == f"prove_env.servers.{NAME}.synth"]:
        del sys.modules[module]
    with pytest.raises(RecipeError, match=rf"{NAME}: visible tools \['rename_item'\] are neither a goal"):
        get_recipe(NAME)


def test_new_server_refuses_bad_names_and_existing_servers(scratch: Path, capsys: pytest.CaptureFixture) -> None:
    for bad in ("Shop", "1shop", "a", "class", "shop-front"):
        with pytest.raises(ScaffoldError, match="a server name is"):
            new_server(bad, scratch)
    with pytest.raises(ScaffoldError, match="already registered"):
        new_server("banking", scratch)
    assert main(["new-server", "Bad-Name"]) == 2
    assert "a server name is" in capsys.readouterr().err
    assert not list((scratch / "servers").iterdir())
