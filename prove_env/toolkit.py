"""The server framework: a server is a `Toolkit` subclass with typed models, tools and a seed recipe.

    class Banking(Toolkit):
        '''Accounts, transfers and balances of a retail bank's customers.'''

        name = "banking"
        models = Base            # the server's SQLAlchemy DeclarativeBase
        seed = staticmethod(seed_bank)   # fills a fresh world from a SeedContext

        entities = (Entity("customer", Customer, "CUS", lookup="find_customers"),
                    Entity("account", Account, "ACC", lookup="list_accounts"))

        @tool(read_only=True)
        def list_accounts(self, customer_id: Id("customer"), limit: Limit = 10) -> list[dict]:
            '''List a customer's accounts.

            Args:
                limit: the most accounts to return.
            '''
            customer = self.get(Customer, customer_id)
            ...

Inside a tool, `self.world` is the episode's world, `self.db` its SQLAlchemy session,
`self.rows(sql, *params)` a read-only SQL query on it, and `self.now` its frozen clock. A domain
failure is raised as `ToolError("readable message")`.
Everything else is derived once here for every tool, so server code never touches the protocol:
schemas and strict validation from the type hints (`prove_env.params`) and the docstring, MCP
annotations, transactions, results as JSON, and from the declared entities the kinds a tool
consumes (its `Id(...)` parameters) and produces (it is the kind's look-up tool), the id format
in the parameter's description, and one wording of "not found" (`get`).
"""

from __future__ import annotations

import collections
import datetime as dt
import functools
import inspect
import json
import logging
import re
import textwrap
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from sqlalchemy import Date as SQLDate
from sqlalchemy import DateTime as SQLDateTime
from sqlalchemy import MetaData
from sqlalchemy import inspect as sqlalchemy_inspect
from sqlalchemy.orm import DeclarativeBase, Session
from sqlalchemy.orm.attributes import instance_state

from prove_env.params import MAX_PAGE, Date, DateTime, Id, Limit, Money, id_kinds
from prove_env.world import SeedContext, World, _framework_tables

__all__ = [
    "Toolkit", "tool", "Entity", "Detail", "trailing_newline", "ToolError", "InternalToolError", "ToolSpec", "to_json", "RESERVED_NAMES",
    "Id", "Limit", "Money", "Date", "DateTime", "MAX_PAGE", "check_range", "sql_where",
]

logger = logging.getLogger("prove_env.toolkit")


class ToolError(Exception):
    """A domain failure, raised by a tool: the model reads its message (after "Error executing tool
    <name>: ", as an MCP server words a failed tool; see `prove_env.mcp_server.tool_result`).

    The framework's own class, so that defining a server does not import the MCP SDK.
    """


class InternalToolError(ToolError):
    """A tool failed for a reason other than a domain rule: a bug in the server."""

M = TypeVar("M")

RESERVED_NAMES = frozenset({"reset", "step", "state", "close", "get_reward"})
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Entity:
    """A kind of entity a person names and the model must look up: rows of `model` with ids such
    as 'ACC-0007' (`prefix`, `width` digits), found by the read-only tool `lookup`.

    `exists`, when given, tells whether a row still counts (a removed payee keeps its row but is
    "not found").
    """

    kind: str
    model: type = field(repr=False)
    prefix: str
    lookup: str
    width: int = 4
    exists: Callable[[Any], bool] | None = field(default=None, repr=False)

    @property
    def noun(self) -> str:
        return self.kind.replace("_", " ")

    @property
    def example(self) -> str:
        return f"{self.prefix}-{7:0{self.width}d}"

    def not_found(self, key: Any) -> str:
        """The one wording of a missing entity, with where ids come from."""
        return (f"{self.noun.capitalize()} {key!r} not found; {self.noun} ids look like {self.example!r} "
                f"and {self.lookup} finds them")


