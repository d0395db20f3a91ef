"""The smart-home server through real MCP: every tool's success path, every refusal (offline device,
missing capability, value out of range, wrong or expired code, all-or-nothing groups and scenes,
automations validated before saving) with the world unchanged after it, and the reward's outcome
rules played through the environment.

Entities are discovered through the tools; lock codes come from the hidden support tool, which the
`home` fixture includes.
"""

from __future__ import annotations

import datetime as dt

import pytest

from prove_env.runtime import run_sync


@pytest.fixture
def home(served):
    """A fresh seed-0 world, hidden tools included (for lock codes)."""
    return served("iot_devices", include_hidden=True)


# `Served.call(name, ...)` cannot pass a tool argument called `name` (add_lock_code, create_scene
# and create_automation have one); these call through the same client with any argument names.


def homes(s) -> list[dict]:
    return s.ok("find_homes", limit=100)


def devices(s) -> list[dict]:
    """Every device of every home, with its capabilities."""
    out = []
    for h in homes(s):
        for d in s.ok("list_devices", home_id=h["home_id"]):
            out.append({**d, "home_id": h["home_id"],
                        "capabilities": s.ok("get_device", device_id=d["device_id"])["capabilities"]})
    return out


def first(items, **where):
    for item in items:
        if all((v(item[k]) if callable(v) else item.get(k) == v) for k, v in where.items()):
            return item
    raise AssertionError(f"no item with {where} in the seed-0 world")


def device(s, device_id: str) -> dict:
    return s.ok("get_device", device_id=device_id)


def today(s) -> dt.date:
    return s.world.now.date()


# -- the server as a whole ----------------------------------------------------------------------


def test_tools_listed_and_codes_kept_from_the_agent(served):
    s = served("iot_devices")
    names = [t.name for t in run_sync(s.client.list_tools())]
    assert len(names) >= 25 and len(set(names)) == len(names)
    assert "reveal_lock_codes" not in names
    s.fails("reveal_lock_codes", "Unknown tool", device_id="DEV-0012")
    tools = {t.name: t for t in run_sync(s.client.list_tools())}
    for name in ("list_devices", "get_sensor_readings", "get_energy_summary", "list_lock_codes"):
        assert tools[name].annotations.read_only_hint is True
    for name in ("delete_scene", "delete_automation", "remove_lock_code"):
        assert tools[name].annotations.destructive_hint is True


def test_seed_world_has_the_variety_tasks_need(home):
    every = devices(home)
    assert {d["type"] for d in every} == {"light", "thermostat", "lock", "blind", "plug", "speaker", "camera", "sensor"}
    assert {d["sensor"] for d in every if d["type"] == "sensor"} == {"temperature", "humidity", "motion", "contact",
                                                                    "smoke"}
    assert 0 < sum(not d["online"] for d in every) < len(every) / 5
    assert any(d["type"] == "thermostat" and d["mode"] == "off" for d in every)
    assert any(d["type"] == "lock" and d["locked"] is False for d in every)
    counts = [len(home.ok("list_scenes", home_id=h["home_id"])) for h in homes(home)]
    assert 0 in counts and max(counts) >= 3
    assert len(home.world.rows("readings")) < 4000


# -- homes, rooms, devices ------------------------------------------------------------------------


def test_find_homes_and_rooms(home):
    everyone = homes(home)
    assert len(everyone) == 14 and len({h["owner_name"] for h in everyone}) == 14
    h = everyone[3]
    assert [x["home_id"] for x in home.ok("find_homes", owner_name=h["owner_name"].upper())] == [h["home_id"]]
    assert [x["home_id"] for x in home.ok("find_homes", email=h["email"].upper())] == [h["home_id"]]
    assert home.ok("find_homes", owner_name="zzzz nobody") == []
    rooms = home.ok("list_rooms", home_id=h["home_id"])
    assert {"Living room", "Kitchen", "Hallway"} <= {r["name"] for r in rooms}
    assert sum(r["devices"] for r in rooms) == len(home.ok("list_devices", home_id=h["home_id"]))


def test_list_devices_filters_and_get_device(home):
    h = homes(home)[0]
    everything = home.ok("list_devices", home_id=h["home_id"])
    assert [d["device_id"] for d in everything] == sorted(d["device_id"] for d in everything)
    lights = home.ok("list_devices", home_id=h["home_id"], type="light")
    assert lights and all(d["type"] == "light" for d in lights)
    offline = home.ok("list_devices", home_id=h["home_id"], status="offline")
    assert offline and all(not d["online"] for d in offline)
    kitchen = first(home.ok("list_rooms", home_id=h["home_id"]), name="Kitchen")
    in_kitchen = home.ok("list_devices", home_id=h["home_id"], room_id=kitchen["room_id"])
    assert len(in_kitchen) == kitchen["devices"] and all(d["room"] == "Kitchen" for d in in_kitchen)
    elsewhere = first(home.ok("list_rooms", home_id=homes(home)[1]["home_id"]), name="Kitchen")
    home.fails("list_devices", "is not in home", home_id=h["home_id"], room_id=elsewhere["room_id"])
    thermostat = device(home, first(everything, type="thermostat")["device_id"])
    assert thermostat["temperature_range"][0] < thermostat["temperature_range"][1]
    assert "off" in thermostat["supported_modes"] and thermostat["capabilities"] == ["hvac", "temperature"]


# -- commands ---------------------------------------------------------------------------------------


def test_turn_on_and_off_and_the_gates(home):
    every = devices(home)
    lamp = first(every, type="light", online=True, is_on=False)
    assert home.ok("turn_on", device_id=lamp["device_id"])["is_on"] is True
    assert home.ok("turn_off", device_id=lamp["device_id"])["is_on"] is False
    plug = first(every, type="plug", online=True, is_on=True)
    off = home.ok("turn_off", device_id=plug["device_id"])
    assert off["is_on"] is False and off["power_w"] == 0
    dead = first(every, online=False, capabilities=lambda c: "on_off" in c)
    home.fails("turn_on", "is offline", device_id=dead["device_id"])
    thermostat = first(every, type="thermostat", online=True)
    home.fails("turn_on", "without support for turning on and off", device_id=thermostat["device_id"])
    sensor = first(every, type="sensor", online=True)
    home.fails("turn_off", "without support", device_id=sensor["device_id"])
    thermometer = first(every, type="sensor", sensor="temperature", online=True)  # measures, takes no set point
    home.fails("set_temperature", "temperature sensor without support for set points",
              device_id=thermometer["device_id"], temperature=70)


def test_set_brightness(home):
    every = devices(home)
    light = first(every, type="light", online=True, is_on=False, capabilities=lambda c: "brightness" in c)
    done = home.ok("set_brightness", device_id=light["device_id"], brightness=35)
    assert done["brightness"] == 35 and done["is_on"] is True
    home.fails("set_brightness", "from 1 to 100", device_id=light["device_id"], brightness=0)
    home.fails("set_brightness", "from 1 to 100", device_id=light["device_id"], brightness=150)
    plain = first(every, type="light", online=True, capabilities=["on_off"])
    home.fails("set_brightness", "without support for brightness", device_id=plain["device_id"], brightness=50)


def test_set_color_temperature_and_color(home):
    every = devices(home)
    tunable = first(every, type="light", online=True, capabilities=lambda c: "color_temp" in c and "color" not in c)
    low, high = device(home, tunable["device_id"])["kelvin_range"]
    assert home.ok("set_color_temperature", device_id=tunable["device_id"], kelvin=low)["color_temp"] == low
    home.fails("set_color_temperature", f"from {low} K to {high} K", device_id=tunable["device_id"],
              kelvin=high + 100)
    home.fails("set_color", "without support for colour", device_id=tunable["device_id"], color="blue")
    colour = first(every, type="light", online=True, capabilities=lambda c: "color" in c)
    done = home.ok("set_color", device_id=colour["device_id"], color="purple")
    assert done["color"] == "purple" and done["is_on"] is True
    home.fails("set_color", "Invalid arguments", device_id=colour["device_id"], color="beige")


def test_thermostat_mode_and_set_points(home):
    every = devices(home)
    idle = first(every, type="thermostat", online=True, mode="off")
    info = device(home, idle["device_id"])
    home.fails("set_temperature", "set its mode to heat, cool or auto first", device_id=idle["device_id"],
              temperature=68)
    assert home.ok("set_thermostat_mode", device_id=idle["device_id"], mode="heat")["mode"] == "heat"
    assert home.ok("set_temperature", device_id=idle["device_id"], temperature=68.3)["target_temp"] == 68.5
    low, high = info["temperature_range"]
    home.fails("set_temperature", f"from {low:g} to {high:g}", device_id=idle["device_id"], temperature=high + 5)
    if "cool" not in info["supported_modes"]:
        home.fails("set_thermostat_mode", "does not support the mode 'cool'", device_id=idle["device_id"],
                  mode="cool")
    heat_only = first(every, type="thermostat", online=True,
                      device_id=lambda i: device(home, i)["supported_modes"] == ["off", "heat"])
    home.fails("set_thermostat_mode", "its modes are off, heat", device_id=heat_only["device_id"], mode="cool")
    light = first(every, type="light", online=True)
    home.fails("set_temperature", "without support for set points", device_id=light["device_id"], temperature=70)


def test_blinds_and_volume(home):
    every = devices(home)
    blind = first(every, type="blind", online=True)
    assert home.ok("set_blind_position", device_id=blind["device_id"], position=50)["position"] == 50
    home.fails("set_blind_position", "from 0 to 100", device_id=blind["device_id"], position=120)
    dead = first(every, type="blind", online=False)
    home.fails("set_blind_position", "is offline", device_id=dead["device_id"], position=0)
    speaker = first(every, type="speaker", online=True)
    assert home.ok("set_volume", device_id=speaker["device_id"], volume=0)["volume"] == 0
    home.fails("set_volume", "from 0 to 100", device_id=speaker["device_id"], volume=-5)
    home.fails("set_volume", "without support for volume", device_id=blind["device_id"], volume=10)


# -- locks --------------------------------------------------------------------------------------------


def codes(s, lock_id: str) -> list[dict]:
    return s.ok("reveal_lock_codes", device_id=lock_id)


def test_lock_and_unlock_with_codes(home):
    every = devices(home)
    lock = first(every, type="lock", online=True, locked=True,
                 device_id=lambda i: any(c["status"] == "expired" for c in codes(home, i)))
    held = codes(home, lock["device_id"])
    active = first(held, status="active")
    expired = first(held, status="expired")
    home.fails("unlock_door", "Incorrect code", device_id=lock["device_id"], code="0000000")
    home.fails("unlock_door", "expired on", device_id=lock["device_id"], code=expired["code"])
    opened = home.ok("unlock_door", device_id=lock["device_id"], code=active["code"])
    assert opened["locked"] is False and opened["unlocked_with"] == active["name"]
    assert home.ok("lock_door", device_id=lock["device_id"])["locked"] is True
    dead = first(every, type="lock", online=False)
    owner = codes(home, dead["device_id"])[0]
    home.fails("unlock_door", "is offline", device_id=dead["device_id"], code=owner["code"])
    home.fails("lock_door", "is offline", device_id=dead["device_id"])
    light = first(every, type="light", online=True)
    home.fails("lock_door", "without support for locking", device_id=light["device_id"])


def test_set_auto_lock(home):
    lock = first(devices(home), type="lock", online=True)
    done = home.ok("set_auto_lock", device_id=lock["device_id"], minutes=5)
    assert done["auto_lock_minutes"] == 5 and device(home, lock["device_id"])["auto_lock_minutes"] == 5
    assert home.ok("set_auto_lock", device_id=lock["device_id"], minutes=0)["auto_lock"] is False
    home.fails("set_auto_lock", "0 (off) or 1 to 60", device_id=lock["device_id"], minutes=90)


