"""How tasks are written for the store: customers who introduce themselves by name or email and
refer to products by name (with a colour and size for a variant), to orders by the day they were
placed and what was in them, to addresses by their label and to cards by brand and last digits.

Each bundle is one customer with their cart, orders, addresses, payment methods and wishlist, plus
the shared catalog. So that every request of a conversation still succeeds after the earlier ones,
a bundle fixes some roles when it is sampled: which cart line may be changed and which removed,
the one coupon the customer uses, the address they would add, and whether they check out (a
customer who checks out does not edit the cart in other requests, since checkout empties it)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from typing import Any

from prove_env.facts import NOTHING, one_of, quantity
from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import day, listing, money, stable

Bundle = dict[str, Any]

NEW_ADDRESSES = (("Work", "200 Market Street, Suite 400", "San Francisco", "CA", "94105"),
                 ("Office", "1 Congress Street, Floor 3", "Boston", "MA", "02114"),
                 ("Lake house", "48 Birch Lane", "Traverse City", "MI", "49684"),
                 ("Cabin", "7 Ridge Road", "Bend", "OR", "97701"),
                 ("Studio", "315 Pine Avenue, Unit 2", "Austin", "TX", "78704"),
                 ("Parents", "92 Maple Drive", "Columbus", "OH", "43215"))
RETURN_REASONS = ("Too small", "Too big", "Not as described", "Arrived damaged", "Changed my mind",
                  "Colour looks different")
# reasons said only of an item they fit: a size of one that has a size, a colour of one that has a colour
# (never "too small" of headphones)
SIZE_REASONS, COLOUR_REASONS = ("Too small", "Too big"), ("Colour looks different",)
VALID_COUPONS = ("WELCOME10", "SAVE15", "SHOES20", "TECH25", "HOME10", "OUTDOOR30", "GLOW5", "STYLE25")
ALL_COUPONS = VALID_COUPONS + ("SUMMER20", "SPRING15", "FLASH50", "BOOTS40")
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every customer whose name finds only them, with their cart, orders, addresses, payment
    methods and wishlist, and the roles their requests may play."""
    products = read("search_products", limit=100)
    details = {p["product_id"]: read("get_product", product_id=p["product_id"]) for p in products}
    categories = read("list_categories")
    coupons = {code: read("get_coupon", code=code) for code in ALL_COUPONS}
    bundles = []
    for customer in read("find_customers", limit=100):
        cid = customer["customer_id"]
        if len(read("find_customers", name=customer["name"])) != 1:
            continue
        cart = read("get_cart", customer_id=cid)
        orders = [read("get_order", order_id=o["order_id"]) for o in read("list_orders", customer_id=cid)]
        b: Bundle = {
            "now": now, "customer": customer, "cart": cart, "orders": orders,
            "addresses": read("list_addresses", customer_id=cid),
            "methods": read("list_payment_methods", customer_id=cid),
            "wishlist": read("get_wishlist", customer_id=cid),
            "reviews": read("list_customer_reviews", customer_id=cid),
            "products": products, "details": details, "categories": categories, "coupons": coupons,
        }
        lines = list(cart["items"])
        rng.shuffle(lines)
        b["line_update"] = lines[0] if lines else None
        b["line_remove"] = lines[1] if len(lines) > 1 else None
        b["checkout"] = bool(lines) and rng.random() < 0.45
        b["coupon"] = _coupon_for(b, rng)
        b["new_address"] = rng.choice([a for a in NEW_ADDRESSES
                                       if a[0].lower() not in {x["label"].lower() for x in b["addresses"]}])
        # whether applying the coupon asks for the new total: a cart total asked after it would ask again
        # (drawn apart, from the customer and the coupon: the draws of the other roles stay as they were)
        b["coupon_total"] = b["coupon"] is not None and random.Random(
            f"{cid} {b['coupon']['code']} {cart['subtotal']}").random() < 0.25
        bundles.append(b)
    return bundles


def _worst_cart(b: Bundle) -> list[tuple[str, float]]:
    """The cart's (category, line total) lines after the smallest the other requests could leave it."""
    lines = []
    for item in b["cart"]["items"]:
        if b["line_remove"] and item["variant_id"] == b["line_remove"]["variant_id"]:
            continue
        quantity = 1 if b["line_update"] and item["variant_id"] == b["line_update"]["variant_id"] else item["quantity"]
        category = b["details"][item["product_id"]]["category"]
        lines.append((category, item["unit_price"] * quantity))
    return lines


def _coupon_for(b: Bundle, rng: random.Random) -> dict | None:
    """A coupon that stays valid on this cart whatever the other requests do to it, if any."""
    lines = _worst_cart(b)
    fitting = []
    for code in VALID_COUPONS:
        c = b["coupons"][code]
        base = sum(amount for category, amount in lines if c["category"] in (None, category))
        if base > 0 and base >= c["min_spend"] and c["code"] != b["cart"]["coupon"]:
            fitting.append(c)
    return rng.choice(fitting) if fitting else None


# -- how people name things ------------------------------------------------------------------------

def _customer(b: Bundle) -> Ref:
    return Ref.of("customer", b["customer"])


def _product(p: dict) -> Ref:
    return Ref.of("product", p)


def _variant(b: Bundle, product_id: str, variant: dict) -> Ref:
    return Ref.of("variant", variant, _product(b["details"][product_id]))


def variant_words(variant: dict) -> str:
    """'in navy, size M' / 'in black' / 'in size 9' / '' (a single-variant product)."""
    colour, size = variant.get("colour"), variant.get("size")
    parts = []
    if colour:
        parts.append(f"in {colour.lower()}")
    if size:
        parts.append(f"size {size}" if colour else f"in size {size}")
    return ", ".join(parts)


def _the(b: Bundle, product_id: str, variant: dict) -> str:
    """'the Northpeak Signature Rain Jacket in navy, size M'."""
    name = b["details"][product_id]["name"]
    words = variant_words(variant) if len(b["details"][product_id]["variants"]) > 1 else ""
    return f"the {name} {words}".strip()


def _it(name: str, many: bool = False) -> str:
    """The pronoun for a product said by name: 'them' for 'the Stride Classic Hiking Boots' (a name
    whose last word is a plural, such as Boots, Pants, Earbuds) or for more than one of it, else 'it'."""
    last = name.split()[-1]
    return "them" if many or (last.endswith("s") and not last.endswith("ss")) else "it"


def _goods(category: str) -> str:
    """A category said as the things in it: 'shoes', 'electronics', but 'beauty products' (never
    'what beauty do you have')."""
    said = category.lower()
    return said if said in ("clothing", "shoes", "electronics") else f"{said} products"


def _order_words(order: dict) -> str:
    placed = dt.date.fromisoformat(order["placed_at"][:10])
    return f"my order from {day(placed)}"


