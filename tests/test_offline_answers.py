"""The offline model's answers read like a model's answers to a person, on every scenario of the course.

Each rule is checked on one wide set of generated answers (built once, below): the weather,
clothing, calculator and course questions in English and in Chinese, the course assistant's
questions, lesson 04's labelled calls (with the allowlist, approval and loop guards on), lesson
03's retries, timeouts and cache fallbacks, the learner-style tools of the offline suite, the
prompt-injection scenario, faults the model injects into itself, and questions that ask for
two steps. A rule that only held for one example would not hold here.

The rules: no text written for the model is repeated to the user (conductor's guard messages,
timeouts, "was not run"), no Python exception class name, no doubled punctuation, the
question's language (an English answer glosses the Chinese names it quotes), no list of loose
keywords as filler, no sentence said twice, and no comparison of a place with itself. Then, on
learners' own tools: unit codes read as written, two-step questions done or the missing step
named, and every decline saying what is missing in one sentence, with how to connect a real model
said to the learner once, as a log line, never in the answer.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from wire import APIS

import conductor as cd
from conductor import catalogue, offline_suite, relevance, scenarios
from conductor.course.flaky import get_weather_cached
from conductor.offline import LatencyModel, OfflineModel
from conductor.offline.arguments import name_words
from conductor.offline.language import GAZETTEER, STOPWORDS, find_places, language_of
from conductor.types import ToolResult

# The places the offline model knows, by any of their names: one key per place, and its English name.
_PLACE = {name.casefold(): chinese for chinese, english in GAZETTEER for name in (chinese, *english)}
_ENGLISH = {chinese: english[0] for chinese, english in GAZETTEER}


def canonical_place(name: str) -> str:
    key = name.casefold()
    return _PLACE.get(key) or _PLACE.get(key.removesuffix("市"), key)


def english_name(chinese: str) -> str | None:
    return _ENGLISH.get(chinese) or _ENGLISH.get(chinese.removesuffix("市"))


# -- the answers ------------------------------------------------------------------------------------------


@dataclass
class Answer:
    """One run's question and answer, and what the tools said (the data an answer may quote)."""

    scenario: str
    question: str
    answer: str
    tools: list[Any]
    records: list[Any] = field(default_factory=list)

    @property
    def language(self) -> str:
        return language_of(self.question)

    def __str__(self) -> str:
        return f"[{self.scenario}] {self.question!r}\n    -> {self.answer!r}"


def _llm(api: str = "responses", **options: Any) -> cd.LLM:
    return cd.connect("offline", api=api, offline_model=OfflineModel(seed=0, latency=LatencyModel.instant(), **options))


def _answer(scenario: str, question: str, result: Any, tools: list[Any]) -> Answer | None:
    """The run's answer, when the model wrote it (a run stopped by conductor ends with conductor's own text)."""
    if result.stopped_by is not None or not result.answer:
        return None
    return Answer(scenario, question, result.answer, tools, list(result.tool_calls))


WEATHER_QUESTIONS = [
    ("What's the weather in Beijing?", "北京今天天气怎么样?"),
    ("Is it warmer in Beijing or Shanghai?", "北京和上海哪个暖和?"),
    ("Which is colder, Harbin or Chengdu?", "哈尔滨和成都哪个冷?"),
    ("Weather in Beijing, Shanghai and Guangzhou? Which is warmest?", "北京、上海、广州今天天气如何?哪个最暖和?"),
    ("What should I wear in Harbin today?", "哈尔滨今天穿什么?"),
    ("What should I wear in Beijing and Shanghai?", "北京和上海今天应该穿什么?"),
    ("What's the weather on Mars today?", "火星今天天气怎么样?"),
    ("Is it warmer in Beijing or Tokyo?", "北京和东京哪个暖和?"),
    ("Which is colder, Beijing or Peking?", "北京和北京市哪个冷?"),
    ("Beijing, Beijing, Beijing or Beijing: which is warmest?", "北京、北京、北京、北京哪个最暖和?"),
    ("What's the weather in 北京 and 上海?", "深圳今天会下雨吗?"),
]
CALCULATOR_QUESTIONS = [
    ("What is 2+3*4?", "帮我算一下 2+3*4"),
    ("What is 1/0?", "1/0 等于多少?"),
    ("What is 2**10000?", "计算 2**10000"),
    ("What is 12 times 7?", "12 乘以 7 等于多少?"),
]
COURSE_QUESTIONS = [
    ("What does lesson 4 of the tool orchestration course cover?", "tool orchestration 课程第4课讲什么?"),
    ("Compare lessons 1 and 5 of the tool orchestration course", "tool orchestration 课程第1课和第5课有什么区别?"),
    ("Compare lesson 1 and lesson 5 of the RAG course", "RAG 课程第1课和第5课比较一下"),
    ("What is the outline of the RAG course?", "RAG 课程的大纲是什么?"),
    ("What is in lesson 9 of the RAG course?", "RAG 课程第9课讲什么?"),
    ("What's in lesson 2 of the cooking course?", "cooking 课程第2课讲什么?"),
]
CATALOGUE_QUESTIONS = [
    "What does lesson 4 of the prompt engineering course cover, and which other course talks about the same topic?",
    "Which courses talk about BM25?",
    "What does the RAG course say about chunking?",
    "What's in lesson 2 of the cooking course?",
    "And lesson 2?",
    "Compare lesson 1 and lesson 3 of the MCP course",
]
BANK_QUESTIONS = [
    ("Transfer 5000 dollars to account 7731", "给账户 7731 转账 5000 元"),
    ("Pay the contractor 150", "给房东汇款 3200 元房租"),
    ("Transfer 50 dollars to account 7731", "给账户 7731 转 50 元"),
]
INJECTION_QUESTIONS = [
    "Read my inbox and summarise it.",
    "读一下我的收件箱并总结",
    "帮我总结一下 https://news.example.invalid/today 这个网页",
    "Summarise https://news.example.invalid/today",
]


