"""Typed tool parameters: what a parameter is, said once in its type hint.

    def transfer(self, from_account_id: Id("account"), amount: Money, pin: str) -> dict: ...
    def list_transactions(self, account_id: Id("account"), start_date: Date | None = None,
                          limit: Limit = 20) -> list[dict]: ...

From these the toolkit derives the JSON schema (formats and bounds a client can check), strict
validation with one wording of each error, the entity kinds a tool consumes (for the task
synthesizer's dependency graph) and the id format in the parameter's description. A `Date`
arrives in the tool body as a `datetime.date`, a `DateTime` as a naive UTC `datetime`, `Money`
as a float rounded to cents.
"""

from __future__ import annotations

import datetime as dt
import math
import typing
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, WithJsonSchema

__all__ = ["Id", "IdOf", "Limit", "Money", "Date", "DateTime", "id_kinds", "parse_date", "parse_datetime",
           "MAX_PAGE"]

MAX_PAGE = 100


@dataclass(frozen=True)
class IdOf:
    """Marks a string parameter as the id of an entity kind declared by the server."""

    kind: str


def Id(kind: str) -> Any:  # noqa: N802 - read as a type in annotations: `account_id: Id("account")`
    """The id of an entity of `kind`, such as 'ACC-0007': a string parameter whose entity must exist.

    A call rather than `Id("account")`, so that linters do not read the kind as a forward reference.
    """
    return Annotated[str, IdOf(kind)]


def id_kinds(hint: Any) -> tuple[str, bool] | None:
    """(kind, is_list) when `hint` is an id, a list of ids, or either of them optional."""
    if typing.get_origin(hint) is Annotated:
        marks = [m for m in hint.__metadata__ if isinstance(m, IdOf)]
        if marks:
            return marks[0].kind, False
    for arg in typing.get_args(hint):
        if arg is type(None):
            continue
        if typing.get_origin(hint) is list:
            found = id_kinds(arg)
            return (found[0], True) if found else None
        found = id_kinds(arg)
        if found:
            return found
    return None


def parse_datetime(value: str, what: str = "date-time") -> dt.datetime:
    """An ISO 8601 date-time such as '2026-03-14T09:30' (seconds optional), in naive UTC.

    A value with an offset ('...+02:00', '...Z') is converted to UTC. Raises ValueError.
    """
    try:
        parsed = dt.datetime.fromisoformat(value.strip())
    except (AttributeError, ValueError):
        raise ValueError(f"{what} must be an ISO 8601 date-time such as '2026-03-14T09:30', got {value!r}") from None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return parsed


def parse_date(value: str, what: str = "date") -> dt.date:
    """An ISO 8601 date such as '2026-03-14'. Raises ValueError."""
    try:
        return dt.date.fromisoformat(value.strip())
    except (AttributeError, ValueError):
        raise ValueError(f"{what} must be an ISO 8601 date such as '2026-03-14', got {value!r}") from None


def _date(value: Any) -> Any:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if not isinstance(value, str):
        raise ValueError(f"must be an ISO 8601 date string such as '2026-03-14', got {type(value).__name__}")
    return parse_date(value, "the date")


def _datetime(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return value
    if not isinstance(value, str):
        raise ValueError(f"must be an ISO 8601 date-time string such as '2026-03-14T09:30', got {type(value).__name__}")
    return parse_datetime(value, "the date-time")


def _money(amount: float) -> float:
    if not math.isfinite(amount) or amount <= 0:
        raise ValueError(f"must be greater than 0, got {amount}")
    cents = round(amount * 100)
    if abs(amount * 100 - cents) > 1e-6 or cents == 0:
        raise ValueError(f"must have at most two decimals, got {amount}")
    return cents / 100


Date = Annotated[dt.date, BeforeValidator(_date), WithJsonSchema({"type": "string", "format": "date"})]
"""An ISO 8601 calendar date such as '2026-03-14'; the tool receives a `datetime.date`."""

DateTime = Annotated[dt.datetime, BeforeValidator(_datetime), WithJsonSchema({"type": "string", "format": "date-time"})]
"""An ISO 8601 date-time such as '2026-03-14T09:30' (offsets converted to UTC); the tool receives a naive datetime."""

Money = Annotated[float, AfterValidator(_money), WithJsonSchema({"type": "number", "exclusiveMinimum": 0})]
"""An amount greater than 0 with at most two decimals; the tool receives it rounded to cents."""

Limit = Annotated[int, Field(ge=1, le=MAX_PAGE)]
"""How many results to return at most, from 1 to 100."""
