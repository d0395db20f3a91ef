"""The video meeting server through real MCP: the meeting life cycle (scheduled -> live -> ended),
joining with the number and passcode, the waiting room, host and co-host powers over the live
session, recordings that only a host or co-host starts while the meeting is live, and the
transcripts and recordings of ended meetings to list, share and delete.

Entities are discovered through the tools; refusals leave the world unchanged."""

from __future__ import annotations

import datetime as dt

import pytest

from prove_env.registry import get_toolkit
from prove_env.world import worlds


@pytest.fixture
def s(served):
    return served("video_meeting")


def users(s) -> list[dict]:
    return s.ok("find_users", limit=100)


def meetings(s, **filters) -> list[dict]:
    return s.ok("find_meetings", limit=100, **filters)


def live_with(s, predicate) -> tuple[dict, list[dict]]:
    """The first live meeting whose participants satisfy `predicate`, with those participants."""
    for m in meetings(s, status="live"):
        people = s.ok("list_participants", meeting_id=m["meeting_id"])
        if predicate(m, people):
            return m, people
    raise AssertionError("no such live meeting in the seed-0 world")


def someone(people, **match) -> dict:
    return next(p for p in people if all(p[k] == v for k, v in match.items()))


def has(**match):
    return lambda m, people: any(all(p[k] == v for k, v in match.items()) for p in people)


def outsider(s, meeting: dict, people: list[dict]) -> dict:
    inside = {p["user_id"] for p in people} | {meeting["host_id"]}
    return next(u for u in users(s) if u["user_id"] not in inside)


def ended_recording(s, transcript: bool | None = None) -> dict:
    for m in meetings(s, status="ended"):
        for r in s.ok("list_recordings", meeting_id=m["meeting_id"]):
            if transcript is None or r["has_transcript"] == transcript:
                return r
    raise AssertionError("no such recording in the seed-0 world")


# -- people and meetings ------------------------------------------------------------------------


def test_find_users_by_name_and_email(s):
    everyone = users(s)
    assert len(everyone) == 60 and len({u["name"] for u in everyone}) == 60
    u = everyone[7]
    assert s.ok("find_users", name=u["name"].split()[-1].upper())[0:1] and u in s.ok("find_users", name=u["name"])
    assert s.ok("find_users", email=u["email"].upper()) == [u]
    assert s.ok("find_users", name="zzzz-nobody") == []


def test_find_meetings_by_host_title_day_and_status(s):
    every = [m for status in ("scheduled", "live", "ended", "cancelled") for m in meetings(s, status=status)]
    assert all(meetings(s, status=status) for status in ("scheduled", "live", "ended", "cancelled"))
    assert len(every) > 100
    m = next(m for m in every if m["status"] == "ended")
    mine = meetings(s, host_id=m["host_id"])
    assert m in mine and all(x["host_id"] == m["host_id"] for x in mine)
    assert [x["start_at"] for x in mine] == sorted(x["start_at"] for x in mine)
    day = dt.date.fromisoformat(m["start_at"][:10])
    on_day = meetings(s, on_date=day.isoformat())
    assert m in on_day and all(x["start_at"].startswith(day.isoformat()) for x in on_day)
    assert m in meetings(s, title=m["title"].lower()[:6], host_id=m["host_id"])
    # a host without any meeting: an empty list, not an error
    hosts = {x["host_id"] for x in every}
    idle = next(u for u in users(s)[:32] if u["user_id"] not in hosts)
    assert meetings(s, host_id=idle["user_id"]) == []


def test_seeded_invitations_shares_and_sessions_happened_before_now():
    """Invitations to meetings still to come went out before now, not days before the meeting's
    future start; recordings were shared before now, not hours after a recent meeting."""
    happened = {"invitees": ("invited_at",), "shares": ("shared_at",), "participants": ("joined_at",),
                "recordings": ("started_at", "ended_at"), "meetings": ("started_at", "ended_at")}
    for seed in range(20):
        world = worlds.create(get_toolkit("video_meeting"), seed)
        try:
            for table, columns in happened.items():
                for column in columns:
                    for (value,) in world.connection.execute(f"SELECT {column} FROM {table} WHERE {column} IS NOT NULL"):
                        assert dt.datetime.fromisoformat(value) <= world.now, f"seed {seed}: {table}.{column} {value}"
        finally:
            world.close()


def test_get_meeting_in_full(s):
    m, people = live_with(s, lambda m, p: True)
    full = s.ok("get_meeting", meeting_id=m["meeting_id"])
    assert full["passcode"] and full["number"] == m["number"] and full["status"] == "live"
    assert full["in_meeting"] == sum(p["state"] == "in_meeting" for p in people)
    assert full["waiting"] == sum(p["state"] == "waiting" for p in people)


def test_schedule_meeting_and_its_rules(s):
    host = users(s)[0]
    later = "2099-01-05T15:00:00"
    m = s.ok("schedule_meeting", host_id=host["user_id"], title="  Roadmap sync ", start_at=later, duration_minutes=45)
    assert m["status"] == "scheduled" and m["title"] == "Roadmap sync" and m["waiting_room"] is True
    assert len(m["passcode"]) == 6 and m["passcode"].isdigit()
    assert m in [{k: v for k, v in x.items()} | {"passcode": m["passcode"]} for x in meetings(s, host_id=host["user_id"])]
    own = s.ok("schedule_meeting", host_id=host["user_id"], title="Open door", start_at=later, passcode="abc123",
               waiting_room=False)
    assert own["passcode"] == "abc123" and own["waiting_room"] is False
    s.fails("schedule_meeting", "not in the future", host_id=host["user_id"], title="Past",
              start_at="2001-01-01T10:00:00")
    s.fails("schedule_meeting", "15 to 480", host_id=host["user_id"], title="Long", start_at=later,
              duration_minutes=600)
    s.fails("schedule_meeting", "4 to 10 letters or digits", host_id=host["user_id"], title="Code",
              start_at=later, passcode="12")
    s.fails("schedule_meeting", "1 to 120 characters", host_id=host["user_id"], title="  ", start_at=later)


def test_invite_to_meeting(s):
    m = next(x for x in meetings(s, status="scheduled"))
    invited = s.ok("get_meeting", meeting_id=m["meeting_id"])["invitees"]
    ok = s.ok("invite_to_meeting", meeting_id=m["meeting_id"], email="  New.Person@Example.com ")
    assert ok == {"meeting_id": m["meeting_id"], "email": "new.person@example.com", "invited": True}
    assert s.ok("get_meeting", meeting_id=m["meeting_id"])["invitees"] == invited + ["new.person@example.com"]
    s.fails("invite_to_meeting", "already invited", meeting_id=m["meeting_id"], email="new.person@example.com")
    host = s.ok("find_users", limit=100)[int(m["host_id"][-4:]) - 1]
    s.fails("invite_to_meeting", "needs no invitation", meeting_id=m["meeting_id"], email=host["email"])
    s.fails("invite_to_meeting", "not an email address", meeting_id=m["meeting_id"], email="nobody")
    ended = meetings(s, status="ended")[0]
    s.fails("invite_to_meeting", "only scheduled or live meetings", meeting_id=ended["meeting_id"],
              email="x@example.com")


