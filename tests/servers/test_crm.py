"""The crm server through real MCP: every tool's success path and its refusals (each leaving the
world unchanged), the lead life cycle and its one-time conversion, deal stage history and the
forecast, activities and tasks, merging duplicate contacts, and the outcome-based reward.

Entities are discovered through the tools of a fresh seed-0 world.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict

import pytest
from sqlalchemy import text

from prove_env.registry import get_toolkit
from prove_env.runtime import run_sync
from prove_env.world import worlds

OPEN = ("prospecting", "qualification", "proposal", "negotiation")


@pytest.fixture
def s(served):
    return served("crm")


def today(s) -> dt.date:
    return s.world.now.date()


def later(s, days: int) -> str:
    return (today(s) + dt.timedelta(days=days)).isoformat()


def leads(s, status: str | None = None) -> list[dict]:
    return s.ok("list_leads", limit=100, **({"status": status} if status else {}))


def deals(s, **filters) -> list[dict]:
    found = []
    for rep in s.ok("find_reps"):
        found += s.ok("list_deals", owner_id=rep["rep_id"], limit=100, **filters)
    return found


def duplicate_pairs(s) -> list[tuple[dict, dict]]:
    by_key = defaultdict(list)
    for c in all_contacts(s):
        by_key[(c["name"], c["company_id"])].append(c)
    return [tuple(sorted(people, key=lambda p: p["contact_id"])) for people in by_key.values() if len(people) == 2]


def all_contacts(s) -> list[dict]:
    found = {}
    for company in s.ok("search_companies", limit=100):
        for c in s.ok("get_company", company_id=company["company_id"])["contacts"]:
            found[c["contact_id"]] = c
    return list(found.values())


def same(s, tool: str, **arguments) -> dict:
    """The call succeeds, says nothing changed, and leaves the world exactly as it was."""
    out = s.same(tool, **arguments)
    assert out["changed"] is False, out
    return out


def qualified_lead_at_known_company(s) -> dict:
    names = {c["name"].lower() for c in s.ok("search_companies", limit=100)}
    return next(lead for lead in leads(s, "qualified") if lead["company_name"].lower() in names)


def qualified_lead_at_new_company(s) -> dict:
    names = {c["name"].lower() for c in s.ok("search_companies", limit=100)}
    return next(lead for lead in leads(s, "qualified") if lead["company_name"].lower() not in names)


# -- the server as a whole ------------------------------------------------------------------------


def test_tools_listed_and_hidden_tool_kept_from_the_agent(served):
    s = served("crm")
    names = [t.name for t in run_sync(s.client.list_tools())]
    assert len(names) >= 16 and len(set(names)) == len(names)
    assert "count_records" not in names
    s.fails("count_records", "Unknown tool")
    hidden = served("crm", include_hidden=True)
    counts = hidden.ok("count_records")
    assert counts["reps"] == 9 and counts["companies"] >= 45 and counts["deals"] >= 60 and counts["owner_changes"] == 0


def test_seed_world_has_the_variety_tasks_need(s):
    statuses = {st for st in ("new", "contacted", "qualified", "converted", "disqualified") if leads(s, st)}
    assert statuses == {"new", "contacted", "qualified", "converted", "disqualified"}
    every = deals(s)
    assert {d["stage"] for d in every} == set(OPEN) | {"closed_won", "closed_lost"}
    assert any(d["stage"] in OPEN and d["close_date"] < today(s).isoformat() for d in every)  # slipped
    assert len(duplicate_pairs(s)) >= 4
    companies = s.ok("search_companies", limit=100)
    assert any(not s.ok("get_company", company_id=c["company_id"])["contacts"] for c in companies)
    tasks = []
    for rep in s.ok("find_reps"):
        tasks += s.ok("list_activities", rep_id=rep["rep_id"], kind="task", limit=100)
    assert any(t["overdue"] for t in tasks) and any(t["completed"] for t in tasks)
    assert any(not t["completed"] and not t["overdue"] for t in tasks)


def test_same_seed_same_world(served):
    assert served("crm").world.digest() == served("crm").world.digest()
    assert served("crm", seed=1).world.digest() != served("crm").world.digest()


# -- reps and companies ---------------------------------------------------------------------------


def test_find_reps(s):
    reps = s.ok("find_reps")
    assert len(reps) == 9 and [r["rep_id"] for r in reps] == sorted(r["rep_id"] for r in reps)
    gone = [r for r in reps if not r["active"]]  # one rep left the team a few days ago
    assert len(gone) == 1 and gone[0]["left_on"] < today(s).isoformat()
    assert all(r["left_on"] is None for r in reps if r["active"])
    one = reps[3]
    assert s.ok("find_reps", name=one["name"].split()[-1].upper())[0] == one
    west = s.ok("find_reps", region="West")
    assert west and all(r["region"] == "West" for r in west)
    assert s.ok("find_reps", name="zz-nobody") == []


def test_search_companies_and_get_company(s):
    everyone = s.ok("search_companies", limit=100)
    assert [c["name"] for c in everyone] == sorted(c["name"] for c in everyone)
    target = everyone[7]
    assert target in s.ok("search_companies", name=target["name"][:6].lower())
    industry = s.ok("search_companies", industry=target["industry"].lower(), limit=100)
    assert target in industry and all(c["industry"] == target["industry"] for c in industry)
    owned = s.ok("search_companies", owner_id=target["owner_id"], limit=100)
    assert target in owned and all(c["owner_id"] == target["owner_id"] for c in owned)
    full = s.ok("get_company", company_id=target["company_id"])
    assert full["owner_name"] == s.ok("find_reps", name=full["owner_name"])[0]["name"]
    assert all(c["company_id"] == target["company_id"] for c in full["contacts"])
    assert all(d["company_id"] == target["company_id"] for d in full["deals"])
    s.fails("get_company", "not found", company_id="CMP-9999")


# -- contacts -------------------------------------------------------------------------------------


def test_search_contacts_and_get_contact(s):
    contact = next(c for c in all_contacts(s) if c["phone"] and c["title"])
    assert s.ok("search_contacts", name=contact["name"].lower()) == [contact] or \
        contact in s.ok("search_contacts", name=contact["name"].lower())
    assert s.ok("search_contacts", email=contact["email"].upper()) == [contact]
    at = s.ok("search_contacts", company_id=contact["company_id"], limit=100)
    assert contact in at and all(c["company_id"] == contact["company_id"] for c in at)
    full = s.ok("get_contact", contact_id=contact["contact_id"])
    assert full["company_name"] == contact["company_name"] and full["phone"] == contact["phone"]
    history = s.ok("list_activities", contact_id=contact["contact_id"], limit=100)
    assert full["activities"] == len(history)
    assert full["open_tasks"] == sum(1 for a in history if a["kind"] == "task" and not a["completed"])


def test_create_contact_and_emails_are_unique(s):
    company = s.ok("search_companies", limit=100)[5]
    added = s.ok("create_contact", company_id=company["company_id"], first_name=" Priya ", last_name="Raman",
                 email="Priya.Raman@Example.com", title="CFO")
    assert added["name"] == "Priya Raman" and added["email"] == "priya.raman@example.com"
    assert added["company_name"] == company["name"] and added["phone"] is None
    assert s.ok("search_contacts", email="priya.raman@example.com") == [added]
    other = s.ok("search_companies", limit=100)[6]
    s.fails("create_contact", "already has the email", company_id=other["company_id"], first_name="P",
              last_name="R", email="PRIYA.RAMAN@example.com")
    s.fails("create_contact", "not an email address", company_id=other["company_id"], first_name="P",
              last_name="R", email="priya at example")
    s.fails("create_contact", "1 to 120 characters", company_id=other["company_id"], first_name="  ",
              last_name="R", email="p@r.com")


def test_merge_contacts_keeps_their_activities_and_deals(s):
    pairs = duplicate_pairs(s)
    keep, dup = next((a, b) for a, b in pairs if s.ok("list_activities", contact_id=b["contact_id"], limit=100))
    keep_acts = s.ok("list_activities", contact_id=keep["contact_id"], limit=100)
    dup_acts = s.ok("list_activities", contact_id=dup["contact_id"], limit=100)
    dup_deals = s.ok("get_contact", contact_id=dup["contact_id"])["deals"]
    merged = s.ok("merge_contacts", keep_contact_id=keep["contact_id"], duplicate_contact_id=dup["contact_id"])
    assert merged["contact_id"] == keep["contact_id"] and merged["merged_contact_id"] == dup["contact_id"]
    assert merged["moved_activities"] == len(dup_acts) and merged["moved_deals"] == len(dup_deals)
    assert merged["phone"] == (keep["phone"] or dup["phone"]) and merged["title"] == (keep["title"] or dup["title"])
    after = s.ok("list_activities", contact_id=keep["contact_id"], limit=100)
    assert {a["activity_id"] for a in after} == {a["activity_id"] for a in keep_acts + dup_acts}
    assert {d["deal_id"] for d in dup_deals} <= {d["deal_id"] for d in
                                                 s.ok("get_contact", contact_id=keep["contact_id"])["deals"]}
    assert s.ok("search_contacts", name=keep["name"]) == [s.ok("search_contacts", email=keep["email"])[0]]
    s.fails("get_contact", "not found", contact_id=dup["contact_id"])
    s.fails("merge_contacts", "not found", keep_contact_id=keep["contact_id"], duplicate_contact_id=dup["contact_id"])


def test_merge_contacts_refusals(s):
    keep, _ = duplicate_pairs(s)[0]
    s.fails("merge_contacts", "into itself", keep_contact_id=keep["contact_id"],
              duplicate_contact_id=keep["contact_id"])
    stranger = next(c for c in all_contacts(s) if c["company_id"] != keep["company_id"])
    s.fails("merge_contacts", "different companies", keep_contact_id=keep["contact_id"],
              duplicate_contact_id=stranger["contact_id"])


# -- leads ----------------------------------------------------------------------------------------


def test_list_leads_filters(s):
    rep = s.ok("find_reps")[0]
    mine = s.ok("list_leads", owner_id=rep["rep_id"], limit=100)
    assert mine and all(lead["owner_id"] == rep["rep_id"] for lead in mine)
    assert [lead["created_at"] for lead in mine] == sorted((lead["created_at"] for lead in mine), reverse=True)
    qualified = s.ok("list_leads", owner_id=rep["rep_id"], status="qualified", limit=100)
    assert qualified == [lead for lead in mine if lead["status"] == "qualified"]
    lead = mine[0]
    assert lead in s.ok("list_leads", name=lead["name"].split()[-1].lower(), limit=100)
    assert lead in s.ok("list_leads", name=lead["company_name"], limit=100)
    converted = leads(s, "converted")[0]
    assert {"company_id", "contact_id", "deal_id", "converted_on"} <= set(converted)
    assert "disqualified_reason" in leads(s, "disqualified")[0]


def test_create_lead_and_open_lead_emails_are_unique(s):
    rep = s.ok("find_reps")[2]
    lead = s.ok("create_lead", owner_id=rep["rep_id"], first_name="Wei", last_name="Chen", email="WChen@Initech.com",
                company_name="Initech", source="event")
    assert lead["status"] == "new" and lead["email"] == "wchen@initech.com" and lead["owner_id"] == rep["rep_id"]
    assert s.ok("list_leads", name="Wei Chen") == [lead]
    s.fails("create_lead", "already has the email", owner_id=rep["rep_id"], first_name="W", last_name="C",
              email="wchen@initech.com", company_name="Initech")
    # a closed lead's email may come back as a new lead
    old = leads(s, "disqualified")[0]
    again = s.ok("create_lead", owner_id=rep["rep_id"], first_name="Again", last_name="Lead", email=old["email"],
                 company_name=old["company_name"])
    assert again["status"] == "new" and again["source"] is None


def test_lead_status_moves_one_step_forward(s):
    lead = leads(s, "new")[0]
    s.fails("update_lead_status", "mark it contacted first", lead_id=lead["lead_id"], status="qualified")
    assert s.ok("update_lead_status", lead_id=lead["lead_id"], status="contacted")["status"] == "contacted"
    assert same(s, "update_lead_status", lead_id=lead["lead_id"], status="contacted")["status"] == "contacted"
    assert s.ok("update_lead_status", lead_id=lead["lead_id"], status="qualified")["status"] == "qualified"
    s.fails("update_lead_status", "cannot become contacted", lead_id=lead["lead_id"], status="contacted")
    converted = leads(s, "converted")[0]
    s.fails("update_lead_status", "converted leads are final", lead_id=converted["lead_id"], status="qualified")


def test_disqualify_lead_is_final(s):
    lead = leads(s, "contacted")[0]
    out = s.ok("disqualify_lead", lead_id=lead["lead_id"], reason=" No budget ")
    assert out["status"] == "disqualified" and out["disqualified_reason"] == "No budget"
    s.fails("disqualify_lead", "disqualified leads are final", lead_id=lead["lead_id"], reason="Again")
    s.fails("update_lead_status", "disqualified leads are final", lead_id=lead["lead_id"], status="qualified")
    s.fails("convert_lead", "cannot be converted", lead_id=lead["lead_id"], amount=1000, close_date=later(s, 30))
    converted = leads(s, "converted")[0]
    s.fails("disqualify_lead", "converted leads are final", lead_id=converted["lead_id"], reason="No")


def test_convert_lead_links_the_company_opens_a_deal_and_happens_once(s):
    lead = qualified_lead_at_known_company(s)
    company = s.ok("search_companies", name=lead["company_name"], limit=100)[0]
    contacts_before = len(s.ok("get_company", company_id=company["company_id"])["contacts"])
    out = s.ok("convert_lead", lead_id=lead["lead_id"], amount=24000, close_date=later(s, 60))
    assert out["company_id"] == company["company_id"] and out["company_created"] is False
    assert out["contact_created"] is True and out["lead"]["status"] == "converted"
    deal = out["deal"]
    assert deal["name"] == f"{company['name']} - new business" and deal["stage"] == "qualification"
    assert deal["amount"] == 24000 and deal["probability"] == 20 and deal["owner_id"] == lead["owner_id"]
    assert deal["contact_id"] == out["contact_id"] and deal["close_date"] == later(s, 60)
    after = s.ok("get_company", company_id=company["company_id"])
    assert len(after["contacts"]) == contacts_before + 1 and deal in after["deals"]
    contact = s.ok("get_contact", contact_id=out["contact_id"])
    assert contact["email"] == lead["email"] and contact["name"] == lead["name"]
    history = s.ok("get_deal", deal_id=deal["deal_id"])["stage_history"]
    assert [(h["from_stage"], h["to_stage"]) for h in history] == [(None, "qualification")]
    assert s.ok("list_leads", name=lead["name"])[0]["deal_id"] == deal["deal_id"]
    text = s.fails("convert_lead", "already converted", lead_id=lead["lead_id"], amount=5000,
                     close_date=later(s, 30))
    assert deal["deal_id"] in text and "only once" in text


def test_convert_lead_creates_a_missing_company_and_links_a_known_contact(s):
    lead = qualified_lead_at_new_company(s)
    assert s.ok("search_companies", name=lead["company_name"]) == []
    out = s.ok("convert_lead", lead_id=lead["lead_id"], amount=9999.5, close_date=later(s, 0))
    assert out["company_created"] is True and out["contact_created"] is True
    company = s.ok("search_companies", name=lead["company_name"])[0]
    assert company["company_id"] == out["company_id"] and company["owner_id"] == lead["owner_id"]
    # a contact already holding the lead's email at the company is linked, not duplicated
    other = qualified_lead_at_known_company(s)
    target = s.ok("search_companies", name=other["company_name"], limit=100)[0]
    known = s.ok("create_contact", company_id=target["company_id"], first_name="Known", last_name="Person",
                 email=other["email"])
    linked = s.ok("convert_lead", lead_id=other["lead_id"], amount=100, close_date=later(s, 10))
    assert linked["contact_created"] is False and linked["contact_id"] == known["contact_id"]


def test_convert_lead_refusals(s):
    for status in ("new", "contacted"):
        lead = leads(s, status)[0]
        s.fails("convert_lead", "only qualified leads convert", lead_id=lead["lead_id"], amount=1000,
                  close_date=later(s, 30))
    lead = qualified_lead_at_known_company(s)
    s.fails("convert_lead", "in the past", lead_id=lead["lead_id"], amount=1000, close_date=later(s, -1))
    # the lead's email already belongs to a contact at another company
    contact = next(c for c in all_contacts(s) if c["company_name"].lower() != lead["company_name"].lower())
    before = s.world.digest()
    s.ok("create_lead", owner_id=lead["owner_id"], first_name="Moved", last_name="Person", email=contact["email"],
         company_name=lead["company_name"])
    moved = s.ok("list_leads", name="Moved Person")[0]
    s.ok("update_lead_status", lead_id=moved["lead_id"], status="contacted")
    s.ok("update_lead_status", lead_id=moved["lead_id"], status="qualified")
    mid = s.world.digest()
    assert mid != before
    s.fails("convert_lead", "at another company", lead_id=moved["lead_id"], amount=1000,
              close_date=later(s, 30))


# -- deals ----------------------------------------------------------------------------------------


def test_list_deals_filters_and_get_deal(s):
    rep = s.ok("find_reps")[0]
    mine = s.ok("list_deals", owner_id=rep["rep_id"], limit=100)
    assert mine and all(d["owner_id"] == rep["rep_id"] for d in mine)
    assert [(d["close_date"], d["deal_id"]) for d in mine] == sorted((d["close_date"], d["deal_id"]) for d in mine)
    deal = next(d for d in mine if d["stage"] in OPEN)
    staged = s.ok("list_deals", owner_id=rep["rep_id"], stage=deal["stage"], limit=100)
    assert deal in staged and all(d["stage"] == deal["stage"] for d in staged)
    dated = s.ok("list_deals", closing_from=deal["close_date"], closing_to=deal["close_date"], limit=100)
    assert deal in dated and all(d["close_date"] == deal["close_date"] for d in dated)
    assert deal in s.ok("list_deals", company_id=deal["company_id"])
    company = s.ok("get_company", company_id=deal["company_id"])["name"]
    named = s.ok("list_deals", name=company.upper(), limit=100)
    assert deal in named and all(company.lower() in d["name"].lower() for d in named)
    s.fails("list_deals", "closing_from", closing_from=later(s, 5), closing_to=later(s, 1))
    full = s.ok("get_deal", deal_id=deal["deal_id"])
    assert full["stage_history"][0]["from_stage"] is None and full["stage_history"][-1]["to_stage"] == deal["stage"]
    assert full["company_name"] == s.ok("get_company", company_id=deal["company_id"])["name"]


def test_create_deal(s):
    company = next(c for c in s.ok("search_companies", limit=100)
                   if s.ok("get_company", company_id=c["company_id"])["contacts"])
    contact = s.ok("get_company", company_id=company["company_id"])["contacts"][0]
    deal = s.ok("create_deal", company_id=company["company_id"], owner_id=company["owner_id"],
                name="Enterprise rollout", amount=15000, close_date=later(s, 45), contact_id=contact["contact_id"])
    assert deal["stage"] == "prospecting" and deal["probability"] == 10 and deal["contact_id"] == contact["contact_id"]
    assert [h["to_stage"] for h in s.ok("get_deal", deal_id=deal["deal_id"])["stage_history"]] == ["prospecting"]
    s.fails("create_deal", "already has a deal named", company_id=company["company_id"],
              owner_id=company["owner_id"], name="ENTERPRISE ROLLOUT", amount=1, close_date=later(s, 5))
    s.fails("create_deal", "in the past", company_id=company["company_id"], owner_id=company["owner_id"],
              name="Late", amount=1, close_date=later(s, -3))
    stranger = next(c for c in all_contacts(s) if c["company_id"] != company["company_id"])
    s.fails("create_deal", "pick a contact of the deal's company", company_id=company["company_id"],
              owner_id=company["owner_id"], name="Other", amount=1, close_date=later(s, 5),
              contact_id=stranger["contact_id"])


def test_update_deal_stage_records_each_change(s):
    deal = next(d for d in deals(s) if d["stage"] == "prospecting")
    before = len(s.ok("get_deal", deal_id=deal["deal_id"])["stage_history"])
    moved = s.ok("update_deal_stage", deal_id=deal["deal_id"], stage="proposal")
    assert moved["stage"] == "proposal" and moved["probability"] == 50
    assert same(s, "update_deal_stage", deal_id=deal["deal_id"], stage="proposal")["stage"] == "proposal"
    s.fails("update_deal_stage", "needs lost_reason", deal_id=deal["deal_id"], stage="closed_lost")
    s.fails("update_deal_stage", "only given when a deal moves to closed_lost", deal_id=deal["deal_id"],
              stage="negotiation", lost_reason="Price")
    s.ok("update_deal_stage", deal_id=deal["deal_id"], stage="qualification")  # open stages move both ways
    won = s.ok("update_deal_stage", deal_id=deal["deal_id"], stage="closed_won")
    assert won["probability"] == 100 and won["close_date"] == today(s).isoformat()
    full = s.ok("get_deal", deal_id=deal["deal_id"])
    assert [(h["from_stage"], h["to_stage"]) for h in full["stage_history"][before:]] == [
        ("prospecting", "proposal"), ("proposal", "qualification"), ("qualification", "closed_won")]
    assert full["closed_at"].startswith(today(s).isoformat())
    s.fails("update_deal_stage", "closed deals cannot change", deal_id=deal["deal_id"], stage="negotiation")
    other = next(d for d in deals(s) if d["stage"] == "negotiation")
    lost = s.ok("update_deal_stage", deal_id=other["deal_id"], stage="closed_lost", lost_reason="Price too high")
    assert lost["probability"] == 0 and s.ok("get_deal", deal_id=other["deal_id"])["lost_reason"] == "Price too high"


def test_update_deal(s):
    deal = next(d for d in deals(s) if d["stage"] in OPEN)
    out = s.ok("update_deal", deal_id=deal["deal_id"], amount=31000.5, probability=65)
    assert out["amount"] == 31000.5 and out["probability"] == 65 and out["stage"] == deal["stage"]
    assert s.ok("update_deal", deal_id=deal["deal_id"], close_date=later(s, 90))["close_date"] == later(s, 90)
    s.fails("update_deal", "at least one", deal_id=deal["deal_id"])
    s.fails("update_deal", "from 0 to 100", deal_id=deal["deal_id"], probability=140)
    s.fails("update_deal", "in the past", deal_id=deal["deal_id"], close_date=later(s, -1))
    closed = next(d for d in deals(s) if d["stage"] == "closed_won")
    s.fails("update_deal", "closed deals cannot change", deal_id=closed["deal_id"], amount=5)


# -- reassigning leads and deals --------------------------------------------------------------------


def departed(s) -> dict:
    return next(r for r in s.ok("find_reps") if not r["active"])


def test_a_rep_who_left_owns_nothing_new(s):
    gone = departed(s)
    gid, somebody = gone["rep_id"], s.ok("find_reps")[0]
    company = s.ok("search_companies", limit=1)[0]
    contact = all_contacts(s)[0]
    s.fails("create_lead", "left the team", owner_id=gid, first_name="Wei", last_name="Chen", email="wei@initech.com",
            company_name="Initech")
    s.fails("create_deal", "left the team", company_id=company["company_id"], owner_id=gid, name="Initech - Pilot",
            amount=5000.0, close_date=later(s, 30))
    s.fails("log_activity", "find_reps says who is active", rep_id=gid, kind="call", subject="Intro call",
            contact_id=contact["contact_id"])
    s.fails("create_task", "left the team", rep_id=gid, subject="Send proposal", due_date=later(s, 3),
            contact_id=contact["contact_id"])
    qualified = next(x for x in s.ok("list_leads", owner_id=gid) if x["status"] == "qualified")
    s.fails("convert_lead", "reassign it to an active rep with reassign_lead", lead_id=qualified["lead_id"],
            amount=12000.0, close_date=later(s, 30))
    deal = s.ok("list_deals", owner_id=gid)[0]
    s.fails("update_deal_stage", "reassign_deal before moving its stage", deal_id=deal["deal_id"], stage="closed_won")
    s.fails("reassign_lead", "cannot take over", lead_id=qualified["lead_id"], new_owner_id=gid)
    theirs = s.ok("list_deals", owner_id=somebody["rep_id"], stage="proposal")[0]
    s.fails("reassign_deal", "left the team", deal_id=theirs["deal_id"], new_owner_id=gid)
    s.fails("reassign_lead", "Rep 'REP-9999' not found", lead_id=qualified["lead_id"], new_owner_id="REP-9999")
    # what does not make them own anything new still works: editing terms, completing their tasks
    assert s.ok("update_deal", deal_id=deal["deal_id"], probability=60)["probability"] == 60
    assert s.ok("get_deal", deal_id=deal["deal_id"])["owner_active"] is False


def test_reassigning_a_lead_records_the_change_and_lets_it_convert(s):
    gid = departed(s)["rep_id"]
    me = s.ok("find_reps")[1]
    lead = next(x for x in s.ok("list_leads", owner_id=gid) if x["status"] == "qualified")
    moved, again = s.repeat("reassign_lead", lead_id=lead["lead_id"], new_owner_id=me["rep_id"])
    assert moved["changed"] and moved["owner_id"] == me["rep_id"] and moved["previous_owner"]["rep_id"] == gid
    assert [(h["from_rep_id"], h["to_rep_id"]) for h in moved["owner_history"]] == [(gid, me["rep_id"])]
    assert again["changed"] is False and again["owner_history"] == moved["owner_history"]
    assert lead["lead_id"] in {x["lead_id"] for x in s.ok("list_leads", owner_id=me["rep_id"], limit=100)}
    converted = s.ok("convert_lead", lead_id=lead["lead_id"], amount=12000.0, close_date=later(s, 30))
    assert converted["deal"]["owner_id"] == me["rep_id"]
    # a final lead keeps its owner
    other = s.ok("find_reps")[2]["rep_id"]
    s.fails("reassign_lead", "converted leads are final", lead_id=lead["lead_id"], new_owner_id=other)
    dropped = leads(s, "disqualified")[0]
    s.fails("reassign_lead", "disqualified leads are final", lead_id=dropped["lead_id"], new_owner_id=other)
    # between two active reps, and back: the history keeps every hand-over in order
    lead2 = next(x for x in leads(s, "new") if x["owner_id"] != gid)
    first = lead2["owner_id"]
    to = next(r["rep_id"] for r in s.ok("find_reps") if r["active"] and r["rep_id"] != first)
    s.ok("reassign_lead", lead_id=lead2["lead_id"], new_owner_id=to)
    back = s.ok("reassign_lead", lead_id=lead2["lead_id"], new_owner_id=first)
    assert [(h["from_rep_id"], h["to_rep_id"]) for h in back["owner_history"]] == [(first, to), (to, first)]


def test_reassigning_a_deal_moves_its_open_tasks_and_unblocks_its_stage(s):
    gid = departed(s)["rep_id"]
    me = s.ok("find_reps")[0]
    deal = s.ok("list_deals", owner_id=gid)[0]
    theirs = s.ok("list_activities", deal_id=deal["deal_id"], open_tasks_only=True)
    assert theirs and all(t["rep_id"] == gid for t in theirs)
    out = s.ok("reassign_deal", deal_id=deal["deal_id"], new_owner_id=me["rep_id"])
    assert out["changed"] and out["owner_id"] == me["rep_id"] and out["owner_name"] == me["name"]
    assert out["tasks_moved"] == [t["activity_id"] for t in sorted(theirs, key=lambda t: t["activity_id"])]
    now_open = s.ok("list_activities", deal_id=deal["deal_id"], open_tasks_only=True)
    assert now_open and all(t["rep_id"] == me["rep_id"] for t in now_open)
    full = s.ok("get_deal", deal_id=deal["deal_id"])
    assert full["owner_active"] and [(h["from_rep_id"], h["to_rep_id"]) for h in full["owner_history"]] == [
        (gid, me["rep_id"])]
    same = s.same("reassign_deal", deal_id=deal["deal_id"], new_owner_id=me["rep_id"])
    assert same["changed"] is False and same["tasks_moved"] == []
    won = s.ok("update_deal_stage", deal_id=deal["deal_id"], stage="closed_won")
    assert won["stage"] == "closed_won"
    assert s.ok("get_deal", deal_id=deal["deal_id"])["stage_history"][-1]["rep_id"] == me["rep_id"]
    s.fails("reassign_deal", "closed deals keep the owner", deal_id=deal["deal_id"],
            new_owner_id=s.ok("find_reps")[1]["rep_id"])
    # only the previous owner's open tasks move; a colleague's task on the deal stays theirs
    mine = next(d for d in s.ok("list_deals", owner_id=me["rep_id"], limit=100) if d["stage"] in OPEN)
    colleague = s.ok("find_reps")[2]["rep_id"]
    helper = s.ok("create_task", rep_id=colleague, subject="Prepare quote", due_date=later(s, 5),
                  deal_id=mine["deal_id"])
    own = s.ok("create_task", rep_id=me["rep_id"], subject="Send proposal", due_date=later(s, 5),
               deal_id=mine["deal_id"])
    handed = s.ok("reassign_deal", deal_id=mine["deal_id"], new_owner_id=s.ok("find_reps")[3]["rep_id"])
    assert own["activity_id"] in handed["tasks_moved"] and helper["activity_id"] not in handed["tasks_moved"]


def test_list_pipeline_stages(s):
    stages = s.ok("list_pipeline_stages")
    assert [x["stage"] for x in stages] == list(OPEN) + ["closed_won", "closed_lost"]
    assert [x["default_probability"] for x in stages] == [10, 20, 50, 75, 100, 0]
    assert [x["stage"] for x in stages if x["is_closed"]] == ["closed_won", "closed_lost"]
    assert {d["stage"] for d in deals(s)} <= {x["stage"] for x in stages}


def test_forecast_by_stage_and_owner(s):
    start, end = today(s).replace(day=1), later(s, 120)
    every = [d for d in deals(s, closing_from=start.isoformat(), closing_to=end) if d["stage"] != "closed_lost"]
    forecast = s.ok("get_forecast", start_date=start.isoformat(), end_date=end)
    weighted = round(sum(d["amount"] * d["probability"] / 100 for d in every if d["stage"] in OPEN), 2)
    won = round(sum(d["amount"] for d in every if d["stage"] == "closed_won"), 2)
    assert forecast["weighted"] == weighted and forecast["won"] == won
    assert forecast["forecast"] == round(weighted + won, 2)
    assert forecast["pipeline"] == round(sum(d["amount"] for d in every if d["stage"] in OPEN), 2)
    by_stage = {row["stage"]: row for row in forecast["by_stage"]}
    assert "closed_lost" not in by_stage
    for stage, row in by_stage.items():
        assert row["deals"] == sum(d["stage"] == stage for d in every)
    assert sum(row["deals"] for row in forecast["by_owner"]) == len(every)
    rep = forecast["by_owner"][0]
    mine = s.ok("get_forecast", start_date=start.isoformat(), end_date=end, owner_id=rep["rep_id"])
    assert mine["forecast"] == rep["forecast"] and [o["rep_id"] for o in mine["by_owner"]] == [rep["rep_id"]]
    # a won deal moves from weighted pipeline to won
    deal = next(d for d in every if d["stage"] == "negotiation" and d["close_date"] >= today(s).isoformat())
    s.ok("update_deal_stage", deal_id=deal["deal_id"], stage="closed_won")
    after = s.ok("get_forecast", start_date=start.isoformat(), end_date=end)
    assert after["won"] == round(won + deal["amount"], 2)
    assert after["weighted"] == round(weighted - deal["amount"] * deal["probability"] / 100, 2)
    s.fails("get_forecast", "start_date", start_date=end, end_date=start.isoformat())


# -- activities -----------------------------------------------------------------------------------


def test_list_activities_filters(s):
    rep = s.ok("find_reps")[1]
    mine = s.ok("list_activities", rep_id=rep["rep_id"], limit=100)
    assert mine and all(a["rep_id"] == rep["rep_id"] for a in mine)
    assert [a["created_at"] for a in mine] == sorted((a["created_at"] for a in mine), reverse=True)
    open_tasks = s.ok("list_activities", rep_id=rep["rep_id"], open_tasks_only=True, limit=100)
    assert all(t["kind"] == "task" and not t["completed"] for t in open_tasks)
    assert [t["due_date"] for t in open_tasks] == sorted(t["due_date"] for t in open_tasks)
    calls = s.ok("list_activities", rep_id=rep["rep_id"], kind="call", limit=100)
    assert calls == [a for a in mine if a["kind"] == "call"]
    on_deal = next(a for a in mine if a["deal_id"] and a["contact_id"])
    assert on_deal in s.ok("list_activities", deal_id=on_deal["deal_id"], limit=100)
    assert on_deal["deal_name"] == s.ok("get_deal", deal_id=on_deal["deal_id"])["name"]
    assert on_deal["contact_name"] == s.ok("get_contact", contact_id=on_deal["contact_id"])["name"]
    both = s.ok("list_activities", contact_id=on_deal["contact_id"], deal_id=on_deal["deal_id"], limit=100)
    assert on_deal in both and all(a["deal_id"] == on_deal["deal_id"] for a in both)


def test_log_activity_on_a_contact_and_a_deal(s):
    deal = next(d for d in deals(s) if d["contact_id"])
    contact = s.ok("get_contact", contact_id=deal["contact_id"])
    logged = s.ok("log_activity", rep_id=deal["owner_id"], kind="call", subject="Pricing discussion",
                  contact_id=contact["contact_id"], deal_id=deal["deal_id"], notes="Wants a discount")
    assert logged["kind"] == "call" and logged["notes"] == "Wants a discount" and "due_date" not in logged
    assert s.ok("list_activities", deal_id=deal["deal_id"], limit=1)[0] == logged
    assert s.ok("get_contact", contact_id=contact["contact_id"])["activities"] == contact["activities"] + 1
    s.fails("log_activity", "Attach the activity", rep_id=deal["owner_id"], kind="note", subject="x")
    stranger = next(c for c in all_contacts(s) if c["company_id"] != deal["company_id"])
    s.fails("log_activity", "attach it to one of them", rep_id=deal["owner_id"], kind="meeting",
              subject="Demo", contact_id=stranger["contact_id"], deal_id=deal["deal_id"])


def test_tasks_have_due_dates_and_complete_once(s):
    contact = all_contacts(s)[0]
    rep = s.ok("find_reps")[0]
    task = s.ok("create_task", rep_id=rep["rep_id"], subject="Send proposal", due_date=later(s, 3),
                contact_id=contact["contact_id"])
    assert task["kind"] == "task" and task["due_date"] == later(s, 3) and not task["completed"]
    assert task in s.ok("list_activities", contact_id=contact["contact_id"], open_tasks_only=True, limit=100)
    s.fails("create_task", "in the past", rep_id=rep["rep_id"], subject="Late", due_date=later(s, -1),
              contact_id=contact["contact_id"])
    s.fails("create_task", "Attach the activity", rep_id=rep["rep_id"], subject="Nowhere", due_date=later(s, 1))
    done = s.ok("complete_task", activity_id=task["activity_id"])
    assert done["completed"] and done["completed_at"].startswith(today(s).isoformat())
    assert same(s, "complete_task", activity_id=task["activity_id"])["completed_at"] == done["completed_at"]
    call = s.ok("log_activity", rep_id=rep["rep_id"], kind="call", subject="Intro", contact_id=contact["contact_id"])
    s.fails("complete_task", "not a task", activity_id=call["activity_id"])


def test_invariants_hold_after_a_sequence_of_writes(s):
    lead = qualified_lead_at_known_company(s)
    out = s.ok("convert_lead", lead_id=lead["lead_id"], amount=1000, close_date=later(s, 20))
    s.ok("update_deal_stage", deal_id=out["deal"]["deal_id"], stage="closed_lost", lost_reason="Project cancelled")
    keep, dup = duplicate_pairs(s)[0]
    s.ok("merge_contacts", keep_contact_id=keep["contact_id"], duplicate_contact_id=dup["contact_id"])
    assert s.toolkit(s.world).invariants() == []


# -- the world's own rules --------------------------------------------------------------------------


def test_seeded_deal_histories_run_from_the_opening_to_the_stage():
    """Every seeded deal's stage history starts when the deal opened, moves from stage to stage and ends
    at its stage, even for a deal opened by a conversion shortly before the clock (seeds 0-19; seeds 7
    and 18 once moved such deals before they opened)."""
    broken = {}
    for seed in range(20):
        world = worlds.create(get_toolkit("crm"), seed)
        try:
            opened = dict(world.session.execute(text("SELECT id, created_at FROM deals")).all())
            stages = dict(world.session.execute(text("SELECT id, stage FROM deals")).all())
            history = defaultdict(list)
            for deal_id, before, after, at in world.session.execute(text(
                    "SELECT deal_id, from_stage, to_stage, changed_at FROM stage_changes ORDER BY changed_at, id")):
                history[deal_id].append((before, after, at))
            for deal_id, changes in history.items():
                froms = [c[0] for c in changes]
                tos = [c[1] for c in changes]
                if froms != [None] + tos[:-1] or tos[-1] != stages[deal_id] or changes[0][2] < opened[deal_id]:
                    broken[(seed, deal_id)] = changes
        finally:
            world.close()
    assert not broken, broken


def test_set_like_tools_repeated_at_once_change_nothing(s):
    """A deal set to its stage (open or closed), a lead to its status and a completed task to completed:
    each succeeds again, says nothing changed, and leaves the world as it was."""
    deal = next(d for d in deals(s) if d["stage"] == "qualification")
    assert s.ok("update_deal_stage", deal_id=deal["deal_id"], stage="negotiation")["changed"] is True
    same(s, "update_deal_stage", deal_id=deal["deal_id"], stage="negotiation")
    lost = s.ok("update_deal_stage", deal_id=deal["deal_id"], stage="closed_lost", lost_reason="Price too high")
    assert lost["changed"] is True
    same(s, "update_deal_stage", deal_id=deal["deal_id"], stage="closed_lost", lost_reason="Price too high")
    won = next(d for d in deals(s) if d["stage"] == "closed_won")
    same(s, "update_deal_stage", deal_id=won["deal_id"], stage="closed_won")
    s.fails("update_deal_stage", "closed deals cannot change", deal_id=won["deal_id"], stage="closed_lost",
            lost_reason="Price too high")

    lead = leads(s, "contacted")[0]
    assert s.ok("update_lead_status", lead_id=lead["lead_id"], status="qualified")["changed"] is True
    same(s, "update_lead_status", lead_id=lead["lead_id"], status="qualified")

    tasks = []
    for rep in s.ok("find_reps"):
        tasks += s.ok("list_activities", rep_id=rep["rep_id"], open_tasks_only=True, limit=100)
    done = s.ok("complete_task", activity_id=tasks[0]["activity_id"])
    assert done["changed"] is True
    assert same(s, "complete_task", activity_id=tasks[0]["activity_id"])["completed_at"] == done["completed_at"]


# -- outcomes, not paths: what the reward's success flag judges -----------------------------------


def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": arguments}


def test_success_follows_the_outcome_not_the_path(play, served):
    from prove_env.task import Task

    s = served("crm")
    lead = qualified_lead_at_known_company(s)
    rep = s.ok("find_reps")[0]
    deal = next(d for d in s.ok("list_deals", owner_id=rep["rep_id"], limit=100) if d["stage"] in OPEN)
    facts = s.ok("get_deal", deal_id=deal["deal_id"])
    status = Task(id="status", server="crm", seed=0,
                  user_turns=[f"This is {rep['name']}. What's the amount on the {deal['name']} deal?"],
                  gold=[[{"id": "g1", "name": "find_reps", "arguments": {"name": rep["name"]}},
                         {"id": "g2", "name": "list_deals", "arguments": {"owner_id": rep["rep_id"]},
                          "depends_on": ["g1"]},
                         {"id": "g3", "name": "get_deal", "arguments": {"deal_id": deal["deal_id"]},
                          "depends_on": ["g2"]}]],
                  facts=[[facts["amount"]]])
    # another correct path: the company's deal list carries the amount
    other = play(status, [_call("list_deals", company_id=deal["company_id"]), f"It is ${deal['amount']:,.2f}."])
    assert other["success"] and other["reward_breakdown"]["coverage"] < 1
    # the right answer, then damage nobody asked for: the lead converted
    damage = play(status, [_call("get_deal", deal_id=deal["deal_id"]),
                           _call("convert_lead", lead_id=lead["lead_id"], amount=1000, close_date=later(s, 30)),
                           f"It is ${deal['amount']:,.2f}."])
    assert not damage["success"]

    contact = s.ok("get_contact", contact_id=deal["contact_id"]) if deal["contact_id"] else all_contacts(s)[0]
    log = Task(id="log", server="crm", seed=0,
               user_turns=[f"This is {rep['name']}. Log a call with {contact['name']}, subject 'Check-in call'."],
               gold=[[{"id": "g1", "name": "find_reps", "arguments": {"name": rep["name"]}},
                      {"id": "g2", "name": "search_contacts", "arguments": {"name": contact["name"]}},
                      {"id": "g3", "name": "log_activity", "depends_on": ["g1", "g2"],
                       "arguments": {"rep_id": rep["rep_id"], "kind": "call", "subject": "Check-in call",
                                     "contact_id": contact["contact_id"]}}]])
    # notes the rep did not ask for are a detail, not damage
    noted = play(log, [_call("log_activity", rep_id=rep["rep_id"], kind="call", subject="Check-in call",
                             contact_id=contact["contact_id"], notes="Went well"), "Logged."])
    assert noted["success"]
    wrong = play(log, [_call("log_activity", rep_id=rep["rep_id"], kind="meeting", subject="Check-in call",
                             contact_id=contact["contact_id"]), "Logged."])
    assert not wrong["success"]


# -- synthesized requests ---------------------------------------------------------------------------


def _asks(tool: str, *, seed: int = 0, draws: int = 60) -> list[tuple]:
    """Requests the recipe writes for `tool` from the bundles of one world, each with the result of its
    call (None for a write) and a reader of that world."""
    import json
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("crm"), get_recipe("crm")
    world = worlds.create(toolkit, seed)
    read = Reader(toolkit, world)
    rng = random.Random(f"crm asks {seed}")
    bundles = recipe.sample(read, world.now, rng)
    found = []
    for goal in (g for g in recipe.goals if g.tool == tool):
        for _ in range(draws):
            ask = goal.build(rng.choice(bundles), rng)
            if ask is not None:
                result = json.loads(toolkit(world).run(tool, dict(ask.args))) if ask.facts else None
                found.append((ask, result, read))
    return found


def _leaves(value) -> list:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def _holds(result, fact) -> bool:
    """Whether a value of a result is the fact (or one of its choices)."""
    from prove_env.facts import values

    return any(v in _leaves(result) for v in values(fact))


def test_contacts_and_deals_are_opened_for_what_their_search_does_not_show():
    """A contact's search shows their email, phone, title and company, a deal's listing its stage,
    amount and close date: `get_contact` and `get_deal` are asked only what those look-ups leave out."""
    for tool, find in (("get_contact", lambda r, read: read("search_contacts", name=r["name"])),
                       ("get_deal", lambda r, read: read("list_deals", name=r["company_name"]))):
        asks = _asks(tool)
        assert len(asks) > 20
        for ask, result, read in asks:
            key = "contact_id" if tool == "get_contact" else "deal_id"
            line = [e for e in find(result, read) if e[key] == result[key]]
            assert not all(_holds(line, f) for f in ask.facts(result)), (tool, ask.say)


def test_a_conversion_waiting_for_its_figures_says_go_ahead_only_after_a_first_step():
    """'I'd like to convert my lead ... into a deal. Go ahead.' urges on a request still missing its
    amount; 'go ahead' follows only what comes first ('Mark them qualified first, then go ahead.')."""
    asks = [ask for ask, _, _ in _asks("convert_lead", draws=300)]
    assert any(ask.detail for ask in asks)
    for ask in asks:
        assert "into a deal. Go ahead" not in ask.say, ask.say


def test_a_forecast_asked_for_is_its_headline_figure():
    """'What's my forecast?' is answered by the forecast (won plus weighted); the weighted pipeline and
    what is won are recorded only where the words ask for them."""
    asks = _asks("get_forecast", draws=120)
    plain = [(ask, result) for ask, result, _ in asks if "weighted" not in ask.say]
    assert plain and len(plain) < len(asks)
    for ask, result in plain:
        assert ask.facts(result) == [result["forecast"]], ask.say


def test_a_request_opens_each_sentence_with_a_capital():
    """"Could you convert Jeffrey Taylor? the deal should be $18,000": a sentence after a question
    opens with a capital as one after a statement does."""
    import re

    asks = [ask for tool in ("convert_lead", "log_activity", "create_task")
            for ask, _, _ in _asks(tool, draws=150)]
    assert any("? " in ask.say for ask in asks)
    for ask in asks:
        for words in (ask.say, ask.detail or "", ask.terse or ""):
            assert not re.search(r"[.?!] [a-z]", words), words


def test_a_logged_call_is_not_called_twice():
    """"Please log a call with Victoria Burns. Call it 'Renewal discussion'." says 'call' in two
    senses: a call's subject is given in other words."""
    import re

    calls = [ask for ask, _, _ in _asks("log_activity", draws=200) if ask.args["kind"] == "call"]
    assert calls
    for ask in calls:
        words = f"{ask.say} {ask.detail or ''}".replace(ask.args["subject"], "")
        assert len(re.findall(r"\bcall\b", words, re.I)) == 1, words


