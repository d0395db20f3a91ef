"""The marketplace server through real MCP: every tool's success path and its refusals (each
leaving the world unchanged), bidding by the increment, offers the seller answers, orders from
auctions, purchases and offers, the seller's listing operations, shipping, feedback, watchlists
and the outcome-based reward.

Entities are discovered through the tools of a fresh seed-0 world.
"""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select

from servers.marketplace.models import Order, Watch


@pytest.fixture
def s(served):
    return served("marketplace")


def members(s) -> list[dict]:
    return s.ok("find_members", limit=100)


def listings(s) -> list[dict]:
    found = []
    for m in members(s):
        found += s.ok("search_listings", seller_id=m["member_id"], status=None, limit=100)
    return found


def is_open(s, x: dict) -> bool:
    return x["status"] == "active" and dt.datetime.fromisoformat(x["end_time"]) > s.world.now


def someone_else(s, *ids: str) -> dict:
    return next(m for m in members(s) if m["member_id"] not in ids)


def auction(s, with_bids: bool, hours_left: float = 13) -> dict:
    limit = s.world.now + dt.timedelta(hours=hours_left)
    return next(x for x in listings(s) if x["format"] == "auction" and is_open(s, x) and bool(x["bid_count"]) == with_bids
                and dt.datetime.fromisoformat(x["end_time"]) > limit)


def fixed(s, offers: bool) -> dict:
    return next(x for x in listings(s) if x["format"] == "fixed_price" and is_open(s, x) and x["accepts_offers"] == offers)


def orders(s, role: str = "seller") -> list[dict]:
    found = []
    for m in members(s):
        found += s.ok("list_orders", member_id=m["member_id"], role=role, limit=100)
    return found


# -- the world -----------------------------------------------------------------------------------

def test_seed_world_has_the_variety_tasks_need(s):
    everyone = members(s)
    assert len(everyone) == 40 and len({m["name"] for m in everyone}) == 40
    found = listings(s)
    kinds = {(x["format"], x["status"]) for x in found}
    assert kinds == {(f, st) for f in ("auction", "fixed_price") for st in ("active", "sold", "ended")}
    assert len({x["title"].lower() for x in found}) == len(found) >= 100
    assert any(x["format"] == "auction" and is_open(s, x) and not x["bid_count"] for x in found)
    assert any(x["format"] == "auction" and is_open(s, x) and dt.datetime.fromisoformat(x["end_time"])
               < s.world.now + dt.timedelta(hours=12) for x in found)
    assert any(not s.ok("search_listings", seller_id=m["member_id"], status=None) for m in everyone)
    assert any(not s.ok("get_watchlist", member_id=m["member_id"]) for m in everyone)
    assert {o["status"] for o in orders(s)} == {"paid", "shipped", "delivered"}
    assert s.toolkit(s.world).invariants() == []


def test_find_members_and_get_feedback(s):
    everyone = members(s)
    ada = everyone[3]
    assert s.ok("find_members", name=ada["name"].split()[-1].upper())[0]["member_id"] in {m["member_id"] for m in everyone}
    assert ada in s.ok("find_members", name=ada["username"])
    assert s.ok("find_members", name="zzzz-nobody") == []
    rated = next(m for m in everyone if m["positive"] + m["negative"] + m["neutral"])
    received = s.ok("get_feedback", member_id=rated["member_id"])
    assert len(received["received"]) == rated["positive"] + rated["neutral"] + rated["negative"]
    assert received["feedback_score"] == rated["positive"] - rated["negative"]
    assert all(f["subject_id"] == rated["member_id"] for f in received["received"])


# -- searching and reading -----------------------------------------------------------------------

def test_search_listings_filters(s):
    active = s.ok("search_listings", limit=100)
    assert active and all(x["status"] == "active" for x in active)
    ends = [x["end_time"] for x in active]
    assert ends == sorted(ends)
    cams = s.ok("search_listings", category="Cameras", listing_format="auction", limit=100)
    assert all(x["category"] == "Cameras" and x["format"] == "auction" for x in cams)
    cheap = s.ok("search_listings", max_price=30, listing_format="fixed_price", limit=100)
    assert cheap and all(x["price"] <= 30 for x in cheap)
    one = active[0]
    assert one in s.ok("search_listings", query=one["title"].upper())
    sold = s.ok("search_listings", status="sold", limit=100)
    assert sold and all(x["status"] == "sold" for x in sold)
    used = s.ok("search_listings", condition="used", limit=100)
    assert all(x["condition"] == "used" for x in used)


def test_get_listing_says_whether_the_reserve_is_met_but_never_the_reserve(s):
    with_reserve = []
    for x in listings(s):
        if x["format"] == "auction":
            full = s.ok("get_listing", listing_id=x["listing_id"])
            assert "reserve_price" not in full
            if full["has_reserve"]:
                with_reserve.append(full)
    assert any(not f["reserve_met"] for f in with_reserve)
    item = fixed(s, True)
    full = s.ok("get_listing", listing_id=item["listing_id"])
    assert full["price"] == item["price"] and "pending_offers" in full and full["seller_name"]


# -- bidding -------------------------------------------------------------------------------------

def test_a_bid_must_beat_the_high_bid_by_the_increment(s):
    item = auction(s, with_bids=True)
    history = s.ok("list_bids", listing_id=item["listing_id"])
    top = history["bids"][0]
    assert top["amount"] == item["current_bid"] and history["minimum_bid"] == item["minimum_bid"] > item["current_bid"]
    bidder = someone_else(s, item["seller_id"], top["bidder_id"])
    text = s.fails("place_bid", "too low", listing_id=item["listing_id"], bidder_id=bidder["member_id"],
                     amount=item["current_bid"])
    assert f"current high bid is {item['current_bid']:.2f}" in text and f"{item['minimum_bid']:.2f}" in text
    s.fails("place_bid", "too low", listing_id=item["listing_id"], bidder_id=bidder["member_id"],
              amount=round(item["minimum_bid"] - 0.01, 2))
    placed = s.ok("place_bid", listing_id=item["listing_id"], bidder_id=bidder["member_id"], amount=item["minimum_bid"])
    assert placed["high_bidder"] and placed["bid_count"] == item["bid_count"] + 1
    after = s.ok("list_bids", listing_id=item["listing_id"])
    assert after["bids"][0]["bidder_id"] == bidder["member_id"] and after["bids"][0]["amount"] == item["minimum_bid"]
    # the high bidder does not outbid themselves
    s.fails("place_bid", "already the high bidder", listing_id=item["listing_id"], bidder_id=bidder["member_id"],
              amount=item["minimum_bid"] + 50)


