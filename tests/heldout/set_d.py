"""Held-out set D: 30 learner-style tools and 60 plain questions for the offline model.

The domains are everyday services: a vet clinic, library loans, gym classes, recipes,
home listings, job search, transit, laundry, room service, leave requests, sports
scores, blood pressure, photos, playlists, rides, groceries, pet adoption, school
grades, restaurants, QR codes, DNS, an issue tracker, server alerts and pharmacy refills.

The set was written blind to the offline model's rules and to the other held-out sets,
and never edited after measuring. Chinese questions carry an English gloss.
"""

from enum import Enum
from typing import Literal

from pydantic import BaseModel, Field

from conductor.course.offline_suite import ask, decline
from conductor.tools import tool

# -- veterinary clinic -------------------------------------------------------------------


@tool
def book_vet_appointment(
    pet_name: str,
    species: Literal["dog", "cat", "rabbit", "bird"],
    visit_type: Literal["checkup", "injury", "illness"] = "checkup",
    day: str | None = None,
) -> dict:
    """Book a visit at the vet clinic for one pet.

    Args:
        pet_name: The pet's name.
        species: What kind of animal the pet is.
        visit_type: Why the pet is coming in: a routine checkup, an injury or an illness.
        day: Preferred day, in the owner's own words (e.g. "next Tuesday"); the first free slot if left out.
    """
    return {"booked": True, "pet": pet_name, "species": species, "visit_type": visit_type,
            "day": day or "first available"}


@tool
def log_pet_weight(pet_name: str, weight_kg: float) -> dict:
    """Record a pet's weight in its clinic file.

    Args:
        pet_name: The pet's name.
        weight_kg: The weight in kilograms.
    """
    return {"pet": pet_name, "weight_kg": round(weight_kg, 2), "weight_lb": round(weight_kg * 2.20462, 1)}


# -- library book loans ------------------------------------------------------------------


@tool
def renew_book_loan(book_title: str, extra_weeks: int = 2) -> dict:
    """Extend the loan of a borrowed library book.

    Args:
        book_title: Title of the borrowed book.
        extra_weeks: How many more weeks to keep it.
    """
    return {"title": book_title, "extended_by_days": extra_weeks * 7, "renewed": True}


