"""The issue tracker's tools: people, projects and members, issues and their workflow, links,
comments, labels and history, and sprints with their reports.

Business rules, in one place:
- Workflow: to_do -> in_progress -> in_review -> done. Work can go back one step (in_progress ->
  to_do, in_review -> in_progress). An issue needs an assignee before it goes in progress, and
  while it is in progress or in review it cannot be unassigned.
- Closing: 'done' only from in_review (transition_issue); close_issue closes from any open status
  as "won't do", or as "duplicate", which needs the original issue (same project, not itself a
  duplicate) and records a 'duplicates' link. An issue blocked by an issue that is not done cannot
  be closed either way, and an open issue cannot be linked as the blocker of a closed one.
- Reopening: only closed issues, closed at most 30 days ago; a reopened issue goes back to to_do,
  loses its resolution, and leaves a closed sprint for the backlog (and that sprint's completed
  points). Reopening a blocker leaves the issues it blocked closed.
- Links are recorded in the history of both issues, when made and when removed.
- Assignees, reporters and comment authors must be members of the issue's project; the project
  lead cannot be removed, nor a member who still has open issues assigned.
- Closed issues cannot be edited, relabelled or moved between sprints: reopen them first.
- Sprints: planned -> active -> closed, at most one active sprint per project, and only a sprint
  holding issues can start. Completing a sprint moves its unfinished issues to the backlog or to a
  planned sprint of the same project, as asked. A sprint's scope is the story points it holds (work
  added after the start counts); a closed sprint keeps the scope it had when it closed, and its
  completed points are those of the done issues it holds, in the velocity and the report alike.
- Setting something that is already so (a label it has, an assignee removed twice, an issue put into
  the sprint or backlog it is in) succeeds and says nothing changed.
- Story points are one of 0, 1, 2, 3, 5, 8, 13, 21.
- An issue is named by its id ('ISS-0042') or by its key ('APOLLO-12', in any case) wherever a tool
  takes one; an unknown key says which keys its project has, or that no project has that key.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from sqlalchemy import and_, func, or_, select

from prove_env.toolkit import Date, Detail, Entity, Id, Limit, Toolkit, ToolError, tool

from .models import Base, Change, Comment, Issue, Label, Link, Member, Project, Sprint, User
from .seed import seed

IssueType = Literal["bug", "story", "task"]
Priority = Literal["lowest", "low", "medium", "high", "highest"]
Status = Literal["to_do", "in_progress", "in_review", "done"]
Relation = Literal["blocks", "is_blocked_by", "duplicates", "relates_to"]

PRIORITIES = ("lowest", "low", "medium", "high", "highest")
STATUSES = ("to_do", "in_progress", "in_review", "done")
TYPES = ("bug", "story", "task")
RESOLUTIONS = ("done", "won't do", "duplicate")
POINTS = (0, 1, 2, 3, 5, 8, 13, 21)
# The workflow: from each open status, the statuses a transition may reach.
TRANSITIONS = {"to_do": ("in_progress",), "in_progress": ("to_do", "in_review"), "in_review": ("in_progress", "done")}
REOPEN_DAYS = 30
MAX_TITLE = 120
MAX_COMMENT = 5000
MAX_SPRINT_DAYS = 28
LABEL = re.compile(r"^[a-z0-9][a-z0-9-]{0,29}$")


class IssueTracker(Toolkit):
    """A team's issue tracker, like Jira or GitHub issues: projects and their members; issues (bugs,
    stories, tasks) with priority, story points, labels, assignee, comments and history, moving
    through the workflow to_do -> in_progress -> in_review -> done; links between issues (blocks,
    duplicates, relates to); sprints that are planned, started and completed, with velocity and
    burndown. Issues are found by title or with a small query language; every tool that takes an issue
    takes its key, such as 'APOLLO-12', as well as its id."""

    name = "issue_tracker"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("user", User, "USR", lookup="find_users"),
        Entity("project", Project, "PRJ", lookup="list_projects"),
        Entity("issue", Issue, "ISS", lookup="list_issues"),
        Entity("sprint", Sprint, "SPR", lookup="list_sprints"),
    )

    # -- people and projects -----------------------------------------------------------------------

    @tool(read_only=True)
    def find_users(self, name: str | None = None, email: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find people by part of their name or by email; with neither, list everyone. Ordered by id.

        Args:
            name: part of the person's full name, case-insensitive, such as 'Ada Park' or 'park'.
            email: the person's email address, case-insensitive, such as 'ada.park@northwind.dev'.
        """
        where, params = [], []
        if name and name.strip():
            where.append("instr(lower(name), ?) > 0")
            params.append(name.strip().lower())
        if email and email.strip():
            where.append("lower(email) = ?")
            params.append(email.strip().lower())
        rows = self.rows(f"SELECT id, name, email, title FROM users WHERE {' AND '.join(where) or '1'} "
                         "ORDER BY id LIMIT ?", *params, limit)
        return [{"user_id": r[0], "name": r[1], "email": r[2], "title": r[3]} for r in rows]

    @tool(read_only=True)
    def list_projects(self, name: str | None = None, limit: Limit = 20) -> list[dict]:
        """List projects, or those whose name or key contains a text (case-insensitive). Ordered by id.

        Args:
            name: part of the project's name or key, such as 'Apollo' or 'atlas'.
        """
        where, params = "1", []
        if name and name.strip():
            where, params = "instr(lower(p.name), ?) > 0 OR instr(lower(p.key), ?) > 0", [name.strip().lower()] * 2
        rows = self.rows("SELECT p.id, p.key, p.name, u.id, u.name FROM projects p JOIN users u ON u.id = p.lead_id "
                         f"WHERE {where} ORDER BY p.id LIMIT ?", *params, limit)
        return [{"project_id": r[0], "key": r[1], "name": r[2], "lead": {"user_id": r[3], "name": r[4]}} for r in rows]

    @tool(read_only=True, produces=("user", "sprint"))
    def get_project(self, project_id: Id("project")) -> dict:
        """Return a project: key, name, description, lead, member count, open issues per status, the
        backlog size and the active sprint (if any)."""
        project = self.get(Project, project_id)
        counts = dict(self.rows("SELECT status, count(*) FROM issues WHERE project_id = ? GROUP BY status", project.id))
        backlog, members = self.rows(
            "SELECT (SELECT count(*) FROM issues WHERE project_id = ?1 AND sprint_id IS NULL AND status != 'done'), "
            "(SELECT count(*) FROM members WHERE project_id = ?1)", project.id)[0]
        active = self.rows("SELECT id, name FROM sprints WHERE project_id = ? AND status = 'active'", project.id)
        return {**self._project(project), "description": project.description, "members": members,
                "issues_by_status": {s: counts.get(s, 0) for s in STATUSES}, "backlog_open_issues": backlog,
                "active_sprint": {"sprint_id": active[0][0], "name": active[0][1]} if active else None}

    @tool(read_only=True, produces=("user",))
    def list_project_members(self, project_id: Id("project")) -> list[dict]:
        """List a project's members with their role and how many open issues each has assigned, ordered by name."""
        project = self.get(Project, project_id)
        rows = self.rows("SELECT u.id, u.name, u.email, u.title, m.role, (SELECT count(*) FROM issues i WHERE "
                         "i.project_id = m.project_id AND i.assignee_id = u.id AND i.status != 'done') FROM members m "
                         "JOIN users u ON u.id = m.user_id WHERE m.project_id = ? ORDER BY u.name, u.id", project.id)
        return [{"user_id": r[0], "name": r[1], "email": r[2], "title": r[3], "role": r[4], "open_issues": r[5]}
                for r in rows]

    @tool(idempotent=False)
    def add_project_member(self, project_id: Id("project"), user_id: Id("user"),
                           role: Literal["developer", "designer", "qa"] = "developer") -> dict:
        """Add a person to a project's team, so that issues can be assigned to them.

        Args:
            role: their role on the team: 'developer' (default), 'designer' or 'qa'.
        """
        project = self.get(Project, project_id)
        user = self.get(User, user_id)
        if self._member(project.id, user.id) is not None:
            raise ToolError(f"{user.name} ({user.id}) is already a member of {project.name}")
        self.db.add(Member(project_id=project.id, user_id=user.id, role=role, joined_at=self.now))
        return {"project_id": project.id, **_user(user), "role": role}

    @tool(destructive=True)
    def remove_project_member(self, project_id: Id("project"), user_id: Id("user")) -> dict:
        """Remove a person from a project's team. The project lead cannot be removed, and open issues
        assigned to the person must be reassigned or unassigned first."""
        project = self.get(Project, project_id)
        user = self.get(User, user_id)
        member = self._member(project.id, user.id)
        if member is None:
            raise ToolError(f"{user.name} ({user.id}) is not a member of {project.name}")
        if project.lead_id == user.id:
            raise ToolError(f"{user.name} leads {project.name} and cannot be removed from it")
        held = self.db.scalars(select(Issue.key).where(Issue.project_id == project.id, Issue.assignee_id == user.id,
                                                      Issue.status != "done").order_by(Issue.id)).all()
        if held:
            raise ToolError(f"{user.name} still has open issues assigned in {project.name} ({', '.join(held)}); "
                            "reassign or unassign them first")
        self.db.delete(member)
        return {"project_id": project.id, "user_id": user.id, "removed": True}

    # -- issues: finding and reading -------------------------------------------------------------

    @tool(read_only=True)
    def list_issues(self, project_id: Id("project"), title: str | None = None, status: Status | None = None,
                    type: IssueType | None = None, assignee_id: Id("user") | None = None,
                    sprint_id: Id("sprint") | None = None, backlog_only: bool = False, label: str | None = None,
                    limit: Limit = 20) -> list[dict]:
        """List a project's issues, ordered by key number, filtered by any of the criteria given.

        Args:
            title: part of the issue's title, case-insensitive, such as 'login screen'.
            status: only issues in this status: 'to_do', 'in_progress', 'in_review' or 'done'.
            type: only 'bug', 'story' or 'task' issues.
            assignee_id: only issues assigned to this person.
            sprint_id: only issues in this sprint.
            backlog_only: only issues in no sprint (the backlog).
            label: only issues carrying this label, such as 'frontend'.
        """
        project = self.get(Project, project_id)
        where, params = ["i.project_id = ?"], [project.id]
        if title and title.strip():
            where.append("instr(lower(i.title), ?) > 0")
            params.append(title.strip().lower())
        if status is not None:
            where.append("i.status = ?")
            params.append(status)
        if type is not None:
            where.append("i.type = ?")
            params.append(type)
        if assignee_id is not None:
            where.append("i.assignee_id = ?")
            params.append(self.get(User, assignee_id).id)
        if sprint_id is not None:
            where.append("i.sprint_id = ?")
            params.append(self.get(Sprint, sprint_id).id)
        if backlog_only:
            where.append("i.sprint_id IS NULL")
        if label and label.strip():
            where.append("EXISTS (SELECT 1 FROM labels l WHERE l.issue_id = i.id AND l.name = ?)")
            params.append(label.strip().lower())
        return self._select(where, params, limit)

    @tool(read_only=True, produces=("issue",))
    def search_issues(self, query: str, limit: Limit = 20) -> list[dict]:
        """Search issues in every project with a small query language: conditions `field operator
        value` joined by AND, values quoted when they hold spaces. Ordered by key number.

        Fields: project (key or name), key, title, type, priority, status, resolution, assignee,
        reporter (a person's name, or none), label, points, sprint (a sprint name, or none for the
        backlog), created, updated, resolved (dates as YYYY-MM-DD). Operators: = and != for every
        field, ~ (contains) for text fields, < <= > >= for points, priority and dates.
        Example: project = APOLLO AND status != done AND priority >= high AND assignee = "Ada Park"

        Args:
            query: the conditions, such as 'status = in_progress AND label = backend'.
        """
        where, params = [], []
        for clause in _split_and(query):
            sql, values = self._condition(clause)
            where.append(f"({sql})")
            params += values
        return self._select(where, params, limit)

    @tool(read_only=True)
    def get_issue(self, issue_id: Id("issue")) -> dict:
        """Return one issue in full: description, reporter, assignee, sprint, labels, dates, its links
        to other issues (blocks, is blocked by, duplicates, relates to) and its number of comments.

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
        """
        issue = self.get(Issue, issue_id)
        row = self.rows("SELECT u.name, s.name, s.status, (SELECT count(*) FROM comments c WHERE c.issue_id = i.id) "
                        "FROM issues i JOIN users u ON u.id = i.reporter_id LEFT JOIN sprints s ON s.id = i.sprint_id "
                        "WHERE i.id = ?", issue.id)[0]
        return {**self._summary(issue), "description": issue.description,
                "reporter": {"user_id": issue.reporter_id, "name": row[0]},
                "sprint": None if issue.sprint_id is None else {"sprint_id": issue.sprint_id, "name": row[1],
                                                                "status": row[2]},
                "created_at": issue.created_at, "updated_at": issue.updated_at, "resolved_at": issue.resolved_at,
                "links": self._links(issue), "comments": row[3]}

    @tool(read_only=True)
    def list_comments(self, issue_id: Id("issue"), limit: Limit = 20) -> list[dict]:
        """List an issue's comments, oldest first.

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
        """
        issue = self.get(Issue, issue_id)
        rows = self.rows("SELECT c.id, c.author_id, u.name, c.body, c.created_at FROM comments c JOIN users u ON "
                         "u.id = c.author_id WHERE c.issue_id = ? ORDER BY c.created_at, c.id LIMIT ?", issue.id, limit)
        return [{"comment_id": r[0], "issue_id": issue.id, "author_id": r[1], "author": r[2], "body": r[3],
                 "created_at": dt.datetime.fromisoformat(r[4])} for r in rows]

    @tool(read_only=True)
    def get_issue_history(self, issue_id: Id("issue"), limit: Limit = 50) -> list[dict]:
        """List the changes made to an issue (status, assignee, priority, sprint, points, ...), oldest first.

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
        """
        issue = self.get(Issue, issue_id)
        rows = self.rows("SELECT field, old_value, new_value, changed_at FROM history WHERE issue_id = ? "
                         "ORDER BY changed_at, id LIMIT ?", issue.id, limit)
        return [{"issue_id": issue.id, "field": r[0], "from": r[1], "to": r[2],
                 "changed_at": dt.datetime.fromisoformat(r[3])} for r in rows]

    # -- issues: writing ---------------------------------------------------------------------------

    @tool(produces=("issue",), details=(Detail("issues", "description"),))
    def create_issue(self, project_id: Id("project"), title: str, type: IssueType, reporter_id: Id("user"),
                     priority: Priority = "medium", description: str | None = None,
                     assignee_id: Id("user") | None = None, story_points: int | None = None,
                     labels: list[str] | None = None) -> dict:
        """Create an issue in a project's backlog, in status to_do, with the next key of the project.

        Args:
            title: a short summary, 1 to 120 characters, such as 'Login screen crashes on rotation'; no
                other open issue of the project may have the same title.
            type: 'bug', 'story' or 'task'.
            reporter_id: the person reporting it, a member of the project.
            priority: 'lowest', 'low', 'medium' (default), 'high' or 'highest'.
            description: optional details, such as steps to reproduce.
            assignee_id: optional assignee, a member of the project.
            story_points: optional estimate: 0, 1, 2, 3, 5, 8, 13 or 21.
            labels: optional labels, lowercase letters, digits and dashes, such as ['frontend', 'ui'].
        """
        project = self.get(Project, project_id)
        reporter = self._require_member(project, self.get(User, reporter_id), "report issues")
        assignee = None
        if assignee_id is not None:
            assignee = self._require_member(project, self.get(User, assignee_id), "be assigned issues")
        title = self._title(project.id, title)
        _check_points(story_points)
        names = sorted({_label(name) for name in labels or []})
        number = project.next_number
        project.next_number += 1
        issue = Issue(id=self.new_id("ISS"), project_id=project.id, key=f"{project.key}-{number}", title=title,
                      description=(description or "").strip() or None, type=type, priority=priority, status="to_do",
                      resolution=None, story_points=story_points, reporter_id=reporter.id,
                      assignee_id=assignee.id if assignee else None, sprint_id=None, created_at=self.now,
                      updated_at=self.now, resolved_at=None)
        self.db.add(issue)
        for name in names:
            self.db.add(Label(issue_id=issue.id, name=name))
        self.db.flush()
        return self._summary(issue)

    @tool(idempotent=True)
    def update_issue(self, issue_id: Id("issue"), title: str | None = None, type: IssueType | None = None,
                     priority: Priority | None = None, story_points: int | None = None,
                     description: str | None = None) -> dict:
        """Edit an open issue's title, type, priority, story points or description (only those given).

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
            title: the new title, 1 to 120 characters, unique among the project's open issues.
            type: the new type: 'bug', 'story' or 'task'.
            priority: the new priority: 'lowest', 'low', 'medium', 'high' or 'highest'.
            story_points: the new estimate: 0, 1, 2, 3, 5, 8, 13 or 21.
            description: the new description.
        """
        issue = self._open(self.get(Issue, issue_id), "edited")
        if all(v is None for v in (title, type, priority, story_points, description)):
            raise ToolError("nothing to change: give at least one of title, type, priority, story_points, description")
        if title is not None:
            self._set(issue, "title", self._title(issue.project_id, title, but=issue.id))
        if type is not None:
            self._set(issue, "type", type)
        if priority is not None:
            self._set(issue, "priority", priority)
        if story_points is not None:
            _check_points(story_points)
            self._set(issue, "story_points", story_points)
        if description is not None:
            self._set(issue, "description", description.strip() or None)
        return self._summary(issue)

    @tool(idempotent=True, sets=("issue.assigned",))
    def assign_issue(self, issue_id: Id("issue"), assignee_id: Id("user")) -> dict:
        """Assign an open issue to a member of its project (replacing any current assignee).

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
        """
        issue = self._open(self.get(Issue, issue_id), "assigned")
        project = self.db.get(Project, issue.project_id)
        user = self._require_member(project, self.get(User, assignee_id), "be assigned issues")
        self._set(issue, "assignee", user.id, attr="assignee_id")
        return self._summary(issue)

    @tool(idempotent=True)
    def unassign_issue(self, issue_id: Id("issue")) -> dict:
        """Remove an open issue's assignee. Issues in progress or in review keep theirs: move them back to
        to_do first, or assign someone else. An issue with no assignee stays so (changed is false).

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
        """
        issue = self._open(self.get(Issue, issue_id), "unassigned")
        if issue.assignee_id is None:
            return {**self._summary(issue), "changed": False}
        if issue.status in ("in_progress", "in_review"):
            raise ToolError(f"{issue.key} is {issue.status} and needs an assignee; move it back to to_do first, "
                            "or assign it to someone else")
        self._set(issue, "assignee", None, attr="assignee_id")
        return {**self._summary(issue), "changed": True}

    @tool(idempotent=False, requires=("issue.assigned",), sets=("issue.status",))
    def transition_issue(self, issue_id: Id("issue"), status: Status) -> dict:
        """Move an issue along the workflow: to_do -> in_progress -> in_review -> done, or back one step
        (in_progress -> to_do, in_review -> in_progress). Going in progress needs an assignee; done is
        reached from in_review only, and not while an issue that blocks it is still open. Closed issues
        are reopened with reopen_issue; close_issue closes as won't do or duplicate from any status.

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
            status: the status to move to: 'to_do', 'in_progress', 'in_review' or 'done'.
        """
        issue = self.get(Issue, issue_id)
        if issue.status == "done":
            raise ToolError(f"{issue.key} is closed ({issue.resolution}); reopen it with reopen_issue first")
        if status == issue.status:
            raise ToolError(f"{issue.key} is already {status}")
        allowed = TRANSITIONS[issue.status]
        if status not in allowed:
            hint = ("; move it to in_review first, or close it as won't do or duplicate with close_issue"
                    if status == "done" else "")
            raise ToolError(f"{issue.key} cannot go from {issue.status} to {status}: from {issue.status} it can go to "
                            f"{' or '.join(allowed)}{hint}")
        if status == "in_progress" and issue.assignee_id is None:
            raise ToolError(f"{issue.key} has no assignee; assign it to a project member before starting work")
        if status == "done":
            self._check_blockers(issue)
            self._resolve(issue, "done")
        self._set(issue, "status", status)
        return self._summary(issue)

    @tool(idempotent=False, sets=("issue.status",))
    def close_issue(self, issue_id: Id("issue"), resolution: Literal["won't do", "duplicate"],
                    duplicate_of_issue_id: Id("issue") | None = None) -> dict:
        """Close an open issue without finishing it: as "won't do", or as "duplicate" of an original issue
        of the same project (recorded as a 'duplicates' link). Not while an issue that blocks it is open.
        Finished work is closed by moving it to done with transition_issue.

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
            resolution: "won't do" or "duplicate".
            duplicate_of_issue_id: the original issue, required for "duplicate" and only for it, by id such as
                'ISS-0043' or by key such as 'APOLLO-13'.
        """
        issue = self.get(Issue, issue_id)
        if issue.status == "done":
            raise ToolError(f"{issue.key} is already closed ({issue.resolution})")
        original = None
        if resolution == "duplicate":
            if duplicate_of_issue_id is None:
                raise ToolError(f"closing {issue.key} as a duplicate needs the original: give duplicate_of_issue_id")
            original = self.get(Issue, duplicate_of_issue_id)
            if original.id == issue.id:
                raise ToolError(f"{issue.key} cannot be a duplicate of itself")
            if original.project_id != issue.project_id:
                raise ToolError(f"{original.key} is in another project; a duplicate's original must be in the same "
                                "project")
            if original.resolution == "duplicate":
                raise ToolError(f"{original.key} is itself closed as a duplicate; point to its original instead")
        elif duplicate_of_issue_id is not None:
            raise ToolError("duplicate_of_issue_id is only for the resolution 'duplicate'")
        self._check_blockers(issue)
        self._resolve(issue, resolution)
        self._set(issue, "status", "done")
        if original is not None:
            link = self._link_between(issue.id, original.id)
            if link is None:
                link = Link(id=self.new_id("LNK"), source_id=issue.id, target_id=original.id, kind="duplicates",
                            created_at=self.now)
                self.db.add(link)
            else:
                self._record_link(link, issue, original, removed=True)
                link.source_id, link.target_id, link.kind = issue.id, original.id, "duplicates"
            self._record_link(link, issue, original)
        self.db.flush()
        return {**self._summary(issue), "duplicate_of": None if original is None else
                {"issue_id": original.id, "key": original.key, "title": original.title}}

    @tool(idempotent=False, sets=("issue.status",))
    def reopen_issue(self, issue_id: Id("issue")) -> dict:
        """Reopen a closed issue, closed at most 30 days ago: it goes back to to_do without a resolution,
        to the backlog if its sprint is over (no longer counting among that sprint's completed points),
        and unassigned if its assignee has left the project. Issues it blocks stay closed. Older issues
        stay closed: create a new issue instead and link it with relates_to.

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
        """
        issue = self.get(Issue, issue_id)
        if issue.status != "done":
            raise ToolError(f"{issue.key} is {issue.status}, not closed; only closed issues can be reopened")
        if issue.resolved_at is not None and issue.resolved_at < self.now - dt.timedelta(days=REOPEN_DAYS):
            raise ToolError(f"{issue.key} was closed on {issue.resolved_at.date().isoformat()}, more than {REOPEN_DAYS} "
                            "days ago; create a new issue and link it to this one with relates_to instead")
        self._set(issue, "resolution", None)
        issue.resolved_at = None
        self._set(issue, "status", "to_do")
        sprint = self.db.get(Sprint, issue.sprint_id) if issue.sprint_id is not None else None
        if sprint is not None and sprint.status == "closed":
            sprint.completed_points = (sprint.completed_points or 0) - (issue.story_points or 0)
            self._set(issue, "sprint", None, attr="sprint_id")
        if issue.assignee_id is not None and self._member(issue.project_id, issue.assignee_id) is None:
            self._set(issue, "assignee", None, attr="assignee_id")
        return self._summary(issue)

    @tool(idempotent=False)
    def add_comment(self, issue_id: Id("issue"), author_id: Id("user"), body: str) -> dict:
        """Comment on an issue, as a member of its project.

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
            author_id: who writes the comment, a member of the issue's project.
            body: the comment, 1 to 5000 characters.
        """
        issue = self.get(Issue, issue_id)
        author = self._require_member(self.db.get(Project, issue.project_id), self.get(User, author_id), "comment")
        body = body.strip()
        if not 1 <= len(body) <= MAX_COMMENT:
            raise ToolError(f"a comment must be 1 to {MAX_COMMENT} characters, got {len(body)}")
        comment = Comment(id=self.new_id("CMT"), issue_id=issue.id, author_id=author.id, body=body,
                          created_at=self.now)
        self.db.add(comment)
        issue.updated_at = self.now
        return {"comment_id": comment.id, "issue_id": issue.id, "key": issue.key, "author_id": author.id,
                "author": author.name, "body": body, "created_at": self.now}

    @tool(idempotent=True)
    def add_label(self, issue_id: Id("issue"), label: str) -> dict:
        """Add a label to an open issue. A label the issue already has stays as it is (changed is false).

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
            label: lowercase letters, digits and dashes, up to 30 characters, such as 'tech-debt'.
        """
        issue = self._open(self.get(Issue, issue_id), "relabelled")
        name = _label(label)
        if self.db.get(Label, (issue.id, name)) is not None:
            return {**self._summary(issue), "changed": False}
        self.db.add(Label(issue_id=issue.id, name=name))
        self._log(issue, "labels", None, name)
        self.db.flush()
        return {**self._summary(issue), "changed": True}

    @tool(idempotent=True, destructive=True)
    def remove_label(self, issue_id: Id("issue"), label: str) -> dict:
        """Remove a label from an open issue. A label the issue does not have stays absent (changed is
        false; the result lists the labels it has).

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
            label: the label to remove, such as 'ui'.
        """
        issue = self._open(self.get(Issue, issue_id), "relabelled")
        row = self.db.get(Label, (issue.id, label.strip().lower()))
        if row is None:
            return {**self._summary(issue), "changed": False}
        self.db.delete(row)
        self._log(issue, "labels", row.name, None)
        self.db.flush()
        return {**self._summary(issue), "changed": True}

    # -- links ---------------------------------------------------------------------------------------

    @tool(idempotent=False)
    def link_issues(self, issue_id: Id("issue"), relation: Relation, other_issue_id: Id("issue")) -> dict:
        """Link two issues: the first 'blocks', 'is_blocked_by', 'duplicates' or 'relates_to' the other.
        A 'relates_to' link has no direction (either order makes the same link). Two issues hold at most one
        link; remove it with unlink_issues to change it. An open issue cannot
        block a closed one (reopen that one first). The link is recorded in both issues' history.

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
            relation: how the first issue relates to the other: 'blocks', 'is_blocked_by', 'duplicates'
                or 'relates_to'.
            other_issue_id: the other issue, by id such as 'ISS-0043' or by key such as 'APOLLO-13'.
        """
        issue = self.get(Issue, issue_id)
        other = self.get(Issue, other_issue_id)
        if issue.id == other.id:
            raise ToolError(f"{issue.key} cannot be linked to itself")
        existing = self._link_between(issue.id, other.id)
        if existing is not None:
            raise ToolError(f"{issue.key} and {other.key} are already linked ({self._phrase(existing, issue.id)}); "
                            "remove that link with unlink_issues first")
        source, target, kind = (other, issue, "blocks") if relation == "is_blocked_by" else (issue, other, relation)
        if kind == "relates_to":  # no direction: either order of the call leaves the same link
            source, target = sorted((source, target), key=lambda i: i.id)
        if kind == "blocks" and target.status == "done" and source.status != "done":
            raise ToolError(f"{target.key} is closed ({target.resolution}), so the open issue {source.key} cannot "
                            f"block it; reopen {target.key} first, or link them with relates_to")
        link = Link(id=self.new_id("LNK"), source_id=source.id, target_id=target.id, kind=kind, created_at=self.now)
        self.db.add(link)
        self._record_link(link, source, target)
        return {"issue_id": issue.id, "key": issue.key, "relation": relation, "other_issue_id": other.id,
                "other_key": other.key}

    @tool(destructive=True)
    def unlink_issues(self, issue_id: Id("issue"), other_issue_id: Id("issue")) -> dict:
        """Remove the link between two issues, whatever its kind; the removal is recorded in both issues'
        history.

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
            other_issue_id: the other issue, by id such as 'ISS-0043' or by key such as 'APOLLO-13'.
        """
        issue = self.get(Issue, issue_id)
        other = self.get(Issue, other_issue_id)
        link = self._link_between(issue.id, other.id)
        if link is None:
            raise ToolError(f"{issue.key} and {other.key} are not linked")
        relation = self._phrase(link, issue.id)
        self._record_link(link, issue, other, removed=True)
        self.db.delete(link)
        return {"issue_id": issue.id, "key": issue.key, "other_issue_id": other.id, "other_key": other.key,
                "removed": relation}

    # -- sprints ---------------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_sprints(self, project_id: Id("project"), status: Literal["planned", "active", "closed"] | None = None,
                     limit: Limit = 20) -> list[dict]:
        """List a project's sprints, oldest first, with their dates, status and number of issues.

        Args:
            status: only sprints in this status: 'planned', 'active' or 'closed'.
        """
        project = self.get(Project, project_id)
        where, params = "s.project_id = ?", [project.id]
        if status is not None:
            where, params = where + " AND s.status = ?", params + [status]
        rows = self.rows("SELECT s.id, s.project_id, s.name, s.goal, s.status, s.start_date, s.end_date, "
                         "s.committed_points, s.completed_points, (SELECT count(*) FROM issues i WHERE i.sprint_id = s.id) "
                         f"FROM sprints s WHERE {where} ORDER BY s.start_date, s.id LIMIT ?", *params, limit)
        return [dict(zip(_SPRINT_FIELDS, r)) for r in rows]

    @tool(produces=("sprint",), details=(Detail("sprints", "goal"),))
    def create_sprint(self, project_id: Id("project"), name: str, start_date: Date, end_date: Date,
                      goal: str | None = None) -> dict:
        """Plan a new sprint for a project (status planned, no issues yet).

        Args:
            name: the sprint's name, unique in the project, such as 'Apollo Sprint 15'.
            start_date: its first day, today or later.
            end_date: its last day, 1 to 28 days after the start.
            goal: optional sprint goal, such as 'Ship the new onboarding'.
        """
        project = self.get(Project, project_id)
        name = name.strip()
        if not 1 <= len(name) <= 60:
            raise ToolError(f"a sprint name must be 1 to 60 characters, got {len(name)}")
        taken = self.db.scalar(select(Sprint.id).where(Sprint.project_id == project.id,
                                                       func.lower(Sprint.name) == name.lower()))
        if taken is not None:
            raise ToolError(f"{project.name} already has a sprint named {name!r} ({taken})")
        if start_date < self.now.date():
            raise ToolError(f"start_date {start_date.isoformat()} is in the past; today is {self.now.date().isoformat()}")
        days = (end_date - start_date).days
        if not 1 <= days <= MAX_SPRINT_DAYS:
            raise ToolError(f"end_date must be 1 to {MAX_SPRINT_DAYS} days after start_date, got {days}")
        sprint = Sprint(id=self.new_id("SPR"), project_id=project.id, name=name, goal=(goal or "").strip() or None,
                        status="planned", start_date=start_date, end_date=end_date, started_at=None, closed_at=None,
                        committed_points=None, completed_points=None)
        self.db.add(sprint)
        return {**_sprint(sprint), "issues": 0}

    @tool(idempotent=False, sets=("sprint.active",), requires=("sprint.completed",))
    def start_sprint(self, sprint_id: Id("sprint")) -> dict:
        """Start a planned sprint today, keeping its length. A project has at most one active sprint, and a
        sprint needs at least one issue to start; its open story points become the commitment."""
        sprint = self.get(Sprint, sprint_id)
        if sprint.status != "planned":
            raise ToolError(f"{sprint.name} is {sprint.status}; only planned sprints can be started")
        active = self._active_sprint(sprint.project_id)
        if active is not None:
            raise ToolError(f"{active.name} ({active.id}) is already active in this project; complete it before "
                            f"starting {sprint.name}")
        issues = self.db.scalars(select(Issue).where(Issue.sprint_id == sprint.id)).all()
        if not issues:
            raise ToolError(f"{sprint.name} holds no issues; add issues to it with add_issue_to_sprint first")
        length = sprint.end_date - sprint.start_date
        sprint.status, sprint.started_at = "active", self.now
        sprint.start_date = self.now.date()
        sprint.end_date = sprint.start_date + length
        sprint.committed_points = sum(i.story_points or 0 for i in issues if i.status != "done")
        return {**_sprint(sprint), "issues": len(issues)}

    @tool(idempotent=False, requires=("sprint.active",), sets=("sprint.completed",))
    def complete_sprint(self, sprint_id: Id("sprint"), next_sprint_id: Id("sprint") | None = None) -> dict:
        """Complete the active sprint. Its unfinished issues (not done) move to the planned sprint given as
        next_sprint_id, or to the backlog without one; done issues stay with the closed sprint, which
        keeps its scope (every point it held, finished or not) for its report.

        Args:
            next_sprint_id: a planned sprint of the same project to take the unfinished issues; leave it
                out to send them to the backlog.
        """
        sprint = self.get(Sprint, sprint_id)
        if sprint.status != "active":
            raise ToolError(f"{sprint.name} is {sprint.status}; only the active sprint can be completed")
        target = None
        if next_sprint_id is not None:
            target = self.get(Sprint, next_sprint_id)
            if target.project_id != sprint.project_id:
                raise ToolError(f"{target.name} belongs to another project; pick a planned sprint of this project")
            if target.status != "planned":
                raise ToolError(f"{target.name} is {target.status}; unfinished issues can only move to a planned sprint")
        issues = self.db.scalars(select(Issue).where(Issue.sprint_id == sprint.id).order_by(Issue.id)).all()
        done = [i for i in issues if i.status == "done"]
        moved = [i for i in issues if i.status != "done"]
        for issue in moved:
            self._set(issue, "sprint", target.id if target else None, attr="sprint_id")
        sprint.status, sprint.closed_at = "closed", self.now
        sprint.completed_points = sum(i.story_points or 0 for i in done)
        sprint.scope_points = sum(i.story_points or 0 for i in issues)
        return {**_sprint(sprint), "completed_issues": len(done),
                "moved_to": "backlog" if target is None else {"sprint_id": target.id, "name": target.name},
                "moved_issues": [i.key for i in moved]}

    @tool(idempotent=True)
    def add_issue_to_sprint(self, issue_id: Id("issue"), sprint_id: Id("sprint")) -> dict:
        """Put an open issue into a planned or active sprint of its project (taking it out of the backlog or
        of another sprint). An issue already in that sprint stays there (changed is false).

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
        """
        issue = self._open(self.get(Issue, issue_id), "moved between sprints")
        sprint = self.get(Sprint, sprint_id)
        if sprint.project_id != issue.project_id:
            raise ToolError(f"{sprint.name} belongs to another project than {issue.key}")
        if sprint.status == "closed":
            raise ToolError(f"{sprint.name} is closed; pick a planned or the active sprint")
        changed = issue.sprint_id != sprint.id
        self._set(issue, "sprint", sprint.id, attr="sprint_id")
        return {**self._summary(issue), "sprint": sprint.name, "changed": changed}

    @tool(idempotent=True)
    def move_issue_to_backlog(self, issue_id: Id("issue")) -> dict:
        """Take an open issue out of its sprint and back to the project's backlog. An issue already in the
        backlog stays there (changed is false).

        Args:
            issue_id: the issue, by id such as 'ISS-0042' or by key such as 'APOLLO-12'.
        """
        issue = self._open(self.get(Issue, issue_id), "moved between sprints")
        changed = issue.sprint_id is not None
        self._set(issue, "sprint", None, attr="sprint_id")
        return {**self._summary(issue), "changed": changed}

    @tool(read_only=True)
    def get_sprint_report(self, sprint_id: Id("sprint")) -> dict:
        """Report on an active or closed sprint: committed story points (at the start), the scope (the
        points the sprint holds, work added after the start included; for a closed sprint, what it held
        when it closed), completed points, points remaining, issues per status, and the burndown (points
        remaining at the end of each day so far)."""
        sprint = self.get(Sprint, sprint_id)
        if sprint.status == "planned":
            raise ToolError(f"{sprint.name} has not started yet; reports exist for active and closed sprints")
        issues = self.rows("SELECT status, coalesce(story_points, 0), substr(resolved_at, 1, 10) FROM issues "
                           "WHERE sprint_id = ?", sprint.id)
        done = [(points, day) for status, points, day in issues if status == "done"]
        completed = sum(points for points, _ in done)
        scope = (sprint.scope_points or 0) if sprint.status == "closed" else sum(points for _, points, _ in issues)
        last = min(sprint.end_date, self.now.date())
        burndown = []
        day = sprint.start_date
        while day <= last:
            said = day.isoformat()
            finished = sum(points for points, resolved in done if resolved and resolved <= said)
            burndown.append({"date": day, "remaining_points": scope - finished})
            day += dt.timedelta(days=1)
        statuses = {s: sum(row[0] == s for row in issues) for s in STATUSES}
        return {**_sprint(sprint), "scope_points": scope, "completed_points": completed,
                "remaining_points": scope - completed, "issues_by_status": statuses, "burndown": burndown}

    @tool(read_only=True)
    def get_velocity(self, project_id: Id("project"), sprints: int = 3) -> dict:
        """A project's velocity: committed and completed story points of its last closed sprints (newest
        first) and their average completed points.

        Args:
            sprints: how many of the last closed sprints to count, 1 to 10 (default 3).
        """
        project = self.get(Project, project_id)
        if not 1 <= sprints <= 10:
            raise ToolError(f"sprints must be 1 to 10, got {sprints}")
        closed = self.rows("SELECT id, name, committed_points, completed_points FROM sprints WHERE project_id = ? AND "
                           "status = 'closed' ORDER BY end_date DESC, id DESC LIMIT ?", project.id, sprints)
        if not closed:
            raise ToolError(f"{project.name} has no closed sprints yet, so it has no velocity")
        rows = [{"sprint_id": r[0], "name": r[1], "committed_points": r[2], "completed_points": r[3]} for r in closed]
        average = round(sum(r[3] or 0 for r in closed) / len(closed), 1)
        return {"project_id": project.id, "sprints": rows, "average_completed_points": average}

    def invariants(self) -> list[str]:
        """At most one active sprint per project, and each sprint's record fits its status; an issue is
        closed exactly when it has a resolution and a resolution time; work in progress or in review
        has an assignee; open issues are assigned to project members and sit in the backlog or an open
        sprint of their own project; a closed issue is not blocked by an open one, unless that blocker
        was reopened after it closed; nothing recorded as done lies after the clock; an issue's status
        history runs from to_do to its status, each change starting where the one before it ended."""
        problems = self.after_now(Project.created_at, Sprint.started_at, Sprint.closed_at, Issue.created_at,
                                  Issue.updated_at, Issue.resolved_at, Comment.created_at, Change.changed_at,
                                  Link.created_at, Member.joined_at)
        for project_id, count in self.db.execute(select(Sprint.project_id, func.count()).where(
                Sprint.status == "active").group_by(Sprint.project_id)):
            if count > 1:
                problems.append(f"{project_id}: {count} active sprints")
        sprints = {s.id: s for s in self.db.scalars(select(Sprint))}
        members = set(self.db.execute(select(Member.project_id, Member.user_id)).all())
        issues = {i.id: i for i in self.db.scalars(select(Issue))}
        done_points: dict[str, int] = {}
        for issue in issues.values():
            closed = issue.status == "done"
            if closed != (issue.resolution is not None) or closed != (issue.resolved_at is not None):
                problems.append(f"{issue.key}: status {issue.status} with resolution {issue.resolution!r}")
            if issue.updated_at < issue.created_at or (issue.resolved_at is not None
                                                       and issue.resolved_at < issue.created_at):
                problems.append(f"{issue.key}: updated or resolved before it was created ({issue.created_at})")
            if issue.status in ("in_progress", "in_review") and issue.assignee_id is None:
                problems.append(f"{issue.key}: {issue.status} without an assignee")
            if closed:
                if issue.sprint_id is not None:
                    done_points[issue.sprint_id] = done_points.get(issue.sprint_id, 0) + (issue.story_points or 0)
                continue
            if issue.assignee_id is not None and (issue.project_id, issue.assignee_id) not in members:
                problems.append(f"{issue.key}: assigned to {issue.assignee_id}, not a member of {issue.project_id}")
            sprint = sprints.get(issue.sprint_id) if issue.sprint_id else None
            if sprint is not None and (sprint.project_id != issue.project_id or sprint.status == "closed"):
                problems.append(f"{issue.key}: open in sprint {sprint.id} ({sprint.status}, {sprint.project_id})")
        for sprint in sprints.values():
            problems += _sprint_problems(sprint, done_points.get(sprint.id, 0))
        status_at: dict[str, str] = {}
        for issue_id, old, new in self.db.execute(select(Change.issue_id, Change.old_value, Change.new_value).where(
                Change.field == "status").order_by(Change.changed_at, Change.id)):
            if status_at.get(issue_id, "to_do") != old:
                problems.append(f"{issues[issue_id].key}: status history goes from {old} after "
                                f"{status_at.get(issue_id, 'to_do')}")
            status_at[issue_id] = new
        for issue in issues.values():
            if status_at.get(issue.id, "to_do") != issue.status:
                problems.append(f"{issue.key}: status {issue.status}, its history ends at "
                                f"{status_at.get(issue.id, 'to_do')}")
        reopened: dict[str, list[dt.datetime]] = {}
        for issue_id, at in self.db.execute(select(Change.issue_id, Change.changed_at).where(
                Change.field == "resolution", Change.new_value.is_(None))):
            reopened.setdefault(issue_id, []).append(at)
        for link in self.db.scalars(select(Link).where(Link.kind == "blocks")):
            blocker, blocked = issues[link.source_id], issues[link.target_id]
            if blocked.status == "done" and blocker.status != "done" and not any(
                    at >= blocked.resolved_at for at in reopened.get(blocker.id, ())):
                problems.append(f"{blocked.key}: closed while {blocker.key} ({blocker.status}) blocks it")
        return problems

    # -- hidden --------------------------------------------------------------------------------------

    @tool(destructive=True, hidden=True)
    def delete_project(self, project_id: Id("project")) -> dict:
        """Administration only: delete a project with its sprints, issues, comments, labels, history and links."""
        project = self.get(Project, project_id)
        ids = select(Issue.id).where(Issue.project_id == project.id)
        for model, column in ((Label, Label.issue_id), (Comment, Comment.issue_id), (Change, Change.issue_id)):
            for row in self.db.scalars(select(model).where(column.in_(ids))):
                self.db.delete(row)
        for link in self.db.scalars(select(Link).where(or_(Link.source_id.in_(ids), Link.target_id.in_(ids)))):
            self.db.delete(link)
        self.db.flush()
        for model in (Issue, Sprint, Member):
            for row in self.db.scalars(select(model).where(model.project_id == project.id)):
                self.db.delete(row)
        self.db.flush()
        self.db.delete(project)
        return {"project_id": project.id, "deleted": True}

    # -- helpers ---------------------------------------------------------------------------------------

    def _project(self, project: Project) -> dict:
        lead = self.db.get(User, project.lead_id)
        return {"project_id": project.id, "key": project.key, "name": project.name,
                "lead": {"user_id": lead.id, "name": lead.name}}

    def get(self, model, key):
        """The entity of `model` with id `key`; an issue is also found by its key (see `_issue`)."""
        return self._issue(key) if model is Issue else super().get(model, key)

    def _issue(self, ref: str) -> Issue:
        """The issue a request names, by its id ('ISS-0042') or by its key as people say it ('APOLLO-12',
        in any case): the one way every tool that takes an issue finds it."""
        issue = self.db.get(Issue, ref)
        if issue is not None:
            return issue
        match = _KEY.match(ref)
        prefix = match.group(1).upper() if match else ""
        if match is not None:
            found = self.load(Issue, "SELECT id FROM issues WHERE key = ?", f"{prefix}-{int(match.group(2))}")
            if found:
                return found[0]
        project = self.rows("SELECT name, next_number FROM projects WHERE key = ?", prefix) if prefix else []
        if project:
            name, next_number = project[0]
            known = (f"its keys run from {prefix}-1 to {prefix}-{next_number - 1}" if next_number > 1
                     else "it has no issues yet")
            raise ToolError(f"Issue {ref!r} not found: {name} has no issue with that key ({known}); list_issues "
                            "and search_issues find issues by title")
        if match is None or prefix == self.entity_of(Issue).prefix:
            raise ToolError(self.entity_of(Issue).not_found(ref) + "; an issue's key such as 'APOLLO-12' works too")
        keys = ", ".join(r[0] for r in self.rows("SELECT key FROM projects ORDER BY key"))
        raise ToolError(f"Issue {ref!r} not found: no project has the key {prefix!r} (the project keys are {keys}); "
                        "issue keys look like 'APOLLO-12'")

    def _member(self, project_id: str, user_id: str) -> Member | None:
        return self.db.get(Member, (project_id, user_id))

    def _require_member(self, project: Project, user: User, action: str) -> User:
        if self._member(project.id, user.id) is None:
            raise ToolError(f"{user.name} ({user.id}) is not a member of {project.name} and cannot {action} there; "
                            "add them with add_project_member first")
        return user

    def _active_sprint(self, project_id: str) -> Sprint | None:
        return self.db.scalar(select(Sprint).where(Sprint.project_id == project_id, Sprint.status == "active"))

    def _open(self, issue: Issue, action: str) -> Issue:
        if issue.status == "done":
            raise ToolError(f"{issue.key} is closed ({issue.resolution}) and cannot be {action}; reopen it first")
        return issue

    def _title(self, project_id: str, title: str, but: str | None = None) -> str:
        title = " ".join(title.split())
        if not 1 <= len(title) <= MAX_TITLE:
            raise ToolError(f"a title must be 1 to {MAX_TITLE} characters, got {len(title)}")
        taken = self.db.scalar(select(Issue.key).where(Issue.project_id == project_id, Issue.status != "done",
                                                       func.lower(Issue.title) == title.lower(), Issue.id != (but or "")))
        if taken is not None:
            raise ToolError(f"the open issue {taken} already has the title {title!r}; pick another title")
        return title

    def _check_blockers(self, issue: Issue) -> None:
        rows = self.db.execute(select(Issue.key, Issue.title, Issue.status).join(Link, Link.source_id == Issue.id).where(
            Link.target_id == issue.id, Link.kind == "blocks", Issue.status != "done").order_by(Issue.id)).all()
        if rows:
            named = ", ".join(f"{key} '{title}' ({status})" for key, title, status in rows)
            raise ToolError(f"{issue.key} is blocked by {named}; close the blocking issue first, or remove the link "
                            "with unlink_issues")

    def _resolve(self, issue: Issue, resolution: str) -> None:
        self._set(issue, "resolution", resolution)
        issue.resolved_at = self.now

    def _set(self, issue: Issue, field: str, value, attr: str | None = None) -> None:
        attr = attr or field
        old = getattr(issue, attr)
        if old == value:
            return
        setattr(issue, attr, value)
        self._log(issue, field, old, value)

    def _log(self, issue: Issue, field: str, old, new) -> None:
        issue.updated_at = self.now
        self.db.add(Change(id=self.new_id("HST", 5), issue_id=issue.id, field=field,
                           old_value=None if old is None else str(old), new_value=None if new is None else str(new),
                           changed_at=self.now))

    def _record_link(self, link: Link, a: Issue, b: Issue, removed: bool = False) -> None:
        """Write a link made (or removed) into the history of both its issues, each seen from its side,
        such as 'blocks APOLLO-4' and 'is_blocked_by APOLLO-3'."""
        for issue, other in ((a, b), (b, a)):
            phrase = f"{self._phrase(link, issue.id)} {other.key}"
            self._log(issue, "link", phrase if removed else None, None if removed else phrase)

    def _labels(self, issue_id: str) -> list[str]:
        self.db.flush()
        return [r[0] for r in self.rows("SELECT name FROM labels WHERE issue_id = ? ORDER BY name", issue_id)]

    def _select(self, where: list[str], params: list, limit: int) -> list[dict]:
        sql = f"{_SUMMARY_SQL} WHERE {' AND '.join(where) or '1'} ORDER BY i.id LIMIT ?"
        return self._rows(self.rows(sql, *params, limit))

    def _link_between(self, a: str, b: str) -> Link | None:
        return self.db.scalar(select(Link).where(or_(and_(Link.source_id == a, Link.target_id == b),
                                                     and_(Link.source_id == b, Link.target_id == a))))

    @staticmethod
    def _phrase(link: Link, seen_from: str) -> str:
        if link.kind == "relates_to":
            return "relates_to"
        if link.source_id == seen_from:
            return link.kind
        return {"blocks": "is_blocked_by", "duplicates": "is_duplicated_by"}[link.kind]

    def _links(self, issue: Issue) -> list[dict]:
        rows = self.rows("SELECT k.kind, k.source_id, i.id, i.key, i.title, i.status FROM links k JOIN issues i "
                         "ON (k.source_id = ? AND i.id = k.target_id) OR (k.target_id = ? AND i.id = k.source_id) "
                         "ORDER BY k.id", issue.id, issue.id)
        out = []
        for kind, source, other, key, title, status in rows:
            relation = kind if kind == "relates_to" or source == issue.id else (
                {"blocks": "is_blocked_by", "duplicates": "is_duplicated_by"}[kind])
            out.append({"relation": relation, "issue_id": other, "key": key, "title": title, "status": status})
        return out

    def _summary(self, issue: Issue, names: dict[str, str] | None = None, labels: list[str] | None = None) -> dict:
        if names is None:
            names = {}
            if issue.assignee_id:
                names[issue.assignee_id] = self.db.get(User, issue.assignee_id).name
        return {"issue_id": issue.id, "key": issue.key, "project_id": issue.project_id, "title": issue.title,
                "type": issue.type, "priority": issue.priority, "status": issue.status, "resolution": issue.resolution,
                "story_points": issue.story_points, "assignee_id": issue.assignee_id,
                "assignee": names.get(issue.assignee_id) if issue.assignee_id else None,
                "sprint_id": issue.sprint_id,
                "labels": self._labels(issue.id) if labels is None else labels}

    def _rows(self, rows) -> list[dict]:
        """Issue summaries from rows of `_SUMMARY`, with their labels in one more query."""
        labels: dict[str, list[str]] = {}
        if rows:
            marks = ",".join("?" * len(rows))
            for issue_id, name in self.rows(f"SELECT issue_id, name FROM labels WHERE issue_id IN ({marks}) "
                                            "ORDER BY name", *(r[0] for r in rows)):
                labels.setdefault(issue_id, []).append(name)
        return [{"issue_id": r[0], "key": r[1], "project_id": r[2], "title": r[3], "type": r[4], "priority": r[5],
                 "status": r[6], "resolution": r[7], "story_points": r[8], "assignee_id": r[9], "assignee": r[10],
                 "sprint_id": r[11], "labels": labels.get(r[0], [])} for r in rows]

    # -- the query language ------------------------------------------------------------------------

    def _condition(self, clause: str):
        match = _CLAUSE.match(clause)
        if match is None:
            raise ToolError(f"cannot read the condition {clause!r}: write it as field operator value, such as "
                            "'status = in_progress'; operators are = != ~ < <= > >=")
        field, op, raw = match.group(1).lower(), match.group(2), match.group(3).strip()
        value = raw[1:-1] if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"" else raw
        builder = _FIELDS.get(field)
        if builder is None:
            raise ToolError(f"unknown field {field!r}; fields are {', '.join(sorted(_FIELDS))}")
        return builder(field, op, value)


