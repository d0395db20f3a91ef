"""The seed: 8 sales reps, about 45 companies with their contacts (a few entered twice), about 90
leads in every status, about 80 deals across the pipeline with their stage history, and a few
hundred activities, all before the world's frozen "now".

Edge cases: companies with no contacts, deals whose close date has passed while still open,
overdue and completed tasks, converted leads linked to what they became, duplicate contacts (same
person, same company, another email) that carry their own activities, and a rep who left the team
a few days ago still owning open leads, open deals and their open tasks, waiting to be reassigned.
"""

from __future__ import annotations

import datetime as dt

from prove_env.world import SeedContext

from .models import Activity, Company, Contact, Deal, Lead, Rep, StageChange

# stage -> default probability (percent); the pipeline's order
STAGES: dict[str, int] = {"prospecting": 10, "qualification": 20, "proposal": 50, "negotiation": 75,
                          "closed_won": 100, "closed_lost": 0}
OPEN_STAGES = ("prospecting", "qualification", "proposal", "negotiation")
CLOSED_STAGES = ("closed_won", "closed_lost")
REGIONS = ("West", "East", "Central", "South")
INDUSTRIES = ("Software", "Manufacturing", "Healthcare", "Retail", "Finance", "Logistics", "Education",
              "Energy", "Media")
TITLES = ("CEO", "CTO", "CFO", "VP of Sales", "VP of Operations", "Head of IT", "Procurement Manager",
          "Operations Manager", "Marketing Director", "IT Manager", "Office Manager", "Product Manager")
PRODUCTS = ("Annual subscription", "Platform expansion", "Pilot project", "Support upgrade", "Data migration",
            "Analytics add-on", "Training package", "Multi-year renewal", "Team licenses", "Security review")
SOURCES = ("web", "referral", "event", "cold_call", "partner")
LOST_REASONS = ("Went with a competitor", "No budget this year", "Project cancelled", "Price too high",
                "No decision maker")
DISQUALIFY_REASONS = ("No budget", "Not a fit", "Unresponsive", "Student project", "Duplicate inquiry")
CALL_SUBJECTS = ("Discovery call", "Follow-up call", "Pricing discussion", "Check-in call", "Intro call")
MEETING_SUBJECTS = ("Product demo", "On-site visit", "Quarterly review", "Kickoff meeting", "Contract review")
NOTE_SUBJECTS = ("Budget approved for next quarter", "Prefers email over calls", "Evaluating two vendors",
                 "Champion is the IT manager", "Legal review takes about two weeks")
TASK_SUBJECTS = ("Send proposal", "Send pricing sheet", "Schedule demo", "Follow up on contract",
                 "Prepare quote", "Book on-site visit", "Share case study", "Confirm renewal terms")
N_REPS = 8
N_COMPANIES = 45
N_LEADS = 90
DOMAINS = ("gmail.com", "yahoo.com", "outlook.com")


def seed(ctx: SeedContext) -> None:
    rng = ctx.rng
    reps = []
    for i in range(N_REPS):
        first, last = ctx.person_name(unique_first=True)
        rep = Rep(id=ctx.new_id("REP"), name=f"{first} {last}", email=f"{first.lower()}.{last.lower()}@salesco.com",
                  region=REGIONS[i % len(REGIONS)])
        ctx.add(rep)
        reps.append(rep)

    companies: list[Company] = []
    names: set[str] = set()
    while len(companies) < N_COMPANIES:
        name = ctx.fake.company().replace(",", "")
        if name.lower() in names:
            continue
        names.add(name.lower())
        slug = "".join(ch for ch in name.lower().split()[0] if ch.isalnum())
        company = Company(id=ctx.new_id("CMP"), name=name, industry=rng.choice(INDUSTRIES), city=ctx.fake.city(),
                          website=f"www.{slug}.com", employees=rng.choice([12, 45, 80, 150, 320, 900, 2400, 7800]),
                          owner_id=rng.choice(reps).id, created_at=ctx.moment(-900, -120))
        ctx.add(company)
        companies.append(company)

    emails: set[str] = set()
    contacts: dict[str, list[Contact]] = {}
    for company in companies:
        count = rng.choice([0, 1, 2, 2, 3, 3, 4]) if company is not companies[0] else 0
        contacts[company.id] = [_contact(ctx, company, emails) for _ in range(count)]

    deals: list[Deal] = []
    for company in companies:
        products = rng.sample(PRODUCTS, 4)
        for product in products[:rng.choice([0, 1, 1, 2, 2, 3])]:
            people = contacts[company.id]
            owner = company.owner_id if rng.random() < 0.8 else rng.choice(reps).id
            deals.append(_deal(ctx, f"{company.name} - {product}", company, rng.choice(people) if people else None,
                               owner))

    # duplicates: the same person entered again at the same company with another email
    with_people = [c for c in companies if contacts[c.id]]
    for company in rng.sample(with_people, 6):
        original = rng.choice(contacts[company.id])
        dup = Contact(id=ctx.new_id("CON"), company_id=company.id, first_name=original.first_name,
                      last_name=original.last_name,
                      email=_unique(f"{original.first_name.lower()}{original.last_name.lower()}@{rng.choice(DOMAINS)}",
                                    emails),
                      phone=None if rng.random() < 0.6 else ctx.fake.numerify("(%##) %##-####"),
                      title=None, created_at=ctx.moment(-100, -5))
        ctx.add(dup)
        contacts[company.id].append(dup)

    leads = _leads(ctx, reps, companies, contacts, emails, deals)
    _activities(ctx, reps, companies, contacts, deals)
    del leads
    _departed(ctx, companies, contacts, emails, deals)  # last, so that every earlier draw stays as it was


