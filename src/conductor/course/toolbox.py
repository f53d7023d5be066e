"""Lesson 06's tool catalogue: 62 everyday tools in six domains, served as six MCP servers.

A learner who leaves the course connects a few MCP servers and has tens of tools, some of
them easy to confuse (``get_weather`` beside ``get_forecast``, ``search_mail`` beside
``search_messages``, ``convert_currency`` beside ``get_exchange_rate``). This module is such
a set: weather, mail (e-mail and team chat), calendar, files, shop (orders and payments) and
travel. Every tool answers from the small tables below (no network), so the same question
always gets the same result, and a changed table changes the answer.

The tools are ``@cd.tool`` functions (:data:`TOOLS`, :data:`DOMAINS`), and each domain is an
MCP server built with the same code as the course catalogue's server
(:func:`conductor.course.catalogue_server.serve`)::

    with cd.toolbox.connected(defer_loading=True) as tools:      # six in-process MCP servers
        result = llm.run(question, tools=tools, tool_search=True)

    python -m conductor.course.toolbox weather                    # one domain over stdio

:data:`QUESTIONS` pairs lesson 06's questions with the tool that answers each: a tool search
over the whole catalogue must find that tool, on every API (tests/test_toolbox.py).
"""

from __future__ import annotations

import contextlib
import fnmatch
import hashlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from ..tools import Tool, tool

__all__ = [
    "CITIES",
    "DOMAINS",
    "PITFALLS",
    "QUESTIONS",
    "TOOLS",
    "Question",
    "build_server",
    "connected",
    "main",
    "tools_of",
]

# -- the tables --------------------------------------------------------------------------------

TODAY = date(2026, 12, 1)  # the catalogue's "today": its tables are written around it

CITIES: dict[str, dict[str, Any]] = {
    "Lisbon": {"temp": 16, "conditions": "sunny", "wind_kmh": 14, "humidity": 62, "aqi": 28, "uv": 3,
               "sunrise": "07:37", "sunset": "17:14", "utc_offset": 0, "country": "Portugal",
               "forecast": [(17, 11, "sunny", 5), (15, 10, "showers", 70), (14, 9, "rain", 90), (16, 10, "cloudy", 20),
                            (17, 11, "sunny", 5), (18, 12, "sunny", 0), (16, 11, "cloudy", 30)],
               "alerts": []},
    "Tokyo": {"temp": 9, "conditions": "clear", "wind_kmh": 8, "humidity": 45, "aqi": 41, "uv": 2,
              "sunrise": "06:29", "sunset": "16:28", "utc_offset": 9, "country": "Japan",
              "forecast": [(12, 4, "clear", 0), (11, 5, "cloudy", 10), (9, 3, "rain", 80), (10, 2, "clear", 0),
                           (13, 5, "clear", 0), (12, 6, "cloudy", 20), (8, 2, "snow", 60)],
              "alerts": []},
    "Paris": {"temp": 6, "conditions": "overcast", "wind_kmh": 19, "humidity": 81, "aqi": 35, "uv": 1,
              "sunrise": "08:22", "sunset": "16:55", "utc_offset": 1, "country": "France",
              "forecast": [(7, 3, "overcast", 30), (6, 2, "rain", 85), (5, 1, "rain", 75), (4, -1, "fog", 10),
                           (6, 1, "cloudy", 20), (8, 4, "showers", 60), (7, 3, "cloudy", 25)],
              "alerts": ["Fog warning on Thursday morning"]},
    "New York": {"temp": 3, "conditions": "windy", "wind_kmh": 37, "humidity": 55, "aqi": 44, "uv": 1,
                 "sunrise": "07:00", "sunset": "16:29", "utc_offset": -5, "country": "United States",
                 "forecast": [(4, -2, "windy", 10), (2, -4, "snow", 70), (1, -5, "snow", 60), (5, -1, "clear", 0),
                              (6, 0, "cloudy", 15), (3, -3, "clear", 0), (2, -4, "snow", 50)],
                 "alerts": ["Winter storm watch from Wednesday"]},
    "Delhi": {"temp": 24, "conditions": "hazy", "wind_kmh": 6, "humidity": 58, "aqi": 212, "uv": 5,
              "sunrise": "06:55", "sunset": "17:24", "utc_offset": 5.5, "country": "India",
              "forecast": [(25, 11, "hazy", 0), (24, 10, "hazy", 0), (24, 11, "sunny", 0), (23, 10, "hazy", 0),
                           (25, 12, "sunny", 0), (24, 11, "hazy", 0), (23, 10, "sunny", 0)],
              "alerts": ["Very poor air quality: limit time outdoors"]},
    "Sydney": {"temp": 25, "conditions": "sunny", "wind_kmh": 22, "humidity": 60, "aqi": 19, "uv": 11,
               "sunrise": "05:41", "sunset": "19:52", "utc_offset": 11, "country": "Australia",
               "forecast": [(26, 18, "sunny", 0), (28, 19, "sunny", 5), (24, 18, "storms", 65), (23, 17, "showers", 50),
                            (25, 18, "sunny", 0), (27, 20, "sunny", 0), (29, 21, "hot", 0)],
               "alerts": ["Extreme UV: sun protection needed"]},
}
"""Today's weather and the next seven days for each city: (high °C, low °C, conditions, chance of rain %)."""

