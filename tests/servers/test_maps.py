"""The maps server's domain rules and characteristic behaviour, through real MCP: geocoding both
ways, nearby search with its filters against the frozen clock, routes by car, on foot and by bus
over the road network, matrices, and saved places and lists (the generic suite covers the rest)."""

from __future__ import annotations

import pytest

from prove_env.runtime import run_sync


@pytest.fixture
def s(served):
    return served("maps")


def city(s, name: str) -> dict:
    (found,) = s.ok("list_cities", name=name)
    return found


def address(s, label: str) -> dict:
    (found,) = s.ok("geocode", query=label)
    return found


def addresses(s, city_id: str) -> list[dict]:
    return [a for word in ("street", "avenue", "boulevard")
         for a in s.ok("geocode", query=word, city_id=city_id, limit=100)]


def user_with(s, predicate) -> dict:
    for user in s.ok("find_users", limit=100):
        if predicate(user):
            return user
    raise AssertionError("no such user in the seed-0 world")


# -- the server as a whole ----------------------------------------------------------------------

def test_tools_listed_and_hidden_tool_kept_from_the_agent(served):
    s = served("maps")
    names = [t.name for t in run_sync(s.client.list_tools())]
    assert len(names) >= 16 and "network_stats" not in names
    s.fails("network_stats", "Unknown tool")
    hidden = served("maps", include_hidden=True)
    stats = hidden.ok("network_stats")
    assert len(stats) == 4 and all(20 <= c["nodes"] <= 200 for c in stats.values())


def test_seed_world_has_the_variety_tasks_need(s):
    cities = s.ok("list_cities")
    assert [c["name"] for c in cities] == ["Cedar Falls", "Millbrook", "Oak Harbor", "Riverton"]
    assert {c["has_transit"] for c in cities} == {True, False}
    places = s.ok("search_places", limit=100) + s.ok("search_places", query="a", limit=100)
    assert {p["status"] for p in places} == {"operational", "permanently_closed"}
    assert {p["open_now"] for p in places} == {True, False}
    categories = s.ok("list_categories")
    assert len(categories) >= 12 and all(c["places"] > 0 for c in categories)
    users = s.ok("find_users", limit=100)
    assert any(s.ok("list_lists", user_id=u["user_id"]) == [] for u in users)
    assert any(s.ok("list_saved_places", user_id=u["user_id"]) == [] for u in users)


# -- geocoding ----------------------------------------------------------------------------------

def test_geocode_understands_abbreviations_and_cities(s):
    riverton = city(s, "river")
    found = s.ok("geocode", query="street", city_id=riverton["city_id"], limit=100)
    assert found and all(a["label"].endswith(", Riverton") for a in found)
    target = found[3]
    number, rest = target["label"].split(" ", 1)
    short = f"{number} {rest.replace('Street', 'St').replace(',', '').lower()}"
    assert s.ok("geocode", query=short) == [target]
    assert s.ok("geocode", query="99999 Nowhere Lane") == []
    s.fails("geocode", "query is empty", query="  ,, ")


def test_reverse_geocode_finds_the_nearest_address(s):
    target = s.ok("geocode", query="oak street")[0]
    near = s.ok("reverse_geocode", latitude=target["latitude"] + 0.0001, longitude=target["longitude"])
    assert near["address_id"] == target["address_id"] and 5 <= near["distance_m"] <= 20
    s.fails("reverse_geocode", "no street address within 500 m", latitude=0.0, longitude=0.0)
    s.fails("reverse_geocode", "not a point on Earth", latitude=95.0, longitude=10.0)


# -- places -------------------------------------------------------------------------------------

def test_search_and_get_place_with_hours_against_the_frozen_clock(s):
    # the world's "now" is Monday, April 20 2026, 10:45
    found = s.ok("search_places", query="MUSEUM", limit=100)
    assert found and all("museum" in p["name"].lower() for p in found)
    assert [p["name"] for p in found] == sorted(p["name"] for p in found)
    for place in found:
        full = s.ok("get_place", place_id=place["place_id"])
        if "closed on Mondays" in full["hours"]:
            assert full["open_now"] is False
    hotels = s.ok("search_places", category="hotel", limit=100)
    assert all(h["open_now"] == (h["status"] == "operational") for h in hotels)
    bars = s.ok("search_places", category="bar", limit=100)
    assert bars and not any(b["open_now"] for b in bars)  # none opens before 3 pm
    details = s.ok("get_place", place_id=bars[0]["place_id"])
    assert details["phone"].startswith("(") and " to " in details["hours"]