def test_a_rep_who_left_is_not_said_to_work_a_territory():
    """"Which of my colleagues work the West territory?" is rightly answered with the reps still on the team:
    a rep who left is listed by the look-up but is not a fact the answer must state."""
    asks = [(ask, result) for seed in (0, 1) for ask, result, _ in _asks("find_reps", seed=seed)]
    left = [(ask, result) for ask, result in asks if not all(rep["active"] for rep in result)]
    assert left
    for ask, result in left:
        gone = {rep["name"] for rep in result if not rep["active"]}
        assert ask.facts(result) and not gone & set(ask.facts(result)), ask.say


def test_a_deal_is_named_only_where_no_other_deal_has_its_name():
    """Two deals called 'Haney-Nelson - new business' (two owners) make 'our new business deal with
    Haney-Nelson' ambiguous: a deal a request names has a name of its own."""
    import random
    from collections import Counter

    from prove_env.synthesis.recipe import Reader, get_recipe

    toolkit, recipe = get_toolkit("crm"), get_recipe("crm")
    world = worlds.create(toolkit, 2)
    read = Reader(toolkit, world)
    shared = {name for name, n in Counter(d["name"].lower() for d in read("list_deals", limit=100)).items() if n > 1}
    bundles = recipe.sample(read, world.now, random.Random("crm deal names"))
    world.close()
    assert shared
    named = [d["name"].lower() for b in bundles for d in b["deals"] + b["orphan_deals"]]
    assert named and not shared & set(named)


