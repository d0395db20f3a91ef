"""The seed: a catalog of about 90 products in six categories (with size and colour variants,
stock, prices and reviews), 40 customers with addresses, payment methods, carts, wishlists and
orders in every state, and coupons of which some have expired, all before the frozen "now".

Edge cases on purpose: variants out of stock or with a single unit left, products without
reviews, customers without orders or an empty cart, an expired card, a gift card with a small
balance, orders delivered more than 30 days ago (no longer returnable), cancelled orders.
"""

from __future__ import annotations

import datetime as dt
import random

from sqlalchemy import select

from prove_env.world import SeedContext

from .models import (Address, CartItem, Coupon, Customer, Order, OrderItem, PaymentMethod, Product, Return,
                     Review, Variant, WishlistItem)
from .pricing import SHIPPING, cents, discount_of, refund_of, totals

N_CUSTOMERS = 40
APPAREL_SIZES = ("XS", "S", "M", "L", "XL")
SHOE_SIZES = ("7", "8", "9", "10", "11", "12")
COLOURS = ("Black", "White", "Navy", "Grey", "Red", "Olive", "Blue", "Beige")

# category -> (brands, (noun, low price, high price, sizes, takes colours) ...)
CATALOG: dict[str, tuple[tuple[str, ...], tuple[tuple[str, float, float, tuple[str, ...], bool], ...]]] = {
    "Clothing": (("Northpeak", "Harbor & Pine", "Urbanline", "Kestrel"), (
        ("Rain Jacket", 79, 189, APPAREL_SIZES, True), ("Fleece Hoodie", 39, 79, APPAREL_SIZES, True),
        ("Crew T-Shirt", 14, 32, APPAREL_SIZES, True), ("Chino Pants", 44, 89, APPAREL_SIZES, True),
        ("Wool Sweater", 59, 129, APPAREL_SIZES, True), ("Puffer Vest", 69, 139, APPAREL_SIZES, True),
    )),
    "Shoes": (("Stride", "Trailform", "Copperfield"), (
        ("Running Shoes", 79, 169, SHOE_SIZES, True), ("Leather Boots", 119, 249, SHOE_SIZES, True),
        ("Canvas Sneakers", 45, 75, SHOE_SIZES, True), ("Hiking Boots", 129, 219, SHOE_SIZES, True),
    )),
    "Electronics": (("Voltix", "Sonora", "Lumen", "Arcwave"), (
        ("Wireless Earbuds", 49, 199, (), True), ("Bluetooth Speaker", 39, 149, (), True),
        ("Smartwatch", 129, 349, (), True), ("USB-C Charger", 19, 59, (), False),
        ("Noise-Cancelling Headphones", 149, 379, (), True), ("Portable Power Bank", 29, 79, (), True),
    )),
    "Home & Kitchen": (("Hearthstone", "Cedar & Co", "Pantrywise"), (
        ("Chef's Knife", 39, 149, (), False), ("Cast Iron Skillet", 29, 89, (), False),
        ("French Press", 24, 59, (), True), ("Bath Towel Set", 29, 79, (), True),
        ("Table Lamp", 35, 120, (), True), ("Ceramic Dinnerware Set", 59, 149, (), True),
    )),
    "Sports & Outdoors": (("Summitline", "Riverbend", "Trailform"), (
        ("Yoga Mat", 22, 79, (), True), ("Insulated Water Bottle", 18, 45, (), True),
        ("Camping Tent", 119, 399, (), True), ("Daypack", 49, 129, (), True), ("Sleeping Bag", 69, 199, (), True),
    )),
    "Beauty": (("Glowhaus", "Verdant"), (
        ("Face Moisturizer", 16, 48, (), False), ("Vitamin C Serum", 19, 59, (), False),
        ("Shampoo & Conditioner Set", 14, 36, (), False), ("Sunscreen SPF 50", 12, 29, (), False),
    )),
}
LINES = ("Classic", "Pro", "Essential", "Trail", "City", "Ultra", "Everyday", "Signature")
REVIEW_TITLES = {5: ("Love it", "Exactly what I wanted", "Excellent quality", "Five stars"),
                 4: ("Very good", "Solid buy", "Happy with it", "Good value"),
                 3: ("It's okay", "Does the job", "Mixed feelings"),
                 2: ("Disappointed", "Not great", "Runs small"),
                 1: ("Broke quickly", "Would not buy again", "Poor quality")}
