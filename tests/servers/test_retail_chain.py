"""The retail chain's domain rules, through real MCP (the generic suite covers the rest)."""

from __future__ import annotations

import re

import pytest


@pytest.fixture
def s(served):
    return served("retail_chain")


def store(s, name: str) -> dict:
    [found] = s.ok("find_stores", name=name)
    return found


def product(s, name: str) -> dict:
    [found] = s.ok("search_products", name=name)
    return found


def stock(s, store_id: str, product_id: str) -> dict:
    return s.ok("get_stock", store_id=store_id, product_id=product_id)


def a_line(s, store_id: str, least: int) -> dict:
    """A line of the store with at least `least` available and no pick-up holds."""
    for line in s.ok("list_store_stock", store_id=store_id, limit=100):
        if line["available"] >= least and line["available"] == line["on_hand"]:
            return line
    raise AssertionError(f"{store_id} has no line with {least} available")


def test_seed_has_the_variety_tasks_need(s):
    stores = s.ok("find_stores", limit=100)
    assert len(stores) == 18 and len({x["name"] for x in stores}) == 18
    assert [x["name"] for x in stores if x["status"] == "closed"] == ["St. Johns"]
    assert len(s.ok("search_products", limit=100)) == 48
    assert any(p["discontinued"] for p in s.ok("search_products", limit=100))
    pearl = store(s, "Pearl District")
    statuses = {r["status"] for r in s.ok("list_reservations", store_id=pearl["store_id"], limit=100)}
    assert {"active", "expired"} <= statuses


def test_find_stores_by_city_or_name(s):
    portland = s.ok("find_stores", city="portland")
    assert [x["name"] for x in portland] == ["Hawthorne", "Pearl District", "St. Johns"]
    assert store(s, "pearl")["city"] == "Portland"
    assert s.ok("find_stores", city="Atlantis") == []
    assert s.ok("find_stores", city="Denver", name="Baker")[0]["name"] == "Baker"


def test_get_store_has_address_hours_and_coordinates(s):
    full = s.ok("get_store", store_id=store(s, "Ballard")["store_id"])
    assert full["city"] == "Seattle" and 47 < full["latitude"] < 48 and full["longitude"] < -122
    assert set(full["hours"]) == {"monday_to_saturday", "sunday"} and full["manager"]


def test_search_products_by_name_brand_and_category(s):
    drills = s.ok("search_products", name="DRILL")
    assert [p["name"] for p in drills] == ["Cordless drill 20V"]
    assert {p["name"] for p in s.ok("search_products", name="dewalt")} == {"Cordless drill 20V", "Impact driver 20V"}
    paint = s.ok("search_products", category="paint")
    assert len(paint) == 6 and all(p["category"] == "Paint" for p in paint)


def test_stock_lookups_per_store(s):
    pearl = store(s, "Pearl District")["store_id"]
    lines = s.ok("list_store_stock", store_id=pearl, limit=100)
    assert lines and [x["product"] for x in lines] == sorted(x["product"] for x in lines)
    line = lines[0]
    one = stock(s, pearl, line["product_id"])
    assert one["carried"] and one["available"] == line["available"] == one["on_hand"] - one["held"]
    garden = s.ok("list_store_stock", store_id=pearl, category="Garden", in_stock_only=True)
    assert garden and all(x["category"] == "Garden" and x["available"] > 0 for x in garden)
    carried = {x["product_id"] for x in lines}
    missing = next(p for p in s.ok("search_products", limit=100) if p["product_id"] not in carried)
    assert stock(s, pearl, missing["product_id"])["carried"] is False


def test_expired_reservations_hold_nothing(s):
    pearl = store(s, "Pearl District")["store_id"]
    active = s.ok("list_reservations", store_id=pearl, status="active")
    expired = s.ok("list_reservations", store_id=pearl, status="expired")
    assert active and expired and all(r["status"] == "expired" for r in expired)
    r = active[0]
    line = stock(s, pearl, r["product_id"])
    held = sum(x["quantity"] for x in active if x["product_id"] == r["product_id"])
    assert line["held"] == held and line["available"] == line["on_hand"] - held


def test_low_stock_report(s):
    pearl = store(s, "Pearl District")["store_id"]
    low = s.ok("low_stock_report", store_id=pearl)
    assert low and all(x["available"] <= x["reorder_point"] for x in low)
    assert [x["available"] for x in low] == sorted(x["available"] for x in low)
    placed = s.ok("list_restock_orders", store_id=pearl, status="placed")
    for x in low:
        assert x["on_order"] == sum(o["quantity"] for o in placed if o["product_id"] == x["product_id"])


def test_find_nearest_stock_from_a_city_or_coordinates(s):
    drill = product(s, "Cordless drill")["product_id"]
    near = s.ok("find_nearest_stock", product_id=drill, quantity=10, city="Portland")
    assert near and all(x["available"] >= 10 and x["status"] == "open" for x in near)
    assert [x["distance_km"] for x in near] == sorted(x["distance_km"] for x in near)
    assert near[0]["city"] == "Portland"
    seattle = s.ok("find_nearest_stock", product_id=drill, quantity=1, latitude=47.61, longitude=-122.33)
    assert seattle[0]["city"] == "Seattle"
    assert s.ok("find_nearest_stock", product_id=drill, quantity=10_000, city="Denver") == []
    s.fails("find_nearest_stock", "no stores in 'Miami'", product_id=drill, city="Miami")
    anywhere = s.ok("find_nearest_stock", product_id=drill, quantity=10, limit=100)  # no origin: most available first
    assert sorted(x["store_id"] for x in anywhere) == sorted(x["store_id"] for x in s.ok(
        "find_nearest_stock", product_id=drill, quantity=10, city="Portland", limit=100))
    most_first = [(-x["available"], x["store_id"]) for x in anywhere]
    assert most_first == sorted(most_first)
    assert all(x["distance_km"] is None for x in anywhere)
    s.fails("find_nearest_stock", "either a city or both", product_id=drill, city="Boise", latitude=1.0,
              longitude=2.0)