def test_first_bid_at_least_the_start_price(s):
    item = auction(s, with_bids=False)
    bidder = someone_else(s, item["seller_id"])
    text = s.fails("place_bid", "start price", listing_id=item["listing_id"], bidder_id=bidder["member_id"],
                     amount=round(item["start_price"] - 0.5, 2) if item["start_price"] > 1 else 0.5)
    assert "no bids yet" in text
    assert s.ok("place_bid", listing_id=item["listing_id"], bidder_id=bidder["member_id"],
                amount=item["start_price"])["bid_count"] == 1


def test_no_bids_on_your_own_listing_an_ended_auction_or_a_fixed_price(s):
    item = auction(s, with_bids=True)
    s.fails("place_bid", "cannot bid on their own", listing_id=item["listing_id"], bidder_id=item["seller_id"],
              amount=item["minimum_bid"] + 10)
    ended = next(x for x in listings(s) if x["format"] == "auction" and x["status"] != "active")
    bidder = someone_else(s, ended["seller_id"])
    s.fails("place_bid", "not active", listing_id=ended["listing_id"], bidder_id=bidder["member_id"], amount=5000)
    item = fixed(s, False)
    s.fails("place_bid", "not an auction", listing_id=item["listing_id"],
              bidder_id=someone_else(s, item["seller_id"])["member_id"], amount=5000)
    s.fails("list_bids", "takes no bids", listing_id=item["listing_id"])


def test_an_auction_past_its_end_time_takes_no_bids(s):
    item = auction(s, with_bids=False)
    s.world.session.execute(__import__("sqlalchemy").text(
        "UPDATE listings SET end_time = :t WHERE id = :i"), {"t": (s.world.now - dt.timedelta(minutes=5)).isoformat(sep=" "),
                                                             "i": item["listing_id"]})
    s.world.session.commit()
    s.fails("place_bid", "ended at", listing_id=item["listing_id"],
              bidder_id=someone_else(s, item["seller_id"])["member_id"], amount=item["start_price"] + 5)


# -- buying and offers ---------------------------------------------------------------------------

def test_buy_it_now_creates_a_paid_order_and_declines_pending_offers(s):
    item = next(x for x in listings(s) if x["format"] == "fixed_price" and is_open(s, x) and x["accepts_offers"]
                and s.ok("list_offers", listing_id=x["listing_id"], status="pending"))
    buyer = someone_else(s, item["seller_id"])
    s.fails("buy_it_now", "cannot buy your own", listing_id=item["listing_id"], buyer_id=item["seller_id"])
    order = s.ok("buy_it_now", listing_id=item["listing_id"], buyer_id=buyer["member_id"])
    assert order["status"] == "paid" and order["price"] == item["price"] and order["how"] == "buy_it_now"
    assert s.ok("get_listing", listing_id=item["listing_id"])["status"] == "sold"
    assert not s.ok("list_offers", listing_id=item["listing_id"], status="pending")
    assert order["order_id"] in {o["order_id"] for o in s.ok("list_orders", member_id=buyer["member_id"])}
    s.fails("buy_it_now", "not active", listing_id=item["listing_id"], buyer_id=buyer["member_id"])
    bids = auction(s, with_bids=True)
    s.fails("buy_it_now", "place a bid", listing_id=bids["listing_id"], buyer_id=buyer["member_id"])


def test_offers_the_seller_accepts_or_declines(s):
    item = fixed(s, True)
    a, b = someone_else(s, item["seller_id"]), None
    b = someone_else(s, item["seller_id"], a["member_id"])
    low = float(round(item["price"] * 0.7))
    first = s.ok("make_offer", listing_id=item["listing_id"], buyer_id=a["member_id"], amount=low,
                 message="Can pick up Saturday")
    assert first["status"] == "pending" and first["asking_price"] == item["price"]
    s.fails("make_offer", "already has a pending offer", listing_id=item["listing_id"], buyer_id=a["member_id"],
              amount=low + 1)
    second = s.ok("make_offer", listing_id=item["listing_id"], buyer_id=b["member_id"], amount=low + 2)
    pending = s.ok("list_offers", seller_id=item["seller_id"], status="pending", limit=100)
    assert {first["offer_id"], second["offer_id"]} <= {o["offer_id"] for o in pending}
    declined = s.ok("respond_to_offer", offer_id=first["offer_id"], decision="decline")
    assert declined["status"] == "declined" and declined["order"] is None
    s.fails("respond_to_offer", "already declined", offer_id=first["offer_id"], decision="accept")
    others = [o for o in s.ok("list_offers", listing_id=item["listing_id"], status="pending")
              if o["offer_id"] != second["offer_id"]]
    accepted = s.ok("respond_to_offer", offer_id=second["offer_id"], decision="accept")
    assert accepted["status"] == "accepted" and accepted["order"]["price"] == low + 2
    assert accepted["order"]["buyer_id"] == b["member_id"] and accepted["order"]["how"] == "offer"
    assert s.ok("get_listing", listing_id=item["listing_id"])["status"] == "sold"
    assert all(o["status"] == "declined" for o in s.ok("list_offers", listing_id=item["listing_id"])
               if o["offer_id"] in {x["offer_id"] for x in others})
    assert s.ok("list_offers", buyer_id=b["member_id"], status="accepted")[0]["offer_id"] == second["offer_id"]