def trailing_newline(value: Any) -> Any:
    """A text without one final newline: 'a\n' and 'a' are the same file content to a user."""
    return value[:-1] if isinstance(value, str) and value.endswith("\n") else value


@dataclass(frozen=True)
class Detail:
    """A value in the world that a tool writes but a user does not specify, which the state check
    tolerates (see docs/reward.md): the working directory a `cd` leaves, a timestamp, a final
    newline.

    With `normalize` None, the column counts only on the rows the task's own reference calls
    change, where they set it to a value the user gave; with a function, values are compared
    after it (such as `trailing_newline`). On every other row a detail must keep its value (a
    change there is collateral damage), unless it is `anywhere`: state of the episode's session
    rather than of the user's data (the working directory), tolerated on every row.
    """

    table: str
    column: str
    normalize: Callable[[Any], Any] | None = None
    anywhere: bool = False


@dataclass(frozen=True)
class ToolSpec:
    """Everything known about one tool, derived once from its method.

    `produces` and `consumes` name entity kinds (such as "account"): a tool produces a kind when
    its result carries ids of that kind, and consumes it when a parameter takes such an id.
    `sets` and `requires` name states of the world (such as "card.frozen" or "cwd"): a tool sets
    a state it establishes, and requires one that its outcome depends on. The tool dependency
    graph of the task synthesizer is derived from these four (`prove_env.synthesis.graph`).
    """

    name: str
    description: str
    method: Callable[..., Any] = field(repr=False)
    # the pydantic field of each parameter, (type hint, FieldInfo): the validation model and the JSON
    # schema are built from them on first use, so listing or importing servers builds none
    fields: dict[str, Any] = field(repr=False, compare=False)
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    hidden: bool = False
    produces: tuple[str, ...] = ()
    consumes: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    # (parameter, entity kind, takes a list): the id parameters, checked to exist before the call
    ids: tuple[tuple[str, str, bool], ...] = ()
    details: tuple[Detail, ...] = ()

    @cached_property
    def arguments(self) -> type[BaseModel]:
        """The strict pydantic model the arguments are validated with."""
        return create_model(f"{self.name}_arguments", __base__=_Arguments, **self.fields)

    @cached_property
    def parameters(self) -> dict[str, Any]:
        """The JSON schema of the arguments, as MCP and the OpenAI format show it."""
        return _clean_schema(self.arguments.model_json_schema())

    @property
    def required(self) -> list[str]:
        return list(self.parameters.get("required", []))

    def openai_schema(self) -> dict[str, Any]:
        """The tool in OpenAI function-calling format."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }

    def validate(self, arguments: Any) -> dict[str, Any]:
        """Strictly validated keyword arguments, or a `ToolError` that says what is wrong."""
        if not isinstance(arguments, dict):
            raise ToolError(f"arguments must be a JSON object, got {type(arguments).__name__}")
        try:
            model = self.arguments.model_validate(arguments)
        except ValidationError as exc:
            raise ToolError(_explain(exc)) from None
        return dict(model.__dict__)  # the fields, in the schema's order (extra keys are refused)


def tool(
    *,
    read_only: bool = False,
    destructive: bool = False,
    idempotent: bool | None = None,
    hidden: bool = False,
    produces: tuple[str, ...] | list[str] = (),
    consumes: tuple[str, ...] | list[str] = (),
    sets: tuple[str, ...] | list[str] = (),
    requires: tuple[str, ...] | list[str] = (),
    details: tuple[Detail, ...] | list[Detail] = (),
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a `Toolkit` method as a tool.

    Args:
        read_only: the tool never changes the world.
        destructive: the tool deletes or overwrites data (a hint for clients, per MCP).
        idempotent: calling it twice with the same arguments has the effect of calling it once.
            Read-only tools are idempotent unless told otherwise.
        hidden: a helper or debug tool that is never shown to, nor callable by, the agent.
        produces: entity kinds whose ids the result carries.
        consumes: entity kinds whose ids the parameters take.
        sets: states of the world the tool establishes, such as "card.frozen".
        requires: states the tool's outcome depends on, such as "cwd" (set by another tool).
        details: values the tool writes that a user does not specify (`Detail`), which the
            state check of the reward tolerates.
    """
    if read_only and destructive:
        raise ValueError("a tool cannot be both read-only and destructive")

    def mark(method: Callable[..., Any]) -> Callable[..., Any]:
        method.__prove_tool__ = {  # type: ignore[attr-defined]
            "read_only": read_only,
            "destructive": destructive,
            "idempotent": read_only if idempotent is None else idempotent,
            "hidden": hidden,
            "produces": tuple(produces),
            "consumes": tuple(consumes),
            "sets": tuple(sets),
            "requires": tuple(requires),
            "details": tuple(details),
        }
        return method

    return mark


