"""How the offline model reads arguments for tools it was not written for: each rule on a tool of its own.

Each test offers a learner-style tool and a plain question and checks the calls
(``plan_arguments``) or the missing parameter, the way a careful model would answer.
"""

from __future__ import annotations

from typing import Any, Literal

import pydantic
import pytest

from conductor import connect
from conductor.offline.arguments import read_question, with_digits
from conductor.offline.latency import LatencyModel
from conductor.offline.model import OfflineModel
from conductor.tools import Tool, tool
from scripted import calls, missing


@tool
def convert_money(amount: float, from_currency: str, to_currency: str) -> float:
    """Convert money between currencies.

    Args:
        amount: How much to convert.
        from_currency: ISO code of the currency you have.
        to_currency: ISO code of the currency you want.
    """
    return amount


Unit = Literal["grams", "kilograms", "pounds", "ounces"]


@tool
def convert_weight(amount: float, from_unit: Unit, to_unit: Unit) -> float:
    """Convert a weight between units.

    Args:
        amount: The weight to convert.
        from_unit: Unit of the amount.
        to_unit: Unit wanted.
    """
    return amount


def test_one_currency_before_to_and_several_after_fan_out():
    assert calls(convert_money, "Convert 70 SEK to both NOK and DKK") == [
        {"amount": 70, "from_currency": "SEK", "to_currency": "NOK"},
        {"amount": 70, "from_currency": "SEK", "to_currency": "DKK"},
    ]


def test_the_unit_written_after_the_amount_is_the_from_side():
    assert calls(convert_weight, "How many ounces is 2 pounds?") == [
        {"amount": 2, "from_unit": "pounds", "to_unit": "ounces"}
    ]
    assert calls(convert_weight, "2公斤是多少磅?") == [{"amount": 2, "from_unit": "kilograms", "to_unit": "pounds"}]


@tool
def heat_room(room: str, temperature: float) -> str:
    """Set a room's heating.

    Args:
        room: The room.
        temperature: Target temperature.
    """
    return room


def test_a_temperature_takes_fahrenheit_too():
    assert calls(heat_room, "set the kitchen to 70 fahrenheit") == [{"room": "kitchen", "temperature": 70}]


@tool
def notify(to: str, body: str) -> str:
    """Send an email notification.

    Args:
        to: Recipient address.
        body: The text.
    """
    return to


def test_a_mail_tools_lone_address_is_the_recipient():
    assert calls(notify, 'mail ops@corp.dev "disk full"') == [{"to": "ops@corp.dev", "body": "disk full"}]


@tool
def switch_plug(device: str, on: bool) -> str:
    """Switch a smart plug.

    Args:
        device: Plug id, e.g. plug_1.
        on: True for on.
    """
    return device


def test_snake_case_names_are_identifiers_and_fan_out():
    assert calls(switch_plug, "switch off fan_plug and heater_plug") == [
        {"device": "fan_plug", "on": False},
        {"device": "heater_plug", "on": False},
    ]


class Box(pydantic.BaseModel):
    """A box."""

    length_cm: float
    width_cm: float
    height_cm: float


@tool
def pack(box: Box) -> str:
    """Pack a box.

    Args:
        box: Its dimensions.
    """
    return ""


def test_dimensions_share_the_unit_written_after_the_last():
    assert calls(pack, "pack a box of 40 x 30 x 10 cm") == [
        {"box": {"length_cm": 40, "width_cm": 30, "height_cm": 10}}
    ]


@tool
def make_playlist(name: str, songs: list[str]) -> str:
    """Make a playlist.

    Args:
        name: Name of the new playlist.
        songs: Song titles.
    """
    return name


def test_listed_capitalised_names_keep_their_words_and_a_playlist_name_is_no_person():
    assert calls(make_playlist, 'a playlist called "Calm" with Clocks, Yellow and Fix You') == [
        {"name": "Calm", "songs": ["Clocks", "Yellow", "Fix You"]}
    ]
    assert missing(make_playlist, "a playlist with Clocks, Yellow and Fix You") == ["name"]


