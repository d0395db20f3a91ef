"""How tasks are written for the marketplace: members who introduce themselves by name and talk
about listings by their title ("my retro espresso machine", "the Vintage pocket watch auction"),
offers by who made them, and orders by the item and the other party.

Each member's slice of the world is a bundle: what they sell (with its bids and pending offers),
what they bought and sold, their watchlist, and the open listings of other sellers they might bid
on, buy, make an offer on or watch. Every listing gets one role in a bundle by a stable hash of
its id, so that two requests of one conversation never act on one listing in ways that exclude
each other. Read-only requests declare the facts their answer must state.
"""

from __future__ import annotations

import datetime as dt
import random
import zlib
from collections.abc import Sequence
from typing import Any

from prove_env.facts import NOTHING, one_of
from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import money, stable

Bundle = dict[str, Any]

NEW_ITEMS = (("Polaroid camera", "Cameras", 85.0), ("Hiking backpack", "Sports", 60.0),
             ("Bread maker", "Home & Garden", 45.0), ("Graphic novel box set", "Books", 40.0),
             ("Electric ukulele", "Music", 120.0), ("Gaming headset", "Electronics", 55.0),
             ("Wool sweater", "Clothing", 35.0), ("Antique brass compass", "Collectibles", 75.0),
             ("Trail running shoes", "Sports", 48.0), ("Vinyl turntable", "Electronics", 140.0))
CONDITION_WORDS = {"new": "brand new", "like_new": "like new", "used": "used", "for_parts": "for parts"}
CARRIERS = ("USPS", "UPS", "FedEx", "DHL")
BUYER_COMMENTS = {"positive": ("Great seller, fast shipping!", "Exactly as described, thank you.",
                               "Well packed, would buy again."),
                  "neutral": ("Item fine, shipping was slow.", "OK, but the photos were better than the item."),
                  "negative": ("Arrived damaged.", "Not as described.")}
SELLER_COMMENTS = ("Quick payment, great buyer!", "Smooth transaction, thanks!", "Pleasure to deal with.")
OFFER_NOTES = ("Can pick up this weekend.", "Would you take this?", "Paying right away if accepted.")


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every member whose name finds only them, with what they sell, buy and watch, and the open
    listings of other sellers."""
    market = read("search_listings", limit=100)
    # who leads each open auction with bids: the high bidder cannot outbid themselves
    leaders = {x["listing_id"]: read("get_listing", listing_id=x["listing_id"])["high_bidder_id"]
               for x in market if x["format"] == "auction" and x.get("bid_count")}
    bundles = []
    for member in read("find_members", limit=100):
        if len(read("find_members", name=member["name"])) != 1:
            continue
        mid = member["member_id"]
        selling = read("search_listings", seller_id=mid, status=None, limit=100)
        bids = {x["listing_id"]: read("list_bids", listing_id=x["listing_id"])
                for x in selling if x["format"] == "auction" and x["bid_count"]}
        offers = read("list_offers", seller_id=mid, status="pending", limit=100)
        bought = [{**o, "role": "buyer"} for o in read("list_orders", member_id=mid, limit=100)]
        sold = [{**o, "role": "seller"} for o in read("list_orders", member_id=mid, role="seller", limit=100)]
        mine_offers = read("list_offers", buyer_id=mid, status="pending", limit=100)
        bundles.append({"now": now, "member": member, "selling": selling, "bids": bids, "offers": offers,
                        "bought": bought, "sold": sold, "watching": read("get_watchlist", member_id=mid),
                        "feedback": read("get_feedback", member_id=mid),
                        "offered_on": {o["listing_id"] for o in mine_offers},
                        "market": [x for x in market if x["seller_id"] != mid],
                        "leading": {lid for lid, leader in leaders.items() if leader == mid},
                        # my auctions that ending now sells to the high bidder (its bid meets the reserve)
                        "sells_on_end": {lid for lid in bids if read("get_listing", listing_id=lid)["reserve_met"]}})
    return bundles


# -- roles and names -----------------------------------------------------------------------------

def _role(key: str, roles: int) -> int:
    return zlib.crc32(key.encode()) % roles


def _me(b: Bundle) -> Ref:
    return Ref.of("member", b["member"])


def _listing(item: dict) -> Ref:
    return Ref.of("listing", item)


def _order(b: Bundle, order: dict) -> Ref:
    return Ref.of("order", order, _me(b))


def _the(item: dict) -> str:
    return f"the {item['title']}"


def _my(item: dict) -> str:
    """'my' and the listing's title as stored: the title is what the listing is searched by, so the user's
    words are the gold's query (a lowered title there costs an agent that copies them its argument score)."""
    return f"my {item['title']}"


