"""How tasks are written for team chat: members who introduce themselves by name and speak of
channels by name ('#design', 'the design channel'), of people by name, and of messages the way a
person points at them ("Priya's message in #design that says 'Moving the billing page to next
sprint.'", "my message in #sales from June 28").

Every request comes in several phrasings (plain, polite, chatty, indirect, and terse ones for the
minimal level); a member's introduction is picked from many forms by a stable hash of who they
are. Requests that write hold back what to write (the text, the topic, the name, the emoji) for
the "missing" level; requests that ask to be told something declare their facts."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from prove_env.facts import one_of
from prove_env.synthesis.recipe import (
    Ask,
    Goal,
    Goals,
    HiddenAsk,
    Lookup,
    Reader,
    Recipe,
    Ref,
)
from prove_env.synthesis.wording import day, stable

Bundle = dict[str, Any]

NEW_POSTS = ("The demo moved to Thursday at 3pm.", "Standup is cancelled tomorrow.", "I'm out of office on Friday.",
             "New build is on staging, please test.", "Lunch is on me today!", "Retro notes are in the shared folder.",
             "Please review the release checklist before Monday.", "The customer call went well, details to follow.",
             "Heads up: the VPN will be down tonight from 10 to 11pm.", "Welcome aboard, glad to have you here!")
REPLY_TEXTS = ("Thanks, I'll take a look today.", "I can pick this up.", "Sounds good to me.",
               "Let's talk about it at standup.", "Done, please double-check.", "I'm on it.",
               "Can we push this to next week?", "Great, thanks for the update!")
DM_TEXTS = ("Can we move our 1:1 to Thursday?", "Thanks for your help with the release!",
            "Do you have five minutes to chat today?", "I sent you the slides.", "Are you joining the team lunch on Friday?",
            "Could you review my pull request when you get a chance?", "Happy birthday!")
TOPICS = ("Launch prep for next week", "Release freeze until Monday", "Q3 planning in progress",
          "Weekly sync notes and action items", "Hiring for two roles", "Ask questions here, no DMs please")
NEW_CHANNELS = (("launch-week", "the launch"), ("team-lunch", "organizing team lunches"), ("q3-okrs", "our Q3 OKRs"),
                ("design-reviews", "design reviews"), ("oncall-handoff", "on-call handoffs"),
                ("customer-feedback", "customer feedback"), ("mobile-release", "the mobile release"),
                ("data-quality", "data quality issues"))
EMOJI = ("thumbsup", "eyes", "tada", "white_check_mark", "heart", "raised_hands", "rocket", "pray")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
STATUSES = ("In meetings until 3pm", "Out for lunch", "On vacation until Monday", "Focusing on the launch",
            "Working from the Chicago office", "Back in an hour", "On a flight, slow to reply", "Interviewing all day")
PRESENCE_SAID = {"active": "active", "away": "away", "do_not_disturb": "do not disturb"}
INTROS = (("Hi, this is {name}.", "{name} here."), ("Hey, it's {name}.", "It's {name}."),
          ("Hello, {name} here.", "I'm {name}."), ("This is {name} from the team.", "{name} here."),
          ("Hi there, I'm {name}.", "I'm {name}."), ("Good morning, this is {name}.", "{name} speaking."),
          ("Hello, it's {name}.", "It's {name}."), ("My name is {name}.", "Name's {name}."),
          ("Hey, this is {name}.", "This is {name}."), ("Hey there, {name} speaking.", "It's {name}."),
          ("Hi, it's {name} from the team.", "It's {name}."), ("Hi! {name} here.", "{name} here."),
          ("{name} on the team here.", "{name} here."), ("Hi, {name} here.", "{name} here."))


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every active member whose name finds only them, with the channels they see, the recent
    messages of the channels they belong to and of two they do not, those channels' members and
    pins, their direct messages with some colleagues and their mentions, and which of the messages
    shown a search finds the way the user names them (`_Found`). Now and then a bundle sets aside one
    channel that only the request to archive it touches, one that only the request to leave it touches,
    and one of their messages that only the request to delete it touches; the archived channels they
    belong to are only ever brought back."""
    everyone = read("find_members", limit=100)
    names = [m["name"] for m in read("find_members", include_deactivated=True, limit=100)]
    unique = [m for m in everyone if len(read("find_members", name=m["name"])) == 1]
    searched: dict[str, list[dict] | None] = {}  # a channel's messages, as a search of it shows them
    read_once: dict[tuple[str, str], Any] = {}

    def channel(tool: str, uid: str, channel_id: str) -> Any:
        """A channel's page, pins or details, read once for every member who sees it: they show each
        reader the same (details are read by members only, so `is_member` is the same too)."""
        key = (tool, channel_id)
        if key not in read_once:
            read_once[key] = read(tool, user_id=uid, channel_id=channel_id)
        return read_once[key]

    bundles = []
    for me in unique:
        uid = me["member_id"]
        channels = read("list_channels", user_id=uid, include_archived=True)
        joined = [c for c in channels if c["is_member"]]
        outside = [c for c in channels if not c["is_member"]]
        shown = joined + rng.sample(outside, min(2, len(outside)))
        pages = {c["channel_id"]: channel("list_messages", uid, c["channel_id"]) for c in shown}
        details = {c["channel_id"]: channel("get_channel", uid, c["channel_id"]) for c in joined}
        pins = {c["channel_id"]: channel("list_pins", uid, c["channel_id"]) for c in shown}
        others = [m for m in unique if m["member_id"] != uid]
        dms = {}
        for other in rng.sample(others, min(10, len(others))):  # a few conversations are enough to ask about
            messages = read("list_direct_messages", user_id=uid, member_id=other["member_id"])
            if messages:
                dms[other["member_id"]] = messages
        archivable = [c for c in joined if not c["is_archived"] and c["name"] != "general"]
        archiving = rng.choice(archivable)["channel_id"] if archivable and rng.random() < 0.3 else None
        leavable = [c for c in archivable if c["channel_id"] != archiving]
        leaving = rng.choice(leavable)["channel_id"] if leavable and rng.random() < 0.5 else None
        own = [m["message_id"] for c in joined for m in pages[c["channel_id"]] if m["author_id"] == uid]
        deleting = rng.choice(own) if own and rng.random() < 0.6 else None
        for c in channels:
            if c["channel_id"] not in searched:
                searched[c["channel_id"]] = _channel_messages(read, uid, c["channel_id"])
        bundles.append({"now": now, "me": {**me, "me": True}, "channels": channels, "pages": pages,
                        "details": details, "pins": pins, "others": others, "dms": dms,
                        "mentions": read("list_mentions", user_id=uid), "archiving": archiving, "leaving": leaving,
                        "deleting": deleting,
                        "names": names,
                        "profile": read("get_member", member_id=uid)})
    found = _Found(searched, _direct_messages(read, everyone))
    for b in bundles:
        b["by_words"], b["by_day"], b["by_day_only"] = found(b)
        b["whole_days"], b["whole_words"] = found.whole(b)
    return bundles


