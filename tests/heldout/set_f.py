"""Held-out set F: 30 learner-style tools and 60 plain questions for the offline model.

The set was written blind (without looking at how the offline model works) and is
never edited after committing, so it measures how the model does on tools it was
not written for. Chinese questions carry an English gloss.
"""

from enum import Enum
from typing import Literal

from pydantic import BaseModel

from conductor.course.offline_suite import ask, decline
from conductor.tools import tool

# -- cloud virtual machines ---------------------------------------------------------------

_VCPUS = {"small": 2, "medium": 4, "large": 8, "xlarge": 16}


@tool
def resize_vm(vm_name: str, size: Literal["small", "medium", "large", "xlarge"], restart_now: bool = False) -> dict:
    """Change the size of a cloud virtual machine.

    Args:
        vm_name: Name of the virtual machine, e.g. "web-prod-01".
        size: New machine size.
        restart_now: Restart the machine immediately so the new size takes effect.
    """
    return {"vm": vm_name, "size": size, "vcpus": _VCPUS[size], "restarted": restart_now}


@tool
def list_vms(region: str, state: Literal["running", "stopped", "any"] = "any") -> dict:
    """List the virtual machines in one cloud region.

    Args:
        region: Cloud region code, e.g. "eu-central-1".
        state: Only show machines in this state.
    """
    names = [f"{region}-vm-{i}" for i in range(1, 4)]
    return {"region": region, "state": state, "machines": names if state != "stopped" else names[:1]}


# -- storage buckets -----------------------------------------------------------------------


@tool
def create_bucket(bucket_name: str, region: str, public: bool = False, versioning: bool = False) -> dict:
    """Create a storage bucket.

    Args:
        bucket_name: Globally unique name of the new bucket.
        region: Region the bucket's data is stored in.
        public: Whether anyone on the internet can read the bucket's files.
        versioning: Keep earlier versions of files that are overwritten or deleted.
    """
    return {"bucket": bucket_name, "url": f"https://{bucket_name}.{region}.storage.example",
            "public": public, "versioning": versioning}


# -- CI pipelines --------------------------------------------------------------------------


@tool
def trigger_pipeline(repository: str, branch: str = "main", skip_tests: bool = False) -> dict:
    """Start a CI pipeline run for a repository.

    Args:
        repository: Repository name, e.g. "billing-service".
        branch: Git branch to build.
        skip_tests: Build and deploy without running the test stage.
    """
    stages = ["build", "deploy"] if skip_tests else ["build", "test", "deploy"]
    return {"repository": repository, "branch": branch, "stages": stages, "run_id": abs(hash(repository)) % 100000}


@tool
def pipeline_status(run_id: int) -> dict:
    """Look up the status of one CI pipeline run.

    Args:
        run_id: Numeric id of the pipeline run.
    """
    return {"run_id": run_id, "status": "passed" if run_id % 2 else "failed"}


# -- database backups ----------------------------------------------------------------------


@tool
def schedule_db_backup(database: str, hour_utc: int, keep_days: int = 7) -> dict:
    """Schedule a nightly backup of a database.

    Args:
        database: Name of the database to back up.
        hour_utc: Hour of the day (0-23, UTC) the backup starts.
        keep_days: How many days each backup is kept before it is deleted.
    """
    return {"database": database, "cron": f"0 {hour_utc} * * *", "keep_days": keep_days}


# -- customer support tickets --------------------------------------------------------------


class Priority(Enum):
    """How quickly a support ticket needs an answer."""

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"
    URGENT = "urgent"


@tool
def open_ticket(customer_email: str, subject: str, priority: Priority = Priority.NORMAL) -> dict:
    """Open a customer support ticket.

    Args:
        customer_email: E-mail address of the customer who needs help.
        subject: One-line summary of the problem.
        priority: How urgent the ticket is.
    """
    return {"ticket": f"T-{len(subject) * 137}", "customer": customer_email, "subject": subject,
            "priority": priority.value}


# -- CRM leads -----------------------------------------------------------------------------


class Lead(BaseModel):
    """A potential customer."""

    name: str
    company: str
    email: str | None = None
    estimated_value: float | None = None