def test_list_offers_without_a_criterion_lists_every_offer_newest_first(s):
    everything = s.ok("list_offers", limit=100)
    by_buyer = [o for m in members(s) for o in s.ok("list_offers", buyer_id=m["member_id"], limit=100)]
    assert len(everything) > 20 and sorted(o["offer_id"] for o in everything) == sorted(o["offer_id"] for o in by_buyer)
    made = [(o["made_at"], o["offer_id"]) for o in everything]
    assert made == sorted(made, reverse=True)
    assert s.ok("list_offers") == everything[:20]
    assert s.ok("list_offers", status="accepted", limit=100) == [o for o in everything if o["status"] == "accepted"]


def test_offer_refusals(s):
    item = fixed(s, True)
    buyer = someone_else(s, item["seller_id"])
    s.fails("make_offer", "not below the price", listing_id=item["listing_id"], buyer_id=buyer["member_id"],
              amount=item["price"])
    s.fails("make_offer", "own listing", listing_id=item["listing_id"], buyer_id=item["seller_id"], amount=1)
    plain = fixed(s, False)
    s.fails("make_offer", "does not accept offers", listing_id=plain["listing_id"], buyer_id=buyer["member_id"],
              amount=1)
    bids = auction(s, with_bids=True)
    s.fails("make_offer", "take bids", listing_id=bids["listing_id"], buyer_id=buyer["member_id"], amount=1)


# -- selling -------------------------------------------------------------------------------------

def test_create_listing_fixed_price_and_auction(s):
    seller = members(s)[0]
    sid = seller["member_id"]
    fixed_one = s.ok("create_listing", seller_id=sid, title=" Bread maker ", category="Home & Garden",
                     condition="like_new", listing_format="fixed_price", price=45, accepts_offers=True)
    assert fixed_one["title"] == "Bread maker" and fixed_one["status"] == "active" and fixed_one["accepts_offers"]
    assert dt.datetime.fromisoformat(fixed_one["end_time"]) == s.world.now + dt.timedelta(days=7)
    sale = s.ok("create_listing", seller_id=sid, title="Polaroid camera", category="Cameras", condition="used",
                listing_format="auction", start_price=30, reserve_price=60, duration_days=3)
    assert sale["minimum_bid"] == 30 and sale["bid_count"] == 0
    assert s.ok("get_listing", listing_id=sale["listing_id"])["has_reserve"]
    s.fails("create_listing", "needs a price", seller_id=sid, title="Lamp", category="Home & Garden",
              condition="used", listing_format="fixed_price")
    s.fails("create_listing", "needs a start_price", seller_id=sid, title="Lamp", category="Home & Garden",
              condition="used", listing_format="auction")
    s.fails("create_listing", "must be above the start price", seller_id=sid, title="Lamp",
              category="Home & Garden", condition="used", listing_format="auction", start_price=20, reserve_price=20)
    s.fails("create_listing", "not a fixed price or offers", seller_id=sid, title="Lamp",
              category="Home & Garden", condition="used", listing_format="auction", start_price=20, price=40)
    s.fails("create_listing", "Auctions run", seller_id=sid, title="Lamp", category="Home & Garden",
              condition="used", listing_format="auction", start_price=20, duration_days=30)
    s.fails("create_listing", "1 to 80 characters", seller_id=sid, title="   ", category="Books",
              condition="new", listing_format="fixed_price", price=5)


def test_revise_listing_only_before_the_first_bid(s):
    item = auction(s, with_bids=False)
    revised = s.ok("revise_listing", listing_id=item["listing_id"], start_price=round(item["start_price"] / 2, 2) or 1,
                   title=item["title"] + " (boxed)")
    assert revised["title"].endswith("(boxed)") and revised["minimum_bid"] == revised["start_price"]
    s.fails("revise_listing", "change its start_price, not price", listing_id=item["listing_id"], price=10)
    bidder = someone_else(s, item["seller_id"])
    s.ok("place_bid", listing_id=item["listing_id"], bidder_id=bidder["member_id"], amount=revised["start_price"])
    s.fails("revise_listing", "cannot be revised after its first bid", listing_id=item["listing_id"],
              condition="new")
    plain = fixed(s, False)
    assert s.ok("revise_listing", listing_id=plain["listing_id"], price=10.5, condition="used")["price"] == 10.5
    s.fails("revise_listing", "Nothing to change", listing_id=plain["listing_id"])
    sold = next(x for x in listings(s) if x["status"] == "sold")
    s.fails("revise_listing", "only active listings", listing_id=sold["listing_id"], title="New")


def test_end_listing_early(s):
    plain = fixed(s, True)
    ended = s.ok("end_listing", listing_id=plain["listing_id"])
    assert ended["status"] == "ended" and ended["order"] is None
    assert not s.ok("list_offers", listing_id=plain["listing_id"], status="pending")
    s.fails("end_listing", "not active", listing_id=plain["listing_id"])
    # an auction with bids meeting the reserve is sold to the high bidder
    item = next(x for x in listings(s) if x["format"] == "auction" and is_open(s, x) and x["bid_count"]
                and s.ok("get_listing", listing_id=x["listing_id"])["reserve_met"]
                and dt.datetime.fromisoformat(x["end_time"]) > s.world.now + dt.timedelta(hours=12))
    high = s.ok("get_listing", listing_id=item["listing_id"])["high_bidder_id"]
    sold = s.ok("end_listing", listing_id=item["listing_id"])
    assert sold["status"] == "sold" and sold["order"]["buyer_id"] == high and sold["order"]["price"] == item["current_bid"]
    # in its last 12 hours an auction with bids runs to its end
    late = next(x for x in listings(s) if x["format"] == "auction" and is_open(s, x) and x["bid_count"]
                and dt.datetime.fromisoformat(x["end_time"]) < s.world.now + dt.timedelta(hours=12))
    s.fails("end_listing", "must run to its end", listing_id=late["listing_id"])