@tool
def say_in(text: str, source_language: str, target_language: str) -> str:
    """Translate a text.

    Args:
        text: The text.
        source_language: Its language.
        target_language: Language wanted.
    """
    return text


def test_languages_listed_after_into_fan_out():
    assert calls(say_in, 'translate "thank you" from English into German and Dutch') == [
        {"text": "thank you", "source_language": "English", "target_language": "German"},
        {"text": "thank you", "source_language": "English", "target_language": "Dutch"},
    ]


@tool
def hold_book(isbn: str) -> str:
    """Hold a book.

    Args:
        isbn: The book's ISBN.
    """
    return isbn


def test_long_digit_runs_are_codes():
    assert calls(hold_book, "hold 9780306406157 and 9780262510875") == [
        {"isbn": "9780306406157"},
        {"isbn": "9780262510875"},
    ]


@tool
def play_track(title: str, artist: str | None = None) -> str:
    """Play a track.

    Args:
        title: Track title.
        artist: Optional artist.
    """
    return title


def test_by_names_the_artist_and_a_capitalised_object_is_the_title():
    assert calls(play_track, 'play "Hurt" by Johnny Cash') == [{"title": "Hurt", "artist": "Johnny Cash"}]
    assert calls(play_track, "play Moonlight Sonata") == [{"title": "Moonlight Sonata"}]


@tool
def log_workout(activity: Literal["running", "cycling", "swimming"], minutes: int) -> str:
    """Log a workout and its calories.

    Args:
        activity: The exercise.
        minutes: How long.
    """
    return activity


@tool
def renew(loan_id: str) -> str:
    """Renew a library loan.

    Args:
        loan_id: The loan's id.
    """
    return loan_id


@tool
def move_money(from_account: str, to_account: str, amount: float) -> str:
    """Transfer money between accounts.

    Args:
        from_account: Account to take it from.
        to_account: Account to pay into.
        amount: How much.
    """
    return ""


def _first_turn(tool_: Tool, question: str) -> list[tuple[str, dict[str, Any]]]:
    llm = connect("offline", offline_model=OfflineModel(seed=0, latency=LatencyModel.instant()))
    result = llm.run(question, tools=[tool_], max_rounds=1)
    return [(c.name, c.arguments) for c in result.rounds[0].tool_calls] if result.rounds else []


@pytest.mark.parametrize("tool_, question, arguments", [
    (log_workout, "游泳30分钟", {"activity": "swimming", "minutes": 30}),
    (renew, "帮我续借 L-20001", {"loan_id": "L-20001"}),
    (move_money, "从 current 转 500 到 joint", {"from_account": "current", "to_account": "joint", "amount": 500}),
])
def test_chinese_questions_find_english_tools_and_their_values(tool_, question, arguments):
    assert _first_turn(tool_, question) == [(tool_.name, arguments)]


@tool
def local_forecast(city: str) -> str:
    """Weather forecast for a city.

    Args:
        city: City name.
    """
    return city


def test_when_words_name_no_place():
    assert missing(local_forecast, "What will the weather be like this weekend?") == ["city"]


@tool
def alarm(time: str, label: str | None = None) -> str:
    """Set an alarm.

    Args:
        time: When, HH:MM.
        label: Optional label.
    """
    return time


@tool
def film_rating(movie_title: str, year: int | None = None) -> float:
    """Rating of a film.

    Args:
        movie_title: Title of the film.
        year: Optional release year.
    """
    return 0.0


def test_called_names_a_label_and_a_films_title_is_its_capitalised_name():
    # The tool documents HH:MM: a time is sent in that format.
    assert calls(alarm, "an alarm at 6:45 called run") == [{"time": "06:45", "label": "run"}]
    assert calls(film_rating, "rating of Heat from 1995") == [{"movie_title": "Heat", "year": 1995}]


@tool
def order_status(order_id: str) -> str:
    """Status of an order.

    Args:
        order_id: The order number.
    """
    return order_id


@tool
def mute(channel: str, hours: int) -> str:
    """Mute a channel.

    Args:
        channel: Channel name, e.g. #general.
        hours: For how long, in hours.
    """
    return channel