SEARCH_PAGE = 20  # the results search_messages shows unless asked for more
# the words a member's messages are searched by ("Where did Ann write about the billing?")
SEARCH_WORDS = ("onboarding", "billing", "roadmap", "release", "docs", "pricing", "pipeline", "dashboard", "survey",
                "checklist", "staging", "invoice", "signup", "migration", "webinar", "contract", "offsite", "schedule")


# the words of SEARCH_WORDS said without an article ('about billing', not 'about the billing')
UNCOUNTED = frozenset({"onboarding", "billing", "pricing", "staging", "signup"})


def _about(word: str) -> str:
    """What a member wrote about, as the user says it: 'the roadmap', but 'billing'."""
    return word if word in UNCOUNTED else f"the {word}"


def _channel_messages(read: Reader, uid: str, channel_id: str) -> list[dict] | None:
    """Every live message of a channel, replies included, newest first: what search_messages finds
    in it, read a hundred at a time, each page from the day the last one stopped in (None where a
    single day fills a page: the channel cannot be read whole)."""
    out: list[dict] = []
    end = None
    while True:
        page = read("search_messages", user_id=uid, channel_id=channel_id, limit=100,
                    **({"end_date": end} if end else {}))
        if len(page) < 100:
            return out + page
        last = page[-1]["posted_at"][:10]
        newer = [m for m in page if m["posted_at"][:10] > last]
        if not newer:
            return None
        out, end = out + newer, last


def _direct_messages(read: Reader, members: list[dict]) -> list[tuple[dict, frozenset[str]]] | None:
    """Every live direct message, with the members known to be in its conversation (those who wrote
    in it: one when the other never did), read as each member's own messages; None where a member
    wrote a page of them or more (not read whole). A search by a day or by words alone shows the
    user's direct messages among the channels' ones."""
    out: list[dict] = []
    for member in members:
        page = read("search_messages", user_id=member["member_id"], author_id=member["member_id"], limit=100)
        if len(page) >= 100:
            return None
        out += [m for m in page if m["channel"] == "direct message"]
    writers: dict[str, set[str]] = {}
    for m in out:
        writers.setdefault(m["channel_id"], set()).add(m["author_id"])
    return [(m, frozenset(writers[m["channel_id"]])) for m in out]


def _like(word: str) -> re.Pattern[str]:
    """A query word as search_messages matches it: anywhere in the lower-cased text, '%' standing for
    any run of characters and '_' for any one (the SQL LIKE it is)."""
    return re.compile(".*".join(".".join(re.escape(p) for p in part.split("_")) for part in word.split("%")), re.S)


class _Found:
    """Which messages of a bundle's pages a search by its user finds among its first page of results,
    and tells apart from the other messages of their channel there: by their words (query = the
    text: no other message of the channel holds every word); and by their day: the user's own by
    author and day (no other message of theirs in the channel that day), another's by channel and day
    (none of that author's in the channel that day; the author's id would take a look-up, as the
    channel's does), or by the day alone where that search shows it on its first page with no other
    of that author's in the channel that day (no look-up at all: the channel and the author are read
    off the results). Direct messages are not counted among the words: their words are other words,
    and nobody posts a page of them a day. A search by a day or a word alone counts them, as far as
    they are known (`_direct_messages`): a conversation only one member wrote in may be the user's."""

    def __init__(self, searched: dict[str, list[dict] | None],
                 direct: list[tuple[dict, frozenset[str]]] | None = None) -> None:
        self.searched = searched
        self.direct = direct
        everything = [m for page in searched.values() if page for m in page]
        self.newest = sorted(everything, key=_newest, reverse=True)
        self.lowered = [m["text"].lower() for m in self.newest]
        self.by_author_day: dict[tuple[str, str], list[dict]] = {}
        self.by_day: dict[str, list[dict]] = {}
        for m in self.newest:
            self.by_author_day.setdefault((m["author_id"], m["posted_at"][:10]), []).append(m)
            self.by_day.setdefault(m["posted_at"][:10], []).append(m)
        self.matches: dict[str, list[dict]] = {}

    def _holding(self, text: str) -> list[dict]:
        """The messages of every channel read that hold each word of `text`, newest first."""
        if text not in self.matches:
            words = [_like(w) for w in text.lower().split()]
            self.matches[text] = [m for m, low in zip(self.newest, self.lowered) if all(w.search(low) for w in words)]
        return self.matches[text]

    def _direct(self, uid: str) -> list[dict] | None:
        """The direct messages the user may read (theirs, and those of conversations only one member
        wrote in), newest first; None where they are not known."""
        if self.direct is None:
            return None
        return sorted((m for m, writers in self.direct if uid in writers or len(writers) == 1), key=_newest,
                      reverse=True)

    def __call__(self, b: Bundle) -> tuple[set[str], set[str], set[str]]:
        readable = {c["channel_id"] for c in b["channels"]}
        if any(self.searched[cid] is None for cid in readable):  # a channel not read whole: nothing is known
            return set(), set(), set()
        uid = b["me"]["member_id"]
        direct = self._direct(uid)
        by_words, by_day, by_day_only = set(), set(), set()
        for cid, page in b["pages"].items():
            for m in page:
                if m["deleted"]:
                    continue
                hits = [h for h in self._holding(m["text"]) if h["channel_id"] in readable][:SEARCH_PAGE]
                if _alone(m, hits, lambda h: h["channel_id"] == cid):
                    by_words.add(m["message_id"])
                when = m["posted_at"][:10]
                alike = lambda h: h["channel_id"] == cid and h["author_id"] == m["author_id"]  # noqa: E731
                if m["author_id"] == uid:
                    hits = [h for h in self.by_author_day.get((uid, when), []) if h["channel_id"] in readable]
                else:
                    hits = [h for h in self.searched[cid] or [] if h["posted_at"][:10] == when]
                    if direct is not None and _alone(m, hits, alike):
                        # the day's search with no filter: every channel the user reads, and at most
                        # every direct message they may read, of that day
                        day = sorted([h for h in self.by_day.get(when, []) if h["channel_id"] in readable]
                                     + [h for h in direct if h["posted_at"][:10] == when], key=_newest, reverse=True)
                        if _alone(m, day[:SEARCH_PAGE], alike):
                            by_day_only.add(m["message_id"])
                if _alone(m, hits[:SEARCH_PAGE], alike):
                    by_day.add(m["message_id"])
        return by_words, by_day, by_day_only

    def whole(self, b: Bundle) -> tuple[set[str], set[str]]:
        """The days, and the words of SEARCH_WORDS, whose search with no other filter shows every
        message of the user's that it finds on its first page (fewer than a page found, direct
        messages they may read counted): the author's messages among them are read off the results."""
        readable = {c["channel_id"] for c in b["channels"]}
        direct = self._direct(b["me"]["member_id"])
        if direct is None or any(self.searched[cid] is None for cid in readable):
            return set(), set()
        days = {m["posted_at"][:10] for page in b["pages"].values() for m in page}
        whole_days = {d for d in days if sum(h["channel_id"] in readable for h in self.by_day.get(d, []))
                      + sum(h["posted_at"][:10] == d for h in direct) < SEARCH_PAGE}
        whole_words = set()
        for word in SEARCH_WORDS:
            like = _like(word)
            found = sum(h["channel_id"] in readable for h in self._holding(word))
            if found + sum(bool(like.search(h["text"].lower())) for h in direct) < SEARCH_PAGE:
                whole_words.add(word)
        return whole_days, whole_words