# -- module helpers ------------------------------------------------------------------------------------

def _user(user: User) -> dict:
    return {"user_id": user.id, "name": user.name, "email": user.email, "title": user.title}


_SPRINT_FIELDS = ("sprint_id", "project_id", "name", "goal", "status", "start_date", "end_date", "committed_points",
                  "completed_points", "issues")


def _sprint(sprint: Sprint) -> dict:
    return {"sprint_id": sprint.id, "project_id": sprint.project_id, "name": sprint.name, "goal": sprint.goal,
            "status": sprint.status, "start_date": sprint.start_date, "end_date": sprint.end_date,
            "committed_points": sprint.committed_points, "completed_points": sprint.completed_points}


def _sprint_problems(sprint: Sprint, done_points: int) -> list[str]:
    """What breaks the record a sprint keeps in its status: a planned sprint has not started, an active
    one has started with a commitment, a closed one has closed, and its completed points are those of
    the done issues it holds, within its scope."""
    started, closed = sprint.started_at is not None, sprint.closed_at is not None
    expected = {"planned": (False, False), "active": (True, False), "closed": (True, True)}.get(sprint.status)
    if expected is None or (started, closed) != expected:
        return [f"{sprint.id}: {sprint.status} with started_at {sprint.started_at} and closed_at {sprint.closed_at}"]
    if sprint.status != "planned" and sprint.committed_points is None:
        return [f"{sprint.id}: {sprint.status} without committed points"]
    if sprint.status == "closed" and (sprint.completed_points != done_points or sprint.scope_points is None
                                      or sprint.scope_points < done_points):
        return [f"{sprint.id}: closed with completed points {sprint.completed_points} and scope "
                f"{sprint.scope_points}, but its done issues hold {done_points} points"]
    return []


