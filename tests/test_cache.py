"""The on-disk cache of what is derived from the code: kept for the same code, recomputed otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from prove_env import cache, servers
from prove_env.registry import _summaries, server_summaries


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PROVE_ENV_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_a_value_is_computed_once_per_key(folder: Path) -> None:
    computed = []

    def compute() -> dict:
        computed.append(1)
        return {"n": len(computed)}

    assert cache.cached("thing", compute, key="a") == {"n": 1}
    assert cache.cached("thing", compute, key="a") == {"n": 1} and len(computed) == 1
    assert cache.cached("thing", compute, key="b") == {"n": 2}  # another key: computed again
    assert json.loads((folder / "thing.json").read_text()) == {"key": "b", "value": {"n": 2}}


def test_a_broken_or_unwritable_cache_only_costs_the_computation(folder: Path, monkeypatch) -> None:
    folder.mkdir()
    (folder / "thing.json").write_text("{not json")
    assert cache.cached("thing", lambda: [1, 2], key="k") == [1, 2]
    assert cache.cached("thing", lambda: [3], key="k") == [1, 2]  # the broken file was replaced
    blocked = folder / "file"
    blocked.write_text("")
    monkeypatch.setenv("PROVE_ENV_CACHE", str(blocked / "below-a-file"))
    assert cache.cached("thing", lambda: [4], key="k") == [4]
    monkeypatch.setenv("PROVE_ENV_CACHE", "off")
    assert cache.cache_dir() is None and cache.cached("thing", lambda: [5], key="k") == [5]


def test_the_fingerprint_follows_every_python_file_of_the_servers(tmp_path: Path) -> None:
    extra = tmp_path / "extra_server"
    extra.mkdir()
    (extra / "tools.py").write_text("x = 1\n")
    folders = [*servers.__path__, str(tmp_path)]
    before = cache.code_fingerprint(folders)
    assert cache.code_fingerprint(folders) == before != cache.code_fingerprint(servers.__path__)
    (extra / "tools.py").write_text("x = 22\n")
    assert cache.code_fingerprint(folders) != before
    changed = cache.code_fingerprint(folders)
    os.utime(extra / "tools.py", ns=(0, 0))
    assert cache.code_fingerprint(folders) != changed


def test_server_summaries_from_the_cache_equal_the_computed_ones(folder: Path) -> None:
    assert server_summaries() == _summaries()
    assert (folder / "servers.json").exists()
    assert server_summaries() == _summaries()


def test_a_cached_listing_imports_no_server(folder: Path) -> None:
    probe = ("import sys\nfrom prove_env.cli import main\nmain(['list'])\n"
             "print(sorted(m for m in sys.modules if m.startswith('prove_env.servers.')), file=sys.stderr)")
    env = {**os.environ, "PROVE_ENV_CACHE": str(folder)}
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
            for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout and "banking" in runs[0].stdout
    assert "prove_env.servers.banking.tools" in runs[0].stderr  # the first run computes the listing
    assert runs[1].stderr.strip() == "[]"  # the second imports no server
