"""How tasks are written for email: people who introduce themselves by name or address, and refer to
their mail the way a person does ("the email from Ada Park about the budget review", "my draft about
the offsite", "the thread about Project Apollo"), their labels by name and their contacts by name.

Every request comes in several phrasings (plain, polite, chatty, indirect, and terse ones for the
minimal level); an introduction is picked from many forms by a stable hash of who is speaking.
Requests that ask to be told something declare the facts the answer must state."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from typing import Any

from prove_env.synthesis.recipe import Ask, Goals, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import day, stable

from .tools import ADDRESS

Bundle = dict[str, Any]

NEW_LABELS = ("Taxes", "Kids", "Newsletters", "Conferences", "Insurance", "Recipes", "Volunteering", "House")
NEW_CONTACTS = (("Dana Whitfield", "dana.whitfield@gmail.com"), ("Marco Bellini", "marco.bellini@outlook.com"),
                ("Priya Raman", "priya.raman@yahoo.com"), ("Tom Okafor", "tom.okafor@hotmail.com"),
                ("Lena Fischer", "lena.fischer@gmail.com"), ("Sam Whitaker", "sam.whitaker@icloud.com"))
# Replies to a mail that asks something, and to one that tells something.
ANSWERS = ("Thanks, that works for me.", "Sounds good, see you then.", "I can't make it this week, sorry.",
           "Let me check and get back to you tomorrow.")
THANKS = ("Got it, I'll take a look today.", "Thanks for the update.", "Perfect, thank you!",
          "Great news, thanks for letting me know.")
NOTES = ("FYI, see below.", "Can you take a look at this?", "Forwarding this for your records.",
         "Thought you'd want to see this.")
NEW_MAILS = (("Coffee next week?", "Are you free for coffee sometime next week?"),
             ("Quick question", "Do you have a minute to talk about the schedule?"),
             ("Photos from Saturday", "I'll send the photos from Saturday tonight."),
             ("Meeting notes", "Here are my notes from this morning's meeting."),
             ("Catching up", "It's been a while, how have you been?"))
NEW_BODIES = ("Actually, let's push this to next month.", "Looking forward to it. Let me know what time suits you.",
              "Sorry for the delay, here is the update I promised.", "Please ignore my earlier note, all is settled.")


# -- sampling ------------------------------------------------------------------------------------

def _topic(subject: str) -> str:
    return re.sub(r"^((re|fwd):\s*)+", "", subject, flags=re.I).strip()


def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every person with a mailbox, with all their mail (trash included), the files their nameable mail
    carries, labels, drafts and contacts. One mail may be set aside to be trashed, one to be deleted
    for good, and one draft to be sent or discarded: no other request touches them."""
    bundles = []
    users = read("find_users", limit=100)
    people = {u["address"]: u["name"] for u in users}
    for user in users:
        uid = user["user_id"]
        mail = read("list_messages", user_id=uid, folder="all", limit=100) + \
            read("list_messages", user_id=uid, folder="trash", limit=100)
        contacts = read("list_contacts", user_id=uid, limit=100)
        known = {**people, **{c["address"]: c["name"] for c in contacts}}
        for m in mail:
            m["topic"] = _topic(m["subject"])
            m["to_names"] = [known.get(a, a) for a in m["to"]]
        # a mail is nameable when its sender (or, for sent mail, its first recipient) and its topic say which
        keys = Counter(_key(m, user["address"]) for m in mail)
        drafts = [d for d in read("list_drafts", user_id=uid)
                  if sum(x["subject"].lower() == d["subject"].lower() for x in read("list_drafts", user_id=uid)) == 1]
        named = [m for m in mail if keys[_key(m, user["address"])] == 1 and _told_apart(m, mail, user["address"])]
        # one live mail only ever trashed, one (not sent) only ever deleted for good; the rest stay put
        live = [m for m in named if m["folder"] != "trash"]
        binned = rng.choice(live) if live and rng.random() < 0.5 else None
        purgeable = [m for m in named if m["folder"] != "sent" and m is not binned]
        doomed = rng.choice(purgeable) if purgeable and rng.random() < 0.4 else None
        named = [m for m in named if m is not binned and m is not doomed]
        bundles.append({
            "now": now, "user": user, "people": known,
            "messages": named, "binned": binned, "doomed": doomed,
            "all": mail,
            "labels": read("list_labels", user_id=uid),
            "drafts": drafts,
            # the one draft that is sent or discarded; the others are edited, and take or lose files
            "closing": rng.choice(drafts)["draft_id"] if drafts and rng.random() < 0.6 else None,
            "closing_as": rng.choice(("send", "delete")),
            "files": {m["message_id"]: read("get_message", message_id=m["message_id"])["attachments"]
                      for m in named if m["has_attachments"] and m["folder"] != "trash"},
            "contacts": [c for c in contacts if len(read("list_contacts", user_id=uid, name=c["name"])) == 1],
        })
    return bundles


def _key(m: dict, me: str) -> tuple[bool, str, str]:
    own = m["from"] == me
    who = (m["to"][0] if m["to"] else "") if own else m["from_name"]
    return (own, who.lower(), m["topic"].lower())


def _told_apart(m: dict, mail: list[dict], me: str) -> bool:
    """Whether one's own mail is found by its topic alone, then told apart by whom it went to: no other
    mail of the user's about the topic went to that person (To or Cc), and a search by the topic shows
    it among its first 20."""
    if m["from"] != me:
        return True
    to = m["to"][0] if m["to"] else None
    topic, words = m["topic"].lower(), m["topic"].lower().split()
    pool = [x for x in mail if m["folder"] == "trash" or x["folder"] != "trash"]
    return (sum(x["from"] == me and x["topic"].lower() == topic and to in x["to"] + x["cc"] for x in mail) == 1
            and sum(all(w in x["subject"].lower() for w in words) for x in pool) <= 20)