def _departed(ctx: SeedContext, companies: list[Company], contacts: dict[str, list[Contact]], emails: set[str],
              deals: list[Deal]) -> None:
    """A rep who left the team a few days ago, with the open leads and deals (and their open tasks) that
    nobody has taken over yet."""
    rng = ctx.rng
    first, last = ctx.person_name(unique_first=True)
    left = ctx.moment(-12, -3)
    rep = Rep(id=ctx.new_id("REP"), name=f"{first} {last}", email=f"{first.lower()}.{last.lower()}@salesco.com",
              region=rng.choice(REGIONS), deactivated_at=left)
    ctx.add(rep)
    for status in ("new", "contacted", "qualified", "qualified"):
        first, last = ctx.person_name()
        company_name = ctx.fake.company().replace(",", "")
        slug = "".join(ch for ch in company_name.lower().split()[0] if ch.isalnum())
        created = ctx.moment(-90, -20)
        ctx.add(Lead(id=ctx.new_id("LEA"), owner_id=rep.id, first_name=first, last_name=last,
                     email=_unique(f"{first[0].lower()}{last.lower()}@{slug}.com", emails), company_name=company_name,
                     title=rng.choice(TITLES), source=rng.choice(SOURCES), status=status, disqualified_reason=None,
                     created_at=created, status_changed_at=min(left, created + dt.timedelta(days=rng.randint(1, 9))),
                     converted_company_id=None, converted_contact_id=None, converted_deal_id=None))
    taken = {d.name.lower() for d in deals}
    for company in rng.sample([c for c in companies if contacts[c.id]], 3):
        product = rng.choice([p for p in PRODUCTS if f"{company.name} - {p}".lower() not in taken])
        stage = rng.choice(("qualification", "proposal", "negotiation"))
        created = ctx.moment(-120, -40)
        contact = rng.choice(contacts[company.id])
        deal = Deal(id=ctx.new_id("DEA"), name=f"{company.name} - {product}", company_id=company.id,
                    contact_id=contact.id, owner_id=rep.id, stage=stage,
                    amount=float(rng.choice([9500, 18000, 32000, 54000, 88000])), probability=STAGES[stage],
                    close_date=ctx.now.date() + dt.timedelta(days=rng.randint(10, 90)), lost_reason=None,
                    created_at=created, closed_at=None)
        ctx.add(deal)
        order = list(STAGES)
        path = order[: order.index(stage) + 1]
        for i, step in enumerate(path):  # the stage moves happened while the rep was still on the team
            when = created + (left - created) * i / len(path)
            ctx.add(StageChange(id=ctx.new_id("STC", 5), deal_id=deal.id, from_stage=path[i - 1] if i else None,
                                to_stage=step, changed_at=when.replace(second=0, microsecond=0), rep_id=rep.id))
        ctx.add(Activity(id=ctx.new_id("ACT"), kind="task", subject=rng.choice(TASK_SUBJECTS), notes=None,
                         rep_id=rep.id, contact_id=contact.id, deal_id=deal.id,
                         occurred_at=left - dt.timedelta(days=rng.randint(1, 10)),
                         due_date=ctx.now.date() + dt.timedelta(days=rng.randint(2, 20)), completed_at=None))


