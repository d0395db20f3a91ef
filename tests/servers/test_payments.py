"""The payments server through real MCP: every tool's success path and refusals (each with the world
checked unchanged), the invoice life cycle, authorise and capture, refunds never above what was
captured, idempotency keys, several merchants whose customers, cards, invoices and events never mix,
the event log with its webhook deliveries retried on the clock's schedule and resent by hand, the
invariants, and the outcome rules of the reward on this server.

Entities are discovered through the tools; the hidden testing tool tells which cards the issuer
declines, so that tests charge cards that go through.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from prove_env.registry import get_toolkit
from prove_env.runtime import run_sync
from prove_env.task import Task
from servers.payments.models import Delivery
from servers.payments.seed import RETRY_AFTER


@pytest.fixture
def s(served):
    """A fresh seed-0 payments world, hidden tools included (for the cards' decline codes)."""
    return served("payments", include_hidden=True)


# -- helpers --------------------------------------------------------------------------------------


def customers(s) -> list[dict]:
    return s.ok("find_customers", limit=100)


def usable(s, card: dict) -> bool:
    return not card["expired"] and s.ok("get_card_decline_code", card_id=card["card_id"])["decline_code"] is None


def open_invoice(s, *, partly_paid: bool = False, with_default_card: bool = True,
                 merchant_id: str | None = None) -> dict:
    """An open invoice with nothing held on it (no hold, live or expired), whose customer's default card
    goes through; of one merchant if given."""
    held = {p["invoice_id"] for status in ("authorized", "expired")
            for p in s.ok("list_payments", status=status, limit=100)}
    for invoice in s.ok("list_invoices", status="open", limit=100):
        if invoice["invoice_id"] in held or (invoice["amount_paid"] > 0) != partly_paid \
                or merchant_id not in (None, invoice["merchant_id"]):
            continue
        default = s.ok("get_customer", customer_id=invoice["customer_id"])["default_card"]
        if not with_default_card or (default and usable(s, default)):
            return invoice
    raise AssertionError("no such open invoice in the seed-0 world")


def payment_with(s, status: str) -> dict:
    found = s.ok("list_payments", status=status, limit=1)
    assert found, f"no {status} payment in the seed-0 world"
    return found[0]


def events_since(s, last_event_id: str) -> list[dict]:
    return [e for e in s.ok("list_events", limit=100) if e["event_id"] > last_event_id]


def latest_event_id(s) -> str:
    return max(e["event_id"] for e in s.ok("list_events", limit=100))


def table(s, name: str) -> list[dict]:
    return s.world.snapshot()["tables"][name]


def today(s) -> dt.date:
    return s.world.now.date()


def merchant(s, name: str) -> dict:
    (found,) = s.ok("list_merchants", name=name)
    return found


def twins(s) -> list[tuple[dict, dict]]:
    """People who are customers of Northwind and of another merchant: (at Northwind, at the other)."""
    northwind = merchant(s, "Northwind")["merchant_id"]
    people = customers(s)
    return [(a, b) for a in people for b in people if a["merchant_id"] == northwind
            and b["merchant_id"] != northwind and a["email"] == b["email"]]


def chains(s, endpoint_id: str) -> dict[str, list[dict]]:
    """An endpoint's delivery attempts by event, first attempt first."""
    out: dict[str, list[dict]] = {}
    for d in sorted(s.ok("list_deliveries", endpoint_id=endpoint_id, limit=100), key=lambda d: d["attempt"]):
        out.setdefault(d["event_id"], []).append(d)
    return out


# -- the server as a whole ----------------------------------------------------------------------


def test_tools_listed_and_hidden_tool_kept_from_the_agent(served):
    agent = served("payments")
    names = [t.name for t in run_sync(agent.client.list_tools())]
    assert len(names) >= 20 and len(set(names)) == len(names)
    assert "get_card_decline_code" not in names
    agent.fails("get_card_decline_code", "Unknown tool", card_id="CRD-0001")
    tools = {t.name: t for t in run_sync(agent.client.list_tools())}
    for name in ("find_customers", "list_invoices", "list_events", "list_deliveries"):
        assert tools[name].annotations.read_only_hint is True
    for name in ("pay_invoice", "refund_payment", "void_invoice", "retry_delivery"):
        assert tools[name].annotations.read_only_hint is False
    assert tools["void_invoice"].annotations.destructive_hint is True


def test_seed_world_has_the_variety_tasks_need(s):
    shops = s.ok("list_merchants")
    assert [m["name"] for m in shops] == ["Northwind Studio", "Harbor Yoga", "Copper Kettle Catering"]
    people = customers(s)
    by_shop = Counter(c["merchant_id"] for c in people)
    assert [by_shop[m["merchant_id"]] for m in shops] == [36, 14, 12]
    assert len(twins(s)) == 5 and len({c["name"] for c in people}) == 62 - 5
    assert {c["currency"] for c in people} == {"USD", "EUR", "GBP", "CAD"}
    for shop in shops:
        assert {c["currency"] for c in people if c["merchant_id"] == shop["merchant_id"]} <= set(shop["currencies"])
    invoices = table(s, "invoices")
    assert {i["status"] for i in invoices} == {"draft", "open", "paid", "void"}
    assert s.ok("list_invoices", overdue_only=True, limit=100)
    statuses = {p["status"] for p in s.ok("list_payments", limit=100)}
    assert {"authorized", "expired", "captured", "partially_refunded", "refunded"} <= statuses
    cards = [c for person in people for c in s.ok("list_payment_methods", customer_id=person["customer_id"])]
    assert any(c["expired"] for c in cards)
    assert any(not usable(s, c) and not c["expired"] for c in cards)  # a card the issuer declines
    assert any(not s.ok("list_payment_methods", customer_id=p["customer_id"]) for p in people)  # no card at all
    endpoints = s.ok("list_webhook_endpoints")
    assert {e["enabled"] for e in endpoints} == {True, False}
    assert any(e["failed_deliveries"] for e in endpoints if e["enabled"])
    assert {d["status"] for d in table(s, "deliveries")} == {"succeeded", "failed"}
    assert any(e["retries_scheduled"] for e in endpoints) and any(not e["enabled"] for e in endpoints
                                                                  if e["merchant_id"] != shops[0]["merchant_id"])


def test_invariants_hold_in_the_seed_and_after_a_run_of_changes(s):
    toolkit = get_toolkit("payments")
    assert toolkit(s.world).invariants() == []
    invoice = open_invoice(s)
    s.ok("pay_invoice", invoice_id=invoice["invoice_id"])
    payment = payment_with(s, "captured")
    s.ok("refund_payment", payment_id=payment["payment_id"], amount=1.0)
    held = payment_with(s, "authorized")
    s.ok("capture_payment", payment_id=held["payment_id"], amount=1.0)
    with s.world.transaction():
        assert toolkit(s.world).invariants() == []


@pytest.mark.parametrize("seed", range(20))
def test_no_webhook_delivery_of_a_fresh_world_lies_after_the_clock(served, seed):
    """A failed delivery the seed retries an hour later is retried by now at the latest, never later."""
    s = served("payments", seed)
    now = s.world.now
    deliveries = s.ok("list_deliveries", limit=100)
    assert all(dt.datetime.fromisoformat(d["created_at"]) <= now for d in deliveries), deliveries[:3]
    assert not s.world.violations()


def test_a_time_after_the_clock_breaks_the_rules(s):
    """Nothing that happened (an event logged, a delivery sent, a payment captured...) may lie after the clock."""
    delivery = s.ok("list_deliveries", limit=1)[0]
    with s.world.transaction() as db:
        db.get(Delivery, delivery["delivery_id"]).created_at = s.world.now + dt.timedelta(minutes=30)
    assert any(f"{delivery['delivery_id']}: created_at" in p and "after the clock" in p
               for p in s.world.violations())


# -- customers and cards --------------------------------------------------------------------------


def test_find_customers_by_name_or_email(s):
    people = customers(s)
    person = people[6]
    assert s.ok("find_customers", name=person["name"].split()[-1].upper())[0]["customer_id"] in {
        p["customer_id"] for p in people if person["name"].split()[-1] in p["name"]}
    assert s.ok("find_customers", email=person["email"].upper()) == [person]
    assert s.ok("find_customers", name="zzzz-nobody") == []
    assert len(s.ok("find_customers", limit=5)) == 5


def test_get_customer_sums_up_their_account(s):
    for person in customers(s)[:12]:
        profile = s.ok("get_customer", customer_id=person["customer_id"])
        invoices = s.ok("list_invoices", customer_id=person["customer_id"], limit=100)
        assert profile["invoices"] == {status: sum(i["status"] == status for i in invoices)
                                       for status in ("draft", "open", "paid", "void")}
        assert profile["outstanding"] == round(sum(i["amount_due"] for i in invoices if i["status"] == "open"), 2)
        payments = s.ok("list_payments", customer_id=person["customer_id"], limit=100)
        assert profile["total_paid"] == round(sum(p["amount_captured"] for p in payments), 2)
        assert profile["total_refunded"] == round(sum(p["amount_refunded"] for p in payments), 2)


def test_create_customer_and_emails_are_unique_within_a_merchant(s):
    northwind, kettle = merchant(s, "Northwind")["merchant_id"], merchant(s, "Copper Kettle")["merchant_id"]
    made = s.ok("create_customer", merchant_id=northwind, name="  Mila Novak ", email="Mila.Novak@proton.me",
                currency="EUR")
    assert made["name"] == "Mila Novak" and made["email"] == "mila.novak@proton.me" and made["currency"] == "EUR"
    assert made["merchant_id"] == northwind
    assert s.ok("find_customers", email="mila.novak@proton.me") == [made]
    event = s.ok("list_events", customer_id=made["customer_id"])[0]
    assert event["type"] == "customer.created" and event["merchant_id"] == northwind
    taken = next(c for c in customers(s) if c["merchant_id"] == northwind)
    s.fails("create_customer", "already has the email", merchant_id=northwind, name="Someone Else",
            email=taken["email"].upper())
    s.fails("create_customer", "is not an email address", merchant_id=northwind, name="No Mail", email="no-mail")
    s.fails("create_customer", "name must be 1 to", merchant_id=northwind, name="   ", email="blank@example.com")
    # the same person may be a customer of another merchant, billed in that merchant's currency by default
    again = s.ok("create_customer", merchant_id=kettle, name="Mila Novak", email="mila.novak@proton.me")
    assert again["merchant_id"] == kettle and again["currency"] == "GBP" and again["customer_id"] != made["customer_id"]
    assert len(s.ok("find_customers", email="mila.novak@proton.me")) == 2
    assert s.ok("find_customers", email="mila.novak@proton.me", merchant_id=kettle) == [again]
    s.fails("create_customer", "bills only in GBP, EUR", merchant_id=kettle, name="Lucas Tremblay",
            email="lucas.tremblay@icloud.com", currency="CAD")
    s.fails("create_customer", "not found", merchant_id="MER-0099", name="Lucas Tremblay",
            email="lucas.tremblay@icloud.com")


def test_list_payment_methods_marks_expired_and_default_cards(s):
    for person in customers(s):
        cards = s.ok("list_payment_methods", customer_id=person["customer_id"])
        default = s.ok("get_customer", customer_id=person["customer_id"])["default_card"]
        assert sum(c["default"] for c in cards) == (1 if default else 0)
        for card in cards:
            month, year = map(int, card["expires"].split("/"))
            assert card["expired"] == ((year, month) < (today(s).year, today(s).month))
            assert len(card["last4"]) == 4


# -- invoices -------------------------------------------------------------------------------------


def test_list_invoices_filters_and_get_invoice_totals(s):
    everything = s.ok("list_invoices", limit=100)
    created = [s.ok("get_invoice", invoice_id=i["invoice_id"])["created_at"] for i in everything[:10]]
    assert created == sorted(created, reverse=True)  # newest first
    for status in ("draft", "open", "paid", "void"):
        assert all(i["status"] == status for i in s.ok("list_invoices", status=status, limit=100))
    overdue = s.ok("list_invoices", overdue_only=True, limit=100)
    assert overdue and all(i["overdue"] and i["due_date"] < today(s).isoformat() for i in overdue)
    assert s.ok("list_invoices", number=everything[3]["number"].lower()) == [everything[3]]
    assert s.ok("list_invoices", number="NW-9999") == []
    person = everything[0]["customer_id"]
    assert all(i["customer_id"] == person for i in s.ok("list_invoices", customer_id=person))
    for invoice in everything[:15]:
        full = s.ok("get_invoice", invoice_id=invoice["invoice_id"])
        assert full["total"] == round(sum(line["amount"] for line in full["line_items"]), 2)
        assert full["amount_paid"] == round(sum(p["amount_captured"] for p in full["payments"]), 2)


def test_invoice_life_cycle_draft_open_paid(s):
    person = next(p for p in customers(s)
                  if (d := s.ok("get_customer", customer_id=p["customer_id"])["default_card"]) and usable(s, d))
    due = (today(s) + dt.timedelta(days=30)).isoformat()
    draft = s.ok("create_invoice", customer_id=person["customer_id"], description="Summer campaign", due_date=due)
    assert draft["status"] == "draft" and draft["total"] == 0 and draft["currency"] == person["currency"]
    s.fails("finalize_invoice", "has no line items", invoice_id=draft["invoice_id"])
    s.fails("pay_invoice", "is a draft; finalize it", invoice_id=draft["invoice_id"])
    s.fails("void_invoice", "is a draft", invoice_id=draft["invoice_id"])
    s.ok("add_line_item", invoice_id=draft["invoice_id"], description="Consulting hour", unit_amount=150.0, quantity=3)
    added = s.ok("add_line_item", invoice_id=draft["invoice_id"], description="Domain renewal", unit_amount=18.0)
    assert added["total"] == 468.0 and added["added"]["amount"] == 18.0
    opened = s.ok("finalize_invoice", invoice_id=draft["invoice_id"])
    assert opened["status"] == "open" and opened["amount_due"] == 468.0
    s.fails("finalize_invoice", "already open", invoice_id=draft["invoice_id"])
    s.fails("add_line_item", "can only be added to a draft", invoice_id=draft["invoice_id"],
              description="Extra", unit_amount=10.0)
    paid = s.ok("pay_invoice", invoice_id=draft["invoice_id"])
    assert paid["status"] == "captured" and paid["amount_captured"] == 468.0 and paid["invoice_status"] == "paid"
    full = s.ok("get_invoice", invoice_id=draft["invoice_id"])
    assert full["status"] == "paid" and full["amount_due"] == 0 and full["paid_at"]
    types = [e["type"] for e in reversed(s.ok("list_events", invoice_id=draft["invoice_id"]))]
    assert types == ["invoice.created", "invoice.updated", "invoice.updated", "invoice.finalized",
                     "payment.captured", "invoice.paid"]


def test_create_invoice_rules(s):
    person = next(p for p in customers(s) if p["currency"] != "USD")
    soon = (today(s) + dt.timedelta(days=10)).isoformat()
    s.fails("create_invoice", f"billed in {person['currency']}", customer_id=person["customer_id"],
              description="Rebranding", due_date=soon, currency="USD")
    s.fails("create_invoice", "is in the past", customer_id=person["customer_id"], description="Rebranding",
              due_date=(today(s) - dt.timedelta(days=1)).isoformat())
    s.fails("create_invoice", "at most a year ahead", customer_id=person["customer_id"], description="Rebranding",
              due_date=(today(s) + dt.timedelta(days=400)).isoformat())
    s.fails("create_invoice", "description must be 1 to", customer_id=person["customer_id"], description="  ",
              due_date=soon)
    made = s.ok("create_invoice", customer_id=person["customer_id"], description="Rebranding", due_date=soon,
                currency=person["currency"])
    s.fails("add_line_item", "description must be 1 to", invoice_id=made["invoice_id"], description=" ",
              unit_amount=10.0)
    s.fails("add_line_item", "Invalid arguments", invoice_id=made["invoice_id"], description="Hour", unit_amount=10.0,
            quantity=0)
    shop = s.ok("get_customer", customer_id=person["customer_id"])["merchant_id"]
    prefix = next(m["invoice_prefix"] for m in s.ok("list_merchants") if m["merchant_id"] == shop)
    numbers = [int(i["number"].split("-")[1]) for i in s.ok("list_invoices", merchant_id=shop, limit=100)]
    assert made["number"].startswith(prefix + "-") and int(made["number"].split("-")[1]) == max(numbers)


def test_a_draft_whose_due_date_passed_cannot_be_finalized(s):
    from prove_env.servers.payments.models import Invoice

    draft = next(i for i in s.ok("list_invoices", status="draft", limit=100) if i["total"] > 0)
    with s.world.transaction(write=True):  # the draft sat unsent past its due date
        s.world.session.get(Invoice, draft["invoice_id"]).due_date = today(s) - dt.timedelta(days=1)
    s.fails("finalize_invoice", "which has passed; create a new invoice", invoice_id=draft["invoice_id"])


def test_a_void_invoice_cannot_be_paid_and_a_paid_one_cannot_be_voided(s):
    void = s.ok("list_invoices", status="void", limit=1)[0]
    s.fails("pay_invoice", "is void and cannot be paid", invoice_id=void["invoice_id"])
    s.fails("authorize_payment", "is void and cannot be paid", invoice_id=void["invoice_id"])
    s.fails("void_invoice", "already void", invoice_id=void["invoice_id"])
    paid = s.ok("list_invoices", status="paid", limit=1)[0]
    s.fails("void_invoice", "is paid and cannot be voided; refund", invoice_id=paid["invoice_id"])
    s.fails("pay_invoice", "already paid", invoice_id=paid["invoice_id"])
    partly = open_invoice(s, partly_paid=True, with_default_card=False)
    s.fails("void_invoice", "has already received", invoice_id=partly["invoice_id"])
    invoice = open_invoice(s)
    voided = s.ok("void_invoice", invoice_id=invoice["invoice_id"])
    assert voided["status"] == "void" and voided["amount_due"] == 0
    s.fails("pay_invoice", "is void", invoice_id=invoice["invoice_id"])


def test_voiding_releases_a_held_authorisation(s):
    held = payment_with(s, "authorized")
    voided = s.ok("void_invoice", invoice_id=held["invoice_id"])
    assert voided["canceled_payments"] == [held["payment_id"]]
    assert s.ok("list_payments", invoice_id=held["invoice_id"])[0]["status"] == "canceled"
    s.fails("capture_payment", "is canceled", payment_id=held["payment_id"])
    kinds = [e["type"] for e in s.ok("list_events", invoice_id=held["invoice_id"], limit=2)]
    assert set(kinds) == {"payment.canceled", "invoice.voided"}


# -- payments: authorise, capture, cancel ----------------------------------------------------------


def test_authorise_then_capture_in_part_then_pay_the_rest(s):
    invoice = open_invoice(s)
    held = s.ok("authorize_payment", invoice_id=invoice["invoice_id"])
    assert held["status"] == "authorized" and held["amount"] == invoice["amount_due"] and held["amount_captured"] == 0
    s.fails("authorize_payment", "already has payment", invoice_id=invoice["invoice_id"])
    s.fails("pay_invoice", "capture it or cancel it first", invoice_id=invoice["invoice_id"])
    s.fails("capture_payment", "authorised only", payment_id=held["payment_id"], amount=held["amount"] + 1)
    part = round(held["amount"] / 2, 2)
    captured = s.ok("capture_payment", payment_id=held["payment_id"], amount=part)
    assert captured["status"] == "captured" and captured["amount_captured"] == part
    s.fails("capture_payment", "is captured", payment_id=held["payment_id"])
    after = s.ok("get_invoice", invoice_id=invoice["invoice_id"])
    assert after["status"] == "open" and after["amount_due"] == round(invoice["amount_due"] - part, 2)
    rest = s.ok("pay_invoice", invoice_id=invoice["invoice_id"])
    assert rest["amount"] == after["amount_due"] and rest["invoice_status"] == "paid"


def test_expired_authorisations_cannot_be_captured_but_can_be_cancelled(s):
    expired = payment_with(s, "expired")
    s.fails("capture_payment", "expired on", payment_id=expired["payment_id"])
    canceled = s.ok("cancel_payment", payment_id=expired["payment_id"])
    assert canceled["status"] == "canceled"
    s.fails("cancel_payment", "nothing to cancel", payment_id=expired["payment_id"])
    captured = payment_with(s, "captured")
    s.fails("cancel_payment", "refund it instead", payment_id=captured["payment_id"])


def test_capture_in_full_pays_the_invoice(s):
    held = payment_with(s, "authorized")
    done = s.ok("capture_payment", payment_id=held["payment_id"])
    assert done["amount_captured"] == held["amount"]
    assert s.ok("get_invoice", invoice_id=held["invoice_id"])["status"] == "paid"


def test_cards_that_cannot_be_charged(s):
    people = customers(s)
    invoice = open_invoice(s)
    owner = invoice["customer_id"]
    other_card = next(c for p in people if p["customer_id"] != owner
                      for c in s.ok("list_payment_methods", customer_id=p["customer_id"]))
    s.fails("pay_invoice", "belongs to another customer", invoice_id=invoice["invoice_id"],
              card_id=other_card["card_id"])
    declined = next((p, c) for p in people for c in s.ok("list_payment_methods", customer_id=p["customer_id"])
                    if not c["expired"] and not usable(s, c))
    target = s.ok("create_invoice", customer_id=declined[0]["customer_id"], description="Test",
                  due_date=(today(s) + dt.timedelta(days=5)).isoformat())
    s.ok("add_line_item", invoice_id=target["invoice_id"], description="Hosting (monthly)", unit_amount=29.0)
    s.ok("finalize_invoice", invoice_id=target["invoice_id"])
    s.fails("pay_invoice", "was declined by its issuer", invoice_id=target["invoice_id"],
              card_id=declined[1]["card_id"])
    s.fails("authorize_payment", "ask the customer for another card", invoice_id=target["invoice_id"],
              card_id=declined[1]["card_id"])
    expired = next((p, c) for p in people for c in s.ok("list_payment_methods", customer_id=p["customer_id"])
                   if c["expired"])
    fresh = s.ok("create_invoice", customer_id=expired[0]["customer_id"], description="Test",
                 due_date=(today(s) + dt.timedelta(days=5)).isoformat())
    s.ok("add_line_item", invoice_id=fresh["invoice_id"], description="Hosting (monthly)", unit_amount=29.0)
    s.ok("finalize_invoice", invoice_id=fresh["invoice_id"])
    s.fails("pay_invoice", "expired in", invoice_id=fresh["invoice_id"], card_id=expired[1]["card_id"])
    cardless = next(p for p in people if not s.ok("list_payment_methods", customer_id=p["customer_id"]))
    bare = s.ok("create_invoice", customer_id=cardless["customer_id"], description="Test",
                due_date=(today(s) + dt.timedelta(days=5)).isoformat())
    s.ok("add_line_item", invoice_id=bare["invoice_id"], description="Hosting (monthly)", unit_amount=29.0)
    s.ok("finalize_invoice", invoice_id=bare["invoice_id"])
    s.fails("pay_invoice", "has no default card", invoice_id=bare["invoice_id"])


# -- refunds --------------------------------------------------------------------------------------


def test_partial_refund_then_an_over_refund_is_refused(s):
    payment = payment_with(s, "captured")
    captured = payment["amount_captured"]
    first = s.ok("refund_payment", payment_id=payment["payment_id"], amount=10.0)
    assert first["payment_status"] == "partially_refunded" and first["refundable_left"] == round(captured - 10, 2)
    text = s.fails("refund_payment", "at most", payment_id=payment["payment_id"], amount=captured)
    assert f"{captured - 10:.2f}" in text
    rest = s.ok("refund_payment", payment_id=payment["payment_id"])
    assert rest["amount"] == round(captured - 10, 2) and rest["payment_status"] == "refunded"
    s.fails("refund_payment", "already fully refunded", payment_id=payment["payment_id"], amount=1.0)
    refunds = s.ok("list_refunds", payment_id=payment["payment_id"])
    assert [r["amount"] for r in refunds] == [rest["amount"], 10.0]
    invoice = s.ok("get_invoice", invoice_id=payment["invoice_id"])
    assert invoice["status"] == "paid" and invoice["amount_refunded"] == captured


def test_refunds_need_a_capture(s):
    held = payment_with(s, "authorized")
    s.fails("refund_payment", "cancel it instead", payment_id=held["payment_id"])
    refunded = payment_with(s, "refunded")
    s.fails("refund_payment", "already fully refunded", payment_id=refunded["payment_id"])


def test_list_refunds_by_customer(s):
    refunds = s.ok("list_refunds", limit=100)
    assert refunds and [r["created_at"] for r in refunds] == sorted((r["created_at"] for r in refunds), reverse=True)
    payment = s.ok("list_payments", status="partially_refunded", limit=1)[0]
    mine = s.ok("list_refunds", customer_id=payment["customer_id"])
    assert payment["payment_id"] in {r["payment_id"] for r in mine}


# -- idempotency ----------------------------------------------------------------------------------


def test_repeating_a_payment_with_its_key_charges_once(s):
    invoice = open_invoice(s)
    first = s.ok("pay_invoice", invoice_id=invoice["invoice_id"], idempotency_key="pay-once")
    before = s.world.digest()
    again = s.ok("pay_invoice", invoice_id=invoice["invoice_id"], idempotency_key="pay-once")
    assert again == first and s.world.digest() == before
    assert len(s.ok("list_payments", invoice_id=invoice["invoice_id"])) == len(
        [p for p in table(s, "payments") if p["invoice_id"] == invoice["invoice_id"]])
    other = open_invoice(s)
    s.fails("pay_invoice", "already used for a different request", invoice_id=other["invoice_id"],
              idempotency_key="pay-once")
    s.fails("refund_payment", "already used for a different request", payment_id=first["payment_id"],
              idempotency_key="pay-once")


def test_repeating_a_refund_with_its_key_refunds_once(s):
    payment = payment_with(s, "captured")
    first = s.ok("refund_payment", payment_id=payment["payment_id"], amount=5.0, idempotency_key="r-1")
    again = s.ok("refund_payment", payment_id=payment["payment_id"], amount=5.0, idempotency_key="r-1")
    assert again == first
    assert [r["amount"] for r in s.ok("list_refunds", payment_id=payment["payment_id"])] == [5.0]
    s.fails("refund_payment", "different request", payment_id=payment["payment_id"], amount=6.0,
              idempotency_key="r-1")
    # without a key, the same request is a second refund
    s.ok("refund_payment", payment_id=payment["payment_id"], amount=5.0)
    assert len(s.ok("list_refunds", payment_id=payment["payment_id"])) == 2


def test_repeating_an_authorisation_and_a_capture_with_their_keys(s):
    invoice = open_invoice(s)
    held = s.ok("authorize_payment", invoice_id=invoice["invoice_id"], idempotency_key="auth-1")
    assert s.ok("authorize_payment", invoice_id=invoice["invoice_id"], idempotency_key="auth-1") == held
    captured = s.ok("capture_payment", payment_id=held["payment_id"], idempotency_key="cap-1")
    before = s.world.digest()
    assert s.ok("capture_payment", payment_id=held["payment_id"], idempotency_key="cap-1") == captured
    assert s.world.digest() == before
    assert s.ok("get_invoice", invoice_id=invoice["invoice_id"])["amount_paid"] == captured["amount_captured"]
    s.fails("capture_payment", "idempotency_key must be", payment_id=held["payment_id"], idempotency_key="  ")


# -- events and webhooks --------------------------------------------------------------------------


def test_every_change_writes_an_event_and_a_delivery_per_subscribed_endpoint(s):
    northwind = merchant(s, "Northwind")["merchant_id"]
    last = latest_event_id(s)
    invoice = open_invoice(s, merchant_id=northwind)
    endpoints = [e for e in s.ok("list_webhook_endpoints", merchant_id=northwind) if e["enabled"]]
    s.ok("pay_invoice", invoice_id=invoice["invoice_id"])
    new = events_since(s, last)
    assert sorted(e["type"] for e in new) == ["invoice.paid", "payment.captured"]
    for event in new:
        assert event["merchant_id"] == invoice["merchant_id"]
        deliveries = s.ok("list_deliveries", event_id=event["event_id"])
        wanted = {e["endpoint_id"] for e in endpoints if e["events"] == ["*"] or event["type"] in e["events"]}
        assert {d["endpoint_id"] for d in deliveries} == wanted and wanted
        assert all(d["status"] == "pending" and d["attempt"] == 1 and d["next_retry_at"] is None
                   and not d["manual"] for d in deliveries)
    # a disabled endpoint receives nothing
    slack = next(e for e in endpoints if "payment.captured" in e["events"] and e["events"] != ["*"])
    s.ok("update_webhook_endpoint", endpoint_id=slack["endpoint_id"], enabled=False)
    last = latest_event_id(s)
    s.ok("pay_invoice", invoice_id=open_invoice(s, merchant_id=northwind)["invoice_id"])
    for event in events_since(s, last):
        assert slack["endpoint_id"] not in {d["endpoint_id"] for d in s.ok("list_deliveries", event_id=event["event_id"])}


def test_the_event_log_is_append_only(s):
    before = {e["id"]: e for e in table(s, "events")}
    invoice = open_invoice(s)
    s.ok("authorize_payment", invoice_id=invoice["invoice_id"])
    s.ok("void_invoice", invoice_id=invoice["invoice_id"])
    after = {e["id"]: e for e in table(s, "events")}
    assert all(after[key] == row for key, row in before.items())
    assert Counter(e["type"] for k, e in after.items() if k not in before) == Counter(
        {"payment.authorized": 1, "payment.canceled": 1, "invoice.voided": 1})


def test_list_events_filters(s):
    for kind in ("invoice.paid", "refund.created", "customer.created"):
        found = s.ok("list_events", type=kind, limit=10)
        assert found and all(e["type"] == kind for e in found)
        assert [e["created_at"] for e in found] == sorted((e["created_at"] for e in found), reverse=True)
    payment = payment_with(s, "partially_refunded")
    kinds = {e["type"] for e in s.ok("list_events", payment_id=payment["payment_id"])}
    assert {"payment.authorized", "payment.captured", "refund.created"} <= kinds
    person = payment["customer_id"]
    assert all(e["customer_id"] == person for e in s.ok("list_events", customer_id=person))


def test_create_and_update_webhook_endpoints(s):
    yoga, kettle = merchant(s, "Harbor Yoga")["merchant_id"], merchant(s, "Copper Kettle")["merchant_id"]
    made = s.ok("create_webhook_endpoint", merchant_id=yoga, url=" https://ops.example.com/hooks ",
                events=["invoice.paid", "invoice.paid"], description="Ops")
    assert made == {"endpoint_id": made["endpoint_id"], "merchant_id": yoga, "url": "https://ops.example.com/hooks",
                    "description": "Ops", "events": ["invoice.paid"], "enabled": True}
    base = dict(merchant_id=yoga)
    s.fails("create_webhook_endpoint", "https URL", url="http://ops.example.com/x", events=["*"], **base)
    s.fails("create_webhook_endpoint", "already receives events", url="https://ops.example.com/hooks",
            events=["*"], **base)
    s.fails("create_webhook_endpoint", "Unknown event types", url="https://x.example.com/h", events=["charge.won"],
            **base)
    s.fails("create_webhook_endpoint", "at least one event type", url="https://x.example.com/h", events=[" "], **base)
    # another merchant may send its own events to the same address
    assert s.ok("create_webhook_endpoint", merchant_id=kettle, url="https://ops.example.com/hooks",
                events=["*"])["merchant_id"] == kettle
    assert made in [{k: v for k, v in e.items() if k not in ("failed_deliveries", "retries_scheduled")}
                    for e in s.ok("list_webhook_endpoints", merchant_id=yoga)]
    assert all(e["merchant_id"] == kettle for e in s.ok("list_webhook_endpoints", merchant_id=kettle))
    s.fails("update_webhook_endpoint", "Nothing to change", endpoint_id=made["endpoint_id"])
    changed = s.ok("update_webhook_endpoint", endpoint_id=made["endpoint_id"], events=["*"], enabled=False)
    assert changed["events"] == ["*"] and changed["enabled"] is False and changed["changed"] == ["events", "disabled"]
    assert s.ok("update_webhook_endpoint", endpoint_id=made["endpoint_id"], enabled=False)["changed"] == []
    assert made["endpoint_id"] in {e["endpoint_id"] for e in s.ok("list_webhook_endpoints")}
    updates = s.ok("list_events", type="webhook_endpoint.updated", limit=5)
    assert [e["object_id"] for e in updates if e["object_id"] == made["endpoint_id"]] == [made["endpoint_id"]]
    assert updates[0]["summary"].endswith("updated: events, disabled")


def test_failed_deliveries_were_retried_on_the_schedule_the_clock_passed(s):
    now = s.world.now
    scheduled = given_up = 0
    for endpoint in s.ok("list_webhook_endpoints"):
        for attempts in chains(s, endpoint["endpoint_id"]).values():
            assert [d["attempt"] for d in attempts] == list(range(1, len(attempts) + 1))
            for before, after in zip(attempts, attempts[1:]):
                assert before["status"] == "failed" and before["next_retry_at"] is None
                gap = dt.datetime.fromisoformat(after["created_at"]) - dt.datetime.fromisoformat(before["created_at"])
                assert gap == RETRY_AFTER[before["attempt"] - 1]
            last = attempts[-1]
            if last["next_retry_at"] is not None:
                due = dt.datetime.fromisoformat(last["next_retry_at"])
                assert last["status"] == "failed" and endpoint["enabled"] and due > now
                assert due - dt.datetime.fromisoformat(last["created_at"]) == RETRY_AFTER[last["attempt"] - 1]
                scheduled += 1
            elif last["status"] == "failed" and endpoint["enabled"]:
                assert len(attempts) == len(RETRY_AFTER) + 1  # given up after about three days
                given_up += 1
            if last["response_code"] == 410:
                assert len(attempts) == 1 and last["next_retry_at"] is None  # gone: never retried
        assert endpoint["retries_scheduled"] == sum(
            d["next_retry_at"] is not None for d in s.ok("list_deliveries", endpoint_id=endpoint["endpoint_id"],
                                                         status="failed", limit=100))
    assert scheduled >= 3


def test_disabling_an_endpoint_cancels_its_scheduled_retries(s):
    down = next(e for e in s.ok("list_webhook_endpoints") if e["retries_scheduled"] >= 2)
    changed = s.ok("update_webhook_endpoint", endpoint_id=down["endpoint_id"], enabled=False)
    assert changed["retries_canceled"] == down["retries_scheduled"] and changed["changed"] == ["disabled"]
    assert all(d["next_retry_at"] is None for d in s.ok("list_deliveries", endpoint_id=down["endpoint_id"], limit=100))
    again = s.ok("update_webhook_endpoint", endpoint_id=down["endpoint_id"], enabled=True)
    assert "retries_canceled" not in again
    (listed,) = [e for e in s.ok("list_webhook_endpoints") if e["endpoint_id"] == down["endpoint_id"]]
    assert listed["retries_scheduled"] == 0 and listed["enabled"]


def test_resend_a_failed_delivery_by_hand(s):
    endpoints = s.ok("list_webhook_endpoints")
    down = next(e for e in endpoints if e["retries_scheduled"])
    waiting = next(d for d in s.ok("list_deliveries", endpoint_id=down["endpoint_id"], status="failed", limit=100)
                   if d["next_retry_at"])
    resent = s.ok("retry_delivery", delivery_id=waiting["delivery_id"])
    assert resent["status"] == "pending" and resent["manual"] and resent["attempt"] == waiting["attempt"] + 1
    assert resent["event_id"] == waiting["event_id"] and resent["next_retry_at"] is None
    # the resend takes the place of the automatic retry the failure was waiting for
    (before,) = [d for d in s.ok("list_deliveries", event_id=waiting["event_id"], endpoint_id=down["endpoint_id"])
                 if d["delivery_id"] == waiting["delivery_id"]]
    assert before == {**waiting, "next_retry_at": None}
    s.fails("retry_delivery", "already retried", delivery_id=waiting["delivery_id"])
    s.fails("retry_delivery", "only failed deliveries", delivery_id=resent["delivery_id"])
    succeeded = s.ok("list_deliveries", status="succeeded", limit=1)[0]
    s.fails("retry_delivery", "only failed deliveries", delivery_id=succeeded["delivery_id"])
    # a failure more than 30 days old is past resending, wherever it was sent
    old = next(d for e in endpoints if e["enabled"] for attempts in chains(s, e["endpoint_id"]).values()
               if (d := attempts[-1])["status"] == "failed"
               and dt.datetime.fromisoformat(d["created_at"]) < s.world.now - dt.timedelta(days=30))
    s.fails("retry_delivery", "more than 30 days ago, so it can no longer be resent", delivery_id=old["delivery_id"])
    # a disabled endpoint takes no resend until it is enabled again
    off = next(e for e in endpoints if not e["enabled"] and any(
        attempts[-1]["status"] == "failed"
        and dt.datetime.fromisoformat(attempts[0]["created_at"]) > s.world.now - dt.timedelta(days=30)
        for attempts in chains(s, e["endpoint_id"]).values()))
    recent = next(attempts[-1] for attempts in chains(s, off["endpoint_id"]).values()
                  if dt.datetime.fromisoformat(attempts[0]["created_at"]) > s.world.now - dt.timedelta(days=30))
    s.fails("retry_delivery", "is disabled; enable it", delivery_id=recent["delivery_id"])
    s.ok("update_webhook_endpoint", endpoint_id=off["endpoint_id"], enabled=True)
    assert s.ok("retry_delivery", delivery_id=recent["delivery_id"])["status"] == "pending"


# -- merchants ---------------------------------------------------------------------------------------


def test_look_ups_take_the_merchant(s):
    for shop in s.ok("list_merchants"):
        mine = shop["merchant_id"]
        found = s.ok("find_customers", merchant_id=mine, limit=100)
        assert found and all(c["merchant_id"] == mine for c in found)
        invoices = s.ok("list_invoices", merchant_id=mine, limit=100)
        assert invoices and all(i["merchant_id"] == mine and i["number"].startswith(shop["invoice_prefix"] + "-")
                                for i in invoices)
        assert {i["customer_id"] for i in invoices} <= {c["customer_id"] for c in found}
        assert all(p["merchant_id"] == mine for p in s.ok("list_payments", merchant_id=mine, limit=100))
        assert all(e["merchant_id"] == mine for e in s.ok("list_events", merchant_id=mine, limit=100))
        assert all(e["merchant_id"] == mine for e in s.ok("list_webhook_endpoints", merchant_id=mine))
        payments = {p["payment_id"] for p in s.ok("list_payments", merchant_id=mine, limit=100)}
        assert {r["payment_id"] for r in s.ok("list_refunds", merchant_id=mine, limit=100)} <= payments
    assert s.ok("list_merchants", name="KETTLE") == [merchant(s, "Copper Kettle Catering")]
    assert s.ok("list_merchants", name="nobody") == []
    northwind, other = twins(s)[0]
    both = s.ok("find_customers", name=northwind["name"])
    assert sorted(c["customer_id"] for c in both) == sorted([northwind["customer_id"], other["customer_id"]])
    assert s.ok("find_customers", name=northwind["name"], merchant_id=other["merchant_id"]) == [other]
    s.fails("find_customers", "not found", name=northwind["name"], merchant_id="MER-0042")


def test_invoice_numbers_follow_each_merchant(s):
    for shop in s.ok("list_merchants"):
        person = next(c for c in customers(s) if c["merchant_id"] == shop["merchant_id"])
        numbers = [int(i["number"].split("-")[1]) for i in
                   s.ok("list_invoices", merchant_id=shop["merchant_id"], limit=100)]
        made = s.ok("create_invoice", customer_id=person["customer_id"], description="Spring",
                    due_date=(today(s) + dt.timedelta(days=20)).isoformat())
        assert made["number"] == f"{shop['invoice_prefix']}-{max(numbers) + 1}"
        assert made["merchant_id"] == shop["merchant_id"] and made["currency"] == person["currency"]


def test_a_card_is_not_shared_between_merchants(s):
    for northwind, other in twins(s):
        home = s.ok("list_payment_methods", customer_id=northwind["customer_id"])
        there = s.ok("list_payment_methods", customer_id=other["customer_id"])
        assert {c["card_id"] for c in home}.isdisjoint(c["card_id"] for c in there)
        assert home[0]["last4"] == there[0]["last4"]  # the same card, saved at each merchant
    northwind, other = next((a, b) for a, b in twins(s)
                            if usable(s, s.ok("list_payment_methods", customer_id=b["customer_id"])[0]))
    invoice = s.ok("create_invoice", customer_id=other["customer_id"], description="Class pass top-up",
                   due_date=(today(s) + dt.timedelta(days=10)).isoformat())
    s.ok("add_line_item", invoice_id=invoice["invoice_id"], description="Drop-in class", unit_amount=25.0,
         quantity=2)
    s.ok("finalize_invoice", invoice_id=invoice["invoice_id"])
    elsewhere = s.ok("list_payment_methods", customer_id=northwind["customer_id"])[0]
    s.fails("pay_invoice", "cards are not shared between merchants", invoice_id=invoice["invoice_id"],
            card_id=elsewhere["card_id"])
    own = s.ok("list_payment_methods", customer_id=other["customer_id"])[0]
    paid = s.ok("pay_invoice", invoice_id=invoice["invoice_id"], card_id=own["card_id"])
    assert paid["invoice_status"] == "paid" and paid["merchant_id"] == other["merchant_id"]


def test_events_reach_only_their_own_merchants_endpoints(s):
    yoga = merchant(s, "Harbor Yoga")["merchant_id"]
    theirs = {e["endpoint_id"] for e in s.ok("list_webhook_endpoints", merchant_id=yoga)
              if e["enabled"] and (e["events"] == ["*"] or "invoice.created" in e["events"])}
    person = next(c for c in customers(s) if c["merchant_id"] == yoga)
    last = latest_event_id(s)
    s.ok("create_invoice", customer_id=person["customer_id"], description="Retreat deposit",
         due_date=(today(s) + dt.timedelta(days=10)).isoformat())
    (event,) = events_since(s, last)
    assert event["merchant_id"] == yoga
    assert {d["endpoint_id"] for d in s.ok("list_deliveries", event_id=event["event_id"])} == theirs and theirs


def test_references_across_merchants_or_a_retry_the_clock_passed_break_the_rules(served):
    from servers.payments.models import Invoice

    s = served("payments")
    assert s.world.violations() == []
    kettle = s.ok("list_merchants", name="Copper Kettle")[0]["merchant_id"]
    invoice = next(i for i in s.ok("list_invoices", limit=100) if i["merchant_id"] != kettle)
    with s.world.transaction(write=True):
        s.world.session.get(Invoice, invoice["invoice_id"]).merchant_id = kettle
    assert any(invoice["invoice_id"] in p and "is for customer" in p for p in s.world.violations())

    s = served("payments")
    waiting = next(d for d in s.ok("list_deliveries", status="failed", limit=100) if d["next_retry_at"])
    with s.world.transaction(write=True):
        row = s.world.session.get(Delivery, waiting["delivery_id"])
        row.created_at = s.world.now - dt.timedelta(days=1)
        row.next_retry_at = row.created_at + RETRY_AFTER[row.attempt - 1]
    assert any(waiting["delivery_id"] in p and "which the clock has passed" in p for p in s.world.violations())


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------


def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def _gold(*calls) -> list[dict]:
    return [{"id": f"g{i + 1}", "name": n, "arguments": a, **({"depends_on": [f"g{i}"]} if i else {})}
            for i, (n, a) in enumerate(calls)]


def test_success_follows_the_outcome_not_the_path(served, play):
    s = served("payments", include_hidden=True)
    invoice = open_invoice(s)
    person = s.ok("get_customer", customer_id=invoice["customer_id"])
    status = Task(id="status", server="payments", seed=0,
                  user_turns=[f"How much is still due on invoice {invoice['number']} for {person['name']}?"],
                  gold=[_gold(("find_customers", {"name": person["name"]}),
                              ("list_invoices", {"customer_id": person["customer_id"]}),
                              ("get_invoice", {"invoice_id": invoice["invoice_id"]}))],
                  facts=[[invoice["amount_due"]]])
    due = f"{invoice['amount_due']:.2f}"
    # another correct path: the open-invoice list already says what is due
    other = play(status, [_call("list_invoices", status="open", limit=100), f"{due} is due."])
    assert other["success"]
    assert not play(status, [_call("get_invoice", invoice_id=invoice["invoice_id"]), "Something is due."])["success"]
    # the right answer, then damage nobody asked for: the invoice voided
    damage = play(status, [_call("get_invoice", invoice_id=invoice["invoice_id"]),
                           _call("void_invoice", invoice_id=invoice["invoice_id"]), f"{due} is due."])
    assert not damage["success"]

    pay = Task(id="pay", server="payments", seed=0,
               user_turns=[f"Charge invoice {invoice['number']} for {person['name']} to their card on file."],
               gold=[_gold(("find_customers", {"name": person["name"]}),
                           ("list_invoices", {"customer_id": person["customer_id"]}),
                           ("pay_invoice", {"invoice_id": invoice["invoice_id"]}))])
    # an idempotency key nobody asked for, and naming the default card: details, not damage
    careful = play(pay, [_call("pay_invoice", invoice_id=invoice["invoice_id"],
                               card_id=person["default_card"]["card_id"], idempotency_key="my-own-key"), "Paid."])
    assert careful["success"]
    # authorising without capturing leaves the invoice open: not what was asked
    assert not play(pay, [_call("authorize_payment", invoice_id=invoice["invoice_id"]), "Done."])["success"]
    # paying, then an extra refund: money moved that nobody asked to move
    paid_then_refunded = play(pay, [_call("pay_invoice", invoice_id=invoice["invoice_id"]),
                                    _call("refund_payment", payment_id=f"PAY-{len(table(s, 'payments')) + 1:04d}",
                                          amount=1.0), "Paid."])
    assert not paid_then_refunded["success"]


def test_a_note_on_a_new_webhook_is_the_users_where_they_gave_one(served, play):
    """Finding: "register a webhook endpoint for the bookkeeping tool at <url>" was failed by an
    assistant that noted 'Bookkeeping tool' as the endpoint's description. The description is a
    detail: free where the user gave none, the user's own where they did."""
    s = served("payments")
    merchant = s.ok("list_merchants")[0]
    url = "https://books.example-ledger.com/hooks/test"
    create = {"merchant_id": merchant["merchant_id"], "url": url, "events": ["invoice.paid"]}
    plain = Task(id="plain", server="payments", seed=0,
                 user_turns=[f"Register a webhook endpoint for the bookkeeping tool at {url}; it gets invoice.paid."],
                 gold=[_gold(("list_merchants", {}), ("create_webhook_endpoint", create))])
    noted = play(plain, [_call("create_webhook_endpoint", **create, description="Bookkeeping tool"), "Registered."])
    assert noted["success"]
    described = Task(id="described", server="payments", seed=0,
                     user_turns=[f"Register a webhook at {url} for invoice.paid, described as 'Bookkeeping'."],
                     gold=[_gold(("list_merchants", {}), ("create_webhook_endpoint",
                                                          {**create, "description": "Bookkeeping"}))])
    assert play(described, [_call("create_webhook_endpoint", **create, description="bookkeeping"), "Done."])["success"]
    assert not play(described, [_call("create_webhook_endpoint", **create, description="Ledger"), "Done."])["success"]
    # another endpoint's description rewritten is damage, not a detail
    other = s.ok("list_webhook_endpoints", merchant_id=merchant["merchant_id"])[0]
    assert not play(plain, [_call("create_webhook_endpoint", **create),
                            _call("update_webhook_endpoint", endpoint_id=other["endpoint_id"], url=url + "/x"),
                            "Registered."])["success"]


def test_failed_deliveries_are_asked_for_the_dates_and_codes_the_answer_states_and_drafts_named_in_good_order():
    """Findings: "What were the last three failed deliveries to the Studio booking system webhook?"
    required their dates and response codes, which it never asked for; "the draft Richard Williams'
    Private sessions invoice" put the article before a name."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    world = worlds.create(toolkit, 0)
    rng = random.Random("payments asks")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    failures = drafts = 0
    for goal in (g for g in recipe.goals if g.tool in ("list_deliveries", "add_line_item", "finalize_invoice")):
        for _ in range(80):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            words = " ".join(filter(None, (ask.say, ask.detail)))
            if goal.tool == "list_deliveries" and ask.args.get("limit") == 3:
                failures += 1
                for text in (words, ask.terse):
                    assert "code" in text and ("date" in text.lower() or "when" in text.lower()), text
            if goal.tool != "list_deliveries":
                drafts += "draft" in words
                assert "the draft " not in words or "the draft invoice " in words, words
    assert failures > 5 and drafts > 10


def test_who_wrote_in_is_another_customer_and_amounts_of_nothing_and_statuses_are_said_as_people_say_them():
    """Findings: "invoice for Molly Hudson ... Then a payment question came in from
    molly.hudson@proton.me. Which customer is that?" asked who the customer just named is (its
    second look-up one an agent rightly skips); "has had no refunds" failed a refunded total of 0;
    "Show me the payments and their status" required their amounts, never the status."""
    import json
    import random

    from prove_env.facts import NOTHING
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    world = worlds.create(toolkit, 0)
    tools = toolkit(world)
    rng = random.Random("payments asks, again")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    seen = Counter()
    for goal in (g for g in recipe.goals if g.tool in ("find_customers", "get_customer", "list_payments")):
        for _ in range(60):
            b = rng.choice(bundles)
            ask = goal.build(b, rng)
            if ask is None:
                continue
            seen[goal.tool] += 1
            facts = ask.facts(json.loads(tools.run(goal.tool, dict(ask.args))))
            if goal.tool == "find_customers":
                assert ask.args["email"] != b["customer"]["email"] and b["customer"]["name"] not in facts, ask.say
            elif goal.tool == "get_customer":
                assert 0 not in facts and 0.0 not in facts, ask.say
                seen["nothing"] += NOTHING in facts
            else:
                for words in (" ".join(filter(None, (ask.say, ask.detail))), ask.terse):
                    assert "status" in words or "what state" in words, words
                    assert "amount" in words.lower() or "how much" in words or "what was charged" in words, words
    world.close()
    assert seen["find_customers"] > 20 and seen["list_payments"] > 20 and seen["nothing"] > 0


def test_lines_and_refunds_record_what_is_asked_a_unique_name_needs_no_merchant_and_nothing_is_said_twice():
    """Findings: "What are the lines?" of an invoice required its total; "What have we already refunded
    them?" required the refunds' dates; a customer whose name is theirs alone was looked up at the
    merchant in a tenth of the conversations (list_merchants then find_customers(merchant_id, name)),
    so the assistant that found them by name matched no gold call; "Can you predict if their Discover
    ending 9096 of Nicholas Garcia will be declined?"; "bill one 'Celebration cake' ... Call the line
    'Celebration cake'" named the line twice."""
    import json
    import random
    import re

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds
    from servers.payments.synth import decline_request

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    seen = Counter()
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        tools, read = toolkit(world), Reader(toolkit, world)
        rng = random.Random(f"payments asks {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for b in bundles:
            assert b["at_merchant"] == (len(read("find_customers", name=b["customer"]["name"])) > 1)
            seen["unique"] += not b["at_merchant"]
            for _ in range(3):
                text = decline_request(b, rng)
                if text is not None:
                    seen["decline"] += 1
                    assert not re.search(r"their \w+ ending \d+ of ", text), text
        for goal in (g for g in recipe.goals if g.tool in ("get_invoice", "list_refunds", "add_line_item")):
            for _ in range(80):
                ask = goal.build(rng.choice(bundles), rng)
                if ask is None:
                    continue
                words = " ".join(filter(None, (ask.say, ask.detail)))
                if goal.tool == "add_line_item":
                    seen["line"] += 1
                    assert words.count(f"'{ask.args['description']}'") <= 1, words
                    continue
                result = json.loads(tools.run(goal.tool, dict(ask.args)))
                facts = ask.facts(result)
                if goal.tool == "list_refunds":
                    seen["refunds"] += 1
                    assert facts == [r["amount"] for r in result[:3]], words
                elif "line" in words.lower():
                    seen["lines"] += 1
                    assert facts == [i["description"] for i in result["line_items"][:4]], words
        world.close()
    assert min(seen[k] for k in ("unique", "decline", "line", "refunds", "lines")) > 3, seen


def test_a_hold_captured_in_full_stands_in_for_pay_invoice_and_a_charge_names_the_customer_once():
    """Findings: a missing-function task hid pay_invoice but showed authorize_payment and
    capture_payment, which together pay the invoice (doing so failed the task); "We've been asked by
    Brandon Wilson to collect ... put the £1,234.80 on Brandon Wilson's default card" named them twice."""
    import json
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    assert {"authorize_payment", "capture_payment"} <= recipe.substitutes_of("pay_invoice")
    # the pair does pay_invoice's job: the same open invoice ends paid either way
    ends = []
    for way in ("pay", "hold"):
        world = worlds.create(toolkit, 0)
        tools = toolkit(world)
        run = lambda name, **args: json.loads(tools.run(name, args))  # noqa: E731
        invoice = next(i for c in run("find_customers", limit=100)
                       for i in run("list_invoices", customer_id=c["customer_id"])
                       if i["status"] == "open" and i["amount_paid"] == 0
                       and not any(p["status"] == "authorized"
                                   for p in run("list_payments", customer_id=c["customer_id"])))
        if way == "pay":
            run("pay_invoice", invoice_id=invoice["invoice_id"])
        else:
            run("capture_payment", payment_id=run("authorize_payment", invoice_id=invoice["invoice_id"])["payment_id"])
        ends.append(run("get_invoice", invoice_id=invoice["invoice_id"])["status"])
        world.close()
    assert ends == ["paid", "paid"]
    said = 0
    world = worlds.create(toolkit, 0)
    rng = random.Random("payments charges")
    bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
    world.close()
    for goal in (g for g in recipe.goals if g.tool in ("pay_invoice", "authorize_payment")):
        for _ in range(150):
            b = rng.choice(bundles)
            ask = goal.build(b, rng)
            if ask is None:
                continue
            for text in (ask.say, ask.terse):
                said += "default card" in text
                assert text.count(b["customer"]["name"]) <= 1, text
    assert said > 10


def test_a_customer_looked_up_is_named_and_nothing_asked_is_already_in_hand():
    """Findings: "Capture only CA$179 of the CA$358 hold for invoice HY-1021" never named the customer
    the gold looked up by name; "Customer and status of invoice HY-1008?" asked of the conversation's
    own customer, whose invoice list (an earlier look-up) already showed both; an email unique on the
    platform was searched at the merchant, so the search by email alone matched no gold call; a first
    message opened with "Also send ... on top of what it gets now"."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    def owners(refs):
        for ref in refs:
            while ref is not None:
                yield ref
                ref = ref.owner

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    seen = Counter()
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"payments named {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for goal in recipe.goals:
            for _ in range(40):
                b = rng.choice(bundles)
                ask = goal.build(b, rng)
                if ask is None:
                    continue
                name = b["customer"]["name"]
                if any(r.kind == "customer" for r in owners(ask.refs)):
                    seen["customer"] += 1
                    assert name in " ".join(filter(None, (ask.say, ask.detail))) and name in ask.terse, ask.say
                assert not ask.say.startswith("Also "), ask.say
                if goal.tool == "find_customers":
                    seen["email"] += 1
                    assert set(ask.args) == {"email"}, ask.args
                if goal.tool == "list_invoices" and "number" in ask.args:
                    seen["number"] += 1
                    (invoice,) = read("list_invoices", number=ask.args["number"])
                    assert invoice["customer_id"] != b["customer"]["customer_id"], ask.say
                    assert not invoice["overdue"], ask.say
        world.close()
    assert seen["customer"] > 300 and seen["email"] > 10 and seen["number"] > 10, seen


def test_an_endpoint_in_an_answer_may_be_named_by_what_it_is_for():
    """Finding: "Which endpoint has the most failed deliveries?" recorded the URL only, and "The Old CRM
    (retired) endpoint fails most: 115 failed deliveries." failed: people name an endpoint by its
    description as well."""
    import random

    from prove_env.facts import stated
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("payments endpoints")
    bundles = recipe.sample(read, world.now, rng)
    named = 0
    for goal in (g for g in recipe.goals if g.tool == "list_webhook_endpoints"):
        for _ in range(60):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            result = read("list_webhook_endpoints", **ask.args)
            for fact in ask.facts(result):
                for e in result:
                    if e["description"] and stated(fact, e["url"]) and isinstance(fact, (str, dict)):
                        named += 1
                        assert stated(fact, f"It is the {e['description']} endpoint."), (ask.say, fact)
    world.close()
    assert named > 20


def test_a_customers_totals_hide_the_lists_they_sum_an_overdue_invoice_may_be_called_so_and_names_are_unique():
    """Findings: with get_customer missing, "what has Christine Gibson paid in total, and what went back
    as refunds?" was to be declined while the shown list_payments lists every payment with what was
    captured and refunded (get_customer's totals are their sums; what is outstanding is the sum of the
    open invoices); "where does each stand?" required "open" of an overdue invoice, and "NW-1095 is
    overdue" failed; "the Conference materials invoice" was said of two invoices of one customer."""
    import random

    from prove_env.facts import stated
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds
    from servers.payments.synth import draft_name, invoice_name

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    assert {"list_payments", "list_invoices", "list_refunds", "list_events"} <= recipe.substitutes_of("get_customer")
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("payments totals")
    bundles = recipe.sample(read, world.now, rng)
    for b in bundles[:5]:  # the totals are what the lists add up to
        cid = b["customer"]["customer_id"]
        payments = read("list_payments", customer_id=cid, limit=100)
        opened = read("list_invoices", customer_id=cid, status="open", limit=100)
        summary = read("get_customer", customer_id=cid)
        assert summary["total_paid"] == round(sum(p["amount_captured"] for p in payments), 2)
        assert summary["total_refunded"] == round(sum(p["amount_refunded"] for p in payments), 2)
        assert summary["outstanding"] == round(sum(i["amount_due"] for i in opened), 2)
        refunds = read("list_refunds", customer_id=cid, limit=100)
        assert summary["total_refunded"] == round(sum(r["amount"] for r in refunds), 2)
    overdue = 0
    for goal in (g for g in recipe.goals if g.tool == "list_invoices"):
        for _ in range(80):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None or "stand" not in ask.say and "status" not in ask.say:
                continue
            result = read("list_invoices", **ask.args)
            facts = ask.facts(result)
            for invoice in result[:4]:
                if invoice["status"] == "open" and invoice["overdue"]:
                    overdue += 1
                    assert any(stated(f, f"{invoice['number']} is overdue.") and not stated(f, invoice["number"])
                               for f in facts), (ask.say, facts)
    assert overdue > 0
    shared = 0
    for b in bundles:
        for invoice in b["invoices"]:
            if sum(i["description"] == invoice["description"] for i in b["invoices"]) > 1:
                shared += 1
                for _ in range(6):
                    for name in (invoice_name(b, invoice, rng), invoice_name(b, invoice, rng, plain=True),
                                 draft_name(b, invoice, rng)):
                        assert invoice["description"] not in name, name
    world.close()
    assert shared > 0


def test_a_customers_totals_are_never_asked_where_a_list_of_what_they_sum_is_in_hand():
    """Finding: "What card payments has Amanda Jordan made?" listed her three payments (75.00, 607.00,
    1005.00, nothing refunded), then "what has Amanda Jordan paid in total, and what went back as
    refunds?" kept get_customer, whose totals are those sums: answering from the list scored coverage
    0.75. A customer's totals (get_customer) and a listing of their payments or invoices, asked or looked
    up for one of them, are never in one conversation about them."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    def owners(refs):
        for ref in refs:
            while ref is not None:
                yield ref
                ref = ref.owner

    def lists_the_customer(b, tool, ask):
        """Whether the request or a look-up before it shows every invoice or every payment of the customer."""
        if any(r.kind in ("invoice", "payment", "event") for r in owners(ask.refs)):
            return True  # looked up in the customer's invoice or payment list
        if tool in ("list_invoices", "list_payments") and ask.args.get("customer_id") == b["customer"]["customer_id"]:
            opened = [i for i in b["invoices"] if i["status"] == "open"]
            return not ask.args.get("overdue_only") or all(i["overdue"] for i in opened)
        return False

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    seen = Counter()
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"payments totals in hand {seed}")
        for b in recipe.sample(read, world.now, rng):
            totals = [ask for goal in recipe.goals if goal.tool == "get_customer"
                      for ask in (goal.build(b, rng) for _ in range(6)) if ask is not None]
            listed = [ask.say for goal in recipe.goals if goal.tool != "get_customer"
                      for ask in (goal.build(b, rng) for _ in range(12))
                      if ask is not None and lists_the_customer(b, goal.tool, ask)]
            seen["totals"] += bool(totals)
            seen["listed"] += bool(listed)
            assert not (totals and listed), (b["customer"]["name"], totals[0].say, listed[:3])
        world.close()
    assert seen["totals"] > 5 and seen["listed"] > 20, seen


def test_the_most_failing_endpoint_is_asked_with_its_count_and_one_item_is_the_default_quantity():
    """Findings: "I heard a webhook is flaky. Which endpoint has the most failed deliveries?" recorded the
    count too, and "The Old CRM (retired) endpoint has the most" failed: every wording of the request
    asks how many, and where endpoints tie any of them is the answer. "Please put one 'Equipment hire'
    on invoice CK-1009" passed quantity=1, the tool's default: a call that leaves it out matched no gold
    call. One item leaves the quantity to its default."""
    import random

    from prove_env.facts import stated
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("payments most failing")
    bundles = recipe.sample(read, world.now, rng)
    counted = single = several = 0
    for goal in (g for g in recipe.goals if g.tool in ("list_webhook_endpoints", "add_line_item")):
        for _ in range(80):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            if goal.tool == "add_line_item":
                assert ask.args.get("quantity", 2) > 1, ask.args
                single += "quantity" not in ask.args
                several += "quantity" in ask.args
                continue
            result = read("list_webhook_endpoints", **ask.args)
            most = max(e["failed_deliveries"] for e in result)
            if "fail" in ask.say and "retr" not in ask.say:
                counted += 1
                for words in (ask.say, ask.terse):
                    assert "how many" in words.lower() or "how often" in words.lower(), words
                for e in result:
                    name = e["description"] or e["url"]
                    assert stated(ask.facts(result)[0], name) == (e["failed_deliveries"] == most), (name, ask.say)
    world.close()
    assert counted > 5 and single and several, (counted, single, several)


def test_an_expired_authorisation_is_cancelled_only_where_the_user_says_it_lapsed():
    """Finding: "Please cancel the uncaptured authorisation for Amanda James' invoice NW-1112." had its gold
    cancel a payment listed as 'expired': an answer that the hold already lapsed and nothing is left to
    release was as right and failed. The user who asks to cancel a lapsed authorisation says it lapsed, in
    every wording; a live hold is asked for as before."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    goal = next(g for g in recipe.goals if g.tool == "cancel_payment")
    seen = Counter()
    for seed in (0, 1):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"payments lapsed holds {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for _ in range(150):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None:
                continue
            payment = next(p for p in read("list_payments", limit=100) if p["payment_id"] == ask.args["payment_id"])
            lapsed = payment["status"] == "expired"
            seen[payment["status"]] += 1
            for words in (ask.say, ask.terse):
                assert ("expired" in words or "lapsed" in words) == lapsed, (payment["status"], words)
        world.close()
    assert seen["expired"] > 3 and seen["authorized"] > 3, seen


def test_card_requests_never_say_their_before_the_customer_and_card_listings_ask_only_what_they_record():
    """Findings: "Go ahead and charge their card on file for Robert Smith's invoice NW-1114." said 'their'
    before the name it stands for; "Can you list Daniel Malone's saved cards and tell me when they expire?"
    recorded only the last four digits, so the expiry dates it asked for were required by no fact. A charge
    or a hold says 'the card' before the customer's name, and no card listing asks for the expiry."""
    import random
    import re

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    goals = {g.tool: g for g in recipe.goals if g.tool in ("pay_invoice", "authorize_payment", "list_payment_methods")}
    seen = Counter()
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("payments card words")
    bundles = recipe.sample(read, world.now, rng)
    for _ in range(300):
        bundle = rng.choice(bundles)
        who = bundle["customer"]["name"]
        for tool, goal in goals.items():
            ask = goal.build(bundle, rng)
            if ask is None:
                continue
            for words in (ask.say, ask.terse):
                head = words.partition(who)[0] if who in words else ""
                seen[tool, bool(head)] += 1
                assert not re.search(r"\b(?:their|they)\b", head), words
                if tool == "list_payment_methods":
                    assert "expire" not in words or "expired" in words, words
    world.close()
    assert seen["pay_invoice", True] > 10 and seen["authorize_payment", True] > 10, seen


def test_payment_changes_take_the_shortest_look_up_route_to_the_payment():
    """Finding: "I'm calling from Northwind Studio. We never captured the £908 authorisation for Michael
    Macdonald's invoice NW-1023 and it has expired. Cancel it, please." found the payment through
    list_merchants, find_customers and list_payments(customer_id) (the name is a customer's of two
    merchants), while the invoice number the request says finds the invoice alone and list_payments
    (invoice_id) its payment: two look-ups, not three. A capture, cancel or refund needs at most two
    look-ups from nothing, and never looks up a customer (or merchant) whose result feeds nothing."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    goals = [g for g in recipe.goals if g.tool in ("capture_payment", "cancel_payment", "refund_payment")]

    def calls(ref, done):
        """The look-up calls resolving `ref` makes, given the entities in `done` (added to it)."""
        if (ref.kind, ref.key) in done:
            return 0
        done.add((ref.kind, ref.key))
        (lookup,) = recipe.lookups_for(ref.kind)
        return 1 + sum(calls(r, done) for r in lookup.needs(ref))

    seen = Counter()
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("payments payment route")
    bundles = recipe.sample(read, world.now, rng)
    for _ in range(300):
        bundle = rng.choice(bundles)
        for goal in goals:
            ask = goal.build(bundle, rng)
            if ask is None:
                continue
            done: set = set()
            needed = sum(calls(ref, done) for ref in ask.refs)
            seen[goal.tool, bundle["at_merchant"]] += 1
            assert needed <= 2, (goal.tool, ask.say, [(r.kind, r.key) for r in ask.refs])
    world.close()
    assert sum(n for (tool, at), n in seen.items() if at) > 10, seen


def test_currencies_and_delivery_statuses_are_read_as_people_say_them_and_requests_say_nothing_twice():
    """Findings: "What currencies does Northwind Studio invoice in on the platform?" answered "US dollars,
    euros, British pounds and Canadian dollars" failed (the facts were the codes alone); "Did the 'paid'
    notification ... reach our webhooks? What's the status of each delivery?" answered "it was delivered
    successfully to both endpoints" failed (the fact was the word 'succeeded'); "Which are the five most
    recently created overdue invoices? Numbers and customers." recorded the numbers only; "Issue a partial
    refund for ..., please. Refund $20." said its verb twice."""
    import random

    from prove_env.facts import stated
    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    names = {"USD": "US dollars", "EUR": "euros", "GBP": "British pounds", "CAD": "Canadian dollars"}
    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    tools = ("list_merchants", "find_customers", "list_deliveries", "list_invoices", "refund_payment")
    goals = [g for g in recipe.goals if g.tool in tools]  # every goal of each tool (list_invoices has two)
    seen = Counter()
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("payments said as people say it")
    bundles = recipe.sample(read, world.now, rng)
    for _ in range(300):
        bundle = rng.choice(bundles)
        for goal in goals:
            tool = goal.tool
            ask = goal.build(bundle, rng)
            if ask is None:
                continue
            words = " ".join(w for w in (ask.say, ask.detail) if w)
            if tool == "refund_payment":
                if ask.detail and "refund" in ask.say.casefold():
                    seen["refund detail"] += 1
                    assert not ask.detail.casefold().startswith("refund"), words
                continue
            if tool == "list_invoices":
                # the facts are the invoices' numbers: no wording asks for their customers too
                seen["overdue"] += "overdue" in ask.say
                assert "numbers and customers" not in ask.say.casefold(), ask.say
                continue
            if ask.facts is None:
                continue
            result = read(tool, **ask.args)
            for fact in ask.facts(result):
                plain = str(fact)
                codes = [c for c in names if f"'{c}'" in plain or plain == c]
                if codes and tool != "list_deliveries":
                    seen["currency"] += 1
                    assert stated(fact, f"They are billed in {names[codes[0]]}."), (ask.say, fact)
                if tool == "list_deliveries" and "succeeded" in plain:
                    seen["succeeded"] += 1
                    assert stated(fact, "It was delivered successfully to each endpoint."), (ask.say, fact)
    world.close()
    assert seen["currency"] > 10 and seen["succeeded"] > 5 and seen["refund detail"] > 5 and seen["overdue"] > 5, seen


def test_queued_retries_shown_by_deliveries_keep_endpoints_shown_and_requests_fit_the_world():
    """Findings: with list_webhook_endpoints left out, "Which endpoint has retries queued up, and how many?"
    was to be declined, though the shown list_deliveries(status="failed") names each failed attempt's
    endpoint and when its retry is due; "Can you resend it now rather than wait for the next automatic
    try?" was said of an attempt with no retry due; "which five newest invoices are overdue?" also reads
    "which of the five newest invoices are overdue"."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    goals = {g.build.__name__: g for g in recipe.goals}
    seen = Counter()
    world = worlds.create(toolkit, 7700000)  # its resendable attempt has no automatic retry due
    read = Reader(toolkit, world)
    rng = random.Random("payments retries in the deliveries")
    bundles = recipe.sample(read, world.now, rng)
    queued = Counter(d["endpoint_id"] for d in read("list_deliveries", status="failed", limit=100)
                     if d["next_retry_at"])
    for _ in range(200):
        bundle = rng.choice(bundles)
        ask = goals["list_webhook_endpoints"].build(bundle, rng)
        if ask is not None and "retr" in ask.say.casefold():
            endpoints = read("list_webhook_endpoints", **ask.args)
            # the failed deliveries show the same endpoints and counts the request asks for
            assert {e["endpoint_id"]: e["retries_scheduled"] for e in endpoints if e["retries_scheduled"]} == {
                k: n for k, n in queued.items() if k in {e["endpoint_id"] for e in endpoints}}, ask.say
            seen["retries"] += 1
            assert "list_deliveries" in recipe.substitutes_of("list_webhook_endpoints"), ask.say
        ask = goals["retry_delivery"].build(bundle, rng)
        if ask is not None:
            delivery = next(d for d in bundle["retryable"] + bundle["blocked"]
                            if d["delivery_id"] == ask.args["delivery_id"])
            seen["retry"] += 1
            if "automatic try" in ask.say:
                assert delivery["next_retry_at"], ask.say
            elif delivery["next_retry_at"] is None and ask.say.startswith("It seems"):
                seen["no retry due"] += 1
        ask = goals["list_invoices"].build(bundle, rng)
        if ask is not None and ask.args.get("overdue_only"):
            seen["overdue"] += 1
            assert "which five newest invoices are overdue" not in ask.say.casefold(), ask.say
    world.close()
    assert seen["retries"] > 3 and seen["no retry due"] > 2 and seen["overdue"] > 5, seen


def test_a_held_back_card_is_asked_for_as_a_choice_not_as_their_card():
    """Finding: "put the $1,398 on their card", with the card to charge held back for a later turn ("Use their
    Visa ending 8496."), reads as the customer's default card, which pay_invoice charges when no card is named:
    a model charging it at once was scored wrong. A held-back card is asked for as one of several."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    goals = {g.build.__name__: g for g in recipe.goals}
    world = worlds.create(toolkit, 7900000)
    read = Reader(toolkit, world)
    rng = random.Random("payments held-back cards")
    bundles = recipe.sample(read, world.now, rng)
    held = 0
    for _ in range(300):
        bundle = rng.choice(bundles)
        ask = goals["pay_invoice"].build(bundle, rng)
        if ask is None or ask.detail is None or "card_id" not in ask.args:
            continue
        held += 1
        default = next((c for c in bundle["cards"] if c["default"]), None)
        assert default is None or default["card_id"] != ask.args["card_id"], ask.say
        said = ask.say.casefold()
        assert "one of" in said and "their card" not in said and "a card they have" not in said, ask.say
    world.close()
    assert held > 5, held


def test_an_invoices_payments_are_read_off_the_customers_list_and_the_event_log_stands_in_for_endpoints():
    """Findings: "Payments on Jennifer Harrison's Annual hosting invoice (NW-1028)?", asked after her cards (her
    customer id in hand), was gold as the invoice's look-up and its payments, while the customer's payment list
    shows them in one call: a model taking it lost coverage. And list_webhook_endpoints was hidden while
    list_events was shown, whose webhook_endpoint.created and .updated events count a merchant's endpoints and
    name the disabled ones."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    goals = {g.build.__name__: g for g in recipe.goals}
    world = worlds.create(toolkit, 8100000)
    read = Reader(toolkit, world)
    rng = random.Random("payments invoice payments")
    bundles = recipe.sample(read, world.now, rng)
    named = 0
    for _ in range(300):
        bundle = rng.choice(bundles)
        ask = goals["list_payments"].build(bundle, rng)
        if ask is None:
            continue
        assert set(ask.args) == {"customer_id"}, ask.args
        invoice = next((i for i in bundle["invoices"] if i["number"] in ask.say), None)
        if invoice is None:
            continue
        named += 1
        result = read("list_payments", **ask.args)
        mine = [p for p in result if p["invoice_id"] == invoice["invoice_id"]]
        assert mine and len(ask.facts(result)) == 2 * len(mine[:3]), ask.say
    assert named > 5, named
    for merchant in read("list_merchants"):
        endpoints = read("list_webhook_endpoints", merchant_id=merchant["merchant_id"])
        created = read("list_events", type="webhook_endpoint.created", merchant_id=merchant["merchant_id"],
                       limit=100)
        assert {e["object_id"] for e in created} == {e["endpoint_id"] for e in endpoints}
    world.close()
    assert "list_events" in recipe.substitutes_of("list_webhook_endpoints")


def test_an_endpoint_is_found_without_its_merchant_and_the_failed_attempts_are_asked_as_failed():
    """Findings: "I'm calling from Northwind Studio. ... switch off event delivery to Slack #sales alerts"
    was gold as the merchant's look-up, its endpoints and the change, while the list of every endpoint finds
    the one described (unique on the platform) in one call: a model taking it lost coverage. And "Attempts to
    send 'Invoice HY-1010 paid: 638.00 CAD' to Studio booking system?" was gold as the endpoint's failed
    deliveries, a filter the user never asked for."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    goals = {g.build.__name__: g for g in recipe.goals}
    world = worlds.create(toolkit, 8300000)
    read = Reader(toolkit, world)
    rng = random.Random("payments endpoint refs")
    bundles = recipe.sample(read, world.now, rng)
    seen = Counter()
    for _ in range(300):
        bundle = rng.choice(bundles)
        for name in ("update_webhook_endpoint", "list_deliveries", "retry_delivery"):
            ask = goals[name].build(bundle, rng)
            if ask is None:
                continue
            for ref in ask.refs:
                while ref is not None:
                    if ref.kind == "endpoint":
                        seen["endpoint", bundle["at_merchant"]] += 1
                        assert ref.owner is None, (name, ask.say)
                    ref = ref.owner
            if name == "list_deliveries" and "event_id" in ask.args and "endpoint_id" in ask.args:
                seen["attempts"] += 1
                assert "failed" in ask.say and "failed" in ask.terse.lower(), (ask.say, ask.terse)
                failed = read("list_deliveries", endpoint_id=ask.args["endpoint_id"], status="failed")
                mine = [d for d in failed if d["event_id"] == ask.args["event_id"]]
                assert ask.facts(read("list_deliveries", **ask.args)) == [len(mine), mine[0]["response_code"]]
            elif name == "list_deliveries" and "failed attempts" in ask.say.replace("failed delivery attempts",
                                                                                    "failed attempts"):
                # (seed 153) where the endpoint's failed deliveries show every attempt, they are the one call
                seen["attempts"] += 1
                assert ask.args.get("status") == "failed" and "failed" in ask.terse.lower(), (ask.args, ask.terse)
                failed = read("list_deliveries", **ask.args)
                mine = [d for d in failed if d["event_summary"] == ask.mentions[0]]
                assert ask.facts(failed) == [len(mine), mine[0]["response_code"]]
    world.close()
    assert seen["endpoint", True] > 5 and seen["attempts"] > 5, seen


def test_an_invoices_history_is_read_off_the_customers_events_and_invoice_listings_ask_for_amounts():
    """Findings: turn 1 found Kim Ritter, and "Walk me through what happened to Kim Ritter's invoice NW-1086,
    event by event, with dates" was gold as the invoice's look-up and its events, while her own event list,
    whose first page holds the invoice's whole history, answers in one call: a model taking it lost coverage.
    And "Open invoices of William Tate?" required each invoice's amount due, which it never asked for: the
    numbers alone failed."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    goals = {g.build.__name__: g for g in recipe.goals}
    world = worlds.create(toolkit, 8500000)
    read = Reader(toolkit, world)
    rng = random.Random("payments invoice history")
    bundles = recipe.sample(read, world.now, rng)
    seen = Counter()
    for _ in range(300):
        bundle = rng.choice(bundles)
        ask = goals["list_events"].build(bundle, rng)
        if ask is not None and "type" not in ask.args:
            number = next(m for m in ask.mentions if m != bundle["customer"]["name"])
            invoice = next(i for i in bundle["invoices"] if i["number"] == number)
            history = read("list_events", invoice_id=invoice["invoice_id"])
            on_page = any(e["type"] == "invoice.created" for e in read(
                "list_events", customer_id=bundle["customer"]["customer_id"]) if e["invoice_id"] == invoice["invoice_id"])
            if bundle["at_merchant"] or not on_page:
                assert ask.args == {"invoice_id": invoice["invoice_id"]}
                seen["invoice"] += 1
            else:
                assert ask.args == {"customer_id": bundle["customer"]["customer_id"]}, ask.say
                assert [r.kind for r in ask.refs] == ["customer"]
                assert ask.facts(read("list_events", **ask.args)) == [history[-1]["created_at"][:10],
                                                                       history[0]["created_at"][:10]]
                seen["customer"] += 1
        ask = goals["list_invoices"].build(bundle, rng)
        if ask is not None and "customer_id" in ask.args and ("status" in ask.args or "overdue_only" in ask.args):
            for text in (ask.say, ask.terse):
                assert any(w in text.lower() for w in ("amount", "how much", "due on each")), text
            seen["listing"] += 1
    world.close()
    assert seen["customer"] > 5 and seen["listing"] > 5, seen


def test_a_hold_is_found_on_the_platforms_list_of_payments_in_its_status():
    """Finding: "Please capture the held payment of €736 on Sandra Williams' invoice NW-1019." was gold as
    find_customers, list_payments(customer_id) and the capture, while list_payments(status="authorized")
    lists every held payment of the platform on one page, each with its invoice number: a model capturing
    off that list in two calls lost coverage. A hold to capture or cancel, live or lapsed, on the first page
    of the payments in its status is found there, one call with nothing looked up first; a live one only
    where the conversation's own new authorisations cannot push it off that page."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    goals = [g for g in recipe.goals if g.tool in ("capture_payment", "cancel_payment")]
    seen = Counter()
    for seed in (0, 8700000):
        world = worlds.create(toolkit, seed)
        read = Reader(toolkit, world)
        rng = random.Random(f"payments holds by status {seed}")
        bundles = recipe.sample(read, world.now, rng)
        for _ in range(200):
            bundle = rng.choice(bundles)
            for goal in goals:
                ask = goal.build(bundle, rng)
                if ask is None:
                    continue
                payment = next(p for p in bundle["payments"] if p["payment_id"] == ask.args["payment_id"])
                page = [p["payment_id"] for p in read("list_payments", status=payment["status"])]
                new = sum(role == "authorize" for role in bundle["roles"].values())
                room = 20 - (new if payment["status"] == "authorized" else 0)
                if payment["payment_id"] in page[:room]:
                    (ref,) = ask.refs
                    (lookup,) = recipe.lookups_for(ref.kind)
                    assert ref.owner is None and lookup.args(ref) == {"status": payment["status"]}, ask.say
                    seen[payment["status"]] += 1
                else:
                    assert all(r.owner is not None for r in ask.refs if r.kind == "payment"), ask.say
                    seen["elsewhere"] += 1
        world.close()
    assert seen["authorized"] > 10 and seen["expired"] > 3, seen


def test_a_question_about_the_merchants_own_says_our_in_every_wording():
    """Finding: after a platform-wide listing of the endpoints (to switch one off), "Which webhook endpoint
    has the most failed deliveries, and how many?" from a Copper Kettle caller recorded Copper Kettle's
    endpoint, while the platform's most failing one (another merchant's) was as fair a reading. A
    question scoped to the merchant (its id passed) says 'our' in every wording, as a platform-wide one
    names the platform or every merchant."""
    import random
    import re

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("payments our scope")
    bundles = recipe.sample(read, world.now, rng)
    seen = {"ours": 0, "platform": 0}
    for goal in (g for g in recipe.goals if g.tool in ("list_invoices", "list_events", "list_webhook_endpoints")):
        for _ in range(150):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None or any(k.endswith("_id") and k != "merchant_id" for k in ask.args):
                continue
            if "merchant_id" in ask.args:
                seen["ours"] += 1
                for words in (ask.say, ask.terse):
                    assert re.search(r"\b(our|we|us)\b", words, re.I), (goal.tool, words)
            elif goal.tool != "list_invoices" or ask.args.get("overdue_only"):
                seen["platform"] += 1
                for words in (ask.say, ask.terse):
                    assert re.search(r"platform|merchant", words, re.I), (goal.tool, words)
    world.close()
    assert seen["ours"] > 20 and seen["platform"] > 20, seen


def test_a_question_about_queued_retries_says_it_counts_retries():
    """Finding: "Which of our endpoints have automatic retries scheduled, and how many?" recorded the endpoint
    and its retries (Studio booking system, 7); "how many" after "which endpoints" also counts the endpoints,
    and "Just one of your endpoints: Studio booking system." failed. Every wording and terse form of the
    question says what it counts: "how many retries"."""
    import random
    import re

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    world = worlds.create(toolkit, 0)
    read = Reader(toolkit, world)
    rng = random.Random("payments queued retries")
    bundles = recipe.sample(read, world.now, rng)
    goal = next(g for g in recipe.goals if g.tool == "list_webhook_endpoints")
    seen = set()
    for _ in range(200):
        ask = goal.build(rng.choice(bundles), rng)
        if ask is None or "retr" not in ask.say:
            continue
        for words in (ask.say, ask.terse):
            seen.add(words)
            for tail in re.findall(r"how many(?: (\w+))?", words.lower()):
                assert tail == "retries", words
    world.close()
    assert len(seen) >= 6, seen


def test_a_merchant_an_earlier_result_shows_is_introduced_and_not_looked_up_again():
    """'Add 10 hours to draft invoice CK-1021.' then 'Add Tom Ashby as a customer': the invoice's entry
    shows its merchant's id, so the customer is created under it with no look-up of the merchant (which
    cost a model that took the id from the invoice a quarter of its coverage); the user still says which
    business they work for."""
    from prove_env.synthesis.pipeline import synthesize
    from prove_env.synthesis.recipe import Reader
    from prove_env.world import worlds

    result = synthesize(["payments"], 60, seed=117, workers=1)
    toolkit = get_toolkit("payments")
    tasks = result.tasks("train") + result.tasks("test")
    after_invoice = 0
    for task in tasks:
        calls = [c for turn in task.gold for c in turn]
        shown = False
        for call in calls:
            if call.name in ("list_invoices", "list_payments") and "number" in call.arguments:
                shown = True
            # (a merchant asked about for itself, "What currencies does Northwind Studio invoice in?",
            # is the request's own call, which no later call takes from: seed 117 draws one after a number)
            asked = "list_merchants" in task.metadata.get("goals", ()) and not any(
                call.id in c.depends_on for c in calls)
            if call.name == "list_merchants" and not asked:
                assert not shown, (task.id, task.user_turns)
            if shown and call.name in ("create_customer", "create_webhook_endpoint"):
                after_invoice += 1
                world = worlds.create(toolkit, task.seed)
                merchant = next(m["name"] for m in Reader(toolkit, world)("list_merchants")
                                if m["merchant_id"] == call.arguments["merchant_id"])
                world.close()
                assert merchant in " ".join(task.user_turns), (task.id, merchant, task.user_turns)
    assert after_invoice


def _payments_bundles(name: str):
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    world = worlds.create(toolkit, 0)
    rng = random.Random(name)
    return world, recipe, recipe.sample(Reader(toolkit, world), world.now, rng), rng


def test_a_listing_of_a_customers_invoices_never_asks_what_was_sent():
    """Finding (seed 119): "What invoices have we sent Donna Simmons, and where does each stand?" recorded
    her draft CK-1032 among the facts, so a model that listed only the invoices sent (a draft is not)
    failed. The listing of every invoice of a customer shows drafts, the conversation's own new ones too:
    no wording of it says "sent"."""
    world, recipe, bundles, rng = _payments_bundles("payments invoices sent")
    seen = 0
    for goal in (g for g in recipe.goals if g.tool == "list_invoices"):
        for _ in range(300):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is None or set(ask.args) != {"customer_id"}:
                continue
            seen += 1
            for words in (ask.say, ask.terse):
                assert " sent " not in f" {words.lower()} ", words
    world.close()
    assert seen > 30, seen


def test_a_full_refund_says_all_thats_left_only_of_a_payment_partly_refunded():
    """Finding (seed 119): "Refund all that's left of Suzanne Chapman's $700 payment for invoice NW-1061" of
    a payment nothing was refunded from yet: "all that's left" says part went back already; so do "refund
    whatever is left of the payment" and "Refund everything still refundable on Sarah Norman's $3,098
    payment" (seed 139). Said only of a payment partly refunded; of another, the whole of it."""
    world, recipe, bundles, rng = _payments_bundles("payments refund what is left")
    goal = next(g for g in recipe.goals if g.tool == "refund_payment")
    seen = Counter()
    for _ in range(1500):
        bundle = rng.choice(bundles)
        ask = goal.build(bundle, rng)
        if ask is None or "amount" in ask.args:
            continue
        payment = next(p for p in bundle["payments"] if p["payment_id"] == ask.args["payment_id"])
        left = any(words in ask.say for words in ("all that's left", "whatever is left", "still refundable"))
        seen["left" if left else "whole"] += 1
        if left:
            assert payment["amount_refunded"] > 0, ask.say
    world.close()
    assert seen["whole"] > 3 and seen["left"] > 0, seen


def _payments_bundles_of(seed: int, name: str):
    """The bundles of the payments world of `seed` (a world whose merchants differ from seed 0's)."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe
    from prove_env.world import worlds

    toolkit, recipe = get_toolkit("payments"), get_recipe("payments")
    world = worlds.create(toolkit, seed)
    rng = random.Random(name)
    return world, Reader(toolkit, world), recipe, recipe.sample(Reader(toolkit, world), world.now, rng), rng


def test_no_merchant_is_looked_up_again_after_a_customer_or_an_endpoint_showed_its_id():
    """Finding (seed 121): "Could you bill Cheyenne Horton for 'Quarterly retainer'?" then "Create a customer
    record for Sofia Marchetti" looked the merchant up by name, although the customer search (and the new
    draft) had shown its id: a model that took the id from there scored 1.0 against 1.3. A customer's or an
    endpoint's entry settles its merchant as an invoice's does; and a request about an invoice resolves the
    invoice first, so that the customer's look-up (which it does not need) never becomes the id's source."""
    from prove_env.episode import gold_records
    from prove_env.synthesis.pipeline import synthesize

    result = synthesize(["payments"], 60, seed=121, workers=1)
    tasks = result.tasks("train") + result.tasks("test")
    checked = 0
    for task in tasks:
        records = {r.id: r for r in run_sync(gold_records(task))}
        calls = task.gold_calls
        for j, call in enumerate(calls):
            if call.name not in ("list_merchants", "find_customers"):
                continue
            users = [c for c in calls[j + 1:] if call.id in c.depends_on]
            out = str(records[call.id].output)
            passed = {(k, v) for c in users for k, v in c.arguments.items() if isinstance(v, str) and v in out}
            if not passed:
                continue
            checked += 1
            # (a customer found by an email the user got is not said to be theirs: not counted)
            earlier = " ".join(str(records[c.id].output) for c in calls[:j]
                               if not (c.name == "find_customers" and "email" in c.arguments))
            assert not all(k == "merchant_id" and v in earlier for k, v in passed), \
                (task.id, call.name, passed, task.user_turns)
    assert checked > 10, checked


def test_the_five_newest_overdue_invoices_are_asked_only_where_five_are_overdue():
    """Finding (seed 121): "Our five newest overdue invoices?" of Copper Kettle Catering, which had four. The
    five newest are asked only where five stay overdue whatever the conversation pays or voids; else every
    overdue invoice, with no number."""
    world, read, recipe, bundles, rng = _payments_bundles_of(12100000, "payments five overdue")
    seen = Counter()
    for goal in (g for g in recipe.goals if g.tool == "list_invoices"):
        for _ in range(600):
            bundle = rng.choice(bundles)
            ask = goal.build(bundle, rng)
            if ask is None or "customer_id" in ask.args or not ask.args.get("overdue_only"):
                continue
            found = read("list_invoices", **{k: v for k, v in ask.args.items() if k != "limit"}, limit=100)
            leaving = sum(i["overdue"] and bundle["roles"].get(i["invoice_id"]) in ("pay", "void")
                          for i in bundle["invoices"])
            five = "five" in f"{ask.say} {ask.terse}".lower()
            assert five == ("limit" in ask.args), ask.say
            if five:
                seen["five"] += 1
                assert len(found) - leaving >= 5, (ask.say, len(found), leaving)
            else:
                seen["all"] += 1
                assert len(found) - leaving < 5, (ask.say, len(found), leaving)
    world.close()
    assert seen["five"] > 5 and seen["all"] > 5, seen


def test_the_last_three_failed_deliveries_are_asked_only_of_an_endpoint_with_three():
    """The last three failed deliveries of an endpoint that has failed once are never asked for."""
    world, read, recipe, bundles, rng = _payments_bundles_of(12100001, "payments three failures")
    assert any(0 < e["failed_deliveries"] < 3 for b in bundles for e in b["endpoints"])
    goal = next(g for g in recipe.goals if g.tool == "list_deliveries")
    seen = 0
    for _ in range(1500):
        ask = goal.build(rng.choice(bundles), rng)
        if ask is None or ask.args.get("limit") != 3:
            continue
        seen += 1
        assert len(read("list_deliveries", endpoint_id=ask.args["endpoint_id"], status="failed", limit=100)) >= 3, \
            ask.say
    world.close()
    assert seen > 20, seen


def test_one_card_ran_out_is_said_only_of_a_customer_with_one_expired_card():
    """Finding (seed 123): "I think one of Marissa Townsend's cards ran out. Which card is expired?" of a
    customer with two expired cards. That wording is drawn only where exactly one card has expired; with
    more, the question asks which ones."""
    world, read, recipe, bundles, rng = _payments_bundles_of(12300000, "payments one card ran out")
    goal = next(g for g in recipe.goals if g.tool == "list_payment_methods")
    many = [b for b in bundles if sum(c["expired"] for c in b["cards"]) > 1]
    assert many
    seen = Counter()
    for _ in range(800):
        bundle = rng.choice(many if rng.random() < 0.5 else bundles)
        ask = goal.build(bundle, rng)
        if ask is None or "ran out" not in ask.say:
            continue
        expired = sum(c["expired"] for c in bundle["cards"])
        seen[expired == 1] += 1
        assert ("one of" in ask.say and "Which card is" in ask.say) == (expired == 1), (ask.say, expired)
    world.close()
    assert seen[True] > 3 and seen[False] > 3, seen


def test_a_customer_shown_by_an_earlier_payment_or_invoice_is_not_searched_for_again():
    """Finding (seed 143): "Capture €168 of the hold on Kayla Walker's invoice CK-1022." listed the held
    payments, whose entry shows Kayla Walker's id (CUS-0058); the next turn, "Full refund of Kayla Walker's
    €1,953 payment for invoice CK-1021", still searched `find_customers` by her name before listing her
    payments, a call one `list_payments(customer_id=...)` makes needless (coverage 0.6 of 1.0 for the
    shorter route). An invoice's or a payment's look-up settles its customer as well as its merchant: no
    gold searches for a customer whose id an earlier gold call's result already showed."""
    import json

    from prove_env.episode import replay
    from prove_env.runtime import run_sync
    from prove_env.synthesis.pipeline import synthesize

    result = synthesize(["payments"], 20, seed=143, workers=1)
    searched = 0
    for task in result.tasks("train") + result.tasks("test"):
        outputs = {r.id: r.output for r in run_sync(replay(task.model_copy(update={"start_digest": None}))).records}
        shown: set[str] = set()
        for call in task.gold_calls:
            if call.name == "find_customers":
                searched += 1
                found = {c["customer_id"] for c in json.loads(outputs[call.id])}
                assert not found & shown, (task.id, call.arguments, task.user_turns)
            elif call.name in ("list_payments", "list_invoices"):
                shown |= {row["customer_id"] for row in json.loads(outputs[call.id])}
            elif call.name in ("capture_payment", "cancel_payment", "refund_payment", "pay_invoice"):
                row = json.loads(outputs[call.id])
                shown |= {row["customer_id"]} if "customer_id" in row else set()
    assert searched


def test_the_payments_of_an_invoice_are_not_asked_of_one_the_conversation_pays_or_voids():
    """Finding (seed 145): "Could you take payment for invoice CK-1031 for Robert Henson?" then "I need the
    payment record for invoice CK-1031 for Robert Henson: amount and status." CK-1031 had by then two
    payments (facts 771, captured, 1542 mixed them), and its look-up had shown its id, so
    `list_payments(invoice_id=...)` was as short as the gold's and lost coverage. The payments of an
    invoice are asked only of one no request changes (pay, authorise, void, edit, finalize), and 'the
    payment record' only of an invoice with one payment."""
    seen = Counter()
    for seed in (14500000, 12100000, 12300000):
        world, read, recipe, bundles, rng = _payments_bundles_of(seed, "payments record of an invoice")
        goal = next(g for g in recipe.goals if g.tool == "list_payments")
        for _ in range(400):
            bundle = rng.choice(bundles)
            ask = goal.build(bundle, rng)
            if ask is None or not ask.mentions[1:]:
                continue
            number = ask.mentions[1]
            invoice = next(i for i in bundle["invoices"] if i["number"] == number)
            assert invoice["invoice_id"] not in bundle["roles"], (ask.say, bundle["roles"][invoice["invoice_id"]])
            payments = sum(p["invoice_id"] == invoice["invoice_id"] for p in bundle["payments"])
            if "payment record for" in ask.say:
                assert payments == 1, (ask.say, payments)
            seen[payments == 1] += 1
        world.close()
    assert seen[True] > 10, seen


def test_the_failed_attempts_of_an_event_are_not_listed_again_when_the_endpoints_failures_show_them_all():
    """Finding (seed 153): "Walk me through the failed delivery attempts of 'Invoice HY-1040 paid: 725.00 CAD'
    to Studio booking system: how many, and what did the endpoint answer last?" listed the endpoint's failed
    deliveries (to find the event) and then the event's deliveries to it, but the first list already held
    every attempt of the event (one, answered 503): a model that answered from it scored coverage 0.75. Where
    the endpoint's failed deliveries show every attempt of the event, they are the request's one call."""
    from prove_env.synthesis.recipe import Lookup  # noqa: F401 - the recipe's look-ups read the world

    seen = Counter()
    for seed in (15300000, 14500000, 12100000, 12300000):
        world, read, recipe, bundles, rng = _payments_bundles_of(seed, "failed attempts of an event")
        goal = next(g for g in recipe.goals if g.tool == "list_deliveries")
        for _ in range(300):
            bundle = rng.choice(bundles)
            ask = goal.build(bundle, rng)
            if ask is None or "failed attempts" not in ask.say and "failed delivery attempts" not in ask.say:
                continue
            if "event_id" in ask.args:
                page = read("list_deliveries", endpoint_id=ask.args["endpoint_id"], status="failed")
                attempts = read("list_deliveries", event_id=ask.args["event_id"], endpoint_id=ask.args["endpoint_id"])
                listed = sum(d["event_id"] == ask.args["event_id"] for d in page)
                assert listed < len(attempts), (ask.say, listed, len(attempts))
            else:
                assert ask.args.get("status") == "failed", ask.args
            seen["event_id" in ask.args] += 1
        world.close()
    assert seen[False] > 3, seen
