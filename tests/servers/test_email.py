"""The email server's domain rules, through real MCP (the generic suite covers the rest): folders,
trash and purge, labels, search, drafts that are edited and sent into their thread, replies,
reply-all and forwards that keep the thread and quote, delivery to mailboxes here, contacts, and
the refusals that leave the world unchanged."""

from __future__ import annotations

import pytest

DOMAIN = "@northwind.io"


@pytest.fixture
def s(served):
    return served("email")


def user(s, name: str) -> dict:
    found = s.ok("find_users", name=name)
    assert len(found) == 1, found
    return found[0]


def everyone(s) -> list[dict]:
    return s.ok("find_users", limit=100)


def mail(s, user_id: str, folder: str = "all") -> list[dict]:
    return s.ok("list_messages", user_id=user_id, folder=folder, limit=100)


def first(s, folder: str, where=lambda u, m: True) -> tuple[dict, dict]:
    for u in everyone(s):
        for m in mail(s, u["user_id"], folder):
            if where(u, m):
                return u, m
    raise AssertionError(f"no mail in {folder} matches in the seed-0 world")


def inbox_copy(s, address: str, subject: str) -> dict:
    receiver = s.ok("find_users", address=address)[0]
    found = [m for m in mail(s, receiver["user_id"], "inbox") if m["subject"] == subject]
    assert found, f"{address} got no {subject!r}"
    return found[0]


# -- the world -------------------------------------------------------------------------------------

def test_seed_world_has_the_variety_tasks_need(s):
    users = everyone(s)
    assert len(users) == 14 and all(u["address"].endswith(DOMAIN) for u in users)
    folders = {m["folder"] for u in users for m in mail(s, u["user_id"]) + mail(s, u["user_id"], "trash")}
    assert folders == {"inbox", "sent", "archive", "trash"}
    labels = [s.ok("list_labels", user_id=u["user_id"]) for u in users]
    drafts = [s.ok("list_drafts", user_id=u["user_id"]) for u in users]
    assert [] in labels and [] in drafts and any(len(x) >= 3 for x in labels)
    every_draft = [d for ds in drafts for d in ds]
    assert any(not d["to"] for d in every_draft)  # a draft with no recipient yet
    assert any(d["to"] and not d["to"][0].endswith((".io", ".com")) for d in every_draft)  # a mistyped address
    assert any(m["has_attachments"] for m in mail(s, users[0]["user_id"]) + mail(s, users[1]["user_id"]))


def test_find_users_by_name_or_address(s):
    users = everyone(s)
    target = users[3]
    assert s.ok("find_users", name=target["name"].split()[-1].upper()) == [target]
    assert s.ok("find_users", address=target["address"].upper()) == [target]
    assert s.ok("find_users", name="zzzz-nobody") == []


# -- reading and searching --------------------------------------------------------------------------

def test_folders_partition_a_mailbox(s):
    uid = everyone(s)[0]["user_id"]
    inbox, sent, archive, trash = (mail(s, uid, f) for f in ("inbox", "sent", "archive", "trash"))
    every = mail(s, uid, "all")
    assert {m["message_id"] for m in every} == {m["message_id"] for m in inbox + sent + archive}
    assert not {m["message_id"] for m in trash} & {m["message_id"] for m in every}
    assert all(m["folder"] == "inbox" for m in inbox) and all(m["folder"] == "sent" for m in sent)
    assert [m["date"] for m in every] == sorted((m["date"] for m in every), reverse=True)
    unread = s.ok("list_messages", user_id=uid, unread_only=True, limit=100)
    assert unread == [m for m in inbox if not m["read"]]
    starred = mail(s, uid, "starred")
    assert starred == [m for m in every if m["starred"]]


def test_get_message_and_thread(s):
    u, m = first(s, "inbox", lambda u, m: m["has_attachments"])
    full = s.ok("get_message", message_id=m["message_id"])
    assert full["body"] and full["attachments"] and set(full["attachments"][0]) == {"filename", "size_kb", "mime_type"}
    assert s.ok("get_message", message_id=m["message_id"])["read"] == m["read"]  # reading marks nothing
    thread = s.ok("get_thread", thread_id=m["thread_id"])
    assert thread["user_id"] == u["user_id"] and m["message_id"] in [x["message_id"] for x in thread["messages"]]
    dates = [x["date"] for x in thread["messages"]]
    assert dates == sorted(dates)


def test_search_by_sender_recipient_subject_dates_label_and_attachment(s):
    u, m = first(s, "inbox", lambda u, m: m["has_attachments"] and not m["subject"].startswith("Re:"))
    uid = u["user_id"]
    by_sender = s.ok("search_messages", user_id=uid, sender=m["from_name"].split()[-1].lower(), limit=100)
    assert m in by_sender and all(m["from_name"].split()[-1].lower() in (x["from_name"] + x["from"]).lower()
                                  for x in by_sender)
    words = m["subject"].split()
    by_subject = s.ok("search_messages", user_id=uid, subject=" ".join(reversed(words)).upper(), limit=100)
    assert m in by_subject and all(all(w.lower() in x["subject"].lower() for w in words) for x in by_subject)
    by_recipient = s.ok("search_messages", user_id=uid, recipient=u["address"], limit=100)
    assert m in by_recipient
    attached = s.ok("search_messages", user_id=uid, has_attachment=True, limit=100)
    bare = s.ok("search_messages", user_id=uid, has_attachment=False, limit=100)
    assert m in attached and m not in bare and all(x["has_attachments"] for x in attached)
    assert len(attached) + len(bare) == len(mail(s, uid))
    when = m["date"][:10]
    on_day = s.ok("search_messages", user_id=uid, after=when, before=when, limit=100)
    assert m in on_day and all(x["date"][:10] == when for x in on_day)
    assert s.ok("search_messages", user_id=uid, before="2000-01-01") == []
    # by label
    lu, lm = first(s, "all", lambda u, m: bool(m["labels"]))
    label = next(lb for lb in s.ok("list_labels", user_id=lu["user_id"]) if lb["name"] == lm["labels"][0])
    labelled = s.ok("search_messages", user_id=lu["user_id"], label_id=label["label_id"], limit=100)
    assert lm in labelled and all(label["name"] in x["labels"] for x in labelled)
    assert label["messages"] == len(labelled)
    # trash only when asked
    tu, tm = first(s, "trash")
    words = tm["subject"]
    assert tm not in s.ok("search_messages", user_id=tu["user_id"], subject=words, limit=100)
    assert tm in s.ok("search_messages", user_id=tu["user_id"], subject=words, include_trash=True, limit=100)
    # another mailbox's label
    other = next(x for x in everyone(s) if x["user_id"] != lu["user_id"])
    s.fails("search_messages", "belongs to another mailbox", user_id=other["user_id"], label_id=label["label_id"])


