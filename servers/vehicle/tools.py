"""The vehicle server's tools: a connected-car assistant for owners and their vehicles.

The car is a state machine, and every action is gated the way a real car gates it. Rules, in one place:
- Ignition: off, accessory or on. Starting (on) needs the brake pedal pressed and the gear in P or N; it
  can be switched to off or accessory only in P (stopped).
- Brakes: pressing the brake pedal while moving brakes to a stop; stopping leaves it pressed and driving
  off releases it. The parking brake engages only when stopped and releases only with the ignition on and
  the brake pedal pressed.
- Gears: P, R, N, D. Changing gear needs the ignition on; an electric vehicle leaves P only with the
  charging cable unplugged. While rolling, the gear moves only between D and N (coasting in neutral
  and back into drive): P and R need a stop, and so does leaving R.
- Speed: driving at a set speed needs the ignition on, D or R (R at most 10 mph), the parking brake
  released, every door, the trunk and the charge port closed, and some charge or fuel. A vehicle
  coasting in N can only be brought to a stop. Stopping (speed 0) is always allowed.
- Cruise control turns on only while driving in D at 20 mph or more and holds the speed; its set speed
  moves in steps of 5 mph (5 km/h on a metric display), from 20 to 85 mph. Braking, stopping or
  shifting to N turns it off.
- Refuelling: gasoline vehicles only, with the ignition off; the pump stops when the tank is full.
- Display units: imperial (mph, miles, gallons, degrees F, psi) or metric (km/h, km, litres, degrees C,
  kPa). Every reading a tool returns is in the vehicle's display units, and its key names the unit
  (`speed_mph` or `speed_kmh`); values a tool takes name their unit in the parameter (`speed_mph`).
- Trunk and charge port open only in P. The charge port closes only with the cable unplugged.
- Charging: electric vehicles only, in P, plugged in, below the charge limit.
- Climate (temperature, fan, seat and wheel heating, defrost), windows, media and navigation need the
  ignition in accessory or on; headlights other than off need accessory or on, high beams on;
  drive modes need the ignition on. Turning things off is always allowed.
- Doors lock only when all are closed; remote unlock only when stopped.
- Routes longer than the vehicle's range get charging (electric) or fuel (gasoline) stops. Navigation
  goes to a place, or to a postal address: a street in a postal code, or a postal code's area.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Literal, NamedTuple

from pydantic import Field
from sqlalchemy import func, select

from prove_env.toolkit import Detail, Entity, Id, Limit, Toolkit, ToolError, tool

from .models import Base, Owner, Place, PostalCode, SavedPlace, Vehicle
from .seed import seed

Gear = Literal["P", "R", "N", "D"]
Ignition = Literal["off", "accessory", "on"]
HeatZone = Literal["driver_seat", "passenger_seat", "rear_seats", "steering_wheel"]
PlaceCategory = Literal["cafe", "restaurant", "grocery", "shopping", "hospital", "park", "hotel", "gym", "school",
                        "airport", "charging_station", "fuel_station", "tyre_shop", "residence"]
FollowingDistance = Literal["short", "medium", "long"]

ROAD_FACTOR = 1.25  # road miles per straight-line mile
RESERVE_MILES = 10  # range kept in hand on arrival at a stop or the destination
MAX_SPEED = 85
MAX_REVERSE = 10
MIN_TEMP, MAX_TEMP = 60, 85
MAX_SAVED = 15
CHARGE_STOP_MINUTES, FUEL_STOP_MINUTES = 30, 10
MIN_CRUISE = 20  # mph: cruise control holds 20 to 85 mph
CRUISE_STEP = 5  # mph, or km/h on a metric display
FOLLOWING_SECONDS = {"short": 1.0, "medium": 1.5, "long": 2.0}
KM_PER_MILE = 1.609344
LITRES_PER_GALLON = 3.785411784
KPA_PER_PSI = 6.894757
UNITS = {"imperial": {"speed": "mph", "distance": "miles", "fuel": "gallons", "temperature": "degrees F",
                      "tyre_pressure": "psi"},
         "metric": {"speed": "km/h", "distance": "km", "fuel": "litres", "temperature": "degrees C",
                    "tyre_pressure": "kPa"}}
FULL_MARGIN = 0.05  # litres: a tank this close to its capacity is full
HEAT_COLUMNS = {"driver_seat": "driver_seat_heat", "passenger_seat": "passenger_seat_heat",
                "rear_seats": "rear_seat_heat", "steering_wheel": "wheel_heat"}


class VehicleServer(Toolkit):
    """A connected-car assistant: find an owner's vehicles, read their status, and control ignition, brakes,
    gears, speed, cruise control, doors, trunk, windows, lights, climate, charging, refuelling, drive modes, the
    display's units, media and navigation. Every action is allowed only in the vehicle states a real car allows
    it in, and a refusal names the state that blocks it and what to do first."""

    name = "vehicle"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("owner", Owner, "OWN", lookup="find_owners"),
        Entity("vehicle", Vehicle, "VEH", lookup="list_vehicles"),
        Entity("place", Place, "PLC", lookup="search_places"),
        Entity("saved_place", SavedPlace, "SAV", lookup="list_saved_places"),
    )

    # -- owners and vehicles -----------------------------------------------------------------------

    @tool(read_only=True)
    def find_owners(self, name: str | None = None, email: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find vehicle owners by part of their name or by email; with neither, list owners. Ordered by id.

        Args:
            name: part of the owner's full name, case-insensitive, such as 'Ada Park' or 'park'.
            email: the owner's email address, case-insensitive, such as 'ada.park7@gmail.com'.
        """
        return [{"owner_id": o.id, "name": o.name, "email": o.email, "phone": o.phone, "city": o.city}
                for o in self.find(Owner, name=name, email=email, limit=limit,
                                   columns=("id", "name", "email", "phone", "city"))]

    @tool(read_only=True, requires=("vehicle.units",))
    def list_vehicles(self, owner_id: Id("owner")) -> list[dict]:
        """List an owner's vehicles with their make, model, nickname, plate and current state, ordered by id.
        Readings are in each vehicle's display units."""
        return [_summary(v) for v in self.get(Owner, owner_id).vehicles]

    @tool(read_only=True, produces=("place",), requires=("vehicle.units",))
    def get_vehicle_status(self, vehicle_id: Id("vehicle")) -> dict:
        """Return a vehicle's full live state: ignition, gear, speed, brake pedal and parking brake, cruise
        control, odometer, locks, doors, trunk, windows, headlights, battery or fuel level (and the fuel in the
        tank) and range, charging, drive mode, display units, media, location and active route. Readings are in
        the vehicle's display units."""
        v = self.get(Vehicle, vehicle_id)
        status = {**_summary(v), **_distance(v, v.odometer_miles, "odometer", None), **_brakes(v, short=True),
                  "cruise_control": _cruise(v, short=True), "open_door": v.open_door,
                  "trunk_open": v.trunk_open, "windows": v.windows, "headlights": v.headlights,
                  "climate_on": v.climate_on, "drive_mode": v.drive_mode, "drive_modes": v.drive_modes.split(","),
                  "media_source": v.media_source,
                  "radio_station": v.radio_station if v.media_source == "radio" else None,
                  "paired_phone": v.paired_phone, "location": {"city": v.city, "lat": v.lat, "lon": v.lon},
                  "navigation": self._navigation(v)}
        if v.powertrain == "electric":
            status |= {"charge_port_open": v.charge_port_open, "plugged_in": v.plugged_in, "charging": v.charging,
                       "charge_limit": v.charge_limit}
        else:
            status |= _fuel(v)
        return status

    # -- ignition, gears and speed ------------------------------------------------------------------

    @tool(idempotent=True, requires=("vehicle.gear", "vehicle.brake"), sets=("vehicle.ignition",))
    def set_ignition(self, vehicle_id: Id("vehicle"), mode: Ignition) -> dict:
        """Switch the ignition to off, accessory (power for climate, media and windows; no driving) or on (start
        the engine; an electric vehicle gets ready to drive).

        Starting (on) needs the brake pedal pressed and the gear in P or N. Switching to off or accessory needs
        the vehicle stopped in P. Accessory dims high beams to low beams; turning it off also turns the climate,
        heaters, defrost and media off and ends any route.

        Args:
            mode: 'off', 'accessory' or 'on'.
        """
        v = self.get(Vehicle, vehicle_id)
        if mode == "on" and v.ignition != "on":
            missing = [(problem, todo) for problem, todo, ok in (
                ("the brake pedal is not pressed", "press the brake pedal (set_brake_pedal)", v.brake_pressed),
                (f"the gear is {v.gear}, not P or N", "shift to P", v.gear in ("P", "N"))) if not ok]
            if missing:
                raise ToolError(f"Vehicle {v.id} will not start: {' and '.join(p for p, _ in missing)}; "
                                f"{' and '.join(t for _, t in missing)} first, then switch the ignition on")
        if mode != "on" and v.ignition == "on" and v.gear != "P":
            raise ToolError(f"Vehicle {v.id} is in gear {v.gear}{_moving(v)}; stop and shift to P before switching "
                            f"the ignition to {mode}")
        v.ignition = mode
        if mode == "accessory" and v.headlights == "high":
            v.headlights = "low"  # high beams need the ignition on
        if mode == "off":
            v.climate_on = v.defrost_front = v.defrost_rear = False
            v.driver_seat_heat = v.passenger_seat_heat = v.rear_seat_heat = v.wheel_heat = 0
            v.media_source = "off"
            if v.headlights in ("low", "high"):
                v.headlights = "auto"
            _clear_route(v)
        return _summary(v)

    @tool(idempotent=True, requires=("vehicle.ignition", "vehicle.speed"), sets=("vehicle.gear",))
    def shift_gear(self, vehicle_id: Id("vehicle"), gear: Gear) -> dict:
        """Shift into P (park), R (reverse), N (neutral) or D (drive).

        Needs the ignition on; an electric vehicle leaves P only with its charging cable unplugged. While
        the vehicle rolls it may shift from D to N (coasting, which turns cruise control off) and back to D; P
        and R only once it is stopped, and out of R only once it is stopped. Shifting into the current gear
        changes nothing.

        Args:
            gear: 'P', 'R', 'N' or 'D'.
        """
        v = self.get(Vehicle, vehicle_id)
        if gear == v.gear:
            return _summary(v)
        if v.ignition != "on":
            raise ToolError(f"Vehicle {v.id}'s ignition is {v.ignition}; turn the ignition on before shifting "
                            f"out of {v.gear}")
        if gear in ("P", "R") and v.speed_mph > 0:
            raise ToolError(f"Vehicle {v.id} is moving at {_speed_words(v, v.speed_mph)} in {v.gear}; bring it to a "
                            f"stop (speed 0) before shifting into {gear}")
        if v.gear == "R" and v.speed_mph > 0:
            raise ToolError(f"Vehicle {v.id} is reversing at {_speed_words(v, v.speed_mph)}; bring it to a stop "
                            f"(speed 0) before shifting out of R into {gear}")
        if v.gear == "P" and v.plugged_in:
            raise ToolError(f"Vehicle {v.id} is plugged in to a charger; unplug the charging cable before "
                            "shifting out of P")
        v.gear = gear
        if gear == "N":
            v.cruise_on = False
        return _summary(v)

    @tool(idempotent=True, requires=("vehicle.ignition", "vehicle.gear", "vehicle.parking_brake"),
          sets=("vehicle.speed", "vehicle.brake", "vehicle.cruise"))
    def set_speed(self, vehicle_id: Id("vehicle"), speed_mph: int) -> dict:
        """Drive at a speed, or bring the vehicle to a stop with speed 0.

        Driving needs the ignition on and gear D (or R, at most 10 mph), the parking brake released, every door,
        the trunk and the charge port closed, and some charge or fuel; driving off releases the brake pedal.
        With cruise control on, the new speed becomes its set speed (below 20 mph it turns off). Stopping is
        always allowed: it leaves the brake pedal pressed and turns cruise control off. A vehicle coasting in N
        can only be stopped, or shifted back to D to drive on.

        Args:
            speed_mph: the speed in mph whatever the display shows, 0 (stop) to 85, such as 45.
        """
        v = self.get(Vehicle, vehicle_id)
        if not 0 <= speed_mph <= MAX_SPEED:
            raise ToolError(f"speed_mph must be from 0 to {MAX_SPEED}, got {speed_mph}")
        if speed_mph == 0:
            if v.speed_mph > 0:  # braking to a stop
                v.speed_mph, v.brake_pressed, v.cruise_on = 0, True, False
            return _summary(v)
        if v.ignition != "on":
            raise ToolError(f"Vehicle {v.id}'s ignition is {v.ignition}; turn the ignition on and shift to D to drive")
        if v.gear == "P":
            raise ToolError(f"Vehicle {v.id} is in P; shift to D (or R) before driving")
        if v.gear == "N":
            coasting = f", coasting at {_speed_words(v, v.speed_mph)}" if v.speed_mph else ""
            raise ToolError(f"Vehicle {v.id} is in N{coasting}; shift to D (or R once stopped) to drive at a set "
                            "speed, or set speed 0 to stop")
        if v.gear == "R" and speed_mph > MAX_REVERSE:
            raise ToolError(f"Vehicle {v.id} is in R; reverse is limited to {MAX_REVERSE} mph")
        if v.parking_brake:
            raise ToolError(f"Vehicle {v.id}'s parking brake is engaged; release it (set_parking_brake, with the "
                            "ignition on and the brake pedal pressed) before driving off")
        if v.open_door:
            raise ToolError(f"Vehicle {v.id}'s {v.open_door} door is open; close it before driving")
        if v.trunk_open:
            raise ToolError(f"Vehicle {v.id}'s trunk is open; close it before driving")
        if v.charge_port_open:
            raise ToolError(f"Vehicle {v.id}'s charge port is open; close it before driving")
        if v.energy_percent <= 0:
            raise ToolError(f"Vehicle {v.id}'s {_energy_word(v)} is empty; it cannot drive")
        v.speed_mph, v.brake_pressed = speed_mph, False
        if v.cruise_on and (v.gear != "D" or speed_mph < MIN_CRUISE):
            v.cruise_on = False
        return _summary(v)

    # -- brakes and cruise control ------------------------------------------------------------------

    @tool(idempotent=True, sets=("vehicle.brake", "vehicle.speed"))
    def set_brake_pedal(self, vehicle_id: Id("vehicle"), pressed: bool) -> dict:
        """Press and hold the brake pedal, or release it.

        Starting the engine and releasing the parking brake need it pressed. Pressing it while the vehicle
        moves brakes it to a stop and turns cruise control off; driving off (set_speed) releases it.

        Args:
            pressed: true to press and hold the pedal, false to release it.
        """
        v = self.get(Vehicle, vehicle_id)
        if pressed and v.speed_mph > 0:
            v.speed_mph, v.cruise_on = 0, False
        v.brake_pressed = pressed
        return _brakes(v)

    @tool(idempotent=True, requires=("vehicle.ignition", "vehicle.brake", "vehicle.speed"),
          sets=("vehicle.parking_brake",))
    def set_parking_brake(self, vehicle_id: Id("vehicle"), engaged: bool) -> dict:
        """Engage or release the electric parking brake.

        Engaging needs the vehicle stopped. Releasing needs the ignition on and the brake pedal pressed, as a
        real parking brake switch does. Driving off needs it released.

        Args:
            engaged: true to engage the parking brake, false to release it.
        """
        v = self.get(Vehicle, vehicle_id)
        if engaged and v.speed_mph > 0:
            raise ToolError(f"Vehicle {v.id} is moving at {_speed_words(v, v.speed_mph)}; bring it to a stop "
                            "(speed 0) before engaging the parking brake")
        if not engaged and v.parking_brake:
            missing = [(problem, todo) for problem, todo, ok in (
                ("the brake pedal is not pressed", "press the brake pedal (set_brake_pedal)", v.brake_pressed),
                (f"the ignition is {v.ignition}", "switch the ignition on", v.ignition == "on")) if not ok]
            if missing:
                raise ToolError(f"Vehicle {v.id}'s parking brake releases only with the ignition on and the brake "
                                f"pedal pressed, but {' and '.join(p for p, _ in missing)}; "
                                f"{' and '.join(t for _, t in missing)} first, then release it")
        v.parking_brake = engaged
        return _brakes(v)

    @tool(idempotent=True, requires=("vehicle.speed", "vehicle.gear"), sets=("vehicle.cruise",))
    def set_cruise_control(self, vehicle_id: Id("vehicle"), on: bool) -> dict:
        """Turn cruise control on, to hold the current speed, or off (the vehicle keeps its speed until changed).

        It turns on only while driving in D at 20 mph (32 km/h) or more; braking, stopping or shifting to N
        turns it off. adjust_cruise_speed moves its set speed in steps; set_following_distance sets the gap it
        keeps to the vehicle ahead.

        Args:
            on: true to turn cruise control on, false to turn it off.
        """
        v = self.get(Vehicle, vehicle_id)
        if on and not v.cruise_on:
            if v.ignition != "on" or v.gear != "D" or v.speed_mph < MIN_CRUISE:
                where = (f"stopped in {v.gear}" if v.speed_mph == 0 else
                         f"moving at {_speed_words(v, v.speed_mph)} in {v.gear}")
                raise ToolError(f"Vehicle {v.id} is {where}; cruise control turns on only while driving in D at "
                                f"{_speed_words(v, MIN_CRUISE)} or more: drive first (set_speed), then turn it on")
        v.cruise_on = on
        return _cruise(v)

    @tool(requires=("vehicle.cruise", "vehicle.units"), sets=("vehicle.speed",))
    def adjust_cruise_speed(self, vehicle_id: Id("vehicle"), steps: Annotated[int, Field(ge=-10, le=10)]) -> dict:
        """Raise or lower cruise control's set speed in steps, as the cruise lever does, and drive at it.

        A step is 5 mph on a display in imperial units and 5 km/h on a metric one. Needs cruise control on;
        the set speed stays within 20 to 85 mph (32 to 137 km/h).

        Args:
            steps: how many steps, positive to raise the speed and negative to lower it, from -10 to 10, such
                as 2 (10 mph faster on an imperial display).
        """
        v = self.get(Vehicle, vehicle_id)
        if not v.cruise_on:
            raise ToolError(f"Cruise control is off in vehicle {v.id}; turn it on (set_cruise_control) while "
                            f"driving in D at {_speed_words(v, MIN_CRUISE)} or more, then adjust its speed")
        step = CRUISE_STEP / KM_PER_MILE if _metric(v) else CRUISE_STEP
        speed = round(v.speed_mph + steps * step, 4)
        if not MIN_CRUISE <= speed <= MAX_SPEED:
            raise ToolError(f"{steps:+d} steps from {_speed_words(v, v.speed_mph)} would set cruise control to "
                            f"{_speed_words(v, speed)}; it holds {_speed_words(v, MIN_CRUISE)} to "
                            f"{_speed_words(v, MAX_SPEED)}: take fewer steps")
        v.speed_mph = speed
        return _cruise(v)

    @tool(idempotent=True, requires=("vehicle.ignition",))
    def set_following_distance(self, vehicle_id: Id("vehicle"), distance: FollowingDistance) -> dict:
        """Set the gap cruise control keeps to the vehicle ahead: short (about 1 second), medium (1.5 seconds)
        or long (2 seconds). Needs the ignition in accessory or on; the setting stays for later drives.

        Args:
            distance: 'short', 'medium' or 'long'.
        """
        v = self.get(Vehicle, vehicle_id)
        self._powered(v, "the cruise control settings change")
        v.following_distance = distance
        return _cruise(v)

    # -- doors, trunk, windows, lights --------------------------------------------------------------

    @tool(idempotent=True)
    def lock_doors(self, vehicle_id: Id("vehicle")) -> dict:
        """Lock all doors. Every door must be closed; locking a locked vehicle changes nothing."""
        v = self.get(Vehicle, vehicle_id)
        if v.open_door:
            raise ToolError(f"Vehicle {v.id}'s {v.open_door} door is open; it must be closed before the doors can "
                            "be locked")
        v.locked = True
        return _body(v)

    @tool(idempotent=True, requires=("vehicle.speed",))
    def unlock_doors(self, vehicle_id: Id("vehicle")) -> dict:
        """Unlock all doors remotely. Only when the vehicle is stopped; unlocking an unlocked vehicle changes
        nothing."""
        v = self.get(Vehicle, vehicle_id)
        if v.speed_mph > 0:
            raise ToolError(f"Vehicle {v.id} is moving at {_speed_words(v, v.speed_mph)}; doors can be unlocked "
                            "remotely only once it is stopped")
        v.locked = False
        return _body(v)

    @tool(idempotent=True, requires=("vehicle.gear",), sets=("vehicle.trunk",))
    def open_trunk(self, vehicle_id: Id("vehicle")) -> dict:
        """Open the trunk (power liftgate). Only in P: never while the vehicle is moving or in gear."""
        v = self.get(Vehicle, vehicle_id)
        if v.gear != "P":
            raise ToolError(f"Vehicle {v.id} is in gear {v.gear}{_moving(v)}; the trunk opens only in P: stop and "
                            "shift to P first")
        v.trunk_open = True
        return _body(v)

    @tool(idempotent=True, requires=("vehicle.trunk",))
    def close_trunk(self, vehicle_id: Id("vehicle")) -> dict:
        """Close the trunk (power liftgate). Closing a closed trunk changes nothing."""
        v = self.get(Vehicle, vehicle_id)
        v.trunk_open = False
        return _body(v)

    @tool(idempotent=True, requires=("vehicle.ignition",))
    def set_windows(self, vehicle_id: Id("vehicle"), position: Literal["closed", "vent", "open"]) -> dict:
        """Move all windows to closed, vent (a crack open) or fully open. Needs the ignition in accessory or on.

        Args:
            position: 'closed', 'vent' or 'open'.
        """
        v = self.get(Vehicle, vehicle_id)
        self._powered(v, "the windows move")
        v.windows = position
        return _body(v)

    @tool(idempotent=True, requires=("vehicle.ignition",))
    def set_headlights(self, vehicle_id: Id("vehicle"), mode: Literal["off", "auto", "low", "high"]) -> dict:
        """Set the headlights: off, auto, low beams or high beams.

        Any mode but off needs the ignition in accessory or on; high beams need it on.

        Args:
            mode: 'off', 'auto', 'low' or 'high'.
        """
        v = self.get(Vehicle, vehicle_id)
        if mode != "off":
            self._powered(v, "the headlights turn on")
        if mode == "high" and v.ignition != "on":
            raise ToolError(f"Vehicle {v.id}'s ignition is {v.ignition}; high beams need the ignition on")
        v.headlights = mode
        return _body(v)

    # -- climate ------------------------------------------------------------------------------------

    @tool(read_only=True, requires=("vehicle.units",))
    def get_climate(self, vehicle_id: Id("vehicle")) -> dict:
        """Return the climate state: on or off, set and cabin temperatures, fan speed, the outside temperature, seat and
        steering-wheel heating levels (0 to 3) and front and rear defrost. Temperatures are in the display's units."""
        return _climate(self.get(Vehicle, vehicle_id))

    @tool(idempotent=True, requires=("vehicle.ignition",))
    def set_cabin_temperature(self, vehicle_id: Id("vehicle"), temperature_f: int) -> dict:
        """Turn the climate on and set the cabin temperature. Needs the ignition in accessory or on.

        Args:
            temperature_f: the temperature in degrees Fahrenheit whatever the display shows, 60 to 85, such as 72.
        """
        v = self.get(Vehicle, vehicle_id)
        if not MIN_TEMP <= temperature_f <= MAX_TEMP:
            raise ToolError(f"temperature_f must be from {MIN_TEMP} to {MAX_TEMP} degrees F, got {temperature_f}")
        self._powered(v, "the climate runs")
        v.climate_on, v.target_temp_f = True, temperature_f
        return _climate(v)

    @tool(idempotent=True, requires=("vehicle.ignition",))
    def set_fan_speed(self, vehicle_id: Id("vehicle"), level: int) -> dict:
        """Set the climate fan's speed, turning the climate on if it is off. Needs the ignition in accessory or on.

        Args:
            level: the fan speed, 1 (lowest) to 7 (highest), such as 4.
        """
        v = self.get(Vehicle, vehicle_id)
        if not 1 <= level <= 7:
            raise ToolError(f"level must be from 1 to 7, got {level}; turn_off_climate stops the fan")
        self._powered(v, "the fan runs")
        v.climate_on, v.fan_speed = True, level
        return _climate(v)

    @tool(idempotent=True, requires=("vehicle.ignition",))
    def set_heating(self, vehicle_id: Id("vehicle"), zone: HeatZone, level: int) -> dict:
        """Set a seat heater or the steering-wheel heater to a level from 0 (off) to 3 (high).

        Turning a heater on needs the ignition in accessory or on; not every vehicle has a heated wheel.

        Args:
            zone: 'driver_seat', 'passenger_seat', 'rear_seats' or 'steering_wheel'.
            level: 0 (off), 1 (low), 2 (medium) or 3 (high).
        """
        v = self.get(Vehicle, vehicle_id)
        if not 0 <= level <= 3:
            raise ToolError(f"level must be from 0 (off) to 3 (high), got {level}")
        if zone == "steering_wheel" and not v.has_heated_wheel:
            raise ToolError(f"Vehicle {v.id} ({_title(v)}) has no heated steering wheel")
        if level > 0:
            self._powered(v, "the heaters run")
        setattr(v, HEAT_COLUMNS[zone], level)
        return _climate(v)

    @tool(idempotent=True, requires=("vehicle.ignition",))
    def set_defrost(self, vehicle_id: Id("vehicle"), zone: Literal["front", "rear"], on: bool) -> dict:
        """Turn the front (windshield) or rear window defroster on or off. On needs the ignition in accessory
        or on.

        Args:
            zone: 'front' (windshield) or 'rear' (rear window).
            on: true to turn it on, false to turn it off.
        """
        v = self.get(Vehicle, vehicle_id)
        if on:
            self._powered(v, "the defroster runs")
        setattr(v, f"defrost_{zone}", on)
        return _climate(v)

    @tool(idempotent=True)
    def turn_off_climate(self, vehicle_id: Id("vehicle")) -> dict:
        """Turn the climate off, with every seat and wheel heater and both defrosters. Allowed in any state."""
        v = self.get(Vehicle, vehicle_id)
        v.climate_on = v.defrost_front = v.defrost_rear = False
        v.driver_seat_heat = v.passenger_seat_heat = v.rear_seat_heat = v.wheel_heat = 0
        return _climate(v)

    # -- energy -------------------------------------------------------------------------------------

    @tool(idempotent=True, sets=("vehicle.charge_port",))
    def open_charge_port(self, vehicle_id: Id("vehicle")) -> dict:
        """Open an electric vehicle's charge port door. Only in P: never while moving or in gear."""
        v = self._electric(vehicle_id, "has no charge port")
        if v.gear != "P":
            raise ToolError(f"Vehicle {v.id} is in gear {v.gear}{_moving(v)}; the charge port opens only in P: "
                            "stop and shift to P first")
        v.charge_port_open = True
        return _energy(v)

    @tool(idempotent=True, requires=("vehicle.charge_port",))
    def close_charge_port(self, vehicle_id: Id("vehicle")) -> dict:
        """Close an electric vehicle's charge port door. The charging cable must be unplugged first."""
        v = self._electric(vehicle_id, "has no charge port")
        if v.plugged_in:
            raise ToolError(f"Vehicle {v.id} still has the charging cable plugged in; unplug it before closing the "
                            "charge port")
        v.charge_port_open = False
        return _energy(v)

    @tool(idempotent=True, sets=("vehicle.charging",))
    def start_charging(self, vehicle_id: Id("vehicle")) -> dict:
        """Start charging an electric vehicle up to its charge limit. It must be in P, plugged in to a charger
        and below its charge limit."""
        v = self._electric(vehicle_id, "runs on gasoline and cannot charge")
        if v.gear != "P":
            raise ToolError(f"Vehicle {v.id} is in gear {v.gear}{_moving(v)}; charging needs it parked in P")
        if not v.plugged_in:
            raise ToolError(f"Vehicle {v.id} is not plugged in to a charger; plug the cable in, then start charging")
        if v.charging:
            return _energy(v)
        if v.energy_percent >= v.charge_limit:
            raise ToolError(f"Vehicle {v.id} is at {v.energy_percent}%, already at its charge limit of "
                            f"{v.charge_limit}%; raise the limit to charge further")
        v.charging = True
        return _energy(v)

    @tool(idempotent=True, requires=("vehicle.charging",))
    def stop_charging(self, vehicle_id: Id("vehicle")) -> dict:
        """Stop charging an electric vehicle. The cable stays plugged in. A vehicle that is not charging
        stays as it is, and the result says it was not charging."""
        v = self._electric(vehicle_id, "runs on gasoline and cannot charge")
        if not v.charging:
            plugged = "plugged in" if v.plugged_in else "not plugged in"
            return {**_energy(v), "note": f"Vehicle {v.id} was not charging ({plugged}, {v.energy_percent}%)"}
        v.charging = False
        return _energy(v)

    @tool(idempotent=True)
    def set_charge_limit(self, vehicle_id: Id("vehicle"), percent: int) -> dict:
        """Set the battery level an electric vehicle charges up to. A vehicle charging that reaches the new
        limit stops charging.

        Args:
            percent: the charge limit, 50 to 100 percent, such as 80.
        """
        v = self._electric(vehicle_id, "runs on gasoline and has no charge limit")
        if not 50 <= percent <= 100:
            raise ToolError(f"percent must be from 50 to 100, got {percent}")
        v.charge_limit = percent
        if v.charging and v.energy_percent >= percent:
            v.charging = False
        return _energy(v)

    @tool(requires=("vehicle.ignition",), sets=("vehicle.fuel",))
    def refuel(self, vehicle_id: Id("vehicle"), amount: Annotated[float, Field(gt=0, le=400)] | None = None,
               unit: Literal["litres", "gallons"] | None = None) -> dict:
        """Refuel a gasoline vehicle at the pump: an amount of fuel, or a full tank when no amount is given.

        The engine must be off (ignition off). The pump stops when the tank is full, so the result says how
        much actually went in, in the display's units. Electric vehicles charge instead (start_charging).

        Args:
            amount: how much fuel to add, such as 10; left out, the tank is filled up.
            unit: the unit of amount, 'litres' or 'gallons' (US); left out, the display's: gallons on an
                imperial display, litres on a metric one.
        """
        v = self.get(Vehicle, vehicle_id)
        if v.powertrain != "gasoline":
            raise ToolError(f"Vehicle {v.id} ({_title(v)}) is electric and has no fuel tank; plug it in and "
                            "start_charging instead")
        if v.ignition != "off":
            raise ToolError(f"Vehicle {v.id}'s ignition is {v.ignition} (gear {v.gear}{_moving(v)}); stop in P "
                            "and switch the ignition off before refuelling")
        room = v.tank_litres - v.fuel_litres
        if room < FULL_MARGIN:
            raise ToolError(f"Vehicle {v.id}'s tank is already full ({_volume_words(v, v.tank_litres)}); there is "
                            "nothing to add")
        unit = unit or ("litres" if _metric(v) else "gallons")
        wanted = room if amount is None else amount * (LITRES_PER_GALLON if unit == "gallons" else 1.0)
        added = min(wanted, room)
        v.fuel_litres = v.tank_litres if added == room else round(v.fuel_litres + added, 3)
        v.energy_percent = round(100 * v.fuel_litres / v.tank_litres)
        full = v.tank_litres - v.fuel_litres < FULL_MARGIN
        result = {"vehicle_id": v.id, **_volume(v, added, "added"), "tank_full": full, **_fuel(v),
                  "fuel_percent": v.energy_percent, **_range_reading(v)}
        if amount is not None and wanted > room:
            result["note"] = (f"The tank filled up after {_volume_words(v, added)} of the {amount:g} {unit} "
                              "asked for")
        return result

    @tool(read_only=True, requires=("vehicle.units",))
    def get_tyre_pressures(self, vehicle_id: Id("vehicle")) -> dict:
        """Return each tyre's pressure, the recommended pressure, and which tyres are under pressure (4 psi,
        28 kPa, or more below the recommendation), in the display's units: psi (imperial) or kPa (metric).
        find_nearby_places with category 'tyre_shop' finds where to have a low tyre seen to."""
        v = self.get(Vehicle, vehicle_id)
        tyres = {"front_left": v.tyre_front_left, "front_right": v.tyre_front_right,
                 "rear_left": v.tyre_rear_left, "rear_right": v.tyre_rear_right}
        unit = "kpa" if _metric(v) else "psi"
        return {"vehicle_id": v.id, f"tyres_{unit}": {t: _pressure(v, psi) for t, psi in tyres.items()},
                f"recommended_{unit}": _pressure(v, v.tyre_recommended),
                "low": [t for t, psi in tyres.items() if psi <= v.tyre_recommended - 4]}

    @tool(idempotent=True, requires=("vehicle.ignition",), sets=("vehicle.units",))
    def set_display_units(self, vehicle_id: Id("vehicle"), units: Literal["imperial", "metric"]) -> dict:
        """Set the unit system of the vehicle's display, which every reading of its tools then uses: imperial
        (mph, miles, gallons, degrees F, psi) or metric (km/h, km, litres, degrees C, kPa). Needs the ignition in
        accessory or on.

        Args:
            units: 'imperial' or 'metric'.
        """
        v = self.get(Vehicle, vehicle_id)
        self._powered(v, "the display's settings change")
        v.display_units = units
        return {"vehicle_id": v.id, "display_units": units, "units": UNITS[units]}

    @tool(idempotent=True, requires=("vehicle.ignition",))
    def set_drive_mode(self, vehicle_id: Id("vehicle"), mode: str) -> dict:
        """Select one of the drive modes the vehicle offers (see get_vehicle_status). Needs the ignition on.

        Args:
            mode: the mode's name as the vehicle lists it, case-insensitive, such as 'sport' or 'eco'.
        """
        v = self.get(Vehicle, vehicle_id)
        offered = v.drive_modes.split(",")
        wanted = mode.strip().lower()
        if wanted not in offered:
            raise ToolError(f"Vehicle {v.id} ({_title(v)}) has no {mode!r} mode; it offers {', '.join(offered)}")
        if v.ignition != "on":
            raise ToolError(f"Vehicle {v.id}'s ignition is {v.ignition}; turn the ignition on to change drive mode")
        v.drive_mode = wanted
        return {**_summary(v), "drive_mode": v.drive_mode}

    @tool(idempotent=True, requires=("vehicle.ignition",))
    def play_media(self, vehicle_id: Id("vehicle"), source: Literal["radio", "bluetooth", "usb", "off"],
                   station: str | None = None) -> dict:
        """Play the radio, a paired phone over Bluetooth or a USB drive, or turn media off.

        Playing needs the ignition in accessory or on; Bluetooth needs a paired phone.

        Args:
            source: 'radio', 'bluetooth', 'usb' or 'off'.
            station: for the radio, the station as '98.1 FM' (87.5 to 108.0) or '740 AM' (530 to 1700); the
                last station when left out.
        """
        v = self.get(Vehicle, vehicle_id)
        if source != "off":
            self._powered(v, "media plays")
        if source == "bluetooth" and not v.paired_phone:
            raise ToolError(f"Vehicle {v.id} has no phone paired over Bluetooth; pair a phone or choose the radio")
        if station is not None:
            if source != "radio":
                raise ToolError("station is only for source 'radio'")
            v.radio_station = _station(station)
        v.media_source = source
        return {"vehicle_id": v.id, "media_source": v.media_source,
                "radio_station": v.radio_station if source == "radio" else None,
                "paired_phone": v.paired_phone}

    # -- navigation ---------------------------------------------------------------------------------

    @tool(read_only=True)
    def search_places(self, query: str | None = None, category: PlaceCategory | None = None,
                      city: str | None = None, postal_code: str | None = None, limit: Limit = 10) -> list[dict]:
        """Search the places navigation can route to, by name or street address, category, city and postal code.

        Every criterion given must match (a blank one is none); with none, every place. Ordered by
        name, then id.

        Args:
            query: part of the name or street address, case-insensitive, such as 'Blue Bottle' or '12 Oak St'.
            category: the kind of place, such as 'cafe', 'charging_station', 'fuel_station' or 'tyre_shop'.
            city: the city, case-insensitive, such as 'Fresno'.
            postal_code: the five-digit postal code, such as '93721'.
        """
        where, params = ["1"], []
        if query and query.strip():  # LIKE ignores (ASCII) case, as SQLite's lower() folds it
            where.append("(name LIKE '%' || ? || '%' OR address LIKE '%' || ? || '%')")
            params += [query.strip().lower()] * 2
        if category:
            where.append("category = ?")
            params.append(category)
        if city and city.strip():
            where.append("lower(city) = ?")
            params.append(city.strip().lower())
        if postal_code and postal_code.strip():
            where.append("postal_code = ?")
            params.append(postal_code.strip())
        rows = self.rows(f"SELECT id, name, category, address, city, postal_code FROM places "
                         f"WHERE {' AND '.join(where)} ORDER BY name, id LIMIT ?", *params, limit)
        return [{"place_id": r[0], "name": r[1], "category": r[2], "address": r[3], "city": r[4],
                 "postal_code": r[5]} for r in rows]

    @tool(read_only=True, produces=("place",), requires=("vehicle.units",))
    def find_nearby_places(self, vehicle_id: Id("vehicle"), category: PlaceCategory | None = None,
                           limit: Limit = 5) -> list[dict]:
        """The places nearest to where the vehicle is, nearest first: the nearest tyre shops, fuel or charging
        stations, cafes. Each comes with its road distance (in the display's units) and driving time.

        Args:
            category: only places of this kind, such as 'tyre_shop', 'fuel_station' or 'cafe'; left out, every
                kind but homes ('residence').
        """
        v = self.get(Vehicle, vehicle_id)
        where = "category = ?" if category else "category != ?"
        rows = self.rows(f"SELECT id, name, category, address, city, postal_code, lat, lon FROM places WHERE {where}",
                         category or "residence")
        here = (v.lat, v.lon)
        near = sorted(((_road(here, (r[6], r[7])), r) for r in rows), key=lambda x: (x[0], x[1][0]))[:limit]
        return [{"place_id": r[0], "name": r[1], "category": r[2], "address": r[3], "city": r[4],
                 "postal_code": r[5], **_distance(v, miles), "minutes": _leg_minutes(miles)} for miles, r in near]

    @tool(read_only=True, requires=("vehicle.units",))
    def get_distance(self, from_place_id: Id("place"), to_place_id: Id("place"),
                     vehicle_id: Id("vehicle") | None = None) -> dict:
        """The road distance and driving time between any two places; neither needs to be where a vehicle is.

        Args:
            vehicle_id: the vehicle whose navigation is asked, for the distance in its display's units; left
                out, in miles.
        """
        a, b = self.get(Place, from_place_id), self.get(Place, to_place_id)
        v = self.get(Vehicle, vehicle_id) if vehicle_id is not None else None
        miles = _road((a.lat, a.lon), (b.lat, b.lon))
        distance = _distance(v, miles) if v is not None else {"distance_miles": round(miles, 1)}
        return {"vehicle_id": vehicle_id, "from": _place(a), "to": _place(b), **distance,
                "minutes": _leg_minutes(miles) if miles else 0}

    @tool(read_only=True, produces=("place",))
    def list_saved_places(self, owner_id: Id("owner")) -> list[dict]:
        """List an owner's saved places (Home, Work, ...) with the place each points to, ordered by label."""
        saved = self.get(Owner, owner_id).saved_places
        self.world.preload(Place, [s.place_id for s in saved])
        return [_saved(s, self.db.get(Place, s.place_id)) for s in saved]

    @tool(produces=("saved_place",), details=(Detail("saved_places", "note"),))
    def save_place(self, owner_id: Id("owner"), place_id: Id("place"), label: str, note: str | None = None) -> dict:
        """Save a place under a label of the owner's choosing, such as 'Work' or 'Gym'.

        Labels are unique per owner (case-insensitive), a place is saved at most once per owner, and an owner
        keeps at most 15 saved places.

        Args:
            label: 1 to 40 characters, such as 'Work'.
            note: an optional note, such as 'Park in the back'.
        """
        owner, place = self.get(Owner, owner_id), self.get(Place, place_id)
        label = label.strip()
        if not 1 <= len(label) <= 40:
            raise ToolError(f"label must be 1 to 40 characters, got {len(label)}")
        saved = list(self.db.scalars(select(SavedPlace).where(SavedPlace.owner_id == owner.id)))
        clash = next((s for s in saved if s.label.lower() == label.lower()), None)
        if clash is not None:
            raise ToolError(f"{owner.name} already has a saved place labelled {clash.label!r} ({clash.id}); pick "
                            "another label or delete that one first")
        same = next((s for s in saved if s.place_id == place.id), None)
        if same is not None:
            raise ToolError(f"{place.name} is already saved as {same.label!r} ({same.id})")
        if len(saved) >= MAX_SAVED:
            raise ToolError(f"{owner.name} already has {MAX_SAVED} saved places, the most allowed; delete one first")
        row = SavedPlace(id=self.new_id("SAV"), owner_id=owner.id, place_id=place.id, label=label,
                         note=(note or "").strip() or None, saved_at=self.now)
        self.db.add(row)
        return _saved(row, place)

    @tool(destructive=True)
    def delete_saved_place(self, saved_place_id: Id("saved_place")) -> dict:
        """Delete one of an owner's saved places (the place itself stays searchable)."""
        saved = self.get(SavedPlace, saved_place_id)
        self.db.delete(saved)
        return {"saved_place_id": saved.id, "label": saved.label, "deleted": True}

    @tool(read_only=True, produces=("place",), requires=("vehicle.fuel", "vehicle.units"))
    def plan_route(self, vehicle_id: Id("vehicle"), place_id: Id("place")) -> dict:
        """Plan a route from where the vehicle is to a place without starting it: distance (in the display's
        units), driving time in minutes, arrival time, and the charging (electric) or fuel (gasoline) stops a
        route longer than the vehicle's range needs."""
        v, place = self.get(Vehicle, vehicle_id), self.get(Place, place_id)
        return self._route(v, _Target.of(place))[0]

    @tool(idempotent=True, requires=("vehicle.ignition", "vehicle.fuel"), sets=("vehicle.route",))
    def start_navigation(self, vehicle_id: Id("vehicle"), place_id: Id("place")) -> dict:
        """Start turn-by-turn navigation to a place, with charging or fuel stops added when the route is longer
        than the range. Needs the ignition in accessory or on. Replaces any active route."""
        v, place = self.get(Vehicle, vehicle_id), self.get(Place, place_id)
        self._powered(v, "navigation runs")
        return self._navigate(v, _Target.of(place))

    @tool(idempotent=True, requires=("vehicle.ignition", "vehicle.fuel"), sets=("vehicle.route",))
    def navigate_to_address(self, vehicle_id: Id("vehicle"), postal_code: str, street: str | None = None) -> dict:
        """Start navigation to a postal address: a street address in a postal code, or a postal code alone (the
        route goes to the centre of its area). Charging or fuel stops are added as for start_navigation. Needs
        the ignition in accessory or on. Replaces any active route.

        Args:
            postal_code: the five-digit postal code, such as '94110'.
            street: the street address within that postal code, case-insensitive, such as '1200 Oak Street';
                left out, the route goes to the postal code's area.
        """
        v = self.get(Vehicle, vehicle_id)
        self._powered(v, "navigation runs")
        code = postal_code.strip()
        area = self.db.get(PostalCode, code) if len(code) == 5 and code.isdigit() else None
        if area is None:
            raise ToolError(f"No postal code {postal_code!r} on the map; postal codes are five digits, such as "
                            "'94110', and search_places shows the postal code of every place")
        if street is None or not street.strip():
            return self._navigate(v, _Target(None, area.code, f"{area.code} ({area.city})", area.city, area.lat,
                                             area.lon))
        wanted = _words(street)
        here = list(self.db.scalars(select(Place).where(Place.postal_code == area.code).order_by(Place.id)))
        found = [p for p in here if _words(p.address) == wanted] or \
            [p for p in here if wanted in _words(p.address)]
        if not found:
            raise ToolError(f"No address matching {street.strip()!r} in postal code {area.code} ({area.city}); "
                            "search_places finds places by street address and shows their postal codes")
        if len(found) > 1:
            raise ToolError(f"{street.strip()!r} matches {len(found)} addresses in postal code {area.code}: "
                            f"{'; '.join(p.address for p in found[:5])}; give the full street address")
        return self._navigate(v, _Target.of(found[0]))

    @tool(destructive=True, requires=("vehicle.route",))
    def cancel_navigation(self, vehicle_id: Id("vehicle")) -> dict:
        """End the active route."""
        v = self.get(Vehicle, vehicle_id)
        if v.nav_place_id is None and v.nav_postal_code is None:
            raise ToolError(f"Vehicle {v.id} has no active route")
        ended = self._navigation(v)
        _clear_route(v)
        return {"vehicle_id": v.id, "cancelled": ended}

    # -- hidden -------------------------------------------------------------------------------------

    @tool(read_only=True, hidden=True)
    def fleet_census(self) -> dict:
        """Debugging only: how many vehicles of the whole world are in each ignition state and gear."""
        rows = self.db.execute(select(Vehicle.ignition, Vehicle.gear, func.count())
                               .group_by(Vehicle.ignition, Vehicle.gear).order_by(Vehicle.ignition, Vehicle.gear))
        return {f"{ignition}/{gear}": count for ignition, gear, count in rows}

    # -- invariants ---------------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """The state machine's invariants: moving only in D, N (coasting) or R (at most 10 mph) with the
        ignition on, both brakes released, everything closed and something left in the tank or battery; cruise
        control only while driving in D at 20 to 85 mph; off or accessory only in P; nothing that needs power
        running with the ignition off; charging only plugged in, in P; plugged in only with the port open;
        locked only with every door closed; fuel within the tank, its level the percentage shown; one
        destination at a time; nothing recorded after the clock."""
        problems = []
        for v in self.db.scalars(select(Vehicle)):
            if v.speed_mph > 0 and (v.ignition != "on" or v.gear not in ("D", "N", "R") or v.trunk_open
                                    or v.charge_port_open or v.open_door or v.energy_percent <= 0):
                problems.append(f"{v.id} moves at {v.speed_mph} mph in {v.gear}, ignition {v.ignition}")
            if v.speed_mph > 0 and (v.parking_brake or v.brake_pressed):
                problems.append(f"{v.id} moves at {v.speed_mph} mph with its brake pedal pressed or parking brake on")
            if v.cruise_on and (v.ignition != "on" or v.gear != "D" or not MIN_CRUISE <= v.speed_mph <= MAX_SPEED):
                problems.append(f"{v.id} has cruise control on at {v.speed_mph} mph in {v.gear}")
            if v.following_distance not in FOLLOWING_SECONDS or v.display_units not in ("imperial", "metric"):
                problems.append(f"{v.id} has a following distance of {v.following_distance!r} and display units "
                                f"{v.display_units!r}")
            if v.powertrain == "gasoline":
                if (v.tank_litres is None or v.fuel_litres is None or not 0 <= v.fuel_litres <= v.tank_litres
                        or v.energy_percent != round(100 * v.fuel_litres / v.tank_litres)):
                    problems.append(f"{v.id} has {v.fuel_litres} litres in a {v.tank_litres}-litre tank at "
                                    f"{v.energy_percent}%")
            elif v.tank_litres is not None or v.fuel_litres is not None:
                problems.append(f"{v.id} runs on {v.powertrain} but has a fuel tank")
            if v.nav_place_id is not None and v.nav_postal_code is not None:
                problems.append(f"{v.id} navigates to a place and a postal code at once")
            if not 0 <= v.speed_mph <= (MAX_REVERSE if v.gear == "R" else MAX_SPEED):
                problems.append(f"{v.id} moves at {v.speed_mph} mph in {v.gear}")
            if v.ignition != "on" and v.gear != "P":
                problems.append(f"{v.id} is in {v.gear} with the ignition {v.ignition}")
            if v.ignition == "off" and (v.climate_on or v.defrost_front or v.defrost_rear or v.media_source != "off"
                                        or v.headlights not in ("off", "auto") or v.nav_place_id is not None
                                        or v.nav_postal_code is not None
                                        or v.driver_seat_heat or v.passenger_seat_heat or v.rear_seat_heat
                                        or v.wheel_heat):
                problems.append(f"{v.id} runs climate, media, lights or a route with the ignition off")
            if v.headlights == "high" and v.ignition != "on":
                problems.append(f"{v.id} has high beams on with the ignition {v.ignition}")
            if v.media_source == "bluetooth" and not v.paired_phone:
                problems.append(f"{v.id} plays Bluetooth with no paired phone")
            if v.charging and (not v.plugged_in or v.gear != "P"):
                problems.append(f"{v.id} charges unplugged or out of P")
            if v.plugged_in and not v.charge_port_open:
                problems.append(f"{v.id} is plugged in with its charge port closed")
            if v.powertrain != "electric" and (v.plugged_in or v.charging or v.charge_port_open):
                problems.append(f"{v.id} runs on {v.powertrain} but has a charge port open or a cable plugged in")
            if v.locked and v.open_door:
                problems.append(f"{v.id} is locked with its {v.open_door} door open")
            if not 0 <= v.energy_percent <= 100:
                problems.append(f"{v.id} has {v.energy_percent}% left")
        problems += self.after_now(SavedPlace.saved_at, Vehicle.nav_started_at)
        return problems

    # -- helpers ------------------------------------------------------------------------------------

    def _powered(self, v: Vehicle, what: str) -> None:
        if v.ignition == "off":
            raise ToolError(f"Vehicle {v.id}'s ignition is off; {what} only with the ignition in accessory or on: "
                            "switch it to accessory first")

    def _electric(self, vehicle_id: str, lacks: str) -> Vehicle:
        v = self.get(Vehicle, vehicle_id)
        if v.powertrain != "electric":
            raise ToolError(f"Vehicle {v.id} ({_title(v)}) {lacks}")
        return v

    def _navigation(self, v: Vehicle) -> dict | None:
        if v.nav_place_id is None and v.nav_postal_code is None:
            return None
        if v.nav_place_id is not None:
            place = self.db.get(Place, v.nav_place_id)
            destination, code = (place.name, place.postal_code) if place else (None, None)
        else:
            area = self.db.get(PostalCode, v.nav_postal_code)
            destination, code = f"{area.code} ({area.city})", area.code
        return {"place_id": v.nav_place_id, "postal_code": code, "destination": destination,
                **_distance(v, v.nav_distance_miles), "minutes": v.nav_minutes,
                "stops": v.nav_stops.split(",") if v.nav_stops else []}

    def _navigate(self, v: Vehicle, target: _Target) -> dict:
        route, miles = self._route(v, target)
        v.nav_place_id, v.nav_postal_code = target.place_id, None if target.place_id else target.postal_code
        v.nav_distance_miles, v.nav_minutes = miles, route["minutes"]
        v.nav_stops = ",".join(s["place_id"] for s in route["stops"]) or None
        v.nav_started_at = self.now
        return route

    def _route(self, v: Vehicle, place: _Target) -> tuple[dict, float]:
        """Legs from the vehicle to the place, and their road miles; when the range does not reach, stop at the
        station of the right kind that gets closest to the place among those within reach, again and again."""
        kind = "charging_station" if v.powertrain == "electric" else "fuel_station"
        here, reach = (v.lat, v.lon), _range(v) - RESERVE_MILES
        stops: list[Place] = []
        legs: list[float] = []
        stations = None
        while _road(here, (place.lat, place.lon)) > reach:
            if stations is None:
                stations = list(self.db.scalars(select(Place).where(Place.category == kind).order_by(Place.id)))
            left = _road(here, (place.lat, place.lon))
            usable = [s for s in stations if _road(here, (s.lat, s.lon)) <= reach
                      and _road((s.lat, s.lon), (place.lat, place.lon)) < left - 1]
            if not usable or len(stops) >= 8:
                what = "charging station" if kind == "charging_station" else "fuel station"
                raise ToolError(f"{place.name} is {_distance_words(v, left)} away by road and vehicle {v.id} has "
                                f"{_distance_words(v, _range(v))} of range, with no {what} within reach on the way; "
                                f"{'charge' if kind == 'charging_station' else 'fill up'} first")
            best = min(usable, key=lambda s: (_road((s.lat, s.lon), (place.lat, place.lon)), s.id))
            legs.append(_road(here, (best.lat, best.lon)))
            stops.append(best)
            here = (best.lat, best.lon)
            reach = (v.full_range_miles * (0.8 if kind == "charging_station" else 1.0)) - RESERVE_MILES
        legs.append(_road(here, (place.lat, place.lon)))
        pause = CHARGE_STOP_MINUTES if kind == "charging_station" else FUEL_STOP_MINUTES
        minutes = sum(_leg_minutes(leg) for leg in legs) + pause * len(stops)
        return {"vehicle_id": v.id, "place_id": place.place_id, "postal_code": place.postal_code,
                "destination": place.name, "city": place.city, **_distance(v, sum(legs)), "minutes": minutes,
                "arrives_at": (self.now + dt.timedelta(minutes=minutes)).replace(second=0, microsecond=0),
                **_range_reading(v),
                "stops": [{"place_id": s.id, "name": s.name, "city": s.city, "kind": kind} for s in stops]}, \
            round(sum(legs), 1)


class _Target(NamedTuple):
    """Where a route goes: a place, or the centre of a postal code's area."""

    place_id: str | None
    postal_code: str
    name: str
    city: str
    lat: float
    lon: float

    @classmethod
    def of(cls, place: Place) -> _Target:
        return cls(place.id, place.postal_code, place.name, place.city, place.lat, place.lon)