def test_relist_only_ended_unsold_listings_once(s):
    ended = next(x for x in listings(s) if x["status"] == "ended" and x["format"] == "auction")
    new = s.ok("relist_listing", listing_id=ended["listing_id"], duration_days=5)
    assert new["relisted_from"] == ended["listing_id"] and new["status"] == "active" and new["bid_count"] == 0
    assert new["title"] == ended["title"] and new["start_price"] == ended["start_price"]
    assert s.ok("get_listing", listing_id=ended["listing_id"])["relisted_as"] == new["listing_id"]
    s.fails("relist_listing", "already relisted", listing_id=ended["listing_id"])
    sold = next(x for x in listings(s) if x["status"] == "sold")
    s.fails("relist_listing", "is sold", listing_id=sold["listing_id"])
    s.fails("relist_listing", "still active", listing_id=new["listing_id"])
    other = next(x for x in listings(s) if x["status"] == "ended" and x["format"] == "auction"
                 and x["listing_id"] != ended["listing_id"] and not s.ok("get_listing", listing_id=x["listing_id"])[
                     "relisted_as"])
    s.fails("relist_listing", "Auctions run", listing_id=other["listing_id"], duration_days=30)


# -- orders, shipping and feedback ---------------------------------------------------------------

def test_list_orders_and_mark_shipped(s):
    seller = next(m for m in members(s) if s.ok("list_orders", member_id=m["member_id"], role="seller", status="paid"))
    paid = s.ok("list_orders", member_id=seller["member_id"], role="seller", status="paid")[0]
    assert paid["seller_id"] == seller["member_id"] and paid["title"] and paid["buyer_name"]
    s.fails("mark_shipped", "not valid", order_id=paid["order_id"], carrier="UPS", tracking_number="12-34")
    done = s.ok("mark_shipped", order_id=paid["order_id"], carrier="UPS", tracking_number="1Z 999 AA1 0123456784")
    assert done["status"] == "shipped" and done["tracking_number"] == "1Z999AA10123456784" and done["carrier"] == "UPS"
    assert done["already_shipped"] is False
    s.fails("mark_shipped", "already shipped", order_id=paid["order_id"], carrier="USPS",
              tracking_number="9400111899223344556677")
    bought = s.ok("list_orders", member_id=paid["buyer_id"])
    assert paid["order_id"] in {o["order_id"] for o in bought}


def test_feedback_after_a_delivered_order(s):
    cutoff = s.world.now - dt.timedelta(days=59)
    delivered = [o for o in orders(s) if o["status"] == "delivered"]
    rated = {f["order_id"] for m in members(s) for f in s.ok("get_feedback", member_id=m["member_id"], limit=100)[
        "received"]}
    order = next(o for o in delivered if dt.datetime.fromisoformat(o["ordered_at"]) > cutoff
                 and o["order_id"] not in rated)
    s.fails("leave_feedback", "only leave positive", order_id=order["order_id"], author_id=order["seller_id"],
              rating="negative", comment="Slow to pay")
    stranger = someone_else(s, order["buyer_id"], order["seller_id"])
    s.fails("leave_feedback", "neither the buyer nor the seller", order_id=order["order_id"],
              author_id=stranger["member_id"], rating="positive", comment="Nice")
    before = s.ok("get_feedback", member_id=order["seller_id"])["feedback_score"]
    row = s.ok("leave_feedback", order_id=order["order_id"], author_id=order["buyer_id"], rating="positive",
               comment="Great seller!")
    assert row["subject_id"] == order["seller_id"]
    assert s.ok("get_feedback", member_id=order["seller_id"])["feedback_score"] == before + 1
    s.fails("leave_feedback", "feedback is left once", order_id=order["order_id"], author_id=order["buyer_id"],
              rating="neutral", comment="Changed my mind")
    assert s.ok("leave_feedback", order_id=order["order_id"], author_id=order["seller_id"], rating="positive",
                comment="Quick payment")["subject_id"] == order["buyer_id"]
    waiting = next(o for o in orders(s) if o["status"] in ("paid", "shipped"))
    s.fails("leave_feedback", "not delivered yet", order_id=waiting["order_id"], author_id=waiting["buyer_id"],
              rating="positive", comment="Thanks")
    old = next(o for o in delivered if dt.datetime.fromisoformat(o["ordered_at"]) < s.world.now - dt.timedelta(days=60))
    s.fails("leave_feedback", "feedback window has closed", order_id=old["order_id"], author_id=old["buyer_id"],
              rating="positive", comment="Thanks")


# -- watchlist -----------------------------------------------------------------------------------

def test_watchlist(s):
    member = next(m for m in members(s) if s.ok("get_watchlist", member_id=m["member_id"]))
    mid = member["member_id"]
    watched = s.ok("get_watchlist", member_id=mid)
    item = next(x for x in s.ok("search_listings", limit=100) if x["seller_id"] != mid
                and x["listing_id"] not in {w["listing_id"] for w in watched})
    assert s.ok("watch_listing", member_id=mid, listing_id=item["listing_id"])["watching"]
    assert item["listing_id"] in {w["listing_id"] for w in s.ok("get_watchlist", member_id=mid)}
    own = next(x for x in listings(s) if is_open(s, x))
    s.fails("watch_listing", "own", member_id=own["seller_id"], listing_id=own["listing_id"])
    gone = next(x for x in listings(s) if x["status"] == "sold" and x["seller_id"] != mid
                and x["listing_id"] not in {w["listing_id"] for w in watched})
    s.fails("watch_listing", "not active", member_id=mid, listing_id=gone["listing_id"])
    unwatched = s.ok("unwatch_listing", member_id=mid, listing_id=watched[0]["listing_id"])
    assert not unwatched["watching"] and unwatched["was_watching"]
    assert watched[0]["listing_id"] not in {w["listing_id"] for w in s.ok("get_watchlist", member_id=mid)}