# -- flags and folders --------------------------------------------------------------------------

def test_mark_read_and_star_change_flags_not_content(s):
    _, m = first(s, "sent")
    before = s.ok("get_message", message_id=m["message_id"])
    assert s.ok("mark_read", message_id=m["message_id"], read=False)["read"] is False
    assert s.ok("mark_read", message_id=m["message_id"])["read"] is True
    assert s.ok("star_message", message_id=m["message_id"])["starred"] is True
    after = s.ok("get_message", message_id=m["message_id"])
    assert after["starred"] and {k: after[k] for k in ("body", "subject", "to", "cc", "date", "from")} == \
        {k: before[k] for k in ("body", "subject", "to", "cc", "date", "from")}
    assert s.ok("star_message", message_id=m["message_id"], starred=False)["starred"] is False


def test_archive_only_received_mail_in_the_inbox(s):
    u, m = first(s, "inbox")
    archived = s.ok("archive_message", message_id=m["message_id"])
    assert archived["folder"] == "archive" and archived["already_archived"] is False
    assert m["message_id"] not in [x["message_id"] for x in mail(s, u["user_id"], "inbox")]
    assert m["message_id"] in [x["message_id"] for x in mail(s, u["user_id"], "archive")]
    _, sent = first(s, "sent")
    s.fails("archive_message", "only received mail in the inbox", message_id=sent["message_id"])
    _, trashed = first(s, "trash")
    s.fails("archive_message", "restore it before", message_id=trashed["message_id"])


def test_trash_is_restorable_until_deleted_forever(s):
    u, m = first(s, "archive")
    assert s.ok("trash_message", message_id=m["message_id"])["folder"] == "trash"
    restored = s.ok("restore_message", message_id=m["message_id"])
    assert restored["folder"] == "archive" and restored["was_trashed"] is True  # back where it was
    s.fails("delete_forever", "trash it before", message_id=m["message_id"])
    s.ok("trash_message", message_id=m["message_id"])
    assert s.ok("delete_forever", message_id=m["message_id"]) == {"message_id": m["message_id"], "deleted": True}
    s.fails("get_message", "not found", message_id=m["message_id"])
    s.fails("restore_message", "not found", message_id=m["message_id"])



def test_archiving_archived_mail_changes_nothing(s):
    _, m = first(s, "inbox")
    done, again = s.repeat("archive_message", message_id=m["message_id"])
    assert again == {**done, "already_archived": True} and again["folder"] == "archive"


def test_trashing_trashed_mail_changes_nothing(s):
    _, m = first(s, "inbox")
    done, again = s.repeat("trash_message", message_id=m["message_id"])
    assert done["already_trashed"] is False
    assert again == {**done, "already_trashed": True} and again["folder"] == "trash"


def test_restoring_mail_not_in_the_trash_changes_nothing(s):
    _, m = first(s, "trash")
    done, again = s.repeat("restore_message", message_id=m["message_id"])
    assert done["was_trashed"] is True and done["folder"] != "trash"
    assert again == {**done, "was_trashed": False}


def test_labelling_twice_and_unlabelling_twice_change_nothing(s):
    u, m = first(s, "inbox", lambda u, m: not m["labels"] and s.ok("list_labels", user_id=u["user_id"]))
    label = s.ok("list_labels", user_id=u["user_id"])[0]
    done, again = s.repeat("label_message", message_id=m["message_id"], label_id=label["label_id"])
    assert again == {**done, "already_labelled": True} and again["labels"] == [label["name"]]
    done, again = s.repeat("unlabel_message", message_id=m["message_id"], label_id=label["label_id"])
    assert done["had_label"] is True and again == {**done, "had_label": False} and again["labels"] == []


# -- labels -------------------------------------------------------------------------------------------

def test_create_label_unique_per_mailbox(s):
    u = everyone(s)[-1]  # no labels yet
    assert s.ok("list_labels", user_id=u["user_id"]) == []
    label = s.ok("create_label", user_id=u["user_id"], name="  Travel ", color="purple")
    assert label["name"] == "Travel" and label["messages"] == 0
    assert s.ok("list_labels", user_id=u["user_id"]) == [label]
    s.fails("create_label", "already has a label named", user_id=u["user_id"], name="TRAVEL")
    s.fails("create_label", "1 to 40 characters", user_id=u["user_id"], name="  ")
    other = everyone(s)[0]
    s.ok("create_label", user_id=other["user_id"], name="Zebra crossings")  # another mailbox may reuse names


def test_label_and_unlabel_a_message(s):
    u, m = first(s, "inbox", lambda u, m: not m["labels"] and s.ok("list_labels", user_id=u["user_id"]))
    label = s.ok("list_labels", user_id=u["user_id"])[0]
    tagged = s.ok("label_message", message_id=m["message_id"], label_id=label["label_id"])
    assert label["name"] in tagged["labels"]
    assert next(lb for lb in s.ok("list_labels", user_id=u["user_id"])
                if lb["label_id"] == label["label_id"])["messages"] == label["messages"] + 1
    assert tagged["already_labelled"] is False
    untagged = s.ok("unlabel_message", message_id=m["message_id"], label_id=label["label_id"])
    assert label["name"] not in untagged["labels"] and untagged["had_label"] is True
    foreign = next(lb for x in everyone(s) if x["user_id"] != u["user_id"]
                   for lb in s.ok("list_labels", user_id=x["user_id"]))
    s.fails("label_message", "belongs to another mailbox", message_id=m["message_id"],
              label_id=foreign["label_id"])
    tu, tm = first(s, "trash", lambda u, m: bool(s.ok("list_labels", user_id=u["user_id"])))
    s.fails("label_message", "restore it before", message_id=tm["message_id"],
              label_id=s.ok("list_labels", user_id=tu["user_id"])[0]["label_id"])


# -- contacts -------------------------------------------------------------------------------------------