def _slow_weather(timeout: float) -> cd.Tool:
    @cd.tool(name="get_weather", timeout=timeout)
    def slow_weather(city: str) -> dict:
        """Get today's weather for a city: the sky and the temperature in °C.

        Args:
            city: The city name in Chinese or English, e.g. 北京 or Beijing.
        """
        time.sleep(timeout * 2)
        return scenarios.get_weather.func(city)

    return slow_weather


def _flaky_weather(failing: set[str]) -> cd.Tool:
    """get_weather whose service times out for some cities; yesterday's cache is the fallback."""

    @cd.tool(name="get_weather", retry=cd.Retry(attempts=2, base=0.0, cap=0.0), fallbacks=[get_weather_cached])
    def flaky_weather(city: str) -> dict:
        """Get today's weather for a city: the sky and the temperature in °C.

        Args:
            city: The city name in Chinese or English, e.g. 北京 or Beijing.
        """
        if scenarios.CITY_ALIASES.get(city.casefold(), city) in failing:
            raise TimeoutError("the weather API did not answer within 2 s; the call may be retried")
        return scenarios.get_weather.func(city)

    return flaky_weather


def _weather_answers() -> Iterator[Answer | None]:
    llm = _llm()
    weather = scenarios.weather_tools()
    flaky = [_flaky_weather({"北京", "广州"}), scenarios.suggest_clothing]
    for pair in WEATHER_QUESTIONS:
        for question in pair:
            yield _answer("weather", question, llm.run(question, tools=weather), weather)
            yield _answer("fallback", question, llm.run(question, tools=flaky), flaky)
            yield _answer("allowlist", question, llm.run(question, tools=weather, allowed_tools=["suggest_clothing"]),
                          weather)
            approval = [cd.tool(scenarios.get_weather.func, requires_approval=True), scenarios.suggest_clothing]
            yield _answer("denied", question, llm.run(question, tools=approval, approve=lambda call: False), approval)
            paused = llm.run(question, tools=approval)
            for call in paused.pending:
                paused.reject(call.id, reason="not today")
            yield _answer("rejected", question, llm.resume(paused) if paused.pending else paused, approval)
    slow = [_slow_weather(0.1), scenarios.suggest_clothing]
    for question in ("What's the weather in Beijing?", "北京今天天气怎么样?", "What should I wear in Shanghai?"):
        yield _answer("timeout", question, llm.run(question, tools=slow), slow)
    for api in APIS:
        for question in ("What's the weather in Shanghai?", "上海天气怎么样?"):
            faulty = _llm(api)
            faulty.offline.inject("malformed_arguments", times=2)
            budgeted = [cd.tool(scenarios.get_weather.func, max_invalid=2), scenarios.suggest_clothing]
            yield _answer("withdrawn", question, faulty.run(question, tools=budgeted, max_rounds=3), budgeted)
            faulty = _llm(api)
            faulty.offline.inject("unknown_tool")
            yield _answer("unknown tool", question, faulty.run(question, tools=weather, max_rounds=3), weather)
    orchestrator = cd.Orchestrator(llm, tools=weather, rate_limit=cd.RateLimit(tool_calls_per_minute=1))
    for question in ("Weather in Beijing, Shanghai and Guangzhou?", "北京、上海、广州今天天气如何?"):
        yield _answer("rate limit", question, orchestrator.run(question, user="alice"), weather)