@tool
def add_lead(lead: Lead) -> dict:
    """Add a sales lead to the CRM.

    Args:
        lead: The person, their company, and optionally their e-mail and the deal's estimated value.
    """
    return {"lead_id": f"L-{len(lead.name) + len(lead.company)}", "stage": "new", **lead.model_dump()}


# -- invoices ------------------------------------------------------------------------------


@tool
def create_invoice(client: str, amount: float, currency: str = "USD", due_in_days: int = 30) -> dict:
    """Create an invoice for a client.

    Args:
        client: Name of the client being billed.
        amount: Total amount to bill.
        currency: Three-letter ISO currency code.
        due_in_days: Days the client has to pay.
    """
    return {"client": client, "amount": round(amount, 2), "currency": currency.upper(), "terms": f"net {due_in_days}"}


# -- payroll -------------------------------------------------------------------------------


@tool
def calculate_pay(hourly_rate: float, hours: float, overtime_hours: float = 0) -> dict:
    """Work out gross pay for hourly work, with overtime paid at time and a half.

    Args:
        hourly_rate: Pay per regular hour.
        hours: Regular hours worked.
        overtime_hours: Extra hours worked beyond the regular ones.
    """
    return {"gross_pay": round(hourly_rate * hours + 1.5 * hourly_rate * overtime_hours, 2)}


# -- retail returns ------------------------------------------------------------------------


@tool
def start_return(
    order_number: str,
    reason: Literal["damaged", "wrong_item", "changed_mind", "doesnt_fit"],
    refund_method: Literal["original_payment", "store_credit"] = "original_payment",
) -> dict:
    """Start a return for an order and issue a prepaid return label.

    Args:
        order_number: The order's number as shown on the receipt.
        reason: Why the item is being returned.
        refund_method: Where the refund goes.
    """
    return {"order": order_number, "reason": reason, "refund_method": refund_method, "rma": f"RMA-{order_number}"}


# -- loyalty points ------------------------------------------------------------------------


@tool
def loyalty_balance(member_id: str) -> dict:
    """Look up a loyalty programme member's points balance.

    Args:
        member_id: The member's loyalty number.
    """
    return {"member_id": member_id, "points": sum(map(ord, member_id)) * 3}


@tool
def redeem_points(member_id: str, points: int) -> dict:
    """Redeem loyalty points as store credit (100 points buy one unit of credit).

    Args:
        member_id: The member's loyalty number.
        points: How many points to redeem.
    """
    return {"member_id": member_id, "redeemed": points, "credit": points / 100}


# -- coupons -------------------------------------------------------------------------------


@tool
def check_coupon(code: str, cart_total: float | None = None) -> dict:
    """Check whether a coupon code is valid and what it takes off.

    Args:
        code: The coupon code.
        cart_total: Order total to work out the discount on, if known.
    """
    percent = 10 if code.upper().startswith("WELCOME") else 25
    discount = None if cart_total is None else round(cart_total * percent / 100, 2)
    return {"code": code.upper(), "valid": True, "percent_off": percent, "discount": discount}


# -- elevator maintenance ------------------------------------------------------------------


@tool
def log_elevator_inspection(building: str, elevator: int, passed: bool, notes: str | None = None) -> dict:
    """Record the result of an elevator safety inspection.

    Args:
        building: Name of the building.
        elevator: Number of the elevator within the building.
        passed: Whether the elevator passed the inspection.
        notes: Inspector's remarks, e.g. parts that need attention.
    """
    return {"building": building, "elevator": elevator, "passed": passed, "notes": notes,
            "in_service": passed}


# -- building access badges ----------------------------------------------------------------


@tool
def issue_badge(employee_name: str, doors: list[str], valid_days: int = 365) -> dict:
    """Issue a building access badge that opens the given doors.

    Args:
        employee_name: Full name of the badge holder.
        doors: Doors or areas the badge opens.
        valid_days: Days until the badge expires.
    """
    return {"holder": employee_name, "doors": doors, "valid_days": valid_days, "badge": f"B{len(doors)}{valid_days}"}


# -- meeting rooms -------------------------------------------------------------------------