class Toolkit:
    """Base class of every server. Subclasses set `name`, `models` and `seed`, and define tools."""

    name: ClassVar[str]
    models: ClassVar[type[DeclarativeBase]]
    # The seed recipe: fills a fresh world. Declared as a staticmethod on the subclass.
    seed: ClassVar[Callable[[SeedContext], None]]
    # The kinds of entity the server's tools take ids of (see `Entity`).
    entities: ClassVar[tuple[Entity, ...]] = ()
    # Shown to MCP clients as the server's instructions; defaults to the class docstring.
    instructions: ClassVar[str | None] = None
    # Limits on one call: the JSON size of its arguments, and the length of its result text
    # (longer results are cut, with a visible marker saying how much).
    max_argument_chars: ClassVar[int] = 65_536
    max_result_chars: ClassVar[int] = 65_536

    def __init__(self, world: World) -> None:
        self.world = world

    @property
    def db(self) -> Session:
        return self.world.session

    @property
    def now(self) -> dt.datetime:
        return self.world.now

    def new_id(self, prefix: str, width: int = 4) -> str:
        return self.world.new_id(prefix, width)

    def rows(self, sql: str, *params: Any) -> list[tuple]:
        """The rows of a read-only SQL query on the world's database, after the call's pending
        writes: for hot read paths, where building an ORM statement costs more than the query.

        Date and datetime parameters are passed as the world stores them ('2026-10-17' and
        '2026-10-17 11:15:00.000000'), so they compare with its columns; values come back as stored.
        """
        self.world._flush()
        if any(isinstance(p, dt.date) for p in params):
            params = tuple(_stored(p) for p in params)
        return self.world.connection.execute(sql, params).fetchall()

    def find(self, model: type[M], *, name: str | None = None,
             name_columns: tuple[str | tuple[str, ...], ...] = ("name",), name_lstrip: str = "", or_id: bool = False,
             email: str | None = None, email_column: str = "email", email_part: bool = False, where: str = "",
             order_by: str | None = None, limit: int | None = None, columns: tuple[str, ...] = ()) -> list[Any]:
        """The rows of `model` a person names, as its loaded objects: the one way for a look-up tool to
        find people or places by part of a name and/or an email (`find_customers`, `find_homes`).

            self.find(Customer, name=name, name_columns=(("first_name", "last_name"),), email=email, limit=limit)

        One SQL query finds the matching ids, after the call's pending writes; its text is made from
        the model's table and the column names given here (never from the user's text) and kept per
        shape. The rows come back through the session, so the server's own summaries read them;
        rows already loaded are not read again, and those not loaded are loaded in one query.
        With `columns`, they come back as records of those columns instead (`m.name` reads the
        same, values as SQLite holds them), straight from the query: for a summary of plain text
        and number columns, which then costs no loading of objects, after a write included.

        Args:
            name: part of a name, ignoring case and surrounding spaces; blank or None: no criterion.
                It matches as SQL `LIKE '%text%'` does, so `%` and `_` in it stand for any text and
                any one character.
            name_columns: where the name is looked for: it matches when it is part of any of them;
                a tuple of columns is their values joined by one space, such as a first and last name.
            name_lstrip: characters dropped from the start of the name after its spaces, such as
                the '@' of a handle.
            or_id: the name also matches the row whose primary key it is, ignoring case (an
                airport's code).
            email: an email address, ignoring case and surrounding spaces, equal to `email_column`
                (with `email_part`, part of it); blank or None: no criterion.
            where: a fixed SQL condition of the server's own on the table's columns, such as
                "status = 'active'"; never made from arguments.
            order_by: the SQL order of the rows (the primary key by default).
            limit: the most rows to return; None: all of them.
            columns: the columns of the records to return instead of the model's objects.
        """
        text = name.strip().lstrip(name_lstrip).lower() if name and name.strip() else None
        address = email.strip().lower() if email and email.strip() else None
        shape = (model, None if text is None else name_columns, or_id and text is not None,
                 None if address is None else email_column, email_part, where, order_by, columns)
        found = _FIND_SQL.get(shape)
        if found is None:
            found = _FIND_SQL[shape] = _find_sql(model, *shape[1:])
        sql, record = found
        params: list[Any] = []
        if text is not None:
            params += [text] * (len(name_columns) + or_id)
        if address is not None:
            params.append(address)
        rows = self.rows(sql, *params, -1 if limit is None else limit)
        if record is not None:
            return [record._make(row) for row in rows]
        return self._objects(model, [row[0] for row in rows])

    def load(self, model: type[M], sql: str, *params: Any) -> list[M]:
        """The rows of `model` whose primary keys a read-only SQL query selects, in its order, as
        the session's objects: one query picks them (as `rows` runs it), those already loaded are
        not read again, and the others are loaded in one more query (and then stay loaded).

            self.load(Account, "SELECT id FROM accounts WHERE customer_id = ? ORDER BY id", customer.id)
        """
        return self._objects(model, [row[0] for row in self.rows(sql, *params)])

    def _objects(self, model: type[M], keys: list[Any]) -> list[M]:
        # Rows already loaded come straight from the identity map (the common case: a look-up
        # repeated in an episode); otherwise those missing are loaded in one query.
        identity, key_of = self.db.identity_map, _mapper(model).identity_key_from_primary_key
        found = [identity.get(key_of((key,))) for key in keys]
        if any(row is None or instance_state(row).expired for row in found):
            self.world.preload(model, keys)
            found = [self.db.get(model, key) for key in keys]
        return found

    def get(self, model: type[M], key: Any) -> M:
        """The entity of `model` with id `key`, or a ToolError saying it was not found (one wording
        for every server, naming the id format and the look-up tool)."""
        entity = self.entity_of(model)
        row = self.db.get(model, key)
        if row is None or (entity.exists is not None and not entity.exists(row)):
            raise ToolError(entity.not_found(key))
        return row

    @classmethod
    def entity_of(cls, model_or_kind: type | str) -> Entity:
        """The declared entity of a model class or a kind name."""
        for entity in cls.entities:
            if entity.model is model_or_kind or entity.kind == model_or_kind:
                return entity
        raise KeyError(f"server {cls.name} declares no entity for {model_or_kind!r}")

    # -- class-level introspection (computed once per server) ------------------------------------

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for attr in ("name", "models", "seed"):
            if attr not in cls.__dict__:
                raise TypeError(f"server {cls.__name__} must define {attr!r}")
        _framework_tables(cls.models.metadata)
        kinds = [e.kind for e in cls.entities]
        if len(set(kinds)) != len(kinds):
            raise TypeError(f"server {cls.__name__} declares an entity kind twice: {kinds}")
        specs = cls.specs()  # fail at import time, not at the first call
        for entity in cls.entities:
            spec = specs.get(entity.lookup)
            if spec is None or spec.hidden or not spec.read_only:
                raise TypeError(f"server {cls.__name__}: the look-up of {entity.kind!r}, {entity.lookup!r}, "
                                "is not a visible read-only tool")
        cls.details()

    @classmethod
    def metadata(cls) -> MetaData:
        return cls.models.metadata

    @classmethod
    def table_names(cls) -> list[str]:
        return sorted(cls.models.metadata.tables)

    @classmethod
    def description(cls) -> str:
        return cls.instructions or inspect.cleandoc(cls.__doc__ or cls.name)

    @classmethod
    def specs(cls) -> dict[str, ToolSpec]:
        """Every tool of the server by name, hidden ones included, in definition order."""
        cached = cls.__dict__.get("_specs")
        if cached is None:
            cached = {}
            for klass in reversed(cls.__mro__):
                for attr, method in vars(klass).items():
                    if callable(method) and hasattr(method, "__prove_tool__"):
                        cached[attr] = _spec(cls, attr, method)
            if not cached:
                raise TypeError(f"server {cls.__name__} defines no tools")
            cls._specs = cached
        return cached

    @classmethod
    def details(cls) -> dict[str, dict[str, Callable[[Any], Any] | None]]:
        """Every `Detail` the server's tools declare, as {table: {column: normalize}}."""
        cached = cls.__dict__.get("_details")
        if cached is None:
            cached = {}
            for spec in cls.specs().values():
                for detail in spec.details:
                    table = cls.models.metadata.tables.get(detail.table)
                    if table is None or detail.column not in table.c:
                        raise TypeError(f"{cls.__name__}.{spec.name}: detail {detail.table}.{detail.column} "
                                        "is not a column of the server's tables")
                    columns = cached.setdefault(detail.table, {})
                    if columns.get(detail.column, detail.normalize) is not detail.normalize:
                        raise TypeError(f"server {cls.__name__}: {detail.table}.{detail.column} is declared "
                                        "with two different normalizations")
                    columns[detail.column] = detail.normalize
            cls._details = cached
        return cached

    @classmethod
    def session_details(cls) -> frozenset[tuple[str, str]]:
        """The (table, column) of every detail declared `anywhere` (see `Detail`)."""
        cached = cls.__dict__.get("_session_details")
        if cached is None:
            cached = frozenset((d.table, d.column) for spec in cls.specs().values() for d in spec.details if d.anywhere)
            cls._session_details = cached
        return cached

    @classmethod
    def visible_specs(cls) -> list[ToolSpec]:
        return [s for s in cls.specs().values() if not s.hidden]

    @cached_property
    def _bound(self) -> dict[str, Callable[..., Any]]:
        return {name: getattr(self, name) for name in self.specs()}

    def run(self, name: str, arguments: dict[str, Any]) -> str:
        """Run one tool call and return its result as the text the model reads (the single call path).

        Arguments are size-checked and strictly validated; the tool runs in one transaction of the
        world, and its result is rendered to JSON before the transaction commits, so a call either
        succeeds completely or changes nothing. Domain failures raise `ToolError`; anything else is
        a bug in the server, logged with its traceback and reported as an `InternalToolError`.
        """
        spec = self.specs().get(name)
        if spec is None:
            raise ToolError(f"Unknown tool: {name}")
        size = _json_size(arguments)
        if size > self.max_argument_chars:
            raise ToolError(f"Arguments too large: {size} characters of JSON, the limit is {self.max_argument_chars}")
        kwargs = spec.validate(arguments)
        for param, kind, many in spec.ids:  # unknown ids fail first, all in one wording
            value = kwargs[param]
            if value is not None:
                for key in value if many else (value,):
                    self.get(self.entity_of(kind).model, key)
        try:
            with self.world.transaction(write=not spec.read_only):
                value = self._bound[name](**kwargs)
                text = (value or "(no output)") if isinstance(value, str) else to_json(value)
        except ToolError:
            raise
        except Exception as exc:
            logger.exception("tool %s of server %s raised", name, self.name)
            raise InternalToolError(
                f"internal error in {name} ({type(exc).__name__}); the world is unchanged"
            ) from exc
        if len(text) > self.max_result_chars:
            cut = len(text) - self.max_result_chars
            text = text[: self.max_result_chars] + f"\n[... {cut} more characters truncated]"
        return text

    def invariants(self) -> list[str]:
        """Domain rules the world must satisfy after any sequence of calls (empty when all hold).

        Servers override this (for example: every balance equals the sum of its ledger entries,
        nothing recorded as done lies after the clock: `after_now`); the test kit checks it on
        fresh worlds of many seeds and after every tool call of every test and random walk.
        """
        return []

    def after_now(self, *columns: Any) -> list[str]:
        """The rows whose time in one of `columns` (model attributes such as `Comment.created_at`,
        recording that something happened) lies after the world's clock: a seed or a tool that
        writes the future. For `invariants`:

            problems += self.after_now(Comment.created_at, Issue.updated_at)
        """
        problems = []
        for column in columns:
            table = column.class_.__table__
            keys = ", ".join(c.name for c in table.primary_key.columns)
            name = column.property.columns[0].name
            limit = self.now.date() if _is_date_column(column) else self.now
            for *key, value in self.rows(f'SELECT {keys}, {name} FROM "{table.name}" '
                                         f"WHERE {name} IS NOT NULL AND {name} > ? ORDER BY {keys}", limit):
                problems.append(f"{table.name} {'/'.join(map(str, key))}: {name} {value} is after the clock "
                                f"({self.now.isoformat()})")
        return problems


