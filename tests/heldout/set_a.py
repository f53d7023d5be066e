"""Held-out set A: 30 learner-style tools and 60 plain questions for the offline model.

Written blind: without reading the offline model's rules, and never edited after
measuring.  Each case is the first turn a careful real model would take: the exact
calls, or a decline when a required parameter is not stated in the question.
"""

import hashlib
import math
from typing import Literal

import pydantic

from conductor.course.offline_suite import ask, decline
from conductor.tools import tool


def _fake(key: str, low: float, high: float, digits: int = 2) -> float:
    """A number in [low, high] fixed by ``key`` (stand-in data, the same on every run)."""
    fraction = int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big") / 2**32
    return round(low + fraction * (high - low), digits)


# -- money --------------------------------------------------------------------


@tool
def tip_amount(bill: float, percent: float) -> float:
    """Work out the tip to leave on a restaurant bill.

    Args:
        bill: The bill total before tip.
        percent: Tip percentage, e.g. 15 for a 15% tip.
    """
    return round(bill * percent / 100, 2)


@tool
def loan_payment(principal: float, annual_rate: float, years: int) -> float:
    """Monthly repayment of a fixed-rate loan.

    Args:
        principal: Amount borrowed.
        annual_rate: Yearly interest rate in percent, e.g. 6.5.
        years: Length of the loan in years.
    """
    r = annual_rate / 100 / 12
    n = years * 12
    if r == 0:
        return round(principal / n, 2)
    return round(principal * r / (1 - (1 + r) ** -n), 2)


@tool
def convert_currency(amount: float, from_currency: str, to_currency: str) -> dict:
    """Convert money between two currencies at today's rate.

    Args:
        amount: How much money to convert.
        from_currency: ISO code of the currency you have, e.g. USD.
        to_currency: ISO code of the currency you want, e.g. EUR.
    """
    rate = _fake(f"{from_currency}->{to_currency}", 0.2, 5.0, 4)
    return {"amount": round(amount * rate, 2), "currency": to_currency, "rate": rate}


@tool
def compound_interest(principal: float, rate_percent: float, years: int, compounds_per_year: int = 12) -> float:
    """Value of a savings deposit after compound interest.

    Args:
        principal: Starting deposit.
        rate_percent: Yearly interest rate in percent.
        years: How many years the money stays invested.
        compounds_per_year: How many times a year interest is added (12 = monthly).
    """
    return round(principal * (1 + rate_percent / 100 / compounds_per_year) ** (compounds_per_year * years), 2)


@tool
def percent_change(old_value: float, new_value: float) -> float:
    """Percentage change from an old value to a new one.

    Args:
        old_value: The starting value.
        new_value: The value it changed to.
    """
    return round((new_value - old_value) / old_value * 100, 2)


@tool
def split_bill(total: float, people: int, tip_percent: float = 0) -> float:
    """How much each person pays when a bill is shared equally.

    Args:
        total: The bill total.
        people: Number of people sharing.
        tip_percent: Optional tip percentage added on top, e.g. 10.
    """
    return round(total * (1 + tip_percent / 100) / people, 2)


@tool
def bank_transfer(from_account: str, to_account: str, amount: float, memo: str | None = None) -> dict:
    """Move money between two bank accounts.

    Args:
        from_account: Account to take the money from (name or number).
        to_account: Account to pay into (name or number).
        amount: Amount to transfer.
        memo: Optional note shown on the statement.
    """
    ref = hashlib.sha1(f"{from_account}{to_account}{amount}".encode()).hexdigest()[:8]
    return {"status": "scheduled", "reference": ref, "amount": amount, "memo": memo}


@tool
def stock_quote(ticker: str) -> dict:
    """Latest share price for a stock ticker.

    Args:
        ticker: Stock symbol, e.g. AAPL.
    """
    return {"ticker": ticker, "price": _fake(ticker, 10, 900)}