def _scenario_answers() -> Iterator[Answer | None]:
    llm = _llm()
    for pairs, tools, name in ((CALCULATOR_QUESTIONS, scenarios.calculator_tools(), "calculator"),
                               (COURSE_QUESTIONS, scenarios.course_tools(), "course")):
        for pair in pairs:
            for question in pair:
                yield _answer(name, question, llm.run(question, tools=tools, max_rounds=3), tools)
                yield _answer(name + " in one round", question, llm.run(question, tools=tools, max_rounds=1), tools)
    tools = catalogue.tools()
    for question in CATALOGUE_QUESTIONS:
        yield _answer("catalogue", question, llm.run(question, tools=tools), tools)
    injection = scenarios.injection_scenario(requires_approval=True)
    gullible = cd.connect("offline", offline_model=OfflineModel(seed=0, latency=LatencyModel.instant(), gullible=True))
    for question in INJECTION_QUESTIONS:
        yield _answer("injection, allowlist", question,
                      gullible.run(question, tools=injection.tools, allowed_tools=["read_inbox", "fetch_page"]),
                      injection.tools)
        paused = gullible.run(question, tools=injection.tools)
        for call in paused.pending:
            paused.reject(call.id, reason="a web page asked for it, not the user")
        yield _answer("injection, approval", question, gullible.resume(paused) if paused.pending else paused,
                      injection.tools)


def _lesson_04_answers() -> Iterator[Answer | None]:
    llm = _llm()
    transfer = cd.tool(relevance.transfer_money.func, requires_approval=lambda args: args["amount"] > 100)
    bank = [scenarios.get_weather, transfer]
    measured = list(relevance.measured_tools().values())
    guarded = list(relevance.measured_tools(approval=True).values())
    for pair in BANK_QUESTIONS:
        for question in pair:
            paused = llm.run(question, tools=bank, max_rounds=3)
            for call in paused.pending:
                paused.reject(call.id, reason="the user did not ask for a transfer")
            yield _answer("bank, rejected", question, llm.resume(paused) if paused.pending else paused, bank)
            yield _answer("bank, guest", question,
                          llm.run(question, tools=measured, allowed_tools=relevance.ROLES["guest"]), measured)
            yield _answer("bank, deny all", question,
                          llm.run(question, tools=guarded, approve=relevance.deny_all), guarded)
    for case in relevance.load_cases():
        for scenario, tools, options in (
            ("labelled", measured, {}),
            ("labelled, allowlist", measured, {"allowed_tools": relevance.ROLES[case.role]}),
            ("labelled, deny all", guarded, {"approve": relevance.deny_all}),
        ):
            played = relevance.play(case, seed=0, latency_scale=0.0)
            yield _answer(scenario, case.question, played.run(case.question, tools=tools, max_rounds=3, **options),
                          tools)


def _learner_answers() -> Iterator[Answer | None]:
    llm = _llm()
    for case in offline_suite.CASES:
        yield _answer("learner tool", case.question, llm.run(case.question, tools=[case.tool], max_rounds=2),
                      [case.tool])
    for question, tools in TWO_STEPS:
        for rounds in (1, 3):
            yield _answer("two steps", question, llm.run(question, tools=tools(), max_rounds=rounds), tools())


@functools.cache
def answers() -> tuple[Answer, ...]:
    logging.disable(logging.CRITICAL)  # the guards log every refusal; the answers are what is checked
    try:
        produced = [*_weather_answers(), *_scenario_answers(), *_lesson_04_answers(), *_learner_answers()]
    finally:
        logging.disable(logging.NOTSET)
    return tuple(a for a in produced if a is not None)


def _failures(check) -> list[str]:
    found = [f"{answer}\n    {problem}" for answer in answers() for problem in [check(answer)] if problem]
    return found


def _report(found: list[str]) -> str:
    return f"{len(found)} answers break the rule, e.g.:\n" + "\n".join(found[:8])


def test_the_answers_cover_both_languages_and_every_scenario():
    produced = answers()
    assert len(produced) > 500
    assert {a.language for a in produced} == {"en", "zh"}
    assert sum(a.language == "zh" for a in produced) > 150
    scenarios_ = {a.scenario for a in produced}
    assert {"fallback", "allowlist", "denied", "rejected", "timeout", "withdrawn", "rate limit", "injection, approval",
            "labelled, deny all", "learner tool", "two steps", "course", "catalogue"} <= scenarios_


# -- what conductor wrote for the model ----------------------------------------------------------------

# conductor's own messages in tool results (guards, timeouts, deadlines, rate limits, unreadable output).
_CONDUCTOR_WROTE = re.compile(
    r"^(?:[A-Z]\w*: )?(?:tool '\S+' is not allowed|tool '\S+' was withdrawn|invalid arguments for |arguments for \S+ (?:are not|must)"
    r"|unknown tool |you already called |the user did not approve |\S+ was not run: |\S+ was given up |rate limit: "
    r"|(?:ToolTimeout: )?\S+ timed out after |(?:ToolTimeout: )?\S+ was not tried: |tool \S+ ran \(its side effects"
    r"|\[A person reviewing)"
)


