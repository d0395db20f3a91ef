"""The seed: 40 owners across California with one to three vehicles each, 20 cities of places to drive to
(businesses, charging and fuel stations, tyre shops, homes) in their postal code areas, and the places owners
saved.

Vehicles are caught in every state a car can be in: parked and off (most of them), someone sitting inside in
accessory mode with a foot on the brake or not, warming up in P, parked with the parking brake on or off, driving
in D with or without a route or cruise control, plugged in and charging at home, with a door left ajar, the trunk
open, a low tyre, a nearly empty battery or tank, a display set to metric units.

What came after the first version of this world (postal codes, tyre shops, brakes, cruise control, tanks and
display units) is drawn after everything else, so every earlier value of a seed stays what it was.
"""

from __future__ import annotations

import math
import random

from prove_env.world import SeedContext

from .models import Owner, Place, PostalCode, SavedPlace, Vehicle

N_OWNERS = 40

# (city, latitude, longitude)
CITIES = (
    ("San Francisco", 37.7749, -122.4194), ("Oakland", 37.8044, -122.2712), ("San Jose", 37.3382, -121.8863),
    ("Palo Alto", 37.4419, -122.1430), ("Berkeley", 37.8716, -122.2727), ("Santa Cruz", 36.9741, -122.0308),
    ("Monterey", 36.6002, -121.8947), ("Sacramento", 38.5816, -121.4944), ("Napa", 38.2975, -122.2869),
    ("Stockton", 37.9577, -121.2908), ("Modesto", 37.6391, -120.9969), ("Fresno", 36.7378, -119.7871),
    ("Lake Tahoe", 38.9399, -119.9772), ("Bakersfield", 35.3733, -119.0187),
    ("San Luis Obispo", 35.2828, -120.6596), ("Santa Barbara", 34.4208, -119.6982),
    ("Los Angeles", 34.0522, -118.2437), ("Pasadena", 34.1478, -118.1445), ("Irvine", 33.6846, -117.8265),
    ("San Diego", 32.7157, -117.1611),
)
HOME_CITIES = CITIES[:10] + CITIES[16:]
CITY_NAMES = frozenset(city for city, _, _ in CITIES)
HIGHWAY_STOPS = (("Kettleman City", 35.9908, -119.9618), ("Gilroy", 37.0058, -121.5683),
                 ("Santa Nella", 37.0977, -121.0158), ("Buttonwillow", 35.4005, -119.4696),
                 ("Lebec", 34.8416, -118.8648), ("Tracy", 37.7397, -121.4252),
                 ("Placerville", 38.7296, -120.7985), ("Paso Robles", 35.6266, -120.6910))

# category -> name patterns; '{city}' is the place's city, '{last}' a surname
BUSINESSES = {
    "cafe": ("Blue Bottle Coffee", "Peet's Coffee", "{last}'s Coffee House", "Philz Coffee", "The Daily Grind"),
    "restaurant": ("{last}'s Diner", "Golden Dragon", "Trattoria {last}", "In-N-Out Burger", "The Olive Branch",
                   "Taqueria El Sol", "Sakura Sushi"),
    "grocery": ("Whole Foods Market", "Trader Joe's", "Safeway", "Costco Wholesale"),
    "shopping": ("Target", "Best Buy", "Home Depot", "{city} Mall", "REI"),
    "hospital": ("{city} General Hospital", "Kaiser Permanente {city}", "Sutter Health {city}"),
    "park": ("{city} Botanical Garden", "{last} Park", "{city} Lakeside Park"),
    "hotel": ("Marriott {city}", "Hilton Garden Inn {city}", "The {last} Inn"),
    "gym": ("24 Hour Fitness", "Planet Fitness", "{city} Climbing Gym"),
    "school": ("{city} High School", "{last} Elementary School", "{city} Community College"),
    "airport": ("{city} Airport",),
}
CHARGERS = ("Tesla Supercharger", "Electrify America", "ChargePoint", "EVgo")
FUEL = ("Shell", "Chevron", "Arco", "76", "Valero")
TYRE_SHOPS = ("Discount Tire", "Les Schwab Tire Center", "Big O Tires", "Firestone Complete Auto Care",
              "Goodyear Auto Service", "America's Tire")
