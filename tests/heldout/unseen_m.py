"""Held-out set M: office and money (transfers, invoices, timesheets, leave, calls, announcements).

Written on 2026-12-02, before any rule of the offline model was changed for it, by a writer who had not run
the model on these tools. Kinds not in ``offline_suite.py``: several transfers in one sentence, invoice numbers
written with a space ("INV 20417"), minutes asked in hours, leave kinds and channels as ``Literal`` values said
in Chinese, an ISO 8601 date-time, two documented dates in one call, and a chain that posts a looked-up total.
40 questions with all six tools offered, judged over the whole run:
``python -m conductor.course.unseen tests/heldout/unseen_m.py``. Chinese questions carry an English gloss.
"""

from datetime import datetime
from typing import Literal

from conductor.course.unseen import expect
from conductor.tools import tool


def _day(date: str) -> None:
    datetime.strptime(date, "%Y-%m-%d")


@tool
def send_money(recipient: str, amount: float, currency: Literal["EUR", "USD", "GBP"]) -> dict:
    """Send money to a contact.

    Args:
        recipient: Who receives the money.
        amount: How much to send.
        currency: The currency of the amount.
    """
    return {"recipient": recipient, "amount": amount, "currency": currency, "sent": True, "fee": 0.0}


@tool
def lookup_invoice(invoice_number: str) -> dict:
    """Look up an invoice.

    Args:
        invoice_number: The invoice number as printed, e.g. "INV 20417".
    """
    if not any(c.isdigit() for c in invoice_number):
        raise ValueError(f"{invoice_number!r} is not an invoice number")
    total = sum(map(ord, invoice_number)) % 900 + 100
    return {"invoice": invoice_number, "customer": "Acme Ltd", "total_eur": total, "paid": False}


@tool
def log_hours(project: str, minutes: int, date: str) -> dict:
    """Log time worked on a project.

    Args:
        project: The project's name.
        minutes: Time worked, in minutes.
        date: The day worked, YYYY-MM-DD.
    """
    _day(date)
    return {"project": project, "minutes": minutes, "date": date, "week_total_minutes": minutes + 600}


@tool
def request_leave(start_date: str, end_date: str, kind: Literal["vacation", "sick", "unpaid"] = "vacation") -> dict:
    """Ask for time off.

    Args:
        start_date: The first day off, YYYY-MM-DD.
        end_date: The last day off, YYYY-MM-DD.
        kind: What kind of leave.
    """
    start, end = datetime.strptime(start_date, "%Y-%m-%d"), datetime.strptime(end_date, "%Y-%m-%d")
    return {"start": start_date, "end": end_date, "kind": kind, "days": (end - start).days + 1, "status": "pending"}


@tool
def schedule_call(contact: str, when: str, minutes: int = 30) -> dict:
    """Put a call in the calendar.

    Args:
        contact: Who the call is with.
        when: When the call starts, ISO 8601 (YYYY-MM-DDTHH:MM).
        minutes: How long the call lasts, in minutes.
    """
    datetime.strptime(when, "%Y-%m-%dT%H:%M")
    return {"contact": contact, "when": when, "minutes": minutes, "invite_sent": True}


@tool
def post_announcement(channel: Literal["general", "engineering", "sales"], message: str) -> dict:
    """Post a message to a team channel.

    Args:
        channel: Which channel to post in.
        message: The text to post.
    """
    return {"channel": channel, "posted": True, "characters": len(message)}


TOOLS = [send_money, lookup_invoice, log_hours, request_leave, schedule_call, post_announcement]

