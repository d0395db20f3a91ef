"""The seed: four small cities, each a street grid of about sixty intersections with a few blocks
missing, a pedestrian mall closed to cars and (in three of them) two bus lines; a few hundred
street addresses along the streets, points of interest at those addresses with category, rating,
price level and opening hours (some open all day, some past midnight, some closed one weekday,
a few permanently closed), and people with saved places and lists (some empty)."""

from __future__ import annotations

import math

from prove_env.world import SeedContext

from .models import Address, City, ListEntry, Node, Place, PlaceList, SavedPlace, Segment, User

METERS_PER_DEGREE = 111_320.0
ROWS, COLS = 7, 9
CITIES = (("Riverton", "Oregon", 45.5231, -122.6765, True), ("Oak Harbor", "Washington", 48.2932, -122.6432, True),
          ("Millbrook", "New York", 41.7851, -73.6943, False), ("Cedar Falls", "Iowa", 42.5349, -92.4453, True))
ROW_STREETS = ("Harbor Boulevard", "Maple Street", "Oak Street", "Market Street", "Cedar Street", "Elm Street",
               "Willow Street", "Birch Street", "Chestnut Street", "Pine Street", "Spruce Street")
COL_STREETS = ("1st Avenue", "2nd Avenue", "3rd Avenue", "4th Avenue", "5th Avenue", "6th Avenue", "7th Avenue",
               "Lincoln Avenue", "Park Avenue", "Washington Avenue", "Jefferson Avenue", "Grant Avenue")
PEDESTRIAN_ROW, PEDESTRIAN_COLS = 3, (3, 4, 5)
BUS_ROW, BUS_COL = 1, 4

# category: (names, (opens, closes) choices in minutes (opens == closes: all day), closed weekday choices, prices)
H = 60
CATEGORIES = {
    "pharmacy": (("CVS Pharmacy", "Walgreens", "Rite Aid", "{last} Family Pharmacy", "Main Street Apothecary",
                  "Health Mart"), ((8 * H, 21 * H), (0, 0), (9 * H, 19 * H), (7 * H, 22 * H)), (None, None, 6), (2,)),
    "cafe": (("{word} Coffee", "Blue Bottle Coffee", "The Daily Grind", "{last}'s Café", "Bean There", "Morning Ritual"),
             ((6 * H + 30, 18 * H), (7 * H, 16 * H), (6 * H, 20 * H)), (None, None, 0), (1, 2)),
    "restaurant": (("{last}'s Kitchen", "The {word} Table", "Trattoria {last}", "Golden {word}", "Saigon Corner",
                    "Taqueria El {word}", "{word} & Vine"), ((11 * H, 22 * H), (17 * H, 23 * H), (11 * H + 30, 21 * H)),
                   (None, 0, 1), (1, 2, 3, 4)),
    "supermarket": (("Safeway", "Trader Joe's", "Whole Foods Market", "{word} Market", "Kroger"),
                    ((7 * H, 22 * H), (6 * H, 23 * H), (0, 0)), (None,), (1, 2)),
    "gas_station": (("Shell", "Chevron", "76", "Arco", "{word} Fuel"), ((0, 0), (6 * H, 23 * H)), (None,), (1,)),
    "hospital": (("{city} General Hospital", "St. {last} Medical Center", "{city} Urgent Care"),
                 ((0, 0),), (None,), (3,)),
    "bank": (("Chase Bank", "Wells Fargo", "{city} Credit Union", "US Bank"), ((9 * H, 17 * H), (9 * H, 18 * H)),
             (6,), (1,)),
    "museum": (("{city} Art Museum", "Museum of {word} History", "{last} Science Center"),
               ((10 * H, 17 * H), (9 * H + 30, 18 * H)), (0, 1), (2, 3)),
    "park": (("{last} Park", "{word} Gardens", "Riverside Green"), ((6 * H, 22 * H), (0, 0)), (None,), (1,)),
    "gym": (("Planet Fitness", "{word} Fitness", "24 Hour Fitness", "YMCA"), ((5 * H, 23 * H), (0, 0)), (None,), (2, 3)),
    "bakery": (("{last}'s Bakery", "Flour & {word}", "The Bread Basket"), ((6 * H, 15 * H), (7 * H, 14 * H)),
               (0, 1, None), (1, 2)),
    "bar": (("The {word} Tap", "{last}'s Pub", "Night Owl Lounge", "The {word} Room"),
            ((16 * H, 26 * H), (17 * H, 25 * H), (15 * H, 24 * H)), (None, 0), (2, 3)),
    "hotel": (("{city} Grand Hotel", "Hampton Inn", "The {word} Inn", "Holiday Inn Express"), ((0, 0),), (None,),
              (2, 3, 4)),
    "library": (("{city} Public Library", "{last} Branch Library"), ((9 * H, 20 * H), (10 * H, 18 * H)), (6,), (1,)),
}
WORDS = ("Copper", "Harbor", "Juniper", "Summit", "Lantern", "Maple", "Granite", "Willow", "Bluebird", "Ember",
         "Saffron", "Olive", "Pioneer", "Meadow", "Iron", "Velvet")