# -- helpers for tool bodies --------------------------------------------------------------------


def sql_where(*conditions: tuple[str, Any]) -> tuple[str, list[Any]]:
    """The SQL condition of the (condition, value) pairs whose value is not None, joined by AND
    ('1' when none is), and their values in order: the filters a caller gave, for `Toolkit.rows`
    and `Toolkit.load`. Each condition holds one `?` for its value.

        sql, params = sql_where(("status = ?", status), ("customer_id = ?", customer_id))
    """
    given = [(condition, value) for condition, value in conditions if value is not None]
    return " AND ".join(c for c, _ in given) or "1", [v for _, v in given]


def check_range(start: Any, end: Any, what: tuple[str, str] = ("start_date", "end_date")) -> None:
    """Refuse a range whose start is after its end (either may be None: open-ended)."""
    if start is not None and end is not None and start > end:
        raise ToolError(f"{what[0]} {start.isoformat()} is after {what[1]} {end.isoformat()}")


def to_json(value: Any) -> str:
    """Tool results as the model reads them: JSON, dates in ISO 8601, non-ASCII kept."""
    return _RESULT_JSON(value)


# -- internals ----------------------------------------------------------------------------------


def _is_date_column(column: Any) -> bool:
    """Whether a model attribute is a date column (stored as '2026-10-17', not a date-time)."""
    kind = column.property.columns[0].type
    return isinstance(kind, SQLDate) and not isinstance(kind, SQLDateTime)


