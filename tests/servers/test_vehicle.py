"""The vehicle server through real MCP: every tool, every gate of the car's state machine (each refusal
leaves the world unchanged and names the state that blocks the action), brakes and cruise control,
refuelling, display units, navigation with charging and fuel stops and to postal addresses, nearby places
and distances, saved places, and the reward's outcome rules played through the environment.

Vehicles are found through the tools by the state they are in, in the seed-0 world; unless a test says
otherwise, among those whose display shows imperial units (the readings a test compares are in mph and
miles)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from prove_env.registry import get_toolkit


@pytest.fixture
def s(served):
    return served("vehicle")


KM_PER_MILE = 1.609344


def fleet(s) -> list[dict]:
    out = []
    for owner in s.ok("find_owners", limit=100):
        for v in s.ok("list_vehicles", owner_id=owner["owner_id"]):
            out.append(s.ok("get_vehicle_status", vehicle_id=v["vehicle_id"]))
    return out


def pick(s, where, what: str, units: str | None = "imperial") -> dict:
    for v in fleet(s):
        if (units is None or v["display_units"] == units) and where(v):
            return v
    raise AssertionError(f"no vehicle {what} ({units or 'any'} display) in the seed-0 world")


def status(s, vehicle_id: str) -> dict:
    return s.ok("get_vehicle_status", vehicle_id=vehicle_id)


def mph(reading: dict) -> int:
    """The speed of a result, in mph whatever the display shows."""
    return reading["speed_mph"] if "speed_mph" in reading else round(reading["speed_kmh"] / KM_PER_MILE)


def miles(reading: dict) -> int:
    """The range of a result, in miles whatever the display shows."""
    return reading["range_miles"] if "range_miles" in reading else round(reading["range_km"] / KM_PER_MILE)


def moving(v: dict) -> bool:
    return mph(v) > 0 and v["gear"] == "D"


def parked_off(v: dict) -> bool:
    return v["ignition"] == "off" and v["gear"] == "P" and not v["open_door"] and not v["trunk_open"] \
        and not v.get("charge_port_open") and miles(v) > 0


def start(s, vehicle_id: str) -> dict:
    """Press the brake pedal and switch the ignition on, as a driver starts a car."""
    s.ok("set_brake_pedal", vehicle_id=vehicle_id, pressed=True)
    return s.ok("set_ignition", vehicle_id=vehicle_id, mode="on")


def ready_to_drive(s, vehicle_id: str, gear: str = "D") -> None:
    """Start the vehicle, shift into `gear` and release the parking brake."""
    start(s, vehicle_id)
    s.ok("shift_gear", vehicle_id=vehicle_id, gear=gear)
    s.ok("set_parking_brake", vehicle_id=vehicle_id, engaged=False)


# -- the world ----------------------------------------------------------------------------------------


def test_tools_and_hidden_census():
    specs = get_toolkit("vehicle").specs()
    visible = [name for name, spec in specs.items() if not spec.hidden]
    assert len(visible) >= 20 and specs["fleet_census"].hidden


def test_seed_world_has_every_state(s):
    vehicles = fleet(s)
    assert 40 <= len(vehicles) <= 120
    assert {v["ignition"] for v in vehicles} == {"off", "accessory", "on"}
    assert any(moving(v) for v in vehicles) and any(v["ignition"] == "on" and v["gear"] == "P" for v in vehicles)
    assert {v["display_units"] for v in vehicles} == {"imperial", "metric"}
    assert {v["parking_brake"] for v in vehicles} == {"engaged", "released"}
    assert any(v["brake_pedal"] == "pressed" for v in vehicles) and any(v["cruise_control"]["on"] for v in vehicles)
    assert {v["powertrain"] for v in vehicles} == {"electric", "gasoline"}
    assert any(v.get("charging") for v in vehicles)
    assert any(v.get("plugged_in") and v["battery_percent"] >= v["charge_limit"] for v in vehicles)
    assert any(v["open_door"] for v in vehicles) and any(v["trunk_open"] for v in vehicles)
    assert any(miles(v) < 30 for v in vehicles) and any(v["navigation"] for v in vehicles)
    owners = s.ok("find_owners", limit=100)
    assert any(s.ok("list_saved_places", owner_id=o["owner_id"]) == [] for o in owners)


def test_find_owners_and_list_vehicles(s):
    owners = s.ok("find_owners", limit=100)
    assert len(owners) == 40 and len({o["name"] for o in owners}) == 40
    third = owners[2]
    assert s.ok("find_owners", name=third["name"].split()[-1].upper())[0]["owner_id"] <= third["owner_id"]
    assert s.ok("find_owners", email=third["email"].upper()) == [third]
    assert s.ok("find_owners", name="zzz-nobody") == []
    cars = s.ok("list_vehicles", owner_id=third["owner_id"])
    assert cars and all(c["owner_id"] == third["owner_id"] for c in cars)
    units = {"imperial": {"speed_mph", "range_miles"}, "metric": {"speed_kmh", "range_km"}}[cars[0]["display_units"]]
    assert {"vehicle", "ignition", "gear", "plate"} | units <= set(cars[0])


def test_status_climate_and_tyres(s):
    v = pick(s, lambda v: v["powertrain"] == "electric", "electric")
    assert {"battery_percent", "charge_port_open", "plugged_in", "charging", "charge_limit", "odometer_miles",
            "navigation", "location"} <= set(v)
    gas = pick(s, lambda v: v["powertrain"] == "gasoline", "gasoline")
    assert "fuel_percent" in gas and "charge_port_open" not in gas
    climate = s.ok("get_climate", vehicle_id=v["vehicle_id"])
    assert {"climate_on", "target_temp_f", "inside_temp_f", "outside_temp_f", "heating"} <= set(climate)
    tyres = s.ok("get_tyre_pressures", vehicle_id=v["vehicle_id"])
    assert len(tyres["tyres_psi"]) == 4
    assert tyres["low"] == [t for t, psi in tyres["tyres_psi"].items() if psi <= tyres["recommended_psi"] - 4]
    low = [x for x in fleet(s) if s.ok("get_tyre_pressures", vehicle_id=x["vehicle_id"])["low"]]
    assert low, "some vehicle has a low tyre"


# -- ignition and gears -------------------------------------------------------------------------------


def test_no_shifting_out_of_p_without_the_ignition_on(s):
    v = pick(s, parked_off, "parked and off")
    vid = v["vehicle_id"]
    text = s.fails("shift_gear", "ignition is off", vehicle_id=vid, gear="D")
    assert "turn the ignition on" in text
    s.ok("set_ignition", vehicle_id=vid, mode="accessory")
    s.fails("shift_gear", "ignition is accessory", vehicle_id=vid, gear="R")
    assert s.ok("shift_gear", vehicle_id=vid, gear="P")["gear"] == "P"  # the current gear: nothing to do
    start(s, vid)
    assert s.ok("shift_gear", vehicle_id=vid, gear="R")["gear"] == "R"
    assert s.ok("shift_gear", vehicle_id=vid, gear="D")["gear"] == "D"


def test_park_and_reverse_only_when_stopped(s):
    v = pick(s, moving, "moving in D")
    vid, speed = v["vehicle_id"], mph(v)
    text = s.fails("shift_gear", f"moving at {speed} mph", vehicle_id=vid, gear="P")
    assert "bring it to a stop" in text
    s.fails("shift_gear", "before shifting into R", vehicle_id=vid, gear="R")
    assert s.ok("shift_gear", vehicle_id=vid, gear="N")["gear"] == "N"  # neutral while rolling is allowed
    s.fails("set_speed", f"in N, coasting at {speed} mph; shift to D", vehicle_id=vid, speed_mph=30)
    s.ok("shift_gear", vehicle_id=vid, gear="D")
    assert s.ok("set_speed", vehicle_id=vid, speed_mph=0)["speed_mph"] == 0
    assert s.ok("shift_gear", vehicle_id=vid, gear="P")["gear"] == "P"


def test_coasting_in_neutral_keeps_the_rules_on_every_seed(served):
    """Real cars shift from D to N while rolling: the vehicle coasts, cruise control cannot hold a speed in
    N, and it can only be stopped or shifted back to D; P and R still need a stop."""
    for seed in range(20):
        s = served("vehicle", seed)
        rows = s.world.connection.execute("SELECT id, speed_mph FROM vehicles WHERE gear = 'D' AND speed_mph > 0 "
                                          "ORDER BY id").fetchall()
        for vid, speed in rows:
            coasting = s.ok("shift_gear", vehicle_id=vid, gear="N")
            assert (coasting["gear"], mph(coasting)) == ("N", speed)
            s.fails("set_speed", "coasting", vehicle_id=vid, speed_mph=min(int(speed) + 10, 85))
            s.fails("shift_gear", "bring it to a stop", vehicle_id=vid, gear="R")
            s.fails("shift_gear", "bring it to a stop", vehicle_id=vid, gear="P")
            assert mph(s.ok("shift_gear", vehicle_id=vid, gear="D")) == speed
            s.ok("shift_gear", vehicle_id=vid, gear="N")
            assert mph(s.ok("set_speed", vehicle_id=vid, speed_mph=0)) == 0


def test_leaving_reverse_needs_a_stop(s):
    v = pick(s, parked_off, "parked and off")
    vid = v["vehicle_id"]
    ready_to_drive(s, vid, "R")
    s.ok("set_speed", vehicle_id=vid, speed_mph=5)
    s.fails("shift_gear", "reversing at 5 mph", vehicle_id=vid, gear="D")
    s.fails("shift_gear", "before shifting out of R", vehicle_id=vid, gear="N")
    s.ok("set_speed", vehicle_id=vid, speed_mph=0)
    assert s.ok("shift_gear", vehicle_id=vid, gear="D")["gear"] == "D"


def test_accessory_dims_high_beams(s):
    v = pick(s, parked_off, "parked and off")
    vid = v["vehicle_id"]
    start(s, vid)
    s.ok("set_headlights", vehicle_id=vid, mode="high")
    s.ok("set_ignition", vehicle_id=vid, mode="accessory")
    assert status(s, vid)["headlights"] == "low"


def test_plugged_in_vehicle_stays_in_p(s):
    v = pick(s, lambda v: v.get("plugged_in"), "plugged in")
    vid = v["vehicle_id"]
    start(s, vid)
    s.fails("shift_gear", "unplug the charging cable", vehicle_id=vid, gear="D")


def test_ignition_off_or_accessory_only_in_p(s):
    v = pick(s, moving, "moving")
    vid = v["vehicle_id"]
    text = s.fails("set_ignition", "in gear D", vehicle_id=vid, mode="off")
    assert "shift to P" in text
    s.fails("set_ignition", "in gear D", vehicle_id=vid, mode="accessory")
    s.ok("set_speed", vehicle_id=vid, speed_mph=0)
    s.ok("shift_gear", vehicle_id=vid, gear="P")
    off = s.ok("set_ignition", vehicle_id=vid, mode="off")
    assert off["ignition"] == "off"
    after = status(s, vid)
    assert after["navigation"] is None and after["media_source"] == "off" and not after["climate_on"]


# -- brakes and starting -----------------------------------------------------------------------------


def test_the_engine_starts_only_with_the_brake_pressed(s):
    v = pick(s, lambda v: parked_off(v) and v["brake_pedal"] == "released", "parked, off, brake released")
    vid = v["vehicle_id"]
    text = s.fails("set_ignition", "will not start: the brake pedal is not pressed", vehicle_id=vid, mode="on")
    assert "press the brake pedal (set_brake_pedal) first" in text
    assert s.ok("set_ignition", vehicle_id=vid, mode="accessory")["ignition"] == "accessory"  # no brake needed
    s.fails("set_ignition", "brake pedal is not pressed", vehicle_id=vid, mode="on")
    pressed = s.ok("set_brake_pedal", vehicle_id=vid, pressed=True)
    assert pressed["brake_pedal"] == "pressed" and status(s, vid)["ignition"] == "accessory"
    assert s.ok("set_ignition", vehicle_id=vid, mode="on")["ignition"] == "on"
    s.ok("set_brake_pedal", vehicle_id=vid, pressed=False)
    assert s.ok("set_ignition", vehicle_id=vid, mode="on")["ignition"] == "on"  # already running: nothing to start
    assert s.repeat("set_brake_pedal", vehicle_id=vid, pressed=True)[1]["brake_pedal"] == "pressed"


def test_the_parking_brake_holds_until_released_with_the_engine_on_and_the_brake_pressed(s):
    v = pick(s, lambda v: parked_off(v) and v["parking_brake"] == "engaged" and v["brake_pedal"] == "released"
             and not v.get("plugged_in"), "parked, off, parking brake engaged")
    vid = v["vehicle_id"]
    text = s.fails("set_parking_brake", "but the brake pedal is not pressed and the ignition is off;", vehicle_id=vid,
                   engaged=False)
    assert "press the brake pedal (set_brake_pedal) and switch the ignition on first, then release it" in text
    s.ok("set_brake_pedal", vehicle_id=vid, pressed=True)
    s.fails("set_parking_brake", "but the ignition is off; switch the ignition on first", vehicle_id=vid,
            engaged=False)
    s.ok("set_ignition", vehicle_id=vid, mode="on")
    s.ok("shift_gear", vehicle_id=vid, gear="D")
    s.fails("set_speed", "parking brake is engaged; release it", vehicle_id=vid, speed_mph=25)
    s.ok("set_brake_pedal", vehicle_id=vid, pressed=False)
    s.fails("set_parking_brake", "but the brake pedal is not pressed; press the brake pedal", vehicle_id=vid,
            engaged=False)
    s.ok("set_brake_pedal", vehicle_id=vid, pressed=True)
    assert s.ok("set_parking_brake", vehicle_id=vid, engaged=False)["parking_brake"] == "released"
    driving = s.ok("set_speed", vehicle_id=vid, speed_mph=25)
    assert driving["speed_mph"] == 25
    after = status(s, vid)
    assert after["brake_pedal"] == "released" and after["parking_brake"] == "released"  # driving off lifts the foot
    s.fails("set_parking_brake", "moving at 25 mph; bring it to a stop", vehicle_id=vid, engaged=True)
    s.ok("set_speed", vehicle_id=vid, speed_mph=0)
    assert s.repeat("set_parking_brake", vehicle_id=vid, engaged=True)[1]["parking_brake"] == "engaged"


def test_braking_stops_a_moving_vehicle_and_ends_cruise_control(s):
    v = pick(s, lambda v: moving(v) and v["cruise_control"]["on"], "cruising")
    vid = v["vehicle_id"]
    braked = s.ok("set_brake_pedal", vehicle_id=vid, pressed=True)
    assert braked["speed_mph"] == 0 and braked["brake_pedal"] == "pressed" and braked["gear"] == "D"
    assert status(s, vid)["cruise_control"]["on"] is False
    other = pick(s, lambda v: moving(v) and v["vehicle_id"] != vid, "moving")
    stopped = s.ok("set_speed", vehicle_id=other["vehicle_id"], speed_mph=0)  # stopping holds the brake too
    assert stopped["speed_mph"] == 0 and status(s, other["vehicle_id"])["brake_pedal"] == "pressed"
    parked = pick(s, lambda v: parked_off(v) and v["brake_pedal"] == "released", "parked")
    s.same("set_speed", vehicle_id=parked["vehicle_id"], speed_mph=0)  # already stopped: nothing to brake


# -- cruise control -----------------------------------------------------------------------------------


def test_cruise_control_turns_on_only_while_driving_and_moves_in_steps(s):
    v = pick(s, parked_off, "parked and off")
    vid = v["vehicle_id"]
    text = s.fails("set_cruise_control", "stopped in P; cruise control turns on only while driving in D at 20 mph",
                   vehicle_id=vid, on=True)
    assert "drive first (set_speed)" in text
    s.fails("adjust_cruise_speed", "Cruise control is off", vehicle_id=vid, steps=1)
    ready_to_drive(s, vid)
    s.ok("set_speed", vehicle_id=vid, speed_mph=15)
    s.fails("set_cruise_control", "moving at 15 mph in D", vehicle_id=vid, on=True)
    s.ok("set_speed", vehicle_id=vid, speed_mph=45)
    on = s.ok("set_cruise_control", vehicle_id=vid, on=True)
    assert on["cruise_control"]["on"] is True and on["cruise_control"]["set_speed_mph"] == 45
    s.same("set_cruise_control", vehicle_id=vid, on=True)
    raised = s.ok("adjust_cruise_speed", vehicle_id=vid, steps=2)
    assert raised["cruise_control"]["set_speed_mph"] == 55 and raised["speed_mph"] == 55
    assert s.ok("adjust_cruise_speed", vehicle_id=vid, steps=-1)["speed_mph"] == 50
    text = s.fails("adjust_cruise_speed", "would set cruise control to 100 mph", vehicle_id=vid, steps=10)
    assert "it holds 20 mph to 85 mph" in text
    s.fails("adjust_cruise_speed", "would set cruise control to 15 mph", vehicle_id=vid, steps=-7)
    assert s.ok("set_speed", vehicle_id=vid, speed_mph=60)["speed_mph"] == 60  # the new set speed
    assert status(s, vid)["cruise_control"] == {"on": True, "set_speed_mph": 60, "following_distance":
                                                v["cruise_control"]["following_distance"],
                                                "following_gap_seconds": v["cruise_control"]["following_gap_seconds"]}
    s.ok("shift_gear", vehicle_id=vid, gear="N")  # coasting ends cruise control
    assert status(s, vid)["cruise_control"]["on"] is False
    s.ok("shift_gear", vehicle_id=vid, gear="D")
    s.ok("set_cruise_control", vehicle_id=vid, on=True)
    s.ok("set_speed", vehicle_id=vid, speed_mph=18)  # below cruise control's least speed
    assert status(s, vid)["cruise_control"]["on"] is False
    s.ok("set_speed", vehicle_id=vid, speed_mph=40)
    s.ok("set_cruise_control", vehicle_id=vid, on=True)
    off = s.ok("set_cruise_control", vehicle_id=vid, on=False)
    assert off["cruise_control"]["on"] is False and off["speed_mph"] == 40  # the driver keeps the speed


def test_cruise_steps_follow_the_display_units(s):
    v = pick(s, parked_off, "parked and off", units="metric")
    vid = v["vehicle_id"]
    ready_to_drive(s, vid)
    assert s.ok("set_speed", vehicle_id=vid, speed_mph=45)["speed_kmh"] == 72
    kmh = s.ok("set_cruise_control", vehicle_id=vid, on=True)["cruise_control"]["set_speed_kmh"]
    assert kmh == 72
    assert s.ok("adjust_cruise_speed", vehicle_id=vid, steps=2)["cruise_control"]["set_speed_kmh"] == kmh + 10
    assert s.ok("adjust_cruise_speed", vehicle_id=vid, steps=-3)["speed_kmh"] == kmh - 5
    assert s.ok("adjust_cruise_speed", vehicle_id=vid, steps=10)["speed_kmh"] == kmh + 45
    text = s.fails("adjust_cruise_speed", "it holds 32 km/h to 137 km/h", vehicle_id=vid, steps=5)
    assert "km/h" in text and "mph" not in text


def test_following_distance_is_a_setting_that_needs_power(s):
    v = pick(s, lambda v: v["ignition"] == "off" and v["cruise_control"]["following_distance"] != "long", "off")
    vid = v["vehicle_id"]
    s.fails("set_following_distance", "ignition is off", vehicle_id=vid, distance="long")
    s.ok("set_ignition", vehicle_id=vid, mode="accessory")
    first, again = s.repeat("set_following_distance", vehicle_id=vid, distance="long")
    assert first["cruise_control"]["following_distance"] == "long" == again["cruise_control"]["following_distance"]
    assert first["cruise_control"]["following_gap_seconds"] == 2.0 and first["cruise_control"]["on"] is False


# -- driving ------------------------------------------------------------------------------------------


def test_driving_needs_ignition_on_drive_gear_and_everything_closed(s):
    v = pick(s, parked_off, "parked and off")
    vid = v["vehicle_id"]
    s.fails("set_speed", "ignition is off", vehicle_id=vid, speed_mph=30)
    start(s, vid)
    s.fails("set_speed", "is in P; shift to D", vehicle_id=vid, speed_mph=30)
    s.ok("set_parking_brake", vehicle_id=vid, engaged=False)
    s.ok("shift_gear", vehicle_id=vid, gear="R")
    s.fails("set_speed", "reverse is limited to 10 mph", vehicle_id=vid, speed_mph=20)
    assert s.ok("set_speed", vehicle_id=vid, speed_mph=5)["speed_mph"] == 5
    s.ok("set_speed", vehicle_id=vid, speed_mph=0)
    s.ok("shift_gear", vehicle_id=vid, gear="D")
    s.fails("set_speed", "from 0 to 85", vehicle_id=vid, speed_mph=120)
    assert s.ok("set_speed", vehicle_id=vid, speed_mph=45)["speed_mph"] == 45
    assert s.ok("set_speed", vehicle_id=vid, speed_mph=0)["speed_mph"] == 0
    assert s.ok("set_speed", vehicle_id=vid, speed_mph=0)["speed_mph"] == 0  # stopping is always allowed


def test_no_driving_with_a_door_or_the_trunk_open(s):
    door = pick(s, lambda v: v["open_door"] and v["gear"] == "P" and not v.get("plugged_in"), "with a door open",
                units=None)
    vid = door["vehicle_id"]
    ready_to_drive(s, vid)
    s.fails("set_speed", f"{door['open_door']} door is open", vehicle_id=vid, speed_mph=20)
    trunk = pick(s, lambda v: v["trunk_open"] and not v["open_door"] and not v.get("plugged_in")
                 and not v.get("charge_port_open"), "with the trunk open")
    tid = trunk["vehicle_id"]
    ready_to_drive(s, tid)
    s.fails("set_speed", "trunk is open", vehicle_id=tid, speed_mph=20)
    s.ok("close_trunk", vehicle_id=tid)
    assert s.ok("set_speed", vehicle_id=tid, speed_mph=20)["speed_mph"] == 20


def test_no_driving_with_the_charge_port_open_or_nothing_left(s):
    port = pick(s, lambda v: v.get("charge_port_open") and not v["plugged_in"] and not v["open_door"]
                and not v["trunk_open"] and v["gear"] == "P", "with the charge port open, unplugged")
    vid = port["vehicle_id"]
    ready_to_drive(s, vid)
    s.fails("set_speed", "charge port is open", vehicle_id=vid, speed_mph=15)
    flat = pick(s, lambda v: miles(v) == 0, "run flat", units=None)
    fid = flat["vehicle_id"]
    ready_to_drive(s, fid)
    text = s.fails("set_speed", "is empty", vehicle_id=fid, speed_mph=15)
    assert ("battery" if flat["powertrain"] == "electric" else "fuel tank") in text


def test_trunk_refused_in_d_then_allowed_in_p(s):
    v = pick(s, lambda v: moving(v) and not v["trunk_open"], "moving")
    vid = v["vehicle_id"]
    text = s.fails("open_trunk", "is in gear D", vehicle_id=vid)
    assert "shift to P" in text
    s.ok("set_speed", vehicle_id=vid, speed_mph=0)
    s.fails("open_trunk", "only in P", vehicle_id=vid)  # stopped, but still in D
    s.ok("shift_gear", vehicle_id=vid, gear="P")
    assert s.ok("open_trunk", vehicle_id=vid)["trunk_open"] is True
    assert s.ok("close_trunk", vehicle_id=vid)["trunk_open"] is False


# -- doors --------------------------------------------------------------------------------------------


def test_locks(s):
    door = pick(s, lambda v: v["open_door"] and not v["locked"], "with a door open", units=None)
    text = s.fails("lock_doors", "door is open", vehicle_id=door["vehicle_id"])
    assert door["open_door"] in text
    shut = pick(s, lambda v: not v["open_door"] and not v["locked"], "unlocked with doors shut")
    assert s.ok("lock_doors", vehicle_id=shut["vehicle_id"])["locked"] is True
    driving = pick(s, moving, "moving")
    s.ok("lock_doors", vehicle_id=driving["vehicle_id"])
    s.fails("unlock_doors", "once it is stopped", vehicle_id=driving["vehicle_id"])
    locked = pick(s, lambda v: v["locked"] and mph(v) == 0, "locked")
    assert s.ok("unlock_doors", vehicle_id=locked["vehicle_id"])["locked"] is False


# -- comfort: climate, windows, lights, media, drive modes -----------------------------------------------


def test_climate_needs_accessory_or_on(s):
    v = pick(s, lambda v: v["ignition"] == "off", "off")
    vid = v["vehicle_id"]
    text = s.fails("set_cabin_temperature", "ignition is off", vehicle_id=vid, temperature_f=72)
    assert "accessory" in text
    s.fails("set_heating", "ignition is off", vehicle_id=vid, zone="driver_seat", level=2)
    s.fails("set_defrost", "ignition is off", vehicle_id=vid, zone="front", on=True)
    s.fails("set_fan_speed", "ignition is off", vehicle_id=vid, level=4)
    s.ok("set_ignition", vehicle_id=vid, mode="accessory")
    s.fails("set_cabin_temperature", "60 to 85", vehicle_id=vid, temperature_f=95)
    climate = s.ok("set_cabin_temperature", vehicle_id=vid, temperature_f=72)
    assert climate["climate_on"] and climate["target_temp_f"] == 72
    s.fails("set_fan_speed", "from 1 to 7", vehicle_id=vid, level=0)
    assert s.ok("set_fan_speed", vehicle_id=vid, level=6)["fan_speed"] == 6
    s.fails("set_heating", "0 (off) to 3", vehicle_id=vid, zone="passenger_seat", level=5)
    assert s.ok("set_heating", vehicle_id=vid, zone="rear_seats", level=2)["heating"]["rear_seats"] == 2
    assert s.ok("set_defrost", vehicle_id=vid, zone="rear", on=True)["defrost_rear"] is True
    off = s.ok("turn_off_climate", vehicle_id=vid)
    assert not off["climate_on"] and not off["defrost_rear"] and off["heating"]["rear_seats"] == 0
    assert off["fan_speed"] == 0


def test_heated_wheel_only_where_fitted(s):
    for v in fleet(s):
        heating = s.ok("get_climate", vehicle_id=v["vehicle_id"])["heating"]
        if heating["steering_wheel"] is None:
            s.fails("set_heating", "no heated steering wheel", vehicle_id=v["vehicle_id"],
                      zone="steering_wheel", level=1)
            return
    raise AssertionError("every vehicle has a heated wheel")


def test_turning_things_off_is_always_allowed(s):
    v = pick(s, lambda v: v["ignition"] == "off", "off")
    vid = v["vehicle_id"]
    s.ok("turn_off_climate", vehicle_id=vid)
    s.ok("set_defrost", vehicle_id=vid, zone="front", on=False)
    s.ok("set_heating", vehicle_id=vid, zone="driver_seat", level=0)
    assert s.ok("set_headlights", vehicle_id=vid, mode="off")["headlights"] == "off"
    assert s.ok("play_media", vehicle_id=vid, source="off")["media_source"] == "off"


def test_windows_lights_and_media_need_power(s):
    v = pick(s, lambda v: v["ignition"] == "off" and not v["paired_phone"], "off without a phone")
    vid = v["vehicle_id"]
    s.fails("set_windows", "ignition is off", vehicle_id=vid, position="open")
    s.fails("set_headlights", "ignition is off", vehicle_id=vid, mode="low")
    s.fails("play_media", "ignition is off", vehicle_id=vid, source="radio")
    s.ok("set_ignition", vehicle_id=vid, mode="accessory")
    assert s.ok("set_windows", vehicle_id=vid, position="vent")["windows"] == "vent"
    assert s.ok("set_headlights", vehicle_id=vid, mode="low")["headlights"] == "low"
    s.fails("set_headlights", "high beams need the ignition on", vehicle_id=vid, mode="high")
    s.fails("play_media", "no phone paired", vehicle_id=vid, source="bluetooth")
    s.fails("play_media", "must look like '98.1 FM'", vehicle_id=vid, source="radio", station="150.3 FM")
    s.fails("play_media", "only for source 'radio'", vehicle_id=vid, source="usb", station="98.1 FM")
    playing = s.ok("play_media", vehicle_id=vid, source="radio", station="101.3 fm")
    assert playing == {"vehicle_id": vid, "media_source": "radio", "radio_station": "101.3 FM", "paired_phone": None}
    start(s, vid)
    assert s.ok("set_headlights", vehicle_id=vid, mode="high")["headlights"] == "high"


def test_drive_mode_needs_ignition_on_and_an_offered_mode(s):
    v = pick(s, lambda v: v["ignition"] == "accessory", "in accessory")
    vid, other = v["vehicle_id"], v["drive_modes"][-1]
    text = s.fails("set_drive_mode", "ignition is accessory", vehicle_id=vid, mode=other)
    assert "turn the ignition on" in text
    s.fails("set_drive_mode", "it offers", vehicle_id=vid, mode="ludicrous")
    start(s, vid)
    assert s.ok("set_drive_mode", vehicle_id=vid, mode=other.upper())["drive_mode"] == other


# -- energy -------------------------------------------------------------------------------------------


def test_charge_port_gates(s):
    gas = pick(s, lambda v: v["powertrain"] == "gasoline", "gasoline")
    s.fails("open_charge_port", "has no charge port", vehicle_id=gas["vehicle_id"])
    driving = pick(s, lambda v: moving(v) and v["powertrain"] == "electric", "electric and moving")
    text = s.fails("open_charge_port", "is in gear D at", vehicle_id=driving["vehicle_id"])
    assert "only in P" in text
    plugged = pick(s, lambda v: v.get("plugged_in"), "plugged in")
    s.fails("close_charge_port", "unplug it", vehicle_id=plugged["vehicle_id"])
    shut = pick(s, lambda v: v["powertrain"] == "electric" and v["gear"] == "P" and not v["charge_port_open"],
                "electric with the port shut")
    assert s.ok("open_charge_port", vehicle_id=shut["vehicle_id"])["charge_port_open"] is True
    assert s.ok("close_charge_port", vehicle_id=shut["vehicle_id"])["charge_port_open"] is False


def test_charging_only_parked_and_plugged_in(s):
    gas = pick(s, lambda v: v["powertrain"] == "gasoline", "gasoline")
    s.fails("start_charging", "cannot charge", vehicle_id=gas["vehicle_id"])
    unplugged = pick(s, lambda v: v["powertrain"] == "electric" and v["gear"] == "P" and not v["plugged_in"],
                     "electric, parked, unplugged")
    s.fails("start_charging", "not plugged in", vehicle_id=unplugged["vehicle_id"])
    stopped = s.ok("stop_charging", vehicle_id=unplugged["vehicle_id"])  # not charging: nothing to stop
    assert stopped["charging"] is False and "was not charging" in stopped["note"]
    driving = pick(s, lambda v: moving(v) and v["powertrain"] == "electric", "electric and moving")
    s.fails("start_charging", "parked in P", vehicle_id=driving["vehicle_id"])
    ready = pick(s, lambda v: v.get("charging"), "charging")
    assert s.ok("stop_charging", vehicle_id=ready["vehicle_id"])["charging"] is False
    before = s.world.digest()
    assert "was not charging" in s.ok("stop_charging", vehicle_id=ready["vehicle_id"])["note"]  # a repeat
    assert s.world.digest() == before
    assert s.ok("start_charging", vehicle_id=ready["vehicle_id"])["charging"] is True
    assert s.ok("start_charging", vehicle_id=ready["vehicle_id"])["charging"] is True  # already charging
    full = pick(s, lambda v: v.get("plugged_in") and not v["charging"] and v["battery_percent"] >= v["charge_limit"],
                "plugged in at its limit")
    s.fails("start_charging", "raise the limit", vehicle_id=full["vehicle_id"])
    s.ok("set_charge_limit", vehicle_id=full["vehicle_id"], percent=100)
    if full["battery_percent"] < 100:
        assert s.ok("start_charging", vehicle_id=full["vehicle_id"])["charging"] is True


def test_charge_limit(s):
    charging = pick(s, lambda v: v.get("charging") and v["battery_percent"] >= 50, "charging, above half")
    vid = charging["vehicle_id"]
    s.fails("set_charge_limit", "from 50 to 100", vehicle_id=vid, percent=30)
    gas = pick(s, lambda v: v["powertrain"] == "gasoline", "gasoline")
    s.fails("set_charge_limit", "no charge limit", vehicle_id=gas["vehicle_id"], percent=80)
    low = charging["battery_percent"]
    stopped = s.ok("set_charge_limit", vehicle_id=vid, percent=low)
    assert stopped["charge_limit"] == low and stopped["charging"] is False  # reached the new limit


def test_refuelling_fills_at_most_the_tank_and_says_what_went_in(s):
    v = pick(s, lambda v: v["powertrain"] == "gasoline" and v["ignition"] == "off" and v["fuel_percent"] <= 60,
             "gasoline, off, tank not full")
    vid, tank = v["vehicle_id"], v["tank_gallons"]
    added = s.ok("refuel", vehicle_id=vid, amount=2, unit="gallons")
    assert added["added_gallons"] == 2.0 and added["tank_full"] is False
    assert added["fuel_gallons"] == round(v["fuel_gallons"] + 2, 1) and "note" not in added
    assert added["fuel_percent"] > v["fuel_percent"] and added["range_miles"] > v["range_miles"]
    room = round(tank - added["fuel_gallons"], 1)
    full = s.ok("refuel", vehicle_id=vid, amount=200, unit="litres")  # more than the tank holds
    assert full["tank_full"] is True and full["fuel_gallons"] == tank and full["fuel_percent"] == 100
    assert abs(full["added_gallons"] - room) <= 0.1 and "The tank filled up after" in full["note"]
    text = s.fails("refuel", "tank is already full", vehicle_id=vid)
    assert f"{tank:.1f} gallons" in text


def test_refuelling_needs_the_engine_off_and_a_fuel_tank(s):
    running = pick(s, lambda v: v["powertrain"] == "gasoline" and v["ignition"] == "on" and moving(v),
                   "gasoline, driving")
    text = s.fails("refuel", "ignition is on (gear D at", vehicle_id=running["vehicle_id"], amount=5)
    assert "switch the ignition off before refuelling" in text
    ev = pick(s, lambda v: v["powertrain"] == "electric", "electric")
    s.fails("refuel", "is electric and has no fuel tank; plug it in and start_charging", vehicle_id=ev["vehicle_id"])
    metric = pick(s, lambda v: v["powertrain"] == "gasoline" and v["ignition"] == "off" and v["fuel_percent"] < 90,
                  "gasoline, off", units="metric")
    filled = s.ok("refuel", vehicle_id=metric["vehicle_id"])  # no amount: fill it up, read out in litres
    assert filled["tank_full"] is True and filled["fuel_litres"] == filled["tank_litres"] == metric["tank_litres"]
    assert filled["added_litres"] == round(metric["tank_litres"] - metric["fuel_litres"], 1)
    assert "range_km" in filled and "added_gallons" not in filled


# -- display units ------------------------------------------------------------------------------------


def test_the_display_units_are_used_in_every_reading(s):
    v = pick(s, lambda v: v["powertrain"] == "gasoline" and v["ignition"] == "off" and v["range_miles"] >= 60,
             "gasoline, off")
    vid = v["vehicle_id"]
    s.fails("set_display_units", "ignition is off", vehicle_id=vid, units="metric")
    s.ok("set_ignition", vehicle_id=vid, mode="accessory")
    imperial = {"status": status(s, vid), "climate": s.ok("get_climate", vehicle_id=vid),
                "tyres": s.ok("get_tyre_pressures", vehicle_id=vid)}
    place = s.ok("search_places", city=v["location"]["city"], category="cafe")[0]
    route = s.ok("plan_route", vehicle_id=vid, place_id=place["place_id"])
    switched = s.repeat("set_display_units", vehicle_id=vid, units="metric")[0]
    assert switched["display_units"] == "metric" and switched["units"]["distance"] == "km"
    metric = status(s, vid)
    assert "speed_mph" not in metric and metric["speed_kmh"] == 0
    assert metric["odometer_km"] == round(v["odometer_miles"] * KM_PER_MILE)
    assert abs(metric["range_km"] - imperial["status"]["range_miles"] * KM_PER_MILE) <= 1
    assert abs(metric["fuel_litres"] - imperial["status"]["fuel_gallons"] * 3.785411784) <= 0.2
    assert abs(metric["tank_litres"] - v["tank_gallons"] * 3.785411784) <= 0.2
    climate = s.ok("get_climate", vehicle_id=vid)
    assert climate["outside_temp_c"] == round((imperial["climate"]["outside_temp_f"] - 32) * 5 / 9, 1)
    assert "outside_temp_f" not in climate and "target_temp_c" in climate and "inside_temp_c" in climate
    tyres = s.ok("get_tyre_pressures", vehicle_id=vid)
    assert tyres["recommended_kpa"] == round(imperial["tyres"]["recommended_psi"] * 6.894757)
    assert tyres["low"] == imperial["tyres"]["low"] and "tyres_psi" not in tyres
    km = s.ok("plan_route", vehicle_id=vid, place_id=place["place_id"])
    assert abs(km["distance_km"] - route["distance_miles"] * KM_PER_MILE) <= 0.1 and km["minutes"] == route["minutes"]
    nearby = s.ok("find_nearby_places", vehicle_id=vid, category="cafe", limit=1)[0]
    assert "distance_km" in nearby
    assert s.ok("set_display_units", vehicle_id=vid, units="imperial")["units"]["fuel"] == "gallons"
    assert {"speed_mph", "range_miles", "odometer_miles", "fuel_gallons"} <= set(status(s, vid))


# -- tyre service, nearby places and distances ---------------------------------------------------------


def test_nearest_tyre_shops_for_a_low_tyre(s):
    low = next((v, t) for v in fleet(s) if v["display_units"] == "imperial"
               and (t := s.ok("get_tyre_pressures", vehicle_id=v["vehicle_id"]))["low"])
    v, tyres = low
    for tyre in tyres["low"]:
        assert tyres["tyres_psi"][tyre] <= tyres["recommended_psi"] - 4
    shops = s.ok("find_nearby_places", vehicle_id=v["vehicle_id"], category="tyre_shop", limit=4)
    assert len(shops) == 4 and all(p["category"] == "tyre_shop" for p in shops)
    distances = [p["distance_miles"] for p in shops]
    assert distances == sorted(distances)
    every = s.ok("search_places", category="tyre_shop", limit=100)
    assert shops[0]["place_id"] in {p["place_id"] for p in every}
    assert all(s.ok("plan_route", vehicle_id=v["vehicle_id"], place_id=p["place_id"])["distance_miles"]
               >= distances[0] for p in every[:8])  # nothing closer than the first
    anything = s.ok("find_nearby_places", vehicle_id=v["vehicle_id"], limit=20)
    assert all(p["category"] != "residence" for p in anything)


def test_distance_between_two_places(s):
    v = pick(s, lambda v: True, "any")
    a = s.ok("search_places", query="San Diego Airport")[0]
    b = s.ok("search_places", city="San Francisco", category="cafe")[0]
    there = s.ok("get_distance", from_place_id=a["place_id"], to_place_id=b["place_id"])  # no car: in miles
    back = s.ok("get_distance", vehicle_id=v["vehicle_id"], from_place_id=b["place_id"], to_place_id=a["place_id"])
    assert there["distance_miles"] == back["distance_miles"] > 400 and there["minutes"] == back["minutes"] > 300
    assert there["from"]["name"] == a["name"] and there["to"]["city"] == "San Francisco"
    same = s.ok("get_distance", from_place_id=a["place_id"], to_place_id=a["place_id"])
    assert same["distance_miles"] == 0 and same["minutes"] == 0
    metric = pick(s, lambda v: True, "any", units="metric")
    km = s.ok("get_distance", vehicle_id=metric["vehicle_id"], from_place_id=a["place_id"], to_place_id=b["place_id"])
    assert abs(km["distance_km"] - there["distance_miles"] * KM_PER_MILE) <= 0.1


# -- navigation ---------------------------------------------------------------------------------------


def test_navigation_to_a_postal_code_or_a_street_address(s):
    v = pick(s, lambda v: v["ignition"] == "off" and v["range_miles"] >= 60, "off with range")
    vid, city = v["vehicle_id"], v["location"]["city"]
    cafe = s.ok("search_places", city=city, category="cafe")[0]
    code = cafe["postal_code"]
    assert cafe in s.ok("search_places", postal_code=code, limit=100)
    s.fails("navigate_to_address", "ignition is off", vehicle_id=vid, postal_code=code)
    s.ok("set_ignition", vehicle_id=vid, mode="accessory")
    s.fails("navigate_to_address", "No postal code '00000'", vehicle_id=vid, postal_code="00000")
    s.fails("navigate_to_address", "postal codes are five digits", vehicle_id=vid, postal_code="9411")
    s.fails("navigate_to_address", f"No address matching '1 Nowhere Lane' in postal code {code}", vehicle_id=vid,
            postal_code=code, street="1 Nowhere Lane")
    words = Counter(w for p in s.ok("search_places", postal_code=code, limit=100) for w in set(p["address"].split()))
    shared = next(w for w, n in sorted(words.items()) if n > 1 and not w[0].isdigit())
    text = s.fails("navigate_to_address", f"{shared!r} matches", vehicle_id=vid, postal_code=code, street=shared)
    assert "give the full street address" in text
    area = s.ok("navigate_to_address", vehicle_id=vid, postal_code=code)
    assert area["place_id"] is None and area["postal_code"] == code and area["destination"] == f"{code} ({city})"
    nav = status(s, vid)["navigation"]
    assert nav["postal_code"] == code and nav["place_id"] is None and nav["distance_miles"] == area["distance_miles"]
    street = s.ok("navigate_to_address", vehicle_id=vid, postal_code=code, street=cafe["address"].upper() + ",")
    assert street["place_id"] == cafe["place_id"] and street["destination"] == cafe["name"]
    by_place = s.ok("plan_route", vehicle_id=vid, place_id=cafe["place_id"])
    assert {k: street[k] for k in ("distance_miles", "minutes", "stops")} == \
        {k: by_place[k] for k in ("distance_miles", "minutes", "stops")}
    assert status(s, vid)["navigation"]["place_id"] == cafe["place_id"]
    s.same("navigate_to_address", vehicle_id=vid, postal_code=code, street=cafe["address"])
    cancelled = s.ok("cancel_navigation", vehicle_id=vid)
    assert cancelled["cancelled"]["destination"] == cafe["name"]
    s.ok("navigate_to_address", vehicle_id=vid, postal_code=code)
    s.ok("set_ignition", vehicle_id=vid, mode="off")  # switching off ends a route to a postal code too
    assert status(s, vid)["navigation"] is None




def test_search_places_without_a_criterion_lists_every_place_by_name(s):
    everywhere = s.ok("search_places", limit=100)
    assert s.ok("search_places", query="  ", city=" ", limit=100) == everywhere  # a blank criterion is none
    assert len(everywhere) == 100 and s.ok("search_places") == everywhere[:10]
    names = [(p["name"], p["place_id"]) for p in everywhere]
    assert names == sorted(names)
    cities = {p["city"] for p in everywhere}
    assert all(p in s.ok("search_places", city=p["city"], limit=100) for p in everywhere[:3]) and len(cities) > 1


def test_search_places_by_name_address_category_and_city(s):
    chargers = s.ok("search_places", category="charging_station", city="fresno")
    assert chargers and all(p["category"] == "charging_station" and p["city"] == "Fresno" for p in chargers)
    one = chargers[0]
    assert s.ok("search_places", query=one["name"].lower()) [0]["place_id"] == one["place_id"]
    assert one in s.ok("search_places", query=one["address"], city="Fresno")
    assert one in s.ok("search_places", query=one["address"].upper(), city="FRESNO")  # any case matches
    assert s.ok("search_places", query="no such place anywhere") == []


def _far_place(s) -> dict:
    return s.ok("search_places", query="San Diego Airport")[0]


def test_routes_add_charging_or_fuel_stops_when_the_range_is_short(s):
    vehicles = fleet(s)
    far = _far_place(s)
    vehicles = [v for v in vehicles if v["display_units"] == "imperial"]
    ev = next(v for v in vehicles if v["powertrain"] == "electric" and v["range_miles"] >= 80
              and v["location"]["city"] not in ("Los Angeles", "Pasadena", "Irvine", "San Diego"))
    route = s.ok("plan_route", vehicle_id=ev["vehicle_id"], place_id=far["place_id"])
    assert route["distance_miles"] > ev["range_miles"] and route["stops"]
    assert all(stop["kind"] == "charging_station" for stop in route["stops"])
    gas = next(v for v in vehicles if v["powertrain"] == "gasoline" and 60 <= v["range_miles"] < 300
               and v["location"]["city"] not in ("Los Angeles", "Pasadena", "Irvine", "San Diego"))
    fuel = s.ok("plan_route", vehicle_id=gas["vehicle_id"], place_id=far["place_id"])
    assert fuel["stops"] and all(stop["kind"] == "fuel_station" for stop in fuel["stops"])
    near = s.ok("search_places", city=ev["location"]["city"], category="cafe")[0]
    short = s.ok("plan_route", vehicle_id=ev["vehicle_id"], place_id=near["place_id"])
    assert short["stops"] == [] and short["distance_miles"] < 20 and short["minutes"] >= 1


def test_route_out_of_reach_names_the_range(s):
    empty = pick(s, lambda v: v["range_miles"] <= 15 and v["powertrain"] == "electric"
                 and v["location"]["city"] not in ("Los Angeles", "Pasadena", "Irvine", "San Diego"), "nearly empty")
    text = s.fails("plan_route", "miles of range", vehicle_id=empty["vehicle_id"],
                     place_id=_far_place(s)["place_id"])
    assert "charge first" in text


def test_navigation_needs_power_and_can_be_cancelled(s):
    v = pick(s, lambda v: v["ignition"] == "off" and v["range_miles"] >= 60, "off with range")
    vid = v["vehicle_id"]
    place = s.ok("search_places", city=v["location"]["city"], category="grocery")[0]
    s.fails("start_navigation", "ignition is off", vehicle_id=vid, place_id=place["place_id"])
    s.fails("cancel_navigation", "no active route", vehicle_id=vid)
    s.ok("set_ignition", vehicle_id=vid, mode="accessory")
    route = s.ok("start_navigation", vehicle_id=vid, place_id=place["place_id"])
    assert status(s, vid)["navigation"]["place_id"] == place["place_id"] == route["place_id"]
    cancelled = s.ok("cancel_navigation", vehicle_id=vid)
    assert cancelled["cancelled"]["destination"] == place["name"] and status(s, vid)["navigation"] is None


def test_saved_places(s):
    owners = s.ok("find_owners", limit=100)
    owner = next(o for o in owners if len(s.ok("list_saved_places", owner_id=o["owner_id"])) >= 2)
    oid = owner["owner_id"]
    saved = s.ok("list_saved_places", owner_id=oid)
    assert [x["label"] for x in saved] == sorted(x["label"] for x in saved)
    place = next(p for p in s.ok("search_places", category="hotel", limit=50)
                 if p["place_id"] not in {x["place_id"] for x in saved})
    s.fails("save_place", "already has a saved place labelled", owner_id=oid, place_id=place["place_id"],
              label=saved[0]["label"].upper())
    s.fails("save_place", "is already saved as", owner_id=oid, place_id=saved[0]["place_id"], label="Elsewhere")
    s.fails("save_place", "1 to 40 characters", owner_id=oid, place_id=place["place_id"], label="  ")
    new = s.ok("save_place", owner_id=oid, place_id=place["place_id"], label=" Beach hotel ")
    assert new["label"] == "Beach hotel" and new in s.ok("list_saved_places", owner_id=oid)
    gone = s.ok("delete_saved_place", saved_place_id=new["saved_place_id"])
    assert gone == {"saved_place_id": new["saved_place_id"], "label": "Beach hotel", "deleted": True}
    s.fails("delete_saved_place", "not found", saved_place_id=new["saved_place_id"])


def test_saved_places_are_capped(s):
    owner = s.ok("find_owners", limit=100)[0]
    oid = owner["owner_id"]
    held = len(s.ok("list_saved_places", owner_id=oid))
    taken = {x["place_id"] for x in s.ok("list_saved_places", owner_id=oid)}
    places = [p for p in s.ok("search_places", category="restaurant", limit=100) if p["place_id"] not in taken]
    for i, p in enumerate(places[:15 - held]):
        s.ok("save_place", owner_id=oid, place_id=p["place_id"], label=f"Spot {i}")
    s.fails("save_place", "15 saved places", owner_id=oid, place_id=places[15 - held]["place_id"],
              label="One more")


def test_invariants_hold_after_a_trip(s):
    v = pick(s, parked_off, "parked and off")
    vid = v["vehicle_id"]
    for tool, args in (("unlock_doors", {}), ("set_brake_pedal", {"pressed": True}), ("set_ignition", {"mode": "on"}),
                       ("shift_gear", {"gear": "D"}), ("set_parking_brake", {"engaged": False}),
                       ("set_speed", {"speed_mph": 65}), ("set_cruise_control", {"on": True}),
                       ("adjust_cruise_speed", {"steps": 1}), ("set_speed", {"speed_mph": 0}),
                       ("shift_gear", {"gear": "P"}), ("set_parking_brake", {"engaged": True}), ("open_trunk", {}),
                       ("close_trunk", {}),
                       ("set_ignition", {"mode": "off"}), ("lock_doors", {})):
        s.ok(tool, vehicle_id=vid, **args)
    toolkit = get_toolkit("vehicle")
    with s.world.transaction(write=False):
        assert toolkit(s.world).invariants() == []


# -- outcomes, not paths: what the reward's success flag judges ------------------------------------------


def _call(tool: str, /, **arguments) -> dict:
    return {"name": tool, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play):
    from prove_env.task import Task

    battery = Task(id="battery", server="vehicle", seed=0,
                   user_turns=["This is Martin Spence. How much battery does my Mach-E have, and what's its range?"],
                   gold=[[{"id": "g1", "name": "find_owners", "arguments": {"name": "Martin Spence"}},
                          {"id": "g2", "name": "list_vehicles", "arguments": {"owner_id": "OWN-0004"},
                           "depends_on": ["g1"]},
                          {"id": "g3", "name": "get_vehicle_status", "arguments": {"vehicle_id": "VEH-0004"},
                           "depends_on": ["g2"]}]],
                   facts=[[26, 121]])  # the Mach-E's display is metric: 121 km of range
    # another correct path: the vehicle list already carries the battery and range, the owner found by surname
    other = play(battery, [_call("find_owners", name="spence"), _call("list_vehicles", owner_id="OWN-0004"),
                           "Your Mach-E is at 26% with 121 km of range."])
    assert other["success"] and other["reward_breakdown"]["coverage"] < 1
    assert not play(battery, [_call("get_vehicle_status", vehicle_id="VEH-0004"), "About a quarter."])["success"]
    # the right answer, then a change nobody asked for: the charge limit lowered
    damage = play(battery, [_call("get_vehicle_status", vehicle_id="VEH-0004"),
                            _call("set_charge_limit", vehicle_id="VEH-0004", percent=80), "26% and 121 km."])
    assert not damage["success"]

    save = Task(id="save", server="vehicle", seed=0,
                user_turns=["I'm Wayne Hunter. Save San Diego Airport to my places as 'Flights'."],
                gold=[[{"id": "g1", "name": "find_owners", "arguments": {"name": "Wayne Hunter"}},
                       {"id": "g2", "name": "search_places", "arguments": {"query": "San Diego Airport"}},
                       {"id": "g3", "name": "save_place", "depends_on": ["g1", "g2"],
                        "arguments": {"owner_id": "OWN-0001", "place_id": "PLC-0311", "label": "Flights"}}]])
    # a note the owner did not ask for is a detail, not damage
    noted = play(save, [_call("save_place", owner_id="OWN-0001", place_id="PLC-0311", label="Flights",
                              note="Terminal 2 parking"), "Saved as Flights."])
    assert noted["success"]
    wrong = play(save, [_call("save_place", owner_id="OWN-0001", place_id="PLC-0311", label="Airport"), "Saved."])
    assert not wrong["success"]


def test_same_seed_same_world(served):
    a, b = served("vehicle", seed=3), served("vehicle", seed=3)
    assert a.world.digest() == b.world.digest()
    assert json.dumps(a.ok("find_owners", limit=5)) == json.dumps(b.ok("find_owners", limit=5))


def test_a_place_is_named_with_its_city_said_once(s):
    """Finding: "Distance and time to Tesla Supercharger San Diego in San Diego?" said the city twice.
    A place whose name holds its city is said by name alone; any other by name and city."""
    from prove_env.servers.vehicle.synth import SEARCH_CITIES, place_words

    named = 0
    for city in SEARCH_CITIES:
        for place in s.ok("search_places", city=city, limit=100):
            words = place_words(place)
            assert words.count(place["city"]) == 1 and place["name"] in words, words
            named += place["city"] in place["name"]
    assert named > 5


def test_the_recommended_tyre_pressure_is_a_fact_only_where_it_is_asked():
    """Finding: "What pressure is each tyre at?" also required the recommended pressure, which it
    never asked for. The recommended pressure is a fact only of wordings that ask what the tyres
    should be, in every wording of the request."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("vehicle"), get_recipe("vehicle")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    rng = random.Random("vehicle tyre asks")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    goal = next(g for g in recipe.goals if g.tool == "get_tyre_pressures")
    asked = {True: 0, False: 0}
    for _ in range(60):
        ask = goal.build(rng.choice(bundles), rng)
        result = json.loads(tools.run("get_tyre_pressures", dict(ask.args)))
        recommended = len(ask.facts(result)) == 5
        asked[recommended] += 1
        for words in (" ".join(filter(None, (ask.say, ask.detail))), ask.terse):
            assert recommended == ("should be" in words or "recommended" in words), words
    world.close()
    assert asked[True] > 5 and asked[False] > 5


