"""The video meeting service's tools: users, meetings and invitees, the live session's participants,
and cloud recordings with their transcripts.

Rules, in one place:
- A meeting goes scheduled -> live -> ended; a scheduled meeting can be cancelled instead. Only its
  host starts or ends it, and a host runs one live meeting at a time. Ending a meeting sends everyone
  out and stops a running recording.
- New and rescheduled meetings start in the future, last 15 to 480 minutes, and have a passcode of 4 to 10 letters or
  digits (one is generated when none is given).
- Joining needs the meeting's number and passcode, and a live meeting. With the waiting room on,
  everyone but the host waits until a host or co-host admits them. Removed people cannot join again.
- Admitting, muting and removing are done by the host or a co-host who is in the meeting; only the
  host makes a co-host or removes one; nobody removes the host. Admitting someone already in the
  meeting, muting someone muted or making a co-host a co-host again changes nothing.
- A recording is started by the host or a co-host in the meeting, only while it is live, one at a
  time. Recordings and transcripts are ready once the recording is stopped and the meeting has
  ended: only then can they be read or shared. A running recording cannot be deleted.
"""

from __future__ import annotations

import datetime as dt
import re
import zlib
from typing import Literal

from sqlalchemy import func, select, text

from prove_env.toolkit import Date, DateTime, Detail, Entity, Id, Limit, Toolkit, ToolError, tool

from .models import Base, Invitee, Meeting, Participant, Recording, Share, User
from .seed import seed

MAX_TITLE = 120
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
PASSCODE = re.compile(r"^[A-Za-z0-9]{4,10}$")
# get_meeting's reads, as plain statements (built once: it is the most frequent look-up of all).
_INVITEES = text("SELECT email FROM invitees WHERE meeting_id = :m ORDER BY id")
_COUNTS = text("SELECT (SELECT count(*) FROM participants WHERE meeting_id = :m AND state = 'in_meeting'), "
               "(SELECT count(*) FROM participants WHERE meeting_id = :m AND state = 'waiting'), "
               "(SELECT count(*) FROM recordings WHERE meeting_id = :m)")
_LIVE_OF = "SELECT id FROM meetings WHERE host_id = ? AND status = 'live'"
_PARTICIPANTS = ("SELECT p.id, p.meeting_id, p.user_id, u.name, p.role, p.state, p.muted FROM participants p "
                 "JOIN users u ON u.id = p.user_id WHERE p.meeting_id = ?1 AND (?2 IS NULL OR p.state = ?2) "
                 "ORDER BY p.id")
_LIVE_PARTICIPANTS = ("SELECT p.id, p.meeting_id, p.user_id, u.name, p.role, p.state, p.muted FROM participants p "
                      "JOIN meetings m ON m.id = p.meeting_id JOIN users u ON u.id = p.user_id "
                      "WHERE m.status = 'live' AND (?1 IS NULL OR p.state = ?1) ORDER BY p.meeting_id, p.id")
MeetingStatus = Literal["scheduled", "live", "ended", "cancelled"]
ParticipantState = Literal["waiting", "in_meeting", "left", "removed"]