def _check_points(points: int | None) -> None:
    if points is not None and points not in POINTS:
        raise ToolError(f"story points must be one of {', '.join(map(str, POINTS))}, got {points}")


def _label(label: str) -> str:
    name = label.strip().lower()
    if not LABEL.match(name):
        raise ToolError(f"label {label!r} must be 1 to 30 lowercase letters, digits or dashes, such as 'tech-debt'")
    return name


# An issue's summary as plain columns, in `_rows`' order.
_SUMMARY_SQL = ("SELECT i.id, i.key, i.project_id, i.title, i.type, i.priority, i.status, i.resolution, i.story_points, "
                "i.assignee_id, u.name, i.sprint_id FROM issues i LEFT JOIN users u ON u.id = i.assignee_id")

# An issue's key as people write it: the project key, a dash, the number ('APOLLO-12', 'apollo-012').
_KEY = re.compile(r"^\s*([A-Za-z][A-Za-z0-9]*)\s*-\s*0*(\d{1,9})\s*$")
_CLAUSE = re.compile(r"^\s*([A-Za-z_]+)\s*(!=|<=|>=|=|~|<|>)\s*(.+?)\s*$", re.S)
_AND = re.compile(r"\s+AND\s+", re.I)


def _split_and(query: str) -> list[str]:
    """The query's conditions, split on AND outside quotes."""
    if not query or not query.strip():
        raise ToolError("the query is empty; write conditions such as 'status = to_do AND priority = high'")
    parts, current, quote = [], [], None
    i = 0
    while i < len(query):
        ch = query[i]
        if quote:
            if ch == quote:
                quote = None
            current.append(ch)
            i += 1
            continue
        if ch in "'\"":
            quote = ch
            current.append(ch)
            i += 1
            continue
        match = _AND.match(query, i)
        if match is not None and current and query[i].isspace():
            parts.append("".join(current))
            current = []
            i = match.end()
            continue
        current.append(ch)
        i += 1
    if quote:
        raise ToolError("the query has an unclosed quote")
    parts.append("".join(current))
    if any(not p.strip() for p in parts):
        raise ToolError("the query has an empty condition around AND")
    return parts


