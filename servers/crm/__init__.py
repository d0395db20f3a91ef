"""Crm: a sales team's CRM with reps, companies, contacts, leads, a deal pipeline, forecasts and activities."""