# the first postal code of each city and highway stop; a city's areas number up from it
POSTAL_BASES = {
    "San Francisco": "94102", "Oakland": "94601", "San Jose": "95110", "Palo Alto": "94301", "Berkeley": "94702",
    "Santa Cruz": "95060", "Monterey": "93940", "Sacramento": "95814", "Napa": "94558", "Stockton": "95202",
    "Modesto": "95350", "Fresno": "93701", "Lake Tahoe": "96150", "Bakersfield": "93301",
    "San Luis Obispo": "93401", "Santa Barbara": "93101", "Los Angeles": "90012", "Pasadena": "91101",
    "Irvine": "92602", "San Diego": "92101", "Kettleman City": "93239", "Gilroy": "95020", "Santa Nella": "95322",
    "Buttonwillow": "93206", "Lebec": "93243", "Tracy": "95376", "Placerville": "95667", "Paso Robles": "93446",
}
BIG_CITIES = ("San Francisco", "Oakland", "San Jose", "Sacramento", "Fresno", "Los Angeles", "San Diego")
# fuel tank capacity in litres, by model
TANKS = {"Camry": 60.0, "Civic": 47.0, "F-150": 87.0, "Outback": 70.0, "CX-5": 56.0, "Wrangler": 81.0, "330i": 59.0}

# (make, model, powertrain, full range in miles, recommended tyre psi, drive modes)
MODELS = (
    ("Tesla", "Model 3", "electric", 330, 42, "chill,standard,sport"),
    ("Tesla", "Model Y", "electric", 300, 42, "chill,standard,sport"),
    ("Chevrolet", "Bolt EV", "electric", 250, 38, "normal,sport"),
    ("Ford", "Mustang Mach-E", "electric", 290, 40, "whisper,engage,unbridled"),
    ("Hyundai", "Ioniq 5", "electric", 270, 39, "eco,normal,sport,snow"),
    ("Kia", "EV6", "electric", 280, 39, "eco,normal,sport,snow"),
    ("Nissan", "Leaf", "electric", 150, 36, "normal,eco"),
    ("Rivian", "R1S", "electric", 310, 48, "all-purpose,conserve,sport,snow,off-road"),
    ("Toyota", "Camry", "gasoline", 560, 35, "eco,normal,sport"),
    ("Honda", "Civic", "gasoline", 480, 32, "econ,normal,sport"),
    ("Ford", "F-150", "gasoline", 650, 35, "normal,eco,sport,tow,snow"),
    ("Subaru", "Outback", "gasoline", 520, 35, "intelligent,sport,snow"),
    ("Mazda", "CX-5", "gasoline", 440, 36, "normal,sport"),
    ("Jeep", "Wrangler", "gasoline", 390, 37, "normal,off-road"),
    ("BMW", "330i", "gasoline", 450, 35, "eco pro,comfort,sport"),
)
FIRST_YEAR = {"Mustang Mach-E": 2021, "Ioniq 5": 2022, "EV6": 2022, "R1S": 2022, "Model Y": 2020}
COLORS = ("white", "black", "silver", "gray", "blue", "red", "green")
NICKNAMES = ("Blue Thunder", "Daisy", "the Beast", "Rocket", "Betsy", "Ghost", "Sparky", "Moby")
PHONES = ("iPhone", "Pixel 8", "Galaxy S24", "iPhone 15")
STATIONS = ("88.5 FM", "91.7 FM", "94.9 FM", "98.1 FM", "101.3 FM", "103.7 FM", "106.1 FM", "740 AM", "1070 AM")
# saved-place label -> the categories of place it may name
LABELS = {"Work": ("shopping", "hospital", "school", "hotel"), "Gym": ("gym",), "Coffee": ("cafe",),
          "Groceries": ("grocery",), "Doctor": ("hospital",), "Kids' school": ("school",),
          "Favorite diner": ("restaurant",), "Mom's place": ("residence",)}


Areas = dict[str, list[PostalCode]]


