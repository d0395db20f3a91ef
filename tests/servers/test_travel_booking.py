"""The travel_booking server's domain rules, through real MCP (the generic suite covers the rest):
search, booking into itineraries, seats and bags, changes and cancellations under the fare rules,
availability going down on booking and back up on cancelling, overbooking and past dates refused;
paying with cards, vouchers and gift cards (a method short of the price refuses and changes
nothing), the ledger of charges and refunds, the cancellation rules (24 hours, the airline's own
cancellation, flex fares, insurance), cabin changes, first cabins, companions, fares in foreign
currencies, saved cards and support cases."""

from __future__ import annotations

import datetime as dt
import itertools
import re

import pytest

NOW = dt.datetime(2026, 7, 29, 9, 45)  # the seed-0 world's frozen "now"
TRIPS = itertools.count(1)


@pytest.fixture
def s(served):
    return served("travel_booking")


def day(offset: int) -> str:
    return (NOW.date() + dt.timedelta(days=offset)).isoformat()


def future_flight(s, cabin: str = "economy", offset: int = 5, origin: str = "JFK", destination: str = "LAX") -> dict:
    for extra in range(10):
        found = s.ok("search_flights", origin=origin, destination=destination, date=day(offset + extra), cabin=cabin)
        if found:
            return found[0]
    raise AssertionError("no flight with a seat left")


def bookings(s, *, fare_type: str, tier: str | None = None, future: bool = True, insured: bool | None = None,
             companions: bool = False) -> tuple[dict, dict]:
    """A booking of the fare type, paid by card, booked more than a day ago on a flight the airline
    still flies."""
    for t in s.ok("find_travellers", limit=100):
        if tier is not None and t["loyalty_tier"] != tier:
            continue
        for b in s.ok("list_flight_bookings", traveller_id=t["traveller_id"], status="booked"):
            departed = dt.datetime.fromisoformat(b["departs_at"]) <= NOW
            recent = NOW - dt.datetime.fromisoformat(b["booked_at"]) < dt.timedelta(hours=24)
            if b["fare_type"] != fare_type or departed == future or recent or b["flight_status"] != "scheduled" \
                    or (insured is not None and b["insurance"] != insured) or bool(b["companions"]) != companions:
                continue
            paid = s.ok("list_transactions", traveller_id=t["traveller_id"], booking_id=b["booking_id"])
            if paid[-1]["paid_with"].split()[0] in ("Visa", "Mastercard", "American"):
                return t, b
    raise AssertionError(f"no {fare_type} booking")


def same_route(s, booking: dict) -> dict:
    departs = dt.datetime.fromisoformat(booking["departs_at"]).date()
    for offset in range(1, 10):
        for f in s.ok("search_flights", origin=booking["origin"], destination=booking["destination"],
                      date=(departs + dt.timedelta(days=offset)).isoformat(), cabin=booking["cabin"]):
            return f
    raise AssertionError("no later flight on the route")


def itinerary(s, traveller: dict) -> dict:
    return s.ok("create_itinerary", traveller_id=traveller["traveller_id"], name="Test trip")


def pay(s, owner: dict) -> str:
    """A card of the traveller (of a trip, or the traveller) that has not expired."""
    return next(m["payment_method_id"] for m in s.ok("list_payment_methods", traveller_id=owner["traveller_id"])
                if m["kind"] == "card" and not m["expired"])


def into(s, trip: dict) -> dict:
    """The arguments that book into a trip, paid by its traveller's card."""
    return {"itinerary_id": trip["itinerary_id"], "payment_method_id": pay(s, trip)}


def new_trip(s, traveller: dict) -> dict:
    """The arguments that book into a new trip of the traveller, paid by their card."""
    trip = s.ok("create_itinerary", traveller_id=traveller["traveller_id"], name=f"Trip {next(TRIPS)}")
    return {"itinerary_id": trip["itinerary_id"], "payment_method_id": pay(s, trip)}


def test_travellers_and_loyalty(s):
    everyone = s.ok("find_travellers", limit=100)
    assert len(everyone) >= 30 and len({t["name"] for t in everyone}) == len(everyone)
    first = everyone[0]
    assert s.ok("find_travellers", email=first["email"].upper()) == [first]
    profile = s.ok("get_traveller", traveller_id=first["traveller_id"])
    assert profile["name"] == first["name"] and "date_of_birth" in profile
    updated = s.ok("set_loyalty_number", traveller_id=first["traveller_id"], loyalty_number="tb 12345678")
    assert updated["loyalty_number"] == "TB12345678"
    s.fails("set_loyalty_number", "not valid", traveller_id=first["traveller_id"], loyalty_number="123")
    other = next(t for t in everyone[1:] if t["loyalty_number"])
    s.fails("set_loyalty_number", "belongs to another traveller", traveller_id=first["traveller_id"],
              loyalty_number=other["loyalty_number"])


def test_search_airports_and_flights_one_way_and_return(s):
    assert {a["code"] for a in s.ok("search_airports", text="new york")} == {"JFK", "EWR"}
    assert [a["code"] for a in s.ok("search_airports", text="sea")] == ["SEA"]
    one_way = s.ok("search_flights", origin="jfk", destination="LAX", date=day(3))
    assert one_way and all(f["origin"] == "JFK" and f["direction"] == "outbound" for f in one_way)
    both = s.ok("search_flights", origin="JFK", destination="LAX", date=day(3), return_date=day(7))
    back = [f for f in both if f["direction"] == "return"]
    assert back and all(f["origin"] == "LAX" and f["departs_at"].startswith(day(7)) for f in back)
    business = s.ok("search_flights", origin="JFK", destination="LAX", date=day(3), cabin="business")
    assert all(f["business"]["seats_left"] > 0 for f in business)
    assert s.ok("get_flight", flight_id=one_way[0]["flight_id"])["number"] == one_way[0]["number"]
    s.fails("search_flights", "not found", origin="XXX", destination="LAX", date=day(3))
    s.fails("search_flights", "before the outbound date", origin="JFK", destination="LAX", date=day(5),
              return_date=day(3))


def test_hotels_search_rooms_and_availability(s):
    hotels = s.ok("search_hotels", city="Denver")
    assert hotels and all(h["city"] == "Denver" for h in hotels)
    rooms = s.ok("list_room_types", hotel_id=hotels[0]["hotel_id"])
    cheap = min(r["nightly_price"] for r in rooms)
    filtered = s.ok("search_hotels", city="Denver", check_in=day(3), check_out=day(5), guests=2, max_price=cheap)
    assert all(r["nightly_price"] <= cheap and r["max_guests"] >= 2 for h in filtered for r in h["room_types"])
    free = s.ok("check_room_availability", room_type_id=rooms[0]["room_type_id"], check_in=day(3), check_out=day(6))
    assert free["nights"] == 3 and len(free["rooms_left_per_night"]) == 3
    assert free["refundable_total"] == round(rooms[0]["nightly_price"] * 3, 2)
    s.fails("check_room_availability", "1 to 14 nights", room_type_id=rooms[0]["room_type_id"],
              check_in=day(5), check_out=day(5))


def test_itineraries(s):
    traveller = s.ok("find_travellers", limit=100)[1]
    before = s.ok("list_itineraries", traveller_id=traveller["traveller_id"])
    made = itinerary(s, traveller)
    assert s.ok("list_itineraries", traveller_id=traveller["traveller_id"]) == before + [made]
    assert s.ok("get_itinerary", itinerary_id=made["itinerary_id"])["flights"] == []
    s.fails("create_itinerary", "already has an itinerary", traveller_id=traveller["traveller_id"],
              name="test TRIP")
    for it in before:
        full = s.ok("get_itinerary", itinerary_id=it["itinerary_id"])
        booked = [f for f in full["flights"] if f["status"] == "booked"]
        assert full["total"] >= sum(f["price_paid"] for f in booked)


def test_booking_takes_a_seat_and_cancelling_gives_it_back(s):
    traveller = s.ok("find_travellers", limit=100)[0]
    trip = itinerary(s, traveller)
    flight = future_flight(s)
    booked = s.ok("book_flight", **into(s, trip), flight_id=flight["flight_id"], cabin="economy",
                  fare_type="flex")
    assert booked["price_paid"] == round(flight["economy"]["fare"] * 1.35, 2) and booked["refundable"]
    after = s.ok("get_flight", flight_id=flight["flight_id"])
    assert after["economy"]["seats_left"] == flight["economy"]["seats_left"] - 1
    listed = {b["booking_id"]: b for b in s.ok("list_flight_bookings", traveller_id=traveller["traveller_id"])}
    assert {**listed[booked["booking_id"]], "charged": booked["price_paid"], "paid_with": booked["paid_with"]} == booked
    cancelled = s.ok("cancel_flight_booking", booking_id=booked["booking_id"])
    assert cancelled["refund"] == booked["price_paid"] and cancelled["status"] == "cancelled"
    assert s.ok("get_flight", flight_id=flight["flight_id"])["economy"] == flight["economy"]
    s.fails("cancel_flight_booking", "is cancelled", booking_id=booked["booking_id"])


def test_overbooking_and_past_flights_are_refused(s):
    traveller = s.ok("find_travellers", limit=100)[0]
    trip = itinerary(s, traveller)
    full = None
    for offset in range(1, 20):
        for origin, destination in (("JFK", "LAX"), ("ORD", "DEN"), ("SEA", "SFO"), ("BOS", "MIA")):
            for f in s.ok("search_flights", origin=origin, destination=destination, date=day(offset)):
                if f["business"]["seats_left"] == 0:
                    full = f
                    break
    assert full is not None
    s.fails("book_flight", "no business seat left", **into(s, trip),
              flight_id=full["flight_id"], cabin="business")
    gone = s.ok("search_flights", origin="JFK", destination="LAX", date=day(-2))[0]
    s.fails("book_flight", "only future flights can be booked", **into(s, trip),
              flight_id=gone["flight_id"], cabin="economy")


def test_last_seat_then_overbooking(s):
    flight = future_flight(s, cabin="business")
    travellers = iter(s.ok("find_travellers", limit=100))
    for _ in range(flight["business"]["seats_left"]):
        trip = itinerary(s, next(travellers))
        s.ok("book_flight", **into(s, trip), flight_id=flight["flight_id"], cabin="business")
    assert s.ok("get_flight", flight_id=flight["flight_id"])["business"]["seats_left"] == 0
    late = itinerary(s, next(travellers))
    s.fails("book_flight", "no business seat left", **into(s, late),
              flight_id=flight["flight_id"], cabin="business")


def test_seat_selection(s):
    first, second = s.ok("find_travellers", limit=2)
    flight = future_flight(s)
    one = s.ok("book_flight", **new_trip(s, first), flight_id=flight["flight_id"],
               cabin="economy")
    two = s.ok("book_flight", **new_trip(s, second), flight_id=flight["flight_id"],
               cabin="economy")
    seat = s.ok("list_free_seats", flight_id=flight["flight_id"], cabin="economy")["free_seats"][0]
    assert s.ok("select_seat", booking_id=one["booking_id"], seat=seat.lower())["seat"] == seat
    assert s.ok("select_seat", booking_id=one["booking_id"], seat=seat)["seat"] == seat  # again: nothing changes
    assert seat not in s.ok("list_free_seats", flight_id=flight["flight_id"], cabin="economy")["free_seats"]
    s.fails("select_seat", "is taken", booking_id=two["booking_id"], seat=seat)
    s.fails("select_seat", "not in the economy cabin", booking_id=two["booking_id"], seat="2A")


def test_bags_fees_allowances_and_limit(s):
    traveller = next(t for t in s.ok("find_travellers", limit=100) if t["loyalty_tier"] == "none")
    trip = itinerary(s, traveller)
    economy = s.ok("book_flight", **into(s, trip), flight_id=future_flight(s)["flight_id"],
                   cabin="economy")
    bagged = s.ok("add_bags", booking_id=economy["booking_id"], count=2)
    assert bagged["charged_now"] == 70.0 and bagged["bags"] == 2
    s.fails("add_bags", "at most 2 more", booking_id=economy["booking_id"], count=3)
    business = s.ok("book_flight", **into(s, trip),
                    flight_id=future_flight(s, cabin="business", offset=9)["flight_id"], cabin="business")
    assert s.ok("add_bags", booking_id=business["booking_id"], count=3)["charged_now"] == 35.0
    gold = next(t for t in s.ok("find_travellers", limit=100) if t["loyalty_tier"] == "gold")
    gold_trip = itinerary(s, gold)
    gb = s.ok("book_flight", **into(s, gold_trip), flight_id=future_flight(s)["flight_id"],
              cabin="economy")
    assert s.ok("add_bags", booking_id=gb["booking_id"], count=2)["charged_now"] == 35.0


def test_change_a_basic_fare_costs_the_fee_and_moves_the_seat(s):
    _, booking = bookings(s, fare_type="basic", tier="none")
    new = same_route(s, booking)
    quote = s.ok("quote_flight_change", booking_id=booking["booking_id"], new_flight_id=new["flight_id"])
    fare = new[booking["cabin"]]["fare"]
    assert quote["change_fee"] == 99.0
    assert quote["fare_difference"] == round(max(0.0, fare - booking["price_paid"]), 2)
    old_before = s.ok("get_flight", flight_id=booking["flight_id"])[booking["cabin"]]["seats_left"]
    changed = s.ok("change_flight", booking_id=booking["booking_id"], new_flight_id=new["flight_id"])
    assert changed["charged"] == quote["total_due"] and changed["flight_id"] == new["flight_id"]
    assert s.ok("get_flight", flight_id=booking["flight_id"])[booking["cabin"]]["seats_left"] == old_before + 1
    assert s.ok("get_flight", flight_id=new["flight_id"])[booking["cabin"]]["seats_left"] == \
        new[booking["cabin"]]["seats_left"] - 1


