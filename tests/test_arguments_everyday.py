"""The offline model on everyday phrasings of learners' own tools.

Each test names one way people write a value (a weekday, a Chinese name, a
postcode with a space, a score out of ten...) and checks the arguments read
from it, or that nothing is sent where the question does not say it. The tools
and questions are written for these tests, not taken from the held-out sets.
"""

from __future__ import annotations

from typing import Literal

import conductor as cd
from conductor.offline.latency import LatencyModel
from conductor.offline.model import OfflineModel
from conductor.tools import Tool, tool
from scripted import calls, missing


def first_calls(tool_: Tool, question: str) -> list[tuple[str, dict]]:
    """The calls of the model's first turn, through the real loop (tool choice included)."""
    llm = cd.connect("offline", offline_model=OfflineModel(seed=0, latency=LatencyModel.instant()))
    result = llm.run(question, tools=[tool_], max_rounds=1)
    # A strict tool's call carries every key, null for "not given": only the stated ones are compared.
    return [(c.name, {k: v for k, v in c.arguments.items() if v is not None}) for c in result.rounds[0].tool_calls
            ] if result.rounds else []


@tool
def book_grooming(pet_name: str, day: str, species: str | None = None) -> dict:
    """Book a grooming slot.

    Args:
        pet_name: The pet's name.
        day: The day of the visit.
        species: What kind of animal it is.
    """
    return {"booked": pet_name}


def test_a_day_is_sent_as_written_and_a_name_may_start_the_sentence():
    assert calls(book_grooming, "Biscotti needs a trim, can you do Friday? he's a dog") == [
        {"pet_name": "Biscotti", "day": "Friday", "species": "dog"}]
    assert calls(book_grooming, "给我的猫咪咪约周六美容") == [{"pet_name": "咪咪", "day": "周六", "species": "猫"}]
    # "since Monday" says how long, not when: the visit day is missing.
    assert missing(book_grooming, "Biscotti has been scratching since Monday") == ["day"]


def test_a_lowercase_word_is_no_pets_name():
    assert missing(book_grooming, "need to bring my dog in on Friday") == ["pet_name"]


@tool
def register_player(first_name: str, last_name: str, club: str | None = None) -> dict:
    """Register a player.

    Args:
        first_name: The player's first name.
        last_name: The player's family name.
        club: Their club.
    """
    return {"player": f"{first_name} {last_name}"}


def test_first_and_last_name_come_from_one_full_name():
    assert calls(register_player, "please register Ada Lovelace") == [{"first_name": "Ada", "last_name": "Lovelace"}]


@tool
def enrol_student(student_name: str, course: str) -> dict:
    """Enrol a student on a course.

    Args:
        student_name: The student's name.
        course: The course to enrol on.
    """
    return {"enrolled": student_name}


def test_a_chinese_name_is_read_by_its_surname():
    assert calls(enrol_student, "给张伟报名'高等数学'") == [{"student_name": "张伟", "course": "高等数学"}]
    assert calls(enrol_student, "帮我女儿李思琪报名'钢琴入门'") == [{"student_name": "李思琪", "course": "钢琴入门"}]


@tool
def dispatch_engineer(postcode: str, appliance: str) -> dict:
    """Send an engineer to repair an appliance.

    Args:
        postcode: Where the appliance is.
        appliance: The broken appliance.
    """
    return {"engineer": "on the way"}


def test_a_postcode_with_a_space_is_one_code_and_an_appliance_is_recognised():
    assert calls(dispatch_engineer, "my tumble dryer died, I'm at LS6 2QB") == [
        {"postcode": "LS6 2QB", "appliance": "tumble dryer"}]
    # The appliance named is enough for the model to pick the tool, as a person would.
    assert first_calls(dispatch_engineer, "the freezer stopped working, postcode N1 9GU") == [
        ("dispatch_engineer", {"postcode": "N1 9GU", "appliance": "freezer"})]


@tool
def log_symptom(body_part: str, pain_level: int) -> dict:
    """Log a symptom.

    Args:
        body_part: Where it hurts.
        pain_level: How bad, 0 to 10.
    """
    return {"logged": body_part}


def test_a_score_out_of_ten_is_its_first_number():
    assert calls(log_symptom, "my wrist hurts, about 7/10") == [{"body_part": "wrist", "pain_level": 7}]