def _newest(message: dict) -> tuple[dt.datetime, str]:
    """The order of search results, read backwards: by posting time, then by id."""
    return dt.datetime.fromisoformat(message["posted_at"]), message["message_id"]


def _alone(message: dict, hits: list[dict], alike: Callable[[dict], bool]) -> bool:
    """Whether `message` is among `hits` and no other hit is `alike` it."""
    return any(h["message_id"] == message["message_id"] for h in hits) and sum(map(alike, hits)) == 1


# -- how people name things ------------------------------------------------------------------------

def _me(b: Bundle) -> Ref:
    return Ref.of("member", b["me"])


def _person(member: dict) -> Ref:
    return Ref.of("member", member)


def _chan(b: Bundle, channel: dict) -> Ref:
    return Ref.of("channel", channel, _me(b))


def _msg(b: Bundle, said: "Said", message: dict) -> Ref:
    """The message as `said` names it, found the shortest way a shown tool offers: a search of what the
    user can read by the words they quote, or by the day they name (through its channel when the
    message is another's: the author's id would take a look-up too); the channel named beside it only
    says which of the results it is."""
    return Ref("message", message["message_id"], {**message, "search": said.search, "through": said.through}, _me(b))


def _hash(channel: dict, rng: random.Random | None = None) -> str:
    name = channel["name"]
    if rng is None:
        return f"#{name}"
    return rng.choice([f"#{name}", f"#{name}", f"the #{name} channel", f"the {name} channel"])


def _by_id(b: Bundle, channel_id: str) -> dict:
    return next(c for c in b["channels"] if c["channel_id"] == channel_id)


def _open(b: Bundle, joined: bool = True) -> list[dict]:
    """Channels that take posts: not archived, not set aside for archiving or leaving, and (by default) joined."""
    return [c for c in b["channels"] if not c["is_archived"] and c["channel_id"] not in (b["archiving"], b["leaving"])
            and (c["is_member"] or not joined)]


def _posted(message: dict) -> dt.date:
    return dt.date.fromisoformat(message["posted_at"][:10])


def _first(name: str) -> str:
    return name.split()[0]


class Said(str):
    """How the user names a message, to end a sentence with; `mid` names it the same way inside a
    sentence, where more words follow: 'Take down my message in #general that says "Hi.", would you?',
    never 'Take down my post in #general: "Hi.", would you?' (a colon belongs only before a quote that
    ends the sentence)."""
    mid: str
    search: dict[str, Any]  # the search that finds the message named so (search_messages' arguments)
    through: tuple[Ref, ...]  # what that search needs looked up first (the channel it is confined to)

    def __new__(cls, text: str, mid: str | None = None, search: dict[str, Any] | None = None,
                through: tuple[Ref, ...] = ()) -> "Said":
        said = super().__new__(cls, text)
        said.mid = text if mid is None else mid
        said.search, said.through = search or {}, through
        return said


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def message_name(b: Bundle, channel: dict, message: dict, rng: random.Random) -> Said:
    """How the user points at a message: by its author, channel and words, or its author, channel and day
    when a search by that day tells it apart (`_Found`), with the search that finds it: by its words;
    the user's own by author and day; another's by the day alone where that search shows it apart
    from the rest of its author's in the channel, else by channel and day."""
    mine = message["author_id"] == b["me"]["member_id"]
    who = "my" if mine else rng.choice([f"{message['author']}'s", f"{_first(message['author'])}'s"]) \
        if _unique_first(b, message) else f"{message['author']}'s"
    where = _hash(channel, rng)
    if message["message_id"] in b["by_day"] and rng.random() < 0.4:
        when = _posted(message).isoformat()
        dated = {"start_date": when, "end_date": when}
        search, through = ({"author_id": message["author_id"], **dated}, ()) if mine else \
            (dated, ()) if message["message_id"] in b["by_day_only"] else \
            ({"channel_id": channel["channel_id"], **dated}, (_chan(b, channel),))
        return Said(rng.choice([f"{who} message in {where} from {day(_posted(message))}",
                                f"the message {'I' if mine else message['author']} posted in {where} on "
                                f"{day(_posted(message))}"]), search=search, through=through)
    says = f"{who} message in {where} that says \"{message['text']}\""
    search = {"query": message["text"]}
    return rng.choice([Said(says, search=search),
                       Said(f"{who} post in {where}: \"{message['text']}\"", mid=says, search=search),
                       Said(f"the message in {where} where {'I' if mine else message['author']} wrote \"{message['text']}\"",
                            search=search)])


def _unique_first(b: Bundle, message: dict) -> bool:
    first = _first(message["author"])
    return sum(_first(name) == first for name in b["names"]) <= 1


def _mentions_of(channel: dict, message: dict) -> tuple[str, ...]:
    return (channel["name"],)


def _messages(b: Bundle, channels: list[dict], *, mine: bool | None = None,
              doomed: bool = False) -> list[tuple[dict, dict]]:
    """(channel, message) pairs of the pages of `channels`: live messages whose words name them (a
    search by their words tells them apart from the rest of their channel), optionally only the
    user's own or only others'. The message set aside for deletion is left out, or with `doomed` is
    the only one."""
    out = []
    for channel in channels:
        for m in b["pages"].get(channel["channel_id"], []):
            if m["deleted"] or m["message_id"] not in b["by_words"] or (m["message_id"] == b["deleting"]) != doomed:
                continue
            if mine is not None and (m["author_id"] == b["me"]["member_id"]) != mine:
                continue
            out.append((channel, m))
    return out


def _other(b: Bundle, rng: random.Random, exclude: Sequence[str] = ()) -> dict | None:
    pool = [o for o in b["others"] if o["member_id"] not in exclude]
    return rng.choice(pool) if pool else None


def _polite(rng: random.Random, core: str) -> str:
    return rng.choice([f"{core}", f"Could you {core[0].lower() + core[1:]}", f"Please {core[0].lower() + core[1:]}",
                       f"I'd like you to {core[0].lower() + core[1:]}"])


goals = Goals()


# -- members and channels ----------------------------------------------------------------------------

@goals.add("find_members", 0.6)
def find_members(b: Bundle, rng: random.Random) -> Ask | None:
    other = _other(b, rng)
    if other is None:
        return None
    name = other["name"]
    args = {"name": name}
    if rng.random() < 0.5:
        return Ask(args, say=rng.choice([f"What's {name}'s job title?", f"What does {name} do here? I mean their title.",
                                         f"Can you tell me {name}'s role?", f"I keep forgetting {name}'s title. What is it again?"]),
                   terse=f"{name}'s title?", refs=(_me(b),), mentions=(name,), facts=lambda r: [r[0]["title"]])
    return Ask(args, say=rng.choice([f"What's {name}'s handle, so I can mention them?",
                                     f"How do I @-mention {name}? What's their handle?",
                                     f"Could you look up the chat handle of {name}?"]),
               terse=f"{name}'s handle?", refs=(_me(b),), mentions=(name,), facts=lambda r: [r[0]["display_name"]])


