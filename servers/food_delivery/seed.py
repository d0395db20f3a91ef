"""The seed: a city of neighborhoods, about 30 restaurants of ten cuisines (a quarter closed at the
frozen "now", some with a small delivery radius), their menus with options and sold-out items,
40 customers with saved addresses, open carts, promo codes (one expired, some tied to a
restaurant) and a history of orders at every stage of their life cycle."""

from __future__ import annotations

import datetime as dt

from prove_env.world import SeedContext

from .models import (
    Address,
    Cart,
    CartLine,
    Customer,
    MenuItem,
    Order,
    OrderLine,
    Promo,
    Restaurant,
)

# Neighborhood centres on a city grid, in miles.
NEIGHBORHOODS = {"Downtown": (0.0, 0.0), "Riverside": (1.5, 2.0), "Old Town": (-2.0, 1.0), "Midtown": (0.5, 3.5),
                 "Harbor": (3.0, -1.5), "Elm Park": (-3.5, -2.5), "University": (-1.0, 4.5), "Northgate": (2.0, 6.5),
                 "Westfield": (-6.0, 0.5), "Lakeview": (5.5, 3.0)}

MENUS = {
    "Italian": (("Margherita pizza", "Pizza", 14.0, "Large:4.0;Gluten-free crust:3.0"),
                ("Pepperoni pizza", "Pizza", 16.0, "Large:4.0;Extra cheese:2.0"),
                ("Spaghetti carbonara", "Pasta", 17.5, ""), ("Lasagna", "Pasta", 18.0, ""),
                ("Penne arrabbiata", "Pasta", 15.0, "Add chicken:4.0"), ("Caesar salad", "Salads", 11.0, "Add chicken:4.0"),
                ("Tiramisu", "Desserts", 8.0, ""), ("Garlic bread", "Sides", 6.0, "Cheese:1.5")),
    "Mexican": (("Chicken burrito", "Burritos", 12.5, "Add guacamole:2.0;Extra salsa:0.5"),
                ("Carne asada tacos", "Tacos", 13.0, "Corn tortillas:0.0"), ("Fish tacos", "Tacos", 13.5, ""),
                ("Veggie quesadilla", "Quesadillas", 10.5, "Add sour cream:1.0"),
                ("Chips and guacamole", "Sides", 7.0, ""), ("Churros", "Desserts", 6.0, ""),
                ("Horchata", "Drinks", 4.0, "Large:1.5")),
    "Japanese": (("Salmon nigiri", "Sushi", 9.0, ""), ("California roll", "Sushi", 8.5, "Brown rice:1.0"),
                 ("Spicy tuna roll", "Sushi", 10.0, "Brown rice:1.0"), ("Tonkotsu ramen", "Ramen", 16.0, "Extra egg:2.0"),
                 ("Chicken teriyaki", "Mains", 17.0, ""), ("Miso soup", "Sides", 4.0, ""), ("Edamame", "Sides", 5.0, "")),
    "Thai": (("Pad thai", "Noodles", 14.0, "Add shrimp:3.0;Extra spicy:0.0"), ("Green curry", "Curries", 15.0, "Add shrimp:3.0"),
             ("Massaman curry", "Curries", 15.5, ""), ("Tom yum soup", "Soups", 9.0, ""),
             ("Spring rolls", "Starters", 7.0, ""), ("Mango sticky rice", "Desserts", 8.0, ""),
             ("Thai iced tea", "Drinks", 4.5, "")),
    "Indian": (("Chicken tikka masala", "Curries", 17.0, "Extra spicy:0.0"), ("Palak paneer", "Curries", 15.0, ""),
               ("Lamb biryani", "Rice", 19.0, "Raita:1.5"), ("Garlic naan", "Breads", 4.0, ""),
               ("Samosas", "Starters", 6.5, ""), ("Mango lassi", "Drinks", 5.0, "Large:1.5"), ("Dal makhani", "Curries", 13.5, "")),
    "Chinese": (("Kung pao chicken", "Mains", 15.0, "Extra spicy:0.0"), ("Beef and broccoli", "Mains", 16.0, ""),
                ("Pork dumplings", "Dim sum", 9.0, "Fried:1.0"), ("Vegetable lo mein", "Noodles", 12.0, "Add tofu:2.0"),
                ("Hot and sour soup", "Soups", 7.0, ""), ("Fried rice", "Rice", 10.0, "Add shrimp:3.0"),
                ("Sesame balls", "Desserts", 6.0, "")),
    "American": (("Classic cheeseburger", "Burgers", 13.0, "Double patty:4.0;Add bacon:2.0"),
                 ("Veggie burger", "Burgers", 12.5, "Add avocado:2.0"), ("Buffalo wings", "Starters", 12.0, "Large:6.0"),
                 ("French fries", "Sides", 5.0, "Large:2.0"), ("Onion rings", "Sides", 6.0, ""),
                 ("Chocolate milkshake", "Drinks", 7.0, "Large:2.0"), ("Cobb salad", "Salads", 13.5, "")),
    "Mediterranean": (("Chicken shawarma plate", "Plates", 16.0, "Extra garlic sauce:1.0"),
                      ("Falafel wrap", "Wraps", 11.0, "Add feta:1.5"), ("Hummus and pita", "Starters", 8.0, ""),
                      ("Greek salad", "Salads", 12.0, "Add chicken:4.0"), ("Lamb gyro", "Wraps", 13.0, ""),
                      ("Baklava", "Desserts", 6.0, "")),
    "Vietnamese": (("Beef pho", "Pho", 15.0, "Large:3.0"), ("Chicken pho", "Pho", 14.0, "Large:3.0"),
                   ("Banh mi", "Sandwiches", 10.0, "Add fried egg:1.5"), ("Fresh rolls", "Starters", 7.5, ""),
                   ("Vermicelli bowl", "Bowls", 14.0, "Add spring roll:2.0"), ("Vietnamese coffee", "Drinks", 5.0, "")),
    "Korean": (("Bibimbap", "Bowls", 15.0, "Add egg:1.5"), ("Korean fried chicken", "Mains", 18.0, "Half and half:0.0"),
               ("Bulgogi", "Mains", 19.0, ""), ("Kimchi fried rice", "Rice", 13.0, "Add cheese:1.5"),
               ("Japchae", "Noodles", 14.0, ""), ("Tteokbokki", "Starters", 11.0, "")),
}

