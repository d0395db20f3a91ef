"""How tasks are written for the file system: one user at their shell, asking for things in their
home directory (and a few system folders) by absolute path, by name ("my file called todo.md
somewhere under /home/maria/notes", "todo.md in /home/maria/notes") or by what a file says ("the
note under /home/maria/notes that mentions 'budget review'").

Every path a request gives is absolute, so gold arguments never depend on the working directory
(only `cd` requests are about it). Requests that change the world draw on separate pools of files
(one pool to delete, one to move, one per kind of edit, fresh names per kind of creation), so two
requests of one task rarely trip over each other.

Every request comes in several phrasings (plain, polite, chatty, indirect, and terse ones for the
minimal level), said the way a person wants something done rather than as a shell command. A
request that asks to be told something declares its facts: the few values of the serving call's
result the answer must state (a file's lines, the names a search finds, a count, a size, a
checksum), read from the result as the tool returns it (plain text for the shell commands).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import random
import re
from collections.abc import Callable, Sequence
from typing import Any

from prove_env.facts import ABSENT, NOTHING, one_of, quantity
from prove_env.synthesis.recipe import Ask, Goal, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref

from .helpers import human_size, sort_lines

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
# File types as people say them ("my Markdown files"); the extension itself is said as well.
_KINDS = {".md": "Markdown", ".csv": "CSV", ".py": "Python", ".log": "log", ".txt": "text", ".sh": "shell script",
          ".html": "HTML", ".css": "CSS", ".js": "JavaScript", ".json": "JSON", ".yaml": "YAML", ".toml": "TOML",
          ".ini": "INI"}
_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh"}


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """One bundle: the logged-in user's home with every node, the text of every readable file,
    and the ways each file can be named (a unique name under its area, a unique phrase it
    contains), the pools each kind of change draws on, and the groups of identical files."""
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
    b["dups"] = [g["paths"] for g in read("find_duplicates", path=home)["groups"]]
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
    # An empty folder is either removed or filled with a new folder, never both in one world.
    shared = sorted({f"{home}/{d}".rsplit("/", 1)[0] for d in NEW_DIRS} & set(b["empty_dirs"]))
    b["rmdir"] = [d for d in b["empty_dirs"] if d not in shared[:1]]
    b["new_dirs"] = [f"{home}/{d}" for d in NEW_DIRS if f"{home}/{d}" not in nodes
                     and f"{home}/{d}".rsplit("/", 1)[0] in set(nodes) - set(b["rmdir"])]
    busy = set(b["rm"]) | set(b["mv"]) | set(b["force_rm"])
    busy |= {p for p in files for d in b["rm_dirs"] + [f"{home}/logs/archive"] if p.startswith(d + "/")}
    b["read"] = sorted(p for p in files if p not in busy and files[p]["lines"])
    b["links"] = sorted(p for p, n in nodes.items() if n["kind"] == "symlink" and p.startswith(home + "/"))
    b["dirs"] = sorted(p for p, n in nodes.items() if n["kind"] == "dir" and p.startswith(home) and "/." not in p
                       and not any(p.startswith(d) for d in b["rm_dirs"] + [f"{home}/logs/archive"]))


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
    """For files and folders: the folder under which their name is unique (the area, else the home),
    never the folder they sit right in (there they are named by that folder, with no look-up)."""
    names: dict[str, str] = {}
    every = list(b["nodes"])
    for path in b["read"] + b["dirs"] + b["mv"] + b["rm"]:
        if not path.startswith(b["home"] + "/"):
            continue
        name = path.rsplit("/", 1)[1]
        if len(re.findall(r"[A-Za-z]", name.rsplit(".", 1)[0])) < 3:
            continue  # nobody calls a file '07.md' by name alone
        for top in (_area(path, b["home"]), b["home"]):
            # a file said to be 'somewhere under' the folder it sits right in is looked up for nothing:
            # 'cover-letter.txt (it's somewhere in ~/documents)' opens as ~/documents/cover-letter.txt
            if top == path or not path.startswith(top + "/") or path.rsplit("/", 1)[0] == top:
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
        if values and all(_number(v.strip()) is not None for v in values):
            numeric.append(name)
    return {"header": header, "numeric": numeric}


# -- how people name files -------------------------------------------------------------------------

def _q(path: str) -> str:
    """A path as a person types it in a message: quoted when it has a space."""
    return f'"{path}"' if " " in path else path


def name_file(b: Bundle, rng: random.Random, path: str, how: tuple[float, float, float, float]
              ) -> tuple[str, tuple, tuple]:
    """(words, refs, mentions) naming `path` by its full path, by what it says, by its name under
    a folder it is unique in, or by its name and the folder it sits in; `how` weighs the four
    ways (a way that cannot single the file out is skipped)."""
    ways = ["path", "text", "name", "folder"]
    folder, name = path.rsplit("/", 1)
    weights = [how[0], how[1] if path in b["by_text"] else 0, how[2] if path in b["by_name"] else 0,
               how[3] if folder and name and not name.startswith(".") else 0]
    way = rng.choices(ways, weights=weights)[0]
    noun = _noun(path) if b["nodes"][path]["kind"] != "dir" else "folder"
    named = _after_name(name, noun)  # the noun after the file's own name: 'the app.log file', not 'log'
    if way == "text":
        phrase, area = b["by_text"][path]
        words = rng.choice([f'the {noun} under {area} that mentions "{phrase}"',
                            # not 'with "..." in it', which after 'the lines of' reads as the lines holding it
                            f'my {noun} under {area} that has "{phrase}" in it',
                            f'the {noun} under {area} where I wrote "{phrase}"',
                            # 'the', not 'that': nothing earlier pointed at it (filesystem-15500000-0001)
                            f'the {noun} somewhere in {area} that says "{phrase}"'])
        return words, (Ref("file", path, {"query": phrase, "dir": area}),), (area, phrase)
    if way == "name":
        top = b["by_name"][path]
        words = rng.choice([f"my {noun} called {_q(name)} somewhere under {top}",
                            f"the {noun} named {_q(name)} (it's somewhere in {top})",
                            f"the {_q(name)} {named} somewhere below {top}",
                            f"the {_q(name)} {named} I keep somewhere under {top}"])
        return words, (Ref("path", path, {"name": name, "dir": top}),), (name, top)
    if way == "folder":
        said = _q(name)
        # a folder named by a number alone reads as a count ('the 11 folder'): its name is quoted
        numbered = noun == "folder" and not re.search(r"[A-Za-z]", name)
        words = rng.choice([f'the folder "{name}" in {folder}', f'my folder "{name}" in {folder}'] if numbered
                           else [f"the {said} folder in {folder}", f"my {said} folder in {folder}"] if noun == "folder"
                           # a name without an extension said bare reads as a word ('Read timezone (it's in
                           # /etc) out to me'): it is said with its noun
                           else [f"the {said} {named} in {folder}", f"the {said} {named} (it's in {folder})"]
                           if not _ext(path) else [f"{said} in {folder}", f"the {said} {named} in {folder}",
                                                   f"{said} (it's in {folder})"])
        return words, (), (name, folder)
    return (rng.choice([_q(path), _q(path), f"the {noun} {_q(path)}"]), (), (path,))


BY_TEXT = (0.35, 0.35, 0.1, 0.2)  # tools taking a file: by path, by content, by name, by folder and name
BY_NAME = (0.4, 0.0, 0.4, 0.2)  # tools taking a path: by path, by name, by folder and name
BY_PATH = (0.6, 0.0, 0.0, 0.4)  # a file a shown tool finds by its name itself: by path, by folder and name


def _after_name(name: str, noun: str) -> str:
    """The noun said right after a file's name: 'file' where the name already says the noun ('the
    app.log file', 'the notes.md file', 'the settings.json file'; not 'the app.log log')."""
    if noun == "folder":
        return noun
    parts = [p for p in re.split(r"[^a-z0-9]+", name.lower()) if p]
    return "file" if any(p.startswith(w) for w in noun.lower().split() for p in parts) else noun


def _noun(path: str) -> str:
    """What a person calls the file: a Markdown file is a note only among the notes (a project's
    README.md, a resume.md in documents are files, not notes)."""
    noun = _NOUNS.get(_ext(path), "file")
    return "file" if noun == "note" and "/notes/" not in path else noun


def _ext(path: str) -> str:
    """A file's extension as people say it ('.md'), or '' (none, or a rotation suffix like '.1')."""
    name = path.rsplit("/", 1)[1].lstrip(".")
    ext = "." + name.rsplit(".", 1)[1] if "." in name else ""
    return ext if re.fullmatch(r"\.[a-z][a-z0-9]{0,4}", ext) else ""


def _kind(ext: str) -> str:
    """'Markdown (.md)' files, or '.cfg' files when the type has no common name."""
    return f"{_KINDS[ext]} ({ext})" if ext in _KINDS else ext


def _pick(rng: random.Random, items: Sequence) -> Any:
    return rng.choice(list(items)) if items else None


def _ended(sentence: str) -> str:
    """A sentence with its full stop, unless it ends in a quotation that has one: 'the one that says
    "- [ ] Call Ana."', never '... "- [ ] Call Ana.".'."""
    return sentence if re.search(r"[.!?]\"$", sentence) else sentence + "."


def _one(rng: random.Random, *options: str) -> str:
    return rng.choice(options)


def _text_files(b: Bundle, *, min_lines: int = 1, under: str | None = None, ext: tuple[str, ...] = ()) -> list[str]:
    return [p for p in b["read"] if len(b["files"][p]["lines"]) >= min_lines
            and (under is None or p.startswith(under)) and (not ext or p.endswith(ext))]


def _editable(b: Bundle, paths: list[str]) -> list[str]:
    return [p for p in paths if b["files"][p]["writable"]]


def _tops(b: Bundle) -> list[str]:
    return b["areas"] + [b["home"]]


# -- what an answer must state: facts read from a result ------------------------------------------------

_MARKUP = re.compile(r"^(?:#+\s*|>\s*|[-*+]\s+(?:\[[ xX]\]\s*)?|\d+[.)]\s+)")
_LOG_LINE = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?\s+[A-Z]+\s+(?:\[[^\]]*\]\s+)?(?P<message>.+)$")
_CLIPPED = re.compile(r"^\.\.\. \[\d+ more lines? not shown")


def _gist(line: str, width: int = 50) -> str | None:
    """What a person would quote of a line: its words without list markers, heading signs or a
    log line's time stamp, the longest run between markup characters, cut at a space (or else where
    a word ends: 'www-data:x:33:33:www-data:/var/www') before `width` characters; None for a line
    with no words."""
    text = line.strip()
    if not text or _CLIPPED.match(text):
        return None
    log = _LOG_LINE.match(text)
    if log:
        text = log.group("message")
    text = _MARKUP.sub("", text).strip()
    text = max((piece.strip(" ,;:.") for piece in re.split(r"[*`|]+", text)), key=len, default="")
    if len(text) > width:  # cut where a word ends, so that the whole line printed back states it
        space = text.rfind(" ", 0, width)
        ends = [m.start() for m in re.finditer(r"\W", text[:width + 1]) if m.start() >= 20]
        text = text[:space] if space >= 20 else text[:ends[-1]] if ends else text[:width]
        text = text.rstrip(" ,;:")  # a quote ends at a word: 'name='a'', not 'name='a','
    return text if sum(c.isalnum() for c in text) >= 3 else None


def _cell(text: str) -> str:
    """A table cell as a fact, as written: '137.60' (stated in a table, or by the raw rows printed
    back: a number written as text is also read as a whole cell of a comma-separated row)."""
    return text.strip()


def _cells(cells: Sequence[str], k: int) -> list[str]:
    """The first `k` different cells, as facts."""
    return list(dict.fromkeys(_cell(c) for c in cells if c.strip()))[:k]


def _rows(lines: list[str]) -> list[list[str]] | None:
    """The rows of comma-separated lines (two or more, each with the same number of commas)."""
    lines = [line for line in lines if line.strip()]
    commas = {line.count(",") for line in lines}
    if len(lines) < 2 or len(commas) != 1 or commas == {0}:
        return None
    return [line.split(",") for line in lines]


def _leaves(value: Any) -> list[Any]:
    """The scalar values of parsed JSON, in order (text as quoted, booleans left out)."""
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, str):
        gist = _gist(value)
        return [gist] if gist else []
    return [value]


def _content(result: Any, k: int = 3) -> list[Any]:
    """A few things a file's text (or part of it) says: its first lines and its last one; cells
    of the first and last rows of comma-separated data. A file holding JSON arrives parsed: its
    first values."""
    if not isinstance(result, str):
        return _leaves(result)[:k]
    lines = [line for line in result.splitlines() if not _CLIPPED.match(line.strip())]
    rows = _rows(lines)
    if rows:
        return _cells(rows[0][:2] + rows[-1][:1], k)
    gists = list(dict.fromkeys(g for g in map(_gist, lines) if g))
    return gists if len(gists) <= k else gists[:k - 1] + gists[-1:]


def _text(result: Any) -> str:
    """A shell command's output as printed: text that reads as JSON arrives parsed ('2025' as a
    number), so it is written back."""
    return result if isinstance(result, str) else json.dumps(result)


