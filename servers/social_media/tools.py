"""The social_media server's tools: the signed-in user's profile, follows, blocks, posts, feed and
notifications.

Rules, in one place:
- Nobody follows themselves. A follow of a private account is a request that stays 'pending'
  until its owner approves it; a public account is followed at once. Making an account public
  approves every pending request to it.
- A block removes every follow and pending request between the two people, both ways, and hides
  each one's posts from the other; neither can follow, like, reply to or repost the other.
- Posts of a private account are seen only by the account and its approved followers.
- A post is 1 to 280 characters; every @handle it mentions must be an existing user. Hashtags and
  mentions are read from the text. Only one's own posts can be deleted.
- A post can be liked once and reposted once; a repost cannot be liked, replied to or reposted
  (act on the original); a private account's posts cannot be reposted by others.
- A deleted post is gone with its likes and reposts, but its replies stay: a reply says that the
  post it answered was deleted, and naming the deleted post (to read, like, repost or reply to
  it) says it was deleted, by whom and when.
- Likes, follows, follow requests, approvals, mentions, replies and reposts notify the other person.
- Unfollowing, unblocking and unliking set a state: when it already holds, nothing changes.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from functools import cached_property
from typing import Annotated

from pydantic import Field
from sqlalchemy import and_, delete, func, or_, select, update

from prove_env.toolkit import DateTime, Entity, Id, Limit, Toolkit, ToolError, tool

from .models import Base, Block, DeletedPost, Follow, Like, Mention, Notification, Post, PostTag, User
from .seed import seed

MAX_POST = 280
MAX_BIO = 160
TAG = re.compile(r"#([A-Za-z][A-Za-z0-9_]{0,49})")
HANDLE = re.compile(r"@([a-z0-9._]*[a-z0-9_])", re.IGNORECASE)

# The reads are plain SQL on the world's connection (`Toolkit.rows`): building ORM statements costs more
# than running them. `?1` is the signed-in user's id wherever it appears; values come back as stored.
_ME = "SELECT id FROM users WHERE is_me = 1"
# How the signed-in user (?1) relates to a user row `u`.
_RELATION = """(SELECT status FROM follows WHERE follower_id = ?1 AND followee_id = u.id) AS following,
    (SELECT status FROM follows WHERE follower_id = u.id AND followee_id = ?1) AS back,
    EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ?1 AND blocked_id = u.id) AS by_you,
    EXISTS (SELECT 1 FROM blocks WHERE blocker_id = u.id AND blocked_id = ?1) AS by_them"""
_FIND_USERS = f"""SELECT u.id, u.handle, u.name, u.is_private, {_RELATION} FROM users u
    WHERE u.name LIKE ?2 ESCAPE '\\' OR u.handle LIKE ?2 ESCAPE '\\'
    ORDER BY u.handle LIMIT ?3"""
_PROFILE = f"""SELECT u.id, u.handle, u.name, u.bio, u.location, u.is_private, u.joined_at,
    (SELECT count(*) FROM follows WHERE followee_id = u.id AND status = 'accepted') AS followers,
    (SELECT count(*) FROM follows WHERE follower_id = u.id AND status = 'accepted') AS following_count,
    (SELECT count(*) FROM posts WHERE author_id = u.id) AS posts, {_RELATION}
    FROM users u WHERE u.id = ?2"""
_REQUESTS = """SELECT u.id, u.handle, u.name, f.created_at FROM follows f JOIN users u ON u.id = f.follower_id
    WHERE f.followee_id = ?1 AND f.status = 'pending' ORDER BY f.created_at, f.follower_id LIMIT ?2"""
_FOLLOWERS = """SELECT u.id, u.handle, u.name, count(*) OVER () FROM follows f JOIN users u ON u.id = f.follower_id
    WHERE f.followee_id = ? AND f.status = 'accepted' ORDER BY u.handle LIMIT ?"""
_FOLLOWING = """SELECT u.id, u.handle, u.name, count(*) OVER () FROM follows f JOIN users u ON u.id = f.followee_id
    WHERE f.follower_id = ? AND f.status = 'accepted' ORDER BY u.handle LIMIT ?"""
# Whether the signed-in user (?1) sees the posts of author row `a`.
_SEES = """(a.id = ?1 OR ((a.is_private = 0 OR EXISTS (SELECT 1 FROM follows
        WHERE follower_id = ?1 AND followee_id = a.id AND status = 'accepted'))
    AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = ?1 AND blocked_id = a.id)
        OR (blocker_id = a.id AND blocked_id = ?1))))"""
# A post `p` by its author `u` as the signed-in user (?1) is shown it, the row `_post_view` reads. A listing
# that pages selects them itself, so that they are read only for the posts of its page.
_POST = """p.id, p.author_id, u.handle, u.name, p.created_at, p.text, p.reply_to_id, p.repost_of_id,
    (SELECT count(*) FROM likes WHERE post_id = p.id) AS likes,
    (SELECT count(*) FROM posts r WHERE r.repost_of_id = p.id) AS reposts,
    (SELECT count(*) FROM posts r WHERE r.reply_to_id = p.id) AS replies,
    EXISTS (SELECT 1 FROM likes WHERE post_id = p.id AND user_id = ?1) AS liked,
    (SELECT group_concat(tag, ' ') FROM (SELECT tag FROM post_tags WHERE post_id = p.id ORDER BY tag)) AS tags"""
_POSTS = f"""SELECT {_POST} FROM posts p JOIN users u ON u.id = p.author_id
    WHERE p.id IN (SELECT value FROM json_each(?2))"""
# Newest first along the posts' time index, stopping at the page: the signed-in user follows many people.
_FEED = f"""SELECT {_POST} FROM posts p INDEXED BY ix_posts_created JOIN users u ON u.id = p.author_id
    WHERE (p.author_id = ?1 OR p.author_id IN (SELECT followee_id FROM follows
        WHERE follower_id = ?1 AND status = 'accepted'))
    AND (?2 IS NULL OR p.created_at < ?2)
    AND (p.repost_of_id IS NULL OR EXISTS (SELECT 1 FROM posts o JOIN users a ON a.id = o.author_id
        WHERE o.id = p.repost_of_id AND {_SEES}))
    ORDER BY p.created_at DESC, p.id DESC LIMIT ?3"""
_SEARCH = f"""SELECT p.id, count(*) OVER () FROM posts p JOIN users a ON a.id = p.author_id
    WHERE p.repost_of_id IS NULL AND {_SEES}
    AND (?2 IS NULL OR p.text LIKE ?2 ESCAPE '\\')
    AND (?3 IS NULL OR EXISTS (SELECT 1 FROM post_tags WHERE post_id = p.id AND tag = ?3))
    AND (?4 IS NULL OR p.author_id = ?4)
    ORDER BY p.created_at DESC, p.id DESC LIMIT ?5"""
# Someone's (?2) posts, newest first, each followed by how many they have.
_TIMELINE = f"""SELECT {_POST}, (SELECT count(*) FROM posts WHERE author_id = ?2) FROM posts p
    JOIN users u ON u.id = p.author_id WHERE p.author_id = ?2 ORDER BY p.created_at DESC, p.id DESC LIMIT ?3"""
_TRENDING = """SELECT t.tag, count(*) AS n FROM post_tags t JOIN posts p ON p.id = t.post_id
    JOIN users u ON u.id = p.author_id
    WHERE p.created_at >= ? AND p.created_at <= ? AND u.is_private = 0
    GROUP BY t.tag ORDER BY n DESC, t.tag LIMIT ?"""
_NOTIFICATIONS = """SELECT n.id, n.kind, u.id, u.handle, u.name, n.post_id, n.created_at, n.read,
    (SELECT count(*) FROM notifications WHERE user_id = ?1 AND read = 0) FROM notifications n
    JOIN users u ON u.id = n.actor_id WHERE n.user_id = ?1 AND (?2 = 0 OR n.read = 0)
    ORDER BY n.created_at DESC, n.id DESC LIMIT ?3"""
_UNREAD = "SELECT count(*) FROM notifications WHERE user_id = ? AND read = 0"
# The replies to a post (?2) that the signed-in user (?1) sees, oldest first.
_REPLIES = f"""SELECT p.id FROM posts p JOIN users a ON a.id = p.author_id WHERE p.reply_to_id = ?2 AND {_SEES}
    ORDER BY p.created_at, p.id"""
# The post a reply answers (?1): whether it is still there, its author and when it was deleted, if it was.
_PARENT = """SELECT p.id IS NOT NULL, coalesce(p.author_id, d.author_id), u.handle, d.deleted_at
    FROM (SELECT ?1 AS id) x LEFT JOIN posts p ON p.id = x.id LEFT JOIN deleted_posts d ON d.id = x.id
    LEFT JOIN users u ON u.id = coalesce(p.author_id, d.author_id)"""


class SocialMediaServer(Toolkit):
    """A social network as seen by its signed-in user: profiles, follows, blocks, posts, replies,
    likes, reposts, a home feed, notifications and trending hashtags.

    People are named by their name or their @handle: find_users finds their user ids. Posts are
    found with search_posts (by words, hashtag or author), a timeline or the home feed. Private
    accounts approve their followers; blocked people see nothing of each other.
    """

    name = "social_media"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("user", User, "USR", lookup="find_users"),
        Entity("post", Post, "PST", lookup="search_posts"),
    )

    def get(self, model, key):
        """The row of `model` with id `key`; a post its author deleted is refused as deleted, not as unknown."""
        if model is Post and self.db.get(Post, key) is None:
            gone = self.db.get(DeletedPost, key)
            if gone is not None:
                raise ToolError(f"Post {gone.id} was deleted by @{self._handle(gone.author_id)} on "
                                f"{gone.deleted_at.date().isoformat()}; it can no longer be read, liked, reposted or "
                                "replied to")
        return super().get(model, key)

    # -- people --------------------------------------------------------------------------------

    @tool(read_only=True)
    def find_users(self, query: str, limit: Limit = 10) -> list[dict]:
        """Find people whose name or @handle contains a text (ignoring case), ordered by handle.

        Each result says how the signed-in user relates to them: 'following' (accepted,
        'requested' or null), 'follows_you', and 'blocked' ('by_you', 'you' or null).

        Args:
            query: part of a name or handle, such as 'Ada Park', 'park' or '@ada.park'.
        """
        text = query.strip().lstrip("@").lower()
        if not text:
            raise ToolError("query must not be empty: give part of a name or an @handle")
        me = self._me_id
        rows = self.rows(_FIND_USERS, me, _like(text), limit)
        return [{"user_id": r[0], "handle": r[1], "name": r[2], "is_private": bool(r[3]), **_relation(me, r[0], *r[4:])}
                for r in rows]

    @tool(read_only=True)
    def get_profile(self, user_id: Id("user") | None = None) -> dict:
        """Return a profile: name, handle, bio, location, privacy, join date, follower, following and
        post counts, and how the signed-in user relates to them ('following': accepted, requested or
        null; 'follows_you'; 'blocked': by_you, you or null).

        Args:
            user_id: whose profile, such as 'USR-0012'; the signed-in user's own when omitted.
        """
        user = self._me_id if user_id is None else self.get(User, user_id).id
        return self._profile(user)

    @tool(idempotent=True)
    def update_profile(self, name: str | None = None, bio: str | None = None, is_private: bool | None = None) -> dict:
        """Change the signed-in user's display name, bio or privacy; only the given fields change.

        Making a private account public approves every pending follow request at once.

        Args:
            name: the display name, 1 to 50 characters, such as 'Ada Park'.
            bio: the bio, at most 160 characters; an empty string clears it.
            is_private: true to make the account private (new followers need approval), false to make it public.
        """
        me = self._me()
        if name is None and bio is None and is_private is None:
            raise ToolError("Nothing to update: give a name, a bio or is_private")
        if name is not None:
            if not 1 <= len(name.strip()) <= 50:
                raise ToolError("name must be 1 to 50 characters")
            me.name = name.strip()
        if bio is not None:
            if len(bio.strip()) > MAX_BIO:
                raise ToolError(f"bio must be at most {MAX_BIO} characters, got {len(bio.strip())}")
            me.bio = bio.strip()
        approved = []
        if is_private is not None:
            if me.is_private and not is_private:
                pending = self.db.scalars(select(Follow).where(Follow.followee_id == me.id,
                                                               Follow.status == "pending")
                                          .order_by(Follow.follower_id)).all()
                for f in pending:
                    f.status = "accepted"
                    self._notify(f.follower_id, "follow_accepted", me.id)
                    approved.append(f.follower_id)
            me.is_private = is_private
        return {**self._profile(me.id), "approved_requests": approved}

    # -- follows ---------------------------------------------------------------------------------

    @tool(idempotent=False)
    def follow_user(self, user_id: Id("user")) -> dict:
        """Follow someone. A public account is followed at once; a private account gets a follow
        request that stays 'pending' until its owner approves it.

        Following yourself, following someone twice, and following across a block are refused.
        """
        me, other = self._me(), self.get(User, user_id)
        if other.id == me.id:
            raise ToolError("You cannot follow yourself")
        self._not_blocked(other, "follow")
        existing = self.db.get(Follow, (me.id, other.id))
        if existing is not None:
            state = "already follow" if existing.status == "accepted" else "already have a pending follow request to"
            raise ToolError(f"You {state} @{other.handle}; unfollow_user undoes it")
        status = "pending" if other.is_private else "accepted"
        self.db.add(Follow(follower_id=me.id, followee_id=other.id, status=status, created_at=self.now))
        self._notify(other.id, "follow_request" if status == "pending" else "follow", me.id)
        return {"user_id": other.id, "handle": other.handle, "status": status}

    @tool(destructive=True, idempotent=True)
    def unfollow_user(self, user_id: Id("user")) -> dict:
        """Stop following someone, or withdraw a follow request that is still pending.

        Unfollowing someone you neither follow nor asked to follow changes nothing: `was` then
        says 'not_following'."""
        me, other = self._me(), self.get(User, user_id)
        existing = self.db.get(Follow, (me.id, other.id))
        was = "not_following"
        if existing is not None:
            was = "following" if existing.status == "accepted" else "requested"
            self.db.delete(existing)
        return {"user_id": other.id, "handle": other.handle, "unfollowed": True, "was": was}

    @tool(read_only=True)
    def list_follow_requests(self, limit: Limit = 20) -> list[dict]:
        """List the pending follow requests people sent to the signed-in user, oldest first."""
        rows = self.rows(_REQUESTS, self._me_id, limit)
        return [{"user_id": r[0], "handle": r[1], "name": r[2], "requested_at": _moment(r[3])} for r in rows]

    @tool()
    def approve_follow_request(self, user_id: Id("user")) -> dict:
        """Approve a pending follow request from someone: they become a follower and are notified."""
        follow = self._request_from(self.get(User, user_id))
        follow.status = "accepted"
        self._notify(follow.follower_id, "follow_accepted", follow.followee_id)
        return {"user_id": follow.follower_id, "status": "accepted"}

    @tool(destructive=True)
    def decline_follow_request(self, user_id: Id("user")) -> dict:
        """Decline a pending follow request from someone: the request is removed, silently."""
        follow = self._request_from(self.get(User, user_id))
        self.db.delete(follow)
        return {"user_id": follow.follower_id, "declined": True}

    @tool(read_only=True)
    def list_followers(self, user_id: Id("user") | None = None, limit: Limit = 50) -> dict:
        """List the people who follow someone (approved followers only), ordered by handle.

        A private account's lists are shown only to it and its approved followers.

        Args:
            user_id: whose followers, such as 'USR-0012'; the signed-in user's when omitted.
        """
        return self._people(self._readable(user_id, "followers"), _FOLLOWERS, limit, "followers")

    @tool(read_only=True)
    def list_following(self, user_id: Id("user") | None = None, limit: Limit = 50) -> dict:
        """List the people someone follows (approved follows only; pending requests are not
        listed), ordered by handle.

        A private account's lists are shown only to it and its approved followers.

        Args:
            user_id: whose follows, such as 'USR-0012'; the signed-in user's when omitted.
        """
        return self._people(self._readable(user_id, "follows"), _FOLLOWING, limit, "following")

    # -- blocks ------------------------------------------------------------------------------------

    @tool(destructive=True)
    def block_user(self, user_id: Id("user")) -> dict:
        """Block someone: every follow and follow request between you, both ways, is removed, and
        neither of you sees the other's posts any more."""
        me, other = self._me(), self.get(User, user_id)
        if other.id == me.id:
            raise ToolError("You cannot block yourself")
        if self.db.get(Block, (me.id, other.id)) is not None:
            raise ToolError(f"You have already blocked @{other.handle}")
        removed = self.db.execute(delete(Follow).where(or_(
            and_(Follow.follower_id == me.id, Follow.followee_id == other.id),
            and_(Follow.follower_id == other.id, Follow.followee_id == me.id)))).rowcount
        self.db.add(Block(blocker_id=me.id, blocked_id=other.id, created_at=self.now))
        return {"user_id": other.id, "handle": other.handle, "blocked": True, "follows_removed": removed}

    @tool(idempotent=True)
    def unblock_user(self, user_id: Id("user")) -> dict:
        """Unblock someone. Follows removed by the block do not come back.

        Unblocking someone you have not blocked changes nothing (`was_blocked` is then false); a
        block they placed on you stays, since only they can lift it."""
        me, other = self._me(), self.get(User, user_id)
        block = self.db.get(Block, (me.id, other.id))
        if block is not None:
            self.db.delete(block)
        return {"user_id": other.id, "handle": other.handle, "blocked": False, "was_blocked": block is not None}

    # -- posts ---------------------------------------------------------------------------------------

    @tool(produces=("post",))
    def create_post(self, text: str, reply_to_post_id: Id("post") | None = None) -> dict:
        """Publish a post as the signed-in user, or a reply to a post.

        Hashtags ('#coffee') and mentions ('@ada.park') are read from the text; each mentioned
        person and the author of the post replied to is notified.

        Args:
            text: the post, 1 to 280 characters, such as 'Great run today #running'.
            reply_to_post_id: the post this replies to, such as 'PST-0042'; a new post when omitted.
        """
        me = self._me()
        body = text.strip()
        if not 1 <= len(body) <= MAX_POST:
            raise ToolError(f"A post is 1 to {MAX_POST} characters; this one has {len(body)}")
        parent = None
        if reply_to_post_id is not None:
            parent = self._original(self._visible(self.get(Post, reply_to_post_id)), "reply to")
        mentioned = []
        for handle in dict.fromkeys(h.lower() for h in HANDLE.findall(body)):
            user = self.db.scalar(select(User).where(User.handle == handle))
            if user is None:
                raise ToolError(f"Nobody has the handle @{handle}; find_users finds the right handle")
            mentioned.append(user)
        post = Post(id=self.new_id("PST"), author_id=me.id, text=body, created_at=self.now,
                    reply_to_id=parent.id if parent else None)
        self.db.add(post)
        tags = list(dict.fromkeys(t.lower() for t in TAG.findall(body)))
        self.db.add_all([PostTag(post_id=post.id, tag=t) for t in tags])
        for user in mentioned:
            self.db.add(Mention(post_id=post.id, user_id=user.id))
            if user.id != me.id and not self._blocked_between(me.id, user.id):
                self._notify(user.id, "mention", me.id, post.id)
        if parent is not None and parent.author_id != me.id:
            self._notify(parent.author_id, "reply", me.id, parent.id)
        self.db.flush()
        return self._post(post)

    @tool(destructive=True)
    def delete_post(self, post_id: Id("post")) -> dict:
        """Delete one of the signed-in user's own posts (or reposts) for good, with its likes and
        the reposts of it. Replies to it stay, and say that the post they answer was deleted."""
        me, post = self._me(), self.get(Post, post_id)
        if post.author_id != me.id:
            raise ToolError(f"Post {post.id} is by @{self._handle(post.author_id)}; you can delete only your own posts")
        authors = {post.id: me.id, **dict(self.db.execute(select(Post.id, Post.author_id)
                                                          .where(Post.repost_of_id == post.id)).all())}
        reposts = [i for i in authors if i != post.id]
        gone = [post.id, *reposts]
        self.db.execute(delete(Like).where(Like.post_id.in_(gone)))
        self.db.execute(delete(PostTag).where(PostTag.post_id.in_(gone)))
        self.db.execute(delete(Mention).where(Mention.post_id.in_(gone)))
        self.db.execute(delete(Post).where(Post.id.in_(reposts)))
        self.db.delete(post)
        self.db.add_all([DeletedPost(id=i, author_id=authors[i], deleted_at=self.now) for i in gone])
        replies = self.rows("SELECT count(*) FROM posts WHERE reply_to_id = ?", post.id)[0][0]
        return {"post_id": post.id, "deleted": True, "reposts_removed": len(reposts), "replies_kept": replies}

    @tool()
    def like_post(self, post_id: Id("post")) -> dict:
        """Like a post; its author is notified. A post can be liked once; like the original, not a repost."""
        me = self._me()
        post = self._original(self._visible(self.get(Post, post_id)), "like")
        if self.db.get(Like, (me.id, post.id)) is not None:
            raise ToolError(f"You already like post {post.id}")
        self.db.add(Like(user_id=me.id, post_id=post.id, created_at=self.now))
        if post.author_id != me.id:
            self._notify(post.author_id, "like", me.id, post.id)
        self.db.flush()
        return {"post_id": post.id, "liked": True, "likes": self._count(Like, Like.post_id == post.id)}

    @tool(destructive=True, idempotent=True)
    def unlike_post(self, post_id: Id("post")) -> dict:
        """Take back the signed-in user's like of a post. Unliking a post you do not like changes
        nothing (`was_liked` is then false)."""
        me, post = self._me(), self.get(Post, post_id)
        like = self.db.get(Like, (me.id, post.id))
        if like is not None:
            self.db.delete(like)
            self.db.flush()
        return {"post_id": post.id, "liked": False, "likes": self._count(Like, Like.post_id == post.id),
                "was_liked": like is not None}

    @tool(produces=("post",))
    def repost(self, post_id: Id("post")) -> dict:
        """Repost someone's post to the signed-in user's followers; its author is notified.

        A post is reposted once; reposts of reposts and reposts of a private account's posts are refused.
        """
        me = self._me()
        post = self._original(self._visible(self.get(Post, post_id)), "repost")
        author = self.db.get(User, post.author_id)
        if author.is_private and author.id != me.id:
            raise ToolError(f"@{author.handle} is a private account; their posts cannot be reposted")
        done = self.db.scalar(select(Post.id).where(Post.author_id == me.id, Post.repost_of_id == post.id))
        if done is not None:
            raise ToolError(f"You already reposted post {post.id} (your repost is {done})")
        shared = Post(id=self.new_id("PST"), author_id=me.id, text="", created_at=self.now, repost_of_id=post.id)
        self.db.add(shared)
        if author.id != me.id:
            self._notify(author.id, "repost", me.id, post.id)
        self.db.flush()
        return self._post(shared)

    @tool(read_only=True, produces=("user",))
    def get_post(self, post_id: Id("post")) -> dict:
        """Return one post in full: text, author, time, hashtags, mentions, like and repost counts,
        whether the signed-in user liked it, its replies (oldest first) and, for a reply, the post it
        replies to ('in_reply_to'): shown in full, or with the status 'deleted' (and when) when its
        author deleted it, or 'hidden' when the signed-in user may not see it."""
        post = self._visible(self.get(Post, post_id))
        me = self._me()
        replies = [r[0] for r in self.rows(_REPLIES, me.id, post.id)]
        return {**self._post(post), "in_reply_to": self._parent(me, post.reply_to_id), "replies": self._posts(replies)}

    @tool(read_only=True)
    def search_posts(self, query: str | None = None, hashtag: str | None = None,
                     author_id: Id("user") | None = None, limit: Limit = 20) -> dict:
        """Find posts the signed-in user can see by words, hashtag or author, newest first (reposts left out).

        Every criterion given must match (a blank one is none); with none, the newest posts the user
        can see.

        Args:
            query: words the text contains, ignoring case, such as 'farmers market'.
            hashtag: a hashtag, with or without '#', such as 'coffee'.
            author_id: only posts by this person, such as 'USR-0012'.
        """
        author = self.get(User, author_id).id if author_id is not None else None
        rows = self.rows(_SEARCH, self._me_id, _like(query.strip()) if query and query.strip() else None,
                         hashtag.strip("# ").lower() if hashtag and hashtag.strip("# ") else None, author, limit)
        return {"total": rows[0][1] if rows else 0, "posts": self._posts([r[0] for r in rows])}

    # -- feeds ---------------------------------------------------------------------------------------

    @tool(read_only=True, produces=("post", "user"))
    def get_home_feed(self, limit: Limit = 20, before: DateTime | None = None) -> list[dict]:
        """The signed-in user's home feed: posts, replies and reposts by the user and the people they
        follow (approved follows), newest first. Pending requests and blocked people add nothing.

        Args:
            before: only entries older than this instant, such as '2026-03-14T09:30', to see further back.
        """
        return self._shown(self.rows(_FEED, self._me_id, before, limit))

    @tool(read_only=True, produces=("post",))
    def get_user_timeline(self, user_id: Id("user") | None = None, limit: Limit = 20) -> dict:
        """Someone's posts, replies and reposts, newest first.

        A private account's timeline is shown only to it and its approved followers; blocked
        people see nothing of each other.

        Args:
            user_id: whose timeline, such as 'USR-0012'; the signed-in user's own when omitted.
        """
        user = self._readable(user_id, "posts")
        rows = self.rows(_TIMELINE, self._me_id, user.id, limit)
        return {"user_id": user.id, "handle": user.handle, "total": rows[0][-1] if rows else 0,
                "posts": self._shown([row[:-1] for row in rows])}

    @tool(read_only=True)
    def get_trending_hashtags(self, hours: Annotated[int, Field(ge=1, le=168)] = 24, limit: Limit = 10) -> dict:
        """The hashtags used in the most posts over the last hours, from public accounts only.

        Ties are ordered by hashtag. Reposts do not count.

        Args:
            hours: the window, ending now, in hours from 1 to 168 (a week); 24 when omitted.
        """
        since = self.now - dt.timedelta(hours=hours)
        rows = self.rows(_TRENDING, since, self.now, limit)
        return {"since": since, "until": self.now, "hashtags": [{"hashtag": t, "posts": n} for t, n in rows]}

    # -- notifications -------------------------------------------------------------------------------

    @tool(read_only=True, produces=("user", "post"))
    def list_notifications(self, unread_only: bool = False, limit: Limit = 20) -> dict:
        """The signed-in user's notifications, newest first: likes, follows, follow requests,
        approvals, mentions, replies and reposts, each with who did it.

        Args:
            unread_only: only the notifications not yet marked read.
        """
        me = self._me_id
        rows = self.rows(_NOTIFICATIONS, me, unread_only, limit)
        unread = rows[0][8] if rows else self.rows(_UNREAD, me)[0][0]
        return {"unread": unread, "notifications": [
            {"notification_id": r[0], "kind": r[1], "user_id": r[2], "handle": r[3], "name": r[4],
             "post_id": r[5], "created_at": _moment(r[6]), "read": bool(r[7])} for r in rows]}

    @tool(idempotent=True)
    def mark_notifications_read(self) -> dict:
        """Mark every notification of the signed-in user as read."""
        me = self._me()
        marked = self.db.execute(update(Notification).where(Notification.user_id == me.id,
                                                            Notification.read.is_(False))
                                 .values(read=True)).rowcount
        return {"marked_read": marked, "unread": 0}

    # -- rules the world always keeps -------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """Nobody follows or blocks themselves, no follow crosses a block, every like is of an
        original post, nobody reposts the same post twice, and reposts point at original posts.
        A reply answers a post that exists or was deleted, and a deleted post's id is not reused.
        Nothing happened after now, nor before the people it involves joined, and nobody liked a
        post before it was written."""
        checks = {
            "a self-follow": "SELECT follower_id FROM follows WHERE follower_id = followee_id",
            "a self-block": "SELECT blocker_id FROM blocks WHERE blocker_id = blocked_id",
            "a follow across a block": """SELECT f.follower_id || '->' || f.followee_id FROM follows f JOIN blocks b
                ON (b.blocker_id = f.follower_id AND b.blocked_id = f.followee_id)
                OR (b.blocker_id = f.followee_id AND b.blocked_id = f.follower_id)""",
            "a like of a repost": """SELECT l.post_id FROM likes l JOIN posts p ON p.id = l.post_id
                WHERE p.repost_of_id IS NOT NULL""",
            "a post reposted twice by one user": """SELECT author_id || ':' || repost_of_id FROM posts
                WHERE repost_of_id IS NOT NULL GROUP BY author_id, repost_of_id HAVING count(*) > 1""",
            "a repost of a repost": """SELECT p.id FROM posts p JOIN posts o ON o.id = p.repost_of_id
                WHERE o.repost_of_id IS NOT NULL""",
            "a pending follow of a public account": """SELECT f.follower_id || '->' || f.followee_id FROM follows f
                JOIN users u ON u.id = f.followee_id WHERE f.status = 'pending' AND u.is_private = 0""",
            "a follow from before one of the two joined": """SELECT f.follower_id || '->' || f.followee_id
                FROM follows f JOIN users a ON a.id = f.follower_id JOIN users b ON b.id = f.followee_id
                WHERE f.created_at < a.joined_at OR f.created_at < b.joined_at""",
            "a block from before one of the two joined": """SELECT k.blocker_id || '->' || k.blocked_id
                FROM blocks k JOIN users a ON a.id = k.blocker_id JOIN users b ON b.id = k.blocked_id
                WHERE k.created_at < a.joined_at OR k.created_at < b.joined_at""",
            "a post from before its author joined": """SELECT p.id FROM posts p JOIN users u ON u.id = p.author_id
                WHERE p.created_at < u.joined_at""",
            "a like from before the post": """SELECT l.user_id || ':' || l.post_id FROM likes l
                JOIN posts p ON p.id = l.post_id WHERE l.created_at < p.created_at""",
            "a reply to a post that never was": """SELECT p.id FROM posts p WHERE p.reply_to_id IS NOT NULL
                AND p.reply_to_id NOT IN (SELECT id FROM posts)
                AND p.reply_to_id NOT IN (SELECT id FROM deleted_posts)""",
            "a repost of a post that is gone": """SELECT p.id FROM posts p WHERE p.repost_of_id IS NOT NULL
                AND p.repost_of_id NOT IN (SELECT id FROM posts)""",
            "a deleted post that is still there": "SELECT d.id FROM deleted_posts d JOIN posts p ON p.id = d.id",
        }
        problems = self.after_now(User.joined_at, Post.created_at, Notification.created_at, Follow.created_at,
                                  Block.created_at, Like.created_at, DeletedPost.deleted_at)
        for what, sql in checks.items():
            problems += [f"{what}: {row[0]}" for row in self.rows(sql)]
        return problems

    # -- hidden --------------------------------------------------------------------------------------

    @tool(read_only=True, hidden=True)
    def network_stats(self) -> dict:
        """Debugging only: row counts of the whole network."""
        return {"users": self._count(User), "posts": self._count(Post), "follows": self._count(Follow),
                "likes": self._count(Like), "notifications": self._count(Notification)}

    # -- helpers ---------------------------------------------------------------------------------------

    @cached_property
    def _me_id(self) -> str:
        # The signed-in user never changes within a world, so one look-up per world is enough.
        return self.rows(_ME)[0][0]

    def _me(self) -> User:
        return self.db.get(User, self._me_id)

    def _count(self, model: type, *where) -> int:
        return self.db.scalar(select(func.count()).select_from(model).where(*where))

    def _handle(self, user_id: str) -> str:
        return self.db.scalar(select(User.handle).where(User.id == user_id))

    def _blocked_between(self, a: str, b: str) -> str | None:
        """'by_you' when a blocked b, 'you' when b blocked a, else None."""
        blockers = [r[0] for r in self.rows("SELECT blocker_id FROM blocks WHERE blocker_id = ? AND blocked_id = ? "
                                            "OR blocker_id = ? AND blocked_id = ?", a, b, b, a)]
        return "by_you" if a in blockers else "you" if blockers else None

    def _not_blocked(self, other: User, action: str) -> None:
        state = self._blocked_between(self._me_id, other.id)
        if state == "by_you":
            raise ToolError(f"You have blocked @{other.handle}; unblock_user first to {action} them or their posts")
        if state == "you":
            raise ToolError(f"@{other.handle} has blocked you; you cannot {action} them or their posts")

    def _sees(self, me: User, author_id: str) -> bool:
        if author_id == me.id:
            return True
        return not self._blocked_between(me.id, author_id) and self._open_to(me, self.db.get(User, author_id))

    def _open_to(self, me: User, author: User) -> bool:
        """Whether an author's posts are open to the signed-in user, blocks aside: a public account, or
        a private one they follow (approved)."""
        return not author.is_private or bool(self.rows(
            "SELECT 1 FROM follows WHERE follower_id = ? AND followee_id = ? AND status = 'accepted'", me.id, author.id))

    def _visible(self, post: Post) -> Post:
        me = self._me()
        if post.author_id == me.id:
            return post
        author = self.db.get(User, post.author_id)
        self._not_blocked(author, "see")
        if not self._open_to(me, author):
            raise ToolError(f"Post {post.id} is by @{author.handle}, a private account you do not follow; "
                            "only their approved followers see it")
        return post

    def _original(self, post: Post, action: str) -> Post:
        if post.repost_of_id is not None:
            raise ToolError(f"Post {post.id} is a repost; {action} the original post {post.repost_of_id} instead")
        return post

    def _parent(self, me: User, parent_id: str | None) -> dict | None:
        """The post a reply answers, as the signed-in user may see it."""
        if parent_id is None:
            return None
        there, author, handle, deleted_at = self.rows(_PARENT, parent_id)[0]
        if not there:
            return {"post_id": parent_id, "status": "deleted", "deleted_at": deleted_at and _moment(deleted_at),
                    "author_id": author, "handle": handle}
        if not self._sees(me, author):
            return {"post_id": parent_id, "status": "hidden", "author_id": author, "handle": handle}
        return {**self._posts([parent_id])[0], "status": "visible"}

    def _readable(self, user_id: str | None, what: str) -> User:
        me = self._me()
        if user_id is None:
            return me
        user = self.get(User, user_id)
        if user.id == me.id:
            return me
        self._not_blocked(user, "see")
        if not self._open_to(me, user):
            raise ToolError(f"@{user.handle} is a private account; only approved followers see their {what}. "
                            "follow_user sends them a follow request")
        return user

    def _request_from(self, other: User) -> Follow:
        me = self._me()
        follow = self.db.get(Follow, (other.id, me.id))
        if follow is None or follow.status != "pending":
            state = "already follows you" if follow is not None else "has no pending follow request to you"
            raise ToolError(f"@{other.handle} {state}; list_follow_requests shows the pending ones")
        return follow

    def _notify(self, user_id: str, kind: str, actor_id: str, post_id: str | None = None) -> None:
        self.db.add(Notification(id=self.new_id("NTF", 5), user_id=user_id, kind=kind, actor_id=actor_id,
                                 post_id=post_id, created_at=self.now, read=False))

    def _relation(self, user: User) -> dict:
        return self._profile(user.id)

    def _profile(self, user_id: str) -> dict:
        me = self._me_id
        r = self.rows(_PROFILE, me, user_id)[0]
        return {"user_id": r[0], "handle": r[1], "name": r[2], "bio": r[3], "location": r[4],
                "is_private": bool(r[5]), "joined": dt.date.fromisoformat(r[6][:10]), "followers_count": r[7],
                "following_count": r[8], "post_count": r[9], **_relation(me, r[0], *r[10:])}

    def _people(self, user: User, statement, limit: int, key: str) -> dict:
        rows = self.rows(statement, user.id, limit)
        return {"user_id": user.id, "handle": user.handle, "total": rows[0][3] if rows else 0,
                key: [{"user_id": r[0], "handle": r[1], "name": r[2]} for r in rows]}

    def _post(self, post: Post) -> dict:
        return self._posts([post.id])[0]

    def _posts(self, ids: list[str]) -> list[dict]:
        """Posts by id as the tools show them, in the given order."""
        if not ids:
            return []
        found = {row[0]: row for row in self.rows(_POSTS, self._me_id, json.dumps(ids))}
        return self._shown([found[i] for i in ids])

    def _shown(self, rows: list[tuple]) -> list[dict]:
        """Posts as the tools show them, from rows of `_POST` in their order; a repost carries its original."""
        found = {row[0]: row for row in rows}  # by id; row[7] is the original a repost repeats
        wanted = [row[7] for row in rows if row[7] is not None and row[7] not in found]
        if wanted:
            found.update((row[0], row) for row in self.rows(_POSTS, self._me_id, json.dumps(wanted)))
        return [_post_view(row, found) for row in rows]


def _post_view(row: tuple, found: dict[str, tuple]) -> dict:
    """One post as the tools show it, from its row of `_POST`; a repost carries its original (from `found`),
    or None when it is gone."""
    post_id, author_id, handle, name, created_at, text, reply_to_id, repost_of_id, likes, reposts, replies, liked, \
        tags = row
    if repost_of_id is not None:
        original = found.get(repost_of_id)
        return {"post_id": post_id, "author_id": author_id, "handle": handle, "name": name,
                "created_at": _moment(created_at),
                "repost_of": None if original is None else _post_view(original, found)}
    return {"post_id": post_id, "author_id": author_id, "handle": handle, "name": name,
            "created_at": _moment(created_at), "text": text, "reply_to_post_id": reply_to_id,
            "hashtags": tags.split(" ") if tags else [], "likes": likes, "reposts": reposts, "replies": replies,
            "liked_by_you": bool(liked)}


def _moment(stored: str) -> dt.datetime:
    return dt.datetime.fromisoformat(stored)


def _like(text: str) -> str:
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _relation(me: str, user_id: str, following: str | None, back: str | None, by_you: bool, by_them: bool) -> dict:
    if user_id == me:
        return {"is_you": True}
    return {"following": None if following is None else ("accepted" if following == "accepted" else "requested"),
            "follows_you": back == "accepted",
            "blocked": "by_you" if by_you else ("you" if by_them else None)}
