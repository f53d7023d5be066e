"""Learner-style tools and plain questions, to measure the offline model on tools it was not written for.

Each :class:`Case` is one question, the one tool offered with it, and what a
careful model does on its first turn: the exact calls (several for a question
about several things, in any order) or none at all when a required parameter
is not stated (a *decline*: the model should say what is missing, not guess).

:func:`judge` compares what the model did with that, and :func:`unstated_values`
finds argument values the question never stated, the failure that matters most:
a call that runs with an invented argument does something nobody asked for.

The tools are what a learner writes in a first notebook: typed, with a
docstring, returning plausible values computed from their arguments without
network (quotes, weather and the like are stand-ins derived from a hash, so
they are the same on every run).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import string
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

import pydantic

from ..offline.arguments import name_words
from ..offline.wording import unit_of
from ..glossary import CHINESE_GLOSSARY
from ..offline.language import holds_words, negated_in_chinese, normalise
from ..tools import Tool, ToolArgumentsError, tool

__all__ = [
    "Case",
    "Verdict",
    "CASES",
    "TOOLS",
    "ask",
    "decline",
    "judge",
    "describe_call",
    "describe_expected",
    "unstated_values",
    "is_stated",
]


def _stand_in(key: str, low: float, high: float, digits: int = 2) -> float:
    """A number in [low, high] fixed by ``key``: stand-in data that is the same on every run."""
    fraction = int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big") / 2**32
    return round(low + fraction * (high - low), digits)


# -- arithmetic ---------------------------------------------------------------


@tool
def add(a: float, b: float) -> float:
    """Add two numbers.

    Args:
        a: the first number
        b: the second number
    """
    return a + b


@tool
def multiply(x: float, y: float) -> float:
    """Multiply two numbers.

    Args:
        x: the first factor
        y: the second factor
    """
    return x * y


@tool
def divide(dividend: float, divisor: float) -> float:
    """Divide one number by another.

    Args:
        dividend: the number to divide
        divisor: the number to divide by (not zero)
    """
    if divisor == 0:
        raise ValueError("cannot divide by zero; ask for a non-zero divisor")
    return dividend / divisor


@tool
def average(numbers: list[float]) -> float:
    """The arithmetic mean of a list of numbers.

    Args:
        numbers: the numbers to average
    """
    if not numbers:
        raise ValueError("give at least one number")
    return sum(numbers) / len(numbers)


@tool
def is_prime(n: int) -> bool:
    """Check whether a whole number is prime.

    Args:
        n: the number to check
    """
    return n > 1 and all(n % k for k in range(2, math.isqrt(n) + 1))


@tool
def factorial(n: int) -> int:
    """Compute n! (n factorial).

    Args:
        n: a whole number from 0 to 170
    """
    return math.factorial(n)


@tool
def circle_area(radius: float) -> float:
    """Area of a circle.

    Args:
        radius: the circle's radius
    """
    return math.pi * radius**2


@tool
def rectangle_area(width: float, height: float) -> float:
    """Area of a rectangle.

    Args:
        width: the rectangle's width
        height: the rectangle's height
    """
    return width * height


@tool
def to_roman(number: int) -> str:
    """Write a whole number from 1 to 3999 in Roman numerals.

    Args:
        number: the number to convert
    """
    symbols = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
               (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    if not 0 < number < 4000:
        raise ValueError("Roman numerals cover 1 to 3999")
    out = []
    for value, symbol in symbols:
        count, number = divmod(number, value)
        out.append(symbol * count)
    return "".join(out)


# -- conversions ----------------------------------------------------------------

_TO_METRES = {"miles": 1609.344, "kilometers": 1000.0, "meters": 1.0, "feet": 0.3048, "inches": 0.0254}
_TO_KILOGRAMS = {"kilograms": 1.0, "pounds": 0.45359237, "ounces": 0.028349523125, "grams": 0.001}


@tool
def convert_units(value: float, from_unit: str, to_unit: str) -> float:
    """Convert a length or a weight from one unit to another.

    Args:
        value: the amount to convert
        from_unit: unit of the value, e.g. miles, kilometers, feet, pounds, kilograms
        to_unit: unit to convert to
    """
    for table in (_TO_METRES, _TO_KILOGRAMS):
        if from_unit in table and to_unit in table:
            return round(value * table[from_unit] / table[to_unit], 4)
    raise ValueError(f"cannot convert {from_unit} to {to_unit}; known units: {sorted(_TO_METRES | _TO_KILOGRAMS)}")


Scale = Literal["celsius", "fahrenheit", "kelvin"]


@tool
def convert_temperature(value: float, from_scale: Scale, to_scale: Scale) -> float:
    """Convert a temperature between Celsius, Fahrenheit and Kelvin.

    Args:
        value: the temperature to convert
        from_scale: the scale of the value
        to_scale: the scale to convert to
    """
    celsius = {"celsius": value, "fahrenheit": (value - 32) * 5 / 9, "kelvin": value - 273.15}[from_scale]
    return round({"celsius": celsius, "fahrenheit": celsius * 9 / 5 + 32, "kelvin": celsius + 273.15}[to_scale], 2)


@tool
def convert_currency(amount: float, from_currency: str, to_currency: str) -> dict[str, Any]:
    """Convert money between currencies at today's rate.

    Args:
        amount: how much money to convert
        from_currency: ISO code of the currency you have, e.g. USD
        to_currency: ISO code of the currency you want, e.g. EUR
    """
    rate = _stand_in(f"{from_currency}/{to_currency}", 0.5, 1.5, 4)
    return {"amount": round(amount * rate, 2), "currency": to_currency, "rate": rate}


@tool
def get_exchange_rate(base: str, quote: str) -> float:
    """Today's exchange rate: how many units of the quote currency one unit of the base buys.

    Args:
        base: ISO code of the base currency, e.g. EUR
        quote: ISO code of the quote currency, e.g. USD
    """
    return _stand_in(f"{base}/{quote}", 0.5, 1.5, 4)


@tool
def convert_time_zone(time: str, from_zone: str, to_zone: str) -> str:
    """Convert a clock time from one IANA time zone to another (today's date).

    Args:
        time: the time as HH:MM (24-hour clock)
        from_zone: IANA zone of the time, e.g. America/New_York
        to_zone: IANA zone to convert to, e.g. Europe/London
    """
    hour, minute = (int(part) for part in time.split(":"))
    start = datetime.combine(date(2026, 1, 15), datetime.min.time()).replace(
        hour=hour, minute=minute, tzinfo=ZoneInfo(from_zone)
    )
    return start.astimezone(ZoneInfo(to_zone)).strftime("%H:%M")


@tool
def get_current_time(timezone: str) -> str:
    """The current local time in an IANA time zone.

    Args:
        timezone: IANA zone name, e.g. Asia/Tokyo
    """
    return datetime.now(ZoneInfo(timezone)).strftime("%H:%M")


# -- money ----------------------------------------------------------------------


@tool
def calculate_tip(bill_amount: float, tip_percent: float = 15) -> dict[str, float]:
    """Work out the tip and the total for a restaurant bill.

    Args:
        bill_amount: the bill before the tip
        tip_percent: the tip in percent, e.g. 18 for 18%
    """
    tip = round(bill_amount * tip_percent / 100, 2)
    return {"tip": tip, "total": round(bill_amount + tip, 2)}


@tool
def split_bill(total: float, people: int) -> float:
    """Split a bill evenly: how much each person pays.

    Args:
        total: the whole bill
        people: how many people share it
    """
    return round(total / people, 2)


@tool
def compound_interest(principal: float, rate_percent: float, years: int) -> float:
    """What a deposit grows to with interest compounded once a year.

    Args:
        principal: the amount deposited
        rate_percent: yearly interest rate in percent, e.g. 5 for 5%
        years: how many years it grows
    """
    return round(principal * (1 + rate_percent / 100) ** years, 2)


@tool
def loan_payment(principal: float, annual_rate_percent: float, months: int) -> float:
    """The monthly payment of a fixed-rate loan.

    Args:
        principal: the amount borrowed
        annual_rate_percent: yearly interest rate in percent
        months: the number of monthly payments
    """
    rate = annual_rate_percent / 100 / 12
    if rate == 0:
        return round(principal / months, 2)
    return round(principal * rate / (1 - (1 + rate) ** -months), 2)


@tool
def get_stock_price(ticker: str) -> dict[str, Any]:
    """The latest price of a stock.

    Args:
        ticker: the stock's ticker symbol, e.g. AAPL
    """
    return {"ticker": ticker.upper(), "price_usd": _stand_in(ticker.upper(), 20, 900)}


# -- health -------------------------------------------------------------------------


@tool
def calculate_bmi(weight_kg: float, height_m: float) -> float:
    """Body mass index from weight and height.

    Args:
        weight_kg: body weight in kilograms
        height_m: height in metres
    """
    return round(weight_kg / height_m**2, 1)


@tool
def count_calories(food: str, grams: float) -> int:
    """Estimate the calories in a portion of a food.

    Args:
        food: the food, e.g. rice
        grams: the portion's weight in grams
    """
    return round(_stand_in(food.lower(), 0.5, 5.0) * grams)


# -- travel and places ---------------------------------------------------------------


@tool
def get_weather(location: str) -> dict[str, Any]:
    """Get the current weather for a location.

    Args:
        location: a city or place name
    """
    conditions = ("sunny", "cloudy", "rain", "snow", "windy")
    return {
        "location": location,
        "temperature_c": _stand_in(location, -10, 35, 1),
        "conditions": conditions[int(_stand_in(location + "/sky", 0, len(conditions) - 0.01, 2))],
    }


@tool
def search_flights(origin: str, destination: str, date: str) -> list[dict[str, Any]]:
    """Search flights between two airports on a day.

    Args:
        origin: IATA code of the departure airport, e.g. SFO
        destination: IATA code of the arrival airport, e.g. JFK
        date: the day of travel as YYYY-MM-DD
    """
    return [
        {"flight": f"{origin[:2]}{100 + i * 7}", "from": origin, "to": destination, "date": date,
         "price_usd": _stand_in(f"{origin}{destination}{date}{i}", 90, 650, 0)}
        for i in range(3)
    ]


@tool
def get_hotel_prices(city: str, check_in: str, nights: int) -> dict[str, Any]:
    """Hotel prices in a city for a stay.

    Args:
        city: the city to stay in
        check_in: arrival day as YYYY-MM-DD
        nights: how many nights
    """
    per_night = _stand_in(f"{city}{check_in}", 60, 300, 0)
    check_out = date.fromisoformat(check_in) + timedelta(days=nights)
    return {"city": city, "check_out": check_out.isoformat(), "per_night": per_night, "total": per_night * nights}


@tool
def get_directions(
    origin: str, destination: str, mode: Literal["driving", "walking", "transit", "cycling"] = "driving"
) -> dict[str, Any]:
    """Directions between two places.

    Args:
        origin: where the trip starts
        destination: where the trip ends
        mode: how you travel
    """
    speed_kmh = {"driving": 40, "walking": 5, "transit": 25, "cycling": 15}[mode]
    km = _stand_in(f"{origin}->{destination}", 1, 30, 1)
    return {"distance_km": km, "minutes": round(km / speed_kmh * 60), "mode": mode}


@tool
def get_population(country: str) -> int:
    """The population of a country.

    Args:
        country: the country's name in English
    """
    return int(_stand_in(country, 1e6, 3e8, 0))


@tool
def sunrise_time(location: str, day: str) -> str:
    """Local sunrise time at a place on a day.

    Args:
        location: a city or place name
        day: the day as YYYY-MM-DD
    """
    minutes = int(_stand_in(location + day, 4 * 60, 9 * 60, 0))
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


@tool
def book_restaurant(restaurant: str, party_size: int, time: str) -> dict[str, Any]:
    """Book a table at a restaurant today.

    Args:
        restaurant: the restaurant's name
        party_size: how many people
        time: when, as HH:MM (24-hour clock)
    """
    confirmation = f"R{party_size}{time.replace(':', '')}"
    return {"restaurant": restaurant, "party_size": party_size, "time": time, "confirmation": confirmation}


@tool
def get_showtimes(movie: str, city: str) -> list[str]:
    """Today's showtimes of a film in a city.

    Args:
        movie: the film's title
        city: the city
    """
    first = int(_stand_in(movie + city, 12, 16, 0))
    return [f"{hour}:00" for hour in range(first, 23, 3)]


# -- time and reminders ------------------------------------------------------------


@tool
def set_timer(minutes: int, label: str = "") -> str:
    """Start a countdown timer.

    Args:
        minutes: how long the timer runs, in minutes
        label: an optional name for the timer
    """
    return f"timer {label or 'timer'!r} set for {minutes} min"


@tool
def create_reminder(text: str, time: str) -> dict[str, str]:
    """Create a reminder for today.

    Args:
        text: what to be reminded of
        time: when, as HH:MM (24-hour clock)
    """
    return {"id": f"rem-{int(_stand_in(text + time, 100, 999, 0))}", "text": text, "time": time}


@tool
def remind_me_in(task: str, minutes: int) -> dict[str, Any]:
    """Remind me of something after a number of minutes.

    Args:
        task: what to be reminded of
        minutes: how many minutes from now
    """
    return {"task": task, "due_in_minutes": minutes}


@tool
def create_event(title: str, attendees: list[str], date: str | None = None) -> dict[str, Any]:
    """Create a calendar event and invite people.

    Args:
        title: the event's title
        attendees: names of the people to invite
        date: the day as YYYY-MM-DD; today when left out
    """
    return {"title": title, "attendees": attendees, "date": date or "today", "invites_sent": len(attendees)}


@tool
def add_todo(task: str, priority: Literal["low", "medium", "high"] = "medium") -> dict[str, str]:
    """Add a task to the to-do list.

    Args:
        task: what needs doing
        priority: how urgent it is
    """
    return {"task": task, "priority": priority, "status": "open"}


# -- messages and links -----------------------------------------------------------


@tool
def send_email(to: str, subject: str, body: str) -> str:
    """Send an e-mail.

    Args:
        to: the recipient's e-mail address
        subject: the subject line
        body: the message text
    """
    return f"sent to {to} ({len(body)} characters)"


@tool
def send_sms(phone_number: str, message: str) -> str:
    """Send a text message to a phone.

    Args:
        phone_number: the phone number in international form, e.g. +14155550100
        message: the text to send
    """
    return f"sent {len(message)} characters to {phone_number}"


@tool
def shorten_url(url: str) -> str:
    """Make a short link for a long URL.

    Args:
        url: the full URL to shorten
    """
    return "https://sho.rt/" + hashlib.sha256(url.encode()).hexdigest()[:7]


Language = Literal["english", "french", "spanish", "german", "chinese", "japanese"]


@tool
def translate(text: str, target_language: Language) -> str:
    """Translate text into another language.

    Args:
        text: the text to translate
        target_language: the language to translate into
    """
    return f"[{target_language}] {text}"


@tool
def get_definition(word: str) -> str:
    """Look up a word's definition in the dictionary.

    Args:
        word: the word to define
    """
    return f"{word}: (stand-in dictionary entry)"


@tool
def word_count(text: str) -> int:
    """Count the words in a text.

    Args:
        text: the text to count
    """
    return len(text.split())


@tool
def reverse_text(text: str) -> str:
    """Reverse a piece of text, character by character.

    Args:
        text: the text to reverse
    """
    return text[::-1]


@tool
def get_news(topic: str, limit: int = 5) -> list[str]:
    """Latest news headlines on a topic.

    Args:
        topic: what the news should be about
        limit: how many headlines, at most
    """
    return [f"{topic}: headline {i + 1}" for i in range(limit)]


# -- shops and accounts -------------------------------------------------------------


@tool
def lookup_order(order_id: str) -> dict[str, str]:
    """Look up the status of an order.

    Args:
        order_id: the order number, like A1234
    """
    statuses = ("processing", "shipped", "delivered")
    return {"order_id": order_id, "status": statuses[int(_stand_in(order_id, 0, 2.99, 2))]}


@tool
def track_package(tracking_number: str) -> str:
    """Where a parcel is now.

    Args:
        tracking_number: the carrier's tracking number
    """
    return f"{tracking_number}: in transit"


@tool
def get_user(user_id: int) -> dict[str, Any]:
    """Fetch a user's account by id.

    Args:
        user_id: the numeric user id
    """
    return {"id": user_id, "name": f"user{user_id}", "active": True}


@tool
def cancel_subscription(subscription_id: str, reason: str | None = None) -> str:
    """Cancel a subscription.

    Args:
        subscription_id: the subscription's id, like SUB-1001
        reason: why, if the customer said
    """
    return f"{subscription_id} cancelled" + (f" ({reason})" if reason else "")


class NewUser(pydantic.BaseModel):
    """A user account to create."""

    name: str = pydantic.Field(description="the person's full name")
    email: str = pydantic.Field(description="their e-mail address")
    age: int | None = pydantic.Field(default=None, description="their age in years, if given")


@tool
def create_user(user: NewUser) -> dict[str, Any]:
    """Create a user account.

    Args:
        user: the new user's details
    """
    return {"id": int(_stand_in(user.email, 1000, 9999, 0)), **user.model_dump()}


class Address(pydantic.BaseModel):
    """Where a parcel goes."""

    city: str = pydantic.Field(description="the city")
    postal_code: str = pydantic.Field(description="the postal code")


@tool
def ship_package(address: Address, weight_kg: float) -> dict[str, Any]:
    """Book a parcel delivery and get its price.

    Args:
        address: where to deliver
        weight_kg: the parcel's weight in kilograms
    """
    return {"to": address.city, "price_eur": round(4.5 + 1.8 * weight_kg, 2)}


@tool
def list_issues(repo: str, state: Literal["open", "closed", "all"] = "open") -> list[str]:
    """List a GitHub repository's issues.

    Args:
        repo: the repository as owner/name
        state: which issues to list
    """
    return [f"{repo}#{n} ({state})" for n in range(1, 4)]


# -- home and media ----------------------------------------------------------------


@tool
def set_light(room: str, on: bool) -> str:
    """Switch the lights in a room on or off.

    Args:
        room: the room, e.g. kitchen
        on: true to switch on, false to switch off
    """
    return f"{room} light {'on' if on else 'off'}"


@tool
def set_thermostat(temperature: float) -> str:
    """Set the heating's target temperature.

    Args:
        temperature: the target in degrees Celsius
    """
    return f"thermostat set to {temperature} °C"


@tool
def set_volume(level: int) -> str:
    """Set the speaker volume.

    Args:
        level: the volume from 0 to 100
    """
    if not 0 <= level <= 100:
        raise ValueError("the volume goes from 0 to 100")
    return f"volume {level}"


@tool
def set_do_not_disturb(enabled: bool) -> str:
    """Turn do-not-disturb mode on or off.

    Args:
        enabled: true to silence notifications
    """
    return "do not disturb " + ("on" if enabled else "off")


@tool
def play_music(song: str, artist: str | None = None) -> str:
    """Play a song.

    Args:
        song: the song's title
        artist: who sings it, if given
    """
    return f"playing {song}" + (f" by {artist}" if artist else "")


@tool
def roll_dice(sides: int = 6, count: int = 1) -> list[int]:
    """Roll dice.

    Args:
        sides: faces on each die
        count: how many dice to roll
    """
    return [1 + int(_stand_in(f"{sides}/{count}/{i}", 0, sides - 0.01, 2)) for i in range(count)]


@tool
def generate_password(length: int = 16, symbols: bool = True) -> str:
    """Generate a random password.

    Args:
        length: how many characters
        symbols: whether to include punctuation symbols
    """
    alphabet = string.ascii_letters + string.digits + (string.punctuation if symbols else "")
    digest = hashlib.sha256(f"{length}{symbols}".encode()).digest() * (length // 32 + 1)
    return "".join(alphabet[b % len(alphabet)] for b in digest[:length])


# -- the cases --------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One plain question, the tool offered with it, and the expected first turn.

    ``calls`` holds the expected arguments of each call (all to ``tool``); an
    empty ``calls`` with ``missing`` set means the question leaves the required
    parameter ``missing`` unstated, so the right first turn makes no call.
    ``aliases`` maps an expected string value to the words the question uses
    for it (``"celsius": "°C"``), for :func:`is_stated`.
    """

    question: str
    tool: Tool
    calls: tuple[Mapping[str, Any], ...] = ()
    missing: str | None = None
    aliases: Mapping[str, str] = field(default_factory=dict)

    @property
    def declines(self) -> bool:
        return self.missing is not None


def ask(
    tool_: Tool | Callable[..., Any],
    question: str,
    *calls: Mapping[str, Any],
    aliases: Mapping[str, str] | None = None,
) -> Case:
    """A case answered by ``calls`` (one argument dict per call of ``tool_``, a tool or a plain function)."""
    return Case(question, tool(tool_), tuple(calls), None, dict(aliases or {}))


def decline(tool_: Tool | Callable[..., Any], question: str, missing: str) -> Case:
    """A case whose question leaves the required parameter ``missing`` unstated: no call is right."""
    return Case(question, tool(tool_), (), missing)


CASES: tuple[Case, ...] = (
    ask(add, "What is 3 plus 4?", {"a": 3, "b": 4}),
    ask(add, "Add 2.5 and 10", {"a": 2.5, "b": 10}),
    ask(add, "三加四等于几?", {"a": 3, "b": 4}),  # "What do three and four add up to?"
    ask(multiply, "Multiply 6 by 7", {"x": 6, "y": 7}),
    ask(multiply, "What's 12 times 11?", {"x": 12, "y": 11}),
    ask(divide, "Divide 100 by 8", {"dividend": 100, "divisor": 8}),
    ask(divide, "What is 45 divided by 9?", {"dividend": 45, "divisor": 9}),
    ask(average, "What's the average of 4, 8 and 15?", {"numbers": [4, 8, 15]}),
    ask(is_prime, "Is 97 a prime number?", {"n": 97}),
    ask(is_prime, "Are 91 and 89 prime numbers?", {"n": 91}, {"n": 89}),
    ask(factorial, "Compute the factorial of 10", {"n": 10}),
    ask(circle_area, "What's the area of a circle with radius 3?", {"radius": 3}),
    ask(rectangle_area, "Area of a rectangle 4 wide and 7 high?", {"width": 4, "height": 7}),
    ask(to_roman, "Write 2026 in Roman numerals", {"number": 2026}),
    ask(convert_units, "Convert 5 miles to kilometers",
        {"value": 5, "from_unit": "miles", "to_unit": "kilometers"}),
    ask(convert_units, "How many pounds is 3 kilograms?",
        {"value": 3, "from_unit": "kilograms", "to_unit": "pounds"}),
    ask(convert_temperature, "What is 5 °C in Fahrenheit?",
        {"value": 5, "from_scale": "celsius", "to_scale": "fahrenheit"}, aliases={"celsius": "°C"}),
    ask(convert_temperature, "Convert 300 kelvin to celsius",
        {"value": 300, "from_scale": "kelvin", "to_scale": "celsius"}),
    # "Convert 100 degrees Fahrenheit to Celsius"
    ask(convert_temperature, "把100华氏度换算成摄氏度",
        {"value": 100, "from_scale": "fahrenheit", "to_scale": "celsius"},
        aliases={"fahrenheit": "华氏", "celsius": "摄氏"}),
    ask(convert_currency, "Convert 100 USD to EUR",
        {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}),
    ask(convert_currency, "How much is 250 GBP in JPY?",
        {"amount": 250, "from_currency": "GBP", "to_currency": "JPY"}),
    ask(convert_currency, "How many euros do I get for 80 dollars?",
        {"amount": 80, "from_currency": "USD", "to_currency": "EUR"}, aliases={"USD": "dollars", "EUR": "euros"}),
    decline(convert_currency, "I want to change some USD into EUR", "amount"),
    ask(get_exchange_rate, "What's the EUR to USD exchange rate?", {"base": "EUR", "quote": "USD"}),
    ask(convert_time_zone, "What time is 09:00 America/New_York in Europe/London?",
        {"time": "09:00", "from_zone": "America/New_York", "to_zone": "Europe/London"}),
    decline(convert_time_zone, "Convert 14:30 to Asia/Tokyo time", "from_zone"),
    ask(get_current_time, "What time is it in Asia/Tokyo?", {"timezone": "Asia/Tokyo"}),
    ask(get_current_time, "What time is it now in Europe/Berlin and America/Chicago?",
        {"timezone": "Europe/Berlin"}, {"timezone": "America/Chicago"}),
    ask(calculate_tip, "What's a 20% tip on a bill of 80 dollars?", {"bill_amount": 80, "tip_percent": 20}),
    ask(calculate_tip, "Calculate the tip on a $45.50 bill", {"bill_amount": 45.5}),
    decline(calculate_tip, "How much should I tip at 18%?", "bill_amount"),
    ask(split_bill, "Split a 120 dollar bill between 4 people", {"total": 120, "people": 4}),
    ask(split_bill, "The bill was $96, split it four ways", {"total": 96, "people": 4}),
    decline(split_bill, "Split the bill between 3 people", "total"),
    ask(compound_interest, "How much will 1000 dollars grow to at 5% a year for 10 years?",
        {"principal": 1000, "rate_percent": 5, "years": 10}),
    ask(loan_payment, "What's the monthly payment on a 20000 loan at 4.5% over 60 months?",
        {"principal": 20000, "annual_rate_percent": 4.5, "months": 60}),
    ask(get_stock_price, "Compare the stock prices of AAPL and MSFT", {"ticker": "AAPL"}, {"ticker": "MSFT"}),
    ask(get_stock_price, "What is NVDA trading at?", {"ticker": "NVDA"}),
    decline(get_stock_price, "How are my stocks doing today?", "ticker"),
    ask(calculate_bmi, "I weigh 70 kg and I'm 1.75 m tall. What's my BMI?", {"weight_kg": 70, "height_m": 1.75}),
    decline(calculate_bmi, "What is my BMI if I weigh 82 kg?", "height_m"),
    ask(count_calories, "How many calories are in 150 grams of rice?", {"food": "rice", "grams": 150}),
    ask(get_weather, "What's the weather in Paris?", {"location": "Paris"}),
    ask(get_weather, "Is it raining in Tokyo or Osaka?", {"location": "Tokyo"}, {"location": "Osaka"}),
    # "What's the weather in Shanghai now?"
    ask(get_weather, "上海现在天气怎么样?", {"location": "上海"}),
    ask(get_weather, "What's the weather in Paris, London and Rome?",
        {"location": "Paris"}, {"location": "London"}, {"location": "Rome"}),
    decline(get_weather, "Do I need an umbrella today?", "location"),
    ask(search_flights, "Find flights from SFO to JFK on 2026-03-01",
        {"origin": "SFO", "destination": "JFK", "date": "2026-03-01"}),
    ask(search_flights, "Any flights from LHR to CDG on 2026-04-12?",
        {"origin": "LHR", "destination": "CDG", "date": "2026-04-12"}),
    decline(search_flights, "Find me flights from SFO to JFK", "date"),
    decline(search_flights, "帮我找去东京的航班", "origin"),  # "Find me flights to Tokyo"
    ask(get_hotel_prices, "Hotel prices in Lisbon from 2026-06-10 for 3 nights",
        {"city": "Lisbon", "check_in": "2026-06-10", "nights": 3}),
    decline(get_hotel_prices, "How much is a hotel in Lisbon for 3 nights?", "check_in"),
    ask(get_directions, "Walking directions from Union Station to Navy Pier",
        {"origin": "Union Station", "destination": "Navy Pier", "mode": "walking"}),
    ask(get_directions, "How do I get from Alexanderplatz to Tegel?",
        {"origin": "Alexanderplatz", "destination": "Tegel"}),
    decline(get_directions, "How do I get to the airport?", "origin"),
    ask(get_population, "What is the population of Canada?", {"country": "Canada"}),
    ask(get_population, "Population of Japan and Brazil?", {"country": "Japan"}, {"country": "Brazil"}),
    ask(sunrise_time, "When is sunrise in Reykjavik on 2026-06-21?",
        {"location": "Reykjavik", "day": "2026-06-21"}),
    ask(book_restaurant, "Book a table for 4 at Luigi's at 19:30",
        {"restaurant": "Luigi's", "party_size": 4, "time": "19:30"}),
    decline(book_restaurant, "Book a table for 2 at Luigi's", "time"),
    ask(get_showtimes, "When is 'Dune' playing in Austin?", {"movie": "Dune", "city": "Austin"}),
    ask(set_timer, "Set a timer for 15 minutes", {"minutes": 15}),
    ask(set_timer, "Set a 10 minute timer called 'pasta'", {"minutes": 10, "label": "pasta"}),
    ask(set_timer, "设置一个10分钟的计时器", {"minutes": 10}),  # "Set a 10-minute timer"
    decline(set_timer, "Start a timer for my tea", "minutes"),
    ask(create_reminder, "Remind me to call mom at 18:30", {"text": "call mom", "time": "18:30"}),
    decline(create_reminder, "Remind me to water the plants", "time"),
    ask(remind_me_in, "Remind me to stretch in 15 minutes", {"task": "stretch", "minutes": 15}),
    ask(create_event, "Create an event 'Standup' with alice and bob",
        {"title": "Standup", "attendees": ["alice", "bob"]}),
    ask(create_event, "Schedule 'Design review' on 2026-05-04 with carol, dan and erin",
        {"title": "Design review", "date": "2026-05-04", "attendees": ["carol", "dan", "erin"]}),
    decline(create_event, "Set up a meeting with alice and bob", "title"),
    ask(add_todo, "Add 'buy milk' to my to-do list with high priority", {"task": "buy milk", "priority": "high"}),
    ask(add_todo, "Add 'renew passport' to my to-do list", {"task": "renew passport"}),
    ask(send_email, "Send an email to bob@example.com with subject 'Lunch' saying 'See you at noon'",
        {"to": "bob@example.com", "subject": "Lunch", "body": "See you at noon"}),
    decline(send_email, "Email my landlord that the heating is broken", "to"),
    ask(send_sms, "Text +14155550100 'on my way'", {"phone_number": "+14155550100", "message": "on my way"}),
    decline(send_sms, "Send a text saying 'running late'", "phone_number"),
    ask(shorten_url, "Shorten https://example.com/articles/2026/tool-calling-guide",
        {"url": "https://example.com/articles/2026/tool-calling-guide"}),
    ask(shorten_url, "Can you make this link shorter: https://docs.python.org/3/library/json.html",
        {"url": "https://docs.python.org/3/library/json.html"}),
    ask(translate, "Translate 'good morning' into French", {"text": "good morning", "target_language": "french"}),
    ask(translate, "How do you say 'thank you' in Japanese?",
        {"text": "thank you", "target_language": "japanese"}),
    # "Translate '你好' (hello) into English"
    ask(translate, "把'你好'翻译成英文", {"text": "你好", "target_language": "english"},
        aliases={"english": "英文"}),
    decline(translate, "Translate this into German", "text"),
    ask(get_definition, "What does 'ephemeral' mean?", {"word": "ephemeral"}),
    ask(word_count, "How many words are in 'the quick brown fox jumps'?", {"text": "the quick brown fox jumps"}),
    ask(reverse_text, "Reverse the string 'conductor'", {"text": "conductor"}),
    ask(get_news, "Show me 3 headlines about climate", {"topic": "climate", "limit": 3}),
    ask(get_news, "What's the latest news on electric cars?", {"topic": "electric cars"}),
    ask(lookup_order, "Where is my order A1234?", {"order_id": "A1234"}),
    ask(lookup_order, "Check the status of orders A1234 and B5678", {"order_id": "A1234"}, {"order_id": "B5678"}),
    decline(lookup_order, "Where is my order?", "order_id"),
    ask(track_package, "Track package 1Z999AA10123456784", {"tracking_number": "1Z999AA10123456784"}),
    ask(get_user, "Look up user 42", {"user_id": 42}),
    ask(cancel_subscription, "Cancel subscription SUB-889", {"subscription_id": "SUB-889"}),
    decline(cancel_subscription, "Please cancel my subscription, it's too expensive", "subscription_id"),
    ask(create_user, "Create a user named Alice Smith with email alice@example.com",
        {"user": {"name": "Alice Smith", "email": "alice@example.com"}}),
    ask(create_user, "Sign up Bob Lee, bob.lee@example.org, age 34",
        {"user": {"name": "Bob Lee", "email": "bob.lee@example.org", "age": 34}}),
    ask(ship_package, "Ship a 2.5 kg parcel to Berlin, postal code 10115",
        {"address": {"city": "Berlin", "postal_code": "10115"}, "weight_kg": 2.5}),
    ask(list_issues, "List the closed issues in octocat/hello-world",
        {"repo": "octocat/hello-world", "state": "closed"}),
    ask(set_light, "Turn off the light in the kitchen", {"room": "kitchen", "on": False}),
    ask(set_light, "Switch on the bedroom lights", {"room": "bedroom", "on": True}),
    ask(set_light, "把客厅的灯打开", {"room": "客厅", "on": True}),  # "Turn on the living-room light"
    ask(set_thermostat, "Set the thermostat to 21 degrees", {"temperature": 21}),
    ask(set_volume, "Set the volume to 30", {"level": 30}),
    ask(set_do_not_disturb, "Turn on do not disturb", {"enabled": True}),
    ask(set_do_not_disturb, "Disable do-not-disturb mode", {"enabled": False}),
    ask(play_music, "Play 'Bohemian Rhapsody' by Queen", {"song": "Bohemian Rhapsody", "artist": "Queen"}),
    ask(play_music, "Play 'Clair de Lune'", {"song": "Clair de Lune"}),
    ask(roll_dice, "Roll a 20-sided die", {"sides": 20}),
    ask(roll_dice, "Roll 3 dice", {"count": 3}),
    ask(generate_password, "Generate a 24-character password without symbols", {"length": 24, "symbols": False}),
)

TOOLS: tuple[Tool, ...] = tuple(dict.fromkeys(case.tool for case in CASES))
"""Every tool of the suite, once each, in the order of their first case."""


# -- what counts as stated ----------------------------------------------------------

_TRUE_WORDS = frozenset({"on", "yes", "true", "enable", "enabled", "activate", "start", "with"})
_FALSE_WORDS = frozenset({"off", "no", "not", "false", "disable", "disabled", "deactivate", "stop", "without"})
_CURRENCY_SIGNS = {"USD": "$", "EUR": "€", "GBP": "£"}
_TRUE_CJK = ("开",)  # 打开 / 开启: switch on
_FALSE_CJK = ("关", "不")  # 关闭 / 关掉: switch off; 不: not

_NUMBER_RE = re.compile(r"(?<![\d.])-?\d+(?:,\d{3})*(?:\.\d+)?(%?)")
_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_NUMBER_WORDS = {word: i for i, word in enumerate(_UNITS)} | {word: 20 + 10 * i for i, word in enumerate(_TENS)}
_NUMBER_WORDS |= {"dozen": 12}
_MULTIPLIERS = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_CJK_DIGITS = dict(zip("零一二三四五六七八九", range(10))) | {"〇": 0, "两": 2}
_CJK_UNITS = {"十": 10, "百": 100, "千": 1000}
_CJK_NUMBER_RE = re.compile(f"[{''.join(_CJK_DIGITS)}{''.join(_CJK_UNITS)}]+")




def _cjk_number(text: str) -> int:
    """Value of a Chinese numeral such as 三, 十五, 二十四 or 一百零八."""
    total, digit = 0, 0
    for ch in text:
        if ch in _CJK_DIGITS:
            digit = _CJK_DIGITS[ch]
        else:
            total += (digit or 1) * _CJK_UNITS[ch]
            digit = 0
    return total + digit


def _numbers_in(question: str) -> set[float]:
    """Every number the question states: digits (``1,000``, ``4.5``, ``-3``), words, Chinese numerals.

    ``15%`` states both 15 and 0.15; ``twenty five`` / ``twenty-five`` states 25 (and 20 and 5),
    ``two hundred`` 200 (and 2);
    ``1,000`` states 1000 (and 1 and 0, in case it was a list).
    """
    found: set[float] = set()
    for match in _NUMBER_RE.finditer(question):
        value = float(match.group(0).rstrip("%").replace(",", ""))
        found.add(value)
        if match.group(1):
            found.add(value / 100)
        if "," in match.group(0):  # "3,4" may be a list of two numbers rather than 34
            found.update(float(part) for part in match.group(0).rstrip("%").split(","))
    words = normalise(question).split()
    for i, word in enumerate(words):
        if word in _NUMBER_WORDS:
            value = _NUMBER_WORDS[word]
            found.add(value)
            if word in _TENS and i + 1 < len(words) and _NUMBER_WORDS.get(words[i + 1], 10) < 10:
                found.add(value + _NUMBER_WORDS[words[i + 1]])
        elif word in _MULTIPLIERS:
            # "two hundred", "3 thousand": the count before may be a word or digits.
            before = _NUMBER_WORDS.get(words[i - 1], 1) if i else 1
            if i and re.fullmatch(r"\d+", words[i - 1]):
                before = int(words[i - 1])
            found.add(before * _MULTIPLIERS[word])
    found.update(float(_cjk_number(m.group(0))) for m in _CJK_NUMBER_RE.finditer(question))
    return found


def _text_in(value: str, question: str) -> bool:
    """``value`` occurs in ``question`` as whole words once both are normalised (Chinese: anywhere).

    A single English word counts in its plural form too ("pharmacies" states "pharmacy").
    """
    needle = normalise(value)
    # One English word is stated by its plural too: "pharmacies" states pharmacy, "cats" states cat.
    forms = [needle]
    if re.fullmatch(r"[a-z]{3,}", needle):
        forms += [needle + "s", needle + "es"] + ([needle[:-1] + "ies"] if needle.endswith("y") else [])
    text = normalise(question)
    return any(holds_words(text, form) for form in forms)


def _bool_in(value: bool, question: str) -> bool:
    """The question has a word of ``value``'s polarity (on/yes/enable..., off/no/without...; 开, 关/不)."""
    words = set(normalise(question).split())
    latin, cjk = (_TRUE_WORDS, _TRUE_CJK) if value else (_FALSE_WORDS, _FALSE_CJK)
    return bool(words & latin) or any(ch in question for ch in cjk)


def is_stated(value: Any, question: str, aliases: Mapping[str, str] | None = None) -> bool:
    """Whether the question states this one argument value (a leaf: text, number or boolean).

    * text: the value, or the alias the case gives for it, occurs in the question (a one-word English
      value also as a Chinese word the course's glossary gives it for, 基础 for ``basic``)
      as whole words once both are casefolded and every run of punctuation and
      spaces is one space (so ``alice@example.com`` and ``Europe/London`` match
      as written, ``°C`` matches ``c``; one English word also as its plural, ``cats`` for ``cat``; a
      currency code as the sign before an amount, ``€45`` for ``EUR``; the option ``"none"`` as a
      word of "off" polarity: "no milk");
      an empty text states nothing and is not counted;
    * number: equal to a number the question writes in digits (``15%`` also
      states 0.15), in English words (``four``, ``twenty-five``) or in Chinese
      numerals (``十五``);
    * boolean: the question has a word of that polarity (``on``, ``enable``,
      ``with``, 开 for true; ``off``, ``disable``, ``without``, ``not``, 关, 不 for false);
    * ``None``: states nothing and is not counted.
    """
    if value is None or value == "":
        return True
    if isinstance(value, bool):
        return _bool_in(value, question)
    if isinstance(value, (int, float)):
        return any(math.isclose(value, n, rel_tol=1e-9, abs_tol=1e-9) for n in _numbers_in(question))
    if isinstance(value, str) and value.casefold() in ("none", "no"):
        return _bool_in(False, question)  # the "none" option is said as "no milk", "without a side"
    if isinstance(value, str):
        alias = (aliases or {}).get(value)
        signed = _CURRENCY_SIGNS.get(value.upper())  # "€45" states EUR: the sign has no letters to compare
        return _text_in(value, question) or (alias is not None and _text_in(alias, question)) or (
            signed is not None and re.search(rf"{re.escape(signed)}\s?\d", question) is not None) or (
            _said_in_chinese(value, question))
    return False


def _said_in_chinese(value: str, question: str) -> bool:
    """A one-word English value a Chinese word of the question means, in the course's glossary: 基础 for basic."""
    word = value.casefold().replace("_", " ")
    return " " not in word and any(
        phrase in question and word in glosses for phrase, glosses in CHINESE_GLOSSARY.items())


def _leaves(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Every text, number and boolean inside ``value``, with its path like ``user.email`` or ``attendees[1]``."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _leaves(item, f"{path}[{i}]")
    else:
        yield path, value


def unstated_values(tool_: Tool, arguments: Any, question: str, aliases: Mapping[str, str] | None = None,
                    *, vouched: Sequence[tuple[str, Any]] = ()) -> list[str]:
    """The argument values of one call that ``question`` does not state, as ``path=value`` strings.

    A top-level argument equal to its parameter's default is skipped (sending
    the default does what leaving it out does); so is a leaf ``vouched`` for: a (path, value) of a case's
    expected call, which its author read in the question ("had surgery on my shoulder" states
    ``post_surgery=True`` though no word of it says "true"); every other leaf, nested ones
    included, must pass :func:`is_stated`. Arguments that are not a JSON object
    are not checked here (the call is wrong anyway).
    """
    if not isinstance(arguments, Mapping):
        return []
    fields = tool_.arguments_model.model_fields
    unstated = []
    for name, value in arguments.items():
        known = fields.get(name)
        if known is not None and not known.is_required() and value == known.default:
            continue
        unstated += [
            f"{path}={leaf!r}" for path, leaf in _leaves(value, name)
            if not is_stated(leaf, question, aliases) and not _switch_named(name, leaf, question)
            and not any(path == known and _same(expected, leaf) for known, expected in vouched)
        ]
    return unstated


def _switch_named(name: str, value: Any, question: str) -> bool:
    """A boolean the question states by the parameter's own word: "force restart db-01" states ``force=True``.

    True when every word of the name (split at "_" and camelCase; "is"/"use"/"enable" and words of one or two
    letters such as "at", "up" dropped, as the offline model reads names) is in the question, or a Chinese
    word the glossary gives for one of them is (加急 for rush); False when one of them follows "no", "not",
    "without" or "don't" (不/别/无/没有 in Chinese), or a lone word is undone by "un" ("unlock" states
    ``lock=False``).
    """
    if not isinstance(value, bool):
        return False
    parts = [w for w in re.split(r"_|(?<=[a-z])(?=[A-Z])", name) if w]
    named = [w.lower() for w in parts if w.lower() not in ("is", "use", "enable", "include") and len(w) > 2]
    text = normalise(question)
    if len(named) == 1 and re.search(rf"\bun{re.escape(named[0])}", text):
        return value is False  # "unlock the door" states lock=False
    said_in_chinese = _switch_in_chinese(named, question)
    if said_in_chinese is not None:
        return said_in_chinese is value
    if not named or not all(re.search(rf"\b{re.escape(w)}", text) for w in named):
        return False
    negated = any(re.search(rf"\b(?:no|not|without|don ?t|never)\s+(?:\w+\s+)?{re.escape(w)}", text) for w in named)
    return negated is not value


def _switch_in_chinese(named: list[str], question: str) -> bool | None:
    """A Chinese word for one of the name's words ("加急" for rush), off after 不/别/无/没有; None if absent.

    The words are the course's bilingual glossary, the same list the offline model reads Chinese with.
    """
    for phrase, glosses in CHINESE_GLOSSARY.items():
        at = question.find(phrase)
        if at >= 0 and set(named) & set(glosses):
            return not negated_in_chinese(question, at)
    return None


# -- judging one first turn -------------------------------------------------------------

Outcome = Literal["correct", "declined", "wrong", "missed"]


@dataclass(frozen=True)
class Verdict:
    """How one first turn compares with its case.

    ``outcome``: ``correct`` (exactly the expected calls), ``declined`` (no call,
    as expected), ``wrong`` (a call with other arguments, another number of
    calls, or any call where none was expected), ``missed`` (no call where one
    was expected). ``unstated`` holds, per call, the argument values the
    question did not state (see :func:`unstated_values`).
    """

    case: Case
    calls: tuple[tuple[str, Any], ...]
    outcome: Outcome
    unstated: tuple[tuple[str, ...], ...]
    reply: str = ""

    @property
    def unstated_calls(self) -> int:
        """Calls that carry at least one argument value the question did not state."""
        return sum(1 for values in self.unstated if values)

    @property
    def ok(self) -> bool:
        return self.outcome in ("correct", "declined")

    @property
    def reply_names_missing(self) -> bool:
        """A decline whose reply says what is missing as words a person reads ("from currency" for
        ``from_currency``, "weight" for ``weight_kg``), never naming the tool's or the parameter's identifier."""
        text = self.reply.casefold()
        name = str(self.case.missing)
        bare, _ = unit_of(name)  # "weight_kg" said as "weight in kg"
        said = {" ".join(name_words(name)), " ".join(name_words(bare))}
        identifiers = {self.case.tool.name.casefold()} | ({name.casefold()} if "_" in name else set())
        return (self.outcome == "declined" and any(s in text for s in said)
                and not any(re.search(rf"\b{re.escape(i)}\b", text) for i in identifiers))


_JSON_OBJECT = pydantic.TypeAdapter(dict[str, Any])  # dumps nested models as plain JSON values


def _comparable(tool_: Tool, arguments: Any) -> dict[str, Any] | None:
    """The arguments as the tool would run them (defaults filled in, JSON types), or None when invalid."""
    try:
        validated = tool_.validate(arguments)
    except ToolArgumentsError:
        return None
    return _JSON_OBJECT.dump_python(validated, mode="json")


def _clean_text(text: str) -> str:
    return " ".join(text.casefold().split()).strip(".,;:!?'\" ")


def _same(expected: Any, actual: Any) -> bool:
    """Equal by value: numbers numerically, text ignoring case, spacing and end punctuation."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return math.isclose(expected, actual, rel_tol=1e-9, abs_tol=1e-9)
    if isinstance(expected, str) and isinstance(actual, str):
        return _clean_text(expected) == _clean_text(actual)
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        return expected.keys() == actual.keys() and all(_same(expected[k], actual[k]) for k in expected)
    if isinstance(expected, Sequence) and isinstance(actual, Sequence):
        return len(expected) == len(actual) and all(_same(e, a) for e, a in zip(expected, actual))
    return expected == actual


def _calls_match(case: Case, calls: Sequence[tuple[str, Any]]) -> bool:
    """Every expected call made exactly once, nothing else; order within the turn does not matter."""
    if len(calls) != len(case.calls) or any(name != case.tool.name for name, _ in calls):
        return False
    remaining = [_comparable(case.tool, expected) for expected in case.calls]
    for _, arguments in calls:
        actual = _comparable(case.tool, arguments)
        match = next((i for i, expected in enumerate(remaining) if actual is not None and _same(expected, actual)),
                     None)
        if match is None:
            return False
        remaining.pop(match)
    return True


def judge(case: Case, calls: Sequence[tuple[str, Any]], reply: str = "") -> Verdict:
    """The verdict on a first turn that made ``calls`` (name, parsed arguments) and wrote ``reply``."""
    if not calls:
        outcome: Outcome = "declined" if case.declines else "missed"
    elif case.declines:
        outcome = "wrong"
    else:
        outcome = "correct" if _calls_match(case, calls) else "wrong"
    vouched = [leaf for expected in case.calls for leaf in _leaves(expected, "")]
    unstated = tuple(
        tuple(unstated_values(case.tool, arguments, case.question, case.aliases, vouched=vouched))
        for _, arguments in calls
    )
    return Verdict(case, tuple(calls), outcome, unstated, reply)


def describe_call(name: str, arguments: Any) -> str:
    """One call as a learner would write it: ``add(a=3, b=4)`` (raw text when not a JSON object)."""
    if not isinstance(arguments, Mapping):
        return f"{name}({arguments})"
    shown = ", ".join(f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in arguments.items())
    return f"{name}({shown})"


def describe_expected(case: Case) -> str:
    """What the case expects: its calls, or ``no call (<parameter> not stated)``."""
    if case.declines:
        return f"no call ({case.missing} not stated)"
    return "; ".join(describe_call(case.tool.name, arguments) for arguments in case.calls)
