"""The seed: 60 people (the signed-in user, a private account, is the first), their follows
(accepted, and pending requests to private accounts, some of them to and from the user), a few
blocks, about 400 posts over the last 60 days with replies, reposts, hashtags and mentions, the
likes on them, and the notifications all of it caused; and one post deleted by its author after
others had replied to it, whose replies stay. Every instant is before the frozen "now"; post ids
follow the order in which the posts were written."""

from __future__ import annotations

import datetime as dt
import re

from prove_env.world import SeedContext

from .models import Block, DeletedPost, Follow, Like, Mention, Notification, Post, PostTag, User

N_USERS = 60
# What posts are about: a person names a post by one of these ("your post about the farmers market").
SUBJECTS = (
    "the farmers market", "my sourdough starter", "the new ramen place", "marathon training", "the solar eclipse",
    "our hiking trip", "the book club pick", "my vegetable garden", "the jazz festival", "learning Spanish",
    "the office move", "my first pottery class", "the hackathon", "the rooftop concert", "the bike commute",
    "the camping weekend", "the charity run", "my new puppy", "the thrift store haul", "the film festival",
    "the chess tournament", "the coffee roastery", "the meteor shower", "the ski trip", "the street food fair",
    "my kitchen remodel", "the science museum", "the open mic night", "the beach cleanup", "the board game night",
    "the yoga retreat", "the robotics club", "the lake house", "the art walk", "the trivia night",
    "my home espresso setup", "the community garden", "the road trip", "the climbing gym", "the podcast launch",
    "the bakery downtown", "the photo walk", "the soccer final", "the new library", "the cooking class",
    "the winter market", "the volunteer shift", "the birdwatching trip", "the vinyl sale", "the kayak tour",
)
TEMPLATES = (
    "Can't stop thinking about {s}. Highly recommend!", "Finally got around to {s} today.",
    "Hot take: {s} is overrated.", "Anyone else going to {s} this weekend?", "Quick update on {s}: so far so good.",
    "Spent the whole afternoon on {s} and loved every minute.", "Photos from {s} are up!",
    "Honestly {s} made my week.", "Lessons learned from {s}, a thread.", "Who wants to join me for {s}?",
    "Not sure how I feel about {s} yet.", "Big thanks to everyone who came out for {s}.",
)
REPLIES = ("So true!", "Congrats, that's awesome.", "Count me in.", "Wait, really?", "Love this.",
           "Great photos!", "Totally agree with you.", "Sending good vibes.", "This made my day.",
           "Tell me more!", "Ha, same here.", "Need to try this.")
TAGS = ("weekend", "foodie", "running", "booklover", "gardening", "music", "travel", "coffee", "photography",
        "tech", "fitness", "art", "community", "outdoors", "dogsofinstagram", "diy", "gaming", "film")
# Replies to a post that its author deleted afterwards.
ORPHAN_REPLIES = ("Wait, is this still happening on Saturday?", "Sharing this with my whole team!",
                  "Where did you hear about this first?", "Sign me up, sounds great.")
# Tags with a burst of posts in the last day, so that trending has a clear top with ties below it.
BURST = (("worldcup", 7), ("heatwave", 5), ("launchday", 5), ("coffee", 3))
BIOS = ("Coffee first, questions later.", "Runner, reader, occasional baker.", "Dog person. Plant collector.",
        "Software by day, guitar by night.", "Exploring one trail at a time.", "Teacher. Opinions are my own.",
        "Amateur photographer and full-time optimist.", "Cooking my way through every cuisine.",
        "Here for the memes and the bird pics.", "Designer who loves good typography.", "", "")


def _handle(ctx: SeedContext, first: str, last: str, taken: set[str]) -> str:
    first, last = re.sub(r"[^a-z]", "", first.lower()), re.sub(r"[^a-z]", "", last.lower())
    forms = (f"{first}.{last}", f"{first}{last[0]}", f"{first}_{last}", f"{first}{ctx.rng.randint(10, 99)}",
             f"{last}.{first[0]}", f"the{first}{last[0]}")
    handle = forms[ctx.rng.randrange(len(forms))]
    while handle in taken:
        handle = f"{first}{last[:2]}{ctx.rng.randint(100, 999)}"
    taken.add(handle)
    return handle


