"""The issue tracker through real MCP: every tool's success path and its refusals (each leaving the
world unchanged), the workflow, blockers, duplicates, reopening, sprints with velocity and burndown,
the query language, and outcome-based success.

Entities are discovered through the tools: projects by key, their issues, sprints and members."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import text

from prove_env.registry import get_toolkit
from prove_env.world import worlds


@pytest.fixture
def s(served):
    return served("issue_tracker")


# -- helpers --------------------------------------------------------------------------------------


def project(s, key: str) -> dict:
    found = s.ok("list_projects", name=key)
    assert len(found) == 1, found
    return found[0]


def issues(s, project_id: str) -> list[dict]:
    out = []
    for status in ("to_do", "in_progress", "in_review", "done"):
        out += s.ok("list_issues", project_id=project_id, status=status, limit=100)
    return sorted(out, key=lambda i: i["issue_id"])


def sprint(s, project_id: str, status: str) -> dict:
    return s.ok("list_sprints", project_id=project_id, status=status)[0]


def outsider(s, project_id: str) -> dict:
    members = {m["user_id"] for m in s.ok("list_project_members", project_id=project_id)}
    return next(u for u in s.ok("find_users", limit=100) if u["user_id"] not in members)


def member(s, project_id: str) -> dict:
    return s.ok("list_project_members", project_id=project_id)[0]


def new_issue(s, pid: str, title: str, **extra) -> dict:
    reporter = member(s, pid)["user_id"]
    return s.ok("create_issue", project_id=pid, title=title, type="task", reporter_id=reporter, **extra)


def same(s, tool: str, **arguments) -> dict:
    """The call succeeds, says nothing changed, and leaves the world exactly as it was."""
    out = s.same(tool, **arguments)
    assert out["changed"] is False, out
    return out


def fresh_worlds(seeds: int = 20):
    """The fresh worlds of seeds 0 to `seeds` - 1, each closed after use."""
    toolkit = get_toolkit("issue_tracker")
    for seed in range(seeds):
        world = worlds.create(toolkit, seed)
        try:
            yield seed, world
        finally:
            world.close()


def sql(world, query: str, **params) -> list:
    return world.session.execute(text(query), params).all()


def to_review(s, issue: dict, assignee_id: str) -> None:
    s.ok("assign_issue", issue_id=issue["issue_id"], assignee_id=assignee_id)
    s.ok("transition_issue", issue_id=issue["issue_id"], status="in_progress")
    s.ok("transition_issue", issue_id=issue["issue_id"], status="in_review")


# -- people and projects --------------------------------------------------------------------------


def test_find_users_by_name_and_email(s):
    everyone = s.ok("find_users", limit=100)
    assert len(everyone) == 40 and len({u["name"] for u in everyone}) == 40
    someone = everyone[7]
    last = someone["name"].split()[-1]
    assert someone in s.ok("find_users", name=last.upper(), limit=100)
    assert s.ok("find_users", email=someone["email"].upper()) == [someone]
    assert s.ok("find_users", name="zzz-nobody") == []


def test_projects_and_their_overview(s):
    everything = s.ok("list_projects")
    assert [p["key"] for p in everything] == ["APOLLO", "ATLAS", "HERMES", "ORION", "NOVA", "TITAN"]
    apollo = project(s, "apollo")
    assert project(s, "Mobile App") == apollo
    info = s.ok("get_project", project_id=apollo["project_id"])
    listed = issues(s, apollo["project_id"])
    assert info["issues_by_status"] == {st: sum(i["status"] == st for i in listed)
                                        for st in ("to_do", "in_progress", "in_review", "done")}
    assert info["backlog_open_issues"] == sum(i["sprint_id"] is None and i["status"] != "done" for i in listed)
    assert info["active_sprint"]["sprint_id"] == sprint(s, apollo["project_id"], "active")["sprint_id"]
    assert s.ok("get_project", project_id=project(s, "TITAN")["project_id"])["active_sprint"] is None


def test_members_and_who_can_leave(s):
    pid = project(s, "APOLLO")["project_id"]
    members = s.ok("list_project_members", project_id=pid)
    assert [m["name"] for m in members] == sorted(m["name"] for m in members)
    lead = s.ok("get_project", project_id=pid)["lead"]
    s.fails("remove_project_member", "cannot be removed", project_id=pid, user_id=lead["user_id"])
    busy = next(m for m in members if m["open_issues"] and m["user_id"] != lead["user_id"])
    s.fails("remove_project_member", "reassign or unassign them first", project_id=pid, user_id=busy["user_id"])

    newcomer = outsider(s, pid)
    s.fails("remove_project_member", "is not a member", project_id=pid, user_id=newcomer["user_id"])
    added = s.ok("add_project_member", project_id=pid, user_id=newcomer["user_id"], role="qa")
    assert added["role"] == "qa"
    s.fails("add_project_member", "already a member", project_id=pid, user_id=newcomer["user_id"])
    assert any(m["user_id"] == newcomer["user_id"] and m["open_issues"] == 0
               for m in s.ok("list_project_members", project_id=pid))
    assert s.ok("remove_project_member", project_id=pid, user_id=newcomer["user_id"])["removed"]
    assert all(m["user_id"] != newcomer["user_id"] for m in s.ok("list_project_members", project_id=pid))


# -- finding issues -------------------------------------------------------------------------------


def test_list_issues_filters(s):
    pid = project(s, "ATLAS")["project_id"]
    every = issues(s, pid)
    assert len(every) >= 20
    assert s.ok("list_issues", project_id=pid, limit=5) == every[:5]
    bugs = s.ok("list_issues", project_id=pid, type="bug", limit=100)
    assert bugs == [i for i in every if i["type"] == "bug"]
    someone = next(i["assignee_id"] for i in every if i["assignee_id"])
    assert s.ok("list_issues", project_id=pid, assignee_id=someone, limit=100) == [
        i for i in every if i["assignee_id"] == someone]
    active = sprint(s, pid, "active")
    assert s.ok("list_issues", project_id=pid, sprint_id=active["sprint_id"], limit=100) == [
        i for i in every if i["sprint_id"] == active["sprint_id"]]
    assert s.ok("list_issues", project_id=pid, backlog_only=True, limit=100) == [
        i for i in every if i["sprint_id"] is None]
    one = every[3]
    assert s.ok("list_issues", project_id=pid, title=one["title"].upper()) == [one]
    labelled = next(i for i in every if i["labels"])
    assert labelled in s.ok("list_issues", project_id=pid, label=labelled["labels"][0].upper(), limit=100)


def test_search_query_language(s):
    pid = project(s, "APOLLO")["project_id"]
    every = issues(s, pid)
    open_high = s.ok("search_issues", query="project = APOLLO AND status != done AND priority >= high", limit=100)
    assert open_high == [i for i in every if i["status"] != "done" and i["priority"] in ("high", "highest")]
    by_name = s.ok("search_issues", query='project = "Apollo Mobile App" AND type = bug', limit=100)
    assert by_name == [i for i in every if i["type"] == "bug"]
    person = next(i for i in every if i["assignee"])["assignee"]
    assert s.ok("search_issues", query=f"project = apollo and assignee = '{person}'", limit=100) == [
        i for i in every if i["assignee"] == person]
    assert s.ok("search_issues", query="project = APOLLO AND assignee = none", limit=100) == [
        i for i in every if i["assignee_id"] is None]
    assert s.ok("search_issues", query="project = APOLLO AND points >= 8 AND status = 'in progress'", limit=100) == [
        i for i in every if (i["story_points"] or 0) >= 8 and i["status"] == "in_progress"]
    assert s.ok("search_issues", query="project = APOLLO AND sprint = backlog", limit=100) == [
        i for i in every if i["sprint_id"] is None]
    word = every[0]["title"].split()[1]
    assert every[0] in s.ok("search_issues", query=f"project = APOLLO AND title ~ {word}", limit=100)
    assert s.ok("search_issues", query=f"key = {every[0]['key']}") == [every[0]]
    duplicates = s.ok("search_issues", query="resolution = duplicate", limit=100)
    assert duplicates and all(i["resolution"] == "duplicate" for i in duplicates)
    assert s.ok("search_issues", query="created > 2100-01-01") == []

    s.fails("search_issues", "unknown field 'colour'", query="colour = red")
    s.fails("search_issues", "takes the operators", query="status > done")
    s.fails("search_issues", "priority is one of", query="priority = urgent")
    s.fails("search_issues", "unclosed quote", query="title ~ 'login")
    s.fails("search_issues", "empty", query="   ")
    s.fails("search_issues", "YYYY-MM-DD", query="created > yesterday")
    s.fails("search_issues", "cannot read the condition", query="status done")


def test_get_issue_comments_and_history(s):
    pid = project(s, "APOLLO")["project_id"]
    every = issues(s, pid)
    done = next(i for i in every if i["resolution"] == "done")
    full = s.ok("get_issue", issue_id=done["issue_id"])
    assert full["key"] == done["key"] and full["resolved_at"] and full["reporter"]["name"]
    history = s.ok("get_issue_history", issue_id=done["issue_id"])
    assert history[-1]["to"] == "done" and history[-1]["changed_at"] == full["resolved_at"]
    talked = next(i for i in every if s.ok("get_issue", issue_id=i["issue_id"])["comments"] >= 2)
    comments = s.ok("list_comments", issue_id=talked["issue_id"])
    assert len(comments) == s.ok("get_issue", issue_id=talked["issue_id"])["comments"]
    assert [c["created_at"] for c in comments] == sorted(c["created_at"] for c in comments)
    assert s.ok("list_comments", issue_id=talked["issue_id"], limit=1) == comments[:1]


def test_issues_are_named_by_their_key_as_well_as_their_id(s):
    pid = project(s, "APOLLO")["project_id"]
    every = issues(s, pid)
    unlinked = [i for i in every if i["status"] == "to_do" and not s.ok("get_issue", issue_id=i["issue_id"])["links"]]
    first, second = unlinked[:2]
    key = first["key"]
    # reads by key (in any case, with spaces or a padded number) are the reads by id
    for tool in ("get_issue", "list_comments", "get_issue_history"):
        assert s.ok(tool, issue_id=key) == s.ok(tool, issue_id=first["issue_id"])
    number = key.split("-")[1]
    for said in (key.lower(), f" {key} ", f"apollo-00{number}"):
        assert s.ok("get_issue", issue_id=said)["issue_id"] == first["issue_id"]
    # writes by key change the issue the key names
    person = member(s, pid)["user_id"]
    assert s.ok("assign_issue", issue_id=key, assignee_id=person)["issue_id"] == first["issue_id"]
    moved = s.ok("transition_issue", issue_id=key.lower(), status="in_progress")
    assert (moved["issue_id"], moved["status"]) == (first["issue_id"], "in_progress")
    linked = s.ok("link_issues", issue_id=key, relation="blocks", other_issue_id=second["key"])
    assert (linked["issue_id"], linked["other_issue_id"]) == (first["issue_id"], second["issue_id"])
    assert f"blocks {second['key']}" in [h["to"] for h in s.ok("get_issue_history", issue_id=key)]
    s.ok("unlink_issues", issue_id=second["key"], other_issue_id=key)
    closed = s.ok("close_issue", issue_id=second["key"], resolution="duplicate", duplicate_of_issue_id=key)
    assert closed["duplicate_of"]["issue_id"] == first["issue_id"]
    assert s.ok("get_issue", issue_id=second["issue_id"])["resolution"] == "duplicate"


def test_an_unknown_key_says_what_is_known_and_changes_nothing(s):
    apollo = s.ok("get_project", project_id=project(s, "APOLLO")["project_id"])
    last = max(int(i["key"].split("-")[1]) for i in issues(s, apollo["project_id"]))
    error = s.fails("get_issue", "Apollo Mobile App has no issue with that key", issue_id=f"APOLLO-{last + 1}")
    assert f"APOLLO-1 to APOLLO-{last}" in error
    error = s.fails("transition_issue", "no project has the key 'ZEUS'", issue_id="ZEUS-3", status="in_progress")
    assert "APOLLO" in error and "TITAN" in error
    s.fails("get_issue", "Issue 'ISS-9999' not found; issue ids look like 'ISS-0007'", issue_id="ISS-9999")
    s.fails("get_issue", "not found", issue_id="the login bug")


def test_every_tool_that_takes_an_issue_takes_its_key(s):
    """Each issue parameter of each visible tool goes through the one resolver: an unknown key of a
    known project is refused with the resolver's wording, whatever else the call carries."""
    pid = project(s, "APOLLO")["project_id"]
    known = {"issue": issues(s, pid)[0]["issue_id"], "user": member(s, pid)["user_id"], "project": pid,
             "sprint": s.ok("list_sprints", project_id=pid)[0]["sprint_id"]}
    toolkit = get_toolkit("issue_tracker")
    checked = []
    for spec in toolkit.visible_specs():
        ids = {name: kind for name, kind, _ in spec.ids}
        for param in [name for name, kind in ids.items() if kind == "issue"]:
            props = spec.parameters["properties"]
            arguments = {}
            for name in spec.parameters.get("required", []):
                if name in ids:
                    arguments[name] = known[ids[name]]
                elif "enum" in props[name]:
                    arguments[name] = props[name]["enum"][0]
                else:
                    arguments[name] = {"string": "x", "integer": 1}[props[name]["type"]]
            arguments[param] = "APOLLO-9999"
            s.fails(spec.name, "Apollo Mobile App has no issue with that key", **arguments)
            checked.append((spec.name, param))
    assert len(checked) >= 19, checked


# -- writing issues -------------------------------------------------------------------------------


