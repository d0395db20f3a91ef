"""The seed: 40 members with unique names, about 25 of them selling; fixed-price and auction
listings in every state (active, sold, ended unsold, relisted), bids, offers, orders in every
status, feedback and watchlists. Active auctions end after "now" (a few within 12 hours), ended
ones before it; every auction's high bid is its highest bid row."""

from __future__ import annotations

import datetime as dt

from prove_env.world import SeedContext

from .models import Bid, Feedback, Listing, Member, Offer, Order, Watch

N_MEMBERS = 40
CATEGORIES = {
    "Electronics": (("Bluetooth speaker", 25, 180), ("Mechanical keyboard", 40, 200), ("Noise-cancelling headphones",
                    60, 350), ("Tablet 10-inch", 90, 450), ("Smartwatch", 50, 300), ("Portable monitor", 80, 260)),
    "Cameras": (("35mm film camera", 40, 400), ("Mirrorless camera body", 300, 1400), ("50mm prime lens", 60, 450),
                ("Camera tripod", 20, 150), ("Instant camera", 30, 120)),
    "Music": (("Acoustic guitar", 90, 700), ("Vinyl record lot", 15, 120), ("Effects pedal", 30, 200),
              ("Digital piano", 200, 900), ("Ukulele", 25, 140)),
    "Sports": (("Road bike", 200, 1500), ("Tennis racket", 25, 180), ("Camping tent", 40, 300),
               ("Climbing shoes", 30, 140), ("Kayak paddle", 30, 160), ("Snowboard", 80, 450)),
    "Home & Garden": (("Espresso machine", 80, 600), ("Cast iron skillet", 15, 90), ("Table lamp", 15, 120),
                      ("Cordless drill", 40, 200), ("Stand mixer", 90, 400)),
    "Collectibles": (("Vintage comic book", 10, 500), ("Trading card set", 10, 300), ("Pocket watch", 50, 600),
                     ("Silver coin", 20, 250), ("Die-cast model car", 10, 120)),
    "Clothing": (("Leather jacket", 50, 400), ("Wool coat", 40, 260), ("Running shoes", 30, 150),
                 ("Denim jacket", 25, 140), ("Silk scarf", 15, 90)),
    "Books": (("First edition novel", 30, 600), ("Cookbook collection", 10, 60), ("Atlas", 15, 80),
              ("Children's book set", 10, 70)),
}
BRANDS = ("Vintage", "Retro", "Classic", "Compact", "Pro", "Deluxe", "Travel", "Limited edition", "Studio", "Premium",
          "Black", "Blue", "Red", "Green", "Walnut", "Silver")
CONDITIONS = ("new", "like_new", "used", "for_parts")
CARRIERS = ("USPS", "UPS", "FedEx", "DHL")
COMMENTS = {"positive": ("Great seller, fast shipping!", "Item exactly as described.", "Smooth transaction, thanks!",
                         "Quick payment, great buyer.", "Well packed and arrived early."),
            "neutral": ("Item was fine but shipping was slow.", "OK overall.", "Description could be clearer."),
            "negative": ("Item arrived damaged.", "Not as described.", "Took weeks to ship.")}


def increment(amount: float) -> float:
    """The smallest raise over a high bid of `amount`, by price band (as on the large auction sites)."""
    for upper, step in ((1, 0.05), (5, 0.25), (25, 0.5), (100, 1.0), (250, 2.5), (500, 5.0), (1000, 10.0)):
        if amount < upper:
            return step
    return 25.0


def _price(ctx: SeedContext, low: float, high: float) -> float:
    value = ctx.rng.uniform(low, high)
    return float(round(value) - 0.01 if value > 20 else round(value, 2)) if value > 1 else 1.0