def _received(b: Bundle, *folders: str) -> list[dict]:
    return [m for m in b["messages"] if m["folder"] in folders and not _own(b, m)]


def _own(b: Bundle, m: dict) -> bool:
    return m["from"] == b["user"]["address"]


# the services' notices come from addresses nobody reads: no-reply@dropbox.com, and also
# auto-confirm@amazon.com and receipts@united.com
_AUTOMATED = re.compile(r"no-?reply|auto-?confirm|^receipts@|^notifications?@", re.I)


def _answerable(b: Bundle, *folders: str) -> list[dict]:
    """Received mail a person writes back to: not a notice from an address nobody reads
    (no-reply@dropbox.com)."""
    return [m for m in _received(b, *folders) if not _AUTOMATED.search(m["from"])]


def _thread_length(b: Bundle, m: dict) -> int:
    """How many messages the mailbox holds in the thread of `m` (trashed ones included, as
    `get_thread` lists them)."""
    return sum(x["thread_id"] == m["thread_id"] for x in b["all"])


# -- how people name things ------------------------------------------------------------------------

def _user(b: Bundle) -> Ref:
    return Ref.of("user", b["user"])


def _message(b: Bundle, m: dict) -> Ref:
    return Ref.of("message", m, _user(b))


def _thread(b: Bundle, m: dict) -> Ref:
    return Ref("thread", m["thread_id"], m, _user(b))


def mail_name(b: Bundle, m: dict, rng: random.Random) -> str:
    """'the email from Ada Park about Budget review', or for one's own mail 'the email I sent to ...'."""
    topic = m["topic"]
    if _own(b, m):
        to = m["to_names"][0]
        return rng.choice([f"the email I sent to {to} about \"{topic}\"", f"my email to {to} about \"{topic}\"",
                           f"the message I sent {to} about \"{topic}\""])
    who = m["from_name"]
    return rng.choice([f"the email from {who} about \"{topic}\"", f"the message from {who} about \"{topic}\"",
                       f"the \"{topic}\" email from {who}",
                       f"the mail {who} sent me about \"{topic}\""])


def reply_text(m: dict, rng: random.Random) -> str:
    """A reply that fits the mail: an answer to a question, a thank-you for news."""
    return rng.choice(ANSWERS if "?" in m["snippet"] or "?" in m["subject"] else THANKS)


def _subjects(mail: list[dict], keep_order: bool = False) -> list[str]:
    """The subjects of listed mail as facts: each topic once ('Customer escalation' for 'Re: Customer
    escalation'), stated by an answer that copies the subjects and by one that says what the mail
    is about; at most five."""
    topics = list(dict.fromkeys(_topic(m["subject"]) or m["subject"] for m in mail))
    return (topics if keep_order else sorted(topics))[:5]


def _mentions(m: dict) -> tuple[str, ...]:
    return (m["topic"],)


_SAYING = ("It should say: \"{text}\"", "The text is \"{text}\"", "Write: \"{text}\"", "Just say \"{text}\"",
           "Make it say \"{text}\"", "Here's the text: \"{text}\"")


def saying(text: str, rng: random.Random) -> str:
    """The sentence that gives a mail's text, after a request or alone when the assistant asked."""
    return rng.choice(_SAYING).format(text=text)


def _ended(sentence: str) -> str:
    """A sentence with its full stop, unless it ends in a quotation that has one: 'to "Thanks, see
    you then."', never 'to "Thanks, see you then.".'."""
    return sentence if re.search(r"[.!?]\"$", sentence) else sentence + "."


def _drafted(d: dict) -> str:
    return d["subject"] or "(no subject)"


# -- goals: reading -------------------------------------------------------------------------------

goals = Goals()


@goals.add("get_message", 0.8)
def get_message(b: Bundle, rng: random.Random) -> Ask | None:
    """The files a mail carries: only the message itself lists them (a search shows its date,
    sender and recipients)."""
    attached = [m for m in b["messages"] if m["folder"] != "trash" and m["has_attachments"]]
    if not attached:
        return None
    m = rng.choice(attached)
    name = mail_name(b, m, rng)
    # a photo or a diagram is no document: 'documents' only where every file is one
    files = "documents" if not any(a["mime_type"].startswith("image/") for a in b["files"][m["message_id"]]) \
        else "files"
    return Ask({"message_id": m["message_id"]},
               say=rng.choice([f"What files are attached to {name}?",
                               f"Can you tell me the names of the attachments on {name}?",
                               f"I need the attachments from {name}. What are the file names?",
                               f"Which {files} came with {name}?"]),
               terse=f"Attachments on {name}?", refs=(_user(b), _message(b, m)), mentions=_mentions(m),
               facts=lambda r: [a["filename"] for a in r["attachments"]])


@goals.add("get_thread")
def get_thread(b: Bundle, rng: random.Random) -> Ask | None:
    """How many messages a conversation has and who wrote the latest: asked of a conversation with
    replies (of a lone mail the answer is "just the one, no replies", no count)."""
    mail = [m for m in b["messages"] if m["folder"] != "trash" and _thread_length(b, m) > 1]
    if not mail:
        return None
    m = rng.choice(mail)
    name = mail_name(b, m, rng)
    return Ask({"thread_id": m["thread_id"]},
               say=rng.choice([f"How many messages are in the conversation with {name}, and who wrote the latest?",
                               (f"Can you pull up the whole thread of {name}? How many messages does it have, and "
                                f"who sent the last one?"),
                               (f"I lost track of the conversation that {name} belongs to. How many messages does "
                                f"it have, and who wrote the most recent one?")]),
               terse=f"Thread of {name}: how many messages, last from whom?", refs=(_user(b), _thread(b, m)),
               mentions=_mentions(m), facts=lambda r: [len(r["messages"]), r["messages"][-1]["from_name"]])