@tool
def resize_image(filename: str, width: int, height: int | None = None) -> dict:
    """Resize an image.

    Args:
        filename: The image file.
        width: New width in pixels.
        height: New height in pixels.
    """
    return {"resized": filename}


def test_sizes_are_width_by_height_and_a_height_is_no_width():
    assert calls(resize_image, "resize banner.jpg to 1200x630") == [
        {"filename": "banner.jpg", "width": 1200, "height": 630}]
    assert missing(resize_image, "make banner.jpg 630 pixels high") == ["width"]


@tool
def pass_price(resort: str, days: int) -> dict:
    """Price of a lift pass.

    Args:
        resort: The ski resort.
        days: How many days.
    """
    return {"price": 60 * days}


def test_a_follow_up_question_or_vs_adds_an_entity():
    assert calls(pass_price, "2-day pass at Verbier? and at Laax?") == [
        {"resort": "Verbier", "days": 2}, {"resort": "Laax", "days": 2}]
    assert calls(pass_price, "compare a 3 day pass, Verbier vs Laax") == [
        {"resort": "Verbier", "days": 3}, {"resort": "Laax", "days": 3}]


@tool
def order_parts(items: list[str], address: str) -> dict:
    """Order spare parts.

    Args:
        items: The parts to order.
        address: Where to deliver them.
    """
    return {"ordered": items}


def test_list_items_keep_their_words_and_never_take_the_address():
    assert calls(order_parts, "send a brake cable and a bike pump to 12 Mill Lane") == [
        {"items": ["brake cable", "bike pump"], "address": "12 Mill Lane"}]


@tool
def fuel_price(city: str, fuel: Literal["petrol", "diesel"], litres: float | None = None) -> dict:
    """Fuel price in a city.

    Args:
        city: The city.
        fuel: Which fuel.
        litres: How much, in litres.
    """
    return {"price": 1.7}


def test_a_lowercase_word_is_no_city_and_a_unit_glued_to_its_number_is_read():
    assert missing(fuel_price, "price of diesel at the big garage") == ["city"]
    assert calls(fuel_price, "40l of petrol in Leeds, how much?") == [{"city": "Leeds", "fuel": "petrol", "litres": 40}]


@tool
def track_shipment(tracking_number: str) -> dict:
    """Where a shipment is.

    Args:
        tracking_number: The number on the customer's receipt.
    """
    return {"status": "in transit"}


def test_a_number_parameter_is_a_reference_whatever_its_description():
    assert calls(track_shipment, "where's my stuff? receipt no. RX-40021") == [{"tracking_number": "RX-40021"}]


@tool
def tyre_check(car_model: str, year: int | None = None) -> dict:
    """Recommended tyre pressure.

    Args:
        car_model: Make and model.
        year: Model year.
    """
    return {"psi": 33}


def test_spellings_match_and_a_model_year_is_read():
    assert first_calls(tyre_check, "tire pressure for a 2021 Toyota Yaris?") == [
        ("tyre_check", {"car_model": "Toyota Yaris", "year": 2021})]


@tool
def run_tests(lab_tests: list[str], patient_id: str) -> dict:
    """Order lab tests.

    Args:
        lab_tests: The tests to run.
        patient_id: The patient.
    """
    return {"ordered": lab_tests}


def test_a_chinese_list_starts_after_the_request():
    assert calls(run_tests, "给病人B2231做一下尿常规和血糖") == [{"lab_tests": ["尿常规", "血糖"], "patient_id": "B2231"}]


@tool
def hang_pictures(frames: list[str], address: str) -> dict:
    """Book someone to put things up on the walls.

    Args:
        frames: The things to hang, e.g. "mirror".
        address: Where they are.
    """
    return {"frames": len(frames), "address": address}


def test_a_list_of_things_takes_the_words_left_after_the_address():
    assert calls(hang_pictures, "could someone hang a mirror at 12 Elm Road") == [
        {"frames": ["mirror"], "address": "12 Elm Road"}]
    assert calls(hang_pictures, "need a clock and a mirror put up at 4 Mill Lane") == [
        {"frames": ["clock", "mirror"], "address": "4 Mill Lane"}]


@tool
def cellar_check(wine: str, months: int) -> dict:
    """Say whether a wine has aged long enough.

    Args:
        wine: The wine, e.g. "barolo".
        months: Months it has aged.
    """
    return {"ready": months >= 12}