def _unique(email: str, emails: set[str]) -> str:
    base, at, domain = email.partition("@")
    n = 1
    while email in emails:
        n += 1
        email = f"{base}{n}{at}{domain}"
    emails.add(email)
    return email


def _contact(ctx: SeedContext, company: Company, emails: set[str]) -> Contact:
    first, last = ctx.person_name()
    contact = Contact(id=ctx.new_id("CON"), company_id=company.id, first_name=first, last_name=last,
                      email=_unique(f"{first.lower()}.{last.lower()}@{company.website[4:]}", emails),
                      phone=ctx.fake.numerify("(%##) %##-####") if ctx.rng.random() < 0.85 else None,
                      title=ctx.rng.choice(TITLES), created_at=ctx.moment(-400, -20))
    ctx.add(contact)
    return contact


def _deal(ctx: SeedContext, name: str, company: Company, contact: Contact | None, owner_id: str,
          stage: str | None = None, created: dt.datetime | None = None) -> Deal:
    rng = ctx.rng
    roll = rng.random()
    if stage is None:
        stage = ("closed_won" if roll < 0.17 else "closed_lost" if roll < 0.3 else rng.choice(OPEN_STAGES))
    created = created or ctx.moment(-240, -15)
    amount = float(rng.choice([2500, 4800, 7500, 12000, 15000, 18500, 24000, 36000, 50000, 72500, 95000, 140000]))
    deal = Deal(id=ctx.new_id("DEA"), name=name, company_id=company.id, contact_id=contact.id if contact else None,
                owner_id=owner_id, stage=stage, amount=amount, probability=STAGES[stage], close_date=ctx.now.date(),
                lost_reason=None, created_at=created, closed_at=None)
    ctx.add(deal)
    order = list(STAGES)
    path = order[: order.index(stage) + 1] if stage in OPEN_STAGES else \
        order[: rng.randint(1, 4)] + [stage]
    span = (ctx.now - created).total_seconds() / 86400
    when = created
    previous = None
    recent = ctx.moment(-18, -1) if stage in CLOSED_STAGES and rng.random() < 0.5 else None
    for i, step in enumerate(path):
        if i:
            when = when + dt.timedelta(days=round(rng.uniform(0.05, 0.9) * span / len(path), 2))
            when = max(created, min(when, ctx.now - dt.timedelta(hours=2)))  # moves after it opened, before now
            if recent is not None and i == len(path) - 1 and recent > when:
                when = recent
        ctx.add(StageChange(id=ctx.new_id("STC", 5), deal_id=deal.id, from_stage=previous, to_stage=step,
                            changed_at=when.replace(second=0, microsecond=0), rep_id=owner_id))
        previous = step
    if stage in CLOSED_STAGES:
        deal.closed_at = when.replace(second=0, microsecond=0)
        deal.close_date = deal.closed_at.date()
        if stage == "closed_lost":
            deal.lost_reason = rng.choice(LOST_REASONS)
    else:
        deal.close_date = ctx.now.date() + dt.timedelta(days=rng.choice([-12, -3]) if rng.random() < 0.1
                                                        else rng.randint(5, 150))
        if rng.random() < 0.2:
            deal.probability = min(95, max(5, deal.probability + rng.choice([-10, -5, 5, 15])))
    return deal