def test_marking_a_shipped_order_shipped_again_changes_nothing(s):
    """mark_shipped is idempotent: repeated with the same carrier and tracking number it succeeds and
    says the order was already shipped; another tracking number is still refused."""
    seller = next(m for m in members(s) if s.ok("list_orders", member_id=m["member_id"], role="seller", status="paid"))
    paid = s.ok("list_orders", member_id=seller["member_id"], role="seller", status="paid")[0]
    first = s.ok("mark_shipped", order_id=paid["order_id"], carrier="FedEx", tracking_number="7712 3456 7890")
    digest = s.world.digest()
    again = s.ok("mark_shipped", order_id=paid["order_id"], carrier="FedEx", tracking_number="771234567890")
    assert again["already_shipped"] is True and s.world.digest() == digest
    assert {k: v for k, v in again.items() if k != "already_shipped"} == \
        {k: v for k, v in first.items() if k != "already_shipped"}
    s.fails("mark_shipped", "already shipped", order_id=paid["order_id"], carrier="UPS",
              tracking_number="771234567890")
    delivered = next(o for o in orders(s) if o["status"] == "delivered")
    s.fails("mark_shipped", "already delivered", order_id=delivered["order_id"], carrier="USPS",
              tracking_number="9400111899223344556677")


def test_watching_and_unwatching_again_change_nothing(s):
    """watch_listing and unwatch_listing are idempotent: a listing already watched stays watched once,
    and one not watched stays off the watchlist; neither repeat is an error or writes anything."""
    member = next(m for m in members(s) if s.ok("get_watchlist", member_id=m["member_id"]))
    mid = member["member_id"]
    watched = s.ok("get_watchlist", member_id=mid)[0]
    digest = s.world.digest()
    again = s.ok("watch_listing", member_id=mid, listing_id=watched["listing_id"])
    assert again["watching"] and again["already_watching"] and s.world.digest() == digest
    assert s.ok("unwatch_listing", member_id=mid, listing_id=watched["listing_id"])["was_watching"]
    digest = s.world.digest()
    again = s.ok("unwatch_listing", member_id=mid, listing_id=watched["listing_id"])
    assert not again["watching"] and not again["was_watching"] and s.world.digest() == digest
    assert watched["listing_id"] not in {w["listing_id"] for w in s.ok("get_watchlist", member_id=mid)}


def test_a_time_after_the_clock_breaks_the_rules(s):
    """Nothing that happened (a bid, an order shipped, a listing watched...) may lie after the clock."""
    assert not s.world.violations()
    with s.world.transaction() as db:
        db.get(Order, "ORD-0001").ordered_at = s.world.now + dt.timedelta(hours=1)
        db.scalars(select(Watch).limit(1)).one().added_at = s.world.now + dt.timedelta(hours=1)
    problems = s.world.violations()
    assert any("ORD-0001: ordered_at" in p and "after the clock" in p for p in problems)
    assert any(p.startswith("watchlist ") and "after the clock" in p for p in problems)


def test_invariants_hold_after_a_sequence_of_writes(s):
    item = auction(s, with_bids=True)
    bidder = someone_else(s, item["seller_id"], s.ok("get_listing", listing_id=item["listing_id"])["high_bidder_id"])
    s.ok("place_bid", listing_id=item["listing_id"], bidder_id=bidder["member_id"], amount=item["minimum_bid"] + 3)
    plain = fixed(s, False)
    s.ok("buy_it_now", listing_id=plain["listing_id"], buyer_id=someone_else(s, plain["seller_id"])["member_id"])
    assert s.toolkit(s.world).invariants() == []
    # a high bid that disagrees with the bids, or a rating count with the feedback, is reported
    from sqlalchemy import text
    s.world.session.execute(text("UPDATE listings SET bid_count = bid_count + 1 WHERE id = :i"),
                            {"i": item["listing_id"]})
    s.world.session.execute(text("UPDATE members SET positive = positive + 1 WHERE id = :i"),
                            {"i": bidder["member_id"]})
    problems = s.toolkit(s.world).invariants()
    assert any(item["listing_id"] in p for p in problems) and any(bidder["member_id"] in p for p in problems)


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------

def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play, served):
    from prove_env.task import Task

    s = served("marketplace")
    item = auction(s, with_bids=True)
    seller = next(m for m in members(s) if m["member_id"] == item["seller_id"])
    look = Task(id="bid", server="marketplace", seed=0,
                user_turns=[f"What's the current bid on the {item['title']} auction?"],
                gold=[[{"id": "g1", "name": "search_listings", "arguments": {"query": item["title"]}},
                       {"id": "g2", "name": "get_listing", "arguments": {"listing_id": item["listing_id"]},
                        "depends_on": ["g1"]}]],
                facts=[[item["current_bid"]]])
    # another correct path: the seller's listings carry the current bid
    other = play(look, [_call("search_listings", seller_id=seller["member_id"]),
                        f"It stands at ${item['current_bid']:.2f}."])
    assert other["success"] and other["reward_breakdown"]["coverage"] < 1
    # the right answer, then damage nobody asked for: the listing ended early
    damage = play(look, [_call("get_listing", listing_id=item["listing_id"]),
                         _call("end_listing", listing_id=item["listing_id"]), f"It is ${item['current_bid']:.2f}."])
    assert not damage["success"]

    offer_on = fixed(s, True)
    buyer = someone_else(s, offer_on["seller_id"])
    amount = float(round(offer_on["price"] * 0.8))
    offer = Task(id="offer", server="marketplace", seed=0,
                 user_turns=[f"This is {buyer['name']}. Offer ${amount:.0f} for the {offer_on['title']}."],
                 gold=[[{"id": "g1", "name": "find_members", "arguments": {"name": buyer["name"]}},
                        {"id": "g2", "name": "search_listings", "arguments": {"query": offer_on["title"]}},
                        {"id": "g3", "name": "make_offer", "depends_on": ["g1", "g2"],
                         "arguments": {"listing_id": offer_on["listing_id"], "buyer_id": buyer["member_id"],
                                       "amount": amount}}]])
    # a note to the seller the buyer did not ask for is a detail, not damage
    noted = play(offer, [_call("make_offer", listing_id=offer_on["listing_id"], buyer_id=buyer["member_id"],
                               amount=amount, message="Thanks!"), "Offer sent."])
    assert noted["success"]
    wrong = play(offer, [_call("make_offer", listing_id=offer_on["listing_id"], buyer_id=buyer["member_id"],
                               amount=amount + 5), "Offer sent."])
    assert not wrong["success"]


