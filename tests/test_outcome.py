"""The outcome rules of `success`, one class at a time (docs/reward.md, "Beyond the paper").

`tests/test_success.py` tries the same rules on a synthesis sample of every server; these are the
cases found by hand, each of which a looser rule let through.
"""

from __future__ import annotations

from typing import Any

import pytest

from prove_env.actions import ParsedCall
from prove_env.episode import Episode
from prove_env.facts import say
from prove_env.runtime import run_sync
from prove_env.task import GoldCall, Task, fixture_tasks


def play(task: Task, calls: list[tuple[str, dict[str, Any]]], answer: str = "Done.") -> bool:
    """Whether the calls (all of which must succeed), then `answer` to every user turn, succeed."""
    episode = Episode(task.server)
    try:
        run_sync(episode.begin(task))
        for name, arguments in calls:
            record = run_sync(episode.call(ParsedCall(name, arguments)))
            assert record.ok, f"{name}({arguments}): {record.output}"
        for _ in task.user_turns:
            episode.answer(answer)
        return run_sync(episode.score()).success
    finally:
        episode.close()


def gold(task: Task) -> list[tuple[str, dict[str, Any]]]:
    return [(g.name, dict(g.arguments)) for g in task.gold_calls]


def first_write_task(server: str) -> Task:
    return next(t for t in fixture_tasks(server) if t.gold_digest and t.gold_digest != t.start_digest)


def untouched(task: Task, sql: str) -> tuple:
    """The first row the query selects whose values appear nowhere in the task."""
    episode = Episode(task.server)
    run_sync(episode.begin(task))
    try:
        text = task.to_json()
        return next(row for row in episode.world.connection.execute(sql) if not any(str(v) in text for v in row))
    finally:
        episode.close()


# -- changes nobody asked for ---------------------------------------------------------------------


@pytest.mark.parametrize(("server", "sql", "call"), [
    ("calendar", "SELECT e.id FROM events e JOIN contacts c ON c.id = e.organizer_id WHERE c.is_me ORDER BY e.id",
     lambda row: ("update_event", {"event_id": row[0], "description": "Bring the quarterly numbers."})),
    ("team_chat", "SELECT member_id, channel_id FROM channel_members ORDER BY channel_id, member_id",
     lambda row: ("set_channel_topic", {"user_id": row[0], "channel_id": row[1], "topic": "Launch week"})),
    ("budget", "SELECT id FROM expenses ORDER BY id",
     lambda row: ("update_expense", {"expense_id": row[0], "note": "shared with Sam"})),
])
def test_a_detail_changed_on_an_entity_the_task_never_touches_fails(server, sql, call):
    task = first_write_task(server)
    assert play(task, gold(task), _facts(task))
    assert not play(task, gold(task) + [call(untouched(task, sql))], _facts(task))


def _facts(task: Task) -> str:
    return say([f for turn in task.facts or [] for f in turn])


# -- details the user did not give, on the rows the task writes ------------------------------------

RENAME = Task(id="rename", server="filesystem", seed=0, user_turns=["Rename 'report final.txt' in my downloads to report-final-v1.txt."],
              gold=[[GoldCall(id="g1", name="mv", arguments={"source": "downloads/report final.txt",
                                                               "destination": "downloads/report-final-v1.txt"})]])


def test_a_move_done_as_copy_and_remove_succeeds():
    """The copy is a new file with its own time: the time is a detail the user did not give."""
    assert play(RENAME, [("cp", {"source": "downloads/report final.txt", "destination": "downloads/report-final-v1.txt"}),
                         ("rm", {"path": "downloads/report final.txt"})])


def test_a_relative_path_after_cd_succeeds():
    assert play(RENAME, [("cd", {"path": "downloads"}),
                         ("mv", {"source": "report final.txt", "destination": "report-final-v1.txt"})])
    into = RENAME.model_copy(update={"gold": [[GoldCall(id="g1", name="cd", arguments={"path": "downloads"}),
                                               GoldCall(id="g2", name="mv", depends_on=["g1"], arguments={
                                                   "source": "report final.txt", "destination": "report-final-v1.txt"})]]})
    # another way there: the previous directory differs from the reference's, the rest is the same
    assert play(into, [("cd", {"path": "documents"}), ("cd", {"path": "../downloads"}),
                       ("mv", {"source": "report final.txt", "destination": "report-final-v1.txt"})])
    # a directory the user named is part of the outcome
    assert not play(into, [("mv", {"source": "downloads/report final.txt", "destination": "downloads/report-final-v1.txt"})])


def _stating_a_detail() -> list[tuple[Task, str]]:
    """Fixture tasks whose gold gives a tolerated detail's value (a memo, a note, a description),
    with the argument that gives it: one per server that has such a task."""
    from prove_env.registry import get_toolkit, server_names

    found = []
    for server in server_names():
        specs = get_toolkit(server).specs()
        for task in fixture_tasks(server):
            given = [k for g in task.gold_calls for k, v in g.arguments.items() if isinstance(v, str) and v
                     and k in {d.column for d in specs[g.name].details}]
            if given and task.gold_digest != task.start_digest:
                found.append((task, given[0]))
                break
    return found


@pytest.mark.parametrize(("task", "argument"), _stating_a_detail(), ids=lambda v: v.id if isinstance(v, Task) else v)
def test_a_detail_the_user_gave_must_be_the_one_written(task, argument):
    calls = gold(task)
    wrong = [(n, {**a, argument: a[argument] + " (edited)"} if argument in a else a) for n, a in calls]
    cased = [(n, {**a, argument: "  " + a[argument].upper() + " "} if argument in a else a) for n, a in calls]
    assert play(task, calls, _facts(task))
    assert not play(task, wrong, _facts(task))
    assert play(task, cased, _facts(task)), "the user's words in another letter case and spacing are the same words"


