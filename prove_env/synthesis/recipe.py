"""What a server tells the synthesizer: how to sample its world, how people ask for things, and
how they refer to entities whose ids the model must look up.

A server's recipe lives beside its tools, in `servers/<name>/synth.py`, as a module-level
`recipe = Recipe(...)`. It is small domain code:

- `sample(read, now, rng)` reads the live world through the server's read-only tools (`read`
  refuses any other) and returns *bundles*: slices of the world around one principal (a customer
  with their accounts, payees and cards; a calendar owner with their events), kept only when
  they carry enough supporting data; a bundle's `me` is the signed-in user where the server has
  one (their own name is never a fact to tell them, nor is that of a user who introduces
  themselves through a `Lookup.intro`);
- `goals`: per tool, a builder that turns a bundle into an `Ask`: the call's arguments, the
  request in a person's words, and `Ref`s to the entities the request names without their ids.
  Builders are declared with `Goals.add` beside their code; a tool that only takes one entity
  gets a generic goal from `Goals.single`;
- `lookups`: per entity kind, the call that turns what a person says ("this is Ada Park", "the
  budget review on Tuesday") into the id, and what must be resolved before it (`Lookup.under`:
  listed by its owner);
- `skip`: visible tools that are no user's goal, each with the reason (checked: every visible
  tool is a goal, a look-up or skipped);
- `substitutes`: groups of visible tools that can do one another's job for some request (`sed`
  edits a file in place as `replace_in_file` does; `distance_matrix` times a trip as `get_route`
  does; a listing shows what a single look-up would): a missing-function task never leaves one
  out while another is shown (it hides the whole group, or picks another tool);
- `hidden`: requests that only a hidden tool could serve (the assistant must abstain);
- `topics`: what the server is about, from `topics.TOPICS` (irrelevant queries on those topics
  are never drawn).

The composer (`prove_env.synthesis.compose`) walks the dependency graph from these pieces; the
recipe never writes a gold call list by hand.
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from prove_env.registry import get_toolkit
from prove_env.toolkit import Toolkit, ToolError
from prove_env.synthesis.topics import TOPICS
from prove_env.synthesis.voice import Voice
from prove_env.world import World

__all__ = ["Ref", "Again", "Ask", "Goal", "Goals", "Lookup", "HiddenAsk", "Recipe", "Reader", "RecipeError", "get_recipe"]

Bundle = Mapping[str, Any]


class RecipeError(ValueError):
    """A recipe is inconsistent with its server's tools or dependency graph."""


@dataclass(frozen=True)
class Ref:
    """An entity a request names the way a person would; `key` is its id in the world, `owner`
    the entity it is listed under (an account's customer), resolved first."""

    kind: str
    key: str
    entity: Mapping[str, Any] = field(default_factory=dict, compare=False)
    owner: Ref | None = field(default=None, compare=False)

    @classmethod
    def of(cls, kind: str, entity: Mapping[str, Any], owner: Ref | None = None) -> Ref:
        """The reference to a sampled entity whose id is its `<kind>_id` field."""
        return cls(kind, entity[f"{kind}_id"], entity, owner)


@dataclass(frozen=True)
class Again:
    """A request as said once the conversation has named what it is about: `say` and `terse` refer to
    it in words that need no name ('Make Ann a co-host in the meeting I'm running.' after 'Who's in
    the Pricing workshop meeting I'm running now?'), said when an earlier request of the conversation
    said `named` (the meeting's title). They take `say`'s and `terse`'s place; `detail` is kept."""

    named: str
    say: str
    terse: str