def seed(ctx: SeedContext) -> None:
    rng = ctx.rng
    areas = _postal_areas(ctx)
    places: dict[str, list[Place]] = {}
    names_taken: set[tuple[str, str]] = set()
    for city, lat, lon in CITIES:
        here: list[Place] = []
        for category, patterns in BUSINESSES.items():
            for pattern in rng.sample(patterns, min(len(patterns), rng.choice([1, 1, 2]))):
                name = pattern.format(city=city, last=ctx.fake.last_name())
                if (name, city) in names_taken:
                    continue
                names_taken.add((name, city))
                here.append(_place(ctx, areas, name, category, city, lat, lon))
        for brand in rng.sample(CHARGERS, rng.choice([1, 2])):
            here.append(_place(ctx, areas, f"{brand} {city}", "charging_station", city, lat, lon))
        for brand in rng.sample(FUEL, rng.choice([1, 2])):
            here.append(_place(ctx, areas, f"{brand} {city}", "fuel_station", city, lat, lon))
        places[city] = here
    # highway stops between the big cities, so long routes have somewhere to charge or fill up
    for (name, lat, lon) in HIGHWAY_STOPS:
        places[name] = [_place(ctx, areas, f"Tesla Supercharger {name}", "charging_station", name, lat, lon,
                               spread=0.01),
                        _place(ctx, areas, f"Chevron {name}", "fuel_station", name, lat, lon, spread=0.01)]
    fleet: list[Vehicle] = []
    for _ in range(N_OWNERS):
        _owner(ctx, areas, places, fleet)
    # the parked car with the least left has run flat: it cannot be driven until charged or filled up
    parked = [v for v in fleet if v.ignition == "off" and not v.plugged_in]
    if parked:
        min(parked, key=lambda v: (v.energy_percent, v.id)).energy_percent = 0
    for city, lat, lon in CITIES:
        for brand in rng.sample(TYRE_SHOPS, rng.choice([1, 1, 2])):
            places[city].append(_place(ctx, areas, f"{brand} {city}", "tyre_shop", city, lat, lon))
    for vehicle in fleet:
        _controls(ctx, vehicle)


def _postal_areas(ctx: SeedContext) -> Areas:
    """Each city's postal code areas around its centre (a highway stop has one), drawn from a generator of
    their own so that the world's other draws stay as they were."""
    rng = random.Random(f"vehicle postal codes {ctx.world.seed}")
    areas: Areas = {}
    for city, lat, lon in CITIES + HIGHWAY_STOPS:
        base = int(POSTAL_BASES[city])
        count = rng.randint(4, 6) if city in BIG_CITIES else rng.randint(2, 3) if city in CITY_NAMES else 1
        spread = 0.05 if count > 1 else 0.0
        areas[city] = []
        for offset in sorted(rng.sample(range(20), count)) if count > 1 else [0]:
            area = PostalCode(code=f"{base + offset:05d}", city=city, lat=round(lat + rng.uniform(-spread, spread), 5),
                              lon=round(lon + rng.uniform(-spread, spread) * 1.2, 5))
            ctx.add(area)
            areas[city].append(area)
    return areas


def _controls(ctx: SeedContext, v: Vehicle) -> None:
    """The brakes, cruise control, tank and display of a vehicle whose state is already drawn."""
    rng = ctx.rng
    stopped = v.speed_mph == 0
    v.display_units = "metric" if rng.random() < 0.2 else "imperial"
    v.parking_brake = stopped and rng.random() < (0.85 if v.powertrain == "electric" else 0.55)
    v.brake_pressed = stopped and v.ignition != "off" and rng.random() < 0.3
    v.cruise_on = not stopped and v.speed_mph >= 45 and rng.random() < 0.5
    v.following_distance = rng.choice(["short", "medium", "medium", "long"])
    if v.powertrain == "gasoline":
        v.tank_litres = TANKS[v.model]
        v.fuel_litres = round(v.tank_litres * v.energy_percent / 100, 1)


