"""The seed: a 40-person company workspace with two months of history before the frozen "now".

Channels are public or private, a few archived, one with no messages yet; members join a varied
share of them (everyone is in #general). Messages carry @-mentions, threaded replies, reactions and
pins; some were edited (their earlier text kept as a revision) and a few deleted. Direct-message
conversations connect some pairs of members. Two members are deactivated. Members are active, away or
in do-not-disturb, some with a status text; the deactivated ones are away with none.
"""

from __future__ import annotations

import datetime as dt
import re

from prove_env.world import SeedContext

from .models import Channel, ChannelMember, Member, Mention, Message, Reaction, Revision

N_MEMBERS = 40
HISTORY_DAYS = 60
TITLES = ("Software Engineer", "Senior Software Engineer", "Product Manager", "Product Designer", "Data Analyst",
          "Engineering Manager", "Marketing Manager", "Account Executive", "Support Specialist", "Recruiter",
          "QA Engineer", "Site Reliability Engineer", "Content Strategist", "Sales Manager", "Office Manager",
          "Finance Associate", "UX Researcher", "Customer Success Manager")
# name, kind, topic, purpose, share of members, archived
CHANNELS = (
    ("general", "public", "Company-wide news and questions", "Everyone, everything", 1.0, False),
    ("random", "public", "Anything goes", "Non-work chatter and links", 0.8, False),
    ("announcements", "public", "Official updates only", "Company announcements", 0.9, False),
    ("engineering", "public", "Builds, deploys and code reviews", "Engineering discussion", 0.45, False),
    ("design", "public", "Mockups and design critique", "Product design", 0.3, False),
    ("marketing", "public", "Campaigns and launches", "Marketing team", 0.3, False),
    ("sales", "public", "Deals and pipeline", "Sales team", 0.3, False),
    ("customer-support", "public", "Escalations and ticket trends", "Support team", 0.3, False),
    ("product", "public", "Roadmap and specs", "Product management", 0.35, False),
    ("book-club", "public", "This month: The Pragmatic Programmer", "Monthly book club", 0.2, False),
    ("office-chicago", "public", "Chicago office logistics", "For people in the Chicago office", 0.25, False),
    ("new-hires", "public", None, "Welcome and onboarding questions", 0.15, False),
    ("hiring", "private", "Open roles and candidate feedback", "Hiring committee", 0.2, False),
    ("leadership", "private", "Leadership sync", "Managers only", 0.15, False),
    ("project-atlas", "private", "Atlas migration, target end of quarter", "Atlas project team", 0.2, False),
    ("security-incidents", "private", "Active incidents and follow-ups", "Security response", 0.15, False),
    ("q2-planning", "public", "Q2 planning (done)", "Q2 planning", 0.3, True),
    ("old-website", "public", "The 2024 website redesign", "Website redesign project", 0.25, True),
    ("offsite-2025", "private", "Offsite logistics", "Offsite planning committee", 0.2, True),
)
THINGS = ("the onboarding flow", "the billing page", "the Q3 roadmap", "the release notes", "the API docs",
          "the search results page", "the pricing experiment", "the mobile app", "the data pipeline",
          "the login bug", "the dashboard redesign", "the customer survey", "the launch checklist",
          "the staging deploy", "the invoice export", "the signup form", "the weekly report", "the style guide",
          "the support macros", "the database migration", "the beta feedback", "the holiday schedule",
          "the team offsite", "the hiring plan", "the load test", "the SSO integration", "the webinar deck",
          "the analytics dashboard", "the error budget", "the contract renewal")
OPENERS = ("Can someone take a look at {thing}?", "Heads up: {thing} is delayed until {day}.",
           "I pushed an update to {thing}.", "Reminder that {thing} review is on {day}.",
           "Does anyone know who owns {thing}?", "Great work on {thing}, everyone!",
           "Quick question about {thing}: is it blocked on anything?", "I'll share notes on {thing} by {day}.",
           "Status update: {thing} is about 80% done.", "Who has time on {day} to pair on {thing}?",
           "FYI {thing} is ready for feedback.", "Moving {thing} to next sprint.",
           "Found an issue with {thing}, writing it up now.", "Draft of {thing} is in the shared folder.",
           "Should we cancel the sync about {thing} on {day}?")
REPLIES = ("Thanks, looking now.", "On it.", "I can help with that.", "Agreed.", "Let's discuss at standup.",
           "Done, please check.", "Can we push this to next week?", "Looks good to me.", "Nice!",
           "I left a few comments.", "Not sure, let me ask around.", "+1", "Sounds good.", "Will do.")
DM_TEXTS = ("Hey, do you have a minute?", "Can we move our 1:1 to {day}?", "Thanks for the help earlier!",
            "Did you see my comment on {thing}?", "Lunch on {day}?", "Quick favor: can you review {thing}?",
            "Running five minutes late.", "Sent you the file.", "Sure, talk soon.", "Congrats on shipping {thing}!")
EMOJI = ("thumbsup", "eyes", "tada", "white_check_mark", "heart", "joy", "raised_hands", "fire", "pray", "100")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
# (presence, weight, the status texts people in it set, None for none)
PRESENCES = (("active", 11, (None, None, None, "Working remotely", "On a customer call", "Heads down on the release")),
             ("away", 6, (None, "Out for lunch", "On vacation until Monday", "Out sick today", "Commuting",
                          "At the dentist, back at 2pm")),
             ("do_not_disturb", 3, ("Focusing, slow to reply", "In meetings all afternoon", "Presenting at the offsite",
                                    None)))
HANDLE = re.compile(r"@([a-z0-9._-]+)")


