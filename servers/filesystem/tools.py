"""The filesystem server: a virtual POSIX-like file system with a shell working directory per episode.

Every file, directory and symbolic link is a row of the world's database; nothing here touches the
real disk. Tools named after shell commands (ls, cd, grep, mv, ...) behave like them and return
the text the command would print; the other tools return JSON.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Literal

from sqlalchemy import select

from prove_env.toolkit import Detail, Toolkit, ToolError, tool, trailing_newline

from . import helpers as h
from .models import Base, Node, Shell
from .seed import seed

_TYPE_NAMES = {"file": "file", "dir": "directory", "symlink": "symlink"}
# What a user does not specify: where the shell is left, and a written file's final newline and time.
_WORKING_DIRECTORY = (Detail("shell", "cwd", anywhere=True), Detail("shell", "oldpwd", anywhere=True))
_WRITTEN_FILE = (Detail("nodes", "content", trailing_newline), Detail("nodes", "mtime"))
_MAX_LINES = 1000  # the most lines a text result carries
_MAX_READ = 500  # the most lines read_file returns per call
_MAX_LINE_CHARS = 500


class _NotFound(ToolError):
    """A path (or one of its parents) does not exist or is not a directory."""


class FileSystem(Toolkit):
    """A virtual Unix file system: one user's home directory plus /etc, /tmp, /var/log and /opt.

    The shell has a current working directory that persists between calls (initially the home
    directory). Paths may be absolute ('/etc/hosts') or relative to the working directory
    ('notes/todo.md', '../data'); '~' is the home directory; '.', '..' and repeated slashes are
    resolved. Permissions are enforced for the logged-in (non-root) user. Tools named after shell
    commands return the text the command prints; other tools return JSON.
    """

    name = "filesystem"
    models = Base
    seed = staticmethod(seed)

    # == shell state ==============================================================================

    @tool(read_only=True, produces=("directory",))
    def pwd(self) -> str:
        """Print the current working directory, such as '/home/maria/notes'."""
        return self._shell().cwd

    @tool(consumes=("directory", "path"), produces=("directory",), sets=("cwd",), details=_WORKING_DIRECTORY)
    def cd(self, path: str | None = None) -> str:
        """Change the current working directory and print the new one.

        Later relative paths are resolved from it. Symbolic links are resolved, so the printed
        directory is the physical one.

        Args:
            path: the directory to enter, absolute or relative: 'notes', '../data', '/etc', '~'
                (the home directory, also the default when left out) or '-' (the previous
                directory).
        """
        shell = self._shell()
        if path == "-":
            if shell.oldpwd is None:
                raise ToolError("cd: OLDPWD not set (no previous directory yet)")
            path = shell.oldpwd
        abs_path = self._abs(path if path is not None else "~")
        canon, node = self._resolve(abs_path)
        if node is None:
            raise ToolError(f"No such file or directory: {abs_path}")
        if node.kind != "dir":
            raise ToolError(f"Not a directory: {abs_path}")
        self._require(node, "x", abs_path)
        shell.oldpwd, shell.cwd = shell.cwd, canon
        return canon

    @tool(read_only=True)
    def user_info(self) -> dict:
        """Return the logged-in user: name, groups, home directory and current working directory."""
        shell = self._shell()
        return {"user": shell.user, "groups": shell.groups.split(","), "home": shell.home, "cwd": shell.cwd}

    # == looking around ===========================================================================

    @tool(read_only=True, consumes=("path",), produces=("path",), requires=("cwd",))
    def ls(self, path: str | None = None, all: bool = False, long: bool = False, recursive: bool = False) -> str:
        """List a directory's entries (or show a file), one per line, sorted by name, like `ls -1`.

        With long=True each line is `permissions owner group size modified name`, such as
        '-rw-r--r-- maria maria 1520 2026-03-02 17:00 todo.md' (symbolic links end in
        '-> target'). With recursive=True every subdirectory is listed too, each under a
        'path:' header. Shell patterns are expanded ('notes/*.md'). An empty directory prints
        '(empty directory)'. Output stops after 1000 lines.

        Args:
            path: a directory, file or pattern, such as 'notes', '/etc' or '*.csv'; defaults to
                the current directory.
            all: also show hidden entries (names starting with '.').
            long: show permissions, owner, group, size in bytes and modification time.
            recursive: also list every subdirectory, depth first.
        """
        files: list[tuple[str, Node]] = []
        folders: list[tuple[str, Node]] = []
        for shown, abs_path in self._expand(path or "."):
            node = self._node(abs_path, follow=False)
            if node.kind == "symlink" and not long:
                target = self._resolve(abs_path)[1]
                node = target if target is not None and target.kind == "dir" else node
            (folders if node.kind == "dir" else files).append((shown, node))
        out = [self._ls_line(n, shown, long) for shown, n in files]
        headers = recursive or len(files) + len(folders) > 1
        for shown, folder in folders:
            sections: list[tuple[str, Node]] = [(shown, folder)]
            while sections:
                title, current = sections.pop(0)
                entries = [c for c in self._listing(current, title) if all or not c.name.startswith(".")]
                if out:
                    out.append("")
                if headers:
                    out.append(f"{title}:")
                out.extend(self._ls_line(c, c.name, long) for c in entries)
                if not entries and not headers:
                    out.append("(empty directory)")
                if recursive:
                    subdirs = [(self._under(title, current.path, c.path), c) for c in entries if c.kind == "dir"]
                    denied = [s for s in subdirs if not (self._can(s[1], "r") and self._can(s[1], "x"))]
                    out.extend(f"ls: cannot open directory '{t}': Permission denied" for t, _ in denied)
                    sections = [s for s in subdirs if s not in denied] + sections
        return h.clip(out, _MAX_LINES) if out else "(empty directory)"

    @tool(read_only=True, consumes=("directory",), produces=("path",), requires=("cwd",))
    def tree(self, path: str | None = None, max_depth: int | None = None, all: bool = False,
             dirs_only: bool = False) -> str:
        """Draw a directory tree, like `tree`, ending with a 'N directories, M files' summary.

        Entries are sorted by name; symbolic links show '-> target' and are not followed.
        Output stops after 1000 lines.

        Args:
            path: the directory at the top, such as 'projects'; defaults to the current directory.
            max_depth: how many levels to descend, such as 2; unlimited when left out.
            all: also show hidden entries (names starting with '.').
            dirs_only: show directories only.
        """
        self._check_positive(max_depth, "max_depth")
        shown, top = self._directory(path or ".")
        lines = [shown]
        counts = {"dir": 0, "file": 0}

        def draw(node: Node, prefix: str, depth: int) -> None:
            if not (self._can(node, "r") and self._can(node, "x")):
                lines.append(f"{prefix}[error opening dir: Permission denied]")
                return
            entries = [c for c in self._children(node.path)
                       if (all or not c.name.startswith(".")) and (not dirs_only or c.kind == "dir")]
            for i, child in enumerate(entries):
                last = i == len(entries) - 1
                label = child.name + (f" -> {child.target}" if child.kind == "symlink" else "")
                lines.append(f"{prefix}{'└── ' if last else '├── '}{label}")
                counts["dir" if child.kind == "dir" else "file"] += 1
                if child.kind == "dir" and (max_depth is None or depth + 1 < max_depth):
                    draw(child, prefix + ("    " if last else "│   "), depth + 1)

        draw(top, "", 0)
        summary = f"{counts['dir']} directories" + ("" if dirs_only else f", {counts['file']} files")
        return h.clip(lines, _MAX_LINES) + "\n\n" + summary

    @tool(read_only=True, consumes=("path",), produces=("path",))
    def stat(self, path: str) -> dict:
        """Return the details of one file, directory or symbolic link (the link itself, not its target).

        The result has path, type ('file', 'directory' or 'symlink'), size in bytes, mode
        (octal, such as '0644'), permissions ('-rw-r--r--'), owner, group and modified; plus
        lines for a file, entries for a directory and target for a symbolic link.

        Args:
            path: the path to describe, such as 'notes/todo.md' or '/etc/hosts'.
        """
        node = self._node(self._abs(path), follow=False)
        info = self._entry(node)
        if node.kind == "file":
            info["lines"] = len(h.lines_of(node.content or ""))
        elif node.kind == "dir":
            info["entries"] = len(self._children(node.path))
        return info

    @tool(read_only=True, consumes=("path",))
    def exists(self, path: str) -> dict:
        """Tell whether a path exists (following symbolic links), like `test -e`, and what it is.

        Returns {"path", "exists", "type"}; type is 'file', 'directory' or null.

        Args:
            path: the path to test, such as 'notes/archive' or '/etc/nginx/nginx.conf'.
        """
        abs_path = self._abs(path)
        try:
            node = self._resolve(abs_path)[1]
        except _NotFound:
            node = None
        return {"path": abs_path, "exists": node is not None, "type": _TYPE_NAMES[node.kind] if node else None}

    @tool(read_only=True, consumes=("directory",), produces=("path",), requires=("cwd",))
    def list_dir(self, path: str | None = None, all: bool = False,
                 sort_by: Literal["name", "size", "modified"] = "name", reverse: bool = False,
                 limit: int = 100) -> dict:
        """List a directory's entries as JSON records.

        Each entry has name, path, type, size, mode, permissions, owner, group and modified.
        sort_by 'name' is alphabetical; 'size' puts the largest first and 'modified' the newest
        first (ties by name). The result also gives the total number of entries and whether
        the list was truncated.

        Args:
            path: the directory, such as 'data' or '/etc'; defaults to the current directory.
            all: also include hidden entries (names starting with '.').
            sort_by: 'name', 'size' or 'modified'.
            reverse: reverse the order.
            limit: the most entries to return, such as 50 (at least 1).
        """
        self._check_positive(limit, "limit")
        shown, folder = self._directory(path or ".")
        entries = [c for c in self._listing(folder, shown) if all or not c.name.startswith(".")]
        if sort_by == "size":
            entries.sort(key=lambda n: (-self._size(n), n.name))
        elif sort_by == "modified":
            entries.sort(key=lambda n: (-n.mtime.timestamp(), n.name))
        if reverse:
            entries.reverse()
        return {"path": folder.path, "entries": [self._entry(n) for n in entries[:limit]],
                "total": len(entries), "truncated": len(entries) > limit}

    @tool(read_only=True, consumes=("directory",), produces=("path", "file", "directory"), requires=("cwd",))
    def find(self, path: str | None = None, name: str | None = None, type: Literal["f", "d", "l"] | None = None,
             max_depth: int | None = None, min_size: int | None = None, modified_within_days: int | None = None,
             ignore_case: bool = False, limit: int = 200) -> str:
        """Search a directory tree for entries matching every given test, like `find`; one path per line.

        Paths are printed the way the start directory was written ('find .' prints
        './notes/todo.md'), in depth-first order sorted by name; the start directory itself is
        included when it matches, under the name it was written with (so, as with GNU find,
        'find . -name work' never prints '.'). Symbolic links are not followed. Directories that
        cannot be read are reported as 'find: ...: Permission denied'. Prints '(no matches)' when
        nothing matches.

        Args:
            path: where to start, such as '.', 'projects' or '/etc'; defaults to '.'.
            name: a shell pattern the entry's name must match, such as '*.md' or 'meeting-*'.
            type: 'f' for files, 'd' for directories, 'l' for symbolic links.
            max_depth: descend at most this many levels below the start (0 tests the start only).
            min_size: only files of at least this many bytes, such as 1024.
            modified_within_days: only entries modified in the last N days, such as 7.
            ignore_case: match name without regard to case.
            limit: the most paths to print, such as 100 (at least 1).
        """
        self._check_positive(limit, "limit")
        if max_depth is not None and max_depth < 0:
            raise ToolError("max_depth must be 0 or more")
        shown, top = self._directory(path or ".")
        since = self.now - dt.timedelta(days=modified_within_days) if modified_within_days is not None else None
        kind = {"f": "file", "d": "dir", "l": "symlink"}.get(type or "")
        nodes, denied = self._walk(top, max_depth)
        start_name = h.basename(shown)  # '.', '..' or '/' when the start was written so
        out = [
            self._under(shown, top.path, n.path) for n, _ in nodes
            if (name is None or h.name_matches(name, start_name if n is top else n.name, ignore_case))
            and (kind is None or n.kind == kind)
            and (min_size is None or (n.kind == "file" and self._size(n) >= min_size))
            and (since is None or n.mtime >= since)
        ]
        notes = [f"find: '{self._under(shown, top.path, d)}': Permission denied" for d in denied]
        if not out:
            return "\n".join(["(no matches)", *notes])
        return h.clip(out, limit, "narrow the search or raise limit") + "".join("\n" + n for n in notes)

    @tool(read_only=True, produces=("path", "file", "directory"))
    def glob(self, pattern: str, limit: int = 200) -> dict:
        """Expand a shell pattern into the absolute paths that match it, sorted.

        '*' and '?' do not match a leading '.' of hidden names. Returns {"pattern",
        "matches", "truncated"}; matches is empty when nothing matches.

        Args:
            pattern: a pattern such as 'notes/*.md', '~/logs/*.log' or '/etc/*/*.conf'.
            limit: the most paths to return (at least 1).
        """
        self._check_positive(limit, "limit")
        matches = self._glob(self._abs(pattern)) if h.has_magic(pattern) else [
            p for p in [self._abs(pattern)] if self._exists(p)]
        return {"pattern": pattern, "matches": matches[:limit], "truncated": len(matches) > limit}

    @tool(read_only=True, consumes=("directory",), produces=("path",))
    def list_recent(self, path: str | None = None, limit: int = 10) -> dict:
        """List the most recently modified files under a directory (all depths), newest first.

        Returns {"path", "files": [{"path", "size", "modified"}]}. Hidden files are included.

        Args:
            path: the directory to search, such as 'notes'; defaults to the current directory.
            limit: how many files to return, such as 5 (at least 1).
        """
        self._check_positive(limit, "limit")
        _, top = self._directory(path or ".")
        files = [n for n, _ in self._walk(top)[0] if n.kind == "file"]
        files.sort(key=lambda n: (-n.mtime.timestamp(), n.path))
        return {"path": top.path,
                "files": [{"path": n.path, "size": self._size(n), "modified": n.mtime} for n in files[:limit]]}

    @tool(read_only=True, consumes=("path",))
    def realpath(self, path: str) -> str:
        """Print the absolute path with '.', '..', '~' and every symbolic link resolved.

        The last component may be missing (the path is still printed); earlier ones must exist.

        Args:
            path: the path to resolve, such as 'current/src' or '../notes/./todo.md'.
        """
        return self._resolve(self._abs(path))[0]

    @tool(read_only=True, consumes=("path",))
    def readlink(self, path: str) -> str:
        """Print the target a symbolic link points to, exactly as it was written.

        Args:
            path: the symbolic link, such as 'current'.
        """
        abs_path = self._abs(path)
        node = self._node(abs_path, follow=False)
        if node.kind != "symlink":
            raise ToolError(f"Invalid argument: {abs_path} is not a symbolic link")
        return node.target or ""

    # == reading files ============================================================================

    @tool(read_only=True, consumes=("file",), requires=("cwd",))
    def cat(self, path: str, number_lines: bool = False) -> str:
        """Print the content of a file, like `cat` (patterns such as 'notes/*.md' concatenate several).

        An empty file prints '(empty file)'. Output stops after 1000 lines; use read_file to
        page through longer files.

        Args:
            path: the file or pattern, such as 'notes/todo.md'.
            number_lines: prefix each line with its number and a tab, like `cat -n`.
        """
        lines: list[str] = []
        for _, abs_path in self._expand(path):
            lines.extend(h.lines_of(self._read(abs_path).content or ""))
        if number_lines:
            lines = [f"{i:6d}\t{line}" for i, line in enumerate(lines, 1)]
        return h.clip(lines, _MAX_LINES, "use read_file with start_line to read on") if lines else "(empty file)"

    @tool(read_only=True, consumes=("file",))
    def head(self, path: str, n: int = 10) -> str:
        """Print the first n lines of a file, like `head -n`.

        Args:
            path: the file, such as 'data/sales-2025.csv'.
            n: how many lines, such as 5 (0 or more, at most 1000).
        """
        lines = h.lines_of(self._read(self._abs(path)).content or "")[:self._count(n)]
        return "\n".join(lines) if lines else "(empty file)"

    @tool(read_only=True, consumes=("file",))
    def tail(self, path: str, n: int = 10) -> str:
        """Print the last n lines of a file, like `tail -n`.

        Args:
            path: the file, such as 'logs/app.log'.
            n: how many lines, such as 20 (0 or more, at most 1000).
        """
        lines = h.lines_of(self._read(self._abs(path)).content or "")
        count = self._count(n)
        lines = lines[len(lines) - count:] if count else []
        return "\n".join(lines) if lines else "(empty file)"

    @tool(read_only=True, consumes=("file",))
    def read_file(self, path: str, start_line: int = 1, end_line: int | None = None) -> dict:
        """Read a file, or a range of its lines, as JSON.

        Returns {"path", "start_line", "end_line", "total_lines", "content", "truncated"};
        content is the text of lines start_line..end_line (inclusive, numbered from 1). At most
        500 lines come back per call: truncated tells whether more followed.

        Args:
            path: the file, such as 'notes/ideas.md'.
            start_line: the first line to return (1 = the first line of the file).
            end_line: the last line to return, inclusive; defaults to the end of the file.
        """
        node = self._read(self._abs(path))
        lines = h.lines_of(node.content or "")
        if start_line < 1:
            raise ToolError("start_line must be 1 or more")
        if end_line is not None and end_line < start_line:
            raise ToolError(f"end_line ({end_line}) must not be before start_line ({start_line})")
        if lines and start_line > len(lines):
            raise ToolError(f"start_line {start_line} is past the end of {node.path} ({len(lines)} lines)")
        last = min(len(lines), end_line if end_line is not None else len(lines))
        stop = min(last, start_line + _MAX_READ - 1)
        return {"path": node.path, "start_line": start_line, "end_line": stop, "total_lines": len(lines),
                "content": "\n".join(lines[start_line - 1:stop]), "truncated": stop < last}

    @tool(read_only=True, consumes=("file",))
    def wc(self, path: str) -> str:
        """Count lines, words and bytes of a file, like `wc`: prints 'lines words bytes path'.

        Lines are counted as newline characters, as `wc -l` does. A pattern such as '*.md'
        counts several files and adds a 'total' line.

        Args:
            path: the file or pattern, such as 'notes/todo.md' or 'logs/*.log'.
        """
        rows, totals = [], [0, 0, 0]
        for shown, abs_path in self._expand(path):
            counts = h.wc_counts(self._read(abs_path).content or "")
            totals = [a + b for a, b in zip(totals, counts)]
            rows.append(f"{counts[0]} {counts[1]} {counts[2]} {shown}")
        if len(rows) > 1:
            rows.append(f"{totals[0]} {totals[1]} {totals[2]} total")
        return "\n".join(rows)

    @tool(read_only=True, consumes=("file",))
    def diff(self, path1: str, path2: str, context: int = 3) -> str:
        """Compare two files line by line and print a unified diff, like `diff -u`.

        The header names the files as written ('--- a.txt', '+++ b.txt'); prints
        '(no differences)' when the files are identical.

        Args:
            path1: the original file, such as 'data/sales-2025.csv'.
            path2: the changed file, such as 'data/backup/sales-2025.csv'.
            context: how many unchanged lines to show around each change (0 or more).
        """
        if context < 0:
            raise ToolError("context must be 0 or more")
        old = self._read(self._abs(path1)).content or ""
        new = self._read(self._abs(path2)).content or ""
        text = h.unified_diff(old, new, path1, path2, context)
        return h.clip(text.split("\n"), _MAX_LINES) if text else "(no differences)"

    @tool(read_only=True, consumes=("file",))
    def checksum(self, path: str, algorithm: Literal["sha256", "sha1", "md5"] = "sha256") -> dict:
        """Compute a checksum of a file's content (UTF-8 bytes), like `sha256sum`.

        Returns {"path", "algorithm", "checksum"} with the hex digest.

        Args:
            path: the file, such as 'data/sales-2025.csv'.
            algorithm: 'sha256', 'sha1' or 'md5'.
        """
        node = self._read(self._abs(path))
        digest = hashlib.new(algorithm, (node.content or "").encode("utf-8")).hexdigest()
        return {"path": node.path, "algorithm": algorithm, "checksum": digest}

    @tool(read_only=True, consumes=("file",))
    def column_stats(self, path: str, column: str, delimiter: str = ",", header: bool = True) -> dict:
        """Summarize one numeric column of a delimited file (such as a CSV), like a small `awk` script.

        Returns {"path", "column", "count", "sum", "min", "max", "mean", "skipped"}: skipped
        counts rows whose value is empty or not a number.

        Args:
            path: the file, such as 'data/sales-2025.csv'.
            column: the column's header name, such as 'revenue', or its 1-based number, such as '5'.
            delimiter: the field separator, one character, such as ',' or '\\t'.
            header: whether the first line holds column names (it is not counted).
        """
        if len(delimiter) != 1:
            raise ToolError("the delimiter must be a single character")
        node = self._read(self._abs(path))
        lines = [line for line in h.lines_of(node.content or "") if line.strip()]
        names = lines[0].split(delimiter) if header and lines else []
        if column in names:
            index = names.index(column)
        elif column.isdigit() and int(column) >= 1:
            index = int(column) - 1
        else:
            raise ToolError(f"No column {column!r}; the columns are {names}" if names
                            else f"column must be a 1-based number such as '2', got {column!r}")
        values, skipped = [], 0
        for line in lines[1 if header else 0:]:
            fields = line.split(delimiter)
            value = h.as_number(fields[index]) if index < len(fields) else None
            if value is None:
                skipped += 1
            else:
                values.append(value)
        total = sum(values)
        return {"path": node.path, "column": names[index] if index < len(names) else column,
                "count": len(values), "sum": h.tidy(total), "min": h.tidy(min(values, default=None)),
                "max": h.tidy(max(values, default=None)), "mean": h.tidy(total / len(values) if values else None),
                "skipped": skipped}

    # == searching and text processing ============================================================

    @tool(read_only=True, consumes=("path",), produces=("file",))
    def grep(self, pattern: str, path: str, recursive: bool = False, ignore_case: bool = False,
             fixed_string: bool = False, line_numbers: bool = True, invert_match: bool = False,
             files_with_matches: bool = False, count: bool = False, include: str | None = None,
             limit: int = 200) -> str:
        """Print the lines of files that match a regular expression, like `grep -n`.

        Each line prints as 'line:text', prefixed with 'file:' when several files are searched
        (recursive=True or a pattern such as 'logs/*.log'): 'notes/todo.md:3:- [ ] Call Bob'.
        Lines end at newlines only. A line longer than 500 characters prints as the 500 around
        its first match, with '[... N characters]' where characters were left out.
        Prints '(no matches)' when nothing matches. Symbolic links are not followed while
        recursing; unreadable files and directories are skipped.

        Args:
            pattern: a Python regular expression such as 'ERROR|WARN' or 'port: \\d+' (or plain
                text with fixed_string=True).
            path: the file, directory (with recursive=True) or file pattern to search, such as
                'logs/app.log', '.' or 'notes/*.md'.
            recursive: search every file below a directory, like `grep -r`.
            ignore_case: match without regard to case, like `grep -i`.
            fixed_string: treat pattern as plain text, not a regular expression, like `grep -F`.
            line_numbers: prefix matching lines with their line number.
            invert_match: print the lines that do NOT match, like `grep -v`.
            files_with_matches: print only the names of files with a match, like `grep -l`.
            count: print only the number of matching lines per file, like `grep -c`.
            include: when recursing, search only files whose name matches this shell pattern,
                such as '*.py'.
            limit: the most output lines, such as 50 (at least 1).
        """
        self._check_positive(limit, "limit")
        try:
            regex = re.compile(re.escape(pattern) if fixed_string else pattern, re.IGNORECASE if ignore_case else 0)
        except re.error as exc:
            raise ToolError(f"Invalid regular expression {pattern!r}: {exc}") from None
        targets: list[tuple[str, Node]] = []
        expanded = self._expand(path)
        many = recursive or len(expanded) > 1
        for shown, abs_path in expanded:
            canon, node = self._resolve(abs_path)
            if node is None:
                raise ToolError(f"No such file or directory: {abs_path}")
            if node.kind != "dir":
                targets.append((shown, node))
            elif not recursive:
                raise ToolError(f"Is a directory: {abs_path} (pass recursive=true to search inside it)")
            else:
                targets.extend((self._under(shown, canon, n.path), n) for n, _ in self._walk(node)[0]
                               if n.kind == "file" and (include is None or h.name_matches(include, n.name)))
        out: list[str] = []
        for shown, node in targets:
            if not self._can(node, "r"):
                if not many:
                    raise ToolError(f"Permission denied: {node.path}")
                continue
            hits = [(i, line, found) for i, line in enumerate(h.lines_of(node.content or ""), 1)
                    if bool(found := regex.search(line)) != invert_match]
            if files_with_matches:
                out.extend([shown] if hits else [])
            elif count:
                out.append(f"{shown}:{len(hits)}" if many else str(len(hits)))
            else:
                for i, line, found in hits:
                    text = h.excerpt(line, *(found.span() if found else (0, 0)), _MAX_LINE_CHARS)
                    out.append((f"{shown}:" if many else "") + (f"{i}:" if line_numbers else "") + text)
        return h.clip(out, limit, "narrow the pattern or raise limit") if out else "(no matches)"

    @tool(read_only=True, consumes=("directory",), produces=("file",))
    def search_files(self, query: str, path: str | None = None, ignore_case: bool = True,
                     name: str | None = None, limit: int = 20) -> dict:
        """Find the files under a directory (all depths) whose content contains a piece of text.

        Returns {"query", "path", "results": [{"path", "matches", "first_line", "excerpt"}],
        "total_files"}: matches counts matching lines, first_line is the number of the first
        one and excerpt its text. Results are sorted by path; unreadable files are skipped.

        Args:
            query: the text to look for (plain text, not a pattern), such as 'TODO'.
            path: the directory to search, such as 'projects'; defaults to the current directory.
            ignore_case: match without regard to case (the default).
            name: only files whose name matches this shell pattern, such as '*.md'.
            limit: the most files to return, such as 10 (at least 1).
        """
        self._check_positive(limit, "limit")
        if not query:
            raise ToolError("query must not be empty")
        _, top = self._directory(path or ".")
        needle = query.lower() if ignore_case else query
        results = []
        for node, _ in self._walk(top)[0]:
            if node.kind != "file" or not self._can(node, "r") or (name and not h.name_matches(name, node.name)):
                continue
            hits = [(i, line) for i, line in enumerate(h.lines_of(node.content or ""), 1)
                    if needle in (line.lower() if ignore_case else line)]
            if hits:
                results.append({"path": node.path, "matches": len(hits), "first_line": hits[0][0],
                                "excerpt": hits[0][1].strip()[:200]})
        return {"query": query, "path": top.path, "results": results[:limit], "total_files": len(results)}

    @tool(read_only=True, consumes=("file",))
    def sort(self, path: str, reverse: bool = False, numeric: bool = False, unique: bool = False,
             ignore_case: bool = False, key: int | None = None, delimiter: str | None = None,
             header: bool = False) -> str:
        """Print the lines of a file sorted, like `sort`; the file itself is not changed.

        Ties are broken by the whole line. With numeric=True lines (or key fields) compare by
        the number they start with; lines without one count as 0. Output stops after 1000 lines.

        Args:
            path: the file, such as 'data/expenses.csv'.
            reverse: sort in descending order, like `sort -r`.
            numeric: compare as numbers, like `sort -n`.
            unique: print only the first of lines with equal keys, like `sort -u`.
            ignore_case: compare without regard to case, like `sort -f`.
            key: sort by this 1-based field instead of the whole line, like `sort -k3,3`.
            delimiter: the field separator for key, such as ','; defaults to runs of blanks.
            header: keep the first line (a CSV header) on top, unsorted.
        """
        if key is not None and key < 1:
            raise ToolError("key must be a field number of 1 or more")
        if delimiter is not None and len(delimiter) != 1:
            raise ToolError("the delimiter must be a single character")
        lines = h.lines_of(self._read(self._abs(path)).content or "")
        top, lines = (lines[:1], lines[1:]) if header else ([], lines)
        result = top + h.sort_lines(lines, reverse=reverse, numeric=numeric, unique=unique,
                                    ignore_case=ignore_case, key=key, delimiter=delimiter)
        return h.clip(result, _MAX_LINES) if result else "(empty file)"

    @tool(read_only=True, consumes=("file",))
    def uniq(self, path: str, count: bool = False, repeated: bool = False, ignore_case: bool = False) -> str:
        """Collapse runs of identical adjacent lines of a file into one, like `uniq` (sort first for all duplicates).

        Args:
            path: the file, such as 'notes/todo.md'.
            count: prefix each line with how many times it occurred in a row, like `uniq -c`.
            repeated: print only lines that occurred more than once in a row, like `uniq -d`.
            ignore_case: compare lines without regard to case, like `uniq -i`.
        """
        runs = h.adjacent_runs(h.lines_of(self._read(self._abs(path)).content or ""), ignore_case)
        out = [f"{n:7d} {line}" if count else line for line, n in runs if not repeated or n > 1]
        return h.clip(out, _MAX_LINES) if out else "(no output)"

    @tool(read_only=True, consumes=("file",))
    def cut(self, path: str, fields: list[int], delimiter: str = "\t") -> str:
        """Print selected fields of each line of a file, like `cut -d, -f2,4`.

        Fields are printed in file order, joined by the delimiter. Lines without the delimiter
        print whole, as `cut` does. Output stops after 1000 lines.

        Args:
            path: the file, such as 'data/contacts.csv'.
            fields: the 1-based field numbers to keep, such as [1, 3].
            delimiter: the field separator, one character, such as ','; defaults to a tab.
        """
        if len(delimiter) != 1:
            raise ToolError("the delimiter must be a single character")
        if not fields or any(f < 1 for f in fields):
            raise ToolError("fields must list field numbers of 1 or more, such as [1, 3]")
        out = [h.cut_line(line, fields, delimiter) for line in h.lines_of(self._read(self._abs(path)).content or "")]
        return h.clip(out, _MAX_LINES) if out else "(empty file)"

    # == sizes ====================================================================================

    @tool(read_only=True, consumes=("path",))
    def du(self, path: str | None = None, summarize: bool = False, max_depth: int | None = None,
           human_readable: bool = False) -> str:
        """Print the disk usage of a directory and its subdirectories, like `du -b`: 'size<TAB>path' lines.

        Sizes are apparent sizes: the bytes of the files' contents below each directory.
        Subdirectories come before their parent and the start directory is last.

        Args:
            path: a directory or file, such as 'projects'; defaults to the current directory.
            summarize: print only the total of the start directory, like `du -s`.
            max_depth: print directories at most this many levels below the start (0 = only
                the start, like summarize); all levels are still counted.
            human_readable: print sizes such as '1.5K' or '2.0M', like `du -h`.
        """
        if max_depth is not None and max_depth < 0:
            raise ToolError("max_depth must be 0 or more")
        abs_path = self._abs(path or ".")
        shown = self._typed(path or ".")
        canon, top = self._resolve(abs_path)
        if top is None:
            raise ToolError(f"No such file or directory: {abs_path}")
        depth_limit = 0 if summarize else max_depth
        fmt = h.human_size if human_readable else str
        if top.kind != "dir":
            return f"{fmt(self._size(top) if top.kind == 'file' else 0)}\t{shown}"
        rows: list[str] = []
        denied: list[str] = []

        def total(node: Node, depth: int) -> int:
            size = 0
            if not (self._can(node, "r") and self._can(node, "x")):
                denied.append(node.path)
            else:
                for child in self._children(node.path):
                    if child.kind == "dir":
                        size += total(child, depth + 1)
                    elif child.kind == "file":
                        size += self._size(child)
            if depth_limit is None or depth <= depth_limit:
                rows.append(f"{fmt(size)}\t{self._under(shown, canon, node.path)}")
            return size

        total(top, 0)
        rows += [f"du: cannot read directory '{self._under(shown, canon, d)}': Permission denied" for d in denied]
        return h.clip(rows, _MAX_LINES)

    @tool(read_only=True, consumes=("directory",))
    def disk_usage(self, path: str | None = None, top: int = 5) -> dict:
        """Summarize the space used under a directory (all depths) as JSON.

        Returns {"path", "total_bytes", "total_human", "files", "directories", "symlinks",
        "largest_files": [{"path", "size"}]}; unreadable directories are not counted.

        Args:
            path: the directory, such as 'data'; defaults to the current directory.
            top: how many of the largest files to list, such as 3 (0 or more).
        """
        if top < 0:
            raise ToolError("top must be 0 or more")
        _, folder = self._directory(path or ".")
        nodes = [n for n, _ in self._walk(folder)[0] if n.path != folder.path]
        files = [n for n in nodes if n.kind == "file"]
        total = sum(self._size(n) for n in files)
        largest = sorted(files, key=lambda n: (-self._size(n), n.path))[:top]
        return {"path": folder.path, "total_bytes": total, "total_human": h.human_size(total), "files": len(files),
                "directories": sum(n.kind == "dir" for n in nodes), "symlinks": sum(n.kind == "symlink" for n in nodes),
                "largest_files": [{"path": n.path, "size": self._size(n)} for n in largest]}

    @tool(read_only=True, consumes=("directory",))
    def count_files(self, path: str | None = None, name: str | None = None) -> dict:
        """Count the files under a directory (all depths), optionally only those whose name matches a pattern.

        Returns {"path", "name", "files", "directories", "by_extension"}; by_extension maps
        each file extension (such as '.md', or '' for none) to its count. Hidden files count.

        Args:
            path: the directory, such as 'projects'; defaults to the current directory.
            name: a shell pattern for file names, such as '*.py'.
        """
        _, folder = self._directory(path or ".")
        nodes = [n for n, _ in self._walk(folder)[0] if n.path != folder.path]
        files = [n for n in nodes if n.kind == "file" and (name is None or h.name_matches(name, n.name))]
        by_ext: dict[str, int] = {}
        for n in files:
            ext = "." + n.name.rsplit(".", 1)[1] if "." in n.name.lstrip(".") else ""
            by_ext[ext] = by_ext.get(ext, 0) + 1
        return {"path": folder.path, "name": name, "files": len(files),
                "directories": sum(n.kind == "dir" for n in nodes), "by_extension": dict(sorted(by_ext.items()))}

    @tool(read_only=True, consumes=("directory",), produces=("file",))
    def find_duplicates(self, path: str | None = None, min_size: int = 1) -> dict:
        """Find files with identical content under a directory (all depths).

        Returns {"path", "groups": [{"checksum", "size", "paths"}]}, the largest files first;
        each group lists two or more paths whose contents are byte-for-byte equal (sha256).

        Args:
            path: the directory, such as 'data'; defaults to the current directory.
            min_size: ignore files smaller than this many bytes (0 includes empty files).
        """
        _, folder = self._directory(path or ".")
        groups: dict[str, list[Node]] = {}
        for node, _ in self._walk(folder)[0]:
            if node.kind == "file" and self._can(node, "r") and self._size(node) >= min_size:
                digest = hashlib.sha256((node.content or "").encode("utf-8")).hexdigest()
                groups.setdefault(digest, []).append(node)
        found = [{"checksum": d, "size": self._size(ns[0]), "paths": sorted(n.path for n in ns)}
                 for d, ns in groups.items() if len(ns) > 1]
        found.sort(key=lambda g: (-g["size"], g["paths"][0]))
        return {"path": folder.path, "groups": found}

    # == creating and writing =====================================================================

    @tool(consumes=("path",), produces=("directory",), requires=("cwd",))
    def mkdir(self, path: str, parents: bool = False) -> str:
        """Create a directory, like `mkdir -v`; prints each directory created.

        Fails with 'File exists' when the path exists (so repeating a plain mkdir fails), unless
        parents=True and it is a directory already: `mkdir -p` may be repeated and does nothing
        more.

        Args:
            path: the new directory, such as 'notes/archive' or '/tmp/work'.
            parents: also create missing parent directories and accept an existing directory,
                like `mkdir -p`.
        """
        abs_path = self._abs(path)
        if not parents:
            canon, node = self._resolve(abs_path)
            if node is not None:
                raise ToolError(f"File exists: {abs_path}")
            self._create(canon, "dir")
            return f"created directory '{canon}'"
        created, current = [], "/"
        for part in h.parts_of(abs_path):
            canon, node = self._resolve(h.join(current, part))
            if node is None:
                self._create(canon, "dir")
                created.append(f"created directory '{canon}'")
            elif node.kind != "dir":
                raise ToolError(f"Not a directory: {canon} exists and is a file")
            current = canon
        return "\n".join(created) or f"(nothing to do: '{abs_path}' already exists)"

    @tool(idempotent=True, consumes=("path",), produces=("file",), requires=("cwd",))
    def touch(self, path: str) -> str:
        """Create an empty file, or set an existing file's or directory's modification time to now, like `touch`.

        Args:
            path: the file, such as 'notes/new-idea.md'.
        """
        abs_path = self._abs(path)
        canon, node = self._resolve(abs_path)
        if node is None:
            self._create(canon, "file", content="")
            return f"created empty file '{canon}'"
        if node.owner != self._shell().user and not self._can(node, "w"):
            raise ToolError(f"Permission denied: {abs_path}")
        node.mtime = self.now
        return f"updated the modification time of '{canon}'"

    @tool(destructive=True, consumes=("path",), produces=("file",), details=_WRITTEN_FILE)
    def echo(self, text: str, file: str | None = None, append: bool = False) -> str:
        """Print text, or write it plus a newline to a file, like `echo text > file` / `>> file`.

        Without a file the text is returned as is. With a file, the file is created if missing
        and OVERWRITTEN unless append=True.

        Args:
            text: the text, such as 'export EDITOR=vim'.
            file: the file to write to, such as 'notes/todo.md'; leave out to just print.
            append: add to the end of the file instead of overwriting it, like `>>`.
        """
        if file is None:
            return text
        node, created = self._put(file, text + "\n", append=append, own_line=False)
        verb = "appended" if append and not created else "wrote"
        return f"{verb} {h.byte_size(text + chr(10))} bytes to '{node.path}'"

    @tool(destructive=True, idempotent=True, consumes=("path",), produces=("file",), requires=("cwd",),
          details=_WRITTEN_FILE)
    def write_file(self, path: str, content: str) -> dict:
        """Create a file, or replace its whole content, with the given text.

        The parent directory must exist. Returns {"path", "bytes", "lines", "created"}.

        Args:
            path: the file, such as 'notes/plan.md'.
            content: the complete new content, such as '# Plan\\n- step one\\n'.
        """
        node, created = self._put(path, content, append=False)
        return {"path": node.path, "bytes": self._size(node), "lines": len(h.lines_of(content)), "created": created}

    @tool(consumes=("path",), produces=("file",))
    def append_file(self, path: str, content: str) -> dict:
        """Add text to the end of a file, creating the file if it is missing.

        If the file is not empty and does not end with a newline, one is added first so the
        new text starts on its own line. Returns {"path", "bytes_appended", "size", "created"}.

        Args:
            path: the file, such as 'notes/todo.md'.
            content: the text to add, such as '- [ ] Call the plumber\\n'.
        """
        node, created = self._put(path, content, append=True, own_line=True)
        return {"path": node.path, "bytes_appended": h.byte_size(content), "size": self._size(node),
                "created": created}

    @tool(consumes=("file",))
    def replace_in_file(self, path: str, old: str, new: str, replace_all: bool = False) -> dict:
        """Replace an exact piece of text in a file (no patterns).

        Unless replace_all=True, old must occur exactly once; otherwise the call fails and
        says how many times it occurs. Returns {"path", "replacements"}.

        Args:
            path: the file, such as 'config/settings.yaml'.
            old: the exact text to find, including spaces and newlines, such as 'port: 8000'.
            new: the replacement text, such as 'port: 8080' (may be empty to delete).
            replace_all: replace every occurrence instead of requiring exactly one.
        """
        if not old:
            raise ToolError("old must not be empty")
        node = self._writable(path)
        found = (node.content or "").count(old)
        if found == 0:
            raise ToolError(f"Text not found in {node.path}: {old!r}")
        if found > 1 and not replace_all:
            raise ToolError(f"{old!r} occurs {found} times in {node.path}; include more surrounding text to "
                            "make it unique, or pass replace_all=true")
        self._set_content(node, (node.content or "").replace(old, new))
        return {"path": node.path, "replacements": found}

    @tool(consumes=("file",))
    def insert_lines(self, path: str, line: int, text: str) -> dict:
        """Insert text as new lines before a given line number of a file.

        Use line = (number of lines + 1) to add at the end. Returns {"path", "inserted",
        "total_lines"}.

        Args:
            path: the file, such as 'notes/todo.md'.
            line: the 1-based line number the new lines go before, such as 3.
            text: the lines to insert, separated by newlines, such as '- [ ] Buy milk'.
        """
        node = self._writable(path)
        lines = h.lines_of(node.content or "")
        if not 1 <= line <= len(lines) + 1:
            raise ToolError(f"line must be between 1 and {len(lines) + 1} for {node.path} ({len(lines)} lines)")
        new = h.lines_of(text) or [""]
        lines[line - 1:line - 1] = new
        self._set_content(node, h.rejoin(lines, True))
        return {"path": node.path, "inserted": len(new), "total_lines": len(lines)}

    @tool(destructive=True, consumes=("file",))
    def delete_lines(self, path: str, start_line: int, end_line: int | None = None) -> dict:
        """Delete a line, or a range of lines, from a file.

        Returns {"path", "deleted": [the removed lines], "total_lines"}.

        Args:
            path: the file, such as 'notes/todo.md'.
            start_line: the first line to delete, 1-based, such as 4.
            end_line: the last line to delete, inclusive; defaults to start_line.
        """
        node = self._writable(path)
        lines = h.lines_of(node.content or "")
        end = start_line if end_line is None else end_line
        if not 1 <= start_line <= end <= len(lines):
            raise ToolError(f"Line range {start_line}-{end} is outside {node.path} (lines 1-{len(lines)})")
        removed = lines[start_line - 1:end]
        del lines[start_line - 1:end]
        self._set_content(node, h.rejoin(lines, (node.content or "").endswith("\n")))
        return {"path": node.path, "deleted": removed, "total_lines": len(lines)}

    @tool(consumes=("file",))
    def sed(self, path: str, pattern: str, replacement: str, ignore_case: bool = False, first_only: bool = False,
            in_place: bool = False) -> str:
        """Substitute a regular expression on every line of a file, like `sed 's/pattern/replacement/g'`.

        Without in_place the edited text is printed and the file is left unchanged; with
        in_place=True the file is rewritten (like `sed -i`) and the number of substitutions is
        printed. Matches never span lines.

        Args:
            path: the file, such as 'config/settings.yaml'.
            pattern: a Python regular expression, such as 'level: \\w+'.
            replacement: the replacement; \\1 or \\g<1> insert captured groups, \\g<0> the whole match.
            ignore_case: match without regard to case.
            first_only: replace only the first match on each line (no 'g' flag).
            in_place: write the result back to the file instead of printing it.
        """
        try:
            regex = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
        except re.error as exc:
            raise ToolError(f"Invalid regular expression {pattern!r}: {exc}") from None
        node = self._writable(path) if in_place else self._read(self._abs(path))
        content = node.content or ""
        out, total = [], 0
        try:
            for line in h.lines_of(content):
                line, n = regex.subn(replacement, line, count=1 if first_only else 0)
                out.append(line)
                total += n
        except (re.error, IndexError) as exc:
            raise ToolError(f"Invalid replacement {replacement!r}: {exc}") from None
        if not in_place:
            return h.clip(out, _MAX_LINES) if out else "(empty file)"
        if total:
            self._set_content(node, h.rejoin(out, content.endswith("\n")))
        return f"{total} substitution{'s' if total != 1 else ''} in '{node.path}'"

    # == moving, copying, deleting ================================================================

    @tool(destructive=True, consumes=("path",), produces=("path",), requires=("cwd",))
    def mv(self, source: str, destination: str, no_clobber: bool = False) -> str:
        """Move or rename files and directories, like `mv -v`; prints 'renamed 'a' -> 'b'' per entry.

        If destination is an existing directory, the source moves into it under its own name;
        otherwise it is renamed to destination, replacing an existing file there (or an
        existing empty directory when moving a directory). A pattern such as 'notes/meeting-*'
        moves every match (destination must then be a directory). If the working directory is
        moved, it follows.

        Args:
            source: what to move, such as 'notes/todo.md', 'old-name' or 'downloads/*.txt'.
            destination: the new path or target directory, such as 'notes/archive/' or 'new-name'.
            no_clobber: fail instead of replacing an existing file, like `mv -n`.
        """
        sources = self._expand(source)
        dest_abs = self._abs(destination)
        dest, dest_node = self._resolve(dest_abs)
        if len(sources) > 1 and (dest_node is None or dest_node.kind != "dir"):
            raise ToolError(f"target '{dest_abs}' is not a directory (needed to move several files)")
        return "\n".join(self._move(abs_path, dest, no_clobber) for _, abs_path in sources)

    @tool(destructive=True, consumes=("path",), produces=("path",), requires=("cwd",))
    def cp(self, source: str, destination: str, recursive: bool = False, no_clobber: bool = False) -> str:
        """Copy files, or directories with recursive=True, like `cp -v`; prints ''a' -> 'b'' per source.

        If destination is an existing directory, the copy goes inside it under the source's
        name; otherwise destination is the copy's path, and an existing file there is
        overwritten. Copies keep the source's mode, belong to the user and are modified now.
        Copying a directory onto an existing one merges them. Symbolic links inside copied
        directories stay links. A pattern such as '*.csv' copies every match.

        Args:
            source: what to copy, such as 'notes/todo.md', 'projects/site' or 'data/*.csv'.
            destination: the copy's path or a target directory, such as 'backup/todo.md' or 'backup'.
            recursive: copy directories and everything in them, like `cp -r`.
            no_clobber: fail instead of overwriting an existing file, like `cp -n`.
        """
        sources = self._expand(source)
        dest_abs = self._abs(destination)
        dest, dest_node = self._resolve(dest_abs)
        into = dest_node is not None and dest_node.kind == "dir"
        if len(sources) > 1 and not into:
            raise ToolError(f"target '{dest_abs}' is not a directory (needed to copy several files)")
        out = []
        for _, abs_path in sources:
            canon, node = self._resolve(abs_path)
            if node is None:
                raise ToolError(f"No such file or directory: {abs_path}")
            final = h.join(dest, h.basename(abs_path)) if into else dest
            out.append(self._copy(abs_path, canon, node, final, recursive, no_clobber))
        return "\n".join(out)

    @tool(destructive=True, consumes=("path",), requires=("cwd",), sets=("directory.emptied",))
    def rm(self, path: str, recursive: bool = False, force: bool = False) -> str:
        """Delete files, or directories with recursive=True, like `rm -v`; prints what was removed.

        A path that does not exist fails with 'No such file or directory' (so repeating a plain
        rm fails), unless force=True: `rm -f` may be repeated and removes nothing more.

        Refuses '/', and the working directory or any of its parents. Write-protected files
        (such as mode 0444) are refused unless force=True. A pattern such as 'logs/*.log'
        removes every match. Symbolic links are removed, never what they point to.

        Args:
            path: the file, directory or pattern to delete, such as 'tmp/old.txt' or 'downloads/*.txt'.
            recursive: delete a directory and everything inside it, like `rm -r`.
            force: remove write-protected files too, and ignore paths that do not exist, like `rm -f`.
        """
        if self._abs(path) == "/":
            raise ToolError("it is dangerous to operate recursively on '/'; refusing to remove it")
        try:
            targets = self._expand(path)
        except _NotFound:
            if force:
                return "(nothing removed)"
            raise
        out = []
        for _, abs_path in targets:
            try:
                node = self._node(abs_path, follow=False)
            except _NotFound:
                if force:
                    continue
                raise
            if node.kind == "dir" and not recursive:
                raise ToolError(f"cannot remove '{abs_path}': Is a directory (pass recursive=true to delete it "
                                "with its contents, or use rmdir for an empty directory)")
            doomed = self._removable(node, abs_path, force)
            for victim in sorted(doomed, key=lambda n: n.path, reverse=True):
                self.db.delete(victim)
            self._parent(node).mtime = self.now
            self.db.flush()
            out.append(f"removed '{abs_path}'" if node.kind != "dir"
                       else f"removed directory '{abs_path}' ({len(doomed) - 1} entries inside)")
        return "\n".join(out) or "(nothing removed)"

    @tool(destructive=True, consumes=("directory",), requires=("directory.emptied",))
    def rmdir(self, path: str) -> str:
        """Delete an empty directory, like `rmdir`. Once it is gone, rmdir fails with 'No such file
        or directory', so repeating it fails.

        Args:
            path: the empty directory, such as 'pictures'.
        """
        abs_path = self._abs(path)
        canon, node = self._resolve(abs_path, follow=False)
        if node is None:
            raise ToolError(f"No such file or directory: {abs_path}")
        if node.kind != "dir":
            raise ToolError(f"Not a directory: {abs_path}")
        if canon == "/":
            raise ToolError("cannot remove '/': Device or resource busy")
        if self._children(canon):
            raise ToolError(f"Directory not empty: {abs_path}")
        self._guard_cwd(canon)
        self._check_unlink(node, abs_path)
        self.db.delete(node)
        self._parent(node).mtime = self.now
        self.db.flush()
        return f"removed directory '{abs_path}'"

    @tool(consumes=("path",), produces=("path",))
    def symlink(self, target: str, link_path: str) -> str:
        """Create a symbolic link, like `ln -s target link_path`; prints ''link' -> 'target''.

        The target is stored as written; a relative target is resolved from the link's
        directory when the link is used, and it need not exist. If link_path is an existing
        directory, the link is created inside it under the target's name.

        Args:
            target: what the link points to, such as '../projects/site' or '/var/log'.
            link_path: where to create the link, such as 'site' or 'shortcuts/'.
        """
        if not target:
            raise ToolError("target must not be empty")
        abs_path = self._abs(link_path)
        canon, node = self._resolve(abs_path)
        if node is not None and node.kind == "dir":
            canon, node = self._resolve(h.join(canon, h.basename(h.normalize("/" + target))), follow=False)
        else:
            canon, node = self._resolve(abs_path, follow=False)
        if node is not None:
            raise ToolError(f"File exists: {canon}")
        self._create(canon, "symlink", target=target)
        return f"'{canon}' -> '{target}'"

    @tool(idempotent=True, consumes=("path",))
    def chmod(self, path: str, mode: str, recursive: bool = False) -> str:
        """Change permission bits, like `chmod -v`; prints the old and new mode of each entry changed.

        Only the owner of a file may change its mode ('Operation not permitted' otherwise).
        Symbolic links are followed; with recursive=True links inside directories are skipped.

        Args:
            path: the file, directory or pattern, such as 'scripts/backup.sh' or 'scripts/*.sh'.
            mode: octal such as '644' or '0755', or symbolic such as 'u+x', 'go-w' or 'a=r,u+w'.
            recursive: also change everything inside directories, like `chmod -R`.
        """
        out = []
        for _, abs_path in self._expand(path):
            top = self._node(abs_path)
            nodes = [n for n, _ in self._walk(top)[0] if n.kind != "symlink"] if recursive else [top]
            for node in nodes:
                if node.owner != self._shell().user:
                    raise ToolError(f"Operation not permitted: {node.path} is owned by {node.owner}")
                try:
                    new = h.parse_mode(mode, node.mode, node.kind == "dir")
                except ValueError as exc:
                    raise ToolError(str(exc)) from None
                old, node.mode = node.mode, new
                old_text = f"{h.octal(old)} ({h.perm_string(node.kind, old)[1:]})"
                new_text = f"{h.octal(new)} ({h.perm_string(node.kind, new)[1:]})"
                out.append(f"mode of '{node.path}' changed from {old_text} to {new_text}" if old != new
                           else f"mode of '{node.path}' retained as {old_text}")
        return h.clip(out, _MAX_LINES)

    # == archives =================================================================================

    @tool(destructive=True, consumes=("path",), produces=("file",), sets=("archive",))
    def tar_create(self, archive: str, paths: list[str]) -> dict:
        """Pack files and directories (with everything inside) into one archive file, like `tar -cf`.

        Entries are stored under their own names ('notes' -> 'notes/todo.md', ...), with
        their mode, modification time and content. An existing archive file is overwritten.
        Returns {"archive", "entries", "bytes"}.

        Args:
            archive: the archive file to write, such as 'backup/notes.tar'.
            paths: the files and directories to pack, such as ['notes', 'data/expenses.csv'].
        """
        if not paths:
            raise ToolError("paths must name at least one file or directory")
        entries: list[dict] = []
        names: set[str] = set()
        for item in paths:
            canon, node = self._resolve(self._abs(item))
            if node is None:
                raise ToolError(f"No such file or directory: {self._abs(item)}")
            base = h.basename(self._abs(item))
            if base in names or base == "/":
                raise ToolError(f"cannot archive {self._abs(item)}: an entry named {base!r} is already included")
            names.add(base)
            nodes = [n for n, _ in self._walk(node)[0]] if node.kind == "dir" else [node]
            for n in nodes:
                if n.kind == "dir" and not (self._can(n, "r") and self._can(n, "x")):
                    raise ToolError(f"Permission denied: {n.path}")
                if n.kind == "file" and not self._can(n, "r"):
                    raise ToolError(f"Permission denied: {n.path}")
                entry = {"name": base + n.path[len(canon):], "type": n.kind, "mode": n.mode,
                         "mtime": n.mtime.isoformat(timespec="seconds")}
                if n.kind == "file":
                    entry["content"] = n.content or ""
                elif n.kind == "symlink":
                    entry["target"] = n.target
                entries.append(entry)
        node, _ = self._put(archive, h.encode_archive(entries), append=False)
        return {"archive": node.path, "entries": len(entries), "bytes": self._size(node)}

    @tool(read_only=True, consumes=("file",), produces=("path",), requires=("archive",))
    def tar_list(self, archive: str) -> dict:
        """List the entries of an archive made by tar_create, like `tar -tvf`.

        Returns {"archive", "entries": [{"name", "type", "size", "mode"}]}.

        Args:
            archive: the archive file, such as 'backup/notes.tar'.
        """
        node, entries = self._archive(archive)
        return {"archive": node.path, "entries": [
            {"name": e["name"], "type": _TYPE_NAMES.get(e["type"], e["type"]),
             "size": h.byte_size(e.get("content")), "mode": h.octal(e["mode"])} for e in entries]}

    @tool(destructive=True, consumes=("file", "directory"), produces=("path",), requires=("archive",))
    def tar_extract(self, archive: str, directory: str | None = None) -> dict:
        """Unpack an archive made by tar_create into a directory, like `tar -xf`.

        Existing directories are merged; existing files are overwritten. Files keep their
        archived mode and modification time. Returns {"directory", "extracted"}.

        Args:
            archive: the archive file, such as 'backup/notes.tar'.
            directory: where to unpack, an existing directory such as 'restore'; defaults to
                the current directory.
        """
        _, entries = self._archive(archive)
        _, dest = self._directory(directory or ".")
        made: set[str] = set()
        for entry in entries:
            name = h.normalize("/" + entry["name"])[1:]
            if not name or name != entry["name"].strip("/"):
                raise ToolError(f"refusing unsafe archive entry name {entry['name']!r}")
            path = h.join(dest.path, name)
            existing = self.db.get(Node, path)
            kind = entry.get("type")
            if kind not in _TYPE_NAMES:
                raise ToolError(f"archive entry {entry['name']!r} has an unknown type {kind!r}")
            if existing is not None:
                if kind == "dir" and existing.kind == "dir":
                    continue
                if kind != "file" or existing.kind != "file":
                    raise ToolError(f"File exists: {path} (cannot replace a {_TYPE_NAMES[existing.kind]} "
                                    f"with a {_TYPE_NAMES.get(kind, kind)})")
                self._require(existing, "w", path)
                existing.content, existing.mode = entry.get("content", ""), entry["mode"]
                existing.mtime = dt.datetime.fromisoformat(entry["mtime"])
                continue
            parent = self.db.get(Node, h.dirname(path))
            if parent is None or parent.kind != "dir":
                raise ToolError(f"No such file or directory: {h.dirname(path)}")
            node = self._create(path, kind, content=entry.get("content"), target=entry.get("target"),
                                mode=entry["mode"], check=parent.path not in made)
            node.mtime = dt.datetime.fromisoformat(entry["mtime"])
            if kind == "dir":
                made.add(path)
        return {"directory": dest.path, "extracted": len(entries)}

    # == hidden ===================================================================================

    @tool(read_only=True, hidden=True)
    def debug_nodes(self, prefix: str = "/") -> list[dict]:
        """Dump the raw rows of every node under a path (debugging aid, not for the agent).

        Args:
            prefix: an absolute path such as '/home'; the node itself and everything below it.
        """
        root = h.normalize(prefix)
        nodes = self.db.query(Node).order_by(Node.path).all()
        return [{"path": n.path, "kind": n.kind, "mode": h.octal(n.mode), "owner": n.owner, "group": n.group,
                 "size": self._size(n), "mtime": n.mtime, "target": n.target}
                for n in nodes if h.is_within(n.path, root)]

    # =============================================================================================
    # invariants

    def invariants(self) -> list[str]:
        """Every node's parent is an existing directory; only files have content; the working
        directory exists and is a directory (the previous one may since have been removed, as in a
        real shell); no modification time lies after the clock."""
        problems = self.after_now(Node.mtime)
        kinds = dict(self.db.execute(select(Node.path, Node.kind)).all())
        for path, parent, kind, content in self.db.execute(select(Node.path, Node.parent, Node.kind, Node.content)):
            if path == "/":
                continue
            if kinds.get(parent) != "dir":
                problems.append(f"{path}: its parent {parent} is not a directory")
            if parent != h.dirname(path):
                problems.append(f"{path}: parent recorded as {parent}")
            if (content is not None) != (kind == "file"):
                problems.append(f"{path}: a {kind} with{'' if content is not None else 'out'} content")
        shell = self._shell()
        if kinds.get(shell.cwd) != "dir":
            problems.append(f"the working directory {shell.cwd} is not a directory")
        return problems

    # =============================================================================================
    # private helpers

    def _shell(self) -> Shell:
        shell = self.db.get(Shell, 1)
        if shell is None:
            raise ToolError("the shell session is missing from this world")
        return shell

    # -- paths ------------------------------------------------------------------------------------

    def _abs(self, path: str) -> str:
        """The absolute, lexically normalized form of a path typed by the user."""
        if not path or not path.strip():
            raise ToolError("Invalid path: the path is empty")
        if "\0" in path:
            raise ToolError("Invalid path: it contains a NUL character")
        shell = self._shell()
        if path == "~" or path.startswith("~/"):
            path = shell.home + path[1:]
        elif not path.startswith("/"):
            path = h.join(shell.cwd, path)
        return h.normalize(path)

    def _typed(self, path: str) -> str:
        """A path as the shell would pass it on: '~' expanded, trailing slashes dropped."""
        if path == "~" or path.startswith("~/"):
            path = self._shell().home + path[1:]
        return path.rstrip("/") or "/"

    def _under(self, shown: str, start: str, path: str) -> str:
        """How `path` below `start` is displayed when `start` was written as `shown`."""
        if path == start:
            return shown
        rest = path[len(start):].lstrip("/")
        return "/" + rest if shown == "/" else f"{shown}/{rest}"

    def _resolve(self, abs_path: str, follow: bool = True) -> tuple[str, Node | None]:
        """The canonical path (symbolic links resolved) and node of an absolute path.

        The node is None when only the last component is missing; a missing or non-directory
        parent raises. Every directory passed through needs search ('x') permission.
        """
        parts = h.parts_of(abs_path)
        self._prefetch(parts)
        current, current_path, i, hops = self._root(), "/", 0, 0
        while i < len(parts):
            if current.kind != "dir":
                raise _NotFound(f"Not a directory: {current_path} (in {abs_path})")
            self._require(current, "x", abs_path)
            child_path = h.join(current_path, parts[i])
            child = self.db.get(Node, child_path)
            last = i == len(parts) - 1
            if child is None:
                if last:
                    return child_path, None
                raise _NotFound(f"No such file or directory: {abs_path}")
            if child.kind == "symlink" and (follow or not last):
                hops += 1
                if hops > 40:
                    raise ToolError(f"Too many levels of symbolic links: {abs_path}")
                target = child.target or ""
                base = target if target.startswith("/") else h.join(current_path, target)
                parts = h.parts_of(h.normalize(base)) + parts[i + 1:]
                current, current_path, i = self._root(), "/", 0
                continue
            current, current_path, i = child, child_path, i + 1
        return current_path, current

    def _prefetch(self, parts: list[str]) -> None:
        """Load the root and every ancestor of a path in one query; the walk then finds them loaded."""
        prefixes, path = ["/"], "/"
        for part in parts:
            path = h.join(path, part)
            prefixes.append(path)
        self.world.preload(Node, prefixes)

    def _root(self) -> Node:
        root = self.db.get(Node, "/")
        if root is None:
            raise ToolError("the file system has no root directory")
        return root

    def _node(self, abs_path: str, follow: bool = True) -> Node:
        node = self._resolve(abs_path, follow)[1]
        if node is None:
            raise _NotFound(f"No such file or directory: {abs_path}")
        return node

    def _exists(self, abs_path: str) -> bool:
        try:
            return self._resolve(abs_path, follow=False)[1] is not None
        except ToolError:
            return False

    def _directory(self, path: str) -> tuple[str, Node]:
        """(path as written, node) of an existing, listable directory."""
        abs_path = self._abs(path)
        node = self._node(abs_path)
        if node.kind != "dir":
            raise ToolError(f"Not a directory: {abs_path}")
        self._require(node, "r", abs_path)
        return self._typed(path), node

    def _read(self, abs_path: str) -> Node:
        """The node of an existing file the user may read."""
        node = self._node(abs_path)
        if node.kind == "dir":
            raise ToolError(f"Is a directory: {abs_path}")
        self._require(node, "r", abs_path)
        return node

    def _writable(self, path: str) -> Node:
        """The node of an existing file the user may write."""
        abs_path = self._abs(path)
        node = self._read(abs_path)
        self._require(node, "w", abs_path)
        return node

    def _expand(self, path: str) -> list[tuple[str, str]]:
        """(as shown, absolute path) for each path a shell argument stands for, patterns expanded."""
        abs_path = self._abs(path)
        if not h.has_magic(path):
            return [(self._typed(path), abs_path)]
        matches = self._glob(abs_path)
        if not matches:
            raise _NotFound(f"No such file or directory: {abs_path} (the pattern matches nothing)")
        relative = not path.startswith(("/", "~")) and ".." not in path.split("/")
        cwd = self._shell().cwd
        shown = [m[len(cwd):].lstrip("/") if relative and h.is_within(m, cwd) and m != cwd else m for m in matches]
        return list(zip(shown, matches))

    def _glob(self, pattern: str) -> list[str]:
        """Absolute paths matching a normalized absolute pattern, component by component, sorted."""
        found = ["/"]
        parts = h.parts_of(pattern)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            following: list[str] = []
            for base in found:
                try:
                    folder = self._resolve(base)[1]
                except ToolError:
                    continue
                if folder is None or folder.kind != "dir":
                    continue
                if not h.has_magic(part):
                    names = [part]
                elif self._can(folder, "r"):
                    names = [c.name for c in self._children(folder.path) if h.glob_component_matches(part, c.name)]
                else:
                    names = []
                for name in names:
                    candidate = h.join(base, name)
                    if last or h.has_magic(part) or self._exists(candidate):
                        following.append(candidate)
            found = following
        return sorted(p for p in set(found) if self._exists(p))

    # -- nodes ------------------------------------------------------------------------------------

    def _children(self, path: str) -> list[Node]:
        return self.db.query(Node).filter(Node.parent == path).order_by(Node.name).all()

    def _listing(self, folder: Node, shown: str) -> list[Node]:
        """A directory's entries by name, for the read-only tools that list it (see `Node.children`)."""
        self._require(folder, "r", shown)
        self._require(folder, "x", shown)
        return folder.children

    def _parent(self, node: Node) -> Node:
        return self.db.get(Node, node.parent or "/")

    def _walk(self, top: Node, max_depth: int | None = None) -> tuple[list[tuple[Node, int]], list[str]]:
        """Depth-first (by name) list of (node, depth) from `top`, and the directories that could not be read."""
        out: list[tuple[Node, int]] = []
        denied: list[str] = []

        def visit(node: Node, depth: int) -> None:
            out.append((node, depth))
            if node.kind != "dir" or (max_depth is not None and depth >= max_depth):
                return
            if not (self._can(node, "r") and self._can(node, "x")):
                denied.append(node.path)
                return
            for child in self._children(node.path):
                visit(child, depth + 1)

        visit(top, 0)
        return out, denied

    def _size(self, node: Node) -> int:
        if node.kind == "dir":
            return h.DIR_SIZE
        if node.kind == "symlink":
            return len(node.target or "")
        return h.byte_size(node.content)

    def _entry(self, node: Node) -> dict:
        entry = {"name": node.name, "path": node.path, "type": _TYPE_NAMES[node.kind], "size": self._size(node),
                 "mode": h.octal(node.mode), "permissions": h.perm_string(node.kind, node.mode),
                 "owner": node.owner, "group": node.group, "modified": node.mtime}
        if node.kind == "symlink":
            entry["target"] = node.target
        return entry

    def _ls_line(self, node: Node, label: str, long: bool) -> str:
        if not long:
            return label
        link = f" -> {node.target}" if node.kind == "symlink" else ""
        return (f"{h.perm_string(node.kind, node.mode)} {node.owner} {node.group} {self._size(node)} "
                f"{node.mtime:%Y-%m-%d %H:%M} {label}{link}")

    # -- permissions ------------------------------------------------------------------------------

    def _can(self, node: Node, what: str) -> bool:
        shell = self._shell()
        if node.kind == "symlink":
            return True
        if node.owner == shell.user:
            shift = 6
        elif node.group in shell.groups.split(","):
            shift = 3
        else:
            shift = 0
        return h.allows(node.mode, what, shift)

    def _require(self, node: Node, what: str, shown: str) -> None:
        if not self._can(node, what):
            raise ToolError(f"Permission denied: {shown}")

    def _check_unlink(self, node: Node, shown: str) -> None:
        """The user may remove or rename `node` in its directory (write permission, sticky bit)."""
        parent = self._parent(node)
        if not self._can(parent, "w"):
            raise ToolError(f"Permission denied: {shown} (no write permission on {parent.path})")
        user = self._shell().user
        if parent.mode & 0o1000 and user not in (node.owner, parent.owner):
            raise ToolError(f"Operation not permitted: {shown} belongs to {node.owner} in the sticky directory "
                            f"{parent.path}")

    def _guard_cwd(self, canon: str) -> None:
        if h.is_within(self._shell().cwd, canon):
            raise ToolError(f"cannot remove '{canon}': it is the current working directory or one of its parents; "
                            "cd elsewhere first")

    def _removable(self, node: Node, shown: str, force: bool) -> list[Node]:
        """Everything `rm` would delete for `node` (itself included), after checking it may."""
        if node.path == "/":
            raise ToolError("it is dangerous to operate recursively on '/'; refusing to remove it")
        self._guard_cwd(node.path)
        self._check_unlink(node, shown)
        doomed = [node]
        if node.kind == "dir":
            nodes, denied = self._walk(node)
            if denied:
                raise ToolError(f"cannot remove '{denied[0]}': Permission denied")
            for child, _ in nodes[1:]:
                if child.kind == "dir" and not self._can(child, "w"):
                    raise ToolError(f"cannot remove entries of '{child.path}': Permission denied")
            doomed = [n for n, _ in nodes]
        for victim in doomed:
            if victim.kind == "file" and not force and not self._can(victim, "w"):
                raise ToolError(f"cannot remove '{victim.path}': write-protected regular file "
                                "(pass force=true to remove it anyway)")
        return doomed

    # -- writing ----------------------------------------------------------------------------------

    def _create(self, canon: str, kind: str, content: str | None = None, target: str | None = None,
                mode: int | None = None, check: bool = True) -> Node:
        """A new node at a canonical path whose parent exists; the user needs write permission on the parent."""
        parent = self.db.get(Node, h.dirname(canon))
        if parent is None or parent.kind != "dir":
            raise ToolError(f"No such file or directory: {h.dirname(canon)}")
        if check and not self._can(parent, "w"):
            raise ToolError(f"Permission denied: {canon} (no write permission on {parent.path})")
        name = h.basename(canon)
        if len(name) > h.MAX_NAME:
            raise ToolError(f"File name too long: {name[:40]}...")
        shell = self._shell()
        default = {"file": 0o644, "dir": 0o755, "symlink": 0o777}[kind]
        node = Node(path=canon, parent=parent.path, name=name, kind=kind,
                    content=(content or "") if kind == "file" else None, target=target if kind == "symlink" else None,
                    mode=default if mode is None else mode, owner=shell.user, group=shell.groups.split(",")[0],
                    mtime=self.now)
        self.db.add(node)
        parent.mtime = self.now
        self.db.flush()
        return node

    def _set_content(self, node: Node, content: str) -> None:
        node.content = content
        node.mtime = self.now

    def _put(self, path: str, data: str, append: bool, own_line: bool = False) -> tuple[Node, bool]:
        """Write (or append) text to a file, creating it when missing: (node, created)."""
        abs_path = self._abs(path)
        canon, node = self._resolve(abs_path)
        if node is None:
            return self._create(canon, "file", content=data), True
        if node.kind == "dir":
            raise ToolError(f"Is a directory: {abs_path}")
        self._require(node, "w", abs_path)
        old = node.content or ""
        if append:
            joiner = "\n" if own_line and old and not old.endswith("\n") else ""
            data = old + joiner + data
        self._set_content(node, data)
        return node, False

    def _move(self, abs_path: str, dest: str, no_clobber: bool) -> str:
        canon, node = self._resolve(abs_path, follow=False)
        if node is None:
            raise ToolError(f"No such file or directory: {abs_path}")
        if canon == "/":
            raise ToolError("cannot move '/': Device or resource busy")
        dest_node = self.db.get(Node, dest)
        final = h.join(dest, node.name) if dest_node is not None and dest_node.kind == "dir" else dest
        if final == canon:
            raise ToolError(f"'{abs_path}' and '{final}' are the same file")
        if node.kind == "dir" and h.is_within(final, canon):
            raise ToolError(f"cannot move '{canon}' to a subdirectory of itself, '{final}'")
        new_parent = self.db.get(Node, h.dirname(final))
        if new_parent is None or new_parent.kind != "dir":
            raise ToolError(f"No such file or directory: {h.dirname(final)}")
        self._check_unlink(node, abs_path)
        self._require(new_parent, "x", final)
        if not self._can(new_parent, "w"):
            raise ToolError(f"Permission denied: {final} (no write permission on {new_parent.path})")
        existing = self.db.get(Node, final)
        if existing is not None:
            if existing.kind == "dir" and node.kind != "dir":
                raise ToolError(f"cannot overwrite directory '{final}' with non-directory '{abs_path}'")
            if existing.kind != "dir" and node.kind == "dir":
                raise ToolError(f"cannot overwrite non-directory '{final}' with directory '{abs_path}'")
            if existing.kind == "dir" and self._children(final):
                raise ToolError(f"cannot move '{abs_path}' to '{final}': Directory not empty")
            if no_clobber:
                raise ToolError(f"File exists: {final} (no_clobber is set)")
            self._check_unlink(existing, final)
            self._guard_cwd(final)
            self.db.delete(existing)
            self.db.flush()
        old_parent = self._parent(node)
        self._relocate(node, final)
        old_parent.mtime = new_parent.mtime = self.now
        shell = self._shell()
        for attr in ("cwd", "oldpwd"):
            current = getattr(shell, attr)
            if current is not None and h.is_within(current, canon):
                setattr(shell, attr, final + current[len(canon):])
        return f"renamed '{abs_path}' -> '{final}'"

    def _relocate(self, node: Node, new_path: str) -> None:
        """Give a node (and everything below it) a new path: the rows are re-created under it."""
        old = node.path
        moving = [node] + (self.db.query(Node).filter(Node.path.startswith(old + "/", autoescape=True)).all()
                           if node.kind == "dir" else [])
        copies = []
        for n in moving:
            path = new_path + n.path[len(old):]
            copies.append(Node(path=path, parent=h.dirname(path), name=h.basename(path), kind=n.kind,
                               content=n.content, target=n.target, mode=n.mode, owner=n.owner, group=n.group,
                               mtime=n.mtime))
        for n in moving:
            self.db.delete(n)
        self.db.flush()
        self.db.add_all(copies)
        self.db.flush()

    def _copy(self, shown: str, canon: str, node: Node, final: str, recursive: bool, no_clobber: bool) -> str:
        if final == canon:
            raise ToolError(f"'{shown}' and '{final}' are the same file")
        existing_canon, existing = self._resolve(final)
        if node.kind != "dir":
            self._require(node, "r", shown)
            if existing is node:
                raise ToolError(f"'{shown}' and '{final}' are the same file")
            if existing is None:
                self._create(existing_canon, "file", content=node.content, mode=node.mode)
            elif existing.kind == "dir":
                raise ToolError(f"cannot overwrite directory '{final}' with non-directory '{shown}'")
            elif no_clobber:
                raise ToolError(f"File exists: {final} (no_clobber is set)")
            else:
                self._require(existing, "w", final)
                self._set_content(existing, node.content or "")
            return f"'{shown}' -> '{existing_canon}'"
        if not recursive:
            raise ToolError(f"-r not specified; omitting directory '{shown}' (pass recursive=true to copy it)")
        if h.is_within(existing_canon, canon):
            raise ToolError(f"cannot copy a directory, '{shown}', into itself, '{existing_canon}'")
        nodes, denied = self._walk(node)
        if denied:
            raise ToolError(f"Permission denied: {denied[0]}")
        for n, _ in nodes:
            if n.kind == "file" and not self._can(n, "r"):
                raise ToolError(f"Permission denied: {n.path}")
        if existing is not None and existing.kind != "dir":
            raise ToolError(f"cannot overwrite non-directory '{final}' with directory '{shown}'")
        made: set[str] = set()
        counts = {"file": 0, "dir": 0, "symlink": 0}
        for n, _ in nodes:
            path = existing_canon + n.path[len(canon):]
            there = self.db.get(Node, path)
            check = h.dirname(path) not in made
            if n.kind == "dir":
                if there is None:
                    self._create(path, "dir", mode=n.mode, check=check)
                    made.add(path)
                elif there.kind != "dir":
                    raise ToolError(f"cannot overwrite non-directory '{path}' with directory '{n.path}'")
            elif there is None:
                self._create(path, n.kind, content=n.content, target=n.target, mode=n.mode, check=check)
            elif there.kind == "dir":
                raise ToolError(f"cannot overwrite directory '{path}' with non-directory '{n.path}'")
            elif no_clobber:
                raise ToolError(f"File exists: {path} (no_clobber is set)")
            elif n.kind == "file" and there.kind == "file":
                self._require(there, "w", path)
                self._set_content(there, n.content or "")
            else:
                raise ToolError(f"File exists: {path} (cannot replace a {_TYPE_NAMES[there.kind]} "
                                f"with a {_TYPE_NAMES[n.kind]})")
            counts[n.kind] += 1
        return (f"'{shown}' -> '{existing_canon}' ({counts['file']} files, {counts['dir']} directories"
                + (f", {counts['symlink']} links" if counts["symlink"] else "") + ")")

    def _archive(self, path: str) -> tuple[Node, list[dict]]:
        node = self._read(self._abs(path))
        entries = h.decode_archive(node.content or "")
        if entries is None:
            raise ToolError(f"{node.path} is not an archive made by tar_create")
        return node, entries

    # -- arguments --------------------------------------------------------------------------------

    def _check_positive(self, value: int | None, name: str) -> None:
        if value is not None and value < 1:
            raise ToolError(f"{name} must be 1 or more, got {value}")

    def _count(self, n: int) -> int:
        if not 0 <= n <= _MAX_LINES:
            raise ToolError(f"n must be between 0 and {_MAX_LINES}, got {n}")
        return n