def test_nearby_search_filters_by_radius_category_rating_price_and_open_now(s):
    center = s.ok("geocode", query="market street", limit=1)[0]
    everything = s.ok("nearby_places", address_id=center["address_id"], radius_m=5000, limit=100)
    assert everything and all(p["city_id"] == center["city_id"] for p in everything)
    distances = [p["distance_m"] for p in everything]
    assert distances == sorted(distances) and all(p["status"] == "operational" for p in everything)
    close = s.ok("nearby_places", address_id=center["address_id"], radius_m=400, limit=100)
    assert close == [p for p in everything if p["distance_m"] <= 400]
    good = s.ok("nearby_places", address_id=center["address_id"], radius_m=5000, min_rating=4.0, limit=100)
    assert good == [p for p in everything if p["rating"] >= 4.0]
    cheap = s.ok("nearby_places", address_id=center["address_id"], radius_m=5000, max_price_level=1, limit=100)
    assert cheap == [p for p in everything if p["price_level"] == "$"]
    open_now = s.ok("nearby_places", address_id=center["address_id"], radius_m=5000, open_now=True, limit=100)
    assert open_now == [p for p in everything if p["open_now"]] and len(open_now) < len(everything)
    cafes = s.ok("nearby_places", address_id=center["address_id"], radius_m=5000, category="cafe", limit=100)
    assert cafes == [p for p in everything if p["category"] == "cafe"]
    s.fails("nearby_places", "radius_m must be 1 to 5000", address_id=center["address_id"], radius_m=8000)
    s.fails("nearby_places", "min_rating must be 1.0 to 5.0", address_id=center["address_id"], min_rating=6.0)
    s.fails("nearby_places", "max_price_level must be 1 to 4", address_id=center["address_id"],
              max_price_level=0)


def test_open_pharmacy_near_an_address_and_the_walk_there(s):
    for start in s.ok("geocode", query="street", limit=100):
        found = s.ok("nearby_places", address_id=start["address_id"], radius_m=1500, category="pharmacy",
                     open_now=True)
        if found and found[0]["address_id"] != start["address_id"]:
            break
    pharmacy = found[0]
    assert pharmacy["open_now"] and pharmacy["category"] == "pharmacy"
    walk = s.ok("get_route", from_address_id=start["address_id"], to_address_id=pharmacy["address_id"],
                mode="walking")
    # on foot at 5 km/h, over streets at least as long as the straight line
    assert walk["distance_m"] >= pharmacy["distance_m"] - 1
    assert abs(walk["duration_min"] - walk["distance_m"] / (5000 / 60)) <= 1


# -- routes and matrices ------------------------------------------------------------------------

def test_routes_by_car_foot_and_bus(s):
    riverton = city(s, "Riverton")
    spots = [a for a in addresses(s, riverton["city_id"]) if "Market Street" not in a["label"]]
    start, end = spots[0], max(spots[1:], key=lambda a: abs(a["latitude"] - spots[0]["latitude"])
                               + abs(a["longitude"] - spots[0]["longitude"]))
    drive = s.ok("get_route", from_address_id=start["address_id"], to_address_id=end["address_id"])
    walk = s.ok("get_route", from_address_id=start["address_id"], to_address_id=end["address_id"], mode="walking")
    bus = s.ok("get_route", from_address_id=start["address_id"], to_address_id=end["address_id"], mode="transit")
    assert drive["mode"] == "driving" and drive["duration_min"] < walk["duration_min"]
    assert bus["duration_min"] <= walk["duration_min"]
    assert bus["bus_lines"] or bus["duration_min"] == walk["duration_min"]
    assert all(line in {"Bus 10", "Bus 20"} for line in bus["bus_lines"])
    assert any(step["instruction"].startswith(f"Ride {line}") for line in bus["bus_lines"] for step in bus["steps"]) \
        or not bus["bus_lines"]
    for route in (drive, walk, bus):
        assert route["steps"][-1]["instruction"] == f"Arrive at {end['label']}"
        assert abs(sum(step["distance_m"] for step in route["steps"]) - route["distance_m"]) <= len(route["steps"])
        assert route["distance_km"] == round(route["distance_m"] / 1000, 1)
    rides = [s.ok("get_route", from_address_id=a["address_id"], to_address_id=z["address_id"], mode="transit")
             for a in spots[:6] for z in spots[-6:] if a != z]
    ridden = [r for r in rides if r["bus_lines"]]
    assert ridden, "no bus route among Riverton addresses"
    for ride in ridden:
        on_foot = s.ok("get_route", from_address_id=ride["from"]["address_id"],
                       to_address_id=ride["to"]["address_id"], mode="walking")
        assert ride["duration_min"] <= on_foot["duration_min"]
    back = s.ok("get_route", from_address_id=end["address_id"], to_address_id=start["address_id"], mode="walking")
    assert back["distance_m"] == walk["distance_m"]
    assert any(step["instruction"].startswith("Walk along") for step in walk["steps"])