INBOX: list[dict[str, Any]] = [
    {"id": "m101", "from": "billing@acme.example", "to": "me@home.example", "subject": "Invoice 4471 for November",
     "body": "Your invoice 4471 for 129.00 EUR is attached. Payment is due on 15 December.", "date": "2026-11-28",
     "folder": "inbox", "unread": True, "attachments": ["invoice-4471.pdf"]},
    {"id": "m102", "from": "ana@team.example", "to": "me@home.example", "subject": "Slides for Thursday",
     "body": "Here are the slides for Thursday's review. Can you check slide 7?", "date": "2026-11-29",
     "folder": "inbox", "unread": True, "attachments": ["review-slides.pptx"]},
    {"id": "m103", "from": "noreply@airline.example", "to": "me@home.example", "subject": "Your flight LX 345 is confirmed",
     "body": "Booking reference QX7P2A. London to Zurich on 10 December, departing 09:40.", "date": "2026-11-20",
     "folder": "travel", "unread": False, "attachments": ["boarding-pass.pdf"]},
    {"id": "m104", "from": "ben@team.example", "to": "me@home.example", "subject": "Lunch on Friday?",
     "body": "Are you free for lunch on Friday at 12:30?", "date": "2026-11-30", "folder": "inbox", "unread": False,
     "attachments": []},
    {"id": "m105", "from": "orders@shop.example", "to": "me@home.example", "subject": "Order A1002 has shipped",
     "body": "Your order A1002 (noise-cancelling headphones) has shipped with tracking 1Z999AA10123456784.",
     "date": "2026-11-27", "folder": "shopping", "unread": False, "attachments": []},
]
"""The e-mails in the mailbox."""

CHAT: list[dict[str, str]] = [
    {"id": "c1", "channel": "deploys", "author": "ana", "time": "2026-11-30 09:12",
     "text": "Deploy of version 2.4 to production finished, all checks green."},
    {"id": "c2", "channel": "deploys", "author": "ben", "time": "2026-11-30 11:03",
     "text": "Rolling back the search service deploy: latency doubled."},
    {"id": "c3", "channel": "general", "author": "cleo", "time": "2026-11-29 16:40",
     "text": "Office closed on 24 December; the invoice portal stays up."},
    {"id": "c4", "channel": "random", "author": "dan", "time": "2026-11-28 13:05", "text": "Who took the last oat milk?"},
    {"id": "c5", "channel": "general", "author": "ana", "time": "2026-12-01 08:30",
     "text": "Thursday's review moved to room Blue at 14:00."},
]
"""The team chat's messages, by channel."""

EVENTS: list[dict[str, Any]] = [
    {"id": "e1", "title": "Team stand-up", "date": "2026-12-01", "start": "09:30", "minutes": 15,
     "attendees": ["ana@team.example", "ben@team.example"], "location": "online"},
    {"id": "e2", "title": "Dentist", "date": "2026-12-02", "start": "16:00", "minutes": 45, "attendees": [],
     "location": "12 Rua Augusta"},
    {"id": "e3", "title": "Quarterly review", "date": "2026-12-03", "start": "14:00", "minutes": 90,
     "attendees": ["ana@team.example", "cleo@team.example"], "location": "room Blue"},
    {"id": "e4", "title": "Lunch with Ben", "date": "2026-12-04", "start": "12:30", "minutes": 60,
     "attendees": ["ben@team.example"], "location": "Cafe Nata"},
    {"id": "e5", "title": "Flight LX 345 to Zurich", "date": "2026-12-10", "start": "09:40", "minutes": 95,
     "attendees": [], "location": "London Heathrow"},
    {"id": "e6", "title": "Design workshop", "date": "2026-12-03", "start": "10:00", "minutes": 120,
     "attendees": ["dan@team.example"], "location": "room Green"},
]
"""The calendar's events."""

BIRTHDAYS: dict[str, str] = {"Ana": "2026-12-12", "Ben": "2027-02-03", "Cleo": "2026-12-28", "Dan": "2027-05-19"}
HOLIDAYS: dict[str, list[tuple[str, str]]] = {
    "Portugal": [("2026-12-01", "Restoration of Independence"), ("2026-12-08", "Immaculate Conception"),
                 ("2026-12-25", "Christmas Day")],
    "United Kingdom": [("2026-12-25", "Christmas Day"), ("2026-12-28", "Boxing Day (substitute)")],
    "Japan": [("2027-01-01", "New Year's Day"), ("2027-01-11", "Coming of Age Day")],
}

FILES: dict[str, dict[str, Any]] = {
    "notes/todo.txt": {"modified": "2026-11-30", "text": "Book the dentist\nCheck slide 7\nPay invoice 4471\n"},
    "notes/ideas.md": {"modified": "2026-11-12", "text": "# Ideas\nA tool search lesson.\nCache the prompt.\n"},
    "reports/q3-summary.md": {"modified": "2026-10-05",
                              "text": "# Q3 summary\nRevenue grew 12 percent. Costs fell 3 percent.\n"},
    "reports/q4-plan.md": {"modified": "2026-11-25", "text": "# Q4 plan\nShip version 2.5. Hire two engineers.\n"},
    "photos/lisbon-tram.jpg": {"modified": "2026-09-14", "size_kb": 2380},
    "photos/tokyo-night.jpg": {"modified": "2026-10-02", "size_kb": 3120},
    "invoices/invoice-4471.pdf": {"modified": "2026-11-28", "size_kb": 88},
}
"""The files, by path; a text file's size is its text's."""

PRODUCTS: dict[str, dict[str, Any]] = {
    "P100": {"name": "noise-cancelling headphones", "price": 199.0, "stock": 4, "rating": 4.6},
    "P101": {"name": "running shoes", "price": 79.0, "stock": 12, "rating": 4.3},
    "P102": {"name": "coffee grinder", "price": 49.5, "stock": 0, "rating": 4.1},
    "P103": {"name": "travel backpack", "price": 89.0, "stock": 7, "rating": 4.7},
    "P104": {"name": "e-reader", "price": 129.0, "stock": 3, "rating": 4.5},
    "P105": {"name": "trail running shoes", "price": 119.0, "stock": 5, "rating": 4.4},
}
"""The shop's products, prices in EUR."""

