"""The filesystem server through real MCP: every visible tool, its failure modes, and state chains."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from pathlib import Path

import pytest

from prove_env.registry import get_toolkit
from prove_env.runtime import run_sync
from prove_env.world import worlds
from servers.filesystem.models import Node

TASKS = Path(__file__).resolve().parents[2] / "fixtures" / "tasks" / "filesystem.jsonl"

FRUITS = "banana\napple\ncherry\napple\n10 apples\n2 pears\n"
NOTES = "# Notes\nTODO: buy milk\ntodo: call mom\nDone: a.c\n"
CSV = "name,qty,price\nwidget,3,2.50\ngadget,10,1.25\ngizmo,x,4\n"
INNER = "needle here\nno match\n"


def sh(s, tool: str, /, **args) -> str:
    """Call a tool that must succeed and return its text."""
    result = s.call(tool, **args)
    assert result.ok, f"{tool}({args}) failed: {result.text}"
    return result.text


@pytest.fixture
def fs(served):
    return served("filesystem")


@pytest.fixture
def work(fs):
    """A world with a small known tree under ~/work; the working directory stays the home directory."""
    sh(fs, "mkdir", path="work/sub/deep", parents=True)
    fs.ok("write_file", path="work/fruits.txt", content=FRUITS)
    fs.ok("write_file", path="work/notes.md", content=NOTES)
    fs.ok("write_file", path="work/data.csv", content=CSV)
    fs.ok("write_file", path="work/sub/deep/inner.txt", content=INNER)
    return fs


def home_of(s) -> str:
    return s.ok("user_info")["home"]


def now_text(s) -> str:
    return s.world.now.isoformat(timespec="minutes")


# -- the server as a whole -----------------------------------------------------------------------

EXPECTED_TOOLS = {
    "pwd", "cd", "user_info", "ls", "tree", "stat", "exists", "list_dir", "find", "glob", "list_recent",
    "realpath", "readlink", "cat", "head", "tail", "read_file", "wc", "diff", "checksum", "column_stats",
    "grep", "search_files", "sort", "uniq", "cut", "du", "disk_usage", "count_files", "find_duplicates",
    "mkdir", "touch", "echo", "write_file", "append_file", "replace_in_file", "insert_lines", "delete_lines",
    "sed", "mv", "cp", "rm", "rmdir", "symlink", "chmod", "tar_create", "tar_list", "tar_extract",
}


def test_visible_tools_and_annotations(fs):
    tools = {t.name: t for t in run_sync(fs.client.list_tools())}
    assert set(tools) == EXPECTED_TOOLS
    assert len(tools) >= 40
    assert "debug_nodes" not in tools
    for name in ("pwd", "ls", "cat", "find", "grep", "wc", "sort", "tail", "du", "diff", "stat", "tree"):
        assert tools[name].annotations.read_only_hint is True, name
    for name in ("cd", "mkdir", "touch", "echo", "mv", "cp", "rm", "rmdir", "chmod", "write_file", "sed"):
        assert tools[name].annotations.read_only_hint is False, name
    for name in ("rm", "rmdir", "mv", "cp", "write_file", "echo", "delete_lines", "tar_extract"):
        assert tools[name].annotations.destructive_hint is True, name
    for name in ("mkdir", "touch", "append_file", "replace_in_file", "cd"):
        assert tools[name].annotations.destructive_hint is False, name
    for name in ("touch", "write_file", "chmod"):
        assert tools[name].annotations.idempotent_hint is True, name
    assert tools["cd"].annotations.idempotent_hint is False  # cd('..') twice goes up twice
    for tool in tools.values():
        assert tool.description and tool.input_schema["additionalProperties"] is False


def test_hidden_debug_tool(served):
    hidden = served("filesystem", include_hidden=True)
    rows = hidden.ok("debug_nodes", prefix="/etc/nginx")
    assert [r["path"] for r in rows] == ["/etc/nginx", "/etc/nginx/nginx.conf", "/etc/nginx/sites-available",
                                         "/etc/nginx/sites-available/default.conf"]
    assert rows[1]["owner"] == "root" and rows[1]["mode"] == "0644"
    visible = served("filesystem")
    visible.fails("debug_nodes", "unknown tool", prefix="/")


def test_same_seed_same_world_and_a_plausible_seed():
    toolkit = get_toolkit("filesystem")
    first = worlds.digest(toolkit, 0)
    worlds.clear()
    assert worlds.digest(toolkit, 0) == first
    assert worlds.digest(toolkit, 1) != first
    world = worlds.create(toolkit, 3)
    try:
        nodes = world.rows("nodes")
        assert 150 <= len(nodes) <= 400
        assert len(world.serialize()) < 1_000_000
        kinds = {row[3] for row in nodes}
        assert kinds == {"file", "dir", "symlink"}
        assert any(row[6] == 0o444 for row in nodes), "some files are read-only"
        assert max(row[0].count("/") for row in nodes) >= 8, "some files are nested deeply"
        (shell,) = world.rows("shell")
        assert shell[4] == shell[3] == f"/home/{shell[1]}"  # cwd starts at home
    finally:
        world.close()


def test_seeded_home_has_the_promised_content(fs):
    home = home_of(fs)
    listing = sh(fs, "ls").splitlines()
    for folder in ("projects", "notes", "logs", "data", "documents", "scripts", "downloads"):
        assert folder in listing
    assert ".bashrc" not in listing
    assert int(sh(fs, "grep", pattern="ERROR", path="logs/app.log", count=True)) > 0
    assert "WARN" in sh(fs, "cat", path="logs/app.log") and "INFO" in sh(fs, "cat", path="logs/app.log")
    tree = sh(fs, "find", path="~/projects", name="*.py")
    assert "/src/" in tree and "/tests/test_" in tree
    assert fs.ok("stat", path="/etc/hosts")["owner"] == "root"
    assert fs.ok("exists", path=f"{home}/notes/todo.md")["exists"] is True


# -- shell state: pwd / cd ------------------------------------------------------------------------


def test_cd_pwd_chain_with_relative_paths(work):
    s = work
    home = home_of(s)
    assert sh(s, "pwd") == home
    s.fails("cd", "OLDPWD not set", path="-")
    assert sh(s, "cd", path="work/sub") == f"{home}/work/sub"
    assert sh(s, "cd", path="deep") == f"{home}/work/sub/deep"
    assert sh(s, "cat", path="inner.txt") == "needle here\nno match"
    assert sh(s, "cd", path="../..") == f"{home}/work"
    assert sh(s, "pwd") == f"{home}/work"
    assert sh(s, "cd", path="-") == f"{home}/work/sub/deep"
    assert sh(s, "cd", path="-") == f"{home}/work"
    assert sh(s, "cd", path="//etc///nginx/./") == "/etc/nginx"
    assert sh(s, "cd", path="../../../../..") == "/"
    assert sh(s, "cd", path="~") == home
    sh(s, "cd", path="/tmp")
    assert sh(s, "cd") == home
    assert sh(s, "cd", path="~/work/sub/../sub/deep") == f"{home}/work/sub/deep"
    assert s.ok("user_info")["cwd"] == f"{home}/work/sub/deep"


def test_cd_resolves_symbolic_links_and_fails_readably(fs):
    home = home_of(fs)
    target = sh(fs, "readlink", path="current")
    assert sh(fs, "cd", path="current") == f"{home}/{target}"
    sh(fs, "cd", path="~")
    fs.fails("cd", "No such file or directory", path="nowhere")
    fs.fails("cd", "Not a directory", path="notes/todo.md")
    fs.fails("cd", "Not a directory", path="notes/todo.md/x")
    fs.fails("cd", "Permission denied", path="/root")
    fs.fails("cd", "path is empty", path="")
    assert sh(fs, "pwd") == home


def test_user_info(fs):
    info = fs.ok("user_info")
    assert info["home"] == f"/home/{info['user']}"
    assert info["groups"][0] == info["user"] and "developers" in info["groups"]
    assert info["cwd"] == info["home"]


# -- looking around -------------------------------------------------------------------------------


def test_ls_flags(work):
    s = work
    assert sh(s, "ls", path="work") == "data.csv\nfruits.txt\nnotes.md\nsub"
    sh(s, "touch", path="work/.hidden")
    assert ".hidden" not in sh(s, "ls", path="work")
    assert sh(s, "ls", path="work", all=True).splitlines()[0] == ".hidden"
    user = s.ok("user_info")["user"]
    long = sh(s, "ls", path="work", long=True).splitlines()
    assert long[1] == f"-rw-r--r-- {user} {user} 44 {now_text(s).replace('T', ' ')} fruits.txt"
    assert long[3].startswith(f"drwxr-xr-x {user} {user} 4096 ") and long[3].endswith(" sub")
    assert sh(s, "ls", path="work", recursive=True) == (
        "work:\ndata.csv\nfruits.txt\nnotes.md\nsub\n\nwork/sub:\ndeep\n\nwork/sub/deep:\ninner.txt")
    assert sh(s, "ls", path="work/fruits.txt") == "work/fruits.txt"
    assert sh(s, "ls", path="work/*.txt") == "work/fruits.txt"
    assert sh(s, "ls", path="work/s*") == "deep"
    assert sh(s, "ls", path="work/[ns]*") == "work/notes.md\n\nwork/sub:\ndeep"
    assert "current -> projects/" in sh(s, "ls", long=True)
    sh(s, "mkdir", path="work/empty")
    assert sh(s, "ls", path="work/empty") == "(empty directory)"
    s.fails("ls", "No such file or directory", path="work/missing")
    s.fails("ls", "No such file or directory", path="work/*.xyz")
    s.fails("ls", "Permission denied", path="/root")


def test_tree(work):
    s = work
    sh(s, "touch", path="work/.env")
    assert sh(s, "tree", path="work") == (
        "work\n├── data.csv\n├── fruits.txt\n├── notes.md\n└── sub\n    └── deep\n        └── inner.txt\n\n"
        "2 directories, 4 files")
    assert sh(s, "tree", path="work", max_depth=1).endswith("└── sub\n\n1 directories, 3 files")
    assert sh(s, "tree", path="work", dirs_only=True) == "work\n└── sub\n    └── deep\n\n2 directories"
    assert "├── .env" in sh(s, "tree", path="work", all=True)
    assert "[error opening dir: Permission denied]" in sh(s, "tree", path="/tmp")
    s.fails("tree", "Not a directory", path="work/fruits.txt")
    s.fails("tree", "max_depth must be 1 or more", path="work", max_depth=0)


def test_stat_exists_realpath_readlink(work):
    s = work
    home = home_of(s)
    info = s.ok("stat", path="work/fruits.txt")
    assert info["path"] == f"{home}/work/fruits.txt"
    assert (info["type"], info["size"], info["lines"], info["mode"], info["permissions"]) == (
        "file", 44, 6, "0644", "-rw-r--r--")
    assert info["modified"] == now_text(s)
    assert s.ok("stat", path="work/sub")["entries"] == 1
    assert s.ok("stat", path="/tmp")["permissions"] == "drwxrwxrwt"
    link = s.ok("stat", path="current")
    assert link["type"] == "symlink" and link["target"].startswith("projects/")
    s.fails("stat", "No such file or directory", path="work/nope")

    assert s.ok("exists", path="work/sub") == {"path": f"{home}/work/sub", "exists": True, "type": "directory"}
    assert s.ok("exists", path="work/nope")["exists"] is False
    assert s.ok("exists", path="work/fruits.txt/x") == {"path": f"{home}/work/fruits.txt/x", "exists": False,
                                                       "type": None}
    s.fails("exists", "Permission denied", path="/root/.bashrc")

    assert sh(s, "realpath", path="current/README.md") == f"{home}/{link['target']}/README.md"
    assert sh(s, "realpath", path="work/./sub/../new.txt") == f"{home}/work/new.txt"
    s.fails("realpath", "No such file or directory", path="work/missing/new.txt")
    assert sh(s, "readlink", path="current") == link["target"]
    s.fails("readlink", "not a symbolic link", path="work/fruits.txt")
    s.fails("readlink", "No such file or directory", path="work/ghost")


def test_list_dir(work):
    s = work
    sh(s, "touch", path="work/.hidden")
    listing = s.ok("list_dir", path="work")
    assert [e["name"] for e in listing["entries"]] == ["data.csv", "fruits.txt", "notes.md", "sub"]
    assert listing["total"] == 4 and listing["truncated"] is False
    assert set(listing["entries"][0]) >= {"name", "path", "type", "size", "mode", "permissions", "owner", "modified"}
    by_size = s.ok("list_dir", path="work", sort_by="size", limit=2)
    assert [e["name"] for e in by_size["entries"]] == ["sub", "data.csv"] and by_size["truncated"] is True
    assert s.ok("list_dir", path="work", sort_by="size", reverse=True)["entries"][0]["name"] == "fruits.txt"
    assert s.ok("list_dir", path="work", all=True)["entries"][0]["name"] == ".hidden"
    recent = s.ok("list_dir", path="logs", sort_by="modified")["entries"]
    assert recent[0]["name"] == "app.log"
    s.fails("list_dir", "Not a directory", path="work/notes.md")
    s.fails("list_dir", "Permission denied", path="/root")
    s.fails("list_dir", "limit must be 1 or more", path="work", limit=0)


def test_find(work):
    s = work
    assert sh(s, "find", path="work") == (
        "work\nwork/data.csv\nwork/fruits.txt\nwork/notes.md\nwork/sub\nwork/sub/deep\nwork/sub/deep/inner.txt")
    assert sh(s, "find", path="work", name="*.txt") == "work/fruits.txt\nwork/sub/deep/inner.txt"
    assert sh(s, "find", path="work", name="*.TXT") == "(no matches)"
    assert sh(s, "find", path="work", name="*.TXT", ignore_case=True) == "work/fruits.txt\nwork/sub/deep/inner.txt"
    assert sh(s, "find", path="work", type="d") == "work\nwork/sub\nwork/sub/deep"
    assert sh(s, "find", path="work", type="f", max_depth=1) == "work/data.csv\nwork/fruits.txt\nwork/notes.md"
    assert sh(s, "find", path="work", min_size=50) == "work/data.csv"
    assert sh(s, "find", path="work", name="*.md", limit=1) == "work/notes.md"
    limited = sh(s, "find", path="work", limit=2).splitlines()
    assert limited[:2] == ["work", "work/data.csv"] and "5 more lines" in limited[2]
    recent = sh(s, "find", path=".", type="f", modified_within_days=0)
    assert recent.splitlines() == ["./work/data.csv", "./work/fruits.txt", "./work/notes.md",
                                   "./work/sub/deep/inner.txt"]
    sh(s, "cd", path="work/sub")
    assert sh(s, "find", name="inner*") == "./deep/inner.txt"
    assert "find: '/tmp/systemd-private-" in sh(s, "find", path="/tmp", type="d")
    s.fails("find", "Not a directory", path="../fruits.txt")
    s.fails("find", "No such file or directory", path="nowhere")


def test_glob_and_list_recent(work):
    s = work
    home = home_of(s)
    assert s.ok("glob", pattern="work/*.???")["matches"] == [f"{home}/work/data.csv", f"{home}/work/fruits.txt"]
    assert s.ok("glob", pattern="~/work/*/*") == {"pattern": "~/work/*/*", "matches": [f"{home}/work/sub/deep"],
                                                  "truncated": False}
    assert s.ok("glob", pattern="work/[fn]*", limit=1) == {"pattern": "work/[fn]*",
                                                           "matches": [f"{home}/work/fruits.txt"], "truncated": True}
    assert s.ok("glob", pattern="work/*.xyz")["matches"] == []
    assert s.ok("glob", pattern="work/notes.md")["matches"] == [f"{home}/work/notes.md"]
    sh(s, "touch", path="work/.secret")
    assert f"{home}/work/.secret" not in s.ok("glob", pattern="work/*")["matches"]
    assert s.ok("glob", pattern="work/.s*")["matches"] == [f"{home}/work/.secret"]
    s.fails("glob", "limit must be 1 or more", pattern="*", limit=0)

    recent = s.ok("list_recent", path="work", limit=10)
    assert recent["path"] == f"{home}/work"
    assert [f["path"] for f in recent["files"]] == [f"{home}/work/{p}" for p in (
        ".secret", "data.csv", "fruits.txt", "notes.md", "sub/deep/inner.txt")]
    assert recent["files"][0]["modified"] == now_text(s)
    newest_log = s.ok("list_recent", path="logs", limit=1)["files"]
    assert newest_log == [{"path": f"{home}/logs/app.log", "size": newest_log[0]["size"],
                           "modified": newest_log[0]["modified"]}]
    s.fails("list_recent", "Not a directory", path="work/data.csv")


# -- reading --------------------------------------------------------------------------------------


def test_cat_head_tail(work):
    s = work
    assert sh(s, "cat", path="work/fruits.txt") == FRUITS.rstrip("\n")
    assert sh(s, "cat", path="work/fruits.txt", number_lines=True).splitlines()[1] == "     2\tapple"
    assert sh(s, "cat", path="work/*.md") == NOTES.rstrip("\n")
    sh(s, "touch", path="work/empty.txt")
    assert sh(s, "cat", path="work/empty.txt") == "(empty file)"
    assert sh(s, "cat", path="~/current/LICENSE").startswith("MIT License")
    s.fails("cat", "Is a directory", path="work/sub")
    s.fails("cat", "No such file or directory", path="work/none.txt")
    s.fails("cat", "Permission denied", path="/etc/shadow")
    s.fails("cat", "Permission denied", path="/root/.bashrc")

    assert sh(s, "head", path="work/fruits.txt", n=2) == "banana\napple"
    assert sh(s, "head", path="work/fruits.txt") == FRUITS.rstrip("\n")
    assert sh(s, "tail", path="work/fruits.txt", n=2) == "10 apples\n2 pears"
    assert sh(s, "tail", path="work/fruits.txt", n=0) == "(empty file)"
    assert sh(s, "tail", path="work/empty.txt") == "(empty file)"
    s.fails("head", "n must be between 0 and 1000", path="work/fruits.txt", n=-1)
    s.fails("tail", "Is a directory", path="work")
    s.fails("head", "No such file", path="work/missing")


def test_read_file_ranges(work):
    s = work
    home = home_of(s)
    whole = s.ok("read_file", path="work/fruits.txt")
    assert whole == {"path": f"{home}/work/fruits.txt", "start_line": 1, "end_line": 6, "total_lines": 6,
                     "content": FRUITS.rstrip("\n"), "truncated": False}
    part = s.ok("read_file", path="work/fruits.txt", start_line=2, end_line=3)
    assert (part["content"], part["end_line"]) == ("apple\ncherry", 3)
    assert s.ok("read_file", path="work/fruits.txt", start_line=5, end_line=99)["content"] == "10 apples\n2 pears"
    big = "\n".join(f"line {i}" for i in range(1, 1201)) + "\n"
    s.ok("write_file", path="work/big.txt", content=big)
    first = s.ok("read_file", path="work/big.txt")
    assert (first["end_line"], first["truncated"], first["total_lines"]) == (500, True, 1200)
    assert s.ok("read_file", path="work/big.txt", start_line=701)["content"].splitlines()[-1] == "line 1200"
    assert "more lines not shown" in sh(s, "cat", path="work/big.txt").splitlines()[-1]
    s.fails("read_file", "past the end", path="work/fruits.txt", start_line=7)
    s.fails("read_file", "must not be before", path="work/fruits.txt", start_line=3, end_line=2)
    s.fails("read_file", "start_line must be 1 or more", path="work/fruits.txt", start_line=0)
    s.fails("read_file", "Is a directory", path="work")


def test_wc(work):
    s = work
    assert sh(s, "wc", path="work/fruits.txt") == f"6 8 {len(FRUITS)} work/fruits.txt"
    s.ok("write_file", path="work/no-newline.txt", content="one two\nthree")
    assert sh(s, "wc", path="work/no-newline.txt") == "1 3 13 work/no-newline.txt"
    s.ok("write_file", path="work/utf8.txt", content="café\n")
    assert sh(s, "wc", path="work/utf8.txt") == "1 1 6 work/utf8.txt"
    assert sh(s, "wc", path="work/*.md") == f"4 10 {len(NOTES)} work/notes.md"
    total = sh(s, "wc", path="work/[fn]*").splitlines()
    assert total == [f"6 8 {len(FRUITS)} work/fruits.txt", "1 3 13 work/no-newline.txt",
                     f"4 10 {len(NOTES)} work/notes.md", f"11 21 {len(FRUITS) + 13 + len(NOTES)} total"]
    s.fails("wc", "Is a directory", path="work/sub")
    s.fails("wc", "No such file", path="work/zzz")


def test_diff(work):
    s = work
    s.ok("write_file", path="work/fruits2.txt", content=FRUITS.replace("cherry", "cranberry") + "plum\n")
    assert sh(s, "diff", path1="work/fruits.txt", path2="work/fruits2.txt") == (
        "--- work/fruits.txt\n+++ work/fruits2.txt\n@@ -1,6 +1,7 @@\n banana\n apple\n-cherry\n+cranberry\n"
        " apple\n 10 apples\n 2 pears\n+plum")
    assert sh(s, "diff", path1="work/fruits.txt", path2="work/fruits2.txt", context=0) == (
        "--- work/fruits.txt\n+++ work/fruits2.txt\n@@ -3 +3 @@\n-cherry\n+cranberry\n@@ -6,0 +7 @@\n+plum")
    assert sh(s, "diff", path1="data/sales-2025.csv", path2="data/backup/sales-2025.csv") == "(no differences)"
    s.fails("diff", "Is a directory", path1="work", path2="work/fruits.txt")
    s.fails("diff", "No such file", path1="work/fruits.txt", path2="work/nope.txt")
    s.fails("diff", "context must be 0 or more", path1="work/fruits.txt", path2="work/fruits2.txt", context=-1)


def test_checksum_and_duplicates(work):
    s = work
    home = home_of(s)
    assert s.ok("checksum", path="work/fruits.txt") == {
        "path": f"{home}/work/fruits.txt", "algorithm": "sha256", "checksum": hashlib.sha256(FRUITS.encode()).hexdigest()}
    assert s.ok("checksum", path="work/fruits.txt", algorithm="md5")["checksum"] == hashlib.md5(FRUITS.encode()).hexdigest()
    s.fails("checksum", "Invalid arguments", path="work/fruits.txt", algorithm="crc32")
    s.fails("checksum", "Is a directory", path="work")

    assert s.ok("find_duplicates", path="work") == {"path": f"{home}/work", "groups": []}
    sh(s, "cp", source="work/fruits.txt", destination="work/sub/fruits-copy.txt")
    sh(s, "touch", path="work/e1")
    sh(s, "touch", path="work/e2")
    groups = s.ok("find_duplicates", path="work")["groups"]
    assert groups == [{"checksum": hashlib.sha256(FRUITS.encode()).hexdigest(), "size": len(FRUITS),
                       "paths": [f"{home}/work/fruits.txt", f"{home}/work/sub/fruits-copy.txt"]}]
    with_empty = s.ok("find_duplicates", path="work", min_size=0)["groups"]
    assert with_empty[-1]["paths"] == [f"{home}/work/e1", f"{home}/work/e2"]
    seeded = s.ok("find_duplicates", path="data")["groups"]
    assert seeded[0]["paths"] == [f"{home}/data/backup/sales-2025.csv", f"{home}/data/sales-2025.csv"]
    s.fails("find_duplicates", "Not a directory", path="work/fruits.txt")


def test_column_stats(work):
    s = work
    stats = s.ok("column_stats", path="work/data.csv", column="qty")
    assert {k: stats[k] for k in ("column", "count", "sum", "min", "max", "mean", "skipped")} == {
        "column": "qty", "count": 2, "sum": 13, "min": 3, "max": 10, "mean": 6.5, "skipped": 1}
    assert s.ok("column_stats", path="work/data.csv", column="3")["sum"] == 7.75
    assert s.ok("column_stats", path="work/data.csv", column="2", header=False)["skipped"] == 2
    s.fails("column_stats", "No column 'cost'", path="work/data.csv", column="cost")
    s.fails("column_stats", "single character", path="work/data.csv", column="qty", delimiter=";;")
    s.fails("column_stats", "Is a directory", path="work", column="qty")


# -- searching and text processing ----------------------------------------------------------------


def test_grep(work):
    s = work
    assert sh(s, "grep", pattern="todo", path="work/notes.md") == "3:todo: call mom"
    assert sh(s, "grep", pattern="todo", path="work/notes.md", ignore_case=True) == "2:TODO: buy milk\n3:todo: call mom"
    assert sh(s, "grep", pattern="todo", path="work/notes.md", ignore_case=True, line_numbers=False) == (
        "TODO: buy milk\ntodo: call mom")
    assert sh(s, "grep", pattern="o.o", path="work/notes.md") == "3:todo: call mom"
    assert sh(s, "grep", pattern="o.o", path="work/notes.md", fixed_string=True) == "(no matches)"
    assert sh(s, "grep", pattern="a.c", path="work/notes.md", fixed_string=True) == "4:Done: a.c"
    assert sh(s, "grep", pattern="todo", path="work/notes.md", ignore_case=True, invert_match=True) == (
        "1:# Notes\n4:Done: a.c")
    assert sh(s, "grep", pattern="todo", path="work/notes.md", ignore_case=True, count=True) == "2"
    assert sh(s, "grep", pattern="^[a-z]+$", path="work/fruits.txt") == "1:banana\n2:apple\n3:cherry\n4:apple"
    assert sh(s, "grep", pattern="e", path="work", recursive=True, include="*.txt", line_numbers=False) == (
        "work/fruits.txt:apple\nwork/fruits.txt:cherry\nwork/fruits.txt:apple\nwork/fruits.txt:10 apples\n"
        "work/fruits.txt:2 pears\n"
        "work/sub/deep/inner.txt:needle here")
    assert sh(s, "grep", pattern="needle|widget", path="work", recursive=True) == (
        "work/data.csv:2:widget,3,2.50\nwork/sub/deep/inner.txt:1:needle here")
    assert sh(s, "grep", pattern="a", path="work", recursive=True, files_with_matches=True) == (
        "work/data.csv\nwork/fruits.txt\nwork/notes.md\nwork/sub/deep/inner.txt")
    assert sh(s, "grep", pattern="apple", path="work/*.txt", count=True) == "3", "one file: no name prefix"
    assert sh(s, "grep", pattern="apple", path="work/*.*", count=True) == (
        "work/data.csv:0\nwork/fruits.txt:3\nwork/notes.md:0")
    assert sh(s, "grep", pattern="apple", path="work/*.*", count=True, limit=1).splitlines()[0] == "work/data.csv:0"
    sh(s, "cd", path="work")
    assert sh(s, "grep", pattern="needle", path=".", recursive=True) == "./sub/deep/inner.txt:1:needle here"
    limited = sh(s, "grep", pattern="a", path="fruits.txt", limit=2).splitlines()
    assert limited[:2] == ["1:banana", "2:apple"] and "more lines not shown" in limited[2]
    s.fails("grep", "Is a directory", pattern="x", path="sub")
    s.fails("grep", "Invalid regular expression", pattern="(unclosed", path="fruits.txt")
    s.fails("grep", "No such file or directory", pattern="x", path="missing.txt")
    s.fails("grep", "Permission denied", pattern="root", path="/etc/shadow")
    assert "shadow" not in sh(s, "grep", pattern="root", path="/etc", recursive=True, files_with_matches=True)


def test_search_files(work):
    s = work
    home = home_of(s)
    found = s.ok("search_files", query="TODO", path="work")
    assert found == {"query": "TODO", "path": f"{home}/work", "total_files": 1, "results": [
        {"path": f"{home}/work/notes.md", "matches": 2, "first_line": 2, "excerpt": "TODO: buy milk"}]}
    assert s.ok("search_files", query="TODO", path="work", ignore_case=False)["results"][0]["matches"] == 1
    assert s.ok("search_files", query="e", path="work", name="*.txt", limit=1)["total_files"] == 2
    assert len(s.ok("search_files", query="e", path="work", limit=1)["results"]) == 1
    assert s.ok("search_files", query="zebra", path="work")["results"] == []
    s.fails("search_files", "must not be empty", query="", path="work")
    s.fails("search_files", "Not a directory", query="x", path="work/notes.md")


def test_sort(work):
    s = work
    assert sh(s, "sort", path="work/fruits.txt") == "10 apples\n2 pears\napple\napple\nbanana\ncherry"
    assert sh(s, "sort", path="work/fruits.txt", numeric=True) == "apple\napple\nbanana\ncherry\n2 pears\n10 apples"
    assert sh(s, "sort", path="work/fruits.txt", reverse=True) == "cherry\nbanana\napple\napple\n2 pears\n10 apples"
    assert sh(s, "sort", path="work/fruits.txt", unique=True) == "10 apples\n2 pears\napple\nbanana\ncherry"
    assert sh(s, "sort", path="work/data.csv", key=2, delimiter=",", numeric=True, header=True) == (
        "name,qty,price\ngizmo,x,4\nwidget,3,2.50\ngadget,10,1.25")
    assert sh(s, "sort", path="work/data.csv", key=3, delimiter=",", numeric=True, reverse=True, header=True) == (
        "name,qty,price\ngizmo,x,4\nwidget,3,2.50\ngadget,10,1.25")
    s.ok("write_file", path="work/case.txt", content="b\nA\na\nB\n")
    assert sh(s, "sort", path="work/case.txt") == "A\nB\na\nb"
    assert sh(s, "sort", path="work/case.txt", ignore_case=True) == "A\na\nB\nb"
    assert sh(s, "sort", path="work/case.txt", ignore_case=True, unique=True) == "A\nB"
    assert sh(s, "cat", path="work/fruits.txt") == FRUITS.rstrip("\n"), "sort must not change the file"
    s.fails("sort", "key must be a field number", path="work/fruits.txt", key=0)
    s.fails("sort", "single character", path="work/fruits.txt", key=1, delimiter="::")
    s.fails("sort", "Is a directory", path="work")


def test_uniq_and_cut(work):
    s = work
    s.ok("write_file", path="work/runs.txt", content="a\na\nb\nA\na\n")
    assert sh(s, "uniq", path="work/runs.txt") == "a\nb\nA\na"
    assert sh(s, "uniq", path="work/runs.txt", count=True) == "      2 a\n      1 b\n      1 A\n      1 a"
    assert sh(s, "uniq", path="work/runs.txt", repeated=True) == "a"
    assert sh(s, "uniq", path="work/runs.txt", ignore_case=True, count=True) == "      2 a\n      1 b\n      2 A"
    assert sh(s, "uniq", path="work/fruits.txt", repeated=True) == "(no output)"
    s.fails("uniq", "Is a directory", path="work")

    assert sh(s, "cut", path="work/data.csv", fields=[1, 3], delimiter=",") == (
        "name,price\nwidget,2.50\ngadget,1.25\ngizmo,4")
    assert sh(s, "cut", path="work/data.csv", fields=[3, 1, 1], delimiter=",").splitlines()[0] == "name,price"
    assert sh(s, "cut", path="work/data.csv", fields=[9], delimiter=",").splitlines()[0] == ""
    assert sh(s, "cut", path="work/fruits.txt", fields=[2], delimiter=" ").splitlines() == [
        "banana", "apple", "cherry", "apple", "apples", "pears"]
    s.fails("cut", "single character", path="work/data.csv", fields=[1], delimiter="")
    s.fails("cut", "field numbers of 1 or more", path="work/data.csv", fields=[0], delimiter=",")
    s.fails("cut", "field numbers of 1 or more", path="work/data.csv", fields=[], delimiter=",")


def test_du_disk_usage_count_files(work):
    s = work
    home = home_of(s)
    assert sh(s, "du", path="work") == "21\twork/sub/deep\n21\twork/sub\n167\twork"
    assert sh(s, "du", path="work", summarize=True) == "167\twork"
    assert sh(s, "du", path="work", max_depth=1) == "21\twork/sub\n167\twork"
    assert sh(s, "du", path="work/fruits.txt") == "44\twork/fruits.txt"
    s.ok("write_file", path="work/sub/big.txt", content="x" * 3000)
    assert sh(s, "du", path="work", summarize=True, human_readable=True) == "3.1K\twork"
    sh(s, "cd", path="work/sub")
    assert sh(s, "du") == "21\t./deep\n3021\t."
    assert "du: cannot read directory '/tmp/systemd-private-" in sh(s, "du", path="/tmp")
    s.fails("du", "No such file or directory", path="nothing")
    s.fails("du", "max_depth must be 0 or more", max_depth=-1)

    usage = s.ok("disk_usage", path="~/work", top=2)
    assert usage == {"path": f"{home}/work", "total_bytes": 3167, "total_human": "3.1K", "files": 5,
                     "directories": 2, "symlinks": 0, "largest_files": [
                         {"path": f"{home}/work/sub/big.txt", "size": 3000},
                         {"path": f"{home}/work/data.csv", "size": 54}]}
    assert s.ok("disk_usage", path="~")["symlinks"] == 2
    s.fails("disk_usage", "top must be 0 or more", top=-1)
    s.fails("disk_usage", "Not a directory", path="big.txt")

    counted = s.ok("count_files", path="~/work")
    assert counted == {"path": f"{home}/work", "name": None, "files": 5, "directories": 2,
                       "by_extension": {".csv": 1, ".md": 1, ".txt": 3}}
    assert s.ok("count_files", path="~/work", name="*.txt")["files"] == 3
    sh(s, "touch", path="~/work/Makefile")
    assert s.ok("count_files", path="~/work")["by_extension"][""] == 1
    s.fails("count_files", "No such file or directory", path="~/nope")


# -- creating and writing -------------------------------------------------------------------------


def test_mkdir(work):
    s = work
    home = home_of(s)
    assert sh(s, "mkdir", path="work/new") == f"created directory '{home}/work/new'"
    assert s.ok("stat", path="work/new")["permissions"] == "drwxr-xr-x"
    s.fails("mkdir", "File exists", path="work/new")
    s.fails("mkdir", "File exists", path="work/fruits.txt")
    s.fails("mkdir", "No such file or directory", path="work/a/b/c")
    assert sh(s, "mkdir", path="work/a/b/c", parents=True) == (
        f"created directory '{home}/work/a'\ncreated directory '{home}/work/a/b'\ncreated directory '{home}/work/a/b/c'")
    assert "already exists" in sh(s, "mkdir", path="work/a/b", parents=True)
    s.fails("mkdir", "Not a directory", path="work/fruits.txt/x", parents=True)
    s.fails("mkdir", "Not a directory", path="work/fruits.txt/x")
    s.fails("mkdir", "Permission denied", path="/etc/myapp")
    s.fails("mkdir", "Permission denied", path="/usr/local/bin", parents=True)
    sh(s, "cd", path="work/a")
    sh(s, "mkdir", path="../z")
    assert s.ok("exists", path=f"{home}/work/z")["type"] == "directory"
    sh(s, "mkdir", path="/opt/team/shared-notes")  # group-writable for 'developers'
    assert s.ok("stat", path="/opt/team/shared-notes")["owner"] == s.ok("user_info")["user"]


def test_touch(work):
    s = work
    home = home_of(s)
    old = s.ok("stat", path="notes/todo.md")["modified"]
    assert old != now_text(s)
    assert sh(s, "touch", path="notes/todo.md") == f"updated the modification time of '{home}/notes/todo.md'"
    assert s.ok("stat", path="notes/todo.md")["modified"] == now_text(s)
    assert sh(s, "touch", path="work/fresh.txt") == f"created empty file '{home}/work/fresh.txt'"
    assert s.ok("stat", path="work/fresh.txt")["size"] == 0
    digest = s.world.digest()
    sh(s, "touch", path="work/fresh.txt")
    assert s.world.digest() == digest, "touch is idempotent under a frozen clock"
    s.fails("touch", "Permission denied", path="/etc/hosts")
    s.fails("touch", "Permission denied", path="/etc/new.conf")
    s.fails("touch", "No such file or directory", path="work/nope/x.txt")


def test_echo(work):
    s = work
    home = home_of(s)
    assert sh(s, "echo", text="just printing") == "just printing"
    assert sh(s, "echo", text="first", file="work/log.txt") == f"wrote 6 bytes to '{home}/work/log.txt'"
    assert sh(s, "echo", text="second", file="work/log.txt", append=True) == (
        f"appended 7 bytes to '{home}/work/log.txt'")
    assert s.ok("read_file", path="work/log.txt")["content"] == "first\nsecond"
    sh(s, "echo", text="reset", file="work/log.txt")
    assert sh(s, "cat", path="work/log.txt") == "reset"
    s.fails("echo", "Is a directory", text="x", file="work/sub")
    s.fails("echo", "Permission denied", text="x", file="/etc/hosts", append=True)
    s.fails("echo", "No such file or directory", text="x", file="work/no/such.txt")


def test_write_and_append_file(work):
    s = work
    home = home_of(s)
    assert s.ok("write_file", path="work/plan.md", content="# Plan\n- one\n") == {
        "path": f"{home}/work/plan.md", "bytes": 13, "lines": 2, "created": True}
    assert s.ok("write_file", path="work/plan.md", content="# Plan v2\n")["created"] is False
    assert sh(s, "cat", path="work/plan.md") == "# Plan v2"
    s.ok("write_file", path="work/raw.txt", content="no newline")
    assert s.ok("append_file", path="work/raw.txt", content="next line\n") == {
        "path": f"{home}/work/raw.txt", "bytes_appended": 10, "size": 21, "created": False}
    assert s.ok("read_file", path="work/raw.txt")["content"] == "no newline\nnext line"
    assert s.ok("append_file", path="work/new-log.txt", content="started\n")["created"] is True
    s.fails("write_file", "Is a directory", path="work/sub", content="x")
    s.fails("write_file", "Permission denied", path="/etc/hostname", content="evil\n")
    s.fails("write_file", "Permission denied", path="/etc/new.conf", content="x")
    s.fails("write_file", "No such file or directory", path="work/ghost/dir/file.txt", content="x")
    s.fails("append_file", "Permission denied", path="/etc/hosts", content="1.2.3.4 evil\n")
    s.fails("append_file", "Is a directory", path="work", content="x")


def test_write_through_a_symlink(work):
    s = work
    home = home_of(s)
    sh(s, "symlink", target="fruits.txt", link_path="work/link.txt")
    s.ok("append_file", path="work/link.txt", content="plum\n")
    assert sh(s, "tail", path="work/fruits.txt", n=1) == "plum"
    assert s.ok("stat", path="work/link.txt")["type"] == "symlink"
    sh(s, "symlink", target="missing-target.txt", link_path="work/dangling")
    assert s.ok("exists", path="work/dangling")["exists"] is False
    s.ok("write_file", path="work/dangling", content="now it exists\n")
    assert s.ok("read_file", path=f"{home}/work/missing-target.txt")["content"] == "now it exists"


def test_replace_insert_delete_lines(work):
    s = work
    home = home_of(s)
    assert s.ok("replace_in_file", path="work/notes.md", old="buy milk", new="buy oat milk") == {
        "path": f"{home}/work/notes.md", "replacements": 1}
    assert "TODO: buy oat milk" in sh(s, "cat", path="work/notes.md")
    s.fails("replace_in_file", "occurs 2 times", path="work/fruits.txt", old="apple\n", new="pear\n")
    assert s.ok("replace_in_file", path="work/fruits.txt", old="apple\n", new="pear\n", replace_all=True)[
        "replacements"] == 2
    assert sh(s, "cat", path="work/fruits.txt").splitlines()[:4] == ["banana", "pear", "cherry", "pear"]
    s.fails("replace_in_file", "Text not found", path="work/fruits.txt", old="kiwi", new="x")
    s.fails("replace_in_file", "must not be empty", path="work/fruits.txt", old="", new="x")
    s.fails("replace_in_file", "Permission denied", path="/etc/hosts", old="localhost", new="x")
    s.fails("replace_in_file", "Permission denied", path="current/LICENSE", old="MIT", new="GPL")

    s.ok("write_file", path="work/list.txt", content="one\ntwo\nthree\n")
    assert s.ok("insert_lines", path="work/list.txt", line=2, text="one and a half\none and 3/4") == {
        "path": f"{home}/work/list.txt", "inserted": 2, "total_lines": 5}
    s.ok("insert_lines", path="work/list.txt", line=6, text="four")
    s.ok("insert_lines", path="work/list.txt", line=1, text="zero")
    assert sh(s, "cat", path="work/list.txt") == "zero\none\none and a half\none and 3/4\ntwo\nthree\nfour"
    s.fails("insert_lines", "line must be between 1 and 8", path="work/list.txt", line=9, text="x")
    s.fails("insert_lines", "line must be between", path="work/list.txt", line=0, text="x")

    assert s.ok("delete_lines", path="work/list.txt", start_line=3, end_line=4) == {
        "path": f"{home}/work/list.txt", "deleted": ["one and a half", "one and 3/4"], "total_lines": 5}
    assert s.ok("delete_lines", path="work/list.txt", start_line=1)["deleted"] == ["zero"]
    assert s.ok("read_file", path="work/list.txt")["content"] == "one\ntwo\nthree\nfour"
    assert sh(s, "wc", path="work/list.txt").startswith("4 4 "), "the trailing newline is kept"
    s.fails("delete_lines", "outside", path="work/list.txt", start_line=3, end_line=9)
    s.fails("delete_lines", "outside", path="work/list.txt", start_line=3, end_line=2)
    s.fails("delete_lines", "Permission denied", path="/etc/hosts", start_line=1)


def test_sed(work):
    s = work
    home = home_of(s)
    s.ok("write_file", path="work/conf.yaml", content="port: 8000\nhost: a\nport: 9000 # port\n")
    preview = sh(s, "sed", path="work/conf.yaml", pattern=r"port: (\d+)", replacement=r"port: \g<1>1")
    assert preview == "port: 80001\nhost: a\nport: 90001 # port"
    assert sh(s, "cat", path="work/conf.yaml").startswith("port: 8000\n"), "without in_place nothing changes"
    assert sh(s, "sed", path="work/conf.yaml", pattern="port", replacement="PORT", first_only=True) == (
        "PORT: 8000\nhost: a\nPORT: 9000 # port")
    assert sh(s, "sed", path="work/conf.yaml", pattern="HOST", replacement="server", ignore_case=True).splitlines()[1] == (
        "server: a")
    assert sh(s, "sed", path="work/conf.yaml", pattern="port", replacement="p", in_place=True) == (
        f"3 substitutions in '{home}/work/conf.yaml'")
    assert s.ok("read_file", path="work/conf.yaml")["content"] == "p: 8000\nhost: a\np: 9000 # p"
    digest = s.world.digest()
    assert sh(s, "sed", path="work/conf.yaml", pattern="zzz", replacement="y", in_place=True).startswith("0 substitutions")
    assert s.world.digest() == digest
    s.fails("sed", "Invalid regular expression", path="work/conf.yaml", pattern="[", replacement="x")
    s.fails("sed", "Invalid replacement", path="work/conf.yaml", pattern="p", replacement=r"\9",
                  in_place=True)
    s.fails("sed", "Permission denied", path="/etc/hosts", pattern="local", replacement="x", in_place=True)
    assert "127.0.0.1" in sh(s, "sed", path="/etc/hosts", pattern="x", replacement="y")


# -- moving, copying, deleting --------------------------------------------------------------------


def test_mv_rename_and_into_directory(work):
    s = work
    home = home_of(s)
    assert sh(s, "mv", source="work/fruits.txt", destination="work/produce.txt") == (
        f"renamed '{home}/work/fruits.txt' -> '{home}/work/produce.txt'")
    assert s.ok("exists", path="work/fruits.txt")["exists"] is False
    assert sh(s, "cat", path="work/produce.txt") == FRUITS.rstrip("\n")
    sh(s, "mv", source="work/produce.txt", destination="work/sub")
    assert s.ok("exists", path="work/sub/produce.txt")["exists"] is True
    sh(s, "mv", source="work/sub", destination="work/moved")
    assert sh(s, "find", path="work/moved") == (
        "work/moved\nwork/moved/deep\nwork/moved/deep/inner.txt\nwork/moved/produce.txt")
    assert sh(s, "grep", pattern="needle", path="work/moved/deep/inner.txt") == "1:needle here"
    sh(s, "mkdir", path="work/archive")
    sh(s, "mv", source="work/moved", destination="work/archive/")
    assert sh(s, "ls", path="work/archive/moved") == "deep\nproduce.txt"
    assert s.ok("stat", path="work/archive/moved/deep/inner.txt")["modified"] == now_text(s)


def test_mv_overwrites_and_refuses(work):
    s = work
    home = home_of(s)
    s.ok("write_file", path="work/old.txt", content="old\n")
    sh(s, "mv", source="work/old.txt", destination="work/notes.md")
    assert sh(s, "cat", path="work/notes.md") == "old"
    s.ok("write_file", path="work/keep.txt", content="keep\n")
    s.fails("mv", "File exists", source="work/keep.txt", destination="work/notes.md", no_clobber=True)
    s.fails("mv", "same file", source="work/keep.txt", destination="work/keep.txt")
    s.fails("mv", "same file", source="work/keep.txt", destination="work/../work/./keep.txt")
    s.fails("mv", "subdirectory of itself", source="work/sub", destination="work/sub/deep")
    s.fails("mv", "subdirectory of itself", source="work", destination="work/sub/deep/work2")
    s.fails("mv", "No such file or directory", source="work/nothing", destination="work/x")
    s.fails("mv", "No such file or directory", source="work/keep.txt", destination="work/no/dir/x")
    sh(s, "mkdir", path="work/target/keep.txt", parents=True)
    s.fails("mv", "cannot overwrite directory", source="work/keep.txt", destination="work/target")
    s.fails("mv", "cannot overwrite non-directory", source="work/sub", destination="work/keep.txt")
    sh(s, "mkdir", path="work/full/sub/x", parents=True)
    s.fails("mv", "Directory not empty", source="work/sub", destination="work/full")
    s.fails("mv", "is not a directory", source="work/*.txt", destination="work/keep.txt")
    s.fails("mv", "Permission denied", source="/etc/hosts", destination="work/hosts")
    s.fails("mv", "Permission denied", source="work/keep.txt", destination="/etc/keep.txt")
    s.fails("mv", "Operation not permitted", source="/tmp/.X0-lock", destination="/tmp/lock")
    s.fails("mv", "Device or resource busy", source="/", destination="work/root")
    sh(s, "mkdir", path="work/emptydir")
    sh(s, "mv", source="work/sub", destination="work/emptydir")
    assert sh(s, "ls", path="work/emptydir") == "sub"
    assert s.ok("exists", path=f"{home}/work/sub")["exists"] is False


def test_mv_glob_and_working_directory_follows(work):
    s = work
    home = home_of(s)
    sh(s, "mkdir", path="work/txt")
    assert sh(s, "mv", source="work/*.txt", destination="work/txt").splitlines() == [
        f"renamed '{home}/work/fruits.txt' -> '{home}/work/txt/fruits.txt'"]
    sh(s, "cd", path="work/sub/deep")
    sh(s, "mv", source="~/work/sub", destination="~/work/renamed")
    assert sh(s, "pwd") == f"{home}/work/renamed/deep"
    assert sh(s, "cat", path="inner.txt") == "needle here\nno match"
    assert sh(s, "cd", path="..") == f"{home}/work/renamed"


def test_failed_multi_move_rolls_back_everything(work):
    s = work
    home = home_of(s)
    sh(s, "mkdir", path="work/dest/notes.md", parents=True)  # the second move will hit this directory
    before = s.world.digest()
    s.fails("mv", "cannot overwrite directory", source="work/*.*", destination="work/dest")
    assert s.world.digest() == before
    assert sh(s, "ls", path="work") == "data.csv\ndest\nfruits.txt\nnotes.md\nsub"
    assert s.ok("exists", path="work/dest/data.csv")["exists"] is False
    assert sh(s, "cat", path=f"{home}/work/data.csv") == CSV.rstrip("\n")
    sh(s, "mv", source="work/data.csv", destination="work/dest")
    assert sh(s, "ls", path="work/dest") == "data.csv\nnotes.md"


def test_cp(work):
    s = work
    home = home_of(s)
    assert sh(s, "cp", source="work/fruits.txt", destination="work/copy.txt") == (
        f"'{home}/work/fruits.txt' -> '{home}/work/copy.txt'")
    assert sh(s, "diff", path1="work/fruits.txt", path2="work/copy.txt") == "(no differences)"
    sh(s, "cp", source="work/notes.md", destination="work/sub")
    assert sh(s, "cat", path="work/sub/notes.md") == NOTES.rstrip("\n")
    s.ok("write_file", path="work/copy.txt", content="changed\n")
    assert sh(s, "cat", path="work/fruits.txt") == FRUITS.rstrip("\n"), "copies are independent"
    sh(s, "cp", source="work/fruits.txt", destination="work/copy.txt")
    assert sh(s, "cat", path="work/copy.txt") == FRUITS.rstrip("\n")
    s.fails("cp", "File exists", source="work/notes.md", destination="work/copy.txt", no_clobber=True)
    s.fails("cp", "-r not specified", source="work/sub", destination="work/sub2")
    assert sh(s, "cp", source="work/sub", destination="work/sub2", recursive=True) == (
        f"'{home}/work/sub' -> '{home}/work/sub2' (2 files, 2 directories)")
    assert sh(s, "find", path="work/sub2", type="f") == "work/sub2/deep/inner.txt\nwork/sub2/notes.md"
    sh(s, "cp", source="work/sub", destination="work/sub2", recursive=True)
    assert sh(s, "ls", path="work/sub2") == "deep\nnotes.md\nsub", "copying onto a directory goes inside it"
    s.fails("cp", "into itself", source="work", destination="work/sub/inside", recursive=True)
    s.fails("cp", "same file", source="work/fruits.txt", destination="work/./fruits.txt")
    sh(s, "mkdir", path="work/target/notes.md", parents=True)
    s.fails("cp", "cannot overwrite directory", source="work/notes.md", destination="work/target")
    s.fails("cp", "No such file or directory", source="work/nothing.txt", destination="work/x")
    s.fails("cp", "Permission denied", source="/etc/shadow", destination="work/shadow")
    s.fails("cp", "Permission denied", source="work/fruits.txt", destination="/etc/fruits.txt")
    s.fails("cp", "Permission denied", source="/tmp", destination="work/tmp-copy", recursive=True)
    sh(s, "cp", source="current/LICENSE", destination="work/LICENSE")
    assert s.ok("stat", path="work/LICENSE")["mode"] == "0444", "cp keeps the mode"
    s.fails("cp", "Permission denied", source="work/fruits.txt", destination="work/LICENSE")
    sh(s, "mkdir", path="work/csvs")
    assert len(sh(s, "cp", source="data/*.csv", destination="work/csvs").splitlines()) == 4
    s.fails("cp", "is not a directory", source="data/*.csv", destination="work/fruits.txt")


def test_cp_recursive_keeps_links_and_mkdir_p_inside_read_only_copy(work):
    s = work
    sh(s, "symlink", target="../notes.md", link_path="work/sub/notes-link")
    sh(s, "chmod", path="work/sub/deep", mode="555")
    s.fails("touch", "Permission denied", path="work/sub/deep/new.txt")
    sh(s, "cp", source="work/sub", destination="work/sub-copy", recursive=True)
    assert s.ok("stat", path="work/sub-copy/notes-link")["type"] == "symlink"
    assert sh(s, "cat", path="work/sub-copy/notes-link").startswith("# Notes")
    assert s.ok("stat", path="work/sub-copy/deep")["mode"] == "0555"
    assert sh(s, "cat", path="work/sub-copy/deep/inner.txt") == "needle here\nno match"


def test_rm(work):
    s = work
    home = home_of(s)
    assert sh(s, "rm", path="work/fruits.txt") == f"removed '{home}/work/fruits.txt'"
    assert s.ok("exists", path="work/fruits.txt")["exists"] is False
    s.fails("rm", "No such file or directory", path="work/fruits.txt")
    assert sh(s, "rm", path="work/fruits.txt", force=True) == "(nothing removed)"
    assert sh(s, "rm", path="work/*.zip", force=True) == "(nothing removed)"
    s.fails("rm", "Is a directory", path="work/sub")
    assert sh(s, "rm", path="work/sub", recursive=True) == f"removed directory '{home}/work/sub' (2 entries inside)"
    assert s.ok("exists", path="work/sub/deep/inner.txt")["exists"] is False
    s.fails("rm", "dangerous", path="/", recursive=True, force=True)
    s.fails("rm", "dangerous", path="/..//.", recursive=True)
    sh(s, "cd", path="work")
    s.fails("rm", "current working directory", path=".", recursive=True)
    s.fails("rm", "current working directory", path=home, recursive=True)
    sh(s, "cd", path="~")
    sh(s, "cp", source="current/LICENSE", destination="work/LICENSE")
    s.fails("rm", "write-protected", path="work/LICENSE")
    sh(s, "rm", path="work/LICENSE", force=True)
    s.fails("rm", "Permission denied", path="/etc/hosts", force=True)
    s.fails("rm", "Operation not permitted", path="/tmp/.X0-lock", force=True)
    s.fails("rm", "write-protected", path="notes/recipes", recursive=True)
    s.ok("write_file", path="work/a.log", content="a\n")
    s.ok("write_file", path="work/b.log", content="b\n")
    assert sh(s, "rm", path="work/*.log").splitlines() == [f"removed '{home}/work/a.log'", f"removed '{home}/work/b.log'"]
    target = sh(s, "readlink", path="current")
    sh(s, "rm", path="current")
    assert s.ok("exists", path=target)["type"] == "directory", "rm removes the link, not its target"


def test_rmdir(work):
    s = work
    home = home_of(s)
    sh(s, "mkdir", path="work/empty")
    assert sh(s, "rmdir", path="work/empty") == f"removed directory '{home}/work/empty'"
    s.fails("rmdir", "No such file or directory", path="work/empty")
    s.fails("rmdir", "Directory not empty", path="work/sub")
    s.fails("rmdir", "Not a directory", path="work/notes.md")
    s.fails("rmdir", "Not a directory", path="current")
    s.fails("rmdir", "Device or resource busy", path="/")
    s.fails("rmdir", "Permission denied", path="/bin")
    sh(s, "cd", path="pictures")
    s.fails("rmdir", "current working directory", path=".")
    sh(s, "cd", path="..")
    sh(s, "rmdir", path="pictures")
    assert "pictures" not in sh(s, "ls").splitlines()


def test_mkdir_rmdir_and_rm_are_not_idempotent_since_a_plain_repeat_fails(work):
    """As in a shell, a plain repeat of mkdir, rmdir or rm is refused (and changes nothing), so none of
    them is annotated idempotent. `mkdir -p` and `rm -f` repeat without error and do nothing more."""
    s = work
    tools = {t.name: t for t in run_sync(s.client.list_tools())}
    assert [name for name in ("mkdir", "rmdir", "rm") if tools[name].annotations.idempotent_hint] == []
    sh(s, "mkdir", path="work/once")
    s.fails("mkdir", "File exists", path="work/once")
    sh(s, "rmdir", path="work/once")
    s.fails("rmdir", "No such file or directory", path="work/once")
    sh(s, "rm", path="work/notes.md")
    s.fails("rm", "No such file or directory", path="work/notes.md")
    sh(s, "mkdir", path="work/p/q", parents=True)
    digest = s.world.digest()
    assert "already exists" in sh(s, "mkdir", path="work/p/q", parents=True)
    assert s.world.digest() == digest
    sh(s, "rm", path="work/p", recursive=True, force=True)
    digest = s.world.digest()
    assert sh(s, "rm", path="work/p", recursive=True, force=True) == "(nothing removed)"
    assert s.world.digest() == digest


def test_a_time_after_the_clock_breaks_the_rules(work):
    """No file, directory or link may have been modified after the world's clock."""
    s = work
    assert not s.world.violations()
    path = f"{home_of(s)}/work/fruits.txt"
    with s.world.transaction() as db:
        db.get(Node, path).mtime = s.world.now + dt.timedelta(minutes=1)
    assert any(f"{path}: mtime" in p and "after the clock" in p for p in s.world.violations())