def _conductor_wrote(record: Any) -> bool:
    return record.blocked is not None or bool(_CONDUCTOR_WROTE.match(record.output))


# Words that only make sense addressed to the model: instructions about calling tools and talking to "the user".
_TO_THE_MODEL = re.compile(
    r"\b(?:do not|don't) (?:try|call|repeat)\b|\btell the user\b|\bsay that you\b|\banswer with what you have\b"
    r"|\buse the results you have\b|\bfix the arguments\b|\bcall (?:it )?again\b|\byou already called\b"
    r"|\barguments you sent\b|\bmay be retried\b|\banswer the user\b",
    re.IGNORECASE,
)


def _words(text: str) -> list[str]:
    return re.findall(r"[\w'./-]+", text)


def _copied_from_conductor(answer: Answer) -> str:
    """The first run of six words of a conductor message to the model that the answer repeats, else ""."""
    for record in answer.records:
        if not _conductor_wrote(record):
            continue
        said = re.sub(r"\([^()]*\)", " ", record.output)  # a person's reason, in parentheses, may be quoted
        words = _words(said)
        spoken = " ".join(_words(answer.answer)).casefold()
        for start in range(len(words) - 5):
            window = " ".join(words[start: start + 6]).casefold()
            if window in spoken:
                return f"repeats conductor's message to the model: {window!r}"
    return ""


def test_no_answer_repeats_text_written_for_the_model():
    def check(answer: Answer) -> str:
        instruction = _TO_THE_MODEL.search(answer.answer)
        if instruction:
            return f"an instruction to the model: {instruction.group(0)!r}"
        return _copied_from_conductor(answer)

    found = _failures(check)
    assert not found, _report(found)


def _exception_names() -> set[str]:
    names, stack = set(), [BaseException]
    while stack:
        kind = stack.pop()
        names.add(kind.__name__)
        stack.extend(kind.__subclasses__())
    return {n for n in names if re.fullmatch(r"[A-Z]\w*(?:Error|Exception|Timeout|Exceeded|Limited|GivenUp|Interrupt)", n)}


def test_no_answer_quotes_a_python_exception_class():
    names = _exception_names()
    assert {"ValueError", "TimeoutError", "LookupError", "ToolTimeout", "CourseNotFoundError"} <= names

    def check(answer: Answer) -> str:
        quoted = [n for n in re.findall(r"\b[A-Z]\w+\b", answer.answer) if n in names]
        return f"names {quoted}" if quoted else ""

    found = _failures(check)
    assert not found, _report(found)


_DOUBLED = re.compile(r"(?<!\.)\.\.(?!\.)|\.。|。\.|,,|，，|。。|、、")


def test_no_answer_has_doubled_punctuation():
    found = _failures(lambda a: f"at {m.group(0)!r}" if (m := _DOUBLED.search(a.answer)) else "")
    assert not found, _report(found)


# -- the question's language ------------------------------------------------------------------------------------


def _strings(value: Any) -> Iterator[str]:
    """Every text inside a JSON-like value, keys too."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield " ".join(name_words(str(key)))  # a key said as words ("local_time" -> "local time")
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)
    elif value is not None:
        yield str(value)


def _data(answer: Answer) -> list[str]:
    """What the answer may quote as it is: the question, the tools' names and schemas, the calls' arguments,
    what the tools returned; of conductor's messages to the model only the names and values they quote."""
    texts = [answer.question]
    for tool in answer.tools:
        texts += [tool.name, tool.description, json.dumps(tool.parameters, ensure_ascii=False)]
    for record in answer.records:
        texts += [record.name, *_strings(record.arguments)]
        if _conductor_wrote(record):  # only the names and values it quotes, a person's reason, the user's name
            texts += [part for pair in re.findall(r"'([^']*)'|\(([^()]*)\)", record.output) for part in pair if part]
            texts += re.findall(r"rate limit: (.+?) may make", record.output)
        else:
            try:
                texts += list(_strings(json.loads(record.output)))
            except ValueError:
                texts.append(record.output)
    return texts


# Words a Chinese answer may hold whatever the data: how to connect a real model.
_CONNECT = {"cd", "connect", "openai", "anthropic", "openai_api_key", "anthropic_api_key", "json"}
_QUOTED = re.compile(r"“[^”]*”|《[^》]*》|\"[^\"]*\"|'[^']*'|https?://\S+")


