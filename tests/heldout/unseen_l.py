"""Held-out set L: getting about (train times, seats, parking, baggage, car hire, airport transfers).

Written on 2026-12-02, before any rule of the offline model was changed for it, by a writer who had not run
the model on these tools. Kinds not in ``offline_suite.py``: train numbers written with a space ("ICE 578"), an
ISO 8601 date-time (``YYYY-MM-DDTHH:MM``), durations in hours asked in minutes and days asked in weeks, a weight
in kg asked in pounds, a car-size ``Enum``, terminal and seat-class ``Literal`` values, and chains whose second
call needs the first result. 40 questions with all six tools offered, judged over the whole run:
``python -m conductor.course.unseen tests/heldout/unseen_l.py``. Chinese questions carry an English gloss.
"""

from datetime import datetime
from enum import Enum
from typing import Literal

from conductor.course.unseen import expect
from conductor.tools import tool


def _day(date: str) -> datetime:
    return datetime.strptime(date, "%Y-%m-%d")


@tool
def train_times(train_number: str, date: str) -> dict:
    """When a train leaves and from which platform.

    Args:
        train_number: The train's number as shown on the ticket, e.g. "ICE 578".
        date: The day of travel, YYYY-MM-DD.
    """
    day = _day(date)
    if not any(c.isdigit() for c in train_number):
        raise ValueError(f"{train_number!r} is not a train number")
    minutes = (sum(map(ord, train_number)) * 11 + day.day) % (14 * 60)
    return {"train": train_number, "date": date, "departs": f"{6 + minutes // 60:02d}:{minutes % 60 // 5 * 5:02d}",
            "platform": minutes % 12 + 1}


@tool
def reserve_seat(train_number: str, date: str, seat_class: Literal["first", "second"] = "second",
                 seats: int = 1) -> dict:
    """Reserve seats on a train.

    Args:
        train_number: The train's number, e.g. "ICE 578".
        date: The day of travel, YYYY-MM-DD.
        seat_class: First or second class.
        seats: How many seats.
    """
    _day(date)
    price = (9.0 if seat_class == "first" else 4.5) * seats
    return {"train": train_number, "date": date, "class": seat_class, "seats": seats, "price_eur": price}


@tool
def book_parking(garage: str, start: str, hours: float) -> dict:
    """Book a parking space in a garage.

    Args:
        garage: The garage's name.
        start: When parking starts, ISO 8601 date and time (YYYY-MM-DDTHH:MM).
        hours: How long to park, in hours.
    """
    datetime.strptime(start, "%Y-%m-%dT%H:%M")
    return {"garage": garage, "start": start, "hours": hours, "price_eur": round(2.5 * hours, 2)}


@tool
def check_baggage(weight_kg: float, bags: int = 1) -> dict:
    """Check whether checked baggage is within the allowance.

    Args:
        weight_kg: The heaviest bag's weight, in kilograms.
        bags: How many bags are checked in.
    """
    return {"weight_kg": weight_kg, "bags": bags, "allowed": weight_kg <= 23 and bags <= 2,
            "fee_eur": 0 if weight_kg <= 23 else 60}


class CarSize(str, Enum):
    """Sizes of hire car."""

    COMPACT = "compact"
    MIDSIZE = "midsize"
    SUV = "suv"
    VAN = "van"


@tool
def rent_car(size: CarSize, pickup_date: str, days: int) -> dict:
    """Hire a car.

    Args:
        size: What size of car.
        pickup_date: The day the car is picked up, YYYY-MM-DD.
        days: For how many days.
    """
    _day(pickup_date)
    daily = {"compact": 35, "midsize": 48, "suv": 70, "van": 85}[CarSize(size).value]
    return {"size": CarSize(size).value, "pickup": pickup_date, "days": days, "total_eur": daily * days}


@tool
def airport_transfer(pickup_time: str, terminal: Literal["T1", "T2", "T3"], passengers: int = 1) -> dict:
    """Book a shuttle from the airport to the city.

    Args:
        pickup_time: When to be picked up, 24-hour HH:MM.
        terminal: Which terminal to be picked up at.
        passengers: How many people travel.
    """
    datetime.strptime(pickup_time, "%H:%M")
    return {"pickup_time": pickup_time, "terminal": terminal, "passengers": passengers, "price_eur": 18 * passengers}


TOOLS = [train_times, reserve_seat, book_parking, check_baggage, rent_car, airport_transfer]


def _departs(train: str, date: str) -> str:
    """The train's departure, read from the tool itself: a chain uses this result."""
    return train_times(train_number=train, date=date)["departs"]


