"""Held-out set E: 30 learner-style tools and 60 plain questions for the offline model.

Written blind (without reading the offline model's rules or the other sets) and
never edited after measuring, so it shows how the model does on tools it was not
written for. Domains: luggage storage, aquariums, beekeeping, camping, cars,
running, skiing, tailoring, meters, visas, warehouses, yachts, zoos, solar panels,
water and sleep tracking, board games, weddings, calories, kindergartens, movers,
hair salons, karaoke, fishing and genealogy. Chinese questions carry an English gloss.
"""

from enum import Enum
from typing import Literal

from pydantic import BaseModel

from conductor.course.offline_suite import ask, decline
from conductor.tools import tool

# -- luggage storage --------------------------------------------------------------------


@tool
def store_luggage(location: str, bags: int, hours: int, oversized: bool = False) -> dict:
    """Reserve luggage storage near a station or landmark.

    Args:
        location: Where to store the bags, e.g. a station name.
        bags: How many bags to store.
        hours: How long to store them, in hours.
        oversized: Whether any bag is oversized (bike boxes, skis).
    """
    rate = 8.0 if oversized else 5.0
    return {"location": location, "bags": bags, "hours": hours, "price_eur": round(bags * rate + hours * 0.5, 2)}


# -- aquarium water testing -------------------------------------------------------------


@tool
def test_aquarium_water(
    ph: float,
    ammonia_ppm: float,
    nitrate_ppm: float | None = None,
    tank: Literal["freshwater", "saltwater", "brackish"] = "freshwater",
) -> dict:
    """Judge an aquarium's water test results.

    Args:
        ph: The measured pH.
        ammonia_ppm: The measured ammonia, in ppm.
        nitrate_ppm: The measured nitrate, in ppm, if tested.
        tank: The kind of water the tank holds.
    """
    ph_range = (7.8, 8.5) if tank == "saltwater" else (6.5, 7.8)
    problems = []
    if not ph_range[0] <= ph <= ph_range[1]:
        problems.append("pH out of range")
    if ammonia_ppm > 0.25:
        problems.append("ammonia too high")
    if nitrate_ppm is not None and nitrate_ppm > 40:
        problems.append("nitrate too high")
    return {"tank": tank, "ok": not problems, "problems": problems}


# -- beekeeping -------------------------------------------------------------------------


@tool
def log_hive_inspection(hive: str, brood_frames: int, queen_spotted: bool, notes: str | None = None) -> dict:
    """Record one beehive inspection.

    Args:
        hive: The hive's name or label.
        brood_frames: How many frames hold brood.
        queen_spotted: Whether the queen was seen.
        notes: Anything else worth remembering about the inspection.
    """
    strong = brood_frames >= 6 and queen_spotted
    return {"hive": hive, "brood_frames": brood_frames, "queen_spotted": queen_spotted,
            "colony": "strong" if strong else "check again", "notes": notes or ""}


@tool
def estimate_honey_yield(supers: int, frames_per_super: int = 10, capped_percent: float = 100) -> dict:
    """Estimate how much honey a hive's supers will give.

    Args:
        supers: How many honey supers are on the hive.
        frames_per_super: Frames in each super.
        capped_percent: Share of the cells that are capped, in percent (0-100).
    """
    kilograms = supers * frames_per_super * 2.5 * capped_percent / 100
    return {"supers": supers, "honey_kg": round(kilograms, 1)}


# -- camping permits --------------------------------------------------------------------


@tool
def request_camping_permit(park: str, nights: int, group_size: int, campfire: bool = False) -> dict:
    """Request a camping permit for a park.

    Args:
        park: The national or state park to camp in.
        nights: How many nights to camp.
        group_size: How many people are in the group.
        campfire: Whether the group wants a campfire permit too.
    """
    fee = 10 * nights + 2 * group_size + (15 if campfire else 0)
    return {"park": park, "nights": nights, "group_size": group_size, "campfire": campfire, "fee_usd": fee}


# -- car maintenance --------------------------------------------------------------------