def test_a_thing_is_not_the_place_it_is_in():
    assert calls(cellar_check, "my rioja's been in the cellar 14 months, good to drink?") == [
        {"wine": "rioja", "months": 14}]
    # The only content word is where it is, which names no wine.
    assert missing(cellar_check, "it's been in the cellar 14 months, good to drink?") == ["wine"]


@tool
def barber_booking(stylist: str, beard_trim: bool = False) -> dict:
    """Book a haircut.

    Args:
        stylist: Who cuts.
        beard_trim: Whether to trim the beard as well.
    """
    return {"stylist": stylist, "beard": beard_trim}


@tool
def theme_park_ticket(park: str, pass_holder: bool = False) -> dict:
    """Price a theme park ticket or day pass.

    Args:
        park: The park.
        pass_holder: Whether the visitor has a season pass (cheaper).
    """
    return {"park": park, "price": 30 if pass_holder else 60}


def test_an_optional_switch_is_set_by_its_telling_word_and_never_by_the_tools_own():
    assert calls(barber_booking, "haircut with Omar, and sort my beard out too") == [
        {"stylist": "Omar", "beard_trim": True}]
    assert calls(barber_booking, "haircut with Omar, no beard today") == [{"stylist": "Omar", "beard_trim": False}]
    assert calls(barber_booking, "haircut with Omar") == [{"stylist": "Omar"}]
    # "pass" is the tool's own word: asking about a day pass says nothing of holding one.
    assert calls(theme_park_ticket, "how much is a day pass at Alton Towers?") == [{"park": "Alton Towers"}]


@tool
def book_pony_ride(pony: str, minutes: int, groom: str | None = None) -> dict:
    """Book a pony ride.

    Args:
        pony: The pony's name.
        minutes: How long the ride lasts.
        groom: Preferred groom; any free one when left out.
    """
    return {"pony": pony, "minutes": minutes}


def test_a_written_list_fans_out_even_beside_an_optional_parameter_of_its_kind():
    assert calls(book_pony_ride, "20 minute rides on Dolly and Pickle please") == [
        {"pony": "Dolly", "minutes": 20}, {"pony": "Pickle", "minutes": 20}]


@tool
def gate_info(airport: str, gate: str | None = None) -> dict:
    """Show the departures board at an airport.

    Args:
        airport: The airport.
        gate: A gate, e.g. "B12", when the traveller names one.
    """
    return {"airport": airport, "gate": gate}


def test_a_value_shaped_like_the_quoted_example_fills_an_optional_parameter():
    assert calls(gate_info, "what's leaving from Schiphol D7 this afternoon?") == [
        {"airport": "Schiphol", "gate": "D7"}]
    assert calls(gate_info, "what's leaving from Schiphol this afternoon?") == [{"airport": "Schiphol"}]


@tool
def parts_in_stock(part: str, depot: str | None = None) -> dict:
    """Count spare parts in stock.

    Args:
        part: The part number.
        depot: Only count this depot (all when left out).
    """
    return {"part": part, "count": 3}


def test_a_depot_or_a_branch_is_a_place():
    assert calls(parts_in_stock, "how many PX-220 are there in Swindon?") == [{"part": "PX-220", "depot": "Swindon"}]
    assert calls(parts_in_stock, "how many PX-220 are there?") == [{"part": "PX-220"}]


@tool
def hire_car(pickup_city: str, start: str, end: str, car_class: Literal["economy", "mpv", "suv"] = "economy") -> dict:
    """Hire a car.

    Args:
        pickup_city: City to pick the car up in.
        start: First day, YYYY-MM-DD.
        end: Last day, YYYY-MM-DD.
        car_class: The class of car.
    """
    return {"city": pickup_city, "class": car_class}


def test_an_option_takes_its_word_before_a_name_can():
    assert calls(hire_car, "Can I get an MPV in Leeds from 2027-01-03 to 2027-01-05?") == [
        {"pickup_city": "Leeds", "start": "2027-01-03", "end": "2027-01-05", "car_class": "mpv"}]


@tool
def buy_parking_permit(zone: str, period: Literal["day", "month", "year"], vehicle: Literal["car", "motorcycle"]) -> dict:
    """Buy a residents' parking permit.

    Args:
        zone: The parking zone.
        period: How long the permit lasts.
        vehicle: What it is for.
    """
    return {"zone": zone, "period": period, "vehicle": vehicle}