def seed(ctx: SeedContext) -> None:
    rng, now = ctx.rng, ctx.now
    users: list[User] = []
    handles: set[str] = set()
    for i in range(N_USERS):
        first, last = ctx.person_name()
        users.append(User(id=ctx.new_id("USR"), handle=_handle(ctx, first, last, handles), name=f"{first} {last}",
                          bio=rng.choice(BIOS), location=ctx.fake.city() if rng.random() < 0.7 else None,
                          is_private=i == 0 or rng.random() < 0.25, is_me=i == 0,
                          joined_at=ctx.moment(-1500, -90)))
    ctx.add(*users)
    me, others = users[0], users[1:]

    # blocks first: no follow ever crosses a block
    blocks: set[tuple[str, str]] = set()
    for blocker, blocked in [(me, others[5]), (me, others[17]), (others[11], me)] + \
            [tuple(rng.sample(others, 2)) for _ in range(5)]:
        blocks.add((blocker.id, blocked.id))
    ctx.add(*[Block(blocker_id=a, blocked_id=b, created_at=ctx.moment(-80, -1)) for a, b in sorted(blocks)])

    def blocked(a: str, b: str) -> bool:
        return (a, b) in blocks or (b, a) in blocks

    follows: dict[tuple[str, str], Follow] = {}

    def follow(a: User, b: User, pending_share: float, days: tuple[float, float] = (-400, -1)) -> None:
        if a.id == b.id or blocked(a.id, b.id) or (a.id, b.id) in follows:
            return
        status = "pending" if b.is_private and rng.random() < pending_share else "accepted"
        # nobody follows anyone before both of them joined
        created = max(ctx.moment(*days), max(a.joined_at, b.joined_at) + dt.timedelta(days=1))
        follows[(a.id, b.id)] = Follow(follower_id=a.id, followee_id=b.id, status=status, created_at=created)

    for other in rng.sample(others, 22):
        follow(me, other, 0.2)
    for other in [u for u in others if u.is_private and (me.id, u.id) not in follows][:2]:
        follow(me, other, 1.0, (-6, -1))  # requests the user sent that are still waiting
    for other in rng.sample(others, 26):
        follow(other, me, 0.0)
    for other in rng.sample([u for u in others if (u.id, me.id) not in follows], 4):
        follow(other, me, 1.0, (-5, -0.1))  # requests waiting for the user's approval
    for user in others:
        for other in rng.sample(users, rng.randint(2, 10)):
            if other is not me:
                follow(user, other, 0.15)
    ctx.add(*[follows[k] for k in sorted(follows)])

    # who sees whose posts, worked out once from plain values: the follows and blocks are settled
    private = {u.id for u in users if u.is_private}
    accepted = {key for key, f in follows.items() if f.status == "accepted"}

    def sees(viewer: str, author: str) -> bool:
        if blocked(viewer, author):
            return False
        return author not in private or viewer == author or (viewer, author) in accepted

    audience = {a.id: [u for u in users if u.id != a.id and sees(u.id, a.id)] for a in users}
    sees_of = {u.id: frozenset(a.id for a in users if sees(u.id, a.id)) for u in users}

    # posts: (time, author, kind, text, parent index, subject)
    drafts: list[tuple[dt.datetime, User, str]] = []
    for user in users:
        for _ in range(8 if user is me else rng.choice((0, 1, 3, 4, 5, 6, 7, 8, 9, 10))):
            drafts.append((ctx.moment(-60, -0.05), user, "post"))
    for tag, count in BURST:
        for _ in range(count):
            drafts.append((ctx.moment(-0.9, -0.05), rng.choice(others), f"#{tag}"))
    for _ in range(70):
        drafts.append((ctx.moment(-55, -0.05), rng.choice(users), "reply"))
    for _ in range(35):
        drafts.append((ctx.moment(-55, -0.05), rng.choice(others), "repost"))
    drafts.sort(key=lambda d: (d[0], d[1].id, d[2]))

    posts: list[Post] = []
    tags: list[PostTag] = []
    mentions: list[Mention] = []
    events: list[tuple[dt.datetime, str, str, str, str | None]] = []  # (when, kind, user, actor, post)
    subjects_used: dict[str, set[str]] = {}
    originals: list[tuple[str, str]] = []  # (post id, author id) of the posts neither replies nor reposts
    reposted: dict[str, set[str]] = {}  # author id -> the posts they reposted
    for when, author, kind in drafts:
        visible = sees_of[author.id]
        earlier = [(post_id, by) for post_id, by in originals if by != author.id and by in visible]
        if kind == "repost":
            taken = reposted.setdefault(author.id, set())
            pool = [(post_id, by) for post_id, by in earlier if by not in private and post_id not in taken]
            if not pool:
                continue
            original, original_author = rng.choice(pool[-40:])
            post = Post(id=ctx.new_id("PST"), author_id=author.id, text="", created_at=when,
                        repost_of_id=original)
            posts.append(post)
            taken.add(original)
            events.append((when, "repost", original_author, author.id, original))
            continue
        parent = None
        if kind == "reply":
            if not earlier:
                continue
            parent = rng.choice(earlier[-60:])
            text = rng.choice(REPLIES)
        else:
            used = subjects_used.setdefault(author.id, set())
            subject = rng.choice([s for s in SUBJECTS if s not in used])
            used.add(subject)
            text = rng.choice(TEMPLATES).format(s=subject)
            text = text[0].upper() + text[1:]
        post_tags: list[str] = []
        if kind.startswith("#"):
            post_tags.append(kind[1:])
        for tag in rng.sample(TAGS, rng.choice((0, 0, 1, 1, 2))):
            if tag not in post_tags:
                post_tags.append(tag)
        mentioned: User | None = None
        if kind != "reply" and rng.random() < 0.15:
            mentioned = rng.choice([u for u in users if u is not author and not blocked(u.id, author.id)])
            text += f" cc @{mentioned.handle}"
        if post_tags:
            text += " " + " ".join(f"#{t}" for t in post_tags)
        post = Post(id=ctx.new_id("PST"), author_id=author.id, text=text, created_at=when,
                    reply_to_id=parent[0] if parent else None)
        posts.append(post)
        if parent is None:
            originals.append((post.id, author.id))
        tags += [PostTag(post_id=post.id, tag=t) for t in post_tags]
        if mentioned is not None:
            mentions.append(Mention(post_id=post.id, user_id=mentioned.id))
            events.append((when, "mention", mentioned.id, author.id, post.id))
        if parent is not None and parent[1] != author.id:
            events.append((when, "reply", parent[1], author.id, parent[0]))
    ctx.add(*posts, *tags, *mentions)

    likes: list[Like] = []
    for post in posts:
        if post.repost_of_id is not None:
            continue
        fans = audience[post.author_id]
        for fan in rng.sample(fans, min(len(fans), rng.choice((0, 1, 2, 3, 4, 6, 9)))):
            hours = max(1, int((now - post.created_at).total_seconds() // 3600))
            when = post.created_at + dt.timedelta(minutes=15 * rng.randint(1, max(1, min(hours, 72) * 4 - 1)))
            when = min(when, now - dt.timedelta(minutes=5))
            likes.append(Like(user_id=fan.id, post_id=post.id, created_at=when))
            events.append((when, "like", post.author_id, fan.id, post.id))
    ctx.add(*likes)

    for f in follows.values():
        events.append((f.created_at, "follow" if f.status == "accepted" else "follow_request", f.followee_id,
                       f.follower_id, None))
    events.sort(key=lambda e: (e[0], e[1], e[2], e[3], e[4] or ""))
    ctx.add(*[Notification(id=ctx.new_id("NTF", 5), user_id=user, kind=kind, actor_id=actor, post_id=post,
                           created_at=when, read=when < now - dt.timedelta(days=4))
              for when, kind, user, actor, post in events])

    # last, so that every earlier draw stays as it was: a public post people replied to, then deleted
    open_to_me = [u for u in others if not u.is_private and not blocked(me.id, u.id)]
    author = rng.choice(open_to_me)
    gone, written = ctx.new_id("PST"), ctx.moment(-20, -12)
    repliers = rng.sample([u for u in open_to_me if u is not author and not blocked(u.id, author.id)], 3)
    for k, (replier, text) in enumerate(zip(repliers, rng.sample(ORPHAN_REPLIES, 3), strict=False)):
        ctx.add(Post(id=ctx.new_id("PST"), author_id=replier.id, text=text, reply_to_id=gone,
                     created_at=written + dt.timedelta(hours=3 * (k + 1))))
    ctx.add(DeletedPost(id=gone, author_id=author.id, deleted_at=written + dt.timedelta(days=rng.randint(2, 6))))