def test_route_rules(s):
    millbrook, riverton = city(s, "Millbrook"), city(s, "Riverton")
    here, there = addresses(s, millbrook["city_id"])[:2]
    away = addresses(s, riverton["city_id"])[0]
    s.fails("get_route", "has no bus service", from_address_id=here["address_id"],
              to_address_id=there["address_id"], mode="transit")
    s.fails("get_route", "different cities", from_address_id=here["address_id"], to_address_id=away["address_id"])
    s.fails("get_route", "give two different addresses", from_address_id=here["address_id"],
              to_address_id=here["address_id"])
    mall = s.ok("geocode", query="market street", city_id=riverton["city_id"], limit=100)
    pedestrian = [a for a in mall if s.ok("reverse_geocode", latitude=a["latitude"], longitude=a["longitude"])]
    walked = None
    for spot in pedestrian:
        try:
            s.ok("get_route", from_address_id=spot["address_id"], to_address_id=away["address_id"])
        except AssertionError:
            walked = spot
            break
    assert walked is not None, "no Riverton address on the pedestrian stretch of Market Street"
    s.fails("get_route", "pedestrian street closed to cars", from_address_id=walked["address_id"],
              to_address_id=away["address_id"])
    assert s.ok("get_route", from_address_id=walked["address_id"], to_address_id=away["address_id"],
                mode="walking")["duration_min"] >= 1


def test_distance_matrix_agrees_with_routes(s):
    riverton, millbrook = city(s, "Riverton"), city(s, "Millbrook")
    spots = [a for a in addresses(s, riverton["city_id"]) if "Market Street" not in a["label"]][:3]
    other = addresses(s, millbrook["city_id"])[0]
    ids = [a["address_id"] for a in spots]
    cells = s.ok("distance_matrix", from_address_ids=ids[:2], to_address_ids=ids + [other["address_id"]],
                 mode="walking")
    assert [(c["from_address_id"], c["to_address_id"]) for c in cells] == \
        [(a, b) for a in ids[:2] for b in ids + [other["address_id"]]]
    for cell in cells:
        if cell["to_address_id"] == other["address_id"]:
            assert "different cities" in cell["error"]
        elif cell["from_address_id"] == cell["to_address_id"]:
            assert cell["duration_min"] == 0
        else:
            route = s.ok("get_route", from_address_id=cell["from_address_id"], to_address_id=cell["to_address_id"],
                         mode="walking")
            assert (cell["distance_m"], cell["duration_min"]) == (route["distance_m"], route["duration_min"])
    s.fails("distance_matrix", "1 to 10 origins", from_address_ids=ids * 4, to_address_ids=ids)
    s.fails("distance_matrix", "1 to 10 origins", from_address_ids=[], to_address_ids=ids)


# -- saved places and lists ---------------------------------------------------------------------

def test_find_users(s):
    everyone = s.ok("find_users", limit=100)
    assert len(everyone) == 24 and len({u["name"] for u in everyone}) == 24
    someone = everyone[5]
    assert s.ok("find_users", name=someone["name"].split()[-1].upper()).count(someone) == 1
    assert s.ok("find_users", email=someone["email"].upper()) == [someone]


def test_save_and_remove_places(s):
    user = user_with(s, lambda u: len(s.ok("list_saved_places", user_id=u["user_id"])) >= 2)
    saved = s.ok("list_saved_places", user_id=user["user_id"])
    home = [p for p in s.ok("search_places", city_id=user["home_city_id"], limit=100)
            if p["status"] == "operational" and p["place_id"] not in {x["place_id"] for x in saved}]
    added = s.ok("save_place", user_id=user["user_id"], place_id=home[0]["place_id"], label="Book club")
    assert added["label"] == "Book club"
    s.fails("save_place", "already saved", user_id=user["user_id"], place_id=home[0]["place_id"])
    s.fails("save_place", "already has a saved place labelled", user_id=user["user_id"],
              place_id=home[1]["place_id"], label="book CLUB")
    closed = next(p for p in s.ok("search_places", limit=100) if p["status"] == "permanently_closed")
    s.fails("save_place", "permanently closed", user_id=user["user_id"], place_id=closed["place_id"])
    assert s.ok("remove_saved_place", saved_place_id=saved[0]["saved_place_id"])["removed"] is True
    after = s.ok("list_saved_places", user_id=user["user_id"])
    assert [x["saved_place_id"] for x in after] == [x["saved_place_id"] for x in saved[1:]] + [added["saved_place_id"]]
    s.fails("remove_saved_place", "not found", saved_place_id=saved[0]["saved_place_id"])