# -- units and health ------------------------------------------------------------

LengthUnit = Literal["millimeters", "centimeters", "meters", "kilometers", "inches", "feet", "yards", "miles"]
_METERS = {
    "millimeters": 0.001,
    "centimeters": 0.01,
    "meters": 1.0,
    "kilometers": 1000.0,
    "inches": 0.0254,
    "feet": 0.3048,
    "yards": 0.9144,
    "miles": 1609.344,
}


@tool
def convert_length(value: float, from_unit: LengthUnit, to_unit: LengthUnit) -> float:
    """Convert a length from one unit to another.

    Args:
        value: The length to convert.
        from_unit: Unit the length is given in.
        to_unit: Unit to convert to.
    """
    return round(value * _METERS[from_unit] / _METERS[to_unit], 4)


@tool
def calories_burned(
    activity: Literal["running", "cycling", "swimming", "walking"], minutes: int, weight_kg: float | None = None
) -> int:
    """Estimate calories burned during a workout.

    Args:
        activity: The kind of exercise.
        minutes: How long the workout lasted, in minutes.
        weight_kg: Optional body weight in kilograms (70 kg is assumed otherwise).
    """
    met = {"running": 9.8, "cycling": 7.5, "swimming": 8.0, "walking": 3.5}[activity]
    return round(met * (weight_kg or 70) * minutes / 60)


@tool
def bmi(weight_kg: float, height_cm: float) -> float:
    """Body mass index from weight and height.

    Args:
        weight_kg: Body weight in kilograms.
        height_cm: Height in centimetres.
    """
    return round(weight_kg / (height_cm / 100) ** 2, 1)


@tool
def scale_recipe(recipe_name: str, servings: int) -> dict:
    """Rescale a saved recipe to a number of servings.

    Args:
        recipe_name: Name of the recipe in the cookbook.
        servings: How many servings to make.
    """
    base = int(_fake(recipe_name, 2, 8, 0))
    return {"recipe": recipe_name, "factor": round(servings / base, 2), "servings": servings}


# -- shipping ----------------------------------------------------------------------


@tool
def shipping_quote(weight_kg: float, origin_country: str, destination_country: str, express: bool = False) -> dict:
    """Price to send a parcel between two countries.

    Args:
        weight_kg: Parcel weight in kilograms.
        origin_country: Country the parcel is sent from.
        destination_country: Country the parcel goes to.
        express: Whether to use express delivery.
    """
    price = _fake(f"{origin_country}/{destination_country}", 8, 40) + 4.5 * weight_kg
    return {"price": round(price * (1.8 if express else 1), 2), "days": 2 if express else 7}


@tool
def track_parcel(tracking_id: str) -> dict:
    """Where a parcel is right now.

    Args:
        tracking_id: The carrier's tracking number.
    """
    stages = ["label created", "in transit", "out for delivery", "delivered"]
    return {"tracking_id": tracking_id, "status": stages[int(_fake(tracking_id, 0, 3.99, 2))]}


class Package(pydantic.BaseModel):
    """A box to ship."""

    length_cm: float
    width_cm: float
    height_cm: float
    weight_kg: float


@tool
def create_shipment(package: Package, destination_city: str) -> dict:
    """Create a shipment label for a package.

    Args:
        package: Dimensions and weight of the box.
        destination_city: City the package is delivered to.
    """
    volume = package.length_cm * package.width_cm * package.height_cm / 5000
    return {"label": f"SHP-{abs(hash(destination_city)) % 100000:05d}", "billable_kg": max(volume, package.weight_kg)}


# -- office, HR and home ------------------------------------------------------------


@tool
def book_meeting_room(room: str, date: str, start_time: str, duration_minutes: int = 60) -> dict:
    """Reserve a meeting room.

    Args:
        room: Name of the room.
        date: Day of the booking, YYYY-MM-DD.
        start_time: Start time, HH:MM (24-hour).
        duration_minutes: Length of the booking in minutes.
    """
    return {"room": room, "date": date, "start": start_time, "minutes": duration_minutes, "confirmed": True}


