"""Held-out set J: local services and small shops, written blind to the offline model's rules.

Thirty tools for florists, pet boarding kennels, babysitting, private tutoring, snow removal,
chimney sweeping, home alarm systems, farmers markets, blood glucose logs, bike repair shops,
coworking desks, conference registration, bookshop special orders, meal kits, catering, food
trucks, tool rental, self-storage, window cleaning, piano tuning, pottery classes, party hire,
paint mixing and key cutting, with sixty plain questions. The set was written without reading the
model's rules or the other sets and never edited after measuring. Chinese questions carry an
English gloss.
"""

from enum import Enum
from typing import Literal

from pydantic import BaseModel, Field

from conductor.course.offline_suite import ask, decline
from conductor.tools import tool


@tool
def order_bouquet(flower: str, stems: int, recipient: str, card_message: str | None = None,
                  deliver: bool = False) -> dict:
    """Order a bouquet from the florist.

    Args:
        flower: The kind of flower in the bouquet.
        stems: How many stems the bouquet has.
        recipient: Who the bouquet is for.
        card_message: Text written on the card, if any.
        deliver: Whether the florist delivers it instead of it being collected.
    """
    price = round(stems * 2.4 + (6.5 if deliver else 0), 2)
    return {"flower": flower, "stems": stems, "recipient": recipient, "card": card_message or "",
            "delivered": deliver, "price": price}


@tool
def check_flower_stock(flower: str, color: str | None = None) -> dict:
    """Check whether the florist has a flower in stock today.

    Args:
        flower: The kind of flower to look for.
        color: A particular colour of that flower, if one is wanted.
    """
    stems = (len(flower) * 7 + len(color or "")) % 40
    return {"flower": flower, "color": color, "in_stock": stems > 5, "stems_available": stems}


@tool
def book_kennel_stay(pet_name: str, species: Literal["dog", "cat", "rabbit"], nights: int,
                     needs_medication: bool = False) -> dict:
    """Book a pet into the boarding kennels.

    Args:
        pet_name: The pet's name.
        species: What kind of animal the pet is.
        nights: How many nights the pet stays.
        needs_medication: Whether staff must give the pet medicine during the stay.
    """
    nightly = {"dog": 28.0, "cat": 18.0, "rabbit": 12.0}[species] + (4.0 if needs_medication else 0.0)
    return {"pet": pet_name, "species": species, "nights": nights, "total": nightly * nights}


@tool
def find_babysitter(area: str, children: int, hours: float, first_aid: bool = False) -> dict:
    """Find an available babysitter nearby.

    Args:
        area: The neighbourhood or district the family lives in.
        children: How many children need looking after.
        hours: How long the babysitter is needed, in hours.
        first_aid: Whether the sitter must hold a first-aid certificate.
    """
    rate = 12.0 + 2.0 * max(children - 1, 0) + (1.5 if first_aid else 0.0)
    return {"area": area, "sitters_found": 3 if first_aid else 5, "estimated_cost": round(rate * hours, 2)}


@tool
def match_tutor(subject: str, level: Literal["primary", "secondary", "university"], online: bool = False) -> dict:
    """Match a student with a private tutor.

    Args:
        subject: The subject the student needs help with.
        level: The student's stage of education.
        online: Whether lessons happen by video call rather than in person.
    """
    rate = {"primary": 25, "secondary": 35, "university": 45}[level] - (5 if online else 0)
    return {"subject": subject, "level": level, "online": online, "tutors": 4, "hourly_rate": rate}


@tool
def tutoring_package_price(hourly_rate: float, sessions: int, discount_percent: float = 0) -> dict:
    """Work out the price of a block of one-hour tutoring sessions.

    Args:
        hourly_rate: The tutor's price for one hour.
        sessions: How many one-hour sessions are booked.
        discount_percent: Percentage taken off the total, e.g. 10 for ten percent.
    """
    full = hourly_rate * sessions
    return {"full_price": full, "total": round(full * (1 - discount_percent / 100), 2)}


