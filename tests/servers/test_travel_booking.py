"""The travel_booking server's domain rules, through real MCP (the generic suite covers the rest):
search, booking into itineraries, seats and bags, changes and cancellations under the fare rules,
availability going down on booking and back up on cancelling, overbooking and past dates refused."""

from __future__ import annotations

import datetime as dt

import pytest

NOW = dt.datetime(2026, 7, 29, 9, 45)  # the seed-0 world's frozen "now"


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


def bookings(s, *, fare_type: str, tier: str | None = None, future: bool = True) -> tuple[dict, dict]:
    for t in s.ok("find_travellers", limit=100):
        if tier is not None and t["loyalty_tier"] != tier:
            continue
        for b in s.ok("list_flight_bookings", traveller_id=t["traveller_id"], status="booked"):
            departed = dt.datetime.fromisoformat(b["departs_at"]) <= NOW
            if b["fare_type"] == fare_type and departed != future:
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
    booked = s.ok("book_flight", itinerary_id=trip["itinerary_id"], flight_id=flight["flight_id"], cabin="economy",
                  fare_type="flex")
    assert booked["price_paid"] == round(flight["economy"]["fare"] * 1.35, 2) and booked["refundable"]
    after = s.ok("get_flight", flight_id=flight["flight_id"])
    assert after["economy"]["seats_left"] == flight["economy"]["seats_left"] - 1
    assert booked in s.ok("list_flight_bookings", traveller_id=traveller["traveller_id"])
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
    s.fails("book_flight", "no business seat left", itinerary_id=trip["itinerary_id"],
              flight_id=full["flight_id"], cabin="business")
    gone = s.ok("search_flights", origin="JFK", destination="LAX", date=day(-2))[0]
    s.fails("book_flight", "only future flights can be booked", itinerary_id=trip["itinerary_id"],
              flight_id=gone["flight_id"], cabin="economy")


def test_last_seat_then_overbooking(s):
    flight = future_flight(s, cabin="business")
    travellers = iter(s.ok("find_travellers", limit=100))
    for _ in range(flight["business"]["seats_left"]):
        trip = itinerary(s, next(travellers))
        s.ok("book_flight", itinerary_id=trip["itinerary_id"], flight_id=flight["flight_id"], cabin="business")
    assert s.ok("get_flight", flight_id=flight["flight_id"])["business"]["seats_left"] == 0
    late = itinerary(s, next(travellers))
    s.fails("book_flight", "no business seat left", itinerary_id=late["itinerary_id"],
              flight_id=flight["flight_id"], cabin="business")


