"""How tasks are written for the payments platform: a merchant's staff (they say which merchant they
work for) ask about and act on their customers' invoices, cards, payments and refunds, and on the
merchant's webhooks. Customers are named by name (a person may be a customer of two merchants),
invoices by number (or by what they were for), cards by brand and last four digits, payments by
their invoice and amount, webhook endpoints by what they are for, webhook deliveries by the event
they carried.

Each customer's bundle gives every invoice and payment at most one role for a change (pay, authorise,
void, edit, finalize; capture, cancel, refund), so that the requests of one conversation never undo
each other's ground. Every request comes in several phrasings (plain, polite, chatty, indirect, terse);
requests that ask to be told something declare the facts their answer must state."""

from __future__ import annotations

import datetime as dt
import functools
import random
from collections import Counter
from typing import Any, Callable

from prove_env.facts import NOTHING, one_of
from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import article, day, listing, money

Bundle = dict[str, Any]

SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "CAD": "CA$"}
NEW_CUSTOMERS = (("Harbor Lane Bakery", "orders@harborlanebakery.com", "USD"),
                 ("Mila Novak", "mila.novak@proton.me", "EUR"), ("Tom Ashby", "tom.ashby@outlook.com", "GBP"),
                 ("Priya Raman", "priya.raman@gmail.com", "USD"), ("Lucas Tremblay", "lucas.tremblay@icloud.com", "CAD"),
                 ("Greenfield Dental", "office@greenfielddental.com", "USD"),
                 ("Sofia Marchetti", "sofia.marchetti@gmail.com", "EUR"), ("Owen Pryce", "owen.pryce@yahoo.com", "GBP"))
CURRENCY_NAMES = {"USD": "US dollars", "EUR": "euros", "GBP": "pounds", "CAD": "Canadian dollars"}
# a currency as a fact: its code or its name as people say it ('US dollars', 'euros', 'pounds sterling')
CURRENCY_SAID = {"USD": ("US dollars", "US dollar", "U.S. dollars", "U.S. dollar", "American dollars"),
                 "EUR": ("euros", "euro"), "GBP": ("pounds", "pound", "sterling"),
                 "CAD": ("Canadian dollars", "Canadian dollar")}
# what each merchant (by invoice prefix) bills: (line, USD price, how people count it), and what for
WORK = {
    "NW": (("Consulting hour", 150.0, "hours of consulting"), ("Copywriting, per page", 120.0, "pages of copywriting"),
           ("Hosting (monthly)", 29.0, "months of hosting"),
           ("Support plan (monthly)", 99.0, "months of the support plan"),
           ("Photography session", 600.0, "photography sessions"), ("Domain renewal", 18.0, "domain renewals")),
    "HY": (("Drop-in class", 18.0, "drop-in classes"), ("Private session", 70.0, "private sessions"),
           ("Monthly membership", 102.0, "months of membership"), ("Mat and towel rental", 5.0, "mat rentals"),
           ("Weekend workshop", 131.0, "workshop places")),
    "CK": (("Event staff, per hour", 38.0, "hours of event staff"), ("Celebration cake", 114.0, "celebration cakes"),
           ("Tasting session", 152.0, "tasting sessions"), ("Catering, per guest", 46.0, "guests of catering"),
           ("Equipment hire", 190.0, "equipment hires")),
}
PROJECTS = {
    "NW": ("Summer campaign", "Website redesign", "Holiday promotion", "Rebranding", "Quarterly retainer",
           "Event photography", "Menu redesign", "Grand opening"),
    "HY": ("Autumn membership", "Private sessions", "Office yoga programme", "Retreat deposit", "Workshop weekend",
           "Prenatal course"),
    "CK": ("Summer garden party", "Board lunch", "Engagement party", "Awards dinner", "Team breakfast",
           "Wedding tasting"),
}
# where a merchant's new endpoint goes, by its invoice prefix in lower case
NEW_ENDPOINTS = (("https://books.example-ledger.com/hooks/{shop}", "the bookkeeping tool", "Bookkeeping"),
                 ("https://ops.example-dash.com/{shop}/webhooks/billing", "our ops dashboard", "Ops dashboard"),
                 ("https://hooks.zapier.com/hooks/catch/48213/{shop}pay", "our Zapier automation", "Zapier"),
                 ("https://api.example-relay.com/v2/{shop}/payment-events", "the new API server", "API v2"))
EVENT_WORDS = {"invoice.paid": "paid invoices", "invoice.voided": "voided invoices", "refund.created": "refunds",
               "payment.captured": "captured payments", "invoice.finalized": "finalized invoices",
               "customer.created": "new customers", "payment.authorized": "card authorisations",
               "invoice.created": "new invoices", "payment.canceled": "cancelled authorisations"}


def currency_said(code: str) -> Any:
    """A currency as a fact: 'USD' is as rightly said 'US dollars'."""
    return one_of(code, *CURRENCY_SAID[code]) if code in CURRENCY_SAID else code


def cash(amount: float, currency: str) -> str:
    """An amount as people say it in its currency: '$1,250', '€89.50', 'CA$40'."""
    if currency == "USD":
        return money(amount)
    text = f"{amount:,.0f}" if amount == int(amount) else f"{amount:,.2f}"
    return f"{SYMBOLS[currency]}{text}"


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every customer whose name finds only them at their merchant, with cards, invoices (in full),
    payments and refunds, each invoice and payment given at most one role for a change; and their
    merchant with its webhooks and the failed deliveries that can be resent."""
    shops = {}
    for merchant in read("list_merchants"):
        endpoints = read("list_webhook_endpoints", merchant_id=merchant["merchant_id"])
        retryable, blocked = _resendable(read, now, endpoints)
        retried = {d["endpoint_id"] for d in retryable + blocked}
        resend = rng.choice(retryable + blocked)["delivery_id"] if retryable or blocked else None
        shops[merchant["merchant_id"]] = {"merchant": merchant, "endpoints": endpoints, "retryable": retryable,
                                          "blocked": blocked, "retried": retried, "resend": resend,
                                          "invoices": read("list_invoices", merchant_id=merchant["merchant_id"],
                                                           limit=100)}
    # how many invoices are overdue, at each merchant and on the whole platform ("our five newest overdue
    # invoices" is asked only where five are)
    overdue = {mid: sum(i["overdue"] for i in shop["invoices"]) for mid, shop in shops.items()}
    # the platform's holds, live and lapsed, as the first page of the payments in that status lists them
    holds = {status: [p["payment_id"] for p in read("list_payments", status=status)]
             for status in ("authorized", "expired")}
    everyone = read("find_customers", limit=100)
    emails = Counter(c["email"].lower() for c in everyone)
    bundles = []
    for customer in everyone:
        shop = shops[customer["merchant_id"]]
        if len(read("find_customers", name=customer["name"], merchant_id=customer["merchant_id"])) != 1:
            continue
        cid = customer["customer_id"]
        cards = read("list_payment_methods", customer_id=cid)
        for card in cards:
            card["usable"] = not card["expired"] and read("get_card_decline_code", card_id=card["card_id"])[
                "decline_code"] is None
        invoices = [read("get_invoice", invoice_id=i["invoice_id"])
                    for i in read("list_invoices", customer_id=cid, limit=100)]
        payments = read("list_payments", customer_id=cid, limit=100)
        bundle = {"now": now, "customer": {**customer, **read("get_customer", customer_id=cid)}, "cards": cards,
                  "invoices": invoices, "payments": payments, "refunds": read("list_refunds", customer_id=cid),
                  "merchant": {**shop["merchant"], "voice": rng.randrange(1 << 16)}, "endpoints": shop["endpoints"],
                  # whether the customer is looked up at their merchant: only for a name another merchant's
                  # customer shares (elsewhere the name alone finds them, and a merchant look-up is not needed)
                  "at_merchant": len(read("find_customers", name=customer["name"])) > 1,
                  "retryable": shop["retryable"],
                  "blocked": shop["blocked"], "resend": shop["resend"],
                  "events": read("list_events", customer_id=cid, limit=100)}
        # the merchant's other customers, whose email finds only them: someone a question may come from
        bundle["others"] = [c for c in everyone if c["merchant_id"] == customer["merchant_id"]
                            and c["customer_id"] != cid and emails[c["email"].lower()] == 1]
        # invoices of the merchant's other customers that no listing of a conversation shows (the overdue
        # ones are in the merchant's and the platform's overdue lists): one asked about by its number alone
        bundle["elsewhere"] = [i for i in shop["invoices"] if i["customer_id"] != cid and not i["overdue"]]
        bundle["roles"] = _roles(bundle, rng)
        bundle["overdue_count"] = {"our": overdue[customer["merchant_id"]], "platform": sum(overdue.values())}
        # the holds a request finds on that page (list_payments(status=...)), one call with nothing looked up
        # first: a live one only where the conversation's own new authorisations (listed first) cannot push
        # it off the page
        new = sum(role == "authorize" for role in bundle["roles"].values())
        bundle["held_listed"] = {pid for status, page in holds.items() for place, pid in enumerate(page)
                                 if place + (new if status == "authorized" else 0) < 20}
        bundle["endpoint_change"] = _endpoint_change(shop["endpoints"], shop["retried"], rng)
        # whether a conversation about the customer asks for their totals (get_customer) or lists what the
        # totals add up to (their payments, their invoices with what is paid and due, as a question or as
        # the look-up of one of them): never both, or the totals are in hand already (`_listing`)
        bundle["totals"] = rng.random() < 0.25
        bundles.append(bundle)
    return bundles


def _resendable(read: Reader, now: dt.datetime, endpoints: list[dict]) -> tuple[list[dict], list[dict]]:
    """A merchant's failed deliveries of invoice events that can be resent (the latest attempt, the event
    at most 30 days old, listed among the endpoint's latest failures), each one its endpoint's only
    failure of that event summary: those to an enabled endpoint, and those to a disabled one."""
    found: dict[bool, list[dict]] = {True: [], False: []}
    recent = (now - dt.timedelta(days=30)).isoformat()
    for endpoint in endpoints:
        page = read("list_deliveries", endpoint_id=endpoint["endpoint_id"], status="failed")
        for delivery in page:
            if not delivery["event_type"].startswith("invoice."):
                continue
            attempts = read("list_deliveries", event_id=delivery["event_id"], endpoint_id=endpoint["endpoint_id"])
            first = min(a["created_at"] for a in attempts)
            if max(a["attempt"] for a in attempts) == delivery["attempt"] and first >= recent:
                # "listed": how many of the event's attempts the endpoint's failed deliveries show
                listed = sum(d["event_id"] == delivery["event_id"] for d in page)
                found[endpoint["enabled"]].append({**delivery, "endpoint": endpoint, "attempts": len(attempts),
                                                   "listed": listed})
    out = []
    for group in (found[True], found[False]):
        summaries = Counter(d["event_summary"] for d in group)
        out.append([d for d in group if summaries[d["event_summary"]] == 1])
    return out[0], out[1]


def _roles(b: Bundle, rng: random.Random) -> dict[str, str]:
    """One change each invoice or payment may take part in, so that no two requests collide."""
    roles: dict[str, str] = {}
    # an invoice with a hold, live or expired, is left to the payment's role: voiding it cancels the hold
    held = {p["invoice_id"] for p in b["payments"] if p["status"] in ("authorized", "expired")}
    for invoice in b["invoices"]:
        if invoice["status"] == "draft":
            roles[invoice["invoice_id"]] = "finalize" if invoice["line_items"] and rng.random() < 0.55 else "edit"
        elif invoice["status"] == "open" and invoice["invoice_id"] not in held:
            if rng.random() < 0.25:
                continue  # left alone: listings of open invoices always have something to say
            if invoice["amount_paid"] > 0:
                roles[invoice["invoice_id"]] = "pay"
            else:
                roles[invoice["invoice_id"]] = rng.choice(["pay", "pay", "authorize", "void"])
    for payment in b["payments"]:
        if payment["status"] == "authorized":
            roles[payment["payment_id"]] = rng.choice(["capture", "capture", "cancel"])
        elif payment["status"] == "expired":
            roles[payment["payment_id"]] = "cancel"
        elif payment["status"] in ("captured", "partially_refunded"):
            roles[payment["payment_id"]] = "refund"
    return roles


def _endpoint_change(endpoints: list[dict], retried: set[str], rng: random.Random) -> dict | None:
    """The one change to an endpoint a conversation may ask for (never to one a retry needs enabled)."""
    options = []
    for e in endpoints:
        if e["endpoint_id"] in retried:
            continue
        if not e["enabled"]:
            options.append({"endpoint": e, "args": {"enabled": True}, "what": "enable"})
        else:
            options.append({"endpoint": e, "args": {"enabled": False}, "what": "disable"})
            if e["events"] != ["*"]:
                extra = [t for t in ("invoice.paid", "invoice.voided", "payment.captured", "refund.created")
                         if t not in e["events"]]
                if extra:
                    added = rng.choice(extra)
                    options.append({"endpoint": e, "args": {"events": e["events"] + [added]}, "what": "add",
                                    "added": added})
    return rng.choice(options) if options else None


# -- how people name things ------------------------------------------------------------------------

def _merchant(b: Bundle) -> Ref:
    return Ref.of("merchant", b["merchant"])


def _customer(b: Bundle) -> Ref:
    return Ref.of("customer", b["customer"], _merchant(b) if b["at_merchant"] else None)


def _invoice_ref(b: Bundle, invoice: dict) -> Ref:
    return Ref.of("invoice", invoice, _customer(b))


def _invoice_refs(b: Bundle, invoice: dict) -> tuple[Ref, ...]:
    """What a request about one invoice names: the invoice first, then its customer. The invoice's
    look-up (by its number) shows the merchant's id, so it is the id's source for a later request (a
    customer created under the merchant); the customer's look-up, feeding nothing, then leaves."""
    return _invoice_ref(b, invoice), _customer(b)


