"""Stand-ins: whether a shown tool does the job of a tool that is not shown.

A call of a tool that is not shown (a missing-function task's missing tool, a hidden helper) is
compared with *probes*: calls of a server's other tools with arguments taken from that call (the
same parameter, an id of the same kind, a string or number it passes), every value of an enum, a
flag either way, a page at its largest. A read-only tool stands in when a probe's result holds the
values the request asks for; a write tool stands in when a probe leaves the world exactly as the
call does.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from prove_env.toolkit import ToolError, ToolSpec

OMIT = object()  # the parameter is left out of the probe
_CAP = 96  # probes per tool, at most


def scalars(value: Any) -> Iterator[Any]:
    """Every scalar inside a JSON value, depth first."""
    if isinstance(value, dict):
        for v in value.values():
            yield from scalars(v)
    elif isinstance(value, list):
        for v in value:
            yield from scalars(v)
    else:
        yield value


def _options(name: str, prop: Mapping[str, Any], required: bool, kind: tuple[str, bool] | None,
             call: Mapping[str, Any], call_kinds: Mapping[str, list[Any]]) -> list[Any] | None:
    """The values a probe tries for one parameter (None: no value can be made for a required one)."""
    kinds = prop.get("type")
    absent = [] if required else [OMIT]
    if name in call and not isinstance(call[name], dict):
        return [call[name]]  # a parameter both tools take keeps its value (the same actor, the same file)
    if kind is not None:
        found = call_kinds.get(kind[0], [])
        if not found:
            return absent or None
        return absent[:0] + ([list(found)] if kind[1] else list(dict.fromkeys(found)))
    if "enum" in prop:
        return absent + list(prop["enum"])
    if kinds == "boolean":
        return absent + [not prop.get("default", False)] if not required else [True, False]
    values = [v for v in scalars(dict(call)) if not isinstance(v, bool)]
    if kinds == "integer":
        top = [prop["maximum"]] if "maximum" in prop and prop["maximum"] <= 1000 else []
        own = [v for v in values if isinstance(v, int)]
        return (absent + top if not required else own + top) or None
    if kinds == "number":
        own = list(dict.fromkeys(v for v in values if isinstance(v, int | float)))
        return absent if not required else (own or None)
    if kinds == "string":
        own = list(dict.fromkeys(v for v in values if isinstance(v, str)))
        if not required:
            # a month parameter ('YYYY-MM') is asked for the months of the call's dates: a date range
            # of one month and that month's summary tell the same totals
            if "'YYYY-MM'" not in prop.get("description", ""):
                return absent
            return absent + list(dict.fromkeys(v[:7] for v in own if re.fullmatch(r"\d{4}-\d{2}-\d{2}", v)))
        return own + ([""] if "format" not in prop else []) or None  # an empty text matches everything
    if kinds == "array" and required:
        own = [v for v in call.values() if isinstance(v, list)]
        return own or None
    return absent or None


def probes(spec: ToolSpec, source: ToolSpec, call: Mapping[str, Any], *,
           anchored: bool = False) -> list[dict[str, Any]]:
    """Calls of `spec` with arguments taken from `call`, a call of `source` (none when a required
    parameter can take nothing from it). `anchored`: only calls that pass one of `call`'s values at
    least (a listing of everything holds any name or amount, and answers nothing about `call`'s
    entities)."""
    call_kinds: dict[str, list[Any]] = {}
    for param, kind, many in source.ids:
        value = call.get(param)
        if value is not None:
            call_kinds.setdefault(kind, []).extend(value if many else [value])
    kinds = {param: (kind, many) for param, kind, many in spec.ids}
    properties = spec.parameters.get("properties", {})
    required = set(spec.required)
    choices = []
    for name, prop in properties.items():
        options = _options(name, prop, name in required, kinds.get(name), call, call_kinds)
        if options is None:
            return []
        choices.append([(name, o) for o in options])
    own = [json.dumps(v, sort_keys=True) for v in call.values()] + [json.dumps(v) for v in scalars(dict(call))]
    out = []
    for combo in itertools.product(*choices):
        arguments = {name: value for name, value in combo if value is not OMIT}
        if anchored and own and not any(json.dumps(v, sort_keys=True) in own or json.dumps(v) in own
                                        or (isinstance(v, list) and any(json.dumps(x) in own for x in v))
                                        for v in arguments.values()):
            continue
        out.append(arguments)
        if len(out) == _CAP:
            break
    return out


def parse(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _leaves(value: Any, key: str | None = None) -> Iterator[tuple[str | None, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v, key)
    else:
        yield key, value


def _lengths(value: Any, limit: int | None) -> set[int]:
    """The lengths of the lists a result holds (a list as long as the page asked for may be cut)."""
    found: set[int] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            if limit is None or len(v) < limit:
                found.add(len(v))
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
    return found


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(a, b, rel_tol=0, abs_tol=1e-9)
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().casefold() == b.strip().casefold()
    return False


def _within(fact: str, text: str) -> bool:
    """Whether `fact` is written in a longer text, as a whole (not as part of a longer word or number)."""
    return len(text) > len(fact) and re.search(rf"(?<![\w.]){re.escape(fact)}(?![\w]|\.\d)", text) is not None


def keyed_facts(result: Any, facts: Sequence[Any]) -> list[tuple[Any, set[str]]]:
    """Each fact with the keys it is found under in the result that gave it."""
    leaves = list(_leaves(result))
    return [(f, {k for k, v in leaves if k is not None and _same(v, f)}) for f in facts]


def _about(result: Any, ids: Sequence[str]) -> Any:
    """The parts of a result about one of `ids`: the items of its outermost list that hold one of
    them anywhere, or the result itself when it names one directly."""
    if isinstance(result, list):
        return [item for item in result if any(i in json.dumps(item) for i in ids)]
    if isinstance(result, dict):  # its own fields when it names one, and what its parts say of them
        own = any(v in ids for v in result.values() if isinstance(v, str))
        return {k: (v if own and not isinstance(v, list | dict) else _about(v, ids)) for k, v in result.items()}
    return None


def holds(result: Any, facts: Sequence[tuple[Any, set[str]]], *, limit: int | None = None,
          counts: bool = False, about: Sequence[str] = ()) -> bool:
    """Whether a probe's result states every fact: under a key the fact had (a fact found under no
    key, or a longer text, by its value alone); with `counts`, a whole number may also be the length
    of a list the result holds; with `about`, only where the result speaks of one of those ids."""
    if about:
        result = _about(result, about)
    leaves = list(_leaves(result))
    lengths = _lengths(result, limit) if counts else set()
    for fact, keys in facts:
        if counts and isinstance(fact, int) and not isinstance(fact, bool) and fact in lengths:
            continue
        if keys:
            found = any(k in keys and _same(v, fact) for k, v in leaves)
        else:  # a fact found under no key (a line of text, an item of a list): by its value, or within a text
            found = any(_same(v, fact) or (isinstance(v, str) and isinstance(fact, str | int | float)
                                           and _within(str(fact), v)) for _, v in leaves)
        if not found:
            return False
    return True


def run(tools: Any, name: str, arguments: Mapping[str, Any]) -> Any:
    """A call's parsed result, or None when it fails."""
    try:
        return parse(tools.run(name, dict(arguments)))
    except (ToolError, ValueError):
        return None