def test_transfer_is_in_transit_until_received(s):
    pearl, hawthorne = store(s, "Pearl District")["store_id"], store(s, "Hawthorne")["store_id"]
    line = a_line(s, pearl, 5)
    before_dest = stock(s, hawthorne, line["product_id"])["on_hand"]
    sent = s.ok("transfer_stock", product_id=line["product_id"], from_store_id=pearl, to_store_id=hawthorne,
                quantity=3)
    assert sent["status"] == "in_transit" and sent["source_on_hand"] == line["on_hand"] - 3
    assert stock(s, hawthorne, line["product_id"])["on_hand"] == before_dest
    incoming = s.ok("list_transfers", store_id=hawthorne, direction="incoming", status="in_transit")
    assert sent["transfer_id"] in [t["transfer_id"] for t in incoming]
    assert sent["transfer_id"] in [t["transfer_id"] for t in s.ok("list_transfers", store_id=pearl,
                                                                   direction="outgoing")]
    got = s.ok("receive_transfer", transfer_id=sent["transfer_id"])
    assert got["status"] == "received" and got["destination_on_hand"] == before_dest + 3
    s.fails("receive_transfer", "already received", transfer_id=sent["transfer_id"])


def test_transfer_never_sends_more_than_the_source_has(s):
    pearl, hawthorne = store(s, "Pearl District")["store_id"], store(s, "Hawthorne")["store_id"]
    line = a_line(s, pearl, 1)
    text = s.fails("transfer_stock", f"only {line['available']}", product_id=line["product_id"],
                     from_store_id=pearl, to_store_id=hawthorne, quantity=line["available"] + 1)
    assert "find_nearest_stock" in text
    # a pick-up hold makes stock unavailable to transfers
    s.ok("reserve_for_pickup", store_id=pearl, product_id=line["product_id"], quantity=1, customer_name="Ann Lee")
    s.fails("transfer_stock", f"only {line['available'] - 1}", product_id=line["product_id"],
              from_store_id=pearl, to_store_id=hawthorne, quantity=line["available"])


def test_transfer_refusals(s):
    pearl, johns = store(s, "Pearl District")["store_id"], store(s, "St. Johns")["store_id"]
    line = a_line(s, pearl, 3)
    s.fails("transfer_stock", "two different stores", product_id=line["product_id"], from_store_id=pearl,
              to_store_id=pearl, quantity=1)
    s.fails("transfer_stock", "closed for renovation", product_id=line["product_id"], from_store_id=pearl,
              to_store_id=johns, quantity=1)
    s.fails("transfer_stock", "quantity must be 1 to 100", product_id=line["product_id"], from_store_id=pearl,
              to_store_id=store(s, "Ballard")["store_id"], quantity=0)


def test_reservation_holds_stock_until_collected(s):
    pearl = store(s, "Pearl District")["store_id"]
    line = a_line(s, pearl, 4)
    held = s.ok("reserve_for_pickup", store_id=pearl, product_id=line["product_id"], quantity=2,
                customer_name="  Maya   Lopez ", note="Paid online")
    assert held["status"] == "active" and held["customer_name"] == "Maya Lopez"
    after = stock(s, pearl, line["product_id"])
    assert after["on_hand"] == line["on_hand"] and after["available"] == line["available"] - 2
    found = s.ok("list_reservations", store_id=pearl, customer_name="lopez", status="active")
    assert [r["reservation_id"] for r in found] == [held["reservation_id"]]
    done = s.ok("collect_reservation", reservation_id=held["reservation_id"])
    assert done["status"] == "collected"
    final = stock(s, pearl, line["product_id"])
    assert final["on_hand"] == line["on_hand"] - 2 and final["available"] == line["available"] - 2
    s.fails("collect_reservation", "is collected", reservation_id=held["reservation_id"])
    s.fails("cancel_reservation", "is collected", reservation_id=held["reservation_id"])


def test_cancelled_reservation_releases_its_stock(s):
    pearl = store(s, "Pearl District")["store_id"]
    line = a_line(s, pearl, 2)
    held = s.ok("reserve_for_pickup", store_id=pearl, product_id=line["product_id"], quantity=1,
                customer_name="Tom Becker")
    assert s.ok("cancel_reservation", reservation_id=held["reservation_id"])["status"] == "cancelled"
    assert stock(s, pearl, line["product_id"])["available"] == line["available"]


def test_cancelling_a_cancelled_reservation_changes_nothing(s):
    pearl = store(s, "Pearl District")["store_id"]
    line = a_line(s, pearl, 2)
    held = s.ok("reserve_for_pickup", store_id=pearl, product_id=line["product_id"], quantity=1,
                customer_name="Tom Becker")
    s.ok("cancel_reservation", reservation_id=held["reservation_id"])
    before = s.world.digest()
    again = s.ok("cancel_reservation", reservation_id=held["reservation_id"])
    assert again["status"] == "cancelled" and "already cancelled" in again["note"]
    assert s.world.digest() == before
    s.fails("collect_reservation", "is cancelled", reservation_id=held["reservation_id"])


def test_one_time_events_are_not_idempotent(s):
    """Collecting a reservation, receiving a transfer and receiving a restock order move stock once: a repeat
    is refused, so none of them is annotated idempotent; the cancellations are, and a repeat changes nothing."""
    from prove_env.registry import get_toolkit

    specs = get_toolkit("retail_chain").specs()
    assert not any(specs[name].idempotent for name in ("collect_reservation", "receive_transfer",
                                                       "receive_restock_order"))
    assert specs["cancel_reservation"].idempotent and specs["cancel_restock_order"].idempotent


def test_reservation_refusals(s):
    pearl, johns = store(s, "Pearl District")["store_id"], store(s, "St. Johns")["store_id"]
    line = a_line(s, pearl, 1)
    s.fails("reserve_for_pickup", "1 to 5", store_id=pearl, product_id=line["product_id"], quantity=6,
              customer_name="Ann Lee")
    s.fails("reserve_for_pickup", "closed for renovation", store_id=johns, product_id=line["product_id"],
              quantity=1, customer_name="Ann Lee")
    s.fails("reserve_for_pickup", "must not be empty", store_id=pearl, product_id=line["product_id"],
              quantity=1, customer_name="   ")
    expired = s.ok("list_reservations", store_id=pearl, status="expired")[0]
    s.fails("collect_reservation", "expired", reservation_id=expired["reservation_id"])
    s.fails("cancel_reservation", "expired", reservation_id=expired["reservation_id"])


