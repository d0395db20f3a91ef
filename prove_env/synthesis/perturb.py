"""Robustness perturbations: distractor tools, stripped enums, irrelevant queries.

Hidden-tool requests come from each server's recipe (`Recipe.hidden`); the rest is generic and
lives here.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Collection
from functools import cache
from typing import Any

from prove_env.registry import get_toolkit, server_names
from prove_env.synthesis.recipe import get_recipe
from prove_env.synthesis.topics import IRRELEVANT

__all__ = ["passes_enum", "shown_tools", "irrelevant_query", "strip_enums"]

_SLOTS: dict[str, tuple[str, ...]] = {
    "city": ("Chicago", "Seattle", "Lisbon", "Tokyo", "Denver", "Nairobi", "Montreal", "Austin", "Oslo", "Lima"),
    "city2": ("Boston", "New York", "Philadelphia", "San Diego", "Portland", "Atlanta"),
    "team": ("Lakers", "Yankees", "Packers", "Celtics", "Dodgers", "Warriors", "Bruins"),
    "dish": ("banana bread", "lasagna", "pad thai", "pepperoni pizza", "chili", "salmon", "risotto"),
    "phrase": ("where is the train station", "thank you for your patience", "good morning", "how much is this"),
    "language": ("Portuguese", "Japanese", "German", "Swahili", "Korean", "Italian"),
    "continent": ("Africa", "South America", "Europe", "Asia", "Oceania"),
    "painting": ("The Persistence of Memory", "The Starry Night", "Girl with a Pearl Earring", "The Scream"),
    "condition": ("a vitamin D deficiency", "the flu", "dehydration", "an iron deficiency", "hay fever"),
    "album": ("Kind of Blue", "Abbey Road", "Rumours", "Blue Train", "Purple Rain"),
    "subject": ("autumn leaves", "the ocean", "city lights", "the economy", "space exploration", "the rain"),
    "a": ("12", "35", "48", "75", "120"),
    "b": ("7", "9", "14", "23"),
    "c": ("3", "4", "5", "6"),
    "product": ("running shoes", "road bikes", "guitars", "cameras", "tents"),
    "age": ("three", "six", "nine"),
    "pet": ("kitten", "puppy", "rabbit"),
    "company": ("a chip maker", "an airline", "a bank", "a streaming company"),
    "relative": ("mom", "dad", "sister", "brother", "landlord"),
    "room": ("living room", "kitchen", "bedroom", "garage"),
    "degrees": ("68", "70", "72", "74"),
    "folder": ("desktop", "downloads", "pictures"),
    "appointment": ("dentist", "haircut", "doctor's", "vet"),
    "profession": ("programmers", "accountants", "pilots", "chefs"),
    "empire": ("the Roman Empire", "the Ottoman Empire", "the Aztec Empire", "the Byzantine Empire"),
}


def irrelevant_query(topics: tuple[str, ...], rng: random.Random) -> tuple[str, str]:
    """An off-topic (topic, request) for a server about `topics`."""
    topic, template = rng.choice([item for item in IRRELEVANT if item[0] not in topics])
    fields = {name for name in _SLOTS if "{" + name + "}" in template}
    return topic, template.format(**{name: rng.choice(_SLOTS[name]) for name in sorted(fields)})


@cache
def _distractor_pool(server: str, off_topic: str | None = None) -> tuple[tuple[dict[str, Any], ...], ...]:
    """The tools of other servers a task of `server` may show, one entry per name (each entry: the
    schemas of that name, one per server that has it). No name is one of the server's own tools,
    hidden ones included, and with `off_topic` no tool comes from a server that serves that topic."""
    own = set(get_toolkit(server).specs())
    by_name: dict[str, list[dict[str, Any]]] = {}
    for other in server_names():
        if other == server or (off_topic is not None and off_topic in _topics(other)):
            continue
        for spec in get_toolkit(other).visible_specs():
            if spec.name not in own:
                by_name.setdefault(spec.name, []).append(spec.openai_schema())
    return tuple(tuple(schemas) for schemas in by_name.values())


def _topics(server: str) -> tuple[str, ...]:
    return get_recipe(server).topics


def strip_enums(schema: Any) -> Any:
    """A copy of a JSON schema without its `enum` value lists (the type is kept)."""
    if isinstance(schema, dict):
        out = {}
        for key, value in schema.items():
            if key == "enum":
                continue
            if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
                # keys here are names, not keywords: a property may well be called "enum"
                out[key] = {name: strip_enums(sub) for name, sub in value.items()}
            else:
                out[key] = strip_enums(value)
        return out
    if isinstance(schema, list):
        return [strip_enums(v) for v in schema]
    return schema


def passes_enum(server: str, calls: Any) -> bool:
    """Whether any of `calls` passes a value to a parameter whose schema lists the allowed values."""
    specs = get_toolkit(server).specs()
    for call in calls:
        spec = specs.get(call.name)
        properties = spec.parameters.get("properties", {}) if spec else {}
        if any("enum" in properties.get(name, {}) for name in call.arguments):
            return True
    return False


def shown_tools(server: str, rng: random.Random, *, distractor_rate: float, distractors: tuple[int, int],
                strip_enums_rate: float, strip: bool = True, hide: Collection[str] = (),
                off_topic: str | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The tools a task shows (the server's visible tools, perhaps perturbed), and what was done.

    Distractors are tools of other servers, inserted at random places; calling one fails like
    any unknown tool would. No two shown tools share a name, and for a request on `off_topic` no
    distractor comes from a server serving that topic. Enum lists are stripped only where `strip`
    (the task passes an enum value, so that the model must infer it). `hide` leaves some of the
    server's tools out.
    """
    tools = [s.openai_schema() for s in get_toolkit(server).visible_specs() if s.name not in hide]
    applied: dict[str, Any] = {}
    pool = _distractor_pool(server, off_topic)
    if pool and rng.random() < distractor_rate:
        count = min(rng.randint(*distractors), len(pool))
        chosen = [schemas[0] if len(schemas) == 1 else rng.choice(schemas) for schemas in rng.sample(pool, count)]
        for schema in chosen:
            tools.insert(rng.randrange(len(tools) + 1), copy.deepcopy(schema))
        applied["distractors"] = [t["function"]["name"] for t in chosen]
    if strip and rng.random() < strip_enums_rate:
        tools = [strip_enums(t) for t in tools]
        applied["enums_stripped"] = True
    return tools, applied
