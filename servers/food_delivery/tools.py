"""The food_delivery server's tools: restaurants and menus, saved addresses, carts, promo codes,
orders and their tracking.

Rules, in one place:
- A customer has at most one cart per restaurant; adding an item from another restaurant fills
  that restaurant's cart.
- Sold-out items cannot be added, nor ordered; an option must be one the item offers.
- An order is refused while the restaurant is closed, when the delivery address is farther than
  the restaurant's delivery radius, or when the subtotal is under the restaurant's minimum.
- Promo codes: not expired, the subtotal at least the code's minimum, only at the code's
  restaurant when it has one, and once per customer when the code says so.
- A tip is 0 to 100 dollars and can be changed until the order is delivered, not on a cancelled one.
- An order's total is its subtotal (the lines' quantities times unit prices) plus the delivery fee,
  less the promo discount, plus the tip.
- Orders go placed -> accepted (3 min) -> preparing (8 min) -> out_for_delivery (20 min) ->
  delivered (35 min), read from the clock. Cancelling is possible only before preparing;
  rating only after delivery, once.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Detail, Entity, Id, Limit, ToolError, Toolkit, tool

from .models import (
    Address,
    Base,
    Cart,
    CartLine,
    Customer,
    MenuItem,
    Order,
    OrderLine,
    Promo,
    Restaurant,
)
from .seed import NEIGHBORHOODS, STAGES, distance, seed

Neighborhood = Literal["Downtown", "Riverside", "Old Town", "Midtown", "Harbor", "Elm Park", "University",
                       "Northgate", "Westfield", "Lakeview"]
Stage = Literal["placed", "accepted", "preparing", "out_for_delivery", "delivered", "cancelled"]
MAX_TIP = 100.0
MAX_QUANTITY = 20
_STAGE_MINUTES = dict(STAGES)


class FoodDelivery(Toolkit):
    """A food delivery app: find restaurants and their menus, fill one cart per restaurant, check
    delivery to a saved address, apply promo codes and tips, place, track, cancel, rate and
    reorder orders. Amounts are in USD, distances in miles."""

    name = "food_delivery"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("customer", Customer, "CUS", lookup="find_customers"),
        Entity("address", Address, "ADR", lookup="list_addresses"),
        Entity("restaurant", Restaurant, "RST", lookup="search_restaurants"),
        Entity("item", MenuItem, "ITM", lookup="get_menu"),
        Entity("cart", Cart, "CRT", lookup="list_carts"),
        Entity("order", Order, "ORD", lookup="list_orders"),
    )

    # -- customers and addresses -------------------------------------------------------------------

    @tool(read_only=True)
    def find_customers(self, name: str | None = None, email: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find customers by part of their name or by email (ignoring case), ordered by id; all without either.

        Args:
            name: part of the customer's name, such as 'Ada Park' or 'park'.
            email: the customer's email address, such as 'ada.park@example.com'.
        """
        return [{"customer_id": c.id, "name": c.name, "email": c.email, "phone": c.phone}
                for c in self.find(Customer, name=name, email=email, limit=limit)]

    @tool(read_only=True)
    def list_addresses(self, customer_id: Id("customer")) -> list[dict]:
        """List a customer's saved delivery addresses, ordered by id."""
        customer = self.get(Customer, customer_id)
        rows = self.rows("SELECT id, label, street, neighborhood FROM addresses WHERE customer_id = ? ORDER BY id",
                         customer.id)
        return [{"address_id": i, "customer_id": customer.id, "label": label, "street": street,
                 "neighborhood": hood} for i, label, street, hood in rows]

    @tool(produces=("address",))
    def add_address(self, customer_id: Id("customer"), label: str, street: str, neighborhood: Neighborhood) -> dict:
        """Save a new delivery address for a customer.

        Args:
            label: a short name, unique among the customer's addresses, such as 'Work' or 'Gym'.
            street: the street address, such as '221 Oak St'.
            neighborhood: the neighborhood the address is in, such as 'Midtown'.
        """
        customer = self.get(Customer, customer_id)
        label, street = label.strip(), street.strip()
        if not 1 <= len(label) <= 30:
            raise ToolError(f"label must be 1 to 30 characters, got {len(label)}")
        if not 3 <= len(street) <= 80:
            raise ToolError(f"street must be 3 to 80 characters, got {len(street)}")
        taken = self.db.scalar(select(Address.id).where(Address.customer_id == customer.id,
                                                        func.lower(Address.label) == label.lower()))
        if taken:
            raise ToolError(f"{customer.id} already has an address labelled {label!r} ({taken}); pick another label")
        address = Address(id=self.new_id("ADR"), customer_id=customer.id, label=label, street=street,
                          neighborhood=neighborhood)
        self.db.add(address)
        return _address(address)

    # -- restaurants and menus ---------------------------------------------------------------------

    @tool(read_only=True)
    def list_cuisines(self) -> list[dict]:
        """List the cuisines restaurants serve, with how many restaurants serve each, alphabetically."""
        rows = self.rows("SELECT cuisine, count(*) FROM restaurants GROUP BY cuisine ORDER BY cuisine")
        return [{"cuisine": c, "restaurants": n} for c, n in rows]

    @tool(read_only=True)
    def search_restaurants(self, name: str | None = None, cuisine: str | None = None, open_now: bool = False,
                           min_rating: float | None = None, limit: Limit = 20) -> list[dict]:
        """Find restaurants by part of their name, cuisine, rating or being open now, best rated first.

        Args:
            name: part of the restaurant's name, such as 'dragon'.
            cuisine: a cuisine from list_cuisines, such as 'Thai'.
            open_now: only restaurants open at this moment.
            min_rating: only restaurants rated at least this (1 to 5), such as 4.5.
        """
        sql, params = f"SELECT {_RESTAURANT_COLUMNS} FROM restaurants WHERE 1 = 1", []
        if name and name.strip():
            sql += " AND instr(lower(name), ?) > 0"
            params.append(name.strip().lower())
        if cuisine and cuisine.strip():
            sql += " AND lower(cuisine) = ?"
            params.append(cuisine.strip().lower())
        if min_rating is not None:
            sql += " AND rating >= ?"
            params.append(min_rating)
        found = [self._restaurant_row(*row) for row in self.rows(sql + " ORDER BY rating DESC, id", *params)]
        return [r for r in found if not open_now or r["open_now"]][:limit]

    @tool(read_only=True)
    def get_restaurant(self, restaurant_id: Id("restaurant")) -> dict:
        """Return a restaurant in full: cuisine, rating, neighborhood, opening hours, whether it is open
        now, delivery radius, delivery fee and minimum order."""
        r = self.get(Restaurant, restaurant_id)
        return {**self._restaurant(r), "neighborhood": r.neighborhood, "min_order": r.min_order}

    @tool(read_only=True)
    def get_menu(self, restaurant_id: Id("restaurant"), category: str | None = None) -> list[dict]:
        """List a restaurant's menu items with prices, options and availability, by category then name.

        Args:
            category: only items of this menu category, such as 'Desserts'.
        """
        r = self.get(Restaurant, restaurant_id)
        sql, params = "SELECT id, name, category, price, options, available FROM menu_items WHERE restaurant_id = ?", [r.id]
        if category and category.strip():
            sql += " AND lower(category) = ?"
            params.append(category.strip().lower())
        return [_menu_row(r.id, *row) for row in self.rows(sql + " ORDER BY category, name", *params)]

    @tool(read_only=True)
    def check_delivery(self, restaurant_id: Id("restaurant"), address_id: Id("address")) -> dict:
        """Say whether a restaurant delivers to a saved address now: the distance, the radius, the fee,
        and the reason when it cannot."""
        r, address = self.get(Restaurant, restaurant_id), self.get(Address, address_id)
        miles = distance(r.neighborhood, address.neighborhood)
        reasons = []
        if not self._is_open(r):
            reasons.append(f"closed now (opens at {_hhmm(r.opens_at)})")
        if miles > r.delivery_radius:
            reasons.append(f"{miles} miles away, beyond its {r.delivery_radius:g}-mile delivery radius")
        return {"restaurant_id": r.id, "address_id": address.id, "distance_miles": miles,
                "delivery_radius_miles": r.delivery_radius, "delivery_fee": r.delivery_fee,
                "can_deliver": not reasons, "reasons": reasons}

    # -- carts ---------------------------------------------------------------------------------------

    @tool(read_only=True, produces=("restaurant", "item"))
    def list_carts(self, customer_id: Id("customer")) -> list[dict]:
        """List a customer's open carts (one per restaurant) with their lines and subtotals."""
        customer = self.get(Customer, customer_id)
        rows = self.rows("SELECT id, restaurant_id FROM carts WHERE customer_id = ? ORDER BY id", customer.id)
        return [self._cart_info(i, customer.id, restaurant_id) for i, restaurant_id in rows]

    @tool(produces=("cart",))
    def add_to_cart(self, customer_id: Id("customer"), item_id: Id("item"), quantity: int = 1,
                    option: str | None = None) -> dict:
        """Add a menu item to the customer's cart for its restaurant (opening that cart if needed).

        The same item with the same option adds to the quantity already in the cart.

        Args:
            quantity: how many, 1 to 20 (default 1).
            option: one of the item's options, such as 'Large'; none for the plain item.
        """
        customer, item = self.get(Customer, customer_id), self.get(MenuItem, item_id)
        if not 1 <= quantity <= MAX_QUANTITY:
            raise ToolError(f"quantity must be 1 to {MAX_QUANTITY}, got {quantity}")
        if not item.available:
            raise ToolError(f"{item.name} ({item.id}) is sold out at the moment; pick another item from get_menu")
        option = self._option(item, option)
        cart = self.db.scalar(select(Cart).where(Cart.customer_id == customer.id,
                                                 Cart.restaurant_id == item.restaurant_id))
        if cart is None:
            cart = Cart(id=self.new_id("CRT"), customer_id=customer.id, restaurant_id=item.restaurant_id)
            self.db.add(cart)
            self.db.flush()
        line = self.db.scalar(select(CartLine).where(CartLine.cart_id == cart.id, CartLine.item_id == item.id,
                                                     CartLine.option.is_(option) if option is None
                                                     else CartLine.option == option))
        if line is None:
            self.db.add(CartLine(id=self.new_id("CLN"), cart_id=cart.id, item_id=item.id, option=option,
                                 quantity=quantity))
        elif line.quantity + quantity > MAX_QUANTITY:
            raise ToolError(f"the cart already holds {line.quantity} of {item.name}; at most {MAX_QUANTITY} allowed")
        else:
            line.quantity += quantity
        self.db.flush()
        return self._cart(cart)

    @tool(destructive=True)
    def remove_from_cart(self, cart_id: Id("cart"), item_id: Id("item")) -> dict:
        """Remove a menu item (every option of it) from a cart; a cart left empty is closed. An item
        that is not in the cart is refused, and so is a cart already closed."""
        cart, item = self.get(Cart, cart_id), self.get(MenuItem, item_id)
        lines = list(self.db.scalars(select(CartLine).where(CartLine.cart_id == cart.id, CartLine.item_id == item.id)))
        if not lines:
            raise ToolError(f"{item.name} ({item.id}) is not in cart {cart.id}")
        for line in lines:
            self.db.delete(line)
        self.db.flush()
        if not self.db.scalar(select(CartLine.id).where(CartLine.cart_id == cart.id).limit(1)):
            self.db.delete(cart)
            return {"cart_id": cart.id, "closed": True}
        return self._cart(cart)

    @tool(destructive=True)
    def clear_cart(self, cart_id: Id("cart")) -> dict:
        """Empty and close a cart."""
        cart = self.get(Cart, cart_id)
        for line in self.db.scalars(select(CartLine).where(CartLine.cart_id == cart.id)):
            self.db.delete(line)
        self.db.delete(cart)
        return {"cart_id": cart.id, "closed": True}

    @tool(read_only=True)
    def check_promo(self, cart_id: Id("cart"), code: str) -> dict:
        """Check a promo code against a cart: the discount it would give, or why it does not apply.

        Args:
            code: the promo code, such as 'SAVE10'.
        """
        cart = self.get(Cart, cart_id)
        subtotal = self._cart(cart)["subtotal"]
        promo = self._promo(code)
        try:
            discount = self._discount(promo, cart.customer_id, cart.restaurant_id, subtotal)
        except ToolError as refused:
            return {"code": promo.code, "applies": False, "reason": str(refused)}
        return {"code": promo.code, "applies": True, "discount": discount, "subtotal": subtotal}

    # -- orders ----------------------------------------------------------------------------------------

    @tool(produces=("order",))
    def place_order(self, cart_id: Id("cart"), address_id: Id("address"), tip: float = 0.0,
                    promo_code: str | None = None) -> dict:
        """Order a cart's contents for delivery to a saved address; the cart is closed.

        Refused while the restaurant is closed, beyond its delivery radius, under its minimum order,
        with a sold-out item in the cart, or with a promo code that does not apply.

        Args:
            tip: the courier's tip in dollars, 0 to 100 (default 0), such as 3.0.
            promo_code: an optional promo code, such as 'SAVE10'.
        """
        cart, address = self.get(Cart, cart_id), self.get(Address, address_id)
        if address.customer_id != cart.customer_id:
            raise ToolError(f"Address {address.id} is not saved by the owner of cart {cart.id}")
        tip = self._tip(tip)
        r = self.get(Restaurant, cart.restaurant_id)
        if not self._is_open(r):
            raise ToolError(f"{r.name} is closed now (hours {_hhmm(r.opens_at)} to {_hhmm(r.closes_at)}); "
                            "order from a restaurant that is open")
        miles = distance(r.neighborhood, address.neighborhood)
        if miles > r.delivery_radius:
            raise ToolError(f"{r.name} delivers within {r.delivery_radius:g} miles; {address.label} "
                            f"({address.street}) is {miles} miles away. Choose a closer address or restaurant")
        lines = list(self.db.scalars(select(CartLine).where(CartLine.cart_id == cart.id).order_by(CartLine.id)))
        subtotal = 0.0
        ordered = []
        for line in lines:
            item = self.db.get(MenuItem, line.item_id)
            if not item.available:
                raise ToolError(f"{item.name} ({item.id}) in cart {cart.id} is sold out; remove it from the cart first")
            price = _price(item, line.option)
            subtotal += price * line.quantity
            ordered.append((line, item, price))
        subtotal = round(subtotal, 2)
        if subtotal < r.min_order:
            raise ToolError(f"{r.name} has a minimum order of {r.min_order:.2f}; the cart comes to {subtotal:.2f}")
        discount = 0.0
        if promo_code is not None:
            promo = self._promo(promo_code)
            discount = self._discount(promo, cart.customer_id, r.id, subtotal)
            promo_code = promo.code
        order = Order(id=self.new_id("ORD"), customer_id=cart.customer_id, restaurant_id=r.id, address_id=address.id,
                      placed_at=self.now, subtotal=subtotal, delivery_fee=r.delivery_fee, discount=discount, tip=tip,
                      total=_total(subtotal, r.delivery_fee, discount, tip), promo_code=promo_code,
                      cancelled_at=None, rating=None, comment=None)
        self.db.add(order)
        for line, item, price in ordered:
            self.db.add(OrderLine(id=self.new_id("OLN"), order_id=order.id, item_id=item.id, name=item.name,
                                  option=line.option, quantity=line.quantity, unit_price=price))
            self.db.delete(line)
        self.db.delete(cart)
        self.db.flush()
        return self._order(order, lines=True)

    @tool(read_only=True, produces=("restaurant", "address"))
    def list_orders(self, customer_id: Id("customer"), status: Stage | None = None, limit: Limit = 20) -> list[dict]:
        """List a customer's orders, newest first, optionally only those at one stage.

        Args:
            status: only orders at this stage, such as 'delivered' or 'cancelled'.
        """
        customer = self.get(Customer, customer_id)
        rows = self.rows(
            "SELECT o.id, o.restaurant_id, r.name, o.address_id, o.placed_at, o.cancelled_at, o.subtotal, "
            "o.delivery_fee, o.discount, o.tip, o.total, o.promo_code, o.rating FROM orders o "
            "JOIN restaurants r ON r.id = o.restaurant_id WHERE o.customer_id = ? "
            "ORDER BY o.placed_at DESC, o.id DESC", customer.id)
        found = []
        for (oid, rid, rname, aid, placed, cancelled, subtotal, fee, discount, tip, total, code, rating) in rows:
            placed_at = dt.datetime.fromisoformat(placed)
            stage = "cancelled" if cancelled is not None else self._stage_at(placed_at)
            if status is None or stage == status:
                found.append({"order_id": oid, "restaurant_id": rid, "restaurant": rname, "address_id": aid,
                              "placed_at": placed_at, "status": stage, "subtotal": subtotal, "delivery_fee": fee,
                              "discount": discount, "tip": tip, "total": total, "promo_code": code, "rating": rating})
        return found[:limit]

    @tool(read_only=True)
    def track_order(self, order_id: Id("order")) -> dict:
        """Return an order in full with its stage, the time of each stage reached, and the expected
        delivery time."""
        order = self.get(Order, order_id)
        info = self._order(order, lines=True)
        if order.cancelled_at is None:
            info["timeline"] = {stage: order.placed_at + dt.timedelta(minutes=m) for stage, m in STAGES
                                if order.placed_at + dt.timedelta(minutes=m) <= self.now}
            info["expected_delivery"] = order.placed_at + dt.timedelta(minutes=STAGES[-1][1])
        return info

    @tool(destructive=True)
    def cancel_order(self, order_id: Id("order")) -> dict:
        """Cancel an order that the kitchen has not started preparing (stage placed or accepted)."""
        order = self.get(Order, order_id)
        stage = self._stage(order)
        if stage not in ("placed", "accepted"):
            raise ToolError(f"Order {order.id} is {stage}; only orders not yet being prepared can be cancelled")
        order.cancelled_at = self.now
        return self._order(order)

    @tool(idempotent=True)
    def set_tip(self, order_id: Id("order"), tip: float) -> dict:
        """Change the courier's tip on an order that is not yet delivered nor cancelled, and its total
        with it; setting the tip it already has changes nothing.

        Args:
            tip: the new tip in dollars, 0 to 100, such as 5.0.
        """
        order = self.get(Order, order_id)
        tip = self._tip(tip)
        stage = self._stage(order)
        if stage in ("delivered", "cancelled"):
            raise ToolError(f"Order {order.id} is {stage}; the tip can only be changed before delivery")
        order.tip = tip
        order.total = _total(order.subtotal, order.delivery_fee, order.discount, tip)
        return self._order(order)

    @tool(details=(Detail("orders", "comment"),))
    def rate_order(self, order_id: Id("order"), stars: int, comment: str | None = None) -> dict:
        """Rate a delivered order from 1 to 5 stars, once: a second rating is refused.

        Args:
            stars: 1 to 5.
            comment: an optional comment, such as 'Arrived hot'.
        """
        order = self.get(Order, order_id)
        if not 1 <= stars <= 5:
            raise ToolError(f"stars must be 1 to 5, got {stars}")
        stage = self._stage(order)
        if stage != "delivered":
            raise ToolError(f"Order {order.id} is {stage}; only delivered orders can be rated")
        if order.rating is not None:
            raise ToolError(f"Order {order.id} was already rated {order.rating} stars")
        order.rating, order.comment = stars, (comment or "").strip() or None
        return self._order(order)

    @tool(produces=("cart",))
    def reorder(self, order_id: Id("order")) -> dict:
        """Put the items of a past order back into the customer's cart for that restaurant.

        Items sold out now are left out and listed under 'skipped'; nothing is ordered until place_order.
        """
        order = self.get(Order, order_id)
        lines = list(self.db.scalars(select(OrderLine).where(OrderLine.order_id == order.id).order_by(OrderLine.id)))
        items = [(line, self.db.get(MenuItem, line.item_id)) for line in lines]
        if not any(item.available for _, item in items):
            raise ToolError(f"Every item of order {order.id} is sold out now; nothing can be reordered")
        cart = self.db.scalar(select(Cart).where(Cart.customer_id == order.customer_id,
                                                 Cart.restaurant_id == order.restaurant_id))
        if cart is None:
            cart = Cart(id=self.new_id("CRT"), customer_id=order.customer_id, restaurant_id=order.restaurant_id)
            self.db.add(cart)
            self.db.flush()
        skipped = []
        for line, item in items:
            if not item.available:
                skipped.append(item.name)
                continue
            existing = self.db.scalar(select(CartLine).where(
                CartLine.cart_id == cart.id, CartLine.item_id == item.id,
                CartLine.option.is_(None) if line.option is None else CartLine.option == line.option))
            if existing is None:
                self.db.add(CartLine(id=self.new_id("CLN"), cart_id=cart.id, item_id=item.id, option=line.option,
                                     quantity=line.quantity))
            else:
                existing.quantity = min(MAX_QUANTITY, existing.quantity + line.quantity)
        self.db.flush()
        return {**self._cart(cart), "skipped": skipped}

    # -- hidden ----------------------------------------------------------------------------------------

    @tool(read_only=True, hidden=True)
    def count_orders(self) -> dict:
        """Debugging only: how many orders each restaurant has received."""
        return dict(self.rows("SELECT restaurant_id, count(*) FROM orders GROUP BY restaurant_id ORDER BY 1"))

    # -- the world's rules -----------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """Orders (totals = items + delivery fee - promo discount + tip, promo rules, the stage a
        cancellation or a rating needs), carts (one per customer and restaurant, never empty, lines of
        that restaurant's menu), saved address labels, and times."""
        problems = self.after_now(Order.placed_at, Order.cancelled_at)
        problems += self._order_problems()
        problems += self._cart_problems()
        for cid, label, n in self.rows("SELECT customer_id, lower(label), count(*) FROM addresses "
                                       "GROUP BY customer_id, lower(label) HAVING count(*) > 1"):
            problems.append(f"customer {cid} has {n} addresses labelled {label!r}")
        for code, pct, amount in self.rows("SELECT code, percent_off, amount_off FROM promos"):
            if (pct is None) == (amount is None):
                problems.append(f"promo {code}: gives both or neither of a percentage and an amount off")
        return problems

    def _order_problems(self) -> list[str]:
        problems = []
        lines: dict[str, list[tuple]] = {}
        for order_id, restaurant_id, quantity, unit_price, option, options in self.rows(
                "SELECT l.order_id, m.restaurant_id, l.quantity, l.unit_price, l.option, m.options "
                "FROM order_lines l JOIN menu_items m ON m.id = l.item_id"):
            lines.setdefault(order_id, []).append((restaurant_id, quantity, unit_price, option, options))
        promos = {p.code: p for p in self.db.scalars(select(Promo))}
        used: set[tuple[str, str]] = set()
        for (oid, customer_id, restaurant_id, owner, placed, subtotal, fee, discount, tip, total, code, cancelled,
             rating, comment) in self.rows(
                "SELECT o.id, o.customer_id, o.restaurant_id, a.customer_id, o.placed_at, o.subtotal, o.delivery_fee, "
                "o.discount, o.tip, o.total, o.promo_code, o.cancelled_at, o.rating, o.comment FROM orders o "
                "JOIN addresses a ON a.id = o.address_id ORDER BY o.id"):
            where = f"order {oid}"
            placed_at = dt.datetime.fromisoformat(placed)
            if owner != customer_id:
                problems.append(f"{where} of {customer_id} goes to an address of {owner}")
            mine = lines.get(oid, [])
            if not mine:
                problems.append(f"{where} has no items")
            for rid, quantity, _, option, options in mine:
                if rid != restaurant_id or not 1 <= quantity <= MAX_QUANTITY or not _offers(options, option):
                    problems.append(f"{where}: a line of {quantity} from {rid} with option {option!r}")
            if subtotal != round(sum(q * price for _, q, price, _, _ in mine), 2):
                problems.append(f"{where}: subtotal {subtotal} is not the sum of its items")
            if not 0 <= tip <= MAX_TIP or fee < 0:
                problems.append(f"{where}: tip {tip}, delivery fee {fee}")
            if total != _total(subtotal, fee, discount, tip):
                problems.append(f"{where}: total {total} is not {subtotal} + {fee} - {discount} + {tip}")
            promo = promos.get(code) if code is not None else None
            if code is None and discount != 0:
                problems.append(f"{where}: a discount of {discount} without a promo code")
            elif code is not None and (promo is None or discount != _promo_off(promo, subtotal)
                                       or subtotal < promo.min_subtotal or promo.expires_on < placed_at.date()
                                       or promo.restaurant_id not in (None, restaurant_id)):
                problems.append(f"{where}: promo {code} does not give a discount of {discount} on this order")
            if promo is not None and promo.once_per_customer and cancelled is None:
                if (customer_id, code) in used:
                    problems.append(f"{where}: {customer_id} used the once-per-customer promo {code} again")
                used.add((customer_id, code))
            if cancelled is not None:
                minutes = (dt.datetime.fromisoformat(cancelled) - placed_at).total_seconds() / 60
                if not 0 <= minutes < _STAGE_MINUTES["preparing"]:
                    problems.append(f"{where}: cancelled {minutes:g} minutes after it was placed, not before "
                                    "the kitchen started preparing it")
            delivered = cancelled is None and self._stage_at(placed_at) == "delivered"
            if rating is not None and (not delivered or not 1 <= rating <= 5):
                problems.append(f"{where}: rated {rating} but it is {'delivered' if delivered else 'not delivered'}")
            if comment is not None and rating is None:
                problems.append(f"{where}: a comment without a rating")
        return problems

    def _cart_problems(self) -> list[str]:
        problems = []
        for cid, rid, n in self.rows("SELECT customer_id, restaurant_id, count(*) FROM carts "
                                     "GROUP BY customer_id, restaurant_id HAVING count(*) > 1"):
            problems.append(f"customer {cid} has {n} carts at {rid}")
        for (cart_id,) in self.rows("SELECT id FROM carts WHERE id NOT IN (SELECT cart_id FROM cart_lines)"):
            problems.append(f"cart {cart_id} is empty but open")
        seen: set[tuple] = set()
        for cart_id, lid, cart_restaurant, item_restaurant, item_id, option, options, quantity in self.rows(
                "SELECT l.cart_id, l.id, c.restaurant_id, m.restaurant_id, l.item_id, l.option, m.options, l.quantity "
                "FROM cart_lines l JOIN carts c ON c.id = l.cart_id JOIN menu_items m ON m.id = l.item_id"):
            if cart_restaurant != item_restaurant or not 1 <= quantity <= MAX_QUANTITY or not _offers(options, option):
                problems.append(f"cart {cart_id} line {lid}: {quantity} of {item_id} from {item_restaurant} "
                                f"with option {option!r}")
            if (cart_id, item_id, option) in seen:
                problems.append(f"cart {cart_id} holds {item_id} with option {option!r} on two lines")
            seen.add((cart_id, item_id, option))
        return problems

    # -- helpers ---------------------------------------------------------------------------------------

    def _is_open(self, r: Restaurant) -> bool:
        return _open_at(r.opens_at, r.closes_at, self.now)

    def _stage(self, order: Order) -> str:
        if order.cancelled_at is not None:
            return "cancelled"
        return self._stage_at(order.placed_at)

    def _stage_at(self, placed_at: dt.datetime) -> str:
        elapsed = (self.now - placed_at).total_seconds() / 60
        return [stage for stage, m in STAGES if elapsed >= m][-1]

    def _restaurant(self, r: Restaurant) -> dict:
        return self._restaurant_row(r.id, r.name, r.cuisine, r.rating, r.opens_at, r.closes_at, r.delivery_radius,
                                    r.delivery_fee)

    def _restaurant_row(self, rid: str, name: str, cuisine: str, rating: float, opens: int, closes: int,
                        radius: float, fee: float) -> dict:
        is_open = _open_at(opens, closes, self.now)
        return {"restaurant_id": rid, "name": name, "cuisine": cuisine, "rating": rating,
                "hours": f"{_hhmm(opens)}-{_hhmm(closes)}", "open_now": is_open,
                "delivery_radius_miles": radius, "delivery_fee": fee}

    def _cart(self, cart: Cart) -> dict:
        return self._cart_info(cart.id, cart.customer_id, cart.restaurant_id)

    def _cart_info(self, cart_id: str, customer_id: str, restaurant_id: str) -> dict:
        (name,), = self.rows("SELECT name FROM restaurants WHERE id = ?", restaurant_id)
        lines, subtotal = [], 0.0
        for item_id, item_name, base, options, available, option, quantity in self.rows(
                "SELECT m.id, m.name, m.price, m.options, m.available, l.option, l.quantity FROM cart_lines l "
                "JOIN menu_items m ON m.id = l.item_id WHERE l.cart_id = ? ORDER BY l.id", cart_id):
            price = _priced(base, options, option)
            subtotal += price * quantity
            lines.append({"item_id": item_id, "name": item_name, "option": option, "quantity": quantity,
                          "unit_price": price, "available": bool(available)})
        return {"cart_id": cart_id, "customer_id": customer_id, "restaurant_id": restaurant_id, "restaurant": name,
                "lines": lines, "subtotal": round(subtotal, 2)}

    def _order(self, order: Order, lines: bool = False) -> dict:
        r = self.db.get(Restaurant, order.restaurant_id)
        info = {"order_id": order.id, "restaurant_id": r.id, "restaurant": r.name, "address_id": order.address_id,
                "placed_at": order.placed_at, "status": self._stage(order), "subtotal": order.subtotal,
                "delivery_fee": order.delivery_fee, "discount": order.discount, "tip": order.tip,
                "total": order.total, "promo_code": order.promo_code, "rating": order.rating}
        if lines:
            info["items"] = [{"item_id": item, "name": name, "option": option, "quantity": quantity,
                              "unit_price": price}
                             for item, name, option, quantity, price in self.rows(
                                 "SELECT item_id, name, option, quantity, unit_price FROM order_lines "
                                 "WHERE order_id = ? ORDER BY id", order.id)]
        return info

    def _option(self, item: MenuItem, option: str | None) -> str | None:
        if option is None or not option.strip():
            return None
        offered = {o.split(":")[0].lower(): o.split(":")[0] for o in item.options.split(";") if o}
        if option.strip().lower() not in offered:
            raise ToolError(f"{item.name} has no option {option!r}; its options: "
                            f"{', '.join(offered.values()) or 'none'}")
        return offered[option.strip().lower()]

    def _promo(self, code: str) -> Promo:
        promo = self.db.get(Promo, code.strip().upper())
        if promo is None:
            raise ToolError(f"Promo code {code!r} does not exist")
        return promo

    def _discount(self, promo: Promo, customer_id: str, restaurant_id: str, subtotal: float) -> float:
        if promo.expires_on < self.now.date():
            raise ToolError(f"Promo code {promo.code} expired on {promo.expires_on.isoformat()}")
        if promo.restaurant_id and promo.restaurant_id != restaurant_id:
            name = self.db.get(Restaurant, promo.restaurant_id).name
            raise ToolError(f"Promo code {promo.code} is valid only at {name}")
        if subtotal < promo.min_subtotal:
            raise ToolError(f"Promo code {promo.code} needs a subtotal of at least {promo.min_subtotal:.2f}; "
                            f"the cart comes to {subtotal:.2f}")
        if promo.once_per_customer and self.db.scalar(select(Order.id).where(
                Order.customer_id == customer_id, Order.promo_code == promo.code, Order.cancelled_at.is_(None))):
            raise ToolError(f"Promo code {promo.code} can be used once per customer and was already used")
        return _promo_off(promo, subtotal)

    def _tip(self, tip: float) -> float:
        if not 0 <= tip <= MAX_TIP:
            raise ToolError(f"tip must be 0 to {MAX_TIP:.0f} dollars, got {tip}")
        if round(tip, 2) != tip:
            raise ToolError(f"tip must have at most two decimals, got {tip}")
        return float(tip)


def _total(subtotal: float, delivery_fee: float, discount: float, tip: float) -> float:
    """What an order costs: its items plus the delivery fee, less the promo discount, plus the tip."""
    return round(subtotal + delivery_fee - discount + tip, 2)


def _promo_off(promo: Promo, subtotal: float) -> float:
    off = promo.amount_off if promo.amount_off is not None else subtotal * (promo.percent_off or 0) / 100
    return round(min(off, subtotal), 2)


def _address(a: Address) -> dict:
    return {"address_id": a.id, "customer_id": a.customer_id, "label": a.label, "street": a.street,
            "neighborhood": a.neighborhood}


_RESTAURANT_COLUMNS = "id, name, cuisine, rating, opens_at, closes_at, delivery_radius, delivery_fee"


def _menu_row(restaurant_id: str, item_id: str, name: str, category: str, price: float, options: str,
              available: int) -> dict:
    offered = [{"name": o.split(":")[0], "extra": float(o.split(":")[1])} for o in options.split(";") if o]
    return {"item_id": item_id, "restaurant_id": restaurant_id, "name": name, "category": category,
            "price": price, "options": offered, "available": bool(available)}


def _offers(options: str, option: str | None) -> bool:
    """Whether an item with these options ('Large:4.0;Extra cheese:2.0') offers the option (None: plain)."""
    return option is None or option in [o.split(":")[0] for o in options.split(";") if o]


def _price(item: MenuItem, option: str | None) -> float:
    return _priced(item.price, item.options, option)


def _priced(price: float, options: str, option: str | None) -> float:
    """An item's price with the extra of the option chosen ('Large:4.0;Extra cheese:2.0')."""
    extra = 0.0
    for o in options.split(";"):
        if option and o.split(":")[0] == option:
            extra = float(o.split(":")[1])
    return round(price + extra, 2)


def _open_at(opens: int, closes: int, now: dt.datetime) -> bool:
    """Whether hours from `opens` to `closes` (minutes after midnight; closing after midnight when
    closes < opens) include the time of `now`."""
    m = now.hour * 60 + now.minute
    return opens <= m < closes if opens <= closes else (m >= opens or m < closes)


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


assert set(NEIGHBORHOODS) == set(Neighborhood.__args__)