def test_flex_and_gold_change_without_a_fee(s):
    _, flex = bookings(s, fare_type="flex")
    assert s.ok("quote_flight_change", booking_id=flex["booking_id"],
                new_flight_id=same_route(s, flex)["flight_id"])["change_fee"] == 0.0
    _, gold = bookings(s, fare_type="basic", tier="gold")
    assert s.ok("quote_flight_change", booking_id=gold["booking_id"],
                new_flight_id=same_route(s, gold)["flight_id"])["change_fee"] == 0.0


def test_change_rules(s):
    _, booking = bookings(s, fare_type="basic")
    other = s.ok("search_flights", origin="SEA", destination="SFO", date=day(10))
    if booking["origin"] == "SEA":
        other = s.ok("search_flights", origin="BOS", destination="MIA", date=day(10))
    s.fails("change_flight", "a change keeps the route", booking_id=booking["booking_id"],
              new_flight_id=other[0]["flight_id"])
    s.fails("change_flight", "already on flight", booking_id=booking["booking_id"],
              new_flight_id=booking["flight_id"])
    _, flown = bookings(s, fare_type="basic", future=False)
    s.fails("change_flight", "can no longer be changed", booking_id=flown["booking_id"],
              new_flight_id=same_route(s, flown)["flight_id"])
    s.fails("cancel_flight_booking", "can no longer be cancelled", booking_id=flown["booking_id"])


def test_seat_map_agrees_with_seats_left_on_every_seed(served):
    """Finding: the seat map listed all 156 economy seats of a flight with no seat left, and booking
    it was then refused. Every seat is now held by a passenger (booked here or elsewhere) or left
    for sale, so the free seats are the seats left plus those kept for booked passengers without a
    seat yet."""
    for seed in range(20):
        s = served("travel_booking", seed)
        now = s.world.now
        unseated = {}
        for flight_id, cabin in s.world.connection.execute(
                "SELECT flight_id, cabin FROM flight_bookings WHERE status = 'booked' AND seat IS NULL UNION ALL "
                "SELECT b.flight_id, b.cabin FROM companions c JOIN flight_bookings b ON b.id = c.booking_id "
                "WHERE b.status = 'booked' AND c.seat IS NULL"):
            unseated[flight_id, cabin] = unseated.get((flight_id, cabin), 0) + 1
        full = None
        for offset in range(1, 15):
            date = (now.date() + dt.timedelta(days=offset)).isoformat()
            for f in s.ok("search_flights", origin="JFK", destination="LAX", date=date):
                for cabin in ("economy", "business"):
                    seats = s.ok("list_free_seats", flight_id=f["flight_id"], cabin=cabin)
                    assert len(seats["free_seats"]) == f[cabin]["seats_left"] + unseated.get((f["flight_id"], cabin), 0)
                    assert seats["seats_left"] == f[cabin]["seats_left"]
                    if f[cabin]["seats_left"] == 0:
                        full = full or (f, cabin)
        assert full is not None, f"seed {seed} has no full cabin from JFK to LAX in two weeks"
        flight, cabin = full
        trip = s.ok("create_itinerary", traveller_id=s.ok("find_travellers", limit=1)[0]["traveller_id"], name="Full")
        s.fails("book_flight", f"no {cabin} seat left", **into(s, trip),
                flight_id=flight["flight_id"], cabin=cabin)
        s.close()


def test_seeded_bookings_keep_the_rules_on_every_seed(served):
    """The seed booked stays without counting rooms (seeds 3 and 6 sold a room type beyond its rooms on
    a night) and left seats on cancelled bookings. Fresh worlds of seeds 0-19 break no rule, and a
    cancelled booking holds no seat."""
    for seed in range(20):
        s = served("travel_booking", seed)
        assert s.world.violations() == [], seed
        for t in s.ok("find_travellers", limit=100):
            cancelled = s.ok("list_flight_bookings", traveller_id=t["traveller_id"], status="cancelled")
            assert all(b["seat"] is None for b in cancelled), (seed, cancelled)
        s.close()


def test_a_seeded_world_stays_under_a_megabyte_and_its_seat_inventory_is_checked(served):
    """The seeded world took 1.22 MB, most of it every flight's seats held by passengers who booked
    elsewhere, spelled out seat by seat. A cabin records the seats the agency sells instead (its
    passengers' and those left for sale: a few); every other seat of the cabin is held elsewhere.
    The invariants still catch a seat that is not the cabin's, or seats left that do not add up."""
    for seed in range(5):
        s = served("travel_booking", seed)
        assert len(s.world.serialize()) < 1_000_000, seed
        s.close()
    s = served("travel_booking", 0)
    flight = future_flight(s)
    free = s.ok("list_free_seats", flight_id=flight["flight_id"], cabin="economy")["free_seats"]
    run = s.world.connection.execute
    sold = run("SELECT economy_agency_seats FROM flights WHERE id = ?", (flight["flight_id"],)).fetchone()[0]
    assert set(free) <= set(sold.split())
    run("UPDATE flights SET economy_agency_seats = ? WHERE id = ?", (sold + " 99Z", flight["flight_id"]))
    assert any("not distinct seats of the cabin" in p for p in s.world.violations())
    run("UPDATE flights SET economy_agency_seats = ? WHERE id = ?", (" ".join(sold.split()[1:]), flight["flight_id"]))
    assert any("economy seats left" in p for p in s.world.violations())
    s.close()


def test_a_traveller_books_a_flight_once(s):
    """Finding: one traveller could book the same flight twice. An airline seats a passenger once per
    flight, so a second booking, or a change onto a flight already held, is refused."""
    first, second = s.ok("find_travellers", limit=2)
    flight = future_flight(s)
    trip, other_trip = itinerary(s, first), s.ok("create_itinerary", traveller_id=first["traveller_id"], name="Other")
    booked = s.ok("book_flight", **into(s, trip), flight_id=flight["flight_id"], cabin="economy")
    for target, cabin in ((trip, "economy"), (other_trip, "business")):
        s.fails("book_flight", "books a flight once", **into(s, target), flight_id=flight["flight_id"], cabin=cabin)
    s.ok("book_flight", **new_trip(s, second), flight_id=flight["flight_id"], cabin="economy")
    # a change onto a flight the traveller already holds
    later = same_route(s, booked)
    moving = s.ok("book_flight", **into(s, trip), flight_id=later["flight_id"], cabin="economy")
    s.fails("quote_flight_change", "books a flight once", booking_id=moving["booking_id"],
            new_flight_id=flight["flight_id"])
    s.fails("change_flight", "books a flight once", booking_id=moving["booking_id"], new_flight_id=flight["flight_id"])
    # once cancelled, the flight can be booked again
    s.ok("cancel_flight_booking", booking_id=booked["booking_id"])
    s.ok("book_flight", **into(s, other_trip), flight_id=flight["flight_id"], cabin="economy")


def test_a_change_fee_is_never_credit(s):
    """Finding: a change folded the $99 fee into the fare paid, and the next change counted it as
    credit against the fare difference. The fee is kept apart: the fare paid grows by the difference
    only, and the next change's difference is measured against the fare alone."""
    _, booking = bookings(s, fare_type="basic", tier="none")
    departs = dt.datetime.fromisoformat(booking["departs_at"]).date()
    later = [f for offset in range(1, 25) for f in s.ok(
        "search_flights", origin=booking["origin"], destination=booking["destination"],
        date=(departs + dt.timedelta(days=offset)).isoformat(), cabin=booking["cabin"])]
    fare = booking["price_paid"]
    cheap = next(f for f in later if f[booking["cabin"]]["fare"] <= fare)
    dear = next(f for f in later if f[booking["cabin"]]["fare"] > fare)
    first = s.ok("change_flight", booking_id=booking["booking_id"], new_flight_id=cheap["flight_id"])
    assert (first["change_fee"], first["fare_difference"], first["charged"]) == (99.0, 0.0, 99.0)
    assert first["price_paid"] == fare and first["change_fees"] == 99.0
    quote = s.ok("quote_flight_change", booking_id=booking["booking_id"], new_flight_id=dear["flight_id"])
    assert quote["fare_difference"] == round(dear[booking["cabin"]]["fare"] - fare, 2)
    second = s.ok("change_flight", booking_id=booking["booking_id"], new_flight_id=dear["flight_id"])
    assert second["charged"] == quote["total_due"] == round(quote["fare_difference"] + 99.0, 2)
    assert second["price_paid"] == dear[booking["cabin"]]["fare"] and second["change_fees"] == 198.0
    trip = s.ok("get_itinerary", itinerary_id=booking["itinerary_id"])
    assert next(f for f in trip["flights"] if f["booking_id"] == booking["booking_id"])["change_fees"] == 198.0


def test_refunds_are_recorded_on_the_booking(s):
    """What cancelling gave back stays on the booking: a flex fare everything paid, a basic fare and a
    nonrefundable stay nothing, a refundable stay its price."""
    traveller = s.ok("find_travellers", limit=1)[0]
    trip = itinerary(s, traveller)
    flex = s.ok("book_flight", **into(s, trip), flight_id=future_flight(s)["flight_id"],
                cabin="economy", fare_type="flex")
    s.ok("add_bags", booking_id=flex["booking_id"], count=1)
    cancelled = s.ok("cancel_flight_booking", booking_id=flex["booking_id"])
    assert cancelled["refund"] == round(flex["price_paid"] + 35.0, 2)
    listed = s.ok("list_flight_bookings", traveller_id=traveller["traveller_id"], status="cancelled")
    assert next(b for b in listed if b["booking_id"] == flex["booking_id"])["refund"] == cancelled["refund"]
    _, basic = bookings(s, fare_type="basic")
    assert s.ok("cancel_flight_booking", booking_id=basic["booking_id"])["refund"] == 0.0
    room = s.ok("list_room_types", hotel_id=s.ok("search_hotels", city="Boston")[0]["hotel_id"])[0]
    stay = s.ok("book_hotel", **into(s, trip), room_type_id=room["room_type_id"],
                check_in=day(24), check_out=day(26))
    s.ok("cancel_hotel_booking", stay_id=stay["stay_id"])
    kept = s.ok("list_hotel_bookings", traveller_id=traveller["traveller_id"], status="cancelled")
    assert next(h for h in kept if h["stay_id"] == stay["stay_id"])["refund"] == stay["total_price"]


def test_cancel_a_basic_fare_refunds_nothing_but_frees_the_seat(s):
    _, booking = bookings(s, fare_type="basic")
    seats = s.ok("get_flight", flight_id=booking["flight_id"])[booking["cabin"]]["seats_left"]
    assert s.ok("cancel_flight_booking", booking_id=booking["booking_id"])["refund"] == 0.0
    assert s.ok("get_flight", flight_id=booking["flight_id"])[booking["cabin"]]["seats_left"] == seats + 1


def test_hotel_booking_availability_and_cancellation(s):
    traveller = s.ok("find_travellers", limit=100)[0]
    trip = itinerary(s, traveller)
    hotel = s.ok("search_hotels", city="Seattle")[0]
    room = s.ok("list_room_types", hotel_id=hotel["hotel_id"])[0]
    free = s.ok("check_room_availability", room_type_id=room["room_type_id"], check_in=day(20), check_out=day(22))
    left = min(free["rooms_left_per_night"].values())
    stays = [s.ok("book_hotel", **into(s, trip), room_type_id=room["room_type_id"],
                  check_in=day(20), check_out=day(22), rate="refundable", request="Late arrival")
             for _ in range(left)]
    assert stays[0]["total_price"] == free["refundable_total"] and stays[0]["request"] == "Late arrival"
    after = s.ok("check_room_availability", room_type_id=room["room_type_id"], check_in=day(20), check_out=day(22))
    assert not after["available"]
    s.fails("book_hotel", "room is left on", **into(s, trip),
              room_type_id=room["room_type_id"], check_in=day(21), check_out=day(23))
    cancelled = s.ok("cancel_hotel_booking", stay_id=stays[0]["stay_id"])
    assert cancelled["refund"] == stays[0]["total_price"]
    assert s.ok("check_room_availability", room_type_id=room["room_type_id"], check_in=day(20),
                check_out=day(22))["available"]
    assert stays[0]["stay_id"] in [h["stay_id"] for h in s.ok("list_hotel_bookings",
                                                               traveller_id=traveller["traveller_id"])]
    s.fails("cancel_hotel_booking", "already cancelled", stay_id=stays[0]["stay_id"])


def test_hotel_rules(s):
    traveller = s.ok("find_travellers", limit=100)[0]
    trip = itinerary(s, traveller)
    room = min(s.ok("list_room_types", hotel_id=s.ok("search_hotels", city="Miami")[0]["hotel_id"]),
               key=lambda r: r["max_guests"])
    args = {**into(s, trip), "room_type_id": room["room_type_id"]}
    s.fails("book_hotel", "in the past", **args, check_in=day(-1), check_out=day(1))
    s.fails("book_hotel", "sleeps at most", **args, check_in=day(3), check_out=day(4),
              guests=room["max_guests"] + 1)
    s.fails("book_hotel", "1 to 14 nights", **args, check_in=day(3), check_out=day(30))
    stay = s.ok("book_hotel", **args, check_in=day(3), check_out=day(5), rate="nonrefundable")
    assert stay["total_price"] == round(room["nightly_price"] * 0.85 * 2, 2)
    assert s.ok("cancel_hotel_booking", stay_id=stay["stay_id"])["refund"] == 0.0
    for t in s.ok("find_travellers", limit=100):
        begun = [h for h in s.ok("list_hotel_bookings", traveller_id=t["traveller_id"], status="booked")
                 if h["check_in"] <= NOW.date().isoformat()]
        if begun:
            s.fails("cancel_hotel_booking", "can only be cancelled before", stay_id=begun[0]["stay_id"])
            return
    raise AssertionError("no stay has begun")


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------


