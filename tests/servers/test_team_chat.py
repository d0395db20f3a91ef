"""The team_chat server through real MCP: every tool's success path, every rule refused with the
world unchanged, and the characteristic behaviours of a team chat (private channels, read-only
archived channels, author-only edits that keep the earlier text, threads, reactions, mentions,
pins, direct messages, search)."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from prove_env.registry import get_toolkit
from prove_env.world import worlds

CHANNELS = {"general": "CHN-0001", "announcements": "CHN-0003", "hiring": "CHN-0013", "project-atlas": "CHN-0015",
            "new-hires": "CHN-0012", "q2-planning": "CHN-0017", "old-website": "CHN-0018"}


@pytest.fixture
def s(served):
    return served("team_chat", include_hidden=True)


def test_seeded_channels_and_memberships_start_after_the_people_joined():
    """Nobody is in a channel or a direct-message conversation before they joined the workspace,
    and no channel was created before its creator joined it."""
    for seed in range(20):
        world = worlds.create(get_toolkit("team_chat"), seed)
        try:
            joined = {mid: dt.datetime.fromisoformat(at)
                      for mid, at in world.connection.execute("SELECT id, joined_at FROM members")}
            for channel, member, at in world.connection.execute(
                    "SELECT channel_id, member_id, joined_at FROM channel_members"):
                assert joined[member] <= dt.datetime.fromisoformat(at) <= world.now, \
                    f"seed {seed}: {member} is in {channel} since {at}, before joining the workspace"
            for channel, creator, at in world.connection.execute("SELECT id, created_by, created_at FROM channels"):
                assert joined[creator] <= dt.datetime.fromisoformat(at), \
                    f"seed {seed}: {channel} was created at {at}, before {creator} joined"
        finally:
            world.close()


def active(s) -> list[dict]:
    return s.ok("find_members", limit=100)


def inside(s, channel_id: str) -> tuple[dict, list[str]]:
    """An active member of the channel, and the ids of all its members."""
    for m in active(s):
        result = s.call("get_channel", user_id=m["member_id"], channel_id=channel_id)
        if result.ok and result.data["is_member"]:
            return m, [x["member_id"] for x in result.data["members"]]
    raise AssertionError(f"nobody active is in {channel_id}")


def outsider(s, channel_id: str) -> dict:
    _, members = inside(s, channel_id)
    return next(m for m in active(s) if m["member_id"] not in members)


def top_message(s, user_id: str, channel_id: str, where=lambda m: True) -> dict:
    for m in s.ok("list_messages", user_id=user_id, channel_id=channel_id, limit=100):
        if where(m):
            return m
    raise AssertionError(f"no such message in {channel_id}")


# -- the world --------------------------------------------------------------------------------------


def test_hidden_stats_and_the_seed_has_variety(s, served):
    stats = s.ok("workspace_stats")
    assert stats["members"] == 40 and stats["messages"] > 400 and stats["revisions"] > 10
    assert stats["reactions"] > 100 and stats["mentions"] > 20
    served("team_chat").fails("workspace_stats")  # hidden from the agent
    # an empty channel, archived channels, deactivated members
    uid = inside(s, CHANNELS["new-hires"])[0]["member_id"]
    assert s.ok("list_messages", user_id=uid, channel_id=CHANNELS["new-hires"]) == []
    everyone = s.ok("find_members", include_deactivated=True, limit=100)
    assert sum(m["status"] == "deactivated" for m in everyone) == 2 and len(active(s)) == 38


def test_find_members_by_name_or_handle(s):
    everyone = active(s)
    someone = everyone[5]
    assert someone in s.ok("find_members", name=someone["name"].split()[-1].upper())
    assert someone in s.ok("find_members", name="@" + someone["display_name"])
    gone = next(m for m in s.ok("find_members", include_deactivated=True, limit=100) if m["status"] == "deactivated")
    assert s.ok("find_members", name=gone["name"]) == []
    assert s.ok("find_members", name=gone["name"], include_deactivated=True) == [gone]


# -- channels -----------------------------------------------------------------------------------------


def test_private_channels_are_visible_only_to_their_members(s):
    hiring = CHANNELS["hiring"]
    member, _ = inside(s, hiring)
    other = outsider(s, hiring)
    assert hiring in {c["channel_id"] for c in s.ok("list_channels", user_id=member["member_id"])}
    assert hiring not in {c["channel_id"] for c in s.ok("list_channels", user_id=other["member_id"], limit=100)}
    s.fails("get_channel", "private channel and you are not a member", user_id=other["member_id"], channel_id=hiring)
    s.fails("list_messages", "private channel", user_id=other["member_id"], channel_id=hiring)
    s.fails("list_pins", "private channel", user_id=other["member_id"], channel_id=hiring)
    # nor searched
    secret = top_message(s, member["member_id"], hiring, lambda m: not m["deleted"])
    word = secret["text"].split()[-1]
    assert secret["message_id"] in {m["message_id"] for m in s.ok("search_messages", user_id=member["member_id"],
                                                                    query=word, limit=100)}
    assert secret["message_id"] not in {m["message_id"] for m in s.ok("search_messages", user_id=other["member_id"],
                                                                        query=word, limit=100)}


def test_list_channels_filters(s):
    uid = inside(s, CHANNELS["q2-planning"])[0]["member_id"]
    listed = s.ok("list_channels", user_id=uid)
    assert all(not c["is_archived"] for c in listed) and [c["name"] for c in listed] == sorted(c["name"] for c in listed)
    with_archived = s.ok("list_channels", user_id=uid, include_archived=True)
    assert CHANNELS["q2-planning"] in {c["channel_id"] for c in with_archived}
    joined = s.ok("list_channels", user_id=uid, joined_only=True)
    assert joined and all(c["is_member"] for c in joined)
    assert [c["name"] for c in s.ok("list_channels", user_id=uid, name="#GENERAL".lower())] == ["general"]


def test_get_channel_details_and_direct_message_ids_are_not_channels(s):
    uid = active(s)[0]["member_id"]
    general = s.ok("get_channel", user_id=uid, channel_id=CHANNELS["general"])
    assert general["member_count"] == 40 and general["is_member"] and general["purpose"]
    dm = s.ok("send_direct_message", user_id=uid, member_id=active(s)[1]["member_id"], text="hi")["channel_id"]
    s.fails("get_channel", "direct-message conversation", user_id=uid, channel_id=dm)
    s.fails("post_message", "direct-message conversation", user_id=uid, channel_id=dm, text="hello")


def test_join_public_channels_only(s):
    book = s.ok("list_channels", user_id="USR-0002", name="book-club")[0]
    assert not book["is_member"]
    joined = s.ok("join_channel", user_id="USR-0002", channel_id=book["channel_id"])
    assert joined["joined"] and s.ok("get_channel", user_id="USR-0002", channel_id=book["channel_id"])["is_member"]
    again = s.ok("join_channel", user_id="USR-0002", channel_id=book["channel_id"])
    assert again["already_member"] and not again["joined"]
    other = outsider(s, CHANNELS["hiring"])
    s.fails("join_channel", "ask one of its members to invite you", user_id=other["member_id"],
              channel_id=CHANNELS["hiring"])
    out = outsider(s, CHANNELS["old-website"])
    s.fails("join_channel", "read-only", user_id=out["member_id"], channel_id=CHANNELS["old-website"])


def test_leave_channel(s):
    atlas = CHANNELS["project-atlas"]
    member, _ = inside(s, atlas)
    uid = member["member_id"]
    left = s.ok("leave_channel", user_id=uid, channel_id=atlas)
    assert left["left"] and atlas not in {c["channel_id"] for c in s.ok("list_channels", user_id=uid, limit=100)}
    # a private channel left takes a new invitation
    s.fails("join_channel", "ask one of its members to invite you", user_id=uid, channel_id=atlas)
    s.fails("leave_channel", "private channel", user_id=uid, channel_id=atlas)
    s.fails("leave_channel", "cannot be left", user_id=uid, channel_id=CHANNELS["general"])
    book = s.ok("list_channels", user_id="USR-0002", name="book-club")[0]["channel_id"]
    s.fails("leave_channel", "not a member", user_id="USR-0002", channel_id=book)
    old_member, _ = inside(s, CHANNELS["old-website"])
    s.fails("leave_channel", "read-only", user_id=old_member["member_id"], channel_id=CHANNELS["old-website"])


def test_invite_to_channel(s):
    atlas = CHANNELS["project-atlas"]
    member, members = inside(s, atlas)
    newcomer = outsider(s, atlas)
    added = s.ok("invite_to_channel", user_id=member["member_id"], channel_id=atlas, member_id=newcomer["member_id"])
    assert added["added"] and s.ok("get_channel", user_id=newcomer["member_id"], channel_id=atlas)["is_member"]
    s.fails("invite_to_channel", "already a member", user_id=member["member_id"], channel_id=atlas,
              member_id=newcomer["member_id"])
    third = outsider(s, atlas)
    s.fails("invite_to_channel", "private channel", user_id=third["member_id"], channel_id=atlas,
              member_id=third["member_id"])
    gone = next(m for m in s.ok("find_members", include_deactivated=True, limit=100)
                if m["status"] == "deactivated" and m["member_id"] not in members)
    s.fails("invite_to_channel", "deactivated", user_id=member["member_id"], channel_id=atlas,
              member_id=gone["member_id"])
    # a public channel: only its members invite
    eng = s.ok("list_channels", user_id=third["member_id"], name="engineering")[0]
    if not eng["is_member"]:
        s.fails("invite_to_channel", "join it before inviting", user_id=third["member_id"],
                  channel_id=eng["channel_id"], member_id=newcomer["member_id"])
    old_member, _ = inside(s, CHANNELS["old-website"])
    s.fails("invite_to_channel", "read-only", user_id=old_member["member_id"], channel_id=CHANNELS["old-website"],
              member_id=newcomer["member_id"])


def test_create_channel_names(s):
    uid = active(s)[3]["member_id"]
    made = s.ok("create_channel", user_id=uid, name="#launch-week", is_private=True, topic="Launch logistics")
    assert made["name"] == "launch-week" and made["is_private"] and made["topic"] == "Launch logistics"
    assert s.ok("get_channel", user_id=uid, channel_id=made["channel_id"])["members"][0]["member_id"] == uid
    s.fails("create_channel", "already a channel named", user_id=uid, name="launch-week")
    s.fails("create_channel", "archived channel named #q2-planning", user_id=uid, name="q2-planning")
    s.fails("create_channel", "not valid", user_id=uid, name="Launch Week")
    s.fails("create_channel", "at most 250", user_id=uid, name="ok-name", topic="x" * 251)
    gone = next(m for m in s.ok("find_members", include_deactivated=True, limit=100) if m["status"] == "deactivated")
    s.fails("create_channel", "deactivated", user_id=gone["member_id"], name="mine")


def test_archive_channel_makes_it_read_only(s):
    sales = s.ok("list_channels", user_id="USR-0001", name="sales")[0]["channel_id"]
    member, _ = inside(s, sales)
    uid = member["member_id"]
    out = outsider(s, sales)
    s.fails("archive_channel", "only members can archive", user_id=out["member_id"], channel_id=sales)
    s.fails("archive_channel", "cannot be archived", user_id=uid, channel_id=CHANNELS["general"])
    message = top_message(s, uid, sales, lambda m: not m["deleted"])
    assert s.ok("archive_channel", user_id=uid, channel_id=sales)["is_archived"]
    s.fails("archive_channel", "already archived", user_id=uid, channel_id=sales)
    s.fails("post_message", "read-only", user_id=uid, channel_id=sales, text="still here?")
    s.fails("reply_in_thread", "read-only", user_id=uid, message_id=message["message_id"], text="hm")
    s.fails("add_reaction", "read-only", user_id=uid, message_id=message["message_id"], emoji="rocket")
    s.fails("pin_message", "read-only", user_id=uid, message_id=message["message_id"])
    s.fails("set_channel_topic", "read-only", user_id=uid, channel_id=sales, topic="New")
    # still readable and searchable
    assert s.ok("list_messages", user_id=uid, channel_id=sales)
    assert s.ok("search_messages", user_id=uid, channel_id=sales)
    assert sales not in {c["channel_id"] for c in s.ok("list_channels", user_id=uid)}


def test_unarchive_brings_a_channel_back_to_its_members(s):
    q2 = CHANNELS["q2-planning"]
    member, members = inside(s, q2)
    uid = member["member_id"]
    s.fails("unarchive_channel", "only its members can unarchive", user_id=outsider(s, q2)["member_id"], channel_id=q2)
    s.fails("unarchive_channel", "is not archived", user_id=uid, channel_id=CHANNELS["general"])
    s.fails("unarchive_channel", "direct-message conversation", user_id=uid,
            channel_id=s.ok("send_direct_message", user_id=uid, member_id=members[-1] if members[-1] != uid
                            else members[0], text="hi")["channel_id"])
    secret = CHANNELS["project-atlas"]  # a private channel: outsiders do not even see it
    s.fails("unarchive_channel", "private channel", user_id=outsider(s, secret)["member_id"], channel_id=secret)
    gone = next(m for m in s.ok("find_members", include_deactivated=True, limit=100) if m["status"] == "deactivated")
    s.fails("unarchive_channel", "deactivated", user_id=gone["member_id"], channel_id=q2)
    before = s.ok("get_channel", user_id=uid, channel_id=q2)
    back = s.ok("unarchive_channel", user_id=uid, channel_id=q2)
    assert not back["is_archived"] and back["archived_since"] == before["archived_at"]
    assert back["member_count"] == before["member_count"]
    after = s.ok("get_channel", user_id=uid, channel_id=q2)
    assert after["archived_at"] is None and after["members"] == before["members"] and after["topic"] == before["topic"]
    assert q2 in {c["channel_id"] for c in s.ok("list_channels", user_id=uid)}
    s.fails("unarchive_channel", "is not archived", user_id=uid, channel_id=q2)
    posted = s.ok("post_message", user_id=uid, channel_id=q2, text="Reopening this for Q3 planning.")
    assert posted["channel_id"] == q2
    # and it can be archived again, read-only once more
    s.ok("archive_channel", user_id=uid, channel_id=q2)
    s.fails("post_message", "read-only", user_id=uid, channel_id=q2, text="again?")


def test_members_set_their_own_status_and_others_read_it(s):
    me, other = active(s)[0], active(s)[1]
    uid = me["member_id"]
    profile, theirs = s.ok("get_member", member_id=uid), s.ok("get_member", member_id=other["member_id"])
    assert profile["presence"] in ("active", "away", "do_not_disturb") and profile["email"].endswith("@northwind.io")
    s.fails("set_status", "nothing to set", user_id=uid)
    s.fails("set_status", "at most 100 characters", user_id=uid, status_text="x" * 101)
    s.fails("set_status", "input should be 'active', 'away' or 'do_not_disturb'", user_id=uid, presence="busy")
    gone = next(m for m in s.ok("find_members", include_deactivated=True, limit=100) if m["status"] == "deactivated")
    s.fails("set_status", "deactivated", user_id=gone["member_id"], presence="active")
    assert (s.ok("get_member", member_id=gone["member_id"])["presence"], s.ok(
        "get_member", member_id=gone["member_id"])["status_text"]) == ("away", None)
    out = s.ok("set_status", user_id=uid, presence="do_not_disturb", status_text="  Heads down   until 3pm ")
    assert (out["presence"], out["status_text"]) == ("do_not_disturb", "Heads down until 3pm")
    seen = s.ok("get_member", member_id=uid)
    assert (seen["presence"], seen["status_text"]) == ("do_not_disturb", "Heads down until 3pm")
    s.repeat("set_status", user_id=uid, presence="do_not_disturb", status_text="Heads down until 3pm")
    # only what is given changes; an empty text clears the status
    assert s.ok("set_status", user_id=uid, presence="away")["status_text"] == "Heads down until 3pm"
    cleared = s.ok("set_status", user_id=uid, status_text="")
    assert (cleared["presence"], cleared["status_text"]) == ("away", None)
    # one member's status is theirs alone
    assert s.ok("get_member", member_id=other["member_id"]) == theirs


def test_set_channel_topic(s):
    uid = active(s)[0]["member_id"]
    general = CHANNELS["general"]
    assert s.ok("set_channel_topic", user_id=uid, channel_id=general, topic="  Hiring for two roles ")["topic"] == \
        "Hiring for two roles"
    assert s.ok("set_channel_topic", user_id=uid, channel_id=general, topic="")["topic"] is None
    book = s.ok("list_channels", user_id="USR-0002", name="book-club")[0]["channel_id"]
    s.fails("set_channel_topic", "join it before setting", user_id="USR-0002", channel_id=book, topic="x")
    s.fails("set_channel_topic", "at most 250", user_id=uid, channel_id=general, topic="y" * 300)


# -- messages ------------------------------------------------------------------------------------------


def test_list_messages_top_level_newest_first_by_date(s):
    uid = active(s)[0]["member_id"]
    page = s.ok("list_messages", user_id=uid, channel_id=CHANNELS["general"], limit=100)
    assert page and all(m["thread_parent_id"] is None for m in page)
    assert [m["posted_at"] for m in page] == sorted((m["posted_at"] for m in page), reverse=True)
    day = page[3]["posted_at"][:10]
    on_day = s.ok("list_messages", user_id=uid, channel_id=CHANNELS["general"], start_date=day, end_date=day)
    assert on_day and all(m["posted_at"].startswith(day) for m in on_day)
    s.fails("list_messages", "is after", user_id=uid, channel_id=CHANNELS["general"],
              start_date="2026-06-10", end_date="2026-06-01")


def test_threads(s):
    uid = active(s)[0]["member_id"]
    parent = top_message(s, uid, CHANNELS["general"], lambda m: m["reply_count"] > 1)
    thread = s.ok("get_thread", user_id=uid, message_id=parent["message_id"])
    assert thread["message_id"] == parent["message_id"] and len(thread["replies"]) == parent["reply_count"]
    reply = thread["replies"][-1]
    assert s.ok("get_thread", user_id=uid, message_id=reply["message_id"])["message_id"] == parent["message_id"]
    posted = s.ok("reply_in_thread", user_id=uid, message_id=parent["message_id"], text="Agreed, thanks!")
    assert posted["thread_parent_id"] == parent["message_id"]
    again = s.ok("get_thread", user_id=uid, message_id=parent["message_id"])
    assert again["replies"][-1]["message_id"] == posted["message_id"] and again["reply_count"] == parent["reply_count"] + 1
    # replies stay out of the channel's top level
    assert posted["message_id"] not in {m["message_id"] for m in s.ok("list_messages", user_id=uid,
                                                                        channel_id=CHANNELS["general"])}
    s.fails("reply_in_thread", "reply to " + parent["message_id"], user_id=uid, message_id=reply["message_id"],
              text="nested")


def test_reply_in_a_private_thread_needs_membership(s):
    hiring = CHANNELS["hiring"]
    member, _ = inside(s, hiring)
    parent = top_message(s, member["member_id"], hiring, lambda m: not m["deleted"])
    other = outsider(s, hiring)
    s.fails("reply_in_thread", "private channel and you are not a member", user_id=other["member_id"],
              message_id=parent["message_id"], text="Can I help?")
    s.fails("get_thread", "private channel", user_id=other["member_id"], message_id=parent["message_id"])
    assert s.ok("reply_in_thread", user_id=member["member_id"], message_id=parent["message_id"], text="Yes")


def test_post_message_needs_membership_and_records_mentions(s):
    uid = "USR-0002"
    target = active(s)[6]
    before = s.ok("list_mentions", user_id=target["member_id"], limit=100)
    posted = s.ok("post_message", user_id=uid, channel_id=CHANNELS["general"],
                  text=f"@{target['display_name']} the deploy is done")
    assert posted["author_id"] == uid and posted["channel"] == "#general" and not posted["edited"]
    after = s.ok("list_mentions", user_id=target["member_id"], limit=100)
    assert after[0]["message_id"] == posted["message_id"] and len(after) == len(before) + 1
    book = s.ok("list_channels", user_id=uid, name="book-club")[0]["channel_id"]
    s.fails("post_message", "join it with join_channel first", user_id=uid, channel_id=book, text="hi")
    other = outsider(s, CHANNELS["hiring"])
    s.fails("post_message", "ask one of its members to invite you", user_id=other["member_id"],
              channel_id=CHANNELS["hiring"], text="hi")
    s.fails("post_message", "1 to 4000 characters", user_id=uid, channel_id=CHANNELS["general"], text="   ")


def test_only_the_author_edits_and_the_earlier_text_is_kept(s):
    uid = active(s)[0]["member_id"]
    mine = s.ok("post_message", user_id=uid, channel_id=CHANNELS["general"], text="Demo is on Tuesday.")
    edited = s.ok("edit_message", user_id=uid, message_id=mine["message_id"], text="Demo is on Thursday.")
    assert edited["text"] == "Demo is on Thursday." and edited["edited"]
    s.ok("edit_message", user_id=uid, message_id=mine["message_id"], text="Demo is on Friday.")
    history = s.ok("get_message_history", user_id=uid, message_id=mine["message_id"])
    assert history["text"] == "Demo is on Friday."
    assert [r["text"] for r in history["earlier_revisions"]] == ["Demo is on Tuesday.", "Demo is on Thursday."]
    other = active(s)[1]["member_id"]
    s.fails("edit_message", "Only the author can edit", user_id=other, message_id=mine["message_id"], text="ha")
    # a seeded edit kept its earlier text too
    seeded = top_message(s, uid, CHANNELS["general"], lambda m: m["edited"])
    assert s.ok("get_message_history", user_id=uid, message_id=seeded["message_id"])["earlier_revisions"]


def test_only_the_author_deletes_and_the_message_stays_marked(s):
    uid = active(s)[0]["member_id"]
    mine = s.ok("post_message", user_id=uid, channel_id=CHANNELS["general"], text="Wrong channel, sorry")
    other = active(s)[1]["member_id"]
    s.fails("delete_message", "Only the author can delete", user_id=other, message_id=mine["message_id"])
    gone = s.ok("delete_message", user_id=uid, message_id=mine["message_id"])
    assert gone["deleted"]
    shown = s.ok("list_messages", user_id=uid, channel_id=CHANNELS["general"])[0]
    assert shown["message_id"] == mine["message_id"] and shown["deleted"] and shown["text"] == "This message was deleted."
    assert s.ok("search_messages", user_id=uid, query="wrong channel, sorry") == []
    s.fails("delete_message", "was deleted", user_id=uid, message_id=mine["message_id"])
    s.fails("edit_message", "was deleted", user_id=uid, message_id=mine["message_id"], text="x")
    s.fails("reply_in_thread", "was deleted", user_id=uid, message_id=mine["message_id"], text="x")
    assert s.ok("get_message_history", user_id=uid, message_id=mine["message_id"])["earlier_revisions"] == []


def test_archived_messages_cannot_be_edited_or_deleted(s):
    old = CHANNELS["old-website"]
    for m in active(s):
        page = s.ok("list_messages", user_id=m["member_id"], channel_id=old, limit=100)
        own = [x for x in page if x["author_id"] == m["member_id"] and not x["deleted"]]
        if own:
            s.fails("edit_message", "read-only", user_id=m["member_id"], message_id=own[0]["message_id"], text="x")
            s.fails("delete_message", "read-only", user_id=m["member_id"], message_id=own[0]["message_id"])
            return
    raise AssertionError("nobody wrote in #old-website")


def test_reactions(s):
    uid = active(s)[0]["member_id"]
    message = top_message(s, uid, CHANNELS["general"], lambda m: not m["deleted"])
    reacted = s.ok("add_reaction", user_id=uid, message_id=message["message_id"], emoji=":Rocket:")
    rocket = next(r for r in reacted["reactions"] if r["emoji"] == "rocket")
    assert uid in rocket["member_ids"] and rocket["count"] == len(rocket["member_ids"])
    s.fails("add_reaction", "already reacted", user_id=uid, message_id=message["message_id"], emoji="rocket")
    s.fails("add_reaction", "not an emoji name", user_id=uid, message_id=message["message_id"], emoji="thumbs up")
    other = active(s)[1]["member_id"]
    again = s.ok("add_reaction", user_id=other, message_id=message["message_id"], emoji="rocket")
    assert next(r for r in again["reactions"] if r["emoji"] == "rocket")["count"] == rocket["count"] + 1


def test_remove_only_your_own_reaction(s):
    uid = active(s)[0]["member_id"]
    message = top_message(s, uid, CHANNELS["general"], lambda m: any(r["member_ids"] for r in m["reactions"]))
    theirs = message["reactions"][0]
    assert "rocket" not in {r["emoji"] for r in message["reactions"]}
    s.ok("add_reaction", user_id=uid, message_id=message["message_id"], emoji="rocket")
    after = s.ok("remove_reaction", user_id=uid, message_id=message["message_id"], emoji=":rocket:")
    assert "rocket" not in {r["emoji"] for r in after["reactions"]}
    assert next(r for r in after["reactions"] if r["emoji"] == theirs["emoji"])["count"] == theirs["count"]
    stranger = next(m["member_id"] for m in active(s) if m["member_id"] not in theirs["member_ids"])
    s.fails("remove_reaction", "only your own reactions", user_id=stranger, message_id=message["message_id"],
              emoji=theirs["emoji"])
    old = CHANNELS["q2-planning"]
    old_member, _ = inside(s, old)
    reacted = top_message(s, old_member["member_id"], old, lambda m: any(r["member_ids"] for r in m["reactions"]))
    who = reacted["reactions"][0]["member_ids"][0]
    s.fails("remove_reaction", "read-only", user_id=who, message_id=reacted["message_id"],
              emoji=reacted["reactions"][0]["emoji"])


def test_unpin_message(s):
    uid = active(s)[0]["member_id"]
    pinned = s.ok("list_pins", user_id=uid, channel_id=CHANNELS["general"])
    assert pinned
    s.ok("unpin_message", user_id=uid, message_id=pinned[0]["message_id"])
    assert [m["message_id"] for m in s.ok("list_pins", user_id=uid, channel_id=CHANNELS["general"])] == \
        [m["message_id"] for m in pinned[1:]]
    s.fails("unpin_message", "is not pinned", user_id=uid, message_id=pinned[0]["message_id"])
    old = CHANNELS["q2-planning"]
    old_member, _ = inside(s, old)
    old_pin = s.ok("list_pins", user_id=old_member["member_id"], channel_id=old)[0]
    s.fails("unpin_message", "read-only", user_id=old_member["member_id"], message_id=old_pin["message_id"])


def test_pins(s):
    uid = active(s)[0]["member_id"]
    message = top_message(s, uid, CHANNELS["general"], lambda m: not m["pinned"] and not m["deleted"])
    before = s.ok("list_pins", user_id=uid, channel_id=CHANNELS["general"])
    assert s.ok("pin_message", user_id=uid, message_id=message["message_id"])["pinned"]
    pins = s.ok("list_pins", user_id=uid, channel_id=CHANNELS["general"])
    assert pins[0]["message_id"] == message["message_id"] and len(pins) == len(before) + 1
    s.fails("pin_message", "already pinned", user_id=uid, message_id=message["message_id"])
    book = s.ok("list_channels", user_id="USR-0002", name="book-club")[0]["channel_id"]
    in_book = top_message(s, "USR-0002", book, lambda m: not m["deleted"])
    s.fails("pin_message", "join it with join_channel first", user_id="USR-0002", message_id=in_book["message_id"])


def test_direct_messages(s):
    a, b = active(s)[0]["member_id"], active(s)[2]["member_id"]
    first = s.ok("send_direct_message", user_id=a, member_id=b, text="Can we move our 1:1?")
    second = s.ok("send_direct_message", user_id=b, member_id=a, text="Sure, Thursday works.")
    assert first["channel_id"] == second["channel_id"] and second["channel"] == "direct message"
    convo = s.ok("list_direct_messages", user_id=a, member_id=b)
    assert [m["text"] for m in convo[:2]] == ["Sure, Thursday works.", "Can we move our 1:1?"]
    assert s.ok("list_direct_messages", user_id=b, member_id=a) == convo
    # a third member can neither read nor search them
    c = active(s)[4]["member_id"]
    s.fails("get_thread", "between other members", user_id=c, message_id=first["message_id"])
    assert s.ok("search_messages", user_id=c, query="move our 1:1") == []
    assert s.ok("search_messages", user_id=a, query="move our 1:1")[0]["message_id"] == first["message_id"]
    gone = next(m for m in s.ok("find_members", include_deactivated=True, limit=100) if m["status"] == "deactivated")
    s.fails("send_direct_message", "deactivated", user_id=a, member_id=gone["member_id"], text="hi")
    s.fails("send_direct_message", "yourself", user_id=a, member_id=a, text="note to self")


def test_search_by_words_author_channel_and_date(s):
    uid = active(s)[0]["member_id"]
    hits = s.ok("search_messages", user_id=uid, query="STAGING deploy", limit=100)
    assert hits and all("staging deploy" in m["text"].lower() for m in hits)
    author = hits[0]["author_id"]
    by = s.ok("search_messages", user_id=uid, author_id=author, limit=100)
    assert by and all(m["author_id"] == author for m in by)
    day = by[0]["posted_at"][:10]
    dated = s.ok("search_messages", user_id=uid, author_id=author, start_date=day, end_date=day)
    assert by[0] in dated and all(m["posted_at"].startswith(day) for m in dated)
    in_general = s.ok("search_messages", user_id=uid, channel_id=CHANNELS["general"], limit=100)
    assert in_general and all(m["channel_id"] == CHANNELS["general"] for m in in_general)
    assert any(m["thread_parent_id"] for m in in_general)  # replies are searched too
    newest = s.ok("search_messages", user_id=uid, limit=100)  # no criterion: the newest messages one can read
    assert [m["posted_at"] for m in newest] == sorted((m["posted_at"] for m in newest), reverse=True)
    assert newest[0]["posted_at"] >= max(m["posted_at"] for m in hits + by + in_general)
    assert s.ok("search_messages", user_id=uid, query="  ", limit=100) == newest
    s.fails("search_messages", "private channel", user_id=outsider(s, CHANNELS["hiring"])["member_id"],
              channel_id=CHANNELS["hiring"])


def test_mentions_follow_the_current_text(s):
    uid, target = active(s)[0], active(s)[7]
    posted = s.ok("post_message", user_id=uid["member_id"], channel_id=CHANNELS["general"],
                  text=f"@{target['display_name']} please review")
    assert s.ok("list_mentions", user_id=target["member_id"])[0]["message_id"] == posted["message_id"]
    s.ok("edit_message", user_id=uid["member_id"], message_id=posted["message_id"], text="never mind")
    assert posted["message_id"] not in {m["message_id"] for m in s.ok("list_mentions", user_id=target["member_id"],
                                                                        limit=100)}


def test_an_edit_that_adds_a_mention_records_it(s):
    uid, target, third = active(s)[0], active(s)[7], active(s)[9]
    posted = s.ok("post_message", user_id=uid["member_id"], channel_id=CHANNELS["general"],
                  text="please review the deck")
    assert posted["mentions"] == []
    before = {m["message_id"] for m in s.ok("list_mentions", user_id=target["member_id"], limit=100)}
    assert posted["message_id"] not in before
    edited = s.ok("edit_message", user_id=uid["member_id"], message_id=posted["message_id"],
                  text=f"@{target['display_name']} please review the deck")
    assert edited["edited"] and [m["member_id"] for m in edited["mentions"]] == [target["member_id"]]
    assert s.ok("list_mentions", user_id=target["member_id"])[0]["message_id"] == posted["message_id"]
    # a second handle joins, the author's own handle mentions nobody, an unknown handle stays plain text
    both = s.ok("edit_message", user_id=uid["member_id"], message_id=posted["message_id"],
                text=f"@{target['display_name']} @{third['display_name']} @{uid['display_name']} @no.body review")
    assert {m["member_id"] for m in both["mentions"]} == {target["member_id"], third["member_id"]}
    assert s.ok("list_mentions", user_id=third["member_id"])[0]["message_id"] == posted["message_id"]
    assert posted["message_id"] not in {m["message_id"] for m in s.ok("list_mentions", user_id=uid["member_id"],
                                                                        limit=100)}
    history = s.ok("get_message_history", user_id=uid["member_id"], message_id=posted["message_id"])
    assert [r["text"] for r in history["earlier_revisions"]] == ["please review the deck",
                                                                 f"@{target['display_name']} please review the deck"]
    # only the author edits, so only the author adds mentions
    s.fails("edit_message", "only the author", user_id=target["member_id"], message_id=posted["message_id"],
            text=f"@{third['display_name']} hi")


def test_search_reads_message_bodies(s):
    uid = active(s)[0]["member_id"]
    reply = next(m for m in s.ok("search_messages", user_id=uid, channel_id=CHANNELS["general"], limit=100)
                 if m["thread_parent_id"] and len(m["text"].split()) >= 3)
    middle = reply["text"].split()[1].strip(".,!?:")
    hits = s.ok("search_messages", user_id=uid, query=middle.upper(), limit=100)
    assert reply["message_id"] in {m["message_id"] for m in hits}  # a word inside a reply's body
    assert all(middle.lower() in m["text"].lower() for m in hits)
    posted = s.ok("post_message", user_id=uid, channel_id=CHANNELS["general"], text="The zeppelin budget is approved.")
    assert [m["message_id"] for m in s.ok("search_messages", user_id=uid, query="budget zeppelin")] == [
        posted["message_id"]]  # every word, in any order
    s.ok("edit_message", user_id=uid, message_id=posted["message_id"], text="The airship budget is approved.")
    assert s.ok("search_messages", user_id=uid, query="zeppelin") == []  # the current body, not an earlier one
    channel_named = s.ok("search_messages", user_id=uid, query="random", limit=100)  # a channel's name is no body
    assert all("random" in m["text"].lower() for m in channel_named)
    s.ok("delete_message", user_id=uid, message_id=posted["message_id"])
    assert s.ok("search_messages", user_id=uid, query="airship") == []  # a deleted message's body is withheld


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------


def _call(tool: str, /, **arguments) -> dict:
    return {"name": tool, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play):
    from prove_env.task import Task

    post = Task(id="post", server="team_chat", seed=0,
                user_turns=["Hi, this is Megan Chang. Post \"Standup is cancelled tomorrow.\" in #general."],
                gold=[[{"id": "g1", "name": "find_members", "arguments": {"name": "Megan Chang"}},
                       {"id": "g2", "name": "list_channels", "arguments": {"user_id": "USR-0001", "name": "general"},
                        "depends_on": ["g1"]},
                       {"id": "g3", "name": "post_message", "depends_on": ["g2"],
                        "arguments": {"user_id": "USR-0001", "channel_id": "CHN-0001",
                                      "text": "Standup is cancelled tomorrow."}}]])
    # another correct path: the channel found in the full list, the text with stray spaces
    other = play(post, [_call("find_members", name="megan"), _call("list_channels", user_id="USR-0001"),
                        _call("post_message", user_id="USR-0001", channel_id="CHN-0001",
                              text=" Standup is cancelled tomorrow. "), "Posted."])
    assert other["success"] and other["reward_breakdown"]["coverage"] < 1
    # the right post, then damage nobody asked for: a channel archived
    damage = play(post, [_call("post_message", user_id="USR-0001", channel_id="CHN-0001",
                               text="Standup is cancelled tomorrow."),
                         _call("archive_channel", user_id="USR-0001", channel_id="CHN-0002"), "Posted."])
    assert not damage["success"]
    wrong = play(post, [_call("post_message", user_id="USR-0001", channel_id="CHN-0002",
                              text="Standup is cancelled tomorrow."), "Posted."])
    assert not wrong["success"]

    create = Task(id="create", server="team_chat", seed=0,
                  user_turns=["Megan Chang here. Create a channel called launch-week."],
                  gold=[[{"id": "g1", "name": "find_members", "arguments": {"name": "Megan Chang"}},
                         {"id": "g2", "name": "create_channel", "depends_on": ["g1"],
                          "arguments": {"user_id": "USR-0001", "name": "launch-week"}}]])
    # a topic the user did not ask for is a detail, not damage
    topic = play(create, [_call("create_channel", user_id="USR-0001", name="launch-week", topic="Launch logistics"),
                          "Created #launch-week."])
    assert topic["success"]
    private = play(create, [_call("create_channel", user_id="USR-0001", name="launch-week", is_private=True),
                            "Created."])
    assert not private["success"]


# -- synthesized requests ---------------------------------------------------------------------------

def test_which_reaction_to_remove_is_asked_only_of_someone_with_several_on_the_message():
    """'Take my reaction off that message' names the reaction when the user has only one there: the
    emoji is held back (the assistant asks which) only when they reacted with more than one."""
    import json
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    world = worlds.create(toolkit, 0)
    rng = random.Random("team_chat asks 0")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    goal = next(g for g in recipe.goals if g.tool == "remove_reaction")
    held = plain = 0
    for _ in range(80):
        ask = goal.build(rng.choice(bundles), rng)
        if ask is None:
            continue
        trial = world.clone()
        after = json.loads(toolkit(trial).run("remove_reaction", dict(ask.args)))
        trial.close()
        left = [r["emoji"] for r in after["reactions"] if ask.args["user_id"] in r["member_ids"]]
        if ask.detail:
            held += 1
            assert left, ask.say  # another reaction of theirs stays: 'my reaction' alone did not say which
            assert f":{ask.args['emoji']}:" not in ask.say, ask.say
        else:
            plain += 1
    world.close()
    assert held and plain


def test_a_channel_and_a_presence_may_be_said_in_plain_words():
    """'Which channels?' is answered by 'the hiring channel' as well as by '#hiring'; 'are they
    around?' by 'available' for someone active."""
    import json
    import random

    from prove_env.facts import facts_stated
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    world = worlds.create(toolkit, 0)
    rng = random.Random("team_chat asks 0")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    channels = presences = 0
    for goal in (g for g in recipe.goals if g.tool in ("search_messages", "get_member")):
        for _ in range(60):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None or (goal.tool == "search_messages" and "channel" not in ask.say.lower()):
                continue
            result = json.loads(toolkit(world).run(goal.tool, dict(ask.args)))
            if goal.tool == "search_messages":
                said = "; ".join(f"in the {m['channel'].lstrip('#')} channel" for m in result)
                channels += 1
            elif result["presence"] == "active":
                said = f"They're available. Status: {result['status_text']}"
                presences += 1
            else:
                continue
            assert facts_stated([ask.facts(result)], [said]), (ask.say, said)
    world.close()
    assert channels and presences