def test_reschedule_only_scheduled_meetings_into_the_future(s):
    m = meetings(s, status="scheduled")[0]
    before = s.ok("get_meeting", meeting_id=m["meeting_id"])
    moved = s.ok("reschedule_meeting", meeting_id=m["meeting_id"], start_at="2099-02-03T11:30:00")
    assert moved["start_at"].startswith("2099-02-03T11:30") and moved["duration_minutes"] == m["duration_minutes"]
    after = s.ok("get_meeting", meeting_id=m["meeting_id"])
    assert (after["number"], after["passcode"], after["invitees"]) == (before["number"], before["passcode"],
                                                                       before["invitees"])
    longer = s.ok("reschedule_meeting", meeting_id=m["meeting_id"], start_at="2099-02-03T11:30:00", duration_minutes=90)
    assert longer["duration_minutes"] == 90
    s.fails("reschedule_meeting", "not in the future", meeting_id=m["meeting_id"], start_at="2001-01-01T09:00:00")
    s.fails("reschedule_meeting", "15 to 480", meeting_id=m["meeting_id"], start_at="2099-02-03T11:30:00",
              duration_minutes=5)
    for status, hint in (("live", "already running"), ("ended", "already took place"), ("cancelled", "was cancelled")):
        s.fails("reschedule_meeting", hint, meeting_id=meetings(s, status=status)[0]["meeting_id"],
                  start_at="2099-02-03T11:30:00")


def test_cancel_only_scheduled_meetings(s):
    m = meetings(s, status="scheduled")[0]
    assert s.ok("cancel_meeting", meeting_id=m["meeting_id"]) == {"meeting_id": m["meeting_id"], "status": "cancelled"}
    s.fails("cancel_meeting", "already cancelled", meeting_id=m["meeting_id"])
    s.fails("cancel_meeting", "end it instead", meeting_id=meetings(s, status="live")[0]["meeting_id"])
    s.fails("cancel_meeting", "already took place", meeting_id=meetings(s, status="ended")[0]["meeting_id"])


# -- the life cycle ----------------------------------------------------------------------------------


def test_life_cycle_scheduled_live_ended(s):
    live_hosts = {m["host_id"] for m in meetings(s, status="live")}
    m = next(x for x in meetings(s, status="scheduled") if x["host_id"] not in live_hosts)
    other = next(u for u in users(s) if u["user_id"] != m["host_id"])
    s.fails("start_meeting", "only its host can start it", meeting_id=m["meeting_id"], user_id=other["user_id"])
    started = s.ok("start_meeting", meeting_id=m["meeting_id"], user_id=m["host_id"])
    assert started["status"] == "live"
    host_row = s.ok("list_participants", meeting_id=m["meeting_id"])
    assert [(p["user_id"], p["role"], p["state"]) for p in host_row] == [(m["host_id"], "host", "in_meeting")]
    s.fails("start_meeting", "already running", meeting_id=m["meeting_id"], user_id=m["host_id"])
    s.fails("end_meeting", "only its host can end it", meeting_id=m["meeting_id"], user_id=other["user_id"])
    ended = s.ok("end_meeting", meeting_id=m["meeting_id"], user_id=m["host_id"])
    assert ended["status"] == "ended" and ended["recording_stopped"] is None
    assert {p["state"] for p in s.ok("list_participants", meeting_id=m["meeting_id"])} == {"left"}
    s.fails("end_meeting", "only a live meeting can be ended", meeting_id=m["meeting_id"], user_id=m["host_id"])
    s.fails("start_meeting", "schedule a new meeting", meeting_id=m["meeting_id"], user_id=m["host_id"])


def test_a_host_runs_one_live_meeting_at_a_time(s):
    live_hosts = {m["host_id"] for m in meetings(s, status="live")}
    m = next(x for x in meetings(s, status="scheduled") if x["host_id"] in live_hosts)
    s.fails("start_meeting", "end it before starting another", meeting_id=m["meeting_id"], user_id=m["host_id"])


def test_ending_a_meeting_stops_its_recording_and_sends_everyone_out(s):
    m, _ = live_with(s, lambda m, p: any(r["status"] == "recording" for r in s.ok("list_recordings",
                                                                                  meeting_id=m["meeting_id"])))
    running = next(r for r in s.ok("list_recordings", meeting_id=m["meeting_id"]) if r["status"] == "recording")
    ended = s.ok("end_meeting", meeting_id=m["meeting_id"], user_id=m["host_id"])
    assert ended["recording_stopped"] == running["recording_id"]
    after = next(r for r in s.ok("list_recordings", meeting_id=m["meeting_id"])
                 if r["recording_id"] == running["recording_id"])
    assert after["status"] == "completed" and after["duration_minutes"] is not None
    assert not s.ok("list_participants", meeting_id=m["meeting_id"], state="in_meeting")
    assert not s.ok("list_participants", meeting_id=m["meeting_id"], state="waiting")


# -- joining and the waiting room -------------------------------------------------------------------


def test_join_with_number_and_passcode_into_the_waiting_room(s):
    m, people = live_with(s, lambda m, p: m["waiting_room"])
    full = s.ok("get_meeting", meeting_id=m["meeting_id"])
    guest = outsider(s, m, people)
    s.fails("join_meeting", "Wrong passcode", meeting_number=m["number"], passcode="000000x",
              user_id=guest["user_id"])
    s.fails("join_meeting", "No meeting has the number", meeting_number="111 1111 1111",
              passcode=full["passcode"], user_id=guest["user_id"])
    joined = s.ok("join_meeting", meeting_number=m["number"].replace(" ", ""), passcode=full["passcode"],
                  user_id=guest["user_id"])
    assert joined["state"] == "waiting" and joined["role"] == "attendee"
    s.fails("join_meeting", "already in the waiting room", meeting_number=m["number"], passcode=full["passcode"],
              user_id=guest["user_id"])
    admitted = s.ok("admit_participant", participant_id=joined["participant_id"], user_id=m["host_id"])
    assert admitted["state"] == "in_meeting" and admitted["already_admitted"] is False


def test_admitting_someone_already_in_the_meeting_changes_nothing(s):
    m, people = live_with(s, lambda m, p: m["waiting_room"] and any(x["state"] == "waiting" for x in p)
                          and any(x["state"] == "left" for x in p))
    waiting = someone(people, state="waiting")
    first = s.ok("admit_participant", participant_id=waiting["participant_id"], user_id=m["host_id"])
    before = s.world.digest()
    again = s.ok("admit_participant", participant_id=waiting["participant_id"], user_id=m["host_id"])
    assert again == {**first, "already_admitted": True} and s.world.digest() == before
    # people who left or were removed are not let back in by admitting them
    s.fails("admit_participant", "only waiting people can be admitted",
            participant_id=someone(people, state="left")["participant_id"], user_id=m["host_id"])