@tool
def oil_change_due(
    current_km: int,
    last_change_km: int,
    oil: Literal["conventional", "synthetic", "high-mileage"] = "conventional",
) -> dict:
    """Tell whether a car is due for an oil change.

    Args:
        current_km: The odometer reading now, in kilometres.
        last_change_km: The odometer reading at the last oil change, in kilometres.
        oil: The kind of engine oil used.
    """
    interval = {"conventional": 5000, "synthetic": 12000, "high-mileage": 8000}[oil]
    next_change = last_change_km + interval
    km_left = max(0, next_change - current_km)
    return {"due": current_km >= next_change, "next_change_km": next_change, "km_left": km_left}


@tool
def tire_pressure(car_model: str, year: int | None = None, loaded: bool = False) -> dict:
    """Look up the recommended tire pressure for a car.

    Args:
        car_model: The car's make and model, e.g. "Mazda 3".
        year: The model year, if known.
        loaded: Whether the car is fully loaded (passengers and luggage).
    """
    base = 33 + len(car_model) % 4
    return {"car_model": car_model, "year": year, "front_psi": base + (3 if loaded else 0),
            "rear_psi": base + (5 if loaded else 0)}


# -- marathon pace ----------------------------------------------------------------------


@tool
def race_pace(hours: int = 0, minutes: int = 0, distance_km: float = 42.195) -> dict:
    """Work out the pace per kilometre needed to finish a race in a goal time.

    Args:
        hours: Hours part of the goal finish time.
        minutes: Minutes part of the goal finish time (0-59).
        distance_km: The race distance in kilometres (a marathon by default).
    """
    seconds_per_km = (hours * 3600 + minutes * 60) / distance_km
    return {"pace_per_km": f"{int(seconds_per_km // 60)}:{int(seconds_per_km % 60):02d}", "distance_km": distance_km}


# -- ski passes -------------------------------------------------------------------------


@tool
def ski_pass_price(
    resort: str,
    days: int,
    age_group: Literal["child", "adult", "senior"] = "adult",
    with_rental: bool = False,
) -> dict:
    """Price a multi-day ski pass at a resort.

    Args:
        resort: The ski resort.
        days: How many days the pass covers.
        age_group: The skier's age group.
        with_rental: Whether to add ski or snowboard equipment rental.
    """
    daily = {"child": 35, "adult": 60, "senior": 45}[age_group] + (30 if with_rental else 0)
    return {"resort": resort, "days": days, "age_group": age_group, "price_eur": daily * days}


# -- tailoring measurements -------------------------------------------------------------


class SuitMeasurements(BaseModel):
    """A customer's body measurements for a suit."""

    chest_cm: float
    waist_cm: float
    inseam_cm: float | None = None


@tool
def order_tailored_suit(
    customer: str, measurements: SuitMeasurements, fabric: str = "wool", rush: bool = False
) -> dict:
    """Place an order for a made-to-measure suit.

    Args:
        customer: The customer's name.
        measurements: The customer's chest, waist and (optionally) inseam in centimetres.
        fabric: The suit fabric.
        rush: Whether the order should be rushed.
    """
    weeks = 2 if rush else 5
    jacket_size = round(measurements.chest_cm / 2)
    return {"customer": customer, "fabric": fabric, "jacket_size": jacket_size, "ready_in_weeks": weeks}


# -- utility meter readings -------------------------------------------------------------


@tool
def submit_meter_reading(account: str, reading: int, meter: Literal["electricity", "gas", "water"]) -> dict:
    """Submit a utility meter reading for an account.

    Args:
        account: The customer's account number.
        reading: The number shown on the meter.
        meter: Which meter the reading is from.
    """
    return {"account": account, "meter": meter, "reading": reading, "accepted": reading >= 0}


# -- visa applications ------------------------------------------------------------------


@tool
def visa_requirements(
    passport_country: str,
    destination: str,
    purpose: Literal["tourism", "business", "study", "work"] = "tourism",
    stay_days: int | None = None,
) -> dict:
    """Check whether a traveller needs a visa for a trip.

    Args:
        passport_country: The country that issued the traveller's passport.
        destination: The country the traveller is going to.
        purpose: Why the traveller is going.
        stay_days: How many days the stay lasts, if known.
    """
    needs_visa = purpose in ("study", "work") or (stay_days or 0) > 90 or len(passport_country + destination) % 2 == 0
    return {"destination": destination, "purpose": purpose, "visa_required": needs_visa}


