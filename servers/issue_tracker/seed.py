"""The seed: a software company's tracker. 40 people, 6 projects with 4 to 9 members each (some people
in no project), two-week sprints (closed ones with their velocity, at most one active, planned ones,
one planned sprint left empty, one project without sprints), 20 to 40 issues per project in every
status, with labels, comments, a status history, and blocks / duplicates / relates-to links
(some issues blocked by open ones, some closed as duplicates), all before the frozen "now"."""

from __future__ import annotations

import datetime as dt

from prove_env.world import SeedContext

from .models import Change, Comment, Issue, Label, Link, Member, Project, Sprint, User

N_USERS = 40
PROJECTS = (
    ("APOLLO", "Apollo Mobile App", "The iOS and Android apps for customers."),
    ("ATLAS", "Atlas Billing", "Invoices, subscriptions and payment collection."),
    ("HERMES", "Hermes Notifications", "Email, push and SMS delivery for every product."),
    ("ORION", "Orion Data Platform", "Pipelines, the warehouse and reporting dashboards."),
    ("NOVA", "Nova Website", "The marketing site and the customer help center."),
    ("TITAN", "Titan Infrastructure", "Clusters, CI runners and the deployment tooling."),
)
TITLES = ("Backend Engineer", "Frontend Engineer", "Mobile Engineer", "QA Engineer", "Product Designer",
          "Engineering Manager", "Data Engineer", "Site Reliability Engineer", "Product Manager",
          "Full-stack Engineer")
ROLES = ("developer", "developer", "developer", "designer", "qa")
SCREENS = ("login screen", "checkout page", "settings page", "search page", "profile page", "dashboard",
           "onboarding flow", "invoice PDF", "password reset email", "order history", "admin panel",
           "notification center", "export dialog", "sign-up form", "billing page", "help center")
PROBLEMS = ("crashes on rotation", "shows the wrong currency", "loads slowly", "breaks on small screens",
            "times out for large accounts", "ignores the dark mode setting", "shows duplicate entries",
            "has a typo in the header", "loses unsaved changes", "fails with a 500 error")
FEATURES = ("Add filters to the {s}", "Redesign the {s}", "Support SSO on the {s}", "Add keyboard shortcuts to the {s}",
            "Localize the {s} into Spanish", "Add an audit trail to the {s}", "Show usage charts on the {s}",
            "Let users pin items on the {s}")
TASKS = ("Upgrade {d} to the latest version", "Write integration tests for {d}", "Document how we set up {d}",
         "Remove deprecated calls to {d}", "Add monitoring for {d}", "Move {d} configuration to the new format")
DEPENDENCIES = ("React", "PostgreSQL", "Redis", "Kafka", "the Stripe SDK", "Firebase", "Terraform", "LaunchDarkly",
                "OpenSearch", "GitHub Actions")
LABELS = ("frontend", "backend", "ui", "performance", "security", "tech-debt", "customer", "regression",
          "accessibility", "api")
POINTS = (1, 2, 3, 5, 8, 13)
PRIORITIES = ("lowest", "low", "medium", "medium", "medium", "high", "high", "highest")
SPRINT_DAYS = 14


def seed(ctx: SeedContext) -> None:
    rng = ctx.rng
    users = []
    for _ in range(N_USERS):
        first, last = ctx.person_name()
        user = User(id=ctx.new_id("USR"), name=f"{first} {last}",
                    email=f"{first.lower()}.{last.lower()}@northwind.dev".replace(" ", "").replace("'", ""),
                    title=rng.choice(TITLES))
        users.append(user)
        ctx.add(user)
    pool = users[:-5]  # the last five people belong to no project yet
    today = ctx.now.date()
    for index, (key, name, description) in enumerate(PROJECTS):
        team = rng.sample(pool, rng.randint(4, 9))
        lead = team[0]
        project = Project(id=ctx.new_id("PRJ"), key=key, name=name, description=description, lead_id=lead.id,
                          next_number=1, created_at=ctx.moment(-720, -400))
        ctx.add(project)
        for position, person in enumerate(team):
            ctx.add(Member(project_id=project.id, user_id=person.id, role="lead" if position == 0 else rng.choice(ROLES),
                           joined_at=project.created_at + dt.timedelta(days=rng.randint(0, 120))))
        sprints = _sprints(ctx, project, today, kanban=index == 5, empty_planned=index == 2, active=index != 4)
        _issues(ctx, project, team, sprints, today)