def test_a_label_before_a_list_labels_all_and_an_example_gives_the_shape():
    assert calls(order_status, "status of orders 881 and 882") == [{"order_id": "881"}, {"order_id": "882"}]
    assert calls(mute, "mute #random for 3 hours") == [{"channel": "#random", "hours": 3}]


@tool
def brightness(device_id: str, level: int) -> str:
    """Set a lamp's brightness.

    Args:
        device_id: Lamp id.
        level: Brightness from 0 to 100.
    """
    return device_id


@tool
def hotels(city: str, max_price: float | None = None) -> list[str]:
    """Find hotels.

    Args:
        city: City.
        max_price: Optional highest nightly price.
    """
    return []


def test_a_percentage_fits_a_0_to_100_scale_and_under_is_a_maximum():
    assert calls(brightness, "set desk_lamp brightness to 70 percent") == [{"device_id": "desk_lamp", "level": 70}]
    assert calls(hotels, "hotels in Oslo under 120") == [{"city": "Oslo", "max_price": 120}]
    assert calls(hotels, "hotels in Oslo") == [{"city": "Oslo"}]


@tool
def meet(participants: list[str], date: str) -> str:
    """Schedule a meeting.

    Args:
        participants: E-mail addresses of the people to invite.
        date: Day, YYYY-MM-DD.
    """
    return date


def test_list_items_are_what_the_list_description_says():
    assert calls(meet, "meet a@x.io and b@x.io on 2026-02-03") == [
        {"participants": ["a@x.io", "b@x.io"], "date": "2026-02-03"}
    ]
    assert missing(meet, "meet Ann and Bo on 2026-02-03") == ["participants"]


def test_read_question_sees_sizes_folders_and_chinese_pairs():
    assert [n.value for n in read_question("resize to 800x600").numbers] == [800, 600]
    assert "docs/" in read_question("find notes in docs/").paths
    assert ("savings", "checking") in read_question("从 savings 转 3000 到 checking").pairs


@pytest.mark.parametrize("said, digits", [
    ("two hundred guests", "200 guests"),
    ("a thousand dollars", "1000 dollars"),
    ("a dozen eggs", "12 eggs"),
    ("订两张票", "订2张票"),
    ("三千元", "3000元"),
    ("两万五千块", "25000块"),
    ("which one is it", "which one is it"),
])
def test_numbers_said_in_words(said, digits):
    assert with_digits(said) == digits


@tool
def file_bug(title: str, priority: Literal["low", "medium", "high"]) -> str:
    """File a bug.

    Args:
        title: Summary.
        priority: How urgent.
    """
    return title


@tool
def route(origin: str, destination: str, mode: Literal["driving", "walking", "transit"] = "driving") -> str:
    """Directions between two places.

    Args:
        origin: Start.
        destination: End.
        mode: How to travel.
    """
    return origin


def test_an_enum_value_named_by_a_plain_synonym():
    assert calls(file_bug, "file an urgent bug: 'checkout fails'") == [{"title": "checkout fails", "priority": "high"}]
    assert calls(route, "directions from Leeds to York on foot") == [
        {"origin": "Leeds", "destination": "York", "mode": "walking"}
    ]
    assert calls(route, "directions from Leeds to York") == [{"origin": "Leeds", "destination": "York"}]


@tool
def train_tickets(origin: str, destination: str, date: str, seats: int = 1) -> str:
    """Book train tickets.

    Args:
        origin: Departure city.
        destination: Arrival city.
        date: Day, YYYY-MM-DD.
        seats: Number of seats.
    """
    return date


@tool
def noodles(dish: str, spicy: bool = False) -> str:
    """Order a dish.

    Args:
        dish: The dish.
        spicy: Make it spicy.
    """
    return dish


def test_a_chinese_measure_word_says_what_is_counted_and_a_chinese_word_states_a_switch():
    assert calls(train_tickets, "订2026-05-01从北京到上海的两张火车票") == [
        {"origin": "北京", "destination": "上海", "date": "2026-05-01", "seats": 2}
    ]
    assert calls(train_tickets, "订2026-05-01从北京到上海的火车票") == [
        {"origin": "北京", "destination": "上海", "date": "2026-05-01"}
    ]
    assert calls(noodles, "来一份 dan dan noodles,要辣的") == [{"dish": "dan dan noodles", "spicy": True}]
    assert calls(noodles, "来一份 dan dan noodles,不要辣") == [{"dish": "dan dan noodles", "spicy": False}]