def test_a_quoted_message_ends_a_sentence_with_one_stop(goal_asks):
    """'... where Eric wrote "Draft is in the shared folder."', not '... folder.".'; a question that
    closes on a quoted question asks once ('... who owns the login bug?"', not '... bug?"?', seed 137,
    0004); a terse topic change says what to do ('Set the topic of #general to ...')."""
    quoted = asked = 0
    for goal, ask in goal_asks("team_chat", seeds=(0, 13700000)):
        for words in filter(None, (ask.say, ask.terse, ask.detail)):
            quoted += '."' in words
            asked += bool(re.search(r'[?!]"', words))
            assert not re.search(r'[.?!]"\.|[?!]"[?!]', words), (goal.tool, words)
        if goal.tool == "set_channel_topic":
            assert ask.terse.startswith("Set the topic of #"), ask.terse
    assert quoted and asked, "no request quotes a message that ends with a stop"


def test_a_request_asks_its_question_once_in_plain_words():
    """'What's #general for? What's its purpose?' asks the same thing twice; 'search Ann's
    messages from one day' is not how anyone says 'what Ann wrote on a certain day'."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    world = worlds.create(toolkit, 0)
    rng = random.Random("team_chat asks 0")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    seen = {"get_channel": 0, "search_messages": 0}
    for goal in (g for g in recipe.goals if g.tool in seen):
        for _ in range(120):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            seen[goal.tool] += 1
            if goal.tool == "get_channel":
                assert ask.say.count("?") <= 1, ask.say
            assert "from one day" not in ask.say, ask.say
    assert all(seen.values()), seen


def test_a_reply_and_the_message_it_answers_are_not_quoted_side_by_side():
    """'Reply to Mario's post in #random: "Moving the load test.": "Great, thanks!"' runs two quotes
    together with colons: no request sets one quote after another with only a colon between them."""
    import random
    import re

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    world = worlds.create(toolkit, 0)
    rng = random.Random("team_chat quotes")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    replies = 0
    for goal in recipe.goals:
        for _ in range(60):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            replies += goal.tool == "reply_in_thread" and ask.terse.count('"') == 4
            for words in (ask.say, ask.terse, ask.detail):
                assert not re.search(r'"[^"]*": "', words or ""), words
    assert replies


def test_a_message_named_with_a_colon_ends_the_sentence():
    """'I want to answer William's post in #marketing: "Who has time on Friday?", in its thread.' hangs
    words after a quote that a colon brought in: inside a sentence the message is named 'William's
    message in #marketing that says "..."', and a colon before a quote only where the quote ends it."""
    import random
    import re

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    world = worlds.create(toolkit, 0)
    rng = random.Random("team_chat colons")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    inside = ending = 0
    for goal in recipe.goals:
        for _ in range(60):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            for words in (ask.say, ask.terse, ask.detail):
                assert not re.search(r': "[^"]*"(?:[,;:]| [a-z])', words or ""), words
                ending += bool(re.search(r'post in [^"]*: "[^"]*"[.?]?$', words or ""))
                inside += bool(re.search(r'that says "[^"]*"(?:[,;:]| [a-z])', words or ""))
    assert ending and inside, (ending, inside)


