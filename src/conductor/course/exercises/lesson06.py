"""Lesson 06's exercises: what a cache hit bills, a system prompt that keeps its cache, input tokens read
from each API's usage, a tiny tool search.

In the notebook::

    from conductor.course.exercises import ____, lesson06 as ex
    ex.q1.check()

Every check is deterministic: token counts are the check's own, and the runs go to a fresh zero-latency
offline model.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from typing import Any

import conductor as cd

from .core import Exercise, Wrong, WrongAnswer, learner_call, offline_llm

__all__ = ["SETUP", "EXERCISES", "q1", "q2", "q3", "q4"]

SETUP = "from conductor.course.exercises import ____, lesson06 as ex"
"""The notebook cell that comes before the exercises."""

# -- exercise 1: what an OpenAI cache hit bills --------------------------------------------------------


def cached_tokens(matched: int, minimum: int = 1024, step: int = 128) -> int:
    """Prompt tokens billed as cached when the first `matched` tokens repeat an earlier request."""
    if matched < minimum:
        return 0
    return minimum + (matched - minimum) // step * step


MATCHES = ((500, 0), (1023, 0), (1024, 1024), (1100, 1024), (1151, 1024), (1152, 1152), (5000, 4992))


def _judge_cached(cached_tokens: Any) -> str:
    for matched, expected in MATCHES:
        got = learner_call(f"cached_tokens({matched})", cached_tokens, matched)
        if got != expected:
            if matched < 1024 and got:
                why = "below 1,024 tokens nothing is cached at all"
            elif got and got > matched:
                why = "a hit never covers more than what matched: round down, not up"
            elif got == matched:
                why = "hits come in steps of 128 tokens past 1,024: round down to the last whole step"
            else:
                why = "the steps count from 1,024: 1,024, 1,152, 1,280, ..."
            raise Wrong(f"cached_tokens({matched}) gives {got!r}; it should be {expected}: {why}.")
    return (f"{len(MATCHES)} prefixes billed as OpenAI bills them: nothing below 1,024 tokens, then whole "
            "steps of 128 (a 5,000-token match reads 4,992 from the cache).")


def _no_minimum() -> tuple[Any, ...]:
    def cached_tokens(matched, minimum=1024, step=128):
        """Forgets the minimum."""
        return matched // step * step

    return (cached_tokens,)


def _every_token() -> tuple[Any, ...]:
    def cached_tokens(matched, minimum=1024, step=128):
        """Counts every matched token."""
        return matched if matched >= minimum else 0

    return (cached_tokens,)


def _rounds_up() -> tuple[Any, ...]:
    def cached_tokens(matched, minimum=1024, step=128):
        """Rounds up to the next step."""
        if matched < minimum:
            return 0
        return minimum + -(-(matched - minimum) // step) * step

    return (cached_tokens,)


q1 = Exercise(
    number=1,
    title="What an OpenAI cache hit bills",
    task="""\