def _stored(value: Any) -> Any:
    """A query parameter as SQLAlchemy stores its value in SQLite (dates and datetimes as text)."""
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


# Each shape of `Toolkit.find`, made once: (model, name columns, or_id, email column, email_part,
# where, order_by, columns) -> (SQL text, the record type of the columns or None).
_FIND_SQL: dict[tuple, tuple[str, Any]] = {}


def _find_sql(model: type, name_columns: tuple | None, or_id: bool, email_column: str | None, email_part: bool,
              where: str, order_by: str | None, columns: tuple[str, ...]) -> tuple[str, Any]:
    table = model.__table__  # type: ignore[attr-defined]
    (key,) = table.primary_key.columns
    known = {c.name for c in table.columns}

    def column(name: str) -> str:
        if name not in known:
            raise ValueError(f"find: {name!r} is not a column of {table.name}")
        return name

    conditions = []
    if name_columns is not None:
        spans = [" || ' ' || ".join(column(c) for c in ((spec,) if isinstance(spec, str) else spec))
                 for spec in name_columns]
        matches = [f"lower({span}) LIKE '%' || ? || '%'" for span in spans]
        if or_id:
            matches.append(f"lower({key.name}) = ?")
        conditions.append("(" + " OR ".join(matches) + ")")
    if email_column is not None:
        conditions.append(f"lower({column(email_column)}) " + ("LIKE '%' || ? || '%'" if email_part else "= ?"))
    if where:
        conditions.append(f"({where})")
    selected = ", ".join(column(c) for c in columns) if columns else key.name
    record = _record(model, columns) if columns else None
    return (f"SELECT {selected} FROM {table.name} WHERE {' AND '.join(conditions) or '1'} "
            f"ORDER BY {order_by or key.name} LIMIT ?"), record