def test_join_without_waiting_room_goes_straight_in(s):
    m, people = live_with(s, lambda m, p: not m["waiting_room"])
    code = s.ok("get_meeting", meeting_id=m["meeting_id"])["passcode"]
    guest = outsider(s, m, people)
    assert s.ok("join_meeting", meeting_number=m["number"], passcode=code, user_id=guest["user_id"])["state"] == "in_meeting"


def test_only_live_meetings_can_be_joined(s):
    for status, hint in (("scheduled", "has not started it yet"), ("ended", "it is over"), ("cancelled", "cancelled")):
        m = meetings(s, status=status)[0]
        code = s.ok("get_meeting", meeting_id=m["meeting_id"])["passcode"]
        guest = next(u for u in users(s) if u["user_id"] != m["host_id"])
        s.fails("join_meeting", hint, meeting_number=m["number"], passcode=code, user_id=guest["user_id"])


def test_removed_people_cannot_join_again(s):
    m, people = live_with(s, has(state="in_meeting", role="attendee"))
    code = s.ok("get_meeting", meeting_id=m["meeting_id"])["passcode"]
    p = someone(people, state="in_meeting", role="attendee")
    assert s.ok("remove_participant", participant_id=p["participant_id"], user_id=m["host_id"])["state"] == "removed"
    s.fails("join_meeting", "cannot join it again", meeting_number=m["number"], passcode=code,
              user_id=p["user_id"])
    s.fails("remove_participant", "only people in the meeting or its waiting room",
              participant_id=p["participant_id"], user_id=m["host_id"])


# -- host and co-host powers -----------------------------------------------------------------------


def test_admitting_needs_a_host_or_co_host_in_the_meeting(s):
    m, people = live_with(s, lambda m, p: any(x["state"] == "waiting" for x in p)
                          and any(x["state"] == "in_meeting" and x["role"] == "attendee" for x in p))
    waiting = someone(people, state="waiting")
    attendee = someone(people, state="in_meeting", role="attendee")
    s.fails("admit_participant", "not the host or a co-host", participant_id=waiting["participant_id"],
              user_id=attendee["user_id"])
    stranger = outsider(s, m, people)
    s.fails("admit_participant", "not the host or a co-host", participant_id=waiting["participant_id"],
              user_id=stranger["user_id"])
    assert s.ok("admit_participant", participant_id=waiting["participant_id"], user_id=m["host_id"])["state"] == "in_meeting"


def test_mute_only_people_in_the_meeting(s):
    m, people = live_with(s, lambda m, p: any(x["state"] == "waiting" for x in p)
                          and any(x["state"] == "in_meeting" and not x["muted"] and x["role"] == "attendee" for x in p))
    target = someone(people, state="in_meeting", muted=False, role="attendee")
    muted = s.ok("mute_participant", participant_id=target["participant_id"], user_id=m["host_id"])
    assert muted["muted"] is True
    assert s.ok("mute_participant", participant_id=target["participant_id"], user_id=m["host_id"]) == muted
    s.fails("mute_participant", "admit them first", participant_id=someone(people, state="waiting")["participant_id"],
              user_id=m["host_id"])
    s.fails("mute_participant", "not the host or a co-host", participant_id=target["participant_id"],
              user_id=someone(people, state="waiting")["user_id"])


def test_co_hosts_moderate_but_only_the_host_promotes_or_removes_a_co_host(s):
    m, people = live_with(s, lambda m, p: sum(x["state"] == "in_meeting" and x["role"] == "attendee" for x in p) >= 2)
    first, second = [p for p in people if p["state"] == "in_meeting" and p["role"] == "attendee"][:2]
    co = s.ok("make_co_host", participant_id=first["participant_id"], user_id=m["host_id"])
    assert co["role"] == "co_host" and co["already_co_host"] is False
    s.fails("make_co_host", "Only the meeting's host can make a co-host", participant_id=second["participant_id"],
              user_id=first["user_id"])
    # a co-host mutes and records, but cannot remove the host, another co-host's peer promotion, or end the meeting
    assert s.ok("mute_participant", participant_id=second["participant_id"], user_id=first["user_id"])["muted"]
    host_row = someone(people, role="host")
    s.fails("remove_participant", "cannot be removed", participant_id=host_row["participant_id"],
              user_id=first["user_id"])
    s.fails("end_meeting", "only its host can end it", meeting_id=m["meeting_id"], user_id=first["user_id"])
    assert s.ok("make_co_host", participant_id=second["participant_id"], user_id=m["host_id"])["role"] == "co_host"
    s.fails("remove_participant", "only the host can remove a co-host", participant_id=second["participant_id"],
              user_id=first["user_id"])
    assert s.ok("remove_participant", participant_id=second["participant_id"], user_id=m["host_id"])["state"] == "removed"


def test_making_a_co_host_again_changes_nothing(s):
    m, people = live_with(s, has(state="in_meeting", role="attendee"))
    attendee = someone(people, state="in_meeting", role="attendee")
    first = s.ok("make_co_host", participant_id=attendee["participant_id"], user_id=m["host_id"])
    before = s.world.digest()
    again = s.ok("make_co_host", participant_id=attendee["participant_id"], user_id=m["host_id"])
    assert again == {**first, "already_co_host": True} and s.world.digest() == before
    s.fails("make_co_host", "already has every co-host power",
            participant_id=someone(people, role="host")["participant_id"], user_id=m["host_id"])


def test_waiting_people_cannot_become_co_hosts(s):
    m, people = live_with(s, has(state="waiting"))
    s.fails("make_co_host", "admit them first", participant_id=someone(people, state="waiting")["participant_id"],
              user_id=m["host_id"])


def test_moderation_only_while_the_meeting_is_live(s):
    m = meetings(s, status="ended")[0]
    people = s.ok("list_participants", meeting_id=m["meeting_id"])
    target = next(p for p in people if p["role"] == "attendee")
    s.fails("mute_participant", "only while it is live", participant_id=target["participant_id"],
              user_id=m["host_id"])


def test_list_participants_of_a_hosts_live_meeting(s):
    m, people = live_with(s, lambda m, p: True)
    assert s.ok("list_participants", host_id=m["host_id"]) == people
    waiting = s.ok("list_participants", meeting_id=m["meeting_id"], state="waiting")
    assert waiting == [p for p in people if p["state"] == "waiting"]
    live_hosts = {x["host_id"] for x in meetings(s, status="live")}
    idle = next(u for u in users(s) if u["user_id"] not in live_hosts)
    s.fails("list_participants", "not running a live meeting", host_id=idle["user_id"])


def test_list_participants_without_a_meeting_lists_every_live_meeting(s):
    live = sorted(m["meeting_id"] for m in meetings(s, status="live"))
    assert len(live) > 1
    each = [p for mid in live for p in s.ok("list_participants", meeting_id=mid)]
    assert s.ok("list_participants") == each  # by meeting, then participant id
    waiting = s.ok("list_participants", state="waiting")
    assert waiting and waiting == [p for p in each if p["state"] == "waiting"]
    m = next(x for x in meetings(s, status="live") if x["meeting_id"] == live[0])
    s.ok("end_meeting", meeting_id=m["meeting_id"], user_id=m["host_id"])
    assert {p["meeting_id"] for p in s.ok("list_participants")} == set(live[1:])  # an ended meeting is not live