@tool
def request_leave(
    employee_id: str, start_date: str, end_date: str, leave_type: Literal["vacation", "sick", "parental", "unpaid"]
) -> dict:
    """File a leave request with HR.

    Args:
        employee_id: The employee's id, e.g. E-1001.
        start_date: First day off, YYYY-MM-DD.
        end_date: Last day off, YYYY-MM-DD.
        leave_type: Kind of leave.
    """
    return {"request": f"LV-{employee_id}-{start_date}", "type": leave_type, "status": "pending"}


@tool
def set_thermostat(room: str, temperature: float, unit: Literal["celsius", "fahrenheit"] = "celsius") -> str:
    """Set the target temperature of a room's thermostat.

    Args:
        room: The room the thermostat is in.
        temperature: Target temperature.
        unit: Temperature scale of the target.
    """
    return f"{room} set to {temperature} {unit}"


@tool
def toggle_light(device: str, on: bool) -> str:
    """Switch a smart light on or off.

    Args:
        device: Device id of the light, e.g. lamp_1.
        on: True to switch it on, False to switch it off.
    """
    return f"{device} is {'on' if on else 'off'}"


@tool
def subscribe_weather_alerts(
    city: str, alert_types: list[Literal["storm", "heat", "flood", "snow"]], email: str
) -> dict:
    """Sign an e-mail address up for severe-weather alerts in a city.

    Args:
        city: City to watch.
        alert_types: Which kinds of alert to send.
        email: Address the alerts go to.
    """
    return {"city": city, "alerts": sorted(alert_types), "email": email, "active": True}


@tool
def add_calendar_event(title: str, date: str, time: str | None = None, reminder_minutes: int | None = None) -> dict:
    """Add an event to the calendar.

    Args:
        title: What the event is called.
        date: Day of the event, YYYY-MM-DD.
        time: Optional start time, HH:MM; all-day when left out.
        reminder_minutes: Optional reminder this many minutes before the start.
    """
    return {"title": title, "date": date, "time": time, "reminder": reminder_minutes}


@tool
def send_email(to: str, subject: str, body: str) -> str:
    """Send an e-mail.

    Args:
        to: Recipient address.
        subject: Subject line.
        body: Text of the message.
    """
    return f"sent to {to} ({len(body)} characters)"


# -- music, library, travel, web ------------------------------------------------------------


@tool
def play_song(title: str, artist: str | None = None, shuffle: bool = False) -> str:
    """Play a song on the speaker.

    Args:
        title: Song title.
        artist: Optional artist, to pick the right version.
        shuffle: Shuffle the queue after this song.
    """
    return f"now playing {title}" + (f" by {artist}" if artist else "")


@tool
def create_playlist(name: str, songs: list[str]) -> dict:
    """Create a playlist from a list of songs.

    Args:
        name: Name of the new playlist.
        songs: Song titles to put in it, in order.
    """
    return {"playlist": name, "tracks": len(songs)}


@tool
def reserve_book(isbn: str, branch: str | None = None) -> dict:
    """Place a hold on a library book.

    Args:
        isbn: The book's ISBN.
        branch: Optional library branch to pick it up from.
    """
    return {"isbn": isbn, "branch": branch or "Central", "queue_position": int(_fake(isbn, 1, 9, 0))}


@tool
def renew_loan(loan_id: str, weeks: int = 2) -> dict:
    """Renew a library loan.

    Args:
        loan_id: The loan's id, e.g. L-12345.
        weeks: How many weeks to extend it by.
    """
    return {"loan_id": loan_id, "extended_weeks": weeks}


