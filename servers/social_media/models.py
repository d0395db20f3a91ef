"""The social network's tables: users and their relations (follows, blocks), posts with their
hashtags, mentions, likes and reposts, and notifications.

The signed-in person is the one user with `is_me`. A follow is a row of `follows`; a follow of a
private account starts 'pending' until its owner approves it. A repost is a post with
`repost_of_id` set and no text of its own; a reply is a post with `reply_to_id` set. A deleted post
leaves only a row of `deleted_posts`, so that its replies (which stay) and anyone naming it learn it
was deleted. The home feed and trending hashtags are never stored: they are derived from these rows
on every read.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NOTIFICATION_KINDS = ("like", "follow", "follow_request", "follow_accepted", "mention", "reply", "repost")


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "USR-0007"
    handle: Mapped[str] = mapped_column(unique=True)  # "ada.park", said with an @
    name: Mapped[str]
    bio: Mapped[str]
    location: Mapped[str | None]
    is_private: Mapped[bool] = mapped_column(default=False)
    is_me: Mapped[bool] = mapped_column(default=False)
    joined_at: Mapped[dt.datetime]


class Follow(Base):
    __tablename__ = "follows"
    __table_args__ = (Index("ix_follows_followee", "followee_id", "status"),)

    follower_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    followee_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    status: Mapped[str]  # accepted | pending
    created_at: Mapped[dt.datetime]


class Block(Base):
    __tablename__ = "blocks"

    blocker_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    created_at: Mapped[dt.datetime]


class Post(Base):
    __tablename__ = "posts"
    # The timeline and the home feed read posts newest first along these, without a sort and, for the
    # feed, without reading the rows of posts it passes over.
    __table_args__ = (Index("ix_posts_author", "author_id", "created_at", "id"),
                      Index("ix_posts_created", "created_at", "id", "author_id", "repost_of_id"))

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PST-0042"
    author_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    text: Mapped[str]  # empty for a repost
    created_at: Mapped[dt.datetime]
    reply_to_id: Mapped[str | None] = mapped_column(index=True)
    repost_of_id: Mapped[str | None] = mapped_column(index=True)


class DeletedPost(Base):
    """What is left of a post its author deleted: its id, its author and when it went."""

    __tablename__ = "deleted_posts"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # the post's own id, "PST-0042"
    author_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    deleted_at: Mapped[dt.datetime]


class PostTag(Base):
    __tablename__ = "post_tags"
    __table_args__ = (Index("ix_post_tags_tag", "tag"),)

    post_id: Mapped[str] = mapped_column(ForeignKey("posts.id"), primary_key=True)
    tag: Mapped[str] = mapped_column(primary_key=True)  # lower case, without '#'


class Mention(Base):
    __tablename__ = "mentions"

    post_id: Mapped[str] = mapped_column(ForeignKey("posts.id"), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)


class Like(Base):
    __tablename__ = "likes"
    __table_args__ = (Index("ix_likes_post", "post_id"),)

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), primary_key=True)
    post_id: Mapped[str] = mapped_column(ForeignKey("posts.id"), primary_key=True)
    created_at: Mapped[dt.datetime]


class Notification(Base):
    __tablename__ = "notifications"
    __table_args__ = (Index("ix_notifications_user", "user_id", "created_at"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "NTF-0101"
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))  # who is notified
    kind: Mapped[str]  # one of NOTIFICATION_KINDS
    actor_id: Mapped[str] = mapped_column(ForeignKey("users.id"))  # who did it
    post_id: Mapped[str | None]
    created_at: Mapped[dt.datetime]
    read: Mapped[bool] = mapped_column(default=False)