ORDERS: dict[str, dict[str, Any]] = {
    "A1001": {"product": "P101", "quantity": 1, "status": "delivered", "placed": "2026-11-10",
              "tracking": "1Z999AA10123456700", "events": [("2026-11-11", "shipped"), ("2026-11-13", "delivered")]},
    "A1002": {"product": "P100", "quantity": 1, "status": "in transit", "placed": "2026-11-26",
              "tracking": "1Z999AA10123456784",
              "events": [("2026-11-27", "shipped"), ("2026-11-29", "arrived at Madrid hub"),
                         ("2026-11-30", "out for delivery in Lisbon")]},
    "A1003": {"product": "P103", "quantity": 2, "status": "processing", "placed": "2026-11-30", "tracking": None,
              "events": []},
}
TRANSACTIONS: list[dict[str, Any]] = [
    {"date": "2026-11-30", "description": "Order A1003", "amount": -178.0},
    {"date": "2026-11-28", "description": "Salary", "amount": 2650.0},
    {"date": "2026-11-26", "description": "Order A1002", "amount": -199.0},
    {"date": "2026-11-20", "description": "Flight LX 345", "amount": -142.5},
    {"date": "2026-11-15", "description": "Rent", "amount": -900.0},
]
OPENING_BALANCE = 1204.35  # EUR, before the transactions above
RATES_PER_EUR: dict[str, float] = {"EUR": 1.0, "USD": 1.08, "GBP": 0.86, "JPY": 161.0, "CHF": 0.95, "INR": 90.1,
                                   "AUD": 1.64}
"""Units of each currency for one euro."""

FLIGHTS: list[dict[str, Any]] = [
    {"number": "LX 345", "from": "LHR", "to": "ZRH", "date": "2026-12-10", "departs": "09:40", "arrives": "12:15",
     "price": 142.5, "status": "on time"},
    {"number": "BA 316", "from": "LHR", "to": "CDG", "date": "2026-12-10", "departs": "07:25", "arrives": "09:40",
     "price": 98.0, "status": "on time"},
    {"number": "AF 1081", "from": "LHR", "to": "CDG", "date": "2026-12-10", "departs": "18:05", "arrives": "20:20",
     "price": 121.0, "status": "delayed 35 minutes"},
    {"number": "TP 1351", "from": "LHR", "to": "LIS", "date": "2026-12-11", "departs": "10:20", "arrives": "13:00",
     "price": 87.0, "status": "on time"},
    {"number": "JL 44", "from": "LHR", "to": "HND", "date": "2026-12-12", "departs": "19:15", "arrives": "16:30",
     "price": 860.0, "status": "on time"},
]
AIRPORTS: dict[str, dict[str, str]] = {
    "LHR": {"name": "London Heathrow", "city": "London"}, "CDG": {"name": "Paris Charles de Gaulle", "city": "Paris"},
    "ZRH": {"name": "Zurich", "city": "Zurich"}, "LIS": {"name": "Lisbon Humberto Delgado", "city": "Lisbon"},
    "HND": {"name": "Tokyo Haneda", "city": "Tokyo"}, "JFK": {"name": "New York JFK", "city": "New York"},
}
HOTELS: list[dict[str, Any]] = [
    {"id": "H1", "name": "Casa do Rio", "city": "Lisbon", "price": 95.0, "stars": 3, "rating": 8.7},
    {"id": "H2", "name": "Hotel Alfama View", "city": "Lisbon", "price": 160.0, "stars": 4, "rating": 9.1},
    {"id": "H3", "name": "Le Petit Marais", "city": "Paris", "price": 140.0, "stars": 3, "rating": 8.4},
    {"id": "H4", "name": "Shinjuku Garden Inn", "city": "Tokyo", "price": 120.0, "stars": 3, "rating": 8.9},
    {"id": "H5", "name": "Harbour Lights", "city": "Sydney", "price": 210.0, "stars": 4, "rating": 8.8},
]
DISTANCES_KM: dict[frozenset[str], int] = {
    frozenset({"London", "Paris"}): 344, frozenset({"London", "Zurich"}): 776, frozenset({"Lisbon", "Paris"}): 1453,
    frozenset({"Paris", "Berlin"}): 878, frozenset({"Tokyo", "Osaka"}): 397, frozenset({"London", "Lisbon"}): 1585,
}
TRAINS: list[dict[str, str]] = [
    {"from": "London", "to": "Paris", "departs": "08:01", "arrives": "11:20", "operator": "Eurostar"},
    {"from": "London", "to": "Paris", "departs": "10:24", "arrives": "13:47", "operator": "Eurostar"},
    {"from": "Tokyo", "to": "Osaka", "departs": "09:00", "arrives": "11:27", "operator": "Shinkansen Nozomi"},
    {"from": "Paris", "to": "Berlin", "departs": "09:55", "arrives": "18:04", "operator": "ICE"},
]
VISAS: dict[tuple[str, str], str] = {
    ("Japan", "Portugal"): "no visa for stays up to 90 days",
    ("India", "Portugal"): "e-Visa required before travel",
    ("United States", "Portugal"): "ESTA authorisation required",
    ("Australia", "Portugal"): "ETA required",
    ("United Kingdom", "Portugal"): "no visa needed",
}
"""(destination country, traveller's nationality) -> the rule."""


# -- helpers -----------------------------------------------------------------------------------


def _city(city: str) -> dict[str, Any]:
    for name, data in CITIES.items():
        if name.casefold() == city.strip().casefold():
            return data
    raise ValueError(f"no weather data for {city!r}; the cities are: {', '.join(CITIES)}")


def _city_name(city: str) -> str:
    _city(city)
    return next(name for name in CITIES if name.casefold() == city.strip().casefold())


def _mail(message_id: str) -> dict[str, Any]:
    for mail in INBOX:
        if mail["id"] == message_id:
            return mail
    raise ValueError(f"no e-mail has id {message_id!r}; the ids are: {', '.join(m['id'] for m in INBOX)}")


def _event(event_id: str) -> dict[str, Any]:
    for event in EVENTS:
        if event["id"] == event_id:
            return event
    raise ValueError(f"no event has id {event_id!r}; the ids are: {', '.join(e['id'] for e in EVENTS)}")


def _file(path: str) -> dict[str, Any]:
    if path not in FILES:
        raise ValueError(f"no file at {path!r}; the files are: {', '.join(FILES)}")
    return FILES[path]


def _size_kb(path: str) -> float:
    entry = FILES[path]
    return entry["size_kb"] if "size_kb" in entry else round(len(entry["text"].encode()) / 1024, 2)