NAMES = {
    "Italian": ("Luigi's Trattoria", "Bella Napoli", "Pasta Fresca"),
    "Mexican": ("Casa Verde", "El Farolito", "Taqueria Sol"),
    "Japanese": ("Sakura Sushi", "Ramen Ichiban", "Koi Kitchen"),
    "Thai": ("Bangkok Garden", "Thai Orchid", "Lemongrass"),
    "Indian": ("Taj Palace", "Curry Leaf", "Bombay Spice"),
    "Chinese": ("Golden Dragon", "Jade Garden", "Dumpling House"),
    "American": ("Blue Plate Diner", "Burger Barn", "Smokehouse 42"),
    "Mediterranean": ("Olive Tree", "Aegean Grill"),
    "Vietnamese": ("Pho Saigon", "Little Hanoi"),
    "Korean": ("Seoul Kitchen", "Gangnam Bowl"),
}

STREETS = ("Maple Ave", "Oak St", "Cedar Ln", "Pine St", "Birch Rd", "Lake Dr", "Hill St", "Park Ave", "Elm St",
           "Willow Way", "Main St", "2nd Ave", "Spruce Ct", "River Rd")
LABELS = ("Home", "Work", "Gym", "Mom's place", "Studio")
# Minutes after placing at which an order reaches each stage (the kitchen and courier run on schedule).
STAGES = (("placed", 0), ("accepted", 3), ("preparing", 8), ("out_for_delivery", 20), ("delivered", 35))
COMMENTS = ("Hot and on time.", "Great as always!", "Fries were cold.", "Driver was very friendly.",
            "Missing the sauce.", "Perfect.", None, None)