def test_an_introduction_shares_no_words_with_an_aside_of_the_voice():
    """'Quick one from Joe Bowman. Quick one for you.' says the same words twice: no introduction holds
    two words in a row that an aside of the voice (a sentence it may set after the introduction, one
    that does not greet) holds too."""
    import re

    from prove_env.synthesis.voice import _ASIDES, greets
    from servers.team_chat.synth import INTROS

    def pairs(text: str) -> set[tuple[str, str]]:
        words = re.findall(r"[a-z']+", text.replace("{name}", " ").lower())
        return set(zip(words, words[1:]))

    asides = [a for register in _ASIDES.values() for a in register if not greets(a)]
    assert asides
    for intro in (i for both in INTROS for i in both):
        for aside in asides:
            assert not pairs(intro) & pairs(aside), (intro, aside)


def test_mentions_asked_as_messages_are_told_by_their_words_or_their_authors():
    """'Show me the messages where I was mentioned' is answered by quoting them as well as by naming
    who wrote them; 'Who mentioned me?' asks for the people."""
    import json
    import random

    from prove_env.facts import facts_stated
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    world = worlds.create(toolkit, 0)
    rng = random.Random("team_chat asks 0")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    goal = next(g for g in recipe.goals if g.tool == "list_mentions")
    asked = {"who": 0, "messages": 0}
    for _ in range(40):
        ask = goal.build(rng.choice(bundles), rng)
        if ask is None:
            continue
        result = json.loads(toolkit(world).run("list_mentions", dict(ask.args)))
        facts = ask.facts(result)
        if ask.say.startswith(("Who", "Did anyone")):
            asked["who"] += 1
            continue
        asked["messages"] += 1
        quoted = " ".join(f'"{m["text"]}"' for m in result)
        assert facts_stated([facts], [quoted]), (ask.say, facts)
    world.close()
    assert asked["who"] and asked["messages"]