def _ops(field: str, op: str, allowed: str) -> None:
    if op not in allowed.split():
        raise ToolError(f"the field {field!r} takes the operators {allowed}, not {op!r}")


_NONE = ("none", "empty", "null")
# Each field's builder turns (field, operator, value) into an SQL condition on issues `i` and its parameters.


def _text(column: str):
    def build(field: str, op: str, value: str) -> tuple[str, list]:
        _ops(field, op, "= != ~")
        if op == "~":
            return f"instr(lower({column}), ?) > 0", [value.lower()]
        return f"lower({column}) {op} ?", [value.lower()]
    return build


def _choice(column: str, values: tuple[str, ...], ordered: bool = False):
    def build(field: str, op: str, value: str) -> tuple[str, list]:
        _ops(field, op, "= != < <= > >=" if ordered else "= !=")
        word = value.strip().lower().replace(" ", "_") if values is STATUSES else value.strip().lower()
        if word not in values:
            raise ToolError(f"{field} is one of {', '.join(values)}, not {value!r}")
        if op in ("=", "!="):
            return f"{column} {op} ?", [word]
        rank = values.index(word)
        chosen = [v for i, v in enumerate(values) if _compare_int(i, op, rank)] or ["-"]
        return f"{column} IN ({','.join('?' * len(chosen))})", chosen
    return build


