"""Team chat: owners and their items (a skeleton to grow)."""
