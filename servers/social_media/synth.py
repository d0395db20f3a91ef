"""How tasks are written for the social network: its signed-in user asks about and acts on people
they name by name or @handle ("Ann Smith", "@ann16") and posts they name by what they are about
("Ann's post about the farmers market", "my post about the bike commute").

A bundle is the whole network as the user sees it. People are split by their id number between
the kinds of change (a person who may be followed is never also blocked, and nobody whose posts a
request names is unfollowed or blocked), and the user's own posts between deleting and reading,
so that two requests of one task never get in each other's way. Every request that asks to be
told something declares the facts its answer must state, read from the serving call's result.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

from prove_env.facts import NOTHING, one_of
from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref

from .seed import SUBJECTS, TAGS

Bundle = dict[str, Any]
NEW_BIOS = ("Coffee, code and long walks.", "Amateur baker, professional snacker.", "Trail runner and plant parent.",
            "Reading my way through the classics.", "Always planning the next road trip.",
            "Photographer of small everyday things.", "Learning to play the cello, slowly.")
NEW_POSTS = ("Just finished my first 10k! #running", "Trying a new pasta recipe tonight #foodie",
             "Rainy Sunday, perfect for a good book #booklover", "The tomatoes are finally ripe #gardening",
             "Sunrise from the top of the hill this morning #outdoors", "New mural downtown is stunning #art",
             "Finally fixed the squeaky door myself #diy", "Best cold brew in town, no contest #coffee")
# a reply the user writes fits what the post says: praise for photos only under a post of photos,
# agreement only with an opinion, joining in only where people go somewhere
REPLY_TEXTS = (("", ("So glad you shared this.",)),
               ("photos", ("Wow, great photos.", "This looks amazing.")),
               ("recommend|made my week|loved every minute|overrated", ("Totally agree!",)),
               ("this weekend|join me", ("Count me in!",)),
               ("came out for|loved every minute", ("Count me in next time!",)))


def _replies_to(text: str) -> list[str]:
    """The reply texts that fit a post that says `text`."""
    low = text.lower()
    return [reply for cues, replies in REPLY_TEXTS if not cues or any(c in low for c in cues.split("|"))
            for reply in replies]


def _subject(text: str) -> str | None:
    low = text.lower()
    return next((s for s in SUBJECTS if s.lower() in low), None)


def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """The network around the signed-in user: everyone with how they relate to the user, the
    posts of the people the user can see, the user's own posts and the pending follow requests."""
    me = read("get_profile")
    people: dict[str, dict] = {}
    for letter in "aeiouy":
        for person in read("find_users", query=letter, limit=100):
            if not person.get("is_you"):
                people.setdefault(person["user_id"], person)
    requests = read("list_follow_requests", limit=100)
    requesters = {r["user_id"] for r in requests}
    mine = read("get_user_timeline", limit=100)["posts"]
    reposted = {p["repost_of"]["post_id"] for p in mine if p.get("repost_of")}
    # the user's own posts are found on their own timeline (its first page, as a call without a
    # limit shows it, less a few places for posts a conversation adds), each by a subject no other
    # entry of that page speaks of
    page = read("get_user_timeline")["posts"][:15]
    subjects = [_subject((p.get("repost_of") or p)["text"]) for p in page]
    my_posts = []
    for post, about in zip(page, subjects, strict=True):
        if post.get("repost_of") or post["reply_to_post_id"] or not about or subjects.count(about) > 1:
            continue
        my_posts.append({**post, "about": about})
    follow_group, block_group, readers = [], [], []
    for uid in sorted(people):
        person = people[uid]
        number = int(uid.split("-")[1])
        if uid in requesters:
            continue
        if number % 8 == 0:
            follow_group.append(person)
        elif number % 8 == 4:
            block_group.append(person)
        elif person["blocked"] is None and (not person["is_private"] or person["following"] == "accepted"):
            readers.append(person)
    posts = []
    for person in readers:
        person["timeline"] = read("get_user_timeline", user_id=person["user_id"], limit=100)["posts"]
        profile = read("get_profile", user_id=person["user_id"])  # how long their follow lists are
        person["followers_count"], person["following_count"] = profile["followers_count"], profile["following_count"]
        for post in person["timeline"]:
            if post.get("repost_of") or post["reply_to_post_id"] or not (about := _subject(post["text"])):
                continue
            posts.append({**post, "about": about, "author": person, "reposted": post["post_id"] in reposted})
    replies = []  # replies whose words and author name them, with the post each answers as the user sees it
    for person in readers:
        # the words name a reply only where its author said them once: "Totally agree with you." and
        # "Totally agree with you. #art" by one person are two replies the same quote may mean
        said = [_words(p["text"]) for p in person["timeline"] if p.get("text")]
        for post in person["timeline"]:
            if post.get("reply_to_post_id") and said.count(_words(post["text"])) == 1:
                parent = read("get_post", post_id=post["post_id"])["in_reply_to"]
                if parent["status"] in ("visible", "deleted"):
                    replies.append({**post, "author": person, "parent": parent})
    # a post the search by its words alone shows (its first page, as a call without a limit shows
    # it) as the only entry by its author is found by that search: the results name each author,
    # so looking the author up first would be a longer route than the request needs
    pages: dict[str, list[dict]] = {}

    def by_words(post: dict, words: str, quoted: bool = False) -> bool:
        """Whether the search by `words` shows `post` as its author's only entry there; of a reply
        quoted word for word, as its author's only entry that says those words (their other
        entries that hold them say more, so the quote tells the reply apart)."""
        if words not in pages:
            pages[words] = read("search_posts", query=words)["posts"]
        page = [p for p in pages[words] if p["author_id"] == post["author_id"]
                and (not quoted or _words(p.get("text") or "") == _words(post["text"]))]
        return [p["post_id"] for p in page] == [post["post_id"]]

    for post in posts:
        post["by_words"] = by_words(post, _topic(post["about"]))
    for reply in replies:
        reply["by_words"] = by_words(reply, reply["text"], quoted=True)
    return [{"now": now, "me": me, "people": people, "requests": requests, "follow_group": follow_group,
             "block_group": block_group, "readers": readers, "posts": posts, "my_posts": my_posts, "replies": replies,
             "feed": read("get_home_feed", limit=5), "trending": read("get_trending_hashtags"),
             "notes": read("list_notifications", limit=5)}]


