"""A retail bank: customers, accounts, ledger, transfers, payees, scheduled payments and cards."""
