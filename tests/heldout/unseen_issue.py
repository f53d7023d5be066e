"""Held-out set: the four first-day tools a newcomer tried (unit converter, flight status, meeting rooms, tasks).

Written on 2026-12-02, before any rule of the offline model was changed for them, from the kinds of failure a
newcomer reported (documented formats, whole identifiers, durations in the parameter's unit, several requests in
one question, chains, Literal values said in Chinese, replies a person would write). The questions are new ones of
those kinds, not the newcomer's own. Each question is asked with all four tools offered and judged over the whole
run (``python -m conductor.course.unseen tests/heldout/unseen_issue.py``). Chinese questions carry an English gloss.
"""

from datetime import datetime
from enum import Enum
from typing import Literal

from conductor.course.unseen import expect
from conductor.tools import tool


class Unit(str, Enum):
    """Units the converter knows."""

    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"
    KILOMETERS = "kilometers"
    MILES = "miles"
    KILOGRAMS = "kilograms"
    POUNDS = "pounds"


_LINEAR = {("kilometers", "miles"): 0.621371, ("miles", "kilometers"): 1.609344,
           ("kilograms", "pounds"): 2.204623, ("pounds", "kilograms"): 0.453592}


@tool
def convert(value: float, from_unit: Unit, to_unit: Unit) -> float:
    """Convert a temperature, a distance or a weight from one unit to another.

    Args:
        value: The amount to convert.
        from_unit: The unit the amount is in.
        to_unit: The unit to convert to.
    """
    a, b = Unit(from_unit).value, Unit(to_unit).value
    if a == b:
        return value
    if (a, b) == ("celsius", "fahrenheit"):
        return round(value * 9 / 5 + 32, 2)
    if (a, b) == ("fahrenheit", "celsius"):
        return round((value - 32) * 5 / 9, 2)
    if (a, b) not in _LINEAR:
        raise ValueError(f"cannot convert {a} to {b}")
    return round(value * _LINEAR[(a, b)], 2)


def _day(date: str) -> datetime:
    return datetime.strptime(date, "%Y-%m-%d")


@tool
def flight_status(flight_number: str, date: str) -> dict:
    """Look up the status of a flight on a given day.

    Args:
        flight_number: The airline code and flight number, e.g. "UA 919".
        date: The day of departure, formatted YYYY-MM-DD.
    """
    day = _day(date)
    if not any(c.isdigit() for c in flight_number):
        raise ValueError(f"{flight_number!r} is not a flight number")
    minutes = (sum(map(ord, flight_number)) * 7 + day.day * 13) % (12 * 60)
    return {"flight": flight_number, "date": date, "status": "on time",
            "lands_at": f"{8 + minutes // 60:02d}:{minutes % 60 // 5 * 5:02d}", "gate": f"B{minutes % 30 + 1}"}


@tool
def book_room(room: Literal["Kyoto", "Oslo", "Lima"], date: str, start: str, duration_minutes: int = 60) -> dict:
    """Book a meeting room.

    Args:
        room: Which meeting room.
        date: The day of the meeting, YYYY-MM-DD.
        start: Start time on the 24-hour clock, HH:MM.
        duration_minutes: How long the meeting lasts, in minutes.
    """
    _day(date)
    datetime.strptime(start, "%H:%M")
    return {"room": room, "date": date, "start": start, "minutes": duration_minutes, "booked": True}


@tool
def create_task(title: str, priority: Literal["low", "normal", "high"] = "normal", due: str | None = None) -> dict:
    """Add a task to my task list.

    Args:
        title: What the task is.
        priority: How urgent the task is.
        due: The day the task is due, YYYY-MM-DD, if it has one.
    """
    if due is not None:
        _day(due)
    return {"title": title, "priority": priority, "due": due, "created": True}


TOOLS = [convert, flight_status, book_room, create_task]


def _lands(flight: str, date: str) -> str:
    """When the flight lands, read from the tool itself: a chain books the room from this result."""
    return flight_status(flight_number=flight, date=date)["lands_at"]