@tool
def quote_snow_clearing(driveway_length_m: float, sidewalk: bool = False, salt: bool = False) -> dict:
    """Quote for clearing snow from a driveway.

    Args:
        driveway_length_m: Length of the driveway in metres.
        sidewalk: Whether the public sidewalk (pavement) in front is cleared too.
        salt: Whether salt or grit is spread after clearing.
    """
    price = 20 + 1.5 * driveway_length_m + (15 if sidewalk else 0) + (10 if salt else 0)
    return {"length_m": driveway_length_m, "price": price}


@tool
def book_chimney_sweep(address: str, fuel: Literal["wood", "gas", "oil", "coal"], flues: int = 1) -> dict:
    """Book a chimney sweep visit.

    Args:
        address: Street address of the house.
        fuel: What the fireplace or stove burns.
        flues: How many flues need sweeping.
    """
    return {"address": address, "fuel": fuel, "flues": flues, "price": 65 + 35 * (flues - 1),
            "certificate": True}


@tool
def alarm_system_quote(rooms: int, door_sensors: int, monitored: bool = False, cameras: int = 0) -> dict:
    """Quote for installing a home alarm system.

    Args:
        rooms: How many rooms get a motion sensor.
        door_sensors: How many doors get a contact sensor.
        monitored: Whether the alarm is watched by a 24/7 monitoring centre.
        cameras: How many security cameras to add.
    """
    install = 150 + 40 * rooms + 25 * door_sensors + 90 * cameras
    return {"installation": install, "monthly_fee": 19.99 if monitored else 0.0}


@tool
def add_alarm_user(name: str, pin: str, expires_in_days: int | None = None) -> dict:
    """Add a person's code to the home alarm panel.

    Args:
        name: The person the code belongs to.
        pin: The numeric code they type on the keypad.
        expires_in_days: Days until the code stops working; None keeps it forever.
    """
    return {"user": name, "pin_digits": len(pin), "expires_in_days": expires_in_days, "added": True}


class Weekday(str, Enum):
    """A day of the week."""

    MONDAY = "monday"
    TUESDAY = "tuesday"
    WEDNESDAY = "wednesday"
    THURSDAY = "thursday"
    FRIDAY = "friday"
    SATURDAY = "saturday"
    SUNDAY = "sunday"


@tool
def find_farmers_markets(city: str, day: Weekday | None = None, organic_only: bool = False) -> dict:
    """List the farmers markets in a city.

    Args:
        city: The city to search.
        day: Only markets held on this day of the week, if given.
        organic_only: Whether to list only certified organic markets.
    """
    days = [day.value] if day else ["saturday", "sunday"]
    return {"city": city, "markets": [f"{city} {d.title()} Market" for d in days], "organic_only": organic_only}


@tool
def reserve_market_stall(vendor: str, size: Literal["single", "double"], products: list[str]) -> dict:
    """Reserve a stall at the farmers market.

    Args:
        vendor: The name of the business taking the stall.
        size: A single or a double pitch.
        products: What the vendor will sell.
    """
    return {"vendor": vendor, "size": size, "products": products, "fee": 30 if size == "single" else 55}


class MealTiming(str, Enum):
    """When a blood glucose reading was taken relative to food."""

    FASTING = "fasting"
    BEFORE_MEAL = "before_meal"
    AFTER_MEAL = "after_meal"
    BEDTIME = "bedtime"


@tool
def log_glucose_reading(value: float, timing: MealTiming, unit: Literal["mg/dL", "mmol/L"] = "mg/dL",
                        note: str | None = None) -> dict:
    """Add a blood glucose reading to the log.

    Args:
        value: The meter reading.
        timing: When the reading was taken relative to meals.
        unit: The unit the meter shows.
        note: Anything to remember about the reading.
    """
    mg_dl = value * 18.0 if unit == "mmol/L" else value
    return {"value": value, "unit": unit, "timing": timing.value, "in_range": 70 <= mg_dl <= 180, "note": note}