def _payment_ref(b: Bundle, payment: dict) -> Ref:
    """A payment, named by its invoice's number. A hold (authorised, or lapsed) on the first page of the
    platform's payments in its status is found there, with no owner: one call, where "the held payment on
    invoice NW-1019" is as plainly the authorised one listed with that number. Else listed under its
    invoice (found by its number alone) where the customer's name needs their merchant looked up first
    (two look-ups, not three), else under the customer (as short, and shared with the conversation's other
    requests about them)."""
    if payment["payment_id"] in b["held_listed"]:
        return Ref.of("payment", payment)
    invoice = next((i for i in b["invoices"] if i["invoice_id"] == payment["invoice_id"]), None)
    if b["at_merchant"] and invoice is not None:
        return Ref.of("payment", payment, _invoice_ref(b, invoice))
    return Ref.of("payment", payment, _customer(b))


def _payment_refs(b: Bundle, payment: dict) -> tuple[Ref, ...]:
    """What a request about one payment names: the payment, and its customer unless the payment is
    found through its invoice or its status (the customer's look-up, and their merchant's, would then
    feed nothing)."""
    ref = _payment_ref(b, payment)
    return (ref,) if ref.owner is None or ref.owner.kind == "invoice" else (_customer(b), ref)


def _card_ref(b: Bundle, card: dict) -> Ref:
    return Ref.of("card", card, _customer(b))


def _endpoint_ref(b: Bundle, endpoint: dict) -> Ref:
    """An endpoint by what it is for: unique on the platform, so the list of every endpoint finds it
    at once, never through its merchant's look-up, even where the merchant is introduced (the invoice
    or customer a request names shows the merchant's id anyway)."""
    return Ref("endpoint", endpoint["endpoint_id"], endpoint)


def _scope(b: Bundle, rng: random.Random) -> tuple[dict, tuple[Ref, ...], str]:
    """Whether a question about many things is about the merchant's own (its id, its look-up, and 'our')
    or about the whole platform, as its operators ask (no filter, 'on the platform')."""
    if b["at_merchant"] or rng.random() < 0.5:
        return {"merchant_id": b["merchant"]["merchant_id"]}, (_merchant(b),), "our"
    return {}, (), "platform"


def _who(b: Bundle) -> str:
    return b["customer"]["name"]


def _whose(b: Bundle) -> str:
    name = _who(b)
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _described(b: Bundle, invoice: dict) -> bool:
    """Whether the invoice's description names it among its customer's invoices: "the Conference
    materials invoice" is never said of two invoices of one conversation."""
    return sum(i["description"] == invoice["description"] for i in b["invoices"]) <= 1


def invoice_name(b: Bundle, invoice: dict, rng: random.Random, plain: bool = False) -> str:
    """An invoice by number, with its customer's name unless `plain` (the sentence names them), and
    with its description where no other invoice of the customer has it."""
    number, described = invoice["number"], _described(b, invoice)
    if plain:
        return rng.choice([f"invoice {number}",
                           f"the {invoice['description']} invoice ({number})" if described else f"invoice {number}"])
    return rng.choice([f"{_whose(b)} invoice {number}", f"invoice {number} for {_who(b)}",
                       f"{_whose(b)} {invoice['description']} invoice ({number})" if described
                       else f"{_whose(b)} invoice {number}"])


def draft_name(b: Bundle, invoice: dict, rng: random.Random) -> str:
    """A draft invoice by number, saying it is a draft: "Ann Lee's draft invoice NW-1042"."""
    number = invoice["number"]
    return rng.choice([f"{_whose(b)} draft invoice {number}", f"the draft invoice {number} for {_who(b)}",
                       f"{_whose(b)} draft {invoice['description']} invoice ({number})" if _described(b, invoice)
                       else f"{_whose(b)} draft invoice {number}"])


def card_name(card: dict, rng: random.Random) -> str:
    brand = {"amex": "Amex", "mastercard": "Mastercard", "visa": "Visa", "discover": "Discover"}[card["brand"]]
    return rng.choice([f"the {brand} ending in {card['last4']}", f"their {brand} ending {card['last4']}",
                       f"the {brand} card ending in {card['last4']}"])


def _payment_words(b: Bundle, payment: dict, rng: random.Random, plain: bool = False) -> str:
    amount = cash(payment["amount_captured"] or payment["amount"], payment["currency"])
    if plain:
        return rng.choice([f"the {amount} payment on invoice {payment['invoice_number']}",
                           f"their payment for invoice {payment['invoice_number']}"])
    return rng.choice([f"{_whose(b)} {amount} payment for invoice {payment['invoice_number']}",
                       f"{_whose(b)} payment against invoice {payment['invoice_number']}"])


# a webhook delivery's status as people say it too: 'succeeded' is 'delivered successfully'
_DELIVERY_SAID = {"succeeded": ("succeeded", "successful", "successfully")}


def _delivery_said(status: str) -> Any:
    return one_of(*_DELIVERY_SAID[status]) if status in _DELIVERY_SAID else status


# a payment's status as people spell it too (a fact: the raw word or its variants)
_SPELLINGS = {"canceled": ("canceled", "cancelled"), "authorized": ("authorized", "authorised")}


def _said_status(status: str) -> Any:
    return one_of(*_SPELLINGS[status]) if status in _SPELLINGS else status