# -- recordings ------------------------------------------------------------------------------------


def test_recording_refused_before_the_meeting_is_live(s):
    m = meetings(s, status="scheduled")[0]
    s.fails("start_recording", "start the meeting first", meeting_id=m["meeting_id"], user_id=m["host_id"])
    ended = meetings(s, status="ended")[0]
    s.fails("start_recording", "only while a meeting is live", meeting_id=ended["meeting_id"],
              user_id=ended["host_id"])


def test_only_a_host_or_co_host_in_the_meeting_records(s):
    def idle(m, people):
        return (not any(r["status"] == "recording" for r in s.ok("list_recordings", meeting_id=m["meeting_id"]))
                and any(p["state"] == "in_meeting" and p["role"] == "attendee" for p in people))
    m, people = live_with(s, idle)
    attendee = someone(people, state="in_meeting", role="attendee")
    s.fails("start_recording", "not the host or a co-host", meeting_id=m["meeting_id"],
              user_id=attendee["user_id"])
    s.ok("make_co_host", participant_id=attendee["participant_id"], user_id=m["host_id"])
    rec = s.ok("start_recording", meeting_id=m["meeting_id"], user_id=attendee["user_id"])
    assert rec["status"] == "recording" and rec["duration_minutes"] is None
    s.fails("start_recording", "already running", meeting_id=m["meeting_id"], user_id=m["host_id"])
    s.fails("get_transcript", "still running", recording_id=rec["recording_id"])
    s.fails("delete_recording", "stop it before deleting it", recording_id=rec["recording_id"])
    stopped = s.ok("stop_recording", meeting_id=m["meeting_id"], user_id=m["host_id"])
    assert stopped["status"] == "completed" and stopped["recording_id"] == rec["recording_id"]
    s.fails("stop_recording", "no recording running", meeting_id=m["meeting_id"], user_id=m["host_id"])
    # completed, but the meeting is still live: not ready to share yet
    s.fails("share_recording", "end the meeting to share it", recording_id=rec["recording_id"],
              email="a@example.com")


def test_list_recordings_of_a_meeting_or_a_host(s):
    r = ended_recording(s)
    meeting = s.ok("get_meeting", meeting_id=r["meeting_id"])
    by_host = s.ok("list_recordings", host_id=meeting["host_id"])
    assert r in by_host and all(x["meeting_id"] in {m["meeting_id"] for m in meetings(s, host_id=meeting["host_id"])}
                                for x in by_host)
    never = next(m for m in meetings(s, status="scheduled"))
    assert s.ok("list_recordings", meeting_id=never["meeting_id"]) == []


def test_list_recordings_without_a_meeting_or_host_lists_the_accounts_recordings(s):
    everything = s.ok("list_recordings", limit=100)
    by_meeting = [r for m in meetings(s) for r in s.ok("list_recordings", meeting_id=m["meeting_id"], limit=100)]
    assert len(everything) > 20 and sorted(everything, key=lambda r: r["recording_id"]) == sorted(
        by_meeting, key=lambda r: r["recording_id"])
    started = [(r["started_at"], r["recording_id"]) for r in everything]
    assert started == sorted(started)  # oldest first
    assert s.ok("list_recordings") == everything[:20]


def test_get_transcript(s):
    r = ended_recording(s, transcript=True)
    t = s.ok("get_transcript", recording_id=r["recording_id"])
    assert t["lines"] and t["speakers"] == sorted({line.split(": ")[0] for line in t["lines"]})
    without = ended_recording(s, transcript=False)
    s.fails("get_transcript", "has no transcript", recording_id=without["recording_id"])


def test_share_recording(s):
    r = ended_recording(s)
    shared = s.ok("share_recording", recording_id=r["recording_id"], email="Pat.Doe@Example.com")
    assert shared["email"] == "pat.doe@example.com"
    before = s.world.digest()
    assert s.ok("share_recording", recording_id=r["recording_id"], email="pat.doe@example.com") == shared
    assert s.world.digest() == before
    after = next(x for x in s.ok("list_recordings", meeting_id=r["meeting_id"]) if x["recording_id"] == r["recording_id"])
    assert after["shared_with"] == r["shared_with"] + 1
    s.fails("share_recording", "not an email address", recording_id=r["recording_id"], email="pat")


def test_delete_recording(s):
    r = ended_recording(s)
    assert s.ok("delete_recording", recording_id=r["recording_id"]) == {"recording_id": r["recording_id"], "deleted": True}
    assert r["recording_id"] not in {x["recording_id"] for x in s.ok("list_recordings", meeting_id=r["meeting_id"])}
    s.fails("get_transcript", "not found", recording_id=r["recording_id"])


def test_the_account_wide_count_is_hidden(served):
    s = served("video_meeting")
    s.fails("count_meetings", "")


# -- outcomes, not paths: what the reward's success flag judges -------------------------------------


def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def _gold(*calls) -> list[dict]:
    out = []
    for i, (name, arguments) in enumerate(calls, start=1):
        out.append({"id": f"g{i}", "name": name, "arguments": arguments, "depends_on": [f"g{i - 1}"] if i > 1 else []})
    return out


def test_success_follows_the_outcome_not_the_path(s, play):
    from prove_env.task import Task

    r = ended_recording(s)
    m = s.ok("get_meeting", meeting_id=r["meeting_id"])
    host = s.ok("find_users", limit=100)[int(m["host_id"][-4:]) - 1]
    assert host["user_id"] == m["host_id"]
    email = "pat.doe@example.com"
    share = Task(id="share", server="video_meeting", seed=0,
                 user_turns=[f"This is {host['name']}. Please share the recording of my \"{m['title']}\" meeting "
                             f"on {m['start_at'][:10]} with {email}."],
                 gold=[_gold(("find_users", {"name": host["name"]}),
                             ("list_recordings", {"host_id": host["user_id"]}),
                             ("share_recording", {"recording_id": r["recording_id"], "email": email}))])
    # another correct path: through the meeting rather than the host's recordings
    other = play(share, [_call("find_meetings", host_id=host["user_id"], title=m["title"]),
                         _call("list_recordings", meeting_id=m["meeting_id"]),
                         _call("share_recording", recording_id=r["recording_id"], email=email), "Shared."])
    assert other["success"]
    # the share, then damage nobody asked for: another recording deleted
    spare = next(x for x in s.ok("list_recordings", host_id=host["user_id"]) if x["recording_id"] != r["recording_id"]) \
        if len(s.ok("list_recordings", host_id=host["user_id"])) > 1 else ended_recording(s, transcript=False)
    damage = play(share, [_call("share_recording", recording_id=r["recording_id"], email=email),
                          _call("delete_recording", recording_id=spare["recording_id"]), "Shared."])
    assert not damage["success"]
    wrong = play(share, [_call("share_recording", recording_id=r["recording_id"], email="someone.else@example.com"),
                         "Shared."])
    assert not wrong["success"]