@tool
def average_glucose(readings: list[float], target_max: float | None = None) -> dict:
    """Average a list of blood glucose readings.

    Args:
        readings: The readings to average, all in the same unit.
        target_max: If given, also count how many readings are above this value.
    """
    result: dict = {"average": round(sum(readings) / len(readings), 2), "count": len(readings)}
    if target_max is not None:
        result["above_target"] = sum(r > target_max for r in readings)
    return result


@tool
def book_bike_service(bike: str, job: Literal["puncture", "brakes", "gears", "full_service"],
                      shop: str | None = None) -> dict:
    """Book a bike into a repair shop.

    Args:
        bike: The make or model of the bike.
        job: The kind of repair or service needed.
        shop: A particular repair shop, if the rider has one in mind.
    """
    price = {"puncture": 12, "brakes": 25, "gears": 30, "full_service": 75}[job]
    return {"bike": bike, "job": job, "shop": shop or "nearest shop", "price": price}


@tool
def bike_part_price(part: str, quantity: int = 1) -> dict:
    """Look up the price of a bike part.

    Args:
        part: The part's name or part number.
        quantity: How many are wanted.
    """
    unit = 4.5 + len(part) % 9 * 3
    return {"part": part, "unit_price": unit, "total": unit * quantity}


@tool
def reserve_desk(location: str, days: int, desk_type: Literal["hot_desk", "fixed_desk"] = "hot_desk",
                 monitor: bool = False) -> dict:
    """Reserve a desk at a coworking space.

    Args:
        location: The coworking site or neighbourhood.
        days: How many days the desk is needed.
        desk_type: A hot desk (any free seat) or a fixed desk of one's own.
        monitor: Whether an extra monitor is wanted at the desk.
    """
    daily = (18 if desk_type == "hot_desk" else 27) + (3 if monitor else 0)
    return {"location": location, "desk_type": desk_type, "days": days, "total": daily * days}


class Attendee(BaseModel):
    """The person being registered for the conference."""

    name: str = Field(description="The attendee's full name.")
    email: str = Field(description="The attendee's email address.")
    company: str | None = Field(default=None, description="Where the attendee works, if given.")


@tool
def register_attendee(attendee: Attendee, ticket: Literal["standard", "student", "vip"],
                      workshops: list[str] | None = None) -> dict:
    """Register someone for the conference.

    Args:
        attendee: Who is coming.
        ticket: The ticket type.
        workshops: Names of the optional workshops to sign up for.
    """
    price = {"standard": 299, "student": 99, "vip": 649}[ticket] + 40 * len(workshops or [])
    return {"badge_name": attendee.name, "email": attendee.email, "ticket": ticket, "price": price}


@tool
def special_order_book(title: str, author: str | None = None, copies: int = 1, hardback: bool = False) -> dict:
    """Order in a book the bookshop does not have on the shelf.

    Args:
        title: The book's title.
        author: The book's author, if known.
        copies: How many copies to order.
        hardback: Whether the hardback edition is wanted rather than the paperback.
    """
    return {"title": title, "author": author, "copies": copies, "edition": "hardback" if hardback else "paperback",
            "arrives_in_days": 5}


@tool
def choose_meal_kit(people: int, meals_per_week: int,
                    plan: Literal["classic", "vegetarian", "vegan", "low_carb"] = "classic") -> dict:
    """Choose a weekly meal kit subscription.

    Args:
        people: How many people each meal serves.
        meals_per_week: How many meals arrive each week.
        plan: The kind of menu.
    """
    per_serving = 5.5 if plan == "classic" else 6.0
    return {"plan": plan, "servings": people * meals_per_week, "weekly_price": per_serving * people * meals_per_week}


class CateringEvent(BaseModel):
    """The event to be catered."""

    guests: int = Field(description="How many guests are eating.")
    venue: str = Field(description="Where the event is held.")
    style: Literal["buffet", "plated", "canapes"] = Field(description="How the food is served.")


