"""Held-out set G: learner-style service tools and plain questions for the offline stand-in model.

Written blind (without reading the offline model or its own cases) and never
edited after measuring, so its score shows how the model does on tools it was
not written for. Chinese questions carry an English gloss.
"""

from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel

from conductor.course.offline_suite import ask, decline
from conductor.tools import tool

# -- bakery ---------------------------------------------------------------------------


@tool
def order_cake(
    flavour: str, servings: int, inscription: str | None = None, gluten_free: bool = False
) -> dict[str, Any]:
    """Place a celebration cake order with the bakery.

    Args:
        flavour: Cake flavour, e.g. "carrot" or "red velvet".
        servings: How many people the cake should feed.
        inscription: Text to pipe on top of the cake, if any.
        gluten_free: Whether to bake it with gluten-free flour.
    """
    price = 18.0 + 2.5 * servings + (6.0 if gluten_free else 0.0)
    return {"flavour": flavour, "servings": servings, "inscription": inscription, "price_gbp": round(price, 2)}


@tool
def check_bread_stock(loaf: str, branch: str | None = None) -> dict[str, Any]:
    """Check how many loaves of one kind of bread are left today.

    Args:
        loaf: The kind of bread, e.g. "baguette".
        branch: Which shop to check, named by its street; all shops when left out.
    """
    left = len(loaf) % 7
    return {"loaf": loaf, "branch": branch or "all branches", "loaves_left": left}


# -- tattoo studio --------------------------------------------------------------------


@tool
def book_tattoo_session(
    artist: str,
    placement: str,
    hours: float,
    style: Literal["traditional", "fineline", "blackwork", "realism", "watercolour"] | None = None,
) -> dict[str, Any]:
    """Book a tattoo session with one of the studio's artists.

    Args:
        artist: The artist's name.
        placement: Where on the body the tattoo goes.
        hours: How long the session should last, in hours.
        style: The tattoo style, if the client has one in mind.
    """
    return {"artist": artist, "placement": placement, "hours": hours, "style": style, "deposit_gbp": 50 * hours}


# -- car wash -------------------------------------------------------------------------


@tool
def book_car_wash(
    plate: str, package: Literal["basic", "deluxe", "ultimate"], interior_clean: bool = False
) -> dict[str, Any]:
    """Book one car in for a wash.

    Args:
        plate: The car's number plate.
        package: Wash package: basic (cheapest), deluxe or ultimate.
        interior_clean: Whether to vacuum and wipe the inside as well.
    """
    prices = {"basic": 8, "deluxe": 15, "ultimate": 25}
    return {"plate": plate, "package": package, "price_gbp": prices[package] + (7 if interior_clean else 0)}


# -- plumbing -------------------------------------------------------------------------


@tool
def request_plumber(
    address: str,
    problem: Literal["leak", "burst pipe", "blocked drain", "no hot water", "toilet fault"],
    emergency: bool = False,
) -> dict[str, Any]:
    """Request a plumber callout to an address.

    Args:
        address: Where the plumber should go.
        problem: The kind of problem.
        emergency: Whether it needs someone within the hour (costs more).
    """
    return {"address": address, "problem": problem, "eta_hours": 1 if emergency else 24}


# -- pool maintenance -----------------------------------------------------------------


@tool
def dose_pool_chemicals(volume_litres: int, ph: float, chlorine_ppm: float) -> dict[str, Any]:
    """Work out how much pH reducer and chlorine to add to a swimming pool.

    Args:
        volume_litres: How much water the pool holds, in litres.
        ph: The measured pH of the water.
        chlorine_ppm: The measured free chlorine, in parts per million.
    """
    thousands = volume_litres / 1000
    ph_reducer_g = max(0.0, ph - 7.4) * 100 * thousands / 10
    chlorine_g = max(0.0, 2.0 - chlorine_ppm) * 1.5 * thousands
    return {"ph_reducer_g": round(ph_reducer_g), "chlorine_granules_g": round(chlorine_g)}


# -- bowling --------------------------------------------------------------------------


