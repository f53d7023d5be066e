"""A workplace's other MCP servers: 238 more tools, for a catalogue of 300 (``python -m conductor bench scale``).

Lesson 06's catalogue (:mod:`conductor.course.toolbox`) is six servers and 62 tools. A company that connects
its help desk, CRM, HR system, CI, monitoring and the rest has hundreds. :data:`SERVICES` describes 34 such
servers, each keeping one kind of record (a support ticket, a sales lead, a build...) with its own fields, and
:func:`service_tools` makes each one's seven tools the way such servers offer them: list, read one, search,
create, update, delete, and count by a category. Every tool has its own name, description and parameters
(a field's name and what it holds), and answers from a small table of three records (no network; the same
call always gets the same answer; changes are receipts, the tables stay as they are).

None of them tells the weather: a tool search over the 300 must still find lesson 06's ``get_weather``
(tests/test_scale.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..tools import Tool

__all__ = ["Field", "Service", "SERVICES", "TOOLS_PER_SERVICE", "service_tools", "all_tools", "instructions"]

TOOLS_PER_SERVICE = 7


@dataclass(frozen=True)
class Field:
    """One field of a record: its name, what it holds, and the three records' values."""

    name: str
    description: str
    values: tuple[str, str, str]


@dataclass(frozen=True)
class Service:
    """One MCP server: what it keeps, the record's name, its id prefix and fields (the first is what a search
    reads, ``category`` is what the count groups by)."""

    server: str
    summary: str
    singular: str
    plural: str
    prefix: str
    fields: tuple[Field, ...]
    category: str

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)


def _s(server: str, summary: str, singular: str, plural: str, prefix: str, category: str,
       *fields: tuple[str, str, tuple[str, str, str]]) -> Service:
    return Service(server, summary, singular, plural, prefix, tuple(Field(*f) for f in fields), category)


