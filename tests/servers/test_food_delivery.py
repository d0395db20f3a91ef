"""The food_delivery server through real MCP: browsing, carts (one per restaurant), delivery
checks, promo codes, tips, the order life cycle read from the frozen clock, cancellation, ratings
and reorders; every refusal leaves the world unchanged.

The seed-0 world's people and places are found through the tools by name."""

from __future__ import annotations

import pytest


@pytest.fixture
def s(served):
    return served("food_delivery")


def customer(s, name: str) -> str:
    found = s.ok("find_customers", name=name)
    assert len(found) == 1, found
    return found[0]["customer_id"]


def restaurant(s, name: str) -> dict:
    found = s.ok("search_restaurants", name=name)
    assert len(found) == 1, found
    return found[0]


def address(s, cid: str, label: str) -> str:
    return next(a["address_id"] for a in s.ok("list_addresses", customer_id=cid) if a["label"] == label)


def cart(s, cid: str, restaurant_name: str) -> dict:
    return next(c for c in s.ok("list_carts", customer_id=cid) if c["restaurant"] == restaurant_name)


def menu_item(s, rid: str, available: bool = True, with_options: bool = False) -> dict:
    return next(i for i in s.ok("get_menu", restaurant_id=rid)
                if i["available"] == available and (i["options"] or not with_options))


def test_find_customers_and_addresses(s):
    everyone = s.ok("find_customers", limit=100)
    assert len(everyone) == 40 and len({c["name"] for c in everyone}) == 40
    assert s.ok("find_customers", email=everyone[3]["email"].upper()) == [everyone[3]]
    addresses = s.ok("list_addresses", customer_id=everyone[1]["customer_id"])
    assert {a["label"] for a in addresses} == {"Home", "Work", "Gym"}


def test_add_address_labels_are_unique(s):
    cid = customer(s, "Janice Watson")
    added = s.ok("add_address", customer_id=cid, label=" Office ", street="12 Pine St", neighborhood="Harbor")
    assert added["label"] == "Office" and added in s.ok("list_addresses", customer_id=cid)
    s.fails("add_address", "already has an address labelled", customer_id=cid, label="office",
              street="9 Oak St", neighborhood="Downtown")
    s.fails("add_address", "street must be", customer_id=cid, label="Cabin", street=" ", neighborhood="Downtown")


def test_cuisines_search_and_restaurant_details(s):
    cuisines = s.ok("list_cuisines")
    assert sum(c["restaurants"] for c in cuisines) == len(s.ok("search_restaurants", limit=100))
    thai = s.ok("search_restaurants", cuisine="thai")
    assert {r["name"] for r in thai} == {"Bangkok Garden", "Thai Orchid", "Lemongrass"}
    assert [r["rating"] for r in thai] == sorted((r["rating"] for r in thai), reverse=True)
    open_now = s.ok("search_restaurants", open_now=True, limit=100)
    assert open_now and all(r["open_now"] for r in open_now)
    assert all(r["rating"] >= 4.5 for r in s.ok("search_restaurants", min_rating=4.5))
    full = s.ok("get_restaurant", restaurant_id=thai[0]["restaurant_id"])
    assert {"hours", "open_now", "delivery_radius_miles", "delivery_fee", "min_order"} <= set(full)


def test_menu_lists_options_and_sold_out_items(s):
    rid = restaurant(s, "Jade Garden")["restaurant_id"]
    menu = s.ok("get_menu", restaurant_id=rid)
    assert any(not i["available"] for i in menu) and any(i["options"] for i in menu)
    desserts = s.ok("get_menu", restaurant_id=rid, category="desserts")
    assert desserts and all(i["category"] == "Desserts" for i in desserts)


def test_check_delivery_gives_the_reasons(s):
    cid = customer(s, "Daniel Hoffman")
    rid = restaurant(s, "Pasta Fresca")["restaurant_id"]
    far = s.ok("check_delivery", restaurant_id=rid, address_id=address(s, cid, "Home"))
    assert not far["can_deliver"] and "delivery radius" in far["reasons"][0]
    near = s.ok("check_delivery", restaurant_id=rid, address_id=address(s, cid, "Work"))
    assert near["can_deliver"] and near["distance_miles"] <= near["delivery_radius_miles"]
    closed = s.ok("check_delivery", restaurant_id=restaurant(s, "Ramen Ichiban")["restaurant_id"],
                  address_id=address(s, cid, "Work"))
    assert any("closed now" in reason for reason in closed["reasons"])


def test_one_cart_per_restaurant(s):
    cid = customer(s, "Janice Watson")
    assert s.ok("list_carts", customer_id=cid) == []
    rid = restaurant(s, "Bella Napoli")["restaurant_id"]
    item = menu_item(s, rid, with_options=True)
    option = item["options"][0]["name"]
    first = s.ok("add_to_cart", customer_id=cid, item_id=item["item_id"], quantity=2, option=option.lower())
    again = s.ok("add_to_cart", customer_id=cid, item_id=item["item_id"], option=option)
    assert again["cart_id"] == first["cart_id"] and again["lines"][0]["quantity"] == 3
    assert again["lines"][0]["unit_price"] == round(item["price"] + item["options"][0]["extra"], 2)
    other = s.ok("add_to_cart", customer_id=cid, item_id=menu_item(s, restaurant(s, "Curry Leaf")["restaurant_id"])["item_id"])
    assert other["cart_id"] != first["cart_id"]
    assert len(s.ok("list_carts", customer_id=cid)) == 2