def test_mentions_are_told_without_the_users_own_handle_in_front():
    """'My mentions?' is answered by quoting each mention without the user's own @handle in front
    ('Shelly in #product asked "Can someone take a look at the error budget?"' for '@briana.henson Can
    someone take a look at the error budget?'), the author named by first name only; the verbatim
    quote still states it."""
    import json
    import random

    from prove_env.facts import facts_stated
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    world = worlds.create(toolkit, 0)
    rng = random.Random("team_chat mentions 0")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    goal = next(g for g in recipe.goals if g.tool == "list_mentions")
    stripped = 0
    for _ in range(40):
        b = rng.choice(bundles)
        ask = goal.build(b, rng)
        if ask is None or ask.say.startswith(("Who", "Did anyone")):
            continue
        result = json.loads(toolkit(world).run("list_mentions", dict(ask.args)))
        facts = ask.facts(result)
        own = f"@{b['me']['display_name']} "
        told = " ".join(f'{m["author"].split()[0]} wrote "{m["text"].removeprefix(own)}"' for m in result)
        stripped += sum(m["text"].startswith(own) for m in result[:3])
        assert facts_stated([facts], [told]), (ask.say, facts, told)
        assert facts_stated([facts], [" ".join(f'"{m["text"]}"' for m in result)]), (ask.say, facts)
    world.close()
    assert stripped


