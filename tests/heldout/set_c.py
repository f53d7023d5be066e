"""Held-out set C: 30 learner-style tools on new domains and 60 plain questions.

Written blind (without reading the offline model's rules or sets A and B) and never
edited after measuring. Chinese questions carry an English gloss on the same line.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel

from conductor.course.offline_suite import ask, decline
from conductor.tools import tool


# -- tools ---------------------------------------------------------------------------------


@tool
def file_insurance_claim(policy_number: str, amount: float, incident_date: str, description: str = "") -> dict:
    """File an insurance claim against a policy.

    Args:
        policy_number: The insurance policy number, e.g. "HX-44821".
        amount: Claimed amount in the policy's currency.
        incident_date: Date of the incident, YYYY-MM-DD.
        description: Short free-text description of what happened.
    """
    return {"claim_id": f"CLM-{abs(hash((policy_number, incident_date))) % 100000:05d}",
            "policy": policy_number, "amount": round(amount, 2), "status": "received",
            "note": description or None}


@tool
def planet_visibility(planet: Literal["mercury", "venus", "mars", "jupiter", "saturn"], city: str,
                      date: str | None = None) -> dict:
    """When a planet is visible in the night sky from a city.

    Args:
        planet: Which planet.
        city: City the observer is in.
        date: Night to check, YYYY-MM-DD; tonight if omitted.
    """
    rise = {"mercury": "05:40", "venus": "18:10", "mars": "21:35", "jupiter": "19:05", "saturn": "17:50"}[planet]
    return {"planet": planet, "city": city, "date": date or "tonight", "rises": rise, "visible": True}


def chess_rating_change(rating: int, opponent_rating: int, result: Literal["win", "draw", "loss"],
                        k_factor: int = 20) -> dict:
    """Elo rating change after one chess game.

    Args:
        rating: The player's current Elo rating.
        opponent_rating: The opponent's Elo rating.
        result: Outcome of the game for the player.
        k_factor: Elo K-factor.
    """
    expected = 1 / (1 + 10 ** ((opponent_rating - rating) / 400))
    score = {"win": 1.0, "draw": 0.5, "loss": 0.0}[result]
    change = round(k_factor * (score - expected))
    return {"change": change, "new_rating": rating + change}


@tool
def track_package(tracking_id: str, carrier: Literal["ups", "fedex", "dhl", "usps"] | None = None) -> dict:
    """Where a parcel is now.

    Args:
        tracking_id: The tracking number of one parcel.
        carrier: The shipping company, if known.
    """
    return {"tracking_id": tracking_id, "carrier": carrier or "auto-detected", "status": "in transit",
            "last_scan": "regional sorting center"}


@tool
def rent_car(pickup_city: str, pickup_date: str, return_date: str,
             car_class: Literal["economy", "compact", "suv", "van"] = "economy") -> dict:
    """Reserve a rental car.

    Args:
        pickup_city: City where the car is picked up.
        pickup_date: Pick-up date, YYYY-MM-DD.
        return_date: Return date, YYYY-MM-DD.
        car_class: Size class of the car.
    """
    daily = {"economy": 38, "compact": 45, "suv": 72, "van": 90}[car_class]
    return {"city": pickup_city, "from": pickup_date, "to": return_date, "class": car_class, "daily_rate": daily}


@tool
def book_dental_appointment(patient_name: str, date: str, time: str,
                            reason: Literal["cleaning", "filling", "checkup", "extraction"] = "checkup") -> dict:
    """Book an appointment at the dental clinic.

    Args:
        patient_name: Full name of the patient.
        date: Appointment date, YYYY-MM-DD.
        time: Appointment time, HH:MM (24-hour).
        reason: What the visit is for.
    """
    return {"patient": patient_name, "when": f"{date} {time}", "reason": reason, "chair": 3, "confirmed": True}


@tool
def search_podcasts(query: str, max_results: int = 10, language: str | None = None) -> list[dict]:
    """Search a podcast directory.

    Args:
        query: Topic or keywords to search for.
        max_results: How many shows to return.
        language: Language of the shows, e.g. "Spanish".
    """
    return [{"title": f"{query.title()} Weekly #{i + 1}", "language": language or "any"} for i in range(max_results)]


@tool
def pair_wine(dish: str, budget: float | None = None,
              color: Literal["red", "white", "rose", "sparkling"] | None = None) -> dict:
    """Suggest a wine to drink with a dish.

    Args:
        dish: The dish being served.
        budget: Maximum price per bottle.
        color: Preferred wine colour.
    """
    pick = color or ("red" if any(w in dish.lower() for w in ("beef", "lamb", "mushroom")) else "white")
    return {"dish": dish, "color": pick, "suggestion": "Pinot Noir" if pick == "red" else "Sauvignon Blanc",
            "price": min(budget or 24.0, 24.0)}


@tool
def estimate_mortgage(price: float, down_payment_percent: float, years: int,
                      rate_percent: float | None = None) -> dict:
    """Estimate the monthly payment on a home loan.

    Args:
        price: Purchase price of the home.
        down_payment_percent: Down payment as a percentage of the price (20 means 20%).
        years: Length of the loan in years.
        rate_percent: Yearly interest rate in percent; 6.0 if omitted.
    """
    principal = price * (1 - down_payment_percent / 100)
    r = (rate_percent if rate_percent is not None else 6.0) / 100 / 12
    n = years * 12
    return {"principal": round(principal, 2), "monthly": round(principal * r / (1 - (1 + r) ** -n), 2)}


@tool
def find_parking(address: str, hours: float, ev_charging: bool = False, max_price: float | None = None) -> list[dict]:
    """Find parking spots near an address.

    Args:
        address: Street address to park near.
        hours: How long the car stays, in hours.
        ev_charging: Only spots with an electric-vehicle charger.
        max_price: Highest total price acceptable.
    """
    price = round(3.5 * hours + (2 if ev_charging else 0), 2)
    if max_price is not None and price > max_price:
        return []
    return [{"garage": f"Garage near {address}", "total": price, "ev": ev_charging}]


@tool
def record_vaccination(patient_id: str, vaccine: str, dose_number: int, date: str | None = None) -> dict:
    """Add a vaccination to a patient's record.

    Args:
        patient_id: The patient's record id.
        vaccine: Name of the vaccine.
        dose_number: Which dose of the series this is (1 for the first).
        date: Date given, YYYY-MM-DD; today if omitted.
    """
    return {"patient_id": patient_id, "vaccine": vaccine, "dose": dose_number, "date": date or "today"}


def score_scrabble_word(word: str, double_word: bool = False) -> int:
    """Score a word in Scrabble.

    Args:
        word: The word played.
        double_word: Whether the word covers a double-word square.
    """
    values = {**dict.fromkeys("aeilnorstu", 1), **dict.fromkeys("dg", 2), **dict.fromkeys("bcmp", 3),
              **dict.fromkeys("fhvwy", 4), "k": 5, **dict.fromkeys("jx", 8), **dict.fromkeys("qz", 10)}
    score = sum(values.get(c, 0) for c in word.lower())
    return score * 2 if double_word else score


@tool
def tide_times(station: str, date: str) -> dict:
    """High and low tides at a tide station on one day.

    Args:
        station: Name of the tide station or harbour.
        date: Day, YYYY-MM-DD.
    """
    return {"station": station, "date": date, "high": ["04:12", "16:40"], "low": ["10:25", "22:51"]}


@tool
def buy_museum_tickets(museum: str, adults: int, children: int = 0, date: str | None = None) -> dict:
    """Buy entry tickets for a museum.

    Args:
        museum: Name of the museum.
        adults: Number of adult tickets.
        children: Number of child tickets.
        date: Visit date, YYYY-MM-DD; open date if omitted.
    """
    return {"museum": museum, "tickets": adults + children, "total": adults * 18 + children * 9, "date": date}


def recycling_rule(item: str, city: str) -> dict:
    """How to dispose of an item in a given city.

    Args:
        item: The thing to throw away or recycle.
        city: City whose rules apply.
    """
    bin_ = "hazardous drop-off" if "batter" in item.lower() else "blue bin"
    return {"item": item, "city": city, "bin": bin_}


@tool
def unlock_bike(station_id: str, minutes: int, electric: bool = False) -> dict:
    """Unlock a shared bike at a docking station.

    Args:
        station_id: Id of the docking station.
        minutes: Planned ride length in minutes.
        electric: Whether to take an e-bike.
    """
    return {"station": station_id, "unlock_code": "4821", "estimated_cost": round(minutes * (0.25 if electric else 0.12), 2)}


@tool
def reserve_concert_seats(event_id: str, section: str, seats: int, accessible: bool = False) -> dict:
    """Hold seats for a concert.

    Args:
        event_id: Id of the concert event.
        section: Seating section, e.g. "B12" or "VIP".
        seats: Number of seats together.
        accessible: Wheelchair-accessible seats only.
    """
    return {"event": event_id, "section": section, "seats": [f"{section}-{n}" for n in range(1, seats + 1)],
            "accessible": accessible, "hold_minutes": 15}


@tool
def submit_print_job(file_name: str, copies: int = 1, color: bool = False,
                     paper: Literal["A4", "letter", "A3"] = "A4", double_sided: bool = False) -> dict:
    """Send a document to the office printer.

    Args:
        file_name: Name of the file to print.
        copies: Number of copies.
        color: Print in colour.
        paper: Paper size.
        double_sided: Print on both sides.
    """
    return {"job": 731, "file": file_name, "copies": copies, "color": color, "paper": paper, "duplex": double_sided}


class Level(Enum):
    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"


@tool
def schedule_language_lesson(language: str, level: Level, duration_minutes: int,
                             tutor_email: str | None = None) -> dict:
    """Schedule a one-to-one language lesson.

    Args:
        language: Language to learn.
        level: Learner's level.
        duration_minutes: Lesson length in minutes.
        tutor_email: E-mail of a preferred tutor.
    """
    return {"language": language, "level": Level(level).value, "minutes": duration_minutes,
            "tutor": tutor_email or "first available", "price": duration_minutes * 0.6}


def plant_care_tips(species: str, light: Literal["low", "medium", "bright"] | None = None) -> dict:
    """Care tips for one kind of houseplant.

    Args:
        species: The plant species or common name.
        light: How much light the plant gets.
    """
    return {"species": species, "water_every_days": 7 if light != "low" else 12, "light": light or "medium"}


@tool
def estimate_tax_refund(income: float, withheld: float,
                        filing_status: Literal["single", "married_joint", "head_of_household"],
                        dependents: int = 0) -> dict:
    """Rough federal tax refund estimate.

    Args:
        income: Gross yearly income.
        withheld: Tax already withheld from paychecks.
        filing_status: Filing status.
        dependents: Number of dependent children.
    """
    deduction = {"single": 14600, "married_joint": 29200, "head_of_household": 21900}[filing_status]
    tax = max(income - deduction, 0) * 0.15 - 2000 * dependents
    return {"estimated_tax": round(max(tax, 0), 2), "refund": round(withheld - max(tax, 0), 2)}


@tool
def electricity_cost(kwh: float, rate_per_kwh: float) -> float:
    """Cost of the electricity used.

    Args:
        kwh: Energy used, in kilowatt-hours.
        rate_per_kwh: Price of one kilowatt-hour.
    """
    return round(kwh * rate_per_kwh, 2)


def convert_shoe_size(size: float, from_system: Literal["US", "EU", "UK"], to_system: Literal["US", "EU", "UK"]) -> float:
    """Convert a men's shoe size between sizing systems.

    Args:
        size: The size to convert.
        from_system: Sizing system of the given size.
        to_system: Sizing system wanted.
    """
    to_eu = {"US": lambda s: s + 33, "UK": lambda s: s + 34, "EU": lambda s: s}[from_system](size)
    return {"US": to_eu - 33, "UK": to_eu - 34, "EU": to_eu}[to_system]


class Address(BaseModel):
    name: str
    street: str
    city: str
    postal_code: str
    country: str


@tool
def create_shipping_label(sender: Address, recipient: Address, weight_kg: float) -> dict:
    """Create a postage label for a parcel.

    Args:
        sender: Who sends the parcel, with full address.
        recipient: Who receives it, with full address.
        weight_kg: Parcel weight in kilograms.
    """
    s, r = Address.model_validate(sender), Address.model_validate(recipient)
    return {"label_id": "LBL-20931", "from": s.city, "to": r.city, "postage": round(6.5 + 2.2 * weight_kg, 2)}


class Runner(BaseModel):
    name: str
    email: str
    birth_year: int


@tool
def register_for_race(runner: Runner, distance: Literal["5k", "10k", "half", "full"],
                      tshirt_size: Literal["S", "M", "L", "XL"] | None = None) -> dict:
    """Register a runner for the city marathon weekend.

    Args:
        runner: The runner's details.
        distance: Which race.
        tshirt_size: Size of the finisher t-shirt.
    """
    r = Runner.model_validate(runner)
    return {"bib": 4000 + r.birth_year % 100, "runner": r.name, "distance": distance, "shirt": tshirt_size}


@tool
def subscribe_newsletter(email: str, topics: list[str], weekly_digest: bool = False) -> dict:
    """Subscribe an address to newsletter topics.

    Args:
        email: Subscriber's e-mail address.
        topics: Topics to receive.
        weekly_digest: One weekly e-mail instead of one per issue.
    """
    return {"email": email, "topics": sorted(topics), "digest": weekly_digest}


@tool
def log_workout(activity: str, duration_minutes: int, calories: int | None = None) -> dict:
    """Add a workout to the training log.

    Args:
        activity: Kind of exercise, e.g. "swim".
        duration_minutes: How long, in minutes.
        calories: Calories burned, if known.
    """
    return {"activity": activity, "minutes": duration_minutes, "calories": calories or duration_minutes * 8}


@tool
def renew_library_book(card_number: str, isbn: str, weeks: int = 2) -> dict:
    """Renew a borrowed library book.

    Args:
        card_number: Library card number.
        isbn: ISBN of the book.
        weeks: How many weeks to extend the loan.
    """
    return {"card": card_number, "isbn": isbn, "extended_weeks": weeks, "renewals_left": 1}


@tool
def set_smart_light(room: str, on: bool, brightness_percent: int | None = None) -> dict:
    """Switch the lights of one room.

    Args:
        room: Room name, e.g. "kitchen".
        on: True to switch on, False to switch off.
        brightness_percent: Brightness from 1 to 100.
    """
    return {"room": room, "on": on, "brightness": brightness_percent if on else 0}


@tool
def shorten_url(url: str, custom_alias: str | None = None, expires_days: int | None = None) -> str:
    """Make a short link.

    Args:
        url: The long URL to shorten.
        custom_alias: Wanted path of the short link.
        expires_days: Days until the short link stops working.
    """
    return f"https://sho.rt/{custom_alias or format(abs(hash(url)) % 10**6, 'x')}"


# -- questions -----------------------------------------------------------------------------

CASES = (
    # insurance
    ask(file_insurance_claim,
        'File a claim on policy POL-9937 for 480.50, incident date 2026-11-02, description "rear bumper scratched in parking lot"',
        {"policy_number": "POL-9937", "amount": 480.50, "incident_date": "2026-11-02",
         "description": "rear bumper scratched in parking lot"}),
    decline(file_insurance_claim,
            "can you file a claim for my cracked windshield? it cost 600 dollars and happened on 2026-11-15",
            "policy_number"),
    # astronomy
    ask(planet_visibility, "when can I see mars and jupiter from Denver tonight?",
        {"planet": "mars", "city": "Denver"}, {"planet": "jupiter", "city": "Denver"}),
    ask(planet_visibility, "今晚在成都能看到金星吗?",  # "Can I see Venus from Chengdu tonight?"
        {"planet": "venus", "city": "成都"}, aliases={"venus": "金星"}),
    # chess
    ask(chess_rating_change, "my elo is 1540 and I drew against a 1710 player, how many points do I gain?",
        {"rating": 1540, "opponent_rating": 1710, "result": "draw"}, aliases={"draw": "drew"}),
    ask(chess_rating_change, "Calc my rating change: I'm 2105, opponent 1980, result win, k-factor 32.",
        {"rating": 2105, "opponent_rating": 1980, "result": "win", "k_factor": 32}),
    # package tracking
    ask(track_package, "where are my parcels 1Z999AA10123456784 and 1Z999AA10123456785? both UPS",
        {"tracking_id": "1Z999AA10123456784", "carrier": "ups"},
        {"tracking_id": "1Z999AA10123456785", "carrier": "ups"}),
    ask(track_package, "Track DHL shipment JD014600003828373 please",
        {"tracking_id": "JD014600003828373", "carrier": "dhl"}),
    ask(track_package, "帮我查一下快递 SF1234567890 到哪了",  # "Check where parcel SF1234567890 has got to"
        {"tracking_id": "SF1234567890"}),
    # car rental
    ask(rent_car, "I'd like to rent an SUV in Phoenix from 2026-12-20 to 2026-12-27",
        {"pickup_city": "Phoenix", "pickup_date": "2026-12-20", "return_date": "2026-12-27", "car_class": "suv"}),
    decline(rent_car, "need a compact rental car from 2026-12-01 to 2026-12-04 please", "pickup_city"),
    # dentist
    ask(book_dental_appointment, "Book a teeth cleaning for Maria Gonzalez on 2026-12-03 at 09:30",
        {"patient_name": "Maria Gonzalez", "date": "2026-12-03", "time": "09:30", "reason": "cleaning"}),
    decline(book_dental_appointment, "can you book a dentist checkup for Tom Becker at 16:00?", "date"),
    ask(book_dental_appointment, "给王芳预约 2026-12-10 14:00 补牙",  # "Book Wang Fang a filling on 2026-12-10 at 14:00"
        {"patient_name": "王芳", "date": "2026-12-10", "time": "14:00", "reason": "filling"},
        aliases={"filling": "补牙"}),
    # podcasts
    ask(search_podcasts, 'find podcasts about "urban beekeeping", just 5 results',
        {"query": "urban beekeeping", "max_results": 5}),
    ask(search_podcasts, "any good true crime podcasts in Spanish?",
        {"query": "true crime", "language": "Spanish"}),
    ask(search_podcasts, "搜索关于人工智能的播客,给我三个结果",  # "Search podcasts about AI, give me three results"
        {"query": "人工智能", "max_results": 3}),
    # wine
    ask(pair_wine, "what wine goes with mushroom risotto? under 30 dollars",
        {"dish": "mushroom risotto", "budget": 30}),
    ask(pair_wine, "pls suggest a white wine for grilled salmon",
        {"dish": "grilled salmon", "color": "white"}),
    # real estate
    ask(estimate_mortgage, "house costs 425000, I'm putting 20% down, 30 year loan at 6.5%",
        {"price": 425000, "down_payment_percent": 20, "years": 30, "rate_percent": 6.5}),
    decline(estimate_mortgage, "what would my monthly payment be with 10% down over fifteen years?", "price"),
    # parking
    ask(find_parking, "need a spot with EV charging near 221 Baker Street for 3 hours",
        {"address": "221 Baker Street", "hours": 3, "ev_charging": True}),
    ask(find_parking, "parking at 500 Market St for 2.5 hours, max $12",
        {"address": "500 Market St", "hours": 2.5, "max_price": 12}),
    # vaccination
    ask(record_vaccination, "Record a vaccination for patient P-20931: vaccine MMR, dose 2, given 2026-11-18.",
        {"patient_id": "P-20931", "vaccine": "MMR", "dose_number": 2, "date": "2026-11-18"}),
    ask(record_vaccination, "为病人 A7781 记录流感疫苗第1剂",  # "Record dose 1 of the flu vaccine for patient A7781"
        {"patient_id": "A7781", "vaccine": "流感疫苗", "dose_number": 1}),
    # board games
    ask(score_scrabble_word, 'score the word "QUIXOTIC" on a double word square',
        {"word": "QUIXOTIC", "double_word": True}),
    # tides
    ask(tide_times, "high and low tides for Monterey and Santa Cruz on 2026-12-05",
        {"station": "Monterey", "date": "2026-12-05"}, {"station": "Santa Cruz", "date": "2026-12-05"}),
    # museum
    ask(buy_museum_tickets, "2 adults and 3 children for the Natural History Museum on 2026-12-28",
        {"museum": "Natural History Museum", "adults": 2, "children": 3, "date": "2026-12-28"}),
    ask(buy_museum_tickets, "买两张故宫博物院的成人票",  # "Buy two adult tickets for the Palace Museum"
        {"museum": "故宫博物院", "adults": 2}),
    # recycling
    ask(recycling_rule, "can pizza boxes go in the recycling in Seattle? and in Portland?",
        {"item": "pizza boxes", "city": "Seattle"}, {"item": "pizza boxes", "city": "Portland"}),
    # bike sharing
    ask(unlock_bike, "unlock a bike with electric assist at station CB-0412 for 45 min",
        {"station_id": "CB-0412", "minutes": 45, "electric": True}),
    ask(unlock_bike, "unlock a regular bike, not electric, at dock 7781 for 30 minutes",
        {"station_id": "7781", "minutes": 30, "electric": False}),
    decline(unlock_bike, "Could you unlock a bike for me for twenty minutes?", "station_id"),
    # concert seats
    ask(reserve_concert_seats, "reserve 4 seats in section B12 for event EVT-5521",
        {"event_id": "EVT-5521", "section": "B12", "seats": 4}),
    decline(reserve_concert_seats, "get me two wheelchair accessible seats for event EVT-7730", "section"),
    # printing
    ask(submit_print_job, 'print "thesis_final.pdf", 3 copies, color on, A3 paper',
        {"file_name": "thesis_final.pdf", "copies": 3, "color": True, "paper": "A3"}),
    ask(submit_print_job, "Please print report.docx double-sided on letter paper",
        {"file_name": "report.docx", "paper": "letter", "double_sided": True}),
    # language lessons
    ask(schedule_language_lesson, "book a 60 minute Japanese lesson, intermediate level",
        {"language": "Japanese", "level": "intermediate", "duration_minutes": 60}),
    ask(schedule_language_lesson, "schedule beginner Portuguese, 45 min, with tutor ana.silva@lingua.example",
        {"language": "Portuguese", "level": "beginner", "duration_minutes": 45,
         "tutor_email": "ana.silva@lingua.example"}),
    ask(schedule_language_lesson, "预约一节九十分钟的高级法语课",  # "Book a ninety-minute advanced French lesson"
        {"language": "法语", "level": "advanced", "duration_minutes": 90}, aliases={"advanced": "高级"}),
    # plant care
    ask(plant_care_tips, "care tips for monstera, pothos and fiddle leaf fig",
        {"species": "monstera"}, {"species": "pothos"}, {"species": "fiddle leaf fig"}),
    ask(plant_care_tips, "how do I look after a snake plant in low light?",
        {"species": "snake plant", "light": "low"}),
    # tax forms
    ask(estimate_tax_refund, "I earned 68000 and had 9400 withheld, filing single, 2 dependents",
        {"income": 68000, "withheld": 9400, "filing_status": "single", "dependents": 2}),
    ask(estimate_tax_refund, "Estimate our refund: income 120000, withholding 18500, married filing jointly.",
        {"income": 120000, "withheld": 18500, "filing_status": "married_joint"},
        aliases={"married_joint": "married filing jointly"}),
    decline(estimate_tax_refund, "estimate my refund, income 52000, filing as head of household, one kid",
            "withheld"),
    # electricity
    ask(electricity_cost, "how much for 350 kWh at 0.14 per kWh?", {"kwh": 350, "rate_per_kwh": 0.14}),
    ask(electricity_cost, "这个月用了280度电,每度0.56元,电费多少?",  # "Used 280 kWh this month at 0.56 yuan each; what's the bill?"
        {"kwh": 280, "rate_per_kwh": 0.56}),
    # shoe sizes
    ask(convert_shoe_size, "convert EU 42 to US size", {"size": 42, "from_system": "EU", "to_system": "US"}),
    ask(convert_shoe_size, "I'm a UK 7.5, what's that in EU?", {"size": 7.5, "from_system": "UK", "to_system": "EU"}),
    # shipping label (pydantic)
    ask(create_shipping_label,
        "Make a shipping label for a 2.4 kg parcel from Lena Fischer, Hauptstrasse 5, 10115 Berlin, Germany "
        "to Marco Rossi, Via Roma 12, 00184 Rome, Italy",
        {"sender": {"name": "Lena Fischer", "street": "Hauptstrasse 5", "city": "Berlin", "postal_code": "10115",
                    "country": "Germany"},
         "recipient": {"name": "Marco Rossi", "street": "Via Roma 12", "city": "Rome", "postal_code": "00184",
                       "country": "Italy"},
         "weight_kg": 2.4}),
    # race registration (pydantic)
    ask(register_for_race, "sign up Priya Nair (priya.nair@mail.example, born 1991) for the 10k, t-shirt size M",
        {"runner": {"name": "Priya Nair", "email": "priya.nair@mail.example", "birth_year": 1991},
         "distance": "10k", "tshirt_size": "M"}),
    decline(register_for_race, "register me for the half marathon pls, tshirt L", "runner"),
    # newsletter
    ask(subscribe_newsletter, "subscribe jo@example.org to gardening, cooking and travel",
        {"email": "jo@example.org", "topics": ["gardening", "cooking", "travel"]}),
    # workouts
    ask(log_workout, "log a 40 min swim, 380 calories",
        {"activity": "swim", "duration_minutes": 40, "calories": 380}),
    # library
    ask(renew_library_book, "renew isbn 9780261103573 on library card LB-55102 for 3 weeks",
        {"card_number": "LB-55102", "isbn": "9780261103573", "weeks": 3}),
    decline(renew_library_book, "please renew The Hobbit (isbn 9780547928227) for another two weeks",
            "card_number"),
    # smart lights
    ask(set_smart_light, "turn on the kitchen lights at 70%",
        {"room": "kitchen", "on": True, "brightness_percent": 70}),
    ask(set_smart_light, "switch off the lights in the hallway and the garage",
        {"room": "hallway", "on": False}, {"room": "garage", "on": False}),
    # short links
    ask(shorten_url, "shorten https://example.com/blog/2026/11/tool-calling-guide with alias tool-guide",
        {"url": "https://example.com/blog/2026/11/tool-calling-guide", "custom_alias": "tool-guide"}),
    decline(shorten_url, "can you shorten my link? make it expire after 30 days", "url"),
)