OpenAI caches every prompt of 1,024 tokens or more, and a hit is billed in steps of 128 tokens:
1,024, 1,152, 1,280, ... Write `cached_tokens(matched, minimum=1024, step=128)`: how many prompt
tokens are billed as cached when the first `matched` tokens of a request repeat an earlier one.
The check tries prefixes on both sides of the minimum and of a step.""",
    stub='''\
def cached_tokens(matched, minimum=1024, step=128) -> int:
    """Prompt tokens billed as cached when the first `matched` tokens repeat an earlier request."""
    if matched < minimum:
        return ____
    return ____


ex.q1.check()''',
    hint_text="Below the minimum: 0. Otherwise the minimum plus as many whole steps as fit in what is left: "
    "minimum + (matched - minimum) // step * step.",
    names=("cached_tokens",),
    judge=_judge_cached,
    reference=lambda: (cached_tokens,),
    solution_parts=(cached_tokens,),
    wrong_answers=(
        WrongAnswer("forgets the minimum", _no_minimum, fix="below 1,024 tokens nothing is cached"),
        WrongAnswer("counts every matched token", _every_token, fix="steps of 128"),
        WrongAnswer("rounds up", _rounds_up, fix="round down"),
    ),
)

# -- exercise 2: a system prompt that keeps its cache ------------------------------------------------

LONG_RULES = "You are the support assistant. Quote every figure a tool gives you, with its unit. " * 140


# The solution as the learner pastes it into the notebook, where the rules are `ex.LONG_RULES`; the reference the
# check runs is this same text, so what `ex.q2.solution()` prints is what passed.
PROMPT_SOLUTION = '''\
def build_prompt(question, now):
    """(system, user) for one request: the system prompt stays; the time goes with the question."""
    return ex.LONG_RULES, f"(Sent {now:%Y-%m-%d %H:%M}.) {question}"'''


def _prompt_reference() -> tuple[Any, ...]:
    """`build_prompt` defined by running :data:`PROMPT_SOLUTION` where `ex` is this module, as in the notebook."""
    namespace: dict[str, Any] = {"ex": sys.modules[__name__]}
    exec(PROMPT_SOLUTION, namespace)  # noqa: S102 - the course's own solution text
    return (namespace["build_prompt"],)


# 36 seconds apart across a minute, so a time to the minute changes too (it would not between 9:00:05 and 9:00:41).
MOMENTS = (dt.datetime(2026, 11, 28, 9, 0, 41), dt.datetime(2026, 11, 28, 9, 1, 17))


def _judge_prompt(build_prompt: Any) -> str:
    llm = offline_llm("chat")

    @cd.tool
    def get_weather(city: str) -> str:
        """Current weather of a city."""
        return f"{city}: 12 C, light rain"

    reads, systems = [], []
    for moment in MOMENTS:
        pair = learner_call(f"build_prompt(question, {moment:%H:%M:%S})", build_prompt, "Weather in Oslo?", moment)
        if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
            raise Wrong(f"build_prompt(...) gives {pair!r:.80}; return a pair of strings: (system, user).")
        system, user = pair
        if f"{moment:%H:%M}" not in system + user:
            raise Wrong("the model is no longer told the time: keep it in the request, in the user's message.")
        if LONG_RULES.strip() not in system:
            raise Wrong("the system prompt lost the rules (LONG_RULES): keep them in it.")
        result = llm.run(user, tools=[get_weather], system=system)
        systems.append(system)
        reads.append(result.trace.model_calls[0].usage.cache_read_tokens)
    if not reads[1]:
        raise Wrong(_why_missed(systems))
    return (f"36 seconds later the same system prompt was read from the cache: {reads[1]:,} of its prompt tokens "
            "billed at the cached rate, and the model still knows the time.")


def _why_missed(systems: list[str]) -> str:
    """Why the second request read nothing from the cache, for where the learner put what changes."""
    rules = LONG_RULES.strip()
    if systems[0] != systems[1] and all(s.startswith(rules) for s in systems):
        return ("the second request read nothing from the cache: the time sits after the rules, at the end of the "
                "system prompt. OpenAI matches a prompt token by token, so the rules before the time could still "
                "be read from its cache, but cd sends OpenAI a prompt_cache_key made from the system prompt, and a "
                "new key each minute routes each request to another cache; Anthropic matches whole blocks, so a "
                "system prompt that changes misses as a whole. Keep the system prompt the same on every request: "
                "put the time in the user's message.")
    if systems[0] != systems[1]:
        return ("the second request read nothing from the cache: its system prompt differs from the first's. "
                "Something that changes on every request (the time) must come after what stays the same: keep the "
                "system prompt the same on every request, and put the time in the user's message.")
    return ("the second request read nothing from the cache, although its system prompt is the first's: keep the "
            "system prompt the same on every request, at least 1,024 tokens long (the rules), and put the time in "
            "the user's message.")


def _time_first() -> tuple[Any, ...]:
    def build_prompt(question, now):
        """The time at the top of the system prompt."""
        return f"Now: {now:%Y-%m-%d %H:%M:%S}.\n{LONG_RULES}", question

    return (build_prompt,)


def _time_last() -> tuple[Any, ...]:
    def build_prompt(question, now):
        """The time at the end of the system prompt, after the rules."""
        return f"{LONG_RULES}\nNow: {now:%Y-%m-%d %H:%M:%S}.", question

    return (build_prompt,)


def _time_dropped() -> tuple[Any, ...]:
    def build_prompt(question, now):
        """Keeps the cache by forgetting the time."""
        return LONG_RULES, question

    return (build_prompt,)


q2 = Exercise(
    number=2,
    title="A system prompt that keeps its cache",
    task="""\
The assistant must know when each question was sent, and its rules (`ex.LONG_RULES`, about 3,000
tokens) are the same on every request. Write `build_prompt(question, now)` returning `(system,
user)` for one request so that a second request 36 seconds later reads the rules from the prompt
cache. The check sends two questions through a fresh offline model on Chat Completions.