def test_symlink(work):
    s = work
    home = home_of(s)
    assert sh(s, "symlink", target="sub/deep", link_path="work/shortcut") == f"'{home}/work/shortcut' -> 'sub/deep'"
    assert sh(s, "ls", path="work/shortcut") == "inner.txt"
    assert sh(s, "cat", path="work/shortcut/inner.txt") == "needle here\nno match"
    assert sh(s, "cd", path="work/shortcut") == f"{home}/work/sub/deep"
    sh(s, "cd", path="~")
    sh(s, "symlink", target="/etc/hosts", link_path="work/sub")
    assert sh(s, "readlink", path="work/sub/hosts") == "/etc/hosts"
    s.fails("symlink", "File exists", target="anything", link_path="work/notes.md")
    s.fails("symlink", "No such file or directory", target="x", link_path="work/none/link")
    s.fails("symlink", "Permission denied", target="/tmp", link_path="/etc/tmp-link")
    s.fails("symlink", "must not be empty", target="", link_path="work/empty-link")
    sh(s, "symlink", target="loop-b", link_path="work/loop-a")
    sh(s, "symlink", target="loop-a", link_path="work/loop-b")
    s.fails("cat", "Too many levels of symbolic links", path="work/loop-a")


def test_chmod_and_permission_semantics(work):
    s = work
    home = home_of(s)
    assert sh(s, "chmod", path="work/fruits.txt", mode="444") == (
        f"mode of '{home}/work/fruits.txt' changed from 0644 (rw-r--r--) to 0444 (r--r--r--)")
    s.fails("write_file", "Permission denied", path="work/fruits.txt", content="x")
    s.fails("append_file", "Permission denied", path="work/fruits.txt", content="x")
    s.fails("echo", "Permission denied", text="x", file="work/fruits.txt")
    assert sh(s, "cat", path="work/fruits.txt").startswith("banana"), "still readable"
    sh(s, "chmod", path="work/fruits.txt", mode="u+w")
    s.ok("append_file", path="work/fruits.txt", content="plum\n")
    assert s.ok("stat", path="work/fruits.txt")["mode"] == "0644"
    sh(s, "chmod", path="work/fruits.txt", mode="u-r")
    s.fails("cat", "Permission denied", path="work/fruits.txt")
    assert "retained as 0244" in sh(s, "chmod", path="work/fruits.txt", mode="0244")
    sh(s, "chmod", path="work/sub", mode="000")
    s.fails("ls", "Permission denied", path="work/sub")
    s.fails("cd", "Permission denied", path="work/sub")
    s.fails("cat", "Permission denied", path="work/sub/deep/inner.txt")
    sh(s, "chmod", path="work/sub", mode="u=rwx,go=rx")
    assert s.ok("stat", path="work/sub")["permissions"] == "drwxr-xr-x"
    assert sh(s, "chmod", path="work/sub", mode="go-rx", recursive=True).count("changed from") == 3
    assert s.ok("stat", path="work/sub/deep/inner.txt")["mode"] == "0600"
    sh(s, "chmod", path="scripts/*.sh", mode="a-x")
    assert {s.ok("stat", path=p)["mode"] for p in ("scripts/backup.sh", "scripts/deploy.sh")} == {"0644"}
    sh(s, "chmod", path="work/notes.md", mode="a+X")
    assert s.ok("stat", path="work/notes.md")["mode"] == "0644", "X only adds execute to directories"
    sh(s, "mkdir", path="work/shared")
    sh(s, "chmod", path="work/shared", mode="+t")
    assert s.ok("stat", path="work/shared")["permissions"] == "drwxr-xr-t"
    s.fails("chmod", "Operation not permitted", path="/etc/hosts", mode="666")
    s.fails("chmod", "invalid mode", path="work/notes.md", mode="u+q")
    s.fails("chmod", "invalid mode", path="work/notes.md", mode="888")
    s.fails("chmod", "No such file or directory", path="work/zzz", mode="644")