def test_lists_create_rename_add_remove_delete(s):
    user = user_with(s, lambda u: s.ok("list_lists", user_id=u["user_id"]) != [])
    lists = s.ok("list_lists", user_id=user["user_id"])
    created = s.ok("create_list", user_id=user["user_id"], name="  Tacos ")
    assert created == {"list_id": created["list_id"], "user_id": user["user_id"], "name": "Tacos", "places": 0}
    s.fails("create_list", "already a list named", user_id=user["user_id"], name=lists[0]["name"].upper())
    s.fails("create_list", "1 to 60 characters", user_id=user["user_id"], name=" ")
    s.fails("rename_list", "already a list named", list_id=created["list_id"], name=lists[0]["name"])
    assert s.ok("rename_list", list_id=created["list_id"], name="Taco tour")["name"] == "Taco tour"
    before = s.world.digest()  # idempotent: the same name again changes nothing
    assert s.ok("rename_list", list_id=created["list_id"], name="Taco tour")["name"] == "Taco tour"
    assert s.world.digest() == before
    places = [p for p in s.ok("search_places", city_id=user["home_city_id"], limit=100)
              if p["status"] == "operational"]
    s.ok("add_to_list", list_id=created["list_id"], place_id=places[0]["place_id"], note="Al pastor")
    s.ok("add_to_list", list_id=created["list_id"], place_id=places[1]["place_id"])
    s.fails("add_to_list", "already on the list", list_id=created["list_id"], place_id=places[0]["place_id"])
    closed = next(p for p in s.ok("search_places", limit=100) if p["status"] == "permanently_closed")
    s.fails("add_to_list", "permanently closed", list_id=created["list_id"], place_id=closed["place_id"])
    got = s.ok("get_list", list_id=created["list_id"])
    assert [p["place_id"] for p in got["places"]] == [places[0]["place_id"], places[1]["place_id"]]
    assert got["places"][0]["note"] == "Al pastor"
    s.ok("remove_from_list", list_id=created["list_id"], place_id=places[0]["place_id"])
    s.fails("remove_from_list", "is not on the list", list_id=created["list_id"], place_id=places[0]["place_id"])
    assert [x["name"] for x in s.ok("list_lists", user_id=user["user_id"])] == \
        sorted([x["name"] for x in lists] + ["Taco tour"])
    assert s.ok("delete_list", list_id=created["list_id"]) == {"list_id": created["list_id"], "deleted": True}
    s.fails("get_list", "not found", list_id=created["list_id"])
    assert s.ok("list_lists", user_id=user["user_id"]) == lists


def test_list_limits(s):
    user = user_with(s, lambda u: s.ok("list_lists", user_id=u["user_id"]) == [])
    made = [s.ok("create_list", user_id=user["user_id"], name=f"List {n}") for n in range(10)]
    s.fails("create_list", "10 lists, the most allowed", user_id=user["user_id"], name="One more")
    places = [p for p in s.ok("search_places", limit=100) if p["status"] == "operational"]
    places += [p for p in s.ok("search_places", query="e", limit=100)
               if p["status"] == "operational" and p not in places]
    for place in places[:25]:
        s.ok("add_to_list", list_id=made[0]["list_id"], place_id=place["place_id"])
    s.fails("add_to_list", "already holds 25 places", list_id=made[0]["list_id"], place_id=places[25]["place_id"])


def test_a_world_that_breaks_a_rule_says_which(s):
    """The map's rules (`invariants`) hold on the fresh world, and a world broken behind the tools'
    back names what is wrong: a place saved twice, a list holding a place twice, a label used twice,
    a place at an address of another city."""
    assert s.world.violations() == []
    sql = s.world.connection.execute
    sql("INSERT INTO saved_places SELECT 'SAV-9999', user_id, place_id, NULL FROM saved_places ORDER BY id LIMIT 1")
    sql("INSERT INTO list_entries SELECT 'ENT-9999', list_id, place_id, NULL FROM list_entries ORDER BY id LIMIT 1")
    sql("UPDATE saved_places SET label = 'Gym' WHERE id IN (SELECT id FROM saved_places WHERE user_id = "
        "(SELECT user_id FROM saved_places WHERE label IS NOT NULL ORDER BY id LIMIT 1) ORDER BY id LIMIT 2)")
    sql("UPDATE places SET address_id = (SELECT id FROM addresses WHERE city_id != places.city_id ORDER BY id LIMIT 1) "
        "WHERE id = (SELECT min(id) FROM places)")
    problems = " | ".join(s.world.violations())
    for expected in ("saved PLC-", "2 times", "holds PLC-", "saved places labelled 'gym'", "is at an address in"):
        assert expected in problems, (expected, problems)