def test_add_to_cart_refusals(s):
    cid = customer(s, "Janice Watson")
    rid = restaurant(s, "Jade Garden")["restaurant_id"]
    sold_out = menu_item(s, rid, available=False)
    s.fails("add_to_cart", "sold out", customer_id=cid, item_id=sold_out["item_id"])
    plain = menu_item(s, rid)
    s.fails("add_to_cart", "has no option", customer_id=cid, item_id=plain["item_id"], option="Triple size")
    s.fails("add_to_cart", "quantity must be", customer_id=cid, item_id=plain["item_id"], quantity=21)


def test_remove_from_cart_and_clear_cart(s):
    cid = customer(s, "Daniel Hoffman")
    pasta = cart(s, cid, "Pasta Fresca")
    first = pasta["lines"][0]["item_id"]
    after = s.ok("remove_from_cart", cart_id=pasta["cart_id"], item_id=first)
    assert all(line["item_id"] != first for line in after.get("lines", []))
    s.fails("remove_from_cart", "is not in cart", cart_id=pasta["cart_id"], item_id=first)
    olive = cart(s, cid, "Olive Tree")
    assert s.ok("clear_cart", cart_id=olive["cart_id"]) == {"cart_id": olive["cart_id"], "closed": True}
    assert all(c["cart_id"] != olive["cart_id"] for c in s.ok("list_carts", customer_id=cid))


def test_removing_and_rating_happen_once_so_they_are_not_idempotent(s):
    """Finding: remove_from_cart was annotated idempotent, yet its repeat is refused: the item is gone,
    and the removal of a cart's last item closes the cart. Removing an item and rating an order happen
    once, so neither is annotated idempotent and a repeat is refused with the world unchanged; set_tip
    is idempotent, and setting the same tip again changes nothing."""
    from prove_env.registry import get_toolkit

    specs = get_toolkit("food_delivery").specs()
    assert not specs["remove_from_cart"].idempotent and specs["remove_from_cart"].destructive
    assert not specs["rate_order"].idempotent and specs["set_tip"].idempotent
    cid = customer(s, "Daniel Hoffman")
    pasta = cart(s, cid, "Pasta Fresca")
    *rest, last = [line["item_id"] for line in pasta["lines"]]
    assert rest, "the cart holds more than one item"
    for item_id in rest:
        s.ok("remove_from_cart", cart_id=pasta["cart_id"], item_id=item_id)
        s.fails("remove_from_cart", "is not in cart", cart_id=pasta["cart_id"], item_id=item_id)
    assert s.ok("remove_from_cart", cart_id=pasta["cart_id"], item_id=last) == {"cart_id": pasta["cart_id"],
                                                                                 "closed": True}
    s.fails("remove_from_cart", "not found", cart_id=pasta["cart_id"], item_id=last)
    preparing = s.ok("list_orders", customer_id=customer(s, "Maria Wilson"), status="preparing")[0]
    tipped = s.ok("set_tip", order_id=preparing["order_id"], tip=4.25)
    before = s.world.digest()
    assert s.ok("set_tip", order_id=preparing["order_id"], tip=4.25) == tipped and s.world.digest() == before


def test_promo_rules(s):
    cid = customer(s, "Linda West")
    aegean = cart(s, cid, "Aegean Grill")
    ok = s.ok("check_promo", cart_id=aegean["cart_id"], code="save10")
    assert ok["applies"] and ok["discount"] == round(aegean["subtotal"] * 0.10, 2)
    assert "expired" in s.ok("check_promo", cart_id=aegean["cart_id"], code="SPRING15")["reason"]
    assert "valid only at" in s.ok("check_promo", cart_id=aegean["cart_id"], code="LUIGI3")["reason"]
    assert "at least 50.00" in s.ok("check_promo", cart_id=aegean["cart_id"], code="FEAST20")["reason"]
    s.fails("check_promo", "does not exist", cart_id=aegean["cart_id"], code="FREEFOOD")
    home = address(s, cid, "Work")
    s.fails("place_order", "expired", cart_id=aegean["cart_id"], address_id=home, promo_code="SPRING15")
    order = s.ok("place_order", cart_id=aegean["cart_id"], address_id=home, promo_code="welcome5", tip=3.0)
    assert order["promo_code"] == "WELCOME5" and order["discount"] == 5.0
    assert order["total"] == round(order["subtotal"] + order["delivery_fee"] - 5.0 + 3.0, 2)
    # once per customer: the same code on the next order is refused
    item = menu_item(s, order["restaurant_id"])
    again = s.ok("add_to_cart", customer_id=cid, item_id=item["item_id"], quantity=3)
    s.fails("check_promo", "", cart_id=again["cart_id"], code="NOPE")
    assert "once per customer" in s.ok("check_promo", cart_id=again["cart_id"], code="WELCOME5")["reason"]


def test_place_order_refused_out_of_range_then_placed_elsewhere(s):
    cid = customer(s, "Brooke Hale")
    home = address(s, cid, "Home")
    jade = cart(s, cid, "Jade Garden")
    text = s.fails("place_order", "delivers within", cart_id=jade["cart_id"], address_id=home)
    assert "closer address or restaurant" in text
    bombay = cart(s, cid, "Bombay Spice")
    order = s.ok("place_order", cart_id=bombay["cart_id"], address_id=home, tip=4.0)
    assert order["status"] == "placed" and order["restaurant"] == "Bombay Spice" and order["tip"] == 4.0
    assert [i["item_id"] for i in order["items"]] == [line["item_id"] for line in bombay["lines"]]
    assert all(c["cart_id"] != bombay["cart_id"] for c in s.ok("list_carts", customer_id=cid))
    assert s.ok("list_orders", customer_id=cid)[0]["order_id"] == order["order_id"]