@tool
def stay(city: str, nights: int) -> str:
    """Book a hotel.

    Args:
        city: City.
        nights: How many nights.
    """
    return city


@tool
def days_between(start_date: str, end_date: str) -> int:
    """Days between two dates.

    Args:
        start_date: First date, YYYY-MM-DD.
        end_date: Second date, YYYY-MM-DD.
    """
    return 0


def test_no_guess_from_a_lone_chinese_character_and_until_marks_the_end():
    assert missing(stay, "帮我订个酒店住三晚") == ["city"]
    assert calls(stay, "在大阪订酒店住三晚") == [{"city": "大阪", "nights": 3}]
    assert missing(days_between, "How many days until 2026-12-25?") == ["start_date"]


@tool
def tickets(status: Literal["open", "closed"] = "open", limit: int = 20) -> list[str]:
    """List tickets.

    Args:
        status: Which tickets.
        limit: Max tickets.
    """
    return []


def test_the_noun_counted_may_follow_an_adjective_and_plurals_name_options():
    assert calls(tickets, "list the last 5 closed tickets") == [{"status": "closed", "limit": 5}]
    assert calls(tickets, "list the closed ones") == [{"status": "closed"}]


class CartItem(pydantic.BaseModel):
    """One product line."""

    sku: str
    quantity: int


@tool
def add_to_cart(item: CartItem) -> str:
    """Add an item to the cart.

    Args:
        item: The product and how many.
    """
    return item.sku


def test_a_label_glued_to_its_value_is_part_of_it_and_a_code_follows_its_label():
    assert calls(add_to_cart, "add 3 of SKU-4411 to my cart") == [{"item": {"sku": "SKU-4411", "quantity": 3}}]
    assert calls(brightness, "把 lamp_5 的亮度调到 40") == [{"device_id": "lamp_5", "level": 40}]


class PostalAddress(pydantic.BaseModel):
    """Where to deliver."""

    street: str
    city: str
    postcode: str


@tool
def move_customer(customer_id: str, address: PostalAddress) -> str:
    """Change a customer's address.

    Args:
        customer_id: Customer id, e.g. C-100.
        address: The new address.
    """
    return customer_id


def test_a_written_address_fills_a_structured_one():
    assert calls(move_customer, "update C-100's address to 5 Elm Street, Springfield, 01101") == [
        {"customer_id": "C-100", "address": {"street": "5 Elm Street", "city": "Springfield", "postcode": "01101"}}
    ]
    assert missing(move_customer, "update C-100's address to 5 Elm Street, Springfield") == ["address"]


@tool
def to_fahrenheit(celsius: float) -> float:
    """Convert Celsius to Fahrenheit.

    Args:
        celsius: Temperature in Celsius.
    """
    return celsius


def test_numbers_listed_with_their_units_fan_out():
    assert calls(to_fahrenheit, "convert 30°C and 40°C to Fahrenheit") == [{"celsius": 30}, {"celsius": 40}]


Length = Literal["kilometers", "miles", "meters"]


@tool
def convert_distance(value: float, from_unit: Length, to_unit: Length) -> float:
    """Convert a distance.

    Args:
        value: The distance.
        from_unit: Its unit.
        to_unit: Unit wanted.
    """
    return value


@tool
def parcel_quote(weight_kg: float, destination_country: str) -> float:
    """Price to send a parcel.

    Args:
        weight_kg: Weight in kilograms.
        destination_country: Where it goes.
    """
    return weight_kg


def test_units_written_short_or_glued_and_currency_signs():
    assert calls(convert_distance, "10 km in miles") == [{"value": 10, "from_unit": "kilometers", "to_unit": "miles"}]
    assert calls(parcel_quote, "send 3kg to Spain") == [{"weight_kg": 3, "destination_country": "Spain"}]
    assert calls(convert_money, "€45 in GBP?") == [{"amount": 45, "from_currency": "EUR", "to_currency": "GBP"}]