@tool
def reserve_bowling_lane(players: int, start_time: str, bumpers: bool = False, games: int = 1) -> dict[str, Any]:
    """Reserve a bowling lane.

    Args:
        players: How many people are bowling.
        start_time: When to start, as the customer says it (e.g. "7pm").
        bumpers: Whether to raise the gutter bumpers (for children).
        games: How many games to play.
    """
    return {"lane": 1 + players % 12, "start_time": start_time, "bumpers": bumpers, "price_gbp": 4.5 * players * games}


# -- escape rooms ---------------------------------------------------------------------


@tool
def find_escape_rooms(
    city: str, difficulty: Literal["easy", "medium", "hard"] | None = None, group_size: int | None = None
) -> dict[str, Any]:
    """List escape rooms in one city.

    Args:
        city: The city to search.
        difficulty: Only rooms of this difficulty.
        group_size: Only rooms that take a group this big.
    """
    return {"city": city, "difficulty": difficulty, "group_size": group_size, "rooms": [f"{city} Vault", "The Lab"]}


@tool
def book_escape_room(room_name: str, players: int, time_slot: str) -> dict[str, Any]:
    """Book a slot in a named escape room.

    Args:
        room_name: The name of the room.
        players: How many people are playing.
        time_slot: The start time of the slot.
    """
    return {"room_name": room_name, "players": players, "time_slot": time_slot, "price_gbp": 22 * players}


# -- cinema ---------------------------------------------------------------------------


@tool
def buy_cinema_tickets(
    film: str, showtime: str, seats: list[str], screen_format: Literal["2D", "3D", "IMAX"] = "2D"
) -> dict[str, Any]:
    """Buy tickets for chosen seats at one showing of a film.

    Args:
        film: The film's title.
        showtime: The showing's start time.
        seats: Seat labels such as "H12".
        screen_format: The screen format of the showing.
    """
    each = {"2D": 9.5, "3D": 12.0, "IMAX": 15.0}[screen_format]
    return {"film": film, "showtime": showtime, "seats": seats, "total_gbp": each * len(seats)}


@tool
def check_film_times(cinema: str, day: str | None = None, film: str | None = None) -> dict[str, Any]:
    """List the showings at one cinema.

    Args:
        cinema: The cinema's name.
        day: Which day, as the customer says it; today when left out.
        film: Only showings of this film.
    """
    return {"cinema": cinema, "day": day or "today", "film": film, "showings": ["14:00", "17:30", "20:45"]}


# -- driving lessons ------------------------------------------------------------------


@tool
def book_driving_lesson(
    student_name: str,
    transmission: Literal["manual", "automatic"],
    minutes: int = 60,
    pickup_postcode: str | None = None,
) -> dict[str, Any]:
    """Book a driving lesson for a learner.

    Args:
        student_name: The learner's full name.
        transmission: Which kind of car the learner drives.
        minutes: Length of the lesson in minutes.
        pickup_postcode: Where the instructor picks the learner up.
    """
    return {"student_name": student_name, "transmission": transmission, "price_gbp": round(0.6 * minutes, 2)}


# -- lab blood tests ------------------------------------------------------------------


@tool
def order_blood_panel(patient_id: str, tests: list[str], fasting: bool = False) -> dict[str, Any]:
    """Order blood tests for a patient from the lab.

    Args:
        patient_id: The patient's ID.
        tests: The tests to run, e.g. "ferritin".
        fasting: Whether the sample must be taken after fasting.
    """
    return {"patient_id": patient_id, "tests": tests, "fasting": fasting, "tubes": len(tests)}


# -- eye exams ------------------------------------------------------------------------


@tool
def book_eye_exam(patient_name: str, date: str, contact_lens_check: bool = False) -> dict[str, Any]:
    """Book an eye examination at the opticians.

    Args:
        patient_name: Who the exam is for.
        date: The day of the appointment, as the customer says it.
        contact_lens_check: Whether to add a contact lens check.
    """
    return {"patient_name": patient_name, "date": date, "minutes": 45 if contact_lens_check else 30}


# -- hearing aid fitting --------------------------------------------------------------