# -- abstention ------------------------------------------------------------------------------------


def test_an_abstention_may_look_with_a_shown_tool_but_not_call_an_unshown_one():
    task = next(t for t in fixture_tasks("calendar") if not t.gold_calls)
    shown = {t["function"]["name"] for t in task.tools or []}
    assert "get_current_time" in shown
    assert play(task, [])
    assert play(task, [("get_current_time", {})], "I can't do that here.")
    from prove_env.registry import get_toolkit

    name = next((s.name for s in get_toolkit("calendar").visible_specs() if s.name not in shown), "wire_money")
    episode = Episode("calendar")
    try:
        run_sync(episode.begin(task))
        assert not run_sync(episode.call(ParsedCall(name, {}))).ok
        assert not run_sync(episode.score()).success
    finally:
        episode.close()


# -- the reference: replayed, or read off an episode that made exactly the gold calls ---------------


def _forget(task: Task) -> None:
    """Forget the reference of `task` and every table view of a start world, as in a fresh process."""
    from prove_env import episode

    episode._REPLAYS.pop(episode._task_key(task), None)
    episode._VIEWS.clear()


def _writing_tasks() -> list[Task]:
    """Per server, the fixture tasks that write a table holding details (the first two), or else the
    first that writes."""
    from prove_env.registry import get_toolkit, server_names

    found = []
    for server in server_names():
        detailing = {s.name for s in get_toolkit(server).specs().values() if s.details}
        writes = [t for t in fixture_tasks(server) if t.gold_digest and t.gold_digest != t.start_digest]
        detailed = [t for t in writes if any(g.name in detailing for g in t.gold_calls)]
        found += detailed[:2] or writes[:1]
    return found


@pytest.mark.parametrize("task", _writing_tasks(), ids=lambda t: t.id)
def test_the_reference_read_off_the_gold_episode_is_the_world_replayed(task: Task) -> None:
    """The first episode of a task that makes exactly its gold calls stands for the reference (the
    gold calls then run once per task, not twice). What the reference holds of the start world
    must be read off a start world, not off the episode's world, which the calls have moved on:
    every field is checked against worlds built here, one left as it starts and one the gold calls
    run on directly, and the episode scores the maximum and the same against a replayed reference."""
    from prove_env import episode as module
    from prove_env.episode import build_world, replay
    from prove_env.registry import get_toolkit

    _forget(task)
    episode = Episode(task.server)
    try:
        run_sync(episode.begin(task))
        for call in task.gold_calls:
            assert run_sync(episode.call(ParsedCall(call.name, dict(call.arguments)))).ok
        for _ in task.user_turns:
            episode.answer(_facts(task))
        own = run_sync(episode.score())
        read_off = module._REPLAYS[module._task_key(task)]
        _forget(task)
        replayed = run_sync(replay(task))
        assert replayed is not read_off and replayed == read_off
        assert run_sync(episode.score()) == own and own.success
        assert own.total == pytest.approx(episode.reward_config.maximum)
    finally:
        episode.close()

    toolkit = get_toolkit(task.server)
    start, end = build_world(toolkit, task), build_world(toolkit, task)
    try:
        tools = toolkit(end)
        outputs = [tools.run(call.name, dict(call.arguments)) for call in task.gold_calls]
        details = toolkit.details()
        assert (read_off.start_digest, read_off.gold_digest) == (task.start_digest, task.gold_digest)
        assert read_off.start_tables == start.table_digests() and read_off.gold_tables == end.table_digests()
        assert [r.output for r in read_off.records] == outputs
        assert [r.id for r in read_off.records] == [c.id for c in task.gold_calls]
        assert read_off.start_rest == {t: start.digest_except(t, d) for t, d in details.items()}
        assert read_off.gold_rest == {t: end.digest_except(t, d) for t, d in details.items()}
        assert read_off.start_details == {(t, c): start.column_values(t, c) for t, d in details.items() for c in d}
        for table in details:
            before, after = start.row_values(table), end.row_values(table)
            assert read_off.touched[table] == {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    finally:
        start.close()
        end.close()


def _strays(task: Task) -> list[tuple[str, list[tuple[str, dict[str, Any]]]]]:
    calls = gold(task)
    name, arguments = calls[-1]
    key = next(k for k, v in arguments.items() if isinstance(v, str) and not k.endswith("_id"))
    return [("nothing", []), ("the last call left out", calls[:-1]),
            ("another value", calls[:-1] + [(name, {**arguments, key: arguments[key] + " (edited)"})])]


_STRAYING = next(t for t in fixture_tasks("budget") if t.id == "budget-009")  # ..., add_expense(merchant="Shell")


@pytest.mark.parametrize("stray", range(3), ids=[s for s, _ in _strays(_STRAYING)])
def test_an_episode_that_strays_from_the_gold_is_judged_against_the_replayed_gold(stray: int) -> None:
    """Only calls that are exactly the gold calls may stand for the reference: a do-nothing, a gold
    call left out, or another value in one, made first (no reference known yet), is judged against
    the gold replayed, and fails; were its own world taken for the reference, each would pass."""
    _, calls = _strays(_STRAYING)[stray]
    _forget(_STRAYING)
    assert not play(_STRAYING, calls, _facts(_STRAYING))
    _forget(_STRAYING)
    assert play(_STRAYING, gold(_STRAYING), _facts(_STRAYING))