@functools.cache
def _record(model: type, columns: tuple[str, ...]) -> type:
    return collections.namedtuple(f"{model.__name__}Record", columns)


@functools.cache
def _mapper(model: type) -> Any:
    return sqlalchemy_inspect(model)


# The text of each date and datetime a result held, kept: a world's few thousand dates recur in
# every listing, and formatting one costs about a microsecond (half of a date-heavy result's JSON).
_ISO: dict[dt.date, str] = {}


def _json_default(value: Any) -> Any:
    text = _ISO.get(value) if isinstance(value, dt.date) else None
    if text is not None:
        return text
    if isinstance(value, dt.datetime):
        text = value.isoformat(timespec="minutes") if value.second == 0 and not value.microsecond else value.isoformat()
    elif isinstance(value, dt.date):
        text = value.isoformat()
    elif isinstance(value, Decimal):
        return float(value)
    else:
        raise TypeError(f"{type(value).__name__} is not JSON-serialisable")
    if len(_ISO) < 1 << 16:
        _ISO[value] = text
    return text


# Made once: `json.dumps` with options builds a new encoder on every call. A result is a tree the tool
# built, so checking it for cycles (12% of encoding) buys nothing.
_RESULT_JSON = json.JSONEncoder(ensure_ascii=False, check_circular=False, default=_json_default).encode
_SIZE_JSON = json.JSONEncoder(ensure_ascii=False, default=str).encode