def test_lock_codes_listed_added_and_removed(home):
    every = devices(home)
    lock = first(every, type="lock", online=True)
    listed = home.ok("list_lock_codes", device_id=lock["device_id"])
    assert listed and all("code" not in c for c in listed)
    assert [c["code_id"] for c in listed] == [c["code_id"] for c in codes(home, lock["device_id"])]
    until = (today(home) + dt.timedelta(days=10)).isoformat()
    added = home.ok("add_lock_code", device_id=lock["device_id"], name="Pet sitter", code="246810", expires_on=until)
    assert added["status"] == "active" and added["expires_at"].startswith(until)
    assert home.ok("unlock_door", device_id=lock["device_id"], code="246810")["unlocked_with"] == "Pet sitter"
    args = dict(device_id=lock["device_id"])
    home.fails("add_lock_code", "already has a code named", name="pet SITTER", code="13579", **args)
    home.fails("add_lock_code", "already uses that code", name="Friend", code="246810", **args)
    home.fails("add_lock_code", "4 to 8 digits", name="Friend", code="12a4", **args)
    home.fails("add_lock_code", "after today", name="Friend", code="97531", expires_on=today(home).isoformat(),
              **args)
    light = first(every, type="light")
    home.fails("add_lock_code", "not a lock", device_id=light["device_id"], name="Friend", code="97531")
    dead = first(every, type="lock", online=False)
    home.fails("add_lock_code", "is offline", device_id=dead["device_id"], name="Friend", code="97531")
    removed = home.ok("remove_lock_code", code_id=added["code_id"])
    assert removed == {"code_id": added["code_id"], "device_id": lock["device_id"], "name": "Pet sitter",
                       "removed": True}
    home.fails("unlock_door", "Incorrect code", device_id=lock["device_id"], code="246810")
    dead_code = home.ok("list_lock_codes", device_id=dead["device_id"])[0]
    home.fails("remove_lock_code", "is offline", code_id=dead_code["code_id"])


def test_a_lock_holds_at_most_ten_codes(home):
    lock = first(devices(home), type="lock", online=True)
    held = len(home.ok("list_lock_codes", device_id=lock["device_id"]))
    for i in range(10 - held):
        home.ok("add_lock_code", device_id=lock["device_id"], name=f"Friend {i}", code=f"{5550 + i}11")
    home.fails("add_lock_code", "the most it can", device_id=lock["device_id"], name="One more", code="99887766")


# -- history and summaries ----------------------------------------------------------------------------


def test_sensor_readings_newest_first_up_to_now(home):
    every = devices(home)
    sensor = first(every, type="sensor", sensor="temperature", online=True)
    latest = home.ok("get_sensor_readings", device_id=sensor["device_id"], limit=3)
    assert latest["unit"] == "degrees F" and len(latest["readings"]) == 3
    stamps = [r["at"] for r in latest["readings"]]
    assert stamps == sorted(stamps, reverse=True) and latest["readings"][0]["value"] == sensor["value"]
    assert max(stamps) <= home.world.now.isoformat()
    day = (today(home) - dt.timedelta(days=2)).isoformat()
    window = home.ok("get_sensor_readings", device_id=sensor["device_id"], start=f"{day}T00:00:00",
                     end=f"{day}T23:59:00", limit=100)["readings"]
    assert window and all(r["at"].startswith(day) for r in window)
    home.fails("get_sensor_readings", "is after", device_id=sensor["device_id"], start=f"{day}T10:00:00",
          end=f"{day}T09:00:00")
    lamp = first(every, type="light")
    home.fails("get_sensor_readings", "keeps no reading history", device_id=lamp["device_id"])


def test_reading_summaries(home):
    every = devices(home)
    start, end = today(home) - dt.timedelta(days=3), today(home) - dt.timedelta(days=1)
    span = dict(start_date=start.isoformat(), end_date=end.isoformat())
    sensor = first(every, type="sensor", sensor="humidity", online=True)
    history = home.ok("get_sensor_readings", device_id=sensor["device_id"], start=f"{start}T00:00:00",
                      end=f"{end}T23:59:59", limit=100)["readings"]
    summary = home.ok("get_reading_summary", device_id=sensor["device_id"], **span)
    values = [r["value"] for r in history]
    assert summary["readings"] == len(values) and summary["highest"] == max(values)
    assert summary["lowest"] == min(values) and summary["average"] == round(sum(values) / len(values), 1)
    motion = first(every, type="sensor", sensor="motion")
    events = home.ok("get_reading_summary", device_id=motion["device_id"], **span)
    assert events["events"] == events["readings"]
    plug = first(every, type="plug")
    kwh = home.ok("get_reading_summary", device_id=plug["device_id"], **span)
    assert kwh["readings"] == 3 and kwh["total_kwh"] > 0
    home.fails("get_reading_summary", "in the future", device_id=plug["device_id"], start_date=start.isoformat(),
          end_date=(today(home) + dt.timedelta(days=1)).isoformat())
    home.fails("get_reading_summary", "is after", device_id=plug["device_id"], start_date=end.isoformat(),
          end_date=start.isoformat())
    home.fails("get_reading_summary", "keeps no reading history", device_id=first(every, type="lock")["device_id"],
          **span)


def test_energy_summary_adds_up_the_plugs(home):
    h = homes(home)[2]
    start, end = today(home) - dt.timedelta(days=7), today(home) - dt.timedelta(days=1)
    span = dict(start_date=start.isoformat(), end_date=end.isoformat())
    summary = home.ok("get_energy_summary", home_id=h["home_id"], **span)
    plugs = home.ok("list_devices", home_id=h["home_id"], type="plug")
    assert {d["device_id"] for d in summary["devices"]} == {p["device_id"] for p in plugs}
    each = {p["device_id"]: home.ok("get_reading_summary", device_id=p["device_id"], **span)["total_kwh"]
            for p in plugs}
    assert all(d["kwh"] == each[d["device_id"]] for d in summary["devices"])
    assert [d["kwh"] for d in summary["devices"]] == sorted(each.values(), reverse=True)
    assert summary["total_kwh"] == round(sum(each.values()), 2)
    home.fails("get_energy_summary", "in the future", home_id=h["home_id"], start_date=start.isoformat(),
          end_date=(today(home) + dt.timedelta(days=3)).isoformat())


# -- groups and scenes: all or nothing -----------------------------------------------------------------


def all_groups(s) -> list[dict]:
    return [g for h in homes(s) for g in s.ok("list_groups", home_id=h["home_id"])]


def all_scenes(s) -> list[dict]:
    return [x for h in homes(s) for x in s.ok("list_scenes", home_id=h["home_id"])]


def test_switch_group_all_or_nothing(home):
    groups = all_groups(home)
    ready = first(groups, devices=lambda ms: all(m["online"] for m in ms) and any(not m["is_on"] for m in ms))
    done = home.ok("switch_group", group_id=ready["group_id"], state="on")
    assert done["switched"] == "on" and all(m["is_on"] for m in done["devices"])
    assert all(device(home, m["device_id"])["is_on"] for m in ready["devices"])
    broken = first(groups, devices=lambda ms: any(not m["online"] for m in ms))
    dead = first(broken["devices"], online=False)
    text = home.fails("switch_group", "nothing was changed", group_id=broken["group_id"], state="off")
    assert dead["name"] in text and dead["device_id"] in text and "offline" in text


def test_activate_scene_all_or_nothing(home):
    every = {d["device_id"]: d for d in devices(home)}
    scenes = all_scenes(home)
    good = first(scenes, actions=lambda acts: all(every[a["device_id"]]["online"] for a in acts)
                 and any(a["command"] == "set_temperature" for a in acts))
    done = home.ok("activate_scene", scene_id=good["scene_id"])
    assert done["activated"] is True and done["last_activated"] == home.world.now.isoformat(timespec="minutes")
    for action in good["actions"]:
        state = device(home, action["device_id"])
        if action["command"] == "turn_off":
            assert state["is_on"] is False
        elif action["command"] == "lock":
            assert state["locked"] is True
        elif action["command"] == "set_temperature":
            assert state["target_temp"] == action["value"]
    # a scene whose lock is offline is refused whole, naming the lock
    blocked = first(scenes, actions=lambda acts: any(every[a["device_id"]]["type"] == "lock"
                                                     and not every[a["device_id"]]["online"] for a in acts))
    lock = next(every[a["device_id"]] for a in blocked["actions"] if every[a["device_id"]]["type"] == "lock")
    text = home.fails("activate_scene", "was not activated; nothing was changed", scene_id=blocked["scene_id"])
    assert f"{lock['name']} ({lock['device_id']}) is offline" in text


def test_create_scene_from_present_state_and_delete(home):
    h = homes(home)[1]
    listed = home.ok("list_devices", home_id=h["home_id"])
    lamp = first(listed, type="light", online=True)
    blind = first(listed, type="blind", online=True)
    home.ok("set_brightness", device_id=lamp["device_id"], brightness=30)
    home.ok("set_blind_position", device_id=blind["device_id"], position=25)
    scene = home.ok("create_scene", home_id=h["home_id"], name="Reading time",
               device_ids=[lamp["device_id"], blind["device_id"]])
    commands = [(a["device_id"], a["command"], a["value"]) for a in scene["actions"]]
    assert (lamp["device_id"], "set_brightness", 30) in commands and (blind["device_id"], "set_position", 25) in commands
    assert scene in home.ok("list_scenes", home_id=h["home_id"])
    home.ok("turn_off", device_id=lamp["device_id"])
    home.ok("set_blind_position", device_id=blind["device_id"], position=100)
    home.ok("activate_scene", scene_id=scene["scene_id"])
    assert device(home, lamp["device_id"])["brightness"] == 30 and device(home, lamp["device_id"])["is_on"]
    assert device(home, blind["device_id"])["position"] == 25

    hid = h["home_id"]
    home.fails("create_scene", "already has a scene named", home_id=hid, name="reading TIME",
              device_ids=[lamp["device_id"]])
    sensor = first(listed, type="sensor", online=True)
    home.fails("create_scene", "no state a scene can set", home_id=hid, name="Sensing",
              device_ids=[sensor["device_id"]])
    dead = first(listed, online=False)
    home.fails("create_scene", "cannot be captured", home_id=hid, name="Broken", device_ids=[dead["device_id"]])
    lock = first(listed, type="lock", online=True)
    unlocked = home.ok("list_lock_codes", device_id=lock["device_id"])  # noqa: F841 - the lock is known to be online
    home.ok("unlock_door", device_id=lock["device_id"], code=codes(home, lock["device_id"])[0]["code"])
    home.fails("create_scene", "never unlock", home_id=hid, name="Open house", device_ids=[lock["device_id"]])
    other = first(devices(home), home_id=lambda x: x != hid)
    home.fails("create_scene", "is not in home", home_id=hid, name="Elsewhere", device_ids=[other["device_id"]])
    home.fails("create_scene", "at least one device", home_id=hid, name="Empty", device_ids=[])

    gone = home.ok("delete_scene", scene_id=scene["scene_id"])
    assert gone == {"scene_id": scene["scene_id"], "name": "Reading time", "deleted": True}
    assert device(home, lamp["device_id"])["brightness"] == 30
    home.fails("activate_scene", "not found", scene_id=scene["scene_id"])


# -- automations -----------------------------------------------------------------------------------------


def test_list_and_toggle_automations(home):
    h = next(h for h in homes(home) if len(home.ok("list_automations", home_id=h["home_id"])) >= 2)
    every = home.ok("list_automations", home_id=h["home_id"])
    on = home.ok("list_automations", home_id=h["home_id"], enabled=True)
    off = home.ok("list_automations", home_id=h["home_id"], enabled=False)
    assert len(on) + len(off) == len(every) and all(a["enabled"] for a in on)
    target = next(a for a in every if a["enabled"] and a["trigger"] == "time")
    flipped = home.ok("set_automation_enabled", automation_id=target["automation_id"], enabled=False)
    rest = {k: v for k, v in target.items() if k != "next_run"}
    assert flipped == {**rest, "enabled": False, "disabled_at": home.world.now.isoformat(timespec="minutes")}
    assert home.same("set_automation_enabled", automation_id=target["automation_id"], enabled=False) == flipped
    gone = home.ok("delete_automation", automation_id=target["automation_id"])
    assert gone == {"automation_id": target["automation_id"], "name": target["name"], "deleted": True}
    assert target["automation_id"] not in [a["automation_id"] for a in
                                           home.ok("list_automations", home_id=h["home_id"])]


def _runs(s, home_id: str, **filters) -> list[dict]:
    return s.ok("list_automation_runs", home_id=home_id, limit=100, **filters)


def _automations(s) -> list[dict]:
    return [a for h in homes(s) for a in s.ok("list_automations", home_id=h["home_id"])]