@tool
def translate_text(text: str, source_language: str, target_language: str) -> str:
    """Translate text from one language to another.

    Args:
        text: The text to translate.
        source_language: Language the text is written in, e.g. English.
        target_language: Language to translate into, e.g. French.
    """
    return f"[{target_language}] {text}"


@tool
def time_in_zone(timezone: str) -> str:
    """Current local time in an IANA time zone.

    Args:
        timezone: IANA time zone name, e.g. Europe/Paris.
    """
    minutes = int(_fake(timezone, 0, 1439, 0))
    return f"{minutes // 60:02d}:{minutes % 60:02d} in {timezone}"


@tool
def search_flights(
    origin: str,
    destination: str,
    date: str,
    passengers: int = 1,
    cabin: Literal["economy", "premium", "business", "first"] = "economy",
) -> list[dict]:
    """Search flights between two cities on a day.

    Args:
        origin: City to fly from.
        destination: City to fly to.
        date: Day of travel, YYYY-MM-DD.
        passengers: Number of travellers.
        cabin: Cabin class.
    """
    fare = _fake(f"{origin}{destination}{date}{cabin}", 90, 1400)
    return [{"flight": f"XA{int(fare) % 900 + 100}", "total": round(fare * passengers, 2)}]


@tool
def shorten_url(url: str, alias: str | None = None) -> str:
    """Make a short link for a long URL.

    Args:
        url: The full URL.
        alias: Optional custom short name.
    """
    return "https://sho.rt/" + (alias or hashlib.md5(url.encode()).hexdigest()[:6])