REVIEW_BODIES = ("Arrived quickly and works as described.", "The fit and finish are better than I expected.",
                 "Good for the price, though the colour is a bit different from the photos.",
                 "I use it every day.", "Returned the first one, the replacement was fine.",
                 "Would recommend to friends.", "Quality could be better for what it costs.")
COUPONS = (  # code, kind, value, min spend, category, expiry (days from now), description
    ("WELCOME10", "percent", 10, 0, None, 200, "10% off your order"),
    ("SAVE15", "fixed", 15, 75, None, 45, "$15 off orders of $75 or more"),
    ("SHOES20", "percent", 20, 50, "Shoes", 30, "20% off shoes, minimum $50 in shoes"),
    ("TECH25", "fixed", 25, 150, "Electronics", 60, "$25 off electronics of $150 or more"),
    ("HOME10", "percent", 10, 40, "Home & Kitchen", 90, "10% off home & kitchen, minimum $40"),
    ("OUTDOOR30", "fixed", 30, 200, "Sports & Outdoors", 20, "$30 off outdoor gear of $200 or more"),
    ("GLOW5", "fixed", 5, 25, "Beauty", 120, "$5 off beauty of $25 or more"),
    ("SUMMER20", "percent", 20, 60, None, -12, "20% off summer sale (ended)"),
    ("SPRING15", "percent", 15, 0, None, -95, "15% off spring sale (ended)"),
    ("FLASH50", "fixed", 50, 250, None, -3, "$50 off orders of $250 or more (flash sale, ended)"),
    ("BOOTS40", "fixed", 40, 150, "Shoes", -30, "$40 off boots of $150 or more (ended)"),
    ("STYLE25", "percent", 25, 100, "Clothing", 7, "25% off clothing of $100 or more"),
)
ADDRESS_LABELS = ("Home", "Work", "Mom's place", "Vacation home", "Office")


def seed(ctx: SeedContext) -> None:
    today = ctx.now.date()
    for code, kind, value, min_spend, category, days, description in COUPONS:
        ctx.add(Coupon(code=code, kind=kind, value=float(value), min_spend=float(min_spend), category=category,
                       expires_on=today + dt.timedelta(days=days), description=description))
    catalog = _catalog(ctx)
    customers = [_customer(ctx) for _ in range(N_CUSTOMERS)]
    reviewed: set[tuple[str, str]] = set()
    for customer in customers:
        _Shopper(ctx, customer, catalog, reviewed).live()
    for product, variants in catalog:
        _review_strangers(ctx, product, customers, reviewed)
    _joined_and_listed_first(ctx)


def _joined_and_listed_first(ctx: SeedContext) -> None:
    """Move each customer's joining and each product's listing to at least a day before the first order,
    review, cart line or wishlist entry of theirs (only those instants change: nothing is drawn here)."""
    session = ctx.session
    session.flush()
    first_by_customer: dict[str, dt.datetime] = {}
    first_by_product: dict[str, dt.datetime] = {}
    for customer_id, product_id, at in [
            *session.execute(select(Order.customer_id, OrderItem.product_id, Order.placed_at)
                             .join(OrderItem, OrderItem.order_id == Order.id)),
            *session.execute(select(Review.customer_id, Review.product_id, Review.created_at)),
            *session.execute(select(WishlistItem.customer_id, WishlistItem.product_id, WishlistItem.added_at)),
            *session.execute(select(CartItem.customer_id, Variant.product_id, CartItem.added_at)
                             .join(Variant, Variant.id == CartItem.variant_id))]:
        first_by_customer[customer_id] = min(at, first_by_customer.get(customer_id, at))
        first_by_product[product_id] = min(at, first_by_product.get(product_id, at))
    for customer in session.scalars(select(Customer)):
        if customer.id in first_by_customer:
            customer.member_since = min(customer.member_since, first_by_customer[customer.id] - dt.timedelta(days=1))
    for product in session.scalars(select(Product)):
        if product.id in first_by_product:
            product.listed_at = min(product.listed_at, first_by_product[product.id] - dt.timedelta(days=1))