def test_an_option_named_in_everyday_words():
    assert calls(buy_parking_permit, "an annual permit for zone K4, it's for my motorbike") == [
        {"zone": "K4", "period": "year", "vehicle": "motorcycle"}]
    # Words that could mean several options name none: "bike" is a bicycle or a motorbike.
    assert missing(buy_parking_permit, "an annual permit for zone K4 for my bike") == ["vehicle"]


@tool
def airport_taxi(pickup: str, dropoff: str) -> dict:
    """Book a taxi.

    Args:
        pickup: Where to pick up.
        dropoff: Where to drop off.
    """
    return {"from": pickup, "to": dropoff}


def test_a_code_before_a_name_is_part_of_it():
    assert calls(airport_taxi, "taxi from the Grand Hotel to LHR Terminal 5 please") == [
        {"pickup": "Grand Hotel", "dropoff": "LHR Terminal 5"}]


@tool
def start_countdown(label: str, minutes: int) -> dict:
    """Start a countdown timer.

    Args:
        label: Name shown on the countdown.
        minutes: How long it runs.
    """
    return {"label": label, "minutes": minutes}


def test_a_label_is_the_word_before_the_thing_the_tool_makes():
    assert calls(start_countdown, "start a rice countdown, 18 minutes") == [{"label": "rice", "minutes": 18}]
    assert missing(start_countdown, "start a countdown, 18 minutes") == ["label"]
    # A describing word is no label: "a quick countdown" names nothing.
    assert missing(start_countdown, "start a really quick countdown of 18 minutes") == ["label"]


@tool
def coach_fare(origin: str, destination: str) -> dict:
    """Price a coach ticket.

    Args:
        origin: Where the coach leaves from.
        destination: Where it goes.
    """
    return {"fare": 12}


def test_several_pairs_are_one_call_each():
    assert calls(coach_fare, "coach fares Leeds to York and Leeds to Hull?") == [
        {"origin": "Leeds", "destination": "York"}, {"origin": "Leeds", "destination": "Hull"}]


@tool
def order_noodles(dish: str, spice: Literal["none", "mild", "medium", "hot"] = "none") -> dict:
    """Order noodles.

    Args:
        dish: The dish.
        spice: How spicy.
    """
    return {"dish": dish, "spice": spice}


def test_a_chinese_word_names_an_option_by_its_longest_reading():
    # 微辣 ("a little spicy") is mild; the 辣 ("spicy") inside it does not also name hot.
    assert calls(order_noodles, "来一份 dan dan noodles，微辣") == [{"dish": "dan dan noodles", "spice": "mild"}]


@tool
def running_plan(weekly_km: float, long_run_km: float | None = None, weeks: int = 12) -> dict:
    """Plan marathon training.

    Args:
        weekly_km: Kilometres run a week now.
        long_run_km: The longest run so far, in kilometres.
        weeks: Weeks until the race.
    """
    return {"weeks": weeks}


@tool
def tip_split(bill: float, people: int, tip_percent: float | None = None) -> dict:
    """Split a bill.

    Args:
        bill: The bill.
        people: How many pay.
        tip_percent: Tip to add, in percent.
    """
    return {"each": bill / people}


@tool
def fuel_budget(distance_km: float, litre_price: float | None = None) -> dict:
    """Estimate a trip's fuel.

    Args:
        distance_km: How far, in kilometres.
        litre_price: What fuel costs now.
    """
    return {"litres": distance_km / 15}


def test_the_one_bare_number_left_is_the_one_optional_number_left():
    assert calls(fuel_budget, "fuel for a 320 km drive? it's 1.85 here") == [
        {"distance_km": 320, "litre_price": 1.85}]
    assert calls(tip_split, "split a 90 bill between 3 people, and add 12 on top") == [
        {"bill": 90, "people": 3, "tip_percent": 12}]
    # A number with a word after it is no bare number: "5th" is no price, "5 km" the long run's, no count of weeks.
    assert calls(fuel_budget, "fuel from 5th Avenue to Boston, 320 km") == [{"distance_km": 320}]
    assert calls(running_plan, "I run 40 km a week, longest so far 5 km") == [{"weekly_km": 40, "long_run_km": 5}]
    assert calls(running_plan, "I run 40 km a week, and my longest run was 5") == [{"weekly_km": 40, "long_run_km": 5}]


