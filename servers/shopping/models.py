"""The store's tables. Money is a float rounded to cents, in USD.

A cart is the set of `cart_items` rows of a customer (one row per variant) plus the coupon code the
customer applied (`customers.cart_coupon`). Checkout turns the cart into an `orders` row with its
`order_items`, reserving stock; a return of delivered items is a `returns` row refunded to the
order's payment method.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Customer(Base):
    __tablename__ = "customers"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "CUS-0003"
    first_name: Mapped[str]
    last_name: Mapped[str]
    email: Mapped[str]
    phone: Mapped[str]
    member_since: Mapped[dt.datetime]
    cart_coupon: Mapped[str | None] = mapped_column(default=None)  # the code applied to the cart

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Product(Base):
    __tablename__ = "products"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PRD-0012"
    name: Mapped[str]
    brand: Mapped[str] = mapped_column(index=True)
    category: Mapped[str] = mapped_column(index=True)
    description: Mapped[str]
    price: Mapped[float]  # the lowest variant price
    rating: Mapped[float]  # average of its reviews, one decimal; 0.0 without reviews
    review_count: Mapped[int]
    listed_at: Mapped[dt.datetime]


class Variant(Base):
    """One buyable version of a product: a size and/or colour, its own price and stock."""

    __tablename__ = "variants"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "VAR-0040"
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"), index=True)
    size: Mapped[str | None]
    colour: Mapped[str | None]
    sku: Mapped[str]
    price: Mapped[float]
    stock: Mapped[int]


class Review(Base):
    __tablename__ = "reviews"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "REV-0101"
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"), index=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    rating: Mapped[int]  # 1 to 5
    title: Mapped[str]
    body: Mapped[str]
    created_at: Mapped[dt.datetime]


class Address(Base):
    __tablename__ = "addresses"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ADR-0007"
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    label: Mapped[str]  # Home | Work | Mom's | ...
    recipient: Mapped[str]
    street: Mapped[str]
    city: Mapped[str]
    state: Mapped[str]
    zip_code: Mapped[str]
    is_default: Mapped[bool]


class PaymentMethod(Base):
    __tablename__ = "payment_methods"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "PMT-0009"
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    kind: Mapped[str]  # card | paypal | gift_card
    brand: Mapped[str]  # Visa, Mastercard, Amex, PayPal, Gift card
    last4: Mapped[str | None]  # cards and gift cards
    email: Mapped[str | None]  # PayPal
    expires: Mapped[dt.date | None]  # cards: the last day of the expiry month
    balance: Mapped[float | None]  # gift cards


class Coupon(Base):
    __tablename__ = "coupons"

    code: Mapped[str] = mapped_column(String, primary_key=True)  # "SPRING20"
    kind: Mapped[str]  # percent | fixed
    value: Mapped[float]  # percent off, or dollars off
    min_spend: Mapped[float]  # on the items the coupon applies to
    category: Mapped[str | None]  # None: every category
    expires_on: Mapped[dt.date]  # the last day it can be used
    description: Mapped[str]


class CartItem(Base):
    __tablename__ = "cart_items"

    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), primary_key=True)
    variant_id: Mapped[str] = mapped_column(ForeignKey("variants.id"), primary_key=True)
    quantity: Mapped[int]
    added_at: Mapped[dt.datetime]


class Order(Base):
    __tablename__ = "orders"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "ORD-0021"
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    status: Mapped[str]  # placed | shipped | delivered | cancelled | returned
    address_id: Mapped[str] = mapped_column(ForeignKey("addresses.id"))
    payment_method_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"))
    shipping_method: Mapped[str]  # standard | express | overnight
    coupon_code: Mapped[str | None]
    subtotal: Mapped[float]
    discount: Mapped[float]
    tax: Mapped[float]
    shipping_cost: Mapped[float]
    total: Mapped[float]
    refunded: Mapped[float]
    placed_at: Mapped[dt.datetime]
    shipped_at: Mapped[dt.datetime | None]
    delivered_at: Mapped[dt.datetime | None]
    cancelled_at: Mapped[dt.datetime | None]
    cancel_reason: Mapped[str | None]  # as the customer gave it, if they did


class OrderItem(Base):
    __tablename__ = "order_items"

    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), primary_key=True)
    variant_id: Mapped[str] = mapped_column(ForeignKey("variants.id"), primary_key=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"), index=True)
    name: Mapped[str]
    size: Mapped[str | None]
    colour: Mapped[str | None]
    unit_price: Mapped[float]
    quantity: Mapped[int]
    returned_quantity: Mapped[int]


class Return(Base):
    """Items of a delivered order sent back, and the refund paid to the order's payment method."""

    __tablename__ = "returns"

    id: Mapped[str] = mapped_column(String, primary_key=True)  # "RET-0004"
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    variant_id: Mapped[str] = mapped_column(ForeignKey("variants.id"))
    quantity: Mapped[int]
    refund: Mapped[float]
    payment_method_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"))
    reason: Mapped[str | None]
    created_at: Mapped[dt.datetime]


class WishlistItem(Base):
    __tablename__ = "wishlist_items"

    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), primary_key=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"), primary_key=True)
    added_at: Mapped[dt.datetime]