def test_reserve_more_than_available_is_refused(s):
    pearl = store(s, "Pearl District")["store_id"]
    line = next(x for x in s.ok("list_store_stock", store_id=pearl, limit=100) if 0 < x["available"] < 5)
    s.fails("reserve_for_pickup", f"only {line['available']}", store_id=pearl, product_id=line["product_id"],
              quantity=line["available"] + 1, customer_name="Ann Lee")


def test_restock_order_life_cycle(s):
    pearl = store(s, "Pearl District")["store_id"]
    low = next(x for x in s.ok("low_stock_report", store_id=pearl) if not x["discontinued"] and not x["on_order"])
    order = s.ok("create_restock_order", store_id=pearl, product_id=low["product_id"], quantity=24)
    assert order["status"] == "placed" and order["expected_on"] == "2026-08-25"
    s.fails("create_restock_order", "already has restock order", store_id=pearl, product_id=low["product_id"],
              quantity=10)
    assert order["restock_id"] in [o["restock_id"] for o in s.ok("list_restock_orders", store_id=pearl,
                                                                  status="placed")]
    got = s.ok("receive_restock_order", restock_id=order["restock_id"])
    assert got["status"] == "delivered" and got["on_hand"] == low["on_hand"] + 24
    s.fails("receive_restock_order", "only placed orders", restock_id=order["restock_id"])
    s.fails("cancel_restock_order", "only placed orders", restock_id=order["restock_id"])


def test_cancel_restock_order(s):
    pearl = store(s, "Pearl District")["store_id"]
    placed = s.ok("list_restock_orders", store_id=pearl, status="placed")[0]
    before = stock(s, pearl, placed["product_id"])["on_hand"]
    assert s.ok("cancel_restock_order", restock_id=placed["restock_id"])["status"] == "cancelled"
    assert stock(s, pearl, placed["product_id"])["on_hand"] == before


def test_cancelling_a_cancelled_restock_order_changes_nothing(s):
    pearl = store(s, "Pearl District")["store_id"]
    placed = s.ok("list_restock_orders", store_id=pearl, status="placed")[0]
    s.ok("cancel_restock_order", restock_id=placed["restock_id"])
    before = s.world.digest()
    again = s.ok("cancel_restock_order", restock_id=placed["restock_id"])
    assert again["status"] == "cancelled" and "already cancelled" in again["note"]
    assert s.world.digest() == before
    s.fails("receive_restock_order", "only placed orders", restock_id=placed["restock_id"])


def test_restock_refusals(s):
    pearl, johns = store(s, "Pearl District")["store_id"], store(s, "St. Johns")["store_id"]
    shovel = product(s, "Snow shovel")
    assert shovel["discontinued"]
    s.fails("create_restock_order", "discontinued", store_id=pearl, product_id=shovel["product_id"], quantity=10)
    drill = product(s, "Cordless drill")["product_id"]
    s.fails("create_restock_order", "closed for renovation", store_id=johns, product_id=drill, quantity=10)
    s.fails("create_restock_order", "1 to 200", store_id=pearl, product_id=drill, quantity=500)


def test_set_store_price_at_or_below_list(s):
    pearl = store(s, "Pearl District")["store_id"]
    line = a_line(s, pearl, 1)
    cut = round(line["list_price"] * 0.8, 2)
    assert s.ok("set_store_price", store_id=pearl, product_id=line["product_id"], price=cut)["price"] == cut
    assert stock(s, pearl, line["product_id"])["price"] == cut
    s.fails("set_store_price", "above the chain's list price", store_id=pearl, product_id=line["product_id"],
              price=round(line["list_price"] + 1, 2))
    carried = {x["product_id"] for x in s.ok("list_store_stock", store_id=pearl, limit=100)}
    other = next(p for p in s.ok("search_products", limit=100) if p["product_id"] not in carried)
    s.fails("set_store_price", "does not carry", store_id=pearl, product_id=other["product_id"], price=1.0)


def test_nearest_store_with_enough_after_a_refused_transfer(s):
    """The characteristic flow: the first source holds too few, so stock comes from the nearest store
    that has enough."""
    ballard = store(s, "Ballard")["store_id"]
    pearl = store(s, "Pearl District")["store_id"]
    line = next(x for x in s.ok("list_store_stock", store_id=pearl, limit=100) if 0 < x["available"] < 4)
    s.fails("transfer_stock", "find_nearest_stock", product_id=line["product_id"], from_store_id=pearl,
              to_store_id=ballard, quantity=6)
    near = [x for x in s.ok("find_nearest_stock", product_id=line["product_id"], quantity=6, city="Seattle")
            if x["store_id"] != ballard]
    sent = s.ok("transfer_stock", product_id=line["product_id"], from_store_id=near[0]["store_id"],
                to_store_id=ballard, quantity=6)
    assert sent["status"] == "in_transit"


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------


def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play, served):
    from prove_env.task import Task

    s = served("retail_chain")
    pearl = store(s, "Pearl District")["store_id"]
    drill = product(s, "Cordless drill")["product_id"]
    count = stock(s, pearl, drill)["available"]
    ask = Task(id="stock", server="retail_chain", seed=0,
               user_turns=["How many Cordless drill 20V does the Pearl District store have available?"],
               gold=[[{"id": "g1", "name": "find_stores", "arguments": {"name": "Pearl District"}},
                      {"id": "g2", "name": "search_products", "arguments": {"name": "Cordless drill 20V"}},
                      {"id": "g3", "name": "get_stock", "arguments": {"store_id": pearl, "product_id": drill},
                       "depends_on": ["g1", "g2"]}]],
               facts=[[count]])
    # another correct path: the store's stock list carries the count too
    other = play(ask, [_call("find_stores", city="Portland"), _call("list_store_stock", store_id=pearl, limit=100),
                       f"The Pearl District store has {count} available."])
    assert other["success"] and other["reward_breakdown"]["coverage"] < 1
    assert not play(ask, [_call("get_stock", store_id=pearl, product_id=drill), f"About {count + 7}."])["success"]
    # the right answer, then damage nobody asked for: a restock ordered
    damage = play(ask, [_call("get_stock", store_id=pearl, product_id=drill),
                        _call("create_restock_order", store_id=pearl, product_id=drill, quantity=10),
                        f"There are {count} available."])
    assert not damage["success"]

    hold = Task(id="hold", server="retail_chain", seed=0,
                user_turns=["Hold 1 Cordless drill 20V at the Pearl District store for Maya Lopez."],
                gold=[[{"id": "g1", "name": "reserve_for_pickup",
                        "arguments": {"store_id": pearl, "product_id": drill, "quantity": 1,
                                      "customer_name": "Maya Lopez"}}]])
    # a note for the counter nobody asked for is a detail, not damage
    noted = play(hold, [_call("reserve_for_pickup", store_id=pearl, product_id=drill, quantity=1,
                              customer_name="Maya Lopez", note="Call on arrival"), "Held."])
    assert noted["success"]
    wrong = play(hold, [_call("reserve_for_pickup", store_id=pearl, product_id=drill, quantity=2,
                              customer_name="Maya Lopez"), "Held."])
    assert not wrong["success"]