def test_contacts(s):
    u = everyone(s)[0]
    contacts = s.ok("list_contacts", user_id=u["user_id"], limit=100)
    assert contacts and [c["name"] for c in contacts] == sorted(c["name"] for c in contacts)
    one = contacts[0]
    assert s.ok("list_contacts", user_id=u["user_id"], name=one["name"].split()[0].lower())[0] == one
    added = s.ok("add_contact", user_id=u["user_id"], name="Dana Whitfield", address="Dana.Whitfield@gmail.com",
                 phone="(555) 010-2233")
    assert added["address"] == "dana.whitfield@gmail.com" and added in s.ok("list_contacts", user_id=u["user_id"],
                                                                             name="whitfield")
    s.fails("add_contact", "already a contact", user_id=u["user_id"], name="Dana W", address="dana.whitfield@GMAIL.com")
    s.fails("add_contact", "malformed address", user_id=u["user_id"], name="Bad", address="dana@@gmail")
    s.fails("add_contact", "needs a name", user_id=u["user_id"], name="  ", address="x.y@gmail.com")
    assert s.ok("delete_contact", contact_id=one["contact_id"]) == {"contact_id": one["contact_id"], "deleted": True}
    assert one not in s.ok("list_contacts", user_id=u["user_id"], limit=100)
    s.fails("delete_contact", "not found", contact_id=one["contact_id"])


# -- drafts and sending --------------------------------------------------------------------------------

def test_create_edit_and_send_a_draft_delivers_to_mailboxes_here(s):
    sender, receiver = everyone(s)[0], everyone(s)[1]
    draft = s.ok("create_draft", user_id=sender["user_id"], to=[receiver["address"]], cc=["pat.jones@gmail.com"],
                 subject="Coffee next week?", body="Are you free Tuesday?")
    assert draft in s.ok("list_drafts", user_id=sender["user_id"]) and draft["thread_id"] is None
    edited = s.ok("update_draft", draft_id=draft["draft_id"], body="Are you free Wednesday instead?")
    assert edited["body"] == "Are you free Wednesday instead?" and edited["to"] == [receiver["address"]]
    s.fails("update_draft", "nothing to change", draft_id=draft["draft_id"])
    sent = s.ok("send_draft", draft_id=draft["draft_id"])
    assert sent["folder"] == "sent" and sent["delivered_to"] == [receiver["address"]]
    assert s.ok("get_message", message_id=sent["message_id"])["body"] == "Are you free Wednesday instead?"
    got = inbox_copy(s, receiver["address"], "Coffee next week?")
    assert not got["read"] and got["from"] == sender["address"] and got["cc"] == ["pat.jones@gmail.com"]
    # the draft is gone: it can be neither sent again nor edited; sent mail is never edited
    assert draft["draft_id"] not in [d["draft_id"] for d in s.ok("list_drafts", user_id=sender["user_id"])]
    s.fails("send_draft", "not found", draft_id=draft["draft_id"])
    s.fails("update_draft", "not found", draft_id=draft["draft_id"], body="changed")


def test_sending_needs_recipients_and_well_formed_addresses(s):
    u = everyone(s)[0]
    empty = s.ok("create_draft", user_id=u["user_id"], subject="Notes", body="To be decided")
    s.fails("send_draft", "no recipient", draft_id=empty["draft_id"])
    s.ok("update_draft", draft_id=empty["draft_id"], to=["not-an-address"])
    s.fails("send_draft", "malformed address", draft_id=empty["draft_id"])
    s.ok("update_draft", draft_id=empty["draft_id"], to=["ok@example.com"], cc=["broken@"])
    s.fails("send_draft", "malformed address 'broken@'", draft_id=empty["draft_id"])
    _, m = first(s, "inbox")
    s.fails("forward_message", "no recipient", message_id=m["message_id"], to=[])
    s.fails("forward_message", "malformed address", message_id=m["message_id"], to=["someone at gmail"])


def test_delete_draft(s):
    u, d = next((u, ds[0]) for u in everyone(s) if (ds := s.ok("list_drafts", user_id=u["user_id"])))
    assert s.ok("delete_draft", draft_id=d["draft_id"]) == {"draft_id": d["draft_id"], "deleted": True}
    s.fails("send_draft", "not found", draft_id=d["draft_id"])
    s.fails("delete_draft", "not found", draft_id=d["draft_id"])


def test_a_draft_takes_a_file_from_its_own_mailbox_and_sends_it(s):
    u, m = first(s, "inbox", lambda u, m: m["has_attachments"])
    uid = u["user_id"]
    file = s.ok("get_message", message_id=m["message_id"])["attachments"][0]
    receiver = next(x for x in everyone(s) if x["user_id"] != uid)
    draft = s.ok("create_draft", user_id=uid, to=[receiver["address"]], subject="Here is the file",
                 body="See attached.")
    assert draft["attachments"] == []
    # the rules: a file of a mail of this mailbox, named as the mail lists it, not from the trash
    s.fails("attach_file", "has no file named 'nothing.pdf'", draft_id=draft["draft_id"], message_id=m["message_id"],
            filename="nothing.pdf")
    _, bare = first(s, "inbox", lambda x, y: x["user_id"] == uid and not y["has_attachments"])
    s.fails("attach_file", "has no attachments", draft_id=draft["draft_id"], message_id=bare["message_id"],
            filename=file["filename"])
    _, elsewhere = first(s, "inbox", lambda x, y: x["user_id"] != uid and y["has_attachments"])
    s.fails("attach_file", "in another mailbox", draft_id=draft["draft_id"], message_id=elsewhere["message_id"],
            filename=s.ok("get_message", message_id=elsewhere["message_id"])["attachments"][0]["filename"])
    out, again = s.repeat("attach_file", draft_id=draft["draft_id"], message_id=m["message_id"],
                          filename=f"  {file['filename'].upper()} ")
    assert out["changed"] and again["changed"] is False and out["attachments"] == [file]
    listed = next(d for d in s.ok("list_drafts", user_id=uid) if d["draft_id"] == draft["draft_id"])
    assert listed["attachments"] == [file]
    s.ok("trash_message", message_id=m["message_id"])
    s.fails("attach_file", "restore it", draft_id=draft["draft_id"], message_id=m["message_id"],
            filename=file["filename"])
    # sending carries the file to the sent copy and to the recipient's
    sent = s.ok("send_draft", draft_id=draft["draft_id"])
    assert sent["has_attachments"] and s.ok("get_message", message_id=sent["message_id"])["attachments"] == [file]
    got = inbox_copy(s, receiver["address"], "Here is the file")
    assert s.ok("get_message", message_id=got["message_id"])["attachments"] == [file]