@tool
def find_free_rooms(capacity: int, projector: bool = False, floor: int | None = None) -> dict:
    """Find meeting rooms free right now.

    Args:
        capacity: Number of people the room must seat.
        projector: Only rooms with a projector or screen.
        floor: Only rooms on this floor.
    """
    level = floor if floor is not None else 1
    return {"rooms": [f"{level}.{capacity + 2:02d}"], "projector": projector}


# -- e-learning quizzes --------------------------------------------------------------------


@tool
def grade_quiz(quiz_id: str, answers: list[str]) -> dict:
    """Grade a learner's answers to an online quiz.

    Args:
        quiz_id: The quiz's identifier, e.g. "SQL-2-W1".
        answers: The learner's answers in question order.
    """
    correct = sum(1 for i, answer in enumerate(answers) if len(answer) % 2 == i % 2)
    return {"quiz": quiz_id, "score": correct, "out_of": len(answers)}


# -- newspaper subscriptions ---------------------------------------------------------------


@tool
def subscribe_newspaper(
    newspaper: str, plan: Literal["daily", "weekdays", "weekends"], digital_only: bool = False
) -> dict:
    """Subscribe to a newspaper.

    Args:
        newspaper: Title of the newspaper.
        plan: Which days the paper is delivered.
        digital_only: Online edition only, no printed copy.
    """
    issues = {"daily": 7, "weekdays": 5, "weekends": 2}[plan]
    return {"newspaper": newspaper, "issues_per_week": issues, "weekly_price": issues * (0.5 if digital_only else 1.2)}


# -- sports league standings ---------------------------------------------------------------


@tool
def league_standings(league: str, season: str | None = None, top: int = 10) -> dict:
    """Show a sports league table.

    Args:
        league: Name of the league, e.g. "Ligue 1".
        season: Season as written by the league, e.g. "2021-22"; the current one when left out.
        top: How many teams from the top of the table to show.
    """
    return {"league": league, "season": season or "current", "table": [f"Team {i}" for i in range(1, top + 1)]}


# -- election results ----------------------------------------------------------------------


@tool
def election_results(constituency: str, year: int) -> dict:
    """Get the result of an election in one constituency.

    Args:
        constituency: Name of the constituency or district.
        year: Year of the election.
    """
    return {"constituency": constituency, "year": year, "turnout_percent": 60 + year % 15}


# -- hospital bed availability -------------------------------------------------------------


@tool
def hospital_beds(hospital: str, ward: Literal["general", "icu", "maternity", "pediatric"] = "general") -> dict:
    """Check how many beds are free in one ward of a hospital.

    Args:
        hospital: Name of the hospital.
        ward: Which ward to check.
    """
    return {"hospital": hospital, "ward": ward, "free_beds": len(hospital) % 7}


# -- blood donation appointments -----------------------------------------------------------


@tool
def book_blood_donation(
    donor_name: str, center: str, donation_type: Literal["whole_blood", "plasma", "platelets"] = "whole_blood"
) -> dict:
    """Book the next free blood donation appointment.

    Args:
        donor_name: Full name of the donor.
        center: Donation centre to book at.
        donation_type: What is being donated.
    """
    minutes = {"whole_blood": 15, "plasma": 45, "platelets": 90}[donation_type]
    return {"donor": donor_name, "center": center, "type": donation_type, "expected_minutes": minutes}


# -- nutrition labels ----------------------------------------------------------------------

_PER_100G = {"kcal": 120.0, "protein_g": 6.0, "fat_g": 3.5, "carbs_g": 15.0}


@tool
def nutrition_facts(food: str, grams: float = 100) -> dict:
    """Show the nutrition label for a portion of a food.

    Args:
        food: The food, e.g. "oat milk".
        grams: Portion size in grams.
    """
    return {"food": food, "grams": grams, **{k: round(v * grams / 100, 1) for k, v in _PER_100G.items()}}


# -- dog walking ---------------------------------------------------------------------------


@tool
def book_dog_walk(dog_name: str, minutes: int, walker: str | None = None) -> dict:
    """Book a walk for a dog.

    Args:
        dog_name: The dog's name.
        minutes: Length of the walk in minutes.
        walker: Preferred walker; any free walker when left out.
    """
    return {"dog": dog_name, "minutes": minutes, "walker": walker or "first available", "price": minutes * 0.4}


# -- home cleaning service -----------------------------------------------------------------