def _compare_int(a: int, op: str, b: int) -> bool:
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _named(column: str, table: str, words: tuple[str, ...]):
    """A reference to a person (or a sprint) by name: exact, contained (~), or none."""
    def build(field: str, op: str, value: str) -> tuple[str, list]:
        _ops(field, op, "= != ~")
        if value.lower() in words and op != "~":
            return (f"{column} IS NULL", []) if op == "=" else (f"{column} IS NOT NULL", [])
        match = "instr(lower(name), ?) > 0" if op == "~" else "lower(name) = ?"
        found = f"SELECT id FROM {table} WHERE {match}"
        if op == "!=":
            return f"{column} IS NULL OR {column} NOT IN ({found})", [value.lower()]
        return f"{column} IN ({found})", [value.lower()]
    return build


def _project_field(field: str, op: str, value: str) -> tuple[str, list]:
    _ops(field, op, "= !=")
    inside = "IN" if op == "=" else "NOT IN"
    return (f"i.project_id {inside} (SELECT id FROM projects WHERE lower(key) = ? OR lower(name) = ?)",
            [value.lower(), value.lower()])


def _label_field(field: str, op: str, value: str) -> tuple[str, list]:
    _ops(field, op, "= !=")
    has = "EXISTS" if op == "=" else "NOT EXISTS"
    return f"{has} (SELECT 1 FROM labels l WHERE l.issue_id = i.id AND l.name = ?)", [value.strip().lower()]


