"""The iot_devices server's tools: a smart-home hub's homes, rooms, devices, sensor history,
lock codes, groups, scenes and automations.

Rules, in one place:
- A command reaches a device only when the device is online, has the capability the command
  needs (`CAPABILITIES`), and the value is inside the device's range (brightness 1-100, colour
  temperature within the bulb's kelvin range, set points within the thermostat's range, blind
  position and volume 0-100). A thermostat that is off takes no set point until a mode is set.
- Unlocking needs one of the lock's codes that has not expired; codes are written to the lock, so
  adding or removing one needs the lock online. No visible tool returns a code's digits.
- Groups and scenes are all-or-nothing: every device is checked first, and if any one would refuse,
  nothing changes and the refusal names each device and why.
- A scene is created from the present state of its devices (online, not sensors); scenes may lock
  doors but never unlock them.
- Automations (a time, a temperature or humidity threshold, or motion, then one command to one or
  more devices of the same home) are validated in full before they are saved; they never unlock.
- An enabled automation fires whenever the clock passes its trigger (its time of day, a reading of its
  sensor crossing the threshold, motion): each firing is a run in the hub's log, and each command
  the run sent is in the target device's history. A run whose target was offline failed and changed
  nothing. A disabled automation never fires and cannot be run by hand; enabling it again does not
  replay the triggers it missed. Running an automation by hand is all or nothing, like a scene.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Date, DateTime, Detail, Entity, Id, Limit, Toolkit, ToolError, check_range, tool

from .models import (Automation, AutomationRun, AutomationTarget, Base, Device, DeviceLog, Group, GroupMember, Home,
                     LockCode, Reading, Room, Scene, SceneAction)
from .seed import HISTORY_DAYS, firings, seed

DeviceType = Literal["light", "thermostat", "lock", "blind", "plug", "speaker", "camera", "sensor"]
Color = Literal["red", "orange", "yellow", "green", "cyan", "blue", "purple", "pink", "white"]
HvacMode = Literal["off", "heat", "cool", "auto"]
Trigger = Literal["time", "above", "below", "motion"]
RunStatus = Literal["done", "failed"]
AutomationCommand = Literal["turn_on", "turn_off", "set_brightness", "set_color_temperature", "set_temperature",
                            "lock", "set_position", "set_volume"]

# command -> the capability a device needs for it
CAPABILITIES = {
    "turn_on": "on_off", "turn_off": "on_off", "set_brightness": "brightness", "set_color_temperature": "color_temp",
    "set_color": "color", "set_mode": "hvac", "set_temperature": "temperature", "lock": "lock", "unlock": "lock",
    "set_auto_lock": "lock", "set_position": "position", "set_volume": "volume",
}
NEEDS_VALUE = {"set_brightness", "set_color_temperature", "set_color", "set_mode", "set_temperature", "set_position",
               "set_volume"}
WHAT = {"on_off": "turning on and off", "brightness": "brightness", "color_temp": "colour temperature",
        "color": "colour", "hvac": "modes", "temperature": "set points", "lock": "locking",
        "position": "a position", "volume": "volume"}
HISTORY_TYPES = ("sensor", "plug")
MAX_CODES = 10
MAX_NAME = 60
SENSOR_RANGES = {"temperature": (-40.0, 140.0), "humidity": (0.0, 100.0)}


class IotDevicesServer(Toolkit):
    """A smart-home hub: find a home, its rooms and devices; read sensors and their history; switch
    lights, plugs and speakers, dim and colour lights, set thermostats, move blinds, lock and unlock
    doors with codes; run groups and scenes (all-or-nothing) and automations; summarise energy use.
    Offline devices, missing capabilities and out-of-range values are refused with the reason.
    Temperatures are in degrees Fahrenheit."""

    name = "iot_devices"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("home", Home, "HOM", lookup="find_homes"),
        Entity("room", Room, "RMS", lookup="list_rooms"),
        Entity("device", Device, "DEV", lookup="list_devices"),
        Entity("lock_code", LockCode, "LCD", lookup="list_lock_codes"),
        Entity("group", Group, "GRP", lookup="list_groups"),
        Entity("scene", Scene, "SCN", lookup="list_scenes"),
        Entity("automation", Automation, "AUT", lookup="list_automations"),
    )

    # -- homes and rooms -------------------------------------------------------------------------

    @tool(read_only=True)
    def find_homes(self, owner_name: str | None = None, email: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find homes by their owner's name or email; with neither, list homes. Ordered by home id.

        Args:
            owner_name: part of the owner's full name, case-insensitive, such as 'Ada Park' or 'park'.
            email: the owner's email address, case-insensitive, such as 'ada.park@gmail.com'.
        """
        return [_home(h) for h in self.find(Home, name=owner_name, name_columns=("owner_name",), email=email,
                                            email_column="owner_email", limit=limit)]

    @tool(read_only=True)
    def list_rooms(self, home_id: Id("home")) -> list[dict]:
        """List a home's rooms with their floor and how many devices each holds, ordered by room id."""
        home = self.get(Home, home_id)
        counts = dict(self.db.execute(select(Device.room_id, func.count()).where(Device.home_id == home.id)
                                      .group_by(Device.room_id)).all())
        rooms = self.db.scalars(select(Room).where(Room.home_id == home.id).order_by(Room.id))
        return [{"room_id": r.id, "home_id": r.home_id, "name": r.name, "floor": r.floor,
                 "devices": counts.get(r.id, 0)} for r in rooms]

    # -- devices ---------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_devices(self, home_id: Id("home"), room_id: Id("room") | None = None, type: DeviceType | None = None,
                     status: Literal["online", "offline"] | None = None) -> list[dict]:
        """List a home's devices with their present state, ordered by device id.

        Args:
            room_id: only devices in this room.
            type: only devices of this type: 'light', 'thermostat', 'lock', 'blind', 'plug', 'speaker',
                'camera' or 'sensor'.
            status: only devices that are 'online' or 'offline'.
        """
        home = self.get(Home, home_id)
        room = None
        if room_id is not None:
            room = self.get(Room, room_id)
            if room.home_id != home.id:
                raise ToolError(f"Room {room.id} ({room.name}) is not in home {home.id}; list_rooms lists its rooms")
        found = self.load(Device, "SELECT id FROM devices WHERE home_id = ?1 AND (?2 IS NULL OR room_id = ?2) "
                             "AND (?3 IS NULL OR type = ?3) AND (?4 IS NULL OR online = ?4) ORDER BY id",
                             home.id, room and room.id, type, None if status is None else status == "online")
        rooms = dict(self.rows("SELECT id, name FROM rooms WHERE home_id = ?", home.id))
        return [_device(d, rooms) for d in found]

    @tool(read_only=True)
    def get_device(self, device_id: Id("device")) -> dict:
        """Return one device in full: state, capabilities, supported ranges, battery, maker and when it
        was last seen."""
        d = self.get(Device, device_id)
        info = {**_device(d, self._rooms_of(d)), "capabilities": d.capabilities.split(","),
                "manufacturer": d.manufacturer, "model": d.model, "battery": d.battery, "last_seen": d.last_seen}
        if d.min_kelvin is not None:
            info["kelvin_range"] = [d.min_kelvin, d.max_kelvin]
        if d.min_temp is not None:
            info["temperature_range"] = [d.min_temp, d.max_temp]
            info["supported_modes"] = d.hvac_modes.split(",") if d.hvac_modes else []
        if d.type == "lock":
            info["auto_lock_minutes"] = d.auto_lock_minutes
        return info

    @tool(idempotent=True)
    def turn_on(self, device_id: Id("device")) -> dict:
        """Turn on a light, plug, speaker or camera."""
        return self._command(self.get(Device, device_id), "turn_on")

    @tool(idempotent=True)
    def turn_off(self, device_id: Id("device")) -> dict:
        """Turn off a light, plug, speaker or camera."""
        return self._command(self.get(Device, device_id), "turn_off")

    @tool(idempotent=True)
    def set_brightness(self, device_id: Id("device"), brightness: int) -> dict:
        """Set a dimmable light's brightness, turning it on.

        Args:
            brightness: the brightness in percent, from 1 to 100, such as 40.
        """
        return self._command(self.get(Device, device_id), "set_brightness", brightness)

    @tool(idempotent=True)
    def set_color_temperature(self, device_id: Id("device"), kelvin: int) -> dict:
        """Set a light's white colour temperature, turning it on. Each bulb has its own kelvin range
        (get_device shows it); warm white is about 2700 K, daylight about 5000 K.

        Args:
            kelvin: the colour temperature in kelvin, such as 2700.
        """
        return self._command(self.get(Device, device_id), "set_color_temperature", kelvin)

    @tool(idempotent=True)
    def set_color(self, device_id: Id("device"), color: Color) -> dict:
        """Set a colour light's colour, turning it on. Only lights with the 'color' capability can.

        Args:
            color: 'red', 'orange', 'yellow', 'green', 'cyan', 'blue', 'purple', 'pink' or 'white'.
        """
        return self._command(self.get(Device, device_id), "set_color", color)

    @tool(idempotent=True)
    def set_thermostat_mode(self, device_id: Id("device"), mode: HvacMode) -> dict:
        """Set a thermostat's mode. Some thermostats only heat (get_device lists the supported modes).

        Args:
            mode: 'off', 'heat', 'cool' or 'auto'.
        """
        return self._command(self.get(Device, device_id), "set_mode", mode)

    @tool(idempotent=True)
    def set_temperature(self, device_id: Id("device"), temperature: float) -> dict:
        """Set a thermostat's target temperature in degrees Fahrenheit (rounded to half a degree).
        The thermostat must not be off, and the value must be within its range (get_device shows it).

        Args:
            temperature: the target in degrees Fahrenheit, such as 68 or 71.5.
        """
        return self._command(self.get(Device, device_id), "set_temperature", temperature)

    @tool(idempotent=True)
    def set_blind_position(self, device_id: Id("device"), position: int) -> dict:
        """Move blinds or shades to a position.

        Args:
            position: how far open, in percent: 0 is closed, 100 fully open, such as 50.
        """
        return self._command(self.get(Device, device_id), "set_position", position)

    @tool(idempotent=True)
    def set_volume(self, device_id: Id("device"), volume: int) -> dict:
        """Set a speaker's volume.

        Args:
            volume: the volume in percent, from 0 to 100, such as 25.
        """
        return self._command(self.get(Device, device_id), "set_volume", volume)

    # -- locks -----------------------------------------------------------------------------------

    @tool(idempotent=True)
    def lock_door(self, device_id: Id("device")) -> dict:
        """Lock a door lock. The lock must be online; locking a locked door changes nothing."""
        return self._command(self.get(Device, device_id), "lock")

    @tool(idempotent=True)
    def unlock_door(self, device_id: Id("device"), code: str) -> dict:
        """Unlock a door lock with one of its codes. The code must be one the lock holds and must not
        have expired; only the person who holds it can give it.

        Args:
            code: the lock code, 4 to 8 digits, as the user gives it, such as '4821'.
        """
        d = self.get(Device, device_id)
        self._refuse(d, "unlock", None)
        entry = self.db.scalar(select(LockCode).where(LockCode.device_id == d.id, LockCode.code == code.strip()))
        if entry is None:
            raise ToolError(f"Incorrect code for {d.name} ({d.id}); the door stays locked. Ask for the right code")
        if _expired(entry, self.now):
            raise ToolError(f"The code '{entry.name}' for {d.name} expired on {entry.expires_at:%Y-%m-%d %H:%M}; "
                            "the door stays locked. Use another code or add a new one")
        d.locked = False
        return {**_device(d, self._rooms_of(d)), "unlocked_with": entry.name}

    @tool(idempotent=True)
    def set_auto_lock(self, device_id: Id("device"), minutes: int) -> dict:
        """Set how many minutes after unlocking a lock locks itself again; 0 turns auto-lock off.

        Args:
            minutes: from 1 to 60, or 0 to turn auto-lock off, such as 5.
        """
        d = self.get(Device, device_id)
        self._refuse(d, "set_auto_lock", None)
        if not 0 <= minutes <= 60:
            raise ToolError(f"Auto-lock minutes must be 0 (off) or 1 to 60, got {minutes}")
        d.auto_lock_minutes = minutes
        return {"device_id": d.id, "name": d.name, "auto_lock_minutes": minutes, "auto_lock": minutes > 0}

    @tool(read_only=True)
    def list_lock_codes(self, device_id: Id("device")) -> list[dict]:
        """List the codes a lock holds, by the person's name, with whether each is active or expired.
        The digits themselves are never shown."""
        d = self._lock(self.get(Device, device_id))
        codes = self.load(LockCode, "SELECT id FROM lock_codes WHERE device_id = ? ORDER BY id", d.id)
        return [_code(c, self.now) for c in codes]

    @tool(produces=("lock_code",))
    def add_lock_code(self, device_id: Id("device"), name: str, code: str, expires_on: Date | None = None) -> dict:
        """Add a code to a lock for a person, optionally expiring at the end of a day. The lock must be
        online; it holds at most 10 codes; names and codes are unique on a lock.

        Args:
            name: who the code is for, such as 'Dog walker' or 'Grandma'.
            code: 4 to 8 digits, such as '260419'.
            expires_on: the last day the code works, after today, such as '2026-12-31'; none for no expiry.
        """
        d = self._lock(self.get(Device, device_id))
        self._refuse(d, "lock", None)
        label = name.strip()
        if not 1 <= len(label) <= 40:
            raise ToolError(f"A code's name must be 1 to 40 characters, got {len(label)}")
        digits = code.strip()
        if not re.fullmatch(r"\d{4,8}", digits):
            raise ToolError("A lock code must be 4 to 8 digits")
        codes = list(self.db.scalars(select(LockCode).where(LockCode.device_id == d.id)))
        if any(c.name.lower() == label.lower() for c in codes):
            raise ToolError(f"{d.name} already has a code named '{label}'; remove it first or pick another name")
        if any(c.code == digits for c in codes):
            raise ToolError(f"{d.name} already uses that code for someone else; choose different digits")
        if len(codes) >= MAX_CODES:
            raise ToolError(f"{d.name} already holds {len(codes)} codes, the most it can; remove one first "
                            "(expired codes count too)")
        expires = None
        if expires_on is not None:
            if expires_on <= self.now.date():
                raise ToolError(f"expires_on must be after today ({self.now.date()}), got {expires_on}")
            expires = dt.datetime.combine(expires_on, dt.time(23, 59))
        entry = LockCode(id=self.new_id("LCD"), device_id=d.id, name=label, code=digits, created_at=self.now,
                         expires_at=expires)
        self.db.add(entry)
        return _code(entry, self.now)

    @tool(destructive=True)
    def remove_lock_code(self, code_id: Id("lock_code")) -> dict:
        """Remove a code from its lock for good. The lock must be online."""
        entry = self.get(LockCode, code_id)
        d = self.get(Device, entry.device_id)
        self._refuse(d, "lock", None)
        self.db.delete(entry)
        return {"code_id": entry.id, "device_id": d.id, "name": entry.name, "removed": True}

    @tool(read_only=True, hidden=True)
    def reveal_lock_codes(self, device_id: Id("device")) -> list[dict]:
        """Support only: a lock's codes with their digits."""
        d = self._lock(self.get(Device, device_id))
        codes = self.load(LockCode, "SELECT id FROM lock_codes WHERE device_id = ? ORDER BY id", d.id)
        return [{**_code(c, self.now), "code": c.code} for c in codes]

    # -- history and summaries -------------------------------------------------------------------

    @tool(read_only=True)
    def get_sensor_readings(self, device_id: Id("device"), start: DateTime | None = None, end: DateTime | None = None,
                            limit: Limit = 20) -> dict:
        """A sensor's or plug's reading history up to now, newest first. Temperatures in degrees
        Fahrenheit, humidity in percent; motion, contact (1 = open) and smoke readings are events with
        the value 1 (0 = cleared); plugs have one energy reading per day, in kWh.

        Args:
            start: only readings at or after this time, such as '2026-05-01T00:00:00'.
            end: only readings at or before this time, such as '2026-05-03T23:59:00'.
        """
        d = self._history(self.get(Device, device_id))
        if start is not None and end is not None:
            check_range(start, end, ("start", "end"))
        query = select(Reading).where(Reading.device_id == d.id).order_by(Reading.at.desc(), Reading.id.desc())
        if start is not None:
            query = query.where(Reading.at >= start)
        if end is not None:
            query = query.where(Reading.at <= end)
        rows = self.db.scalars(query.limit(limit)).all()
        return {"device_id": d.id, "name": d.name, "metric": _metric(d), "unit": _unit(d),
                "readings": [{"at": r.at, "value": r.value} for r in rows]}

    @tool(read_only=True)
    def get_reading_summary(self, device_id: Id("device"), start_date: Date, end_date: Date) -> dict:
        """Summarise a sensor's or plug's readings over whole days: lowest, highest and average for
        temperature and humidity, total kWh for a plug, the number of events for motion, contact and
        smoke sensors.

        Args:
            start_date: the first day, such as '2026-05-01'.
            end_date: the last day, included, not after today, such as '2026-05-07'.
        """
        d = self._history(self.get(Device, device_id))
        self._period(start_date, end_date)
        lo, hi = _day_bounds(start_date, end_date)
        rows = self.db.execute(select(Reading.at, Reading.value).where(
            Reading.device_id == d.id, Reading.at >= lo, Reading.at < hi).order_by(Reading.at)).all()
        values = [v for _, v in rows]
        metric = _metric(d)
        out = {"device_id": d.id, "name": d.name, "metric": metric, "unit": _unit(d), "start_date": start_date,
               "end_date": end_date, "readings": len(values)}
        if metric == "energy":
            out["total_kwh"] = round(sum(values), 2)
        elif metric in ("temperature", "humidity"):
            out.update(lowest=min(values) if values else None, highest=max(values) if values else None,
                       average=round(sum(values) / len(values), 1) if values else None)
        else:
            events = [at for at, v in rows if v >= 1]
            out.update(events=len(events), last_event=events[-1] if events else None)
        return out

    @tool(read_only=True)
    def get_energy_summary(self, home_id: Id("home"), start_date: Date, end_date: Date) -> dict:
        """Energy used by a home's smart plugs over whole days: each plug's kWh, highest first, and the
        total.

        Args:
            start_date: the first day, such as '2026-05-01'.
            end_date: the last day, included, not after today, such as '2026-05-07'.
        """
        home = self.get(Home, home_id)
        self._period(start_date, end_date)
        lo, hi = _day_bounds(start_date, end_date)
        plugs = self.rows("SELECT d.id, d.name, (SELECT sum(r.value) FROM readings r WHERE r.device_id = d.id "
                          "AND r.at >= ? AND r.at < ?) FROM devices d WHERE d.home_id = ? AND d.type = 'plug'",
                          lo, hi, home.id)
        rows = sorted(({"device_id": pid, "name": name, "kwh": round(0.0 if kwh is None else kwh, 2)}
                       for pid, name, kwh in plugs), key=lambda r: (-r["kwh"], r["device_id"]))
        return {"home_id": home.id, "start_date": start_date, "end_date": end_date, "devices": rows,
                "total_kwh": round(sum(r["kwh"] for r in rows), 2)}

    # -- groups ----------------------------------------------------------------------------------

    @tool(read_only=True, produces=("device",))
    def list_groups(self, home_id: Id("home")) -> list[dict]:
        """List a home's device groups with their members, ordered by group id."""
        home = self.get(Home, home_id)
        groups = self.load(Group, "SELECT id FROM device_groups WHERE home_id = ? ORDER BY id", home.id)
        return [self._group(g) for g in groups]

    @tool(idempotent=True)
    def switch_group(self, group_id: Id("group"), state: Literal["on", "off"]) -> dict:
        """Turn every device of a group on or off at once. All or nothing: if any member is offline or
        cannot be switched, nothing changes and the refusal names each device and why.

        Args:
            state: 'on' or 'off'.
        """
        group = self.get(Group, group_id)
        command = "turn_on" if state == "on" else "turn_off"
        devices = self._members(group.id)
        self._all_or_nothing(f"Group '{group.name}' was not switched {state}",
                             [(d, command, None) for d in devices])
        return {**self._group(group), "switched": state}

    # -- scenes ----------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_scenes(self, home_id: Id("home")) -> list[dict]:
        """List a home's scenes with the commands each sends, ordered by scene id."""
        home = self.get(Home, home_id)
        return [self._scene(s) for s in self.load(Scene, "SELECT id FROM scenes WHERE home_id = ? ORDER BY id",
                                                     home.id)]

    @tool(idempotent=True)
    def activate_scene(self, scene_id: Id("scene")) -> dict:
        """Activate a scene: send each of its commands. All or nothing: if any device is offline or would
        refuse its command, nothing changes and the refusal names each device and why."""
        scene = self.get(Scene, scene_id)
        actions = self._actions(scene.id)
        devices = {d.id: d for d in self.db.scalars(select(Device).where(Device.id.in_({a.device_id for a in actions})))}
        steps = [(devices[a.device_id], a.command, _parse(a.command, a.value)) for a in actions]
        self._all_or_nothing(f"Scene '{scene.name}' was not activated", steps)
        scene.last_activated = self.now
        return {**self._scene(scene), "activated": True}

    @tool(produces=("scene",))
    def create_scene(self, home_id: Id("home"), name: str, device_ids: list[Id("device")]) -> dict:
        """Save a scene from the present state of some devices of a home (their power, brightness, colour,
        thermostat mode and set point, blind position, volume, locked doors). Every device must be online
        and not a sensor; an unlocked lock cannot be captured, since scenes never unlock.

        Args:
            name: the scene's name, unique in the home, such as 'Reading time'.
            device_ids: the devices whose present state the scene keeps, such as ['DEV-0007', 'DEV-0012'].
        """
        home = self.get(Home, home_id)
        label = self._new_name(Scene, home.id, name, "scene")
        devices = self._home_devices(home, device_ids)
        actions: list[tuple[Device, str, str | None]] = []
        for d in devices:
            if not d.online:
                raise ToolError(f"{d.name} ({d.id}) is offline, so its state cannot be captured; leave it out or "
                                "bring it back online")
            captured = _snapshot(d)
            if captured is None:
                raise ToolError(f"{d.name} ({d.id}) is a {d.type}; it has no state a scene can set")
            if captured == []:
                raise ToolError(f"{d.name} ({d.id}) is unlocked, and scenes never unlock doors; lock it first or "
                                "leave it out")
            actions += [(d, c, v) for c, v in captured]
        scene = Scene(id=self.new_id("SCN"), home_id=home.id, name=label, created_at=self.now, last_activated=None)
        self.db.add(scene)
        for seq, (d, command, value) in enumerate(actions, 1):
            self.db.add(SceneAction(scene_id=scene.id, seq=seq, device_id=d.id, command=command, value=value))
        self.db.flush()
        return self._scene(scene)

    @tool(destructive=True)
    def delete_scene(self, scene_id: Id("scene")) -> dict:
        """Delete a scene for good; its devices are not changed."""
        scene = self.get(Scene, scene_id)
        for action in self._actions(scene.id):
            self.db.delete(action)
        self.db.delete(scene)
        return {"scene_id": scene.id, "name": scene.name, "deleted": True}

    # -- automations -----------------------------------------------------------------------------

    @tool(read_only=True)
    def list_automations(self, home_id: Id("home"), enabled: bool | None = None) -> list[dict]:
        """List a home's automations: trigger, command, target devices and whether each is enabled.

        Args:
            enabled: only enabled (true) or only disabled (false) automations.
        """
        home = self.get(Home, home_id)
        found = self.load(Automation, "SELECT id FROM automations WHERE home_id = ?1 AND (?2 IS NULL OR enabled = ?2) "
                                      "ORDER BY id", home.id, enabled)
        targets: dict[str, list[dict]] = {}
        for automation_id, device_id, name in self.rows(
                "SELECT t.automation_id, d.id, d.name FROM automation_targets t JOIN devices d ON d.id = t.device_id "
                "JOIN automations a ON a.id = t.automation_id WHERE a.home_id = ? ORDER BY d.id", home.id):
            targets.setdefault(automation_id, []).append({"device_id": device_id, "name": name})
        return [self._automation(a, targets.get(a.id, [])) for a in found]

    @tool(produces=("automation",), details=(Detail("automations", "description"),))
    def create_automation(self, home_id: Id("home"), name: str, trigger: Trigger, command: AutomationCommand,
                          device_ids: list[Id("device")], sensor_id: Id("device") | None = None,
                          threshold: float | None = None, at_time: str | None = None,
                          value: float | None = None, description: str | None = None) -> dict:
        """Create an enabled automation: when the trigger fires, send one command to some devices.
        Everything is checked before it is saved: the trigger's sensor and threshold, each target's
        capability and the command's value.

        Args:
            name: unique in the home, such as 'Porch light at dusk'.
            trigger: 'time' (every day at at_time), 'above' or 'below' (a temperature or humidity sensor
                crossing threshold), or 'motion' (a motion sensor detecting motion).
            command: 'turn_on', 'turn_off', 'set_brightness', 'set_color_temperature', 'set_temperature',
                'lock', 'set_position' or 'set_volume'. Automations never unlock doors.
            device_ids: the devices the command goes to, in the same home, such as ['DEV-0007'].
            sensor_id: the sensor that triggers 'above', 'below' and 'motion'.
            threshold: for 'above' and 'below', in the sensor's unit, such as 75 (degrees F) or 60 (% humidity).
            at_time: for 'time', the local time as HH:MM on a 24-hour clock, such as '19:30'.
            value: the command's value where it takes one (brightness, kelvin, degrees F, position,
                volume), such as 40.
            description: an optional note on what the automation is for, such as 'So nobody trips at night'.
        """
        home = self.get(Home, home_id)
        label = self._new_name(Automation, home.id, name, "automation")
        sensor = None
        if trigger == "time":
            if at_time is None or not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", at_time.strip()):
                raise ToolError("A 'time' trigger needs at_time as HH:MM on a 24-hour clock, such as '07:30'")
            if sensor_id is not None or threshold is not None:
                raise ToolError("A 'time' trigger takes no sensor_id or threshold")
            at_time = at_time.strip()
        else:
            if at_time is not None:
                raise ToolError(f"A '{trigger}' trigger takes no at_time")
            if sensor_id is None:
                raise ToolError(f"A '{trigger}' trigger needs sensor_id: the sensor that fires it")
            sensor = self.get(Device, sensor_id)
            if sensor.home_id != home.id:
                raise ToolError(f"{sensor.name} ({sensor.id}) is not in home {home.id}")
            wanted = ("motion",) if trigger == "motion" else ("temperature", "humidity")
            if sensor.type != "sensor" or sensor.sensor_kind not in wanted:
                kind = sensor.sensor_kind + " sensor" if sensor.type == "sensor" else sensor.type
                raise ToolError(f"A '{trigger}' trigger needs a {' or '.join(wanted)} sensor; "
                                f"{sensor.name} ({sensor.id}) is a {kind}")
            if trigger == "motion":
                if threshold is not None:
                    raise ToolError("A 'motion' trigger takes no threshold")
            else:
                lo, hi = SENSOR_RANGES[sensor.sensor_kind]
                if threshold is None:
                    raise ToolError(f"An '{trigger}' trigger needs a threshold, in {_unit(sensor)}")
                if not lo <= threshold <= hi:
                    raise ToolError(f"A {sensor.sensor_kind} threshold must be between {lo:g} and {hi:g} "
                                    f"{_unit(sensor)}, got {threshold:g}")
        targets = self._home_devices(home, device_ids)
        if sensor is not None and any(d.id == sensor.id for d in targets):
            raise ToolError(f"{sensor.name} triggers the automation and cannot also be its target")
        refusals = [f"{d.name} ({d.id}): {reason}" for d in targets
                    if (reason := _refusal(d, command, value, check_online=False))]
        if refusals:
            raise ToolError("The automation was not saved: " + "; ".join(refusals))
        if command not in NEEDS_VALUE and value is not None:
            raise ToolError(f"'{command}' takes no value")
        automation = Automation(id=self.new_id("AUT"), home_id=home.id, name=label,
                                description=(description or "").strip()[:200] or None, trigger=trigger,
                                sensor_id=sensor.id if sensor else None, threshold=threshold, at_time=at_time,
                                command=command, value=_store(command, value), enabled=True, created_at=self.now,
                                last_triggered=None, switched_at=self.now)
        self.db.add(automation)
        for d in targets:
            self.db.add(AutomationTarget(automation_id=automation.id, device_id=d.id))
        self.db.flush()
        return self._automation(automation)

    @tool(idempotent=True)
    def set_automation_enabled(self, automation_id: Id("automation"), enabled: bool) -> dict:
        """Enable or disable an automation; a disabled one stays saved but never fires. Enabling it
        again does not make up for the triggers it missed while disabled.

        Args:
            enabled: true to enable, false to disable.
        """
        automation = self.get(Automation, automation_id)
        if automation.enabled != enabled:
            automation.enabled, automation.switched_at = enabled, self.now
        return self._automation(automation)

    @tool()
    def run_automation(self, automation_id: Id("automation")) -> dict:
        """Run an enabled automation now, whatever its trigger: send its command to each of its devices.
        All or nothing: if any device is offline or would refuse the command, nothing changes and the
        refusal names each device and why. The run is logged, and each device's history says so."""
        automation = self.get(Automation, automation_id)
        if not automation.enabled:
            raise ToolError(f"Automation '{automation.name}' ({automation.id}) is disabled, so it cannot run; "
                            "enable it with set_automation_enabled first")
        targets = self._targets(automation.id)
        value = _parse(automation.command, automation.value)
        self._all_or_nothing(f"Automation '{automation.name}' did not run",
                             [(d, automation.command, value) for d in targets])
        run = AutomationRun(id=self.new_id("RUN", 5), home_id=automation.home_id, automation_id=automation.id,
                            automation=automation.name, at=self.now, cause="manual", status="done", detail=None)
        self.db.add(run)
        self.db.add_all([DeviceLog(id=self.new_id("LOG", 5), device_id=d.id, run_id=run.id, at=self.now,
                                   command=automation.command, value=automation.value) for d in targets])
        automation.last_triggered = self.now
        self.db.flush()
        rooms = self._rooms_of(*targets)
        return {**self._automation(automation), "run": self._runs([run])[0],
                "device_states": [_device(d, rooms) for d in targets]}

    @tool(read_only=True)
    def list_automation_runs(self, home_id: Id("home"), automation_id: Id("automation") | None = None,
                             status: RunStatus | None = None, start: DateTime | None = None,
                             end: DateTime | None = None, limit: Limit = 20) -> list[dict]:
        """The log of a home's automation runs, newest first: when each ran, why (its 'time' of day came,
        a 'sensor' crossed its threshold, 'motion' was seen, or someone ran it by hand: 'manual'),
        whether it was 'done' or 'failed' (and why), and the devices it reached. The hub keeps 10 days.

        Args:
            automation_id: only the runs of this automation.
            status: only runs that were 'done' or that 'failed'.
            start: only runs at or after this time, such as '2026-05-01T18:00:00'.
            end: only runs at or before this time, such as '2026-05-02T06:00:00'.
        """
        home = self.get(Home, home_id)
        if automation_id is not None:
            automation = self.get(Automation, automation_id)
            if automation.home_id != home.id:
                raise ToolError(f"Automation {automation.id} ({automation.name}) is not in home {home.id}; "
                                "list_automations lists its automations")
        if start is not None and end is not None:
            check_range(start, end, ("start", "end"))
        runs = self.load(AutomationRun, "SELECT id FROM automation_runs WHERE home_id = ?1 "
                                        "AND (?2 IS NULL OR automation_id = ?2) AND (?3 IS NULL OR status = ?3) "
                                        "AND (?4 IS NULL OR at >= ?4) AND (?5 IS NULL OR at <= ?5) "
                                        "ORDER BY at DESC, id DESC LIMIT ?6",
                         home.id, automation_id, status, start, end, limit)
        return self._runs(runs)

    @tool(read_only=True)
    def get_device_history(self, device_id: Id("device"), start: DateTime | None = None,
                           end: DateTime | None = None, limit: Limit = 20) -> dict:
        """What automations did to a device, newest first: each command a run sent it, when, and which
        automation (changes made by hand or by scenes are not in it). The hub keeps 10 days.

        Args:
            start: only entries at or after this time, such as '2026-05-01T18:00:00'.
            end: only entries at or before this time, such as '2026-05-02T06:00:00'.
        """
        d = self.get(Device, device_id)
        if start is not None and end is not None:
            check_range(start, end, ("start", "end"))
        rows = self.rows("SELECT g.at, g.command, g.value, r.id, r.automation_id, r.automation, r.cause "
                         "FROM device_log g JOIN automation_runs r ON r.id = g.run_id WHERE g.device_id = ?1 "
                         "AND (?2 IS NULL OR g.at >= ?2) AND (?3 IS NULL OR g.at <= ?3) "
                         "ORDER BY g.at DESC, g.id DESC LIMIT ?4", d.id, start, end, limit)
        return {"device_id": d.id, "name": d.name,
                "history": [{"at": dt.datetime.fromisoformat(at), "command": command, "value": _parse(command, value),
                             "automation": name, "automation_id": automation_id, "run_id": run_id, "cause": cause}
                            for at, command, value, run_id, automation_id, name, cause in rows]}

    @tool(destructive=True)
    def delete_automation(self, automation_id: Id("automation")) -> dict:
        """Delete an automation for good. Its past runs stay in the log and in the devices' history,
        under its name."""
        automation = self.get(Automation, automation_id)
        for target in self.db.scalars(select(AutomationTarget).where(AutomationTarget.automation_id == automation.id)):
            self.db.delete(target)
        for run in self.db.scalars(select(AutomationRun).where(AutomationRun.automation_id == automation.id)):
            run.automation_id = None
        self.db.delete(automation)
        return {"automation_id": automation.id, "name": automation.name, "deleted": True}

    # -- rules -----------------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """Every device's state is inside its range (brightness, kelvin, set point, mode, position, volume,
        battery) and a plug that is off draws nothing; a lock holds at most 10 codes, unique by name and
        digits, each expiring (if ever) after it was created; groups, scenes and automations reach only devices of their own home, and scenes and
        automations never unlock; automations ran whenever the clock passed their trigger while enabled,
        and only then or by hand (`_automation_rules`); nothing recorded (last seen, readings, creations,
        activations, runs) lies after the clock."""
        problems = []
        homes = {}
        for d in self.db.scalars(select(Device)):
            homes[d.id] = d.home_id
            if d.brightness is not None and not 1 <= d.brightness <= 100:
                problems.append(f"{d.id} brightness {d.brightness}")
            if d.target_temp is not None and not d.min_temp <= d.target_temp <= d.max_temp:
                problems.append(f"{d.id} target {d.target_temp}")
            if d.color_temp is not None and not d.min_kelvin <= d.color_temp <= d.max_kelvin:
                problems.append(f"{d.id} kelvin {d.color_temp}")
            if d.hvac_mode is not None and d.hvac_mode not in d.hvac_modes.split(","):
                problems.append(f"{d.id} is in mode {d.hvac_mode}, not one of {d.hvac_modes}")
            for what, level in (("position", d.position), ("volume", d.volume), ("battery", d.battery)):
                if level is not None and not 0 <= level <= 100:
                    problems.append(f"{d.id} {what} {level}")
            if d.type == "plug" and not d.is_on and d.power_w:
                problems.append(f"{d.id} is off but draws {d.power_w} W")
        codes: dict[str, list[LockCode]] = {}
        for c in self.db.scalars(select(LockCode)):
            codes.setdefault(c.device_id, []).append(c)
        for device_id, held in codes.items():
            problems += [f"lock code {c.id} expires at {c.expires_at}, before it was created at {c.created_at}"
                         for c in held if c.expires_at is not None and c.expires_at <= c.created_at]
            if len(held) > MAX_CODES or len({c.name.lower() for c in held}) < len(held) \
                    or len({c.code for c in held}) < len(held):
                problems.append(f"{device_id} holds {len(held)} codes, some with the same name or digits")
        for kind, rows in (("group", self.db.execute(select(Group.id, Group.home_id, GroupMember.device_id).join(
                               GroupMember, GroupMember.group_id == Group.id))),
                           ("scene", self.db.execute(select(Scene.id, Scene.home_id, SceneAction.device_id).join(
                               SceneAction, SceneAction.scene_id == Scene.id))),
                           ("automation", self.db.execute(select(Automation.id, Automation.home_id,
                                                                 AutomationTarget.device_id).join(
                               AutomationTarget, AutomationTarget.automation_id == Automation.id)))):
            problems += [f"{kind} {owner} of home {home} reaches {device} of home {homes.get(device)}"
                         for owner, home, device in rows if homes.get(device) != home]
        problems += [f"scene {scene} unlocks {device}" for scene, device in self.db.execute(
            select(SceneAction.scene_id, SceneAction.device_id).where(SceneAction.command == "unlock"))]
        problems += [f"automation {a} unlocks" for a in self.db.scalars(
            select(Automation.id).where(Automation.command == "unlock"))]
        problems += self.after_now(Device.last_seen, Device.reading_at, LockCode.created_at, Reading.at,
                                   Scene.created_at, Scene.last_activated, Automation.created_at,
                                   Automation.last_triggered, Automation.switched_at, AutomationRun.at, DeviceLog.at)
        problems += self._automation_rules(homes)
        return problems

    def _automation_rules(self, homes: dict[str, str]) -> list[str]:
        """Runs agree with their automations and with the clock: each run is of its automation's home,
        after its creation and not after it was disabled; its last_triggered is its latest run; a done
        run sent the command to each target (the devices' history) and a failed one to none; and every
        trigger an enabled automation's clock passed since it was switched on (within the kept days)
        has its run."""
        problems = []
        stamp = dt.datetime.fromisoformat
        logs: dict[str, list[tuple[str, str, str | None, str]]] = {}
        for run_id, device_id, command, value, at in self.rows(
                "SELECT run_id, device_id, command, value, at FROM device_log"):
            logs.setdefault(run_id, []).append((device_id, command, value, at))
        runs: dict[str | None, list[tuple]] = {}
        for run in self.rows("SELECT id, home_id, automation_id, at, cause, status FROM automation_runs "
                             "ORDER BY at, id"):
            run_id, home_id, automation_id, at, cause, status = run
            if cause not in ("time", "sensor", "motion", "manual") or status not in ("done", "failed"):
                problems.append(f"run {run_id} has cause {cause} and status {status}")
            problems += [f"device log of run {run_id} reaches {device_id} at {when}"
                         for device_id, _, _, when in logs.get(run_id, ())
                         if when != at or homes.get(device_id) != home_id]
            runs.setdefault(automation_id, []).append(run)
        targets: dict[str, set[str]] = {}
        for automation_id, device_id in self.rows("SELECT automation_id, device_id FROM automation_targets"):
            targets.setdefault(automation_id, set()).add(device_id)
        readings: dict[str, list[tuple[dt.datetime, float]]] = {}
        for device_id, at, value in self.rows(
                "SELECT device_id, at, value FROM readings WHERE device_id IN (SELECT sensor_id FROM automations "
                "WHERE enabled) ORDER BY device_id, at, id"):
            readings.setdefault(device_id, []).append((stamp(at), value))
        kept = self.now - dt.timedelta(days=HISTORY_DAYS)
        for a in self.db.scalars(select(Automation)):
            mine = runs.get(a.id, [])
            latest = stamp(mine[-1][3]) if mine else None
            if a.switched_at < a.created_at:
                problems.append(f"automation {a.id} was switched at {a.switched_at}, before it was created")
            if latest != a.last_triggered:
                problems.append(f"automation {a.id} last triggered {a.last_triggered}, but its latest run is {latest}")
            wanted = targets.get(a.id, set())
            for run_id, home_id, _, at, _, status in mine:
                when = stamp(at)
                if home_id != a.home_id or when < a.created_at:
                    problems.append(f"run {run_id} of automation {a.id} is of home {home_id} at {at}")
                if not a.enabled and when > a.switched_at:
                    problems.append(f"run {run_id} of automation {a.id} at {at}, after it was disabled")
                sent = logs.get(run_id, [])
                reached = wanted if status == "done" else set()
                if len(sent) != len(reached) or {d for d, _, _, _ in sent} != reached \
                        or any((c, v) != (a.command, a.value) for _, c, v, _ in sent):
                    problems.append(f"run {run_id} ({status}) of automation {a.id} sent {len(sent)} commands "
                                    f"to its {len(wanted)} devices")
            if a.enabled:
                ran = {(stamp(at), cause) for _, _, _, at, cause, _ in mine}
                problems += [f"automation {a.id} ({a.trigger}) fired at {at} but has no run then"
                             for at, cause in firings(a, max(a.switched_at, kept), self.now,
                                                      readings.get(a.sensor_id, []))
                             if (at, cause) not in ran]
        return problems

    def _command(self, d: Device, command: str, value: object = None) -> dict:
        self._refuse(d, command, value)
        _perform(d, command, value)
        return _device(d, self._rooms_of(d))

    def _refuse(self, d: Device, command: str, value: object) -> None:
        reason = _refusal(d, command, value)
        if reason:
            raise ToolError(f"{d.name} ({d.id}) {reason}")

    def _all_or_nothing(self, what: str, steps: list[tuple[Device, str, object]]) -> None:
        """Carry out the steps in order; if any device refuses, raise naming each one (the call's
        transaction then undoes the steps already carried out)."""
        refusals, seen = [], set()
        for d, command, value in steps:
            if d.id in seen:
                continue
            reason = _refusal(d, command, value)
            if reason:
                seen.add(d.id)
                refusals.append(f"{d.name} ({d.id}) {reason}")
            else:
                _perform(d, command, value)
        if refusals:
            raise ToolError(f"{what}; nothing was changed. Refused by: " + "; ".join(refusals))

    def _lock(self, d: Device) -> Device:
        if d.type != "lock":
            raise ToolError(f"{d.name} ({d.id}) is a {d.type}, not a lock; only locks hold codes")
        return d

    def _history(self, d: Device) -> Device:
        if d.type not in HISTORY_TYPES:
            raise ToolError(f"{d.name} ({d.id}) is a {d.type} and keeps no reading history; sensors and plugs do")
        return d

    def _period(self, start: dt.date, end: dt.date) -> None:
        check_range(start, end)
        if end > self.now.date():
            raise ToolError(f"end_date {end} is in the future; readings go up to today ({self.now.date()})")

    def _rooms_of(self, *devices: Device) -> dict[str, str]:
        """Room names of a few devices, from rows the session already holds where it can."""
        return {room_id: self.get(Room, room_id).name for room_id in {d.room_id for d in devices}}

    def _home_devices(self, home: Home, device_ids: list[str]) -> list[Device]:
        if not device_ids:
            raise ToolError("device_ids must name at least one device")
        if len(set(device_ids)) != len(device_ids):
            raise ToolError("device_ids names a device more than once")
        devices = [self.get(Device, i) for i in device_ids]
        for d in devices:
            if d.home_id != home.id:
                raise ToolError(f"{d.name} ({d.id}) is not in home {home.id}; list_devices lists its devices")
        return devices

    def _new_name(self, model: type, home_id: str, name: str, what: str) -> str:
        label = name.strip()
        if not 1 <= len(label) <= MAX_NAME:
            raise ToolError(f"A {what} name must be 1 to {MAX_NAME} characters, got {len(label)}")
        taken = self.db.scalar(select(model.id).where(model.home_id == home_id,
                                                      func.lower(model.name) == label.lower()))
        if taken is not None:
            raise ToolError(f"Home {home_id} already has a {what} named '{label}' ({taken}); pick another name")
        return label

    def _members(self, group_id: str) -> list[Device]:
        return self.load(Device, "SELECT device_id FROM group_members WHERE group_id = ? ORDER BY device_id",
                            group_id)

    def _group(self, g: Group) -> dict:
        members = self._members(g.id)
        return {"group_id": g.id, "home_id": g.home_id, "name": g.name,
                "devices": [{"device_id": d.id, "name": d.name, "online": d.online, "is_on": d.is_on}
                            for d in members]}

    def _actions(self, scene_id: str) -> list[SceneAction]:
        return list(self.db.scalars(select(SceneAction).where(SceneAction.scene_id == scene_id)
                                    .order_by(SceneAction.seq)))

    def _scene(self, s: Scene) -> dict:
        actions = self.rows("SELECT a.device_id, d.name, a.command, a.value FROM scene_actions a "
                            "JOIN devices d ON d.id = a.device_id WHERE a.scene_id = ? ORDER BY a.seq", s.id)
        return {"scene_id": s.id, "home_id": s.home_id, "name": s.name, "last_activated": s.last_activated,
                "actions": [{"device_id": device_id, "device": name, "command": command,
                             "value": _parse(command, value)} for device_id, name, command, value in actions]}

    def _automation(self, a: Automation, devices: list[dict] | None = None) -> dict:
        if devices is None:
            devices = [{"device_id": i, "name": n} for i, n in self.rows(
                "SELECT d.id, d.name FROM automation_targets t JOIN devices d ON d.id = t.device_id "
                "WHERE t.automation_id = ? ORDER BY d.id", a.id)]
        out = {"automation_id": a.id, "home_id": a.home_id, "name": a.name, "description": a.description,
               "enabled": a.enabled, "trigger": a.trigger}
        if a.trigger == "time":
            out["at_time"] = a.at_time
        else:
            out["sensor_id"] = a.sensor_id
            if a.threshold is not None:
                out["threshold"] = a.threshold
        out.update(command=a.command, value=_parse(a.command, a.value),
                   devices=devices, last_triggered=a.last_triggered)
        if not a.enabled:
            out["disabled_at"] = a.switched_at
        elif a.trigger == "time":
            out["next_run"] = _next_time(a.at_time, self.now)
        return out

    def _targets(self, automation_id: str) -> list[Device]:
        return self.load(Device, "SELECT device_id FROM automation_targets WHERE automation_id = ? ORDER BY device_id",
                         automation_id)

    def _runs(self, runs: list[AutomationRun]) -> list[dict]:
        reached: dict[str, list[dict]] = {}
        if runs:
            ids = [r.id for r in runs]
            for run_id, device_id, name in self.rows(
                    f"SELECT g.run_id, g.device_id, d.name FROM device_log g JOIN devices d ON d.id = g.device_id "
                    f"WHERE g.run_id IN ({', '.join('?' * len(ids))}) ORDER BY g.run_id, g.device_id", *ids):
                reached.setdefault(run_id, []).append({"device_id": device_id, "name": name})
        out = []
        for r in runs:
            info = {"run_id": r.id, "automation_id": r.automation_id, "automation": r.automation, "at": r.at,
                    "cause": r.cause, "status": r.status}
            if r.detail is not None:
                info["detail"] = r.detail
            info["devices"] = reached.get(r.id, [])
            out.append(info)
        return out


# -- commands ---------------------------------------------------------------------------------------


def _refusal(d: Device, command: str, value: object, check_online: bool = True) -> str | None:
    """Why `d` would refuse `command` with `value`, or None when it would carry it out."""
    if check_online and not d.online:
        return f"is offline (last seen {d.last_seen:%Y-%m-%d %H:%M}); check its power and connection, then try again"
    need = CAPABILITIES[command]
    if d.type == "sensor":  # its capability names what it measures (a temperature), not a command it takes
        return f"is a {d.sensor_kind} sensor without support for {WHAT[need]} (it only reports readings)"
    caps = d.capabilities.split(",")
    if need not in caps:
        has = ", ".join(WHAT.get(c, c) for c in caps)
        return f"is a {d.type} without support for {WHAT[need]} (it supports: {has})"
    if command in NEEDS_VALUE and value is None:
        return f"needs a value for {command}"
    if command in ("set_brightness",) and not 1 <= value <= 100:
        return f"takes a brightness from 1 to 100 percent, not {value}"
    if command == "set_color_temperature" and not d.min_kelvin <= value <= d.max_kelvin:
        return f"takes a colour temperature from {d.min_kelvin} K to {d.max_kelvin} K, not {value:g} K"
    if command in ("set_position", "set_volume") and not 0 <= value <= 100:
        return f"takes a {command.removeprefix('set_')} from 0 to 100 percent, not {value}"
    if command == "set_mode" and value not in d.hvac_modes.split(","):
        return f"does not support the mode '{value}'; its modes are {d.hvac_modes.replace(',', ', ')}"
    if command == "set_temperature":
        if d.hvac_mode == "off" and check_online:
            return "is off, so it takes no set point; set its mode to heat, cool or auto first"
        if not d.min_temp <= value <= d.max_temp:
            return f"takes a set point from {d.min_temp:g} to {d.max_temp:g} degrees F, not {value:g}"
    if command in ("set_brightness", "set_color_temperature", "set_position", "set_volume") \
            and value != int(value):
        return f"takes a whole number for {command}, not {value}"
    return None


def _perform(d: Device, command: str, value: object) -> None:
    if command == "turn_on":
        d.is_on = True
        if d.type == "plug":
            d.power_w = d.power_w or 0.0
    elif command == "turn_off":
        d.is_on = False
        if d.type == "plug":
            d.power_w = 0.0
    elif command == "set_brightness":
        d.is_on, d.brightness = True, int(value)
    elif command == "set_color_temperature":
        d.is_on, d.color_temp, d.color = True, int(value), None
    elif command == "set_color":
        d.is_on, d.color = True, value
    elif command == "set_mode":
        d.hvac_mode = value
    elif command == "set_temperature":
        d.target_temp = round(float(value) * 2) / 2
    elif command == "lock":
        d.locked = True
    elif command == "set_position":
        d.position = int(value)
    elif command == "set_volume":
        d.volume = int(value)


def _snapshot(d: Device) -> list[tuple[str, str | None]] | None:
    """The commands that bring `d` back to its present state; None for sensors, [] for an unlocked lock."""
    if d.type == "sensor":
        return None
    if d.type == "lock":
        return [("lock", None)] if d.locked else []
    caps = d.capabilities.split(",")
    out: list[tuple[str, str | None]] = []
    if "on_off" in caps:
        out.append(("turn_on" if d.is_on else "turn_off", None))
        if d.is_on and "brightness" in caps and d.brightness is not None:
            out.append(("set_brightness", str(d.brightness)))
        if d.is_on and d.color is not None:
            out.append(("set_color", d.color))
        elif d.is_on and "color_temp" in caps and d.color_temp is not None:
            out.append(("set_color_temperature", str(d.color_temp)))
        if "volume" in caps and d.volume is not None:
            out.append(("set_volume", str(d.volume)))
    if "hvac" in caps:
        out.append(("set_mode", d.hvac_mode))
        if d.hvac_mode != "off":
            out.append(("set_temperature", f"{d.target_temp:g}"))
    if "position" in caps:
        out.append(("set_position", str(d.position)))
    return out


def _store(command: str, value: float | None) -> str | None:
    return None if value is None else f"{value:g}"


def _parse(command: str, value: str | None) -> object:
    if value is None or command in ("set_color", "set_mode"):
        return value
    number = float(value)
    return int(number) if number == int(number) else number


# -- results ------------------------------------------------------------------------------------------


def _home(h: Home) -> dict:
    return {"home_id": h.id, "name": h.name, "owner_name": h.owner_name, "email": h.owner_email,
            "address": h.address, "city": h.city}


def _device(d: Device, rooms: dict[str, str]) -> dict:
    # Each attribute is read once: on a loaded row, reading one costs more than the rest of the work.
    kind, room_id = d.type, d.room_id
    out = {"device_id": d.id, "name": d.name, "type": kind, "room_id": room_id, "room": rooms.get(room_id),
           "online": d.online}
    if kind in ("light", "plug", "speaker", "camera"):
        out["is_on"] = d.is_on
    if kind == "light":
        if (brightness := d.brightness) is not None:
            out["brightness"] = brightness
        if (color_temp := d.color_temp) is not None:
            out["color_temp"] = color_temp
        if (color := d.color) is not None:
            out["color"] = color
    elif kind == "thermostat":
        out.update(mode=d.hvac_mode, target_temp=d.target_temp, current_temp=d.reading)
    elif kind == "lock":
        out["locked"] = d.locked
    elif kind == "blind":
        out["position"] = d.position
    elif kind == "plug":
        out["power_w"] = d.power_w
    elif kind == "speaker":
        out["volume"] = d.volume
    elif kind == "sensor":
        sensor = d.sensor_kind
        out.update(sensor=sensor, value=d.reading, unit=_UNITS.get(sensor, "event"), reading_at=d.reading_at)
    if (battery := d.battery) is not None:
        out["battery"] = battery
    return out


def _code(c: LockCode, now: dt.datetime) -> dict:
    return {"code_id": c.id, "device_id": c.device_id, "name": c.name,
            "status": "expired" if _expired(c, now) else "active", "expires_at": c.expires_at,
            "created_at": c.created_at}


def _expired(c: LockCode, now: dt.datetime) -> bool:
    return c.expires_at is not None and c.expires_at < now


def _metric(d: Device) -> str:
    return "energy" if d.type == "plug" else d.sensor_kind


# The unit of each metric that has one; the others count events.
_UNITS = {"temperature": "degrees F", "humidity": "%", "energy": "kWh"}


def _unit(d: Device) -> str:
    return _UNITS.get(_metric(d), "event")


def _next_time(at_time: str, now: dt.datetime) -> dt.datetime:
    """The next moment after now at which a daily time of day comes."""
    hour, minute = map(int, at_time.split(":"))
    at = dt.datetime.combine(now.date(), dt.time(hour, minute))
    return at if at > now else at + dt.timedelta(days=1)


def _day_bounds(start: dt.date, end: dt.date) -> tuple[dt.datetime, dt.datetime]:
    return dt.datetime.combine(start, dt.time()), dt.datetime.combine(end + dt.timedelta(days=1), dt.time())