@tool
def quote_cleaning(bedrooms: int, bathrooms: int, deep_clean: bool = False, has_pets: bool = False) -> dict:
    """Quote a price for cleaning a home.

    Args:
        bedrooms: Number of bedrooms.
        bathrooms: Number of bathrooms.
        deep_clean: Deep clean (inside ovens, cupboards and windows) instead of a regular clean.
        has_pets: Whether pets live there (extra hair removal).
    """
    price = 40 + 25 * bedrooms + 20 * bathrooms
    price *= 1.6 if deep_clean else 1
    return {"price": round(price + (15 if has_pets else 0), 2)}


# -- event photography ---------------------------------------------------------------------


@tool
def photography_quote(event_type: str, hours: float, photographers: int = 1, include_album: bool = False) -> dict:
    """Quote a price for photographing an event.

    Args:
        event_type: Kind of event, e.g. "birthday party".
        hours: Hours of coverage.
        photographers: How many photographers attend.
        include_album: Add a printed photo album.
    """
    return {"event": event_type, "price": 150 * hours * photographers + (300 if include_album else 0)}


# -- scholarship applications --------------------------------------------------------------


class ScholarshipApplication(BaseModel):
    """One student's scholarship application."""

    student_name: str
    gpa: float
    field_of_study: str
    first_generation: bool = False


@tool
def submit_scholarship_application(application: ScholarshipApplication) -> dict:
    """Submit a scholarship application.

    Args:
        application: The student's name, grade point average, field of study, and whether
            they are the first in their family to attend university.
    """
    eligible = application.gpa >= 3.5 or application.first_generation
    return {"student": application.student_name, "status": "under review" if eligible else "not eligible"}


# -- lost and found ------------------------------------------------------------------------


class FoundItem(BaseModel):
    """Something found and handed in."""

    description: str
    location: str
    color: str | None = None


@tool
def report_found_item(item: FoundItem) -> dict:
    """Log an item handed in to lost and found.

    Args:
        item: What the item is, where it was found, and optionally its colour.
    """
    return {"reference": f"LF-{len(item.description) * 31 + len(item.location)}", **item.model_dump()}


# -- gift cards ----------------------------------------------------------------------------


@tool
def gift_card_balance(card_number: str, pin: str | None = None) -> dict:
    """Check the remaining balance on a gift card.

    Args:
        card_number: The number printed on the card.
        pin: The card's PIN, needed for some cards.
    """
    digits = [int(ch) for ch in card_number if ch.isdigit()]
    return {"card": card_number, "balance": float(sum(digits) * 2), "verified": pin is not None}


# -- the cases -----------------------------------------------------------------------------

