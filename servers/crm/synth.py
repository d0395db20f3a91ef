"""How tasks are written for the CRM: sales reps who introduce themselves by name and talk about
their leads, deals, companies, contacts and tasks the way a rep does ("my lead Wei Chen from
Initech", "the training package deal with Cross Ltd", "the 'Send proposal' task for Maria Lopez").

Each active rep's slice of the world is a bundle. Open leads and open deals each get one role in a
bundle (a lead is advanced, disqualified or converted; a deal changes stage or has its terms edited),
by a stable hash of its id, so that two requests of one conversation never act on the same record in
ways that exclude each other. The open leads and deals of a rep who left the team are taken over:
by a stable hash, one is only reassigned, another reassigned to the asker and then converted or
moved along the pipeline. Only new leads and deals whose terms are edited are handed to a
colleague. Duplicate contacts are only ever merged. Every request comes in
several phrasings (plain, polite, chatty, indirect, terse); read-only requests declare the facts
their answer must state.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from prove_env.facts import NOTHING, one_of
from prove_env.synthesis.recipe import Ask, Goals, HiddenAsk, Lookup, Reader, Recipe, Ref
from prove_env.synthesis.wording import article, day, full_date, money, month, relative_day, stable

from .seed import OPEN_STAGES, PRODUCTS, STAGES

Bundle = dict[str, Any]

NEW_PEOPLE = (("Priya", "Raman", "VP of Sales"), ("Lukas", "Brandt", "CTO"), ("Aisha", "Okafor", "CFO"),
              ("Mateo", "Alvarez", "IT Manager"), ("Hannah", "Kowalski", "Procurement Manager"),
              ("Kenji", "Watanabe", "Head of IT"), ("Sofia", "Marchetti", "Operations Manager"),
              ("Omar", "Haddad", "Marketing Director"), ("Greta", "Lindqvist", "Product Manager"),
              ("Tobias", "Fischer", "Office Manager"))
NEW_LEAD_COMPANIES = ("Northwind Traders", "Bluewave Analytics", "Summit Robotics", "Pinecrest Dental Group",
                      "Harbor Logistics", "Brightline Solar", "Copperleaf Foods", "Ironbridge Capital")
SOURCES = ("web", "referral", "event", "cold_call", "partner")
STAGE_WORDS = {"prospecting": "prospecting", "qualification": "qualification", "proposal": "proposal",
               "negotiation": "negotiation", "closed_won": "closed won", "closed_lost": "closed lost"}
LOST_REASONS = ("Went with a competitor", "No budget this year", "Price too high", "Project cancelled")
DISQUALIFY = ("No budget", "Not a fit", "Unresponsive", "Too small for us")
CALL_SUBJECTS = ("Pricing discussion", "Follow-up call", "Check-in call", "Renewal discussion", "Intro call")
MEETING_SUBJECTS = ("Product demo", "Quarterly review", "Contract review", "Kickoff meeting")
NOTE_SUBJECTS = ("Budget approved for next quarter", "Prefers email over calls", "Evaluating two vendors",
                 "Decision expected next month")
TASK_SUBJECTS = ("Send proposal", "Send pricing sheet", "Schedule demo", "Follow up on contract", "Prepare quote",
                 "Share case study", "Book on-site visit")


# -- sampling ------------------------------------------------------------------------------------

def sample(read: Reader, now: dt.datetime, rng: random.Random) -> list[Bundle]:
    """Every active rep, with the leads, deals, companies, contacts and open tasks they can name
    unambiguously, the colleagues they can name, and the open leads and deals of reps who left."""
    reps = read("find_reps")
    named = [r for r in reps if len(read("find_reps", name=r["name"])) == 1]
    orphans = _orphans(read, [r for r in named if not r["active"]])
    bundles = []
    for rep in named:
        if not rep["active"]:
            continue
        colleagues = [r for r in named if r["active"] and r["rep_id"] != rep["rep_id"]]
        rep = {**rep, "me": True}
        rid = rep["rep_id"]
        leads = [lead for lead in read("list_leads", owner_id=rid)
                 if len(read("list_leads", name=lead["name"])) == 1]
        deals = read("list_deals", owner_id=rid)
        companies: dict[str, dict] = {}
        for company in read("search_companies", owner_id=rid, limit=100):
            companies[company["company_id"]] = company
        for deal in deals:
            if deal["company_id"] not in companies:
                companies[deal["company_id"]] = read("get_company", company_id=deal["company_id"])
        named_companies, contacts, duplicates = [], [], []
        for cid in sorted(companies):
            full = read("get_company", company_id=cid)
            if len(read("search_companies", name=full["name"])) != 1:
                continue
            named_companies.append(full)
            by_name: dict[str, list[dict]] = {}
            for person in full["contacts"]:
                by_name.setdefault(person["name"], []).append(person)
            for name, people in by_name.items():
                if len(people) == 2 and len(read("search_contacts", name=name)) == 2:
                    duplicates.append(people)
                elif len(people) == 1 and len(read("search_contacts", name=name)) == 1:
                    contacts.append(people[0])
        company_names = {c["company_id"]: c["name"] for c in named_companies}
        deals = [d for d in deals if d["company_id"] in company_names and _one_named(read, d)]
        known = {c["contact_id"]: c for c in contacts}
        tasks, history = [], {}
        for task in read("list_activities", rep_id=rid, open_tasks_only=True):
            if task["contact_id"] in known:
                tasks.append({**task, "rep": rep})
        for person in contacts:
            history[person["contact_id"]] = read("list_activities", contact_id=person["contact_id"])
        moved = set()  # deals whose stage changed since they opened: "its last stage change" presumes one
        for deal in deals:
            history[deal["deal_id"]] = read("list_activities", deal_id=deal["deal_id"])
            if len(read("get_deal", deal_id=deal["deal_id"])["stage_history"]) > 1:
                moved.add(deal["deal_id"])
        tasks = [t for t in tasks if sum(a["subject"] == t["subject"] and a["kind"] == "task"
                                         for a in history[t["contact_id"]]) == 1]
        bundles.append({"now": now, "rep": rep, "leads": leads, "deals": deals, "companies": named_companies,
                        "contacts": contacts, "duplicates": duplicates, "tasks": tasks, "history": history,
                        "moved": moved,
                        "owned": [c for c in named_companies if c["owner_id"] == rid], "colleagues": colleagues,
                        **orphans})
    return bundles


def _orphans(read: Reader, gone: list[dict]) -> dict[str, list[dict]]:
    """The open leads and deals of reps who left, named unambiguously (a deal by its company), each
    with the rep it belonged to."""
    leads, deals = [], []
    for rep in gone:
        for lead in read("list_leads", owner_id=rep["rep_id"], limit=100):
            if lead["status"] in ("new", "contacted", "qualified") and len(read("list_leads", name=lead["name"])) == 1:
                leads.append({**lead, "left": rep})
        for deal in read("list_deals", owner_id=rep["rep_id"], limit=100):
            if deal["stage"] in OPEN_STAGES and len(read("search_companies", name=deal["company_name"])) == 1 \
                    and _one_named(read, deal):
                deals.append({**deal, "left": rep})
    return {"orphan_leads": leads, "orphan_deals": deals}


def _one_named(read: Reader, deal: dict) -> bool:
    """No other deal has this deal's name: 'our new business deal with Rivera Hawkins and Wood' would not
    say which of two deals called 'Rivera Hawkins and Wood - new business' is meant, whoever owns them."""
    same = read("list_deals", name=deal["name"], limit=100)
    return sum(d["name"].lower() == deal["name"].lower() for d in same) == 1


# -- roles and names -----------------------------------------------------------------------------

def _role(key: str, roles: int) -> int:
    return zlib.crc32(key.encode()) % roles


def _rep(b: Bundle) -> Ref:
    return Ref.of("rep", b["rep"])


def _lead(b: Bundle, lead: dict) -> Ref:
    return Ref.of("lead", lead, _rep(b))


def _deal(b: Bundle, deal: dict, said: str = "") -> Ref:
    """The deal a request names in `said`: one named by its full name in quotes ("the 'Orozco-Bush -
    Security review' deal") is looked up by that name, as a person searching for it would type it,
    any other by its company's name ("the security review deal with Orozco-Bush")."""
    return Ref.of("deal", {**deal, "quoted": True} if _quoted(deal, said) else deal, _rep(b))


def _quoted(deal: dict, said: str) -> bool:
    return f"'{deal['name']}'" in said


def _deal_search(deal: dict, said: str = "") -> str:
    """What a search of the deals by name types for the deal as `said` names it."""
    return deal["name"] if deal.get("quoted") or _quoted(deal, said) else deal["company_name"]


def _company(company: dict) -> Ref:
    return Ref.of("company", company)


def _contact(person: dict) -> Ref:
    return Ref.of("contact", person)


def _open_leads(b: Bundle, role: int) -> list[dict]:
    """Open leads whose role in this bundle is `role`: 0 advance, 1 disqualify, 2 convert."""
    return [lead for lead in b["leads"] if lead["status"] in ("new", "contacted", "qualified")
            and _role(lead["lead_id"], 3) == role]


def _open_deals(b: Bundle, role: int) -> list[dict]:
    """Open deals whose role is `role`: 0 a stage change, 1 an edit of amount, date or probability."""
    return [d for d in b["deals"] if d["stage"] in ("prospecting", "qualification", "proposal", "negotiation")
            and _role(d["deal_id"], 2) == role]


def deal_name(deal: dict, rng: random.Random | None = None) -> str:
    company, _, product = deal["name"].partition(" - ")
    forms = [f"the {product.lower()} deal with {company}", f"the {company} {product.lower()} deal",
             f"the '{deal['name']}' deal", f"our {product.lower()} deal with {company}"]
    return rng.choice(forms) if rng else forms[0]


def deal_facts(deals: Sequence[dict], *, of_one_company: bool, n: int = 5) -> list[Any]:
    """The first `n` deals of a listing as facts, each stated by its full name ('Parker Ltd - Training
    package') or the way an answer names it: among one company's deals (the user named the company or
    its contact) by its product ('Training package'); among several companies' by its company where no
    other listed deal is with it ('the training package deal with Parker Ltd'), else by its product
    beside the company's name ('Parker Ltd: training package and new business')."""
    of_one_company = of_one_company and len({d["company_name"] for d in deals}) == 1

    def short(deal: dict) -> list[str]:
        company, sep, product = deal["name"].partition(" - ")
        if not sep:
            return []
        alone = sum(d["name"].startswith(company + " - ") for d in deals) == 1
        return [product] if of_one_company or not alone else [company]

    return [one_of(deal["name"], *short(deal)) for deal in deals[:n]]


def _when(d: dt.date, now: dt.datetime) -> str:
    return day(d) if d.year == now.year else full_date(d)


def _today(b: Bundle) -> dt.date:
    return b["now"].date()


def _future_day(b: Bundle, rng: random.Random, low: int, high: int) -> dt.date:
    return _today(b) + dt.timedelta(days=rng.randint(low, high))


def _month_end(b: Bundle, rng: random.Random) -> dt.date:
    """The last day of a month one to five months ahead."""
    today = _today(b)
    ahead = rng.randint(1, 5)
    year, mon = today.year + (today.month - 1 + ahead) // 12, (today.month - 1 + ahead) % 12 + 1
    nxt = dt.date(year + (mon == 12), mon % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


# -- goals: leads --------------------------------------------------------------------------------

goals = Goals()


@goals.add("list_leads", 0.8)
def list_leads(b: Bundle, rng: random.Random) -> Ask | None:
    statuses = Counter(lead["status"] for lead in b["leads"])
    options = [s for s in ("new", "contacted", "qualified") if 0 < statuses[s] <= 8]
    if not options:
        return None
    status = rng.choice(options)
    word = {"new": "new", "contacted": "contacted but not yet qualified", "qualified": "qualified"}[status]
    return Ask({"owner_id": b["rep"]["rep_id"], "status": status},
               say=rng.choice([f"Which of my leads are {word}?", f"Could you list my {status} leads for me?",
                               f"I want to plan my calls. Who among my leads is {word} right now?",
                               f"Pull up my leads with status {status}, please.",
                               f"How many {status} leads do I have, and who are they?"]),
               terse=rng.choice([f"My {status} leads?", f"List my {status} leads."]),
               refs=(_rep(b),), mentions=(status,), facts=lambda r: [x["name"] for x in r[:6]])


@goals.add("create_lead", 0.8)
def create_lead(b: Bundle, rng: random.Random) -> Ask | None:
    first, last, title = rng.choice(NEW_PEOPLE)
    company = rng.choice(NEW_LEAD_COMPANIES)
    slug = company.split()[0].lower()
    email = f"{first[0].lower()}{last.lower()}@{slug}.com"
    source = rng.choice(SOURCES)
    args = {"owner_id": b["rep"]["rep_id"], "first_name": first, "last_name": last, "email": email,
            "company_name": company, "title": title}
    with_source = rng.random() < 0.5
    if with_source:
        args["source"] = source
    said = f"{first} {last}, {title} at {company}"
    origin = ""
    if with_source:
        origin = {"web": " The lead came in through our website.", "referral": " It's a referral.",
                  "event": " I met them at an event.", "cold_call": " It came from a cold call.",
                  "partner": " A partner sent them our way."}[source]
    say = rng.choice([f"Please add a new lead for me: {said}, email {email}.{origin}",
                      f"I've got a new lead to log: {said}. Their email is {email}.{origin}",
                      f"Could you create a lead under my name for {said} ({email})?{origin}",
                      f"New prospect for my pipeline: {said}, reachable at {email}.{origin}"])
    say, detail = _held(rng, say, [f"Please add a new lead for me: {said}.{origin}",
                                   f"I've got a new lead to log under my name: {said}.{origin}"],
                        [f"Their email is {email}.", f"Email: {email}.", f"You can reach them at {email}."])
    return Ask(args, say=say, detail=detail, terse=f"New lead: {first} {last}, {title}, {company}, {email}.{origin}",
               refs=(_rep(b),), mentions=(first, last, title, email, company))


def _my_lead(b: Bundle, lead: dict, say: str) -> tuple[tuple[str, str], ...]:
    """What "my lead X" settles: the lead's record shows its owner, the asker, for certain, so a later
    request of theirs (a task or an activity under their name) takes their rep id from it rather than
    from a search by name. Nothing where the request does not say "my lead" or the lead is another's."""
    owner = b["rep"]["rep_id"]
    return (("rep", owner),) if "my lead" in say.lower() and lead["owner_id"] == owner else ()


@goals.add("update_lead_status")
def update_lead_status(b: Bundle, rng: random.Random) -> Ask | None:
    leads = [lead for lead in _open_leads(b, 0) if lead["status"] in ("new", "contacted")]
    if not leads:
        return None
    lead = rng.choice(leads)
    who = f"{lead['name']} from {lead['company_name']}"

    if lead["status"] == "new":
        say = rng.choice([f"I finally got hold of my lead {who}; please mark them as contacted.",
                          f"Could you set my lead {who} to contacted?",
                          f"I spoke with {who} this morning, so that lead is contacted now.",
                          f"Update the status of the lead {who} to contacted, please."])
        mine = _my_lead(b, lead, say)
        return Ask({"lead_id": lead["lead_id"], "status": "contacted"}, say=say,
                   terse=f"Mark {'my ' * bool(mine)}lead {lead['name']} contacted.", refs=(_lead(b, lead),),
                   mentions=(lead["name"], "contacted"), settles=mine)
    say = rng.choice([f"My lead {who} has budget and a real need. Please mark them qualified.",
                      f"Could you move my lead {who} to qualified?",
                      f"Good call with {who}: they're a qualified lead now, please update it.",
                      f"Set the status of my lead {who} to qualified."])
    mine = _my_lead(b, lead, say)
    return Ask({"lead_id": lead["lead_id"], "status": "qualified"}, say=say,
               terse=f"Qualify {'my ' * bool(mine)}lead {lead['name']}.", refs=(_lead(b, lead),),
               mentions=(lead["name"], "qualif"), settles=mine)


@goals.add("disqualify_lead", 0.8)
def disqualify_lead(b: Bundle, rng: random.Random) -> Ask | None:
    leads = _open_leads(b, 1)
    if not leads:
        return None
    lead, reason = rng.choice(leads), rng.choice(DISQUALIFY)
    who = f"{lead['name']} from {lead['company_name']}"
    say, detail = _held(rng, rng.choice([f"Please disqualify my lead {who}. Reason: '{reason}'.",
                                         f"{who} isn't going anywhere, so disqualify that lead with the reason "
                                         f"'{reason}'.",
                                         f"Could you close out my lead {who} as disqualified? Put '{reason}' as "
                                         "the reason.",
                                         f"I'm dropping the lead {who}; mark it disqualified because of '{reason}'."]),
                        [f"Please disqualify my lead {who}.", f"I'm dropping the lead {who}; disqualify it, please.",
                         f"Could you mark my lead {who} as disqualified?"],
                        [f"The reason is '{reason}'.", f"Reason: '{reason}'.", f"Put down '{reason}' as the reason."])
    mine = _my_lead(b, lead, say)
    return Ask({"lead_id": lead["lead_id"], "reason": reason}, say=say, detail=detail,
               terse=f"Disqualify {'my ' * bool(mine)}lead {lead['name']}: '{reason}'.", refs=(_lead(b, lead),),
               mentions=(lead["name"], reason), settles=mine)


@goals.add("convert_lead", 1.6)
def convert_lead(b: Bundle, rng: random.Random) -> Ask | None:
    taken = [lead for lead in _orphan_leads(b, 1) if lead["status"] == "qualified"]
    if taken and rng.random() < 0.35:
        return _take_over_and_convert(b, rng, rng.choice(taken))
    leads = [lead for lead in _open_leads(b, 2) if lead["status"] in ("contacted", "qualified")]
    leads += [lead for lead in _open_leads(b, 0) if lead["status"] == "qualified"]
    if not leads:
        return None
    lead = rng.choice(leads)
    amount = float(rng.choice([6000, 9500, 12000, 18000, 25000, 40000, 60000]))
    close = _month_end(b, rng)
    cash, on = money(amount), _when(close, b["now"])
    who = f"{lead['name']} from {lead['company_name']}"
    prior: tuple = ()
    lead_in = ""
    if lead["status"] == "contacted":
        prior = (("update_lead_status", {"lead_id": lead["lead_id"], "status": "qualified"}),)
        lead_in = rng.choice(["They're qualified now, so ", "Mark them qualified first, then ",
                              "After you qualify them, "])
    say = rng.choice([f"My lead {who} is ready to buy. {lead_in}convert the lead and open a deal for {cash} "
                      f"closing {on}.",
                      f"Please convert my lead {who}. {lead_in}set the new deal at {cash} with a close date "
                      f"of {on}.",
                      f"Time to turn {who} into a customer: {lead_in}convert the lead, deal worth {cash}, "
                      f"expected to close {on}.",
                      f"Could you convert {who}? {lead_in}the deal should be {cash}, closing on {on}."])
    # "After you qualify them, go ahead." reads backwards: the step comes first in that wording
    go_ahead = lead_in.replace("After you qualify them, ", "Qualify them first, then ")
    say, detail = _held(rng, _capitalize_sentences(say),
                        [_capitalize_sentences(f"Please convert my lead {who}. {lead_in}open a deal for them."),
                         _capitalize_sentences(f"I'd like to convert my lead {who} into a deal."
                                               + (f" {go_ahead}go ahead." if lead_in else "")),
                         # a lead only contacted is qualified first at the user's word, in every wording
                         f"Could you turn my lead {who} into a customer with a deal?"
                         + (" Mark them qualified first." if lead_in else "")],
                        [f"The deal is {cash}, expected to close {on}.", f"Make it {cash}, closing {on}.",
                         f"Put the deal at {cash} with a close date of {on}."])
    return Ask({"lead_id": lead["lead_id"], "amount": amount, "close_date": close.isoformat()}, say=say,
               detail=detail,
               terse=f"{'Qualify and c' if prior else 'C'}onvert lead {lead['name']}: {cash}, close {on}.",
               refs=(_lead(b, lead),),
               mentions=(lead["name"], cash, on), prior=prior)


def _take_over_and_convert(b: Bundle, rng: random.Random, lead: dict) -> Ask:
    """A lead of a rep who left converts only once an active rep owns it: the asker takes it over first."""
    amount = float(rng.choice([8000, 15000, 22000, 30000, 45000]))
    close = _month_end(b, rng)
    cash, on = money(amount), _when(close, b["now"])
    who, gone = f"{lead['name']} from {lead['company_name']}", lead["left"]["name"]
    say = rng.choice([f"I'm taking over {gone}'s old lead {who}, who is ready to buy. Move the lead to me and convert it: "
                      f"a {cash} deal closing {on}.",
                      f"Since {gone} left, I'm taking over their lead {who}. Please make me the owner, then convert "
                      f"the lead with a deal of {cash} closing {on}.",
                      f"Reassign {gone}'s lead {who} to me and convert it, deal worth {cash}, expected to close {on}."])
    say, detail = _held(rng, say, [f"I'm taking over {gone}'s old lead {who}, who is ready to buy. Move the lead to me and convert "
                                   "it.",
                                   f"Since {gone} left, I'm taking over their lead {who}: make me the owner and convert "
                                   "the lead."],
                        [f"The deal is {cash}, closing {on}.", f"Make it {cash}, expected to close {on}."])
    return Ask({"lead_id": lead["lead_id"], "amount": amount, "close_date": close.isoformat()}, say=say, detail=detail,
               terse=f"Take over lead {lead['name']}, convert: {cash}, close {on}.", refs=(_lead(b, lead), _rep(b)),
               mentions=(lead["name"], cash, on),
               prior=(("reassign_lead", {"lead_id": lead["lead_id"], "new_owner_id": b["rep"]["rep_id"]}),))


def _held(rng: random.Random, say: str, core: Sequence[str], detail: Sequence[str]) -> tuple[str, str | None]:
    """Either the whole request in one go, or (two times in three) a request that holds a value back and
    the sentence that gives it, for the "missing" information level."""
    if rng.random() < 0.35:
        return say, None
    return rng.choice(list(core)), rng.choice(list(detail))


def _capitalize_sentences(text: str) -> str:
    """Every sentence opening with a capital, after a question as after a statement."""
    return re.sub(r"(^|[.?!] )([a-z])", lambda m: m[1] + m[2].upper(), text)


def _orphan_leads(b: Bundle, role: int) -> list[dict]:
    """Leads of reps who left whose role is `role`: 0 only reassigned, 1 taken over and converted."""
    return [lead for lead in b["orphan_leads"] if _role(lead["lead_id"], 2) == role]


def _orphan_deals(b: Bundle, role: int) -> list[dict]:
    """Deals of reps who left whose role is `role`: 0 only reassigned, 1 taken over and moved on."""
    return [deal for deal in b["orphan_deals"] if _role(deal["deal_id"], 2) == role]


def _colleague(b: Bundle, rng: random.Random) -> dict | None:
    return rng.choice(b["colleagues"]) if b["colleagues"] else None


@goals.add("reassign_lead", 1.0)
def reassign_lead(b: Bundle, rng: random.Random) -> Ask | None:
    orphans, colleague = _orphan_leads(b, 0), _colleague(b, rng)
    mine = [lead for lead in _open_leads(b, 0) if lead["status"] == "new"]  # advancing it stays possible
    roll = rng.random()
    if orphans and roll < 0.45:
        lead = rng.choice(orphans)
        who, gone = f"{lead['name']} from {lead['company_name']}", lead["left"]["name"]
        say, detail = _held(rng, rng.choice([f"Please move {gone}'s lead {who} over to me, now that they've left the team.",
                                             f"I'm taking over {gone}'s lead {who}; make me the owner.",
                                             f"Since {gone} is gone, reassign the lead {who} to me, please."]),
                            [f"I'm taking over one of {gone}'s leads, now that they've left the team. Please make me "
                             "its owner.", f"I'm inheriting a lead from {gone}, who left; reassign it to me."],
                            [f"It's {who}.", f"The lead is {who}.", f"I mean {who}."])
        return Ask({"lead_id": lead["lead_id"], "new_owner_id": b["rep"]["rep_id"]}, say=say, detail=detail,
                   terse=f"Reassign lead {lead['name']} to me.", refs=(_lead(b, lead), _rep(b)),
                   mentions=(lead["name"],))
    if colleague is None:
        return None
    options = ([(lead, lead["left"]["name"] + "'s") for lead in orphans] if roll < 0.75 else []) + \
        [(lead, "my") for lead in mine]
    if not options:
        return None
    lead, whose = rng.choice(options)
    who, to = f"{lead['name']} from {lead['company_name']}", colleague["name"]
    say = rng.choice([f"Please hand {whose} lead {who} to {to}.", f"Reassign {whose} lead {who} to {to}, please.",
                      f"{to} will work {whose} lead {who} from now on; make them the owner."])
    say, detail = _held(rng, say, [f"Please hand {whose} lead {who} to a colleague.",
                                   f"Could you find a new owner for {whose} lead {who}?"],
                        [f"It goes to {to}.", f"Give it to {to}.", f"{to} takes it over."])
    return Ask({"lead_id": lead["lead_id"], "new_owner_id": colleague["rep_id"]}, say=say, detail=detail,
               terse=f"Reassign lead {lead['name']} to {to}.", refs=(_lead(b, lead), Ref.of("rep", colleague)),
               mentions=(lead["name"], to))


@goals.add("reassign_deal", 1.0)
def reassign_deal(b: Bundle, rng: random.Random) -> Ask | None:
    orphans, colleague = _orphan_deals(b, 0), _colleague(b, rng)
    roll = rng.random()
    if orphans and roll < 0.45:
        deal = rng.choice(orphans)
        name, gone = deal_name(deal, rng), deal["left"]["name"]
        say, detail = _held(rng, rng.choice([f"Since {gone} left the team, I'm taking over {name}. Make me its owner, "
                                             "tasks included.",
                                             f"Please reassign {name} from {gone} to me.",
                                             f"Move {gone}'s {name[4:] if name.startswith('the ') else name} to me, "
                                             "please."]),
                            [f"Since {gone} left the team, I'm taking over one of their deals. Please make me its owner.",
                             f"One of {gone}'s deals is mine now that they've left; reassign it to me."],
                            [f"It's {name}.", f"The deal is {name}.", f"I mean {name}."])
        return Ask({"deal_id": deal["deal_id"], "new_owner_id": b["rep"]["rep_id"]}, say=say, detail=detail,
                   terse=f"Reassign {name} to me.", refs=(_deal(b, deal, name), _rep(b)), mentions=(deal["company_name"],))
    if colleague is None:
        return None
    options = ([(deal, deal["left"]["name"]) for deal in orphans] if roll < 0.75 else []) + \
        [(deal, None) for deal in _open_deals(b, 1)]  # a deal whose terms change stays open, whoever owns it
    if not options:
        return None
    deal, gone = rng.choice(options)
    name, to = deal_name(deal, rng), colleague["name"]
    whose = f"{gone}'s old deal, " if gone else ""
    say = rng.choice([f"Please hand {whose}{name}, over to {to}." if gone else f"Please hand {name} over to {to}.",
                      f"{to} is taking over {name}; reassign it to them.",
                      f"Could you make {to} the owner of {name}?"])
    say, detail = _held(rng, say, [f"{name[:1].upper() + name[1:]} needs a new owner.",
                                   f"Please reassign {name} to a colleague."],
                        [f"It goes to {to}.", f"{to} takes it over.", f"Give it to {to}."])
    return Ask({"deal_id": deal["deal_id"], "new_owner_id": colleague["rep_id"]}, say=say, detail=detail,
               terse=f"Reassign {name} to {to}.", refs=(_deal(b, deal, name), Ref.of("rep", colleague)),
               mentions=(deal["company_name"], to))


# -- goals: deals --------------------------------------------------------------------------------

@goals.add("list_deals", 0.8)
def list_deals(b: Bundle, rng: random.Random) -> Ask | None:
    stages = Counter(d["stage"] for d in b["deals"])
    options = [s for s in ("prospecting", "qualification", "proposal", "negotiation") if stages[s]]
    if not options:
        return None
    stage = rng.choice(options)
    word = STAGE_WORDS[stage]
    args, refs = {"owner_id": b["rep"]["rep_id"], "stage": stage}, (_rep(b),)
    if rng.random() < 0.5:
        return Ask(args, say=rng.choice([f"Which of my deals are in the {word} stage?",
                                         f"I'm reviewing my pipeline. What do I have in {word} at the moment?",
                                         f"Which deals of mine are sitting in {word} right now?"]),
                   terse=rng.choice([f"My deals in {word}?", f"List my {word} deals."]), refs=refs,
                   mentions=(word,), facts=lambda r: deal_facts(r, of_one_company=False))
    return Ask(args, say=rng.choice([f"Could you list my deals sitting in {word}, with their amounts?",
                                     f"Show me my {word} deals and how much each is worth, please.",
                                     f"What's each of my {word} deals worth?"]),
               terse=f"My {word} deals and amounts?", refs=refs, mentions=(word,),
               facts=lambda r: deal_facts(r, of_one_company=False) + [d["amount"] for d in r[:5]])


@goals.add("get_deal", 0.8)
def get_deal(b: Bundle, rng: random.Random) -> Ask | None:
    """A deal's stage history, the day it was opened, or why it was lost: what only its own record
    shows (a listing of deals shows its stage, amount and close date)."""
    if not b["deals"]:
        return None
    deal = rng.choice(b["deals"])
    name = deal_name(deal, rng)
    refs, mentions = (_deal(b, deal, name),), (deal["company_name"],)
    args = {"deal_id": deal["deal_id"]}
    # a closed deal's last stage change is its close date, which the listing shows; a deal still in the
    # stage it opened in has had no stage change to ask about ("Last stage change on ...?" of a deal
    # opened in prospecting and never moved)
    moved = deal["stage"] in OPEN_STAGES and deal["deal_id"] in b["moved"]
    kinds = ["opened"] + ["history"] * 2 * moved + ["lost"] * 2 * (deal["stage"] == "closed_lost")
    kind = rng.choice(kinds)
    if kind == "lost":
        return Ask(args, say=rng.choice([f"Why did we lose {name}?", f"What reason was recorded for losing {name}?"]),
                   terse=f"Why was {name} lost?", refs=refs, mentions=mentions, facts=lambda r: [r["lost_reason"]])
    if kind == "opened":
        return Ask(args, say=rng.choice([f"When was {name} opened?", f"How old is {name}? When did we create it?",
                                         f"On what date did {name} go into the CRM?"]),
                   terse=f"Date {name} was opened?", refs=refs, mentions=mentions,
                   facts=lambda r: [r["created_at"][:10]])
    return Ask(args,
               say=rng.choice([f"When did {name} last change stage, and to which stage?",
                               f"Could you walk me through the stage history of {name}? I mostly need the latest move.",
                               # not "I lost track of ...": said as well right after a question about the deal
                               f"What was the most recent stage change on {name}?"]),
               terse=f"Last stage change on {name}?", refs=refs, mentions=mentions,
               facts=lambda r: [r["stage_history"][-1]["changed_at"][:10]]
               + ([r["stage_history"][-1]["to_stage"]] if "_" not in r["stage_history"][-1]["to_stage"] else []))


@goals.add("create_deal")
def create_deal(b: Bundle, rng: random.Random) -> Ask | None:
    companies = b["owned"]
    if not companies:
        return None
    company = rng.choice(companies)
    taken = {d["name"].lower() for d in company["deals"]}
    products = [p for p in PRODUCTS if f"{company['name']} - {p}".lower() not in taken]
    product = rng.choice(products)
    name = f"{company['name']} - {product}"
    amount = float(rng.choice([5000, 7500, 12000, 20000, 35000, 48000, 75000]))
    close = _month_end(b, rng)
    cash, on = money(amount), _when(close, b["now"])
    args = {"company_id": company["company_id"], "owner_id": b["rep"]["rep_id"], "name": name, "amount": amount,
            "close_date": close.isoformat()}
    refs: tuple[Ref, ...] = (_rep(b), _company(company))
    mentions: tuple[str, ...] = (name, cash, on)
    contact_part = ""
    people = [c for c in b["contacts"] if c["company_id"] == company["company_id"]]
    if people and rng.random() < 0.25:
        person = rng.choice(people)
        args["contact_id"] = person["contact_id"]
        refs += (_contact(person),)
        contact_part = f" with {person['name']} as the contact"
        mentions += (person["name"],)
    say = rng.choice([f"Please open a new deal called '{name}'{contact_part}: {cash}, expected to close {on}. "
                      "I'll own it.",
                      f"I'm starting a deal with {company['name']}. Name it '{name}', {cash}, closing {on}"
                      f"{contact_part}, owned by me.",
                      f"Could you create the deal '{name}' for me{contact_part}? Amount {cash}, close date {on}.",
                      f"New opportunity, mine: '{name}', worth {cash}, should close by {on}{contact_part}."])
    say, detail = _held(rng, say, [f"Please open a new deal called '{name}'{contact_part}, owned by me.",
                                   f"I'm starting a deal with {company['name']}: '{name}'{contact_part}. I'll own it."],
                        [f"It's {cash}, expected to close {on}.", f"Amount {cash}, close date {on}.",
                         f"Put it at {cash}, closing {on}."])
    return Ask(args, say=say, detail=detail, terse=f"New deal '{name}', {cash}, close {on}, owner me{contact_part}.",
               refs=refs,
               mentions=mentions)


@goals.add("update_deal_stage", 1.4)
def update_deal_stage(b: Bundle, rng: random.Random) -> Ask | None:
    taken = _orphan_deals(b, 1)
    if taken and rng.random() < 0.3:
        deal = rng.choice(taken)
        stage = rng.choice([s for s in ("proposal", "negotiation", "closed_won") if s != deal["stage"]])
        name, gone, word = deal_name(deal, rng), deal["left"]["name"], STAGE_WORDS[stage]
        say, detail = _held(rng, rng.choice([f"I'm taking over {name} from {gone}, who left. Make me the owner and "
                                             f"move it to {word}.",
                                             f"Since {gone} is gone, reassign {name} to me, then set its stage to {word}."]),
                            [f"I'm taking over {name} from {gone}, who left. Make me the owner and update its stage.",
                             # not "move it along the pipeline": the stage may lie behind the deal's (negotiation
                             # back to proposal), and ahead of it "along" reads as the next stage, not one to ask
                             f"Since {gone} is gone, reassign {name} to me and update its stage too."],
                            # "It's in closed won now." reads oddly: a closed stage is not a place a deal is in
                            [f"It's {word} now." if stage == "closed_won" else f"It's in {word} now.",
                             f"The new stage is {word}."])
        return Ask({"deal_id": deal["deal_id"], "stage": stage}, say=say, detail=detail,
                   terse=f"Take over {name}, stage {word}.", refs=(_deal(b, deal, name), _rep(b)),
                   mentions=(deal["company_name"], "won" if stage == "closed_won" else word),
                   prior=(("reassign_deal", {"deal_id": deal["deal_id"], "new_owner_id": b["rep"]["rep_id"]}),))
    deals = _open_deals(b, 0)
    if not deals:
        return None
    deal = rng.choice(deals)
    name = deal_name(deal, rng)
    order = list(STAGES)
    stage = rng.choice([s for s in order if s != deal["stage"]])
    args = {"deal_id": deal["deal_id"], "stage": stage}
    refs, company = (_deal(b, deal, name),), deal["company_name"]
    if stage == "closed_won":
        return Ask(args, say=rng.choice([f"Great news: {name} is signed! Please mark it closed won.",
                                         f"We won {name}. Could you close it as won?",
                                         f"The contract for {name} came back signed, so set it to closed won."]),
                   terse=f"{name[:1].upper() + name[1:]}: closed won.", refs=refs, mentions=(company, "won"))
    if stage == "closed_lost":
        reason = rng.choice(LOST_REASONS)
        args["lost_reason"] = reason
        # "lost" once where the user asks for the close: not "We lost {name}. Please close it as lost."
        say, detail = _held(rng, rng.choice([f"Unfortunately {name} fell through. Please close it as lost, reason: "
                                             f"'{reason}'.",
                                             f"Mark {name} closed lost; the reason is '{reason}'.",
                                             f"Bad news on {name}: it's closed lost. Put '{reason}' as the reason."]),
                            [f"Unfortunately {name} fell through. Please close it as lost.",
                             f"Bad news: {name} is closed lost."],
                            [f"The reason is '{reason}'.", f"Reason: '{reason}'.", f"Put '{reason}' as the reason."])
        return Ask(args, say=say, detail=detail,
                   terse=f"Close {name} as lost: '{reason}'.", refs=refs, mentions=(company, reason))
    word = STAGE_WORDS[stage]
    say, detail = _held(rng, rng.choice([f"Please move {name} to the {word} stage.",
                                         f"Could you update {name}? It's in {word} now.",
                                         f"{name[:1].upper() + name[1:]} should be in {word}; can you change the "
                                         "stage?",
                                         f"Set the stage of {name} to {word}, please."]),
                        # "has moved on" only where the deal moves forward: back from negotiation it slipped back
                        [f"Please update the pipeline stage of {name}.", f"{name[:1].upper() + name[1:]} has "
                         + ("moved on" if order.index(stage) > order.index(deal["stage"]) else "slipped back")
                         + "; can you change its stage?"],
                        [f"It's in {word} now.", f"Move it to {word}.", f"The new stage is {word}."])
    return Ask(args, say=say, detail=detail,
               terse=f"Move {name} to {word}.", refs=refs, mentions=(company, word))


@goals.add("update_deal")
def update_deal(b: Bundle, rng: random.Random) -> Ask | None:
    deals = _open_deals(b, 1)
    if not deals:
        return None
    deal = rng.choice(deals)
    name = deal_name(deal, rng)
    refs, company = (_deal(b, deal, name),), deal["company_name"]
    pick = rng.random()
    if pick < 0.4:
        amount = float(round(deal["amount"] * rng.choice([0.8, 1.2, 1.5]) / 500) * 500)
        if amount == deal["amount"] or amount <= 0:
            return None
        cash = money(amount)
        say, detail = _held(rng, rng.choice([f"The customer changed scope: please set the amount of {name} to {cash}.",
                                             f"Could you update {name} to {cash}?",
                                             f"{name[:1].upper() + name[1:]} is now worth {cash}; please change the "
                                             "amount."]),
                            [f"The customer changed scope, so the amount of {name} needs updating.",
                             f"Please change the amount on {name}."],
                            [f"It's {cash} now.", f"Make it {cash}.", f"The new amount is {cash}."])
        return Ask({"deal_id": deal["deal_id"], "amount": amount}, say=say, detail=detail,
                   terse=f"{name[:1].upper() + name[1:]}: amount {cash}.", refs=refs, mentions=(company, cash))
    if pick < 0.75:
        close = _month_end(b, rng)
        if close.isoformat() == deal["close_date"]:
            return None
        on = _when(close, b["now"])
        named = name[:1].upper() + name[1:]
        # 'slipping' and 'push out' only where the new date is later: an earlier one brings the deal forward
        if close.isoformat() > deal["close_date"]:
            full = [f"{named} is slipping; move its close date to {on}.",
                    f"Please change the expected close date of {name} to {on}.",
                    f"Could you push {name} so it closes on {on}?"]
            core = [f"{named} is slipping; please move its close date.",
                    f"Could you push out the expected close date of {name}?"]
            # "Could you push out the expected close date of ...? Push it to June 30." says the verb twice
            given = [f"Make it {on}.", f"The new close date is {on}.", f"It should close on {on} now."]
        else:
            full = [f"{named} is closing sooner than planned; move its close date to {on}.",
                    f"Please change the expected close date of {name} to {on}.",
                    f"Could you bring {name} forward so it closes on {on}?"]
            core = [f"{named} is closing sooner than planned; please move its close date.",
                    f"Could you bring forward the expected close date of {name}?"]
            given = [f"Make it {on}.", f"The new close date is {on}.", f"It should close on {on} now."]
        say, detail = _held(rng, rng.choice(full), core, given)
        return Ask({"deal_id": deal["deal_id"], "close_date": close.isoformat()}, say=say, detail=detail,
                   terse=f"Close date of {name}: {on}.", refs=refs, mentions=(company, on))
    probability = rng.choice([15, 30, 40, 60, 65, 80, 90])
    if probability == deal["probability"]:
        return None
    return Ask({"deal_id": deal["deal_id"], "probability": probability},
               # "more sure" only where the chance goes up: lowering it to 15% reads as being less sure
               say=rng.choice([f"I'm {'more' if probability > deal['probability'] else 'less'} sure about {name} "
                               f"now; set its win probability to {probability}%.",
                               f"Please change the probability on {name} to {probability} percent.",
                               f"Could you put {name} at {probability}% likely to close?"]),
               terse=f"{name[:1].upper() + name[1:]}: probability {probability}%.", refs=refs,
               mentions=(company, str(probability)))


@goals.add("list_pipeline_stages", 0.4)
def list_pipeline_stages(b: Bundle, rng: random.Random) -> Ask | None:
    return Ask({}, say=rng.choice(["What are the stages of our sales pipeline, and the default probability of each?",
                                   "Could you remind me which pipeline stages we use and their win probabilities?",
                                   "I'm new here. What stages does a deal go through, with default probabilities?"]),
               terse="Pipeline stages and probabilities?",
               # every stage the pipeline has: an answer that lists the closed ones too must not read as a guess;
               # the default probability of every open stage, prospecting's too (a closed stage's 100% or 0% goes
               # without saying)
               facts=lambda r: [_said_stage(s["stage"]) for s in r]
               + [s["default_probability"] for s in r if not s["is_closed"]])


def _period(b: Bundle, rng: random.Random) -> tuple[dt.date, dt.date, str]:
    today = _today(b)
    if rng.random() < 0.5:
        mon = (today.month - 1 + rng.randint(0, 4)) % 12 + 1
        year = today.year + (mon < today.month)
        start = dt.date(year, mon, 1)
        end = dt.date(year + (mon == 12), mon % 12 + 1, 1) - dt.timedelta(days=1)
        return start, end, month(start)
    q = (today.month - 1) // 3 + rng.randint(0, 1)
    year = today.year + q // 4
    q %= 4
    start = dt.date(year, 3 * q + 1, 1)
    end = dt.date(year + (q == 3), (3 * q + 3) % 12 + 1, 1) - dt.timedelta(days=1)
    return start, end, f"Q{q + 1} {year}"


@goals.add("get_forecast", 1.2)
def get_forecast(b: Bundle, rng: random.Random) -> Ask | None:
    start, end, said = _period(b, rng)
    # the forecast (won plus weighted) is the figure asked for; its parts only where the words ask them
    forecast = lambda r: [r["forecast"]]  # noqa: E731
    parts = lambda r: [r["weighted"], r["forecast"]] + ([r["won"]] if r["won"] else [])  # noqa: E731
    # a quarter's days are said (a fiscal year may start in another month); a calendar month's are not:
    # "September 2026 (September 1 to September 30, 2026)" says the month twice
    span = said if said == month(start) else f"{said} ({day(start)} to {full_date(end)})"
    if rng.random() < 0.35:
        if rng.random() < 0.3:
            return Ask({"start_date": start.isoformat(), "end_date": end.isoformat()},
                       say=f"Could you pull the team forecast for {span}: the weighted pipeline, what's won, and "
                           "the total?", terse=f"Team forecast, {span}: weighted, won, total?", mentions=(said,),
                       facts=parts)
        say, detail = _held(rng, rng.choice([f"What's the whole team's sales forecast for {span}?",
                                             f"For the sales meeting: what does the team forecast look like "
                                             f"for {span}?"]),
                            ["What's the whole team's sales forecast?", "Could you pull the team's forecast?"],
                            [f"For {span}.", f"I mean {span}.", f"The period is {span}."])
        return Ask({"start_date": start.isoformat(), "end_date": end.isoformat()}, say=say, detail=detail,
                   terse=f"Team forecast, {span}?", mentions=(said,), facts=forecast)
    mine = [d for d in b["deals"] if start.isoformat() <= d["close_date"] <= end.isoformat()
            and d["stage"] != "closed_lost"]
    if not mine:
        return None
    args = {"start_date": start.isoformat(), "end_date": end.isoformat(), "owner_id": b["rep"]["rep_id"]}
    if rng.random() < 0.3:
        return Ask(args, say=f"Could you run my personal forecast for {span}: the weighted pipeline, what's won, "
                             "and the total?", terse=f"My forecast, {span}: weighted, won, total?", refs=(_rep(b),),
                   mentions=(said,), facts=parts)
    say, detail = _held(rng, rng.choice([f"What's my forecast for {span}?",
                                         f"My manager wants my numbers for {span}. What's my forecast?",
                                         f"How am I tracking for {span}? I need my forecast."]),
                        ["What's my forecast looking like?", "Could you run my personal sales forecast?",
                         "My manager wants my forecast. Can you pull it?"],
                        [f"For {span}.", f"The period is {span}.", f"I need it for {span}."])
    return Ask(args, say=say, detail=detail, terse=f"My forecast, {span}?", refs=(_rep(b),), mentions=(said,),
               facts=forecast)


# -- goals: companies and contacts ---------------------------------------------------------------

@goals.add("search_companies", 0.5)
def search_companies(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["owned"]:
        return None
    industry = rng.choice(b["owned"])["industry"]
    return Ask({"industry": industry, "owner_id": b["rep"]["rep_id"]},
               say=rng.choice([f"Which {industry} companies are my accounts?",
                               f"Could you list the {industry} companies I own?",
                               f"I'm planning {article(industry)} {industry} campaign. Which of my accounts are in {industry}?"]),
               terse=f"My {industry} accounts?", refs=(_rep(b),), mentions=(industry,),
               facts=lambda r: [c["name"] for c in r[:6]])


@goals.add("get_company", 0.8)
def get_company(b: Bundle, rng: random.Random) -> Ask | None:
    companies = [c for c in b["companies"] if c["contacts"]]
    if not companies:
        return None
    company = rng.choice(companies)
    name = company["name"]
    mine = company["owner_id"] == b["rep"]["rep_id"]  # the asker knows they own it
    # the contacts alone are one search by the company's id, its deals one listing by it, and its owner's id is
    # on the company's search row: a request for one of them beside the owner is as short, or shorter where the
    # conversation has already named the owner ("It goes to Timothy Lam." then "Which rep looks after ...?"),
    # through those reads as through the record. The request asks for the contacts and the deals together, and
    # for the owner only beside both: what the record alone shows in one read.
    first = rng.random() < 0.5 or mine
    if not company["deals"]:
        return None

    def facts(r: dict) -> list[Any]:
        return [c["name"] for c in r["contacts"][:6]] + deal_facts(r["deals"], of_one_company=True)

    if first:
        return Ask({"company_id": company["company_id"]},
                   say=rng.choice([f"Who are our contacts at {name}, and which deals do we have with them?",
                                   f"Could you list the people we know at {name} and our deals there?",
                                   f"I'm calling {name} later. Who do we have on file there, and what deals?"]),
                   terse=f"Contacts and deals at {name}?", refs=(_company(company),), mentions=(name,),
                   facts=facts)
    return Ask({"company_id": company["company_id"]},
               say=rng.choice([f"Who owns the {name} account? And who are our contacts there, and what deals do we "
                               "have with them?",
                               f"Could you give me a rundown of {name}: the account owner, the people we know there "
                               "and our deals?",
                               f"I'm calling {name} later. Whose account is it, who do we have on file there, and "
                               "what deals?"]),
               terse=f"Owner, contacts and deals of {name}?", refs=(_company(company),), mentions=(name,),
               facts=lambda r: facts(r) + [r["owner_name"]])


@goals.add("get_contact", 0.8)
def get_contact(b: Bundle, rng: random.Random) -> Ask | None:
    """The deals a contact is the contact of, how much has been logged with them, and since when
    they are on file: what only the contact's own record shows (the search shows their phone,
    email, title and company)."""
    if not b["contacts"]:
        return None
    person = rng.choice(b["contacts"])
    name, args, refs = person["name"], {"contact_id": person["contact_id"]}, (_contact(person),)
    on_deals = {d["contact_id"] for c in b["companies"] for d in c["deals"]}
    kinds = ["activity", "since"] + ["deals"] * 2 * (person["contact_id"] in on_deals)
    kind = rng.choice(kinds)
    if kind == "deals":
        return Ask(args, say=rng.choice([f"Which deals is {name} the contact on?",
                                         f"What deals do we have with {name} as the contact?",
                                         f"I'm calling {name} later. Which of our deals are they the contact for?"]),
                   terse=f"Deals with {name} as contact?", refs=refs, mentions=(name,),
                   facts=lambda r: deal_facts(r["deals"], of_one_company=True))
    if kind == "activity":
        return Ask(args, say=rng.choice([f"How many activities have we logged with {name}, and how many of their "
                                         "tasks are still open?",
                                         f"How much contact have we had with {name}? The number of activities, and "
                                         "how many open tasks."]),
                   terse=f"{name}: how many activities, how many open tasks?", refs=refs, mentions=(name,),
                   facts=lambda r: [n or NOTHING for n in (r["activities"], r["open_tasks"])])
    return Ask(args, say=rng.choice([f"When was {name} added to the CRM?", f"Since when do we have {name} on file?",
                                     f"How long has {name} been in our contacts? When were they added?"]),
               terse=f"When was {name} added?", refs=refs, mentions=(name,),
               facts=lambda r: [r["created_at"][:10]])


@goals.add("create_contact", 0.8)
def create_contact(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["companies"]:
        return None
    company = rng.choice(b["companies"])
    first, last, title = rng.choice(NEW_PEOPLE)
    domain = company["website"][4:]
    email = f"{first.lower()}.{last.lower()}@{domain}"
    args = {"company_id": company["company_id"], "first_name": first, "last_name": last, "email": email}
    extra = ""
    if rng.random() < 0.5:
        args["title"] = title
        extra = f", {title}"
    name = company["name"]
    said = f"{first} {last}{extra}" + ("," if extra else "")  # the title set off by commas on both sides
    say, detail = _held(rng, rng.choice([f"Please add {said} as a contact at {name}; email {email}.",
                                         f"I met someone new at {name}: {first} {last}{extra}, {email}. Can you "
                                         "add them as a contact?",
                                         f"Could you create a contact for {said} at {name}? Their "
                                         f"email is {email}."]),
                        [f"Please add {said} as a new contact at {name}.",
                         f"I met someone new at {name}, {first} {last}{extra}. Can you add them as a contact?"],
                        [f"Their email is {email}.", f"Email: {email}.", f"Their email address is {email}."])
    return Ask(args, say=say, detail=detail,
               terse=f"New contact at {name}: {first} {last}{extra}, {email}.", refs=(_company(company),),
               mentions=(first, last, email, name))


@goals.add("merge_contacts", 1.5)
def merge_contacts(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["duplicates"]:
        return None
    pair = rng.choice(b["duplicates"])
    keep, dup = sorted(pair, key=lambda c: (not c["title"], c["contact_id"]))
    if rng.random() < 0.25:
        keep, dup = dup, keep
    name, company = keep["name"], keep["company_name"]
    return Ask({"keep_contact_id": keep["contact_id"], "duplicate_contact_id": dup["contact_id"]},
               say=rng.choice([f"{name} at {company} is in the CRM twice. Keep the entry with {keep['email']} and "
                               f"merge the {dup['email']} one into it.",
                               f"Please merge the duplicate contact {name} ({dup['email']}) into the one with "
                               f"{keep['email']}; keep all their history.",
                               f"We have two records for {name} of {company}. Could you fold the {dup['email']} "
                               f"record into {keep['email']}?",
                               f"Clean-up time: {name} has a duplicate. The real one is {keep['email']}; merge "
                               f"{dup['email']} into it."]),
               terse=f"Merge contact {name}: keep {keep['email']}, merge {dup['email']}.",
               refs=(Ref.of("contact", keep), Ref.of("contact", dup)), mentions=(name, keep["email"], dup["email"]))


# -- goals: activities ---------------------------------------------------------------------------

@goals.add("list_activities", 0.8)
def list_activities(b: Bundle, rng: random.Random) -> Ask | None:
    people = [c for c in b["contacts"] if b["history"].get(c["contact_id"])]
    if not people:
        return None
    person = rng.choice(people)
    name = person["name"]
    return Ask({"contact_id": person["contact_id"]},
               say=rng.choice([f"What's our recent history with {name}? Calls, meetings, anything logged.",
                               f"Could you list the activities logged with {name}?",
                               f"Before I call {name}, what have we done with them so far?"]),
               terse=f"Activities with {name}?", refs=(_contact(person),), mentions=(name,),
               facts=lambda r: [a["subject"] for a in r[:5]])


@goals.add("list_activities", 0.5)
def deal_activities(b: Bundle, rng: random.Random) -> Ask | None:
    busy = [d for d in b["deals"] if b["history"].get(d["deal_id"])]
    if not busy:
        return None
    deal = rng.choice(busy)
    name = deal_name(deal, rng)
    return Ask({"deal_id": deal["deal_id"]},
               say=rng.choice([f"What has been logged on {name} so far?",
                               # "the calls, meetings and tasks" left out the notes the facts check: every kind is named
                               f"Could you list the calls, meetings, notes and tasks on {name}?",
                               f"Before my review of {name}, what activity is there on it?"]),
               terse=f"Activities on {name}?", refs=(_deal(b, deal, name),), mentions=(deal["company_name"],),
               facts=lambda r: [a["subject"] for a in r[:5]])


@goals.add("list_leads", 0.6)
def lead_status(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["leads"]:
        return None
    lead = rng.choice(b["leads"])
    name = lead["name"]
    # "has it been qualified yet?" of a new lead draws "still new, not contacted or qualified yet", which
    # reads as a guess among the statuses: asked only of a lead past new
    say = rng.choice([f"What's the status of my lead {name}?", f"Where are we with the lead {name}?"]
                     + [f"Remind me: has my lead {name} been qualified yet? What status is it in?"]
                     * (lead["status"] != "new"))
    mine = _my_lead(b, lead, say)
    return Ask({"name": name}, say=say, terse=f"Status of {'my ' * bool(mine)}lead {name}?", mentions=(name,),
               facts=lambda r: [r[0]["status"]], settles=mine)


def _said_stage(stage: str) -> Any:
    """A deal's stage as an answer may say it: a closed one as 'won' or 'lost' as well as its name."""
    if stage in ("closed_won", "closed_lost"):
        return one_of(stage, stage.removeprefix("closed_"))
    return stage


@goals.add("list_deals", 0.8)
def deal_figures(b: Bundle, rng: random.Random) -> Ask | None:
    """One deal's stage, amount and close date: its line in the listing of its company's deals (of the
    deal alone, where the request names it by its full name in quotes)."""
    if not b["deals"]:
        return None
    deal = rng.choice(b["deals"])
    name, did = deal_name(deal, rng), deal["deal_id"]

    def line(*keys: str) -> Callable[[Any], list[Any]]:
        # a closed stage is said as the word a person uses ('it was lost') or as the stage ('closed lost')
        return lambda r: [_said_stage(d[k]) if k == "stage" else d[k] for d in r if d["deal_id"] == did for k in keys]

    if rng.random() < 0.5:
        return Ask({"name": _deal_search(deal, name)},
                   say=rng.choice([f"Where does {name} stand: stage, amount and close date?",
                                   f"Could you give me the stage, amount and expected close date of {name}?"]),
                   terse=f"Stage, amount, close date of {name}?", mentions=(deal["company_name"],),
                   facts=line("stage", "amount", "close_date"))
    return Ask({"name": _deal_search(deal, name)},
               say=rng.choice([f"Remind me of the amount and expected close date on {name}.",
                               f"How much is {name} worth, and when should it close?",
                               f"My manager is asking about {name}: what's it worth and when does it close?"]),
               terse=f"Amount and close date of {name}?", mentions=(deal["company_name"],),
               facts=line("amount", "close_date"))


@goals.add("list_deals", 0.6)
def company_deals(b: Bundle, rng: random.Random) -> Ask | None:
    companies = [c for c in b["companies"] if c["deals"]]
    if not companies:
        return None
    company = rng.choice(companies)["name"]
    return Ask({"name": company},
               say=rng.choice([f"What deals do we have with {company}, and what stage is each in?",
                               f"Could you list our deals with {company}?",
                               f"I'm meeting {company} tomorrow. Which deals do we have with them, open or closed?"]),
               terse=f"Deals with {company}?", mentions=(company,),
               facts=lambda r: deal_facts(r, of_one_company=True))


@goals.add("search_contacts", 1.0)
def contact_details(b: Bundle, rng: random.Random) -> Ask | None:
    """A contact's email, phone, or title and company: their line in a search by name shows them."""
    if not b["contacts"]:
        return None
    person = rng.choice(b["contacts"])
    name = person["name"]
    kinds = ["email"] + ["phone"] * bool(person["phone"]) + ["role"] * bool(person["title"])
    kind = rng.choice(kinds)
    if kind == "phone":
        return Ask({"name": name},
                   say=rng.choice([f"What's the phone number for {name}?",
                                   f"I need to ring {name} at {person['company_name']}. What number do we have?",
                                   f"Could you look up {name}'s phone number for me?"]),
                   terse=f"{name}'s phone?", mentions=(name,), facts=lambda r: [r[0]["phone"]])
    if kind == "role":
        return Ask({"name": name},
                   say=rng.choice([f"What's {name}'s job title, and which company are they with?",
                                   f"Remind me what {name} does and where.",
                                   f"Who is {name} again? Title and company, please."]),
                   terse=f"{name}: title and company?", mentions=(name,),
                   facts=lambda r: [r[0]["title"], r[0]["company_name"]])
    return Ask({"name": name},
               say=rng.choice([f"What's the email address for {name}?", f"Could you look up {name}'s email for me?",
                               f"I need to write to {name}. Which email do we have?"]),
               terse=f"{name}'s email?", mentions=(name,), facts=lambda r: [r[0]["email"]])


@goals.add("log_activity", 1.2)
def log_activity(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["contacts"]:
        return None
    person = rng.choice(b["contacts"])
    kind = rng.choice(["call", "call", "meeting", "note"])
    subject = rng.choice({"call": CALL_SUBJECTS, "meeting": MEETING_SUBJECTS, "note": NOTE_SUBJECTS}[kind])
    args = {"rep_id": b["rep"]["rep_id"], "kind": kind, "subject": subject, "contact_id": person["contact_id"]}
    refs: tuple[Ref, ...] = (_rep(b), _contact(person))
    name = person["name"]
    on_deal = ""
    deals = [d for d in b["deals"] if d["company_id"] == person["company_id"]]
    if deals and rng.random() < 0.25:
        deal = rng.choice(deals)
        args["deal_id"] = deal["deal_id"]
        refs += (_deal(b, deal),)
        on_deal = f" about {deal_name(deal)}"
    if kind == "note":
        say = rng.choice([f"Add a note on {name}{on_deal}: '{subject}'.",
                          f"Please log a note for {name}{on_deal} saying '{subject}'.",
                          f"Could you jot down a note on {name}{on_deal}? '{subject}'."])
    else:
        say = rng.choice([f"I just had a {kind} with {name}{on_deal}. Log it as '{subject}', please.",
                          f"Please record a {kind} with {name}{on_deal}, subject '{subject}'.",
                          f"Could you log my {kind} with {name}{on_deal}? The subject is '{subject}'."])
    say, detail = _held(rng, say, [f"Please log a {kind} with {name}{on_deal}." if kind != "note" else
                                   f"Please add a note on {name}{on_deal}.",
                                   f"Could you record a {kind} with {name}{on_deal}?" if kind != "note" else
                                   f"Could you record a note on {name}{on_deal}?"],
                        [f"The subject is '{subject}'.", f"Subject: '{subject}'.", f"Put it down as '{subject}'."])
    # a call or meeting is had with a person, a note is put on them: "Log note with Dustin Heath" reads oddly
    terse = f"Log a note on {name}{on_deal}: '{subject}'." if kind == "note" else \
        f"Log {kind} with {name}{on_deal}: '{subject}'."
    return Ask(args, say=say, detail=detail, terse=terse, refs=refs,
               mentions=(name, subject, kind))


@goals.add("create_task", 1.2)
def create_task(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["contacts"]:
        return None
    person = rng.choice(b["contacts"])
    subject = rng.choice(TASK_SUBJECTS)
    due = _future_day(b, rng, 1, 20)
    when = relative_day(due, _today(b))
    name = person["name"]
    args = {"rep_id": b["rep"]["rep_id"], "subject": subject, "due_date": due.isoformat(),
            "contact_id": person["contact_id"]}
    full = f"on {day(due)}" if when == f"on {day(due)}" else f"{when.removeprefix('on ')} ({day(due)})"
    say, detail = _held(rng, rng.choice([f"Remind me to '{subject}' for {name}, due {full}.",
                                         f"Please create a task '{subject}' for {name}, due {full}.",
                                         f"I need a to-do for {name}: '{subject}', due {full}.",
                                         f"Could you set up a task for me to '{subject}' with {name}, due {full}?"]),
                        [f"Please create a task '{subject}' for {name}.", f"I need a to-do for {name}: '{subject}'.",
                         f"Add a task for me to '{subject}' with {name}."],
                        [f"It's due {full}.", f"Due {full}.", f"Make it due {full}, please."])
    return Ask(args, say=say, detail=detail,
               terse=f"Task '{subject}' for {name}, due {day(due)}.",
               refs=(_rep(b), _contact(person)), mentions=(name, subject, day(due)))


@goals.add("complete_task", 1.2)
def complete_task(b: Bundle, rng: random.Random) -> Ask | None:
    if not b["tasks"]:
        return None
    task = rng.choice(b["tasks"])
    person = next(c for c in b["contacts"] if c["contact_id"] == task["contact_id"])
    subject, name = task["subject"], person["name"]
    return Ask({"activity_id": task["activity_id"]},
               say=rng.choice([f"I've done the '{subject}' task for {name}; please mark it complete.",
                               f"Could you check off my task '{subject}' on {name}?",
                               f"The '{subject}' to-do for {name} is finished. Close it out, please."]),
               terse=f"Complete task '{subject}' for {name}.",
               refs=(Ref.of("activity", task, _contact(person)),), mentions=(name, subject))


@goals.add("find_reps", 0.3)
def find_reps(b: Bundle, rng: random.Random) -> Ask | None:
    region = b["rep"]["region"]
    return Ask({"region": region},
               say=rng.choice([f"Who are the reps in the {region} region?",
                               f"Could you list the sales reps covering {region}?",
                               f"Which of my colleagues work the {region} territory?"]),
               terse=f"Reps in {region}?", mentions=(region,),
               facts=lambda r: [x["name"] for x in r if x["active"]])  # a rep who left works no territory


# -- who is asking -------------------------------------------------------------------------------

_BY_NAME = ("Hi, this is {name} from sales.", "{name} here.", "It's {name}, one of the reps.",
            "Hello, I'm {name} on the sales team.", "This is {name}.", "Hey, {name} from the {region} team here.",
            "Hi, {name} speaking.", "Good morning, it's {name}.", "I'm {name}, {region} region.",
            "Hi there, this is {name} in sales.", "{name} from the {region} region here.",
            "Hello, {name} here, from the {region} team.")
_BY_NAME_TERSE = ("{name} here.", "Rep: {name}.", "It's {name}.", "I'm {name}.")


def _by_name(ref: Ref) -> tuple[str, str]:
    """The asker introduces themselves; a colleague they name needs no introduction."""
    if not ref.entity.get("me"):
        return ("", "")
    name, region = ref.entity["name"], ref.entity["region"]
    return (stable(_BY_NAME, "rep", ref.key, name).format(name=name, region=region),
            stable(_BY_NAME_TERSE, "rep terse", ref.key, name).format(name=name))


def counts_request(b: Bundle, rng: random.Random) -> str | None:
    intro = _by_name(_rep(b))[0]
    return intro + " " + rng.choice(["How many rows does each table of the CRM database hold? I want the raw counts.",
                                     "Can you dump the record counts of every database table behind the CRM?",
                                     "Give me the internal row count of each table in the CRM's database."])


# Tools that do one another's job for some request (a deal, contact or company shows in full in
# its search): a missing-function task hides all of a group or none.
SUBSTITUTES = (
    ("get_deal", "list_deals"),
    ("list_deals", "get_company"),  # a company's record lists its deals, with their amounts, stages and dates
    ("get_contact", "search_contacts"),
    ("get_company", "search_companies"),
    # a forecast is won plus weighted over the deals closing in the period: one listing of the rep's (or
    # every) deal closing then shows each amount, probability and stage, and a model adds them up
    ("get_forecast", "list_deals"),
)


recipe = Recipe(
    server="crm",
    sample=sample,
    topics=("sales",),
    substitutes=SUBSTITUTES,
    goals=goals.all,
    lookups=(
        Lookup("rep", "find_reps", args=lambda r: {"name": r.entity["name"]}, intro=_by_name),
        Lookup("company", "search_companies", args=lambda r: {"name": r.entity["name"]}),
        Lookup("contact", "search_contacts", args=lambda r: {"name": r.entity["name"]}),
        Lookup("lead", "list_leads", args=lambda r: {"name": r.entity["name"]}, needs=lambda r: ()),
        Lookup("deal", "list_deals", args=lambda r: {"name": _deal_search(r.entity)}, needs=lambda r: ()),
        Lookup.under("activity", "list_activities"),
        Lookup("activity", "list_activities", args=lambda r: {"rep_id": r.entity["rep_id"], "open_tasks_only": True},
               needs=lambda r: (Ref.of("rep", r.entity["rep"]),)),
    ),
    hidden=(HiddenAsk("count_records", counts_request, facts=lambda r: list(r.values())),),  # every table's count
)
