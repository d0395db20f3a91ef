"""How one user speaks over a whole conversation: a register, kept from the first turn to the last.

The recipe says what is asked (each goal in several phrasings); the voice says the words around
it: how a follow-up turn opens, how a second request joins the first, and the odd sentence a
person of that register adds. A voice adds whole sentences and never rewrites a request's own
sentence, so no request is broken by it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["Voice", "REGISTERS"]

REGISTERS = ("plain", "polite", "chatty", "terse")

_OPENERS = {
    "plain": ("Thanks.", "OK.", "Got it.", "Good.", "Alright.", "Thanks for that.", "OK, that helps.", "Right.",
              "Understood.", "Fine.", ""),
    "polite": ("Thank you very much.", "Thank you, that's helpful.", "Many thanks.", "Thank you kindly.",
               "I appreciate it, thank you.", "That's very helpful, thank you.", "Wonderful, thank you.",
               "Thank you for checking.", "Lovely, thanks so much.", "Much appreciated."),
    "chatty": ("Oh great, thanks!", "Perfect, that's exactly what I needed.", "Awesome, thank you!",
               "Nice, that's a relief.", "Brilliant, cheers!", "Ah, good to know.", "Super, thanks a lot!",
               "Oh nice.", "Cool, thanks!", "Great stuff.", "Ha, I thought so."),
    "terse": ("", "", "", "ok.", "k.", "thx.", "next:", "good.", "fine."),
}
_JOINERS = {
    "plain": ("Also, ", "And ", "Then ", "After that, ", "Next, ", "Besides that, "),
    "polite": ("Also, ", "In addition, ", "After that, ", "And if you could, ", "Once that's done, "),
    "chatty": ("Oh, and ", "Also, ", "While you're at it, ", "And then ", "Plus, ", "One more thing: "),
    "terse": ("Also ", "And ", "Then ", "Plus ", ""),
}
_ASIDES = {  # a sentence of the voice's own, now and then, before a request
    "plain": ("I have a question.", "Can you help with something?", "I need a hand with this."),
    "polite": ("I hope you can help me.", "Sorry to bother you.", "Good day.", "I'd be grateful for your help.",
               "Hello, I have a request."),
    "chatty": ("Hey there!", "Hi!", "Okay, here's the thing.", "So, quick one.", "Hope your day's going well!",
               "Morning!", "Right, let's see."),
    "terse": (),
}


@dataclass(frozen=True)
class Voice:
    """A user's register for one conversation, drawn once with the conversation's `rng`."""

    register: str

    @classmethod
    def draw(cls, rng: random.Random, *, terse: bool = False) -> Voice:
        return cls("terse" if terse else rng.choice(REGISTERS[:3]))

    def opener(self, rng: random.Random) -> str:
        """The words that open a follow-up turn, after the assistant has answered."""
        return rng.choice(_OPENERS[self.register])

    def joiner(self, rng: random.Random) -> str:
        """The words that join a second request to the first in one turn."""
        return rng.choice(_JOINERS[self.register])

    def aside(self, rng: random.Random, rate: float = 0.25) -> str:
        """Now and then, a sentence of the voice's own before the first request; usually nothing."""
        asides = _ASIDES[self.register]
        return rng.choice(asides) if asides and rng.random() < rate else ""