def test_an_unspecified_passcode_is_a_detail(s, play):
    from prove_env.task import Task

    host = users(s)[2]
    args = {"host_id": host["user_id"], "title": "Roadmap sync", "start_at": "2099-03-02T10:00:00",
            "duration_minutes": 30}
    task = Task(id="schedule", server="video_meeting", seed=0,
                user_turns=[f"This is {host['name']}. Schedule a 30-minute \"Roadmap sync\" on March 2, 2099 at 10 am."],
                gold=[_gold(("find_users", {"name": host["name"]}), ("schedule_meeting", args))])
    # a passcode the user did not ask for is the account's business, not a mistake
    chosen = play(task, [_call("schedule_meeting", **args, passcode="424242"), "Scheduled."])
    assert chosen["success"]
    # a waiting room turned off that nobody asked to turn off is a real difference
    open_door = play(task, [_call("schedule_meeting", **args, waiting_room=False), "Scheduled."])
    assert not open_door["success"]
    late = play(task, [_call("schedule_meeting", **{**args, "start_at": "2099-03-02T11:00:00"}), "Scheduled."])
    assert not late["success"]


# -- synthesized requests ---------------------------------------------------------------------------

def test_a_share_request_names_the_colleague_once():
    """'Could you send the recording to Cynthia Le? Their email is ...': the address sentence does not
    name the person the request just named."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("video_meeting"), get_recipe("video_meeting")
    world = worlds.create(toolkit, 0)
    rng = random.Random("video_meeting asks 0")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    goal = next(g for g in recipe.goals if g.tool == "share_recording")
    asks = [a for a in (goal.build(rng.choice(bundles), rng) for _ in range(80)) if a is not None]
    assert len(asks) > 20
    for ask in asks:
        who = next(c["name"] for b in bundles for c in b["colleagues"] if c["email"] == ask.args["email"])
        assert f"{ask.say} {ask.detail}".count(who) <= 1, (ask.say, ask.detail)


def test_no_request_says_right_now_twice_and_a_colleague_keeps_their_capital():
    """'my Standup meeting that's going on right now' is not followed by another 'right now', and a
    colleague's name is a mention, so that a request joined after another keeps its capital."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("video_meeting"), get_recipe("video_meeting")
    world = worlds.create(toolkit, 0)
    rng = random.Random("video_meeting asks 0")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    live = 0
    for goal in recipe.goals:
        for _ in range(40):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            for words in (ask.say, ask.detail, ask.terse):
                assert (words or "").count("right now") <= 1, words
            live += "right now" in ask.say
            if goal.tool == "share_recording":
                who = next(c["name"] for b in bundles for c in b["colleagues"] if c["email"] == ask.args["email"])
                assert who in ask.mentions, ask.say
    assert live


def test_someone_removed_from_the_waiting_room_is_not_said_to_be_in_the_meeting():
    """Finding: "There's a person in my Incident postmortem meeting ... I need out" for someone still
    in the waiting room. A request to remove a person who waits says they are waiting."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("video_meeting"), get_recipe("video_meeting")
    found = {"waiting": 0, "in_meeting": 0}
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"video_meeting asks {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        world.close()
        goal = next(g for g in recipe.goals if g.tool == "remove_participant")
        for _ in range(60):
            b = rng.choice(bundles)
            ask = goal.build(b, rng)
            if ask is None:
                continue
            state = next(p["state"] for p in b["people"] if p["participant_id"] == ask.args["participant_id"])
            found[state] += 1
            for words in (ask.say, ask.terse):
                assert ("waiting" in words) == (state == "waiting"), (state, words)
    assert found["waiting"] > 3 and found["in_meeting"] > 3, found


def _asks(tool: str, seeds=(0, 1), n: int = 80):
    """(bundles, asks) of one goal over the seed worlds."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("video_meeting"), get_recipe("video_meeting")
    goal = next(g for g in recipe.goals if g.tool == tool)
    out = []
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"video_meeting asks {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        world.close()
        out += [(b, a) for b, a in ((b, goal.build(b, rng)) for b in (rng.choice(bundles) for _ in range(n)))
                if a is not None]
    return out


@pytest.mark.parametrize("tool", ["end_meeting", "remove_participant", "list_participants", "start_recording",
                                  "stop_recording", "mute_participant"])
def test_a_live_meeting_is_not_said_to_run_now_in_a_sentence_that_says_when(tool):
    """Finding: "End the OKR planning meeting I'm running now now, please." and "I need Nathan Burns out of
    my Customer onboarding call meeting that's going on right now immediately.", and "Who is in the Mobile
    release retro meeting I'm running now at the moment?" / "who has joined my Data platform deep dive meeting
    that's going on right now so far?": a sentence says 'now', 'right away', 'immediately', 'at the moment',
    'so far' or 'currently' once, and a title that is a call is not called a meeting again."""
    import re

    asks = _asks(tool)
    assert len(asks) > 10, tool
    live = 0
    for _, ask in asks:
        for words in (ask.say, ask.detail, ask.terse):
            words = words or ""
            said = re.findall(r"\b(?:now|right away|immediately|at the moment|so far|currently)\b", words)
            assert len(said) <= 1, words
            assert "call meeting" not in words, words
            live += "running now" in words or "right now" in words
    assert live, tool  # the live forms are still used where the sentence says no time of its own


@pytest.mark.parametrize("tool", ["share_recording", "invite_to_meeting"])
def test_a_colleagues_address_is_said_with_the_request_not_held_back(tool):
    """Finding: "Brenda Mendez asked for the second of the Design critique recordings ...; share it with
    them." held back her address, which find_users gives: the assistant was taught to ask for a value a
    shown look-up finds. A colleague in the directory is named with their address in the request."""
    asks = _asks(tool)
    named = 0
    for b, ask in asks:
        colleague = next((c for c in b["colleagues"] if c["email"] == ask.args["email"]), None)
        if colleague is None:
            continue
        assert ask.detail is None, (ask.say, ask.detail)
        if colleague["name"] in ask.say:
            named += 1
            assert ask.args["email"] in ask.say, ask.say
    assert named > 5, (tool, named)


def test_a_join_request_asks_to_get_into_the_meeting():
    """Finding: "I'm late for Curtis Ryan's meeting. Join me to 467 4064 4680, please.": a join request
    asks to get into the meeting ('Get me into meeting 467 4064 4680'), never to 'join me to' a number,
    and the number the user says is the meeting's."""
    asks = _asks("join_meeting", seeds=(0, 1, 2), n=120)
    assert len(asks) > 10
    wordings = set()
    for b, ask in asks:
        assert ask.args["meeting_number"] in ask.say, ask.say
        assert "join me to" not in ask.say.lower() and "join me in" not in ask.say.lower(), ask.say
        wordings.add(ask.say.replace(ask.args["meeting_number"], "#").split(".")[0][:12])
    assert len(wordings) > 2, wordings


_SAYS_WHEN = r"\b(?:now|right away|immediately|at the moment|so far|currently|in progress)\b"