def test_a_standing_cars_speed_is_said_as_people_say_it():
    """A speed of 0 was stated only by '0 mph': "it's in park and not moving" failed. A standing
    car's speed is a fact that 'not moving' or 'stationary' states too."""
    from prove_env.facts import stated
    from prove_env.servers.vehicle.synth import _speed

    assert stated(_speed({"speed_mph": 0}), "It's off, in park and not moving.")
    assert stated(_speed({"speed_kmh": 0}), "Speed: 0 km/h.")
    assert not stated(_speed({"speed_mph": 35}), "It's not moving.")



def test_an_owner_is_found_by_email_and_the_car_is_named_as_an_answer_to_which_one():
    """Findings: "Find me under the address <email>" called an email an address, and "switch the
    climate in the car off. The one I'm asking about is my 330i." answered a question nobody asked.
    The sentence that names the car, said after 'my car', fits a request that is not a question."""
    import random

    from prove_env.servers.vehicle.synth import _BY_EMAIL
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    assert not [say for say in _BY_EMAIL if "address" in say]
    toolkit, recipe = get_toolkit("vehicle"), get_recipe("vehicle")
    world = worlds.create(toolkit, 0)
    rng = random.Random("vehicle which asks")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    details = 0
    for goal in recipe.goals:
        for _ in range(30):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is not None and ask.detail and ("my car" in ask.say or "the car" in ask.say):
                details += 1
                assert "asking about" not in ask.detail, ask.detail
    assert details > 5