def seed(ctx: SeedContext) -> None:
    members = []
    for _ in range(N_MEMBERS):
        first, last = ctx.person_name()
        username = f"{first.lower()}{last[0].lower()}{ctx.rng.randint(10, 99)}"
        member = Member(id=ctx.new_id("MEM"), name=f"{first} {last}", username=username, city=ctx.fake.city(),
                        joined_at=ctx.moment(-2000, -60), positive=0, neutral=0, negative=0)
        ctx.add(member)
        members.append(member)
    sellers = members[:26]
    titles: set[str] = set()
    listings: list[Listing] = []
    delivered: list[Order] = []
    for s_index, seller in enumerate(sellers):
        count = 0 if s_index == 25 else ctx.rng.randint(3, 10)
        for _ in range(count):
            category = ctx.rng.choice(sorted(CATEGORIES))
            thing, low, high = ctx.rng.choice(CATEGORIES[category])
            brand = ctx.rng.choice(BRANDS)
            # a brand that is the item's first word is said once ('Vintage comic book', not 'Vintage vintage ...')
            title = thing if thing.lower().startswith(brand.lower() + " ") else f"{brand} {thing.lower()}"
            if title.lower() in titles:
                continue
            titles.add(title.lower())
            others = [m for m in members if m.id != seller.id]
            listing = _listing(ctx, seller, title, category, low, high)
            ctx.add(listing)
            listings.append(listing)
            if listing.format == "auction":
                order = _auction(ctx, listing, others)
            else:
                order = _fixed(ctx, listing, others)
            if order is not None:
                ctx.add(order)
                if order.status == "delivered":
                    delivered.append(order)
    by_id = {m.id: m for m in members}
    for order in delivered:
        roll = ctx.rng.random()
        if roll < 0.45:
            _feedback(ctx, order, order.buyer_id, by_id[order.seller_id])
        if roll < 0.25:
            _feedback(ctx, order, order.seller_id, by_id[order.buyer_id], positive=True)
    _watchlists(ctx, members, listings)


def _listing(ctx: SeedContext, seller: Member, title: str, category: str, low: float, high: float) -> Listing:
    auction = ctx.rng.random() < 0.5
    condition = ctx.rng.choices(CONDITIONS, weights=(3, 3, 5, 1))[0]
    created = ctx.moment(-90, -1)
    common = dict(id=ctx.new_id("LST"), seller_id=seller.id, title=title, category=category, condition=condition,
                  created_at=created, high_bid=None, high_bidder_id=None, bid_count=0, relisted_as=None)
    if auction:
        start = _price(ctx, low * 0.3, low)
        reserve = _price(ctx, low, (low + high) / 2) if ctx.rng.random() < 0.35 else None
        return Listing(**common, format="auction", price=None, accepts_offers=False, start_price=start,
                       reserve_price=reserve, status="active", end_time=created)
    return Listing(**common, format="fixed_price", price=_price(ctx, low, high), accepts_offers=ctx.rng.random() < 0.6,
                   start_price=None, reserve_price=None, status="active", end_time=created)


def _auction(ctx: SeedContext, listing: Listing, others: list[Member]) -> Order | None:
    ended = ctx.rng.random() < 0.45
    if ended:
        listing.end_time = ctx.moment(-75, -0.1)
        listing.created_at = listing.end_time - dt.timedelta(days=ctx.rng.choice((3, 5, 7, 10)))
    else:
        listing.end_time = ctx.moment(0.05, 0.5) if ctx.rng.random() < 0.25 else ctx.moment(0.5, 7)
        listing.created_at = min(listing.created_at, ctx.now - dt.timedelta(hours=6))
    n_bids = ctx.rng.choice((0, 0, 1, 2, 3, 4, 5, 7))
    amount, previous = listing.start_price or 1.0, None
    span = max((min(listing.end_time, ctx.now) - listing.created_at).total_seconds(), 3600)
    times = sorted(listing.created_at + dt.timedelta(seconds=int(span * ctx.rng.random())) for _ in range(n_bids))
    for k, when in enumerate(times):
        bidder = ctx.rng.choice([m for m in others if m.id != previous])
        if k > 0:
            amount = round(amount + increment(amount) * ctx.rng.choice((1, 1, 2, 4, 8)), 2)
        ctx.add(Bid(id=ctx.new_id("BID"), listing_id=listing.id, bidder_id=bidder.id, amount=amount,
                    placed_at=when.replace(second=0, microsecond=0)))
        previous = bidder.id
        listing.high_bid, listing.high_bidder_id, listing.bid_count = amount, bidder.id, k + 1
    if not ended:
        return None
    if listing.high_bid is not None and (listing.reserve_price is None or listing.high_bid >= listing.reserve_price):
        listing.status = "sold"
        return _order(ctx, listing, listing.high_bidder_id, listing.high_bid, "auction", listing.end_time)
    listing.status = "ended"
    return None


