"""The reads `prove-env bench` times against its 100 us target for simple reads read the world in a
few SQL statements, along indexes, however much they list.

No time is asserted here (see tests/test_bench.py): what keeps these reads fast is checked instead,
on the statements each one runs (SQLite's trace callback sees every statement, ORM loads included,
with its values filled in) and the plans SQLite picks for them.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from prove_env.registry import get_toolkit
from prove_env.world import World, worlds


def _statements(world: World, call: Callable[[], object]) -> list[str]:
    seen: list[str] = []
    world.connection.set_trace_callback(seen.append)
    try:
        call()
    finally:
        world.connection.set_trace_callback(None)
    return seen


def _plan(world: World, statement: str) -> list[str]:
    return [row[3] for row in world.connection.execute("EXPLAIN QUERY PLAN " + statement)]


def _served(server: str, seed: int = 0):
    world = worlds.create(get_toolkit(server), seed)
    return world, get_toolkit(server)(world)


@pytest.mark.parametrize("seed", range(3))
def test_a_home_feed_page_is_one_query_along_the_time_index(seed):
    world, tools = _served("social_media", seed)
    tools.run("get_home_feed", {})  # the signed-in user is looked up once per world
    seen = _statements(world, lambda: tools.run("get_home_feed", {}))
    # the page with every post's details; a second query only for originals of reposts outside it
    assert 1 <= len(seen) <= 2, seen
    assert not any("TEMP B-TREE" in step for step in _plan(world, seen[0])), _plan(world, seen[0])


def test_a_timeline_is_the_block_check_and_one_query_without_a_sort():
    world, tools = _served("social_media")
    me = tools.rows("SELECT id FROM users WHERE is_me = 1")[0][0]
    # someone public, not blocked either way, with posts and no reposts (whose originals are read apart)
    public = tools.rows("SELECT id FROM users u WHERE is_private = 0 AND id != ?1 "
                        "AND EXISTS (SELECT 1 FROM posts WHERE author_id = u.id) "
                        "AND NOT EXISTS (SELECT 1 FROM posts WHERE author_id = u.id AND repost_of_id IS NOT NULL) "
                        "AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id IN (u.id, ?1) "
                        "AND blocked_id IN (u.id, ?1)) "
                        "ORDER BY id", me)[0][0]
    tools.run("get_user_timeline", {"user_id": public})
    seen = _statements(world, lambda: tools.run("get_user_timeline", {"user_id": public}))
    assert len(seen) == 2 and "FROM blocks" in seen[0], seen
    assert not any("TEMP B-TREE" in step for step in _plan(world, seen[1])), _plan(world, seen[1])


def test_a_clients_watchlists_are_one_query_however_many_instruments_they_hold():
    world, tools = _served("trading")
    client, held = tools.rows("SELECT l.client_id, count(*) FROM watchlists l JOIN watchlist_items w "
                              "ON w.watchlist_id = l.id GROUP BY l.client_id ORDER BY count(*) DESC, l.client_id")[0]
    assert held > 1
    seen = _statements(world, lambda: tools.run("list_watchlists", {"client_id": client}))
    assert len([s for s in seen if "instruments" in s]) == 1, seen  # no instrument is loaded on its own


def test_a_homes_devices_name_their_rooms_from_one_query():
    world, tools = _served("iot_devices")
    home, rooms = tools.rows("SELECT home_id, count(DISTINCT room_id) FROM devices GROUP BY home_id "
                             "ORDER BY count(DISTINCT room_id) DESC, home_id")[0]
    assert rooms > 1
    seen = _statements(world, lambda: tools.run("list_devices", {"home_id": home}))
    assert len([s for s in seen if "FROM rooms" in s]) == 1, seen  # not one look-up per room


def test_the_low_stock_report_sums_restock_orders_along_store_and_product():
    world, tools = _served("retail_chain")
    store = tools.rows("SELECT store_id FROM restock_orders WHERE status = 'placed' ORDER BY store_id")[0][0]
    seen = _statements(world, lambda: tools.run("low_stock_report", {"store_id": store}))
    (report,) = [s for s in seen if "restock_orders" in s]
    steps = [step for step in _plan(world, report) if "restock_orders" in step]
    assert steps and all("(store_id=? AND product_id=?)" in step for step in steps), _plan(world, report)