CASES = [
    # units and values
    expect("Convert 72 °F to Celsius", (convert, {"value": 72, "from_unit": "fahrenheit", "to_unit": "celsius"})),
    expect("How many kilometers is 26.2 miles?",
           (convert, {"value": 26.2, "from_unit": "miles", "to_unit": "kilometers"})),
    expect("Convert 100 °F to Celsius and 5 miles to kilometers",
           (convert, {"value": 100, "from_unit": "fahrenheit", "to_unit": "celsius"}),
           (convert, {"value": 5, "from_unit": "miles", "to_unit": "kilometers"})),
    expect("What is 80 kg in pounds?", (convert, {"value": 80, "from_unit": "kilograms", "to_unit": "pounds"})),
    # "Convert 37 degrees Celsius to Fahrenheit"
    expect("把37摄氏度换算成华氏度", (convert, {"value": 37, "from_unit": "celsius", "to_unit": "fahrenheit"})),
    # "How many kilograms is 150 pounds?"
    expect("150磅是多少公斤?", (convert, {"value": 150, "from_unit": "pounds", "to_unit": "kilograms"})),
    expect("Convert 3 miles", says=("unit",)),
    # flights: whole identifiers and documented dates
    expect("What's the status of UA 919 on March 9, 2026?",
           (flight_status, {"flight_number": "UA 919", "date": "2026-03-09"})),
    expect("Is flight LH 454 on time on 2026-04-02?",
           (flight_status, {"flight_number": "LH 454", "date": "2026-04-02"})),
    # "Status of flight CA 981 on 14 March 2026"
    expect("查一下2026年3月14日CA 981航班的状态",
           (flight_status, {"flight_number": "CA 981", "date": "2026-03-14"})),
    expect("Check BA 287 and AF 83 on 2026-05-20",
           (flight_status, {"flight_number": "BA 287", "date": "2026-05-20"}),
           (flight_status, {"flight_number": "AF 83", "date": "2026-05-20"})),
    expect("Is UA 919 on time?", says=("date",)),
    # "Is my flight on time today?" (no flight number)
    expect("帮我查一下航班状态,日期是2026-06-01", says=("航班",)),
    # rooms: Literal, documented date and 24-hour start, duration in minutes
    expect("Book the Kyoto room on March 12, 2026 at 3pm for 2 hours",
           (book_room, {"room": "Kyoto", "date": "2026-03-12", "start": "15:00", "duration_minutes": 120})),
    expect("Reserve Oslo on 2026-03-10 from 09:30 for 45 minutes",
           (book_room, {"room": "Oslo", "date": "2026-03-10", "start": "09:30", "duration_minutes": 45})),
    expect("Book Lima on 2026-03-11 at 10:00",
           (book_room, {"room": "Lima", "date": "2026-03-11", "start": "10:00"})),
    # "Book the Kyoto room at 3pm on 14 March 2026, for one and a half hours"
    expect("预订2026年3月14日下午3点的京都会议室,一个半小时",
           (book_room, {"room": "Kyoto", "date": "2026-03-14", "start": "15:00", "duration_minutes": 90})),
    # "Book Oslo tomorrow"? no: "Book the Oslo room on 2026-03-20" (no start time)
    expect("预订2026-03-20的奥斯陆会议室", says=("时间",)),
    expect("Book the Paris room on 2026-03-12 at 10:00", says=("Kyoto", "Oslo", "Lima")),
    expect("Book the Kyoto room at 14:00", says=("date",)),
    # tasks: free text, priority Literal, optional due date
    expect("Add a task: buy printer paper.", (create_task, {"title": "buy printer paper"})),
    expect("Create a high priority task to renew the car insurance, due 2026-04-30",
           (create_task, {"title": "renew the car insurance", "priority": "high", "due": "2026-04-30"})),
    expect("Add a low priority task 'water the plants' due April 3, 2026",
           (create_task, {"title": "water the plants", "priority": "low", "due": "2026-04-03"})),
    # "Add a task: buy printer paper, high priority"
    expect("添加任务:买打印纸,高优先级", (create_task, {"title": "买打印纸", "priority": "high"})),
    expect("Add a task", says=("task",)),
    # several requests and chains
    expect("Book the Oslo room on 2026-03-10 at 14:00 and add a task to prepare the slides",
           (book_room, {"room": "Oslo", "date": "2026-03-10", "start": "14:00"}),
           (create_task, {"title": "prepare the slides"})),
    expect("Look up UA 919 on 2026-03-09 and book the Kyoto room that day when it lands",
           (flight_status, {"flight_number": "UA 919", "date": "2026-03-09"}),
           (book_room, {"room": "Kyoto", "date": "2026-03-09", "start": _lands("UA 919", "2026-03-09")})),
    expect("Book the Lima room on 2026-03-11 at 11:00 and email the agenda to the team",
           (book_room, {"room": "Lima", "date": "2026-03-11", "start": "11:00"}), says=("email",)),
    # greetings, thanks, languages the stand-in does not read
    expect("Hi there!"),
    expect("Thanks, that's all I needed!"),
    expect("谢谢!"),  # "Thank you!"
    expect("¿Cuál es el estado del vuelo UA 919 el 2026-03-09?", says=("English", "Chinese")),
    expect("Réserve la salle Kyoto le 2026-03-12 à 15h", says=("English", "Chinese")),
]
