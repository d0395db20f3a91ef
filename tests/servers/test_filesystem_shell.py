"""The filesystem server's text tools against GNU behaviour: lines, long grep matches, find's start point."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from prove_env.registry import get_toolkit

# Every character Python's str.splitlines() breaks on besides '\n'; GNU tools end lines at '\n' only.
OTHER_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
TEXT = "alpha\rbeta\n" + "".join(f"w{i}{c}x{i}\n" for i, c in enumerate(OTHER_BREAKS)) + "b\r\na\n"
GNU = all(shutil.which(tool) for tool in ("cat", "grep", "head", "tail", "sort", "wc", "find"))


@pytest.fixture
def fs(served):
    s = served("filesystem")
    s.ok("write_file", path="mixed.txt", content=TEXT)
    return s


def shell(s, tool: str, /, **arguments) -> str:
    result = s.call(tool, **arguments)
    assert result.ok, f"{tool}({arguments}) failed: {result.text}"
    return result.text


def test_lines_end_at_newlines_only(fs):
    lines = TEXT.split("\n")[:-1]
    assert len(lines) == TEXT.count("\n") == 3 + len(OTHER_BREAKS)
    assert shell(fs, "cat", path="mixed.txt") == TEXT[:-1]
    assert shell(fs, "cat", path="mixed.txt", number_lines=True).split("\n")[0] == "     1\talpha\rbeta"
    assert shell(fs, "grep", pattern="beta", path="mixed.txt") == "1:alpha\rbeta"
    assert shell(fs, "grep", pattern="x3", path="mixed.txt") == f"5:w3{OTHER_BREAKS[3]}x3"
    assert shell(fs, "head", path="mixed.txt", n=1) == "alpha\rbeta"
    assert shell(fs, "tail", path="mixed.txt", n=2) == "b\r\na"
    assert shell(fs, "sort", path="mixed.txt").split("\n")[:2] == ["a", "alpha\rbeta"]
    assert shell(fs, "wc", path="mixed.txt").split()[0] == str(len(lines))
    assert fs.ok("read_file", path="mixed.txt")["total_lines"] == len(lines)
    assert fs.ok("stat", path="mixed.txt")["lines"] == len(lines)


@pytest.mark.skipif(not GNU, reason="GNU coreutils, grep and findutils are not installed")
@pytest.mark.parametrize("tool, arguments, command", [
    ("cat", {}, ["cat"]),
    ("cat", {"number_lines": True}, ["cat", "-n"]),
    ("grep", {"pattern": "beta"}, ["grep", "-n", "beta"]),
    ("grep", {"pattern": "x", "invert_match": True}, ["grep", "-n", "-v", "x"]),
    ("head", {"n": 3}, ["head", "-n", "3"]),
    ("tail", {"n": 3}, ["tail", "-n", "3"]),
    ("sort", {}, ["sort"]),
])
def test_text_tools_print_what_gnu_tools_print(fs, tmp_path, tool, arguments, command):
    real = tmp_path / "mixed.txt"
    real.write_bytes(TEXT.encode())
    gnu = subprocess.run([*command, str(real)], capture_output=True, check=True, env={**os.environ, "LC_ALL": "C"})
    assert shell(fs, tool, path="mixed.txt", **arguments).encode() == gnu.stdout.removesuffix(b"\n")
    counted = subprocess.run(["wc", "-l", "-c", str(real)], capture_output=True, check=True).stdout.split()
    assert shell(fs, "wc", path="mixed.txt").split()[0::2][:2] == [n.decode() for n in counted[:2]]


def test_grep_keeps_the_match_of_a_long_line_and_says_what_it_left_out(served):
    s = served("filesystem")
    s.ok("write_file", path="long.txt", content="x" * 600 + " needle\n" + "y" * 1000 + "\n" + "z" * 500 + "\n")
    found = shell(s, "grep", pattern="needle", path="long.txt")
    assert found.startswith("1:[... 107 characters] xxx") and found.endswith("x needle")
    assert len(found) == len("1:[... 107 characters] ") + 500
    s.ok("write_file", path="long.txt", content="a" * 300 + "needle" + "b" * 300 + "\n")
    middle = shell(s, "grep", pattern="needle", path="long.txt", line_numbers=False)
    assert middle == "[... 53 characters] " + "a" * 247 + "needle" + "b" * 247 + " [... 53 characters]"
    s.ok("write_file", path="long.txt", content="y" * 1000 + "\n" + "z" * 500 + "\n")
    unmatched = shell(s, "grep", pattern="y", path="long.txt", invert_match=True)
    assert unmatched == "2:" + "z" * 500  # 500 characters come back whole
    first = shell(s, "grep", pattern="z", path="long.txt", invert_match=True)
    assert first == "1:" + "y" * 500 + " [... 500 characters]"
    assert "500 characters" in get_toolkit("filesystem").specs()["grep"].description


def test_find_tests_the_start_directory_under_the_name_it_was_written_with(served):
    s = served("filesystem")
    shell(s, "mkdir", path="work/work", parents=True)
    shell(s, "cd", path="work")
    assert shell(s, "find", path=".", name="work") == "./work"
    assert shell(s, "find", path=".", name=".") == "."
    assert shell(s, "find", path="..", name="work", max_depth=1) == "../work"
    assert shell(s, "find", path="../work", name="work") == "../work\n../work/work"
    assert shell(s, "find", path="/", name="/", max_depth=0) == "/"
    shell(s, "cd", path="work")
    assert shell(s, "find", path=".", name="work") == "(no matches)"


@pytest.mark.skipif(not GNU, reason="findutils is not installed")
def test_find_prints_what_gnu_find_prints(served, tmp_path):
    s = served("filesystem")
    shell(s, "mkdir", path="top/work/work", parents=True)
    shell(s, "cd", path="top/work")
    (tmp_path / "top" / "work" / "work").mkdir(parents=True)
    for start, pattern in ((".", "work"), (".", "."), ("..", "work"), ("../work", "work"), ("./work/..", "..")):
        gnu = subprocess.run(["find", start, "-name", pattern], capture_output=True, text=True, check=True,
                             cwd=tmp_path / "top" / "work").stdout.strip()
        assert shell(s, "find", path=start, name=pattern) == (gnu or "(no matches)"), (start, pattern)
