"""The email server's tools: mailboxes, threads, folders, labels, drafts, contacts.

Rules, in one place:
- A message sits in one folder of its mailbox: inbox, sent, archive or trash. Only received mail in
  the inbox can be archived; trashed mail can be restored to where it was until it is deleted
  forever, and only trashed mail can be deleted forever. Trashed mail cannot be labelled,
  archived, replied to or forwarded until it is restored. Archiving, trashing, restoring,
  labelling and unlabelling set a state: asking for the state a mail is already in changes nothing.
- Sent mail is never edited: only its flags (read, starred) and labels change.
- Labels belong to one mailbox; names are unique in it (ignoring case), 1 to 40 characters.
- Sending (a draft, a reply, a forward) needs at least one recipient and well-formed addresses;
  it puts the sent copy in the sender's thread and delivers an unread inbox copy to each recipient
  with a mailbox here, in their copy of the same conversation. A sent draft no longer exists.
- Replies go to the sender of the mail answered (or, for one's own sent mail, to its recipients);
  reply-all adds everyone else on it but oneself. Replies and forwards quote the original.
- A contact's address is unique in its owner's contacts.
- A draft takes files from the mail of its own mailbox (received or sent, not in the trash), by
  name; a file of that name already on the draft stays as it is. A mail or a draft carries at most
  25 MB of files. Sending a draft sends its files.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from sqlalchemy import bindparam, exists, func, or_, select

from prove_env.toolkit import Date, Detail, Entity, Id, Limit, Toolkit, ToolError, tool

from .models import Attachment, Base, Contact, Draft, Label, Message, MessageLabel, Thread, User
from .seed import seed

MAX_ATTACHED_KB = 25 * 1024  # 25 MB of files on one mail
ADDRESS = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")
MAX_LABEL = 40


def loose_text(value):
    """A mail's text compared as a reader would: case, spacing and punctuation aside."""
    return re.sub(r"[\W_]+", "", value.lower()) if isinstance(value, str) else value


# Text a person dictates is compared loosely; contact details nobody gave are tolerated.
_BODIES = (Detail("messages", "body", loose_text), Detail("drafts", "body", loose_text))
_CONTACT_EXTRAS = (Detail("contacts", "phone"), Detail("contacts", "company"))
COLORS = ("blue", "green", "yellow", "purple", "red", "orange", "teal", "gray")
_COLUMNS = tuple(Message.__table__.c)  # list reads fetch plain rows, not ORM objects
Folder = Literal["inbox", "sent", "archive", "trash", "starred", "all"]