# -- how people name things ------------------------------------------------------------------------

def _person(person: dict, rng: random.Random, possessive: bool = False) -> tuple[str, Ref]:
    """A person said by name, by handle, or both (never both before an apostrophe-s); the look-up
    searches what was said."""
    form = rng.random() * (0.75 if possessive else 1)
    if form < 0.45:
        said, query = person["name"], person["name"]
    elif form < 0.75:
        said, query = f"@{person['handle']}", person["handle"]
    else:
        said, query = f"{person['name']} (@{person['handle']})", person["name"]
    return said, Ref.of("user", {**person, "query": query})


def _topic(about: str) -> str:
    """What a post is about, said by someone else: 'my new puppy' becomes 'new puppy'."""
    for own in ("my ", "our "):
        if about.startswith(own):
            return about[len(own):]
    return about


def _post_ref(post: dict, rng: random.Random) -> tuple[str, Ref, Ref]:
    """'Ann Smith's post about the farmers market', 'the post by @ann16 about her new puppy',
    found by what it is about (under its author, found first, where those words leave it in doubt)."""
    said, author = _person(post["author"], rng)
    topic = _topic(post["about"])
    about = topic if topic == post["about"] else f"their {topic}"
    if said.endswith(")") or rng.random() < 0.3:
        text = f"the post by {said} about {about}"
    else:
        text = f"{said}'s post about {about}"
    return text, Ref.of("post", {**post, "query": topic}, author), author


def _pick(rng: random.Random, items: list) -> Any:
    return rng.choice(items) if items else None


goals = Goals()


# -- people and profiles -------------------------------------------------------------------------------

