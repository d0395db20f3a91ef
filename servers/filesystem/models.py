"""The file system's tables: one row per file, directory or symbolic link, and the shell's state."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class Node(Base):
    """A file, directory or symbolic link, keyed by its absolute, normalized path."""

    __tablename__ = "nodes"

    path: Mapped[str] = mapped_column(String, primary_key=True)  # "/home/maria/notes/todo.md"
    parent: Mapped[str | None] = mapped_column(String, index=True)  # "/home/maria/notes"; None for "/"
    name: Mapped[str]  # "todo.md"; "/" for the root
    kind: Mapped[str]  # "file" | "dir" | "symlink"
    content: Mapped[str | None]  # text of a file; None for directories and links
    target: Mapped[str | None]  # what a symbolic link points to, as written ("../notes")
    mode: Mapped[int]  # permission bits, such as 0o644 (0o1777 for a sticky directory)
    owner: Mapped[str]
    group: Mapped[str]
    mtime: Mapped[dt.datetime]

    # A directory's entries by name. Read-only tools read them here (loaded once, kept until the next
    # write); a tool that writes lists them with a query, which sees its own changes.
    children: Mapped[list[Node]] = relationship(primaryjoin="Node.path == foreign(remote(Node.parent))",
                                                order_by="Node.name", viewonly=True)


class Shell(Base):
    """The episode's shell: who is logged in and where they are (a single row, id 1)."""

    __tablename__ = "shell"

    id: Mapped[int] = mapped_column(primary_key=True)
    user: Mapped[str]  # "maria"
    groups: Mapped[str]  # comma-separated, primary group first: "maria,developers"
    home: Mapped[str]  # "/home/maria"
    cwd: Mapped[str]  # the working directory, symbolic links resolved
    oldpwd: Mapped[str | None]  # the previous working directory (for `cd -`)
