"""Held-out set I: thirty learner-style hobby and leisure tools and sixty plain questions.

The set was written blind (without reading the offline model or the other
held-out sets) and is never edited after committing, so it measures how the
offline stand-in model does on tools it was not written for. Chinese questions
carry an English gloss.
"""

from enum import Enum
from typing import Literal

from pydantic import BaseModel

from conductor.course.offline_suite import ask, decline
from conductor.tools import tool

Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


class VinylCondition(str, Enum):
    """Goldmine-style grades for a second-hand record."""

    MINT = "mint"
    NEAR_MINT = "near_mint"
    VERY_GOOD_PLUS = "very_good_plus"
    VERY_GOOD = "very_good"
    GOOD = "good"
    POOR = "poor"


class FlightArea(BaseModel):
    """Where a drone will fly and how high it may go."""

    location: str
    max_altitude_m: int


class Rider(BaseModel):
    """The person riding in a lesson."""

    name: str
    age: int
    level: Literal["beginner", "novice", "intermediate", "advanced"]


# -- music lessons ----------------------------------------------------------------


@tool
def book_music_lesson(student: str, instrument: str, minutes: int = 30, online: bool = False) -> dict:
    """Book a one-to-one music lesson for a student.

    Args:
        student: Name of the student taking the lesson.
        instrument: Instrument to learn, e.g. 'piano'.
        minutes: Length of the lesson in minutes.
        online: True for a lesson over video call instead of in person.
    """
    return {"student": student, "instrument": instrument, "minutes": minutes,
            "where": "video call" if online else "studio", "price": round(minutes * 0.9, 2)}


@tool
def find_music_teacher(instrument: str, city: str, max_hourly_rate: float | None = None) -> dict:
    """Find music teachers for an instrument in a city.

    Args:
        instrument: Instrument the teacher should teach.
        city: City to search in.
        max_hourly_rate: Highest acceptable price per hour; any price when omitted.
    """
    rates = [25.0, 40.0, 60.0, 180.0]
    affordable = [rate for rate in rates if max_hourly_rate is None or rate <= max_hourly_rate]
    return {"instrument": instrument, "city": city, "teachers_found": len(affordable),
            "cheapest_rate": min(affordable) if affordable else None}


# -- orchestra rehearsals ---------------------------------------------------------


@tool
def schedule_rehearsal(piece: str, date: str, sections: list[str] | None = None,
                       start_time: str | None = None) -> dict:
    """Schedule an orchestra rehearsal of one piece.

    Args:
        piece: Title of the piece to rehearse.
        date: Day of the rehearsal, as the user gives it (e.g. '3 March').
        sections: Orchestra sections called to the rehearsal; the full orchestra when omitted.
        start_time: Time the rehearsal starts; the usual evening slot when omitted.
    """
    return {"piece": piece, "date": date, "called": sections or ["full orchestra"],
            "start_time": start_time or "19:00"}


# -- art supplies -----------------------------------------------------------------


@tool
def price_art_supplies(items: list[str], student_discount: bool = False) -> dict:
    """Price a shopping list of art supplies.

    Args:
        items: Names of the art supplies to price.
        student_discount: True to apply the 15% student discount.
    """
    total = sum(4.5 + len(item) * 0.3 for item in items)
    if student_discount:
        total *= 0.85
    return {"items": items, "total": round(total, 2), "currency": "GBP"}


# -- gallery openings -------------------------------------------------------------


@tool
def find_gallery_openings(city: str, month: str | None = None, free_only: bool = False) -> dict:
    """List upcoming gallery opening nights in a city.

    Args:
        city: City to look in.
        month: Month to look in, e.g. 'June'; the coming four weeks when omitted.
        free_only: True to list only openings with free entry.
    """
    openings = [{"gallery": f"{city} Contemporary", "free": True},
                {"gallery": f"The {city} Print Room", "free": False}]
    if free_only:
        openings = [opening for opening in openings if opening["free"]]
    return {"city": city, "month": month or "next four weeks", "openings": openings}


# -- theatre bookings -------------------------------------------------------------