# -- rewards ------------------------------------------------------------------------------------

def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play, served):
    from prove_env.task import Task

    s = served("maps")
    start = s.ok("geocode", query="street", limit=1)[0]
    end = next(a for a in s.ok("geocode", query="avenue", city_id=start["city_id"], limit=100))
    walk = s.ok("get_route", from_address_id=start["address_id"], to_address_id=end["address_id"], mode="walking")
    ask = Task(id="walk", server="maps", seed=0,
               user_turns=[f"How long is the walk from {start['label']} to {end['label']}?"],
               gold=[[{"id": "g1", "name": "geocode", "arguments": {"query": start["label"]}},
                      {"id": "g2", "name": "geocode", "arguments": {"query": end["label"]}},
                      {"id": "g3", "name": "get_route", "depends_on": ["g1", "g2"],
                       "arguments": {"from_address_id": start["address_id"], "to_address_id": end["address_id"],
                                     "mode": "walking"}}]],
               facts=[[walk["duration_min"]]])
    answer = f"About {walk['duration_min']} minutes on foot."
    # another correct path: a distance matrix gives the same time
    other = play(ask, [_call("distance_matrix", from_address_ids=[start["address_id"]],
                             to_address_ids=[end["address_id"]], mode="walking"), answer])
    assert other["success"]
    assert not play(ask, [_call("get_route", from_address_id=start["address_id"], to_address_id=end["address_id"],
                                mode="walking"), f"About {walk['duration_min'] + 7} minutes."])["success"]
    # the right answer, then damage nobody asked for: a list deleted
    damage = play(ask, [_call("get_route", from_address_id=start["address_id"], to_address_id=end["address_id"],
                              mode="walking"), _call("delete_list", list_id="LST-0001"), answer])
    assert not damage["success"]

    user = s.ok("find_users", limit=1)[0]
    (first,) = [x for x in s.ok("list_lists", user_id=user["user_id"]) if x["list_id"] == "LST-0002"] or \
        s.ok("list_lists", user_id=user["user_id"])[:1]
    place = next(p for p in s.ok("search_places", city_id=user["home_city_id"], limit=100)
                 if p["status"] == "operational" and p["place_id"] not in
                 {q["place_id"] for q in s.ok("get_list", list_id=first["list_id"])["places"]})
    add = Task(id="add", server="maps", seed=0,
               user_turns=[f"This is {user['name']}. Put {place['name']} on my {first['name']} list."],
               gold=[[{"id": "g1", "name": "add_to_list",
                       "arguments": {"list_id": first["list_id"], "place_id": place["place_id"]}}]])
    # a note the user did not ask for is a detail, not damage
    noted = play(add, [_call("add_to_list", list_id=first["list_id"], place_id=place["place_id"], note="Try it"),
                       "Added."])
    assert noted["success"]
    wrong = play(add, [_call("add_to_list", list_id=first["list_id"], place_id=place["place_id"]),
                       _call("save_place", user_id=user["user_id"], place_id=place["place_id"]), "Added."])
    assert not wrong["success"]


# -- synthesized requests ---------------------------------------------------------------------------


def _asks(tool: str, *, seeds=(0, 1), draws: int = 80):
    """Requests the recipe writes for `tool` from the bundles of a few worlds, each with the result of
    its call in that world (every tool asked about here reads)."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("maps"), get_recipe("maps")
    found = []
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"maps asks {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == tool):
            for _ in range(draws):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is not None:
                    found.append((ask, bundles, read(tool, **ask.args)))
        world.close()
    return found


def test_a_city_search_names_its_city_and_records_the_places_still_open():
    """"Every supermarket around here" after an address reads as near that address (another search):
    the city is named with the request itself. One closed for good may be left out of a right
    answer, so only the places still open are facts."""
    asks = _asks("search_places")
    assert len(asks) > 40
    for ask, bundles, result in asks:
        (city,) = ask.mentions
        cid = next(b["city"]["city_id"] for b in bundles if b["city"]["name"] == city)
        assert ask.detail is None and city in ask.say, ask.say
        assert ask.facts(result) == [p["name"] for p in result
                                     if p["status"] == "operational" and p["city_id"] == cid][:6]


def test_a_city_search_is_one_search_by_category_when_the_whole_map_fits_its_page():
    """"Hotels in Millbrook?" where the map's six hotels fit one page of search_places: one search
    by category lists them, each with its city, so a look-up of Millbrook's id before it would be a
    longer route than the one the shown tool offers. Where the map holds a full page of the
    category or more (ten gas stations on a page of ten, which may as well be cut off), the city's
    id keeps the search to the city."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("maps"), get_recipe("maps")
    (goal,) = [g for g in recipe.goals if g.tool == "search_places"]
    kinds = {"short": 0, "by city": 0}
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"maps city search {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for _ in range(60):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            fits = len(read("search_places", category=ask.args["category"], limit=100)) < 10
            assert ("city_id" not in ask.args) == fits, (ask.say, ask.args)
            assert bool(ask.refs) != fits, (ask.say, ask.refs)
            kinds["short" if fits else "by city"] += 1
        world.close()
    assert kinds["short"] > 10, kinds