def test_place_order_refused_when_closed_sold_out_or_too_small(s):
    cid = customer(s, "Stacey Mays")
    work = address(s, cid, "Work")
    s.fails("place_order", "is closed now", cart_id=cart(s, cid, "Ramen Ichiban")["cart_id"], address_id=work)
    s.fails("place_order", "tip must be", cart_id=cart(s, cid, "Taqueria Sol")["cart_id"], address_id=work,
              tip=150.0)
    lauren = customer(s, "Lauren Archer")
    jade = cart(s, lauren, "Jade Garden")
    sold = next(line for line in jade["lines"] if not line["available"])
    s.fails("place_order", "sold out", cart_id=jade["cart_id"], address_id=address(s, lauren, "Work"))
    s.ok("remove_from_cart", cart_id=jade["cart_id"], item_id=sold["item_id"])
    assert s.ok("place_order", cart_id=jade["cart_id"], address_id=address(s, lauren, "Work"))["status"] == "placed"
    bruce = customer(s, "Bruce Mcdonald")
    s.fails("place_order", "minimum order", cart_id=cart(s, bruce, "Bombay Spice")["cart_id"],
              address_id=address(s, bruce, "Home"))
    s.fails("place_order", "is not saved by the owner", cart_id=cart(s, bruce, "Bombay Spice")["cart_id"],
              address_id=work)


def test_order_life_cycle_follows_the_clock(s):
    stages = {}
    for c in s.ok("find_customers", limit=100):
        for o in s.ok("list_orders", customer_id=c["customer_id"]):
            stages.setdefault(o["status"], o)
    assert set(stages) == {"placed", "accepted", "preparing", "out_for_delivery", "delivered", "cancelled"}
    order = stages["out_for_delivery"]
    tracked = s.ok("track_order", order_id=order["order_id"])
    assert list(tracked["timeline"]) == ["placed", "accepted", "preparing", "out_for_delivery"]
    assert tracked["expected_delivery"] > tracked["placed_at"] and tracked["items"]
    assert "timeline" not in s.ok("track_order", order_id=stages["cancelled"]["order_id"])
    delivered = s.ok("list_orders", customer_id=customer(s, "Megan Chang"), status="delivered")
    assert delivered and all(o["status"] == "delivered" for o in delivered)


def test_cancel_only_before_preparing(s):
    cid = customer(s, "Michelle Green")
    accepted = s.ok("list_orders", customer_id=cid, status="accepted")[0]
    assert s.ok("cancel_order", order_id=accepted["order_id"])["status"] == "cancelled"
    s.fails("cancel_order", "only orders not yet being prepared", order_id=accepted["order_id"])
    preparing = s.ok("list_orders", customer_id=customer(s, "Maria Wilson"), status="preparing")[0]
    s.fails("cancel_order", "is preparing", order_id=preparing["order_id"])
    delivered = s.ok("list_orders", customer_id=cid, status="delivered")[0]
    s.fails("cancel_order", "is delivered", order_id=delivered["order_id"])


def test_tips_change_until_delivery(s):
    preparing = s.ok("list_orders", customer_id=customer(s, "Maria Wilson"), status="preparing")[0]
    tipped = s.ok("set_tip", order_id=preparing["order_id"], tip=6.5)
    assert tipped["tip"] == 6.5 and tipped["total"] == round(preparing["total"] - preparing["tip"] + 6.5, 2)
    s.fails("set_tip", "tip must be", order_id=preparing["order_id"], tip=-1.0)
    delivered = s.ok("list_orders", customer_id=customer(s, "Maria Wilson"), status="delivered")[0]
    s.fails("set_tip", "before delivery", order_id=delivered["order_id"], tip=2.0)


def test_ratings_after_delivery_only_once(s):
    cid = customer(s, "Kelly Martinez")
    on_the_way = s.ok("list_orders", customer_id=cid, status="out_for_delivery")[0]
    s.fails("rate_order", "only delivered orders", order_id=on_the_way["order_id"], stars=5)
    unrated = next(o for o in s.ok("list_orders", customer_id=cid, status="delivered") if o["rating"] is None)
    s.fails("rate_order", "stars must be", order_id=unrated["order_id"], stars=6)
    assert s.ok("rate_order", order_id=unrated["order_id"], stars=4, comment="Tasty")["rating"] == 4
    s.fails("rate_order", "already rated", order_id=unrated["order_id"], stars=5)


def test_reorder_fills_the_restaurants_cart_and_skips_sold_out(s):
    cid = customer(s, "Sean Carlson")
    past = s.ok("list_orders", customer_id=cid, status="delivered")[0]
    items = s.ok("track_order", order_id=past["order_id"])["items"]
    menu = {i["item_id"]: i for i in s.ok("get_menu", restaurant_id=past["restaurant_id"])}
    refilled = s.ok("reorder", order_id=past["order_id"])
    assert refilled["restaurant_id"] == past["restaurant_id"]
    assert [l["item_id"] for l in refilled["lines"]] == [i["item_id"] for i in items if menu[i["item_id"]]["available"]]
    assert refilled["skipped"] == [i["name"] for i in items if not menu[i["item_id"]]["available"]]
    again = s.ok("reorder", order_id=past["order_id"])
    assert again["cart_id"] == refilled["cart_id"]
    assert [l["quantity"] for l in again["lines"]] == [2 * l["quantity"] for l in refilled["lines"]]