def _leads(ctx: SeedContext, reps: list[Rep], companies: list[Company], contacts: dict[str, list[Contact]],
           emails: set[str], deals: list[Deal]) -> list[Lead]:
    rng = ctx.rng
    leads = []
    new_companies = [ctx.fake.company().replace(",", "") for _ in range(N_LEADS)]
    taken = {c.name.lower() for c in companies}
    for i in range(N_LEADS):
        first, last = ctx.person_name()
        existing = rng.random() < 0.3
        company_name = rng.choice(companies).name if existing else new_companies[i]
        if not existing and company_name.lower() in taken:
            company_name = f"{company_name} Group"
        status = rng.choice(["new", "new", "new", "contacted", "contacted", "contacted", "qualified", "qualified",
                             "qualified", "converted", "disqualified"])
        created = ctx.moment(-120, -1)
        slug = "".join(ch for ch in company_name.lower().split()[0] if ch.isalnum())
        lead = Lead(id=ctx.new_id("LEA"), owner_id=rng.choice(reps).id, first_name=first, last_name=last,
                    email=_unique(f"{first[0].lower()}{last.lower()}@{slug}.com", emails), company_name=company_name,
                    title=rng.choice(TITLES) if rng.random() < 0.8 else None, source=rng.choice(SOURCES),
                    status=status, disqualified_reason=None, created_at=created,
                    # a few hours before the clock at the latest: a deal opened on conversion has moved on since
                    status_changed_at=min(ctx.now - dt.timedelta(hours=3),
                                          created + dt.timedelta(hours=rng.randint(2, 300))),
                    converted_company_id=None, converted_contact_id=None, converted_deal_id=None)
        ctx.add(lead)
        leads.append(lead)
        if status == "disqualified":
            lead.disqualified_reason = rng.choice(DISQUALIFY_REASONS)
        elif status == "converted":
            company = next((c for c in companies if c.name.lower() == company_name.lower()), None)
            if company is None:
                company = Company(id=ctx.new_id("CMP"), name=company_name, industry=rng.choice(INDUSTRIES),
                                  city=ctx.fake.city(), website=f"www.{slug}.com", employees=rng.choice([25, 60, 200]),
                                  owner_id=lead.owner_id, created_at=lead.status_changed_at)
                ctx.add(company)
                companies.append(company)
                contacts[company.id] = []
                taken.add(company_name.lower())
            contact = Contact(id=ctx.new_id("CON"), company_id=company.id, first_name=first, last_name=last,
                              email=lead.email, phone=None, title=lead.title, created_at=lead.status_changed_at)
            ctx.add(contact)
            contacts[company.id].append(contact)
            deal = _deal(ctx, f"{company.name} - new business", company, contact, lead.owner_id,
                         stage=rng.choice(["qualification", "proposal"]), created=lead.status_changed_at)
            deals.append(deal)
            lead.converted_company_id, lead.converted_contact_id, lead.converted_deal_id = \
                company.id, contact.id, deal.id
    return leads


def _activities(ctx: SeedContext, reps: list[Rep], companies: list[Company], contacts: dict[str, list[Contact]],
                deals: list[Deal]) -> None:
    rng = ctx.rng
    by_company: dict[str, list[Deal]] = {}
    for deal in deals:
        by_company.setdefault(deal.company_id, []).append(deal)
    for company in companies:
        for contact in contacts[company.id]:
            for _ in range(rng.choice([0, 0, 1, 1, 2, 3, 4])):
                options = by_company.get(company.id, [])
                deal = rng.choice(options) if options and rng.random() < 0.6 else None
                rep = deal.owner_id if deal else company.owner_id
                _activity(ctx, rng.choice(["call", "call", "meeting", "note", "task", "task"]), rep, contact.id,
                          deal.id if deal else None)
    for deal in deals:
        if deal.contact_id is None and rng.random() < 0.5:
            _activity(ctx, rng.choice(["note", "task"]), deal.owner_id, None, deal.id)


def _activity(ctx: SeedContext, kind: str, rep_id: str, contact_id: str | None, deal_id: str | None) -> None:
    rng = ctx.rng
    subject = rng.choice({"call": CALL_SUBJECTS, "meeting": MEETING_SUBJECTS, "note": NOTE_SUBJECTS,
                          "task": TASK_SUBJECTS}[kind])
    occurred = ctx.moment(-90, -0.2)
    due = completed = None
    if kind == "task":
        due = (occurred + dt.timedelta(days=rng.randint(1, 30))).date()
        if rng.random() < 0.4 and due < ctx.now.date():
            completed = min(ctx.now - dt.timedelta(hours=1), dt.datetime.combine(due, dt.time(16, 0)))
            completed = max(completed, occurred)
    notes = rng.choice([None, None, "Left a voicemail.", "Asked for a revised quote.", "Very interested.",
                        "Needs sign-off from finance."]) if kind in ("call", "meeting") else None
    ctx.add(Activity(id=ctx.new_id("ACT"), kind=kind, subject=subject, notes=notes, rep_id=rep_id,
                     contact_id=contact_id, deal_id=deal_id, occurred_at=occurred, due_date=due,
                     completed_at=completed))