def distance(a: str, b: str) -> float:
    (ax, ay), (bx, by) = NEIGHBORHOODS[a], NEIGHBORHOODS[b]
    return round(((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5, 1)


def seed(ctx: SeedContext) -> None:
    rng, now = ctx.rng, ctx.now
    minute = now.hour * 60 + now.minute
    hoods = list(NEIGHBORHOODS)
    restaurants: list[Restaurant] = []
    items: dict[str, list[MenuItem]] = {}
    for cuisine, names in NAMES.items():
        for name in names:
            if rng.random() < 0.25:  # closed now: opens later today
                opens = (minute + 30 * rng.randint(2, 8)) % 1440
                closes = (opens + 30 * rng.randint(10, 20)) % 1440
            else:
                opens = (minute - 30 * rng.randint(1, 10)) % 1440
                closes = (minute + 30 * rng.randint(2, 20)) % 1440
            r = Restaurant(id=ctx.new_id("RST"), name=name, cuisine=cuisine, rating=round(rng.uniform(3.4, 4.9), 1),
                           neighborhood=rng.choice(hoods), opens_at=opens - opens % 30, closes_at=closes - closes % 30,
                           delivery_radius=float(rng.choice((2, 3, 4, 5, 6))),
                           delivery_fee=rng.choice((0.0, 1.99, 2.99, 3.99, 4.99)),
                           min_order=float(rng.choice((0, 10, 15, 20))))
            restaurants.append(r)
            ctx.add(r)
            menu = list(MENUS[cuisine])
            rng.shuffle(menu)
            items[r.id] = []
            for dish, category, price, options in sorted(menu[:rng.randint(5, len(menu))]):
                item = MenuItem(id=ctx.new_id("ITM"), restaurant_id=r.id, name=dish, category=category,
                                price=round(price + rng.choice((0, 0.5, 1.0, -0.5)), 2), options=options,
                                available=rng.random() > 0.12)
                items[r.id].append(item)
                ctx.add(item)
    for code, pct, amt, min_sub, rest, days, once in (
            ("WELCOME5", None, 5.0, 15.0, None, 200, True), ("SAVE10", 10.0, None, 20.0, None, 60, False),
            ("FEAST20", 20.0, None, 50.0, None, 30, False), ("SPRING15", 15.0, None, 0.0, None, -10, False),
            ("LUIGI3", None, 3.0, 10.0, restaurants[0].id, 90, False),
            ("DRAGON25", 25.0, None, 30.0, next(r.id for r in restaurants if r.name == "Golden Dragon"), 45, True)):
        ctx.add(Promo(code=code, percent_off=pct, amount_off=amt, min_subtotal=min_sub, restaurant_id=rest,
                      expires_on=now.date() + dt.timedelta(days=days), once_per_customer=once))
    for _ in range(40):
        first, last = ctx.person_name()
        customer = Customer(id=ctx.new_id("CUS"), name=f"{first} {last}",
                            email=f"{first.lower()}.{last.lower()}@example.com", phone=ctx.fake.numerify("(555) ###-####"))
        ctx.add(customer)
        addresses = []
        for label in rng.sample(LABELS[:3], rng.choice((1, 1, 2, 2, 3))):
            address = Address(id=ctx.new_id("ADR"), customer_id=customer.id, label=label,
                              street=f"{rng.randint(10, 999)} {rng.choice(STREETS)}", neighborhood=rng.choice(hoods))
            addresses.append(address)
            ctx.add(address)
        for r in rng.sample(restaurants, rng.choice((0, 1, 1, 2))):
            cart = Cart(id=ctx.new_id("CRT"), customer_id=customer.id, restaurant_id=r.id)
            ctx.add(cart)
            for item in rng.sample(items[r.id], rng.randint(1, 3)):
                options = [o.split(":")[0] for o in item.options.split(";") if o]
                ctx.add(CartLine(id=ctx.new_id("CLN"), cart_id=cart.id, item_id=item.id,
                                 option=rng.choice(options) if options and rng.random() < 0.4 else None,
                                 quantity=rng.choice((1, 1, 2))))
        for n in range(rng.choice((0, 2, 3, 4, 5))):
            r = rng.choice(restaurants)
            minutes_ago = rng.choice((1, 5, 12, 25)) if n == 0 and rng.random() < 0.5 else rng.randint(60 * 24, 60 * 24 * 90)
            placed = now - dt.timedelta(minutes=minutes_ago)
            order = Order(id=ctx.new_id("ORD"), customer_id=customer.id, restaurant_id=r.id,
                          address_id=rng.choice(addresses).id, placed_at=placed, subtotal=0.0,
                          delivery_fee=r.delivery_fee, discount=0.0, tip=float(rng.choice((0, 2, 3, 5))), total=0.0,
                          promo_code=None, cancelled_at=None, rating=None, comment=None)
            if minutes_ago > 60 and rng.random() < 0.1:
                order.cancelled_at = placed + dt.timedelta(minutes=2)
            subtotal = 0.0
            for item in rng.sample(items[r.id], rng.randint(1, 3)):
                qty = rng.choice((1, 1, 2))
                ctx.add(OrderLine(id=ctx.new_id("OLN"), order_id=order.id, item_id=item.id, name=item.name,
                                  option=None, quantity=qty, unit_price=item.price))
                subtotal += qty * item.price
            order.subtotal = round(subtotal, 2)
            order.total = round(order.subtotal + order.delivery_fee + order.tip, 2)
            if minutes_ago > 60 and order.cancelled_at is None and rng.random() < 0.5:
                order.rating, order.comment = rng.randint(2, 5), rng.choice(COMMENTS)
            ctx.add(order)