class VideoMeetingServer(Toolkit):
    """A company's video meeting account: find people and meetings, schedule, invite, cancel, start
    and end meetings, join with the meeting number and passcode, run the live session (admit from
    the waiting room, mute, remove, make a co-host), record it, and list, read, share and delete the
    recordings and transcripts of ended meetings."""

    name = "video_meeting"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("user", User, "USR", lookup="find_users"),
        Entity("meeting", Meeting, "MTG", lookup="find_meetings"),
        Entity("participant", Participant, "PRT", lookup="list_participants"),
        Entity("recording", Recording, "REC", lookup="list_recordings"),
    )

    # -- people and meetings ----------------------------------------------------------------------

    @tool(read_only=True)
    def find_users(self, name: str | None = None, email: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find users by part of their name or their email (ignoring case), ordered by id; all users
        without either.

        Args:
            name: part of the user's name, such as 'Ada Park' or 'park'.
            email: the user's full email address, such as 'ada.park@northwindlabs.com'.
        """
        return [_user(u) for u in self.find(User, name=name, email=email, limit=limit)]

    @tool(read_only=True)
    def find_meetings(self, host_id: Id("user") | None = None, title: str | None = None, on_date: Date | None = None,
                      status: MeetingStatus | None = None, limit: Limit = 20) -> list[dict]:
        """Find meetings by host, part of the title (ignoring case), day or status, ordered by start time.

        Args:
            host_id: only meetings this user hosts.
            title: part of the meeting's title, such as 'standup'.
            on_date: only meetings starting on this day.
            status: 'scheduled', 'live', 'ended' or 'cancelled'.
        """
        query = (select(Meeting, User.name).join(User, User.id == Meeting.host_id)
                 .order_by(Meeting.start_at, Meeting.id).limit(limit))
        if host_id is not None:
            query = query.where(Meeting.host_id == self.get(User, host_id).id)
        if title and title.strip():
            query = query.where(func.lower(Meeting.title).contains(title.strip().lower()))
        if on_date is not None:
            day = dt.datetime.combine(on_date, dt.time())
            query = query.where(Meeting.start_at >= day, Meeting.start_at < day + dt.timedelta(days=1))
        if status is not None:
            query = query.where(Meeting.status == status)
        return [_meeting(m, name) for m, name in self.db.execute(query)]

    @tool(read_only=True)
    def get_meeting(self, meeting_id: Id("meeting")) -> dict:
        """Return one meeting in full: number, passcode, waiting room, status, times, invitees, how many
        people are in it and waiting, and how many recordings it has."""
        m = self.get(Meeting, meeting_id)
        host = self.get(User, m.host_id)
        invitees = list(self.db.execute(_INVITEES, {"m": m.id}).scalars())
        in_meeting, waiting, recordings = self.db.execute(_COUNTS, {"m": m.id}).one()
        return {**_meeting(m, host.name), "passcode": _passcode(m), "invitees": invitees,
                "started_at": m.started_at, "ended_at": m.ended_at, "in_meeting": in_meeting,
                "waiting": waiting, "recordings": recordings}

    @tool(produces=("meeting",), details=(Detail("meetings", "passcode"),))
    def schedule_meeting(self, host_id: Id("user"), title: str, start_at: DateTime, duration_minutes: int = 60,
                         passcode: str | None = None, waiting_room: bool = True) -> dict:
        """Schedule a meeting hosted by a user.

        Args:
            title: 1 to 120 characters, such as 'Budget review'.
            start_at: when it starts, in the future, such as '2026-05-04T14:00:00'.
            duration_minutes: 15 to 480.
            passcode: 4 to 10 letters or digits; one is generated when left out.
            waiting_room: whether people wait to be admitted (on unless turned off).
        """
        host = self.get(User, host_id)
        title = title.strip()
        if not 1 <= len(title) <= MAX_TITLE:
            raise ToolError(f"title must be 1 to {MAX_TITLE} characters, got {len(title)}")
        if start_at <= self.now:
            raise ToolError(f"start_at {start_at:%Y-%m-%d %H:%M} is not in the future (now is "
                            f"{self.now:%Y-%m-%d %H:%M}); pick a later time")
        if not 15 <= duration_minutes <= 480:
            raise ToolError(f"duration_minutes must be 15 to 480, got {duration_minutes}")
        meeting_id = self.new_id("MTG")
        if passcode is not None and not PASSCODE.match(passcode):
            raise ToolError("passcode must be 4 to 10 letters or digits, such as '482913'")
        meeting = Meeting(id=meeting_id, number=self._number(meeting_id), title=title, host_id=host.id,
                          start_at=start_at, duration_minutes=duration_minutes, passcode=passcode,
                          waiting_room=waiting_room, status="scheduled", started_at=None, ended_at=None)
        self.db.add(meeting)
        return {**_meeting(meeting, host.name), "passcode": _passcode(meeting)}

    @tool(idempotent=True)
    def reschedule_meeting(self, meeting_id: Id("meeting"), start_at: DateTime,
                           duration_minutes: int | None = None) -> dict:
        """Move a scheduled meeting to a new start time, and optionally change its length. Its number,
        passcode and invitees stay.

        Args:
            start_at: the new start, in the future, such as '2026-05-04T14:00:00'.
            duration_minutes: the new length, 15 to 480; unchanged when left out.
        """
        m = self.get(Meeting, meeting_id)
        if m.status != "scheduled":
            hint = {"live": "it is already running", "ended": "it already took place; schedule a new meeting",
                    "cancelled": "it was cancelled; schedule a new meeting"}[m.status]
            raise ToolError(f"Meeting {m.id} is {m.status}; only scheduled meetings can be rescheduled ({hint})")
        if start_at <= self.now:
            raise ToolError(f"start_at {start_at:%Y-%m-%d %H:%M} is not in the future (now is "
                            f"{self.now:%Y-%m-%d %H:%M}); pick a later time")
        if duration_minutes is not None and not 15 <= duration_minutes <= 480:
            raise ToolError(f"duration_minutes must be 15 to 480, got {duration_minutes}")
        m.start_at = start_at
        if duration_minutes is not None:
            m.duration_minutes = duration_minutes
        return _meeting(m, self.get(User, m.host_id).name)

    @tool()
    def invite_to_meeting(self, meeting_id: Id("meeting"), email: str) -> dict:
        """Invite someone, by email, to a scheduled or live meeting.

        Args:
            email: the invitee's email address, such as 'ada.park@northwindlabs.com'.
        """
        m = self.get(Meeting, meeting_id)
        email = email.strip().lower()
        if not EMAIL.match(email):
            raise ToolError(f"{email!r} is not an email address")
        if m.status not in ("scheduled", "live"):
            raise ToolError(f"Meeting {m.id} is {m.status}; only scheduled or live meetings take invitees")
        host = self.get(User, m.host_id)
        if email == host.email.lower():
            raise ToolError(f"{email} is the host of meeting {m.id}; the host needs no invitation")
        if self.db.scalar(select(Invitee.id).where(Invitee.meeting_id == m.id, func.lower(Invitee.email) == email)):
            raise ToolError(f"{email} is already invited to meeting {m.id}")
        invitee = Invitee(id=self.new_id("INV"), meeting_id=m.id, email=email, invited_at=self.now)
        self.db.add(invitee)
        return {"meeting_id": m.id, "email": email, "invited": True}

    @tool(destructive=True)
    def cancel_meeting(self, meeting_id: Id("meeting")) -> dict:
        """Cancel a scheduled meeting. Live meetings are ended instead; ended meetings stay as they are."""
        m = self.get(Meeting, meeting_id)
        if m.status != "scheduled":
            hint = {"live": "end it instead", "ended": "it already took place",
                    "cancelled": "it is already cancelled"}[m.status]
            raise ToolError(f"Meeting {m.id} is {m.status}; only scheduled meetings can be cancelled ({hint})")
        m.status = "cancelled"
        return {"meeting_id": m.id, "status": m.status}

    # -- the live session ---------------------------------------------------------------------------

    @tool(sets=("meeting.live",))
    def start_meeting(self, meeting_id: Id("meeting"), user_id: Id("user")) -> dict:
        """Start a scheduled meeting as its host: it goes live and the host is in it.

        Args:
            user_id: who starts it; must be the meeting's host.
        """
        m = self.get(Meeting, meeting_id)
        user = self.get(User, user_id)
        if user.id != m.host_id:
            raise ToolError(f"{user.name} is not the host of meeting {m.id}; only its host can start it")
        if m.status != "scheduled":
            hint = {"live": "it is already running", "ended": "schedule a new meeting",
                    "cancelled": "schedule a new meeting"}[m.status]
            raise ToolError(f"Meeting {m.id} is {m.status}; only scheduled meetings can be started ({hint})")
        other = self.db.scalar(select(Meeting.id).where(Meeting.host_id == user.id, Meeting.status == "live"))
        if other is not None:
            raise ToolError(f"{user.name} is already hosting live meeting {other}; end it before starting another")
        m.status, m.started_at = "live", self.now
        row = self._participant_row(m.id, user.id)
        if row is None:
            self.db.add(Participant(id=self.new_id("PRT"), meeting_id=m.id, user_id=user.id, role="host",
                                    state="in_meeting", muted=False, joined_at=self.now))
        else:
            row.state, row.role = "in_meeting", "host"
        return {"meeting_id": m.id, "status": m.status, "started_at": m.started_at}

    @tool(requires=("meeting.live",))
    def end_meeting(self, meeting_id: Id("meeting"), user_id: Id("user")) -> dict:
        """End a live meeting for everyone as its host; a running recording is stopped and completed.

        Args:
            user_id: who ends it; must be the meeting's host (co-hosts cannot end it for everyone).
        """
        m = self.get(Meeting, meeting_id)
        user = self.get(User, user_id)
        if user.id != m.host_id:
            raise ToolError(f"{user.name} is not the host of meeting {m.id}; only its host can end it for everyone")
        if m.status != "live":
            raise ToolError(f"Meeting {m.id} is {m.status}; only a live meeting can be ended")
        m.status, m.ended_at = "ended", self.now
        for p in self.db.scalars(select(Participant).where(Participant.meeting_id == m.id,
                                                           Participant.state.in_(("waiting", "in_meeting")))):
            p.state = "left"
        stopped = None
        running = self._running(m.id)
        if running is not None:
            running.status, running.ended_at, stopped = "completed", self.now, running.id
        return {"meeting_id": m.id, "status": m.status, "ended_at": m.ended_at, "recording_stopped": stopped}

    @tool(read_only=True)
    def list_participants(self, meeting_id: Id("meeting") | None = None, host_id: Id("user") | None = None,
                          state: ParticipantState | None = None) -> list[dict]:
        """List the participants of meetings (in the meeting, waiting, left or removed): of the meeting
        given, of the meeting a host is running right now, or, with neither, of every meeting live
        right now. Ordered by meeting, then participant id.

        Args:
            meeting_id: the meeting whose participants to list.
            host_id: instead of meeting_id: the host whose live meeting to look at.
            state: only participants in this state: 'waiting', 'in_meeting', 'left' or 'removed'.
        """
        if meeting_id is not None:
            rows = self.rows(_PARTICIPANTS, self.get(Meeting, meeting_id).id, state)
        elif host_id is not None:
            host = self.get(User, host_id)
            live = self.rows(_LIVE_OF, host.id)
            if not live:
                raise ToolError(f"{host.name} is not running a live meeting right now; give a meeting_id "
                                "(find_meetings finds it)")
            rows = self.rows(_PARTICIPANTS, live[0][0], state)
        else:
            rows = self.rows(_LIVE_PARTICIPANTS, state)
        return [{"participant_id": pid, "meeting_id": mid, "user_id": uid, "name": name, "role": role, "state": st,
                 "muted": bool(muted)} for pid, mid, uid, name, role, st, muted in rows]

    @tool(produces=("participant",))
    def join_meeting(self, meeting_number: str, passcode: str, user_id: Id("user")) -> dict:
        """Join a live meeting with its number and passcode. With the waiting room on, everyone but the
        host waits to be admitted.

        Args:
            meeting_number: the meeting's number, such as '843 2210 9876' (spaces optional).
            passcode: the meeting's passcode.
            user_id: who joins.
        """
        digits = re.sub(r"[\s-]", "", meeting_number)
        m = self.db.scalar(select(Meeting).where(func.replace(Meeting.number, " ", "") == digits)) if digits else None
        if m is None:
            raise ToolError(f"No meeting has the number {meeting_number!r}; check the number in the invitation")
        user = self.get(User, user_id)
        if m.status != "live":
            hint = {"scheduled": "the host has not started it yet", "ended": "it is over",
                    "cancelled": "it was cancelled"}[m.status]
            raise ToolError(f"Meeting {m.number} is {m.status} ({hint}); only a live meeting can be joined")
        if passcode.strip() != _passcode(m):
            raise ToolError(f"Wrong passcode for meeting {m.number}; ask the host for the right one")
        row = self._participant_row(m.id, user.id)
        if row is not None and row.state == "removed":
            raise ToolError(f"{user.name} was removed from meeting {m.number} and cannot join it again")
        if row is not None and row.state in ("waiting", "in_meeting"):
            raise ToolError(f"{user.name} is already {_STATE_WORDS[row.state]} of meeting {m.number}")
        host = user.id == m.host_id
        state = "waiting" if m.waiting_room and not host and (row is None or row.role == "attendee") else "in_meeting"
        if row is None:
            row = Participant(id=self.new_id("PRT"), meeting_id=m.id, user_id=user.id,
                              role="host" if host else "attendee", state=state, muted=False, joined_at=self.now)
            self.db.add(row)
        else:
            row.state, row.joined_at = state, self.now
        return _participant(row, user.name)

    @tool(idempotent=True)
    def admit_participant(self, participant_id: Id("participant"), user_id: Id("user")) -> dict:
        """Admit someone from the waiting room into the meeting. Admitting someone who is already in
        the meeting changes nothing (`already_admitted` says so).

        Args:
            user_id: who admits them; must be the host or a co-host in the meeting.
        """
        p = self.get(Participant, participant_id)
        self._moderator(p.meeting_id, user_id, "admit people")
        if p.state not in ("waiting", "in_meeting"):
            raise ToolError(f"Participant {p.id} is {_STATE_WORDS[p.state]}, not in the waiting room; "
                            "only waiting people can be admitted")
        already = p.state == "in_meeting"
        p.state = "in_meeting"
        return {**_participant(p, self.get(User, p.user_id).name), "already_admitted": already}

    @tool(idempotent=True)
    def mute_participant(self, participant_id: Id("participant"), user_id: Id("user")) -> dict:
        """Mute someone who is in the meeting (they unmute themselves; nobody unmutes someone else).
        Muting someone already muted changes nothing.

        Args:
            user_id: who mutes them; must be the host or a co-host in the meeting.
        """
        p = self.get(Participant, participant_id)
        self._moderator(p.meeting_id, user_id, "mute people")
        if p.state != "in_meeting":
            raise ToolError(f"Participant {p.id} is {_STATE_WORDS[p.state]}; only people in the meeting can be muted"
                            + (" (admit them first)" if p.state == "waiting" else ""))
        p.muted = True
        return _participant(p, self.get(User, p.user_id).name)

    @tool(destructive=True)
    def remove_participant(self, participant_id: Id("participant"), user_id: Id("user")) -> dict:
        """Remove someone from the meeting or its waiting room; they cannot join it again.

        Args:
            user_id: who removes them; the host or a co-host in the meeting (only the host removes a co-host).
        """
        p = self.get(Participant, participant_id)
        actor = self._moderator(p.meeting_id, user_id, "remove people")
        if p.role == "host":
            raise ToolError(f"Participant {p.id} is the meeting's host and cannot be removed")
        if p.role == "co_host" and actor.role != "host":
            raise ToolError(f"Participant {p.id} is a co-host; only the host can remove a co-host")
        if p.state not in ("waiting", "in_meeting"):
            raise ToolError(f"Participant {p.id} is {_STATE_WORDS[p.state]}; only people in the meeting or its "
                            "waiting room can be removed")
        p.state, p.muted = "removed", False
        return _participant(p, self.get(User, p.user_id).name)

    @tool(idempotent=True)
    def make_co_host(self, participant_id: Id("participant"), user_id: Id("user")) -> dict:
        """Make someone in the meeting a co-host. Making a co-host a co-host again changes nothing
        (`already_co_host` says so).

        Args:
            user_id: who does it; must be the meeting's host, in the meeting.
        """
        p = self.get(Participant, participant_id)
        actor = self._moderator(p.meeting_id, user_id, "make co-hosts")
        if actor.role != "host":
            raise ToolError("Only the meeting's host can make a co-host; co-hosts cannot")
        if p.state != "in_meeting":
            raise ToolError(f"Participant {p.id} is {_STATE_WORDS[p.state]}; only people in the meeting can become "
                            "co-hosts" + (" (admit them first)" if p.state == "waiting" else ""))
        if p.role == "host":
            raise ToolError(f"Participant {p.id} is the meeting's host, who already has every co-host power")
        already = p.role == "co_host"
        p.role = "co_host"
        return {**_participant(p, self.get(User, p.user_id).name), "already_co_host": already}

    # -- recordings ----------------------------------------------------------------------------------

    @tool(produces=("recording",), sets=("recording.running",), requires=("meeting.live",))
    def start_recording(self, meeting_id: Id("meeting"), user_id: Id("user")) -> dict:
        """Start a cloud recording of a live meeting.

        Args:
            user_id: who starts it; must be the host or a co-host in the meeting.
        """
        m = self.get(Meeting, meeting_id)
        if m.status != "live":
            hint = "start the meeting first" if m.status == "scheduled" else "it is not running"
            raise ToolError(f"Meeting {m.id} is {m.status}; recordings start only while a meeting is live ({hint})")
        self._moderator(m.id, user_id, "start a recording")
        running = self._running(m.id)
        if running is not None:
            raise ToolError(f"Recording {running.id} of meeting {m.id} is already running")
        rec = Recording(id=self.new_id("REC"), meeting_id=m.id, started_by=user_id, status="recording",
                        started_at=self.now, ended_at=None, transcript=None)
        self.db.add(rec)
        return _recording(rec, m.title)

    @tool(requires=("recording.running",))
    def stop_recording(self, meeting_id: Id("meeting"), user_id: Id("user")) -> dict:
        """Stop a live meeting's running recording; it is completed.

        Args:
            user_id: who stops it; must be the host or a co-host in the meeting.
        """
        m = self.get(Meeting, meeting_id)
        running = self._running(m.id)
        if running is None:
            raise ToolError(f"Meeting {m.id} has no recording running")
        self._moderator(m.id, user_id, "stop a recording")
        running.status, running.ended_at = "completed", self.now
        return _recording(running, m.title)

    @tool(read_only=True)
    def list_recordings(self, meeting_id: Id("meeting") | None = None, host_id: Id("user") | None = None,
                        limit: Limit = 20) -> list[dict]:
        """List the account's recordings, oldest first: of one meeting, of every meeting a user hosts,
        or, with neither, of every meeting.

        Args:
            meeting_id: only this meeting's recordings.
            host_id: only recordings of meetings this user hosts.
        """
        meeting = self.get(Meeting, meeting_id).id if meeting_id is not None else None
        host = self.get(User, host_id).id if host_id is not None else None
        rows = self.rows("SELECT r.id, r.meeting_id, m.title, r.status, r.started_at, r.ended_at, "
                         "r.transcript IS NOT NULL, (SELECT count(*) FROM shares s WHERE s.recording_id = r.id) "
                         "FROM recordings r JOIN meetings m ON m.id = r.meeting_id "
                         "WHERE (?1 IS NULL OR r.meeting_id = ?1) AND (?2 IS NULL OR m.host_id = ?2) "
                         "ORDER BY r.started_at, r.id LIMIT ?3", meeting, host, limit)
        return [{**_recording_entry(rid, mid, title, status, dt.datetime.fromisoformat(started),
                                    dt.datetime.fromisoformat(ended) if ended else None, bool(transcribed)),
                 "shared_with": shares} for rid, mid, title, status, started, ended, transcribed, shares in rows]

    @tool(read_only=True)
    def get_transcript(self, recording_id: Id("recording")) -> dict:
        """Return a completed recording's transcript: its lines and who spoke."""
        rec = self._ready(self.get(Recording, recording_id), "read its transcript")
        if rec.transcript is None:
            raise ToolError(f"Recording {rec.id} has no transcript (transcription was off for it)")
        lines = rec.transcript.split("\n")
        speakers = sorted({line.split(": ", 1)[0] for line in lines})
        return {"recording_id": rec.id, "meeting_id": rec.meeting_id, "speakers": speakers, "lines": lines}

    @tool(idempotent=True)
    def share_recording(self, recording_id: Id("recording"), email: str) -> dict:
        """Share a completed recording of an ended meeting with someone by email (sharing it again with
        the same person changes nothing).

        Args:
            email: who gets the link, such as 'ada.park@northwindlabs.com'.
        """
        rec = self._ready(self.get(Recording, recording_id), "share it")
        email = email.strip().lower()
        if not EMAIL.match(email):
            raise ToolError(f"{email!r} is not an email address")
        share = self.db.scalar(select(Share).where(Share.recording_id == rec.id, Share.email == email))
        if share is None:
            share = Share(id=self.new_id("SHR"), recording_id=rec.id, email=email, shared_at=self.now)
            self.db.add(share)
        return {"recording_id": rec.id, "email": email, "shared_at": share.shared_at}

    @tool(destructive=True)
    def delete_recording(self, recording_id: Id("recording")) -> dict:
        """Delete a completed recording for good, with its transcript and shares. A running recording
        must be stopped first."""
        rec = self.get(Recording, recording_id)
        if rec.status == "recording":
            raise ToolError(f"Recording {rec.id} is still running; stop it before deleting it")
        for share in self.db.scalars(select(Share).where(Share.recording_id == rec.id)):
            self.db.delete(share)
        self.db.delete(rec)
        return {"recording_id": rec.id, "deleted": True}

    @tool(read_only=True, hidden=True)
    def count_meetings(self) -> dict:
        """Account administration only: how many meetings each status has across the whole account."""
        return dict(self.db.execute(select(Meeting.status, func.count()).group_by(Meeting.status)).all())

    def invariants(self) -> list[str]:
        """Nothing happened after now; a meeting's start and end times match its status, and it
        ends after it starts; only a live meeting has people in it or waiting; a host runs one
        live meeting at a time; a meeting has at most one running recording, and only while live."""
        problems = self.after_now(Meeting.started_at, Meeting.ended_at, Invitee.invited_at, Participant.joined_at,
                                  Recording.started_at, Recording.ended_at, Share.shared_at)
        for mid, status, started, ended in self.rows("SELECT id, status, started_at, ended_at FROM meetings"):
            if (started is not None) != (status in ("live", "ended")) or (ended is not None) != (status == "ended"):
                problems.append(f"meeting {mid} is {status} with started_at {started} and ended_at {ended}")
            elif ended is not None and ended < started:
                problems.append(f"meeting {mid} ended ({ended}) before it started ({started})")
        for pid, mid, state in self.rows("SELECT p.id, m.id, p.state FROM participants p JOIN meetings m "
                                         "ON m.id = p.meeting_id WHERE m.status != 'live' "
                                         "AND p.state IN ('waiting', 'in_meeting')"):
            problems.append(f"participant {pid} is {state} in meeting {mid}, which is not live")
        for host, n in self.db.execute(select(Meeting.host_id, func.count()).where(Meeting.status == "live")
                                       .group_by(Meeting.host_id)).all():
            if n > 1:
                problems.append(f"{host} hosts {n} live meetings")
        for meeting, n in self.db.execute(select(Recording.meeting_id, func.count())
                                          .where(Recording.status == "recording").group_by(Recording.meeting_id)).all():
            if n > 1:
                problems.append(f"{meeting} has {n} running recordings")
        stray = self.db.scalar(select(func.count()).select_from(Recording).join(Meeting, Meeting.id == Recording.meeting_id)
                               .where(Recording.status == "recording", Meeting.status != "live"))
        if stray:
            problems.append(f"{stray} recordings run in meetings that are not live")
        return problems

    # -- helpers ----------------------------------------------------------------------------------------

    def _number(self, meeting_id: str) -> str:
        value = zlib.crc32(("number/" + meeting_id).encode())
        digits = f"{value % 10**10:010d}"
        number = f"9{digits[:2]} {digits[2:6]} {digits[6:10]}"
        while self.db.scalar(select(Meeting.id).where(Meeting.number == number)) is not None:
            value += 1
            digits = f"{value % 10**10:010d}"
            number = f"9{digits[:2]} {digits[2:6]} {digits[6:10]}"
        return number

    def _participant_row(self, meeting_id: str, user_id: str) -> Participant | None:
        return self.db.scalar(select(Participant).where(Participant.meeting_id == meeting_id,
                                                        Participant.user_id == user_id))

    def _running(self, meeting_id: str) -> Recording | None:
        return self.db.scalar(select(Recording).where(Recording.meeting_id == meeting_id,
                                                      Recording.status == "recording"))

    def _moderator(self, meeting_id: str, user_id: str, action: str) -> Participant:
        """The acting user's row in the meeting, when they are its host or a co-host and in it."""
        user = self.get(User, user_id)
        m = self.get(Meeting, meeting_id)
        if m.status != "live":
            raise ToolError(f"Meeting {m.id} is {m.status}; people can {action} only while it is live")
        row = self._participant_row(meeting_id, user.id)
        if row is None or row.role == "attendee":
            raise ToolError(f"{user.name} is not the host or a co-host of meeting {m.id}; only they can {action}")
        if row.state != "in_meeting":
            raise ToolError(f"{user.name} is not in meeting {m.id} right now; join it first to {action}")
        return row

    def _ready(self, rec: Recording, action: str) -> Recording:
        if rec.status == "recording":
            raise ToolError(f"Recording {rec.id} is still running; stop it and end the meeting to {action}")
        if self.db.get(Meeting, rec.meeting_id).status != "ended":
            raise ToolError(f"Recording {rec.id} is being processed until meeting {rec.meeting_id} ends; "
                            f"end the meeting to {action}")
        return rec


_STATE_WORDS = {"waiting": "in the waiting room", "in_meeting": "in the meeting", "left": "gone (they left)",
                "removed": "removed from the meeting"}


def _passcode(m: Meeting) -> str:
    """The meeting's passcode: the host's own, or the six digits the service generated for it."""
    return m.passcode or f"{zlib.crc32(('passcode/' + m.id).encode()) % 1_000_000:06d}"


def _user(u: User) -> dict:
    return {"user_id": u.id, "name": u.name, "email": u.email, "department": u.department}


def _meeting(m: Meeting, host_name: str) -> dict:
    return {"meeting_id": m.id, "number": m.number, "title": m.title, "host_id": m.host_id, "host_name": host_name,
            "start_at": m.start_at, "duration_minutes": m.duration_minutes, "status": m.status,
            "waiting_room": m.waiting_room}


def _participant(p: Participant, name: str) -> dict:
    return {"participant_id": p.id, "meeting_id": p.meeting_id, "user_id": p.user_id, "name": name, "role": p.role,
            "state": p.state, "muted": p.muted}


def _recording(r: Recording, title: str) -> dict:
    return _recording_entry(r.id, r.meeting_id, title, r.status, r.started_at, r.ended_at, r.transcript is not None)


def _recording_entry(recording_id: str, meeting_id: str, title: str, status: str, started_at: dt.datetime,
                     ended_at: dt.datetime | None, has_transcript: bool) -> dict:
    minutes = int((ended_at - started_at).total_seconds() // 60) if ended_at else None
    return {"recording_id": recording_id, "meeting_id": meeting_id, "meeting_title": title, "status": status,
            "started_at": started_at, "duration_minutes": minutes, "has_transcript": has_transcript}
