"""Chains and conversations: from sampled bundles to draft tasks.

A draft is built in five moves:
1. draw a bundle (one principal's slice of the world) and 1 to 3 requests (`Goal`s) that its
   data supports, a later request preferring an entity an earlier one named (so that it builds
   on the earlier results), and more until the chain holds at least two calls;
2. for every entity a request names without its id, walk the dependency graph backwards
   through the recipe's look-ups (a customer's name -> `find_customers` -> the customer id ->
   `list_accounts` -> the account id) until everything the call needs is resolved; look-ups
   shared by several requests run once, and every gold call records the calls it depends on
   (explicit edges: their results; implicit edges: the states they set);
3. give each request its own user turn (sometimes two share one), at the drawn information
   level (complete; missing a required value, which the assistant must ask for and the next
   turn supplies; minimal); the user introduces themselves at the start of the first message,
   greets at most once, opens a follow-up with words that fit the last answer, and never says a
   value or asks for a change twice; a fact that is the user's own name is dropped;
4. sometimes hide a tool the chain needs (a missing-function task), with the tools the recipe
   declares its substitutes: the gold keeps the calls still possible, and the assistant must say
   what it cannot do (a value is held back only for a call the gold keeps);
5. choose the tools shown (distractors, one tool a name; enum lists stripped when the chain passes
   an enum).

Irrelevant and hidden-tool drafts skip 1 to 3: their gold is to make no call at all.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from prove_env.registry import get_toolkit
from prove_env.synthesis.config import INFO_LEVELS, SynthConfig
from prove_env.synthesis.graph import DependencyGraph
from prove_env.synthesis.perturb import irrelevant_query, passes_enum, shown_tools
from prove_env.synthesis.recipe import Ask, Bundle, Recipe, RecipeError, Ref
from prove_env.synthesis.voice import Voice, greets, in_time
from prove_env.synthesis.wording import lower_first
from prove_env.task import GoldCall

_PLEASE = re.compile(r"\bplease\b", re.IGNORECASE)

__all__ = ["Draft", "Composer"]



@dataclass
class Draft:
    """A composed task before verification."""

    user_turns: list[str]
    gold: list[list[GoldCall]]
    tools: list[dict[str, Any]]
    abstain: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)
    mentions: list[list[str]] = field(default_factory=list)
    unstated: list[str] = field(default_factory=list)  # values the requests need but never say
    facts_of: dict[str, Any] = field(default_factory=dict)  # gold call id -> the facts its result holds
    missing_tool: str | None = None
    chain: list[GoldCall] = field(default_factory=list)  # every call the requests need, before any is left out
    missing_call: GoldCall | None = None  # the call of the missing tool the chain needed
    missing_facts: Any = None  # what that call's result would have told the user
    held_for: str | None = None  # the call a value the user holds back (the "missing" level) is for

    @property
    def calls(self) -> list[GoldCall]:
        return [c for turn in self.gold for c in turn]


@dataclass
class _Turn:
    texts: list[str]
    calls: list[GoldCall]
    mentions: list[str]


class _Chain:
    """Gold calls being assembled: look-ups resolved once, dependency edges recorded."""

    def __init__(self, recipe: Recipe, graph: DependencyGraph, rng: random.Random) -> None:
        self.recipe, self.graph, self.rng = recipe, graph, rng
        self.calls: list[GoldCall] = []
        self.resolved: dict[tuple[str, str], str] = {}
        self.introduced: set[tuple[str, str]] = set()
        self.served: set[str] = set()  # the requests' own calls, look-ups never (even where they settle one)

    def plan(self, tool: str, ask: Ask) -> tuple[list[GoldCall], list[tuple[str, str, Ref, bool]], dict, set] | None:
        """The calls `ask` adds (look-ups first), and the introductions they need (the words, terse
        words, the entity introduced, and whether an earlier call settled it or made its look-up: then
        no new look-up takes values from the words); nothing committed.

        None when the chain already makes that very call (a request must add something), or a
        change the request asks for first (a car put in accessory mode): the words would ask twice."""
        new: list[GoldCall] = []
        intros: list[tuple[str, str, Ref, bool]] = []
        resolved = dict(self.resolved)
        introduced = set(self.introduced)

        def find(name: str, args: dict[str, Any]) -> str | None:
            for call in self.calls + new:
                if call.name == name and call.arguments == args:
                    return call.id
            return None

        def add(name: str, args: dict[str, Any], deps: list[str]) -> str:
            implicit = [c.id for c in self.calls + new
                        if (e := self.graph.edge(c.name, name)) is not None and e.kind == "implicit"]
            call_id = f"g{len(self.calls) + len(new) + 1}"
            ordered = [d for d in dict.fromkeys(deps + implicit)]
            new.append(GoldCall(id=call_id, name=name, arguments=args, depends_on=ordered))
            return call_id

        def resolve(ref: Ref, depth: int = 0) -> str:
            key = (ref.kind, ref.key)
            if key in resolved:
                # settled by a result that shows it (an invoice shows its merchant): still introduced
                # as its own look-up would have ('I handle payments for X'), so the conversation says who
                intro = next((lk.intro for lk in self.recipe.lookups_for(ref.kind) if lk.intro is not None), None)
                if intro is not None and key not in introduced:
                    introduced.add(key)
                    intros.append((*intro(ref), ref, True))
                return resolved[key]
            if depth > 4:
                raise RecipeError(f"{self.recipe.server}: look-ups for {ref.kind!r} do not terminate")
            choices = self.recipe.lookups_for(ref.kind)
            if not choices:
                raise RecipeError(f"{self.recipe.server}: no look-up resolves {ref.kind!r}")
            lookup = choices[0] if len(choices) == 1 else self.rng.choice(choices)
            deps = [resolve(r, depth + 1) for r in lookup.needs(ref)]
            args = lookup.args(ref)
            made = find(lookup.tool, args)  # a request's own call that is the look-up ('Currencies of X?')
            call_id = made or add(lookup.tool, args, deps)
            if lookup.intro is not None and key not in introduced:
                introduced.add(key)
                intros.append((*lookup.intro(ref), ref, made is not None))
            resolved[key] = call_id
            for other in lookup.settles(ref):
                resolved.setdefault(other, call_id)
            return call_id

        resolved_refs = [(ref, resolve(ref)) for ref in ask.refs]
        names = {c.id: c.name for c in self.calls + new}

        def deps(name: str) -> list[str]:
            """The look-ups whose results a call of `name` takes: those resolving a kind it consumes,
            or whose tool has an explicit edge to it. Others only introduce the user."""
            consumes = self.graph.consumes(name)
            return [call_id for ref, call_id in resolved_refs
                    if ref.kind in consumes or _explicit(self.graph, names[call_id], name)]

        if find(tool, dict(ask.args)) is not None:
            return None
        specs = get_toolkit(self.recipe.server).specs()
        if any(find(name, dict(args)) is not None and not specs[name].read_only for name, args in ask.prior):
            return None
        for name, args in ask.prior:  # asked for first, in the same request: each with the look-ups it takes
            if find(name, dict(args)) is None:
                add(name, dict(args), deps(name))
        # the request's own call takes what its prior calls show ('my post about X' from the user's own
        # timeline): it depends on them, so that an earlier result merely holding the same id (a like
        # notification) is not taken for its source; the gates drop every edge along which nothing passes
        asked = [c for c in (find(name, dict(args)) for name, args in ask.prior) if c is not None]
        # and on the look-up of an entity whose value (not its id) it takes and the user never says: a
        # contact's address, found by the contact's name, to forward a mail to
        taken = {v for v in _flat(ask.args) if isinstance(v, str) and len(v) > 4} - set(ask.mentions)
        found = [call_id for ref, call_id in resolved_refs
                 if taken & {v for k, v in ref.entity.items() if isinstance(v, str) and k != f"{ref.kind}_id"}]
        call_id = add(tool, dict(ask.args), deps(tool) + asked + found)
        for other in ask.settles:
            resolved.setdefault(other, call_id)
        return new, intros, resolved, introduced

    def commit(self, new: list[GoldCall], resolved: dict, introduced: set) -> None:
        """Keep what `plan` drew; its last call is the request's own (`Ask.settles` may make it the
        source of an entity's id, which does not make it a look-up to move or leave out)."""
        self.calls.extend(new)
        self.resolved, self.introduced = resolved, introduced
        if new:
            self.served.add(new[-1].id)