def test_group_permissions(fs):
    user = fs.ok("user_info")["user"]
    fs.ok("append_file", path="/opt/team/README.txt", content="hello from the team\n")
    assert fs.ok("stat", path="/opt/team/README.txt")["owner"] == "root"
    fs.fails("append_file", "Permission denied", path="/opt/team/oncall.txt", content="x")
    fs.fails("cat", "Permission denied", path="/var/log/syslog")
    assert fs.ok("stat", path="/var/log/syslog")["group"] == "adm"
    assert user not in ("root", "adm")


# -- archives -------------------------------------------------------------------------------------


def test_tar_create_list_extract(work):
    s = work
    home = home_of(s)
    created = s.ok("tar_create", archive="work/backup.tar", paths=["work/sub", "work/notes.md"])
    assert created["archive"] == f"{home}/work/backup.tar" and created["entries"] == 4
    listed = s.ok("tar_list", archive="work/backup.tar")
    assert listed == {"archive": f"{home}/work/backup.tar", "entries": [
        {"name": "sub", "type": "directory", "size": 0, "mode": "0755"},
        {"name": "sub/deep", "type": "directory", "size": 0, "mode": "0755"},
        {"name": "sub/deep/inner.txt", "type": "file", "size": len(INNER), "mode": "0644"},
        {"name": "notes.md", "type": "file", "size": len(NOTES), "mode": "0644"}]}
    sh(s, "mkdir", path="restore")
    assert s.ok("tar_extract", archive="work/backup.tar", directory="restore") == {
        "directory": f"{home}/restore", "extracted": 4}
    assert sh(s, "cat", path="restore/sub/deep/inner.txt") == "needle here\nno match"
    assert sh(s, "diff", path1="restore/notes.md", path2="work/notes.md") == "(no differences)"
    s.ok("write_file", path="restore/notes.md", content="edited\n")
    sh(s, "cd", path="restore")
    s.ok("tar_extract", archive="../work/backup.tar")
    assert sh(s, "cat", path="notes.md") == NOTES.rstrip("\n"), "extracting overwrites files"
    s.fails("tar_list", "not an archive", archive="notes.md")
    s.fails("tar_extract", "not an archive", archive="notes.md")
    s.fails("tar_extract", "Not a directory", archive="../work/backup.tar", directory="notes.md")
    s.fails("tar_extract", "Permission denied", archive="../work/backup.tar", directory="/etc")
    s.fails("tar_create", "No such file or directory", archive="x.tar", paths=["missing"])
    s.fails("tar_create", "already included", archive="x.tar", paths=["notes.md", "../work/notes.md"])
    s.fails("tar_create", "at least one", archive="x.tar", paths=[])
    s.fails("tar_create", "Permission denied", archive="x.tar", paths=["/etc/shadow"])
    s.fails("tar_create", "Permission denied", archive="/etc/x.tar", paths=["notes.md"])
    evil = json.dumps({"format": "prove-tar/1", "entries": [
        {"name": "../escape.txt", "type": "file", "mode": 420, "mtime": "2026-01-01T00:00:00", "content": "x"}]})
    s.ok("write_file", path="evil.tar", content=evil)
    s.fails("tar_extract", "unsafe archive entry", archive="evil.tar")


