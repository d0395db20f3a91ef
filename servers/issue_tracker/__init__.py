"""Issue tracker: owners and their items (a skeleton to grow)."""