@tool
def visa_application_status(application_number: str) -> dict:
    """Look up the processing status of a visa application.

    Args:
        application_number: The reference number printed on the application receipt.
    """
    stages = ("received", "in review", "approved")
    return {"application_number": application_number, "status": stages[sum(map(ord, application_number)) % 3]}


# -- warehouse inventory ----------------------------------------------------------------


@tool
def stock_level(sku: str, warehouse: str | None = None) -> dict:
    """Count the units of a product in stock.

    Args:
        sku: The product's stock-keeping unit code.
        warehouse: Only count this warehouse (all warehouses when left out).
    """
    return {"sku": sku, "warehouse": warehouse or "all", "units": sum(map(ord, sku)) % 500}


@tool
def transfer_stock(sku: str, quantity: int, from_warehouse: str, to_warehouse: str) -> dict:
    """Move units of a product from one warehouse to another.

    Args:
        sku: The product's stock-keeping unit code.
        quantity: How many units to move.
        from_warehouse: The warehouse the units leave.
        to_warehouse: The warehouse the units go to.
    """
    return {"sku": sku, "quantity": quantity, "route": f"{from_warehouse} -> {to_warehouse}", "scheduled": True}


# -- yacht charter ----------------------------------------------------------------------


@tool
def quote_yacht_charter(marina: str, days: int, guests: int, skipper: bool = True, catamaran: bool = False) -> dict:
    """Quote the price of chartering a yacht.

    Args:
        marina: The marina the charter starts from.
        days: How many days the charter lasts.
        guests: How many people will be on board.
        skipper: Whether to hire a professional skipper.
        catamaran: Whether to charter a catamaran instead of a monohull.
    """
    daily = (650 if catamaran else 420) + (180 if skipper else 0) + 15 * guests
    return {"marina": marina, "days": days, "price_eur": daily * days}


# -- zoo feeding schedules --------------------------------------------------------------


@tool
def zoo_feeding_times(animal: str, day: str | None = None) -> dict:
    """List the public feeding times for an animal at the zoo.

    Args:
        animal: The animal, e.g. "giraffe".
        day: The day of the week (today when left out).
    """
    hour = 10 + len(animal) % 5
    return {"animal": animal, "day": day or "today", "times": [f"{hour}:00", f"{hour + 4}:30"]}


# -- solar panel output -----------------------------------------------------------------


@tool
def solar_output(panels: int, watts_per_panel: float, sun_hours: float, loss_percent: float = 14) -> dict:
    """Estimate the daily energy a solar array produces.

    Args:
        panels: How many panels are installed.
        watts_per_panel: Each panel's rated power in watts.
        sun_hours: Peak sun hours per day.
        loss_percent: System losses (wiring, inverter, dust) in percent.
    """
    kilowatt_hours = panels * watts_per_panel * sun_hours * (1 - loss_percent / 100) / 1000
    return {"daily_kwh": round(kilowatt_hours, 2)}


# -- water intake tracking --------------------------------------------------------------


@tool
def log_water(millilitres: int, drink: str = "water") -> dict:
    """Add a drink to today's water intake log.

    Args:
        millilitres: How much was drunk, in millilitres.
        drink: What was drunk.
    """
    return {"logged_ml": millilitres, "drink": drink, "goal_ml": 2000, "left_ml": max(0, 2000 - millilitres)}


# -- sleep tracking ---------------------------------------------------------------------


@tool
def log_sleep(hours: float, quality: int, woke_up_at_night: bool = False, bedtime: str | None = None) -> dict:
    """Record last night's sleep.

    Args:
        hours: How long the user slept, in hours.
        quality: How well they slept, from 1 (awful) to 5 (great).
        woke_up_at_night: Whether they woke up during the night.
        bedtime: When they went to bed, if given.
    """
    score = min(100, round(hours * 10 + quality * 6 - (10 if woke_up_at_night else 0)))
    return {"hours": hours, "quality": quality, "sleep_score": score, "bedtime": bedtime}


@tool
def sleep_debt(nightly_hours: list[float], target_hours: float = 8) -> dict:
    """Add up the sleep missed over several nights.

    Args:
        nightly_hours: Hours slept on each night.
        target_hours: Hours of sleep needed per night.
    """
    debt = sum(max(0.0, target_hours - hours) for hours in nightly_hours)
    return {"nights": len(nightly_hours), "debt_hours": round(debt, 2)}