CASES = [
    # trains: whole numbers and documented dates
    expect("When does ICE 578 leave on 2026-03-21?", (train_times, {"train_number": "ICE 578", "date": "2026-03-21"})),
    expect("What platform is TGV 6204 on, March 22, 2026?",
           (train_times, {"train_number": "TGV 6204", "date": "2026-03-22"})),
    expect("Times for IC 2013 and ICE 578 on 2026-03-21",
           (train_times, {"train_number": "IC 2013", "date": "2026-03-21"}),
           (train_times, {"train_number": "ICE 578", "date": "2026-03-21"})),
    # "When does G 102 leave on 3 April 2026?"
    expect("2026年4月3日的G 102几点发车?", (train_times, {"train_number": "G 102", "date": "2026-04-03"})),
    expect("When does ICE 578 leave?", says=("date",)),
    # seats: Literal class, counts
    expect("Reserve 2 first class seats on ICE 578 on 2026-03-21",
           (reserve_seat, {"train_number": "ICE 578", "date": "2026-03-21", "seat_class": "first", "seats": 2})),
    expect("Reserve a seat on IC 2013 on April 4, 2026",
           (reserve_seat, {"train_number": "IC 2013", "date": "2026-04-04"})),
    # "Reserve 3 second-class seats on G 102 on 2026-04-03"
    expect("帮我订2026-04-03 G 102的3个二等座",
           (reserve_seat, {"train_number": "G 102", "date": "2026-04-03", "seat_class": "second", "seats": 3})),
    expect("Reserve a business class seat on ICE 578 on 2026-03-21", says=("first", "second")),
    expect("Reserve a seat on 2026-03-21", says=("train",)),
    # parking: ISO 8601 date-time, hours from minutes
    expect("Book parking at Central Garage from 2026-03-21 08:00 for 3 hours",
           (book_parking, {"garage": "Central Garage", "start": "2026-03-21T08:00", "hours": 3})),
    expect("Park at Harbour Garage on March 22, 2026 at 6pm for 90 minutes",
           (book_parking, {"garage": "Harbour Garage", "start": "2026-03-22T18:00", "hours": 1.5})),
    # "Book parking at Central Garage from 9 am on 25 March 2026, for 2 hours"
    expect("在Central Garage订车位,2026年3月25日上午9点开始,停2小时",
           (book_parking, {"garage": "Central Garage", "start": "2026-03-25T09:00", "hours": 2})),
    expect("Book parking at Central Garage for 4 hours", says=("start",)),
    # baggage: kilograms from pounds
    expect("Is a 21 kg bag within the allowance?", (check_baggage, {"weight_kg": 21})),
    expect("I have 2 bags, the heavier is 25 kg. Is that OK?", (check_baggage, {"weight_kg": 25, "bags": 2})),
    expect("Is a 50 lb suitcase OK?", (check_baggage, {"weight_kg": 22.68})),
    # "Is a 20 kg suitcase over the limit?"
    expect("20公斤的行李箱超重吗?", (check_baggage, {"weight_kg": 20})),
    expect("Are my bags within the allowance?", says=("weigh",)),
    # car hire: Enum, days from weeks
    expect("Rent a compact car from 2026-03-21 for 5 days",
           (rent_car, {"size": "compact", "pickup_date": "2026-03-21", "days": 5})),
    expect("Hire an SUV for a week from April 10, 2026", (rent_car, {"size": "suv", "pickup_date": "2026-04-10", "days": 7})),
    # "Rent a van from 1 May 2026 for 3 days"
    expect("从2026年5月1日起租一辆面包车,租3天", (rent_car, {"size": "van", "pickup_date": "2026-05-01", "days": 3})),
    expect("Rent a limousine from 2026-03-21 for 2 days", says=("compact", "midsize", "suv", "van")),
    expect("Rent a midsize car for 4 days", says=("date",)),
    # transfers: Literal terminals, clock
    expect("Book an airport shuttle from T2 at 7:45pm for 3 people",
           (airport_transfer, {"pickup_time": "19:45", "terminal": "T2", "passengers": 3})),
    expect("Shuttle from terminal 1 at 06:10", (airport_transfer, {"pickup_time": "06:10", "terminal": "T1"})),
    # "Book a shuttle for 2 people at 10:20 pm from T3"
    expect("订一辆晚上10点20分从T3出发的接机班车,2个人",
           (airport_transfer, {"pickup_time": "22:20", "terminal": "T3", "passengers": 2})),
    expect("Book a shuttle from T5 at 09:00", says=("T1", "T2", "T3")),
    expect("Book an airport shuttle at 08:30", says=("terminal",)),
    # several requests and chains
    expect("Rent a compact car from 2026-03-21 for 3 days and book a shuttle from T1 at 10:00",
           (rent_car, {"size": "compact", "pickup_date": "2026-03-21", "days": 3}),
           (airport_transfer, {"pickup_time": "10:00", "terminal": "T1"})),
    expect("Reserve a first class seat on ICE 578 on 2026-03-21 and a second class seat on IC 2013 on 2026-03-22",
           (reserve_seat, {"train_number": "ICE 578", "date": "2026-03-21", "seat_class": "first"}),
           (reserve_seat, {"train_number": "IC 2013", "date": "2026-03-22", "seat_class": "second"})),
    expect("Find when ICE 578 leaves on 2026-03-21 and book parking at Central Garage from then for 5 hours",
           (train_times, {"train_number": "ICE 578", "date": "2026-03-21"}),
           (book_parking, {"garage": "Central Garage", "start": "2026-03-21T" + _departs("ICE 578", "2026-03-21"),
                           "hours": 5})),
    # "Check whether a 30 kg bag is over, and book a shuttle from T2 at 18:00"
    expect("查一下30公斤的行李是否超重,再订一辆18:00从T2出发的班车",
           (check_baggage, {"weight_kg": 30}), (airport_transfer, {"pickup_time": "18:00", "terminal": "T2"})),
    expect("Book parking at Harbour Garage from 2026-03-22T07:00 for 2 hours and buy me a coffee",
           (book_parking, {"garage": "Harbour Garage", "start": "2026-03-22T07:00", "hours": 2}), says=("coffee",)),
    # greetings, thanks, other languages
    expect("Hello!"),
    expect("Thanks a lot, that's perfect."),
    expect("多谢"),  # "Many thanks"
    expect("Reserva un asiento en el ICE 578 el 2026-03-21", says=("English", "Chinese")),
    expect("Je voudrais louer une voiture pour 3 jours", says=("English", "Chinese")),
    expect("Wann fährt der ICE 578 am 2026-03-21?", says=("English", "Chinese")),
]