def test_time_automations_fired_each_day_the_clock_passed_their_time(home):
    now = home.world.now
    kept = now - dt.timedelta(days=10)
    timed = [a for a in _automations(home) if a["trigger"] == "time" and a["enabled"]]
    assert len(timed) >= 10
    for a in timed:
        hour, minute = map(int, a["at_time"].split(":"))
        due, day = [], kept.date()
        while day <= now.date():
            at = dt.datetime.combine(day, dt.time(hour, minute))
            if kept < at <= now:
                due.append(at)
            day += dt.timedelta(days=1)
        runs = _runs(home, a["home_id"], automation_id=a["automation_id"])
        assert sorted(dt.datetime.fromisoformat(r["at"]) for r in runs) == due, a["name"]
        assert {r["cause"] for r in runs} == {"time"}
        assert a["last_triggered"] == runs[0]["at"]
        next_run = dt.datetime.fromisoformat(a["next_run"])
        assert now < next_run <= now + dt.timedelta(days=1) and next_run.strftime("%H:%M") == a["at_time"]


def test_sensor_automations_fired_on_the_readings_that_crossed_their_threshold(home):
    checked = 0
    for a in _automations(home):
        if a["trigger"] not in ("above", "below", "motion") or not a["enabled"]:
            continue
        readings = sorted((r["at"], r["value"]) for r in
                          home.ok("get_sensor_readings", device_id=a["sensor_id"], limit=100)["readings"])
        kept = (home.world.now - dt.timedelta(days=10)).isoformat(timespec="minutes")
        due = []
        for (_, before), (at, value) in zip([(None, None)] + readings, readings):
            if a["trigger"] == "motion":
                fired = value >= 1
            elif a["trigger"] == "above":
                fired = before is not None and before <= a["threshold"] < value
            else:
                fired = before is not None and before >= a["threshold"] > value
            if fired and at > kept:
                due.append(at)
        runs = _runs(home, a["home_id"], automation_id=a["automation_id"])
        assert sorted(r["at"] for r in runs) == due, a["name"]
        assert {r["cause"] for r in runs} <= {"motion" if a["trigger"] == "motion" else "sensor"}
        checked += bool(due)
    assert checked >= 5


def test_a_run_says_so_in_each_device_history_and_a_failed_one_changed_nothing(home):
    every = _automations(home)
    failed = [r for h in homes(home) for r in _runs(home, h["home_id"], status="failed")]
    assert failed and all("offline" in r["detail"] or "took no set point" in r["detail"] for r in failed)
    assert all(r["devices"] == [] for r in failed)
    lock_up = next(a for a in every if a["automation_id"] == failed[0]["automation_id"])
    lock = lock_up["devices"][0]
    assert not device(home, lock["device_id"])["online"]
    history = home.ok("get_device_history", device_id=lock["device_id"], limit=100)["history"]
    assert all(e["at"] < min(r["at"] for r in failed if r["automation_id"] == lock_up["automation_id"])
               for e in history)
    lights_out = next(a for a in every if a["name"] == "Lights out" and a["enabled"] and len(a["devices"]) >= 3)
    done = _runs(home, lights_out["home_id"], automation_id=lights_out["automation_id"], status="done")
    assert done and all(r["devices"] == lights_out["devices"] for r in done)
    for target in lights_out["devices"]:
        history = home.ok("get_device_history", device_id=target["device_id"], limit=100)["history"]
        mine = [e for e in history if e["automation_id"] == lights_out["automation_id"]]
        assert [e["at"] for e in mine] == [r["at"] for r in done]
        assert all(e["command"] == "turn_off" and e["automation"] == "Lights out" and e["cause"] == "time"
                   for e in mine)
    first_day = done[-1]["at"]
    window = home.ok("get_device_history", device_id=lights_out["devices"][0]["device_id"], start=first_day,
                     end=first_day)["history"]
    assert [e["run_id"] for e in window] == [done[-1]["run_id"]]
    home.fails("get_device_history", "is after", device_id=lock["device_id"], start="2026-01-05T00:00:00",
               end="2026-01-04T00:00:00")


def test_list_automation_runs_filters(home):
    h = next(h for h in homes(home) if _runs(home, h["home_id"], status="failed"))
    every = _runs(home, h["home_id"])
    assert [r["at"] for r in every] == sorted((r["at"] for r in every), reverse=True)
    failed = _runs(home, h["home_id"], status="failed")
    assert failed == [r for r in every if r["status"] == "failed"]
    day = failed[0]["at"][:10]
    that_day = _runs(home, h["home_id"], start=f"{day}T00:00:00", end=f"{day}T23:59:00")
    assert that_day == [r for r in every if r["at"].startswith(day)]
    assert len(home.ok("list_automation_runs", home_id=h["home_id"], limit=2)) == 2
    other = next(x for x in homes(home) if x["home_id"] != h["home_id"]
                 and home.ok("list_automations", home_id=x["home_id"]))
    stranger = home.ok("list_automations", home_id=other["home_id"])[0]
    home.fails("list_automation_runs", "is not in home", home_id=h["home_id"],
               automation_id=stranger["automation_id"])
    home.fails("list_automation_runs", "is after", home_id=h["home_id"], start="2026-01-05T00:00:00",
               end="2026-01-01T00:00:00")


def test_run_an_automation_by_hand(home):
    every = _automations(home)
    lights_out = next(a for a in every if a["name"] == "Lights out" and a["enabled"]
                      and all(device(home, d["device_id"])["online"] for d in a["devices"]))
    before = _runs(home, lights_out["home_id"])
    home.ok("turn_on", device_id=lights_out["devices"][0]["device_id"])
    ran = home.ok("run_automation", automation_id=lights_out["automation_id"])
    now = home.world.now.isoformat(timespec="minutes")
    assert ran["last_triggered"] == now and ran["run"]["cause"] == "manual" and ran["run"]["status"] == "done"
    assert ran["run"]["devices"] == lights_out["devices"]
    assert all(d["is_on"] is False for d in ran["device_states"])
    assert all(device(home, d["device_id"])["is_on"] is False for d in lights_out["devices"])
    after = _runs(home, lights_out["home_id"])
    assert after[0] == ran["run"] and after[1:] == before
    history = home.ok("get_device_history", device_id=lights_out["devices"][0]["device_id"], limit=1)["history"]
    assert history == [{"at": now, "command": "turn_off", "value": None, "automation": "Lights out",
                        "automation_id": lights_out["automation_id"], "run_id": ran["run"]["run_id"],
                        "cause": "manual"}]
    # each press is a run of its own
    again = home.ok("run_automation", automation_id=lights_out["automation_id"])
    assert again["run"]["run_id"] != ran["run"]["run_id"]


def test_run_automation_is_all_or_nothing_and_needs_it_enabled(home):
    every = _automations(home)
    offline = next(a for a in every if a["enabled"] and
                   any(not device(home, d["device_id"])["online"] for d in a["devices"]))
    home.fails("run_automation", "nothing was changed", automation_id=offline["automation_id"])
    home.fails("run_automation", "offline", automation_id=offline["automation_id"])
    cold = next(a for a in every if a["enabled"] and a["command"] == "set_temperature"
                and device(home, a["devices"][0]["device_id"])["mode"] == "off")
    home.fails("run_automation", "set its mode to heat, cool or auto first", automation_id=cold["automation_id"])
    paused = next(a for a in every if not a["enabled"]
                  and all(device(home, d["device_id"])["online"] for d in a["devices"]))
    assert "next_run" not in paused and paused["disabled_at"] < home.world.now.isoformat()
    runs = _runs(home, paused["home_id"], automation_id=paused["automation_id"])
    assert all(r["at"] <= paused["disabled_at"] for r in runs)
    home.fails("run_automation", "enable it with set_automation_enabled first", automation_id=paused["automation_id"])
    # enabling again replays none of the triggers it missed
    enabled = home.ok("set_automation_enabled", automation_id=paused["automation_id"], enabled=True)
    assert "disabled_at" not in enabled
    assert _runs(home, paused["home_id"], automation_id=paused["automation_id"]) == runs
    ran = home.ok("run_automation", automation_id=paused["automation_id"])
    assert ran["run"]["cause"] == "manual"


def test_deleting_an_automation_keeps_its_runs_in_the_log(home):
    a = next(a for a in _automations(home) if a["name"] == "Lights out" and a["last_triggered"])
    runs = _runs(home, a["home_id"], automation_id=a["automation_id"])
    home.ok("delete_automation", automation_id=a["automation_id"])
    kept = [r for r in _runs(home, a["home_id"]) if r["run_id"] in {x["run_id"] for x in runs}]
    assert kept == [{**r, "automation_id": None} for r in runs]
    history = home.ok("get_device_history", device_id=a["devices"][0]["device_id"], limit=100)["history"]
    assert any(e["automation"] == "Lights out" and e["automation_id"] is None for e in history)


def test_a_missed_trigger_or_a_run_after_disabling_breaks_the_rules(served):
    s = served("iot_devices")
    assert s.world.violations() == []
    connection = s.world.connection
    (run, automation) = connection.execute("SELECT r.id, r.automation_id FROM automation_runs r JOIN automations a "
                                           "ON a.id = r.automation_id WHERE a.enabled AND r.cause = 'time' "
                                           "AND r.status = 'failed' ORDER BY r.at LIMIT 1").fetchone()
    connection.execute("DELETE FROM automation_runs WHERE id = ?", (run,))
    assert any(automation in p and "has no run" in p for p in s.world.violations())
    s = served("iot_devices")
    (automation, switched) = s.world.connection.execute(
        "SELECT id, switched_at FROM automations WHERE NOT enabled ORDER BY id LIMIT 1").fetchone()
    s.world.connection.execute("UPDATE automation_runs SET at = ? WHERE id = (SELECT id FROM automation_runs WHERE "
                               "automation_id = ? ORDER BY at DESC LIMIT 1)",
                               (s.world.now.isoformat(sep=" "), automation))
    assert any(automation in p and "after it was disabled" in p for p in s.world.violations())


def test_create_automation_validated_before_saving(home):
    h = homes(home)[0]
    hid = h["home_id"]
    listed = home.ok("list_devices", home_id=hid)
    porch = first(listed, type="light")
    humid = first(listed, type="sensor", sensor="humidity")
    temp = first(listed, type="sensor", sensor="temperature")
    motion = first(listed, type="sensor", sensor="motion")
    plug = first(listed, type="plug")
    thermostat = first(listed, type="thermostat")
    lock = first(listed, type="lock")
    timed = home.ok("create_automation", home_id=hid, name="Evening light", trigger="time", at_time="19:30",
               command="set_brightness", value=60, device_ids=[porch["device_id"]])
    assert timed["enabled"] and timed["at_time"] == "19:30" and timed["value"] == 60
    assert timed in home.ok("list_automations", home_id=hid)
    humid_rule = home.ok("create_automation", home_id=hid, name="Fan when humid", trigger="above",
                    sensor_id=humid["device_id"], threshold=65, command="turn_on", device_ids=[plug["device_id"]])
    assert humid_rule["threshold"] == 65 and humid_rule["devices"][0]["device_id"] == plug["device_id"]
    home.ok("create_automation", home_id=hid, name="Night lock", trigger="motion", sensor_id=motion["device_id"],
       command="lock", device_ids=[lock["device_id"]])  # offline targets may be saved: they are reached when online

    base = dict(home_id=hid, name="Rule")
    light = [porch["device_id"]]
    home.fails("create_automation", "already has a automation named", home_id=hid, name="evening LIGHT",
              trigger="time", at_time="20:00", command="turn_on", device_ids=light)
    home.fails("create_automation", "needs at_time", trigger="time", command="turn_on", device_ids=light, **base)
    home.fails("create_automation", "needs at_time", trigger="time", at_time="25:00", command="turn_on",
              device_ids=light, **base)
    home.fails("create_automation", "needs sensor_id", trigger="above", threshold=70, command="turn_on",
              device_ids=light, **base)
    home.fails("create_automation", "needs a threshold", trigger="below", sensor_id=temp["device_id"],
              command="turn_on", device_ids=light, **base)
    home.fails("create_automation", "between 0 and 100", trigger="above", sensor_id=humid["device_id"],
              threshold=120, command="turn_on", device_ids=light, **base)
    home.fails("create_automation", "needs a temperature or humidity sensor", trigger="above",
              sensor_id=motion["device_id"], threshold=70, command="turn_on", device_ids=light, **base)
    home.fails("create_automation", "needs a motion sensor", trigger="motion", sensor_id=temp["device_id"],
              command="turn_on", device_ids=light, **base)
    home.fails("create_automation", "takes no at_time", trigger="motion", sensor_id=motion["device_id"],
              at_time="10:00", command="turn_on", device_ids=light, **base)
    home.fails("create_automation", "without support for colour temperature", trigger="time", at_time="07:00",
              command="set_color_temperature", value=3000, device_ids=[plug["device_id"]], **base)
    home.fails("create_automation", "from 1 to 100", trigger="time", at_time="07:00", command="set_brightness",
              value=300, device_ids=light, **base)
    home.fails("create_automation", "needs a value", trigger="time", at_time="07:00", command="set_temperature",
              device_ids=[thermostat["device_id"]], **base)
    home.fails("create_automation", "takes no value", trigger="time", at_time="07:00", command="turn_on",
              value=5, device_ids=light, **base)
    home.fails("create_automation", "takes no sensor_id or threshold", trigger="time", at_time="07:00",
              sensor_id=temp["device_id"], command="turn_on", device_ids=light, **base)
    home.fails("create_automation", "takes no threshold", trigger="motion", sensor_id=motion["device_id"],
              threshold=3, command="turn_on", device_ids=light, **base)
    home.fails("create_automation", "cannot also be its target", trigger="motion", sensor_id=motion["device_id"],
              command="turn_on", device_ids=[motion["device_id"]], **base)
    other = homes(home)[1]
    stranger = first(home.ok("list_devices", home_id=other["home_id"]), type="light")
    home.fails("create_automation", "is not in home", trigger="time", at_time="07:00", command="turn_on",
              device_ids=[stranger["device_id"]], **base)
    home.fails("create_automation", "Invalid arguments", trigger="time", at_time="07:00", command="unlock",
              device_ids=[lock["device_id"]], **base)