def fanned_out_counts(tools: Any, reads: Sequence[ToolSpec]) -> Iterator[tuple[str, dict[str, Any], int]]:
    """What "list every owner, then each owner's list" adds up to, the way an agent counts what no
    one tool counts: for a read that lists owners with no required argument (at its largest page,
    not cut short) and a read whose one required argument is an owner's id (every enum value, a
    flag either way, its largest page), the total length of the owners' lists, none cut short.
    Yields (the two tools, the per-owner read's other arguments, the total)."""
    for lister in (s for s in reads if not s.required):
        top = lister.parameters.get("properties", {}).get("limit", {}).get("maximum")
        owners = run(tools, lister.name, {"limit": top} if top else {})
        if (not isinstance(owners, list) or not owners or not all(isinstance(o, dict) for o in owners)
                or (top and len(owners) >= top)):
            continue
        for per in reads:
            for param, kind, many in per.ids:
                key = f"{kind}_id"
                if many or per.required != [param] or key not in owners[0]:
                    continue
                for arguments in probes(per, per, {param: owners[0][key]}):
                    limit = arguments.get("limit")
                    outs = [run(tools, per.name, {**arguments, param: owner[key]}) for owner in owners]
                    if all(isinstance(out, list) and (limit is None or len(out) < limit) for out in outs):
                        yield (f"{lister.name} then {per.name}",
                               {k: v for k, v in arguments.items() if k != param}, sum(map(len, outs)))


def followed(tools: Any, output: Any, reads: Sequence[ToolSpec], cap: int = 10) -> Iterator[tuple[str, list[Any]]]:
    """What "find it in a listing, then read it" tells, the way an agent reaches an entry no listing
    shows in full: for a read whose one required argument is an id of a kind the listing's entries
    carry (under '<kind>_id'), the listing with that read of one of its ids (each of at most `cap`).
    One entry at a time: a set pieced together from several entries' reads (deals found through the
    contacts of a rep's activities) is a coincidence of the world, not a route. Yields (the read,
    [the listing, the read's result])."""
    for per in reads:
        for param, kind, many in per.ids:
            if many or per.required != [param]:
                continue
            ids = list(dict.fromkeys(v for k, v in _leaves(output) if k == f"{kind}_id" and isinstance(v, str)))
            for i in ids[:cap]:
                out = run(tools, per.name, {param: i})
                if out is not None:
                    yield per.name, [output, out]