@tool
def quote_catering(event: CateringEvent, dietary: list[str] | None = None) -> dict:
    """Quote for catering an event.

    Args:
        event: The event's size, venue and service style.
        dietary: Dietary requirements the menu must cover, such as vegan or nut-free.
    """
    per_head = {"buffet": 22, "plated": 38, "canapes": 16}[event.style]
    return {"venue": event.venue, "guests": event.guests, "total": per_head * event.guests,
            "dietary": dietary or []}


@tool
def find_food_trucks(area: str, cuisine: str | None = None, open_now: bool = False) -> dict:
    """Find food trucks parked in an area.

    Args:
        area: The neighbourhood, district or landmark to search around.
        cuisine: The kind of food wanted, if any.
        open_now: Whether to list only trucks serving right now.
    """
    return {"area": area, "cuisine": cuisine, "trucks": 2 if open_now else 4}


@tool
def rent_tool(tool_name: str, days: int, delivery: bool = False) -> dict:
    """Hire a tool from the tool rental depot.

    Args:
        tool_name: The tool to hire.
        days: How many days it is hired for.
        delivery: Whether the depot delivers and collects it.
    """
    return {"tool": tool_name, "days": days, "price": 15 * days + (20 if delivery else 0), "deposit": 50}


@tool
def quote_storage_unit(size_sq_ft: int, months: int = 1, climate_controlled: bool = False) -> dict:
    """Quote for renting a self-storage unit.

    Args:
        size_sq_ft: Floor area of the unit in square feet.
        months: How many months it is rented for.
        climate_controlled: Whether the unit is heated and humidity-controlled.
    """
    monthly = size_sq_ft * (1.6 if climate_controlled else 1.2)
    return {"size_sq_ft": size_sq_ft, "monthly": round(monthly, 2), "total": round(monthly * months, 2)}


@tool
def quote_window_cleaning(windows: int, storeys: int = 1, inside: bool = False) -> dict:
    """Quote for cleaning a house's windows.

    Args:
        windows: How many windows the house has.
        storeys: How many storeys (floors) the house has.
        inside: Whether the insides are cleaned as well as the outsides.
    """
    per_window = 2.0 + 0.5 * (storeys - 1)
    return {"windows": windows, "price": round(windows * per_window * (1.8 if inside else 1.0), 2)}


@tool
def book_piano_tuning(piano: Literal["upright", "baby_grand", "grand"], postcode: str,
                      pitch_raise: bool = False) -> dict:
    """Book a piano tuner's visit.

    Args:
        piano: The kind of piano.
        postcode: Postcode where the piano is.
        pitch_raise: Whether the piano is badly flat and needs a pitch raise before fine tuning.
    """
    price = {"upright": 70, "baby_grand": 85, "grand": 95}[piano] + (40 if pitch_raise else 0)
    return {"piano": piano, "postcode": postcode, "price": price}


@tool
def enroll_pottery_class(student: str, course: Literal["wheel", "handbuilding", "glazing"], sessions: int = 6,
                         evening: bool = False) -> dict:
    """Enrol a student in a pottery course.

    Args:
        student: The student's full name.
        course: Wheel throwing, hand-building or glazing.
        sessions: How many weekly sessions to book.
        evening: Whether the student takes the evening class rather than the daytime one.
    """
    return {"student": student, "course": course, "sessions": sessions, "slot": "evening" if evening else "day",
            "fee": 32 * sessions}


@tool
def hire_party_item(item: str, hours: int, postcode: str, setup: bool = False) -> dict:
    """Hire party equipment such as a bouncy castle or a photo booth.

    Args:
        item: What to hire.
        hours: How many hours it is needed.
        postcode: Postcode of the party.
        setup: Whether our crew sets it up and takes it down.
    """
    return {"item": item, "hours": hours, "postcode": postcode, "price": 45 * hours + (30 if setup else 0)}