# How an answer says whether someone is around: 'active' is also 'available', 'online', 'around' or
# 'not away' ("Yes, she's around right now."), 'away' also 'not around' ('around' said as not so states
# no 'active'), and notifications paused 'DND' or 'do-not-disturb'.
PRESENCE_WORDS = {"active": ("active", "available", "online", "around", "not away", "isn't away", "isn\u2019t away",
                             "is not away"),
                  "away": ("away", "not around", "isn't around", "isn\u2019t around", "is not around"),
                  "do_not_disturb": ("do_not_disturb", "do not disturb", "do-not-disturb", "DND", "busy",
                                     "notifications paused")}


def _channel_fact(channel: str) -> Any:
    """A channel as an answer may name it: '#hiring' or 'the hiring channel'."""
    return one_of(channel, channel[1:]) if channel.startswith("#") else channel


@goals.add("get_member", 0.8)
def get_member(b: Bundle, rng: random.Random) -> Ask | None:
    other = _other(b, rng)
    if other is None:
        return None
    name = other["name"]
    return Ask({"member_id": other["member_id"]},
               say=rng.choice([f"Is {name} around right now? What's their status?",
                               f"Can I reach {name} at the moment, or are they away? Any status message?",
                               f"I'm about to ping {name}: are they available, and what does their status say?",
                               f"What's {name}'s availability and status right now?"]),
               terse=f"{name}'s availability and status?", refs=(_me(b), _person(other)), mentions=(name,),
               facts=lambda r: [one_of(*PRESENCE_WORDS.get(r["presence"], (r["presence"],)))]
               + ([r["status_text"]] if r["status_text"] else []))


@goals.add("set_status", 1.0)
def set_status(b: Bundle, rng: random.Random) -> Ask | None:
    mine = b["profile"]
    uid, refs = b["me"]["member_id"], (_me(b),)
    roll = rng.random()
    if roll < 0.2 and mine["status_text"]:
        return Ask({"user_id": uid, "status_text": ""},
                   say=rng.choice(["Clear my status message, please.", "Remove the status text on my profile.",
                                   f"My status still says \"{mine['status_text']}\"; clear it."]),
                   terse="Clear my status.", refs=refs)
    if roll < 0.35 and mine["presence"] != "active":
        return Ask({"user_id": uid, "presence": "active"},
                   # 'back at my desk' would leave a status such as 'On vacation until Monday' standing
                   say=rng.choice(["Mark me as active again, please.", "Switch my availability back to active."]
                                  + ([] if mine["status_text"] else ["I'm back at my desk; set me to active."])),
                   terse="Set me active.", refs=refs)
    presence = rng.choice([p for p in ("away", "do_not_disturb") if p != mine["presence"]] or ["away"])
    text = rng.choice([t for t in STATUSES if t != mine["status_text"]])
    args = {"user_id": uid, "presence": presence, "status_text": text}
    how = PRESENCE_SAID[presence]
    if rng.random() < 0.4:
        return Ask(args, say=rng.choice(["Please update my status.", "I need to change my status in the chat app.",
                                         "Can you set my availability and status for me?"]),
                   detail=rng.choice([f"Set me to {how} with the status \"{text}\".",
                                      f"Status \"{text}\", and mark me as {how}."]),
                   terse=f"Set me to {how}, status \"{text}\".", refs=refs, mentions=(text,))
    return Ask(args, say=rng.choice([f"Set my status to \"{text}\" and set me to {how}.",
                                     f"Mark me as {how} with the status \"{text}\".",
                                     f"I'm stepping out: status \"{text}\", and set me to {how}."]),
               terse=f"Set me to {how}, status \"{text}\".", refs=refs, mentions=(text,))


@goals.add("list_channels", 0.7)
def list_channels(b: Bundle, rng: random.Random) -> Ask | None:
    uid = b["me"]["member_id"]
    if rng.random() < 0.6:
        return Ask({"user_id": uid, "joined_only": True},
                   say=rng.choice(["Which channels am I in?", "Can you list the channels I'm a member of?",
                                   "Remind me which channels I've joined.", "What channels do I belong to right now?"]),
                   terse="My channels?", refs=(_me(b),), facts=lambda r: [c["name"] for c in r])
    return Ask({"user_id": uid},
               say=rng.choice(["What channels are there in the workspace?", "Show me all the channels I could join or read.",
                               "I'm looking for channels to follow; what's out there?"]),
               terse="All channels?", refs=(_me(b),), facts=lambda r: [c["name"] for c in r])


@goals.add("list_channels", 0.4)
def member_count(b: Bundle, rng: random.Random) -> Ask | None:
    """How many people a channel has: the channel list (the look-up that finds the channel) shows it,
    so no other call is needed."""
    joined = [_by_id(b, cid) for cid in b["details"]]
    if not joined:
        return None
    channel = rng.choice(joined)
    name, cid = _hash(channel, rng), channel["channel_id"]
    return Ask(_channel_args(_chan(b, channel)),
               say=rng.choice([f"How many people are in {name}?", f"How many members does {name} have?",
                               f"Is {name} a big channel? How many members?"]),
               terse=f"How many members in #{channel['name']}?", refs=(_me(b),), mentions=(channel["name"],),
               facts=lambda r: [c["member_count"] for c in r if c["channel_id"] == cid])


@goals.add("get_channel", 0.7)
def get_channel(b: Bundle, rng: random.Random) -> Ask | None:
    """Who created a channel, or what it is for: asked of a channel someone else created (its creator
    knows both)."""
    joined = [_by_id(b, cid) for cid, detail in b["details"].items()
              if detail["created_by_id"] != b["me"]["member_id"]]
    if not joined:
        return None
    channel = rng.choice(joined)
    name = _hash(channel, rng)
    args = {"user_id": b["me"]["member_id"], "channel_id": channel["channel_id"]}
    refs, mentions = (_chan(b, channel),), (channel["name"],)
    roll = rng.random()
    if roll < 0.2:  # 'and when?' is asked too: the day it was created is a fact as well
        return Ask(args, say=rng.choice([f"Who created {name}, and when?", f"Who set up {name}, and when was that?"]),
                   terse=f"Creator of #{channel['name']}, and when?", refs=refs, mentions=mentions,
                   facts=lambda r: [r["created_by"], r["created_at"][:10]])
    if roll < 0.5:
        return Ask(args, say=rng.choice([f"Do you know who set up {name}?", f"Who started {name} in the first place?",
                                         f"Who created {name}?"]),
                   terse=f"Creator of #{channel['name']}?", refs=refs, mentions=mentions,
                   facts=lambda r: [r["created_by"]])
    if not b["details"][channel["channel_id"]].get("purpose"):
        return None
    return Ask(args, say=rng.choice([f"What's {name} for?", f"What is the purpose of {name}?",
                                     f"I never understood what {name} is meant for."]),
               terse=f"Purpose of #{channel['name']}?", refs=refs, mentions=mentions, facts=lambda r: [r["purpose"]])