Only the user's message may change: OpenAI reads a prompt from its cache token by token, but `cd`
sends OpenAI a `prompt_cache_key` made from the system prompt (a changed system prompt goes to
another cache), and Anthropic's cache matches whole blocks.""",
    stub='''\
def build_prompt(question, now):
    """(system, user) for one request: the rules, the time the question was sent, the question."""
    system = ____
    user = ____
    return system, user


ex.q2.check()''',
    hint_text="A cache hit needs the same beginning: tools, then the system prompt, then the messages. Anything "
    "that changes per request belongs after what stays: system = ex.LONG_RULES, and the time goes into the "
    "user's message, e.g. f\"(Sent {now:%Y-%m-%d %H:%M}.) {question}\".",
    names=("build_prompt",),
    judge=_judge_prompt,
    reference=_prompt_reference,
    solution_parts=(PROMPT_SOLUTION,),
    wrong_answers=(
        WrongAnswer("puts the time first in the system prompt", _time_first, fix="keep the system prompt the same"),
        WrongAnswer("puts the time last in the system prompt", _time_last, fix="a new key each minute"),
        WrongAnswer("drops the time", _time_dropped, fix="keep it in the request"),
    ),
)

# -- exercise 3: input tokens, read from each API's usage ------------------------------------------------


def input_tokens(api: str, usage: dict) -> tuple[int, int]:
    """(every prompt token, the part read from the cache) from one response's usage dict."""
    if api == "messages":
        read = usage.get("cache_read_input_tokens") or 0
        written = usage.get("cache_creation_input_tokens") or 0
        return usage["input_tokens"] + read + written, read
    if api == "chat":
        details = usage.get("prompt_tokens_details") or {}
        return usage["prompt_tokens"], details.get("cached_tokens") or 0
    details = usage.get("input_tokens_details") or {}
    return usage["input_tokens"], details.get("cached_tokens") or 0


USAGES = (
    ("chat", {"prompt_tokens": 4020, "completion_tokens": 4,
              "prompt_tokens_details": {"cached_tokens": 3968, "audio_tokens": 0}}, (4020, 3968)),
    ("responses", {"input_tokens": 2310, "output_tokens": 12,
                   "input_tokens_details": {"cached_tokens": 2304, "cache_write_tokens": 0}}, (2310, 2304)),
    ("messages", {"input_tokens": 3, "output_tokens": 397, "cache_creation_input_tokens": 1111,
                  "cache_read_input_tokens": 0}, (1114, 0)),
    ("messages", {"input_tokens": 25, "output_tokens": 40, "cache_creation_input_tokens": 180,
                  "cache_read_input_tokens": 5043}, (5248, 5043)),
    ("chat", {"prompt_tokens": 812, "completion_tokens": 9}, (812, 0)),
)


def _judge_usage(input_tokens: Any) -> str:
    for api, usage, expected in USAGES:
        got = learner_call(f"input_tokens({api!r}, ...)", input_tokens, api, dict(usage))
        if not isinstance(got, (tuple, list)) or tuple(got) != expected:
            if api == "messages" and isinstance(got, (tuple, list)) and got and got[0] == usage["input_tokens"]:
                why = ("Anthropic's input_tokens leaves out what was read from and written to the cache: add "
                       "cache_read_input_tokens and cache_creation_input_tokens")
            elif api == "chat" and "prompt_tokens_details" not in usage:
                why = "a response without prompt_tokens_details read nothing from the cache"
            else:
                why = ("OpenAI's prompt_tokens / input_tokens already hold the cached tokens; the cached part is "
                       "in prompt_tokens_details / input_tokens_details")
            raise Wrong(f"input_tokens({api!r}, {usage}) gives {got!r}; it should be {expected}: {why}.")
    return f"{len(USAGES)} responses read as each API reports them: every prompt token, and the cached part."


def _anthropic_like_openai() -> tuple[Any, ...]:
    def input_tokens(api, usage):
        """Reads Anthropic's input_tokens as the whole prompt."""
        if api == "messages":
            return usage["input_tokens"], usage.get("cache_read_input_tokens") or 0
        if api == "chat":
            details = usage.get("prompt_tokens_details") or {}
            return usage["prompt_tokens"], details.get("cached_tokens") or 0
        details = usage.get("input_tokens_details") or {}
        return usage["input_tokens"], details.get("cached_tokens") or 0

    return (input_tokens,)


