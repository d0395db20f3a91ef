"""Values made from a JSON schema alone, the way a client that knows nothing else would make them,
and the values a client could try for a parameter in a live world."""

from __future__ import annotations

import ast
import datetime as dt
import json
import re
from typing import Any

# The examples a parameter's description gives: "such as 'JFK'", "such as 30", "or [1, 3]".
_DESCRIBED = re.compile(r"(?:such as|or) ('[^']*'|\[[^\]]*\]|-?\d+(?:\.\d+)?)")
_DAYS = (-7, -1, 0, 1, 7)  # date candidates around the world's clock, in days


def example(prop: dict[str, Any], now: dt.datetime) -> Any:
    """A value of a parameter made from its schema alone (dates are `now`'s)."""
    if "enum" in prop:
        return prop["enum"][0]
    kind = prop.get("type")
    if kind == "string":
        return {"date": now.date().isoformat(),
                "date-time": now.isoformat(timespec="minutes")}.get(prop.get("format", ""), "x")
    if kind == "integer":
        return max(prop.get("minimum", 1), min(prop.get("maximum", 1), 1))
    if kind == "number":
        return 1.0
    if kind == "boolean":
        return False
    if kind == "array":
        return [example(prop.get("items", {}), now)]
    return None


def fits(prop: dict[str, Any], value: Any) -> bool:
    """Whether `value` is of the parameter's JSON type (and among its enum, if it has one)."""
    if "enum" in prop:
        return value in prop["enum"]
    if isinstance(value, bool):
        return prop.get("type") == "boolean"
    return {"string": isinstance(value, str), "integer": isinstance(value, int),
            "number": isinstance(value, (int, float)),
            "array": isinstance(value, list) and all(fits(prop.get("items", {}), v) for v in value),
            }.get(prop.get("type"), False)


def described(prop: dict[str, Any]) -> list[Any]:
    """The examples the parameter's description gives that fit its schema, in order."""
    found = []
    for text in _DESCRIBED.findall(prop.get("description", "")):
        if text.startswith("'"):
            value = text[1:-1]  # as written: "such as '\\d+'" gives the pattern \d+
        else:
            try:
                value = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                continue
        if fits(prop, value):
            found.append(value)
    return found


def candidates(prop: dict[str, Any], name: str, world: Any, ids: list[str] | None = None,
               many: bool = False) -> list[Any]:
    """Values a client could try for parameter `name` in `world`, the likeliest first: the world's
    ids of the parameter's entity kind (`ids`; one-element lists when `many`); else the enum, days
    around the world's clock for a date, or the description's examples, the world's values of
    columns of the same name (`from_currency` also reads `currency`) and `example`'s value."""
    if ids is not None:
        ids = list(ids) or ["x"]
        return [[i] for i in ids] if many else ids
    if "enum" in prop:
        return list(prop["enum"])
    form = prop.get("format")
    if form in ("date", "date-time"):
        days = [world.now + dt.timedelta(days=d) for d in _DAYS]
        return [d.date().isoformat() if form == "date" else d.isoformat(timespec="minutes") for d in days]
    found = described(prop) + _column_values(prop, name, world) + [example(prop, world.now)]
    unique = dict.fromkeys(json.dumps(v, sort_keys=True) for v in found)
    return [json.loads(v) for v in unique]


def _column_values(prop: dict[str, Any], name: str, world: Any, limit: int = 20) -> list[Any]:
    names = {name, name.rsplit("_", 1)[-1]}
    found = []
    for table, meta in world.toolkit.metadata().tables.items():
        if table.startswith("prove_"):
            continue
        for column in meta.columns.keys():
            if column in names:
                rows = world.connection.execute(f'SELECT DISTINCT "{column}" FROM "{table}" '
                                                f'WHERE "{column}" IS NOT NULL ORDER BY 1 LIMIT {limit}')
                found += [value for (value,) in rows if fits(prop, value)]
    return found