@goals.add("find_users", 0.6)
def find_users(b: Bundle, rng: random.Random) -> Ask | None:
    person = _pick(rng, b["readers"])
    if person is None:
        return None
    name = person["name"]
    say = rng.choice([f"What's {name}'s handle on here?", f"Could you look up the @handle of {name} for me?",
                      f"I want to tag {name} in something later. What's their handle?",
                      f"Do you know what username {name} goes by?"])
    return Ask({"query": name}, say=say, terse=f"{name}'s handle?", mentions=(name,),
               facts=lambda r: [next(u["handle"] for u in r if u["name"] == name)])


@goals.add("get_profile")
def get_profile(b: Bundle, rng: random.Random) -> Ask | None:
    """A count of followers or of follows: the profile tells both (the follow lists are asked for
    the names in them, which the profile does not show)."""
    following = rng.random() < 0.4
    field = "following_count" if following else "followers_count"
    if rng.random() < 0.3:
        if following:
            return Ask({}, say=rng.choice(["How many accounts am I following?",
                                           "How many people do I follow these days?",
                                           "Quick question: how many accounts do I follow at the moment?"]),
                       terse="How many do I follow?", facts=lambda r: [r[field]])
        return Ask({}, say=rng.choice(["How many followers do I have right now?",
                                       "Quick question: what's my follower count at the moment?",
                                       "I'm curious how many people follow me these days."]),
                   terse="My follower count?", facts=lambda r: [r[field]])
    person = _pick(rng, b["readers"])
    if person is None:
        return None
    said, ref = _person(person, rng, possessive=True)
    if following:
        return Ask({"user_id": person["user_id"]},
                   say=rng.choice([f"How many accounts does {said} follow?", f"How many accounts is {said} following?",
                                   f"Can you pull up {said}'s profile and tell me how many accounts they follow?"]),
                   terse=f"Number of accounts {said} follows?", refs=(ref,), facts=lambda r: [r[field]])
    return Ask({"user_id": person["user_id"]},
               say=rng.choice([f"How many followers does {said} have?", f"Can you pull up {said}'s profile and "
                               "tell me their follower count?", f"I wonder how popular {said} is; how many "
                               "followers do they have?", f"How many people follow {said}?"]),
               terse=f"Follower count of {said}?", refs=(ref,), facts=lambda r: [r[field]])


@goals.add("update_profile", 0.5)
def update_profile(b: Bundle, rng: random.Random) -> Ask | None:
    bio = rng.choice([x for x in NEW_BIOS if x != b["me"]["bio"]])
    return Ask({"bio": bio}, say=rng.choice(["Time for a new bio.", "Can you update the bio on my profile?",
                                             "My bio is out of date, please replace it.", "Swap out my profile bio.",
                                             "I want my profile bio to say something different.",
                                             "Let's freshen up my bio."]),
               detail=rng.choice([f"Make it say: {bio}", f"The new one should read \"{bio}\"", f"Use this: {bio}",
                                  f"Put \"{bio}\" there instead.", f"New bio: {bio}"]),
               terse=f"Set my bio to: {bio}", mentions=(bio,))


# -- follows -------------------------------------------------------------------------------------------

@goals.add("follow_user", 1.3)
def follow_user(b: Bundle, rng: random.Random) -> Ask | None:
    person = _pick(rng, [p for p in b["follow_group"] if p["following"] is None and p["blocked"] is None])
    if person is None:
        return None
    said, ref = _person(person, rng)
    return Ask({"user_id": person["user_id"]},
               say=rng.choice([f"Please follow {said} for me.", f"I'd like to start following {said}.",
                               f"A friend told me about {said}; can you follow them?", f"Follow {said}, please."]),
               terse=f"Follow {said}.", refs=(ref,))


@goals.add("unfollow_user")
def unfollow_user(b: Bundle, rng: random.Random) -> Ask | None:
    person = _pick(rng, [p for p in b["follow_group"] if p["following"] is not None])
    if person is None:
        return None
    said, ref = _person(person, rng, possessive=True)  # "I'm done with {said}'s posts"
    if person["following"] == "requested":  # not followed yet: the request is what goes, in every wording
        say = rng.choice([f"I asked to follow {said} but changed my mind; please withdraw the request.",
                          f"Cancel my follow request to {said}."])
        terse = f"Withdraw my follow request to {said}."
    else:
        say = rng.choice([f"Please unfollow {said}.", f"I'm done with {said}'s posts; unfollow them.",
                          f"Could you stop me following {said}?"])
        terse = f"Unfollow {said}."
    return Ask({"user_id": person["user_id"]}, say=say, terse=terse, refs=(ref,))


