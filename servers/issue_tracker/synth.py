"""How tasks are written for the issue tracker: a team member asks about or changes their project's
issues and sprints, naming the project ("in Apollo"), issues by title, people by name and sprints by
name or as "the current sprint".

A bundle is one project seen by one of its members. So that the requests of one conversation never
undo each other, every open issue of a bundle gets one lane: `flow` issues move through the
workflow, `close` ones get closed, `unassign` ones lose their assignee, `sprint` ones move between
sprints and the backlog, `edit` ones are assigned, edited, labelled, commented on and linked. A
bundle either winds its sprint up (`closing`: complete the active sprint, start the next) or plans
(`planning`: move issues into and out of sprints), never both. One member with no open issues may
leave the team (`leaving`); no request assigns anything to them."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from dataclasses import dataclass
from typing import Any

from prove_env.facts import NOTHING, one_of
from prove_env.synthesis.recipe import Ask, Goal, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import day, full_date, stable

from .seed import DEPENDENCIES, LABELS, PROBLEMS, SCREENS, _capital

Bundle = dict[str, Any]
LANES = ("flow", "flow", "close", "unassign", "sprint", "edit", "edit", "edit")
# "What is to do in Nova?" reads as a question about what to do: the to-do column is said as a marking
STATUS_WORDS = {"to_do": "marked to do", "in_progress": "in progress", "in_review": "in review", "done": "done"}
COMMENTS = ("Let's discuss this at the stand-up.",
            "QA signed off on this in staging.", "Needs a second reviewer before merging.",
            "Moving fast on this one, it's a release blocker.")
# what only a bug's comment says (a task to document PostgreSQL is not reproduced), and what only the
# one who works on the issue says: "will pick it up next week" from James Murphy on Heather Perez's
# issue (seed 127) promised someone else's work
BUG_COMMENTS = ("I can reproduce this on the staging build.", "Customer reported this again today.",
                "This only happens with the VPN on.")
# a design mock belongs to a feature (a story): "The design mock is attached in Figma." on the bug 'Password
# reset email fails with a 500 error' (seed 141) spoke of no design
STORY_COMMENTS = ("The design mock is attached in Figma.",)
OWN_COMMENTS = ("Blocked on the API change; will pick it up next week.",)
OWN_BUG_COMMENTS = ("Fixed in the latest branch, please verify.",)
NEW_TASKS = ("Set up alerts for {d}", "Benchmark {d} under load", "Audit access to {d}", "Clean up unused settings of {d}")


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """One bundle per (project, member): the project's issues (with their links and comment counts),
    sprints, members and the people outside the team."""
    everyone = read("find_users", limit=100)
    bundles = []
    projects = read("list_projects", limit=100)
    leads = {p["lead"]["user_id"] for p in projects}
    for project in projects:
        pid = project["project_id"]
        members = read("list_project_members", project_id=pid)
        ids = {m["user_id"] for m in members}
        issues = []
        for status in ("to_do", "in_progress", "in_review", "done"):
            issues += read("list_issues", project_id=pid, status=status, limit=100)
        issues.sort(key=lambda i: i["issue_id"])
        full = {i["issue_id"]: read("get_issue", issue_id=i["issue_id"]) for i in issues}
        comments = {iid: read("list_comments", issue_id=iid, limit=100) for iid, f in full.items() if f["comments"]}
        sprints = read("list_sprints", project_id=pid, limit=100)
        info = read("get_project", project_id=pid)
        short = project["name"].split()[0]
        for me in members:
            lanes = {i["issue_id"]: rng.choice(LANES) for i in issues if i["status"] != "done"}
            holders = {i["assignee_id"] for i in issues}
            leavers = [m for m in members if m["user_id"] not in holders and m["user_id"] not in
                       (me["user_id"], project["lead"]["user_id"])]
            outsiders = [u for u in everyone if u["user_id"] not in ids]
            rng.shuffle(outsiders)
            active = [s for s in sprints if s["status"] == "active"]
            planned = [s for s in sprints if s["status"] == "planned"]
            bundle = {
                "now": now, "today": now.date(), "project": project, "short": short, "info": info,
                "me": {**me, "asker": me["name"]}, "members": members, "issues": issues, "full": full,
                "comments": comments, "leads": leads,
                "lanes": lanes, "sprints": sprints, "active": active[0] if active else None, "planned": planned,
                "mode": rng.choice(("closing", "planning")),
                "leaving": rng.choice(leavers) if leavers and rng.random() < 0.6 else None,
                "joining": outsiders[0::2], "helpers": outsiders[1::2],
            }
            bundle["complete_to"] = (planned[0] if planned and rng.random() < 0.5 else None)
            bundles.append(bundle)
    return bundles


# -- how people name things ------------------------------------------------------------------------

def _project_ref(b: Bundle) -> Ref:
    """The project, carrying who asks (the asker's look-up introduces them, naming it)."""
    return Ref("project", b["project"]["project_id"], {**b["project"], "asker": b["me"]["name"],
                                                       "short": b["short"]})


def _issue_ref(b: Bundle, issue: dict) -> Ref:
    return Ref("issue", issue["issue_id"], issue, _project_ref(b))


def _sprint_ref(b: Bundle, sprint: dict) -> Ref:
    return Ref("sprint", sprint["sprint_id"], sprint, _project_ref(b))


def _person_ref(person: dict) -> Ref:
    return Ref("user", person["user_id"], person)



def _me(b: Bundle) -> Ref:
    """The asker, listed under their project: their look-up introduces them, naming the project (no
    look-up of the project: a result that settles it, such as an issue found by title, may give its id)."""
    return Ref("user", b["me"]["user_id"], b["me"], _project_ref(b))


def where(b: Bundle, rng: random.Random) -> str:
    short, name = b["short"], b["project"]["name"]
    return rng.choice([f"in {short}", f"in the {short} project", f"on the {short} board", f"in {name}",
                       f"in our {short} project"])


def issue_name(issue: dict, rng: random.Random) -> str:
    title, kind = issue["title"], issue["type"]
    return rng.choice([f"'{title}'", f"the issue '{title}'", f"the {kind} '{title}'", f"the ticket '{title}'",
                       f"'{title}'"])


def sprint_name(b: Bundle, sprint: dict, rng: random.Random) -> str:
    if sprint["status"] == "active" and rng.random() < 0.5:
        return current_sprint(b, rng)
    # every sprint's name says "Sprint" ("Orion Sprint 18"): never "the sprint Orion Sprint 18"
    return rng.choice([sprint["name"], f"'{sprint['name']}'"])


def current_sprint(b: Bundle, rng: random.Random) -> str:
    """The running sprint said as the current one, never by its name: a sprint named is one search of its
    issues ('sprint = "Orion Sprint 18" AND status != done'), whose points add up to what is left."""
    return rng.choice([f"the current {b['short']} sprint", f"the active sprint in {b['short']}",
                       f"{b['short']}'s current sprint"])


@dataclass(frozen=True)
class Named:
    """How one request names an issue: its words, the value its call passes for it, and the refs that
    the look-ups resolve."""

    words: str
    arg: str
    refs: tuple[Ref, ...]


def named(b: Bundle, issue: dict, rng: random.Random, by_key: float = 0.3, place: bool = True,
          bare: bool = False) -> Named:
    """Mostly by title and where it lives ("'Login screen crashes' in Apollo"), found by a search;
    sometimes by its key as people quote it from the board ("APOLLO-12"), which every tool takes as
    it is, so no look-up is needed. `bare`: the title alone, in quotes (one of a pair: "link 'A'
    and 'B'", never "link the issue 'A' and 'B'")."""
    if rng.random() < by_key:
        return Named(issue["key"], issue["key"], ())
    title = f"'{issue['title']}'" if bare else issue_name(issue, rng)
    words = f"{title} {where(b, rng)}" if place else title
    return Named(words, issue["issue_id"], (_issue_ref(b, issue),))


def named_shown(b: Bundle, issue: dict, rng: random.Random) -> Named:
    """How a change names an issue whose result shows the issue in full, its project's id included:
    by title, found by the search that settles the project too. Named by its key, the issue needs no
    look-up, yet a later request about the project would look it up by name although the change's
    result already showed its id ("Reopen NOVA-20.", then "Count of Nova issues in review?"): an
    assistant that took the id from that result lost coverage."""
    return named(b, issue, rng, by_key=0.0)


def _open(b: Bundle, lane: str | None = None) -> list[dict]:
    return [i for i in b["issues"] if i["status"] != "done" and (lane is None or b["lanes"].get(i["issue_id"]) == lane)]


def _others(b: Bundle) -> list[dict]:
    """Members other than the asker and the one leaving."""
    leaving = b["leaving"]["user_id"] if b["leaving"] else None
    return [m for m in b["members"] if m["user_id"] not in (b["me"]["user_id"], leaving)]


def _titles(rows: list[dict], most: int = 8) -> list[Any]:
    """Every row, told by its title or its key: the listings hold 3 to 8 rows, all asked for (the sixth
    of six went unchecked); "Which ones?" answered with the keys alone ("NOVA-7, NOVA-10 and NOVA-18")
    names them as well as the titles do (seed 127: it failed)."""
    return [one_of(r["title"], r["key"]) for r in rows[:most]]


def _blockers_open(b: Bundle, issue: dict) -> bool:
    return any(link["relation"] == "is_blocked_by" and link["status"] != "done"
               for link in b["full"][issue["issue_id"]]["links"])


# -- goals: questions ------------------------------------------------------------------------------

goals = Goals()


@goals.add("get_issue", 1.2)
def get_issue(b: Bundle, rng: random.Random) -> Ask | None:
    issue = rng.choice(b["issues"])
    full = b["full"][issue["issue_id"]]
    choice = rng.randrange(4)
    # The search that finds an issue by its title already shows its assignee, points, key and
    # priority: a request for those names the issue by its key (one who asks for the key does not
    # know it, and is asked for what only the issue in full holds: when it was filed).
    n = named(b, issue, rng, by_key={0: 1.0, 3: 0.0}.get(choice, 0.3))
    name = n.words
    refs = n.refs
    args = {"issue_id": n.arg}
    # the issue in full shows its project's id: a later request about the project takes it from there
    # ("I need the assignee and the estimate of ATLAS-9.", then "list the Atlas project members")
    shown = (("project", b["project"]["project_id"]),)
    # who works on it or filed it is never the asker (the fact of their own name goes unchecked: "Who is
    # working on APOLLO-13?" from its assignee)
    me = b["me"]["user_id"]
    if choice == 0 and issue["assignee"] and issue["story_points"] is not None and issue["assignee_id"] != me:
        # a finished issue is no one's work now: "Who is working on HERMES-6" of a done one (seed 141)
        say = ([f"Who worked on {name}, and how many story points was it?",
                f"Who was {name} assigned to, and what was it estimated at?"] if issue["status"] == "done" else
               [f"Who is working on {name}, and how many story points is it?",
                f"Can you tell me who has {name} and what it's estimated at?"])
        return Ask(args, say=rng.choice(say + [f"I need the assignee and the estimate of {name}."]),
                   terse=f"Assignee and points of {name}?", refs=refs, settles=shown,
                   facts=lambda r: [r["assignee"], r["story_points"]])
    if choice == 1:
        blocked = [link for link in full["links"] if link["relation"] == "is_blocked_by"]
        if blocked:
            return Ask(args, say=rng.choice([f"What is blocking {name}?",
                                             f"Is anything holding up {name}? Which issue blocks it?",
                                             f"Which ticket is {name} waiting on?"]),
                       terse=f"Blockers of {name}?", refs=refs, settles=shown,
                       facts=lambda r: [one_of(x["key"], x["title"]) for x in r["links"]
                                        if x["relation"] == "is_blocked_by"])
    if choice == 2 and full["reporter"]["user_id"] != me:
        return Ask(args, say=rng.choice([f"Who reported {name}, and when?",
                                         f"Could you find out who filed {name} and on what date?",
                                         f"When was {name} created, and by whom?"]),
                   terse=f"Who filed {name}, and when?", refs=refs, settles=shown,
                   facts=lambda r: [r["reporter"]["name"], r["created_at"][:10]])
    if not n.refs:  # named by its key: one who knows the key does not ask for it
        return None
    return Ask(args, say=rng.choice([f"What's the key of {name}, and when was it filed?",
                                     f"Could you look up {name}? I need its issue key and the day it was created.",
                                     f"I keep forgetting the ticket number of {name}. What is it, and when was it opened?"]),
               terse=f"Key and creation date of {name}?", refs=refs, settles=shown,
               facts=lambda r: [r["key"], r["created_at"][:10]])


@goals.add("search_issues", 1.2)
def project_listing(b: Bundle, rng: random.Random) -> Ask | None:
    """A project's issues by status, label, type or backlog: one search with the project said as the
    user says it ("Which issues in Titan Infrastructure carry the 'backend' label?"). `list_issues`
    takes the project's id, so it needs the project looked up first, one call longer than the search
    (an assistant that searched at once scored 0.5 of 1.3). The rows show the project's id: a later
    request about the project takes it from there."""
    pid, key, at = b["project"]["project_id"], b["project"]["key"], where(b, rng)
    shown = (("project", pid),)
    # no listing by assignee here: the search takes the person's name as it is said (`search_issues`)
    choice = rng.choice((0, 2, 3, 4))
    if choice == 0:
        status = rng.choice(("in_progress", "in_review", "to_do"))
        rows = [i for i in b["issues"] if i["status"] == status]
        if not 3 <= len(rows) <= 8:
            return None
        word = STATUS_WORDS[status]
        return Ask({"query": f"project = {key} AND status = {status}"},
                   say=rng.choice([f"Which issues are {word} {at} right now?", f"What's currently {word} {at}?",
                                   f"Can you list everything that is {word} {at}?",
                                   f"I'm preparing the stand-up. What is {word} {at}?"]),
                   terse=f"Issues {word} {at}?", facts=_titles, settles=shown)
    if choice == 2:
        rows = [i for i in b["issues"] if i["sprint_id"] is None and i["status"] == "to_do"]
        if not 3 <= len(rows) <= 8:
            return None
        return Ask({"query": f"project = {key} AND sprint = none AND status = to_do"},
                   say=rng.choice([f"What's waiting in the backlog {at} that nobody has started?",
                                   f"Show me the not-yet-started backlog items {at}, please.",
                                   f"Which to-do issues {at} aren't in any sprint yet?"]),
                   terse=f"To-do backlog {at}?", facts=_titles, settles=shown)
    if choice == 3:
        label = rng.choice(LABELS)
        rows = [i for i in b["issues"] if label in i["labels"]]
        if not 3 <= len(rows) <= 8:
            return None
        return Ask({"query": f"project = {key} AND label = {label}"},
                   say=rng.choice([f"Which issues {at} carry the '{label}' label?",
                                   f"Find everything labelled {label} {at}.",
                                   f"Can you pull up the {label} tickets {at}?"]),
                   terse=f"'{label}' issues {at}?", facts=_titles, mentions=(label,), settles=shown)
    kind = rng.choice(("bug", "story", "task"))
    rows = [i for i in b["issues"] if i["type"] == kind and i["status"] == "to_do"]
    if not 3 <= len(rows) <= 8:
        return None
    plural = {"bug": "bugs", "story": "stories", "task": "tasks"}[kind]
    return Ask({"query": f"project = {key} AND type = {kind} AND status = to_do"},
               say=rng.choice([f"Which {plural} {at} haven't been started yet?",
                               f"List the {plural} {at} that are still to do.",
                               f"Are there {plural} {at} nobody has started on? Which ones?"]),
               terse=f"To-do {plural} {at}?", facts=_titles, settles=shown)


@goals.add("search_issues", 1.8)
def search_issues(b: Bundle, rng: random.Random) -> Ask | None:
    """A search of the project's issues, whose rows (three or more) show the project's id: a later
    request about the project takes it from there ("List every ticket in Apollo assigned to Jeremy
    Morse", then "file a new bug in our Apollo project" looked Apollo up by name, and an assistant
    that took the id from the rows scored 1.05 of 1.3)."""
    key, short = b["project"]["key"], b["short"]
    issues = b["issues"]
    shown = (("project", b["project"]["project_id"]),)
    choice = rng.randrange(5)
    if choice == 0:
        rows = [i for i in issues if i["status"] != "done" and i["priority"] in ("high", "highest") and i["type"] == "bug"]
        query = f"project = {key} AND type = bug AND priority >= high AND status != done"
        # "high or highest" in every wording: neither "urgent" nor "high-priority", which may mean the
        # highest priority alone or the high one alone (a search for `priority = high` missed a highest bug)
        say = [f"Which bugs are still open in {short} with high or highest priority?",
               f"Find me every open {short} bug with high or highest priority.",
               f"Which open {short} bugs are marked high or highest priority?"]
        terse = f"Open {short} bugs of high or highest priority?"
    elif choice == 1:
        label = rng.choice(LABELS)
        rows = [i for i in issues if i["status"] != "done" and label in i["labels"]]
        query = f"project = {key} AND label = {label} AND status != done"
        say = [f"Which open {short} issues are labelled {label}?", f"Find the unfinished {label} work in {short}.",
               f"Search {short} for open issues tagged '{label}'."]
        terse = f"Open '{label}' issues in {short}?"
    elif choice == 4:
        # one member's issues, found by their name: a listing by assignee would look them up first. Never
        # the asker's own: "assigned to me" leaves the name to their introduction, which only their look-up makes
        people = [m for m in b["members"] if m["user_id"] != b["me"]["user_id"]]
        if not people:
            return None
        person = rng.choice(people)
        name, at = person["name"], where(b, rng)
        rows = [i for i in issues if i["assignee_id"] == person["user_id"]]
        if not 3 <= len(rows) <= 8:
            return None
        query = f'project = {key} AND assignee = "{name}"'
        say = [f"Which issues {at} are assigned to {name}, finished ones included?",
               f"List every ticket {at} assigned to {name}, whatever its status.",
               f"Show me all the issues {at} that {name} is the assignee of, open or closed."]
        return Ask({"query": query}, say=rng.choice(say), terse=f"All issues {at} assigned to {name}, any status?",
                   facts=_titles, mentions=(name,), settles=shown)
    elif choice == 2:
        rows = [i for i in issues if i["status"] != "done" and i["assignee_id"] is None]
        query = f"project = {key} AND assignee = none AND status != done"
        say = [f"Which open issues in {short} have nobody assigned?", f"Find the unassigned open tickets in {short}.",
               f"Is any open work in {short} without an owner? Which issues?"]
        terse = f"Unassigned open issues in {short}?"
    elif choice == 3:
        rows = [i for i in issues if i["status"] != "done" and (i["story_points"] or 0) >= 8]
        query = f"project = {key} AND points >= 8 AND status != done"
        say = [f"Which open {short} issues are estimated at 8 points or more?",
               f"Find the big open items in {short}: 8 story points and up.",
               f"What are the largest open {short} tickets, 8 points or more?"]
        terse = f"Open {short} issues of 8+ points?"
    if not 3 <= len(rows) <= 8:
        return None
    return Ask({"query": query}, say=rng.choice(say), terse=terse, facts=_titles, settles=shown)


@goals.add("list_comments", 0.7)
def list_comments(b: Bundle, rng: random.Random) -> Ask | None:
    # someone other than the asker has commented: their own comments are nothing to tell them
    me = b["me"]["name"]
    issues = [i for i in b["issues"] if {c["author"] for c in b["comments"].get(i["issue_id"], ())} - {me}]
    if not issues:
        return None
    issue = rng.choice(issues)
    n = named(b, issue, rng)
    name = n.words
    if rng.random() < 0.5:
        # the comments themselves: each told by who wrote it or by its words (a quote answers it); the
        # asker's own by its words alone, since a fact that may be said as the asker's name is dropped
        # (the asker's comment went unchecked among the comments asked for)
        return Ask({"issue_id": n.arg},
                   say=rng.choice([f"What's the discussion on {name}?", f"Could you read me the comments on {name}?"]),
                   terse=f"Comments on {name}?", refs=n.refs,
                   facts=lambda r: [c["body"] if c["author"] == me else one_of(c["author"], c["body"]) for c in r])
    if me in {c["author"] for c in b["comments"][issue["issue_id"]]}:
        # the asker wrote there too: who else did (not "I missed the thread"), the asker saying who
        # "me" is, since nothing else in the conversation may (seed 145: "Who else has commented on
        # 'Redesign the notification center'?" from an asker never named left "else" unresolvable)
        return Ask({"issue_id": n.arg},
                   say=rng.choice([f"Who else has commented on {name}, apart from me ({me})?",
                                   f"Besides me ({me}), who has weighed in on {name}?"]),
                   terse=f"Who besides me ({me}) commented on {name}?", refs=n.refs,
                   facts=lambda r: list(dict.fromkeys(c["author"] for c in r if c["author"] != me)))
    return Ask({"issue_id": n.arg},
               say=rng.choice([f"Who has commented on {name}?", f"I missed the thread on {name}. Who chimed in?"]),
               terse=f"Who commented on {name}?", refs=n.refs,
               facts=lambda r: list(dict.fromkeys(c["author"] for c in r)))


@goals.add("get_issue_history", 0.6)
def get_issue_history(b: Bundle, rng: random.Random) -> Ask | None:
    # the day work started, which only the history holds: the day an issue reached done is its
    # `resolved_at`, which the issue in full shows (an earlier read of it already answers that); a
    # duplicate or an issue closed as won't do was closed without ever being worked on, so its history
    # holds no start
    issues = [i for i in b["issues"] if i["status"] != "to_do" and i["resolution"] not in ("duplicate", "won't do")]
    if not issues:
        return None
    issue = rng.choice(issues)
    n = named(b, issue, rng)
    name = n.words
    return Ask({"issue_id": n.arg},
               say=rng.choice([f"When was {name} first moved to in progress?",
                               f"On what day did work on {name} first start?",
                               f"Check the history of {name}: when did it first go in progress?"]),
               terse=f"When did {name} first go in progress?", refs=n.refs,
               facts=lambda r: [next((c["changed_at"][:10] for c in r if c["to"] == "in_progress"), None)])


def _project_count(r: dict, field: str, status: str | None = None) -> Any:
    """A count read off the project's own record, never off another record carrying its id: a sprint
    report shows the project's id beside its own `issues_by_status`, and a sprint with one issue in
    review was taken to show the project's count of them (the project's look-up left out of the gold)."""
    if "backlog_open_issues" not in r:  # only the project's own record has it
        raise KeyError("not a project's record")
    value = r[field] if status is None else r[field][status]
    return value or NOTHING


@goals.add("get_project", 0.7)
def get_project(b: Bundle, rng: random.Random) -> Ask | None:
    """What the project's record tells and no one search does: its description, or who leads it, with the
    backlog size. A count alone ("How many Hermes issues are in review?", "How big is the Hermes
    backlog?") is one search by the project's name, where `get_project` needs the project looked up
    first (an assistant that searched scored 0.86 of 1.3)."""
    short, args, refs = b["short"], {"project_id": b["project"]["project_id"]}, (_project_ref(b),)
    # the asker who leads the project: who leads it is no question of theirs
    if b["project"]["lead"]["user_id"] == b["me"]["user_id"] or rng.random() < 0.5:
        return Ask(args, say=rng.choice([f"I'm writing the onboarding doc for {short}: what does the project "
                                         "description say, and how many open issues sit in its backlog?",
                                         f"Can you read me the {short} project description? And how big is its "
                                         "backlog right now?"]),
                   terse=f"{short}: description and backlog size?", refs=refs,
                   facts=lambda r: [r["description"], _project_count(r, "backlog_open_issues")])
    return Ask(args, say=rng.choice([f"Who leads {short}, and how many open issues are in its backlog?",
                                     f"Give me a quick overview of {short}: the lead and the backlog size.",
                                     f"How big is the {short} backlog these days, and who's the project lead?"]),
               terse=f"{short}: lead and backlog size?", refs=refs,
               facts=lambda r: [r["lead"]["name"], _project_count(r, "backlog_open_issues")])


@goals.add("list_project_members", 0.6)
def list_project_members(b: Bundle, rng: random.Random) -> Ask | None:
    short = b["short"]
    return Ask({"project_id": b["project"]["project_id"]},
               say=rng.choice([f"Who's on the {short} team?", f"Which people are members of {short}?",
                               f"Can you list the {short} project members for me?",
                               f"Who works on {short} these days?"]),
               terse=f"{short} members?", refs=(_project_ref(b),),
               # every member asked for is checked (six of Orion's ten were)
               facts=lambda r: [m["name"] for m in r])


@goals.add("find_users", 1.0)
def find_users(b: Bundle, rng: random.Random) -> Ask | None:
    # another member: nobody asks for their own email or job title
    person = rng.choice([m for m in b["members"] if m["user_id"] != b["me"]["user_id"]] or [None])
    if person is None:
        return None
    name = person["name"]
    if rng.random() < 0.5:
        return Ask({"name": name}, say=rng.choice([f"What's {name}'s email address?", f"How can I email {name}?",
                                                   f"Could you look up the email of {name}?"]),
                   terse=f"Email of {name}?", facts=lambda r: [r[0]["email"]], mentions=(name,))
    return Ask({"name": name}, say=rng.choice([f"What does {name} do here? What's their job title?",
                                               f"What's {name}'s role at the company?",
                                               f"Which job title does {name} have?"]),
               terse=f"Job title of {name}?", facts=lambda r: [r[0]["title"]], mentions=(name,))


@goals.add("list_projects", 0.7)
def list_projects(b: Bundle, rng: random.Random) -> Ask | None:
    # the leads asked by no lead: a fact that is the asker's own name is dropped, so "who leads each?"
    # from Titan's lead left Titan's lead unchecked
    if rng.random() < 0.6 and b["me"]["user_id"] not in b["leads"]:
        return Ask({}, say=rng.choice(["Which projects do we track here, and who leads each?",
                                       "Give me the list of projects with their leads."]),
                   terse="Projects and leads?",
                   facts=lambda r: [x for p in r for x in (one_of(p["name"], p["key"]), p["lead"]["name"])])
    return Ask({}, say=rng.choice(["What projects exist in the tracker, and what are their keys?",
                                   "Which projects do we have, with their keys?"]),
               terse="Projects and their keys?", facts=lambda r: [p["key"] for p in r])


@goals.add("list_sprints", 0.6)
def list_sprints(b: Bundle, rng: random.Random) -> Ask | None:
    if len(b["planned"]) < (2 if b["mode"] == "closing" else 1):
        return None
    short = b["short"]
    # the project's sprints, unfiltered: a listing of them all shows which are planned, and a gold that
    # filters by status left an assistant that listed them all with coverage short (1.05 of 1.3); one
    # that filters still carries every argument of this call
    return Ask({"project_id": b["project"]["project_id"]},
               say=rng.choice([f"Which sprints are planned in {short}, and when do they start?",
                               f"What's coming up sprint-wise in {short}? Names and start dates, please.",
                               f"List the upcoming {short} sprints with their start dates."]),
               terse=f"Planned {short} sprints and start dates?", refs=(_project_ref(b),),
               facts=lambda r: [x for s in r if s["status"] == "planned" for x in (s["name"], s["start_date"])])


@goals.add("get_sprint_report", 0.9)
def get_sprint_report(b: Bundle, rng: random.Random) -> Ask | None:
    if b["active"] is not None and rng.random() < 0.6:
        # the running sprint said as the current one: named ("How many story points are left in the sprint
        # Orion Sprint 18?"), one search of its open issues adds up to the points left (0.83 of 1.3)
        sprint = b["active"]
        name = current_sprint(b, rng)
        return Ask({"sprint_id": sprint["sprint_id"]},
                   say=rng.choice([f"How many story points are left in {name}?",
                                   f"Where does the burndown of {name} stand? How many points remain?",
                                   # the points left alone: "how many are done and how many remain?" checked one
                                   f"How is {name} going: how many points remain?"]),
                   terse=f"Points remaining in {name}?", refs=(_sprint_ref(b, sprint),),
                   facts=lambda r: [r["remaining_points"] or NOTHING])
    # A closed sprint's committed and completed points, and the issues it held, show in the sprint
    # list (the look-up that finds it by name): a question about one asks for what only its report
    # holds, the burndown on a day of the sprint.
    # The sprint is found by one search of its issues (each row carries the sprint's id): the project
    # and its sprint list before the report were one call longer ("how many points were still open in
    # 'Nova Sprint 5' on January 12?", seed 129: 0.7 of 1.3 for the shorter route). A sprint that held
    # no issue is not asked about.
    closed = [s for s in b["sprints"] if s["status"] == "closed" and s["issues"]
              and (dt.date.fromisoformat(s["end_date"]) - dt.date.fromisoformat(s["start_date"])).days >= 4]
    if not closed:
        return None
    sprint = rng.choice(closed)
    name = sprint_name(b, sprint, rng)
    first, last = dt.date.fromisoformat(sprint["start_date"]), dt.date.fromisoformat(sprint["end_date"])
    when = first + dt.timedelta(days=rng.randint(2, (last - first).days - 2))
    return Ask({"sprint_id": sprint["sprint_id"]}, prior=(("search_issues", {"query": f'sprint = "{sprint["name"]}"'}),),
               say=rng.choice([f"For the retro: how many points were still open in {name} on {day(when)}?",
                               f"Where did the burndown of {name} stand on {day(when)}? How many points were left?"]),
               terse=f"Points left in {name} on {day(when)}?",
               # the search's rows and the report show the project's id: a later request takes it
               mentions=(day(when),), settles=(("project", b["project"]["project_id"]),),
               facts=lambda r: [x["remaining_points"] or NOTHING for x in r["burndown"]
                                        if x["date"] == when.isoformat()])


@goals.add("get_velocity", 0.6)
def get_velocity(b: Bundle, rng: random.Random) -> Ask | None:
    closed = [s for s in b["sprints"] if s["status"] == "closed"]
    if not closed:
        return None
    short = b["short"]
    n = min(len(closed), rng.choice((2, 3, 3, 4)))
    words = {2: "two", 3: "three", 4: "four"}[n]
    return Ask({"project_id": b["project"]["project_id"], "sprints": n},
               say=rng.choice([f"What's the {short} team's average velocity over the last {words} sprints?",
                               f"How many points does {short} complete per sprint, averaged over the last {words}?",
                               f"For planning: what's {short}'s average velocity across its last {words} sprints?"]),
               # "average" in every wording: "Apollo velocity, last 3 sprints?" (seed 155, 0009) also reads
               # as each sprint's completed points, and an answer listing 8, 5 and 35 failed on the average
               terse=f"{short} average velocity, last {n} sprints?", refs=(_project_ref(b),),
               facts=lambda r: [r["average_completed_points"] or NOTHING])


# -- goals: issues -----------------------------------------------------------------------------------

def _new_title(b: Bundle, rng: random.Random) -> tuple[str, str]:
    taken = {i["title"].lower() for i in b["issues"]}
    for _ in range(20):
        if rng.random() < 0.6:
            kind, title = "bug", _capital(f"{rng.choice(SCREENS)} {rng.choice(PROBLEMS)}")
        else:
            kind, title = "task", rng.choice(NEW_TASKS).format(d=rng.choice(DEPENDENCIES))
        if title.lower() not in taken:
            return kind, title
    return "task", f"Triage the {b['short']} inbox"


@goals.add("create_issue", 1.2)
def create_issue(b: Bundle, rng: random.Random) -> Ask | None:
    kind, title = _new_title(b, rng)
    priority = rng.choice(("low", "medium", "high", "highest"))
    args: dict[str, Any] = {"project_id": b["project"]["project_id"], "title": title, "type": kind,
                            "reporter_id": b["me"]["user_id"], "priority": priority}
    at = where(b, rng)
    refs: tuple[Ref, ...] = (_project_ref(b), _me(b))
    extra, terse_extra = "", ""
    # assigned to the asker alone: the reporter and another assignee would be looked up one by one,
    # where one listing of the project's members shows both (a route one call shorter)
    if rng.random() < 0.3:
        args["assignee_id"] = b["me"]["user_id"]
        extra = rng.choice([" Assign it to me.", " Put me down as the assignee."])
        terse_extra = ", assigned to me"
    elif rng.random() < 0.4:
        points = rng.choice((2, 3, 5, 8))
        args["story_points"] = points
        extra = rng.choice([f" Estimate it at {points} points.", f" It's about {points} story points."])
        terse_extra = f", {points} points"
    if rng.random() < 0.6:
        return Ask(args, say=rng.choice([f"I need to log a {kind} {at}.", f"Please open a new {kind} ticket {at} for me.",
                                         f"Could you file a {kind} {at}? I'm the reporter."]),
                   detail=rng.choice([f"Title it '{title}', {priority} priority.",
                                      f"The title is '{title}' and the priority {priority}."]) + extra,
                   terse=f"New {kind} {at}: '{title}', {priority}{terse_extra}.", refs=refs, mentions=(title,))
    say = rng.choice([f"Please log a {kind} {at} called '{title}', {priority} priority.",
                      f"Can you file a new {priority}-priority {kind} {at}: '{title}'?",
                      f"I need to report a {kind} {at}. Title: '{title}'. Priority {priority}.",
                      f"Open a {kind} ticket {at} titled '{title}' with {priority} priority, reported by me."])
    return Ask(args, say=say + extra, terse=f"New {kind} {at}: '{title}', {priority}{terse_extra}.", refs=refs,
               mentions=(title,))


@goals.add("update_issue")
def update_issue(b: Bundle, rng: random.Random) -> Ask | None:
    issues = _open(b, "edit")
    if not issues:
        return None
    issue = rng.choice(issues)
    n = named_shown(b, issue, rng)
    name = n.words
    refs = n.refs
    if rng.random() < 0.5:
        priority = rng.choice([p for p in ("low", "medium", "high", "highest") if p != issue["priority"]])
        if rng.random() < 0.6:
            return Ask({"issue_id": n.arg, "priority": priority},
                       say=rng.choice([f"The priority of {name} is wrong; please change it.",
                                       f"Can you reprioritize {name}?"]),
                       detail=rng.choice([f"Make it {priority}.", f"It should be {priority} priority."]),
                       terse=f"{name}: priority {priority}.", refs=refs, mentions=(priority,))
        return Ask({"issue_id": n.arg, "priority": priority},
                   say=rng.choice([f"Set the priority of {name} to {priority}.",
                                   f"Can you change {name} to {priority} priority?",
                                   f"{name[0].upper() + name[1:]} should be {priority} priority now; please update it."]),
                   terse=f"{name}: priority {priority}.", refs=refs, mentions=(priority,))
    points = rng.choice([p for p in (2, 3, 5, 8, 13) if p != issue["story_points"]])
    if rng.random() < 0.6:
        return Ask({"issue_id": n.arg, "story_points": points},
                   say=rng.choice([f"We re-estimated {name}; please update its story points.",
                                   f"The estimate on {name} is off. Can you fix it?"]),
                   # "please update its story points. Make it 8 story points." said them twice: the number alone;
                   # never "It's 2 points now.", which after "The estimate is off" tells the wrong estimate (seed 141)
                   detail=rng.choice([f"It should be {points} points.", f"Make it {points}."]),
                   terse=f"{name}: {points} points.", refs=refs)
    return Ask({"issue_id": n.arg, "story_points": points},
               say=rng.choice([f"Re-estimate {name} at {points} story points.",
                               f"After refinement, {name} is {points} points. Please update the estimate.",
                               f"Change the story points of {name} to {points}."]),
               terse=f"{name}: {points} points.", refs=refs)


@goals.add("assign_issue", 1.2)
def assign_issue(b: Bundle, rng: random.Random) -> Ask | None:
    issues = _open(b, "edit")
    if not issues:
        return None
    issue = rng.choice(issues)
    roll = rng.random()
    # a new member's request looks the project up to add them: the issue may go by its key there
    # the project is said by the new member's team: the issue by its title or key alone ("Add Steven
    # Raymond to Nova, assign the ticket 'X' in the Nova project" said Nova twice and not to whom)
    n = named(b, issue, rng, place=False) if roll < 0.25 and b["helpers"] else named_shown(b, issue, rng)
    name = n.words
    if roll < 0.25 and b["helpers"]:
        person = b["helpers"][0]
        return Ask({"issue_id": n.arg, "assignee_id": person["user_id"]},
                   say=rng.choice([f"{person['name']} is joining the {b['short']} team: add them as a member and assign "
                                   f"{name} to them.",
                                   f"Please bring {person['name']} onto the {b['short']} project and hand them {name}."]),
                   terse=f"Add {person['name']} to {b['short']}, assign them {name}.",
                   # the new member joins the project: its look-up when the issue is named by its key; an
                   # issue found by title settles it first (the search shows its project's id, and a
                   # look-up of the project before it was one call more than needed: 1.1 of 1.3)
                   refs=n.refs + (_project_ref(b), _person_ref(person)), mentions=(person["name"],),
                   prior=(("add_project_member", {"project_id": b["project"]["project_id"],
                                                  "user_id": person["user_id"]}),))
    if roll < 0.45 and issue["assignee_id"] != b["me"]["user_id"]:
        return Ask({"issue_id": n.arg, "assignee_id": b["me"]["user_id"]},
                   say=rng.choice([f"I'll take {name}; please assign it to me.", f"Assign {name} to me.",
                                   f"Could you put me down as the assignee of {name}?"]),
                   terse=f"Assign {name} to me.", refs=n.refs + (_me(b),))
    others = [m for m in _others(b) if m["user_id"] != issue["assignee_id"]]
    if not others:
        return None
    person = rng.choice(others)
    if rng.random() < 0.6:
        return Ask({"issue_id": n.arg, "assignee_id": person["user_id"]},
                   say=rng.choice([f"{name[0].upper() + name[1:]} needs a new owner; please reassign it.",
                                   f"Can you change who is assigned to {name}?"]),
                   detail=rng.choice([f"Give it to {person['name']}.", f"It should go to {person['name']}.",
                                      f"{person['name']} will take it."]),
                   terse=f"{name} -> {person['name']}.", refs=n.refs + (_person_ref(person),),
                   mentions=(person["name"],))
    return Ask({"issue_id": n.arg, "assignee_id": person["user_id"]},
               say=rng.choice([f"Assign {name} to {person['name']}.",
                               f"Please hand {name} over to {person['name']}.",
                               f"{person['name']} will pick up {name}; can you assign it to them?",
                               f"Could you make {person['name']} the assignee of {name}?"]),
               terse=f"{name} -> {person['name']}.", refs=n.refs + (_person_ref(person),),
               mentions=(person["name"],))


@goals.add("unassign_issue", 0.6)
def unassign_issue(b: Bundle, rng: random.Random) -> Ask | None:
    issues = [i for i in _open(b, "unassign") if i["assignee_id"] and i["status"] == "to_do"]
    if not issues:
        return None
    issue = rng.choice(issues)
    n = named_shown(b, issue, rng)
    name = n.words
    return Ask({"issue_id": n.arg},
               say=rng.choice([f"Nobody should own {name} for now; please unassign it.",
                               f"Take {issue['assignee']} off {name}, leave it unassigned.",
                               f"Clear the assignee of {name}."]),
               terse=f"Unassign {name}.", refs=n.refs)


# How a detail says the status an issue goes to: "Move it to to do" stumbles on the doubled "to", so the
# to-do column is named as a column.
_STATUS_SAID = {"to_do": ("back in the to-do column", "the to-do column"),
                "in_progress": ("in progress", "in progress"), "in_review": ("in review", "in review"), "done": ("done", "done")}


@goals.add("transition_issue", 1.6)
def transition_issue(b: Bundle, rng: random.Random) -> Ask | None:
    """Most requests name the status; some only ask for a status change and say which when asked."""
    ask = _transition(b, rng)
    if ask is None or ask.prior or rng.random() < 0.5:
        return ask
    issue = next(i for i in b["issues"] if ask.args["issue_id"] in (i["issue_id"], i["key"]))
    name = named(b, issue, rng, by_key=0.0).words if ask.refs else issue["key"]
    said = _STATUS_SAID[ask.args["status"]]
    # an issue named by its place on the board ("on the Hermes board") is not moved "along the board"
    along = "to another column" if "board" in name.replace("'", " ").split() else "along the board"
    say = rng.choice([f"Please update the status of {name}.", f"The status of {name} needs changing.",
                      f"Can you move {name} {along}?"])
    details = [f"It should be {said[0]} now.", f"Move it to {said[1]}.", f"Set it to {said[1]}."]
    if say.startswith("Can you move"):  # a request that says "move" is not followed by "Move it to"
        details = [d for d in details if not d.startswith("Move")]
    return Ask(ask.args, say=say, detail=rng.choice(details),
               terse=ask.terse, refs=ask.refs)


def _transition(b: Bundle, rng: random.Random) -> Ask | None:
    issues = _open(b, "flow")
    if not issues:
        return None
    issue = rng.choice(issues)
    n = named_shown(b, issue, rng)
    name = n.words
    args, refs = {"issue_id": n.arg}, n.refs
    status = issue["status"]
    if status == "to_do":
        if issue["assignee_id"] is None:
            return Ask({**args, "status": "in_progress"},
                       say=rng.choice([f"I'm starting on {name}: assign it to me and move it to in progress.",
                                       f"Please put {name} on me and mark it in progress.",
                                       f"Can you assign {name} to me and start it?"]),
                       terse=f"{name}: assign to me, start.", refs=refs + (_me(b),),
                       prior=(("assign_issue", {"issue_id": n.arg, "assignee_id": b["me"]["user_id"]}),))
        return Ask({**args, "status": "in_progress"},
                   say=rng.choice([f"Work on {name} has started; move it to in progress.",
                                   f"Please mark {name} as in progress.",
                                   f"Could you start {name}? Set it to in progress."]),
                   terse=f"{name} -> in progress.", refs=refs)
    if status == "in_progress":
        if rng.random() < 0.25:
            return Ask({**args, "status": "to_do"},
                       say=rng.choice([f"We paused {name}; move it back to the to-do column.",
                                       f"Put {name} back in the to-do column, nobody is working on it after all."]),
                       terse=f"{name} back to the to-do column.", refs=refs)
        return Ask({**args, "status": "in_review"},
                   say=rng.choice([f"The pull request for {name} is up; move it to in review.",
                                   f"Please send {name} to review.",
                                   f"{name[0].upper() + name[1:]} is ready for review. Can you move it?"]),
                   terse=f"{name} -> in review.", refs=refs)
    if _blockers_open(b, issue) or rng.random() < 0.25:
        return Ask({**args, "status": "in_progress"},
                   say=rng.choice([f"Review of {name} found problems; send it back to in progress.",
                                   f"Changes were requested on {name}. Move it back to in progress, please."]),
                   terse=f"{name} back to in progress.", refs=refs)
    return Ask({**args, "status": "done"},
               say=rng.choice([f"{name[0].upper() + name[1:]} passed review; mark it done.",
                               f"Please close {name} as done, it's been reviewed and merged.",
                               f"We shipped {name}. Move it to done."]),
               terse=f"{name} -> done.", refs=refs)


def _subject(title: str) -> str:
    """What an issue is about: the screen of a bug or a story, the dependency of a task."""
    lowered = title.lower()
    return next((x for x in SCREENS + DEPENDENCIES if x.lower() in lowered), lowered)


@goals.add("close_issue")
def close_issue(b: Bundle, rng: random.Random) -> Ask | None:
    issues = [i for i in _open(b, "close") if not _blockers_open(b, i)]
    if not issues:
        return None
    issue = rng.choice(issues)
    n = named_shown(b, issue, rng)
    name = n.words
    # an issue duplicates one about the same thing: the same screen, or the same dependency (seed 131:
    # 'Redesign the profile page' was closed as a duplicate of 'Order history ignores the dark mode setting'),
    # and only a bug report duplicates another (seed 133: the story 'Add an audit trail to the settings page'
    # duplicated the bug 'Settings page loses unsaved changes'; two stories or two tasks of one project never
    # ask for the same work, while two bugs of one screen may well be one fault reported twice)
    originals = [i for i in b["issues"] if i["issue_id"] != issue["issue_id"] and i["resolution"] != "duplicate"
                 and b["lanes"].get(i["issue_id"]) != "close" and issue["type"] == i["type"] == "bug"
                 and i["project_id"] == issue["project_id"] and _subject(i["title"]) == _subject(issue["title"])]
    if originals and rng.random() < 0.5:
        original = rng.choice(originals)
        o = named(b, original, rng, place=False)
        other = o.words
        if rng.random() < 0.6:
            return Ask({"issue_id": n.arg, "resolution": "duplicate", "duplicate_of_issue_id": o.arg},
                       say=rng.choice([f"{name[0].upper() + name[1:]} is a duplicate; please close it as one.",
                                       f"Close {name} as a duplicate, please."]),
                       detail=rng.choice([f"The original is {other}.", f"It duplicates {other}."]),
                       terse=f"Close {name} as duplicate of {other}.",
                       refs=n.refs + o.refs)
        return Ask({"issue_id": n.arg, "resolution": "duplicate", "duplicate_of_issue_id": o.arg},
                   say=rng.choice([f"{name[0].upper() + name[1:]} is a duplicate of {other}; close it as such.",
                                   f"Please close {name} as a duplicate. The original is {other}.",
                                   f"We already track {name} under {other}. Close it as a duplicate."]),
                   terse=f"Close {name} as duplicate of {other}.",
                   refs=n.refs + o.refs)
    return Ask({"issue_id": n.arg, "resolution": "won't do"},
               say=rng.choice([f"We decided not to do {name}; close it as won't do.",
                               # only a bug is fixed: a story or a task is not done
                               f"Please close {name}, we won't {'fix' if issue['type'] == 'bug' else 'do'} it.",
                               f"{name[0].upper() + name[1:]} is out of scope. Close it with won't do."]),
               terse=f"Close {name}: won't do.", refs=n.refs)


@goals.add("reopen_issue", 0.8)
def reopen_issue(b: Bundle, rng: random.Random) -> Ask | None:
    limit = (b["now"] - dt.timedelta(days=30)).isoformat()
    issues = [i for i in b["issues"] if i["status"] == "done" and (b["full"][i["issue_id"]]["resolved_at"] or "") >= limit]
    if not issues:
        return None
    issue = rng.choice(issues)
    n = named_shown(b, issue, rng)
    name = n.words
    # the reason fits how it was closed: only a bug that was fixed can happen again
    head = name[0].upper() + name[1:]
    resolution = issue["resolution"]
    if resolution == "won't do":
        reasons = [f"We've changed our mind about {name}; please reopen it.",
                   f"Reopen {name}, we want to do it after all.",
                   f"{head} is back on the table. Can you reopen it?"]
    elif resolution == "duplicate":
        reasons = [f"{head} isn't a duplicate after all; please reopen it.",
                   f"Reopen {name}, it was closed as a duplicate by mistake.",
                   f"{head} turned out to be a separate problem. Can you reopen it?"]
    elif issue["type"] == "bug":
        reasons = [f"{head} is happening again; please reopen it.",
                   f"Reopen {name}, the fix didn't hold.",
                   f"QA found {name} isn't really fixed. Can you reopen it?"]
    else:
        reasons = [f"{head} needs more work; please reopen it.",
                   f"Reopen {name}, it isn't done yet.",
                   f"QA found {name} isn't really finished. Can you reopen it?"]
    return Ask({"issue_id": n.arg}, say=rng.choice(reasons), terse=f"Reopen {name}.", refs=n.refs)


@goals.add("add_comment", 1.0)
def add_comment(b: Bundle, rng: random.Random) -> Ask | None:
    # The comments speak of work still going on ("will pick it up next week"): an issue that is open
    # and that no other request of the conversation closes or moves along the board.
    issues = [i for i in _open(b) if b["lanes"].get(i["issue_id"]) not in ("close", "flow")]
    if not issues:
        return None
    issue = rng.choice(issues)
    n = named(b, issue, rng)
    name = n.words
    bug, own = issue["type"] == "bug", issue["assignee_id"] == b["me"]["user_id"]
    body = rng.choice(COMMENTS + (BUG_COMMENTS if bug else ()) + (STORY_COMMENTS if issue["type"] == "story" else ())
                      + (OWN_COMMENTS if own else ())
                      + (OWN_BUG_COMMENTS if own and bug else ()))
    args = {"issue_id": n.arg, "author_id": b["me"]["user_id"], "body": body}
    if rng.random() < 0.6:
        return Ask(args, say=rng.choice([f"Add a comment from me on {name}.",
                                         f"I'd like to leave a comment on {name}.",
                                         f"Please post a comment for me on {name}."]),
                   detail=rng.choice([f"It should say: \"{body}\"", f"The text is: \"{body}\"",
                                      f"Write exactly this: \"{body}\""]),
                   terse=f"Comment on {name}: \"{body}\"", refs=n.refs + (_me(b),), mentions=(body,))
    return Ask(args,
               say=rng.choice([f"Add a comment from me on {name}: \"{body}\"",
                               f"Please post this on {name} for me: \"{body}\"",
                               # a question that ends on the quote has no question mark: said as a request
                               f"Please comment on {name} saying \"{body}\""]),
               terse=f"Comment on {name}: \"{body}\"", refs=n.refs + (_me(b),), mentions=(body,))


@goals.add("add_label", 0.8)
def add_label(b: Bundle, rng: random.Random) -> Ask | None:
    issues = _open(b, "edit")
    if not issues:
        return None
    issue = rng.choice(issues)
    label = rng.choice([x for x in LABELS if x not in issue["labels"]])
    n = named_shown(b, issue, rng)
    name = n.words
    if rng.random() < 0.6:
        return Ask({"issue_id": n.arg, "label": label},
                   say=rng.choice([f"{name[0].upper() + name[1:]} needs {'another' if issue['labels'] else 'a'} label.",
                                   f"Please add a label to {name}."]),
                   detail=rng.choice([f"The label is '{label}'.", f"Use '{label}'."]),
                   terse=f"Label {name}: {label}.", refs=n.refs, mentions=(label,))
    return Ask({"issue_id": n.arg, "label": label},
               say=rng.choice([f"Tag {name} with '{label}'.", f"Please add the label {label} to {name}.",
                               f"{name[0].upper() + name[1:]} needs the '{label}' label."]),
               terse=f"Label {name}: {label}.", refs=n.refs, mentions=(label,))


@goals.add("remove_label", 0.7)
def remove_label(b: Bundle, rng: random.Random) -> Ask | None:
    issues = [i for i in _open(b, "edit") if i["labels"]]
    if not issues:
        return None
    issue = rng.choice(issues)
    label = rng.choice(issue["labels"])
    n = named_shown(b, issue, rng)
    name = n.words
    # the label is held back only where the issue has others: the one label is told by the look-up
    if rng.random() < 0.5 and len(issue["labels"]) > 1:
        return Ask({"issue_id": n.arg, "label": label},
                   say=rng.choice([f"One of the labels on {name} is wrong; please remove it.",
                                   f"Take a label off {name} for me."]),
                   detail=rng.choice([f"It's the '{label}' label.", f"The one to drop is '{label}'."]),
                   terse=f"Unlabel {name}: {label}.", refs=n.refs, mentions=(label,))
    return Ask({"issue_id": n.arg, "label": label},
               say=rng.choice([f"Remove the '{label}' label from {name}.",
                               f"{name[0].upper() + name[1:]} shouldn't be tagged {label}; take that label off.",
                               f"Please drop the {label} label on {name}."]),
               terse=f"Unlabel {name}: {label}.", refs=n.refs, mentions=(label,))


def _linked(b: Bundle, a: dict, other: dict) -> bool:
    return any(link["issue_id"] == other["issue_id"] for link in b["full"][a["issue_id"]]["links"])


@goals.add("link_issues", 0.9)
def link_issues(b: Bundle, rng: random.Random) -> Ask | None:
    issues = _open(b, "edit")
    if len(issues) < 2:
        return None
    first, second = rng.sample(issues, 2)
    if _linked(b, first, second):
        return None
    a, c = named(b, first, rng, place=False, bare=True), named(b, second, rng, place=False, bare=True)
    one, two, at = a.words, c.words, f" {where(b, rng)}" if a.refs or c.refs else ""
    # one issue blocks the other, said in the order the call takes or the reverse, or the two are related:
    # either order of the call leaves the same link
    relation = rng.choice(("blocks", "is_blocked_by", "relates_to"))
    say = {"blocks": [f"{one[0].upper() + one[1:]} blocks {two}{at}; please link them that way.",
                      f"Record{at} that {one} is blocking {two}."],
           "is_blocked_by": [f"{one[0].upper() + one[1:]}{at} can't move until {two} is done; mark it as blocked by that one.",
                             f"Link {one}{at} as blocked by {two}."],
           "relates_to": [f"Link {one} and {two}{at} as related.", f"{one[0].upper() + one[1:]} relates to {two}{at}; "
                          "please connect them."]}[relation]
    terse = {"blocks": f"{one} blocks {two}{at}.", "is_blocked_by": f"{one} blocked by {two}{at}.",
             "relates_to": f"Link {one} and {two}{at} as related."}[relation]
    args = {"issue_id": a.arg, "relation": relation, "other_issue_id": c.arg}
    refs = a.refs + c.refs
    if rng.random() < 0.6:
        how = {"blocks": "The first one blocks the second.", "is_blocked_by": "The first one is blocked by the second.",
               "relates_to": "They're just related."}[relation]
        return Ask(args, say=rng.choice([f"Please link {one} and {two}{at}.", f"Connect {one} with {two}{at}."]),
                   detail=how, terse=terse, refs=refs)
    return Ask(args, say=rng.choice(say), terse=terse, refs=refs)


@goals.add("unlink_issues", 0.6)
def unlink_issues(b: Bundle, rng: random.Random) -> Ask | None:
    pairs = []
    for issue in b["issues"]:
        for link in b["full"][issue["issue_id"]]["links"]:
            if issue["issue_id"] < link["issue_id"] and link["relation"] in ("blocks", "is_blocked_by", "relates_to"):
                pairs.append((issue, next(i for i in b["issues"] if i["issue_id"] == link["issue_id"]), link))
    if not pairs:
        return None
    first, second, link = rng.choice(pairs)
    a, c = named(b, first, rng, place=False, bare=True), named(b, second, rng, place=False, bare=True)
    one, two, at = a.words, c.words, f" {where(b, rng)}" if a.refs or c.refs else ""
    return Ask({"issue_id": a.arg, "other_issue_id": c.arg},
               say=rng.choice([f"The link between {one} and {two}{at} is wrong; please remove it.",
                               f"Unlink {one} from {two}{at}.",
                               f"{one[0].upper() + one[1:]} and {two}{at} have nothing to do with each other; drop their link."]),
               terse=f"Unlink {one} and {two}{at}.", refs=a.refs + c.refs)


# -- goals: team -----------------------------------------------------------------------------------

@goals.add("add_project_member", 0.7)
def add_project_member(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["joining"]:
        return None
    person = b["joining"][0]
    short, name = b["short"], person["name"]
    # the role fits the person's job (seed 155: a Backend Engineer and two Product Managers each added
    # "as a designer"): a designer as one, a QA engineer as QA, another engineer as a developer; a
    # manager's role is none of these, so the request names none and the default (developer) stands
    title = person.get("title") or ""
    rng.choice(("developer", "designer", "qa"))  # the draw the role once took, so the samples keep theirs
    if "Manager" in title:
        return Ask({"project_id": b["project"]["project_id"], "user_id": person["user_id"]},
                   say=rng.choice([f"Please add {name} to the {short} team.",
                                   f"{name} is joining {short}; can you add them to the project?",
                                   f"Give {name} access to {short}."]),
                   terse=f"Add {name} to {short}.", refs=(_project_ref(b), _person_ref(person)), mentions=(name,))
    role = "designer" if "Designer" in title else "qa" if "QA" in title else "developer"
    word = {"developer": "a developer", "designer": "a designer", "qa": "QA"}[role]
    return Ask({"project_id": b["project"]["project_id"], "user_id": person["user_id"], "role": role},
               say=rng.choice([f"Please add {name} to the {short} team as {word}.",
                               f"{name} is joining {short} as {word}; can you add them to the project?",
                               f"Give {name} access to {short}, role {role}."]),
               terse=f"Add {name} to {short} ({role}).", refs=(_project_ref(b), _person_ref(person)), mentions=(name,))


@goals.add("remove_project_member", 0.6)
def remove_project_member(b: Bundle, rng: random.Random) -> Ask | None:
    person = b["leaving"]
    if person is None:
        return None
    short, name = b["short"], person["name"]
    return Ask({"project_id": b["project"]["project_id"], "user_id": person["user_id"]},
               say=rng.choice([f"{name} has moved to another team; please remove them from {short}.",
                               f"Take {name} off the {short} project.",
                               f"Could you remove {name} from the {short} members?"]),
               terse=f"Remove {name} from {short}.", refs=(_project_ref(b), _person_ref(person)), mentions=(name,))


# -- goals: sprints --------------------------------------------------------------------------------

@goals.add("create_sprint", 0.7)
def create_sprint(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["sprints"]:
        return None
    numbers = [int(s["name"].rsplit(" ", 1)[1]) for s in b["sprints"]]
    name = f"{b['short']} Sprint {max(numbers) + 1}"
    last_end = max(dt.date.fromisoformat(s["end_date"]) for s in b["sprints"])
    start = max(last_end, b["today"]) + dt.timedelta(days=1)
    end = start + dt.timedelta(days=13)
    start_said = day(start) if start.year == end.year else full_date(start)
    if rng.random() < 0.6:
        return Ask({"project_id": b["project"]["project_id"], "name": name, "start_date": start.isoformat(),
                    "end_date": end.isoformat()},
                   say=rng.choice([f"Please plan a new sprint in {b['short']} named '{name}'.",
                                   # the name starts with the project's short name: "in Hermes" would repeat it
                                   f"Can you set up {name} as the next sprint?"]),
                   detail=rng.choice([f"It runs from {start_said} to {full_date(end)}.",
                                      f"Dates: {start_said} through {full_date(end)}."]),
                   terse=f"New sprint '{name}' in {b['short']}: {start.isoformat()} to {end.isoformat()}.",
                   refs=(_project_ref(b),), mentions=(name,))
    return Ask({"project_id": b["project"]["project_id"], "name": name, "start_date": start.isoformat(),
                "end_date": end.isoformat()},
               say=rng.choice([f"Plan a new sprint in {b['short']} called '{name}', from {start_said} to {full_date(end)}.",
                               f"Please create {name} running {start_said} through {full_date(end)}.",
                               f"Set up the next {b['short']} sprint, '{name}', {start_said} to {full_date(end)}."]),
               terse=f"New sprint '{name}' in {b['short']}: {start.isoformat()} to {end.isoformat()}.",
               refs=(_project_ref(b),), mentions=(name,))


def _complete_args(b: Bundle) -> dict:
    args = {"sprint_id": b["active"]["sprint_id"]}
    if b["complete_to"] is not None:
        args["next_sprint_id"] = b["complete_to"]["sprint_id"]
    return args


@goals.add("complete_sprint", 0.8)
def complete_sprint(b: Bundle, rng: random.Random) -> Ask | None:
    if b["mode"] != "closing" or b["active"] is None:
        return None
    sprint, target = b["active"], b["complete_to"]
    name = sprint_name(b, sprint, rng)
    refs: tuple[Ref, ...] = (_sprint_ref(b, sprint),)
    # where the unfinished issues go is said with the request, never held back: without a next
    # sprint they go to the backlog, which an assistant may rightly leave to the default
    if rng.random() < 0.6:
        return Ask(_complete_args(b),
                   say=rng.choice([f"Please close out {name}.", f"We're done with {name}; complete it.",
                                   f"Time to end {name}, can you complete it?"]) + " "
                   + ("Unfinished issues go back to the backlog." if target is None else
                      f"Move whatever isn't done into {target['name']}."),
                   terse=f"Complete {name}, leftovers to {'backlog' if target is None else target['name']}.",
                   refs=refs + (() if target is None else (_sprint_ref(b, target),)))
    if target is None:
        say = [f"Close out {name} and send whatever isn't finished back to the backlog.",
               f"Please complete {name}; unfinished issues go to the backlog.",
               f"We're wrapping up {name}. End it and move the leftovers to the backlog."]
        terse = f"Complete {name}, leftovers to backlog."
    else:
        refs += (_sprint_ref(b, target),)
        nxt = target["name"]
        say = [f"Close out {name} and carry the unfinished issues over to {nxt}.",
               f"Please complete {name}; move whatever is not done into {nxt}.",
               f"Time to end {name}. Roll the leftovers into {nxt}."]
        terse = f"Complete {name}, leftovers to {nxt}."
    return Ask(_complete_args(b), say=rng.choice(say), terse=terse, refs=refs)


@goals.add("start_sprint", 0.8)
def start_sprint(b: Bundle, rng: random.Random) -> Ask | None:
    if b["mode"] != "closing":
        return None
    planned = list(b["planned"])
    if b["active"] is not None and b["complete_to"] is not None:
        sprint = b["complete_to"]
    else:
        filled = [s for s in planned if s["issues"]]
        if not filled:
            return None
        sprint = filled[0]
    name = sprint["name"]
    if b["active"] is None:
        return Ask({"sprint_id": sprint["sprint_id"]},
                   say=rng.choice([f"Kick off {name} today, please.", f"Please start {name}.",
                                   f"We're ready: start {name}."]),
                   terse=f"Start {name}.", refs=(_sprint_ref(b, sprint),), mentions=(name,))
    current = sprint_name(b, b["active"], rng)
    bare = name
    if current.startswith("'"):  # both sprints quoted or neither ("Wrap up 'Atlas Sprint 17', move the leftovers
        name = f"'{name}'"  # into Atlas Sprint 18" quoted one name of two, seed 131)
    if b["complete_to"] is None:
        say = [f"Wrap up {current} (leftovers to the backlog) and then start {name}.",
               f"Please end {current}, moving unfinished work to the backlog, and kick off {name}."]
        terse = f"Complete {current} (rest to the backlog), start {name}."
    else:  # the leftovers go into the sprint started: its name said once ("(rest to Atlas Sprint 26), start
        # Atlas Sprint 26")
        say = [f"Wrap up {current}, move the leftovers into {name} and then start it.",
               f"Please end {current}, moving unfinished work into {name}, and kick it off."]
        terse = f"Complete {current}, rest to {name}, start it."
    return Ask({"sprint_id": sprint["sprint_id"]}, say=rng.choice(say), terse=terse,
               refs=(_sprint_ref(b, b["active"]), _sprint_ref(b, sprint)), mentions=(bare,),
               prior=(("complete_sprint", _complete_args(b)),))


@goals.add("add_issue_to_sprint", 0.9)
def add_issue_to_sprint(b: Bundle, rng: random.Random) -> Ask | None:
    if b["mode"] != "planning":
        return None
    targets = ([b["active"]] if b["active"] else []) + list(b["planned"])
    issues = [i for i in _open(b, "sprint") if i["sprint_id"] is None]  # moving out of sprints is another request
    if not issues or not targets:
        return None
    issue = rng.choice(issues)
    choices = [s for s in targets if s["sprint_id"] != issue["sprint_id"]]
    if not choices:
        return None
    sprint = rng.choice(choices)
    n, sname = named(b, issue, rng), sprint_name(b, sprint, rng)
    name = n.words
    if rng.random() < 0.5:
        return Ask({"issue_id": n.arg, "sprint_id": sprint["sprint_id"]},
                   say=rng.choice([f"Please schedule {name} into a sprint.",
                                   f"{name[0].upper() + name[1:]} should go into a sprint."]),
                   detail=rng.choice([f"Put it in {sname}.", f"It belongs in {sname}."]),
                   terse=f"{name} -> {sname}.", refs=n.refs + (_sprint_ref(b, sprint),))
    return Ask({"issue_id": n.arg, "sprint_id": sprint["sprint_id"]},
               say=rng.choice([f"Pull {name} into {sname}.", f"Please add {name} to {sname}.",
                               f"Can we fit {name} into {sname}? Move it there."]),
               terse=f"{name} -> {sname}.", refs=n.refs + (_sprint_ref(b, sprint),))


@goals.add("move_issue_to_backlog", 0.7)
def move_issue_to_backlog(b: Bundle, rng: random.Random) -> Ask | None:
    if b["mode"] != "planning":
        return None
    issues = [i for i in _open(b, "sprint") if i["sprint_id"] is not None]
    if not issues:
        return None
    issue = rng.choice(issues)
    n = named_shown(b, issue, rng)
    name = n.words
    return Ask({"issue_id": n.arg},
               say=rng.choice([f"We won't get to {name} this sprint; move it back to the backlog.",
                               f"Take {name} out of its sprint and put it in the backlog.",
                               f"Please descope {name} to the backlog."]),
               terse=f"{name} -> backlog.", refs=n.refs)


# -- look-ups and hidden requests ------------------------------------------------------------------

# The introduction says who writes, never their project: every request of the asker's names the project
# itself, so "Bethany Griffin here, from the Nova project. Can you assign the issue 'X' in our Nova
# project to me" (seed 143) said Nova twice.
_INTRO = ("Hi, this is {name}.", "Hello, {name} here.", "Hey, it's {name}.", "I'm {name}.",
          "Hi there, {name} here.", "Good morning, this is {name}.", "{name} here.",
          "{name} speaking.", "This is {name}.", "My name is {name}.", "Hello from {name}.",
          "{name} writing.", "Hey there, {name} here.", "Hi, {name} here.", "It's {name}.",
          "Hello, it's {name}.", "Hi, I'm {name}.", "Good afternoon, {name} here.", "Hey, {name} here.")
# "From Ada Park." before "Comments on ...?" reads as whose comments are asked for: a terse opener says
# who is writing in a sentence of its own.
_INTRO_TERSE = ("{name} here.", "This is {name}.", "It's {name}.", "{name} writing.", "{name} speaking.",
                "Hi, {name} here.", "Hi, it's {name}.")


def _intro(ref: Ref) -> tuple[str, str]:
    """How the asker introduces themselves, by name alone (`ref`, their project, carrying who asks)."""
    name, short = ref.entity["asker"], ref.entity["short"]
    return (stable(_INTRO, "intro", ref.key, name).format(name=name, short=short),
            stable(_INTRO_TERSE, "terse", ref.key, name).format(name=name, short=short))


def _asker_intro(ref: Ref) -> tuple[str, str]:
    """The asker's introduction (by name: `_intro`) when their own look-up comes up; nothing
    for anyone else."""
    return _intro(ref.owner) if ref.entity.get("asker") and ref.owner is not None else ("", "")


def delete_request(b: Bundle, rng: random.Random) -> str | None:
    short = b["short"]
    return rng.choice([f"Please delete the whole {short} project, with all its issues and sprints.",
                       f"We're shutting down {short}. Wipe the project from the tracker entirely.",
                       f"Can you permanently remove the {short} project and everything in it?"])


def _saying_keys(goal: Goal) -> Goal:
    """The goal, whose requests say every issue key their calls take (a key is passed as it is said)."""
    def build(b: Bundle, rng: random.Random) -> Ask | None:
        ask = goal.build(b, rng)
        if ask is None:
            return None
        keys = [value for args in (ask.args, *(a for _, a in ask.prior)) for param, value in args.items()
                if param.endswith("issue_id") and not value.startswith("ISS-")]
        return dataclasses.replace(ask, mentions=ask.mentions + tuple(dict.fromkeys(keys))) if keys else ask
    return Goal(goal.tool, build, goal.weight)


# Tools that do one another's job for some request (an issue shows in the searches, a project in
# the project list): a missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("get_issue", "search_issues", "list_issues"),
    ("get_project", "list_projects"),
    # a sprint's points left are the points of its issues not done (listed by sprint and summed); a
    # velocity is the average of the completed points the sprint list shows for the closed sprints
    ("get_sprint_report", "list_issues", "search_issues"),
    ("get_velocity", "list_sprints"),
    # a member's email and job title show in their project's member list ("What's Audrey Turner's email
    # address?" with `find_users` hidden: an assistant that read it off the list of Orion's members was
    # right); everyone asked about is a member
    ("find_users", "list_project_members"),
)


recipe = Recipe(
    server="issue_tracker",
    sample=sample,
    topics=("projects",),
    substitutes=SUBSTITUTES,
    goals=[_saying_keys(goal) for goal in goals.all],
    lookups=(
        # the asker introduces themselves when looked up; no one needs their project's look-up first
        Lookup("user", "find_users", args=lambda r: {"name": r.entity["name"]}, needs=lambda r: (),
               intro=_asker_intro),
        # the project list shows each project's lead with their id: a lead who files an issue in their
        # own project is not looked up again ("Jennifer Burns from Apollo here ... file a bug in Apollo"
        # kept `find_users` after `list_projects` had shown her id, seed 129: 1.1 of 1.3 without it)
        Lookup("project", "list_projects", args=lambda r: {"name": r.entity["short"]},
               settles=lambda r: (("user", r.entity["lead"]["user_id"]),)),
        # an issue found by title shows its project's id: a later request about the project takes it
        Lookup("issue", "search_issues", needs=lambda r: (),
               args=lambda r: {"query": f'project = {r.owner.entity["key"]} AND title = "{r.entity["title"]}"'},
               settles=lambda r: (("project", r.owner.key),)),
        Lookup.under("sprint", "list_sprints"),
    ),
    hidden=(HiddenAsk("delete_project", delete_request),),
    # a project's issues, filtered any way it filters them, are one search by the project's name or
    # key, where the listing takes the project's id and so its look-up first (one call longer)
    skip={"list_issues": "a search by the project's name serves every filter it takes, one look-up shorter"},
)