class Ear(str, Enum):
    """Which ear a hearing aid is fitted to."""

    LEFT = "left"
    RIGHT = "right"
    BOTH = "both"


@tool
def fit_hearing_aid(patient_name: str, ear: Ear, device_model: str) -> dict[str, Any]:
    """Book a hearing aid fitting appointment.

    Args:
        patient_name: Who is being fitted.
        ear: Which ear or ears to fit.
        device_model: The hearing aid model.
    """
    devices = 2 if ear is Ear.BOTH else 1
    return {"patient_name": patient_name, "ear": ear.value, "device_model": device_model, "devices": devices}


# -- physiotherapy --------------------------------------------------------------------


@tool
def plan_physio_exercises(
    body_part: str, pain_level: int, weeks: int = 4, post_surgery: bool = False
) -> dict[str, Any]:
    """Draw up a home exercise plan for an injured body part.

    Args:
        body_part: The injured part of the body, e.g. "ankle".
        pain_level: Current pain from 0 (none) to 10 (worst).
        weeks: How many weeks the plan runs for.
        post_surgery: Whether the patient is recovering from surgery.
    """
    gentle = post_surgery or pain_level >= 7
    return {"body_part": body_part, "weeks": weeks, "sessions_per_week": 3 if gentle else 5}


# -- massage and spa ------------------------------------------------------------------


class SpaGuest(BaseModel):
    """A spa guest's contact details."""

    name: str
    phone: str


@tool
def book_spa_package(guest: SpaGuest, treatment: str, minutes: int = 60) -> dict[str, Any]:
    """Book a spa treatment for a guest.

    Args:
        guest: The guest's name and phone number.
        treatment: The treatment, e.g. "aromatherapy massage".
        minutes: Length of the treatment in minutes.
    """
    return {"guest": guest.name, "treatment": treatment, "minutes": minutes, "price_gbp": round(1.1 * minutes, 2)}


# -- nail salon -----------------------------------------------------------------------


@tool
def book_manicure(colour: str, gel: bool = False, nail_art: str | None = None) -> dict[str, Any]:
    """Book a manicure at the nail salon.

    Args:
        colour: The polish colour.
        gel: Whether to use gel polish.
        nail_art: Any design to add, if wanted.
    """
    price = 20 + (10 if gel else 0) + (8 if nail_art else 0)
    return {"colour": colour, "gel": gel, "nail_art": nail_art, "price_gbp": price}


# -- dry cleaning ---------------------------------------------------------------------


@tool
def price_dry_cleaning(items: list[str], express: bool = False) -> dict[str, Any]:
    """Quote the price of dry cleaning some garments.

    Args:
        items: The garments, e.g. "blazer".
        express: Whether they are wanted back the next day.
    """
    total = 7.5 * len(items) * (1.5 if express else 1.0)
    return {"items": items, "express": express, "total_gbp": round(total, 2)}


@tool
def track_dry_cleaning(ticket_number: str) -> dict[str, Any]:
    """Check whether one dry cleaning order is ready to collect.

    Args:
        ticket_number: The number on the customer's ticket.
    """
    return {"ticket_number": ticket_number, "ready": sum(map(ord, ticket_number)) % 2 == 0}


# -- locksmith ------------------------------------------------------------------------


@tool
def call_locksmith(address: str, door: str = "front", locked_out: bool = False) -> dict[str, Any]:
    """Send a locksmith to an address.

    Args:
        address: Where the locksmith should go.
        door: Which door the job is on.
        locked_out: Whether the customer is locked out right now (jumps the queue).
    """
    return {"address": address, "door": door, "eta_minutes": 30 if locked_out else 180}


# -- pest control ---------------------------------------------------------------------


@tool
def schedule_pest_treatment(pest: str, rooms: int, pet_safe: bool = False, date: str | None = None) -> dict[str, Any]:
    """Schedule a pest control treatment at home.

    Args:
        pest: The pest to deal with, e.g. "ants".
        rooms: How many rooms to treat.
        pet_safe: Whether to use only products safe around pets.
        date: Preferred day, as the customer says it.
    """
    return {"pest": pest, "rooms": rooms, "pet_safe": pet_safe, "date": date or "next available", "visits": 2}


