"""The synthesis parameters: every shape and rate of the data set, with PROVE's defaults."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

__all__ = ["SynthConfig", "INFO_LEVELS"]

INFO_LEVELS = ("complete", "missing", "minimal")


@dataclass(frozen=True)
class SynthConfig:
    """How tasks are shaped and perturbed.

    Attributes:
        info_levels: shares of complete requests, requests missing a required value (the
            assistant must ask; the value comes in the next user turn) and minimal requests.
        goals: shares of tasks with 1, 2 and 3 requests (a chain of one call gets another request).
        follow_up_rate: how often a later request is about an entity an earlier one named.
        max_calls: the longest gold chain (look-ups included).
        max_turns: the most user turns.
        split_turn_rate: how often a request gets its own user turn rather than joining the
            previous one.
        distractor_rate: share of tasks shown tools of other servers as well.
        distractors: how many such tools, lowest and highest.
        strip_enums_rate: share of tasks whose tool schemas lose their enum value lists.
        irrelevant_rate: share of tasks asking for something no tool serves (gold: no call).
        hidden_rate: share of tasks asking for what only a hidden tool could do (gold: no call).
        missing_function_rate: share of chains with one tool they need left out of the shown
            tools (gold: the calls still possible; the assistant says what it cannot do).
        max_sequence_share: the largest share of a server's tasks one exact tool-name sequence
            may have (more are dropped; fresh worlds make up for them).
        tasks_per_world: tasks written from one seeded world (a shard).
        attempts_per_task: drafts allowed per task a shard must deliver before it gives up.
        test_share: share of world seeds whose tasks form the test split.
    """

    info_levels: tuple[float, float, float] = (0.6, 0.2, 0.2)
    goals: tuple[float, float, float] = (0.15, 0.5, 0.35)
    follow_up_rate: float = 0.6
    max_calls: int = 5
    max_turns: int = 3
    split_turn_rate: float = 0.85
    distractor_rate: float = 0.4
    distractors: tuple[int, int] = (3, 8)
    strip_enums_rate: float = 0.3
    irrelevant_rate: float = 0.05
    hidden_rate: float = 0.05
    missing_function_rate: float = 0.11
    max_sequence_share: float = 0.02
    tasks_per_world: int = 40
    attempts_per_task: int = 6
    test_share: float = 0.1

    def __post_init__(self) -> None:
        for name in ("info_levels", "goals"):
            shares = getattr(self, name)
            if any(s < 0 for s in shares) or abs(sum(shares) - 1.0) > 1e-9:
                raise ValueError(f"{name} must be non-negative shares summing to 1, got {shares}")
        for name in ("split_turn_rate", "distractor_rate", "strip_enums_rate", "irrelevant_rate", "hidden_rate",
                     "test_share", "follow_up_rate", "missing_function_rate", "max_sequence_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1")
        if self.irrelevant_rate + self.hidden_rate > 1.0:
            raise ValueError("irrelevant_rate + hidden_rate must be at most 1")
        low, high = self.distractors
        if not 0 <= low <= high:
            raise ValueError("distractors must be (lowest, highest) with 0 <= lowest <= highest")
        if not 1 <= self.max_calls or not 1 <= self.max_turns:
            raise ValueError("max_calls and max_turns must be at least 1")
        if self.tasks_per_world < 1 or self.attempts_per_task < 1:
            raise ValueError("tasks_per_world and attempts_per_task must be at least 1")

    def as_dict(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SynthConfig:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown synthesis parameters: {', '.join(unknown)}")
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})