def test_saved_places_may_be_answered_by_their_labels_or_their_names():
    """'Which places have I saved?' is answered by the labels ('Mom's place') or by the places'
    names ('Modesto Botanical Garden'); a home named for its owner goes by its label."""
    import random

    from prove_env.facts import facts_stated
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("vehicle"), get_recipe("vehicle")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    rng = random.Random("vehicle saved asks")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    goal = next(g for g in recipe.goals if g.tool == "list_saved_places")
    checked = 0
    for b in bundles:
        ask = goal.build(b, rng)
        if ask is None:
            continue
        result = json.loads(tools.run("list_saved_places", dict(ask.args)))[:5]
        own = b["owner"]["name"]
        by_label = "; ".join(s["label"] for s in result)
        by_name = "; ".join(s["label"] if own in s["name"] else s["name"] for s in result)
        assert facts_stated([ask.facts(result)], [f"You saved {by_label}."]), by_label
        assert facts_stated([ask.facts(result)], [f"You saved {by_name}."]), by_name
        checked += any(s["name"] != s["label"] and own not in s["name"] for s in result)
    world.close()
    assert checked > 5


def test_a_car_the_conversation_already_named_is_not_named_again_as_an_afterthought():
    """'Close the car's trunk. My EV6, that is.' after a turn about the EV6 corrects a reference
    nobody found unclear: a car already named is named in the request itself."""
    import re

    from prove_env.synthesis.pipeline import synthesize

    # a later turn says 'my car ... It's my X.' only where the conversation named no car yet (after
    # another car, the request names its own outright)
    result = synthesize(["vehicle"], 120, seed=67, workers=1)
    afterthought = re.compile(r"(?:I mean|That's|It's) (?:my |the )?([^.]+)\.|(?:^|\. )(?:My |The )?([^.]+), that is\.")
    checked = 0
    for task in result.tasks("train") + result.tasks("test"):
        for i, turn in enumerate(task.user_turns[1:], start=1):
            if not re.search(r"\b(?:my|the) car\b", turn):
                continue
            earlier = " ".join(task.user_turns[:i])
            for m in afterthought.finditer(turn):
                named = (m[1] or m[2]).strip()
                checked += 1
                assert named not in earlier, (task.id, turn)
    assert checked, "no request said 'my car' with the car named after it"