def test_create_issue_and_its_rules(s):
    pid = project(s, "APOLLO")["project_id"]
    count = len(issues(s, pid))
    reporter = member(s, pid)["user_id"]
    stranger = outsider(s, pid)["user_id"]
    made = s.ok("create_issue", project_id=pid, title="  Dark   mode for the dashboard ", type="story",
                reporter_id=reporter, priority="high", story_points=5, labels=["UI", "frontend", "ui"])
    assert made["title"] == "Dark mode for the dashboard" and made["status"] == "to_do" and made["sprint_id"] is None
    assert made["key"] == f"APOLLO-{count + 1}" and made["labels"] == ["frontend", "ui"]
    assert made["priority"] == "high" and made["story_points"] == 5 and made["assignee_id"] is None
    args = dict(project_id=pid, type="bug", reporter_id=reporter)
    s.fails("create_issue", "already has the title", title="dark mode FOR the dashboard", **args)
    s.fails("create_issue", "is not a member", title="Other", **{**args, "reporter_id": stranger})
    s.fails("create_issue", "is not a member", title="Other", assignee_id=stranger, **args)
    s.fails("create_issue", "story points must be one of", title="Other", story_points=4, **args)
    s.fails("create_issue", "1 to 120 characters", title="   ", **args)
    s.fails("create_issue", "lowercase letters", title="Other", labels=["no spaces"], **args)
    # a closed issue's title may be used again
    closed = next(i for i in issues(s, pid) if i["status"] == "done")
    assert s.ok("create_issue", title=closed["title"], **args)["key"] == f"APOLLO-{count + 2}"


def test_update_issue_records_history(s):
    pid = project(s, "ORION")["project_id"]
    every = issues(s, pid)
    issue = next(i for i in every if i["status"] == "to_do" and i["priority"] != "highest" and i["story_points"] != 13)
    updated = s.ok("update_issue", issue_id=issue["issue_id"], priority="highest", story_points=13,
                   title="Renamed after refinement")
    assert (updated["priority"], updated["story_points"], updated["title"]) == ("highest", 13, "Renamed after refinement")
    fields = [h["field"] for h in s.ok("get_issue_history", issue_id=issue["issue_id"])]
    assert fields[-3:] == ["title", "priority", "story_points"]
    s.fails("update_issue", "nothing to change", issue_id=issue["issue_id"])
    s.fails("update_issue", "story points must be one of", issue_id=issue["issue_id"], story_points=7)
    other = next(i for i in every if i["status"] != "done" and i["issue_id"] != issue["issue_id"])
    s.fails("update_issue", "already has the title", issue_id=other["issue_id"], title="renamed after refinement")
    done = next(i for i in every if i["status"] == "done")
    s.fails("update_issue", "reopen it first", issue_id=done["issue_id"], priority="low")


def test_assignee_must_be_a_project_member(s):
    pid = project(s, "HERMES")["project_id"]
    issue = next(i for i in issues(s, pid) if i["status"] == "to_do")
    stranger = outsider(s, pid)
    s.fails("assign_issue", "add them with add_project_member first", issue_id=issue["issue_id"],
              assignee_id=stranger["user_id"])
    s.ok("add_project_member", project_id=pid, user_id=stranger["user_id"])
    assigned = s.ok("assign_issue", issue_id=issue["issue_id"], assignee_id=stranger["user_id"])
    assert assigned["assignee_id"] == stranger["user_id"] and assigned["assignee"] == stranger["name"]
    history = s.ok("get_issue_history", issue_id=issue["issue_id"])
    assert history[-1]["field"] == "assignee" and history[-1]["to"] == stranger["user_id"]
    # now they hold an open issue, they cannot leave the team
    s.fails("remove_project_member", "reassign or unassign", project_id=pid, user_id=stranger["user_id"])
    done = next(i for i in issues(s, pid) if i["status"] == "done")
    s.fails("assign_issue", "reopen it first", issue_id=done["issue_id"], assignee_id=stranger["user_id"])


def test_unassign_rules(s):
    pid = project(s, "ATLAS")["project_id"]
    every = issues(s, pid)
    working = next(i for i in every if i["status"] == "in_progress")
    s.fails("unassign_issue", "needs an assignee", issue_id=working["issue_id"])
    waiting = next(i for i in every if i["status"] == "to_do" and i["assignee_id"])
    out = s.ok("unassign_issue", issue_id=waiting["issue_id"])
    assert out["assignee_id"] is None and out["changed"] is True
    assert same(s, "unassign_issue", issue_id=waiting["issue_id"])["assignee_id"] is None


def test_workflow_transitions(s):
    pid = project(s, "NOVA")["project_id"]
    issue = new_issue(s, pid, "Walk the workflow")
    iid = issue["issue_id"]
    s.fails("transition_issue", "cannot go from to_do to in_review", issue_id=iid, status="in_review")
    s.fails("transition_issue", "move it to in_review first", issue_id=iid, status="done")
    s.fails("transition_issue", "already to_do", issue_id=iid, status="to_do")
    s.fails("transition_issue", "has no assignee", issue_id=iid, status="in_progress")
    s.ok("assign_issue", issue_id=iid, assignee_id=member(s, pid)["user_id"])
    assert s.ok("transition_issue", issue_id=iid, status="in_progress")["status"] == "in_progress"
    assert s.ok("transition_issue", issue_id=iid, status="to_do")["status"] == "to_do"
    s.ok("transition_issue", issue_id=iid, status="in_progress")
    s.ok("transition_issue", issue_id=iid, status="in_review")
    assert s.ok("transition_issue", issue_id=iid, status="in_progress")["status"] == "in_progress"
    s.ok("transition_issue", issue_id=iid, status="in_review")
    done = s.ok("transition_issue", issue_id=iid, status="done")
    assert (done["status"], done["resolution"]) == ("done", "done")
    assert s.ok("get_issue", issue_id=iid)["resolved_at"] is not None
    s.fails("transition_issue", "reopen it with reopen_issue", issue_id=iid, status="in_progress")
    statuses = [h["to"] for h in s.ok("get_issue_history", issue_id=iid) if h["field"] == "status"]
    assert statuses == ["in_progress", "to_do", "in_progress", "in_review", "in_progress", "in_review", "done"]


def test_an_issue_blocked_by_an_open_issue_cannot_be_closed(s):
    pid = project(s, "ORION")["project_id"]
    blocker = new_issue(s, pid, "Ship the schema migration")
    blocked = new_issue(s, pid, "Backfill the reports")
    s.ok("link_issues", issue_id=blocked["issue_id"], relation="is_blocked_by", other_issue_id=blocker["issue_id"])
    to_review(s, blocked, member(s, pid)["user_id"])
    text = s.fails("transition_issue", "is blocked by", issue_id=blocked["issue_id"], status="done")
    assert blocker["key"] in text and "unlink_issues" in text
    s.fails("close_issue", "is blocked by", issue_id=blocked["issue_id"], resolution="won't do")
    # a blocker in review is still open
    to_review(s, blocker, member(s, pid)["user_id"])
    s.fails("transition_issue", "is blocked by", issue_id=blocked["issue_id"], status="done")
    s.ok("transition_issue", issue_id=blocker["issue_id"], status="done")
    assert s.ok("transition_issue", issue_id=blocked["issue_id"], status="done")["status"] == "done"


def test_a_seeded_blocker_and_unlinking(s):
    """In the seed, open issues are blocked by open ones; removing the link also lifts the block."""
    for p in s.ok("list_projects"):
        for issue in issues(s, p["project_id"]):
            links = s.ok("get_issue", issue_id=issue["issue_id"])["links"]
            open_blockers = [x for x in links if x["relation"] == "is_blocked_by" and x["status"] != "done"]
            if issue["status"] != "done" and open_blockers:
                s.fails("close_issue", "is blocked by", issue_id=issue["issue_id"], resolution="won't do")
                for x in open_blockers:
                    assert s.ok("unlink_issues", issue_id=issue["issue_id"], other_issue_id=x["issue_id"])[
                        "removed"] == "is_blocked_by"
                assert s.ok("close_issue", issue_id=issue["issue_id"], resolution="won't do")["resolution"] == "won't do"
                return
    raise AssertionError("no open issue is blocked by an open one in the seed-0 world")


def test_closing_as_duplicate_needs_the_original(s):
    pid = project(s, "APOLLO")["project_id"]
    every = issues(s, pid)
    dup, original = [i for i in every if i["status"] == "to_do"][:2]
    s.fails("close_issue", "needs the original", issue_id=dup["issue_id"], resolution="duplicate")
    s.fails("close_issue", "duplicate of itself", issue_id=dup["issue_id"], resolution="duplicate",
              duplicate_of_issue_id=dup["issue_id"])
    elsewhere = issues(s, project(s, "ATLAS")["project_id"])[0]
    s.fails("close_issue", "same project", issue_id=dup["issue_id"], resolution="duplicate",
              duplicate_of_issue_id=elsewhere["issue_id"])
    already = next(i for i in every if i["resolution"] == "duplicate")
    s.fails("close_issue", "point to its original", issue_id=dup["issue_id"], resolution="duplicate",
              duplicate_of_issue_id=already["issue_id"])
    s.fails("close_issue", "only for the resolution 'duplicate'", issue_id=dup["issue_id"],
              resolution="won't do", duplicate_of_issue_id=original["issue_id"])
    closed = s.ok("close_issue", issue_id=dup["issue_id"], resolution="duplicate",
                  duplicate_of_issue_id=original["issue_id"])
    assert (closed["status"], closed["resolution"]) == ("done", "duplicate")
    assert closed["duplicate_of"]["issue_id"] == original["issue_id"]
    assert {"relation": "duplicates", "issue_id": original["issue_id"]}.items() <= next(
        x for x in s.ok("get_issue", issue_id=dup["issue_id"])["links"]).items()
    assert any(x["relation"] == "is_duplicated_by" and x["issue_id"] == dup["issue_id"]
               for x in s.ok("get_issue", issue_id=original["issue_id"])["links"])
    s.fails("close_issue", "already closed", issue_id=dup["issue_id"], resolution="won't do")


def test_reopening_rules(s):
    now = s.world.now
    pid = project(s, "APOLLO")["project_id"]
    every = issues(s, pid)
    s.fails("reopen_issue", "only closed issues", issue_id=next(i for i in every if i["status"] == "to_do")["issue_id"])
    full = {i["issue_id"]: s.ok("get_issue", issue_id=i["issue_id"]) for i in every if i["status"] == "done"}
    old = next(f for f in full.values() if dt.datetime.fromisoformat(f["resolved_at"]) < now - dt.timedelta(days=30))
    s.fails("reopen_issue", "more than 30 days ago", issue_id=old["issue_id"])
    recent = [f for f in full.values() if dt.datetime.fromisoformat(f["resolved_at"]) >= now - dt.timedelta(days=30)]
    in_closed_sprint = next(f for f in recent if f["sprint"] and f["sprint"]["status"] == "closed")
    reopened = s.ok("reopen_issue", issue_id=in_closed_sprint["issue_id"])
    assert (reopened["status"], reopened["resolution"], reopened["sprint_id"]) == ("to_do", None, None)
    assert s.ok("get_issue", issue_id=reopened["issue_id"])["resolved_at"] is None
    in_active = next((f for f in recent if f["sprint"] and f["sprint"]["status"] == "active"), None)
    if in_active is not None:
        assert s.ok("reopen_issue", issue_id=in_active["issue_id"])["sprint_id"] == in_active["sprint"]["sprint_id"]


def test_reopening_unassigns_someone_who_left_the_project(s):
    pid = project(s, "ATLAS")["project_id"]
    now = s.world.now
    for person in s.ok("list_project_members", project_id=pid):
        if person["open_issues"] or person["role"] == "lead":
            continue
        held = [i for i in s.ok("list_issues", project_id=pid, assignee_id=person["user_id"], limit=100)
                if dt.datetime.fromisoformat(s.ok("get_issue", issue_id=i["issue_id"])["resolved_at"])
                >= now - dt.timedelta(days=30)]
        if held:
            s.ok("remove_project_member", project_id=pid, user_id=person["user_id"])
            reopened = s.ok("reopen_issue", issue_id=held[0]["issue_id"])
            assert reopened["status"] == "to_do" and reopened["assignee_id"] is None
            return
    raise AssertionError("no member without open issues holds a recently closed one in the seed-0 world")


def test_invariants_hold_after_the_seed_and_a_sprint_change(served):
    s = served("issue_tracker")
    from prove_env.registry import get_toolkit

    tools = get_toolkit("issue_tracker")(s.world)
    assert tools.invariants() == []
    pid = project(s, "APOLLO")["project_id"]
    s.ok("complete_sprint", sprint_id=sprint(s, pid, "active")["sprint_id"])
    assert get_toolkit("issue_tracker")(s.world).invariants() == []


def test_comments_come_from_members(s):
    pid = project(s, "TITAN")["project_id"]
    issue = issues(s, pid)[0]
    author = member(s, pid)
    before = len(s.ok("list_comments", issue_id=issue["issue_id"], limit=100))
    made = s.ok("add_comment", issue_id=issue["issue_id"], author_id=author["user_id"], body="  Looks good to me. ")
    assert made["body"] == "Looks good to me." and made["author"] == author["name"]
    listed = s.ok("list_comments", issue_id=issue["issue_id"], limit=100)
    assert len(listed) == before + 1 and listed[-1]["comment_id"] == made["comment_id"]
    s.fails("add_comment", "is not a member", issue_id=issue["issue_id"],
              author_id=outsider(s, pid)["user_id"], body="Hello")
    s.fails("add_comment", "1 to 5000 characters", issue_id=issue["issue_id"], author_id=author["user_id"],
              body="  ")