def _method_words(method: dict) -> str:
    if method["kind"] == "card":
        return f"my {method['brand']} ending in {method['last4']}"
    if method["kind"] == "paypal":
        return "my PayPal account"
    return f"my gift card ending in {method['last4']}"


def _pick(rng: random.Random, says: Sequence[str], terses: Sequence[str]) -> dict[str, str]:
    return {"say": rng.choice(list(says)), "terse": rng.choice(list(terses))}


def _stars(n: int) -> str:
    return "one star" if n == 1 else f"{NUMBER_WORDS[n]} stars"


def _order_ref(b: Bundle, order: dict) -> Ref:
    """The order, found through the customer's order list, which shows every order's products by id
    (`listed`: what its look-up settles)."""
    return Ref("order", order["order_id"], {**order, "listed": _products_of(b["orders"])}, _customer(b))


def _unique_day(b: Bundle, order: dict) -> bool:
    placed = order["placed_at"][:10]
    return sum(o["placed_at"][:10] == placed for o in b["orders"]) == 1


def _today(b: Bundle) -> dt.date:
    return b["now"].date()


def _products_of(orders: Sequence[dict]) -> tuple[tuple[str, str], ...]:
    """The products an order listing or an order's details show by id beside their names (`settles`)."""
    return tuple(dict.fromkeys(("product", i["product_id"]) for o in orders for i in o["items"]))


def _returnable(b: Bundle) -> list[tuple[dict, dict]]:
    out = []
    for order in b["orders"]:
        if order["status"] != "delivered" or not _unique_day(b, order):
            continue
        if dt.date.fromisoformat(order["return_by"]) < _today(b):
            continue
        out += [(order, item) for item in order["items"] if item["quantity"] > item["returned_quantity"]]
    return out


# A zero said the way people say it: a coupon with "no minimum" spend, "free" standard shipping, a gift
# card with "nothing left" (a bare 0 is right too).
_NO_MINIMUM = ("no minimum", "no min", "isn't a minimum", "is not a minimum", "isn't any minimum",
               "doesn't have a minimum", "does not have a minimum", "without a minimum", "no spend",
               "any amount", "any order", "don't have to spend", "do not have to spend", "don't need to spend",
               "do not need to spend", "none")
_FREE = ("free", "no charge", "no shipping fee", "no fee", "nothing", "doesn't cost", "does not cost")
_EMPTY = ("nothing left", "no balance", "empty", "used up", "nothing on it", "none left", "no money left",
          "no funds")


def _zero(amount: float, *words: str) -> Any:
    """An amount as a fact: a zero is also stated by the words people say for it."""
    return one_of(amount, *words) if amount == 0 else amount


# -- goals: the catalog ------------------------------------------------------------------------------

goals = Goals()


@goals.add("search_products", 1.2)
def search_products(b: Bundle, rng: random.Random) -> Ask | None:
    category = rng.choice(b["categories"])["category"]
    in_cat = [p for p in b["products"] if p["category"] == category]
    prices = sorted(p["price"] for p in in_cat)
    cap = float(rng.choice([50, 75, 100, 150, 200, 250]))
    cheap = [p for p in in_cat if p["price"] <= cap]
    said, goods = category.lower(), _goods(category)
    # 'shoes' alone, never 'shoes items' or 'shoes products'
    items, products = ("shoes", "shoes") if said == "shoes" else (f"{said} items", f"{said} products")
    mode = rng.randrange(3)
    if mode == 0 and 1 <= len(cheap) <= 8:
        args = {"category": category, "max_price": cap, "in_stock": True, "sort": "price_low"}
        # the budget is said with the request, never held back: the search runs without one (an
        # assistant would rightly list the cheapest at once, not ask for a price cap)
        return Ask(args, **_pick(rng, [f"What {goods} do you have in stock for {money(cap)} or less? Cheapest first.",
                                       f"I'm on a budget. Show me {items} under {money(cap)} that are in stock, "
                                       f"lowest price first.",
                                       f"Could you find in-stock {products} at or below {money(cap)}, sorted by "
                                       f"price?",
                                       f"Anything in {said} up to {money(cap)} that I can actually buy now? Cheapest "
                                       f"first, please.",
                                       f"I'm shopping for {goods} on a budget of {money(cap)} at most. What's in "
                                       f"stock, lowest price first?"],
                                  [f"In-stock {said} under {money(cap)}, cheapest first?"]),
                   # every product the search finds is asked for ("what ... do you have"), not the first three
                   mentions=(money(cap),), facts=lambda r: [p["name"] for p in r] or [NOTHING])
    if mode == 1:
        rating = rng.choice([4.0, 4.5])
        args = {"category": category, "min_rating": rating, "sort": "rating"}
        # sorted by rating: every wording asks for the best first (an agent that lists them
        # without an order would otherwise be right and lose the call)
        return Ask(args, **_pick(rng, [f"Which {products} are rated {rating:g} stars or higher? Best-rated "
                                       f"first, please.",
                                       f"Show me the best-reviewed {items}, {rating:g} stars and up, top-rated "
                                       f"first.",
                                       f"I only buy well-reviewed stuff. Anything in {said} with at least {rating:g} "
                                       f"stars? Highest rated first."],
                                  [f"{category} rated {rating:g}+, best first?"]),
                   mentions=(f"{rating:g}",), facts=lambda r: [p["name"] for p in r] or [NOTHING])
    if not prices:
        return None
    return Ask({"category": category, "sort": "price_high", "limit": 3},
               **_pick(rng, [f"What are the three most expensive {products} you sell?",
                             f"Show me your top three {items} by price, priciest first.",
                             f"I'm after something premium in {said}. What are the three priciest options?"],
                       [f"Three priciest {items}?"]),
               mentions=("three",), facts=lambda r: [p["name"] for p in r[:3]])


@goals.add("search_products", 0.6)
def price_and_rating(b: Bundle, rng: random.Random) -> Ask | None:
    """A product's price and rating: the search lists both, so no other call is needed (a product
    nobody has reviewed has no rating to tell)."""
    reviewed = [p for p in b["products"] if p["review_count"] > 0]
    if not reviewed:
        return None
    product = rng.choice(reviewed)
    name, pid = product["name"], product["product_id"]
    its = "their" if _it(name) == "them" else "its"
    return Ask({"query": name}, **_pick(rng, [f"What's the price of the {name}, and {its} rating?",
                                              f"What do you charge for the {name}? And what's {its} average rating?",
                                              f"I'm looking at the {name}. Price and rating, please."],
                                         [f"{name}: price and rating?"]),
               mentions=(name,),
               facts=lambda r: [x for p in r if p["product_id"] == pid for x in (p["price"], p["rating"])])


