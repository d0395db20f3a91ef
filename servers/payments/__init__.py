"""Payments: a merchant's customers, invoices, card payments, refunds and webhooks, in the manner of Stripe."""