def test_reorder_refused_when_everything_is_sold_out(s):
    for c in s.ok("find_customers", limit=100):
        for o in s.ok("list_orders", customer_id=c["customer_id"]):
            menu = {i["item_id"]: i["available"] for i in s.ok("get_menu", restaurant_id=o["restaurant_id"])}
            items = s.ok("track_order", order_id=o["order_id"])["items"]
            if not any(menu[i["item_id"]] for i in items):
                s.fails("reorder", "sold out now", order_id=o["order_id"])
                return
    pytest.fail("no order of the seed-0 world has only sold-out items")


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------


def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play):
    from prove_env.task import Task

    order = Task(id="order", server="food_delivery", seed=0,
                 user_turns=["Hi, Brooke Hale here. Please order my Bombay Spice cart to my home address."],
                 gold=[[{"id": "g1", "name": "find_customers", "arguments": {"name": "Brooke Hale"}},
                        {"id": "g2", "name": "list_carts", "arguments": {"customer_id": "CUS-0025"},
                         "depends_on": ["g1"]},
                        {"id": "g3", "name": "list_addresses", "arguments": {"customer_id": "CUS-0025"},
                         "depends_on": ["g1"]},
                        {"id": "g4", "name": "place_order", "arguments": {"cart_id": "CRT-0024", "address_id": "ADR-0047"},
                         "depends_on": ["g2", "g3"]}]])
    # another path: checking delivery first, found by email
    other = play(order, [_call("find_customers", email="brooke.hale@example.com"),
                         _call("check_delivery", restaurant_id="RST-0015", address_id="ADR-0047"),
                         _call("place_order", cart_id="CRT-0024", address_id="ADR-0047"), "Ordered."])
    assert other["success"]
    # the order placed, plus damage nobody asked for: another cart emptied
    damage = play(order, [_call("place_order", cart_id="CRT-0024", address_id="ADR-0047"),
                          _call("clear_cart", cart_id="CRT-0025"), "Ordered."])
    assert not damage["success"]
    wrong = play(order, [_call("place_order", cart_id="CRT-0024", address_id="ADR-0046"), "Ordered."])
    assert not wrong["success"]

    rate = Task(id="rate", server="food_delivery", seed=0,
                user_turns=["This is Kelly Martinez. Give my last delivered order 4 stars."],
                gold=[[{"id": "g1", "name": "find_customers", "arguments": {"name": "Kelly Martinez"}},
                       {"id": "g2", "name": "list_orders", "arguments": {"customer_id": "CUS-0008"},
                        "depends_on": ["g1"]},
                       {"id": "g3", "name": "rate_order", "arguments": {"order_id": "ORD-0028", "stars": 4},
                        "depends_on": ["g2"]}]])
    # a comment the customer did not ask for is a detail, not damage
    assert play(rate, [_call("rate_order", order_id="ORD-0028", stars=4, comment="Tasty"), "Rated."])["success"]
    assert not play(rate, [_call("rate_order", order_id="ORD-0028", stars=5), "Rated."])["success"]


def test_seed_world_has_the_variety_tasks_need(s):
    restaurants = s.ok("search_restaurants", limit=100)
    assert any(r["open_now"] for r in restaurants) and any(not r["open_now"] for r in restaurants)
    assert len({r["cuisine"] for r in restaurants}) == 10
    people = s.ok("find_customers", limit=100)
    carts = {c["customer_id"]: s.ok("list_carts", customer_id=c["customer_id"]) for c in people}
    orders = {c["customer_id"]: s.ok("list_orders", customer_id=c["customer_id"]) for c in people}
    assert any(not v for v in carts.values()) and any(len(v) > 1 for v in carts.values())
    assert any(not v for v in orders.values())
    assert any(not line["available"] for v in carts.values() for c in v for line in c["lines"])


# -- synthesized requests ---------------------------------------------------------------------------