@dataclass(frozen=True)
class Ask:
    """One request and the call that serves it.

    Attributes:
        args: the arguments of the serving call (ids included: the lookups produce them).
        say: the request in a person's words, complete.
        terse: the same request with the bare minimum of words (defaults to `say`).
        detail: a sentence carrying a required value (a PIN, a date range) that the "missing"
            information level holds back: the user's turn is `say` alone, the assistant must ask,
            and `detail` is the next user turn. Complete requests say `say` then `detail`.
        refs: entities named without their ids, resolved by lookups before the call.
        mentions: values that must appear in the user's words for the call to be derivable
            (checked when a teacher model rewrites the turns).
        prior: calls (tool, arguments) the request itself asks for first, such as packing an
            archive before listing it; they join the chain before the serving call.
        facts: for a request that asks to be told something, the values the answer must state,
            read from the serving call's result (its JSON, parsed): `lambda r: [r["balance"]]`;
            a measure with its unit (`quantity(r["distance_m"], "m")`), a choice of right answers
            (`one_of(...)`, `NOTHING` for an empty listing: `prove_env.facts`). Every wording
            (`say` with `detail`, and `terse`) asks for every fact, and for the field it is.
            A read-only task succeeds when the answer states them, whatever tools found them.
        plain: the request naming what `detail` names, for a turn where the conversation has already
            named every entity the request acts on: "Close my EV6's trunk." rather than "Close the
            car's trunk. My EV6, that is." (said instead of `say` and `detail`, never when held back);
            also where the request joins a message, or the conversation named another entity of its kind.
        terse_alone: the terse request without the values `detail` carries, for a conversation that
            has given them already (the PIN said in an earlier turn is not said again).
        settles: entities, as (kind, key), that the serving call's result shows for certain (the
            waiting room of the meeting a host runs now lists people with that meeting's id): a later
            request about one of them takes its id from this call, as from a look-up (`Lookup.settles`).
        again: the request once the conversation has named its entity (`Again`): the name is not
            said in full a second time.
    """

    args: dict[str, Any]
    say: str
    terse: str | None = None
    detail: str | None = None
    refs: tuple[Ref, ...] = ()
    mentions: tuple[str, ...] = ()
    prior: tuple[tuple[str, dict[str, Any]], ...] = ()
    facts: Callable[[Any], Sequence[Any]] | None = None
    plain: str | None = None
    terse_alone: str | None = None
    settles: tuple[tuple[str, str], ...] = ()
    again: Again | None = None

    def __post_init__(self) -> None:
        # 'please' once a request: "Please set a reminder for the review. 15 minutes beforehand.", not
        # "... 15 minutes beforehand, please." (the detail follows the request, in its message or the next)
        if self.detail and _PLEASE.search(self.say) and _PLEASE.search(self.detail):
            object.__setattr__(self, "detail", Voice.without_please(self.detail, self.mentions))


_PLEASE = re.compile(r"\bplease\b", re.IGNORECASE)


@dataclass(frozen=True)
class Goal:
    """A tool a user can ask for, and how a bundle becomes such a request (None: not here)."""

    tool: str
    build: Callable[[Bundle, random.Random], Ask | None]
    weight: float = 1.0


class Goals:
    """The goals of a recipe, each declared beside its builder:

        goals = Goals()

        @goals.add("get_balance", weight=1.5)
        def _(b, rng): return Ask(...)

        goals.single("get_account", "account", pick=..., name=..., say=("What are the details of {name}?",))
    """

    def __init__(self) -> None:
        self.all: list[Goal] = []

    def add(self, tool: str, weight: float = 1.0) -> Callable[[Callable[[Bundle, random.Random], Ask | None]], Any]:
        def register(build: Callable[[Bundle, random.Random], Ask | None]) -> Callable[..., Ask | None]:
            self.all.append(Goal(tool, build, weight))
            return build
        return register

    def single(self, tool: str, kind: str, *, pick: Callable[[Bundle], Sequence[Mapping[str, Any]]],
               name: Callable[[Bundle, Mapping[str, Any]], str], say: Sequence[str], terse: str,
               owner: Callable[[Bundle], Ref] | None = None, mention: Callable[[Mapping[str, Any]], str] | None = None,
               facts: Callable[[Any], Sequence[Any]] | None = None, weight: float = 1.0) -> None:
        """A goal for a tool whose only argument is one entity's id (`<kind>_id`): `pick` lists
        the candidates of a bundle, `name` says one the way the user does, and `say`/`terse` are
        phrasings with a `{name}` slot."""

        def build(b: Bundle, rng: random.Random) -> Ask | None:
            candidates = list(pick(b))
            if not candidates:
                return None
            entity = rng.choice(candidates)
            said = name(b, entity)
            ref = Ref.of(kind, entity, owner(b) if owner else None)
            return Ask({f"{kind}_id": ref.key}, say=rng.choice(list(say)).format(name=said),
                       terse=terse.format(name=said), refs=(ref,),
                       mentions=(mention(entity),) if mention else (), facts=facts)

        self.all.append(Goal(tool, build, weight))