# -- readings in the display's units -------------------------------------------------------------------


def _metric(v: Vehicle) -> bool:
    return v.display_units == "metric"


def _speed(v: Vehicle, mph: float | None, key: str = "speed") -> dict:
    if _metric(v):
        return {f"{key}_kmh": None if mph is None else round(mph * KM_PER_MILE)}
    return {f"{key}_mph": None if mph is None else round(mph)}


def _speed_words(v: Vehicle, mph: float) -> str:
    return f"{round(mph * KM_PER_MILE)} km/h" if _metric(v) else f"{round(mph)} mph"


def _distance(v: Vehicle, miles: float | None, key: str = "distance", digits: int | None = 1) -> dict:
    """A distance as `<key>_km` or `<key>_miles`, to `digits` decimals (None: a whole number)."""
    if miles is None:
        return {f"{key}_km" if _metric(v) else f"{key}_miles": None}
    if _metric(v):
        return {f"{key}_km": round(miles * KM_PER_MILE, digits)}
    return {f"{key}_miles": round(miles, digits)}


def _distance_words(v: Vehicle, miles: float) -> str:
    return f"{miles * KM_PER_MILE:.0f} km" if _metric(v) else f"{miles:.0f} miles"


def _range_reading(v: Vehicle) -> dict:
    if _metric(v):
        return {"range_km": round(v.full_range_miles * v.energy_percent / 100 * KM_PER_MILE)}
    return {"range_miles": _range(v)}