def test_a_breakdown_by_category_records_every_count_so_a_full_answer_is_no_guess():
    """"Give me a breakdown of Millbrook's places by category": the right answer lists every
    category with its count. Were only the first few counts facts, the others it says (5 hotels,
    1 museum) would read as rivals of a recorded 3 and the full breakdown would fail."""
    from prove_env.facts import facts_stated

    asks = _asks("list_categories", draws=20)
    assert len(asks) > 20
    for ask, _, result in asks:
        facts = ask.facts(result)
        assert sorted(set(facts)) == sorted({c["places"] for c in result}), (ask.say, facts)
        full = ", ".join(f"{c['category'].replace('_', ' ')}: {c['places']}" for c in result)
        assert facts_stated([facts], [full]), (ask.say, full, facts)


def test_a_route_distance_is_stated_as_the_route_gives_it_in_km_or_in_metres():
    """'What's the travel time ... Distance too, please.': a route of 552 m reads `distance_km: 0.6`,
    and an answer that repeats it ('2 minutes, 0.6 km') is right, as is '552 m'; a wrong distance is
    not. A request never says 'please' twice in a row ('Distance too, please. Driving, please.')."""
    from prove_env.facts import facts_stated

    asks = [(ask, result) for ask, _, result in _asks("get_route", draws=120)
            if len(ask.facts(result)) == 2]
    short = [(ask, result) for ask, result in asks if result["distance_m"] < 1000]
    assert len(asks) > 40 and len(short) > 5, (len(asks), len(short))
    for ask, result in asks:
        facts, minutes = ask.facts(result), result["duration_min"]
        for distance in (f"{result['distance_km']} km", f"{result['distance_m']} m"):
            assert facts_stated([facts], [f"About {minutes} minutes, {distance}."]), (ask.say, distance, facts)
        wrong = f"{round(result['distance_km'] + 0.3, 1)} km"
        assert not facts_stated([facts], [f"About {minutes} minutes, {wrong}."]), (ask.say, wrong, facts)
        assert ask.say.count("please") <= 1, ask.say


def test_a_nearby_search_that_records_the_nearest_place_asks_for_the_nearest():
    """The fact is the first (nearest) place found: 'is there a café close by?' is answered as rightly
    by any café in reach."""
    asks = _asks("nearby_places", draws=120)
    assert len(asks) > 40
    for ask, _, result in asks:
        assert ask.facts(result)[0] == result[0]["name"]
        assert "nearest" in ask.say or "closest" in ask.say, ask.say


def test_a_radius_or_a_label_is_said_with_the_request_never_held_back():
    """A nearby search has a default radius and a place is saved without a label unless told: a
    request that held either back ('Find the nearest hotel to 234 Oak Street.', then 'No more than
    1 km away.') would have the assistant ask for a value it may rightly leave to its default."""
    nearby = _asks("nearby_places", draws=120)
    assert len(nearby) > 40
    for ask, _, _ in nearby:
        assert ask.detail is None, ask.say
    labelled = [ask for ask, _ in _built("save_place", draws=120) if "label" in ask.args]
    assert len(labelled) > 20
    for ask in labelled:
        assert ask.detail is None and f"'{ask.args['label']}'" in ask.say, ask.say


def test_a_place_question_asks_for_what_only_the_place_in_full_holds():
    """The search that finds a place by its name shows its address, rating and category: a
    question answered by those alone would make `get_place` a call nobody needs."""
    checked = 0
    for ask, read in _built("get_place", draws=60):
        result = read("get_place", **ask.args)
        (row,) = [p for p in read("search_places", query=result["name"]) if p["place_id"] == result["place_id"]]
        masked = {k: ("\x00masked" if k in row else v) for k, v in result.items()}
        try:
            kept = ask.facts(masked)
        except (KeyError, TypeError, AttributeError):
            kept = []
        assert any(a == b for a, b in zip(ask.facts(result), kept)), ask.say
        checked += 1
    assert checked > 100