class Composer:
    """Draws draft tasks from one world's bundles (deterministic given `rng`)."""

    def __init__(self, recipe: Recipe, graph: DependencyGraph, bundles: list[Bundle], config: SynthConfig,
                 rng: random.Random) -> None:
        if not bundles:
            raise RecipeError(f"{recipe.server}: the sampler found no bundle with enough data")
        self.recipe, self.graph, self.bundles, self.config, self.rng = recipe, graph, bundles, config, rng

    def draft(self) -> Draft | None:
        """One draft, or None when the drawn shape could not be filled from this bundle."""
        roll = self.rng.random()
        if roll < self.config.irrelevant_rate:
            return self._irrelevant()
        if roll < self.config.irrelevant_rate + self.config.hidden_rate and self.recipe.hidden:
            return self._hidden()
        return self._chain()

    # -- abstention drafts -------------------------------------------------------------------------

    def _irrelevant(self) -> Draft:
        topic, text = irrelevant_query(self.recipe.topics, self.rng)
        return self._abstention(text, {"perturbations": ["irrelevant"], "irrelevant_topic": topic}, off_topic=topic)

    def _hidden(self) -> Draft | None:
        hidden = self.rng.choice(self.recipe.hidden)
        bundle = self.rng.choice(self.bundles)
        text = hidden.build(bundle, self.rng)
        if text is None:
            return None
        text = in_time(text, _now(bundle))
        return self._abstention(text, {"perturbations": ["hidden_tool"], "hidden_tool": hidden.tool})

    def _abstention(self, text: str, metadata: dict[str, Any], off_topic: str | None = None) -> Draft:
        tools, applied = self._tools(off_topic=off_topic)
        metadata = {"kind": "abstention", "chain_length": 0, "turns": 1, "info_level": "complete", **metadata}
        metadata["perturbations"] = metadata["perturbations"] + sorted(applied)
        metadata.update(applied)
        return Draft(user_turns=[text], gold=[[]], tools=tools, abstain=True, metadata=metadata, mentions=[[]])

    # -- chains ------------------------------------------------------------------------------------

    def _chain(self) -> Draft | None:
        config, rng = self.config, self.rng
        bundle = rng.choice(self.bundles)
        level = rng.choices(INFO_LEVELS, weights=config.info_levels)[0]
        voice = Voice.draw(rng, terse=level == "minimal")  # one register from the first turn to the last
        wanted = rng.choices((1, 2, 3), weights=config.goals)[0]
        chain = _Chain(self.recipe, self.graph, rng)
        turns: list[_Turn] = []
        facts_of: dict[str, Any] = {}
        withheld = False
        used: set[str] = set()
        named: set[tuple[str, str]] = set()  # entities the requests so far have named
        served: list[str] = []
        first: dict[str, set[str]] = {}  # a request's own call -> the calls it asks for first (`Ask.prior`)
        added: dict[str, set[str]] = {}  # a request's own call -> the calls it added before it (look-ups, prior)
        named_by: dict[str, list[Ref]] = {}  # a request's own call -> the entities it names, owners too
        held_for: str | None = None  # the call whose required value the user holds back
        intro_texts: list[tuple[str, str]] = []  # how the user introduces themselves: at the start, once
        intro_refs: list[Ref] = []  # whom those introduce
        for index in range(wanted + 2):
            if index >= wanted and len(chain.calls) >= 2:
                break
            picked = self._pick(bundle, chain, used, named, need_detail=level == "missing" and not withheld)
            if picked is None:
                if level == "missing" and not withheld:
                    return None  # this bundle cannot hold a value back: draw again
                break
            tool, ask, new, intros, resolved, introduced = picked
            used.add(tool)
            known = bool(ask.refs) and {(r.kind, r.key) for r in ask.refs} <= named  # all named before
            # another entity of a kind the request refers to was named: 'my car' would read as that one
            other = any(kind == r.kind and key != r.key for r in ask.refs for kind, key in named)
            named |= {(r.kind, r.key) for r in ask.refs}
            withhold = level == "missing" and not withheld and ask.detail is not None
            extra_turns = 2 if withhold else 1
            joins = bool(index > 0 and not withhold and turns and turns[-1].calls
                         and rng.random() > config.split_turn_rate)
            terse = level == "minimal"
            request = ask.terse if terse and ask.terse else ask.say
            plain = bool(ask.plain) and known and not terse and not withhold
            # named before: not named in full again ('the Pricing workshop meeting I'm running now' twice)
            again = ask.again is not None and re.search(rf"(?<!\w){re.escape(ask.again.named)}(?!\w)", " ".join(
                t for turn in turns for t in turn.texts), re.IGNORECASE) is not None
            if again:
                request, plain = (ask.again.terse if terse else ask.again.say), False
            elif plain:
                request = ask.plain  # the entity is known: no 'the car ... My EV6, that is.'
            elif terse and ask.terse_alone and _said_before(ask, " ".join(t for turn in turns for t in turn.texts),
                                                            chain.calls):
                request = ask.terse_alone  # the PIN was given in an earlier turn
            if joins and _secrets(ask, request) & _secrets(ask, " ".join(turns[-1].texts)):
                joins = False  # a request that gives a PIN again is a message of its own
            if joins and _names_again(ask, " ".join(turns[-1].texts)):
                joins = False  # one that names again what the message named ('the Cherry Creek store') too
            # a change after a change: joined by words of order, which may matter ('Archive my notes. Then
            # add a line to one of them'); one that opens by telling ('I owe PG&E $300. Pay it ...') takes
            # no such words, and is a message of its own
            specs = get_toolkit(self.recipe.server).specs()
            ordered = not specs[new[-1].name].read_only and bool(turns) and any(
                not specs[c.name].read_only for c in turns[-1].calls)
            if joins and ordered and Voice.tells(request):
                joins = False
            if (joins or other) and ask.plain and not plain and not again and not terse and not withhold:
                # joined to a message, or after the conversation named another of its kind, 'my car ... It's
                # my Civic.' reads first as what was named ('Open the trunk of my CX-5. In addition, the tyre
                # light came on in my car.'): the request names its entity outright
                request, plain = ask.plain, True
            if not joins and len(turns) + extra_turns > config.max_turns:
                break
            for say, short, ref, earlier in intros:
                # an entity an earlier call settled or looked up is introduced to say who it is, at the
                # start of the first message, unless the request right after names it ('Northwind Studio
                # account. Invoice prefix and email of Northwind Studio?')
                opening = turns[0].texts[0] if turns else request
                if (say or short) and not (earlier and _named_in(ref, opening)):
                    intro_texts.append((say, short))
                    intro_refs.append(ref)
            mentions = list(ask.mentions)
            served.append(new[-1].name)  # the request's own call (its look-ups and prior calls come first)
            asked_first = [(name, dict(args)) for name, args in ask.prior]
            first[new[-1].id] = {c.id for c in new[:-1] if (c.name, c.arguments) in asked_first}
            added[new[-1].id] = {c.id for c in new[:-1]}
            named_by[new[-1].id] = list(_with_owners(ask.refs))
            if ask.facts is not None:
                facts_of[new[-1].id] = ask.facts
            if withhold:
                withheld, held_for = True, new[-1].id
                turns.append(_Turn([request], [], mentions))
                turns.append(_Turn([ask.detail], new, []))
            else:
                # a terse request already carries every value, the detail's included; a detail whose
                # values the user has already given (a PIN) is not said again
                said = " ".join([t for turn in turns for t in turn.texts] + [t for pair in intro_texts for t in pair])
                detail = ([_inline(ask.detail)] if ask.detail and not terse and not plain
                          and not _said_before(ask, said, chain.calls)
                          else [])
                words = [request] + detail
                if joins:
                    # none: the request is a sentence of its own; never the words that joined one before
                    joiner = voice.joiner(rng, " ".join(words), turns[-1].texts, ordered=ordered)
                    text = " ".join(words)
                    if _PLEASE.search(" ".join(turns[-1].texts)):  # 'please' once a message
                        text = voice.without_please(text, mentions)
                    joined = lower_first(text, [*mentions, *_names(ask.refs)]) if joiner else text
                    turns[-1].texts.append(joiner + joined)
                    turns[-1].calls.extend(new)
                    turns[-1].mentions.extend(mentions)
                else:
                    turns.append(_Turn(words, new, mentions))
            chain.commit(new, resolved, introduced)
        if not chain.calls:
            return None
        if level == "missing" and not withheld:
            return None
        goals = list(served)  # the tool of each request, in order
        gold = [t.calls for t in turns]
        missing, hide, missing_call, missing_facts = None, set(), None, None
        if rng.random() < config.missing_function_rate:
            picked = self._missing(chain, served, held_for, first, added, named_by)
            if picked is not None:
                missing_call, dropped = picked
                missing, missing_facts = missing_call.name, facts_of.get(missing_call.id)
                hide = {missing} | self.recipe.substitutes_of(missing)
                gold = [[c for c in turn if c.id not in dropped] for turn in gold]
                facts_of = {k: v for k, v in facts_of.items() if k not in dropped}
                # the gold keeps only calls whose results the user asked for or a kept call needs:
                # a look-up that only fed the missing tool is not part of the right behaviour
                gold = _needed(gold, {c.id for c in chain.calls if self._is_lookup(c, chain)}, set(facts_of))
        gold = _at_first_use(gold, {c.id for c in chain.calls if self._is_lookup(c, chain)}, set(facts_of))
        # a greeting of the part of the day says the part the world's clock is in ('Good morning' at 15:45)
        intro_texts = [(in_time(say, _now(bundle)), in_time(short, _now(bundle))) for say, short in intro_texts]
        user_turns = self._words(turns, intro_texts, voice, level == "minimal", missing_call, facts_of)
        own = _own_names(bundle, intro_refs, intro_texts)
        facts_of = {k: _not_own(extract, own) for k, extract in facts_of.items()}
        kept = [c for turn in gold for c in turn]
        tools, applied = self._tools(kept, hide=hide)
        metadata = {
            "kind": "missing_function" if missing else "chain",
            "info_level": level,
            "register": voice.register,
            "chain_length": len(kept),
            "turns": len(turns),
            "goals": goals,
            "perturbations": sorted(applied) + (["missing_function"] if missing else []),
            "dependencies": [{"source": d, "target": c.id, "kind": self._edge_kind(chain, d, c)}
                             for c in kept for d in c.depends_on],
            **applied,
        }
        if own:
            metadata["user"] = sorted(own)
        if held_for is not None:
            metadata["held_for"] = held_for  # the call the held-back value is for: its arguments stay
        if missing:
            metadata["missing_tool"] = missing
            if hide - {missing}:
                metadata["hidden_substitutes"] = sorted(hide - {missing})
        wanted_mentions = list(dict.fromkeys(m for t in turns for m in t.mentions))
        mentions = [[m for m in wanted_mentions if m.lower() in text.lower()] for text in user_turns]
        unstated = [m for m in wanted_mentions if not any(m in found for found in mentions)]
        return Draft(user_turns=user_turns, gold=gold, tools=tools, abstain=not kept, metadata=metadata,
                     mentions=mentions, unstated=unstated, facts_of=facts_of, missing_tool=missing,
                     chain=list(chain.calls), missing_call=missing_call, missing_facts=missing_facts,
                     held_for=held_for)

    def _words(self, turns: list[_Turn], intros: list[tuple[str, str]], voice: Voice, terse: bool,
               missing_call: GoldCall | None, facts_of: dict[str, Any]) -> list[str]:
        """The user's messages: the first opens with the voice's aside and the user's introductions
        (one greeting at most), a follow-up with words that fit what the assistant last did."""
        rng = self.rng
        specs = get_toolkit(self.recipe.server).specs()
        first: list[str] = []
        greeted = False
        for say, short in intros:
            text = short if terse else say
            if greeted and greets(text):  # one greeting: a later introduction only says who it is
                text = short if not greets(short) else ""
            greeted = greeted or greets(text)
            first.append(text)
        request = turns[0].texts[0] if turns and turns[0].texts else ""
        intro = " ".join(first)
        if greeted:  # the introduction greets: an aside of the voice's own comes after it, and greets not
            first.append(voice.aside(rng, greeting=False, request=request, intro=intro))
        else:  # a greeting aside opens the message; a lead-in to the request follows the introductions
            aside = voice.aside(rng, request=request, intro=intro)
            first.insert(0 if greets(aside) else len(first), aside)
        user_turns: list[str] = []
        openers: list[str] = []  # each follow-up opens with words of its own
        for i, turn in enumerate(turns):
            texts = [_sentence(t) if j == 0 else t for j, t in enumerate(turn.texts)]  # a request opens a sentence
            if i == 0 and _PLEASE.search(" ".join(first)):  # 'please' once a message: 'Please look me up ...'
                texts = [voice.without_please(t, turn.mentions) for t in texts]
            text = " ".join(t for t in (first if i == 0 else []) + texts if t)
            text = _QUOTE_STOPPED.sub(r"\1\2", text)  # 'about "Lunch on Thursday?".': one stop is enough
            before = turns[i - 1].calls if i else []
            if before:  # not after a request that waits for a missing value
                opener = voice.opener(rng, _answered(before, specs, missing_call, facts_of), used=openers,
                                      request=text)
                openers.append(opener)
                text = f"{opener} {text}".strip()
            user_turns.append(text)
        return user_turns

    def _missing(self, chain: _Chain, served: list[str], held_for: str | None, first: dict[str, set[str]],
                 added: dict[str, set[str]], named_by: dict[str, list[Ref]]) -> tuple[GoldCall, set[str]] | None:
        """A call a request asks for (its own call, not a look-up or a call it needs first) whose tool
        the chain uses once, to leave out of the shown tools with its declared substitutes, and the
        ids of the calls that go with it: it and every call depending on it. Never one whose
        substitute the chain calls; never one whose request asks for calls first (the user asked for
        that step too: doing it and declining the rest, and declining it all, would both be right);
        never one that takes with it the call a held-back value is for (the user is asked only for
        values a call left in the gold needs); and never one whose request looked up an entity that a
        later request, on its own, would look up with another call (the search for the issue to move,
        whose result shows its project's id, kept for the sprint of that project to start: a model
        that declines the move and looks the project up by its name would match none of it). The
        call the later request would make itself (the list of the user's categories) is its own."""
        counts = Counter(call.name for call in chain.calls)
        request_of = {c: own for own, calls in added.items() for c in (*calls, own)}
        calls = {c.id: c for c in chain.calls}

        def borrowed(lookup: str, request: str) -> bool:
            """Whether `request` takes an entity from the call `lookup` that it would look up otherwise."""
            return any(chain.resolved.get((r.kind, r.key)) == lookup and not self._looks_up(calls[lookup], r)
                       for r in named_by.get(request, ()))

        candidates = []
        for call in chain.calls:
            stand_ins = self.recipe.substitutes_of(call.name) & counts.keys()
            if call.name not in served or counts[call.name] != 1 or stand_ins or first.get(call.id):
                continue
            dropped = _dependents(chain.calls, {call.id})
            own = added.get(call.id, set())
            if any(borrowed(d, request_of.get(c.id, ""))
                   for c in chain.calls if c.id not in dropped | own for d in c.depends_on if d in own):
                continue
            if held_for not in dropped:
                candidates.append((call, dropped))
        return self.rng.choice(candidates) if candidates else None

    def _pick(self, bundle: Bundle, chain: _Chain, used: set[str], named: set[tuple[str, str]], *,
              need_detail: bool):
        """A request the bundle supports that adds calls to the chain. After the first request, a
        follow-up on an entity already named is preferred (`follow_up_rate`)."""
        goals = [g for g in self.recipe.goals if g.tool not in used]
        follow = bool(named) and self.rng.random() < self.config.follow_up_rate
        fallback = None
        for _ in range(10):
            if not goals:
                break
            goal = self.rng.choices(goals, weights=[g.weight for g in goals])[0]
            ask = goal.build(bundle, self.rng)
            if ask is None or (need_detail and ask.detail is None):
                continue
            planned = chain.plan(goal.tool, ask)
            if planned is None:
                continue
            new, intros, resolved, introduced = planned
            if len(chain.calls) + len(new) > self.config.max_calls:
                continue
            found = (goal.tool, ask, new, intros, resolved, introduced)
            if not follow or {(r.kind, r.key) for r in ask.refs} & named:
                return found
            fallback = fallback or found
        return fallback

    def _tools(self, calls: Sequence[GoldCall] = (), hide: set[str] = frozenset(), off_topic: str | None = None
               ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        c = self.config
        return shown_tools(self.recipe.server, self.rng, distractor_rate=c.distractor_rate,
                           distractors=c.distractors, strip_enums_rate=c.strip_enums_rate,
                           strip=passes_enum(self.recipe.server, calls), hide=hide, off_topic=off_topic)

    def _looks_up(self, call: GoldCall, ref: Ref) -> bool:
        """Whether `call` is a look-up the recipe makes for `ref`."""
        for lookup in self.recipe.lookups_for(ref.kind):
            try:
                if lookup.tool == call.name and lookup.args(ref) == call.arguments:
                    return True
            except (KeyError, AttributeError):  # a look-up by a field this entity does not have
                continue
        return False

    def _is_lookup(self, call: GoldCall, chain: _Chain) -> bool:
        return call.id in set(chain.resolved.values()) and call.id not in chain.served

    def _edge_kind(self, chain: _Chain, source_id: str, target: GoldCall) -> str:
        source = next(c for c in chain.calls if c.id == source_id)
        edge = self.graph.edge(source.name, target.name)
        return edge.kind if edge is not None else "explicit"


def _flat(value: Any) -> Iterator[Any]:
    """The scalars of an argument value (the items of a list, the values of a mapping)."""
    if isinstance(value, Mapping):
        for v in value.values():
            yield from _flat(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _flat(v)
    else:
        yield value


def _with_owners(refs: Sequence[Ref]) -> Iterator[Ref]:
    """`refs` and the entities they are listed under (an account's customer), and theirs."""
    for ref in refs:
        while ref is not None:
            yield ref
            ref = ref.owner


def _dependents(calls: list[GoldCall], roots: set[str]) -> set[str]:
    """The ids of `roots` and of every call that depends on them, directly or not."""
    out = set(roots)
    for call in calls:  # calls depend only on earlier ones
        if out & set(call.depends_on):
            out.add(call.id)
    return out


def _needed(gold: list[list[GoldCall]], lookups: set[str], told: set[str]) -> list[list[GoldCall]]:
    """`gold` without the look-ups that no kept call depends on and whose results tell the user nothing."""
    while True:
        used = {d for turn in gold for c in turn for d in c.depends_on}
        idle = {c.id for turn in gold for c in turn if c.id in lookups and c.id not in used and c.id not in told}
        if not idle:
            return gold
        gold = [[c for c in turn if c.id not in idle] for turn in gold]


def _inline(detail: str) -> str:
    """A detail said in the same message as its request: 'I mean ...', which answers "which one?",
    reads there as the user correcting themselves, so the value is said alone ('Kayla Brown.')."""
    if detail.startswith("I mean "):
        return _sentence(detail[len("I mean "):])
    return detail


def _sentence(text: str) -> str:
    """A request opening a sentence, its first letter upper case; but not a first word that is a
    name typed exactly (a file 'settings.yaml', an address 'ana@x.org', a path): upper-cased, it
    names something else."""
    if re.search(r"\w[./@]\w", text.split(" ", 1)[0]):
        return text
    return text[:1].upper() + text[1:]


_QUOTE_STOPPED = re.compile(r"([.!?])([\"'])\.(?=\s|$)")


def _at_first_use(gold: list[list[GoldCall]], lookups: set[str], told: set[str]) -> list[list[GoldCall]]:
    """`gold` with each look-up that tells its turn nothing in the turn of its first use, just before
    the first call that depends on it: "Amanda here; move $40 to subscriptions" with that tool
    missing is answered without looking Amanda up, and the next turn's request looks her up."""
    while True:
        turn_of = {c.id: i for i, turn in enumerate(gold) for c in turn}
        first_use: dict[str, int] = {}
        for i, turn in enumerate(gold):
            for c in turn:
                for d in c.depends_on:
                    first_use.setdefault(d, i)
        late = next((c for turn in gold for c in turn if c.id in lookups and c.id not in told
                     and first_use.get(c.id, turn_of[c.id]) > turn_of[c.id]), None)
        if late is None:
            return gold
        to = first_use[late.id]
        gold = [[c for c in turn if c.id != late.id] for turn in gold]
        at = next(k for k, c in enumerate(gold[to]) if late.id in c.depends_on)
        gold[to].insert(at, late)


def _explicit(graph: DependencyGraph, source: str, target: str) -> bool:
    edge = graph.edge(source, target)
    return edge is not None and edge.kind == "explicit"


def _names(refs: Sequence[Ref]) -> list[str]:
    """The capitalised values of the entities `refs` name, and of their owners (names, titles); a
    title that opens with a digit counts where a capitalised word follows ('1:1 Taylor / Jennifer'),
    a date or a time does not ('2026-09-15T13:55')."""
    return [v for ref in _with_owners(refs) for v in ref.entity.values() if isinstance(v, str) and _capitalised(v)]


def _named_in(ref: Ref, text: str) -> bool:
    """Whether `text` says the name of the entity `ref` names, as words of their own."""
    name = ref.entity.get("name")
    return (isinstance(name, str) and len(name) >= 4
            and re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", text.casefold()) is not None)


def _capitalised(value: str) -> bool:
    return value[:1].isupper() or (value[:1].isdigit() and re.search(r"\b[A-Z][a-z]", value) is not None)


def _answered(calls: list[GoldCall], specs: dict[str, Any], missing: GoldCall | None, facts_of: dict[str, Any]) -> str:
    """What the assistant's answer to a turn with these calls was (`voice.AFTER`)."""
    if missing is not None and any(c.id == missing.id for c in calls):
        return "refused"
    told = any(c.id in facts_of for c in calls)
    done = any(not specs[c.name].read_only for c in calls)
    return "told and done" if told and done else "done" if done else "told"


def _secrets(ask: Ask, text: str) -> set[str]:
    """The codes among a request's values (a PIN, a passcode: digits only) that `text` says."""
    return {m for m in ask.mentions if m.isdigit() and len(m) >= 4 and m in text}


def _names_again(ask: Ask, text: str) -> bool:
    """Whether `text` already names an entity the request names (a store, a restaurant, an order's
    restaurant): joined into one message, the request would say it a second time ("Mark the
    reservation at the Denver Cherry Creek store collected. After that, check the stock at the
    Denver Cherry Creek store"), as an entity it acts on or as a name it only mentions (an automation
    whose runs are read off the home's log: "Disable automation Lock up at night. Runs of automation
    Lock up at night on July 13?"; a day is no name)."""
    folded = text.casefold()
    named = [*_names(ask.refs), *(m for m in ask.mentions if m and _capitalised(m) and not m[0].isdigit()
                                  and not _DAY_NAMED.match(m))]
    # a file, a folder or an address, in lower case ('report-q3.csv' after '/home/kay/report-q3.csv')
    paths = [m for m in ask.mentions if m and len(m) >= 3 and _PATHLIKE.search(m) and not m[0].isdigit()
             and re.search(r"[A-Za-z]", m)]
    return (any(len(name) >= 3 and re.search(rf"\b{re.escape(name.casefold())}\b", folded) for name in named)
            or any(re.search(rf"(?<![\w.-]){re.escape(path.casefold())}(?![\w-])", folded) for path in paths))


_PATHLIKE = re.compile(r"/|\w\.\w{1,5}$")


_DAY_NAMED = re.compile(r"(?:(?:january|february|march|april|may|june|july|august|september|october|november|"
                        r"december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?\s+\d|(?:monday|tuesday|"
                        r"wednesday|thursday|friday|saturday|sunday)\b)", re.IGNORECASE)


def _said_before(ask: Ask, said: str, earlier: Sequence[Any]) -> bool:
    """Whether every value `ask.detail` carries (its mentions) is already in the user's words `said`,
    and none names an entity the request acts on: a request that says "to a colleague" refers to
    nobody without "It goes to Kayla Diaz.", whoever was named before (a PIN is not said again).
    A value counts as said only as a whole word, and only where an earlier gold call passed it to
    the same argument as this request: "69 degrees" said of an automation's rule is not the set
    point asked for now, 'auto' is no part of "automation", nor '2' of "jenkins20@..."."""
    carried = [m for m in ask.mentions if m and m.casefold() in (ask.detail or "").casefold()]
    entities = {name.casefold() for name in _names(ask.refs)}
    given = {(key, repr(value)) for call in earlier for key, value in call.arguments.items()}

    def given_before(mention: str) -> bool:
        return (re.search(rf"(?<!\w){re.escape(mention)}(?!\w)", said, re.IGNORECASE) is not None
                and any((key, repr(value)) in given for key, value in ask.args.items()
                        if str(value).casefold() in mention.casefold()))

    return (bool(carried) and all(given_before(m) for m in carried)
            and not any(m.casefold() in entities for m in carried))


# The fields that name the person of an entity: its own person field where it has one (a home's
# `owner_name`, a project's `asker`: its `name` is the home's or the project's), else its `name`;
# and what the user said to be found by (an email address, a phone number), where they said it.
_PERSON = ("owner_name", "asker")
_HANDLES = ("username", "handle", "display_name", "full_name")
_SAID = ("email", "phone", "address")


def _person(entity: dict[str, Any], said: str = "") -> set[str]:
    keys = [k for k in _PERSON if k in entity] or ["name"]
    found = {entity[k] for k in (*keys, *_HANDLES) if isinstance(entity.get(k), str) and entity[k]}
    found |= {entity[k] for k in _SAID if isinstance(entity.get(k), str) and entity[k]
              and entity[k].casefold() in said}
    # a first name alone is the user's too (the code 'Megan' on Megan Chang's lock)
    return found | {entity[k].split()[0] for k in keys if isinstance(entity.get(k), str) and " " in entity[k]}


def _now(bundle: Bundle) -> dt.datetime | None:
    """The world's clock, as the sampler put it in the bundle."""
    now = bundle.get("now")
    return now if isinstance(now, dt.datetime) else None


def _own_names(bundle: Bundle, introduced: list[Ref], intros: list[tuple[str, str]]) -> set[str]:
    """The acting user's own names: the signed-in user's (a bundle's `me`) and those of the user who
    introduced themselves."""
    own = _person(bundle["me"]) if isinstance(bundle.get("me"), dict) else set()
    said = " ".join(t for pair in intros for t in pair).casefold()
    for ref in introduced:
        own |= _person(dict(ref.entity), said)
    return own


def _not_own(extract: Any, own: set[str]) -> Any:
    """`extract` without the facts that are the acting user's own name (an answer says "you")."""
    if not own:
        return extract
    folded = {name.casefold().lstrip("@") for name in own}

    def mine(value: Any) -> bool:
        return isinstance(value, str) and value.casefold().lstrip("@") in folded

    def kept(facts: Sequence[Any]) -> list[Any]:
        # a fact that may be said several ways: one of them the user's name, it is the user (the other
        # ways one word, their handle) and goes; or a thing of theirs that may be named by them (a
        # comment by its author or its words), which keeps its other ways
        out = []
        for fact in facts:
            if isinstance(fact, dict) and "one_of" in fact:
                others = [c for c in fact["one_of"] if not mine(c)]
                if len(others) == len(fact["one_of"]):
                    out.append(fact)
                elif any(isinstance(c, str) and " " in c.strip() for c in others):
                    out.append({**fact, "one_of": others})
            elif not mine(fact):
                out.append(fact)
        return out

    return lambda result: kept(extract(result))
