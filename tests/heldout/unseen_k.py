"""Held-out set K: health and daily habits (clinic visits, water, sleep, prescriptions, medicine, steps).

Written on 2026-12-02, before any rule of the offline model was changed for it, by a writer who had not run
the model on these tools. Kinds not in ``offline_suite.py``: a clinic ``Literal``, a weekday ``Enum``, quantities
whose parameter names its unit (``amount_ml``, ``minutes``, ``dose_mg``) asked in other units, a prescription id
written with a space, documented ``YYYY-MM-DD`` and 24-hour ``HH:MM`` formats. 40 questions with all six tools
offered, judged over the whole run: ``python -m conductor.course.unseen tests/heldout/unseen_k.py``.
Chinese questions carry an English gloss.
"""

from datetime import datetime
from enum import Enum
from typing import Literal

from conductor.course.unseen import expect
from conductor.tools import tool


def _day(date: str) -> None:
    datetime.strptime(date, "%Y-%m-%d")


def _clock(time: str) -> None:
    datetime.strptime(time, "%H:%M")


@tool
def book_clinic(clinic: Literal["dental", "eye", "physio"], date: str, time: str) -> dict:
    """Book an appointment at the health centre.

    Args:
        clinic: Which clinic the appointment is with.
        date: Day of the appointment, YYYY-MM-DD.
        time: Time of the appointment, 24-hour HH:MM.
    """
    _day(date)
    _clock(time)
    return {"clinic": clinic, "date": date, "time": time, "confirmed": True, "room": f"{clinic[0].upper()}2"}


@tool
def log_water(amount_ml: int, date: str | None = None) -> dict:
    """Record water I drank.

    Args:
        amount_ml: How much water, in millilitres.
        date: The day to record it on, YYYY-MM-DD; today when not given.
    """
    if date is not None:
        _day(date)
    return {"logged_ml": amount_ml, "date": date or "today", "goal_ml": 2000, "left_ml": max(2000 - amount_ml, 0)}


@tool
def log_sleep(minutes: int, quality: Literal["poor", "fair", "good"] = "fair") -> dict:
    """Record last night's sleep.

    Args:
        minutes: How long I slept, in minutes.
        quality: How well I slept.
    """
    return {"slept_minutes": minutes, "quality": quality, "below_target": minutes < 420}


@tool
def refill_prescription(prescription_id: str, pharmacy: str) -> dict:
    """Ask a pharmacy to refill a prescription.

    Args:
        prescription_id: The prescription's id as printed on the label, e.g. "RX 4471".
        pharmacy: Which pharmacy branch prepares it.
    """
    if not any(c.isdigit() for c in prescription_id):
        raise ValueError(f"{prescription_id!r} is not a prescription id")
    return {"prescription": prescription_id, "pharmacy": pharmacy, "ready_in_hours": len(pharmacy) % 5 + 2}


@tool
def medication_reminder(medicine: str, time: str, dose_mg: float) -> dict:
    """Set a daily reminder to take a medicine.

    Args:
        medicine: The medicine's name.
        time: When to take it each day, 24-hour HH:MM.
        dose_mg: The dose, in milligrams.
    """
    _clock(time)
    return {"medicine": medicine, "time": time, "dose_mg": dose_mg, "active": True}


class Weekday(str, Enum):
    """Days of the week."""

    MONDAY = "monday"
    TUESDAY = "tuesday"
    WEDNESDAY = "wednesday"
    THURSDAY = "thursday"
    FRIDAY = "friday"
    SATURDAY = "saturday"
    SUNDAY = "sunday"


@tool
def set_step_goal(steps: int, weekday: Weekday) -> dict:
    """Set the step goal for one day of the week.

    Args:
        steps: How many steps to aim for.
        weekday: Which day of the week the goal is for.
    """
    return {"weekday": Weekday(weekday).value, "steps": steps, "distance_km": round(steps * 0.75 / 1000, 1)}


TOOLS = [book_clinic, log_water, log_sleep, refill_prescription, medication_reminder, set_step_goal]