# -- board game rentals -----------------------------------------------------------------


@tool
def rent_board_games(titles: list[str], days: int = 3, deliver: bool = False) -> dict:
    """Rent board games from the game library.

    Args:
        titles: The games to rent.
        days: How many days to keep them.
        deliver: Whether to have the games delivered.
    """
    price = 2.5 * len(titles) * days + (6 if deliver else 0)
    return {"titles": titles, "days": days, "price_eur": price}


# -- wedding venues ---------------------------------------------------------------------


@tool
def search_wedding_venues(city: str, guests: int, outdoor: bool = False, max_budget: float | None = None) -> dict:
    """Find wedding venues that fit a party.

    Args:
        city: The city or region to search.
        guests: How many guests are invited.
        outdoor: Whether the ceremony should be outdoors.
        max_budget: The most the couple will spend on the venue, in dollars.
    """
    capacity = max(guests, 50)
    venues = [f"{city} {kind}" for kind in (("Garden", "Vineyard") if outdoor else ("Hall", "Manor"))]
    return {"venues": venues, "min_capacity": capacity, "max_budget": max_budget}


# -- calorie burn -----------------------------------------------------------------------


@tool
def calories_burned(activity: str, minutes: int, weight_kg: float) -> dict:
    """Estimate the calories burned by an activity.

    Args:
        activity: The exercise, e.g. "running".
        minutes: How long it lasted, in minutes.
        weight_kg: The person's body weight in kilograms.
    """
    met = {"running": 9.8, "swimming": 7.0, "cycling": 7.5, "rowing": 7.0, "walking": 3.5}.get(activity.lower(), 5.0)
    return {"activity": activity, "kcal": round(met * weight_kg * minutes / 60)}


# -- kindergarten enrollment ------------------------------------------------------------


class Child(BaseModel):
    """A child to enroll."""

    name: str
    birth_year: int


@tool
def enroll_in_kindergarten(child: Child, school: str, half_day: bool = False) -> dict:
    """Send a kindergarten enrollment application.

    Args:
        child: The child's name and birth year.
        school: The kindergarten to apply to.
        half_day: Whether the child should attend half days only.
    """
    return {"child": child.name, "school": school, "schedule": "half day" if half_day else "full day",
            "status": "application received"}


# -- moving company quotes --------------------------------------------------------------


@tool
def moving_quote(origin: str, destination: str, bedrooms: int, packing: bool = False) -> dict:
    """Get a quote for a house move.

    Args:
        origin: The town or city moving from.
        destination: The town or city moving to.
        bedrooms: How many bedrooms the home has.
        packing: Whether the movers should pack everything too.
    """
    price = 600 + 350 * bedrooms + (250 * bedrooms if packing else 0)
    return {"origin": origin, "destination": destination, "price_gbp": price}


# -- hair salon bookings ----------------------------------------------------------------


class SalonService(str, Enum):
    """The services the salon offers."""

    CUT = "cut"
    COLOUR = "colour"
    BLOW_DRY = "blow-dry"


@tool
def book_salon(service: SalonService, day: str, time: str, stylist: str | None = None) -> dict:
    """Book an appointment at the hair salon.

    Args:
        service: The service wanted.
        day: The day of the week, e.g. "Monday".
        time: The start time in 24-hour HH:MM.
        stylist: A particular stylist, if asked for.
    """
    return {"service": service.value, "day": day, "time": time, "stylist": stylist or "first available"}


# -- karaoke rooms ----------------------------------------------------------------------


@tool
def reserve_karaoke_room(people: int, hours: int, start_time: str, drinks_package: bool = False) -> dict:
    """Reserve a private karaoke room.

    Args:
        people: How many people are coming.
        hours: How many hours to book.
        start_time: When the booking starts, 24-hour HH:MM.
        drinks_package: Whether to add the unlimited soft-drinks package.
    """
    room = "small" if people <= 4 else "medium" if people <= 10 else "large"
    return {"room": room, "start_time": start_time, "hours": hours, "drinks_package": drinks_package}


# -- fishing licenses -------------------------------------------------------------------


