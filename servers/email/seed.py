"""The seed: 14 people with mailboxes at the company domain, their contacts (colleagues and people
outside), labels, a few hundred mails in threads of one to four messages, drafts and attachments.

Edge cases on purpose: one mailbox with no labels and no drafts, a draft with no recipient and one
with a mistyped address, one with an empty trash, threads
whose replies come from several people (reply-all), mails already archived, starred, trashed or
unread, drafts that answer a mail, and external senders whose mailboxes are not on this service.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from prove_env.world import SeedContext

from .models import Attachment, Contact, Draft, Label, Message, MessageLabel, Thread, User

DOMAIN = "northwind.io"
N_USERS = 14
LABELS = (("Work", "blue"), ("Family", "green"), ("Receipts", "yellow"), ("Travel", "purple"), ("Projects", "red"),
          ("Finance", "orange"), ("Clients", "teal"), ("Follow up", "gray"))
# (subject, opening line, reply line)
TOPICS = (
    ("Quarterly budget review", "Can we go over the Q3 numbers before Friday?", "Sure, Thursday afternoon works."),
    ("Team offsite planning", "I put together a few venue options for the offsite.", "The lakeside one looks great."),
    ("Contract renewal", "The vendor contract expires next month; should we renew?", "Yes, but ask for a discount."),
    ("Lunch on Thursday?", "Want to grab lunch on Thursday?", "Sounds good, noon at the usual place?"),
    ("Project Apollo kickoff", "Kickoff is set; agenda below.", "Thanks, I'll bring the timeline."),
    ("Invoice 4471", "Attached is the invoice for last month's work.", "Received, it's with accounts payable."),
    ("Flight itinerary", "Here's the itinerary for the Denver trip.", "Great, I booked the hotel as well."),
    ("Website redesign feedback", "I'd love your feedback on the new homepage mockups.", "The header feels crowded."),
    ("Hiring plan", "We have two open roles to fill this quarter.", "I can help screen candidates."),
    ("Birthday party", "We're throwing a small party on Saturday, can you come?", "Wouldn't miss it!"),
    ("Server maintenance window", "Maintenance is scheduled for Sunday night.", "Noted, I'll warn the team."),
    ("Onboarding checklist", "Here's the checklist for the new hires.", "Added the laptop setup step."),
    ("Marketing launch", "The launch email goes out next Tuesday.", "Copy looks good to me."),
    ("Expense report", "Please approve my expense report from the conference.", "Approved."),
    ("Board meeting notes", "Notes from today's board meeting are below.", "Thanks for writing these up."),
    ("Weekend hiking trip", "Anyone up for a hike this weekend?", "Count me in, which trail?"),
    ("Customer escalation", "A key customer reported an outage this morning.", "I'm on a call with them now."),
    ("Holiday schedule", "Here is the office holiday schedule.", "Thanks, I'll plan around it."),
    ("Design review", "The design review moved to Wednesday.", "Wednesday is fine for me."),
    ("Security training reminder", "Reminder: security training is due this month.", "Done, thanks."),
    ("Rent and utilities", "Splitting the utilities bill this month.", "Sent you my share."),
    ("Conference talk proposal", "I drafted our talk proposal for the conference.", "Nice, a few edits inline."),
)
EXTERNAL_SENDERS = (
    ("Amazon", "auto-confirm@amazon.com", "Your order has shipped", "Your package is on its way."),
    ("United Airlines", "receipts@united.com", "Your trip receipt", "Thank you for flying with us."),
    ("Chase", "no-reply@chase.com", "Your statement is ready", "Your monthly statement is available."),
    ("LinkedIn", "messages-noreply@linkedin.com", "You appeared in 9 searches this week", "See who's looking."),
    ("Dropbox", "no-reply@dropbox.com", "A file was shared with you", "A file was shared with you."),
    ("Uber Receipts", "noreply@uber.com", "Your Tuesday evening trip", "Thanks for riding with Uber."),
)
FILES = (("report", "pdf", "application/pdf"), ("budget", "xlsx",
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
         ("photo", "jpg", "image/jpeg"), ("slides", "pptx",
          "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
         ("notes", "docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
         ("invoice", "pdf", "application/pdf"), ("itinerary", "pdf", "application/pdf"), ("diagram", "png",
          "image/png"))


def seed(ctx: SeedContext) -> None:
    rng = ctx.rng
    users: list[User] = []
    for i in range(N_USERS):
        first, last = ctx.person_name(unique_first=True)
        user = User(id=ctx.new_id("USR"), name=f"{first} {last}", address=f"{first.lower()}.{last.lower()}@{DOMAIN}")
        ctx.add(user)
        users.append(user)
    externals = []
    for _ in range(20):
        first, last = ctx.person_name()
        externals.append((f"{first} {last}", f"{first.lower()}.{last.lower()}@{ctx.fake.free_email_domain()}",
                          ctx.fake.company() if rng.random() < 0.5 else None))

    labels: dict[str, list[Label]] = {}
    for i, user in enumerate(users):
        # contacts: colleagues and people outside; the last mailbox has no labels and no drafts
        known = rng.sample(users[:i] + users[i + 1:], rng.randint(3, 7))
        outside = rng.sample(externals, rng.randint(2, 6))
        people = [(u.name, u.address, None) for u in known] + outside
        for name, address, company in sorted(people):
            ctx.add(Contact(id=ctx.new_id("CON"), user_id=user.id, name=name, address=address,
                            phone=ctx.fake.numerify("(###) ###-####") if rng.random() < 0.6 else None,
                            company=company if company else (None if "@" + DOMAIN not in address else "Northwind")))
        chosen = [] if i == N_USERS - 1 else rng.sample(LABELS, rng.randint(1, 5))
        labels[user.id] = []
        for name, color in chosen:
            label = Label(id=ctx.new_id("LBL"), user_id=user.id, name=name, color=color)
            ctx.add(label)
            labels[user.id].append(label)

    by_address = {u.address: u for u in users}
    threads: dict[tuple[str, str], Thread] = {}
    conversations: list[tuple[str, list[Message]]] = []

    def copy(user: User, conversation: str, subject: str, box: str, **fields) -> Message:
        key = (user.id, conversation)
        if key not in threads:
            threads[key] = Thread(id=ctx.new_id("THR"), user_id=user.id, subject=subject, conversation=conversation)
            ctx.add(threads[key])
        old = (fields["sent_at"] < ctx.now - dt.timedelta(days=20))
        message = Message(id=ctx.new_id("MSG"), user_id=user.id, thread_id=threads[key].id, box=box, subject=subject,
                          read=box == "sent" or rng.random() < (0.9 if old else 0.55),
                          starred=rng.random() < 0.1, archived=box == "inbox" and old and rng.random() < 0.25,
                          trashed=False, **fields)
        if user.id != users[-1].id and rng.random() < 0.06:
            message.trashed = True
        ctx.add(message)
        if box == "inbox" and labels[user.id] and rng.random() < 0.35:
            ctx.add(MessageLabel(message_id=message.id, label_id=rng.choice(labels[user.id]).id))
        return message

    def deliver(conversation: str, subject: str, sender: tuple[str, str], to: list[str], cc: list[str],
                body: str, when: dt.datetime, files: list[tuple[str, int, str]]) -> list[Message]:
        fields = dict(sender_name=sender[0], sender=sender[1], to=", ".join(to), cc=", ".join(cc), body=body,
                      sent_at=when)
        copies = []
        if sender[1] in by_address:
            copies.append(copy(by_address[sender[1]], conversation, subject, "sent", **fields))
        for address in dict.fromkeys(to + cc):
            if address in by_address and address != sender[1]:
                copies.append(copy(by_address[address], conversation, subject, "inbox", **fields))
        for message in copies:
            for name, size, mime in files:
                ctx.add(Attachment(id=ctx.new_id("ATT"), message_id=message.id, draft_id=None, filename=name,
                                   size_kb=size, mime_type=mime))
        return copies

    for n in range(110):
        conversation = f"c{n:04d}"
        subject, opening, reply = rng.choice(TOPICS)
        starter = rng.choice(users)
        others = [u for u in users if u is not starter]
        recipients = rng.sample(others, rng.choice([1, 1, 1, 2, 3]))
        outsiders = [e for e in externals if rng.random() < 0.04]
        participants = [(starter.name, starter.address)] + [(u.name, u.address) for u in recipients] + \
            [(e[0], e[1]) for e in outsiders]
        when = ctx.moment(-90, -2)
        cc = [participants[-1][1]] if len(participants) > 2 and rng.random() < 0.4 else []
        to = [p[1] for p in participants[1:] if p[1] not in cc]
        files = []
        if rng.random() < 0.25:
            stem, ext, mime = rng.choice(FILES)
            files.append((f"{stem}_{rng.randint(1, 12):02d}.{ext}", rng.randint(12, 4800), mime))
        first_name = starter.name.split()[0]
        deliver(conversation, subject, participants[0], to, cc,
                f"Hi,\n\n{opening}\n\n{ctx.fake.sentence(nb_words=10)}\n\n{first_name}", when, files)
        last_sender = participants[0]
        for k in range(rng.choice([0, 0, 1, 1, 2, 3])):
            when = when + dt.timedelta(minutes=15 * rng.randint(2, 200))
            if when >= ctx.now:
                break
            replier = rng.choice([p for p in participants if p != last_sender])
            everyone = [p[1] for p in participants if p != replier]
            reply_all = len(everyone) > 1 and rng.random() < 0.5
            to_list = everyone if reply_all else [last_sender[1]]
            deliver(conversation, f"Re: {subject}", replier, to_list, [],
                    f"{reply}\n\n{replier[0].split()[0]}", when, [])
            last_sender = replier
    for n, (company, address, subject, line) in enumerate(EXTERNAL_SENDERS * 4):
        user = users[(n * 5) % (N_USERS - 1)]
        deliver(f"e{n:04d}", subject, (company, address), [user.address], [], f"{line}\n\n{ctx.fake.sentence()}",
                ctx.moment(-60, -1), [("receipt.pdf", rng.randint(40, 300), "application/pdf")] if n % 3 == 0 else [])

    # drafts: new mails and replies in progress; the last mailbox has none
    for user in users[:-1]:
        for _ in range(rng.randint(0, 3)):
            contact_to = rng.choice(externals + [(u.name, u.address, None) for u in users if u is not user])
            subject, opening, _ = rng.choice(TOPICS)
            ctx.add(Draft(id=ctx.new_id("DRF"), user_id=user.id, thread_id=None, reply_to=None, to=contact_to[1],
                          cc="", subject=subject, body=f"Hi {contact_to[0].split()[0]},\n\n{opening}", quote="",
                          updated_at=ctx.moment(-10, -1)))
    # two drafts that cannot be sent as they stand: one with no recipient yet, one with a mistyped address
    ctx.add(Draft(id=ctx.new_id("DRF"), user_id=users[2].id, thread_id=None, reply_to=None, to="", cc="",
                  subject="Notes for the offsite", body="Ideas so far: a lakeside venue, a half-day workshop.",
                  quote="", updated_at=ctx.now - dt.timedelta(hours=20)))
    ctx.add(Draft(id=ctx.new_id("DRF"), user_id=users[4].id, thread_id=None, reply_to=None,
                  to=users[9].address.replace(f".{DOMAIN.split('.')[-1]}", ""), cc="", subject="Venue shortlist",
                  body="Here are the three venues I liked most.", quote="", updated_at=ctx.now - dt.timedelta(hours=5)))
    _draft_files(ctx, users)


def _draft_files(ctx: SeedContext, users: list[User]) -> None:
    """A few drafts already carry a file from their mailbox's mail, and the offsite notes a large archive of
    venue photos (close to the 25 MB a mail can carry). Drawn last, so every earlier draw stays as it was."""
    session, rng = ctx.session, ctx.rng
    session.flush()
    drafts = session.scalars(select(Draft).where(Draft.to != "").order_by(Draft.id)).all()
    for draft in rng.sample(drafts, min(4, len(drafts))):
        files = session.execute(select(Attachment.filename, Attachment.size_kb, Attachment.mime_type)
                                .join(Message, Message.id == Attachment.message_id)
                                .where(Message.user_id == draft.user_id, Message.trashed.is_(False))
                                .order_by(Attachment.id)).all()
        if files:
            name, size, mime = rng.choice(files)
            ctx.add(Attachment(id=ctx.new_id("ATT"), message_id=None, draft_id=draft.id, filename=name, size_kb=size,
                               mime_type=mime))
    notes = session.scalar(select(Draft).where(Draft.user_id == users[2].id, Draft.subject == "Notes for the offsite"))
    ctx.add(Attachment(id=ctx.new_id("ATT"), message_id=None, draft_id=notes.id, filename="venue_photos.zip",
                       size_kb=23040, mime_type="application/zip"))