def test_a_place_is_searched_by_its_name_alone_where_that_finds_it():
    """Finding: "Save Pasadena Airport as 'Flights'." searched search_places(query=..., city="Pasadena"),
    though the user said no city apart from the name and the name alone finds the one place: an agent
    searching by the name lost the call. The city is passed only where the name (or the street
    address) needs it, and the search always finds the place alone."""
    import random

    from prove_env.servers.vehicle.synth import _place_args, _place_ref
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("vehicle"), get_recipe("vehicle")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    bundles = recipe.sample(Reader(toolkit, world), world.now, random.Random("vehicle place searches"))
    places = {p["place_id"]: p for b in bundles for p in b["nearby"] + b["far"]}
    alone = {"name": 0, "address": 0}
    for place in places.values():
        for by in ("name", "address"):
            args = _place_args(_place_ref(place, by))
            found = json.loads(tools.run("search_places", dict(args)))
            assert [p["place_id"] for p in found] == [place["place_id"]], (by, args)
            by_itself = json.loads(tools.run("search_places", {"query": place[by]}))
            assert ("city" not in args) == (len(by_itself) == 1), (by, args)
            alone[by] += "city" not in args
    world.close()
    assert alone["name"] > 5 and alone["address"] > 5, alone


def test_a_car_left_unnamed_is_my_car_not_the_car():
    """Finding: "I want to change the charge limit on my Model Y. ... After that, can you read me the
    tire pressures of the car, and what they should be? It's my 330i." 'The car' points back at the
    car just named; a request that leaves its car to an afterthought says 'my car'."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("vehicle"), get_recipe("vehicle")
    world = worlds.create(toolkit, 0)
    rng = random.Random("vehicle which car")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    afterthoughts = ("I mean ", "That's ", "It's ")
    checked = 0
    for goal in recipe.goals:
        for _ in range(30):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None or not ask.detail or not ask.plain:
                continue
            if not (ask.detail.startswith(afterthoughts) or ask.detail.endswith(", that is.")):
                continue
            checked += 1
            assert "my car" in ask.say, (ask.say, ask.detail)
    assert checked > 10


def test_no_request_is_left_to_a_fleet_census_the_shown_tools_add_up():
    """Finding: "Give me a count of every vehicle in the system by ignition state and gear." was an
    abstention (only the hidden fleet_census counts), yet find_owners with no name lists every owner and
    list_vehicles shows each car's ignition and gear: an agent that adds them up answers it and scores 0.
    Every count of the census is such a sum, so no hidden-tool request asks for one."""
    from prove_env.synthesis.recipe import get_recipe
    from prove_env.world import worlds

    toolkit = get_toolkit("vehicle")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    added_up = Counter()
    for owner in json.loads(tools.run("find_owners", {"limit": 100})):
        for v in json.loads(tools.run("list_vehicles", {"owner_id": owner["owner_id"]})):
            added_up[f"{v['ignition']}/{v['gear']}"] += 1
    census = json.loads(tools.run("fleet_census", {}))
    world.close()
    assert dict(added_up) == census
    assert not [h for h in get_recipe("vehicle").hidden if h.tool == "fleet_census"]


def test_a_message_says_please_once():
    """Finding: "Find me under the email ..., please. Turn on the climate in my Civic, please. Set it to
    69, please." and "Set a new speed for my Mazda CX-5, please. 40 miles per hour, please." The
    sentence with the value does not repeat the request's 'please', and no self-introduction says it."""
    import random

    from prove_env.servers.vehicle.synth import _BY_EMAIL, _BY_EMAIL_TERSE, _BY_NAME, _BY_NAME_TERSE
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    assert not [intro for intro in _BY_EMAIL + _BY_EMAIL_TERSE + _BY_NAME + _BY_NAME_TERSE if "please" in intro.lower()]
    toolkit, recipe = get_toolkit("vehicle"), get_recipe("vehicle")
    world = worlds.create(toolkit, 0)
    rng = random.Random("vehicle please once")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    checked = 0
    for goal in recipe.goals:
        for _ in range(30):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None or not ask.detail or "please" not in ask.say.lower():
                continue
            checked += 1
            assert "please" not in f"{ask.say} {ask.detail}".lower().replace("please", "", 1), (ask.say, ask.detail)
    assert checked > 20