def test_a_company_record_is_declared_to_answer_what_a_deal_listing_does():
    """'How much is the Cannon Smith and Klein data migration deal worth?' with `list_deals` hidden is
    answered by `get_company`, which lists the company's deals: the two are declared substitutes, so a
    missing-function task never hides the one while it shows the other."""
    from prove_env.synthesis.recipe import get_recipe

    answered = []
    for ask, result, read in _asks("list_deals", draws=100):
        facts = ask.facts(result) if result else []
        companies = {d["company_id"] for d in result or []}
        if facts and len(companies) == 1:
            record = read("get_company", company_id=companies.pop())
            answered += [ask.say] if all(_holds(record["deals"], f) for f in facts) else []
    assert answered
    assert "get_company" in get_recipe("crm").substitutes_of("list_deals"), answered[0]


def test_a_deal_is_stated_by_its_company_and_product_as_an_answer_names_it():
    """"Deals with Parker Ltd?" is rightly answered "New business, Training package and Analytics add-on",
    "What do I have in negotiation?" with "the training package deal with Little Richards and Torres": a deal
    listed is stated by its full name or by the part of it no other listed deal shares."""
    from prove_env.facts import facts_stated, values

    checked = 0
    for tool in ("list_deals", "get_contact"):
        for ask, result, _ in _asks(tool, draws=80):
            deals = result["deals"] if tool == "get_contact" else result
            names = {d["name"] for d in deals} if isinstance(deals, list) else set()
            if not any(set(values(f)) & names for f in ask.facts(result)):
                continue  # not a listing of deals (a deal's own figures)
            by_company = "owner_id" not in ask.args  # a company or a contact the user named
            said = [d["name"].partition(" - ")[2] if by_company else
                    f"the {d['name'].partition(' - ')[2].lower()} deal with {d['company_name']}" for d in deals]
            answer = "; ".join(f"{s} (${d['amount']:,.0f})" for s, d in zip(said, deals, strict=True))
            assert facts_stated([ask.facts(result)], [answer]), (ask.say, answer, ask.facts(result))
            checked += 1
    assert checked > 20