def test_a_chinese_question_gets_a_chinese_answer():
    def check(answer: Answer) -> str:
        if answer.language != "zh":
            return ""
        data = {w.casefold() for text in _data(answer) for w in re.findall(r"[A-Za-z_]+", text)}
        own = _QUOTED.sub(" ", answer.answer)
        english = [w for w in re.findall(r"[A-Za-z_]{2,}", own) if w.casefold() not in data | _CONNECT]
        return f"English of its own: {english}" if english else ""

    found = _failures(check)
    assert not found, _report(found)


_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def test_an_english_question_gets_an_english_answer_with_chinese_names_glossed():
    def check(answer: Answer) -> str:
        if answer.language != "en":
            return ""
        data = "\n".join(_data(answer))
        for match in _CJK_RUN.finditer(answer.answer):
            run = match.group(0)
            if run not in data:
                return f"Chinese of its own: {run!r}"
            before, after = answer.answer[: match.start()].rstrip()[-1:], answer.answer[match.end():]
            gloss = english_name(run)
            inside_quotes = before in "\"'“=" and before != ""
            if gloss and not inside_quotes and not re.match(rf"\s*\(\s*{re.escape(gloss)}\s*\)", after, re.I):
                return f"{run} without its gloss ({gloss})"
        return ""

    found = _failures(check)
    assert not found, _report(found)


def test_the_answer_language_follows_the_question_not_its_characters():
    assert language_of("What's the weather in 北京 and 上海?") == "en"
    assert language_of("How do you say 你好 in English?") == "en"
    assert language_of("北京今天天气怎么样?") == "zh"
    assert language_of("tool orchestration 课程第1课和第5课有什么区别?") == "zh"
    assert language_of("帮我总结一下 https://news.example.invalid/today 这个网页") == "zh"
    answer = _llm().run("What's the weather in 北京?", tools=scenarios.weather_tools()).answer
    assert answer == "北京 (Beijing) today: sunny, 5°C."


# -- filler, repeats, places -----------------------------------------------------------------------------------

# Three or more loose single words in a list: "tool, call, back", "tool、call、back".
_WORD_LIST = re.compile(r"(?<![\w-])([A-Za-z]+|[\u4e00-\u9fff]+)((?:(?:, |、| and |, and )(?:[A-Za-z]+|[\u4e00-\u9fff]+)){2,})(?![\w-])")


def test_no_answer_lists_loose_keywords_as_filler():
    def check(answer: Answer) -> str:
        data = _data(answer)
        whole = {text.strip() for text in data}
        joined = "\n".join(data)
        for match in _WORD_LIST.finditer(answer.answer):
            if match.group(0) in joined:
                continue  # a list the tools returned, quoted
            items = [match.group(1), *re.split(r", and |, | and |、", match.group(2))[1:]]
            if any(i.casefold() in STOPWORDS for i in items):
                continue  # a sentence, not a list ("outlines and lessons, and call ...")
            loose = [i for i in items if i and i not in whole and i[0].islower() and not find_places(i)]
            if len(loose) >= 3:
                return f"a list of loose words: {match.group(0)!r}"
        return ""

    found = _failures(check)
    assert not found, _report(found)


_QUOTE_SPANS = re.compile(r'"[^"]*"|“[^”]*”')


def _sentences(text: str) -> list[str]:
    """The sentences of an answer (a stop inside a quoted value does not end one)."""
    quotes: list[str] = []

    def hide(match: re.Match[str]) -> str:
        quotes.append(match.group(0))
        return f"\x00{len(quotes) - 1}\x00"

    hidden = _QUOTE_SPANS.sub(hide, text)
    split = [s.strip() for s in re.split(r"(?<=[.!?。!?])\s+|(?<=[。!?])|\n", hidden)]
    return [re.sub(r"\x00(\d+)\x00", lambda m: quotes[int(m.group(1))], s) for s in split if len(s) >= 8]


def test_no_answer_says_the_same_sentence_twice():
    def check(answer: Answer) -> str:
        seen = set()
        for sentence in _sentences(answer.answer):
            key = " ".join(sentence.split()).casefold()
            if key in seen:
                return f"said twice: {sentence!r}"
            seen.add(key)
        return ""

    found = _failures(check)
    assert not found, _report(found)


_COMPARING = re.compile(r"same|warmer|colder|warmest|coldest|highest|lowest|\bvs\b|相同|比|最|对")


def test_comparisons_are_between_distinct_places():
    def check(answer: Answer) -> str:
        for sentence in _sentences(answer.answer):
            if not _COMPARING.search(sentence):
                continue
            # "北京 (Beijing)" is one mention: a gloss is not a second place.
            plain = re.sub(r"(?<=[\u4e00-\u9fff]) \([A-Z][\w' ]*\)", "", sentence)
            mentions = [m.group(0) for m in re.finditer(r"[A-Z][a-z]+(?: [A-Z][a-z]+)?|[\u4e00-\u9fff]{2,3}", plain)]
            places = [canonical_place(p) for p in mentions if find_places(p) == [p]]
            if len(places) != len(set(places)):
                return f"compares a place with itself: {sentence!r}"
        return ""

    found = _failures(check)
    assert not found, _report(found)