def test_an_afterthought_points_back_at_what_the_request_named():
    """Finding: "Start navigation in the white R1S. It's 84409 Thompson Mission, 94574." ('It's' reads
    first as where the car is) and "Keep the gray Leaf on the brake pedal for me; press it down." An
    address said as "It's ..." follows a request that named an address, and the brake pedal is pressed
    in the car, the car is not on it."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("vehicle"), get_recipe("vehicle")
    world = worlds.create(toolkit, 0)
    rng = random.Random("vehicle afterthought")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    addresses = brakes = 0
    for goal in recipe.goals:
        if goal.tool not in ("navigate_to_address", "set_brake_pedal"):
            continue
        for _ in range(200):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            if goal.tool == "set_brake_pedal":
                brakes += 1
                assert "on the brake pedal" not in ask.say, ask.say
            elif ask.detail and "postal_code" in ask.args:
                addresses += 1
                assert not ask.detail.startswith("It's ") or "address" in ask.say, (ask.say, ask.detail)
    assert brakes > 50 and addresses > 20


def test_an_electric_cars_units_are_said_without_fuel():
    """Finding: "I'd like my R1S's display in other units. Make it metric: kilometres, litres and
    Celsius." An electric car has no fuel to show in litres or gallons; its units are said without them,
    and a gasoline car's still name its fuel unit."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("vehicle"), get_recipe("vehicle")
    world = worlds.create(toolkit, 0)
    rng = random.Random("vehicle units words")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    goal = next(g for g in recipe.goals if g.tool == "set_display_units")
    seen = Counter()
    for _ in range(400):
        bundle = rng.choice(bundles)
        ask = goal.build(bundle, rng)
        if ask is None:
            continue
        car = next(v for v in bundle["vehicles"] if v["vehicle_id"] == ask.args["vehicle_id"])
        words = f"{ask.say} {ask.detail or ''}"
        if "Celsius" not in words and "Fahrenheit" not in words:
            continue
        seen[car["powertrain"]] += 1
        fuel = "litres" in words or "gallons" in words
        assert fuel == (car["powertrain"] != "electric"), (car["vehicle"], words)
    assert seen["electric"] > 5 and seen["gasoline"] > 5, seen


