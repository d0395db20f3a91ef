"""The seed: 14 homes, each with its owner, 5 to 8 rooms and the devices a smart home has in them.

Lights of four kinds (plain switch, dimmable, tunable white, full colour), thermostats (some heat
only, some off), locks with their owner's code and guests' codes (some expired), blinds, plugs with
a daily energy history, speakers, cameras and sensors with a week of readings before "now". About
one device in twelve is offline, and battery devices run from nearly flat to full. Groups, scenes
and automations are built from each home's devices, so that some groups and scenes include an
offline device and cannot run, and some homes have no scenes or automations at all.

Automations fire as the clock passes their trigger: after the homes are built, the hub's log of the
last 10 days is played forward from each automation's trigger (every day at its time; each reading
of its sensor that crosses its threshold; each motion its sensor saw), up to now, or up to the time
a disabled automation was switched off. A run whose target device was already offline (or a
thermostat that was off, for a set point) failed and changed nothing; every other run sent its
command to each target, which the device's history says.
"""

from __future__ import annotations

import datetime as dt

from prove_env.world import SeedContext

from sqlalchemy import select

from .models import Automation, AutomationRun, AutomationTarget, Device, DeviceLog, Group, GroupMember, Home, \
    LockCode, Reading, Room, Scene, SceneAction

N_HOMES = 14
SENSOR_DAYS = 7
ENERGY_DAYS = 14
HISTORY_DAYS = 10  # how far back the hub keeps its log of automation runs

# room -> floor
ROOMS = {"Living room": 1, "Kitchen": 1, "Hallway": 1, "Master bedroom": 2, "Guest bedroom": 2, "Office": 2,
         "Bathroom": 2, "Dining room": 1, "Garage": 1, "Porch": 1, "Nursery": 2, "Basement": 0}
OPTIONAL_ROOMS = ("Master bedroom", "Guest bedroom", "Office", "Bathroom", "Dining room", "Garage", "Porch", "Nursery",
                  "Basement")

# room -> what it holds: (thing, type, variant, chance)
THINGS: dict[str, tuple[tuple[str, str, str, float], ...]] = {
    "Living room": (("ceiling light", "light", "tunable", 1), ("floor lamp", "light", "color", 0.8),
                    ("TV plug", "plug", "tv", 0.9), ("speaker", "speaker", "", 0.8), ("blinds", "blind", "", 0.7),
                    ("temperature sensor", "sensor", "temperature", 0.8)),
    "Kitchen": (("pendant lights", "light", "dim", 1), ("coffee maker plug", "plug", "coffee", 0.8),
                ("smoke detector", "sensor", "smoke", 0.9), ("speaker", "speaker", "", 0.4)),
    "Hallway": (("thermostat", "thermostat", "", 1), ("motion sensor", "sensor", "motion", 0.9),
                ("light", "light", "dim", 0.8), ("front door lock", "lock", "", 1),
                ("front door sensor", "sensor", "contact", 0.7)),
    "Master bedroom": (("ceiling light", "light", "dim", 0.9), ("bedside lamp", "light", "color", 0.8),
                       ("blinds", "blind", "", 0.8), ("temperature sensor", "sensor", "temperature", 0.6)),
    "Guest bedroom": (("lamp", "light", "tunable", 0.9), ("blinds", "blind", "", 0.5)),
    "Office": (("desk lamp", "light", "tunable", 1), ("space heater plug", "plug", "heater", 0.6),
               ("monitor plug", "plug", "monitor", 0.5), ("blinds", "blind", "", 0.5)),
    "Bathroom": (("light", "light", "dim", 0.9), ("humidity sensor", "sensor", "humidity", 1),
                 ("exhaust fan plug", "plug", "fan", 0.7)),
    "Dining room": (("chandelier", "light", "dim", 1), ("speaker", "speaker", "", 0.4)),
    "Garage": (("light", "light", "basic", 1), ("side door lock", "lock", "", 0.7), ("freezer plug", "plug", "freezer", 0.6)),
    "Porch": (("light", "light", "basic", 1), ("camera", "camera", "", 0.9)),
    "Nursery": (("night light", "light", "color", 1), ("camera", "camera", "", 0.9),
                ("temperature sensor", "sensor", "temperature", 0.8), ("speaker", "speaker", "", 0.5)),
    "Basement": (("light", "light", "basic", 1), ("humidity sensor", "sensor", "humidity", 0.9),
                 ("dehumidifier plug", "plug", "dehumidifier", 0.8), ("back door lock", "lock", "", 0.4)),
}
MAKERS = {
    "light": (("Philips Hue", "White Ambiance A19"), ("LIFX", "Mini"), ("IKEA", "Tradfri LED"), ("Nanoleaf", "Essentials")),
    "thermostat": (("ecobee", "SmartThermostat Premium"), ("Google Nest", "Learning Thermostat"),
                   ("Honeywell", "T9 Smart"), ("Tado", "Smart Radiator Thermostat")),
    "lock": (("August", "Wi-Fi Smart Lock"), ("Yale", "Assure Lock 2"), ("Schlage", "Encode Plus")),
    "blind": (("Lutron", "Serena Shades"), ("IKEA", "Fyrtur"), ("SwitchBot", "Blind Tilt")),
    "plug": (("TP-Link Kasa", "EP25"), ("Eve", "Energy"), ("Meross", "MSS310")),
    "speaker": (("Sonos", "One"), ("Amazon", "Echo Dot"), ("Google", "Nest Audio")),
    "camera": (("Arlo", "Pro 5"), ("Ring", "Stick Up Cam"), ("Wyze", "Cam v3")),
    "sensor": (("Aqara", "Multi-sensor"), ("Eve", "Room"), ("Ecolink", "Z-Wave Sensor"), ("First Alert", "Onelink")),
}
# plug appliance -> (watts when on, daily kWh low, high)
APPLIANCES = {"tv": (95, 0.4, 1.8), "coffee": (900, 0.2, 0.7), "heater": (1500, 1.5, 7.5), "monitor": (30, 0.2, 0.6),
              "fan": (40, 0.1, 0.4), "freezer": (120, 1.0, 1.9), "dehumidifier": (300, 1.2, 4.0)}
