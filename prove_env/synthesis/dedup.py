"""Near-duplicate removal by Jaccard similarity of tool-call sequences.

A task's signature is the set of its gold calls, each as its name with its canonical arguments;
two tasks are near-duplicates when the Jaccard similarity of their signatures reaches the
threshold (0.70, as in PROVE). Abstention tasks have no calls; two of them are duplicates only
when their words are the same.
Candidates are found through an inverted index, so the cost grows with overlaps, not with the
square of the data set. The first task of a duplicate group (in input order) is kept.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict

from prove_env.task import Task

__all__ = ["signature", "jaccard", "Deduplicator"]

_WORD = re.compile(r"[a-z0-9]+")


def signature(task: Task) -> frozenset[str]:
    if task.abstain:
        return frozenset({"text:" + " ".join(_WORD.findall(" ".join(task.user_turns).lower()))})
    return frozenset(
        f"{c.name}:{json.dumps(c.arguments, sort_keys=True, separators=(',', ':'))}" for c in task.gold_calls
    )


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


class Deduplicator:
    """Keeps tasks that are not near-duplicates of a task kept before (per server)."""

    def __init__(self, threshold: float = 0.70) -> None:
        if not 0.0 < threshold <= 1.0:
            raise ValueError("the Jaccard threshold must be in (0, 1]")
        self.threshold = threshold
        self._kept: list[frozenset[str]] = []
        self._index: dict[tuple[str, str], list[int]] = defaultdict(list)

    def add(self, task: Task) -> bool:
        """Keep `task` (True) unless it is a near-duplicate of one kept earlier (False)."""
        sig = signature(task)
        seen: set[int] = set()
        for token in sig:
            for i in self._index[(task.server, token)]:
                if i not in seen:
                    seen.add(i)
                    if jaccard(sig, self._kept[i]) >= self.threshold:
                        return False
        number = len(self._kept)
        self._kept.append(sig)
        for token in sig:
            self._index[(task.server, token)].append(number)
        return True
