"""Maps: owners and their items (a skeleton to grow)."""