def test_a_message_named_by_its_words_or_its_day_is_found_by_one_search():
    """'My message in #hiring that says "..."' or '... from August 28' is found the shortest way a
    shown tool offers: search_messages by the quoted words, or by the day (the user's own by author
    and day; another's within its channel, whose look-up the other routes take too), never through
    the channel's page (list_channels, then list_messages, for no request of its own). The search
    finds the message and no other of its channel by its author, and no gold calls a tool its task
    hides (a missing search_messages, or a tool whose substitute it is, takes no look-up with it)."""
    import json
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.compose import Composer
    from prove_env.synthesis.config import SynthConfig
    from prove_env.synthesis.graph import dependency_graph
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.toolkit import ToolError
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    specs = toolkit.specs()
    world = worlds.create(toolkit, 0)
    rng = random.Random("team_chat routes 0")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    config = SynthConfig(missing_function_rate=0.5, irrelevant_rate=0.0, hidden_rate=0.0, distractor_rate=0.0)
    composer = Composer(recipe, dependency_graph("team_chat"), bundles, config, rng)
    forms: set[tuple[str, ...]] = set()
    search_hidden = 0
    for draft in (composer.draft() for _ in range(80)):
        if draft is None:
            continue
        shown = {t["function"]["name"] for t in draft.tools}
        assert {c.name for c in draft.calls} <= shown, (draft.missing_tool, [c.name for c in draft.calls])
        search_hidden += "search_messages" not in shown
        goals = draft.metadata["goals"]
        assert [c.name for c in draft.chain].count("list_messages") <= goals.count("list_messages"), draft.user_turns
        trial = world.clone()
        results: dict[str, object] = {}
        try:
            for call in draft.chain:
                try:
                    results[call.id] = json.loads(toolkit(trial).run(call.name, dict(call.arguments)))
                except ToolError:
                    break
                if call.name == "search_messages" or "message" not in specs[call.name].consumes:
                    continue
                found = [results[d] for d in call.depends_on
                         if next(c for c in draft.chain if c.id == d).name == "search_messages"]
                assert found, (call.name, draft.user_turns)  # the message came from a search
                target = next(m for m in found[0] if m["message_id"] == call.arguments["message_id"])
                alike = [m for m in found[0] if (m["channel_id"], m["author_id"]) ==
                         (target["channel_id"], target["author_id"])]
                assert alike == [target], draft.user_turns
                search = next(c for c in draft.chain if c.id in call.depends_on and c.name == "search_messages")
                forms.add(tuple(sorted(set(search.arguments) - {"user_id"})))
                if "channel_id" in search.arguments:  # only where the day's search alone does not show it apart
                    wide = {k: v for k, v in search.arguments.items() if k != "channel_id"}
                    day = json.loads(toolkit(world).run("search_messages", wide))
                    assert [m for m in day if (m["channel_id"], m["author_id"]) ==
                            (target["channel_id"], target["author_id"])] != [target], draft.user_turns
        finally:
            trial.close()
    world.close()
    assert {("query",), ("author_id", "end_date", "start_date"), ("end_date", "start_date")} <= forms, forms
    assert search_hidden, "no draft hides search_messages"