def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play):
    from prove_env.task import Task

    stay = Task(id="stay", server="travel_booking", seed=0,
                user_turns=["This is Kristen Turner. Please book a Standard King at the Denver Summit Suites into my "
                            "Denver getaway itinerary from August 27 to 29, just me, refundable rate, on my "
                            "Mastercard ending 5996."],
                gold=[[{"id": "g1", "name": "find_travellers", "arguments": {"name": "Kristen Turner"}},
                       {"id": "g2", "name": "list_itineraries", "arguments": {"traveller_id": "TRV-0004"},
                        "depends_on": ["g1"]},
                       {"id": "g3", "name": "search_hotels", "arguments": {"city": "Denver"}},
                       {"id": "g4", "name": "list_room_types", "arguments": {"hotel_id": "HTL-0011"},
                        "depends_on": ["g3"]},
                       {"id": "g5", "name": "book_hotel", "depends_on": ["g2", "g4"],
                        "arguments": {"itinerary_id": "ITN-0005", "room_type_id": "RMT-0025",
                                      "check_in": "2026-08-27", "check_out": "2026-08-29", "guests": 1,
                                      "rate": "refundable", "payment_method_id": "PAY-0007"}}]])
    booking = _call("book_hotel", itinerary_id="ITN-0005", room_type_id="RMT-0025", check_in="2026-08-27",
                    check_out="2026-08-29", guests=1, rate="refundable", payment_method_id="PAY-0007")
    # another correct path: the traveller found by email, the room found with a dated search
    other = play(stay, [_call("find_travellers", email="kristen.turner@example.com"),
                        _call("search_hotels", city="denver", check_in="2026-08-27", check_out="2026-08-29"),
                        booking, "Booked: a Standard King at the Denver Summit Suites, August 27 to 29."])
    assert other["success"] and other["reward_breakdown"]["coverage"] < 1
    # a note to the hotel nobody asked for is a detail, not damage
    noted = play(stay, [{**booking, "arguments": {**booking["arguments"], "request": "Late arrival"}}, "Booked."])
    assert noted["success"]
    # the right booking, then damage nobody asked for: another flight cancelled
    damage = play(stay, [booking, _call("cancel_flight_booking", booking_id="FBK-0005"), "Booked."])
    assert not damage["success"]
    wrong = play(stay, [{**booking, "arguments": {**booking["arguments"], "guests": 2}}, "Booked."])
    assert not wrong["success"]
    # the right stay charged to the voucher instead is refused: nothing booked
    voucher = play(stay, [{**booking, "arguments": {**booking["arguments"], "payment_method_id": "PAY-0009"}},
                          "Booked."])
    assert not voucher["success"]


def test_input_rules_refuse_and_change_nothing(s):
    traveller = s.ok("find_travellers", limit=100)[0]
    s.fails("search_flights", "same airport", origin="JFK", destination="jfk", date=day(3))
    s.fails("search_hotels", "give both check_in and check_out", city="Denver", check_in=day(3))
    s.fails("search_hotels", "guests must be 1 to 6", city="Denver", guests=9)
    s.fails("create_itinerary", "1 to 60 characters", traveller_id=traveller["traveller_id"], name="  ")
    trip = itinerary(s, traveller)
    booked = s.ok("book_flight", **into(s, trip), flight_id=future_flight(s)["flight_id"],
                  cabin="economy")
    s.fails("add_bags", "count must be 1 to 4", booking_id=booked["booking_id"], count=0)
    cancelled = None
    for n in range(1, 900):
        result = s.call("get_flight", flight_id=f"FLT-{n:04d}")
        if not result.ok:
            break
        f = result.data
        if f["status"] == "cancelled" and f["departs_at"] > NOW.isoformat():
            cancelled = f
            break
    assert cancelled is not None, "the seed holds a cancelled future flight"
    s.fails("book_flight", "is cancelled", **into(s, trip), flight_id=cancelled["flight_id"],
              cabin="economy")
    assert cancelled["flight_id"] not in [f["flight_id"] for f in s.ok(
        "search_flights", origin=cancelled["origin"], destination=cancelled["destination"],
        date=cancelled["departs_at"][:10])]


# -- money: payment methods, the ledger, cancellation rules ------------------------------------------


def methods(s, traveller: dict) -> list[dict]:
    return s.ok("list_payment_methods", traveller_id=traveller["traveller_id"])


def with_method(s, kind: str, *, expired: bool = False, least: float = 0.0) -> tuple[dict, dict]:
    """A traveller with a payment method of the kind (and, for a voucher or gift card, at least `least` left)."""
    for t in s.ok("find_travellers", limit=100):
        for m in methods(s, t):
            if m["kind"] == kind and m["expired"] == expired and (m.get("balance") or 0) >= least:
                return t, m
    raise AssertionError(f"no traveller with a {kind}")


def balance(s, traveller: dict, method_id: str) -> float | None:
    return next(m for m in methods(s, traveller) if m["payment_method_id"] == method_id).get("balance")


def cheap_flight(s, most: float, origin: str = "SEA", destination: str = "SFO") -> dict:
    for offset in range(3, 25):
        for f in s.ok("search_flights", origin=origin, destination=destination, date=day(offset), cabin="economy"):
            if f["economy"]["fare"] <= most:
                return f
    raise AssertionError(f"no flight under {most}")


def test_paying_with_a_voucher_debits_it_and_the_ledger_records_it(s):
    traveller, voucher = with_method(s, "voucher", least=150)
    trip = itinerary(s, traveller)
    flight = cheap_flight(s, voucher["balance"])
    before = voucher["balance"]
    booked = s.ok("book_flight", itinerary_id=trip["itinerary_id"], flight_id=flight["flight_id"], cabin="economy",
                  payment_method_id=voucher["payment_method_id"])
    assert booked["charged"] == flight["economy"]["fare"] and booked["paid_with"] == voucher["label"]
    assert balance(s, traveller, voucher["payment_method_id"]) == round(before - flight["economy"]["fare"], 2)
    entries = s.ok("list_transactions", traveller_id=traveller["traveller_id"], booking_id=booked["booking_id"])
    assert [(e["kind"], e["item"], e["reason"], e["amount"], e["payment_method_id"]) for e in entries] == [
        ("charge", "fare", "booking", flight["economy"]["fare"], voucher["payment_method_id"])]
    assert entries[0] in s.ok("list_transactions", traveller_id=traveller["traveller_id"],
                              payment_method_id=voucher["payment_method_id"])
    # bags go on the voucher that paid the fare unless another method is named
    card = pay(s, traveller)
    s.ok("add_bags", booking_id=booked["booking_id"], count=1, payment_method_id=card)
    newest = s.ok("list_transactions", traveller_id=traveller["traveller_id"], limit=1)[0]
    assert (newest["item"], newest["amount"], newest["payment_method_id"]) == ("bag_fee", 35.0, card)