def _temperature(v: Vehicle, key: str, fahrenheit: int) -> dict:
    if _metric(v):
        return {f"{key}_c": round((fahrenheit - 32) * 5 / 9, 1)}
    return {f"{key}_f": fahrenheit}


def _pressure(v: Vehicle, psi: float) -> float | int:
    return round(psi * KPA_PER_PSI) if _metric(v) else psi


def _volume(v: Vehicle, litres: float, key: str) -> dict:
    if _metric(v):
        return {f"{key}_litres": round(litres, 1)}
    return {f"{key}_gallons": round(litres / LITRES_PER_GALLON, 1)}


def _volume_words(v: Vehicle, litres: float) -> str:
    return f"{litres:.1f} litres" if _metric(v) else f"{litres / LITRES_PER_GALLON:.1f} gallons"


# -- results --------------------------------------------------------------------------------------


def _title(v: Vehicle) -> str:
    return f"{v.year} {v.make} {v.model}"


def _range(v: Vehicle) -> int:
    """The range in miles, whatever the display shows."""
    return round(v.full_range_miles * v.energy_percent / 100)


def _energy_word(v: Vehicle) -> str:
    return "battery" if v.powertrain == "electric" else "fuel tank"


def _moving(v: Vehicle) -> str:
    return f" at {_speed_words(v, v.speed_mph)}" if v.speed_mph else ""


