"""How tasks are written for the retail chain: store and regional managers, and now and then a
shopper, who name stores the way staff do ("the Pearl District store in Portland", "our Tacoma
store": by city where the city has one store, by neighbourhood otherwise) and products by their
catalogue names.

A bundle is one open store with its stock, transfers, reservations and restock orders, plus the
rest of the chain for transfers and look-ups. So that the requests of one conversation never
undo each other, every product line of a store gets one role by a stable hash (sent away on a
transfer, held for a customer, or only read about), and every reservation and restock order one
fate (collected or cancelled, received or cancelled). Every request comes in several phrasings
(plain, polite, chatty, indirect, terse); read-only requests declare the facts their answer must
state.
"""

from __future__ import annotations

import datetime as dt
import random
import zlib
from typing import Any

from prove_env.facts import one_of
from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import money, stable

from .seed import CITIES

Bundle = dict[str, Any]
CUSTOMERS = ("Maya Lopez", "Daniel Okafor", "Priya Raman", "Tom Becker", "Hannah Kowalski", "Luis Alvarez",
             "Grace Kim", "Omar Haddad", "Emma Lindqvist", "Noah Fischer")


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every open store that its words find alone, with its stock and stock movements."""
    stores = read("find_stores", limit=100)
    per_city: dict[str, int] = {}
    for store in stores:
        per_city[store["city"]] = per_city.get(store["city"], 0) + 1
    named = []
    for store in stores:
        by = "city" if per_city[store["city"]] == 1 else "name"
        entry = {**store, "by": by}
        if len(read("find_stores", **_store_args(entry))) == 1:
            named.append(entry)
    products = {p["product_id"]: p for p in read("search_products", limit=100)
                if len(read("search_products", name=p["name"])) == 1}
    bundles = []
    for store in named:
        if store["status"] != "open":
            continue
        sid = store["store_id"]
        stock = [line for line in read("list_store_stock", store_id=sid, limit=100) if line["product_id"] in products]
        bundles.append({
            "now": now, "store": store, "stores": named, "products": products, "stock": stock,
            "low": [r for r in read("low_stock_report", store_id=sid) if r["product_id"] in products],
            "transfers": read("list_transfers", store_id=sid),
            "reservations": read("list_reservations", store_id=sid),
            "restocks": read("list_restock_orders", store_id=sid),
        })
    low_at = {b["store"]["store_id"]: {r["product_id"] for r in b["low"]} for b in bundles}
    for b in bundles:  # what every open store runs low on, for 'X is short on Y' of a transfer's destination
        b["low_at"] = low_at
    return bundles


def _store_args(store: dict) -> dict:
    return {"city": store["city"]} if store["by"] == "city" else {"name": store["name"]}


# -- names ---------------------------------------------------------------------------------------

def _role(key: str, roles: int) -> int:
    return zlib.crc32(key.encode()) % roles


def _store_ref(store: dict) -> Ref:
    return Ref.of("store", store)


def _pair_ref(store: dict, other: dict) -> Ref:
    """`store` named beside `other` of the same city in one request ('from the Denver Baker store to our
    Highlands store'): one search of the city finds both, where two searches by name take a call more.
    Unless the conversation found `store` before, its look-up is that search, and it settles `other`."""
    return Ref.of("store", {**store, "with": other["store_id"]})


def _store_lookup_args(ref: Ref) -> dict:
    return {"city": ref.entity["city"]} if ref.entity.get("with") else _store_args(ref.entity)


def _store_lookup_settles(ref: Ref) -> tuple[tuple[str, str], ...]:
    return (("store", ref.entity["with"]),) if ref.entity.get("with") else ()


def _product_ref(b: Bundle, product_id: str) -> Ref:
    return Ref.of("product", b["products"][product_id])


def _under(b: Bundle, kind: str, entity: dict) -> Ref:
    return Ref.of(kind, entity, _store_ref(b["store"]))


def store_name(store: dict, *keys: str, city: bool = True) -> str:
    """How a request names a store; `city=False` for one named after another store of its city in the
    same sentence ('from the Bown Crossing store in Boise to the North End store', not '... to the
    North End store in Boise'): its neighbourhood alone finds it (`sample` keeps such stores only)."""
    if store["by"] == "city":
        forms = (f"the {store['city']} store", f"our {store['city']} store", f"our store in {store['city']}")
    else:
        if store["city"] in store["name"] or not city:  # "the West Seattle store", never "... in Seattle" after it
            forms = (f"the {store['name']} store", f"our {store['name']} store")
        else:
            forms = (f"the {store['name']} store in {store['city']}", f"our {store['name']} store in {store['city']}",
                     f"the {store['city']} {store['name']} store")
    return stable(forms, store["store_id"], *keys)


def store_mention(store: dict) -> str:
    return store["city"] if store["by"] == "city" else store["name"]


def products_of(category: str) -> str:
    """A category's products as said in a sentence: 'garden products', but 'power tools'."""
    said = category.lower()
    return said if said.endswith("tools") else f"{said} products"


# A product is never a noun's modifier ('the Roller kit 9 in transfer', 'Mark the Fire pit 30 in down'): a name
# that ends in the unit 'in' then reads as a preposition, so requests say 'the transfer of <product>'.
def product_name(b: Bundle, product_id: str) -> str:
    return b["products"][product_id]["name"]


def _line_role(b: Bundle, line: dict) -> int:
    """0: may be sent away on a transfer; 1: may be held for a customer; 2: only read about."""
    return _role(b["store"]["store_id"] + line["product_id"], 3)


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def _pick(rng: random.Random, forms: list[str]) -> str:
    return rng.choice(forms)


goals = Goals()


# -- stores and catalogue ------------------------------------------------------------------------

@goals.add("find_stores", 0.5)
def find_stores(b: Bundle, rng: random.Random) -> Ask | None:
    city = b["store"]["city"]
    # the listing shows every store of the city with its id: a later request about one of them takes it from here
    shown = tuple(("store", s["store_id"]) for s in b["stores"] if s["city"] == city)
    # never "Do we have any stores in Spokane?": the conversation often named a store of the city before
    return Ask({"city": city}, settles=shown,
               say=_pick(rng, [f"Which of our stores are in {city}, and at what addresses?",
                               f"What are the addresses of all our {city} stores?",
                               f"I'm heading to {city} next week. Where are the stores of ours I could visit there?",
                               f"Could you list the chain's {city} stores with their addresses?"]),
               terse=f"Addresses of the stores in {city}?", mentions=(city,),
               facts=lambda r: [s["address"] for s in r])


@goals.add("get_store", 0.8)
def get_store(b: Bundle, rng: random.Random) -> Ask | None:
    store = b["store"]
    name = store_name(store, "get")
    # Only what the store's own record shows: the look-up that finds the store already tells its
    # address, so a request with get_store left out would be half answered by it.
    if rng.random() < 0.5:
        return Ask({"store_id": store["store_id"]},
                   say=_pick(rng, [f"What's the phone number and ZIP code of {name}?",
                                   f"Could you give me the phone number and the ZIP code for {name}, please?",
                                   f"A customer wants to call {name} and mail something there. What's its number, and the ZIP code?"]),
                   terse=f"Phone and ZIP code of {name}?", refs=(_store_ref(store),), mentions=(store_mention(store),),
                   facts=lambda r: [r["zip_code"], r["phone"]])
    return Ask({"store_id": store["store_id"]},
               say=_pick(rng, [f"Who manages {name}, and what's its phone number?",
                               f"I need the manager's name and the phone number of {name}.",
                               f"Remind me who runs {name}, and what's the number there?"]),
               terse=f"Manager and phone of {name}?", refs=(_store_ref(store),), mentions=(store_mention(store),),
               facts=lambda r: [r["manager"], r["phone"]])


@goals.add("search_products", 0.6)
def search_products(b: Bundle, rng: random.Random) -> Ask | None:
    line = rng.choice(b["stock"]) if b["stock"] else None
    if line is None:
        return None
    category = line["category"]
    say = _pick(rng, [f"What does the chain sell in the {category.lower()} category?",
                      f"Could you list every product in the {category} category?",
                      f"I'm planning a promotion on {category.lower()}. Which products are in that category?",
                      f"Remind me what's in the chain's {category.lower()} range?"])
    # no wording asks for list prices: the facts are the names alone ('with list prices' went unchecked)
    return Ask({"category": category}, say=say,
               # the chain's catalogue, said in every wording: after a store's stock was asked about, a bare
               # "Lighting products?" (or "our lighting range") reads as what that store has
               terse=f"{category} products in the catalogue?", mentions=(category.lower(),),
               facts=lambda r: [p["name"] for p in r])


# -- stock ---------------------------------------------------------------------------------------

def _available(units: int) -> Any:
    """How many units a store can sell; none is also said as 'out of stock' ('none available')."""
    return units if units else one_of(0, "none", "out of stock", "sold out", "nothing available", "no units",
                                      "not in stock", "unavailable", "not available")


@goals.add("get_stock", 1.2)
def get_stock(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["stock"]:
        return None
    line = rng.choice(b["stock"])
    store, product = b["store"], product_name(b, line["product_id"])
    name = store_name(store, "stock", line["product_id"])
    return Ask({"store_id": store["store_id"], "product_id": line["product_id"]},
               say=_pick(rng, [f"How many units of the {product} does {name} have available right now, and at what price?",
                               f"Could you check the stock of the {product} at {name}? I need the available count and the price.",
                               f"A customer is asking whether {name} has the {product}. How many can we sell them, and at what price?",
                               f"Check the {product} at {name} for me: available units and shelf price."]),
               terse=f"{product} at {name}: available and price?",
               refs=(_store_ref(store), _product_ref(b, line["product_id"])),
               mentions=(product, store_mention(store)), facts=lambda r: [_available(r["available"]), r["price"]])


@goals.add("list_store_stock", 0.8)
def list_store_stock(b: Bundle, rng: random.Random) -> Ask | None:
    categories = sorted({line["category"] for line in b["stock"]})
    if not categories:
        return None
    category = rng.choice(categories)
    store = b["store"]
    name = store_name(store, "range", category)
    return Ask({"store_id": store["store_id"], "category": category, "in_stock_only": True},
               say=_pick(rng, [f"Which {products_of(category)} does {name} have in stock?",
                               f"What {products_of(category)} can a customer buy at {name} today?",
                               f"Walk me through the {products_of(category)} that {name} has on its shelves, please.",
                               f"List the {products_of(category).replace(' products', ' items')} in stock at {name}."]),
               terse=f"{_capital(products_of(category))} in stock at {name}?", refs=(_store_ref(store),),
               mentions=(category.lower(), store_mention(store)),
               facts=lambda r: [x["product"] for x in r])


@goals.add("low_stock_report", 1.0)
def low_stock_report(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["low"]:
        return None
    store = b["store"]
    name = store_name(store, "low")
    restock = f"Which lines at {name} need restocking soon?"
    say = _pick(rng, [f"What's running low at {name}?",
                      f"Could you pull the low-stock report for {name}?",
                      f"Which products at {name} are at or below their reorder point?",
                      restock])
    # no wording that keeps every low line gives ordering as its reason ("Before I do the weekly order for ..."): a
    # model rightly leaves out a discontinued line the chain will not order, and facts holding it failed that answer.
    # a discontinued line is never restocked, and one with a restock on order is being restocked already:
    # "which lines need restocking" is right to leave both out, so the facts of that wording do not ask for them
    needed = (lambda x: not x["discontinued"] and not x["on_order"]) if say == restock else (lambda x: True)
    if not any(needed(x) for x in b["low"]):
        say, needed = f"What's running low at {name}?", (lambda x: True)
    return Ask({"store_id": store["store_id"]}, say=say,
               terse=f"Low stock at {name}?", refs=(_store_ref(store),), mentions=(store_mention(store),),
               facts=lambda r: [x["product"] for x in r if needed(x)][:8])


@goals.add("find_nearest_stock", 1.2)
def find_nearest_stock(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["stock"]:
        return None
    line = rng.choice(b["stock"])
    product = product_name(b, line["product_id"])
    city = rng.choice(sorted(CITIES))
    quantity = rng.choice((1, 2, 3, 4, 6, 10))
    args = {"product_id": line["product_id"], "quantity": quantity, "city": city}
    # in units: 'needs one of the Propane grill 3-burner' takes a plural after 'one of the' that a catalogue name lacks
    amount = "one unit" if quantity == 1 else f"{quantity} units"
    enough = "one" if quantity == 1 else "that many"  # "has that many" of one reads oddly
    stocked = "available" if product.endswith(" in") else "in stock"  # not 'Pipe wrench 14 in in stock'
    say = _pick(rng, [f"A customer of ours is in {city} and needs {amount} of the {product}. Which is the nearest of our stores that has {enough}?",
                      f"Where's the closest store to {city} that has at least {quantity} unit{'s' if quantity > 1 else ''} of the {product} available?",
                      f"Could you find me the nearest store to {city} with {amount} of the {product} {stocked}?",
                      f"A customer in {city} wants {amount} of the {product}; which nearby store can sell them {enough}?"])
    return Ask(args, say=say, terse=f"Nearest store to {city} with {quantity}x {product}?",
               refs=(_product_ref(b, line["product_id"]),), mentions=(city, product),
               facts=lambda r: [r[0]["name"]] if r else [])


@goals.add("set_store_price", 0.8)
def set_store_price(b: Bundle, rng: random.Random) -> Ask | None:
    lines = [line for line in b["stock"] if _line_role(b, line) == 2 and line["list_price"] >= 10]
    if not lines:
        return None
    line = rng.choice(lines)
    price = round(line["list_price"] * rng.choice((0.8, 0.85, 0.9)), 2)
    if price == line["price"]:
        return None
    store, product = b["store"], product_name(b, line["product_id"])
    name = store_name(store, "price", line["product_id"])
    said = money(price)
    # a markdown or promotion only where the price falls: a store already selling below the new price (a Cooler
    # 45 qt at $254.99 set to $269.99) has it raised, and is asked plainly (as many forms: the draws stay the same)
    forms = [f"Mark down the {product} at {name}.", f"We're running a local promotion on the {product} at {name}.",
             f"Please change the shelf price of the {product} at {name}."] if price < line["price"] else \
        [f"Please change the shelf price of the {product} at {name}.", f"The {product} needs a new shelf price at {name}.",
         f"Could you update the price of the {product} at {name}?"]
    return Ask({"store_id": store["store_id"], "product_id": line["product_id"], "price": price},
               say=_pick(rng, forms),
               detail=_pick(rng, [f"The new price is {said}.", f"Set it to {said}.", f"{said} from today.", f"Make it {said}, please."]), terse=f"{product} at {name}: price {said}.",
               refs=(_store_ref(store), _product_ref(b, line["product_id"])), mentions=(product, said))


# -- transfers -----------------------------------------------------------------------------------

@goals.add("transfer_stock", 1.3)
def transfer_stock(b: Bundle, rng: random.Random) -> Ask | None:
    lines = [line for line in b["stock"] if _line_role(b, line) == 0 and line["available"] >= 2]
    targets = [s for s in b["stores"] if s["status"] == "open" and s["store_id"] != b["store"]["store_id"]]
    if not lines or not targets:
        return None
    line, target = rng.choice(lines), rng.choice(targets)
    quantity = rng.randint(1, min(line["available"], 8))
    store, product = b["store"], product_name(b, line["product_id"])
    # the store said second is named without the city the first one already said
    same = store["city"] == target["city"]
    source, dest = store_name(store, "from"), store_name(target, "to", city=not same)
    # 'X is short on Y' only where X's stock of Y is at or below its reorder point (South Hill with 37
    # umbrellas, more than the source, is not short on them) and the source's is not (Tacoma with 2
    # primers against a reorder point of 6 has none to spare for Bend).
    short = line["product_id"] in b["low_at"].get(target["store_id"], ()) \
        and line["product_id"] not in b["low_at"].get(store["store_id"], ())
    return Ask({"product_id": line["product_id"], "from_store_id": store["store_id"], "to_store_id": target["store_id"],
                "quantity": quantity},
               say=_pick(rng, [f"Please send some of the {product} from {source} over to {dest}.",
                               f"{_capital(store_name(target, 'to'))} is short on the {product}; move some from "
                               f"{store_name(store, 'from', city=not same)}."
                               if short else f"Move some of the {product} from {source} to {dest}, please.",
                               f"Could you set up a transfer of the {product} from {source} to {dest}?",
                               f"I'd like to ship some of the {product} from {source} to {dest}."]),
               detail=_pick(rng, [f"{quantity} of them." if quantity > 1 else "Just 1.", f"Send {quantity}.",
                                  f"{quantity} units, please." if quantity > 1 else "1 unit, please.",
                                  f"Make it {quantity}."]), terse=f"Transfer {quantity}x {product}: {source} to {dest}.",
               refs=(_product_ref(b, line["product_id"]), _pair_ref(store, target) if same else _store_ref(store),
                     _store_ref(target)),
               mentions=(product, str(quantity), store_mention(store), store_mention(target))
               + ((store["city"],) if same else ()))


def _incoming(b: Bundle) -> list[dict]:
    sid = b["store"]["store_id"]
    found = [t for t in b["transfers"] if t["to_store_id"] == sid and t["status"] == "in_transit"
             and t["product_id"] in b["products"]]
    return [t for t in found if sum(u["product_id"] == t["product_id"] and u["from_store_id"] == t["from_store_id"]
                                    for u in found) == 1]


@goals.add("list_transfers", 0.8)
def list_transfers(b: Bundle, rng: random.Random) -> Ask | None:
    incoming = [t for t in b["transfers"] if t["to_store_id"] == b["store"]["store_id"] and t["status"] == "in_transit"]
    if not incoming:
        return None
    store = b["store"]
    name = store_name(store, "transfers")
    return Ask({"store_id": store["store_id"], "direction": "incoming", "status": "in_transit"},
               say=_pick(rng, [f"What transfers are on their way to {name}, and how many of each?",
                               f"Is anything in transit to {name} from other stores? What, and how many of each?",
                               f"Could you tell me which incoming transfers {name} is still waiting for, with quantities?",
                               f"We're expecting deliveries from other stores at {name}. What's in transit to us, and "
                               f"how many of each?"]),
               terse=f"Transfers in transit to {name}, and how many of each?", refs=(_store_ref(store),),
               mentions=(store_mention(store),),
               facts=lambda r: [t["product"] for t in r] + [t["quantity"] for t in r])


@goals.add("receive_transfer", 1.2)
def receive_transfer(b: Bundle, rng: random.Random) -> Ask | None:
    incoming = _incoming(b)
    if not incoming:
        return None
    t = rng.choice(incoming)
    source = next((s for s in b["stores"] if s["store_id"] == t["from_store_id"]), None)
    if source is None:
        return None
    store, product = b["store"], product_name(b, t["product_id"])
    # every wording names the origin first; the store it arrived at is then not placed in the same city again
    name, origin = store_name(store, "recv", city=store["city"] != source["city"]), store_name(source, "origin")
    return Ask({"transfer_id": t["transfer_id"]},
               say=_pick(rng, [f"The transfer of the {product} from {origin} just arrived at {name}; please check it in.",
                               f"We received the {t['quantity']} units of the {product} from {origin} at {name}. Mark the transfer received.",
                               f"Could you receive the incoming {product} from {origin} into the stock of {name}?",
                               f"Good news, the {product} from {origin} is here at {name}. Check the transfer in, please."]),
               terse=f"Receive the transfer of the {product} from {origin} at {name}.",
               refs=(_under(b, "transfer", t),), mentions=(product, store_mention(store)))


# -- reservations --------------------------------------------------------------------------------

def _live(b: Bundle, fate: int) -> list[dict]:
    found = [r for r in b["reservations"] if r["status"] == "active" and r["product_id"] in b["products"]
             and _role(r["reservation_id"], 2) == fate]
    return [r for r in found if sum(x["customer_name"] == r["customer_name"] and x["product_id"] == r["product_id"]
                                    for x in b["reservations"]) == 1]


@goals.add("reserve_for_pickup", 1.3)
def reserve_for_pickup(b: Bundle, rng: random.Random) -> Ask | None:
    lines = [line for line in b["stock"] if _line_role(b, line) == 1 and line["available"] >= 1]
    if not lines:
        return None
    line = rng.choice(lines)
    quantity = rng.randint(1, min(line["available"], 3))
    customer = rng.choice(CUSTOMERS)
    store, product = b["store"], product_name(b, line["product_id"])
    name = store_name(store, "hold", line["product_id"])
    # in units ('one unit of the Propane grill 3-burner'): 'one of the <product>' wants a plural the name lacks
    amount = "one unit" if quantity == 1 else f"{quantity} units"
    # 'aside' before the product: 'put one of the Roller kit 9 in aside' reads the unit as a preposition
    # the customer introduced, not named as 'The customer' twice: 'The customer will collect it. The
    # customer's name is Omar Haddad.'
    return Ask({"store_id": store["store_id"], "product_id": line["product_id"], "quantity": quantity,
                "customer_name": customer},
               say=_pick(rng, [f"Please hold {amount} of the {product} at {name} for pick-up.",
                               f"Can you reserve {amount} of the {product} at {name} for a customer to collect?",
                               f"I'd like to put aside {amount} of the {product} for pick-up at {name}.",
                               f"Set aside {amount} of the {product} at {name} for a customer, please."]),
               detail=_pick(rng, [f"The customer's name is {customer}.", f"It's for {customer}.", f"Put it under {customer}.", f"Name on the hold: {customer}."]), terse=f"Hold {quantity}x {product} at {name} for {customer}.",
               refs=(_store_ref(store), _product_ref(b, line["product_id"])),
               mentions=(product, customer, store_mention(store)))


@goals.add("list_reservations", 0.8)
def list_reservations(b: Bundle, rng: random.Random) -> Ask | None:
    store = b["store"]
    name = store_name(store, "holds")
    expired = [r for r in b["reservations"] if r["status"] == "expired"]
    if expired and rng.random() < 0.5:
        return Ask({"store_id": store["store_id"], "status": "expired"},
                   say=_pick(rng, [f"Which pick-up reservations at {name} expired without being collected?",
                                   f"Who didn't come for their reserved items at {name} in time?",
                                   f"Could you list the lapsed pick-up holds at {name}?"]),
                   terse=f"Expired holds at {name}?", refs=(_store_ref(store),), mentions=(store_mention(store),),
                   facts=lambda r: [x["customer_name"] for x in r])
    active = [r for r in b["reservations"] if r["status"] == "active"]
    if not active:
        return None
    say = _pick(rng, [f"Which pick-up reservations are waiting at {name}?",
                      f"Who has items on hold for pick-up at {name} right now?",
                      f"Could you list the active pick-up holds at {name}, with what each customer reserved?"])
    # the wording that asks what each customer reserved has the products as facts beside the names
    items = "what each customer reserved" in say
    return Ask({"store_id": store["store_id"], "status": "active"}, say=say,
               terse=f"Active holds at {name}, and what each is for?" if items else f"Active holds at {name}?",
               refs=(_store_ref(store),), mentions=(store_mention(store),),
               facts=(lambda r: [x["customer_name"] for x in r] + [x["product"] for x in r]) if items
               else (lambda r: [x["customer_name"] for x in r]))


@goals.add("collect_reservation", 1.1)
def collect_reservation(b: Bundle, rng: random.Random) -> Ask | None:
    live = _live(b, 0)
    if not live:
        return None
    r = rng.choice(live)
    store, product = b["store"], product_name(b, r["product_id"])
    name, who = store_name(store, "collect"), r["customer_name"]
    return Ask({"reservation_id": r["reservation_id"]},
               say=_pick(rng, [f"{who} is at {name} to pick up their {product}. Please mark the reservation collected.",
                               f"Hand over {who}'s reserved {product} at {name}; they're at the counter now.",
                               f"{who} just collected the {product} they had on hold at {name}, could you record that?",
                               f"Please close out {who}'s pick-up of the {product} at {name} as collected."]),
               terse=f"{who} collected the {product} at {name}.",
               refs=(_under(b, "reservation", r),), mentions=(who, product))


@goals.add("cancel_reservation", 0.9)
def cancel_reservation(b: Bundle, rng: random.Random) -> Ask | None:
    live = _live(b, 1)
    if not live:
        return None
    r = rng.choice(live)
    store, product = b["store"], product_name(b, r["product_id"])
    name, who = store_name(store, "cancel"), r["customer_name"]
    return Ask({"reservation_id": r["reservation_id"]},
               say=_pick(rng, [f"{who} called: they no longer need the hold on the {product} at {name}. Please cancel it.",
                               f"Cancel {who}'s pick-up reservation for the {product} at {name}.",
                               f"Could you release the {product} we're holding for {who} at {name}? They changed their mind."]),
               terse=f"Cancel {who}'s hold on the {product} at {name}.",
               refs=(_under(b, "reservation", r),), mentions=(who, product))


# -- restock orders ------------------------------------------------------------------------------

# A product is said with its article where a bare name reads as a mass noun ('We need more Utility knife',
# 'check Drip irrigation kit', 'ship Cooler 45 qt'): 'more of the Utility knife', 'the Drip irrigation kit'.
@goals.add("create_restock_order", 1.2)
def create_restock_order(b: Bundle, rng: random.Random) -> Ask | None:
    pending = {o["product_id"] for o in b["restocks"] if o["status"] == "placed"}
    low = [r for r in b["low"] if not r["discontinued"] and r["product_id"] not in pending]
    if not low:
        return None
    line = rng.choice(low)
    quantity = rng.choice((12, 20, 24, 30, 36, 48))
    store, product = b["store"], line["product"]
    name = store_name(store, "order", line["product_id"])
    return Ask({"store_id": store["store_id"], "product_id": line["product_id"], "quantity": quantity},
               say=_pick(rng, [f"{name[0].upper() + name[1:]} is {'out' if line['available'] <= 0 else 'almost out'} of "
                               f"the {product}; please order more.",
                               f"Could you place a restock order for the {product} for {name}?",
                               f"We need more of the {product} at {name}. Put in a restock order, please.",
                               f"Reorder the {product} for {name}."]),
               detail=_pick(rng, [f"Make it {quantity} units.", f"{quantity} should do.", f"Order {quantity}.", f"We need {quantity} of them."]), terse=f"Restock {quantity}x {product} for {name}.",
               refs=(_store_ref(store), _product_ref(b, line["product_id"])),
               mentions=(product, str(quantity), store_mention(store)))


def _placed(b: Bundle, fate: int) -> list[dict]:
    return [o for o in b["restocks"] if o["status"] == "placed" and o["product_id"] in b["products"]
            and _role(o["restock_id"], 2) == fate]


@goals.add("list_restock_orders", 0.8)
def list_restock_orders(b: Bundle, rng: random.Random) -> Ask | None:
    placed = [o for o in b["restocks"] if o["status"] == "placed"]
    if not placed:
        return None
    store = b["store"]
    name = store_name(store, "orders")
    return Ask({"store_id": store["store_id"], "status": "placed"},
               say=_pick(rng, [f"Which restock orders for {name} are still outstanding, and when are they due?",
                               f"What has {name} ordered that hasn't been delivered yet? When is each expected?",
                               f"Could you list the open restock orders at {name} and when they're expected?"]),
               terse=f"Open restock orders at {name}, expected when?", refs=(_store_ref(store),),
               mentions=(store_mention(store),),
               facts=lambda r: [o["product"] for o in r] + [o["expected_on"] for o in r])


@goals.add("receive_restock_order", 1.1)
def receive_restock_order(b: Bundle, rng: random.Random) -> Ask | None:
    orders = _placed(b, 0)
    if not orders:
        return None
    o = rng.choice(orders)
    store, product = b["store"], product_name(b, o["product_id"])
    name = store_name(store, "delivery")
    return Ask({"restock_id": o["restock_id"]},
               say=_pick(rng, [f"The restock of the {product} was delivered to {name}; please check it in.",
                               f"Our {o['quantity']} units of the {product} from the distribution centre arrived at {name}. Mark the order delivered.",
                               f"Could you receive the restock order of the {product} at {name}? The truck just left."]),
               terse=f"Receive the restock of the {product} at {name}.", refs=(_under(b, "restock", o),),
               mentions=(product, store_mention(store)))


@goals.add("cancel_restock_order", 0.8)
def cancel_restock_order(b: Bundle, rng: random.Random) -> Ask | None:
    orders = _placed(b, 1)
    if not orders:
        return None
    o = rng.choice(orders)
    store, product = b["store"], product_name(b, o["product_id"])
    name = store_name(store, "drop")
    return Ask({"restock_id": o["restock_id"]},
               say=_pick(rng, [f"Cancel the restock order of the {product} for {name}; we don't need it after all.",
                               f"Please call off the pending restock of the {product} at {name}.",
                               f"Could you cancel the open order for the {product} at {name}?"]),
               terse=f"Cancel the restock of the {product} at {name}.", refs=(_under(b, "restock", o),),
               mentions=(product, store_mention(store)))


# No request is left to the hidden chain_stock_totals: both of its totals are sums the shown tools reach.
# find_stores with neither city nor name lists every store, list_store_stock shows each line's units on
# hand, and list_transfers(status="in_transit") each store's transfers under their ids, so "How many units
# does the whole chain have on hand right now, across every store?" is answered by adding up, and declining
# it would teach the wrong thing.
CHAIN_WIDE: tuple[HiddenAsk, ...] = ()


# Tools that do one another's job for some request (a store's stock and price of a product show
# in its stock list, its low-stock report, the nearest-stock search and the catalogue): a
# missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("get_stock", "list_store_stock", "find_nearest_stock", "low_stock_report", "search_products"),
    ("low_stock_report", "list_store_stock"),
)


recipe = Recipe(
    server="retail_chain",
    sample=sample,
    topics=("shopping", "stores", "food_delivery"),  # a catalog search may find banana bread: never off-topic
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("store", "find_stores", args=_store_lookup_args, settles=_store_lookup_settles),
        Lookup("product", "search_products", args=lambda r: {"name": r.entity["name"]}),
        Lookup.under("transfer", "list_transfers"),
        Lookup.under("reservation", "list_reservations"),
        Lookup.under("restock", "list_restock_orders"),
    ),
    hidden=CHAIN_WIDE,
)