@tool
def buy_fishing_license(
    state: str,
    duration: Literal["day", "week", "year"],
    resident: bool = False,
    trout_stamp: bool = False,
) -> dict:
    """Buy a recreational fishing license.

    Args:
        state: The US state the license is for.
        duration: How long the license lasts.
        resident: Whether the angler lives in that state.
        trout_stamp: Whether to add a trout stamp.
    """
    base = {"day": 12, "week": 30, "year": 45}[duration] * (1 if resident else 2)
    return {"state": state, "duration": duration, "price_usd": base + (10 if trout_stamp else 0)}


# -- genealogy records ------------------------------------------------------------------


@tool
def search_genealogy(
    surname: str,
    given_name: str | None = None,
    birth_year: int | None = None,
    place: str | None = None,
) -> dict:
    """Search birth, marriage and census records for a family name.

    Args:
        surname: The family name to look for.
        given_name: The person's first name, if known.
        birth_year: The year the person was born, if known.
        place: The town, county or region the records come from.
    """
    found = 3 + len(surname) + (0 if given_name is None else -2) + (0 if birth_year is None else -1)
    return {"surname": surname, "place": place, "records_found": max(0, found)}


CASES = (
    ask(store_luggage, "Can I leave 2 bags at Kings Cross for 4 hours? one's a bike box so it's oversized",
        {"location": "Kings Cross", "bags": 2, "hours": 4, "oversized": True}),
    decline(store_luggage, "need to stash my backpack at the Union Station lockers, how much?", "hours"),
    ask(test_aquarium_water, "reef tank readings today: pH 8.1, ammonia 0, nitrate 5 ppm. all good?",
        {"ph": 8.1, "ammonia_ppm": 0, "nitrate_ppm": 5, "tank": "saltwater"}, aliases={"saltwater": "reef"}),
    ask(test_aquarium_water, "我的淡水鱼缸pH是7.2,氨0.5ppm,正常吗?",  # "My freshwater tank: pH 7.2, ammonia 0.5 ppm, normal?"
        {"ph": 7.2, "ammonia_ppm": 0.5, "tank": "freshwater"}),
    decline(test_aquarium_water, "ammonia's reading 0.25 in my goldfish tank, should I worry?", "ph"),
    ask(log_hive_inspection, "Log hive B3: 6 frames of brood, didn't see the queen. note: signs of chalkbrood",
        {"hive": "B3", "brood_frames": 6, "queen_spotted": False, "notes": "signs of chalkbrood"}),
    ask(log_hive_inspection, "Inspected the Alpha hive this morning, 9 frames of brood and the queen was there",
        {"hive": "Alpha", "brood_frames": 9, "queen_spotted": True}),
    ask(estimate_honey_yield, "How much honey would I get from 3 supers of 8 frames each, roughly 80% capped?",
        {"supers": 3, "frames_per_super": 8, "capped_percent": 80}),
    ask(estimate_honey_yield, "4 supers on the hive, what kind of yield am I looking at?", {"supers": 4}),
    ask(request_camping_permit, "we're 4 people wanting to camp 2 nights in Yosemite, and we'd like to have a campfire",
        {"park": "Yosemite", "nights": 2, "group_size": 4, "campfire": True}),
    decline(request_camping_permit, "Need a backcountry permit for 3 nights, just me and my brother", "park"),
    ask(oil_change_due, "odometer says 48,200 km, last oil change was at 41,000. I use full synthetic. am I due?",
        {"current_km": 48200, "last_change_km": 41000, "oil": "synthetic"}),
    decline(oil_change_due, "My last oil change was at 60,000 km, when is the next one due?", "current_km"),
    ask(tire_pressure, "what should the tyre pressure be on a 2019 Honda Civic?",
        {"car_model": "Honda Civic", "year": 2019}),
    ask(tire_pressure, "tire pressure for a Toyota Corolla when it's fully loaded?",
        {"car_model": "Toyota Corolla", "loaded": True}),
    ask(race_pace, "what pace do I need to run a 3:45 marathon?", {"hours": 3, "minutes": 45}),
    ask(race_pace, "I want to run a 10k in 55 minutes, what pace is that per km", {"minutes": 55, "distance_km": 10}),
    ask(ski_pass_price, "how much is a 3-day pass at Whistler vs Zermatt for my 10 year old?",
        {"resort": "Whistler", "days": 3, "age_group": "child"},
        {"resort": "Zermatt", "days": 3, "age_group": "child"}, aliases={"child": "10 year old"}),
    ask(ski_pass_price, "senior 6-day pass in Verbier, with equipment rental pls",
        {"resort": "Verbier", "days": 6, "age_group": "senior", "with_rental": True}),
    ask(order_tailored_suit,
        "Please put in a suit order for Daniel Okafor — chest 102 cm, waist 86, inseam 81. linen please",
        {"customer": "Daniel Okafor", "measurements": {"chest_cm": 102, "waist_cm": 86, "inseam_cm": 81},
         "fabric": "linen"}),
    # "Order a suit for Wang Lei, chest 98 cm, waist 80 cm, rush it."
    ask(order_tailored_suit, "给王磊定做一套西装,胸围98厘米,腰围80厘米,要加急。",
        {"customer": "王磊", "measurements": {"chest_cm": 98, "waist_cm": 80}, "rush": True}),
    ask(submit_meter_reading, "gas meter reads 4521 today, account 88-1234-567",
        {"account": "88-1234-567", "reading": 4521, "meter": "gas"}),
    decline(submit_meter_reading, "submit my electricity reading: 23817", "account"),
    ask(submit_meter_reading, "水表读数是356,账号A77821,帮我提交一下。",  # "Water meter reads 356, account A77821, please submit it."
        {"account": "A77821", "reading": 356, "meter": "water"}, aliases={"water": "水表"}),
    ask(visa_requirements,
        "I'm travelling on a passport from India — do I need a visa for Japan and Thailand? it's a 10 day holiday",
        {"passport_country": "India", "destination": "Japan", "purpose": "tourism", "stay_days": 10},
        {"passport_country": "India", "destination": "Thailand", "purpose": "tourism", "stay_days": 10}),
    ask(visa_requirements, "I'm a citizen of Canada heading to Germany for a master's degree — what visa do I need?",
        {"passport_country": "Canada", "destination": "Germany", "purpose": "study"},
        aliases={"study": "degree"}),
    ask(visa_application_status, "what's the status of visa application VA-20931?", {"application_number": "VA-20931"}),
    decline(visa_application_status, "Any update on my visa application? I applied 3 weeks ago", "application_number"),
    ask(stock_level, "how many of SKU 44-RED and 44-BLU have we got in Leeds?",
        {"sku": "44-RED", "warehouse": "Leeds"}, {"sku": "44-BLU", "warehouse": "Leeds"}),
    ask(stock_level, "查一下仓库里还有多少个BX-900。", {"sku": "BX-900"}),  # "Check how many BX-900 are left in the warehouse."
    ask(transfer_stock, "move 120 units of PAL-7 from Rotterdam to Antwerp",
        {"sku": "PAL-7", "quantity": 120, "from_warehouse": "Rotterdam", "to_warehouse": "Antwerp"}),
    ask(quote_yacht_charter, "Price for a catamaran out of Split, 7 days, 6 of us — we'll skipper it ourselves",
        {"marina": "Split", "days": 7, "guests": 6, "skipper": False, "catamaran": True}),
    ask(quote_yacht_charter, "yacht for 3 days from Antibes, 4 guests", {"marina": "Antibes", "days": 3, "guests": 4}),
    ask(zoo_feeding_times, "what time is penguin feeding on Sunday? and the sea lion one?",
        {"animal": "penguin", "day": "Sunday"}, {"animal": "sea lion", "day": "Sunday"}),
    ask(zoo_feeding_times, "熊猫几点喂食?", {"animal": "熊猫"}),  # "What time are the pandas fed?"
    ask(solar_output, "12 panels at 400W each, we get about 5.5 peak sun hours — daily output?",
        {"panels": 12, "watts_per_panel": 400, "sun_hours": 5.5}),
    ask(solar_output, "屋顶有20块350瓦的光伏板,日照4小时,每天能发多少电?",  # "20 panels of 350 W on the roof, 4 sun hours: daily output?"
        {"panels": 20, "watts_per_panel": 350, "sun_hours": 4}),
    ask(log_water, "just had a 330ml sparkling water", {"millilitres": 330, "drink": "sparkling water"}),
    decline(log_water, "log a glass of water for me", "millilitres"),
    ask(log_sleep, "slept 6.5 hrs last night, I'd rate it a 3 out of 5, woke up a couple times",
        {"hours": 6.5, "quality": 3, "woke_up_at_night": True}),
    ask(sleep_debt, "I slept 6, 7, 5.5 and 6 hours the last four nights, what's my sleep debt if I need 7.5?",
        {"nightly_hours": [6, 7, 5.5, 6], "target_hours": 7.5}),
    ask(rent_board_games, "I'd like to rent Catan, Ticket to Ride and Azul for 2 days — can you deliver them?",
        {"titles": ["Catan", "Ticket to Ride", "Azul"], "days": 2, "deliver": True}),
    ask(rent_board_games, "can I borrow Pandemic for 5 days", {"titles": ["Pandemic"], "days": 5}),
    ask(search_wedding_venues,
        "looking for an outdoor wedding venue in Napa for about 120 guests, budget tops out at $25,000",
        {"city": "Napa", "guests": 120, "outdoor": True, "max_budget": 25000}),
    ask(search_wedding_venues, "wedding venues for 80 people — any options in Lisbon? and Porto?",
        {"city": "Lisbon", "guests": 80}, {"city": "Porto", "guests": 80}),
    decline(search_wedding_venues, "Find us a barn venue for 150 guests", "city"),
    ask(calories_burned, "I weigh 72 kg and did 45 minutes of swimming, how many calories is that?",
        {"activity": "swimming", "minutes": 45, "weight_kg": 72}),
    ask(calories_burned, "30 min of cycling, I'm 80kg — calories?",
        {"activity": "cycling", "minutes": 30, "weight_kg": 80}),
    ask(enroll_in_kindergarten,
        "I want to enroll my daughter Mia, born 2021, at Little Oaks Kindergarten — half days only",
        {"child": {"name": "Mia", "birth_year": 2021}, "school": "Little Oaks Kindergarten", "half_day": True}),
    # "Enroll my son Li Haoran at Sunshine Kindergarten; he was born in 2022."
    ask(enroll_in_kindergarten, "帮我儿子李浩然报名阳光幼儿园,他是2022年出生的。",
        {"child": {"name": "李浩然", "birth_year": 2022}, "school": "阳光幼儿园"}),
    ask(moving_quote,
        "quote to move a 2-bedroom flat from Manchester to Bristol, and we'd want you to do the packing too",
        {"origin": "Manchester", "destination": "Bristol", "bedrooms": 2, "packing": True}),
    decline(moving_quote, "how much to move my 3 bedroom house out of Denver?", "destination"),
    ask(book_salon, "can I get a haircut with Jess on Thursday at 17:30?",
        {"service": "cut", "day": "Thursday", "time": "17:30", "stylist": "Jess"}, aliases={"cut": "haircut"}),
    ask(book_salon, "book me a blow-dry Saturday 10:00", {"service": "blow-dry", "day": "Saturday", "time": "10:00"}),
    ask(reserve_karaoke_room, "8 of us want a karaoke room from 21:00 for 3 hours, with the drinks package",
        {"people": 8, "hours": 3, "start_time": "21:00", "drinks_package": True}),
    decline(reserve_karaoke_room, "订个K歌房,5个人,唱两个小时。", "start_time"),  # "Book a karaoke room, 5 people, two hours."
    ask(buy_fishing_license, "need a 1-day fishing license for Oregon, I'm not a resident",
        {"state": "Oregon", "duration": "day", "resident": False}),
    ask(buy_fishing_license, "annual fishing licence for Michigan, I live here, and add the trout stamp",
        {"state": "Michigan", "duration": "year", "resident": True, "trout_stamp": True},
        aliases={"year": "annual"}),
    ask(search_genealogy, "look up records for the surnames Kowalski and Nowak in Kraków",
        {"surname": "Kowalski", "place": "Kraków"}, {"surname": "Nowak", "place": "Kraków"}),
    ask(search_genealogy, "any records of a Margaret Doyle born 1887 in County Cork?",
        {"surname": "Doyle", "given_name": "Margaret", "birth_year": 1887, "place": "County Cork"}),
)