def test_pins_are_told_without_the_handles_they_open_with():
    """'What's pinned in #engineering?' is answered by quoting each pin without the @handles it opens
    with ('Joanna Estes asked "Does anyone know who owns the error budget?"' for '@troy.castro Does
    anyone know who owns the error budget?'); the verbatim quote still states it."""
    import json
    import random
    import re

    from prove_env.facts import facts_stated
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    opening = re.compile(r"^(?:@[\w.\-]+\s+)+(?=\S)")
    goal = next(g for g in recipe.goals if g.tool == "list_pins")
    stripped = 0
    for seed in range(3):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"team_chat pins {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        for _ in range(20):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            result = json.loads(toolkit(world).run("list_pins", dict(ask.args)))
            facts = ask.facts(result)
            told = " ".join(f'{m["author"]} wrote "{opening.sub("", m["text"])}"' for m in result)
            stripped += sum(bool(opening.match(m["text"])) for m in result)
            assert facts_stated([facts], [told]), (ask.say, facts, told)
            assert facts_stated([facts], [" ".join(f'"{m["text"]}"' for m in result)]), (ask.say, facts)
        world.close()
    assert stripped


def test_pins_and_threads_are_never_hidden_while_a_search_of_the_channel_is_shown():
    """search_messages with the channel's id returns its messages, replies included, with their pin
    flag and their parent's id: list_pins, get_thread and list_messages are hidden only with it."""
    from prove_env.synthesis.recipe import get_recipe

    recipe = get_recipe("team_chat")
    for tool in ("list_pins", "get_thread", "list_messages"):
        assert "search_messages" in recipe.substitutes_of(tool), tool


def test_who_created_a_channel_and_what_it_is_for_are_asked_of_another_members_channel():
    """'I never understood what #announcements is meant for' is never asked by the member who created
    #announcements (nor 'who set up #x?' by its creator): the question is of a channel someone else created."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    goal = next(g for g in recipe.goals if g.tool == "get_channel")
    asked = own = 0
    for seed in range(2):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"team_chat get_channel {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        own += sum(d["created_by_id"] == b["me"]["member_id"] for b in bundles for d in b["details"].values())
        for b in bundles:
            for _ in range(15):
                ask = goal.build(b, rng)
                if ask is None:
                    continue
                asked += 1
                assert b["details"][ask.args["channel_id"]]["created_by_id"] != b["me"]["member_id"], ask.say
        world.close()
    assert asked and own


def test_another_members_message_named_by_its_day_is_found_by_that_days_search_alone():
    """"React to Karen Brown's message in #customer-support from September 13" is found by a search of
    September 13 alone, where its first page shows it with no other of Karen's in #customer-support:
    the channel and the author are read off the results, and looking the channel up first is a call
    more. The channel's look-up stays only where the day's search does not show the message apart;
    either way the search shows it with no other of its author's in its channel."""
    import json
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds
    from servers.team_chat.synth import message_name

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    named = {"day": 0, "channel": 0}
    for seed in (0, 10900000):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"team_chat days {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        for b in rng.sample(bundles, 8):
            uid = b["me"]["member_id"]
            pairs = [(c, m) for c in b["channels"] for m in b["pages"].get(c["channel_id"], [])
                     if m["author_id"] != uid and not m["deleted"]]
            for channel, message in rng.sample(pairs, min(12, len(pairs))):
                for draw in range(8):
                    said = message_name(b, channel, message, random.Random(draw))
                    if "start_date" in said.search:
                        break
                else:
                    continue
                when = message["posted_at"][:10]
                where = (message["channel_id"], message["author_id"])
                alike = lambda m: (m["channel_id"], m["author_id"]) == where  # noqa: E731, B023
                found = json.loads(toolkit(world).run("search_messages", {"user_id": uid, **said.search}))
                assert [m["message_id"] for m in found if alike(m)] == [message["message_id"]], said
                day = json.loads(toolkit(world).run("search_messages",
                                                    {"user_id": uid, "start_date": when, "end_date": when}))
                shown_apart = [m["message_id"] for m in day if alike(m)] == [message["message_id"]]
                if "channel_id" in said.search:
                    named["channel"] += 1
                    assert not shown_apart, (said, "the day's search alone shows it")
                    assert said.through, said
                else:
                    named["day"] += 1
                    assert shown_apart and not said.through, said
        world.close()
    assert named["day"], named