CODE_NAMES = ("Dog walker", "Cleaner", "Babysitter", "Guest", "Grandma", "Contractor", "Neighbor", "Nanny",
              "Airbnb guest", "Plumber")
COLORS = ("red", "orange", "yellow", "green", "cyan", "blue", "purple", "pink", "white")
DOMAINS = ("gmail.com", "yahoo.com", "outlook.com", "icloud.com", "proton.me")


def seed(ctx: SeedContext) -> None:
    for _ in range(N_HOMES):
        _HomeBuilder(ctx).build()
    _automation_history(ctx)


# -- when automations fire -----------------------------------------------------------------------------


def firings(automation: Automation, since: dt.datetime, until: dt.datetime,
            readings: list[tuple[dt.datetime, float]]) -> list[tuple[dt.datetime, str]]:
    """The moments in (since, until] at which the automation's trigger fired, with the cause ('time',
    'sensor' or 'motion'), oldest first. A time trigger fires every day at its time; 'above' and
    'below' fire on a reading of the sensor that crosses the threshold from the reading before it;
    'motion' fires on each motion the sensor saw. `readings` are the sensor's (time, value), in order."""
    out: list[tuple[dt.datetime, str]] = []
    if automation.trigger == "time":
        hour, minute = map(int, automation.at_time.split(":"))
        day = since.date()
        while day <= until.date():
            at = dt.datetime.combine(day, dt.time(hour, minute))
            if since < at <= until:
                out.append((at, "time"))
            day += dt.timedelta(days=1)
        return out
    threshold = automation.threshold
    before: float | None = None
    for at, value in readings:
        if automation.trigger == "motion":
            fired = value >= 1
        elif automation.trigger == "above":
            fired = before is not None and before <= threshold < value
        else:
            fired = before is not None and before >= threshold > value
        before = value
        if fired and since < at <= until:
            out.append((at, "motion" if automation.trigger == "motion" else "sensor"))
    return out


def offline_at(device: Device, at: dt.datetime) -> bool:
    """Whether the device was already offline at that moment (it has not been seen since)."""
    return not device.online and device.last_seen < at


