"""The crm server's tools: a sales team's companies, contacts, leads, deal pipeline, forecast and activities.

Business rules, in one place:
- A lead moves new -> contacted -> qualified, one step at a time, and from there is converted or
  disqualified; converted and disqualified leads are final. Only a qualified lead converts, once:
  converting links the company of the same name (or creates it, owned by the lead's rep), links
  the contact with the lead's email at that company (or creates it), and opens a deal in the
  qualification stage owned by the lead's rep.
- No two contacts share an email; no two open leads share an email.
- A deal's stage changes are recorded. Open deals move freely between open stages; moving to
  closed_won or closed_lost closes the deal for good (closed_lost needs a reason). Each stage sets
  the deal's default probability; update_deal may override it for an open deal.
- Close dates and task due dates are never in the past when set.
- Activities hang off a contact, a deal or both (then the contact must work at the deal's
  company). Only tasks are completed; a completed task keeps its completion time.
- Setting what is already so (a deal to the stage it is in, a lead to its status, a completed task
  to completed) succeeds and says nothing changed.
- Merging two entries of the same person (same company) keeps one and moves the other's
  activities, deals and converted leads to it before removing it.
- A rep who left the team (inactive) owns nothing new: no new lead, deal, activity or task, no lead
  or deal reassigned to them. Their open leads and deals wait to be reassigned to an active rep:
  until then such a lead is not converted and such a deal does not change stage.
- Reassigning an open lead or deal to another active rep records the change of owner; a deal's open
  tasks held by its previous owner move with it. Converted, disqualified and closed records keep
  their owner.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from sqlalchemy import func, select

from prove_env.toolkit import Date, Detail, Entity, Id, Limit, Money, Toolkit, ToolError, check_range, tool

from .models import Activity, Base, Company, Contact, Deal, Lead, OwnerChange, Rep, StageChange
from .seed import CLOSED_STAGES, OPEN_STAGES, STAGES, seed

Stage = Literal["prospecting", "qualification", "proposal", "negotiation", "closed_won", "closed_lost"]
LeadStatus = Literal["new", "contacted", "qualified", "converted", "disqualified"]
LeadSource = Literal["web", "referral", "event", "cold_call", "partner"]
NEXT_STATUS = {"new": "contacted", "contacted": "qualified"}
CONVERTED_DEAL_STAGE = "qualification"
MAX_TEXT = 120
# Notes and a lead's source that the user did not ask for are details: the state check tolerates them.
_NOTES = (Detail("activities", "notes"),)
_SOURCE = (Detail("leads", "source"),)


class Crm(Toolkit):
    """A sales team's CRM: look up reps, companies, contacts, leads and deals; work leads from new to
    qualified and convert them into a company, a contact and a deal; move deals through the
    pipeline (prospecting, qualification, proposal, negotiation, closed won or lost) and forecast
    them by stage and owner; log calls, meetings and notes, and track tasks with due dates; merge
    duplicate contacts. Amounts are in USD."""

    name = "crm"
    models = Base
    seed = staticmethod(seed)
    entities = (
        Entity("rep", Rep, "REP", lookup="find_reps"),
        Entity("company", Company, "CMP", lookup="search_companies"),
        Entity("contact", Contact, "CON", lookup="search_contacts"),
        Entity("lead", Lead, "LEA", lookup="list_leads"),
        Entity("deal", Deal, "DEA", lookup="list_deals"),
        Entity("activity", Activity, "ACT", lookup="list_activities"),
    )

    # -- reps ----------------------------------------------------------------------------------------

    @tool(read_only=True)
    def find_reps(self, name: str | None = None, region: Literal["West", "East", "Central", "South"] | None = None
                  ) -> list[dict]:
        """Find sales reps by part of their name or by region; with neither, list every rep. Ordered by rep id.
        Each says whether the rep is active or has left the team (and when).

        Args:
            name: part of the rep's name, case-insensitive, such as 'Dana Lee' or 'lee'.
            region: only reps of this sales region: 'West', 'East', 'Central' or 'South'.
        """
        return [_rep(r) for r in self.find(Rep, name=name) if region is None or r.region == region]

    # -- companies -----------------------------------------------------------------------------------

    @tool(read_only=True)
    def search_companies(self, name: str | None = None, industry: str | None = None,
                         owner_id: Id("rep") | None = None, limit: Limit = 20) -> list[dict]:
        """Find companies by part of their name, industry or account owner; with none of them, list
        companies. Ordered by name.

        Args:
            name: part of the company's name, case-insensitive, such as 'Acme' or 'acme group'.
            industry: the industry, case-insensitive, such as 'Software' or 'Healthcare'.
            owner_id: only companies whose account owner is this rep, such as 'REP-0002'.
        """
        where, params = [], []
        if name and name.strip():
            where.append("lower(name) LIKE '%' || ? || '%'")
            params.append(name.strip().lower())
        if industry and industry.strip():
            where.append("lower(industry) = ?")
            params.append(industry.strip().lower())
        if owner_id is not None:
            where.append("owner_id = ?")
            params.append(self.get(Rep, owner_id).id)
        companies = self.load(Company, f"SELECT id FROM companies WHERE {' AND '.join(where) or '1'} "
                                       "ORDER BY name, id LIMIT ?", *params, limit)
        return [_company(c) for c in companies]

    @tool(read_only=True, produces=("contact", "deal"))
    def get_company(self, company_id: Id("company")) -> dict:
        """Return a company with its account owner, its contacts and its deals (open and closed).

        Args:
        """
        company = self.get(Company, company_id)
        contacts = self.load(Contact, "SELECT id FROM contacts WHERE company_id = ? ORDER BY id", company.id)
        deals = self.load(Deal, "SELECT id FROM deals WHERE company_id = ? ORDER BY id", company.id)
        owner = self.db.get(Rep, company.owner_id)
        return {**_company(company), "owner_name": owner.name if owner else None,
                "contacts": [self._contact(c, company) for c in contacts],
                "deals": [self._deal(d) for d in deals]}

    # -- contacts ------------------------------------------------------------------------------------

    @tool(read_only=True)
    def search_contacts(self, name: str | None = None, email: str | None = None,
                        company_id: Id("company") | None = None, limit: Limit = 20) -> list[dict]:
        """Find contacts by part of their name, their email, or their company; with none of them, list
        contacts. Every criterion given must match. Ordered by contact id.

        Args:
            name: part of the contact's full name, case-insensitive, such as 'Maria Lopez' or 'lopez'.
            email: the contact's exact email address, case-insensitive, such as 'maria.lopez@acme.com'.
            company_id: only contacts of this company, such as 'CMP-0012'.
        """
        where, params = [], []
        if name and name.strip():
            where.append("lower(first_name || ' ' || last_name) LIKE '%' || ? || '%'")
            params.append(name.strip().lower())
        if email and email.strip():
            where.append("lower(email) = ?")
            params.append(email.strip().lower())
        if company_id is not None:
            where.append("company_id = ?")
            params.append(self.get(Company, company_id).id)
        contacts = self.load(Contact, f"SELECT id FROM contacts WHERE {' AND '.join(where) or '1'} ORDER BY id "
                                         "LIMIT ?", *params, limit)
        return [self._contact(c) for c in contacts]

    @tool(read_only=True, produces=("company", "deal"))
    def get_contact(self, contact_id: Id("contact")) -> dict:
        """Return a contact in full: company, email, phone, title, the deals they are the contact of, and
        how many activities and open tasks they have.

        Args:
        """
        contact = self.get(Contact, contact_id)
        deals = self.load(Deal, "SELECT id FROM deals WHERE contact_id = ? ORDER BY id", contact.id)
        (activities, open_tasks), = self.rows(
            "SELECT count(*), count(*) FILTER (WHERE kind = 'task' AND completed_at IS NULL) FROM activities "
            "WHERE contact_id = ?", contact.id)
        return {**self._contact(contact), "created_at": contact.created_at.date(),
                "deals": [self._deal(d) for d in deals], "activities": activities, "open_tasks": open_tasks}

    @tool(produces=("contact",))
    def create_contact(self, company_id: Id("company"), first_name: str, last_name: str, email: str,
                       phone: str | None = None, title: str | None = None) -> dict:
        """Add a contact to a company. No two contacts may share an email address.

        Args:
            first_name: the contact's first name, such as 'Maria'.
            last_name: the contact's last name, such as 'Lopez'.
            email: the contact's email address, such as 'maria.lopez@acme.com'.
            phone: an optional phone number, such as '(555) 010-2233'.
            title: an optional job title, such as 'CFO'.
        """
        company = self.get(Company, company_id)
        first, last = _text(first_name, "first_name"), _text(last_name, "last_name")
        address = _email(email)
        taken = self.db.scalar(select(Contact).where(func.lower(Contact.email) == address))
        if taken is not None:
            raise ToolError(f"Contact {taken.id} ({taken.name}) already has the email {address}; "
                            "use that contact instead of adding another")
        contact = Contact(id=self.new_id("CON"), company_id=company.id, first_name=first, last_name=last,
                          email=address, phone=(phone or "").strip() or None, title=(title or "").strip() or None,
                          created_at=self.now)
        self.db.add(contact)
        return self._contact(contact, company)

    @tool(destructive=True)
    def merge_contacts(self, keep_contact_id: Id("contact"), duplicate_contact_id: Id("contact")) -> dict:
        """Merge a duplicate contact into the one to keep: the duplicate's activities, deals and converted
        leads move to the kept contact, blank phone or title on the kept contact are filled from the
        duplicate, and the duplicate is deleted. Both must belong to the same company.

        Args:
            keep_contact_id: the contact that stays, such as 'CON-0031'.
            duplicate_contact_id: the contact merged into it and removed, such as 'CON-0140'.
        """
        keep, dup = self.get(Contact, keep_contact_id), self.get(Contact, duplicate_contact_id)
        if keep.id == dup.id:
            raise ToolError(f"Cannot merge contact {keep.id} into itself; name two different contacts")
        if keep.company_id != dup.company_id:
            raise ToolError(f"Contacts {keep.id} and {dup.id} work at different companies ({keep.company_id}, "
                            f"{dup.company_id}); only entries of the same company are merged")
        moved = {"activities": 0, "deals": 0, "leads": 0}
        for activity in self.db.scalars(select(Activity).where(Activity.contact_id == dup.id)):
            activity.contact_id = keep.id
            moved["activities"] += 1
        for deal in self.db.scalars(select(Deal).where(Deal.contact_id == dup.id)):
            deal.contact_id = keep.id
            moved["deals"] += 1
        for lead in self.db.scalars(select(Lead).where(Lead.converted_contact_id == dup.id)):
            lead.converted_contact_id = keep.id
            moved["leads"] += 1
        keep.phone = keep.phone or dup.phone
        keep.title = keep.title or dup.title
        self.db.flush()
        self.db.delete(dup)
        return {**self._contact(keep), "merged_contact_id": dup.id, "moved_activities": moved["activities"],
                "moved_deals": moved["deals"], "moved_leads": moved["leads"]}

    # -- leads ---------------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_leads(self, owner_id: Id("rep") | None = None, status: LeadStatus | None = None,
                   name: str | None = None, limit: Limit = 20) -> list[dict]:
        """List leads, newest first, by owning rep, status or part of the lead's name or company.

        Args:
            owner_id: only leads owned by this rep, such as 'REP-0002'.
            status: only leads in this status: 'new', 'contacted', 'qualified', 'converted' or 'disqualified'.
            name: part of the lead's full name or company name, case-insensitive, such as 'Chen' or 'Initech'.
        """
        where, params = [], []
        if owner_id is not None:
            where.append("owner_id = ?")
            params.append(self.get(Rep, owner_id).id)
        if status:
            where.append("status = ?")
            params.append(status)
        if name and name.strip():
            where.append("(lower(first_name || ' ' || last_name) LIKE '%' || ? || '%' "
                         "OR lower(company_name) LIKE '%' || ? || '%')")
            params += [name.strip().lower()] * 2
        leads = self.load(Lead, f"SELECT id FROM leads WHERE {' AND '.join(where) or '1'} "
                                   "ORDER BY created_at DESC, id DESC LIMIT ?", *params, limit)
        return [_lead(lead) for lead in leads]

    @tool(produces=("lead",), details=_SOURCE)
    def create_lead(self, owner_id: Id("rep"), first_name: str, last_name: str, email: str, company_name: str,
                    title: str | None = None, source: LeadSource | None = None) -> dict:
        """Add a new lead owned by a rep, with status 'new'. No two open leads may share an email.

        Args:
            owner_id: the rep who will work the lead, such as 'REP-0002'.
            first_name: the lead's first name, such as 'Wei'.
            last_name: the lead's last name, such as 'Chen'.
            email: the lead's email address, such as 'wchen@initech.com'.
            company_name: the company the lead works at, such as 'Initech'.
            title: an optional job title, such as 'Head of IT'.
            source: where the lead came from: 'web', 'referral', 'event', 'cold_call' or 'partner'.
        """
        owner = self._active_rep(owner_id, "own leads")
        address = _email(email)
        taken = self.db.scalar(select(Lead).where(func.lower(Lead.email) == address,
                                                  Lead.status.in_(("new", "contacted", "qualified"))))
        if taken is not None:
            raise ToolError(f"Lead {taken.id} ({taken.name}, {taken.status}) already has the email {address}; "
                            "work that lead instead of adding another")
        lead = Lead(id=self.new_id("LEA"), owner_id=owner.id, first_name=_text(first_name, "first_name"),
                    last_name=_text(last_name, "last_name"), email=address,
                    company_name=_text(company_name, "company_name"), title=(title or "").strip() or None,
                    source=source, status="new", disqualified_reason=None, created_at=self.now,
                    status_changed_at=self.now, converted_company_id=None, converted_contact_id=None,
                    converted_deal_id=None)
        self.db.add(lead)
        return _lead(lead)

    @tool(idempotent=True, sets=("lead.qualified",))
    def update_lead_status(self, lead_id: Id("lead"), status: Literal["contacted", "qualified"]) -> dict:
        """Move a lead one step forward: from 'new' to 'contacted', or from 'contacted' to 'qualified'.

        Steps cannot be skipped or undone; converted and disqualified leads are final (see convert_lead
        and disqualify_lead). A lead already in the status stays as it is (changed is false).

        Args:
            status: the new status: 'contacted' or 'qualified'.
        """
        lead = self.get(Lead, lead_id)
        self._check_open_lead(lead)
        if lead.status == status:
            return {**_lead(lead), "changed": False}
        if NEXT_STATUS.get(lead.status) != status:
            if lead.status == "new":
                hint = "mark it contacted first"
            else:  # qualified: nothing comes back a step
                hint = "a qualified lead is next converted (convert_lead) or disqualified (disqualify_lead)"
            raise ToolError(f"Lead {lead.id} is {lead.status} and cannot become {status}; {hint}")
        lead.status, lead.status_changed_at = status, self.now
        return {**_lead(lead), "changed": True}

    @tool(idempotent=True, sets=("lead.reassigned",))
    def reassign_lead(self, lead_id: Id("lead"), new_owner_id: Id("rep")) -> dict:
        """Hand an open lead (new, contacted or qualified) to another active rep; the change of owner is
        recorded. A lead the rep already owns stays as it is (changed is false).

        Args:
            new_owner_id: the active rep who takes the lead over, such as 'REP-0004'.
        """
        lead = self.get(Lead, lead_id)
        self._check_open_lead(lead)
        old, new = self._hand_over(new_owner_id, lead.owner_id, lead_id=lead.id)
        lead.owner_id = new.id
        return {**_lead(lead), "previous_owner": {"rep_id": old.id, "name": old.name}, "owner_name": new.name,
                "changed": old.id != new.id, "owner_history": self._owner_history("lead_id", lead.id)}

    @tool(destructive=True, details=(Detail("leads", "disqualified_reason"),))
    def disqualify_lead(self, lead_id: Id("lead"), reason: str) -> dict:
        """Disqualify a new, contacted or qualified lead, with the reason. A disqualified lead is final.

        Args:
            reason: why the lead is not pursued, such as 'No budget'.
        """
        lead = self.get(Lead, lead_id)
        self._check_open_lead(lead)
        lead.status, lead.status_changed_at = "disqualified", self.now
        lead.disqualified_reason = _text(reason, "reason")
        return _lead(lead)

    @tool(produces=("company", "contact", "deal"), requires=("lead.qualified", "lead.reassigned"))
    def convert_lead(self, lead_id: Id("lead"), amount: Money, close_date: Date) -> dict:
        """Convert a qualified lead: link the company with the lead's company name (or create it, owned by
        the lead's rep), link the contact with the lead's email at that company (or create it), and open
        a deal named '<company> - new business' in the qualification stage, owned by the lead's rep.
        A lead converts only once.

        Args:
            amount: the deal's expected amount in dollars, greater than 0, such as 24000.0.
            close_date: the deal's expected close date, today or later, such as '2026-10-31'.
        """
        lead = self.get(Lead, lead_id)
        if lead.status == "converted":
            raise ToolError(f"Lead {lead.id} was already converted on {lead.status_changed_at.date().isoformat()} "
                            f"into deal {lead.converted_deal_id}; a lead converts only once")
        if lead.status == "disqualified":
            raise ToolError(f"Lead {lead.id} is disqualified ({lead.disqualified_reason}) and cannot be converted")
        if lead.status != "qualified":
            raise ToolError(f"Lead {lead.id} is {lead.status}; only qualified leads convert "
                            "(update_lead_status moves it forward)")
        self._not_past(close_date, "close_date")
        owner = self.db.get(Rep, lead.owner_id)
        if owner.deactivated_at is not None:
            raise ToolError(f"Lead {lead.id} is owned by {owner.name}, who left the team on "
                            f"{owner.deactivated_at.date().isoformat()}; reassign it to an active rep with "
                            "reassign_lead before converting it")
        company = self.db.scalar(select(Company).where(func.lower(Company.name) == lead.company_name.lower())
                                 .order_by(Company.id))
        created_company = company is None
        if company is None:
            slug = "".join(ch for ch in lead.company_name.lower().split()[0] if ch.isalnum()) or "company"
            company = Company(id=self.new_id("CMP"), name=lead.company_name, industry="Unknown", city="Unknown",
                              website=f"www.{slug}.com", employees=0, owner_id=lead.owner_id, created_at=self.now)
            self.db.add(company)
        contact = self.db.scalar(select(Contact).where(func.lower(Contact.email) == lead.email.lower()))
        if contact is not None and contact.company_id != company.id:
            raise ToolError(f"The lead's email {lead.email} belongs to contact {contact.id} at another company "
                            f"({contact.company_id}); fix the lead or the contact first")
        created_contact = contact is None
        if contact is None:
            contact = Contact(id=self.new_id("CON"), company_id=company.id, first_name=lead.first_name,
                              last_name=lead.last_name, email=lead.email, phone=None, title=lead.title,
                              created_at=self.now)
            self.db.add(contact)
        deal = self._open_deal(f"{company.name} - new business", company.id, contact.id, lead.owner_id, amount,
                               close_date, CONVERTED_DEAL_STAGE)
        lead.status, lead.status_changed_at = "converted", self.now
        lead.converted_company_id, lead.converted_contact_id, lead.converted_deal_id = company.id, contact.id, deal.id
        return {"lead": _lead(lead), "company_id": company.id, "company_created": created_company,
                "contact_id": contact.id, "contact_created": created_contact, "deal": self._deal(deal)}

    # -- deals ---------------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_deals(self, owner_id: Id("rep") | None = None, company_id: Id("company") | None = None,
                   stage: Stage | None = None, closing_from: Date | None = None, closing_to: Date | None = None,
                   name: str | None = None, limit: Limit = 20) -> list[dict]:
        """List deals by owner, company, stage, close date range (both ends inclusive) or part of their
        name, ordered by close date then id. Every filter given must match.

        Args:
            name: part of the deal's name, case-insensitive; deal names start with the company's name,
                such as 'Cross Ltd - Training package', so 'cross ltd' finds that company's deals.
            owner_id: only deals owned by this rep, such as 'REP-0002'.
            company_id: only deals with this company, such as 'CMP-0012'.
            stage: only deals in this stage: 'prospecting', 'qualification', 'proposal', 'negotiation',
                'closed_won' or 'closed_lost'.
            closing_from: the earliest close date, such as '2026-09-01'.
            closing_to: the latest close date, such as '2026-09-30'.
        """
        check_range(closing_from, closing_to, ("closing_from", "closing_to"))
        where, params = [], []
        if owner_id is not None:
            where.append("owner_id = ?")
            params.append(self.get(Rep, owner_id).id)
        if company_id is not None:
            where.append("company_id = ?")
            params.append(self.get(Company, company_id).id)
        if stage:
            where.append("stage = ?")
            params.append(stage)
        if closing_from:
            where.append("close_date >= ?")
            params.append(closing_from)
        if closing_to:
            where.append("close_date <= ?")
            params.append(closing_to)
        if name and name.strip():
            where.append("lower(name) LIKE '%' || ? || '%'")
            params.append(name.strip().lower())
        deals = self.load(Deal, f"SELECT id FROM deals WHERE {' AND '.join(where) or '1'} "
                                   "ORDER BY close_date, id LIMIT ?", *params, limit)
        return [self._deal(d) for d in deals]

    @tool(read_only=True, produces=("company", "contact"))
    def get_deal(self, deal_id: Id("deal")) -> dict:
        """Return a deal in full: company, contact, owner (and whether they are still on the team), stage,
        amount, probability, close date, its stage history and its changes of owner, oldest first.

        Args:
        """
        deal = self.get(Deal, deal_id)
        company = self.db.get(Company, deal.company_id)
        history = self.load(StageChange, "SELECT id FROM stage_changes WHERE deal_id = ? ORDER BY changed_at, id",
                               deal.id)
        owner = self.db.get(Rep, deal.owner_id)
        return {**_deal(deal, company), "owner_name": owner.name, "owner_active": owner.deactivated_at is None,
                "created_at": deal.created_at, "closed_at": deal.closed_at, "lost_reason": deal.lost_reason,
                "stage_history": [{"from_stage": h.from_stage, "to_stage": h.to_stage, "changed_at": h.changed_at,
                                   "rep_id": h.rep_id} for h in history],
                "owner_history": self._owner_history("deal_id", deal.id)}

    @tool(produces=("deal",))
    def create_deal(self, company_id: Id("company"), owner_id: Id("rep"), name: str, amount: Money,
                    close_date: Date, contact_id: Id("contact") | None = None) -> dict:
        """Open a deal with a company in the prospecting stage.

        Args:
            owner_id: the rep who owns the deal, such as 'REP-0002'.
            name: the deal's name, unique among the company's deals, such as 'Acme - Team licenses'.
            amount: the expected amount in dollars, greater than 0, such as 15000.0.
            close_date: the expected close date, today or later, such as '2026-11-15'.
            contact_id: an optional contact of the same company for the deal, such as 'CON-0031'.
        """
        company = self.get(Company, company_id)
        owner = self._active_rep(owner_id, "own deals")
        if contact_id is not None:
            contact = self.get(Contact, contact_id)
            if contact.company_id != company.id:
                raise ToolError(f"Contact {contact.id} works at {contact.company_id}, not {company.id}; "
                                "pick a contact of the deal's company")
        title = _text(name, "name")
        taken = self.db.scalar(select(Deal.id).where(Deal.company_id == company.id,
                                                     func.lower(Deal.name) == title.lower()))
        if taken is not None:
            raise ToolError(f"{company.name} already has a deal named {title!r} ({taken})")
        self._not_past(close_date, "close_date")
        return self._deal(self._open_deal(title, company.id, contact_id, owner.id, amount, close_date, "prospecting"))

    @tool(idempotent=True, requires=("deal.reassigned",), details=(Detail("deals", "lost_reason"),))
    def update_deal_stage(self, deal_id: Id("deal"), stage: Stage, lost_reason: str | None = None) -> dict:
        """Move an open deal to another stage; the change is recorded in its history and the probability
        becomes the stage's default. closed_won and closed_lost close the deal for good (closed_lost
        needs lost_reason); its close date becomes today. A deal already in the stage stays as it is,
        open or closed (changed is false).

        Args:
            stage: the new stage: 'prospecting', 'qualification', 'proposal', 'negotiation', 'closed_won'
                or 'closed_lost'.
            lost_reason: why the deal was lost, required for 'closed_lost' only, such as 'Went with a competitor'.
        """
        deal = self.get(Deal, deal_id)
        if stage != "closed_lost" and (lost_reason or "").strip():
            raise ToolError(f"lost_reason is only given when a deal moves to closed_lost, not {stage}")
        if deal.stage == stage:
            return {**self._deal(deal), "changed": False}
        self._check_open_deal(deal)
        owner = self.db.get(Rep, deal.owner_id)
        if owner.deactivated_at is not None:
            raise ToolError(f"Deal {deal.id} is owned by {owner.name}, who left the team on "
                            f"{owner.deactivated_at.date().isoformat()}; reassign it to an active rep with "
                            "reassign_deal before moving its stage")
        if stage == "closed_lost":
            if not (lost_reason or "").strip():
                raise ToolError("Moving a deal to closed_lost needs lost_reason: say why it was lost")
            deal.lost_reason = lost_reason.strip()  # type: ignore[union-attr]
        self.db.add(StageChange(id=self.new_id("STC", 5), deal_id=deal.id, from_stage=deal.stage, to_stage=stage,
                                changed_at=self.now, rep_id=deal.owner_id))
        deal.stage, deal.probability = stage, STAGES[stage]
        if stage in CLOSED_STAGES:
            deal.closed_at, deal.close_date = self.now, self.now.date()
        return {**self._deal(deal), "changed": True}

    @tool(idempotent=True)
    def update_deal(self, deal_id: Id("deal"), amount: Money | None = None, close_date: Date | None = None,
                    probability: int | None = None) -> dict:
        """Change an open deal's amount, expected close date or win probability (give at least one).

        Args:
            amount: the new amount in dollars, greater than 0, such as 30000.0.
            close_date: the new expected close date, today or later, such as '2026-12-15'.
            probability: the new win probability in percent, from 0 to 100, such as 60.
        """
        deal = self.get(Deal, deal_id)
        if amount is None and close_date is None and probability is None:
            raise ToolError("Give at least one of amount, close_date or probability to change")
        self._check_open_deal(deal)
        if probability is not None and not 0 <= probability <= 100:
            raise ToolError(f"probability must be from 0 to 100 percent, got {probability}")
        if close_date is not None:
            self._not_past(close_date, "close_date")
            deal.close_date = close_date
        if amount is not None:
            deal.amount = amount
        if probability is not None:
            deal.probability = probability
        return self._deal(deal)

    @tool(idempotent=True, sets=("deal.reassigned",))
    def reassign_deal(self, deal_id: Id("deal"), new_owner_id: Id("rep")) -> dict:
        """Hand an open deal to another active rep; the change of owner is recorded, and the deal's open
        tasks held by its previous owner move to the new one. A deal the rep already owns stays as it is
        (changed is false); closed deals keep their owner.

        Args:
            new_owner_id: the active rep who takes the deal over, such as 'REP-0004'.
        """
        deal = self.get(Deal, deal_id)
        if deal.stage in CLOSED_STAGES:
            raise ToolError(f"Deal {deal.id} is {deal.stage} since {deal.closed_at.date().isoformat()}; closed "  # type: ignore[union-attr]
                            "deals keep the owner they closed with")
        old, new = self._hand_over(new_owner_id, deal.owner_id, deal_id=deal.id)
        moved = []
        if old.id != new.id:
            deal.owner_id = new.id
            for task in self.load(Activity, "SELECT id FROM activities WHERE deal_id = ? AND rep_id = ? AND "
                                            "kind = 'task' AND completed_at IS NULL ORDER BY id", deal.id, old.id):
                task.rep_id = new.id
                moved.append(task.id)
        return {**self._deal(deal), "previous_owner": {"rep_id": old.id, "name": old.name}, "owner_name": new.name,
                "changed": old.id != new.id, "tasks_moved": moved,
                "owner_history": self._owner_history("deal_id", deal.id)}

    @tool(read_only=True)
    def list_pipeline_stages(self) -> list[dict]:
        """List the pipeline's stages in order, with each stage's default win probability and whether it
        closes the deal.

        Args:
        """
        return [{"stage": stage, "default_probability": p, "is_closed": stage in CLOSED_STAGES}
                for stage, p in STAGES.items()]

    @tool(read_only=True)
    def get_forecast(self, start_date: Date, end_date: Date, owner_id: Id("rep") | None = None) -> dict:
        """Forecast the deals expected to close in a period (both dates inclusive), by stage and by owner.

        Open deals count with their close date in the period: their amount, and their amount weighted
        by probability. Deals won with a close date in the period count as won. Lost deals do not count.
        The forecast is won plus weighted.

        Args:
            start_date: the period's first day, such as '2026-10-01'.
            end_date: the period's last day, such as '2026-12-31'.
            owner_id: only this rep's deals, such as 'REP-0002'; the whole team when left out.
        """
        check_range(start_date, end_date)
        where, params = ["close_date >= ? AND close_date <= ? AND stage != 'closed_lost'"], [start_date, end_date]
        if owner_id is not None:
            where.append("owner_id = ?")
            params.append(self.get(Rep, owner_id).id)
        deals = self.load(Deal, f"SELECT id FROM deals WHERE {' AND '.join(where)} ORDER BY id", *params)
        stages: dict[str, dict] = {}
        owners: dict[str, dict] = {}
        for deal in deals:
            weighted = deal.amount * deal.probability / 100 if deal.stage in OPEN_STAGES else 0.0
            row = stages.setdefault(deal.stage, {"stage": deal.stage, "deals": 0, "amount": 0.0, "weighted": 0.0})
            row["deals"] += 1
            row["amount"] += deal.amount
            row["weighted"] += weighted
            who = owners.setdefault(deal.owner_id, {"rep_id": deal.owner_id, "deals": 0, "pipeline": 0.0,
                                                    "weighted": 0.0, "won": 0.0})
            who["deals"] += 1
            if deal.stage == "closed_won":
                who["won"] += deal.amount
            else:
                who["pipeline"] += deal.amount
                who["weighted"] += weighted
        by_stage = [_cents(stages[s]) for s in STAGES if s in stages]
        by_owner = []
        for rep_id in sorted(owners):
            rep = self.db.get(Rep, rep_id)
            row = _cents(owners[rep_id])
            row["forecast"] = round(row["won"] + row["weighted"], 2)
            by_owner.append({"rep_id": rep_id, "name": rep.name if rep else None, **row})
        won = round(sum(o["won"] for o in owners.values()), 2)
        pipeline = round(sum(o["pipeline"] for o in owners.values()), 2)
        weighted = round(sum(o["weighted"] for o in owners.values()), 2)
        return {"start_date": start_date, "end_date": end_date, "owner_id": owner_id, "by_stage": by_stage,
                "by_owner": by_owner, "won": won, "pipeline": pipeline, "weighted": weighted,
                "forecast": round(won + weighted, 2)}

    # -- activities ----------------------------------------------------------------------------------

    @tool(read_only=True)
    def list_activities(self, contact_id: Id("contact") | None = None, deal_id: Id("deal") | None = None,
                        rep_id: Id("rep") | None = None,
                        kind: Literal["call", "meeting", "note", "task"] | None = None,
                        open_tasks_only: bool = False, limit: Limit = 20) -> list[dict]:
        """List activities attached to a contact, a deal or done by a rep, newest first; every filter
        given must match.

        Args:
            contact_id: only activities with this contact, such as 'CON-0031'.
            deal_id: only activities on this deal, such as 'DEA-0008'.
            rep_id: only activities of this rep, such as 'REP-0002'.
            kind: only 'call', 'meeting', 'note' or 'task' activities.
            open_tasks_only: only tasks not completed yet, soonest due first (default false).
        """
        where, params = [], []
        if contact_id is not None:
            where.append("contact_id = ?")
            params.append(self.get(Contact, contact_id).id)
        if deal_id is not None:
            where.append("deal_id = ?")
            params.append(self.get(Deal, deal_id).id)
        if rep_id is not None:
            where.append("rep_id = ?")
            params.append(self.get(Rep, rep_id).id)
        if kind:
            where.append("kind = ?")
            params.append(kind)
        if open_tasks_only:
            where.append("kind = 'task' AND completed_at IS NULL")
        order = "due_date, id" if open_tasks_only else "occurred_at DESC, id DESC"
        activities = self.load(Activity, f"SELECT id FROM activities WHERE {' AND '.join(where) or '1'} "
                                            f"ORDER BY {order} LIMIT ?", *params, limit)
        return [self._activity(a) for a in activities]

    @tool(produces=("activity",), details=_NOTES)
    def log_activity(self, rep_id: Id("rep"), kind: Literal["call", "meeting", "note"], subject: str,
                     contact_id: Id("contact") | None = None, deal_id: Id("deal") | None = None,
                     notes: str | None = None) -> dict:
        """Log a call, meeting or note, as of now, on a contact, a deal or both (the contact must then work
        at the deal's company).

        Args:
            rep_id: the rep logging it, such as 'REP-0002'.
            kind: 'call', 'meeting' or 'note'.
            subject: a short subject, such as 'Pricing discussion'.
            contact_id: the contact it concerns, such as 'CON-0031'.
            deal_id: the deal it concerns, such as 'DEA-0008'.
            notes: optional free text, such as 'Asked for a revised quote.'
        """
        activity = self._new_activity(rep_id, kind, subject, contact_id, deal_id)
        activity.notes = (notes or "").strip() or None
        return self._activity(activity)

    @tool(produces=("activity",), sets=("activity.task",))
    def create_task(self, rep_id: Id("rep"), subject: str, due_date: Date, contact_id: Id("contact") | None = None,
                    deal_id: Id("deal") | None = None) -> dict:
        """Create a task with a due date (today or later) on a contact, a deal or both (the contact must
        then work at the deal's company).

        Args:
            rep_id: the rep who will do it, such as 'REP-0002'.
            subject: what to do, such as 'Send proposal'.
            due_date: the day it is due, today or later, such as '2026-09-15'.
            contact_id: the contact it concerns, such as 'CON-0031'.
            deal_id: the deal it concerns, such as 'DEA-0008'.
        """
        self._not_past(due_date, "due_date")
        activity = self._new_activity(rep_id, "task", subject, contact_id, deal_id)
        activity.due_date = due_date
        return self._activity(activity)

    @tool(idempotent=True, requires=("activity.task",))
    def complete_task(self, activity_id: Id("activity")) -> dict:
        """Mark a task as completed now. Calls, meetings and notes are not tasks. A task already completed
        stays so, with its completion time (changed is false).

        Args:
        """
        activity = self.get(Activity, activity_id)
        if activity.kind != "task":
            raise ToolError(f"Activity {activity.id} is a {activity.kind}, not a task; only tasks are completed")
        if activity.completed_at is not None:
            return {**self._activity(activity), "changed": False}
        activity.completed_at = self.now
        return {**self._activity(activity), "changed": True}

    # -- hidden --------------------------------------------------------------------------------------

    @tool(read_only=True, hidden=True)
    def count_records(self) -> dict:
        """Debugging only: how many rows each table holds."""
        return {model.__tablename__: self.db.scalar(select(func.count()).select_from(model))
                for model in (Rep, Company, Contact, Lead, Deal, StageChange, OwnerChange, Activity)}

    # -- invariants ----------------------------------------------------------------------------------

    def invariants(self) -> list[str]:
        """Converted leads point at what they became, and only disqualified leads have a reason; every
        deal's stage history starts when the deal opened, runs unbroken from stage to stage and ends at
        its stage; closed deals have a close time on their close date, and only lost ones a lost
        reason; activities hang off a contact or a deal, and only tasks have a due date or a
        completion; contact emails are unique; a change of owner hands a lead or a deal from its owner
        to a rep then active, and a record's changes run unbroken to its owner; nothing is created,
        moved or logged by a rep after they left; nothing recorded as done lies after the clock."""
        problems = self.after_now(Company.created_at, Contact.created_at, Lead.created_at, Lead.status_changed_at,
                                  Deal.created_at, Deal.closed_at, StageChange.changed_at, Activity.occurred_at,
                                  Activity.completed_at, Rep.deactivated_at, OwnerChange.changed_at)
        problems += [f"{what} {row_id}: by {rep_id} at {at}, after they left on {left}"
                     for what, row_id, rep_id, at, left in self.rows(
                         "SELECT 'lead', l.id, r.id, l.created_at, r.deactivated_at FROM leads l JOIN reps r "
                         "ON r.id = l.owner_id WHERE l.created_at >= r.deactivated_at "
                         "UNION ALL SELECT 'deal', d.id, r.id, d.created_at, r.deactivated_at FROM deals d JOIN reps r "
                         "ON r.id = d.owner_id WHERE d.created_at >= r.deactivated_at "
                         "UNION ALL SELECT 'stage change', s.id, r.id, s.changed_at, r.deactivated_at "
                         "FROM stage_changes s JOIN reps r ON r.id = s.rep_id WHERE s.changed_at >= r.deactivated_at "
                         "UNION ALL SELECT 'activity', a.id, r.id, a.occurred_at, r.deactivated_at FROM activities a "
                         "JOIN reps r ON r.id = a.rep_id WHERE a.occurred_at >= r.deactivated_at "
                         "UNION ALL SELECT 'owner change', o.id, r.id, o.changed_at, r.deactivated_at "
                         "FROM owner_changes o JOIN reps r ON r.id = o.to_rep_id WHERE o.changed_at >= r.deactivated_at")]
        owners = dict(self.rows("SELECT id, owner_id FROM leads UNION ALL SELECT id, owner_id FROM deals"))
        chains: dict[str, list[tuple[str, str]]] = {}
        for change_id, lead_id, deal_id, old, new in self.rows(
                "SELECT id, lead_id, deal_id, from_rep_id, to_rep_id FROM owner_changes ORDER BY changed_at, id"):
            if (lead_id is None) == (deal_id is None) or old == new:
                problems.append(f"{change_id}: hands lead {lead_id} / deal {deal_id} from {old} to {new}")
                continue
            chains.setdefault(lead_id or deal_id, []).append((old, new))
        for record, chain in chains.items():
            if any(a[1] != b[0] for a, b in zip(chain, chain[1:])) or chain[-1][1] != owners.get(record):
                problems.append(f"{record}: its changes of owner {chain} do not run to its owner {owners.get(record)}")
        for lead in self.db.scalars(select(Lead)):
            linked = (lead.converted_company_id, lead.converted_contact_id, lead.converted_deal_id)
            if (lead.status == "converted") != all(linked) or (lead.status != "converted" and any(linked)):
                problems.append(f"{lead.id}: status {lead.status} but converted links {linked}")
            if (lead.status == "disqualified") != (lead.disqualified_reason is not None):
                problems.append(f"{lead.id}: status {lead.status} with disqualified reason "
                                f"{lead.disqualified_reason!r}")
            if lead.status_changed_at < lead.created_at:
                problems.append(f"{lead.id}: status changed at {lead.status_changed_at}, before it was created")
        history: dict[str, list[StageChange]] = {}
        for change in self.db.scalars(select(StageChange).order_by(StageChange.changed_at, StageChange.id)):
            history.setdefault(change.deal_id, []).append(change)
        for deal in self.db.scalars(select(Deal)):
            changes = history.get(deal.id, [])
            last = changes[-1].to_stage if changes else None
            if last != deal.stage:
                problems.append(f"{deal.id}: stage {deal.stage} but history ends at {last}")
            if any(earlier.to_stage != later.from_stage for earlier, later in zip(changes, changes[1:])):
                problems.append(f"{deal.id}: its stage history does not run from one stage to the next")
            if changes and (changes[0].from_stage is not None or changes[0].changed_at < deal.created_at):
                problems.append(f"{deal.id}: its history starts at {changes[0].changed_at} from "
                                f"{changes[0].from_stage}, not when it opened ({deal.created_at})")
            closed = deal.stage in CLOSED_STAGES
            if closed != (deal.closed_at is not None):
                problems.append(f"{deal.id}: stage {deal.stage} with closed_at {deal.closed_at}")
            elif closed and deal.close_date != deal.closed_at.date():  # type: ignore[union-attr]
                problems.append(f"{deal.id}: closed on {deal.closed_at} but its close date is {deal.close_date}")
            if (deal.stage == "closed_lost") != (deal.lost_reason is not None):
                problems.append(f"{deal.id}: stage {deal.stage} with lost reason {deal.lost_reason!r}")
            if not 0 <= deal.probability <= 100:
                problems.append(f"{deal.id}: probability {deal.probability}")
        orphans = self.db.scalar(select(func.count()).select_from(Activity).where(
            Activity.contact_id.is_(None), Activity.deal_id.is_(None)))
        if orphans:
            problems.append(f"{orphans} activities hang off neither a contact nor a deal")
        for activity_id, kind in self.db.execute(select(Activity.id, Activity.kind).where(
                Activity.kind != "task", (Activity.due_date.is_not(None)) | (Activity.completed_at.is_not(None)))):
            problems.append(f"{activity_id}: a {kind} with a due date or a completion")
        dupes = self.db.execute(select(func.lower(Contact.email)).group_by(func.lower(Contact.email))
                                .having(func.count() > 1)).all()
        if dupes:
            problems.append(f"contact emails used twice: {[d[0] for d in dupes]}")
        return problems

    # -- helpers -------------------------------------------------------------------------------------

    def _active_rep(self, rep_id: str, what: str) -> Rep:
        rep = self.get(Rep, rep_id)
        if rep.deactivated_at is not None:
            raise ToolError(f"{rep.name} ({rep.id}) left the team on {rep.deactivated_at.date().isoformat()} and "
                            f"cannot {what}; pick an active rep (find_reps says who is active)")
        return rep

    def _hand_over(self, new_owner_id: str, current: str, **record: str) -> tuple[Rep, Rep]:
        """The record's previous and new owner, once the change is recorded (nothing when they are the same)."""
        new = self._active_rep(new_owner_id, "take over leads or deals")
        old = self.db.get(Rep, current)
        if new.id != old.id:
            self.db.add(OwnerChange(id=self.new_id("OWC"), from_rep_id=old.id, to_rep_id=new.id, changed_at=self.now,
                                    **{"lead_id": None, "deal_id": None, **record}))
        return old, new

    def _owner_history(self, column: str, record_id: str) -> list[dict]:
        return [{"from_rep_id": a, "from_name": b, "to_rep_id": c, "to_name": d,
                 "changed_at": dt.datetime.fromisoformat(e)} for a, b, c, d, e in self.rows(
            "SELECT o.from_rep_id, f.name, o.to_rep_id, t.name, o.changed_at FROM owner_changes o "
            "JOIN reps f ON f.id = o.from_rep_id JOIN reps t ON t.id = o.to_rep_id "
            f"WHERE o.{column} = ? ORDER BY o.changed_at, o.id", record_id)]

    def _not_past(self, day: dt.date, what: str) -> None:
        today = self.now.date()
        if day < today:
            raise ToolError(f"{what} {day.isoformat()} is in the past; give today ({today.isoformat()}) or later")

    def _check_open_lead(self, lead: Lead) -> None:
        if lead.status == "converted":
            raise ToolError(f"Lead {lead.id} was converted into deal {lead.converted_deal_id}; converted leads "
                            "are final")
        if lead.status == "disqualified":
            raise ToolError(f"Lead {lead.id} is disqualified ({lead.disqualified_reason}); disqualified leads "
                            "are final")

    def _check_open_deal(self, deal: Deal) -> None:
        if deal.stage in CLOSED_STAGES:
            raise ToolError(f"Deal {deal.id} is {deal.stage} since {deal.closed_at.date().isoformat()}; closed "  # type: ignore[union-attr]
                            "deals cannot change. Open a new deal with create_deal instead")

    def _open_deal(self, name: str, company_id: str, contact_id: str | None, owner_id: str, amount: float,
                   close_date: dt.date, stage: str) -> Deal:
        deal = Deal(id=self.new_id("DEA"), name=name, company_id=company_id, contact_id=contact_id,
                    owner_id=owner_id, stage=stage, amount=amount, probability=STAGES[stage], close_date=close_date,
                    lost_reason=None, created_at=self.now, closed_at=None)
        self.db.add(deal)
        self.db.add(StageChange(id=self.new_id("STC", 5), deal_id=deal.id, from_stage=None, to_stage=stage,
                                changed_at=self.now, rep_id=owner_id))
        return deal

    def _new_activity(self, rep_id: str, kind: str, subject: str, contact_id: str | None,
                      deal_id: str | None) -> Activity:
        rep = self._active_rep(rep_id, "log activities or take tasks")
        if contact_id is None and deal_id is None:
            raise ToolError("Attach the activity to a contact (contact_id), a deal (deal_id) or both")
        contact = self.get(Contact, contact_id) if contact_id is not None else None
        deal = self.get(Deal, deal_id) if deal_id is not None else None
        if contact is not None and deal is not None and contact.company_id != deal.company_id:
            raise ToolError(f"Contact {contact.id} works at {contact.company_id} but deal {deal.id} is with "
                            f"{deal.company_id}; attach it to one of them, or to a contact of the deal's company")
        activity = Activity(id=self.new_id("ACT"), kind=kind, subject=_text(subject, "subject"), notes=None,
                            rep_id=rep.id, contact_id=contact_id, deal_id=deal_id, occurred_at=self.now,
                            due_date=None, completed_at=None)
        self.db.add(activity)
        return activity

    def _contact(self, contact: Contact, company: Company | None = None) -> dict:
        company = company or self.db.get(Company, contact.company_id)
        return {"contact_id": contact.id, "name": contact.name, "email": contact.email, "phone": contact.phone,
                "title": contact.title, "company_id": contact.company_id,
                "company_name": company.name if company else None}

    def _deal(self, deal: Deal) -> dict:
        return _deal(deal, self.db.get(Company, deal.company_id))

    def _activity(self, activity: Activity) -> dict:
        contact = self.db.get(Contact, activity.contact_id) if activity.contact_id else None
        deal = self.db.get(Deal, activity.deal_id) if activity.deal_id else None
        info = {"activity_id": activity.id, "kind": activity.kind, "subject": activity.subject,
                "notes": activity.notes, "rep_id": activity.rep_id, "contact_id": activity.contact_id,
                "contact_name": contact.name if contact else None, "deal_id": activity.deal_id,
                "deal_name": deal.name if deal else None, "created_at": activity.occurred_at}
        if activity.kind == "task":
            done = activity.completed_at is not None
            info |= {"due_date": activity.due_date, "completed": done, "completed_at": activity.completed_at,
                     "overdue": not done and activity.due_date is not None and activity.due_date < self.now.date()}
        return info


# -- results ---------------------------------------------------------------------------------------


def _rep(rep: Rep) -> dict:
    return {"rep_id": rep.id, "name": rep.name, "email": rep.email, "region": rep.region,
            "active": rep.deactivated_at is None,
            "left_on": rep.deactivated_at.date() if rep.deactivated_at is not None else None}


def _company(company: Company) -> dict:
    return {"company_id": company.id, "name": company.name, "industry": company.industry, "city": company.city,
            "website": company.website, "employees": company.employees, "owner_id": company.owner_id}


def _lead(lead: Lead) -> dict:
    info = {"lead_id": lead.id, "name": lead.name, "email": lead.email, "company_name": lead.company_name,
            "title": lead.title, "source": lead.source, "status": lead.status, "owner_id": lead.owner_id,
            "created_at": lead.created_at.date()}
    if lead.status == "disqualified":
        info["disqualified_reason"] = lead.disqualified_reason
    if lead.status == "converted":
        info |= {"converted_on": lead.status_changed_at.date(), "company_id": lead.converted_company_id,
                 "contact_id": lead.converted_contact_id, "deal_id": lead.converted_deal_id}
    return info


def _deal(deal: Deal, company: Company | None = None) -> dict:
    return {"deal_id": deal.id, "name": deal.name, "company_id": deal.company_id,
            "company_name": company.name if company else None, "contact_id": deal.contact_id,
            "owner_id": deal.owner_id, "stage": deal.stage, "amount": deal.amount, "probability": deal.probability,
            "close_date": deal.close_date}


def _cents(row: dict) -> dict:
    return {k: round(v, 2) if isinstance(v, float) else v for k, v in row.items()}


def _text(value: str, what: str) -> str:
    text = value.strip()
    if not 1 <= len(text) <= MAX_TEXT:
        raise ToolError(f"{what} must be 1 to {MAX_TEXT} characters, got {len(text)}")
    return text


def _email(value: str) -> str:
    address = value.strip().lower()
    local, at, domain = address.partition("@")
    if not local or not at or "." not in domain or " " in address:
        raise ToolError(f"{value!r} is not an email address; give one such as 'maria.lopez@acme.com'")
    return address