def _open(b: Bundle, item: dict) -> bool:
    return item["status"] == "active" and item["end_time"] > b["now"].isoformat()[:16]


def _market(b: Bundle, fmt: str, role: int) -> list[dict]:
    """Open listings of other sellers in `fmt` whose role is `role`: for auctions 0 bid, 1 watch;
    for fixed price 0 buy, 1 offer, 2 watch."""
    roles = 2 if fmt == "auction" else 3
    return [x for x in b["market"] if x["format"] == fmt and _open(b, x) and _role(x["listing_id"], roles) == role]


def _held(rng: random.Random, say: str, core: Sequence[str], detail: Sequence[str]) -> tuple[str, str | None]:
    """Either the whole request at once, or (about two times in three) a request holding a value back
    and the sentence that gives it, for the "missing" information level."""
    if rng.random() < 0.3:
        return say, None
    return rng.choice(list(core)), rng.choice(list(detail))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _is(title: str, negated: bool = False) -> str:
    """The verb that agrees with a listing's title ('Running shoes are', 'Atlas is')."""
    plural = title.lower().endswith(("shoes", "headphones"))
    return ("aren't" if plural else "isn't") if negated else ("are" if plural else "is")


goals = Goals()


# -- members and feedback ------------------------------------------------------------------------

@goals.add("find_members", 0.5)
def find_members(b: Bundle, rng: random.Random) -> Ask | None:
    sellers = {x["seller_id"] for x in b["market"]}
    others = [o for o in b["bought"] if o["seller_id"] in sellers]
    if not others:
        return None
    name = rng.choice(others)["seller_name"]
    return Ask({"name": name},
               say=rng.choice([f"What's the username and feedback score of the seller {name}?",
                               f"I bought from {name} once. Could you tell me their username and how good "
                               "their feedback is?",
                               f"I'm wondering if {name} is a trustworthy seller. Give me their feedback score and username."]),
               terse=f"{name}: username and feedback score?", mentions=(name,),
               facts=lambda r: [r[0]["username"], r[0]["feedback_score"]])


def _raters(b: Bundle) -> str:
    """Who rated the member: 'buyers' where every feedback they received is on a sale of theirs,
    'sellers' where every one is on a purchase, else 'other members' (a member who sold nothing was
    asked "how buyers rate me", and the latest comment, a seller's, was not what the user asked)."""
    sold = {o["order_id"] for o in b["sold"]}
    rated = {f["order_id"] for f in b["feedback"]["received"]}
    return "buyers" if rated <= sold else "sellers" if not rated & sold else "other members"


