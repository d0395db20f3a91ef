"""The seed: a home and hardware chain of 18 stores in 9 cities of the Pacific Northwest and
Mountain West, a catalogue of 48 products, and each store's stock, transfers, pick-up
reservations and restock orders before the frozen "now".

Edge cases on purpose: one store closed for renovation, stores closed on Sundays, products a
store does not carry, discontinued products, lines at zero or below their reorder point,
reservations that have expired without being collected, and transfers still in transit.
"""

from __future__ import annotations

import datetime as dt

from prove_env.world import SeedContext

from .models import Product, Reservation, RestockOrder, Stock, Store, Transfer

# city -> (state, zip prefix, latitude, longitude, neighbourhoods: each one store)
CITIES: dict[str, tuple[str, str, float, float, tuple[str, ...]]] = {
    "Portland": ("OR", "972", 45.5152, -122.6784, ("Pearl District", "Hawthorne", "St. Johns")),
    "Seattle": ("WA", "981", 47.6062, -122.3321, ("Ballard", "Capitol Hill", "West Seattle")),
    "Tacoma": ("WA", "984", 47.2529, -122.4443, ("Proctor",)),
    "Spokane": ("WA", "992", 47.6588, -117.4260, ("South Hill", "Northtown")),
    "Eugene": ("OR", "974", 44.0521, -123.0868, ("Whiteaker",)),
    "Salem": ("OR", "973", 44.9429, -123.0351, ("West Salem",)),
    "Boise": ("ID", "837", 43.6150, -116.2023, ("North End", "Bown Crossing")),
    "Bend": ("OR", "977", 44.0582, -121.3153, ("Old Mill",)),
    "Denver": ("CO", "802", 39.7392, -104.9903, ("Highlands", "Cherry Creek", "Baker", "Stapleton")),
}
CLOSED_STORE = "St. Johns"

# category -> [(name, brand, list price)]
CATALOGUE: dict[str, list[tuple[str, str, float]]] = {
    "Power tools": [("Cordless drill 20V", "DeWalt", 129.00), ("Impact driver 20V", "DeWalt", 149.00),
                    ("Circular saw 7-1/4 in", "Makita", 119.99), ("Random orbit sander", "Bosch", 79.99),
                    ("Jigsaw 6.5 amp", "Bosch", 99.00), ("Oscillating multi-tool", "Milwaukee", 139.00)],
    "Hand tools": [("Claw hammer 16 oz", "Estwing", 32.99), ("Tape measure 25 ft", "Stanley", 14.98),
                   ("Screwdriver set 10-piece", "Craftsman", 24.99), ("Adjustable wrench 10 in", "Craftsman", 18.49),
                   ("Utility knife", "Stanley", 9.97), ("Torpedo level 9 in", "Empire", 12.49)],
    "Paint": [("Interior eggshell paint, 1 gal", "Behr", 38.98), ("Exterior satin paint, 1 gal", "Behr", 46.98),
              ("Primer, 1 gal", "Kilz", 27.98), ("Painter's tape 1.88 in", "ScotchBlue", 8.47),
              ("Roller kit 9 in", "Purdy", 19.97), ("Angled brush 2.5 in", "Purdy", 16.47)],
    "Garden": [("Garden hose 50 ft", "Flexzilla", 54.97), ("Potting mix, 1 cu ft", "Miracle-Gro", 12.98),
               ("Pruning shears", "Fiskars", 21.97), ("Leaf rake", "True Temper", 24.98),
               ("Raised garden bed kit", "Greenes", 89.00), ("Drip irrigation kit", "Rain Bird", 39.98)],
    "Lighting": [("LED bulb A19, 4-pack", "Philips", 9.97), ("Motion sensor floodlight", "Lithonia", 49.97),
                 ("Under-cabinet light bar", "Feit", 34.97), ("Smart dimmer switch", "Lutron", 59.95),
                 ("Outdoor string lights 48 ft", "Enbrighten", 44.99), ("LED work light", "Husky", 39.97)],
    "Plumbing": [("Kitchen faucet pull-down", "Moen", 169.00), ("Toilet flapper", "Korky", 7.98),
                 ("Plunger with flange", "Neiko", 11.97), ("Shower head rain 8 in", "Delta", 64.98),
                 ("PEX tubing 1/2 in x 100 ft", "SharkBite", 42.77), ("Pipe wrench 14 in", "Ridgid", 36.98)],
    "Outdoor": [("Propane grill 3-burner", "Weber", 449.00), ("Patio umbrella 9 ft", "Hampton Bay", 79.00),
                ("Fire pit 30 in", "Solo Stove", 299.99), ("Snow shovel 18 in", "Suncast", 27.97),
                ("Ice melt, 20 lb", "Safe Step", 19.98), ("Cooler 45 qt", "Yeti", 299.99)],
    "Storage": [("Tool chest 26 in", "Husky", 249.00), ("Storage tote 27 gal", "HDX", 11.98),
                ("Garage shelving 5-tier", "Husky", 169.00), ("Pegboard kit", "Triton", 49.97),
                ("Step ladder 6 ft", "Werner", 98.00), ("Wall hooks, 10-pack", "Everbilt", 14.97)],
}
DISCONTINUED = {"Snow shovel 18 in", "Pegboard kit", "Torpedo level 9 in"}
HOURS = (("07:00", "21:00"), ("08:00", "21:00"), ("07:00", "22:00"), ("08:00", "20:00"), ("06:00", "22:00"))
STREETS = ("Main St", "Oak Ave", "Broadway", "Division St", "Market St", "Burnside St", "Pine St", "Colfax Ave",
           "Sandy Blvd", "Fairview Ave", "Lincoln Way", "Hawthorne Blvd", "Elm St", "Madison Ave", "1st Ave")


