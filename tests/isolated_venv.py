"""A virtual environment of its own, for a library whose pins the development environment cannot take.

verifiers 0.4.0 pins `mcp==2.0.0` while the development environment runs the newest mcp 2.x, so
its tests drive the integration from another environment: prove-env installed from this checkout
(editable, so it runs the code as it is now) with the library's optional extra. It is made once
and kept under the project's cache folder (`prove_env.cache.cache_dir()`, `venvs/`), keyed by what
decides its packages: the extra's and the core's requirements, the packaging script, this
checkout's path and the Python version. A new one replaces the ones it supersedes; with the cache
off it is made in a temporary folder each session.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import tomllib
import venv
from pathlib import Path

from prove_env.cache import cache_dir

ROOT = Path(__file__).resolve().parents[1]
_READY = "prove-env-ready"


def isolated_venv(extra: str, *, timeout: float = 1800) -> Path:
    """The `bin` folder of a virtual environment holding `prove-env[extra]` from this checkout."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = {"core": project["dependencies"], extra: project["optional-dependencies"][extra]}
    key = hashlib.sha256(json.dumps([requirements, (ROOT / "setup.py").read_text(encoding="utf-8"), str(ROOT),
                                     sys.version]).encode()).hexdigest()[:12]
    base = cache_dir()
    venvs = base / "venvs" if base else Path(tempfile.mkdtemp(prefix="prove-env-venvs-"))
    folder = venvs / f"{extra}-{key}"
    venvs.mkdir(parents=True, exist_ok=True)
    with open(venvs / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one test session builds it; the others wait and reuse it
        if not (folder / _READY).is_file():
            shutil.rmtree(folder, ignore_errors=True)
            venv.EnvBuilder(with_pip=True).create(folder)
            pip = [str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
            subprocess.run([*pip, "--upgrade", "pip"], check=True, timeout=timeout)
            subprocess.run([*pip, "-e", f"{ROOT}[{extra}]"], check=True, timeout=timeout, cwd=ROOT)
            (folder / _READY).write_text(str(ROOT) + "\n")
            for old in venvs.glob(f"{extra}-*"):  # the ones this one supersedes: same extra, same checkout
                marker = old / _READY
                if old != folder and old.is_dir() and marker.is_file() and marker.read_text().strip() == str(ROOT):
                    shutil.rmtree(old, ignore_errors=True)
                    (venvs / f"{old.name}.lock").unlink(missing_ok=True)
    return folder / "bin"
