"""Pure helpers of the file system: path arithmetic, permission bits, text processing, archives.

Nothing here touches the world or the real disk; every function maps values to values.
"""

from __future__ import annotations

import difflib
import fnmatch
import json
import re

MAGIC = re.compile(r"[*?\[]")
DIR_SIZE = 4096
MAX_NAME = 255


# -- paths --------------------------------------------------------------------------------------


def normalize(path: str) -> str:
    """An absolute path with '.', '..' and repeated slashes resolved lexically ('/a//b/../c' -> '/a/c')."""
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
        else:
            parts.append(part)
    return "/" + "/".join(parts)


def parts_of(path: str) -> list[str]:
    """The components of a normalized absolute path ('/' has none)."""
    return [p for p in path.split("/") if p]


def join(directory: str, name: str) -> str:
    return directory.rstrip("/") + "/" + name if directory != "/" else "/" + name


def dirname(path: str) -> str:
    head = path.rsplit("/", 1)[0]
    return head or "/"


def basename(path: str) -> str:
    return path.rsplit("/", 1)[-1] or "/"


def is_within(path: str, ancestor: str) -> bool:
    """Whether `path` is `ancestor` itself or lies below it."""
    return path == ancestor or ancestor == "/" or path.startswith(ancestor + "/")


def has_magic(path: str) -> bool:
    return bool(MAGIC.search(path))


def name_matches(pattern: str, name: str, ignore_case: bool = False) -> bool:
    """Shell-style match of one name ('*.md', 'report-??.csv', '[ab]*')."""
    if ignore_case:
        return fnmatch.fnmatchcase(name.lower(), pattern.lower())
    return fnmatch.fnmatchcase(name, pattern)


def glob_component_matches(pattern: str, name: str) -> bool:
    """A glob component match as a shell does it: '*' does not match names starting with '.'."""
    if name.startswith(".") and not pattern.startswith("."):
        return False
    return fnmatch.fnmatchcase(name, pattern)


# -- permissions --------------------------------------------------------------------------------

_BITS = {"r": 4, "w": 2, "x": 1}
_TYPE_CHAR = {"file": "-", "dir": "d", "symlink": "l"}


def perm_string(kind: str, mode: int) -> str:
    """'drwxr-xr-x', '-rw-r--r--', 'lrwxrwxrwx'; a sticky directory ends in 't'."""
    chars = []
    for shift in (6, 3, 0):
        bits = (mode >> shift) & 7
        chars.append(("r" if bits & 4 else "-") + ("w" if bits & 2 else "-") + ("x" if bits & 1 else "-"))
    text = "".join(chars)
    if mode & 0o1000:
        text = text[:8] + ("t" if text[8] == "x" else "T")
    return _TYPE_CHAR[kind] + text


def octal(mode: int) -> str:
    """'0644', '1777'."""
    return f"{mode:04o}"


def allows(mode: int, what: str, shift: int) -> bool:
    """Whether `mode` grants 'r', 'w' or 'x' to the class at `shift` (6 owner, 3 group, 0 others)."""
    return bool((mode >> shift) & _BITS[what])


_SYMBOLIC = re.compile(r"^([ugoa]*)([-+=])([rwxXt]*)$")


def parse_mode(spec: str, current: int, is_dir: bool) -> int:
    """The new mode for a chmod spec: octal ('755', '0644', '1777') or symbolic ('u+x', 'go-w', 'a=r,u+w').

    Raises ValueError with a readable message when the spec is invalid.
    """
    spec = spec.strip()
    if re.fullmatch(r"[0-7]{1,4}", spec):
        return int(spec, 8)
    mode = current
    for clause in spec.split(","):
        match = _SYMBOLIC.match(clause)
        if not match:
            raise ValueError(f"invalid mode: '{spec}' (use octal such as '644' or symbolic such as 'u+x,go-w')")
        who, op, perms = match.groups()
        shifts = [{"u": 6, "g": 3, "o": 0}[w] for w in (who or "a").replace("a", "ugo")]
        bits = 0
        for shift in set(shifts):
            for p in perms:
                if p in "rwx":
                    bits |= _BITS[p] << shift
                elif p == "X" and (is_dir or current & 0o111):
                    bits |= 1 << shift
        sticky = 0o1000 if "t" in perms else 0
        if op == "+":
            mode |= bits | sticky
        elif op == "-":
            mode &= ~(bits | sticky)
        else:
            for shift in set(shifts):
                mode &= ~(7 << shift)
            mode |= bits | sticky
    return mode & 0o7777


# -- sizes and text -----------------------------------------------------------------------------


def byte_size(text: str | None) -> int:
    return len((text or "").encode("utf-8"))


def human_size(size: int) -> str:
    """Like `du -h`: '512', '1.5K', '2.0M'."""
    if size < 1024:
        return str(size)
    value = float(size)
    for unit in "KMGT":
        value /= 1024
        if value < 1024 or unit == "T":
            return f"{value:.1f}{unit}"
    return str(size)  # pragma: no cover


