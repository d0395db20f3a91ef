"""The maps server's tools: geocoding, places, routing, and a person's saved places and lists.

Rules, in one place:
- Routes and matrices stay inside one city; driving cannot start or end on a pedestrian street;
  transit runs only in cities with buses.
- Nearby search reaches at most 5,000 m; a matrix holds at most 10 origins and 10 destinations.
- Reverse geocoding finds an address only within 500 m of the point.
- A place is saved once per person, and a label names one saved place; permanently closed places
  cannot be saved or added to lists.
- List names are 1 to 60 characters, unique per person (at most 10 lists); a list holds a place
  once, at most 25 places; removing a place that is not on the list is refused.
"""

from __future__ import annotations

import heapq
import math
import re
from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Detail, Entity, Id, Limit, Toolkit, ToolError, tool

from .models import Address, Base, City, ListEntry, Place, PlaceList, SavedPlace, User
from .seed import CATEGORIES, METERS_PER_DEGREE, seed

Category = Literal[tuple(sorted(CATEGORIES))]  # type: ignore[valid-type]
Mode = Literal["driving", "walking", "transit"]
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WALK_M_PER_MIN = 5000 / 60
BUS_M_PER_MIN = 20000 / 60
BUS_WAIT_MIN = 5.0  # half the 10-minute headway
SIGNAL_MIN = 0.25  # an average wait at each intersection by car
MAX_RADIUS, MAX_MATRIX, MAX_LISTS, MAX_ENTRIES, MAX_LIST_NAME, MAX_LABEL = 5000, 10, 10, 25, 60, 40
REVERSE_REACH_M = 500
ABBREVIATIONS = {"st": "street", "ave": "avenue", "av": "avenue", "blvd": "boulevard", "1st": "1st", "n": "north"}
PLACE_COLUMNS = ("p.id, p.name, p.category, p.rating, p.price_level, p.status, p.opens, p.closes, p.closed_weekday, "
                 "a.id, a.label, a.latitude, a.longitude, p.city_id")