def _built(tool: str, *, seeds=(0, 1), draws: int = 80):
    """Requests the recipe writes for `tool`, each with the reader of its world (open while the
    request is looked at)."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("maps"), get_recipe("maps")
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"maps built {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == tool):
            for _ in range(draws):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is not None:
                    yield ask, read
        world.close()


def test_a_held_place_is_named_plainly_and_a_list_question_asks_only_what_its_facts_hold():
    """Findings: "Can you look up a business's phone number for me? I mean Taqueria El Meadow." read as a
    correction; "Which place lists do I have, and how big are they?" recorded only the lists' names, so
    an answer without the sizes passed."""
    held = 0
    for ask, _ in _built("get_place", draws=120):
        if ask.detail is not None:
            held += 1
            assert not ask.detail.startswith("I mean"), ask.detail
    assert held > 5
    lists = 0
    for ask, read in _built("list_lists"):
        facts = ask.facts(read("list_lists", **ask.args))
        assert all(isinstance(f, str) for f in facts), ask.say  # names only
        assert not any(w in ask.say.lower() for w in ("how big", "how many", "size")), ask.say
        lists += 1
    assert lists > 5


def test_open_right_now_never_stands_between_a_place_and_its_address():
    """Finding: "Find me the nearest gas station that's open right now to 574 Birch Street, Riverton."""
    import re

    opened = 0
    for ask, _ in _built("nearby_places", draws=120):
        if ask.args.get("open_now"):
            opened += 1
            for text in (ask.say, ask.terse):
                assert "open" in text, text
                assert not re.search(r"open right now (to|within|of) ", text), text
    assert opened > 10


def test_a_list_is_named_in_quotes_and_the_cities_question_asks_for_every_city_first():
    """Findings: "Rename Coffee to try to 'Quick lunches'." (a list name holding 'to', unquoted) and
    "Which of your cities have buses? List all the cities, please." (the facts are every city, the
    first question asks only for those with buses)."""
    listed = 0
    for tool in ("get_list", "rename_list", "add_to_list", "remove_from_list", "delete_list"):
        for ask, read in _built(tool, draws=40):
            name = read("get_list", list_id=ask.args["list_id"])["name"]
            for text in (ask.say, ask.terse):
                assert f"'{name}'" in text, text
            listed += 1
    assert listed > 100
    cities = [ask for ask, _ in _built("list_cities", draws=40)]
    assert len(cities) > 40
    for ask in cities:
        first = ask.say.split("?")[0]
        assert any(w in first for w in ("cover", "on the map", "maps for")), ask.say


def test_which_is_quickest_is_asked_only_where_one_place_is_quickest():
    """'Which is quickest to reach from 656 2nd Avenue: Lewis's Café, Flour & Lantern or Olive & Vine?'
    presumes one: where two of them tie at the shortest time (2 minutes each) the request has no
    facts and its draft is left; the other wordings keep their minutes."""
    from prove_env.facts import quantity

    asks = _asks("distance_matrix", draws=200)
    quickest = [(ask, result) for ask, _, result in asks if ask.say.startswith("Which is quickest")]
    tied = [(ask, result) for ask, result in quickest
            if sorted(c["duration_min"] for c in result)[:2].count(min(c["duration_min"] for c in result)) > 1]
    assert len(quickest) > 20 and tied, (len(quickest), len(tied))
    for ask, result in quickest:
        if (ask, result) in tied:
            with pytest.raises(ValueError):
                ask.facts(result)
        else:
            assert ask.facts(result) == [quantity(c["duration_min"], "min") for c in result], ask.say
    others = [(ask, result) for ask, _, result in asks if not ask.say.startswith("Which is quickest")]
    assert others and all(ask.facts(result) for ask, result in others)


def test_a_nearby_search_states_only_filters_that_change_what_it_finds():
    """Finding: "Nearest gym rated 4 stars or better within 2 km of 820 Market Street, Riverton" kept
    no radius in its gold, as the one gym within 2 km also lies within the default kilometre: the gates
    drop a filter that changes nothing, and the gold then searched 1 km where the user said 2 km (and
    every place where the user wanted one open now, or priced at $$ or less). A radius other than the
    default, open now, a rating or a price, and the category, are said only where they change the
    search's result, so that the gold keeps every one the user states."""
    import re
    from collections import Counter

    default = {"radius_m": 1000}
    stated = Counter()
    asks = 0
    for ask, read in _built("nearby_places", draws=150):
        asks += 1
        found = read("nearby_places", **ask.args)
        assert found, ask.say
        for key in ("radius_m", "category", "open_now", "min_rating", "max_price_level"):
            if key not in ask.args or ask.args[key] == default.get(key):
                continue
            stated[key] += 1
            fewer = {k: v for k, v in ask.args.items() if k != key}
            assert read("nearby_places", **fewer) != found, (key, ask.say)
        said = re.search(r"(half a kilometer|\d km)", ask.say).group(1)
        assert said == {500: "half a kilometer"}.get(ask.args["radius_m"], f"{ask.args['radius_m'] // 1000} km")
        assert ("open right now" in ask.say) == bool(ask.args.get("open_now")), ask.say
        assert ("4 stars" in ask.say) == ("min_rating" in ask.args), ask.say
        assert ("$$" in ask.say) == ("max_price_level" in ask.args), ask.say
    assert asks > 60
    # every filter is still asked for somewhere
    assert all(stated[k] >= 3 for k in ("radius_m", "category", "open_now", "min_rating", "max_price_level")), stated