class EmailServer(Toolkit):
    """A mail service with a mailbox for each of its people: read, search, star, label, archive and
    trash mail in threads; write, edit and send drafts; reply, reply all and forward; keep contacts."""

    name = "email"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("user", User, "USR", lookup="find_users"),
        Entity("contact", Contact, "CON", lookup="list_contacts"),
        Entity("label", Label, "LBL", lookup="list_labels"),
        Entity("message", Message, "MSG", lookup="list_messages"),
        Entity("thread", Thread, "THR", lookup="list_messages"),
        Entity("draft", Draft, "DRF", lookup="list_drafts"),
    )

    # -- people -----------------------------------------------------------------------------------

    @tool(read_only=True)
    def find_users(self, name: str | None = None, address: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find people with a mailbox here by part of their name or their email address (ignoring
        case), ordered by id; everyone without either.

        Args:
            name: part of the person's name, such as 'Ada Park' or 'park'.
            address: the person's full email address, such as 'ada.park@northwind.io'.
        """
        return [{"user_id": u.id, "name": u.name, "address": u.address}
                for u in self.find(User, name=name, email=address, email_column="address", limit=limit)]

    @tool(read_only=True)
    def list_contacts(self, user_id: Id("user"), name: str | None = None, limit: Limit = 50) -> list[dict]:
        """List a person's contacts, ordered by name, optionally those whose name contains a text.

        Args:
            name: part of the contact's name, such as 'lee'.
        """
        user = self.get(User, user_id)
        query = select(Contact).where(Contact.user_id == user.id).order_by(Contact.name, Contact.id).limit(limit)
        if name and name.strip():
            query = query.where(func.lower(Contact.name).contains(name.strip().lower()))
        return [_contact(c) for c in self.db.scalars(query)]

    @tool(produces=("contact",), details=_CONTACT_EXTRAS)
    def add_contact(self, user_id: Id("user"), name: str, address: str, phone: str | None = None,
                    company: str | None = None) -> dict:
        """Save a new contact in a person's address book.

        Args:
            name: the contact's full name, such as 'Maria Lopez'.
            address: their email address, such as 'maria.lopez@gmail.com'; unique among the contacts.
            phone: an optional phone number, such as '(555) 010-2233'.
            company: an optional company name.
        """
        user = self.get(User, user_id)
        name, address = name.strip(), address.strip().lower()
        if not name:
            raise ToolError("a contact needs a name")
        _check_addresses([address])
        taken = self.db.scalar(select(Contact).where(Contact.user_id == user.id,
                                                     func.lower(Contact.address) == address))
        if taken is not None:
            raise ToolError(f"{address} is already a contact ({taken.name}, {taken.id}); no need to add it again")
        contact = Contact(id=self.new_id("CON"), user_id=user.id, name=name, address=address,
                          phone=(phone or "").strip() or None, company=(company or "").strip() or None)
        self.db.add(contact)
        return _contact(contact)

    @tool(destructive=True)
    def delete_contact(self, contact_id: Id("contact")) -> dict:
        """Remove a contact from its owner's address book (mail already exchanged stays)."""
        contact = self.get(Contact, contact_id)
        self.db.delete(contact)
        return {"contact_id": contact.id, "deleted": True}

    # -- reading ----------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_messages(self, user_id: Id("user"), folder: Folder = "inbox", unread_only: bool = False,
                      limit: Limit = 20) -> list[dict]:
        """List the mail in one folder of a person's mailbox, newest first.

        Args:
            folder: 'inbox' (default), 'sent', 'archive', 'trash', 'starred' (starred mail not in the
                trash) or 'all' (everything but the trash).
            unread_only: only mail not read yet (default false).
        """
        user = self.get(User, user_id)
        query = select(*_COLUMNS).where(Message.user_id == user.id, *_in_folder(folder))
        if unread_only:
            query = query.where(_UNREAD)
        return self._summaries(self.db.execute(query.order_by(*_NEWEST_FIRST).limit(limit)).all())

    @tool(read_only=True, produces=("message", "thread"))
    def search_messages(self, user_id: Id("user"), sender: str | None = None, recipient: str | None = None,
                        subject: str | None = None, label_id: Id("label") | None = None,
                        after: Date | None = None, before: Date | None = None,
                        has_attachment: bool | None = None, include_trash: bool = False,
                        limit: Limit = 20) -> list[dict]:
        """Search a person's mail, newest first; every criterion given must match.

        Args:
            sender: part of the sender's name or address, such as 'lopez' or 'amazon.com'.
            recipient: part of a recipient's address (To or Cc), such as 'ada.park'.
            subject: words that must all appear in the subject, in any order, such as 'budget review'.
            label_id: only mail with this label (one of this mailbox's labels).
            after: only mail sent on or after this day.
            before: only mail sent on or before this day.
            has_attachment: true for mail with attachments only, false for mail without.
            include_trash: also search the trash (default false).
        """
        user = self.get(User, user_id)
        query = select(*_COLUMNS).where(Message.user_id == user.id)
        if not include_trash:
            query = query.where(Message.trashed.is_(False))
        if sender and sender.strip():
            text = sender.strip().lower()
            query = query.where(or_(func.lower(Message.sender).contains(text),
                                    func.lower(Message.sender_name).contains(text)))
        if recipient and recipient.strip():
            text = recipient.strip().lower()
            query = query.where(or_(func.lower(Message.to).contains(text), func.lower(Message.cc).contains(text)))
        for word in (subject or "").lower().split():
            query = query.where(func.lower(Message.subject).contains(word))
        if label_id is not None:
            label = self._label_of(user.id, label_id)
            query = query.where(exists().where(MessageLabel.message_id == Message.id,
                                               MessageLabel.label_id == label.id))
        if after is not None:
            query = query.where(Message.sent_at >= dt.datetime.combine(after, dt.time()))
        if before is not None:
            query = query.where(Message.sent_at < dt.datetime.combine(before + dt.timedelta(days=1), dt.time()))
        if has_attachment is not None:
            attached = exists().where(Attachment.message_id == Message.id)
            query = query.where(attached if has_attachment else ~attached)
        return self._summaries(self.db.execute(query.order_by(*_NEWEST_FIRST).limit(limit)).all())

    @tool(read_only=True)
    def get_message(self, message_id: Id("message")) -> dict:
        """Return one mail in full: sender, recipients, subject, date, body, folder, flags, labels and
        attachments (name, size, type). Reading it does not mark it read."""
        message = self.get(Message, message_id)
        summary = self._summaries([message])[0]
        summary.pop("snippet")
        files = self.db.scalars(select(Attachment).where(Attachment.message_id == message.id).order_by(Attachment.id))
        return {**summary, "body": message.body, "attachments": [_attachment(a) for a in files]}

    @tool(read_only=True)
    def get_thread(self, thread_id: Id("thread")) -> dict:
        """Return a conversation as its mailbox holds it: the subject and every message, oldest first
        (trashed ones included, marked by their folder)."""
        thread = self.get(Thread, thread_id)
        query = select(*_COLUMNS).where(Message.thread_id == thread.id).order_by(Message.sent_at, Message.id)
        return {"thread_id": thread.id, "user_id": thread.user_id, "subject": thread.subject,
                "messages": self._summaries(self.db.execute(query).all())}

    # -- flags and folders -------------------------------------------------------------------------

    @tool(idempotent=True)
    def mark_read(self, message_id: Id("message"), read: bool = True) -> dict:
        """Mark a mail read, or unread again with read=false.

        Args:
            read: true to mark it read (default), false to mark it unread.
        """
        message = self.get(Message, message_id)
        message.read = read
        return self._summaries([message])[0]

    @tool(idempotent=True)
    def star_message(self, message_id: Id("message"), starred: bool = True) -> dict:
        """Star a mail, or remove its star with starred=false.

        Args:
            starred: true to star it (default), false to unstar it.
        """
        message = self.get(Message, message_id)
        message.starred = starred
        return self._summaries([message])[0]

    @tool(idempotent=True, sets=("message.archived",))
    def archive_message(self, message_id: Id("message")) -> dict:
        """Move a received mail out of the inbox into the archive (it stays searchable). Archiving
        archived mail changes nothing (`already_archived` says so)."""
        message = self._not_trashed(self.get(Message, message_id), "archived")
        if message.box == "sent":
            raise ToolError(f"Message {message.id} is in the sent folder; only received mail in the inbox can be "
                            "archived")
        already = message.archived
        message.archived = True
        return {**self._summaries([message])[0], "already_archived": already}

    @tool(idempotent=True, sets=("message.trashed",))
    def trash_message(self, message_id: Id("message")) -> dict:
        """Move a mail to the trash; restore_message brings it back until it is deleted forever.
        Trashing mail already in the trash changes nothing (`already_trashed` says so)."""
        message = self.get(Message, message_id)
        already = message.trashed
        message.trashed = True
        return {**self._summaries([message])[0], "already_trashed": already}

    @tool(idempotent=True)
    def restore_message(self, message_id: Id("message")) -> dict:
        """Take a mail out of the trash, back to the folder it was in (inbox, archive or sent).
        Restoring mail that is not in the trash changes nothing (`was_trashed` is then false)."""
        message = self.get(Message, message_id)
        was_trashed = message.trashed
        message.trashed = False
        return {**self._summaries([message])[0], "was_trashed": was_trashed}

    @tool(destructive=True, requires=("message.trashed",))
    def delete_forever(self, message_id: Id("message")) -> dict:
        """Delete a trashed mail for good, with its labels and attachments. Mail must be trashed first."""
        message = self.get(Message, message_id)
        if not message.trashed:
            raise ToolError(f"Message {message.id} is not in the trash; trash it before deleting it forever")
        for row in self.db.scalars(select(MessageLabel).where(MessageLabel.message_id == message.id)):
            self.db.delete(row)
        for row in self.db.scalars(select(Attachment).where(Attachment.message_id == message.id)):
            self.db.delete(row)
        self.db.delete(message)
        return {"message_id": message.id, "deleted": True}

    # -- labels -----------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_labels(self, user_id: Id("user")) -> list[dict]:
        """List a person's labels, ordered by name, with how many mails (not in the trash) carry each."""
        user = self.get(User, user_id)
        counts = dict(self.rows("SELECT ml.label_id, count(*) FROM message_labels ml "
                                "JOIN messages m ON m.id = ml.message_id WHERE m.user_id = ? AND NOT m.trashed "
                                "GROUP BY ml.label_id", user.id))
        return [{**_label(label), "messages": counts.get(label.id, 0)} for label in user.labels]

    @tool(produces=("label",))
    def create_label(self, user_id: Id("user"), name: str, color: Literal[COLORS] = "gray") -> dict:
        """Create a label in a person's mailbox.

        Args:
            name: the label's name, 1 to 40 characters, unique in the mailbox (ignoring case), such as 'Travel'.
            color: its color (default gray).
        """
        user = self.get(User, user_id)
        name = name.strip()
        if not 1 <= len(name) <= MAX_LABEL:
            raise ToolError(f"a label name must be 1 to {MAX_LABEL} characters, got {len(name)}")
        taken = self.db.scalar(select(Label).where(Label.user_id == user.id, func.lower(Label.name) == name.lower()))
        if taken is not None:
            raise ToolError(f"This mailbox already has a label named {taken.name!r} ({taken.id}); use it instead")
        label = Label(id=self.new_id("LBL"), user_id=user.id, name=name, color=color)
        self.db.add(label)
        return {**_label(label), "messages": 0}

    @tool(idempotent=True)
    def label_message(self, message_id: Id("message"), label_id: Id("label")) -> dict:
        """Put a label on a mail of the same mailbox. Labelling mail that already carries the label
        changes nothing (`already_labelled` says so)."""
        message = self._not_trashed(self.get(Message, message_id), "labelled")
        label = self._label_of(message.user_id, label_id)
        already = self.db.get(MessageLabel, (message.id, label.id)) is not None
        if not already:
            self.db.add(MessageLabel(message_id=message.id, label_id=label.id))
            self.db.flush()
        return {**self._summaries([message])[0], "already_labelled": already}

    @tool(idempotent=True)
    def unlabel_message(self, message_id: Id("message"), label_id: Id("label")) -> dict:
        """Take a label off a mail. Taking off a label the mail does not carry changes nothing
        (`had_label` is then false)."""
        message = self.get(Message, message_id)
        label = self._label_of(message.user_id, label_id)
        row = self.db.get(MessageLabel, (message.id, label.id))
        if row is not None:
            self.db.delete(row)
            self.db.flush()
        return {**self._summaries([message])[0], "had_label": row is not None}

    # -- drafts and sending -----------------------------------------------------------------------

    @tool(read_only=True)
    def list_drafts(self, user_id: Id("user")) -> list[dict]:
        """List a person's drafts, most recently edited first, with the files attached to each."""
        return [self._draft(d) for d in self.get(User, user_id).drafts]

    @tool(produces=("draft",), details=_BODIES)
    def create_draft(self, user_id: Id("user"), to: list[str] | None = None, subject: str | None = None,
                     body: str = "", cc: list[str] | None = None,
                     reply_to_message_id: Id("message") | None = None) -> dict:
        """Start a draft, a new mail or a reply to a mail of the same mailbox. Addresses are checked
        when it is sent.

        Args:
            to: the recipients' addresses, such as ['maria.lopez@gmail.com'].
            subject: the subject; a reply's defaults to 'Re: ' and the original's.
            body: the text of the mail.
            cc: addresses to copy.
            reply_to_message_id: the mail this draft answers: the draft joins its thread and quotes it,
                and `to` defaults to whoever a reply goes to.
        """
        user = self.get(User, user_id)
        thread_id, quote = None, ""
        if reply_to_message_id is not None:
            original = self._not_trashed(self.get(Message, reply_to_message_id), "replied to")
            if original.user_id != user.id:
                raise ToolError(f"Message {original.id} is not in {user.name}'s mailbox; reply from the mailbox "
                                "that holds it")
            thread_id, quote = original.thread_id, _quote(original)
            subject = subject if subject and subject.strip() else _prefixed("Re:", original.subject)
            if to is None:
                to = _reply_targets(user, original, False)
        draft = Draft(id=self.new_id("DRF"), user_id=user.id, thread_id=thread_id, reply_to=reply_to_message_id,
                      to=_joined(to), cc=_joined(cc), subject=(subject or "").strip(), body=body, quote=quote,
                      updated_at=self.now)
        self.db.add(draft)
        return self._draft(draft)

    @tool(idempotent=True, details=_BODIES)
    def update_draft(self, draft_id: Id("draft"), to: list[str] | None = None, cc: list[str] | None = None,
                     subject: str | None = None, body: str | None = None) -> dict:
        """Edit a draft: each field given replaces the draft's (a reply's quote stays as it is).

        Args:
            to: the new list of recipients.
            cc: the new list of addresses to copy.
            subject: the new subject.
            body: the new text, replacing the old one.
        """
        draft = self.get(Draft, draft_id)
        if to is None and cc is None and subject is None and body is None:
            raise ToolError("nothing to change: give to, cc, subject or body")
        if to is not None:
            draft.to = _joined(to)
        if cc is not None:
            draft.cc = _joined(cc)
        if subject is not None:
            draft.subject = subject.strip()
        if body is not None:
            draft.body = body
        draft.updated_at = self.now
        return self._draft(draft)

    @tool(idempotent=True)
    def attach_file(self, draft_id: Id("draft"), message_id: Id("message"), filename: str) -> dict:
        """Attach to a draft a file that a mail of the same mailbox carries (received or sent, not in the
        trash), by its file name as get_message lists it. A file of that name already on the draft stays
        as it is (changed is false). A draft carries at most 25 MB of files.

        Args:
            message_id: the mail that carries the file, such as 'MSG-0107'.
            filename: the file's name, such as 'budget_04.xlsx'.
        """
        draft = self.get(Draft, draft_id)
        message = self.get(Message, message_id)
        if message.user_id != draft.user_id:
            raise ToolError(f"Message {message.id} is in another mailbox; a draft takes files only from its own "
                            "mailbox's mail")
        self._not_trashed(message, "attached from")
        files = list(self.db.scalars(select(Attachment).where(Attachment.message_id == message.id)
                                     .order_by(Attachment.id)))
        wanted = filename.strip().lower()
        source = next((a for a in files if a.filename.lower() == wanted), None)
        if source is None:
            if not files:
                raise ToolError(f"Message {message.id} ('{message.subject}') has no attachments; "
                                "search_messages with has_attachment finds mail that does")
            raise ToolError(f"Message {message.id} has no file named {filename!r}; its files are "
                            f"{', '.join(a.filename for a in files)}")
        held = draft.files
        if any(a.filename.lower() == source.filename.lower() for a in held):
            return {**self._draft(draft), "changed": False}
        total = sum(a.size_kb for a in held) + source.size_kb
        if total > MAX_ATTACHED_KB:
            raise ToolError(f"With {source.filename} ({_size(source.size_kb)}) the draft's files would come to "
                            f"{_size(total)}, over the 25 MB a mail can carry; remove a file with "
                            "remove_attachment first, or share a link to the file instead")
        self.db.add(Attachment(id=self.new_id("ATT"), message_id=None, draft_id=draft.id, filename=source.filename,
                               size_kb=source.size_kb, mime_type=source.mime_type))
        draft.updated_at = self.now
        self.db.flush()
        self.db.expire(draft, ["files"])
        return {**self._draft(draft), "changed": True}

    @tool(destructive=True)
    def remove_attachment(self, draft_id: Id("draft"), filename: str) -> dict:
        """Take a file off a draft, by its name as list_drafts shows it.

        Args:
            filename: the file's name, such as 'budget_04.xlsx'.
        """
        draft = self.get(Draft, draft_id)
        held = draft.files
        row = next((a for a in held if a.filename.lower() == filename.strip().lower()), None)
        if row is None:
            raise ToolError(f"Draft {draft.id} has no file named {filename!r}; "
                            + (f"its files are {', '.join(a.filename for a in held)}" if held else "it has no files"))
        self.db.delete(row)
        draft.updated_at = self.now
        self.db.flush()
        self.db.expire(draft, ["files"])
        return {**self._draft(draft), "removed": row.filename}

    @tool(destructive=True)
    def delete_draft(self, draft_id: Id("draft")) -> dict:
        """Discard a draft for good."""
        draft = self.get(Draft, draft_id)
        for row in self.db.scalars(select(Attachment).where(Attachment.draft_id == draft.id)):
            self.db.delete(row)
        self.db.delete(draft)
        return {"draft_id": draft.id, "deleted": True}

    @tool(details=_BODIES)
    def send_draft(self, draft_id: Id("draft")) -> dict:
        """Send a draft: it becomes a sent mail in its thread (a reply's, or a new one) and reaches every
        recipient with a mailbox here; the draft no longer exists afterwards."""
        draft = self.get(Draft, draft_id)
        user = self.get(User, draft.user_id)
        thread = self.db.get(Thread, draft.thread_id) if draft.thread_id else None
        body = f"{draft.body}\n\n{draft.quote}" if draft.quote else draft.body
        files = list(self.db.scalars(select(Attachment).where(Attachment.draft_id == draft.id).order_by(Attachment.id)))
        result = self._send(user, thread, _split(draft.to), _split(draft.cc), draft.subject, body,
                            [(a.filename, a.size_kb, a.mime_type) for a in files])
        for row in files:
            self.db.delete(row)
        self.db.delete(draft)
        return {**result, "draft_id": draft.id}

    @tool(details=_BODIES)
    def reply_to_message(self, message_id: Id("message"), body: str, reply_all: bool = False) -> dict:
        """Reply at once to a mail, in its thread, quoting it: to its sender (to its recipients when it
        is one's own sent mail); with reply_all, to everyone else on it too.

        Args:
            body: the reply's text (the quote of the original is added below it).
            reply_all: also send to every other recipient of the original (default false).
        """
        original = self._not_trashed(self.get(Message, message_id), "replied to")
        user = self.get(User, original.user_id)
        if not body.strip():
            raise ToolError("a reply needs some text in its body")
        to = _reply_targets(user, original, reply_all)
        cc = [a for a in _split(original.cc) if a.lower() != user.address and a not in to] if reply_all else []
        thread = self.db.get(Thread, original.thread_id)
        return self._send(user, thread, to, cc, _prefixed("Re:", original.subject),
                          f"{body}\n\n{_quote(original)}", [])

    @tool(details=_BODIES)
    def forward_message(self, message_id: Id("message"), to: list[str], note: str | None = None) -> dict:
        """Forward a mail with its attachments to other addresses, with an optional note above it.

        Args:
            to: the addresses to forward it to, such as ['maria.lopez@gmail.com'].
            note: text to put above the forwarded mail.
        """
        original = self._not_trashed(self.get(Message, message_id), "forwarded")
        user = self.get(User, original.user_id)
        header = (f"---------- Forwarded message ---------\nFrom: {original.sender_name} <{original.sender}>\n"
                  f"Date: {_when(original.sent_at)}\nSubject: {original.subject}\nTo: {original.to}\n\n"
                  f"{original.body}")
        body = f"{note.strip()}\n\n{header}" if note and note.strip() else header
        files = self.db.scalars(select(Attachment).where(Attachment.message_id == original.id).order_by(Attachment.id))
        thread = self.db.get(Thread, original.thread_id)
        return self._send(user, thread, list(to), [], _prefixed("Fwd:", original.subject), body,
                          [(a.filename, a.size_kb, a.mime_type) for a in files])

    @tool(read_only=True, hidden=True)
    def mailbox_stats(self) -> dict:
        """Debugging only: how many mails each folder holds across every mailbox."""
        rows = self.db.execute(select(Message.box, Message.archived, Message.trashed, func.count())
                               .group_by(Message.box, Message.archived, Message.trashed)).all()
        stats: dict[str, int] = {}
        for box, archived, trashed, count in rows:
            folder = "trash" if trashed else ("archive" if archived else box)
            stats[folder] = stats.get(folder, 0) + count
        return stats

    def invariants(self) -> list[str]:
        """Every mail sits in a thread of its own mailbox and in one folder (only received mail is
        archived); labels on a mail are its mailbox's; an attachment belongs to one mail or one
        draft, which carries at most 25 MB of files, each name once on a draft; nothing was sent or
        edited after now."""
        problems = self.after_now(Message.sent_at, Draft.updated_at)
        for message_id, box, archived in self.rows("SELECT id, box, archived FROM messages "
                                                   "WHERE box NOT IN ('inbox', 'sent') OR (box = 'sent' AND archived)"):
            problems.append(f"message {message_id} is in box {box!r}" + (" and archived" if archived else ""))
        problems += [f"{owner} carries {kb} KB of files, over {MAX_ATTACHED_KB} KB" for owner, kb in self.rows(
            "SELECT coalesce(message_id, draft_id), sum(size_kb) FROM attachments GROUP BY message_id, draft_id "
            "HAVING sum(size_kb) > ?", MAX_ATTACHED_KB)]
        problems += [f"draft {draft} carries {name!r} twice" for draft, name in self.rows(
            "SELECT draft_id, lower(filename) FROM attachments WHERE draft_id IS NOT NULL "
            "GROUP BY draft_id, lower(filename) HAVING count(*) > 1")]
        loose = self.rows("SELECT id FROM attachments WHERE (message_id IS NULL) = (draft_id IS NULL)")
        if loose:
            problems.append(f"{len(loose)} attachments belong to no mail and no draft, or to both: {loose[0][0]} ...")
        wrong = self.db.scalar(select(func.count()).select_from(Message).join(Thread, Thread.id == Message.thread_id)
                               .where(Thread.user_id != Message.user_id))
        if wrong:
            problems.append(f"{wrong} messages sit in another mailbox's thread")
        foreign = self.db.scalar(select(func.count()).select_from(MessageLabel)
                                 .join(Message, Message.id == MessageLabel.message_id)
                                 .join(Label, Label.id == MessageLabel.label_id)
                                 .where(Label.user_id != Message.user_id))
        if foreign:
            problems.append(f"{foreign} labels sit on another mailbox's mail")
        return problems

    # -- helpers ----------------------------------------------------------------------------------

    def _send(self, user: User, thread: Thread | None, to: list[str], cc: list[str], subject: str, body: str,
              files: list[tuple[str, int, str]]) -> dict:
        if not to and not cc:
            raise ToolError("no recipient: add at least one address to 'to' before sending")
        _check_addresses(to + cc)
        if thread is None:
            thread = Thread(id=self.new_id("THR"), user_id=user.id, subject=subject or "(no subject)",
                            conversation="")
            thread.conversation = thread.id
            self.db.add(thread)
        fields = dict(sender_name=user.name, sender=user.address, to=", ".join(to), cc=", ".join(cc),
                      subject=subject, body=body, sent_at=self.now, starred=False, archived=False, trashed=False)
        sent = Message(id=self.new_id("MSG"), user_id=user.id, thread_id=thread.id, box="sent", read=True, **fields)
        copies = [sent]
        delivered = []
        for address in dict.fromkeys(a.lower() for a in to + cc):
            recipient = self.db.scalar(select(User).where(User.address == address))
            if recipient is None:
                continue
            theirs = self.db.scalar(select(Thread).where(Thread.user_id == recipient.id,
                                                         Thread.conversation == thread.conversation))
            if theirs is None:
                theirs = Thread(id=self.new_id("THR"), user_id=recipient.id, subject=subject or "(no subject)",
                                conversation=thread.conversation)
                self.db.add(theirs)
            copies.append(Message(id=self.new_id("MSG"), user_id=recipient.id, thread_id=theirs.id, box="inbox",
                                  read=False, **fields))
            delivered.append(address)
        self.db.add_all(copies)
        for message in copies:
            for name, size, mime in files:
                self.db.add(Attachment(id=self.new_id("ATT"), message_id=message.id, draft_id=None, filename=name,
                                       size_kb=size, mime_type=mime))
        self.db.flush()
        return {**self._summaries([sent])[0], "delivered_to": delivered}

    def _summaries(self, messages: list) -> list[dict]:
        """Messages (rows or objects) as the tools show them, with their labels' names."""
        if not messages:
            return []
        ids = [m.id for m in messages]
        names: dict[str, list[str]] = {}
        for message_id, name in self.db.execute(_LABELS_OF, {"ids": ids}):
            names.setdefault(message_id, []).append(name)
        attached = set(self.db.scalars(_ATTACHED, {"ids": ids}))
        return [{"message_id": m.id, "thread_id": m.thread_id, "folder": _folder(m), "from_name": m.sender_name,
                 "from": m.sender, "to": _split(m.to), "cc": _split(m.cc), "subject": m.subject, "date": m.sent_at,
                 "read": m.read, "starred": m.starred, "labels": names.get(m.id, []),
                 "has_attachments": m.id in attached, "snippet": " ".join(m.body.split())[:80]} for m in messages]

    def _draft(self, draft: Draft) -> dict:
        return {"draft_id": draft.id, "user_id": draft.user_id, "thread_id": draft.thread_id,
                "reply_to_message_id": draft.reply_to, "to": _split(draft.to), "cc": _split(draft.cc),
                "subject": draft.subject, "body": draft.body, "quote": draft.quote, "updated_at": draft.updated_at,
                "attachments": [_attachment(a) for a in draft.files]}

    def _label_of(self, user_id: str, label_id: str) -> Label:
        label = self.get(Label, label_id)
        if label.user_id != user_id:
            raise ToolError(f"Label {label.id} belongs to another mailbox; list_labels shows this mailbox's labels")
        return label

    def _not_trashed(self, message: Message, action: str) -> Message:
        if message.trashed:
            raise ToolError(f"Message {message.id} is in the trash; restore it before it can be {action}")
        return message