@tool
def mix_paint(colour_code: str, litres: float, finish: Literal["matt", "eggshell", "satin", "gloss"] = "matt") -> dict:
    """Mix a paint colour to order.

    Args:
        colour_code: The colour's code from a colour chart.
        litres: How much paint to mix, in litres.
        finish: The sheen of the paint.
    """
    return {"colour_code": colour_code, "litres": litres, "finish": finish, "price": round(litres * 11.5, 2)}


@tool
def cut_keys(key_code: str, copies: int, laser_cut: bool = False) -> dict:
    """Cut copies of a key.

    Args:
        key_code: The blank's code stamped on the key.
        copies: How many copies to cut.
        laser_cut: Whether the key has a laser-cut (dimpled or track) profile.
    """
    return {"key_code": key_code, "copies": copies, "price": copies * (18.0 if laser_cut else 4.5)}


CASES = (
    ask(order_bouquet,
        "can i get 15 peonies sent to Margaret Holt? card should say Happy 80th Gran, and yes please deliver",
        {"flower": "peonies", "stems": 15, "recipient": "Margaret Holt", "card_message": "Happy 80th Gran",
         "deliver": True}),
    decline(order_bouquet, "I'd like a bouquet of tulips for my sister Jo, could you deliver it on Friday?", "stems"),
    ask(check_flower_stock, "do you have any ranunculus or anemones in at the moment?",
        {"flower": "ranunculus"}, {"flower": "anemones"}),
    ask(check_flower_stock, "你们店里还有白色的百合吗?",  # "Do you still have white lilies in the shop?"
        {"flower": "百合", "color": "白色"}),
    ask(book_kennel_stay,
        "Need to board our cat Biscuit for 5 nights while we're away. She's on thyroid tablets twice a day",
        {"pet_name": "Biscuit", "species": "cat", "nights": 5, "needs_medication": True}),
    decline(book_kennel_stay, "book a kennel for Rufus, our spaniel, sometime next week pls", "nights"),
    ask(find_babysitter, "looking for a sitter in Headingley sat night, 3 kids, about 4.5 hours. MUST have first aid",
        {"area": "Headingley", "children": 3, "hours": 4.5, "first_aid": True}),
    ask(find_babysitter,
        "我需要在浦东找个保姆照看两个孩子,大概三个小时",  # "I need a babysitter in Pudong to watch two kids for about three hours"
        {"area": "浦东", "children": 2, "hours": 3}),
    ask(match_tutor, "my son's in year 10 and really struggling with chemistry, any tutors who can do it over zoom?",
        {"subject": "chemistry", "level": "secondary", "online": True}),
    decline(match_tutor, "Can you find my daughter a tutor? She's in year 4 at primary school", "subject"),
    ask(tutoring_package_price,
        "She charges £35 an hour and said she'd knock 10% off if I book 10 sessions up front. What would that come to?",
        {"hourly_rate": 35, "sessions": 10, "discount_percent": 10}),
    ask(tutoring_package_price, "what would 6 sessions cost at 42.50/hr", {"hourly_rate": 42.5, "sessions": 6}),
    ask(quote_snow_clearing, "quote for clearing a 12 metre driveway plus the pavement out front, no salt needed",
        {"driveway_length_m": 12, "sidewalk": True, "salt": False}),
    ask(quote_snow_clearing,
        "帮我估个价,清理二十米长的车道上的雪,顺便撒盐",  # "Quote me for clearing snow off a twenty-metre driveway, and spread salt too"
        {"driveway_length_m": 20, "salt": True}),
    ask(book_chimney_sweep,
        "We've got two wood burners on separate flues at 14 Mill Lane, can someone come and sweep them?",
        {"address": "14 Mill Lane", "fuel": "wood", "flues": 2}),
    decline(book_chimney_sweep, "need my chimney swept asap, it's an open coal fire with 2 flues", "address"),
    ask(alarm_system_quote,
        "ballpark price for an alarm in a 6-room house with 3 doors? I'd want the 24/7 monitoring too",
        {"rooms": 6, "door_sensors": 3, "monitored": True}),
    ask(alarm_system_quote, "quote: 4 rooms, 2 door contacts, 2 cameras, no monitoring contract",
        {"rooms": 4, "door_sensors": 2, "cameras": 2, "monitored": False}),
    ask(add_alarm_user, "add a code for our house sitter Rosa, 4827, it should stop working after 30 days",
        {"name": "Rosa", "pin": "4827", "expires_in_days": 30}),
    decline(add_alarm_user, "set up a new alarm code for my nephew Tom", "pin"),
    ask(find_farmers_markets, "any farmers markets on a sunday in Bath or Bristol?",
        {"city": "Bath", "day": "sunday"}, {"city": "Bristol", "day": "sunday"}),
    ask(find_farmers_markets, "成都周六有没有有机农贸市场?",  # "Is there an organic farmers market in Chengdu on Saturday?"
        {"city": "成都", "day": "saturday", "organic_only": True}),
    ask(reserve_market_stall, "Book a double pitch for Greenacre Farm, we'll be selling eggs, apple juice and jam",
        {"vendor": "Greenacre Farm", "size": "double", "products": ["eggs", "apple juice", "jam"]}),
    decline(reserve_market_stall, "I want a single stall at the market this month to sell my veg and herbs", "vendor"),
    ask(log_glucose_reading, "log 5.8 fasting this morning and 9.1 two hours after lunch, both mmol",
        {"value": 5.8, "timing": "fasting", "unit": "mmol/L"},
        {"value": 9.1, "timing": "after_meal", "unit": "mmol/L"}),
    ask(log_glucose_reading, "记录一下睡前血糖 132",  # "Log my bedtime blood sugar: 132"
        {"value": 132, "timing": "bedtime"}),
    ask(average_glucose, "what's my average from these: 104, 98, 131, 117", {"readings": [104, 98, 131, 117]}),
    ask(average_glucose, "avg of 6.2, 7.4 and 5.9? and how many of those were over 7",
        {"readings": [6.2, 7.4, 5.9], "target_max": 7}),
    ask(book_bike_service, "my Brompton's gears keep slipping, can I get it in at Spokes & Co?",
        {"bike": "Brompton", "job": "gears", "shop": "Spokes & Co"}),
    decline(book_bike_service, "can you book my Trek in at Pedal Palace sometime this week?", "job"),
    ask(bike_part_price, "how much is a 700x28c inner tube?", {"part": "700x28c inner tube"}),
    ask(bike_part_price, "need 2 x CN-HG601, what's the damage?", {"part": "CN-HG601", "quantity": 2}),
    ask(reserve_desk, "hot desk in Shoreditch for 3 days please, and I need a second screen",
        {"location": "Shoreditch", "days": 3, "desk_type": "hot_desk", "monitor": True}),
    ask(reserve_desk, "我想在静安订一个固定工位,用十天",  # "I'd like to book a fixed desk in Jing'an for ten days"
        {"location": "静安", "days": 10, "desk_type": "fixed_desk"}),
    ask(register_attendee,
        'Please register Priya Nair (priya.nair@lumen.io, she works at Lumen) on a VIP pass and sign her up for the '
        '"Intro to Rust" and "Property Testing" workshops',
        {"attendee": {"name": "Priya Nair", "email": "priya.nair@lumen.io", "company": "Lumen"}, "ticket": "vip",
         "workshops": ["Intro to Rust", "Property Testing"]}),
    decline(register_attendee, "register Sam Ortiz, sam@ortiz.dev, for the conference", "ticket"),
    ask(special_order_book, "can you order in The Overstory by Richard Powers? hardback if poss",
        {"title": "The Overstory", "author": "Richard Powers", "hardback": True}),
    ask(special_order_book, "I need 2 copies each of Piranesi and Klara and the Sun for my book club",
        {"title": "Piranesi", "copies": 2}, {"title": "Klara and the Sun", "copies": 2}),
    ask(choose_meal_kit, "we're a family of 4, want 3 dinners a week, all veggie",
        {"people": 4, "meals_per_week": 3, "plan": "vegetarian"}),
    ask(choose_meal_kit, "两个人,每周五顿,要纯素的",  # "Two people, five meals a week, vegan"
        {"people": 2, "meals_per_week": 5, "plan": "vegan"}),
    ask(quote_catering,
        "catering quote for 80 guests at Ashworth Hall, buffet style. We'll need gluten-free and halal options",
        {"event": {"guests": 80, "venue": "Ashworth Hall", "style": "buffet"}, "dietary": ["gluten-free", "halal"]}),
    ask(quote_catering, "what would a plated dinner for 45 people at Rowan House cost us?",
        {"event": {"guests": 45, "venue": "Rowan House", "style": "plated"}}),
    ask(find_food_trucks, "which food trucks are open right now near Union Square and Dolores Park?",
        {"area": "Union Square", "open_now": True}, {"area": "Dolores Park", "open_now": True}),
    ask(find_food_trucks, "南山区有卖烧烤的餐车吗?",  # "Are there any food trucks selling barbecue in Nanshan District?"
        {"area": "南山区", "cuisine": "烧烤"}),
    ask(rent_tool, "I need a tile cutter and a wet vac for 2 days this weekend, can you drop them off?",
        {"tool_name": "tile cutter", "days": 2, "delivery": True},
        {"tool_name": "wet vac", "days": 2, "delivery": True}),
    decline(rent_tool, "how much to rent a post hole digger?", "days"),
    ask(quote_storage_unit, "price for a 50 sq ft unit for 6 months? doesn't need to be climate controlled",
        {"size_sq_ft": 50, "months": 6, "climate_controlled": False}),
    ask(quote_storage_unit, "How much is a 100 square foot climate-controlled unit?",
        {"size_sq_ft": 100, "climate_controlled": True}),
    ask(quote_window_cleaning, "3 storey townhouse, 22 windows, outside only",
        {"windows": 22, "storeys": 3, "inside": False}),
    decline(quote_window_cleaning, "how much to do the windows inside and out on my 2-storey semi?", "windows"),
    ask(book_piano_tuning,
        "Our old upright hasn't been tuned in like 5 years so it probably needs a pitch raise. We're in LS6 2QR",
        {"piano": "upright", "postcode": "LS6 2QR", "pitch_raise": True}),
    ask(book_piano_tuning, "baby grand tuning at BS8 1TH please", {"piano": "baby_grand", "postcode": "BS8 1TH"}),
    ask(enroll_pottery_class, "put Hannah Cole down for the wheel throwing course, evenings",
        {"student": "Hannah Cole", "course": "wheel", "evening": True}),
    ask(enroll_pottery_class, "enrol Marcus Webb in hand-building, just 4 sessions",
        {"student": "Marcus Webb", "course": "handbuilding", "sessions": 4}),
    ask(hire_party_item, "bouncy castle for 5 hours at M20 4PQ, we'll set it up ourselves",
        {"item": "bouncy castle", "hours": 5, "postcode": "M20 4PQ", "setup": False}),
    ask(hire_party_item,
        "Need a photo booth for my sister's wedding, 4 hrs, venue postcode is EH3 9DR. Can your team set it up?",
        {"item": "photo booth", "hours": 4, "postcode": "EH3 9DR", "setup": True}),
    ask(mix_paint, "can you mix 2.5 litres of RAL 7016 in satin",
        {"colour_code": "RAL 7016", "litres": 2.5, "finish": "satin"}),
    ask(mix_paint, "5 litres of SW 6244 please", {"colour_code": "SW 6244", "litres": 5}),
    ask(cut_keys, "my key says UL050 on it, can I get 3 copies?", {"key_code": "UL050", "copies": 3}),
    ask(cut_keys, "2 spares of a key stamped ASSA 700, it's one of the laser cut ones",
        {"key_code": "ASSA 700", "copies": 2, "laser_cut": True}),
)