def test_seat_selection(s):
    first, second = s.ok("find_travellers", limit=2)
    flight = future_flight(s)
    one = s.ok("book_flight", itinerary_id=itinerary(s, first)["itinerary_id"], flight_id=flight["flight_id"],
               cabin="economy")
    two = s.ok("book_flight", itinerary_id=itinerary(s, second)["itinerary_id"], flight_id=flight["flight_id"],
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
    economy = s.ok("book_flight", itinerary_id=trip["itinerary_id"], flight_id=future_flight(s)["flight_id"],
                   cabin="economy")
    bagged = s.ok("add_bags", booking_id=economy["booking_id"], count=2)
    assert bagged["charged_now"] == 70.0 and bagged["bags"] == 2
    s.fails("add_bags", "at most 2 more", booking_id=economy["booking_id"], count=3)
    business = s.ok("book_flight", itinerary_id=trip["itinerary_id"],
                    flight_id=future_flight(s, cabin="business", offset=9)["flight_id"], cabin="business")
    assert s.ok("add_bags", booking_id=business["booking_id"], count=3)["charged_now"] == 35.0
    gold = next(t for t in s.ok("find_travellers", limit=100) if t["loyalty_tier"] == "gold")
    gold_trip = itinerary(s, gold)
    gb = s.ok("book_flight", itinerary_id=gold_trip["itinerary_id"], flight_id=future_flight(s)["flight_id"],
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
                "SELECT flight_id, cabin FROM flight_bookings WHERE status = 'booked' AND seat IS NULL"):
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
        s.fails("book_flight", f"no {cabin} seat left", itinerary_id=trip["itinerary_id"],
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


def test_a_traveller_books_a_flight_once(s):
    """Finding: one traveller could book the same flight twice. An airline seats a passenger once per
    flight, so a second booking, or a change onto a flight already held, is refused."""
    first, second = s.ok("find_travellers", limit=2)
    flight = future_flight(s)
    trip, other_trip = itinerary(s, first), s.ok("create_itinerary", traveller_id=first["traveller_id"], name="Other")
    booked = s.ok("book_flight", itinerary_id=trip["itinerary_id"], flight_id=flight["flight_id"], cabin="economy")
    for into, cabin in ((trip, "economy"), (other_trip, "business")):
        s.fails("book_flight", "books a flight once", itinerary_id=into["itinerary_id"],
                flight_id=flight["flight_id"], cabin=cabin)
    s.ok("book_flight", itinerary_id=itinerary(s, second)["itinerary_id"], flight_id=flight["flight_id"],
         cabin="economy")
    # a change onto a flight the traveller already holds
    later = same_route(s, booked)
    moving = s.ok("book_flight", itinerary_id=trip["itinerary_id"], flight_id=later["flight_id"], cabin="economy")
    s.fails("quote_flight_change", "books a flight once", booking_id=moving["booking_id"],
            new_flight_id=flight["flight_id"])
    s.fails("change_flight", "books a flight once", booking_id=moving["booking_id"], new_flight_id=flight["flight_id"])
    # once cancelled, the flight can be booked again
    s.ok("cancel_flight_booking", booking_id=booked["booking_id"])
    s.ok("book_flight", itinerary_id=other_trip["itinerary_id"], flight_id=flight["flight_id"], cabin="economy")


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
    flex = s.ok("book_flight", itinerary_id=trip["itinerary_id"], flight_id=future_flight(s)["flight_id"],
                cabin="economy", fare_type="flex")
    s.ok("add_bags", booking_id=flex["booking_id"], count=1)
    cancelled = s.ok("cancel_flight_booking", booking_id=flex["booking_id"])
    assert cancelled["refund"] == round(flex["price_paid"] + 35.0, 2)
    listed = s.ok("list_flight_bookings", traveller_id=traveller["traveller_id"], status="cancelled")
    assert next(b for b in listed if b["booking_id"] == flex["booking_id"])["refund"] == cancelled["refund"]
    _, basic = bookings(s, fare_type="basic")
    assert s.ok("cancel_flight_booking", booking_id=basic["booking_id"])["refund"] == 0.0
    room = s.ok("list_room_types", hotel_id=s.ok("search_hotels", city="Boston")[0]["hotel_id"])[0]
    stay = s.ok("book_hotel", itinerary_id=trip["itinerary_id"], room_type_id=room["room_type_id"],
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
    stays = [s.ok("book_hotel", itinerary_id=trip["itinerary_id"], room_type_id=room["room_type_id"],
                  check_in=day(20), check_out=day(22), rate="refundable", request="Late arrival")
             for _ in range(left)]
    assert stays[0]["total_price"] == free["refundable_total"] and stays[0]["request"] == "Late arrival"
    after = s.ok("check_room_availability", room_type_id=room["room_type_id"], check_in=day(20), check_out=day(22))
    assert not after["available"]
    s.fails("book_hotel", "room is left on", itinerary_id=trip["itinerary_id"],
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
    args = {"itinerary_id": trip["itinerary_id"], "room_type_id": room["room_type_id"]}
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
                            "Denver getaway itinerary from August 27 to 29, just me, refundable rate."],
                gold=[[{"id": "g1", "name": "find_travellers", "arguments": {"name": "Kristen Turner"}},
                       {"id": "g2", "name": "list_itineraries", "arguments": {"traveller_id": "TRV-0004"},
                        "depends_on": ["g1"]},
                       {"id": "g3", "name": "search_hotels", "arguments": {"city": "Denver"}},
                       {"id": "g4", "name": "list_room_types", "arguments": {"hotel_id": "HTL-0011"},
                        "depends_on": ["g3"]},
                       {"id": "g5", "name": "book_hotel", "depends_on": ["g2", "g4"],
                        "arguments": {"itinerary_id": "ITN-0005", "room_type_id": "RMT-0025",
                                      "check_in": "2026-08-27", "check_out": "2026-08-29", "guests": 1,
                                      "rate": "refundable"}}]])
    booking = _call("book_hotel", itinerary_id="ITN-0005", room_type_id="RMT-0025", check_in="2026-08-27",
                    check_out="2026-08-29", guests=1, rate="refundable")
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


def test_input_rules_refuse_and_change_nothing(s):
    traveller = s.ok("find_travellers", limit=100)[0]
    s.fails("search_flights", "same airport", origin="JFK", destination="jfk", date=day(3))
    s.fails("search_hotels", "give both check_in and check_out", city="Denver", check_in=day(3))
    s.fails("search_hotels", "guests must be 1 to 6", city="Denver", guests=9)
    s.fails("create_itinerary", "1 to 60 characters", traveller_id=traveller["traveller_id"], name="  ")
    trip = itinerary(s, traveller)
    booked = s.ok("book_flight", itinerary_id=trip["itinerary_id"], flight_id=future_flight(s)["flight_id"],
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
    s.fails("book_flight", "is cancelled", itinerary_id=trip["itinerary_id"], flight_id=cancelled["flight_id"],
              cabin="economy")
    assert cancelled["flight_id"] not in [f["flight_id"] for f in s.ok(
        "search_flights", origin=cancelled["origin"], destination=cancelled["destination"],
        date=cancelled["departs_at"][:10])]