def test_a_draft_carries_at_most_25_mb_and_files_come_off_it(s):
    william = user(s, "William Sullivan")
    notes = next(d for d in s.ok("list_drafts", user_id=william["user_id"]) if d["subject"] == "Notes for the offsite")
    assert [(f["filename"], f["size_kb"]) for f in notes["attachments"]] == [("venue_photos.zip", 23040)]
    files = [(m, f) for m in mail(s, william["user_id"]) if m["has_attachments"]
             for f in s.ok("get_message", message_id=m["message_id"])["attachments"]]
    big = next((m, f) for m, f in files if f["size_kb"] > 25 * 1024 - 23040)
    small = next((m, f) for m, f in files if f["size_kb"] <= 2560)
    s.fails("attach_file", "over the 25 MB", draft_id=notes["draft_id"], message_id=big[0]["message_id"],
            filename=big[1]["filename"])
    assert s.ok("attach_file", draft_id=notes["draft_id"], message_id=small[0]["message_id"],
                filename=small[1]["filename"])["changed"]
    s.fails("remove_attachment", "its files are venue_photos.zip", draft_id=notes["draft_id"], filename="photos.zip")
    left = s.ok("remove_attachment", draft_id=notes["draft_id"], filename="VENUE_PHOTOS.ZIP")
    assert left["removed"] == "venue_photos.zip" and [f["filename"] for f in left["attachments"]] == [
        small[1]["filename"]]
    s.fails("remove_attachment", "no file named", draft_id=notes["draft_id"], filename="venue_photos.zip")
    assert s.ok("attach_file", draft_id=notes["draft_id"], message_id=big[0]["message_id"],
                filename=big[1]["filename"])["changed"]  # room now
    bare = s.ok("create_draft", user_id=william["user_id"], subject="Empty")
    s.fails("remove_attachment", "it has no files", draft_id=bare["draft_id"], filename="venue_photos.zip")


def test_reply_draft_joins_the_thread_and_quotes_the_original(s):
    u, m = first(s, "inbox", lambda u, m: not m["subject"].startswith("Re:"))
    draft = s.ok("create_draft", user_id=u["user_id"], reply_to_message_id=m["message_id"], body="Count me in.")
    assert draft["thread_id"] == m["thread_id"] and draft["to"] == [m["from"]]
    assert draft["subject"] == f"Re: {m['subject']}" and draft["quote"].startswith("On ")
    assert f"{m['from_name']} <{m['from']}> wrote:" in draft["quote"]
    s.ok("update_draft", draft_id=draft["draft_id"], body="Count me in, see you there.")
    sent = s.ok("send_draft", draft_id=draft["draft_id"])
    assert sent["thread_id"] == m["thread_id"]
    body = s.ok("get_message", message_id=sent["message_id"])["body"]
    original = s.ok("get_message", message_id=m["message_id"])["body"]
    assert body.startswith("Count me in, see you there.\n\nOn ")
    assert all(f"> {line}" in body for line in original.split("\n") if line)
    thread = s.ok("get_thread", thread_id=m["thread_id"])
    assert thread["messages"][-1]["message_id"] == sent["message_id"]
    other = next(x for x in everyone(s) if x["user_id"] != u["user_id"])
    s.fails("create_draft", "not in", user_id=other["user_id"], reply_to_message_id=m["message_id"], body="x")


def test_reply_and_reply_all_keep_the_thread(s):
    u, m = first(s, "inbox", lambda u, m: len([a for a in m["to"] + m["cc"] if a != u["address"]]) >= 2
                 and m["from"].endswith(DOMAIN) and not m["subject"].startswith("Re:"))
    reply = s.ok("reply_to_message", message_id=m["message_id"], body="Thanks!")
    assert reply["to"] == [m["from"]] and reply["cc"] == [] and reply["thread_id"] == m["thread_id"]
    assert reply["subject"] == f"Re: {m['subject']}" and reply["delivered_to"] == [m["from"]]
    everyone_else = s.ok("reply_to_message", message_id=m["message_id"], body="Thanks, all.", reply_all=True)
    expected = [m["from"]] + [a for a in m["to"] if a != u["address"]]
    assert everyone_else["to"] == expected and u["address"] not in everyone_else["to"] + everyone_else["cc"]
    assert set(everyone_else["delivered_to"]) == {a for a in expected + everyone_else["cc"] if a.endswith(DOMAIN)}
    # the original sender finds both replies in their own copy of the conversation
    theirs = s.ok("find_users", address=m["from"])[0]
    their_copies = [x for x in mail(s, theirs["user_id"], "inbox") if x["subject"] == f"Re: {m['subject']}"
                    and x["from"] == u["address"]]
    assert len(their_copies) == 2 and len({x["thread_id"] for x in their_copies}) == 1
    sent_original = s.ok("get_thread", thread_id=their_copies[0]["thread_id"])["messages"]
    assert any(x["subject"] == m["subject"] and x["from"] == m["from"] for x in sent_original)
    # replying to the Re: keeps one prefix
    again = s.ok("reply_to_message", message_id=their_copies[0]["message_id"], body="Great.")
    assert again["subject"] == f"Re: {m['subject']}" and again["to"] == [u["address"]]
    # one's own sent mail: the reply goes to its recipients
    _, own = first(s, "sent")
    assert s.ok("reply_to_message", message_id=own["message_id"], body="Following up.")["to"] == own["to"]
    s.fails("reply_to_message", "needs some text", message_id=m["message_id"], body="  ")
    _, trashed = first(s, "trash")
    s.fails("reply_to_message", "restore it before", message_id=trashed["message_id"], body="Hi")


def test_forward_keeps_the_thread_quotes_and_carries_attachments(s):
    u, m = first(s, "inbox", lambda u, m: m["has_attachments"])
    colleague = next(x for x in everyone(s) if x["user_id"] != u["user_id"] and x["address"] not in m["to"] + [m["from"]])
    fwd = s.ok("forward_message", message_id=m["message_id"], to=[colleague["address"]], note="FYI, see below.")
    assert fwd["subject"] == f"Fwd: {m['subject']}" and fwd["thread_id"] == m["thread_id"] and fwd["has_attachments"]
    full = s.ok("get_message", message_id=fwd["message_id"])
    original = s.ok("get_message", message_id=m["message_id"])
    assert full["body"].startswith("FYI, see below.\n\n---------- Forwarded message ---------\n")
    assert f"From: {m['from_name']} <{m['from']}>" in full["body"] and full["body"].endswith(original["body"])
    assert full["attachments"] == original["attachments"]
    got = inbox_copy(s, colleague["address"], f"Fwd: {m['subject']}")
    assert s.ok("get_message", message_id=got["message_id"])["attachments"] == original["attachments"]
    _, trashed = first(s, "trash")
    s.fails("forward_message", "restore it before", message_id=trashed["message_id"], to=[colleague["address"]])