def test_invariants_hold_after_a_run_of_commands(home):
    every = devices(home)
    light = first(every, type="light", online=True, capabilities=lambda c: "color_temp" in c)
    home.ok("set_brightness", device_id=light["device_id"], brightness=100)
    home.ok("set_color_temperature", device_id=light["device_id"], kelvin=device(home, light["device_id"])
            ["kelvin_range"][1])
    home.fails("set_brightness", "from 1 to 100", device_id=light["device_id"], brightness=101)
    assert home.world.toolkit(home.world).invariants() == []


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------------


def _call(tool: str, /, **arguments) -> dict:
    return {"name": tool, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play):
    from prove_env.task import Task

    battery = Task(id="battery", server="iot_devices", seed=0,
                   user_turns=["Hi, this is Megan Chang. How much battery does my front door lock have left?"],
                   gold=[[{"id": "g1", "name": "find_homes", "arguments": {"owner_name": "Megan Chang"}},
                          {"id": "g2", "name": "list_devices", "arguments": {"home_id": "HOM-0001"},
                           "depends_on": ["g1"]},
                          {"id": "g3", "name": "get_device", "arguments": {"device_id": "DEV-0012"},
                           "depends_on": ["g2"]}]],
                   facts=[[6]])
    # another correct path: the lock list already shows the battery, found by email
    other = play(battery, [_call("find_homes", email="MEGAN.CHANG51@icloud.com"),
                           _call("list_devices", home_id="HOM-0001", type="lock"), "It is at 6%."])
    assert other["success"] and other["reward_breakdown"]["coverage"] < 1
    assert not play(battery, [_call("get_device", device_id="DEV-0012"), "It's nearly full."])["success"]
    # the right answer, then damage nobody asked for: a light switched on
    damage = play(battery, [_call("get_device", device_id="DEV-0012"), _call("turn_on", device_id="DEV-0001"),
                            "It is at 6%."])
    assert not damage["success"]

    dim = Task(id="dim", server="iot_devices", seed=0,
               user_turns=["This is Megan Chang. Put the living room ceiling light at 30%."],
               gold=[[{"id": "g1", "name": "find_homes", "arguments": {"owner_name": "Megan Chang"}},
                      {"id": "g2", "name": "list_devices", "arguments": {"home_id": "HOM-0001"},
                       "depends_on": ["g1"]},
                      {"id": "g3", "name": "set_brightness", "arguments": {"device_id": "DEV-0001", "brightness": 30},
                       "depends_on": ["g2"]}]])
    # turning the light on first is harmless: the end state is the same
    detour = play(dim, [_call("turn_on", device_id="DEV-0001"),
                        _call("set_brightness", device_id="DEV-0001", brightness=30), "Done."])
    assert detour["success"]
    wrong = play(dim, [_call("set_brightness", device_id="DEV-0001", brightness=40), "Done."])
    assert not wrong["success"]


def test_an_unspecified_lock_code_expiry_is_not_tolerated_but_a_refusal_is_harmless(play):
    from prove_env.task import Task

    code = Task(id="code", server="iot_devices", seed=0,
                user_turns=["I'm Tammy Howard. Add code 5150 for the Dog walker on my front door lock."],
                gold=[[{"id": "g1", "name": "find_homes", "arguments": {"owner_name": "Tammy Howard"}},
                       {"id": "g2", "name": "list_devices", "arguments": {"home_id": "HOM-0002"},
                        "depends_on": ["g1"]},
                       {"id": "g3", "name": "add_lock_code", "depends_on": ["g2"],
                        "arguments": {"device_id": "DEV-0031", "name": "Dog walker", "code": "5150"}}]])
    straight = play(code, [_call("add_lock_code", device_id="DEV-0031", name="Dog walker", code="5150"), "Added."])
    assert straight["success"]
    # a refused call first (wrong lock type) changes nothing, so the outcome still counts
    retry = play(code, [_call("add_lock_code", device_id="DEV-0029", name="Dog walker", code="5150"),
                        _call("add_lock_code", device_id="DEV-0031", name="Dog walker", code="5150"), "Added."])
    assert retry["success"]
    # an expiry the user never asked for is a different code entry
    expiring = play(code, [_call("add_lock_code", device_id="DEV-0031", name="Dog walker", code="5150",
                                 expires_on="2026-02-01"), "Added."])
    assert not expiring["success"]


def test_an_automation_description_nobody_asked_for_is_tolerated(play):
    from prove_env.task import Task

    rule = Task(id="rule", server="iot_devices", seed=0,
                user_turns=["This is Megan Chang. Every day at 7 pm, turn on the living room ceiling light; call the "
                            "automation 'Evening light'."],
                gold=[[{"id": "g1", "name": "find_homes", "arguments": {"owner_name": "Megan Chang"}},
                       {"id": "g2", "name": "list_devices", "arguments": {"home_id": "HOM-0001"},
                        "depends_on": ["g1"]},
                       {"id": "g3", "name": "create_automation", "depends_on": ["g1", "g2"],
                        "arguments": {"home_id": "HOM-0001", "name": "Evening light", "trigger": "time",
                                      "at_time": "19:00", "command": "turn_on", "device_ids": ["DEV-0001"]}}]])
    args = {"home_id": "HOM-0001", "name": "Evening light", "trigger": "time", "at_time": "19:00",
            "command": "turn_on", "device_ids": ["DEV-0001"]}
    noted = play(rule, [_call("create_automation", **args, description="Lights on for the evening"), "Saved."])
    assert noted["success"]
    late = play(rule, [_call("create_automation", **{**args, "at_time": "19:30"}), "Saved."])
    assert not late["success"]


def test_a_time_after_the_clock_breaks_the_rules(served):
    """Nothing the hub recorded (last seen, readings, activations) may lie after the world's clock."""
    s = served("iot_devices")
    assert s.world.violations() == []
    later = (s.world.now + dt.timedelta(hours=1)).isoformat(sep=" ")
    (reading,) = s.world.connection.execute("SELECT id FROM readings ORDER BY id LIMIT 1").fetchone()
    s.world.connection.execute("UPDATE readings SET at = ? WHERE id = ?", (later, reading))
    assert any(reading in problem and "after the clock" in problem for problem in s.world.violations())


# -- synthesized requests ---------------------------------------------------------------------------


def _asks(tool: str, *, seeds=(0, 1), draws: int = 60):
    """Requests the recipe writes for `tool` from the bundles of a few worlds, each with the result of
    its call in that world (None for a tool that writes)."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("iot_devices"), get_recipe("iot_devices")
    found = []
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"iot asks {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == tool):
            for _ in range(draws):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is not None:
                    found.append((ask, read(tool, **ask.args) if toolkit.specs()[tool].read_only else None))
        world.close()
    return found


def test_when_a_door_last_opened_is_its_newest_reading_of_one_from_the_default_history():
    """A contact sensor logs 1 when the door opens and 0 when it closes: the newest reading is
    usually the door closing. Nobody names a number of readings, so the call takes none."""
    events = [(ask, result) for ask, result in _asks("get_sensor_readings", draws=120)
              if result["metric"] in ("contact", "motion")]
    doors = [(ask, result) for ask, result in events if result["metric"] == "contact"]
    assert doors and any(result["readings"][0]["value"] == 0 for _, result in doors)
    for ask, result in events:
        assert "limit" not in ask.args, ask.say
        opened = next(r["at"] for r in result["readings"] if r["value"] == 1)
        assert ask.facts(result) == [opened], ask.say


def test_a_new_lock_code_is_named_in_the_users_words_as_it_is_stored():
    """The code's name is free text: the user says it exactly (a role in quotes), never "for the
    nanny" for a code stored as 'Nanny'."""
    asks = _asks("add_lock_code", draws=80)
    assert len(asks) > 40
    for ask, _ in asks:
        name = ask.args["name"]
        for words in (" ".join(filter(None, (ask.say, ask.detail))), ask.terse):
            assert name in words, words


def test_every_wording_about_the_locks_asks_for_each_lock():
    """The facts are every lock's door ('Front door' of 'Front door lock'), so no wording asks for only
    the locked ones."""
    locks = [(ask, [d for d in result if d["type"] == "lock"]) for ask, result in _asks("list_devices", draws=120)
             if ask.terse == "Each lock: locked or not?"]
    assert locks
    for ask, result in locks:
        assert ask.facts(result) == [d["name"].removesuffix(" lock") for d in result]
        assert "which are locked" not in ask.say, ask.say


def test_a_number_of_readings_is_said_with_the_request_never_held_back():
    """A sensor's history comes twenty readings at a time unless told: a request that held the number
    back ('the latest readings of the bathroom humidity sensor', then 'Just the last three.') would
    have the assistant ask for a value it may rightly leave to its default."""
    words = {2: "two", 3: "three", 4: "four", 5: "five"}
    counted = [ask for ask, _ in _asks("get_sensor_readings", draws=120) if "limit" in ask.args]
    assert len(counted) > 40
    for ask in counted:
        assert ask.detail is None and words[ask.args["limit"]] in ask.say, ask.say