CASES = (
    # tips and loans
    ask(tip_amount, "What's a 15% tip on $80?", {"bill": 80, "percent": 15}),
    ask(tip_amount, "how much should i tip on a 64.50 bill at 20 percent", {"bill": 64.5, "percent": 20}),
    decline(tip_amount, "What's the tip on my $42 dinner?", "percent"),
    ask(tip_amount, "账单是120元，小费按18%算是多少？", {"bill": 120, "percent": 18}),  # "The bill is 120 yuan; what is an 18% tip?"
    ask(
        loan_payment,
        "Monthly payment on a $250,000 mortgage at 6.5% for 30 years?",
        {"principal": 250000, "annual_rate": 6.5, "years": 30},
    ),
    decline(loan_payment, "what would my monthly payment be on a 15000 car loan over 5 years", "annual_rate"),
    # currency
    ask(convert_currency, "Convert 100 USD to EUR please", {"amount": 100, "from_currency": "USD", "to_currency": "EUR"}),
    ask(convert_currency, "how much is 2500 JPY in GBP?", {"amount": 2500, "from_currency": "JPY", "to_currency": "GBP"}),
    ask(
        convert_currency,
        "Convert 50 CHF to both EUR and USD",
        {"amount": 50, "from_currency": "CHF", "to_currency": "EUR"},
        {"amount": 50, "from_currency": "CHF", "to_currency": "USD"},
    ),
    decline(convert_currency, "Could you convert 300 EUR for me?", "to_currency"),
    ask(convert_currency, "把 500 CNY 换成 USD 是多少？", {"amount": 500, "from_currency": "CNY", "to_currency": "USD"}),  # "How much is 500 CNY in USD?"
    # units, fitness, recipes
    ask(convert_length, "How many feet is 3 meters?", {"value": 3, "from_unit": "meters", "to_unit": "feet"}),
    ask(convert_length, "convert twelve inches into centimeters", {"value": 12, "from_unit": "inches", "to_unit": "centimeters"}),
    ask(
        calories_burned,
        "How many calories do I burn running for 45 minutes? I weigh 70 kg",
        {"activity": "running", "minutes": 45, "weight_kg": 70},
    ),
    ask(
        calories_burned,
        "骑车90分钟能消耗多少卡路里？",  # "How many calories do 90 minutes of cycling burn?"
        {"activity": "cycling", "minutes": 90},
        aliases={"cycling": "骑车"},
    ),
    ask(bmi, "my BMI? 82 kg, 178 cm", {"weight_kg": 82, "height_cm": 178}),
    ask(scale_recipe, "Scale the banana bread recipe to 12 servings", {"recipe_name": "banana bread", "servings": 12}),
    ask(scale_recipe, "把 lasagna 的食谱调整成六人份", {"recipe_name": "lasagna", "servings": 6}),  # "Scale the lasagna recipe to six servings."
    # shipping
    ask(
        shipping_quote,
        "Quote for shipping a 4 kg parcel from Germany to Canada with express delivery",
        {"weight_kg": 4, "origin_country": "Germany", "destination_country": "Canada", "express": True},
    ),
    ask(
        shipping_quote,
        "how much to ship 0.8 kg from Japan to Australia?",
        {"weight_kg": 0.8, "origin_country": "Japan", "destination_country": "Australia"},
    ),
    decline(shipping_quote, "What does it cost to send a 2 kg box to Brazil?", "origin_country"),
    ask(track_parcel, "Where is my package 1Z999AA10123456784?", {"tracking_id": "1Z999AA10123456784"}),
    ask(track_parcel, "track parcels JD0142236 and JD0142237", {"tracking_id": "JD0142236"}, {"tracking_id": "JD0142237"}),
    decline(track_parcel, "Can you track my parcel? It was supposed to arrive yesterday.", "tracking_id"),
    ask(
        create_shipment,
        "Create a shipment to Lyon for a box 30 x 20 x 15 cm weighing 2.5 kg",
        {"destination_city": "Lyon", "package": {"length_cm": 30, "width_cm": 20, "height_cm": 15, "weight_kg": 2.5}},
    ),
    # office and HR
    ask(
        book_meeting_room,
        "Book the Orion room on 2026-12-03 at 14:30 for 90 minutes",
        {"room": "Orion", "date": "2026-12-03", "start_time": "14:30", "duration_minutes": 90},
    ),
    decline(book_meeting_room, "pls book room Vega at 10:00 for an hour", "date"),
    ask(
        request_leave,
        "Submit a vacation request for employee E-1043 from 2026-12-21 to 2026-12-31",
        {"employee_id": "E-1043", "start_date": "2026-12-21", "end_date": "2026-12-31", "leave_type": "vacation"},
    ),
    ask(
        add_calendar_event,
        'Add "Dentist" to my calendar on 2026-12-09 at 08:45 and remind me 20 minutes before',
        {"title": "Dentist", "date": "2026-12-09", "time": "08:45", "reminder_minutes": 20},
    ),
    ask(
        send_email,
        'Email hr@acme.io with subject "Payslip question" and body "Hi, my November payslip is missing."',
        {"to": "hr@acme.io", "subject": "Payslip question", "body": "Hi, my November payslip is missing."},
    ),
    # home automation
    ask(set_thermostat, "Set the bedroom thermostat to 21 degrees", {"room": "bedroom", "temperature": 21}),
    ask(set_thermostat, "set office to 68 fahrenheit", {"room": "office", "temperature": 68, "unit": "fahrenheit"}),
    ask(toggle_light, "Turn off lamp_3", {"device": "lamp_3", "on": False}),
    ask(
        toggle_light,
        "switch on porch_light and garage_light",
        {"device": "porch_light", "on": True},
        {"device": "garage_light", "on": True},
    ),
    ask(toggle_light, "把 desk_lamp 打开", {"device": "desk_lamp", "on": True}),  # "Turn desk_lamp on."
    ask(
        subscribe_weather_alerts,
        "Subscribe ana@example.org to storm and flood alerts for Houston",
        {"city": "Houston", "alert_types": ["storm", "flood"], "email": "ana@example.org"},
    ),
    decline(subscribe_weather_alerts, "sign me up for heat alerts in Phoenix", "email"),
    # music and library
    ask(play_song, 'Play "Bohemian Rhapsody" by Queen', {"title": "Bohemian Rhapsody", "artist": "Queen"}),
    ask(play_song, "play Clair de Lune", {"title": "Clair de Lune"}),
    ask(
        create_playlist,
        'Make a playlist called "Road Trip" with Africa, Dreams and Go Your Own Way',
        {"name": "Road Trip", "songs": ["Africa", "Dreams", "Go Your Own Way"]},
    ),
    decline(create_playlist, "Create a playlist with Yesterday, Let It Be and Hey Jude", "name"),
    ask(
        reserve_book,
        "Reserve ISBN 978-0-14-143951-8 at the Eastside branch",
        {"isbn": "978-0-14-143951-8", "branch": "Eastside"},
    ),
    ask(
        reserve_book,
        "could you reserve 9780262033848 and 9780131103627 for me",
        {"isbn": "9780262033848"},
        {"isbn": "9780131103627"},
    ),
    ask(renew_loan, "renew loan L-55821 for 3 weeks", {"loan_id": "L-55821", "weeks": 3}),
    ask(renew_loan, "请帮我续借 L-70934", {"loan_id": "L-70934"}),  # "Please renew loan L-70934 for me."
    # bank transfers
    ask(
        bank_transfer,
        'Transfer $1,250 from checking to savings with the memo "December rent"',
        {"from_account": "checking", "to_account": "savings", "amount": 1250, "memo": "December rent"},
    ),
    decline(bank_transfer, "Send 200 to account 7781-003", "from_account"),
    ask(
        bank_transfer,
        "从 savings 转 3000 到 checking",  # "Transfer 3000 from savings to checking."
        {"from_account": "savings", "to_account": "checking", "amount": 3000},
    ),
    # translation, time zones, stocks
    ask(
        translate_text,
        'Translate "Where is the train station?" from English to German',
        {"text": "Where is the train station?", "source_language": "English", "target_language": "German"},
    ),
    ask(
        translate_text,
        'translate "good morning" from English into Spanish and Italian',
        {"text": "good morning", "source_language": "English", "target_language": "Spanish"},
        {"text": "good morning", "source_language": "English", "target_language": "Italian"},
    ),
    ask(time_in_zone, "What time is it in Asia/Tokyo?", {"timezone": "Asia/Tokyo"}),
    ask(
        time_in_zone,
        "current time in Europe/London and America/New_York?",
        {"timezone": "Europe/London"},
        {"timezone": "America/New_York"},
    ),
    ask(stock_quote, "Price of AAPL and MSFT right now?", {"ticker": "AAPL"}, {"ticker": "MSFT"}),
    # savings and bills
    ask(
        compound_interest,
        "If I invest 10000 at 5% for ten years, compounded 4 times a year, what do I end up with?",
        {"principal": 10000, "rate_percent": 5, "years": 10, "compounds_per_year": 4},
    ),
    ask(percent_change, "what's the percent change from 40 to 55?", {"old_value": 40, "new_value": 55}),
    ask(split_bill, "Split $180 between 4 people with a 10% tip", {"total": 180, "people": 4, "tip_percent": 10}),
    # travel and web
    ask(
        search_flights,
        "Find business class flights from Lisbon to Boston on 2026-12-18 for two passengers",
        {"origin": "Lisbon", "destination": "Boston", "date": "2026-12-18", "passengers": 2, "cabin": "business"},
    ),
    decline(search_flights, "any flights from Madrid to Rome for 3 people?", "date"),
    ask(
        search_flights,
        "查 2026-12-20 从 Shanghai 到 Singapore 的航班",  # "Search flights from Shanghai to Singapore on 2026-12-20."
        {"origin": "Shanghai", "destination": "Singapore", "date": "2026-12-20"},
    ),
    ask(
        shorten_url,
        "shorten https://example.com/blog/2026/11/offline-models",
        {"url": "https://example.com/blog/2026/11/offline-models"},
    ),
)
