"""Retail chain: stores, a chain-wide catalogue with per-store prices and stock, transfers, pick-up reservations and restock orders."""