@tool
def book_theatre_seats(show: str, seats: int, area: Literal["stalls", "circle", "balcony", "box"] = "stalls",
                       date: str | None = None) -> dict:
    """Book seats for a theatre show.

    Args:
        show: Name of the show.
        seats: Number of seats to book.
        area: Part of the auditorium to sit in.
        date: Performance date; the next performance when omitted.
    """
    prices = {"stalls": 65.0, "circle": 55.0, "balcony": 30.0, "box": 90.0}
    return {"show": show, "seats": seats, "area": area, "date": date or "next performance",
            "total": prices[area] * seats}


@tool
def cancel_theatre_booking(booking_reference: str, refund_to_voucher: bool = False) -> dict:
    """Cancel a theatre booking and refund it.

    Args:
        booking_reference: Reference code printed on the booking confirmation.
        refund_to_voucher: True to take the refund as a theatre voucher instead of money back.
    """
    return {"booking_reference": booking_reference, "cancelled": True,
            "refund": "voucher" if refund_to_voucher else "original payment method"}


# -- radio schedules --------------------------------------------------------------


@tool
def radio_schedule(station: str, day: Weekday | None = None) -> dict:
    """Show the programme schedule of a radio station.

    Args:
        station: Name of the radio station.
        day: Day of the week to show; today when omitted.
    """
    return {"station": station, "day": day or "today",
            "programmes": [{"time": "07:00", "title": "Morning News"}, {"time": "12:00", "title": "Midday Mix"}]}


# -- comic book pre-orders --------------------------------------------------------


@tool
def preorder_comic(title: str, issue: int, copies: int = 1, variant_cover: bool = False) -> dict:
    """Pre-order an upcoming comic book issue at the shop.

    Args:
        title: Series title, e.g. 'Saga'.
        issue: Issue number.
        copies: How many copies to hold.
        variant_cover: True for the variant cover instead of the main cover.
    """
    price = 5.99 if variant_cover else 3.99
    return {"title": title, "issue": issue, "copies": copies,
            "cover": "variant" if variant_cover else "main", "total": round(price * copies, 2)}


# -- vinyl records ----------------------------------------------------------------


@tool
def vinyl_record_value(artist: str, album: str, condition: VinylCondition = VinylCondition.VERY_GOOD) -> dict:
    """Estimate what a second-hand vinyl record is worth.

    Args:
        artist: Artist or band who made the record.
        album: Album title.
        condition: Condition grade of the record.
    """
    factor = {"mint": 1.0, "near_mint": 0.8, "very_good_plus": 0.6, "very_good": 0.45, "good": 0.25, "poor": 0.1}
    return {"artist": artist, "album": album, "condition": condition.value,
            "estimate": round(40 * factor[condition.value], 2)}


@tool
def vinyl_shipping_cost(records: int, country: str, insured: bool = False) -> dict:
    """Quote the postage for sending vinyl records abroad.

    Args:
        records: Number of records in the parcel.
        country: Country the parcel goes to.
        insured: True to add insurance to the parcel.
    """
    cost = 12.0 + 2.5 * records + (4.0 if insured else 0.0)
    return {"records": records, "country": country, "insured": insured, "cost": cost}


# -- tabletop RPG sessions --------------------------------------------------------


