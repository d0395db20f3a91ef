"""How tasks are written for food delivery: customers who introduce themselves by name or email,
name restaurants by name, dishes by their menu name, addresses by their label ("my work address"),
carts by their restaurant ("my Golden Dragon cart") and orders by restaurant ("the Thai Orchid
order").

Each of a customer's carts gets one role for the whole conversation (ordered, emptied, trimmed or
kept for questions), and each order still under way is either cancelled or re-tipped, so that the
requests of one conversation never undo what another one needs."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from prove_env.synthesis.recipe import (
    Ask,
    Goals,
    Lookup,
    Reader,
    Recipe,
    Ref,
)
from prove_env.facts import one_of, quantity
from prove_env.synthesis.wording import article, money, stable

Bundle = dict[str, Any]
NUMBERS = {1: "a", 2: "two", 3: "three", 4: "four"}
# First words of dish names that keep their capital in a sentence ("Thai iced tea", "Greek salad").
PROPER = {"Thai", "Vietnamese", "Korean", "Greek", "Caesar", "California", "Buffalo", "French", "Mango"}


def dish(name: str) -> str:
    """A dish as said in a sentence: 'pad thai', 'Greek salad'."""
    first = name.split()[0]
    return name if first in PROPER and first != "Mango" else name[:1].lower() + name[1:]


# Last words of dish names counted as things ("three falafel wraps"); any other dish is a serving
# ("two orders of pad thai"). Each plural keeps the menu name whole in the words.
COUNTED = {"pizza", "burrito", "quesadilla", "roll", "salad", "soup", "burger", "milkshake", "plate",
           "wrap", "gyro", "coffee", "bowl", "lassi", "tea", "horchata"}


def plural(name: str) -> str:
    """A dish said of several: 'falafel wraps', 'churros', 'pad thai' (a serving, left as it is)."""
    return f"{name}s" if name.split()[-1].lower() in COUNTED else name


# Dishes served as a heap of pieces, said as 'an order of' even when one ('an order of edamame', not
# 'an edamame').
HEAPED = {"edamame", "chips and guacamole", "hummus and pita"}


def some(quantity: int, name: str) -> str:
    """'a banh mi', 'an order of fresh rolls', 'an order of edamame', 'two churros', 'three falafel
    wraps', 'two orders of pad thai'."""
    if quantity > 1:
        if name.endswith("s") or plural(name) != name:
            return f"{NUMBERS[quantity]} {plural(name)}"
        return f"{NUMBERS[quantity]} orders of {name}"
    if (name.endswith("s") and not name.endswith("ss")) or name.lower() in HEAPED:
        return f"an order of {name}"
    return f"{article(name)} {name}"


NEW_PLACES = (("Office", "48 Market St", "Downtown"), ("Studio", "310 Harbor Way", "Harbor"),
              ("Parents", "77 Orchard Ln", "Elm Park"), ("Cabin", "5 Lakeshore Dr", "Lakeview"),
              ("Campus", "120 College Ave", "University"), ("Gym", "19 Fitness Blvd", "Midtown"),
              ("Work", "900 Commerce Rd", "Riverside"))
STAGE_WORDS = {"placed": "placed", "accepted": "accepted", "preparing": "being prepared",
               "out_for_delivery": "out for delivery", "delivered": "delivered", "cancelled": "cancelled"}


# A zero said the way people say it: "no minimum", "delivery is free" (a bare 0 is right too).
_NO_MINIMUM = ("no minimum", "no min", "isn't a minimum", "is not a minimum", "isn't any minimum",
               "doesn't have a minimum", "does not have a minimum", "without a minimum", "none")
_NO_FEE = ("free", "no delivery fee", "no fee", "doesn't charge", "does not charge")


def _minimum(amount: float) -> Any:
    """A restaurant's minimum order as a fact: a zero is also stated by 'no minimum'."""
    return one_of(amount, *_NO_MINIMUM) if amount == 0 else amount


def _fee(amount: float) -> Any:
    """A delivery fee as a fact: a zero is also stated by 'free delivery'."""
    return one_of(amount, *_NO_FEE) if amount == 0 else amount


def _stage(status: str) -> Any:
    """An order's stage as a fact: its status, or the words a person says for it ('being prepared')."""
    return status if STAGE_WORDS[status] == status.replace("_", " ") else one_of(status, STAGE_WORDS[status])


