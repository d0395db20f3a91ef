"""The filesystem server through real MCP: every visible tool, its failure modes, and state chains."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from prove_env.registry import get_toolkit
from prove_env.runtime import run_sync
from prove_env.world import worlds

TASKS = Path(__file__).resolve().parents[2] / "fixtures" / "tasks" / "filesystem.jsonl"

FRUITS = "banana\napple\ncherry\napple\n10 apples\n2 pears\n"
NOTES = "# Notes\nTODO: buy milk\ntodo: call mom\nDone: a.c\n"
CSV = "name,qty,price\nwidget,3,2.50\ngadget,10,1.25\ngizmo,x,4\n"
INNER = "needle here\nno match\n"


def call(s, tool: str, /, **args) -> tuple[bool, str]:
    """One tool call through the served MCP client: (succeeded, text).

    The conftest helpers take the tool's name as a keyword-capable `name` parameter, which
    collides with tools that have a `name` argument (find, count_files, search_files), so the
    client is called directly here.
    """
    result = run_sync(s.client.call(tool, args))
    return not result.is_error, result.content[0].text if result.content else ""


def sh(s, tool: str, /, **args) -> str:
    """Call a tool that must succeed and return its text."""
    ok, text = call(s, tool, **args)
    assert ok, f"{tool}({args}) failed: {text}"
    return text


def ok(s, tool: str, /, **args):
    """Call a tool that must succeed and return its decoded JSON result."""
    return json.loads(sh(s, tool, **args))


def fails(s, tool: str, match: str, /, **args) -> str:
    ok_, text = call(s, tool, **args)
    assert not ok_, f"{tool}({args}) should have failed but returned {text}"
    assert match.lower() in text.lower(), f"error {text!r} does not mention {match!r}"
    return text


def fails_cleanly(s, tool: str, match: str, /, **args) -> str:
    """The call fails with `match` in its message and leaves the world exactly as it was."""
    before = s.world.digest()
    message = fails(s, tool, match, **args)
    assert s.world.digest() == before, f"{tool}({args}) failed but changed the world"
    return message


@pytest.fixture
def fs(served):
    return served("filesystem")


@pytest.fixture
def work(fs):
    """A world with a small known tree under ~/work; the working directory stays the home directory."""
    sh(fs, "mkdir", path="work/sub/deep", parents=True)
    ok(fs, "write_file", path="work/fruits.txt", content=FRUITS)
    ok(fs, "write_file", path="work/notes.md", content=NOTES)
    ok(fs, "write_file", path="work/data.csv", content=CSV)
    ok(fs, "write_file", path="work/sub/deep/inner.txt", content=INNER)
    return fs


def home_of(s) -> str:
    return ok(s, "user_info")["home"]


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
    assert tools["touch"].annotations.idempotent_hint is True
    assert tools["cd"].annotations.idempotent_hint is False  # cd('..') twice goes up twice
    for tool in tools.values():
        assert tool.description and tool.input_schema["additionalProperties"] is False


def test_hidden_debug_tool(served):
    hidden = served("filesystem", include_hidden=True)
    rows = ok(hidden, "debug_nodes", prefix="/etc/nginx")
    assert [r["path"] for r in rows] == ["/etc/nginx", "/etc/nginx/nginx.conf", "/etc/nginx/sites-available",
                                         "/etc/nginx/sites-available/default.conf"]
    assert rows[1]["owner"] == "root" and rows[1]["mode"] == "0644"
    visible = served("filesystem")
    fails(visible, "debug_nodes", "unknown tool", prefix="/")


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
    assert ok(fs, "stat", path="/etc/hosts")["owner"] == "root"
    assert ok(fs, "exists", path=f"{home}/notes/todo.md")["exists"] is True


# -- shell state: pwd / cd ------------------------------------------------------------------------


def test_cd_pwd_chain_with_relative_paths(work):
    s = work
    home = home_of(s)
    assert sh(s, "pwd") == home
    fails(s, "cd", "OLDPWD not set", path="-")
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
    assert ok(s, "user_info")["cwd"] == f"{home}/work/sub/deep"


def test_cd_resolves_symbolic_links_and_fails_readably(fs):
    home = home_of(fs)
    target = sh(fs, "readlink", path="current")
    assert sh(fs, "cd", path="current") == f"{home}/{target}"
    sh(fs, "cd", path="~")
    fails_cleanly(fs, "cd", "No such file or directory", path="nowhere")
    fails_cleanly(fs, "cd", "Not a directory", path="notes/todo.md")
    fails_cleanly(fs, "cd", "Not a directory", path="notes/todo.md/x")
    fails_cleanly(fs, "cd", "Permission denied", path="/root")
    fails_cleanly(fs, "cd", "path is empty", path="")
    assert sh(fs, "pwd") == home


def test_user_info(fs):
    info = ok(fs, "user_info")
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
    user = ok(s, "user_info")["user"]
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
    fails(s, "ls", "No such file or directory", path="work/missing")
    fails(s, "ls", "No such file or directory", path="work/*.xyz")
    fails(s, "ls", "Permission denied", path="/root")


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
    fails(s, "tree", "Not a directory", path="work/fruits.txt")
    fails(s, "tree", "max_depth must be 1 or more", path="work", max_depth=0)


def test_stat_exists_realpath_readlink(work):
    s = work
    home = home_of(s)
    info = ok(s, "stat", path="work/fruits.txt")
    assert info["path"] == f"{home}/work/fruits.txt"
    assert (info["type"], info["size"], info["lines"], info["mode"], info["permissions"]) == (
        "file", 44, 6, "0644", "-rw-r--r--")
    assert info["modified"] == now_text(s)
    assert ok(s, "stat", path="work/sub")["entries"] == 1
    assert ok(s, "stat", path="/tmp")["permissions"] == "drwxrwxrwt"
    link = ok(s, "stat", path="current")
    assert link["type"] == "symlink" and link["target"].startswith("projects/")
    fails(s, "stat", "No such file or directory", path="work/nope")

    assert ok(s, "exists", path="work/sub") == {"path": f"{home}/work/sub", "exists": True, "type": "directory"}
    assert ok(s, "exists", path="work/nope")["exists"] is False
    assert ok(s, "exists", path="work/fruits.txt/x") == {"path": f"{home}/work/fruits.txt/x", "exists": False,
                                                       "type": None}
    fails(s, "exists", "Permission denied", path="/root/.bashrc")

    assert sh(s, "realpath", path="current/README.md") == f"{home}/{link['target']}/README.md"
    assert sh(s, "realpath", path="work/./sub/../new.txt") == f"{home}/work/new.txt"
    fails(s, "realpath", "No such file or directory", path="work/missing/new.txt")
    assert sh(s, "readlink", path="current") == link["target"]
    fails(s, "readlink", "not a symbolic link", path="work/fruits.txt")
    fails(s, "readlink", "No such file or directory", path="work/ghost")


def test_list_dir(work):
    s = work
    sh(s, "touch", path="work/.hidden")
    listing = ok(s, "list_dir", path="work")
    assert [e["name"] for e in listing["entries"]] == ["data.csv", "fruits.txt", "notes.md", "sub"]
    assert listing["total"] == 4 and listing["truncated"] is False
    assert set(listing["entries"][0]) >= {"name", "path", "type", "size", "mode", "permissions", "owner", "modified"}
    by_size = ok(s, "list_dir", path="work", sort_by="size", limit=2)
    assert [e["name"] for e in by_size["entries"]] == ["sub", "data.csv"] and by_size["truncated"] is True
    assert ok(s, "list_dir", path="work", sort_by="size", reverse=True)["entries"][0]["name"] == "fruits.txt"
    assert ok(s, "list_dir", path="work", all=True)["entries"][0]["name"] == ".hidden"
    recent = ok(s, "list_dir", path="logs", sort_by="modified")["entries"]
    assert recent[0]["name"] == "app.log"
    fails(s, "list_dir", "Not a directory", path="work/notes.md")
    fails(s, "list_dir", "Permission denied", path="/root")
    fails(s, "list_dir", "limit must be 1 or more", path="work", limit=0)


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
    fails(s, "find", "Not a directory", path="../fruits.txt")
    fails(s, "find", "No such file or directory", path="nowhere")


def test_glob_and_list_recent(work):
    s = work
    home = home_of(s)
    assert ok(s, "glob", pattern="work/*.???")["matches"] == [f"{home}/work/data.csv", f"{home}/work/fruits.txt"]
    assert ok(s, "glob", pattern="~/work/*/*") == {"pattern": "~/work/*/*", "matches": [f"{home}/work/sub/deep"],
                                                  "truncated": False}
    assert ok(s, "glob", pattern="work/[fn]*", limit=1) == {"pattern": "work/[fn]*",
                                                           "matches": [f"{home}/work/fruits.txt"], "truncated": True}
    assert ok(s, "glob", pattern="work/*.xyz")["matches"] == []
    assert ok(s, "glob", pattern="work/notes.md")["matches"] == [f"{home}/work/notes.md"]
    sh(s, "touch", path="work/.secret")
    assert f"{home}/work/.secret" not in ok(s, "glob", pattern="work/*")["matches"]
    assert ok(s, "glob", pattern="work/.s*")["matches"] == [f"{home}/work/.secret"]
    fails(s, "glob", "limit must be 1 or more", pattern="*", limit=0)

    recent = ok(s, "list_recent", path="work", limit=10)
    assert recent["path"] == f"{home}/work"
    assert [f["path"] for f in recent["files"]] == [f"{home}/work/{p}" for p in (
        ".secret", "data.csv", "fruits.txt", "notes.md", "sub/deep/inner.txt")]
    assert recent["files"][0]["modified"] == now_text(s)
    newest_log = ok(s, "list_recent", path="logs", limit=1)["files"]
    assert newest_log == [{"path": f"{home}/logs/app.log", "size": newest_log[0]["size"],
                           "modified": newest_log[0]["modified"]}]
    fails(s, "list_recent", "Not a directory", path="work/data.csv")


# -- reading --------------------------------------------------------------------------------------


def test_cat_head_tail(work):
    s = work
    assert sh(s, "cat", path="work/fruits.txt") == FRUITS.rstrip("\n")
    assert sh(s, "cat", path="work/fruits.txt", number_lines=True).splitlines()[1] == "     2\tapple"
    assert sh(s, "cat", path="work/*.md") == NOTES.rstrip("\n")
    sh(s, "touch", path="work/empty.txt")
    assert sh(s, "cat", path="work/empty.txt") == "(empty file)"
    assert sh(s, "cat", path="~/current/LICENSE").startswith("MIT License")
    fails(s, "cat", "Is a directory", path="work/sub")
    fails(s, "cat", "No such file or directory", path="work/none.txt")
    fails(s, "cat", "Permission denied", path="/etc/shadow")
    fails(s, "cat", "Permission denied", path="/root/.bashrc")

    assert sh(s, "head", path="work/fruits.txt", n=2) == "banana\napple"
    assert sh(s, "head", path="work/fruits.txt") == FRUITS.rstrip("\n")
    assert sh(s, "tail", path="work/fruits.txt", n=2) == "10 apples\n2 pears"
    assert sh(s, "tail", path="work/fruits.txt", n=0) == "(empty file)"
    assert sh(s, "tail", path="work/empty.txt") == "(empty file)"
    fails(s, "head", "n must be between 0 and 1000", path="work/fruits.txt", n=-1)
    fails(s, "tail", "Is a directory", path="work")
    fails(s, "head", "No such file", path="work/missing")


def test_read_file_ranges(work):
    s = work
    home = home_of(s)
    whole = ok(s, "read_file", path="work/fruits.txt")
    assert whole == {"path": f"{home}/work/fruits.txt", "start_line": 1, "end_line": 6, "total_lines": 6,
                     "content": FRUITS.rstrip("\n"), "truncated": False}
    part = ok(s, "read_file", path="work/fruits.txt", start_line=2, end_line=3)
    assert (part["content"], part["end_line"]) == ("apple\ncherry", 3)
    assert ok(s, "read_file", path="work/fruits.txt", start_line=5, end_line=99)["content"] == "10 apples\n2 pears"
    big = "\n".join(f"line {i}" for i in range(1, 1201)) + "\n"
    ok(s, "write_file", path="work/big.txt", content=big)
    first = ok(s, "read_file", path="work/big.txt")
    assert (first["end_line"], first["truncated"], first["total_lines"]) == (500, True, 1200)
    assert ok(s, "read_file", path="work/big.txt", start_line=701)["content"].splitlines()[-1] == "line 1200"
    assert "more lines not shown" in sh(s, "cat", path="work/big.txt").splitlines()[-1]
    fails(s, "read_file", "past the end", path="work/fruits.txt", start_line=7)
    fails(s, "read_file", "must not be before", path="work/fruits.txt", start_line=3, end_line=2)
    fails(s, "read_file", "start_line must be 1 or more", path="work/fruits.txt", start_line=0)
    fails(s, "read_file", "Is a directory", path="work")


def test_wc(work):
    s = work
    assert sh(s, "wc", path="work/fruits.txt") == f"6 8 {len(FRUITS)} work/fruits.txt"
    ok(s, "write_file", path="work/no-newline.txt", content="one two\nthree")
    assert sh(s, "wc", path="work/no-newline.txt") == "1 3 13 work/no-newline.txt"
    ok(s, "write_file", path="work/utf8.txt", content="café\n")
    assert sh(s, "wc", path="work/utf8.txt") == "1 1 6 work/utf8.txt"
    assert sh(s, "wc", path="work/*.md") == f"4 10 {len(NOTES)} work/notes.md"
    total = sh(s, "wc", path="work/[fn]*").splitlines()
    assert total == [f"6 8 {len(FRUITS)} work/fruits.txt", "1 3 13 work/no-newline.txt",
                     f"4 10 {len(NOTES)} work/notes.md", f"11 21 {len(FRUITS) + 13 + len(NOTES)} total"]
    fails(s, "wc", "Is a directory", path="work/sub")
    fails(s, "wc", "No such file", path="work/zzz")


def test_diff(work):
    s = work
    ok(s, "write_file", path="work/fruits2.txt", content=FRUITS.replace("cherry", "cranberry") + "plum\n")
    assert sh(s, "diff", path1="work/fruits.txt", path2="work/fruits2.txt") == (
        "--- work/fruits.txt\n+++ work/fruits2.txt\n@@ -1,6 +1,7 @@\n banana\n apple\n-cherry\n+cranberry\n"
        " apple\n 10 apples\n 2 pears\n+plum")
    assert sh(s, "diff", path1="work/fruits.txt", path2="work/fruits2.txt", context=0) == (
        "--- work/fruits.txt\n+++ work/fruits2.txt\n@@ -3 +3 @@\n-cherry\n+cranberry\n@@ -6,0 +7 @@\n+plum")
    assert sh(s, "diff", path1="data/sales-2025.csv", path2="data/backup/sales-2025.csv") == "(no differences)"
    fails(s, "diff", "Is a directory", path1="work", path2="work/fruits.txt")
    fails(s, "diff", "No such file", path1="work/fruits.txt", path2="work/nope.txt")
    fails(s, "diff", "context must be 0 or more", path1="work/fruits.txt", path2="work/fruits2.txt", context=-1)


def test_checksum_and_duplicates(work):
    s = work
    home = home_of(s)
    assert ok(s, "checksum", path="work/fruits.txt") == {
        "path": f"{home}/work/fruits.txt", "algorithm": "sha256", "checksum": hashlib.sha256(FRUITS.encode()).hexdigest()}
    assert ok(s, "checksum", path="work/fruits.txt", algorithm="md5")["checksum"] == hashlib.md5(FRUITS.encode()).hexdigest()
    fails(s, "checksum", "Invalid arguments", path="work/fruits.txt", algorithm="crc32")
    fails(s, "checksum", "Is a directory", path="work")

    assert ok(s, "find_duplicates", path="work") == {"path": f"{home}/work", "groups": []}
    sh(s, "cp", source="work/fruits.txt", destination="work/sub/fruits-copy.txt")
    sh(s, "touch", path="work/e1")
    sh(s, "touch", path="work/e2")
    groups = ok(s, "find_duplicates", path="work")["groups"]
    assert groups == [{"checksum": hashlib.sha256(FRUITS.encode()).hexdigest(), "size": len(FRUITS),
                       "paths": [f"{home}/work/fruits.txt", f"{home}/work/sub/fruits-copy.txt"]}]
    with_empty = ok(s, "find_duplicates", path="work", min_size=0)["groups"]
    assert with_empty[-1]["paths"] == [f"{home}/work/e1", f"{home}/work/e2"]
    seeded = ok(s, "find_duplicates", path="data")["groups"]
    assert seeded[0]["paths"] == [f"{home}/data/backup/sales-2025.csv", f"{home}/data/sales-2025.csv"]
    fails(s, "find_duplicates", "Not a directory", path="work/fruits.txt")


def test_column_stats(work):
    s = work
    stats = ok(s, "column_stats", path="work/data.csv", column="qty")
    assert {k: stats[k] for k in ("column", "count", "sum", "min", "max", "mean", "skipped")} == {
        "column": "qty", "count": 2, "sum": 13, "min": 3, "max": 10, "mean": 6.5, "skipped": 1}
    assert ok(s, "column_stats", path="work/data.csv", column="3")["sum"] == 7.75
    assert ok(s, "column_stats", path="work/data.csv", column="2", header=False)["skipped"] == 2
    fails(s, "column_stats", "No column 'cost'", path="work/data.csv", column="cost")
    fails(s, "column_stats", "single character", path="work/data.csv", column="qty", delimiter=";;")
    fails(s, "column_stats", "Is a directory", path="work", column="qty")


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
    fails(s, "grep", "Is a directory", pattern="x", path="sub")
    fails(s, "grep", "Invalid regular expression", pattern="(unclosed", path="fruits.txt")
    fails(s, "grep", "No such file or directory", pattern="x", path="missing.txt")
    fails(s, "grep", "Permission denied", pattern="root", path="/etc/shadow")
    assert "shadow" not in sh(s, "grep", pattern="root", path="/etc", recursive=True, files_with_matches=True)


def test_search_files(work):
    s = work
    home = home_of(s)
    found = ok(s, "search_files", query="TODO", path="work")
    assert found == {"query": "TODO", "path": f"{home}/work", "total_files": 1, "results": [
        {"path": f"{home}/work/notes.md", "matches": 2, "first_line": 2, "excerpt": "TODO: buy milk"}]}
    assert ok(s, "search_files", query="TODO", path="work", ignore_case=False)["results"][0]["matches"] == 1
    assert ok(s, "search_files", query="e", path="work", name="*.txt", limit=1)["total_files"] == 2
    assert len(ok(s, "search_files", query="e", path="work", limit=1)["results"]) == 1
    assert ok(s, "search_files", query="zebra", path="work")["results"] == []
    fails(s, "search_files", "must not be empty", query="", path="work")
    fails(s, "search_files", "Not a directory", query="x", path="work/notes.md")


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
    ok(s, "write_file", path="work/case.txt", content="b\nA\na\nB\n")
    assert sh(s, "sort", path="work/case.txt") == "A\nB\na\nb"
    assert sh(s, "sort", path="work/case.txt", ignore_case=True) == "A\na\nB\nb"
    assert sh(s, "sort", path="work/case.txt", ignore_case=True, unique=True) == "A\nB"
    assert sh(s, "cat", path="work/fruits.txt") == FRUITS.rstrip("\n"), "sort must not change the file"
    fails(s, "sort", "key must be a field number", path="work/fruits.txt", key=0)
    fails(s, "sort", "single character", path="work/fruits.txt", key=1, delimiter="::")
    fails(s, "sort", "Is a directory", path="work")


def test_uniq_and_cut(work):
    s = work
    ok(s, "write_file", path="work/runs.txt", content="a\na\nb\nA\na\n")
    assert sh(s, "uniq", path="work/runs.txt") == "a\nb\nA\na"
    assert sh(s, "uniq", path="work/runs.txt", count=True) == "      2 a\n      1 b\n      1 A\n      1 a"
    assert sh(s, "uniq", path="work/runs.txt", repeated=True) == "a"
    assert sh(s, "uniq", path="work/runs.txt", ignore_case=True, count=True) == "      2 a\n      1 b\n      2 A"
    assert sh(s, "uniq", path="work/fruits.txt", repeated=True) == "(no output)"
    fails(s, "uniq", "Is a directory", path="work")

    assert sh(s, "cut", path="work/data.csv", fields=[1, 3], delimiter=",") == (
        "name,price\nwidget,2.50\ngadget,1.25\ngizmo,4")
    assert sh(s, "cut", path="work/data.csv", fields=[3, 1, 1], delimiter=",").splitlines()[0] == "name,price"
    assert sh(s, "cut", path="work/data.csv", fields=[9], delimiter=",").splitlines()[0] == ""
    assert sh(s, "cut", path="work/fruits.txt", fields=[2], delimiter=" ").splitlines() == [
        "banana", "apple", "cherry", "apple", "apples", "pears"]
    fails(s, "cut", "single character", path="work/data.csv", fields=[1], delimiter="")
    fails(s, "cut", "field numbers of 1 or more", path="work/data.csv", fields=[0], delimiter=",")
    fails(s, "cut", "field numbers of 1 or more", path="work/data.csv", fields=[], delimiter=",")


def test_du_disk_usage_count_files(work):
    s = work
    home = home_of(s)
    assert sh(s, "du", path="work") == "21\twork/sub/deep\n21\twork/sub\n167\twork"
    assert sh(s, "du", path="work", summarize=True) == "167\twork"
    assert sh(s, "du", path="work", max_depth=1) == "21\twork/sub\n167\twork"
    assert sh(s, "du", path="work/fruits.txt") == "44\twork/fruits.txt"
    ok(s, "write_file", path="work/sub/big.txt", content="x" * 3000)
    assert sh(s, "du", path="work", summarize=True, human_readable=True) == "3.1K\twork"
    sh(s, "cd", path="work/sub")
    assert sh(s, "du") == "21\t./deep\n3021\t."
    assert "du: cannot read directory '/tmp/systemd-private-" in sh(s, "du", path="/tmp")
    fails(s, "du", "No such file or directory", path="nothing")
    fails(s, "du", "max_depth must be 0 or more", max_depth=-1)

    usage = ok(s, "disk_usage", path="~/work", top=2)
    assert usage == {"path": f"{home}/work", "total_bytes": 3167, "total_human": "3.1K", "files": 5,
                     "directories": 2, "symlinks": 0, "largest_files": [
                         {"path": f"{home}/work/sub/big.txt", "size": 3000},
                         {"path": f"{home}/work/data.csv", "size": 54}]}
    assert ok(s, "disk_usage", path="~")["symlinks"] == 2
    fails(s, "disk_usage", "top must be 0 or more", top=-1)
    fails(s, "disk_usage", "Not a directory", path="big.txt")

    counted = ok(s, "count_files", path="~/work")
    assert counted == {"path": f"{home}/work", "name": None, "files": 5, "directories": 2,
                       "by_extension": {".csv": 1, ".md": 1, ".txt": 3}}
    assert ok(s, "count_files", path="~/work", name="*.txt")["files"] == 3
    sh(s, "touch", path="~/work/Makefile")
    assert ok(s, "count_files", path="~/work")["by_extension"][""] == 1
    fails(s, "count_files", "No such file or directory", path="~/nope")


# -- creating and writing -------------------------------------------------------------------------


def test_mkdir(work):
    s = work
    home = home_of(s)
    assert sh(s, "mkdir", path="work/new") == f"created directory '{home}/work/new'"
    assert ok(s, "stat", path="work/new")["permissions"] == "drwxr-xr-x"
    fails_cleanly(s, "mkdir", "File exists", path="work/new")
    fails_cleanly(s, "mkdir", "File exists", path="work/fruits.txt")
    fails_cleanly(s, "mkdir", "No such file or directory", path="work/a/b/c")
    assert sh(s, "mkdir", path="work/a/b/c", parents=True) == (
        f"created directory '{home}/work/a'\ncreated directory '{home}/work/a/b'\ncreated directory '{home}/work/a/b/c'")
    assert "already exists" in sh(s, "mkdir", path="work/a/b", parents=True)
    fails_cleanly(s, "mkdir", "Not a directory", path="work/fruits.txt/x", parents=True)
    fails_cleanly(s, "mkdir", "Not a directory", path="work/fruits.txt/x")
    fails_cleanly(s, "mkdir", "Permission denied", path="/etc/myapp")
    fails_cleanly(s, "mkdir", "Permission denied", path="/usr/local/bin", parents=True)
    sh(s, "cd", path="work/a")
    sh(s, "mkdir", path="../z")
    assert ok(s, "exists", path=f"{home}/work/z")["type"] == "directory"
    sh(s, "mkdir", path="/opt/team/shared-notes")  # group-writable for 'developers'
    assert ok(s, "stat", path="/opt/team/shared-notes")["owner"] == ok(s, "user_info")["user"]


def test_touch(work):
    s = work
    home = home_of(s)
    old = ok(s, "stat", path="notes/todo.md")["modified"]
    assert old != now_text(s)
    assert sh(s, "touch", path="notes/todo.md") == f"updated the modification time of '{home}/notes/todo.md'"
    assert ok(s, "stat", path="notes/todo.md")["modified"] == now_text(s)
    assert sh(s, "touch", path="work/fresh.txt") == f"created empty file '{home}/work/fresh.txt'"
    assert ok(s, "stat", path="work/fresh.txt")["size"] == 0
    digest = s.world.digest()
    sh(s, "touch", path="work/fresh.txt")
    assert s.world.digest() == digest, "touch is idempotent under a frozen clock"
    fails_cleanly(s, "touch", "Permission denied", path="/etc/hosts")
    fails_cleanly(s, "touch", "Permission denied", path="/etc/new.conf")
    fails_cleanly(s, "touch", "No such file or directory", path="work/nope/x.txt")


def test_echo(work):
    s = work
    home = home_of(s)
    assert sh(s, "echo", text="just printing") == "just printing"
    assert sh(s, "echo", text="first", file="work/log.txt") == f"wrote 6 bytes to '{home}/work/log.txt'"
    assert sh(s, "echo", text="second", file="work/log.txt", append=True) == (
        f"appended 7 bytes to '{home}/work/log.txt'")
    assert ok(s, "read_file", path="work/log.txt")["content"] == "first\nsecond"
    sh(s, "echo", text="reset", file="work/log.txt")
    assert sh(s, "cat", path="work/log.txt") == "reset"
    fails_cleanly(s, "echo", "Is a directory", text="x", file="work/sub")
    fails_cleanly(s, "echo", "Permission denied", text="x", file="/etc/hosts", append=True)
    fails_cleanly(s, "echo", "No such file or directory", text="x", file="work/no/such.txt")


def test_write_and_append_file(work):
    s = work
    home = home_of(s)
    assert ok(s, "write_file", path="work/plan.md", content="# Plan\n- one\n") == {
        "path": f"{home}/work/plan.md", "bytes": 13, "lines": 2, "created": True}
    assert ok(s, "write_file", path="work/plan.md", content="# Plan v2\n")["created"] is False
    assert sh(s, "cat", path="work/plan.md") == "# Plan v2"
    ok(s, "write_file", path="work/raw.txt", content="no newline")
    assert ok(s, "append_file", path="work/raw.txt", content="next line\n") == {
        "path": f"{home}/work/raw.txt", "bytes_appended": 10, "size": 21, "created": False}
    assert ok(s, "read_file", path="work/raw.txt")["content"] == "no newline\nnext line"
    assert ok(s, "append_file", path="work/new-log.txt", content="started\n")["created"] is True
    fails_cleanly(s, "write_file", "Is a directory", path="work/sub", content="x")
    fails_cleanly(s, "write_file", "Permission denied", path="/etc/hostname", content="evil\n")
    fails_cleanly(s, "write_file", "Permission denied", path="/etc/new.conf", content="x")
    fails_cleanly(s, "write_file", "No such file or directory", path="work/ghost/dir/file.txt", content="x")
    fails_cleanly(s, "append_file", "Permission denied", path="/etc/hosts", content="1.2.3.4 evil\n")
    fails_cleanly(s, "append_file", "Is a directory", path="work", content="x")


def test_write_through_a_symlink(work):
    s = work
    home = home_of(s)
    sh(s, "symlink", target="fruits.txt", link_path="work/link.txt")
    ok(s, "append_file", path="work/link.txt", content="plum\n")
    assert sh(s, "tail", path="work/fruits.txt", n=1) == "plum"
    assert ok(s, "stat", path="work/link.txt")["type"] == "symlink"
    sh(s, "symlink", target="missing-target.txt", link_path="work/dangling")
    assert ok(s, "exists", path="work/dangling")["exists"] is False
    ok(s, "write_file", path="work/dangling", content="now it exists\n")
    assert ok(s, "read_file", path=f"{home}/work/missing-target.txt")["content"] == "now it exists"


def test_replace_insert_delete_lines(work):
    s = work
    home = home_of(s)
    assert ok(s, "replace_in_file", path="work/notes.md", old="buy milk", new="buy oat milk") == {
        "path": f"{home}/work/notes.md", "replacements": 1}
    assert "TODO: buy oat milk" in sh(s, "cat", path="work/notes.md")
    fails_cleanly(s, "replace_in_file", "occurs 2 times", path="work/fruits.txt", old="apple\n", new="pear\n")
    assert ok(s, "replace_in_file", path="work/fruits.txt", old="apple\n", new="pear\n", replace_all=True)[
        "replacements"] == 2
    assert sh(s, "cat", path="work/fruits.txt").splitlines()[:4] == ["banana", "pear", "cherry", "pear"]
    fails_cleanly(s, "replace_in_file", "Text not found", path="work/fruits.txt", old="kiwi", new="x")
    fails_cleanly(s, "replace_in_file", "must not be empty", path="work/fruits.txt", old="", new="x")
    fails_cleanly(s, "replace_in_file", "Permission denied", path="/etc/hosts", old="localhost", new="x")
    fails_cleanly(s, "replace_in_file", "Permission denied", path="current/LICENSE", old="MIT", new="GPL")

    ok(s, "write_file", path="work/list.txt", content="one\ntwo\nthree\n")
    assert ok(s, "insert_lines", path="work/list.txt", line=2, text="one and a half\none and 3/4") == {
        "path": f"{home}/work/list.txt", "inserted": 2, "total_lines": 5}
    ok(s, "insert_lines", path="work/list.txt", line=6, text="four")
    ok(s, "insert_lines", path="work/list.txt", line=1, text="zero")
    assert sh(s, "cat", path="work/list.txt") == "zero\none\none and a half\none and 3/4\ntwo\nthree\nfour"
    fails_cleanly(s, "insert_lines", "line must be between 1 and 8", path="work/list.txt", line=9, text="x")
    fails_cleanly(s, "insert_lines", "line must be between", path="work/list.txt", line=0, text="x")

    assert ok(s, "delete_lines", path="work/list.txt", start_line=3, end_line=4) == {
        "path": f"{home}/work/list.txt", "deleted": ["one and a half", "one and 3/4"], "total_lines": 5}
    assert ok(s, "delete_lines", path="work/list.txt", start_line=1)["deleted"] == ["zero"]
    assert ok(s, "read_file", path="work/list.txt")["content"] == "one\ntwo\nthree\nfour"
    assert sh(s, "wc", path="work/list.txt").startswith("4 4 "), "the trailing newline is kept"
    fails_cleanly(s, "delete_lines", "outside", path="work/list.txt", start_line=3, end_line=9)
    fails_cleanly(s, "delete_lines", "outside", path="work/list.txt", start_line=3, end_line=2)
    fails_cleanly(s, "delete_lines", "Permission denied", path="/etc/hosts", start_line=1)


def test_sed(work):
    s = work
    home = home_of(s)
    ok(s, "write_file", path="work/conf.yaml", content="port: 8000\nhost: a\nport: 9000 # port\n")
    preview = sh(s, "sed", path="work/conf.yaml", pattern=r"port: (\d+)", replacement=r"port: \g<1>1")
    assert preview == "port: 80001\nhost: a\nport: 90001 # port"
    assert sh(s, "cat", path="work/conf.yaml").startswith("port: 8000\n"), "without in_place nothing changes"
    assert sh(s, "sed", path="work/conf.yaml", pattern="port", replacement="PORT", first_only=True) == (
        "PORT: 8000\nhost: a\nPORT: 9000 # port")
    assert sh(s, "sed", path="work/conf.yaml", pattern="HOST", replacement="server", ignore_case=True).splitlines()[1] == (
        "server: a")
    assert sh(s, "sed", path="work/conf.yaml", pattern="port", replacement="p", in_place=True) == (
        f"3 substitutions in '{home}/work/conf.yaml'")
    assert ok(s, "read_file", path="work/conf.yaml")["content"] == "p: 8000\nhost: a\np: 9000 # p"
    digest = s.world.digest()
    assert sh(s, "sed", path="work/conf.yaml", pattern="zzz", replacement="y", in_place=True).startswith("0 substitutions")
    assert s.world.digest() == digest
    fails_cleanly(s, "sed", "Invalid regular expression", path="work/conf.yaml", pattern="[", replacement="x")
    fails_cleanly(s, "sed", "Invalid replacement", path="work/conf.yaml", pattern="p", replacement=r"\9",
                  in_place=True)
    fails_cleanly(s, "sed", "Permission denied", path="/etc/hosts", pattern="local", replacement="x", in_place=True)
    assert "127.0.0.1" in sh(s, "sed", path="/etc/hosts", pattern="x", replacement="y")


# -- moving, copying, deleting --------------------------------------------------------------------


def test_mv_rename_and_into_directory(work):
    s = work
    home = home_of(s)
    assert sh(s, "mv", source="work/fruits.txt", destination="work/produce.txt") == (
        f"renamed '{home}/work/fruits.txt' -> '{home}/work/produce.txt'")
    assert ok(s, "exists", path="work/fruits.txt")["exists"] is False
    assert sh(s, "cat", path="work/produce.txt") == FRUITS.rstrip("\n")
    sh(s, "mv", source="work/produce.txt", destination="work/sub")
    assert ok(s, "exists", path="work/sub/produce.txt")["exists"] is True
    sh(s, "mv", source="work/sub", destination="work/moved")
    assert sh(s, "find", path="work/moved") == (
        "work/moved\nwork/moved/deep\nwork/moved/deep/inner.txt\nwork/moved/produce.txt")
    assert sh(s, "grep", pattern="needle", path="work/moved/deep/inner.txt") == "1:needle here"
    sh(s, "mkdir", path="work/archive")
    sh(s, "mv", source="work/moved", destination="work/archive/")
    assert sh(s, "ls", path="work/archive/moved") == "deep\nproduce.txt"
    assert ok(s, "stat", path="work/archive/moved/deep/inner.txt")["modified"] == now_text(s)


def test_mv_overwrites_and_refuses(work):
    s = work
    home = home_of(s)
    ok(s, "write_file", path="work/old.txt", content="old\n")
    sh(s, "mv", source="work/old.txt", destination="work/notes.md")
    assert sh(s, "cat", path="work/notes.md") == "old"
    ok(s, "write_file", path="work/keep.txt", content="keep\n")
    fails_cleanly(s, "mv", "File exists", source="work/keep.txt", destination="work/notes.md", no_clobber=True)
    fails_cleanly(s, "mv", "same file", source="work/keep.txt", destination="work/keep.txt")
    fails_cleanly(s, "mv", "same file", source="work/keep.txt", destination="work/../work/./keep.txt")
    fails_cleanly(s, "mv", "subdirectory of itself", source="work/sub", destination="work/sub/deep")
    fails_cleanly(s, "mv", "subdirectory of itself", source="work", destination="work/sub/deep/work2")
    fails_cleanly(s, "mv", "No such file or directory", source="work/nothing", destination="work/x")
    fails_cleanly(s, "mv", "No such file or directory", source="work/keep.txt", destination="work/no/dir/x")
    sh(s, "mkdir", path="work/target/keep.txt", parents=True)
    fails_cleanly(s, "mv", "cannot overwrite directory", source="work/keep.txt", destination="work/target")
    fails_cleanly(s, "mv", "cannot overwrite non-directory", source="work/sub", destination="work/keep.txt")
    sh(s, "mkdir", path="work/full/sub/x", parents=True)
    fails_cleanly(s, "mv", "Directory not empty", source="work/sub", destination="work/full")
    fails_cleanly(s, "mv", "is not a directory", source="work/*.txt", destination="work/keep.txt")
    fails_cleanly(s, "mv", "Permission denied", source="/etc/hosts", destination="work/hosts")
    fails_cleanly(s, "mv", "Permission denied", source="work/keep.txt", destination="/etc/keep.txt")
    fails_cleanly(s, "mv", "Operation not permitted", source="/tmp/.X0-lock", destination="/tmp/lock")
    fails_cleanly(s, "mv", "Device or resource busy", source="/", destination="work/root")
    sh(s, "mkdir", path="work/emptydir")
    sh(s, "mv", source="work/sub", destination="work/emptydir")
    assert sh(s, "ls", path="work/emptydir") == "sub"
    assert ok(s, "exists", path=f"{home}/work/sub")["exists"] is False


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
    fails(s, "mv", "cannot overwrite directory", source="work/*.*", destination="work/dest")
    assert s.world.digest() == before
    assert sh(s, "ls", path="work") == "data.csv\ndest\nfruits.txt\nnotes.md\nsub"
    assert ok(s, "exists", path="work/dest/data.csv")["exists"] is False
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
    ok(s, "write_file", path="work/copy.txt", content="changed\n")
    assert sh(s, "cat", path="work/fruits.txt") == FRUITS.rstrip("\n"), "copies are independent"
    sh(s, "cp", source="work/fruits.txt", destination="work/copy.txt")
    assert sh(s, "cat", path="work/copy.txt") == FRUITS.rstrip("\n")
    fails_cleanly(s, "cp", "File exists", source="work/notes.md", destination="work/copy.txt", no_clobber=True)
    fails_cleanly(s, "cp", "-r not specified", source="work/sub", destination="work/sub2")
    assert sh(s, "cp", source="work/sub", destination="work/sub2", recursive=True) == (
        f"'{home}/work/sub' -> '{home}/work/sub2' (2 files, 2 directories)")
    assert sh(s, "find", path="work/sub2", type="f") == "work/sub2/deep/inner.txt\nwork/sub2/notes.md"
    sh(s, "cp", source="work/sub", destination="work/sub2", recursive=True)
    assert sh(s, "ls", path="work/sub2") == "deep\nnotes.md\nsub", "copying onto a directory goes inside it"
    fails_cleanly(s, "cp", "into itself", source="work", destination="work/sub/inside", recursive=True)
    fails_cleanly(s, "cp", "same file", source="work/fruits.txt", destination="work/./fruits.txt")
    sh(s, "mkdir", path="work/target/notes.md", parents=True)
    fails_cleanly(s, "cp", "cannot overwrite directory", source="work/notes.md", destination="work/target")
    fails_cleanly(s, "cp", "No such file or directory", source="work/nothing.txt", destination="work/x")
    fails_cleanly(s, "cp", "Permission denied", source="/etc/shadow", destination="work/shadow")
    fails_cleanly(s, "cp", "Permission denied", source="work/fruits.txt", destination="/etc/fruits.txt")
    fails_cleanly(s, "cp", "Permission denied", source="/tmp", destination="work/tmp-copy", recursive=True)
    sh(s, "cp", source="current/LICENSE", destination="work/LICENSE")
    assert ok(s, "stat", path="work/LICENSE")["mode"] == "0444", "cp keeps the mode"
    fails_cleanly(s, "cp", "Permission denied", source="work/fruits.txt", destination="work/LICENSE")
    sh(s, "mkdir", path="work/csvs")
    assert len(sh(s, "cp", source="data/*.csv", destination="work/csvs").splitlines()) == 4
    fails_cleanly(s, "cp", "is not a directory", source="data/*.csv", destination="work/fruits.txt")


def test_cp_recursive_keeps_links_and_mkdir_p_inside_read_only_copy(work):
    s = work
    sh(s, "symlink", target="../notes.md", link_path="work/sub/notes-link")
    sh(s, "chmod", path="work/sub/deep", mode="555")
    fails_cleanly(s, "touch", "Permission denied", path="work/sub/deep/new.txt")
    sh(s, "cp", source="work/sub", destination="work/sub-copy", recursive=True)
    assert ok(s, "stat", path="work/sub-copy/notes-link")["type"] == "symlink"
    assert sh(s, "cat", path="work/sub-copy/notes-link").startswith("# Notes")
    assert ok(s, "stat", path="work/sub-copy/deep")["mode"] == "0555"
    assert sh(s, "cat", path="work/sub-copy/deep/inner.txt") == "needle here\nno match"


def test_rm(work):
    s = work
    home = home_of(s)
    assert sh(s, "rm", path="work/fruits.txt") == f"removed '{home}/work/fruits.txt'"
    assert ok(s, "exists", path="work/fruits.txt")["exists"] is False
    fails_cleanly(s, "rm", "No such file or directory", path="work/fruits.txt")
    assert sh(s, "rm", path="work/fruits.txt", force=True) == "(nothing removed)"
    assert sh(s, "rm", path="work/*.zip", force=True) == "(nothing removed)"
    fails_cleanly(s, "rm", "Is a directory", path="work/sub")
    assert sh(s, "rm", path="work/sub", recursive=True) == f"removed directory '{home}/work/sub' (2 entries inside)"
    assert ok(s, "exists", path="work/sub/deep/inner.txt")["exists"] is False
    fails_cleanly(s, "rm", "dangerous", path="/", recursive=True, force=True)
    fails_cleanly(s, "rm", "dangerous", path="/..//.", recursive=True)
    sh(s, "cd", path="work")
    fails_cleanly(s, "rm", "current working directory", path=".", recursive=True)
    fails_cleanly(s, "rm", "current working directory", path=home, recursive=True)
    sh(s, "cd", path="~")
    sh(s, "cp", source="current/LICENSE", destination="work/LICENSE")
    fails_cleanly(s, "rm", "write-protected", path="work/LICENSE")
    sh(s, "rm", path="work/LICENSE", force=True)
    fails_cleanly(s, "rm", "Permission denied", path="/etc/hosts", force=True)
    fails_cleanly(s, "rm", "Operation not permitted", path="/tmp/.X0-lock", force=True)
    fails_cleanly(s, "rm", "write-protected", path="notes/recipes", recursive=True)
    ok(s, "write_file", path="work/a.log", content="a\n")
    ok(s, "write_file", path="work/b.log", content="b\n")
    assert sh(s, "rm", path="work/*.log").splitlines() == [f"removed '{home}/work/a.log'", f"removed '{home}/work/b.log'"]
    target = sh(s, "readlink", path="current")
    sh(s, "rm", path="current")
    assert ok(s, "exists", path=target)["type"] == "directory", "rm removes the link, not its target"


def test_rmdir(work):
    s = work
    home = home_of(s)
    sh(s, "mkdir", path="work/empty")
    assert sh(s, "rmdir", path="work/empty") == f"removed directory '{home}/work/empty'"
    fails_cleanly(s, "rmdir", "No such file or directory", path="work/empty")
    fails_cleanly(s, "rmdir", "Directory not empty", path="work/sub")
    fails_cleanly(s, "rmdir", "Not a directory", path="work/notes.md")
    fails_cleanly(s, "rmdir", "Not a directory", path="current")
    fails_cleanly(s, "rmdir", "Device or resource busy", path="/")
    fails_cleanly(s, "rmdir", "Permission denied", path="/bin")
    sh(s, "cd", path="pictures")
    fails_cleanly(s, "rmdir", "current working directory", path=".")
    sh(s, "cd", path="..")
    sh(s, "rmdir", path="pictures")
    assert "pictures" not in sh(s, "ls").splitlines()


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
    fails_cleanly(s, "symlink", "File exists", target="anything", link_path="work/notes.md")
    fails_cleanly(s, "symlink", "No such file or directory", target="x", link_path="work/none/link")
    fails_cleanly(s, "symlink", "Permission denied", target="/tmp", link_path="/etc/tmp-link")
    fails_cleanly(s, "symlink", "must not be empty", target="", link_path="work/empty-link")
    sh(s, "symlink", target="loop-b", link_path="work/loop-a")
    sh(s, "symlink", target="loop-a", link_path="work/loop-b")
    fails(s, "cat", "Too many levels of symbolic links", path="work/loop-a")


def test_chmod_and_permission_semantics(work):
    s = work
    home = home_of(s)
    assert sh(s, "chmod", path="work/fruits.txt", mode="444") == (
        f"mode of '{home}/work/fruits.txt' changed from 0644 (rw-r--r--) to 0444 (r--r--r--)")
    fails_cleanly(s, "write_file", "Permission denied", path="work/fruits.txt", content="x")
    fails_cleanly(s, "append_file", "Permission denied", path="work/fruits.txt", content="x")
    fails_cleanly(s, "echo", "Permission denied", text="x", file="work/fruits.txt")
    assert sh(s, "cat", path="work/fruits.txt").startswith("banana"), "still readable"
    sh(s, "chmod", path="work/fruits.txt", mode="u+w")
    ok(s, "append_file", path="work/fruits.txt", content="plum\n")
    assert ok(s, "stat", path="work/fruits.txt")["mode"] == "0644"
    sh(s, "chmod", path="work/fruits.txt", mode="u-r")
    fails_cleanly(s, "cat", "Permission denied", path="work/fruits.txt")
    assert "retained as 0244" in sh(s, "chmod", path="work/fruits.txt", mode="0244")
    sh(s, "chmod", path="work/sub", mode="000")
    fails_cleanly(s, "ls", "Permission denied", path="work/sub")
    fails_cleanly(s, "cd", "Permission denied", path="work/sub")
    fails_cleanly(s, "cat", "Permission denied", path="work/sub/deep/inner.txt")
    sh(s, "chmod", path="work/sub", mode="u=rwx,go=rx")
    assert ok(s, "stat", path="work/sub")["permissions"] == "drwxr-xr-x"
    assert sh(s, "chmod", path="work/sub", mode="go-rx", recursive=True).count("changed from") == 3
    assert ok(s, "stat", path="work/sub/deep/inner.txt")["mode"] == "0600"
    sh(s, "chmod", path="scripts/*.sh", mode="a-x")
    assert {ok(s, "stat", path=p)["mode"] for p in ("scripts/backup.sh", "scripts/deploy.sh")} == {"0644"}
    sh(s, "chmod", path="work/notes.md", mode="a+X")
    assert ok(s, "stat", path="work/notes.md")["mode"] == "0644", "X only adds execute to directories"
    sh(s, "mkdir", path="work/shared")
    sh(s, "chmod", path="work/shared", mode="+t")
    assert ok(s, "stat", path="work/shared")["permissions"] == "drwxr-xr-t"
    fails_cleanly(s, "chmod", "Operation not permitted", path="/etc/hosts", mode="666")
    fails_cleanly(s, "chmod", "invalid mode", path="work/notes.md", mode="u+q")
    fails_cleanly(s, "chmod", "invalid mode", path="work/notes.md", mode="888")
    fails_cleanly(s, "chmod", "No such file or directory", path="work/zzz", mode="644")


def test_group_permissions(fs):
    user = ok(fs, "user_info")["user"]
    ok(fs, "append_file", path="/opt/team/README.txt", content="hello from the team\n")
    assert ok(fs, "stat", path="/opt/team/README.txt")["owner"] == "root"
    fails_cleanly(fs, "append_file", "Permission denied", path="/opt/team/oncall.txt", content="x")
    fails_cleanly(fs, "cat", "Permission denied", path="/var/log/syslog")
    assert ok(fs, "stat", path="/var/log/syslog")["group"] == "adm"
    assert user not in ("root", "adm")


# -- archives -------------------------------------------------------------------------------------


def test_tar_create_list_extract(work):
    s = work
    home = home_of(s)
    created = ok(s, "tar_create", archive="work/backup.tar", paths=["work/sub", "work/notes.md"])
    assert created["archive"] == f"{home}/work/backup.tar" and created["entries"] == 4
    listed = ok(s, "tar_list", archive="work/backup.tar")
    assert listed == {"archive": f"{home}/work/backup.tar", "entries": [
        {"name": "sub", "type": "directory", "size": 0, "mode": "0755"},
        {"name": "sub/deep", "type": "directory", "size": 0, "mode": "0755"},
        {"name": "sub/deep/inner.txt", "type": "file", "size": len(INNER), "mode": "0644"},
        {"name": "notes.md", "type": "file", "size": len(NOTES), "mode": "0644"}]}
    sh(s, "mkdir", path="restore")
    assert ok(s, "tar_extract", archive="work/backup.tar", directory="restore") == {
        "directory": f"{home}/restore", "extracted": 4}
    assert sh(s, "cat", path="restore/sub/deep/inner.txt") == "needle here\nno match"
    assert sh(s, "diff", path1="restore/notes.md", path2="work/notes.md") == "(no differences)"
    ok(s, "write_file", path="restore/notes.md", content="edited\n")
    sh(s, "cd", path="restore")
    ok(s, "tar_extract", archive="../work/backup.tar")
    assert sh(s, "cat", path="notes.md") == NOTES.rstrip("\n"), "extracting overwrites files"
    fails_cleanly(s, "tar_list", "not an archive", archive="notes.md")
    fails_cleanly(s, "tar_extract", "not an archive", archive="notes.md")
    fails_cleanly(s, "tar_extract", "Not a directory", archive="../work/backup.tar", directory="notes.md")
    fails_cleanly(s, "tar_extract", "Permission denied", archive="../work/backup.tar", directory="/etc")
    fails_cleanly(s, "tar_create", "No such file or directory", archive="x.tar", paths=["missing"])
    fails_cleanly(s, "tar_create", "already included", archive="x.tar", paths=["notes.md", "../work/notes.md"])
    fails_cleanly(s, "tar_create", "at least one", archive="x.tar", paths=[])
    fails_cleanly(s, "tar_create", "Permission denied", archive="x.tar", paths=["/etc/shadow"])
    fails_cleanly(s, "tar_create", "Permission denied", archive="/etc/x.tar", paths=["notes.md"])
    evil = json.dumps({"format": "prove-tar/1", "entries": [
        {"name": "../escape.txt", "type": "file", "mode": 420, "mtime": "2026-01-01T00:00:00", "content": "x"}]})
    ok(s, "write_file", path="evil.tar", content=evil)
    fails_cleanly(s, "tar_extract", "unsafe archive entry", archive="evil.tar")


# -- tasks ----------------------------------------------------------------------------------------


def _tasks() -> list[dict]:
    return [json.loads(line) for line in TASKS.read_text().splitlines() if line.strip()]


def test_task_outcomes(served):
    """The gold calls do what the user asked in the seed-0 world."""
    s = served("filesystem")
    tasks = {t["id"]: t for t in _tasks()}
    for gold in tasks["filesystem-003"]["gold"][0]:
        sh(s, gold["name"], **gold["arguments"])
    assert ok(s, "glob", pattern="~/notes/meeting-*")["matches"] == []
    assert len(ok(s, "glob", pattern="~/notes/archive/meeting-*.md")["matches"]) == 5
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