def _invoice_status(invoice: dict) -> Any:
    """Where an invoice stands as a fact: an open invoice past its due date is as rightly called
    overdue; a void one voided."""
    if invoice["status"] == "open" and invoice["overdue"]:
        return one_of("open", "overdue", "past due")
    return one_of("void", "voided") if invoice["status"] == "void" else invoice["status"]


def _role(b: Bundle, role: str, items: list[dict], key: str) -> list[dict]:
    return [i for i in items if b["roles"].get(i[key]) == role]


def _single_payment(b: Bundle, payment: dict) -> bool:
    """The payment is the only one of its invoice, so 'the payment on invoice X' says which."""
    return sum(p["invoice_id"] == payment["invoice_id"] for p in b["payments"]) == 1


def _named_card(b: Bundle, card: dict) -> bool:
    return sum(c["last4"] == card["last4"] for c in b["cards"]) == 1


def _listing(build: Callable[[Bundle, random.Random], Ask | None]) -> Callable[[Bundle, random.Random], Ask | None]:
    """A request about one of the customer's invoices or payments: its look-up lists them all, with what
    each was paid, refunded and is due, whose sums are the customer's totals (get_customer). Not asked
    where the conversation asks for those totals."""
    @functools.wraps(build)
    def build_unless_totals(b: Bundle, rng: random.Random) -> Ask | None:
        return None if b["totals"] else build(b, rng)
    return build_unless_totals


# -- goals: questions -------------------------------------------------------------------------------

goals = Goals()