@tool
def search_listings(query: str, max_rent: float | None = None) -> dict:
    """Search flat listings.

    Args:
        query: Search words.
        max_rent: Highest monthly rent.
    """
    return {"results": []}


def test_a_question_whose_values_fill_the_tool_calls_it_without_sharing_its_words():
    # No word of "search listings" is in the question; its two values fill both parameters.
    assert first_calls(search_listings, "any lofts for under 1200?") == [
        ("search_listings", {"query": "lofts", "max_rent": 1200})]
    # One value alone is not enough to call a tool the question never names.
    assert first_calls(search_listings, "what is the capital of Peru?") == []


@tool
def rate_album(title: str, stars: int) -> dict:
    """Rate an album from 1 to 5 stars.

    Args:
        title: Album title.
        stars: Rating, 1-5.
    """
    return {"title": title, "stars": stars}


@tool
def invite(guests: list[str], day: str) -> dict:
    """Invite people to dinner.

    Args:
        guests: People to invite.
        day: Which day.
    """
    return {"invited": len(guests)}


@tool
def post_message(channel: str, text: str) -> dict:
    """Post a chat message.

    Args:
        channel: Where to post.
        text: The message.
    """
    return {"posted": True}


@tool
def order_pizzas(toppings: list[str], count: int) -> dict:
    """Order pizzas.

    Args:
        toppings: The toppings.
        count: How many pizzas.
    """
    return {"count": count}


def test_a_score_is_no_part_of_a_name_and_other_everyday_shapes():
    assert calls(rate_album, "rate Abbey Road four out of five") == [{"title": "Abbey Road", "stars": 4}]
    # An e-mail address names a guest when no name does.
    assert calls(invite, "invite kim@example.com to dinner on Friday") == [
        {"guests": ["kim@example.com"], "day": "Friday"}]
    # The message is what follows the colon.
    assert calls(post_message, "post in random: lunch is here") == [{"channel": "random", "text": "lunch is here"}]
    # 加 ("add") before a topping is the request, not part of it: "three pizzas, add pineapple".
    assert calls(order_pizzas, "来三个披萨，加菠萝") == [{"toppings": ["菠萝"], "count": 3}]


@tool
def body_fat(weight_kg: float, height_cm: float) -> dict:
    """Estimate body fat.

    Args:
        weight_kg: Weight in kg.
        height_cm: Height in cm.
    """
    return {"ratio": weight_kg / height_cm}


@tool
def train_booking(origin: str, destination: str, passengers: int = 1) -> dict:
    """Book train seats.

    Args:
        origin: From.
        destination: To.
        passengers: Number of passengers.
    """
    return {"booked": passengers}


@tool
def book_window_cleaner(address: str, repeat_weekly: bool = False) -> dict:
    """Book a window cleaner.

    Args:
        address: Where.
        repeat_weekly: Come back each week.
    """
    return {"address": address}


def test_units_counts_and_switches_in_other_words():
    # A Chinese unit is read as its abbreviation: 厘米 is cm, 公斤 kg ("height 165 cm, weight 58 kg").
    assert calls(body_fat, "身高165厘米，体重58公斤") == [{"weight_kg": 58, "height_cm": 165}]
    # "3 first class tickets" counts passengers, past two words.
    assert calls(train_booking, "3 first class tickets from Leeds to York") == [
        {"origin": "Leeds", "destination": "York", "passengers": 3}]
    # "every week" says weekly.
    assert calls(book_window_cleaner, "window cleaner for 4 Mill Lane, every week please") == [
        {"address": "4 Mill Lane", "repeat_weekly": True}]


@tool
def find_eateries(city: str, cuisine: str | None = None) -> dict:
    """Find places to eat.

    Args:
        city: City.
        cuisine: Kind of food.
    """
    return {"city": city}


@tool
def repot(species: str, pot_cm: int | None = None) -> dict:
    """Advice on repotting.

    Args:
        species: The plant species.
        pot_cm: Pot size in cm.
    """
    return {"species": species}


@tool
def start_car(vehicle_id: str, cabin_temp_c: float) -> dict:
    """Warm a car up.

    Args:
        vehicle_id: Which car, by its id.
        cabin_temp_c: Target temperature.
    """
    return {"ok": True}


@tool
def new_customer(name: str, email: str) -> dict:
    """Register a customer.

    Args:
        name: Full name.
        email: E-mail.
    """
    return {"name": name}