def test_received_stock_starts_a_line_where_the_product_was_not_carried(s):
    pearl = store(s, "Pearl District")["store_id"]
    drill = product(s, "Cordless drill")
    assert stock(s, pearl, drill["product_id"])["carried"] is False
    source = s.ok("find_nearest_stock", product_id=drill["product_id"], quantity=2, city="Portland")[0]["store_id"]
    sent = s.ok("transfer_stock", product_id=drill["product_id"], from_store_id=source, to_store_id=pearl, quantity=2)
    assert stock(s, pearl, drill["product_id"])["carried"] is False  # still in transit
    s.ok("receive_transfer", transfer_id=sent["transfer_id"])
    line = stock(s, pearl, drill["product_id"])
    assert line["carried"] and line["on_hand"] == 2 and line["price"] == drill["list_price"]


# -- synthesized requests ---------------------------------------------------------------------------


def _asks(tool: str, *, seeds=(0, 1), draws: int = 80):
    """Requests the recipe writes for `tool` from the bundles of a few worlds, each with the result of
    its call in that world (every tool asked about here reads)."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    found = []
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"retail asks {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == tool):
            for _ in range(draws):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is not None:
                    found.append((ask, read(tool, **ask.args)))
        world.close()
    return found


def test_a_stock_check_asks_for_the_price_it_records():
    from prove_env.facts import facts_stated

    asks = _asks("get_stock")
    assert len(asks) > 40
    for ask, result in asks:
        facts = ask.facts(result)
        assert facts[1] == result["price"]
        if result["available"]:
            assert facts[0] == result["available"]
        else:
            assert facts_stated([facts], [f"0 available, at ${result['price']:.2f}."])
        assert "price" in ask.say, ask.say


def test_a_stock_check_of_none_available_is_answered_in_words():
    """'Kitchen faucet pull-down at the Eugene store: available and price?' with nothing available:
    'none available', 'it's out of stock there' state it as well as '0 available'."""
    from prove_env.facts import facts_stated

    none = [(ask, result) for ask, result in _asks("get_stock", seeds=(0, 1, 2), draws=120) if not result["available"]]
    assert none, "no stock check of a product with none available"
    for ask, result in none:
        price = f"${result['price']:.2f}"
        for answer in (f"There are none available; the price is {price}.",
                       f"It's out of stock there right now. It sells for {price}.",
                       f"0 available, at {price}."):
            assert facts_stated([ask.facts(result)], [answer]), (ask.say, answer)
        assert not facts_stated([ask.facts(result)], [f"3 available, at {price}."])