@goals.add("get_customer", 0.4)
def get_customer(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["totals"]:
        return None  # the customer's payments or open invoices are listed instead: the totals are their sums
    who, args, refs = _who(b), {"customer_id": b["customer"]["customer_id"]}, (_customer(b),)
    # what the customer search before it does not show (it shows their email and currency)
    choice = rng.randrange(2)
    if choice == 0:
        return Ask(args, say=rng.choice([f"How much does {who} still owe us across open invoices?",
                                         f"What's {_whose(b)} outstanding balance with us right now?",
                                         f"Before I call {who}, can you tell me how much they owe in total?",
                                         f"I'm chasing payments today. What is {who} behind by, all open invoices together?"]),
                   terse=rng.choice([f"Outstanding total for {who}?", f"Amount {who} owes?"]), refs=refs,
                   mentions=(who,), facts=lambda r: [r["outstanding"] or NOTHING])
    return Ask(args, say=rng.choice([f"How much has {who} paid us so far, and how much have we refunded them?",
                                     f"Give me {_whose(b)} lifetime totals: paid and refunded.",
                                     f"I'd like to know what {who} has paid in total, and what went back as refunds."]),
               terse=f"Total paid and refunded by {who}?", refs=refs, mentions=(who,),
               facts=lambda r: [r["total_paid"] or NOTHING, r["total_refunded"] or NOTHING])


@goals.add("find_customers", 0.6)
def find_customers(b: Bundle, rng: random.Random) -> Ask | None:
    """Who wrote in from an email address: another customer of the merchant than the one the conversation is
    about (whose name the other requests say, so that their record is already in hand)."""
    if not b["others"]:
        return None
    other = rng.choice(b["others"])
    # the email finds only them on the whole platform: the search needs no merchant (and a search
    # without one would match no gold call that has it)
    email, args, refs = other["email"], {"email": other["email"]}, ()
    if rng.random() < 0.35:
        return Ask(args,
                   say=rng.choice([f"Can you tell me whose email {email} is, and what currency they're billed in?",
                                   f"Which customer uses {email}, and in which currency do we bill them?"]),
                   terse=f"Customer with email {email}, and their currency?", refs=refs, mentions=(email,),
                   facts=lambda r: [r[0]["name"], currency_said(r[0]["currency"])])
    return Ask(args,
               say=rng.choice([f"Who is the customer with the email {email}?",
                               f"There's a payment question from {email}. Which customer is that?",
                               f"I got an email from {email}. Is that one of our customers? Who?"]),
               terse=f"Customer with email {email}?", refs=refs, mentions=(email,),
               facts=lambda r: [r[0]["name"]])


@goals.add("list_payment_methods", 0.7)
def list_payment_methods(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["cards"]:
        return None
    who, args, refs = _who(b), {"customer_id": b["customer"]["customer_id"]}, (_customer(b),)
    expired = [c for c in b["cards"] if c["expired"]]
    if expired and rng.random() < 0.5:
        # "one of their cards ran out" only where one has: of two, "which card is" asks for one of them
        return Ask(args, say=rng.choice([f"Does {who} have any expired cards on file? Which ones?",
                                         f"Check whether any of {_whose(b)} saved cards have expired, please."]
                                        + ([f"I think one of {_whose(b)} cards ran out. Which card is expired?"]
                                           if len(expired) == 1 else
                                           [f"I think some of {_whose(b)} cards ran out. Which ones are expired?"])),
                   terse=f"Expired cards of {who}?", refs=refs, mentions=(who,),
                   facts=lambda r: [c["last4"] for c in r if c["expired"]])
    return Ask(args, say=rng.choice([f"Which cards does {who} have saved with us? Last four digits, please.",
                                     f"What payment methods are on file for {who}?",
                                     f"Can you list {_whose(b)} saved cards for me?",
                                     f"I need to know which cards {who} has on file with us."]),
               terse=rng.choice([f"Cards of {who}?", f"Cards on file for {who}?"]), refs=refs, mentions=(who,),
               facts=lambda r: [c["last4"] for c in r][:4])


@goals.add("list_invoices", 1.0)
def list_invoices(b: Bundle, rng: random.Random) -> Ask | None:
    who, cid = _who(b), b["customer"]["customer_id"]
    refs = (_customer(b),)
    held = {p["invoice_id"] for p in b["payments"] if p["status"] == "authorized"}
    # asked only when an invoice no other request changes stays in the listing
    untouched = [i for i in b["invoices"] if i["status"] == "open" and i["invoice_id"] not in b["roles"]
                 and i["invoice_id"] not in held]
    overdue = [i for i in untouched if i["overdue"]]
    opened = untouched
    # where the customer's totals are asked, no listing shows every open invoice with what is due (what is
    # outstanding is their sum): the overdue ones only where some open invoice is not overdue
    totals = b["totals"]
    summed = totals and all(i["overdue"] for i in b["invoices"] if i["status"] == "open")
    if summed:
        overdue = []
    choice = rng.randrange(4)
    if choice == 0 and overdue:
        return Ask({"customer_id": cid, "overdue_only": True},
                   say=rng.choice([f"Which of {_whose(b)} invoices are overdue, and for how much?",
                                   f"Is {who} late on any invoices? Give me the numbers and amounts.",
                                   f"I'm doing collections. What does {who} have past due, and how much is each?"]),
                   terse=f"Overdue invoices of {who}, and amounts due?", refs=refs, mentions=(who,),
                   facts=lambda r: [v for i in r[:4] for v in (i["number"], i["amount_due"])])
    if choice == 1 and opened and not totals:
        return Ask({"customer_id": cid, "status": "open"},
                   say=rng.choice([f"Which invoices does {who} have open right now, and how much is due on each?",
                                   f"List {_whose(b)} unpaid open invoices with what's due on each.",
                                   f"What is still open on {_whose(b)} account? Numbers and amounts due, please."]),
                   terse=f"Open invoices of {who}, and amounts due?", refs=refs, mentions=(who,),
                   facts=lambda r: [v for i in r[:4] for v in (i["number"], i["amount_due"])])
    if choice == 2 and not summed:
        args, scope, whose = _scope(b, rng)
        # "the five newest" only where five stay overdue whatever the conversation pays or voids (the
        # customer's overdue invoices with such a role may leave the list); else every overdue one
        leaving = sum(i["overdue"] and b["roles"].get(i["invoice_id"]) in ("pay", "void") for i in b["invoices"])
        if b["overdue_count"][whose] - leaving < 5:
            say = (["Which of our invoices are overdue right now? Just the numbers.",
                    "List our overdue invoices across all customers, numbers only, please."] if whose == "our" else
                   ["Across every merchant on the platform, which invoices are overdue? Just the numbers.",
                    "Platform-wide, list the overdue invoices, whichever merchant they're from."])
            return Ask({**args, "overdue_only": True}, refs=scope, say=rng.choice(say),
                       terse="Our overdue invoices?" if whose == "our" else "Overdue invoices, all merchants?",
                       facts=lambda r: [i["number"] for i in r])
        if whose == "our":
            say = ["Which are our five most recently created overdue invoices? Just the numbers.",
                   "Show me our five newest overdue invoices across all customers.",
                   "I want to start on collections: list our five latest overdue invoices, whoever they're for."]
        else:
            say = ["Across every merchant on the platform, which are the five newest overdue invoices?",
                   "Platform-wide, list the five most recently created overdue invoices, whichever merchant they're "
                   "from."]
        return Ask({**args, "overdue_only": True, "limit": 5}, refs=scope, say=rng.choice(say),
                   terse=("Our five newest overdue invoices?" if whose == "our"
                          else "Five newest overdue invoices, all merchants?"),
                   mentions=("five",), facts=lambda r: [i["number"] for i in r])
    if not b["invoices"] or totals:
        return None
    return Ask({"customer_id": cid},
               # not "sent": the listing shows drafts too (the conversation's own new ones as well)
               say=rng.choice([f"What invoices does {who} have with us, and where does each stand?",
                               f"Can you list all of {_whose(b)} invoices with their status?",
                               f"Give me an overview of {_whose(b)} invoices, please: numbers and status."]),
               terse=f"Invoices of {who} and their status?", refs=refs, mentions=(who,),
               facts=lambda r: [v for i in r[:4] for v in (i["number"], _invoice_status(i))])


def _merchant_shown(ref: Ref) -> tuple[tuple[str, str], ...]:
    """The merchant an invoice's or a payment's entry shows by id ('merchant_id': MER-0003)."""
    merchant = ref.entity.get("merchant_id")
    return (("merchant", merchant),) if merchant else ()


def _owners_shown(ref: Ref) -> tuple[tuple[str, str], ...]:
    """The merchant and the customer an invoice's or a payment's entry shows by id ('customer_id':
    CUS-0058): a later request about that customer's other payments or invoices lists them under that
    id at once, with no search by the name the user gave for the same invoice."""
    customer = ref.entity.get("customer_id")
    return _merchant_shown(ref) + ((("customer", customer),) if customer else ())


@goals.add("list_invoices", 0.8)
def invoice_by_number(b: Bundle, rng: random.Random) -> Ask | None:
    """An invoice asked about by its number alone (numbers carry their merchant's prefix): another
    customer's, so that no look-up of the conversation (the customer's invoice list) shows it already."""
    if not b["elsewhere"]:
        return None
    invoice = rng.choice(b["elsewhere"])
    number = invoice["number"]
    return Ask({"number": number},
               say=rng.choice([f"What's the status of invoice {number}, and who is it for?",
                               f"Invoice {number} came up in a call. Whose is it, and where does it stand?",
                               f"Can you look up invoice {number} for me? I need the customer and its status."]),
               terse=f"Customer and status of invoice {number}?", mentions=(number,),
               settles=(("merchant", invoice["merchant_id"]),),
               facts=lambda r: [r[0]["customer_name"], _invoice_status(r[0])])


@goals.add("get_invoice", 0.45)
@_listing
def get_invoice(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["invoices"]:
        return None
    invoice = rng.choice(b["invoices"])
    name, number = invoice_name(b, invoice, rng), invoice["number"]
    plain = invoice_name(b, invoice, rng, plain=True)
    args, refs = {"invoice_id": invoice["invoice_id"]}, _invoice_refs(b, invoice)
    choice = rng.randrange(3)
    if choice == 0 and invoice["line_items"]:
        return Ask(args, say=rng.choice([f"What's on {name}? List the line items.",
                                         f"Our client {_who(b)} is asking what exactly {plain} charges for. What are the lines?",
                                         f"Could you read me the line items of {name} with their amounts?"]),
                   terse=f"Line items of {name}?", refs=refs, mentions=(number,),
                   facts=lambda r: [i["description"] for i in r["line_items"][:4]])
    if choice == 1 and invoice["status"] == "paid":
        return Ask(args, say=rng.choice([f"When was {name} paid, and how much was it?",
                                         f"I've got {_who(b)} asking for the date and amount we received for {plain}.",
                                         f"Can you confirm the payment date and total of {name}?"]),
                   terse=f"When was {name} paid, and how much?", refs=refs, mentions=(number,),
                   facts=lambda r: [r["paid_at"][:10], r["total"]])
    if not invoice["finalized_at"]:
        return None  # its status and due date the invoice list (the look-up before) shows already
    return Ask(args, say=rng.choice([f"When did {name} go out to the customer, and when is it due?",
                                     f"What day was {name} finalized and sent, and what's its due date?",
                                     f"Quick check on {name}: when was it issued, and when is it due?"]),
               terse=rng.choice([f"Issue date and due date of {name}?", f"{name}: issued when, due when?"]),
               refs=refs, mentions=(number,), facts=lambda r: [r["finalized_at"][:10], r["due_date"]])


@goals.add("list_payments", 0.5)
@_listing
def list_payments(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["payments"]:
        return None
    who, cid, refs = _who(b), b["customer"]["customer_id"], (_customer(b),)
    if rng.random() < 0.5:
        return Ask({"customer_id": cid},
                   say=rng.choice([f"What card payments has {who} made? Amounts and status, please.",
                                   f"Can you list {_whose(b)} payments with us, with the amount and status of each?",
                                   f"Let me see {_whose(b)} payment history: what was charged, and the status of "
                                   "each payment."]),
                   terse=f"Payments of {who}: amounts and status?", refs=refs, mentions=(who,),
                   facts=lambda r: [v for p in r[:3] for v in (p["amount"], _said_status(p["status"]))])
    # the payments of one invoice, named with its customer, are read off the customer's payment list
    # (each entry names its invoice): one call where the conversation has found the customer already,
    # as short as the invoice's look-up and its payments where it has not. Not where the customer's name
    # needs their merchant looked up first (the invoice's own look-up is then the shorter route), nor
    # where their payments run past the list's first page.
    # Not an invoice another request of the conversation pays, authorises or voids (finding, seed 145: "I
    # need the payment record for invoice CK-1031" after CK-1031 was paid, which then had two payments, and
    # whose look-up had shown its id: `list_payments(invoice_id=...)` was then as short and lost coverage),
    # and where it can be, not one whose payments another request captures, cancels or refunds.
    unchanged = [i for i in b["invoices"] if i["payments"] and i["invoice_id"] not in b["roles"]]
    invoice = next((i for i in unchanged if not any(b["roles"].get(p["payment_id"]) for p in b["payments"]
                                                    if p["invoice_id"] == i["invoice_id"])),
                   next(iter(unchanged), None))
    if invoice is None or b["at_merchant"] or len(b["payments"]) > 20:
        return None
    name, number, iid = invoice_name(b, invoice, rng), invoice["number"], invoice["invoice_id"]
    # 'the payment record' says there is one
    single = sum(p["invoice_id"] == iid for p in b["payments"]) == 1
    return Ask({"customer_id": cid},
               say=rng.choice([f"Which payments were made against {name}: how much, and what state are they in?",
                               f"Was {name} charged to a card? Show me the amount and status of each payment.",
                               f"I need the payment record for {name}: amount and status." if single else
                               f"I need the payment records for {name}: amount and status of each."]),
               terse=f"Payments on {name}: amounts and status?", refs=refs, mentions=(who, number),
               facts=lambda r: [v for p in [p for p in r if p["invoice_id"] == iid][:3]
                                for v in (p["amount"], _said_status(p["status"]))])


@goals.add("list_refunds", 0.6)
def list_refunds(b: Bundle, rng: random.Random) -> Ask | None:
    who, refs = _who(b), (_customer(b),)
    if not b["refunds"]:
        return None
    return Ask({"customer_id": b["customer"]["customer_id"]},
               say=rng.choice([f"What refunds have we given {who}, and for how much?",
                               f"List the refunds issued to {who}, with their amounts, please.",
                               f"Apparently {who} thinks we owe them money back. What have we already refunded them?"]),
               terse=f"Refunds to {who}, and amounts?", refs=refs, mentions=(who,),
               facts=lambda r: [x["amount"] for x in r[:3]])


def _on_first_page(events: list[dict], invoice_id: str) -> bool:
    """Whether a customer's event list (newest first) shows the invoice's creation on its default page."""
    return any(e["type"] == "invoice.created" and e.get("invoice_id") == invoice_id for e in events[:20])


def _history(events: list[dict], invoice_id: str) -> list[str]:
    """The dates of an invoice's first and latest event, read off its customer's event list; a list whose
    page no longer reaches back to the invoice's creation (events of the conversation's own changes came
    before it) tells no history, and the draft is dropped."""
    own = [e for e in events if e.get("invoice_id") == invoice_id]
    if not any(e["type"] == "invoice.created" for e in own):
        raise ValueError(f"{invoice_id} was created before the first page")
    return [own[-1]["created_at"][:10], own[0]["created_at"][:10]]


@goals.add("list_events", 0.5)
def list_events(b: Bundle, rng: random.Random) -> Ask | None:
    # an invoice of the customer is looked up in their invoice list: not where their totals are asked
    invoices = [i for i in b["invoices"] if i["status"] != "draft"] if not b["totals"] else []
    if invoices and rng.random() < 0.7:
        invoice = rng.choice(invoices)
        name, number, iid = invoice_name(b, invoice, rng), invoice["number"], invoice["invoice_id"]
        say = rng.choice([f"What's the event history of {name}, from the first event to the latest?",
                          f"Walk me through what happened to {name}, event by event, with dates.",
                          f"When was {name} created, and when did its latest event happen?",
                          f"I'm auditing {name}. What does the event log say about it, and when?"])
        terse = f"Events for {name}, first and latest dates?"
        if not b["at_merchant"] and _on_first_page(b["events"], iid):
            # the customer's event log (each event names its invoice) holds the invoice's whole history on
            # its first page: one call where the conversation has found the customer already, as short as
            # the invoice's look-up and its events where it has not. Not where the customer's name needs
            # their merchant looked up first (the invoice's own look-up is then the shorter route).
            return Ask({"customer_id": b["customer"]["customer_id"]}, say=say, terse=terse, refs=(_customer(b),),
                       mentions=(_who(b), number), facts=lambda r: _history(r, iid))
        return Ask({"invoice_id": iid}, say=say, terse=terse, refs=_invoice_refs(b, invoice),
                   mentions=(number,), facts=lambda r: [r[-1]["created_at"][:10], r[0]["created_at"][:10]])
    kind = rng.choice(["invoice.paid", "refund.created"])
    words = EVENT_WORDS[kind]
    args, scope, whose = _scope(b, rng)
    if whose == "our":
        say = [f"What were our last three events about {words}? Their amounts and dates, please.",
               f"Show me our three most recent {kind} events with their amounts and dates.",
               f"From our event log, which three {words} came in most recently: how much, and when?"]
    else:
        say = [f"Across the whole platform, what were the last three events about {words}, with amounts and dates?",
               f"Show me the amounts and dates of the three most recent {kind} events on the platform, any merchant."]
    return Ask({"type": kind, **args, "limit": 3}, refs=scope, say=rng.choice(say),
               terse=(f"Our last three {kind} events, amounts and dates?" if whose == "our"
                      else f"Last three {kind} events, amounts and dates, all merchants?"),
               mentions=("three",),
               facts=lambda r: [v for e in r for v in (e["amount"], e["created_at"][:10])])


def _endpoint_said(endpoint: dict) -> Any:
    """An endpoint as an answer names it: by its URL or by what it is for (its description)."""
    return one_of(endpoint["url"], endpoint["description"]) if endpoint["description"] else endpoint["url"]


def _most_failing(endpoints: list[dict]) -> Any:
    """The endpoint with the most failed deliveries as an answer names it; where several tie, any of them."""
    most = max(e["failed_deliveries"] for e in endpoints)
    top = [e for e in endpoints if e["failed_deliveries"] == most]
    if len(top) == 1:
        return _endpoint_said(top[0])
    return one_of(*[v for e in top for v in (e["url"], e["description"]) if v])


@goals.add("list_webhook_endpoints", 0.7)
def list_webhook_endpoints(b: Bundle, rng: random.Random) -> Ask | None:
    args, refs, whose = _scope(b, rng)
    ours = whose == "our"
    where = "" if ours else rng.choice([" Across all merchants on the platform.", " Every merchant, please."])
    choice = rng.randrange(4)
    if choice == 0 and ours:
        return Ask(args, say=rng.choice(["How many webhook endpoints do we have, and which of them are switched off?",
                                         "Count our webhook endpoints for me and tell me which are disabled.",
                                         "Where do our payment events get sent? How many endpoints, and any turned off?"]),
                   terse="Number of our webhook endpoints, and which are off?", refs=refs,
                   facts=lambda r: [_endpoint_said(e) for e in r if not e["enabled"]] + [len(r)])
    # the endpoint that fails most (any of them, if several tie) and how often: every wording asks both
    if choice <= 1 and (not ours or any(e["failed_deliveries"] for e in b["endpoints"])):
        # a question about the merchant's own says so ('our'), as the platform's says its scope: after a
        # platform-wide listing, "which endpoint fails most" would otherwise have two answers
        return Ask(args, say=rng.choice(["Which of our webhook endpoints has the most failed deliveries, and how many?",
                                         "Is any of our webhooks failing a lot? Which one fails most, and how often?",
                                         "I heard one of our webhooks is flaky. Which endpoint has the most failed "
                                         "deliveries, and how many has it had?"] if ours else
                                        ["Which webhook endpoint has the most failed deliveries, and how many?",
                                         "Is any webhook failing a lot? Which one fails most, and how often?",
                                         "I heard a webhook is flaky. Which endpoint has the most failed deliveries, "
                                         "and how many has it had?"])
                   + where,
                   terse=("Our endpoint failing most" if ours else "Endpoint failing most on the platform")
                   + ", and how many failures?",
                   refs=refs,
                   facts=lambda r: [_most_failing(r), max(e["failed_deliveries"] for e in r)])
    if choice == 2 and any(e["retries_scheduled"] for e in b["endpoints"]):
        # 'how many' after 'which endpoints' could count the endpoints: every wording says it counts retries
        return Ask(args, say=rng.choice(["Are any of our webhooks waiting to retry failed deliveries? How many "
                                         "retries are lined up for each?",
                                         "Which of our endpoints have automatic retries scheduled, and how many "
                                         "retries each?",
                                         "I think one of our webhooks is down. Which endpoint has retries queued up, "
                                         "and how many retries?"] if ours else
                                        ["Are any webhooks waiting to retry failed deliveries? How many retries are "
                                         "lined up for each?",
                                         "Which endpoints have automatic retries scheduled, and how many retries "
                                         "each?",
                                         "I think a webhook is down. Which endpoint has retries queued up, and how "
                                         "many retries?"])
                   + where,
                   terse=("Our endpoints with retries scheduled, and how many retries each?" if ours
                          else "Endpoints with retries scheduled, and how many retries each, all merchants?"),
                   refs=refs,
                   facts=lambda r: [v for e in r if e["retries_scheduled"]
                                    for v in (_endpoint_said(e), e["retries_scheduled"])])
    if not ours:
        return None
    change = b["endpoint_change"]
    steady = [e for e in b["endpoints"] if e["enabled"] and (change is None or change["endpoint"] is not e)]
    kinds = [k for k in ("refund.created", "invoice.paid", "payment.captured")
             if any(k in e["events"] or e["events"] == ["*"] for e in steady)]
    if not kinds:
        return None
    kind = rng.choice(kinds)
    return Ask(args, say=rng.choice([f"Which of our enabled endpoints get {EVENT_WORDS[kind]} ({kind} events)?",
                                     f"Which of our endpoints are notified when {article(kind)} {kind} event happens? "
                                     f"Enabled ones only.",
                                     f"Tell me which of our active webhook URLs are subscribed to {kind}."]),
               terse=f"Our enabled endpoints receiving {kind}?", refs=refs, mentions=(kind,),
               facts=lambda r: [_endpoint_said(e) for e in r
                                if e["enabled"] and (kind in e["events"] or e["events"] == ["*"])])


@goals.add("list_deliveries", 0.6)
def list_deliveries(b: Bundle, rng: random.Random) -> Ask | None:
    # an invoice's event is looked up in the customer's invoice list: not where their totals are asked
    paid = [e for e in b["events"] if e["type"] == "invoice.paid"] if not b["totals"] else []
    by_invoice = {i["invoice_id"]: i for i in b["invoices"]}
    if paid and rng.random() < 0.6:
        event = rng.choice(paid)
        invoice = by_invoice.get(event.get("invoice_id"))
        if invoice is None:
            return None
        same = [e for e in paid if e.get("invoice_id") == invoice["invoice_id"]]
        if len(same) != 1:
            return None
        name, number = invoice_name(b, invoice, rng), invoice["number"]
        ref = Ref("event", event["event_id"], event, _invoice_ref(b, invoice))
        return Ask({"event_id": event["event_id"]},
                   say=rng.choice([f"Did the 'paid' notification for {name} reach our webhooks? What's the status of "
                                   f"each delivery?",
                                   f"Check the webhook deliveries of the invoice.paid event of {name}: what status did "
                                   f"each end in?",
                                   f"Our bookkeeping never heard that {name} was paid. What's the status of each webhook "
                                   f"delivery?"]),
                   terse=f"Status of each webhook delivery of the paid event of {name}?", refs=(ref, _customer(b)),
                   mentions=(number,),
                   facts=lambda r: [_delivery_said(s) for s in dict.fromkeys(d["status"] for d in r)])
    others = [d for d in b["retryable"] if d["delivery_id"] != b["resend"]]
    if others and rng.random() < 0.5:
        delivery = rng.choice(others)
        endpoint, summary = delivery["endpoint"], delivery["event_summary"]
        desc = endpoint["description"]
        ref = Ref("delivery", delivery["delivery_id"], delivery, _endpoint_ref(b, endpoint))
        if delivery["next_retry_at"] and rng.random() < 0.5:
            did = delivery["delivery_id"]
            return Ask({"endpoint_id": endpoint["endpoint_id"], "status": "failed"},
                       say=rng.choice([f"The {desc} webhook didn't get '{summary}'. When is the next automatic retry?",
                                       f"When will we try again to send '{summary}' to {desc}?",
                                       f"Is another attempt to deliver '{summary}' to {desc} coming? When?"]),
                       terse=f"Next retry of '{summary}' to {desc}?", refs=(_endpoint_ref(b, endpoint),),
                       mentions=(summary, desc),
                       facts=lambda r: [d["next_retry_at"] for d in r
                                        if d["delivery_id"] == did and d["next_retry_at"]])
        # the delivery is found among the endpoint's failed ones (every attempt of it failed): each
        # wording asks for the failed attempts, as that look-up lists them; where it lists every attempt
        # of the event, it is the request's one call (no second list of the event's deliveries)
        eid, whole = delivery["event_id"], delivery["listed"] == delivery["attempts"]
        args = ({"endpoint_id": endpoint["endpoint_id"], "status": "failed"} if whole
                else {"event_id": eid, "endpoint_id": endpoint["endpoint_id"]})
        return Ask(args,
                   say=rng.choice([f"How many failed attempts have we made to deliver '{summary}' to {desc}, and "
                                   "what status code did the last one get?",
                                   f"Walk me through the failed delivery attempts of '{summary}' to {desc}: how many, "
                                   "and what did the endpoint answer last?",
                                   f"'{summary}' never reached {desc}. How many failed attempts so far, and the last "
                                   "response code?"]),
                   terse=f"Failed attempts to send '{summary}' to {desc}, and the last response code?",
                   refs=(_endpoint_ref(b, endpoint),) if whole else (ref,), mentions=(summary, desc),
                   facts=lambda r: [sum(d["status"] == "failed" and d["event_id"] == eid for d in r),
                                    next(d["response_code"] for d in r if d["event_id"] == eid)])
    # "the last three failed deliveries" only of an endpoint with three or more
    failing = [e for e in b["endpoints"] if e["failed_deliveries"] >= 3]
    if not failing:
        return None
    endpoint = rng.choice(failing)
    desc = endpoint["description"]
    return Ask({"endpoint_id": endpoint["endpoint_id"], "status": "failed", "limit": 3},
               say=rng.choice([f"When were the last three failed deliveries to the {desc} webhook, and what "
                               "response code did each get?",
                               f"Show me the three most recent failures sending to {desc}: their dates and "
                               "response codes.",
                               f"Has the {desc} endpoint failed lately? Give me the date and response code of each of "
                               "the last three failed deliveries."]),
               terse=f"Dates and response codes of the last three failed deliveries to {desc}?",
               refs=(_endpoint_ref(b, endpoint),),
               mentions=(desc, "three"),
               facts=lambda r: [v for d in r for v in (d["created_at"][:10], d["response_code"])])


# -- goals: changes ---------------------------------------------------------------------------------

@goals.add("create_customer", 0.7)
def create_customer(b: Bundle, rng: random.Random) -> Ask | None:
    name, email, currency = rng.choice(NEW_CUSTOMERS)
    shop = b["merchant"]
    if currency not in shop["currencies"]:
        currency = rng.choice(shop["currencies"])
    args: dict[str, Any] = {"merchant_id": shop["merchant_id"], "name": name, "email": email}
    said, refs = "", (_merchant(b),)
    if currency != shop["currency"] or rng.random() < 0.3:
        args["currency"] = currency
        said = rng.choice([f", billed in {CURRENCY_NAMES[currency]}", f" (billing currency {currency})"])
    if rng.random() < 0.5:
        return Ask(args, refs=refs, say=rng.choice([f"Please add {name} as a new customer{said}.",
                                         f"We just signed {name}; set them up as a customer{said}.",
                                         f"Could you create a customer record for {name}{said}?"]),
                   detail=rng.choice([f"Their email is {email}.", f"Invoices should go to {email}.",
                                      f"Email: {email}."]),
                   terse=f"New customer {name}, {email}{said}.", mentions=(name, email))
    return Ask(args, say=rng.choice([f"Please add a new customer: {name}, {email}{said}.",
                                     f"We've got a new client, {name}. Set them up with the email {email}{said}.",
                                     f"Could you create a customer record for {name} at {email}{said}?",
                                     f"I'd like {name} added as a customer, email {email}{said}."]),
               terse=f"New customer {name}, {email}{said}.", refs=refs, mentions=(name, email))


@goals.add("create_invoice", 0.8)
def create_invoice(b: Bundle, rng: random.Random) -> Ask | None:
    today = b["now"].date()
    due = today + dt.timedelta(days=rng.choice([7, 14, 21, 30, 45]))
    project = rng.choice(PROJECTS[b["merchant"]["invoice_prefix"]])
    who = _who(b)
    args = {"customer_id": b["customer"]["customer_id"], "description": project, "due_date": due.isoformat()}
    when = day(due) if due.year == today.year else f"{day(due)}, {due.year}"
    return Ask(args, say=rng.choice([f"Start a draft invoice for {who} for the '{project}' work.",
                                     f"Please open a new draft invoice for {who}, description '{project}'.",
                                     f"I need to bill {who} for '{project}'. Can you set up a draft invoice?",
                                     f"Could you create an invoice draft for {who}? Call it '{project}'.",
                                     f"We're starting the '{project}' job for {who}, so I'd like a draft invoice for it.",
                                     f"Set up a blank invoice for {who} titled '{project}'; I'll add the lines later.",
                                     f"Can we get a draft invoice going for {who}? It's for '{project}'."]),
               detail=rng.choice([f"It should be due {when}.", f"Make it due on {when}.", f"Due date: {when}.",
                                  f"Payment is due {when}.", f"Give them until {when} to pay.",
                                  f"The due date is {when}.", f"Let's say it's due by {when}."]),
               terse=f"Draft invoice for {who}, '{project}', due {when}.", refs=(_customer(b),),
               mentions=(who, project, day(due)))


@goals.add("add_line_item", 2.0)
@_listing
def add_line_item(b: Bundle, rng: random.Random) -> Ask | None:
    drafts = _role(b, "edit", b["invoices"], "invoice_id")
    if not drafts:
        return None
    invoice = rng.choice(drafts)
    description, usd, plural = rng.choice(WORK[b["merchant"]["invoice_prefix"]])
    unit = usd if invoice["currency"] == "USD" else float(round(usd * {"EUR": 0.92, "GBP": 0.79, "CAD": 1.37}[invoice["currency"]]))
    quantity = rng.choice([1, 2, 3, 4, 6, 10])
    name, number, price = invoice_name(b, invoice, rng), invoice["number"], cash(unit, invoice["currency"])
    draft = draft_name(b, invoice, rng)
    # one item is the tool's default quantity: a call that leaves it out does the same
    args = {"invoice_id": invoice["invoice_id"], "description": description, "unit_amount": unit,
            **({"quantity": quantity} if quantity > 1 else {})}
    what = f"{quantity} {plural}" if quantity > 1 else f"one '{description}'"
    return Ask(args, say=rng.choice([f"Add {what} to {draft}.",
                                     f"Please put {what} on {name}; it's still a draft.",
                                     f"Could you bill {what} on {draft}?"]),
               # one item is named by its line already: the detail then gives only the price
               detail=rng.choice([f"Use the line '{description}' at {price} each.",
                                  f"The line is '{description}', {price} per unit.",
                                  f"Call the line '{description}', priced at {price} each."] if quantity > 1 else
                                 [f"It's {price}.", f"Price it at {price}.", f"Charge {price} for it."]),
               terse=f"Add {quantity} x '{description}' at {price} to {name}.",
               refs=_invoice_refs(b, invoice), mentions=(number, description, price))


@goals.add("finalize_invoice", 2.5)
@_listing
def finalize_invoice(b: Bundle, rng: random.Random) -> Ask | None:
    drafts = _role(b, "finalize", b["invoices"], "invoice_id")
    if not drafts:
        return None
    invoice = rng.choice(drafts)
    name, number = invoice_name(b, invoice, rng), invoice["number"]
    plain = invoice_name(b, invoice, rng, plain=True)
    facts = None
    say = rng.choice([f"Please finalize {name}; it's ready.",
                      f"Finalize {draft_name(b, invoice, rng)} so it can be paid.",
                      f"Could you finalize {plain}? {_who(b)} is expecting it.",
                      f"We're done editing {name}. Make it final, please."])
    if rng.random() < 0.3:
        say = rng.choice([f"Finalize {name} and tell me the total it comes to.",
                          f"Please finalize {draft_name(b, invoice, rng)}; what's the final amount due?"])
        facts = lambda r: [r["amount_due"]]
    return Ask({"invoice_id": invoice["invoice_id"]}, say=say,
               terse=f"Finalize {name}" + ("; amount due?" if facts else "."),  # the terse one asks the same
               refs=_invoice_refs(b, invoice), mentions=(number,), facts=facts)


@goals.add("void_invoice", 1.3)
@_listing
def void_invoice(b: Bundle, rng: random.Random) -> Ask | None:
    invoices = _role(b, "void", b["invoices"], "invoice_id")
    if not invoices:
        return None
    invoice = rng.choice(invoices)
    name, number = invoice_name(b, invoice, rng), invoice["number"]
    plain = invoice_name(b, invoice, rng, plain=True)
    return Ask({"invoice_id": invoice["invoice_id"]},
               say=rng.choice([f"Please void {name}; we sent it by mistake.",
                               f"The client, {_who(b)}, cancelled the project, so void {plain}.",
                               f"Can you void {name}? It won't be paid.",
                               f"I need {name} voided. We agreed to waive it."]),
               terse=f"Void {name}.", refs=_invoice_refs(b, invoice), mentions=(number,))


def _card_choice(b: Bundle, rng: random.Random) -> tuple[dict | None, str]:
    """The card to charge (None: the default) and how the request says it."""
    default = next((c for c in b["cards"] if c["default"]), None)
    others = [c for c in b["cards"] if c["usable"] and not c["default"] and _named_card(b, c)]
    if others and rng.random() < 0.5:
        card = rng.choice(others)
        return card, card_name(card, rng)
    if default is None or not default["usable"]:
        return None, ""
    return None, rng.choice(["their card on file", "the default card", f"{_whose(b)} default card"])


@goals.add("pay_invoice", 1.4)
@_listing
def pay_invoice(b: Bundle, rng: random.Random) -> Ask | None:
    invoices = _role(b, "pay", b["invoices"], "invoice_id")
    if not invoices:
        return None
    invoice = rng.choice(invoices)
    card, card_words = _card_choice(b, rng)
    if not card_words:
        return None
    name, number = invoice_name(b, invoice, rng), invoice["number"]
    plain = invoice_name(b, invoice, rng, plain=True)
    args: dict[str, Any] = {"invoice_id": invoice["invoice_id"]}
    refs: tuple[Ref, ...] = _invoice_refs(b, invoice)
    mentions: tuple[str, ...] = (number,)
    detail = None
    if card is not None:
        args["card_id"] = card["card_id"]
        refs += (_card_ref(b, card),)
        mentions += (card["last4"],)
        if rng.random() < 0.6:
            detail = rng.choice([f"Use {card_words}.", f"Charge {card_words}.", f"It goes on {card_words}."])
            # the card is held back: the words ask for a choice ("their card" would read as the default
            # card, which pay_invoice charges when none is named)
            card_words = rng.choice(["one of their saved cards", "one of the cards on file"])
    key = ""
    if rng.random() < 0.3:
        args["idempotency_key"] = f"pay-{number.lower()}"
        key = rng.choice([f" Use the idempotency key {args['idempotency_key']}.",
                          f" Send it with idempotency key {args['idempotency_key']} so it can't go through twice."])
        mentions += (args["idempotency_key"],)
    due = cash(invoice["amount_due"], invoice["currency"])
    say = rng.choice([f"Please charge {name} to {card_words}.{key}",
                      f"We've been asked by {_who(b)} to collect {plain} now; put the {due} on {card_words}.{key}",
                      f"Could you take payment for {name} with {card_words}?{key}",
                      f"Go ahead and charge {card_words} for {name}.{key}"])
    terse = f"Charge {name} to {detail[:-1].split(' ', 1)[1] if detail else card_words}.{key}"
    return Ask(args, say=_named_once(b, say), terse=_named_once(b, terse), detail=detail, refs=refs,
               mentions=mentions)


def _named_once(b: Bundle, text: str) -> str:
    """A sentence that names the customer already says 'their default card' (or 'the default card'
    before the name), not their name again; and 'their' never comes before the name it stands for
    ('charge the card on file for Robert Smith's invoice', not 'their card on file')."""
    whose = f"{_whose(b)} default card"
    if whose in text and text.count(_who(b)) > 1:
        said = "their" if text.index(_who(b)) < text.index(whose) else "the"
        text = text.replace(whose, f"{said} default card")
    head, named, tail = text.partition(_who(b))
    if named:
        head = head.replace(" a card they have on file ", " a card on file ").replace(" their ", " the ")
    return head + named + tail


@goals.add("authorize_payment", 1.3)
@_listing
def authorize_payment(b: Bundle, rng: random.Random) -> Ask | None:
    invoices = _role(b, "authorize", b["invoices"], "invoice_id")
    if not invoices:
        return None
    invoice = rng.choice(invoices)
    card, card_words = _card_choice(b, rng)
    if not card_words:
        return None
    name, number = invoice_name(b, invoice, rng), invoice["number"]
    args: dict[str, Any] = {"invoice_id": invoice["invoice_id"]}
    refs: tuple[Ref, ...] = _invoice_refs(b, invoice)
    mentions: tuple[str, ...] = (number,)
    if card is not None:
        args["card_id"] = card["card_id"]
        refs += (_card_ref(b, card),)
        mentions += (card["last4"],)
    say = rng.choice([f"Put a hold on {card_words} for {name}; we'll capture it once the work is delivered.",
                      f"Please authorise {card_words} for the amount of {name}, but don't capture yet.",
                      f"Could you reserve the funds for {name} on {card_words}? Just an authorisation for now."])
    return Ask(args, say=_named_once(b, say), terse=_named_once(b, f"Authorise {name} on {card_words}, no capture."),
               refs=refs, mentions=mentions)


@goals.add("capture_payment", 2.5)
@_listing
def capture_payment(b: Bundle, rng: random.Random) -> Ask | None:
    payments = [p for p in _role(b, "capture", b["payments"], "payment_id") if _single_payment(b, p)]
    if not payments:
        return None
    payment = rng.choice(payments)
    number, currency = payment["invoice_number"], payment["currency"]
    held = cash(payment["amount"], currency)
    args: dict[str, Any] = {"payment_id": payment["payment_id"]}
    refs = _payment_refs(b, payment)
    if rng.random() < 0.35 and payment["amount"] >= 20:
        part = float(int(payment["amount"] * rng.choice([0.5, 0.6, 0.75])))
        args["amount"] = part
        said = cash(part, currency)
        if rng.random() < 0.5:
            return Ask(args, say=rng.choice([f"We only delivered part of the work on invoice {number} for {_who(b)}. "
                                             "Capture part of the hold and release the rest.",
                                             f"Please do a partial capture of {_whose(b)} {held} hold on invoice {number}."]),
                       detail=rng.choice([f"Capture {said}.", f"Take {said} of it.", f"{said} is what we're owed."]),
                       terse=f"Capture {said} of the hold on {_whose(b)} invoice {number}.", refs=refs, mentions=(number, said))
        return Ask(args, say=rng.choice([f"Capture only {said} of {_whose(b)} {held} hold for invoice {number}; we delivered part of the work.",
                                         f"For invoice {number} ({_who(b)}), take {said} of the authorised amount and release the rest."]),
                   terse=f"Capture {said} of the hold on {_whose(b)} invoice {number}.", refs=refs, mentions=(number, said))
    return Ask(args, say=rng.choice([f"The work for invoice {number} is delivered; capture {_whose(b)} {held} authorisation.",
                                     f"Please capture the held payment of {held} on {_whose(b)} invoice {number}.",
                                     f"Go ahead and collect the authorised {held} from {who_card(b, payment)} for invoice {number}."]),
               terse=f"Capture the hold on {_whose(b)} invoice {number}.", refs=refs, mentions=(number,))


def who_card(b: Bundle, payment: dict) -> str:
    return f"{_whose(b)} {payment['card'].split(' ending ')[0].capitalize()}"


@goals.add("cancel_payment", 2.2)
@_listing
def cancel_payment(b: Bundle, rng: random.Random) -> Ask | None:
    payments = [p for p in _role(b, "cancel", b["payments"], "payment_id") if _single_payment(b, p)]
    if not payments:
        return None
    payment = rng.choice(payments)
    number, held = payment["invoice_number"], cash(payment["amount"], payment["currency"])
    refs = _payment_refs(b, payment)
    if payment["status"] == "expired":
        # a lapsed hold holds nothing on the card any more: "release the hold" would have two right
        # answers (cancel it, or say it already lapsed), so the user says it lapsed and asks to close it
        return Ask({"payment_id": payment["payment_id"]},
                   say=rng.choice([f"The card hold on {_whose(b)} invoice {number} expired before we captured it. "
                                   f"Please cancel that authorisation so it's closed off.",
                                   f"The authorisation for {_whose(b)} invoice {number} lapsed without a capture; cancel "
                                   f"it, please, so it isn't left hanging.",
                                   f"We never captured the {held} authorisation for {_whose(b)} invoice {number} and "
                                   f"it has expired. Cancel it, please."]),
                   terse=f"Cancel the expired authorisation on {_whose(b)} invoice {number}.", refs=refs,
                   mentions=(number,))
    return Ask({"payment_id": payment["payment_id"]},
               say=rng.choice([f"Release the {held} hold on {_whose(b)} card for invoice {number}; we won't capture it.",
                               f"Please cancel the uncaptured authorisation for {_whose(b)} invoice {number}.",
                               f"We were asked by {_who(b)} to drop the card hold for invoice {number}. Cancel it, please."]),
               terse=f"Cancel the authorisation on {_whose(b)} invoice {number}.", refs=refs,
               mentions=(number,))


@goals.add("refund_payment", 1.4)
@_listing
def refund_payment(b: Bundle, rng: random.Random) -> Ask | None:
    payments = [p for p in _role(b, "refund", b["payments"], "payment_id") if _single_payment(b, p)]
    if not payments:
        return None
    payment = rng.choice(payments)
    number, currency = payment["invoice_number"], payment["currency"]
    left = round(payment["amount_captured"] - payment["amount_refunded"], 2)
    what = _payment_words(b, payment, rng)
    plain = _payment_words(b, payment, rng, plain=True)
    refs = _payment_refs(b, payment)
    args: dict[str, Any] = {"payment_id": payment["payment_id"]}
    if rng.random() < 0.55 and left >= 20:
        part = float(rng.choice([s for s in (10, 20, 25, 40, 50, 75, 100, 150, 200, 250) if s < left] or [10]))
        args["amount"] = part
        said = cash(part, currency)
        key = ""
        if rng.random() < 0.3:
            args["idempotency_key"] = f"refund-{number.lower()}-{int(part)}"
            key = f" Idempotency key: {args['idempotency_key']}."
        return Ask(args, say=rng.choice([f"Please give {_who(b)} a partial refund on {plain}.",
                                         f"We owe {_who(b)} some money back on {plain}. Refund part of it.",
                                         f"Issue a partial refund for {what}, please."]),
                   detail=rng.choice([f"Just {said}.{key}", f"Make it {said}.{key}", f"The amount is {said}.{key}"]),
                   terse=f"Refund {said} of {what}.{key}", refs=refs, mentions=(number, said))
    if rng.random() < 0.3:
        args["reason"] = "duplicate"
        return Ask(args, say=rng.choice([f"Because {_who(b)} was charged twice, refund {plain} in full as a duplicate.",
                                         # "all that's left" only of a payment partly refunded already
                                         f"Refund all that's left of {what}; mark it as a duplicate charge."
                                         if payment["amount_refunded"] > 0 else
                                         f"Refund the whole of {what}; mark it as a duplicate charge."]),
                   terse=f"Full refund of {what}, reason duplicate.", refs=refs, mentions=(number, "duplicate"))
    # "whatever is left", "still refundable" only of a payment partly refunded already (seed 139)
    rest = payment["amount_refunded"] > 0
    return Ask(args, say=rng.choice([f"Please refund {what} in full.",
                                     f"We're giving {_who(b)} all their money back on invoice {number}; "
                                     + ("refund whatever is left of the payment." if rest else "refund the whole payment."),
                                     f"Refund everything still refundable on {what}, please." if rest else
                                     f"Refund all of {what}, please."]),
               terse=f"Full refund of {what}.", refs=refs, mentions=(number,))


@goals.add("create_webhook_endpoint", 0.7)
def create_webhook_endpoint(b: Bundle, rng: random.Random) -> Ask | None:
    url, who, label = rng.choice(NEW_ENDPOINTS)
    url = url.format(shop=b["merchant"]["invoice_prefix"].lower())
    if any(e["url"] == url for e in b["endpoints"]):
        return None
    kinds = rng.choice([["invoice.paid"], ["invoice.paid", "refund.created"], ["*"],
                        ["payment.captured", "refund.created"], ["invoice.finalized", "invoice.voided"]])
    args: dict[str, Any] = {"merchant_id": b["merchant"]["merchant_id"], "url": url, "events": kinds}
    said = "every event" if kinds == ["*"] else listing(kinds)
    if rng.random() < 0.4:
        args["description"] = label
        named = f", described as '{label}'"
    else:
        named = ""
    return Ask(args, say=rng.choice([f"Please register a webhook endpoint for {who} at {url}{named}.",
                                     f"Set up a new webhook pointing to {url} for {who}{named}.",
                                     f"We need {who} to get payment events: add an endpoint at {url}{named}."]),
               detail=rng.choice([f"It should receive {said}.", f"Subscribe it to {said}.", f"Send it {said}."]),
               terse=f"New webhook {url}{named}, events: {said}.", refs=(_merchant(b),),
               mentions=(url,) + tuple(k for k in kinds if k != "*"))


@goals.add("update_webhook_endpoint", 0.9)
def update_webhook_endpoint(b: Bundle, rng: random.Random) -> Ask | None:
    change = b["endpoint_change"]
    if change is None:
        return None
    endpoint, desc = change["endpoint"], change["endpoint"]["description"]
    args = {"endpoint_id": endpoint["endpoint_id"], **change["args"]}
    refs = (_endpoint_ref(b, endpoint),)
    if change["what"] == "enable":
        return Ask(args, say=rng.choice([f"Turn the {desc} webhook back on, please.",
                                         f"Please re-enable the {desc} endpoint.",
                                         f"We need the {desc} webhook again; enable it."]),
                   terse=f"Enable the {desc} webhook.", refs=refs, mentions=(desc,))
    if change["what"] == "disable":
        return Ask(args, say=rng.choice([f"Please disable the {desc} webhook for now.",
                                         f"Pause the {desc} endpoint; we're migrating it.",
                                         f"Switch off event delivery to {desc}, please."]),
                   terse=f"Disable the {desc} webhook.", refs=refs, mentions=(desc,))
    added = change["added"]
    return Ask(args, say=rng.choice([f"The {desc} webhook should get {added} events too, besides the ones it gets now.",
                                     f"Subscribe the {desc} endpoint to {added} as well, please.",
                                     f"Could the {desc} webhook receive {EVENT_WORDS[added]} ({added}) too?"]),
               terse=f"Add {added} to the {desc} webhook.", refs=refs, mentions=(desc, added))


@goals.add("retry_delivery", 1.0)
def retry_delivery(b: Bundle, rng: random.Random) -> Ask | None:
    delivery = next((d for d in b["retryable"] + b["blocked"] if d["delivery_id"] == b["resend"]), None)
    if delivery is None:
        return None
    endpoint = delivery["endpoint"]
    desc, summary = endpoint["description"], delivery["event_summary"]
    ref = Ref("delivery", delivery["delivery_id"], delivery, _endpoint_ref(b, endpoint))
    if not endpoint["enabled"]:
        return Ask({"delivery_id": delivery["delivery_id"]},
                   say=rng.choice([f"We switched off the {desc} webhook while it was failing, so it never got "
                                   f"'{summary}'. Turn it back on and resend that event.",
                                   f"Please re-enable the {desc} endpoint and send it '{summary}' again; it failed "
                                   "before we disabled it.",
                                   f"The {desc} endpoint is fixed now. Enable it again and resend the failed "
                                   f"'{summary}' delivery."]),
                   terse=f"Enable {desc}, then resend '{summary}'.", refs=(ref,), mentions=(summary, desc),
                   prior=(("update_webhook_endpoint", {"endpoint_id": endpoint["endpoint_id"], "enabled": True}),))
    return Ask({"delivery_id": delivery["delivery_id"]},
               # "rather than wait for the next automatic try" only where one is due: else it is given up
               say=rng.choice([f"The {desc} webhook failed to deliver '{summary}'. Please send it again.",
                               f"Retry the failed delivery of '{summary}' to {desc}, please.",
                               f"It seems {desc} never got the event '{summary}'. Can you resend it now rather than "
                               "wait for the next automatic try?" if delivery["next_retry_at"] else
                               f"It seems {desc} never got the event '{summary}'. Can you resend it now?"]),
               terse=f"Retry '{summary}' to {desc}.", refs=(ref,), mentions=(summary,))


@goals.add("list_merchants", 0.6)
def list_merchants(b: Bundle, rng: random.Random) -> Ask | None:
    shop = b["merchant"]
    name = shop["name"]
    if rng.random() < 0.5:
        return Ask({"name": name},
                   say=rng.choice([f"Which currencies can {name} bill its customers in?",
                                   f"What currencies does {name} invoice in on the platform?"]),
                   terse=f"Currencies of {name}?", mentions=(name,),
                   facts=lambda r: [currency_said(c) for c in r[0]["currencies"]])
    return Ask({"name": name},
               say=rng.choice([f"What prefix do {name}'s invoice numbers start with, and what email do its customers "
                               "write to?",
                               f"Remind me of {name}'s invoice number prefix and its contact email."]),
               terse=f"Invoice prefix and email of {name}?", mentions=(name,),
               facts=lambda r: [r[0]["invoice_prefix"], r[0]["email"]])


# -- requests only a hidden tool could serve ----------------------------------------------------------

def decline_request(b: Bundle, rng: random.Random) -> str | None:
    cards = [c for c in b["cards"] if not c["expired"] and _named_card(b, c)]
    if not cards:
        return None
    card = rng.choice(cards)
    return rng.choice([f"Before I charge {_who(b)}, tell me whether the issuer is going to decline {card_name(card, rng)}.",
                       f"Look up the decline code {_whose(b)} bank has set on {card_name(card, rng)}, please.",
                       f"Can you predict whether {_who(b)} will be declined on {card_name(card, rng)}? Check the "
                       "issuer's code."])


# How staff say which merchant they work for: a greeting (or none) and a role, drawn per conversation.
_HELLO = ("", "Hi, ", "Hello, ", "Good morning, ", "Hi there, ", "Hey, ", "Afternoon, ")
_AT_MERCHANT = ("I work in the billing office at {name}.", "This is the accounts desk at {name}.",
                "I handle payments for {name}.", "I'm calling from {name}.", "I look after {name}'s billing.",
                "This is about our merchant account, {name}.", "{name} billing here.", "I'm on the team at {name}.",
                "I do the books for {name}.", "It's the front office at {name}.", "Writing on behalf of {name}.",
                "We're {name} on your platform.")
_AT_MERCHANT_TERSE = ("This is {name}.", "Merchant: {name}.", "For {name}.", "{name} account.", "{name} billing.",
                      "Re {name}.", "Account: {name}.")


def _at_merchant(ref: Ref) -> tuple[str, str]:
    name, voice = ref.entity["name"], ref.entity["voice"]
    hello = _HELLO[voice % len(_HELLO)]
    role = _AT_MERCHANT[voice // len(_HELLO) % len(_AT_MERCHANT)]
    if hello and not role.startswith(("I ", "I'", "{name}")):
        role = role[0].lower() + role[1:]
    return hello + role.format(name=name), _AT_MERCHANT_TERSE[voice % len(_AT_MERCHANT_TERSE)].format(name=name)


# Tools that do one another's job for some request (an invoice's totals and payments show in the
# invoice list, the payment list and the event log; a customer's default card in their profile; the
# profile's totals are in no search): a missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("get_invoice", "list_invoices", "list_payments", "list_events"),
    ("list_payment_methods", "get_customer"),
    # a customer's totals (paid, refunded, outstanding) are sums of what these list: their payments'
    # captures and refunds, their refunds, the amounts of their payment and refund events, their open invoices
    ("get_customer", "list_payments", "list_invoices", "list_refunds", "list_events"),
    # a hold captured in full pays the invoice, as pay_invoice does: neither is shown while it is missing
    ("pay_invoice", "authorize_payment", "capture_payment"),
    # the endpoints with automatic retries queued, and how many each, show in the failed deliveries:
    # each failed attempt names its endpoint and the time its retry is due
    ("list_webhook_endpoints", "list_deliveries"),
    # the event log lists every endpoint a merchant registered (webhook_endpoint.created) and each one
    # disabled since (webhook_endpoint.updated): added up, it counts the endpoints and names the disabled
    ("list_webhook_endpoints", "list_events"),
)


recipe = Recipe(
    server="payments",
    sample=sample,
    topics=("banking", "shopping", "payments"),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("merchant", "list_merchants", args=lambda r: {"name": r.entity["name"]}, intro=_at_merchant),
        # a customer's entry shows their merchant's id: no look-up of the merchant after it
        Lookup("customer", "find_customers",
               args=lambda r: {"name": r.entity["name"], **({"merchant_id": r.owner.key} if r.owner else {})},
               settles=_merchant_shown),
        Lookup.under("card", "list_payment_methods"),
        # an invoice is named by its number, which finds it alone: no look-up of its customer first
        # (its result shows the merchant's and the customer's ids: no look-up of either after it)
        Lookup("invoice", "list_invoices", args=lambda r: {"number": r.entity["number"]}, needs=lambda r: (),
               settles=_owners_shown),
        # a payment under its customer or invoice, or a hold on the list of the payments in its status
        Lookup("payment", "list_payments",
               args=lambda r: {f"{r.owner.kind}_id": r.owner.key} if r.owner else {"status": r.entity["status"]},
               settles=_owners_shown),
        # an endpoint the user names is their merchant's: its entry shows the merchant's id
        Lookup("endpoint", "list_webhook_endpoints", args=lambda r: {"merchant_id": r.owner.key} if r.owner else {},
               settles=_merchant_shown),
        Lookup("event", "list_events", args=lambda r: {"invoice_id": r.owner.key}),
        Lookup("delivery", "list_deliveries", args=lambda r: {"endpoint_id": r.owner.key, "status": "failed"}),
    ),
    hidden=(HiddenAsk("get_card_decline_code", decline_request),),
)