def test_a_members_messages_are_read_off_a_search_by_the_word_or_the_day_alone():
    """"Joseph Nielsen said something about the checklist somewhere. In which channel?" is answered
    by a search for "checklist" alone where its results fit a page: Joseph's messages are told by
    their author's name there, and looking Joseph up to filter by his id is a call more. The author
    is looked up only where the search alone fills a page; the facts are the author's messages'
    channels (or words) either way."""
    import json
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    goal = next(g for g in recipe.goals if g.tool == "search_messages")
    plain = 0
    for seed in (0, 10900000):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"team_chat search goal {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        direct = [m for member in json.loads(toolkit(world).run("find_members", {"limit": 100}))
                  for m in json.loads(toolkit(world).run("search_messages", {
                      "user_id": member["member_id"], "author_id": member["member_id"], "limit": 100}))
                  if m["channel"] == "direct message"]
        for _ in range(40):
            b = rng.choice(bundles)
            ask = goal.build(b, rng)
            if ask is None:
                continue
            author = next(o for o in b["others"] if o["name"] in ask.mentions)
            wide = {k: v for k, v in ask.args.items() if k != "author_id"}
            found = json.loads(toolkit(world).run("search_messages", wide))
            narrow = json.loads(toolkit(world).run("search_messages", {**wide, "author_id": author["member_id"]}))
            if "author_id" in ask.args:
                # kept where the search alone fills a page, or might (a conversation only one member
                # wrote in may be the user's: a direct message the sampler cannot rule out)
                ids = {m["message_id"] for m in found}
                unsure = [m for m in direct if m["message_id"] not in ids and
                          (wide.get("query", "") in m["text"].lower() if "query" in wide
                           else m["posted_at"][:10] == wide["start_date"])]
                assert len(found) + len(unsure) >= 20, (ask.say, len(found), "the search alone shows them all")
                assert [r.key for r in ask.refs if r.kind == "member"][-1] == author["member_id"], ask.refs
            else:
                plain += 1
                assert len(found) < 20 and all(r.kind != "member" or r.key == b["me"]["member_id"] for r in ask.refs)
                assert ask.facts(found) and ask.facts(found) == ask.facts(narrow), ask.say
        world.close()
    assert plain


def test_who_created_a_channel_and_when_records_the_day_it_was_created():
    """"Who created #random, and when?" is answered by the creator and the day: the creation day is a
    fact too ('Bobby Carlson, on September 15, 2025'), not the creator alone; the phrasings that ask
    only who set it up record only the creator."""
    import json
    import random

    from prove_env.facts import facts_stated
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    goal = next(g for g in recipe.goals if g.tool == "get_channel")
    asked = {"when": 0, "who": 0}
    world = worlds.create(toolkit, 11100000)
    rng = random.Random("team_chat created when")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    for _ in range(80):
        ask = goal.build(rng.choice(bundles), rng)
        if ask is None or "purpose" in ask.say or "meant for" in ask.say or " for?" in ask.say:
            continue
        result = json.loads(toolkit(world).run("get_channel", dict(ask.args)))
        facts = ask.facts(result)
        created = dt.date.fromisoformat(result["created_at"][:10])
        who = f"{result['created_by']} set it up."
        when = f"{result['created_by']} created it on {created:%B} {created.day}, {created.year}."
        if "when" in ask.say.lower() or "when" in ask.terse.lower():
            asked["when"] += 1
            assert facts_stated([facts], [when]) and not facts_stated([facts], [who]), (ask.say, facts)
        else:
            asked["who"] += 1
            assert facts_stated([facts], [who]), (ask.say, facts)
    world.close()
    assert asked["when"] and asked["who"], asked


def test_a_message_edited_with_an_updated_marker_is_quoted_with_or_without_it():
    """The world marks some edited messages by appending ' (updated)' to their words ("Who has time
    on Friday to pair on the launch checklist? (updated)"): "What's the newest thing in #random?"
    is answered right by quoting the words with the marker or without it ("... checklist?" (edited)),
    for the latest message, the pins, the last direct message and a member's messages of a day."""
    import json
    import random

    from prove_env.facts import facts_stated
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    tools = ("list_messages", "list_pins", "list_direct_messages", "search_messages")
    marked = dict.fromkeys(tools, 0)
    for seed in (0, 11100000):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"team_chat updated marker {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        for tool in tools:
            goal = next(g for g in recipe.goals if g.tool == tool)
            for _ in range(60):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None:
                    continue
                result = json.loads(toolkit(world).run(tool, dict(ask.args)))
                facts = ask.facts(result)
                if tool == "search_messages" and "query" in ask.args or not facts:
                    continue
                shown = result[:1] if tool in ("list_messages", "list_direct_messages") else result
                texts = [m["text"] for m in shown if tool != "search_messages" or m["author"] in ask.mentions]
                if not any(t.endswith(" (updated)") for t in texts):
                    continue
                marked[tool] += 1
                authors = " ".join(m["author"] for m in shown)
                bare = " ".join(f'"{t.removesuffix(" (updated)")}" (edited)' for t in texts)
                full = " ".join(f'"{t}"' for t in texts)
                assert facts_stated([facts], [f"{authors}: {bare}"]), (ask.say, facts)
                assert facts_stated([facts], [f"{authors}: {full}"]), (ask.say, facts)
        world.close()
    assert marked["list_messages"] and marked["list_pins"] and marked["search_messages"], marked


def test_the_replies_asked_for_are_told_by_their_authors_or_their_words():
    """"What did people answer in the thread on Bradley Green's message ...?" and "Can you show me the
    replies to ...?" ask what was said: 'They answered "Done, please check." and "Agreed."' says it
    right, as does naming who replied; only "Who replied to ...?" asks for the names alone."""
    import json
    import random

    from prove_env.facts import facts_stated
    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    goal = next(g for g in recipe.goals if g.tool == "get_thread")
    asked = {"who": 0, "what": 0}
    world = worlds.create(toolkit, 11300000)
    rng = random.Random("team_chat thread replies")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    for _ in range(60):
        ask = goal.build(rng.choice(bundles), rng)
        if ask is None:
            continue
        result = json.loads(toolkit(world).run("get_thread", dict(ask.args)))
        facts = ask.facts(result)
        names = "They were " + " and ".join(x["author"] for x in result["replies"]) + "."
        words = "They answered " + " and ".join(f'"{x["text"]}"' for x in result["replies"]) + "."
        assert facts_stated([facts], [names]), (ask.say, facts)
        if ask.say.startswith("Who replied"):
            asked["who"] += 1
            assert ask.terse.startswith("Who replied"), ask.terse
        else:
            asked["what"] += 1
            assert facts_stated([facts], [words]), (ask.say, facts)
    world.close()
    assert asked["who"] and asked["what"], asked


def test_an_edited_message_is_rewritten_without_the_updated_marker():
    """The world marks some edited messages by ending their words with ' (updated)'; the user who
    rewrites such a message gives new words without it, not "Great work on the search results page,
    everyone! (updated) Edit: details are in the doc."."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    goal = next(g for g in recipe.goals if g.tool == "edit_message")
    marked = 0
    for seed in (0, 11300000):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"team_chat edit marker {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        for _ in range(200):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None or "mention" in ask.say:
                continue
            assert "(updated)" not in ask.args["text"], ask.args["text"]
            marked += "(updated)" in ask.say
        world.close()
    assert marked


def test_a_search_word_is_said_with_an_article_only_where_it_takes_one():
    """"Melanie Tucker said something about billing somewhere", not "about the billing"; "the
    roadmap" keeps its article."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    goal = next(g for g in recipe.goals if g.tool == "search_messages")
    about = 0
    world = worlds.create(toolkit, 11300000)
    rng = random.Random("team_chat search word article")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    for _ in range(200):
        ask = goal.build(rng.choice(bundles), rng)
        if ask is None or "query" not in ask.args or " about " not in ask.say:
            continue
        about += 1
        for word in ("onboarding", "billing", "pricing", "staging", "signup"):
            assert f"about the {word}" not in ask.say, ask.say
    world.close()
    assert about


def test_whether_someone_is_around_is_told_in_the_words_people_use():
    """"Is Suzanne Johns around right now? What's their status?" is answered right by "Yes, she's
    around right now" for an active member, "she isn't around" for one away, and "DND" or
    "do-not-disturb" for one with notifications paused; "she isn't around" still says nothing of an
    active member."""
    import json
    import random

    from prove_env.facts import facts_stated
    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    goal = next(g for g in recipe.goals if g.tool == "get_member")
    right = {"active": ("Yes, {name} is around right now.", "{name} isn't away, you can reach them."),
             "away": ("No, {name} isn't around at the moment.", "{name} is not around right now."),
             "do_not_disturb": ("{name} is on DND.", "{name} is set to do-not-disturb.")}
    wrong = {"active": "No, {name} isn't around.", "away": "{name} is around.", "do_not_disturb": "{name} is away."}
    seen = dict.fromkeys(right, 0)
    world = worlds.create(toolkit, 11500000)
    rng = random.Random("team_chat presence words")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    for _ in range(200):
        ask = goal.build(rng.choice(bundles), rng)
        if ask is None:
            continue
        result = json.loads(toolkit(world).run("get_member", dict(ask.args)))
        facts = ask.facts(result)
        status = f' Their status says "{result["status_text"]}".' if result["status_text"] else ""
        name = result["name"]
        seen[result["presence"]] += 1
        for answer in right[result["presence"]]:
            assert facts_stated([facts], [answer.format(name=name) + status]), (answer, facts)
        assert not facts_stated([facts], [wrong[result["presence"]].format(name=name) + status]), facts
    world.close()
    assert all(seen.values()), seen