def _product(product_id: str) -> dict[str, Any]:
    if product_id not in PRODUCTS:
        raise ValueError(f"no product has id {product_id!r}; the ids are: {', '.join(PRODUCTS)}")
    return PRODUCTS[product_id]


def _order(order_id: str) -> dict[str, Any]:
    if order_id.upper() not in ORDERS:
        raise ValueError(f"no order has id {order_id!r}; your orders are: {', '.join(ORDERS)}")
    return ORDERS[order_id.upper()]


def _rate(code: str) -> float:
    if code.upper() not in RATES_PER_EUR:
        raise ValueError(f"no rate for {code!r}; the currencies are: {', '.join(RATES_PER_EUR)}")
    return RATES_PER_EUR[code.upper()]


def _day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise ValueError(f"{value!r} is not a date: write it as YYYY-MM-DD, e.g. 2026-12-03") from exc


def _receipt(*parts: Any) -> str:
    """A short id for an action, the same for the same action (nothing is stored: the tables stay as they are)."""
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:8]


# -- weather -----------------------------------------------------------------------------------


@tool
def get_weather(city: str) -> dict:
    """Current conditions in a city right now: temperature, sky, wind and humidity.

    Args:
        city: the city, e.g. "Lisbon"
    """
    data = _city(city)
    return {"temperature_c": data["temp"], "conditions": data["conditions"],
            "wind_kmh": data["wind_kmh"], "humidity_percent": data["humidity"]}


@tool
def get_forecast(city: str, days: int = 3) -> dict:
    """Daily forecast for the coming days in a city: high, low, sky and chance of rain per day.

    Args:
        city: the city, e.g. "Lisbon"
        days: how many days ahead, 1 to 7
    """
    data = _city(city)
    if not 1 <= days <= 7:
        raise ValueError(f"days must be 1 to 7, got {days}")
    return {"days": [
        {"date": (TODAY + timedelta(days=i + 1)).isoformat(), "high_c": hi, "low_c": lo, "conditions": sky,
         "rain_chance_percent": rain}
        for i, (hi, lo, sky, rain) in enumerate(data["forecast"][:days])]}


@tool
def get_air_quality(city: str) -> dict:
    """Air quality index (AQI) and pollution level in a city.

    Args:
        city: the city
    """
    aqi = _city(city)["aqi"]
    level = "good" if aqi <= 50 else "moderate" if aqi <= 100 else "unhealthy" if aqi <= 200 else "very unhealthy"
    return {"aqi": aqi, "level": level}


@tool
def get_uv_index(city: str) -> dict:
    """Today's ultraviolet (UV) index in a city and the sun protection it calls for.

    Args:
        city: the city
    """
    uv = _city(city)["uv"]
    return {"uv_index": uv, "protection": "needed" if uv >= 3 else "not needed"}


@tool
def get_sun_times(city: str) -> dict:
    """Sunrise and sunset times today in a city (local time).

    Args:
        city: the city
    """
    data = _city(city)
    return {"sunrise": data["sunrise"], "sunset": data["sunset"]}


@tool
def get_wind(city: str) -> dict:
    """Wind speed now in a city, and whether it is strong enough to matter outdoors.

    Args:
        city: the city
    """
    kmh = _city(city)["wind_kmh"]
    return {"wind_kmh": kmh, "strong": kmh >= 30}


@tool
def get_rain_chance(city: str, days: int = 3) -> dict:
    """Chance of rain (precipitation) per day in a city over the coming days.

    Args:
        city: the city
        days: how many days ahead, 1 to 7
    """
    data = _city(city)
    return {"rain_chance_percent": [day[3] for day in data["forecast"][:max(1, min(days, 7))]]}


@tool
def compare_temperatures(cities: list[str]) -> dict:
    """Compare today's temperatures in several cities: warmest first.

    Args:
        cities: the cities to compare
    """
    readings = sorted(((_city_name(c), _city(c)["temp"]) for c in cities), key=lambda pair: -pair[1])
    return {"warmest_first": [{"city": c, "temperature_c": t} for c, t in readings]}


@tool
def get_weather_alerts(city: str) -> dict:
    """Official weather warnings in force for a city (storms, fog, heat, air quality).

    Args:
        city: the city
    """
    return {"alerts": list(_city(city)["alerts"])}


@tool
def get_local_time(city: str) -> dict:
    """The local time and UTC offset in a city now.

    Args:
        city: the city
    """
    offset = _city(city)["utc_offset"]
    minutes = int(round((12 * 60 + offset * 60))) % (24 * 60)  # the catalogue's clock reads 12:00 UTC
    return {"local_time": f"{minutes // 60:02d}:{minutes % 60:02d}", "utc_offset": offset}


# -- mail and chat -----------------------------------------------------------------------------


def _mail_summary(mail: dict[str, Any]) -> dict[str, Any]:
    return {key: mail[key] for key in ("id", "from", "subject", "date", "unread")}


@tool
def search_mail(query: str) -> dict:
    """Search your e-mail (inbox and folders) for messages whose sender, subject or text contains the words.

    Args:
        query: words to look for in e-mails, e.g. "invoice"
    """
    terms = query.casefold().split()
    found = [_mail_summary(m) for m in INBOX
             if all(t in f"{m['from']} {m['subject']} {m['body']}".casefold() for t in terms)]
    return {"emails": found}


@tool
def search_messages(query: str, channel: str | None = None) -> dict:
    """Search the team chat's messages (not e-mail) for the words, in every channel or one.

    Args:
        query: words to look for in chat messages, e.g. "deploy"
        channel: only this chat channel, e.g. "deploys"
    """
    terms = query.casefold().split()
    found = [m for m in CHAT if (channel is None or m["channel"] == channel.strip("#"))
             and all(t in m["text"].casefold() for t in terms)]
    return {"messages": found}