@tool
def plan_rpg_session(game: str, players: list[str], hours: float = 3.0) -> dict:
    """Plan a tabletop role-playing session and invite the players.

    Args:
        game: Game system to play, e.g. 'Call of Cthulhu'.
        players: Names of the players to invite.
        hours: Expected length of the session in hours.
    """
    return {"game": game, "players": players, "hours": hours, "snack_breaks": int(hours // 2)}


# -- knitting patterns ------------------------------------------------------------


@tool
def knitting_yarn_needed(garment: Literal["scarf", "hat", "sweater", "socks", "blanket"], size: str,
                         yarn_weight: Literal["lace", "fingering", "dk", "worsted", "bulky"] = "worsted") -> dict:
    """Estimate how much yarn a knitting pattern needs.

    Args:
        garment: Kind of garment to knit.
        size: Size of the garment, e.g. 'M' or 'adult'.
        yarn_weight: Thickness of the yarn.
    """
    metres = {"scarf": 300, "hat": 180, "sweater": 1200, "socks": 400, "blanket": 2000}[garment]
    per_ball = {"lace": 400, "fingering": 350, "dk": 210, "worsted": 180, "bulky": 100}[yarn_weight]
    return {"garment": garment, "size": size, "metres": metres, "balls": -(-metres // per_ball)}


# -- woodworking cuts -------------------------------------------------------------


@tool
def plan_board_cuts(board_length_cm: float, cuts_cm: list[float], kerf_mm: float = 3.0) -> dict:
    """Check whether a list of cuts fits on one board, allowing for the saw blade.

    Args:
        board_length_cm: Length of the board in centimetres.
        cuts_cm: Lengths of the pieces to cut, in centimetres.
        kerf_mm: Width of wood the saw blade removes per cut, in millimetres.
    """
    used = sum(cuts_cm) + len(cuts_cm) * kerf_mm / 10
    return {"fits": used <= board_length_cm, "used_cm": round(used, 1),
            "offcut_cm": round(board_length_cm - used, 1)}


# -- 3D printer jobs --------------------------------------------------------------


@tool
def estimate_print_job(model: str, material: Literal["PLA", "PETG", "ABS", "TPU"], infill_percent: int = 20,
                       layer_height_mm: float = 0.2) -> dict:
    """Estimate the time and filament a 3D print job needs.

    Args:
        model: File name or name of the model to print.
        material: Filament material.
        infill_percent: How solid the inside is, in percent.
        layer_height_mm: Height of each printed layer in millimetres.
    """
    hours = round((1 + infill_percent / 25) * 0.2 / layer_height_mm, 1)
    return {"model": model, "material": material, "hours": hours, "filament_g": 20 + infill_percent}


# -- drone flight permits ---------------------------------------------------------


@tool
def apply_drone_permit(pilot: str, area: FlightArea, date: str) -> dict:
    """Apply for a permit to fly a drone over an area on one day.

    Args:
        pilot: Full name of the drone pilot.
        area: Where the drone will fly and its highest altitude in metres.
        date: Day of the flight, as the user gives it.
    """
    approved = area.max_altitude_m <= 120
    return {"pilot": pilot, "location": area.location, "date": date,
            "status": "approved" if approved else "referred: above 120 m"}


# -- amateur radio call signs -----------------------------------------------------


@tool
def lookup_call_sign(call_sign: str) -> dict:
    """Look up the licence holder of an amateur radio call sign.

    Args:
        call_sign: The call sign to look up, e.g. 'G3ABC'.
    """
    prefixes = {"G": "England", "M": "England", "VK": "Australia", "W": "United States", "K": "United States"}
    country = next((place for prefix, place in prefixes.items() if call_sign.upper().startswith(prefix)), "unknown")
    return {"call_sign": call_sign.upper(), "country": country, "licence": "full"}


@tool
def band_for_frequency(frequency_mhz: float) -> dict:
    """Name the amateur radio band a frequency belongs to.

    Args:
        frequency_mhz: Frequency in megahertz.
    """
    bands = [("160m", 1.8, 2.0), ("80m", 3.5, 4.0), ("40m", 7.0, 7.3), ("20m", 14.0, 14.35),
             ("10m", 28.0, 29.7), ("2m", 144.0, 148.0), ("70cm", 420.0, 450.0)]
    band = next((name for name, low, high in bands if low <= frequency_mhz <= high), None)
    return {"frequency_mhz": frequency_mhz, "band": band}


# -- telescope rentals ------------------------------------------------------------


@tool
def rent_telescope(aperture_mm: int, nights: int, include_mount: bool = True, pickup_city: str | None = None) -> dict:
    """Rent a telescope for a number of nights.

    Args:
        aperture_mm: Aperture of the telescope in millimetres.
        nights: Number of nights to rent it for.
        include_mount: False to rent the optical tube without a mount.
        pickup_city: City to collect it from; delivered by courier when omitted.
    """
    nightly = aperture_mm * 0.15 + (10 if include_mount else 0)
    return {"aperture_mm": aperture_mm, "nights": nights, "total": round(nightly * nights, 2),
            "handover": pickup_city or "courier"}


# -- archery ranges ---------------------------------------------------------------


@tool
def book_archery_lane(range_name: str, archers: int,
                      bow: Literal["recurve", "compound", "longbow", "barebow"] = "recurve",
                      hire_equipment: bool = False) -> dict:
    """Book a shooting lane at an archery range.

    Args:
        range_name: Name of the archery range.
        archers: Number of people shooting.
        bow: Type of bow being shot.
        hire_equipment: True to hire bows and arrows at the range.
    """
    return {"range": range_name, "archers": archers, "bow": bow,
            "total": archers * (12 + (8 if hire_equipment else 0))}


# -- climbing gyms ----------------------------------------------------------------


@tool
def climbing_gym_hours(gym: str, day: str | None = None) -> dict:
    """Give the opening hours of a climbing gym.

    Args:
        gym: Name of the climbing gym.
        day: Day to check, e.g. 'Tuesday'; the whole week when omitted.
    """
    return {"gym": gym, "day": day or "all week", "opens": "10:00", "closes": "22:00"}


@tool
def convert_climbing_grade(grade: str, to_system: Literal["french", "yds", "v_scale", "font"]) -> dict:
    """Convert a climbing grade to another grading system.

    Args:
        grade: The grade as written, e.g. '6a' or 'V3'.
        to_system: Grading system to convert to.
    """
    table = {"6b+": {"yds": "5.10d"}, "v5": {"font": "6C"}}
    return {"grade": grade, "to_system": to_system, "converted": table.get(grade.lower(), {}).get(to_system)}


# -- paddleboard rentals ----------------------------------------------------------


@tool
def rent_paddleboard(beach: str, hours: float, boards: int = 1, wetsuit: bool = False) -> dict:
    """Rent stand-up paddleboards at a beach.

    Args:
        beach: Beach where the boards are collected.
        hours: How long to rent for, in hours.
        boards: Number of boards.
        wetsuit: True to add a wetsuit for each board.
    """
    return {"beach": beach, "boards": boards, "hours": hours,
            "total": round(boards * hours * (18 + (5 if wetsuit else 0)), 2)}


# -- horse riding lessons ---------------------------------------------------------


@tool
def book_riding_lesson(stable: str, rider: Rider, private: bool = False) -> dict:
    """Book a horse riding lesson at a stable.

    Args:
        stable: Name of the riding stable.
        rider: The rider's name, age and riding level.
        private: True for a private lesson instead of a group lesson.
    """
    pony = rider.age < 12
    return {"stable": stable, "rider": rider.name, "mount": "pony" if pony else "horse",
            "lesson": "private" if private else "group", "level": rider.level}


# -- sailing club races -----------------------------------------------------------


@tool
def enter_sailing_race(boat: str, boat_class: str, race_date: str, crew: list[str] | None = None) -> dict:
    """Enter a boat in a sailing club race.

    Args:
        boat: Name of the boat.
        boat_class: Class of the boat, e.g. 'Laser' or 'Topper'.
        race_date: Date of the race, as the user gives it.
        crew: Names of the crew besides the helm; helm only when omitted.
    """
    return {"boat": boat, "class": boat_class, "race_date": race_date, "crew": crew or [],
            "sail_number": sum(map(ord, boat)) % 1000}


# -- golf tee times ---------------------------------------------------------------


@tool
def find_tee_times(course: str, date: str, players: int = 4, holes: Literal[9, 18] = 18) -> dict:
    """Find free tee times at a golf course.

    Args:
        course: Name of the golf course.
        date: Day to play, as the user gives it.
        players: Number of players in the group.
        holes: Play 9 or 18 holes.
    """
    return {"course": course, "date": date, "players": players, "holes": holes,
            "times": ["08:10", "09:40", "13:20"]}


# -- tennis court bookings --------------------------------------------------------


@tool
def book_tennis_court(club: str, date: str, time: str, surface: Literal["clay", "grass", "hard"] | None = None,
                      doubles: bool = False) -> dict:
    """Book a tennis court at a club.

    Args:
        club: Name of the tennis club.
        date: Day of the booking, as the user gives it.
        time: Start time, as the user gives it.
        surface: Court surface wanted; any surface when omitted.
        doubles: True for a doubles match (a wider court).
    """
    return {"club": club, "date": date, "time": time, "surface": surface or "any",
            "court": 3 if doubles else 1}


# -- swimming pool lanes ----------------------------------------------------------


@tool
def reserve_pool_lane(pool: str, speed: Literal["slow", "medium", "fast"], minutes: int = 45) -> dict:
    """Reserve a place in a lane at a swimming pool.

    Args:
        pool: Name of the swimming pool.
        speed: Speed of the lane to swim in.
        minutes: Length of the session in minutes.
    """
    lane = {"slow": 1, "medium": 3, "fast": 5}[speed]
    return {"pool": pool, "lane": lane, "minutes": minutes}


@tool
def swim_pace(distance_m: int, minutes: float) -> dict:
    """Work out a swimmer's pace per 100 metres.

    Args:
        distance_m: Distance swum in metres.
        minutes: Time taken in minutes.
    """
    seconds = minutes * 60 / (distance_m / 100)
    return {"distance_m": distance_m, "pace_per_100m": f"{int(seconds // 60)}:{round(seconds % 60):02d}"}


# -- ice cream shop orders --------------------------------------------------------


@tool
def order_ice_cream(flavours: list[str], container: Literal["cup", "cone", "waffle cone"] = "cup",
                    toppings: list[str] | None = None) -> dict:
    """Order ice cream at the shop counter.

    Args:
        flavours: One flavour per scoop.
        container: What the scoops come in.
        toppings: Toppings to add; none when omitted.
    """
    toppings = toppings or []
    price = 2.2 * len(flavours) + 0.5 * len(toppings) + (1.0 if container == "waffle cone" else 0.0)
    return {"flavours": flavours, "container": container, "toppings": toppings, "price": round(price, 2)}


CASES = (
    # music lessons
    ask(book_music_lesson, "can u book my daughter Maya a 45 min violin lesson? over zoom if possible",
        {"student": "Maya", "instrument": "violin", "minutes": 45, "online": True}),
    decline(book_music_lesson, "I'd like to sign up for guitar lessons, half an hour each, in person please",
            "student"),
    ask(find_music_teacher, "帮我在成都找个教大提琴的老师,每小时不超过200块",  # "Find me a cello teacher in Chengdu, at most 200 yuan an hour"
        {"instrument": "大提琴", "city": "成都", "max_hourly_rate": 200}),
    ask(find_music_teacher, "looking for a saxophone teacher in Leeds, and also one in York",
        {"instrument": "saxophone", "city": "Leeds"}, {"instrument": "saxophone", "city": "York"}),
    # orchestra rehearsals
    ask(schedule_rehearsal,
        "Set up a rehearsal for Finlandia on March 12 from 19:30, only strings and brass need to come",
        {"piece": "Finlandia", "date": "March 12", "start_time": "19:30", "sections": ["strings", "brass"]}),
    ask(schedule_rehearsal, "put in an extra rehearsal of Pictures at an Exhibition on 9 October, full orchestra",
        {"piece": "Pictures at an Exhibition", "date": "9 October"}),
    # art supplies
    ask(price_art_supplies, "price check: gouache paints, sable brush, A3 sketchbook. I'm a student btw",
        {"items": ["gouache paints", "sable brush", "A3 sketchbook"], "student_discount": True}),
    ask(price_art_supplies, "水彩纸和炭笔多少钱?",  # "How much are watercolour paper and charcoal pencils?"
        {"items": ["水彩纸", "炭笔"]}),
    # gallery openings
    ask(find_gallery_openings, "any gallery openings in Glasgow or Edinburgh in May?",
        {"city": "Glasgow", "month": "May"}, {"city": "Edinburgh", "month": "May"}),
    decline(find_gallery_openings, "what exhibition openings are on this month that don't charge entry?", "city"),
    # theatre bookings
    ask(book_theatre_seats, "2 tix for Hamilton in the dress circle on 14 March",
        {"show": "Hamilton", "seats": 2, "area": "circle", "date": "14 March"}),
    ask(book_theatre_seats, "Four seats up in the balcony for The Mousetrap please",
        {"show": "The Mousetrap", "seats": 4, "area": "balcony"}),
    ask(cancel_theatre_booking, "cancel booking TH-88231, and just give me a voucher instead of money back",
        {"booking_reference": "TH-88231", "refund_to_voucher": True}),
    decline(cancel_theatre_booking, "I can't make the play on Saturday anymore, please cancel my tickets",
            "booking_reference"),
    # radio schedules
    ask(radio_schedule, "中国之声星期三有什么节目?",  # "What's on the Voice of China station on Wednesday?"
        {"station": "中国之声", "day": "wednesday"}),
    ask(radio_schedule, "What's on Radio 4 and Radio 3 on Sunday?",
        {"station": "Radio 4", "day": "sunday"}, {"station": "Radio 3", "day": "sunday"}),
    # comic book pre-orders
    ask(preorder_comic, "pre-order Saga #67 for me, the variant cover, 2 copies",
        {"title": "Saga", "issue": 67, "copies": 2, "variant_cover": True}),
    decline(preorder_comic, "put me down for the next Spider-Man issue when it's announced", "issue"),
    # vinyl records
    ask(vinyl_record_value, "what's my copy of Rumours by Fleetwood Mac worth? it's near mint",
        {"artist": "Fleetwood Mac", "album": "Rumours", "condition": "near_mint"}),
    ask(vinyl_record_value, "邓丽君的《淡淡幽情》黑胶现在值多少钱?",  # "What is Teresa Teng's 'Dan Dan You Qing' on vinyl worth now?"
        {"artist": "邓丽君", "album": "淡淡幽情"}),
    ask(vinyl_shipping_cost, "how much to post 3 LPs to Canada, insured",
        {"records": 3, "country": "Canada", "insured": True}),
    ask(vinyl_shipping_cost, "shipping quote for 5 records to Japan, and separately 2 to Australia?",
        {"records": 5, "country": "Japan"}, {"records": 2, "country": "Australia"}),
    # tabletop RPG sessions
    ask(plan_rpg_session, "set up a Pathfinder game for Sam, Priya and Tom, we'll go about 4 and a half hours",
        {"game": "Pathfinder", "players": ["Sam", "Priya", "Tom"], "hours": 4.5}),
    decline(plan_rpg_session, "organise a D&D one-shot for this Friday, 3 hours", "players"),
    # knitting patterns
    ask(knitting_yarn_needed, "how much yarn do I need for a jumper in size M using DK?",
        {"garment": "sweater", "size": "M", "yarn_weight": "dk"}),
    ask(knitting_yarn_needed, "织一顶帽子要多少毛线?尺码是L。",  # "How much yarn to knit a hat? The size is L."
        {"garment": "hat", "size": "L"}),
    # woodworking cuts
    ask(plan_board_cuts, "I've got a 240cm plank and need pieces of 60, 60, 45 and 30 cm. will that fit?",
        {"board_length_cm": 240, "cuts_cm": [60, 60, 45, 30]}),
    ask(plan_board_cuts, "180 cm board, cuts of 75 and 90 cm, my saw blade takes 2.5mm",
        {"board_length_cm": 180, "cuts_cm": [75, 90], "kerf_mm": 2.5}),
    # 3D printer jobs
    ask(estimate_print_job, "how long will benchy.stl take in PETG at 15% infill?",
        {"model": "benchy.stl", "material": "PETG", "infill_percent": 15}),
    decline(estimate_print_job, "estimate the print for my phone stand, 0.12mm layers, 40% infill", "material"),
    # drone flight permits
    ask(apply_drone_permit,
        "I need a drone permit for Jess Romero to fly over Hampstead Heath on 3 May, up to 90 metres",
        {"pilot": "Jess Romero", "area": {"location": "Hampstead Heath", "max_altitude_m": 90}, "date": "3 May"}),
    decline(apply_drone_permit, "permit to fly my DJI at Brighton beach, max 50m, my name's Tariq Khan", "date"),
    # amateur radio call signs
    ask(lookup_call_sign, "who holds G4XYZ and M0ABC?", {"call_sign": "G4XYZ"}, {"call_sign": "M0ABC"}),
    ask(lookup_call_sign, "look up callsign vk2rt", {"call_sign": "vk2rt"}),
    ask(band_for_frequency, "what ham band is 14.074 MHz in?", {"frequency_mhz": 14.074}),
    ask(band_for_frequency, "145.5兆赫属于哪个业余波段?",  # "Which amateur band is 145.5 MHz in?"
        {"frequency_mhz": 145.5}),
    # telescope rentals
    ask(rent_telescope, "rent a 200mm scope for 3 nights, no mount needed, I'll collect in Tucson",
        {"aperture_mm": 200, "nights": 3, "include_mount": False, "pickup_city": "Tucson"}),
    decline(rent_telescope, "I want to hire a telescope for the meteor shower weekend, 2 nights", "aperture_mm"),
    # archery ranges
    ask(book_archery_lane, "lane for 3 of us at Sherwood Archery, we're shooting longbows and need to hire kit",
        {"range_name": "Sherwood Archery", "archers": 3, "bow": "longbow", "hire_equipment": True}),
    ask(book_archery_lane, "在飞羽射箭馆订一条道,两个人,用复合弓。",  # "Book a lane at Feiyu Archery, two people, compound bows."
        {"range_name": "飞羽射箭馆", "archers": 2, "bow": "compound"}),
    # climbing gyms
    ask(climbing_gym_hours, "when are The Castle and Yonder open on Saturday?",
        {"gym": "The Castle", "day": "Saturday"}, {"gym": "Yonder", "day": "Saturday"}),
    ask(climbing_gym_hours, "opening hours for Boulder Brighton?", {"gym": "Boulder Brighton"}),
    ask(convert_climbing_grade, "what's 6b+ in YDS?", {"grade": "6b+", "to_system": "yds"}),
    ask(convert_climbing_grade, "convert V5 to Font grade pls", {"grade": "V5", "to_system": "font"}),
    # paddleboard rentals
    ask(rent_paddleboard, "two boards at Bondi for an hour and a half, with wetsuits",
        {"beach": "Bondi", "hours": 1.5, "boards": 2, "wetsuit": True}),
    decline(rent_paddleboard, "can I get a SUP for 2 hours tomorrow morning?", "beach"),
    # horse riding lessons
    ask(book_riding_lesson, "Book my son Leo (he's 9, total beginner) a private lesson at Oakfield Stables",
        {"stable": "Oakfield Stables", "rider": {"name": "Leo", "age": 9, "level": "beginner"}, "private": True}),
    ask(book_riding_lesson, "帮我在白马马场约一节骑马课,骑手是王芳,28岁,中级水平。",  # "Book me a riding lesson at White Horse Stables; the rider is Wang Fang, 28, intermediate level."
        {"stable": "白马马场", "rider": {"name": "王芳", "age": 28, "level": "intermediate"}}),
    # sailing club races
    ask(enter_sailing_race, "enter Sea Biscuit (she's a Laser) in the race on June 8",
        {"boat": "Sea Biscuit", "boat_class": "Laser", "race_date": "June 8"}),
    ask(enter_sailing_race, "Sign up our Wayfarer 'Blue Heron' for the 21 September race, crew will be Ana and Colm",
        {"boat": "Blue Heron", "boat_class": "Wayfarer", "race_date": "21 September", "crew": ["Ana", "Colm"]}),
    # golf tee times
    ask(find_tee_times, "any tee times at St Andrews Old Course on 2 August for 2 players, just 9 holes?",
        {"course": "St Andrews Old Course", "date": "2 August", "players": 2, "holes": 9}),
    decline(find_tee_times, "need a tee time for a foursome at Pebble Beach", "date"),
    # tennis court bookings
    ask(book_tennis_court, "grab us a clay court at Riverside Tennis Club, May 20 at 18:00, we're playing doubles",
        {"club": "Riverside Tennis Club", "date": "May 20", "time": "18:00", "surface": "clay", "doubles": True}),
    ask(book_tennis_court, "tennis court at Queens Park for 7 June, 9am, grass if they have it",
        {"club": "Queens Park", "date": "7 June", "time": "9am", "surface": "grass"}),
    # swimming pool lanes
    ask(reserve_pool_lane, "fast lane at Tooting Lido for 30 minutes please",
        {"pool": "Tooting Lido", "speed": "fast", "minutes": 30}),
    ask(reserve_pool_lane, "slow lane at Hillsborough Leisure Centre pls, 20 mins",
        {"pool": "Hillsborough Leisure Centre", "speed": "slow", "minutes": 20}),
    ask(swim_pace, "I swam 1500m in 32 minutes, what's my pace per 100?", {"distance_m": 1500, "minutes": 32}),
    ask(swim_pace, "pace for 400 metres in 7.5 min?", {"distance_m": 400, "minutes": 7.5}),
    # ice cream shop orders
    ask(order_ice_cream, "waffle cone with pistachio and salted caramel, sprinkles on top",
        {"flavours": ["pistachio", "salted caramel"], "container": "waffle cone", "toppings": ["sprinkles"]}),
    ask(order_ice_cream, "one scoop of mint choc chip in a cup", {"flavours": ["mint choc chip"], "container": "cup"}),
)
