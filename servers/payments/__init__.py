"""Payments: a platform's merchants and their customers, invoices, card payments, refunds and webhooks
(with their delivery retries), in the manner of Stripe."""