@goals.add("list_follow_requests")
def list_follow_requests(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["requests"]:
        return None
    return Ask({}, say=rng.choice(["Who's waiting for me to approve their follow request?",
                                   "Do I have any pending follow requests? Who from?",
                                   "Show me the people who asked to follow me."]),
               terse="Pending follow requests, from whom?", facts=lambda r: _people(b, r))


def _requester(b: Bundle, rng: random.Random, parity: int) -> tuple[str, Ref] | None:
    pending = [r for i, r in enumerate(b["requests"]) if i % 2 == parity]
    if not pending:
        return None
    person = rng.choice(pending)
    said, ref = _person({**b["people"].get(person["user_id"], {}), **person}, rng, possessive=True)  # "{said}'s request"
    return said, ref


@goals.add("approve_follow_request")
def approve_follow_request(b: Bundle, rng: random.Random) -> Ask | None:
    found = _requester(b, rng, 0)
    if found is None:
        return None
    said, ref = found
    return Ask({"user_id": ref.key}, say=rng.choice([f"{said} asked to follow me; please approve it.",
                                                     f"Let {said} follow me.", f"Accept the follow request from {said}."]),
               terse=f"Approve {said}'s follow request.", refs=(ref,))


@goals.add("decline_follow_request")
def decline_follow_request(b: Bundle, rng: random.Random) -> Ask | None:
    found = _requester(b, rng, 1)
    if found is None:
        return None
    said, ref = found
    return Ask({"user_id": ref.key}, say=rng.choice([f"I don't know {said}; decline their follow request.",
                                                     f"Please turn down the follow request from {said}.",
                                                     f"Say no to {said}'s request to follow me."]),
               terse=f"Decline {said}'s follow request.", refs=(ref,))


# The follow lists are asked for who is in them, never for how many: the profile shows the counts
# (an assistant that answers "how many follow Ann?" from her profile is right), and only the lists
# show the names. A list is asked of someone whose list is short enough to name everyone in it.
FEW = 8


def _someone(person: dict) -> Any:
    """A person as an answer says who: by name or by @handle."""
    return one_of(person["name"], person["handle"])


def _people(b: Bundle, people: list[dict], key: str = "user_id") -> list[Any]:
    """Each of `people` by name or by @handle, the signed-in user left out (an answer says "you")."""
    return [_someone(p) for p in people if p[key] != b["me"]["user_id"]]


def _people_in(b: Bundle, r: dict, key: str) -> list[Any]:
    """Everyone else in a follow list, each by name or by @handle."""
    return _people(b, r[key])


def _others_in(person: dict, count: str) -> int:
    """How many people besides the signed-in user are in the person's list (`count` names it)."""
    me_in = person["follows_you"] if count == "following_count" else person["following"] == "accepted"
    return person[count] - bool(me_in)


def _short_list(b: Bundle, rng: random.Random, count: str) -> tuple[dict | None, dict]:
    """Whose list to ask for: the user's own (args {}) or a visible person's, of 1 to FEW people,
    someone besides the user among them."""
    if 0 < b["me"][count] <= FEW and rng.random() < 0.4:
        return None, {}
    person = _pick(rng, [p for p in b["readers"] if 0 < p[count] <= FEW and _others_in(p, count) > 0])
    return person, ({} if person is None else {"user_id": person["user_id"]})


@goals.add("list_followers")
def list_followers(b: Bundle, rng: random.Random) -> Ask | None:
    person, args = _short_list(b, rng, "followers_count")
    if not args:
        if not 0 < b["me"]["followers_count"] <= FEW:
            return None
        return Ask({}, say=rng.choice(["Who follows me? Give me their names.", "Who are my followers?",
                                       "I'd like to know who follows me."]),
                   terse="My followers, by name?", facts=lambda r: _people_in(b, r, "followers"))
    said, ref = _person(person, rng, possessive=True)
    return Ask(args, say=rng.choice([f"Who follows {said}?", f"Can you tell me who {said}'s followers are?",
                                     f"I'm curious who is following {said}. Names, please."]),
               terse=f"Who follows {said}?", refs=(ref,), facts=lambda r: _people_in(b, r, "followers"))


@goals.add("list_following")
def list_following(b: Bundle, rng: random.Random) -> Ask | None:
    person, args = _short_list(b, rng, "following_count")
    if not args:
        if not 0 < b["me"]["following_count"] <= FEW:
            return None
        return Ask({}, say=rng.choice(["Who am I following?", "Which accounts do I follow? Names, please.",
                                       "Remind me who I follow."]),
                   terse="Who do I follow?", facts=lambda r: _people_in(b, r, "following"))
    said, ref = _person(person, rng, possessive=True)
    return Ask(args, say=rng.choice([f"Who does {said} follow?", f"Which accounts is {said} following?",
                                     f"Can you list the people {said} follows?"]),
               terse=f"Who does {said} follow?", refs=(ref,), facts=lambda r: _people_in(b, r, "following"))


# -- blocks -------------------------------------------------------------------------------------------

@goals.add("block_user")
def block_user(b: Bundle, rng: random.Random) -> Ask | None:
    person = _pick(rng, [p for p in b["block_group"] if p["blocked"] is None])
    if person is None:
        return None
    said, ref = _person(person, rng)
    return Ask({"user_id": person["user_id"]},
               say=rng.choice([f"{said} keeps bothering me. Block them.", f"Please block {said}.",
                               f"I never want to see anything from {said} again; block them, please."]),
               terse=f"Block {said}.", refs=(ref,))


@goals.add("unblock_user")
def unblock_user(b: Bundle, rng: random.Random) -> Ask | None:
    person = _pick(rng, [p for p in b["people"].values() if p["blocked"] == "by_you"])
    if person is None:
        return None
    said, ref = _person(person, rng)
    return Ask({"user_id": person["user_id"]},
               say=rng.choice([f"I blocked {said} a while ago; please unblock them.", f"Unblock {said}.",
                               f"We made up, so you can unblock {said} now."]),
               terse=f"Unblock {said}.", refs=(ref,))


# -- posts ---------------------------------------------------------------------------------------------

def _after_quote(text: str) -> str:
    """What ends a sentence that ends with a quoted `text`: nothing when the quote ends with its
    own stop ('Write "Count me in next time!"', never '..."!".'), else a full stop."""
    return "" if text.rstrip()[-1:] in (".", "!", "?") else "."


@goals.add("create_post", 1.2)
def create_post(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.45:
        post = _pick(rng, b["posts"])
        if post is None:
            return None
        said, ref, _ = _post_ref(post, rng)
        text = rng.choice(_replies_to(post["text"]))
        end = _after_quote(text)
        return Ask({"text": text, "reply_to_post_id": post["post_id"]},
                   say=rng.choice([f"Reply to {said}.", f"I want to answer {said}.",
                                   f"Could you leave a reply on {said}?"]),
                   detail=rng.choice([f"Write \"{text}\"{end}", f"Just say \"{text}\"{end}",
                                      f"The reply is \"{text}\"{end}"]),
                   terse=f"Reply to {said}: \"{text}\"", refs=(ref,), mentions=(text, _topic(post["about"])))
    text = rng.choice(NEW_POSTS)
    return Ask({"text": text}, say=rng.choice(["I'd like to post something.", "Can you publish a post for me?",
                                               "Please share a new post on my account."]),
               detail=rng.choice([f"It should say \"{text}\"{_after_quote(text)}",
                                  f"Post exactly this: \"{text}\"{_after_quote(text)}",
                                  f"Text: \"{text}\"{_after_quote(text)}"]),
               terse=f"Post: \"{text}\"", mentions=(text,))


@goals.add("delete_post")
def delete_post(b: Bundle, rng: random.Random) -> Ask | None:
    post = _pick(rng, [p for p in b["my_posts"] if int(p["post_id"].split("-")[1]) % 2 == 0])
    if post is None:
        return None
    about = post["about"]
    return Ask({"post_id": post["post_id"]},
               say=rng.choice([f"Delete my post about {about}.", f"I regret posting about {about}; take it down.",
                               f"Please remove the post I wrote about {about}."]),
               terse=f"Delete my post about {about}.", mentions=(_topic(about),),
               prior=(("get_user_timeline", {}),))  # the user's own timeline shows which post is theirs


@goals.add("like_post", 1.2)
def like_post(b: Bundle, rng: random.Random) -> Ask | None:
    post = _pick(rng, [p for p in b["posts"] if not p["liked_by_you"] and int(p["post_id"][-1]) % 2 == 0])
    if post is None:
        return None
    said, ref, _ = _post_ref(post, rng)
    return Ask({"post_id": post["post_id"]},
               say=rng.choice([f"Like {said}.", f"Please give {said} a like.", f"I loved {said}; like it for me."]),
               terse=f"Like {said}.", refs=(ref,), mentions=(_topic(post["about"]),))


@goals.add("unlike_post")
def unlike_post(b: Bundle, rng: random.Random) -> Ask | None:
    post = _pick(rng, [p for p in b["posts"] if p["liked_by_you"]])
    if post is None:
        return None
    said, ref, _ = _post_ref(post, rng)
    return Ask({"post_id": post["post_id"]},
               say=rng.choice([f"Take back my like on {said}.", f"Unlike {said}, please.",
                               f"I liked {said} by accident; undo that."]),
               terse=f"Unlike {said}.", refs=(ref,), mentions=(_topic(post["about"]),))


@goals.add("repost")
def repost(b: Bundle, rng: random.Random) -> Ask | None:
    post = _pick(rng, [p for p in b["posts"] if not p["reposted"] and not p["author"]["is_private"]
                       and int(p["post_id"][-1]) % 2 == 1])
    if post is None:
        return None
    said, ref, _ = _post_ref(post, rng)
    return Ask({"post_id": post["post_id"]},
               say=rng.choice([f"Repost {said}.", f"Share {said} with my followers.",
                               f"Everyone should see {said}; please repost it."]),
               terse=f"Repost {said}.", refs=(ref,), mentions=(_topic(post["about"]),))


@goals.add("search_posts")
def like_count(b: Bundle, rng: random.Random) -> Ask | None:
    """A post's likes: the search that finds the post lists them, so no other call is needed."""
    post = _pick(rng, b["posts"])
    if post is None:
        return None
    said, ref, author = _post_ref(post, rng)
    pid = post["post_id"]
    # the search by its words alone shows it by its author's name where it is that author's only
    # entry there; otherwise it is searched under its author, found first
    args, refs = ({"query": ref.entity["query"]}, ()) if post["by_words"] else \
        ({"query": ref.entity["query"], "author_id": author.key}, (author,))
    return Ask(args, say=rng.choice([f"How many likes did {said} get?", f"Check {said} and tell me its like count.",
                                     f"Is {said} getting any love? How many likes so far?"]),
               terse=f"Likes on {said}?", refs=refs, mentions=(_topic(post["about"]),),
               facts=lambda r: [p["likes"] or NOTHING for p in r["posts"] if p["post_id"] == pid])


@goals.add("get_post", 0.8)
def replied_to(b: Bundle, rng: random.Random) -> Ask | None:
    """What a reply answers: a post still up, or one its author deleted (the reply says so)."""
    gone = [r for r in b["replies"] if r["parent"]["status"] == "deleted"]
    kept = [r for r in b["replies"] if r["parent"]["status"] == "visible"  # whose post: someone else's, by name
            and r["parent"]["author_id"] != b["me"]["user_id"]]
    reply = _pick(rng, gone if gone and rng.random() < 0.6 else kept)
    if reply is None:
        return None
    said, author = _person(reply["author"], rng, possessive=True)  # "{said}'s reply"
    text, ref = reply["text"], Ref.of("post", {**reply, "query": reply["text"]}, author)
    if reply["parent"]["status"] == "deleted":
        return Ask({"post_id": reply["post_id"]},
                   say=rng.choice([f"{said} replied \"{text}\" to some post. Whose was it, and can I still read it?",
                                   f"Whose post was {said}'s reply \"{text}\" answering? Is that post still up?",
                                   f"I saw {said} write \"{text}\" as a reply. Whose post was it on, and is it still there?"]),
                   terse=f"Whose post did {said}'s reply \"{text}\" answer, and is it still up?", refs=(ref,),
                   mentions=(text,),  # gone: 'deleted' in the words the answer may use
                   # the deleted post shows its author's handle alone; their name (a look-up away) names them too
                   facts=lambda r: [one_of(r["in_reply_to"]["status"], "removed", "gone", "taken down", "no longer"),
                                    one_of(r["in_reply_to"]["handle"],
                                           *[p["name"] for p in [b["people"].get(r["in_reply_to"]["author_id"])]
                                             if p])])
    return Ask({"post_id": reply["post_id"]},
               say=rng.choice([f"Whose post was {said}'s reply \"{text}\" answering?",
                               f"{said} replied \"{text}\" somewhere. Who wrote the post they replied to?"]),
               terse=f"Whose post did {said}'s reply \"{text}\" answer?", refs=(ref,), mentions=(text,),
               facts=lambda r: [one_of(r["in_reply_to"]["handle"], r["in_reply_to"]["name"])])


@goals.add("search_posts", 0.8)
def search_posts(b: Bundle, rng: random.Random) -> Ask | None:
    tag = rng.choice(TAGS)
    if rng.random() < 0.4:
        return Ask({"hashtag": tag}, say=rng.choice(["I want to know how many posts use a hashtag.",
                                                     "Can you count the posts under a hashtag for me?"]),
                   detail=rng.choice([f"The tag is #{tag}.", f"It's #{tag}."]),
                   terse=f"Count of #{tag} posts?", mentions=(tag,), facts=lambda r: [r["total"]])
    return Ask({"hashtag": tag}, say=rng.choice([f"How many posts can I see tagged #{tag}?",
                                                 f"Search for posts with the #{tag} hashtag and tell me how many there are.",
                                                 f"I'm into #{tag} lately; how many posts use that tag?"]),
               terse=f"Count of #{tag} posts?", mentions=(tag,), facts=lambda r: [r["total"]])


# -- feeds and notifications -------------------------------------------------------------------------------

@goals.add("get_home_feed")
def get_home_feed(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({}, say=rng.choice(["What's the newest thing in my feed? Who posted it?",
                                   "Catch me up: who posted most recently on my home feed?",
                                   "Whose post is at the top of my home feed right now?"]),
               terse="Latest post in my feed, by whom?",
               facts=lambda r: _people(b, r[:1], "author_id"))


@goals.add("get_user_timeline")
def get_user_timeline(b: Bundle, rng: random.Random) -> Ask | None:
    person = _pick(rng, [p for p in b["readers"] if p.get("timeline") and not p["timeline"][0].get("repost_of")])
    if person is None:
        return None
    said, ref = _person(person, rng, possessive=True)
    return Ask({"user_id": person["user_id"]},
               say=rng.choice([f"What did {said} post last?", f"Show me {said}'s latest post.",
                               f"I haven't checked {said}'s page in a while. What's their most recent post?"]),
               terse=f"{said}'s last post?", refs=(ref,), facts=lambda r: [_words(r["posts"][0]["text"])])


_TRAILING_TAGS = re.compile(r"(?:\s+#\w+)+\s*$")


def _words(text: str) -> str:
    """What a post says without the hashtags it ends with ('Ha, same here.' of 'Ha, same here. #music'):
    an answer that quotes the words and names the tags apart states the post as well as one that
    copies it whole; a post of hashtags only stays whole."""
    words = _TRAILING_TAGS.sub("", text)
    return words if sum(c.isalnum() for c in words) >= 3 else text


def _top_tag(r: dict) -> list[Any]:
    """The top hashtag; when several share the most posts, any of them is the right answer."""
    if not r["hashtags"]:
        return []
    most = r["hashtags"][0]["posts"]
    tied = [h["hashtag"] for h in r["hashtags"] if h["posts"] == most]
    return [tied[0] if len(tied) == 1 else one_of(*tied)]


@goals.add("get_trending_hashtags")
def get_trending_hashtags(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.5:
        return Ask({}, say=rng.choice(["What's trending today?", "Which hashtag is the hottest right now?",
                                       "What are people talking about most over the last day?"]),
                   terse="Top hashtag today?", facts=_top_tag)
    # the window has a default (the last day): a week is said in the request, never asked for
    return Ask({"hours": 168}, say=rng.choice(["Which hashtag trended most this past week?",
                                               "Over the last seven days, what was the top hashtag?",
                                               "Tell me the top trending hashtag of the past week."]),
               terse="Top hashtag this week?", facts=_top_tag)


def _latest_from(r: dict) -> list[Any]:
    """The people behind the three newest notifications, each once, by name or by @handle."""
    return [_someone(n) for n in {n["user_id"]: n for n in r["notifications"][:3]}.values()]


@goals.add("list_notifications")
def list_notifications(b: Bundle, rng: random.Random) -> Ask | None:
    # who the newest ones are from, not how many are unread: a conversation that has marked them
    # read (mark_notifications_read) would know that count already, while marking changes no name
    if len(b["notes"]["notifications"]) < 3:
        return None
    return Ask({}, say=rng.choice(["Who are my three latest notifications from?",
                                   "Check my notifications: who are the three most recent ones from?",
                                   "Whose names are on my last three notifications?"]),
               terse="Last three notifications, from whom?", facts=_latest_from)


@goals.add("mark_notifications_read", 0.7)
def mark_notifications_read(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.35:  # the unread count, told by the marking itself
        return Ask({}, say=rng.choice(["Mark all my notifications as read. How many were unread?",
                                       "Please clear my unread notifications, and tell me how many there were."]),
                   terse="Mark notifications read; how many were unread?", facts=lambda r: [r["marked_read"]])
    return Ask({}, say=rng.choice(["Mark all my notifications as read.", "Please clear my unread notifications.",
                                   "I've seen everything; mark my notifications read."]),
               terse="Mark notifications read.")


# Questions about the whole network: only the hidden statistics count it (a search of people finds
# some by a part of their name, never all of them).
NETWORK_WIDE = (
    HiddenAsk("network_stats", lambda b, rng: "How many people have an account on this network in total?",
              facts=lambda r: [r["users"]]),
    HiddenAsk("network_stats", lambda b, rng: "What's the total number of posts ever written on this site, by everyone?",
              facts=lambda r: [r["posts"]]),
    HiddenAsk("network_stats", lambda b, rng: "How many likes have been given across the whole platform?",
              facts=lambda r: [r["likes"]]),
)


# Tools that do one another's job for some request (a post shows in the search and the timelines,
# the latest posts of the people one follows in the home feed; follow requests in the
# notifications; a profile's follower and following counts are the totals of those lists): a
# missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("list_followers", "get_profile"),
    ("list_following", "get_profile"),
    ("get_post", "search_posts", "get_user_timeline"),
    ("get_user_timeline", "search_posts"),
    ("get_user_timeline", "get_home_feed"),
    ("list_follow_requests", "list_notifications"),
)


def _under_author(ref: Ref) -> bool:
    """Whether a post is searched under its author (found first): not when its words alone find it."""
    return ref.owner is not None and not ref.entity.get("by_words")


recipe = Recipe(
    server="social_media",
    sample=sample,
    topics=("social_media",),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("user", "find_users", args=lambda r: {"query": r.entity["query"]}),
        Lookup("post", "search_posts",  # under its author only where its words alone leave it in doubt
               args=lambda r: {"query": r.entity["query"], **({"author_id": r.owner.key} if _under_author(r) else {})},
               needs=lambda r: (r.owner,) if _under_author(r) else ()),
    ),
    hidden=NETWORK_WIDE,
)