def _base(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def _names(paths: Sequence[str], k: int = 4) -> list[str]:
    """The names of the first `k` paths of a listing."""
    return list(dict.fromkeys(_base(p) for p in paths if p.strip()))[:k]


def _path_lines(result: Any) -> list[str]:
    """The paths a `find` prints (its notes and '(no matches)' left out)."""
    return [line for line in _text(result).splitlines()
            if line.strip() and not line.startswith(("find:", "(no matches)")) and not _CLIPPED.match(line)]


def _grep_lines(result: Any) -> list[str]:
    """The text of each line `grep -n` prints ('12:text' or 'path:12:text')."""
    out = []
    for line in _text(result).splitlines():
        m = re.match(r"^(?:[^:\n]*/[^:\n]*:)?\d+:(.*)$", line)
        if m:
            out.append(m.group(1))
    return out


def _ls_names(result: Any) -> list[str]:
    """The names `ls` prints, one per line, or the last column of `ls -l` (without '-> target')."""
    text = _text(result)
    if text.strip() == "(empty directory)":
        # 'it's empty', and as well 'there's nothing in it', 'it has no files'
        return [one_of("empty", *NOTHING["one_of"])]
    names = []
    for line in text.splitlines():
        if not line.strip() or line.endswith(":"):
            continue
        parts = line.split(None, 6)
        if len(parts) == 7 and re.fullmatch(r"[-dl][rwxsStT-]{9}", parts[0]):
            line = parts[6].split(" -> ")[0]
        names.append(line.strip())
    return names


# -- reading -----------------------------------------------------------------------------------------

goals = Goals()


@goals.add("cat", 1.5)
def cat(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, [p for p in _text_files(b) if len(b["files"][p]["lines"]) <= 60])
    if path is None:
        return None
    w, refs, mentions = name_file(b, rng, path, BY_TEXT)
    say = _one(rng, f"Show me what's in {w}.", f"Can you print {w}?", f"Please display the contents of {w}.",
               f"Could you pull up {w} for me? I'd like to read it.",
               # not 'Read {w} out to me': a file named by what it says puts a clause between the verb
               # and its particle ('Read my config file ... that has "x" in it out to me')
               f"I can't remember what I put in {w}. Can you show it to me?", f"Read me {w}, please.",
               f"I need to check {w}; could you show me the whole thing?")
    return Ask({"path": path}, say=say, terse=_one(rng, f"Print {w}.", f"Contents of {w}?", f"Show {w}."),
               refs=refs, mentions=mentions, facts=_content)


@goals.add("head")
def head(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, _text_files(b, min_lines=12))
    if path is None:
        return None
    n = rng.choice([3, 5, 8])
    w, refs, mentions = name_file(b, rng, path, BY_TEXT)
    args, mentions = {"path": path, "n": n}, mentions + (str(n),)
    terse = _one(rng, f"First {n} lines of {w}.", f"Top {n} lines of {w}?", f"{n} lines from the top of {w}.")
    # the number of lines is never held back: head shows 10 unless told, and an assistant may rightly do so
    return Ask(args, say=_one(rng, f"What are the first {n} lines of {w}?", f"Show me the first {n} lines of {w}.",
                              f"Could you print just the opening {n} lines of {w}?",
                              f"I only need the top {n} lines of {w}, nothing more.",
                              f"Let me see the beginning of {w}: the first {n} lines.",
                              f"How does {w} start? The first {n} lines will do."),
               terse=terse, refs=refs, mentions=mentions, facts=_content)


@goals.add("tail")
def tail(b: Bundle, rng: random.Random) -> Ask | None:
    logs = _text_files(b, min_lines=12, ext=(".log",))
    path = _pick(rng, logs or _text_files(b, min_lines=12))
    if path is None:
        return None
    # a count that cuts the file: "the last 20 lines" of a log of 15 is the whole log
    n = rng.choice([k for k in (5, 15, 20) if k < len(b["files"][path]["lines"])])
    w, refs, mentions = name_file(b, rng, path, BY_TEXT)
    args, mentions = {"path": path, "n": n}, mentions + (str(n),)
    terse = _one(rng, f"Last {n} lines of {w}.", f"Bottom {n} lines of {w}?", f"{w}: the last {n} lines.")
    # every wording asks for the lines (the facts quote the first and last of them), none for what went
    # wrong: an answer naming only the errors would be right for that and would state none of them
    return Ask(args, say=_one(rng, f"What are the last {n} lines of {w}?", f"Show me the final {n} lines of {w}.",
                              f"Could you print the last {n} lines of {w} for me?",
                              f"Let me see the last {n} lines of {w}, exactly as written.",
                              f"Show me the end of {w}, the last {n} lines.",
                              f"I want to check the latest entries in {w}: just the final {n} lines."),
               terse=terse, refs=refs, mentions=mentions, facts=_content)


@goals.add("read_file", 0.7)
def read_file(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, _text_files(b, min_lines=8))
    if path is None:
        return None
    total = len(b["files"][path]["lines"])
    start = rng.randint(2, total - 4)
    end = min(total, start + rng.choice([2, 3, 5]))
    if not any(map(_gist, b["files"][path]["lines"][start - 1:end])):
        return None  # lines with no words to quote ('}', blank): nothing to tell
    w, refs, mentions = name_file(b, rng, path, BY_TEXT)
    args, mentions = {"path": path, "start_line": start, "end_line": end}, mentions + (str(start), str(end))
    terse = _one(rng, f"Lines {start}-{end} of {w}.", f"{w}, lines {start} to {end}.")
    facts = lambda r: _content(r["content"])
    if rng.random() < 0.3:
        return Ask(args, say=_one(rng, f"I want to look at part of {w}.", f"Could you read me a few lines of {w}?"),
                   terse=terse, detail=_one(rng, f"Lines {start} to {end}.", f"Lines {start} through {end}.",
                                            f"From line {start} to line {end}, please."),
                   refs=refs, mentions=mentions, facts=facts)
    return Ask(args, say=_one(rng, f"Read me lines {start} to {end} of {w}.",
                              f"What's on lines {start} through {end} of {w}?",
                              f"Could you show me lines {start}-{end} of {w}?",
                              f"I only need lines {start} to {end} from {w}; can you pull those up?"),
               terse=terse, refs=refs, mentions=mentions, facts=facts)


def _wc(r: Any) -> list[int]:
    """lines, words and bytes from `wc`'s 'lines words bytes path'."""
    return [int(n) for n in _text(r).split()[:3]]


@goals.add("wc", 0.7)
def wc(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, _text_files(b, min_lines=3))
    if path is None:
        return None
    w, refs, mentions = name_file(b, rng, path, BY_TEXT)
    style = rng.randrange(4)
    if style == 0:
        say = _one(rng, f"Count the lines, words and bytes in {w}.", f"Could you run a word count on {w}? Lines, "
                   "words and bytes, please.", f"How many lines, words and bytes does {w} have?")
        return Ask({"path": path}, say=say, terse=f"Lines, words and bytes of {w}?", refs=refs, mentions=mentions,
                   facts=_wc)
    if style == 1:
        say = _one(rng, f"How many lines does {w} have?", f"How long is {w}, in lines?",
                   f"Quick one: what's the line count of {w}?",
                   f"I wonder how many lines {w} has by now. Can you check?")
        return Ask({"path": path}, say=say, terse=_one(rng, f"Line count of {w}?", f"Lines in {w}?"), refs=refs,
                   mentions=mentions, facts=lambda r: _wc(r)[:1])
    if style == 2:
        say = _one(rng, f"How many words are in {w}?", f"Could you tell me the word count of {w}?",
                   f"I'm curious how wordy {w} is. How many words?")
        return Ask({"path": path}, say=say, terse=f"Word count of {w}?", refs=refs, mentions=mentions,
                   facts=lambda r: _wc(r)[1:2])
    say = _one(rng, f"How many lines and words does {w} have?", f"Give me the line and word counts for {w}.")
    return Ask({"path": path}, say=say, terse=f"Lines and words in {w}?", refs=refs, mentions=mentions,
               facts=lambda r: _wc(r)[:2])


_GREP_WORDS = ("ERROR", "WARN", "TODO", "FIXME", "import", "timeout", "Attendees", "port", "return", "def")


def _lines_under(b: Bundle, top: str) -> list[str]:
    """The lines a search under `top` reads: of every file the user can read there."""
    return [line for p, f in b["files"].items() if p.startswith(top + "/") for line in f["lines"]]


def _as_word(word: str, lines: Sequence[str], ignore_case: bool = False) -> bool:
    """Whether `word` stands in `lines`, and only as a word of its own: 'port' in 'port: 8080', never
    inside 'important' or 'sport', where "every line mentioning 'port'" would be answered with lines
    about neither (a search for it that finds those reads as a search for them)."""
    found = re.findall(rf"[A-Za-z]*{re.escape(word)}[A-Za-z]*", "\n".join(lines), re.I if ignore_case else 0)
    return bool(found) and all(len(f) == len(word) for f in found)


def _matched(r: Any) -> list[Any]:
    return _content("\n".join(_grep_lines(r)))


@goals.add("grep", 1.5)
def grep(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, _text_files(b, min_lines=5))
    if path is None:
        return None
    lines = b["files"][path]["lines"]
    patterns = [w for w in _GREP_WORDS if any(w in line for line in lines)]
    patterns += [w for w in re.findall(r"[A-Za-z]{5,}", " ".join(lines[:20]))][:3]
    patterns = [w for w in patterns if _as_word(w, lines)]
    pattern = _pick(rng, patterns)
    if pattern is None:
        return None
    # never by its name somewhere under a folder: a recursive grep with that name as its include
    # pattern finds the lines in one call, where the gold would look the file up first
    w, refs, mentions = name_file(b, rng, path, BY_PATH)
    style = rng.random()
    if style < 0.35 and sum(pattern in line for line in lines) < 2:
        # a count of lines is asked of a word on several lines (one line is shown instead)
        several = [p for p in patterns if sum(p in line for line in lines) >= 2]
        pattern, style = (_pick(rng, several), style) if several else (pattern, 0.75)
    said = pattern if pattern.isupper() else f"'{pattern}'"
    if style < 0.1:
        return Ask({"pattern": pattern, "path": path, "count": True},
                   # the say and its detail read as one message too: a question about 'a certain word'
                   # answered in its next sentence ('The word is X.') does not
                   say=_one(rng, f"I want to count some lines in {w}.", f"I need a count of certain lines in {w}."),
                   terse=f"Count lines with {said} in {w}.",
                   detail=_one(rng, f"The ones containing {said}.", f"It's the lines with {said} I'm counting.",
                               f"Lines with {said}, that is."),
                   refs=refs, mentions=mentions + (pattern,), facts=lambda r: [int(r)])
    if style < 0.35:
        say = _one(rng, f"How many lines in {w} contain {said}?", f"Count the lines of {w} that mention {said}.",
                   f"How often does {said} come up in {w}? I just need the number of lines.",
                   f"Could you tell me how many lines of {w} have {said} in them?")
        return Ask({"pattern": pattern, "path": path, "count": True}, say=say,
                   terse=_one(rng, f"Count lines with {said} in {w}.", f"Lines with {said} in {w}: how many?"),
                   refs=refs, mentions=mentions + (pattern,), facts=lambda r: [int(r)])
    if style < 0.55 and pattern.lower() != pattern and _as_word(pattern.lower(), lines, ignore_case=True):
        low = pattern.lower()
        say = _one(rng, f"Search {w} for '{low}', ignoring case, and show me the matching lines.",
                   f"Print the lines of {w} that mention '{low}'. Upper or lower case, it doesn't matter.",
                   f"Find '{low}' in {w} in any letter case and show me those lines.")
        return Ask({"pattern": low, "path": path, "ignore_case": True}, say=say,
                   terse=f"Lines of {w} with '{low}', any case.", refs=refs, mentions=mentions + (low,),
                   facts=_matched)
    terse = _one(rng, f"Lines with {said} in {w}.", f"{said} lines in {w}?")
    if style < 0.75:
        return Ask({"pattern": pattern, "path": path},
                   say=_one(rng, f"I need to search {w}.", f"Could you look through {w} for me?",
                            f"I'm hunting for something in {w}."),
                   terse=terse, detail=_one(rng, f"Show me the lines that contain {said}.",
                                            f"It's the lines with {said} in them I'm after.",
                                            f"Anything mentioning {said}.", f"The lines with {said}, please."),
                   refs=refs, mentions=mentions + (pattern,), facts=_matched)
    return Ask({"pattern": pattern, "path": path},
               # every wording asks to see the lines (the facts quote them): "which lines mention" is answered
               # by their numbers ("just line 3") or the gist of one, and neither states a line's text
               say=_one(rng, f"Show me the lines of {w} that contain {said}.", f"Print the lines of {w} that mention {said}.",
                        f"Pull out every line of {w} with {said} in it.",
                        f"I'd like to see where {said} appears in {w}: the matching lines, please."),
               terse=terse, refs=refs, mentions=mentions + (pattern,), facts=_matched)


def _grep_files(r: Any) -> list[Any]:
    """The files a recursive grep found lines in, and the first line found."""
    paths = [line.split(":", 1)[0] for line in _text(r).splitlines() if re.match(r"^[^:\n]*/[^:\n]*:\d+:", line)]
    return _names(paths, 3) + _content("\n".join(_grep_lines(r)), 1)


@goals.add("grep", 0.5)
def grep_recursive(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, [a for a in b["areas"] if a.endswith(("projects", "notes", "scripts", "logs"))])
    if top is None:
        return None
    texts = [line for p in _text_files(b, under=top + "/") for line in b["files"][p]["lines"]]
    searched = _lines_under(b, top)
    pattern = _pick(rng, [w for w in _GREP_WORDS if any(w in line for line in texts) and _as_word(w, searched)])
    if pattern is None:
        return None
    said = pattern if pattern.isupper() else f"'{pattern}'"
    say = _one(rng, f"Which files under {top} have {said} in them? Show me the matching lines.",
               f"Search everything under {top}, subfolders too, for {said} and show me the lines that match.",
               f"Look through all the files in {top} for lines containing {said}.",
               f"I'd like every line mentioning {said} anywhere under {top}, with the file it's in.")
    return Ask({"pattern": pattern, "path": top, "recursive": True}, say=say,
               terse=_one(rng, f"Lines with {said} anywhere under {top}?", f"{said} in all files under {top}."),
               mentions=(pattern, top), facts=_grep_files)


def _found_files(r: Any) -> list[str]:
    return _names([x["path"] for x in r["results"]])


@goals.add("search_files")
def search_files(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, b["areas"])
    texts = [line for p in _text_files(b, under=top + "/") for line in b["files"][p]["lines"]]
    words = sorted({w for w in re.findall(r"\b[a-z]{6,}\b", " ".join(texts))})
    # a search_files query matches in any letter case
    searched = _lines_under(b, top)
    query = _pick(rng, [w for w in [*_GREP_WORDS, *rng.sample(words, min(8, len(words)))]
                        if any(w in t for t in texts) and _as_word(w, searched, ignore_case=True)])
    if query is None:
        return None
    if rng.random() < 0.3:
        having = [p for p in _text_files(b, under=top + "/") if any(query.lower() in line.lower()
                                                                    for line in b["files"][p]["lines"])]
        # a filter every found file passes is idle, and the gold drops it: the words would ask for one
        # the call does not make (filesystem-13500000-0001), so the files found are of two kinds or more
        exts = {_ext(p) for p in having}
        ext = _pick(rng, sorted(exts - {""})) if len(exts) > 1 else None
        if ext:
            files = rng.choice([f"{ext} files", f"files ending in {ext}", f"{_kind(ext)} files"])
            say = _one(rng, f"Which {files} under {top} mention '{query}'?",
                       f"Among the {files} in {top}, which ones contain '{query}'?",
                       f"Find the {files} under {top} that have '{query}' in them.")
            return Ask({"query": query, "path": top, "name": f"*{ext}"}, say=say,
                       terse=f"{ext} files in {top} containing '{query}'?", mentions=(query, top, ext),
                       facts=_found_files)
    terse = _one(rng, f"Files in {top} containing '{query}'?", f"Which files under {top} say '{query}'?")
    if rng.random() < 0.4:
        return Ask({"query": query, "path": top},
                   say=_one(rng, f"I'm looking for files under {top} by what's in them.",
                            f"Can you find some files in {top} for me? I only remember what they say."),
                   terse=terse, detail=_one(rng, f"They should contain the text '{query}'.", f"The text is '{query}'.",
                                            f"Anything with '{query}' in it.", f"Search for '{query}'."),
                   mentions=(query, top), facts=_found_files)
    say = _one(rng, f"Which files under {top} mention '{query}'?",
               f"Find the files in {top} that contain the text '{query}'.",
               f"Is '{query}' written in any file under {top}? Which ones?",
               f"I remember writing '{query}' somewhere in {top}. Which files have it?")
    return Ask({"query": query, "path": top}, say=say, terse=terse, mentions=(query, top), facts=_found_files)


def _exts(b: Bundle, top: str) -> list[str]:
    return sorted({_ext(p) for p in b["files"] if p.startswith(top + "/")} - {""})


def _found(top: str) -> Callable[[Any], list[str]]:
    """The names `find` printed (the start directory itself left out)."""
    return lambda r: _names([p for p in _path_lines(r) if p.rstrip("/") != top])


def _modified_since(b: Bundle, top: str, days: int) -> bool:
    since = b["now"] - dt.timedelta(days=days)
    return any(dt.datetime.fromisoformat(str(n["mtime"])) >= since for p, n in b["nodes"].items()
               if p.startswith(top + "/") and not _base(p).startswith("."))


def _near_cut(b: Bundle, top: str, days: int) -> bool:
    """Whether an entry under `top` changed within a day of `days` days ago, where "in the last N days"
    counted in hours and in calendar days part."""
    cut = b["now"] - dt.timedelta(days=days)
    return any(abs(dt.datetime.fromisoformat(str(n["mtime"])) - cut) < dt.timedelta(days=1)
               for p, n in b["nodes"].items() if p.startswith(top + "/"))


@goals.add("find", 1.2)
def find(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, _tops(b))
    style = rng.random()
    if style < 0.5:
        ext = _pick(rng, _exts(b, top))
        if ext is None:
            return None
        files = rng.choice([f"{ext} files", f"files ending in {ext}", f"{_kind(ext)} files"])
        args, mentions = {"path": top, "name": f"*{ext}"}, (ext, top)
        if rng.random() < 0.3:
            return Ask(args, say=_one(rng, f"I need a list of certain files under {top}, in every subfolder.",
                                      f"There are some files under {top} I need found, subfolders included."),
                       terse=f"All {ext} files under {top}.",
                       detail=_one(rng, f"It's the {files} I'm after.", f"The {files}, that is."),
                       mentions=mentions, facts=_found(top))
        return Ask(args, say=_one(rng, f"Find all the {files} anywhere under {top}.",
                                  f"List every one of the {files} below {top}, at any depth.",
                                  f"Where are my {files}? Look everywhere under {top}.",
                                  f"Can you track down all the {files} under {top}, subfolders included?"),
                   terse=_one(rng, f"All {ext} files under {top}.", f"Every {ext} file below {top}?"),
                   mentions=mentions, facts=_found(top))
    if style < 0.75:
        # "in the last 3 days" is read as 72 hours or as calendar days: never asked where an entry
        # changed within a day of the cut (a rotated log changed 3 days ago to the minute is in one
        # reading and out of the other)
        days = _pick(rng, [d for d in (3, 7, 14, 30) if _modified_since(b, top, d) and not _near_cut(b, top, d)])
        if days is None:
            return None
        say = _one(rng, f"What has been modified under {top} in the last {days} days?",
                   f"Which files or folders under {top} changed in the past {days} days?",
                   f"I touched something in {top} in the last {days} days and forgot what. What changed?",
                   f"Could you list everything under {top} that was modified within the last {days} days?")
        return Ask({"path": top, "modified_within_days": days}, say=say,
                   terse=f"Things under {top} changed in the last {days} days?", mentions=(str(days), top),
                   facts=_found(top))
    if style < 0.9:
        if not any(n["kind"] == "dir" and p.startswith(top + "/") for p, n in b["nodes"].items()):
            return None
        say = _one(rng, f"List every folder under {top}, however deep.",
                   f"What subfolders does {top} have, at any depth?",
                   f"Show me all the directories inside {top}, nested ones included.")
        return Ask({"path": top, "type": "d"}, say=say, terse=f"All folders under {top}?", mentions=(top,),
                   facts=_found(top))
    if not any(n["kind"] == "file" and n["size"] >= 1024 and p.startswith(top + "/") for p, n in b["nodes"].items()):
        return None
    say = _one(rng, f"Which files under {top} are at least 1024 bytes?",
               f"Find the files in {top} that are 1024 bytes or bigger.",
               f"I'm tidying up {top}: which files there take 1024 bytes or more?")
    return Ask({"path": top, "min_size": 1024}, say=say, terse=f"Files of 1024+ bytes under {top}?",
               mentions=(top, "1024"), facts=_found(top))


@goals.add("glob", 0.6)
def glob(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, [d for d in b["dirs"] if any(p.rsplit("/", 1)[0] == d for p in b["files"])])
    if top is None:
        return None
    ext = _pick(rng, sorted({_ext(p) for p in b["files"] if p.rsplit("/", 1)[0] == top} - {""}))
    if ext is None:
        return None
    pattern = f"{top}/*{ext}"
    facts = lambda r: _names(r["matches"])
    if rng.random() < 0.4:
        return Ask({"pattern": pattern}, say=_one(rng, f"Which paths match the pattern {pattern}?",
                                                  f"What does {pattern} expand to?"),
                   terse=f"Paths matching {pattern}?", mentions=(pattern,), facts=facts)
    say = _one(rng, f"Which {ext} files sit directly in {top}? Not in subfolders, just that folder.",
               f"List the {ext} files right in {top} (ignore anything in subfolders).",
               f"What {ext} files are there at the top level of {top}?")
    return Ask({"pattern": pattern}, say=say, terse=f"{ext} files directly in {top}?", mentions=(top, ext), facts=facts)


def _ls_facts(r: Any) -> list[str]:
    return _ls_names(r)[:4]


def _ls_hidden(r: Any) -> list[str]:
    names = _ls_names(r)
    return [n for n in names if n.startswith(".")][:2] + [n for n in names if not n.startswith(".")][:2]


@goals.add("ls", 1.2)
def ls(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, [b["home"]] + b["dirs"])
    if top == b["home"]:
        w, refs, mentions = _one(rng, top, f"my home folder ({top})", f"{top}, my home directory"), (), (top,)
    else:
        w, refs, mentions = name_file(b, rng, top, BY_NAME)
    style = rng.random()
    # a long listing is asked only of a folder with an entry it shows: of an empty folder it draws what a plain
    # listing draws, the gates drop long as idle, and the gold would teach a call without the detail asked for
    shown = any(p.rpartition("/")[0] == top and not p.rpartition("/")[2].startswith(".") for p in b["nodes"])
    if style < 0.35 and shown:
        say = _one(rng, f"Give me a long listing of {w}, with permissions, owners and sizes.",
                   f"List {w} in detail: permissions, owner, size and date for each entry.",
                   f"I need the detailed view of {w}, sizes and permissions included.")
        return Ask({"path": top, "long": True}, say=say,
                   terse=_one(rng, f"Long listing of {w}.", f"Detailed list of {w}."), refs=refs, mentions=mentions,
                   facts=_ls_facts)
    if style < 0.55 and any(p.startswith(top + "/.") for p in b["nodes"]):
        say = _one(rng, f"List everything in {w}, hidden files included.",
                   f"What's in {w}, including the dotfiles?", f"Show me all of {w}, even the hidden entries.")
        return Ask({"path": top, "all": True}, say=say, terse=f"Everything in {w}, hidden too.", refs=refs,
                   mentions=mentions, facts=_ls_hidden)
    say = _one(rng, f"What's in {w}?", f"List the contents of {w}.", f"Can you show me what's inside {w}?",
               f"What do I have in {w} these days?", f"Please list the files in {w}.")
    return Ask({"path": top}, say=say, terse=_one(rng, f"List {w}.", f"Contents of {w}?"), refs=refs,
               mentions=mentions, facts=_ls_facts)


@goals.add("list_dir", 0.6)
def list_dir(b: Bundle, rng: random.Random) -> Ask | None:
    # an order is asked of a folder with three shown entries of its own at least (not of one folder
    # holding the rest: "journal/2025, newest first" lists only "12")
    # the three first entries are told, so the fourth must not tie with the third (four folders of 4096
    # bytes each, or two files changed the same minute, would make any three of them a right answer);
    # an order by size is asked of a folder of files only: a folder's own entry size (4096) is not how
    # big it is, and "the biggest things" there are what du measures;
    # an order by time says it is of the folder's own entries: "what in X was changed most recently?" is
    # list_recent's question too, whose files at any depth are another answer
    def shown(d: str) -> list[dict]:
        return [n for p, n in b["nodes"].items()
                if p.rsplit("/", 1)[0] == d and not p.rsplit("/", 1)[1].startswith(".")]

    def told(values: list[Any]) -> bool:
        ordered = sorted(values, reverse=True)
        return len(ordered) >= 3 and (len(ordered) == 3 or ordered[2] != ordered[3])

    facts = lambda r: [e["name"] for e in r["entries"]][:3]
    if rng.random() < 0.5:
        top = _pick(rng, [d for d in b["dirs"] if all(n["kind"] == "file" for n in shown(d))
                          and told([n["size"] for n in shown(d)])])
        if top is None:
            return None
        say = _one(rng, f"List the files in {top} by size, largest first.", f"What are the biggest files in {top}?",
                   f"Show me what's in {top}, sorted from largest to smallest.",
                   f"Which files in {top} take the most space? Largest first, please.")
        return Ask({"path": top, "sort_by": "size"}, say=say, terse=f"{top} files, largest first.", mentions=(top,),
                   facts=facts)
    top = _pick(rng, [d for d in b["dirs"] if told([n["mtime"] for n in shown(d)])])
    if top is None:
        return None
    say = _one(rng, f"List the entries of {top} ordered by modification time, newest first.",
               f"Which of the things directly in {top} changed most recently? List them newest first.",
               f"Show me {top} sorted by when things were last modified, latest at the top.")
    return Ask({"path": top, "sort_by": "modified"}, say=say, terse=f"{top} entries, newest first.", mentions=(top,),
               facts=facts)


def _tree_top(r: Any) -> list[str]:
    """The entries a tree draws at its first level."""
    lines = _text(r).splitlines()
    return [line[4:].split(" -> ")[0] for line in lines if line.startswith(("├── ", "└── "))][:4]


def _deeper_than(b: Bundle, top: str, depth: int) -> bool:
    """Whether a plain tree of `top` (no hidden entries) draws something more than `depth` levels down: an
    entry below `top` by more than `depth` names, none of them hidden, each folder on the way one the user
    may list."""
    def open_to_user(path: str) -> bool:
        node = b["nodes"].get(path)
        if node is None or node["kind"] != "dir":
            return False
        mode = int(node["mode"], 8)
        return mode & 0o500 == 0o500 if node["owner"] == b["user"] else mode & 0o5 == 0o5

    for path in b["nodes"]:
        if not path.startswith(top + "/"):
            continue
        names = path[len(top) + 1:].split("/")
        if len(names) <= depth or any(n.startswith(".") for n in names):
            continue
        if all(open_to_user("/".join([top, *names[:i]])) for i in range(len(names))):
            return True
    return False


@goals.add("tree", 0.7)
def tree(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, b["areas"] + [f"{b['home']}/projects/{n}" for n in _projects(b)])
    if top is None:
        return None
    style = rng.random()
    # a limit is asked only where it cuts the tree: on a tree two levels deep, "limit it to 2 levels" draws
    # what no limit draws, the gates drop max_depth as idle, and the gold would teach a call without it
    depths = [d for d in (1, 2) if _deeper_than(b, top, d)]
    if style < 0.4 and depths:
        depth = rng.choice(depths)
        levels = f"{depth} level{'s' if depth > 1 else ''}"
        args, terse = {"path": top, "max_depth": depth}, f"Tree of {top}, {levels}."
        if rng.random() < 0.5:
            return Ask(args, say=_one(rng, f"Draw the directory tree of {top}, but not too deep.",
                                      # one level is not "the upper levels": the detail then said "Stop at 1 level"
                                      f"Show me how {top} is laid out, just the "
                                      f"{'upper levels' if depth > 1 else 'top of it'}."),
                       # "1 level deep." opened a sentence with a numeral (filesystem-15300000-0007)
                       terse=terse, detail=_one(rng, f"Keep it {levels} deep.",
                                                f"Stop at {levels}.", f"Only {levels}, please."),
                       mentions=(top, str(depth)), facts=_tree_top)
        say = _one(rng, f"Draw the directory tree of {top}, only {levels} deep.",
                   f"Show me how {top} is laid out, {levels} down at most.",
                   f"Could I get a tree view of {top}? Limit it to {levels}.")
        return Ask(args, say=say, terse=terse, mentions=(top, str(depth)), facts=_tree_top)
    if style < 0.6:
        say = _one(rng, f"Show me the tree of folders (directories only) in {top}.",
                   f"Draw just the folder structure of {top}, no files.",
                   f"What does the folder hierarchy under {top} look like? Skip the files.")
        return Ask({"path": top, "dirs_only": True}, say=say, terse=f"Folder tree of {top}, no files.",
                   mentions=(top,), facts=_tree_top)
    say = _one(rng, f"Show me the whole directory tree under {top}.", f"Draw {top} as a tree, everything in it.",
               f"I'd like a full tree view of {top}.", f"How is {top} organised? Show me the whole tree.")
    return Ask({"path": top}, say=say, terse=f"Full tree of {top}.", mentions=(top,), facts=_tree_top)


def _projects(b: Bundle) -> list[str]:
    top = f"{b['home']}/projects/"
    return sorted({p[len(top):].split("/")[0] for p in b["nodes"] if p.startswith(top)})


@goals.add("stat", 0.7)
def stat(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, b["read"] + b["links"] + b["dirs"][:6])
    w, refs, mentions = name_file(b, rng, path, BY_NAME)
    kind = b["nodes"][path]["kind"]
    args = {"path": path}
    style = rng.random()
    if kind == "symlink":
        return Ask(args, say=_one(rng, f"Tell me about {w}: what kind of entry is it and where does it lead?",
                                  f"Show me the details of {w}, including its target."),
                   terse=f"Details of {w}?", refs=refs, mentions=mentions, facts=lambda r: [r["target"]])
    if kind == "dir" and style < 0.35:
        return Ask(args, say=_one(rng, f"How many entries does {w} hold, directly inside it?",
                                  f"How many things are directly inside {w}?"),
                   terse=f"Entries in {w}?", refs=refs, mentions=mentions, facts=lambda r: [r["entries"]])
    # the owner is asked about only where it is someone else: the user's own name is no fact to tell them
    theirs = b["nodes"][path]["owner"] != b["user"]
    if kind == "dir" and style < 0.7 and theirs:
        return Ask(args, say=_one(rng, f"Show me the details of {w}: owner, permissions and how many entries it has.",
                                  f"Who owns {w}, and how many entries does it have?"),
                   terse=f"Owner and entry count of {w}?", refs=refs, mentions=mentions,
                   facts=lambda r: [r["entries"], r["owner"]])
    if kind == "file" and style < 0.3:
        return Ask(args, say=_one(rng, f"How big is {w}?", f"What's the size of {w} in bytes?",
                                  f"Is {w} large? Tell me its size."),
                   terse=f"Size of {w}?", refs=refs, mentions=mentions, facts=lambda r: [quantity(r["size"], "B")])
    if style < 0.6 or kind == "dir":
        return Ask(args, say=_one(rng, f"When was {w} last modified?", f"When did {w} last change?",
                                  f"I wonder how old {w} is. When was it last modified?"),
                   terse=f"Last modified date of {w}?", refs=refs, mentions=mentions,
                   facts=lambda r: [r["modified"][:10]])
    if theirs:
        return Ask(args, say=_one(rng, f"Show me the details of {w}: type, size, permissions and owner.",
                                  f"Who owns {w}, and how big is it?",
                                  f"Could you look up {w} for me? I want its size, owner and permissions."),
                   terse=f"Owner and size of {w}?", refs=refs, mentions=mentions,
                   facts=lambda r: [quantity(r["size"], "B"), r["owner"]])
    return Ask(args, say=_one(rng, f"Show me the details of {w}: type, size and permissions.",
                              f"Could you look up {w} for me? I want its size and permissions."),
               terse=f"Size and permissions of {w}?", refs=refs, mentions=mentions,
               facts=lambda r: [quantity(r["size"], "B"), one_of(r["permissions"], r["permissions"][1:], r["mode"][-3:])])


def _exists(r: Any) -> list[Any]:
    """What it is when something is there ('file', 'directory' or 'folder'; every wording asks it),
    else that nothing is there ('No, it doesn't exist.'; a 'yes' that repeats the path states nothing)."""
    if r["exists"]:
        return [one_of("directory", "folder") if r["type"] == "directory" else r["type"]]
    return [ABSENT]


@goals.add("exists", 0.6)
def exists(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    missing = [p for p in (f"{home}/.env", f"{home}/notes/archive", f"{home}/documents/passport.pdf",
                           f"{home}/data/sales-2024.csv", "/etc/nginx/sites-enabled") if p not in b["nodes"]]
    path = _pick(rng, missing + b["read"][:: max(1, len(b["read"]) // 6)])
    p = _q(path)
    # 'what is it?' reads as what it holds too ('your to-do list'): the words ask file or folder
    says = [f"Does {p} exist? If it does, is it a file or a directory?",
            f"Is there anything at {p}? If so, is it a file or a folder?",
            f"Quick check: is {p} there, and is it a file or a directory?",
            f"Could you tell me whether {p} exists, and if so whether it's a file or a folder?"]
    if path.startswith(home + "/") and path not in b["nodes"]:
        says.append(f"Do I have a {p}? I can't remember creating it.")
    say = rng.choice(says)
    return Ask({"path": path}, say=say, terse=_one(rng, f"Does {p} exist? File or folder?", f"{p} there? File or directory?"), mentions=(path,),
               facts=_exists)


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
    say = _one(rng, f"What is the real, fully resolved path of {path}?",
               f"{path} goes through a link. Where does it really end up?",
               f"Could you resolve {path} to its actual location, links followed?",
               f"Which real folder or file is {path}, once every symlink is followed?")
    return Ask({"path": path}, say=say, terse=f"Real path of {path}?", mentions=(path,), facts=lambda r: [_text(r)])


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
    say = _one(rng, f"Where does the symbolic link {link} point? I want the target as written.",
               f"What's the target of the symlink {link}?", f"{link} is a link, right? What does it point to?",
               f"Can you tell me what the link {link} is set to, exactly as stored?")
    return Ask({"path": link}, say=say, terse=f"Target of the link {link}?", mentions=(link,),
               facts=lambda r: [_text(r)])


def _files_below(b: Bundle, top: str) -> int:
    """How many files `list_recent` of `top` finds: those at any depth below it, each folder on the way
    one the user may list."""
    def open_to_user(path: str) -> bool:
        node = b["nodes"].get(path)
        if node is None or node["kind"] != "dir":
            return False
        mode = int(node["mode"], 8)
        return mode & 0o500 == 0o500 if node["owner"] == b["user"] else mode & 0o5 == 0o5

    found = 0
    for path, node in b["nodes"].items():
        if node["kind"] != "file" or not path.startswith(top + "/"):
            continue
        names = path[len(top) + 1:].split("/")
        found += all(open_to_user("/".join([top, *names[:i]])) for i in range(len(names)))
    return found


@goals.add("list_recent", 0.6)
def list_recent(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, _tops(b))
    # a count is asked only where it cuts the listing: "which 5 files" of a folder holding four lists what
    # no limit lists, the gates drop the limit as idle, and the gold would teach a call without it
    counts = [n for n in (3, 5) if _files_below(b, top) > n]
    if not counts:
        return None
    n = rng.choice(counts)
    args, terse = {"path": top, "limit": n}, f"{n} most recent files in {top}?"
    facts = lambda r: _names([f["path"] for f in r["files"]], 5)
    say = _one(rng, f"Which {n} files under {top} were modified most recently?",
               f"What have I been editing lately in {top}? The latest {n} files are enough.",
               f"What are the {n} files I changed last in {top}?",
               f"Show me the {n} most recently edited files anywhere under {top}.",
               f"I was working on something in {top} lately. Which {n} files changed most recently?")
    return Ask(args, say=say, terse=terse, mentions=(str(n), top), facts=facts)


def _du_total(r: Any) -> list[float]:
    """The size of `du -s` ('6.0K' says 6.0, '512' says 512)."""
    return [float(re.match(r"[\d.]+", _text(r).split("\t")[0]).group())]


def _du_human(r: Any) -> list[Any]:
    """The size of `du -sh` ('30.6K') with its unit: "roughly 31 KB" or "30.6 KiB" says it as well as the
    listing's '30.6K' (a bare 30.6 read no unit, so a rounded figure with its unit failed)."""
    shown = _text(r).split("\t")[0].strip()
    value, suffix = re.match(r"([\d.]+)([KMGT]?)", shown).groups()
    if not suffix:
        return [one_of(quantity(int(float(value)), "B"), shown)]
    unit = {"K": "KB", "M": "MB", "G": "GB", "T": "GB"}[suffix]
    size = float(value) * (1024 if suffix == "T" else 1)
    binary = {"K": "KiB", "M": "MiB"}.get(suffix)
    return [one_of(quantity(size, unit), *((quantity(size, binary),) if binary else ()), shown)]


def _du_rows(r: Any) -> list[Any]:
    """The total of `du --max-depth=1` (its last row) and the folders listed before it. The total is
    in bytes as `du -b` prints it, or in kilobytes ('3.0 KB', '3.0K': the breakdown asks for no unit)."""
    rows = [line.split("\t") for line in _text(r).splitlines() if "\t" in line and not line.startswith("du:")]
    total = int(rows[-1][0])
    return ([one_of(quantity(total, "B"), quantity(round(total / 1024, 2), "KB"), human_size(total))]
            + _names([path for _, path in rows[:-1]], 3))


def _bytes_below(b: Bundle, top: str) -> int:
    """The apparent size `du` gives `top`: the bytes of the files at any depth below it."""
    return sum(n["size"] for p, n in b["nodes"].items() if n["kind"] == "file" and p.startswith(top + "/"))


def _usage_tops(b: Bundle) -> list[str]:
    """The folders disk_usage asks about: every other one of `_tops`. A total du asks for is of the
    others, so a du total never repeats the total a disk_usage of the same folder showed earlier in the
    conversation ("Summarize the space used under ~/notes" then "What's the total disk usage of
    ~/notes?": the answer is already said, and the du call is not needed; filesystem-15300000-0009)."""
    return _tops(b)[::2]


@goals.add("du", 0.7)
def du(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, _tops(b))
    style = rng.random()
    if not (0.4 <= style < 0.7 and any(n["kind"] == "dir" and p.rsplit("/", 1)[0] == top
                                       for p, n in b["nodes"].items())):
        # a total alone: of a folder disk_usage never asks about (`_usage_tops`)
        top = _pick(rng, [t for t in _tops(b) if t not in _usage_tops(b)])
        if top is None:
            return None
    # a human-readable total under 1K is a count of bytes: "in K or M" of 315 bytes asks for "about
    # 0.3 KB", which no fact of the listing's '315' can read (filesystem-13500000-0004)
    if style < 0.4 and _bytes_below(b, top) < 1024:
        style = 0.7
    if style < 0.4:
        say = _one(rng, f"What's the total disk usage of {top}? A single human-readable total is fine.",
                   f"How much space does {top} take up? Just the total, in K or M.",
                   f"Roughly how big is {top} altogether? A human-readable figure is all I need.")
        return Ask({"path": top, "summarize": True, "human_readable": True}, say=say,
                   terse=f"Total size of {top}, human-readable.", mentions=(top,), facts=_du_human)
    if style < 0.7 and any(n["kind"] == "dir" and p.rsplit("/", 1)[0] == top for p, n in b["nodes"].items()):
        say = _one(rng, f"Show the disk usage of {top} and of each folder directly inside it (one level down).",
                   f"How much space does each subfolder of {top} use? Only one level down, plus the total.",
                   # the total is asked: a breakdown alone, answered folder by folder without it, failed
                   # the total's fact (filesystem-15500000-0004, seed 155)
                   f"Break down the size of {top} by its immediate subfolders, and give me the total too.")
        return Ask({"path": top, "max_depth": 1}, say=say, terse=f"Disk usage of {top}, one level down.",
                   mentions=(top,), facts=_du_rows)
    say = _one(rng, f"How many bytes does {top} take up in total?", f"What's the exact size of {top} in bytes?",
               f"Add up everything in {top} for me: how many bytes is it?")
    return Ask({"path": top, "summarize": True}, say=say, terse=f"Bytes used by {top}?", mentions=(top,),
               facts=_du_total)


def _used(r: Any) -> Any:
    """The total every disk_usage wording asks for: in bytes, as shown ('31.5K'), or in kilobytes
    ('31.5 KB', the 'K' of the listing being 1024 bytes)."""
    return one_of(quantity(r["total_bytes"], "B"), quantity(round(r["total_bytes"] / 1024, 2), "KB"),
                  r["total_human"])


@goals.add("disk_usage", 0.6)
def disk_usage(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, _usage_tops(b))
    # "the 10 biggest files" is asked only of a folder holding more than 10 (of one holding 8 it names
    # files that are not there)
    counts = [n for n in (3, 10) if _files_below(b, top) > n]
    if not counts:
        return None
    k = rng.choice(counts)
    args, terse = {"path": top, "top": k}, f"Space used in {top}, top {k} files."
    facts = lambda r: [_used(r)] + _names([f["path"] for f in r["largest_files"]], 3)
    say = _one(rng, f"Summarize the space used under {top}, and list its {k} largest files.",
               f"What's eating the space in {top}? Give me the total and the {k} biggest files.",
               f"Which are the {k} largest files under {top}, and how much is used overall?")
    return Ask(args, say=say, terse=terse, mentions=(top, str(k)), facts=facts)


@goals.add("count_files", 0.6)
def count_files(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, _tops(b))
    ext = _pick(rng, _exts(b, top))
    if ext and rng.random() < 0.6:
        files = rng.choice([f"{ext} files", f"files ending in {ext}", f"{_kind(ext)} files"])
        say = _one(rng, f"How many {files} are there under {top}?", f"Count the {files} in {top}, subfolders included.",
                   f"I'm curious: how many {files} do I have under {top}?")
        return Ask({"path": top, "name": f"*{ext}"}, say=say, terse=f"Number of {ext} files under {top}?",
                   mentions=(ext, top), facts=lambda r: [r["files"]])
    say = _one(rng, f"How many files are under {top} in all, broken down by extension?",
               f"Count the files in {top}, in total and by type, please.",
               f"What kinds of files are in {top}, how many of each, and how many altogether?")
    return Ask({"path": top}, say=say, terse=f"Total file count in {top}, and by extension?", mentions=(top,),
               facts=lambda r: [r["files"], max(r["by_extension"].values())])


def _tail_path(path: str) -> str:
    """A path's last two parts ('backup/sales.csv'), which tell identical names apart."""
    return "/".join(path.split("/")[-2:])


def _copies(paths: Sequence[str]) -> list[Any]:
    """The files of a group of identical ones as facts: each name once, and for a name that more
    than one of them shares, where each copy is, by its folder's name or its last two parts
    ('sales.csv in /home/x/data and in /home/x/data/backup' tells both copies apart as well as
    'data/sales.csv' and 'backup/sales.csv' do)."""
    facts: list[Any] = list(dict.fromkeys(_base(p) for p in paths))
    for path in paths:
        if sum(_base(q) == _base(path) for q in paths) > 1:
            folder = path.split("/")[-2]
            facts.append(one_of(_tail_path(path), folder) if re.search(r"[A-Za-z]", folder) else _tail_path(path))
    return facts


@goals.add("find_duplicates", 0.4)
def find_duplicates(b: Bundle, rng: random.Random) -> Ask | None:
    tops = [t for t in _tops(b) if any(all(p.startswith(t + "/") for p in group) for group in b["dups"])]
    top = _pick(rng, tops)
    if top is None:
        return None
    say = _one(rng, f"Are there any duplicate files (same content) under {top}?",
               f"Find files with identical contents under {top}.",
               f"I think I saved some things twice in {top}. Which files are exact copies of each other?",
               f"Could you check {top} for duplicate files?")
    return Ask({"path": top}, say=say, terse=f"Duplicate files in {top}?", mentions=(top,),
               facts=lambda r: _copies(r["groups"][0]["paths"][:4]))


_FIELD = re.compile(r"^(?P<key>[A-Za-z][\w ]{0,30}):\s+(?P<value>\S.*)$")


def _changed(gist: str, line: str = "") -> Any:
    """A changed line as a fact: the line quoted, or for a 'Key: value' line its value alone ('the
    mood went from stressed to tired' tells 'Mood: stressed' as well as the line does), and a value
    that is a whole list also as said ('Joshua, Katie and Lori' for 'Attendees: Joshua, Katie, Lori';
    a list cut short is stated by its items as printed, whatever joins the rest)."""
    field = _FIELD.match(gist)
    value = field and field.group("value").strip(" ,;:.")
    if not value or sum(c.isalnum() for c in value) < 3:
        return gist
    items = value.split(", ")
    if len(items) >= 2 and all(items) and line.strip().rstrip(" ,;:.").endswith(value):
        return one_of(gist, value, f"{', '.join(items[:-1])} and {items[-1]}")
    return one_of(gist, value)


def _changes(r: Any) -> list[Any]:
    """The first lines a diff removes and adds."""
    lines = _text(r).splitlines()
    removed = [(g, line[1:]) for line in lines if line.startswith("-") and not line.startswith("---")
               if (g := _gist(line[1:]))]
    added = [(g, line[1:]) for line in lines if line.startswith("+") and not line.startswith("+++")
             if (g := _gist(line[1:]))]
    return [_changed(g, line) for g, line in removed[:2] + added[:2]]


def _alike(one: str, two: str) -> bool:
    """Names of two versions of one thing: 'meeting-2026-10-15.md' and 'meeting-2026-10-25.md',
    'report-q3.csv' and 'report-q4.csv', two days of a journal ('14.md', '19.md')."""
    shared = next((i for i, (x, y) in enumerate(zip(one, two)) if x != y), min(len(one), len(two)))
    return shared >= 4 or (one[:1].isdigit() and two[:1].isdigit())


@goals.add("diff", 0.6)
def diff(b: Bundle, rng: random.Random) -> Ask | None:
    pairs = []
    for p in b["read"]:
        for q in b["read"]:
            if p < q and p.rsplit("/", 1)[0] == q.rsplit("/", 1)[0] and _ext(p) == _ext(q) \
                    and _ext(p) in (".csv", ".log", ".md", ".txt") and _alike(_base(p), _base(q)) \
                    and b["files"][p]["lines"] != b["files"][q]["lines"]:
                pairs.append((p, q))
    pair = _pick(rng, pairs)
    if pair is None:
        return None
    p, q = pair if rng.random() < 0.5 else pair[::-1]
    a, c = _q(p), _q(q)
    # every wording asks for the lines (the facts quote them), and names the old file first, as diff takes them
    say = _one(rng, f"Compare {a} with {c} and show me the lines that differ.",
               f"What's the diff between {a} and {c}? Show me the changed lines.",
               f"Going from {a} to {c}, which lines changed?",
               f"I want to see what changed from {a} to {c}, line by line.")
    return Ask({"path1": p, "path2": q}, say=say, terse=f"Which lines differ between {a} and {c}?", mentions=(p, q),
               facts=_changes)


@goals.add("checksum", 0.6)
def checksum(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, b["read"])
    w, refs, mentions = name_file(b, rng, path, BY_TEXT)
    algorithm = rng.choice(["sha256", "md5", "sha1"])
    args = {"path": path} if algorithm == "sha256" else {"path": path, "algorithm": algorithm}
    name = {"sha256": "SHA-256", "md5": "MD5", "sha1": "SHA-1"}[algorithm]
    facts = lambda r: [r["checksum"]]
    say = _one(rng, f"What's the {name} checksum of {w}?", f"Could you hash {w} for me? {name}, please.",
               f"Could you compute the {name} hash of {w}?",
               f"I want to verify a copy of {w}. What's its {name}?", f"Give me the {name} digest for {w}, please.")
    return Ask(args, say=say, terse=f"{name} of {w}?", refs=refs, mentions=mentions + (name,), facts=facts)


def _mean(mean: float) -> Any:
    """An average as people state it: to the hundredth as printed ('219.33'), or to one decimal
    ('219.3'); a number fact alone is matched only to the hundredth."""
    rounded = round(mean, 1)
    return mean if abs(rounded - mean) < 0.005 else one_of(mean, rounded)


@goals.add("column_stats")
def column_stats(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, sorted(p for p in b["csv"] if p in b["read"]))
    if path is None:
        return None
    column = rng.choice(b["csv"][path]["numeric"])
    w, refs, mentions = name_file(b, rng, path, BY_TEXT)
    args, mentions = {"path": path, "column": column}, mentions + (column,)
    style = rng.randrange(4)
    # the column is held back only where the file has another numeric column: with one alone, "one numeric
    # column of" the file names it already, and asking which would teach a needless question
    choice = len(b["csv"][path]["numeric"]) > 1
    if style == 0 and not choice:
        return Ask(args, say=_one(rng, f"Give me the count, sum, min, max and average of the '{column}' column in {w}.",
                                  f"I need summary statistics for the '{column}' column of {w}."),
                   terse=f"Stats of the '{column}' column in {w}.", refs=refs, mentions=mentions,
                   facts=lambda r: [r["count"], r["sum"], r["min"], r["max"], _mean(r["mean"])])
    if style == 0:
        return Ask(args, say=_one(rng, f"Give me the count, sum, min, max and average of a column in {w}.",
                                  f"I need summary statistics for one numeric column of {w}."),
                   terse=f"Stats of the '{column}' column in {w}.",
                   detail=_one(rng, f"The column is '{column}'.", f"It's the '{column}' column."),
                   refs=refs, mentions=mentions,
                   facts=lambda r: [r["count"], r["sum"], r["min"], r["max"], _mean(r["mean"])])
    if style > 0 and rng.random() < 0.3 and choice:
        what, facts = [("total", lambda r: [r["sum"]]), ("average", lambda r: [_mean(r["mean"])]),
                       ("smallest and largest value", lambda r: [r["min"], r["max"]])][style - 1]
        return Ask(args, say=_one(rng, f"What's the {what} of one of the columns in {w}?",
                                  f"I need the {what} of a column of {w}."),
                   # "Smallest and largest value of 'value'": the column is said as a column
                   terse=f"{what[:1].upper()}{what[1:]} of the '{column}' column in {w}?",
                   detail=_one(rng, f"The column is '{column}'.", f"It's the '{column}' column."),
                   refs=refs, mentions=mentions, facts=facts)
    if style == 1:
        return Ask(args, say=_one(rng, f"What's the total of the '{column}' column in {w}?",
                                  f"Add up the '{column}' column of {w} for me.",
                                  f"What does the '{column}' column of {w} sum to?"),
                   terse=f"Sum of '{column}' in {w}?", refs=refs, mentions=mentions, facts=lambda r: [r["sum"]])
    if style == 2:
        return Ask(args, say=_one(rng, f"What's the average '{column}' in {w}?",
                                  f"What does the '{column}' column of {w} average out to?"),
                   terse=f"Mean '{column}' in {w}?", refs=refs, mentions=mentions, facts=lambda r: [_mean(r["mean"])])
    # "the highest and lowest 'value' values" said the word twice (filesystem-15300000-0010 of the redraw)
    return Ask(args, say=_one(rng, f"What are the highest and lowest values in the '{column}' column of {w}?",
                              f"Give me the range of the '{column}' column in {w}: smallest and largest."),
               terse=f"Min and max '{column}' in {w}?", refs=refs, mentions=mentions,
               facts=lambda r: [r["min"], r["max"]])


def _column(name: str) -> str:
    """A column as said in a sentence: short names quoted ('jan'), which read oddly bare."""
    return f"'{name}'" if len(name) <= 3 else name


def _top_rows(key: int) -> Callable[[Any], list[Any]]:
    """The first and last rows of a sorted table (under its header): the first's key and first
    cells, the last's key."""
    def facts(r: Any) -> list[Any]:
        data = _rows(_text(r).splitlines())[1:]
        return [_cell(data[0][key - 1]), _cell(data[0][0]), _cell(data[-1][key - 1])]
    return facts


def _sorts_by_number(b: Bundle, path: str, key: int) -> bool:
    """Whether a table sorted by column `key`, highest first, needs both the number order and the
    header kept on top: a column whose text order is its number order (two-digit values only), whose
    header a text sort puts on top anyway, would leave the gold sort without either, right only by
    the accident of the data ("keep the header on top", and no header=true)."""
    lines = b["files"][path]["lines"]

    def ordered(numeric: bool, header: bool) -> list[str]:
        top, rows = (lines[:1], lines[1:]) if header else ([], lines)
        return top + sort_lines(rows, reverse=True, numeric=numeric, unique=False, ignore_case=False, key=key,
                                delimiter=",")
    right = ordered(True, True)
    return right != ordered(False, True) and right != ordered(True, False)


@goals.add("sort", 0.6)
def sort(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.5:
        columns = {p: [c for c in b["csv"][p]["numeric"] if _sorts_by_number(b, p, b["csv"][p]["header"].index(c) + 1)]
                   for p in b["csv"] if p in b["read"]}
        path = _pick(rng, sorted(p for p in columns if columns[p]))
        if path is None:
            return None
        column = rng.choice(columns[path])
        key = b["csv"][path]["header"].index(column) + 1
        named = _column(column)
        ordinal = _ORDINALS.get(key, f"{key}th")
        field, said = (f"column {key}", str(key)) if rng.random() < 0.5 else (f"the {ordinal} column", ordinal)
        say = _one(rng, f"Show me {path} sorted by {named}, highest first. That's {field}; keep the header row on top "
                        "and don't change the file.",
                   f"Could you print {path} ordered by its {named} column ({field}), biggest numbers first? Leave the "
                   "header where it is, and the file as it is.",
                   f"Which rows of {path} have the largest {named} values? Sort it by {field}, descending, header kept "
                   "on top (just print it, don't modify the file).")
        args = {"path": path, "key": key, "delimiter": ",", "numeric": True, "reverse": True, "header": True}
        terse = f"{path} sorted by {named} ({field}), highest first, header on top."
        if rng.random() < 0.4:
            return Ask(args, say=_one(rng, f"Show me {path} sorted by one of its number columns, highest first, with "
                                           "the header row kept on top. Don't change the file.",
                                      f"Print {path} with the biggest values first (header stays on top; leave "
                                      "the file alone)."),
                       terse=terse, detail=_one(rng, f"Sort by the {named} column ({field}).",
                                              f"I mean the {named} column, that's {field}."),
                       mentions=(path, column, said), facts=_top_rows(key))
        return Ask(args, say=say, terse=terse, mentions=(path, column, said), facts=_top_rows(key))
    path = _pick(rng, [p for p in _text_files(b, min_lines=4) if not p.endswith(".csv")])
    if path is None:
        return None
    w, refs, mentions = name_file(b, rng, path, BY_TEXT)
    say = _one(rng, f"Print the lines of {w} in alphabetical order (leave the file as it is).",
               f"Show me {w} with its lines sorted A to Z; don't change the file itself.",
               f"Could you sort the lines of {w} alphabetically for me? Just print them.")
    return Ask({"path": path}, say=say, terse=f"Lines of {w}, sorted alphabetically.", refs=refs, mentions=mentions,
               facts=_content)


def _uniq_lines(r: Any) -> list[Any]:
    return _content("\n".join(re.sub(r"^\s*\d+ ", "", line) for line in _text(r).splitlines()))


@goals.add("uniq", 0.4)
def uniq(b: Bundle, rng: random.Random) -> Ask | None:
    files = _text_files(b, min_lines=4)
    doubled = [p for p in files if any(a == c for a, c in zip(b["files"][p]["lines"], b["files"][p]["lines"][1:]))]
    path = _pick(rng, doubled if doubled and rng.random() < 0.6 else files)
    if path is None:
        return None
    w, refs, mentions = name_file(b, rng, path, BY_TEXT)
    # squeezing is asked only of a file with back-to-back repeats: of any other it prints the file as
    # it is, and the words promise repeats that are not there (the counts still tell that none repeat)
    if path in doubled and rng.random() < 0.5:
        say = _one(rng, f"Print {w} with repeated lines that follow each other squeezed into one.",
                   f"Show me {w} without the back-to-back duplicate lines (don't edit the file).")
        return Ask({"path": path}, say=say, terse=f"{w} with adjacent repeated lines collapsed.", refs=refs,
                   mentions=mentions, facts=_uniq_lines)
    # the facts are the file's lines: the words ask to see them with their counts ('show how often each
    # one occurs' was as well answered by "every line once, the blank line twice", which states none)
    say = _one(rng, f"Print the lines of {w} with repeated adjacent ones collapsed, each with how often it "
                    "occurs in a row.",
               f"Show me the lines of {w}, each with a count of how many times it repeats back to back.")
    return Ask({"path": path, "count": True}, say=say, terse=f"{w}: adjacent repeats collapsed, with counts.",
               refs=refs, mentions=mentions, facts=_uniq_lines)


def _number(cell: str) -> float | None:
    try:
        return float(cell)
    except ValueError:
        return None


def _steady_cells(rows: list[list[str]], cells: Sequence[str]) -> list[str]:
    """The cells that any print of the table states on its own (a Markdown or plain table, a column a
    line): not a number with another cell of the table within two steps of it (a step being 1, or a
    cent for a number with decimals), since 31 printed beside 32 and 33 reads as a guess among them."""
    numbers = [n for row in rows[1:] for cell in row if (n := _number(cell.strip())) is not None]

    def steady(cell: str) -> bool:
        n = _number(cell)
        near = 0.02 if "." in cell else 2
        return n is None or not any(m != n and abs(m - n) <= near + 1e-9 for m in numbers)

    return [c for c in cells if steady(c)]


def _cut_rows(r: Any) -> list[Any]:
    """The values of the first and last rows under the header that any print of the columns states."""
    rows = _rows(_text(r).splitlines())
    return _steady_cells(rows, _cells(rows[1] + rows[-1], 4))


def _cut_pair(rows: list[list[str]], fields: Sequence[int]) -> bool:
    """Whether the facts of these columns hold a cell of each: the first or last row's, stated by any
    print of the two columns."""
    picked = [[row[f - 1] for f in fields] for row in rows]
    steady = set(_steady_cells(picked, _cells(picked[1] + picked[-1], 4)))
    return all(steady & {picked[1][k].strip(), picked[-1][k].strip()} for k in range(len(fields)))


@goals.add("cut", 0.8)
def cut(b: Bundle, rng: random.Random) -> Ask | None:
    tables = {p: rows for p in b["read"] if p.endswith(".csv") and (rows := _rows(b["files"][p]["lines"]))}
    path = _pick(rng, sorted(p for p, rows in tables.items() if len(rows[0]) >= 3))
    if path is None:
        return None
    header = tables[path][0]
    known = b.setdefault("cut_pairs", {})  # each table's pairs are weighed once per world
    if path not in known:
        known[path] = [(i, j) for i in range(1, len(header) + 1) for j in range(i + 1, len(header) + 1)
                       if _cut_pair(tables[path], (i, j))]
    pairs = known[path]
    if not pairs:
        return None
    fields = list(rng.choice(pairs))
    one, two = (_column(header[f - 1]) for f in fields)
    i, j = fields
    args, terse = {"path": path, "fields": fields, "delimiter": ","}, f"Columns {i} and {j} ({one}, {two}) of {path}."
    if rng.random() < 0.4:
        return Ask(args, say=_one(rng, f"Show me just two of the columns of {path}.",
                                  f"I only need a couple of columns from {path}."),
                   terse=terse, detail=_one(rng, f"Columns {i} and {j}: {one} and {two}.",
                                            f"The {one} and {two} ones, columns {i} and {j}."),
                   mentions=(path, str(i), str(j)), facts=_cut_rows)
    say = _one(rng, f"From {path}, show me only the {one} and {two} columns (columns {i} and {j}).",
               f"I just want columns {i} and {j} of {path}, that's {one} and {two}. Can you print those?",
               f"Print the {one} and {two} fields (numbers {i} and {j}) of the comma-separated file {path}.",
               f"Could you pull out columns {i} and {j} ({one}, {two}) from {path}? Nothing else.")
    return Ask(args, say=say, terse=terse, mentions=(path, str(i), str(j)), facts=_cut_rows)


@goals.add("pwd", 0.2)
def pwd(b: Bundle, rng: random.Random) -> Ask | None:
    say = _one(rng, "Which directory am I in right now?", "What's my current working directory?",
               "Remind me, where am I in the file system at the moment?", "Which folder is the shell in now?")
    return Ask({}, say=say, terse=_one(rng, "Current directory?", "Where am I?"), facts=lambda r: [_text(r)])


@goals.add("user_info", 0.2)
def user_info(b: Bundle, rng: random.Random) -> Ask | None:
    say = _one(rng, "Which user am I logged in as, and which groups am I in?",
               "Who am I on this machine? User name and groups, please.",
               "Can you check which account I'm using and what groups it belongs to?")
    return Ask({}, say=say, terse="My user name and groups?",
               facts=lambda r: [r["user"], *[g for g in r["groups"] if g != r["user"]][:2]])


# -- changing things -------------------------------------------------------------------------------

@goals.add("cd", 0.5)
def cd(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, [d for d in b["dirs"] if d != b["home"] and d not in b["empty_dirs"]] + ["/etc", "/tmp"])
    w, refs, mentions = name_file(b, rng, top, BY_NAME) if top in b["nodes"] and top.startswith(b["home"]) \
        else (top, (), (top,))
    say = _one(rng, f"Go into {w}.", f"Change the working directory to {w}.", f"Switch over to {w}, please.",
               f"I want to work in {w} for a while; move the shell there.", f"Could you take me to {w}?",
               f"Let's continue from {w}; change into it.")
    return Ask({"path": top}, say=say, terse=_one(rng, f"Change into {w}.", f"Switch to {w}."), refs=refs,
               mentions=mentions)


@goals.add("mkdir")
def mkdir(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    if rng.random() < 0.6:
        path = _pick(rng, b["new_dirs"])
        if path is None:
            return None
        parent, name = path.rsplit("/", 1)
        terse = _one(rng, f"New folder {path}.", f"Make the folder {path}.")
        if rng.random() < 0.5:
            return Ask({"path": path}, say=_one(rng, f"Create a new folder inside {parent}.",
                                                f"I need another folder in {parent}.",
                                                f"Could you add a subfolder to {parent}?"),
                       terse=terse, detail=_one(rng, f"Call it {name}, so {path}.", f"Name it {name} ({path}).",
                                                f"It should be {path}.", f"Make it {path}."),
                       mentions=(path,))
        return Ask({"path": path}, say=_one(rng, f"Make a folder at {path}.", f"Please create the directory {path}.",
                                            f"I need a new folder, {path}.",
                                            f"Can you set up an empty folder called {name} in {parent}?"),
                   terse=terse, mentions=(name, parent))
    path = _pick(rng, [f"{home}/{d}" for d in NEW_DEEP_DIRS if f"{home}/{d}" not in b["nodes"]])
    if path is None:
        return None
    say = _one(rng, f"Create the folder {path}, along with any parent folders that don't exist yet.",
               f"Set up {path}, creating whatever folders are missing along the way.",
               f"I need the whole folder path {path} created, parents included.")
    return Ask({"path": path, "parents": True}, say=say, terse=f"Create {path} with its parents.", mentions=(path,))


@goals.add("touch", 0.7)
def touch(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    if rng.random() < 0.6:
        # a new file only: touching a file that exists keeps what is in it
        path = _pick(rng, [p for p in [f"{home}/{p}" for p in TOUCH_FILES] + ["/opt/team/standup.txt"]
                           if p not in b["nodes"] and p.rsplit("/", 1)[0] in b["nodes"]])
        if path is None:
            return None
        folder, name = path.rsplit("/", 1)
        if rng.random() < 0.3:
            return Ask({"path": path}, say=f"Make a blank file called {name} in {folder}.",
                       terse=f"New blank file {name} in {folder}.", mentions=(name, folder))
        say = _one(rng, f"Create an empty file at {path}.", f"I need an empty {path} to start from.",
                   f"Could you create {path}? Leave it empty for now.")
        return Ask({"path": path}, say=say, terse=_one(rng, f"New empty file at {path}.", f"New empty file: {path}."),
                   mentions=(path,))
    path = _pick(rng, [p for p in b["read"] if b["files"][p]["owner"] == b["user"]])
    w, refs, mentions = name_file(b, rng, path, BY_NAME)
    say = _one(rng, f"Update the modification time of {w} to now, without changing its content.",
               f"Touch {w} so its timestamp is current; don't change what's in it.",
               f"Can you bump the last-modified time of {w} to now?",
               f"Mark {w} as modified just now (the content stays the same).")
    return Ask({"path": path}, say=say, terse=f"Refresh the timestamp of {w}.", refs=refs, mentions=mentions)


def _the_line(rng: random.Random, text: str) -> str:
    return _one(rng, f'The line is: "{text}".', f'It should say "{text}".', f'Word for word: "{text}".',
                f'Here it is: "{text}".', f'Write "{text}".')


@goals.add("echo", 0.7)
def echo(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    bashrc = f"{home}/.bashrc"
    if rng.random() < 0.5 and bashrc in b["files"] and b["files"][bashrc]["writable"]:
        text = rng.choice(BASHRC_LINES)
        args = {"text": text, "file": bashrc, "append": True}
        terse = f'Append "{text}" to {bashrc}.'
        if rng.random() < 0.5:
            return Ask(args, say=_one(rng, f"Use echo to append a line to the end of {bashrc}.",
                                      f"Add a line to the bottom of {bashrc}.",
                                      f"I'd like one more line at the end of {bashrc}."),
                       terse=terse, detail=_the_line(rng, text), mentions=(text, bashrc))
        return Ask(args, say=_one(rng, f'Add "{text}" as a new last line of {bashrc}.',
                                  f'Append the line "{text}" to {bashrc}, please.',
                                  f'Put "{text}" at the end of {bashrc}, keeping everything else.'),
                   terse=terse, mentions=(text, bashrc))
    path = _pick(rng, [f"{home}/{p}" for p in ECHO_FILES if f"{home}/{p}" not in b["nodes"]])
    if path is None:
        return None
    text = rng.choice(ECHO_TEXTS)
    if rng.random() < 0.4:
        return Ask({"text": text, "file": path},
                   say=_one(rng, f"Create {path} with a one-line note in it.", f"Leave a short note for me in {path}."),
                   terse=f"Write '{text}' into {path}.", detail=_the_line(rng, text), mentions=(text, path))
    say = _one(rng, f"Echo the text '{text}' into a new file {path}.", f"Write '{text}' into a new file at {path}.",
               f"Save the note '{text}' as {path}.", f"Create {path} containing just the line '{text}'.")
    return Ask({"text": text, "file": path}, say=say, terse=f"Write '{text}' into {path}.", mentions=(text, path))


@goals.add("write_file")
def write_file(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    choices = [(f"{home}/{p}", lines) for p, lines in WRITE_FILES if f"{home}/{p}" not in b["nodes"]
               and f"{home}/{p}".rsplit("/", 1)[0] in b["nodes"]]
    if not choices:
        return None
    path, lines = rng.choice(choices)
    quoted = ", ".join(f'"{line}"' for line in lines[:-1]) + f' and "{lines[-1]}"'
    args = {"path": path, "content": "\n".join(lines) + "\n"}
    terse = f"Write {path} with the lines {quoted}."
    if rng.random() < 0.6:
        # the held-back request says lines will go in, or an empty file (`touch`) answers it in full
        return Ask(args, say=_one(rng, f"Create the file {path} with a few lines in it.",
                                  f"I need a new file, {path}, with some lines I'll give you.",
                                  f"Could you write a few lines into a new file for me at {path}?",
                                  f"Please set up {path} with some text in it."),
                   terse=terse, detail=_one(rng, f"Put these lines in it, each on its own line: {quoted}.",
                                            f"It should contain {quoted}, one per line.",
                                            f"The lines are {quoted}."),
                   mentions=(path, *lines))
    return Ask(args, say=_one(rng, f"Create {path} with these lines: {quoted}.",
                              f"Write a new file {path} containing {quoted}, each on its own line."),
               terse=terse, mentions=(path, *lines))


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
    w, refs, mentions = name_file(b, rng, path, BY_NAME)
    list_name = "to-do list" if "todo" in path else "list of ideas"
    terse = f"Append '{line}' to {w}."
    if rng.random() < 0.6:
        return Ask({"path": path, "content": line + "\n"},
                   say=_one(rng, f"Add a new line at the end of my {list_name}, {w}.",
                            # a name said with its folder in brackets is not put in brackets again
                            f"I've got something for my {list_name}, {w}; add it at the bottom." if "(" in w
                            else f"I've got something for my {list_name} ({w}); add it at the bottom.",
                            f"Please append an entry to {w}, my {list_name}."),
                   terse=terse, detail=_the_line(rng, line), refs=refs, mentions=mentions + (line,))
    return Ask({"path": path, "content": line + "\n"},
               say=_one(rng, f"Add '{line}' to the end of my {list_name}, {w}.",
                        f"Could you append the line '{line}' to {w}?"),
               terse=terse, refs=refs, mentions=mentions + (line,))


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
    w, refs, mentions = name_file(b, rng, path, BY_TEXT)
    args, mentions = {"path": path, "old": old, "new": new}, mentions + (old, new)
    terse = _one(rng, f"In {w}, replace '{old}' with '{new}'.", f"{w}: '{old}' becomes '{new}'.")
    if rng.random() < 0.5:
        return Ask(args, say=_one(rng, f"In {w}, please change '{old}'.", f"I need to edit '{old}' in {w}.",
                                  f"There's a setting to update in {w}: '{old}'."),
                   terse=terse, detail=_one(rng, f"It should read '{new}' instead.", f"Make it '{new}'.",
                                            f"Change it to '{new}'.", f"The new value is '{new}'."),
                   refs=refs, mentions=mentions)
    return Ask(args, say=_one(rng, f"In {w}, change '{old}' to '{new}'.", f"Update {w}: '{old}' should become '{new}'.",
                              f"Could you swap '{old}' for '{new}' in {w}?",
                              f"Please edit {w} so that '{old}' reads '{new}'."),
               terse=terse, refs=refs, mentions=mentions)


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
    w, refs, mentions = name_file(b, rng, path, BY_TEXT)
    args, mentions = {"path": path, "line": line, "text": text}, mentions + (text, str(line))
    terse = f"Insert '{text}' before line {line} of {w}."
    # a list named by the words it holds ('the note under ~/notes where I wrote "Reading list"') is not
    # named again as 'my reading list' in the same breath
    again = list_name.lower() in w.lower()
    # said beside the words that name the file: in brackets, or after a comma where those words end in
    # brackets themselves ('... (it's somewhere in /home/angelica) (my reading list)')
    aside = f", my {list_name}," if w.endswith(")") else f" (my {list_name})"
    if rng.random() < 0.5:
        return Ask(args, say=_one(rng, f"Put a new {thing} at the top of {w if again else f'my {list_name}, {w},'} "
                                       f"as a new line before line {line}.",
                                  f"Add a {thing} to {w}{'' if again else aside} so it becomes line "
                                  f"{line}, right under the heading."),
                   terse=terse, detail=_the_line(rng, text), refs=refs, mentions=mentions)
    return Ask(args, say=_one(rng, f"In {w}, insert '{text}' as line {line}, above the current first {thing}.",
                              f"In {w}, put '{text}' in front of line {line}, please." if again
                              else f"My {list_name} is {w}. Put '{text}' in front of line {line}, please."),
               terse=terse, refs=refs, mentions=mentions)


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
    # by name, not by a line it says: the line to delete is quoted ("the one that says ...")
    w, refs, mentions = name_file(b, rng, path, BY_NAME)
    if rng.random() < 0.5 and start + 1 in numbered:
        end = start + 1
        say = _one(rng, f"Delete lines {start} and {end} from {w}.", f"Remove lines {start}-{end} of {w}, please.",
                   f"Lines {start} and {end} of {w} are out of date; take them out.")
        return Ask({"path": path, "start_line": start, "end_line": end}, say=say,
                   terse=f"Delete lines {start}-{end} of {w}.", refs=refs, mentions=mentions + (str(start), str(end)))
    quote = lines[start - 1]
    if rng.random() < 0.5:
        return Ask({"path": path, "start_line": start},
                   say=_one(rng, f"One line of {w} has to go.", f"Please remove a line from {w}."),
                   terse=f"Delete line {start} of {w}.",
                   detail=_one(rng, _ended(f"Line {start}, the one that says \"{quote}\""),
                               f"It's line {start} (\"{quote}\")."),
                   refs=refs, mentions=mentions + (str(start),))
    say = _one(rng, _ended(f"Remove line {start} from {w}; it's the one that says \"{quote}\""),
               f"Delete line {start} of {w} (\"{quote}\").",
               f"In {w}, line {start} (\"{quote}\") can go. Please delete it.")
    return Ask({"path": path, "start_line": start}, say=say, terse=f"Delete line {start} of {w}.", refs=refs,
               mentions=mentions + (str(start),))


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
    w, refs, mentions = name_file(b, rng, path, BY_TEXT)
    args = {"path": path, "pattern": pattern, "replacement": replacement, "in_place": True}
    mentions += (pattern, replacement)
    terse = f"Replace all '{pattern}' with '{replacement}' in {w}, in place."
    if rng.random() < 0.5:
        return Ask(args, say=_one(rng, f"Use sed to replace every '{pattern}' in {w}, editing the file in place.",
                                  f"Every '{pattern}' in {w} needs changing to something else; edit the file itself.",
                                  f"I want all occurrences of '{pattern}' in {w} replaced, right in the file."),
                   terse=terse, detail=_one(rng, f"The new value is '{replacement}'.", f"Make them '{replacement}'.",
                                            f"Put '{replacement}' there instead."),
                   refs=refs, mentions=mentions)
    return Ask(args, say=_one(rng, f"Replace every '{pattern}' in {w} with '{replacement}', saving the file.",
                              f"In {w}, change all the '{pattern}' to '{replacement}' (edit the file in place).",
                              f"Could you run a substitution on {w}: '{pattern}' to '{replacement}' everywhere?"),
               terse=terse, refs=refs, mentions=mentions)


@goals.add("mv", 1.2)
def mv(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, b["mv"])
    if path is None:
        return None
    folder, name = path.rsplit("/", 1)
    into_documents = rng.random() < 0.5
    # a new name in the file's own folder spells that folder out: the file is not said to be 'somewhere
    # under' a folder then (found first by a look-up the new path makes needless)
    w, refs, mentions = name_file(b, rng, path, BY_NAME if into_documents else BY_PATH)
    if into_documents:
        into = f"{b['home']}/documents"
        terse = _one(rng, f"Move {w} to {into}.", f"Move {w} into {into}.")
        if rng.random() < 0.5:
            return Ask({"source": path, "destination": into},
                       say=_one(rng, f"Move {w} to another folder.", f"{w} is in the wrong place; please move it.",
                                f"Could you file away {w} somewhere better?"),
                       terse=terse, detail=_one(rng, f"Put it in {into}.", f"It belongs in {into}.",
                                                f"I want it in {into}."),
                       refs=refs, mentions=mentions + (into,))
        return Ask({"source": path, "destination": into},
                   say=_one(rng, f"Move {w} into {into}.", f"Please file {w} under {into}.",
                            f"I'd like {w} moved over to {into}."),
                   terse=terse, refs=refs, mentions=mentions + (into,))
    stem = name.rsplit(".", 1)[0].replace(" ", "-").replace("(", "").replace(")", "")
    new = f"{folder}/{stem}-{rng.choice(['old', 'keep', '2026'])}.txt"
    terse = f"Rename {w} to {new}."
    if rng.random() < 0.5:
        return Ask({"source": path, "destination": new},
                   say=_one(rng, f"Rename {w}.", f"{w} needs a better name.", f"Could you give {w} a new name?"),
                   terse=terse, detail=_one(rng, f"The new path should be {new}.", f"Call it {new}.",
                                            f"Make it {new}."),
                   refs=refs, mentions=mentions + (new,))
    return Ask({"source": path, "destination": new},
               say=_one(rng, f"Rename {w} to {new}.", f"Please rename {w}; it should become {new}."),
               terse=terse, refs=refs, mentions=mentions + (new,))


@goals.add("cp")
def cp(b: Bundle, rng: random.Random) -> Ask | None:
    home = b["home"]
    if rng.random() < 0.3:
        top = _pick(rng, [a for a in b["areas"] if a.endswith(("notes", "scripts", "documents"))])
        if top is None or f"{top}-backup" in b["nodes"]:
            return None
        copy = f"{top}-backup"
        say = _one(rng, f"Make a full copy of the folder {top}, with everything in it, at {copy}.",
                   f"Back up {top} by copying the whole folder to {copy}.",
                   f"Duplicate {top}, subfolders and all, as {copy}.")
        return Ask({"source": top, "destination": copy, "recursive": True}, say=say,
                   terse=f"Copy {top} with everything in it to {copy}.", mentions=(top, copy))
    path = _pick(rng, [p for p in b["read"] if p.startswith(home + "/")])
    to_tmp = rng.random() < 0.5
    # a backup beside the file spells out the file's folder: the file is not said to be 'somewhere under'
    # a folder then ("Copy my app.py somewhere under ~/projects to ~/projects/recipe-box/src/app.py.bak")
    w, refs, mentions = name_file(b, rng, path, BY_NAME if to_tmp else BY_PATH)
    if to_tmp:
        say = _one(rng, f"Put a copy of {w} in /tmp.", f"Copy {w} into /tmp, please.",
                   f"I want a scratch copy of {w} in /tmp.")
        return Ask({"source": path, "destination": "/tmp"}, say=say, terse=f"Copy {w} to /tmp.", refs=refs,
                   mentions=mentions + ("/tmp",))
    backup = path + ".bak"
    if backup in b["nodes"]:
        return None
    terse = f"Copy {w} to {backup}."
    if rng.random() < 0.5:
        return Ask({"source": path, "destination": backup},
                   say=_one(rng, f"Make a backup copy of {w}.", f"Before I edit {w}, could you back it up?"),
                   terse=terse, detail=_one(rng, f"Save it as {backup}.", f"Call the copy {backup}.",
                                            f"Put the copy at {backup}."),
                   refs=refs, mentions=mentions + (backup,))
    return Ask({"source": path, "destination": backup},
               say=_one(rng, f"Make a backup copy of {w} at {backup}.", f"Copy {w} to {backup} as a backup."),
               terse=terse, refs=refs, mentions=mentions + (backup,))


@goals.add("rm", 1.2)
def rm(b: Bundle, rng: random.Random) -> Ask | None:
    style = rng.random()
    if style < 0.15 and b["rm_dirs"]:
        top = rng.choice(b["rm_dirs"])
        say = _one(rng, f"Delete the folder {top} and everything inside it.",
                   f"I don't need {top} anymore. Remove it, contents and all.",
                   f"Please wipe out {top} completely, subfolders included.")
        return Ask({"path": top, "recursive": True}, say=say, terse=f"Delete {top} with everything in it.",
                   mentions=(top,))
    if style < 0.3 and b["rm_globs"]:
        pattern = rng.choice(b["rm_globs"])
        folder = pattern.rsplit("/", 1)[0]
        if rng.random() < 0.4:
            return Ask({"path": pattern}, say=f"Delete all the files matching {pattern}.",
                       terse=f"Delete {pattern}.", mentions=(pattern,))
        say = _one(rng, f"Clear out the old logs: delete every .log file in {folder}.",
                   f"Remove all the .log files in {folder}, please.",
                   f"The .log files in {folder} can go. Delete them.")
        return Ask({"path": pattern}, say=say, terse=f"Delete the .log files in {folder}.", mentions=(folder, ".log"))
    if style < 0.45 and b["force_rm"]:
        path = rng.choice(b["force_rm"])
        p = _q(path)
        say = _one(rng, f"Delete {p}. It's write-protected, so force it.",
                   f"{p} is read-only, but I want it gone anyway. Force the delete.",
                   f"Force-remove {p}, even though it's write-protected.")
        return Ask({"path": path, "force": True}, say=say, terse=f"Force-delete {p}.", mentions=(path,))
    path = _pick(rng, b["rm"])
    if path is None:
        return None
    w, refs, mentions = name_file(b, rng, path, BY_NAME)
    say = _one(rng, f"Delete {w}.", f"I don't need {w} anymore; please remove it.", f"Could you get rid of {w}?",
               f"{w} is just clutter. Delete it, please.", f"Please remove {w}.")
    return Ask({"path": path}, say=say, terse=_one(rng, f"Delete {w}.", f"Remove {w}."), refs=refs, mentions=mentions)


@goals.add("rmdir", 0.5)
def rmdir(b: Bundle, rng: random.Random) -> Ask | None:
    path = _pick(rng, b["rmdir"])
    if path is None:
        return None
    say = _one(rng, f"Remove the empty folder {path}.", f"{path} is empty; please delete that folder.",
               f"Get rid of the empty directory {path}.", f"I never use {path} and it's empty. Could you remove it?")
    return Ask({"path": path}, say=say, terse=f"Remove the empty folder {path}.", mentions=(path,))


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
    args, terse = {"target": target, "link_path": link}, f"Symlink {link} pointing to {target}."
    if rng.random() < 0.5:
        return Ask(args, say=_one(rng, f"Create a symbolic link at {link}.", f"I'd like a shortcut at {link}.",
                                  f"Could you make a symlink called {link}?"),
                   terse=terse, detail=_one(rng, f"It should point to {target}.", f"Point it at {target}.",
                                            f"The target is {target}."),
                   mentions=(link, target))
    return Ask(args, say=_one(rng, f"Make {link} a symbolic link to {target}.",
                              f"I'd like a symlink {link} that points at {target}, so I can get there quickly.",
                              f"Please link {target} as {link} (a symbolic link)."),
               terse=terse, mentions=(link, target))


_MODES = {"script": ("700", "750", "644"), "file": ("600", "640", "664"), "dir": ("700", "750")}
# Symbolic modes and what they do, as a person says it.
_SYMBOLIC = {"0644": {"600": ("go-r", "take away read access for the group and everyone else"),
                      "664": ("g+w", "let the group write to it too")},
             "0755": {"700": ("go-rx", "take away read and execute for the group and others"),
                      "644": ("a-x", "make it no longer executable for anyone")}}


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
    symbolic = _SYMBOLIC.get(nodes[path]["mode"], {})
    if mode in symbolic and rng.random() < 0.4:
        mode, what = symbolic[mode]
        p = _q(path)
        say = _one(rng, f"On {p}, {what} (chmod {mode}).", f"Please {what} on {p}; that's chmod {mode}.",
                   f"Could you change the permissions of {p} with {mode}? I want to {what}.")
        return Ask({"path": path, "mode": mode}, say=say, terse=f"Permissions of {p}: {mode}.", mentions=(mode, path))
    w, refs, mentions = name_file(b, rng, path, BY_NAME)
    terse = f"Set the permissions of {w} to {mode}."
    if rng.random() < 0.5:
        return Ask({"path": path, "mode": mode},
                   say=_one(rng, f"Change the permissions of {w}.", f"The permissions on {w} are wrong; fix them.",
                            f"I need different access rights on {w}."),
                   terse=terse, detail=_one(rng, f"Set them to {mode}.", f"Make it {mode}.",
                                            f"Mode {mode}, please."),
                   refs=refs, mentions=mentions + (mode,))
    return Ask({"path": path, "mode": mode},
               say=_one(rng, f"Set the permissions of {w} to {mode}.", f"Could you change {w} to mode {mode}?",
                        f"Please make the mode of {w} {mode}."),
               terse=terse, refs=refs, mentions=mentions + (mode,))


@goals.add("tar_create", 0.6)
def tar_create(b: Bundle, rng: random.Random) -> Ask | None:
    top = _pick(rng, [a for a in b["areas"] if not a.endswith("logs")])
    if top is None:
        return None
    name = top.rsplit("/", 1)[1]
    archive = rng.choice([f"/tmp/{name}-backup.tar", f"{b['home']}/{name}.tar"])
    if archive in b["nodes"]:
        return None
    args, terse = {"archive": archive, "paths": [top]}, f"Archive {top} as {archive}."
    if rng.random() < 0.5:
        return Ask(args, say=_one(rng, f"Pack the whole {top} folder into one archive.",
                                  f"Could you bundle up {top} into a tar file?", f"I'd like {top} archived."),
                   terse=terse, detail=_one(rng, f"Write the archive to {archive}.", f"Save it as {archive}.",
                                            f"Call it {archive}."),
                   mentions=(top, archive))
    return Ask(args, say=_one(rng, f"Pack {top} into the archive {archive}.",
                              f"Make a tar archive of {top} at {archive}, please.",
                              f"Bundle everything in {top} into {archive}."),
               terse=terse, mentions=(top, archive))


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
    say = _one(rng, f"Pack the {top} folder into {archive}, then tell me what went into it.",
               f"Archive {top} as {archive} and list the archive's contents afterwards.",
               f"Could you tar up {top} into {archive} and then show me what the archive holds?")
    return Ask({"archive": archive}, say=say, terse=f"Archive {top} as {archive}, then list it.",
               mentions=(top, archive), prior=(("tar_create", {"archive": archive, "paths": [top]}),),
               facts=lambda r: _archive_top(r["entries"]))


def _archive_top(entries: Sequence[dict]) -> list[str]:
    """What any fair account of an archive names: the entries right under its top folder, subfolders
    first (an archive of forty files is as well told folder by folder as file by file, and either
    way names the subfolders); the first files of the listing where the top folder holds none."""
    top = {e["name"].split("/", 1)[0] for e in entries}
    below = [e for e in entries if "/" in e["name"] and e["name"].count("/") == 1 and e["name"].split("/")[0] in top]
    folders = [e["name"] for e in below if e["type"] == "directory"]
    if folders:
        return _names(folders)
    return _names([e["name"] for e in entries if e["type"] == "file"])


@goals.add("tar_extract", 0.3)
def tar_extract(b: Bundle, rng: random.Random) -> Ask | None:
    packed = _packed(b, rng)
    if packed is None or "/tmp" not in b["nodes"]:
        return None
    top, archive = packed
    say = _one(rng, f"Back up {top} as {archive}, then unpack that archive into /tmp so I have a copy there.",
               f"Pack {top} into {archive} and extract it again under /tmp, so I can check the copy.",
               f"I want to test a backup: archive {top} to {archive}, then unpack it into /tmp.")
    return Ask({"archive": archive, "directory": "/tmp"}, say=say,
               terse=f"Archive {top} as {archive}, then extract it into /tmp.", mentions=(top, archive, "/tmp"),
               prior=(("tar_create", {"archive": archive, "paths": [top]}),))


# -- what only the hidden tool could do -------------------------------------------------------------

def _closed_folders(nodes: Any) -> list[str]:
    """The folders of other users that nobody else may list, and that hold something (`nodes`: the
    node table's rows)."""
    shut = {n["path"] for n in nodes if n["kind"] == "dir" and n["owner"] == "root" and not int(n["mode"], 8) & 0o4}
    return sorted(d for d in shut if any(n["path"].startswith(d + "/") for n in nodes))


def closed_folder_request(b: Bundle, rng: random.Random) -> str | None:
    """What a folder the user may not open holds: every listing tool refuses it, only the hidden dump
    of the node table would tell."""
    folders = _closed_folders(b["nodes"].values())
    if not folders:
        return None
    return rng.choice(["What files are in {folder}? I know I'm not allowed in there, but tell me their names anyway.",
                       "I can't open {folder}, but I need to know what's stored in it. List it for me, permissions "
                       "or not.",
                       "Show me what's inside {folder}, skipping the permission check.",
                       "ls says permission denied on {folder}. Can you get around that and list what it holds?",
                       "Somebody left files in {folder} and I'm curious. Which files are there? My account has no "
                       "access to it.",
                       "Read the contents of {folder} for me, even though my account is locked out of it.",
                       "Give me a listing of {folder}; I know it's not my folder, just bypass the permissions.",
                       "What's stored under {folder}? My account can't open it, but tell me anyway."]
                      ).format(folder=rng.choice(folders))


def _closed_contents(nodes: Any) -> list[str]:
    folders = _closed_folders(nodes)
    return [n["path"] for n in nodes if n["path"].rsplit("/", 1)[0] in folders]


def _cap(text: str | None) -> str | None:
    """A sentence that starts with how a file is named ('my note called ...') starts upper case."""
    return text[:1].upper() + text[1:] if text else text


def _opening(b: Bundle, text: str | None, said: Sequence[str]) -> str | None:
    """A sentence that would open with a file's bare name ('settings.yaml in /x: ...') opens with
    'The settings.yaml file' instead: upper-cased as a sentence's first word, the name would be
    another file's ('Settings.yaml')."""
    first = re.match(r"[^\s,:;()?]+", text or "")
    if first is None or not first.group(0)[:1].islower():
        return text
    name = first.group(0).rstrip(".")
    paths = sorted(p for p in b["nodes"] if p.rsplit("/", 1)[-1] == name) if name in said else []
    if not paths:
        return text
    noun = "folder" if b["nodes"][paths[0]]["kind"] == "dir" else _noun(paths[0])
    return f"the {name} {_after_name(name, noun)}{text[len(name):]}"


def _capitalized(build: Callable[[Bundle, random.Random], Ask | None]) -> Callable[[Bundle, random.Random], Ask | None]:
    def wrapped(b: Bundle, rng: random.Random) -> Ask | None:
        ask = build(b, rng)
        return ask and dataclasses.replace(ask, say=_cap(_opening(b, ask.say, ask.mentions)),
                                           terse=_cap(_opening(b, ask.terse, ask.mentions)),
                                           detail=_cap(_opening(b, ask.detail, ask.mentions)))
    return wrapped


# The tools besides read_file that print a file's lines (cut prints a line without its delimiter
# whole, sed without in_place the text, uniq -c each line with its count, diff against an empty file
# each line).
_PRINTERS = ("cat", "head", "tail", "sort", "uniq", "grep", "cut", "sed", "diff")

# Tools that do one another's job for some request (a file's lines print with any of the printing
# tools, a directory lists with any of the listing tools, and a file is written, appended to,
# emptied or edited by several): a missing-function task hides all of a group or none.
SUBSTITUTES = (
    # each prints a file's lines (cut a line without its delimiter whole, sed without in_place the text)
    # (diff of a file against an unrelated one prints each of its lines)
    ("cat", "read_file", "head", "tail", "sort", "uniq", "grep", "cut", "sed", "diff"),
    ("wc", "read_file"),
    # a file's line and word counts are read off any tool that prints its lines (cat -n numbers them; a
    # note of a few lines is counted at a glance), so with wc hidden each of those is too
    *(("wc", printer) for printer in _PRINTERS),
    # a column's count, sum, smallest, largest and mean are read off any tool that prints the table (cut -f
    # prints the column alone; a few dozen rows add up by hand, as a ledger adds up to a summary): with
    # column_stats hidden each of those is too, or declining would teach the wrong thing
    *(("column_stats", printer) for printer in ("read_file", *_PRINTERS)),
    ("ls", "list_dir", "tree", "find", "list_recent", "du", "disk_usage", "glob"),
    # files are counted from any listing that reaches every depth (find -name '*.js' lists them, and so
    # does grep -rl '' --include '*.js'; tree, ls -R and disk_usage end with the total; list_dir walks
    # folder by folder)
    ("count_files", "find", "grep", "tree", "ls", "list_dir", "list_recent", "disk_usage", "glob"),
    ("search_files", "grep"),
    # what a stat request asks is told by a listing too: ls -l and list_recent print a file's size and date
    # (ls -l its owner), wc and du its size, a folder's listings its entries (tree, find, glob, count_files,
    # disk_usage count them), ls -l, list_dir and readlink a link's target
    ("stat", "ls", "list_dir", "list_recent", "tree", "find", "glob", "du", "disk_usage", "count_files", "wc",
     "readlink", "realpath"),
    # whether a path is there and what it is: stat of it says its type (and fails with 'No such file'
    # where nothing is there), ls -l and list_dir of its folder mark a folder, tree and find -type list
    # files and folders apart: with exists hidden, each of those is too
    *(("exists", teller) for teller in ("stat", "ls", "list_dir", "tree", "find")),
    # and so does every tool that reads a path: cat, read_file, wc, checksum and the other printers of a
    # file's lines print a file, say 'Is a directory' of a folder and 'No such file or directory' where
    # nothing is there; disk_usage and count_files say 'Not a directory' of a file, list_recent lists
    # files alone, du and glob find nothing where nothing is ("/tmp/.X0-lock there? File or directory?"
    # declined with cat, checksum and list_recent shown: filesystem-15300000-0010)
    *(("exists", reader) for reader in ("read_file", *_PRINTERS, "wc", "checksum", "disk_usage", "count_files",
                                        "list_recent", "du", "glob")),
    ("pwd", "user_info"),
    # the working directory is printed by any tool that names the absolute path of '.' or of a file
    # in it: realpath('.'), cd('.'), stat('.'), exists('.'), list_dir, list_recent, disk_usage,
    # count_files, find_duplicates and search_files of '.', glob('*'), read_file and checksum of a
    # file there: with pwd hidden, each of those is too
    *(("pwd", printer) for printer in ("realpath", "cd", "stat", "exists", "list_dir", "list_recent", "disk_usage",
                                       "count_files", "find_duplicates", "search_files", "glob", "read_file",
                                       "checksum")),
    # which groups the user is in is printed by /etc/group ('developers:x:1001:megan'), which every tool
    # that prints a file's lines reads (the user's name, the owner of their home, `cd ~` says): with
    # user_info hidden, each of those is too
    *(("user_info", printer) for printer in ("read_file", *_PRINTERS)),
    ("realpath", "readlink"),
    # a path through a link resolves without either: stat, disk_usage, list_recent and count_files of
    # it name the resolved path (read_file and checksum of a file's link too), cd into it lands there
    # (cd and pwd say it), and stat of the link, ls -l, list_dir and tree of its folder show where the
    # link points
    *((link_tool, other) for link_tool in ("realpath", "readlink")
      for other in ("stat", "cd", "ls", "list_dir", "tree", "disk_usage", "list_recent", "count_files",
                    "read_file", "checksum")),
    ("replace_in_file", "sed"),
    # a line is replaced by rewriting the whole file (read_file, then write_file or echo of the text with the
    # line changed) or by deleting it and inserting the new one (delete_lines, then insert_lines): with
    # replace_in_file hidden, each of those is too
    *(("replace_in_file", writer) for writer in ("write_file", "echo", "insert_lines", "delete_lines")),
    ("rmdir", "rm"),
    # a move is a copy and a removal of the original (cp, then rm; or a rewrite, then rm): with rm hidden
    # nothing shown takes a file away from where it was, so mv is never left out while rm is shown
    ("mv", "rm"),
    # a copy of a file is a read and a write of what it says to the new path (write_file, echo, append_file,
    # or insert_lines into a touched file), and a folder's copy is packed and unpacked (tar_create, then
    # tar_extract and mv): with cp hidden, each of those is too
    *(("cp", writer) for writer in ("write_file", "echo", "append_file", "insert_lines", "tar_extract")),
    ("write_file", "append_file", "echo"),
    # insert_lines adds at the end with line = the number of lines + 1, as its description says
    ("append_file", "insert_lines"),
    # a line is added at the end by replacing the last line with itself and the new line
    # (replace_in_file, or sed with the last line's words), or before a line by replacing that line
    # with the new line and itself (sed; replace_in_file is declared above), or by rewriting the file
    # with it (write_file, echo); a line is deleted by rewriting the file without it: with one of
    # append_file, insert_lines or delete_lines hidden, each tool that does its job is too
    *(("append_file", editor) for editor in ("replace_in_file", "sed")),
    *(("insert_lines", editor) for editor in ("sed", "write_file", "echo")),
    *(("delete_lines", writer) for writer in ("write_file", "echo")),
    ("touch", "append_file", "write_file", "echo"),
    ("touch", "sed"),
)


recipe = Recipe(server="filesystem", sample=sample, topics=("files",), goals=[
    Goal(goal.tool, _capitalized(goal.build), goal.weight) for goal in goals.all], lookups=(
    Lookup("file", "search_files", args=lambda r: {"query": r.entity["query"], "path": r.entity["dir"]}),
    Lookup("path", "find", args=lambda r: {"path": r.entity["dir"], "name": r.entity["name"]}),
), substitutes=SUBSTITUTES, hidden=(HiddenAsk("debug_nodes", closed_folder_request, facts=_closed_contents),))