def lines_of(text: str) -> list[str]:
    """The lines of a text without their newlines ('a\\nb\\n' -> ['a', 'b']).

    Only '\\n' ends a line, as in GNU tools: a '\\r', form feed or Unicode line separator stays
    inside its line ('alpha\\rbeta\\n' is one line, as `wc -l` counts it).
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line starts no new one
    return lines


def rejoin(lines: list[str], trailing_newline: bool) -> str:
    if not lines:
        return ""
    return "\n".join(lines) + ("\n" if trailing_newline else "")


def wc_counts(text: str) -> tuple[int, int, int]:
    """(lines, words, bytes) as `wc` counts them: lines are newline characters."""
    return text.count("\n"), len(text.split()), byte_size(text)


_NUMBER = re.compile(r"^\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+))")


def leading_number(text: str) -> float:
    """The number a line starts with, as `sort -n` reads it (0 when there is none)."""
    match = _NUMBER.match(text)
    return float(match.group(1)) if match else 0.0


def tidy(value: float | None) -> int | float | None:
    """A number as a person writes it: whole numbers without '.0', others to 4 decimals."""
    if value is None:
        return None
    return int(value) if float(value).is_integer() else round(value, 4)


def as_number(text: str) -> float | None:
    try:
        return float(text.strip().replace(",", ""))
    except ValueError:
        return None


def field_of(line: str, index: int, delimiter: str | None) -> str:
    """The 1-based field `index` of a line (split on `delimiter`, or on runs of blanks when None)."""
    fields = line.split(delimiter) if delimiter is not None else line.split()
    return fields[index - 1] if 0 < index <= len(fields) else ""


def sort_lines(lines: list[str], *, reverse: bool, numeric: bool, unique: bool, ignore_case: bool,
               key: int | None, delimiter: str | None) -> list[str]:
    """Lines ordered as `sort` orders them: by key, ties by the whole line; with unique, the first of equal keys."""

    def sort_key(line: str) -> str | float:
        text = field_of(line, key, delimiter) if key else line
        text = text.lower() if ignore_case else text
        return leading_number(text) if numeric else text

    ordered = sorted(lines, key=lambda line: (sort_key(line), line), reverse=reverse)
    if not unique:
        return ordered
    kept: list[str] = []
    for line in ordered:
        if not kept or sort_key(line) != sort_key(kept[-1]):
            kept.append(line)
    return kept


def adjacent_runs(lines: list[str], ignore_case: bool) -> list[tuple[str, int]]:
    """(line, repeat count) for each run of equal adjacent lines, as `uniq -c` groups them."""
    runs: list[list] = []
    for line in lines:
        if runs and (runs[-1][0].lower() == line.lower() if ignore_case else runs[-1][0] == line):
            runs[-1][1] += 1
        else:
            runs.append([line, 1])
    return [(line, n) for line, n in runs]


def cut_line(line: str, fields: list[int], delimiter: str) -> str:
    """The 1-based `fields` of a line in file order, as `cut -f` prints them (a line without the delimiter whole)."""
    parts = line.split(delimiter)
    if len(parts) == 1:
        return line
    return delimiter.join(parts[f - 1] for f in sorted(set(fields)) if f <= len(parts))


def unified_diff(old: str, new: str, old_name: str, new_name: str, context: int) -> str:
    lines = difflib.unified_diff(
        lines_of(old), lines_of(new), fromfile=old_name, tofile=new_name, n=context, lineterm=""
    )
    return "\n".join(lines)


def excerpt(line: str, start: int, end: int, width: int) -> str:
    """`line` shortened to `width` characters around `line[start:end]` (a match), saying what was left out.

    A line of `width` characters or fewer comes back whole. Otherwise the kept part is centred on
    the match (its start, if the match itself is wider), and each cut end reads
    '[... N characters]', so the match is never lost and the cut is never silent.
    """
    if len(line) <= width:
        return line
    low = max(0, min(start - max(0, width - (end - start)) // 2, len(line) - width))
    high = low + width
    before = f"[... {low} characters] " if low else ""
    after = f" [... {len(line) - high} characters]" if high < len(line) else ""
    return before + line[low:high] + after


def clip(lines: list[str], limit: int, hint: str = "") -> str:
    """Join at most `limit` lines, noting how many were left out."""
    if len(lines) <= limit:
        return "\n".join(lines)
    more = len(lines) - limit
    note = f"... [{more} more line{'s' if more != 1 else ''} not shown{'; ' + hint if hint else ''}]"
    return "\n".join(lines[:limit] + [note])


# -- archives -----------------------------------------------------------------------------------

ARCHIVE_FORMAT = "prove-tar/1"


def encode_archive(entries: list[dict]) -> str:
    """An archive file's text: a JSON document listing every entry with its content."""
    return json.dumps({"format": ARCHIVE_FORMAT, "entries": entries}, ensure_ascii=False, indent=1) + "\n"


def decode_archive(text: str) -> list[dict] | None:
    """The entries of an archive's text, or None when the text is not an archive."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("format") != ARCHIVE_FORMAT or not isinstance(data.get("entries"), list):
        return None
    return data["entries"]