def _stock(detail: dict, variant: dict) -> Any:
    """How many of a variant are left; none is also said as 'out of stock'."""
    left = next(v["stock"] for v in detail["variants"] if v["variant_id"] == variant["variant_id"])
    return left if left else one_of(0, "out of stock", "sold out", "none left", "not in stock", "unavailable",
                                    "not available")


@goals.add("get_product", 1.0)
def get_product(b: Bundle, rng: random.Random) -> Ask | None:
    product = rng.choice(b["products"])
    detail = b["details"][product["product_id"]]
    name = product["name"]
    args, refs = {"product_id": product["product_id"]}, (_product(product),)
    variants = detail["variants"]
    # a count the product's search listing also shows (its review count, a whole price or rating) would
    # read as already told by the search, and the gates would drop the get_product that tells the stock
    listed = {product.get(k) for k in ("review_count", "rating", "price")}
    if len(variants) == 1:
        only = variants[0]
        if only["stock"] in listed:
            return None
        return Ask(args, **_pick(rng, [f"How many of the {name} do you have left?",
                                       f"Can you check how many of the {name} are in stock?",
                                       f"Before I order, how many {name} units do you have?"],
                                  [f"Stock of {name}?"]),
                   refs=refs, mentions=(name,), facts=lambda r: [_stock(r, only)])
    if rng.random() < 0.6:
        variant = rng.choice(variants)
        if variant["stock"] in listed:
            return None
        words = variant_words(variant)
        if rng.random() < 0.4:
            return Ask(args, say=rng.choice([f"How many of the {name} do you have left?",
                                             f"Can you check your stock of the {name}?"]),
                       terse=f"Stock of {name} {words}?",
                       detail=rng.choice([f"The one {words}.", f"I mean {words}.", f"{words[:1].upper()}{words[1:]}."]),
                       refs=refs, mentions=(name,), facts=lambda r: [_stock(r, variant)])
        return Ask(args, **_pick(rng, [f"Do you have the {name} {words} in stock? How many?",
                                       f"Can you tell me how many of the {name} {words} are left?",
                                       f"How many of the {name} {words} do you have right now?",
                                       f"Before I order, can you check stock of the {name} {words}?"],
                                  [f"Stock of {name} {words}?"]),
                   refs=refs, mentions=(name,), facts=lambda r: [_stock(r, variant)])
    return Ask(args, **_pick(rng, [f"Which versions of the {name} are in stock?",
                                   f"What colours or sizes of the {name} can I order today?",
                                   f"Could you tell me which options of the {name} you still have?"],
                              [f"{name} options in stock?"]),
               refs=refs, mentions=(name,), facts=_options)


def _options(detail: dict) -> list[Any]:
    """Every colour and every size that some variant in stock comes in, or none at all. Not the first
    few: a full answer ("red and black in 7, 8, 9 and 11; olive in 7, 9 and 11") names sizes that the
    first few leave out, and a number listed among others the facts do not hold reads as a guess."""
    said = list(dict.fromkeys(x for v in detail["variants"] if v["stock"] > 0
                              for x in (v["colour"], v["size"]) if x))
    return said or [one_of("none", "out of stock", "sold out", "not in stock", "unavailable", "not available")]


@goals.add("list_reviews", 0.8)
def list_reviews(b: Bundle, rng: random.Random) -> Ask | None:
    reviewed = [p for p in b["products"] if p["review_count"] > 0]
    if not reviewed:
        return None
    product = rng.choice(reviewed)
    name = product["name"]
    return Ask({"product_id": product["product_id"], "limit": 3},
               **_pick(rng, [f"What do the latest three reviews of the {name} say? Just their headlines.",
                             f"Could you read me the titles of the three newest reviews for the {name}?",
                             f"I'm on the fence about the {name}. What are the last three reviews titled?"],
                       [f"Titles of the last three reviews of {name}?"]),
               refs=(_product(product),), mentions=(name, "three"), facts=lambda r: [x["title"] for x in r])