def test_a_method_without_enough_balance_refuses_the_booking_and_changes_nothing(s):
    traveller, voucher = with_method(s, "voucher")
    trip = itinerary(s, traveller)
    dear = next(f for offset in range(3, 25) for f in s.ok("search_flights", origin="JFK", destination="LAX",
                                                            date=day(offset), cabin="business")
                if f["business"]["fare"] > voucher["balance"])
    args = {"itinerary_id": trip["itinerary_id"], "flight_id": dear["flight_id"], "cabin": "business"}
    error = s.fails("book_flight", "not enough", **args, payment_method_id=voucher["payment_method_id"])
    assert f"${voucher['balance']:.2f} left" in error and "nothing was charged" in error
    assert balance(s, traveller, voucher["payment_method_id"]) == voucher["balance"]
    # a voucher is the airline's credit: no hotel, no other airline; an expired card pays nothing
    room = s.ok("list_room_types", hotel_id=s.ok("search_hotels", city="Boston")[0]["hotel_id"])[0]
    s.fails("book_hotel", "pays flights only", itinerary_id=trip["itinerary_id"], room_type_id=room["room_type_id"],
            check_in=day(10), check_out=day(11), payment_method_id=voucher["payment_method_id"])
    london = next(f for offset in range(3, 20) for f in s.ok("search_flights", origin="JFK", destination="LHR",
                                                              date=day(offset), cabin="economy"))
    s.fails("book_flight", "Trailblazer Air flights only", itinerary_id=trip["itinerary_id"],
            flight_id=london["flight_id"], cabin="economy", payment_method_id=voucher["payment_method_id"])
    owner, expired = with_method(s, "card", expired=True)
    s.fails("book_flight", "expired on", itinerary_id=itinerary(s, owner)["itinerary_id"],
            flight_id=dear["flight_id"], cabin="economy", payment_method_id=expired["payment_method_id"])
    s.fails("book_flight", "belongs to another traveller", **args, payment_method_id=expired["payment_method_id"])
    # a gift card short of the price refuses the stay the same way
    holder, gift = with_method(s, "gift_card")
    suite = max(s.ok("list_room_types", hotel_id=s.ok("search_hotels", city="Miami")[0]["hotel_id"]),
                key=lambda r: r["nightly_price"])
    nights = int(gift["balance"] // suite["nightly_price"]) + 1
    s.fails("book_hotel", "not enough", itinerary_id=itinerary(s, holder)["itinerary_id"],
            room_type_id=suite["room_type_id"], check_in=day(20), check_out=day(20 + nights),
            payment_method_id=gift["payment_method_id"])


def test_cancelling_within_24_hours_refunds_everything_to_the_methods_that_paid(s):
    traveller, voucher = with_method(s, "voucher", least=150)
    trip = itinerary(s, traveller)
    flight = cheap_flight(s, voucher["balance"] - 30)
    booked = s.ok("book_flight", itinerary_id=trip["itinerary_id"], flight_id=flight["flight_id"], cabin="economy",
                  payment_method_id=voucher["payment_method_id"], insurance=True)
    card = pay(s, traveller)
    s.ok("add_bags", booking_id=booked["booking_id"], count=2, payment_method_id=card)
    quote = s.ok("quote_cancellation", booking_id=booked["booking_id"])
    assert quote["basis"] == "within_24_hours" and quote["kept"] == 0.0
    assert {r["payment_method_id"]: r["amount"] for r in quote["refunds"]} == {
        voucher["payment_method_id"]: round(flight["economy"]["fare"] + 30.0, 2), card: 70.0}
    cancelled = s.ok("cancel_flight_booking", booking_id=booked["booking_id"])
    assert cancelled["refund"] == round(flight["economy"]["fare"] + 30.0 + 70.0, 2)
    assert cancelled["basis"] == "within_24_hours" and cancelled["cancel_reason"] == "change_of_plans"
    assert balance(s, traveller, voucher["payment_method_id"]) == voucher["balance"]
    refunds = [e for e in s.ok("list_transactions", traveller_id=traveller["traveller_id"],
                               booking_id=booked["booking_id"]) if e["kind"] == "refund"]
    assert sorted((e["item"], e["amount"]) for e in refunds) == sorted(
        [("fare", flight["economy"]["fare"]), ("insurance", 30.0), ("bag_fee", 70.0)])


def test_a_basic_fare_refunds_nothing_after_24_hours_and_insurance_covers_illness(s):
    _, plain = bookings(s, fare_type="basic", insured=False)
    quote = s.ok("quote_cancellation", booking_id=plain["booking_id"], reason="illness")
    assert (quote["basis"], quote["refund"], quote["refunds"]) == ("non_refundable", 0.0, [])
    assert s.ok("cancel_flight_booking", booking_id=plain["booking_id"], reason="illness")["refund"] == 0.0
    traveller, insured = bookings(s, fare_type="basic", insured=True)
    kept = s.ok("quote_cancellation", booking_id=insured["booking_id"])
    assert (kept["basis"], kept["refund"]) == ("non_refundable", 0.0)
    covered = s.ok("quote_cancellation", booking_id=insured["booking_id"], reason="family_emergency")
    assert covered["basis"] == "travel_insurance"
    assert covered["refund"] == round(insured["price_paid"] + insured["bag_fees"] + insured["change_fees"], 2)
    assert covered["kept"] == insured["insurance_cost"]
    cancelled = s.ok("cancel_flight_booking", booking_id=insured["booking_id"], reason="family_emergency")
    assert (cancelled["refund"], cancelled["cancel_reason"]) == (covered["refund"], "family_emergency")
    listed = s.ok("list_flight_bookings", traveller_id=traveller["traveller_id"], status="cancelled")
    assert next(b for b in listed if b["booking_id"] == insured["booking_id"])["refund"] == covered["refund"]


def test_a_flight_the_airline_cancelled_refunds_in_full_and_rebooks_free(s):
    grounded = [(t, b) for t in s.ok("find_travellers", limit=100)
                for b in s.ok("list_flight_bookings", traveller_id=t["traveller_id"], status="booked")
                if b["flight_status"] == "cancelled"]
    assert len(grounded) >= 2, "the seed holds bookings on flights the airline cancelled"
    (traveller, first), (_, second) = grounded[:2]
    s.fails("select_seat", "the airline cancelled", booking_id=first["booking_id"], seat="12A")
    s.fails("add_bags", "the airline cancelled", booking_id=first["booking_id"], count=1)
    s.fails("change_cabin", "the airline cancelled", booking_id=first["booking_id"], cabin="business")
    quote = s.ok("quote_cancellation", booking_id=first["booking_id"])
    paid = round(first["price_paid"] + first["bag_fees"] + first["change_fees"] + first["insurance_cost"], 2)
    assert (quote["basis"], quote["refund"], quote["kept"]) == ("airline_cancelled", paid, 0.0)
    assert s.ok("cancel_flight_booking", booking_id=first["booking_id"])["refund"] == paid
    departs = dt.datetime.fromisoformat(second["departs_at"]).date()
    other = next(f for offset in range(1, 20) for f in s.ok(
        "search_flights", origin=second["origin"], destination=second["destination"],
        date=(departs + dt.timedelta(days=offset)).isoformat(), cabin=second["cabin"])
        if f[second["cabin"]]["seats_left"] >= second["passengers"])
    terms = s.ok("quote_flight_change", booking_id=second["booking_id"], new_flight_id=other["flight_id"])
    assert (terms["airline_cancelled"], terms["change_fee"], terms["fare_difference"]) == (True, 0.0, 0.0)
    moved = s.ok("change_flight", booking_id=second["booking_id"], new_flight_id=other["flight_id"])
    assert (moved["flight_status"], moved["charged"], moved["price_paid"]) == ("scheduled", 0.0, second["price_paid"])


def test_upgrade_and_downgrade_charge_and_refund_the_fare_difference(s):
    traveller, booking = next(
        (t, b) for t in s.ok("find_travellers", limit=100) if t["loyalty_tier"] == "none"
        for b in s.ok("list_flight_bookings", traveller_id=t["traveller_id"], status="booked")
        if b["cabin"] == "economy" and b["flight_status"] == "scheduled" and not b["companions"]
        and b["departs_at"] > NOW.isoformat()
        and s.ok("get_flight", flight_id=b["flight_id"])["business"]["seats_left"])
    flight = s.ok("get_flight", flight_id=booking["flight_id"])
    card = pay(s, traveller)
    s.ok("add_bags", booking_id=booking["booking_id"], count=3, payment_method_id=card)
    business = round(flight["business"]["fare_usd"] * (1.35 if booking["fare_type"] == "flex" else 1), 2)
    s.fails("change_cabin", "already in economy", booking_id=booking["booking_id"], cabin="economy")
    up = s.ok("change_cabin", booking_id=booking["booking_id"], cabin="business", payment_method_id=card)
    assert up["fare_difference"] == round(business - booking["price_paid"], 2) and up["price_paid"] == business
    assert up["bag_fee_difference"] == -70.0 and up["bag_fees"] == 35.0 and up["refunded"] == 70.0
    assert up["charged"] == up["fare_difference"] and up["cabin"] == "business" and up["seat"] is None
    after = s.ok("get_flight", flight_id=flight["flight_id"])
    assert after["business"]["seats_left"] == flight["business"]["seats_left"] - 1
    assert after["economy"]["seats_left"] == flight["economy"]["seats_left"] + 1
    down = s.ok("change_cabin", booking_id=booking["booking_id"], cabin="economy")
    assert down["refunded"] == up["fare_difference"] and down["charged"] == 70.0
    assert down["price_paid"] == booking["price_paid"] and down["bag_fees"] == 105.0
    newest = s.ok("list_transactions", traveller_id=traveller["traveller_id"], booking_id=booking["booking_id"],
                  limit=2)
    assert {(e["kind"], e["item"], e["reason"]) for e in newest} == {("refund", "fare", "downgrade"),
                                                                     ("charge", "bag_fee", "downgrade")}
    if flight["first"] is None:
        s.fails("change_cabin", "no first cabin", booking_id=booking["booking_id"], cabin="first")


def test_first_cabin_seats_and_bags(s):
    traveller = s.ok("find_travellers", limit=100)[2]
    flight = future_flight(s, cabin="first")
    assert flight["first"]["fare"] > flight["business"]["fare"]
    booked = s.ok("book_flight", **new_trip(s, traveller), flight_id=flight["flight_id"], cabin="first")
    assert booked["price_paid"] == flight["first"]["fare"]
    seats = s.ok("list_free_seats", flight_id=flight["flight_id"], cabin="first")
    assert seats["seats_left"] == flight["first"]["seats_left"] - 1 and set(seats["free_seats"]) <= {"5A", "5F", "6A",
                                                                                                      "6F"}
    s.fails("select_seat", "not in the first cabin", booking_id=booked["booking_id"], seat="1A")
    assert s.ok("select_seat", booking_id=booked["booking_id"], seat=seats["free_seats"][0])["seat"] == \
        seats["free_seats"][0]
    extra = 1 if traveller["loyalty_tier"] == "gold" else 0
    assert s.ok("add_bags", booking_id=booked["booking_id"], count=4)["charged_now"] == (1 - extra) * 35.0
    seattle = s.ok("search_flights", origin="SEA", destination="SFO", date=day(5))[0]
    assert seattle["first"] is None
    s.fails("book_flight", "no first cabin", **new_trip(s, traveller), flight_id=seattle["flight_id"], cabin="first")


def test_companions_share_a_booking_and_each_take_a_seat(s):
    traveller, friend = s.ok("find_travellers", limit=2)
    flight = future_flight(s, offset=8)
    args = {**new_trip(s, traveller), "flight_id": flight["flight_id"], "cabin": "economy"}
    s.fails("book_flight", "full name", **args, companions=["Maria"])
    s.fails("book_flight", "named once", **args, companions=["Maria Lopez", "maria  lopez"])
    s.fails("book_flight", "named once", **args, companions=[traveller["name"]])
    booked = s.ok("book_flight", **args, companions=["Maria Lopez", "Tom Lopez"], insurance=True)
    assert booked["passengers"] == 3 and booked["price_paid"] == round(flight["economy"]["fare"] * 3, 2)
    assert booked["insurance_cost"] == 90.0 and booked["charged"] == round(booked["price_paid"] + 90.0, 2)
    assert s.ok("get_flight", flight_id=flight["flight_id"])["economy"]["seats_left"] == \
        flight["economy"]["seats_left"] - 3
    free = s.ok("list_free_seats", flight_id=flight["flight_id"], cabin="economy")["free_seats"]
    seated = s.ok("select_seat", booking_id=booked["booking_id"], seat=free[0], passenger="maria lopez")
    assert seated["companions"][0] == {"name": "Maria Lopez", "seat": free[0]} and seated["seat"] is None
    s.fails("select_seat", "is taken", booking_id=booked["booking_id"], seat=free[0])
    s.fails("select_seat", "not a passenger", booking_id=booked["booking_id"], seat=free[1], passenger="Ann Lopez")
    s.fails("book_flight", "a passenger is on a flight once", **new_trip(s, friend), flight_id=flight["flight_id"],
            cabin="economy", companions=["Tom Lopez"])
    for _ in range(3):  # up to 4 bags a passenger: 12 for the three of them
        s.ok("add_bags", booking_id=booked["booking_id"], count=4)
    s.fails("add_bags", "(12 for this booking), so at most 0 more", booking_id=booked["booking_id"], count=1)
    cancelled = s.ok("cancel_flight_booking", booking_id=booked["booking_id"])
    assert all(c["seat"] is None for c in cancelled["companions"])
    assert s.ok("get_flight", flight_id=flight["flight_id"])["economy"] == flight["economy"]
    tight = next(f for offset in range(1, 25) for f in s.ok("search_flights", origin="JFK", destination="LAX",
                                                             date=day(offset), cabin="business")
                 if f["business"]["seats_left"] == 1)
    s.fails("book_flight", "not the 2 this booking needs", **new_trip(s, friend), flight_id=tight["flight_id"],
            cabin="business", companions=["Ann Lopez"])


def test_fares_in_the_airlines_currency_are_charged_in_dollars(s):
    rate = s.ok("get_exchange_rate", currency="gbp")
    assert rate["airlines"] == ["Kestrel Atlantic"] and rate["units_per_usd"] == round(1 / rate["usd_per_unit"], 4)
    s.fails("get_exchange_rate", "fares are priced in CAD, EUR, GBP, USD", currency="JPY")
    london = future_flight(s, origin="JFK", destination="LHR")
    assert london["currency"] == "GBP" and london["airline"] == "Kestrel Atlantic"
    assert london["economy"]["fare_usd"] == round(london["economy"]["fare"] * rate["usd_per_unit"], 2)
    traveller = s.ok("find_travellers", limit=100)[3]
    booked = s.ok("book_flight", **new_trip(s, traveller), flight_id=london["flight_id"], cabin="economy",
                  fare_type="flex")
    assert booked["price_paid"] == round(london["economy"]["fare_usd"] * 1.35, 2)


def test_support_cases_open_take_notes_and_close(s):
    traveller = s.ok("find_travellers", limit=100)[4]
    booking = s.ok("list_flight_bookings", traveller_id=traveller["traveller_id"])[0]
    args = {"traveller_id": traveller["traveller_id"], "topic": "name_correction", "booking_id": booking["booking_id"]}
    s.fails("open_support_case", "10 to 1000 characters", **args, description="Fix it")
    case = s.ok("open_support_case", **args, description="My surname is misspelled on the ticket; it should be "
                                                         "exactly as on my passport.")
    assert case["status"] == "open" and case["case_id"].startswith("CAS-") and len(case["notes"]) == 1
    assert case in s.ok("list_support_cases", traveller_id=traveller["traveller_id"], status="open")
    s.fails("open_support_case", "add a note to it", **args, description="Still waiting on the name fix, please.")
    noted = s.ok("add_case_note", case_id=case["case_id"], note="My passport reads Ann-Marie, with a hyphen.")
    assert [n["author"] for n in noted["notes"]] == ["traveller", "traveller"]
    other = next(t for t in s.ok("find_travellers", limit=100)
                 if t["traveller_id"] != traveller["traveller_id"] and s.ok(
                     "list_flight_bookings", traveller_id=t["traveller_id"]))
    theirs = s.ok("list_flight_bookings", traveller_id=other["traveller_id"])[0]
    s.fails("open_support_case", "is not", **{**args, "booking_id": theirs["booking_id"]},
            description="Please correct the name on this booking.")
    closed = s.ok("close_support_case", case_id=case["case_id"])
    assert closed["status"] == "closed"
    s.same("close_support_case", case_id=case["case_id"])
    s.fails("add_case_note", "closed and takes no notes", case_id=case["case_id"], note="One more thing.")
    assert s.ok("open_support_case", **args, description="Opening again: the name is still wrong.")["status"] == "open"
    resolved = next(c for t in s.ok("find_travellers", limit=100)
                    for c in s.ok("list_support_cases", traveller_id=t["traveller_id"], status="resolved"))
    assert s.ok("add_case_note", case_id=resolved["case_id"], note="This is not fixed yet.")["status"] == "open"


def test_saving_a_card(s):
    traveller = s.ok("find_travellers", limit=100)[5]
    tid = traveller["traveller_id"]
    s.fails("add_card", "check digit", traveller_id=tid, card_number="4111 1111 1111 1112", expiry="09/28")
    s.fails("add_card", "is not a Visa", traveller_id=tid, card_number="6011 1111 1111 1117", expiry="09/28")
    s.fails("add_card", "expired at the end of", traveller_id=tid, card_number="4111111111111111", expiry="01/26")
    s.fails("add_card", "not valid", traveller_id=tid, card_number="4111111111111111", expiry="13/28")
    card, again = s.repeat("add_card", traveller_id=tid, card_number="4111 1111 1111 1111", expiry="09/28")
    assert (card["label"], card["expires_on"], card["expired"]) == ("Visa ending 1111", "2028-09-30", False)
    assert again["payment_method_id"] == card["payment_method_id"] and not again["renewed"]
    renewed = s.ok("add_card", traveller_id=tid, card_number="4111-1111-1111-1111", expiry="03/2031")
    assert renewed["renewed"] and renewed["expires_on"] == "2031-03-31"
    assert [m for m in methods(s, traveller) if m["label"] == "Visa ending 1111"] == [
        {k: v for k, v in renewed.items() if k != "renewed"}]
    amex = s.ok("add_card", traveller_id=tid, card_number="3782 822463 10005", expiry="12/27")
    assert amex["brand"] == "American Express"


def test_seeded_worlds_hold_the_money_rules_edge_cases(served):
    """Every world of seeds 0-9 has vouchers and gift cards, an expired card, bookings made in
    the last day, on flights the airline cancelled and with companions, first cabins, and support
    cases in every status; their money agrees with the ledger (the invariants run on each)."""
    for seed in range(10):
        s = served("travel_booking", seed)
        rows = s.world.connection.execute
        kinds = {k for k, in rows("SELECT DISTINCT kind FROM payment_methods")}
        assert kinds == {"card", "voucher", "gift_card"}, seed
        today = s.world.now.date().isoformat()
        assert rows("SELECT count(*) FROM payment_methods WHERE kind = 'card' AND expires_on < ?", (today,)
                    ).fetchone()[0] > 0, seed
        assert rows("SELECT count(*) FROM flight_bookings WHERE booked_at > ?",
                    (str(s.world.now - dt.timedelta(hours=24)),)).fetchone()[0] > 0, seed
        assert rows("SELECT count(*) FROM companions").fetchone()[0] > 0, seed
        assert rows("SELECT count(*) FROM flight_bookings b JOIN flights f ON f.id = b.flight_id "
                    "WHERE f.status = 'cancelled' AND b.status = 'booked'").fetchone()[0] > 0, seed
        assert rows("SELECT count(*) FROM flights WHERE first_fare IS NOT NULL").fetchone()[0] > 0, seed
        assert rows("SELECT count(DISTINCT status) FROM support_cases").fetchone()[0] >= 3, seed
        assert s.world.violations() == [], seed
        s.close()


# -- synthesized requests ---------------------------------------------------------------------------


def _asks(tool: str, *, seed: int = 0, draws: int = 60) -> list[tuple[dict, object]]:
    """Requests the recipe writes for `tool` from the bundles of one world, each with its bundle."""
    import random

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("travel_booking"), get_recipe("travel_booking")
    world = worlds.create(toolkit, seed)
    rng = random.Random(f"travel_booking asks {seed}")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    found = []
    for goal in (g for g in recipe.goals if g.tool == tool):
        for _ in range(draws):
            b = rng.choice(bundles)
            ask = goal.build(b, rng)
            if ask is not None:
                found.append((b, ask))
    return found


def test_a_flights_seats_and_a_hotels_rooms_are_asked_where_no_search_shows_them():
    """A flight found by a search shows its seats and fares, and a hotel found by the city's search
    its room types and prices: asking `get_flight` or `list_room_types` after such a search made a
    call an agent rightly skips. They are asked of a flight the traveller is booked on and of the
    hotel of a stay, whose look-ups (the bookings) show neither."""
    from prove_env.synthesis.recipe import get_recipe

    for tool, kind in (("get_flight", "booking"), ("list_room_types", "stay")):
        asks = _asks(tool)
        assert len(asks) > 10, tool
        for _, ask in asks:
            assert [r.kind for r in ask.refs] == [kind], (tool, ask.say)
    assert not [lk for lk in get_recipe("travel_booking").lookups if lk.tool == "list_room_types"]


def test_a_booking_goes_into_a_trip_named_for_its_city():
    """Finding: 'into my Miami conference trip' booked a flight from Atlanta to Austin. A trip whose
    name says a city takes flights to or from it and hotels in it."""
    from prove_env.servers.travel_booking.synth import CITY, _trip_city

    checked = 0
    for tool in ("book_flight", "book_hotel"):
        for b, ask in _asks(tool, draws=80):
            trip = next(t for t in b["trips"] if t["itinerary_id"] == ask.args["itinerary_id"])
            city = _trip_city(trip)
            if city is None:
                continue
            checked += 1
            if tool == "book_flight":
                f = next(f for f in b["flights"] if f["flight_id"] == ask.args["flight_id"])
                assert city in (CITY[f["origin"]], CITY[f["destination"]]), ask.say
            else:
                hotel = next(h for h in b["hotels"] if any(r["room_type_id"] == ask.args["room_type_id"]
                                                           for r in h["rooms"]))
                assert hotel["city"] == city, ask.say
    assert checked > 20


def test_a_hotel_search_says_its_dates_once_and_no_case_is_opened_on_a_booking_being_cancelled():
    """Findings: "Which hotels ... from October 21 to October 26? ... The dates are from October 21 to
    October 26." said the dates twice; a name correction case was opened on a booking the same
    conversation then cancelled."""
    from prove_env.synthesis.wording import day

    for _, ask in _asks("search_hotels"):
        start = day(dt.date.fromisoformat(ask.args["check_in"]))
        assert f"{ask.say} {ask.detail or ''}".count(start) == 1, (ask.say, ask.detail)
    cases = _asks("open_support_case")
    assert len(cases) > 20
    for b, ask in cases:
        if "booking_id" in ask.args:
            assert next(x for x in b["bookings"] + b["flown"] if x["booking_id"] == ask.args["booking_id"]
                        ).get("role") != "cancel", ask.say


def test_nothing_back_is_said_as_people_say_it_and_a_case_request_is_a_request():
    """Findings: "You would get nothing back" failed a quoted refund of 0, and "Can you file a
    baggage case about ... with this description: "..."" asked a question that ended on a quotation."""
    import json
    import random

    from prove_env.facts import NOTHING
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds
    from servers.travel_booking.synth import _NO_REFUND

    toolkit, recipe = get_toolkit("travel_booking"), get_recipe("travel_booking")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    rng = random.Random("travel_booking refunds")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    nothing = quotes = 0
    for goal in (g for g in recipe.goals if g.tool in ("quote_cancellation", "open_support_case")):
        for _ in range(80):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            if goal.tool == "open_support_case":
                assert not ask.say.startswith(("Can you", "Could you")), ask.say
                continue
            result = json.loads(tools.run("quote_cancellation", dict(ask.args)))
            facts = ask.facts(result)
            assert 0 not in facts and 0.0 not in facts, (ask.say, result)
            quotes += 1
            nothing += _NO_REFUND in facts  # NOTHING, and no refund as a traveller hears it said (seed 127)
    world.close()
    assert quotes > 20 and nothing > 0
    assert set(NOTHING["one_of"]) <= set(_NO_REFUND["one_of"])


def test_a_number_the_user_reads_out_is_passed_as_they_said_it():
    """Finding: "Loyalty number: TB 24565887." was stored 'TB24565887' in the gold, and "Card 3444
    327504 84248" as '344432750484248', so an assistant passing the user's own words scored lower
    on the arguments. The call takes the number as the user says it."""
    asks = _asks("set_loyalty_number") + _asks("add_card")
    assert len(asks) > 40
    for _, ask in asks:
        value = ask.args.get("loyalty_number") or ask.args["card_number"]
        for words in (ask.detail, ask.terse):
            assert value in words, (value, words)


def test_a_flight_search_names_its_airports_and_an_airport_question_asks_for_every_code():
    """Finding: "flights from Miami to Boston" was searched as MIA to BOS with no look-up (New York
    has two airports), and a later "What's the airport code for Boston?" asked again what that
    search had shown. A search says each airport's code; a question about a city's airports asks for
    all of them, which no earlier mention of one gives."""
    searches = _asks("search_flights")
    assert len(searches) > 20
    for _, ask in searches:
        words = " ".join(w for w in (ask.say, ask.detail) if w)
        assert ask.args["origin"] in words and ask.args["destination"] in words, words
        assert ask.args["origin"] in ask.terse and ask.args["destination"] in ask.terse, ask.terse
    airports = _asks("search_airports")
    assert len(airports) > 20
    for _, ask in airports:
        assert "codes" in ask.say and "codes" in ask.terse, ask.say


def test_an_exchange_rate_question_does_not_say_every_foreign_fare_is_in_one_currency():
    """Finding: "Your foreign fares are in the euro, right?" while other airlines price in pounds and
    Canadian dollars."""
    asks = _asks("get_exchange_rate")
    assert len(asks) > 20
    assert not [ask.say for _, ask in asks if "foreign fares are in" in ask.say]


def test_the_payment_methods_and_the_transactions_are_hidden_together():
    """Finding: with `list_payment_methods` missing, "Charge my Mastercard card ending 0307" was
    declined, but the transactions list shows that card with its id (it had paid for a stay), so an
    agent could book. The two are substitutes: a missing-function task hides both or neither."""
    from prove_env.synthesis.recipe import get_recipe

    recipe = get_recipe("travel_booking")
    assert "list_transactions" in recipe.substitutes_of("list_payment_methods")
    import json

    from prove_env.registry import get_toolkit
    from prove_env.world import worlds

    toolkit = get_toolkit("travel_booking")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    try:
        shown = 0
        for t in json.loads(tools.run("find_travellers", {"limit": 100})):
            methods = {m["payment_method_id"]: m["label"]
                       for m in json.loads(tools.run("list_payment_methods", {"traveller_id": t["traveller_id"]}))}
            for x in json.loads(tools.run("list_transactions", {"traveller_id": t["traveller_id"]})):
                assert methods.get(x["payment_method_id"]) == x["paid_with"], x
                shown += 1
        assert shown > 10
    finally:
        world.close()


def test_a_booked_flight_is_named_as_a_flight():
    """Finding: "How many economy seats are left on my booking on the AUS-ATL flight of March 12"
    counted seats on a booking. A booked flight is named as the flight it is."""
    for tool in ("get_flight", "cancel_flight_booking", "add_bags"):
        asks = _asks(tool)
        assert len(asks) > 10, tool
        for _, ask in asks:
            assert "my booking on the" not in ask.say and "my booking on the" not in ask.terse, ask.say


def _run(tool: str, **arguments):
    """One read on a fresh world of seed 0 (the world `_asks` samples)."""
    import json

    from prove_env.registry import get_toolkit
    from prove_env.world import worlds

    toolkit = get_toolkit("travel_booking")
    world = worlds.create(toolkit, 0)
    try:
        return json.loads(toolkit(world).run(tool, arguments))
    finally:
        world.close()


def test_a_listing_of_bookings_filters_by_status_only_where_some_are_cancelled():
    """Finding: "My hotel bookings?" was listed with status='booked' for a traveller with no cancelled
    stay, so an agent that lists them all (the same list) lost the call's coverage. The filter is
    asked only where it leaves something out, and the facts are the booked ones either way."""
    for tool in ("list_flight_bookings", "list_hotel_bookings"):
        asks = _asks(tool)
        assert len(asks) > 20, tool
        filtered = 0
        for _, ask in asks:
            every = _run(tool, traveller_id=ask.args["traveller_id"])
            booked = [x for x in every if x["status"] == "booked"]
            assert ("status" in ask.args) == (every != booked), (tool, ask.args)
            filtered += "status" in ask.args
            key = "flight_number" if tool == "list_flight_bookings" else "hotel"
            cancelled = {x[key] for x in every if x["status"] != "booked"} - {x[key] for x in booked}
            assert not cancelled & set(map(str, ask.facts(every))), (tool, ask.facts(every))
        assert 0 < filtered < len(asks), tool


def test_an_itinerary_total_is_asked_of_a_trip_with_nothing_cancelled():
    """Finding: "Total of my Miami conference itinerary?" was asked of a trip whose flight and stay
    were both cancelled with nothing refunded: the total of what is booked is 0, while the traveller
    paid for both (and "How much have I spent on it?" was a wording of the same question). The total
    is asked of a trip with something booked and nothing cancelled, and never as what was spent.
    Finding: "What's the total of what's booked in the itinerary called 'Denver business trip'?" came
    after a bookings list showing the trip's one flight at the same price, and kept no call."""
    asks = _asks("get_itinerary")
    assert len(asks) > 20
    for _, ask in asks:
        trip = _run("get_itinerary", itinerary_id=ask.args["itinerary_id"])
        assert trip["total"] > 0, ask.say
        assert all(x["status"] == "booked" for x in trip["flights"] + trip["hotels"]), ask.say
        assert "spent" not in ask.say, ask.say
        # a total that is one booking's price seemed told by the bookings list, which names no trip,
        # and the trip's read was dropped ("What's the total ... 'Denver business trip'?" with no call)
        prices = {x["price_paid"] for x in trip["flights"]} | {x["total_price"] for x in trip["hotels"]}
        assert trip["total"] not in prices, (ask.say, trip["total"])


def test_a_card_is_named_without_the_word_card_twice_and_a_booked_flight_is_mine():
    """Findings: "Charge it to my Mastercard card ending 8553" (and "American Express card card");
    "Is there still room in business on the December 5 flight to San Francisco?" for a booked flight,
    while two flights go there that day."""
    import random
    import re

    from prove_env.servers.travel_booking.synth import booking_said, method_said

    rng = random.Random(0)
    for brand in ("Mastercard", "Visa", "American Express"):
        for _ in range(30):
            said = method_said({"kind": "card", "brand": brand, "last4": "1234"}, rng)
            assert not re.search(r"card card|Mastercard card", said), said
    booking = {"departs_at": "2026-12-05T06:30", "origin": "SEA", "destination": "SFO"}
    for _ in range(60):
        said = booking_said(booking, rng)
        assert said.startswith("my "), said


def test_no_case_is_opened_on_a_booking_the_conversation_moves():
    """Finding: "Rebook my flight from Atlanta to Austin on October 31 onto the TB 263 ... on October
    17", then "open a refund request ... for my ATL to AUS flight on October 31": the booking was
    named by a day it no longer flew. A case is opened only on a booking no request moves or cancels."""
    cases = _asks("open_support_case")
    assert len(cases) > 20
    roles = set()
    for b, ask in cases:
        if "booking_id" in ask.args:
            booking = next(x for x in b["bookings"] + b["flown"] if x["booking_id"] == ask.args["booking_id"])
            roles.add(booking.get("role"))
            assert booking.get("role") not in ("cancel", "change"), ask.say
    assert roles & {"other", "cabin"}, roles


def test_a_loyalty_number_is_added_where_there_is_none_and_updated_where_there_is_one():
    """Finding: "I'd like my loyalty number added to my profile." from a traveller whose profile already
    held one (the call replaces it), and "Can you update the number you have for me?" could be said
    where there was none."""
    asks = _asks("set_loyalty_number")
    assert len(asks) > 20
    kinds = set()
    for b, ask in asks:
        has = bool(b["traveller"]["loyalty_number"])
        kinds.add(has)
        assert has == any(w in ask.say for w in ("update", "replace")), (has, ask.say)
    assert kinds == {True, False}


def test_the_charges_of_a_booking_ask_what_paid_for_them():
    """Finding: "Charges on my flight from Chicago to Toronto on February 14?" recorded only the one
    charge, 193.37, which the bookings list (read to find the booking) already shows as its price:
    an agent answering from the list was right and lost the call. Every wording asks what paid too,
    which only the charges show, and the facts hold it: a card's last digits, a voucher or gift card."""
    import json

    from prove_env.registry import get_toolkit
    from prove_env.world import worlds

    toolkit = get_toolkit("travel_booking")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    # the booking's charges are picked from the traveller's whole list (its wording asks what paid)
    asks = [ask for _, ask in _asks("list_transactions") if "paid with" in ask.terse]
    assert len(asks) >= 10
    for ask in asks:
        assert any(w in ask.say for w in ("paid it with", "paid for", "pay with")), ask.say
        every = json.loads(tools.run("list_transactions", dict(ask.args)))
        facts = ask.facts(every)
        shown = [f for f in facts if not isinstance(f, float | int)]
        # the charges of one booking: its first four amounts, then what paid them (each payer once)
        owners = [bid for bid in dict.fromkeys(e["booking_id"] for e in every if e["booking_id"])
                  if [e["amount"] for e in every if e["booking_id"] == bid][:4] == facts[:len(facts) - len(shown)]]
        assert owners, (facts, every)
        charges = [e for e in every if e["booking_id"] == owners[0]]
        assert shown and len(shown) == len({e["paid_with"] for e in charges[:4]}), (facts, charges)
        for fact, entry in zip(shown, dict.fromkeys(e["paid_with"] for e in charges[:4]), strict=True):
            assert fact == entry[-4:] if "ending" in entry else entry in fact["one_of"], (fact, entry)
    world.close()


def test_a_flight_a_booking_moves_to_on_its_route_is_named_without_the_route_again():
    """Finding: "rebook my EWR to ORD flight on February 19 onto flight TB 324 from EWR to ORD on
    February 7": the new flight flies the same route, which the request said twice."""
    moves = _asks("change_flight")
    assert len(moves) >= 10
    for b, ask in moves:
        booking = next(x for x in b["bookings"] if x["booking_id"] == ask.args["booking_id"])
        a, z = booking["origin"], booking["destination"]
        for words in (ask.say, ask.terse, ask.detail or ""):
            assert words.count(a) + words.count(z) <= 2, words


def test_a_filter_of_the_charges_narrows_them():
    """Finding: "Charges and refunds on my Visa card ending 4825?" from a traveller whose every charge is
    on that Visa: the filter changes nothing and leaves the gold call, and the payment methods listed to
    find the card then fed nothing (an agent that skipped them lost the call). A request names a card or
    a booking only where its charges are some of the traveller's, not all."""
    import json

    from prove_env.registry import get_toolkit
    from prove_env.world import worlds

    toolkit = get_toolkit("travel_booking")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    asks = [ask for _, ask in _asks("list_transactions", draws=120)]
    kinds = set()
    for ask in asks:
        key = "booking_id" if "paid with" in ask.terse else "payment_method_id"
        kinds.add(key)
        every = json.loads(tools.run("list_transactions", dict(ask.args)))
        amounts = [f for f in ask.facts(every) if isinstance(f, float | int)]
        # the named booking's or card's entries are some of the list: another booking or payer has some too
        assert len({e[key] for e in every}) >= 2 and amounts, ask.say
        assert len(amounts) < len(every) or len(amounts) == 3, (amounts, every)
    assert kinds == {"payment_method_id", "booking_id"}
    world.close()


def test_no_case_is_opened_on_a_topic_the_traveller_has_a_case_of():
    """Finding: "Open a refund case ..." for a traveller who had a refund case on another booking, then
    "What's the latest note on my refund support case?": two refund cases, two readings. Cases are named
    by topic, so a new case takes a topic the traveller has none of."""
    cases = _asks("open_support_case", draws=120)
    assert len(cases) > 20
    assert any(b["cases"] for b, _ in cases)
    for b, ask in cases:
        assert ask.args["topic"] not in {c["topic"] for c in b["cases"]}, ask.say


def test_a_party_of_one_is_not_we():
    """Finding: "We're just me going to Denver. Which hotels can put us up?" """
    asks = [ask for _, ask in _asks("search_hotels", draws=200)]
    alone = [ask for ask in asks if ask.args.get("guests", 1) == 1]
    assert len(alone) > 10 and any("on my own" in ask.say for ask in alone)
    for ask in alone:
        assert not re.search(r"\b(?:we|we're|us)\b", ask.say, re.IGNORECASE), ask.say


def test_a_party_is_counted_in_plain_words():
    """Finding: "We're two of us going to Denver. Which hotels can put us up?", and "We'd stay from March 3
    to March 5." said by a party of one."""
    asks = [ask for _, ask in _asks("search_hotels", draws=200)]
    assert any(ask.args.get("guests", 1) > 1 and "going to" in ask.say for ask in asks)
    assert any(ask.args.get("guests", 1) == 1 and "stay from" in ask.detail for ask in asks)
    for ask in asks:
        assert not re.search(r"\b(?:we're|it's) (?:two|three|four)\b", ask.say, re.IGNORECASE), ask.say
        if ask.args.get("guests", 1) == 1:
            assert not re.search(r"\b(?:we|we'd|us)\b", ask.detail, re.IGNORECASE), ask.detail


def test_free_seats_are_asked_which_in_every_wording():
    """Finding: the terse "Free business seats on AE 315?" records seat ids, and reads as "how many" as
    well: "8 business seats are free" then failed."""
    asks = [ask for _, ask in _asks("list_free_seats", draws=30)]
    assert asks
    for ask in asks:
        for text in (ask.say, ask.terse):
            assert re.search(r"\b(?:which|what) seats\b|\bwhich business\b", text, re.IGNORECASE), text


def test_the_trips_and_a_trip_are_hidden_together():
    """Finding: with `list_itineraries` missing, "Which trips do I have with you?" was to be declined,
    but each flight booking and stay names its itinerary and `get_itinerary` reads its name out, so an
    agent answered it (scored below the maximum). The two are substitutes: a missing-function task
    hides both or neither."""
    import json

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import get_recipe
    from prove_env.world import worlds

    assert "get_itinerary" in get_recipe("travel_booking").substitutes_of("list_itineraries")
    toolkit = get_toolkit("travel_booking")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    try:
        told = 0
        for t in json.loads(tools.run("find_travellers", {"limit": 100})):
            tid = t["traveller_id"]
            trips = {i["itinerary_id"]: i["name"] for i in json.loads(tools.run("list_itineraries", {"traveller_id": tid}))}
            booked = {x["itinerary_id"] for tool in ("list_flight_bookings", "list_hotel_bookings")
                      for x in json.loads(tools.run(tool, {"traveller_id": tid}))}
            for itinerary_id in booked:
                assert json.loads(tools.run("get_itinerary", {"itinerary_id": itinerary_id}))["name"] == trips[itinerary_id]
            told += booked == trips.keys()
        assert told > 5  # travellers whose every trip the bookings and get_itinerary tell
    finally:
        world.close()


def test_a_return_flight_search_asks_for_flights_in_plain_words():
    """Finding: "Can you find me return flights JFK to CDG, please? Which flight numbers run?" (the
    numbers do not run; the flights do)."""
    asks = [ask for _, ask in _asks("search_flights", draws=120) if "return_date" in ask.args]
    assert asks
    for ask in asks:
        assert not re.search(r"\bnumbers run\b", ask.say), ask.say


def test_a_stays_rooms_are_asked_without_the_hotels_name():
    """Finding: "About my stay at the Denver Gateway Hotel from June 28: which room types does the hotel
    offer?" went through the bookings to list_room_types, while the city's hotel search lists the named
    hotel's rooms and prices in one call. The stay is said by its city and day, in a city of several
    hotels, so the booking is what tells which hotel."""
    found = _asks("list_room_types", draws=120)
    assert found
    for b, ask in found:
        stay = next(s for s in b["stays"] if s["hotel_id"] == ask.args["hotel_id"])
        for text in (ask.say, ask.terse):
            assert stay["hotel"] not in text and stay["city"] in text, text
        assert sum(h["city"] == stay["city"] for h in b["hotels"]) > 1


def test_charges_are_picked_from_the_travellers_whole_list():
    """Finding: "Charges and refunds on the Mastercard ending in 1017?" looked the card up to filter
    list_transactions by its id, while the traveller's list labels every entry with what paid it (and what
    it was for): one call shorter. The gold lists the charges and the facts are the named card's or
    booking's entries."""
    found = _asks("list_transactions", draws=120)
    assert found
    for b, ask in found:
        assert ask.args == {"traveller_id": b["traveller"]["traveller_id"]}, ask.args
        assert len(b["ledger"]) <= 20


def test_the_bookings_are_hidden_with_the_trips_and_the_charges():
    """Finding: with `list_flight_bookings` missing, "Which flights do I have booked at the moment?" was to
    be declined, while each trip's get_itinerary lists its flights with their numbers (and the fare charges
    name them). A missing-function task that leaves out a bookings list hides those too."""
    import json

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import get_recipe
    from prove_env.world import worlds

    recipe = get_recipe("travel_booking")
    for listing in ("list_flight_bookings", "list_hotel_bookings"):
        assert {"get_itinerary", "list_transactions"} <= recipe.substitutes_of(listing)
    toolkit = get_toolkit("travel_booking")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    try:
        told = 0
        for t in json.loads(tools.run("find_travellers", {"limit": 100}))[:15]:
            tid = t["traveller_id"]
            booked = {x["booking_id"] for x in json.loads(tools.run("list_flight_bookings", {"traveller_id": tid}))}
            trips = [json.loads(tools.run("get_itinerary", {"itinerary_id": i["itinerary_id"]}))
                     for i in json.loads(tools.run("list_itineraries", {"traveller_id": tid}))]
            assert {f["booking_id"] for trip in trips for f in trip["flights"]} == booked
            told += bool(booked)
        assert told > 5
    finally:
        world.close()


def test_one_checked_bag_is_it_not_them():
    """Finding: "I'll be travelling with one checked bag on my MIA to JFK flight on February 13. Can you add
    them?": the pronoun follows the number of bags."""
    found = [ask for _, ask in _asks("add_bags", draws=120)]
    assert any(ask.args["count"] == 1 and "Can you add it?" in ask.say for ask in found)
    assert any(ask.args["count"] == 2 and "Can you add them?" in ask.say for ask in found)
    for ask in found:
        if ask.args["count"] == 1:
            assert "add them" not in ask.say, ask.say


def test_a_bookings_charges_ask_what_paid_them_in_words_of_one_reading():
    """Finding: "What exactly have you charged me for my October 19 flight to Boston? Every charge, and what
    it went on, please." records the card, but "what it went on" reads as well as "what it was spent on" (the
    fare), and "one charge: $257.99 for the fare" then fails. Every wording of a booking's charges asks for
    what paid them in words that mean only that."""
    found = [ask for _, ask in _asks("list_transactions", draws=150) if "charged me for" in ask.say]
    assert found
    for ask in found:
        assert "went on" not in ask.say, ask.say
        assert "paid it with" in ask.say, ask.say


def test_no_loyalty_tier_is_stated_by_saying_there_is_none():
    from prove_env.facts import stated
    from servers.travel_booking.synth import _tier
    fact = _tier("none")
    assert stated(fact, "Your frequent flyer number is TB30611135; you don't have a status level.")
    assert stated(fact, "It's TB30611135, and you have no tier yet.")
    assert not stated(fact, "Your frequent flyer number is TB30611135. No problem!")
    assert _tier("gold") == "gold"


def test_the_agency_reply_is_stated_by_its_gist_as_well_as_word_for_word():
    from prove_env.facts import stated
    from servers.travel_booking.seed import AGENCY_CLOSING, AGENCY_REPLIES
    from servers.travel_booking.synth import _reply_said
    refused = _reply_said("The airline could not grant this request, sorry; we are closing the case.")
    assert stated(refused, "The agency replied that the airline couldn't grant your refund request; it's closed.")
    assert stated(refused, "They said: The airline could not grant this request, sorry; we are closing the case.")
    assert not stated(refused, "The airline has agreed to refund you.")
    for text in itertools.chain(*AGENCY_REPLIES.values(), *AGENCY_CLOSING.values()):
        assert isinstance(_reply_said(text), dict), text  # every reply the world holds has a gist


def test_a_voucher_that_cannot_pay_is_asked_with_the_fare_the_user_says():
    """Finding: "Book flight TB 360 on January 31 ... paid entirely with my travel voucher. If the voucher
    doesn't cover it, don't book; just tell me how much is left on it." The gold read only the payment
    methods (the fare look-up tells nothing asked, so the gates drop it): it declared the voucher short
    without the fare. The user says the fare, so the condition they set is checked on the balance alone."""
    from prove_env.synthesis.wording import money
    found = [(b, ask) for b, ask in _asks("list_payment_methods", draws=150)
             if "voucher doesn't cover" in ask.say or "on its own" in ask.say]
    assert found
    for b, ask in found:
        voucher = next(m for m in b["methods"] if m["kind"] == "voucher" and not m["expired"])
        fares = [f["economy"]["fare_usd"] for f in b["flights"] if f["number"] in ask.mentions]
        # the fare of the flight asked about (a number flies on several days), above what the voucher holds
        assert any(money(fare) in ask.say and money(fare) in ask.terse and money(fare) in ask.mentions
                   and voucher["balance"] < fare for fare in fares), ask.say


def test_a_quoted_refund_is_read_off_the_quote_and_not_off_the_booking():
    """Finding: "If I cancelled my Portland flight on May 5 now, how much would I get back?" lost its
    quote_cancellation: the fact read `refund` (0.0) off the booking entry that list_flight_bookings showed
    (what was refunded so far), so the read counted as shown earlier, and an agent that asked for the quote
    scored below the gold. The fact reads the quote's refund only."""
    from prove_env.facts import NOTHING
    from servers.travel_booking.synth import _NO_REFUND
    found = _asks("quote_cancellation", draws=40)
    assert found
    for b, ask in found[:5]:
        booking = next(x for x in _run("list_flight_bookings", traveller_id=b["traveller"]["traveller_id"])
                       if x["booking_id"] == ask.args["booking_id"])
        assert booking["refund"] == 0.0
        assert ask.facts(booking) == []
        quote = _run("quote_cancellation", **ask.args)
        # no refund is NOTHING, also as a traveller hears it said (seed 127, 0003: "you wouldn't get any money back")
        assert ask.facts(quote) == [quote["refund"] or _NO_REFUND]
        assert set(NOTHING["one_of"]) <= set(_NO_REFUND["one_of"])


def test_asking_what_bags_cost_records_what_was_charged():
    """Finding: "Could you add one checked bag to my flight from Austin to Atlanta on April 24, and tell me
    what I owe?" had no fact: an answer that never said the $35 succeeded. Every wording of that request asks
    what is owed, and the fact is the call's charge."""
    from prove_env.facts import NOTHING
    from servers.travel_booking.synth import _NO_CHARGE
    found = [ask for _, ask in _asks("add_bags", draws=150)]
    owe = [ask for ask in found if "what I owe" in ask.say]
    assert owe
    for ask in owe:
        assert ask.facts is not None and "what do I owe" in ask.terse, ask.terse
        assert ask.facts({"charged_now": 35.0}) == [35.0]
        # no charge is NOTHING, also said as free or included (seed 127, see the no-refund test)
        assert ask.facts({"charged_now": 0.0}) == [_NO_CHARGE]
        assert set(NOTHING["one_of"]) <= set(_NO_CHARGE["one_of"])
    assert all(ask.facts is None for ask in found if "owe" not in ask.say)


def test_the_charges_settle_the_bookings_and_stays_they_label():
    """Finding: after "Could you break down the payments on my Miami flight on April 30?", "If I switched my
    Denver flight on May 17 to TB 347 ..." listed the flight bookings again, while the charges already showed
    that booking's id beside "TB 337 PDX-DEN on 2026-05-17": an agent taking the id from there lost coverage.
    The charges settle every booking and stay whose label no other entry of the list shares."""
    found = _asks("list_transactions", draws=120)
    assert found
    for b, ask in found:
        page = _run("list_transactions", **ask.args)
        assert ask.settles
        for kind, key in ask.settles:
            field = {"booking": "booking_id", "stay": "stay_id"}[kind]
            labels = {e["for"] for e in page if e[field] == key}
            assert labels and all(e[field] == key for e in page if e["for"] in labels), (kind, key)
        shown = {("booking", e["booking_id"]) for e in page if e["booking_id"]}
        assert any(s in shown for s in ask.settles)


def test_a_flight_search_asks_for_business_seats_only_where_the_filter_leaves_a_flight_out():
    """Finding: "Could you look up flights with business class seats left from London (LHR) to Boston (BOS) on
    March 5?" had the one flight of that day, with business seats, so the gates dropped the cabin filter the
    user stated from the gold (which teaches leaving out what the user said). Business seats are asked for
    only where a flight of the route and day has none left."""
    found = [ask for _, ask in _asks("search_flights", draws=200) if "return_date" not in ask.args]
    filtered = [ask for ask in found if "cabin" in ask.args]
    assert filtered
    for ask in found:
        assert ("business" in ask.say) == ("cabin" in ask.args), ask.say
    for ask in filtered:
        every = _run("search_flights", **{k: v for k, v in ask.args.items() if k != "cabin"})
        assert _run("search_flights", **ask.args) != every, ask.say


def test_a_hotel_search_states_the_party_and_the_cap_only_where_they_change_what_it_finds():
    """Finding: "I need somewhere to stay in Austin for at most $250 a night, two of us." lost its guests=2 from
    the gold, since every room sleeps two: the gates drop a filter that changes nothing, and the task taught
    searching without the party the user stated. A party of more than one and a price cap are said only
    where the search finds less with them."""
    found = [ask for _, ask in _asks("search_hotels", draws=200)]
    assert any(ask.args.get("guests", 1) > 1 for ask in found) and any("max_price" in ask.args for ask in found)
    for ask in found:
        results = _run("search_hotels", **ask.args)
        if ask.args.get("guests", 1) > 1:
            assert results != _run("search_hotels", **{**ask.args, "guests": 1}), ask.say
        if "max_price" in ask.args:
            uncapped = {k: v for k, v in ask.args.items() if k != "max_price"}
            assert results != _run("search_hotels", **uncapped), ask.say


def test_a_flight_search_is_not_asked_to_look_up_after_a_thanks_for_looking_it_up():
    """Finding: "Thanks for looking that up! Could you look up flights from New York (JFK) to London (LHR) on
    March 5?": the chatty acknowledgement (prove_env.synthesis.voice) says "looking that up", so no flight search
    asks to look up."""
    for _, ask in _asks("search_flights", draws=120):
        assert "look up" not in ask.say.lower(), ask.say


def test_no_loyalty_tier_is_stated_as_a_person_says_it():
    """Finding (seed 121, 0010): "Could you read me my frequent flyer number and my status level?" of a
    traveller with no tier failed on "you don't currently have a status tier", "you're not at any status
    level yet" and "you haven't reached a tier yet": the fact read only a few fixed phrases. No tier is said
    by having, holding or reaching none, never by a tier's name."""
    from prove_env.facts import stated
    from servers.travel_booking.synth import _tier
    fact = _tier("none")
    for answer in ("Your frequent flyer number is TB92759383, and you don't currently have a status tier.",
                   "Your frequent flyer number is TB92759383, and you're not at any status level yet.",
                   "Your frequent flyer number is TB92759383, and you haven't reached a tier yet.",
                   "It's TB92759383; you don\u2019t have a tier at the moment.",
                   "It's TB92759383, with no loyalty status so far.",
                   "It's TB92759383. You're at the base level, with no elite tier."):
        assert stated(fact, answer), answer
    for answer in ("Your frequent flyer number is TB92759383, and you're a silver member.",
                   "It's TB92759383; your tier is gold.", "Your frequent flyer number is TB92759383. No problem!"):
        assert not stated(fact, answer), answer


def test_the_agency_reply_that_the_airline_agreed_is_stated_in_other_words():
    """Finding (seed 121, 0007): "Latest reply on my special assistance request?", whose last note is "The
    airline has agreed; this is settled.", failed on "the airline said yes, so it's all settled" and "the
    airline accepted your request and the case is settled": the gist read only 'agreed', 'approved' and
    'granted'. A reply passed to the airline is likewise told by 'passed your request on to the airline'."""
    from prove_env.facts import stated
    from servers.travel_booking.synth import _reply_said
    agreed = _reply_said("The airline has agreed; this is settled.")
    for answer in ("The latest reply: the airline said yes, so it's all settled.",
                   "The agency's last note says the airline accepted your request and the case is settled.",
                   "Their latest reply says the airline confirmed it; the case is closed."):
        assert stated(agreed, answer), answer
    for answer in ("The airline could not grant this request; the case is closed.",
                   "The airline has not accepted it yet; they'll reply within two working days."):
        assert not stated(agreed, answer), answer
    passed = _reply_said("Thank you, we have passed this to the airline and will update you.")
    for answer in ("They've passed your request on to the airline and will update you.",
                   "The agency forwarded the case to the airline and will get back to you."):
        assert stated(passed, answer), answer
    assert not stated(passed, "The airline has agreed; this is settled.")


def test_a_request_never_repeats_a_phrase_of_the_introduction_before_it():
    """Finding (seed 123, 0003): "Hello! Email on file: jennifer.riley@example.com. Could you put my new card on
    file for future bookings?" says "on file" twice (and "My profile is under ..." meets "What cards are saved on
    my profile?", "My account email is ..." meets "add a new credit card to my account"). No introduction says a
    phrase that a request of the server says."""
    from prove_env.synthesis.recipe import get_recipe
    from servers.travel_booking import synth

    intros = " ".join(synth._BY_NAME + synth._BY_NAME_TERSE + synth._BY_EMAIL + synth._BY_EMAIL_TERSE).lower()
    said = []
    for tool in {g.tool for g in get_recipe("travel_booking").goals}:
        for _, ask in _asks(tool, draws=15):
            said.append(" ".join(w for w in (ask.say, ask.terse, ask.detail) if w).lower())
    assert len(said) > 100
    for phrase in ("on file", "profile", "account"):
        if phrase in intros:
            assert not [s for s in said if phrase in s], phrase


def test_a_booking_says_the_fare_as_a_fare():
    """Finding (seed 123, 0006): "Economy, in my 'New York business trip'; basic, on the American Express card
    ending in 1577." left the bare word "basic" (or "flex") without saying it is the fare. Every flight booking
    names the fare as such."""
    asks = _asks("book_flight", draws=200)
    assert len(asks) > 50
    for _, ask in asks:
        assert "fare" in ask.say and "fare" in ask.terse, ask.say


def test_someone_joining_is_asked_about_the_cabin_the_traveller_flies():
    """Finding (seed 123, 0008): "Someone may join me on my New York flight on October 28. How many business seats
    remain, and at what fare?" came from a traveller in economy, whose next request moved them up to business:
    a companion joins in the traveller's own cabin, so that wording is kept to it; another cabin is asked about
    as such."""
    asks = _asks("get_flight", draws=300)
    joining = [ask for _, ask in asks if "join me" in ask.say]
    assert joining and len(joining) < len(asks)
    for ask in joining:
        booking = ask.refs[0].entity
        assert f"How many {booking['cabin']} seats" in ask.say, (booking["cabin"], ask.say)


def test_a_request_leaves_the_tools_defaults_to_the_tool():
    """Finding (seed 125, 0001): "Which hotels in Denver have a room for at most $200 a night? It's just me.", the
    dates held back, kept guests=1 in the gold: the gold of the call a held-back value is for keeps every argument
    (prove_env.synthesis.verify), so the natural search that leaves the party of one to the tool matched no gold
    call and scored 1.05 of 1.3. No request that may hold a value back passes a parameter's default (a hotel
    booking's one guest and refundable rate likewise); elsewhere the gates leave the defaults out."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.recipe import get_recipe

    specs = get_toolkit("travel_booking").specs()
    held = 0
    for tool in sorted({g.tool for g in get_recipe("travel_booking").goals}):
        properties = specs[tool].parameters.get("properties", {})
        for _, ask in _asks(tool, draws=40):
            if not ask.detail:
                continue
            held += 1
            for key, value in ask.args.items():
                default = properties.get(key, {}).get("default")
                assert default is None or value != default, (tool, key, ask.say)
    assert held > 50
    found = [ask for _, ask in _asks("search_hotels", draws=100)]
    assert any("just me" in ask.say or "on my own" in ask.say for ask in found)
    booked = [ask for _, ask in _asks("book_hotel", draws=100)]
    assert any("just me" in ask.say for ask in booked) and any(" refundable rate" in ask.say for ask in booked)


def test_the_availability_check_is_hidden_with_the_hotel_search():
    """Finding (seed 125, 0010): with `check_room_availability` missing, "A Junior Suite at the Chicago Harbor
    Lodge, April 25-April 28, the refundable rate: free, and price?" was to be declined, yet the hotel search with
    the dates lists the room only where it is free every night, at its nightly price: searching and answering
    scored 1.25 of 1.3. The two are declared substitutes, so the check is never hidden while the search is shown."""
    from prove_env.synthesis.recipe import get_recipe

    assert "search_hotels" in get_recipe("travel_booking").substitutes_of("check_room_availability")
    asks = _asks("check_room_availability", draws=40)
    assert len(asks) > 10
    for b, ask in asks:
        room = ask.refs[0]
        city = room.owner.entity["city"]
        check = _run("check_room_availability", **ask.args)
        found = _run("search_hotels", city=city, check_in=ask.args["check_in"], check_out=ask.args["check_out"])
        listed = [r for h in found for r in h["room_types"] if r["room_type_id"] == ask.args["room_type_id"]]
        assert bool(listed) == check["available"], ask.say
        if listed:
            total = listed[0]["nightly_price"] * check["nights"]
            assert round(total, 2) == check["refundable_total"], ask.say
            assert round(total * 0.85, 2) == check["nonrefundable_total"], ask.say


def test_free_seats_are_checked_all():
    """Finding (seed 125, 0007): "Which seats could I still pick?" of a business cabin with seven free seats
    recorded only the first four, a check of less than was asked. The facts are every free seat."""
    asks = [ask for _, ask in _asks("list_free_seats", draws=30)]
    assert asks
    many = 0
    for ask in asks:
        result = _run("list_free_seats", **ask.args)
        many += len(result["free_seats"]) > 4
        assert list(ask.facts(result)) == result["free_seats"], ask.say
    assert many


def test_no_refund_and_no_charge_are_stated_as_a_person_says_them():
    """Finding (seed 127, 0003): "Before I decide: what refund would cancelling my flight from Chicago to Denver
    on March 28 give me?" of a basic fare, whose quote refunds nothing, failed on "You wouldn't get any money
    back: TB 163 is a basic, non-refundable fare, so the airline keeps the full $187.99.": the fact read only
    nothing, none or 0. No refund is also said by getting none back, by not being refunded or by the fare
    being non-refundable; no charge (a change or bags that cost nothing) also as free or included."""
    from prove_env.facts import facts_stated

    quotes = [ask for _, ask in _asks("quote_cancellation", draws=60)]
    assert quotes
    for ask in quotes:
        facts = [list(ask.facts({"booking_id": "FBK-0030", "refund": 0.0, "kept": 187.99, "items_refunded": []}))]
        for answer in ("You wouldn't get any money back: TB 163 is a basic, non-refundable fare, so the airline "
                       "keeps the full $187.99.", "You won\u2019t get anything back.", "That fare is non-refundable.",
                       "It wouldn't be refunded at all; all $187.99 is kept.", "You'd get nothing back.", "$0."):
            assert facts_stated(facts, [answer]), (ask.say, answer)
        for answer in ("You'd get $187.99 back.", "You'd get the full fare back; it's refundable."):
            assert not facts_stated(facts, [answer]), (ask.say, answer)
    owed = [ask for _, ask in _asks("add_bags", draws=200) if ask.facts is not None and "what I owe" in ask.say]
    moved = [ask for _, ask in _asks("quote_flight_change", draws=60)]
    assert owed and moved
    for ask, result in [(a, {"charged_now": 0.0}) for a in owed] + [(a, {"total_due": 0.0}) for a in moved]:
        facts = [list(ask.facts(result))]
        for answer in ("It's free: your cabin includes checked bags.", "Nothing, the bags are included.",
                       "It won't cost you anything.", "There's no charge for that."):
            assert facts_stated(facts, [answer]), (ask.say, answer)
        for answer in ("You owe $70.00.", "That's $35 - the bag isn't free on this fare."):
            assert not facts_stated(facts, [answer]), (ask.say, answer)


def test_the_availability_check_asks_what_the_dated_hotel_search_does_not_tell():
    """Finding (seed 129, 0004): "How much would a Junior Suite at the Seattle Gateway Suites be at the
    non-refundable rate, February 16 to February 18? Is it available?" was answered by the gold through the city's
    hotel search and then the availability check, yet the search with the dates alone lists the room only where it
    is free every night, at its nightly price (the non-refundable rate is 15% less): one search and the answer
    scored 1.2 of 1.3. The question now also asks how many rooms are left for the stay, which only the check tells."""
    asks = _asks("check_room_availability", draws=40)
    assert len(asks) > 10
    for _, ask in asks:
        assert "left" in ask.say or "still free every night" in ask.say, ask.say
        check = _run("check_room_availability", **ask.args)
        facts = list(ask.facts(check))
        fewest = min(check["rooms_left_per_night"].values())
        if fewest:
            assert facts[0] == fewest and len(facts) == 2, (ask.say, facts)
        else:
            assert len(facts) == 1 and "sold out" in facts[0]["one_of"], (ask.say, facts)


def test_the_booked_flights_are_asked_by_their_numbers():
    """Finding (seed 131, 0005): "My booked flights?" (also "What flights am I booked on right now?") recorded the
    flight numbers as its facts, yet "You have three flights booked: San Francisco to Seattle on April 16, New York
    (JFK) to Los Angeles on April 14 and Vancouver to Seattle on April 6" answers it rightly and failed. Every
    wording asks for the flight numbers."""
    asks = [ask for _, ask in _asks("list_flight_bookings", draws=60)]
    assert len(asks) > 10
    for ask in asks:
        for text in (ask.say, ask.terse):
            assert "flight numbers" in text.lower(), text


@pytest.mark.parametrize("seed", range(6))
def test_the_agency_notes_follow_the_case_status_and_topic(seed):
    """Finding (seed 131, 0003): a request for an itemised invoice was "passed to the airline", and its
    case, resolved, ended on "The airline could not grant this request ... we are closing the case". A
    resolved case ends on a reply that settles it; a case about no booking has no airline in its notes."""
    from prove_env.registry import get_toolkit
    from prove_env.world import worlds

    world = worlds.create(get_toolkit("travel_booking"), seed)
    cases = world.connection.execute("SELECT id, topic, status, booking_id FROM support_cases").fetchall()
    seen = set()
    for case_id, topic, status, booking_id in cases:
        notes = [text for (text,) in world.connection.execute(
            "SELECT text FROM case_notes WHERE case_id = ? AND author = 'agency' ORDER BY id", (case_id,))]
        if topic == "other":
            assert booking_id is None and not any("airline" in n.lower() or "passport" in n for n in notes), notes
        if status == "resolved":
            assert not any(w in notes[-1] for w in ("could not", "closing the case")), notes
        seen.add((topic == "other", status))
    assert len(seen) >= 4, seen  # the worlds hold cases of both kinds in several statuses


def test_an_expired_cards_expiry_is_read_as_its_month():
    """Finding (seed 133, 0003): "charge my Visa ending 3417. If that card is no longer valid, don't book; tell me
    when it expired." recorded the stored last day, 2026-02-28, so "It expired in February 2026, so I didn't book"
    and "It expired 02/26" (a card's month, as it prints it) failed. A card's expiry is stated by its month and
    year too; another month is not."""
    import json

    from prove_env.facts import facts_stated
    from prove_env.registry import get_toolkit
    from prove_env.world import worlds

    toolkit = get_toolkit("travel_booking")
    asks = []
    for seed in (1, 2):  # the world of seed 0 holds no expired card
        world = worlds.create(toolkit, seed)
        asks += [(b, ask, json.loads(toolkit(world).run("list_payment_methods", ask.args)))
                 for b, ask in _asks("list_payment_methods", seed=seed, draws=200) if "no longer valid" in ask.say]
        world.close()
    assert len(asks) > 10
    for b, ask, methods in asks:
        facts = [list(ask.facts(methods))]
        card = next(m for m in b["methods"] if m["expired"] and m["last4"] in ask.say)
        d = dt.date.fromisoformat(card["expires_on"])
        for answer in (f"That card expired in {d:%B %Y}, so I didn't book the flight.",
                       f"It expired {d.month:02d}/{d.year % 100:02d}; nothing was booked.",
                       f"It expired on {d:%B} {d.day}, {d.year}."):
            assert facts_stated(facts, [answer]), (ask.say, facts, answer)
        other = d.replace(day=1) - dt.timedelta(days=1)
        assert not facts_stated(facts, [f"It expired in {other:%B %Y}."]), (ask.say, facts)


def test_an_exchange_rate_question_names_us_dollars():
    """Finding (seed 133, 0002): "Some of your fares are in Canadian dollars, right? At what rate do you convert
    them to dollars?" named no currency to convert to: Canadian dollars are dollars too."""
    asks = [ask for _, ask in _asks("get_exchange_rate")]
    assert len(asks) > 20
    for ask in asks:
        for text in (ask.say, ask.terse):
            assert "dollars" not in re.sub(r"(US|Canadian) dollars", "", text), text


def test_the_free_business_seats_are_asked_without_up_front():
    """Finding (seed 143, 0005): "Can you tell me what seats are open up front in business on the TB 403 MIA-JFK
    flight on March 10?" recorded every free business seat (1D, 3C, 4C, 4F), yet "up front" reads as the front
    rows too, so "Up front, 1D is open" is a fair reading of it. Every wording asks for the free business seats
    as such."""
    asks = [ask for _, ask in _asks("list_free_seats", draws=80)]
    assert len(asks) > 20
    for ask in asks:
        for text in (ask.say, ask.terse):
            assert "business" in text and "front" not in text.lower(), text


def test_a_trip_total_settles_the_bookings_it_shows():
    """Finding (seed 151, 0010): "What does my 'Boston business trip' come to in total?" read the trip, whose
    answer lists its flight with the booking id; the next turn, "Please cancel my flight from Miami to Boston on
    December 26", still listed the flight bookings first, so an agent that cancelled with the id the trip showed
    lost coverage. The trip's read settles every booking and stay it shows."""
    found = _asks("get_itinerary")
    assert len(found) > 20
    for b, ask in found:
        trip = next(t for t in b["trips"] if t["itinerary_id"] == ask.args["itinerary_id"])
        shown = {("booking", x["booking_id"]) for x in trip["detail"]["flights"]} | {
            ("stay", x["stay_id"]) for x in trip["detail"]["hotels"]}
        assert shown and set(ask.settles) == shown, (ask.say, ask.settles)


def test_an_email_introduction_names_the_email_address():
    """Finding (seed 153, 0007): "My bookings are under the address caitlin.king@example.com." named no kind of
    address; every email introduction says "email" or shows the address alone."""
    from servers.travel_booking import synth

    for intro in synth._BY_EMAIL:
        assert "address" not in intro or "email address" in intro, intro


def test_a_charges_question_asks_what_paid_them_in_plain_words():
    """Finding (seed 153, 0006): "Could you break down the payments on the August 7 flight I took to New York, and
    what paid for them?" asked what "paid for" the payments. Every wording asks the charges and what the
    traveller paid them with."""
    asks = [ask for _, ask in _asks("list_transactions", draws=120)]
    assert len(asks) > 20
    for ask in asks:
        for text in (ask.say, ask.terse):
            assert "what paid" not in text and "payments on" not in text, text


def test_the_booked_flights_asked_are_the_upcoming_ones():
    """Finding (seed 155, 0010): "What flights am I booked on right now? Just the flight numbers." recorded TB 156 as
    well, a flight that had left the day before, so "Right now you're booked on one upcoming flight: TB 333" failed.
    Every wording asks for the upcoming flights, and the facts are the booked flights that have not yet left."""
    import json

    from prove_env.facts import facts_stated
    from prove_env.registry import get_toolkit
    from prove_env.world import worlds

    toolkit = get_toolkit("travel_booking")
    seen_past = 0
    for seed in (0, 1, 2):
        world = worlds.create(toolkit, seed)
        found = _asks("list_flight_bookings", seed=seed, draws=20)
        assert found
        for b, ask in found:
            for text in (ask.say, ask.terse):
                assert "upcoming" in text.lower(), text
            listed = json.loads(toolkit(world).run("list_flight_bookings", ask.args))
            ahead = [x["flight_number"] for x in listed if x["status"] == "booked"
                     and _date_of(x["departs_at"]) > world.now.date()]
            past = [x for x in listed if x["status"] == "booked" and _date_of(x["departs_at"]) <= world.now.date()]
            seen_past += bool(past)
            facts = [list(ask.facts(listed))]
            answer = f"You're booked on {', '.join(ahead)}." if ahead else "You have no upcoming flights."
            assert facts_stated(facts, [answer]), (ask.say, facts, ahead)
        world.close()
    assert seen_past  # some traveller holds a flight already flown


def _date_of(text: str) -> dt.date:
    return dt.date.fromisoformat(text[:10])


def test_no_case_is_opened_on_a_flight_the_airline_cancelled():
    """Finding (seed 155, 0002): "the airline got my name wrong on my BOS-LHR flight of August 18; raise a name
    correction request" named KA 28, a flight the airline had cancelled: a correction, special assistance or a
    refund exception on it is moot (its cancellation refunds it in full). No case is asked on such a flight."""
    found = [(b, ask) for seed in (0, 1, 2) for b, ask in _asks("open_support_case", seed=seed, draws=60)]
    assert len(found) > 30
    for b, ask in found:
        booking = next((x for x in b["bookings"] if x["booking_id"] == ask.args.get("booking_id")), None)
        if booking is not None:
            assert booking["flight_status"] != "cancelled", (ask.say, booking["flight_number"])


def test_a_name_correction_request_says_what_is_wrong_as_the_travellers_own():
    """Finding (seed 155, 0002): "Then the airline got my name wrong on my BOS-LHR flight" joined a request that
    tells what happened with "Then", which reads as the next event. A name correction request opens on "My", which
    the joiners of sequence leave alone."""
    asks = [ask for seed in (0, 1) for _, ask in _asks("open_support_case", seed=seed, draws=200)
            if ask.args["topic"] == "name_correction"]
    assert len(asks) > 5
    for ask in asks:
        assert ask.say.startswith("My "), ask.say


def test_a_refund_quote_tells_a_reason_only_where_it_changes_the_refund():
    """Finding (seed 157, 0007): "What would I be refunded if I cancel my July 24 flight to Chicago? I've come down
    with pneumonia" quoted with reason="illness" a flight the airline had cancelled, which refunds in full whatever
    the reason: a model quoting it without the reason got the same refund and lost coverage. A reason is told only
    on an insured basic fare neither cancelled by the airline nor booked in the last day."""
    found = [(b, ask) for seed in (0, 1, 2, 3, 4, 5) for b, ask in _asks("quote_cancellation", seed=seed, draws=60)]
    told = 0
    for b, ask in found:
        if "reason" not in ask.args:
            continue
        told += 1
        booking = next(x for x in b["bookings"] if x["booking_id"] == ask.args["booking_id"])
        assert booking["insurance"] and booking["fare_type"] != "flex", ask.say
        assert booking["flight_status"] != "cancelled", ask.say
        assert b["now"] - dt.datetime.fromisoformat(booking["booked_at"]) >= dt.timedelta(hours=24), ask.say
    assert told