# -- tasks ----------------------------------------------------------------------------------------


def _tasks() -> list[dict]:
    return [json.loads(line) for line in TASKS.read_text().splitlines() if line.strip()]


def test_task_outcomes(served):
    """The gold calls do what the user asked in the seed-0 world."""
    s = served("filesystem")
    tasks = {t["id"]: t for t in _tasks()}
    for gold in tasks["filesystem-003"]["gold"][0]:
        sh(s, gold["name"], **gold["arguments"])
    assert s.ok("glob", pattern="~/notes/meeting-*")["matches"] == []
    assert len(s.ok("glob", pattern="~/notes/archive/meeting-*.md")["matches"]) == 5
    edit = tasks["filesystem-004"]["gold"][0][1]
    sh(s, "cd", path="~")
    sh(s, edit["name"], **edit["arguments"])
    settings = sh(s, "cat", path=edit["arguments"]["path"])
    assert "  port: 9090" in settings and "  port: 5432" in settings and "8080" not in settings
    errors = [line for line in sh(s, "cat", path="~/logs/app.log").splitlines() if "ERROR" in line]
    assert sh(s, "grep", **tasks["filesystem-001"]["gold"][0][0]["arguments"]) == str(len(errors))


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------


def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play):
    from prove_env.task import Task

    open_items = ["Black near get himself simply", "Book art red pass value practice",
                  "Fast support when hold family second"]
    todo = Task(id="todo", server="filesystem", seed=0, user_turns=["What's still open on my to-do list in notes?"],
                gold=[[{"id": "g1", "name": "cat", "arguments": {"path": "/home/megan/notes/todo.md"}}]],
                facts=[open_items])
    answer = "Still open: " + "; ".join(open_items) + "."
    assert play(todo, [_call("read_file", path="notes/todo.md"), answer])["success"]  # read_file for cat
    assert play(todo, [_call("cd", path="notes"), _call("cat", path="todo.md"), answer])["success"]  # a cd is a detail
    assert not play(todo, [_call("cat", path="notes/todo.md"), "Three things are open."])["success"]
    # the right answer, then damage nobody asked for: an unrelated folder removed
    damage = play(todo, [_call("cat", path="notes/todo.md"), _call("rm", path="notes/recipes", recursive=True, force=True), answer])
    assert not damage["success"]

    write = Task(id="write", server="filesystem", seed=0, user_turns=["Put 'buy milk' in notes/shopping.txt."],
                 gold=[[{"id": "g1", "name": "write_file",
                         "arguments": {"path": "/home/megan/notes/shopping.txt", "content": "buy milk\n"}}]])
    # no final newline, written from inside the folder: details the user did not specify
    detail = play(write, [_call("cd", path="notes"), _call("write_file", path="shopping.txt", content="buy milk"),
                          "Saved."])
    assert detail["success"]
    assert not play(write, [_call("write_file", path="notes/shopping.txt", content="buy eggs\n"), "Saved."])["success"]


# -- synthesized requests ---------------------------------------------------------------------------


def _asks(tool: str, *, seed: int = 0, draws: int = 80) -> list[tuple]:
    """Requests the recipe writes for `tool` from the bundle of one world, each with the result of its
    call (None for a write) and the bundle."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from tests.stand_ins import parse

    toolkit, recipe = get_toolkit("filesystem"), get_recipe("filesystem")
    world = worlds.create(toolkit, seed)
    rng = random.Random(f"filesystem asks {seed}")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    found = []
    for goal in (g for g in recipe.goals if g.tool == tool):
        for _ in range(draws):
            b = rng.choice(bundles)
            ask = goal.build(b, rng)
            if ask is not None:
                found.append((ask, parse(toolkit(world).run(tool, dict(ask.args))) if ask.facts else None, b))
    world.close()
    return found


def test_a_file_whose_lines_are_the_facts_is_asked_to_be_shown():
    """The facts of a printed file are lines of it, as written: 'What's in it?' is as well answered
    by a summary, so the words ask to see the file itself."""
    import re

    asks = _asks("cat")
    assert asks
    for ask, _, _ in asks:
        for words in (ask.say, ask.terse):
            assert re.search(r"\b(show|print|display|read|pull up|contents)\b", words, re.I), words


def test_a_count_by_type_asks_for_the_total_it_records():
    """'How many of each?' is answered by the counts per type: the total the task records is asked for."""
    import re

    asks = [(ask, r) for ask, r, _ in _asks("count_files") if "name" not in ask.args]
    assert asks
    for ask, result in asks:
        assert result["files"] in ask.facts(result)
        for words in (ask.say, ask.terse):
            assert re.search(r"\b(total|in all|altogether)\b", words, re.I), words


def test_the_owner_asked_about_is_never_the_user():
    """Whose a file is, when it is the user's own, is no fact to tell them ('owned by you')."""
    asks = _asks("stat", draws=300)
    assert any("owner" in ask.say.lower() or "owns" in ask.say for ask, _, _ in asks)
    for ask, result, b in asks:
        assert b["user"] not in ask.facts(result), ask.say


def test_every_tool_that_prints_a_file_stands_in_for_the_others():
    """`cut` prints a line without its delimiter whole and `sed` without in_place prints the edited
    text: with `read_file` or `tail` missing, either still shows the lines asked for, so each is
    declared a substitute of every tool that prints a file."""
    from prove_env.synthesis.recipe import get_recipe

    toolkit, recipe = get_toolkit("filesystem"), get_recipe("filesystem")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    path = json.loads(tools.run("user_info", {}))["home"] + "/data/contacts.csv"
    text = json.loads(tools.run("read_file", {"path": path}))["content"].splitlines()
    assert len(text) > 5
    for printed in (tools.run("cut", {"path": path, "fields": [1]}),
                    tools.run("sed", {"path": path, "pattern": "^$", "replacement": ""})):
        assert all(line in printed for line in text)
    world.close()
    for reader in ("cat", "read_file", "head", "tail", "sort", "uniq", "grep"):
        assert {"cut", "sed"} <= recipe.substitutes_of(reader), reader


def test_a_line_quoted_for_deletion_is_not_also_how_its_file_is_named():
    """'Remove a line from that note in ~/notes that says "Attendees: ...". Line 8, the one that says
    ...' reads as two lines: a file whose line is quoted is named by its path or name."""
    asks = [ask for ask, _, _ in _asks("delete_lines", draws=200)]
    assert any('"' in (ask.detail or ask.say) for ask in asks)
    for ask in asks:
        assert all(ref.kind != "file" for ref in ask.refs), ask.say


def test_a_file_named_by_its_name_is_not_followed_by_the_same_noun():
    """'the app.log file in /home/chad/logs', never 'the app.log log' nor 'the notes.md note'."""
    import random
    import re

    from prove_env.synthesis.recipe import Reader, get_recipe
    from servers.filesystem.synth import _NOUNS, BY_NAME, name_file

    nouns = {word for noun in _NOUNS.values() for word in noun.lower().split()}

    toolkit, recipe = get_toolkit("filesystem"), get_recipe("filesystem")
    world = worlds.create(toolkit, 0)
    (b,) = recipe.sample(Reader(toolkit, world), world.now, random.Random("filesystem nouns"))
    world.close()
    rng = random.Random("filesystem nouns")
    said = 0
    for path in b["read"]:
        name = path.rsplit("/", 1)[1]
        for _ in range(12):
            words = name_file(b, rng, path, BY_NAME)[0]
            after = re.search(re.escape(name) + r"\"? ([a-z]+)", words)
            if after is None or after.group(1) not in nouns:
                continue
            said += 1
            stem = after.group(1)
            assert not any(p.startswith(stem) for p in re.split(r"[^a-z0-9]+", name.lower()) if p), words
    assert said > 30


def test_a_quoted_line_is_not_followed_by_a_second_full_stop():
    """'Remove line 14 ...; it's the one that says "- [ ] Joshua: Sea writer place room ever despite."',
    never '... despite.".'."""
    import re

    asks = [ask for seed in (0, 1) for ask, _, _ in _asks("delete_lines", seed=seed, draws=200)]
    quoted = [a for a in asks if '"' in " ".join(filter(None, (a.say, a.detail)))]
    assert len(quoted) > 20
    for ask in quoted:
        for words in (ask.say, ask.detail or ""):
            assert not re.search(r"[.!?]\"\.", words), words


def test_append_file_is_hidden_with_insert_lines_which_appends_at_the_last_line_plus_one():
    """insert_lines adds at the end with line = the number of lines + 1 (its description says so), so a
    task that leaves out append_file leaves it out too: appending with it would be doing the job."""
    from prove_env.synthesis.recipe import get_recipe

    recipe = get_recipe("filesystem")
    assert "insert_lines" in recipe.substitutes_of("append_file")
    work = worlds.create(get_toolkit("filesystem"), 0)
    try:
        toolkit = get_toolkit("filesystem")(work)
        home = json.loads(toolkit.run("user_info", {}))["home"]
        total = json.loads(toolkit.run("read_file", {"path": f"{home}/notes/todo.md"}))["total_lines"]
        toolkit.run("insert_lines", {"path": f"{home}/notes/todo.md", "line": total + 1, "text": "- [ ] New"})
        assert toolkit.run("tail", {"path": f"{home}/notes/todo.md", "n": 1}).strip() == "- [ ] New"
    finally:
        work.close()


def test_whether_a_path_exists_is_asked_with_what_it_is_and_a_plain_no_states_a_missing_one():
    """'/home/x/notes/todo.md there?' answered 'Yes, it exists.' is right, so every wording asks what it
    is ('file', 'directory' or 'folder' is the fact); a missing path is stated by 'No, it doesn't exist.',
    and not by a 'yes' that repeats the path the user gave."""
    from prove_env.facts import stated

    asks = [(ask, result) for seed in (0, 1) for ask, result, _ in _asks("exists", seed=seed, draws=120)]
    there = [(a, r) for a, r in asks if r["exists"]]
    gone = [(a, r) for a, r in asks if not r["exists"]]
    assert len(there) > 10 and len(gone) > 10
    for ask, result in there:
        for words in (ask.say, ask.terse):
            assert any(w in words.lower() for w in ("file or", "what is it")), words
        [fact] = ask.facts(result)
        assert stated(fact, "Yes, it's a folder." if result["type"] == "directory" else "Yes, it's a file.")
    for ask, result in gone:
        [fact] = ask.facts(result)
        assert stated(fact, "No, it doesn't exist.") and stated(fact, "There's nothing there.")
        # a wrong yes that repeats the path, or its last name, states nothing
        base = result["path"].rstrip("/").rsplit("/", 1)[-1]
        assert not stated(fact, f"Yes, {result['path']} is a folder.") and not stated(fact, f"Yes, {base} is there.")


