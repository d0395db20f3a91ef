"""The team_chat server's tools: a company workspace's members, channels, messages, threads,
reactions, pins, direct messages and search.

Every tool acts as one member (`user_id`), the person using the app. Rules, in one place:
- A private channel is visible only to its members: only they see it listed, read it, search it
  or post to it. Anyone may read and search a public channel; posting needs membership (join a
  public channel first; a private one needs an invitation from a member).
- Archived channels are read-only: no posts, replies, edits, deletions, reactions, pins, topic
  changes, joins or invitations.
- Only a message's author edits or deletes it. History is append-only: an edit keeps the earlier
  text as a revision, and a deleted message stays in place, marked deleted, its text withheld.
- Replies go in the thread of a top-level message (a reply cannot start a thread of its own).
- Deactivated members cannot be invited or sent direct messages.
- Each member sets their own availability (active, away or do not disturb) and status text, at most
  100 characters; a deactivated member shows as away with no status.
- An archived channel is brought back only by one of its members, with its members and history.
- Mentions follow a message's current text: '@handle' in a post or an edit mentions that member (the
  author excepted), and an edit that drops the handle drops the mention.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict

from typing import Literal

from sqlalchemy import func, or_, select

from prove_env.toolkit import (
    Date,
    Detail,
    Entity,
    Id,
    Limit,
    ToolError,
    Toolkit,
    check_range,
    tool,
)

from .models import (
    Base,
    Channel,
    ChannelMember,
    Member,
    Mention,
    Message,
    Reaction,
    Revision,
)
from .seed import HANDLE, seed

MAX_TEXT = 4000
MAX_TOPIC = 250
MAX_PINS = 100
MAX_STATUS = 100
PRESENCES = ("active", "away", "do_not_disturb")
Presence = Literal["active", "away", "do_not_disturb"]
CHANNEL_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,79}$")
EMOJI_NAME = re.compile(r"^[a-z0-9_+-]{1,40}$")


class TeamChat(Toolkit):
    """A company's team chat workspace: find members and channels, read and search messages and
    threads, post, reply, edit and delete your own messages, react, pin, manage channels, and send
    direct messages. Every tool acts as the member given as user_id; private channels are visible
    only to their members, and archived channels are read-only."""

    name = "team_chat"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("member", Member, "USR", lookup="find_members"),
        Entity("channel", Channel, "CHN", lookup="list_channels"),
        Entity("message", Message, "MSG", lookup="list_messages", width=5),
    )

    # -- members ---------------------------------------------------------------------------------

    @tool(read_only=True)
    def find_members(self, name: str | None = None, include_deactivated: bool = False, limit: Limit = 20) -> list[dict]:
        """Find workspace members by part of their full name or @handle, ordered by member id; all members without one.

        Args:
            name: part of the full name or handle, case-insensitive, such as 'Ada Park', 'park' or 'ada.park'.
            include_deactivated: also list deactivated members (default false).
        """
        members = self.find(Member, name=name, name_columns=("name", "display_name"), name_lstrip="@",
                            where="" if include_deactivated else "status = 'active'", limit=limit,
                            columns=("id", "name", "display_name", "title", "status"))
        return [{"member_id": m.id, "name": m.name, "display_name": m.display_name, "title": m.title,
                 "status": m.status} for m in members]

    @tool(read_only=True)
    def get_member(self, member_id: Id("member")) -> dict:
        """Return a member's profile: full name, @handle, title, email, account status, when they joined,
        and their availability ('active', 'away' or 'do_not_disturb', notifications paused) with their
        status text.

        Args:
            member_id: the member, such as 'USR-0012'.
        """
        member = self.get(Member, member_id)
        return {**_member(member), "email": member.email, "joined_at": member.joined_at,
                "presence": member.presence, "status_text": member.status_text}

    @tool(idempotent=True)
    def set_status(self, user_id: Id("member"), presence: Presence | None = None,
                   status_text: str | None = None) -> dict:
        """Set the user's own availability and status text, as their profile shows them; only what is
        given changes, and an empty status_text clears the status.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
            presence: 'active', 'away' or 'do_not_disturb' (notifications paused).
            status_text: what others see beside the name, at most 100 characters, such as 'Out for lunch';
                an empty text clears it.
        """
        user = self._active(user_id)
        if presence is None and status_text is None:
            raise ToolError("Nothing to set: give a presence ('active', 'away' or 'do_not_disturb'), a status_text, "
                            "or both")
        if status_text is not None:
            text = " ".join(status_text.split())
            if len(text) > MAX_STATUS:
                raise ToolError(f"A status text is at most {MAX_STATUS} characters, got {len(text)}; shorten it")
            user.status_text = text or None
        if presence is not None:
            user.presence = presence
        return {"member_id": user.id, "name": user.name, "presence": user.presence, "status_text": user.status_text}

    # -- channels --------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_channels(self, user_id: Id("member"), name: str | None = None, joined_only: bool = False,
                      include_archived: bool = False, limit: Limit = 50) -> list[dict]:
        """List the channels the user can see, by name: every public channel and the private ones they belong to.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
            name: part of the channel name, with or without '#', such as 'design' or '#project-atlas'.
            joined_only: only channels the user is a member of (default false).
            include_archived: also list archived channels (default false).
        """
        user = self.get(Member, user_id)
        sql = ("SELECT c.id, c.name, c.kind, c.archived_at IS NOT NULL, c.topic, "
               "(SELECT count(*) FROM channel_members x WHERE x.channel_id = c.id), "
               "EXISTS (SELECT 1 FROM channel_members y WHERE y.channel_id = c.id AND y.member_id = ?) AS mine "
               "FROM channels c WHERE (c.kind = 'public' OR (c.kind = 'private' AND mine))")
        params: list[object] = [user.id]
        if joined_only:
            sql += " AND mine"
        if not include_archived:
            sql += " AND c.archived_at IS NULL"
        if name and name.strip():
            sql, params = sql + " AND instr(c.name, ?) > 0", [*params, name.strip().lstrip("#").lower()]
        rows = self.rows(sql + " ORDER BY c.name LIMIT ?", *params, limit)
        return [{"channel_id": cid, "name": cname, "is_private": kind == "private", "is_archived": bool(archived),
                 "topic": topic, "member_count": count, "is_member": bool(mine)}
                for cid, cname, kind, archived, topic, count, mine in rows]

    @tool(read_only=True)
    def get_channel(self, user_id: Id("member"), channel_id: Id("channel")) -> dict:
        """Return a channel in full: topic, purpose, creator, creation and archive dates, members and pinned count.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
        """
        user, channel = self.get(Member, user_id), self._channel(channel_id)
        self._readable(user, channel)
        members = self.db.execute(select(Member.id, Member.name).join(ChannelMember, ChannelMember.member_id == Member.id)
                                  .where(ChannelMember.channel_id == channel.id).order_by(Member.name)).all()
        pinned = self.db.scalar(select(func.count()).select_from(Message).where(
            Message.channel_id == channel.id, Message.pinned_at.is_not(None), Message.deleted_at.is_(None)))
        creator = self.db.get(Member, channel.created_by)
        return {**_channel(channel), "purpose": channel.purpose, "created_by": creator.name,
                "created_by_id": creator.id, "created_at": channel.created_at, "archived_at": channel.archived_at,
                "member_count": len(members), "is_member": any(m == user.id for m, _ in members),
                "members": [{"member_id": m, "name": n} for m, n in members], "pinned_count": pinned}

    @tool(idempotent=True, sets=("channel.joined",))
    def join_channel(self, user_id: Id("member"), channel_id: Id("channel")) -> dict:
        """Join a public channel. Private channels need an invitation from one of their members.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
        """
        user, channel = self._active(user_id), self._channel(channel_id)
        if channel.kind == "private" and not self._is_member(user.id, channel.id):
            raise ToolError(f"#{channel.name} is a private channel; ask one of its members to invite you")
        self._not_archived(channel, "joined")
        if self._is_member(user.id, channel.id):
            return {**_channel(channel), "member_id": user.id, "joined": False, "already_member": True}
        self.db.add(ChannelMember(channel_id=channel.id, member_id=user.id, joined_at=self.now))
        return {**_channel(channel), "member_id": user.id, "joined": True, "already_member": False}

    @tool(destructive=True)
    def leave_channel(self, user_id: Id("member"), channel_id: Id("channel")) -> dict:
        """Leave a channel the user belongs to. Everyone stays in #general; rejoining a private channel
        takes a new invitation.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
        """
        user, channel = self._active(user_id), self._channel(channel_id)
        self._readable(user, channel)
        if not self._is_member(user.id, channel.id):
            raise ToolError(f"You are not a member of #{channel.name}")
        if channel.name == "general":
            raise ToolError("Everyone stays in #general, the workspace's default channel; it cannot be left")
        self._not_archived(channel, "left")
        self.db.delete(self.db.get(ChannelMember, (channel.id, user.id)))
        return {**_channel(channel), "member_id": user.id, "left": True}

    @tool()
    def invite_to_channel(self, user_id: Id("member"), channel_id: Id("channel"), member_id: Id("member")) -> dict:
        """Add another member to a channel the user belongs to (public or private).

        Args:
            user_id: the member using the app, who must belong to the channel, such as 'USR-0007'.
            member_id: the member to add, such as 'USR-0012'.
        """
        user, channel = self._active(user_id), self._channel(channel_id)
        invitee = self.get(Member, member_id)
        self._readable(user, channel)
        self._not_archived(channel, "changed")
        if not self._is_member(user.id, channel.id):
            raise ToolError(f"You are not a member of #{channel.name}; join it before inviting others")
        if invitee.status != "active":
            raise ToolError(f"{invitee.name} ({invitee.id}) is deactivated and cannot be added to channels")
        if self._is_member(invitee.id, channel.id):
            raise ToolError(f"{invitee.name} is already a member of #{channel.name}")
        self.db.add(ChannelMember(channel_id=channel.id, member_id=invitee.id, joined_at=self.now))
        return {**_channel(channel), "member_id": invitee.id, "member_name": invitee.name, "added": True}

    @tool(produces=("channel",), details=(Detail("channels", "topic"),))
    def create_channel(self, user_id: Id("member"), name: str, is_private: bool = False, topic: str | None = None) -> dict:
        """Create a channel; the user becomes its first member.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
            name: the channel name: lowercase letters, digits, '-' and '_', 1 to 80 characters, no spaces,
                unique in the workspace (archived channels included), such as 'launch-week'.
            is_private: a private channel, visible only to its members (default false: public).
            topic: an optional topic, at most 250 characters, such as 'Launch logistics'.
        """
        user = self._active(user_id)
        name = name.strip().lstrip("#")
        if not CHANNEL_NAME.match(name):
            raise ToolError(f"Channel name {name!r} is not valid: use 1 to 80 lowercase letters, digits, '-' or '_', "
                            "with no spaces, such as 'launch-week'")
        taken = self.db.scalar(select(Channel).where(Channel.name == name))
        if taken is not None:
            state = "an archived" if taken.archived_at else "a"
            raise ToolError(f"There is already {state} channel named #{name} ({taken.id}); pick another name")
        channel = Channel(id=self.new_id("CHN"), kind="private" if is_private else "public", name=name,
                          topic=self._topic(topic), purpose=None, created_by=user.id, created_at=self.now,
                          archived_at=None)
        self.db.add(channel)
        self.db.add(ChannelMember(channel_id=channel.id, member_id=user.id, joined_at=self.now))
        return {**_channel(channel), "member_count": 1, "is_member": True}

    @tool(destructive=True, sets=("channel.archived",))
    def archive_channel(self, user_id: Id("member"), channel_id: Id("channel")) -> dict:
        """Archive a channel the user belongs to: it stays readable and searchable, but nobody can post to it.
        #general cannot be archived.

        Args:
            user_id: the member using the app, who must belong to the channel, such as 'USR-0007'.
        """
        user, channel = self._active(user_id), self._channel(channel_id)
        self._readable(user, channel)
        if channel.archived_at is not None:
            raise ToolError(f"#{channel.name} is already archived (since {channel.archived_at.date().isoformat()})")
        if channel.name == "general":
            raise ToolError("#general is the workspace's default channel and cannot be archived")
        if not self._is_member(user.id, channel.id):
            raise ToolError(f"You are not a member of #{channel.name}; only members can archive it")
        channel.archived_at = self.now
        return {**_channel(channel), "archived_at": channel.archived_at}

    @tool(requires=("channel.archived",))
    def unarchive_channel(self, user_id: Id("member"), channel_id: Id("channel")) -> dict:
        """Bring an archived channel back: it takes posts, replies and reactions again, with its members,
        topic and history as they were. Only a member of the channel can unarchive it.

        Args:
            user_id: the member using the app, who must belong to the channel, such as 'USR-0007'.
        """
        user, channel = self._active(user_id), self._channel(channel_id)
        self._readable(user, channel)
        if channel.archived_at is None:
            raise ToolError(f"#{channel.name} is not archived; it already takes posts")
        if not self._is_member(user.id, channel.id):
            raise ToolError(f"You are not a member of #{channel.name}; only its members can unarchive it")
        archived = channel.archived_at
        channel.archived_at = None
        members = self.rows("SELECT count(*) FROM channel_members WHERE channel_id = ?", channel.id)[0][0]
        return {**_channel(channel), "archived_since": archived, "member_count": members}

    @tool(idempotent=True)
    def set_channel_topic(self, user_id: Id("member"), channel_id: Id("channel"), topic: str) -> dict:
        """Set the topic shown at the top of a channel the user belongs to; an empty topic clears it.

        Args:
            user_id: the member using the app, who must belong to the channel, such as 'USR-0007'.
            topic: the new topic, at most 250 characters, such as 'Release on Friday'.
        """
        user, channel = self._active(user_id), self._channel(channel_id)
        self._readable(user, channel)
        self._not_archived(channel, "changed")
        if not self._is_member(user.id, channel.id):
            raise ToolError(f"You are not a member of #{channel.name}; join it before setting its topic")
        channel.topic = self._topic(topic)
        return _channel(channel)

    # -- messages --------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_messages(self, user_id: Id("member"), channel_id: Id("channel"), start_date: Date | None = None,
                      end_date: Date | None = None, limit: Limit = 20) -> list[dict]:
        """List a channel's top-level messages, newest first, with their reply counts, reactions and pin state.

        Thread replies are read with get_thread. Dates are inclusive and compare the posting date.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
            start_date: the earliest posting date, such as '2026-07-01'.
            end_date: the latest posting date, such as '2026-07-31'.
        """
        user, channel = self.get(Member, user_id), self._channel(channel_id)
        self._readable(user, channel)
        check_range(start_date, end_date)
        sql, params = "SELECT id FROM messages WHERE channel_id = ? AND thread_parent_id IS NULL", [channel.id]
        if start_date is not None:
            sql, params = sql + " AND posted_at >= ?", [*params, f"{start_date.isoformat()} 00:00:00.000000"]
        if end_date is not None:
            sql, params = sql + " AND posted_at < ?", [*params, f"{(end_date + dt.timedelta(days=1)).isoformat()} 00:00:00.000000"]
        ids = [row[0] for row in self.rows(sql + " ORDER BY posted_at DESC, id DESC LIMIT ?", *params, limit)]
        return self._shown(ids)

    @tool(read_only=True)
    def get_thread(self, user_id: Id("member"), message_id: Id("message")) -> dict:
        """Return a message and its thread's replies, oldest reply first. A reply's id returns its whole thread.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
        """
        user, message = self.get(Member, user_id), self.get(Message, message_id)
        self._readable(user, self.db.get(Channel, message.channel_id))
        parent = self.db.get(Message, message.thread_parent_id) if message.thread_parent_id else message
        replies = list(self.db.scalars(select(Message).where(Message.thread_parent_id == parent.id)
                                       .order_by(Message.posted_at, Message.id)))
        shown = self._messages([parent, *replies])
        return {**shown[0], "replies": shown[1:]}

    @tool(produces=("message",))
    def post_message(self, user_id: Id("member"), channel_id: Id("channel"), text: str) -> dict:
        """Post a message to a channel the user belongs to. '@handle' in the text mentions a member.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
            text: the message, 1 to 4000 characters, such as '@ada.park the deploy is done'.
        """
        user, channel = self._active(user_id), self._channel(channel_id)
        self._can_post(user, channel)
        return self._post(user, channel, text, None)

    @tool(produces=("message",))
    def reply_in_thread(self, user_id: Id("member"), message_id: Id("message"), text: str) -> dict:
        """Reply in the thread of a top-level message, in a conversation the user can post to.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
            message_id: the top-level message to reply to, such as 'MSG-00042'.
            text: the reply, 1 to 4000 characters, such as 'Thanks, looking now.'
        """
        user, parent = self._active(user_id), self.get(Message, message_id)
        channel = self.db.get(Channel, parent.channel_id)
        self._can_post(user, channel)
        if parent.thread_parent_id is not None:
            raise ToolError(f"Message {parent.id} is itself a reply in the thread of {parent.thread_parent_id}; "
                            f"reply to {parent.thread_parent_id} instead")
        if parent.deleted_at is not None:
            raise ToolError(f"Message {parent.id} was deleted; its thread takes no new replies")
        return self._post(user, channel, text, parent.id)

    @tool(idempotent=True)
    def edit_message(self, user_id: Id("member"), message_id: Id("message"), text: str) -> dict:
        """Change the text of one of the user's own messages; the earlier text is kept in its history.
        The mentions follow the new text: an '@handle' it adds mentions that member, one it drops no longer does.

        Args:
            user_id: the member using the app, who must be the author, such as 'USR-0007'.
            text: the new text, 1 to 4000 characters.
        """
        user, message = self._active(user_id), self.get(Message, message_id)
        self._own(user, message, "edit")
        new = self._text(text)
        if new != message.text:
            self.db.add(Revision(id=self.new_id("REV"), message_id=message.id, text=message.text,
                                 written_at=message.edited_at or message.posted_at, replaced_at=self.now))
            message.text, message.edited_at = new, self.now
            self._mention(message, user)
        return self._with_mentions(message)

    @tool(destructive=True)
    def delete_message(self, user_id: Id("member"), message_id: Id("message")) -> dict:
        """Delete one of the user's own messages. It stays in place as 'This message was deleted', its replies kept.

        Args:
            user_id: the member using the app, who must be the author, such as 'USR-0007'.
        """
        user, message = self._active(user_id), self.get(Message, message_id)
        self._own(user, message, "delete")
        message.deleted_at = self.now
        return {"message_id": message.id, "channel_id": message.channel_id, "deleted": True,
                "deleted_at": message.deleted_at}

    @tool(read_only=True)
    def get_message_history(self, user_id: Id("member"), message_id: Id("message")) -> dict:
        """Return a message's edit history: its current text and every earlier text, oldest first.

        A deleted message's texts are withheld.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
        """
        user, message = self.get(Member, user_id), self.get(Message, message_id)
        self._readable(user, self.db.get(Channel, message.channel_id))
        shown = self._messages([message])[0]
        revisions = [] if message.deleted_at else [
            {"revision_id": r[0], "text": r[1], "written_at": dt.datetime.fromisoformat(r[2]),
             "replaced_at": dt.datetime.fromisoformat(r[3])}
            for r in self.rows("SELECT id, text, written_at, replaced_at FROM revisions WHERE message_id = ? "
                               "ORDER BY replaced_at, id", message.id)]
        return {**shown, "edited_at": message.edited_at, "earlier_revisions": revisions}

    @tool()
    def add_reaction(self, user_id: Id("member"), message_id: Id("message"), emoji: str) -> dict:
        """React to a message with an emoji; each member adds a given emoji to a message once.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
            emoji: the emoji's name, with or without colons, such as 'thumbsup' or ':tada:'.
        """
        user, message = self._active(user_id), self.get(Message, message_id)
        channel = self.db.get(Channel, message.channel_id)
        self._readable(user, channel)
        self._not_archived(channel, "reacted to")
        self._not_deleted(message)
        name = emoji.strip().strip(":").lower()
        if not EMOJI_NAME.match(name):
            raise ToolError(f"Emoji {emoji!r} is not an emoji name; use a name such as 'thumbsup' or ':tada:'")
        if self.db.get(Reaction, (message.id, user.id, name)) is not None:
            raise ToolError(f"You already reacted with :{name}: to message {message.id}")
        self.db.add(Reaction(message_id=message.id, member_id=user.id, emoji=name, added_at=self.now))
        return self._messages([message])[0]

    @tool(destructive=True)
    def remove_reaction(self, user_id: Id("member"), message_id: Id("message"), emoji: str) -> dict:
        """Take back one of the user's own emoji reactions from a message.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
            emoji: the emoji's name, with or without colons, such as 'thumbsup' or ':tada:'.
        """
        user, message = self._active(user_id), self.get(Message, message_id)
        channel = self.db.get(Channel, message.channel_id)
        self._readable(user, channel)
        self._not_archived(channel, "reacted to")
        name = emoji.strip().strip(":").lower()
        reaction = self.db.get(Reaction, (message.id, user.id, name))
        if reaction is None:
            raise ToolError(f"You have not reacted with :{name}: to message {message.id}; only your own reactions "
                            "can be removed")
        self.db.delete(reaction)
        return self._messages([message])[0]

    @tool(sets=("message.pinned",))
    def pin_message(self, user_id: Id("member"), message_id: Id("message")) -> dict:
        """Pin a message to its conversation, for all its members to find with list_pins.

        Args:
            user_id: the member using the app, who must belong to the conversation, such as 'USR-0007'.
        """
        user, message = self._active(user_id), self.get(Message, message_id)
        channel = self.db.get(Channel, message.channel_id)
        self._can_post(user, channel, "pin messages in")
        self._not_deleted(message)
        if message.pinned_at is not None:
            raise ToolError(f"Message {message.id} is already pinned")
        pinned = self.db.scalar(select(func.count()).select_from(Message).where(
            Message.channel_id == channel.id, Message.pinned_at.is_not(None)))
        if pinned >= MAX_PINS:
            raise ToolError(f"{_label(channel)} already has {MAX_PINS} pinned messages; unpin one first")
        message.pinned_by, message.pinned_at = user.id, self.now
        return self._messages([message])[0]

    @tool(destructive=True, requires=("message.pinned",))
    def unpin_message(self, user_id: Id("member"), message_id: Id("message")) -> dict:
        """Unpin a pinned message of a conversation the user belongs to.

        Args:
            user_id: the member using the app, who must belong to the conversation, such as 'USR-0007'.
        """
        user, message = self._active(user_id), self.get(Message, message_id)
        channel = self.db.get(Channel, message.channel_id)
        self._can_post(user, channel, "unpin messages in")
        if message.pinned_at is None:
            raise ToolError(f"Message {message.id} is not pinned")
        message.pinned_by, message.pinned_at = None, None
        return self._messages([message])[0]

    @tool(read_only=True)
    def list_pins(self, user_id: Id("member"), channel_id: Id("channel")) -> list[dict]:
        """List a channel's pinned messages, most recently pinned first.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
        """
        user, channel = self.get(Member, user_id), self._channel(channel_id)
        self._readable(user, channel)
        rows = list(self.db.scalars(select(Message).where(
            Message.channel_id == channel.id, Message.pinned_at.is_not(None), Message.deleted_at.is_(None))
            .order_by(Message.pinned_at.desc(), Message.id.desc())))
        return self._messages(rows)

    # -- direct messages ---------------------------------------------------------------------------

    @tool(produces=("message",))
    def send_direct_message(self, user_id: Id("member"), member_id: Id("member"), text: str) -> dict:
        """Send a direct message to another member, opening the conversation if there is none yet.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
            member_id: the member to write to, such as 'USR-0012'.
            text: the message, 1 to 4000 characters, such as 'Can we move our 1:1?'
        """
        user, other = self._active(user_id), self.get(Member, member_id)
        if other.id == user.id:
            raise ToolError("You cannot send a direct message to yourself; post a note in a channel instead")
        if other.status != "active":
            raise ToolError(f"{other.name} ({other.id}) is deactivated and cannot receive direct messages")
        dm = self._dm(user.id, other.id)
        if dm is None:
            dm = Channel(id=self.new_id("CHN"), kind="dm", name=None, topic=None, purpose=None, created_by=user.id,
                         created_at=self.now, archived_at=None)
            self.db.add(dm)
            for mid in sorted((user.id, other.id)):
                self.db.add(ChannelMember(channel_id=dm.id, member_id=mid, joined_at=self.now))
        return self._post(user, dm, text, None)

    @tool(read_only=True)
    def list_direct_messages(self, user_id: Id("member"), member_id: Id("member"), limit: Limit = 20) -> list[dict]:
        """List the direct messages between the user and another member, newest first (empty when they never wrote).

        Args:
            user_id: the member using the app, such as 'USR-0007'.
            member_id: the other member, such as 'USR-0012'.
        """
        user, other = self.get(Member, user_id), self.get(Member, member_id)
        if other.id == user.id:
            raise ToolError("That is the user's own id; give the other member of the conversation as member_id")
        dm = self._dm(user.id, other.id)
        if dm is None:
            return []
        rows = self.db.scalars(select(Message).where(Message.channel_id == dm.id, Message.thread_parent_id.is_(None))
                               .order_by(Message.posted_at.desc(), Message.id.desc()).limit(limit))
        return self._messages(list(rows))

    # -- search ------------------------------------------------------------------------------------

    @tool(read_only=True, produces=("message",))
    def search_messages(self, user_id: Id("member"), query: str | None = None, author_id: Id("member") | None = None,
                        channel_id: Id("channel") | None = None, start_date: Date | None = None,
                        end_date: Date | None = None, limit: Limit = 20) -> list[dict]:
        """Search the messages the user can read (public channels, their private channels and their direct
        messages), replies included, newest first. Every criterion given must match; with none, the
        newest messages the user can read.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
            query: words that must all appear in the text, case-insensitive, such as 'staging deploy'.
            author_id: only messages by this member, such as 'USR-0012'.
            channel_id: only messages in this channel, such as 'CHN-0004'.
            start_date: the earliest posting date, such as '2026-07-01'.
            end_date: the latest posting date, such as '2026-07-31'.
        """
        user = self.get(Member, user_id)
        words = (query or "").lower().split()
        check_range(start_date, end_date)
        mine = select(ChannelMember.channel_id).where(ChannelMember.member_id == user.id)
        q = select(Message).join(Channel, Channel.id == Message.channel_id).where(
            Message.deleted_at.is_(None), or_(Channel.kind == "public", Channel.id.in_(mine)))
        for word in words:
            q = q.where(func.lower(Message.text).contains(word))
        if author_id:
            q = q.where(Message.author_id == self.get(Member, author_id).id)
        if channel_id:
            channel = self._channel(channel_id)
            self._readable(user, channel)
            q = q.where(Message.channel_id == channel.id)
        q = _dated(q, start_date, end_date).order_by(Message.posted_at.desc(), Message.id.desc()).limit(limit)
        return self._messages(list(self.db.scalars(q)))

    @tool(read_only=True)
    def list_mentions(self, user_id: Id("member"), limit: Limit = 20) -> list[dict]:
        """List the messages that @-mention the user, newest first, in conversations they can read.

        Args:
            user_id: the member using the app, such as 'USR-0007'.
        """
        user = self.get(Member, user_id)
        rows = self.rows("SELECT m.id FROM mentions n JOIN messages m ON m.id = n.message_id "
                         "JOIN channels c ON c.id = m.channel_id WHERE n.member_id = ? AND m.deleted_at IS NULL "
                         "AND (c.kind = 'public' OR c.id IN (SELECT channel_id FROM channel_members WHERE member_id = ?)) "
                         "ORDER BY m.posted_at DESC, m.id DESC LIMIT ?", user.id, user.id, limit)
        return self._shown([r[0] for r in rows])

    @tool(read_only=True, hidden=True)
    def workspace_stats(self) -> dict:
        """Debugging only: row counts of the workspace's tables."""
        return {model.__tablename__: self.db.scalar(select(func.count()).select_from(model))
                for model in (Member, Channel, ChannelMember, Message, Revision, Reaction, Mention)}

    def invariants(self) -> list[str]:
        """Replies sit in a top-level thread of their channel; revisions belong to edited messages;
        nothing happened after now; nobody is in a channel before joining the workspace, and no
        channel was made before its creator joined; an archived channel took no posts, edits or
        pins after its archiving; a direct-message conversation is between two members; every member is
        active, away or in do-not-disturb with a status of at most 100 characters, and a deactivated
        member is away with no status."""
        problems = self.after_now(Member.joined_at, Channel.created_at, Channel.archived_at, Message.posted_at,
                                  Message.edited_at, Message.deleted_at, Message.pinned_at, Revision.written_at,
                                  Revision.replaced_at, Reaction.added_at, ChannelMember.joined_at)
        problems += [f"{member} is in {channel} since {at}, before joining the workspace ({joined})"
                     for channel, member, at, joined in self.rows(
                         "SELECT cm.channel_id, cm.member_id, cm.joined_at, m.joined_at FROM channel_members cm "
                         "JOIN members m ON m.id = cm.member_id WHERE cm.joined_at < m.joined_at")]
        problems += [f"channel {channel} was created ({at}) before its creator {member} joined ({joined})"
                     for channel, member, at, joined in self.rows(
                         "SELECT c.id, c.created_by, c.created_at, m.joined_at FROM channels c "
                         "JOIN members m ON m.id = c.created_by WHERE c.created_at < m.joined_at")]
        problems += [f"message {message} changed in {channel} after it was archived ({archived})"
                     for message, channel, archived in self.rows(
                         "SELECT x.id, c.id, c.archived_at FROM messages x JOIN channels c ON c.id = x.channel_id "
                         "WHERE c.archived_at IS NOT NULL AND (x.posted_at > c.archived_at OR x.edited_at > c.archived_at "
                         "OR x.deleted_at > c.archived_at OR x.pinned_at > c.archived_at)")]
        problems += [f"direct-message conversation {channel} has {n} members"
                     for channel, n in self.rows("SELECT c.id, count(cm.member_id) FROM channels c LEFT JOIN "
                                                 "channel_members cm ON cm.channel_id = c.id WHERE c.kind = 'dm' "
                                                 "GROUP BY c.id HAVING count(cm.member_id) != 2")]
        problems += [f"member {member} is {presence!r} with status {text!r} ({status})"
                     for member, status, presence, text in self.rows(
                         "SELECT id, status, presence, status_text FROM members WHERE presence NOT IN (?, ?, ?) "
                         "OR length(status_text) > ? OR (status = 'deactivated' AND (presence != 'away' "
                         "OR status_text IS NOT NULL))", *PRESENCES, MAX_STATUS)]
        for message in self.db.scalars(select(Message).where(Message.thread_parent_id.is_not(None))):
            parent = self.db.get(Message, message.thread_parent_id)
            if parent is None or parent.channel_id != message.channel_id or parent.thread_parent_id is not None:
                problems.append(f"reply {message.id} is not in a top-level thread of its channel")
        for rev in self.db.scalars(select(Revision)):
            message = self.db.get(Message, rev.message_id)
            if message is None or message.edited_at is None:
                problems.append(f"revision {rev.id} belongs to a message never edited")
        return problems

    # -- rules -------------------------------------------------------------------------------------

    def _channel(self, channel_id: str) -> Channel:
        channel = self.get(Channel, channel_id)
        if channel.kind == "dm":
            raise ToolError(f"{channel.id} is a direct-message conversation, not a channel; use "
                            "list_direct_messages or send_direct_message")
        return channel

    def _active(self, user_id: str) -> Member:
        user = self.get(Member, user_id)
        if user.status != "active":
            raise ToolError(f"{user.name} ({user.id}) is deactivated and cannot make changes")
        return user

    def _is_member(self, member_id: str, channel_id: str) -> bool:
        return bool(self.rows("SELECT 1 FROM channel_members WHERE channel_id = ? AND member_id = ?", channel_id, member_id))

    def _readable(self, user: Member, channel: Channel) -> None:
        if channel.kind != "public" and not self._is_member(user.id, channel.id):
            if channel.kind == "dm":
                raise ToolError(f"{channel.id} is a direct-message conversation between other members")
            raise ToolError(f"#{channel.name} is a private channel and you are not a member; "
                            "ask one of its members to invite you")

    def _not_archived(self, channel: Channel, what: str) -> None:
        if channel.archived_at is not None:
            raise ToolError(f"#{channel.name} was archived on {channel.archived_at.date().isoformat()} and is "
                            f"read-only: it cannot be {what}")

    def _can_post(self, user: Member, channel: Channel, what: str = "post to") -> None:
        self._readable(user, channel)
        if channel.archived_at is not None:
            raise ToolError(f"#{channel.name} was archived on {channel.archived_at.date().isoformat()} and is "
                            f"read-only: you cannot {what} it")
        if not self._is_member(user.id, channel.id):
            raise ToolError(f"You are not a member of #{channel.name}; join it with join_channel first")

    def _own(self, user: Member, message: Message, action: str) -> None:
        channel = self.db.get(Channel, message.channel_id)
        self._readable(user, channel)
        if message.author_id != user.id:
            raise ToolError(f"Only the author can {action} message {message.id}; you can reply in its thread instead")
        self._not_deleted(message)
        if channel.archived_at is not None:
            raise ToolError(f"#{channel.name} was archived on {channel.archived_at.date().isoformat()} and is "
                            f"read-only: its messages cannot be changed")

    def _not_deleted(self, message: Message) -> None:
        if message.deleted_at is not None:
            raise ToolError(f"Message {message.id} was deleted on {message.deleted_at.date().isoformat()}")

    def _text(self, text: str) -> str:
        text = text.strip()
        if not 1 <= len(text) <= MAX_TEXT:
            raise ToolError(f"A message must be 1 to {MAX_TEXT} characters, got {len(text)}")
        return text

    def _topic(self, topic: str | None) -> str | None:
        topic = (topic or "").strip()
        if len(topic) > MAX_TOPIC:
            raise ToolError(f"A topic is at most {MAX_TOPIC} characters, got {len(topic)}")
        return topic or None

    def _dm(self, a: str, b: str) -> Channel | None:
        theirs = select(ChannelMember.channel_id).where(ChannelMember.member_id == b)
        return self.db.scalar(select(Channel).join(ChannelMember, ChannelMember.channel_id == Channel.id)
                              .where(Channel.kind == "dm", ChannelMember.member_id == a, Channel.id.in_(theirs)))

    def _post(self, user: Member, channel: Channel, text: str, parent: str | None) -> dict:
        message = Message(id=self.new_id("MSG", 5), channel_id=channel.id, author_id=user.id, thread_parent_id=parent,
                          text=self._text(text), posted_at=self.now, edited_at=None, deleted_at=None,
                          pinned_by=None, pinned_at=None)
        self.db.add(message)
        self._mention(message, user)
        return self._with_mentions(message)

    def _mention(self, message: Message, author: Member) -> None:
        """Record the members the current text @-mentions (the author excepted)."""
        self.db.query(Mention).filter(Mention.message_id == message.id).delete()
        handles = list(dict.fromkeys(HANDLE.findall(message.text.lower())))
        if handles:
            for member in self.db.scalars(select(Member).where(Member.display_name.in_(handles)).order_by(Member.id)):
                if member.id != author.id:
                    self.db.add(Mention(message_id=message.id, member_id=member.id))

    def _with_mentions(self, message: Message) -> dict:
        """A message as shown, with the members its current text mentions."""
        self.db.flush()
        mentioned = self.rows("SELECT u.id, u.name, u.display_name FROM mentions n JOIN members u "
                              "ON u.id = n.member_id WHERE n.message_id = ? ORDER BY u.display_name", message.id)
        return {**self._messages([message])[0],
                "mentions": [{"member_id": m, "name": n, "display_name": h} for m, n, h in mentioned]}

    def _messages(self, rows: list[Message]) -> list[dict]:
        return self._shown([m.id for m in rows])

    def _shown(self, ids: list[str]) -> list[dict]:
        """Messages as the app shows them, in the order of `ids`, with author names, reply counts and reactions."""
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        found = {row[0]: row for row in self.rows(
            "SELECT m.id, m.channel_id, c.kind, c.name, m.author_id, u.name, m.text, m.posted_at, m.thread_parent_id, "
            "m.edited_at IS NOT NULL, m.deleted_at IS NOT NULL, m.pinned_at IS NOT NULL FROM messages m "
            f"JOIN channels c ON c.id = m.channel_id JOIN members u ON u.id = m.author_id WHERE m.id IN ({marks})", *ids)}
        replies = dict(self.rows(f"SELECT thread_parent_id, count(*) FROM messages WHERE thread_parent_id IN ({marks}) "
                                  "GROUP BY thread_parent_id", *ids))
        reactions: defaultdict[str, dict[str, list[str]]] = defaultdict(dict)
        for mid, emoji, member in self.rows(f"SELECT message_id, emoji, member_id FROM reactions WHERE message_id IN "
                                             f"({marks}) ORDER BY message_id, emoji, member_id", *ids):
            reactions[mid].setdefault(emoji, []).append(member)
        out = []
        for mid in ids:
            _, channel_id, kind, channel, author_id, author, text, posted, parent, edited, deleted, pinned = found[mid]
            out.append({"message_id": mid, "channel_id": channel_id,
                        "channel": f"#{channel}" if kind != "dm" else "direct message",
                        "author_id": author_id, "author": author,
                        "text": "This message was deleted." if deleted else text,
                        "posted_at": dt.datetime.fromisoformat(posted), "thread_parent_id": parent,
                        "reply_count": replies.get(mid, 0), "edited": bool(edited), "deleted": bool(deleted),
                        "pinned": bool(pinned),
                        "reactions": [] if deleted else [{"emoji": e, "count": len(who), "member_ids": who}
                                                         for e, who in reactions[mid].items()]})
        return out


def _dated(query, start: dt.date | None, end: dt.date | None):
    if start is not None:
        query = query.where(Message.posted_at >= dt.datetime.combine(start, dt.time()))
    if end is not None:
        query = query.where(Message.posted_at < dt.datetime.combine(end + dt.timedelta(days=1), dt.time()))
    return query


def _label(channel: Channel) -> str:
    return f"#{channel.name}" if channel.kind != "dm" else "direct message"


def _member(member: Member) -> dict:
    return {"member_id": member.id, "name": member.name, "display_name": member.display_name,
            "title": member.title, "status": member.status}


def _channel(channel: Channel) -> dict:
    return {"channel_id": channel.id, "name": channel.name, "is_private": channel.kind == "private",
            "is_archived": channel.archived_at is not None, "topic": channel.topic}