def _automation_history(ctx: SeedContext) -> None:
    """Each automation's runs over the kept days, in time order, with the commands they sent. A
    disabled automation was switched off at a moment of the last 10 days and ran until then."""
    session, rng = ctx.session, ctx.rng
    session.flush()
    start = ctx.now - dt.timedelta(days=HISTORY_DAYS)
    devices = {d.id: d for d in session.scalars(select(Device))}
    targets: dict[str, list[Device]] = {}
    for automation_id, device_id in session.execute(
            select(AutomationTarget.automation_id, AutomationTarget.device_id).order_by(
                AutomationTarget.automation_id, AutomationTarget.device_id)):
        targets.setdefault(automation_id, []).append(devices[device_id])
    runs: list[tuple[dt.datetime, str, str, Automation]] = []
    for automation in session.scalars(select(Automation).order_by(Automation.id)):
        until = ctx.now
        if not automation.enabled:
            automation.switched_at = ctx.moment(-HISTORY_DAYS + 1, -0.5)
            until = automation.switched_at
        readings = [] if automation.sensor_id is None else list(session.execute(
            select(Reading.at, Reading.value).where(Reading.device_id == automation.sensor_id)
            .order_by(Reading.at, Reading.id)).all())
        for at, cause in firings(automation, max(start, automation.created_at), until, readings):
            runs.append((at, automation.id, cause, automation))
        automation.last_triggered = None
    for at, _, cause, automation in sorted(runs, key=lambda r: (r[0], r[1])):
        down = [f"{d.name} ({d.id}) was offline" for d in targets[automation.id] if offline_at(d, at)]
        if automation.command == "set_temperature":
            down += [f"{d.name} ({d.id}) was off, so it took no set point" for d in targets[automation.id]
                     if d.hvac_mode == "off" and not offline_at(d, at)]
        run = AutomationRun(id=ctx.new_id("RUN", 5), home_id=automation.home_id, automation_id=automation.id,
                            automation=automation.name, at=at, cause=cause, status="failed" if down else "done",
                            detail="; ".join(down) or None)
        ctx.add(run)
        automation.last_triggered = at
        if not down:
            ctx.add(*(DeviceLog(id=ctx.new_id("LOG", 5), device_id=d.id, run_id=run.id, at=at,
                                command=automation.command, value=automation.value) for d in targets[automation.id]))