def test_a_question_about_one_device_asks_for_what_only_the_device_in_full_holds():
    """The home's device list (the look-up that finds a device by its name) shows each device's
    state: a question answered by that alone (a light's brightness, a lock's battery) would make
    `get_device` a call nobody needs."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("iot_devices"), get_recipe("iot_devices")
    (goal,) = [g for g in recipe.goals if g.tool == "get_device"]
    checked = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"iot devices {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for _ in range(60):
            bundle = rng.choice(bundles)
            ask = goal.build(bundle, rng)
            if ask is None:
                continue
            result = read("get_device", **ask.args)
            (row,) = [d for d in read("list_devices", home_id=bundle["home"]["home_id"])
                      if d["device_id"] == ask.args["device_id"]]
            masked = {k: ("\x00masked" if k in row else v) for k, v in result.items()}
            assert any(a == b for a, b in zip(ask.facts(result), ask.facts(masked))), ask.say
            checked += 1
        world.close()
    assert checked > 80


def test_a_plural_device_name_takes_a_plural_verb_and_pronoun():
    """'The kitchen pendant lights are not at the right brightness', 'Turn them off', never 'the
    kitchen pendant lights is' or 'lights's'."""
    import random
    import re

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("iot_devices"), get_recipe("iot_devices")
    plural = re.compile(r"\b(lights|blinds)\b")
    wrong = re.compile(r"\b(lights|blinds)('s| is\b| isn't| has\b)|\b(lights|blinds)\b[^.?]*[.?] (Turn it|Nobody's using it)|"
                       r"\bWho makes it\b[^?]*\b(lights|blinds)|(lights|blinds)\b[^.?]*\bTurn it\b")
    said = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"iot plurals {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        world.close()
        for goal in recipe.goals:
            for _ in range(40):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None:
                    continue
                for words in (" ".join(filter(None, (ask.say, ask.detail))), ask.terse or ""):
                    if plural.search(words):
                        said += 1
                        assert not wrong.search(words), words
    assert said > 50


def test_a_lock_check_is_stated_by_naming_the_doors():
    """'Go through my door locks and tell me whether each one is locked' is rightly answered 'the
    front door and the back door are both locked': the facts are the doors, which that answer and
    one naming each lock in full both state."""
    from prove_env.facts import stated

    checks = [(ask, [d for d in result if d["type"] == "lock"]) for ask, result in _asks("list_devices", draws=150)
              if ask.terse == "Each lock: locked or not?"]
    assert checks
    for ask, result in checks:
        doors = [d["name"].lower().removesuffix(" lock") for d in result]
        by_door = "Both are locked: " + " and ".join(f"the {door}" for door in doors) + "."
        by_lock = "; ".join(f"{d['name']}: {'locked' if d['locked'] else 'unlocked'}" for d in result)
        for fact in ask.facts(result):
            assert stated(fact, by_door) and stated(fact, by_lock), (fact, by_door)


def test_a_period_given_after_the_request_reads_as_a_sentence():
    """A period held back and given in the next turn reads 'Look at August 9 to August 10.', never
    'Look at between August 9 and August 10.' or 'The period is on August 11.'"""
    import re

    wrong = re.compile(r"\b(Look at|The period is|The day is) (on|for|from|between)\b")
    held = [ask.detail for tool in ("get_energy_summary", "get_reading_summary")
            for ask, _ in _asks(tool, draws=120) if ask.detail]
    assert len(held) > 40 and any(d.startswith("Look at") for d in held)
    for detail in held:
        assert not wrong.search(detail), detail


def test_a_scene_of_one_room_says_the_room_once():
    """'I like how the master bedroom ceiling light, bedside lamp and blinds are right now', never
    'the master bedroom ceiling light, the master bedroom bedside lamp and the master bedroom blinds'."""
    import re

    asks = [ask for ask, _ in _asks("create_scene", draws=120)]
    assert len(asks) > 40
    for ask in asks:
        for words in (ask.say, ask.terse or ""):
            rooms = re.findall(r"\bthe ((?:living|master|guest|dining|laundry) room|kitchen|hallway|garage|basement|"
                               r"master bedroom|bedroom|office|porch|nursery)\b", words, flags=re.I)
            assert len(rooms) == len(set(r.lower() for r in rooms)), words


def test_a_count_of_no_events_may_be_said_in_words():
    """Finding: "Count of times the door was opened on the hallway front door sensor, February 23?"
    recorded the bare 0, so "None so far today." failed: a count of events that is 0 is NOTHING."""
    from prove_env.facts import stated

    counts = [(ask, result) for ask, result in _asks("get_reading_summary", draws=120) if "events" in result]
    assert counts
    for ask, result in counts:
        facts = ask.facts({**result, "events": 0})
        assert facts and all(stated(fact, "None so far.") and stated(fact, "0 times") for fact in facts), facts
        facts = ask.facts({**result, "events": 3})
        assert facts and all(stated(fact, "3 times") and not stated(fact, "None.") for fact in facts), facts


def test_who_has_a_code_is_told_by_the_active_codes():
    """Finding: "Which people have codes on the front door lock?" recorded the expired codes' names too,
    so "You, the Plumber and the Nanny have active codes" failed: an expired code lets nobody in."""
    from prove_env.facts import stated

    asks = [(ask, result) for ask, result in _asks("list_lock_codes", draws=120) if "expired" not in ask.say]
    assert asks and any(any(c["status"] == "expired" for c in result) for _, result in asks)
    for ask, result in asks:
        facts = ask.facts(result)
        active = [c["name"] for c in result if c["status"] == "active"]
        assert facts and set(facts) <= set(active), (facts, result)
        answer = "Active codes: " + ", ".join(active) + "."
        assert all(stated(fact, answer) for fact in facts)


def test_a_blind_position_given_after_the_request_is_no_correction():
    """Finding: "I want the guest bedroom blinds at a different position. I mean 75% open." (the detail,
    joined to its request, read as a correction)."""
    details = [ask.detail for ask, _ in _asks("set_blind_position", draws=120) if ask.detail]
    assert len(details) > 10
    assert not [d for d in details if d.startswith("I mean")]


def test_a_scene_or_group_is_told_by_its_own_entry_of_the_listing():
    """Finding: turn 3 "Which devices does my Good night scene control?" kept no call: the facts ignored
    the result, so the gates read them off any earlier entry of the home (its groups) and dropped the
    listing as shown before. Without the scene's or group's own entry the facts are not there."""
    checked = 0
    for tool, key in (("list_scenes", "scene_id"), ("list_groups", "group_id")):
        for ask, result in _asks(tool, draws=40):
            facts = ask.facts(result)
            assert facts, ask.say
            own = [e for e in result if ask.facts([x for x in result if x[key] != e[key]]) != facts]
            assert len(own) == 1, ask.say  # the one entry the facts come from
            home = {"home_id": ask.args["home_id"], "name": "Home", "owner_name": "Owner"}
            with pytest.raises((KeyError, TypeError)):
                ask.facts(home)  # an earlier entry of the home is no listing of its scenes or groups
            checked += 1
    assert checked > 40


def test_an_automations_changes_are_asked_with_their_times():
    """Finding: "Look at the history of the hallway light: what did automations do to it on April 17?"
    recorded the time too, so "the Lights out automation turned it off" failed: every wording asks when."""
    import re

    asks = [ask for ask, _ in _asks("get_device_history", draws=120)]
    assert len(asks) > 40
    for ask in asks:
        for words in (ask.say, ask.terse):
            assert re.search(r"\bwhen\b|\btimes?\b", words), words


def test_a_request_names_an_automation_as_one():
    """Finding: "I don't need Lights out any more; remove it." (a scene or a group may bear such a name)."""
    asks = [ask for ask, _ in _asks("delete_automation", draws=60)]
    assert len(asks) > 10
    for ask in asks:
        assert "automation" in ask.say, ask.say


def test_a_period_given_with_its_request_is_no_correction():
    """Finding: "Which of my plugs used the most energy lately, and how much? I mean between April 21
    and April 25." (the period, joined to its request, read as a correction)."""
    held = [ask.detail for tool in ("get_energy_summary", "get_reading_summary")
            for ask, _ in _asks(tool, draws=120) if ask.detail]
    assert len(held) > 40
    assert not [d for d in held if d.startswith("I mean")]


def test_a_set_point_is_asked_for_as_the_room_feels():
    """Finding: "It's a bit off in here; put the hallway thermostat at 75 degrees.": a room is chilly
    where the set point goes up, warm where it goes down."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("iot_devices"), get_recipe("iot_devices")
    felt = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"iot set points {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == "set_temperature"):
            for _ in range(150):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None:
                    continue
                assert "a bit off" not in ask.say, ask.say
                if "in here" in ask.say:
                    before = read("get_device", device_id=ask.args["device_id"])["target_temp"]
                    up = ask.args["temperature"] > before
                    assert ("chilly" if up else "warm") in ask.say, (ask.say, before)
                    felt += 1
        world.close()
    assert felt > 3


def test_every_request_about_one_automation_calls_it_an_automation():
    """Finding: terse "Disable Lock up at night." (a scene or a group may bear such a name)."""
    asks = [ask for tool in ("set_automation_enabled", "run_automation", "list_automation_runs")
            for ask, _ in _asks(tool, draws=60) if "automation_id" in ask.args]
    assert len(asks) > 60
    for ask in asks:
        for said in (ask.say, ask.terse):
            assert "automation" in said, said


def test_a_terse_scene_request_says_what_to_do_with_it():
    """Finding: terse "Scene: Movie night." (show it, or run it?) for activating the scene."""
    asks = [ask for ask, _ in _asks("activate_scene", draws=40)]
    assert len(asks) > 20
    for ask in asks:
        assert ask.terse.split()[0] in ("Activate", "Run", "Start"), ask.terse


def test_a_listing_of_rooms_asks_for_what_its_facts_hold():
    """Finding: "Can you list the rooms in my house and how many devices each has?" with the room names
    alone as facts: the counts the user asked for were checked nowhere."""
    asks = _asks("list_rooms", draws=60)
    assert len(asks) > 60
    for ask, result in asks:
        assert ask.facts(result) == [room["name"] for room in result]
        for said in (ask.say, ask.terse):
            assert "how many" not in said.lower() and "devices" not in said.lower(), said


def test_an_automated_change_is_asked_by_what_was_done_which_the_run_log_does_not_tell():
    """Finding: "Which automation was the last to do something to my living room floor lamp, and when?"
    was served by looking the lamp up and reading its history, while the home's run log, which names
    each run's automation, its time and the devices it reached, tells it in one call without the lamp's
    id (scored 0.87 though right). Every wording asks what was done (and when), and the facts hold
    that, never the automation's name: the log does not say what a run sent a device. (Earlier, "what
    was the last thing an automation did to the back door lock?" recorded the automation's name, so "it
    locked it" failed: the facts are what the words ask.)"""
    import re

    from prove_env.facts import stated

    asks = _asks("get_device_history", draws=120)
    assert len(asks) > 40
    said = {"off": "It turned it off.", "lock": "It locked it.", "F": "It set it to 68 degrees."}
    for ask, result in asks:
        for words in (ask.say, ask.terse):
            assert re.search(r"\bwhat\b[^?]*\b(?:did|done)\b|what, and when", words, re.I), words
            assert not re.search(r"\bwhich automations?\b|\bwhat automation\b", words, re.I), words
        facts = ask.facts(result)
        names = {x["automation"] for x in result["history"]}
        assert not names & {f for f in facts if isinstance(f, str)}, (ask.say, facts)
        done = result["history"][0]
        assert done["command"] in ("turn_off", "lock", "set_temperature"), ask.say
        answer = said["F"].replace("68", str(done["value"])) if done["command"] == "set_temperature" else \
            said["off" if done["command"] == "turn_off" else "lock"]
        assert stated(facts[0], answer), (ask.say, facts[0], answer)


def test_a_count_of_events_is_asked_with_a_noun():
    """Finding: "How many times the door was opened did my hallway front door sensor log lately?"."""
    import re

    asks = [ask for ask, _ in _asks("get_reading_summary", draws=120)]
    counts = [ask for ask in asks if re.search(r"\bcount\b|\bhow many\b", ask.say + ask.terse, re.I)]
    assert any("door" in ask.say for ask in counts)
    for ask in counts:
        for words in (ask.say, ask.terse):
            counted = re.search(r"(?:how many|count of|count the) (.*?) (?:did|on)\b", words, re.I)
            assert counted is not None, words
            assert not re.search(r"\b(?:was|were|is|are)\b", counted.group(1)), words


def test_running_an_automation_is_never_asked_as_setting_it_off():
    """Finding: "Please set off my Warm up when cold automation immediately." (next to a shown tool that
    switches automations off, "set off" reads both ways)."""
    asks = [ask for ask, _ in _asks("run_automation", draws=60)]
    assert len(asks) > 40
    for ask in asks:
        for words in (ask.say, ask.terse):
            assert " off " not in f" {words.lower()} " or "kick off" in words.lower(), words