@goals.add("join_channel")
def join_channel(b: Bundle, rng: random.Random) -> Ask | None:
    pool = [c for c in _open(b, joined=False) if not c["is_member"] and not c["is_private"]]
    if not pool:
        return None
    channel = rng.choice(pool)
    name = _hash(channel, rng)
    return Ask({"user_id": b["me"]["member_id"], "channel_id": channel["channel_id"]},
               say=rng.choice([f"Add me to {name}, please.", f"I'd like to join {name}.", f"Can you get me into {name}?",
                               f"Sign me up for {name}; I want to follow along.", f"Join {name} for me."]),
               terse=f"Join #{channel['name']}.", refs=(_chan(b, channel),), mentions=(channel["name"],))


@goals.add("invite_to_channel")
def invite_to_channel(b: Bundle, rng: random.Random) -> Ask | None:
    options = []
    for cid, detail in b["details"].items():
        channel = _by_id(b, cid)
        if channel in _open(b):
            inside = {m["member_id"] for m in detail["members"]}
            options += [(channel, o) for o in b["others"] if o["member_id"] not in inside]
    if not options:
        return None
    channel, other = rng.choice(options)
    name, person = _hash(channel, rng), other["name"]
    held = rng.random() < 0.5
    say = rng.choice([f"Someone needs to be added to {name}.", f"Could you invite a colleague into {name}?",
                      f"I want to bring a teammate into {name}."]) if held else \
        rng.choice([f"Please add {person} to {name}.", f"Can you invite {person} into {name}?",
                    f"{person} needs access to {name}; could you add them?",
                    f"Bring {person} into {name}, they should be in the loop."])
    detail = rng.choice([f"It's {person}.", f"The person is {person}.", f"Add {person}, please."]) if held else None
    return Ask({"user_id": b["me"]["member_id"], "channel_id": channel["channel_id"], "member_id": other["member_id"]},
               say=say, detail=detail, terse=f"Invite {person} to #{channel['name']}.",
               refs=(_chan(b, channel), _person(other)), mentions=(person, channel["name"]))


@goals.add("leave_channel", 0.6)
def leave_channel(b: Bundle, rng: random.Random) -> Ask | None:
    if b["leaving"] is None:
        return None
    channel = _by_id(b, b["leaving"])
    name = _hash(channel, rng)
    return Ask({"user_id": b["me"]["member_id"], "channel_id": channel["channel_id"]},
               say=rng.choice([f"Take me out of {name}, please.", f"I'd like to leave {name}.",
                               f"I don't need {name} any more; remove me from it.", f"Leave {name} for me."]),
               terse=f"Leave #{channel['name']}.", refs=(_chan(b, channel),), mentions=(channel["name"],))


@goals.add("create_channel")
def create_channel(b: Bundle, rng: random.Random) -> Ask | None:
    taken = {c["name"] for c in b["channels"]}
    options = [(n, what) for n, what in NEW_CHANNELS if n not in taken]
    if not options:
        return None
    name, what = rng.choice(options)
    private = rng.random() < 0.4
    kind = "private " if private else ""
    args = {"user_id": b["me"]["member_id"], "name": name, **({"is_private": True} if private else {})}
    return Ask(args, say=rng.choice([f"I need a new {kind}channel for {what}.", f"Can you set up a {kind}channel for {what}?",
                                     f"Let's have a {kind}channel about {what}; please create it."]),
               detail=rng.choice([f"Call it {name}.", f"Name it #{name}.", f"The name should be {name}."]),
               terse=f"Create {kind}channel #{name}.", refs=(_me(b),), mentions=(name,))


@goals.add("archive_channel", 0.6)
def archive_channel(b: Bundle, rng: random.Random) -> Ask | None:
    if b["archiving"] is None:
        return None
    channel = _by_id(b, b["archiving"])
    name = _hash(channel, rng)
    return Ask({"user_id": b["me"]["member_id"], "channel_id": channel["channel_id"]},
               say=rng.choice([f"We're done with {name}; please archive it.", f"Archive {name}, it isn't needed any more.",
                               f"Can you archive {name}? Nobody uses it now."]),
               terse=f"Archive #{channel['name']}.", refs=(_chan(b, channel),), mentions=(channel["name"],))


@goals.add("unarchive_channel", 0.6)
def unarchive_channel(b: Bundle, rng: random.Random) -> Ask | None:
    pool = [c for c in b["channels"] if c["is_archived"] and c["is_member"]]
    if not pool:
        return None
    channel = rng.choice(pool)
    name = _hash(channel, rng)
    return Ask({"user_id": b["me"]["member_id"], "channel_id": channel["channel_id"]},
               say=rng.choice([f"We need {name} again; please unarchive it.", f"Can you bring {name} back from the archive?",
                               f"{name[0].upper() + name[1:]} was archived, but the project is back on. Unarchive it, please.",
                               f"Restore {name} so people can post there again."]),
               terse=f"Unarchive #{channel['name']}.", refs=(_chan(b, channel),), mentions=(channel["name"],))


@goals.add("set_channel_topic")
def set_channel_topic(b: Bundle, rng: random.Random) -> Ask | None:
    pool = _open(b)
    if not pool:
        return None
    channel = rng.choice(pool)
    topic = rng.choice([t for t in TOPICS if t != channel["topic"]])
    name = _hash(channel, rng)
    return Ask({"user_id": b["me"]["member_id"], "channel_id": channel["channel_id"], "topic": topic},
               say=rng.choice([f"Change the topic of {name}.", f"{name[0].upper() + name[1:]} needs a new topic.",
                               f"Could you update the topic on {name}?"]),
               detail=rng.choice([f"Make it \"{topic}\".", f"The topic should read \"{topic}\".", f"Set it to \"{topic}\"."]),
               terse=f"Set the topic of #{channel['name']} to \"{topic}\".", refs=(_chan(b, channel),),
               mentions=(channel["name"], topic))


# -- messages ------------------------------------------------------------------------------------------

@goals.add("list_messages")
def list_messages(b: Bundle, rng: random.Random) -> Ask | None:
    pool = [_by_id(b, cid) for cid, page in b["pages"].items() if page and not page[0]["deleted"]]
    if not pool:
        return None
    channel = rng.choice(pool)
    name = _hash(channel, rng)
    return Ask({"user_id": b["me"]["member_id"], "channel_id": channel["channel_id"]},
               # every wording asks who posted it as well: its author is a fact (seed 149, 0009)
               say=rng.choice([f"What was the latest message in {name}, and who posted it?",
                               f"I've been away. What's the most recent post in {name}, and who wrote it?",
                               f"Who posted last in {name}, and what did they say?",
                               f"Catch me up: what's the newest thing in {name}, and who said it?"]),
               terse=f"Latest in #{channel['name']}, and who posted it?", refs=(_chan(b, channel),),
               mentions=(channel["name"],),
               facts=lambda r: [r[0]["author"], _now_says(r[0])])