def _eta(moment: str, now: dt.datetime) -> Any:
    """An arrival time as a fact: one due today is also stated by its time alone ("around 1:53 PM")."""
    return one_of(moment, moment[11:16]) if moment[:10] == now.date().isoformat() else moment


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every customer with their addresses, carts (each with the addresses it can be delivered to
    and the promo codes that apply to it) and orders; the restaurants and menus are shared."""
    restaurants = read("search_restaurants", limit=100)
    menus = {r["restaurant_id"]: read("get_menu", restaurant_id=r["restaurant_id"]) for r in restaurants}
    details = {r["restaurant_id"]: read("get_restaurant", restaurant_id=r["restaurant_id"]) for r in restaurants}
    bundles = []
    for customer in read("find_customers", limit=100):
        cid = customer["customer_id"]
        if len(read("find_customers", name=customer["name"])) != 1:
            continue
        addresses = read("list_addresses", customer_id=cid)
        carts = []
        for cart in read("list_carts", customer_id=cid):
            reachable = [a for a in addresses if read("check_delivery", restaurant_id=cart["restaurant_id"],
                                                      address_id=a["address_id"])["can_deliver"]]
            orderable = (reachable and all(line["available"] for line in cart["lines"])
                         and cart["subtotal"] >= details[cart["restaurant_id"]]["min_order"])
            codes = [c for c in ("WELCOME5", "SAVE10", "FEAST20", "LUIGI3", "DRAGON25")
                     if read("check_promo", cart_id=cart["cart_id"], code=c)["applies"]]
            carts.append({**cart, "reachable": reachable, "orderable": bool(orderable), "codes": codes})
        _roles(carts, rng)
        orders = read("list_orders", customer_id=cid, limit=20)
        for order in orders:
            if order["status"] in ("placed", "accepted"):
                order["role"] = rng.choice(("cancel", "tip"))
            else:
                order["role"] = "tip" if order["status"] in ("preparing", "out_for_delivery") else None
            order["items"] = read("track_order", order_id=order["order_id"])["items"]
        bundles.append({"now": now, "customer": customer, "addresses": addresses, "carts": carts, "orders": orders,
                        "restaurants": restaurants, "menus": menus, "details": details})
    return bundles


def _roles(carts: list[dict], rng: random.Random) -> None:
    """One role per cart: 'order' (at most one, a cart that can be ordered), 'clear', 'trim' (a
    line removed; carts of two items or more) or 'keep' (only read)."""
    ordering = [c for c in carts if c["orderable"]]
    chosen = rng.choice(ordering)["cart_id"] if ordering and rng.random() < 0.8 else None
    for cart in carts:
        if cart["cart_id"] == chosen:
            cart["role"] = "order"
        else:
            options = ["clear", "keep", "keep"] + (["trim", "trim"] if len({l["item_id"] for l in cart["lines"]}) > 1 else [])
            cart["role"] = rng.choice(options)


# -- how people name things ----------------------------------------------------------------------

def _customer(b: Bundle) -> Ref:
    return Ref.of("customer", b["customer"])


def _cart(b: Bundle, cart: dict) -> Ref:
    return Ref.of("cart", cart, _customer(b))


def _order(b: Bundle, order: dict) -> Ref:
    return Ref.of("order", order, _customer(b))


def _address(b: Bundle, address: dict) -> Ref:
    return Ref.of("address", address, _customer(b))


def _restaurant(r: dict) -> Ref:
    return Ref.of("restaurant", r)


def _item(b: Bundle, item: dict) -> Ref:
    r = next(r for r in b["restaurants"] if r["restaurant_id"] == item["restaurant_id"])
    return Ref.of("item", item, _restaurant(r))


def _place(address: dict, rng: random.Random) -> str:
    label = address["label"]
    if label == "Home":
        return rng.choice(["my home address", "home", "my place", "my home"])
    return rng.choice([f"my {label.lower()} address", f"the {label.lower()} address", f"my {label.lower()}"])


def _cart_name(cart: dict, rng: random.Random) -> str:
    name = cart["restaurant"]
    return rng.choice([f"my {name} cart", f"the cart from {name}", f"my cart at {name}", f"the {name} cart"])


def _order_name(b: Bundle, order: dict, rng: random.Random) -> str | None:
    """'my Thai Orchid order', with its date when the customer has more than one from there."""
    same = [o for o in b["orders"] if o["restaurant_id"] == order["restaurant_id"]]
    if len(same) > 1:
        days = [o["placed_at"][:10] for o in same]
        if days.count(order["placed_at"][:10]) > 1:
            return None
        when = dt.date.fromisoformat(order["placed_at"][:10])
        # an order placed today is "today" ("the one I placed on December 19" said on December 19 is odd)
        if when == b["now"].date():
            return rng.choice([f"my {order['restaurant']} order from today",
                               f"the {order['restaurant']} order I placed today"])
        return rng.choice([f"my {order['restaurant']} order from {when:%B} {when.day}",
                           f"the {order['restaurant']} order I placed on {when:%B} {when.day}"])
    return rng.choice([f"my {order['restaurant']} order", f"the order from {order['restaurant']}",
                       f"my order from {order['restaurant']}"])


# -- goals ---------------------------------------------------------------------------------------

goals = Goals()


@goals.add("list_addresses", 0.7)
def list_addresses(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["addresses"]:
        return None
    return Ask({"customer_id": b["customer"]["customer_id"]},
               say=rng.choice(["Which delivery addresses do I have saved?", "Can you read me my saved addresses?",
                               "I forget which addresses are on my account. What are they?",
                               "Could you list the addresses you have on file for me, please?"]),
               terse=rng.choice(["My saved addresses?", "List my addresses."]), refs=(_customer(b),),
               facts=lambda r: [a["street"] for a in r])


@goals.add("add_address", 0.8)
def add_address(b: Bundle, rng: random.Random) -> Ask | None:
    labels = {a["label"].lower() for a in b["addresses"]}
    options = [p for p in NEW_PLACES if p[0].lower() not in labels]
    if not options:
        return None
    label, street, hood = rng.choice(options)
    # "in University" reads as a school, not a part of town: that neighborhood is "the University area"
    within = f"in the {hood} area" if hood == "University" else f"in {hood}"
    say, detail = rng.choice([
        (f"Please save a new address called {label}.", rng.choice([f"It's {street}, {within}.", f"{street}, {hood}."])),
        (f"I'd like to add a '{label}' address to my account.", rng.choice([f"The street is {street}, {hood}.",
                                                                            f"That would be {street} {within}."])),
        (f"Could you add an address for me, labelled {label}?", rng.choice([f"{street}, over {within}.",
                                                                            f"Use {street} ({hood})."])),
        (f"I need a new delivery address on file, '{label}'.", rng.choice([f"Address: {street}, {hood}.",
                                                                           f"It's at {street}, in the {hood} area."])),
        (f"New address to save: {street}, {hood}. Call it {label}.", None),
        (f"Add {street} {within} as my {label} address, please.", None),
        (f"Can you store {street} ({hood}) under the label {label}?", None),
    ])
    return Ask({"customer_id": b["customer"]["customer_id"], "label": label, "street": street, "neighborhood": hood},
               say=say, detail=detail, terse=f"Save address {label}: {street}, {hood}.", refs=(_customer(b),),
               mentions=(street, hood, label))


@goals.add("list_cuisines", 0.9)
def list_cuisines(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({}, say=rng.choice(["What kinds of food can I order on here?", "Which cuisines do you have restaurants for?",
                                   "I can't decide what to eat. What cuisines are there to pick from?"]),
               terse="Cuisines available?", facts=lambda r: [c["cuisine"] for c in r])


@goals.add("search_restaurants", 1.6)
def search_restaurants(b: Bundle, rng: random.Random) -> Ask | None:
    cuisine = rng.choice(sorted({r["cuisine"] for r in b["restaurants"]}))
    matching = [r for r in b["restaurants"] if r["cuisine"] == cuisine]
    if rng.random() < 0.5:
        if not any(r["open_now"] for r in matching):
            return None
        say, detail = rng.choice([(f"Which {cuisine} places are open right now?", None),
                                  (f"I'm craving {cuisine} food. What's open at the moment?", None),
                                  (f"Are any {cuisine} restaurants open now?", None),
                                  (f"I'd like to order in, something {cuisine}. Which places are open right now?",
                                   None)])
        return Ask({"cuisine": cuisine, "open_now": True}, say=say, detail=detail,
                   terse=f"{cuisine} open now?", mentions=(cuisine,),
                   facts=lambda r: [x["name"] for x in r])
    return Ask({"cuisine": cuisine},
               say=rng.choice([f"What {cuisine} restaurants are there, and how are they rated?",
                               f"List the {cuisine} restaurants with their ratings, please.",
                               # no part of the day ("tonight"): the facts are every place of the cuisine,
                               # whatever its hours, so a place that closes before then would still be one
                               f"I'd love some {cuisine} food. Which places do you have, and how is each rated?"]),
               terse=f"{cuisine} restaurants and ratings?", mentions=(cuisine,),
               facts=lambda r: [x for x0 in r for x in (x0["name"], x0["rating"])])


@goals.add("get_restaurant", 1.2)
def get_restaurant(b: Bundle, rng: random.Random) -> Ask | None:
    r = rng.choice(b["restaurants"])
    name, args, refs = r["name"], {"restaurant_id": r["restaurant_id"]}, (_restaurant(r),)
    # The search that finds a restaurant by its name already shows its rating, hours, fee and
    # delivery radius: every question asks for what only the restaurant in full holds (its
    # neighborhood, its minimum order), or the search would answer it and the call would be idle.
    kind = rng.randrange(3)
    if kind == 0:
        return Ask(args, say=rng.choice([f"Which part of town is {name} in?", f"What neighborhood is {name} in?",
                                         f"Where is {name} located? Just the neighborhood, please."]),
                   terse=f"{name}: neighborhood?", refs=refs, mentions=(name,),
                   facts=lambda x: [x["neighborhood"]])
    if kind == 1:
        return Ask(args, say=rng.choice([f"How much is delivery from {name}, and is there a minimum order?",
                                         f"What does {name} charge for delivery? Any minimum?",
                                         f"Before I order from {name}: delivery fee and minimum order?"]),
                   terse=f"{name} delivery fee and minimum?", refs=refs, mentions=(name,),
                   facts=lambda x: [_fee(x["delivery_fee"]), _minimum(x["min_order"])])
    return Ask(args, say=rng.choice([f"How far does {name} deliver, and what's the smallest order it takes?",
                                     f"What's the delivery radius of {name}? And is there a minimum order?"]),
               terse=f"{name}: radius and minimum order?", refs=refs, mentions=(name,),
               facts=lambda x: [quantity(x["delivery_radius_miles"], "mi"), _minimum(x["min_order"])])


@goals.add("get_menu", 0.7)
def get_menu(b: Bundle, rng: random.Random) -> Ask | None:
    r = rng.choice(b["restaurants"])
    name, menu = r["name"], b["menus"][r["restaurant_id"]]
    category = rng.choice(sorted({i["category"] for i in menu}))
    # The section is said as the menu names it ('Dim sum', not 'dim sum'): the gold passes it so, and
    # an agent that copies the user's words into the filter would otherwise differ in letter case.
    say = rng.choice([f"What's in the {category} section of {name}'s menu, and how much is each?",
                      f"Can you show me {name}'s {category} section with prices?",
                      (f"I want something from the {category} section at {name}. What are my options, "
                       f"and their prices?")])
    return Ask({"restaurant_id": r["restaurant_id"], "category": category}, say=say,
               terse=f"{name} menu, {category} section: prices?", refs=(_restaurant(r),), mentions=(name, category),
               facts=lambda x: [v for i in x for v in (i["name"], i["price"])])


@goals.add("check_delivery", 0.7)
def check_delivery(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["addresses"]:
        return None
    r, address = rng.choice(b["restaurants"]), rng.choice(b["addresses"])
    place = _place(address, rng)
    wordings = [
        (f"Can {r['name']} deliver to {place} right now? How far is it?", None),
        (f"Would {r['name']} deliver to {place}? Tell me the distance too.", None),
        (f"Is {place} within {r['name']}'s delivery area? How many miles away is it?", None),
    ]
    # the address is held back only where the customer has others: the one address is told by the look-up
    if len(b["addresses"]) > 1:
        wordings += [
            (f"Does {r['name']} deliver to me? How far away would it be?", f"I'm asking about {place}."),
            (f"I want to know if {r['name']} can reach one of my addresses, and how far it is.", f"It's {place}."),
        ]
    say, detail = rng.choice(wordings)
    return Ask({"restaurant_id": r["restaurant_id"], "address_id": address["address_id"]}, say=say, detail=detail,
               terse=f"{r['name']} to {place}: deliverable, distance?",
               refs=(_restaurant(r), _address(b, address)), mentions=(r["name"],),
               facts=lambda x: [quantity(x["distance_miles"], "mi", places=1)])


@goals.add("list_carts", 0.9)
def list_carts(b: Bundle, rng: random.Random) -> Ask | None:
    if not any(c["role"] in ("keep", "trim") for c in b["carts"]):
        return None
    return Ask({"customer_id": b["customer"]["customer_id"]},
               say=rng.choice(["Which restaurants do I have carts at right now, and what does each come to?",
                               "Which carts do I have open, and what do they come to?",
                               "Remind me which restaurants I've started carts at, with the totals.",
                               "Could you go over my open carts for me, with their totals?"]),
               terse="My carts and subtotals?", refs=(_customer(b),),
               facts=lambda r: [v for c in r for v in (c["restaurant"], c["subtotal"])])


@goals.add("add_to_cart", 0.9)
def add_to_cart(b: Bundle, rng: random.Random) -> Ask | None:
    r = rng.choice(b["restaurants"])
    menu = [i for i in b["menus"][r["restaurant_id"]] if i["available"]]
    if not menu:
        return None
    item = rng.choice(menu)
    quantity = rng.choice((1, 1, 2, 3))
    # one is the tool's default: a gold that passed quantity=1 would not match the natural call without it
    args = {"customer_id": b["customer"]["customer_id"], "item_id": item["item_id"]}
    if quantity > 1:
        args["quantity"] = quantity
    said = dish(item["name"])
    what = some(quantity, said)
    if item["options"] and rng.random() < 0.5:
        option = rng.choice(item["options"])["name"]
        args["option"] = option
        what = f"{what} with the '{option}' option"
    # the quantity is said with the request, never held back: a cart takes one unless told
    if quantity > 1 and rng.random() < 0.5:
        plain = f"{NUMBERS[quantity]} of the {plural(said)}" + (f" with the '{args['option']}' option" if "option" in args else "")
        say = rng.choice([f"I want to add {plain} from {r['name']} to my cart.",
                          f"Can you put {plain} from {r['name']} in my cart?",
                          f"Add {plain} from {r['name']} to my cart, please."])
        detail = None
    else:
        say = rng.choice([f"Please add {what} from {r['name']} to my cart.",
                          f"Put {what} from {r['name']} in my cart, would you?",
                          f"I'd like {what} from {r['name']}. Add {'them' if quantity > 1 else 'it'} to my cart.",
                          f"Can you throw {what} from {r['name']} into my cart?"])
        detail = None
    return Ask(args, say=say, detail=detail, terse=f"Cart: {what}, {r['name']}.",
               refs=(_customer(b), _item(b, item)), mentions=(r["name"], said))


@goals.add("remove_from_cart", 1.3)
def remove_from_cart(b: Bundle, rng: random.Random) -> Ask | None:
    carts = [c for c in b["carts"] if c["role"] == "trim"]
    if not carts:
        return None
    cart = rng.choice(carts)
    line = rng.choice(cart["lines"])
    where = _cart_name(cart, rng)
    food = dish(line["name"])
    # "the onion rings": a dish named in the plural is "them", never "it".
    them = "them" if food.endswith("s") and not food.endswith("ss") else "it"
    say, detail = rng.choice([(f"Take the {food} out of {where}.", None),
                              (f"I changed my mind about the {food}; remove {them} from {where}.", None),
                              (f"Could you drop the {food} from {where}, please?", None),
                              (f"I want to take something out of {where}.", f"The {food}."),
                              (f"There's one thing in {where} I don't want anymore.", f"It's the {food}."),
                              (f"Please remove an item from {where}.", f"Get rid of the {food}.")])
    return Ask({"cart_id": cart["cart_id"], "item_id": line["item_id"]}, say=say, detail=detail,
               terse=f"Remove {food} from {where}.", refs=(_cart(b, cart),), mentions=(food, cart["restaurant"]))


@goals.add("clear_cart", 0.8)
def clear_cart(b: Bundle, rng: random.Random) -> Ask | None:
    carts = [c for c in b["carts"] if c["role"] == "clear"]
    if not carts:
        return None
    cart = rng.choice(carts)
    where = _cart_name(cart, rng)
    return Ask({"cart_id": cart["cart_id"]},
               say=rng.choice([f"Empty {where}; I won't be ordering it.", f"Please clear out {where}.",
                               f"Get rid of everything in {where}, would you?"]),
               terse=f"Clear {where}.", refs=(_cart(b, cart),), mentions=(cart["restaurant"],))


@goals.add("check_promo", 0.8)
def check_promo(b: Bundle, rng: random.Random) -> Ask | None:
    carts = [c for c in b["carts"] if c["role"] == "keep" and c["codes"]]
    if not carts:
        return None
    cart = rng.choice(carts)
    code, where = rng.choice(cart["codes"]), _cart_name(cart, rng)
    say, detail = rng.choice([
        (f"I have a promo code for {where}. How much would it take off?", f"The code is {code}."),
        (f"Would a discount code work on {where}? How much would I save?", f"It's {code}."),
        (f"Can you check a promo code against {where} and tell me the discount?", f"Code: {code}."),
        (f"How much would I save on {where} with {code}?", None),
        (f"Does the code {code} work on {where}? What's the discount?", None),
    ])
    return Ask({"cart_id": cart["cart_id"], "code": code}, say=say, detail=detail,
               terse=f"{code} on {where}: discount?", refs=(_cart(b, cart),), mentions=(code, cart["restaurant"]),
               facts=lambda r: [r["discount"]])


@goals.add("place_order", 1.4)
def place_order(b: Bundle, rng: random.Random) -> Ask | None:
    cart = next((c for c in b["carts"] if c["role"] == "order"), None)
    if cart is None:
        return None
    address = rng.choice(cart["reachable"])
    where, place = _cart_name(cart, rng), _place(address, rng)
    args: dict[str, Any] = {"cart_id": cart["cart_id"], "address_id": address["address_id"]}
    extras, mentions = [], [cart["restaurant"]]
    if cart["codes"] and rng.random() < 0.4:
        code = rng.choice(cart["codes"])
        args["promo_code"] = code
        extras.append(rng.choice([f"Use the code {code}.", f"Apply promo {code}.", f"I have a code: {code}."]))
        mentions.append(code)
    detail, tip_words = None, ""
    if rng.random() < 0.6:
        tip = float(rng.choice((2, 3, 4, 5, 8)))
        args["tip"] = tip
        tip_words = rng.choice([f"Tip the driver {money(tip)}.", f"Add a {money(tip)} tip.",
                                f"And leave {money(tip)} for the courier.", f"Make the tip {money(tip)}."])
    # the tip is said with the request, never held back: an order goes without one unless told (the
    # address, which an order cannot do without, may be)
    # the address is held back only where the customer has others: the one address is told by the look-up
    if len(b["addresses"]) > 1 and rng.random() < 0.5:
        say = rng.choice([f"Please order {where} for me.", f"Go ahead and place {where}.",
                          f"I'm hungry. Can you check out {where}?", f"Time to order {where}, please."])
        detail = rng.choice([f"Deliver it to {place}.", f"Send it to {place}.", f"To {place}, please."])
    else:
        say = rng.choice([f"Please order {where} and have it delivered to {place}.",
                          f"Go ahead and place {where}, delivery to {place}.",
                          f"I'm hungry. Send {where} to {place}, please.",
                          f"Could you check out {where}? Deliver it to {place}."])
    say = f"{say} {tip_words}".strip()
    if extras:
        say = f"{say} {' '.join(extras)}"
    terse = f"Order {where} to {place}." + (f" Code {args['promo_code']}." if "promo_code" in args else "")
    if "tip" in args:
        terse += f" Tip {money(args['tip'])}."
    return Ask(args, say=say, terse=terse, detail=detail, refs=(_cart(b, cart), _address(b, address)),
               mentions=tuple(mentions))


@goals.add("list_orders", 0.9)
def list_orders(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["orders"]:
        return None
    if rng.random() < 0.5:
        # as many as the customer has, up to three: never "my last three orders" of two
        n = min(3, len(b["orders"]))
        said = {3: ("my last three orders", "my three most recent orders", "the last three times", "3 orders"),
                2: ("my last two orders", "my two most recent orders", "the last two times", "2 orders"),
                1: ("my last order", "my most recent order", "last time", "order")}[n]
        return Ask({"customer_id": b["customer"]["customer_id"], "limit": n},
                   say=rng.choice([f"Which restaurant{'s' if n > 1 else ''} did {said[0]} come from?",
                                   f"What {'were' if n > 1 else 'was'} {said[1]}?",
                                   f"Remind me where I ordered from {said[2]}."]),
                   terse=f"My last {said[3]}?", refs=(_customer(b),), facts=lambda r: [o["restaurant"] for o in r])
    delivered = [o for o in b["orders"] if o["status"] == "delivered"]
    if not delivered:
        return None
    # The facts are each order's total: every wording asks for each one ("what did they cost" is
    # answered as well by their sum, which states none of the totals). The read is the whole list,
    # as the look-up of an order reads it, so that a conversation that also tracks, tips or rates an
    # order reads it once (a `status` filter of its own made two reads where one does).
    return Ask({"customer_id": b["customer"]["customer_id"]},
               say=rng.choice(["How many of my orders have been delivered so far, and what did each one cost?",
                               "List my delivered orders with their totals.",
                               "What have I had delivered, and how much was each order?"]),
               terse="Delivered orders and totals?", refs=(_customer(b),),
               facts=lambda r: [o["total"] for o in r if o["status"] == "delivered"][:5])


@goals.add("track_order", 1.2)
def track_order(b: Bundle, rng: random.Random) -> Ask | None:
    orders = [o for o in b["orders"] if o["status"] not in ("delivered", "cancelled")]
    if not orders:
        return None
    order = rng.choice(orders)
    name = _order_name(b, order, rng)
    if name is None:
        return None
    return Ask({"order_id": order["order_id"]},
               say=rng.choice([f"Where's {name}? When will it get here?", f"What's the status of {name}, and when should it arrive?",
                               f"Any update on {name}? I'd like an arrival time.",
                               f"Can you track {name} for me? When is it expected?"]),
               terse=f"Track {name}: stage, ETA?", refs=(_order(b, order),), mentions=(order["restaurant"],),
               facts=lambda r: [_stage(r["status"])] + ([_eta(r["expected_delivery"], b["now"])]
                                                        if "expected_delivery" in r else []))


@goals.add("cancel_order", 1.0)
def cancel_order(b: Bundle, rng: random.Random) -> Ask | None:
    orders = [o for o in b["orders"] if o["role"] == "cancel"]
    if not orders:
        return None
    order = rng.choice(orders)
    name = _order_name(b, order, rng)
    if name is None:
        return None
    return Ask({"order_id": order["order_id"]},
               say=rng.choice([f"Please cancel {name}; I don't need it anymore.", f"Cancel {name}, please.",
                               f"Something came up and I have to leave. Can you cancel {name}?"]),
               terse=f"Cancel {name}.", refs=(_order(b, order),), mentions=(order["restaurant"],))


@goals.add("set_tip", 1.3)
def set_tip(b: Bundle, rng: random.Random) -> Ask | None:
    orders = [o for o in b["orders"] if o["role"] == "tip"]
    if not orders:
        return None
    order = rng.choice(orders)
    name = _order_name(b, order, rng)
    tip = float(rng.choice([t for t in (3, 4, 5, 6, 10) if t != order["tip"]]))
    if name is None:
        return None
    amount = money(tip)
    # a wording that says the tip goes up or down only where the new tip does ("bump up" to $4 from $5 is wrong)
    wordings = [
        (f"I'd like to change the tip on {name}.", f"Set it to {amount}, please."),
        (f"Could you adjust the driver's tip for {name}?", f"Let's say {amount}."),
    ]
    if tip > order["tip"]:
        wordings += [(f"It's pouring outside; I want to raise the tip on {name}.", f"Make it {amount}."),
                     (f"The driver deserves more. Can you bump up the tip on {name}?", f"{amount} sounds right.")]
    else:
        wordings += [(f"I'd like to lower the tip on {name}.", f"Make it {amount}."),
                     (f"I tipped too much on {name}. Can you bring the tip down?", f"{amount} is enough.")]
    say, detail = rng.choice(wordings)
    return Ask({"order_id": order["order_id"], "tip": tip}, say=say, detail=detail,
               terse=f"Tip {amount} on {name}.", refs=(_order(b, order),), mentions=(order["restaurant"],))


@goals.add("rate_order", 1.3)
def rate_order(b: Bundle, rng: random.Random) -> Ask | None:
    orders = [o for o in b["orders"] if o["status"] == "delivered" and o["rating"] is None]
    if not orders:
        return None
    order = rng.choice(orders)
    name = _order_name(b, order, rng)
    if name is None:
        return None
    stars = rng.randint(1, 5)
    said = f"{stars} star" + ("s" if stars != 1 else "")
    say, detail = rng.choice([
        (f"I'd like to rate {name}.", f"{said.capitalize()}."),
        (f"Can I leave a rating on {name}?", f"Give it {stars} out of 5."),
        (f"I want to leave a review for {name}.", f"{said.capitalize()}, please."),
        (f"Let me rate {name}.", f"I'd say {said}."),
    ])
    return Ask({"order_id": order["order_id"], "stars": stars}, say=say, detail=detail,
               terse=f"Rate {name}: {said}.", refs=(_order(b, order),), mentions=(order["restaurant"],))


@goals.add("reorder", 0.8)
def reorder(b: Bundle, rng: random.Random) -> Ask | None:
    menus = b["menus"]
    orders = [o for o in b["orders"] if o["status"] == "delivered"
              and any(i["available"] for i in menus[o["restaurant_id"]] if i["item_id"] in {x["item_id"] for x in o["items"]})]
    if not orders:
        return None
    order = rng.choice(orders)
    name = _order_name(b, order, rng)
    if name is None:
        return None
    return Ask({"order_id": order["order_id"]},
               say=rng.choice([f"{name[:1].upper()}{name[1:]} was delicious. Put it back in my cart so I can get it "
                               "again.",
                               f"Can you fill my cart with {name} again? Just the cart for now.",
                               f"I'd like {name} again; add it all to my cart."]),
               terse=f"Put {name} back in my cart.", refs=(_order(b, order),), mentions=(order["restaurant"],))


# -- introductions ---------------------------------------------------------------------------------

# No introduction names a topic ("calling about my food orders" opened a question about a
# restaurant's delivery range): it is said before every kind of request.
_BY_NAME = ("Hi, this is {name}.", "{name} here.", "Hello! My name is {name}.", "Hey, it's {name}.",
            "Hi there, {name} speaking.", "Good evening, this is {name}.", "Hi! {name} on this account.",
            "The account is under {name}.", "Good day, {name} here.", "Hey! {name} here.",
            "Hi, I'm {name}.", "Hello, it's {name}.", "Hello there, I'm {name} and I use your app a lot.")
_BY_NAME_TERSE = ("{name} here.", "I'm {name}.", "It's {name}.")
_BY_EMAIL = ("Hi, my account email is {email}.", "Hello, I'm the customer with the email {email}.",
             "Hey there, you'll find me under {email}.", "My login is {email}.", "I signed up with {email}.",
             "Hello! The email on my account is {email}.", "You can look me up by {email}.",
             "Hi, it's the {email} account.", "Good afternoon. My email address is {email}.")
_BY_EMAIL_TERSE = ("Account: {email}.", "My email: {email}.", "Me: {email}.")


def _by_name(ref: Ref) -> tuple[str, str]:
    name = ref.entity["name"]
    return (stable(_BY_NAME, "name", ref.key, name).format(name=name),
            stable(_BY_NAME_TERSE, "name terse", ref.key, name).format(name=name))


def _by_email(ref: Ref) -> tuple[str, str]:
    email = ref.entity["email"]
    return (stable(_BY_EMAIL, "email", ref.key, email).format(email=email),
            stable(_BY_EMAIL_TERSE, "email terse", ref.key, email).format(email=email))


# No request asks for the app-wide order counts of the hidden `count_orders`: `find_customers`
# without a name or e-mail lists every customer, and `list_orders` of each, grouped by restaurant,
# adds up to its numbers, so the shown tools answer them (as email's mailbox counts).


# Tools that do one another's job for some request (a restaurant's rating, fee and cuisine show
# in the search): a missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("get_restaurant", "search_restaurants"),
    ("list_cuisines", "search_restaurants"),
    ("track_order", "list_orders"),
    # a cart is emptied as well by taking out each of its lines (one call for a cart of one dish)
    ("clear_cart", "remove_from_cart"),
)


recipe = Recipe(
    server="food_delivery",
    sample=sample,
    topics=("food_delivery",),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("customer", "find_customers", args=lambda r: {"name": r.entity["name"]}, intro=_by_name),
        Lookup("customer", "find_customers", args=lambda r: {"email": r.entity["email"]}, intro=_by_email),
        Lookup("restaurant", "search_restaurants", args=lambda r: {"name": r.entity["name"]}),
        Lookup.under("item", "get_menu"),
        Lookup.under("address", "list_addresses"),
        Lookup.under("cart", "list_carts"),
        Lookup.under("order", "list_orders"),
    ),
)