@goals.add("get_feedback", 0.6)
def get_feedback(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["feedback"]["received"]:
        return None
    return Ask({"member_id": b["member"]["member_id"]},
               say=rng.choice(["What's the latest feedback comment people left me, and what's my score?",
                               "Could you check my feedback: my score and the most recent comment?",
                               f"I'm curious how {_raters(b)} rate me. What's my feedback score, and what did the "
                               "last one say?",
                               "Read me my newest feedback comment and tell me my score."]),
               terse="My feedback score and latest comment?", refs=(_me(b),),
               facts=lambda r: [r["feedback_score"], r["received"][0]["comment"]])


# -- looking at listings -------------------------------------------------------------------------

@goals.add("search_listings", 0.9)
def search_listings(b: Bundle, rng: random.Random) -> Ask | None:
    items = [x for x in b["market"] if _open(b, x)]
    if not items:
        return None
    pick = rng.choice(items)
    category, fmt = pick["category"], pick["format"]
    if fmt == "auction":
        say = rng.choice([f"Which {category} auctions are running right now?",
                          f"I'm hunting for a deal. Are there any auctions open in {category}?",
                          f"Show me the open auctions in the {category} category, please.",
                          f"Are there any {category} items up for auction at the moment?"])
        terse = f"Open {category} auctions?"
    else:
        say = rng.choice([f"What can I buy outright in {category} at the moment, no auctions?",
                          f"Could you list the fixed-price {category} listings that are up now?",
                          f"I don't want to wait for an auction. What {category} items can I buy straight away?",
                          f"Which buy-it-now listings are there in {category}?"])
        terse = f"Fixed-price {category} listings?"
    return Ask({"category": category, "listing_format": fmt}, say=say, terse=terse, mentions=(category,),
               facts=lambda r: [x["title"] for x in r])


@goals.add("search_listings", 0.5)
def my_listings(b: Bundle, rng: random.Random) -> Ask | None:
    active = [x for x in b["selling"] if x["status"] == "active"]
    if not active:
        return None
    return Ask({"seller_id": b["member"]["member_id"]},
               say=rng.choice(["What do I have listed for sale right now?", "Could you list my active listings?",
                               "Remind me which of my items are still up for sale.",
                               "I lost track of my shop. Which listings of mine are live?"]),
               terse="My active listings?", refs=(_me(b),), facts=lambda r: [x["title"] for x in r])


@goals.add("get_listing", 1.0)
def get_listing(b: Bundle, rng: random.Random) -> Ask | None:
    items = [x for x in b["market"] if _open(b, x)]
    if not items:
        return None
    item = rng.choice(items)
    title = item["title"]
    # The search that finds a listing by its title already shows its price, bids and minimum bid:
    # every question also asks for what only the listing in full holds (its seller's name, its
    # watchers), or the search would answer it and the call would be idle.
    if item["format"] == "auction" and item["bid_count"] and rng.random() < 0.3:
        return Ask({"listing_id": item["listing_id"]},
                   say=rng.choice([f"I've got my eye on the {title}. Where is the bidding at, and how many people "
                                   "are watching it?",
                                   f"How many watchers does the {title} auction have, and what's the current bid?"]),
                   terse=f"{title}: current bid and watchers?", refs=(_listing(item),), mentions=(title,),
                   facts=lambda r: [r["current_bid"], r["watchers"] or NOTHING])
    if item["format"] == "auction" and item["bid_count"]:
        return Ask({"listing_id": item["listing_id"]},
                   say=rng.choice([f"What's the current bid on the {title} auction, and who is selling it?",
                                   f"How is the {title} auction going: what's the current price, and who is the seller?"]),
                   terse=f"{title}: current bid and seller?", refs=(_listing(item),), mentions=(title,),
                   facts=lambda r: [r["current_bid"], r["seller_name"]])
    if item["format"] == "auction":
        return Ask({"listing_id": item["listing_id"]},
                   say=rng.choice([f"Who is auctioning the {title}, and what would I have to bid?",
                                   f"What's the opening bid on the {title} auction, and who listed it?"]),
                   terse=f"{title}: minimum bid and seller?", refs=(_listing(item),), mentions=(title,),
                   facts=lambda r: [r["minimum_bid"], r["seller_name"]])
    return Ask({"listing_id": item["listing_id"]},
               say=rng.choice([f"How much is the {title}, and who is selling it?",
                               f"Could you tell me the price of the {title} and the seller's name?",
                               f"Who's selling the {title}, and for how much?"]),
               terse=f"{title}: price and seller?", refs=(_listing(item),), mentions=(title,),
               facts=lambda r: [r["price"], r["seller_name"]])


@goals.add("list_bids", 0.8)
def list_bids(b: Bundle, rng: random.Random) -> Ask | None:
    items = [x for x in b["selling"] if x["listing_id"] in b["bids"]]
    if not items:
        return None
    item = rng.choice(items)
    return Ask({"listing_id": item["listing_id"]},
               say=rng.choice([f"Who is the top bidder on {_my(item)} auction, and how much did they bid?",
                               f"Could you show me the bids on {_my(item)}? I mostly want the highest one.",
                               f"Who's winning the auction for {_my(item)} so far, and with what bid?"]),
               terse=f"Top bidder and bid on {_my(item)}?", refs=(_me(b), _listing(item)), mentions=(item["title"].lower(),),
               facts=lambda r: [r["bids"][0]["bidder_name"], r["bids"][0]["amount"]])


# -- buying --------------------------------------------------------------------------------------

@goals.add("place_bid", 1.6)
def place_bid(b: Bundle, rng: random.Random) -> Ask | None:
    items = [x for x in _market(b, "auction", 0) if x.get("minimum_bid") and x["listing_id"] not in b["leading"]]
    if not items:
        return None
    item = rng.choice(items)
    amount = float(round(item["minimum_bid"] + rng.choice([0, 0, 1, 2, 5]), 2))
    cash, title = money(amount), item["title"]
    say, detail = _held(rng, rng.choice([f"Please bid {cash} on the {title} auction for me.",
                                         f"I'm after the {title}. Put in a bid of {cash}.",
                                         f"Could you place a {cash} bid on the {title}?",
                                         f"Bid {cash} on the {title}, please."]),
                        [f"I'd like to bid on the {title} auction.", f"Could you place a bid for me on the {title}?"],
                        [f"Make it {cash}.", f"{cash}, please.", f"My bid is {cash}."])
    return Ask({"listing_id": item["listing_id"], "bidder_id": b["member"]["member_id"], "amount": amount},
               say=say, detail=detail, terse=f"Bid {cash} on {title}.", refs=(_me(b), _listing(item)),
               mentions=(title, cash))


@goals.add("buy_it_now", 1.2)
def buy_it_now(b: Bundle, rng: random.Random) -> Ask | None:
    items = _market(b, "fixed_price", 0)
    if not items:
        return None
    item = rng.choice(items)
    title, cash = item["title"], money(item["price"])
    return Ask({"listing_id": item["listing_id"], "buyer_id": b["member"]["member_id"]},
               say=rng.choice([f"I'll take the {title} at its asking price; please buy it for me.",
                               f"Buy the {title} for me, please. {cash} is fine.",
                               f"Could you purchase the {title} outright?",
                               f"I've decided the {title} {_is(title)} exactly what I need. Go ahead and buy it now."]),
               terse=f"Buy {title} now.", refs=(_me(b), _listing(item)), mentions=(title,))


@goals.add("make_offer", 1.2)
def make_offer(b: Bundle, rng: random.Random) -> Ask | None:
    items = [x for x in _market(b, "fixed_price", 1) if x["accepts_offers"] and x["listing_id"] not in b["offered_on"]]
    if not items:
        return None
    item = rng.choice(items)
    amount = float(max(1, round(item["price"] * rng.choice([0.7, 0.75, 0.8, 0.85]))))
    cash, title = money(amount), item["title"]
    args = {"listing_id": item["listing_id"], "buyer_id": b["member"]["member_id"], "amount": amount}
    note = ""
    if rng.random() < 0.3:
        args["message"] = rng.choice(OFFER_NOTES)
        note = f" Add the note '{args['message']}'"
    # a note goes with the amount: in a request holding the amount back it follows the sentence that
    # gives it, never stands between the request and its amount
    say, detail = _held(rng, rng.choice([f"Could you offer {cash} for the {title}?{note}",
                                         f"I think the {title} {_is(title)} a bit pricey. Make the seller an offer of "
                                         f"{cash}.{note}",
                                         f"Send an offer of {cash} on the {title}, please.{note}"]),
                        [f"I'd like to make an offer on the {title}.",
                         f"Could you send the seller of the {title} an offer?"],
                        [f"{cash} would be fair.{note}", f"Let's say {cash}.{note}", f"My offer is {cash}.{note}"])
    return Ask(args, say=say.replace("?.", "?"), detail=detail, terse=f"Offer {cash} on {title}.{note}",
               refs=(_me(b), _listing(item)), mentions=(title, cash))


# -- selling -------------------------------------------------------------------------------------

@goals.add("create_listing", 1.2)
def create_listing(b: Bundle, rng: random.Random) -> Ask | None:
    taken = {x["title"].lower() for x in b["selling"]}
    thing, category, base = rng.choice(NEW_ITEMS)
    if thing.lower() in taken:
        return None
    condition = rng.choice(["new", "like_new", "used"])
    cond = CONDITION_WORDS[condition]
    args: dict[str, Any] = {"seller_id": b["member"]["member_id"], "title": thing, "category": category,
                            "condition": condition}
    if rng.random() < 0.5:
        days = rng.choice([3, 5, 7, 10])
        start = float(round(base * 0.4))
        args.update(listing_format="auction", start_price=start, duration_days=days)
        cash = money(start)
        # the title is said as written, in quotes: the user's own words are what the listing is called
        say, detail = _held(rng, rng.choice([f"Please put up an auction for '{thing}' ({cond}) in {category}, "
                                             f"starting at {cash}, running {days} days.",
                                             f"Please list '{thing}', {cond}, for auction under {category}: "
                                             f"opening bid {cash}, {days} days.",
                                             f"Could you put '{thing}' ({cond}) up for a {days}-day auction "
                                             f"in {category}? Start it at {cash}."]),
                            [f"Please put up a {days}-day auction for '{thing}' ({cond}) in {category}.",
                             f"Could you put '{thing}' ({cond}) up for a {days}-day auction in {category}?"],
                            [f"Start the bidding at {cash}.", f"Opening bid {cash}.", f"Start it at {cash}."])
        terse = f"Auction: '{thing}', {cond}, {category}, start {cash}, {days} days."
    else:
        price = float(base)
        args.update(listing_format="fixed_price", price=price)
        cash = money(price)
        offers = ""
        if rng.random() < 0.5:
            args["accepts_offers"] = True
            offers = " and let buyers make offers"
        say, detail = _held(rng, rng.choice([f"Please list '{thing}' ({cond}) in {category} for {cash}, fixed "
                                             f"price{offers}.",
                                             f"I'm selling '{thing}', {cond}. Put it up in {category} at "
                                             f"{cash}, buy it now{offers}.",
                                             f"Could you create a fixed-price listing '{thing}' ({cond}, {category}) "
                                             f"at {cash}{offers}?"]),
                            [f"I'm selling '{thing}', {cond}. List it at a fixed price in {category}{offers}.",
                             f"Could you create a fixed-price listing '{thing}' ({cond}) in {category}"
                             f"{offers}?"],
                            [f"The price is {cash}.", f"Ask {cash} for it.", f"Let's go with {cash}."])
        terse = f"List '{thing}', {cond}, {category}, {cash} fixed{offers}."
    return Ask(args, say=say, detail=detail, terse=terse, refs=(_me(b),), mentions=(thing, cash, category))


def _own_active(b: Bundle, role: int) -> list[dict]:
    """My open listings whose role is `role`: 0 revise, 1 end early, 2 answer its offers."""
    return [x for x in b["selling"] if _open(b, x) and _role(x["listing_id"], 3) == role]


@goals.add("revise_listing", 1.2)
def revise_listing(b: Bundle, rng: random.Random) -> Ask | None:
    items = [x for x in _own_active(b, 0) if not x.get("bid_count")]
    if not items:
        return None
    item = rng.choice(items)
    refs, name = (_me(b), _listing(item)), _my(item)
    if rng.random() < 0.3:
        title = f"{item['title']} - great condition" if item["condition"] != "for_parts" else f"{item['title']} (spares)"
        return Ask({"listing_id": item["listing_id"], "title": title},
                   say=rng.choice([f"Please retitle {name} listing to '{title}'.",
                                   f"Could you change the title of {name} to '{title}'?"]),
                   terse=f"Retitle {item['title']}: '{title}'.", refs=refs, mentions=(title,))
    if item["format"] == "auction":
        new = float(max(1, round(item["start_price"] * rng.choice([0.5, 0.75]))))
        cash = money(new)
        say, detail = _held(rng, rng.choice([f"I've had no bids on {name} yet. Lower the starting bid to {cash}.",
                                             f"Could you drop the opening bid of {name} auction to {cash}?"]),
                            [f"I've had no bids on {name} yet; please lower its starting bid.",
                             f"Could you change the opening bid of {name} auction?"],
                            [f"Make it {cash}.", f"{cash} should do.", f"Set it to {cash}."])
        return Ask({"listing_id": item["listing_id"], "start_price": new}, say=say, detail=detail,
                   terse=f"Start price of {item['title']}: {cash}.", refs=refs, mentions=(item["title"].lower(), cash))
    new = float(round(item["price"] * rng.choice([0.8, 0.9, 1.1])) - 0.01)
    cash = money(new)
    # "isn't moving" is said only of a price going down
    slow = [f"{_cap(name)} {_is(name, negated=True)} moving. Reprice it at {cash}."] if new < item["price"] else []
    say, detail = _held(rng, rng.choice([f"Please change the price of {name} to {cash}.",
                                         *slow, f"Could you set {name} to {cash}?"]),
                        [f"Please change the price of {name}.", f"{_cap(name)} needs a new price."],
                        [f"Make it {cash}.", f"Let's go with {cash}.", f"Set it to {cash}."])
    return Ask({"listing_id": item["listing_id"], "price": new}, say=say, detail=detail,
               terse=f"Price of {item['title']}: {cash}.", refs=refs, mentions=(item["title"].lower(), cash))


@goals.add("end_listing", 1.0)
def end_listing(b: Bundle, rng: random.Random) -> Ask | None:
    limit = (b["now"] + dt.timedelta(hours=12)).isoformat()[:16]
    items = [x for x in _own_active(b, 1) if not x.get("bid_count") or x["end_time"] > limit]
    if not items:
        return None
    item = rng.choice(items)
    name = _my(item)
    if item["listing_id"] in b["sells_on_end"]:
        # ending it sells it to the high bidder: never "I sold it elsewhere" or "I changed my mind"
        return Ask({"listing_id": item["listing_id"]},
                   say=rng.choice([f"I'm happy with the high bid on {name}. End the auction now and sell "
                                   "it to the high bidder.",
                                   f"Please end {name} auction early; the top bidder can have it at their bid."]),
                   terse=f"End my {item['title']} auction now, sold to the high bidder.",
                   refs=(_me(b), _listing(item)), mentions=(item["title"].lower(),))
    return Ask({"listing_id": item["listing_id"]},
               say=rng.choice([f"I sold the {item['title']} elsewhere, so please end its listing now.",
                               f"Could you take down {name} listing early?",
                               f"End the listing for {name} right away, please.",
                               f"I changed my mind about selling {name}; end the listing."]),
               terse=f"End listing: {item['title']}.", refs=(_me(b), _listing(item)),
               mentions=(item["title"].lower(),))


@goals.add("relist_listing", 1.0)
def relist_listing(b: Bundle, rng: random.Random) -> Ask | None:
    items = [x for x in b["selling"] if x["status"] == "ended"]
    if not items:
        return None
    item = rng.choice(items)
    name = _my(item)
    days = rng.choice([3, 5, 7, 10] if item["format"] == "auction" else [7, 10, 30])
    # the length is never held back: a relisting runs 7 days unless told, and an assistant may rightly do so
    say = rng.choice([f"{_cap(name)} didn't sell. Relist it for {days} days.",
                      f"Please put {name} up again, {days} days this time.", f"Could you relist {name} for {days} days?",
                      f"{_cap(name)} didn't sell. Please relist it, and make it a {days}-day listing."])
    return Ask({"listing_id": item["listing_id"], "duration_days": days}, say=say,
               terse=f"Relist {item['title']}, {days} days.", refs=(_me(b), Ref.of("listing", item)),
               mentions=(item["title"].lower(), str(days)))


# -- offers --------------------------------------------------------------------------------------

@goals.add("list_offers", 0.8)
def list_offers(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["offers"]:
        return None
    return Ask({"seller_id": b["member"]["member_id"], "status": "pending"},
               say=rng.choice(["Who has made me offers that are still waiting for an answer, and for how much?",
                               "Could you list the pending offers on my listings?",
                               "Which buyers have made me offers I haven't answered yet, and for how much?"]),
               terse="Pending offers on my listings?", refs=(_me(b),),
               facts=lambda r: [o["buyer_name"] for o in r] + [o["amount"] for o in r])


@goals.add("respond_to_offer", 1.5)
def respond_to_offer(b: Bundle, rng: random.Random) -> Ask | None:
    # one offer answered per listing: the newest pending one
    by_listing: dict[str, dict] = {}
    for offer in b["offers"]:
        by_listing.setdefault(offer["listing_id"], offer)
    listings = {x["listing_id"]: x for x in _own_active(b, 2)}
    offers = [o for lid, o in by_listing.items() if lid in listings]
    if not offers:
        return None
    offer = rng.choice(offers)
    item = listings[offer["listing_id"]]
    who, cash, name = offer["buyer_name"], money(offer["amount"]), _my(item)
    ref = Ref.of("offer", offer, _listing(item))
    if rng.random() < 0.5:
        return Ask({"offer_id": offer["offer_id"], "decision": "accept"},
                   say=rng.choice([f"I'll accept the {cash} {who} offered for {name}.",
                                   f"Please accept {who}'s offer on {name}.",
                                   f"I'm fine with {cash}. Accept the offer from {who} on {name}."]),
                   terse=f"Accept {who}'s offer on {item['title']}.", refs=(_me(b), ref),
                   mentions=(who, item["title"].lower()))
    return Ask({"offer_id": offer["offer_id"], "decision": "decline"},
               say=rng.choice([f"I'm not taking {cash} for {name}. Decline {who}'s offer.",
                               f"Please turn down the offer {who} made on {name}.",
                               f"I won't take {who}'s offer on {name}; decline it, please."]),
               terse=f"Decline {who}'s offer on {item['title']}.", refs=(_me(b), ref),
               mentions=(who, item["title"].lower()))


# -- orders, shipping and feedback ---------------------------------------------------------------

# How an order's status is said: a paid order is 'awaiting shipment' (the tool's own gloss) or 'not
# shipped yet', a shipped one 'on its way', a delivered one 'arrived'.
STATUS_WORDS = {"paid": ("paid", "awaiting shipment", "waiting to be shipped", "waiting to ship", "not shipped",
                         "not yet shipped", "hasn't shipped", "has not shipped", "hasn't been shipped",
                         "not been shipped", "yet to ship", "yet to be shipped", "to be shipped"),
                "shipped": ("shipped", "on its way", "on the way", "in transit"),
                "delivered": ("delivered", "arrived", "received")}

@goals.add("list_orders", 0.8)
def list_orders(b: Bundle, rng: random.Random) -> Ask | None:
    if rng.random() < 0.5:
        paid = [o for o in b["sold"] if o["status"] == "paid"]
        if not paid:
            return None
        return Ask({"member_id": b["member"]["member_id"], "role": "seller", "status": "paid"},
                   say=rng.choice(["Which of my sales still need to be shipped?",
                                   "Could you list the orders I sold that are waiting for me to ship them?",
                                   "What have I sold that I haven't sent out yet?"]),
                   terse="My sales awaiting shipment?", refs=(_me(b),),
                   facts=lambda r: [o["title"] for o in r])
    if not b["bought"]:
        return None
    return Ask({"member_id": b["member"]["member_id"]},
               say=rng.choice(["What have I bought recently, and what's the status of each order?",
                               "Could you list my purchases with their status?",
                               "Remind me what I ordered lately and where each order stands."]),
               terse="My purchases and their status?", refs=(_me(b),),
               facts=lambda r: [o["title"] for o in r] + [one_of(*STATUS_WORDS[o["status"]]) for o in r[:3]])


@goals.add("mark_shipped", 1.4)
def mark_shipped(b: Bundle, rng: random.Random) -> Ask | None:
    paid = [o for o in b["sold"] if o["status"] == "paid"]
    if not paid:
        return None
    order = rng.choice(paid)
    carrier = rng.choice(CARRIERS)
    digits = "".join(rng.choice("0123456789") for _ in range(rng.choice((12, 18, 22))))
    title, who = order["title"].lower(), order["buyer_name"]
    say, detail = _held(rng, rng.choice([f"I posted the {title} to {who} with {carrier}, tracking {digits}. Mark it "
                                         "shipped.",
                                         f"Please mark my sale of the {title} to {who} as shipped: {carrier}, "
                                         f"tracking number {digits}.",
                                         f"I've sent the {title} {who} bought via {carrier}, tracking number "
                                         f"{digits}. Please mark it shipped."]),
                        [f"I posted the {title} to {who} with {carrier}. Please mark it shipped.",
                         f"Please mark my sale of the {title} to {who} as shipped with {carrier}."],
                        [f"Tracking number {digits}.", f"The tracking number is {digits}.",
                         f"Here's the tracking: {digits}."])
    return Ask({"order_id": order["order_id"], "carrier": carrier, "tracking_number": digits}, say=say,
               detail=detail, terse=f"Shipped {order['title']} to {who}: {carrier} {digits}.",
               refs=(_order(b, order),), mentions=(who, carrier, digits))


@goals.add("leave_feedback", 1.4)
def leave_feedback(b: Bundle, rng: random.Random) -> Ask | None:
    cutoff = (b["now"] - dt.timedelta(days=59)).isoformat()[:16]
    orders = [o for o in b["bought"] + b["sold"] if o["status"] == "delivered" and o["ordered_at"] > cutoff
              and not o[f"{o['role']}_left_feedback"]]
    if not orders:
        return None
    order = rng.choice(orders)
    title = order["title"].lower()
    if order["role"] == "seller":
        comment = rng.choice(SELLER_COMMENTS)
        who = order["buyer_name"]
        return Ask({"order_id": order["order_id"], "author_id": b["member"]["member_id"], "rating": "positive",
                    "comment": comment},
                   say=rng.choice([f"My buyer {who} paid fast for the {title}. Leave them positive feedback: '{comment}'",
                                   f"Please rate {who}, who bought my {title}, positive with the comment '{comment}'"]),
                   terse=f"Positive feedback for {who} ({title}): '{comment}'", refs=(_order(b, order),),
                   mentions=(who, comment))
    rating = rng.choice(["positive", "positive", "neutral", "negative"])
    comment = rng.choice(BUYER_COMMENTS[rating])
    who = order["seller_name"]
    return Ask({"order_id": order["order_id"], "author_id": b["member"]["member_id"], "rating": rating,
                "comment": comment},
               say=rng.choice([f"My {title} from {who} arrived. Leave {rating} feedback saying '{comment}'",
                               f"Please give {who} {rating} feedback for the {title}: '{comment}'",
                               f"I want to rate my purchase of the {title} from {who}: {rating}, comment "
                               f"'{comment}'"]),
               terse=f"{_cap(rating)} feedback for {who} ({title}): '{comment}'", refs=(_order(b, order),),
               mentions=(who, rating, comment))


# -- watchlist -----------------------------------------------------------------------------------

@goals.add("get_watchlist", 0.7)
def get_watchlist(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["watching"]:
        return None
    return Ask({"member_id": b["member"]["member_id"]},
               say=rng.choice(["What's on my watchlist?", "Could you read me the items I'm watching?",
                               "Which listings did I save to watch?"]),
               terse="My watchlist?", refs=(_me(b),), facts=lambda r: [x["title"] for x in r])


@goals.add("watch_listing", 1.0)
def watch_listing(b: Bundle, rng: random.Random) -> Ask | None:
    watched = {x["listing_id"] for x in b["watching"]}
    items = [x for x in _market(b, "auction", 1) + _market(b, "fixed_price", 2) if x["listing_id"] not in watched]
    if not items:
        return None
    item = rng.choice(items)
    title = item["title"]
    return Ask({"member_id": b["member"]["member_id"], "listing_id": item["listing_id"]},
               say=rng.choice([f"Add the {title} to my watchlist.", f"Could you watch the {title} listing for me?",
                               f"I might want the {title} later; please save it to my watchlist."]),
               terse=f"Watch {title}.", refs=(_me(b), _listing(item)), mentions=(title,))


def _watchlist_first(member_id: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    """A listing taken off the watchlist is found on the watchlist, which lists each listing's id: one
    read, as a search by its title would be, but the one an agent rightly makes for what is on the list
    (an agent that read the watchlist lost coverage to a gold that searched the listings)."""
    return (("get_watchlist", {"member_id": member_id}),)


@goals.add("unwatch_listing", 0.9)
def unwatch_listing(b: Bundle, rng: random.Random) -> Ask | None:
    items = [x for x in b["watching"] if x["status"] == "active"]
    if not items:
        return None
    item = rng.choice(items)
    title = item["title"]
    return Ask({"member_id": b["member"]["member_id"], "listing_id": item["listing_id"]},
               say=rng.choice([f"Take the {title} off my watchlist.", f"I'm no longer interested in the {title}; "
                               "stop watching it.", f"Please remove the {title} from the items I watch."]),
               terse=f"Unwatch {title}.", refs=(_me(b),), mentions=(title,),
               prior=_watchlist_first(b["member"]["member_id"]))


# -- who is asking -------------------------------------------------------------------------------

# A member is introduced by name alone: a username said too is a second right look-up
# (find_members matches either), and the gold can hold only one of them.
_INTRO = ("Hi, this is {name}.", "{name} here.", "Hello, I'm {name}.", "It's {name}.",
          "Hey there, {name} speaking.", "Good morning, this is {name}.", "{name} here, hi.",
          "This is {name}, a member here.", "Hello, my name is {name}.", "Hi, {name} from {city}.")
_INTRO_TERSE = ("{name} here.", "Member: {name}.", "It's {name}.", "I'm {name}.")


def _intro(ref: Ref) -> tuple[str, str]:
    e = ref.entity
    values = {"name": e["name"], "username": e["username"], "city": e["city"]}
    return (stable(_INTRO, "member", ref.key).format(**values),
            stable(_INTRO_TERSE, "member terse", ref.key).format(**values))


def _asked(*questions: str):
    """A question about the marketplace's database as a whole, asked by a member."""
    return lambda b, rng: _intro(_me(b))[0] + " " + rng.choice(questions)


# Only the database's own tables are asked for: a count of what the tools list (every offer, every
# auction's bids, every sold listing and so its order) is theirs to answer, not an abstention.
SITE_WIDE = (
    HiddenAsk("count_records", _asked("How many rows are in each table of the marketplace's database?",
                                      "Can you dump the raw record counts of every marketplace table?",
                                      "I'm auditing the marketplace's database: what's the row count of each "
                                      "of its tables?"),
              facts=lambda r: list(r.values())),
)


def _listing_args(ref: Ref) -> dict:
    status = ref.entity["status"]
    return {"query": ref.entity["title"]} if status == "active" else {"query": ref.entity["title"], "status": status}


# Tools that do one another's job for some request (a listing's price and next bid show in the
# search and the bid history): a missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("get_listing", "search_listings", "list_bids"),
)


recipe = Recipe(
    server="marketplace",
    sample=sample,
    topics=("shopping", "auctions", "food_delivery"),  # a catalog search may find banana bread: never off-topic
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("member", "find_members", args=lambda r: {"name": r.entity["name"]}, intro=_intro),
        Lookup("listing", "search_listings", args=_listing_args, needs=lambda r: ()),
        Lookup.under("offer", "list_offers"),
        Lookup("order", "list_orders", args=lambda r: {"member_id": r.owner.key, "role": r.entity["role"]}),
    ),
    hidden=SITE_WIDE,
)