def _catalog(ctx: SeedContext) -> list[tuple[Product, list[Variant]]]:
    rng = ctx.rng
    catalog = []
    names: set[str] = set()
    for category, (brands, kinds) in CATALOG.items():
        for noun, low, high, sizes, colours in kinds:
            for brand in rng.sample(brands, min(len(brands), rng.choice([2, 3, 3]))):
                name = f"{brand} {rng.choice(LINES)} {noun}"
                if name in names:
                    continue
                names.add(name)
                base = float(rng.randrange(int(low), int(high) + 1)) - 0.01
                product = Product(id=ctx.new_id("PRD"), name=name, brand=brand, category=category,
                                  description=f"{ctx.fake.sentence(nb_words=10)}", price=base, rating=0.0,
                                  review_count=0, listed_at=ctx.moment(-900, -20))
                ctx.add(product)
                variants = []
                tints = rng.sample(COLOURS, rng.randint(2, 3)) if colours else [None]
                fits = rng.sample(sizes, min(len(sizes), rng.randint(2, 4))) if sizes else [None]
                fits = sorted(fits, key=lambda s: (sizes.index(s) if s else 0))
                for tint in tints:
                    for fit in fits:
                        price = base if fit not in ("XL", "12") else cents(base + 5)
                        roll = rng.random()
                        stock = 0 if roll < 0.1 else 1 if roll < 0.18 else rng.randint(2, 40)
                        sku = f"{brand[:3].upper()}-{product.id[-4:]}-{(tint or 'STD')[:3].upper()}-{fit or 'OS'}"
                        variant = Variant(id=ctx.new_id("VAR"), product_id=product.id, size=fit, colour=tint,
                                          sku=sku, price=price, stock=stock)
                        ctx.add(variant)
                        variants.append(variant)
                product.price = min(v.price for v in variants)
                catalog.append((product, variants))
    return catalog


def _customer(ctx: SeedContext) -> Customer:
    first, last = ctx.person_name()
    domain = ctx.rng.choice(["gmail.com", "yahoo.com", "outlook.com", "icloud.com", "proton.me"])
    customer = Customer(id=ctx.new_id("CUS"), first_name=first, last_name=last,
                        email=f"{first.lower()}.{last.lower()}{ctx.rng.randint(1, 99)}@{domain}",
                        phone=ctx.fake.numerify("(%##) %##-####"), member_since=ctx.moment(-2000, -60))
    ctx.add(customer)
    return customer


def _rate(product: Product, stars: int) -> None:
    total = product.rating * product.review_count + stars
    product.review_count += 1
    product.rating = round(total / product.review_count, 1)


def _review(ctx: SeedContext, product: Product, customer: Customer, when: dt.datetime) -> None:
    stars = ctx.rng.choices([5, 4, 3, 2, 1], weights=[5, 4, 2, 1, 1])[0]
    ctx.add(Review(id=ctx.new_id("REV"), product_id=product.id, customer_id=customer.id, rating=stars,
                   title=ctx.rng.choice(REVIEW_TITLES[stars]), body=ctx.rng.choice(REVIEW_BODIES), created_at=when))
    _rate(product, stars)


def _review_strangers(ctx: SeedContext, product: Product, customers: list[Customer],
                      reviewed: set[tuple[str, str]]) -> None:
    """Reviews from verified buyers of earlier orders not kept in this world (some products get none)."""
    for customer in ctx.rng.sample(customers, ctx.rng.choice([0, 0, 1, 2, 3, 4])):
        if (customer.id, product.id) not in reviewed:
            reviewed.add((customer.id, product.id))
            _review(ctx, product, customer, ctx.moment(-300, -70))