def test_a_question_about_the_home_s_devices_is_served_by_the_device_look_up_s_call():
    """Finding: "Name the offline devices, please." was served by list_devices(status="offline") after the
    conversation's device look-up list_devices(home_id) had shown every device's `online`: answering from
    that listing lost coverage. The whole-home questions (offline devices, lights on, locks) are served by
    the look-up's own call, so the chain never makes it twice, and a filtered call still matches it."""
    asks = _asks("list_devices", draws=120)
    whole = [(ask, result) for ask, result in asks if not ask.terse.startswith("Devices ")]  # not one room's
    assert len(whole) > 40
    for ask, result in whole:
        assert set(ask.args) == {"home_id"}, ask.args
        facts = ask.facts(result)
        assert facts, ask.say
        # each device by its name first (seed 137 added its other forms, as a scene's member has)
        names = [f["one_of"][0] if isinstance(f, dict) else f for f in facts]
        if "lock" in ask.terse:
            assert len(facts) == sum(d["type"] == "lock" for d in result), ask.say
        elif "light" in ask.terse:
            assert names == [d["name"] for d in result if d["type"] == "light" and d.get("is_on")][:6], ask.say
        else:
            assert "Offline" in ask.terse
            assert names == [d["name"] for d in result if not d["online"]][:6], ask.say
    assert {"Offline", "light", "lock"} <= {w for ask, _ in whole for w in ("Offline", "light", "lock")
                                           if w in ask.terse}


def test_the_runs_of_one_automation_on_a_day_are_read_off_the_day_s_log():
    """Finding: "at what times did the Lights out automation run on July 13?" was served by
    list_automations then list_automation_runs(automation_id=...), while the home's log of July 13 names
    each run's automation: one call answers it, and the agent that made it lost coverage."""
    asks = [(ask, result) for ask, result in _asks("list_automation_runs", draws=150)
            if ask.args.get("end", "").endswith("T23:59:59")]
    assert len(asks) > 20
    for ask, result in asks:
        assert "automation_id" not in ask.args
        assert [r.kind for r in ask.refs] == ["home"]
        name = ask.mentions[0]
        assert name in ask.say and name in ask.terse
        assert len(result) <= 20  # the whole day on one page of the log
        assert [one_of_values[0] for one_of_values in (f["one_of"] for f in ask.facts(result))] == \
            [r["at"] for r in result if r["automation"] == name][:4]
        assert ask.facts(result), ask.say


def test_a_scene_s_devices_are_recorded_every_one():
    """Finding: "What does the 'Away' scene change?" recorded 6 of its 7 devices (the facts cut at 6),
    leaving out the front door lock it locks: an answer that forgot the lock passed."""
    asks = _asks("list_scenes", draws=60)
    longest = 0
    for ask, result in asks:
        facts = ask.facts(result)
        scene = max((s for s in result if s["name"] in ask.say), key=lambda s: len(s["name"]))
        devices = list(dict.fromkeys(a["device"] for a in scene["actions"]))
        full = [f["one_of"][0] if isinstance(f, dict) else f for f in facts]  # a name, or it or its short form
        assert full == devices, (ask.say, facts)
        longest = max(longest, len(devices))
    assert longest > 6


