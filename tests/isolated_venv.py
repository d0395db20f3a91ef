"""Virtual environments of their own, for libraries whose pins the development environment cannot take.

verifiers 0.4.0 pins `mcp==2.0.0` and veRL 0.9.1 pins `transformers<5.11`, while the development
environment runs the newest of both, so their tests drive the integration from another environment:
prove-env installed from this checkout (editable, so it runs the code as it is now) with the library's
optional extra (`isolated_venv`). The openenv package needs an mcp older than 2, which prove-env cannot
run on at all, so its clients run from an environment that holds openenv alone (`package_venv`) and
talk to a server this process started.

Each environment is made once and kept under the project's cache folder (`prove_env.cache.cache_dir()`,
`venvs/`), keyed by what decides its packages (for a project environment: the extra's and the core's
requirements, the packaging script, this checkout's path and the Python version). A new one replaces
the ones it supersedes; with the cache off they are made in a temporary folder each session.

A library whose requirements would pull a build of a package that the environment must not get (an
unpinned torch resolves to several gigabytes of CUDA packages) names what to install first: veRL's
environment installs `torch==2.13.0`, the CPU build, before the project.
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
from collections.abc import Sequence
from pathlib import Path

from prove_env.cache import cache_dir

ROOT = Path(__file__).resolve().parents[1]
_READY = "prove-env-ready"


def isolated_venv(extra: str, *, first: tuple[str, ...] = (), timeout: float = 1800) -> Path:
    """The `bin` folder of a virtual environment holding `prove-env[extra]` from this checkout, with the
    requirements `first` installed before it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = {"core": project["dependencies"], extra: project["optional-dependencies"][extra]}
    decided_by = [requirements, (ROOT / "setup.py").read_text(encoding="utf-8"), str(ROOT), sys.version]
    if first:
        decided_by.append(list(first))
    installs = [["--upgrade", "pip"], *([list(first)] if first else []), ["-e", f"{ROOT}[{extra}]"]]
    return _made(extra, decided_by, installs, str(ROOT), timeout)


def package_venv(requirement: str, *, timeout: float = 1800) -> Path:
    """The `bin` folder of a virtual environment holding `requirement` (such as "openenv==0.10.0") and not
    prove-env."""
    name = requirement.split("=")[0].split("<")[0].split(">")[0].strip()
    return _made(name, [requirement, sys.version], [[requirement]], requirement, timeout)


def _made(name: str, decided_by: list, installs: Sequence[list[str]], owner: str, timeout: float) -> Path:
    """Make the environment `name-<key of decided_by>` once (one test session builds it, the others wait
    and reuse it), running each pip install of `installs` in order; replace the older ones of the same
    name and `owner`."""
    key = hashlib.sha256(json.dumps(decided_by).encode()).hexdigest()[:12]
    base = cache_dir()
    venvs = base / "venvs" if base else Path(tempfile.mkdtemp(prefix="prove-env-venvs-"))
    folder = venvs / f"{name}-{key}"
    venvs.mkdir(parents=True, exist_ok=True)
    with open(venvs / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / _READY).is_file():
            shutil.rmtree(folder, ignore_errors=True)
            venv.EnvBuilder(with_pip=True).create(folder)
            pip = [str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
            for install in installs:
                done = subprocess.run([*pip, *install], capture_output=True, text=True, timeout=timeout, cwd=ROOT)
                if done.returncode != 0:
                    raise RuntimeError(f"pip install {' '.join(install)} failed in {folder}:\n{done.stdout}\n{done.stderr}")
            (folder / _READY).write_text(owner + "\n")
            for old in venvs.glob(f"{name}-*"):  # the ones this one supersedes: same name, same owner
                marker = old / _READY
                if old != folder and old.is_dir() and marker.is_file() and marker.read_text().strip() == owner:
                    shutil.rmtree(old, ignore_errors=True)
                    (venvs / f"{old.name}.lock").unlink(missing_ok=True)
    return folder / "bin"