@tool
def read_mail(message_id: str) -> dict:
    """Read one e-mail in full: sender, subject, date, text and attachments.

    Args:
        message_id: the e-mail's id, e.g. "m101"
    """
    return dict(_mail(message_id))


@tool
def list_inbox(limit: int = 5) -> dict:
    """The newest e-mails in the inbox, newest first.

    Args:
        limit: how many e-mails
    """
    mails = sorted((m for m in INBOX if m["folder"] == "inbox"), key=lambda m: m["date"], reverse=True)
    return {"emails": [_mail_summary(m) for m in mails[:limit]]}


@tool
def count_unread_mail() -> dict:
    """How many e-mails are unread, and from whom."""
    unread = [m for m in INBOX if m["unread"]]
    return {"unread": len(unread), "from": [m["from"] for m in unread]}


@tool(requires_approval=True)
def send_mail(to: str, subject: str, body: str) -> dict:
    """Send an e-mail.

    Args:
        to: the recipient's e-mail address
        subject: the subject line
        body: the text
    """
    return {"sent": True, "to": to, "subject": subject, "message_id": "m" + _receipt(to, subject, body)}


@tool(requires_approval=True)
def reply_to_mail(message_id: str, body: str) -> dict:
    """Reply to an e-mail's sender.

    Args:
        message_id: the id of the e-mail to reply to
        body: the reply's text
    """
    mail = _mail(message_id)
    return {"sent": True, "to": mail["from"], "subject": "Re: " + mail["subject"], "message_id": "m" + _receipt(message_id, body)}


@tool(requires_approval=True)
def forward_mail(message_id: str, to: str) -> dict:
    """Forward an e-mail, attachments included, to another address.

    Args:
        message_id: the id of the e-mail to forward
        to: the address to forward it to
    """
    mail = _mail(message_id)
    return {"sent": True, "to": to, "subject": "Fwd: " + mail["subject"], "attachments": mail["attachments"]}


@tool
def list_mail_attachments(message_id: str) -> dict:
    """The files attached to an e-mail.

    Args:
        message_id: the e-mail's id
    """
    return {"id": message_id, "attachments": list(_mail(message_id)["attachments"])}


@tool
def list_chat_channels() -> dict:
    """The team chat's channels and how many messages each has."""
    channels: dict[str, int] = {}
    for message in CHAT:
        channels[message["channel"]] = channels.get(message["channel"], 0) + 1
    return {"channels": channels}


@tool(requires_approval=True)
def send_message(channel: str, text: str) -> dict:
    """Post a message to a team chat channel (not an e-mail).

    Args:
        channel: the channel, e.g. "general"
        text: the message
    """
    return {"posted": True, "channel": channel.strip("#"), "id": "c" + _receipt(channel, text)}


# -- calendar ----------------------------------------------------------------------------------


@tool
def list_events(date: str) -> dict:
    """The calendar's events on a date, in order of start time.

    Args:
        date: the date, YYYY-MM-DD
    """
    wanted = _day(date).isoformat()
    return {"date": wanted, "events": sorted((e for e in EVENTS if e["date"] == wanted), key=lambda e: e["start"])}


@tool
def get_event(event_id: str) -> dict:
    """One calendar event in full: time, place and attendees.

    Args:
        event_id: the event's id, e.g. "e3"
    """
    return dict(_event(event_id))


@tool
def get_next_event() -> dict:
    """The next event on the calendar from now."""
    upcoming = sorted((e for e in EVENTS if e["date"] >= TODAY.isoformat()), key=lambda e: (e["date"], e["start"]))
    return {"next": upcoming[0] if upcoming else None}


@tool
def find_free_slots(day: str, minutes: int = 30) -> dict:
    """Free time on a day between 09:00 and 18:00 long enough for a meeting.

    Args:
        day: the date, YYYY-MM-DD
        minutes: the meeting's length in minutes
    """
    wanted = _day(day).isoformat()
    busy = sorted((_minutes(e["start"]), _minutes(e["start"]) + e["minutes"]) for e in EVENTS if e["date"] == wanted)
    slots, start = [], 9 * 60
    for begin, end in [*busy, (18 * 60, 18 * 60)]:
        if begin - start >= minutes:
            slots.append(f"{_clock(start)}-{_clock(begin)}")
        start = max(start, end)
    return {"date": wanted, "free": slots}


def _minutes(clock: str) -> int:
    hours, minutes = clock.split(":")
    return int(hours) * 60 + int(minutes)


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


@tool(requires_approval=True)
def create_event(title: str, day: str, start: str, minutes: int = 60) -> dict:
    """Add an event to the calendar.

    Args:
        title: what the event is
        day: the date, YYYY-MM-DD
        start: the start time, HH:MM
        minutes: how long it lasts
    """
    return {"created": True, "id": "e" + _receipt(title, day, start), "title": title, "date": _day(day).isoformat(),
            "start": start, "minutes": minutes}


@tool(requires_approval=True)
def cancel_event(event_id: str) -> dict:
    """Cancel a calendar event and tell its attendees.

    Args:
        event_id: the event's id
    """
    event = _event(event_id)
    return {"cancelled": True, "title": event["title"], "notified": event["attendees"]}


@tool(requires_approval=True)
def invite_to_event(event_id: str, email: str) -> dict:
    """Invite someone to a calendar event.

    Args:
        event_id: the event's id
        email: the guest's e-mail address
    """
    return {"invited": email, "event": _event(event_id)["title"]}


@tool
def count_meetings(day: str) -> dict:
    """How many meetings a day has and how many hours they take.

    Args:
        day: the date, YYYY-MM-DD
    """
    events = [e for e in EVENTS if e["date"] == _day(day).isoformat()]
    return {"date": _day(day).isoformat(), "meetings": len(events), "hours": round(sum(e["minutes"] for e in events) / 60, 2)}


@tool
def list_birthdays(month: int) -> dict:
    """Birthdays of your contacts in a month.

    Args:
        month: the month's number, 1 to 12
    """
    return {"month": month, "birthdays": {n: d for n, d in BIRTHDAYS.items() if int(d[5:7]) == month}}