@goals.add("list_messages", 1.2)
def list_messages(b: Bundle, rng: random.Random) -> Ask | None:
    uid = b["user"]["user_id"]
    mode = rng.choice(["unread", "trash", "starred", "sent"])
    pool = {"unread": [m for m in b["all"] if m["folder"] == "inbox" and not m["read"]],
            "trash": [m for m in b["all"] if m["folder"] == "trash"],
            "starred": [m for m in b["all"] if m["starred"] and m["folder"] != "trash"],
            "sent": [m for m in b["all"] if m["folder"] == "sent"]}[mode]
    if not 1 <= len(pool) <= 20:
        return None
    if mode == "unread":
        return Ask({"user_id": uid, "folder": "inbox", "unread_only": True},
                   say=rng.choice(["Do I have any unread email in my inbox? Who is it from?",
                                   "Can you check what's still unread in my inbox and tell me the senders?",
                                   "I've been away. Which emails in my inbox haven't I read yet, and who sent them?"]),
                   terse="Unread inbox mail: senders?", refs=(_user(b),),
                   facts=lambda r: sorted({m["from_name"] for m in r})[:5])
    if mode == "trash":
        return Ask({"user_id": uid, "folder": "trash"},
                   say=rng.choice(["What's sitting in my trash right now?",
                                   "Before anything gets purged, can you tell me which emails are in my trash?",
                                   "Could you list the subjects of the mail in my trash?"]),
                   terse="Subjects in my trash?", refs=(_user(b),),
                   facts=lambda r: _subjects(r))
    if mode == "starred":
        return Ask({"user_id": uid, "folder": "starred"},
                   say=rng.choice(["Which emails have I starred?", "Can you list my starred messages by subject?",
                                   "I star things I need to come back to. What's starred at the moment?"]),
                   terse="My starred mail?", refs=(_user(b),),
                   facts=lambda r: _subjects(r))
    count = min(len(pool), rng.choice([2, 3]))
    if count < 2:  # "my last 1 emails"
        return None
    said = {2: "two", 3: "three"}[count]
    return Ask({"user_id": uid, "folder": "sent", "limit": count},
               say=rng.choice([f"What were the last {said} emails I sent? Just the subjects.",
                               f"Could you remind me of the subjects of my {said} most recent sent emails?"]),
               terse=f"Subjects of my last {said} sent emails?", refs=(_user(b),), mentions=(said,),
               facts=lambda r: _subjects(r, keep_order=True))


@goals.add("search_messages", 0.8)
def mail_facts(b: Bundle, rng: random.Random) -> Ask | None:
    """When a named mail was sent, or to whom: its line in a search by sender and subject shows both."""
    mail = [m for m in b["messages"] if m["folder"] != "trash"]
    if not mail:
        return None
    m = rng.choice(mail)
    name, mid, me = mail_name(b, m, rng), m["message_id"], b["user"]["address"]
    args = _mail_args(_message(b, m))
    if rng.random() < 0.5 or not [a for a in m["to"] + m["cc"] if a != b["user"]["address"]]:
        return Ask(args, say=rng.choice([f"When was {name} sent?", f"Could you check what day {name} came in?",
                                         f"I'm trying to remember the date of {name}. When was it?"]),
                   terse=f"Date of {name}?", refs=(_user(b),), mentions=_mentions(m),
                   facts=lambda r: [x["date"][:10] for x in r if x["message_id"] == mid])
    # the result names recipients by address only: the words ask for the addresses; the user's own
    # address is no fact ('it went to you and ...' answers it); a Cc the facts hold is asked for by
    # name ('addressed to' is read as the To line alone)
    cc = ", Cc included" if [a for a in m["cc"] if a != me] else ""
    return Ask(args, say=rng.choice([f"Which addresses was {name} sent to{cc}?",
                                     f"Who exactly was {name} addressed to? Give me the email addresses{cc}.",
                                     f"Can you list the addresses {name} went to{cc}?"]),
               terse=f"Recipient addresses of {name}{cc}?", refs=(_user(b),), mentions=_mentions(m),
               facts=lambda r: [a for x in r if x["message_id"] == mid
                                for a in [a for a in x["to"] + x["cc"] if a != me][:5]])