def test_invariants_hold_after_a_run_of_writes(s):
    u, m = first(s, "inbox")
    s.ok("reply_to_message", message_id=m["message_id"], body="Ok", reply_all=True)
    s.ok("forward_message", message_id=m["message_id"], to=[everyone(s)[5]["address"]])
    s.ok("trash_message", message_id=m["message_id"])
    s.ok("delete_forever", message_id=m["message_id"])
    tables = s.world.snapshot()["tables"]
    threads = {t["id"]: t["user_id"] for t in tables["threads"]}
    assert all(threads[x["thread_id"]] == x["user_id"] for x in tables["messages"])


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------

def _call(tool: str, /, **arguments) -> dict:
    return {"name": tool, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play, served):
    from prove_env.task import Task

    s = served("email")
    u = everyone(s)[0]
    labels = s.ok("list_labels", user_id=u["user_id"])
    ask = Task(id="labels", server="email", seed=0, user_turns=[f"Hi, I'm {u['name']}. Which labels do I have?"],
               gold=[[{"id": "g1", "name": "find_users", "arguments": {"name": u["name"]}},
                      {"id": "g2", "name": "list_labels", "arguments": {"user_id": u["user_id"]},
                       "depends_on": ["g1"]}]],
               facts=[[lb["name"] for lb in labels]])
    names = ", ".join(lb["name"] for lb in labels)
    # another correct path: found by address
    other = play(ask, [_call("find_users", address=u["address"]), _call("list_labels", user_id=u["user_id"]),
                       f"Your labels: {names}."])
    assert other["success"] and other["reward_breakdown"]["coverage"] < 1
    assert not play(ask, [_call("list_labels", user_id=u["user_id"]), "You have a few labels."])["success"]
    # the right answer, then damage nobody asked for: a mail trashed
    _, m = first(s, "inbox", lambda x, m: x["user_id"] == u["user_id"])
    damage = play(ask, [_call("list_labels", user_id=u["user_id"]), _call("trash_message", message_id=m["message_id"]),
                        f"Your labels: {names}."])
    assert not damage["success"]

    reply = Task(id="reply", server="email", seed=0,
                 user_turns=[f"Hi, I'm {u['name']}. Reply to the latest mail in my inbox: \"Thanks, that works for me.\""],
                 gold=[[{"id": "g1", "name": "find_users", "arguments": {"name": u["name"]}},
                        {"id": "g2", "name": "list_messages", "arguments": {"user_id": u["user_id"]},
                         "depends_on": ["g1"]},
                        {"id": "g3", "name": "reply_to_message", "depends_on": ["g2"],
                         "arguments": {"message_id": m["message_id"], "body": "Thanks, that works for me."}}]])
    # the same words with other case and punctuation are the same reply
    loose = play(reply, [_call("reply_to_message", message_id=m["message_id"], body="thanks that works for me"),
                         "Sent."])
    assert loose["success"]
    wrong = play(reply, [_call("reply_to_message", message_id=m["message_id"], body="Thanks, that works for me.",
                               reply_all=True), "Sent."])
    others = [a for a in m["to"] + m["cc"] if a != u["address"]]
    assert wrong["success"] is (not others)
    different = play(reply, [_call("reply_to_message", message_id=m["message_id"], body="No, that does not work."),
                             "Sent."])
    assert not different["success"]

    contact = Task(id="contact", server="email", seed=0,
                   user_turns=[f"Hi, I'm {u['name']}. Add Dana Whitfield, dana.whitfield@gmail.com, to my contacts."],
                   gold=[[{"id": "g1", "name": "find_users", "arguments": {"name": u["name"]}},
                          {"id": "g2", "name": "add_contact", "depends_on": ["g1"],
                           "arguments": {"user_id": u["user_id"], "name": "Dana Whitfield",
                                         "address": "dana.whitfield@gmail.com"}}]])
    # a company nobody gave is a detail, not damage
    extra = play(contact, [_call("add_contact", user_id=u["user_id"], name="Dana Whitfield",
                                 address="dana.whitfield@gmail.com", company="Gmail"), "Added."])
    assert extra["success"]


def test_the_seed_drafts_that_cannot_be_sent_as_they_stand(s):
    drafts = [d for u in everyone(s) for d in s.ok("list_drafts", user_id=u["user_id"])]
    empty = next(d for d in drafts if not d["to"])
    s.fails("send_draft", "no recipient", draft_id=empty["draft_id"])
    typo = next(d for d in drafts if d["to"] and not d["to"][0].endswith((".io", ".com")))
    s.fails("send_draft", "malformed address", draft_id=typo["draft_id"])
    fixed = s.ok("update_draft", draft_id=typo["draft_id"], to=[typo["to"][0] + ".io"])
    assert s.ok("send_draft", draft_id=fixed["draft_id"])["delivered_to"] == fixed["to"]


# -- synthesized requests ---------------------------------------------------------------------------


def _asks(tool: str, *, seed: int = 0, draws: int = 60) -> list[tuple]:
    """Requests the recipe writes for `tool` from the bundles of one world, each with the result of its
    call (None for a write), a reader of that world and the asker's user id."""
    import json
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("email"), get_recipe("email")
    world = worlds.create(toolkit, seed)
    read = Reader(toolkit, world)
    rng = random.Random(f"email asks {seed}")
    bundles = recipe.sample(read, world.now, rng)
    found = []
    for goal in (g for g in recipe.goals if g.tool == tool):
        for _ in range(draws):
            b = rng.choice(bundles)
            ask = goal.build(b, rng)
            if ask is not None:
                result = json.loads(toolkit(world).run(tool, dict(ask.args))) if ask.facts else None
                found.append((ask, result, read, b["user"]["user_id"]))
    return found


def test_a_message_is_opened_for_what_its_line_in_a_search_does_not_show():
    """A search by sender and subject (the look-up that finds a mail) shows its date and recipients:
    `get_message` is asked for its attachments, and those questions are asked of the search."""
    asks = _asks("get_message")
    assert len(asks) > 20
    for ask, result, read, uid in asks:
        line = [m for m in read("search_messages", user_id=uid, subject=result["subject"], include_trash=True)
                if m["message_id"] == result["message_id"]]
        assert line and not all(f in str(line) for f in ask.facts(result)), ask.say
    dated = [ask for ask, _, _, _ in _asks("search_messages") if "When" in ask.say or "received" in ask.say]
    assert dated


def test_a_reply_answers_a_question_and_thanks_for_news():
    """'Great news, thanks for letting me know.' is no answer to 'Can we go over the Q3 numbers before
    Friday?': a mail that asks something (as its subject or opening shows) gets an answer, one that
    tells something a thank-you."""
    from servers.email.synth import ANSWERS, THANKS

    asks = _asks("reply_to_message", draws=120)
    assert asks
    kinds = set()
    for ask, _, read, uid in asks:
        mail = read("get_message", message_id=ask.args["message_id"])
        line = next(m for m in read("search_messages", user_id=uid, subject=mail["subject"],
                                    include_trash=True) if m["message_id"] == mail["message_id"])
        asked = "?" in line["subject"] or "?" in line["snippet"]
        kinds.add(asked)
        assert ask.args["body"] in (ANSWERS if asked else THANKS), (line["snippet"], ask.args["body"])
    assert kinds == {True, False}


