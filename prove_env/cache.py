"""What is costly to work out from the installed code and cheap to keep, kept on disk.

Listing the servers means importing every server's models and tools (about a second for twenty
servers, most of it SQLAlchemy mapping the models). The result depends only on the code, so it is
kept in a small JSON file keyed by a fingerprint of that code: the size and modification time of
every Python file of the package and of its servers, with the Python version. Any
change to the code gives a new fingerprint, and the value is computed again. A value derived from
something narrower (a server's tool dependency graph, from its tool schemas) is keyed by a digest
of that instead.

The folder is `$PROVE_ENV_CACHE`, else `$XDG_CACHE_HOME/prove-env`, else `~/.cache/prove-env`;
`PROVE_ENV_CACHE=off` turns the cache off. A folder that cannot be written only costs the time.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["cache_dir", "code_fingerprint", "cached"]

T = TypeVar("T")


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is turned off."""
    chosen = os.environ.get("PROVE_ENV_CACHE")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "0", "off", "false", "no") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "prove-env"


def code_fingerprint(folders: Iterable[str]) -> str:
    """A digest of the Python files under `folders` (path, size, modification time), with the
    Python version."""
    digest = hashlib.sha256(sys.version.encode())
    for root in sorted(set(folders)):
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    stat = os.stat(path)
                    digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:32]


def cached(name: str, compute: Callable[[], T], key: str) -> T:
    """`compute()`, or its JSON-able value kept from an earlier run with the same `key` (a digest of
    what the value is derived from). `name` is the entry's file name in the cache folder, without
    `.json`."""
    folder = cache_dir()
    if folder is None:
        return compute()
    path = folder / f"{name}.json"
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        if kept.get("key") == key:
            return kept["value"]
    except (OSError, ValueError, AttributeError, KeyError):
        pass
    value = compute()
    _write(path, {"key": key, "value": value})
    return value


def _write(path: Path, data: Any) -> None:
    """Write `data` as JSON in one step (a reader sees the old file or the new one), or not at all."""
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, suffix=".tmp",
                                         delete=False) as f:
            temporary = f.name
            json.dump(data, f)
        os.replace(temporary, path)
    except OSError:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