CASES = (
    ask(resize_vm, "bump web-prod-02 up to xlarge and restart it right away",
        {"vm_name": "web-prod-02", "size": "xlarge", "restart_now": True}),
    decline(resize_vm, "can you make my VM a medium? it's crawling", "vm_name"),
    ask(list_vms, "which machines are stopped in eu-west-1?", {"region": "eu-west-1", "state": "stopped"}),
    ask(list_vms, "show me what's running in us-east-1 and us-west-2",
        {"region": "us-east-1", "state": "running"}, {"region": "us-west-2", "state": "running"}),
    ask(create_bucket, "new bucket called team-photos-2026 in ap-southeast-2, with versioning turned on",
        {"bucket_name": "team-photos-2026", "region": "ap-southeast-2", "versioning": True}),
    ask(create_bucket, "make a public bucket named press-kit in us-east-1",
        {"bucket_name": "press-kit", "region": "us-east-1", "public": True}),
    ask(trigger_pipeline, "kick off a build for payments-api on release/2.4",
        {"repository": "payments-api", "branch": "release/2.4"}),
    ask(trigger_pipeline, "帮我跑一下 checkout-service 的流水线,跳过测试",  # "Run the checkout-service pipeline for me, skip the tests"
        {"repository": "checkout-service", "skip_tests": True}),
    ask(pipeline_status, "did run 48213 pass?", {"run_id": 48213}),
    ask(pipeline_status, "is build #77310 still going?", {"run_id": 77310}),
    ask(schedule_db_backup, "back up orders_prod every night at 2am UTC, keep 30 days of copies",
        {"database": "orders_prod", "hour_utc": 2, "keep_days": 30}),
    decline(schedule_db_backup, "set up nightly backups for the analytics database and keep them two weeks",
            "hour_utc"),
    ask(open_ticket, "open a ticket for maria.lopez@example.com titled 'Refund not received', it's urgent",
        {"customer_email": "maria.lopez@example.com", "subject": "Refund not received", "priority": "urgent"}),
    decline(open_ticket, "file a high priority ticket: 'App crashes on startup'", "customer_email"),
    ask(add_lead, "add Priya Nair from Larkspur Foods as a lead, could be worth around 12000",
        {"lead": {"name": "Priya Nair", "company": "Larkspur Foods", "estimated_value": 12000}}),
    ask(add_lead, "加个新线索:王磊,星河科技的,邮箱 wanglei@xinghe.cn",  # "New lead: Wang Lei, from Xinghe Tech, e-mail wanglei@xinghe.cn"
        {"lead": {"name": "王磊", "company": "星河科技", "email": "wanglei@xinghe.cn"}}),
    ask(create_invoice, "invoice Brightside Studio €1800, due in 14 days",
        {"client": "Brightside Studio", "amount": 1800, "currency": "EUR", "due_in_days": 14}),
    decline(create_invoice, "send an invoice to Koval & Sons, net 45", "amount"),
    ask(calculate_pay, "how much does someone on $22.50 an hour make for 38 hours?",
        {"hourly_rate": 22.5, "hours": 38}),
    ask(calculate_pay, "时薪35块,这周干了40个小时,另外加班6小时,一共能拿多少?",  # "35 an hour, worked 40 hours this week plus 6 hours overtime, how much in total?"
        {"hourly_rate": 35, "hours": 40, "overtime_hours": 6}),
    ask(start_return, "order A-55821 showed up with a cracked screen, I want to return it for store credit",
        {"order_number": "A-55821", "reason": "damaged", "refund_method": "store_credit"},
        aliases={"damaged": "cracked"}),
    decline(start_return, "I want to return something, they sent me the wrong item", "order_number"),
    ask(loyalty_balance, "how many points do LP-1001 and LP-2040 have?",
        {"member_id": "LP-1001"}, {"member_id": "LP-2040"}),
    ask(loyalty_balance, "points balance for member M88321?", {"member_id": "M88321"}),
    ask(redeem_points, "use 500 of my points, member number 7730912", {"member_id": "7730912", "points": 500}),
    decline(redeem_points, "I'd like to cash in 2000 points", "member_id"),
    ask(check_coupon, "does SPRING25 work on an $80 order?", {"code": "SPRING25", "cart_total": 80}),
    ask(check_coupon, "is FREESHIP still valid?", {"code": "FREESHIP"}),
    ask(log_elevator_inspection, "Harbor Tower lift 3 passed its inspection, please log it",
        {"building": "Harbor Tower", "elevator": 3, "passed": True}),
    ask(log_elevator_inspection, "Oakridge House elevator 1 failed inspection, note: worn hoist cable",
        {"building": "Oakridge House", "elevator": 1, "passed": False, "notes": "worn hoist cable"}),
    ask(issue_badge, "badge for Tomás Ruiz: main entrance, lab 2, server room. 90 days",
        {"employee_name": "Tomás Ruiz", "doors": ["main entrance", "lab 2", "server room"], "valid_days": 90}),
    ask(issue_badge, "给李娜办一张门禁卡,要能进前门和档案室",  # "Make Li Na an access badge that opens the front door and the records room"
        {"employee_name": "李娜", "doors": ["前门", "档案室"]}),
    ask(find_free_rooms, "need a room for 12 people with a projector, on floor 4",
        {"capacity": 12, "projector": True, "floor": 4}),
    ask(find_free_rooms, "anything free for 6 people on floor 2?", {"capacity": 6, "floor": 2}),
    ask(grade_quiz, "grade my answers for quiz PY-101-W3: B, D, A, A, C",
        {"quiz_id": "PY-101-W3", "answers": ["B", "D", "A", "A", "C"]}),
    decline(grade_quiz, "here are my answers: true, false, false, true. how did I do?", "quiz_id"),
    ask(subscribe_newspaper, "sign me up for the Riverside Gazette, just saturdays and sundays, digital only please",
        {"newspaper": "Riverside Gazette", "plan": "weekends", "digital_only": True},
        aliases={"weekends": "saturdays and sundays"}),
    ask(subscribe_newspaper, "我想订南方日报,每天都送",  # "I'd like to subscribe to Nanfang Daily, delivered every day"
        {"newspaper": "南方日报", "plan": "daily"}, aliases={"daily": "每天"}),
    ask(league_standings, "show me the top 5 in the Bundesliga and Serie A",
        {"league": "Bundesliga", "top": 5}, {"league": "Serie A", "top": 5}),
    ask(league_standings, "NBA standings for the 2023-24 season", {"league": "NBA", "season": "2023-24"}),
    ask(election_results, "who won Bristol West in 2019?", {"constituency": "Bristol West", "year": 2019}),
    ask(election_results, "how did Leeds Central vote in 2017 and 2019?",
        {"constituency": "Leeds Central", "year": 2017}, {"constituency": "Leeds Central", "year": 2019}),
    ask(hospital_beds, "北京协和医院ICU现在还有空床吗?",  # "Does Peking Union Medical College Hospital's ICU have a free bed right now?"
        {"hospital": "北京协和医院", "ward": "icu"}),
    ask(hospital_beds, "any maternity beds open at St Mary's?", {"hospital": "St Mary's", "ward": "maternity"}),
    ask(book_blood_donation, "book Kwame Mensah for a plasma donation at Eastside",
        {"donor_name": "Kwame Mensah", "center": "Eastside", "donation_type": "plasma"}),
    decline(book_blood_donation, "I want to donate platelets at the Northgate center", "donor_name"),
    ask(nutrition_facts, "calories and protein in 250g of greek yogurt", {"food": "greek yogurt", "grams": 250}),
    ask(nutrition_facts, "150克米饭的营养成分是多少?",  # "What are the nutrition facts for 150 grams of rice?"
        {"food": "米饭", "grams": 150}),
    ask(book_dog_walk, "can Jess take Biscuit out for 45 min?",
        {"dog_name": "Biscuit", "minutes": 45, "walker": "Jess"}),
    ask(book_dog_walk, "book 30 minute walks for Pepper and Milo",
        {"dog_name": "Pepper", "minutes": 30}, {"dog_name": "Milo", "minutes": 30}),
    ask(quote_cleaning, "how much for a deep clean of a 3 bed 2 bath? we've got two cats",
        {"bedrooms": 3, "bathrooms": 2, "deep_clean": True, "has_pets": True}),
    decline(quote_cleaning, "quote for cleaning a 2 bedroom flat please", "bathrooms"),
    ask(photography_quote, "price for a wedding, 8 hours, two photographers and a printed album",
        {"event_type": "wedding", "hours": 8, "photographers": 2, "include_album": True}),
    ask(photography_quote, "what would you charge for 3 hours at a corporate gala?",
        {"event_type": "corporate gala", "hours": 3}),
    ask(submit_scholarship_application,
        "submit a scholarship application for Amara Okafor, GPA 3.8, studying civil engineering, "
        "she's the first in her family to go to college",
        {"application": {"student_name": "Amara Okafor", "gpa": 3.8, "field_of_study": "civil engineering",
                         "first_generation": True}}),
    ask(submit_scholarship_application, "帮张伟交一份奖学金申请,GPA 3.9,专业计算机科学",  # "Submit a scholarship application for Zhang Wei, GPA 3.9, major computer science"
        {"application": {"student_name": "张伟", "gpa": 3.9, "field_of_study": "计算机科学"}}),
    ask(report_found_item, "found a wallet in meeting room B, can you log it?",
        {"item": {"description": "wallet", "location": "meeting room B"}}),
    ask(report_found_item, "log a lost-and-found item: backpack, it's navy, found at platform 3",
        {"item": {"description": "backpack", "location": "platform 3", "color": "navy"}}),
    ask(gift_card_balance, "what's left on gift cards 6011-2233 and 6011-4455?",
        {"card_number": "6011-2233"}, {"card_number": "6011-4455"}),
    decline(gift_card_balance, "check my gift card balance? pin is 4821", "card_number"),
)