def test_recipients_are_asked_for_as_the_addresses_recorded():
    """A search shows recipients by address only: 'Who received it?' is rightly answered with names, so
    the words ask for the addresses the task records."""
    asks = [ask for ask, result, _, _ in _asks("search_messages", draws=120)
            if result and any("@" in str(f) for f in ask.facts(result))]
    assert asks
    for ask in asks:
        for words in (ask.say, ask.terse):
            assert "address" in words.lower(), words


def test_the_users_own_address_is_no_recipient_fact():
    """'Who was the mail Joanna sent me addressed to?' is rightly answered 'to you and
    luis.harris@yahoo.com': the user's own address is not a fact the answer must write out."""
    asks = [(ask, result, read, uid) for ask, result, read, uid in _asks("search_messages", draws=150)
            if result and any("@" in str(f) for f in ask.facts(result))]
    assert asks
    mine = 0
    for ask, result, read, uid in asks:
        (user,) = [u for u in read("find_users", limit=100) if u["user_id"] == uid]
        facts = ask.facts(result)
        assert facts and user["address"] not in facts, ask.say
        mine += any(user["address"] in m["to"] + m["cc"] for m in result)
    assert mine  # the mail asked about went to the user too


def test_a_list_of_subjects_is_stated_by_saying_what_the_mail_is_about():
    """'What has Joanna emailed me about?' is rightly answered 'Design review, Customer escalation and
    Weekend hiking trip' when the subjects are 'Re: Customer escalation' and 'Re: Weekend hiking trip':
    a subject fact is its topic, which the subject copied whole states too."""
    import re

    from prove_env.facts import stated

    def _topic(subject: str) -> str:
        return re.sub(r"^((re|fwd):\s*)+", "", subject, flags=re.I).strip()

    lists = [(ask, result) for tool in ("search_messages", "list_messages") for ask, result, _, _ in _asks(tool, draws=150)
             if result and any(str(m.get("subject", "")).lower().startswith(("re:", "fwd:")) for m in result)
             and all(f in {m["subject"] for m in result} | {_topic(m["subject"]) for m in result}
                     for f in ask.facts(result))]
    assert lists
    for ask, result in lists:
        topics = ", ".join(_topic(m["subject"]) for m in result)
        subjects = "; ".join(m["subject"] for m in result)
        for fact in ask.facts(result):
            assert stated(fact, topics) and stated(fact, subjects), (fact, topics)


def test_a_quoted_sentence_is_not_followed_by_a_second_full_stop():
    """'Set body of my draft about "Expense report" to "Please ignore my earlier note, all is settled."',
    never '... all is settled.".'."""
    import re

    asks = [ask for tool in ("update_draft", "create_draft") for ask, _, _, _ in _asks(tool, draws=150)]
    assert len(asks) > 50
    for ask in asks:
        for words in (ask.say, ask.terse or "", ask.detail or ""):
            assert not re.search(r"[.!?]\"\.", words), words


def test_a_mail_is_searched_by_the_words_the_user_said():
    """Finding: "Forward the email I sent to Robert Roberts about 'Conference talk proposal'" searched
    with recipient="robert.roberts@northwind.io", an address the user never said and no look-up held
    (the search takes an address, not a name): the gold taught inventing it, and a search by the topic
    matched no gold call. The search that finds a named mail takes only what the request says (the
    sender's name, the topic, a recipient's address where the user gives it), and it finds the mail,
    told apart from the rest of its result by its sender or by whom it went to."""
    from prove_env.synthesis.recipe import get_recipe

    lookups = {lk.kind: lk for lk in get_recipe("email").lookups if lk.kind in ("message", "thread")}
    checked = own = 0
    for tool in ("get_message", "get_thread", "mark_read", "star_message", "forward_message", "search_messages",
                 "archive_message", "trash_message", "restore_message", "reply_to_message", "label_message"):
        for ask, _, read, uid in _asks(tool, draws=40):
            me = next(u for u in read("find_users", limit=100) if u["user_id"] == uid)["address"]
            for ref in (r for r in ask.refs if r.kind in lookups):
                args = lookups[ref.kind].args(ref)
                for key, value in args.items():
                    if key not in ("user_id", "include_trash"):
                        for words in (ask.say, ask.terse):
                            assert str(value).casefold() in words.casefold(), (key, value, words)
                found = read("search_messages", **args)
                mail = next(m for m in found if m["message_id"] == ref.entity["message_id"])
                if mail["from"] == me:
                    own += 1
                    to = mail["to"][0]
                    assert sum(m["from"] == me and to in m["to"] + m["cc"] for m in found) == 1, (ask.say, found)
                else:
                    assert sum(m["from_name"] == mail["from_name"] for m in found) == 1, (ask.say, found)
                checked += 1
    assert checked > 50 and own > 10, (checked, own)


def test_a_cc_the_answer_must_state_is_asked_for_and_a_photo_is_no_document():
    """Findings: "Who exactly was my email to Philip Johnson about 'Board meeting notes' addressed to?"
    required alyssa.ramos@yahoo.com, who was only in Cc ("It went to philip.johnson@northwind.io" failed);
    and "Which documents came with ...?" was asked of a mail whose one file was photo_01.jpg. A recipient
    fact held only in Cc is asked for in every wording ("Cc included"), and 'documents' is said only where
    no file is an image."""
    ccd = 0
    for ask, result, read, uid in _asks("search_messages", draws=150):
        facts = ask.facts(result) if result else []
        if not any("@" in str(f) for f in facts):
            continue
        me = next(u for u in read("find_users", limit=100) if u["user_id"] == uid)["address"]
        mail = next(m for m in result if [a for a in m["to"] + m["cc"] if a != me][:5] == facts)
        in_cc = [f for f in ask.facts(result) if f in mail["cc"] and f not in mail["to"]]
        ccd += bool(in_cc)
        for words in (ask.say, ask.terse):
            assert ("Cc" in words) == bool(in_cc), (words, in_cc)
    assert ccd
    photos = 0
    for ask, result, _, _ in _asks("get_message", draws=150):
        image = any(a["mime_type"].startswith("image/") for a in result["attachments"])
        photos += image
        assert not (image and "document" in ask.say.lower()), (ask.say, result["attachments"])
    assert photos


