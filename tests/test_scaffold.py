"""`prove-env new-server`: the skeleton it writes is a working server that the generic suite
accepts, and the suite names the tool when the recipe loses a goal."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
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


# -- the whole generic suite on a fresh copy of the checkout -------------------------------------------

CHECKOUT_PARTS = ("prove_env", "servers", "fixtures", "tests", "docs", "README.md", "pyproject.toml")


def _checkout_copy(into: Path) -> Path:
    """A copy of this checkout at `into`, and the Python of an environment where it is installed for
    development: `prove_env` and its `servers`/`fixtures` packages import from the copy (as
    pyproject's package-dir maps them), every dependency from this environment. Processes it starts
    (the TypeScript client's server, whose environment is not inherited) import the copy too."""
    tree = into / "checkout"
    patterns = shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules", ".hypothesis")

    def junk(folder: str, names: list[str]) -> set[str]:  # links are made afresh below
        return patterns(folder, names) | {n for n in names if os.path.islink(os.path.join(folder, n))}

    for part in CHECKOUT_PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, tree / part, ignore=junk)
        else:
            shutil.copy(source, tree / part)
    for package in ("servers", "fixtures"):
        (tree / "prove_env" / package).symlink_to(tree / package, target_is_directory=True)
    modules = ROOT / "tests" / "ts_client" / "node_modules"
    if modules.is_dir():  # the official TypeScript client, installed once for this checkout
        (tree / "tests" / "ts_client" / "node_modules").symlink_to(modules, target_is_directory=True)
    environment = into / "venv"
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(environment)
    python = environment / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    dependencies = sysconfig.get_paths()["purelib"]
    (Path(site) / "prove_env_checkout.pth").write_text(
        f"{tree}\nimport site; site.addsitedir({dependencies!r})\n", encoding="utf-8")
    return python


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_new_server_passes_the_generic_suite_in_a_fresh_checkout(tmp_path: Path) -> None:
    """`prove-env new-server demo_store` then `pytest -k demo_store`, as a new user runs them: every
    generic suite (conformance, synthesis gates, walks, fuzzing, success probes, the environment,
    serving, the TypeScript client) passes on the skeleton as written."""
    name = "demo_store"
    python = _checkout_copy(tmp_path)
    tree = tmp_path / "checkout"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PROVE_ENV_CACHE"] = str(tmp_path / "cache")
    made = subprocess.run([python, "-m", "prove_env.cli", "new-server", name], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stdout[-2000:] + made.stderr[-2000:]
    assert (tree / "servers" / name / "tools.py").is_file() and not (ROOT / "servers" / name).exists()
    run = subprocess.run([python, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-k", name, "tests"], cwd=tree,
                         env=env, capture_output=True, text=True, timeout=1700)
    report = run.stdout[-6000:] + run.stderr[-2000:]
    assert run.returncode == 0, report
    for suite in ("test_conformance.py::test_recipe_writes_tasks_that_pass_the_gates",
                  "test_conformance.py::test_schema_valid_calls_meet_no_argument_error",
                  "test_conformance.py::test_read_only_tools_answer_their_smallest_schema_valid_call",
                  "test_conformance.py::test_fixture_tasks_are_stamped_and_replay_at_the_maximum",
                  "test_synthesis.py::test_recipe_is_consistent_and_samples_entities",
                  "test_walks.py::test_random_walks_keep_every_rule", "test_fuzz_tools.py::test_fuzz_every_tool",
                  "test_success.py::test_every_gold_read_feeds_a_later_call_or_tells_a_fact",
                  "test_env.py::test_check_env"):
        assert f"{suite}[{name}] PASSED" in run.stdout, f"{suite}[{name}] did not pass:\n{report}"