@goals.add("search_messages", 1.3)
def search_messages(b: Bundle, rng: random.Random) -> Ask | None:
    uid = b["user"]["user_id"]
    live = [m for m in b["all"] if m["folder"] != "trash"]
    mode = rng.choice(["sender", "label", "attachment", "subject", "dates", "recipient"])
    if mode == "dates":
        today = b["now"].date()
        for _ in range(6):
            end = today - dt.timedelta(days=rng.randint(1, 60))
            start = end - dt.timedelta(days=rng.choice([2, 4, 6, 9]))
            inside = [m for m in live if start.isoformat() <= m["date"][:10] <= end.isoformat()]
            if 1 <= len(inside) <= 5:
                first, last = day(start), day(end)
                return Ask({"user_id": uid, "after": start.isoformat(), "before": end.isoformat()},
                           say=rng.choice([f"Which emails came or went between {first} and {last}? Just the subjects.",
                                           f"Can you list my mail from {first} to {last}, with subjects?",
                                           f"I'm looking for something from {first} through {last}. What mail is "
                                           "there in that stretch?"]),
                           terse=f"Mail from {first} to {last}: subjects?", refs=(_user(b),),
                           mentions=(first, last), facts=lambda r: _subjects(r))
        mode = "sender"
    if mode == "recipient":
        # the search by recipient also finds mail others sent with the address on it (To or Cc): the
        # words ask what the user sent, the facts are the user's own mail in the result, and the
        # address is asked of only where every such mail has it on the To line (a Cc'd copy is
        # "sent to" them for one reader and not for another)
        me = b["user"]["address"]
        own = [m for m in live if _own(b, m)]
        sent_to = Counter(a for m in own for a in m["to"])
        copied = {a for m in own for a in m["cc"]}
        picks = [a for a, n in sent_to.items() if 1 <= n <= 5 and a not in copied]
        if picks:
            address = rng.choice(sorted(picks))
            return Ask({"user_id": uid, "recipient": address},
                       say=rng.choice([f"Which emails have I sent to {address}? Give me the subjects.",
                                       f"Can you find the mail I've sent to {address} and list the subjects?",
                                       f"What have I been writing to {address} about?"]),
                       terse=f"Subjects of my mail to {address}?", refs=(_user(b),), mentions=(address,),
                       facts=lambda r: _subjects([m for m in r if m["from"] == me]))
        mode = "sender"
    if mode == "label":
        labels = [lb for lb in b["labels"] if 1 <= lb["messages"] <= 8]
        if labels:
            label = rng.choice(labels)
            return Ask({"user_id": uid, "label_id": label["label_id"]},
                       say=rng.choice([f"Which emails have I filed under {label['name']}?",
                                       f"Can you show me the mail labelled {label['name']}? I need the subjects.",
                                       f"What's under my {label['name']} label these days?"]),
                       terse=f"Mail labelled {label['name']}?", refs=(_user(b), Ref.of("label", label, _user(b))),
                       mentions=(label["name"],), facts=lambda r: _subjects(r))
        mode = "sender"
    if mode == "attachment":
        senders = Counter(m["from_name"] for m in live if m["has_attachments"] and not _own(b, m))
        picks = [s for s, n in senders.items() if n <= 5]
        if picks:
            who = rng.choice(sorted(picks))
            return Ask({"user_id": uid, "sender": who, "has_attachment": True},
                       say=rng.choice([f"Find the emails with attachments that {who} sent me.",
                                       f"Did {who} ever send me any files? Which emails had attachments?",
                                       f"I'm looking for attachments from {who}. Which emails carry them?"]),
                       terse=f"Mail with attachments from {who}?", refs=(_user(b),), mentions=(who,),
                       facts=lambda r: _subjects(r))
        mode = "sender"
    if mode == "subject":
        topics = Counter(m["topic"] for m in live)
        picks = [t for t, n in topics.items() if 2 <= n <= 6]
        if picks:
            topic = rng.choice(sorted(picks))
            return Ask({"user_id": uid, "subject": topic},
                       say=rng.choice([f"Who has emailed about \"{topic}\"? Give me the senders.",
                                       f"Can you find every email with \"{topic}\" in the subject and tell me who sent them?",
                                       f"Search my mail for \"{topic}\": who wrote those?"]),
                       terse=f"Senders of mail about \"{topic}\"?", refs=(_user(b),), mentions=(topic,),
                       facts=lambda r: sorted({m["from_name"] for m in r})[:5])
        mode = "sender"
    senders = Counter(m["from_name"] for m in live if not _own(b, m))
    picks = [s for s, n in senders.items() if 2 <= n <= 6]
    if not picks:
        return None
    who = rng.choice(sorted(picks))
    return Ask({"user_id": uid, "sender": who},
               say=rng.choice([f"What has {who} emailed me about? List the subjects.",
                               f"Can you find all the mail from {who} and give me the subjects?",
                               f"I need to catch up on everything {who} sent me. What are the subjects?"]),
               terse=f"Subjects of mail from {who}?", refs=(_user(b),), mentions=(who,),
               facts=lambda r: _subjects(r))