# -- synthesized requests ---------------------------------------------------------------------------


def test_a_listing_question_asks_for_what_only_the_listing_in_full_holds():
    """The search that finds a listing by its title shows its price, bids and minimum bid: a question
    answered by those alone would make `get_listing` a call nobody needs."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("marketplace"), get_recipe("marketplace")
    (goal,) = [g for g in recipe.goals if g.tool == "get_listing"]
    checked = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"marketplace listings {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for _ in range(60):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            result = read("get_listing", **ask.args)
            (row,) = [x for x in read("search_listings", query=result["title"]) if x["listing_id"] == result["listing_id"]]
            masked = {k: ("\x00masked" if k in row else v) for k, v in result.items()}
            assert any(a == b for a, b in zip(ask.facts(result), ask.facts(masked))), ask.say
            checked += 1
        world.close()
    assert checked > 80


def _asks(tools: tuple[str, ...], seeds=(0, 1), draws: int = 80):
    """Requests the recipe writes for `tools` from the bundles of a few worlds."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("marketplace"), get_recipe("marketplace")
    for seed in seeds:
        world = worlds.create(toolkit, seed)
        rng = random.Random(f"marketplace asks {seed}")
        bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
        for goal in (g for g in recipe.goals if g.tool in tools):
            for _ in range(draws):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is not None:
                    yield goal.tool, ask
        world.close()


def test_a_new_listing_is_titled_in_the_users_words_and_plural_titles_agree():
    """Findings: "I'm selling a like new hiking backpack" wrote the title 'Hiking backpack', so an
    assistant that titled the listing in the user's words ('hiking backpack') failed the state check;
    "The Black running shoes is exactly what I need" did not agree."""
    import re

    created = plural = 0
    for tool, ask in _asks(("create_listing", "buy_it_now", "make_offer", "revise_listing")):
        words = " ".join(filter(None, (ask.say, ask.detail)))
        if tool == "create_listing":
            created += 1
            for text in (words, ask.terse):
                assert f"'{ask.args['title']}'" in text, text  # the exact title, case and all
        for text in (words, ask.terse):
            plural += bool(re.search(r"(shoes|headphones) (are|aren't)\b", text))
            assert not re.search(r"(shoes|headphones) (is|isn't)\b", text), text
    assert created > 20 and plural > 0


def test_an_auction_request_is_never_drawn_as_off_topic_and_its_tools_never_distract_from_one():
    """Finding: "Bid 20 dollars more on the vintage running shoes listing." was an irrelevant-request
    abstention shown with the marketplace's own search_listings and place_bid; an assistant that
    looks the listing up is right and scored 0. Bidding on listings is the marketplace's topic: it
    is never drawn as off-topic here, and another server's off-topic bid shows no marketplace tool."""
    import random

    from prove_env.registry import get_toolkit, server_names
    from prove_env.synthesis.perturb import _distractor_pool, irrelevant_query
    from prove_env.synthesis.recipe import get_recipe

    topics = get_recipe("marketplace").topics
    drawn = [irrelevant_query(topics, random.Random(f"marketplace off-topic {i}")) for i in range(400)]
    assert len({topic for topic, _ in drawn}) > 20
    assert not [text for topic, text in drawn if topic == "auctions" or "bid " in text.lower()]
    own = [spec.openai_schema() for spec in get_toolkit("marketplace").visible_specs()]
    for other in (name for name in server_names() if name != "marketplace"):
        shown = [schema for schemas in _distractor_pool(other, "auctions") for schema in schemas]
        assert not [schema["function"]["name"] for schema in shown if schema in own], other


def test_a_hidden_request_asks_for_the_database_tables_never_for_what_the_tools_list():
    """Finding: "Tell me how many bids, offers and orders exist site-wide, from the database." was an
    abstention with count_records hidden, but list_offers with no criterion lists every offer, an
    auction search with every status gives each auction's bid count and a search of sold listings
    gives every order: an assistant that looks them up and answers is right, and scored 0."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds
    from servers.marketplace.synth import _intro, _me

    toolkit, recipe = get_toolkit("marketplace"), get_recipe("marketplace")
    world = worlds.create(toolkit, 0)
    rng = random.Random("marketplace hidden asks")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    asked = set()
    for hidden in recipe.hidden:
        for _ in range(40):
            bundle = rng.choice(bundles)
            text = hidden.build(bundle, rng)
            intro = _intro(_me(bundle))[0]
            assert text.startswith(intro), text
            request = text[len(intro):].lower()
            asked.add(request)
            assert "table" in request, text
            assert not [w for w in ("bid", "offer", "order", "listing", "member", "feedback", "watch")
                        if w in request], text
    assert len(asked) >= 3


def test_an_offers_note_follows_its_amount_when_the_amount_is_held_back():
    """Finding: "I'd like to make an offer on the Pro kayak paddle. Add the note 'Paying right away if
    accepted.' Let's say $26." (the note between the request and its amount)."""
    noted = 0
    for _, ask in _asks(("make_offer",), draws=120):
        if "message" not in ask.args:
            continue
        note = f"Add the note '{ask.args['message']}'"
        if ask.detail is not None:
            noted += 1
            assert note not in ask.say, ask.say
            assert ask.detail.index(note) > 0, ask.detail  # after the amount
        words = " ".join(filter(None, (ask.say, ask.detail)))
        assert words.count(note) == 1, words
    assert noted > 5