def seed(ctx: SeedContext) -> None:
    rng = ctx.rng
    members: list[Member] = []
    for i in range(N_MEMBERS):
        first, last = ctx.person_name()
        handle = f"{first}.{last}".lower().replace("'", "").replace(" ", "")
        member = Member(id=ctx.new_id("USR"), name=f"{first} {last}", display_name=handle,
                        email=f"{handle}@northwind.io", title=rng.choice(TITLES),
                        status="deactivated" if i in (17, 33) else "active", joined_at=ctx.moment(-900, -70),
                        presence="away", status_text=None)
        members.append(member)
        ctx.add(member)
    active = [m for m in members if m.status == "active"]
    by_handle = {m.display_name: m for m in members}
    texts: set[str] = set()

    def text_for(templates: tuple[str, ...]) -> str:
        for _ in range(20):
            text = rng.choice(templates).format(thing=rng.choice(THINGS), day=rng.choice(DAYS))
            if text not in texts:
                break
        texts.add(text)
        return text

    def post(channel: Channel, author: Member, text: str, when: dt.datetime, parent: str | None = None) -> Message:
        message = Message(id=ctx.new_id("MSG", 5), channel_id=channel.id, author_id=author.id,
                          thread_parent_id=parent, text=text, posted_at=when, edited_at=None, deleted_at=None,
                          pinned_by=None, pinned_at=None)
        ctx.add(message)
        for handle in dict.fromkeys(HANDLE.findall(text)):
            if handle in by_handle and by_handle[handle].id != author.id:
                ctx.add(Mention(message_id=message.id, member_id=by_handle[handle].id))
        return message

    for name, kind, topic, purpose, share, archived in CHANNELS:
        creator = rng.choice(active)
        # a channel is created by someone already in the workspace
        created = max(ctx.moment(-400, -HISTORY_DAYS - 5), creator.joined_at + dt.timedelta(days=1))
        channel = Channel(id=ctx.new_id("CHN"), kind=kind, name=name, topic=topic, purpose=purpose,
                          created_by=creator.id, created_at=created,
                          archived_at=ctx.moment(-20, -2) if archived else None)
        ctx.add(channel)
        pool = members if name == "general" else [m for m in members if m is not creator and rng.random() < share]
        inside = sorted({creator.id: creator, **{m.id: m for m in pool}}.values(), key=lambda m: m.id)
        for member in inside:  # each joins once both the channel and their workspace account exist
            ctx.add(ChannelMember(channel_id=channel.id, member_id=member.id, joined_at=max(created, member.joined_at)))
        if name == "new-hires":
            continue  # no messages yet
        writers = [m for m in inside if m.status == "active"] or [creator]
        end = (channel.archived_at - ctx.now).days if channel.archived_at else 0
        count = rng.randint(6, 22) if name != "announcements" else 5
        times = sorted(ctx.moment(-HISTORY_DAYS, end - 0.1) for _ in range(count))
        for when in times:
            author = rng.choice(writers)
            text = text_for(OPENERS)
            if rng.random() < 0.3 and len(inside) > 1:
                other = rng.choice([m for m in inside if m.id != author.id])
                text = f"@{other.display_name} {text}"
            message = post(channel, author, text, when)
            if rng.random() < 0.15:  # edited: the earlier text is kept
                earlier = message.text
                message.text = earlier[:-1] + "!" if earlier.endswith(".") else earlier + " (updated)"
                message.edited_at = when + dt.timedelta(minutes=rng.choice((5, 20, 90)))
                ctx.add(Revision(id=ctx.new_id("REV"), message_id=message.id, text=earlier, written_at=when,
                                 replaced_at=message.edited_at))
            elif rng.random() < 0.05:
                message.deleted_at = when + dt.timedelta(minutes=30)
                continue
            if rng.random() < 0.12:
                message.pinned_by, message.pinned_at = rng.choice(writers).id, when + dt.timedelta(hours=2)
            for emoji in rng.sample(EMOJI, rng.choice((0, 0, 1, 1, 2, 3))):
                for reactor in rng.sample(writers, min(len(writers), rng.randint(1, 4))):
                    ctx.add(Reaction(message_id=message.id, member_id=reactor.id, emoji=emoji,
                                     added_at=when + dt.timedelta(minutes=10)))
            if rng.random() < 0.35:
                for k in range(rng.randint(1, 4)):
                    post(channel, rng.choice(writers), text_for(REPLIES) if k else rng.choice(REPLIES),
                         when + dt.timedelta(minutes=15 * (k + 1)), parent=message.id)

    pairs: set[tuple[str, str]] = set()
    for _ in range(45):
        a, b = rng.sample(active, 2)
        key = tuple(sorted((a.id, b.id)))
        if key in pairs:
            continue
        pairs.add(key)
        dm = Channel(id=ctx.new_id("CHN"), kind="dm", name=None, topic=None, purpose=None, created_by=a.id,
                     created_at=max(ctx.moment(-300, -HISTORY_DAYS), a.joined_at, b.joined_at), archived_at=None)
        ctx.add(dm)
        for member in sorted((a, b), key=lambda m: m.id):
            ctx.add(ChannelMember(channel_id=dm.id, member_id=member.id, joined_at=dm.created_at))
        for when in sorted(ctx.moment(-HISTORY_DAYS, -0.1) for _ in range(rng.randint(1, 5))):
            post(dm, rng.choice((a, b)), text_for(DM_TEXTS), when)

    # availability last, so that every earlier draw stays as it was
    for member in active:
        presence, _, texts = rng.choices(PRESENCES, weights=[p[1] for p in PRESENCES])[0]
        member.presence, member.status_text = presence, rng.choice(texts)