@dataclass(frozen=True)
class Lookup:
    """How an entity named by a person is turned into its id.

    Attributes:
        kind: the entity kind resolved; `tool` must produce it.
        tool: the look-up tool.
        args: the look-up call's arguments for one entity.
        needs: entities to resolve first (an account's owner before the account).
        intro: how the user introduces the entity, complete and terse ("Hi, this is Ada Park.",
            "Ada Park here."); None when the request itself names it.
        settles: the other entities, as (kind, key), that the look-up's result shows for certain (the
            participants of the meeting a host runs now carry that meeting's id): a later request
            about one of them takes its id from this call, with no look-up of its own.
    """

    kind: str
    tool: str
    args: Callable[[Ref], dict[str, Any]]
    needs: Callable[[Ref], Sequence[Ref]] = lambda ref: (ref.owner,) if ref.owner else ()
    intro: Callable[[Ref], tuple[str, str]] | None = None
    settles: Callable[[Ref], Sequence[tuple[str, str]]] = lambda ref: ()

    @classmethod
    def under(cls, kind: str, tool: str) -> Lookup:
        """Entities listed under their owner: `tool(<owner kind>_id=...)` after the owner's look-up."""
        return cls(kind, tool, args=lambda ref: {f"{ref.owner.kind}_id": ref.owner.key})


@dataclass(frozen=True)
class HiddenAsk:
    """A request only the hidden tool `tool` could serve: the assistant must not pretend to.

    `facts` reads, from the hidden tool's result, the values the request asks for (such as
    `lambda r: [r["live"]]` for "how many meetings are live company-wide"); no shown tool may
    give them (the generic suite probes every visible read-only tool). Without it, the request may
    ask for any part of the result, and no shown tool may give any part."""

    tool: str
    build: Callable[[Bundle, random.Random], str | None]
    facts: Callable[[Any], Sequence[Any]] | None = None