def test_a_diff_asks_for_the_changed_lines_in_the_order_it_compares_them():
    """The facts of a diff are the lines it changes: every wording asks for lines and names path1
    first ('How does B differ from A?' with diff(A, B) scored the order the user said wrong), and a
    'Key: value' line is also stated by its value ('the mood went from stressed to tired')."""
    from prove_env.facts import stated

    asks = [(ask, result) for seed in (0, 1) for ask, result, _ in _asks("diff", seed=seed, draws=60)]
    assert len(asks) > 20
    fields = 0
    for ask, result in asks:
        p, q = ask.args["path1"], ask.args["path2"]
        for words in (ask.say, ask.terse):
            assert "line" in words and words.index(p) < words.index(q), words
        for fact in ask.facts(result):
            if isinstance(fact, dict):
                fields += 1
                line, value, *said = fact["one_of"]
                assert stated(fact, f"it now says {value}") and line.endswith(value)
                # a whole list is also said with 'and' before its last item, naming every item
                assert all(", ".join(s.rsplit(" and ", 1)) == value for s in said), (value, said)
    assert fields > 0


def test_a_number_cell_is_stated_by_its_row_printed_as_written():
    """'2026-10-31,dining,244.10,single' printed back states the cell 244.10, as a table with the
    cell does; a long line printed back states what is quoted of it (cut where a word ends, not
    inside 'nologin')."""
    import re

    from prove_env.facts import facts_stated

    asks = [(ask, result) for ask, result, _ in _asks("sort", seed=0, draws=80) if ask.facts]
    checked = 0
    for ask, result in asks:
        text = result if isinstance(result, str) else json.dumps(result)
        facts = ask.facts(result)
        checked += sum(isinstance(f, str) and re.fullmatch(r"-?\d+(\.\d+)?", f) is not None for f in facts)
        assert facts_stated([facts], [text]), (facts, text[:200])
    assert checked > 5


def test_disk_usage_states_the_total_it_asks_for():
    """Every disk_usage wording asks how much is used: the total is a fact, in bytes or in KB."""
    from prove_env.facts import stated

    asks = [(ask, result) for ask, result, _ in _asks("disk_usage", seed=0, draws=30)]
    assert asks
    for ask, result in asks:
        total = ask.facts(result)[0]
        assert stated(total, f"{result['total_bytes']:,} bytes") and stated(total, result["total_human"])
        assert not stated(total, "12 bytes")


def test_identical_files_are_stated_by_their_name_and_the_folders_they_are_in():
    """'sales-2025.csv, once in /home/x/data and once in /home/x/data/backup' tells the two copies
    apart as 'data/sales-2025.csv' and 'backup/sales-2025.csv' do; an answer without the name does not."""
    import os

    from prove_env.facts import facts_stated

    asks = [(ask, result) for seed in (0, 1) for ask, result, _ in _asks("find_duplicates", seed=seed, draws=20)]
    assert asks
    shared = 0
    for ask, result in asks:
        paths = result["groups"][0]["paths"][:4]
        facts = ask.facts(result)
        by_name: dict[str, list[str]] = {}
        for path in paths:
            by_name.setdefault(os.path.basename(path), []).append(os.path.dirname(path))
        shared += any(len(folders) > 1 for folders in by_name.values())
        answer = "; ".join(f"{name}, in " + " and in ".join(folders) for name, folders in by_name.items())
        assert facts_stated([facts], [answer]), (facts, answer)
        assert facts_stated([facts], ["\n".join(paths)])
        assert not facts_stated([facts], ["Only " + " and ".join(set(os.path.dirname(p) for p in paths))])
    assert shared


def test_a_held_back_extension_is_asked_for_without_a_correction():
    """Said in one message, 'Find all the files of one type under X. I mean the .md files.' reads as
    a correction: the request that leaves the extension to its detail asks for some files, and the
    detail names them."""
    asks = [ask for seed in (0, 1) for ask, _, _ in _asks("find", seed=seed, draws=120) if ask.detail]
    assert len(asks) > 3
    for ask in asks:
        assert "one type" not in ask.say and not ask.detail.startswith("I mean"), (ask.say, ask.detail)


def test_a_size_breakdown_total_is_stated_in_bytes_or_kilobytes():
    """'Break down the size of X by its immediate subfolders' names no unit: a total of 3099 bytes is
    as well said '3.0 KB' or '3.0K' as '3,099 bytes'; a wrong total is not."""
    from prove_env.facts import facts_stated

    asks = [(ask, result) for seed in (0, 1) for ask, result, _ in _asks("du", seed=seed, draws=40)
            if ask.args.get("max_depth") == 1]
    assert asks
    for ask, result in asks:
        rows = [line.split("\t") for line in result.splitlines() if "\t" in line]
        total, folders = int(rows[-1][0]), ", ".join(path.rsplit("/", 1)[-1] for _, path in rows[:-1])
        facts = ask.facts(result)
        for said in (f"{total:,} bytes", f"{total / 1024:.1f} KB", f"{total / 1024:.1f}K"):
            assert facts_stated([facts], [f"In all {said}: {folders}."]), (facts, said)
        assert not facts_stated([facts], [f"In all {total * 3:,} bytes: {folders}."])


def test_a_held_back_replacement_is_asked_for_as_a_change_not_a_removal():
    """'Every X in Y has to go' asks to delete it, and an agent would: the request that leaves the
    replacement to its detail says the text is to change, and the detail does not say 'replace' again."""
    asks = [ask for seed in (0, 1) for ask, _, _ in _asks("sed", seed=seed, draws=120) if ask.detail]
    assert len(asks) > 3
    for ask in asks:
        assert "has to go" not in ask.say and "remove" not in ask.say.lower(), ask.say
        assert not ("replace" in ask.say.lower() and "replace" in ask.detail.lower()), (ask.say, ask.detail)


def test_the_end_of_a_file_is_asked_for_as_its_lines_not_as_what_went_wrong():
    """The facts of `tail` are its first and last lines: 'Something went wrong; what do the last 15
    lines say?' is rightly answered by the errors alone, so every wording asks for the lines."""
    import re

    asks = [ask for seed in (0, 1) for ask, _, _ in _asks("tail", seed=seed, draws=60)]
    assert len(asks) > 20
    for ask in asks:
        for words in (ask.say, ask.terse):
            assert re.search(r"\blines\b", words), words
            unnamed = re.sub(r"\S*[/.]\w\S*", "", words)  # the file's own name ('error.log') left out
            assert not re.search(r"\b(wrong|errors?|problems?|fail\w*|broke\w*|happened)\b", unnamed, re.I), words


def test_a_held_back_word_to_count_is_not_a_question_the_next_sentence_answers():
    """Said in one message, 'How many lines mention a certain word? The word is X.' asks a question
    and answers it: the request that leaves the word to its detail is a statement the detail completes."""
    asks = [ask for seed in (0, 1) for ask, _, _ in _asks("grep", seed=seed, draws=150)
            if ask.detail and ask.args.get("count")]
    assert len(asks) > 5
    for ask in asks:
        assert not ask.say.rstrip().endswith("?") and "certain word" not in ask.say, ask.say
        assert not ask.detail.startswith("The word is"), ask.detail


def test_no_request_opens_with_a_file_name_upper_cased():
    """A request is a sentence and its first letter is upper case: one that opened with a file's
    name ('settings.yaml in ...: port becomes 9090') would name 'Settings.yaml', a file that does not
    exist, so no wording of any goal opens with how a file is named."""
    import random
    import re

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("filesystem"), get_recipe("filesystem")
    seen, wrong = 0, []
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"filesystem openings {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        world.close()
        for goal in recipe.goals:
            for _ in range(40):
                b = rng.choice(bundles)
                ask = goal.build(b, rng)
                if ask is None:
                    continue
                names = {p.rsplit("/", 1)[-1] for p in b["nodes"]}
                for words in (ask.say, ask.terse, ask.detail):
                    first = re.match(r"[^\s,:;?()]+", words or "")
                    if first is None:
                        continue
                    seen += 1
                    word = first.group(0).rstrip(".")
                    word = word[:1].upper() + word[1:]  # as a request opening a turn is written
                    said = {m for m in ask.mentions if m in names}  # the names the request says
                    if word not in names and any(word == n[:1].upper() + n[1:] for n in said):
                        wrong.append((goal.tool, words))
    assert seen > 1000
    assert not wrong, sorted({(tool, re.sub(r"\S*/\S*|'[^']*'|\d+", "_", w)) for tool, w in wrong})


def test_files_counted_by_a_listing_are_never_left_out_with_the_listing_shown():
    """'How many .js files are under projects?' is answered by find's lines as well as by
    count_files: a missing-function task that hides count_files hides every listing that counts."""
    from prove_env.synthesis.recipe import get_recipe

    toolkit, hidden = get_toolkit("filesystem"), get_recipe("filesystem").substitutes_of("count_files")
    asks = _asks("count_files", draws=40)
    assert asks
    world = worlds.create(toolkit, 0)
    try:
        for ask, result, _ in asks:
            args = {"path": ask.args["path"], "type": "f", **({"name": ask.args["name"]} if "name" in ask.args else {})}
            found = toolkit(world).run("find", args)
            lines = [] if "(no matches)" in found else found.splitlines()
            assert len(lines) == result["files"], (ask.say, found)
            listed = toolkit(world).run("grep", {"pattern": "", "path": ask.args["path"], "recursive": True,
                                                 "files_with_matches": True, "include": ask.args.get("name")})
            listed = [] if "(no matches)" in listed else listed.splitlines()
            assert len(listed) == result["files"] or "name" not in ask.args, (ask.say, listed)
    finally:
        world.close()
    assert {"find", "grep", "tree", "ls", "list_dir", "disk_usage"} <= hidden


def test_an_average_is_stated_to_one_decimal_as_well_as_to_the_hundredth():
    """A column's mean is printed to four places (219.3333): 'mean 219.3' states it as well as
    '219.33' does, a wrong mean does neither."""
    from prove_env.facts import facts_stated, values

    asks = [(ask, r) for seed in (0, 1) for ask, r, _ in _asks("column_stats", seed=seed, draws=60)
            if r is not None and round(r["mean"], 1) != round(r["mean"], 4)
            and any(r["mean"] in values(f) for f in ask.facts(r))]
    assert len(asks) > 5
    for ask, result in asks:
        facts = ask.facts(result)
        said = [str(f) for f in facts if not isinstance(f, dict) and f != result["mean"]]
        for mean in (f"{result['mean']:.1f}", f"{result['mean']:.2f}"):
            assert facts_stated([facts], [f"{', '.join(said)}; mean {mean}"]), (ask.say, facts, mean)
        assert not facts_stated([facts], [f"{', '.join(said)}; mean {result['mean'] + 1:.2f}"]), facts


def test_a_markdown_file_is_a_note_only_among_the_notes():
    """'The note projects/portfolio-site/README.md', 'the resume.md note': a project's README and a
    resume are no notes; a Markdown file is called a note only in a notes folder."""
    import random
    import re

    from prove_env.synthesis.recipe import Reader, get_recipe
    from servers.filesystem.synth import BY_TEXT, name_file

    toolkit, recipe = get_toolkit("filesystem"), get_recipe("filesystem")
    seen, wrong = set(), []
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"filesystem nouns {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        world.close()
        for b in bundles:
            for path in sorted(p for p in b["read"] if p.endswith(".md")):
                for _ in range(12):
                    words = name_file(b, rng, path, BY_TEXT)[0]
                    seen.add("/notes/" in path)
                    if "/notes/" not in path and re.search(r"\bnote\b", re.sub(r"\"[^\"]*\"", "", words)):
                        wrong.append(words)
    assert seen == {True, False}
    assert not wrong, sorted(set(wrong))[:5]


def test_a_move_is_never_left_out_while_a_copy_and_a_removal_are_shown():
    """'File away downloads/podcast-episodes.txt in documents' with mv hidden and cp and rm shown:
    copying the file there and removing the original is the move. cp then rm leaves what mv leaves
    (the file's text at the new path, nothing at the old), so the recipe hides rm with mv."""
    from prove_env.synthesis.recipe import get_recipe

    toolkit = get_toolkit("filesystem")
    asks = _asks("mv", draws=20)
    assert asks
    world = worlds.create(toolkit, 0)
    try:
        for ask, _, _ in asks:
            source, destination = ask.args["source"], ask.args["destination"]
            text = toolkit(world).run("cat", {"path": source})
            moved, copied = world.clone(), world.clone()
            assert "renamed" in toolkit(moved).run("mv", dict(ask.args))
            toolkit(copied).run("cp", dict(ask.args))
            toolkit(copied).run("rm", {"path": source})
            for after in (moved, copied):
                tools = toolkit(after)
                where = destination
                if json.loads(tools.run("exists", {"path": destination}))["type"] == "directory":
                    where = f"{destination}/{source.rsplit('/', 1)[1]}"
                assert tools.run("cat", {"path": where}) == text, (ask.say, where)
                assert not json.loads(tools.run("exists", {"path": source}))["exists"], ask.say
            moved.close(), copied.close()
    finally:
        world.close()
    hidden = get_recipe("filesystem").substitutes_of("mv")
    assert hidden & {"cp", "rm"}, hidden


def test_an_order_by_size_or_time_is_asked_of_a_folder_with_entries_to_order():
    """'List the entries of journal/2025 ordered by modification time, newest first' of a folder
    whose only entry is the folder 12: an order is asked of three shown entries at least."""
    toolkit = get_toolkit("filesystem")
    for seed in (0, 1):
        asks = _asks("list_dir", seed=seed, draws=60)
        assert asks
        world = worlds.create(toolkit, seed)
        try:
            for ask, result, _ in asks:
                assert result["total"] >= 3, (ask.say, result["total"])
        finally:
            world.close()