def test_unread_mail_is_asked_for_by_its_senders_in_every_wording():
    """Finding: "I've been away. Which emails in my inbox haven't I read yet?" recorded only the senders,
    and "Birthday party, Hiring plan and Website redesign feedback" (the subjects) failed: every wording
    of the unread-mail request asks who sent it, as its facts are the senders."""
    import re

    unread = 0
    for ask, result, _, _ in _asks("list_messages", draws=150):
        if not ask.args.get("unread_only"):
            continue
        unread += 1
        assert set(ask.facts(result)) <= {m["from_name"] for m in result}
        for words in (ask.say, ask.terse):
            assert re.search(r"\b(who|senders?|sent)\b", words, re.I), words
    assert unread > 5


def test_no_abstention_asks_a_count_the_shown_tools_add_up():
    """Finding: "Across all users, how many messages are in the archive right now?" (mailbox_stats
    hidden) was to be declined, but find_users() lists every mailbox and list_messages of each counts
    its archive: 78, the hidden tool's number, scored 0. No hidden-tool request asks a number that
    the shown find_users and list_messages add up to."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("email"), get_recipe("email")
    world = worlds.create(toolkit, 0)
    try:
        read = Reader(toolkit, world)
        users = read("find_users", limit=100)
        assert 1 < len(users) < 100
        added = {folder: sum(len(read("list_messages", user_id=u["user_id"], folder=folder, limit=100))
                             for u in users) for folder in ("inbox", "sent", "archive", "trash")}
        rng = random.Random("email hidden asks")
        assert sum(added.values())
        for hidden in recipe.hidden:
            facts = hidden.facts(read(hidden.tool)) if hidden.facts else []
            words = hidden.build(None, rng)
            assert not set(facts) & set(added.values()), (words, facts, added)
    finally:
        world.close()


def test_a_conversation_asked_about_has_replies_a_reply_goes_to_a_person_and_a_phone_is_any_form():
    """Findings: "How many messages are in the conversation with the "Expense report" email ..., and who
    wrote the latest?" of a lone mail recorded 1, and "just the one" or "a single message" failed; "Great
    news, thanks for letting me know." was written back to no-reply@dropbox.com; "241-208-1991" did not
    state the saved "(241) 208-1991". A conversation asked about has replies, nobody writes back to an
    address nobody reads, and a phone number is stated in any usual punctuation."""
    from prove_env.facts import stated

    threads = _asks("get_thread", draws=80)
    assert len(threads) > 20
    for ask, result, _, _ in threads:
        assert len(result["messages"]) > 1, ask.say
    replies = _asks("reply_to_message", draws=150) + _asks("create_draft", draws=150)
    answered = [ask for ask, _, _, _ in replies if "message_id" in ask.args or "reply_to_message_id" in ask.args]
    assert len(answered) > 40
    for ask, _, read, uid in replies:
        mail_id = ask.args.get("message_id") or ask.args.get("reply_to_message_id")
        if mail_id:
            assert "reply" not in read("get_message", message_id=mail_id)["from"], ask.say
    phones = [(ask, result) for ask, result, _, _ in _asks("list_contacts", draws=120)
              if "phone" in ask.terse.lower()]
    assert phones
    for ask, result in phones:
        saved = result[0]["phone"]
        digits = "".join(ch for ch in saved if ch.isdigit())
        for form in (saved, f"{digits[:3]}-{digits[3:6]}-{digits[6:]}", f"{digits[:3]}.{digits[3:6]}.{digits[6:]}"):
            assert all(stated(f, f"The number is {form}.") for f in ask.facts(result)), (ask.say, form)


def test_a_reply_is_hidden_only_with_the_draft_sending_that_does_it_and_its_text_is_no_message(s):
    """Findings: with `reply_to_message` hidden, "I need to reply all to the email from Felicia Gallagher
    about "Weekend hiking trip". Here's the message: "I can't make it this week, sorry."" was to be
    declined, but `create_draft(reply_to_message_id=...)` and `send_draft`, both shown, send that very
    reply (played: success False); and "Start a reply to the message from Kara Spencer ... Here's the
    message: "Perfect, thank you!"" called the mail answered and the reply's text by one word. A reply
    drafted and sent is the reply the reply tool sends, so the two are hidden together; the text of a
    mail is given as its text."""
    from prove_env.synthesis.recipe import get_recipe

    u, m = first(s, "inbox", lambda u, m: len([a for a in m["to"] + m["cc"] if a != u["address"]]) >= 2
                 and m["from"].endswith(DOMAIN) and not m["subject"].startswith("Re:"))
    others = [a for a in m["to"] if a != u["address"]]
    copied = [a for a in m["cc"] if a != u["address"]]
    draft = s.ok("create_draft", user_id=u["user_id"], reply_to_message_id=m["message_id"],
                 to=[m["from"]] + others, cc=copied, body="Thanks, all.")
    drafted = s.ok("send_draft", draft_id=draft["draft_id"])
    replied = s.ok("reply_to_message", message_id=m["message_id"], body="Thanks, all.", reply_all=True)
    for key in ("to", "cc", "subject", "thread_id", "folder"):
        assert drafted[key] == replied[key], key
    assert "send_draft" in get_recipe("email").substitutes_of("reply_to_message")
    asks = [ask for tool in ("reply_to_message", "create_draft", "update_draft") for ask, _, _, _ in
            _asks(tool, draws=100)]
    given = [ask for ask in asks if "body" in ask.args]
    assert len(given) > 60
    for ask in given:
        for words in (ask.say, ask.terse or "", ask.detail or ""):
            assert "the message:" not in words.lower(), words


def test_a_draft_request_says_not_to_send_it_as_an_instruction():
    """Finding: "Could you prepare a reply draft to the mail Erik Moses sent me about "Holiday schedule"?
    Not sent yet." left the request to keep the draft unsent as a fragment; every sentence of a draft
    request that speaks of sending tells the assistant what to do with it ("Don't send it yet.")."""
    import re

    asks = [ask for ask, _, _, _ in _asks("create_draft", draws=100)]
    replies = [ask for ask in asks if "reply_to_message_id" in ask.args]
    assert len(replies) > 20 and len(asks) - len(replies) > 20
    for ask in asks:
        for sentence in re.split(r"(?<=[.?!])\s+", ask.say):
            if re.search(r"\bsen[dt]\b(?! (?:me|to|you)\b)", sentence, re.IGNORECASE):  # not "the mail X sent me"
                assert re.search(r"\b(?:don't send|send it myself)\b", sentence, re.IGNORECASE), (sentence, ask.say)


def test_a_mail_goes_on_to_a_contact_who_has_not_got_it_and_named_as_a_contact():
    """Findings (seed 105): "Could you send the email I sent to Melissa Landry about "Team offsite planning"
    on to my contact Sabrina Reid?" of a mail that had gone to Sabrina Reid already; and "Please forward
    ... to Melissa Landry" of a contact who also has a mailbox here, so that `find_users` found her
    address as well as `list_contacts` did (the gold's look-up, and coverage fell from 1.0 to 0.6). A
    mail is forwarded to someone it did not go to, and a request that needs a contact's address names
    the person as a contact in every wording."""
    import re

    forwards = _asks("forward_message", draws=200)
    drafts = [x for x in _asks("create_draft", draws=200) if "to" in x[0].args]
    assert len(forwards) > 50 and len(drafts) > 30
    for ask, _, read, _ in forwards:
        m = read("get_message", message_id=ask.args["message_id"])
        got = {a.lower() for a in (m["from"], *m["to"], *m["cc"])}
        assert not got & {a.lower() for a in ask.args["to"]}, (ask.say, m["to"], m["cc"])
    for ask, _, _, _ in forwards + drafts:
        for words in (ask.say, ask.terse):
            assert re.search(r"\b(my contact|my contacts)\b", words), words


def test_a_terse_introduction_by_name_reads_as_said():
    """Finding (seed 105): "User: Richard Pacheco. Address of my contact Michael Holland?" (a form field,
    not how anyone introduces themselves, however terse; video_meeting's round 25 finding)."""
    from servers.email import synth

    for phrase in synth._BY_NAME_TERSE:
        assert not phrase.startswith(("User:", "Me:", "From ")), phrase


def test_mail_sent_to_an_address_is_asked_of_and_checked_as_the_users_own():
    """Finding (seed 125, email-12500001-0001): "Can you find the mail addressed to denise.werner@gmail.com
    and list the subjects?" recorded "Customer escalation", a mail Kelly Bryant sent with Denise on Cc,
    and "Contract renewal", which went to her on Cc only; answering with what was sent to her (or
    addressed to her) failed. The search by recipient also finds others' mail and Cc'd copies: the words
    ask what the user sent, the facts are the user's own mail, and an address is asked of only where the
    user's mail has it on the To line."""
    asks = [(ask, result, read, uid) for ask, result, read, uid in _asks("search_messages", draws=200)
            if "recipient" in ask.args]
    assert len(asks) > 10
    for ask, result, read, uid in asks:
        me = read("find_users", limit=100)
        me = next(u["address"] for u in me if u["user_id"] == uid)
        address = ask.args["recipient"]
        own = [m for m in result if m["from"] == me]
        assert own, ask.say
        for m in own:
            assert address in m["to"], (ask.say, m["subject"], m["to"], m["cc"])
        assert set(ask.facts(result)) == {m["subject"].split(": ")[-1] for m in own}, (ask.say, ask.facts(result))
        for words in (ask.say, ask.terse):
            assert "addressed to" not in words, words


def test_nobody_writes_back_to_a_services_notice():
    """Finding (seed 125, email-12500001-0001): "Please reply to the "Your order has shipped" email from
    Amazon. The text is "Perfect, thank you!"" wrote back to auto-confirm@amazon.com, an address nobody
    reads, as no-reply@dropbox.com was before. No reply, drafted or sent, goes to any service's notice."""
    from servers.email.seed import EXTERNAL_SENDERS

    services = {address for _, address, _, _ in EXTERNAL_SENDERS}
    replies = _asks("reply_to_message", draws=300) + _asks("create_draft", draws=300)
    answered = [(ask, read) for ask, _, read, _ in replies
                if "message_id" in ask.args or "reply_to_message_id" in ask.args]
    assert len(answered) > 100
    for ask, read in answered:
        mail = read("get_message", message_id=ask.args.get("message_id") or ask.args.get("reply_to_message_id"))
        assert mail["from"] not in services, (ask.say, mail["from"])


def test_a_count_of_sent_emails_is_said_in_words():
    """Finding (seed 125, email-12500000-0017): "Could you remind me of the subjects of my 2 most recent
    sent emails?" (a digit where a person writes the word)."""
    import re

    sent = [ask for ask, _, _, _ in _asks("list_messages", draws=200) if ask.args.get("folder") == "sent"]
    assert sent
    for ask in sent:
        assert ask.args["limit"] >= 2, ask.say
        for words in (ask.say, ask.terse):
            assert not re.search(r"\d", words), words


def test_a_listing_of_starred_mail_asks_for_what_its_facts_check():
    """Finding (seed 125 redrawn, email-12500000-0010): "Can you list my starred messages and their
    senders?" checked the subjects alone (a check of less than was asked). Every starred wording asks
    for no more than the subjects its facts hold."""
    starred = [ask for ask, _, _, _ in _asks("list_messages", draws=300) if ask.args.get("folder") == "starred"]
    assert starred
    for ask in starred:
        for words in (ask.say, ask.terse):
            assert "sender" not in words.lower(), words


def test_an_archive_or_a_restore_reads_as_one_request():
    """Findings (seed 125): "Thanks. Archive the message from Jonathan Conner about ... for me, thanks."
    (thanks twice once the acknowledgement goes before it) and "Could you get the message I sent Amber
    Howard about "Hiring plan" out of the trash again?" ("again" reads as trashing it again)."""
    asks = [ask for tool in ("archive_message", "restore_message") for ask, _, _, _ in _asks(tool, draws=150)]
    assert len(asks) > 50
    for ask in asks:
        assert not ask.say.lower().rstrip(".?!").endswith("thanks"), ask.say
        assert "trash again" not in ask.say, ask.say


def test_a_terse_label_request_names_the_label_plainly():
    """Finding (seed 157, email-15700000-0006): "Label my email to Derek Smith about "Rent and
    utilities": Travel." (a colon where a person writes "as")."""
    asks = [ask for ask, _, _, _ in _asks("label_message", draws=100)]
    assert asks
    for ask in asks:
        assert ":" not in ask.terse, ask.terse


def test_an_attach_request_names_the_draft_before_the_file_source():
    """Finding (seed 157, email-15700000-0004): "I need itinerary_05.pdf from the email I sent to Jennifer
    Cobb about "Weekend hiking trip" on my draft about "Marketing launch"" ("on my draft" reads as part of
    the email it came from)."""
    asks = [ask for ask, _, _, _ in _asks("attach_file", draws=200)]
    assert asks
    for ask in asks:
        assert not ask.say.startswith("I need "), ask.say
