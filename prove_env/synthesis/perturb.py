"""Robustness perturbations: distractor tools, stripped enums, irrelevant queries.

Hidden-tool requests come from each server's recipe (`Recipe.hidden`); the rest is generic and
lives here.
"""

from __future__ import annotations

import copy
import random
from functools import cache
from typing import Any

from prove_env.registry import get_toolkit, server_names

__all__ = ["IRRELEVANT", "shown_tools", "irrelevant_query", "strip_enums"]

# (topic, request): things people ask an assistant that a service's tools do not serve. A
# server's recipe lists the topics it does serve, and those requests are never drawn for it.
IRRELEVANT: tuple[tuple[str, str], ...] = (
    ("weather", "What's the weather going to be like in Chicago this weekend?"),
    ("weather", "Will it rain in Seattle tomorrow morning?"),
    ("sports", "Who won the Lakers game last night?"),
    ("sports", "When does the next Champions League final take place?"),
    ("cooking", "Can you give me a good recipe for banana bread?"),
    ("cooking", "How long should I boil an egg for a runny yolk?"),
    ("translation", "How do you say 'where is the train station' in Portuguese?"),
    ("translation", "Translate 'thank you for your patience' into Japanese, please."),
    ("trivia", "What is the tallest mountain in Africa?"),
    ("trivia", "Who painted The Persistence of Memory?"),
    ("health", "What are the usual symptoms of a vitamin D deficiency?"),
    ("music", "Recommend a few albums similar to Kind of Blue."),
    ("news", "What are today's top headlines?"),
    ("math", "What's the derivative of x squared times sine of x?"),
    ("writing", "Write me a short poem about autumn leaves."),
    ("travel", "Which is the cheapest month to fly to Tokyo?"),
    ("shopping", "Which running shoes are best for flat feet?"),
    ("pets", "How often should I feed a six-month-old kitten?"),
    ("stocks", "Should I buy shares of a company before its earnings call?"),
    ("email", "Send an email to my landlord saying the rent will be late."),
    ("maps", "How long does it take to drive from Boston to New York?"),
    ("smart_home", "Turn off the lights in the living room."),
    ("vehicle", "Start my car and warm it up to 72 degrees."),
    ("food_delivery", "Order me a large pepperoni pizza for delivery."),
    ("social_media", "Post a photo of my lunch to my feed."),
    ("files", "Delete the old screenshots from my desktop folder."),
    ("calendar", "Put a dentist appointment on my calendar for next Thursday."),
    ("banking", "Transfer fifty dollars from my checking account to my savings."),
    ("jokes", "Tell me a joke about programmers."),
    ("history", "Why did the Roman Empire fall?"),
)


def irrelevant_query(topics: tuple[str, ...], rng: random.Random) -> tuple[str, str]:
    """An off-topic (topic, request) for a server about `topics`."""
    pool = [item for item in IRRELEVANT if item[0] not in topics]
    return rng.choice(pool)


@cache
def _distractor_pool(server: str) -> tuple[dict[str, Any], ...]:
    own = {s.name for s in get_toolkit(server).visible_specs()}
    pool = []
    for other in server_names():
        if other == server:
            continue
        pool.extend(s.openai_schema() for s in get_toolkit(other).visible_specs() if s.name not in own)
    return tuple(pool)


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


def shown_tools(server: str, rng: random.Random, *, distractor_rate: float, distractors: tuple[int, int],
                strip_enums_rate: float) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The tools a task shows (the server's visible tools, perhaps perturbed), and what was done.

    Distractors are tools of other servers, inserted at random places; calling one fails like
    any unknown tool would.
    """
    tools = [s.openai_schema() for s in get_toolkit(server).visible_specs()]
    applied: dict[str, Any] = {}
    pool = _distractor_pool(server)
    if pool and rng.random() < distractor_rate:
        count = min(rng.randint(*distractors), len(pool))
        chosen = rng.sample(pool, count)
        for schema in chosen:
            tools.insert(rng.randrange(len(tools) + 1), copy.deepcopy(schema))
        applied["distractors"] = [t["function"]["name"] for t in chosen]
    if rng.random() < strip_enums_rate:
        tools = [strip_enums(t) for t in tools]
        applied["enums_stripped"] = True
    return tools, applied