@tool
def list_public_holidays(country: str) -> dict:
    """The coming public holidays (days off) in a country.

    Args:
        country: the country, e.g. "Portugal"
    """
    for name, days in HOLIDAYS.items():
        if name.casefold() == country.casefold():
            return {"country": name, "holidays": [{"date": d, "name": n} for d, n in days]}
    raise ValueError(f"no holidays for {country!r}; the countries are: {', '.join(HOLIDAYS)}")


# -- files -------------------------------------------------------------------------------------


@tool
def list_files(folder: str) -> dict:
    """The files in a folder.

    Args:
        folder: the folder, e.g. "reports"
    """
    prefix = folder.strip("/") + "/"
    return {"files": sorted(p for p in FILES if p.startswith(prefix))}


@tool
def search_files(pattern: str) -> dict:
    """Find files by name: a name, part of one, or a pattern such as "*.pdf".

    Args:
        pattern: the name or pattern to match against file paths
    """
    glob = pattern if any(ch in pattern for ch in "*?[") else f"*{pattern}*"
    return {"files": sorted(p for p in FILES if fnmatch.fnmatch(p.casefold(), glob.casefold()))}


@tool
def search_file_contents(words: str) -> dict:
    """Find the text files whose contents contain some words (grep), with the matching lines.

    Args:
        words: the words to look for inside files
    """
    hits = {path: [line for line in entry["text"].splitlines() if words.casefold() in line.casefold()]
            for path, entry in FILES.items() if "text" in entry}
    return {"matches": {path: lines for path, lines in hits.items() if lines}}


@tool
def read_file(path: str) -> dict:
    """The text of a file.

    Args:
        path: the file's path, e.g. "notes/todo.txt"
    """
    entry = _file(path)
    if "text" not in entry:
        raise ValueError(f"{path} is not a text file; get_file_info tells its size and date")
    return {"text": entry["text"]}


@tool
def get_file_info(path: str) -> dict:
    """A file's size and when it was last modified.

    Args:
        path: the file's path
    """
    entry = _file(path)
    return {"size_kb": _size_kb(path), "modified": entry["modified"]}


@tool
def list_recent_files(limit: int = 3) -> dict:
    """The most recently modified files, newest first.

    Args:
        limit: how many files
    """
    recent = sorted(FILES, key=lambda p: FILES[p]["modified"], reverse=True)[:limit]
    return {"files": [{"path": p, "modified": FILES[p]["modified"]} for p in recent]}


@tool
def find_large_files(min_kb: float = 1000) -> dict:
    """Files larger than a size, largest first.

    Args:
        min_kb: the smallest size to list, in kilobytes
    """
    large = sorted((p for p in FILES if _size_kb(p) >= min_kb), key=_size_kb, reverse=True)
    return {"min_kb": min_kb, "files": [{"path": p, "size_kb": _size_kb(p)} for p in large]}


@tool
def get_storage_usage() -> dict:
    """How much storage the files use, in total and per folder."""
    folders: dict[str, float] = {}
    for path in FILES:
        folder = path.split("/")[0]
        folders[folder] = round(folders.get(folder, 0.0) + _size_kb(path), 2)
    return {"total_kb": round(sum(folders.values()), 2), "per_folder_kb": folders}


@tool
def count_words(path: str) -> dict:
    """How many words and lines a text file has.

    Args:
        path: the file's path
    """
    text = read_file.func(path)["text"]
    return {"words": len(text.split()), "lines": len(text.splitlines())}


@tool(requires_approval=True)
def share_file(path: str, email: str) -> dict:
    """Share a file with someone by e-mail address (they can view it).

    Args:
        path: the file's path
        email: who to share it with
    """
    _file(path)
    return {"shared": path, "with": email, "link": f"https://files.example/s/{_receipt(path, email)}"}


# -- shop and payments -------------------------------------------------------------------------


@tool
def search_products(query: str, max_price: float | None = None) -> dict:
    """Search the shop's products by name, optionally under a price in EUR.

    Args:
        query: what to look for, e.g. "running shoes"
        max_price: the highest price in EUR
    """
    terms = query.casefold().split()
    found = [{"id": pid, **p} for pid, p in PRODUCTS.items()
             if all(t.rstrip("s") in p["name"] for t in terms) and (max_price is None or p["price"] <= max_price)]
    return {"products": found}


@tool
def get_product(product_id: str) -> dict:
    """One product's details: name, price, rating and stock.

    Args:
        product_id: the product's id, e.g. "P100"
    """
    return {"id": product_id, **_product(product_id)}


@tool
def check_stock(product_id: str) -> dict:
    """Whether a product is in stock, and how many are left.

    Args:
        product_id: the product's id
    """
    stock = _product(product_id)["stock"]
    return {"id": product_id, "in_stock": stock > 0, "left": stock}


@tool
def list_orders() -> dict:
    """Your orders with the shop, newest first, with their status."""
    orders = sorted(ORDERS.items(), key=lambda item: item[1]["placed"], reverse=True)
    return {"orders": [{"id": oid, "product": PRODUCTS[o["product"]]["name"], "status": o["status"],
                        "placed": o["placed"]} for oid, o in orders]}


@tool
def get_order_status(order_id: str) -> dict:
    """An order's status: processing, in transit or delivered.

    Args:
        order_id: the order's id, e.g. "A1002"
    """
    order = _order(order_id)
    return {"id": order_id.upper(), "status": order["status"], "product": PRODUCTS[order["product"]]["name"]}


@tool
def track_package(order_id: str) -> dict:
    """Where an order's package is now: its delivery tracking events, latest last.

    Args:
        order_id: the order's id, e.g. "A1002"
    """
    order = _order(order_id)
    if order["tracking"] is None:
        raise ValueError(f"order {order_id} has not shipped yet, so it has no tracking")
    return {"order": order_id.upper(), "tracking": order["tracking"],
            "events": [{"date": d, "event": e} for d, e in order["events"]]}