def test_a_terse_temperature_and_a_take_me_request_say_what_is_asked():
    """Findings: "thx. 72°F in my Toyota Camry." (terse, no verb) reads first as a report of the cabin's
    temperature, and "For my Jeep, please take me to 074 Lee Fords Apt. 263" is not how a driver asks. A terse
    temperature request names what it sets, and a 'take me to' request is said in the car."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("vehicle"), get_recipe("vehicle")
    world = worlds.create(toolkit, 0)
    rng = random.Random("vehicle temperature and take-me words")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    goals = {g.tool: g for g in recipe.goals}
    seen = Counter()
    for _ in range(300):
        ask = goals["set_cabin_temperature"].build(rng.choice(bundles), rng)
        if ask is None:
            continue
        seen["temperature"] += 1
        assert "cabin to " in ask.terse.lower() and "°F in " not in ask.terse, ask.terse
    for _ in range(400):
        ask = goals["navigate_to_address"].build(rng.choice(bundles), rng)
        if ask is None or "take me" not in ask.say:
            continue
        seen["take me"] += 1
        assert not ask.say.startswith("For "), ask.say
    assert seen["temperature"] > 20 and seen["take me"] > 10, seen


def test_an_empty_tank_is_a_fact_the_list_of_cars_shows_too():
    """Finding: "how much range does the blue Outback have and what's the fuel at?" of an Outback at 0%
    and 0 km kept a get_vehicle_status the owner's list of cars had answered (a model answering from the
    list lost coverage): facts of only zeros are never taken as shown earlier. An empty level is said as
    people say it ('the tank is empty'), so the fact is not only a zero, and it reads the same off the
    list's entry for the car as off the status."""
    import random

    from prove_env.facts import stated, values
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("vehicle"), get_recipe("vehicle")
    world = worlds.create(toolkit, 0)
    rng = random.Random("vehicle empty tank")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    goal = next(g for g in recipe.goals if g.tool == "get_vehicle_status")
    asks = []
    for _ in range(300):
        bundle = rng.choice(bundles)
        ask = goal.build(bundle, rng)
        if ask is not None and ask.facts is not None and "range" in ask.say and (
                "fuel" in ask.say or "battery" in ask.say) and "odometer" not in ask.say:
            asks.append(ask)
    assert asks
    listed = {"vehicle_id": "VEH-0036", "fuel_percent": 0, "range_km": 0, "battery_percent": 0}
    status = {**listed, "odometer_km": 22920, "brake_pedal": "released"}
    for ask in asks:
        facts = ask.facts(status)
        assert any(v not in (0, None, "") for f in facts for v in values(f)), (ask.say, facts)
        assert ask.facts(listed) == facts
        assert stated(facts[0], "The tank is empty, so it has 0 km of range.")
        assert stated(facts[0], "It's at 0%, with 0 km of range.")
    full = asks[0].facts({"fuel_percent": 55, "battery_percent": 55, "range_km": 300})
    assert full[0] == 55 and not stated(full[0], "The tank is empty.")


