"""The marketplace server's tools: members, listings (fixed price or auction), bids, offers, orders,
shipping, feedback and watchlists.

Rules, in one place:
- An auction is open while it is active and its end time is after "now". A bid must be at least the
  start price when there are no bids, otherwise the current high bid plus the increment for that
  price band; a member never bids on their own listing, and the current high bidder does not bid
  against themselves. The reserve price stays hidden: buyers only see whether it is met.
- Offers are made only on active fixed-price listings that accept offers, below the asking price,
  never by the seller, one pending offer per buyer and listing. The seller accepts or declines a
  pending offer; accepting sells the item at the offer and declines every other pending offer.
- Buying at the fixed price, accepting an offer or ending an auction whose high bid meets the
  reserve creates an order (status paid) and marks the listing sold.
- A listing is revised only while active and before its first bid; it is ended early only while
  active, and an auction with bids not in its last 12 hours. Only an ended, unsold listing is
  relisted, once.
- Only a paid order is marked shipped, with a carrier and a tracking number.
- Feedback is left on a delivered order by its buyer or seller, once each, within 60 days of the
  order; sellers may only leave positive feedback for buyers.
- A member watches other sellers' active listings; a listing is on a watchlist at most once.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Detail, Entity, Id, Limit, Money, Toolkit, ToolError, tool, sql_where

from .models import Base, Bid, Feedback, Listing, Member, Offer, Order, Watch
from .seed import increment, seed

Category = Literal["Books", "Cameras", "Clothing", "Collectibles", "Electronics", "Home & Garden", "Music", "Sports"]
Condition = Literal["new", "like_new", "used", "for_parts"]
Carrier = Literal["USPS", "UPS", "FedEx", "DHL"]
Rating = Literal["positive", "neutral", "negative"]
MAX_TITLE = 80
LAST_HOURS = 12
FEEDBACK_DAYS = 60
TRACKING = re.compile(r"^[A-Za-z0-9]{8,30}$")


class MarketplaceServer(Toolkit):
    """An online marketplace where members sell and buy: search listings by words, category,
    condition and format; bid on auctions (each bid beats the high bid by the increment) or buy
    fixed-price items outright or by an offer the seller accepts or declines; sellers create,
    revise, end and relist listings and ship orders with tracking; both sides leave feedback after
    delivery; members keep a watchlist. Prices are in USD."""

    name = "marketplace"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("member", Member, "MEM", lookup="find_members"),
        Entity("listing", Listing, "LST", lookup="search_listings"),
        Entity("offer", Offer, "OFR", lookup="list_offers"),
        Entity("order", Order, "ORD", lookup="list_orders"),
    )

    # -- members -------------------------------------------------------------------------------------

    @tool(read_only=True)
    def find_members(self, name: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find members by part of their name or username (ignoring case), ordered by member id; all
        members without one. Each comes with their feedback score (positive minus negative ratings).

        Args:
            name: part of the member's name or username, such as 'Ada Park' or 'adap42'.
        """
        return [{"member_id": m.id, "name": m.name, "username": m.username, "city": m.city,
                 "feedback_score": m.positive - m.negative, "positive": m.positive, "neutral": m.neutral,
                 "negative": m.negative}
                for m in self.find(Member, name=name, name_columns=("name", "username"), limit=limit,
                                   columns=("id", "name", "username", "city", "positive", "neutral", "negative"))]

    @tool(read_only=True)
    def get_feedback(self, member_id: Id("member"), limit: Limit = 20) -> dict:
        """Return the feedback a member has received, newest first, with their score and counts."""
        member = self.get(Member, member_id)
        received = self.load(Feedback, "SELECT id FROM feedback WHERE subject_id = ? ORDER BY left_at DESC, id DESC "
                                       "LIMIT ?", member.id, limit)
        return {**_member(member), "received": [_feedback(f) for f in received]}

    # -- listings ------------------------------------------------------------------------------------

    @tool(read_only=True)
    def search_listings(self, query: str | None = None, category: Category | None = None,
                        condition: Condition | None = None,
                        listing_format: Literal["fixed_price", "auction"] | None = None,
                        seller_id: Id("member") | None = None,
                        status: Literal["active", "sold", "ended"] | None = "active",
                        max_price: Money | None = None, limit: Limit = 10) -> list[dict]:
        """Search listings by words of the title, category, condition, format, seller, status and
        price (the fixed price, or an auction's current price). Every criterion given must match.
        Ordered by end time, soonest first.

        Args:
            query: words that must all appear in the title, ignoring case, such as 'road bike'.
            category: only this category.
            condition: only this condition: 'new', 'like_new', 'used' or 'for_parts'.
            listing_format: only 'fixed_price' listings or only 'auction' listings.
            seller_id: only listings of this seller.
            status: 'active' (the default), 'sold' or 'ended' (ended unsold); null for every status.
            max_price: only listings whose current price is at most this, in USD.
        """
        words = (query or "").lower().split()
        sql, params = sql_where(*(("lower(title) LIKE '%' || ? || '%'", word) for word in words),
                                ("category = ?", category or None), ("condition = ?", condition or None),
                                ("format = ?", listing_format or None), ("seller_id = ?", seller_id),
                                ("status = ?", status or None),
                                ("coalesce(price, high_bid, start_price) <= ?", max_price))
        found = self.load(Listing, f"SELECT id FROM listings WHERE {sql} ORDER BY end_time, id LIMIT ?", *params, limit)
        return [self._listing(x) for x in found]

    @tool(read_only=True)
    def get_listing(self, listing_id: Id("listing")) -> dict:
        """Return a listing in full: seller, condition, price or current bid, the minimum next bid,
        whether the reserve is met (never the reserve itself), end time and how many watch it."""
        listing = self.get(Listing, listing_id)
        (watchers, pending_offers), = self.rows(
            "SELECT (SELECT count(*) FROM watchlist WHERE listing_id = ?), "
            "(SELECT count(*) FROM offers WHERE listing_id = ? AND status = 'pending')", listing.id, listing.id)
        seller = self.db.get(Member, listing.seller_id)
        out = {**self._listing(listing), "seller_name": seller.name, "seller_username": seller.username,
               "created_at": listing.created_at, "watchers": watchers, "relisted_as": listing.relisted_as}
        if listing.format == "auction":
            out["high_bidder_id"] = listing.high_bidder_id
            out["has_reserve"] = listing.reserve_price is not None
            out["reserve_met"] = _reserve_met(listing)
        else:
            out["pending_offers"] = pending_offers
        return out

    @tool(produces=("listing",))
    def create_listing(self, seller_id: Id("member"), title: str, category: Category, condition: Condition,
                       listing_format: Literal["fixed_price", "auction"], price: Money | None = None,
                       accepts_offers: bool = False, start_price: Money | None = None,
                       reserve_price: Money | None = None, duration_days: Literal[1, 3, 5, 7, 10, 30] = 7) -> dict:
        """List an item for sale, starting now. A fixed-price listing needs `price` (and may accept
        offers); an auction needs `start_price` and may have a hidden `reserve_price` above it.

        Args:
            title: what is sold, 1 to 80 characters, such as 'Vintage road bike'.
            category: the category it is listed in.
            condition: the item's condition: 'new', 'like_new', 'used' or 'for_parts'.
            listing_format: 'fixed_price' (buy it now) or 'auction'.
            price: the fixed price in USD (fixed-price listings only).
            accepts_offers: whether buyers may make offers below the price (fixed-price listings only).
            start_price: the opening bid in USD (auctions only).
            reserve_price: the lowest price the seller will sell at, hidden from buyers (auctions only).
            duration_days: how long the listing runs: 1, 3, 5, 7, 10 or 30 days (30 only for fixed price).
        """
        seller = self.get(Member, seller_id)
        title = _title(title)
        if listing_format == "fixed_price":
            if price is None:
                raise ToolError("A fixed-price listing needs a price; give price (or list it as an auction)")
            if start_price is not None or reserve_price is not None:
                raise ToolError("start_price and reserve_price are for auctions; a fixed-price listing takes price")
        else:
            if start_price is None:
                raise ToolError("An auction needs a start_price (the opening bid)")
            if price is not None or accepts_offers:
                raise ToolError("Auctions take bids, not a fixed price or offers; leave out price and accepts_offers")
            if reserve_price is not None and reserve_price <= start_price:
                raise ToolError(f"The reserve price ({reserve_price:.2f}) must be above the start price "
                                f"({start_price:.2f}); raise it or leave the reserve out")
            if duration_days == 30:
                raise ToolError("Auctions run 1, 3, 5, 7 or 10 days; choose one of those")
        listing = Listing(id=self.new_id("LST"), seller_id=seller.id, title=title, category=category,
                          condition=condition, format=listing_format, price=price, accepts_offers=accepts_offers,
                          start_price=start_price, reserve_price=reserve_price, high_bid=None, high_bidder_id=None,
                          bid_count=0, status="active", created_at=self.now,
                          end_time=self.now + dt.timedelta(days=duration_days), relisted_as=None)
        self.db.add(listing)
        return self._listing(listing)

    @tool(idempotent=True)
    def revise_listing(self, listing_id: Id("listing"), title: str | None = None, condition: Condition | None = None,
                       price: Money | None = None, start_price: Money | None = None) -> dict:
        """Change an active listing's title, condition, fixed price or auction start price. An auction
        can no longer be revised once it has a bid.

        Args:
            title: the new title, 1 to 80 characters.
            condition: the new condition.
            price: the new fixed price in USD (fixed-price listings only).
            start_price: the new opening bid in USD (auctions only).
        """
        listing = self.get(Listing, listing_id)
        if listing.status != "active":
            raise ToolError(f"Listing {listing.id} is {listing.status}; only active listings can be revised "
                            "(relist an ended one instead)")
        if listing.bid_count:
            raise ToolError(f"Listing {listing.id} already has {listing.bid_count} bid(s); an auction cannot be "
                            "revised after its first bid")
        if title is None and condition is None and price is None and start_price is None:
            raise ToolError("Nothing to change: give a title, condition, price or start_price")
        if price is not None and listing.format != "fixed_price":
            raise ToolError(f"Listing {listing.id} is an auction; change its start_price, not price")
        if start_price is not None and listing.format != "auction":
            raise ToolError(f"Listing {listing.id} is fixed price; change its price, not start_price")
        if start_price is not None and listing.reserve_price is not None and start_price >= listing.reserve_price:
            raise ToolError(f"The start price must stay below the reserve price of listing {listing.id}")
        if title is not None:
            listing.title = _title(title)
        if condition is not None:
            listing.condition = condition
        if price is not None:
            listing.price = price
        if start_price is not None:
            listing.start_price = start_price
        return self._listing(listing)

    @tool(destructive=True)
    def end_listing(self, listing_id: Id("listing")) -> dict:
        """End an active listing early. An auction whose high bid meets the reserve is sold to the high
        bidder (an order is created); otherwise the listing ends unsold and pending offers are declined.
        An auction with bids cannot be ended in its last 12 hours."""
        listing = self._open(self.get(Listing, listing_id), "ended early")
        if listing.bid_count and listing.end_time - self.now < dt.timedelta(hours=LAST_HOURS):
            raise ToolError(f"Auction {listing.id} has bids and ends within {LAST_HOURS} hours "
                            f"({listing.end_time.isoformat()}); it must run to its end")
        self._decline_pending(listing.id)
        listing.end_time = self.now
        order = None
        if listing.format == "auction" and listing.bid_count and _reserve_met(listing):
            order = self._sell(listing, listing.high_bidder_id, listing.high_bid, "auction")
        else:
            listing.status = "ended"
        return {**self._listing(listing), "order": _order(order) if order else None}

    @tool(produces=("listing",))
    def relist_listing(self, listing_id: Id("listing"), duration_days: Literal[1, 3, 5, 7, 10, 30] = 7) -> dict:
        """Put an ended, unsold listing up again as a new listing with the same details, starting now;
        an auction starts over with no bids. A listing is relisted once.

        Args:
            duration_days: how long the new listing runs: 1, 3, 5, 7, 10 or 30 days (30 only for fixed price).
        """
        old = self.get(Listing, listing_id)
        if old.status != "ended":
            what = "sold" if old.status == "sold" else "still active"
            raise ToolError(f"Listing {old.id} is {what}; only an ended, unsold listing can be relisted")
        if old.relisted_as:
            raise ToolError(f"Listing {old.id} was already relisted as {old.relisted_as}; revise that one instead")
        if old.format == "auction" and duration_days == 30:
            raise ToolError("Auctions run 1, 3, 5, 7 or 10 days; choose one of those")
        new = Listing(id=self.new_id("LST"), seller_id=old.seller_id, title=old.title, category=old.category,
                      condition=old.condition, format=old.format, price=old.price, accepts_offers=old.accepts_offers,
                      start_price=old.start_price, reserve_price=old.reserve_price, high_bid=None,
                      high_bidder_id=None, bid_count=0, status="active", created_at=self.now,
                      end_time=self.now + dt.timedelta(days=duration_days), relisted_as=None)
        self.db.add(new)
        old.relisted_as = new.id
        return {**self._listing(new), "relisted_from": old.id}

    # -- bids ----------------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_bids(self, listing_id: Id("listing")) -> dict:
        """Return an auction's bid history, highest first, with bidder names, and the minimum next bid."""
        listing = self.get(Listing, listing_id)
        if listing.format != "auction":
            raise ToolError(f"Listing {listing.id} is fixed price and takes no bids; list_offers shows its offers")
        bids = self.rows("SELECT b.id, b.bidder_id, m.name, b.amount, b.placed_at FROM bids b "
                         "JOIN members m ON m.id = b.bidder_id WHERE b.listing_id = ? ORDER BY b.amount DESC, b.id",
                         listing.id)
        return {"listing_id": listing.id, "title": listing.title, "bid_count": listing.bid_count,
                "minimum_bid": _minimum_bid(listing) if _open(listing, self.now) else None,
                "bids": [{"bid_id": bid_id, "bidder_id": bidder_id, "bidder_name": name, "amount": amount,
                          "placed_at": dt.datetime.fromisoformat(placed)}
                         for bid_id, bidder_id, name, amount, placed in bids]}

    @tool()
    def place_bid(self, listing_id: Id("listing"), bidder_id: Id("member"), amount: Money) -> dict:
        """Bid on an open auction. The bid must be at least the minimum bid: the start price when there
        are no bids, otherwise the high bid plus the increment for its price band.

        Args:
            bidder_id: the member bidding.
            amount: the bid in USD, such as 125.50.
        """
        listing, bidder = self.get(Listing, listing_id), self.get(Member, bidder_id)
        if listing.format != "auction":
            raise ToolError(f"Listing {listing.id} is fixed price, not an auction; buy it now or make an offer")
        self._open(listing, "bid on")
        if listing.seller_id == bidder.id:
            raise ToolError(f"{bidder.name} is the seller of listing {listing.id}; sellers cannot bid on their own "
                            "listings")
        if listing.high_bidder_id == bidder.id:
            raise ToolError(f"{bidder.name} is already the high bidder on listing {listing.id} at "
                            f"{listing.high_bid:.2f}; there is no need to outbid yourself")
        minimum = _minimum_bid(listing)
        if amount < minimum:
            current = (f"the current high bid is {listing.high_bid:.2f} and the increment is "
                       f"{increment(listing.high_bid):.2f}" if listing.bid_count
                       else f"there are no bids yet and the start price is {listing.start_price:.2f}")
            raise ToolError(f"Bid of {amount:.2f} is too low for listing {listing.id}: {current}; bid at least "
                            f"{minimum:.2f}")
        bid = Bid(id=self.new_id("BID"), listing_id=listing.id, bidder_id=bidder.id, amount=amount,
                  placed_at=self.now)
        self.db.add(bid)
        listing.high_bid, listing.high_bidder_id, listing.bid_count = amount, bidder.id, listing.bid_count + 1
        return {"bid_id": bid.id, "listing_id": listing.id, "bidder_id": bidder.id, "amount": amount,
                "high_bidder": True, "bid_count": listing.bid_count, "reserve_met": _reserve_met(listing),
                "minimum_next_bid": _minimum_bid(listing), "end_time": listing.end_time}

    # -- buying and offers ---------------------------------------------------------------------------

    @tool(produces=("order",))
    def buy_it_now(self, listing_id: Id("listing"), buyer_id: Id("member")) -> dict:
        """Buy an active fixed-price listing at its price: the listing is sold, pending offers on it are
        declined and a paid order is created.

        Args:
            buyer_id: the member buying.
        """
        listing, buyer = self.get(Listing, listing_id), self.get(Member, buyer_id)
        if listing.format != "fixed_price":
            raise ToolError(f"Listing {listing.id} is an auction; place a bid instead")
        self._open(listing, "bought")
        if listing.seller_id == buyer.id:
            raise ToolError(f"{buyer.name} is the seller of listing {listing.id}; you cannot buy your own listing")
        self._decline_pending(listing.id)
        return _order(self._sell(listing, buyer.id, listing.price, "buy_it_now"))

    @tool(produces=("offer",), details=(Detail("offers", "message"),))
    def make_offer(self, listing_id: Id("listing"), buyer_id: Id("member"), amount: Money,
                   message: str | None = None) -> dict:
        """Offer the seller of an active fixed-price listing that accepts offers a price below the asking
        price; the seller accepts or declines it. One pending offer per buyer and listing.

        Args:
            buyer_id: the member making the offer.
            amount: the offered price in USD, below the listing's price.
            message: an optional note to the seller, such as 'Can pick up on Saturday'.
        """
        listing, buyer = self.get(Listing, listing_id), self.get(Member, buyer_id)
        if listing.format != "fixed_price":
            raise ToolError(f"Listing {listing.id} is an auction; auctions take bids, not offers")
        self._open(listing, "offered on")
        if not listing.accepts_offers:
            raise ToolError(f"Listing {listing.id} does not accept offers; buy it now at {listing.price:.2f}")
        if listing.seller_id == buyer.id:
            raise ToolError(f"{buyer.name} is the seller of listing {listing.id}; you cannot make an offer on your "
                            "own listing")
        if amount >= listing.price:
            raise ToolError(f"An offer of {amount:.2f} is not below the price of {listing.price:.2f}; buy it now "
                            "instead")
        pending = self.db.scalar(select(Offer).where(Offer.listing_id == listing.id, Offer.buyer_id == buyer.id,
                                                     Offer.status == "pending"))
        if pending is not None:
            raise ToolError(f"{buyer.name} already has a pending offer of {pending.amount:.2f} ({pending.id}) on "
                            f"listing {listing.id}; wait for the seller's answer")
        offer = Offer(id=self.new_id("OFR"), listing_id=listing.id, buyer_id=buyer.id, amount=amount,
                      message=(message or "").strip() or None, status="pending", made_at=self.now)
        self.db.add(offer)
        return self._offer(offer)

    @tool(read_only=True)
    def list_offers(self, seller_id: Id("member") | None = None, buyer_id: Id("member") | None = None,
                    listing_id: Id("listing") | None = None,
                    status: Literal["pending", "accepted", "declined"] | None = None, limit: Limit = 20) -> list[dict]:
        """List offers, newest first: received by a seller, made by a buyer, made on a listing, or, with
        none of them, every offer on the marketplace. Every criterion given must match.

        Args:
            seller_id: offers on this seller's listings.
            buyer_id: offers this member made.
            listing_id: offers on this listing.
            status: only 'pending', 'accepted' or 'declined' offers.
        """
        sql, params = sql_where(("l.seller_id = ?", seller_id), ("o.buyer_id = ?", buyer_id),
                                ("o.listing_id = ?", listing_id), ("o.status = ?", status or None))
        offers = self.load(Offer, "SELECT o.id FROM offers o JOIN listings l ON l.id = o.listing_id "
                                  f"WHERE {sql} ORDER BY o.made_at DESC, o.id DESC LIMIT ?", *params, limit)
        return [self._offer(o) for o in offers]

    @tool(produces=("order",))
    def respond_to_offer(self, offer_id: Id("offer"), decision: Literal["accept", "decline"]) -> dict:
        """The seller accepts or declines a pending offer. Accepting sells the listing to the buyer at
        the offered price (a paid order) and declines every other pending offer on it.

        Args:
            decision: 'accept' or 'decline'.
        """
        offer = self.get(Offer, offer_id)
        if offer.status != "pending":
            raise ToolError(f"Offer {offer.id} was already {offer.status}; only pending offers can be answered")
        listing = self.db.get(Listing, offer.listing_id)
        if decision == "decline":
            offer.status = "declined"
            return {**self._offer(offer), "order": None}
        self._open(listing, "sold")
        offer.status = "accepted"
        self._decline_pending(listing.id)
        order = self._sell(listing, offer.buyer_id, offer.amount, "offer")
        return {**self._offer(offer), "order": _order(order)}

    # -- orders and feedback -------------------------------------------------------------------------

    @tool(read_only=True)
    def list_orders(self, member_id: Id("member"), role: Literal["buyer", "seller"] = "buyer",
                    status: Literal["paid", "shipped", "delivered"] | None = None, limit: Limit = 20) -> list[dict]:
        """List a member's orders as buyer (purchases, the default) or as seller (sales), newest first,
        with the item's title, the other party's name and whether each side has left feedback.

        Args:
            role: 'buyer' for what the member bought, 'seller' for what they sold.
            status: only 'paid' (awaiting shipment), 'shipped' or 'delivered' orders.
        """
        member = self.get(Member, member_id)
        where, params = ["buyer_id = ?" if role == "buyer" else "seller_id = ?"], [member.id]
        if status:
            where.append("status = ?")
            params.append(status)
        orders = self.load(Order, f"SELECT id FROM orders WHERE {' AND '.join(where)} "
                                  "ORDER BY ordered_at DESC, id DESC LIMIT ?", *params, limit)
        return [self._order_full(o) for o in orders]

    @tool(idempotent=True)
    def mark_shipped(self, order_id: Id("order"), carrier: Carrier, tracking_number: str) -> dict:
        """The seller marks a paid order shipped, with the carrier and its tracking number.

        Marking an order shipped again with the same carrier and tracking number changes nothing and
        says it was already shipped; an order shipped with another tracking number cannot be re-marked.

        Args:
            carrier: 'USPS', 'UPS', 'FedEx' or 'DHL'.
            tracking_number: the carrier's tracking number, 8 to 30 letters and digits, such as '9400111899223344556677'.
        """
        order = self.get(Order, order_id)
        number = tracking_number.strip().replace(" ", "")
        if not TRACKING.match(number):
            raise ToolError(f"Tracking number {tracking_number!r} is not valid: use the carrier's 8 to 30 letters and "
                            "digits")
        if order.status != "paid":
            if (order.carrier, order.tracking_number) == (carrier, number):
                return {**self._order_full(order), "already_shipped": True}
            raise ToolError(f"Order {order.id} is already {order.status} (tracking {order.carrier} "
                            f"{order.tracking_number}); only paid orders can be marked shipped")
        order.status, order.carrier, order.tracking_number, order.shipped_at = "shipped", carrier, number, self.now
        return {**self._order_full(order), "already_shipped": False}

    @tool()
    def leave_feedback(self, order_id: Id("order"), author_id: Id("member"), rating: Rating, comment: str) -> dict:
        """Rate the other party of a delivered order: the buyer rates the seller, the seller the buyer.
        Once per party and order, within 60 days of the order; sellers can only leave positive feedback.

        Args:
            author_id: the member leaving the feedback: the order's buyer or seller.
            rating: 'positive', 'neutral' or 'negative'.
            comment: 1 to 80 characters, such as 'Fast shipping, great seller!'.
        """
        order, author = self.get(Order, order_id), self.get(Member, author_id)
        if author.id not in (order.buyer_id, order.seller_id):
            raise ToolError(f"{author.name} is neither the buyer nor the seller of order {order.id}; only they can "
                            "leave feedback on it")
        if order.status != "delivered":
            raise ToolError(f"Order {order.id} is {order.status}, not delivered yet; feedback is left after delivery")
        if self.now - order.ordered_at > dt.timedelta(days=FEEDBACK_DAYS):
            raise ToolError(f"Order {order.id} was placed on {order.ordered_at.date().isoformat()}, more than "
                            f"{FEEDBACK_DAYS} days ago; the feedback window has closed")
        done = self.db.scalar(select(Feedback).where(Feedback.order_id == order.id, Feedback.author_id == author.id))
        if done is not None:
            raise ToolError(f"{author.name} already left {done.rating} feedback on order {order.id} ({done.id}); "
                            "feedback is left once")
        is_seller = author.id == order.seller_id
        if is_seller and rating != "positive":
            raise ToolError("Sellers can only leave positive feedback for buyers; report a problem buyer instead")
        text = comment.strip()
        if not 1 <= len(text) <= 80:
            raise ToolError(f"comment must be 1 to 80 characters, got {len(text)}")
        subject = self.db.get(Member, order.buyer_id if is_seller else order.seller_id)
        row = Feedback(id=self.new_id("FBK"), order_id=order.id, author_id=author.id, subject_id=subject.id,
                       rating=rating, comment=text, left_at=self.now)
        self.db.add(row)
        setattr(subject, rating, getattr(subject, rating) + 1)
        return _feedback(row)

    # -- watchlist -----------------------------------------------------------------------------------

    @tool(read_only=True)
    def get_watchlist(self, member_id: Id("member")) -> list[dict]:
        """Return the listings a member watches, ending soonest first."""
        member = self.get(Member, member_id)
        watched = self.load(Listing, "SELECT l.id FROM watchlist w JOIN listings l ON l.id = w.listing_id "
                                     "WHERE w.member_id = ? ORDER BY l.end_time, l.id", member.id)
        return [self._listing(x) for x in watched]

    @tool(idempotent=True)
    def watch_listing(self, member_id: Id("member"), listing_id: Id("listing")) -> dict:
        """Add an active listing of another seller to a member's watchlist. A listing already on the
        watchlist stays there once (already_watching is true) and nothing changes."""
        member, listing = self.get(Member, member_id), self.get(Listing, listing_id)
        if listing.seller_id == member.id:
            raise ToolError(f"Listing {listing.id} is {member.name}'s own; members watch other sellers' listings")
        already = self.db.get(Watch, (member.id, listing.id)) is not None
        if not already:
            self._open(listing, "watched")
            self.db.add(Watch(member_id=member.id, listing_id=listing.id, added_at=self.now))
        return {"member_id": member.id, "listing_id": listing.id, "title": listing.title, "watching": True,
                "already_watching": already}

    @tool(idempotent=True)
    def unwatch_listing(self, member_id: Id("member"), listing_id: Id("listing")) -> dict:
        """Remove a listing from a member's watchlist. A listing not on it is left off it (was_watching
        is false) and nothing changes."""
        member, listing = self.get(Member, member_id), self.get(Listing, listing_id)
        watch = self.db.get(Watch, (member.id, listing.id))
        if watch is not None:
            self.db.delete(watch)
        return {"member_id": member.id, "listing_id": listing.id, "title": listing.title, "watching": False,
                "was_watching": watch is not None}

    @tool(read_only=True, hidden=True)
    def count_records(self) -> dict:
        """Internal: the number of rows of each table."""
        return {model.__tablename__: self.db.scalar(select(func.count()).select_from(model))
                for model in (Member, Listing, Bid, Offer, Order, Feedback, Watch)}

    def invariants(self) -> list[str]:
        """Every auction's high bid and bid count agree with its bids, every sold listing has exactly
        one order, every member's rating counts agree with the feedback they received, and nothing
        that happened (joined, listed, bid, offered, ordered, shipped, delivered, rated, watched) lies
        after the clock."""
        problems = self.after_now(Member.joined_at, Listing.created_at, Bid.placed_at, Offer.made_at,
                                  Order.ordered_at, Order.shipped_at, Order.delivered_at, Feedback.left_at,
                                  Watch.added_at)
        bids = {lid: (top, n) for lid, top, n in self.db.execute(
            select(Bid.listing_id, func.max(Bid.amount), func.count()).group_by(Bid.listing_id))}
        orders = dict(self.db.execute(select(Order.listing_id, func.count()).group_by(Order.listing_id)).all())
        for lid, fmt, status, high, count in self.db.execute(
                select(Listing.id, Listing.format, Listing.status, Listing.high_bid, Listing.bid_count)):
            top, n = bids.get(lid, (None, 0))
            if (fmt == "auction" and (top, n) != (high, count)) or (fmt != "auction" and n):
                problems.append(f"{lid}: high bid {high} over {count} bids, but its bids say {top} over {n}")
            if (status == "sold") != (orders.get(lid, 0) == 1) or orders.get(lid, 0) > 1:
                problems.append(f"{lid}: {status} with {orders.get(lid, 0)} orders")
        received = {(who, rating): n for who, rating, n in self.db.execute(
            select(Feedback.subject_id, Feedback.rating, func.count()).group_by(Feedback.subject_id, Feedback.rating))}
        for mid, *counts in self.db.execute(select(Member.id, Member.positive, Member.neutral, Member.negative)):
            for rating, count in zip(("positive", "neutral", "negative"), counts):
                if count != received.get((mid, rating), 0):
                    problems.append(f"{mid}: {count} {rating} ratings, but {received.get((mid, rating), 0)} received")
        return problems

    # -- helpers -------------------------------------------------------------------------------------

    def _open(self, listing: Listing, action: str) -> Listing:
        if listing.status != "active":
            raise ToolError(f"Listing {listing.id} is {listing.status}, not active; it cannot be {action}")
        if not _open(listing, self.now):
            raise ToolError(f"Listing {listing.id} ended at {listing.end_time.isoformat()}; it cannot be {action}")
        return listing

    def _decline_pending(self, listing_id: str) -> None:
        for offer in self.db.scalars(select(Offer).where(Offer.listing_id == listing_id, Offer.status == "pending")):
            offer.status = "declined"

    def _sell(self, listing: Listing, buyer_id: str, price: float, how: str) -> Order:
        listing.status = "sold"
        listing.end_time = min(listing.end_time, self.now)
        order = Order(id=self.new_id("ORD"), listing_id=listing.id, buyer_id=buyer_id, seller_id=listing.seller_id,
                      price=price, how=how, status="paid", ordered_at=self.now, carrier=None, tracking_number=None,
                      shipped_at=None, delivered_at=None)
        self.db.add(order)
        return order


    def _listing(self, listing: Listing) -> dict:
        out = {"listing_id": listing.id, "title": listing.title, "seller_id": listing.seller_id,
               "category": listing.category, "condition": listing.condition, "format": listing.format,
               "status": listing.status, "end_time": listing.end_time}
        if listing.format == "fixed_price":
            out.update(price=listing.price, accepts_offers=listing.accepts_offers)
        else:
            out.update(start_price=listing.start_price, current_bid=listing.high_bid, bid_count=listing.bid_count,
                       minimum_bid=_minimum_bid(listing) if _open(listing, self.now) else None)
        return out

    def _offer(self, offer: Offer) -> dict:
        listing = self.db.get(Listing, offer.listing_id)
        buyer = self.db.get(Member, offer.buyer_id)
        return {"offer_id": offer.id, "listing_id": offer.listing_id, "title": listing.title,
                "seller_id": listing.seller_id, "buyer_id": offer.buyer_id, "buyer_name": buyer.name,
                "amount": offer.amount, "asking_price": listing.price, "message": offer.message,
                "status": offer.status, "made_at": offer.made_at}

    def _order_full(self, order: Order) -> dict:
        listing = self.db.get(Listing, order.listing_id)
        buyer, seller = self.db.get(Member, order.buyer_id), self.db.get(Member, order.seller_id)
        authors = {author for author, in self.rows("SELECT author_id FROM feedback WHERE order_id = ?", order.id)}
        return {**_order(order), "title": listing.title, "buyer_name": buyer.name, "seller_name": seller.name,
                "buyer_left_feedback": buyer.id in authors, "seller_left_feedback": seller.id in authors}