@tool(requires_approval=True)
def request_refund(order_id: str, reason: str) -> dict:
    """Ask for a refund of an order.

    Args:
        order_id: the order's id
        reason: why
    """
    order = _order(order_id)
    amount = PRODUCTS[order["product"]]["price"] * order["quantity"]
    return {"order": order_id.upper(), "refund_eur": amount, "request": "R" + _receipt(order_id, reason)}


@tool
def get_account_balance() -> dict:
    """Your account's current balance in EUR."""
    return {"balance_eur": round(OPENING_BALANCE + sum(t["amount"] for t in TRANSACTIONS), 2)}


@tool
def list_transactions(limit: int = 5) -> dict:
    """Your latest payments and deposits, newest first.

    Args:
        limit: how many
    """
    return {"transactions": TRANSACTIONS[:limit]}


@tool
def get_exchange_rate(from_currency: str, to_currency: str) -> dict:
    """The exchange rate between two currencies: how much one unit is worth in the other.

    Args:
        from_currency: the ISO code, e.g. "USD"
        to_currency: the ISO code, e.g. "EUR"
    """
    rate = _rate(to_currency) / _rate(from_currency)
    return {"from": from_currency.upper(), "to": to_currency.upper(), "rate": round(rate, 4)}


@tool
def convert_currency(amount: float, from_currency: str, to_currency: str) -> dict:
    """Convert an amount of money from one currency to another.

    Args:
        amount: the amount to convert
        from_currency: the ISO code of the amount's currency, e.g. "USD"
        to_currency: the ISO code to convert to, e.g. "EUR"
    """
    converted = amount * _rate(to_currency) / _rate(from_currency)
    return {"amount": amount, "from": from_currency.upper(), "converted": round(converted, 2), "to": to_currency.upper()}


# -- travel ------------------------------------------------------------------------------------


def _airport(code_or_city: str) -> str:
    wanted = code_or_city.strip().casefold()
    for code, airport in AIRPORTS.items():
        if wanted in (code.casefold(), airport["city"].casefold(), airport["name"].casefold()):
            return code
    raise ValueError(f"no airport for {code_or_city!r}; the airports are: {', '.join(AIRPORTS)}")


@tool
def search_flights(origin: str, destination: str, day: str) -> dict:
    """Flights from one city (or airport) to another on a date, cheapest first.

    Args:
        origin: where from, a city or airport code, e.g. "London"
        destination: where to, e.g. "Paris"
        day: the date, YYYY-MM-DD
    """
    start, end, wanted = _airport(origin), _airport(destination), _day(day).isoformat()
    flights = [f for f in FLIGHTS if f["from"] == start and f["to"] == end and f["date"] == wanted]
    return {"flights": sorted(flights, key=lambda f: f["price"])}


@tool
def get_flight_status(flight_number: str) -> dict:
    """Whether a flight is on time or delayed, with its times.

    Args:
        flight_number: e.g. "LX 345"
    """
    wanted = flight_number.replace(" ", "").upper()
    for flight in FLIGHTS:
        if flight["number"].replace(" ", "") == wanted:
            return {key: flight[key] for key in ("number", "date", "departs", "arrives", "status")}
    raise ValueError(f"no flight {flight_number!r}; the flights are: {', '.join(f['number'] for f in FLIGHTS)}")


@tool
def search_hotels(city: str, max_price: float | None = None) -> dict:
    """Hotels in a city, best rated first, optionally under a price per night in EUR.

    Args:
        city: the city
        max_price: the most per night, in EUR
    """
    found = [h for h in HOTELS if h["city"].casefold() == city.casefold() and (max_price is None or h["price"] <= max_price)]
    return {"hotels": sorted(found, key=lambda h: -h["rating"])}


@tool
def get_hotel(hotel_id: str) -> dict:
    """One hotel's details.

    Args:
        hotel_id: the hotel's id, e.g. "H2"
    """
    for hotel in HOTELS:
        if hotel["id"] == hotel_id.upper():
            return dict(hotel)
    raise ValueError(f"no hotel has id {hotel_id!r}; the ids are: {', '.join(h['id'] for h in HOTELS)}")


@tool(requires_approval=True)
def book_hotel(hotel_id: str, check_in: str, nights: int) -> dict:
    """Book a hotel room.

    Args:
        hotel_id: the hotel's id
        check_in: the arrival date, YYYY-MM-DD
        nights: how many nights
    """
    hotel = get_hotel.func(hotel_id)
    return {"booked": hotel["name"], "check_in": _day(check_in).isoformat(), "nights": nights,
            "total_eur": hotel["price"] * nights, "reference": "B" + _receipt(hotel_id, check_in, nights)}


@tool
def get_train_times(origin: str, destination: str) -> dict:
    """Train departures between two cities today.

    Args:
        origin: where from
        destination: where to
    """
    trains = [t for t in TRAINS if t["from"].casefold() == origin.casefold() and t["to"].casefold() == destination.casefold()]
    return {"trains": trains}


@tool
def get_distance(origin: str, destination: str) -> dict:
    """The distance in kilometres between two cities.

    Args:
        origin: one city
        destination: the other city
    """
    names = {c.casefold(): c for pair in DISTANCES_KM for c in pair}
    pair = frozenset({names.get(origin.casefold(), origin), names.get(destination.casefold(), destination)})
    if pair not in DISTANCES_KM:
        raise ValueError(f"no distance between {origin} and {destination} in the table")
    return {"km": DISTANCES_KM[pair]}


@tool
def get_visa_requirements(destination_country: str, nationality: str) -> dict:
    """Whether a traveller of one nationality needs a visa to visit a country.

    Args:
        destination_country: the country to visit, e.g. "Japan"
        nationality: the traveller's nationality (country), e.g. "Portugal"
    """
    key = (destination_country.title(), nationality.title())
    if key not in VISAS:
        raise ValueError(f"no visa rule for {nationality} travellers to {destination_country}")
    return {"destination": key[0], "nationality": key[1], "rule": VISAS[key]}


