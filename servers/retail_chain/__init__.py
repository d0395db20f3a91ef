"""Retail chain: owners and their items (a skeleton to grow)."""
