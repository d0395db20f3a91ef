"""How the store prices a cart: items, coupon discount, sales tax and shipping.

- A coupon's discount applies to the items it covers (its category, or every item): a percentage
  of their total, or a fixed amount (never more than their total). Its minimum spend is on those
  same items. It can be used up to and including its expiry date.
- Sales tax is 8.25% of the items' total after the discount.
- Shipping: standard 5.99 (free when the items after the discount come to 50.00 or more),
  express 14.99, overnight 29.99. Shipping is not taxed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

TAX_RATE = 0.0825
FREE_SHIPPING_FROM = 50.00
SHIPPING = {
    "standard": (5.99, "5 to 7 business days", 6),
    "express": (14.99, "2 to 3 business days", 3),
    "overnight": (29.99, "the next business day", 1),
}
RETURN_DAYS = 30


def cents(value: float) -> float:
    return round(value + 1e-9, 2)


def covered(coupon_category: str | None, lines: Sequence[tuple[str, float]]) -> float:
    """The total of the lines (category, line total) a coupon applies to."""
    return cents(sum(amount for category, amount in lines if coupon_category in (None, category)))


def coupon_problem(kind: str, value: float, min_spend: float, category: str | None, expires_on: dt.date,
                   code: str, lines: Sequence[tuple[str, float]], today: dt.date) -> str | None:
    """Why a coupon cannot be used on these lines today, or None."""
    if expires_on < today:
        return f"Coupon {code} expired on {expires_on.isoformat()} and can no longer be used"
    base = covered(category, lines)
    if category is not None and base == 0:
        return f"Coupon {code} only applies to {category} items, and the cart has none"
    if base < min_spend:
        scope = f"{category} items" if category else "items"
        return (f"Coupon {code} needs a minimum spend of {min_spend:.2f} on {scope}; the cart has "
                f"{base:.2f}")
    return None


def discount_of(kind: str, value: float, category: str | None, lines: Sequence[tuple[str, float]]) -> float:
    base = covered(category, lines)
    if kind == "percent":
        return cents(base * value / 100)
    return cents(min(value, base))


def shipping_cost(method: str, merchandise: float) -> float:
    cost = SHIPPING[method][0]
    if method == "standard" and merchandise >= FREE_SHIPPING_FROM:
        return 0.0
    return cost


def totals(lines: Sequence[tuple[str, float]], discount: float, method: str | None) -> dict:
    """Subtotal, discount, tax, shipping (None without a method) and total."""
    subtotal = cents(sum(amount for _, amount in lines))
    merchandise = cents(subtotal - discount)
    tax = cents(merchandise * TAX_RATE)
    shipping = shipping_cost(method, merchandise) if method else None
    return {"subtotal": subtotal, "discount": discount, "tax": tax, "shipping": shipping,
            "total": cents(merchandise + tax + (shipping or 0.0))}


def refund_of(unit_price: float, quantity: int, subtotal: float, discount: float) -> float:
    """What returning `quantity` units refunds: their price less their share of the discount, plus tax."""
    line = unit_price * quantity
    share = line * (1 - discount / subtotal) if subtotal else line
    return cents(cents(share) * (1 + TAX_RATE))