# -- plain helpers ----------------------------------------------------------------------------------

_LIVE = Message.trashed.is_(False)
_FOLDERS = {"trash": (Message.trashed.is_(True),),
            "inbox": (_LIVE, Message.box == "inbox", Message.archived.is_(False)),
            "sent": (_LIVE, Message.box == "sent"),
            "archive": (_LIVE, Message.archived.is_(True)),
            "starred": (_LIVE, Message.starred.is_(True)),
            "all": (_LIVE,)}
_UNREAD = Message.read.is_(False)
_NEWEST_FIRST = (Message.sent_at.desc(), Message.id.desc())
# Built once: the labels and attachments of a page of messages.
_LABELS_OF = (select(MessageLabel.message_id, Label.name).join(Label, Label.id == MessageLabel.label_id)
              .where(MessageLabel.message_id.in_(bindparam("ids", expanding=True))).order_by(Label.name))
_ATTACHED = select(Attachment.message_id).where(Attachment.message_id.in_(bindparam("ids", expanding=True)))


def _in_folder(folder: str) -> tuple:
    return _FOLDERS[folder]


def _folder(message: Message) -> str:
    if message.trashed:
        return "trash"
    if message.box == "sent":
        return "sent"
    return "archive" if message.archived else "inbox"


def _split(addresses: str) -> list[str]:
    return [a.strip() for a in addresses.split(",") if a.strip()]