def test_a_request_for_pending_offers_says_they_are_offers_on_my_listings():
    """Finding: the terse "Plus my pending offers?" was answered in the gold with the offers made to the
    member as a seller, while the member also had pending offers of her own as a buyer (either reading
    is natural; the other one failed)."""
    asked = 0
    for _, ask in _asks(("list_offers",), draws=20):
        assert ask.args.get("seller_id") and "buyer_id" not in ask.args, ask.args
        for words in (ask.say, ask.terse):
            asked += 1
            assert any(side in words for side in ("on my listings", "made me", "Who from")), words
    assert asked > 10


def test_a_held_back_value_is_not_said_with_the_words_of_the_request_again():
    """Finding: "My silver bluetooth speaker needs a new price. The new price is $73.99." (the sentence
    that gives the held-back value repeats the request's words)."""
    import re

    def pairs(text: str) -> set[tuple[str, str]]:
        words = re.findall(r"[a-z0-9$']+(?:\.[0-9]+)?", text.lower())
        return set(zip(words, words[1:]))

    held = 0
    for tool, ask in _asks(tuple(g.tool for g in _recipe().goals), draws=150):
        if ask.detail is None:
            continue
        held += 1
        assert not pairs(ask.say) & pairs(ask.detail), (tool, ask.say, ask.detail)
    assert held > 50


def _recipe():
    from prove_env.synthesis.recipe import get_recipe

    return get_recipe("marketplace")


def test_a_listing_the_gold_searches_for_is_named_by_its_title_as_stored():
    """Finding: "Who's winning the auction for my deluxe 50mm prime lens so far?" while the gold looked
    the listing up with query="Deluxe 50mm prime lens": an agent that searched with the user's own words
    found the same listing and lost argument score."""
    named = 0
    for tool, ask in _asks(tuple(g.tool for g in _recipe().goals), draws=40):
        for ref in (r for r in ask.refs if r.kind == "listing"):
            named += 1
            for text in (" ".join(filter(None, (ask.say, ask.detail))), ask.terse):
                assert ref.entity["title"] in text, (tool, ref.entity["title"], text)
    assert named > 100


def test_the_sentence_that_gives_a_held_back_value_does_not_open_with_a_word_of_the_request():
    """Finding: "I'd like to make an offer on the Limited edition digital piano. Offer $165." (the
    sentence giving the amount opened with the request's own word)."""
    import re

    function_words = {"the", "a", "an", "my", "it", "i", "i'd"}
    held = 0
    for tool, ask in _asks(tuple(g.tool for g in _recipe().goals), draws=150):
        if ask.detail is None:
            continue
        held += 1
        first = re.match(r"[A-Za-z']*", ask.detail).group(0).lower()
        said = set(re.findall(r"[a-z']+", ask.say.lower()))  # less the words of a title ("book set")
        said -= {w for r in ask.refs for w in re.findall(r"[a-z']+", str(r.entity.get("title", "")).lower())}
        assert first in function_words or first not in said, (tool, ask.say, ask.detail)
    assert held > 50


def test_a_listing_request_records_every_entry_of_its_result():
    """Finding: "Which buy-it-now listings are there in Sports?" found six listings and recorded five
    titles (facts cut at 5), so an answer that left out the Premium camping tent passed."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("marketplace"), get_recipe("marketplace")
    tools = ("search_listings", "list_offers", "list_orders", "get_watchlist")
    checked = longer = 0
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"marketplace every entry {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool in tools):
            for _ in range(40):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None or ask.facts is None or "query" in ask.args:
                    continue
                result = read(goal.tool, **ask.args)
                facts = ask.facts(result)
                key = "buyer_name" if goal.tool == "list_offers" else "title"
                assert all(x[key] in facts for x in result), (goal.tool, ask.say, facts)
                checked += 1
                longer += len(result) > 5
        world.close()
    assert checked > 50 and longer > 0


def test_an_order_status_may_be_said_in_other_words():
    """Finding (seed 117, marketplace-11700000-0005): "Could you list my purchases with their status?"
    recorded the raw status words, so "Green die-cast model car - awaiting shipment (the tool's own gloss
    of 'paid'); Limited edition tablet 10-inch - in transit" was scored a failure."""
    import random

    from prove_env.facts import facts_stated
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    said = {"paid": "awaiting shipment", "shipped": "in transit", "delivered": "arrived"}
    toolkit, recipe = get_toolkit("marketplace"), get_recipe("marketplace")
    checked, seen = 0, set()
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"marketplace order status {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in (g for g in recipe.goals if g.tool == "list_orders"):
            for _ in range(40):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None or "status" in ask.args:
                    continue
                result = read("list_orders", **ask.args)
                answer = "; ".join(f"{o['title']}: {said[o['status']]}" for o in result)
                assert facts_stated([ask.facts(result)], [answer]), (ask.say, answer)
                titles = "; ".join(o["title"] for o in result)  # the status left out still fails
                assert not facts_stated([ask.facts(result)], [titles]), (ask.say, titles)
                seen |= {o["status"] for o in result[:3]}
                checked += 1
        world.close()
    assert checked > 20 and seen == set(said)


def test_a_member_is_introduced_by_name_without_a_username():
    """Finding (seed 117, marketplace-11700000-0004 and -0010): "This is Mandy Woodward, username
    mandyw37." while the gold looked her up by name; find_members matches a username too, and an
    assistant that searched by the username the user gave scored argument 0.8."""
    from servers.marketplace.synth import _intro

    checked = 0
    for _, ask in _asks(("find_members", "get_feedback", "get_watchlist", "place_bid"), draws=30):
        for member in (r for r in ask.refs if r.kind == "member"):
            for text in _intro(member):
                checked += 1
                assert member.entity["username"].lower() not in text.lower(), text
    assert checked > 50