def _needs_details() -> tuple[Any, ...]:
    def input_tokens(api, usage):
        """Expects the details on every response."""
        if api == "messages":
            read = usage["cache_read_input_tokens"]
            return usage["input_tokens"] + read + usage["cache_creation_input_tokens"], read
        if api == "chat":
            return usage["prompt_tokens"], usage["prompt_tokens_details"]["cached_tokens"]
        return usage["input_tokens"], usage["input_tokens_details"]["cached_tokens"]

    return (input_tokens,)


q3 = Exercise(
    number=3,
    title="Input tokens, read from each API's usage",
    task="""\
Each API reports a request's prompt in its own fields. Write `input_tokens(api, usage)` returning
`(every prompt token, the part read from the cache)` for one response's `usage` dict on `"chat"`,
`"responses"` or `"messages"`. The check reads five usages shaped as the APIs send them, one of
them without any cache details.""",
    stub='''\
def input_tokens(api, usage):
    """(every prompt token, the part read from the cache) from one response's usage dict."""
    if api == "messages":
        read = usage.get("cache_read_input_tokens") or 0
        written = usage.get("cache_creation_input_tokens") or 0
        return ____, read
    if api == "chat":
        return usage["prompt_tokens"], ____
    return usage["input_tokens"], ____


ex.q3.check()''',
    hint_text="OpenAI's prompt_tokens (Chat) and input_tokens (Responses) count every prompt token; the cached "
    "part is prompt_tokens_details.cached_tokens / input_tokens_details.cached_tokens, and the details may be "
    "missing (use .get). Anthropic's input_tokens counts only what came after the last cache breakpoint: the "
    "whole prompt is input_tokens + cache_read_input_tokens + cache_creation_input_tokens.",
    names=("input_tokens",),
    judge=_judge_usage,
    reference=lambda: (input_tokens,),
    solution_parts=(input_tokens,),
    wrong_answers=(
        WrongAnswer("reads Anthropic like OpenAI", _anthropic_like_openai, fix="add cache_read_input_tokens"),
        WrongAnswer("expects the details everywhere", _needs_details, fix="prompt_tokens_details"),
    ),
)

# -- exercise 4: a tiny tool search -------------------------------------------------------------------


def search(query: str, tools: list, k: int = 3) -> list[str]:
    """The names of the k tools whose name and description share the most words with query."""

    def words(text: str) -> set[str]:
        return {w for w in text.lower().replace("_", " ").split() if len(w) > 2}

    asked = words(query)
    scored = [
        (len(asked & words(f"{t.name} {t.description}")), -i, t.name) for i, t in enumerate(tools)
    ]
    return [name for score, _, name in sorted(scored, reverse=True)[:k] if score > 0]


def _search_tools() -> list[Any]:
    def make(name: str, description: str) -> Any:
        def run(query: str) -> str:
            return name

        return cd.tool(run, name=name, description=description)

    return [
        make("get_weather", "Current weather conditions (temperature, wind) in a city right now."),
        make("get_forecast", "Weather forecast for the coming days in a city: tomorrow and the days after."),
        make("search_mail", "Search the user's email inbox for messages matching words."),
        make("search_messages", "Search chat messages in the team's channels."),
        make("create_event", "Create a calendar event at a date and time."),
        make("list_events", "List the calendar events of a day."),
        make("convert_currency", "Convert an amount of money from one currency to another."),
    ]


# (query, the tool that should lead, or None when no tool shares a word with the query). "check my mail" shares
# a word with a tool's name only ("mail"; its description says "email"); "play some jazz" with no tool at all.
QUERIES = (
    ("weather forecast for tomorrow in Oslo", "get_forecast"),
    ("find the email from Dana in my inbox", "search_mail"),
    ("what is on my calendar, list the events of Friday", "list_events"),
    ("convert 20 euros to another currency", "convert_currency"),
    ("check my mail", "search_mail"),
    ("play some jazz", None),
)


def _all_words(text: str) -> set[str]:
    """Every word of `text`, short ones too, without punctuation: a tool sharing none of them shares no word."""
    return set(re.findall(r"[a-z0-9]+", text.lower().replace("_", " ")))


def _unrelated(query: str, names: list[str], tools: list[Any]) -> list[str]:
    """The names among `names` whose tool shares no word at all with `query`."""
    by_name = {t.name: t for t in tools}
    asked = _all_words(query)
    return [n for n in names if n in by_name and not asked & _all_words(f"{n} {by_name[n].description}")]


