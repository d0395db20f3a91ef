"""Team chat: a workspace's members, public and private channels, direct messages, threads,
reactions, mentions and pins, with an append-only message history."""