def _summary(v: Vehicle) -> dict:
    info = {"vehicle_id": v.id, "owner_id": v.owner_id, "vehicle": _title(v), "make": v.make, "model": v.model,
            "year": v.year, "color": v.color, "nickname": v.nickname, "plate": v.plate, "powertrain": v.powertrain,
            "ignition": v.ignition, "gear": v.gear, **_speed(v, v.speed_mph), "locked": v.locked}
    key = "battery_percent" if v.powertrain == "electric" else "fuel_percent"
    return info | {key: v.energy_percent, **_range_reading(v), "display_units": v.display_units}


def _brakes(v: Vehicle, short: bool = False) -> dict:
    brakes = {"brake_pedal": "pressed" if v.brake_pressed else "released",
              "parking_brake": "engaged" if v.parking_brake else "released"}
    if short:
        return brakes
    return {"vehicle_id": v.id, **brakes, "ignition": v.ignition, "gear": v.gear, **_speed(v, v.speed_mph)}


def _cruise(v: Vehicle, short: bool = False) -> dict:
    cruise = {"on": v.cruise_on, **_speed(v, v.speed_mph if v.cruise_on else None, "set_speed"),
              "following_distance": v.following_distance,
              "following_gap_seconds": FOLLOWING_SECONDS[v.following_distance]}
    if short:
        return cruise
    return {"vehicle_id": v.id, "cruise_control": cruise, "gear": v.gear, **_speed(v, v.speed_mph)}