@dataclass(frozen=True)
class Recipe:
    server: str
    sample: Callable[[Reader, dt.datetime, random.Random], list[Bundle]]
    goals: Sequence[Goal]
    lookups: tuple[Lookup, ...]
    hidden: tuple[HiddenAsk, ...] = ()
    topics: tuple[str, ...] = ()
    skip: Mapping[str, str] = field(default_factory=dict)
    substitutes: tuple[tuple[str, ...], ...] = ()

    def lookups_for(self, kind: str) -> list[Lookup]:
        return [lk for lk in self.lookups if lk.kind == kind]

    def substitutes_of(self, tool: str) -> set[str]:
        """The visible tools declared to do `tool`'s job (those sharing a group with it)."""
        return {other for group in self.substitutes if tool in group for other in group if other != tool}

    def check(self) -> None:
        """Raise `RecipeError` unless every goal and look-up agrees with the server's tools."""
        from prove_env.synthesis.graph import dependency_graph

        specs = get_toolkit(self.server).specs()
        graph = dependency_graph(self.server)
        for goal in self.goals:
            if goal.tool not in specs or specs[goal.tool].hidden:
                raise RecipeError(f"{self.server}: goal tool {goal.tool!r} is not a visible tool")
        for tool, reason in self.skip.items():
            if tool not in specs or specs[tool].hidden:
                raise RecipeError(f"{self.server}: skipped tool {tool!r} is not a visible tool")
            if not reason or not reason.strip():
                raise RecipeError(f"{self.server}: skipped tool {tool!r} needs a reason")
        reached = {g.tool for g in self.goals} | {lk.tool for lk in self.lookups} | set(self.skip)
        unreached = [s.name for s in specs.values() if not s.hidden and s.name not in reached]
        if unreached:
            raise RecipeError(f"{self.server}: visible tools {unreached} are neither a goal, a look-up, nor skipped "
                              "with a reason in the recipe")
        if not self.topics:
            raise RecipeError(f"{self.server}: the recipe declares no topics")
        unknown = sorted(set(self.topics) - TOPICS)
        if unknown:
            raise RecipeError(f"{self.server}: unknown topics {unknown}; known topics: {sorted(TOPICS)}")
        for lookup in self.lookups:
            spec = specs.get(lookup.tool)
            if spec is None or spec.hidden or not spec.read_only:
                raise RecipeError(f"{self.server}: look-up tool {lookup.tool!r} is not a visible read-only tool")
            if lookup.kind not in spec.produces:
                raise RecipeError(f"{self.server}: {lookup.tool!r} does not produce {lookup.kind!r}, "
                                  "so it cannot look one up")
            consumers = [g.tool for g in self.goals if lookup.kind in specs[g.tool].consumes]
            if consumers and not any(graph.edge(lookup.tool, c) for c in consumers):
                raise RecipeError(f"{self.server}: no graph edge from {lookup.tool!r} to a goal consuming "
                                  f"{lookup.kind!r}")
        for hidden in self.hidden:
            if hidden.tool not in specs or not specs[hidden.tool].hidden:
                raise RecipeError(f"{self.server}: {hidden.tool!r} is not a hidden tool")
        for group in self.substitutes:
            strange = [t for t in group if t not in specs or specs[t].hidden]
            if strange or len(set(group)) < 2:
                raise RecipeError(f"{self.server}: substitutes {group} must name two or more visible tools"
                                  + (f" ({strange} are not)" if strange else ""))


class Reader:
    """Read-only access to a world through the server's own tools: the sampler's only way in.

    `read(tool, **arguments)` runs a read-only tool (hidden helpers included) exactly as a call
    would, and returns its result parsed from JSON (or the text). A write tool is refused.
    """

    def __init__(self, toolkit: type[Toolkit], world: World) -> None:
        self._tools = toolkit(world)
        self._specs = toolkit.specs()
        self.calls = 0

    def __call__(self, tool: str, **arguments: Any) -> Any:
        spec = self._specs.get(tool)
        if spec is None or not spec.read_only:
            raise RecipeError(f"the sampler reads through read-only tools only, not {tool!r}")
        self.calls += 1
        text = self._tools.run(tool, arguments)
        try:
            return json.loads(text)
        except ValueError:
            return text

    def maybe(self, tool: str, **arguments: Any) -> Any:
        """Like calling the reader, but None when the tool answers with a domain error."""
        try:
            return self(tool, **arguments)
        except ToolError:
            return None


_RECIPES: dict[str, Recipe] = {}


def get_recipe(server: str) -> Recipe:
    """The recipe of `server` (from `prove_env.servers.<server>.synth`), checked once."""
    recipe = _RECIPES.get(server)
    if recipe is None:
        toolkit = get_toolkit(server)
        try:
            module = importlib.import_module(f"prove_env.servers.{toolkit.name}.synth")
        except ModuleNotFoundError as exc:
            raise RecipeError(f"server {server!r} has no synthesis recipe (servers/{server}/synth.py)") from exc
        recipe = module.recipe
        if recipe.server != toolkit.name:
            raise RecipeError(f"servers/{server}/synth.py defines a recipe for {recipe.server!r}")
        recipe.check()
        _RECIPES[server] = recipe
    return recipe
