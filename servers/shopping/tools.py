"""The shopping server's tools: an online store's catalog, carts, coupons, checkout, orders,
returns, reviews and wishlists.

Business rules, in one place:
- Money is in USD. A cart line's quantity is at least 1, and no more than the variant's stock when it
  is added or changed; carts reserve nothing, so checkout checks the stock again.
- One coupon per order. A coupon is refused after its expiry date (the error gives the date),
  when the cart lacks the items it applies to, or below its minimum spend on those items; it is
  checked again at checkout. See `pricing.py` for discounts, tax and shipping.
- Checkout needs a non-empty cart, one of the customer's own addresses and payment methods, a card
  that has not expired or a gift card whose balance covers the total; it reserves the stock.
- Orders go placed -> shipped -> delivered. Only placed orders can be cancelled (the stock comes
  back and the total is refunded); delivered items can be returned within 30 days of delivery,
  refunded to the order's payment method.
- Only customers who received a product (a delivered order) may review it, once.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Detail, Entity, Id, Limit, Money, Toolkit, ToolError, tool

from .models import (Address, Base, CartItem, Coupon, Customer, Order, OrderItem, PaymentMethod, Product, Return,
                     Review, Variant, WishlistItem)
from .pricing import RETURN_DAYS, SHIPPING, cents, coupon_problem, discount_of, refund_of, shipping_cost, totals
from .seed import CATALOG, seed

ShippingMethod = Literal["standard", "express", "overnight"]
OrderStatus = Literal["placed", "shipped", "delivered", "cancelled", "returned"]
MAX_QUANTITY = 10  # per cart line
MAX_ADDRESSES = 6


class Shopping(Toolkit):
    """An online store: search the catalog of products and their size and colour variants, manage a
    customer's cart and coupon, check out with a saved address, payment method and shipping option,
    and follow orders through cancellation, returns and reviews; a wishlist keeps products for later.
    All amounts are in USD."""

    name = "shopping"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("customer", Customer, "CUS", lookup="find_customers"),
        Entity("product", Product, "PRD", lookup="search_products"),
        Entity("variant", Variant, "VAR", lookup="get_product"),
        Entity("address", Address, "ADR", lookup="list_addresses"),
        Entity("payment_method", PaymentMethod, "PMT", lookup="list_payment_methods"),
        Entity("order", Order, "ORD", lookup="list_orders"),
    )

    # -- customers -------------------------------------------------------------------------------

    @tool(read_only=True)
    def find_customers(self, name: str | None = None, email: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find customers by name or email; with neither, list customers. Ordered by customer id.

        Args:
            name: part of the customer's full name, case-insensitive, such as 'Ada Park' or 'park'.
            email: the customer's email address, case-insensitive, such as 'ada.park7@gmail.com'.
        """
        customers = self.find(Customer, name=name, name_columns=(("first_name", "last_name"),), email=email,
                              limit=limit)
        return [{"customer_id": c.id, "name": c.name, "email": c.email, "phone": c.phone} for c in customers]

    # -- catalog ---------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_categories(self) -> list[dict]:
        """List the catalog's categories with how many products each has, by name."""
        rows = self.rows("SELECT category, count(*) FROM products GROUP BY category ORDER BY category")
        return [{"category": category, "product_count": count} for category, count in rows]

    @tool(read_only=True)
    def list_brands(self, category: str | None = None) -> list[dict]:
        """List the brands the store sells, with how many products each has, by name.

        Args:
            category: only brands with products in this category, such as 'Shoes' (see list_categories).
        """
        where, params = ("WHERE category = ? ", [self._category(category)]) if category else ("", [])
        rows = self.rows(f"SELECT brand, count(*) FROM products {where}GROUP BY brand ORDER BY brand", *params)
        return [{"brand": brand, "product_count": count} for brand, count in rows]

    @tool(read_only=True)
    def search_products(self, query: str | None = None, category: str | None = None, brand: str | None = None,
                        min_price: float | None = None, max_price: float | None = None, in_stock: bool = False,
                        min_rating: float | None = None,
                        sort: Literal["name", "price_low", "price_high", "rating"] = "name",
                        limit: Limit = 20) -> list[dict]:
        """Search the catalog. Every filter given must match; price compares a product's lowest variant price.

        Args:
            query: words of the product's name, case-insensitive, such as 'rain jacket' or 'Northpeak'.
            category: a category name, such as 'Electronics' (see list_categories).
            brand: a brand name, such as 'Voltix' (see list_brands).
            min_price: the lowest price in dollars, such as 20.0.
            max_price: the highest price in dollars, such as 100.0.
            in_stock: only products with at least one variant in stock (default false).
            min_rating: the lowest average rating, from 0 to 5, such as 4.0.
            sort: 'name' (default), 'price_low', 'price_high' or 'rating' (highest first).
        """
        words = (query or "").lower().split()
        where, params = ["lower(name) LIKE '%' || ? || '%'"] * len(words), [*words]
        if category:
            where.append("category = ?")
            params.append(self._category(category))
        if brand:
            where.append("lower(brand) = ?")
            params.append(brand.strip().lower())
        if min_price is not None and max_price is not None and min_price > max_price:
            raise ToolError(f"min_price {min_price:.2f} is greater than max_price {max_price:.2f}")
        if min_price is not None:
            where.append("price >= ?")
            params.append(min_price)
        if max_price is not None:
            where.append("price <= ?")
            params.append(max_price)
        if min_rating is not None:
            if not 0 <= min_rating <= 5:
                raise ToolError(f"min_rating must be from 0 to 5, got {min_rating}")
            where.append("rating >= ?")
            params.append(min_rating)
        if in_stock:
            where.append(_STOCKED)
        rows = self.rows(f"SELECT id, name, brand, category, price, rating, review_count, {_STOCKED} FROM products "
                         f"WHERE {' AND '.join(where) or '1'} ORDER BY {_PRODUCT_ORDERS[sort]} LIMIT ?", *params, limit)
        return [{**dict(zip(_PRODUCT_KEYS, row[:-1])), "in_stock": bool(row[-1])} for row in rows]

    @tool(read_only=True, produces=("variant",))
    def get_product(self, product_id: Id("product")) -> dict:
        """Return a product with its description, rating and every variant (size, colour, price, stock).

        Args:
        """
        product = self.get(Product, product_id)
        variants = self.load(Variant, "SELECT id FROM variants WHERE product_id = ? ORDER BY id", product.id)
        return {**_product(product), "description": product.description, "variants": [_variant(v) for v in variants]}

    @tool(read_only=True)
    def list_reviews(self, product_id: Id("product"), min_rating: int | None = None, limit: Limit = 20) -> list[dict]:
        """List a product's reviews, newest first.

        Args:
            min_rating: only reviews with at least this many stars, from 1 to 5.
        """
        product = self.get(Product, product_id)
        where, params = ["r.product_id = ?"], [product.id]
        if min_rating is not None:
            where.append("r.rating >= ?")
            params.append(min_rating)
        rows = self.rows("SELECT r.id, c.first_name, c.last_name, r.rating, r.title, r.body, r.created_at "
                         "FROM reviews r JOIN customers c ON c.id = r.customer_id "
                         f"WHERE {' AND '.join(where)} ORDER BY r.created_at DESC, r.id DESC LIMIT ?", *params, limit)
        return [{"review_id": review_id, "product_id": product.id, "reviewer": f"{first} {last[0]}.", "rating": rating,
                 "title": title, "body": body, "date": dt.datetime.fromisoformat(created).date()}
                for review_id, first, last, rating, title, body, created in rows]

    @tool(read_only=True)
    def list_customer_reviews(self, customer_id: Id("customer")) -> list[dict]:
        """List the reviews a customer has written, newest first.

        Args:
        """
        customer = self.get(Customer, customer_id)
        rows = self.rows("SELECT r.id, p.id, p.name, r.rating, r.title, r.created_at "
                         "FROM reviews r JOIN products p ON p.id = r.product_id "
                         "WHERE r.customer_id = ? ORDER BY r.created_at DESC, r.id DESC", customer.id)
        return [{"review_id": review_id, "product_id": product_id, "product_name": name, "rating": rating,
                 "title": title, "date": dt.datetime.fromisoformat(created).date()}
                for review_id, product_id, name, rating, title, created in rows]

    # -- cart ------------------------------------------------------------------------------------

    @tool(read_only=True)
    def get_cart(self, customer_id: Id("customer")) -> dict:
        """Return a customer's cart: its lines, the coupon applied, and the subtotal, discount and tax.

        Shipping is added at checkout (see list_shipping_options).

        Args:
        """
        return self._cart_view(self.get(Customer, customer_id))

    @tool()
    def add_to_cart(self, customer_id: Id("customer"), variant_id: Id("variant"), quantity: int = 1) -> dict:
        """Add a product variant to a customer's cart, or more of it if it is already there.

        The cart's quantity of a variant may not exceed its stock, nor 10.

        Args:
            quantity: how many to add, at least 1 (default 1).
        """
        customer = self.get(Customer, customer_id)
        variant = self.get(Variant, variant_id)
        if quantity < 1:
            raise ToolError(f"quantity must be at least 1, got {quantity}")
        line = self.db.get(CartItem, (customer.id, variant.id))
        held = line.quantity if line else 0
        self._check_quantity(variant, held + quantity, held)
        if line:
            line.quantity += quantity
        else:
            self.db.add(CartItem(customer_id=customer.id, variant_id=variant.id, quantity=quantity, added_at=self.now))
        self.db.flush()
        return self._cart_view(customer)

    @tool(idempotent=True)
    def update_cart_item(self, customer_id: Id("customer"), variant_id: Id("variant"), quantity: int) -> dict:
        """Set the quantity of a variant already in a customer's cart (1 to its stock; to drop it, use remove_from_cart).

        Args:
            quantity: the new quantity, at least 1, such as 2.
        """
        customer = self.get(Customer, customer_id)
        line = self._line(customer, self.get(Variant, variant_id))
        if quantity < 1:
            raise ToolError(f"quantity must be at least 1, got {quantity}; use remove_from_cart to take it out")
        self._check_quantity(self.db.get(Variant, line.variant_id), quantity, None)
        line.quantity = quantity
        self.db.flush()
        return self._cart_view(customer)

    @tool(destructive=True)
    def remove_from_cart(self, customer_id: Id("customer"), variant_id: Id("variant")) -> dict:
        """Take a variant out of a customer's cart entirely.

        Args:
        """
        customer = self.get(Customer, customer_id)
        self.db.delete(self._line(customer, self.get(Variant, variant_id)))
        self.db.flush()
        return self._cart_view(customer)

    # -- coupons ---------------------------------------------------------------------------------

    @tool(read_only=True)
    def get_coupon(self, code: str) -> dict:
        """Return a coupon's terms: discount, minimum spend, the category it applies to and its expiry date.

        Args:
            code: the coupon code, case-insensitive, such as 'WELCOME10'.
        """
        return self._coupon_info(self._coupon(code))

    @tool(idempotent=True)
    def apply_coupon(self, customer_id: Id("customer"), code: str) -> dict:
        """Apply a coupon code to a customer's cart. One coupon per order: remove the current one first.

        Refused when the coupon has expired, when the cart has none of the items it applies to, or
        when those items fall short of its minimum spend.

        Args:
            code: the coupon code, case-insensitive, such as 'WELCOME10'.
        """
        customer = self.get(Customer, customer_id)
        coupon = self._coupon(code)
        if customer.cart_coupon and customer.cart_coupon != coupon.code:
            raise ToolError(f"Coupon {customer.cart_coupon} is already applied and only one coupon can be used "
                            f"per order; remove it with remove_coupon first")
        lines = self._priced_lines(customer)
        if not lines:
            raise ToolError(f"The cart of {customer.id} is empty; add items before applying a coupon")
        problem = self._coupon_problem(coupon, lines)
        if problem:
            raise ToolError(problem)
        customer.cart_coupon = coupon.code
        return self._cart_view(customer)

    @tool(destructive=True)
    def remove_coupon(self, customer_id: Id("customer")) -> dict:
        """Remove the coupon applied to a customer's cart.

        Args:
        """
        customer = self.get(Customer, customer_id)
        if not customer.cart_coupon:
            raise ToolError(f"No coupon is applied to the cart of {customer.id}")
        customer.cart_coupon = None
        return self._cart_view(customer)

    # -- addresses and payment -------------------------------------------------------------------

    @tool(read_only=True)
    def list_addresses(self, customer_id: Id("customer")) -> list[dict]:
        """List a customer's saved shipping addresses, the default first.

        Args:
        """
        customer = self.get(Customer, customer_id)
        addresses = self.load(Address, "SELECT id FROM addresses WHERE customer_id = ? ORDER BY is_default DESC, id",
                              customer.id)
        return [_address(a) for a in addresses]

    @tool(produces=("address",))
    def add_address(self, customer_id: Id("customer"), label: str, street: str, city: str, state: str,
                    zip_code: str, recipient: str | None = None, make_default: bool = False) -> dict:
        """Save a new shipping address for a customer (at most 6). The first address becomes the default.

        Args:
            label: a name for the address, unique among the customer's, such as 'Home' or 'Work'.
            street: the street address, such as '12 Oak Street, Apt 4'.
            city: the city, such as 'Portland'.
            state: the 2-letter state code, such as 'OR'.
            zip_code: the 5-digit ZIP code, such as '97201'.
            recipient: who receives parcels there; the customer's name when left out.
            make_default: make it the default address (default false).
        """
        customer = self.get(Customer, customer_id)
        label, street, city = label.strip(), street.strip(), city.strip()
        if not label or not street or not city:
            raise ToolError("label, street and city must not be empty")
        if not re.fullmatch(r"[A-Za-z]{2}", state.strip()):
            raise ToolError(f"state must be a 2-letter code such as 'OR', got {state!r}")
        if not re.fullmatch(r"\d{5}", zip_code.strip()):
            raise ToolError(f"zip_code must be 5 digits, got {zip_code!r}")
        saved = list(self.db.scalars(select(Address).where(Address.customer_id == customer.id)))
        if any(a.label.lower() == label.lower() for a in saved):
            raise ToolError(f"{customer.id} already has an address labelled {label!r}; pick another label")
        if len(saved) >= MAX_ADDRESSES:
            raise ToolError(f"{customer.id} already has {len(saved)} addresses, the most allowed")
        default = make_default or not saved
        if default:
            for a in saved:
                a.is_default = False
        address = Address(id=self.new_id("ADR"), customer_id=customer.id, label=label,
                          recipient=(recipient or "").strip() or customer.name, street=street, city=city,
                          state=state.strip().upper(), zip_code=zip_code.strip(), is_default=default)
        self.db.add(address)
        return _address(address)

    @tool(read_only=True)
    def list_payment_methods(self, customer_id: Id("customer")) -> list[dict]:
        """List a customer's saved payment methods: cards (with expiry), PayPal and gift cards (with balance).

        Args:
        """
        customer = self.get(Customer, customer_id)
        methods = self.load(PaymentMethod, "SELECT id FROM payment_methods WHERE customer_id = ? ORDER BY id",
                            customer.id)
        return [self._method(m) for m in methods]

    @tool(read_only=True)
    def list_shipping_options(self, customer_id: Id("customer")) -> list[dict]:
        """List the shipping options with their cost for a customer's current cart and delivery time.

        Standard shipping is free when the items, after any coupon, come to 50.00 or more.

        Args:
        """
        customer = self.get(Customer, customer_id)
        view = self._cart_view(customer)
        merchandise = cents(view["subtotal"] - view["discount"])
        return [{"method": method, "cost": shipping_cost(method, merchandise), "delivery": delivery}
                for method, (_, delivery, _) in SHIPPING.items()]

    # -- checkout and orders ---------------------------------------------------------------------

    @tool(produces=("order",))
    def checkout(self, customer_id: Id("customer"), address_id: Id("address"), payment_method_id: Id("payment_method"),
                 shipping_method: ShippingMethod) -> dict:
        """Place an order for everything in a customer's cart, with its coupon, and empty the cart.

        Prices the items, the discount, 8.25% sales tax and shipping; reserves the stock; charges the
        payment method (a gift card's balance must cover the total; a card must not have expired).

        Args:
            address_id: one of the customer's saved addresses, such as 'ADR-0007'.
            payment_method_id: one of the customer's saved payment methods, such as 'PMT-0007'.
            shipping_method: 'standard', 'express' or 'overnight' (see list_shipping_options).
        """
        customer = self.get(Customer, customer_id)
        address = self.get(Address, address_id)
        method = self.get(PaymentMethod, payment_method_id)
        if address.customer_id != customer.id:
            raise ToolError(f"Address {address.id} is not one of {customer.id}'s addresses; see list_addresses")
        if method.customer_id != customer.id:
            raise ToolError(f"Payment method {method.id} is not one of {customer.id}'s; see list_payment_methods")
        rows = self._cart_rows(customer)
        if not rows:
            raise ToolError(f"The cart of {customer.id} is empty; add items before checking out")
        for line, variant, product in rows:
            if line.quantity > variant.stock:
                raise ToolError(f"Only {variant.stock} of {_label(product, variant)} are in stock and the cart holds "
                                f"{line.quantity}; lower the quantity or remove it")
        lines = [(product.category, cents(variant.price * line.quantity)) for line, variant, product in rows]
        discount = 0.0
        coupon = self.db.get(Coupon, customer.cart_coupon) if customer.cart_coupon else None
        if coupon is not None:
            problem = self._coupon_problem(coupon, lines)
            if problem:
                raise ToolError(f"{problem}; remove the coupon with remove_coupon to check out without it")
            discount = discount_of(coupon.kind, coupon.value, coupon.category, lines)
        priced = totals(lines, discount, shipping_method)
        if method.kind == "card" and method.expires is not None and method.expires < self.now.date():
            raise ToolError(f"The {method.brand} card ending in {method.last4} expired on "
                            f"{method.expires.isoformat()}; choose another payment method")
        if method.kind == "gift_card":
            if (method.balance or 0.0) < priced["total"]:
                raise ToolError(f"The gift card ending in {method.last4} has {method.balance:.2f}, less than the "
                                f"order total of {priced['total']:.2f}; choose another payment method")
            method.balance = cents(method.balance - priced["total"])
        order = Order(id=self.new_id("ORD"), customer_id=customer.id, status="placed", address_id=address.id,
                      payment_method_id=method.id, shipping_method=shipping_method,
                      coupon_code=coupon.code if coupon else None, subtotal=priced["subtotal"], discount=discount,
                      tax=priced["tax"], shipping_cost=priced["shipping"], total=priced["total"], refunded=0.0,
                      placed_at=self.now, shipped_at=None, delivered_at=None, cancelled_at=None, cancel_reason=None)
        self.db.add(order)
        for line, variant, product in rows:
            variant.stock -= line.quantity
            self.db.add(OrderItem(order_id=order.id, variant_id=variant.id, product_id=product.id, name=product.name,
                                  size=variant.size, colour=variant.colour, unit_price=variant.price,
                                  quantity=line.quantity, returned_quantity=0))
            self.db.delete(line)
        customer.cart_coupon = None
        self.db.flush()
        return self._order_info(order)

    @tool(read_only=True)
    def list_orders(self, customer_id: Id("customer"), status: OrderStatus | None = None) -> list[dict]:
        """List a customer's orders, newest first, with their items.

        Args:
            status: only orders in this state: 'placed', 'shipped', 'delivered', 'cancelled' or 'returned'.
        """
        customer = self.get(Customer, customer_id)
        where, params = ["customer_id = ?"], [customer.id]
        if status:
            where.append("status = ?")
            params.append(status)
        chosen = f"SELECT id FROM orders WHERE {' AND '.join(where)}"
        orders = self.load(Order, chosen + " ORDER BY placed_at DESC, id DESC", *params)
        items: dict[str, list[dict]] = {order.id: [] for order in orders}
        for order_id, variant_id, product_id, name, quantity in self.rows(
                "SELECT order_id, variant_id, product_id, name, quantity FROM order_items "
                f"WHERE order_id IN ({chosen}) ORDER BY order_id, variant_id", *params):
            items[order_id].append({"variant_id": variant_id, "product_id": product_id, "name": name,
                                    "quantity": quantity})
        return [{"order_id": order.id, "status": order.status, "placed_at": order.placed_at, "total": order.total,
                 "items": items[order.id]} for order in orders]

    @tool(read_only=True)
    def get_order(self, order_id: Id("order")) -> dict:
        """Return an order in full: items, prices, coupon, tax, shipping, address, payment, dates and returns.

        Args:
        """
        return self._order_info(self.get(Order, order_id))

    @tool(destructive=True, details=(Detail("orders", "cancel_reason"),))
    def cancel_order(self, order_id: Id("order"), reason: str | None = None) -> dict:
        """Cancel an order that has not shipped yet: the stock is released and the total refunded.

        Shipped orders cannot be cancelled; once delivered, their items can be returned with return_items.

        Args:
            reason: why the customer cancels, such as 'Ordered by mistake'.
        """
        order = self.get(Order, order_id)
        if order.status == "shipped":
            raise ToolError(f"Order {order.id} shipped on {order.shipped_at.date().isoformat()} and can no longer be "
                            f"cancelled; once it is delivered, its items can be returned with return_items")
        if order.status != "placed":
            hint = "; use return_items to send items back" if order.status == "delivered" else ""
            raise ToolError(f"Order {order.id} is {order.status}; only orders that have not shipped can be "
                            f"cancelled{hint}")
        for item in self.db.scalars(select(OrderItem).where(OrderItem.order_id == order.id)):
            self.db.get(Variant, item.variant_id).stock += item.quantity
        self._refund(order, cents(order.total - order.refunded))
        order.status, order.cancelled_at = "cancelled", self.now
        order.cancel_reason = (reason or "").strip() or None
        return self._order_info(order)

    @tool(details=(Detail("returns", "reason"),))
    def return_items(self, order_id: Id("order"), variant_id: Id("variant"), quantity: int = 1,
                     reason: str | None = None) -> dict:
        """Return units of one item of a delivered order, within 30 days of delivery.

        The refund (the items' price less their share of any coupon discount, plus their tax; shipping
        is not refunded) goes to the order's original payment method.

        Args:
            variant_id: the variant of the order's item to return, such as 'VAR-0007' (see get_order).
            quantity: how many units to return, at least 1 (default 1).
            reason: why, such as 'Too small'.
        """
        order = self.get(Order, order_id)
        variant = self.get(Variant, variant_id)
        if order.status != "delivered":
            raise ToolError(f"Order {order.id} is {order.status}; only delivered orders can be returned"
                            + ("; a placed order can be cancelled instead" if order.status == "placed" else ""))
        closes = (order.delivered_at + dt.timedelta(days=RETURN_DAYS)).date()
        if self.now.date() > closes:
            raise ToolError(f"Order {order.id} was delivered on {order.delivered_at.date().isoformat()}; its "
                            f"{RETURN_DAYS}-day return window closed on {closes.isoformat()}")
        item = self.db.get(OrderItem, (order.id, variant.id))
        if item is None:
            raise ToolError(f"Variant {variant.id} is not an item of order {order.id}; see get_order")
        left = item.quantity - item.returned_quantity
        if quantity < 1:
            raise ToolError(f"quantity must be at least 1, got {quantity}")
        if quantity > left:
            raise ToolError(f"Only {left} unit(s) of {item.name} on order {order.id} can still be returned")
        refund = refund_of(item.unit_price, quantity, order.subtotal, order.discount)
        item.returned_quantity += quantity
        variant.stock += quantity
        self._refund(order, refund)
        ret = Return(id=self.new_id("RET"), order_id=order.id, variant_id=variant.id, quantity=quantity,
                     refund=refund, payment_method_id=order.payment_method_id,
                     reason=(reason or "").strip() or None, created_at=self.now)
        self.db.add(ret)
        self.db.flush()
        remaining = self.db.scalar(select(func.sum(OrderItem.quantity - OrderItem.returned_quantity))
                                   .where(OrderItem.order_id == order.id))
        if not remaining:
            order.status = "returned"
        method = self.db.get(PaymentMethod, order.payment_method_id)
        return {"return_id": ret.id, "order_id": order.id, "variant_id": variant.id, "name": item.name,
                "quantity": quantity, "refund": refund, "refunded_to": self._method(method),
                "order_status": order.status}

    # -- reviews ---------------------------------------------------------------------------------

    @tool()
    def write_review(self, customer_id: Id("customer"), product_id: Id("product"), rating: int, title: str,
                     body: str | None = None) -> dict:
        """Post a customer's review of a product they received in a delivered order (one review per product).

        Args:
            rating: stars, from 1 to 5.
            title: a short headline, 1 to 100 characters, such as 'Great fit'.
            body: the review text, such as 'Warm and light.'
        """
        customer = self.get(Customer, customer_id)
        product = self.get(Product, product_id)
        if not 1 <= rating <= 5:
            raise ToolError(f"rating must be from 1 to 5 stars, got {rating}")
        title = title.strip()
        if not 1 <= len(title) <= 100:
            raise ToolError(f"title must be 1 to 100 characters, got {len(title)}")
        bought = self.db.scalar(select(Order.id).join(OrderItem, OrderItem.order_id == Order.id).where(
            Order.customer_id == customer.id, OrderItem.product_id == product.id,
            Order.delivered_at.is_not(None)).limit(1))
        if bought is None:
            raise ToolError(f"{customer.id} has no delivered order of {product.name}; only delivered purchases "
                            f"can be reviewed")
        earlier = self.db.scalar(select(Review.id).where(Review.customer_id == customer.id,
                                                         Review.product_id == product.id))
        if earlier is not None:
            raise ToolError(f"{customer.id} already reviewed {product.name} ({earlier})")
        review = Review(id=self.new_id("REV"), product_id=product.id, customer_id=customer.id, rating=rating,
                        title=title, body=(body or "").strip(), created_at=self.now)
        self.db.add(review)
        total = product.rating * product.review_count + rating
        product.review_count += 1
        product.rating = round(total / product.review_count, 1)
        return {"review_id": review.id, "product_id": product.id, "rating": rating, "title": title,
                "product_rating": product.rating, "review_count": product.review_count}

    # -- wishlist --------------------------------------------------------------------------------

    @tool(read_only=True, produces=("product",))
    def get_wishlist(self, customer_id: Id("customer")) -> list[dict]:
        """List the products on a customer's wishlist, most recently added first, with price and stock.

        Args:
        """
        customer = self.get(Customer, customer_id)
        rows = self.rows(_WISHLIST, customer.id)
        return [{**dict(zip(_PRODUCT_KEYS, row[:7])), "in_stock": bool(row[7]),
                 "added_at": dt.datetime.fromisoformat(row[8])} for row in rows]

    @tool()
    def add_to_wishlist(self, customer_id: Id("customer"), product_id: Id("product")) -> dict:
        """Save a product to a customer's wishlist.

        Args:
        """
        customer = self.get(Customer, customer_id)
        product = self.get(Product, product_id)
        if self.db.get(WishlistItem, (customer.id, product.id)) is not None:
            raise ToolError(f"{product.name} is already on {customer.id}'s wishlist")
        self.db.add(WishlistItem(customer_id=customer.id, product_id=product.id, added_at=self.now))
        return {"customer_id": customer.id, "product_id": product.id, "name": product.name, "on_wishlist": True}

    @tool(destructive=True)
    def remove_from_wishlist(self, customer_id: Id("customer"), product_id: Id("product")) -> dict:
        """Take a product off a customer's wishlist.

        Args:
        """
        customer = self.get(Customer, customer_id)
        product = self.get(Product, product_id)
        item = self.db.get(WishlistItem, (customer.id, product.id))
        if item is None:
            raise ToolError(f"{product.name} is not on {customer.id}'s wishlist")
        self.db.delete(item)
        return {"customer_id": customer.id, "product_id": product.id, "name": product.name, "on_wishlist": False}

    # -- hidden ----------------------------------------------------------------------------------

    @tool(idempotent=True, hidden=True)
    def set_variant_price(self, variant_id: Id("variant"), price: Money) -> dict:
        """Store staff only: change a variant's price.

        Args:
            price: the new price in dollars.
        """
        variant = self.get(Variant, variant_id)
        variant.price = price
        product = self.db.get(Product, variant.product_id)
        self.db.flush()
        product.price = self.db.scalar(select(func.min(Variant.price)).where(Variant.product_id == product.id))
        return _variant(variant)

    # -- invariants ------------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """Stock and gift-card balances are never negative; a product's price is its lowest variant price
        and its review count its reviews, one per customer; an order's total is its parts, its refunds are
        what was cancelled or returned and never more than its total, returns never exceed what was bought,
        and its dates follow its status (placed, then shipped, then delivered; returns after delivery); no
        cart line is below 1; nobody acts before joining and nothing is sold or reviewed before it is
        listed; nothing recorded after the clock."""
        problems = []
        for variant_id, stock in self.db.execute(select(Variant.id, Variant.stock).where(Variant.stock < 0)):
            problems.append(f"{variant_id}: negative stock {stock}")
        for method_id, balance in self.db.execute(select(PaymentMethod.id, PaymentMethod.balance)
                                                  .where(PaymentMethod.balance < 0)):
            problems.append(f"{method_id}: negative gift card balance {balance}")
        lowest = dict(self.db.execute(select(Variant.product_id, func.min(Variant.price))
                                      .group_by(Variant.product_id)).all())
        reviews = dict(self.db.execute(select(Review.product_id, func.count()).group_by(Review.product_id)).all())
        for product in self.db.scalars(select(Product)):
            if product.id in lowest and abs(product.price - lowest[product.id]) > 0.001:
                problems.append(f"{product.id}: price {product.price} but its lowest variant costs "
                                f"{lowest[product.id]}")
            if product.review_count != reviews.get(product.id, 0):
                problems.append(f"{product.id}: review count {product.review_count} but "
                                f"{reviews.get(product.id, 0)} reviews")
        problems += [f"{customer_id} reviewed {product_id} {n} times" for customer_id, product_id, n in self.db.execute(
            select(Review.customer_id, Review.product_id, func.count()).group_by(Review.customer_id, Review.product_id)
            .having(func.count() > 1))]
        returned = dict(self.db.execute(select(Return.order_id, func.sum(Return.refund))
                                        .group_by(Return.order_id)).all())
        for order in self.db.scalars(select(Order)):
            parts = cents(order.subtotal - order.discount + order.tax + order.shipping_cost)
            if abs(parts - order.total) > 0.011:
                problems.append(f"{order.id}: total {order.total} but its parts sum to {parts}")
            if order.refunded > order.total + 0.011:
                problems.append(f"{order.id}: refunded {order.refunded} more than its total {order.total}")
            owed = cents(returned.get(order.id, 0.0) + (order.total if order.status == "cancelled" else 0.0))
            if abs(order.refunded - owed) > 0.011:
                problems.append(f"{order.id}: refunded {order.refunded} but its cancellation and returns come "
                                f"to {owed}")
            stages = {"placed": (False, False, False), "shipped": (True, False, False),
                      "delivered": (True, True, False), "returned": (True, True, False),
                      "cancelled": (False, False, True)}.get(order.status)
            if stages != (order.shipped_at is not None, order.delivered_at is not None,
                          order.cancelled_at is not None):
                problems.append(f"{order.id} is {order.status} but shipped at {order.shipped_at}, delivered at "
                                f"{order.delivered_at}, cancelled at {order.cancelled_at}")
            elif (steps := [t for t in (order.placed_at, order.shipped_at or order.cancelled_at, order.delivered_at)
                            if t is not None]) != sorted(steps):
                problems.append(f"{order.id}: placed {order.placed_at}, shipped {order.shipped_at}, delivered "
                                f"{order.delivered_at}, cancelled {order.cancelled_at} are out of order")
        early = (select(Return.id, Return.order_id, Return.created_at, Order.delivered_at)
                 .join(Order, Order.id == Return.order_id)
                 .where(Order.delivered_at.is_(None) | (Return.created_at < Order.delivered_at)))
        problems += [f"return {rid} of {oid} at {at} is before the delivery at {delivered}"
                     for rid, oid, at, delivered in self.db.execute(early)]
        for item in self.db.scalars(select(OrderItem).where(OrderItem.returned_quantity > OrderItem.quantity)):
            problems.append(f"{item.order_id}/{item.variant_id}: more returned than bought")
        for line in self.db.scalars(select(CartItem).where(CartItem.quantity < 1)):
            problems.append(f"cart {line.customer_id}/{line.variant_id}: quantity {line.quantity}")
        for what, sql in _ACTIVITIES.items():
            for who, product, at, joined, listed in self.rows(
                    f"SELECT a.customer_id, a.product_id, a.at, c.member_since, p.listed_at FROM ({sql}) a "
                    "JOIN customers c ON c.id = a.customer_id JOIN products p ON p.id = a.product_id "
                    "WHERE a.at < c.member_since OR a.at < p.listed_at ORDER BY a.customer_id, a.product_id"):
                problems.append(f"{who} {what} {product} at {at}, before joining ({joined}) or before its "
                                f"listing ({listed})")
        problems += self.after_now(Customer.member_since, Product.listed_at, Review.created_at, Order.placed_at,
                                   Order.shipped_at, Order.delivered_at, Order.cancelled_at, Return.created_at,
                                   CartItem.added_at, WishlistItem.added_at)
        return problems

    # -- helpers ---------------------------------------------------------------------------------

    def _category(self, category: str) -> str:
        names = sorted(CATALOG)  # the store's categories are fixed
        for name in names:
            if name.lower() == category.strip().lower():
                return name
        raise ToolError(f"Unknown category {category!r}; categories: {', '.join(names)}")

    def _coupon(self, code: str) -> Coupon:
        coupon = self.db.get(Coupon, code.strip().upper())
        if coupon is None:
            raise ToolError(f"No coupon with the code {code.strip()!r}; check the code with the customer")
        return coupon

    def _coupon_problem(self, coupon: Coupon, lines: list[tuple[str, float]]) -> str | None:
        return coupon_problem(coupon.kind, coupon.value, coupon.min_spend, coupon.category, coupon.expires_on,
                              coupon.code, lines, self.now.date())

    def _coupon_info(self, coupon: Coupon) -> dict:
        return {"code": coupon.code, "description": coupon.description, "kind": coupon.kind, "value": coupon.value,
                "min_spend": coupon.min_spend, "category": coupon.category, "expires_on": coupon.expires_on,
                "expired": coupon.expires_on < self.now.date()}

    def _check_quantity(self, variant: Variant, wanted: int, held: int | None) -> None:
        product = self.db.get(Product, variant.product_id)
        label = _label(product, variant)
        if variant.stock == 0:
            raise ToolError(f"{label} is out of stock")
        if wanted > variant.stock:
            already = f"; the cart already holds {held}" if held else ""
            raise ToolError(f"Only {variant.stock} of {label} in stock{already}; the cart can hold at most "
                            f"{variant.stock}")
        if wanted > MAX_QUANTITY:
            raise ToolError(f"At most {MAX_QUANTITY} of one item per order; the cart would hold {wanted}")

    def _line(self, customer: Customer, variant: Variant) -> CartItem:
        line = self.db.get(CartItem, (customer.id, variant.id))
        if line is None:
            raise ToolError(f"Variant {variant.id} is not in the cart of {customer.id}; see get_cart")
        return line

    def _cart_rows(self, customer: Customer) -> list[tuple[CartItem, Variant, Product]]:
        return list(self.db.execute(
            select(CartItem, Variant, Product).join(Variant, CartItem.variant_id == Variant.id)
            .join(Product, Variant.product_id == Product.id).where(CartItem.customer_id == customer.id)
            .order_by(CartItem.added_at, CartItem.variant_id)))

    def _priced_lines(self, customer: Customer) -> list[tuple[str, float]]:
        return [(p.category, cents(v.price * c.quantity)) for c, v, p in self._cart_rows(customer)]

    def _cart_view(self, customer: Customer) -> dict:
        rows = self.rows(_CART_VIEW, customer.id)
        lines = [(category, cents(price * quantity)) for _, _, _, _, _, price, quantity, _, category in rows]
        coupon = self.db.get(Coupon, customer.cart_coupon) if customer.cart_coupon else None
        discount, problem = 0.0, None
        if coupon is not None:
            problem = self._coupon_problem(coupon, lines)
            discount = 0.0 if problem else discount_of(coupon.kind, coupon.value, coupon.category, lines)
        priced = totals(lines, discount, None)
        view = {"customer_id": customer.id,
                "items": [{"variant_id": vid, "product_id": pid, "name": name, "size": size, "colour": colour,
                           "unit_price": price, "quantity": quantity, "line_total": cents(price * quantity),
                           "in_stock": stock} for vid, pid, name, size, colour, price, quantity, stock, _ in rows],
                "item_count": sum(row[6] for row in rows), "coupon": customer.cart_coupon,
                "subtotal": priced["subtotal"], "discount": discount, "estimated_tax": priced["tax"],
                "total_before_shipping": priced["total"]}
        if problem:
            view["coupon_problem"] = problem
        return view

    def _method(self, method: PaymentMethod) -> dict:
        info = {"payment_method_id": method.id, "kind": method.kind, "brand": method.brand}
        if method.last4:
            info["last4"] = method.last4
        if method.kind == "card":
            info["expires"] = method.expires.strftime("%Y-%m")
            info["expired"] = method.expires < self.now.date()
        if method.kind == "paypal":
            info["email"] = method.email
        if method.kind == "gift_card":
            info["balance"] = method.balance
        return info

    def _refund(self, order: Order, amount: float) -> None:
        order.refunded = cents(order.refunded + amount)
        method = self.db.get(PaymentMethod, order.payment_method_id)
        if method.kind == "gift_card":
            method.balance = cents((method.balance or 0.0) + amount)

    def _order_info(self, order: Order) -> dict:
        address = self.db.get(Address, order.address_id)
        method = self.db.get(PaymentMethod, order.payment_method_id)
        items = self.rows("SELECT variant_id, product_id, name, size, colour, unit_price, quantity, returned_quantity "
                          "FROM order_items WHERE order_id = ? ORDER BY variant_id", order.id)
        returns = self.load(Return, "SELECT id FROM returns WHERE order_id = ? ORDER BY id", order.id)
        info = {"order_id": order.id, "customer_id": order.customer_id, "status": order.status,
                "items": [dict(zip(_ORDER_ITEM_KEYS, item)) for item in items],
                "coupon": order.coupon_code, "subtotal": order.subtotal, "discount": order.discount, "tax": order.tax,
                "shipping_method": order.shipping_method, "shipping_cost": order.shipping_cost, "total": order.total,
                "refunded": order.refunded, "ship_to": _address(address), "payment": self._method(method),
                "placed_at": order.placed_at, "shipped_at": order.shipped_at, "delivered_at": order.delivered_at}
        if order.delivered_at is not None:
            info["return_by"] = (order.delivered_at + dt.timedelta(days=RETURN_DAYS)).date()
        if order.status == "cancelled":
            info |= {"cancelled_at": order.cancelled_at, "cancel_reason": order.cancel_reason}
        info["returns"] = [{"return_id": r.id, "variant_id": r.variant_id, "quantity": r.quantity, "refund": r.refund,
                            "date": r.created_at.date()} for r in returns]
        return info


_PRODUCT_KEYS = ("product_id", "name", "brand", "category", "price", "rating", "review_count")
# whether a product has a variant in stock
_STOCKED = "EXISTS (SELECT 1 FROM variants v WHERE v.product_id = products.id AND v.stock > 0)"
_ORDER_ITEM_KEYS = ("variant_id", "product_id", "name", "size", "colour", "unit_price", "quantity",
                    "returned_quantity")
_WISHLIST = (f"SELECT products.id, name, brand, category, price, rating, review_count, {_STOCKED}, w.added_at "
             "FROM wishlist_items w JOIN products ON products.id = w.product_id "
             "WHERE w.customer_id = ? ORDER BY w.added_at DESC, products.id")
# what a customer does with a product, as (customer_id, product_id, at) rows: none of it before the customer
# joined or the product was listed
_ACTIVITIES = {
    "ordered": "SELECT o.customer_id, i.product_id, o.placed_at AS at FROM orders o "
               "JOIN order_items i ON i.order_id = o.id",
    "reviewed": "SELECT customer_id, product_id, created_at AS at FROM reviews",
    "wished for": "SELECT customer_id, product_id, added_at AS at FROM wishlist_items",
    "put in the cart": "SELECT c.customer_id, v.product_id, c.added_at AS at FROM cart_items c "
                       "JOIN variants v ON v.id = c.variant_id",
}
_CART_VIEW = ("SELECT v.id, p.id, p.name, v.size, v.colour, v.price, c.quantity, v.stock, p.category "
              "FROM cart_items c JOIN variants v ON v.id = c.variant_id JOIN products p ON p.id = v.product_id "
              "WHERE c.customer_id = ? ORDER BY c.added_at, c.variant_id")
_PRODUCT_ORDERS = {"name": "name, id", "price_low": "price, name, id", "price_high": "price DESC, name, id",
                   "rating": "rating DESC, review_count DESC, name, id"}


# -- results ------------------------------------------------------------------------------------


def _product(product: Product) -> dict:
    return {"product_id": product.id, "name": product.name, "brand": product.brand, "category": product.category,
            "price": product.price, "rating": product.rating, "review_count": product.review_count}


def _variant(variant: Variant) -> dict:
    return {"variant_id": variant.id, "size": variant.size, "colour": variant.colour, "price": variant.price,
            "stock": variant.stock, "sku": variant.sku}


def _address(address: Address) -> dict:
    return {"address_id": address.id, "label": address.label, "recipient": address.recipient,
            "street": address.street, "city": address.city, "state": address.state, "zip_code": address.zip_code,
            "is_default": address.is_default}


def _label(product: Product, variant: Variant) -> str:
    parts = [p for p in (variant.colour, f"size {variant.size}" if variant.size else None) if p]
    return f"{product.name} ({', '.join(parts)})" if parts else product.name
