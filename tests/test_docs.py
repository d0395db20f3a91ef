"""What the documentation tells a user to run, checked against the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# An editable install with the dev extra: the development install, written down once.
DEV_INSTALL = re.compile(r"pip install[^`\n]* -e \"?\.\[[^\]]*\bdev\b")


def test_the_development_install_is_written_once_in_the_readme_and_run_by_ci():
    pages = [README, *sorted((ROOT / "docs").rglob("*.md"))]
    found = {page.relative_to(ROOT).as_posix(): DEV_INSTALL.findall(page.read_text(encoding="utf-8")) for page in pages}
    assert len(found["README.md"]) == 1, found["README.md"]
    elsewhere = {page: hits for page, hits in found.items() if hits and page != "README.md"}
    assert not elsewhere, f"a second development install instruction (link to the README instead): {elsewhere}"
    command = next(line for line in README.read_text(encoding="utf-8").splitlines() if DEV_INSTALL.search(line))
    steps = command.strip().removeprefix("python3 -m venv .venv && ")
    assert steps in (ROOT / ".ci" / "run").read_text(encoding="utf-8").replace(" --quiet", "")
