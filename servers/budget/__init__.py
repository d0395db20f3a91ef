"""Budget: a personal budgeting app's users, spending categories with monthly limits, expenses, income and recurring bills, with running monthly totals per category."""
