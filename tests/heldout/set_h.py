"""Held-out set H: learner-style tools and plain questions for the offline model.

Written blind (without reading the offline model or the other sets) over thirty
small travel, outdoor and craft tools, and never edited after measuring.
Chinese questions carry an English gloss.
"""

from enum import Enum
from typing import Literal

from pydantic import BaseModel, Field

from conductor.course.offline_suite import ask, decline
from conductor.tools import tool

# -- crop yields ---------------------------------------------------------------------

_TONNES_PER_HECTARE = {"wheat": 8.0, "barley": 6.5, "maize": 9.5, "玉米": 9.5, "oats": 5.0}


@tool
def crop_yield_estimate(crop: str, hectares: float, region: str | None = None) -> dict:
    """Estimate how much of a crop a planted area will yield.

    Args:
        crop: The crop planted, e.g. "wheat".
        hectares: Area planted, in hectares.
        region: Growing region, when the grower names one.
    """
    rate = _TONNES_PER_HECTARE.get(crop.lower(), 6.0)
    return {"crop": crop, "region": region, "hectares": hectares, "tonnes": round(rate * hectares, 1)}


@tool
def record_harvest(field_name: str, crop: str, tonnes: float, organic: bool = False) -> dict:
    """Record the harvest taken from one field.

    Args:
        field_name: Name of the field harvested, e.g. "south meadow".
        crop: The crop harvested.
        tonnes: Weight harvested, in tonnes.
        organic: Whether the crop was grown organically.
    """
    return {"field": field_name, "crop": crop, "tonnes": tonnes, "organic": organic, "recorded": True}


# -- brewery batches -----------------------------------------------------------------


@tool
def log_brew_batch(style: str, litres: float, original_gravity: float, dry_hopped: bool = False) -> dict:
    """Log a new brewery batch and estimate its strength.

    Args:
        style: Beer style, e.g. "pale ale".
        litres: Volume brewed, in litres.
        original_gravity: Original gravity measured before fermentation, e.g. 1.050.
        dry_hopped: Whether hops were added during fermentation.
    """
    expected_abv = round((original_gravity - 1.010) * 131.25, 1)  # assumes a typical final gravity of 1.010
    return {"style": style, "litres": litres, "expected_abv": expected_abv, "dry_hopped": dry_hopped}


@tool
def brew_batch_status(batch_id: str) -> dict:
    """Look up how one brewery batch is fermenting.

    Args:
        batch_id: The batch's label, e.g. "B-101".
    """
    day = sum(map(ord, batch_id)) % 14
    return {"batch_id": batch_id, "day": day, "stage": "conditioning" if day > 10 else "fermenting"}


# -- coffee roasting -----------------------------------------------------------------


@tool
def plan_roast(origin: str, roast: Literal["light", "medium", "dark"], grams: int = 500) -> dict:
    """Plan a coffee roast: charge temperature, roast time and drop temperature.

    Args:
        origin: Where the green beans come from.
        roast: How dark to roast the beans.
        grams: Weight of green beans in the batch, in grams.
    """
    drop_c = {"light": 205, "medium": 218, "dark": 230}[roast]
    minutes = round(9 + grams / 500 + (drop_c - 205) / 10, 1)
    return {"origin": origin, "charge_c": 200, "drop_c": drop_c, "minutes": minutes}


@tool
def cupping_score(coffee: str, aroma: float, acidity: float, body: float) -> dict:
    """Work out a coffee's cupping score from its tasting marks.

    Args:
        coffee: Name of the coffee cupped.
        aroma: Aroma mark out of 10.
        acidity: Acidity mark out of 10.
        body: Body mark out of 10.
    """
    score = round(58 + (aroma + acidity + body) * 4 / 3, 2)
    return {"coffee": coffee, "score": score, "specialty": score >= 80}


# -- cheese aging --------------------------------------------------------------------

_MIN_MONTHS = {"cheddar": 9, "gouda": 4, "manchego": 3, "parmesan": 12}