def test_a_price_going_up_is_never_said_to_be_not_moving():
    """Latent (seed 117 reading): "My Premium instant camera isn't moving. Reprice it at $117.99." could
    be drawn for a price raised from $106.99: a listing that does not sell is repriced down."""
    raised = 0
    for _, ask in _asks(("revise_listing",), draws=150):
        if "price" not in ask.args:
            continue
        (item,) = [r.entity for r in ask.refs if r.kind == "listing"]
        raised += ask.args["price"] > item["price"]
        if ask.args["price"] > item["price"]:
            assert "moving" not in ask.say, ask.say
    assert raised > 5


def test_ending_an_auction_that_sells_to_the_high_bidder_says_so():
    """Latent (seed 117 reading): "I sold the Green stand mixer elsewhere, so please end its listing now."
    was drawn for an auction whose high bid meets the reserve, where ending it sells it to the high
    bidder (an order is created): the request contradicted what the gold does."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("marketplace"), get_recipe("marketplace")
    (goal,) = [g for g in recipe.goals if g.tool == "end_listing"]
    sells = plain = 0
    for seed in range(4):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"marketplace end listing {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for _ in range(50):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            full = read("get_listing", **ask.args)
            if full.get("bid_count") and full.get("reserve_met"):
                sells += 1
                for text in (ask.say, ask.terse):
                    assert "bidder" in text and "elsewhere" not in text and "changed my mind" not in text, text
            else:
                plain += 1
                assert "bidder" not in ask.say, ask.say
        world.close()
    assert sells > 5 and plain > 20


def test_a_listing_taken_off_the_watchlist_is_found_on_the_watchlist():
    """Finding (seed 119, marketplace-11900000-0005 and -0010): "Take the Walnut cordless drill off my
    watchlist." searched the listings by title in the gold; an assistant that read the watchlist, as
    short a route that lists the listing's id, scored coverage 0.5 to 0.6 (total 1.05 against 1.3).
    The request now reads the watchlist first and takes the listing from it, as shopping's wishlist."""
    checked = 0
    for _, ask in _asks(("unwatch_listing",), draws=40):
        checked += 1
        assert ask.prior == (("get_watchlist", {"member_id": ask.args["member_id"]}),), ask.prior
        assert not [r for r in ask.refs if r.kind == "listing"], ask.refs  # no search for it by title
    assert checked > 20


def test_no_request_is_joined_by_words_of_asking_or_of_sequence():
    """Finding (seed 119, marketplace-11900000-0003): "And if you could, the high bid on my Premium mirrorless
    camera body is good enough for me. End the auction now ...": the joiner that asks was drawn before a
    sentence that tells, since it opened with neither "I" nor "My" (nor did "Dana Gray offered ...", "$41 for
    my ...? No.", "Nobody has bid ...", "The ... arrived."). No joiner asks now, and words of sequence join
    only a change to a change: before any of this server's requests joined otherwise, neither is drawn."""
    import random

    from prove_env.synthesis.voice import _IN_ORDER, Voice

    checked = 0
    for tool, ask in _asks(tuple(g.tool for g in _recipe().goals), draws=60):
        for text in filter(None, (ask.say, ask.plain)):
            for register in ("plain", "polite", "chatty"):
                joiners = {Voice(register).joiner(random.Random(i), text) for i in range(20)}
                assert not joiners & {*_IN_ORDER, "And if you could, "}, (tool, text, joiners)
            checked += 1
    assert checked > 100


def test_feedback_is_said_to_come_from_buyers_only_where_buyers_left_it():
    """Finding (seed 121, marketplace-12100000-0008): "I'm curious how buyers rate me. What's my feedback
    score, and what did the last one say?" of Pam Davis, who had sold nothing: both comments she received
    were left by sellers she bought from, so "the last one" (a buyer's) did not exist, and an assistant that
    said so ("no buyer has rated you yet; your score is 2") failed on the seller's comment in the facts.
    The raters are now named by who left the feedback: buyers, sellers, or other members."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("marketplace"), get_recipe("marketplace")
    (goal,) = [g for g in recipe.goals if g.tool == "get_feedback"]
    said = {"buyers": 0, "sellers": 0}
    for seed in range(4):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"marketplace feedback raters {seed}")
        bundles = [b for b in recipe.sample(read, world.now, rng) if b["feedback"]["received"]]
        for b in bundles:
            mid = b["member"]["member_id"]
            sold = {o["order_id"] for o in read("list_orders", member_id=mid, role="seller", limit=100)}
            rated = {f["order_id"] for f in read("get_feedback", member_id=mid)["received"]}
            for _ in range(12):
                ask = goal.build(b, rng)
                if "how buyers rate" in ask.say:
                    said["buyers"] += 1
                    assert rated <= sold, (b["member"]["name"], ask.say)
                if "how sellers rate" in ask.say:
                    said["sellers"] += 1
                    assert not rated & sold, (b["member"]["name"], ask.say)
        world.close()
    assert said["buyers"] + said["sellers"] > 10, said


def test_terse_top_bid_asks_for_the_bidder_its_fact_holds(goal_asks):
    """Finding (seed 145, marketplace-14500000-0005): "I'm Thomas Aguirre. Top bid on my Deluxe silk
    scarf?" recorded the top bidder's name with the amount, so an assistant that read the listing and said
    "the top bid is $11.93" failed on "Jeffrey White", which the terse wording never asked for. The terse
    wording now asks for the bidder as every other wording does."""
    checked = 0
    for goal, ask in goal_asks("marketplace", seeds=(0, 1), draws=20, salt="terse top bid"):
        if goal.tool != "list_bids":
            continue
        assert "bidder" in ask.terse.lower() or "who" in ask.terse.lower(), ask.terse
        checked += 1
    assert checked > 5