@goals.add("get_thread")
def get_thread(b: Bundle, rng: random.Random) -> Ask | None:
    pool = [(c, m) for c, m in _messages(b, [_by_id(b, cid) for cid in b["pages"]]) if m["reply_count"] > 0]
    if not pool:
        return None
    channel, message = rng.choice(pool)
    said = message_name(b, channel, message, rng)
    args, refs = {"user_id": b["me"]["member_id"], "message_id": message["message_id"]}, (_msg(b, said, message),)
    if rng.random() < 1 / 3:  # who answered: the repliers' names
        return Ask(args, say=f"Who replied to {said}?", terse=f"Who replied to {said}?", refs=refs,
                   mentions=_mentions_of(channel, message),
                   facts=lambda r: list(dict.fromkeys(x["author"] for x in r["replies"])))
    # what was answered: each reply told by who wrote it or by its words ('They said "Agreed." and
    # "Done, please check."' answers it as well as 'Samuel Lopez and Larry Pruitt answered')
    return Ask(args, say=rng.choice([f"What did people answer in the thread on {said}?",
                                     f"Can you show me the replies to {said}?"]),
               terse=f"Replies to {said}?", refs=refs, mentions=_mentions_of(channel, message),
               facts=lambda r: [one_of(x["author"], _now_says(x)) for x in r["replies"]])


@goals.add("post_message", 1.5)
def post_message(b: Bundle, rng: random.Random) -> Ask | None:
    pool = _open(b)
    if not pool:
        return None
    channel = rng.choice(pool)
    text = rng.choice(NEW_POSTS)
    name = _hash(channel, rng)
    return Ask({"user_id": b["me"]["member_id"], "channel_id": channel["channel_id"], "text": text},
               say=rng.choice([f"Post something in {name} for me.", f"I need to let {name} know something.",
                               f"Could you send a message to {name}?", f"Drop a note in {name}, please."]),
               detail=rng.choice([f"It should say: \"{text}\"", f"The message is \"{text}\"", f"Write \"{text}\""]),
               terse=f"Post in #{channel['name']}: \"{text}\"", refs=(_chan(b, channel),), mentions=(channel["name"], text))


@goals.add("reply_in_thread", 1.2)
def reply_in_thread(b: Bundle, rng: random.Random) -> Ask | None:
    pool = [(c, m) for c, m in _messages(b, _open(b)) if m["author_id"] != b["me"]["member_id"]]
    if not pool:
        return None
    channel, message = rng.choice(pool)
    text = rng.choice(REPLY_TEXTS)
    said = message_name(b, channel, message, rng)
    return Ask({"user_id": b["me"]["member_id"], "message_id": message["message_id"], "text": text},
               say=rng.choice([f"Reply in the thread of {said}.", f"I'd like to add a reply to the thread of {said}.",
                               f"Could you respond to {said.mid} in a thread?"]),
               detail=rng.choice([f"Say \"{text}\"", f"My reply: \"{text}\"", f"Just write \"{text}\""]),
               terse=f"Reply \"{text}\" to {said}.", refs=(_msg(b, said, message),),  # not '...: "Moving ...": "Great!"'
               mentions=(channel["name"], text))


def _edited(text: str, rng: random.Random) -> tuple[str, bool]:
    """The user's new words for their message, and whether they correct it: the old words changed
    (a weekday put right: a correction; else a line added, which corrects nothing), without the
    ' (updated)' marker the world left at the end of an edited one (a user rewriting their message
    does not type it)."""
    text = text.removesuffix(_UPDATED)
    for name in DAYS:
        if name in text:
            return text.replace(name, rng.choice([d for d in DAYS if d != name])), True
    return rng.choice([f"{text} Update: this is done now.", f"{text} (Moved to next week.)",
                       f"{text} Edit: details are in the doc."]), False


@goals.add("edit_message", 1.4)
def edit_message(b: Bundle, rng: random.Random) -> Ask | None:
    pool = _messages(b, _open(b), mine=True)
    if not pool:
        return None
    channel, message = rng.choice(pool)
    named = message_name(b, channel, message, rng)
    # 'Please edit my post in #random: "X."' reads X as the new words (seed 153, 0002): an edit names
    # its message with 'that says', never a colon before the old words
    said = named.mid
    other = _other(b, rng)
    if other is not None and "@" not in message["text"] and rng.random() < 0.4:
        # the person is named; their @handle, which the new text starts with, is looked up
        text, person = f"@{other['display_name']} {message['text']}", other["name"]
        return Ask({"user_id": b["me"]["member_id"], "message_id": message["message_id"], "text": text},
                   say=rng.choice([f"Edit {said} so that it mentions {person} at the start; keep the rest as it is.",
                                   f"I forgot to tag {person} in {said}. Add an @-mention of them in front of the text, "
                                   "nothing else changed.",
                                   f"Please put an @-mention of {person} at the beginning of {said}, leaving the words as "
                                   "they are."]),
                   terse=f"Edit {said}: put an @-mention of {person} in front.",
                   refs=(_msg(b, named, message), _person(other)),
                   mentions=(channel["name"], person))
    text, corrects = _edited(message["text"], rng)
    # a mistake is fixed only where the words are put right; a line added is an update
    say = [f"I need to fix {said}.", f"Please edit {said}.", f"There's a mistake in {said}; let's correct it."] \
        if corrects else [f"Please edit {said}.", f"I'd like to add a line to {said}.",
                          f"Please update {said}."]
    return Ask({"user_id": b["me"]["member_id"], "message_id": message["message_id"], "text": text},
               say=rng.choice(say),
               detail=rng.choice([f"It should read \"{text}\"", f"Change it to \"{text}\"", f"The new text is \"{text}\""]),
               terse=f"Edit {said} to \"{text}\"", refs=(_msg(b, named, message),), mentions=(channel["name"], text))


@goals.add("delete_message", 0.8)
def delete_message(b: Bundle, rng: random.Random) -> Ask | None:
    pool = _messages(b, _open(b), mine=True, doomed=True)
    if not pool:
        return None
    channel, message = rng.choice(pool)
    said = message_name(b, channel, message, rng)
    return Ask({"user_id": b["me"]["member_id"], "message_id": message["message_id"]},
               say=rng.choice([f"Please delete {said}.", f"I shouldn't have posted {said.mid}; remove it.",
                               f"Take down {said.mid}, would you?"]),
               terse=f"Delete {said}.", refs=(_msg(b, said, message),), mentions=(channel["name"],))


@goals.add("get_message_history")
def get_message_history(b: Bundle, rng: random.Random) -> Ask | None:
    pool = [(c, m) for c, m in _messages(b, [_by_id(b, cid) for cid in b["pages"]]) if m["edited"]]
    if not pool:
        return None
    channel, message = rng.choice(pool)
    said = message_name(b, channel, message, rng)
    return Ask({"user_id": b["me"]["member_id"], "message_id": message["message_id"]},
               say=rng.choice([f"What did {said.mid} say before it was edited?", f"{_cap(said.mid)} was edited. What was the original wording?",
                               f"Can you dig up the earlier version of {said}?"]),
               terse=f"Original text of {said}?", refs=(_msg(b, said, message),), mentions=_mentions_of(channel, message),
               facts=lambda r: [_words(r["earlier_revisions"][0]["text"])])