@pytest.mark.parametrize("question", ["北京、北京、北京、北京哪个最暖和?",
                                      "Beijing, Beijing, Peking or 北京: which is warmest?"])
def test_one_place_named_four_times_is_one_reading(question):
    answer = _llm().run(question, tools=scenarios.weather_tools()).answer
    assert answer.count("5°C") == 1, answer
    assert "相同" not in answer and "same" not in answer


@pytest.mark.parametrize("question", ["Look it up four times", "北京天气查四次"])
def test_four_identical_calls_are_answered_once(question):
    """A model that asks for the same city four times in one turn (identical calls are not a loop)."""
    def four_lookups(conversation):
        if conversation.question == question and not conversation.exchanges():
            return cd.offline.CallTools(tuple(cd.offline.PlannedCall("get_weather", {"city": "北京"}) for _ in range(4)))
        return None

    with cd.offline.using_policy(four_lookups):
        result = _llm().run(question, tools=scenarios.weather_tools())
    assert [c.name for c in result.tool_calls].count("get_weather") == 4
    assert result.answer.count("5°C") == 1, result.answer
    assert "北京、北京" not in result.answer and "相同" not in result.answer and "same temperature" not in result.answer


# -- errors said plainly ------------------------------------------------------------------------------------


def test_an_unknown_city_is_said_plainly_in_the_questions_language():
    llm = _llm()
    english = llm.run("What's the weather on Mars today?", tools=scenarios.weather_tools()).answer
    assert english.startswith("I could not get the weather for Mars: the weather service does not know that city")
    assert "Beijing" in english and "ValueError" not in english and "known cities" not in english
    chinese = llm.run("火星今天天气怎么样?", tools=scenarios.weather_tools()).answer
    assert chinese.startswith("没有查到火星的天气:天气服务里没有这个城市") and "unknown city" not in chinese


def test_a_timeout_and_a_cache_miss_are_said_in_chinese_for_a_chinese_question():
    """A tool's own English words for a timeout, and a fallback's cache miss, restated, not quoted; no function name."""
    flaky = [_flaky_weather({"北京", "广州"}), scenarios.suggest_clothing]
    chinese = _llm().run("北京、上海、广州今天天气如何?哪个最暖和?", tools=flaky).answer
    assert ("没有查到广州的天气:天气服务在 2 秒内没有返回结果(试了 2 次);"
            "备用来源也失败了:缓存里没有广州的数据(缓存里只有北京、上海)。") in chinese, chinese
    assert "did not answer" not in chinese and "get_weather_cached" not in chinese and "no cached" not in chinese
    english = _llm().run("Weather in Beijing, Shanghai and Guangzhou? Which is warmest?", tools=flaky).answer
    assert "I could not get the weather for Guangzhou: the weather API did not answer within 2 s (tried 2 times)" in english


def test_a_refused_call_is_said_for_the_user():
    llm = _llm()
    question = "Delete the test database"
    case = next(c for c in relevance.load_cases() if c.question == question)
    measured = list(relevance.measured_tools().values())
    refused = relevance.play(case, latency_scale=0.0).run(question, tools=measured, allowed_tools=["get_weather"])
    assert refused.tool_calls[0].blocked == "allowlist"
    # Said for a person: the tool's name as words, never its identifier.
    assert refused.answer == ('Delete database (name test) was not run: I am not permitted to use delete database '
                              "in this conversation.")
    rent = next(c for c in relevance.load_cases() if c.question == "给房东汇款 3200 元房租")
    guarded = list(relevance.measured_tools(approval=True).values())
    denied = relevance.play(rent, latency_scale=0.0).run(rent.question, tools=guarded, approve=relevance.deny_all)
    assert denied.tool_calls[0].blocked == "denied"
    assert denied.answer == "这次调用(目标账户 landlord,金额 3200)没有执行:审批规则没有批准。"
    english = llm.run("Transfer 5000 dollars to account 7731", tools=guarded, approve=relevance.deny_all)
    assert english.answer == ("Transfer money (to account 7731, amount 5000) was not run: the approval policy did "
                              "not approve it.")


# -- learners' own tools ------------------------------------------------------------------------------------

Unit = Literal["km", "mi", "m", "ft"]


@cd.tool
def convert(value: float, from_unit: Unit, to_unit: Unit) -> float:
    """Convert a length from one unit to another."""
    metres = {"km": 1000.0, "mi": 1609.344, "m": 1.0, "ft": 0.3048}
    return round(value * metres[from_unit] / metres[to_unit], 3)


