"""Held-out set B: 30 more learner-style tools and 60 plain questions for the offline model.

Other domains and parameter names than set A.  Written blind: without reading the
offline model's rules, and never edited after measuring.  Each case is the first
turn a careful real model would take: the exact calls, or a decline when a
required parameter is not stated in the question.
"""

import hashlib
from datetime import date, timedelta
from typing import Literal

import pydantic

from conductor.course.offline_suite import ask, decline
from conductor.tools import tool


def _fake(key: str, low: float, high: float, digits: int = 2) -> float:
    """A number in [low, high] fixed by ``key`` (stand-in data, the same on every run)."""
    fraction = int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big") / 2**32
    return round(low + fraction * (high - low), digits)


# -- gardening and pets ---------------------------------------------------------


@tool
def water_garden(zone: str, liters: float, repeat_daily: bool = False) -> str:
    """Run the irrigation for one garden zone.

    Args:
        zone: Name of the irrigation zone.
        liters: How much water to give, in litres.
        repeat_daily: Repeat this watering every day.
    """
    return f"{zone}: {liters} L" + (" daily" if repeat_daily else " once")


@tool
def harvest_date(crop: str, planted_on: str) -> str:
    """Estimate when a crop will be ready to harvest.

    Args:
        crop: What was planted, e.g. tomatoes.
        planted_on: Day it was planted, YYYY-MM-DD.
    """
    days = int(_fake(crop.lower(), 45, 120, 0))
    return (date.fromisoformat(planted_on) + timedelta(days=days)).isoformat()


@tool
def pet_food_portion(
    species: Literal["dog", "cat", "rabbit"], body_weight_kg: float, age_years: float | None = None
) -> int:
    """Daily food portion in grams for a pet.

    Args:
        species: Kind of animal.
        body_weight_kg: The pet's weight in kilograms.
        age_years: Optional age in years (older pets eat a little less).
    """
    per_kg = {"dog": 25, "cat": 15, "rabbit": 40}[species]
    factor = 0.9 if age_years and age_years >= 8 else 1.0
    return round(per_kg * body_weight_kg * factor)


class PetProfile(pydantic.BaseModel):
    """A pet to register with the clinic."""

    pet_name: str
    species: str
    breed: str | None = None
    microchip: str | None = None


@tool
def register_pet(pet: PetProfile) -> dict:
    """Register a new pet with the vet clinic.

    Args:
        pet: The pet's details.
    """
    return {"patient_id": "P-" + hashlib.sha1(pet.pet_name.encode()).hexdigest()[:6], "species": pet.species}


@tool
def book_vet(pet_name: str, day: str, reason: str | None = None) -> dict:
    """Book a vet appointment.

    Args:
        pet_name: The pet's name.
        day: Day of the visit, YYYY-MM-DD.
        reason: Optional reason for the visit.
    """
    return {"pet": pet_name, "day": day, "slot": f"{int(_fake(pet_name + day, 9, 16, 0))}:00", "reason": reason}


# -- school and sport -----------------------------------------------------------


@tool
def weighted_grade(scores: list[float], weights: list[float] | None = None) -> float:
    """Average of exam scores, weighted if weights are given.

    Args:
        scores: The scores, e.g. [88, 92].
        weights: Optional weight of each score, same length as scores.
    """
    weights = weights or [1.0] * len(scores)
    return round(sum(s * w for s, w in zip(scores, weights)) / sum(weights), 2)


@tool
def enroll_student(student_email: str, course_code: str, audit: bool = False) -> dict:
    """Enroll a student in a course.

    Args:
        student_email: The student's e-mail address.
        course_code: Course code, e.g. CS101.
        audit: Enroll as an auditor (no grade).
    """
    return {"student": student_email, "course": course_code, "audit": audit, "status": "enrolled"}


@tool
def league_standing(team: str, season: int) -> dict:
    """Final league position of a team in a season.

    Args:
        team: Club name.
        season: Season year, e.g. 2023.
    """
    return {"team": team, "season": season, "position": int(_fake(f"{team}{season}", 1, 20, 0))}


