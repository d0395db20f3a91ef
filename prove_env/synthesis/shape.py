"""The shape of a task set, measured: what the stats report shows against the targets.

- turns and chain lengths, as counts and as the shares the targets name (single-turn
  conversations at most 30%, one-call chains at most 10%);
- missing-function, abstention and clarification shares;
- the share of user sentences covered by the 10 most frequent sentence *templates*: a sentence
  with its numbers, money, dates, times, quoted strings, e-mail addresses, paths and names
  replaced by placeholders (at most 25%);
- tool coverage: visible tools that no gold chain calls;
- the most repeated exact tool-name sequence, as a share of the tasks (at most 2%).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from prove_env.registry import get_toolkit
from prove_env.synthesis.config import INFO_LEVELS
from prove_env.task import Task

__all__ = ["shape", "templates", "template_share", "tool_sequence", "TARGETS"]

TARGETS = {"single_turn_share": 0.30, "one_call_share": 0.10, "top10_template_share": 0.25,
           "top_sequence_share": 0.02}

_MONTHS = ("January|February|March|April|May|June|July|August|September|October|November|December|"
           "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec")
_DAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
_SUBSTITUTIONS = (
    (re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`"), "<q>"),
    (re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+"), "<email>"),
    (re.compile(r"(~|\.{1,2})?/[\w./*~-]+"), "<path>"),
    (re.compile(rf"\b({_DAYS}),?\s+"), "<day> "),
    (re.compile(rf"\b({_MONTHS})\.?\s+\d{{1,2}}(st|nd|rd|th)?(,\s*\d{{4}})?\b"), "<date>"),
    (re.compile(r"\b\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?\b"), "<date>"),
    (re.compile(r"\b\d{1,2}(:\d{2})?\s*(am|pm)\b|\bnoon\b", re.IGNORECASE), "<time>"),
    (re.compile(r"\$?\d[\d,]*(\.\d+)?%?"), "<n>"),
    (re.compile(rf"\b({_MONTHS}|{_DAYS})\b"), "<date>"),
    (re.compile(r"\b[A-Z][\w'&.-]*(\s+(of|the|and|&|de|von)?\s*[A-Z][\w'&.-]*)*"), "<name>"),
)
_SENTENCE = re.compile(r"(?<=[.?!])\s+")


def templates(text: str) -> list[str]:
    """The sentence templates of one user turn."""
    out = []
    for sentence in _SENTENCE.split(text.strip()):
        if not sentence:
            continue
        first, rest = sentence[:1], sentence[1:]
        template = first.lower() + rest if rest[:1].islower() or not rest else sentence
        for pattern, placeholder in _SUBSTITUTIONS:
            template = pattern.sub(placeholder, template)
        out.append(re.sub(r"\s+", " ", template).strip())
    return out


def template_share(tasks: Iterable[Task], top: int = 10) -> tuple[float, list[tuple[str, int]]]:
    """The share of user sentences covered by the `top` most frequent templates, and those."""
    counter: Counter[str] = Counter(t for task in tasks for turn in task.user_turns for t in templates(turn))
    total = sum(counter.values())
    common = counter.most_common(top)
    return (sum(n for _, n in common) / total if total else 0.0), common


def tool_sequence(task: Task) -> tuple[str, ...]:
    return tuple(call.name for call in task.gold_calls)


def shape(tasks: list[Task], server: str | None = None) -> dict[str, Any]:
    """The shape statistics of `tasks` (of one server when `server` is given: its tool coverage)."""

    def count(values: list[Any]) -> dict[str, int]:
        counter = Counter(str(v) for v in values)
        return {k: counter[k] for k in sorted(counter, key=lambda x: (len(x), x))}

    n = len(tasks)
    with_calls = [t for t in tasks if t.gold_calls]
    answerable = [t for t in with_calls if not t.writes and t.missing_tool is None]
    perturbations = Counter(p for t in tasks for p in t.metadata.get("perturbations", []))
    share, common = template_share(tasks)
    sequences = Counter(tool_sequence(t) for t in with_calls)
    top_sequence = sequences.most_common(1)
    out: dict[str, Any] = {
        "chain_length": count([len(t.gold_calls) for t in tasks]),
        "turns": count([len(t.user_turns) for t in tasks]),
        "info_level": {level: sum(t.metadata.get("info_level") == level and not t.abstain for t in tasks)
                       for level in INFO_LEVELS},
        "abstention": sum(t.abstain for t in tasks),
        "writes": sum(t.writes for t in tasks),
        "perturbations": {k: perturbations[k] for k in sorted(perturbations)},
        "targets": {
            "single_turn_share": _ratio(sum(len(t.user_turns) == 1 for t in tasks), n),
            "one_call_share": _ratio(sum(len(t.gold_calls) == 1 for t in tasks), n),
            "two_to_five_calls_share": _ratio(sum(2 <= len(t.gold_calls) <= 5 for t in tasks), n),
            "missing_function_share": _ratio(sum(t.missing_tool is not None for t in tasks), n),
            "clarification_share": _ratio(sum(t.metadata.get("info_level") == "missing" and not t.abstain
                                              for t in tasks), n),
            "irrelevant_share": _ratio(perturbations["irrelevant"], n),
            "top10_template_share": round(share, 4),
            "top_sequence_share": _ratio(top_sequence[0][1], n) if top_sequence else 0.0,
            # read-only tasks that can answer (a missing-function task may have lost what the user asked)
            "read_only_with_facts_share": _ratio(sum(t.facts is not None for t in answerable),
                                                 len(answerable)),
        },
        "top_templates": [[template, number] for template, number in common],
    }
    if server is not None:
        called = {c.name for t in tasks for c in t.gold_calls}
        out["tools_in_no_chain"] = [s.name for s in get_toolkit(server).visible_specs() if s.name not in called]
    return out


def _ratio(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0