@goals.add("list_categories", 0.4)
def list_categories(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.25:
        return Ask({}, say="How many products are in each of your categories?", terse="How many products per category?",
                   facts=lambda r: [x for c in r for x in (c["category"], c["product_count"])])
    return Ask({}, **_pick(rng, ["What categories of products does the store sell?",
                                 "Which departments do you have? Just the category names.",
                                 "What kinds of things can I shop for here, by category?"],
                           ["Product categories?", "List categories."]),
               facts=lambda r: [c["category"] for c in r])


@goals.add("list_brands", 0.5)
def list_brands(b: Bundle, rng: random.Random) -> Ask | None:
    category = rng.choice(b["categories"])["category"]
    said = category.lower()
    return Ask({"category": category},
               **_pick(rng, [f"Which brands do you carry in {said}?",
                             f"What {said} brands can I choose from?",
                             f"I'm brand-loyal. Which labels do you stock for {said}?"],
                       [f"Brands in {said}?"]),
               mentions=(said,), facts=lambda r: [x["brand"] for x in r])


@goals.add("get_coupon", 0.7)
def get_coupon(b: Bundle, rng: random.Random) -> Ask | None:
    # not the code the customer applies in another request: the two would say it twice
    code = rng.choice([c for c in ALL_COUPONS if not b["coupon"] or c != b["coupon"]["code"]])
    coupon = b["coupons"][code]
    if rng.random() < 0.35:
        say = rng.choice(["I have a coupon code. Can you tell me whether it's still valid and when it expires?",
                          "Could you check a promo code for me? I'd like its expiry date."])
        detail = rng.choice([f"The code is {code}.", f"It's {code}.", f"Code {code}."])
        if say.endswith("expiry date."):  # the expiry date alone is asked
            return Ask({"code": code}, say=say, terse=f"Expiry of {code}?", detail=detail, mentions=(code,),
                       facts=lambda r: [r["expires_on"]])
        return Ask({"code": code}, say=say, terse=f"Still valid? Expiry of {code}?", detail=detail, mentions=(code,),
                   facts=_coupon_validity)
    if coupon["expired"]:
        return Ask({"code": code}, **_pick(rng, [f"Is the coupon {code} still good? When does it expire?",
                                                 f"I found the code {code} in an old email. Can I still use it, and "
                                                 f"what's its expiry date?",
                                                 f"Does {code} still work, and what's its expiry date?"],
                                            [f"{code} still valid? Expiry?"]),
                   mentions=(code,), facts=_coupon_validity)
    return Ask({"code": code}, **_pick(rng, [f"What does the coupon {code} give me, and is there a minimum spend?",
                                             f"How much off is {code}, and what do I have to spend to use it?",
                                             f"Can you explain the terms of coupon {code}? Discount and minimum."],
                                        [f"Terms of {code}?"]),
               mentions=(code,), facts=_coupon_terms)


# Whether a coupon can still be used, said in words: "Is it still good? When does it expire?" was checked
# by the date alone, so "Yes, it's still good until July 6" of a coupon that expired July 6 passed.
_VALID_WORDS = ("valid", "still good", "still works", "still work", "still use", "can use", "can be used",
                "good until", "good through", "good till", "active", "usable", "not expired", "hasn't expired",
                "has not expired", "not yet expired", "unexpired", "expires", "will expire", "won't expire until",
                "doesn't expire until", "does not expire until")
_EXPIRED_WORDS = ("expired", "no longer", "ended", "invalid", "not valid", "isn't valid", "is not valid",
                  "not good", "isn't good", "can't use", "cannot use", "can't be used", "cannot be used",
                  "can not be used", "not usable", "out of date", "lapsed", "too late")


def _coupon_validity(r: dict) -> list[Any]:
    """A coupon's expiry date and whether it can still be used, asked together."""
    return [r["expires_on"], one_of(*(_EXPIRED_WORDS if r["expired"] else _VALID_WORDS))]


def _coupon_terms(r: dict) -> list[Any]:
    """A coupon's discount and minimum spend, each with its unit ('$5 off', '10% off'): a bare 5 would
    take the '3' of '2 to 3 business days' and the '6' of 'June 6' elsewhere in the conversation for
    rivals, and a right answer would read as a guess."""
    value = quantity(r["value"], "%" if r["kind"] == "percent" else "USD")
    minimum = r["min_spend"]
    return [value, one_of(quantity(0.0, "USD"), *_NO_MINIMUM) if minimum == 0 else quantity(minimum, "USD")]


# -- goals: the cart ---------------------------------------------------------------------------------

def _cart_editable(b: Bundle) -> bool:
    return not b["checkout"]


@goals.add("get_cart", 0.8)
def get_cart(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["cart"]["items"] or not _cart_editable(b):
        return None
    args, refs = {"customer_id": b["customer"]["customer_id"]}, (_customer(b),)
    mode = rng.randrange(3)
    if mode == 2 and b["coupon_total"]:
        # 'Use coupon WELCOME10 on my cart, please, and tell me the new total.' told it: the cart's
        # total asked in the same conversation would be the same question twice
        mode = rng.randrange(2)
    if mode == 0:  # what is in it too: its products are facts beside the subtotal
        return Ask(args, **_pick(rng, ["What's in my cart right now, and what's the subtotal?",
                                       "I forgot what I put in my cart. What's in it, and what's the subtotal so far?"],
                                 ["What's in my cart, and the subtotal?"]),
                   refs=refs, facts=lambda r: [*dict.fromkeys(i["name"] for i in r["items"][:4]), r["subtotal"]])
    if mode == 1:
        return Ask(args, **_pick(rng, ["Can you tell me my cart's subtotal before shipping?",
                                       "What's the subtotal of my cart so far?"],
                                 ["Cart subtotal?"]),
                   refs=refs, facts=lambda r: [r["subtotal"]])
    # a 'total' is the subtotal, the subtotal less the coupon, or that with the tax: each is right
    return Ask(args, **_pick(rng, ["What does my shopping cart come to at the moment?",
                                   "What's my cart total right now?"],
                             ["My cart total?"]),
               refs=refs, facts=_cart_total)


def _cart_total(cart: dict) -> list[Any]:
    """A cart's total: its subtotal, that less the coupon, or that with the tax (each said once)."""
    totals = (cart["subtotal"], round(cart["subtotal"] - cart["discount"], 2), cart["total_before_shipping"])
    return [one_of(*dict.fromkeys(totals))]


@goals.add("add_to_cart", 1.5)
def add_to_cart(b: Bundle, rng: random.Random) -> Ask | None:
    in_cart = {i["variant_id"] for i in b["cart"]["items"]}
    product = rng.choice(b["products"])
    detail = b["details"][product["product_id"]]
    variants = [v for v in detail["variants"] if v["stock"] >= 4 and v["variant_id"] not in in_cart]
    if not variants:
        return None
    variant = rng.choice(variants)
    quantity = rng.choice([1, 1, 1, 2])
    what = _the(b, product["product_id"], variant)
    count = "" if quantity == 1 else "two of "
    them = _it(detail["name"], quantity > 1)
    args = {"customer_id": b["customer"]["customer_id"], "variant_id": variant["variant_id"], "quantity": quantity}
    if quantity == 1:
        del args["quantity"]
    refs = (_customer(b), _variant(b, product["product_id"], variant))
    words = variant_words(variant)
    if words and len(detail["variants"]) > 1 and rng.random() < 0.5:
        name = detail["name"]
        return Ask(args, say=rng.choice([f"Please add {count}the {name} to my cart.",
                                         f"I'd like {count}the {name} in my cart.",
                                         f"Could you put {count}the {name} in my basket?"]),
                   terse=f"Add {count}{what} to cart.",
                   # two sneakers, or a pair of boots, are 'the ones' and 'them', never 'make it'
                   detail=rng.choice([f"The {'ones' if them == 'them' else 'one'} {words}.",
                                      f"I want {them} {words}.", f"Make {them} {words}."]),
                   refs=refs, mentions=(name,))
    return Ask(args, **_pick(rng, [f"Please add {count}{what} to my cart.",
                                   f"Could you put {count}{what} in my cart?",
                                   f"I'd like to buy {count}{what}. Add {them} to my cart, please.",
                                   f"Throw {count}{what} into my cart for me.",
                                   f"Can I get {count}{what} added to my basket?"],
                              [f"Add {count}{what} to cart."]),
               refs=refs, mentions=(detail["name"],))


def _cart_first(customer_id: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    """A line of the customer's cart is found in the cart, which lists each line's variant: one
    read, where the catalog would take a search and the product's variants."""
    return (("get_cart", {"customer_id": customer_id}),)


@goals.add("update_cart_item")
def update_cart_item(b: Bundle, rng: random.Random) -> Ask | None:
    line = b["line_update"]
    if line is None or not _cart_editable(b):
        return None
    choices = [q for q in (1, 2, 3) if q != line["quantity"] and q <= line["in_stock"]]
    if not choices:
        return None
    quantity = rng.choice(choices)
    what = _the(b, line["product_id"], line)
    words = NUMBER_WORDS[quantity]
    cid = b["customer"]["customer_id"]
    if rng.random() < 0.5:
        return Ask({"customer_id": cid, "variant_id": line["variant_id"], "quantity": quantity},
                   say=rng.choice([f"I need to change how many of {what} are in my cart.",
                                   f"Could you adjust the quantity of {what} in my cart?"]),
                   terse=f"Make it {words} of {what} in my cart.",
                   detail=rng.choice([f"Make it {words}.", f"I want {words} in total.", f"Set it to {words}."]),
                   refs=(_customer(b),), mentions=(words,), prior=_cart_first(cid))
    return Ask({"customer_id": cid, "variant_id": line["variant_id"], "quantity": quantity},
               **_pick(rng, [f"Change the quantity of {what} in my cart to {words}.",
                             f"I want {words} of {what} in my cart, not {NUMBER_WORDS.get(line['quantity'], line['quantity'])}.",
                             f"Could you set {what} in my cart to a quantity of {words}?",
                             f"Please make it {words} of {what} in my cart."],
                       [f"Make it {words} of {what} in my cart."]),
               refs=(_customer(b),), mentions=(words,), prior=_cart_first(cid))


@goals.add("remove_from_cart")
def remove_from_cart(b: Bundle, rng: random.Random) -> Ask | None:
    line = b["line_remove"]
    if line is None or not _cart_editable(b):
        return None
    what = _the(b, line["product_id"], line)
    it = _it(b["details"][line["product_id"]]["name"])
    return Ask({"customer_id": b["customer"]["customer_id"], "variant_id": line["variant_id"]},
               **_pick(rng, [f"Please take {what} out of my cart.",
                             f"I changed my mind about {what}; remove {it} from my cart.",
                             f"Could you delete {what} from my cart?",
                             f"Drop {what} from my basket, please."],
                       [f"Remove {what} from cart."]),
               refs=(_customer(b),), prior=_cart_first(b["customer"]["customer_id"]))


@goals.add("apply_coupon", 1.2)
def apply_coupon(b: Bundle, rng: random.Random) -> Ask | None:
    coupon = b["coupon"]
    if coupon is None or not _cart_editable(b):
        return None
    code, cid = coupon["code"], b["customer"]["customer_id"]
    prior = (("remove_coupon", {"customer_id": cid}),) if b["cart"]["coupon"] else ()
    swap = f" instead of {b['cart']['coupon']}" if prior else ""
    if rng.random() < 0.5:
        return Ask({"customer_id": cid, "code": code},
                   say=rng.choice([f"I have a coupon code I'd like to use on my cart{swap}.",
                                   f"Can you apply a promo code to my cart{swap}?",
                                   f"I got a discount code by email; please put it on my cart{swap}."]),
                   terse=f"Apply {code}{swap}.",
                   detail=rng.choice([f"The code is {code}.", f"It's {code}.", f"Code: {code}."]),
                   refs=(_customer(b),), mentions=(code,), prior=prior)
    if b["coupon_total"]:
        return Ask({"customer_id": cid, "code": code},
                   say=f"Use coupon {code} on my cart{swap}, please, and tell me the new total.",
                   terse=f"Apply {code}{swap}. New total?", refs=(_customer(b),), mentions=(code,), prior=prior,
                   facts=lambda r: [one_of(r["total_before_shipping"], round(r["subtotal"] - r["discount"], 2))])
    return Ask({"customer_id": cid, "code": code},
               **_pick(rng, [f"Please apply the coupon {code} to my cart{swap}.",
                             f"I have a code, {code}. Can you use it on my cart{swap}?",
                             f"Could you put the promo code {code} on my cart{swap}?"],
                       [f"Apply {code}{swap}."]),
               refs=(_customer(b),), mentions=(code,), prior=prior)


@goals.add("remove_coupon", 0.6)
def remove_coupon(b: Bundle, rng: random.Random) -> Ask | None:
    code = b["cart"]["coupon"]
    if not code or not _cart_editable(b) or b["coupon"] is not None:
        return None
    return Ask({"customer_id": b["customer"]["customer_id"]},
               **_pick(rng, [f"Please take the {code} coupon off my cart; I'm saving it for later.",
                             f"Remove coupon {code} from my cart.",
                             f"I don't want to use {code} on this order. Can you remove it?"],
                       [f"Remove coupon {code}."]),
               refs=(_customer(b),), mentions=(code,))


@goals.add("list_shipping_options", 0.5)
def list_shipping_options(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["cart"]["items"] or not _cart_editable(b):
        return None
    method = rng.choice(["standard", "express", "overnight"])
    return Ask({"customer_id": b["customer"]["customer_id"]},
               **_pick(rng, [f"How much would {method} shipping cost for my cart?",
                             f"If I chose {method} delivery for what's in my cart, what's the shipping fee?",
                             f"What do you charge for {method} shipping on my current cart?"],
                       [f"{method.capitalize()} shipping cost for my cart?"]),
               refs=(_customer(b),), mentions=(method,),
               facts=lambda r: [_zero(next(o["cost"] for o in r if o["method"] == method), *_FREE)])


# -- goals: addresses, payment, checkout ---------------------------------------------------------------

@goals.add("list_addresses", 0.4)
def list_addresses(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["addresses"]:
        return None
    args, refs = {"customer_id": b["customer"]["customer_id"]}, (_customer(b),)
    mode = rng.randrange(3)
    if mode == 0:  # the default first: the listing puts it there
        return Ask(args, **_pick(rng, ["What's my default delivery address?", "Where do my orders ship by default?"],
                                 ["My default address?"]),
                   refs=refs, facts=lambda r: [r[0]["street"], r[0]["city"]])
    if mode == 1:  # an address said by its label or its street
        # never 'which one is the default?' beside them: no fact could check that answer
        return Ask(args, say="Which shipping addresses do I have saved?",
                   terse="My saved addresses?", refs=refs,
                   facts=lambda r: [one_of(a["label"], a["street"]) for a in r[:4]])
    return Ask(args, **_pick(rng, ["Could you read back the addresses on my account?",
                                   "What street addresses do I have on file?"],
                             ["My addresses?"]),
               refs=refs, facts=lambda r: [a["street"] for a in r[:4]])


@goals.add("add_address", 0.8)
def add_address(b: Bundle, rng: random.Random) -> Ask | None:
    label, street, city, state, zip_code = b["new_address"]
    args = {"customer_id": b["customer"]["customer_id"], "label": label, "street": street, "city": city,
            "state": state, "zip_code": zip_code}
    full = f"{street}, {city}, {state} {zip_code}"
    another = "another" if b["addresses"] else "an"  # 'another' only beside a saved address
    if rng.random() < 0.5:
        return Ask(args, say=rng.choice([f"I'd like to save a new shipping address, called '{label}'.",
                                         f"Please add {another} address to my account; label it {label}."]),
                   terse=f"New address '{label}': {full}.",
                   detail=rng.choice([f"It's {full}.", f"The address is {full}.", f"{full}."]),
                   refs=(_customer(b),), mentions=(label, street, city, zip_code))
    return Ask(args, **_pick(rng, [f"Please save a new address called '{label}': {full}.",
                                   f"Add an address to my account, labelled {label}: {full}.",
                                   f"I'd like to ship things to {full} sometimes. Save it as '{label}', please.",
                                   f"Can you store {full} as my {label} address?"],
                              [f"New address '{label}': {full}."]),
               refs=(_customer(b),), mentions=(label, street, city, zip_code))


@goals.add("list_payment_methods", 0.4)
def list_payment_methods(b: Bundle, rng: random.Random) -> Ask | None:
    gift = [m for m in b["methods"] if m["kind"] == "gift_card"]
    if gift and rng.random() < 0.6:
        return Ask({"customer_id": b["customer"]["customer_id"]},
                   **_pick(rng, ["How much is left on my gift card?", "What's my gift card balance?",
                                 "Could you check the remaining balance on my store gift card?"],
                           ["Gift card balance?"]),
                   refs=(_customer(b),),
                   facts=lambda r: [_zero(m["balance"], *_EMPTY) for m in r if m["kind"] == "gift_card"])
    cards = [m for m in b["methods"] if m["kind"] == "card"]
    if not cards:
        return None
    return Ask({"customer_id": b["customer"]["customer_id"]},
               **_pick(rng, ["Which cards do I have saved? Give me the last four digits.",
                             "What cards are on my account? Just the last four digits of each.",
                             "Can you list my saved cards by their last four digits?"],
                       ["Saved cards, last four digits?"]),
               refs=(_customer(b),), facts=lambda r: [m["last4"] for m in r if m["kind"] == "card"])


def _payable(b: Bundle) -> list[dict]:
    return [m for m in b["methods"] if (m["kind"] == "card" and not m["expired"]) or m["kind"] == "paypal"]


def _could_pay(b: Bundle) -> list[dict]:
    """The customer's payment methods that could pay the cart: the cards and PayPal that pay any order,
    and a gift card whose balance covers the cart's total before shipping."""
    total = b["cart"]["total_before_shipping"]
    return _payable(b) + [m for m in b["methods"] if m["kind"] == "gift_card" and (m.get("balance") or 0) >= total]


@goals.add("checkout", 2.0)
def checkout(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["checkout"] or not b["addresses"] or not _payable(b):
        return None
    cid = b["customer"]["customer_id"]
    address, method = rng.choice(b["addresses"]), rng.choice(_payable(b))
    shipping = rng.choice(["standard", "standard", "express", "overnight"])
    to = f"my {address['label']} address" if address["label"] != "Mom's place" else "my mom's place"
    pay = _method_words(method)
    args = {"customer_id": cid, "address_id": address["address_id"], "payment_method_id": method["payment_method_id"],
            "shipping_method": shipping}
    prior, with_code, mentions = (), "", [shipping]
    coupon = b["coupon"]
    if coupon is not None and not b["cart"]["coupon"] and rng.random() < 0.5:
        prior = (("apply_coupon", {"customer_id": cid, "code": coupon["code"]}),)
        with_code = f" with the coupon {coupon['code']}"
        mentions.append(coupon["code"])
    if method.get("last4"):
        mentions.append(method["last4"])
    refs = (_customer(b), Ref.of("address", address, _customer(b)), Ref.of("payment_method", method, _customer(b)))
    says = [f"I'm ready to check out{with_code}. Ship it {shipping} to {to} and charge {pay}.",
            f"Please place the order for my cart{with_code}: {shipping} shipping to {to}, paid with {pay}.",
            f"Go ahead and buy what's in my cart{with_code}. Send it to {to} by {shipping} shipping; use {pay}.",
            f"Let's check out{with_code}. {shipping.capitalize()} delivery to {to}, and pay with {pay}."]
    # the payment is held back only from a customer with a choice of it: "Use my Amex ending in 6364." asked
    # back of a customer whose other method, a $200 gift card, cannot pay a $490 cart is a question the
    # look-up of the payment methods answers
    if rng.random() < 0.5 and len(_could_pay(b)) > 1:
        detail = rng.choice([f"Pay with {pay}.", f"Charge {pay}, please.", f"Use {pay} for it."])
        says = [f"I'm ready to check out{with_code}. Ship it {shipping} to {to}.",
                f"Please place the order for my cart{with_code}, {shipping} shipping to {to}, and tell me the total."]
        say = rng.choice(says)
        if say == says[0]:
            # The total is asked after the payment, so that no sentence follows the question ("What will
            # the total be? Use my Visa for it.") and the turn that gives the card asks for the total.
            detail = f"{detail} What will the total be?"
        return Ask(args, say=say,
                   terse=f"Check out{with_code}: {shipping} to {to}, pay with {pay}. Total?",
                   detail=detail,
                   refs=refs, mentions=tuple(mentions), prior=prior, facts=lambda r: [r["total"]])
    return Ask(args, say=rng.choice(says), terse=f"Check out{with_code}: {shipping} to {to}, pay with {pay}.",
               refs=refs, mentions=tuple(mentions), prior=prior)


# -- goals: orders ----------------------------------------------------------------------------------

@goals.add("list_orders", 0.6)
def list_orders(b: Bundle, rng: random.Random) -> Ask | None:
    status = rng.choice(["placed", "shipped", "delivered"])
    if not any(o["status"] == status for o in b["orders"]):
        return None
    words = {"placed": "haven't shipped yet", "shipped": "are on their way", "delivered": "have been delivered"}[status]
    return Ask({"customer_id": b["customer"]["customer_id"], "status": status},
               **_pick(rng, [f"Which of my orders {words}? Give me their totals.",
                             f"Can you list my orders that {words}, with totals?",
                             f"I'm keeping track: what orders of mine {words}, and how much was each?"],
                       [f"My orders that {words}?"]),
               refs=(_customer(b),), facts=lambda r: [o["total"] for o in r[:4]],
               settles=_products_of([o for o in b["orders"] if o["status"] == status]))


# How an order's status is said: a placed order 'hasn't shipped yet', a shipped one is 'on its way'.
STATUS_WORDS = {"placed": ("placed", "not shipped", "hasn't shipped", "has not shipped", "hasn't been shipped",
                           "not yet shipped", "not been shipped", "processing", "not yet"),
                "shipped": ("shipped", "on its way", "on the way", "in transit"),
                "delivered": ("delivered",)}


@goals.add("list_orders", 0.6)
def order_status(b: Bundle, rng: random.Random) -> Ask | None:
    """Where an order stands: the order list shows every order's status, so no other call is needed."""
    orders = [o for o in b["orders"] if o["status"] in STATUS_WORDS and _unique_day(b, o)]
    if not orders:
        return None
    order = rng.choice(orders)
    named, oid = _order_words(order), order["order_id"]
    return Ask({"customer_id": b["customer"]["customer_id"]},
               **_pick(rng, [f"What's the status of {named}?",
                             f"Has {named} shipped yet? What's its status?",
                             f"Where is {named}? Is it delivered?",
                             f"Any news on {named}? Where does it stand?"],
                       [f"Status of {named}?"]),
               refs=(_customer(b),), mentions=(named.split(" from ")[1],),
               facts=lambda r: [one_of(*STATUS_WORDS[o["status"]]) for o in r if o["order_id"] == oid],
               settles=_products_of(b["orders"]))


@goals.add("get_order", 0.6)
def get_order(b: Bundle, rng: random.Random) -> Ask | None:
    orders = [o for o in b["orders"] if _unique_day(b, o)]
    if not orders:
        return None
    order = rng.choice(orders)
    named = _order_words(order)
    return Ask({"order_id": order["order_id"]},
               **_pick(rng, [f"How much did I pay in total for {named}, and how much of it was tax?",
                             f"Could you break down {named}: total and tax?",
                             f"What was the total on {named}, and how much of that was tax?"],
                       [f"Total and tax of {named}?"]),
               refs=(_customer(b), _order_ref(b, order)), mentions=(named.split(" from ")[1],),
               facts=lambda r: [r["total"], r["tax"]], settles=_products_of([order]))


@goals.add("cancel_order", 1.2)
def cancel_order(b: Bundle, rng: random.Random) -> Ask | None:
    orders = [o for o in b["orders"] if o["status"] == "placed" and _unique_day(b, o)]
    if not orders:
        return None
    order = rng.choice(orders)
    named = _order_words(order)
    things = listing([i["name"] for i in order["items"]])
    return Ask({"order_id": order["order_id"]},
               **_pick(rng, [f"Please cancel {named}; I don't need the {things} anymore.",
                             f"I'd like to cancel {named} before it ships.",
                             f"Could you cancel {named}? I ordered it by mistake.",
                             f"Stop {named}, please, the one with the {things}."],
                       [f"Cancel {named}."]),
               refs=(_customer(b), _order_ref(b, order)), mentions=(named.split(" from ")[1],))


def _fitting_reason(reason: str, item: dict) -> str:
    """The reason, or in its place one that fits the item: a size reason only of an item with a size, a
    colour reason only of one with a colour (never "too small" of headphones)."""
    fitting = [r for r in RETURN_REASONS if (item.get("size") or r not in SIZE_REASONS)
               and (item.get("colour") or r not in COLOUR_REASONS)]
    return reason if reason in fitting else fitting[RETURN_REASONS.index(reason) % len(fitting)]


@goals.add("return_items", 1.5)
def return_items(b: Bundle, rng: random.Random) -> Ask | None:
    choices = _returnable(b)
    if not choices:
        return None
    order, item = rng.choice(choices)
    named = _order_words(order)
    what = _the(b, item["product_id"], item)
    many = _it(item["name"]) == "them"
    if item["quantity"] - item["returned_quantity"] > 1:
        # one unit of several: "return the Fleece Hoodie" of two hoodies reads as one or both
        what = f"one pair of {what}" if many else f"one {what[len('the '):]}"
    goes = "have" if many and not what.startswith("one") else "has"  # "The ... Headphones have to go back"
    reason = _fitting_reason(rng.choice(RETURN_REASONS), item)
    # the user's words, said in every wording as the call takes them: "? Arrived damaged." beside a gold
    # "arrived damaged" scored a model that copied the customer's capital below the maximum
    args = {"order_id": order["order_id"], "variant_id": item["variant_id"], "reason": reason.lower()}
    refs = (_customer(b), _order_ref(b, order))
    facts = (lambda r: [r["refund"]]) if rng.random() < 0.4 else None
    ask_refund = " How much will I get back?" if facts else ""
    if rng.random() < 0.4:
        return Ask(args, say=rng.choice([f"I want to send something back from {named}.{ask_refund}",
                                         f"I need to return an item from {named}.{ask_refund}"]),
                   terse=f"Return {what} from {named}: {reason.lower()}.{ask_refund}",
                   detail=rng.choice([f"It's {what}; {reason.lower()}.", f"{what[:1].upper()}{what[1:]}. "
                                      f"Reason: {reason.lower()}."]),
                   refs=refs, mentions=(named.split(" from ")[1], reason.lower()), facts=facts)
    return Ask(args, **_pick(rng, [f"I'd like to return {what} from {named}. Reason: {reason.lower()}.{ask_refund}",
                                   f"Please start a return for {what} in {named}; {reason.lower()}.{ask_refund}",
                                   f"{what[:1].upper()}{what[1:]} from {named} {goes} to go back ({reason.lower()})."
                                   f"{ask_refund}",
                                   f"Can I send back {what} that came in {named}? The reason: {reason.lower()}.{ask_refund}"],
                              [f"Return {what} from {named}: {reason.lower()}.{ask_refund}"]),
               refs=refs, mentions=(named.split(" from ")[1], reason.lower()), facts=facts)


@goals.add("write_review", 1.0)
def write_review(b: Bundle, rng: random.Random) -> Ask | None:
    got = {}
    for order in b["orders"]:
        if order["delivered_at"]:
            for item in order["items"]:
                got[item["product_id"]] = item["name"]
    for review in b["reviews"]:
        got.pop(review["product_id"], None)
    if not got:
        return None
    product_id = rng.choice(sorted(got))
    stars = rng.choice([5, 5, 4, 4, 3, 2, 1])
    title = {5: "Love it", 4: "Pretty good", 3: "Just okay", 2: "Not great", 1: "Disappointing"}[stars]
    name = got[product_id]
    args = {"customer_id": b["customer"]["customer_id"], "product_id": product_id, "rating": stars, "title": title}
    product = b["details"][product_id]
    count = "1 star" if stars == 1 else f"{stars} stars"  # never '1 stars'
    if rng.random() < 0.5:
        return Ask(args, say=rng.choice([f"I'd like to write a review of the {name} I bought.",
                                         f"Can I leave a review for the {name}? I got {_it(name)} a while ago.",
                                         f"Please post a review of the {name} for me."]),
                   terse=f"Review {name}: {count}, '{title}'.",
                   detail=rng.choice([f"{count}, and call it '{title}'.",
                                      f"Give {_it(name)} {_stars(stars)} with the title '{title}'.",
                                      f"Rating {stars} out of 5; headline: '{title}'."]),
                   refs=(_customer(b), _product(product)), mentions=(name, title))
    return Ask(args, **_pick(rng, [f"I want to review the {name} I bought: {count}, titled '{title}'.",
                                   f"Please post a {stars}-star review of the {name} with the headline '{title}'.",
                                   f"Leave a review for the {name} for me: {_stars(stars)}, '{title}'.",
                                   f"Rate the {name} {stars} out of 5 for me, title '{title}'."],
                              [f"Review {name}: {count}, '{title}'."]),
               refs=(_customer(b), _product(product)), mentions=(name, title))


@goals.add("list_customer_reviews", 0.4)
def list_customer_reviews(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["reviews"]:
        return None
    return Ask({"customer_id": b["customer"]["customer_id"]},
               **_pick(rng, ["Which products have I reviewed, and how many stars did I give each?",
                             "Can you pull up the reviews I've written, with their star ratings?",
                             "What ratings did I leave in my reviews, and for which products?"],
                       ["My reviews and their ratings?"]),
               # every review asked for is a fact (the first four alone let an answer that dropped the fifth pass)
               refs=(_customer(b),), facts=lambda r: [v for x in r for v in (x["product_name"], x["rating"])])


# -- goals: wishlist --------------------------------------------------------------------------------

@goals.add("get_wishlist", 0.6)
def get_wishlist(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["wishlist"]:
        return None
    return Ask({"customer_id": b["customer"]["customer_id"]},
               **_pick(rng, ["What's on my wishlist?", "Can you remind me what I saved to my wishlist?",
                             "Which products have I put on my wishlist?",
                             "Read me my wish list, please."],
                       ["My wishlist?"]),
               refs=(_customer(b),), facts=lambda r: [p["name"] for p in r[:5]],
               settles=tuple(("product", p["product_id"]) for p in b["wishlist"]))


@goals.add("add_to_wishlist", 0.8)
def add_to_wishlist(b: Bundle, rng: random.Random) -> Ask | None:
    saved = {p["product_id"] for p in b["wishlist"]}
    product = rng.choice([p for p in b["products"] if p["product_id"] not in saved])
    name = product["name"]
    # "not ready to buy it yet" is not said of a product the customer has already ordered
    ordered = {i["product_id"] for o in b["orders"] for i in o["items"]}
    wordings = [f"Save the {name} to my wishlist.", f"Could you add the {name} to my wish list?",
                f"Please put the {name} on my wishlist for later."]
    if product["product_id"] not in ordered:
        wordings.insert(2, f"I'm not ready to buy the {name} yet; put {_it(name)} on my wishlist.")
    return Ask({"customer_id": b["customer"]["customer_id"], "product_id": product["product_id"]},
               **_pick(rng, wordings, [f"Wishlist: add {name}."]),
               refs=(_customer(b), _product(product)), mentions=(name,))


def _wishlist_first(customer_id: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    """A product taken off the wishlist is found on the wishlist, which lists each product's id: one
    read, as a catalog search would be, but the one an agent rightly makes for what is on the list (an
    agent that read the wishlist lost coverage to a gold that searched the catalog)."""
    return (("get_wishlist", {"customer_id": customer_id}),)


@goals.add("remove_from_wishlist", 0.7)
def remove_from_wishlist(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["wishlist"]:
        return None
    product = rng.choice(b["wishlist"])
    name = product["name"]
    return Ask({"customer_id": b["customer"]["customer_id"], "product_id": product["product_id"]},
               **_pick(rng, [f"Take the {name} off my wishlist.", f"Remove the {name} from my wish list, please.",
                             f"I don't want the {name} anymore; delete {_it(name)} from my wishlist.",
                             f"Could you clear the {name} from my wishlist?"],
                       [f"Wishlist: remove {name}."]),
               refs=(_customer(b),), mentions=(name,), prior=_wishlist_first(b["customer"]["customer_id"]))


# -- who is asking ----------------------------------------------------------------------------------

_BY_NAME = ("Hi, this is {name}.", "My name is {name}.", "Hello, {name} here.", "It's {name}.",
            "Hi, I'm {name} and I shop with you.", "This is {name}, a customer of yours.", "Hey there, I'm {name}.",
            "I'm {name}.", "Good morning, this is {name}.", "{name} here, I have an account with you.",
            "Hi! My name's {name}.", "Hello, my account is under {name}.")
_BY_NAME_TERSE = ("This is {name}.", "Name: {name}.", "I'm {name}.", "Customer: {name}.", "It's {name}.")
_BY_EMAIL = ("Hi, my account email is {email}.", "Hello, you have me under {email}.",
             "My store account uses {email}.", "I shop with you as {email}.", "Please look me up by {email}.",
             "Hi there, my login email is {email}.", "The email on my account is {email}.")
_BY_EMAIL_TERSE = ("Email: {email}.", "Account email {email}.", "My email: {email}.")


def _by_name(ref: Ref) -> tuple[str, str]:
    name = ref.entity["name"]
    return (stable(_BY_NAME, "name", ref.key).format(name=name),
            stable(_BY_NAME_TERSE, "terse", ref.key).format(name=name))


def _by_email(ref: Ref) -> tuple[str, str]:
    email = ref.entity["email"]
    return (stable(_BY_EMAIL, "email", ref.key).format(email=email),
            stable(_BY_EMAIL_TERSE, "email terse", ref.key).format(email=email))


def price_change_request(b: Bundle, rng: random.Random) -> str | None:
    product = rng.choice(b["products"])
    lower = money(round(product["price"] * 0.7))
    intro = _by_name(_customer(b))[0]
    name = product["name"]
    many = _it(name) == "them"
    its, it_is, it = ("their", "they were", "them") if many else ("its", "it were", "it")
    return intro + " " + rng.choice([f"The {name} {'are' if many else 'is'} too expensive. Could you change "
                                     f"{its} price to {lower}?",
                                     f"Please drop the price of the {name} to {lower} for me.",
                                     f"Can you set the {name} to {lower}? I saw {it} cheaper elsewhere.",
                                     f"I'd buy the {name} if {it_is} {lower}. Please lower the price."])


# Tools that do one another's job for some request (a product shows in the search, an order in
# the order list; adding more of a variant sets its quantity too): a missing-function task hides
# all of a group or none.
SUBSTITUTES = (
    ("get_product", "search_products"),
    ("get_order", "list_orders"),
    ("list_brands", "search_products"),
    # the catalog's largest page lists every product with its category: the categories, and how many
    # products each has, are read off one search (as the brands' counts are)
    ("list_categories", "search_products"),
    ("update_cart_item", "add_to_cart"),
)


recipe = Recipe(
    server="shopping",
    sample=sample,
    # ordering food for delivery, or asking which branch has a thing in stock, is what the catalog
    # search answers here (a store may sell banana bread; a search tells): never drawn as off-topic
    topics=("shopping", "food_delivery", "stores"),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("customer", "find_customers", args=lambda r: {"name": r.entity["name"]}, intro=_by_name),
        Lookup("customer", "find_customers", args=lambda r: {"email": r.entity["email"]}, intro=_by_email),
        Lookup("product", "search_products", args=lambda r: {"query": r.entity["name"]}),
        Lookup.under("variant", "get_product"),
        Lookup.under("address", "list_addresses"),
        Lookup.under("payment_method", "list_payment_methods"),
        # the order list shows each item's product id beside its name: a later request about a product
        # the customer ordered (a review of the lamp just returned) takes its id from there, no search
        Lookup("order", "list_orders", args=lambda r: {"customer_id": r.owner.key},
               settles=lambda r: r.entity["listed"]),
    ),
    hidden=(HiddenAsk("set_variant_price", price_change_request),),
)