def test_a_brightness_request_says_dim_only_when_the_light_gets_dimmer():
    """Finding: "Dim the office desk lamp to 100%, please." was said of a lamp that was off at 10%:
    the call turns it on at full brightness, which is no dimming."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("iot_devices"), get_recipe("iot_devices")
    goal = next(g for g in recipe.goals if g.tool == "set_brightness")
    dimmed = brightened = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"iot brightness {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for _ in range(300):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None or ask.detail:
                continue
            light = read("get_device", device_id=ask.args["device_id"])
            if ask.say.lower().startswith("dim "):
                dimmed += 1
                assert light["is_on"] and ask.args["brightness"] < light["brightness"], (ask.say, light)
            elif not light["is_on"] or ask.args["brightness"] > light["brightness"]:
                brightened += 1
        world.close()
    assert dimmed and brightened


def test_a_code_for_grandma_is_her_own_code():
    """Finding: "Could you give Grandma their own code on my front door lock ...?" - the persons a
    code is named for (Grandma, Aunt Rose) are "her"."""
    asks = [ask for ask, _ in _asks("add_lock_code", seeds=(0, 1, 2), draws=120)]
    persons = [ask.say for ask in asks if ask.args["name"] in ("Grandma", "Aunt Rose")]
    assert any(" own code " in say for say in persons)
    assert not any("their own" in ask.say for ask in asks)


def test_a_time_on_the_day_the_user_named_is_stated_by_the_time_alone():
    """Finding: "Can you tell me what automations did to the front door lock on May 31, and when?"
    recorded 2026-05-31T23:00, so "It was locked at 11 PM by the Lock up at night automation." failed:
    the user had named the day. The same for "At what times did my 'X' automation run on May 31?"."""
    from prove_env.facts import facts_stated

    def twelve(moment: str) -> str:
        hour, minute = int(moment[11:13]), moment[14:16]
        return f"{hour % 12 or 12}:{minute} {'pm' if hour >= 12 else 'am'}"

    history = [(ask, result) for ask, result in _asks("get_device_history", draws=120) if "start" in ask.args]
    runs = [(ask, result) for ask, result in _asks("list_automation_runs", draws=150)
            if ask.args.get("end", "").endswith("T23:59:59")]
    assert len(history) > 10 and len(runs) > 10
    said = {"turn_off": "turned it off", "lock": "locked it"}
    for ask, result in history:
        entries = result["history"][:4]
        done = [said.get(x["command"], f"set it to {x['value']} degrees") for x in result["history"]]
        answer = "; ".join(f"At {twelve(x['at'])} it {d}" for x, d in zip(entries, done))
        assert "May" not in answer and "-" not in answer
        assert facts_stated([ask.facts(result)], [answer]), (ask.say, ask.facts(result), answer)
    for ask, result in runs:
        name = ask.mentions[0]
        times = [twelve(r["at"]) for r in result if r["automation"] == name][:4]
        answer = f"It ran at {', '.join(times)}."
        assert facts_stated([ask.facts(result)], [answer]), (ask.say, ask.facts(result), answer)


def test_a_terse_colour_request_says_what_to_set():
    """Finding: terse "The living room floor lamp blue." reads as a sentence missing its verb."""
    asks = [ask for ask, _ in _asks("set_color", draws=60)]
    assert len(asks) > 20
    for ask in asks:
        assert ask.terse.endswith(f" to {ask.args['color']}."), ask.terse


def test_a_value_said_after_its_request_is_not_in_the_words_of_another_request():
    """Finding: after "... set the hallway thermostat to 69 degrees" (an automation's rule) the later
    "Can you change what the hallway thermostat is set to?" lost its "Make it 69 degrees.": a detail
    whose value the user's words already hold is not said again. No automation request says a value a
    set point, brightness or volume request gives in its detail, and a mode given in a detail is no
    part of 'automation' or of a name in the home ('heat' of "space heater")."""
    automations = [ask for ask, _ in _asks("create_automation", draws=80)]
    assert len(automations) > 40
    words = " ".join(" ".join(filter(None, (a.say, a.detail, a.terse))) for a in automations).casefold()
    for tool in ("set_temperature", "set_brightness", "set_volume", "set_thermostat_mode"):
        detailed = [ask for ask, _ in _asks(tool, draws=80) if ask.detail]
        assert detailed, tool
        for ask in detailed:
            for value in (m for m in ask.mentions if m.casefold() in ask.detail.casefold()):
                assert value.casefold() not in words, (tool, value)
                if tool == "set_thermostat_mode":
                    assert value not in "automation", ask.detail
    modes = [ask for ask, _ in _asks("set_thermostat_mode", draws=200)]
    assert any(ask.args["mode"] == "auto" for ask in modes)
    assert all(ask.detail is None for ask in modes if ask.args["mode"] == "auto")


def test_an_auto_lock_delay_held_back_is_said_with_its_unit():
    """Finding: "I want the front door lock to lock itself after a different delay." lost its "1 minute,
    please." because a bare "1" stood in the e-mail address the user gave (robin.hernandez16@...)."""
    asks = [ask for ask, _ in _asks("set_auto_lock", draws=80) if ask.detail]
    assert len(asks) > 10
    for ask in asks:
        minutes = ask.args["minutes"]
        said = f"{minutes} minute" if minutes == 1 else f"{minutes} minutes"
        assert ask.mentions == (said,) and said in ask.detail and said in ask.terse, ask


def test_a_room_s_devices_are_read_off_the_home_s_list_and_stated_without_the_room_s_name():
    """Finding: "I'd like a list of what's connected in a particular room. The kitchen." was served by
    list_rooms then list_devices(room_id=...), while the home's list names each device's room: one call
    answers it, and the agent that made it lost coverage. And "In the kitchen: the pendant lights, the
    coffee maker plug and the speaker." failed, the facts being the full names ("Kitchen pendant lights")."""
    from prove_env.facts import facts_stated

    rooms = [(ask, result) for ask, result in _asks("list_devices", draws=120) if ask.terse.startswith("Devices ")]
    assert len(rooms) > 10
    for ask, result in rooms:
        assert set(ask.args) == {"home_id"} and [r.kind for r in ask.refs] == ["home"], ask.args
        where = ask.mentions[0]
        inside = [d["name"] for d in result if d["room"].casefold() == where]
        assert 2 <= len(inside) == len(ask.facts(result)), (ask.say, ask.facts(result))
        assert where in ask.say and where in ask.terse and not ask.detail
        bare = [n[len(where) + 1:] if n.casefold().startswith(where + " ") else n for n in inside]
        assert facts_stated([ask.facts(result)], [f"In the {where}: the {', the '.join(bare)}."]), (ask.say, bare)
        assert facts_stated([ask.facts(result)], [", ".join(inside)])
        for left_out in range(len(inside)):  # a device of the room left out is missed
            assert not facts_stated([ask.facts(result)], [", ".join(inside[:left_out] + inside[left_out + 1:])])
            assert not facts_stated([ask.facts(result)], [", ".join(bare[:left_out] + bare[left_out + 1:])])


def test_terse_requests_read_as_requests():
    """Finding: terse "The master bedroom bedside lamp 5000K." (no verb) and "KWh of my living room TV
    plug, July 8 to July 12?" (the unit's case broken by the capital); and "Switch all of Upstairs
    lights off, please." said no article before a group's name."""
    kelvins = [ask for ask, _ in _asks("set_color_temperature", draws=60)]
    assert len(kelvins) > 20
    for ask in kelvins:
        assert ask.terse.endswith(f" to {ask.args['kelvin']}K."), ask.terse
    energy = [ask for ask, _ in _asks("get_energy_summary", draws=120) if "kWh" in ask.terse]
    assert len(energy) > 5
    for ask in energy:
        assert not ask.terse.startswith("kWh") and "kWh" in ask.terse, ask.terse
    groups = [ask for ask, _ in _asks("switch_group", draws=80)]
    assert len(groups) > 20
    for ask in groups:
        assert "all of" not in ask.say, ask.say


def test_the_top_plug_is_stated_by_its_name_or_without_its_room_s():
    """Finding: "Tell me the top energy-consuming plug lately and its kWh." recorded the full name
    "Garage freezer plug", so "The freezer plug used the most: 4.85 kWh." and "Your freezer plug in the
    garage, 4.85 kWh." failed, though no other device of the home is a freezer plug."""
    from prove_env.facts import facts_stated

    tops = [(ask, result) for ask, result in _asks("get_energy_summary", draws=80) if ask.terse.startswith("Top plug")]
    assert len(tops) > 10
    for ask, result in tops:
        top = result["devices"][0]
        name, kwh = top["name"], top["kwh"]
        fact = ask.facts(result)[0]
        assert isinstance(fact, dict) and fact["one_of"][0] == name, fact
        short = fact["one_of"][1]
        assert name.casefold().endswith(" " + short.casefold()) and len(short) < len(name), fact
        others = [d["name"] for d in result["devices"] if d["device_id"] != top["device_id"]]
        assert not any(f" {short.casefold()} " in f" {o.casefold()} " for o in others), (short, others)
        for answer in (f"The {short} used the most: {kwh} kWh.", f"{name}, {kwh} kWh."):
            assert facts_stated([ask.facts(result)], [answer]), (answer, ask.facts(result))
        assert not facts_stated([ask.facts(result)], [f"It used {kwh} kWh."])


def test_a_colour_set_now_is_not_asked_for_later():
    """Finding: "I'd love the nursery night light in purple tonight." at 15:30, with the colour set at
    once: "tonight" asks for a later time (a model may ask when, or schedule it)."""
    colours = [ask for ask, _ in _asks("set_color", draws=120)]
    assert len(colours) > 40
    for ask in colours:
        for text in (ask.say, ask.terse, ask.plain or "", ask.detail or ""):
            assert not any(word in text.casefold() for word in ("tonight", "tomorrow", "later", "this evening")), text


def test_a_period_after_a_verb_of_use_is_said_with_on_or_from_not_for():
    """Finding: "I want to know what my kitchen coffee maker plug consumed for December 5, in
    kilowatt-hours." A verb of use takes 'on' a day and 'from' a span; 'for' fits a noun ('the total
    for December 5')."""
    import re

    after_verb = re.compile(r"\b(?:use|used|consumed|recorded|log)(?: in total| the most energy)? for\b")
    dated = 0
    for tool in ("get_reading_summary", "get_energy_summary"):
        for ask, _ in _asks(tool, draws=150):
            assert not after_verb.search(ask.say), ask.say
            dated += bool(re.search(r"\b(?:use|used|consumed|recorded|log)(?: in total| the most energy)? "
                                    r"(?:on|from) [A-Z]", ask.say))
    assert dated > 20


def test_the_owner_s_e_mail_is_not_given_with_please_which_requests_open_with():
    """Finding: "Please look me up by my email, ... I need a hand with this. Please unlock the front
    door lock; a friend is dropping by.": two sentences of one message open with "Please"."""
    from servers.iot_devices import synth

    opens_with_please = [ask.say for ask, _ in _asks("unlock_door") if ask.say.startswith("Please")]
    assert opens_with_please
    for form in (*synth._BY_EMAIL, *synth._BY_EMAIL_TERSE, *synth._BY_NAME, *synth._BY_NAME_TERSE):
        assert "please" not in form.casefold(), form


def test_a_terse_group_switch_says_it_is_a_group():
    """Finding: terse "Login: micheal.miller48@gmail.com. Entertainment on." - nothing says
    Entertainment is a group of the home (a scene, a device?)."""
    asks = [ask for ask, _ in _asks("switch_group")]
    assert len(asks) > 20
    for ask in asks:
        assert ask.terse.endswith((" group on.", " group off.")), ask.terse


def test_a_plug_s_energy_is_read_off_the_home_s_summary():
    """Finding: "How much energy did the kitchen coffee maker plug use lately? The period is July 7 to
    July 11." had the gold find_homes, list_devices, get_reading_summary; get_energy_summary lists every
    plug's kWh for those days in one call after find_homes, so a model taking it lost coverage."""
    from prove_env.facts import facts_stated

    for ask, result in _asks("get_reading_summary", draws=120):
        assert "kWh" not in ask.terse and "energy" not in ask.say, ask.say
        assert "total_kwh" not in result, ask.args
    plugs = [(ask, result) for ask, result in _asks("get_energy_summary", draws=120)
             if ask.terse.startswith("Energy use of ")]
    assert len(plugs) > 10
    for ask, result in plugs:
        name = ask.terse[len("Energy use of "):].split(" in kWh")[0].removeprefix("my ").removeprefix("the ")
        entry = next(e for e in result["devices"] if e["name"].casefold() == name.casefold())
        assert ask.args == {k: result[k] for k in ("home_id", "start_date", "end_date")}
        assert facts_stated([ask.facts(result)], [f"It used {entry['kwh']} kWh."]), (ask.say, entry)
        others = {e["kwh"] for e in result["devices"] if e["device_id"] != entry["device_id"]} - {entry["kwh"]}
        for kwh in others:
            assert not facts_stated([ask.facts(result)], [f"It used {kwh} kWh."]), (ask.say, entry, kwh)


def test_a_period_held_back_is_not_stood_in_for_by_lately():
    """Finding: "How much energy did the kitchen coffee maker plug use lately? The period is July 7 to
    July 11.": the vague word stayed beside the exact days given in the same message."""
    held = 0
    for tool in ("get_reading_summary", "get_energy_summary"):
        for ask, _ in _asks(tool, draws=150):
            assert "lately" not in ask.say.casefold(), ask.say
            assert "  " not in ask.say and " ?" not in ask.say and " ," not in ask.say, ask.say
            held += ask.detail is not None
    assert held > 40


def test_a_plug_s_energy_is_never_left_out_with_a_tool_that_tells_it_still_shown():
    """Finding: with get_energy_summary left out, "What was the total kWh on my living room TV plug?"
    (and the plugs' total, and the top plug) was declined while list_devices and get_reading_summary
    (or get_sensor_readings, a plug's daily kWh) were shown: they tell the same days' energy."""
    from prove_env.synthesis.recipe import get_recipe

    recipe = get_recipe("iot_devices")
    energy = {"get_energy_summary", "get_reading_summary", "get_sensor_readings"}
    for tool in energy:
        assert recipe.substitutes_of(tool) == energy - {tool}, tool


def test_a_group_s_or_scene_s_devices_may_be_listed_by_room():
    """Finding: "Which devices does my Good morning scene control?" recorded the full names ("Living
    room blinds", "Kitchen pendant lights"), so "... the blinds in the living room, the pendant lights
    in the kitchen ..." failed, and so did "the ceiling light in the living room" for a group's member,
    though no other device of the home is a blind or a pendant light."""
    import random

    from prove_env.facts import facts_stated
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("iot_devices"), get_recipe("iot_devices")
    checked = by_room = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"iot members {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool in ("list_groups", "list_scenes")):
            for _ in range(40):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None:
                    continue
                result = read(goal.tool, **ask.args)
                facts = ask.facts(result)
                home = {d["device_id"]: d for d in read("list_devices", home_id=ask.args["home_id"])}
                names = [d["name"] for d in home.values()]
                members = [m["name"] for m in facts_members(goal.tool, result, ask)]
                said = []
                for name in members:
                    room = next(d["room"] for d in home.values() if d["name"] == name)
                    rest = name[len(room) + 1:] if name.casefold().startswith(room.casefold() + " ") else ""
                    if len(rest) >= 3 and not any(o != name and f" {rest.casefold()} " in f" {o.casefold()} "
                                                  for o in names):
                        said.append(f"the {rest.lower()} in the {room.lower()}")
                        by_room += 1
                    else:
                        said.append(name)
                assert facts_stated([facts], ["It has " + ", ".join(said) + "."]), (said, facts)
                assert facts_stated([facts], ["It has " + ", ".join(members) + "."]), (members, facts)
                if len(members) > 1:
                    assert not facts_stated([facts], ["It has " + ", ".join(said[1:]) + "."]), (said, facts)
                checked += 1
        world.close()
    assert checked > 40 and by_room > 40, (checked, by_room)


def facts_members(tool: str, result: list[dict], ask) -> list[dict]:
    """The devices a group or scene request asks about, read off its own entry of the result."""
    if tool == "list_groups":
        name = ask.mentions[0]
        return [d for g in result if g["name"] == name for d in g["devices"]]
    name = ask.mentions[0]
    return list({a["device_id"]: {"name": a["device"]} for s in result if s["name"] == name
                 for a in s["actions"]}.values())


def test_a_member_whose_short_name_is_shared_may_be_said_with_its_room_after_it():
    """Finding: "The floor lamp in the living room, the lamp in the guest bedroom and the night light in
    the nursery." failed for the Night lights group: "Guest bedroom lamp" kept only its full name, 'lamp'
    being in other devices' names, though "the lamp in the guest bedroom" names it and no other."""
    import random

    from prove_env.facts import facts_stated
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("iot_devices"), get_recipe("iot_devices")
    shared = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"iot shared members {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool in ("list_groups", "list_scenes")):
            for _ in range(40):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None:
                    continue
                result = read(goal.tool, **ask.args)
                facts = ask.facts(result)
                home = {d["name"]: d for d in read("list_devices", home_id=ask.args["home_id"])}
                members = [m["name"] for m in facts_members(goal.tool, result, ask)]
                rooms = {d["room"] for d in home.values()}
                for i, name in enumerate(members):
                    room = home[name]["room"]
                    rest = name[len(room) + 1:] if name.casefold().startswith(room.casefold() + " ") else ""
                    if len(rest) < 3 or not any(o != name and f" {rest.casefold()} " in f" {o.casefold()} "
                                                for o in home):
                        continue
                    others = members[:i] + members[i + 1:]
                    said = ", ".join(others + [f"the {rest.lower()} in the {room.lower()}"])
                    assert facts_stated([facts], [f"It has {said}."]), (said, facts)
                    # the shared short name in another room does not name it
                    elsewhere = next(r for r in sorted(rooms) if r != room)
                    wrong = ", ".join(others + [f"the {rest.lower()} in the {elsewhere.lower()}"])
                    assert not facts_stated([facts], [f"It has {wrong}."]), (wrong, facts)
                    shared += 1
        world.close()
    assert shared > 20, shared


def test_a_lock_whose_auto_lock_is_off_is_not_asked_for_a_different_delay():
    """Finding: "I want my front door lock to lock itself after a different delay. Make it 5 minutes."
    for a lock whose auto-lock was off (0 minutes): there was no delay to change."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("iot_devices"), get_recipe("iot_devices")
    off = on = 0
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"iot auto-lock {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == "set_auto_lock"):
            for _ in range(120):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None or ask.detail is None:
                    continue
                current = read("get_device", device_id=ask.args["device_id"])["auto_lock_minutes"]
                changes = "different delay" in ask.say or "change the auto-lock delay" in ask.say
                if current == 0:
                    assert not changes, ask.say
                    off += 1
                else:
                    on += 1
        world.close()
    assert off > 3 and on > 3, (off, on)


def test_a_device_shown_by_the_home_s_group_scene_or_automation_listing_is_not_looked_up_again():
    """Finding: "Members of Entertainment?" listed the home's groups, whose members carry their ids (the
    Downstairs lights group holds the Dining room chandelier, Entertainment the Dining room speaker), yet
    "New scene 'Bedtime story': the dining room chandelier and speaker, as they are now." looked up the
    home's devices first: an agent that took both ids from the groups lost coverage. The listings of
    groups, scenes and automations, asked for or looked up, now settle every member device they show
    (but those of a scene or automation another request may delete or switch)."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("iot_devices"), get_recipe("iot_devices")
    members = {"list_groups": lambda r: {d["device_id"] for g in r for d in g["devices"]},
               "list_scenes": lambda r: {a["device_id"] for s in r for a in s["actions"]},
               "list_automations": lambda r: {d["device_id"] for a in r for d in a["devices"]}}

    def may_change(b):  # the members of a scene or automation another request may delete or switch
        changed = {b["drop_scene"], b["drop_automation"], b["toggle_automation"]}
        return {d["device_id"] for x in b["scenes"] + b["automations"]
                if {x.get("scene_id"), x.get("automation_id")} & changed
                for d in x.get("devices", []) + x.get("actions", [])}

    def check(shown, settles, b, where):
        settled = {key for kind, key in settles if kind == "device"}
        assert settled <= shown, (where, settled - shown)
        assert not shown - settled - may_change(b), (where, shown - settled - may_change(b))
        assert settled or not shown - may_change(b), where

    asked = looked_up = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"iot listings settle {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool in members):
            for _ in range(30):
                b = rng.choice(bundles)
                ask = goal.build(b, rng)
                if ask is None:
                    continue
                check(members[goal.tool](read(goal.tool, **ask.args)), ask.settles, b, ask.say)
                asked += 1
        for kind, tool in (("group", "list_groups"), ("scene", "list_scenes"), ("automation", "list_automations")):
            lookup = next(x for x in recipe.lookups if x.kind == kind)
            assert lookup.tool == tool
            for b in bundles:
                for goal in recipe.goals:
                    ask = goal.build(b, random.Random(f"{goal.tool} {b['home']['home_id']}"))
                    for ref in (r for r in (ask.refs if ask else ()) if r.kind == kind):
                        check(members[tool](read(tool, **lookup.args(ref))), lookup.settles(ref), b, (kind, ref.key))
                        looked_up += 1
        world.close()
    assert asked > 40 and looked_up > 20, (asked, looked_up)