# -- roofing quotes -------------------------------------------------------------------


class RoofDetails(BaseModel):
    """The roof to be repaired."""

    area_m2: float
    material: str


@tool
def quote_roof_repair(roof: RoofDetails, postcode: str, scaffolding: bool = False) -> dict[str, Any]:
    """Quote for repairing or replacing a roof.

    Args:
        roof: The roof's area in square metres and its material.
        postcode: The property's postcode.
        scaffolding: Whether scaffolding must be put up.
    """
    total = roof.area_m2 * 95 + (1200 if scaffolding else 0)
    return {"postcode": postcode, "material": roof.material, "quote_gbp": round(total, 2)}


# -- furniture assembly ---------------------------------------------------------------


@tool
def book_furniture_assembly(items: list[str], address: str, floor: int | None = None) -> dict[str, Any]:
    """Book a handyman to assemble flat-pack furniture.

    Args:
        items: The pieces to assemble, e.g. "bookcase".
        address: Where the furniture is.
        floor: Which floor the flat is on, if above the ground floor.
    """
    return {"items": items, "address": address, "floor": floor, "hours": 1.5 * len(items)}


# -- appliance repair -----------------------------------------------------------------


@tool
def diagnose_appliance(appliance: str, brand: str | None = None, error_code: str | None = None) -> dict[str, Any]:
    """Suggest likely faults for a household appliance.

    Args:
        appliance: The appliance, e.g. "microwave".
        brand: The appliance's make.
        error_code: The code shown on its display, if any.
    """
    cause = "see the manual for this code" if error_code else "check the power and the filter"
    return {"appliance": appliance, "brand": brand, "error_code": error_code, "likely_cause": cause}


@tool
def book_appliance_repair(appliance: str, postcode: str, under_warranty: bool = False) -> dict[str, Any]:
    """Book an engineer to repair an appliance at home.

    Args:
        appliance: The appliance to repair.
        postcode: Where the engineer should go.
        under_warranty: Whether the appliance is still under warranty (no callout fee).
    """
    return {"appliance": appliance, "postcode": postcode, "callout_fee_gbp": 0 if under_warranty else 65}


# -- home wifi troubleshooting --------------------------------------------------------


class Band(str, Enum):
    """A wifi frequency band."""

    LOW = "2.4GHz"
    HIGH = "5GHz"


@tool
def check_wifi_signal(room: str, band: Band | None = None) -> dict[str, Any]:
    """Measure the wifi signal strength in one room of the home.

    Args:
        room: The room to measure in.
        band: Only this frequency band; both when left out.
    """
    strength = -40 - 3 * len(room)
    return {"room": room, "band": band.value if band else "both", "signal_dbm": strength}


@tool
def restart_router(router_serial: str, factory_reset: bool = False) -> dict[str, Any]:
    """Restart a customer's home router remotely.

    Args:
        router_serial: The serial number on the router's label.
        factory_reset: Whether to wipe it back to factory settings too.
    """
    minutes = 10 if factory_reset else 3
    return {"router_serial": router_serial, "factory_reset": factory_reset, "back_online_minutes": minutes}


# -- phone plans and SIM activation ---------------------------------------------------


@tool
def compare_phone_plans(
    data_gb: int, max_monthly_price: float, five_g: bool = False, contract_months: Literal[1, 12, 24] | None = None
) -> dict[str, Any]:
    """List mobile plans that meet a data allowance and a budget.

    Args:
        data_gb: The least monthly data wanted, in GB.
        max_monthly_price: The most the customer will pay a month, in pounds.
        five_g: Whether the plan must include 5G.
        contract_months: Only plans with this contract length.
    """
    price = round(min(max_monthly_price, 5 + 0.3 * data_gb), 2)
    return {"plans": [{"data_gb": data_gb, "price_gbp": price, "five_g": five_g, "months": contract_months or 12}]}