@pytest.mark.parametrize("tool", ["get_meeting", "end_meeting", "list_participants", "start_recording",
                                  "stop_recording", "mute_participant", "remove_participant"])
def test_a_live_meeting_is_said_to_be_going_on_and_only_once(tool):
    """Finding: "Can you give me the joining details ... for a meeting of mine?" / "I mean my "Hiring
    debrief" meeting." named a live meeting by its bare title, while the gold looks it up with
    status="live": the look-up by the title the user said lost coverage. And "Who's in the "Budget review"
    meeting in progress right now?" said when twice. A request about a live meeting says, once, that it
    is going on."""
    import re

    asks = _asks(tool)
    live = [(b, a) for b, a in asks if b["live"] is not None
            and a.args.get("meeting_id", b["live"]["meeting_id"]) == b["live"]["meeting_id"]]
    assert len(live) > 5, tool
    for _, ask in live:
        for words in (" ".join(w for w in (ask.say, ask.detail) if w), ask.terse):
            said = re.findall(_SAYS_WHEN, words)
            assert len(said) == 1, words


@pytest.mark.parametrize("tool", ["delete_recording", "get_transcript"])
def test_one_of_my_recordings_is_said_only_by_someone_with_several(tool):
    """Finding: "I want to delete one of my cloud recordings for good." from a user with one recording in
    all: 'one of my recordings' was untrue and the question 'which one?' was settled by the look-up."""
    asks = _asks(tool, seeds=(0, 1, 2), n=120)
    vague = 0
    for b, ask in asks:
        if ask.detail is not None:
            vague += 1
            assert len(b["recordings"]) > 1, ask.say
    assert vague > 3, tool


def test_a_meeting_of_a_later_day_is_started_now_instead_not_early():
    """Finding: on January 10, "Could you start a meeting of mine right away? I mean the 1:1 check-in on
    January 27.": a meeting of a later day is said to be held now instead of on its day, and past
    recordings are asked about without a yes/no question on 'one of my past meetings'."""
    asks = _asks("start_meeting", seeds=(0, 1, 2), n=120)
    later = 0
    for b, ask in asks:
        m = next(m for m in b["meetings"] if m["meeting_id"] == ask.args["meeting_id"])
        if m["date"] > b["now"].date():
            later += 1
            assert "early" not in ask.say and "right away?" not in ask.say, ask.say
            assert any(w in ask.say for w in ("instead", "rather than", "moved", "not waiting")), ask.say
    assert later > 3
    for _, ask in _asks("list_recordings"):
        assert "one of my past meetings?" not in ask.say, ask.say


def test_a_terse_start_of_a_later_days_meeting_says_it_is_held_now_instead():
    """Finding: terse "Start the Data platform deep dive now." on October 4 for a meeting set on October 27:
    the terse form, like the others, says that a meeting of a later day is held now instead of on its day
    (and a meeting of today, where one is picked, is started with the plain "now")."""
    asks = _asks("start_meeting", seeds=(0, 1, 2), n=120)
    seen = {"today": 0, "later": 0}
    for b, ask in asks:
        m = next(m for m in b["meetings"] if m["meeting_id"] == ask.args["meeting_id"])
        later = m["date"] > b["now"].date()
        seen["later" if later else "today"] += 1
        assert ("instead of on its day" in ask.terse) == later, (m["date"], b["now"], ask.terse)
    assert seen["later"] > 3, seen


def test_a_past_meetings_recordings_are_read_off_the_hosts_one_listing():
    """Finding: "Did I record "Sprint planning" on April 7? How long are the recordings?" was answered by
    finding the meeting, then listing its recordings; the listing of the user's recordings names each
    one's meeting and start, so it answers in one call, and the model taking it lost coverage. The
    request lists the host's recordings, and its facts are the lengths of that meeting's recordings
    only; 'how many minutes of recording' (a total) is asked only of a meeting recorded once."""
    import json
    import re

    from prove_env.synthesis.wording import day

    toolkit = get_toolkit("video_meeting")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    checked = 0
    try:
        for seeds in ((0,), (1, 2)):
            for b, ask in _asks("list_recordings", seeds=seeds, n=120):
                assert ask.args == {"host_id": b["user"]["user_id"]}, ask.args
                assert not any(ref.kind == "meeting" for ref in ask.refs), ask.refs
                words = " ".join(w for w in (ask.say, ask.detail) if w)
                meeting = next(m for m in b["meetings"] if m["status"] == "ended" and m["title"] in words
                               and re.search(rf"{re.escape(day(m['date']))}\b", words))
                lengths = sorted(r["duration_minutes"] for r in b["recordings"] if r["meeting"] is meeting)
                if "how many minutes" in words.lower():
                    assert len(lengths) == 1, words
                if seeds == (0,):
                    facts = ask.facts(json.loads(tools.run("list_recordings", dict(ask.args))))
                    assert sorted(f["quantity"] for f in facts) == lengths, (words, facts)
                    checked += 1
    finally:
        world.close()
    assert checked > 5


def test_a_meeting_number_is_stated_with_spaces_dashes_or_none():
    """Finding: "Number and passcode of my Board deck review meeting that's going on right now?"
    recorded the number as '206 3063 7671', so "meeting number 206-3063-7671, passcode 154372" failed."""
    import json

    from prove_env.facts import facts_stated

    toolkit = get_toolkit("video_meeting")
    asks = [a for _, a in _asks("get_meeting", seeds=(0,)) if "passcode" in a.say + a.terse]
    assert len(asks) > 3
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    try:
        for ask in asks[:6]:
            result = json.loads(tools.run("get_meeting", dict(ask.args)))
            facts = ask.facts(result)
            number, code = result["number"], result["passcode"]
            for said in (number, number.replace(" ", "-"), number.replace(" ", "")):
                assert facts_stated([facts], [f"Meeting number {said}, passcode {code}."]), (said, facts)
            assert not facts_stated([facts], [f"Passcode {code}."])
    finally:
        world.close()


def test_a_days_meetings_asked_without_the_day_read_well_with_it_and_in_the_days_tense():
    """Finding: "I'd like to see my meetings for one day. The day is Thursday, February 12." (the request
    and its day in one message, a past day): the request without its day is said in the day's tense
    ('hosted' for a past day), and the day reads as well in the same message as after "which day?"."""
    asks = [(b, a) for b, a in _asks("find_meetings", seeds=(0, 1, 2), n=150) if a.detail]
    seen = {"past": 0, "future": 0}
    for b, ask in asks:
        past = dt.date.fromisoformat(ask.args["on_date"]) <= b["now"].date()
        seen["past" if past else "future"] += 1
        assert not ask.detail.startswith("The day is"), ask.detail
        assert ("hosted" in ask.say) == past, (ask.args["on_date"], b["now"], ask.say)
    assert seen["past"] > 3 and seen["future"] > 3, seen