class _Shopper:
    """One customer's addresses, payment methods, orders, cart and wishlist."""

    def __init__(self, ctx: SeedContext, customer: Customer, catalog: list, reviewed: set) -> None:
        self.ctx, self.rng, self.customer, self.catalog, self.reviewed = ctx, ctx.rng, customer, catalog, reviewed

    def live(self) -> None:
        self.addresses = self._addresses()
        self.methods = self._payment_methods()
        days: set[dt.date] = set()
        if self.addresses and self.methods:
            for _ in range(self.rng.choice([0, 1, 2, 3, 3, 4, 5])):
                self._order(days)
        self._cart()
        self._wishlist()

    def _addresses(self) -> list[Address]:
        rng, ctx = self.rng, self.ctx
        count = rng.choice([0, 1, 1, 2, 2, 3]) if self.customer.id != "CUS-0001" else 2
        labels = ["Home"] + rng.sample(ADDRESS_LABELS[1:], 2)
        addresses = []
        for i in range(count):
            recipient = self.customer.name if labels[i] != "Mom's place" else \
                f"{ctx.fake.first_name_female()} {self.customer.last_name}"
            address = Address(id=ctx.new_id("ADR"), customer_id=self.customer.id, label=labels[i],
                              recipient=recipient, street=ctx.fake.street_address(), city=ctx.fake.city(),
                              state=ctx.fake.state_abbr(include_territories=False,
                                                        include_freely_associated_states=False),
                              zip_code=ctx.fake.zipcode(), is_default=i == 0)
            ctx.add(address)
            addresses.append(address)
        return addresses

    def _payment_methods(self) -> list[PaymentMethod]:
        rng, ctx = self.rng, self.ctx
        methods = []
        brands = rng.sample(["Visa", "Mastercard", "Amex"], rng.choice([1, 1, 2]))
        for brand in brands:
            year = ctx.now.year + rng.choice([-1, 1, 2, 3, 4]) if rng.random() < 0.12 else \
                ctx.now.year + rng.randint(1, 4)
            month = rng.randint(1, 12)
            last = (dt.date(year, month % 12 + 1, 1) if month < 12 else dt.date(year + 1, 1, 1)) - dt.timedelta(days=1)
            methods.append(PaymentMethod(id=ctx.new_id("PMT"), customer_id=self.customer.id, kind="card", brand=brand,
                                         last4=f"{rng.randrange(10000):04d}", email=None, expires=last, balance=None))
        if rng.random() < 0.35:
            methods.append(PaymentMethod(id=ctx.new_id("PMT"), customer_id=self.customer.id, kind="paypal",
                                         brand="PayPal", last4=None, email=self.customer.email, expires=None,
                                         balance=None))
        if rng.random() < 0.3:
            methods.append(PaymentMethod(id=ctx.new_id("PMT"), customer_id=self.customer.id, kind="gift_card",
                                         brand="Gift card", last4=f"{rng.randrange(10000):04d}", email=None,
                                         expires=None, balance=float(rng.choice([10, 25, 50, 100, 200]))))
        if rng.random() < 0.05:
            methods = []
        ctx.add(*methods)
        return methods

    def _usable(self) -> list[PaymentMethod]:
        return [m for m in self.methods if m.kind != "gift_card" and (m.expires is None or m.expires >= self.ctx.now.date())]

    def _order(self, days: set[dt.date]) -> None:
        rng, ctx = self.rng, self.ctx
        status = rng.choices(["placed", "shipped", "delivered", "delivered_old", "cancelled"],
                             weights=[18, 17, 30, 27, 8])[0]
        placed = ctx.moment(*{"placed": (-1, -0.1), "shipped": (-6, -2), "delivered": (-32, -6),
                              "delivered_old": (-150, -40), "cancelled": (-20, -2)}[status])
        status = status.removesuffix("_old")
        if placed.date() in days or not self._usable():
            return
        days.add(placed.date())
        picks = rng.sample(self.catalog, rng.choice([1, 1, 2, 2, 3]))
        lines = []
        for product, variants in picks:
            variant = rng.choice(variants)
            lines.append((product, variant, rng.choice([1, 1, 1, 2])))
        method = rng.choice(["standard", "standard", "express", "overnight"])
        priced = [(p.category, v.price * q) for p, v, q in lines]
        code, discount = None, 0.0
        if rng.random() < 0.25:
            code, discount = "WELCOME10", discount_of("percent", 10, None, priced)
        total = totals(priced, discount, method)
        shipped = placed + dt.timedelta(hours=rng.randint(16, 30))
        # a delivery still due lies ahead of the clock: a delivered order arrived by now
        delivered = min(shipped + dt.timedelta(days=SHIPPING[method][2], hours=rng.randint(0, 20)),
                        ctx.now - dt.timedelta(hours=2))
        order = Order(id=ctx.new_id("ORD"), customer_id=self.customer.id, status=status,
                      address_id=rng.choice(self.addresses).id, payment_method_id=rng.choice(self._usable()).id,
                      shipping_method=method, coupon_code=code, subtotal=total["subtotal"], discount=discount,
                      tax=total["tax"], shipping_cost=total["shipping"], total=total["total"],
                      refunded=total["total"] if status == "cancelled" else 0.0,
                      placed_at=placed, shipped_at=shipped if status in ("shipped", "delivered") else None,
                      delivered_at=delivered if status == "delivered" else None,
                      cancelled_at=placed + dt.timedelta(hours=2) if status == "cancelled" else None,
                      cancel_reason="Ordered by mistake" if status == "cancelled" else None)
        ctx.add(order)
        items = []
        for product, variant, quantity in lines:
            item = OrderItem(order_id=order.id, variant_id=variant.id, product_id=product.id, name=product.name,
                             size=variant.size, colour=variant.colour, unit_price=variant.price, quantity=quantity,
                             returned_quantity=0)
            ctx.add(item)
            items.append((item, variant))
            if status == "delivered" and rng.random() < 0.3 and (self.customer.id, product.id) not in self.reviewed:
                self.reviewed.add((self.customer.id, product.id))
                _review(ctx, product, self.customer, min(ctx.now, delivered + dt.timedelta(days=rng.randint(1, 9))))
        chance = random.Random(f"returns {order.id}")  # its own stream: the rest of the world stays as drawn
        if status == "delivered" and chance.random() < 0.2:
            self._return(order, *chance.choice(items), delivered, chance)

    def _return(self, order: Order, item: OrderItem, variant: Variant, delivered: dt.datetime,
                rng: random.Random) -> None:
        """An item sent back within the return window: refunded, restocked; the whole order returned
        when nothing of it is left."""
        when = min(self.ctx.now - dt.timedelta(hours=1), delivered + dt.timedelta(days=rng.randint(1, 12)))
        refund = refund_of(item.unit_price, item.quantity, order.subtotal, order.discount)
        item.returned_quantity = item.quantity
        variant.stock += item.quantity
        order.refunded = cents(order.refunded + refund)
        self.ctx.add(Return(id=self.ctx.new_id("RET"), order_id=order.id, variant_id=variant.id,
                            quantity=item.quantity, refund=refund, payment_method_id=order.payment_method_id,
                            reason=rng.choice(["Too small", "Not as described", "Arrived damaged", None]),
                            created_at=when))
        self.ctx.session.flush()
        left = sum(i.quantity - i.returned_quantity for i in self.ctx.session.query(OrderItem)
                   .filter(OrderItem.order_id == order.id))
        if not left:
            order.status = "returned"

    def _cart(self) -> None:
        rng = self.rng
        if rng.random() < 0.35:
            return
        added = 0
        for product, variants in rng.sample(self.catalog, rng.choice([1, 2, 2, 3, 4])):
            stocked = [v for v in variants if v.stock > 0]
            if not stocked:
                continue
            variant = rng.choice(stocked)
            added += 1
            self.ctx.add(CartItem(customer_id=self.customer.id, variant_id=variant.id,
                                  quantity=min(variant.stock, rng.choice([1, 1, 1, 2, 3])),
                                  added_at=self.ctx.moment(-14, -0.1)))
        if added and rng.random() < 0.25:
            self.customer.cart_coupon = "WELCOME10"  # no minimum spend: valid on any cart

    def _wishlist(self) -> None:
        for product, _ in self.rng.sample(self.catalog, self.rng.choice([0, 0, 1, 2, 3, 4])):
            self.ctx.add(WishlistItem(customer_id=self.customer.id, product_id=product.id,
                                      added_at=self.ctx.moment(-200, -1)))
