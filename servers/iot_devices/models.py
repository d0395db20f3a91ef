"""The smart-home tables: homes and their rooms, devices with their live state, lock codes, the
reading history of sensors and plugs, device groups, scenes and automations, and the hub's log of
what automations did: each run, and each command a run sent to a device (its history).

A device's state lives in columns of its own row (`is_on`, `brightness`, `target_temp`, ...);
columns that do not apply to its type are null. Temperatures are in degrees Fahrenheit,
brightness, blind positions and volume in percent, energy in kWh.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Home(Base):
    __tablename__ = "homes"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "HOM-0003"
    name: Mapped[str]  # "Maple Avenue house"
    owner_name: Mapped[str]
    owner_email: Mapped[str]
    address: Mapped[str]
    city: Mapped[str]


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "RMS-0012"
    home_id: Mapped[str] = mapped_column(ForeignKey("homes.id"), index=True)
    name: Mapped[str]
    floor: Mapped[int]


class Device(Base):
    __tablename__ = "devices"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "DEV-0042"
    home_id: Mapped[str] = mapped_column(ForeignKey("homes.id"), index=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    name: Mapped[str]
    type: Mapped[str]  # light | thermostat | lock | blind | plug | speaker | camera | sensor
    manufacturer: Mapped[str]
    model: Mapped[str]
    capabilities: Mapped[str]  # comma-separated, see CAPABILITIES in tools.py
    online: Mapped[bool]
    last_seen: Mapped[dt.datetime]
    battery: Mapped[int | None]  # percent, battery-powered devices only
    is_on: Mapped[bool | None]  # lights, plugs, speakers, cameras
    brightness: Mapped[int | None]  # 1-100
    color_temp: Mapped[int | None]  # kelvin
    min_kelvin: Mapped[int | None]
    max_kelvin: Mapped[int | None]
    color: Mapped[str | None]
    hvac_mode: Mapped[str | None]  # off | heat | cool | auto
    hvac_modes: Mapped[str | None]  # the modes the thermostat supports, comma-separated
    target_temp: Mapped[float | None]
    min_temp: Mapped[float | None]
    max_temp: Mapped[float | None]
    locked: Mapped[bool | None]
    auto_lock_minutes: Mapped[int | None]  # 0 = auto-lock off
    position: Mapped[int | None]  # blinds: 0 closed .. 100 open
    volume: Mapped[int | None]
    power_w: Mapped[float | None]  # plugs: the present draw
    sensor_kind: Mapped[str | None]  # temperature | humidity | motion | contact | smoke
    reading: Mapped[float | None]  # a sensor's latest value (thermostats: the room temperature)
    reading_at: Mapped[dt.datetime | None]


class LockCode(Base):
    """A PIN code a lock accepts, for a named person; expired codes stay listed until removed."""

    __tablename__ = "lock_codes"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "LCD-0007"
    device_id: Mapped[str] = mapped_column(ForeignKey("devices.id"), index=True)
    name: Mapped[str]
    code: Mapped[str]  # 4 to 8 digits; never returned by a visible tool
    created_at: Mapped[dt.datetime]
    expires_at: Mapped[dt.datetime | None]


class Reading(Base):
    """One value in a device's history: a sensor measurement or event, or a plug's energy for one day."""

    __tablename__ = "readings"
    __table_args__ = (Index("ix_readings_device_at", "device_id", "at"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "RDG-00042"
    device_id: Mapped[str] = mapped_column(ForeignKey("devices.id"))
    metric: Mapped[str]  # temperature | humidity | motion | contact | smoke | energy
    at: Mapped[dt.datetime]
    value: Mapped[float]


class Group(Base):
    __tablename__ = "device_groups"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "GRP-0003"
    home_id: Mapped[str] = mapped_column(ForeignKey("homes.id"), index=True)
    name: Mapped[str]


class GroupMember(Base):
    __tablename__ = "group_members"

    group_id: Mapped[str] = mapped_column(ForeignKey("device_groups.id"), primary_key=True)
    device_id: Mapped[str] = mapped_column(ForeignKey("devices.id"), primary_key=True)


class Scene(Base):
    __tablename__ = "scenes"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "SCN-0004"
    home_id: Mapped[str] = mapped_column(ForeignKey("homes.id"), index=True)
    name: Mapped[str]
    created_at: Mapped[dt.datetime]
    last_activated: Mapped[dt.datetime | None]


class SceneAction(Base):
    """One command a scene sends, in order (`seq`)."""

    __tablename__ = "scene_actions"

    scene_id: Mapped[str] = mapped_column(ForeignKey("scenes.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[str] = mapped_column(ForeignKey("devices.id"))
    command: Mapped[str]
    value: Mapped[str | None]


class Automation(Base):
    __tablename__ = "automations"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "AUT-0005"
    home_id: Mapped[str] = mapped_column(ForeignKey("homes.id"), index=True)
    name: Mapped[str]
    description: Mapped[str | None]
    trigger: Mapped[str]  # time | above | below | motion
    sensor_id: Mapped[str | None] = mapped_column(ForeignKey("devices.id"))
    threshold: Mapped[float | None]
    at_time: Mapped[str | None]  # "HH:MM"
    command: Mapped[str]
    value: Mapped[str | None]
    enabled: Mapped[bool]
    created_at: Mapped[dt.datetime]
    last_triggered: Mapped[dt.datetime | None]  # the latest run's time
    # when it was last enabled or disabled (its creation if never switched): a trigger the clock
    # passed since then has fired if it is enabled, and none has if it is disabled
    switched_at: Mapped[dt.datetime]


class AutomationTarget(Base):
    __tablename__ = "automation_targets"

    automation_id: Mapped[str] = mapped_column(ForeignKey("automations.id"), primary_key=True)
    device_id: Mapped[str] = mapped_column(ForeignKey("devices.id"), primary_key=True)


class AutomationRun(Base):
    """One time an automation ran: because its trigger fired (the clock reached its time, a sensor
    crossed its threshold, motion was seen) or because someone ran it by hand. A failed run changed
    nothing. Runs outlive their automation, which is then null (the name stays)."""

    __tablename__ = "automation_runs"
    __table_args__ = (Index("ix_automation_runs_home_at", "home_id", "at"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "RUN-00042"
    home_id: Mapped[str] = mapped_column(ForeignKey("homes.id"))
    automation_id: Mapped[str | None] = mapped_column(ForeignKey("automations.id"), index=True)
    automation: Mapped[str]  # the automation's name when it ran
    at: Mapped[dt.datetime]
    cause: Mapped[str]  # time | sensor | motion | manual
    status: Mapped[str]  # done | failed
    detail: Mapped[str | None]  # why a run failed


class DeviceLog(Base):
    """One command an automation's run sent to a device: the device's history."""

    __tablename__ = "device_log"
    __table_args__ = (Index("ix_device_log_device_at", "device_id", "at"),)

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "LOG-00042"
    device_id: Mapped[str] = mapped_column(ForeignKey("devices.id"))
    run_id: Mapped[str] = mapped_column(ForeignKey("automation_runs.id"), index=True)
    at: Mapped[dt.datetime]
    command: Mapped[str]
    value: Mapped[str | None]