def test_a_quantity_of_one_is_one_unit():
    """'1 units, please.', '1 of them.' never: a transfer or a nearest-stock search of one says one
    unit."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    texts = []
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"retail units {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        world.close()
        for goal in (g for g in recipe.goals if g.tool in ("transfer_stock", "find_nearest_stock")):
            for _ in range(300):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is not None and ask.args.get("quantity") == 1:
                    texts.append(f"{ask.say} {ask.detail or ''}")
    assert len(texts) > 20
    assert any("1 unit" in t for t in texts)
    for text in texts:
        assert not re.search(r"\b1 (?:units|of them)\b", text), text


def test_a_store_named_after_its_city_is_not_placed_in_it_again():
    """'the West Seattle store', never 'the West Seattle store in Seattle'; a category is said with a
    noun ('What garden products', never 'What garden can a customer buy'), and tools as tools ('Which
    power tools', never 'Which power tools products')."""
    asks = _asks("list_store_stock", draws=200)
    assert len(asks) > 100
    for ask, _ in asks:
        assert not re.search(r"(\w+) store in \1\b", ask.say), ask.say
        category = ask.args["category"].lower()
        if category.endswith("tools"):
            assert not re.search(rf"{category} (products|items)\b", ask.say), ask.say
        else:
            assert re.search(rf"{category} (products|items)\b", ask.say), ask.say


def test_no_possessive_hangs_on_a_city():
    """'the stock of our Cherry Creek store in Denver', never 'our Cherry Creek store in Denver's stock'."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    checked = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"retail possessives {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        world.close()
        for goal in recipe.goals:
            for _ in range(60):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is not None:
                    checked += 1
                    assert not re.search(r"store in [A-Z][a-z]+(?: [A-Z][a-z]+)?'s\b", ask.say), ask.say
    assert checked > 500


def test_a_store_out_of_a_product_is_not_said_to_be_almost_out_of_it():
    """'Our store is almost out of X' is said of a product still in stock: with none available the
    store is out of it."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    goal = next(g for g in recipe.goals if g.tool == "create_restock_order")
    out = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"retail restock {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        world.close()
        for _ in range(300):
            b = rng.choice(bundles)
            ask = goal.build(b, rng)
            if ask is None or "out of" not in ask.say:
                continue
            line = next(r for r in b["low"] if r["product_id"] == ask.args["product_id"])
            out += line["available"] <= 0
            assert ("almost out" in ask.say) == (line["available"] > 0), (ask.say, line["available"])
    assert out, "no request about a product the store is out of"


def test_a_store_stock_request_is_never_drawn_as_off_topic_and_its_tools_never_distract_from_one():
    """"Which branch near Denver has a drill in stock?" is what find_nearest_stock answers: it is
    never an irrelevant request of the chain, and another server's off-topic stock question shows
    no tool of the chain."""
    import random

    from prove_env.registry import get_toolkit, server_names
    from prove_env.synthesis.perturb import _distractor_pool, irrelevant_query
    from prove_env.synthesis.recipe import get_recipe

    topics = get_recipe("retail_chain").topics
    drawn = [irrelevant_query(topics, random.Random(f"retail off-topic {i}")) for i in range(400)]
    assert len({topic for topic, _ in drawn}) > 20
    assert not [text for topic, text in drawn if topic == "stores" or "in stock" in text]
    own = [spec.openai_schema() for spec in get_toolkit("retail_chain").visible_specs()]
    for other in (name for name in server_names() if name != "retail_chain"):
        shown = [schema for schemas in _distractor_pool(other, "stores") for schema in schemas]
        assert not [schema["function"]["name"] for schema in shown if schema in own], other


def test_a_product_named_with_a_comma_is_stated_without_it():
    """'Primer, 1 gal' in a list of products is stated as 'Primer 1 gal' or 'Primer (1 gal)' too: an
    answer that lists the names in a sentence drops the comma and still names every product."""
    from prove_env.facts import facts_stated

    checked = 0
    for tool in ("search_products", "list_store_stock", "low_stock_report"):
        for ask, result in _asks(tool, draws=30):
            names = [x.get("product", x.get("name")) for x in result]
            if not any(", " in n for n in names):
                continue
            facts = ask.facts(result)
            for rewrite in (lambda n: n.replace(", ", " "), lambda n: re.sub(r", (.*)$", r" (\1)", n)):
                answer = "Here they are: " + "; ".join(rewrite(n) for n in names) + "."
                assert facts_stated([facts], [answer]), (ask.say, answer)
            checked += 1
    assert checked > 10


def test_a_store_request_asks_only_what_the_look_up_that_found_the_store_does_not_show():
    """'A customer wants to call the North End store in Boise. What's its number, and where is it
    exactly?' with get_store left out is half answered by the find_stores that found the store (its
    address): a store's own record is asked for its phone, ZIP code and manager, never the address."""
    from prove_env.facts import facts_stated

    asks = _asks("get_store")
    assert len(asks) > 20
    for ask, result in asks:
        listed = {k: result[k] for k in ("store_id", "name", "city", "state", "address", "status")}  # find_stores
        facts = ask.facts(result)
        assert result["phone"] in facts, ask.say
        for fact in facts:
            assert fact not in listed.values(), (ask.say, fact)
        assert "address" not in f"{ask.say} {ask.terse}".lower() and "where" not in ask.say.lower(), ask.say
        assert facts_stated([facts], [f"{result['manager']} runs it; call {result['phone']}, "
                                      f"{result['address']}, {result['city']}, {result['state']} {result['zip_code']}."])


def test_stores_are_asked_about_in_the_chain_staff_voice():
    """The user of this server works for the chain ('our Pearl District store', 'It's for Noah
    Fischer'): 'Do you have any stores in Portland?', 'I'm in Bend and need one ... Which of your stores
    nearest to me has that many?' are a customer's words and clash with the next turn; 'that many' is
    never said of one."""
    asks = _asks("find_stores") + _asks("find_nearest_stock", draws=200)
    assert len(asks) > 100
    for ask, _ in asks:
        text = f"{ask.say} {ask.terse}"
        assert not re.search(r"\byour stores?\b|\bDo you have\b|\bI'm in\b|\bnearest to me\b", text), text
        if ask.args.get("quantity") == 1:
            assert "that many" not in text, text


def test_a_transfer_calls_its_destination_short_only_of_what_it_runs_low_on():
    """'The South Hill store is short on Patio umbrella 9 ft; move some from our Ballard store' is said
    only where the destination's stock of it is at or below its reorder point (South Hill held 37, more
    than Ballard) and the source's is not (Tacoma, low on primer itself, has none to spare for Bend);
    otherwise the transfer is asked for without the claim."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    goal = next(g for g in recipe.goals if g.tool == "transfer_stock")
    short = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"retail transfer {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for _ in range(300):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None or "short on" not in ask.say:
                continue
            short += 1
            low = {r["product_id"] for r in read("low_stock_report", store_id=ask.args["to_store_id"])}
            assert ask.args["product_id"] in low, ask.say
            low = {r["product_id"] for r in read("low_stock_report", store_id=ask.args["from_store_id"])}
            assert ask.args["product_id"] not in low, ask.say
        world.close()
    assert short, "no transfer asked for a destination that runs low"


def test_no_request_is_left_to_a_hidden_total_the_shown_tools_add_up_to():
    """chain_stock_totals gives the chain's units on hand and in transit: find_stores lists every store and
    list_store_stock each line's units on hand (list_transfers each transfer in transit), so the shown
    tools add up to both totals and no task asks for them as out of reach."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    totals = read("chain_stock_totals")
    stores = read("find_stores", limit=100)
    on_hand = sum(line["on_hand"] for st in stores for line in read("list_store_stock", store_id=st["store_id"], limit=100))
    moving = {t["transfer_id"]: t["quantity"] for st in stores
              for t in read("list_transfers", store_id=st["store_id"], status="in_transit", limit=100)}
    world.close()
    assert (on_hand, sum(moving.values())) == (totals["on_hand"], totals["in_transit"])
    assert not [h for h in recipe.hidden if h.tool == "chain_stock_totals"]


def test_a_product_named_in_inches_is_never_in_in_stock():
    """'the nearest store to Seattle with 6 of the Pipe wrench 14 in in stock' says 'in' twice: a name
    ending in the unit 'in' is asked for as available instead."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    goal = next(g for g in recipe.goals if g.tool == "find_nearest_stock")
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("retail nearest stock")
    bundles = recipe.sample(read, world.now, rng)
    inches = 0
    for _ in range(400):
        ask = goal.build(rng.choice(bundles), rng)
        if ask is None:
            continue
        assert not re.search(r"\bin in\b", ask.say), ask.say
        inches += " in available" in ask.say
    world.close()
    assert inches, "no product named in inches was asked for by availability"


def test_two_stores_of_one_city_name_the_city_once():
    """'Transfer 3x Screwdriver set 10-piece: the Bown Crossing store in Boise to the North End store in
    Boise.' says 'in Boise' twice: where a transfer's two stores share a city, the store named second is
    named by its neighbourhood alone (which finds it alone), in every wording of a transfer and of its
    check-in."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    same = {"transfer_stock": 0, "receive_transfer": 0}
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"retail one city {seed}")
        bundles = recipe.sample(read, world.now, rng)
        world.close()
        for goal in (g for g in recipe.goals if g.tool in same):
            for _ in range(300):
                b = rng.choice(bundles)
                ask = goal.build(b, rng)
                if ask is None:
                    continue
                ids = (ask.args["from_store_id"], ask.args["to_store_id"]) if goal.tool == "transfer_stock" else \
                    (ask.refs[0].entity["from_store_id"], ask.refs[0].entity["to_store_id"])
                pair = [next(s for s in b["stores"] if s["store_id"] == i) for i in ids]
                if pair[0]["city"] != pair[1]["city"]:
                    continue
                same[goal.tool] += 1
                city = pair[0]["city"]
                for text in (ask.say, ask.terse):
                    rest = text.replace(pair[0]["name"], "").replace(pair[1]["name"], "")
                    assert len(re.findall(rf"\b{city}\b", rest)) <= 1, text
                    for s in pair:  # each store is still named
                        assert s["name"] in text, text
    assert same["transfer_stock"] > 10, same