def test_a_terse_introduction_by_e_mail_does_not_read_as_an_order_to_write_one():
    """Finding: "Email mary.smith@northwindlabs.com. Share the first recording ..." (the terse
    introduction by address) reads first as "send an e-mail to Mary". Every terse introduction by
    address labels the address as the user's own, as the other terse forms do ("Account: ...")."""
    import re

    from prove_env.synthesis.recipe import Ref, get_recipe

    recipe = get_recipe("video_meeting")
    by_email = [lk for lk in recipe.lookups_for("user") if lk.args(Ref.of("user", {"user_id": "U", "name": "N",
                                                                                    "email": "n@x.com"})) == {"email": "n@x.com"}]
    assert len(by_email) == 1
    seen = set()
    for i in range(200):
        user = {"user_id": f"USR-{i:04d}", "name": f"Person {i}", "email": f"person{i}@northwindlabs.com",
                "department": "Sales"}
        complete, terse = by_email[0].intro(Ref.of("user", user))
        seen.add(terse.replace(user["email"], "<email>"))
        assert not re.match(r"(?i)(e-?mail|write|message|contact)\s+\S+@", terse), terse
        assert user["email"] in terse and user["email"] in complete
    assert len(seen) >= 3, seen


def test_a_live_meeting_whose_participants_were_listed_is_not_looked_up_again():
    """Finding: "Co-host Marissa Floyd in the All-hands prep meeting I'm running now" lists the host's
    participants, whose rows carry the live meeting's id; "Record the All-hands prep meeting I'm running
    now" then searched the host's live meeting again, so the short route (recording with the id the
    listing gave) lost coverage. The participant look-up settles the live meeting too."""
    from prove_env.synthesis.pipeline import synthesize

    tasks = synthesize(["video_meeting"], 60, seed=93, workers=1).tasks()
    after_listing = 0
    for task in tasks:
        listed = set()
        for call in task.gold_calls:
            host = call.arguments.get("host_id")
            if call.name == "list_participants" and host:
                listed.add(host)
            elif call.name == "find_meetings" and call.arguments.get("status") == "live" and host in listed:
                raise AssertionError(f"{task.id}: the live meeting of {host} is looked up after its participants")
            elif call.name in ("start_recording", "end_meeting", "stop_recording") and listed:
                after_listing += 1
    assert after_listing > 0


def test_a_days_meetings_are_asked_as_the_ones_the_user_hosts():
    """Finding: "What meetings have I got on Saturday, September 12?" was answered by the meetings the user
    hosts that day only, while they were also invited to another host's meeting that day ("have I got",
    "what's on my meeting list", "my meetings" cover invitations too). Every wording of the request, the
    terse and the one without its day included, says the meetings are the user's own to host or run."""
    import re

    asks = _asks("find_meetings", seeds=(0, 1, 2), n=150)
    assert len(asks) > 30
    for _, ask in asks:
        for text in (ask.say, ask.terse):
            assert re.search(r"\b(host|hosting|hosted|run|my own)\b", text), text


def test_a_meetings_passcode_is_said_the_way_people_say_it():
    """Finding: "Could you get me into meeting 818 1585 1383? It's Katrina Montgomery's Launch readiness.
    It's passcode 479667." ('It's passcode', and the title without 'meeting'). The passcode is said as
    people say it, and the host's meeting is called a meeting."""
    asks = _asks("join_meeting", seeds=(0, 1, 2), n=150)
    assert len(asks) > 30
    for b, ask in asks:
        assert "It's passcode" not in ask.detail, ask.detail
        assert ask.args["passcode"] in ask.detail
        if "'s " in ask.say and "It's" in ask.say:
            assert ask.say.rstrip(".").endswith(" meeting"), ask.say


def test_a_past_days_meetings_are_asked_in_the_past_tense_in_every_wording():
    """Finding: terse "Meetings I host, Wednesday, November 4?" five weeks after that day, while the full
    wordings of the same request say "Which meetings did I host on ...?". The terse wording of a past day
    is in the past tense too, and that of a day to come is not."""
    import re

    asks = _asks("find_meetings", seeds=(0, 1, 2), n=150)
    past = [(b, a) for b, a in asks if dt.date.fromisoformat(a.args["on_date"]) < b["now"].date()]
    future = [(b, a) for b, a in asks if dt.date.fromisoformat(a.args["on_date"]) > b["now"].date()]
    assert len(past) > 10 and len(future) > 10
    for _, ask in past:
        assert re.search(r"\b(hosted|did I|ran)\b", ask.terse), ask.terse
    for _, ask in future:
        assert not re.search(r"\b(hosted|did I|ran)\b", ask.terse), ask.terse


@pytest.mark.parametrize("tool", ["share_recording", "invite_to_meeting"])
def test_the_address_of_a_share_or_an_invitation_asks_for_nothing_again(tool):
    """Finding: "Lori Rodriguez asked for the first of the Sprint planning recordings from October 11; share
    it with them. Send it to lori.rodriguez@northwindlabs.com." asked for the one share twice (and "...; send
    them an invitation. Send it to ..." for an invitation). The sentence that gives the address only gives it."""
    import re

    asks = _asks(tool, seeds=(0, 1, 2), n=150)
    assert len(asks) > 30
    for _, ask in asks:
        address = re.split(r"(?<=[.?]) ", ask.say)[-1]
        assert ask.args["email"] in address, ask.say
        assert not address.lower().startswith(("send", "share")), ask.say


def test_a_terse_introduction_by_name_reads_as_said():
    """Finding: "User: Jade Rowe. Speakers in transcript of ...?" (a form field, not how anyone introduces
    themselves, however terse)."""
    from servers.video_meeting import synth

    for phrase in synth._BY_NAME_TERSE + synth._BY_EMAIL_TERSE:
        assert not phrase.startswith(("User:", "Me:", "From ")), phrase


def test_a_meeting_to_be_cancelled_is_not_asked_for_its_joining_details():
    """Finding: "I need the meeting number and passcode of one of my meetings. ... the Design critique on
    September 20." and then "I need to cancel one of my upcoming meetings. The "Design critique" meeting
    on September 20.": the meeting the conversation calls off is not one whose number, passcode or
    invite list the user asks for."""
    asks = _asks("get_meeting", seeds=(0, 1, 2), n=120)
    scheduled = 0
    for b, ask in asks:
        m = next(m for m in b["meetings"] if m["meeting_id"] == ask.args["meeting_id"])
        assert m.get("role") != "cancel", (ask.say, ask.detail)
        scheduled += m["status"] == "scheduled"
    assert scheduled > 20, scheduled


def test_a_person_held_back_is_not_said_after_the_live_meeting_that_names_them():
    """Finding: "There's a person in my Launch readiness meeting that's going on right now I need out for the
    confidential part; remove them, please." (the clause 'I need out' stacked after the one that says the
    meeting is live, so it reads as said of the meeting). A request that holds the person back does not
    follow the live meeting's name with another clause about the person."""
    import re

    asks = _asks("remove_participant", seeds=(0, 1, 2), n=200)
    held = [a for _, a in asks if a.detail]
    assert len(held) > 20
    for ask in held:
        assert not re.search(r"(right now|in progress|running now) I need", ask.say), ask.say
        assert not re.search(r"^There's a person in .* I need", ask.say), ask.say