def _fuel(v: Vehicle) -> dict:
    return {**_volume(v, v.fuel_litres, "fuel"), **_volume(v, v.tank_litres, "tank")}


def _body(v: Vehicle) -> dict:
    return {"vehicle_id": v.id, "locked": v.locked, "open_door": v.open_door, "trunk_open": v.trunk_open,
            "windows": v.windows, "headlights": v.headlights, "ignition": v.ignition, "gear": v.gear,
            **_speed(v, v.speed_mph)}


def _climate(v: Vehicle) -> dict:
    return {"vehicle_id": v.id, "climate_on": v.climate_on, **_temperature(v, "target_temp", v.target_temp_f),
            "fan_speed": v.fan_speed if v.climate_on else 0,
            **_temperature(v, "inside_temp", v.inside_temp_f), **_temperature(v, "outside_temp", v.outside_temp_f),
            "heating": {"driver_seat": v.driver_seat_heat, "passenger_seat": v.passenger_seat_heat,
                        "rear_seats": v.rear_seat_heat, "steering_wheel": v.wheel_heat if v.has_heated_wheel else None},
            "defrost_front": v.defrost_front, "defrost_rear": v.defrost_rear, "ignition": v.ignition}


def _energy(v: Vehicle) -> dict:
    return {"vehicle_id": v.id, "battery_percent": v.energy_percent, **_range_reading(v),
            "charge_port_open": v.charge_port_open, "plugged_in": v.plugged_in, "charging": v.charging,
            "charge_limit": v.charge_limit, "gear": v.gear}