def test_labels(s):
    pid = project(s, "HERMES")["project_id"]
    every = issues(s, pid)
    issue = next(i for i in every if i["status"] != "done" and "security" not in i["labels"])
    added = s.ok("add_label", issue_id=issue["issue_id"], label=" Security ")
    assert "security" in added["labels"] and added["changed"] is True
    assert "security" in same(s, "add_label", issue_id=issue["issue_id"], label="security")["labels"]
    s.fails("add_label", "lowercase letters", issue_id=issue["issue_id"], label="two words")
    assert "security" not in s.ok("remove_label", issue_id=issue["issue_id"], label="security")["labels"]
    assert "security" not in same(s, "remove_label", issue_id=issue["issue_id"], label="security")["labels"]
    done = next(i for i in every if i["status"] == "done")
    s.fails("add_label", "reopen it first", issue_id=done["issue_id"], label="api")


def test_links(s):
    pid = project(s, "NOVA")["project_id"]
    a = new_issue(s, pid, "Link source")
    b = new_issue(s, pid, "Link target")
    s.fails("link_issues", "linked to itself", issue_id=a["issue_id"], relation="relates_to",
              other_issue_id=a["issue_id"])
    s.fails("unlink_issues", "are not linked", issue_id=a["issue_id"], other_issue_id=b["issue_id"])
    made = s.ok("link_issues", issue_id=a["issue_id"], relation="blocks", other_issue_id=b["issue_id"])
    assert made["relation"] == "blocks"
    assert s.ok("get_issue", issue_id=b["issue_id"])["links"][0]["relation"] == "is_blocked_by"
    s.fails("link_issues", "already linked (blocks)", issue_id=a["issue_id"], relation="relates_to",
              other_issue_id=b["issue_id"])
    assert s.ok("unlink_issues", issue_id=b["issue_id"], other_issue_id=a["issue_id"])["removed"] == "is_blocked_by"
    s.ok("link_issues", issue_id=b["issue_id"], relation="relates_to", other_issue_id=a["issue_id"])
    assert s.ok("get_issue", issue_id=a["issue_id"])["links"][0]["relation"] == "relates_to"


# -- sprints ----------------------------------------------------------------------------------------


def test_sprint_lifecycle_with_one_active_sprint(s):
    pid = project(s, "APOLLO")["project_id"]
    active = sprint(s, pid, "active")
    following = sprint(s, pid, "planned")
    s.fails("start_sprint", "already active", sprint_id=following["sprint_id"])
    s.fails("start_sprint", "only planned sprints", sprint_id=active["sprint_id"])
    s.fails("complete_sprint", "only the active sprint", sprint_id=following["sprint_id"])
    closed = sprint(s, pid, "closed")
    s.fails("complete_sprint", "only move to a planned sprint", sprint_id=active["sprint_id"],
              next_sprint_id=closed["sprint_id"])
    elsewhere = sprint(s, project(s, "ATLAS")["project_id"], "planned")
    s.fails("complete_sprint", "another project", sprint_id=active["sprint_id"],
              next_sprint_id=elsewhere["sprint_id"])

    inside = s.ok("list_issues", project_id=pid, sprint_id=active["sprint_id"], limit=100)
    unfinished = [i for i in inside if i["status"] != "done"]
    finished = [i for i in inside if i["status"] == "done"]
    assert unfinished and finished
    done = s.ok("complete_sprint", sprint_id=active["sprint_id"], next_sprint_id=following["sprint_id"])
    assert done["status"] == "closed" and done["moved_to"]["sprint_id"] == following["sprint_id"]
    assert done["moved_issues"] == [i["key"] for i in unfinished]
    assert done["completed_points"] == sum(i["story_points"] or 0 for i in finished)
    assert s.ok("list_issues", project_id=pid, sprint_id=active["sprint_id"], limit=100) == finished
    assert all(i["sprint_id"] == following["sprint_id"] for i in
               s.ok("list_issues", project_id=pid, sprint_id=following["sprint_id"], limit=100))

    started = s.ok("start_sprint", sprint_id=following["sprint_id"])
    assert started["status"] == "active" and started["start_date"] == s.world.now.date().isoformat()
    assert started["committed_points"] == sum(i["story_points"] or 0 for i in s.ok(
        "list_issues", project_id=pid, sprint_id=following["sprint_id"], limit=100) if i["status"] != "done")
    assert [x["sprint_id"] for x in s.ok("list_sprints", project_id=pid, status="active")] == [following["sprint_id"]]
    to_backlog = s.ok("complete_sprint", sprint_id=following["sprint_id"])
    assert to_backlog["moved_to"] == "backlog"
    assert all(i["sprint_id"] is None for i in s.ok("list_issues", project_id=pid, backlog_only=True, limit=100))
    assert len(s.ok("list_issues", project_id=pid, backlog_only=True, limit=100)) >= len(to_backlog["moved_issues"])


def test_a_sprint_needs_issues_to_start(s):
    pid = project(s, "HERMES")["project_id"]
    active = sprint(s, pid, "active")
    empty = next(x for x in s.ok("list_sprints", project_id=pid, status="planned") if x["issues"] == 0)
    s.ok("complete_sprint", sprint_id=active["sprint_id"])
    s.fails("start_sprint", "holds no issues", sprint_id=empty["sprint_id"])
    issue = next(i for i in issues(s, pid) if i["status"] == "to_do")
    s.ok("add_issue_to_sprint", issue_id=issue["issue_id"], sprint_id=empty["sprint_id"])
    assert s.ok("start_sprint", sprint_id=empty["sprint_id"])["issues"] == 1


def test_create_sprint_rules(s):
    pid = project(s, "TITAN")["project_id"]
    today = s.world.now.date()
    start, end = today + dt.timedelta(days=1), today + dt.timedelta(days=14)
    made = s.ok("create_sprint", project_id=pid, name="Titan Sprint 1", start_date=start.isoformat(),
                end_date=end.isoformat(), goal="Set up the clusters")
    assert made["status"] == "planned" and made["issues"] == 0 and made["goal"] == "Set up the clusters"
    args = dict(project_id=pid, start_date=start.isoformat(), end_date=end.isoformat())
    s.fails("create_sprint", "already has a sprint named", name="titan sprint 1", **args)
    s.fails("create_sprint", "in the past", name="Late", **{**args, "start_date": (today - dt.timedelta(days=1)).isoformat()})
    s.fails("create_sprint", "1 to 28 days", name="Long", **{**args, "end_date": (start + dt.timedelta(days=40)).isoformat()})
    s.fails("create_sprint", "1 to 28 days", name="Backwards", **{**args, "end_date": today.isoformat()})
    assert s.ok("list_sprints", project_id=pid) == [made]


def test_moving_issues_between_sprints_and_backlog(s):
    pid = project(s, "ORION")["project_id"]
    planned = sprint(s, pid, "planned")
    closed = sprint(s, pid, "closed")
    every = issues(s, pid)
    waiting = next(i for i in every if i["sprint_id"] is None and i["status"] != "done")
    assert same(s, "move_issue_to_backlog", issue_id=waiting["issue_id"])["sprint_id"] is None
    s.fails("add_issue_to_sprint", "is closed", issue_id=waiting["issue_id"], sprint_id=closed["sprint_id"])
    elsewhere = sprint(s, project(s, "ATLAS")["project_id"], "planned")
    s.fails("add_issue_to_sprint", "another project", issue_id=waiting["issue_id"], sprint_id=elsewhere["sprint_id"])
    moved = s.ok("add_issue_to_sprint", issue_id=waiting["issue_id"], sprint_id=planned["sprint_id"])
    assert moved["sprint_id"] == planned["sprint_id"] and moved["sprint"] == planned["name"]
    assert same(s, "add_issue_to_sprint", issue_id=waiting["issue_id"], sprint_id=planned["sprint_id"])[
        "sprint_id"] == planned["sprint_id"]
    assert s.ok("move_issue_to_backlog", issue_id=waiting["issue_id"])["sprint_id"] is None
    done = next(i for i in every if i["status"] == "done" and i["sprint_id"])
    s.fails("move_issue_to_backlog", "reopen it first", issue_id=done["issue_id"])


def test_velocity_and_burndown(s):
    pid = project(s, "ATLAS")["project_id"]
    closed = s.ok("list_sprints", project_id=pid, status="closed")
    velocity = s.ok("get_velocity", project_id=pid, sprints=3)
    newest = sorted(closed, key=lambda x: x["end_date"], reverse=True)[:3]
    assert [r["sprint_id"] for r in velocity["sprints"]] == [x["sprint_id"] for x in newest]
    assert velocity["average_completed_points"] == round(sum(x["completed_points"] for x in newest) / 3, 1)
    assert s.ok("get_velocity", project_id=pid, sprints=10)["sprints"][-1]["sprint_id"] == closed[0]["sprint_id"]
    s.fails("get_velocity", "1 to 10", project_id=pid, sprints=11)
    s.fails("get_velocity", "no closed sprints", project_id=project(s, "TITAN")["project_id"])

    report = s.ok("get_sprint_report", sprint_id=closed[-1]["sprint_id"])
    assert report["scope_points"] == closed[-1]["committed_points"]
    assert report["completed_points"] == closed[-1]["completed_points"]
    assert len(report["burndown"]) == 14 and report["burndown"][-1]["remaining_points"] == report["remaining_points"]
    points = [d["remaining_points"] for d in report["burndown"]]
    assert points == sorted(points, reverse=True)

    active = sprint(s, pid, "active")
    live = s.ok("get_sprint_report", sprint_id=active["sprint_id"])
    assert live["burndown"][-1]["date"] == s.world.now.date().isoformat()
    assert live["remaining_points"] == live["scope_points"] - live["completed_points"]
    s.fails("get_sprint_report", "has not started", sprint_id=sprint(s, pid, "planned")["sprint_id"])
    # finishing work burns the sprint down today
    issue = next(i for i in s.ok("list_issues", project_id=pid, sprint_id=active["sprint_id"], limit=100)
                 if i["status"] == "in_review" and i["story_points"])
    s.ok("transition_issue", issue_id=issue["issue_id"], status="done")
    after = s.ok("get_sprint_report", sprint_id=active["sprint_id"])
    assert after["remaining_points"] == live["remaining_points"] - issue["story_points"]


# -- the world's own rules --------------------------------------------------------------------------

# Every time that records something that happened (not sprint dates, which may be ahead).
HAPPENED = (("projects", "created_at"), ("members", "joined_at"), ("sprints", "started_at"), ("sprints", "closed_at"),
            ("issues", "created_at"), ("issues", "updated_at"), ("issues", "resolved_at"), ("comments", "created_at"),
            ("history", "changed_at"), ("links", "created_at"))


def test_seeds_record_nothing_after_the_clock():
    """Issues planned for a future sprint were filed before today, and their comments, updates and links
    happened before the clock too (seeds 0-19)."""
    late = {}
    for seed, world in fresh_worlds():
        now = world.now.isoformat(sep=" ", timespec="microseconds")  # as SQLite holds times
        for table, column in HAPPENED:
            count = sql(world, f"SELECT count(*) FROM {table} WHERE {column} > :now", now=now)[0][0]
            if count:
                late[(seed, table, column)] = count
    assert not late, late


def test_seeds_close_no_issue_that_an_open_issue_blocks():
    """An issue closed as a duplicate in the seed is never one that an open issue blocks: closing it would
    have been refused (seeds 0-19)."""
    held = {}
    for seed, world in fresh_worlds():
        rows = sql(world, "SELECT b.key, a.key FROM links k JOIN issues a ON a.id = k.source_id JOIN issues b ON "
                          "b.id = k.target_id WHERE k.kind = 'blocks' AND b.status = 'done' AND a.status != 'done'")
        if rows:
            held[seed] = rows
    assert not held, held


def test_an_open_issue_cannot_newly_block_a_closed_one(s):
    pid = project(s, "NOVA")["project_id"]
    closed = next(i for i in issues(s, pid) if i["resolution"] == "done" and not s.ok(
        "get_issue", issue_id=i["issue_id"])["links"])
    waiting = new_issue(s, pid, "Migrate the help center search")
    text_ = s.fails("link_issues", "cannot block it", issue_id=waiting["issue_id"], relation="blocks",
                    other_issue_id=closed["issue_id"])
    assert "reopen" in text_ and "relates_to" in text_
    s.fails("link_issues", "cannot block it", issue_id=closed["issue_id"], relation="is_blocked_by",
            other_issue_id=waiting["issue_id"])
    # a closed issue may be recorded as the (finished) blocker of an open one, and closed ones may relate
    assert s.ok("link_issues", issue_id=closed["issue_id"], relation="blocks",
                other_issue_id=waiting["issue_id"])["relation"] == "blocks"
    assert s.ok("close_issue", issue_id=waiting["issue_id"], resolution="won't do")["status"] == "done"


def test_reopening_a_blocker_leaves_what_it_blocked_closed(s):
    pid = project(s, "ORION")["project_id"]
    blocker = new_issue(s, pid, "Upgrade the warehouse driver")
    blocked = new_issue(s, pid, "Rebuild the revenue dashboard")
    s.ok("link_issues", issue_id=blocker["issue_id"], relation="blocks", other_issue_id=blocked["issue_id"])
    person = member(s, pid)["user_id"]
    for issue in (blocker, blocked):
        to_review(s, issue, person)
        s.ok("transition_issue", issue_id=issue["issue_id"], status="done")
    # the regression reopens the blocker; the finished work it blocked stays closed, and the world sound
    assert s.ok("reopen_issue", issue_id=blocker["issue_id"])["status"] == "to_do"
    assert s.ok("get_issue", issue_id=blocked["issue_id"])["status"] == "done"
    s.fails("link_issues", "already linked", issue_id=blocker["issue_id"], relation="blocks",
            other_issue_id=blocked["issue_id"])