@tool
def cheese_ready_check(cheese: str, months_aged: int, humidity_percent: float | None = None) -> dict:
    """Check whether an aging cheese is ready to eat.

    Args:
        cheese: Kind of cheese, e.g. "brie".
        months_aged: Months the cheese has aged so far.
        humidity_percent: Relative humidity of the aging cave, in percent.
    """
    needed = _MIN_MONTHS.get(cheese.lower(), 6)
    too_dry = humidity_percent is not None and humidity_percent < 75
    return {"cheese": cheese, "ready": months_aged >= needed, "months_to_go": max(0, needed - months_aged),
            "too_dry": too_dry}


# -- fitness challenges --------------------------------------------------------------


@tool
def join_step_challenge(challenge: str, participant: str, daily_goal: int = 10000) -> dict:
    """Sign someone up to a step challenge.

    Args:
        challenge: Name of the challenge to join.
        participant: Name of the person joining.
        daily_goal: Steps a day the person aims for.
    """
    return {"challenge": challenge, "participant": participant, "weekly_goal": daily_goal * 7}


@tool
def challenge_leaderboard(challenge: str, top: int = 10) -> dict:
    """Show the leaders of a fitness challenge.

    Args:
        challenge: Name of the challenge.
        top: How many leaders to show.
    """
    names = ["Ana", "Ben", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"]
    return {"challenge": challenge, "leaders": [{"rank": i + 1, "name": n} for i, n in enumerate(names[:top])]}


# -- yoga retreats -------------------------------------------------------------------


@tool
def find_yoga_retreat(
    country: str,
    style: Literal["hatha", "vinyasa", "yin", "ashtanga"] | None = None,
    max_price_eur: float | None = None,
) -> dict:
    """Find yoga retreats in a country.

    Args:
        country: Country to look in.
        style: Yoga style the retreat should teach.
        max_price_eur: Highest price for the whole retreat, in euros.
    """
    retreats = [{"name": f"{country} {s.title()} Week", "style": s, "price_eur": 650 + 150 * i}
                for i, s in enumerate(["hatha", "vinyasa", "yin", "ashtanga"])]
    found = [r for r in retreats if (style is None or r["style"] == style)
             and (max_price_eur is None or r["price_eur"] <= max_price_eur)]
    return {"country": country, "retreats": found}


# -- surfing lessons -----------------------------------------------------------------


@tool
def book_surf_lesson(
    beach: str,
    day: str,
    level: Literal["beginner", "intermediate", "advanced"] = "beginner",
    wetsuit_size: str | None = None,
) -> dict:
    """Book a surfing lesson.

    Args:
        beach: Beach where the lesson takes place.
        day: Day of the lesson as the customer gives it, e.g. "Saturday".
        level: The surfer's level.
        wetsuit_size: Wetsuit size to rent, e.g. "M"; leave out to bring one's own.
    """
    price = {"beginner": 45, "intermediate": 55, "advanced": 65}[level] + (10 if wetsuit_size else 0)
    return {"beach": beach, "day": day, "level": level, "price_eur": price, "booked": True}


# -- scuba dive logs -----------------------------------------------------------------


@tool
def log_dive(site: str, max_depth_m: float, minutes: int, buddy: str | None = None) -> dict:
    """Add a dive to the diver's logbook.

    Args:
        site: Name of the dive site.
        max_depth_m: Deepest point reached, in metres.
        minutes: Bottom time, in minutes.
        buddy: Name of the dive buddy.
    """
    return {"site": site, "max_depth_m": max_depth_m, "minutes": minutes, "buddy": buddy,
            "deep_dive": max_depth_m > 30}


@tool
def nitrox_max_depth(oxygen_percent: int, max_ppo2: float = 1.4) -> dict:
    """Work out the maximum operating depth for a nitrox mix.

    Args:
        oxygen_percent: Oxygen in the mix, in percent (21 is air).
        max_ppo2: Highest partial pressure of oxygen allowed, in bar.
    """
    depth = (max_ppo2 / (oxygen_percent / 100) - 1) * 10
    return {"oxygen_percent": oxygen_percent, "max_ppo2": max_ppo2, "max_depth_m": round(depth, 1)}


# -- mountain huts -------------------------------------------------------------------


@tool
def hut_availability(hut: str, night: str, beds: int = 1) -> dict:
    """Check whether a mountain hut has free beds on a night.

    Args:
        hut: Name of the mountain hut.
        night: Night of the stay, as YYYY-MM-DD.
        beds: Number of beds needed.
    """
    free = sum(map(ord, hut + night)) % 12
    return {"hut": hut, "night": night, "free_beds": free, "available": free >= beds}


# -- rail tickets --------------------------------------------------------------------


@tool
def rail_fare(origin: str, destination: str, travel_class: Literal["first", "second"] = "second",
              railcard: bool = False) -> dict:
    """Look up the fare for a train journey.

    Args:
        origin: Station or city the journey starts from.
        destination: Station or city the journey ends at.
        travel_class: Travel class.
        railcard: Whether the traveller has a railcard discount.
    """
    fare = 10 + len(origin + destination) * 2.5
    fare *= 1.6 if travel_class == "first" else 1
    fare *= 2 / 3 if railcard else 1
    return {"origin": origin, "destination": destination, "class": travel_class, "fare": round(fare, 2)}


# -- ferry bookings ------------------------------------------------------------------


class FerryRoute(BaseModel):
    """A ferry crossing between two ports."""

    from_port: str = Field(description="Port the ferry leaves from.")
    to_port: str = Field(description="Port the ferry arrives at.")


@tool
def book_ferry(route: FerryRoute, day: str, passengers: int = 1, with_car: bool = False) -> dict:
    """Book a ferry crossing.

    Args:
        route: The crossing: departure and arrival ports.
        day: Day of travel as the customer gives it, e.g. "Monday".
        passengers: Number of people travelling.
        with_car: Whether a car comes on board too.
    """
    price = 35 * passengers + (90 if with_car else 0)
    return {"from": route.from_port, "to": route.to_port, "day": day, "price_eur": price, "booked": True}


# -- bus passes ----------------------------------------------------------------------


class PassLength(str, Enum):
    """How long a bus pass lasts."""

    DAY = "day"
    WEEK = "week"
    MONTH = "month"


@tool
def bus_pass_price(city: str, length: PassLength, student: bool = False) -> dict:
    """Look up the price of a city bus pass.

    Args:
        city: City the pass is for.
        length: How long the pass lasts.
        student: Whether the buyer gets the student discount.
    """
    price = {PassLength.DAY: 7, PassLength.WEEK: 25, PassLength.MONTH: 80}[length]
    return {"city": city, "length": length.value, "price": price / 2 if student else price}


# -- toll roads ----------------------------------------------------------------------


@tool
def toll_cost(road: str, vehicle: Literal["car", "motorcycle", "van", "truck"] = "car") -> dict:
    """Look up the toll for driving a toll road end to end.

    Args:
        road: Name or number of the toll road, e.g. "A7".
        vehicle: Kind of vehicle driven.
    """
    factor = {"motorcycle": 0.6, "car": 1.0, "van": 1.5, "truck": 3.0}[vehicle]
    return {"road": road, "vehicle": vehicle, "toll_eur": round(8.4 * factor, 2)}


# -- EV charging stations ------------------------------------------------------------


@tool
def charging_stations(near: str, connector: Literal["CCS", "CHAdeMO", "Type 2"] | None = None,
                      min_kw: int | None = None) -> dict:
    """Find electric-vehicle charging stations near a place.

    Args:
        near: Place to search around.
        connector: Plug type the car needs.
        min_kw: Lowest charging power wanted, in kilowatts.
    """
    stations = [{"name": f"{near} Charge Hub", "connector": "CCS", "kw": 150},
                {"name": f"{near} Car Park", "connector": "Type 2", "kw": 22},
                {"name": f"{near} Rapid", "connector": "CHAdeMO", "kw": 50}]
    found = [s for s in stations if (connector is None or s["connector"] == connector)
             and (min_kw is None or s["kw"] >= min_kw)]
    return {"near": near, "stations": found}


# -- fuel prices ---------------------------------------------------------------------


@tool
def fuel_price(city: str, fuel: Literal["petrol", "diesel", "lpg"] = "petrol") -> dict:
    """Look up today's average price of a fuel in a city, per litre.

    Args:
        city: City to look up.
        fuel: Kind of fuel.
    """
    base = {"petrol": 1.85, "diesel": 1.72, "lpg": 0.95}[fuel]
    return {"city": city, "fuel": fuel, "price_per_litre": round(base + (len(city) % 5) / 100, 2)}


# -- car sharing ---------------------------------------------------------------------


@tool
def reserve_shared_car(pickup: str, hours: float, model: str | None = None) -> dict:
    """Reserve a car-sharing car.

    Args:
        pickup: Where to pick the car up.
        hours: How long to keep the car, in hours.
        model: Car model wanted, if the user names one.
    """
    return {"pickup": pickup, "hours": hours, "model": model or "any", "price_eur": round(hours * 12.5, 2)}


# -- e-scooter rental ----------------------------------------------------------------


@tool
def scooter_ride_cost(city: str, minutes: int, pass_holder: bool = False) -> dict:
    """Work out what an e-scooter ride costs.

    Args:
        city: City the ride is in.
        minutes: Length of the ride, in minutes.
        pass_holder: Whether the rider has a scooter pass (no unlock fee, cheaper minutes).
    """
    unlock, per_minute = (0.0, 0.15) if pass_holder else (1.0, 0.25)
    return {"city": city, "minutes": minutes, "cost_eur": round(unlock + per_minute * minutes, 2)}


# -- airport lounges -----------------------------------------------------------------


@tool
def lounge_access(airport: str, terminal: str | None = None, guests: int = 0) -> dict:
    """List the airport lounges a traveller can use.

    Args:
        airport: The airport.
        terminal: Terminal, e.g. "T2", when the traveller names one.
        guests: Number of guests the traveller brings in.
    """
    where = f"{airport} {terminal}" if terminal else airport
    return {"airport": airport, "lounges": [f"{where} Executive Lounge"], "guest_fee_eur": 35 * guests}


# -- hostel beds ---------------------------------------------------------------------


@tool
def book_hostel_bed(hostel: str, nights: int, female_dorm: bool = False) -> dict:
    """Book a dorm bed in a hostel.

    Args:
        hostel: Name of the hostel.
        nights: Number of nights.
        female_dorm: Whether the bed must be in a female-only dorm.
    """
    return {"hostel": hostel, "nights": nights, "dorm": "female" if female_dorm else "mixed",
            "price_eur": 28 * nights}


# -- campervan hire ------------------------------------------------------------------


class Driver(BaseModel):
    """The person who will drive the campervan."""

    name: str = Field(description="Driver's name.")
    age: int = Field(description="Driver's age in years.")


@tool
def campervan_quote(pickup_city: str, days: int, driver: Driver, one_way: bool = False) -> dict:
    """Quote the price of hiring a campervan.

    Args:
        pickup_city: City where the campervan is collected.
        days: Length of the hire, in days.
        driver: The main driver.
        one_way: Whether the campervan is dropped off in another city.
    """
    price = 95 * days + (150 if one_way else 0) + (20 * days if driver.age < 25 else 0)
    return {"pickup_city": pickup_city, "driver": driver.name, "days": days, "price_eur": price}


# -- city walking tours and audio guides ---------------------------------------------


@tool
def walking_tours(city: str, themes: list[str] | None = None) -> dict:
    """Find guided walking tours in a city.

    Args:
        city: City to search.
        themes: Tour themes wanted, e.g. ["history", "architecture"].
    """
    chosen = themes or ["highlights"]
    return {"city": city, "tours": [f"{city} {theme} walk" for theme in chosen]}


@tool
def audio_guide(site: str, language: str = "English") -> dict:
    """Get the audio guide for a museum or sight.

    Args:
        site: Museum or sight the guide covers.
        language: Language of the narration.
    """
    return {"site": site, "language": language, "tracks": 24, "minutes": 95}


# -- bird watching logs --------------------------------------------------------------


@tool
def log_bird_sighting(species: str, count: int, location: str, notes: str | None = None) -> dict:
    """Add a bird sighting to the watcher's log.

    Args:
        species: Bird species seen.
        count: How many birds were seen.
        location: Where they were seen.
        notes: Any remarks on the sighting.
    """
    return {"species": species, "count": count, "location": location, "notes": notes, "logged": True}


@tool
def bird_checklist(region: str, species: list[str]) -> dict:
    """Check which birds are on a region's checklist and how often they are seen.

    Args:
        region: Region whose checklist to check.
        species: Bird species to look up.
    """
    return {"region": region, "species": {s: "common" if len(s) % 2 else "scarce" for s in species}}


# -- hiking trail conditions ---------------------------------------------------------


@tool
def trail_conditions(trail: str, forecast: bool = False) -> dict:
    """Report the current conditions on a hiking trail.

    Args:
        trail: Name of the trail.
        forecast: Whether to include the next days' weather forecast.
    """
    report = {"trail": trail, "status": "open", "surface": "muddy in places"}
    if forecast:
        report["forecast"] = ["sunny", "showers", "cloudy"]
    return report


# -- the cases -----------------------------------------------------------------------

CASES = (
    ask(crop_yield_estimate, "roughly how much wheat would I get off 40 hectares?",
        {"crop": "wheat", "hectares": 40}),
    ask(crop_yield_estimate, "我在山东种了25公顷玉米,大概能收多少?",  # "I planted 25 ha of maize in Shandong, how much?"
        {"crop": "玉米", "hectares": 25, "region": "山东"}),
    ask(record_harvest, "log 12.5 tonnes of barley off the north paddock - grown organic btw",
        {"field_name": "north paddock", "crop": "barley", "tonnes": 12.5, "organic": True}),
    decline(record_harvest, "finished the oats today, 8 tonnes all in. can you record that?", "field_name"),
    ask(log_brew_batch, "brewed 20 L of IPA today, OG 1.065, and I dry hopped it",
        {"style": "IPA", "litres": 20, "original_gravity": 1.065, "dry_hopped": True}),
    decline(log_brew_batch, "new stout in the fermenter, gravity 1.058 - please log the batch", "litres"),
    ask(brew_batch_status, "how are batches B-112 and B-113 getting on?",
        {"batch_id": "B-112"}, {"batch_id": "B-113"}),
    ask(brew_batch_status, "K7 那批酒发酵得怎么样了?",  # "How is the K7 batch fermenting?"
        {"batch_id": "K7"}),
    ask(plan_roast, "got some green beans from Ethiopia, want a light roast, 250g batch",
        {"origin": "Ethiopia", "roast": "light", "grams": 250}),
    decline(plan_roast, "how should I roast these Colombia beans? doing a 300 g batch", "roast"),
    ask(cupping_score, "score my Kenya AA cupping - aroma 8.5, acidity 9, body 7.75",
        {"coffee": "Kenya AA", "aroma": 8.5, "acidity": 9, "body": 7.75}),
    decline(cupping_score, "what's the total for the Guji sample? aroma 8, body 7.5", "acidity"),
    ask(cheese_ready_check, "my cheddar's been in the cave 9 months at 85% humidity, ready yet?",
        {"cheese": "cheddar", "months_aged": 9, "humidity_percent": 85}),
    ask(cheese_ready_check, "is the gouda good to eat after 6 months? same question for the manchego, also 6 months",
        {"cheese": "gouda", "months_aged": 6}, {"cheese": "manchego", "months_aged": 6}),
    ask(join_step_challenge, "add Priya to Spring Stride, she's aiming for 12000 steps a day",
        {"challenge": "Spring Stride", "participant": "Priya", "daily_goal": 12000}),
    decline(join_step_challenge, "Marco wants in on one of the step challenges, can you sign him up?", "challenge"),
    ask(challenge_leaderboard, "who's leading the October Plank Off? just the top 3",
        {"challenge": "October Plank Off", "top": 3}),
    ask(challenge_leaderboard, "“夏日万步走”排行榜前五名是谁?",  # "Top five on the 'Summer 10k Steps' board?"
        {"challenge": "夏日万步走", "top": 5}),
    ask(find_yoga_retreat, "any yin yoga retreats in Portugal under €900?",
        {"country": "Portugal", "style": "yin", "max_price_eur": 900}),
    ask(find_yoga_retreat, "yoga retreat somewhere in Greece pls, ashtanga ideally, money's no object",
        {"country": "Greece", "style": "ashtanga"}),
    ask(book_surf_lesson, "can I book a surf lesson at Fistral on Saturday? I'm intermediate, wetsuit size M",
        {"beach": "Fistral", "day": "Saturday", "level": "intermediate", "wetsuit_size": "M"}),
    ask(book_surf_lesson, "first time surfing!! lesson at Bondi on Sunday?",
        {"beach": "Bondi", "day": "Sunday", "level": "beginner"}, aliases={"beginner": "first time"}),
    ask(log_dive, "log today's dive: Blue Hole, max 32 m, 41 minutes, buddy was Jonas",
        {"site": "Blue Hole", "max_depth_m": 32, "minutes": 41, "buddy": "Jonas"}),
    decline(log_dive, "add a dive to my log - Shark Point, got down to 18 metres", "minutes"),
    ask(nitrox_max_depth, "what's my MOD on 32% nitrox if I use a ppO2 of 1.6?",
        {"oxygen_percent": 32, "max_ppo2": 1.6}),
    ask(nitrox_max_depth, "max depth for 36 percent nitrox?", {"oxygen_percent": 36}),
    ask(hut_availability, "any beds at Refuge du Goûter on 2026-07-18 for 3 of us?",
        {"hut": "Refuge du Goûter", "night": "2026-07-18", "beds": 3}),
    decline(hut_availability, "are there beds free at the Hörnlihütte?", "night"),
    ask(rail_fare, "how much is Leeds to York in first class? I've got a railcard",
        {"origin": "Leeds", "destination": "York", "travel_class": "first", "railcard": True}),
    ask(rail_fare, "train prices Paris to Lyon and Paris to Bordeaux?",
        {"origin": "Paris", "destination": "Lyon"}, {"origin": "Paris", "destination": "Bordeaux"}),
    ask(rail_fare, "北京到天津的火车票多少钱?二等座",  # "How much is a train ticket from Beijing to Tianjin? Second class."
        {"origin": "北京", "destination": "天津", "travel_class": "second"}, aliases={"second": "二等座"}),
    ask(book_ferry, "book the Dover to Calais ferry on Friday for 2 people, with our car",
        {"route": {"from_port": "Dover", "to_port": "Calais"}, "day": "Friday", "passengers": 2, "with_car": True}),
    decline(book_ferry, "need a ferry to Mykonos on Tuesday, 4 of us", "route"),
    ask(bus_pass_price, "how much is a monthly bus pass in Dublin? I'm a student",
        {"city": "Dublin", "length": "month", "student": True}, aliases={"month": "monthly"}),
    ask(bus_pass_price, "成都的公交周卡多少钱?",  # "How much is a weekly bus pass in Chengdu?"
        {"city": "成都", "length": "week"}, aliases={"week": "周卡"}),
    decline(bus_pass_price, "what does a bus pass cost in Vienna?", "length"),
    ask(toll_cost, "toll on the A1 on a motorbike?", {"road": "A1", "vehicle": "motorcycle"},
        aliases={"motorcycle": "motorbike"}),
    ask(toll_cost, "how much is the M6 Toll in a van", {"road": "M6 Toll", "vehicle": "van"}),
    ask(charging_stations, "need a fast charger near Utrecht Centraal, CCS, at least 150 kW",
        {"near": "Utrecht Centraal", "connector": "CCS", "min_kw": 150}),
    ask(charging_stations, "where can I charge my Leaf around Bristol Temple Meads? it takes chademo",
        {"near": "Bristol Temple Meads", "connector": "CHAdeMO"}),
    ask(fuel_price, "diesel prices in Lyon and Marseille?",
        {"city": "Lyon", "fuel": "diesel"}, {"city": "Marseille", "fuel": "diesel"}),
    ask(fuel_price, "上海今天柴油多少钱一升?",  # "How much is diesel per litre in Shanghai today?"
        {"city": "上海", "fuel": "diesel"}, aliases={"diesel": "柴油"}),
    ask(reserve_shared_car, "grab me a car share at Kings Cross for 3 hours, a Tesla Model 3 if there is one",
        {"pickup": "Kings Cross", "hours": 3, "model": "Tesla Model 3"}),
    ask(scooter_ride_cost, "how much would a 25 min scooter ride in Lisbon cost?",
        {"city": "Lisbon", "minutes": 25}),
    ask(scooter_ride_cost, "I have the monthly pass - what would 40 minutes on a scooter in Paris cost me?",
        {"city": "Paris", "minutes": 40, "pass_holder": True}),
    ask(lounge_access, "flying out of Heathrow T5 with 2 friends, any lounge we can all use?",
        {"airport": "Heathrow", "terminal": "T5", "guests": 2}),
    ask(lounge_access, "lounge at Changi?", {"airport": "Changi"}),
    ask(book_hostel_bed, "book me a bed at Generator Berlin for 3 nights, female-only dorm please",
        {"hostel": "Generator Berlin", "nights": 3, "female_dorm": True}),
    ask(campervan_quote, "quote for a campervan from Auckland, 14 days, one way. Driver is Sam, 24",
        {"pickup_city": "Auckland", "days": 14, "driver": {"name": "Sam", "age": 24}, "one_way": True}),
    decline(campervan_quote, "campervan for 10 days out of Reykjavik, how much?", "driver"),
    ask(walking_tours, "any food or street art walking tours in Lisbon?",
        {"city": "Lisbon", "themes": ["food", "street art"]}),
    ask(walking_tours, "西安有没有美食主题的徒步导览?",  # "Are there food-themed walking tours in Xi'an?"
        {"city": "西安", "themes": ["美食"]}),
    ask(audio_guide, "get me the Louvre audio guide in French and in German",
        {"site": "Louvre", "language": "French"}, {"site": "Louvre", "language": "German"}),
    ask(audio_guide, "audio guide for Sagrada Familia?", {"site": "Sagrada Familia"}),
    ask(log_bird_sighting, "log it: 1 grey heron, Slimbridge",
        {"species": "grey heron", "count": 1, "location": "Slimbridge"}),
    ask(log_bird_sighting, "red kite, 2 of them, over Chinnor Hill. note: circling the ridge",
        {"species": "red kite", "count": 2, "location": "Chinnor Hill", "notes": "circling the ridge"}),
    ask(bird_checklist, "are hoopoe, bee-eater and roller on the Extremadura list?",
        {"region": "Extremadura", "species": ["hoopoe", "bee-eater", "roller"]}),
    ask(bird_checklist, "青海湖的鸟类名录里有斑头雁和黑颈鹤吗?",  # "Qinghai Lake list: bar-headed goose, black-necked crane?"
        {"region": "青海湖", "species": ["斑头雁", "黑颈鹤"]}),
    ask(trail_conditions, "how are Half Dome and the Mist Trail looking right now?",
        {"trail": "Half Dome"}, {"trail": "Mist Trail"}),
    ask(trail_conditions, "conditions on the West Highland Way? and the forecast too please",
        {"trail": "West Highland Way", "forecast": True}),
)