def _asks(tool: str, *, seeds=(0, 1), draws: int = 80, also=None):
    """Requests the recipe writes for `tool` from the bundles of a few worlds, each with the result of
    its call in that world (every tool asked about here reads), and with what `also(read, ask)`
    reads there."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("food_delivery"), get_recipe("food_delivery")
    found = []
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"food asks {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == tool):
            for _ in range(draws):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is not None:
                    found.append((ask, read(tool, **ask.args)) + ((also(read, ask),) if also else ()))
        world.close()
    return found


def test_a_restaurant_search_asks_for_every_fact_it_records():
    """The facts of a search are every matching restaurant (and its rating): a wording asks for all
    of them, never for one ('find me a restaurant', 'which is best rated')."""
    asks = _asks("search_restaurants")
    assert len(asks) > 40
    for ask, result in asks:
        words = " ".join(filter(None, (ask.say, ask.detail)))
        facts = ask.facts(result)
        assert facts[:: 2 if len(facts) == 2 * len(result) else 1] == [r["name"] for r in result]
        assert "best" not in words and " a restaurant " not in words, words
        if len(facts) == 2 * len(result):  # the ratings too
            assert "rated" in words or "ratings" in words, words


def test_a_quantity_is_said_with_the_request_never_held_back():
    """A cart takes one of a dish unless told: a request that held the number back ('Add the falafel
    wrap to my cart.' then 'Two of them.') would have the assistant ask for a value it may rightly
    leave to its default."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("food_delivery"), get_recipe("food_delivery")
    (goal,) = [g for g in recipe.goals if g.tool == "add_to_cart"]
    world = worlds.create(toolkit, 0)
    rng = random.Random("food quantities")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    asks = [a for a in (goal.build(rng.choice(bundles), rng) for _ in range(200)) if a is not None]
    several = [a for a in asks if a.args.get("quantity", 1) > 1]
    assert len(several) > 40
    words = {2: "two", 3: "three", 4: "four"}
    for ask in several:
        assert ask.detail is None and words[ask.args["quantity"]] in ask.say, ask.say


def _needs_the_call(ask, result: dict, shown: dict) -> bool:
    """Whether some fact of `ask` comes from a field of `result` that the look-up's row `shown` does
    not hold (with every field the row shows masked, at least one fact is still the same)."""
    masked = {k: ("\\x00masked" if k in shown else v) for k, v in result.items()}
    try:
        kept = ask.facts(masked)
    except (KeyError, TypeError, ValueError, AttributeError):
        return False
    return any(a == b for a, b in zip(ask.facts(result), kept))


def test_a_restaurant_question_asks_for_what_only_the_restaurant_in_full_holds():
    """The search that finds a restaurant by its name shows its rating, hours, fee and radius: a
    question answered by those alone would make `get_restaurant` a call nobody needs."""
    asks = _asks("get_restaurant", also=lambda read, ask: read("search_restaurants", name=ask.refs[0].entity["name"]))
    assert len(asks) > 40
    for ask, result, (shown,) in asks:
        assert _needs_the_call(ask, result, shown), ask.say


def test_a_tip_is_never_held_back():
    """An order goes without a tip unless told: a request that held the tip back ('Send my Burger Barn
    cart to my work.', then 'Add a $5 tip.') would have the assistant ask for a value it may rightly
    leave to its default. The address, which the order cannot do without, may be held back."""
    from prove_env.synthesis.wording import money

    asks = [ask for ask, _ in _built("place_order", draws=150)]
    tipped = [a for a in asks if "tip" in a.args]
    assert len(asks) > 40 and tipped
    for ask in tipped:
        assert money(ask.args["tip"]) in ask.say and money(ask.args["tip"]) not in (ask.detail or ""), ask.say


def test_one_star_is_said_as_one_star():
    asks = [ask for ask, _ in _built("rate_order", draws=200)]
    assert any(a.args["stars"] == 1 for a in asks)
    for ask in asks:
        for words in (ask.say, ask.detail or "", ask.terse or ""):
            assert "1 stars" not in words, words


def _built(tool: str, *, seeds=(0, 1), draws: int = 80):
    """Requests the recipe writes for `tool` (writes included: nothing is run), with the reader of
    their world."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("food_delivery"), get_recipe("food_delivery")
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"food built {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == tool):
            for _ in range(draws):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is not None:
                    yield ask, read
        world.close()


def test_a_zero_minimum_or_fee_is_stated_the_way_people_say_it():
    """'How much is delivery from Luigi's, and is there a minimum order?' with no minimum and free
    delivery is rightly answered 'Delivery is free and there's no minimum order': the facts of a
    zero minimum and a zero fee accept those words (and a bare 0 still)."""
    from prove_env.facts import stated

    asks = _asks("get_restaurant")
    zero_min = [ask.facts(r)[-1] for ask, r in asks if r["min_order"] == 0 and len(ask.facts(r)) == 2]
    zero_fee = [ask.facts(r)[0] for ask, r in asks if r["delivery_fee"] == 0 and len(ask.facts(r)) == 2
                and "fee" in ask.terse]
    assert zero_min and zero_fee
    for fact in zero_min:
        assert stated(fact, "There's no minimum order.") and stated(fact, "Minimum order: $0.00."), fact
    for fact in zero_fee:
        assert stated(fact, "Delivery is free.") and stated(fact, "The delivery fee is $0.00."), fact


def test_a_cart_question_asks_for_the_carts_it_records():
    """The facts of `list_carts` are each cart's restaurant and total: no wording asks for what is
    in the carts ('what I've put in my carts'), which an answer listing the dishes alone fulfils."""
    asks = [ask for ask, _ in _built("list_carts", draws=200)]
    assert len({a.say for a in asks}) >= 4
    for ask in asks:
        assert "put in" not in ask.say and "sitting in" not in ask.say, ask.say
        assert "cart" in ask.say and ("restaurant" in ask.say or "carts" in ask.say), ask.say


def test_a_reorder_never_opens_with_a_pronoun_nothing_came_before():
    """'That was delicious. Put the order from Gangnam Bowl back in my cart' opens a conversation with
    'That', which points at nothing the user has said."""
    asks = [ask for ask, _ in _built("reorder", draws=200)]
    assert len({a.say for a in asks}) >= 3
    for ask in asks:
        assert not ask.say.startswith(("That ", "It ", "This ")), ask.say


def test_no_abstention_asks_an_order_count_the_shown_tools_add_up():
    """Finding: "Which restaurant gets the most orders in the whole app?" (count_orders hidden) was to
    be declined, but find_customers() lists every customer and list_orders of each, grouped by
    restaurant, adds up to the hidden tool's numbers: answering them scored 0. No hidden-tool request
    asks what the shown find_customers and list_orders add up to."""
    import collections

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("food_delivery"), get_recipe("food_delivery")
    world = worlds.create(toolkit, 0)
    try:
        read = Reader(toolkit, world)
        customers = read("find_customers", limit=100)
        assert 1 < len(customers) < 100
        added = collections.Counter(o["restaurant_id"] for c in customers
                                    for o in read("list_orders", customer_id=c["customer_id"], limit=100))
        assert added and dict(added) == read("count_orders")
        assert not [h for h in recipe.hidden if h.tool == "count_orders"]
    finally:
        world.close()


def test_a_neighborhood_question_never_asks_how_far_the_restaurant_is():
    """Finding: "Is Koi Kitchen far from me? Which neighborhood is it in?" recorded only the
    neighborhood: a model that measured the distance (the customer, an address, check_delivery) lost
    reward for calls the gold does not make. A question answered by the restaurant in full asks
    nothing about the user's own place."""
    asks = [ask for ask, _ in _built("get_restaurant", draws=200)]
    hoods = [a for a in asks if a.terse.endswith("neighborhood?")]
    assert len(hoods) > 20 and any("located" in a.say for a in hoods)
    for ask in asks:
        assert "far from me" not in ask.say and " me?" not in ask.say, ask.say


def test_several_of_a_dish_are_them_not_it():
    """Finding: "I'd like three fish tacos from El Farolito. Add it to my cart." """
    asks = [ask for ask, _ in _built("add_to_cart", draws=300)]
    closing = [a for a in asks if a.say.endswith("to my cart.") and ". Add " in a.say]
    assert any(a.args.get("quantity", 1) > 1 for a in closing) and any(a.args.get("quantity", 1) == 1 for a in closing)
    for ask in closing:
        assert (" Add them " in ask.say) == (ask.args.get("quantity", 1) > 1), ask.say


def test_delivered_orders_are_asked_with_each_ones_cost():
    """Finding: "How many of my orders have been delivered so far, and what did they cost?" records each
    order's total, while "$123.98 in all" answers it as well; every wording asks for each order's cost."""
    asks = [ask for ask, _ in _built("list_orders", draws=300) if "delivered" in ask.say]
    assert len({a.say for a in asks}) >= 3
    for ask in asks:
        assert "they cost" not in ask.say and "for how much" not in ask.say, ask.say
        assert "each" in ask.say or "totals" in ask.say, ask.say


def test_last_orders_are_asked_of_as_many_as_the_customer_has():
    """Finding: "Which restaurants did my last three orders come from?" of a customer with two orders
    (a request that presumes a third); the number said is how many the listing holds."""
    import re

    words = {"three": 3, "3": 3, "two": 2, "2": 2}
    asks = [(ask, result) for ask, result in _asks("list_orders", draws=200) if "limit" in ask.args]
    assert {len(result) for _, result in asks} >= {2, 3}
    for ask, result in asks:
        for text in (ask.say, ask.terse):
            said = [n for w, n in words.items() if re.search(rf"\b{w}\b", text)]
            assert said == ([len(result)] if len(result) > 1 else []), (text, len(result))


def test_an_arrival_due_today_is_stated_by_its_time_alone():
    """Finding: "When should it arrive?" recorded the ETA as a date and time, so "It should arrive around
    1:53 PM." (the natural answer for today) failed; an ETA of the world's today is also stated by its time."""
    import datetime as dt

    from prove_env.facts import facts_stated

    checked = 0
    for ask, result in _asks("track_order", draws=60):
        eta = result.get("expected_delivery")
        if eta is None:
            continue
        moment = dt.datetime.fromisoformat(eta)
        hour = moment.hour % 12 or 12
        answer = f"It's {result['status'].replace('_', ' ')} and should arrive around {hour}:{moment:%M} " \
                 f"{'PM' if moment.hour >= 12 else 'AM'}."
        # placed and due the same day: the world's clock, between the two, reads that day too
        if moment.date() == dt.date.fromisoformat(result["placed_at"][:10]):
            assert facts_stated([ask.facts(result)], [answer]), (ask.facts(result), answer)
            checked += 1
    assert checked


def test_one_of_a_dish_is_left_to_the_default_quantity():
    """Finding: "Put a salmon nigiri from Koi Kitchen in my cart, would you?" had quantity=1 in the gold, so
    the natural add_to_cart without a quantity (the tool's default is one) matched no gold call (1.2)."""
    asks = [ask for ask, _ in _built("add_to_cart", draws=200)]
    ones = [a for a in asks if not any(w in a.say for w in ("two ", "three ", "Two ", "Three "))]
    assert len(ones) > 40
    for ask in asks:
        assert ask.args.get("quantity", 2) != 1, (ask.say, ask.args)


def test_a_rating_never_presumes_a_fresh_delivery_nor_runs_a_day_into_the_stars():
    """Findings: "I want to review my Blue Plate Diner order now that it arrived." of an order delivered two
    months before; terse "Rate my Casa Verde order from December 8 5 stars." (the day and the stars run
    together)."""
    import re

    asks = [ask for ask, _ in _built("rate_order", draws=300)]
    assert any(re.search(r"\d", a.terse.split(":")[0]) for a in asks)  # some order is named by its day
    for ask in asks:
        assert "now that it arrived" not in ask.say, ask.say
        assert not re.search(r"\d \d star", ask.terse), ask.terse


def test_several_of_a_dish_are_said_in_the_plural_or_as_orders():
    """Finding: "I'd like three falafel wrap with the 'Add feta' option from Olive Tree." (the number
    before the singular menu name); a dish counted as things is said in the plural ('three falafel
    wraps'), any other as servings ('two orders of pad thai')."""
    import re

    asks = [ask for ask, _ in _built("add_to_cart", draws=300)]
    words = {2: "two", 3: "three", 4: "four"}
    several = [a for a in asks if a.args.get("quantity", 1) > 1]
    assert len(several) > 40
    for ask in several:
        said = ask.mentions[1]
        if said.endswith("s"):
            continue
        for text in (ask.say, ask.terse):
            assert not re.search(rf"\b{words[ask.args['quantity']]} {re.escape(said)}\b(?!s)", text, re.I), text
            assert said in text, text


def test_a_reorder_never_says_order_twice():
    """Finding: terse "Reorder my order from Jade Garden into my cart." ("reorder" beside "my order")."""
    import re

    asks = [ask for ask, _ in _built("reorder", draws=200)]
    assert any(re.search(r"\border\b", a.terse) for a in asks)  # some order is named 'my order from ...'
    for ask in asks:
        for text in (ask.say, ask.terse):
            assert not (re.search(r"\breorder\b", text, re.I) and re.search(r"\border\b", text, re.I)), text


def test_a_tip_said_to_go_up_or_down_goes_that_way():
    """'The driver deserves more. Can you bump up the tip?' then '$4 sounds right.' on an order tipped $5
    lowers the tip: a request that says which way the tip goes says the way the new tip goes."""
    asks = []
    for ask, read in _built("set_tip", draws=120):
        old = read("track_order", order_id=ask.args["order_id"])["tip"]
        asks.append((ask, old))
    assert any(a.args["tip"] < old for a, old in asks) and any(a.args["tip"] > old for a, old in asks)
    for ask, old in asks:
        words = f"{ask.say} {ask.detail or ''}".lower()
        if any(w in words for w in ("raise", "bump up", "deserves more")):
            assert ask.args["tip"] > old, (ask.say, old)
        if any(w in words for w in ("lower", "too much", "down")):
            assert ask.args["tip"] < old, (ask.say, old)


def test_an_address_said_with_its_delivery_question_is_a_sentence():
    """'Does Bangkok Garden deliver to me? How far away would it be? My gym.': a detail said in the same
    message as its request is a sentence of its own, not a bare fragment."""
    from prove_env.synthesis.compose import _inline

    details = [ask.detail for ask, _ in _built("check_delivery", draws=120) if ask.detail]
    assert details
    for detail in details:
        said = _inline(detail)
        assert said.split()[0] in ("I'm", "It's"), said


def test_one_of_a_heaped_dish_is_an_order_of_it():
    """'Cart: an edamame, Ramen Ichiban.': a dish that is a heap of pieces is asked for as 'an order
    of edamame', never with 'a' or 'an' before its name."""
    import re

    from prove_env.servers.food_delivery.synth import HEAPED

    heaped = 0
    for ask, _ in _built("add_to_cart", draws=300):
        said = ask.mentions[-1]
        if ask.args.get("quantity", 1) == 1 and said.lower() in HEAPED:
            heaped += 1
            for text in (ask.say, ask.terse):
                assert f"an order of {said}" in text, text
                assert not re.search(rf"\ban? {re.escape(said)}\b", text, re.I), text
    assert heaped


def test_an_address_is_held_back_only_where_the_customer_has_others():
    """Finding: "Does Taj Palace deliver to me? How far away would it be?" then "I'm asking about my
    home." (and "... can reach one of my addresses" then "It's my gym.") of customers with one saved
    address: the gold asked which address where the look-up tells the one there is. A delivery check or
    an order holds the address back only where the customer has more than one."""
    held = plain = single = 0
    for tool in ("check_delivery", "place_order"):
        for ask, read in _built(tool, draws=200):
            (address,) = [r.entity for r in ask.refs if r.kind == "address"]
            count = len(read("list_addresses", customer_id=address["customer_id"]))
            single += count == 1
            if ask.detail is not None:
                assert count > 1, (ask.say, ask.detail)
                held += 1
            else:
                plain += 1
    assert held and plain and single


def test_a_terse_introduction_by_email_does_not_read_as_an_order():
    """Finding: "Email david.carpenter@example.com. Rate the order from Golden Dragon: 5 stars." reads
    first as an order to send an email: a terse introduction by email puts a colon or other words
    between "Email" and the address."""
    import re

    said = {intro[1] for intro in _customer_intros("email", 300)}
    assert len(said) > 1
    for words in said:
        assert not re.match(r"e-?mail\s+\S+@", words, re.I), words


def test_a_dish_named_in_the_plural_is_them_when_taken_out_of_a_cart():
    """Finding: "I changed my mind about the onion rings; remove it from the Blue Plate Diner cart."
    A dish named in the plural (onion rings, churros, fresh rolls) is "them" in the request."""
    import re

    plural = 0
    for ask, _ in _built("remove_from_cart", draws=300):
        food = ask.mentions[0]
        if "changed my mind" not in ask.say:
            continue
        if food.endswith("s") and not food.endswith("ss"):
            plural += 1
            assert re.search(r"\bremove them\b", ask.say), ask.say
        else:
            assert re.search(r"\bremove it\b", ask.say), ask.say
    assert plural


def test_a_reorder_asks_for_the_order_again_not_the_same_as_it():
    """Finding: "I'd like the same as the order from Gangnam Bowl again; add it all to my cart." reads
    oddly: the request names the order itself ("I'd like the order from Gangnam Bowl again")."""
    said = [ask.say for ask, _ in _built("reorder", draws=300)]
    assert any(text.startswith("I'd like ") for text in said)
    for text in said:
        assert "the same as" not in text, text


def test_a_restaurant_search_names_no_part_of_the_day():
    """Finding: "I'd love some Mediterranean tonight. Which places do you have, and how is each
    rated?" said at 11 AM, where Aegean Grill closes at 3:30 PM: the facts hold every Mediterranean
    place, so the answer that leaves out the one closed by tonight fails. A search by cuisine that
    records every place of it names no part of the day."""
    import re

    said = 0
    for ask, _ in _built("search_restaurants", draws=200):
        if "open_now" in ask.args:
            continue
        said += 1
        for text in (ask.say, ask.terse):
            assert not re.search(r"\b(tonight|this (morning|afternoon|evening)|for (lunch|dinner))\b", text,
                                 re.I), text
    assert said


def test_an_introduction_by_name_greets_before_the_name():
    """Finding: "It's James Cross, hello." opens a conversation with the greeting after the name; an
    introduction by name greets first ("Hello, it's James Cross.") or not at all."""
    import re

    said = {words for intro in _customer_intros("name", 400) for words in intro}
    assert len(said) > 5
    for words in said:
        assert not re.search(r",\s*(hello|hi|hey)\W*$", words, re.I), words


def test_a_menu_section_is_said_as_the_filter_takes_it():
    """Finding (seed 135): "Jade Garden dim sum and prices?" with the gold `get_menu(category="Dim
    sum")`: an agent passing the user's words `category="dim sum"` (the tool folds case, same items)
    scores argument 0.75. Every wording says the section in the menu's own letter case."""
    asks = [ask for ask, _ in _built("get_menu", draws=120)]
    assert len(asks) > 20
    for ask in asks:
        for words in (ask.say, ask.terse or ""):
            assert ask.args["category"] in words, words


def _customer_intros(key: str, draws: int) -> list[tuple[str, str]]:
    """The introductions of the one customer look-up by `key` ('name' or 'email'), for `draws`
    customers."""
    from prove_env.synthesis.recipe import Ref, get_recipe

    lookups = [lookup for lookup in get_recipe("food_delivery").lookups if lookup.kind == "customer"
               and key in lookup.args(Ref.of("customer", {"customer_id": "C", "name": "N", "email": "e"}))]
    assert len(lookups) == 1
    return [lookups[0].intro(Ref.of("customer", {"customer_id": f"CUS-{i:04d}", "name": f"Ann Lee{i}",
                                                  "email": f"person{i}@example.com"})) for i in range(draws)]


def test_an_introduction_names_no_topic():
    """Finding (seed 137): "Hello, Felicia Clayton calling about my food orders." opened a question
    about whether a restaurant delivers to her gym and which Indian places are open, nothing about her
    orders. An introduction is said before every kind of request, so none names a topic."""
    import re

    said = {words for key in ("name", "email") for intro in _customer_intros(key, 400) for words in intro}
    assert len(said) > 10
    for words in said:
        assert not re.search(r"\b(calling|about|regarding)\b", words, re.I), words


def test_a_hidden_clear_cart_hides_removing_its_lines_too():
    """Finding (seed 145): "Clear my Ramen Ichiban cart." with `clear_cart` hidden and the gold an
    abstention, while the shown `remove_from_cart` takes out the cart's one dish (edamame) and so
    empties it: the agent that did so was scored state 0. Hiding `clear_cart` hides
    `remove_from_cart` with it."""
    from prove_env.synthesis.recipe import get_recipe

    assert "remove_from_cart" in get_recipe("food_delivery").substitutes_of("clear_cart")


def test_an_order_placed_today_is_not_named_by_its_date():
    """Finding (seed 145): "I'd like to change the tip on the Burger Barn order I placed on December
    19." said on December 19, twelve minutes after the order: an order placed today is "today"."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("food_delivery"), get_recipe("food_delivery")
    today = dated = 0
    for seed in (0, 1, 14500000):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"food today {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        day = world.now.date()
        for goal in (g for g in recipe.goals if g.tool in ("set_tip", "track_order", "cancel_order")):
            for _ in range(150):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None:
                    continue
                (order,) = [r.entity for r in ask.refs if r.kind == "order"]
                if order["placed_at"][:10] != day.isoformat():
                    continue
                said = ask.say + " " + (ask.detail or "")
                if "today" in said:
                    today += 1
                assert f"{day:%B} {day.day}" not in said, said
                dated += 1
        world.close()
    assert dated and today


def test_a_list_of_orders_is_read_as_the_order_look_up_reads_it():
    """Finding (seed 147): "What have I had delivered, and how much was each order? Also, can you
    track my Jade Garden order?" had the gold `list_orders(status="delivered")` and then
    `list_orders()` again to find the order: one read of the whole list answers both, and the agent
    that made it lost coverage (0.75). The orders asked for are read with the customer alone, as the
    look-up of an order reads them, and the facts pick the delivered ones."""
    asks = [ask for ask, _ in _built("list_orders", draws=120)]
    assert asks
    delivered = [ask for ask in asks if "delivered" in ask.say]
    assert delivered
    for ask in delivered:
        assert set(ask.args) == {"customer_id"}, ask.args


def test_a_new_address_in_university_is_not_said_in_university():
    """Finding (seed 149, minor): "That would be 120 College Ave in University." reads as a school,
    not a part of town: the University neighborhood is said as "the University area"."""
    import re

    asks = [ask for ask, _ in _built("add_address", draws=150) if ask.args["neighborhood"] == "University"]
    assert asks
    for ask in asks:
        said = ask.say + " " + (ask.detail or "")
        assert "University" in said, said
        assert not re.search(r"\bin University\b", said), said
