"""Food delivery: owners and their items (a skeleton to grow)."""