def test_the_nearest_store_is_asked_in_plain_grammar():
    """'Which of our stores nearest to them has one?' is broken grammar: every wording of the nearest-stock
    request asks for the nearest store that has the amount in a whole sentence."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("retail nearest wording")
    bundles = recipe.sample(read, world.now, rng)
    world.close()
    goal = next(g for g in recipe.goals if g.tool == "find_nearest_stock")
    said = set()
    for _ in range(300):
        ask = goal.build(rng.choice(bundles), rng)
        if ask is None:
            continue
        said.add(ask.say.split(". ")[-1].split("; ")[-1][:25])
        assert "stores nearest to them" not in ask.say, ask.say
    assert any(s.startswith("Which is the nearest") for s in said), said


def test_a_hold_never_puts_a_product_named_in_inches_in_aside():
    """'I'd like to put one of the Roller kit 9 in aside for pick-up' reads the unit 'in' as a preposition
    ('put ... in aside'): every wording of a hold says 'aside' before the product, never after it."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    goal = next(g for g in recipe.goals if g.tool == "reserve_for_pickup")
    aside = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"retail hold aside {seed}")
        bundles = recipe.sample(read, world.now, rng)
        world.close()
        for _ in range(400):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            assert not re.search(r"\bin aside\b", ask.say), ask.say
            aside += "aside" in ask.say and ask.say.split(" at ")[0].endswith(" in")
    assert aside, "no product named in inches was asked to be set aside"


def test_a_catalogue_category_request_never_reads_as_a_stores_stock():
    """'Low stock at our store in Tacoma?' then 'Lighting products?' reads as the Tacoma store's lighting
    (two of six, list_store_stock) while the gold lists the chain's catalogue (search_products): every
    wording of the category request, the terse one too, says it is the chain's catalogue or category,
    never 'our ... range'."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    goal = next(g for g in recipe.goals if g.tool == "search_products")
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("retail catalogue category")
    bundles = recipe.sample(read, world.now, rng)
    world.close()
    said = set()
    for _ in range(200):
        ask = goal.build(rng.choice(bundles), rng)
        if ask is None:
            continue
        for text in (ask.say, ask.terse):
            said.add(text.split(ask.args["category"].lower())[0].split(ask.args["category"])[0])
            assert re.search(r"\b(chain|chain's|catalogue|category)\b", text, re.IGNORECASE), text
            assert "our " not in text, text
    assert len(said) >= 5, said


def _retail_asks(tool: str, draws: int, seeds=(0, 1)):
    """(ask, bundle) pairs of one goal drawn over the worlds of `seeds`."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    goal = next(g for g in recipe.goals if g.tool == tool)
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"retail {tool} {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        world.close()
        for _ in range(draws):
            b = rng.choice(bundles)
            ask = goal.build(b, rng)
            if ask is not None:
                yield ask, b


def test_two_stores_of_one_city_are_found_by_one_search_of_the_city():
    """Finding (seed 127, 0003): "Could you set up a transfer of Raised garden bed kit from the Denver Baker
    store to our Highlands store? Make it 4." looked both stores up by name, two `find_stores` calls, where
    one `find_stores(city="Denver")` lists both with their ids: the one-call route scored coverage 0.4,
    total 1.0 of 1.3. A transfer between two stores of one city finds them by one search of the city, and
    that search settles the other store; and a listing of a city's stores settles each store it shows for
    a later request."""
    import json

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.pipeline import synthesize
    from prove_env.synthesis.recipe import get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("retail_chain"), get_recipe("retail_chain")
    [lookup] = recipe.lookups_for("store")
    pairs = 0
    for ask, b in _retail_asks("transfer_stock", draws=300):
        source, target = (next(s for s in b["stores"] if s["store_id"] == ask.args[k])
                          for k in ("from_store_id", "to_store_id"))
        ref = next(r for r in ask.refs if r.kind == "store" and r.key == source["store_id"])
        if source["city"] != target["city"]:
            assert lookup.args(ref) == ({"city": source["city"]} if source["by"] == "city" else {"name": source["name"]})
            continue
        pairs += 1
        assert lookup.args(ref) == {"city": source["city"]}, ask.say
        assert ("store", target["store_id"]) in lookup.settles(ref), ask.say
        assert source["city"] in ask.mentions
    assert pairs > 10, pairs
    for ask, b in _retail_asks("find_stores", draws=40):
        shown = {("store", s["store_id"]) for s in b["stores"] if s["city"] == ask.args["city"]}
        assert shown and shown <= set(ask.settles), ask.say

    result = synthesize(["retail_chain"], 20, seed=127, workers=1)
    tasks = {t.id: t for t in result.tasks("train") + result.tasks("test")}
    for task in tasks.values():  # no transfer takes two stores of one city from two searches by name
        world = worlds.create(toolkit, task.seed)
        city = {x["name"]: x["city"] for x in json.loads(toolkit(world).run("find_stores", {"limit": 100}))}
        world.close()
        found = {c.id: c for c in task.gold_calls if c.name == "find_stores"}
        for call in task.gold_calls:
            if call.name == "transfer_stock":
                names = [city[found[d].arguments["name"]] for d in call.depends_on
                         if d in found and "name" in found[d].arguments]
                assert len(names) == len(set(names)), (task.id, task.user_turns)