def test_a_win_probability_is_more_sure_only_where_it_goes_up():
    """"I'm more sure about the annual subscription deal with Decker LLC now; set its win probability to
    15%." lowers a deal at 75%: the user is more sure where the chance goes up and less sure where it goes
    down."""
    sure = [(ask, read) for ask, _, read in _asks("update_deal", draws=400) if " sure about " in ask.say]
    directions = set()
    for ask, read in sure:
        before = read("get_deal", deal_id=ask.args["deal_id"])["probability"]
        up = ask.args["probability"] > before
        directions.add(up)
        assert ("I'm more sure" if up else "I'm less sure") in ask.say, (before, ask.say)
    assert directions == {True, False}


def test_a_forecast_for_a_month_names_the_month_once():
    """"the team forecast for September 2026 (September 1 to September 30, 2026)" says the month twice; a
    quarter keeps its days ("Q3 2026 (July 1 to September 30, 2026)"), as a fiscal quarter may differ."""
    kinds = set()
    for ask, _, _ in _asks("get_forecast", draws=150):
        period = ask.mentions[0]
        quarter = period.startswith("Q")
        kinds.add(quarter)
        for words in (ask.say, ask.detail or "", ask.terse or ""):
            if period in words:
                assert (f"{period} (" in words) == quarter, words
    assert kinds == {True, False}