@tool
def predict_match(home_team: str, away_team: str) -> dict:
    """Predict the result of a match.

    Args:
        home_team: Team playing at home.
        away_team: Visiting team.
    """
    p = _fake(home_team + away_team, 0.2, 0.7)
    return {"home_win": p, "away_win": round((1 - p) * 0.6, 2), "draw": round((1 - p) * 0.4, 2)}


@tool
def elo_change(player_rating: int, opponent_rating: int, result: Literal["win", "draw", "loss"]) -> float:
    """Chess Elo rating change after one game.

    Args:
        player_rating: Your rating before the game.
        opponent_rating: Your opponent's rating.
        result: How the game ended for you.
    """
    expected = 1 / (1 + 10 ** ((opponent_rating - player_rating) / 400))
    score = {"win": 1.0, "draw": 0.5, "loss": 0.0}[result]
    return round(20 * (score - expected), 1)


@tool
def book_gym_class(class_name: str, session_date: str, session_time: str, join_waitlist: bool = False) -> dict:
    """Book a place in a gym class.

    Args:
        class_name: Name of the class, e.g. Spin.
        session_date: Day of the session, YYYY-MM-DD.
        session_time: Start time, HH:MM.
        join_waitlist: Join the waiting list when the class is full.
    """
    return {"class": class_name, "when": f"{session_date} {session_time}", "booked": True}


# -- kitchen, shopping, cars, rides -----------------------------------------------

VolumeUnit = Literal["milliliters", "liters", "cups", "tablespoons", "teaspoons", "gallons"]
_ML = {"milliliters": 1, "liters": 1000, "cups": 240, "tablespoons": 15, "teaspoons": 5, "gallons": 3785.41}


@tool
def convert_volume(quantity: float, source_unit: VolumeUnit, target_unit: VolumeUnit) -> float:
    """Convert a volume between kitchen units.

    Args:
        quantity: The amount to convert.
        source_unit: Unit the amount is in.
        target_unit: Unit wanted.
    """
    return round(quantity * _ML[source_unit] / _ML[target_unit], 3)


@tool
def start_timer(label: str, countdown_minutes: int) -> str:
    """Start a kitchen timer.

    Args:
        label: Name shown on the timer.
        countdown_minutes: Minutes until it rings.
    """
    return f"timer '{label}' rings in {countdown_minutes} min"


@tool
def add_groceries(items: list[str], store: str | None = None) -> dict:
    """Add items to the shopping list.

    Args:
        items: Things to buy.
        store: Optional shop whose list to use.
    """
    return {"list": store or "default", "added": len(items)}


@tool
def discount_price(original_price: float, discount_percent: float) -> float:
    """Price after a percentage discount.

    Args:
        original_price: Price before the discount.
        discount_percent: Discount in percent, e.g. 25 for 25% off.
    """
    return round(original_price * (1 - discount_percent / 100), 2)


@tool
def fuel_cost(distance_km: float, liters_per_100km: float, price_per_liter: float) -> float:
    """Fuel cost of a car trip.

    Args:
        distance_km: Trip length in kilometres.
        liters_per_100km: The car's consumption in L/100km.
        price_per_liter: Fuel price per litre.
    """
    return round(distance_km / 100 * liters_per_100km * price_per_liter, 2)


@tool
def request_ride(pickup: str, dropoff: str, ride_type: Literal["standard", "comfort", "xl"] = "standard") -> dict:
    """Order a ride-hailing car.

    Args:
        pickup: Where to be picked up.
        dropoff: Where to go.
        ride_type: Kind of car.
    """
    return {"eta_minutes": int(_fake(pickup, 2, 15, 0)), "fare": _fake(pickup + dropoff + ride_type, 8, 60)}