def seed(ctx: SeedContext) -> None:
    rng = ctx.rng
    stores: list[Store] = []
    for city, (state, zip_prefix, lat, lon, areas) in CITIES.items():
        for area in areas:
            opens, closes = rng.choice(HOURS)
            sunday = rng.random() < 0.8
            first, last = ctx.person_name()
            store = Store(id=ctx.new_id("STR"), name=area,
                          address=f"{rng.randint(100, 9899)} {rng.choice(STREETS)}", city=city, state=state,
                          zip_code=f"{zip_prefix}{rng.randint(1, 99):02d}",
                          phone=f"({rng.randint(201, 989)}) 555-{rng.randint(1000, 9999)}",
                          latitude=round(lat + rng.uniform(-0.06, 0.06), 4),
                          longitude=round(lon + rng.uniform(-0.08, 0.08), 4),
                          opens=opens, closes=closes,
                          sunday_opens="10:00" if sunday else None, sunday_closes="18:00" if sunday else None,
                          status="closed" if area == CLOSED_STORE else "open", manager=f"{first} {last}")
            stores.append(store)
            ctx.add(store)
    products: list[Product] = []
    for category, items in CATALOGUE.items():
        for name, brand, price in items:
            product = Product(id=ctx.new_id("PRD"), name=name, category=category, brand=brand,
                              sku=f"{rng.randint(100000, 999999)}", list_price=price,
                              discontinued=name in DISCONTINUED)
            products.append(product)
            ctx.add(product)
    lines: dict[tuple[str, str], Stock] = {}
    for store in stores:
        for product in products:
            if rng.random() < 0.22:
                continue  # not carried here
            roll = rng.random()
            on_hand = 0 if roll < 0.08 else rng.randint(1, 4) if roll < 0.3 else rng.randint(5, 40)
            discount = rng.random() < 0.2
            price = round(product.list_price * (rng.choice((0.85, 0.9, 0.95)) if discount else 1.0), 2)
            line = Stock(store_id=store.id, product_id=product.id, price=price, on_hand=on_hand,
                         reorder_point=rng.choice((3, 4, 5, 6, 8)))
            lines[(store.id, product.id)] = line
            ctx.add(line)
    open_stores = [s for s in stores if s.status == "open"]

    def stocked(store: Store, least: int) -> list[Stock]:
        return [line for (sid, _), line in lines.items() if sid == store.id and line.on_hand >= least]

    # Transfers: received ones in the past, some still in transit (their stock already left the source).
    for _ in range(30):
        source, target = rng.sample(open_stores, 2)
        line = rng.choice(stocked(source, 8))
        quantity = rng.randint(2, 6)
        created = ctx.moment(-30, -0.5)
        in_transit = created > ctx.now - dt.timedelta(days=5) or rng.random() < 0.25
        if in_transit:
            line.on_hand -= quantity
        ctx.add(Transfer(id=ctx.new_id("TRF"), product_id=line.product_id, from_store_id=source.id,
                         to_store_id=target.id, quantity=quantity,
                         status="in_transit" if in_transit else "received", created_at=created,
                         received_at=None if in_transit else created + dt.timedelta(days=rng.randint(1, 3))))
    # Reservations: active holds (some expired), collected and cancelled ones; live holds never
    # set aside more than the line has on hand.
    held: dict[tuple[str, str], int] = {}
    for _ in range(110):
        store = rng.choice(open_stores)
        line = rng.choice(stocked(store, 6))
        first, last = ctx.person_name()
        created = ctx.moment(-10, -0.25)
        expires = created + dt.timedelta(days=rng.choice((2, 3, 5)))
        roll = rng.random()
        status = "collected" if roll < 0.3 else "cancelled" if roll < 0.4 else "active"
        quantity = rng.randint(1, 3)
        key = (store.id, line.product_id)
        if status == "active" and expires > ctx.now:
            if held.get(key, 0) + quantity > line.on_hand:
                status = "collected"
            else:
                held[key] = held.get(key, 0) + quantity
        quarters = max(1, int((min(expires, ctx.now) - created).total_seconds() // 900) - 1)
        closed = None if status == "active" else created + dt.timedelta(minutes=15 * rng.randint(1, quarters))
        ctx.add(Reservation(id=ctx.new_id("RSV"), store_id=store.id, product_id=line.product_id,
                            customer_name=f"{first} {last}", quantity=quantity, status=status,
                            note=rng.choice((None, None, None, "Paid online", "Call on arrival", "Curbside pick-up")),
                            created_at=created, expires_at=expires, closed_at=closed))
    # Restock orders: delivered in the past, placed ones still expected, a few cancelled.
    reorderable = {p.id for p in products if not p.discontinued}
    placed: set[tuple[str, str]] = set()
    for _ in range(40):
        store = rng.choice(open_stores)
        line = rng.choice([line for (sid, pid), line in lines.items() if sid == store.id and pid in reorderable])
        created = ctx.moment(-25, -0.5)
        roll = rng.random()
        status = "delivered" if roll < 0.45 else "cancelled" if roll < 0.55 else "placed"
        if status == "placed":
            if (store.id, line.product_id) in placed:
                status = "delivered"  # one open order per store and product
            placed.add((store.id, line.product_id))
        ctx.add(RestockOrder(id=ctx.new_id("RST"), store_id=store.id, product_id=line.product_id,
                             quantity=rng.choice((10, 12, 20, 24, 30, 48)), status=status, created_at=created,
                             expected_on=(created + dt.timedelta(days=rng.randint(5, 10))).date(),
                             delivered_at=min(created + dt.timedelta(days=rng.randint(3, 6)),
                                              ctx.now - dt.timedelta(hours=1)) if status == "delivered" else None))