@tool
def activate_sim(iccid: str, plan_name: str, port_number: str | None = None) -> dict[str, Any]:
    """Activate a new SIM card on a plan.

    Args:
        iccid: The long number printed on the SIM card.
        plan_name: The name of the plan to put the SIM on.
        port_number: An existing phone number to move onto the SIM, if any.
    """
    return {"iccid": iccid, "plan_name": plan_name, "number": port_number or "07" + iccid[-9:], "active": True}


CASES = (
    ask(order_cake, "can i get a lemon drizzle cake big enough for 12 people? with Happy 40th Dave written on it",
        {"flavour": "lemon drizzle", "servings": 12, "inscription": "Happy 40th Dave"}),
    decline(order_cake, "I'd like to order a gluten free chocolate cake for my daughter's birthday on Saturday",
            "servings"),
    ask(check_bread_stock, "do you still have sourdough and rye left at the Elm Street shop?",
        {"loaf": "sourdough", "branch": "Elm Street"}, {"loaf": "rye", "branch": "Elm Street"}),
    ask(check_bread_stock, "南京路那家还有全麦面包吗？",  # "Does the Nanjing Road one still have wholemeal bread?"
        {"loaf": "全麦面包", "branch": "南京路"}),
    ask(book_tattoo_session, "hey, can i get 2.5 hrs with Mika? fine line piece on my inner forearm",
        {"artist": "Mika", "placement": "inner forearm", "hours": 2.5, "style": "fineline"}),
    decline(book_tattoo_session,
            "want to book Jonas for a blackwork half sleeve on my left arm, whenever he's next free",
            "hours"),
    ask(book_car_wash, "deluxe wash for both our cars pls - KX19 ABC and LM70 XYZ",
        {"plate": "KX19 ABC", "package": "deluxe"}, {"plate": "LM70 XYZ", "package": "deluxe"}),
    ask(book_car_wash, "帮我约个洗车，车牌沪A12345，最便宜的基础套餐就行，车里面也要吸一下",
        # "Book me a car wash, plate 沪A12345, the cheapest basic package is fine, vacuum the inside too"
        {"plate": "沪A12345", "package": "basic", "interior_clean": True}),
    ask(request_plumber,
        "pipe's burst under the kitchen sink and there's water everywhere!!! 14 Orchard Lane, need someone right now",
        {"address": "14 Orchard Lane", "problem": "burst pipe", "emergency": True}),
    decline(request_plumber, "my toilet keeps running and won't stop filling, can a plumber come out tomorrow morning?",
            "address"),
    ask(dose_pool_chemicals,
        "pool is roughly 40000 litres, pH reading 7.9 and chlorine at 0.5 - what do I need to add?",
        {"volume_litres": 40000, "ph": 7.9, "chlorine_ppm": 0.5}),
    decline(dose_pool_chemicals,
            "tested the water this morning: ph 8.1, free chlorine 1 ppm. how much of each chemical should I put in?",
            "volume_litres"),
    ask(reserve_bowling_lane, "lane for 6 at 7:30pm please, we've got little kids so bumpers up",
        {"players": 6, "start_time": "7:30pm", "bumpers": True}),
    ask(reserve_bowling_lane, "我们五个人，想订晚上八点的保龄球道，打两局",
        # "There are five of us, we'd like a bowling lane at eight in the evening, two games"
        {"players": 5, "start_time": "晚上八点", "games": 2}),
    ask(find_escape_rooms, "any really hard escape rooms in Leeds or York? there's 4 of us",
        {"city": "Leeds", "difficulty": "hard", "group_size": 4},
        {"city": "York", "difficulty": "hard", "group_size": 4}),
    ask(find_escape_rooms, "looking for a beginner friendly escape room in Bristol",
        {"city": "Bristol", "difficulty": "easy"}),
    ask(book_escape_room, "can we get Midnight Heist at 18:00 for five of us?",
        {"room_name": "Midnight Heist", "players": 5, "time_slot": "18:00"}),
    ask(book_escape_room, "book Lost Lab for 3 people, the 2:15 slot",
        {"room_name": "Lost Lab", "players": 3, "time_slot": "2:15"}),
    ask(buy_cinema_tickets, "2 tickets for Dune Part Two at 21:15 in IMAX, seats F7 and F8",
        {"film": "Dune Part Two", "showtime": "21:15", "seats": ["F7", "F8"], "screen_format": "IMAX"}),
    decline(buy_cinema_tickets, "grab me seats G10, G11 and G12 for the 6pm showing in 3D", "film"),
    ask(check_film_times, "万达影城明天放什么电影？",  # "What films are on at Wanda Cinema tomorrow?"
        {"cinema": "万达影城", "day": "明天"}),
    ask(check_film_times, "what's on at the Odeon Leicester Square and the Curzon Soho on Friday?",
        {"cinema": "Odeon Leicester Square", "day": "Friday"}, {"cinema": "Curzon Soho", "day": "Friday"}),
    ask(book_driving_lesson,
        "Can I book a 90 min lesson in an automatic for my son Tom Reyes? pick him up from BS6 5QA",
        {"student_name": "Tom Reyes", "transmission": "automatic", "minutes": 90, "pickup_postcode": "BS6 5QA"}),
    ask(book_driving_lesson, "driving lesson for Priya Nair please, she's learning in a manual",
        {"student_name": "Priya Nair", "transmission": "manual"}),
    ask(order_blood_panel, "patient P-44821 needs a lipid panel, HbA1c and a full blood count, fasting sample",
        {"patient_id": "P-44821", "tests": ["lipid panel", "HbA1c", "full blood count"], "fasting": True}),
    ask(order_blood_panel, "给病人A0093查一下血常规和肝功能，不用空腹",
        # "Run a full blood count and liver function for patient A0093, no fasting needed"
        {"patient_id": "A0093", "tests": ["血常规", "肝功能"]}),
    ask(book_eye_exam,
        "need an eye test for Maria Lopez on 3 March - she wears contacts so can they check those as well",
        {"patient_name": "Maria Lopez", "date": "3 March", "contact_lens_check": True}),
    decline(book_eye_exam, "can you book me in for an eye exam next Tuesday? my glasses feel too weak", "patient_name"),
    ask(fit_hearing_aid, "fitting appointment for Arthur Bell, just his right ear, the Phonak Audeo",
        {"patient_name": "Arthur Bell", "ear": "right", "device_model": "Phonak Audeo"}),
    ask(fit_hearing_aid, "帮王建国约个助听器验配，两只耳朵都要，型号是Oticon More",
        # "Book a hearing aid fitting for Wang Jianguo, both ears, the model is Oticon More"
        {"patient_name": "王建国", "ear": "both", "device_model": "Oticon More"}),
    ask(plan_physio_exercises,
        "knee's been sore since I started running, pain is about 6/10. can you give me a 3 week plan",
        {"body_part": "knee", "pain_level": 6, "weeks": 3}),
    ask(plan_physio_exercises,
        "had surgery on my shoulder in May, pain's around a 3 now - what exercises should I be doing?",
        {"body_part": "shoulder", "pain_level": 3, "post_surgery": True}),
    ask(book_spa_package, "book a hot stone massage for Jess Carter, 90 minutes. her number is 07700 900123",
        {"guest": {"name": "Jess Carter", "phone": "07700 900123"}, "treatment": "hot stone massage", "minutes": 90}),
    decline(book_spa_package, "Hi! I'd like a deep tissue massage, an hour if possible. Thanks, Leo", "guest"),
    ask(book_manicure, "gel mani in cherry red please, with french tips",
        {"colour": "cherry red", "gel": True, "nail_art": "french tips"}),
    ask(book_manicure, "我想做个美甲，裸粉色，不要甲油胶",  # "I'd like a manicure, nude pink, no gel polish"
        {"colour": "裸粉色", "gel": False}),
    ask(price_dry_cleaning,
        "how much to dry clean a wool coat, a suit and a silk dress? I need them back fast so express",
        {"items": ["wool coat", "suit", "silk dress"], "express": True}),
    decline(price_dry_cleaning, "what would express dry cleaning cost me?", "items"),
    ask(track_dry_cleaning, "are tickets 4471 and 4480 ready to collect yet?",
        {"ticket_number": "4471"}, {"ticket_number": "4480"}),
    ask(track_dry_cleaning, "is my dry cleaning done? ticket no. DC-2207", {"ticket_number": "DC-2207"}),
    ask(call_locksmith, "locked myself out of my flat!! 22B Baker Street, it's the back door",
        {"address": "22B Baker Street", "door": "back", "locked_out": True}),
    ask(call_locksmith, "need the locks changed after a break-in, 7 Mill Road", {"address": "7 Mill Road"}),
    ask(schedule_pest_treatment,
        "we've got mice in the kitchen and the utility room, so 2 rooms. "
        "we have a cat so nothing that'll hurt her please",
        {"pest": "mice", "rooms": 2, "pet_safe": True}),
    ask(schedule_pest_treatment, "家里三个房间有蟑螂，下周一能来处理吗？",
        # "Three rooms at home have cockroaches, can you come and deal with it next Monday?"
        {"pest": "蟑螂", "rooms": 3, "date": "下周一"}),
    ask(quote_roof_repair,
        "can I get a quote for redoing roughly 85 square metres of slate roof? "
        "postcode M14 6HP, and it'll need scaffolding",
        {"roof": {"area_m2": 85, "material": "slate"}, "postcode": "M14 6HP", "scaffolding": True}),
    decline(quote_roof_repair, "How much would it cost to replace a 60m² clay tile roof?", "postcode"),
    ask(book_furniture_assembly,
        "need someone to put together a PAX wardrobe and a MALM bed at 9 Rose Court, 4th floor (no lift sorry)",
        {"items": ["PAX wardrobe", "MALM bed"], "address": "9 Rose Court", "floor": 4}),
    ask(book_furniture_assembly, "can someone assemble a desk at 31 Kings Road",
        {"items": ["desk"], "address": "31 Kings Road"}),
    ask(diagnose_appliance, "my Bosch dishwasher keeps flashing E15, what does that mean?",
        {"appliance": "dishwasher", "brand": "Bosch", "error_code": "E15"}),
    ask(diagnose_appliance, "fridge is making a loud buzzing noise, any idea what's wrong", {"appliance": "fridge"}),
    ask(book_appliance_repair,
        "washing machine won't drain. can you send an engineer to SW9 8LT? it's still under warranty",
        {"appliance": "washing machine", "postcode": "SW9 8LT", "under_warranty": True}),
    ask(book_appliance_repair, "oven's stopped heating up, I'm in EH3 9AA",
        {"appliance": "oven", "postcode": "EH3 9AA"}),
    ask(check_wifi_signal, "wifi is awful in the garage and the back bedroom, can you check the 5GHz signal in both",
        {"room": "garage", "band": "5GHz"}, {"room": "back bedroom", "band": "5GHz"}),
    ask(check_wifi_signal, "how strong is the signal in the living room?", {"room": "living room"}),
    ask(restart_router, "internet keeps dropping, can you reboot my router? serial is RT-88213-X",
        {"router_serial": "RT-88213-X"}),
    ask(restart_router, "nothing's working, just wipe router HX4410 back to factory settings",
        {"router_serial": "HX4410", "factory_reset": True}),
    ask(compare_phone_plans, "any phone plans with 50 gigs of data for under £25? happy to sign a 24 month deal",
        {"data_gb": 50, "max_monthly_price": 25, "contract_months": 24}),
    ask(compare_phone_plans, "need at least 10GB, 5G, and I can't spend more than 12.50 a month",
        {"data_gb": 10, "max_monthly_price": 12.5, "five_g": True}),
    ask(activate_sim,
        "just got my new sim, the number on the card is 8944110068212345678. put it on the Essentials 10GB plan "
        "and bring over my old number 07911 123456",
        {"iccid": "8944110068212345678", "plan_name": "Essentials 10GB", "port_number": "07911 123456"}),
    decline(activate_sim, "activate my sim on the Unlimited Max plan please", "iccid"),
)