@goals.add("add_reaction")
def add_reaction(b: Bundle, rng: random.Random) -> Ask | None:
    uid = b["me"]["member_id"]
    pool = _messages(b, _open(b, joined=False))
    if not pool:
        return None
    channel, message = rng.choice(pool)
    mine = {r["emoji"] for r in message["reactions"] if uid in r["member_ids"]}
    emoji = rng.choice([e for e in EMOJI if e not in mine])
    said = message_name(b, channel, message, rng)
    return Ask({"user_id": uid, "message_id": message["message_id"], "emoji": emoji},
               say=rng.choice([f"React to {said}.", f"Add a reaction to {said.mid} for me.", f"Let's react to {said}."]),
               detail=rng.choice([f"Use :{emoji}:.", f"With :{emoji}:, please.", f"The :{emoji}: emoji."]),
               terse=f"React :{emoji}: to {said}.", refs=(_msg(b, said, message),), mentions=(f":{emoji}:",))


@goals.add("remove_reaction", 0.7)
def remove_reaction(b: Bundle, rng: random.Random) -> Ask | None:
    uid = b["me"]["member_id"]
    pool = [(c, m, r["emoji"]) for c, m in _messages(b, _open(b, joined=False))
            for r in m["reactions"] if uid in r["member_ids"]]
    if not pool:
        return None
    channel, message, emoji = rng.choice(pool)
    said = message_name(b, channel, message, rng)
    mine = sum(uid in r["member_ids"] for r in message["reactions"])
    held = mine > 1 and rng.random() < 0.5  # with one reaction of theirs, 'my reaction' already says which
    say = rng.choice([f"Take one of my reactions off {said}.",
                      f"One of my reactions on {said.mid} was a mistake; remove it."]) if held else \
        rng.choice([f"Take back my :{emoji}: reaction on {said}.", f"Remove the :{emoji}: I put on {said}.",
                    f"I reacted :{emoji}: to {said.mid} by mistake; undo that."])
    return Ask({"user_id": uid, "message_id": message["message_id"], "emoji": emoji}, say=say,
               detail=rng.choice([f"The :{emoji}: one.", f"It's the :{emoji}: reaction."]) if held else None,
               terse=f"Remove my :{emoji}: from {said}.", refs=(_msg(b, said, message),),
               mentions=(f":{emoji}:", channel["name"]))


@goals.add("pin_message", 0.9)
def pin_message(b: Bundle, rng: random.Random) -> Ask | None:
    pool = [(c, m) for c, m in _messages(b, _open(b)) if not m["pinned"]]
    if not pool:
        return None
    channel, message = rng.choice(pool)
    said = message_name(b, channel, message, rng)
    return Ask({"user_id": b["me"]["member_id"], "message_id": message["message_id"]},
               say=rng.choice([f"Pin {said}.", f"Could you pin {said.mid} so people find it?", f"{_cap(said.mid)} is important; pin it."]),
               terse=f"Pin {said}.", refs=(_msg(b, said, message),), mentions=(channel["name"],))


@goals.add("unpin_message", 0.7)
def unpin_message(b: Bundle, rng: random.Random) -> Ask | None:
    pool = [(c, m) for c, m in _messages(b, _open(b)) if m["pinned"]]
    if not pool:
        return None
    channel, message = rng.choice(pool)
    said = message_name(b, channel, message, rng)
    return Ask({"user_id": b["me"]["member_id"], "message_id": message["message_id"]},
               say=rng.choice([f"Unpin {said}.", f"{_cap(said.mid)} doesn't need to be pinned any more; unpin it.",
                               f"Could you take the pin off {said}?"]),
               terse=f"Unpin {said}.", refs=(_msg(b, said, message),), mentions=(channel["name"],))


# A message that opens with members' @handles ('@troy.castro Does anyone know ...') is told right
# by its words with the handles or without them: the fact is the text after them, which the verbatim
# quote holds too.
_LEADING_HANDLES = re.compile(r"^(?:@[\w.\-]+\s+)+(?=\S)")


def _words(text: str) -> str:
    return _LEADING_HANDLES.sub("", text)


# The world marks some edited messages by appending ' (updated)' to their words: an answer that quotes
# the message without that marker ('"Who has time on Friday ...?" (it was edited)') says it right.
_UPDATED = " (updated)"


def _now_says(message: dict) -> str:
    """A message's words as a fact of what it says now: without leading @handles, and without the
    ' (updated)' an edit left at its end (the quote with the marker states it too)."""
    text = _words(message["text"])
    return text[: -len(_UPDATED)] if message["edited"] and text.endswith(_UPDATED) else text


@goals.add("list_pins")
def list_pins(b: Bundle, rng: random.Random) -> Ask | None:
    pool = [_by_id(b, cid) for cid, pins in b["pins"].items() if pins]
    if not pool:
        return None
    channel = rng.choice(pool)
    name = _hash(channel, rng)
    return Ask({"user_id": b["me"]["member_id"], "channel_id": channel["channel_id"]},
               say=rng.choice([f"What's pinned in {name}?", f"Show me the pinned messages of {name}.",
                               f"Anything important pinned in {name}?"]),
               terse=f"Pins in #{channel['name']}?", refs=(_chan(b, channel),), mentions=(channel["name"],),
               facts=lambda r: [_now_says(m) for m in r])


# -- direct messages, search, mentions ---------------------------------------------------------------

@goals.add("send_direct_message", 1.4)
def send_direct_message(b: Bundle, rng: random.Random) -> Ask | None:
    other = _other(b, rng)
    if other is None:
        return None
    text, person = rng.choice(DM_TEXTS), other["name"]
    return Ask({"user_id": b["me"]["member_id"], "member_id": other["member_id"], "text": text},
               say=rng.choice([f"Send {person} a direct message.", f"DM {person} for me.", f"I need to message {person} privately.",
                               f"Can you write to {person} directly?"]),
               detail=rng.choice([f"Tell them: \"{text}\"", f"The message is \"{text}\"", f"Say \"{text}\""]),
               terse=f"DM {person}: \"{text}\"", refs=(_me(b), _person(other)), mentions=(person, text))


@goals.add("list_direct_messages")
def list_direct_messages(b: Bundle, rng: random.Random) -> Ask | None:
    pool = [o for o in b["others"] if o["member_id"] in b["dms"] and not b["dms"][o["member_id"]][0]["deleted"]]
    if not pool:
        return None
    other = rng.choice(pool)
    person = other["name"]
    return Ask({"user_id": b["me"]["member_id"], "member_id": other["member_id"]},
               say=rng.choice([f"What was the last thing said in my DMs with {person}?",
                               f"Remind me of the latest direct message between {person} and me.",
                               f"What's the most recent message in my conversation with {person}?"]),
               terse=f"Last DM with {person}?", refs=(_me(b), _person(other)), mentions=(person,),
               facts=lambda r: [_now_says(r[0])])


