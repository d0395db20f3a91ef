"""What the documentation tells a user to run, checked against the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# An editable install with the dev extra: the development install, written down once.
DEV_INSTALL = re.compile(r"pip install[^`\n]* -e \"?\.\[[^\]]*\bdev\b")


def test_the_development_install_is_written_once_in_the_readme_and_run_by_ci():
    pages = [README, *sorted((ROOT / "docs").rglob("*.md"))]
    found = {page.relative_to(ROOT).as_posix(): DEV_INSTALL.findall(page.read_text(encoding="utf-8")) for page in pages}
    assert len(found["README.md"]) == 1, found["README.md"]
    elsewhere = {page: hits for page, hits in found.items() if hits and page != "README.md"}
    assert not elsewhere, f"a second development install instruction (link to the README instead): {elsewhere}"
    command = next(line for line in README.read_text(encoding="utf-8").splitlines() if DEV_INSTALL.search(line))
    steps = command.strip().removeprefix("python3 -m venv .venv && ")
    assert steps in (ROOT / ".ci" / "run").read_text(encoding="utf-8").replace(" --quiet", "")


def _python_examples(page: Path) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)


def test_the_readmes_first_example_plays_its_task_to_the_end_and_prints_the_breakdown(capsys):
    example = _python_examples(README)[0]
    namespace: dict = {}
    exec(compile(example, str(README), "exec"), namespace)  # noqa: S102 (the README's own code)
    assert namespace["terminated"] or namespace["truncated"]
    breakdown = namespace["info"]["reward_breakdown"]
    assert set(breakdown) >= {"validity", "coverage", "efficiency", "name", "argument", "state", "success", "total"}
    printed = capsys.readouterr().out
    assert repr(breakdown) in printed and "None" not in printed


def _read_only_turn_with_facts():
    """A one-turn read-only task with facts, cut from a synthesized task (none of the shipped tasks records facts)."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.config import SynthConfig
    from prove_env.synthesis.pipeline import synthesize

    specs = get_toolkit("banking").specs()
    config = SynthConfig(tasks_per_world=8, irrelevant_rate=0.0, hidden_rate=0.0, test_share=0.0)
    for task in synthesize(["banking"], 16, seed=0, config=config, workers=1).tasks("train"):
        turn, facts = task.gold[0], (task.facts or [[]])[0]  # the first turn: its calls need no earlier one
        if facts and turn and all(specs[call.name].read_only for call in turn):
            return task.model_copy(update={"id": "read-only-with-facts", "user_turns": [task.user_turns[0]],
                                           "gold": [turn], "facts": [facts], "gold_digest": None})
    raise AssertionError("no read-only turn with facts among the synthesized banking tasks")


def test_the_docs_say_what_scores_the_answer_and_so_it_is():
    import gymnasium as gym

    import prove_env  # noqa: F401
    from prove_env.facts import say

    claim = "the maximum reward (1.3 under `paper`) with `success` False"
    for page in ("docs/quickstart.md", "docs/reward.md"):
        text = " ".join((ROOT / page).read_text(encoding="utf-8").split())
        assert claim in text, page
        assert "`success`" in text and "five PROVE terms" in text, page
    assert "final answer text is not scored" not in (ROOT / "docs/quickstart.md").read_text(encoding="utf-8")

    task = _read_only_turn_with_facts()
    env = gym.make("prove/banking-v0")
    outcomes = {}
    for answer in ("Done.", say(task.facts[0])):
        env.reset(options={"task": task})
        for call in task.gold[0]:
            env.step({"name": call.name, "arguments": dict(call.arguments)})
        _, reward, terminated, _, info = env.step(answer)
        assert terminated
        outcomes[answer] = (reward, info["success"])
    env.close()
    maximum = 1.3
    assert outcomes["Done."][0] == pytest.approx(maximum) and outcomes["Done."][1] is False  # facts left out
    assert outcomes[say(task.facts[0])] == (pytest.approx(maximum), True)