def test_a_deal_asked_for_its_stage_records_the_stage_even_when_closed():
    """"Stage, amount, close date of our security review deal with Lyons Sharp and Martinez?" of a deal
    closed lost records its stage too, stated as "lost" or "closed lost"; an answer naming another stage
    does not state it."""
    from prove_env.facts import facts_stated

    closed = 0
    for ask, result, _ in _asks("list_deals", draws=300):
        if "stage" not in (ask.terse or "").lower() or not result:
            continue
        facts = ask.facts(result)
        deal = next(d for d in result if d["amount"] in facts and d["close_date"] in facts)
        if not deal["stage"].startswith("closed_"):
            continue
        closed += 1
        word = deal["stage"].removeprefix("closed_")
        figures = f"${deal['amount']:,.0f}, closing {deal['close_date']}"
        assert facts_stated([facts], [f"It was {word}: {figures}."]), (ask.say, facts)
        assert facts_stated([facts], [f"Closed {word}, {figures}."]), ask.say
        assert not facts_stated([facts], [f"It's in negotiation, {figures}."]), ask.say
    assert closed


def test_a_conversion_asks_for_a_deal_not_yet_named_with_an_article_that_says_so():
    """"Please convert my lead Christopher Chan from Morales Zimmerman and Cooper. Open the deal for
    them." speaks of a deal no one has named yet: the conversion opens a new one, "a deal"."""
    asks = [ask for ask, _, _ in _asks("convert_lead", draws=300)]
    held = [ask for ask in asks if ask.detail and "deal for them" in ask.say]
    assert held
    for ask in asks:
        assert "the deal for them" not in ask.say.lower(), ask.say


