"""The calendar server: one user's work calendars, events, invitees, recurring rules, rooms and reminders."""
