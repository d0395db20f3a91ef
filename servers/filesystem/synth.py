"""How tasks are written for the file system: one user at their shell, asking for things in their
home directory (and a few system folders) by absolute path, by name ("my file called todo.md
somewhere under /home/maria/notes") or by what a file says ("the note under /home/maria/notes that
mentions 'budget review'").

Every path a request gives is absolute, so gold arguments never depend on the working directory
(only `cd` requests are about it). Requests that change the world draw on separate pools of files
(one pool to delete, one to move, one per kind of edit, fresh names per kind of creation), so two
requests of one task rarely trip over each other.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref

Bundle = dict[str, Any]

_AREAS = ("notes", "projects", "data", "documents", "logs", "scripts")
_NOUNS = {".md": "note", ".csv": "spreadsheet", ".log": "log", ".py": "Python file", ".yaml": "config file",
          ".ini": "config file", ".toml": "config file", ".txt": "text file", ".sh": "script", ".html": "web page",
          ".css": "stylesheet", ".js": "script", ".json": "settings file"}
_KEY_VALUE = re.compile(r"^[A-Z][A-Za-z ]{2,20}: [A-Z][\w .,$/-]+$")

TODO_ITEMS = ("Call the plumber", "Renew the car insurance", "Book dentist appointment", "Back up the laptop",
              "Pay the electricity bill", "Send the quarterly report", "Order printer ink", "Water the plants")
IDEAS = ("A habit tracker for the command line", "Weekly newsletter of reading notes", "Shared grocery list app",
         "Automate the monthly expense report")
BASHRC_LINES = ("export HISTSIZE=5000", "alias gp='git push'", "export PATH=$HOME/bin:$PATH", "alias ..='cd ..'")
NEW_DIRS = ("notes/archive", "projects/sandbox", "data/2026", "documents/receipts", "pictures/holiday-2026",
            "music/playlists")
NEW_DEEP_DIRS = ("projects/new-app/src/app", "documents/taxes/2026/receipts", "notes/journal/2027/01",
                 "data/raw/imports")
TOUCH_FILES = ("notes/meeting-prep.md", "data/README.txt", "scripts/sync.sh", "documents/letters/draft.txt")
WRITE_FILES = (("notes/plan.md", ["# Plan", "- Draft the proposal", "- Review the budget"]),
               ("notes/groceries.md", ["# Groceries", "- eggs", "- milk", "- coffee"]),
               ("documents/address.txt", ["Flat 4B", "12 Harbour Street"]),
               ("data/sources.txt", ["sales: exported from the dashboard", "expenses: bank statements"]))
ECHO_FILES = ("notes/status.txt", "data/last-import.txt", "documents/reminder.txt")
ECHO_TEXTS = ("all good", "imported on Monday", "renew passport before June", "deploy paused")


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """One bundle: the logged-in user's home with every node, the text of every readable file,
    and the ways each file can be named (a unique name under its area, a unique phrase it
    contains), plus the pools each kind of change draws on."""
    me = read("user_info")
    user, groups, home = me["user"], set(me["groups"]), me["home"]
    nodes = {n["path"]: n for n in read("debug_nodes", prefix="/")}

    def can(node: dict, what: str) -> bool:
        shift = 6 if node["owner"] == user else 3 if node["group"] in groups else 0
        return bool((int(node["mode"], 8) >> shift) & {"r": 4, "w": 2, "x": 1}[what])

    def reachable(path: str) -> bool:
        parts = path.split("/")[1:-1]
        return all(can(nodes["/" + "/".join(parts[:i])], "x") for i in range(1, len(parts) + 1))

    files: dict[str, dict] = {}
    for path, node in nodes.items():
        if node["kind"] != "file" or not reachable(path) or not can(node, "r"):
            continue
        if not path.startswith((home + "/", "/etc/", "/opt/team/", "/tmp/")):
            continue
        text = read("read_file", path=path)["content"]
        files[path] = {**node, "name": path.rsplit("/", 1)[1], "lines": text.splitlines(),
                       "writable": can(node, "w"), "area": _area(path, home)}
    areas = [f"{home}/{a}" for a in _AREAS if f"{home}/{a}" in nodes]
    b: Bundle = {"now": now, "user": user, "home": home, "nodes": nodes, "files": files, "areas": areas}
    _pools(b)
    b["by_text"] = _phrases(read, b)
    b["by_name"] = _unique_names(b)
    b["csv"] = {p: _columns(f["lines"]) for p, f in files.items() if p.endswith(".csv") and len(f["lines"]) > 2}
    b["csv"] = {p: cols for p, cols in b["csv"].items() if cols["numeric"]}
    return [b] if len(b["read"]) >= 10 else []


def _area(path: str, home: str) -> str:
    """The folder a person would say a file is 'under': an area of the home, or its own folder."""
    for area in _AREAS:
        top = f"{home}/{area}"
        if path.startswith(top + "/"):
            return top
    return path.rsplit("/", 1)[0] or "/"


def _pools(b: Bundle) -> None:
    """Split the files into the pools each kind of request uses, so changes rarely collide."""
    home, files, nodes = b["home"], b["files"], b["nodes"]
    mine = {p: f for p, f in files.items() if f["owner"] == b["user"]}
    downloads = sorted(p for p in mine if p.startswith(f"{home}/downloads/"))
    b["rm"] = [p for p in downloads if "(1)" in p or "installer" in p]
    b["rm"] += [p for p in mine if p.startswith("/tmp/")] + [p for p in (f"{home}/logs/app.log.1",) if p in files]
    b["mv"] = [p for p in downloads if p not in b["rm"]]
    b["force_rm"] = [p for p, f in mine.items() if not f["writable"] and p.startswith(home)]
    b["rm_dirs"] = [d for d in (f"{home}/data/backup",) if d in nodes]
    b["rm_globs"] = [f"{home}/logs/archive/*.log"] if any(p.startswith(f"{home}/logs/archive/") for p in files) else []
    b["empty_dirs"] = sorted(p for p, n in nodes.items() if n["kind"] == "dir" and p.startswith(home + "/")
                             and n["owner"] == b["user"] and not any(m.startswith(p + "/") for m in nodes))
    busy = set(b["rm"]) | set(b["mv"]) | set(b["force_rm"])
    busy |= {p for p in files for d in b["rm_dirs"] + [f"{home}/logs/archive"] if p.startswith(d + "/")}
    b["read"] = sorted(p for p in files if p not in busy and files[p]["lines"])
    b["links"] = sorted(p for p, n in nodes.items() if n["kind"] == "symlink" and p.startswith(home + "/"))
    b["dirs"] = sorted(p for p, n in nodes.items() if n["kind"] == "dir" and p.startswith(home) and "/." not in p
                       and not any(p.startswith(d) for d in b["rm_dirs"] + [f"{home}/logs/archive"]))


def _noun(path: str) -> str:
    ext = "." + path.rsplit(".", 1)[1] if "." in path.rsplit("/", 1)[1].lstrip(".") else ""
    return _NOUNS.get(ext, "file")


def _phrases(read: Reader, b: Bundle) -> dict[str, tuple[str, str]]:
    """For files a person might describe by content: (phrase, area) such that searching the area
    for the phrase finds that file alone (checked with search_files itself)."""
    files, out = b["files"], {}
    for path in b["read"]:
        area = files[path]["area"]
        if area not in b["areas"]:
            continue
        others = [f for p, f in files.items() if p != path and p.startswith(area + "/")]
        for phrase in _candidates(files[path]["lines"]):
            low = phrase.lower()
            if any(low in line.lower() for f in others for line in f["lines"]):
                continue
            found = read.maybe("search_files", query=phrase, path=area)
            if found and found["total_files"] == 1 and found["results"][0]["path"] == path:
                out[path] = (phrase, area)
            break
    return out


def _candidates(lines: list[str]) -> list[str]:
    """Phrases a person would quote from a file: headings, 'Key: value' lines, TODO comments, then
    other short lines (list markers and comment signs dropped)."""
    first, rest = [], []
    for line in lines:
        text = line.strip()
        if text.startswith("# ") or _KEY_VALUE.match(text) or "TODO" in text or "FIXME" in text:
            first.append(text.lstrip("#/ ").strip())
        else:
            rest.append(re.sub(r"^(- \[[ x]\] |- |\d+\. )", "", text).rstrip(".,;:"))
    return [p for p in dict.fromkeys(first + rest) if 6 <= len(p) <= 40 and not set(p) & set('"|@')
            and sum(c.isalpha() or c == " " for c in p) >= 0.7 * len(p)][:40]


def _unique_names(b: Bundle) -> dict[str, str]:
    """For files and folders: the folder under which their name is unique (the area, else the home)."""
    names: dict[str, str] = {}
    every = list(b["nodes"])
    for path in b["read"] + b["dirs"] + b["mv"] + b["rm"]:
        if not path.startswith(b["home"] + "/"):
            continue
        name = path.rsplit("/", 1)[1]
        if len(re.findall(r"[A-Za-z]", name.rsplit(".", 1)[0])) < 3:
            continue  # nobody calls a file '07.md' by name alone
        for top in (_area(path, b["home"]), b["home"]):
            if top == path or not path.startswith(top + "/"):
                continue
            if sum(p.startswith(top + "/") and p.rsplit("/", 1)[1] == name for p in every) == 1:
                names[path] = top
                break
    return names


def _columns(lines: list[str]) -> dict:
    header = lines[0].split(",")
    rows = [line.split(",") for line in lines[1:] if line.strip()]
    numeric = []
    for i, name in enumerate(header):
        values = [r[i] for r in rows if i < len(r)]
        if values and all(_number(v) for v in values):
            numeric.append(name)
    return {"header": header, "numeric": numeric}


def _number(text: str) -> bool:
    try:
        float(text.strip())
        return True
    except ValueError:
        return False


# -- how people name files -------------------------------------------------------------------------

def _q(path: str) -> str:
    """A path as a person types it in a message: quoted when it has a space."""
    return f'"{path}"' if " " in path else path


def name_file(b: Bundle, rng: random.Random, path: str, how: tuple[float, float, float]) -> tuple[str, tuple, tuple]:
    """(words, refs, mentions) naming `path` directly, by what it says, or by its name; `how`
    weighs the three ways (a way that cannot single the file out is skipped)."""
    ways = ["path", "text", "name"]
    weights = [how[0], how[1] if path in b["by_text"] else 0, how[2] if path in b["by_name"] else 0]
    way = rng.choices(ways, weights=weights)[0]
    noun = _noun(path) if b["nodes"][path]["kind"] != "dir" else "folder"
    if way == "text":
        phrase, area = b["by_text"][path]
        words = rng.choice([f'the {noun} under {area} that mentions "{phrase}"',
                            f'my {noun} in {area} with "{phrase}" in it'])
        return words, (Ref("file", path, {"query": phrase, "dir": area}),), (area, phrase)
    if way == "name":
        top, name = b["by_name"][path], path.rsplit("/", 1)[1]
        words = rng.choice([f"my {noun} called {_q(name)} somewhere under {top}",
                            f"the {noun} named {_q(name)} (it's somewhere in {top})"])
        return words, (Ref("path", path, {"name": name, "dir": top}),), (name, top)
    return _q(path), (), (path,)


BY_TEXT = (0.45, 0.4, 0.15)  # tools taking a file: by path, by content, by name
BY_NAME = (0.5, 0.0, 0.5)  # tools taking a path: by path or by name


def _cmd(command: str) -> str:
    """A terse request that is just the shell command."""
    return f"Run `{command}`."


def _pick(rng: random.Random, items: list | tuple) -> Any:
    return rng.choice(list(items)) if items else None


def _text_files(b: Bundle, *, min_lines: int = 1, under: str | None = None, ext: tuple[str, ...] = ()) -> list[str]:
    return [p for p in b["read"] if len(b["files"][p]["lines"]) >= min_lines
            and (under is None or p.startswith(under)) and (not ext or p.endswith(ext))]


def _editable(b: Bundle, paths: list[str]) -> list[str]:
    return [p for p in paths if b["files"][p]["writable"]]


# -- reading -----------------------------------------------------------------------------------------

goals = Goals()


@goals.add("cat", 1.5)
def cat(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, [p for p in _text_files(b) if len(b["files"][p]["lines"]) <= 60])
    if path is None:
        return None
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    return Ask({"path": path}, say=rng.choice([f"Show me what's in {words}.", f"Can you print {words}?",
                                               f"Please display the contents of {words}."]),
               terse=f"Print {words}.", refs=refs, mentions=mentions)


@goals.add("head")
def head(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, _text_files(b, min_lines=12))
    if path is None:
        return None
    n = rng.choice([3, 5, 8])
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    return Ask({"path": path, "n": n}, say=f"Let me see the beginning of {words}.",
               terse=f"First {n} lines of {words}.", detail=f"Just the first {n} lines.", refs=refs,
               mentions=mentions + (str(n),))


@goals.add("tail")
def tail(b: Bundle, rng: random.Random) -> Ask | None:
    logs = _text_files(b, min_lines=12, ext=(".log",))
    path = _pick(rng, logs or _text_files(b, min_lines=12))
    if path is None:
        return None
    n = rng.choice([5, 15, 20])
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    if rng.random() < 0.5:
        return Ask({"path": path, "n": n}, say=f"Show me the end of {words}.", terse=f"Last {n} lines of {words}.",
                   detail=f"The last {n} lines, please.", refs=refs, mentions=mentions + (str(n),))
    return Ask({"path": path, "n": n}, say=rng.choice([f"What are the last {n} lines of {words}?",
                                                       f"Show me the final {n} lines of {words}."]),
               terse=f"Last {n} lines of {words}.", refs=refs, mentions=mentions + (str(n),))


@goals.add("read_file", 0.7)
def read_file(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, _text_files(b, min_lines=8))
    if path is None:
        return None
    total = len(b["files"][path]["lines"])
    start = rng.randint(2, total - 4)
    end = min(total, start + rng.choice([2, 3, 5]))
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    return Ask({"path": path, "start_line": start, "end_line": end},
               say=f"Read me lines {start} to {end} of {words}.", terse=f"Lines {start}-{end} of {words}.",
               refs=refs, mentions=mentions + (str(start), str(end)))


@goals.add("wc", 0.7)
def wc(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, _text_files(b, min_lines=3))
    if path is None:
        return None
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    return Ask({"path": path}, say=rng.choice([f"Count the lines, words and bytes in {words}.",
                                               f"Run a word count (wc) on {words}."]),
               terse=f"wc {words}.", refs=refs, mentions=mentions)


_GREP_WORDS = ("ERROR", "WARN", "TODO", "FIXME", "import", "timeout", "Attendees", "port", "return", "def")


@goals.add("grep", 1.5)
def grep(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, _text_files(b, min_lines=5))
    if path is None:
        return None
    lines = b["files"][path]["lines"]
    patterns = [w for w in _GREP_WORDS if any(w in line for line in lines)]
    patterns += [w for w in re.findall(r"[A-Za-z]{5,}", " ".join(lines[:20]))][:3]
    pattern = _pick(rng, patterns)
    if pattern is None:
        return None
    words, refs, mentions = name_file(b, rng, path, BY_NAME)
    mentions = mentions + (pattern,)
    style = rng.random()
    if style < 0.35:
        return Ask({"pattern": pattern, "path": path, "count": True},
                   say=f"How many lines in {words} contain {pattern}?",
                   terse=f"Count lines with {pattern} in {words}.", refs=refs, mentions=mentions)
    if style < 0.55 and pattern.lower() != pattern:
        low = pattern.lower()
        return Ask({"pattern": low, "path": path, "ignore_case": True},
                   say=f"Search {words} for '{low}', ignoring case, and show me the matching lines.",
                   terse=f"Case-insensitive grep for '{low}' in {words}.", refs=refs,
                   mentions=mentions[:-1] + (low,))
    if style < 0.75:
        return Ask({"pattern": pattern, "path": path}, say=f"I need to search {words}.",
                   terse=f"grep {pattern} in {words}.", detail=f"Show me the lines that contain {pattern}.",
                   refs=refs, mentions=mentions)
    return Ask({"pattern": pattern, "path": path},
               say=rng.choice([f"Show me the lines of {words} that contain {pattern}.",
                               f"Grep {words} for {pattern}."]),
               terse=f"grep {pattern} in {words}.", refs=refs, mentions=mentions)


@goals.add("grep", 0.5)
def grep_recursive(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, [a for a in b["areas"] if a.endswith(("projects", "notes", "scripts", "logs"))])
    if top is None:
        return None
    texts = [line for p in _text_files(b, under=top + "/") for line in b["files"][p]["lines"]]
    pattern = _pick(rng, [w for w in _GREP_WORDS if any(w in line for line in texts)])
    if pattern is None:
        return None
    return Ask({"pattern": pattern, "path": top, "recursive": True},
               say=f"Grep recursively through {top} for {pattern} and show me every matching line.",
               terse=_cmd(f"grep -r {pattern} {top}"), mentions=(pattern, top))


@goals.add("search_files")
def search_files(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, b["areas"])
    texts = [line for p in _text_files(b, under=top + "/") for line in b["files"][p]["lines"]]
    words = sorted({w for w in re.findall(r"\b[a-z]{6,}\b", " ".join(texts))})
    query = _pick(rng, [w for w in _GREP_WORDS if any(w in t for t in texts)] + rng.sample(words, min(8, len(words))))
    if query is None:
        return None
    if rng.random() < 0.3:
        exts = sorted({"*." + p.rsplit(".", 1)[1] for p in _text_files(b, under=top + "/") if "." in p[len(top):]})
        ext = _pick(rng, [e for e in exts if "/" not in e])
        if ext:
            return Ask({"query": query, "path": top, "name": ext},
                       say=f"Which {ext} files under {top} mention '{query}'?",
                       terse=f"{ext} files in {top} containing '{query}'.", mentions=(query, top, ext))
    if rng.random() < 0.4:
        return Ask({"query": query, "path": top}, say=f"I'm looking for files under {top} by what's in them.",
                   terse=f"Files in {top} containing '{query}'.", detail=f"They should contain the text '{query}'.",
                   mentions=(query, top))
    return Ask({"query": query, "path": top},
               say=rng.choice([f"Which files under {top} mention '{query}'?",
                               f"Find the files in {top} that contain the text '{query}'."]),
               terse=f"Files in {top} containing '{query}'.", mentions=(query, top))


def _exts(b: Bundle, top: str) -> list[str]:
    return sorted({"." + p.rsplit(".", 1)[1] for p in b["files"] if p.startswith(top + "/")
                   and "." in p.rsplit("/", 1)[1].lstrip(".")})


@goals.add("find", 1.2)
def find(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, b["areas"] + [b["home"]])
    style = rng.random()
    if style < 0.5:
        ext = _pick(rng, _exts(b, top))
        if ext is None:
            return None
        if rng.random() < 0.3:
            return Ask({"path": top, "name": f"*{ext}"}, say=f"Find all the files of one type anywhere under {top}.",
                       terse=_cmd(f"find {top} -name '*{ext}'"), detail=f"I mean the {ext} files.",
                       mentions=(ext, top))
        return Ask({"path": top, "name": f"*{ext}"},
                   say=rng.choice([f"Find all the {ext} files anywhere under {top}.",
                                   f"List every file ending in {ext} below {top}, at any depth."]),
                   terse=_cmd(f"find {top} -name '*{ext}'"), mentions=(ext, top))
    if style < 0.75:
        days = rng.choice([3, 7, 14, 30])
        return Ask({"path": top, "modified_within_days": days},
                   say=f"What has been modified under {top} in the last {days} days?",
                   terse=f"Things under {top} changed in the last {days} days.", mentions=(str(days), top))
    if style < 0.9:
        return Ask({"path": top, "type": "d"}, say=f"List every folder under {top}, however deep.",
                   terse=f"All directories under {top}.", mentions=(top,))
    return Ask({"path": top, "min_size": 1024}, say=f"Which files under {top} are at least 1024 bytes?",
               terse=f"Files of 1024+ bytes under {top}.", mentions=(top, "1024"))


@goals.add("glob", 0.6)
def glob(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, [d for d in b["dirs"] if any(p.rsplit("/", 1)[0] == d for p in b["files"])])
    if top is None:
        return None
    exts = sorted({"." + p.rsplit(".", 1)[1] for p in b["files"] if p.rsplit("/", 1)[0] == top
                   and "." in p.rsplit("/", 1)[1].lstrip(".")})
    ext = _pick(rng, exts)
    if ext is None:
        return None
    pattern = f"{top}/*{ext}"
    return Ask({"pattern": pattern}, say=f"Which paths match the pattern {pattern}?",
               terse=f"Expand {pattern}.", mentions=(pattern,))


@goals.add("ls", 1.2)
def ls(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, [b["home"]] + b["dirs"])
    words, refs, mentions = name_file(b, rng, top, BY_NAME) if top != b["home"] else (top, (), (top,))
    style = rng.random()
    if style < 0.35:
        return Ask({"path": top, "long": True},
                   say=f"Give me a long listing of {words}, with permissions, owners and sizes.",
                   terse=f"ls -l {words}.", refs=refs, mentions=mentions)
    if style < 0.55 and any(p.startswith(top + "/.") for p in b["nodes"]):
        return Ask({"path": top, "all": True}, say=f"List everything in {words}, hidden files included.",
                   terse=f"ls -a {words}.", refs=refs, mentions=mentions)
    return Ask({"path": top}, say=rng.choice([f"What's in {words}?", f"List the contents of {words}."]),
               terse=f"ls {words}.", refs=refs, mentions=mentions)


@goals.add("list_dir", 0.6)
def list_dir(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, [d for d in b["dirs"] if sum(n.startswith(d + "/") for n in b["nodes"]) >= 3])
    if top is None:
        return None
    if rng.random() < 0.5:
        return Ask({"path": top, "sort_by": "size"}, say=f"List the entries of {top} by size, largest first.",
                   terse=f"{top} entries, largest first.", mentions=(top,))
    return Ask({"path": top, "sort_by": "modified"},
               say=f"List the entries of {top} ordered by modification time, newest first.",
               terse=f"{top} entries, newest first.", mentions=(top,))


@goals.add("tree", 0.7)
def tree(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, b["areas"] + [f"{b['home']}/projects/{n}" for n in _projects(b)])
    if top is None:
        return None
    style = rng.random()
    if style < 0.4:
        depth = rng.choice([1, 2])
        return Ask({"path": top, "max_depth": depth},
                   say=f"Draw the directory tree of {top}, only {depth} level{'s' if depth > 1 else ''} deep.",
                   terse=_cmd(f"tree -L {depth} {top}"), mentions=(top, str(depth)))
    if style < 0.6:
        return Ask({"path": top, "dirs_only": True}, say=f"Show me the tree of folders (directories only) in {top}.",
                   terse=_cmd(f"tree -d {top}"), mentions=(top,))
    return Ask({"path": top}, say=f"Show me the whole directory tree under {top}.", terse=_cmd(f"tree {top}"),
               mentions=(top,))


def _projects(b: Bundle) -> list[str]:
    top = f"{b['home']}/projects/"
    return sorted({p[len(top):].split("/")[0] for p in b["nodes"] if p.startswith(top)})


@goals.add("stat", 0.7)
def stat(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, b["read"] + b["links"] + b["dirs"][:6])
    words, refs, mentions = name_file(b, rng, path, BY_NAME)
    return Ask({"path": path}, say=rng.choice([f"Show me the details of {words}: type, size, permissions and owner.",
                                               f"Can you stat {words}?"]),
               terse=f"stat {words}.", refs=refs, mentions=mentions)


@goals.add("exists", 0.6)
def exists(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    missing = [p for p in (f"{home}/.env", f"{home}/notes/archive", f"{home}/documents/passport.pdf",
                           f"{home}/data/sales-2024.csv", "/etc/nginx/sites-enabled") if p not in b["nodes"]]
    path = _pick(rng, missing + b["read"][:: max(1, len(b["read"]) // 6)])
    return Ask({"path": path}, say=rng.choice([f"Does {_q(path)} exist?", f"Is there anything at {_q(path)}?"]),
               terse=_cmd(f"test -e {_q(path)}"), mentions=(path,))


@goals.add("realpath", 0.4)
def realpath(b: Bundle, rng: random.Random) -> Ask | None:
    link = _pick(rng, b["links"])
    if link is None:
        return None
    target = b["nodes"][link]["target"]
    sub = _pick(rng, ["", "/src", "/docs"]) if b["nodes"].get(_resolved(link, target), {}).get("kind") == "dir" else ""
    path = link + (sub or "")
    if sub and _resolved(link, target) + sub not in b["nodes"]:
        path = link
    return Ask({"path": path}, say=f"What is the real, fully resolved path of {path}?",
               terse=_cmd(f"realpath {path}"), mentions=(path,))


def _resolved(link: str, target: str) -> str:
    base = target if target.startswith("/") else link.rsplit("/", 1)[0] + "/" + target
    parts: list[str] = []
    for part in base.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            parts and parts.pop()
        else:
            parts.append(part)
    return "/" + "/".join(parts)


@goals.add("readlink", 0.4)
def readlink(b: Bundle, rng: random.Random) -> Ask | None:
    link = _pick(rng, b["links"])
    if link is None:
        return None
    return Ask({"path": link}, say=rng.choice([(f"Where does the symbolic link {link} point? I want the target as "
                                                "written."),
                                               f"What's the target of the symlink {link}?"]),
               terse=_cmd(f"readlink {link}"), mentions=(link,))


@goals.add("list_recent", 0.6)
def list_recent(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, b["areas"] + [b["home"]])
    n = rng.choice([3, 5])
    return Ask({"path": top, "limit": n}, say=f"Which {n} files under {top} were modified most recently?",
               terse=f"{n} most recent files in {top}.", mentions=(str(n), top))


@goals.add("du", 0.7)
def du(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, b["areas"] + [b["home"]])
    style = rng.random()
    if style < 0.4:
        return Ask({"path": top, "summarize": True, "human_readable": True},
                   say=f"What's the total disk usage of {top}? A single human-readable total is fine.",
                   terse=_cmd(f"du -sh {top}"), mentions=(top,))
    if style < 0.7:
        return Ask({"path": top, "max_depth": 1},
                   say=f"Show the disk usage of {top} and of each folder directly inside it (one level down).",
                   terse=_cmd(f"du --max-depth=1 {top}"), mentions=(top,))
    return Ask({"path": top, "summarize": True}, say=f"How many bytes does {top} take up in total?",
               terse=_cmd(f"du -s {top}"), mentions=(top,))


@goals.add("disk_usage", 0.6)
def disk_usage(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, b["areas"] + [b["home"]])
    k = rng.choice([3, 10])
    return Ask({"path": top, "top": k},
               say=f"Summarize the space used under {top}, and list its {k} largest files.",
               terse=f"Space used in {top}, top {k} files.", mentions=(top, str(k)))


@goals.add("count_files", 0.6)
def count_files(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, b["areas"] + [b["home"]])
    ext = _pick(rng, _exts(b, top))
    if ext and rng.random() < 0.6:
        return Ask({"path": top, "name": f"*{ext}"}, say=f"How many {ext} files are there under {top}?",
                   terse=f"Count *{ext} files in {top}.", mentions=(ext, top))
    return Ask({"path": top}, say=f"How many files are under {top}, broken down by extension?",
               terse=f"Count files in {top} by extension.", mentions=(top,))


@goals.add("find_duplicates", 0.4)
def find_duplicates(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, b["areas"] + [b["home"]])
    return Ask({"path": top}, say=rng.choice([f"Are there any duplicate files (same content) under {top}?",
                                              f"Find files with identical contents under {top}."]),
               terse=f"Duplicate files in {top}?", mentions=(top,))


@goals.add("diff", 0.6)
def diff(b: Bundle, rng: random.Random) -> Ask | None:
    pairs = []
    for p in b["read"]:
        for q in b["read"]:
            if p < q and p.rsplit("/", 1)[0] == q.rsplit("/", 1)[0] and _noun(p) == _noun(q) \
                    and p.endswith((".csv", ".log", ".md", ".txt", ".1")):
                pairs.append((p, q))
    pair = _pick(rng, pairs)
    if pair is None:
        return None
    p, q = pair if rng.random() < 0.5 else pair[::-1]
    return Ask({"path1": p, "path2": q}, say=rng.choice([f"Compare {_q(p)} with {_q(q)} and show me the differences.",
                                                         f"What's the diff between {_q(p)} and {_q(q)}?"]),
               terse=_cmd(f"diff {_q(p)} {_q(q)}"), mentions=(p, q))


@goals.add("checksum", 0.6)
def checksum(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, b["read"])
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    algorithm = rng.choice(["sha256", "md5", "sha1"])
    args = {"path": path} if algorithm == "sha256" else {"path": path, "algorithm": algorithm}
    name = {"sha256": "SHA-256", "md5": "MD5", "sha1": "SHA-1"}[algorithm]
    return Ask(args, say=f"What's the {name} checksum of {words}?", terse=f"{name} of {words}.", refs=refs,
               mentions=mentions + (name,))


@goals.add("column_stats")
def column_stats(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, sorted(p for p in b["csv"] if p in b["read"]))
    if path is None:
        return None
    column = rng.choice(b["csv"][path]["numeric"])
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    return Ask({"path": path, "column": column},
               say=rng.choice([f"Give me the count, sum, min, max and average of a column in {words}.",
                               f"I need summary statistics for one numeric column of {words}."]),
               terse=f"Stats of the '{column}' column in {words}.", detail=f"The column is '{column}'.",
               refs=refs, mentions=mentions + (column,))


@goals.add("sort", 0.6)
def sort(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.5:
        path = _pick(rng, sorted(p for p in b["csv"] if p in b["read"]))
        if path is None:
            return None
        column = rng.choice(b["csv"][path]["numeric"])
        key = b["csv"][path]["header"].index(column) + 1
        return Ask({"path": path, "key": key, "delimiter": ",", "numeric": True, "reverse": True, "header": True},
                   say=f"Show me {path} sorted numerically by its {column} column (field {key}, comma-separated), "
                       "highest first, with the header line kept on top. Don't change the file.",
                   terse=f"Run `sort -t, -k{key} -nr {path}`, keeping the header line on top.",
                   mentions=(path, str(key)))
    path = _pick(rng, [p for p in _text_files(b, min_lines=4) if not p.endswith(".csv")])
    if path is None:
        return None
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    return Ask({"path": path}, say=f"Print the lines of {words} in alphabetical order (leave the file as it is).",
               terse=f"sort {words}.", refs=refs, mentions=mentions)


@goals.add("uniq", 0.3)
def uniq(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, _text_files(b, min_lines=4))
    if path is None:
        return None
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    return Ask({"path": path, "count": True},
               say=f"Run uniq -c on {words}: collapse repeated adjacent lines and show how often each occurs.",
               terse=f"uniq -c {words}.", refs=refs, mentions=mentions)


@goals.add("cut", 0.5)
def cut(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, sorted(p for p in b["csv"] if p in b["read"]))
    if path is None:
        return None
    header = b["csv"][path]["header"]
    if len(header) < 3:
        return None
    fields = sorted(rng.sample(range(1, len(header) + 1), 2))
    names = " and ".join(header[f - 1] for f in fields)
    return Ask({"path": path, "fields": fields, "delimiter": ","},
               say=f"From the comma-separated file {path}, print only fields {fields[0]} and {fields[1]} ({names}).",
               terse=_cmd(f"cut -d, -f{fields[0]},{fields[1]} {path}"), mentions=(path, str(fields[0]), str(fields[1])))


@goals.add("pwd", 0.2)
def pwd(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({}, say=rng.choice(["Which directory am I in right now?", "What's my current working directory?"]),
               terse=_cmd("pwd"))


@goals.add("user_info", 0.2)
def user_info(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({}, say="Which user am I logged in as, and which groups am I in?", terse="whoami and my groups?")


# -- changing things -------------------------------------------------------------------------------

@goals.add("cd", 0.5)
def cd(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, [d for d in b["dirs"] if d != b["home"] and d not in b["empty_dirs"]] + ["/etc", "/tmp"])
    words, refs, mentions = name_file(b, rng, top, BY_NAME) if top in b["nodes"] and top.startswith(b["home"]) \
        else (top, (), (top,))
    return Ask({"path": top}, say=rng.choice([f"Go into {words}.", f"Change the working directory to {words}."]),
               terse=f"cd {words}.", refs=refs, mentions=mentions)


@goals.add("mkdir")
def mkdir(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    if rng.random() < 0.6:
        path = _pick(rng, [f"{home}/{d}" for d in NEW_DIRS if f"{home}/{d}" not in b["nodes"]
                           and f"{home}/{d}".rsplit("/", 1)[0] in b["nodes"]])
        if path is None:
            return None
        parent, name = path.rsplit("/", 1)
        return Ask({"path": path}, say=f"Create a new folder inside {parent}.", terse=_cmd(f"mkdir {path}"),
                   detail=f"Call it {name}, so {path}.", mentions=(path,))
    path = _pick(rng, [f"{home}/{d}" for d in NEW_DEEP_DIRS if f"{home}/{d}" not in b["nodes"]])
    if path is None:
        return None
    return Ask({"path": path, "parents": True},
               say=f"Create the folder {path}, along with any parent folders that don't exist yet.",
               terse=_cmd(f"mkdir -p {path}"), mentions=(path,))


@goals.add("touch", 0.7)
def touch(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    if rng.random() < 0.6:
        path = _pick(rng, [f"{home}/{p}" for p in TOUCH_FILES if f"{home}/{p}" not in b["nodes"]
                           and f"{home}/{p}".rsplit("/", 1)[0] in b["nodes"]] + ["/opt/team/standup.txt"])
        return Ask({"path": path}, say=f"Create an empty file at {path}.", terse=_cmd(f"touch {path}"),
                   mentions=(path,))
    path = _pick(rng, [p for p in b["read"] if b["files"][p]["owner"] == b["user"]])
    words, refs, mentions = name_file(b, rng, path, BY_NAME)
    return Ask({"path": path}, say=f"Update the modification time of {words} to now, without changing its content.",
               terse=f"touch {words}.", refs=refs, mentions=mentions)


@goals.add("echo", 0.7)
def echo(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    bashrc = f"{home}/.bashrc"
    if rng.random() < 0.5 and bashrc in b["files"] and b["files"][bashrc]["writable"]:
        text = rng.choice(BASHRC_LINES)
        return Ask({"text": text, "file": bashrc, "append": True},
                   say=f"Use echo to append a line to the end of {bashrc}.",
                   terse=_cmd(f"echo \"{text}\" >> {bashrc}"), detail=f'The line is: "{text}".',
                   mentions=(text, bashrc))
    path = _pick(rng, [f"{home}/{p}" for p in ECHO_FILES if f"{home}/{p}" not in b["nodes"]])
    if path is None:
        return None
    text = rng.choice(ECHO_TEXTS)
    return Ask({"text": text, "file": path},
               say=f"Echo the text '{text}' into a new file {path}.", terse=_cmd(f"echo '{text}' > {path}"),
               mentions=(text, path))


@goals.add("write_file")
def write_file(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    choices = [(f"{home}/{p}", lines) for p, lines in WRITE_FILES if f"{home}/{p}" not in b["nodes"]
               and f"{home}/{p}".rsplit("/", 1)[0] in b["nodes"]]
    if not choices:
        return None
    path, lines = rng.choice(choices)
    quoted = ", ".join(f'"{line}"' for line in lines[:-1]) + f' and "{lines[-1]}"'
    return Ask({"path": path, "content": "\n".join(lines) + "\n"}, say=f"Create the file {path}.",
               terse=f"Write {path} with the lines {quoted}.",
               detail=f"Put these lines in it, each on its own line: {quoted}.", mentions=(path, *lines))


@goals.add("append_file")
def append_file(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    targets = [(p, TODO_ITEMS, "- [ ] ") for p in (f"{home}/notes/todo.md",)]
    targets += [(p, IDEAS, "- ") for p in (f"{home}/notes/ideas.md",)]
    targets = [t for t in targets if t[0] in b["files"] and b["files"][t[0]]["writable"]]
    if not targets:
        return None
    path, pool, prefix = rng.choice(targets)
    line = prefix + rng.choice(pool)
    words, refs, mentions = name_file(b, rng, path, BY_NAME)
    list_name = "to-do list" if "todo" in path else "list of ideas"
    return Ask({"path": path, "content": line + "\n"}, say=f"Add a new line at the end of my {list_name}, {words}.",
               terse=f"Append '{line}' to {words}.", detail=f'The line is: "{line}".', refs=refs,
               mentions=mentions + (line,))


def _replacements(b: Bundle) -> list[tuple[str, str, str]]:
    """(file, old, new) edits a person would ask for in config files: values that occur once."""
    out = []
    for path in _editable(b, b["read"]):
        text = "\n".join(b["files"][path]["lines"])
        name = path.rsplit("/", 1)[1]
        options: list[tuple[str, str]] = []
        for m in re.finditer(r"^\s*(port|workers|pool_size|level|debug): ?(\S+)$", text, re.MULTILINE):
            key, value = m.group(1), m.group(2)
            new = {"port": "9090" if value in ("8000", "8080", "5000") else "5433", "workers": "8",
                   "pool_size": "10", "level": "DEBUG", "debug": "true"}[key]
            if new != value:
                options.append((f"{key}: {value}", f"{key}: {new}"))
        if name.endswith(".json"):
            for m in re.finditer(r'"(tab_size|theme)": ("?[\w-]+"?)', text):
                new = {"tab_size": "2" if m.group(2) != "2" else "4", "theme": '"solarized-light"'}[m.group(1)]
                if new != m.group(2):
                    options.append((m.group(0), f'"{m.group(1)}": {new}'))
        if name == "pyproject.toml":
            m = re.search(r'version = "(\d+)\.(\d+)\.(\d+)"', text)
            if m:
                options.append((m.group(0), f'version = "{m.group(1)}.{int(m.group(2)) + 1}.0"'))
        if name == "requirements.txt":
            m = re.search(r"flask==[\d.]+", text)
            if m:
                options.append((m.group(0), "flask==3.1.0"))
        if name == ".gitconfig":
            options.append(("defaultBranch = main", "defaultBranch = trunk"))
        for old, new in options:
            if text.count(old) == 1 and old != new:
                out.append((path, old, new))
    return out


@goals.add("replace_in_file", 1.2)
def replace_in_file(b: Bundle, rng: random.Random) -> Ask | None:
    edit = _pick(rng, _replacements(b))
    if edit is None:
        return None
    path, old, new = edit
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    return Ask({"path": path, "old": old, "new": new}, say=f"In {words}, please change '{old}'.",
               terse=f"In {words}, replace '{old}' with '{new}'.", detail=f"It should read '{new}' instead.",
               refs=refs, mentions=mentions + (old, new))


@goals.add("insert_lines", 0.6)
def insert_lines(b: Bundle, rng: random.Random) -> Ask | None:
    """A new first item of a list file (the items start on line 3, under a heading and a blank line)."""
    home = b["home"]
    lists = {f"{home}/notes/reading-list.md": ("book", "reading list", ["*Deep Work* by Cal Newport",
                                                                        "*Thinking in Systems* by Donella Meadows"]),
             f"{home}/notes/todo.md": ("task", "to-do list", [f"[ ] {item}" for item in TODO_ITEMS[:4]])}
    path = _pick(rng, [p for p in lists if p in b["files"] and b["files"][p]["writable"]
                       and len(b["files"][p]["lines"]) >= 3 and b["files"][p]["lines"][1] == ""])
    if path is None:
        return None
    line = 3
    thing, list_name, items = lists[path]
    text = f"- {rng.choice(items)}"
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    return Ask({"path": path, "line": line, "text": text},
               say=f"Put a new {thing} at the top of my {list_name}, {words}, as a new line before line {line}.",
               terse=f"Insert '{text}' before line {line} of {words}.", detail=f'The line is: "{text}".', refs=refs,
               mentions=mentions + (text, str(line)))


@goals.add("delete_lines", 0.7)
def delete_lines(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    candidates = [p for p in (f"{home}/notes/ideas.md",) if p in b["files"]]
    candidates += [p for p in b["read"] if p.startswith(f"{home}/notes/meeting-")]
    path = _pick(rng, _editable(b, candidates))
    if path is None:
        return None
    lines = b["files"][path]["lines"]
    numbered = [i for i, line in enumerate(lines, 1) if line.startswith("- ")]
    if not numbered:
        return None
    start = rng.choice(numbered)
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    if rng.random() < 0.5 and start + 1 in numbered:
        return Ask({"path": path, "start_line": start, "end_line": start + 1},
                   say=f"Delete lines {start} and {start + 1} from {words}.",
                   terse=f"Delete lines {start}-{start + 1} of {words}.", refs=refs,
                   mentions=mentions + (str(start), str(start + 1)))
    return Ask({"path": path, "start_line": start},
               say=f"Remove line {start} from {words}; it's the one that says \"{lines[start - 1]}\".",
               terse=f"Delete line {start} of {words}.", refs=refs, mentions=mentions + (str(start),))


@goals.add("sed", 0.8)
def sed(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    edits = []
    for path in _editable(b, b["read"]):
        text = "\n".join(b["files"][path]["lines"])
        if path.endswith(".bashrc") and "EDITOR=vim" in text:
            edits.append((path, "vim", "nano"))
        if path.endswith("style.css"):
            for color in sorted(set(re.findall(r"#[0-9a-f]{6}", text))):
                edits.append((path, color, "#1d3557"))
        if path.startswith(f"{home}/logs/") and b["user"] in text:
            edits.append((path, b["user"], "REDACTED"))
        if path.endswith("index.html") and "<h1>" in text:
            edits.append((path, "h1", "h2"))
    edit = _pick(rng, edits)
    if edit is None:
        return None
    path, pattern, replacement = edit
    words, refs, mentions = name_file(b, rng, path, BY_TEXT)
    return Ask({"path": path, "pattern": pattern, "replacement": replacement, "in_place": True},
               say=f"Use sed to replace every '{pattern}' in {words}, editing the file in place.",
               terse=f"sed -i 's/{pattern}/{replacement}/g' on {words}.",
               detail=f"Replace it with '{replacement}'.", refs=refs, mentions=mentions + (pattern, replacement))


@goals.add("mv", 1.2)
def mv(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, b["mv"])
    if path is None:
        return None
    folder, name = path.rsplit("/", 1)
    words, refs, mentions = name_file(b, rng, path, BY_NAME)
    if rng.random() < 0.5:
        into = f"{b['home']}/documents"
        if rng.random() < 0.5:
            return Ask({"source": path, "destination": into}, say=f"Move {words} to another folder.",
                       terse=f"mv {words} {into}.", detail=f"Put it in {into}.", refs=refs,
                       mentions=mentions + (into,))
        return Ask({"source": path, "destination": into}, say=f"Move {words} into {into}.",
                   terse=f"mv {words} {into}.", refs=refs, mentions=mentions + (into,))
    stem = name.rsplit(".", 1)[0].replace(" ", "-").replace("(", "").replace(")", "")
    new = f"{folder}/{stem}-{rng.choice(['old', 'keep', '2026'])}.txt"
    return Ask({"source": path, "destination": new}, say=f"Rename {words}.", terse=f"Rename {words} to {new}.",
               detail=f"The new path should be {new}.", refs=refs, mentions=mentions + (new,))


@goals.add("cp")
def cp(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    if rng.random() < 0.3:
        top = _pick(rng, [a for a in b["areas"] if a.endswith(("notes", "scripts", "documents"))])
        if top is None or f"{top}-backup" in b["nodes"]:
            return None
        return Ask({"source": top, "destination": f"{top}-backup", "recursive": True},
                   say=f"Make a full copy of the folder {top}, with everything in it, at {top}-backup.",
                   terse=_cmd(f"cp -r {top} {top}-backup"), mentions=(top, f"{top}-backup"))
    path = _pick(rng, [p for p in b["read"] if p.startswith(home + "/")])
    words, refs, mentions = name_file(b, rng, path, BY_NAME)
    if rng.random() < 0.5:
        return Ask({"source": path, "destination": "/tmp"}, say=f"Put a copy of {words} in /tmp.",
                   terse=f"cp {words} /tmp.", refs=refs, mentions=mentions + ("/tmp",))
    backup = path + ".bak"
    if backup in b["nodes"]:
        return None
    return Ask({"source": path, "destination": backup}, say=f"Make a backup copy of {words}.",
               terse=f"Copy {words} to {backup}.", detail=f"Save it as {backup}.", refs=refs,
               mentions=mentions + (backup,))


@goals.add("rm", 1.2)
def rm(b: Bundle, rng: random.Random) -> Ask | None:
    style = rng.random()
    if style < 0.15 and b["rm_dirs"]:
        top = rng.choice(b["rm_dirs"])
        return Ask({"path": top, "recursive": True}, say=f"Delete the folder {top} and everything inside it.",
                   terse=_cmd(f"rm -r {top}"), mentions=(top,))
    if style < 0.3 and b["rm_globs"]:
        pattern = rng.choice(b["rm_globs"])
        return Ask({"path": pattern}, say=f"Delete all the files matching {pattern}.", terse=_cmd(f"rm {pattern}"),
                   mentions=(pattern,))
    if style < 0.45 and b["force_rm"]:
        path = rng.choice(b["force_rm"])
        return Ask({"path": path, "force": True},
                   say=f"Delete {_q(path)}. It's write-protected, so force it.", terse=_cmd(f"rm -f {_q(path)}"),
                   mentions=(path,))
    path = _pick(rng, b["rm"])
    if path is None:
        return None
    words, refs, mentions = name_file(b, rng, path, BY_NAME)
    return Ask({"path": path}, say=rng.choice([f"Delete {words}.", f"I don't need {words} anymore; please remove it."]),
               terse=f"rm {words}.", refs=refs, mentions=mentions)


@goals.add("rmdir", 0.5)
def rmdir(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, b["empty_dirs"])
    if path is None:
        return None
    return Ask({"path": path}, say=f"Remove the empty folder {path}.", terse=_cmd(f"rmdir {path}"), mentions=(path,))


@goals.add("symlink", 0.5)
def symlink(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    options = [(f"{home}/todo", f"{home}/notes/todo.md"), (f"{home}/site", f"{home}/projects/portfolio-site"),
               (f"{home}/journal", f"{home}/notes/journal"), (f"{home}/sales.csv", f"{home}/data/sales-2025.csv"),
               (f"{home}/errors.log", f"{home}/logs/error.log")]
    options = [(link, target) for link, target in options if link not in b["nodes"] and target in b["nodes"]]
    pick = _pick(rng, options)
    if pick is None:
        return None
    link, target = pick
    return Ask({"target": target, "link_path": link},
               say=f"Create a symbolic link at {link}.", terse=_cmd(f"ln -s {target} {link}"),
               detail=f"It should point to {target}.", mentions=(link, target))


_MODES = {"script": ("700", "750", "644"), "file": ("600", "640", "664"), "dir": ("700", "750")}


@goals.add("chmod", 0.8)
def chmod(b: Bundle, rng: random.Random) -> Ask | None:
    """Modes that make sense for the entry (scripts run, documents stay private, folders stay
    enterable) and always keep the owner able to read and write."""
    home, nodes = b["home"], b["nodes"]
    options = []
    for path in b["read"] + b["areas"]:
        node = nodes[path]
        if node["owner"] != b["user"] or not path.startswith(home + "/"):
            continue
        kind = "dir" if node["kind"] == "dir" else "script" if path.endswith((".sh", ".py")) else "file"
        options += [(path, mode) for mode in _MODES[kind] if int(mode, 8) != int(node["mode"], 8) & 0o7777]
    if not options:
        return None
    path, mode = rng.choice(options)
    symbolic = {"0644": {"600": "go-r", "664": "g+w"}, "0755": {"700": "go-rx", "644": "a-x"}}
    symbolic = symbolic.get(nodes[path]["mode"], {})
    if mode in symbolic and rng.random() < 0.4:
        mode = symbolic[mode]
        return Ask({"path": path, "mode": mode}, say=f"Run chmod {mode} on {_q(path)}.",
                   terse=_cmd(f"chmod {mode} {_q(path)}"), mentions=(mode, path))
    words, refs, mentions = name_file(b, rng, path, BY_NAME)
    return Ask({"path": path, "mode": mode}, say=f"Change the permissions of {words}.",
               terse=f"chmod {mode} {words}.", detail=f"Set them to {mode}.", refs=refs, mentions=mentions + (mode,))


@goals.add("tar_create", 0.6)
def tar_create(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, [a for a in b["areas"] if not a.endswith("logs")])
    if top is None:
        return None
    name = top.rsplit("/", 1)[1]
    archive = rng.choice([f"/tmp/{name}-backup.tar", f"{b['home']}/{name}.tar"])
    if archive in b["nodes"]:
        return None
    return Ask({"archive": archive, "paths": [top]}, say=f"Pack the whole {top} folder into one archive.",
               terse=_cmd(f"tar -cf {archive} {top}"), detail=f"Write the archive to {archive}.",
               mentions=(top, archive))


def _packed(b: Bundle, rng: random.Random) -> tuple[str, str] | None:
    """A folder and a new archive for it: the seed holds no archive, so listing or unpacking one
    starts by packing it."""
    top = _pick(rng, [a for a in b["areas"] if not a.endswith("logs")])
    if top is None:
        return None
    archive = f"/tmp/{top.rsplit('/', 1)[1]}-backup.tar"
    return None if archive in b["nodes"] else (top, archive)


@goals.add("tar_list", 0.3)
def tar_list(b: Bundle, rng: random.Random) -> Ask | None:
    packed = _packed(b, rng)
    if packed is None:
        return None
    top, archive = packed
    return Ask({"archive": archive}, say=f"Pack the {top} folder into {archive}, then tell me what went into it.",
               terse=_cmd(f"tar -cf {archive} {top} && tar -tf {archive}"), mentions=(top, archive),
               prior=(("tar_create", {"archive": archive, "paths": [top]}),))


@goals.add("tar_extract", 0.3)
def tar_extract(b: Bundle, rng: random.Random) -> Ask | None:
    packed = _packed(b, rng)
    if packed is None or "/tmp" not in b["nodes"]:
        return None
    top, archive = packed
    return Ask({"archive": archive, "directory": "/tmp"},
               say=f"Back up {top} as {archive}, then unpack a copy of that archive into /tmp.",
               terse=_cmd(f"tar -cf {archive} {top} && tar -xf {archive} -C /tmp"), mentions=(top, archive),
               prior=(("tar_create", {"archive": archive, "paths": [top]}),))


# -- what only the hidden tool could do -------------------------------------------------------------

def raw_nodes(b: Bundle, rng: random.Random) -> str | None:
    top = rng.choice([b["home"]] + b["areas"])
    return rng.choice([
        f"Dump the raw rows of the file system's internal node table under {top}, every database field included.",
        (f"I'm debugging the virtual file system: give me the raw internal node records (path, kind, mode, "
         f"owner, raw mtime) for everything below {top}, straight from the database."),
        "Print the internal debug dump of every node record in the whole file system table.",
    ])


recipe = Recipe(server="filesystem", sample=sample, topics=("files",), goals=goals.all, lookups=(
    Lookup("file", "search_files", args=lambda r: {"query": r.entity["query"], "path": r.entity["dir"]}),
    Lookup("path", "find", args=lambda r: {"path": r.entity["dir"], "name": r.entity["name"]}),
), hidden=(HiddenAsk("debug_nodes", raw_nodes),))