def _points_field(field: str, op: str, value: str) -> tuple[str, list]:
    _ops(field, op, "= != < <= > >=")
    if value.lower() in _NONE and op in ("=", "!="):
        return ("i.story_points IS NULL", []) if op == "=" else ("i.story_points IS NOT NULL", [])
    try:
        number = int(value)
    except ValueError:
        raise ToolError(f"points compares with a whole number, not {value!r}") from None
    return f"i.story_points {op} ?", [number]


def _resolution_field(field: str, op: str, value: str) -> tuple[str, list]:
    _ops(field, op, "= !=")
    word = value.strip().lower()
    if word in _NONE + ("unresolved",):
        return ("i.resolution IS NULL", []) if op == "=" else ("i.resolution IS NOT NULL", [])
    if word not in RESOLUTIONS:
        raise ToolError(f"resolution is one of {', '.join(RESOLUTIONS)} or none, not {value!r}")
    if op == "=":
        return "i.resolution = ?", [word]
    return "i.resolution IS NULL OR i.resolution != ?", [word]


def _date_field(column: str):
    def build(field: str, op: str, value: str) -> tuple[str, list]:
        _ops(field, op, "= != < <= > >=")
        try:
            day = dt.date.fromisoformat(value.strip())
        except ValueError:
            raise ToolError(f"{field} compares with a date written YYYY-MM-DD, not {value!r}") from None
        start, end = f"{day.isoformat()} 00:00:00", f"{(day + dt.timedelta(days=1)).isoformat()} 00:00:00"
        return {"=": (f"{column} >= ? AND {column} < ?", [start, end]),
                "!=": (f"{column} < ? OR {column} >= ?", [start, end]),
                "<": (f"{column} < ?", [start]), "<=": (f"{column} < ?", [end]),
                ">": (f"{column} >= ?", [end]), ">=": (f"{column} >= ?", [start])}[op]
    return build


_FIELDS = {
    "project": _project_field,
    "key": _text("i.key"),
    "title": _text("i.title"),
    "type": _choice("i.type", TYPES),
    "priority": _choice("i.priority", PRIORITIES, ordered=True),
    "status": _choice("i.status", STATUSES),
    "resolution": _resolution_field,
    "assignee": _named("i.assignee_id", "users", _NONE + ("unassigned",)),
    "reporter": _named("i.reporter_id", "users", _NONE),
    "label": _label_field,
    "labels": _label_field,
    "points": _points_field,
    "sprint": _named("i.sprint_id", "sprints", _NONE + ("backlog",)),
    "created": _date_field("i.created_at"),
    "updated": _date_field("i.updated_at"),
    "resolved": _date_field("i.resolved_at"),
}
