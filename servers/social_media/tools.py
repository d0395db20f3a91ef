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
- Likes, follows, follow requests, approvals, mentions, replies and reposts notify the other person.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated

from pydantic import Field
from sqlalchemy import and_, delete, exists, func, or_, select, update

from prove_env.toolkit import DateTime, Entity, Id, Limit, Toolkit, ToolError, tool

from .models import Base, Block, Follow, Like, Mention, Notification, Post, PostTag, User
from .seed import seed

MAX_POST = 280
MAX_BIO = 160
TAG = re.compile(r"#([A-Za-z][A-Za-z0-9_]{0,49})")
HANDLE = re.compile(r"@([a-z0-9._]*[a-z0-9_])", re.IGNORECASE)


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
        users = self.db.scalars(select(User).where(or_(func.lower(User.name).contains(text, autoescape=True),
                                                       User.handle.contains(text, autoescape=True)))
                                .order_by(User.handle).limit(limit)).all()
        return [self._person(u) for u in users]

    @tool(read_only=True)
    def get_profile(self, user_id: Id("user") | None = None) -> dict:
        """Return a profile: name, handle, bio, location, privacy, join date, follower, following and
        post counts, and how the signed-in user relates to them.

        Args:
            user_id: whose profile, such as 'USR-0012'; the signed-in user's own when omitted.
        """
        user = self._me() if user_id is None else self.get(User, user_id)
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
        return {**self._profile(me), "approved_requests": approved}

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
        """Stop following someone, or withdraw a follow request that is still pending."""
        me, other = self._me(), self.get(User, user_id)
        existing = self.db.get(Follow, (me.id, other.id))
        if existing is None:
            raise ToolError(f"You do not follow @{other.handle} and have no pending request to them")
        was = existing.status
        self.db.delete(existing)
        return {"user_id": other.id, "handle": other.handle, "unfollowed": True,
                "was": "following" if was == "accepted" else "requested"}

    @tool(read_only=True)
    def list_follow_requests(self, limit: Limit = 20) -> list[dict]:
        """List the pending follow requests people sent to the signed-in user, oldest first."""
        me = self._me()
        rows = self.db.execute(select(Follow, User).join(User, User.id == Follow.follower_id)
                               .where(Follow.followee_id == me.id, Follow.status == "pending")
                               .order_by(Follow.created_at, Follow.follower_id).limit(limit)).all()
        return [{"user_id": u.id, "handle": u.handle, "name": u.name, "requested_at": f.created_at}
                for f, u in rows]

    @tool(produces=("user",))
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
        user = self._readable(user_id, "followers")
        query = (select(User).join(Follow, Follow.follower_id == User.id)
                 .where(Follow.followee_id == user.id, Follow.status == "accepted"))
        return self._people(user, query, limit, "followers")

    @tool(read_only=True)
    def list_following(self, user_id: Id("user") | None = None, limit: Limit = 50) -> dict:
        """List the people someone follows (approved follows only; pending requests are not
        listed), ordered by handle.

        A private account's lists are shown only to it and its approved followers.

        Args:
            user_id: whose follows, such as 'USR-0012'; the signed-in user's when omitted.
        """
        user = self._readable(user_id, "follows")
        query = (select(User).join(Follow, Follow.followee_id == User.id)
                 .where(Follow.follower_id == user.id, Follow.status == "accepted"))
        return self._people(user, query, limit, "following")

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
        """Unblock someone. Follows removed by the block do not come back."""
        me, other = self._me(), self.get(User, user_id)
        block = self.db.get(Block, (me.id, other.id))
        if block is None:
            raise ToolError(f"You have not blocked @{other.handle}")
        self.db.delete(block)
        return {"user_id": other.id, "handle": other.handle, "blocked": False}

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
        the reposts of it. Replies to it stay."""
        me, post = self._me(), self.get(Post, post_id)
        if post.author_id != me.id:
            raise ToolError(f"Post {post.id} is by @{self._handle(post.author_id)}; you can delete only your own posts")
        reposts = self.db.scalars(select(Post.id).where(Post.repost_of_id == post.id)).all()
        gone = [post.id, *reposts]
        self.db.execute(delete(Like).where(Like.post_id.in_(gone)))
        self.db.execute(delete(PostTag).where(PostTag.post_id.in_(gone)))
        self.db.execute(delete(Mention).where(Mention.post_id.in_(gone)))
        self.db.execute(delete(Post).where(Post.id.in_(reposts)))
        self.db.delete(post)
        return {"post_id": post.id, "deleted": True, "reposts_removed": len(reposts)}

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
        """Take back the signed-in user's like of a post."""
        me, post = self._me(), self.get(Post, post_id)
        like = self.db.get(Like, (me.id, post.id))
        if like is None:
            raise ToolError(f"You do not like post {post.id}, so there is nothing to take back")
        self.db.delete(like)
        self.db.flush()
        return {"post_id": post.id, "liked": False, "likes": self._count(Like, Like.post_id == post.id)}

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
        whether the signed-in user liked it, the post it replies to and its replies (oldest first)."""
        post = self._visible(self.get(Post, post_id))
        me = self._me()
        replies = [r for r in self.db.scalars(select(Post).where(Post.reply_to_id == post.id)
                                              .order_by(Post.created_at, Post.id)) if self._sees(me, r.author_id)]
        return {**self._post(post), "replies": self._posts(replies)}

    @tool(read_only=True)
    def search_posts(self, query: str | None = None, hashtag: str | None = None,
                     author_id: Id("user") | None = None, limit: Limit = 20) -> dict:
        """Find posts the signed-in user can see by words, hashtag or author, newest first (reposts left out).

        Every criterion given must match; give at least one.

        Args:
            query: words the text contains, ignoring case, such as 'farmers market'.
            hashtag: a hashtag, with or without '#', such as 'coffee'.
            author_id: only posts by this person, such as 'USR-0012'.
        """
        if not (query and query.strip()) and not (hashtag and hashtag.strip("# ")) and author_id is None:
            raise ToolError("Give a query, a hashtag or an author_id to search posts")
        me = self._me()
        filters = [Post.repost_of_id.is_(None), self._visible_clause(me)]
        if query and query.strip():
            filters.append(Post.text.icontains(query.strip(), autoescape=True))
        if hashtag and hashtag.strip("# "):
            tag = hashtag.strip("# ").lower()
            filters.append(exists().where(PostTag.post_id == Post.id, PostTag.tag == tag))
        if author_id is not None:
            filters.append(Post.author_id == self.get(User, author_id).id)
        total = self.db.scalar(select(func.count()).select_from(Post).where(*filters))
        posts = self.db.scalars(select(Post).where(*filters).order_by(Post.created_at.desc(), Post.id.desc())
                                .limit(limit)).all()
        return {"total": total, "posts": self._posts(posts)}

    # -- feeds ---------------------------------------------------------------------------------------

    @tool(read_only=True, produces=("post", "user"))
    def get_home_feed(self, limit: Limit = 20, before: DateTime | None = None) -> list[dict]:
        """The signed-in user's home feed: posts, replies and reposts by the user and the people they
        follow (approved follows), newest first. Pending requests and blocked people add nothing.

        Args:
            before: only entries older than this instant, such as '2026-03-14T09:30', to see further back.
        """
        me = self._me()
        followed = select(Follow.followee_id).where(Follow.follower_id == me.id, Follow.status == "accepted")
        filters = [or_(Post.author_id == me.id, Post.author_id.in_(followed))]
        if before is not None:
            filters.append(Post.created_at < before)
        entries = []
        for post in self.db.scalars(select(Post).where(*filters).order_by(Post.created_at.desc(), Post.id.desc())
                                    .limit(limit * 2 + 10)):
            if post.repost_of_id is not None:
                original = self.db.get(Post, post.repost_of_id)
                if original is None or not self._sees(me, original.author_id):
                    continue
            entries.append(post)
            if len(entries) == limit:
                break
        return self._posts(entries)

    @tool(read_only=True, produces=("post",))
    def get_user_timeline(self, user_id: Id("user") | None = None, limit: Limit = 20) -> dict:
        """Someone's posts, replies and reposts, newest first.

        A private account's timeline is shown only to it and its approved followers; blocked
        people see nothing of each other.

        Args:
            user_id: whose timeline, such as 'USR-0012'; the signed-in user's own when omitted.
        """
        user = self._readable(user_id, "posts")
        total = self._count(Post, Post.author_id == user.id)
        posts = self.db.scalars(select(Post).where(Post.author_id == user.id)
                                .order_by(Post.created_at.desc(), Post.id.desc()).limit(limit)).all()
        return {"user_id": user.id, "handle": user.handle, "total": total, "posts": self._posts(posts)}

    @tool(read_only=True)
    def get_trending_hashtags(self, hours: Annotated[int, Field(ge=1, le=168)] = 24, limit: Limit = 10) -> dict:
        """The hashtags used in the most posts over the last hours, from public accounts only.

        Ties are ordered by hashtag. Reposts do not count.

        Args:
            hours: the window, ending now, in hours from 1 to 168 (a week); 24 when omitted.
        """
        since = self.now - dt.timedelta(hours=hours)
        rows = self.db.execute(
            select(PostTag.tag, func.count().label("n")).join(Post, Post.id == PostTag.post_id)
            .join(User, User.id == Post.author_id)
            .where(Post.created_at >= since, Post.created_at <= self.now, User.is_private.is_(False))
            .group_by(PostTag.tag).order_by(func.count().desc(), PostTag.tag).limit(limit)).all()
        return {"since": since, "until": self.now, "hashtags": [{"hashtag": t, "posts": n} for t, n in rows]}

    # -- notifications -------------------------------------------------------------------------------

    @tool(read_only=True, produces=("user", "post"))
    def list_notifications(self, unread_only: bool = False, limit: Limit = 20) -> dict:
        """The signed-in user's notifications, newest first: likes, follows, follow requests,
        approvals, mentions, replies and reposts, each with who did it.

        Args:
            unread_only: only the notifications not yet marked read.
        """
        me = self._me()
        filters = [Notification.user_id == me.id]
        if unread_only:
            filters.append(Notification.read.is_(False))
        unread = self._count(Notification, Notification.user_id == me.id, Notification.read.is_(False))
        rows = self.db.execute(select(Notification, User).join(User, User.id == Notification.actor_id)
                               .where(*filters).order_by(Notification.created_at.desc(), Notification.id.desc())
                               .limit(limit)).all()
        return {"unread": unread, "notifications": [
            {"notification_id": n.id, "kind": n.kind, "user_id": u.id, "handle": u.handle, "name": u.name,
             "post_id": n.post_id, "created_at": n.created_at, "read": n.read} for n, u in rows]}

    @tool(idempotent=True)
    def mark_notifications_read(self) -> dict:
        """Mark every notification of the signed-in user as read."""
        me = self._me()
        marked = self.db.execute(update(Notification).where(Notification.user_id == me.id,
                                                            Notification.read.is_(False))
                                 .values(read=True)).rowcount
        return {"marked_read": marked, "unread": 0}

    # -- hidden --------------------------------------------------------------------------------------

    @tool(read_only=True, hidden=True)
    def network_stats(self) -> dict:
        """Debugging only: row counts of the whole network."""
        return {"users": self._count(User), "posts": self._count(Post), "follows": self._count(Follow),
                "likes": self._count(Like), "notifications": self._count(Notification)}

    # -- helpers ---------------------------------------------------------------------------------------

    def _me(self) -> User:
        return self.db.scalar(select(User).where(User.is_me.is_(True)))

    def _count(self, model: type, *where) -> int:
        return self.db.scalar(select(func.count()).select_from(model).where(*where))

    def _handle(self, user_id: str) -> str:
        return self.db.scalar(select(User.handle).where(User.id == user_id))

    def _blocked_between(self, a: str, b: str) -> str | None:
        """'by_you' when a blocked b, 'you' when b blocked a, else None."""
        if self.db.get(Block, (a, b)) is not None:
            return "by_you"
        if self.db.get(Block, (b, a)) is not None:
            return "you"
        return None

    def _not_blocked(self, other: User, action: str) -> None:
        state = self._blocked_between(self._me().id, other.id)
        if state == "by_you":
            raise ToolError(f"You have blocked @{other.handle}; unblock_user first to {action} them or their posts")
        if state == "you":
            raise ToolError(f"@{other.handle} has blocked you; you cannot {action} them or their posts")

    def _sees(self, me: User, author_id: str) -> bool:
        if author_id == me.id:
            return True
        if self._blocked_between(me.id, author_id):
            return False
        author = self.db.get(User, author_id)
        if not author.is_private:
            return True
        follow = self.db.get(Follow, (me.id, author_id))
        return follow is not None and follow.status == "accepted"

    def _visible_clause(self, me: User):
        approved = select(Follow.followee_id).where(Follow.follower_id == me.id, Follow.status == "accepted")
        public = select(User.id).where(User.is_private.is_(False))
        blocking = select(Block.blocked_id).where(Block.blocker_id == me.id)
        blockers = select(Block.blocker_id).where(Block.blocked_id == me.id)
        return or_(Post.author_id == me.id,
                   and_(or_(Post.author_id.in_(public), Post.author_id.in_(approved)),
                        Post.author_id.not_in(blocking), Post.author_id.not_in(blockers)))

    def _visible(self, post: Post) -> Post:
        me = self._me()
        if post.author_id == me.id:
            return post
        author = self.db.get(User, post.author_id)
        self._not_blocked(author, "see")
        if not self._sees(me, author.id):
            raise ToolError(f"Post {post.id} is by @{author.handle}, a private account you do not follow; "
                            "only their approved followers see it")
        return post

    def _original(self, post: Post, action: str) -> Post:
        if post.repost_of_id is not None:
            raise ToolError(f"Post {post.id} is a repost; {action} the original post {post.repost_of_id} instead")
        return post

    def _readable(self, user_id: str | None, what: str) -> User:
        me = self._me()
        if user_id is None:
            return me
        user = self.get(User, user_id)
        if user.id == me.id:
            return me
        self._not_blocked(user, "see")
        if not self._sees(me, user.id):
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
        me = self._me()
        if user.id == me.id:
            return {"is_you": True}
        out = self.db.get(Follow, (me.id, user.id))
        back = self.db.get(Follow, (user.id, me.id))
        return {"following": None if out is None else ("accepted" if out.status == "accepted" else "requested"),
                "follows_you": back is not None and back.status == "accepted",
                "blocked": self._blocked_between(me.id, user.id)}

    def _person(self, user: User) -> dict:
        return {"user_id": user.id, "handle": user.handle, "name": user.name, "is_private": user.is_private,
                **self._relation(user)}

    def _profile(self, user: User) -> dict:
        accepted = Follow.status == "accepted"
        return {"user_id": user.id, "handle": user.handle, "name": user.name, "bio": user.bio,
                "location": user.location, "is_private": user.is_private, "joined": user.joined_at.date(),
                "followers": self._count(Follow, Follow.followee_id == user.id, accepted),
                "following": self._count(Follow, Follow.follower_id == user.id, accepted),
                "posts": self._count(Post, Post.author_id == user.id),
                **self._relation(user)}

    def _people(self, user: User, query, limit: int, key: str) -> dict:
        total = self.db.scalar(select(func.count()).select_from(query.subquery()))
        people = self.db.scalars(query.order_by(User.handle).limit(limit)).all()
        return {"user_id": user.id, "handle": user.handle, "total": total,
                key: [{"user_id": u.id, "handle": u.handle, "name": u.name} for u in people]}

    def _post(self, post: Post) -> dict:
        return self._posts([post])[0]

    def _posts(self, posts: list[Post]) -> list[dict]:
        """Posts as the tools show them, with their counts read in a few grouped queries."""
        if not posts:
            return []
        me_id = self._me().id
        wanted = {p.repost_of_id for p in posts if p.repost_of_id is not None}
        originals = {p.id: p for p in self.db.scalars(select(Post).where(Post.id.in_(wanted)))} if wanted else {}
        every = {p.id: p for p in posts} | originals
        ids = [i for i, p in every.items() if p.repost_of_id is None]
        authors = {u.id: u for u in self.db.scalars(select(User).where(
            User.id.in_({p.author_id for p in every.values()})))}
        tags: dict[str, list[str]] = {}
        for pid, tag in self.db.execute(select(PostTag.post_id, PostTag.tag).where(PostTag.post_id.in_(ids))
                                        .order_by(PostTag.post_id, PostTag.tag)):
            tags.setdefault(pid, []).append(tag)
        likes = dict(self.db.execute(select(Like.post_id, func.count()).where(Like.post_id.in_(ids))
                                     .group_by(Like.post_id)).all())
        shares = dict(self.db.execute(select(Post.repost_of_id, func.count()).where(Post.repost_of_id.in_(ids))
                                      .group_by(Post.repost_of_id)).all())
        replies = dict(self.db.execute(select(Post.reply_to_id, func.count()).where(Post.reply_to_id.in_(ids))
                                       .group_by(Post.reply_to_id)).all())
        liked = set(self.db.scalars(select(Like.post_id).where(Like.user_id == me_id, Like.post_id.in_(ids))))

        def one(post: Post) -> dict:
            author = authors[post.author_id]
            out = {"post_id": post.id, "author_id": author.id, "handle": author.handle, "name": author.name,
                   "created_at": post.created_at}
            if post.repost_of_id is not None:
                original = originals.get(post.repost_of_id)
                out["repost_of"] = one(original) if original is not None else None
                return out
            out.update(text=post.text, reply_to_post_id=post.reply_to_id, hashtags=tags.get(post.id, []),
                       likes=likes.get(post.id, 0), reposts=shares.get(post.id, 0), replies=replies.get(post.id, 0),
                       liked_by_you=post.id in liked)
            return out

        return [one(p) for p in posts]