def _member(member: Member) -> dict:
    return {"member_id": member.id, "name": member.name, "username": member.username, "city": member.city,
            "feedback_score": member.positive - member.negative, "positive": member.positive,
            "neutral": member.neutral, "negative": member.negative}


def _open(listing: Listing, now: dt.datetime) -> bool:
    return listing.status == "active" and listing.end_time > now


def _reserve_met(listing: Listing) -> bool:
    return listing.high_bid is not None and (listing.reserve_price is None or listing.high_bid >= listing.reserve_price)


def _minimum_bid(listing: Listing) -> float:
    if not listing.bid_count:
        return listing.start_price
    return round(listing.high_bid + increment(listing.high_bid), 2)


def _title(title: str) -> str:
    text = title.strip()
    if not 1 <= len(text) <= MAX_TITLE:
        raise ToolError(f"title must be 1 to {MAX_TITLE} characters, got {len(text)}")
    return text


def _order(order: Order) -> dict:
    return {"order_id": order.id, "listing_id": order.listing_id, "buyer_id": order.buyer_id,
            "seller_id": order.seller_id, "price": order.price, "how": order.how, "status": order.status,
            "ordered_at": order.ordered_at, "carrier": order.carrier, "tracking_number": order.tracking_number,
            "shipped_at": order.shipped_at, "delivered_at": order.delivered_at}


def _feedback(row: Feedback) -> dict:
    return {"feedback_id": row.id, "order_id": row.order_id, "author_id": row.author_id, "subject_id": row.subject_id,
            "rating": row.rating, "comment": row.comment, "left_at": row.left_at}