SERVICES: tuple[Service, ...] = (
    _s("notes", "Personal notes with tags.", "note", "notes", "N", "tag",
       ("title", "the note's title", ("Quarterly goals", "Book list", "Offsite ideas")),
       ("tag", "a label such as work or home", ("work", "home", "work")),
       ("body", "the note's text", ("Ship the new billing page", "Read Dune again", "Boat trip, dinner"))),
    _s("tasks", "A to-do list with due dates.", "task", "tasks", "T", "status",
       ("title", "what has to be done", ("Renew passport", "File expense report", "Book dentist")),
       ("due", "the due date, YYYY-MM-DD", ("2026-12-15", "2026-12-04", "2027-01-10")),
       ("status", "open or done", ("open", "open", "done"))),
    _s("contacts", "The address book: people, companies, phone numbers.", "contact", "contacts", "C", "company",
       ("full_name", "the person's name", ("Dana Reyes", "Omar Haddad", "Li Wei")),
       ("company", "where the person works", ("Acme", "Globex", "Acme")),
       ("phone", "a phone number", ("+1 555 0100", "+44 20 7946 0018", "+86 10 5555 0199"))),
    _s("crm", "The sales CRM: leads, their stage and deal value.", "lead", "leads", "L", "stage",
       ("company_name", "the prospect company", ("Initech", "Umbrella Foods", "Stark Logistics")),
       ("stage", "the pipeline stage: new, qualified, proposal or won", ("qualified", "new", "proposal")),
       ("deal_value_eur", "the expected deal value in euros", ("48000", "12500", "91000"))),
    _s("helpdesk", "Customer support tickets.", "ticket", "tickets", "TK", "priority",
       ("subject", "the customer's issue in a line", ("Cannot reset password", "Invoice shows wrong VAT",
                                                      "App crashes on login")),
       ("priority", "low, normal or urgent", ("urgent", "normal", "urgent")),
       ("customer", "the customer's e-mail", ("ana@example.com", "bo@example.org", "cy@example.net"))),
    _s("hr", "The HR directory: employees, teams and managers.", "employee", "employees", "E", "team",
       ("name", "the employee's name", ("Priya Nair", "Jonas Berg", "Aiko Sato")),
       ("team", "the team", ("Platform", "Sales", "Platform")),
       ("manager", "who the employee reports to", ("Mira Okafor", "Tom Reed", "Mira Okafor"))),
    _s("leave", "Holiday and sick leave requests.", "leave_request", "leave_requests", "LR", "state",
       ("employee", "who asks for leave", ("Jonas Berg", "Aiko Sato", "Priya Nair")),
       ("dates", "first and last day, YYYY-MM-DD..YYYY-MM-DD", ("2026-12-21..2026-12-31", "2027-02-02..2027-02-06",
                                                                  "2026-12-08..2026-12-08")),
       ("state", "pending, approved or declined", ("approved", "pending", "pending"))),
    _s("recruiting", "Hiring: candidates, the role they applied for, interview stage.", "candidate", "candidates",
       "CA", "interview_stage",
       ("candidate_name", "the applicant", ("Sam Ortiz", "Eva Novak", "Kwame Mensah")),
       ("role", "the opening applied for", ("Backend engineer", "Designer", "Backend engineer")),
       ("interview_stage", "screen, onsite or offer", ("onsite", "screen", "offer"))),
    _s("projects", "Project tracking: milestones and owners.", "project", "projects", "P", "health",
       ("project_name", "the project", ("Checkout redesign", "Data warehouse", "Mobile app 2.0")),
       ("owner", "who leads it", ("Tom Reed", "Priya Nair", "Jonas Berg")),
       ("health", "on track, at risk or late", ("on track", "at risk", "late"))),
    _s("code_review", "Pull requests in the company's repositories.", "pull_request", "pull_requests", "PR",
       "review_state",
       ("pr_title", "the change in a line", ("Fix rounding in invoices", "Add dark mode", "Upgrade Postgres client")),
       ("repository", "the repository", ("billing", "web", "billing")),
       ("review_state", "draft, in review or merged", ("in review", "draft", "merged"))),
    _s("ci", "Continuous integration builds and their logs.", "build", "builds", "B", "result",
       ("pipeline", "the pipeline that ran", ("web-main", "billing-release", "web-main")),
       ("commit", "the commit built", ("a1b2c3d", "9f8e7d6", "0c0ffee")),
       ("result", "passed, failed or cancelled", ("passed", "failed", "passed"))),
    _s("incidents", "Production incidents and postmortems.", "incident", "incidents", "INC", "severity",
       ("summary", "what broke", ("Checkout errors for EU users", "Slow search results", "Login outage")),
       ("severity", "SEV1, SEV2 or SEV3", ("SEV2", "SEV3", "SEV1")),
       ("commander", "the incident commander", ("Aiko Sato", "Tom Reed", "Priya Nair"))),
    _s("monitoring", "Monitoring alerts from the servers and services.", "alert", "alerts", "AL", "level",
       ("alert_name", "the alert rule", ("High error rate on api", "Disk 90% full on db-2", "Queue backlog growing")),
       ("service", "the service it watches", ("api", "database", "worker")),
       ("level", "info, warning or critical", ("critical", "warning", "warning"))),
    _s("inventory", "Warehouse stock levels per product code.", "stock_item", "stock_items", "SKU", "bin",
       ("product_code", "the product's code", ("MUG-BLUE", "TSHIRT-M", "SOCKS-3PK")),
       ("quantity", "units on the shelf", ("140", "12", "0")),
       ("bin", "the aisle and shelf", ("A3", "C1", "A3"))),
    _s("shipping", "Outbound shipments to customers and carriers.", "shipment", "shipments", "SH", "carrier",
       ("tracking_code", "the carrier's tracking code", ("1Z999AA1", "JD0146000", "RR123456789")),
       ("carrier", "UPS, DHL or the post", ("UPS", "DHL", "post")),
       ("destination", "where it goes", ("Berlin", "Toronto", "Nairobi"))),
    _s("invoicing", "Invoices sent to customers and their payment.", "invoice", "invoices", "INV", "paid",
       ("client", "who is billed", ("Initech", "Globex", "Umbrella Foods")),
       ("amount_eur", "the invoice total in euros", ("1200.00", "560.50", "9800.00")),
       ("paid", "yes or no", ("yes", "no", "no"))),
    _s("expenses", "Employee expense claims and receipts.", "expense_claim", "expense_claims", "EX", "category",
       ("description", "what was bought", ("Train to the client", "Team lunch", "Conference ticket")),
       ("category", "travel, meals or training", ("travel", "meals", "training")),
       ("amount_eur", "the amount claimed in euros", ("86.40", "143.00", "499.00"))),
    _s("budgets", "Department budgets and what has been spent.", "budget_line", "budget_lines", "BL", "department",
       ("department", "the department", ("Marketing", "Engineering", "Marketing")),
       ("item", "the budget line", ("Ads", "Cloud hosting", "Events")),
       ("spent_share", "the share already spent, in percent", ("62", "88", "15"))),
    _s("it_assets", "Company laptops, phones and licences.", "device", "devices", "D", "device_type",
       ("serial", "the serial number", ("C02XK1", "R58M44", "5CG011")),
       ("device_type", "laptop, phone or monitor", ("laptop", "phone", "laptop")),
       ("assigned_to", "who has it", ("Jonas Berg", "Aiko Sato", "Priya Nair"))),
    _s("library", "The office library's books and loans.", "book", "books", "BK", "shelf",
       ("book_title", "the title", ("The Pragmatic Programmer", "Thinking, Fast and Slow", "Dune")),
       ("author", "who wrote it", ("Hunt and Thomas", "Daniel Kahneman", "Frank Herbert")),
       ("shelf", "tech, business or fiction", ("tech", "business", "fiction"))),
    _s("music", "Your music library: playlists and their tracks.", "playlist", "playlists", "PL", "mood",
       ("playlist_name", "the playlist", ("Focus", "Sunday morning", "Running")),
       ("mood", "calm, upbeat or mixed", ("calm", "calm", "upbeat")),
       ("track_count", "how many tracks it holds", ("48", "23", "61"))),
    _s("podcasts", "Podcast subscriptions and episodes to listen to.", "episode", "episodes", "EP", "show",
       ("episode_title", "the episode", ("Scaling databases", "The history of maps", "Interview with a chef")),
       ("show", "the podcast", ("Tech Talk", "Curious Minds", "Kitchen Stories")),
       ("minutes", "its length in minutes", ("52", "38", "61"))),
    _s("recipes", "Saved recipes and their ingredients.", "recipe", "recipes", "R", "course",
       ("dish", "the dish", ("Mushroom risotto", "Lentil soup", "Apple crumble")),
       ("course", "starter, main or dessert", ("main", "starter", "dessert")),
       ("prep_minutes", "preparation time in minutes", ("45", "30", "50"))),
    _s("fitness", "Workouts logged by your fitness tracker.", "workout", "workouts", "W", "sport",
       ("sport", "running, cycling or swimming", ("running", "cycling", "swimming")),
       ("distance_km", "the distance in kilometres", ("10.2", "42.0", "1.5")),
       ("date", "when, YYYY-MM-DD", ("2026-11-29", "2026-11-30", "2026-12-01"))),
    _s("smart_home", "Lights, plugs and locks in your home.", "home_device", "home_devices", "HD", "room",
       ("device_name", "the device", ("Hall light", "Coffee machine plug", "Front door lock")),
       ("room", "where it is", ("hall", "kitchen", "hall")),
       ("state", "on, off, locked or unlocked", ("off", "on", "locked"))),
    _s("pets", "Your pets' vet visits and vaccinations.", "vet_visit", "vet_visits", "V", "pet",
       ("pet", "the pet's name", ("Miso", "Biscuit", "Miso")),
       ("reason", "why the visit", ("Vaccination", "Check-up", "Dental cleaning")),
       ("visit_date", "the day, YYYY-MM-DD", ("2026-12-09", "2027-01-14", "2027-03-02"))),
    _s("garden", "Plants in the garden and when to water them.", "plant", "plants", "PT", "bed",
       ("plant_name", "the plant", ("Tomatoes", "Lavender", "Basil")),
       ("bed", "the garden bed", ("south bed", "border", "south bed")),
       ("water_every_days", "days between waterings", ("2", "7", "1"))),
    _s("learning", "Online courses you are enrolled in and your progress.", "enrollment", "enrollments", "EN",
       "platform",
       ("course_title", "the course", ("Intro to SQL", "Public speaking", "Spanish A2")),
       ("platform", "where it is taught", ("Coursera", "Udemy", "Coursera")),
       ("progress_percent", "how far you are", ("75", "20", "40"))),
    _s("news", "Saved news articles to read later.", "article", "articles", "AR", "source",
       ("headline", "the article's headline", ("Central bank holds rates", "New battery chemistry",
                                              "Local team wins cup")),
       ("source", "the publication", ("Reuters", "Nature", "City Gazette")),
       ("read", "yes or no", ("no", "yes", "no"))),
    _s("social", "Posts scheduled on the company's social accounts.", "post", "posts", "PO", "network",
       ("text", "what the post says", ("We are hiring engineers!", "Our winter sale starts Friday",
                                       "Meet the team behind checkout")),
       ("network", "LinkedIn, Mastodon or Instagram", ("LinkedIn", "Instagram", "Mastodon")),
       ("scheduled_for", "when it goes out, YYYY-MM-DD HH:MM", ("2026-12-03 09:00", "2026-12-05 12:00",
                                                               "2026-12-08 17:30"))),
    _s("photos", "Photo albums and who they are shared with.", "album", "albums", "AB", "visibility",
       ("album_title", "the album", ("Team offsite 2026", "Product shots", "Family trip")),
       ("photo_count", "how many photos", ("214", "58", "330")),
       ("visibility", "private, team or public", ("team", "public", "private"))),
    _s("places", "Saved places on your map: addresses and opening hours.", "place", "places", "PL-", "kind",
       ("place_name", "the place", ("Corner bakery", "Print shop", "Climbing gym")),
       ("kind", "shop, food or sport", ("food", "shop", "sport")),
       ("opening_hours", "when it opens and closes", ("07:00-18:00", "09:00-17:30", "10:00-22:00"))),
    _s("parking", "Parking spots in the office garage and who booked them.", "parking_booking", "parking_bookings",
       "PK", "level",
       ("spot", "the spot's number", ("B1-14", "B2-03", "B1-22")),
       ("level", "the garage level", ("B1", "B2", "B1")),
       ("booked_by", "who booked it", ("Tom Reed", "Mira Okafor", "Aiko Sato"))),
    _s("restaurants", "Table bookings at restaurants.", "table_booking", "table_bookings", "TB", "cuisine",
       ("restaurant", "the restaurant", ("Trattoria Roma", "Sushi Ko", "Green Bowl")),
       ("cuisine", "Italian, Japanese or vegetarian", ("Italian", "Japanese", "vegetarian")),
       ("party_size", "how many people", ("4", "2", "6"))),
)


