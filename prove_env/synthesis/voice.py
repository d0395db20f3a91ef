"""How one user speaks over a whole conversation: a register, kept from the first turn to the last.

The recipe says what is asked (each goal in several phrasings); the voice says the words around
it: how a follow-up turn opens, how a second request joins the first, and the odd sentence a
person of that register adds. A voice adds whole sentences and never rewrites a request's own
sentence, so no request is broken by it.

A follow-up turn opens with words that fit what the assistant last did: any register's neutral
words ("OK.", "Thank you.") after anything, a refusal included; words of thanks for an answer
("Ah, good to know.") only after the assistant told something, and none of delight, since what it
told may be that there is nothing ("Oh nice." would not fit); words of
thanks for a deed ("Brilliant, cheers!") only after it changed something. A greeting opens only
the first message, once (`greets` tells one).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Voice", "REGISTERS", "AFTER", "greets"]

REGISTERS = ("plain", "polite", "chatty", "terse")
# What the assistant's last answer was, as the next turn's opener sees it.
AFTER = ("refused", "told", "done", "told and done")

_NEUTRAL = {  # fit after any answer, a refusal included
    "plain": ("OK.", "Got it.", "Alright.", "Right.", "Understood.", "Fine.", "Thanks.", ""),
    "polite": ("Thank you.", "Understood, thank you.", "All right, thank you."),
    "chatty": ("Okay!", "Alright then.", "Ah, okay."),
    "terse": ("", "", "", "ok.", "k.", "next.", "fine."),
}
_HEARD = {  # fit after the assistant said something of its own: told it, or declined ("Ah, I see." after a
    # change the user asked for has nothing to see)
    "plain": (),
    "polite": ("I see, thank you.",),
    "chatty": ("Ah, I see.",),
    "terse": (),
}
_TOLD = {  # fit after the assistant told something, "there are none" included
    "plain": ("OK, that helps.", "Thanks for that."),
    "polite": ("Thank you, that's helpful.", "That's very helpful, thank you.", "Thank you for checking.",
               "Much appreciated.", "Many thanks."),
    "chatty": ("Ah, good to know.", "Ah, I see, thanks!", "Thanks for looking that up!"),
    "terse": ("thx.",),
}
_DONE = {  # fit after the assistant changed something
    "plain": ("Good.", "Thanks for that.", "Great."),
    "polite": ("Wonderful, thank you.", "Lovely, thanks so much.", "Thank you very much.",
               "I appreciate it, thank you.", "Thank you kindly.", "Many thanks."),
    "chatty": ("Awesome, thank you!", "Brilliant, cheers!", "Super, thanks a lot!", "Cool, thanks!", "Great stuff.",
               "Oh great, thanks!"),
    "terse": ("thx.", "good."),
}
_JOINERS = {
    "plain": ("Also, ", "And ", "Then ", "After that, ", "Next, ", "Besides that, "),
    "polite": ("Also, ", "In addition, ", "After that, "),
    "chatty": ("Oh, and ", "Also, ", "While you're at it, ", "And then ", "Plus, ", "One more thing: "),
    "terse": ("Also ", "And ", "Then ", "Plus ", ""),
}
# Joiners of sequence: they say an order, so they join a change to a change whose order matters, and
# only a request that asks for something: not one that tells what happened ("Then I just had a call
# with Rhonda Ibarra", "After that, $868 came in on March 27"), which a sentence may do in many ways.
_IN_ORDER = ("Then ", "After that, ", "Next, ", "And then ")
# nor a request that opens with a clause of time or of cause, which says its order itself ('After that,
# before I ping Kylie: is she around?'; 'After that, now that Jasmine has left, ...')
_TIMED = re.compile(r"(?:before|after|when|once|until|while|as soon as|now that|since)\b", re.IGNORECASE)
_TELLS = re.compile(r"(?:I|I'm|I've|We|We're|We've|My|Our)\b(?!['’]d like| want| need| would like)")
# 'please' as a request says it: at a sentence's end (', please.'), at its start ('Please list' ->
# 'List'), or after the asking words ('could you please add')
_PLEASE_END = re.compile(r",?\s+please(?=[.?!,;])|,\s*please(?=[.?!,;])", re.IGNORECASE)
_PLEASE_START = re.compile(r"(?:^|(?<=[.!?] ))please,?\s+(\w)", re.IGNORECASE)
_PLEASE_MID = re.compile(r"(?<=\byou )please\s+", re.IGNORECASE)
_ASIDES = {  # a sentence of the voice's own, now and then, before a request (of any kind: it asks nothing)
    "plain": ("Can you help with something?", "I need a hand with this.", "Quick one for you."),
    "polite": ("I hope you can help me.", "Sorry to bother you.", "Good day.", "I'd be grateful for your help.",
               "Hello, I have a request."),
    "chatty": ("Hey there!", "Hi!", "So, quick one.", "Hope your day's going well!", "Hello!", "Right, let's see."),
    "terse": (),
}
_HELLO = r"(?:hi|hello|hey|howdy|greetings|good (?:morning|afternoon|evening|day)|morning|afternoon|evening)"
_GREETING = re.compile(rf"^\W*(?:oh,?\s+)?{_HELLO}\b(?!\s+(?:mode|scene)\b)|,\s*{_HELLO}\W*$", re.IGNORECASE)


def greets(text: str) -> bool:
    """Whether a sentence greets: opens with a greeting ('Hi!', 'Good morning, this is Ann.') or ends
    with one ("It's Bo, hello."); a name that holds the words ('the Good morning scene') does not."""
    return _GREETING.search(text.strip()) is not None


# a greeting that names a part of the day: 'Good morning' anywhere, 'Morning!' or 'Afternoon,' opening a sentence
_PART_OF_DAY = re.compile(r"\b(?P<good>good )(?P<part>morning|afternoon|evening)\b"
                          r"|(?:^|(?<=[.!?] ))(?P<bare>morning|afternoon|evening)(?=[!,.])", re.IGNORECASE)


def in_time(text: str, now: dt.datetime | None) -> str:
    """`text` with each greeting that names a part of the day naming the part `now` is in ('Good
    morning, this is Ann.' said at 14:30 is 'Good afternoon, this is Ann.'); as it is without `now`."""
    if now is None:
        return text
    part = "morning" if now.hour < 12 else "afternoon" if now.hour < 18 else "evening"

    def fit(m: re.Match[str]) -> str:
        said = m["part"] or m["bare"]
        word = part.capitalize() if said[0].isupper() else part
        return (m["good"] or "") + word

    return _PART_OF_DAY.sub(fit, text)


def _stems(text: str) -> set[str]:
    """The first four letters of each longer word of `text`, but the most common ones: what an
    opener and a request would both say ('looking' and 'look up')."""
    return {w[:4] for w in re.findall(r"[a-z]{4,}", text.lower())} - _COMMON


_COMMON = {"that", "this", "what", "with", "your", "have", "just", "then", "ther", "they", "them", "from", "than"}


@dataclass(frozen=True)
class Voice:
    """A user's register for one conversation, drawn once with the conversation's `rng`."""

    register: str

    @classmethod
    def draw(cls, rng: random.Random, *, terse: bool = False) -> Voice:
        return cls("terse" if terse else rng.choice(REGISTERS[:3]))

    def opener(self, rng: random.Random, after: str, used: Sequence[str] = (), request: str = "") -> str:
        """The words that open a follow-up turn, fitting what the assistant last did (one of `AFTER`),
        and not words an earlier turn opened with (`used`) while others fit, nor words the request
        that follows says again ('Thanks for looking that up! Could you look up flights ...')."""
        if after not in AFTER:
            raise ValueError(f"unknown answer kind {after!r}; one of {AFTER}")
        fitting = list(_NEUTRAL[self.register])
        if after != "done":
            fitting += _HEARD[self.register]
        if after in ("told", "told and done"):
            fitting += _TOLD[self.register]
        if after in ("done", "told and done"):
            fitting += [o for o in _DONE[self.register] if o not in fitting]
        said = _stems(request)
        fitting = [o for o in fitting if not _stems(o) & said] or fitting
        fresh = [o for o in fitting if not o or o not in used]
        # nor one that opens with the same word as an earlier opener ('Ah, okay.' then 'Ah, good to know.')
        firsts = {u.split()[0].strip(",.!").lower() for u in used if u}
        fresher = [o for o in fresh if not o or o.split()[0].strip(",.!").lower() not in firsts]
        return rng.choice(fresher or fresh or fitting)

    def joiner(self, rng: random.Random, request: str = "", used: Sequence[str] = (), ordered: bool = False) -> str:
        """The words that join `request`, a second request, to the first in one turn, never the words
        that joined a request of the turn before (`used`: its texts; 'Also, ... Also, ...'). `ordered`:
        a change after a change, whose order may matter ('Archive my notes. Besides that, add a line to
        one of them' leaves the line in or out of the archive): words of sequence, before a request
        that asks ('I'd like ...' asks; 'My card was stolen' tells) and does not open with a clause of
        time or of cause ('Before I ping ...', 'Now that she has left ...'). Otherwise words that say no order ('Also,', 'Plus'): what a request
        tells or asks, and when, is its own to say."""
        if ordered and not self.tells(request) and not _TIMED.match(request):
            in_order = [j for j in _JOINERS[self.register] if j in _IN_ORDER]
            if in_order:
                fresh = [j for j in in_order if not any(u.startswith(j) for u in used)]
                return rng.choice(fresh or in_order)
        fitting = [j for j in _JOINERS[self.register] if j not in _IN_ORDER]
        fresh = [j for j in fitting if not j or not any(u.startswith(j) for u in used)]
        return rng.choice(fresh or fitting)

    @staticmethod
    def tells(request: str) -> bool:
        """Whether `request` opens by telling ('My card was stolen, so ...', 'I owe PG&E $300'), not by
        asking ('I'd like ...')."""
        return _TELLS.match(request) is not None

    @staticmethod
    def without_please(text: str, keep: Sequence[str] = ()) -> str:
        """`text` without its 'please', for a request joined to one that said it ('Switch the group
        off, please. Also, list the codes, please' says it twice); never inside the user's own words
        (`keep`: the texts the request quotes, which stay as written)."""
        out = _PLEASE_END.sub("", text)
        out = _PLEASE_START.sub(lambda m: m[1].upper(), out)
        out = _PLEASE_MID.sub("", out)
        return out if all(k not in text or k in out for k in keep) else text

    def aside(self, rng: random.Random, rate: float = 0.25, greeting: bool = True, request: str = "",
              intro: str = "") -> str:
        """Now and then, a sentence of the voice's own before the first request; usually nothing.
        Without `greeting`, never one that greets (the message greets already); never one that opens
        with the request's own first words ('I need a hand with this. I need to move ...'), nor one
        that says a word of the introduction again (`intro`: 'Quick one from Carlos on the Atlas
        team. Quick one for you.')."""
        opening, introduced = request.lower().split()[:2], _stems(intro)
        asides = [a for a in _ASIDES[self.register]
                  if (greeting or not greets(a)) and (not opening or a.lower().split()[:2] != opening)
                  and not _stems(a) & introduced]
        return rng.choice(asides) if asides and rng.random() < rate else ""
