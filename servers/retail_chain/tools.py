"""The retail chain's tools: stores, the catalogue, per-store stock and prices, transfers between
stores, pick-up reservations and restock orders.

Rules, in one place:
- A store's *available* stock of a product is what it has on hand minus what active pick-up
  reservations hold. A reservation holds stock for 48 hours; once expired it holds nothing and
  cannot be collected or cancelled.
- A transfer never sends more than the source has available. Its stock leaves the source at once
  and is in transit until the destination receives it.
- A store closed for renovation takes no transfers (either way), reservations or restock orders.
- Discontinued products are sold while stock lasts and are never reordered; a store has at most
  one placed restock order per product.
- A store may sell a product at or below the chain's list price, never above it.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Detail, Entity, Id, Limit, Money, Toolkit, ToolError, tool

from .models import Base, Product, Reservation, RestockOrder, Stock, Store, Transfer
from .seed import CITIES, seed

HOLD = dt.timedelta(hours=48)
MAX_RESERVE = 5
MAX_TRANSFER = 100
MAX_RESTOCK = 200
RESTOCK_LEAD_DAYS = 5
NEW_LINE_REORDER_POINT = 4
ReservationStatus = Literal["active", "expired", "collected", "cancelled"]


class RetailChain(Toolkit):
    """A home and hardware retail chain: find stores by city or name and products by name, check each
    store's stock and prices, find the nearest store with enough in stock, move stock between stores,
    hold stock for customers to pick up, and order restocks. Available stock is what is on hand minus
    what live pick-up reservations hold."""

    name = "retail_chain"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("store", Store, "STR", lookup="find_stores"),
        Entity("product", Product, "PRD", lookup="search_products"),
        Entity("transfer", Transfer, "TRF", lookup="list_transfers"),
        Entity("reservation", Reservation, "RSV", lookup="list_reservations"),
        Entity("restock", RestockOrder, "RST", lookup="list_restock_orders"),
    )

    # -- stores ----------------------------------------------------------------------------------

    @tool(read_only=True)
    def find_stores(self, city: str | None = None, name: str | None = None, limit: Limit = 20) -> list[dict]:
        """Find the chain's stores in a city or by name, ordered by city and name; all stores without either.

        Args:
            city: the city, ignoring case, such as 'Portland'.
            name: part of the store's name (its neighbourhood), ignoring case, such as 'Pearl District'.
        """
        where, params = [], []
        if city and city.strip():
            where.append("lower(city) = ?")
            params.append(city.strip().lower())
        if name and name.strip():
            where.append("instr(lower(name), ?) > 0")
            params.append(name.strip().lower())
        rows = self.rows(f"SELECT {STORE_COLUMNS} FROM stores WHERE {' AND '.join(where) or '1'} "
                         "ORDER BY city, name LIMIT ?", *params, limit)
        return [_store_row(r) for r in rows]

    @tool(read_only=True)
    def get_store(self, store_id: Id("store")) -> dict:
        """Return one store in full: address, phone, coordinates, opening hours, status and manager."""
        store = self.get(Store, store_id)
        sunday = f"{store.sunday_opens}-{store.sunday_closes}" if store.sunday_opens else "closed"
        return {**_store(store), "zip_code": store.zip_code, "phone": store.phone, "latitude": store.latitude,
                "longitude": store.longitude, "hours": {"monday_to_saturday": f"{store.opens}-{store.closes}",
                                                        "sunday": sunday},
                "manager": store.manager}

    # -- catalogue and stock ---------------------------------------------------------------------

    @tool(read_only=True)
    def search_products(self, name: str | None = None, category: str | None = None, limit: Limit = 20) -> list[dict]:
        """Search the chain-wide catalogue by name (or brand) and category, ordered by name.

        Args:
            name: part of the product's name or brand, ignoring case, such as 'drill' or 'DeWalt'.
            category: the category, ignoring case, such as 'Power tools', 'Paint' or 'Garden'.
        """
        where, params = [], []
        if name and name.strip():
            text = name.strip().lower()
            where.append("(instr(lower(name), ?) > 0 OR instr(lower(brand), ?) > 0)")
            params += [text, text]
        if category and category.strip():
            where.append("lower(category) = ?")
            params.append(category.strip().lower())
        rows = self.rows("SELECT id, name, category, brand, sku, list_price, discontinued FROM products "
                         f"WHERE {' AND '.join(where) or '1'} ORDER BY name LIMIT ?", *params, limit)
        return [{"product_id": r[0], "name": r[1], "category": r[2], "brand": r[3], "sku": r[4], "list_price": r[5],
                 "discontinued": bool(r[6])} for r in rows]

    @tool(read_only=True)
    def get_stock(self, store_id: Id("store"), product_id: Id("product")) -> dict:
        """Return a store's stock and price of one product: on hand, held for pick-up, available, and on order.

        A store that does not carry the product answers carried false and 0 available.
        """
        store = self.get(Store, store_id)
        product = self.get(Product, product_id)
        [(on_order, held)] = self.rows(
            "SELECT (SELECT coalesce(sum(quantity), 0) FROM restock_orders WHERE store_id = ?1 AND product_id = ?2 "
            "AND status = 'placed'), (SELECT coalesce(sum(quantity), 0) FROM reservations WHERE store_id = ?1 "
            "AND product_id = ?2 AND status = 'active' AND expires_at > ?3)", store.id, product.id, self._stamp())
        line = self.rows("SELECT on_hand, price, reorder_point FROM stock WHERE store_id = ? AND product_id = ?",
                         store.id, product.id)
        if not line:
            return {"store_id": store.id, "product_id": product.id, "product": product.name, "carried": False,
                    "on_hand": 0, "held": 0, "available": 0, "on_order": on_order, "price": None}
        on_hand, price, reorder_point = line[0]
        return {"store_id": store.id, "product_id": product.id, "product": product.name, "carried": True,
                "on_hand": on_hand, "held": held, "available": on_hand - held, "on_order": on_order,
                "price": price, "list_price": product.list_price, "reorder_point": reorder_point}

    @tool(read_only=True, produces=("product",))
    def list_store_stock(self, store_id: Id("store"), category: str | None = None, in_stock_only: bool = False,
                         limit: Limit = 50) -> list[dict]:
        """List the products a store carries with their price and available stock, ordered by product name.

        Args:
            category: only this category, ignoring case, such as 'Garden'.
            in_stock_only: only products with at least one available (default false).
        """
        store = self.get(Store, store_id)
        rows = [row for row in self._lines(store.id, category) if not in_stock_only or row["available"] > 0]
        for row in rows:
            del row["reorder_point"], row["discontinued"]
        return rows[:limit]

    @tool(read_only=True, produces=("product",))
    def low_stock_report(self, store_id: Id("store")) -> list[dict]:
        """List a store's products whose available stock is at or below their reorder point, fewest first.

        Each row says how many are on order from placed restock orders; discontinued products are
        marked, since they cannot be reordered.
        """
        store = self.get(Store, store_id)
        # A store holds few lines for pick-up: `held` is scanned (`+`), which costs less than the index
        # SQLite would otherwise build on it for every report.
        rows = self.rows(
            "SELECT p.id, p.name, p.category, k.price, p.list_price, k.on_hand, "
            "k.on_hand - coalesce(held.n, 0) AS available, k.reorder_point, (SELECT coalesce(sum(quantity), 0) "
            "FROM restock_orders WHERE store_id = ?1 AND product_id = p.id AND status = 'placed'), p.discontinued "
            "FROM stock k JOIN products p ON p.id = k.product_id "
            "LEFT JOIN (SELECT product_id, sum(quantity) AS n FROM reservations WHERE store_id = ?1 "
            "  AND status = 'active' AND expires_at > ?2 GROUP BY product_id) held ON +held.product_id = k.product_id "
            "WHERE k.store_id = ?1 AND available <= k.reorder_point ORDER BY available, p.name",
            store.id, self._stamp())
        return [{"product_id": r[0], "product": r[1], "category": r[2], "price": r[3], "list_price": r[4],
                 "on_hand": r[5], "available": r[6], "reorder_point": r[7], "on_order": r[8],
                 "discontinued": bool(r[9])} for r in rows]

    @tool(read_only=True, produces=("store",))
    def find_nearest_stock(self, product_id: Id("product"), quantity: int = 1, city: str | None = None,
                           latitude: float | None = None, longitude: float | None = None, limit: Limit = 5) -> list[dict]:
        """Find the open stores nearest to a city or to coordinates with at least `quantity` of a product available.

        Give either a city the chain serves or both latitude and longitude, not both: results are
        ordered by distance in kilometres (straight line). With neither, every such store, the most
        available first, with no distance.

        Args:
            quantity: the least number available, from 1 (default 1), such as 4.
            city: a city the chain has stores in, ignoring case, such as 'Seattle'; its centre is the origin.
            latitude: the origin's latitude in degrees, such as 45.52.
            longitude: the origin's longitude in degrees, such as -122.68.
        """
        product = self.get(Product, product_id)
        if quantity < 1:
            raise ToolError(f"quantity must be at least 1, got {quantity}")
        origin = self._origin(city, latitude, longitude)
        held = dict(self.rows("SELECT store_id, sum(quantity) FROM reservations WHERE product_id = ? "
                              "AND status = 'active' AND expires_at > ? GROUP BY store_id", product.id, self._stamp()))
        found = []
        for row in self.rows(f"SELECT {STORE_COLUMNS}, latitude, longitude, k.on_hand, k.price FROM stock k "
                             "JOIN stores ON stores.id = k.store_id WHERE k.product_id = ? AND stores.status = 'open' "
                             "AND k.on_hand >= ?", product.id, quantity):
            available = row[8] - held.get(row[0], 0)
            if available >= quantity:
                distance = round(_km(origin, (row[6], row[7])), 1) if origin is not None else None
                found.append({**_store_row(row), "distance_km": distance, "available": available, "price": row[9]})
        found.sort(key=(lambda r: (r["distance_km"], r["store_id"])) if origin is not None
                   else (lambda r: (-r["available"], r["store_id"])))
        return found[:limit]

    @tool(idempotent=True)
    def set_store_price(self, store_id: Id("store"), product_id: Id("product"), price: Money) -> dict:
        """Set a store's selling price of a product it carries, at or below the chain's list price.

        Args:
            price: the new price in dollars, greater than 0 with at most two decimals, such as 109.99.
        """
        store = self.get(Store, store_id)
        product = self.get(Product, product_id)
        line = self._carried(store, product)
        if price > product.list_price:
            raise ToolError(f"{price:.2f} is above the chain's list price of {product.name} ({product.list_price:.2f}); "
                            "stores may only sell at or below it")
        line.price = price
        return {"store_id": store.id, "product_id": product.id, "product": product.name, "price": price,
                "list_price": product.list_price}

    # -- transfers -------------------------------------------------------------------------------

    @tool(produces=("transfer",))
    def transfer_stock(self, product_id: Id("product"), from_store_id: Id("store"), to_store_id: Id("store"),
                       quantity: int) -> dict:
        """Send stock of a product from one store to another. It leaves the source now and is in transit
        until the destination receives it (receive_transfer).

        The source must have at least `quantity` available (on hand minus pick-up holds); both stores
        must be open.

        Args:
            from_store_id: the sending store's id, such as 'STR-0004'.
            to_store_id: the receiving store's id, such as 'STR-0011'.
            quantity: how many units, from 1 to 100, such as 6.
        """
        product = self.get(Product, product_id)
        source = self.get(Store, from_store_id)
        target = self.get(Store, to_store_id)
        if source.id == target.id:
            raise ToolError("A transfer needs two different stores")
        if not 1 <= quantity <= MAX_TRANSFER:
            raise ToolError(f"quantity must be 1 to {MAX_TRANSFER}, got {quantity}")
        self._open(source, "send transfers")
        self._open(target, "receive transfers")
        line = self.db.get(Stock, (source.id, product.id))
        if line is None:
            raise ToolError(f"{_label(source)} does not carry {product.name}; find_nearest_stock finds stores "
                            "that have it")
        available = line.on_hand - self._held(source.id, product.id)
        if quantity > available:
            raise ToolError(f"{_label(source)} has only {available} {product.name} available (on hand {line.on_hand}, "
                            f"the rest held for pick-up); send at most {available}, or use find_nearest_stock "
                            f"for a store with at least {quantity}")
        line.on_hand -= quantity
        transfer = Transfer(id=self.new_id("TRF"), product_id=product.id, from_store_id=source.id,
                            to_store_id=target.id, quantity=quantity, status="in_transit", created_at=self.now,
                            received_at=None)
        self.db.add(transfer)
        return {**self._transfer(transfer, product, source, target), "source_on_hand": line.on_hand}

    @tool(read_only=True)
    def list_transfers(self, store_id: Id("store"), direction: Literal["incoming", "outgoing"] | None = None,
                       status: Literal["in_transit", "received"] | None = None, limit: Limit = 20) -> list[dict]:
        """List the transfers into and out of a store, newest first.

        Args:
            direction: only 'incoming' (to this store) or 'outgoing' (from it); both when left out.
            status: only transfers 'in_transit' or 'received'.
        """
        store = self.get(Store, store_id)
        where = {"incoming": "t.to_store_id = ?1", "outgoing": "t.from_store_id = ?1"}.get(
            direction or "", "(t.to_store_id = ?1 OR t.from_store_id = ?1)")
        params: list = [store.id]
        if status:
            where += " AND t.status = ?2"
            params.append(status)
        rows = self.rows(
            "SELECT t.id, t.product_id, p.name, t.quantity, t.from_store_id, a.name, a.city, t.to_store_id, b.name, "
            "b.city, t.status, t.created_at, t.received_at FROM transfers t JOIN products p ON p.id = t.product_id "
            "JOIN stores a ON a.id = t.from_store_id JOIN stores b ON b.id = t.to_store_id "
            f"WHERE {where} ORDER BY t.created_at DESC, t.id DESC LIMIT {int(limit)}", *params)
        return [{"transfer_id": r[0], "product_id": r[1], "product": r[2], "quantity": r[3], "from_store_id": r[4],
                 "from_store": f"{r[5]} ({r[6]})", "to_store_id": r[7], "to_store": f"{r[8]} ({r[9]})",
                 "status": r[10], "created_at": _moment(r[11]), "received_at": _moment(r[12])} for r in rows]

    @tool()
    def receive_transfer(self, transfer_id: Id("transfer")) -> dict:
        """Check an in-transit transfer in at its destination store: its units join that store's stock.

        A transfer is received once: receiving it again is refused, since its units are already counted.
        """
        transfer = self.get(Transfer, transfer_id)
        if transfer.status != "in_transit":
            raise ToolError(f"Transfer {transfer.id} was already received on {transfer.received_at:%Y-%m-%d}")
        product = self.get(Product, transfer.product_id)
        target = self.get(Store, transfer.to_store_id)
        line = self._line_for(target, product)
        line.on_hand += transfer.quantity
        transfer.status, transfer.received_at = "received", self.now
        return {**self._transfer(transfer, product, self.get(Store, transfer.from_store_id), target),
                "destination_on_hand": line.on_hand}

    # -- reservations ----------------------------------------------------------------------------

    @tool(produces=("reservation",), details=(Detail("reservations", "note"),))
    def reserve_for_pickup(self, store_id: Id("store"), product_id: Id("product"), quantity: int,
                           customer_name: str, note: str | None = None) -> dict:
        """Hold stock at a store for a customer to pick up; the hold lasts 48 hours.

        The store must be open and have at least `quantity` available; at most 5 units per reservation.

        Args:
            quantity: how many units, from 1 to 5, such as 2.
            customer_name: the customer's full name, such as 'Maya Lopez'.
            note: an optional note for the pick-up counter, such as 'Paid online'.
        """
        store = self.get(Store, store_id)
        product = self.get(Product, product_id)
        name = " ".join(customer_name.split())
        if not name:
            raise ToolError("customer_name must not be empty")
        if not 1 <= quantity <= MAX_RESERVE:
            raise ToolError(f"quantity must be 1 to {MAX_RESERVE} per reservation, got {quantity}")
        self._open(store, "take reservations")
        line = self.db.get(Stock, (store.id, product.id))
        available = 0 if line is None else line.on_hand - self._held(store.id, product.id)
        if quantity > available:
            raise ToolError(f"{_label(store)} has only {available} {product.name} available; reserve at most "
                            f"{available}, or use find_nearest_stock for a store with at least {quantity}")
        reservation = Reservation(id=self.new_id("RSV"), store_id=store.id, product_id=product.id,
                                  customer_name=name, quantity=quantity, note=(note or "").strip() or None,
                                  status="active", created_at=self.now,
                                  expires_at=self.now + HOLD, closed_at=None)
        self.db.add(reservation)
        return self._reservation(reservation, product, store)

    @tool(read_only=True)
    def list_reservations(self, store_id: Id("store"), status: ReservationStatus | None = None,
                          customer_name: str | None = None, limit: Limit = 20) -> list[dict]:
        """List a store's pick-up reservations, newest first.

        Args:
            status: only 'active' (still held), 'expired' (not collected in time), 'collected' or 'cancelled'.
            customer_name: part of the customer's name, ignoring case, such as 'Lopez'.
        """
        store = self.get(Store, store_id)
        now = self._stamp()
        where, params = ["r.store_id = ?"], [store.id]
        if status == "active":
            where.append("r.status = 'active' AND r.expires_at > ?")
            params.append(now)
        elif status == "expired":
            where.append("r.status = 'active' AND r.expires_at <= ?")
            params.append(now)
        elif status:
            where.append("r.status = ?")
            params.append(status)
        if customer_name and customer_name.strip():
            where.append("instr(lower(r.customer_name), ?) > 0")
            params.append(customer_name.strip().lower())
        rows = self.rows("SELECT r.id, r.product_id, p.name, r.customer_name, r.quantity, r.note, r.status, "
                         "r.created_at, r.expires_at FROM reservations r JOIN products p ON p.id = r.product_id "
                         f"WHERE {' AND '.join(where)} ORDER BY r.created_at DESC, r.id DESC LIMIT ?", *params, limit)
        return [{"reservation_id": r[0], "store_id": store.id, "product_id": r[1], "product": r[2],
                 "customer_name": r[3], "quantity": r[4], "note": r[5],
                 "status": "expired" if r[6] == "active" and r[8] <= now else r[6],
                 "created_at": _moment(r[7]), "expires_at": _moment(r[8])} for r in rows]

    @tool()
    def collect_reservation(self, reservation_id: Id("reservation")) -> dict:
        """Hand a reservation's units to the customer: they leave the store's stock and the hold ends.

        A reservation is collected once: collecting it again is refused, since its units already left.
        """
        reservation = self._live(self.get(Reservation, reservation_id), "collected")
        line = self.db.get(Stock, (reservation.store_id, reservation.product_id))
        line.on_hand -= reservation.quantity
        reservation.status, reservation.closed_at = "collected", self.now
        return self._reservation(reservation, self.get(Product, reservation.product_id),
                                 self.get(Store, reservation.store_id))

    @tool(idempotent=True)
    def cancel_reservation(self, reservation_id: Id("reservation")) -> dict:
        """Cancel an active reservation: its units are available again.

        A reservation already cancelled stays as it is, and the result says so; a collected or expired one
        cannot be cancelled.
        """
        reservation = self.get(Reservation, reservation_id)
        product, store = self.get(Product, reservation.product_id), self.get(Store, reservation.store_id)
        if reservation.status == "cancelled":
            return {**self._reservation(reservation, product, store),
                    "note": f"Reservation {reservation.id} was already cancelled on {reservation.closed_at:%Y-%m-%d}"}
        self._live(reservation, "cancelled")
        reservation.status, reservation.closed_at = "cancelled", self.now
        return self._reservation(reservation, product, store)

    # -- restock orders --------------------------------------------------------------------------

    @tool(produces=("restock",))
    def create_restock_order(self, store_id: Id("store"), product_id: Id("product"), quantity: int) -> dict:
        """Order more of a product from the distribution centre for a store; it is expected in 5 days.

        Discontinued products cannot be reordered, a closed store cannot order, and a store has at most
        one placed order per product.

        Args:
            quantity: how many units, from 1 to 200, such as 24.
        """
        store = self.get(Store, store_id)
        product = self.get(Product, product_id)
        if not 1 <= quantity <= MAX_RESTOCK:
            raise ToolError(f"quantity must be 1 to {MAX_RESTOCK}, got {quantity}")
        self._open(store, "order restocks")
        if product.discontinued:
            raise ToolError(f"{product.name} is discontinued and cannot be reordered; it is sold while stock lasts "
                            "(transfer_stock can move existing units between stores)")
        pending = self.db.scalar(select(RestockOrder).where(
            RestockOrder.store_id == store.id, RestockOrder.product_id == product.id, RestockOrder.status == "placed"))
        if pending is not None:
            raise ToolError(f"{_label(store)} already has restock order {pending.id} placed for {pending.quantity} "
                            f"{product.name}; receive or cancel it before ordering again")
        order = RestockOrder(id=self.new_id("RST"), store_id=store.id, product_id=product.id, quantity=quantity,
                             status="placed", created_at=self.now,
                             expected_on=(self.now + dt.timedelta(days=RESTOCK_LEAD_DAYS)).date(), delivered_at=None)
        self.db.add(order)
        return self._restock(order, product, store)

    @tool(read_only=True)
    def list_restock_orders(self, store_id: Id("store"), status: Literal["placed", "delivered", "cancelled"] | None = None,
                            limit: Limit = 20) -> list[dict]:
        """List a store's restock orders, newest first.

        Args:
            status: only 'placed' (still expected), 'delivered' or 'cancelled' orders.
        """
        store = self.get(Store, store_id)
        where, params = "o.store_id = ?", [store.id]
        if status:
            where += " AND o.status = ?"
            params.append(status)
        rows = self.rows("SELECT o.id, o.product_id, p.name, o.quantity, o.status, o.created_at, o.expected_on, "
                         "o.delivered_at FROM restock_orders o JOIN products p ON p.id = o.product_id "
                         f"WHERE {where} ORDER BY o.created_at DESC, o.id DESC LIMIT ?", *params, limit)
        return [{"restock_id": r[0], "store_id": store.id, "product_id": r[1], "product": r[2], "quantity": r[3],
                 "status": r[4], "created_at": _moment(r[5]), "expected_on": dt.date.fromisoformat(r[6]),
                 "delivered_at": _moment(r[7])} for r in rows]

    @tool()
    def receive_restock_order(self, restock_id: Id("restock")) -> dict:
        """Check a placed restock order in as delivered: its units join the store's stock.

        An order is delivered once: receiving it again is refused, since its units are already counted.
        """
        order = self._placed(self.get(RestockOrder, restock_id), "received")
        product, store = self.get(Product, order.product_id), self.get(Store, order.store_id)
        line = self._line_for(store, product)
        line.on_hand += order.quantity
        order.status, order.delivered_at = "delivered", self.now
        return {**self._restock(order, product, store), "on_hand": line.on_hand}

    @tool(idempotent=True)
    def cancel_restock_order(self, restock_id: Id("restock")) -> dict:
        """Cancel a placed restock order that has not been delivered.

        An order already cancelled stays as it is, and the result says so; a delivered one cannot be cancelled.
        """
        order = self.get(RestockOrder, restock_id)
        product, store = self.get(Product, order.product_id), self.get(Store, order.store_id)
        if order.status == "cancelled":
            return {**self._restock(order, product, store), "note": f"Restock order {order.id} was already cancelled"}
        self._placed(order, "cancelled")
        order.status = "cancelled"
        return self._restock(order, product, store)

    # -- hidden ----------------------------------------------------------------------------------

    @tool(read_only=True, hidden=True)
    def chain_stock_totals(self) -> dict:
        """Debugging only: units on hand across the whole chain, and units in transit."""
        on_hand = self.db.scalar(select(func.coalesce(func.sum(Stock.on_hand), 0)))
        moving = self.db.scalar(select(func.coalesce(func.sum(Transfer.quantity), 0)).where(
            Transfer.status == "in_transit"))
        return {"on_hand": on_hand, "in_transit": moving}

    def invariants(self) -> list[str]:
        """Stock is never negative and live holds never exceed what is on hand; prices are positive and at or
        below the list price; each movement's state matches its record (received transfers have a receipt
        time, closed reservations a closing time, delivered orders a delivery time); a store has at most one
        placed restock order per product and none for a discontinued product; nothing recorded after the
        clock."""
        problems = [f"stock line {s.store_id}/{s.product_id} has {s.on_hand} on hand"
                    for s in self.db.scalars(select(Stock).where(Stock.on_hand < 0))]
        for (store_id, product_id), held in self._holds().items():
            line = self.db.get(Stock, (store_id, product_id))
            if line is None or held > line.on_hand:
                problems.append(f"{store_id}/{product_id}: {held} held for pick-up but "
                                f"{0 if line is None else line.on_hand} on hand")
        for line, list_price in self.db.execute(
                select(Stock, Product.list_price).join(Product, Product.id == Stock.product_id)
                .where((Stock.price <= 0) | (Stock.price > Product.list_price))):
            problems.append(f"stock line {line.store_id}/{line.product_id} sells at {line.price} "
                            f"(list price {list_price})")
        for t in self.db.scalars(select(Transfer)):
            if t.from_store_id == t.to_store_id or t.quantity < 1 or t.status not in ("in_transit", "received") \
                    or (t.status == "received") != (t.received_at is not None):
                problems.append(f"transfer {t.id} is {t.status} from {t.from_store_id} to {t.to_store_id} "
                                f"of {t.quantity}, received at {t.received_at}")
        for r in self.db.scalars(select(Reservation)):
            if r.status not in ("active", "collected", "cancelled") or (r.status == "active") != (r.closed_at is None) \
                    or not 1 <= r.quantity <= MAX_RESERVE:
                problems.append(f"reservation {r.id} is {r.status} for {r.quantity}, closed at {r.closed_at}")
        placed: set[tuple[str, str]] = set()
        for o, discontinued in self.db.execute(select(RestockOrder, Product.discontinued).join(
                Product, Product.id == RestockOrder.product_id)):
            if o.status not in ("placed", "delivered", "cancelled") \
                    or (o.status == "delivered") != (o.delivered_at is not None):
                problems.append(f"restock order {o.id} is {o.status}, delivered at {o.delivered_at}")
            if o.status == "placed":
                if (o.store_id, o.product_id) in placed:
                    problems.append(f"{o.store_id} has more than one placed restock order of {o.product_id}")
                if discontinued:
                    problems.append(f"restock order {o.id} is placed for discontinued {o.product_id}")
                placed.add((o.store_id, o.product_id))
        problems += self.after_now(Transfer.created_at, Transfer.received_at, Reservation.created_at,
                                   Reservation.closed_at, RestockOrder.created_at, RestockOrder.delivered_at)
        return problems

    # -- helpers ---------------------------------------------------------------------------------

    def _live_holds(self):
        return select(Reservation.store_id, Reservation.product_id, func.sum(Reservation.quantity)).where(
            Reservation.status == "active", Reservation.expires_at > self.now)

    def _holds(self) -> dict[tuple[str, str], int]:
        rows = self.db.execute(self._live_holds().group_by(Reservation.store_id, Reservation.product_id))
        return {(s, p): n for s, p, n in rows}

    def _held(self, store_id: str, product_id: str) -> int:
        return self.db.scalar(select(func.coalesce(func.sum(Reservation.quantity), 0)).where(
            Reservation.store_id == store_id, Reservation.product_id == product_id,
            Reservation.status == "active", Reservation.expires_at > self.now))

    def _stamp(self) -> str:
        """The frozen "now" as the database stores instants, for comparisons in SQL."""
        return self.now.strftime("%Y-%m-%d %H:%M:%S.%f")

    def _lines(self, store_id: str, category: str | None) -> list[dict]:
        """A store's lines, by product name, with what live pick-up holds leave available."""
        held = dict(self.rows("SELECT product_id, sum(quantity) FROM reservations WHERE store_id = ? "
                              "AND status = 'active' AND expires_at > ? GROUP BY product_id", store_id, self._stamp()))
        where, params = "k.store_id = ?", [store_id]
        if category and category.strip():
            where += " AND lower(p.category) = ?"
            params.append(category.strip().lower())
        rows = self.rows(
            "SELECT p.id, p.name, p.category, k.price, p.list_price, k.on_hand, k.reorder_point, p.discontinued "
            f"FROM stock k JOIN products p ON p.id = k.product_id WHERE {where} ORDER BY p.name", *params)
        return [{"product_id": r[0], "product": r[1], "category": r[2], "price": r[3], "list_price": r[4],
                 "on_hand": r[5], "available": r[5] - held.get(r[0], 0), "reorder_point": r[6],
                 "discontinued": bool(r[7])} for r in rows]

    def _origin(self, city: str | None, latitude: float | None, longitude: float | None) -> tuple[float, float] | None:
        """The point distances are measured from: a city's centre, the coordinates, or None for neither."""
        has_city = bool(city and city.strip())
        has_point = latitude is not None or longitude is not None
        if has_city and has_point:
            raise ToolError("Give either a city or both latitude and longitude, not both")
        if not (has_city or has_point):
            return None
        if has_city:
            for name, (_, _, lat, lon, _) in CITIES.items():
                if name.lower() == city.strip().lower():
                    return lat, lon
            raise ToolError(f"The chain has no stores in {city.strip()!r}; cities served: {', '.join(sorted(CITIES))}. "
                            "Give coordinates for other places")
        if latitude is None or longitude is None:
            raise ToolError("Give both latitude and longitude")
        if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
            raise ToolError(f"({latitude}, {longitude}) are not valid coordinates: latitude is -90 to 90, "
                            "longitude -180 to 180")
        return latitude, longitude

    def _open(self, store: Store, action: str) -> None:
        if store.status != "open":
            raise ToolError(f"{_label(store)} is closed for renovation and cannot {action}; pick an open store")

    def _carried(self, store: Store, product: Product) -> Stock:
        line = self.db.get(Stock, (store.id, product.id))
        if line is None:
            raise ToolError(f"{_label(store)} does not carry {product.name}; list_store_stock shows what it carries")
        return line

    def _line_for(self, store: Store, product: Product) -> Stock:
        """The store's line of a product, started at the list price when stock first arrives."""
        line = self.db.get(Stock, (store.id, product.id))
        if line is None:
            line = Stock(store_id=store.id, product_id=product.id, price=product.list_price, on_hand=0,
                         reorder_point=NEW_LINE_REORDER_POINT)
            self.db.add(line)
        return line

    def _live(self, reservation: Reservation, action: str) -> Reservation:
        if reservation.status != "active":
            raise ToolError(f"Reservation {reservation.id} is {reservation.status} and cannot be {action}")
        if reservation.expires_at <= self.now:
            raise ToolError(f"Reservation {reservation.id} expired at {reservation.expires_at:%Y-%m-%d %H:%M} and "
                            f"no longer holds stock, so it cannot be {action}; make a new reservation if the "
                            "store still has enough")
        return reservation

    def _placed(self, order: RestockOrder, action: str) -> RestockOrder:
        if order.status != "placed":
            raise ToolError(f"Restock order {order.id} is {order.status}; only placed orders can be {action}")
        return order

    def _transfer(self, t: Transfer, product: Product, source: Store, target: Store) -> dict:
        return {"transfer_id": t.id, "product_id": product.id, "product": product.name, "quantity": t.quantity,
                "from_store_id": source.id, "from_store": _label(source), "to_store_id": target.id,
                "to_store": _label(target), "status": t.status, "created_at": t.created_at,
                "received_at": t.received_at}

    def _reservation(self, r: Reservation, product: Product, store: Store) -> dict:
        status = "expired" if r.status == "active" and r.expires_at <= self.now else r.status
        return {"reservation_id": r.id, "store_id": store.id, "product_id": product.id, "product": product.name,
                "customer_name": r.customer_name, "quantity": r.quantity, "note": r.note, "status": status,
                "created_at": r.created_at, "expires_at": r.expires_at}

    def _restock(self, o: RestockOrder, product: Product, store: Store) -> dict:
        return {"restock_id": o.id, "store_id": store.id, "product_id": product.id, "product": product.name,
                "quantity": o.quantity, "status": o.status, "created_at": o.created_at,
                "expected_on": o.expected_on, "delivered_at": o.delivered_at}


def _label(store: Store) -> str:
    return f"{store.name} ({store.city})"


STORE_COLUMNS = "stores.id, stores.name, stores.city, stores.state, stores.address, stores.status"


def _store_row(r: tuple) -> dict:
    return {"store_id": r[0], "name": r[1], "city": r[2], "state": r[3], "address": r[4], "status": r[5]}


def _moment(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


def _store(store: Store) -> dict:
    return {"store_id": store.id, "name": store.name, "city": store.city, "state": store.state,
            "address": store.address, "status": store.status}


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 6371.0 * 2 * math.asin(math.sqrt(h))