@goals.add("list_labels", 0.6)
def list_labels(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["labels"]:
        return None
    return Ask({"user_id": b["user"]["user_id"]},
               say=rng.choice(["Which labels have I set up in my mailbox?", "Can you list my email labels?",
                               "I forget how I organized my mail. What labels do I have?"]),
               terse="My labels?", refs=(_user(b),), facts=lambda r: [lb["name"] for lb in r])


@goals.add("list_drafts", 0.6)
def list_drafts(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["drafts"]:
        return None
    return Ask({"user_id": b["user"]["user_id"]},
               say=rng.choice(["What drafts do I have waiting?", "Can you list my unsent drafts by subject?",
                               "I think I left some emails half-written. Which drafts are there?"]),
               terse="My drafts?", refs=(_user(b),), facts=lambda r: [d["subject"] for d in r])


@goals.add("list_contacts", 0.8)
def list_contacts(b: Bundle, rng: random.Random) -> Ask | None:
    contacts = [c for c in b["contacts"] if c["phone"]]
    if not contacts or rng.random() < 0.4:
        if not b["contacts"]:
            return None
        c = rng.choice(b["contacts"])
        return Ask({"user_id": b["user"]["user_id"], "name": c["name"]},
                   say=rng.choice([f"What email address do I have saved for {c['name']}?",
                                   f"Could you look up {c['name']}'s address in my contacts?",
                                   f"I want to write to {c['name']}. Which address do I have for them?"]),
                   terse=f"Address of my contact {c['name']}?", refs=(_user(b),), mentions=(c["name"],),
                   facts=lambda r: [r[0]["address"]])
    c = rng.choice(contacts)
    return Ask({"user_id": b["user"]["user_id"], "name": c["name"]},
               say=rng.choice([f"What's the phone number of my contact {c['name']}?",
                               f"Can you find {c['name']}'s phone number in my contacts?",
                               f"I need to call {c['name']}. Which number do I have saved?"]),
               terse=f"Phone of {c['name']}?", refs=(_user(b),), mentions=(c["name"],),
               facts=lambda r: [r[0]["phone"]])  # any usual punctuation states it


# -- goals: flags and folders -----------------------------------------------------------------------

@goals.add("mark_read")
def mark_read(b: Bundle, rng: random.Random) -> Ask | None:
    mail = [m for m in b["messages"] if m["folder"] in ("inbox", "archive")]
    if not mail:
        return None
    m = rng.choice(mail)
    name = mail_name(b, m, rng)
    refs = (_user(b), _message(b, m))
    if m["read"]:
        return Ask({"message_id": m["message_id"], "read": False},
                   say=rng.choice([f"Please mark {name} as unread so I remember to deal with it.",
                                   f"Could you flip {name} back to unread?",
                                   f"I opened {name} by accident; make it unread again, please."]),
                   terse=f"Mark {name} unread.", refs=refs, mentions=_mentions(m))
    return Ask({"message_id": m["message_id"]},
               say=rng.choice([f"Please mark {name} as read.", f"I already know what {name} says; mark it read.",
                               f"Could you set {name} to read?"]),
               terse=f"Mark {name} read.", refs=refs, mentions=_mentions(m))


@goals.add("star_message")
def star_message(b: Bundle, rng: random.Random) -> Ask | None:
    mail = [m for m in b["messages"] if m["folder"] != "trash"]
    if not mail:
        return None
    m = rng.choice(mail)
    name = mail_name(b, m, rng)
    refs = (_user(b), _message(b, m))
    if m["starred"]:
        return Ask({"message_id": m["message_id"], "starred": False},
                   say=rng.choice([f"Please take the star off {name}.", f"I'm done with {name}; unstar it.",
                                   f"Could you remove the star from {name}?"]),
                   terse=f"Unstar {name}.", refs=refs, mentions=_mentions(m))
    return Ask({"message_id": m["message_id"]},
               say=rng.choice([f"Please star {name}.", f"Can you star {name} so I find it later?",
                               f"I'll need {name} again; give it a star."]),
               terse=f"Star {name}.", refs=refs, mentions=_mentions(m))


@goals.add("archive_message")
def archive_message(b: Bundle, rng: random.Random) -> Ask | None:
    mail = _received(b, "inbox")
    if not mail:
        return None
    m = rng.choice(mail)
    name = mail_name(b, m, rng)
    return Ask({"message_id": m["message_id"]},
               say=rng.choice([f"Please archive {name}.", f"Get {name} out of my inbox, but keep it: archive it.",
                               f"I've dealt with {name}; could you archive it?", f"Could you archive {name} for me?"]),
               terse=f"Archive {name}.", refs=(_user(b), _message(b, m)), mentions=_mentions(m))


@goals.add("trash_message")
def trash_message(b: Bundle, rng: random.Random) -> Ask | None:
    m = b["binned"]
    if m is None:
        return None
    name = mail_name(b, m, rng)
    return Ask({"message_id": m["message_id"]},
               say=rng.choice([f"Please move {name} to the trash.", f"I don't need {name}; trash it.",
                               f"Could you throw {name} in the bin?", f"Delete {name}, please (just the trash is fine)."]),
               terse=f"Trash {name}.", refs=(_user(b), _message(b, m)), mentions=_mentions(m))


@goals.add("restore_message")
def restore_message(b: Bundle, rng: random.Random) -> Ask | None:
    mail = [m for m in b["messages"] if m["folder"] == "trash"]
    if not mail:
        return None
    m = rng.choice(mail)
    name = mail_name(b, m, rng)
    return Ask({"message_id": m["message_id"]},
               say=rng.choice([f"I trashed {name} by mistake. Can you bring it back?",
                               f"Please restore {name} from the trash.",
                               f"Could you get {name} back out of the trash?"]),
               terse=f"Restore {name} from trash.", refs=(_user(b), _message(b, m)), mentions=_mentions(m))


@goals.add("delete_forever", 0.8)
def delete_forever(b: Bundle, rng: random.Random) -> Ask | None:
    m = b["doomed"]
    if m is None:
        return None
    name = mail_name(b, m, rng)
    prior = () if m["folder"] == "trash" else (("trash_message", {"message_id": m["message_id"]}),)
    return Ask({"message_id": m["message_id"]},
               say=rng.choice([f"Please delete {name} permanently, not just to the trash.",
                               f"I want {name} gone for good. Purge it.",
                               f"Could you erase {name} forever? I never want to see it again."]),
               terse=f"Permanently delete {name}.", refs=(_user(b), _message(b, m)), mentions=_mentions(m),
               prior=prior)


# -- goals: labels ------------------------------------------------------------------------------------

@goals.add("create_label", 0.8)
def create_label(b: Bundle, rng: random.Random) -> Ask | None:
    taken = {lb["name"].lower() for lb in b["labels"]}
    free = [n for n in NEW_LABELS if n.lower() not in taken]
    name = rng.choice(free)
    return Ask({"user_id": b["user"]["user_id"], "name": name},
               say=rng.choice([f"Please create a new label called {name}.", f"I'd like {'an' if name[0] in 'AEIOU' else 'a'} {name} label in my mailbox.",
                               f"Could you set up a label named \"{name}\" for me?"]),
               terse=f"New label: {name}.", refs=(_user(b),), mentions=(name,))


@goals.add("label_message")
def label_message(b: Bundle, rng: random.Random) -> Ask | None:
    mail = [m for m in b["messages"] if m["folder"] != "trash"]
    if not mail or not b["labels"]:
        return None
    m = rng.choice(mail)
    free = [lb for lb in b["labels"] if lb["name"] not in m["labels"]]
    if not free:
        return None
    label = rng.choice(free)
    name = mail_name(b, m, rng)
    return Ask({"message_id": m["message_id"], "label_id": label["label_id"]},
               say=rng.choice([f"Please label {name} as {label['name']}.",
                               f"Could you file {name} under {label['name']}?",
                               f"Put my {label['name']} label on {name}, please."]),
               terse=f"Label {name} as {label['name']}.",
               refs=(_user(b), _message(b, m), Ref.of("label", label, _user(b))),
               mentions=(*_mentions(m), label["name"]))


@goals.add("unlabel_message")
def unlabel_message(b: Bundle, rng: random.Random) -> Ask | None:
    mail = [m for m in b["messages"] if m["labels"]]
    if not mail:
        return None
    m = rng.choice(mail)
    label = next(lb for lb in b["labels"] if lb["name"] == rng.choice(m["labels"]))
    name = mail_name(b, m, rng)
    return Ask({"message_id": m["message_id"], "label_id": label["label_id"]},
               say=rng.choice([f"Please take the {label['name']} label off {name}.",
                               f"{name[0].upper()}{name[1:]} shouldn't be under {label['name']}; remove that label.",
                               f"Could you remove the {label['name']} label from {name}?"]),
               terse=f"Unlabel {name}: {label['name']}.",
               refs=(_user(b), _message(b, m), Ref.of("label", label, _user(b))),
               mentions=(*_mentions(m), label["name"]))


# -- goals: contacts ----------------------------------------------------------------------------------

@goals.add("add_contact", 0.7)
def add_contact(b: Bundle, rng: random.Random) -> Ask | None:
    name, address = rng.choice(NEW_CONTACTS)
    if any(c["address"] == address for c in b["contacts"]):
        return None
    return Ask({"user_id": b["user"]["user_id"], "name": name, "address": address},
               say=rng.choice([f"Please add {name} to my contacts.",
                               f"Save a new contact for me: {name}.",
                               f"I met someone new. Could you add {name} to my address book?"]),
               detail=rng.choice([f"The address is {address}.", f"Their email is {address}.",
                                  f"Email: {address}.", f"You can reach them at {address}."]),
               terse=f"New contact: {name}, {address}.", refs=(_user(b),), mentions=(name, address))


@goals.add("delete_contact", 0.6)
def delete_contact(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["contacts"]:
        return None
    c = rng.choice(b["contacts"])
    return Ask({"contact_id": c["contact_id"]},
               say=rng.choice([f"Please remove {c['name']} from my contacts.",
                               f"I don't keep in touch with {c['name']} any more; delete the contact.",
                               f"Could you take {c['name']} out of my address book?"]),
               terse=f"Delete contact {c['name']}.", refs=(_user(b), Ref.of("contact", c, _user(b))),
               mentions=(c["name"],))


# -- goals: drafts and sending --------------------------------------------------------------------------

@goals.add("create_draft")
def create_draft(b: Bundle, rng: random.Random) -> Ask | None:
    replyable = _answerable(b, "inbox", "archive")
    if replyable and rng.random() < 0.4:
        m = rng.choice(replyable)
        text = reply_text(m, rng)
        name = mail_name(b, m, rng)
        return Ask({"user_id": b["user"]["user_id"], "reply_to_message_id": m["message_id"], "body": text},
                   say=rng.choice([f"Start a reply to {name} but keep it as a draft; don't send it.",
                                   _ended(f"Please draft an answer to {name}") + " I'll send it myself later.",
                                   f"Could you prepare a reply draft to {name}? Don't send it yet."]),
                   detail=saying(text, rng),
                   terse=f"Draft reply to {name}: \"{text}\" (don't send).", refs=(_user(b), _message(b, m)),
                   mentions=(*_mentions(m), text))
    if not b["contacts"]:
        return None
    c = rng.choice(b["contacts"])
    subject, text = rng.choice(NEW_MAILS)
    return Ask({"user_id": b["user"]["user_id"], "to": [c["address"]], "subject": subject, "body": text},
               say=rng.choice([_ended(f"Please write a draft to my contact {c['name']} with the subject \"{subject}\"")
                               + " Don't send it yet.",
                               _ended(f"I'd like a draft email for my contact {c['name']}, subject \"{subject}\"")
                               + " Just save it.",
                               _ended(f"Could you save a draft to {c['name']} from my contacts? Subject \"{subject}\"")]),
               detail=saying(text, rng),
               terse=f"Draft to my contact {c['name']}: \"{subject}\" / \"{text}\" (don't send).",
               refs=(_user(b), Ref.of("contact", c, _user(b))), mentions=(c["name"], subject, text))


def _draft(b: Bundle, d: dict) -> Ref:
    return Ref.of("draft", d, _user(b))


def _draft_name(b: Bundle, d: dict, rng: random.Random) -> str:
    to = b["people"].get(d["to"][0], d["to"][0]) if d["to"] else None
    forms = [f"my draft about \"{_drafted(d)}\"", f"the draft with the subject \"{_drafted(d)}\""]
    if to:
        forms.append(f"my draft to {to} about \"{_drafted(d)}\"")
    return rng.choice(forms)


def _kept_drafts(b: Bundle) -> list[dict]:
    return [d for d in b["drafts"] if d["draft_id"] != b["closing"]]


def _closing(b: Bundle, how: str) -> list[dict]:
    """The draft set aside to be sent, or discarded (`how`), if this bundle set one aside for that."""
    return [d for d in b["drafts"] if d["draft_id"] == b["closing"] and b["closing_as"] == how]


MAX_KB = 25 * 1024


def _fitting(b: Bundle, d: dict) -> list[tuple[dict, dict]]:
    """(mail, file) pairs of the mailbox's nameable mail whose file the draft can still take."""
    held = {f["filename"].lower() for f in d["attachments"]}
    room = MAX_KB - sum(f["size_kb"] for f in d["attachments"])
    by_id = {m["message_id"]: m for m in b["messages"]}
    return [(by_id[mid], f) for mid, files in b["files"].items() for f in files
            if f["filename"].lower() not in held and f["size_kb"] <= room]


def _attach(b: Bundle, d: dict, rng: random.Random) -> tuple[dict, str, tuple[Ref, ...], tuple[str, ...]] | None:
    """Attaching a file of the mailbox to a draft: the call's arguments, how the user names the file (by
    its name and the mail that carries it), the refs and the mentions."""
    options = _fitting(b, d)
    if not options:
        return None
    m, f = rng.choice(options)
    args = {"draft_id": d["draft_id"], "message_id": m["message_id"], "filename": f["filename"]}
    said = rng.choice([f"{f['filename']} from {mail_name(b, m, rng)}",
                       f"the file {f['filename']} that came with {mail_name(b, m, rng)}"])
    return args, said, (_user(b), _draft(b, d), _message(b, m)), (*_mentions(m), f["filename"])


@goals.add("attach_file", 1.2)
def attach_file(b: Bundle, rng: random.Random) -> Ask | None:
    if not _kept_drafts(b):
        return None
    d = rng.choice(_kept_drafts(b))
    found = _attach(b, d, rng)
    if found is None:
        return None
    args, file, refs, mentions = found
    name = _draft_name(b, d, rng)
    return Ask(args, say=rng.choice([f"Please attach {file} to {name}.", f"Add {file} to {name} as an attachment.",
                                     f"On {name}, I need {file}; attach it, but don't send anything yet.",
                                     f"Could you put {file} into {name}?"]),
               terse=f"Attach {file} to {name}.", refs=refs, mentions=(*mentions, d["subject"]))


@goals.add("remove_attachment", 0.7)
def remove_attachment(b: Bundle, rng: random.Random) -> Ask | None:
    pool = [(d, f) for d in _kept_drafts(b) for f in d["attachments"]]
    if not pool:
        return None
    d, f = rng.choice(pool)
    name = _draft_name(b, d, rng)
    return Ask({"draft_id": d["draft_id"], "filename": f["filename"]},
               say=rng.choice([f"Take {f['filename']} off {name}.", f"Please remove the attachment {f['filename']} from "
                               f"{name}.", f"{name[0].upper()}{name[1:]} shouldn't carry {f['filename']}; remove it."]),
               terse=f"Remove {f['filename']} from {name}.", refs=(_user(b), _draft(b, d)),
               mentions=(d["subject"], f["filename"]))


@goals.add("update_draft")
def update_draft(b: Bundle, rng: random.Random) -> Ask | None:
    if not _kept_drafts(b):
        return None
    d = rng.choice(_kept_drafts(b))
    name = _draft_name(b, d, rng)
    text = rng.choice(NEW_BODIES)
    return Ask({"draft_id": d["draft_id"], "body": text},
               say=rng.choice([f"Please replace the text of {name}, but don't send it.",
                               f"I changed my mind about what to say in {name}; rewrite its text.",
                               f"Could you rewrite the body of {name}? Keep it unsent."]),
               detail=saying(text, rng),
               terse=_ended(f"Set body of {name} to \"{text}\""), refs=(_user(b), _draft(b, d)),
               mentions=(d["subject"], text))


@goals.add("delete_draft", 0.7)
def delete_draft(b: Bundle, rng: random.Random) -> Ask | None:
    if not _closing(b, "delete"):
        return None
    d = _closing(b, "delete")[0]
    name = _draft_name(b, d, rng)
    return Ask({"draft_id": d["draft_id"]},
               say=rng.choice([f"Please discard {name}; I won't send it.", f"Throw away {name}, please.",
                               f"I no longer need {name}. Could you delete it?"]),
               terse=f"Delete {name}.", refs=(_user(b), _draft(b, d)), mentions=(d["subject"],))


@goals.add("send_draft", 1.2)
def send_draft(b: Bundle, rng: random.Random) -> Ask | None:
    # a draft with no recipient or a mistyped address cannot be sent as it stands
    drafts = [d for d in _closing(b, "send") if d["to"] and all(ADDRESS.match(a) for a in d["to"] + d["cc"])]
    if not drafts:
        return None
    d = rng.choice(drafts)
    name = _draft_name(b, d, rng)
    found = _attach(b, d, rng) if rng.random() < 0.35 else None
    if found is not None:
        args, file, refs, mentions = found
        return Ask({"draft_id": d["draft_id"]},
                   say=rng.choice([f"Attach {file} to {name} and send it.",
                                   f"Please add {file} to {name}, then send it off."]),
                   terse=f"Attach {file} to {name}, send.", refs=refs, mentions=(*mentions, d["subject"]),
                   prior=(("attach_file", args),))
    if rng.random() < 0.4:
        text = rng.choice(NEW_BODIES)
        return Ask({"draft_id": d["draft_id"]},
                   say=rng.choice([f"Please change the text of {name} to \"{text}\" and then send it.",
                                   f"Update {name} to say \"{text}\" and send it off."]),
                   terse=f"Body of {name} -> \"{text}\", then send.", refs=(_user(b), _draft(b, d)),
                   mentions=(d["subject"], text), prior=(("update_draft", {"draft_id": d["draft_id"], "body": text}),))
    return Ask({"draft_id": d["draft_id"]},
               say=rng.choice([f"Please send {name}.", f"{name[0].upper()}{name[1:]} is ready; send it, please.",
                               f"Could you send off {name} now?", f"Go ahead and send {name}."]),
               terse=f"Send {name}.", refs=(_user(b), _draft(b, d)), mentions=(d["subject"],))


@goals.add("reply_to_message", 1.3)
def reply_to_message(b: Bundle, rng: random.Random) -> Ask | None:
    mail = _answerable(b, "inbox", "archive")
    if not mail:
        return None
    m = rng.choice(mail)
    text = reply_text(m, rng)
    name = mail_name(b, m, rng)
    refs = (_user(b), _message(b, m))
    others = [a for a in m["to"] + m["cc"] if a != b["user"]["address"]]
    if others and rng.random() < 0.5:
        return Ask({"message_id": m["message_id"], "body": text, "reply_all": True},
                   say=rng.choice([f"I need to reply all to {name}.",
                                   f"Please answer everyone on {name}, not just the sender.",
                                   f"Could you send a reply-all to {name}?"]),
                   detail=saying(text, rng), terse=f"Reply all to {name}: \"{text}\"", refs=refs,
                   mentions=(*_mentions(m), text))
    return Ask({"message_id": m["message_id"], "body": text},
               say=rng.choice([f"Please reply to {name}.", f"I'd like to answer {name}, just to the sender.",
                               f"Could you write back to {name}?", f"Send a quick reply to {name}, please."]),
               detail=saying(text, rng), terse=f"Reply to {name}: \"{text}\"", refs=refs,
               mentions=(*_mentions(m), text))


@goals.add("forward_message")
def forward_message(b: Bundle, rng: random.Random) -> Ask | None:
    mail = [m for m in b["messages"] if m["folder"] != "trash"]
    if not mail:
        return None
    m = rng.choice(mail)
    # a mail goes on to someone who has not got it: not its sender, nor anyone it went to (To or Cc)
    contacts = [c for c in b["contacts"] if c["address"].lower() not in
                {a.lower() for a in (m["from"], *m["to"], *m["cc"])}]
    if not contacts:
        return None
    c = rng.choice(contacts)
    name = mail_name(b, m, rng)
    refs = (_user(b), _message(b, m), Ref.of("contact", c, _user(b)))
    # the person is named as a contact in every wording: their address is in the contacts (a colleague
    # with a mailbox here is also found by `find_users`, a second route the words would leave open)
    if rng.random() < 0.5:
        note = rng.choice(NOTES)
        return Ask({"message_id": m["message_id"], "to": [c["address"]], "note": note},
                   say=rng.choice([f"Please forward {name} to my contact {c['name']} with the note \"{note}\"",
                                   f"Could you send {name} on to my contact {c['name']}? Add \"{note}\" on top."]),
                   terse=f"Forward {name} to my contact {c['name']}, note \"{note}\"", refs=refs,
                   mentions=(*_mentions(m), c["name"], note))
    return Ask({"message_id": m["message_id"], "to": [c["address"]]},
               say=rng.choice([f"Please forward {name} to my contact {c['name']}.",
                               f"Can you pass {name} along to {c['name']} from my contacts?",
                               f"I want my contact {c['name']} to see {name}; forward it to them, please."]),
               terse=f"Forward {name} to my contact {c['name']}.", refs=refs, mentions=(*_mentions(m), c["name"]))


# -- who is asking ---------------------------------------------------------------------------------

_BY_NAME = ("Hi, this is {name}.", "Hello, my name is {name}.", "Hi there, I'm {name}.",
            "Morning! {name} here.", "Hey there, this is {name}.", "My name is {name}.", "This is {name} speaking.", "It's {name} here.",
            "Hi, I'm {name} and I have a mailbox on your service.", "Hello, {name} here.", "Hey, it's {name}.",
            "I'm {name}.", "Good morning, this is {name}.", "You're talking to {name}.")
_BY_NAME_TERSE = ("This is {name}.", "Name: {name}.", "It's {name}.", "{name} here.", "I'm {name}.")
_BY_ADDRESS = ("Hello, my email address is {address}.", "Hi, my mailbox is {address}.",
               "I'm the user with the address {address}.", "My account is {address}.",
               "Hi there, you have me as {address}.", "Please look me up as {address}.",
               "I'm writing from {address}.", "My mail account here is {address}.",
               "This is the mailbox {address}.", "You'll find me under {address}.",
               "Hi! My address on your service is {address}.", "My login is {address}.")
_BY_ADDRESS_TERSE = ("Mailbox: {address}.", "My address: {address}.", "Account: {address}.")


def _by_name(ref: Ref) -> tuple[str, str]:
    name = ref.entity["name"]
    return (stable(_BY_NAME, "name", ref.key, name).format(name=name),
            stable(_BY_NAME_TERSE, "terse", ref.key, name).format(name=name))


def _by_address(ref: Ref) -> tuple[str, str]:
    address = ref.entity["address"]
    return (stable(_BY_ADDRESS, "address", ref.key).format(address=address),
            stable(_BY_ADDRESS_TERSE, "terse", ref.key).format(address=address))


def _mail_args(ref: Ref) -> dict[str, Any]:
    """Search a mailbox for the named mail: by its sender and topic, or for one's own by its topic (the
    user names the recipient, and the search takes an address: the result shows whom each went to),
    with the recipient's address only where the user says it."""
    m = ref.entity
    args: dict[str, Any] = {"user_id": ref.owner.key, "subject": m["topic"]}
    if m["from"] == ref.owner.entity["address"]:
        if m["to"] and m["to_names"][0] == m["to"][0]:
            args["recipient"] = m["to"][0]
    else:
        args["sender"] = m["from_name"]
    if m["folder"] == "trash":
        args["include_trash"] = True
    return args


# No request asks for the service-wide counts of the hidden `mailbox_stats`: `find_users` without a
# name or address lists every mailbox, and `list_messages` of each folder of each one counts them, so
# a shown pair answers them (as `find_meetings` answers video_meeting's meeting counts).

# Tools that do one another's job for some request (a folder's mail is a search away, a message
# is in its thread; a reply is also a reply draft, `create_draft(reply_to_message_id=...)`, then
# `send_draft`, so the reply tool is hidden only with the sending one): a missing-function task
# hides all of a group or none.
SUBSTITUTES = (
    ("search_messages", "list_messages"),
    ("get_message", "search_messages", "get_thread"),
    ("reply_to_message", "send_draft"),
)


recipe = Recipe(
    server="email",
    sample=sample,
    topics=("email",),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("user", "find_users", args=lambda r: {"name": r.entity["name"]}, intro=_by_name),
        Lookup("user", "find_users", args=lambda r: {"address": r.entity["address"]}, intro=_by_address),
        Lookup("message", "search_messages", args=_mail_args),
        Lookup("thread", "search_messages", args=_mail_args),
        Lookup("contact", "list_contacts", args=lambda r: {"user_id": r.owner.key, "name": r.entity["name"]}),
        Lookup.under("label", "list_labels"),
        Lookup.under("draft", "list_drafts"),
    ),
)