def test_the_devices_of_a_scene_or_automation_deleted_are_settled_by_the_listing_looked_up_before():
    """Finding: "Delete the 'Lock up at night' automation." listed the home's automations (the back door
    lock among its devices, with its id), then "Look at the history of my back door lock" looked up the
    home's devices again: an agent that took the lock's id from the listing lost coverage. The listing
    looked up for the deletion is read before it, so it settles every member it shows, the doomed
    scene's or automation's own included."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("iot_devices"), get_recipe("iot_devices")
    members = {"scene": ("list_scenes", lambda r: {a["device_id"] for s in r for a in s["actions"]}),
               "automation": ("list_automations", lambda r: {d["device_id"] for a in r for d in a["devices"]})}
    checked = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        bundles = recipe.sample(read, world.now, random.Random(f"iot doomed {seed}"))
        for goal in (g for g in recipe.goals if g.tool in ("delete_scene", "delete_automation")):
            for b in bundles:
                ask = goal.build(b, random.Random(f"{goal.tool} {b['home']['home_id']}"))
                if ask is None:
                    continue
                (ref,) = ask.refs
                tool, shown = members[ref.kind]
                lookup = next(x for x in recipe.lookups if x.kind == ref.kind)
                settled = {key for kind, key in lookup.settles(ref) if kind == "device"}
                assert settled == shown(read(tool, **lookup.args(ref))), (ask.say, ref.key)
                checked += 1
        world.close()
    assert checked > 10, checked


def test_a_lock_a_scene_locks_is_stated_by_its_door():
    """Finding: "What does the 'Away' scene change?" recorded "Front door lock", so "... and locks the
    front door." failed, though the answer named every device the scene touches."""
    from prove_env.facts import facts_stated

    seen = 0
    for ask, result in _asks("list_scenes", draws=60):
        scene = max((s for s in result if s["name"] in ask.say), key=lambda s: len(s["name"]))
        locks = [a["device"] for a in scene["actions"] if a["command"] == "lock"]
        if not locks or not all(n.endswith(" lock") for n in locks):
            continue
        others = list(dict.fromkeys(a["device"] for a in scene["actions"] if a["command"] != "lock"))
        doors = [n[: -len(" lock")].lower() for n in locks]
        answer = f"It changes the {', the '.join(others)}, and locks the {' and the '.join(doors)}."
        assert facts_stated([ask.facts(result)], [answer]), (ask.say, ask.facts(result), answer)
        left_out = f"It changes the {', the '.join(others)}."
        assert not facts_stated([ask.facts(result)], [left_out]), (ask.say, left_out)
        seen += 1
    assert seen > 3, seen


def test_a_terse_blind_request_keeps_its_verb():
    """Finding: terse "The guest bedroom blinds fully open." read as saying how the blinds are, not as a
    request to open them."""
    asks = [ask for ask, _ in _asks("set_blind_position", draws=80)]
    assert len(asks) > 20
    for ask in asks:
        assert ask.terse.split()[0] in ("Close", "Open", "Set"), ask.terse


def test_the_automations_of_a_night_are_asked_for_by_which_ran():
    """Finding: "What did my automations do overnight, between 6 pm on November 12 and 7 am on
    November 13?" recorded the automations' names, so an answer that told what was done ("the front
    door and garage side door were locked at 11 pm, the lights turned off at 11:30") failed."""
    nights = [ask for ask, _ in _asks("list_automation_runs", draws=120) if "overnight" in ask.say
              or ask.terse.startswith("Automation runs between")]
    assert len(nights) > 10, len(nights)
    for ask in nights:
        assert ask.say.startswith("Which") or " which " in ask.say, ask.say
        assert "what did" not in ask.say.casefold(), ask.say


def test_a_terse_brightness_set_point_or_volume_request_says_to():
    """Finding: terse "My kitchen pendant lights 100%." read as saying how bright the lights are, not as a
    request to set them (as "The living room floor lamp blue." did of a colour)."""
    seen = 0
    for tool, key, said in (("set_brightness", "brightness", "{}%"), ("set_volume", "volume", "{}%"),
                            ("set_temperature", "temperature", "{} degrees")):
        for ask, _ in _asks(tool, draws=60):
            if ask.prior:  # "Hallway thermostat: heat, 68 degrees." says the mode it switches to first
                continue
            assert ask.terse.endswith(f" to {said.format(ask.args[key])}."), ask.terse
            seen += 1
    assert seen > 60, seen


def test_the_names_of_a_lock_s_codes_are_asked_without_a_please_another_request_may_say():
    """Finding: "Switch everything in the Upstairs lights group off, please. Also, list the codes set on
    the front door lock, please, just the names." said "please" twice in one message."""
    asks = [ask for ask, _ in _asks("list_lock_codes", draws=80)]
    assert any("names" in ask.say for ask in asks)
    for ask in asks:
        assert "please" not in ask.say.casefold() or "names" not in ask.say, ask.say


def test_a_request_that_says_please_does_not_say_it_again_with_its_value():
    """Finding: "Please turn on the auto-lock on my front door lock. 15 minutes, please." said "please" in
    the request and again in the sentence with its value."""
    seen = 0
    for tool in ("set_auto_lock", "set_brightness", "set_temperature", "set_volume", "set_blind_position",
                 "set_color", "set_color_temperature", "set_thermostat_mode"):
        for ask, _ in _asks(tool, draws=60):
            if ask.detail and "please" in ask.say.casefold():
                assert "please" not in ask.detail.casefold(), (ask.say, ask.detail)
                assert ask.detail[:1].isupper() or ask.detail[:1].isdigit(), ask.detail
                seen += 1
    assert seen > 5, seen


def test_a_lock_s_name_is_never_followed_by_the_verb_lock():
    """Finding (seed 111): "Have the front door lock lock itself 15 minutes after it's unlocked." said
    "lock" twice in a row (as "After how many minutes does the front door lock lock again?" would)."""
    import re

    seen = 0
    for tool in ("set_auto_lock", "get_device"):
        for ask, _ in _asks(tool, draws=150):
            for text in (ask.say, ask.detail or "", ask.terse):
                assert not re.search(r"\block lock", text, re.IGNORECASE), text
            seen += "lock" in ask.say.casefold()
    assert seen > 40, seen


def test_a_terse_switch_request_keeps_its_verb():
    """Finding (seed 111): terse "The kitchen pendant lights off." read as saying how the lights are, not as
    a request to switch them off (as "The guest bedroom blinds fully open." did of blinds)."""
    seen = 0
    for tool, state in (("turn_on", "on"), ("turn_off", "off")):
        for ask, _ in _asks(tool, draws=40):
            assert ask.terse.startswith(f"Turn {state} "), ask.terse
            seen += 1
    assert seen > 40, seen


def test_a_terse_owner_introduces_themselves_with_more_than_a_name():
    """Finding (seed 111): "Shirley Reed. The kitchen pendant lights off." opened with the bare name, and
    "Owner: Shirley Reed." would read as a form field ("User: ..." was found on other servers)."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, Ref, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("iot_devices"), get_recipe("iot_devices")
    by_name = next(x for x in recipe.lookups if x.kind == "home" and "owner_name" in x.args(
        Ref.of("home", {"home_id": "HOM-0001", "owner_name": "A B", "email": "a@b.c"})))
    seen = 0
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        for b in recipe.sample(Reader(toolkit, world), world.now, random.Random(seed)):
            ref = Ref.of("home", b["home"])
            terse = by_name.intro(ref)[1]
            name = b["home"]["owner_name"]
            assert terse != f"{name}.", terse
            assert not terse.startswith(("Owner:", "User:", "Name:")), terse
            seen += 1
        world.close()
    assert seen > 20, seen


def test_a_terse_request_quotes_the_name_of_its_scene_or_automation():
    """Finding (seed 133): terse "k. Delete scene Good night." left the scene's name bare, so it read as
    "Delete scene." followed by a farewell. The terse forms now quote the name, as "New scene 'X': ..." did."""
    seen = 0
    for tool in ("activate_scene", "delete_scene", "set_automation_enabled", "run_automation",
                 "list_automation_runs", "delete_automation"):
        for ask, _ in _asks(tool, draws=20):
            for name in ask.mentions:
                if name.endswith(("scene", "automation")) or name[:1].isdigit():
                    continue
                if f"scene {name}" in ask.terse or f"automation {name}" in ask.terse:
                    raise AssertionError(ask.terse)
                seen += f"'{name}'" in ask.terse
    assert seen > 40, seen


def test_a_lock_automation_is_named_for_no_more_doors_than_it_locks():
    """Finding (seed 135): "Name it 'Lock doors at 10:45 pm'." for an automation that locks the front
    door lock alone: the name spoke of doors the home does not have. It is now 'Lock up at ...'."""
    seen = 0
    for ask, _ in _asks("create_automation", draws=80):
        if ask.args.get("command") != "lock":
            continue
        assert not ask.args["name"].startswith("Lock doors"), ask.args["name"]
        seen += len(ask.args["device_ids"]) == 1
    assert seen > 5, seen


def test_the_offline_or_lit_devices_are_stated_by_their_rest_in_their_room():
    """Finding (seed 137): "Can you tell me which devices in my house are currently offline?" recorded the
    bare names, so "the ceiling light in the living room, the blinds in the living room, the smoke
    detector in the kitchen and the space heater plug in the office" failed, though a scene's or group's
    members already read that way. The offline and the lit listings now state each device as a member."""
    from prove_env.facts import facts_stated

    seen = 0
    for ask, result in _asks("list_devices", draws=80):
        if "offline" in ask.say or "dropped off" in ask.say or "disconnected" in ask.say:
            named = [d for d in result if not d["online"]][:6]
        elif "lights" in ask.say and " on" in ask.say:
            named = [d for d in result if d["type"] == "light" and d.get("is_on")][:6]
        else:
            continue
        parts = []
        for d in named:
            room = d["room"]
            rest = d["name"][len(room) + 1:] if d["name"].casefold().startswith(room.casefold() + " ") else ""
            parts.append(f"the {rest} in the {room.lower()}" if len(rest) >= 3 else f"the {d['name']}")
        answer = "These: " + "; ".join(parts) + "."
        assert facts_stated([ask.facts(result)], [answer]), (ask.say, ask.facts(result), answer)
        assert not facts_stated([ask.facts(result)], ["These: " + "; ".join(parts[1:]) + "."]), answer
        seen += any(" in the " in p for p in parts)
    assert seen > 10, seen


def test_a_lock_s_name_is_not_followed_by_to_lock_or_from_locking():
    """Finding (seed 137): "I want the front door lock to lock itself after a different delay. After 15
    minutes." said the lock's name and then the verb ("lock to lock"), and "after" twice in a row, as
    "Please stop the front door lock from locking itself." did."""
    import re

    seen = 0
    for ask, _ in _asks("set_auto_lock", draws=150):
        for text in (ask.say, ask.terse):
            assert not re.search(r"\block (to|from) lock", text, re.IGNORECASE), text
        if ask.detail and ask.detail.startswith("After"):
            assert " after " not in ask.say, (ask.say, ask.detail)
        seen += "lock" in ask.say.casefold()
    assert seen > 40, seen


def test_a_new_code_s_end_date_is_not_read_as_the_digits_or_the_person_stopping():
    """Finding (seed 139): "New code on my garage side door lock: 'Aunt Rose', 906403 that stops working
    after October 13." set the clause right after the digits (and elsewhere after a person: "for Grandma
    that stops working"). There the end is now set off with a comma: ", valid through October 13"."""
    import re

    seen = 0
    for ask, _ in _asks("add_lock_code", draws=150):
        for text in (ask.say, ask.terse):
            assert not re.search(r"(\d|'|Grandma|Aunt Rose) that stops working", text), text
        seen += "valid through" in ask.terse
    assert seen > 5, seen


def test_a_terse_owner_found_by_email_says_a_sentence_not_a_form_field():
    """Finding (seed 149, 0007): "Account holly.reyes31@gmail.com. New code on my front door lock: ..." opened
    with a bare label; "Email: ..." and "Login: ..." read as form fields, which the by-name openers no longer do."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, Ref, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("iot_devices"), get_recipe("iot_devices")
    by_email = next(x for x in recipe.lookups if x.kind == "home" and "email" in x.args(
        Ref.of("home", {"home_id": "HOM-0001", "owner_name": "A B", "email": "a@b.c"})))
    seen = 0
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        for b in recipe.sample(Reader(toolkit, world), world.now, random.Random(seed)):
            terse = by_email.intro(Ref.of("home", b["home"]))[1]
            email = b["home"]["email"]
            assert email in terse, terse
            assert not terse.startswith(("Email:", "Login:", "Account ", "User:")), terse
            assert terse.split(email)[0].strip(), terse  # words before the address, not the bare address
            seen += 1
        world.close()
    assert seen > 20, seen