def test_a_meeting_moved_goes_to_another_day():
    """Finding: "Could you reschedule my "Weekly sync" meeting on September 7? Make it Monday, September 7 at
    11:30 am instead." (a Monday moved back a day or two rolled past the weekend onto its own day, so the new
    day said again the day the meeting's name already gave). A move is to a day other than the meeting's."""
    asks = _asks("reschedule_meeting", seeds=(0, 1, 2), n=300)
    assert len(asks) > 50
    for b, ask in asks:
        m = next(m for m in b["meetings"] if m["meeting_id"] == ask.args["meeting_id"])
        old = dt.datetime.fromisoformat(m["start_at"]).date()
        assert dt.datetime.fromisoformat(ask.args["start_at"]).date() != old, (ask.say, ask.detail)


def test_a_share_says_what_was_missed_after_naming_it():
    """Finding: "Kevin Johnson missed it, so please share the second of the 1:1 check-in recordings from June 25
    with them." (opening a message, or following "Could you book a new meeting ...", the 'it' has nothing
    before it to stand for). The request names the recording before anything refers to its meeting."""
    asks = _asks("share_recording", seeds=(0, 1, 2), n=150)
    assert len(asks) > 30
    for _, ask in asks:
        assert " missed it" not in ask.say, ask.say


def test_a_join_that_opens_with_the_host_keeps_the_name_capitalised():
    """Finding: "And then rachel Booker invited me to a meeting that's running now, number 198 2019 8604."
    (a request that opens with the host's name, joined after another, lost the name's capital: the host
    was not among the names the request says). Joined after other words, the request keeps the host's
    name as written."""
    from prove_env.synthesis.compose import _names
    from prove_env.synthesis.wording import lower_first

    asks = _asks("join_meeting", seeds=(0, 1, 2), n=200)
    opening = [(b, a) for b, a in asks if a.say.split()[0][:1].isupper() and not a.say.startswith(("Could", "I'm", "Please"))]
    assert len(opening) > 5
    for _, ask in opening:
        joined = lower_first(ask.say, [*ask.mentions, *_names(ask.refs)])
        assert joined == ask.say, joined


def test_the_live_meeting_is_named_in_full_once_a_conversation():
    """Finding: "Someone in the Pricing workshop meeting I'm running now has a barking dog ...", then "I'll
    need a co-host in the "Pricing workshop" meeting in progress while I present." (and in the terse
    register "the Mobile release retro meeting I'm running now" in each of three turns). A request about
    the live meeting after the conversation named it says "the meeting I'm running" (`Ask.again`)."""
    import dataclasses
    import random
    import re

    from prove_env.synthesis.compose import Composer
    from prove_env.synthesis.config import SynthConfig
    from prove_env.synthesis.graph import dependency_graph
    from prove_env.synthesis.recipe import Reader, Recipe, get_recipe

    base = get_recipe("video_meeting")
    live = ("list_participants", "mute_participant", "make_co_host", "start_recording", "remove_participant")
    recipe = dataclasses.replace(base, goals=[g for g in base.goals if g.tool in live])
    toolkit = get_toolkit("video_meeting")
    checked = 0
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        bundles = recipe.sample(Reader(toolkit, world), world.now, random.Random(seed))
        for level in ((1.0, 0.0, 0.0), (0.0, 0.0, 1.0)):
            config = SynthConfig(goals=(0.0, 0.0, 1.0), info_levels=level, irrelevant_rate=0.0, hidden_rate=0.0,
                                 missing_function_rate=0.0, distractor_rate=0.0, split_turn_rate=1.0)
            composer = Composer(recipe, dependency_graph("video_meeting"), bundles, config, random.Random(seed))
            for draft in (composer.draft() for _ in range(20)):
                if draft is None or len(draft.user_turns) < 2:
                    continue
                text = " ".join(draft.user_turns)
                titles = {m["title"] for b in bundles for m in b["meetings"] if m["status"] == "live"}
                for title in titles:
                    said = len(re.findall(rf"(?<!\w){re.escape(title)}(?!\w)", text))
                    if said:
                        checked += 1
                        assert said == 1, draft.user_turns
    assert checked >= 10


def test_a_terse_schedule_says_at_between_day_and_time():
    """Finding: 'Schedule "Offsite planning", Monday, May 11 11 am, an hour.' (two numbers run together,
    the day and the hour). The terse request puts "at" between the day and the time."""
    import re

    asks = _asks("schedule_meeting", seeds=(0, 1), n=60)
    assert len(asks) > 20
    for _, ask in asks:
        assert not re.search(r"\d (?:1[0-2]|[1-9])(?::\d\d)? [ap]m", ask.terse), ask.terse
        assert " at " in ask.terse, ask.terse


def test_an_end_request_does_not_sound_like_the_end_of_the_conversation():
    """Finding: "That's very helpful, thank you. We're done; please end the "Customer onboarding call" in
    progress for everyone." ("We're done" and "That's all for today", after an acknowledgement, read as the
    user closing the conversation, not the meeting)."""
    asks = _asks("end_meeting", seeds=(0, 1, 2), n=200)
    assert len(asks) > 20
    for _, ask in asks:
        assert not ask.say.startswith(("We're done", "That's all")), ask.say


def test_who_is_in_the_live_meeting_reads_the_whole_participant_list():
    """Finding (seed 155): "Who is in my "All-hands prep" meeting at the moment?" had the gold
    `list_participants(host_id, state="in_meeting")`, so a model that listed every participant and
    named those in the meeting (the waiting one apart) lost half the coverage. The gold reads the
    whole list, which a call with the state filter also matches, and the facts are the people in the
    state asked about."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    asks = _asks("list_participants", seeds=(0, 1, 2), n=80)
    assert len(asks) > 10
    states = set()
    toolkit, recipe = get_toolkit("video_meeting"), get_recipe("video_meeting")
    for _, ask in asks:
        assert set(ask.args) == {"host_id"}, ask.args
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        try:
            rng = random.Random(f"video_meeting people {seed}")
            for b in recipe.sample(Reader(toolkit, world), world.now, rng):
                if b["live"] is None or b["ending"]:
                    continue
                ask = next(g for g in recipe.goals if g.tool == "list_participants").build(b, rng)
                rows = Reader(toolkit, world)("list_participants", host_id=b["user"]["user_id"])
                state = "waiting" if "wait" in ask.say else "in_meeting"
                states.add(state)
                assert ask.facts(rows) == [p["name"] for p in rows if p["state"] == state], ask.say
        finally:
            world.close()
    assert "in_meeting" in states


def test_a_schedule_detail_does_not_ask_to_start_the_meeting():
    """Finding (seed 157): "Everyone is free on Monday, October 19 from 10 am, so start it then." (the
    time of a meeting being booked read as a request to start it, which start_meeting does). The detail
    of a new meeting's time never says "start it"."""
    asks = _asks("schedule_meeting", seeds=(0, 1, 2), n=200)
    assert len(asks) > 30
    for _, ask in asks:
        assert "start it" not in ask.detail.lower(), ask.detail