def test_every_unmarked_address_of_a_mail_tool_is_a_recipient():
    assert calls(notify, "mail ann@x.io and bo@x.io 'lunch moved'") == [
        {"to": "ann@x.io", "body": "lunch moved"},
        {"to": "bo@x.io", "body": "lunch moved"},
    ]
    assert calls(say_in, "translate 'hi' from English into French, German and Spanish") == [
        {"text": "hi", "source_language": "English", "target_language": language}
        for language in ("French", "German", "Spanish")
    ]


@tool
def ship_release(service: str, version: str, environment: Literal["staging", "production"]) -> str:
    """Deploy a service version.

    Args:
        service: Service name.
        version: Version tag, e.g. v1.2.3.
        environment: Where to deploy.
    """
    return service


def test_chinese_labels_and_values_used_elsewhere_end_a_latin_name():
    assert calls(order_status, "查询订单 10234 的状态") == [{"order_id": "10234"}]
    assert calls(ship_release, "把 payments v3.1.0 部署到 staging") == [
        {"service": "payments", "version": "v3.1.0", "environment": "staging"}
    ]
    assert calls(file_bug, "提交一个紧急 bug:'登录失败'") == [{"title": "登录失败", "priority": "high"}]


@tool
def parking(city: str, near: str | None = None) -> list[str]:
    """Free parking spots in a city.

    Args:
        city: City.
        near: Optional landmark to search near.
    """
    return []


@tool
def headlines(topic: str, language: Literal["en", "de", "fr"] = "en") -> list[str]:
    """News headlines on a topic.

    Args:
        topic: What the news is about.
        language: Language of the articles.
    """
    return []


@tool
def see_doctor(doctor: str, date: str) -> str:
    """Book a doctor's appointment.

    Args:
        doctor: Doctor's name.
        date: Day, YYYY-MM-DD.
    """
    return doctor


def test_preposition_parameters_honorifics_and_a_synonym_word_is_used_once():
    assert calls(parking, "parking in Zurich near the Opera House") == [{"city": "Zurich", "near": "Opera House"}]
    assert calls(headlines, "headlines about climate in German") == [{"topic": "climate", "language": "de"}]
    assert calls(see_doctor, "appointment with Dr. Chen on 2026-05-02") == [{"doctor": "Dr. Chen", "date": "2026-05-02"}]


@tool
def top_songs(genre: str, n: int = 10) -> list[str]:
    """Most played songs of a genre.

    Args:
        genre: Music genre.
        n: How many songs to return.
    """
    return []


def test_a_word_after_a_number_is_a_value_unless_it_is_a_unit():
    assert calls(top_songs, "top 5 jazz songs") == [{"genre": "jazz", "n": 5}]
    assert missing(local_forecast, "forecast for 3 days") == ["city"]


# -- precision: a weak signal declines rather than guesses ---------------------------------------


@tool
def rate_book(book_title: str, stars: int) -> str:
    """Rate a book.

    Args:
        book_title: The book's title.
        stars: 1 to 5.
    """
    return "rated"


def test_a_quoted_title_is_sent_as_written():
    assert calls(rate_book, 'Give "Catch Twenty Two" 4 stars') == [{"book_title": "Catch Twenty Two", "stars": 4}]


@tool
def adopt_animal(animal: str, nickname: str) -> str:
    """Adopt an animal from the shelter.

    Args:
        animal: Kind of animal.
        nickname: What to call it.
    """
    return "adopted"


def test_a_word_that_introduces_a_value_is_never_part_of_one():
    assert calls(adopt_animal, "adopt a hamster named Pip") == [{"animal": "hamster", "nickname": "Pip"}]


@tool
def deploy(service: str, region: str) -> str:
    """Deploy a service.

    Args:
        service: The service to deploy.
        region: Cloud region.
    """
    return "deployed"


@tool
def check_planets(planet: Literal["Venus", "Mars", "Jupiter"], city: str) -> str:
    """Is a planet visible tonight from a city.

    Args:
        planet: Which planet.
        city: Where you are.
    """
    return "yes"