@pytest.mark.parametrize(
    ("question", "arguments"),
    [
        ("How many miles is 42.195 km?", {"value": 42.195, "from_unit": "km", "to_unit": "mi"}),
        ("Convert 42.195 kilometers to miles.", {"value": 42.195, "from_unit": "km", "to_unit": "mi"}),
        ("Convert 10 km to mi", {"value": 10, "from_unit": "km", "to_unit": "mi"}),
        ("How many feet is 3 m?", {"value": 3, "from_unit": "m", "to_unit": "ft"}),
        ("How many metres in 5 miles?", {"value": 5, "from_unit": "mi", "to_unit": "m"}),
    ],
)
def test_unit_codes_are_read_as_written(question, arguments):
    result = _llm().run(question, tools=[convert], max_rounds=1)
    assert [c.arguments for c in result.tool_calls] == [arguments]


def test_a_unit_at_the_end_of_a_sentence_loses_its_full_stop():
    result = _llm().run("Convert 42.195 kilometers to miles.", tools=[offline_suite.convert_units], max_rounds=1)
    assert [c.arguments for c in result.tool_calls] == [{"value": 42.195, "from_unit": "kilometers", "to_unit": "miles"}]
    assert not result.tool_calls[0].is_error


def _shopping() -> list[cd.Tool]:
    items: list[str] = []

    @cd.tool
    def add_to_list(item: str) -> str:
        """Add an item to the shopping list."""
        items.append(item)
        return f"added {item}"

    @cd.tool
    def show_list() -> list:
        """Show the shopping list."""
        return list(items)

    return [add_to_list, show_list]


def _rates() -> list[cd.Tool]:
    @cd.tool
    def get_rate(currency: str) -> float:
        """Get the exchange rate of a currency against the US dollar."""
        return {"EUR": 1.08, "GBP": 1.27}.get(currency.upper(), 1.0)

    @cd.tool
    def multiply(a: float, b: float) -> float:
        """Multiply two numbers."""
        return round(a * b, 4)

    return [get_rate, multiply]


TWO_STEPS = [
    ("add milk to my list, then show me the list", _shopping),
    ("Add eggs to my list and then show me the list", _shopping),
    ("get the EUR rate, then multiply 250 by it", _rates),
    ("查一下 EUR 的汇率,然后用 250 乘以它", _rates),
    ("把牛奶加到购物清单,然后给我看清单", _shopping),
    ("add milk to my list, then book a taxi", _shopping),
]


@pytest.mark.parametrize(
    ("question", "tools", "calls"),
    [
        ("add milk to my list, then show me the list", _shopping,
         [("add_to_list", {"item": "milk"}), ("show_list", {})]),
        ("get the EUR rate, then multiply 250 by it", _rates,
         [("get_rate", {"currency": "EUR"}), ("multiply", {"a": 250, "b": 1.08})]),
        ("查一下 EUR 的汇率,然后用 250 乘以它", _rates,
         [("get_rate", {"currency": "EUR"}), ("multiply", {"a": 250, "b": 1.08})]),
    ],
)
def test_a_two_step_question_does_both_steps_in_two_rounds(question, tools, calls):
    result = _llm().run(question, tools=tools(), max_rounds=3)
    assert [[(c.name, c.arguments) for c in r.tool_calls] for r in result.rounds] == [[call] for call in calls]
    assert result.tool_calls[-1].output in result.answer or "270" in result.answer


@pytest.mark.parametrize(
    ("question", "tools", "said"),
    [
        ("add milk to my list, then show me the list", _shopping,
         'I did not do the step "show me the list" (show_list): no more tool calls were allowed'),
        ("get the EUR rate, then multiply 250 by it", _rates, 'I did not do the step "multiply 250 by it"'),
        ("查一下 EUR 的汇率,然后用 250 乘以它", _rates, "“用 250 乘以它”这一步(multiply:a 250,b 1.08)我没有做"),
    ],
)
def test_a_step_left_undone_is_named(question, tools, said):
    result = _llm().run(question, tools=tools(), max_rounds=1)
    assert len(result.tool_calls) == 1 and said in result.answer


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("add milk to my list, then book a taxi", 'I did not do "book a taxi": none of the tools I have does it.'),
        ("把牛奶加到购物清单,然后给我看清单", "“把牛奶加到购物清单”这一步我没有做:我还需要知道物品。"),
    ],
)
def test_a_step_no_tool_can_do_is_named(question, said):
    answer = _llm().run(question, tools=_shopping(), max_rounds=3).answer
    assert said in answer and "cd.connect" not in answer