class _HomeBuilder:
    def __init__(self, ctx: SeedContext) -> None:
        self.ctx = ctx
        self.rng = ctx.rng
        self.devices: list[Device] = []
        self.rooms: dict[str, Room] = {}

    def build(self) -> None:
        ctx, rng = self.ctx, self.rng
        first, last = ctx.person_name()
        street = ctx.fake.street_name()
        self.home = Home(id=ctx.new_id("HOM"), name=f"{street} house", owner_name=f"{first} {last}",
                         owner_email=f"{first.lower()}.{last.lower()}{rng.randint(1, 99)}@{rng.choice(DOMAINS)}",
                         address=f"{rng.randint(10, 9999)} {street}", city=ctx.fake.city())
        self.owner_first = first
        ctx.add(self.home)
        chosen = ["Living room", "Kitchen", "Hallway"] + rng.sample(OPTIONAL_ROOMS, rng.randint(2, 5))
        chosen.sort(key=lambda r: list(ROOMS).index(r))
        self.owner_code = "".join(rng.choice("0123456789") for _ in range(rng.choice([4, 4, 6])))
        for name in chosen:
            room = Room(id=ctx.new_id("RMS"), home_id=self.home.id, name=name, floor=ROOMS[name])
            ctx.add(room)
            self.rooms[name] = room
            for thing, kind, variant, chance in THINGS[name]:
                if rng.random() < chance:
                    self._device(room, thing, kind, variant)
        ctx.session.flush()
        self._groups()
        self._scenes()
        self._automations()

    # -- devices -----------------------------------------------------------------------------------

    def _device(self, room: Room, thing: str, kind: str, variant: str) -> None:
        ctx, rng = self.ctx, self.rng
        name = thing.capitalize() if kind == "lock" and thing.startswith(("front", "back")) else f"{room.name} {thing}"
        maker, model = rng.choice(MAKERS[kind])
        online = rng.random() >= 0.08
        d = Device(id=ctx.new_id("DEV"), home_id=self.home.id, room_id=room.id, name=name, type=kind,
                   manufacturer=maker, model=model, capabilities="", online=online,
                   last_seen=ctx.now - dt.timedelta(minutes=rng.randint(0, 9)) if online else ctx.moment(-5, -0.2),
                   battery=None, is_on=None, brightness=None, color_temp=None, min_kelvin=None, max_kelvin=None,
                   color=None, hvac_mode=None, hvac_modes=None, target_temp=None, min_temp=None, max_temp=None,
                   locked=None, auto_lock_minutes=None, position=None, volume=None, power_w=None, sensor_kind=None,
                   reading=None, reading_at=None)
        getattr(self, f"_{kind}")(d, variant)
        ctx.add(d)
        self.devices.append(d)

    def _light(self, d: Device, variant: str) -> None:
        rng = self.rng
        caps = {"basic": "on_off", "dim": "on_off,brightness", "tunable": "on_off,brightness,color_temp",
                "color": "on_off,brightness,color_temp,color"}[variant]
        d.capabilities = caps
        d.is_on = rng.random() < 0.4
        if "brightness" in caps:
            d.brightness = rng.choice(range(10, 101, 5))
        if "color_temp" in caps:
            d.min_kelvin, d.max_kelvin = rng.choice([(2200, 6500), (2700, 5000), (2000, 6500)])
            d.color_temp = rng.choice([t for t in (2200, 2700, 3000, 4000, 5000) if d.min_kelvin <= t <= d.max_kelvin])
        if "color" in caps.split(",") and rng.random() < 0.5:
            d.color = rng.choice(COLORS)

    def _thermostat(self, d: Device, variant: str) -> None:
        rng = self.rng
        heat_only = rng.random() < 0.3
        d.capabilities = "hvac,temperature"
        d.hvac_modes = "off,heat" if heat_only else "off,heat,cool,auto"
        d.min_temp, d.max_temp = (45.0, 80.0) if heat_only else rng.choice([(50.0, 90.0), (45.0, 92.0)])
        d.hvac_mode = "off" if rng.random() < 0.25 else ("heat" if heat_only else rng.choice(["heat", "cool", "auto"]))
        d.target_temp = rng.choice([64.0, 66.0, 67.5, 68.0, 69.0, 70.0, 71.0, 72.0, 74.0])
        d.reading, d.reading_at = round(rng.uniform(61, 77), 1), d.last_seen

    def _lock(self, d: Device, variant: str) -> None:
        ctx, rng = self.ctx, self.rng
        d.capabilities = "lock"
        d.locked = rng.random() < 0.75
        d.auto_lock_minutes = rng.choice([0, 0, 2, 5, 10, 30])
        d.battery = rng.choice([rng.randint(3, 15), rng.randint(30, 100), rng.randint(50, 100)])
        codes = {self.owner_code}
        ctx.add(LockCode(id=ctx.new_id("LCD"), device_id=d.id, name=self.owner_first, code=self.owner_code,
                         created_at=ctx.moment(-700, -200), expires_at=None))
        for who in rng.sample(CODE_NAMES, rng.randint(0, 4)):
            code = "".join(rng.choice("0123456789") for _ in range(rng.choice([4, 5, 6])))
            if code in codes:
                continue
            codes.add(code)
            roll = rng.random()
            expires = None if roll < 0.45 else (ctx.moment(-60, -1) if roll < 0.75 else ctx.moment(3, 90))
            if expires is not None:
                expires = expires.replace(hour=23, minute=59)
            ctx.add(LockCode(id=ctx.new_id("LCD"), device_id=d.id, name=who, code=code,
                             created_at=ctx.moment(-200, -62), expires_at=expires))

    def _blind(self, d: Device, variant: str) -> None:
        d.capabilities = "position"
        d.position = self.rng.choice([0, 0, 25, 50, 75, 100, 100])
        d.battery = self.rng.randint(8, 100) if self.rng.random() < 0.5 else None

    def _plug(self, d: Device, variant: str) -> None:
        ctx, rng = self.ctx, self.rng
        watts, low, high = APPLIANCES[variant]
        d.capabilities = "on_off,energy"
        d.is_on = variant in ("freezer", "dehumidifier") or rng.random() < 0.5
        d.power_w = round(watts * rng.uniform(0.7, 1.1), 1) if d.is_on and d.online else 0.0
        today = ctx.now.date()
        for back in range(ENERGY_DAYS, 0, -1):
            when = dt.datetime.combine(today - dt.timedelta(days=back), dt.time(23, 0))
            ctx.add(Reading(id=ctx.new_id("RDG", 5), device_id=d.id, metric="energy", at=when,
                            value=round(rng.uniform(low, high), 2)))

    def _speaker(self, d: Device, variant: str) -> None:
        d.capabilities = "on_off,volume"
        d.is_on = self.rng.random() < 0.5
        d.volume = self.rng.choice(range(0, 65, 5))

    def _camera(self, d: Device, variant: str) -> None:
        d.capabilities = "on_off"
        d.is_on = self.rng.random() < 0.8
        d.battery = self.rng.randint(5, 100) if self.rng.random() < 0.5 else None

    def _sensor(self, d: Device, kind: str) -> None:
        ctx, rng = self.ctx, self.rng
        d.capabilities = kind
        d.sensor_kind = kind
        d.battery = rng.choice([rng.randint(2, 15), rng.randint(20, 100), rng.randint(40, 100)])
        end = d.last_seen
        start = ctx.now - dt.timedelta(days=SENSOR_DAYS)
        values: list[tuple[dt.datetime, float]] = []
        if kind in ("temperature", "humidity"):
            base = rng.uniform(64, 74) if kind == "temperature" else rng.uniform(35, 60)
            swing = 4 if kind == "temperature" else 12
            at = start.replace(hour=0, minute=0) + dt.timedelta(hours=rng.choice([2, 4, 6]))
            while at <= end:
                values.append((at, round(base + rng.uniform(-swing, swing), 1)))
                at += dt.timedelta(hours=8)
        elif kind == "motion":
            for day in range(SENSOR_DAYS):
                for _ in range(rng.randint(0, 4)):
                    at = start + dt.timedelta(days=day, minutes=15 * rng.randint(0, 95))
                    if at <= end:
                        values.append((at, 1.0))
        elif kind == "contact":
            for day in range(SENSOR_DAYS):
                for _ in range(rng.randint(1, 3)):
                    at = start + dt.timedelta(days=day, minutes=15 * rng.randint(0, 94))
                    if at + dt.timedelta(minutes=10) <= end:
                        values += [(at, 1.0), (at + dt.timedelta(minutes=rng.choice([1, 2, 5, 10])), 0.0)]
        elif kind == "smoke" and rng.random() < 0.3:
            at = ctx.moment(-SENSOR_DAYS + 1, -1)
            values += [(at, 1.0), (at + dt.timedelta(minutes=15), 0.0)]
        values.sort()
        for at, value in values:
            ctx.add(Reading(id=ctx.new_id("RDG", 5), device_id=d.id, metric=kind, at=at, value=value))
        if kind in ("temperature", "humidity"):
            d.reading, d.reading_at = values[-1][1], values[-1][0]
        else:
            d.reading = 0.0
            d.reading_at = values[-1][0] if values else None

    # -- groups, scenes, automations ---------------------------------------------------------------

    def _of(self, kind: str, room: str | None = None, floor: int | None = None) -> list[Device]:
        rooms = {r.id: r for r in self.rooms.values()}
        return [d for d in self.devices if d.type == kind and (room is None or rooms[d.room_id].name == room)
                and (floor is None or rooms[d.room_id].floor == floor)]

    def _groups(self) -> None:
        rng = self.rng
        options = [("Downstairs lights", self._of("light", floor=1)),
                   ("Upstairs lights", self._of("light", floor=2)),
                   ("Entertainment", self._of("plug", room="Living room") + self._of("speaker")),
                   ("Night lights", [d for d in self._of("light") if "lamp" in d.name or "night" in d.name])]
        for name, members in options:
            if len(members) < 2 or rng.random() < 0.25:
                continue
            group = Group(id=self.ctx.new_id("GRP"), home_id=self.home.id, name=name)
            self.ctx.add(group)
            for d in members:
                self.ctx.add(GroupMember(group_id=group.id, device_id=d.id))

    def _scenes(self) -> None:
        rng = self.rng
        lights, locks = self._of("light"), self._of("lock")
        thermostat = self._of("thermostat")
        options: list[tuple[str, list[tuple[Device, str, str | None]]]] = []
        if lights or locks:
            steps = [(d, "turn_off", None) for d in lights[:6]] + [(d, "lock", None) for d in locks]
            if thermostat:
                steps += [(thermostat[0], "set_mode", "heat"), (thermostat[0], "set_temperature", "65")]
            options.append(("Good night", steps))
        living = [d for d in self._of("light", room="Living room") if "brightness" in d.capabilities]
        if living:
            steps = [(d, "set_brightness", "20") for d in living]
            steps += [(d, "set_position", "0") for d in self._of("blind", room="Living room")]
            steps += [(d, "turn_on", None) for d in self._of("plug", room="Living room")]
            options.append(("Movie night", steps))
        blinds = self._of("blind")
        kitchen = self._of("light", room="Kitchen")
        if blinds or kitchen:
            steps = [(d, "set_position", "100") for d in blinds] + [(d, "set_brightness", "80") for d in kitchen]
            if thermostat and "auto" in thermostat[0].hvac_modes:
                steps += [(thermostat[0], "set_mode", "auto"), (thermostat[0], "set_temperature", "70")]
            options.append(("Good morning", steps))
        if locks:
            options.append(("Away", [(d, "turn_off", None) for d in lights] + [(d, "lock", None) for d in locks]))
        if rng.random() < 0.15:
            return
        for name, steps in options:
            if not steps or rng.random() < 0.3:
                continue
            scene = Scene(id=self.ctx.new_id("SCN"), home_id=self.home.id, name=name,
                          created_at=self.ctx.moment(-300, -30),
                          last_activated=self.ctx.moment(-20, -0.5) if rng.random() < 0.7 else None)
            self.ctx.add(scene)
            for seq, (d, command, value) in enumerate(steps, 1):
                self.ctx.add(SceneAction(scene_id=scene.id, seq=seq, device_id=d.id, command=command, value=value))

    def _automations(self) -> None:
        rng = self.rng
        options: list[tuple[str, str, Device | None, float | None, str | None, str, str | None, list[Device]]] = []
        porch = self._of("light", room="Porch")
        if porch:
            options.append(("Porch light at dusk", "time", None, None, rng.choice(["19:00", "19:30", "20:00"]),
                            "turn_on", None, porch))
        downstairs = self._of("light", floor=1)
        if downstairs:
            options.append(("Lights out", "time", None, None, "23:30", "turn_off", None, downstairs[:4]))
        locks = self._of("lock")
        if locks:
            options.append(("Lock up at night", "time", None, None, rng.choice(["22:00", "22:30", "23:00"]), "lock",
                            None, locks))
        humid = self._of("sensor", room="Bathroom") + self._of("sensor", room="Basement")
        humid = [d for d in humid if d.sensor_kind == "humidity"]
        fans = self._of("plug", room="Bathroom") + self._of("plug", room="Basement")
        if humid and fans:
            options.append(("Dry the air", "above", humid[0], float(rng.choice([60, 65, 70])), None, "turn_on", None,
                            fans[:1]))
        motion = [d for d in self._of("sensor") if d.sensor_kind == "motion"]
        hall = self._of("light", room="Hallway")
        if motion and hall:
            options.append(("Hallway light on motion", "motion", motion[0], None, None, "turn_on", None, hall))
        cold = [d for d in self._of("sensor") if d.sensor_kind == "temperature"]
        thermostat = self._of("thermostat")
        if cold and thermostat:
            options.append(("Warm up when cold", "below", cold[0], float(rng.choice([60, 62, 63])), None,
                            "set_temperature", "68", thermostat))
        if rng.random() < 0.15:
            return
        for name, trigger, sensor, threshold, at_time, command, value, targets in options:
            if rng.random() < 0.35:
                continue
            automation = Automation(id=self.ctx.new_id("AUT"), home_id=self.home.id, name=name,
                                    description=None, trigger=trigger, sensor_id=sensor.id if sensor else None, threshold=threshold, at_time=at_time,
                                    command=command, value=value, enabled=rng.random() < 0.75,
                                    created_at=self.ctx.moment(-300, -20),
                                    last_triggered=self.ctx.moment(-6, -0.2) if rng.random() < 0.6 else None)
            automation.switched_at = automation.created_at
            self.ctx.add(automation)
            for d in targets:
                self.ctx.add(AutomationTarget(automation_id=automation.id, device_id=d.id))
