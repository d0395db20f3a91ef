"""The tool dependency graph of a server, derived from the code.

Every ordered pair of tools (A, B) is classified as:
- *explicit*: A's result carries ids of an entity kind that B takes as a parameter
  (`A.produces ∩ B.consumes`), so B can use A's output;
- *implicit*: A establishes a state of the world that B depends on (`A.sets ∩ B.requires`),
  so A must run first to set B up;
- *none* otherwise (not stored).

The graph is computed once per server and cached, in memory and on disk, keyed by a digest of
the tools' schemas and declarations, so editing a tool invalidates it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from prove_env.cache import cached
from prove_env.registry import get_toolkit
from prove_env.toolkit import Toolkit

__all__ = ["Edge", "DependencyGraph", "dependency_graph", "schema_digest"]

_VERSION = 1


@dataclass(frozen=True, order=True)
class Edge:
    """`source` must or can run before `target`, because of `via` (entity kinds or states)."""

    source: str
    target: str
    kind: str  # "explicit" or "implicit"
    via: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"source": self.source, "target": self.target, "kind": self.kind, "via": list(self.via)}


@dataclass(frozen=True)
class DependencyGraph:
    server: str
    digest: str
    tools: tuple[str, ...]
    hidden: frozenset[str]
    edges: tuple[Edge, ...]

    def successors(self, tool: str) -> list[Edge]:
        return [e for e in self.edges if e.source == tool]

    def edge(self, source: str, target: str) -> Edge | None:
        return self._index.get((source, target))

    def consumes(self, tool: str) -> tuple[str, ...]:
        """The entity kinds whose ids `tool` takes."""
        return get_toolkit(self.server).specs()[tool].consumes

    @property
    def _index(self) -> dict[tuple[str, str], Edge]:
        index = self.__dict__.get("_edge_index")
        if index is None:
            index = {(e.source, e.target): e for e in self.edges}
            object.__setattr__(self, "_edge_index", index)
        return index

    # -- rendering -----------------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        return {"version": _VERSION, "server": self.server, "digest": self.digest, "tools": list(self.tools),
                "hidden": sorted(self.hidden), "edges": [e.as_dict() for e in self.edges]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DependencyGraph:
        return cls(server=data["server"], digest=data["digest"], tools=tuple(data["tools"]),
                   hidden=frozenset(data["hidden"]),
                   edges=tuple(Edge(e["source"], e["target"], e["kind"], tuple(e["via"])) for e in data["edges"]))

    def to_text(self) -> str:
        explicit = sum(e.kind == "explicit" for e in self.edges)
        # Hidden helper tools are nodes too (they set states that visible tools require), so the
        # header says how many the agent sees: the count `prove-env list` shows.
        lines = [f"{self.server}: {len(self.tools)} tools ({len(self.tools) - len(self.hidden)} the agent sees, "
                 f"{len(self.hidden)} hidden), {explicit} explicit and "
                 f"{len(self.edges) - explicit} implicit edges (schema digest {self.digest[:12]})"]
        for tool in self.tools:
            out = self.successors(tool)
            flag = " (hidden)" if tool in self.hidden else ""
            if not out:
                lines.append(f"  {tool}{flag}")
                continue
            lines.append(f"  {tool}{flag} ->")
            for e in out:
                arrow = "needs its" if e.kind == "explicit" else "after it sets"
                lines.append(f"      {e.target:<28} {e.kind:<8} ({arrow} {', '.join(e.via)})")
        return "\n".join(lines) + "\n"

    def to_dot(self) -> str:
        lines = [f'digraph "{self.server}" {{', "  rankdir=LR;", '  node [shape=box, fontname="Helvetica"];']
        for tool in self.tools:
            style = ', style=dashed' if tool in self.hidden else ""
            lines.append(f'  "{tool}"{style and " [" + style[2:] + "]"};')
        for e in self.edges:
            attrs = f'label="{", ".join(e.via)}"' + (", style=dashed" if e.kind == "implicit" else "")
            lines.append(f'  "{e.source}" -> "{e.target}" [{attrs}];')
        lines.append("}")
        return "\n".join(lines) + "\n"


def schema_digest(toolkit: type[Toolkit]) -> str:
    """A digest of everything the graph is derived from: names, schemas and declarations."""
    payload = [
        {"name": s.name, "parameters": s.parameters, "hidden": s.hidden, "produces": s.produces,
         "consumes": s.consumes, "sets": s.sets, "requires": s.requires}
        for s in toolkit.specs().values()
    ]
    text = json.dumps([_VERSION, toolkit.name, payload], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


_GRAPHS: dict[tuple[str, str], DependencyGraph] = {}


def dependency_graph(server: str | type[Toolkit]) -> DependencyGraph:
    """The dependency graph of `server` (cached per schema digest in memory and on disk)."""
    toolkit = get_toolkit(server) if isinstance(server, str) else server
    digest = schema_digest(toolkit)
    key = (toolkit.name, digest)
    graph = _GRAPHS.get(key)
    if graph is not None:
        return graph
    data = cached(f"graphs/{toolkit.name}-{digest[:16]}", lambda: _derive(toolkit, digest).as_dict(), key=digest)
    graph = DependencyGraph.from_dict(data)
    _GRAPHS[key] = graph
    return graph


def _derive(toolkit: type[Toolkit], digest: str) -> DependencyGraph:
    specs = list(toolkit.specs().values())
    edges: list[Edge] = []
    for a in specs:
        for b in specs:
            if a.name == b.name:
                continue
            kinds = tuple(k for k in b.consumes if k in a.produces)
            if kinds:
                edges.append(Edge(a.name, b.name, "explicit", kinds))
                continue
            states = tuple(s for s in b.requires if s in a.sets)
            if states:
                edges.append(Edge(a.name, b.name, "implicit", states))
    return DependencyGraph(server=toolkit.name, digest=digest, tools=tuple(s.name for s in specs),
                           hidden=frozenset(s.name for s in specs if s.hidden), edges=tuple(edges))