def _json_size(value: Any) -> int:
    try:
        return len(_SIZE_JSON(value))
    except (ValueError, RecursionError):
        return 1 << 30


class _Arguments(BaseModel):
    # Strict: "250" is not a number and 1 is not a boolean; unknown keys are errors.
    model_config = ConfigDict(strict=True, extra="forbid")


_ALLOWED = (str, int, float, bool)


def _spec(cls: type[Toolkit], name: str, method: Callable[..., Any]) -> ToolSpec:
    where = f"{cls.__name__}.{name}"
    if not _NAME.match(name) or name in RESERVED_NAMES:
        raise TypeError(f"{where}: tool names are snake_case and not one of {sorted(RESERVED_NAMES)}")
    doc = inspect.getdoc(method)
    if not doc:
        raise TypeError(f"{where}: every tool needs a docstring")
    summary, arg_docs = _parse_docstring(doc)
    hints = typing.get_type_hints(method, include_extras=True)
    fields: dict[str, Any] = {}
    consumed: list[str] = []
    ids: list[tuple[str, str, bool]] = []
    for param in list(inspect.signature(method).parameters.values())[1:]:
        if param.kind not in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
            raise TypeError(f"{where}: *args and **kwargs are not allowed in tools")
        if param.name not in hints:
            raise TypeError(f"{where}: parameter {param.name!r} needs a type hint")
        hint = hints[param.name]
        described = arg_docs.get(param.name)
        taken = id_kinds(hint)
        if taken is not None:
            kind, many = taken
            try:
                entity = cls.entity_of(kind)
            except KeyError:
                raise TypeError(f"{where}: parameter {param.name!r} takes ids of {kind!r}, which the server "
                                f"does not declare in `entities`") from None
            consumed.append(kind)
            ids.append((param.name, kind, many))
            described = _id_description(described, entity, many)
        elif described is None and _is_limit(hint):
            described = "the most results to return, from 1 to 100" + (
                f" (default {param.default})" if param.default is not inspect.Parameter.empty else "")
        if described is None:
            raise TypeError(f"{where}: parameter {param.name!r} is not described in the docstring's Args")
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[param.name] = (hint, Field(default, description=described))
    flags = dict(method.__prove_tool__)  # type: ignore[attr-defined]
    flags["consumes"] = tuple(dict.fromkeys([*flags["consumes"], *consumed]))
    looked_up = [e.kind for e in cls.entities if e.lookup == name]
    flags["produces"] = tuple(dict.fromkeys([*flags["produces"], *looked_up]))
    return ToolSpec(name=name, description=summary, method=method, fields=fields, ids=tuple(ids), **flags)


