"""Email: mailboxes for several people, with threads, folders, labels, drafts, contacts and attachments."""