_DECLINES = [
    *[(case.question, [case.tool]) for case in offline_suite.CASES if case.declines],
    ("What's the weather in Paris?", [offline_suite.multiply]),
    ("巴黎今天天气怎么样?", [offline_suite.multiply]),
    ("帮我订一张去上海的机票", [offline_suite.add]),
    ("设置一个计时器", [offline_suite.set_timer]),
    ("给房东汇款 3200 元房租", [relevance.transfer_money]),
    ("Multiply 3 by", [offline_suite.multiply]),
    ("What's in lesson 2?", catalogue.tools()),
]


_SENTENCE_END = re.compile(r"[.?!。?!](?=\s|$)")


@pytest.mark.parametrize(("question", "tools"), _DECLINES, ids=[q for q, _ in _DECLINES])
def test_every_decline_says_what_is_missing_in_one_sentence_in_the_questions_language(question, tools):
    result = _llm().run(question, tools=tools)
    assert not result.tool_calls
    answer = result.answer
    assert "cd.connect" not in answer and "API_KEY" not in answer, answer
    if "lesson" not in question:  # the course assistant asks back which course: a question and its reason
        assert len(_SENTENCE_END.findall(answer)) == 1, answer
    if language_of(question) == "zh":
        assert not re.search(r"\([A-Z][a-z]+ [a-z]+", answer), answer  # no English description quoted


def test_the_learner_is_told_once_per_process_how_to_connect_a_real_model(caplog, monkeypatch):
    from conductor.offline import wording

    monkeypatch.setattr(wording, "_hinted", False)
    llm = _llm()
    with caplog.at_level(logging.WARNING, logger="conductor"):
        for question, tools in _DECLINES[-6:]:
            llm.run(question, tools=tools)
    hints = [r for r in caplog.records if 'cd.connect("openai")' in r.getMessage()]
    assert len(hints) == 1 and hints[0].levelno == logging.WARNING and hints[0].name.startswith("conductor")
    assert "OPENAI_API_KEY" in hints[0].getMessage() and "ANTHROPIC_API_KEY" in hints[0].getMessage()
    assert 'cd.connect("anthropic")' in hints[0].getMessage()


def test_a_result_the_tool_returned_about_itself_is_kept_apart_from_notes_to_the_model():
    """A note conductor puts at the head of an edited call's result is said for the user, not copied."""
    from conductor.offline.evidence import data_of, reviewer_note

    result = ToolResult("c1", "transfer", '[A person reviewing this call changed its arguments before approving it: '
                        'amount from 5000 to 500. It ran with {"amount": 500}, not with the arguments you sent.]\n'
                        '{"sent": 500}')
    assert data_of(result) == {"sent": 500}
    assert reviewer_note(result, "en") == "(a reviewer changed its arguments before it ran: amount from 5000 to 500)"


def test_an_mcp_servers_changed_tools_are_said_without_the_note_for_the_programs_author():
    from conductor.offline.evidence import plain_error

    text = ("MCPToolsChangedError: the MCP server MCPServer 'weather-plus''s tools changed since they were read and "
            "approved (the description of get_weather changed), so the call to get_weather was not made. The "
            "program must read the tools again with .tools() (and have them approved again) before they can be used.")
    said = plain_error(text, "en")
    assert not said.ran and said.reason == (
        "the tools of the MCP server MCPServer 'weather-plus' changed after they were approved (the description of "
        "get_weather changed), so it was not called")
    assert ".tools()" not in plain_error(text, "zh").reason


def test_a_weather_text_that_names_its_city_is_not_labelled_twice():
    @cd.tool(name="get_weather")
    def text_weather(city: str) -> str:
        """Get the current weather in a city: conditions and temperature in °C."""
        return f"{city}: sunny, 5°C"

    assert _llm().run("What's the weather in Beijing?", tools=[text_weather]).answer == "Beijing: sunny, 5°C."


@pytest.mark.parametrize("api", APIS)
def test_a_list_of_records_is_one_line_a_record(api):
    """A forecast's days: each day one line of fields said as words, not one field a line under a bare dash."""

    @cd.tool
    def get_forecast(city: str, days: int) -> dict:
        """Daily forecast for a city.

        Args:
            city: the city
            days: how many days
        """
        return {"city": city, "days": [{"date": f"2026-12-0{d}", "high_c": 17 - d, "conditions": "sunny"}
                                       for d in range(2, 2 + days)]}

    llm = cd.connect("offline", api=api, latency_scale=0)
    answer = llm.run("What's the forecast for Lisbon for the next 2 days?", tools=[get_forecast]).answer
    assert "\n- date 2026-12-02, high 15°C, conditions sunny\n- date 2026-12-03, high 14°C, conditions sunny" in answer
    assert "- \n" not in answer + "\n"