@tool
def get_airport_info(code: str) -> dict:
    """An airport's name and city from its code or city.

    Args:
        code: the airport code (e.g. "LHR") or city
    """
    found = _airport(code)
    return {"code": found, **AIRPORTS[found]}


@tool
def estimate_taxi_fare(km: float) -> dict:
    """A taxi fare estimate for a distance: 3.50 EUR plus 1.60 EUR per kilometre.

    Args:
        km: the distance in kilometres
    """
    return {"km": km, "fare_eur": round(3.5 + 1.6 * km, 2)}


# -- the catalogue -----------------------------------------------------------------------------

DOMAINS: dict[str, list[Tool]] = {
    "weather": [get_weather, get_forecast, get_air_quality, get_uv_index, get_sun_times, get_wind, get_rain_chance,
                compare_temperatures, get_weather_alerts, get_local_time],
    "mail": [search_mail, search_messages, read_mail, list_inbox, count_unread_mail, send_mail, reply_to_mail,
             forward_mail, list_mail_attachments, list_chat_channels, send_message],
    "calendar": [list_events, get_event, get_next_event, find_free_slots, create_event, cancel_event, invite_to_event,
                 count_meetings, list_birthdays, list_public_holidays],
    "files": [list_files, search_files, search_file_contents, read_file, get_file_info, list_recent_files,
              find_large_files, get_storage_usage, count_words, share_file],
    "shop": [search_products, get_product, check_stock, list_orders, get_order_status, track_package, request_refund,
             get_account_balance, list_transactions, get_exchange_rate, convert_currency],
    "travel": [search_flights, get_flight_status, search_hotels, get_hotel, book_hotel, get_train_times, get_distance,
               get_visa_requirements, get_airport_info, estimate_taxi_fare],
}
"""The catalogue's tools by domain: one MCP server each."""

TOOLS: list[Tool] = [t for tools in DOMAINS.values() for t in tools]
"""Every tool of the catalogue, domain by domain."""

_INSTRUCTIONS = {
    "weather": "Weather now and in the coming days, air quality, sun and local time, for a few cities.",
    "mail": "Your e-mail (search, read, send) and the team chat (channels, messages).",
    "calendar": "Your calendar: events, free time, meetings, birthdays and public holidays.",
    "files": "Your files: list, find by name or contents, read, sizes, sharing.",
    "shop": "The shop and your account: products, orders and deliveries, payments, currencies.",
    "travel": "Flights, hotels, trains, distances, visas and taxis.",
}


def tools_of(*domains: str) -> list[Tool]:
    """The tools of some domains (all of them when none is named), in the catalogue's order."""
    unknown = [d for d in domains if d not in DOMAINS]
    if unknown:
        raise ValueError(f"unknown domain(s) {', '.join(unknown)}; the domains are: {', '.join(DOMAINS)}")
    return [t for d in (domains or tuple(DOMAINS)) for t in DOMAINS[d]]


def build_server(domain: str) -> Any:
    """The MCP server of one domain (an ``MCPServer``), built as the course catalogue's server is."""
    from .catalogue_server import serve

    if domain not in DOMAINS:
        raise ValueError(f"unknown domain {domain!r}; the domains are: {', '.join(DOMAINS)}")
    return serve(f"toolbox-{domain}", _INSTRUCTIONS[domain], DOMAINS[domain])


@contextlib.contextmanager
def connected(*domains: str, defer_loading: bool | None = None, **options: Any) -> Iterator[list[Tool]]:
    """The tools of the domains' MCP servers (all six when none is named), each server run in this process.

    ``defer_loading`` and ``options`` (``requires_approval=``, ``timeout=``, ...) go to each server's
    ``.tools()``. The servers stop when the block ends.
    """
    from ..mcp import mcp_server

    with contextlib.ExitStack() as stack:
        tools: list[Tool] = []
        for domain in domains or tuple(DOMAINS):
            server = stack.enter_context(mcp_server(build_server(domain)))
            tools += server.tools(defer_loading=defer_loading, **options)
        yield tools


# -- lesson 06's questions ---------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    """A question of lesson 06 and the catalogue tool that answers it."""

    text: str
    tool: str
    confusable: str  # the tool most easily taken for it


QUESTIONS: tuple[Question, ...] = (
    Question("What's the forecast for Lisbon for the next 3 days?", "get_forecast", "get_weather"),
    Question("How hot is it in Sydney right now?", "get_weather", "get_forecast"),
    Question('Search my e-mail for "invoice"', "search_mail", "search_messages"),
    Question("Search the team chat for messages about the deploy", "search_messages", "search_mail"),
    Question("Where is my package for order A1002?", "track_package", "get_order_status"),
    Question("Convert 250 USD to EUR", "convert_currency", "get_exchange_rate"),
    Question("Find flights from London to Paris on 2026-12-10", "search_flights", "get_flight_status"),
    Question("List my calendar events on 2026-12-03", "list_events", "count_meetings"),
    Question("Read the file notes/todo.txt", "read_file", "search_files"),
    Question("How bad is the air pollution in Delhi?", "get_air_quality", "get_weather"),
)
"""Lesson 06's questions, each with the tool that answers it and the one most easily taken for it."""

PITFALLS: tuple[Question, ...] = (
    # get_forecast's description never says "weather" and the question never says "forecast": a search with
    # the question's words loads get_weather (and not get_forecast), which answers with today's weather.
    Question("What will the weather be in Lisbon over the next 3 days?", "get_forecast", "get_weather"),
    # "e-mails about the flight": the words find the flight tools and mail tools that are not the search.
    Question("Show my e-mails about the flight", "search_mail", "count_unread_mail"),
)
"""Questions a tool search over the catalogue gets wrong: ``tool`` answers them, ``confusable`` is called."""


def main(argv: list[str] | None = None) -> None:
    """Serve one domain over stdio: ``python -m conductor.course.toolbox weather``."""
    import logging

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in DOMAINS:
        raise SystemExit(f"usage: python -m conductor.course.toolbox DOMAIN  (one of: {', '.join(DOMAINS)})")
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    build_server(args[0]).run()


if __name__ == "__main__":
    main()