def test_a_held_place_name_is_said_as_a_name():
    """Finding: "I need a phone number for a place." then "It's Museum of Saffron History.", a name
    that wants an article there; the held name is said as what the place is called."""
    held = 0
    for ask, _ in _built("get_place", draws=120):
        if ask.detail is not None:
            held += 1
            assert "called" in ask.detail or ask.detail.startswith("Its name is"), ask.detail
    assert held > 5


def test_a_terse_introduction_is_more_than_the_bare_name():
    """Finding: "Richard Berry. New list 'Tacos to try'." opens with the name alone, which reads as a
    signature; the terse introduction says whose name it is ("Richard Berry here.", "I'm ...")."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, Ref
    from prove_env.world import worlds
    from servers.maps.synth import _by_name

    seen = 0

    toolkit = get_toolkit("maps")
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        for user in read("find_users", limit=100):
            plain, terse = _by_name(Ref.of("user", user))
            assert terse.strip() != f"{user['name']}.", terse
            assert user["name"] in plain and user["name"] in terse
            seen += 1
        world.close()
    assert seen > 40


def test_a_place_is_added_only_to_a_list_its_name_fits():
    """Finding: "could you put Oak Harbor Grand Hotel on my 'Coffee to try' list?": a list named for a
    kind of place (coffee, brunch, lunches, a date night) takes only places of that kind."""
    food = {"restaurant", "cafe", "bakery"}
    fits = {"Coffee to try": {"cafe", "bakery"}, "Weekend brunch": food, "Work lunches": food,
            "Date night": food | {"bar", "museum", "park"}}
    checked = 0
    for ask, read in _built("add_to_list", seeds=(0, 1, 2), draws=150):
        name = read("get_list", list_id=ask.args["list_id"])["name"]
        if name in fits:
            category = read("get_place", place_id=ask.args["place_id"])["category"]
            assert category in fits[name], (ask.say, category)
            checked += 1
    assert checked > 30, checked


def test_a_park_library_museum_or_hospital_is_never_called_a_business():
    """Finding: "Can you look up a business's phone number for me? The place is called Cedar Falls
    General Hospital.": a hospital, a park, a library or a museum is asked of as a place."""
    from servers.maps.synth import _place_question

    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("maps"), get_recipe("maps")
    held = ("I need a phone number for a place.", "Can you look up a business's phone number for me?")
    checked = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"maps business {seed}")
        for b in recipe.sample(read, world.now, rng):
            for _ in range(20):
                ask = _place_question(b, rng, ["Number of {name}?"], "{name} number?", lambda r: [r["phone"]], held)
                if ask is None or ask.detail is None:
                    continue
                category = read("get_place", place_id=ask.args["place_id"])["category"]
                if category in ("park", "library", "museum", "hospital"):
                    assert "business" not in ask.say, (ask.say, ask.detail)
                    checked += 1
        world.close()
    assert checked > 20, checked


def test_a_distance_is_not_asked_of_a_place_at_the_address_itself(goal_asks):
    """Finding (seed 157): "I'm at 218 6th Avenue, Cedar Falls. How far is the nearest bakery?" with
    the bakery at that very address: the fact was "0 m", and "it's right at your address" was scored
    wrong. A nearest place at (or next to) the address is asked of by name, never by distance."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader
    from prove_env.world import worlds

    toolkit = get_toolkit("maps")
    checked = 0
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        for goal, ask in goal_asks("maps", seeds=(seed,), draws=200, salt="maps at the address"):
            if goal.tool != "nearby_places":
                continue
            found = read("nearby_places", **ask.args)
            if found and found[0]["distance_m"] < 50:
                assert "how far" not in ask.say.lower() and "how far" not in ask.terse.lower(), ask.say
                checked += 1
        world.close()
    assert checked > 0, checked