LIST_NAMES = ("Weekend brunch", "Date night", "Coffee to try", "Visiting parents", "Rainy day ideas", "Favorites",
              "Road trip stops", "Work lunches")
LABELS = {"pharmacy": "My pharmacy", "cafe": "Morning coffee", "gym": "Gym", "bank": "My bank", "supermarket": "Groceries",
          "park": "Dog walk", "library": "Library", "restaurant": "Dinner spot", "bakery": "Bread", "bar": "Drinks"}
N_USERS = 24


def _connected(nodes: list[int], edges: list[tuple[int, int]]) -> bool:
    adjacent: dict[int, list[int]] = {n: [] for n in nodes}
    for a, b in edges:
        adjacent[a].append(b)
        adjacent[b].append(a)
    seen, stack = {nodes[0]}, [nodes[0]]
    while stack:
        for n in adjacent[stack.pop()]:
            if n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(nodes)


def _meters(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    dy = (lat2 - lat1) * METERS_PER_DEGREE
    dx = (lon2 - lon1) * METERS_PER_DEGREE * math.cos(math.radians((lat1 + lat2) / 2))
    return math.hypot(dx, dy)


def seed(ctx: SeedContext) -> None:
    rng = ctx.rng
    node_seq, seg_seq = [0], [0]
    city_ids: list[tuple[str, str]] = []
    places_by_city: dict[str, list[tuple[str, str]]] = {}
    for name, state, lat0, lon0, transit in CITIES:
        city = City(id=ctx.new_id("CTY"), name=name, state=state, latitude=lat0, longitude=lon0, has_transit=transit)
        ctx.add(city)
        city_ids.append(city.id)
        rows = rng.sample(ROW_STREETS[1:], ROWS - 1)
        rows.insert(0, ROW_STREETS[0])
        rows[PEDESTRIAN_ROW] = "Market Street"
        rows = [r if i == PEDESTRIAN_ROW or r != "Market Street" else "Ash Street" for i, r in enumerate(rows)]
        cols = list(COL_STREETS[:COLS])
        lon_scale = METERS_PER_DEGREE * math.cos(math.radians(lat0))
        grid: dict[tuple[int, int], Node] = {}
        for r in range(ROWS):
            for c in range(COLS):
                node_seq[0] += 1
                y = (r - ROWS / 2) * 140 + rng.uniform(-12, 12)
                x = (c - COLS / 2) * 160 + rng.uniform(-12, 12)
                node = Node(id=node_seq[0], city_id=city.id, latitude=round(lat0 + y / METERS_PER_DEGREE, 6),
                            longitude=round(lon0 + x / lon_scale, 6))
                grid[r, c] = node
                ctx.add(node)
        # candidate segments: (a, b, street, speed, bus line, removable)
        candidates = []
        for r in range(ROWS):
            for c in range(COLS - 1):
                pedestrian = r == PEDESTRIAN_ROW and c in PEDESTRIAN_COLS
                speed = 0 if pedestrian else (50 if r == 0 else rng.choice((30, 30, 40)))
                bus = "Bus 10" if transit and r == BUS_ROW else None
                candidates.append((grid[r, c], grid[r, c + 1], rows[r], speed, bus, not (bus or pedestrian or r == 0)))
        for c in range(COLS):
            for r in range(ROWS - 1):
                bus = "Bus 20" if transit and c == BUS_COL else None
                candidates.append((grid[r, c], grid[r + 1, c], cols[c], rng.choice((30, 40)), bus, bus is None))
        node_ids = [n.id for n in grid.values()]
        where = {n.id: rc for rc, n in grid.items()}
        kept = list(candidates)
        for cand in rng.sample(candidates, len(candidates)):
            if not cand[5] or len(kept) <= len(candidates) * 0.9:
                continue
            trial = [k for k in kept if k is not cand]
            if _connected(node_ids, [(k[0].id, k[1].id) for k in trial]) and \
                    _connected(node_ids, [(k[0].id, k[1].id) for k in trial if k[3] > 0]):
                kept = trial
        segments = []
        for a, b, street, speed, bus, _ in kept:
            seg_seq[0] += 1
            seg = Segment(id=seg_seq[0], city_id=city.id, a=a.id, b=b.id, street=street,
                          length_m=round(_meters(a.latitude, a.longitude, b.latitude, b.longitude), 1),
                          speed_kmh=speed, bus_line=bus)
            segments.append((seg, a, b))
            ctx.add(seg)
        # addresses along the streets: numbers grow along each street, even on one side
        taken: set[tuple[str, int]] = set()
        addresses: list[Address] = []
        for seg, a, b in rng.sample(segments, len(segments)):
            if len(addresses) >= 55:
                break
            for _ in range(rng.choice((1, 1, 2))):
                t = rng.uniform(0.15, 0.85)
                (ra, ca), (rb, cb) = where[a.id], where[b.id]
                base = (min(ca, cb) if ra == rb else min(ra, rb)) + 1
                number = base * 100 + int(t * 90) + 2
                if (seg.street, number) in taken:
                    continue
                taken.add((seg.street, number))
                lat = a.latitude + (b.latitude - a.latitude) * t
                lon = a.longitude + (b.longitude - a.longitude) * t
                near, offset = (a, t * seg.length_m) if t < 0.5 else (b, (1 - t) * seg.length_m)
                address = Address(id=ctx.new_id("ADR"), city_id=city.id, number=number, street=seg.street,
                                  label=f"{number} {seg.street}, {city.name}", latitude=round(lat, 6),
                                  longitude=round(lon, 6), node_id=near.id, offset_m=round(offset, 1),
                                  pedestrian=seg.speed_kmh == 0)
                addresses.append(address)
                ctx.add(address)
        # points of interest at about two thirds of the addresses
        names: set[str] = set()
        ids: list[tuple[str, str]] = []
        for address in rng.sample(addresses, 38):
            category = rng.choice(sorted(CATEGORIES))
            templates, hours, closed_days, prices = CATEGORIES[category]
            for _ in range(5):
                title = rng.choice(templates).format(last=ctx.fake.last_name(), word=rng.choice(WORDS), city=city.name)
                if title not in names or rng.random() < 0.15:  # now and then a second branch of a chain
                    break
            names.add(title)
            opens, closes = rng.choice(hours)
            place = Place(id=ctx.new_id("PLC"), city_id=city.id, address_id=address.id, name=title, category=category,
                          rating=round(rng.uniform(2.6, 4.9), 1), review_count=rng.randint(0, 1800),
                          price_level=rng.choice(prices), phone=f"({rng.randint(201, 989)}) 555-{rng.randint(0, 9999):04d}",
                          opens=opens, closes=closes, closed_weekday=rng.choice(closed_days),
                          status="permanently_closed" if rng.random() < 0.06 else "operational")
            ctx.add(place)
            ids.append((place.id, category))
        places_by_city[city.id] = ids
    for _ in range(N_USERS):
        first, last = ctx.person_name()
        home = rng.choice(city_ids)
        user = User(id=ctx.new_id("USR"), name=f"{first} {last}", email=f"{first.lower()}.{last.lower()}@example.com",
                    home_city_id=home)
        ctx.add(user)
        pool = places_by_city[home]
        labels: set[str | None] = {None}
        for place_id, category in rng.sample(pool, rng.randint(0, 5)):
            label = LABELS.get(category) if rng.random() < 0.6 else None
            label = None if label in labels else label
            labels.add(label)
            ctx.add(SavedPlace(id=ctx.new_id("SAV"), user_id=user.id, place_id=place_id, label=label))
        for list_name in rng.sample(LIST_NAMES, rng.randint(0, 3)):
            place_list = PlaceList(id=ctx.new_id("LST"), user_id=user.id, name=list_name)
            ctx.add(place_list)
            for place_id, _ in rng.sample(pool, rng.choice((0, 2, 3, 4, 6))):
                ctx.add(ListEntry(id=ctx.new_id("ENT"), list_id=place_list.id, place_id=place_id,
                                  note=rng.choice((None, None, "Try the specials", "Good for groups", "Call ahead"))))

