"""Marketplace: members who sell and buy; fixed-price and auction listings, bids, offers, orders, shipping, feedback and watchlists."""
