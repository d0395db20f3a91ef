"""Food delivery: restaurants, menus, carts, orders and their tracking."""