def test_everyday_categories_names_and_ids():
    assert calls(find_eateries, "good Thai food in Leeds?") == [{"city": "Leeds", "cuisine": "Thai"}]
    # The description says which category "species" means here: a plant, not an animal.
    assert calls(repot, "when should I repot my monstera?") == [{"species": "monstera"}]
    # An id is which one, never the kind: "my car" is no vehicle_id.
    assert missing(start_car, "warm up my car to 21 degrees") == ["vehicle_id"]
    # A name inside a written address is a street or a town, not the customer.
    assert calls(new_customer, "register Ana Silva, ana@silva.pt, 3 Elm Road, Porto") == [
        {"name": "Ana Silva", "email": "ana@silva.pt"}]


@tool
def order_wrap(wrap: str, no_chilli: bool = False, extra_halloumi: bool = False,
               dip: Literal["garlic", "hummus", "none"] = "garlic") -> dict:
    """Order a wrap.

    Args:
        wrap: Which wrap.
        no_chilli: Leave the chilli out.
        extra_halloumi: Add extra halloumi.
        dip: The dip on the side.
    """
    return {"wrap": wrap}


@tool
def search_range(product: str, min_price: float, max_price: float) -> dict:
    """Search products in a price range.

    Args:
        product: What to look for.
        min_price: Lowest price.
        max_price: Highest price.
    """
    return {"product": product}


def test_negative_switches_none_options_and_ranges():
    # "no chilli" sets no_chilli; "halloumiwrap" would not say extra halloumi, nor does the wrap's own name.
    assert calls(order_wrap, "falafel wrap with no chilli and no dip") == [
        {"wrap": "falafel", "no_chilli": True, "dip": "none"}]
    assert calls(order_wrap, "falafel wrap, extra chilli") == [{"wrap": "falafel", "no_chilli": False}]
    assert calls(search_range, "tents from $80 to $200") == [{"product": "tents", "min_price": 80, "max_price": 200}]


@tool
def log_nest_check(box: str, eggs: int, owl_seen: bool) -> dict:
    """Log a nest box check.

    Args:
        box: The box's code.
        eggs: Eggs counted.
        owl_seen: Whether an owl was seen.
    """
    return {"box": box}


def test_a_required_switch_by_its_telling_word():
    assert calls(log_nest_check, "box N7: 4 eggs, the owl was there") == [{"box": "N7", "eggs": 4, "owl_seen": True}]
    assert calls(log_nest_check, "box N7: 4 eggs, didn't see the owl") == [{"box": "N7", "eggs": 4, "owl_seen": False}]
    assert missing(log_nest_check, "box N7: 4 eggs") == ["owl_seen"]


@tool
def hospital_parking(hospital: str, hours: int) -> dict:
    """Price parking at a hospital.

    Args:
        hospital: Name of the hospital.
        hours: How long.
    """
    return {"hospital": hospital}


@tool
def subscribe(newspaper: str) -> dict:
    """Subscribe to a newspaper.

    Args:
        newspaper: Title of the newspaper.
    """
    return {"newspaper": newspaper}


def test_a_chinese_institution_is_named_by_the_word_its_name_ends_in():
    # "How much is 3 hours' parking at Heping Hospital?"
    assert calls(hospital_parking, "在和平医院停车3小时多少钱？") == [{"hospital": "和平医院", "hours": 3}]
    # "I'd like to subscribe to the Yangcheng Evening News."
    assert calls(subscribe, "我想订羊城晚报") == [{"newspaper": "羊城晚报"}]


@tool
def book_lesson(horse: str, minutes: int, instructor: str | None = None) -> dict:
    """Book a riding lesson.

    Args:
        horse: The horse's name.
        minutes: Length of the lesson.
        instructor: Preferred instructor.
    """
    return {"horse": horse}


def test_an_optional_person_is_named_by_with_and_never_takes_a_required_name():
    assert calls(book_lesson, "45 minutes on Duchess with Marta") == [
        {"horse": "Duchess", "minutes": 45, "instructor": "Marta"}]
    assert calls(book_lesson, "45 minutes on Duchess") == [{"horse": "Duchess", "minutes": 45}]


@tool
def item_price(product: str) -> dict:
    """Price of a product.

    Args:
        product: The product name.
    """
    return {"product": product}


