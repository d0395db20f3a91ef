"""Values made from a JSON schema alone, the way a client that knows nothing else would make them."""

from __future__ import annotations

import datetime as dt
from typing import Any


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