def test_links_are_recorded_in_both_issues_history(s):
    pid = project(s, "HERMES")["project_id"]
    a = new_issue(s, pid, "Retry failed pushes")
    b = new_issue(s, pid, "Queue pushes per device")
    c = new_issue(s, pid, "Retry failed pushes twice")

    def links(issue):
        return [(h["from"], h["to"]) for h in s.ok("get_issue_history", issue_id=issue["issue_id"])
                if h["field"] == "link"]

    s.ok("link_issues", issue_id=a["issue_id"], relation="is_blocked_by", other_issue_id=b["issue_id"])
    assert links(a) == [(None, f"is_blocked_by {b['key']}")] and links(b) == [(None, f"blocks {a['key']}")]
    s.ok("unlink_issues", issue_id=b["issue_id"], other_issue_id=a["issue_id"])
    assert links(a)[-1] == (f"is_blocked_by {b['key']}", None) and links(b)[-1] == (f"blocks {a['key']}", None)
    s.ok("close_issue", issue_id=c["issue_id"], resolution="duplicate", duplicate_of_issue_id=a["issue_id"])
    assert links(c) == [(None, f"duplicates {a['key']}")] and links(a)[-1] == (None, f"is_duplicated_by {c['key']}")


def test_a_closed_sprint_keeps_the_work_added_after_its_start(s):
    pid = project(s, "ATLAS")["project_id"]
    active = sprint(s, pid, "active")
    added = next(i for i in issues(s, pid) if i["sprint_id"] is None and i["status"] == "to_do")
    s.ok("update_issue", issue_id=added["issue_id"], story_points=8)
    before = s.ok("get_sprint_report", sprint_id=active["sprint_id"])
    s.ok("add_issue_to_sprint", issue_id=added["issue_id"], sprint_id=active["sprint_id"])
    live = s.ok("get_sprint_report", sprint_id=active["sprint_id"])
    assert live["scope_points"] == before["scope_points"] + 8
    assert live["remaining_points"] == before["remaining_points"] + 8
    s.ok("complete_sprint", sprint_id=active["sprint_id"])
    closed = s.ok("get_sprint_report", sprint_id=active["sprint_id"])
    # no work was done in between: the scope, the completed and the remaining points stay as they were
    assert [closed[k] for k in ("scope_points", "completed_points", "remaining_points", "committed_points")] == [
        live[k] for k in ("scope_points", "completed_points", "remaining_points", "committed_points")]
    assert closed["burndown"][-1]["remaining_points"] == closed["remaining_points"]


def test_velocity_and_report_agree_after_a_reopen(s):
    now = s.world.now
    for p in s.ok("list_projects"):
        for x in s.ok("list_sprints", project_id=p["project_id"], status="closed"):
            for issue in s.ok("list_issues", project_id=p["project_id"], sprint_id=x["sprint_id"], limit=100):
                full = s.ok("get_issue", issue_id=issue["issue_id"])
                if issue["story_points"] and dt.datetime.fromisoformat(full["resolved_at"]) >= now - dt.timedelta(days=30):
                    break
            else:
                continue
            break
        else:
            continue
        break
    else:
        raise AssertionError("no recently closed issue with points in a closed sprint of the seed-0 world")
    sid, points = x["sprint_id"], issue["story_points"]

    def velocity():
        rows = s.ok("get_velocity", project_id=p["project_id"], sprints=10)["sprints"]
        return next(r["completed_points"] for r in rows if r["sprint_id"] == sid)

    assert velocity() == s.ok("get_sprint_report", sprint_id=sid)["completed_points"] == x["completed_points"]
    s.ok("reopen_issue", issue_id=issue["issue_id"])
    report = s.ok("get_sprint_report", sprint_id=sid)
    assert velocity() == report["completed_points"] == x["completed_points"] - points
    assert report["remaining_points"] == report["scope_points"] - report["completed_points"]
    assert report["burndown"][-1]["remaining_points"] == report["remaining_points"]


def test_set_like_tools_repeated_at_once_change_nothing(s):
    """The tools annotated idempotent succeed when repeated, say nothing changed, and leave the world as it was."""
    pid = project(s, "APOLLO")["project_id"]
    planned = sprint(s, pid, "planned")
    issue = next(i for i in issues(s, pid) if i["status"] == "to_do" and i["assignee_id"]
                 and i["sprint_id"] != planned["sprint_id"] and "regression" not in i["labels"])
    for tool, args in (("add_label", {"label": "regression"}), ("remove_label", {"label": "regression"}),
                       ("unassign_issue", {}), ("add_issue_to_sprint", {"sprint_id": planned["sprint_id"]}),
                       ("move_issue_to_backlog", {})):
        assert s.ok(tool, issue_id=issue["issue_id"], **args)["changed"] is True
        same(s, tool, issue_id=issue["issue_id"], **args)


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------


def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play, served):
    from prove_env.task import Task

    s = served("issue_tracker")
    apollo = project(s, "APOLLO")
    issue = next(i for i in issues(s, apollo["project_id"]) if i["status"] == "to_do" and i["priority"] != "highest")
    key, title = issue["key"], issue["title"]
    ask = Task(id="priority", server="issue_tracker", seed=0,
               user_turns=[f"What's the priority of '{title}' in Apollo?"],
               gold=[[{"id": "g1", "name": "list_projects", "arguments": {"name": "Apollo"}},
                      {"id": "g2", "name": "list_issues", "depends_on": ["g1"],
                       "arguments": {"project_id": apollo["project_id"], "title": title}},
                      {"id": "g3", "name": "get_issue", "arguments": {"issue_id": issue["issue_id"]},
                       "depends_on": ["g2"]}]],
               facts=[[issue["priority"]]])
    # another correct path: the query language finds it, and its summary carries the priority
    other = play(ask, [_call("search_issues", query=f"project = APOLLO AND title ~ '{title}'"),
                       f"{key} is {issue['priority']} priority."])
    assert other["success"] and other["reward_breakdown"]["coverage"] < 1
    # the right answer, then damage nobody asked for: the issue closed
    damage = play(ask, [_call("get_issue", issue_id=issue["issue_id"]),
                        _call("close_issue", issue_id=issue["issue_id"], resolution="won't do"),
                        f"It is {issue['priority']} priority."])
    assert not damage["success"]

    reporter = member(s, apollo["project_id"])
    create = Task(id="create", server="issue_tracker", seed=0,
                  user_turns=[f"This is {reporter['name']}. Log a bug in Apollo: 'Login screen flickers'."],
                  gold=[[{"id": "g1", "name": "list_projects", "arguments": {"name": "Apollo"}},
                         {"id": "g2", "name": "find_users", "arguments": {"name": reporter["name"]}},
                         {"id": "g3", "name": "create_issue", "depends_on": ["g1", "g2"],
                          "arguments": {"project_id": apollo["project_id"], "title": "Login screen flickers",
                                        "type": "bug", "reporter_id": reporter["user_id"]}}]])
    # a description the user did not ask for is a detail, not damage
    described = play(create, [_call("create_issue", project_id=apollo["project_id"], title="Login screen flickers",
                                    type="bug", reporter_id=reporter["user_id"],
                                    description="Reported by a teammate."), "Logged."])
    assert described["success"]
    wrong = play(create, [_call("create_issue", project_id=apollo["project_id"], title="Login screen flickers",
                                type="bug", reporter_id=reporter["user_id"], priority="high"), "Logged."])
    assert not wrong["success"]


# -- synthesized requests ---------------------------------------------------------------------------