def _id_description(described: str | None, entity: Entity, many: bool) -> str:
    """The description of an id parameter, with the id format when the docstring leaves it out."""
    example = f"['{entity.example}']" if many else f"'{entity.example}'"
    if described is None:
        return f"the {entity.noun} id{'s' if many else ''}, such as {example}."
    if "such as" in described:
        return described
    return f"{described.rstrip('.')}, such as {example}."


def _is_limit(hint: Any) -> bool:
    return hint is Limit


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into its description and its Args entries."""
    lines = doc.splitlines()
    args: dict[str, str] = {}
    body: list[str] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "Args:":
            i += 1
            current = None
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                text = lines[i].strip()
                match = re.match(r"^(\w+)(?:\s*\([^)]*\))?:\s*(.*)$", text)
                if match and lines[i].startswith(" " * 4) and not lines[i].startswith(" " * 5):
                    current = match.group(1)
                    args[current] = match.group(2)
                elif current and text:
                    args[current] += " " + text
                i += 1
            continue
        body.append(lines[i])
        i += 1
    return textwrap.dedent("\n".join(body)).strip(), args


def _clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A compact JSON schema: no pydantic titles, `$defs` inlined, `additionalProperties` false."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        """A schema node without pydantic's "title" annotations (a property may still be named title)."""
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(defs[node["$ref"].split("/")[-1]])
            out = {}
            for key, value in node.items():
                if key == "title" and isinstance(value, str):
                    continue
                out[key] = {k: walk(v) for k, v in value.items()} if key == "properties" else walk(value)
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    out = walk(schema)
    for prop in out.get("properties", {}).values():
        # Optional[X] = None renders as anyOf[X, null]; show the model the plain type.
        variants = prop.get("anyOf")
        if variants and len(variants) == 2 and {"type": "null"} in variants:
            prop.update(next(v for v in variants if v != {"type": "null"}))
            del prop["anyOf"]
            if prop.get("default", 0) is None:
                del prop["default"]
    out.setdefault("required", [])
    out["additionalProperties"] = False
    return {"type": "object", "properties": out.get("properties", {}), "required": out["required"],
            "additionalProperties": False}


def _explain(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err["loc"]) or "arguments"
        if err["type"] == "missing":
            parts.append(f"missing required argument '{loc}'")
        elif err["type"] == "extra_forbidden":
            parts.append(f"unknown argument '{loc}'")
        else:
            got = err.get("input")
            shown = repr(got) if len(repr(got)) <= 60 else repr(got)[:57] + "..."
            parts.append(f"argument '{loc}': {err['msg'].lower()} (got {shown})")
    return "Invalid arguments: " + "; ".join(parts)