def test_an_answer_listing_every_pipeline_stage_states_the_stages_asked():
    """"What are the stages of our sales pipeline?": the answer that lists all six, closed won and lost
    included, is the right one, not a guess among rivals of the stage choice."""
    from prove_env.episode import choices
    from prove_env.facts import facts_stated

    found = _asks("list_pipeline_stages", draws=5)
    assert found
    rivals = choices(get_toolkit("crm"))
    full = ("Prospecting (10%), qualification (20%), proposal (50%), negotiation (75%), closed won (100%) "
            "and closed lost (0%).")
    terse = "Prospecting 10%, qualification 20%, proposal 50%, negotiation 75%, then closed won or lost."
    for ask, result, _ in found:
        facts = ask.facts(result)
        assert facts_stated([facts], [full], rivals), (ask.say, facts)
        assert facts_stated([facts], [terse], rivals), (ask.say, facts)
        assert not facts_stated([facts], ["Prospecting 10%, qualification 20%, proposal 50%, negotiation 75%."],
                                rivals), (ask.say, facts)


def test_a_held_back_conversion_names_the_qualifying_step_before_going_ahead():
    """"I'd like to convert my lead Angela Pham from Cole-Kemp into a deal. After you qualify them, go
    ahead." reads backwards; the step is asked first: "Qualify them first, then go ahead." """
    asks = [ask for ask, _, _ in _asks("convert_lead", draws=400)]
    assert any(ask.detail and "go ahead" in ask.say for ask in asks)
    for ask in asks:
        assert "After you qualify them, go ahead" not in ask.say, ask.say


def test_a_close_date_brought_forward_is_not_said_to_slip_or_be_pushed_out():
    """"Could you push out the expected close date of the 'Walter-Powell - Support upgrade' deal? Make it
    November 30." for a deal closing on January 17 contradicts itself: 'slipping' and 'push' are said only
    of a later date."""
    earlier = later = 0
    for ask, _, read in _asks("update_deal", draws=400):
        if "close_date" not in ask.args:
            continue
        current = read("get_deal", deal_id=ask.args["deal_id"])["close_date"]
        words = f"{ask.say} {ask.detail or ''}".lower()
        if ask.args["close_date"] < current:
            earlier += 1
            assert "slipping" not in words and "push" not in words, words
        else:
            later += 1
    assert earlier and later


def test_a_new_contacts_title_is_set_off_by_commas():
    """"Please add Kenji Watanabe, Head of IT as a new contact at ..." closes the title with a comma."""
    titled = 0
    for ask, _, _ in _asks("create_contact", draws=200):
        if "title" not in ask.args:
            continue
        titled += 1
        for text in (ask.say, ask.detail or ""):
            assert f"{ask.args['title']} as " not in text and f"{ask.args['title']} at " not in text, text
    assert titled


def test_my_lead_settles_the_askers_rep_id():
    """"I finally got hold of my lead Lauren Clark ..." then a task under the asker's name: the lead's
    record shows its owner, the asker, so the later call takes that rep id from it, not from a search
    by name (a model that takes the short route must not lose coverage)."""
    mine = others = 0
    for ask, _, read in _asks("update_lead_status", draws=200):
        listed = read("list_leads", name=ask.mentions[0], limit=100)
        lead = next(x for x in listed if x["lead_id"] == ask.args["lead_id"])
        if "my lead" in ask.say.lower():
            mine += 1
            assert ask.settles == (("rep", lead["owner_id"]),), ask.say
            assert "my lead" in ask.terse.lower()
        else:
            others += 1
            assert ask.settles == () and "my lead" not in ask.terse.lower(), ask.say
    assert mine and others


def test_my_lead_status_read_settles_the_askers_rep_id():
    """"What's the status of my lead Robin Wallace?" then a meeting logged under the asker's name: the
    lead's record shows its owner, the asker, so the later call takes that rep id from it, not from a
    search by name (a model that takes the short route must not lose coverage)."""
    mine = others = 0
    for ask, result, _ in _asks("list_leads", draws=200):
        if set(ask.args) != {"name"}:
            continue
        if "my lead" in ask.say.lower():
            mine += 1
            assert ask.settles == (("rep", result[0]["owner_id"]),), ask.say
            assert "my lead" in ask.terse.lower()
        else:
            others += 1
            assert ask.settles == () and "my lead" not in ask.terse.lower(), ask.say
    assert mine and others


def test_a_listing_of_my_leads_by_status_says_my_leads():
    """"Pull up the leads of mine with status qualified" reads stiffly: the request says "my leads"."""
    says = [ask.say for ask, _, _ in _asks("list_leads", draws=200) if "status" in ask.args]
    assert any("with status" in say for say in says)
    assert not any("of mine" in say for say in says), [s for s in says if "of mine" in s][:1]


def test_disqualifying_my_lead_settles_the_askers_rep_id():
    """"Please disqualify my lead Lacey Cook" then a lead created under the asker's name: the lead's
    record shows its owner, the asker, so the later call takes that rep id from it, not from a search
    by name (a model that takes the short route must not lose coverage)."""
    mine = others = 0
    for ask, _, read in _asks("disqualify_lead", draws=200):
        lead = next(lead for lead in read("list_leads", name=ask.mentions[0], limit=100)
                    if lead["lead_id"] == ask.args["lead_id"])
        if "my lead" in ask.say.lower():
            mine += 1
            assert ask.settles == (("rep", lead["owner_id"]),), ask.say
            assert "my lead" in ask.terse.lower()
        else:
            others += 1
            assert ask.settles == () and "my lead" not in ask.terse.lower(), ask.say
    assert mine and others