def _joined(addresses: list[str] | None) -> str:
    return ", ".join(a.strip() for a in (addresses or []) if a.strip())


def _check_addresses(addresses: list[str]) -> None:
    bad = [a for a in addresses if not ADDRESS.match(a.strip())]
    if bad:
        raise ToolError(f"malformed address {bad[0]!r}; an email address looks like 'name@example.com'")


def _prefixed(prefix: str, subject: str) -> str:
    return subject if subject.lower().startswith(prefix.lower()) else f"{prefix} {subject}"


def _when(moment: dt.datetime) -> str:
    hour = moment.hour % 12 or 12
    return f"{moment:%a}, {moment:%b} {moment.day}, {moment.year} at {hour}:{moment:%M} {'AM' if moment.hour < 12 else 'PM'}"


def _quote(message: Message) -> str:
    lines = "\n".join(f"> {line}" if line else ">" for line in message.body.split("\n"))
    return f"On {_when(message.sent_at)}, {message.sender_name} <{message.sender}> wrote:\n{lines}"


def _reply_targets(user: User, original: Message, reply_all: bool) -> list[str]:
    me = user.address.lower()
    if original.box == "sent":
        targets = _split(original.to)
    else:
        targets = [original.sender] + (_split(original.to) if reply_all else [])
    return [a for a in dict.fromkeys(targets) if a.lower() != me] or ([original.sender] if original.box != "sent"
                                                                      else _split(original.to))


def _contact(contact: Contact) -> dict:
    return {"contact_id": contact.id, "user_id": contact.user_id, "name": contact.name, "address": contact.address,
            "phone": contact.phone, "company": contact.company}


def _label(label: Label) -> dict:
    return {"label_id": label.id, "user_id": label.user_id, "name": label.name, "color": label.color}


def _size(kb: int) -> str:
    return f"{kb / 1024:.1f} MB" if kb >= 1024 else f"{kb} KB"


def _attachment(attachment: Attachment) -> dict:
    return {"filename": attachment.filename, "size_kb": attachment.size_kb, "mime_type": attachment.mime_type}
