"""Shopping: an online store's catalog, carts, coupons, checkout, orders, returns, reviews and wishlists."""