def _sprints(ctx: SeedContext, project: Project, today: dt.date, *, kanban: bool, empty_planned: bool,
             active: bool) -> dict[str, list[Sprint]]:
    """Closed sprints back to back up to today, an active one holding today (or not), planned ones after."""
    rng = ctx.rng
    out: dict[str, list[Sprint]] = {"closed": [], "active": [], "planned": []}
    if kanban:
        return out
    short = project.key.title()
    current_start = today - dt.timedelta(days=rng.randint(1, 10))
    n_closed = rng.randint(2, 5)
    first = current_start - dt.timedelta(days=SPRINT_DAYS * n_closed)
    number = rng.randint(3, 20)
    goals = ("Stabilize the release", "Ship the new onboarding", "Pay down tech debt", "Performance push",
             "Prepare the beta", "Close out customer bugs", None)
    for k in range(n_closed):
        start = first + dt.timedelta(days=SPRINT_DAYS * k)
        end = start + dt.timedelta(days=SPRINT_DAYS - 1)
        out["closed"].append(Sprint(
            id=ctx.new_id("SPR"), project_id=project.id, name=f"{short} Sprint {number}", goal=rng.choice(goals),
            status="closed", start_date=start, end_date=end, started_at=_at(start, 9), closed_at=_at(end, 17),
            committed_points=0, completed_points=0, scope_points=0))
        number += 1
    start = current_start
    if active:
        out["active"].append(Sprint(
            id=ctx.new_id("SPR"), project_id=project.id, name=f"{short} Sprint {number}", goal=rng.choice(goals),
            status="active", start_date=start, end_date=start + dt.timedelta(days=SPRINT_DAYS - 1),
            started_at=_at(start, 9), closed_at=None, committed_points=0, completed_points=None,
            scope_points=None))
        number += 1
        start += dt.timedelta(days=SPRINT_DAYS)
    for _ in range(2 if empty_planned else rng.randint(1, 2)):
        out["planned"].append(Sprint(
            id=ctx.new_id("SPR"), project_id=project.id, name=f"{short} Sprint {number}", goal=rng.choice(goals),
            status="planned", start_date=start, end_date=start + dt.timedelta(days=SPRINT_DAYS - 1),
            started_at=None, closed_at=None, committed_points=None, completed_points=None,
            scope_points=None))
        number += 1
        start += dt.timedelta(days=SPRINT_DAYS)
    if empty_planned:
        out["empty"] = [out["planned"][-1]]
    for group in ("closed", "active", "planned"):
        ctx.add(*out[group])
    return out


def _at(day: dt.date, hour: int) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _title(rng, kind: str) -> str:
    if kind == "bug":
        return _capital(f"{rng.choice(SCREENS)} {rng.choice(PROBLEMS)}")
    if kind == "story":
        return rng.choice(FEATURES).format(s=rng.choice(SCREENS))
    return rng.choice(TASKS).format(d=rng.choice(DEPENDENCIES))