def _bundles_and_goals(seed: str):
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("vehicle"), get_recipe("vehicle")
    world = worlds.create(toolkit, 0)
    rng = random.Random(seed)
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    return bundles, {g.tool: g for g in recipe.goals}, rng


def test_a_car_is_named_by_its_colour_only_among_the_owners_others_and_cruise_control_once():
    """Findings: an owner of one car said "my Ioniq 5" and then "the silver Ioniq 5" (as if there were a
    second one), and "turn on cruise control in the silver Ioniq 5 and take the cruise control up 10 km/h"
    said "cruise control" twice in one sentence."""
    bundles, goals, rng = _bundles_and_goals("vehicle car names")
    from servers.vehicle.synth import _forms

    single = [b for b in bundles if len(b["vehicles"]) == 1]
    several = [b for b in bundles if len(b["vehicles"]) > 1]
    assert single and several
    for b in single:
        v = b["vehicles"][0]
        assert not any(v["color"] in form for form in _forms(b, v)), _forms(b, v)
    assert all(any(f"the {v['color']} " in form for form in _forms(b, v)) for b in several for v in b["vehicles"])
    turned_on = 0
    for _ in range(400):
        ask = goals["adjust_cruise_speed"].build(rng.choice(bundles), rng)
        if ask is None:
            continue
        for text in (f"{ask.say} {ask.detail or ''}", ask.terse):
            assert text.lower().count("cruise control") <= 1, text
        turned_on += bool(ask.prior)
    assert turned_on > 10


def test_a_drive_time_request_asks_for_the_distance_it_requires():
    """Finding: "How long a drive is it from where my Mustang Mach-E is now?" asks for the time, but the
    facts required the distance too (answering "about 9 minutes" failed)."""
    bundles, goals, rng = _bundles_and_goals("vehicle drive time")
    result = {"distance_miles": 4.1, "minutes": 9, "stops": []}
    seen = 0
    for _ in range(400):
        ask = goals["plan_route"].build(rng.choice(bundles), rng)
        if ask is None:
            continue
        facts = ask.facts(result)
        if any(isinstance(f, dict) and f.get("unit") == "mi" for f in facts):
            text = f"{ask.say} {ask.detail or ''}".lower()
            assert any(w in text for w in ("how far", "distance", "miles", "km")), text
            seen += 1
    assert seen > 20


def test_one_car_owners_say_my_car_and_places_are_asked_for_where_there_are_several():
    """Findings: "Hi, I'm Deanna Hawkins; my cars are connected to your service." from an owner of one car;
    "Can you find me a park? In Fresno." right after a route to Fresno Botanical Garden, the one park
    there (the search asked for the place just named)."""
    from prove_env.synthesis.recipe import get_recipe
    from prove_env.synthesis.recipe import Ref

    bundles, goals, rng = _bundles_and_goals("vehicle intros")
    recipe = get_recipe("vehicle")
    intros = [lk.intro for lk in recipe.lookups if lk.kind == "owner"]
    single = [b for b in bundles if len(b["vehicles"]) == 1]
    assert single
    for b in bundles:
        ref = Ref.of("owner", b["owner"])
        for intro in intros:
            for text in intro(ref):
                assert ("my cars" in text.lower()) <= (len(b["vehicles"]) > 1), text
    assert any("my car is" in t.lower() for b in single for intro in intros for t in intro(Ref.of("owner", b["owner"])))
    asked = 0
    for _ in range(300):
        b = rng.choice(bundles)
        ask = goals["search_places"].build(b, rng)
        if ask is None:
            continue
        found = [p for p in b["cities"][ask.args["city"]] if p["category"] == ask.args["category"]]
        assert len(found) > 1, ask.args
        asked += 1
    assert asked > 50


def test_a_cruise_speed_detail_and_a_held_back_destination_read_naturally():
    """Findings: "Turn on cruise control in my Rivian and change its speed. Bump the cruise speed up one
    step." (the detail named the cruise speed again) and "I'm going somewhere from Lake Tahoe High School.
    How many miles is it, and the drive time?" (the destination held back with "going somewhere")."""
    bundles, goals, rng = _bundles_and_goals("vehicle cruise detail")
    details = 0
    for _ in range(400):
        ask = goals["adjust_cruise_speed"].build(rng.choice(bundles), rng)
        if ask is None or ask.detail is None:
            continue
        assert "cruise" in ask.say.lower(), ask.say
        assert "cruise" not in ask.detail.lower(), (ask.say, ask.detail)
        assert " it " in f" {ask.detail.lower()} ", ask.detail
        details += 1
    assert details >= 10
    held = 0
    for _ in range(400):
        ask = goals["get_distance"].build(rng.choice(bundles), rng)
        if ask is None or ask.detail is None:
            continue
        assert "somewhere" not in ask.say, ask.say
        held += 1
    assert held >= 10


def test_brake_gear_and_ignition_states_are_facts_a_driver_would_say():
    """Finding: "Can you check the brakes on my car: the parking brake and the pedal?" recorded the raw
    words ['engaged', 'released'], so "The parking brake is on and the pedal isn't pressed" (right) was
    scored a failure; the ignition-gear-speed request likewise failed "It's off, in park"."""
    from prove_env.facts import stated

    bundles, goals, rng = _bundles_and_goals("vehicle brake words")
    brakes, running = [], []
    for _ in range(400):
        ask = goals["get_vehicle_status"].build(rng.choice(bundles), rng)
        if ask is None or ask.facts is None:
            continue
        if "brake" in ask.say.lower() and "pedal" in ask.say.lower():
            brakes.append(ask)
        elif "gear" in ask.say.lower():
            running.append(ask)
    assert brakes and running
    status = {"parking_brake": "engaged", "brake_pedal": "released", "ignition": "off", "gear": "P",
              "speed_mph": 0, "display_units": "imperial"}
    for ask in brakes:
        engaged, released = ask.facts(status)
        for said in ("The parking brake is on.", "The parking brake is set.", "Parking brake: engaged."):
            assert stated(engaged, said), (said, engaged)
        assert not stated(engaged, "The parking brake is off.")
        for said in ("The pedal isn't pressed.", "The brake pedal is released.", "The pedal is not pressed."):
            assert stated(released, said), (said, released)
        assert not stated(released, "The pedal is pressed down.")
        off, pressed = ask.facts({**status, "parking_brake": "released", "brake_pedal": "pressed"})
        assert stated(off, "The parking brake is off.") and not stated(off, "The parking brake is on.")
        assert stated(pressed, "The brake pedal is pressed.")
    for ask in running:
        ignition, gear, _ = ask.facts(status)
        assert stated(ignition, "The ignition is off.") and not stated(ignition, "It's running.")
        assert stated(gear, "It's in park.") and stated(gear, "Gear: P") and not stated(gear, "It's in drive.")
        _, drive, _ = ask.facts({**status, "ignition": "on", "gear": "D", "speed_mph": 40})
        assert stated(drive, "It's in drive.") and not stated(drive, "It's in park.")