def _place(ctx: SeedContext, areas: Areas, name: str, category: str, city: str, lat: float, lon: float,
           spread: float = 0.06) -> Place:
    place = Place(id=ctx.new_id("PLC"), name=name, category=category, address=ctx.fake.street_address(), city=city,
                  lat=round(lat + ctx.rng.uniform(-spread, spread), 5),
                  lon=round(lon + ctx.rng.uniform(-spread, spread) * 1.2, 5))
    # in the postal code area of its city whose centre is nearest
    place.postal_code = min(areas[city], key=lambda a: ((a.lat - place.lat) ** 2 + (a.lon - place.lon) ** 2,
                                                        a.code)).code
    ctx.add(place)
    return place


def _owner(ctx: SeedContext, areas: Areas, places: dict[str, list[Place]], fleet: list[Vehicle]) -> None:
    rng = ctx.rng
    first, last = ctx.person_name()
    city, lat, lon = rng.choice(HOME_CITIES)
    owner = Owner(id=ctx.new_id("OWN"), name=f"{first} {last}",
                  email=f"{first.lower()}.{last.lower()}{rng.randint(1, 99)}@{rng.choice(['gmail.com', 'icloud.com', 'outlook.com', 'yahoo.com'])}",
                  phone=ctx.fake.numerify("(%##) %##-####"), city=city)
    ctx.add(owner)
    home = _place(ctx, areas, f"{first} {last}'s home", "residence", city, lat, lon, spread=0.04)
    count = rng.choices([1, 2, 3], weights=[5, 4, 1])[0]
    models = rng.sample(MODELS, count)
    nicknames = rng.sample(NICKNAMES, count)  # an owner never gives two cars the same nickname
    for spec, nickname in zip(models, nicknames):
        fleet.append(_vehicle(ctx, owner, spec, home, places, nickname if rng.random() < 0.3 else None))
    # saved places: usually Home, sometimes nothing at all
    if rng.random() < 0.1:
        return
    ctx.add(SavedPlace(id=ctx.new_id("SAV"), owner_id=owner.id, place_id=home.id, label="Home", note=None,
                       saved_at=ctx.moment(-900, -30)))
    far = [p for c, ps in places.items() if c != city for p in ps if p.category in ("hotel", "park", "airport")]
    used = {home.id}
    for label in rng.sample(sorted(LABELS), rng.randint(0, 4)):
        if label == "Mom's place":
            place = _place(ctx, areas, f"{ctx.fake.street_address()}", "residence", city, lat, lon, spread=0.05)
            place.name = place.address
        else:
            fits = [p for p in places[city] if p.category in LABELS[label] and p.id not in used]
            if not fits:
                continue
            place = rng.choice(fits)
        ctx.add(SavedPlace(id=ctx.new_id("SAV"), owner_id=owner.id, place_id=place.id, label=label,
                           note=rng.choice([None, None, "Park in the back", "Entrance on the side street"]),
                           saved_at=ctx.moment(-700, -2)))
        used.add(place.id)
    if rng.random() < 0.4:
        place = rng.choice(far)
        ctx.add(SavedPlace(id=ctx.new_id("SAV"), owner_id=owner.id, place_id=place.id,
                           label=rng.choice(["Weekend getaway", "Cabin trip", "Vacation spot"]), note=None,
                           saved_at=ctx.moment(-400, -2)))