def _place(p: Place) -> dict:
    return {"place_id": p.id, "name": p.name, "category": p.category, "address": p.address, "city": p.city,
            "postal_code": p.postal_code}


def _words(text: str) -> str:
    """An address as compared: lower case, without commas or periods, single spaces."""
    return " ".join(text.lower().replace(",", " ").replace(".", " ").split())


def _saved(saved: SavedPlace, place: Place) -> dict:
    return {"saved_place_id": saved.id, "owner_id": saved.owner_id, "label": saved.label, "note": saved.note,
            **_place(place)}


def _clear_route(v: Vehicle) -> None:
    v.nav_place_id = v.nav_postal_code = v.nav_distance_miles = v.nav_minutes = v.nav_stops = None
    v.nav_started_at = None


def _station(text: str) -> str:
    """A radio station as '98.1 FM' or '740 AM', or a ToolError saying the format."""
    parts = text.strip().upper().replace("MHZ", "").replace("KHZ", "").split()
    try:
        if len(parts) == 2 and parts[1] == "FM" and 87.5 <= float(parts[0]) <= 108.0:
            return f"{float(parts[0]):.1f} FM"
        if len(parts) == 2 and parts[1] == "AM" and 530 <= int(parts[0]) <= 1700:
            return f"{int(parts[0])} AM"
    except ValueError:
        pass
    raise ToolError(f"station must look like '98.1 FM' (87.5 to 108.0) or '740 AM' (530 to 1700), got {text!r}")


def _road(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Road miles between two points: the great-circle distance times a road factor."""
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return round(3958.8 * 2 * math.asin(math.sqrt(h)) * ROAD_FACTOR, 1)


def _leg_minutes(miles: float) -> int:
    mph = 28 if miles < 10 else 45 if miles < 40 else 62
    return max(1, round(miles / mph * 60))