@tool
def search_library_catalog(query: str, available_only: bool = False, language: str | None = None) -> dict:
    """Search the library catalogue by title, author or subject.

    Args:
        query: Words to search for: a title, an author or a subject.
        available_only: Only show copies that are on the shelf now, not on loan.
        language: Language of the edition, in the reader's own words (e.g. "French"); any language if left out.
    """
    copies = 1 + len(query) % 4
    return {"query": query, "language": language, "copies_found": copies,
            "on_shelf": copies if available_only else copies // 2}


# -- gym classes -------------------------------------------------------------------------


@tool
def book_gym_class(class_name: str, day: str, start_time: str | None = None, bring_guest: bool = False) -> dict:
    """Reserve a spot in a group class at the gym.

    Args:
        class_name: The class, e.g. "spin" or "yoga".
        day: Day of the class, as the member says it (e.g. "Friday").
        start_time: Start time as the member writes it (e.g. "6pm"); the first class that day if left out.
        bring_guest: Reserve a second spot for a guest of the member.
    """
    return {"class": class_name, "day": day, "time": start_time or "first session",
            "spots_reserved": 2 if bring_guest else 1}


# -- recipe scaling ----------------------------------------------------------------------


@tool
def scale_recipe(recipe_name: str, servings: int, original_servings: int = 4) -> dict:
    """Scale a saved recipe's ingredient amounts to a new number of servings.

    Args:
        recipe_name: Name of the saved recipe.
        servings: How many people it should feed now.
        original_servings: How many people the recipe feeds as written.
    """
    return {"recipe": recipe_name, "servings": servings, "factor": round(servings / original_servings, 3)}


# -- real estate listings ----------------------------------------------------------------


@tool
def search_listings(
    city: str,
    max_price: int,
    min_bedrooms: int = 1,
    property_type: Literal["apartment", "house", "condo"] | None = None,
) -> dict:
    """Find homes for sale in a city within a budget.

    Args:
        city: City to search in.
        max_price: Highest asking price in dollars.
        min_bedrooms: Fewest bedrooms the home may have.
        property_type: Kind of home; every kind if left out.
    """
    return {"city": city, "max_price": max_price, "min_bedrooms": min_bedrooms,
            "type": property_type or "any", "matches": max_price // 100_000 + min_bedrooms}


# -- job postings ------------------------------------------------------------------------


@tool
def search_jobs(
    title: str, location: str | None = None, remote_only: bool = False, skills: list[str] | None = None
) -> dict:
    """Search open job postings.

    Args:
        title: Job title to look for, e.g. "nurse".
        location: City or region of the job; anywhere if left out.
        remote_only: Only show fully remote jobs.
        skills: Skills the posting should ask for.
    """
    return {"title": title, "location": location or "anywhere", "remote_only": remote_only,
            "skills": skills or [], "postings": 3 + len(skills or [])}


# -- public transit trips ----------------------------------------------------------------


@tool
def plan_transit_trip(
    origin: str,
    destination: str,
    depart_at: str | None = None,
    mode: Literal["bus", "train", "tram", "any"] = "any",
) -> dict:
    """Plan a public transit journey between two stops or places.

    Args:
        origin: Where the trip starts.
        destination: Where the trip ends.
        depart_at: Departure time as the rider writes it (e.g. "9:40"); now if left out.
        mode: Kind of vehicle to use, or "any".
    """
    return {"from": origin, "to": destination, "depart": depart_at or "now", "mode": mode,
            "legs": 1 if mode != "any" else 2}


# -- laundry service ---------------------------------------------------------------------


@tool
def schedule_laundry_pickup(address: str, items: list[str], express: bool = False) -> dict:
    """Schedule a laundry pickup from a customer's door.

    Args:
        address: Street address to collect from.
        items: The things to be cleaned, as the customer names them.
        express: Same-day turnaround for an extra fee.
    """
    return {"address": address, "items": items, "ready_in_hours": 8 if express else 48}


# -- hotel room service ------------------------------------------------------------------


@tool
def order_room_service(room_number: int, dishes: list[str], notes: str | None = None) -> dict:
    """Order food and drinks to a hotel room.

    Args:
        room_number: The guest's room number.
        dishes: Dishes and drinks to bring, one per entry.
        notes: Special requests for the kitchen, e.g. allergies.
    """
    return {"room": room_number, "dishes": dishes, "notes": notes, "eta_minutes": 15 + 5 * len(dishes)}


# -- employee leave requests -------------------------------------------------------------


class LeaveType(str, Enum):
    """Kinds of leave an employee can request."""

    VACATION = "vacation"
    SICK = "sick"
    PARENTAL = "parental"
    UNPAID = "unpaid"


@tool
def submit_leave_request(employee_id: str, start_date: str, end_date: str, leave_type: LeaveType) -> dict:
    """Submit a leave request for an employee.

    Args:
        employee_id: The employee's staff ID, e.g. "E2001".
        start_date: First day of leave, as the employee writes it.
        end_date: Last day of leave, as the employee writes it.
        leave_type: Kind of leave requested.
    """
    return {"employee": employee_id, "from": start_date, "to": end_date,
            "type": LeaveType(leave_type).value, "status": "pending approval"}


# -- sports scores -----------------------------------------------------------------------


@tool
def get_match_score(team: str, league: str | None = None) -> dict:
    """Get the score of a team's most recent match.

    Args:
        team: The team's name.
        league: League or competition to look in; the team's latest match anywhere if left out.
    """
    return {"team": team, "league": league or "all competitions", "score": f"{len(team) % 4}-{len(team) % 3}"}


# -- blood pressure logging --------------------------------------------------------------


@tool
def log_blood_pressure(
    systolic: int, diastolic: int, pulse: int | None = None, arm: Literal["left", "right"] = "left"
) -> dict:
    """Record one blood pressure reading in the health diary.

    Args:
        systolic: The upper number, in mmHg.
        diastolic: The lower number, in mmHg.
        pulse: Heart rate in beats per minute, if measured.
        arm: Which arm the cuff was on.
    """
    high = systolic >= 130 or diastolic >= 80
    return {"reading": f"{systolic}/{diastolic}", "pulse": pulse, "arm": arm,
            "category": "elevated" if high else "normal"}


# -- photo resizing ----------------------------------------------------------------------


@tool
def resize_photo(filename: str, width: int, height: int | None = None, keep_aspect: bool = True) -> dict:
    """Resize an uploaded photo.

    Args:
        filename: Name of the photo file.
        width: New width in pixels.
        height: New height in pixels; worked out from the width if left out.
        keep_aspect: Keep the original proportions, fitting inside the new size.
    """
    return {"file": filename, "width": width, "height": height or round(width * 0.75),
            "aspect_kept": keep_aspect}


# -- music playlists ---------------------------------------------------------------------


@tool
def add_songs_to_playlist(playlist: str, songs: list[str]) -> dict:
    """Add songs to one of the user's playlists.

    Args:
        playlist: Name of the playlist.
        songs: Song titles to add.
    """
    return {"playlist": playlist, "added": songs, "count": len(songs)}


@tool
def create_playlist(name: str, public: bool = False, description: str | None = None) -> dict:
    """Create a new, empty playlist.

    Args:
        name: Name of the new playlist.
        public: Let other people find and follow it.
        description: A short description shown under the name.
    """
    return {"name": name, "public": public, "description": description or "", "songs": 0}


# -- ride hailing ------------------------------------------------------------------------


@tool
def request_ride(
    pickup: str,
    dropoff: str,
    ride_type: Literal["economy", "comfort", "xl"] = "economy",
    passengers: int = 1,
) -> dict:
    """Request a ride from a driver.

    Args:
        pickup: Where to be picked up.
        dropoff: Where to be dropped off.
        ride_type: Class of car: economy, comfort, or xl for up to six riders.
        passengers: How many people are riding.
    """
    return {"pickup": pickup, "dropoff": dropoff, "ride_type": ride_type, "passengers": passengers,
            "eta_minutes": 4 if ride_type == "economy" else 9}


# -- grocery delivery --------------------------------------------------------------------


@tool
def add_to_grocery_cart(item: str, quantity: int = 1, organic: bool = False) -> dict:
    """Add a product to the grocery delivery cart.

    Args:
        item: The product, e.g. "apples".
        quantity: How many units to add.
        organic: Choose the organic version of the product.
    """
    return {"item": item, "quantity": quantity, "organic": organic, "cart_lines": 1}


# -- pet adoption ------------------------------------------------------------------------


@tool
def search_adoptable_pets(
    species: str, city: str, max_age_years: float | None = None, good_with_kids: bool = False
) -> dict:
    """Find animals waiting for adoption at shelters in a city.

    Args:
        species: Kind of animal, e.g. "dog".
        city: City to search in.
        max_age_years: Oldest age in years; any age if left out.
        good_with_kids: Only animals known to be good with children.
    """
    return {"species": species, "city": city, "max_age_years": max_age_years,
            "good_with_kids": good_with_kids, "found": 2 + len(city) % 5}


class Applicant(BaseModel):
    """The person applying to adopt."""

    name: str = Field(description="The applicant's full name.")
    phone: str = Field(description="A phone number to reach the applicant.")
    has_yard: bool = Field(False, description="Whether the applicant's home has a yard.")


@tool
def submit_adoption_application(pet_id: str, applicant: Applicant) -> dict:
    """Apply to adopt one animal from the shelter.

    Args:
        pet_id: The shelter's ID for the animal, e.g. "C-1234".
        applicant: Who is applying and how to reach them.
    """
    return {"pet_id": pet_id, "applicant": applicant.name, "status": "received",
            "home_visit_needed": not applicant.has_yard}


# -- school grades -----------------------------------------------------------------------


@tool
def record_grade(student_name: str, subject: str, score: float, max_score: float = 100) -> dict:
    """Record a student's mark on a test or assignment.

    Args:
        student_name: The student's name.
        subject: The school subject.
        score: Points the student earned.
        max_score: Points available on the test.
    """
    return {"student": student_name, "subject": subject, "percent": round(100 * score / max_score, 1)}


@tool
def get_report_card(student_name: str, term: str | None = None) -> dict:
    """Fetch a student's report card.

    Args:
        student_name: The student's name.
        term: School term, e.g. "spring 2024"; the current term if left out.
    """
    return {"student": student_name, "term": term or "current", "subjects": 6, "average": 81.5}


# -- restaurant reservations -------------------------------------------------------------


@tool
def reserve_table(restaurant: str, party_size: int, time: str, date: str | None = None,
                  outdoor: bool = False) -> dict:
    """Reserve a table at a restaurant.

    Args:
        restaurant: Name of the restaurant.
        party_size: Number of diners.
        time: Time of the booking as the diner writes it (e.g. "8pm").
        date: Day of the booking as the diner writes it; today if left out.
        outdoor: Ask for a table outside.
    """
    return {"restaurant": restaurant, "party_size": party_size, "when": f"{date or 'today'} {time}",
            "seating": "outdoor" if outdoor else "indoor", "confirmed": True}


# -- QR codes ----------------------------------------------------------------------------


@tool
def make_qr_code(content: str, size_px: int = 256, error_correction: Literal["L", "M", "Q", "H"] = "M") -> dict:
    """Make a QR code image holding some text or a link.

    Args:
        content: The text or URL to encode.
        size_px: Width and height of the image in pixels.
        error_correction: Error correction level, from L (lowest) to H (highest).
    """
    return {"content": content, "size_px": size_px, "error_correction": error_correction,
            "file": f"qr_{sum(map(ord, content)) % 10_000}.png"}


# -- DNS lookup --------------------------------------------------------------------------


class RecordType(str, Enum):
    """DNS record types the lookup understands."""

    A = "A"
    AAAA = "AAAA"
    MX = "MX"
    TXT = "TXT"
    CNAME = "CNAME"


@tool
def dns_lookup(domain: str, record_type: RecordType = RecordType.A) -> dict:
    """Look up DNS records for a domain name.

    Args:
        domain: The domain name, e.g. "example.org".
        record_type: Which record type to fetch: A (IPv4), AAAA (IPv6), MX (mail), TXT or CNAME.
    """
    kind = RecordType(record_type).value
    return {"domain": domain, "type": kind, "records": [f"{kind.lower()}-record-1.{domain}"], "ttl": 300}


# -- issue tracker tickets ---------------------------------------------------------------


class TicketDraft(BaseModel):
    """The contents of a new ticket."""

    title: str = Field(description="One-line summary of the problem.")
    priority: Literal["low", "medium", "high", "urgent"] = Field("medium", description="How soon it needs fixing.")
    labels: list[str] = Field(default_factory=list, description="Labels to tag the ticket with.")


@tool
def create_ticket(project: str, ticket: TicketDraft) -> dict:
    """Open a new ticket in the issue tracker.

    Args:
        project: Key of the project the ticket belongs to, e.g. "API".
        ticket: Title, priority and labels of the new ticket.
    """
    return {"key": f"{project.upper()}-{100 + len(ticket.title)}", "title": ticket.title,
            "priority": ticket.priority, "labels": ticket.labels}


@tool
def close_ticket(
    ticket_id: int, resolution: Literal["fixed", "duplicate", "wont_fix", "cannot_reproduce"] = "fixed"
) -> dict:
    """Close a ticket in the issue tracker.

    Args:
        ticket_id: The ticket's number.
        resolution: Why it is being closed.
    """
    return {"ticket_id": ticket_id, "status": "closed", "resolution": resolution}


# -- server monitoring alerts ------------------------------------------------------------


@tool
def set_cpu_alert(
    host: str, threshold_percent: float, duration_minutes: int = 5, notify_channel: str | None = None
) -> dict:
    """Raise an alert when a server's CPU use stays high.

    Args:
        host: Name of the server to watch.
        threshold_percent: CPU use, in percent, above which to alert.
        duration_minutes: How long the CPU must stay above the threshold before alerting.
        notify_channel: Chat channel to post the alert to; the on-call pager if left out.
    """
    return {"host": host, "rule": f"cpu > {threshold_percent}% for {duration_minutes}m",
            "notify": notify_channel or "on-call pager", "active": True}


# -- pharmacy refills --------------------------------------------------------------------


@tool
def request_refill(prescription_number: str, pharmacy: str | None = None, delivery: bool = False) -> dict:
    """Ask the pharmacy to refill a prescription.

    Args:
        prescription_number: The number printed on the prescription label.
        pharmacy: Which pharmacy branch to fill it at; the usual one if left out.
        delivery: Deliver it to the patient's home instead of pickup.
    """
    return {"prescription": prescription_number, "pharmacy": pharmacy or "usual branch",
            "fulfilment": "delivery" if delivery else "pickup", "ready_in_hours": 24}


# -- the questions -----------------------------------------------------------------------

CASES = (
    ask(book_vet_appointment, "My cat Biscuit has been throwing up since yesterday, can someone see her Thursday?",
        {"pet_name": "Biscuit", "species": "cat", "visit_type": "illness", "day": "Thursday"},
        aliases={"illness": "throwing up"}),
    decline(book_vet_appointment, "need to bring my rabbit in for a checkup sometime next week", "pet_name"),
    ask(book_vet_appointment, "帮我给我家狗旺财约个体检，周六可以吗？",  # "Book a checkup for my dog Wangcai, is Saturday OK?"
        {"pet_name": "旺财", "species": "dog", "visit_type": "checkup", "day": "周六"},
        aliases={"dog": "狗", "checkup": "体检"}),
    ask(log_pet_weight, "Mochi weighed in at 4.2 kg this morning", {"pet_name": "Mochi", "weight_kg": 4.2}),
    ask(log_pet_weight, "Pepper is up to 2.35 kilos, can you note that down?",
        {"pet_name": "Pepper", "weight_kg": 2.35}),
    ask(renew_book_loan, "can I hang on to The Overstory for another 3 weeks?",
        {"book_title": "The Overstory", "extra_weeks": 3}),
    ask(renew_book_loan, "please renew Dune and Piranesi, I'm not done with either",
        {"book_title": "Dune"}, {"book_title": "Piranesi"}),
    ask(search_library_catalog, "got any books on sourdough baking? only ones that are available right now",
        {"query": "sourdough baking", "available_only": True}),
    ask(search_library_catalog, "图书馆有村上春树的书吗？想借日文原版的",  # "Any Murakami books? I want the Japanese originals"
        {"query": "村上春树", "language": "日文"}),
    ask(book_gym_class, "put me down for spin Monday 6am, I'll bring a guest too",
        {"class_name": "spin", "day": "Monday", "start_time": "6am", "bring_guest": True}),
    decline(book_gym_class, "sign me up for the 7pm yoga class", "day"),
    ask(scale_recipe, "my lasagna recipe feeds 6 but I've got 15 people coming over, help me scale it",
        {"recipe_name": "lasagna", "servings": 15, "original_servings": 6}),
    decline(scale_recipe, "can you scale up my banana bread recipe?", "servings"),
    ask(search_listings, "looking for a house in Austin, 3 bedrooms minimum, budget tops out at $450,000",
        {"city": "Austin", "max_price": 450000, "min_bedrooms": 3, "property_type": "house"}),
    ask(search_listings, "what's on the market in Denver and Boise for under 300000?",
        {"city": "Denver", "max_price": 300000}, {"city": "Boise", "max_price": 300000}),
    ask(search_jobs, "any data engineer roles that are remote only and want Spark and Airflow?",
        {"title": "data engineer", "remote_only": True, "skills": ["Spark", "Airflow"]}),
    ask(search_jobs, "上海有没有招产品经理的？",  # "Is anyone in Shanghai hiring product managers?"
        {"title": "产品经理", "location": "上海"}),
    ask(plan_transit_trip, "how do I get from Central Station to Harbor Park by train? leaving at 8:15",
        {"origin": "Central Station", "destination": "Harbor Park", "depart_at": "8:15", "mode": "train"}),
    decline(plan_transit_trip, "what bus gets me to Elm Street?", "origin"),
    ask(schedule_laundry_pickup, "can you pick up my duvet, curtains and a suit from 14 Rose Lane? express please",
        {"address": "14 Rose Lane", "items": ["duvet", "curtains", "suit"], "express": True}),
    ask(schedule_laundry_pickup, "laundry pickup at 9 Birch Court, just bedsheets this time",
        {"address": "9 Birch Court", "items": ["bedsheets"]}),
    ask(order_room_service, "hi, room 512, could I get a club sandwich and fries?",
        {"room_number": 512, "dishes": ["club sandwich", "fries"]}),
    ask(order_room_service, "我在1208房间，想点炒饭和橙汁",  # "I'm in room 1208 and would like fried rice and orange juice"
        {"room_number": 1208, "dishes": ["炒饭", "橙汁"]}),
    ask(submit_leave_request, "I'm E1043 and I want to take vacation from June 2 to June 6",
        {"employee_id": "E1043", "start_date": "June 2", "end_date": "June 6", "leave_type": "vacation"}),
    decline(submit_leave_request, "please put in sick leave for me from Monday through Wednesday", "employee_id"),
    ask(get_match_score, "what was the Man City score in the Premier League last weekend?",
        {"team": "Man City", "league": "Premier League"}),
    ask(get_match_score, "湖人昨晚比分多少？",  # "What was the Lakers' score last night?"
        {"team": "湖人"}),
    ask(log_blood_pressure, "bp this morning was 128/84, pulse 71, taken on my right arm",
        {"systolic": 128, "diastolic": 84, "pulse": 71, "arm": "right"}),
    ask(log_blood_pressure, "log 132 over 90", {"systolic": 132, "diastolic": 90}),
    ask(resize_photo, "resize logo.png to exactly 300x300, don't keep the aspect ratio",
        {"filename": "logo.png", "width": 300, "height": 300, "keep_aspect": False}),
    decline(resize_photo, "make header.png 400 pixels tall", "width"),
    ask(add_songs_to_playlist, "throw Dreams and Landslide onto my Road Trip playlist",
        {"playlist": "Road Trip", "songs": ["Dreams", "Landslide"]}),
    decline(add_songs_to_playlist, "add Bohemian Rhapsody to one of my playlists", "playlist"),
    ask(create_playlist, "start a new public playlist called Sunday Chill", {"name": "Sunday Chill", "public": True}),
    ask(create_playlist, "新建一个歌单，叫跑步专用",  # "Create a new playlist called 'For Running'"
        {"name": "跑步专用"}),
    ask(request_ride, "need an XL from Hilton Downtown to JFK Terminal 4, there are 6 of us",
        {"pickup": "Hilton Downtown", "dropoff": "JFK Terminal 4", "ride_type": "xl", "passengers": 6}),
    ask(request_ride, "ride from 5th and Pine to Pike Place Market",
        {"pickup": "5th and Pine", "dropoff": "Pike Place Market"}),
    ask(add_to_grocery_cart, "grab me oat milk x2, 6 bananas and sourdough bread",
        {"item": "oat milk", "quantity": 2}, {"item": "bananas", "quantity": 6}, {"item": "sourdough bread"}),
    ask(add_to_grocery_cart, "organic strawberries, 3 punnets",
        {"item": "strawberries", "quantity": 3, "organic": True}),
    ask(search_adoptable_pets, "looking to adopt a dog in Portland that's good with kids, ideally under 2 years old",
        {"species": "dog", "city": "Portland", "max_age_years": 2, "good_with_kids": True}),
    ask(search_adoptable_pets, "is there a cat I could adopt in Leeds? up to 10 years old is fine",
        {"species": "cat", "city": "Leeds", "max_age_years": 10}),
    ask(submit_adoption_application,
        "I'd like to apply for A-2291. I'm Dana Whitfield, 555-0142, and we live in a house with a yard",
        {"pet_id": "A-2291", "applicant": {"name": "Dana Whitfield", "phone": "555-0142", "has_yard": True}}),
    decline(submit_adoption_application, "how do I apply to adopt D-118?", "applicant"),
    ask(record_grade, "Priya got 42 out of 50 on the chemistry quiz",
        {"student_name": "Priya", "subject": "chemistry", "score": 42, "max_score": 50}),
    ask(record_grade, "数学考试成绩：小明92分，小红88分",  # "Math test results: Xiaoming 92, Xiaohong 88"
        {"student_name": "小明", "subject": "数学", "score": 92},
        {"student_name": "小红", "subject": "数学", "score": 88}),
    ask(get_report_card, "pull up Jonah Reyes's report card for fall 2025",
        {"student_name": "Jonah Reyes", "term": "fall 2025"}),
    ask(get_report_card, "Report card for Leo Park please", {"student_name": "Leo Park"}),
    ask(reserve_table, "table for 4 at Nonna's tomorrow at 7:30, outdoor seating if you can",
        {"restaurant": "Nonna's", "party_size": 4, "time": "7:30", "date": "tomorrow", "outdoor": True}),
    ask(make_qr_code, "QR code for https://example.org/menu please, 512px, highest error correction",
        {"content": "https://example.org/menu", "size_px": 512, "error_correction": "H"},
        aliases={"H": "highest"}),
    ask(dns_lookup, "what are the MX records for proton.me?", {"domain": "proton.me", "record_type": "MX"}),
    ask(dns_lookup, "look up the IPv6 addresses for example.com and example.net",
        {"domain": "example.com", "record_type": "AAAA"}, {"domain": "example.net", "record_type": "AAAA"},
        aliases={"AAAA": "IPv6"}),
    ask(create_ticket,
        "open a ticket in WEB: Login button does nothing on Safari. high priority, tag it bug and frontend",
        {"project": "WEB", "ticket": {"title": "Login button does nothing on Safari", "priority": "high",
                                      "labels": ["bug", "frontend"]}}),
    decline(create_ticket, "file a bug: checkout page times out when the cart has more than 50 items", "project"),
    ask(close_ticket, "close 4411 and 4415, both are fixed",
        {"ticket_id": 4411, "resolution": "fixed"}, {"ticket_id": 4415, "resolution": "fixed"}),
    ask(close_ticket, "#982 is a dupe, close it", {"ticket_id": 982, "resolution": "duplicate"},
        aliases={"duplicate": "dupe"}),
    ask(set_cpu_alert, "ping me if web-03 stays above 90% CPU for 10 minutes, send it to the ops-alerts channel",
        {"host": "web-03", "threshold_percent": 90, "duration_minutes": 10, "notify_channel": "ops-alerts"}),
    decline(set_cpu_alert, "set up a CPU alert at 85% please", "host"),
    ask(set_cpu_alert, "db-01 的 CPU 超过80%就报警",  # "Raise an alert when CPU on db-01 goes over 80%"
        {"host": "db-01", "threshold_percent": 80}),
    ask(request_refill, "refill Rx 7730215, home delivery please",
        {"prescription_number": "7730215", "delivery": True}),
    ask(request_refill, "can you refill prescription 88-41920 at Walgreens on Main St?",
        {"prescription_number": "88-41920", "pharmacy": "Walgreens on Main St"}),
)