def _vehicle(ctx: SeedContext, owner: Owner, spec: tuple, home: Place, places: dict[str, list[Place]],
             nickname: str | None) -> Vehicle:
    rng = ctx.rng
    make, model, powertrain, full_range, psi, modes = spec
    electric = powertrain == "electric"
    state = rng.choices(["off", "accessory", "warming", "driving"], weights=[55, 15, 12, 18])[0]
    ignition = {"off": "off", "accessory": "accessory", "warming": "on", "driving": "on"}[state]
    driving = state == "driving"
    at_home = not driving and rng.random() < 0.6
    where = home if at_home else rng.choice([p for p in places[home.city] if p.category != "residence"])
    lat, lon = (where.lat, where.lon) if not driving else (round(where.lat + rng.uniform(-0.03, 0.03), 5),
                                                             round(where.lon + rng.uniform(-0.03, 0.03), 5))
    energy = rng.choice([rng.randint(55, 95), rng.randint(30, 80), rng.randint(8, 30), rng.randint(3, 9)])
    plugged = electric and at_home and state == "off" and rng.random() < 0.7
    limit = rng.choice([80, 80, 85, 90, 100]) if electric else 100
    roll = rng.random()
    if plugged and roll < 0.3:  # finished: charged up to its limit
        energy = limit
    charging = plugged and energy < limit and roll < 0.75
    cold = rng.random() < 0.35
    outside = rng.randint(28, 48) if cold else rng.randint(55, 95)
    climate = ignition != "off" and rng.random() < 0.6
    parked = not driving
    sport_modes = modes.split(",")
    vehicle = Vehicle(
        id=ctx.new_id("VEH"), owner_id=owner.id, make=make, model=model, year=rng.randint(FIRST_YEAR.get(model, 2017), 2025),
        color=rng.choice(COLORS), nickname=nickname,
        plate=f"{rng.randint(5, 9)}{''.join(rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ') for _ in range(3))}{rng.randint(100, 999)}",
        powertrain=powertrain, ignition=ignition, gear="D" if driving else "P",
        speed_mph=rng.choice([25, 35, 45, 55, 65, 70]) if driving else 0,
        odometer_miles=rng.randint(800, 96000),
        locked=parked and state == "off" and rng.random() < 0.75,
        open_door=rng.choice(["driver", "passenger", "rear left", "rear right"])
        if parked and rng.random() < 0.12 else None,
        trunk_open=parked and rng.random() < 0.1,
        windows="closed" if driving or rng.random() < 0.8 else rng.choice(["vent", "open"]),
        headlights="auto" if driving or rng.random() < 0.5 else "off",
        climate_on=climate, target_temp_f=rng.choice([68, 70, 71, 72, 74]), fan_speed=3,
        inside_temp_f=outside + rng.randint(-3, 12) if not climate else rng.randint(64, 75),
        outside_temp_f=outside,
        driver_seat_heat=rng.choice([1, 2, 3]) if climate and cold else 0,
        passenger_seat_heat=rng.choice([0, 2]) if climate and cold else 0,
        rear_seat_heat=0, wheel_heat=0, has_heated_wheel=rng.random() < 0.6,
        defrost_front=climate and cold and rng.random() < 0.4, defrost_rear=False,
        energy_percent=min(energy, limit) if electric else energy,
        full_range_miles=full_range,
        charge_port_open=plugged or (electric and parked and rng.random() < 0.15),
        plugged_in=plugged, charging=charging, charge_limit=limit,
        tyre_front_left=_psi(rng, psi), tyre_front_right=_psi(rng, psi), tyre_rear_left=_psi(rng, psi),
        tyre_rear_right=_psi(rng, psi), tyre_recommended=psi,
        drive_mode=sport_modes[0], drive_modes=modes,
        media_source=rng.choice(["radio", "bluetooth", "off"]) if ignition != "off" else "off",
        radio_station=rng.choice(STATIONS), paired_phone=rng.choice([None] + list(PHONES)),
        city=home.city, lat=lat, lon=lon,
    )
    if vehicle.media_source == "bluetooth" and vehicle.paired_phone is None:
        vehicle.media_source = "radio"
    if vehicle.open_door:  # a car with a door ajar does not lock
        vehicle.locked = False
    ctx.add(vehicle)
    if driving and rng.random() < 0.5:
        target = rng.choice([p for p in places[home.city] if p.category not in ("charging_station", "fuel_station")])
        distance = round(_miles(lat, lon, target.lat, target.lon) * 1.25, 1)
        vehicle.nav_place_id, vehicle.nav_distance_miles = target.id, distance
        vehicle.nav_minutes, vehicle.nav_stops = max(1, round(distance / 28 * 60)), None
        vehicle.nav_started_at = ctx.moment(-0.05, -0.01, step_minutes=1)
    return vehicle


def _psi(rng, recommended: int) -> float:
    if rng.random() < 0.08:
        return float(recommended - rng.randint(6, 12))
    return float(recommended + rng.choice([-2, -1, -1, 0, 0, 0, 1]))


def _miles(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in miles."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 3958.8 * 2 * math.asin(math.sqrt(a))

