"""The servers that ship with prove-env: every package under `prove_env.servers`.

A server is found by its folder alone (no list to edit): `servers/<name>/tools.py` defines one
`Toolkit` subclass whose `name` is the folder's name.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from functools import cache
from typing import Any

from prove_env import servers as _servers_pkg
from prove_env.toolkit import Toolkit

__all__ = ["server_names", "get_toolkit", "server_summaries", "minimum_tools", "UnknownServerError", "PAPER_TOOL_COUNTS"]

# Tools visible to the agent per server in PROVE (arXiv 2606.03892, Table 2): ours are at least these.
PAPER_TOOL_COUNTS = {
    "banking": 17, "trading": 13, "payments": 10, "calendar": 17, "email": 17, "filesystem": 40, "shopping": 23,
    "marketplace": 13, "retail_chain": 11, "travel_booking": 20, "maps": 16, "social_media": 15, "team_chat": 11,
    "iot_devices": 25, "vehicle": 20, "crm": 16, "issue_tracker": 20, "budget": 12, "food_delivery": 17,
    "video_meeting": 10,
}
# A server that is not one of the paper's twenty still offers a product's worth of tools.
MINIMUM_OTHER_TOOLS = 6


class UnknownServerError(KeyError):
    def __str__(self) -> str:
        return f"unknown server {self.args[0]!r}; available: {', '.join(server_names())}"


@cache
def server_names() -> tuple[str, ...]:
    """Names of all shipped servers, sorted, without importing them."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(_servers_pkg.__path__) if m.ispkg))


def minimum_tools(server: str) -> int:
    """The fewest visible tools `server` may have: the paper's count, or 6 for a server of our own."""
    return PAPER_TOOL_COUNTS.get(server, MINIMUM_OTHER_TOOLS)


@cache
def get_toolkit(name: str) -> type[Toolkit]:
    """The `Toolkit` subclass of server `name`."""
    if name not in server_names():
        raise UnknownServerError(name)
    module = importlib.import_module(f"prove_env.servers.{name}.tools")
    found = [
        obj for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, Toolkit) and obj is not Toolkit and obj.__module__ == module.__name__
    ]
    if len(found) != 1:
        raise TypeError(f"servers/{name}/tools.py must define exactly one Toolkit subclass, found {len(found)}")
    if found[0].name != name:
        raise TypeError(f"servers/{name}: the toolkit is named {found[0].name!r}, expected {name!r}")
    return found[0]


def server_summaries() -> list[dict[str, Any]]:
    """Each server's name, tool counts (visible, of which writes; hidden) and one-line description.

    Working these out imports every server; the result is kept on disk for the same code
    (`prove_env.cache`), so `prove-env list` after the first run imports none of them.
    """
    from prove_env.cache import cached, code_fingerprint

    return cached("servers", _summaries, key=code_fingerprint([os.path.dirname(__file__), *_servers_pkg.__path__]))


def _summaries() -> list[dict[str, Any]]:
    found = []
    for name in server_names():
        toolkit = get_toolkit(name)
        specs = toolkit.specs().values()
        found.append({
            "name": name,
            "tools": sum(not s.hidden for s in specs),
            "writes": sum(not s.read_only and not s.hidden for s in specs),
            "hidden": sum(s.hidden for s in specs),
            "description": " ".join(toolkit.description().split()).split(". ")[0].rstrip(".;:"),
        })
    return found