class MapsServer(Toolkit):
    """A map of four cities: find addresses and places (by name, category, rating, price and opening
    hours against the current time), get routes and travel times by car, on foot or by bus, and keep
    a person's saved places and lists of places."""

    name = "maps"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("city", City, "CTY", lookup="list_cities"),
        Entity("address", Address, "ADR", lookup="geocode"),
        Entity("place", Place, "PLC", lookup="search_places"),
        Entity("user", User, "USR", lookup="find_users"),
        Entity("saved_place", SavedPlace, "SAV", lookup="list_saved_places"),
        Entity("list", PlaceList, "LST", lookup="list_lists"),
    )

    # -- geography --------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_cities(self, name: str | None = None) -> list[dict]:
        """List the cities on the map, ordered by name, optionally those whose name contains a text.

        Args:
            name: part of the city's name, ignoring case, such as 'riverton'.
        """
        query = select(City).order_by(City.name)
        if name and name.strip():
            query = query.where(func.lower(City.name).contains(name.strip().lower()))
        return [{"city_id": c.id, "name": c.name, "state": c.state, "has_transit": c.has_transit,
                 "latitude": c.latitude, "longitude": c.longitude} for c in self.db.scalars(query)]

    @tool(read_only=True)
    def geocode(self, query: str, city_id: Id("city") | None = None, limit: Limit = 10) -> list[dict]:
        """Find street addresses matching a written address, ordered by address; every word must match
        ('41 maple st' finds '41 Maple Street, Riverton'). Abbreviations St, Ave and Blvd are understood.

        Args:
            query: the address as written, such as '41 Maple Street, Riverton' or '41 maple st'.
            city_id: only addresses in this city.
        """
        words = set(_words(query))
        if not words:
            raise ToolError("query is empty; give a street address such as '41 Maple Street, Riverton'")
        sql = "SELECT id, label, latitude, longitude, city_id FROM addresses WHERE 1 = 1"
        params: list = []
        if city_id is not None:
            sql += " AND city_id = ?"
            params.append(self.get(City, city_id).id)
        # Whole words of the label, commas aside (words are [a-z0-9']: no wildcards). The plain LIKE
        # on each word goes first: it passes every label the exact test would (a label's comma is
        # always followed by a space) and turns most rows away at a fraction of its cost.
        for word in sorted(words):
            sql += " AND label LIKE ?"
            params.append(f"%{word}%")
        for word in sorted(words):
            sql += " AND instr(' ' || lower(replace(label, ',', '')) || ' ', ?)"
            params.append(f" {word} ")
        return [_address(r) for r in self.rows(sql + " ORDER BY label, id LIMIT ?", *params, limit)]

    @tool(read_only=True, produces=("address",))
    def reverse_geocode(self, latitude: float, longitude: float) -> dict:
        """The street address nearest to a point, with its distance in meters (within 500 m).

        Args:
            latitude: degrees north, from -90 to 90, such as 45.5231.
            longitude: degrees east, from -180 to 180, such as -122.6765.
        """
        if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
            raise ToolError(f"({latitude}, {longitude}) is not a point on Earth: latitude is -90 to 90, "
                            "longitude -180 to 180")
        scale = math.cos(math.radians(latitude)) ** 2
        row = self.rows("SELECT id, label, latitude, longitude, city_id FROM addresses ORDER BY "
                        "(latitude - ?) * (latitude - ?) + (longitude - ?) * (longitude - ?) * ?, id LIMIT 1",
                        latitude, latitude, longitude, longitude, scale)
        if row:
            distance = _meters(latitude, longitude, row[0][2], row[0][3])
            if distance <= REVERSE_REACH_M:
                return {**_address(row[0]), "distance_m": round(distance)}
        raise ToolError(f"no street address within {REVERSE_REACH_M} m of ({latitude}, {longitude}); "
                        "the map covers Riverton, Oak Harbor, Millbrook and Cedar Falls (list_cities gives their centers)")

    # -- places -----------------------------------------------------------------------------------

    @tool(read_only=True, produces=("place", "address"))
    def search_places(self, query: str | None = None, city_id: Id("city") | None = None,
                      category: Category | None = None, limit: Limit = 10) -> list[dict]:
        """Find places whose name contains a text (ignoring case), ordered by name; permanently closed
        places are listed with that status.

        Args:
            query: part of the place's name, such as 'walgreens' or 'coffee'.
            city_id: only places in this city.
            category: only places of this category.
        """
        sql, params = f"SELECT {PLACE_COLUMNS} FROM places p JOIN addresses a ON a.id = p.address_id WHERE 1 = 1", []
        if query and query.strip():
            sql += " AND p.name LIKE ?"  # LIKE ignores case (ASCII, as lower() does)
            params.append(f"%{query.strip().lower()}%")
        if city_id is not None:
            sql += " AND p.city_id = ?"
            params.append(self.get(City, city_id).id)
        if category is not None:
            sql += " AND p.category = ?"
            params.append(category)
        rows = self.rows(sql + " ORDER BY p.name, p.id LIMIT ?", *params, limit)
        return [self._brief(r) for r in rows]

    @tool(read_only=True)
    def list_categories(self, city_id: Id("city") | None = None) -> list[dict]:
        """The categories of places with how many operating places each has, ordered by category.

        Args:
            city_id: count only places in this city.
        """
        sql, params = "SELECT category, count(*) FROM places WHERE status = 'operational'", []
        if city_id is not None:
            sql += " AND city_id = ?"
            params.append(self.get(City, city_id).id)
        return [{"category": c, "places": n} for c, n in self.rows(sql + " GROUP BY category ORDER BY category", *params)]

    @tool(read_only=True, produces=("address",))
    def get_place(self, place_id: Id("place")) -> dict:
        """One place in full: address, category, rating and reviews, price level, phone, opening hours and
        whether it is open right now."""
        row = self.rows(f"SELECT {PLACE_COLUMNS}, p.phone, p.review_count FROM places p JOIN addresses a "
                        "ON a.id = p.address_id WHERE p.id = ?", self.get(Place, place_id).id)[0]
        return {**self._brief(row), "phone": row[14], "review_count": row[15], "hours": _hours(row[6], row[7], row[8])}

    @tool(read_only=True, produces=("place",))
    def nearby_places(self, address_id: Id("address"), radius_m: int = 1000, category: Category | None = None,
                      min_rating: float | None = None, max_price_level: int | None = None,
                      open_now: bool = False, limit: Limit = 10) -> list[dict]:
        """Operating places within a straight-line radius of an address, nearest first (ties by name),
        each with its distance in meters.

        Args:
            radius_m: how far to look, in meters, 1 to 5000 (default 1000).
            category: only places of this category.
            min_rating: only places rated at least this, from 1.0 to 5.0, such as 4.0.
            max_price_level: only places at most this expensive, 1 ($) to 4 ($$$$).
            open_now: only places open at the current time.
        """
        if not 1 <= radius_m <= MAX_RADIUS:
            raise ToolError(f"radius_m must be 1 to {MAX_RADIUS} meters, got {radius_m}; search a smaller area")
        if min_rating is not None and not 1 <= min_rating <= 5:
            raise ToolError(f"min_rating must be 1.0 to 5.0, got {min_rating}")
        if max_price_level is not None and not 1 <= max_price_level <= 4:
            raise ToolError(f"max_price_level must be 1 to 4, got {max_price_level}")
        center = self.get(Address, address_id)
        sql = (f"SELECT {PLACE_COLUMNS} FROM places p JOIN addresses a ON a.id = p.address_id "
               "WHERE p.city_id = ? AND p.status = 'operational'")
        params: list = [center.city_id]
        if category is not None:
            sql += " AND p.category = ?"
            params.append(category)
        if min_rating is not None:
            sql += " AND p.rating >= ?"
            params.append(min_rating - 1e-9)
        if max_price_level is not None:
            sql += " AND p.price_level <= ?"
            params.append(max_price_level)
        found = []
        for row in self.rows(sql, *params):
            distance = round(_meters(center.latitude, center.longitude, row[11], row[12]))
            if distance <= radius_m:
                brief = self._brief(row)
                if open_now and not brief["open_now"]:
                    continue
                found.append({**brief, "distance_m": distance})
        found.sort(key=lambda p: (p["distance_m"], p["name"], p["place_id"]))
        return found[:limit]

    # -- routing ----------------------------------------------------------------------------------

    @tool(read_only=True)
    def get_route(self, from_address_id: Id("address"), to_address_id: Id("address"),
                  mode: Mode = "driving") -> dict:
        """The fastest route between two addresses of one city by car, on foot or by bus: distance,
        duration in minutes, turn-by-turn steps and, by bus, the lines ridden (none when walking is faster).

        Args:
            mode: 'driving' (default), 'walking' or 'transit' (buses, with walking to and from the stops).
        """
        origin, destination = self.get(Address, from_address_id), self.get(Address, to_address_id)
        if origin.id == destination.id:
            raise ToolError(f"{origin.id} is both the start and the end; give two different addresses")
        self._routable(origin, destination, mode)
        graph = self._graph(origin.city_id, mode)
        best = _dijkstra(graph, origin, mode, destination.node_id)
        state = min((s for s in best if s[0] == destination.node_id), key=lambda s: best[s][0], default=None)
        if state is None:
            raise ToolError(f"no {mode} route from {origin.label} to {destination.label}; try another mode")
        edges = []
        while state is not None and best[state][2] is not None:
            edges.append(best[state][2])
            state = best[state][1]
        edges.reverse()
        first = _leg(origin.street, origin.offset_m, mode, None)
        last = _leg(destination.street, destination.offset_m, mode, None)
        steps = _steps([first, *edges, last], mode)
        distance = round(sum(e[1] for e in (first, *edges, last)))
        minutes = sum(e[3] for e in (first, *edges, last))
        steps.append({"instruction": f"Arrive at {destination.label}", "distance_m": 0})
        route = {"mode": mode, "from": {"address_id": origin.id, "label": origin.label},
                 "to": {"address_id": destination.id, "label": destination.label},
                 "distance_m": distance, "distance_km": round(distance / 1000, 1),
                 "duration_min": max(1, round(minutes)), "steps": steps}
        if mode == "transit":  # the bus lines ridden; none when walking all the way is faster
            route["bus_lines"] = sorted({leg[2] for leg in edges if leg[2] not in ("walk", "drive")})
        return route

    @tool(read_only=True)
    def distance_matrix(self, from_address_ids: list[Id("address")], to_address_ids: list[Id("address")],
                        mode: Mode = "driving") -> list[dict]:
        """Distances and travel times from each of up to 10 addresses to each of up to 10 addresses, one
        row per pair (origin order, then destination order); a pair that cannot be routed says why.

        Args:
            from_address_ids: the starting addresses, 1 to 10.
            to_address_ids: the destination addresses, 1 to 10.
            mode: 'driving' (default), 'walking' or 'transit'.
        """
        if not 1 <= len(from_address_ids) <= MAX_MATRIX or not 1 <= len(to_address_ids) <= MAX_MATRIX:
            raise ToolError(f"a matrix takes 1 to {MAX_MATRIX} origins and 1 to {MAX_MATRIX} destinations, got "
                            f"{len(from_address_ids)} and {len(to_address_ids)}; split it into smaller ones")
        origins = [self.get(Address, a) for a in from_address_ids]
        destinations = [self.get(Address, a) for a in to_address_ids]
        cells = []
        for origin in origins:
            best = None
            for destination in destinations:
                cell = {"from_address_id": origin.id, "from": origin.label, "to_address_id": destination.id,
                        "to": destination.label}
                if origin.id == destination.id:
                    cells.append({**cell, "distance_m": 0, "duration_min": 0})
                    continue
                try:
                    self._routable(origin, destination, mode)
                except ToolError as exc:
                    cells.append({**cell, "error": str(exc)})
                    continue
                if best is None:
                    best = _dijkstra(self._graph(origin.city_id, mode), origin, mode)
                ends = [best[s] for s in best if s[0] == destination.node_id]
                if not ends:
                    cells.append({**cell, "error": f"no {mode} route"})
                    continue
                end = min(ends, key=lambda e: e[0])
                minutes = end[0] + _leg(destination.street, destination.offset_m, mode, None)[3]
                cells.append({**cell, "distance_m": round(end[3] + destination.offset_m),
                              "duration_min": max(1, round(minutes))})
        return cells

    # -- people, saved places and lists ----------------------------------------------------------

    @tool(read_only=True)
    def find_users(self, name: str | None = None, email: str | None = None, limit: Limit = 10) -> list[dict]:
        """Find people by part of their name or their exact email (ignoring case), ordered by id.

        Args:
            name: part of the person's name, such as 'Ada Park' or 'park'.
            email: the person's email address, such as 'ada.park@example.com'.
        """
        return [{"user_id": u.id, "name": u.name, "email": u.email, "home_city_id": u.home_city_id}
                for u in self.find(User, name=name, email=email, limit=limit)]

    @tool(read_only=True, produces=("place", "address"))
    def list_saved_places(self, user_id: Id("user")) -> list[dict]:
        """A person's saved places, ordered by when they were saved, each with its label and address."""
        user = self.get(User, user_id)
        rows = self.rows("SELECT s.id, s.label, p.id, p.name, p.category, a.id, a.label, p.status FROM saved_places s "
                         "JOIN places p ON p.id = s.place_id JOIN addresses a ON a.id = p.address_id "
                         "WHERE s.user_id = ? ORDER BY s.id", user.id)
        return [{"saved_place_id": r[0], "label": r[1], "place_id": r[2], "name": r[3], "category": r[4],
                 "address_id": r[5], "address": r[6], "status": r[7]} for r in rows]

    @tool(produces=("saved_place",))
    def save_place(self, user_id: Id("user"), place_id: Id("place"), label: str | None = None) -> dict:
        """Save a place for a person, optionally under a label of their own such as 'Work'.

        Args:
            label: a name of the person's own for the place, 1 to 40 characters, unique among their saved places.
        """
        user, place = self.get(User, user_id), self.get(Place, place_id)
        if place.status != "operational":
            raise ToolError(f"{place.name} ({place.id}) has permanently closed and cannot be saved; "
                            "search_places or nearby_places finds an open alternative")
        saved = self.db.scalar(select(SavedPlace).where(SavedPlace.user_id == user.id, SavedPlace.place_id == place.id))
        if saved is not None:
            raise ToolError(f"{place.name} is already saved for {user.name} as {saved.id}; nothing to do")
        label = self._label(user, label)
        entry = SavedPlace(id=self.new_id("SAV"), user_id=user.id, place_id=place.id, label=label)
        self.db.add(entry)
        return {"saved_place_id": entry.id, "user_id": user.id, "place_id": place.id, "name": place.name,
                "label": label}

    @tool(destructive=True)
    def remove_saved_place(self, saved_place_id: Id("saved_place")) -> dict:
        """Remove a place from a person's saved places (the place itself stays on the map)."""
        saved = self.get(SavedPlace, saved_place_id)
        self.db.delete(saved)
        return {"saved_place_id": saved.id, "place_id": saved.place_id, "removed": True}

    @tool(read_only=True)
    def list_lists(self, user_id: Id("user")) -> list[dict]:
        """A person's lists of places, ordered by name, with how many places each holds."""
        user = self.get(User, user_id)
        rows = self.rows("SELECT l.id, l.name, count(e.id) FROM place_lists l LEFT JOIN list_entries e ON "
                         "e.list_id = l.id WHERE l.user_id = ? GROUP BY l.id ORDER BY l.name, l.id", user.id)
        return [{"list_id": r[0], "name": r[1], "places": r[2]} for r in rows]

    @tool(read_only=True, produces=("place", "address"))
    def get_list(self, list_id: Id("list")) -> dict:
        """One list with its places in the order they were added, each with its note."""
        place_list = self.get(PlaceList, list_id)
        rows = self.rows("SELECT p.id, p.name, p.category, p.rating, a.id, a.label, e.note, p.status FROM list_entries e "
                         "JOIN places p ON p.id = e.place_id JOIN addresses a ON a.id = p.address_id "
                         "WHERE e.list_id = ? ORDER BY e.id", place_list.id)
        return {"list_id": place_list.id, "user_id": place_list.user_id, "name": place_list.name,
                "places": [{"place_id": r[0], "name": r[1], "category": r[2], "rating": r[3], "address_id": r[4],
                            "address": r[5], "note": r[6], "status": r[7]} for r in rows]}

    @tool(produces=("list",))
    def create_list(self, user_id: Id("user"), name: str) -> dict:
        """Start a new, empty list of places for a person.

        Args:
            name: the list's name, 1 to 60 characters, unique among the person's lists, such as 'Date night'.
        """
        user = self.get(User, user_id)
        count = self.db.scalar(select(func.count()).select_from(PlaceList).where(PlaceList.user_id == user.id))
        if count >= MAX_LISTS:
            raise ToolError(f"{user.name} already has {MAX_LISTS} lists, the most allowed; delete one first")
        place_list = PlaceList(id=self.new_id("LST"), user_id=user.id, name=self._list_name(user.id, name))
        self.db.add(place_list)
        return {"list_id": place_list.id, "user_id": user.id, "name": place_list.name, "places": 0}

    @tool(idempotent=True)
    def rename_list(self, list_id: Id("list"), name: str) -> dict:
        """Give a list a new name.

        Args:
            name: the new name, 1 to 60 characters, unique among the person's lists.
        """
        place_list = self.get(PlaceList, list_id)
        place_list.name = self._list_name(place_list.user_id, name, but=place_list.id)
        return {"list_id": place_list.id, "name": place_list.name}

    @tool(sets=("list.entry",), details=(Detail("list_entries", "note"),))
    def add_to_list(self, list_id: Id("list"), place_id: Id("place"), note: str | None = None) -> dict:
        """Add a place to a list, with an optional note.

        Args:
            note: a short note, such as 'Try the specials'.
        """
        place_list, place = self.get(PlaceList, list_id), self.get(Place, place_id)
        if place.status != "operational":
            raise ToolError(f"{place.name} ({place.id}) has permanently closed and cannot be added to a list")
        entries = list(self.db.scalars(select(ListEntry).where(ListEntry.list_id == place_list.id)))
        if any(e.place_id == place.id for e in entries):
            raise ToolError(f"{place.name} is already on the list '{place_list.name}'; nothing to do")
        if len(entries) >= MAX_ENTRIES:
            raise ToolError(f"the list '{place_list.name}' already holds {MAX_ENTRIES} places, the most allowed; "
                            "remove one or start another list")
        entry = ListEntry(id=self.new_id("ENT"), list_id=place_list.id, place_id=place.id, note=(note or "").strip() or None)
        self.db.add(entry)
        return {"list_id": place_list.id, "name": place_list.name, "place_id": place.id, "place": place.name,
                "places": len(entries) + 1}

    @tool(destructive=True, requires=("list.entry",))
    def remove_from_list(self, list_id: Id("list"), place_id: Id("place")) -> dict:
        """Take a place off a list (the place stays on the map and on other lists)."""
        place_list, place = self.get(PlaceList, list_id), self.get(Place, place_id)
        entry = self.db.scalar(select(ListEntry).where(ListEntry.list_id == place_list.id,
                                                       ListEntry.place_id == place.id))
        if entry is None:
            raise ToolError(f"{place.name} is not on the list '{place_list.name}'; get_list shows what is")
        self.db.delete(entry)
        return {"list_id": place_list.id, "place_id": place.id, "removed": True}

    @tool(destructive=True)
    def delete_list(self, list_id: Id("list")) -> dict:
        """Delete a list and its entries for good (the places stay on the map)."""
        place_list = self.get(PlaceList, list_id)
        for entry in self.db.scalars(select(ListEntry).where(ListEntry.list_id == place_list.id)):
            self.db.delete(entry)
        self.db.delete(place_list)
        return {"list_id": place_list.id, "deleted": True}

    @tool(read_only=True, hidden=True)
    def network_stats(self) -> dict:
        """Debugging only: how many intersections, road segments, addresses and places each city has."""
        counts = {}
        for table in ("nodes", "segments", "addresses", "places"):
            for city, n in self.rows(f"SELECT city_id, count(*) FROM {table} GROUP BY city_id ORDER BY city_id"):
                counts.setdefault(city, {})[table] = n
        return counts

    # -- the world's rules ------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """References (a place at an address of its own city, an address and a road segment on
        intersections of their city), places' ratings, prices and hours, and each person's saved
        places and lists: a place saved once, labels and list names unique, a list holding a place
        once and at most 25 places, at most 10 lists. (The map records no times.)"""
        problems = []
        for pid, city, address_city, category, rating, price, opens, closes, closed_weekday, status in self.rows(
                "SELECT p.id, p.city_id, a.city_id, p.category, p.rating, p.price_level, p.opens, p.closes, "
                "p.closed_weekday, p.status FROM places p JOIN addresses a ON a.id = p.address_id"):
            if city != address_city:
                problems.append(f"place {pid} of {city} is at an address in {address_city}")
            if category not in CATEGORIES or not 1 <= rating <= 5 or not 1 <= price <= 4 \
                    or status not in ("operational", "permanently_closed"):
                problems.append(f"place {pid}: category {category!r}, rating {rating}, price level {price}, "
                                f"status {status!r}")
            if not 0 <= opens < 1440 or not (opens == closes or opens < closes < opens + 1440) \
                    or closed_weekday not in (None, *range(7)):
                problems.append(f"place {pid}: hours {opens} to {closes}, closed on day {closed_weekday}")
        for aid, city, node_city in self.rows("SELECT a.id, a.city_id, n.city_id FROM addresses a "
                                              "JOIN nodes n ON n.id = a.node_id WHERE a.city_id != n.city_id"):
            problems.append(f"address {aid} of {city} is on an intersection of {node_city}")
        for sid, city in self.rows("SELECT s.id, s.city_id FROM segments s JOIN nodes a ON a.id = s.a "
                                   "JOIN nodes b ON b.id = s.b WHERE a.city_id != s.city_id OR b.city_id != s.city_id "
                                   "OR s.speed_kmh < 0 OR s.length_m <= 0"):
            problems.append(f"road segment {sid} of {city} joins intersections of another city or has no length")
        for uid, place, n in self.rows("SELECT user_id, place_id, count(*) FROM saved_places "
                                       "GROUP BY user_id, place_id HAVING count(*) > 1"):
            problems.append(f"{uid} saved {place} {n} times")
        for uid, label, n in self.rows("SELECT user_id, lower(label), count(*) FROM saved_places "
                                       "WHERE label IS NOT NULL GROUP BY user_id, lower(label) HAVING count(*) > 1"):
            problems.append(f"{uid} has {n} saved places labelled {label!r}")
        for sid, label in self.rows("SELECT id, label FROM saved_places WHERE label IS NOT NULL"):
            if label != label.strip() or not 1 <= len(label) <= MAX_LABEL:
                problems.append(f"saved place {sid}: label {label!r}")
        for uid, name, n in self.rows("SELECT user_id, lower(name), count(*) FROM place_lists "
                                      "GROUP BY user_id, lower(name) HAVING count(*) > 1"):
            problems.append(f"{uid} has {n} lists named {name!r}")
        for lid, name in self.rows("SELECT id, name FROM place_lists"):
            if name != name.strip() or not 1 <= len(name) <= MAX_LIST_NAME:
                problems.append(f"list {lid}: name {name!r}")
        for uid, n in self.rows("SELECT user_id, count(*) FROM place_lists GROUP BY user_id HAVING count(*) > ?",
                                MAX_LISTS):
            problems.append(f"{uid} has {n} lists, more than {MAX_LISTS}")
        for lid, place, n in self.rows("SELECT list_id, place_id, count(*) FROM list_entries "
                                       "GROUP BY list_id, place_id HAVING count(*) > 1"):
            problems.append(f"list {lid} holds {place} {n} times")
        for lid, n in self.rows("SELECT list_id, count(*) FROM list_entries GROUP BY list_id HAVING count(*) > ?",
                                MAX_ENTRIES):
            problems.append(f"list {lid} holds {n} places, more than {MAX_ENTRIES}")
        return problems

    # -- helpers ----------------------------------------------------------------------------------

    def _brief(self, row: tuple) -> dict:
        return {"place_id": row[0], "name": row[1], "category": row[2], "rating": row[3],
                "price_level": "$" * row[4], "status": row[5], "open_now": _open(row, self.now),
                "address_id": row[9], "address": row[10], "city_id": row[13]}

    def _routable(self, origin: Address, destination: Address, mode: str) -> None:
        if origin.city_id != destination.city_id:
            raise ToolError(f"{origin.label} and {destination.label} are in different cities; routes stay within "
                            "one city")
        if mode == "driving":
            for end in (origin, destination):
                if end.pedestrian:
                    raise ToolError(f"{end.label} is on a pedestrian street closed to cars; walk there, or drive "
                                    "to a nearby address instead")
        if mode == "transit":
            city = self.db.get(City, origin.city_id)
            if not city.has_transit:
                raise ToolError(f"{city.name} has no bus service; route by 'driving' or 'walking' instead")

    def _graph(self, city_id: str, mode: str) -> dict[int, list[tuple]]:
        graph: dict[int, list[tuple]] = {}
        for a, b, street, length, speed, bus in self.rows(
                "SELECT a, b, street, length_m, speed_kmh, bus_line FROM segments WHERE city_id = ?", city_id):
            if mode == "driving" and speed == 0:
                continue
            graph.setdefault(a, []).append((b, street, length, speed, bus))
            graph.setdefault(b, []).append((a, street, length, speed, bus))
        return graph

    def _label(self, user: User, label: str | None) -> str | None:
        if label is None or not label.strip():
            return None
        label = label.strip()
        if len(label) > MAX_LABEL:
            raise ToolError(f"label must be 1 to {MAX_LABEL} characters, got {len(label)}")
        taken = self.db.scalar(select(SavedPlace.id).where(SavedPlace.user_id == user.id,
                                                           func.lower(SavedPlace.label) == label.lower()))
        if taken is not None:
            raise ToolError(f"{user.name} already has a saved place labelled {label!r} ({taken}); remove it or "
                            "choose another label")
        return label

    def _list_name(self, user_id: str, name: str, but: str | None = None) -> str:
        name = name.strip()
        if not 1 <= len(name) <= MAX_LIST_NAME:
            raise ToolError(f"list name must be 1 to {MAX_LIST_NAME} characters, got {len(name)}")
        taken = self.db.scalar(select(PlaceList.id).where(PlaceList.user_id == user_id,
                                                          func.lower(PlaceList.name) == name.lower(),
                                                          PlaceList.id != (but or "")))
        if taken is not None:
            raise ToolError(f"there is already a list named {name!r} ({taken}); choose another name")
        return name


# -- geometry, hours and routes --------------------------------------------------------------------

def _meters(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    dy = (lat2 - lat1) * METERS_PER_DEGREE
    dx = (lon2 - lon1) * METERS_PER_DEGREE * math.cos(math.radians((lat1 + lat2) / 2))
    return math.hypot(dx, dy)


def _words(text: str) -> list[str]:
    return [ABBREVIATIONS.get(w, w) for w in re.findall(r"[a-z0-9']+", text.lower())]


def _address(row: tuple) -> dict:
    return {"address_id": row[0], "label": row[1], "latitude": row[2], "longitude": row[3], "city_id": row[4]}


def _clock(minutes: int) -> str:
    hour, minute = divmod(minutes % 1440, 60)
    if (hour, minute) == (12, 0):
        return "noon"
    if (hour, minute) == (0, 0):
        return "midnight"
    suffix = "am" if hour < 12 else "pm"
    return f"{hour % 12 or 12}{f':{minute:02d}' if minute else ''} {suffix}"


def _hours(opens: int, closes: int, closed_weekday: int | None) -> str:
    daily = "open 24 hours" if opens == closes else f"{_clock(opens)} to {_clock(closes)}"
    return daily + (f", closed on {WEEKDAYS[closed_weekday]}s" if closed_weekday is not None else ", every day")


def _open(row: tuple, now) -> bool:
    status, opens, closes, closed_weekday = row[5], row[6], row[7], row[8]
    if status != "operational":
        return False
    minute, today = now.hour * 60 + now.minute, now.weekday()
    if opens == closes:
        return closed_weekday != today
    if closed_weekday != today and opens <= minute < closes:
        return True
    return closes > 1440 and closed_weekday != (today - 1) % 7 and minute < closes - 1440


def _leg(street: str, length: float, mode: str, bus: str | None) -> tuple:
    """(street, length, how it is travelled, minutes) of a stretch of road."""
    if bus is not None:
        return street, length, bus, length / BUS_M_PER_MIN
    if mode == "driving":
        return street, length, "drive", length / (30000 / 60)
    return street, length, "walk", length / WALK_M_PER_MIN


def _dijkstra(graph: dict[int, list[tuple]], origin: Address, mode: str,
              destination: int | None = None) -> dict[tuple, tuple]:
    """Fastest times from an address to every reachable (intersection, bus line ridden) state:
    state -> (minutes, previous state, leg, meters). With a destination intersection, it stops
    once every state of that intersection as fast as its fastest is settled."""
    start = (origin.node_id, None)
    first = _leg(origin.street, origin.offset_m, mode, None)
    best: dict[tuple, tuple] = {start: (first[3], None, None, origin.offset_m)}
    queue = [(first[3], origin.node_id, "", start)]
    done = set()
    arrived = None  # the minutes of the fastest state at the destination, once settled
    while queue:
        minutes, _, _, state = heapq.heappop(queue)
        if arrived is not None and minutes > arrived:
            break
        if state in done:
            continue
        done.add(state)
        node, riding = state
        if node == destination and arrived is None:
            arrived = minutes
        meters = best[state][3]
        for nxt, street, length, speed, bus in graph.get(node, ()):
            options = []
            if mode == "driving":
                options.append(((nxt, None), (street, length, "drive", length / (speed * 1000 / 60) + SIGNAL_MIN)))
            else:
                options.append(((nxt, None), _leg(street, length, "walking", None)))
                if mode == "transit" and bus is not None:
                    leg = _leg(street, length, mode, bus)
                    wait = 0.0 if riding == bus else BUS_WAIT_MIN
                    options.append(((nxt, bus), (street, length, bus, leg[3] + wait)))
            for target, leg in options:
                total = minutes + leg[3]
                if target not in best or total < best[target][0] - 1e-9:
                    best[target] = (total, state, leg, meters + length)
                    heapq.heappush(queue, (total, target[0], target[1] or "", target))
    return best


def _steps(legs: list[tuple], mode: str) -> list[dict]:
    steps: list[dict] = []
    for street, length, how, _ in legs:
        if length <= 0:
            continue
        if steps and steps[-1]["street"] == street and steps[-1]["how"] == how:
            steps[-1]["distance_m"] += length
            continue
        steps.append({"street": street, "how": how, "distance_m": length})
    out = []
    for step in steps:
        meters = round(step["distance_m"])
        if step["how"] == "drive":
            text = f"Drive along {step['street']} for {meters} m"
        elif step["how"] == "walk":
            text = f"Walk along {step['street']} for {meters} m"
        else:
            text = f"Ride {step['how']} along {step['street']} for {meters} m"
        out.append({"instruction": text, "distance_m": meters})
    return out