def test_a_saved_home_is_gone_home_to_not_gone_to_home():
    """Finding: "I'll be driving from my saved place 'Kids' school'. How many miles is it, and the drive time?
    I'm going to home." (a saved Home place is said as the bare word "home", and the destination sentence put
    "to" before it). Every wording of the route, navigation and distance requests that names home says it as
    one goes home."""
    import re

    bundles, goals, rng = _bundles_and_goals("vehicle going home")
    homeward = 0
    for _ in range(600):
        tool = rng.choice(["plan_route", "start_navigation", "get_distance"])
        ask = goals[tool].build(rng.choice(bundles), rng)
        if ask is None:
            continue
        for text in (ask.say, ask.terse, ask.detail, ask.plain, ask.terse_alone):
            if text and "home" in text:
                assert not re.search(r"\b(going|get|take me|make it|I mean) to home\b|^To home\.", text,
                                     re.IGNORECASE), (tool, text)
                homeward += bool(re.search(r"\b(going|get|take me|make it) home\b", text, re.IGNORECASE))
    assert homeward


def test_a_request_in_a_car_asks_with_the_car_first_and_a_question_mark():
    """Finding: "Could you, in my Model 3, set the seat heating for the rear seats to low." and "Could you, in my
    Tesla Model 3, play the radio." (the car wedged between "Could you" and its verb, a question ending in a
    period); "Plan a long drive for my 330i for me"; "Put my Mustang Mach-E in accessory mode and turn on a
    defroster.". The question form names the car first and ends the question with a question mark."""
    import re

    bundles, goals, rng = _bundles_and_goals("vehicle could you")
    tools = ["set_fan_speed", "set_heating", "set_defrost", "set_windows", "set_headlights", "set_drive_mode",
             "play_media", "plan_route"]
    asked = 0
    for _ in range(800):
        tool = rng.choice(tools)
        ask = goals[tool].build(rng.choice(bundles), rng)
        if ask is None:
            continue
        for text in (ask.say, ask.terse, ask.detail, ask.plain, ask.terse_alone):
            if not text:
                continue
            assert not re.search(r"\b[Cc]ould you, in\b|\bfor my [^:]+ for me\b|\bturn on a defroster\b", text), \
                (tool, text)
            for question in re.findall(r"\b[Cc]ould you .*?[.?!](?=\s|$)", text):
                assert question.endswith("?"), (tool, text)
            asked += text.startswith("In ") and ", could you " in text
    assert asked


def test_a_climate_or_heater_already_on_is_changed_not_turned_on():
    """Finding: "Turn on the climate in my R1S, please." then "71 degrees." of an R1S whose climate already ran,
    held at 70 degrees (the request reads as if it were off). A running climate is asked for another
    temperature, and a seat heater already on is turned up or down, never "turned on"."""
    import re

    bundles, goals, rng = _bundles_and_goals("vehicle climate already on")
    turned_on = re.compile(r"\bturn (?:on )?the climate(?: on)?\b|\bclimate going\b|\bturn on the hea|\bwarm up\b|"
                           r"\bheat the steering wheel on\b", re.IGNORECASE)
    running = heated = 0
    for _ in range(1500):
        tool = rng.choice(["set_cabin_temperature", "set_heating"])
        b = rng.choice(bundles)
        ask = goals[tool].build(b, rng)
        if ask is None:
            continue
        v = next(x for x in b["vehicles"] if x["vehicle_id"] == ask.args["vehicle_id"])
        if tool == "set_cabin_temperature":
            if not v["climate"]["climate_on"]:
                continue
            running += 1
        else:
            if not v["climate"]["heating"][ask.args["zone"]]:
                continue
            heated += 1
        for text in (ask.say, ask.terse, ask.detail, ask.plain):
            assert not (text and turned_on.search(text)), (tool, text, v["climate"])
    assert running > 20 and heated > 5


def test_a_distance_that_rounds_to_nothing_is_also_said_in_words(play):
    """Finding: "Where's the closest grocery store to my Camry right now, and how far away is it?" of a Camry
    parked at the Costco (0.0 miles): "Costco Wholesale ... it's right where your Camry is" failed, as the
    distance was stated only by "0.0 miles". A distance that rounds to nothing is said in words too, in every
    request that asks how far; a distance that is not nothing is not."""
    from prove_env.facts import facts_stated, stated
    from prove_env.task import Task

    bundles, goals, rng = _bundles_and_goals("vehicle distance of nothing")
    here = "Costco Wholesale at 78065 Heather Terrace; it's right where your Camry is, about a minute away."
    asked = 0
    for tool in ("find_nearby_places", "plan_route", "get_distance"):
        for _ in range(300):
            ask = goals[tool].build(rng.choice(bundles), rng)
            if ask is None or ask.facts is None:
                continue
            one = {"name": "Costco Wholesale", "distance_miles": 0.0, "minutes": 1, "stops": []}
            result = [one] if tool == "find_nearby_places" else one
            assert facts_stated([ask.facts(result)], [here]), (tool, ask.say)
            assert facts_stated([ask.facts(result)], ["Costco Wholesale: 0.0 miles, 1 minute."]), (tool, ask.say)
            far = {**one, "distance_miles": 5.4}
            assert not any(stated(f, here) for f in ask.facts([far] if tool == "find_nearby_places" else far)
                           if isinstance(f, dict) and f.get("unit") == "mi")
            asked += 1
            break
    assert asked == 3
    # played through the environment: Ryan Hernandez's Model 3 stands at the Costco in Pasadena (seed 0)
    ask = next(a for a in iter(lambda: goals["find_nearby_places"].build(rng.choice(bundles), rng), 0)
               if a is not None and a.args.get("category") != "tyre_shop")
    nearest = [{"name": "Costco Wholesale", "distance_miles": 0.0, "minutes": 1}]
    task = Task(id="nearby-here", server="vehicle", seed=0,
                user_turns=["I'm Ryan Hernandez. Where's the closest grocery store to my Model 3 right now, and how "
                            "far away is it?"],
                gold=[[{"id": "g1", "name": "find_owners", "arguments": {"name": "Ryan Hernandez"}},
                       {"id": "g2", "name": "list_vehicles", "arguments": {"owner_id": "OWN-0019"},
                        "depends_on": ["g1"]},
                       {"id": "g3", "name": "find_nearby_places", "depends_on": ["g2"],
                        "arguments": {"vehicle_id": "VEH-0029", "category": "grocery"}}]],
                facts=[ask.facts(nearest)])
    gold = [_call(c["name"], **c["arguments"]) for c in task.model_dump()["gold"][0]]
    for answer in ("The closest is Costco Wholesale at 6379 Lopez Route; your Model 3 is right there, about a "
                   "minute away.", "Costco Wholesale, 0.0 miles away."):
        info = play(task, gold + [answer])
        assert info["success"] and info["reward_breakdown"]["total"] == pytest.approx(1.3), (answer, info)


def test_the_tyre_light_and_the_air_pump_are_said_only_of_a_car_they_fit():
    """Findings: "The tyre light came on in my car. What pressure is each tyre at?" of a Bolt EV whose tyres all
    read 37 or 38 psi (none low), the request telling a warning the car did not show; and, once that was
    fixed, "I'm at the air pump with my car." of the same Bolt EV driving at 45 mph."""
    bundles, goals, rng = _bundles_and_goals("vehicle tyre light")
    lit = unlit = pump = moving = 0
    for _ in range(1500):
        b = rng.choice(bundles)
        ask = goals["get_tyre_pressures"].build(b, rng)
        if ask is None:
            continue
        v = next(x for x in b["vehicles"] if x["vehicle_id"] == ask.args["vehicle_id"])
        said = " ".join(t for t in (ask.say, ask.terse, ask.detail, ask.plain) if t)
        if "light came on" in said or "warning" in said:
            assert v["low_tyres"], (said, v["vehicle_id"])
            lit += 1
        elif not v["low_tyres"]:
            unlit += 1
        if "pump" in said:
            assert v["mph"] == 0, (said, v["vehicle_id"], v["mph"])
            pump += 1
        elif v["mph"]:
            moving += 1
    assert lit > 5 and unlit > 20 and pump > 20 and moving > 5


def test_the_car_list_is_not_asked_for_as_what_the_introduction_just_told():
    """Finding: "Hi, I'm Timothy Medina; my car is connected to your service. Could you tell me which of my cars
    are connected to the app?" (an owner of one car, who had just said his car is connected). No request for the
    owner's cars asks which are connected, the very thing an introduction may have told."""
    from prove_env.synthesis.recipe import Ref, get_recipe

    bundles, goals, rng = _bundles_and_goals("vehicle car list")
    intros = [lk.intro for lk in get_recipe("vehicle").lookups if lk.kind == "owner"]
    told = [b for b in bundles if any("connected" in t for intro in intros
                                      for t in intro(Ref.of("owner", b["owner"])))]
    assert told
    asked = 0
    for _ in range(300):
        b = rng.choice(told)
        ask = goals["list_vehicles"].build(b, rng)
        if ask is None:
            continue
        for intro in intros:
            for hello in intro(Ref.of("owner", b["owner"])):
                for text in (ask.say, ask.terse, ask.detail, ask.plain):
                    if text:
                        said = f"{hello} {text}".lower()
                        assert said.count("connected") <= 1, said
        asked += 1
    assert asked > 100


def test_the_outside_reading_is_asked_for_as_a_temperature():
    """Finding: "How warm is it inside my Jeep right now, and what's it like outside?" asked for the outside
    temperature (the fact) in words that read as a question about the weather, which no tool reports. Every
    request for the inside and outside readings names the outside one as a temperature ('warm', 'cold',
    'temperature')."""
    bundles, goals, rng = _bundles_and_goals("vehicle outside temperature")
    asked = 0
    for _ in range(300):
        ask = goals["get_climate"].build(rng.choice(bundles), rng)
        if ask is None or "outside" not in ask.say:
            continue
        for text in (ask.say, ask.terse, ask.plain):
            if text:
                assert "like outside" not in text, text
                assert any(w in text.lower() for w in ("warm", "cold", "temperature")), text
        asked += 1
    assert asked > 20
