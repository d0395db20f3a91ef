"""Iot devices: owners and their items (a skeleton to grow)."""