def _issues(ctx: SeedContext, project: Project, team: list[User], sprints: dict[str, list[Sprint]],
            today: dt.date) -> None:
    rng = ctx.rng
    empty = sprints.get("empty", [])
    homes: list[tuple[Sprint | None, str]] = [(s, "closed") for s in sprints["closed"]]
    homes += [(s, "active") for s in sprints["active"]] + [(s, "planned") for s in sprints["planned"] if s not in empty]
    titles: set[str] = set()
    issues: list[Issue] = []
    for _ in range(rng.randint(20, 40)):
        kind = rng.choice(("bug", "bug", "story", "story", "task"))
        title = _title(rng, kind)
        if title.lower() in titles:
            continue
        titles.add(title.lower())
        sprint, phase = rng.choice(homes) if homes and rng.random() < 0.7 else (None, "backlog")
        # work planned for a sprint that has not started yet was filed before today, not before its start
        created = (_at(min(sprint.start_date, today), 10) - dt.timedelta(days=rng.randint(1, 30)) if sprint
                   else ctx.moment(-200, -2))
        if phase == "closed":
            status = "done"
        elif phase == "active":
            status = rng.choice(("to_do", "in_progress", "in_progress", "in_review", "in_review", "done"))
        elif phase == "planned":
            status = "to_do"
        else:
            status = rng.choice(("to_do", "to_do", "to_do", "in_progress", "done"))
        points = rng.choice(POINTS) if kind != "bug" or rng.random() < 0.6 else None
        if sprint is not None and points is None:
            points = rng.choice((1, 2, 3))
        assignee = rng.choice(team).id if status != "to_do" or rng.random() < 0.6 else None
        resolved = None
        resolution = None
        if status == "done":
            if phase == "closed":
                resolved = _at(sprint.start_date + dt.timedelta(days=rng.randint(1, SPRINT_DAYS - 2)), 15)
            elif phase == "active":
                resolved = _at(sprint.start_date, 16) + dt.timedelta(
                    days=rng.randint(0, max(0, (today - sprint.start_date).days - 1)))
            else:
                resolved = ctx.moment(-90, -1)
            resolved = max(resolved, created + dt.timedelta(hours=4))
            resolution = "done" if phase != "backlog" or rng.random() < 0.4 else "won't do"
        number = project.next_number
        project.next_number += 1
        issue = Issue(id=ctx.new_id("ISS"), project_id=project.id, key=f"{project.key}-{number}", title=title,
                      description=ctx.fake.paragraph(nb_sentences=2) if rng.random() < 0.7 else None,
                      type=kind, priority=rng.choice(PRIORITIES), status=status, resolution=resolution,
                      story_points=points, reporter_id=rng.choice(team).id, assignee_id=assignee,
                      sprint_id=sprint.id if sprint else None, created_at=created,
                      updated_at=resolved or min(created + dt.timedelta(days=rng.randint(0, 3)), ctx.now),
                      resolved_at=resolved)
        issues.append(issue)
        ctx.add(issue)
        for label in rng.sample(LABELS, rng.choice((0, 0, 1, 1, 2, 3))):
            ctx.add(Label(issue_id=issue.id, name=label))
        # the status history runs from to_do to the status, step by step: work started three hours after it
        # was filed and went to review an hour before it was done; work not done was closed from to_do
        started = issue.created_at + dt.timedelta(hours=3)
        if status == "done" and resolution != "done":
            steps = [("to_do", "done", resolved)]
        else:
            review = (resolved - dt.timedelta(hours=1) if status == "done"
                      else min(max(started + dt.timedelta(hours=1), issue.updated_at), ctx.now))
            steps = [("to_do", "in_progress", started), ("in_progress", "in_review", review),
                     ("in_review", "done", resolved)]
            steps = steps[:("to_do", "in_progress", "in_review", "done").index(status)]
            if status == "in_review":
                issue.updated_at = max(issue.updated_at, review)
        for old, new, at in steps:
            ctx.add(Change(id=ctx.new_id("HST", 5), issue_id=issue.id, field="status", old_value=old,
                           new_value=new, changed_at=at))
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            ctx.add(Comment(id=ctx.new_id("CMT"), issue_id=issue.id, author_id=rng.choice(team).id,
                            body=ctx.fake.sentence(nb_words=rng.randint(6, 14)),
                            created_at=min(issue.created_at + dt.timedelta(hours=rng.randint(1, 48)), ctx.now)))
    for sprint in sprints["closed"]:
        done = [i for i in issues if i.sprint_id == sprint.id]
        sprint.completed_points = sum(i.story_points or 0 for i in done)
        # the commitment beyond what got done was unfinished work that left the sprint when it closed
        sprint.committed_points = sprint.completed_points + rng.choice((0, 0, 2, 3, 5, 8))
        sprint.scope_points = sprint.committed_points
    for sprint in sprints["active"]:
        sprint.committed_points = sum(i.story_points or 0 for i in issues if i.sprint_id == sprint.id)
    _links(ctx, issues)


def _links(ctx: SeedContext, issues: list[Issue]) -> None:
    """Blocks between open issues (and some with a closed blocker), duplicates closed against their
    original (never one that an open issue blocks: it could not have been closed), and relates-to pairs."""
    rng = ctx.rng
    open_ = [i for i in issues if i.status != "done"]
    linked: set[frozenset[str]] = set()
    held_up: set[str] = set()  # issues an open issue blocks

    def link(source: Issue, target: Issue, kind: str) -> None:
        pair = frozenset((source.id, target.id))
        if source.id == target.id or pair in linked:
            return
        linked.add(pair)
        if kind == "blocks" and source.status != "done":
            held_up.add(target.id)
        ctx.add(Link(id=ctx.new_id("LNK"), source_id=source.id, target_id=target.id, kind=kind,
                     created_at=min(max(source.created_at, target.created_at) + dt.timedelta(hours=1), ctx.now)))

    for _ in range(rng.randint(2, 4)):
        if len(open_) >= 2:
            blocker, blocked = rng.sample(open_, 2)
            link(blocker, blocked, "blocks")
    done = [i for i in issues if i.status == "done" and i.resolution == "done"]
    if done and open_:
        link(rng.choice(done), rng.choice(open_), "blocks")
    backlog = [i for i in open_ if i.sprint_id is None]
    if len(backlog) >= 2:
        duplicate, original = rng.sample(backlog, 2)
        if duplicate.id in held_up:
            duplicate, original = original, duplicate
        if duplicate.id not in held_up:
            was = duplicate.status
            duplicate.status, duplicate.resolution = "done", "duplicate"
            duplicate.resolved_at = duplicate.updated_at = min(
                max(duplicate.created_at, original.created_at) + dt.timedelta(days=1), ctx.now)
            ctx.add(Change(id=ctx.new_id("HST", 5), issue_id=duplicate.id, field="status", old_value=was,
                           new_value="done", changed_at=duplicate.resolved_at))
            link(duplicate, original, "duplicates")
    for _ in range(rng.randint(1, 3)):
        a, b = rng.sample(issues, 2)
        link(a, b, "relates_to")