def test_a_complete_request_and_its_detail_do_not_open_with_the_same_word():
    """'Move invoice-1125.txt in downloads to another folder. Move it into documents.': a complete
    request says its opening and the detail the held-back level waits for, one after the other, so
    the two never start with the same word ('Add a new line ... Add exactly this', 'Use sed ... Use
    'h2' instead')."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("filesystem"), get_recipe("filesystem")
    repeated, details = set(), 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"filesystem details {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        for goal in recipe.goals:
            for _ in range(40):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None or not ask.detail:
                    continue
                details += 1
                first, then = (text.split()[0].casefold() for text in (ask.say, ask.detail))
                if first == then and first not in {"the", "a", "an"}:
                    repeated.add(f"{ask.say} {ask.detail}")
        world.close()
    assert details > 50
    assert not repeated, "\n".join(sorted(repeated))


def test_a_path_through_a_link_is_never_left_unresolved_with_a_tool_that_resolves_it_shown():
    """'/home/paul/current/docs goes through a link. Where does it really end up?' with realpath
    hidden: stat of the path names the resolved path, cd into it lands there, and stat of the link,
    ls -l, list_dir and tree of its folder show where the link points. A missing-function task that
    hides realpath or readlink hides every shown tool that tells it."""
    from prove_env.synthesis.recipe import get_recipe
    from prove_env.toolkit import ToolError
    from tests.stand_ins import parse

    recipe, toolkit = get_recipe("filesystem"), get_toolkit("filesystem")
    telling, asks = set(), _asks("realpath", draws=20) + _asks("readlink", draws=20)
    assert asks
    world = worlds.create(toolkit, 0)
    try:
        for ask, result, b in asks:
            path = ask.args["path"]
            link = next(ln for ln in b["links"] if path == ln or path.startswith(ln + "/"))
            target, folder = b["nodes"][link]["target"], link.rsplit("/", 1)[0]
            resolved = result if isinstance(result, str) else json.dumps(result)
            probes = [("stat", {"path": link}), ("ls", {"path": folder, "long": True}), ("list_dir", {"path": folder}),
                      ("tree", {"path": folder}), ("glob", {"pattern": path + "/*"}),
                      *((tool, {"path": path}) for tool in ("stat", "cd", "ls", "list_dir", "tree", "find", "du",
                                                             "disk_usage", "list_recent", "count_files"))]
            for tool, args in probes:
                try:
                    said = json.dumps(parse(toolkit(world.clone()).run(tool, args)))
                except ToolError:  # a folder's tool on a link to a file
                    continue
                if resolved.strip() in said or f"{target}\"" in said or f"-> {target}" in said:
                    telling.add(tool)
    finally:
        world.close()
    assert {"stat", "cd"} <= telling, telling
    for hidden in ("realpath", "readlink"):
        assert telling <= recipe.substitutes_of(hidden), (hidden, telling - recipe.substitutes_of(hidden))


def _probing(tool: str, draws: int):
    """The recipe, the toolkit, a fresh world of seed 0 (to close) and drawn asks of `tool`, for probing
    which shown tools tell what a request of it asks."""
    from prove_env.synthesis.recipe import get_recipe

    asks = _asks(tool, draws=draws)
    assert asks
    toolkit = get_toolkit("filesystem")
    return get_recipe("filesystem"), toolkit, worlds.create(toolkit, 0), asks


def test_a_file_detail_is_never_left_out_with_a_tool_that_tells_it_shown():
    """'How big is /home/david/notes/journal/2025/08/28.md?' with stat hidden: ls -l prints the size,
    and so do wc and du ('159'). A missing-function task that hides stat hides every shown tool whose
    output on the path or its folder states what a stat request asks (a size, a date, an owner, an
    entry count, a link's target)."""
    from prove_env.facts import stated
    from prove_env.toolkit import ToolError
    from tests.stand_ins import parse

    recipe, toolkit, world, asks = _probing("stat", draws=25)
    telling = set()
    try:
        for ask, result, _ in asks:
            path = ask.args["path"]
            folder = path.rsplit("/", 1)[0]
            facts = ask.facts(result)
            probes = [(tool, {"path": where}) for tool in ("ls", "list_dir", "list_recent", "tree", "find", "du",
                                                           "disk_usage", "count_files")
                      for where in (path, folder)]
            probes += [("ls", {"path": path, "long": True}), ("ls", {"path": folder, "long": True}),
                       ("wc", {"path": path}), ("readlink", {"path": path}), ("realpath", {"path": path}),
                       ("exists", {"path": path}), ("glob", {"pattern": path + "/*"})]
            for tool, args in probes:
                try:
                    said = json.dumps(parse(toolkit(world.clone()).run(tool, args)))
                except ToolError:  # a file's tool on a folder, or the reverse
                    continue
                if facts and all(stated(fact, said) for fact in facts):
                    telling.add(tool)
    finally:
        world.close()
    assert {"ls", "wc"} <= telling, telling
    assert telling <= recipe.substitutes_of("stat"), telling - recipe.substitutes_of("stat")


def test_a_changed_list_line_is_stated_by_its_names_joined_as_said():
    """'Which lines differ?' where the attendees changed: 'from Joshua, Katie and Lori to Timothy,
    Nicholas, Michael, Eric and Jacqueline' states both lines, as the lines printed back do."""
    from prove_env.facts import stated
    from servers.filesystem.synth import _changes

    diff = ("--- a.md\n+++ b.md\n@@ -1,3 +1,3 @@\n-# Budget Review - 2026-01-14\n+# Sprint Planning - 2026-01-30\n"
            " \n-Attendees: Joshua, Katie, Lori\n+Attendees: Timothy, Nicholas, Michael, Eric, Jacqueline, Kimberly\n")
    facts = _changes(diff)
    assert len(facts) == 4
    for answer in ("The title went from 'Budget Review - 2026-01-14' to 'Sprint Planning - 2026-01-30', and the "
                   "attendees from Joshua, Katie and Lori to Timothy, Nicholas, Michael, Eric, Jacqueline and Kimberly.",
                   "Title: Budget Review - 2026-01-14 -> Sprint Planning - 2026-01-30. Attendees: Joshua, Katie, "
                   "and Lori -> Timothy, Nicholas, Michael, Eric, Jacqueline, and Kimberly.",
                   diff):
        assert all(stated(fact, answer) for fact in facts), [f for f in facts if not stated(f, answer)]
    # a list is told whole: a name left out states nothing of its line
    assert not stated(facts[1], "the attendees were Joshua and Lori")


def test_a_file_searched_for_lines_is_never_one_to_look_up_by_its_name_first():
    """grep with recursive=True and the file's name as its include pattern finds the lines of a file
    named 'somewhere under' a folder in one call: the gold's look-up of the file (find, then grep)
    would be a longer route than a shown tool offers, so a grep request names the file by its path
    or its folder."""
    asks = _asks("grep", draws=200)
    assert len(asks) > 100
    for ask, _, _ in asks:
        assert not any(ref.kind == "path" for ref in ask.refs), ask.say
        assert "somewhere" not in ask.say, ask.say


def test_a_file_named_by_what_it_says_is_placed_below_its_folder_and_measured_plainly():
    """A file named by a phrase it holds sits anywhere below the folder said ('my note under /home/x
    with "..." in it'), not 'in' it as if directly inside; and a measure is asked as its own question
    ('How many lines and words does ... have?'), never tacked after that phrase ('... in it in lines
    and words')."""
    import re

    asks = [a for tool in ("wc", "head", "cat", "tail") for a in _asks(tool, draws=150)]
    by_text = [(ask, ref) for ask, _, _ in asks for ref in ask.refs if ref.kind == "file"]
    assert len([1 for _, ref in by_text if ref.key.rsplit("/", 1)[0] != ref.entity["dir"]]) > 20
    for ask, ref in by_text:
        area = ref.entity["dir"]
        if ref.key.rsplit("/", 1)[0] == area:
            continue
        for words in (ask.say, ask.terse or ""):
            assert not re.search(rf"(?<!somewhere) in {re.escape(area)}(?![\w/.-])", words), words
    for ask, _, _ in asks:
        assert " in it in " not in ask.say and "in lines and words" not in ask.say, ask.say


def test_an_order_of_a_folder_tells_three_entries_no_fourth_ties_with():
    """The three first entries of a folder listed by size or by date are the facts, so the fourth
    never ties with the third as the listing shows them (four folders of 4096 bytes each made any
    three of them right); and an order by size is asked of a folder of files only: a folder's own
    entry size is not how big it is ('the biggest things in ~/projects/app' answered by du fails)."""
    toolkit = get_toolkit("filesystem")
    seen = {"size": 0, "modified": 0}
    for seed in (0, 101):
        world = worlds.create(toolkit, seed)
        for ask, _, _ in _asks("list_dir", seed=seed, draws=120):
            order = ask.args["sort_by"]
            entries = json.loads(toolkit(world).run("list_dir", dict(ask.args)))["entries"]
            seen[order] += 1
            assert len(entries) >= 3, ask.say
            if order == "size":
                assert all(e["type"] == "file" for e in entries), ask.say
                assert "things" not in ask.say and "entries" not in ask.say, ask.say
            if len(entries) > 3:
                assert entries[2][order] != entries[3][order], (ask.say, entries[:4])
        world.close()
    assert seen["size"] > 10 and seen["modified"] > 10, seen


def test_a_table_sorted_highest_first_needs_the_number_order_and_the_header_flag():
    """A table is sorted by a number column whose order needs numeric=true and header=true: on a
    column of two-digit values (text order = number order, the letter header on top anyway) the
    gates leave the gold sort without either, right only by the accident of the data."""
    toolkit = get_toolkit("filesystem")
    seen = 0
    for seed in (0, 101):
        world = worlds.create(toolkit, seed)
        tools = toolkit(world)
        for ask, _, _ in _asks("sort", seed=seed, draws=120):
            if "key" not in ask.args:
                continue
            seen += 1
            right = tools.run("sort", dict(ask.args))
            for flag in ("numeric", "header"):
                assert tools.run("sort", {k: v for k, v in ask.args.items() if k != flag}) != right, (flag, ask.say)
        world.close()
    assert seen > 10


def test_a_tree_limited_in_depth_draws_less_than_the_whole_tree():
    """A tree asked 'only 2 levels deep' is of a folder deeper than that: on a tree two levels deep
    the limit draws what no limit draws, the gates drop max_depth as idle, and the gold would teach a
    call without the limit the user stated."""
    toolkit = get_toolkit("filesystem")
    seen = 0
    for seed in (0, 103):
        world = worlds.create(toolkit, seed)
        tools = toolkit(world)
        for ask, _, _ in _asks("tree", seed=seed, draws=120):
            if "max_depth" not in ask.args:
                continue
            seen += 1
            whole = tools.run("tree", {k: v for k, v in ask.args.items() if k != "max_depth"})
            assert tools.run("tree", dict(ask.args)) != whole, (ask.args, ask.say)
        world.close()
    assert seen > 10


def test_a_copy_is_hidden_with_every_tool_that_writes_what_was_read():
    """'Make a backup copy of style.css at style.css.bak' with cp hidden: reading the file and writing
    what it says to the new path (write_file, echo, append_file, or insert_lines into a touched file)
    makes the same copy, and a folder packs with tar_create and unpacks with tar_extract; a task that
    leaves out cp leaves those out too, or doing the copy fails the state check."""
    from prove_env.synthesis.recipe import get_recipe

    assert {"write_file", "echo", "append_file", "insert_lines", "tar_extract"} <= (
        get_recipe("filesystem").substitutes_of("cp"))
    toolkit = get_toolkit("filesystem")
    asks = _asks("cp", draws=60)
    assert any(not a.args.get("recursive") for a, _, _ in asks) and any(a.args.get("recursive") for a, _, _ in asks)
    for ask, _, _ in asks:
        source, destination = ask.args["source"], ask.args["destination"]
        copied, written = worlds.create(toolkit, 0), worlds.create(toolkit, 0)
        try:
            toolkit(copied).run("cp", dict(ask.args))
            tools = toolkit(written)
            if ask.args.get("recursive"):
                tools.run("tar_create", {"archive": "/tmp/copy.tar", "paths": [source]})
                tools.run("mkdir", {"path": "/tmp/unpack"})
                tools.run("tar_extract", {"archive": "/tmp/copy.tar", "directory": "/tmp/unpack"})
                tools.run("mv", {"source": f"/tmp/unpack/{source.rsplit('/', 1)[1]}", "destination": destination})
                for after in (copied, written):
                    listing = toolkit(after).run("find", {"path": destination})
                    assert listing.replace(destination, "") == toolkit(copied).run("find", {"path": source}).replace(
                        source, ""), ask.say
                continue
            where = destination
            if json.loads(tools.run("exists", {"path": destination})).get("type") == "directory":
                where = f"{destination}/{source.rsplit('/', 1)[1]}"
            content = json.loads(tools.run("read_file", {"path": source}))["content"]
            tools.run("write_file", {"path": where, "content": content})
            assert tools.run("cat", {"path": where}) == toolkit(copied).run("cat", {"path": where}), ask.say
        finally:
            copied.close(), written.close()


def test_a_recent_files_count_is_asked_of_a_folder_with_more_files_than_that():
    """'Which 5 files under ~/scripts were modified most recently?' of a folder holding four: the limit
    lists what no limit lists, the gates drop it as idle, and the gold teaches a call without the count
    the user stated (and the words promise five files that are not there)."""
    toolkit = get_toolkit("filesystem")
    seen = 0
    for seed in (0, 105):
        world = worlds.create(toolkit, seed)
        tools = toolkit(world)
        for ask, _, _ in _asks("list_recent", seed=seed, draws=80):
            seen += 1
            every = json.loads(tools.run("list_recent", {"path": ask.args["path"], "limit": 1000}))["files"]
            assert len(every) > ask.args["limit"], (ask.say, len(every))
        world.close()
    assert seen > 20


def test_a_terse_echo_request_says_its_verb():
    """"'imported on Monday' into /home/john/notes/status.txt." reads as a fragment: the terse request
    says what to do with the words."""
    asks = _asks("echo", draws=120)
    assert len(asks) > 20
    for ask, _, _ in asks:
        assert (ask.terse or "")[:1].isupper() and not ask.terse.startswith("'"), ask.terse


def test_squeezing_repeats_is_asked_only_of_a_file_with_back_to_back_repeats():
    """"Print 21.md with repeated lines that follow each other squeezed into one" of a journal entry
    with no line repeated back to back: uniq prints the file as it is and the words promise repeats
    that are not there. A plain uniq is asked only of a file with adjacent repeats (uniq -c, whose
    counts tell that none repeat, may be asked of any)."""
    seen = 0
    for seed in (0, 107):
        for ask, _, b in _asks("uniq", seed=seed, draws=80):
            if ask.args.get("count"):
                continue
            seen += 1
            lines = b["files"][ask.args["path"]]["lines"]
            assert any(a == c for a, c in zip(lines, lines[1:])), (ask.say, ask.args)
    assert seen > 10


def test_a_folder_named_by_a_number_is_not_said_as_a_count():
    """"List the contents of the 11 folder in /home/joanna/notes/journal/2025" reads '11' as a count of
    folders: a folder whose name has no letter is named in quotes ('the folder "11" in ...')."""
    import random
    import re

    from prove_env.synthesis.recipe import Reader, get_recipe
    from servers.filesystem.synth import name_file

    toolkit, recipe = get_toolkit("filesystem"), get_recipe("filesystem")
    world = worlds.create(toolkit, 107)
    try:
        b = recipe.sample(Reader(toolkit, world), world.now, random.Random(0))[0]
        numbered = [d for d in b["dirs"] if not re.search(r"[A-Za-z]", d.rsplit("/", 1)[1])]
        assert len(numbered) > 3
        rng = random.Random(107)
        for path in numbered:
            for _ in range(6):
                words, _, _ = name_file(b, rng, path, (0.0, 0.0, 0.0, 1.0))
                name = path.rsplit("/", 1)[1]
                assert f'"{name}"' in words and f"the {name} folder" not in words, words
    finally:
        world.close()


def test_an_exists_request_asks_file_or_folder_not_what_it_is():
    """"Quick check: is ~/notes/todo.md there, and what is it?" reads as what it holds too ("yes, your
    to-do list"), which states no type and fails the fact 'file': the words ask file or folder."""
    import re

    asks = _asks("exists", draws=120)
    assert len(asks) > 30
    for ask, _, _ in asks:
        assert "what is it" not in ask.say.lower(), ask.say
        if not ask.say.startswith("Do I have"):
            assert re.search(r"file or (?:a )?(?:folder|directory)", ask.say), ask.say


def _every_ask(seed: int = 0, draws: int = 40):
    """Requests the recipe writes for every goal from the bundles of one world."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("filesystem"), get_recipe("filesystem")
    world = worlds.create(toolkit, seed)
    try:
        rng = random.Random(f"filesystem every ask {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        for goal in recipe.goals:
            for _ in range(draws):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is not None:
                    yield ask
    finally:
        world.close()


def test_no_request_puts_brackets_inside_brackets():
    """"I've got something for my to-do list (todo.md (it's in /home/brittany/notes)); add it at the
    bottom.": a file named with its folder in brackets is not put in brackets again."""
    seen = 0
    for seed in (0, 109):
        for ask in _every_ask(seed):
            for text in (ask.say, ask.terse, ask.detail):
                depth = 0
                for ch in text or "":
                    depth += {"(": 1, ")": -1}.get(ch, 0)
                    assert depth < 2, text
            seen += 1
    assert seen > 500


def _bundle(seed: int):
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("filesystem"), get_recipe("filesystem")
    world = worlds.create(toolkit, seed)
    try:
        return recipe.sample(Reader(toolkit, world), world.now, random.Random(0))[0]
    finally:
        world.close()


def test_a_file_named_by_its_words_is_not_said_with_them_in_it():
    """"Show me the lines of my note under ~/notes with "Reading list" in it, each with a count ...":
    after 'the lines of', 'with "..." in it' reads as the lines that hold the words (a grep), not the
    note that does; the note is named 'that has "..." in it'."""
    import random

    from servers.filesystem.synth import name_file

    b = _bundle(109)
    assert len(b["by_text"]) > 3
    rng = random.Random(109)
    for path in b["by_text"]:
        for _ in range(12):
            words, _, _ = name_file(b, rng, path, (0.0, 1.0, 0.0, 0.0))
            assert not words.endswith("in it") or " that has " in words, words


def test_a_file_without_an_extension_is_said_with_its_noun():
    """"Read timezone (it's in /etc) out to me": a file whose name has no extension, said bare, reads
    as a word; it is 'the timezone file (it's in /etc)'."""
    import random

    from servers.filesystem.synth import name_file

    b = _bundle(109)
    bare = [p for p, n in b["nodes"].items() if n["kind"] == "file" and "." not in p.rsplit("/", 1)[1]
            and not p.rsplit("/", 1)[1].startswith(".")]
    assert len(bare) > 3
    rng = random.Random(109)
    for path in bare:
        for _ in range(8):
            words, _, _ = name_file(b, rng, path, (0.0, 0.0, 0.0, 1.0))
            assert words.startswith("the "), words


def _printed(tools, tool: str, path: str) -> str:
    """What `tool` prints of the file at `path` with the arguments that print every line of it (cut on a
    delimiter the file does not hold prints each line whole)."""
    arguments = {"cat": {}, "read_file": {}, "head": {"n": 1000}, "tail": {"n": 1000}, "sort": {},
                 "uniq": {"count": True}, "grep": {"pattern": ""}, "cut": {"fields": [1], "delimiter": "\x07"},
                 "sed": {"pattern": "^", "replacement": ""}, "diff": {"path2": "/tmp/empty"}}[tool]
    out = tools.run(tool, {"path1" if tool == "diff" else "path": path, **arguments})
    return json.loads(out)["content"] if tool == "read_file" else out


PRINTERS = ("cat", "read_file", "head", "tail", "sort", "uniq", "grep", "cut", "sed", "diff")


def test_a_word_count_is_hidden_with_every_tool_that_prints_the_file():
    """"Could you tell me the word count of ~/notes/passwords-hint.txt?" with wc hidden and cat shown:
    cat prints the note's three lines, whose 14 words are counted at a glance (cat -n numbers the lines),
    so the right answer scored 1.2 of 1.3 against a gold that declines. A task that leaves out wc leaves
    out every tool that prints a file's lines too."""
    from prove_env.synthesis.recipe import get_recipe

    assert set(PRINTERS) <= get_recipe("filesystem").substitutes_of("wc")
    toolkit = get_toolkit("filesystem")
    world = worlds.create(toolkit, 111)
    try:
        tools = toolkit(world)
        tools.run("touch", {"path": "/tmp/empty"})
        asks = _asks("wc", seed=111, draws=30)
        assert len(asks) > 20
        for ask, counts, _ in asks:
            lines = tools.run("cat", {"path": ask.args["path"]}).split("\n")
            for tool in PRINTERS:  # each prints every line of the file: its lines and words are counted
                printed = _printed(tools, tool, ask.args["path"])
                assert all(line in printed for line in lines), (tool, ask.say)
    finally:
        world.close()


def test_the_groups_are_hidden_with_every_tool_that_prints_etc_group():
    """"Can you check which account I'm using and what groups it belongs to?" with user_info hidden and
    cat shown: /etc/group lists the user in each of their groups ('developers:x:1001:samantha'), and
    `cd ~` or the home's owner names the account, so the right answer scored 1.2 of 1.3 against a gold
    that declines. A task that leaves out user_info leaves out every tool that prints /etc/group."""
    from prove_env.synthesis.recipe import get_recipe

    assert set(PRINTERS) <= get_recipe("filesystem").substitutes_of("user_info")
    toolkit = get_toolkit("filesystem")
    for seed in (0, 111):
        world = worlds.create(toolkit, seed)
        try:
            tools = toolkit(world)
            tools.run("touch", {"path": "/tmp/empty"})
            me = json.loads(tools.run("user_info", {}))
            for tool in PRINTERS:
                printed = _printed(tools, tool, "/etc/group")
                for group in me["groups"]:  # each group the user is in, with the user as a member or its own
                    assert f"{group}:x:" in printed, (tool, group)
                    assert group == me["user"] or printed.split(f"{group}:x:")[1].split("\n")[0].endswith(
                        me["user"]), (tool, group)
        finally:
            world.close()


def test_a_closed_folder_request_says_the_account_is_locked_out():
    """"What's stored under /root? Please ignore the fact that I can't open it myself.": "myself" says
    the assistant might open it, so a model tries `ls /root` (and an abstention scores 0 for any call);
    every wording says the user's account, which the shell runs as, is what is kept out."""
    import random
    import re

    from servers.filesystem.synth import closed_folder_request

    b = _bundle(111)
    rng = random.Random(111)
    said = {closed_folder_request(b, rng) for _ in range(200)}
    assert len(said) >= 8
    for text in said:
        assert "myself" not in text, text
        assert re.search(r"my account|permission|not allowed", text, re.I), text


def test_a_column_named_like_what_is_asked_is_said_as_a_column():
    """"Smallest and largest value of 'value' in the spreadsheet .../report-q3.csv?": a column named
    'value' after "value of" reads as a word said twice; the terse request says "the 'value' column"."""
    seen = 0
    for seed in (0, 111):
        for ask, _, _ in _asks("column_stats", seed=seed, draws=150):
            column = ask.args["column"]
            for text in (ask.say, ask.terse, ask.detail):
                assert f"{column} of '{column}'" not in (text or "").lower(), text
            seen += column == "value"
    assert seen > 5


def test_a_rounded_human_readable_total_with_its_unit_is_read():
    """"Roughly how big is /home/lindsey altogether? A human-readable figure is all I need.": `du -sh`
    printed '30.6K' and the fact was a bare 30.6, so "Roughly 31 KB." failed though it is the figure
    asked for; the fact carries its unit, and the listing's own '30.6K' still reads."""
    from prove_env.facts import facts_stated

    seen = 0
    for seed in (0, 113):
        for ask, result, _ in _asks("du", seed=seed, draws=120):
            if not ask.args.get("human_readable"):
                continue
            seen += 1
            facts = ask.facts(result)
            shown = result.split("\t")[0]
            assert facts_stated([facts], [f"It comes to {shown} in total."]), (shown, facts)
            if shown.endswith("K") and float(shown[:-1]) >= 10:  # two digits left: '30.6K' is roughly 31 KB
                rounded = round(float(shown[:-1]))
                assert facts_stated([facts], [f"Roughly {rounded} KB."]), (shown, facts)
                assert not facts_stated([facts], [f"Roughly {rounded + 5} KB."]), (shown, facts)
    assert seen > 5


def test_a_largest_files_count_is_asked_of_a_folder_with_more_files_than_that():
    """"What's eating the space in /home/lindsey/data? Give me the total and the 10 biggest files." of a
    folder holding 8: the words promise files that are not there. The count is asked only where it cuts
    the listing."""
    toolkit = get_toolkit("filesystem")
    seen = 0
    for seed in (0, 113):
        world = worlds.create(toolkit, seed)
        tools = toolkit(world)
        for ask, _, _ in _asks("disk_usage", seed=seed, draws=80):
            seen += 1
            every = json.loads(tools.run("disk_usage", {"path": ask.args["path"], "top": 1000}))["largest_files"]
            assert len(every) > ask.args["top"], (ask.say, len(every))
        world.close()
    assert seen > 20


def test_an_edit_is_hidden_with_every_tool_that_rewrites_the_file():
    """"Please edit that config file ... so that 'port: 5432' reads 'port: 5433'" with replace_in_file and
    sed hidden, but read_file and write_file shown: rewriting the file with the line changed made the edit
    the user asked for and scored success false (state 0) against a gold that declines. So does deleting
    the line and inserting the new one. A task that leaves out replace_in_file leaves out each of those."""
    from prove_env.synthesis.recipe import get_recipe

    assert {"sed", "write_file", "echo", "insert_lines", "delete_lines"} <= (
        get_recipe("filesystem").substitutes_of("replace_in_file"))
    toolkit = get_toolkit("filesystem")
    world = worlds.create(toolkit, 11300000)  # the world of filesystem-11300000-0002
    try:
        tools = toolkit(world)
        path = "/home/lindsey/projects/expense-report/config/settings.yaml"
        text = json.loads(tools.run("read_file", {"path": path}))["content"]
        assert "port: 5432" in text
        tools.run("write_file", {"path": path, "content": text.replace("port: 5432", "port: 5433")})
        line = text.splitlines().index("  port: 5433".replace("5433", "5432")) + 1
        tools.run("write_file", {"path": "/tmp/copy.yaml", "content": text})
        tools.run("delete_lines", {"path": "/tmp/copy.yaml", "start_line": line})
        tools.run("insert_lines", {"path": "/tmp/copy.yaml", "line": line, "text": "  port: 5433"})
        edited = json.loads(tools.run("read_file", {"path": path}))["content"]
        assert "port: 5433" in edited and "port: 5432" not in edited
        assert json.loads(tools.run("read_file", {"path": "/tmp/copy.yaml"}))["content"] == edited
    finally:
        world.close()


def test_two_columns_printed_as_a_table_or_column_by_column_state_their_cells():
    """"Show me just two of the columns of ~/data/temperatures.csv. Columns 2 and 4: 'jan' and 'jul'.":
    the facts were the cells 11, 31 and 9, and the columns printed as a Markdown table failed (31 beside
    32 and 33 in its column reads as a guess among them), as did a plain table ('jan  jul' over '11  31')
    or one column a line ('jan: 11, 3, ..., 9' over 'jul: 31, ...'), where 'jul 11' and '9 jul' read as
    days. The facts are cells each print states, one of each column at least."""
    from prove_env.facts import facts_stated

    seen = 0
    for seed in (0, 11500000):
        for ask, result, _ in _asks("cut", seed=seed, draws=150):
            rows = [line.split(",") for line in result.splitlines() if line.strip()]
            facts = ask.facts(result)
            prints = ["\n".join("  ".join(row) for row in rows),
                      "\n".join(["| " + " | ".join(rows[0]) + " |", "|---|---|"]
                                + ["| " + " | ".join(row) + " |" for row in rows[1:]]),
                      "\n".join(f"{name}: " + ", ".join(r[k] for r in rows[1:]) for k, name in enumerate(rows[0]))]
            for text in prints:
                assert facts_stated([facts], [text]), (ask.say, text, facts)
            for k in range(2):  # each column is checked
                assert {rows[1][k], rows[-1][k]} & set(facts), (ask.say, facts)
            seen += 1
    assert seen > 20


def test_a_searched_word_is_one_the_files_say_as_a_word():
    """"I'd like every line mentioning 'port' anywhere under /home/katie/notes, with the file it's in.": the
    notes say 'port' only inside "important" and "sport", so the gold's lines were about neither, and a
    model searching for the word found none. A word is searched for only where every line it is found
    in says it as a word of its own (in any letter case where the search ignores case)."""
    import random
    import re

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("filesystem"), get_recipe("filesystem")
    seen = 0
    for seed in (0, 11700000):  # the world of filesystem-11700000-0007
        world = worlds.create(toolkit, seed)
        try:
            tools = toolkit(world)
            rng = random.Random(f"filesystem searched words {seed}")
            bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
            for goal in (g for g in recipe.goals if g.tool in ("grep", "search_files")):
                for _ in range(60):
                    ask = goal.build(rng.choice(bundles), rng)
                    if ask is None:
                        continue
                    if goal.tool == "grep":
                        word, any_case = ask.args["pattern"], bool(ask.args.get("ignore_case"))
                        args = {k: v for k, v in ask.args.items() if k != "count"}
                    else:
                        word, any_case = ask.args["query"], True
                        args = {"pattern": word, "path": ask.args["path"], "recursive": True,
                                "ignore_case": True, "fixed_string": True}
                    printed = tools.run("grep", args)
                    lines = [re.sub(r"^(?:[^:\n]*:)?\d+:", "", line) for line in printed.splitlines()]
                    found = re.findall(rf"[A-Za-z]*{re.escape(word)}[A-Za-z]*", "\n".join(lines),
                                       re.I if any_case else 0)
                    assert found, (ask.say, printed)
                    assert all(len(f) == len(word) for f in found), (ask.say, sorted(set(found)))
                    seen += 1
        finally:
            world.close()
    assert seen > 100


def test_the_last_lines_asked_are_fewer_than_the_file_has():
    """"Show me the end of the error.log file I keep somewhere under /home/katie/logs, the last 20 lines."
    of a log of 15 lines: the count cuts nothing, and the words promise lines that are not there. The
    count is asked only where it leaves lines out."""
    seen = 0
    for seed in (0, 11700000):  # the world of filesystem-11700000-0011
        for ask, _, b in _asks("tail", seed=seed, draws=80):
            assert ask.args["n"] < len(b["files"][ask.args["path"]]["lines"]), (ask.say, ask.args)
            seen += 1
    assert seen > 50


def test_the_working_directory_is_hidden_with_every_tool_that_prints_it():
    """"What's my current working directory?" with pwd hidden and a gold that declines, while realpath('.'),
    cd('.'), stat('.') and list_dir('.') print /home/yolanda: a model answering it through them scored
    below the gold (name 0.5), and the task taught to decline what a shown tool answers. Every tool that
    prints the absolute path of '.' (or of a file named relative to it) is hidden with pwd."""
    from prove_env.synthesis.recipe import get_recipe

    stand_ins = get_recipe("filesystem").substitutes_of("pwd")
    toolkit = get_toolkit("filesystem")
    world = worlds.create(toolkit, 11900000)  # the world of filesystem-11900000-0002
    try:
        tools = toolkit(world)
        cwd = "/home/yolanda/notes"
        tools.run("cd", {"path": cwd})
        here, file = {"path": "."}, {"path": "todo.md"}
        calls = {"cd": here, "realpath": here, "stat": here, "exists": here, "list_dir": here, "ls": {**here, "long": True},
                 "tree": here, "find": here, "glob": {"pattern": "*"}, "list_recent": here, "du": here,
                 "disk_usage": here, "count_files": here, "find_duplicates": here, "search_files": {"query": "a"},
                 "grep": {"pattern": "a", "path": ".", "recursive": True}, "cat": file, "head": file, "tail": file,
                 "read_file": file, "wc": file, "checksum": file, "sort": file, "uniq": file,
                 "cut": {**file, "fields": [1], "delimiter": " "}, "diff": {"path1": "todo.md", "path2": "ideas.md"}}
        printing = {name for name, args in calls.items() if cwd in str(tools.run(name, args))}
        assert {"realpath", "cd", "stat", "list_dir", "read_file"} <= printing
        assert printing - stand_ins == set(), sorted(printing - stand_ins)
    finally:
        world.close()


def test_a_file_named_by_what_it_says_is_asked_for_in_plain_grammar():
    """"Read my config file under /home/yolanda/projects that has "name: weather-dashboard" in it out to me,
    please.": the verb's particle came after the whole description. A file named by what it says ends
    its clause; nothing of the verb follows it."""
    import re

    seen = 0
    for seed in (0, 11900000):  # the world of filesystem-11900000-0004
        for ask, _, _ in _asks("cat", seed=seed, draws=200):
            assert not re.search(r'"[^"]*" in it out to me', ask.say), ask.say
            assert not re.search(r"\bout to me\b", ask.say) or not ask.refs, ask.say
            seen += bool(ask.refs)
    assert seen > 20


def test_an_average_is_asked_in_plain_words():
    """"On average, what's in the 'value' column of the report-q4.csv spreadsheet ...?" asks what the column
    holds, not what it averages to: the average is asked for as one."""
    seen = 0
    for seed in (0, 11900000):  # the world of filesystem-11900000-0003
        for ask, result, _ in _asks("column_stats", seed=seed, draws=200):
            assert "On average, what's in" not in ask.say, ask.say
            seen += "average" in ask.say
    assert seen > 5


def test_a_file_said_to_be_somewhere_under_a_folder_lies_below_it_not_right_in_it():
    """"Please display the contents of the text file named cover-letter.txt (it's somewhere in
    /home/yvette/documents).": the gold found the file with `find` first, though it sits right in that
    folder, so a model opening /home/yvette/documents/cover-letter.txt at once scored below the gold
    (coverage 1/3) for the shorter route. A file is named 'somewhere under' a folder only where it lies
    deeper than the folder's own entries; right in it, it is named by that folder, with no look-up."""
    seen = 0
    for seed in (0, 12100000):  # the world of filesystem-12100000-0004
        for tool in ("cat", "head", "tail", "wc", "cd", "mv", "rm"):
            for ask, _, _ in _asks(tool, seed=seed, draws=60):
                for ref in ask.refs:
                    if ref.kind != "path":
                        continue
                    assert ref.key.rsplit("/", 1)[0] != ref.entity["dir"], (ask.say, ref.key)
                    seen += 1
    assert seen > 20


def test_a_file_copied_or_renamed_beside_itself_is_not_said_to_be_somewhere_under_a_folder():
    """"Copy my Python file called app.py somewhere under /home/benjamin/projects to
    /home/benjamin/projects/recipe-box/src/recipe_box/app.py.bak": the backup's path spells out where the
    file lies, so the gold dropped the `find` the words ask for, and a model that looked the file up first
    scored below the gold (name 0.75). A file copied or renamed into its own folder is named by its path
    or its folder, never looked up by its name."""
    seen = 0
    for seed in (0, 12300000):  # the world of filesystem-12300000-0005
        for tool in ("cp", "mv"):
            for ask, _, _ in _asks(tool, seed=seed, draws=80):
                source, destination = ask.args["source"], ask.args["destination"]
                if destination.rsplit("/", 1)[0] != source.rsplit("/", 1)[0]:
                    continue
                assert not ask.refs, (ask.say, ask.args)
                assert "somewhere" not in ask.say + (ask.terse or ""), ask.say
                seen += 1
    assert seen > 20


def test_an_empty_folder_is_stated_empty_in_any_usual_words():
    """"Give me a long listing of /home/benjamin/projects/portfolio-site/assets" of an empty folder: only the
    word 'empty' stated its fact, so "There's nothing in it: no files or subfolders." and "It contains no
    files." failed success. An empty listing is stated by any usual word for nothing."""
    from prove_env.facts import facts_stated

    seen = 0
    for seed in (0, 12300000):  # the world of filesystem-12300000-0010
        for ask, result, _ in _asks("ls", seed=seed, draws=200):
            if str(result).strip() != "(empty directory)":
                continue
            facts = [ask.facts(result)]
            for answer in ("The folder is empty.", "There's nothing in it: no files or subfolders.",
                           "It contains no files.", "No entries: the directory has nothing in it."):
                assert facts_stated(facts, [answer]), (answer, facts)
            assert not facts_stated(facts, ["It holds index.html and style.css."]), facts
            seen += 1
    assert seen > 3


def test_a_line_added_is_hidden_with_every_edit_tool_that_adds_it():
    """"Add a new line at the end of my to-do list, the todo.md note somewhere below /home/christian" with
    append_file hidden, but replace_in_file and sed shown: replacing the list's last line with itself and
    the new line appends it, and the model doing so scored 1.03 against 1.3 for the gold that declines
    (filesystem-12500000-0004). A line put before another (insert_lines) is added the same way, or by
    rewriting the file, and a line deleted by rewriting the file without it: a task that leaves out one of
    those tools leaves out each tool that does its job."""
    import re

    from prove_env.synthesis.recipe import get_recipe

    recipe = get_recipe("filesystem")
    assert {"replace_in_file", "sed"} <= recipe.substitutes_of("append_file")
    assert {"sed", "write_file", "echo"} <= recipe.substitutes_of("insert_lines")
    assert {"write_file", "echo"} <= recipe.substitutes_of("delete_lines")
    toolkit = get_toolkit("filesystem")
    for seed in (0, 12500000):
        edited = {}
        for tool in ("append_file", "replace_in_file", "sed"):
            world = worlds.create(toolkit, seed)
            try:
                tools = toolkit(world)
                home = json.loads(tools.run("user_info", {}))["home"]
                path = f"{home}/notes/todo.md"
                last = tools.run("tail", {"path": path, "n": 1}).strip()
                if tool == "append_file":
                    tools.run(tool, {"path": path, "content": "- [ ] Call the plumber\n"})
                elif tool == "replace_in_file":
                    tools.run(tool, {"path": path, "old": f"{last}\n", "new": f"{last}\n- [ ] Call the plumber\n"})
                else:
                    tools.run(tool, {"path": path, "pattern": f"^{re.escape(last)}$",
                                     "replacement": "\\g<0>\\n- [ ] Call the plumber", "in_place": True})
                edited[tool] = json.loads(tools.run("read_file", {"path": path}))["content"]
            finally:
                world.close()
        assert edited["replace_in_file"] == edited["append_file"] == edited["sed"], edited


def test_changes_in_the_last_days_are_not_asked_where_an_entry_changed_at_the_cut():
    """"I touched something in /home/christian/logs in the last 3 days and forgot what. What changed?" with
    app.log.1 changed 3 days ago to the minute: read as 72 hours it is in, read as the last three calendar
    days it is out, and an answer leaving it out failed (filesystem-12500000-0002). The days are asked only
    where no entry changed within a day of the cut."""
    seen = 0
    for seed in (0, 12500000):
        for ask, _, b in _asks("find", seed=seed, draws=200):
            days = ask.args.get("modified_within_days")
            if days is None:
                continue
            cut = b["now"] - dt.timedelta(days=days)
            for path, node in b["nodes"].items():
                if path.startswith(ask.args["path"] + "/"):
                    when = dt.datetime.fromisoformat(str(node["mtime"]))
                    assert abs(when - cut) >= dt.timedelta(days=1), (ask.say, path, when, cut)
            seen += 1
    assert seen > 20


def test_a_column_summary_is_hidden_with_every_tool_that_prints_the_table():
    """"I need summary statistics for one numeric column of /home/martin/data/sales-2025.csv. The column is
    'revenue'." with column_stats hidden but cat, read_file and cut shown: the model that prints the table and
    adds up its 36 rows answers it, and scored 1.2 against 1.3 for the gold that declines
    (filesystem-12700000-0003). A column's count, sum, smallest, largest and mean are read off any tool that
    prints the table (cut -f prints the column alone), so a task that leaves out column_stats leaves them out
    too."""
    from prove_env.synthesis.recipe import get_recipe

    recipe = get_recipe("filesystem")
    printers = {"read_file", "cat", "head", "tail", "sort", "uniq", "grep", "cut", "sed", "diff"}
    assert printers <= recipe.substitutes_of("column_stats")
    toolkit = get_toolkit("filesystem")
    seen = 0
    for seed in (0, 12700000):
        for ask, result, _ in _asks("column_stats", seed=seed, draws=20):
            world = worlds.create(toolkit, seed)
            try:
                tools = toolkit(world)
                header = tools.run("head", {"path": ask.args["path"], "n": 1}).strip().split(",")
                field = header.index(ask.args["column"]) + 1
                printed = tools.run("cut", {"path": ask.args["path"], "fields": [field], "delimiter": ","})
            finally:
                world.close()
            values = [float(v) for v in printed.strip().splitlines()[1:] if v.strip()]
            assert len(values) == result["count"], (ask.args, printed)
            assert round(sum(values), 2) == round(result["sum"], 2)
            assert (min(values), max(values)) == (result["min"], result["max"])
            seen += 1
    assert seen > 5


def test_entries_ordered_by_time_are_asked_as_the_folders_own():
    """"What in /home/martin/projects/inventory-tracker was changed most recently? Newest first." with the gold
    list_dir(sort_by=modified) of its own entries (LICENSE, src, tests): list_recent, shown, answers the same
    words with the files at every depth (src/inventory_tracker/api/v1/endpoints.py), and that route scored 0.95
    against 1.3 (filesystem-12700000-0005). The words say the folder's own entries."""
    seen = 0
    for seed in (0, 12700000):
        for ask, _, _ in _asks("list_dir", seed=seed, draws=300):
            if ask.args.get("sort_by") != "modified":
                continue
            top = ask.args["path"]
            assert any(words in ask.say for words in ("entries of", "directly in", f"Show me {top} sorted")), ask.say
            seen += 1
    assert seen > 20


def test_a_long_listing_is_asked_only_of_a_folder_with_an_entry_it_shows():
    """"Give me a long listing of /home/tonya/pictures, with permissions, owners and sizes." of an empty folder
    (filesystem-12900000-0010): the listing draws what a plain one draws, the gates drop long as idle, and the
    gold taught an ls without the detail the user asked for. A long listing is asked of a folder with an entry."""
    seen = 0
    for seed in (0, 12900000):  # the world of filesystem-12900000-0010
        for ask, result, _ in _asks("ls", seed=seed, draws=200):
            if "long" in ask.args or "long listing" in ask.say or "in detail" in ask.say or "detailed" in ask.say:
                seen += 1
                assert str(result).strip() != "(empty directory)", ask.say
    assert seen > 20


def test_the_column_is_asked_for_only_where_the_file_has_more_than_one_to_sum():
    """"I need summary statistics for one numeric column of the spreadsheet under /home/tonya/documents that
    mentions "date,vendor,category,amount"." and then "The column is 'amount'." (filesystem-12900000-0004):
    'amount' is the file's only numeric column, so the user's words name it and the question teaches a needless
    clarification. The column is held back only where the file has another numeric column."""
    seen = 0
    for seed in (0, 12900000):
        for ask, _, b in _asks("column_stats", seed=seed, draws=200):
            if len(b["csv"][ask.args["path"]]["numeric"]) > 1:
                continue
            seen += 1
            assert not ask.detail, (ask.say, ask.detail)
            assert f"'{ask.args['column']}'" in ask.say, ask.say
    assert seen > 50


def test_a_column_holding_zeros_is_numeric():
    """A temperature column with a 0 in it ('apr': 0, 4, 11) is a numeric column: the check of a cell read
    0.0 as not a number, so such a column was never asked about."""
    from prove_env.servers.filesystem.synth import _columns

    assert _columns(["city,apr,note", "Oslo,0,cold", "Rome, 14 ,warm", "Nice,-1.5,x"])["numeric"] == ["apr"]


def test_counted_adjacent_lines_are_asked_to_be_shown():
    """"Collapse the repeated adjacent lines of models.py and show how often each one occurs in a row."
    (filesystem-13100000-0009): the facts are the file's lines, and "every line occurs once, the blank one
    twice" answers those words without one of them (success false). The words ask to see the lines."""
    import re

    seen = 0
    for seed in (0, 13100000):
        for ask, _, _ in _asks("uniq", seed=seed, draws=80):
            if not ask.args.get("count"):
                continue
            seen += 1
            assert re.search(r"\b(Print|Show me) the lines of\b", ask.say), ask.say
            assert "how often each one occurs" not in ask.say, ask.say
    assert seen > 10


def test_a_list_named_by_its_heading_is_not_named_again():
    """"Add a book to the note under /home/robyn/notes where I wrote "Reading list" (my reading list) so it
    becomes line 3" (filesystem-13100000-0010) names the list twice: where the words naming the file say
    the list's name, 'my reading list' is not added."""
    seen = 0
    for seed in (0, 13100000):
        for ask, _, _ in _asks("insert_lines", seed=seed, draws=200):
            for name in ("reading list", "to-do list"):
                if ask.say.lower().count(name) > 1:
                    raise AssertionError(ask.say)
            seen += "reading list" in ask.say.lower() or "to-do list" in ask.say.lower()
    assert seen > 10


def test_the_lines_a_search_finds_are_asked_to_be_shown():
    """"Which lines in the note /home/christina/notes/meeting-2026-06-15.md mention 'Attendees'?"
    (filesystem-13300000-0001): the facts are the matching lines' text, and "only line 3, which lists the
    attendees as Stephanie, Tracy, Gregory, Carrie and Stacy" answers those words without it (success false).
    Every wording of a grep that prints its lines asks to see them."""
    seen = 0
    for seed in (0, 13300000):
        for ask, _, _ in _asks("grep", seed=seed, draws=200):
            if ask.args.get("count") or "/" not in ask.args["path"]:
                continue
            seen += 1
            assert "which lines" not in (ask.say + " " + (ask.detail or "")).lower(), ask.say
    assert seen > 30



@pytest.mark.parametrize("seed", range(4))
def test_a_recipe_note_lists_ingredients(seed):
    """Finding (seed 133, 0005): pasta-carbonara.md listed "- last", "- actually", "- outside" as its
    ingredients, and a task's fact was "last". A recipe note lists the recipe's own ingredients."""
    from prove_env.registry import get_toolkit
    from prove_env.world import worlds
    from servers.filesystem.seed import RECIPES

    world = worlds.create(get_toolkit("filesystem"), seed)
    for name, needs in RECIPES.items():
        ((content,),) = world.connection.execute(
            "SELECT content FROM nodes WHERE path LIKE ?", (f"%/notes/recipes/{name}.md",)).fetchall()
        listed = content.split("## Ingredients\n\n")[1].split("\n\n")[0].splitlines()
        assert 4 <= len(listed) <= 7 and all(line[2:] in needs for line in listed), (name, listed)


def test_a_human_readable_total_is_asked_only_of_a_folder_of_a_kilobyte_or_more():
    """"How much space does /home/angelica/scripts take up? Just the total, in K or M."
    (filesystem-13500000-0004): the folder holds 315 bytes, the listing says '315', and "about 0.3 KB",
    the total in the unit the words ask, reads no fact (success false). A folder under 1K is asked its
    size in bytes."""
    import re

    seen = 0
    for seed in (0, 13500000):
        for ask, result, _ in _asks("du", seed=seed, draws=200):
            assert result is not None
            if not ask.args.get("human_readable"):
                continue
            seen += 1
            assert re.match(r"[\d.]+[KMGT]\t", result if isinstance(result, str) else str(result)), (ask.say, result)
    assert seen > 10


def test_a_search_is_narrowed_to_one_kind_of_file_only_where_others_match():
    """"Which Markdown (.md) files under /home/angelica/projects mention 'documentation'?"
    (filesystem-13500000-0001): the only file that says it is a .md one, so the filter is idle and the gold
    drops it, teaching a search without the filter the words ask. A search by kind of file is asked only
    where files of another kind match as well."""
    from tests.stand_ins import parse

    seen = 0
    for seed in (0, 13500000):
        for ask, _, _ in _asks("search_files", seed=seed, draws=300):
            if "name" not in ask.args:
                continue
            seen += 1
            toolkit = get_toolkit("filesystem")
            world = worlds.create(toolkit, seed)
            unfiltered = parse(toolkit(world).run("search_files", {k: v for k, v in ask.args.items() if k != "name"}))
            world.close()
            ext = ask.args["name"][1:]
            assert any(not r["path"].endswith(ext) for r in unfiltered["results"]), (ask.say, unfiltered)
    assert seen > 5


def test_a_list_named_beside_a_file_is_never_a_second_bracket():
    """Finding (seed 135, redraw): "Add a book to the note ... (it's somewhere in /home/angelica) (my reading
    list) so it becomes line 2": two brackets in a row."""
    beside = 0
    for seed in range(4):
        for ask, _, _ in _asks("insert_lines", seed=seed, draws=200):
            assert ") (" not in ask.say, ask.say
            beside += ", my " in ask.say
    assert beside, "no list was named beside a file named with brackets"


def test_a_file_to_be_written_is_asked_with_its_lines_to_come():
    """"Create the file /home/christine/documents/address.txt." (filesystem-13700000-0004, lines held
    back): an empty file made with `touch` does all the words ask, so the model that makes it loses
    reward when the lines come next. The held-back request says lines will go in."""
    import re

    held = 0
    for seed in range(3):
        for ask, _, _ in _asks("write_file", seed=seed, draws=60):
            if ask.detail:
                held += 1
                assert re.search(r"\b(lines?|text)\b", ask.say), ask.say
    assert held > 5


def test_a_sort_column_held_back_is_named_as_a_column():
    """"Show me .../report-q4.csv sorted by one of its number columns ... By value: that's the second
    column." (filesystem-13700000-0007): "By value" reads as sorting by value, not by the column called
    value. The detail names the column as a column."""
    held = 0
    for seed in range(3):
        for ask, _, _ in _asks("sort", seed=seed, draws=120):
            if ask.detail:
                held += 1
                assert " column" in ask.detail.split(",")[0].split("(")[0], ask.detail
    assert held > 3


def test_whether_a_path_exists_is_never_left_out_with_a_tool_that_tells_it_shown():
    """"Quick check: is /home/diana/documents/taxes/2025/receipts.csv there, and is it a file or a directory?"
    with exists hidden (filesystem-13900000-0005, seed 139): stat of the path says '"type": "file"' (and
    fails with 'No such file' where nothing is there), so the model that answers with stat scored name 0.75
    where declining scored 1. A missing-function task that hides exists hides every shown tool whose output
    on the path or its folder states what it is, or whose error says it is not there."""
    from prove_env.facts import stated
    from prove_env.toolkit import ToolError
    from tests.stand_ins import parse

    recipe, toolkit, world, asks = _probing("exists", draws=40)
    telling = set()
    try:
        for ask, result, _ in asks:
            path = ask.args["path"]
            if not result["exists"]:
                with pytest.raises(ToolError, match="(?i)no such|not found|does not exist"):
                    toolkit(world.clone()).run("stat", {"path": path})
                telling.add("stat")
                continue
            [fact] = ask.facts(result)
            folder = path.rsplit("/", 1)[0]
            probes = [("stat", {"path": path}), ("ls", {"path": folder, "long": True}),
                      ("list_dir", {"path": folder})]
            for tool, args in probes:
                try:
                    said = json.dumps(parse(toolkit(world.clone()).run(tool, args)))
                except ToolError:
                    continue
                if stated(fact, said):
                    telling.add(tool)
    finally:
        world.close()
    assert "stat" in telling, telling
    assert telling <= recipe.substitutes_of("exists"), telling - recipe.substitutes_of("exists")


def test_an_archive_told_folder_by_folder_states_its_facts():
    """"Pack the /home/ashley/projects folder into /tmp/projects-backup.tar, then tell me what went into
    it." (filesystem-14100000-0002, seed 141): forty entries, and the facts were the first four files
    (.gitignore, LICENSE, README.md, logging.ini of the first project), so the answer "40 entries: the
    projects folder with expense-report, recipe-box and weather-cli, each with its sources, README and
    config" failed. The facts are what every fair account names: the subfolders right under the top
    folder (its first files where it holds none), and a listing of every path still states them."""
    import random

    from prove_env.facts import facts_stated
    from prove_env.synthesis.recipe import Reader, get_recipe
    from tests.stand_ins import parse

    toolkit, recipe = get_toolkit("filesystem"), get_recipe("filesystem")
    checked = 0
    for seed in range(3):
        world = worlds.create(toolkit, seed)
        try:
            rng = random.Random(f"filesystem archives {seed}")
            bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
            [goal] = [g for g in recipe.goals if g.tool == "tar_list"]
            for _ in range(20):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None:
                    continue
                w = world.clone()
                [(tool, args)] = ask.prior
                toolkit(w).run(tool, dict(args))
                listed = parse(toolkit(w).run("tar_list", dict(ask.args)))
                facts = ask.facts(listed)
                entries = listed["entries"]
                top = entries[0]["name"].split("/")[0]
                folders = [e["name"].split("/")[1] for e in entries
                           if e["type"] == "directory" and e["name"].count("/") == 1]
                if not folders:
                    continue
                summary = (f"The archive holds {len(entries)} entries: the {top} folder with the subfolders "
                           f"{', '.join(folders)}, each with its own files.")
                listing = "\n".join(e["name"] for e in entries)
                assert facts and facts_stated([facts], [summary]), (facts, summary)
                assert facts_stated([facts], [listing]), facts
                checked += 1
        finally:
            world.close()
    assert checked > 5


def test_a_tree_one_level_deep_is_not_asked_for_as_the_upper_levels(goal_asks):
    """"Show me how /home/brady/projects is laid out, just the upper levels. Stop at 1 level."
    (filesystem-14300000-0002, seed 143): one level is not "the upper levels", and the two sentences
    of one request disagreed. A tree one level deep is asked for as the top of the folder."""
    seen = 0
    for goal, ask in goal_asks("filesystem", seeds=(0, 1, 2), draws=80, salt="tree levels"):
        if goal.tool != "tree" or ask.args.get("max_depth") != 1:
            continue
        seen += 1
        assert "upper levels" not in f"{ask.say} {ask.detail or ''}", (ask.say, ask.detail)
    assert seen > 3


def test_an_archive_to_unpack_is_not_asked_for_as_a_copy_of_the_archive(goal_asks):
    """"Back up /home/nicole/scripts as /tmp/scripts-backup.tar, then unpack a copy of that archive into
    /tmp." (filesystem-15100000-0002, seed 151): "a copy of that archive" reads as copying the archive
    itself before unpacking; the copy is of the folder, which the unpacking makes."""
    seen = 0
    for goal, ask in goal_asks("filesystem", seeds=(0, 1, 2), draws=80, salt="tar extract copy"):
        if goal.tool != "tar_extract":
            continue
        seen += 1
        assert "a copy of that archive" not in f"{ask.say} {ask.detail or ''}", ask.say
    assert seen > 3


def test_a_du_total_is_never_of_a_folder_disk_usage_asks_about():
    """"Summarize the space used under /home/preston/notes, and list its 3 largest files." then "What's the
    total disk usage of /home/preston/notes?" (filesystem-15300000-0009, seed 153): the first answer said
    the total, so the du call was not needed and a model that answered from it lost coverage. A du total
    is asked of a folder disk_usage never asks about in the same bundle."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("filesystem"), get_recipe("filesystem")
    goal = {g.tool: g for g in recipe.goals}
    checked = 0
    for seed in range(5):
        world = worlds.create(toolkit, seed)
        try:
            rng = random.Random(f"du after disk_usage {seed}")
            bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        finally:
            world.close()
        for bundle in bundles:
            usage = {a.args["path"] for a in (goal["disk_usage"].build(bundle, rng) for _ in range(30)) if a}
            totals = {a.args["path"] for a in (goal["du"].build(bundle, rng) for _ in range(30))
                      if a and "max_depth" not in a.args}
            assert not usage & totals, (usage, totals)
            checked += bool(usage and totals)
    assert checked >= 3


def test_exists_is_never_left_out_with_a_tool_that_reads_the_path_shown():
    """"/tmp/.X0-lock there? File or directory?" declined with exists hidden (filesystem-15300000-0010,
    seed 153), while cat printed the file, checksum summed it and list_recent listed it as a file: each
    tool that reads a path tells a file ('Is a directory' of a folder, 'No such file' where nothing is)."""
    from prove_env.synthesis.recipe import get_recipe
    from prove_env.toolkit import ToolError

    toolkit, hidden = get_toolkit("filesystem"), get_recipe("filesystem").substitutes_of("exists")
    world = worlds.create(toolkit, 0)
    try:
        home = toolkit(world).run("pwd", {}).strip()
        folder, nowhere = home, f"{home}/no-such-thing"
        [file] = [line for line in toolkit(world).run("find", {"path": home, "type": "f"}).splitlines()][:1]
        telling = set()
        for tool in ("cat", "read_file", "head", "tail", "wc", "checksum", "disk_usage", "count_files"):
            said = []
            for path in (file, folder, nowhere):
                try:
                    said.append(toolkit(world).run(tool, {"path": path}))
                except ToolError as error:
                    said.append(str(error))
            if len(set(said)) == 3 and "No such file" in said[2]:
                telling.add(tool)
        assert {"cat", "read_file", "checksum", "disk_usage"} <= telling, telling
    finally:
        world.close()
    assert telling | {"list_recent", "du", "glob"} <= hidden, (telling | {"list_recent", "du", "glob"}) - hidden


def test_a_tree_depth_detail_does_not_open_with_a_numeral(goal_asks):
    """"Draw the directory tree of /home/preston/data, but not too deep. 1 level deep."
    (filesystem-15300000-0007, seed 153): the detail opened its sentence with a numeral."""
    seen = 0
    for goal, ask in goal_asks("filesystem", seeds=(0, 1, 2), draws=80, salt="tree numeral"):
        if goal.tool != "tree" or not ask.detail:
            continue
        seen += 1
        assert not ask.detail[:1].isdigit(), ask.detail
    assert seen > 3


def test_a_column_named_value_is_not_asked_for_as_its_values_values(goal_asks):
    """"What are the highest and lowest 'value' values in the spreadsheet .../report-q3.csv?"
    (filesystem-15300000-0010, seed 153 after round 53's fixes): the word said twice."""
    seen = 0
    for goal, ask in goal_asks("filesystem", seeds=(0, 1, 2), draws=80, salt="value values"):
        if goal.tool != "column_stats":
            continue
        seen += 1
        assert "' values in" not in ask.say, ask.say
    assert seen > 3


def test_a_du_breakdown_asks_for_the_total_its_facts_hold(goal_asks):
    """"Break down the size of /home/destiny/documents by its immediate subfolders, please."
    (filesystem-15500000-0004, seed 155): the facts held the folder's total, which the wording never
    asked for, so an answer giving each subfolder's size failed."""
    seen = 0
    for goal, ask in goal_asks("filesystem", seeds=(0, 1, 2), draws=120, salt="du breakdown"):
        if goal.tool != "du" or "max_depth" not in ask.args:
            continue
        seen += 1
        top = ask.args["path"]
        assert "total" in ask.say or f"disk usage of {top} and" in ask.say, ask.say
    assert seen > 3


def test_a_file_named_by_its_words_is_not_pointed_at_as_that_file(goal_asks):
    """"Replace every '#2a6f97' in that stylesheet somewhere in /home/destiny/projects that says "body {"
    ..." (filesystem-15500000-0001, seed 155): 'that' points at a file nothing earlier mentioned."""
    seen = 0
    for goal, ask in goal_asks("filesystem", seeds=(0, 1, 2), draws=80, salt="that file"):
        seen += "somewhere in" in ask.say
        assert not re.search(r"\bthat \w+ somewhere in\b", ask.say), ask.say
    assert seen > 3


def test_a_stat_asked_for_permissions_holds_them_in_its_facts(goal_asks):
    """"Could you look up the pyproject.toml config file ... ? I want its size and permissions."
    (filesystem-15700000-0008, seed 157): the facts held the size alone, so half the request went
    unchecked."""
    seen = 0
    for goal, ask in goal_asks("filesystem", seeds=(0, 1, 2), draws=200, salt="stat permissions"):
        if goal.tool != "stat" or "permissions" not in ask.say or "owner" in ask.say:
            continue
        seen += 1
        r = {"size": 82, "permissions": "-rw-r--r--", "mode": "0644", "owner": "x", "type": "file",
             "modified": "2026-03-17T15:30", "entries": 1}
        assert "644" in json.dumps(ask.facts(r)), ask.say
    assert seen > 0