def test_one_item_of_a_written_list_is_never_sent_alone():
    assert calls(check_planets, "Will I see Venus and Jupiter from Oslo?") == [
        {"planet": "Venus", "city": "Oslo"}, {"planet": "Jupiter", "city": "Oslo"}]
    assert calls(deploy, "deploy payments-api and ledger-api in eu-west") == [
        {"service": "payments-api", "region": "eu-west"}, {"service": "ledger-api", "region": "eu-west"}]


@tool
def mix_paint(base_liters: float, tint_ml_per_liter: float) -> str:
    """Mix paint.

    Args:
        base_liters: Base paint.
        tint_ml_per_liter: Tint per litre of base.
    """
    return "mixed"


def test_a_unit_goes_to_the_parameter_it_names_best():
    assert calls(mix_paint, "mix 12 ml per liter of tint into 4 l of base") == [
        {"base_liters": 4, "tint_ml_per_liter": 12}]


@tool
def compare_runs(times: list[float], distances: list[float]) -> str:
    """Compare runs.

    Args:
        times: Minutes of each run.
        distances: Kilometres of each run.
    """
    return "compared"


def test_a_list_of_numbers_is_the_run_its_name_labels():
    assert calls(compare_runs, "distances 5, 10 and 21 with times 25, 52, 118") == [
        {"times": [25, 52, 118], "distances": [5, 10, 21]}]


@tool
def file_ticket(summary: str, component: str | None = None) -> str:
    """File a support ticket.

    Args:
        summary: One line about the problem.
        component: Part of the product.
    """
    return "filed"


def test_words_a_label_marks_fill_a_text_parameter():
    assert calls(file_ticket, 'file "login page is blank", component: web client') == [
        {"summary": "login page is blank", "component": "web client"}]


@tool
def pack_list(things: list[str]) -> str:
    """Put things on the packing list.

    Args:
        things: What to pack.
    """
    return "listed"


def test_list_items_of_several_words_are_read_in_full():
    assert calls(pack_list, "pack socks, rain jacket and sun cream") == [
        {"things": ["socks", "rain jacket", "sun cream"]}]


@tool
def works_of(thinker: str, year: int) -> str:
    """What a thinker published in a year.

    Args:
        thinker: The philosopher.
        year: Year of publication.
    """
    return "works"


def test_a_leftover_running_a_name_into_other_words_is_no_value_but_the_lone_name_is():
    # Never "Kant retire": the one capitalised name nothing else took is the value.
    assert calls(works_of, "When did Kant retire in 1781?") == [{"thinker": "Kant", "year": 1781}]


@tool
def whois(domain: str) -> str:
    """Who registered a domain.

    Args:
        domain: The domain name.
    """
    return "someone"


def test_a_bare_domain_name_fills_a_host_parameter():
    assert calls(whois, "who owns example.org?") == [{"domain": "example.org"}]


@tool
def feed_fish(tank: str, grams: float) -> str:
    """Feed the fish in a tank.

    Args:
        tank: Which tank.
        grams: Food in grams.
    """
    return "fed"


def test_leftover_phrases_written_as_one_list_fan_out():
    assert calls(feed_fish, "feed the reef and the pond with 5 grams") == [
        {"tank": "reef", "grams": 5}, {"tank": "pond", "grams": 5}]


@tool
def pin_message(message_id: str, pin: bool) -> str:
    """Pin or unpin a chat message.

    Args:
        message_id: e.g. M-301.
        pin: True to pin, False to unpin.
    """
    return "done"


def test_a_switch_word_undone_by_un_is_false():
    assert calls(pin_message, "unpin M-301") == [{"message_id": "M-301", "pin": False}]


@tool
def phone_plans(max_monthly_price: float, contract_months: Literal[1, 12, 24] | None = None) -> str:
    """Compare phone plans.

    Args:
        max_monthly_price: The most to pay a month.
        contract_months: Contract length in months.
    """
    return ""


def test_a_number_option_is_not_read_inside_a_longer_number():
    assert calls(phone_plans, "plans under 12.50 a month") == [{"max_monthly_price": 12.5}]