def test_a_product_named_in_inches_is_never_a_nouns_modifier():
    """Finding (seed 127): "Mark the Fire pit 30 in down at the Bend store." (0006) and "Receive Circular saw
    7-1/4 in transfer from the Pearl District store ..." (0007) read the unit 'in' as a preposition ('in down',
    'in transfer'). No wording puts a product before 'down', 'transfer', 'restock', 'sent', 'aside', 'stock' or
    'on hold': the transfer, the restock, the hold and the mark-down are of the product."""
    inches = 0
    for tool in ("set_store_price", "receive_transfer", "receive_restock_order", "cancel_restock_order",
                 "transfer_stock", "reserve_for_pickup", "create_restock_order", "collect_reservation",
                 "cancel_reservation", "get_stock", "find_nearest_stock"):
        for ask, b in _retail_asks(tool, draws=300):
            product = next((p["name"] for p in b["products"].values() if p["name"] in ask.say), None)
            if product is None or not product.endswith(" in"):
                continue
            inches += 1
            for text in (ask.say, ask.terse or "", ask.detail or ""):
                assert not re.search(rf"{re.escape(product)} (down|transfer|restock|sent|aside|stock|on hold)\b", text), text
    assert inches > 50, inches


_LOW = {"category": "Hand tools", "price": 9.0, "list_price": 9.0, "on_hand": 1, "available": 1, "reorder_point": 5}
# three low lines of a low-stock report: one discontinued, one on order already, one to restock
_LOW_LINES = [{**_LOW, "product": "Gone", "discontinued": True, "on_order": 0},
              {**_LOW, "product": "Coming", "discontinued": False, "on_order": 12},
              {**_LOW, "product": "Needed", "discontinued": False, "on_order": 0}]


def test_lines_that_need_restocking_leave_out_discontinued_and_ordered_ones(play):
    """Finding (seed 129, 0003): "Which lines at our Bend store need restocking soon?" asked for the low-stock
    report's first eight lines, the discontinued Torpedo level 9 in among them: an answer that rightly left out
    the line the chain no longer restocks failed. That wording's facts are the low lines neither discontinued
    nor on order already; the other wordings (what is low, what is at or below its reorder point) keep them all."""
    from prove_env.synthesis.pipeline import synthesize

    rows = _LOW_LINES
    asked = set()
    for ask, b in _retail_asks("low_stock_report", draws=200):
        restock = "need restocking" in ask.say
        asked.add(restock)
        assert ask.facts(rows) == (["Needed"] if restock else ["Gone", "Coming", "Needed"]), ask.say
        if restock:
            assert any(not x["discontinued"] and not x["on_order"] for x in b["low"]), ask.say
    assert asked == {True, False}

    result = synthesize(["retail_chain"], 20, seed=129, workers=1)
    [task] = [t for t in result.tasks("train") + result.tasks("test")
              if any("need restocking" in u for u in t.user_turns) and any("Torpedo level" in str(f) for f in t.facts or [])
              ] or [None]
    assert task is None, task.facts


def test_a_citys_stores_are_never_asked_after_as_if_there_might_be_none():
    """Finding (seed 129, 0010): "A customer wants to call the South Hill store in Spokane ..." then "Do we have
    any stores in Spokane? Where are they?": the user who just named a Spokane store asked whether there is any.
    A listing of a city's stores asks where they are, never whether there are any."""
    said = set()
    for ask, _ in _retail_asks("find_stores", draws=200):
        said.add(ask.say)
        assert "any stores" not in ask.say, ask.say
    assert len(said) >= 8, said


def test_a_hold_never_calls_the_customer_the_customer_twice():
    """Finding (seed 131, 0002): "Can you reserve one of the Pruning shears at the Eugene store? The customer will
    collect it. The customer's name is Omar Haddad.": two sentences in a row open on "The customer". The request
    says a customer will collect the hold, and only the detail names them."""
    import re

    pairs = 0
    for ask, _ in _retail_asks("reserve_for_pickup", draws=200):
        assert len(re.findall(r"\bThe customer", ask.say)) == 0, ask.say
        pairs += "collect" in ask.say
    assert pairs, "the 'to collect' wording was never drawn"


def test_a_product_is_never_said_bare_as_a_mass_noun():
    """Finding (seed 133, 0003 and 0005): "We need more Utility knife at our Baker store in Denver", "Also, check
    Drip irrigation kit at our Baker store in Denver for me" and "I'd like to ship Cooler 45 qt from the Denver
    Baker store ...": a countable product said with no article reads as a mass noun. Those wordings say the
    product with its article ('more of the Utility knife', 'the Drip irrigation kit', 'some of the Cooler 45 qt').
    So do the others (seed 137, 0003, 0006, 0007 and 0009: "a transfer of Tape measure 25 ft", "Move some Impact
    driver 20V", "the stock of Screwdriver set 10-piece")."""
    seen = 0
    for tool in ("get_stock", "transfer_stock", "create_restock_order"):
        for ask, b in _retail_asks(tool, draws=200):
            product = next((p["name"] for p in b["products"].values() if p["name"] in ask.say), None)
            assert product is not None, ask.say
            seen += 1
            for verb in ("more", "check", "ship", "reorder", "some", "of", "on"):
                assert not re.search(rf"\b{verb} {re.escape(product)}", ask.say, re.I), ask.say
    assert seen > 300, seen


def test_incoming_transfers_ask_how_many_of_each():
    """Finding (seed 135, 0004): "Transfers in transit to the Cherry Creek store in Denver, and how many?" reads as
    the number of transfers, while the facts are each transfer's quantity: "A couple of transfers are in transit:
    Utility knife and Exterior satin paint, 1 gal." failed. Every wording, the terse one too, asks how many of
    each (or with quantities)."""
    said = set()
    for ask, _ in _retail_asks("list_transfers", draws=200):
        for text in (ask.say, ask.terse):
            said.add(text)
            assert re.search(r"how many of each|with quantities", text), text
    assert len(said) >= 5, said