def test_a_lead_status_update_puts_no_possessive_on_the_company_name():
    """"Update Wendy Jackson from Hartman Mendoza and Cruz's lead status" lands the possessive on the
    company: the request says "the status of the lead ..."."""
    says = [ask.say for ask, _, _ in _asks("update_lead_status", draws=200)]
    assert any("status of the lead" in say for say in says)
    assert not any("'s lead status" in say for say in says), [s for s in says if "'s lead status" in s][:1]


def test_an_activity_on_a_deal_names_the_deal_without_a_comma():
    """"Could you record a call for Yolanda Daugherty, on the multi-year renewal deal with Day-Smith?"
    reads awkwardly: the activity is with the contact, about the deal."""
    says = [text for ask, _, _ in _asks("log_activity", draws=200) if "deal_id" in ask.args
            for text in (ask.say, ask.detail or "", ask.terse)]
    assert says and any(" about the " in say for say in says)
    assert not any(", on " in say or " call for " in say or " meeting for " in say for say in says), \
        [s for s in says if ", on " in s or " for " in s][:1]


def test_a_last_stage_change_is_asked_only_of_a_deal_that_moved():
    """"Last stage change on the training package deal with Stephens and Sons?" of a deal opened in
    prospecting and never moved presumes a change that never happened: the stage history is asked only
    of a deal whose stage changed after it opened."""
    asked = 0
    for seed in (0, 1):
        for ask, result, _ in _asks("get_deal", seed=seed, draws=150):
            if "stage" not in (ask.terse or "").lower():
                continue
            asked += 1
            assert len(result["stage_history"]) > 1, (ask.say, result["stage_history"])
    assert asked


def test_a_new_close_date_does_not_say_its_verb_twice():
    """"Could you push out the expected close date of the Webb Ltd analytics add-on deal? Push it to
    June 30." repeats the verb: the sentence that gives the date says it in other words."""
    import re

    held = 0
    for ask, _, _ in _asks("update_deal", draws=400):
        if "close_date" not in ask.args:
            continue
        held += bool(ask.detail)
        words = f"{ask.say} {ask.detail or ''}"
        for verb in ("push", "move"):
            assert len(re.findall(rf"\b{verb}", words, re.I)) <= 1, words
    assert held


def test_a_request_opens_with_no_name_of_a_rep_who_left():
    """"And if you could, dustin Brown left the team and I'm taking over one of their deals." lowers the
    name of the rep who left, which the request only mentions (no look-up names them): a request about a
    lead or deal of a rep who left opens with other words, so that a joiner before it lowers no name."""
    gone = {r["name"] for r in _asks("find_reps", draws=1)[0][2]("find_reps") if not r["active"]}
    assert gone
    seen = 0
    for tool in ("reassign_lead", "reassign_deal", "convert_lead", "update_deal_stage"):
        for ask, _, _ in _asks(tool, draws=300):
            for text in (ask.say, ask.detail or ""):
                seen += any(name in text for name in gone)
                assert not any(text.startswith(name) for name in gone), text
    assert seen


def test_contacts_at_a_company_are_asked_with_what_only_its_record_shows():
    """"Who are our contacts at Howard LLC?" is answered as well by one search of contacts by the
    company's id as by the company's record, and the gold credits only the record: the request asks
    besides for the company's deals or account owner, which the record alone shows beside the contacts."""
    asks = _asks("get_company", draws=300)
    contacts = 0
    for ask, result, _ in asks:
        names = {c["name"] for c in result["contacts"]}
        facts = list(ask.facts(result))
        if any(f in names for f in facts):
            contacts += 1
            assert any(not isinstance(f, str) or f not in names for f in facts), (ask.say, facts)
    assert contacts


def _deal_lookup():
    from prove_env.synthesis.recipe import get_recipe

    return next(lookup for lookup in get_recipe("crm").lookups if lookup.kind == "deal")


def test_a_deal_named_in_quotes_is_looked_up_by_its_full_name():
    """"Move the 'Orozco-Bush - Security review' deal to proposal.": a model searches the deals for the
    name the user quoted, as short a route as a search by the company's name, and scored less for it:
    a deal said by its full name in quotes is looked up by that name, any other by its company's name."""
    lookup = _deal_lookup()
    quoted = other = 0
    for tool in ("update_deal_stage", "update_deal", "reassign_deal", "get_deal", "list_activities"):
        for ask, _, _ in _asks(tool, draws=150):
            for ref in (r for r in ask.refs if r.kind == "deal"):
                deal = ref.entity
                if f"'{deal['name']}'" in f"{ask.say} {ask.detail or ''}":
                    quoted += 1
                    assert lookup.args(ref) == {"name": deal["name"]}, ask.say
                else:
                    other += 1
                    assert lookup.args(ref) == {"name": deal["company_name"]}, ask.say
    assert quoted and other


def test_a_deals_figures_asked_by_its_quoted_name_are_read_by_that_name():
    """"How much is the 'Weber-Meza - Annual subscription' deal worth?" lists the deals by the name the
    user quoted; "... the annual subscription deal with Weber-Meza" by the company's name."""
    quoted = other = 0
    for ask, result, _ in _asks("list_deals", draws=200):
        if set(ask.args) != {"name"} or not ask.facts or not ask.mentions:
            continue
        company = ask.mentions[0]
        names = [d["name"] for d in result]
        said = next((n for n in names if f"'{n}'" in ask.say), None)
        if said:
            quoted += 1
            assert ask.args == {"name": said}, ask.say
        elif " deal" in ask.say and company in ask.say:
            other += 1
            assert ask.args == {"name": company}, ask.say
    assert quoted and other


def test_a_quoted_deal_searched_by_its_name_scores_the_maximum(play):
    """Played through the environment: the quoted deal found by the name the user quoted, then moved,
    reaches the reward of the gold."""
    from prove_env.task import Task

    ask = next(ask for ask, _, read in _asks("update_deal_stage", draws=300)
               if any(f"'{r.entity['name']}'" in ask.say for r in ask.refs if r.kind == "deal")
               and "lost_reason" not in ask.args and not ask.prior and not ask.detail)
    ref = next(r for r in ask.refs if r.kind == "deal")
    search = _deal_lookup().args(ref)
    task = Task(id="quoted", server="crm", seed=0, user_turns=[ask.say],
                gold=[[{"id": "g1", "name": "list_deals", "arguments": search},
                       {"id": "g2", "name": "update_deal_stage", "arguments": dict(ask.args), "depends_on": ["g1"]}]])
    move = _call("update_deal_stage", **ask.args)
    typed = play(task, [{"name": "list_deals", "arguments": {"name": ref.entity["name"]}}, move, "Done."])
    gold = play(task, [{"name": "list_deals", "arguments": search}, move, "Done."])
    assert typed["success"] and typed["reward_breakdown"] == gold["reward_breakdown"]


def test_a_lead_qualified_before_converting_is_asked_in_every_wording():
    """"Convert lead William Vance: $6,000, close June 30." of a lead only contacted: the gold marks it
    qualified first, which the terse words never asked (a model that asks before qualifying is scored
    wrong): every wording of a conversion with that first step asks for it."""
    seen = 0
    for ask, _, _ in _asks("convert_lead", draws=400):
        if not any(tool == "update_lead_status" for tool, _ in ask.prior):
            continue
        seen += 1
        for text in (ask.say, ask.terse):
            assert "qualif" in text.lower(), text
    assert seen


def test_a_stage_change_is_not_asked_as_an_aside_of_losing_track():
    """"I lost track of the Weber-Meza annual subscription deal." reads oddly right after a question about
    that deal: the stage history is asked without it."""
    said = [ask.say for ask, _, _ in _asks("get_deal", draws=300)]
    assert any("stage" in say for say in said)
    assert not any("lost track" in say for say in said), [s for s in said if "lost track" in s][:1]


def test_a_deal_moved_back_has_not_moved_on():
    """"The ... deal has moved on; can you change its stage? It's in proposal now." of a deal in
    negotiation: a deal moved back a stage is said to have slipped back."""
    order = ["prospecting", "qualification", "proposal", "negotiation", "closed_won", "closed_lost"]
    back = on = 0
    for ask, _, read in _asks("update_deal_stage", draws=600):
        if "moved on" not in ask.say and "slipped back" not in ask.say:
            continue
        before = read("get_deal", deal_id=ask.args["deal_id"])["stage"]
        forward = order.index(ask.args["stage"]) > order.index(before)
        back += not forward
        on += forward
        assert ("moved on" in ask.say) == forward, (before, ask.args["stage"], ask.say)
    assert back and on


def test_a_taken_over_deal_is_never_asked_to_move_along_the_pipeline():
    """"Since Don Mccarthy is gone, reassign our annual subscription deal with Davis-Barron to me and move
    it along the pipeline." then "It's in proposal now." of a deal in negotiation: the stage given lies
    behind the deal's, and ahead of it "along" reads as the next stage, which leaves nothing to ask. A
    take-over that holds the stage back asks to update it, whichever way it goes."""
    order = ["prospecting", "qualification", "proposal", "negotiation", "closed_won", "closed_lost"]
    back = 0
    for ask, _, read in _asks("update_deal_stage", draws=600):
        if not any(tool == "reassign_deal" for tool, _ in ask.prior):
            continue
        before = read("get_deal", deal_id=ask.args["deal_id"])["stage"]
        back += order.index(ask.args["stage"]) < order.index(before)
        assert "along" not in ask.say, (before, ask.args["stage"], ask.say, ask.detail)
    assert back