CASES = [
    # money: several transfers, Literal currencies
    expect("Send 20 euros to Bob and 30 euros to Alice",
           (send_money, {"recipient": "Bob", "amount": 20, "currency": "EUR"}),
           (send_money, {"recipient": "Alice", "amount": 30, "currency": "EUR"})),
    expect("Send $45 to Priya", (send_money, {"recipient": "Priya", "amount": 45, "currency": "USD"})),
    expect("Pay Tom 12.50 GBP", (send_money, {"recipient": "Tom", "amount": 12.5, "currency": "GBP"})),
    # "Send Xiao Wang 100 euros"
    expect("给小王转100欧元", (send_money, {"recipient": "小王", "amount": 100, "currency": "EUR"})),
    expect("Send 500 yen to Kenji", says=("EUR", "USD", "GBP")),
    expect("Send 40 euros", says=("who",)),
    # invoices: whole numbers
    expect("Look up invoice INV 20417", (lookup_invoice, {"invoice_number": "INV 20417"})),
    expect("Has INV 20417 been paid? And INV 30002?",
           (lookup_invoice, {"invoice_number": "INV 20417"}), (lookup_invoice, {"invoice_number": "INV 30002"})),
    # "Look up invoice INV 55120"
    expect("查一下发票INV 55120", (lookup_invoice, {"invoice_number": "INV 55120"})),
    expect("Look up my last invoice", says=("invoice number",)),
    # hours: minutes from hours, documented date
    expect("Log 2 hours on Apollo for 2026-03-16", (log_hours, {"project": "Apollo", "minutes": 120, "date": "2026-03-16"})),
    expect("I worked 1.5 hours on the Zephyr project on March 17, 2026",
           (log_hours, {"project": "Zephyr", "minutes": 90, "date": "2026-03-17"})),
    expect("Log 45 minutes on Apollo on 2026-03-18", (log_hours, {"project": "Apollo", "minutes": 45, "date": "2026-03-18"})),
    # "Log 3 hours on Apollo for 19 March 2026"
    expect("2026年3月19日在Apollo项目上记3小时", (log_hours, {"project": "Apollo", "minutes": 180, "date": "2026-03-19"})),
    expect("Log 3 hours on Apollo", says=("date",)),
    # leave: two dates, Literal kind
    expect("Request vacation from 2026-07-06 to 2026-07-17",
           (request_leave, {"start_date": "2026-07-06", "end_date": "2026-07-17", "kind": "vacation"})),
    expect("I'm sick, request sick leave from March 16, 2026 to March 18, 2026",
           (request_leave, {"start_date": "2026-03-16", "end_date": "2026-03-18", "kind": "sick"})),
    # "Request sick leave from 1 April 2026 to 2 April 2026"
    expect("请病假,2026年4月1日到2026年4月2日",
           (request_leave, {"start_date": "2026-04-01", "end_date": "2026-04-02", "kind": "sick"})),
    expect("Request parental leave from 2026-05-04 to 2026-05-29", says=("vacation", "sick", "unpaid")),
    expect("Request vacation starting 2026-08-03", says=("last day",)),
    # calls: ISO date-time, minutes from hours
    expect("Schedule a call with Dana on 2026-03-19 at 15:00",
           (schedule_call, {"contact": "Dana", "when": "2026-03-19T15:00"})),
    expect("Set up an hour-long call with Marco on March 20, 2026 at 9am",
           (schedule_call, {"contact": "Marco", "when": "2026-03-20T09:00", "minutes": 60})),
    # "Schedule a 45-minute call with Lin at 2 pm on 23 March 2026"
    expect("安排2026年3月23日下午2点和Lin通话45分钟",
           (schedule_call, {"contact": "Lin", "when": "2026-03-23T14:00", "minutes": 45})),
    expect("Schedule a call with Dana", says=("when",)),
    # announcements: Literal channels in both languages, free text
    expect("Post 'Release 2.4 is out' in engineering",
           (post_announcement, {"channel": "engineering", "message": "Release 2.4 is out"})),
    expect("Tell the sales channel: quarterly numbers are in",
           (post_announcement, {"channel": "sales", "message": "quarterly numbers are in"})),
    # "Post in the general channel: the office is closed on Friday"
    expect("在general频道发布:周五办公室关闭",
           (post_announcement, {"channel": "general", "message": "周五办公室关闭"})),
    expect("Post 'lunch is here' in the random channel", says=("general", "engineering", "sales")),
    expect("Post an announcement in general", says=("message",)),
    # several requests and chains
    expect("Log 2 hours on Apollo for 2026-03-16 and schedule a call with Dana on 2026-03-17 at 10:00",
           (log_hours, {"project": "Apollo", "minutes": 120, "date": "2026-03-16"}),
           (schedule_call, {"contact": "Dana", "when": "2026-03-17T10:00"})),
    expect("Send 15 GBP to Ana, 25 GBP to Ben and 35 GBP to Cy",
           (send_money, {"recipient": "Ana", "amount": 15, "currency": "GBP"}),
           (send_money, {"recipient": "Ben", "amount": 25, "currency": "GBP"}),
           (send_money, {"recipient": "Cy", "amount": 35, "currency": "GBP"})),
    expect("Look up invoice INV 20417 and send its total in euros to Acme Ltd",
           (lookup_invoice, {"invoice_number": "INV 20417"}),
           (send_money, {"recipient": "Acme Ltd", "amount": lookup_invoice(invoice_number="INV 20417")["total_eur"],
                         "currency": "EUR"})),
    # "Request vacation from 2026-06-01 to 2026-06-05, and post in general: I'm on holiday that week"
    expect("申请2026-06-01到2026-06-05的年假,再在general频道发:那周我休假",
           (request_leave, {"start_date": "2026-06-01", "end_date": "2026-06-05", "kind": "vacation"}),
           (post_announcement, {"channel": "general", "message": "那周我休假"})),
    expect("Send 10 euros to Bob and order a cake for his birthday",
           (send_money, {"recipient": "Bob", "amount": 10, "currency": "EUR"}), says=("cake",)),
    # greetings, thanks, other languages
    expect("Hey, how are you?"),
    expect("Great, thanks!"),
    expect("谢谢你的帮助"),  # "Thanks for your help"
    expect("Envía 20 euros a Bob", says=("English", "Chinese")),
    expect("Peux-tu planifier un appel avec Dana demain ?", says=("English", "Chinese")),
    expect("Registra 2 horas en el proyecto Apollo el 2026-03-16", says=("English", "Chinese")),
]