def instructions(service: Service) -> str:
    """What the server says about itself (an MCP server's instructions; a namespace's description)."""
    return f"{service.summary} Tools for its {service.plural.replace('_', ' ')}."


def _records(service: Service) -> list[dict[str, str]]:
    return [{"id": f"{service.prefix}-{i + 1}", **{f.name: f.values[i] for f in service.fields}} for i in range(3)]


def _receipt(*parts: Any) -> str:
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:8]


def _find(service: Service, record_id: str) -> dict[str, str]:
    for record in _records(service):
        if record["id"].casefold() == str(record_id).strip().casefold():
            return record
    ids = ", ".join(r["id"] for r in _records(service))
    raise ValueError(f"no {service.singular.replace('_', ' ')} {record_id!r}; the ids are: {ids}")


def _object(properties: dict[str, dict[str, Any]], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _id_parameter(service: Service) -> tuple[str, dict[str, Any]]:
    return f"{service.singular}_id", {"type": "string", "description": f"the id, e.g. \"{service.prefix}-1\""}


def _list_tool(service: Service) -> Tool:
    def run(limit: int = 10) -> dict:
        return {service.plural: _records(service)[: max(0, limit)]}

    words = service.plural.replace("_", " ")
    fields = ", ".join(f.name.replace("_", " ") for f in service.fields)
    return Tool(run, name=f"list_{service.plural}", description=f"List the {words} ({fields}), up to limit.",
                parameters=_object({"limit": {"type": "integer", "description": "how many at most"}}, []))


def _get_tool(service: Service) -> Tool:
    key, schema = _id_parameter(service)

    def run(**arguments: Any) -> dict:
        return _find(service, arguments[key])

    word = service.singular.replace("_", " ")
    return Tool(run, name=f"get_{service.singular}", description=f"One {word} by its id, with every field.",
                parameters=_object({key: schema}, [key]))


def _search_tool(service: Service) -> Tool:
    first = service.fields[0]

    def run(words: str) -> dict:
        wanted = set(words.casefold().split())
        found = [r for r in _records(service) if wanted & set(r[first.name].casefold().split())]
        return {service.plural: found}

    plural = service.plural.replace("_", " ")
    return Tool(run, name=f"search_{service.plural}",
                description=f"Find {plural} whose {first.name.replace('_', ' ')} ({first.description}) has the words.",
                parameters=_object({"words": {"type": "string", "description": "words to look for"}}, ["words"]))


def _create_tool(service: Service) -> Tool:
    def run(**arguments: Any) -> dict:
        return {"created": True, "id": f"{service.prefix}-{_receipt(service.server, *arguments.values())}",
                **arguments}

    word = service.singular.replace("_", " ")
    properties = {f.name: {"type": "string", "description": f.description} for f in service.fields}
    where = service.server.replace("_", " ")
    return Tool(run, name=f"create_{service.singular}", description=f"Add a {word} to {where}.",
                parameters=_object(properties, list(properties)), requires_approval=True)


def _update_tool(service: Service) -> Tool:
    key, schema = _id_parameter(service)
    names = [f.name for f in service.fields]

    def run(**arguments: Any) -> dict:
        record = _find(service, arguments[key])
        return {"updated": True, "id": record["id"], arguments["field"]: arguments["value"],
                "was": record[arguments["field"]], "receipt": _receipt(record["id"], arguments["value"])}

    word = service.singular.replace("_", " ")
    properties = {key: schema, "field": {"type": "string", "enum": names, "description": "the field to change"},
                  "value": {"type": "string", "description": "its new value"}}
    return Tool(run, name=f"update_{service.singular}", description=f"Change one field of a {word}.",
                parameters=_object(properties, list(properties)), requires_approval=True)


def _delete_tool(service: Service) -> Tool:
    key, schema = _id_parameter(service)

    def run(**arguments: Any) -> dict:
        return {"deleted": True, "id": _find(service, arguments[key])["id"]}

    word = service.singular.replace("_", " ")
    return Tool(run, name=f"delete_{service.singular}", description=f"Delete a {word} for good.",
                parameters=_object({key: schema}, [key]), requires_approval=True)


def _count_tool(service: Service) -> Tool:
    category = service.field(service.category)

    def run() -> dict:
        counts: dict[str, int] = {}
        for record in _records(service):
            counts[record[category.name]] = counts.get(record[category.name], 0) + 1
        return {"by_" + category.name: counts}

    plural = service.plural.replace("_", " ")
    return Tool(run, name=f"count_{service.plural}_by_{category.name}",
                description=f"How many {plural} there are for each {category.name.replace('_', ' ')} "
                f"({category.description}).", parameters=_object({}, []))


@cache
def service_tools(server: str) -> tuple[Tool, ...]:
    """The seven tools of one server of :data:`SERVICES`, by its name."""
    service = next((s for s in SERVICES if s.server == server), None)
    if service is None:
        raise ValueError(f"unknown server {server!r}; the servers are: {', '.join(s.server for s in SERVICES)}")
    makers = (_list_tool, _get_tool, _search_tool, _create_tool, _update_tool, _delete_tool, _count_tool)
    return tuple(make(service) for make in makers)


def all_tools() -> list[Tool]:
    """The tools of every server of :data:`SERVICES`, server by server (238)."""
    return [t for s in SERVICES for t in service_tools(s.server)]