def _fixed(ctx: SeedContext, listing: Listing, others: list[Member]) -> Order | None:
    listing.end_time = listing.created_at + dt.timedelta(days=30)
    if listing.end_time <= ctx.now:
        listing.end_time = ctx.now + dt.timedelta(days=ctx.rng.randint(5, 25))
    roll = ctx.rng.random()
    if listing.accepts_offers:
        for _ in range(ctx.rng.choice((0, 0, 1, 1, 2))):
            buyer = ctx.rng.choice(others)
            ctx.add(Offer(id=ctx.new_id("OFR"), listing_id=listing.id, buyer_id=buyer.id,
                          amount=float(round(listing.price * ctx.rng.uniform(0.6, 0.9))),
                          message=ctx.rng.choice((None, "Would you take this?", "Can pick up locally.",
                                                  "Cash ready, thanks!")),
                          status="declined" if roll < 0.2 else "pending", made_at=ctx.moment(-5, -0.1)))
    if roll < 0.38:
        listing.status = "sold"
        when = ctx.moment(-80, -0.2)
        listing.end_time = max(when, listing.created_at + dt.timedelta(hours=1))
        return _order(ctx, listing, ctx.rng.choice(others).id, listing.price, "buy_it_now", listing.end_time)
    if roll < 0.48:
        listing.status = "ended"
        listing.end_time = ctx.moment(-20, -0.5)
        listing.created_at = min(listing.created_at, listing.end_time - dt.timedelta(days=1))
    return None


def _order(ctx: SeedContext, listing: Listing, buyer_id: str, price: float, how: str, when: dt.datetime) -> Order:
    age = (ctx.now - when).total_seconds() / 86400
    roll = ctx.rng.random()
    status = "paid" if age < 2 or roll < 0.15 else ("shipped" if age < 6 or roll < 0.3 else "delivered")
    order = Order(id=ctx.new_id("ORD"), listing_id=listing.id, buyer_id=buyer_id, seller_id=listing.seller_id,
                  price=price, how=how, status=status, ordered_at=when, carrier=None, tracking_number=None,
                  shipped_at=None, delivered_at=None)
    if status != "paid":
        order.carrier = ctx.rng.choice(CARRIERS)
        order.tracking_number = "".join(ctx.rng.choice("0123456789") for _ in range(ctx.rng.choice((12, 18, 22))))
        order.shipped_at = min(when + dt.timedelta(hours=ctx.rng.randint(6, 60)), ctx.now - dt.timedelta(hours=1))
    if status == "delivered":
        order.delivered_at = min(order.shipped_at + dt.timedelta(days=ctx.rng.randint(2, 6)), ctx.now)
    return order


def _feedback(ctx: SeedContext, order: Order, author: str, subject: Member, positive: bool = False) -> None:
    rating = "positive" if positive else ctx.rng.choices(("positive", "neutral", "negative"), weights=(8, 1, 1))[0]
    setattr(subject, rating, getattr(subject, rating) + 1)
    ctx.add(Feedback(id=ctx.new_id("FBK"), order_id=order.id, author_id=author, subject_id=subject.id, rating=rating,
                     comment=ctx.rng.choice(COMMENTS[rating]),
                     left_at=min(order.delivered_at + dt.timedelta(days=ctx.rng.randint(0, 5)), ctx.now)))


def _watchlists(ctx: SeedContext, members: list[Member], listings: list[Listing]) -> None:
    """Most members watch a few listings of other sellers (the seller's own are never watched)."""
    for member in members:
        if ctx.rng.random() < 0.3:
            continue
        picks = ctx.rng.sample(listings, ctx.rng.randint(1, 5))
        for listing in sorted({p.id: p for p in picks if p.seller_id != member.id}.values(), key=lambda x: x.id):
            ctx.add(Watch(member_id=member.id, listing_id=listing.id, added_at=ctx.moment(-20, -0.1)))