@tool
def precondition_car(vehicle_id: str, cabin_temp_c: float, heated_seats: bool = False) -> str:
    """Warm up or cool down an electric car before a trip.

    Args:
        vehicle_id: The car's id.
        cabin_temp_c: Target cabin temperature in °C.
        heated_seats: Turn the seat heaters on.
    """
    return f"{vehicle_id} conditioning to {cabin_temp_c} °C" + (" with seat heat" if heated_seats else "")


@tool
def buy_movie_tickets(movie: str, showtime: str, seats: int, imax: bool = False) -> dict:
    """Buy cinema tickets.

    Args:
        movie: Film title.
        showtime: Screening time, HH:MM.
        seats: Number of tickets.
        imax: Book the IMAX screening.
    """
    return {"movie": movie, "showtime": showtime, "seats": seats, "total": round(seats * (16.5 if imax else 11.0), 2)}


# -- devops and messaging ------------------------------------------------------------


@tool
def restart_service(service: str, environment: Literal["dev", "staging", "production"], force: bool = False) -> str:
    """Restart a service in one environment.

    Args:
        service: Name of the service.
        environment: Which environment to restart it in.
        force: Kill it without waiting for requests to drain.
    """
    return f"{service} restarted in {environment}" + (" (forced)" if force else "")


@tool
def scale_deployment(deployment: str, replicas: int, namespace: str = "default") -> str:
    """Set the replica count of a Kubernetes deployment.

    Args:
        deployment: Deployment name.
        replicas: How many pods to run.
        namespace: Kubernetes namespace.
    """
    return f"{namespace}/{deployment} scaled to {replicas}"


@tool
def dns_lookup(hostname: str, record_type: Literal["A", "AAAA", "MX", "TXT", "CNAME"] = "A") -> list[str]:
    """Look up DNS records of a host name.

    Args:
        hostname: The domain or host name.
        record_type: DNS record type.
    """
    n = int(_fake(hostname + record_type, 1, 254, 0))
    return [f"203.0.113.{n}"] if record_type == "A" else [f"{record_type.lower()}-{n}.{hostname}"]


@tool
def create_branch(repository: str, branch_name: str, base_branch: str = "main") -> str:
    """Create a git branch in a repository.

    Args:
        repository: Repository as owner/name.
        branch_name: Name of the new branch.
        base_branch: Branch to start from.
    """
    return f"{repository}: {branch_name} created from {base_branch}"


@tool
def check_site(site_url: str) -> dict:
    """Check whether a website answers.

    Args:
        site_url: Full URL of the site.
    """
    return {"url": site_url, "status": 200 if _fake(site_url, 0, 1) > 0.1 else 503}