def _asks(tool: str, *, seeds=(0, 1), draws: int = 80):
    """Requests the recipe writes for `tool` from the bundles of a few worlds, each with the reader of
    its world (open while the request is looked at)."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("issue_tracker"), get_recipe("issue_tracker")
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"issue asks {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == tool):
            for _ in range(draws):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is not None:
                    yield ask, read
        world.close()


def test_an_issue_asked_about_by_title_needs_its_full_record():
    """An issue named by its title is found by a search that already shows its key, assignee,
    points and priority: a question about it asks for something only `get_issue` tells (who filed
    it and when, what blocks it), or the search would answer it and the call would be idle. And
    what blocks an issue is the blocking issues, not its own key."""
    by_title = 0
    for ask, read in _asks("get_issue"):
        by_title += bool(ask.refs)
        issue = read("get_issue", **ask.args)
        facts = [v for f in ask.facts(issue) for v in (f["one_of"] if isinstance(f, dict) else [f])]
        if ask.refs:
            (found,) = read("search_issues", query=f'project = {issue["key"].split("-")[0]} AND title = "{issue["title"]}"')
            assert any(str(v) not in {str(x) for x in found.values()} for v in facts), ask.say
        if "block" in ask.say or "waiting on" in ask.say:
            assert issue["key"] not in facts, ask.say
    assert by_title > 40


def test_projects_and_their_leads_are_what_a_question_about_leads_requires():
    for ask, read in _asks("list_projects", draws=30):
        projects = read("list_projects")
        facts = ask.facts(projects)
        if "lead" in ask.say:
            assert {p["lead"]["name"] for p in projects} <= {f for f in facts if isinstance(f, str)}, ask.say
        else:
            assert facts == [p["key"] for p in projects]


def test_a_sprint_report_question_asks_for_what_only_the_report_holds():
    """The sprint list (the look-up that finds a sprint by its name) shows a closed sprint's
    committed and completed points and its issues: a question answered by those alone would make
    `get_sprint_report` a call nobody needs."""
    checked = 0
    for ask, read in _asks("get_sprint_report", draws=40):
        report = read("get_sprint_report", **ask.args)
        (row,) = [s for s in read("list_sprints", project_id=report["project_id"], limit=100)
                  if s["sprint_id"] == report["sprint_id"]]
        masked = {k: ("\x00masked" if k in row else v) for k, v in report.items()}
        try:
            kept = ask.facts(masked)
        except (KeyError, TypeError):
            kept = []
        assert any(a == b for a, b in zip(ask.facts(report), kept)), ask.say
        checked += 1
    assert checked > 40


def test_where_a_sprints_leftovers_go_is_said_with_the_request():
    """Without a next sprint the unfinished issues go to the backlog: a request that held the
    destination back ('We're done with the current sprint; complete it.', then 'Unfinished issues go
    back to the backlog.') would have the assistant ask for what it may rightly leave to the default."""
    asks = [ask for ask, _ in _asks("complete_sprint", draws=60)]
    assert len(asks) > 20
    for ask in asks:
        assert ask.detail is None, ask.say
        assert ("backlog" in ask.say) == ("next_sprint_id" not in ask.args), ask.say


def test_what_a_sprint_report_or_velocity_tells_is_worked_out_from_the_lists_so_they_stand_in():
    """A sprint's points left are the points of its issues not yet done, listed by sprint; a velocity is
    the average of the completed points the sprint list shows. So a missing-function task that hides
    `get_sprint_report` or `get_velocity` hides those lists too (declared substitutes): an assistant
    that adds them up has done the job."""
    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("issue_tracker"), get_recipe("issue_tracker")
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    checked = 0
    for project in read("list_projects", limit=100):
        sprints = read("list_sprints", project_id=project["project_id"], limit=100)
        for sprint in (s for s in sprints if s["status"] == "active"):
            issues = read("list_issues", project_id=project["project_id"], sprint_id=sprint["sprint_id"], limit=100)
            left = sum(i["story_points"] or 0 for i in issues if i["status"] != "done")
            assert read("get_sprint_report", sprint_id=sprint["sprint_id"])["remaining_points"] == left
            checked += 1
        closed = [s for s in sprints if s["status"] == "closed"][-2:]
        if len(closed) == 2:
            velocity = read("get_velocity", project_id=project["project_id"], sprints=2)["average_completed_points"]
            assert velocity == sum(s["completed_points"] for s in closed) / 2
            checked += 1
    world.close()
    assert checked > 4
    assert {"list_issues", "search_issues"} <= recipe.substitutes_of("get_sprint_report")
    assert "list_sprints" in recipe.substitutes_of("get_velocity")


def test_a_status_request_says_move_once_and_sprint_dates_are_named_as_dates():
    """Findings: "Can you move X along the board? Move it to in progress." said "move" twice in one
    message; the terse "Planned Orion sprints and starts?" asked for start dates as "starts"."""
    import re

    moves = 0
    for ask, _ in _asks("transition_issue", draws=120):
        words = " ".join(filter(None, (ask.say, ask.detail)))
        if "along the board" in words:
            moves += 1
            assert re.sub(r"'[^']*'", "", words).lower().count("move") == 1, words  # a title may say it
    assert moves > 3
    planned = [ask for ask, _ in _asks("list_sprints", draws=20)]
    assert planned and all("start date" in ask.terse for ask in planned)


def test_a_priority_search_names_the_priorities_it_means():
    """Finding: "What urgent bugs does Orion still have open?" recorded the high and the highest
    bugs; "urgent" may as well be read as the highest priority alone."""
    asked = 0
    for ask, _ in _asks("search_issues", draws=150):
        if "priority >= high" in ask.args["query"]:
            asked += 1
            for text in (ask.say, ask.terse):
                assert "high" in text and "urgent" not in text, text
    assert asked > 10


def test_a_count_of_nothing_may_be_stated_in_words():
    """Finding: "What's the number of issues in review in Nova?" recorded `0`, and "Nothing is in
    review in Nova right now." failed. A count, points left or a velocity that is 0 is stated as
    well by 'none', 'no' or 'nothing'."""
    import copy

    from prove_env.facts import stated

    zeroed = {"get_project": lambda r: (r["issues_by_status"].__setitem__("in_review", 0),
                                        r.__setitem__("backlog_open_issues", 0)),
              "get_sprint_report": lambda r: (r.__setitem__("remaining_points", 0),
                                              [x.__setitem__("remaining_points", 0) for x in r["burndown"]]),
              "get_velocity": lambda r: r.__setitem__("average_completed_points", 0)}
    checked = 0
    for tool, zero in zeroed.items():
        for ask, read in _asks(tool, draws=20):
            result = copy.deepcopy(read(tool, **ask.args))
            zero(result)
            counts = [f for f in ask.facts(result) if not isinstance(f, str)]
            assert counts, ask.say
            for fact in counts:
                assert stated(fact, "There are none at all.") or stated(fact, "Nothing."), (ask.say, fact)
            checked += 1
    assert checked > 30


def test_a_new_member_is_added_to_the_project_looked_up_by_name():
    """Finding: "Add Lauren Martin to Orion, assign ORION-18." (the issue named by its key) passed
    the project's id to `add_project_member` with no look-up that gave it; an assistant that looks
    Orion up lost tool-name precision."""
    def kinds(refs):
        for ref in refs:
            while ref is not None:
                yield ref.kind, ref.key
                ref = ref.owner

    added = by_key = 0
    for ask, _ in _asks("assign_issue", draws=200):
        for name, args in ask.prior:
            if name == "add_project_member":
                added += 1
                by_key += not any(kind == "issue" for kind, _ in kinds(ask.refs))
                assert ("project", args["project_id"]) in set(kinds(ask.refs)), ask.say
    assert added > 10 and by_key > 2


def test_a_comment_is_posted_on_work_still_open():
    """Finding: "Blocked on the API change; will pick it up next week." was posted on ORION-7, an issue
    closed as a duplicate."""
    seen = 0
    for ask, read in _asks("add_comment", draws=60):
        issue = read("get_issue", issue_id=ask.args["issue_id"])
        assert issue["status"] != "done", (ask.say, issue["status"])
        seen += 1
    assert seen > 20


def test_another_label_is_asked_only_where_the_issue_has_one():
    """Finding: "The issue 'Add monitoring for React' in Nova Website needs another label." for an issue
    without labels."""
    bare = told = 0
    for ask, read in _asks("add_label", draws=80):
        labels = read("get_issue", issue_id=ask.args["issue_id"])["labels"]
        if "needs another label" in ask.say:
            assert labels, ask.say
            told += 1
        bare += "needs a label" in ask.say
    assert told and bare


def test_a_label_is_held_back_only_where_the_issue_has_others():
    """Finding: "One of the labels on the ticket 'Redesign the password reset email' in the Nova project
    is wrong; please remove it." for an issue whose one label the look-up shows: nothing to ask."""
    held = plain = 0
    for ask, read in _asks("remove_label", draws=80):
        labels = read("get_issue", issue_id=ask.args["issue_id"])["labels"]
        if ask.detail is not None:
            assert len(labels) > 1, (ask.say, labels)
            held += 1
        else:
            plain += 1
    assert held and plain


def test_who_filed_an_issue_is_asked_with_when_in_every_wording():
    """Finding: terse "Reporter and date of ATLAS-23?" recorded the creation day while the issue shows an
    update day as well: every wording asks when it was filed."""
    import re

    asked = 0
    for ask, read in _asks("get_issue", draws=120):
        facts = ask.facts(read("get_issue", issue_id=ask.args["issue_id"]))
        if any(isinstance(f, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", f) for f in facts):
            for words in (ask.say, ask.terse):  # which day: the one it was filed, never a bare "date"
                assert re.search(r"\b(when|created|creation|filed|opened|reported)\b", words), words
            asked += 1
    assert asked > 10


def test_a_reopen_gives_a_reason_that_fits_how_the_issue_was_closed():
    """Findings: "HERMES-7 is happening again; please reopen it." of a task, and "'Show usage charts on the
    search page' in Titan is happening again" of a story closed as won't do; and "How much of Apollo is
    waiting for review?" for a count of issues. A bug's fix failing is said only of a bug closed as done,
    a change of mind only of won't do, and a count is asked as "how many"."""
    import re

    seen = set()
    for ask, read in _asks("reopen_issue", draws=120):
        issue = read("get_issue", issue_id=ask.args["issue_id"])
        kind = issue["resolution"] if issue["resolution"] != "done" else issue["type"] == "bug"
        seen.add(kind)
        bug_words = bool(re.search(r"happening again|fix didn't hold|really fixed", ask.say))
        assert bug_words == (kind is True), (ask.say, issue["type"], issue["resolution"])
        changed = re.search(r"changed our mind|do it after all|back on the table|a duplicate after all|"
                            r"as a duplicate by mistake|a separate problem", ask.say)
        assert bool(changed) == (kind in ("won't do", "duplicate")), (ask.say, issue["resolution"])
    assert {True, False, "won't do"} <= seen, seen
    for ask, _ in _asks("get_project", draws=60):
        assert "How much of" not in ask.say, ask.say


def test_a_status_is_said_once_and_the_board_named_once():
    """Findings: "I'm preparing the stand-up. What is to do in Nova Website?" (the to-do column read as
    what to do), and "Can you move 'Billing page loses unsaved changes' on the Hermes board along the
    board?" (the board said twice, once as where the issue is). The to-do column is said as a marking,
    and a request says "board" at most once."""
    import re

    to_do = 0
    # the to-do listings, served by the listing or (since it needs the project's look-up) by the search
    listings = [*_asks("list_issues", draws=150), *_asks("search_issues", draws=150)]
    for ask, _ in listings:
        if ask.args.get("status") != "to_do" and "status = to_do" not in ask.args.get("query", ""):
            continue
        for text in (ask.say, ask.terse):
            assert not re.search(r"\b(is|are|currently|Issues) to do\b", text), text
        to_do += "marked to do" in ask.say
    assert to_do >= 3, to_do
    boarded = 0
    for ask, _ in _asks("transition_issue", draws=150):
        if not ask.say.startswith("Can you move"):
            continue
        boards = re.findall(r"\bboard\b", ask.say)
        boarded += "along the board" not in ask.say and bool(boards)
        assert len(boards) <= 1, ask.say
    assert boarded, "no request names an issue by its board"


def test_a_sprint_named_without_quotes_does_not_name_its_project_again():
    """Finding: "Can you set up Hermes Sprint 18 as the next sprint in Hermes?" (every sprint name starts
    with its project's short name, so "in Hermes" only repeats it). A request that says the name bare
    says the project through it alone; a quoted name ("a new sprint in Hermes named 'Hermes Sprint 18'")
    is the name being given, and the project beside it stays."""
    bare = 0
    for ask, _ in _asks("create_sprint", draws=120):
        name = ask.args["name"]
        short = name.rsplit(" Sprint ", 1)[0]
        assert name.startswith(short + " Sprint "), name
        if f"'{name}'" in ask.say or name not in ask.say:
            continue
        bare += 1
        assert short not in ask.say.replace(name, ""), ask.say
    assert bare >= 3, bare


def test_the_to_do_column_and_a_terse_opener_read_plainly():
    """Findings: "The story 'Localize the search page into Spanish' in our Hermes project back to to do."
    (the doubled "to"), and "From George Miller. Comments on the ticket ...?" (an opener that reads as
    whose comments are asked for). The to-do column is named as a column wherever an issue goes to it,
    and a terse opener says who writes in a sentence of its own."""
    import re
    import types

    from servers.issue_tracker.synth import _intro

    to_do = 0
    for ask, _ in _asks("transition_issue", draws=200):
        if ask.args["status"] != "to_do":
            continue
        to_do += 1
        for text in (ask.say, ask.terse, ask.detail or ""):
            assert not re.search(r"\bto to do\b", text), text
    assert to_do >= 3, to_do
    openers = {_intro(types.SimpleNamespace(entity={"asker": f"Ada Park {i}", "short": "Nova"}, key=f"PRJ-{i:04d}"))[1]
               for i in range(200)}
    assert len(openers) >= 6, openers
    for opener in openers:
        assert not re.match(r"(From|Me:|User:) ", opener), opener


def test_a_history_question_asks_what_only_the_history_holds():
    """Finding: "Who reported X, and when?" (get_issue, whose result shows `resolved_at`), then "On
    what day did X get finished?" asked the history for the day the issue reached done, which the
    earlier result already gave: answering from it lost the history call's coverage. The history is
    asked what only it holds, the day work first started, never the day the issue was resolved."""
    checked = 0
    for ask, read in _asks("get_issue_history"):
        issue = read("get_issue", issue_id=ask.args["issue_id"])
        history = read("get_issue_history", issue_id=ask.args["issue_id"])
        started = next(h["changed_at"][:10] for h in history if h["field"] == "status" and h["to"] == "in_progress")
        assert list(ask.facts(history)) == [started], (ask.say, history)
        for text in (ask.say, ask.terse):
            assert "done" not in text and "finished" not in text, text
        resolved = (issue["resolved_at"] or "")[:10]
        if resolved and resolved != started:
            checked += 1
            assert resolved not in ask.facts(history), ask.say
    assert checked >= 3, checked


def test_a_project_shown_by_an_earlier_result_is_not_looked_up_again():
    """"The bug 'Notification center fails with a 500 error' in Nova shouldn't be tagged frontend",
    then "Where did the burndown of Nova Sprint 10 stand on February 14?": the issue's search already
    showed Nova's project id, yet the gold looked the project up by name before listing its sprints, so
    an agent that took the id from the search lost coverage. An issue found by title settles its
    project, and the asker's own look-up introduces them without a look-up of their project."""
    assert _projects_looked_up_again(99, 30) > 0, "no sample took a project id from an earlier result"


def _projects_looked_up_again(seed: int, n: int) -> int:
    """Synthesize `n` tasks and check, replaying each gold, that no project an earlier result showed is
    looked up by name again; the number of calls that took a project id from an earlier result."""
    import asyncio
    import json

    from prove_env.episode import replay
    from prove_env.synthesis.pipeline import synthesize

    result = synthesize(["issue_tracker"], n, seed=seed, workers=1)
    followed = 0
    for task in result.tasks("train") + result.tasks("test"):
        shown: set[str] = set()
        for record in asyncio.run(replay(task)).records:
            out = json.loads(record.output) if record.ok else None
            rows = out if isinstance(out, list) else [out]
            if record.name == "list_projects" and record.arguments.get("name"):
                assert not {r["project_id"] for r in rows} & shown, (task.id, task.user_turns)
            elif record.arguments.get("project_id") in shown:
                followed += 1
            shown |= {r["project_id"] for r in rows if isinstance(r, dict) and isinstance(r.get("project_id"), str)}
    return followed


def test_the_lead_of_a_project_is_not_asked_who_leads_it():
    """"It's David Harding. Atlas: lead and backlog size?" from the lead of Atlas: a user asked who
    leads their own project. The overview of a project the asker leads asks only for its backlog."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("issue_tracker"), get_recipe("issue_tracker")
    (goal,) = [g for g in recipe.goals if g.tool == "get_project"]
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("lead asks")
    bundles = recipe.sample(read, world.now, rng)
    leads = [b for b in bundles if b["me"]["user_id"] == b["project"]["lead"]["user_id"]]
    others = [b for b in bundles if b["me"]["user_id"] != b["project"]["lead"]["user_id"]]
    leads_asked = backlogs_asked = 0
    for _ in range(60):
        lead, other = goal.build(rng.choice(leads), rng), goal.build(rng.choice(others), rng)
        assert "lead" not in f"{lead.say} {lead.terse}", lead.say
        backlogs_asked += "backlog" in lead.say
        leads_asked += "lead" in other.say
    world.close()
    assert leads_asked and backlogs_asked


def test_comments_read_out_are_told_by_their_words_and_never_asked_of_the_asker_who_wrote_them():
    """Findings: "Could you read me the comments on 'Notification center fails with a 500 error' in Nova
    Website?" checked only who wrote them, so an answer quoting the one comment failed; and "I missed
    the thread on ATLAS-30. Who chimed in?" from Richard Gibbs, who had commented on it himself. A
    request for the comments themselves takes each one told by its author or its words; a request for
    who commented is asked as who else did where the asker is among them, and never where the asker
    alone commented (nothing left to tell)."""
    import random

    from prove_env.facts import stated
    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("issue_tracker"), get_recipe("issue_tracker")
    (goal,) = [g for g in recipe.goals if g.tool == "list_comments"]
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("comments")
    bundles = recipe.sample(read, world.now, rng)
    worded = whom = besides = 0
    for _ in range(300):
        b = rng.choice(bundles)
        ask = goal.build(b, rng)
        if ask is None:
            continue
        comments = read("list_comments", issue_id=ask.args["issue_id"], limit=100)
        authors = {c["author"] for c in comments}
        me = b["me"]["name"]
        assert authors - {me}, (ask.say, authors)  # someone other than the asker has commented
        facts = ask.facts(comments)
        if any(words in ask.say for words in ("read me", "discussion")):
            # the comments themselves: quoting them answers as well as naming who wrote them
            assert not ask.terse.startswith("Who"), (ask.say, ask.terse)
            quoted = " ".join(f'"{c["body"]}"' for c in comments)
            assert all(stated(f, quoted) for f in facts), (ask.say, facts)
            worded += 1
        else:
            assert ask.terse.startswith("Who"), (ask.say, ask.terse)  # the terse wording asks the same
            whom += 1
            if me in authors:
                besides += 1
                assert "else" in ask.say or "besides me" in ask.say.lower(), (ask.say, authors)
            assert "missed" not in ask.say or me not in authors, ask.say
    world.close()
    assert worded >= 5 and whom >= 5 and besides, (worded, whom, besides)


def test_a_change_whose_result_shows_the_project_names_its_issue_by_title():
    """Finding: "Reopen NOVA-20.", then "Count of Nova issues in review?": the reopened issue's result
    showed Nova's project id, yet the gold looked Nova up by name before `get_project`, so an
    assistant that took the id from the result lost coverage (0.97 of 1.3). A change whose result
    shows the issue in full names it by title (its search settles the project), or by key only where
    the request looks the project up itself (a new member joining it)."""
    def kinds(refs):
        for ref in refs:
            while ref is not None:
                yield ref.kind
                ref = ref.owner

    shows = ("update_issue", "assign_issue", "unassign_issue", "transition_issue", "close_issue", "reopen_issue",
             "add_label", "remove_label", "move_issue_to_backlog")
    seen = {}
    for tool in shows:
        for ask, _ in _asks(tool, draws=60):
            seen[tool] = seen.get(tool, 0) + 1
            if ask.args["issue_id"].startswith("ISS-"):
                continue
            assert "project" in set(kinds(ask.refs)), (tool, ask.say)
    assert all(seen.get(tool, 0) > 10 for tool in shows), seen


def test_a_search_by_priority_says_high_or_highest_in_every_wording():
    """Finding: "Which high-priority bugs are still open in Hermes?" recorded the high and the highest
    bugs, and a search for `priority = high`, one reading of "high-priority", missed the highest one
    (success false). Every wording of that search says "high or highest"."""
    asked = 0
    for ask, _ in _asks("search_issues", draws=150):
        if "priority >= high" in ask.args["query"]:
            asked += 1
            for text in (ask.say, ask.terse):
                assert "high or highest" in text and "high-priority" not in text, text
    assert asked > 10


def test_one_members_issues_are_searched_by_their_name():
    """Finding: "List every ticket in Apollo Mobile App assigned to me, whatever its status." looked the
    asker up with `find_users` before `list_issues(assignee_id=...)`, where one `search_issues` with
    `assignee = "Paige Burgess"` finds them (coverage 0.6, total 1.05 of 1.3). One member's issues are
    asked of the search, by the name the request says, and never as "mine" (the asker's name is theirs
    only through their own look-up)."""
    for ask, _ in _asks("list_issues", draws=150):
        assert "assignee_id" not in ask.args, ask.say
    searched = 0
    for ask, read in _asks("search_issues", draws=200):
        if "assignee = \"" not in ask.args["query"]:
            continue
        searched += 1
        name = ask.args["query"].split('assignee = "')[1].rstrip('"')
        assert name in ask.say and name in ask.terse and "to me" not in ask.say, ask.say
        rows = read("search_issues", query=ask.args["query"])
        assert rows and all(r["assignee"] == name for r in rows), (ask.args, rows)
    assert searched >= 5, searched


def test_a_request_never_looks_up_two_members_one_by_one():
    """Finding: "Could you file a bug in Atlas Billing? I'm the reporter. ... Assign it to Theresa
    Lowery." looked up the reporter and the assignee with two `find_users`, where one
    `list_project_members` of Atlas shows both (coverage 0.4, total 0.95 of 1.3). A new issue is assigned
    to the asker alone, and no gold turn takes two people's ids from two look-ups of one project's members."""
    import json

    from prove_env.synthesis.pipeline import synthesize

    for ask, _ in _asks("create_issue", draws=120):
        if "assignee_id" in ask.args:
            assert ask.args["assignee_id"] == ask.args["reporter_id"] and "to me" in ask.say + ask.terse, ask.say
    result = synthesize(["issue_tracker"], 60, seed=117, workers=1)
    toolkit = get_toolkit("issue_tracker")
    for task in result.tasks("train") + result.tasks("test"):
        world = worlds.create(toolkit, task.seed)
        members = {}
        for row in json.loads(toolkit(world).run("list_projects", {"limit": 100})):
            for m in json.loads(toolkit(world).run("list_project_members", {"project_id": row["project_id"]})):
                members.setdefault(m["user_id"], set()).add(row["project_id"])
        world.close()
        for turn in task.gold:
            found = {c.id: c.arguments["name"] for c in turn if c.name == "find_users"}
            for call in turn:
                people = [d for d in call.depends_on if d in found]
                ids = [v for k, v in call.arguments.items() if k.endswith(("reporter_id", "assignee_id", "author_id"))]
                project = call.arguments.get("project_id")
                shared = [i for i in ids if project and project in members.get(i, ())]
                assert len(people) < 2 or len(set(shared)) < 2, (task.id, call.name, call.arguments)


def test_a_projects_counts_are_read_off_the_project_alone():
    """Finding (redraw of seed 117): "Points remaining in sprint 'Apollo Sprint 24'?", then "Count of
    Apollo issues in review?" kept no call for the count: the sprint report carries Apollo's project id
    beside the sprint's own `issues_by_status`, whose one issue in review was taken as the project's
    count, so `get_project` left the gold and an assistant that called it scored 1.26 of 1.3. A
    project's counts are read off the project's record alone, and every task asking one calls
    `get_project`."""
    from prove_env.synthesis.pipeline import synthesize

    checked = 0
    for ask, read in _asks("get_project", draws=60):
        project = read("get_project", project_id=ask.args["project_id"])
        for sprint in read("list_sprints", project_id=ask.args["project_id"]):
            if sprint["status"] == "planned":
                continue
            report = read("get_sprint_report", sprint_id=sprint["sprint_id"])
            assert report["project_id"] == project["project_id"]
            with pytest.raises(KeyError):
                ask.facts(report)
            checked += 1
    assert checked > 20, checked
    result = synthesize(["issue_tracker"], 20, seed=117, workers=1)
    asked = 0
    for task in result.tasks("train") + result.tasks("test"):
        if "get_project" in task.metadata.get("goals", ()) and task.metadata.get("missing_tool") != "get_project":
            asked += 1
            assert any(c.name == "get_project" for c in task.gold_calls), (task.id, task.user_turns)
    assert asked


def test_a_projects_issues_are_listed_by_one_search():
    """Finding (seed 119): "Which issues in Titan Infrastructure carry the 'backend' label?" was served by
    `list_projects` then `list_issues(label=...)`, where one `search_issues` with `project = "Titan
    Infrastructure" AND label = backend` shows the same rows (total 0.5 of 1.3). A project's issues,
    by status, label, type or backlog, are asked of the search, whose rows match the listing's and
    settle the project for a later request; no gold lists them with `list_issues`."""
    from prove_env.facts import one_of
    from prove_env.synthesis.pipeline import synthesize
    from prove_env.synthesis.recipe import get_recipe

    assert not [g for g in get_recipe("issue_tracker").goals if g.tool == "list_issues"]
    checked = 0
    for ask, read in _asks("search_issues", draws=150):
        (kind, pid), = ask.settles  # every search settles its project (seed 121: the one by assignee too)
        query = ask.args["query"]
        if "!=" in query or "assignee" in query:  # not a listing by status, label, type or backlog
            continue
        checked += 1
        conditions = dict(c.split(" = ") for c in ask.args["query"].split(" AND "))
        filters = {"status": conditions.get("status"), "type": conditions.get("type"),
                   "label": conditions.get("label"), "backlog_only": conditions.get("sprint") == "none"}
        listed = read("list_issues", project_id=pid, limit=100, **{k: v for k, v in filters.items() if v})
        assert kind == "project" and read("search_issues", **ask.args) == listed, ask.args
        # every row asked for is checked (seed 123: the sixth of six accessibility issues went unchecked)
        # each told by its title or its key (seed 127: "Which ones?" answered by the keys failed)
        assert 3 <= len(listed) <= 8 and ask.facts(listed) == [one_of(i["title"], i["key"]) for i in listed]
    assert checked > 20, checked
    result = synthesize(["issue_tracker"], 20, seed=119, workers=1)
    for task in result.tasks("train") + result.tasks("test"):
        assert all(c.name != "list_issues" for c in task.gold_calls), (task.id, task.user_turns)


def test_comments_read_out_check_the_askers_own_comment_by_its_words():
    """Finding (seed 119): "Comments on 'Profile page fails with a 500 error' in Nova Website?" from
    Damon Brown, who wrote one of its three comments: that comment's fact, one_of(his name, its words),
    was dropped as the user's own name, so two of the three comments asked for were checked. The
    asker's own comment is told by its words."""
    import random

    from prove_env.synthesis.compose import _not_own
    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("issue_tracker"), get_recipe("issue_tracker")
    goal = next(g for g in recipe.goals if g.tool == "list_comments")
    own = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"own comments {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for _ in range(400):
            b = rng.choice(bundles)
            ask = goal.build(b, rng)
            if ask is None or not ask.terse.startswith("Comments on"):  # the comments read out
                continue
            rows = read("list_comments", **ask.args)
            me = b["me"]["name"]
            own += any(c["author"] == me for c in rows)
            assert len(_not_own(ask.facts, {me})(rows)) == len(rows), (ask.say, me, rows)
        world.close()
    assert own >= 3, own


def test_a_search_or_an_issue_in_full_settles_its_project():
    """Finding (seed 121): "List every ticket on the Apollo board assigned to Jeremy Morse, whatever its
    status.", then "Can you file a new low-priority bug in our Apollo project": the search's rows showed
    Apollo's project id, yet the gold looked Apollo up by name before `create_issue`, so an assistant
    that took the id from the rows scored 1.05 of 1.3 (coverage 0.5). The same after "I need the
    assignee and the estimate of ATLAS-9." (`get_issue`, whose result shows the project too). Every
    search of a project's issues and every read of one issue in full settles the project."""
    for tool in ("search_issues", "get_issue"):
        checked = 0
        for ask, read in _asks(tool, draws=80):
            rows = read(tool, **ask.args)
            pids = {r["project_id"] for r in (rows if isinstance(rows, list) else [rows])}
            assert len(pids) == 1 and ("project", pids.pop()) in ask.settles, (ask.say, ask.settles)
            checked += 1
        assert checked > 40, (tool, checked)
    _projects_looked_up_again(121, 20)


def test_a_members_email_or_title_is_never_asked_with_their_project_member_list_shown():
    """Finding (seed 121): "What's Audrey Turner's email address?" with `find_users` hidden, while
    `list_project_members` was shown and lists every member with their email and job title (Audrey on
    Orion, the project the same message named): an assistant that read her email off that list scored
    1.175 of 1.3, and the task taught that the email could not be found. Everyone the recipe asks about
    is a member, so the member list stands in for `find_users` and is hidden with it."""
    from prove_env.synthesis.pipeline import synthesize
    from prove_env.synthesis.recipe import get_recipe

    recipe = get_recipe("issue_tracker")
    assert "list_project_members" in recipe.substitutes_of("find_users")
    checked = 0
    for ask, read in _asks("find_users", draws=40):
        (user,) = read("find_users", **ask.args)
        listed = [m for p in read("list_projects", limit=100)
                  for m in read("list_project_members", project_id=p["project_id"]) if m["user_id"] == user["user_id"]]
        assert listed and ask.facts([listed[0]]) == ask.facts([user]), ask.say
        checked += 1
    assert checked > 40, checked
    hid = 0
    # samples until one hides find_users (about one in 140 tasks); 193 hides it since the draws of seed 133's
    # fix (duplicates of bugs alone) reshuffled those of 121 to 139
    for seed in (*range(121, 141, 2), 193):
        result = synthesize(["issue_tracker"], 20, seed=seed, workers=1)
        for task in result.tasks("train") + result.tasks("test"):
            if task.metadata.get("missing_tool") == "find_users":
                hid += 1
                assert task.tools is not None
                assert "list_project_members" not in {t["function"]["name"] for t in task.tools}, (task.id,
                                                                                                   task.user_turns)
        if hid:
            break
    assert hid, "no sample hid find_users"


def test_a_re_estimate_says_story_points_once():
    """Finding (seed 121): "we re-estimated 'Settings page has a typo in the header' in our Orion project;
    please update its story points. Make it 8 story points." said "story points" twice in one message.
    The held-back value of a re-estimate is said as the number alone."""
    asked = 0
    for ask, _ in _asks("update_issue", draws=150):
        if "story_points" not in ask.args or ask.detail is None:
            continue
        asked += 1
        assert str(ask.args["story_points"]) in ask.detail, ask.detail
        assert f"{ask.say} {ask.detail}".count("story point") <= 1, (ask.say, ask.detail)
    assert asked >= 10, asked


def test_a_projects_record_is_asked_what_no_one_search_of_its_issues_shows():
    """Finding (seed 123): "How many Hermes issues are in review at the moment?" was served by `list_projects`
    then `get_project`, where one `search_issues` with `project = Hermes AND status = in_review` shows the
    one issue (total 0.86 of 1.3); the backlog's size alone is as well one search (`sprint = none AND
    status != done`). A question to the project's record asks, beside the backlog's size, for what only
    the project list and the record show: who leads it, or its description (told by its words)."""
    from prove_env.facts import stated

    checked = described = 0
    for ask, read in _asks("get_project", draws=60):
        record = read("get_project", **ask.args)
        key = record["key"]
        searched = read("search_issues", query=f"project = {record['name']} AND sprint = none AND status != done",
                        limit=100)
        assert len(searched) == record["backlog_open_issues"]  # why a count alone is a search
        assert len(read("search_issues", query=f"project = {key} AND status = in_review", limit=100)) \
            == record["issues_by_status"]["in_review"]
        facts = ask.facts(record)
        others = {record["lead"]["name"], record["description"]}
        assert any(isinstance(f, str) and f in others for f in facts), (ask.say, facts)
        for text in (ask.say, ask.terse):
            assert "review" not in text, text
        if any(f == record["description"] for f in facts):
            described += 1
            assert "description" in ask.say and "description" in ask.terse, ask.say
            assert stated(record["description"], f'It says "{record["description"]}"')
        checked += 1
    assert checked > 40 and described > 10, (checked, described)


def test_points_left_in_the_running_sprint_are_asked_of_the_current_sprint_by_no_name():
    """Finding (seed 123): "How many story points are left in the sprint Orion Sprint 18?" was served by
    `list_projects`, `list_sprints` and `get_sprint_report`, where one `search_issues` with `sprint =
    "Orion Sprint 18" AND status != done` lists its open issues, whose points add up to the 10 left
    (total 0.83 of 1.3). The running sprint is asked about as the current one, which no search names;
    and only the points left are asked ("how many points are done and how many remain?" checked one)."""
    checked = 0
    for ask, read in _asks("get_sprint_report", draws=80):
        report = read("get_sprint_report", **ask.args)
        if report["status"] != "active":
            continue
        checked += 1
        rows = read("search_issues", query=f'sprint = "{report["name"]}" AND status != done', limit=100)
        assert sum(r["story_points"] or 0 for r in rows) == report["remaining_points"]
        for text in (ask.say, ask.terse):
            assert report["name"] not in text and ("current" in text or "active" in text), text
            assert "done" not in text, text
    assert checked > 20, checked


def test_a_teams_members_asked_for_are_all_checked():
    """Finding (seed 123): "Which people are members of Orion?" checked six of its ten members, so an answer
    naming six passed as well as one naming all. Every member is a fact."""
    checked = 0
    for ask, read in _asks("list_project_members", draws=30):
        members = read("list_project_members", **ask.args)
        assert ask.facts(members) == [m["name"] for m in members], ask.say
        checked += len(members) > 6
    assert checked, "no team of more than six was asked about"


def test_a_sprint_is_never_called_a_sprint_before_its_name():
    """Finding (seed 123): "How many story points are left in the sprint Orion Sprint 18?" (every sprint's
    name says "Sprint"; "Please start the sprint Hermes Sprint 21." likewise). A sprint is said by its
    name, quoted or not, or as the current one."""
    import re

    said = 0
    for tool in ("get_sprint_report", "complete_sprint", "start_sprint", "add_issue_to_sprint"):
        for ask, _ in _asks(tool, draws=60):
            for text in (ask.say, ask.detail or "", ask.terse):
                said += " Sprint " in text
                assert not re.search(r"\bsprint '?\w+ Sprint \d", text), text
    assert said > 40, said


def test_nobody_is_asked_who_they_are():
    """Finding (redraw of seed 123): "Who is working on APOLLO-13, and how many story points is it?" from
    Justin Richardson, its assignee: his own name, the fact asked, was dropped as the user's, so the
    assignee went unchecked; a member may as well be asked their own email. Who works on an issue or
    filed it, and whose email or job title is asked, is never the asker."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("issue_tracker"), get_recipe("issue_tracker")
    goals = [g for g in recipe.goals if g.tool in ("get_issue", "find_users")]
    asked = {"get_issue": 0, "find_users": 0}
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"own {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for _ in range(400):
            b, goal = rng.choice(bundles), rng.choice(goals)
            ask = goal.build(b, rng)
            if ask is None:
                continue
            me = b["me"]["name"]
            result = read(goal.tool, **ask.args)
            facts = ask.facts(result)
            if goal.tool == "find_users":
                assert ask.args["name"] != me, ask.say
            else:
                assert me not in facts, (ask.say, me, facts)
            asked[goal.tool] += any(isinstance(f, str) and " " in f for f in facts)
        world.close()
    assert min(asked.values()) > 20, asked


def test_an_introduction_does_not_say_what_an_aside_says():
    """Finding (redraw of seed 123): "Quick one from Carlos Davis on the Atlas team. Quick one for you." (an
    introduction of the recipe's, then the voice's aside). No introduction says "quick one"."""
    from prove_env.synthesis.voice import _ASIDES
    from servers.issue_tracker.synth import _INTRO, _INTRO_TERSE

    asides = [a.lower() for register in _ASIDES.values() for a in register]
    assert any("quick one" in a for a in asides)
    for intro in _INTRO + _INTRO_TERSE:
        assert "quick one" not in intro.lower(), intro


def _issue_drafts(seed: int, label: str, n: int = 600):
    """Drafts the composer writes from one world's bundles, no perturbation (their gold before the gates)."""
    import random

    from prove_env.synthesis.compose import Composer
    from prove_env.synthesis.config import SynthConfig
    from prove_env.synthesis.graph import dependency_graph
    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("issue_tracker"), get_recipe("issue_tracker")
    world = worlds.create(toolkit, seed)
    try:
        bundles = recipe.sample(Reader(toolkit, world), world.now, random.Random(f"{label} {seed}"))
        config = SynthConfig(missing_function_rate=0.0, irrelevant_rate=0.0, hidden_rate=0.0, distractor_rate=0.0)
        composer = Composer(recipe, dependency_graph("issue_tracker"), bundles, config, random.Random(label))
        return [d for d in (composer.draft() for _ in range(n)) if d is not None]
    finally:
        world.close()


def test_planned_sprints_are_asked_of_the_unfiltered_sprint_list(play):
    """Finding (seed 125): "What's coming up sprint-wise in Orion? Names and start dates, please." kept
    `list_sprints` with `status = planned`, so an assistant that listed the project's sprints unfiltered
    (the planned ones show with their status) lost coverage: 1.05 and 1.13 of 1.3 (twice in ten tasks).
    The gold lists them unfiltered, which a filtered call carries too; the facts are the planned ones."""
    from prove_env.task import Task

    checked = 0
    for ask, read in _asks("list_sprints", draws=20):
        assert set(ask.args) == {"project_id"}, ask.args
        every = read("list_sprints", **ask.args)
        planned = read("list_sprints", project_id=ask.args["project_id"], status="planned")
        assert ask.facts(every) == [x for s in planned for x in (s["name"], s["start_date"])]
        if checked:
            continue
        checked += 1
        task = Task(id="planned", server="issue_tracker", seed=0, user_turns=[ask.say],
                    gold=[[{"id": "g1", "name": "list_sprints", "arguments": ask.args}]], facts=[ask.facts(every)])
        answer = "Planned: " + "; ".join(f"{s['name']} starts {s['start_date']}" for s in planned) + "."
        maximum = None
        for args in (ask.args, {**ask.args, "status": "planned"}):
            info = play(task, [_call("list_sprints", **args), answer])
            assert info["success"], info
            maximum = maximum or info["reward_breakdown"]["total"]
            assert info["reward_breakdown"]["total"] == maximum, (args, info["reward_breakdown"])
    assert checked


def test_a_new_member_handed_an_issue_found_by_title_needs_no_lookup_of_the_project():
    """Finding (seed 125): "Add Steven Raymond to Nova, assign the ticket 'Export dialog breaks on small
    screens' in the Nova project." looked Nova up by name before the search, whose row shows Nova's id:
    an assistant that took the id from the search scored 1.1 of 1.3. And the words said Nova twice and
    not to whom. The project is looked up only when the issue goes by its key; the issue is said without
    its place, given to "them"."""
    asked = by_title = 0
    for draft in _issue_drafts(0, "new member"):
        calls = [c for turn in draft.gold for c in turn]
        by_id = {c.id: c for c in calls}
        for call in calls:
            if call.name != "add_project_member" or "role" in call.arguments:
                continue  # a plain addition ("add them as QA") names no issue
            assign = next((c for c in calls if c.name == "assign_issue" and call.id in c.depends_on), None)
            if assign is None:
                continue
            asked += 1
            looked_up = any(by_id[d].name == "list_projects" for d in call.depends_on)
            titled = assign.arguments["issue_id"].startswith("ISS-")
            by_title += titled
            # by its key, the project is looked up unless an earlier result showed it
            assert not (titled and looked_up), (draft.user_turns, [(c.name, c.arguments) for c in calls])
    assert asked > 5 and by_title, (asked, by_title)
    for ask, _ in _asks("assign_issue", draws=200):
        if not ask.prior:
            continue
        short = ask.prior and ask.say.split(" team" if " team" in ask.say else " project")[0].split()[-1]
        for text in (ask.say, ask.terse):
            assert text.count(short) == 1, text
        assert "assign them" in ask.terse, ask.terse


def test_the_projects_leads_are_not_asked_by_a_lead():
    """Finding (seed 125): "Which projects do we track here, and who leads each?" from Robert Jackson, who
    leads Titan: a fact that is the asker's own name is dropped, so Titan's lead went unchecked. A lead
    asks for the projects' keys."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("issue_tracker"), get_recipe("issue_tracker")
    (goal,) = [g for g in recipe.goals if g.tool == "list_projects"]
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("leads asked")
    bundles = recipe.sample(read, world.now, rng)
    leads = {p["lead"]["user_id"] for p in read("list_projects", limit=100)}
    by_lead = [b for b in bundles if b["me"]["user_id"] in leads]
    others = [b for b in bundles if b["me"]["user_id"] not in leads]
    assert by_lead and others
    asked = 0
    for _ in range(60):
        ask = goal.build(rng.choice(by_lead), rng)
        assert "lead" not in f"{ask.say} {ask.terse}", ask.say
        asked += "lead" in goal.build(rng.choice(others), rng).say
    world.close()
    assert asked


def test_a_sprint_that_takes_the_leftovers_and_starts_is_named_once():
    """Finding (seed 125): "Complete the active sprint in Atlas (rest to Atlas Sprint 26), start Atlas
    Sprint 26." The sprint that takes the leftovers and is started is named once, then "it"."""
    said = 0
    for ask, _ in _asks("start_sprint", draws=120):
        if not ask.prior or "next_sprint_id" not in ask.prior[0][1]:
            continue
        said += 1
        name = ask.mentions[0]
        for text in (ask.say, ask.terse):
            assert text.count(name) == 1, text
    assert said > 5, said


def _bundle_asks(tool: str, *, seed: int = 0, draws: int = 200):
    """Requests the recipe writes for `tool`, each with its bundle and the reader of its world."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("issue_tracker"), get_recipe("issue_tracker")
    world = worlds.create(toolkit, seed)
    try:
        read = Reader(toolkit, world)
        rng = random.Random(f"bundle asks {tool} {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == tool):
            for _ in range(draws):
                b = rng.choice(bundles)
                ask = goal.build(b, rng)
                if ask is not None:
                    yield ask, b, read
    finally:
        world.close()


def test_issues_listed_may_be_told_by_their_keys(play):
    """Finding (seed 127): "Are there bugs in our Nova project nobody has started on? Which ones?" recorded
    the eight titles alone, so an answer naming them by their keys ("NOVA-7, NOVA-10, ...") failed. Each
    row listed is told by its title or its key."""
    from prove_env.task import Task

    played = 0
    for ask, _, read in _bundle_asks("search_issues", draws=60):
        rows = read("search_issues", **ask.args)
        facts = ask.facts(rows)
        task = Task(id="keys", server="issue_tracker", seed=0, user_turns=[ask.say],
                    gold=[[{"id": "g1", "name": "search_issues", "arguments": ask.args}]], facts=[facts])
        for answer in ("These: " + ", ".join(r["key"] for r in rows) + ".",
                       "These: " + "; ".join(r["title"] for r in rows) + "."):
            info = play(task, [_call("search_issues", **ask.args), answer])
            assert info["success"], (ask.say, answer, info["reward_breakdown"])
        played += 1
        if played >= 6:
            break
    assert played == 6


def test_a_link_asked_for_leaves_the_same_link_whichever_issue_the_call_starts_from(play):
    """Finding (seed 127): "Please link APOLLO-12 and 'Document how we set up GitHub Actions' in Apollo.
    They're just related." An assistant that linked the second to the first as related (the words give
    the pair no order) failed the state check: the tracker kept a related link in the order of its call.
    A related link has no direction now, and one that blocks is the same link from either side."""
    from prove_env.task import Task

    inverse = {"blocks": "is_blocked_by", "is_blocked_by": "blocks", "relates_to": "relates_to"}
    played = set()
    for ask, _, _ in _bundle_asks("link_issues"):
        relation = ask.args["relation"]
        if relation in played:
            continue
        played.add(relation)
        task = Task(id="link", server="issue_tracker", seed=0, user_turns=[f"{ask.say} {ask.detail or ''}".strip()],
                    gold=[[{"id": "g1", "name": "link_issues", "arguments": ask.args}]], facts=[[]])
        other = _call("link_issues", issue_id=ask.args["other_issue_id"], relation=inverse[relation],
                      other_issue_id=ask.args["issue_id"])
        info = play(task, [other, "Linked."])
        assert info["success"] and info["reward_breakdown"]["state"] == 1, (ask.say, info["reward_breakdown"])
    assert played == set(inverse)


def test_a_related_link_is_the_same_link_whichever_issue_the_call_names_first():
    """A related link has no direction: linking A to B and B to A as related leave the same world, with
    the same history on both issues, over several worlds and pairs."""
    import json

    from prove_env.toolkit import ToolError
    from prove_env.registry import get_toolkit
    from prove_env.world import worlds

    import random

    toolkit = get_toolkit("issue_tracker")
    checked = 0
    for seed in range(6):
        rng = random.Random(f"related {seed}")
        for _ in range(3):
            digests = []
            for order in (0, 1):
                world = worlds.create(toolkit, seed)
                try:
                    tools = toolkit(world)
                    if order == 0:
                        issues = json.loads(tools.run("search_issues", {"query": "status != done", "limit": 60}))
                        a, b = rng.sample(issues, 2)
                    first, second = (a, b) if order == 0 else (b, a)
                    try:
                        tools.run("link_issues", {"issue_id": first["issue_id"], "relation": "relates_to",
                                                  "other_issue_id": second["issue_id"]})
                    except ToolError:
                        break  # the pair is linked already
                    digests.append(world.digest())
                    shown = json.loads(tools.run("get_issue", {"issue_id": second["issue_id"]}))
                    assert "relates_to" in {link["relation"] for link in shown["links"]}
                finally:
                    world.close()
            if len(digests) == 2:
                checked += 1
                assert digests[0] == digests[1], f"seed {seed}: the order of the call changed the world"
    assert checked >= 12, checked


def test_a_comment_and_a_closing_fit_the_issue_and_who_asks():
    """Finding (seed 127): James Murphy posted "Blocked on the API change; will pick it up next week." on
    Heather Perez's issue, promising her work; "I can reproduce this" could go on a task to document
    PostgreSQL; "Please close 'Support SSO on the invoice PDF' in Nova, we won't fix it." said of a story;
    "Could you comment on 'X' saying "..."" asked with no question mark. A comment that claims the work is
    the assignee's own, one that speaks of a fault a bug's, "won't fix" a bug's, and a comment asked for
    with its words at the end is a request."""
    bug_words = ("reproduce", "Customer reported", "VPN", "Fixed")
    own_words = ("pick it up", "Fixed")
    bodies = 0
    for ask, b, read in _bundle_asks("add_comment", draws=300):
        issue = read("get_issue", issue_id=ask.args["issue_id"])
        body = ask.args["body"]
        bodies += 1
        if any(w in body for w in bug_words):
            assert issue["type"] == "bug", (body, issue["title"], issue["type"])
        if any(w in body for w in own_words):
            assert issue["assignee_id"] == b["me"]["user_id"], (body, issue["assignee"])
        assert not ask.say.startswith("Could you comment"), ask.say
    assert bodies > 50
    closed = 0
    for ask, _, read in _bundle_asks("close_issue", draws=300):
        if "won't fix" in ask.say:
            closed += 1
            assert read("get_issue", issue_id=ask.args["issue_id"])["type"] == "bug", ask.say
    assert closed


def test_a_lead_shown_by_the_project_list_is_not_looked_up_again():
    """Finding (seed 129): "Good morning, Jennifer Burns from Apollo here. ... Can you file a new
    highest-priority bug in Apollo" kept `find_users("Jennifer Burns")` beside `list_projects("Apollo")`,
    whose row shows her, Apollo's lead, with her id: an assistant that took the reporter's id from it
    scored 1.1 of 1.3. The project list settles its lead; no gold looks up a lead whose project's row a
    gold call of that turn or before already returned."""
    import json

    from prove_env.synthesis.pipeline import synthesize

    toolkit = get_toolkit("issue_tracker")
    leads_seen = 0
    result = synthesize(["issue_tracker"], 40, seed=129, workers=1)
    for task in result.tasks("train") + result.tasks("test"):
        world = worlds.create(toolkit, task.seed)
        try:
            tools = toolkit(world)
            shown: set[str] = set()
            for turn in task.gold:
                for call in turn:
                    if call.name == "list_projects":
                        shown |= {p["lead"]["name"] for p in json.loads(tools.run("list_projects", call.arguments))}
                for call in turn:
                    used = any(call.id in c.depends_on for c in turn)
                    if call.name == "find_users" and used:
                        assert call.arguments["name"] not in shown, (task.id, call.arguments, task.user_turns)
                leads_seen += bool(shown)
        finally:
            world.close()
    assert leads_seen


def test_a_closed_sprint_asked_about_is_found_by_one_search_of_its_issues(play):
    """Finding (seed 129): "For the retro: how many points were still open in 'Nova Sprint 5' on January
    12?" looked Nova up, listed its sprints, then read the report: one search of the sprint's issues
    (`sprint = "Nova Sprint 5"`) shows its id on every row, and an assistant that took it from there
    scored 0.7 of 1.3. A closed sprint's burndown is asked of a sprint that held issues, found by that
    search, and the two calls reach the full reward."""
    from prove_env.task import Task

    played = 0
    for ask, _, read in _bundle_asks("get_sprint_report", draws=80):
        if " on " not in ask.terse:  # the active sprint's points left are asked of today
            continue
        assert [name for name, _ in ask.prior] == ["search_issues"], ask.say
        rows = read("search_issues", **ask.prior[0][1])
        assert rows and {r["sprint_id"] for r in rows} == {ask.args["sprint_id"]}, ask.say
        if played < 3 and isinstance(ask.facts(read("get_sprint_report", **ask.args))[0], int):
            report = read("get_sprint_report", **ask.args)
            facts = ask.facts(report)
            task = Task(id="retro", server="issue_tracker", seed=0, user_turns=[ask.say],
                        gold=[[{"id": "g1", "name": "search_issues", "arguments": ask.prior[0][1]},
                               {"id": "g2", "name": "get_sprint_report", "arguments": ask.args, "depends_on": ["g1"]}]],
                        facts=[facts])
            info = play(task, [_call("search_issues", **ask.prior[0][1]), _call("get_sprint_report", **ask.args),
                               f"{facts[0]} points were still open then."])
            assert info["success"] and info["reward_breakdown"]["coverage"] == 1, (ask.say, info["reward_breakdown"])
        played += 1
    assert played > 5, played


def test_the_two_sprints_of_a_wrap_up_are_quoted_alike():
    """Finding (seed 131): "Wrap up 'Atlas Sprint 17', move the leftovers into Atlas Sprint 18 and then
    start it." quoted one sprint's name of the two. The sprint started is quoted when the one wrapped up
    is."""
    seen = 0
    for ask, b, _ in _bundle_asks("start_sprint", draws=300):
        if b["active"] is None or f"'{b['active']['name']}'" not in ask.say:
            continue
        started = next(s for s in b["planned"] if s["sprint_id"] == ask.args["sprint_id"])
        assert f"'{started['name']}'" in ask.say, ask.say
        seen += 1
    assert seen > 3, seen


def test_a_duplicate_and_its_original_are_two_bug_reports_of_one_fault():
    """Findings: "We already track 'Redesign the profile page' ... under ORION-36. Close it as a duplicate."
    named as the original "Order history ignores the dark mode setting" (seed 131); "Close the ticket 'Add
    an audit trail to the settings page' ... as duplicate of ORION-14" named the bug "Settings page loses
    unsaved changes" (seed 133): the same screen, but a feature request does not duplicate a bug report,
    nor ('Localize the settings page into Spanish') another feature of the same screen. Only a bug is
    closed as a duplicate, of a bug of the same project about the same screen or dependency."""
    from servers.issue_tracker.seed import DEPENDENCIES, SCREENS

    def about(title):
        return {x for x in SCREENS + DEPENDENCIES if x.lower() in title.lower()}

    duplicates = 0
    for ask, _, read in _bundle_asks("close_issue", draws=300):
        if ask.args.get("resolution") != "duplicate":
            continue
        duplicates += 1
        issue = read("get_issue", issue_id=ask.args["issue_id"])
        original = read("get_issue", issue_id=ask.args["duplicate_of_issue_id"])
        assert about(issue["title"]) & about(original["title"]), (issue["title"], original["title"])
        assert issue["type"] == original["type"] == "bug", (issue["title"], original["title"])
        assert issue["project_id"] == original["project_id"], (issue["key"], original["key"])
    assert duplicates > 3, duplicates


def test_a_status_history_runs_step_by_step_to_the_status():
    """Finding (seed 133, 0003): an issue in review had only 'to_do -> in_progress' in its history, and a
    done one 'to_do -> in_progress' then 'in_review -> done'. Every seeded issue's status history runs from
    to_do to its status, each change starting where the one before ended; the invariants say when not."""
    toolkit = get_toolkit("issue_tracker")
    for seed in range(6):
        world = worlds.create(toolkit, seed)
        assert world.violations() == [], seed
        steps = world.connection.execute(
            "SELECT c.id, i.key FROM history c JOIN issues i ON i.id = c.issue_id WHERE c.field = 'status' "
            "AND c.old_value = 'in_progress' AND c.new_value = 'in_review'").fetchall()
        assert steps, seed
        world.connection.execute("DELETE FROM history WHERE id = ?", (steps[0][0],))
        assert any(steps[0][1] in p and "history" in p for p in world.violations()), seed
        world.close()


def test_a_blocked_link_names_the_blocker_without_a_second_it():
    """Finding (seed 135, 0011): "'Checkout page shows duplicate entries' in our Titan project can't move
    until 'Write integration tests for GitHub Actions' is done; mark it as blocked by it." One "it" for
    each issue: the blocker is "that one"."""
    seen = 0
    for ask, _, _ in _bundle_asks("link_issues", draws=300):
        if ask.args.get("relation") != "is_blocked_by" or "can't move until" not in ask.say:
            continue
        seen += 1
        assert "blocked by it" not in ask.say, ask.say
    assert seen, seen


def test_a_re_estimate_tells_the_new_points_not_the_current_ones():
    """Finding (seed 141, 0004): "The estimate on 'Add an audit trail to the profile page' in Orion is off.
    Can you fix it? It's 2 points now." reads as the estimate it has (13), wrong, with no new one: two
    readings. The points given say what the estimate should be."""
    seen = 0
    for ask, _, _ in _bundle_asks("update_issue", draws=400):
        if "story_points" not in ask.args or ask.detail is None:
            continue
        seen += 1
        assert "points now" not in ask.detail, ask.detail
        assert str(ask.args["story_points"]) in ask.detail, ask.detail
    assert seen > 3, seen


def test_a_design_mock_is_mentioned_only_on_a_story():
    """Finding (seed 141, 0004): "The design mock is attached in Figma." was posted on the bug 'Password
    reset email fails with a 500 error': a design mock belongs to a feature, so only a story gets it."""
    kinds = set()
    for ask, _, read in _bundle_asks("add_comment", draws=600):
        if "design mock" not in ask.args["body"]:
            continue
        kind = read("get_issue", issue_id=ask.args["issue_id"])["type"]
        kinds.add(kind)
    assert kinds == {"story"}, kinds


def test_nobody_is_said_to_work_on_a_finished_issue():
    """Finding (seed 141, 0009): "Who is working on HERMES-6, and how many story points is it?" of an issue
    that is done. A finished issue's assignee and estimate are asked in the past tense."""
    done = 0
    for seed in (0, 1):
        for ask, _, read in _bundle_asks("get_issue", seed=seed, draws=600):
            issue = read("get_issue", issue_id=ask.args["issue_id"])
            if issue["status"] != "done" or "estimate" not in ask.say and "story points" not in ask.say:
                continue
            done += 1
            assert "is working on" not in ask.say and "who has" not in ask.say, ask.say
            assert "how many story points is it" not in ask.say, ask.say
    assert done > 3, done


def test_an_introduction_does_not_name_the_project_its_request_names():
    """Finding (seed 143): "Bethany Griffin here, from the Nova project. Can you assign the issue 'Add
    filters to the admin panel' in our Nova project to me and start it?" and "Mark Avila on Orion here.
    'A' blocks 'B' on the Orion board." said the project twice: every request of the asker's names its
    project itself. The introduction says who writes, by name alone."""
    import re
    import types

    from servers.issue_tracker.synth import _intro

    for i in range(200):
        ref = types.SimpleNamespace(entity={"asker": f"Ada Park {i}", "short": "Nova"}, key=f"PRJ-{i:04d}")
        for opener in _intro(ref):
            assert f"Ada Park {i}" in opener and "Nova" not in opener, opener
    introduced = 0
    for draft in _issue_drafts(143, "intro", n=300):
        people = {c.arguments["name"] for turn in draft.gold for c in turn if c.name == "find_users"}
        for turn in draft.user_turns:
            opener = turn.split(". ")[0].split("; ")[0]
            # an introduction: a short sentence of its own that names the writer and asks nothing
            if (any(person in opener for person in people) and len(opener) < min(len(turn), 60)
                    and not re.search(r"\b(is|are|add|can|could|please|assign|give|put)\b|\?", opener, re.I)):
                introduced += 1
                for short in ("Apollo", "Atlas", "Hermes", "Orion", "Nova", "Titan"):
                    assert short not in opener, turn
    assert introduced > 5, introduced


def test_who_else_commented_says_who_the_asker_is():
    """Finding (seed 145, 0001): "Who else has commented on 'Redesign the notification center' on the
    Hermes board?" from an asker the conversation never named: "else" (besides whom?) could not be
    resolved. A request that leaves the asker out names them in its own words, and the asker is no fact."""
    asked = 0
    for seed in (0, 1):
        for ask, b, _ in _bundle_asks("list_comments", seed=seed, draws=300):
            for words in (ask.say, ask.terse):
                if "else" in words or "besides me" in words.lower():
                    asked += 1
                    assert b["me"]["name"] in words, words
            if "else" in ask.say or "Besides me" in ask.say:
                comments = b["comments"][ask.args["issue_id"]] if ask.args["issue_id"] in b["comments"] else None
                if comments:
                    assert b["me"]["name"] not in ask.facts(comments), ask.say
    assert asked > 3, asked


def test_a_velocity_request_says_it_asks_for_the_average():
    """Finding (seed 155, 0009): "Apollo velocity, last 3 sprints?" recorded the average alone (16.0), so an
    answer giving each sprint's completed points (8, 5 and 35), a reading the words allow, failed. Every
    wording asks for the average."""
    asked = 0
    for ask, _ in _asks("get_velocity", draws=120):
        asked += 1
        for words in (ask.say, ask.terse):
            assert "average" in words.lower(), words
    assert asked > 10, asked


def test_a_newcomer_joins_in_a_role_that_fits_their_job():
    """Finding (seed 155, 0002, 0007, 0008): a Backend Engineer and two Product Managers were each added
    "as a designer". A designer joins as a designer, a QA engineer as QA, another engineer as a developer;
    a manager's role is not named (the default stands)."""
    titles = set()
    for ask, b, _ in _bundle_asks("add_project_member", draws=400):
        person = next(u for u in b["joining"] if u["user_id"] == ask.args["user_id"])
        title = person["title"]
        titles.add(title)
        if "Manager" in title:
            assert "role" not in ask.args, (title, ask.args)
            assert not any(w in ask.say for w in ("developer", "designer", "QA")), (title, ask.say)
        else:
            expected = "designer" if "Designer" in title else "qa" if "QA" in title else "developer"
            assert ask.args["role"] == expected, (title, ask.args)
    assert len(titles) > 3 and any("Manager" in t for t in titles), titles