def test_a_deal_is_not_said_to_be_in_closed_won():
    """"... move it along the pipeline. It's in closed won now.": a won deal is said to be closed won, not
    to sit in it as in a stage of the pipeline."""
    won = 0
    for ask, _, _ in _asks("update_deal_stage", draws=600):
        if ask.args["stage"] != "closed_won":
            continue
        for text in (ask.say, ask.detail or "", ask.terse):
            won += "closed won" in text
            assert "in closed won" not in text, text
    assert won


def test_a_new_lead_is_not_asked_whether_it_is_qualified_yet():
    """"Remind me: has my lead Jennifer Valdez been qualified yet? What status is it in?" of a new lead
    draws the answer "Not yet: she's still new; she hasn't been contacted or qualified.", which the facts
    read as a guess among the statuses (success false): the question is asked only of a lead past new."""
    asked = 0
    for ask, result, _ in _asks("list_leads", draws=300):
        if "qualified yet" in ask.say:
            asked += 1
            assert result[0]["status"] != "new", ask.say
    assert asked


def test_a_companys_owner_is_asked_only_with_what_no_shorter_route_shows():
    """"It goes to Timothy Lam." then "Which rep looks after Figueroa Griffin and Vaughan, and how big is the
    company?": the company's search row shows its owner's id (REP-0002, which the conversation has already
    named) and its size, so the search alone answers, and the gold's `get_company` scored the short route
    less (coverage 0.8); the size was not even checked. The owner is asked only beside the contacts and the
    deals: with every rep's name known, no single read beside the company's search row holds every fact."""
    asked = owners = 0
    for ask, result, read in _asks("get_company", draws=300):
        facts = list(ask.facts(result))
        row = read("search_companies", name=result["name"])[0]
        known = [row, [r["name"] for r in read("find_reps")]]
        for other in (read("search_contacts", company_id=row["company_id"]),
                      read("list_deals", company_id=row["company_id"])):
            assert not all(_holds(known + [other], f) for f in facts), (ask.say, facts)
        asked += 1
        owners += result["owner_name"] in facts
    assert asked and owners


def test_a_free_text_reason_is_given_in_quotes():
    """"Bad news: the 'Walsh Ltd - Team licenses' deal is closed lost. Reason: Went with a competitor.": the
    reason is stored as typed, and "went with a competitor" or "Went with a competitor." fails the state
    check: every wording of a lost deal's or a disqualified lead's reason quotes it, so its exact words are
    plain."""
    seen = 0
    for tool, key in (("update_deal_stage", "lost_reason"), ("disqualify_lead", "reason")):
        for ask, _, _ in _asks(tool, draws=300):
            if key not in ask.args:
                continue
            reason = ask.args[key]
            seen += 1
            for text in (f"{ask.say} {ask.detail or ''}", ask.terse):
                assert f"'{reason}'" in text, text
                assert text.count(reason) == text.count(f"'{reason}'"), text
    assert seen


def test_a_task_is_created_for_a_contact_not_on_them():
    """"Please create a task 'Book on-site visit' on Reginald Fuentes.": a to-do is for a person."""
    seen = 0
    for ask, _, _ in _asks("create_task", draws=300):
        for text in (ask.say, ask.detail or "", ask.terse):
            seen += "create a task" in text
            assert not re.search(r"task '[^']+' on ", text), text
    assert seen


def test_a_reason_the_user_gave_is_kept_in_any_case_or_stop(play, served):
    """"Close it as lost. Reason: Went with a competitor.": the reason written 'went with a competitor'
    or with the sentence's full stop is the reason the user gave, not damage to the deal (a lost deal's
    and a disqualified lead's reasons are details of the state check); another deal closed is still
    damage."""
    from prove_env.task import Task

    s = served("crm")
    deal, other = [d for d in deals(s) if d["stage"] == "negotiation"][:2]
    lead = leads(s, "new")[0]
    close = Task(id="lost", server="crm", seed=0, user_turns=["Close it as lost. Reason: 'Went with a competitor'."],
                 gold=[[{"id": "g1", "name": "update_deal_stage", "arguments": {
                     "deal_id": deal["deal_id"], "stage": "closed_lost", "lost_reason": "Went with a competitor"}}]])
    for written in ("went with a competitor", "Went with a competitor."):
        call = {"name": "update_deal_stage", "arguments": {"deal_id": deal["deal_id"], "stage": "closed_lost",
                                                           "lost_reason": written}}
        assert play(close, [call, "Done."])["success"], written
    wrong = {"name": "update_deal_stage", "arguments": {"deal_id": other["deal_id"], "stage": "closed_lost",
                                                        "lost_reason": "Went with a competitor"}}
    assert not play(close, [wrong, "Done."])["success"]
    drop = Task(id="dq", server="crm", seed=0, user_turns=["Disqualify that lead. Reason: 'No budget'."],
                gold=[[{"id": "g1", "name": "disqualify_lead", "arguments": {"lead_id": lead["lead_id"],
                                                                            "reason": "No budget"}}]])
    call = {"name": "disqualify_lead", "arguments": {"lead_id": lead["lead_id"], "reason": "no budget."}}
    assert play(drop, [call, "Done."])["success"]


def test_a_forecast_is_declared_to_be_added_up_from_the_deal_listing():
    """"What's my forecast looking like? The period is June 2026." with `get_forecast` hidden was marked
    unavailable, while one `list_deals` by owner and close dates shows every deal's amount, probability
    and stage, and the forecast is their won plus weighted sum: the two are declared substitutes, so a
    missing-function task never hides the forecast while it shows the listing."""
    from prove_env.synthesis.recipe import get_recipe

    checked = 0
    for ask, result, read in _asks("get_forecast", draws=60):
        owner = {"owner_id": ask.args["owner_id"]} if "owner_id" in ask.args else {}
        listed = read("list_deals", closing_from=ask.args["start_date"], closing_to=ask.args["end_date"],
                      limit=100, **owner)
        won = sum(d["amount"] for d in listed if d["stage"] == "closed_won")
        weighted = sum(d["amount"] * d["probability"] / 100 for d in listed if d["stage"] in OPEN)
        assert round(won + weighted, 2) == result["forecast"], ask.say
        checked += 1
    assert checked > 10
    assert "list_deals" in get_recipe("crm").substitutes_of("get_forecast")


def test_a_note_is_logged_on_a_contact_not_with_them():
    """"Log note with Dustin Heath: 'Prefers email over calls'.": a call or a meeting is had with a
    person, a note is put on them, in the terse words as in the others."""
    notes = 0
    for ask, _, _ in _asks("log_activity", draws=300):
        if ask.args["kind"] != "note":
            continue
        notes += 1
        for text in (ask.say, ask.detail or "", ask.terse):
            assert "note with" not in text, text
    assert notes


def test_the_default_probability_of_every_open_stage_is_checked():
    """"What are the stages of our sales pipeline, and the default probability of each?" checked the
    probabilities of qualification, proposal and negotiation only: an answer that gave prospecting no
    probability passed. Every open stage's default probability is checked; a closed stage's 100% or 0%
    goes without saying."""
    from prove_env.episode import choices
    from prove_env.facts import facts_stated

    found = _asks("list_pipeline_stages", draws=5)
    assert found
    rivals = choices(get_toolkit("crm"))
    short = ("Prospecting, qualification (20%), proposal (50%), negotiation (75%), closed won (100%) "
             "and closed lost (0%).")
    full = "Prospecting 10%, qualification 20%, proposal 50%, negotiation 75%, then closed won or lost."
    for ask, result, _ in found:
        facts = ask.facts(result)
        assert facts_stated([facts], [full], rivals), (ask.say, facts)
        assert not facts_stated([facts], [short], rivals), (ask.say, facts)


def test_a_deals_activities_asked_by_kind_name_every_kind_checked():
    """"Could you list the calls, meetings and tasks on the 'Neal Ltd - Security review' deal?" checked
    the subject of a note on it too ('Champion is the IT manager'): an answer that listed the calls,
    meetings and tasks it was asked for, and no note, failed. A request for a deal's activities names
    every kind whose subject the facts check, or none."""
    plural = {"call": "calls", "meeting": "meetings", "note": "notes", "task": "tasks", "email": "emails"}
    checked = 0
    for ask, result, _ in _asks("list_activities", draws=200):
        if "deal_id" not in ask.args:
            continue
        for text in (ask.say, ask.detail or "", ask.terse):
            named = [word for word in plural.values() if re.search(rf"\b{word}\b", text.lower())]
            if not named:
                continue
            checked += 1
            for activity in result[:5]:
                assert plural[activity["kind"]] in named, (text, activity["kind"], activity["subject"])
    assert checked


def test_a_taken_over_lead_is_not_asked_for_with_a_clause_of_cause_first():
    """"After that, now that Jasmine Johnson has left the team, I'm taking over one of their leads.": a
    request joined to the one before by a joiner of order read twice timed when it opened with "Now
    that ...". The request for a lead of a rep who left opens with what is asked, the reason after it."""
    checked = 0
    for ask, _, _ in _asks("reassign_lead", draws=200):
        for text in (ask.say, ask.detail or ""):
            if "left the team" in text:
                checked += 1
                assert not text.lower().startswith("now that"), text
    assert checked


def test_a_deal_closed_lost_is_not_called_lost_twice():
    """"We lost 'Rivera LLC - Platform expansion'. Please close it as lost.": the request to close a
    deal as lost said "lost" twice in two sentences. It says it once; the reason is the user's own."""
    checked = 0
    for ask, _, _ in _asks("update_deal_stage", draws=300):
        if ask.args.get("stage") != "closed_lost":
            continue
        for text in (ask.say, ask.detail or ""):
            said = text.replace(ask.args["lost_reason"], "")
            checked += 1
            assert len(re.findall(r"\blost\b", said, re.IGNORECASE)) <= 1, text
    assert checked
