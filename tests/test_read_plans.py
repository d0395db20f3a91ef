"""What keeps the slowest simple reads of `prove-env bench` fast, checked on the statements they run
(as in tests/test_read_queries.py; no time is asserted)."""

from __future__ import annotations

import pytest

from prove_env.registry import get_toolkit
from prove_env.world import worlds


@pytest.mark.parametrize("seed", range(3))
def test_the_low_stock_report_builds_no_index_for_each_report(seed):
    # SQLite would index the store's few pick-up holds afresh on every call (about a sixth of the report).
    world = worlds.create(get_toolkit("retail_chain"), seed)
    tools = get_toolkit("retail_chain")(world)
    seen: list[str] = []
    world.connection.set_trace_callback(seen.append)
    try:
        for (store,) in tools.rows("SELECT id FROM stores ORDER BY id"):
            tools.run("low_stock_report", {"store_id": store})
    finally:
        world.connection.set_trace_callback(None)
    reports = [s for s in seen if "FROM stock k" in s]
    assert reports
    for statement in reports:
        plan = [row[3] for row in world.connection.execute("EXPLAIN QUERY PLAN " + statement)]
        assert not any("AUTOMATIC" in step for step in plan), plan
    world.close()