def _judge_search(search: Any) -> str:
    tools = _search_tools()
    for query, expected in QUERIES:
        got = learner_call(f"search({query!r}, tools)", search, query, tools)
        if not isinstance(got, list) or not all(isinstance(n, str) for n in got):
            raise Wrong(f"search({query!r}, tools) gives {got!r:.80}; return a list of tool names.")
        if len(got) > 3:
            raise Wrong(f"search(...) returned {len(got)} names; return at most k=3, the best first: loading every "
                        "tool again is what search is meant to avoid.")
        unrelated = _unrelated(query, got, tools)
        if unrelated:
            raise Wrong(f"search({query!r}) returned {unrelated}, which share no word with the query: leave out the "
                        "tools whose score is 0. A model shown unrelated tools may call one.")
        if expected is None:
            continue
        if not got or got[0] != expected:
            ranked = f"ranks {got[:3]} first" if got else "returns no tool"
            raise Wrong(f"search({query!r}) {ranked}; {expected!r} should lead. Score each tool by the "
                        "words its name and description share with the query (split the name at '_').")
    return (f"{len(QUERIES)} questions, each led by the right tool among confusable ones (get_weather / "
            "get_forecast), and no tool returned for a question none of them fits.")


def _name_only() -> tuple[Any, ...]:
    def search(query, tools, k=3):
        """Matches the query against tool names only."""
        asked = set(query.lower().split())
        scored = [(len(asked & set(t.name.split("_"))), -i, t.name) for i, t in enumerate(tools)]
        return [name for score, _, name in sorted(scored, reverse=True)[:k] if score > 0]

    return (search,)


def _description_only() -> tuple[Any, ...]:
    def search(query, tools, k=3):
        """Matches the query against tool descriptions only."""

        def words(text):
            return {w for w in text.lower().replace("_", " ").split() if len(w) > 2}

        asked = words(query)
        scored = [(len(asked & words(t.description)), -i, t.name) for i, t in enumerate(tools)]
        return [name for score, _, name in sorted(scored, reverse=True)[:k] if score > 0]

    return (search,)


def _keeps_unrelated() -> tuple[Any, ...]:
    def search(query, tools, k=3):
        """Keeps the k best even when they share no word with the query."""

        def words(text):
            return {w for w in text.lower().replace("_", " ").split() if len(w) > 2}

        asked = words(query)
        scored = [(len(asked & words(f"{t.name} {t.description}")), -i, t.name) for i, t in enumerate(tools)]
        return [name for score, _, name in sorted(scored, reverse=True)[:k]]

    return (search,)


def _everything() -> tuple[Any, ...]:
    def search(query, tools, k=3):
        """Returns every tool."""
        return [t.name for t in tools]

    return (search,)


q4 = Exercise(
    number=4,
    title="A tiny tool search",
    task="""\
With tools loaded on demand, the model first searches for them. Write `search(query, tools, k=3)`:
the names of the `k` tools (`cd.tool` objects, with `.name` and `.description`) whose name and
description share the most words with the query, best first, leaving out tools that share none.
The check asks six questions of seven tools, among them `get_weather` beside `get_forecast`,
`search_mail` beside `search_messages`, and one question that no tool fits.""",
    stub='''\
def search(query, tools, k=3):
    """The names of the k tools whose name and description share the most words with query."""

    def words(text):
        return {w for w in text.lower().replace("_", " ").split() if len(w) > 2}

    asked = words(query)
    scored = [(____, -i, t.name) for i, t in enumerate(tools)]
    return [name for score, _, name in sorted(scored, reverse=True)[:k] if ____]


ex.q4.check()''',
    hint_text="Score a tool by len(asked & words(f\"{t.name} {t.description}\")): the description carries most "
    "of the meaning (\"forecast\", \"inbox\"). Keep a name only when its score is above 0.",
    names=("search",),
    judge=_judge_search,
    reference=lambda: (search,),
    solution_parts=(search,),
    wrong_answers=(
        WrongAnswer("matches names only", _name_only, fix="name and description"),
        WrongAnswer("matches descriptions only", _description_only, fix="name and description"),
        WrongAnswer("keeps tools that share no word", _keeps_unrelated, fix="leave out the tools whose score is 0"),
        WrongAnswer("returns every tool", _everything, fix="at most k=3"),
    ),
)

EXERCISES = (q1, q2, q3, q4)