@goals.add("search_messages", 1.2)
def search_messages(b: Bundle, rng: random.Random) -> Ask | None:
    uid = b["me"]["member_id"]
    others = {o["member_id"]: o for o in b["others"]}
    pool = [(c, m) for c, m in _messages(b, [_by_id(b, cid) for cid in b["pages"]]) if m["author_id"] in others]
    if not pool:
        return None
    _, message = rng.choice(pool)
    author = others[message["author_id"]]
    person = author["name"]
    aid = author["member_id"]
    # where a search by the word or the day alone finds fewer than a page, the author's messages are
    # read off its results (their names are there): looking the author up is a call more
    by_author = {"author_id": aid}, (_me(b), _person(author))
    if rng.random() < 0.5:
        words = [w for w in SEARCH_WORDS if w in message["text"].lower()]
        if words:
            word = rng.choice(words)
            narrow, refs = ({}, (_me(b),)) if word in b["whole_words"] else by_author
            return Ask({"user_id": uid, "query": word, **narrow},
                       say=rng.choice([f"Where did {person} write about {_about(word)}? Which channels?",
                                       f"Find {person}'s messages that mention \"{word}\"; which channels were they in?",
                                       f"{person} said something about {_about(word)} somewhere. In which channel?"]),
                       terse=f"{person} on \"{word}\": channels?", refs=refs, mentions=(person, word),
                       facts=lambda r: [_channel_fact(c) for c in dict.fromkeys(m["channel"] for m in r
                                                                                   if m["author_id"] == aid)])
    when = _posted(message)
    narrow, refs = ({}, (_me(b),)) if when.isoformat() in b["whole_days"] else by_author
    held = rng.random() < 0.5
    say = rng.choice([f"I'm looking for what {person} posted on a particular day.",
                      f"Can you find what {person} wrote on a certain day?"]) if held else \
        rng.choice([f"What did {person} post on {day(when)}?", f"Find everything {person} wrote on {day(when)}.",
                    f"Can you search for {person}'s messages from {day(when)}?"])
    return Ask({"user_id": uid, **narrow, "start_date": when.isoformat(), "end_date": when.isoformat()},
               say=say, detail=rng.choice([f"The day was {day(when)}.", f"It was {day(when)}."]) if held else None,
               terse=f"{person}'s messages on {day(when)}?", refs=refs, mentions=(person, day(when)),
               # said whole ('What did Tara Hall post on July 7?'), not 'on a certain day? The day was July 7.'
               plain=f"What did {person} post on {day(when)}?" if held else None,
               facts=lambda r: [_now_says(m) for m in r if m["author_id"] == aid])


@goals.add("list_mentions")
def list_mentions(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["mentions"]:
        return None
    if rng.random() < 0.5:
        return Ask({"user_id": b["me"]["member_id"]},
                   say=rng.choice(["Who has mentioned me lately?", "Did anyone @ me recently? Who?"]),
                   terse="Who mentioned me?", refs=(_me(b),),
                   facts=lambda r: list(dict.fromkeys(m["author"] for m in r[:3])))
    # the messages themselves asked for: each told by who wrote it or by its words, which the user is
    # told with or without their own @handle in front ('Can someone look at ...' for '@me Can someone ...')
    # and, where an edit left it, the ' (updated)' marker at the end (`_now_says`)
    return Ask({"user_id": b["me"]["member_id"]},
               say=rng.choice(["Show me the messages where I was mentioned.", "Has anybody tagged me in a message?"]),
               terse="My mentions?", refs=(_me(b),),
               facts=lambda r: [one_of(m["author"], _now_says(m)) for m in r[:3]])


# Questions about the whole workspace, other people's direct messages included: only the hidden
# statistics count them.
WORKSPACE_WIDE = (
    HiddenAsk("workspace_stats", lambda b, rng: "How many messages are there in the whole workspace, DMs included?",
              facts=lambda r: [r["messages"]]),
    HiddenAsk("workspace_stats", lambda b, rng: "Give me the total number of reactions across every channel in the "
              "company.", facts=lambda r: [r["reactions"]]),
)


def _intro(ref: Ref) -> tuple[str, str]:
    """The user introduces themselves; other members are named in the request itself."""
    if not ref.entity.get("me"):
        return ("", "")
    say, short = stable(INTROS, ref.key, ref.entity["name"])
    return say.format(name=ref.entity["name"]), short.format(name=ref.entity["name"])


def _channel_args(ref: Ref) -> dict[str, Any]:
    args = {"user_id": ref.owner.key, "name": ref.entity["name"]}
    return {**args, "include_archived": True} if ref.entity.get("is_archived") else args


# Tools that do one another's job for some request (a thread and the pins show in the channel's
# messages, and in a search of the channel: its replies with their parent's id, its pins with their
# pin flag; direct messages and mentions in a search): a missing-function task hides all of a
# group or none, and never one whose group the chain calls otherwise (the search that finds a
# message the request names keeps search_messages, list_direct_messages and list_mentions shown).
SUBSTITUTES = (
    ("get_thread", "list_messages", "search_messages"),
    ("list_pins", "list_messages", "search_messages"),
    ("list_direct_messages", "search_messages"),
    ("list_mentions", "search_messages"),
)


_STOP_AFTER_QUOTE = {'.".': '."', '?".': '?"', '!".': '!"', '?"?': '?"', '!"?': '!"', '?"!': '?"', '!"!': '!"'}


def _stops_once(text: str | None) -> str | None:
    """A sentence that ends with a quoted message ending in its own stop, without a second one:
    'where Eric wrote "Draft is in the folder."', not '... folder.".'; a question closing on a quoted
    question asks once: '... who owns the login bug?"', not '... bug?"?'."""
    if text is None:
        return None
    for twice, once in _STOP_AFTER_QUOTE.items():
        text = text.replace(twice, once)
    return text


def _tidied(build: Callable[[Bundle, random.Random], Ask | None]) -> Callable[[Bundle, random.Random], Ask | None]:
    def tidy(b: Bundle, rng: random.Random) -> Ask | None:
        ask = build(b, rng)
        if ask is None:
            return None
        return replace(ask, say=_stops_once(ask.say), terse=_stops_once(ask.terse), detail=_stops_once(ask.detail))
    return tidy


recipe = Recipe(
    server="team_chat",
    sample=sample,
    topics=("chat",),
    substitutes=SUBSTITUTES,
    goals=[Goal(g.tool, _tidied(g.build), g.weight) for g in goals.all],
    lookups=(
        Lookup("member", "find_members", args=lambda r: {"name": r.entity["name"]}, intro=_intro),
        Lookup("channel", "list_channels", args=_channel_args),
        Lookup("message", "search_messages", args=lambda r: {"user_id": r.owner.key, **r.entity["search"]},
               needs=lambda r: (r.owner, *r.entity["through"])),
    ),
    hidden=WORKSPACE_WIDE,
)