def _drawn(tool: str, seeds: tuple[int, ...], label: str, draws: int = 300):
    """(bundle, ask) for `draws` requests of `tool` on the worlds of `seeds` (None where none is drawn)."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    goal = next(g for g in recipe.goals if g.tool == tool)
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"team_chat {label} {seed}")
        try:
            bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
            for _ in range(draws):
                bundle = rng.choice(bundles)
                yield bundle, goal.build(bundle, rng)
        finally:
            world.close()


def test_a_message_is_called_mistaken_only_where_the_edit_puts_it_right():
    """"There's a mistake in my message ...; let's correct it." and "I need to fix ..." fit a weekday
    put right, not a line added ("... Update: this is done now."), which is asked as an edit or an
    update of the message."""
    seen = {"added": 0, "corrected": 0}
    for _, ask in _drawn("edit_message", (0, 11700000), "edit wording"):
        if ask is None or "mention" in ask.say:
            continue
        added = any(ask.args["text"].endswith(line) for line in
                    ("Update: this is done now.", "(Moved to next week.)", "Edit: details are in the doc."))
        seen["added" if added else "corrected"] += 1
        if added:
            assert "mistake" not in ask.say and " fix " not in ask.say, ask.say
    assert all(seen.values()), seen


def test_no_request_opens_with_a_clause_of_time_that_a_joiner_of_order_would_double():
    """A second request of a message may be joined by "After that," or "Then"; one that opens with
    "Before I ping ..." would read "After that, before I ping Kylie Miller: are they available?"."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    world = worlds.create(toolkit, 11700000)
    rng = random.Random("team_chat time clause")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    built = 0
    for goal in recipe.goals:
        for _ in range(40):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            built += 1
            for text in (ask.say, ask.terse):
                assert not re.match(r"(?:before|after|when|once|until)\b", text, re.IGNORECASE), text
    world.close()
    assert built


def test_mentions_edited_with_an_updated_marker_are_quoted_with_or_without_it():
    """'Show me the messages where I was mentioned' is answered right by quoting a mention that an edit
    left ending in ' (updated)' without that marker ('Jay asked "Can someone take a look at the Q3
    roadmap?"' for '@michelle.jones Can someone take a look at the Q3 roadmap? (updated)'), the
    author named by first name only; the verbatim quote still states it."""
    import json
    import random

    from prove_env.facts import facts_stated
    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("team_chat"), get_recipe("team_chat")
    goal = next(g for g in recipe.goals if g.tool == "list_mentions")
    marked = 0
    for seed in (0, 11900000):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"team_chat mentions marker {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        for _ in range(60):
            b = rng.choice(bundles)
            ask = goal.build(b, rng)
            if ask is None or ask.say.startswith(("Who", "Did anyone")):
                continue
            result = json.loads(toolkit(world).run("list_mentions", dict(ask.args)))[:3]
            if not any(m["text"].endswith(" (updated)") for m in result):
                continue
            marked += 1
            facts = ask.facts(result)
            own = f"@{b['me']['display_name']} "
            bare = " ".join(f'{m["author"].split()[0]} wrote "{m["text"].removeprefix(own).removesuffix(" (updated)")}"'
                            for m in result)
            assert facts_stated([facts], [bare]), (ask.say, facts, bare)
            assert facts_stated([facts], [" ".join(f'"{m["text"]}"' for m in result)]), (ask.say, facts)
        world.close()
    assert marked


def test_a_channel_shows_every_member_who_reads_it_the_same_page_pins_and_details():
    """The sampler reads a channel's messages, pins and details once for all its members: every
    member who can read a channel must see the same page and pins, and every member in it the same
    details, over many worlds (after writes, too)."""
    import json
    import random

    from prove_env.synthesis.recipe import Reader

    toolkit = get_toolkit("team_chat")
    for seed in range(4):
        world = worlds.create(toolkit, seed)
        try:
            tools, read = toolkit(world), Reader(toolkit, world)
            rng = random.Random(seed)
            members = read("find_members", limit=100)
            for step in range(2):
                seen: dict[tuple[str, str], object] = {}
                for member in members:
                    uid = member["member_id"]
                    for channel in read("list_channels", user_id=uid, include_archived=True):
                        cid = channel["channel_id"]
                        tools_read = [("list_messages", read("list_messages", user_id=uid, channel_id=cid)),
                                      ("list_pins", read("list_pins", user_id=uid, channel_id=cid))]
                        if channel["is_member"]:
                            tools_read.append(("get_channel", read("get_channel", user_id=uid, channel_id=cid)))
                        for tool, shown in tools_read:
                            assert seen.setdefault((tool, cid), shown) == shown, \
                                f"seed {seed}: {tool} of {cid} differs for {uid}"
                # a few writes between the rounds of reading: a post, a pin, a reaction
                author = rng.choice(members)["member_id"]
                mine = [c for c in read("list_channels", user_id=author) if c["is_member"] and not c["is_archived"]]
                if mine:
                    cid = rng.choice(mine)["channel_id"]
                    posted = json.loads(tools.run("post_message", {"user_id": author, "channel_id": cid,
                                                                   "text": f"round {step}"}))
                    for name in ("pin_message", "add_reaction"):
                        tools.run(name, {"user_id": author, "message_id": posted["message_id"],
                                         **({"emoji": "eyes"} if name == "add_reaction" else {})})
        finally:
            world.close()


def test_a_thread_reply_request_does_not_read_the_quoted_message_as_the_reply(goal_asks):
    """'I'd like to post a thread reply to Karen's message in #random that says "I'll share notes..."'
    reads two ways when the reply's words are held back (seed 147, 0005): the quote may be the reply
    itself. A request that quotes the message it answers says 'the thread of' that message instead;
    a terse status change says what to do ('Set me to ...', not 'Me: ...')."""
    quoting = 0
    for goal, ask in goal_asks("team_chat", seeds=(0, 14700000)):
        if goal.tool == "reply_in_thread" and 'that says "' in ask.say:
            quoting += 1
            assert not re.search(r"\breply to (?!the thread of)", ask.say, re.I), ask.say
        if goal.tool == "set_status":
            assert not ask.terse.startswith("Me:"), ask.terse
    assert quoting, "no thread reply quotes the message it answers"


def test_a_latest_message_request_asks_who_posted_it(goal_asks):
    """'Catch me up: what's the newest thing in #sales?' (seed 149, 0009) required the author's name
    as a fact, so quoting the message alone failed. Every wording of the latest-message request,
    the terse one too, asks who posted it as well as what it says."""
    latest = 0
    for goal, ask in goal_asks("team_chat", seeds=(0, 14900000)):
        if goal.tool == "list_messages":
            latest += 1
            for text in (ask.say, ask.terse):
                assert re.search(r"\bwho\b", text, re.I), text
    assert latest, "no latest-message request drawn"


def test_back_at_my_desk_is_not_said_over_a_status_message():
    """'I'm back at my desk; set me to active.' was asked by a member whose status still said 'On
    vacation until Monday' (seed 151, 0006): the gold leaves that text standing, so a model that
    clears it too is scored wrong. The words come only from a member with no status message."""
    said = {"desk": 0, "texted": 0}
    for bundle, ask in _drawn("set_status", (0, 15100000), "back at my desk"):
        if ask is None or ask.args.get("presence") != "active":
            continue
        if bundle["profile"]["status_text"]:
            said["texted"] += 1
            assert "back at my desk" not in ask.say, (ask.say, bundle["profile"])
        elif "back at my desk" in ask.say:
            said["desk"] += 1
    assert said["texted"] and said["desk"], said


def test_an_edit_request_never_puts_the_old_words_after_a_colon():
    """'Please edit my post in the #random channel: "Status update: ... 80% done."' (seed 153, 0002),
    its new words held for the next turn, reads the quote as the new text. An edit names its message
    with 'that says' (or its day), never a colon before the old words; the terse @-mention edit says
    what to do ('put an @-mention of ... in front', not 'prefix @-mention of ...')."""
    quoted = 0
    for _, ask in _drawn("edit_message", (0, 15300000), "edit colon"):
        if ask is None:
            continue
        for text in (ask.say, ask.terse):
            assert not re.search(r': "', text.split(" to \"")[0] if text is ask.terse else text), text
            assert "prefix @-mention" not in text, text
        quoted += 'that says "' in ask.say
    assert quoted, "no edit request quotes the message's words"


def test_a_day_search_said_whole_names_its_day_outright():
    """'Can you find what Tara Hall wrote on a certain day? The day was July 7.' was said in one
    message (seed 155, 0002): the wording that holds the day back for a later turn read stiffly when
    the day followed at once. A request that holds its day back offers a plain wording naming it."""
    held = 0
    for _, ask in _drawn("search_messages", (0, 15500000), "day search"):
        if ask is None or ask.detail is None:
            continue
        held += 1
        assert ask.plain and "certain day" not in ask.plain and "particular day" not in ask.plain, ask
        assert all(m in ask.plain for m in ask.mentions), (ask.plain, ask.mentions)
    assert held, "no day search holds its day back"
