"""Optional teacher rewrite: user turns reworded by a model behind any OpenAI-compatible endpoint.

The template phrasings are correct but repetitive; a teacher model (a local vLLM server, for
example) can vary them. A rewrite is kept only if it still validates: the same number of turns,
every value the gold calls need (`metadata["mentions"]`) still said in the same turn and not
earlier (a value held back for the "missing" level must stay held back), and the task passes the
verification gates again. Otherwise the template wording stays.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from prove_env.chat import ChatEndpoint, EndpointError
from prove_env.task import Task

if TYPE_CHECKING:
    from prove_env.synthesis.verify import Verifier

__all__ = ["Teacher", "TEACHER_PROMPT"]

TEACHER_PROMPT = (
    "You rewrite what a user says to an assistant for the {server} service so that it sounds like a real "
    "person: vary the wording, keep it polite and concise. Keep every fact exactly as written: names, dates, "
    "times, amounts, numbers, codes, file paths and quoted text. Do not add, drop or merge requests, and do "
    "not move information from one message to another. The input is a JSON list of the user's messages, in "
    "order; answer with only a JSON list of the rewritten messages, the same length."
)


class Teacher:
    """Rewrites user turns through `endpoint`; `rewrite` returns the task to keep and what happened."""

    def __init__(self, endpoint: ChatEndpoint, *, temperature: float = 0.7, max_tokens: int = 1024) -> None:
        self.endpoint = endpoint
        self.temperature = temperature
        self.max_tokens = max_tokens

    def rewrite(self, task: Task, verifier: Verifier) -> tuple[Task, str]:
        try:
            message = self.endpoint.message({
                "messages": [{"role": "system", "content": TEACHER_PROMPT.format(server=task.server)},
                             {"role": "user", "content": json.dumps(task.user_turns, ensure_ascii=False)}],
                "temperature": self.temperature, "max_tokens": self.max_tokens,
            })
        except EndpointError:
            return task, "endpoint error"
        turns = _parse_turns(message.get("content") or "")
        if turns is None or len(turns) != len(task.user_turns):
            return task, "rejected: not a list of the same length"
        problem = _lost_values(task, turns)
        if problem:
            return task, f"rejected: {problem}"
        rewritten = task.model_copy(update={
            "user_turns": turns,
            "metadata": {**task.metadata, "teacher": {"model": self.endpoint.model, "original": task.user_turns}},
        })
        verdict = verifier.check(rewritten)
        if verdict.task is None:
            return task, f"rejected: {verdict.reason}"
        return verdict.task, "kept"


def _parse_turns(content: str) -> list[str] | None:
    text = content.strip()
    if text.startswith("```"):
        text = text.strip("`")
        text = text[text.find("["):] if "[" in text else text
    start, end = text.find("["), text.rfind("]")
    if start < 0 or end < start:
        return None
    try:
        turns = json.loads(text[start:end + 1])
    except ValueError:
        return None
    if not isinstance(turns, list) or not all(isinstance(t, str) and t.strip() for t in turns):
        return None
    return [t.strip() for t in turns]


def _lost_values(task: Task, turns: list[str]) -> str | None:
    mentions = task.metadata.get("mentions") or [[] for _ in turns]
    for i, (values, text) in enumerate(zip(mentions, turns)):
        for value in values:
            if value.lower() not in text.lower():
                return f"turn {i + 1} lost {value!r}"
            for j in range(i):
                if value.lower() in turns[j].lower() and value.lower() not in task.user_turns[j].lower():
                    return f"{value!r} moved to an earlier turn"
    return None