@tool
def course_grade(student: str, course: str) -> dict:
    """A student's grade in a course.

    Args:
        student: Student name.
        course: Course name.
    """
    return {"student": student}


@tool
def oven_convert(value: float, from_scale: str, to_scale: str) -> dict:
    """Convert an oven temperature.

    Args:
        value: The temperature.
        from_scale: Scale to convert from.
        to_scale: Scale to convert to.
    """
    return {"value": value}


def test_camel_case_names_owners_and_the_one_number():
    assert calls(item_price, "price of the MacBook Air and the PlayStation Portal") == [
        {"product": "MacBook Air"}, {"product": "PlayStation Portal"}]
    # The name that owns something is the student: "Lena's grade for Art History".
    assert calls(course_grade, "Lena's grade for Art History") == [{"student": "Lena", "course": "Art History"}]
    # The one number goes to the one number parameter, though "fahrenheit" labels it.
    assert calls(oven_convert, "convert 350 fahrenheit to celsius") == [
        {"value": 350, "from_scale": "fahrenheit", "to_scale": "celsius"}]


@tool
def basket_add(item: str, quantity: int = 1) -> dict:
    """Add an item to the basket.

    Args:
        item: The product.
        quantity: How many.
    """
    return {"item": item, "quantity": quantity}


def test_a_list_of_counted_items_is_one_call_each():
    assert first_calls(basket_add, "add 2 lemons, 6 eggs and a baguette to my basket") == [
        ("basket_add", {"item": "lemons", "quantity": 2}), ("basket_add", {"item": "eggs", "quantity": 6}),
        ("basket_add", {"item": "baguette"})]
    assert calls(basket_add, "grab me 3 bags of rice and 2 limes") == [
        {"item": "rice", "quantity": 3}, {"item": "limes", "quantity": 2}]
    # Containers of one item are no second item.
    assert ("basket_add", {"item": "punnets", "quantity": 2}) not in first_calls(basket_add, "blueberries, 2 punnets")


@tool
def lookup_price(product: str) -> dict:
    """Look a product up in the catalogue.

    Args:
        product: The product name.
    """
    return {"product": product}


def test_how_much_asks_a_price():
    assert first_calls(lookup_price, "how much is a PS5?") == [("lookup_price", {"product": "PS5"})]


@tool
def web_search(query: str, max_results: int = 5) -> dict:
    """Search the web.

    Args:
        query: What to search for.
        max_results: How many results.
    """
    return {"query": query}


@tool
def add_event(title: str, start: str, end: str | None = None) -> dict:
    """Add a calendar event.

    Args:
        title: Event title.
        start: Start, ISO 8601 date and time.
        end: End, ISO 8601 date and time.
    """
    return {"title": title}


@tool
def cat_file(path: str) -> dict:
    """Print a file.

    Args:
        path: Path of the file.
    """
    return {"path": path}


@tool
def run_query(sql: str) -> dict:
    """Run a read-only SQL query on the shop's database.

    Args:
        sql: The SQL statement.
    """
    return {"rows": []}


def test_searches_moments_paths_and_statements_as_written():
    assert first_calls(web_search, "search for cheap flights to Lisbon in May") == [
        ("web_search", {"query": "cheap flights to Lisbon in May"})]
    assert first_calls(web_search, "look up who painted the Mona Lisa") == [
        ("web_search", {"query": "who painted the Mona Lisa"})]
    assert calls(add_event, "add 'Dentist' from 2026-05-04T09:30 to 2026-05-04T10:15") == [
        {"title": "Dentist", "start": "2026-05-04T09:30", "end": "2026-05-04T10:15"}]
    assert first_calls(cat_file, "print /var/log/syslog") == [("cat_file", {"path": "/var/log/syslog"})]
    assert first_calls(run_query, "run SELECT name FROM products WHERE price < 10") == [
        ("run_query", {"sql": "SELECT name FROM products WHERE price < 10"})]


@tool
def current_weather(location: str) -> dict:
    """Get the current weather in a given location.

    Args:
        location: The city and state, e.g. San Francisco, CA.
    """
    return {"location": location}


def test_a_state_code_goes_with_its_city_when_the_example_has_one():
    assert calls(current_weather, "weather in Austin, TX?") == [{"location": "Austin, TX"}]
    assert calls(current_weather, "weather in Austin?") == [{"location": "Austin"}]