CASES = [
    # clinic: Literal, documented date and clock
    expect("Book a dental appointment on 2026-03-16 at 09:15",
           (book_clinic, {"clinic": "dental", "date": "2026-03-16", "time": "09:15"})),
    expect("Book the eye clinic for April 2, 2026 at 2:30pm",
           (book_clinic, {"clinic": "eye", "date": "2026-04-02", "time": "14:30"})),
    expect("Can I see the physio on 7 May 2026 at 11am?",
           (book_clinic, {"clinic": "physio", "date": "2026-05-07", "time": "11:00"})),
    expect("Book a dermatology appointment on 2026-03-16 at 10:00", says=("dental", "eye", "physio")),
    expect("Book a dental appointment at 10:00", says=("date",)),
    # "Book the dental clinic at 9:30 am on 20 March 2026"
    expect("预约2026年3月20日上午9点半的牙科",
           (book_clinic, {"clinic": "dental", "date": "2026-03-20", "time": "09:30"})),
    # "Book the eye clinic on 2026-04-08 at 4 pm"
    expect("帮我约2026-04-08下午4点的眼科", (book_clinic, {"clinic": "eye", "date": "2026-04-08", "time": "16:00"})),
    # "Book the physio" (no day or time)
    expect("帮我预约理疗", says=("日期",)),
    # water: quantities in the parameter's unit
    expect("Log 500 ml of water", (log_water, {"amount_ml": 500})),
    expect("I drank 1.5 litres of water", (log_water, {"amount_ml": 1500})),
    expect("Log 2 liters of water for 2026-03-15", (log_water, {"amount_ml": 2000, "date": "2026-03-15"})),
    # "I drank 300 ml of water"
    expect("我喝了300毫升水", (log_water, {"amount_ml": 300})),
    expect("Log some water", says=("how much",)),
    # sleep: durations in minutes, quality Literal
    expect("I slept 7 hours last night", (log_sleep, {"minutes": 420})),
    expect("Log 6 hours 40 minutes of sleep, quality poor", (log_sleep, {"minutes": 400, "quality": "poor"})),
    expect("I slept seven and a half hours and slept well", (log_sleep, {"minutes": 450, "quality": "good"})),
    # "I slept 8 hours last night, slept well"
    expect("昨晚睡了8个小时,睡得很好", (log_sleep, {"minutes": 480, "quality": "good"})),
    expect("Log my sleep", says=("how long",)),
    # prescriptions: whole ids
    expect("Refill prescription RX 4471 at the Main Street pharmacy",
           (refill_prescription, {"prescription_id": "RX 4471", "pharmacy": "Main Street"})),
    expect("Please refill RX 20881 at Elm Road",
           (refill_prescription, {"prescription_id": "RX 20881", "pharmacy": "Elm Road"})),
    expect("Refill RX 4471 and RX 5502 at Main Street",
           (refill_prescription, {"prescription_id": "RX 4471", "pharmacy": "Main Street"}),
           (refill_prescription, {"prescription_id": "RX 5502", "pharmacy": "Main Street"})),
    expect("Refill my prescription at Elm Road", says=("prescription",)),
    # "Refill prescription RX 3310" (no pharmacy)
    expect("帮我续开处方RX 3310", says=("药房",)),
    # medication: clock and dose in mg
    expect("Remind me to take 500 mg of ibuprofen at 8pm",
           (medication_reminder, {"medicine": "ibuprofen", "time": "20:00", "dose_mg": 500})),
    expect("Set a reminder for metformin, 0.5 g at 07:30",
           (medication_reminder, {"medicine": "metformin", "time": "07:30", "dose_mg": 500})),
    # "Remind me every day at 9 pm to take 10 mg of melatonin"
    expect("每天晚上9点提醒我吃10毫克褪黑素",
           (medication_reminder, {"medicine": "褪黑素", "time": "21:00", "dose_mg": 10})),
    expect("Remind me to take aspirin at 09:00", says=("dose",)),
    # steps: Enum matched in both languages
    expect("Set my step goal to 10000 for Monday", (set_step_goal, {"steps": 10000, "weekday": "monday"})),
    expect("Aim for 8,000 steps on Saturday and 12,000 on Sunday",
           (set_step_goal, {"steps": 8000, "weekday": "saturday"}),
           (set_step_goal, {"steps": 12000, "weekday": "sunday"})),
    # "Set Wednesday's step goal to 9000"
    expect("把周三的步数目标设为9000", (set_step_goal, {"steps": 9000, "weekday": "wednesday"})),
    expect("Set a step goal of 9000", says=("day",)),
    # several requests and a chain
    expect("Log 750 ml of water and log 7 hours of sleep",
           (log_water, {"amount_ml": 750}), (log_sleep, {"minutes": 420})),
    expect("Book the physio on 2026-03-18 at 08:00 and remind me to take 200 mg of ibuprofen at 07:00",
           (book_clinic, {"clinic": "physio", "date": "2026-03-18", "time": "08:00"}),
           (medication_reminder, {"medicine": "ibuprofen", "time": "07:00", "dose_mg": 200})),
    # "Log 1 litre of water, and book the eye clinic at 10:00 on 2026-03-25"
    expect("记录1升水,再预约2026-03-25上午10点的眼科",
           (log_water, {"amount_ml": 1000}), (book_clinic, {"clinic": "eye", "date": "2026-03-25", "time": "10:00"})),
    expect("Book a dental appointment on 2026-03-16 at 09:00 and call my dentist to say I'm coming",
           (book_clinic, {"clinic": "dental", "date": "2026-03-16", "time": "09:00"}), says=("call",)),
    # greetings, thanks, other languages
    expect("Good morning!"),
    expect("Thank you so much"),
    expect("你好"),  # "Hello"
    expect("Recuérdame tomar 500 mg de ibuprofeno a las 20:00", says=("English", "Chinese")),
    expect("J'ai bu un litre d'eau", says=("English", "Chinese")),
]