@tool
def generate_password(length: int, include_symbols: bool = True, include_digits: bool = True) -> str:
    """Generate a random password.

    Args:
        length: Number of characters.
        include_symbols: Use symbols such as !@#.
        include_digits: Use digits.
    """
    alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"
    alphabet += "23456789" if include_digits else ""
    alphabet += "!@#$%&*" if include_symbols else ""
    seed = hashlib.sha256(str(length).encode()).digest() * (length // 32 + 1)
    return "".join(alphabet[b % len(alphabet)] for b in seed[:length])


@tool
def post_message(channel: str, message: str, pin: bool = False) -> str:
    """Post a message to a team chat channel.

    Args:
        channel: Channel name.
        message: Text to post.
        pin: Pin the message to the channel.
    """
    return f"posted to {channel}" + (" and pinned" if pin else "")


# -- health, time, sky, housing -------------------------------------------------------


@tool
def medication_reminder(medicine: str, dose_mg: float, times: list[str]) -> dict:
    """Set daily reminders to take a medicine.

    Args:
        medicine: Name of the medicine.
        dose_mg: Dose in milligrams.
        times: Times of day, HH:MM.
    """
    return {"medicine": medicine, "dose_mg": dose_mg, "reminders": sorted(times)}


@tool
def convert_clock_time(clock_time: str, source_tz: str, target_tz: str) -> str:
    """Convert a clock time from one time zone to another (today's date).

    Args:
        clock_time: The time, HH:MM.
        source_tz: IANA zone the time is in, e.g. America/Chicago.
        target_tz: IANA zone to convert to.
    """
    hours, minutes = map(int, clock_time.split(":"))
    shift = int(_fake(source_tz + target_tz, -12, 12, 0))
    return f"{(hours + shift) % 24:02d}:{minutes:02d} {target_tz}"


@tool
def planet_visibility(
    planet: Literal["Mercury", "Venus", "Mars", "Jupiter", "Saturn"], location: str, night: str
) -> dict:
    """Whether and when a planet is visible from a place on a night.

    Args:
        planet: Which planet.
        location: City to observe from.
        night: Date of the night, YYYY-MM-DD.
    """
    altitude = _fake(planet + location + night, -30, 70, 1)
    return {"visible": altitude > 10, "max_altitude_deg": altitude}


class Listing(pydantic.BaseModel):
    """A flat to let."""

    address: str
    bedrooms: int
    monthly_rent: float
    furnished: bool = False


@tool
def create_listing(listing: Listing) -> dict:
    """Publish a rental listing.

    Args:
        listing: The flat's details.
    """
    return {"listing_id": "R-" + hashlib.sha1(listing.address.encode()).hexdigest()[:6], "live": True}


CASES = (
    # gardening
    ask(water_garden, "water the tomato_bed with 12 liters", {"zone": "tomato_bed", "liters": 12}),
    ask(
        water_garden,
        "Water zone B2 with 8 liters and turn on daily repeat",
        {"zone": "B2", "liters": 8, "repeat_daily": True},
    ),
    decline(water_garden, "please water the front lawn", "liters"),
    ask(harvest_date, "When can I harvest zucchini I planted on 2026-05-10?", {"crop": "zucchini", "planted_on": "2026-05-10"}),
    decline(harvest_date, "when will my carrots be ready to pick?", "planted_on"),
    # pets
    ask(pet_food_portion, "How much should I feed my 12 kg dog?", {"species": "dog", "body_weight_kg": 12}),
    ask(
        pet_food_portion,
        "daily portion for a cat, 4.2 kg, 9 years old",
        {"species": "cat", "body_weight_kg": 4.2, "age_years": 9},
    ),
    ask(
        pet_food_portion,
        "我的兔子重2公斤，每天该喂多少？",  # "My rabbit weighs 2 kg; how much should I feed it each day?"
        {"species": "rabbit", "body_weight_kg": 2},
        aliases={"rabbit": "兔子"},
    ),
    ask(
        register_pet,
        "Register my dog Biscuit, a beagle, microchip 985112004567321",
        {"pet": {"pet_name": "Biscuit", "species": "dog", "breed": "beagle", "microchip": "985112004567321"}},
    ),
    ask(register_pet, "register a cat named Miso", {"pet": {"pet_name": "Miso", "species": "cat"}}),
    ask(
        book_vet,
        "book the vet for Luna on 2026-12-02, reason: vaccination",
        {"pet_name": "Luna", "day": "2026-12-02", "reason": "vaccination"},
    ),
    decline(book_vet, "I need a vet appointment for Max asap", "day"),
    # school
    ask(
        weighted_grade,
        "Weighted grade for scores 90, 80, 70 with weights 0.5, 0.3, 0.2",
        {"scores": [90, 80, 70], "weights": [0.5, 0.3, 0.2]},
    ),
    ask(
        enroll_student,
        "Enroll li.wei@uni.edu in CS101 with audit enabled",
        {"student_email": "li.wei@uni.edu", "course_code": "CS101", "audit": True},
    ),
    ask(
        enroll_student,
        "帮 sam@school.org 注册 MATH201 课程",  # "Register sam@school.org for the course MATH201."
        {"student_email": "sam@school.org", "course_code": "MATH201"},
    ),
    decline(enroll_student, "Enroll me in BIO110 please", "student_email"),
    # sport
    ask(league_standing, "Where did Arsenal finish in 2023?", {"team": "Arsenal", "season": 2023}),
    ask(
        league_standing,
        "Standings for Celtic and Rangers in the 2024 season",
        {"team": "Celtic", "season": 2024},
        {"team": "Rangers", "season": 2024},
    ),
    ask(predict_match, "Predict Liverpool at home vs Everton", {"home_team": "Liverpool", "away_team": "Everton"}),
    ask(
        predict_match,
        "预测一下 Barcelona 主场对 Sevilla 的比赛",  # "Predict Barcelona at home against Sevilla."
        {"home_team": "Barcelona", "away_team": "Sevilla"},
    ),
    ask(
        elo_change,
        "I got a draw against a 1610 player, my rating is 1540. how much does my rating change?",
        {"player_rating": 1540, "opponent_rating": 1610, "result": "draw"},
    ),
    ask(
        elo_change,
        "我 1800 分，输给了 1750 分的对手，分数变化多少？",  # "I'm rated 1800 and lost to a 1750 opponent; how much does my rating change?"
        {"player_rating": 1800, "opponent_rating": 1750, "result": "loss"},
        aliases={"loss": "输"},
    ),
    ask(
        book_gym_class,
        "Book Yoga Flow on 2026-11-28 at 07:00",
        {"class_name": "Yoga Flow", "session_date": "2026-11-28", "session_time": "07:00"},
    ),
    # kitchen and shopping
    ask(
        convert_volume,
        "How many cups is 500 milliliters?",
        {"quantity": 500, "source_unit": "milliliters", "target_unit": "cups"},
    ),
    ask(
        convert_volume,
        "convert three tablespoons to teaspoons",
        {"quantity": 3, "source_unit": "tablespoons", "target_unit": "teaspoons"},
    ),
    ask(start_timer, "set a pasta timer for 11 minutes", {"label": "pasta", "countdown_minutes": 11}),
    ask(start_timer, 'Timer "tea" - ping me in 4 minutes', {"label": "tea", "countdown_minutes": 4}),
    ask(start_timer, "设一个 eggs 计时器，十分钟", {"label": "eggs", "countdown_minutes": 10}),  # "Set an eggs timer, ten minutes."
    ask(
        add_groceries,
        "add eggs, oat milk and spinach to the grocery list",
        {"items": ["eggs", "oat milk", "spinach"]},
    ),
    ask(
        add_groceries,
        "在 Costco 清单里加上 rice 和 apples",  # "Add rice and apples to the Costco list."
        {"items": ["rice", "apples"], "store": "Costco"},
    ),
    ask(
        discount_price,
        "What's the price of a $1,499 sofa with 30% off?",
        {"original_price": 1499, "discount_percent": 30},
    ),
    decline(discount_price, "How much will the $60 boots cost after the discount?", "discount_percent"),
    # cars and rides
    ask(
        fuel_cost,
        "fuel cost for 420 km at 6.5 L/100km, petrol is 1.89 per liter",
        {"distance_km": 420, "liters_per_100km": 6.5, "price_per_liter": 1.89},
    ),
    ask(
        request_ride,
        "Get me a comfort ride from 221B Baker Street to Paddington Station",
        {"pickup": "221B Baker Street", "dropoff": "Paddington Station", "ride_type": "comfort"},
    ),
    ask(request_ride, "need a ride from JFK Terminal 4 to Times Square", {"pickup": "JFK Terminal 4", "dropoff": "Times Square"}),
    decline(request_ride, "Book an XL ride to the airport", "pickup"),
    ask(
        precondition_car,
        "preheat car VIN-5YJ3E1EA7 to 22 degrees with heated seats on",
        {"vehicle_id": "VIN-5YJ3E1EA7", "cabin_temp_c": 22, "heated_seats": True},
    ),
    decline(precondition_car, "warm up my car to 20 degrees", "vehicle_id"),
    ask(
        buy_movie_tickets,
        'Buy 3 tickets for "Dune: Part Two" at 19:45, with IMAX',
        {"movie": "Dune: Part Two", "showtime": "19:45", "seats": 3, "imax": True},
    ),
    # devops
    ask(restart_service, "Restart the payments-api in staging", {"service": "payments-api", "environment": "staging"}),
    ask(
        restart_service,
        "restart auth-service in production with force enabled",
        {"service": "auth-service", "environment": "production", "force": True},
    ),
    ask(
        restart_service,
        "restart search-indexer and mailer in dev",
        {"service": "search-indexer", "environment": "dev"},
        {"service": "mailer", "environment": "dev"},
    ),
    decline(restart_service, "restart the billing worker", "environment"),
    ask(
        scale_deployment,
        "scale deployment web-frontend to 6 replicas in namespace shop",
        {"deployment": "web-frontend", "replicas": 6, "namespace": "shop"},
    ),
    ask(scale_deployment, "Scale checkout to five replicas", {"deployment": "checkout", "replicas": 5}),
    ask(dns_lookup, "What are the MX records for example.com?", {"hostname": "example.com", "record_type": "MX"}),
    ask(dns_lookup, "look up github.com and gitlab.com", {"hostname": "github.com"}, {"hostname": "gitlab.com"}),
    ask(
        create_branch,
        "create branch feature/login-form in repo acme/webapp off develop",
        {"repository": "acme/webapp", "branch_name": "feature/login-form", "base_branch": "develop"},
    ),
    decline(create_branch, "make a new branch called hotfix-42", "repository"),
    ask(
        check_site,
        "are https://status.example.net and https://api.example.net up?",
        {"site_url": "https://status.example.net"},
        {"site_url": "https://api.example.net"},
    ),
    ask(check_site, "检查一下 https://shop.example.cn 能不能打开", {"site_url": "https://shop.example.cn"}),  # "Check whether https://shop.example.cn opens."
    ask(generate_password, "Generate a 24 character password without symbols", {"length": 24, "include_symbols": False}),
    ask(generate_password, "生成一个16位的密码", {"length": 16}),  # "Generate a 16-character password."
    ask(
        post_message,
        'Post "Deploy finished" in the releases channel',
        {"channel": "releases", "message": "Deploy finished"},
    ),
    # health, time, sky, housing
    ask(
        medication_reminder,
        "Remind me to take ibuprofen 400 mg at 08:00, 14:00 and 20:00",
        {"medicine": "ibuprofen", "dose_mg": 400, "times": ["08:00", "14:00", "20:00"]},
    ),
    decline(medication_reminder, "set a reminder for metformin at 09:00 and 21:00", "dose_mg"),
    ask(
        convert_clock_time,
        "what is 09:30 America/Chicago in Europe/Berlin time?",
        {"clock_time": "09:30", "source_tz": "America/Chicago", "target_tz": "Europe/Berlin"},
    ),
    ask(
        convert_clock_time,
        "Convert 18:00 Asia/Singapore to Europe/Paris and America/Los_Angeles",
        {"clock_time": "18:00", "source_tz": "Asia/Singapore", "target_tz": "Europe/Paris"},
        {"clock_time": "18:00", "source_tz": "Asia/Singapore", "target_tz": "America/Los_Angeles"},
    ),
    ask(
        planet_visibility,
        "Can I see Mars and Saturn from Denver on 2026-12-05?",
        {"planet": "Mars", "location": "Denver", "night": "2026-12-05"},
        {"planet": "Saturn", "location": "Denver", "night": "2026-12-05"},
    ),
    ask(
        create_listing,
        "new listing: 7 Harbour Lane, 3 bedrooms, 2400 monthly, not furnished",
        {"listing": {"address": "7 Harbour Lane", "bedrooms": 3, "monthly_rent": 2400, "furnished": False}},
    ),
)
