"""The Task model: valid tasks round-trip through JSON, invalid ones get clear errors."""

from __future__ import annotations

import pytest

from prove_env.task import Task, TaskError, dump_tasks, load_tasks

BASE = {"id": "t", "server": "banking", "seed": 0, "user_turns": ["hi"],
        "gold": [[{"id": "g1", "name": "get_balance", "arguments": {"account_id": "ACC-0001"}}]]}


def test_round_trip():
    task = Task.parse(BASE)
    assert Task.parse(task.to_json()) == task
    assert task.gold_calls[0].depends_on == []


@pytest.mark.parametrize("change, message", [
    ({"seed": None}, "exactly one of 'seed' and 'snapshot'"),
    ({"snapshot": {}}, "exactly one of 'seed' and 'snapshot'"),
    ({"user_turns": ["a", "b"]}, "'gold' has 1 turns"),
    ({"gold": [[{"id": "g1", "name": "x"}, {"id": "g1", "name": "y"}]]}, "used twice"),
    ({"gold": [[{"id": "g1", "name": "x", "depends_on": ["g2"]}, {"id": "g2", "name": "y"}]]}, "not earlier gold calls"),
    ({"gold": [[]]}, "must be marked 'abstain'"),
    ({"abstain": True}, "has no gold calls"),
    ({"tools": [{"name": "x"}]}, "OpenAI function schemas"),
    ({"seed": -1}, "greater than or equal to 0"),
    ({"colour": "red"}, "Extra inputs"),
])
def test_invalid_tasks(change, message):
    with pytest.raises(TaskError, match=message):
        Task.parse({**BASE, **change})


def test_load_errors_name_the_line(tmp_path):
    path = tmp_path / "tasks.jsonl"
    path.write_text(Task.parse(BASE).to_json() + "\n\n{oops\n")
    with pytest.raises(TaskError, match="tasks.jsonl:3: not valid JSON"):
        load_tasks(path)
    path.write_text(Task.parse(BASE).to_json() + "\n" + Task.parse(BASE).to_json() + "\n")
    with pytest.raises(TaskError, match="used twice"):
        load_tasks(path)
    with pytest.raises(TaskError, match="no task file"):
        load_tasks(tmp_path / "missing.jsonl")


def test_a_task_with_unicode_line_separators_reads_back(tmp_path):
    """JSON text holds U+2028, U+2029 and U+0085 raw; only a newline ends a task's line."""
    task = Task.parse({**BASE, "user_turns": ["Move it\u2028now\u2029please\x85\rthanks"]})
    path = tmp_path / "tasks.jsonl"
    dump_tasks([task, task.model_copy(update={"id": "t2"})], path)
    assert [t.user_turns for t in load_tasks(path)] == [task.user_turns] * 2