def test_a_collected_received_or_cancelled_product_is_never_said_bare():
    """Finding (seed 135, 0004 and 0005): "Nathan Brooks collected Leaf rake at the Denver Cherry Creek store." and
    "Could you cancel the open order for Smart dimmer switch at the Seattle Ballard store?": the product with no
    article reads as a mass noun. Those wordings say 'the Leaf rake'; so do the ones found beside seed 139 ("The
    transfer of Leaf rake ...", "Cancel Omar Haddad's pick-up reservation for Utility knife", "Please call off the
    pending restock of Cooler 45 qt")."""
    seen = 0
    for tool in ("collect_reservation", "cancel_restock_order", "receive_transfer", "cancel_reservation",
                 "receive_restock_order"):
        for ask, b in _retail_asks(tool, draws=200):
            product = next((p["name"] for p in b["products"].values() if p["name"] in ask.say), None)
            assert product is not None, ask.say
            seen += 1
            for text in (ask.say, ask.terse):
                assert not re.search(rf"\b(collected|of|for|on) {re.escape(product)}", text), text
    assert seen > 300, seen


def test_a_catalogue_listing_never_asks_for_what_its_facts_do_not_check():
    """Finding (seed 137, 0001): "Could you list every product in the Paint category, with list prices?" had the
    product names alone as facts: an answer without a price passed. The facts stay the names (a names-only answer is
    right, see the comma test), so no wording asks for list prices."""
    said = set()
    for ask, _ in _retail_asks("search_products", draws=200):
        said.add(ask.say)
        assert "price" not in ask.say and "price" not in ask.terse, ask.say
    assert len(said) >= 8, said


def test_a_price_change_is_never_called_a_markdown_when_the_price_goes_up():
    """Finding (seed 139, 0009): the Cooler 45 qt at the Cherry Creek store in Denver sold at $254.99 and the request
    set it to $269.99, 90% of its list price. That task's terse wording only said the price, but the same draw could
    have said "Mark down the Cooler 45 qt ..." or "We're running a local promotion on ..." for a rise. Those
    wordings are said only where the new price is below the store's current price, and a rise is asked
    plainly."""
    rises = falls = 0
    for ask, b in _retail_asks("set_store_price", draws=300):
        line = next(x for x in b["stock"] if x["product_id"] == ask.args["product_id"])
        if ask.args["price"] > line["price"]:
            rises += 1
            for text in (ask.say, ask.terse):
                assert not re.search(r"mark down|markdown|promotion|discount|reduce|lower", text, re.I), text
        else:
            falls += 1
    assert rises and falls, (rises, falls)


def test_a_low_stock_wording_that_keeps_every_low_line_never_gives_ordering_as_its_reason():
    """Finding (seed 151, 0007): "Before I do the weekly order for our Bend store, which products are at or below
    their reorder point?" had the first eight low lines as facts, the discontinued Torpedo level 9 in among them: an
    answer that left out the line the weekly order will never include, as the user's reason invites, failed. A
    wording whose facts keep discontinued or already-ordered lines asks plainly, with no ordering as its reason."""
    rows = _LOW_LINES
    said = set()
    for ask, _ in _retail_asks("low_stock_report", draws=300):
        said.add(ask.say)
        if "Gone" in ask.facts(rows) or "Coming" in ask.facts(rows):
            assert not re.search(r"\border|restock", ask.say, re.I), ask.say
    assert len(said) >= 3, said


def test_open_restock_orders_are_never_asked_for_by_the_status_word_placed():
    """Finding (seed 151, 0005): "Could you list the placed restock orders at the Spokane Northtown store and when
    they're expected?" used the tool's status word: every restock order was placed once, the delivered ones too. The
    orders not yet delivered are asked for as open, outstanding or not delivered yet."""
    said = set()
    for ask, _ in _retail_asks("list_restock_orders", draws=200):
        said.add(ask.say)
        assert "placed" not in ask.say and "placed" not in ask.terse, ask.say
    assert len(said) >= 3, said


def test_a_terse_stock_request_names_the_category_as_products():
    """Finding (seed 153, 0004): the terse wording "Storage in stock at the Portland Hawthorne store?" named the
    category alone ('Storage', 'Outdoor'), which reads as storage space rather than the storage products. The
    terse wording says the category's products as the other wordings do: "Storage products in stock at ...?"."""
    from servers.retail_chain.synth import products_of

    said = set()
    for ask, _ in _retail_asks("list_store_stock", draws=200):
        said.add(ask.terse)
        category = ask.args["category"]
        assert ask.terse.lower().startswith(products_of(category)), ask.terse
    assert len(said) >= 3, said


def test_active_holds_asked_with_what_each_customer_reserved_state_the_products():
    """Finding (seed 153, 0010): "Could you list the active pick-up holds at the Salem store, with what each customer
    reserved?" had only the customer names as facts: the products the user asked for went unchecked. That wording
    has the products as facts beside the names; the others keep the names alone."""
    rows = [{"customer_name": "Jamie Brown", "product": "Under-cabinet light bar"}]
    seen = set()
    for ask, _ in _retail_asks("list_reservations", draws=300):
        if ask.args.get("status") != "active":
            continue
        items = "what each customer reserved" in ask.say
        seen.add(items)
        assert ("Under-cabinet light bar" in ask.facts(rows)) == items, ask.say
        assert ("what each" in ask.terse) == items, ask.terse
        assert "Jamie Brown" in ask.facts(rows)
    assert seen == {True, False}, seen


def test_a_held_or_searched_quantity_is_said_in_units_never_as_one_of_the_product():
    """Finding (seed 155, 0010): "Set aside one of the Propane grill 3-burner at the West Seattle store": 'one of
    the' wants a plural that a catalogue name lacks. A hold and a nearest-stock search say the quantity in units
    ('one unit of the Propane grill 3-burner', '3 units of the Fire pit 30 in')."""
    seen = 0
    for tool in ("reserve_for_pickup", "find_nearest_stock"):
        for ask, _ in _retail_asks(tool, draws=200):
            assert not re.search(r"\b(one|\d+) of the\b", ask.say), ask.say
            seen += bool(re.search(r"\bunits? of the\b", ask.say))
    assert seen, "no quantity in units was drawn"
