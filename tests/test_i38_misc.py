"""Issue 38, round 5: a fallback's members keep their own cache settings, the client tool search reads
Chinese, and a program cut short by max_rounds ends "incomplete" on both APIs that run programs."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

import conductor as cd
from conductor.course.toolbox import TOOLS as CATALOGUE
from conductor.offline import LatencyModel, OfflineModel
from conductor.search import SEARCH_TOOL, ToolIndex, search_words

QUESTION = "What should I wear in Beijing today?"
CACHE_FIELDS = {"cache_control", "prompt_cache_key"}


# -- 6. cd.fallback(...) keeps each member's cache= -----------------------------------------------


def member(api: str, *, cache: bool | str = True) -> cd.LLM:
    """An offline model of its own (its requests are its own), answering at once."""
    return cd.connect("offline", api=api, cache=cache,  # type: ignore[arg-type]
                      offline_model=OfflineModel(latency=LatencyModel.instant()))


def weather_tools(outage: cd.LLM | None = None) -> list[Any]:
    """Two chained tools; the first takes ``outage``'s model down (one overload) while it runs."""

    @cd.tool
    def get_weather(city: str) -> dict:
        """Get today's weather for a city."""
        if outage is not None:
            assert outage.offline is not None
            outage.offline.inject("overloaded", retry_after=0.001)
        return {"city": city, "temperature": 5, "weather": "sunny"}

    @cd.tool
    def suggest_clothing(temperature: float) -> dict:
        """Suggest clothing for a temperature in Celsius."""
        return {"temperature": temperature, "suggestion": "a down jacket" if temperature < 10 else "a t-shirt"}

    return [get_weather, suggest_clothing]


def bodies(llm: cd.LLM, *, answered: bool = True) -> list[dict[str, Any]]:
    """The request bodies ``llm``'s offline model received (those it answered, or every one)."""
    assert llm.offline is not None
    return [r.body for r in llm.offline.requests if r.status == 200 or not answered]


def expect_cache(body: dict[str, Any], api: str, cache: bool | str) -> None:
    """``body`` carries exactly the caching field ``cache`` asks of ``api`` (see conductor.caching)."""
    if cache is False:
        assert not CACHE_FIELDS & set(body)
    elif api == "messages":
        assert body["cache_control"] == ({"type": "ephemeral", "ttl": "1h"} if cache == "1h" else {"type": "ephemeral"})
        assert "prompt_cache_key" not in body
    else:
        assert str(body["prompt_cache_key"]).startswith("conductor-") and "cache_control" not in body


@pytest.mark.parametrize(("api", "cache"), [("messages", False), ("messages", "1h"), ("responses", False),
                                            ("chat", False)])
def test_a_fallback_sends_its_primarys_own_cache_setting(api: str, cache: bool | str) -> None:
    primary = member(api, cache=cache)
    cd.fallback(primary, member("messages")).run(QUESTION, tools=weather_tools())
    sent = bodies(primary)
    assert len(sent) >= 2
    for body in sent:
        expect_cache(body, api, cache)


@pytest.mark.parametrize(("first", "second"), [
    (("responses", True), ("messages", False)),
    (("messages", False), ("responses", True)),  # the backup needs the run's key though the primary sent none
    (("messages", False), ("messages", "1h")),  # same API, model and provider: only the cache differs
    (("messages", "1h"), ("chat", False)),
])
def test_mid_run_each_member_sends_its_own_cache_setting(first: tuple[str, Any], second: tuple[str, Any]) -> None:
    primary, backup = member(first[0], cache=first[1]), member(second[0], cache=second[1])
    result = cd.fallback(primary, backup).run(QUESTION, tools=weather_tools(outage=primary))
    assert {c.provider for c in result.trace.model_calls} == {"offline"}
    by_primary, by_backup = bodies(primary, answered=False), bodies(backup)
    assert by_backup, "the backup answered no request: the outage did not happen"
    for body in by_primary:  # back on the primary after the outage, too
        expect_cache(body, *first)
    for body in by_backup:
        expect_cache(body, *second)


def test_the_fallback_itself_reports_its_primarys_cache() -> None:
    assert cd.fallback(member("messages", cache="1h"), member("chat")).cache == "1h"


# -- 15b. the client search reads Chinese -----------------------------------------------------------


@cd.tool
def tianqi_yubao(city: str) -> dict:
    """查询城市的天气预报"""  # "look up a city's weather forecast"
    return {"city": city, "forecast": "晴"}


@cd.tool
def huilv_huansuan(amount: float, currency: str) -> dict:
    """把金额换算成另一种货币"""  # "convert an amount into another currency"
    return {"amount": amount, "currency": currency}


@cd.tool
def hangban_chaxun(origin: str, destination: str) -> dict:
    """查询两个城市之间的航班"""  # "look up the flights between two cities"
    return {"flights": []}


CHINESE = [tianqi_yubao, huilv_huansuan, hangban_chaxun]


def test_a_chinese_query_finds_a_chinese_description() -> None:
    index = ToolIndex([*CATALOGUE, *CHINESE])
    assert index.search("北京的天气预报") == ["tianqi_yubao"]  # "Beijing's weather forecast"
    assert index.search("明天去上海的航班")[0] == "hangban_chaxun"  # "flights to Shanghai tomorrow"
    assert index.search("美元换算人民币")[0] == "huilv_huansuan"  # "convert dollars into renminbi"
    assert index.search("天气") == ["tianqi_yubao"]  # a two-character word: most Chinese words have two
    assert index.search("汽车") == []  # "car": no tool shares a character pair with it


def test_a_query_mixing_english_and_chinese_finds_both() -> None:
    index = ToolIndex([*CATALOGUE, *CHINESE])
    found = index.search("天气预报 exchange rate", relevance=0)
    assert "tianqi_yubao" in found and "get_exchange_rate" in found


def _old_ranking(tools: list[Any], query: str, limit: int) -> list[str]:
    """The ranking before Chinese was read: one FTS5 table, porter + unicode61, columns weighted 3, 1, 1."""
    from conductor.search import _parameter_names

    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE tools USING fts5(name UNINDEXED, words, description, parameters, "
               "tokenize='porter unicode61')")
    db.executemany("INSERT INTO tools VALUES (?, ?, ?, ?)",
                   [(t.name, " ".join(search_words(t.name)), t.description, _parameter_names(t)) for t in tools])
    words = sorted(set(search_words(query)))
    match = " OR ".join(f'"{w}"' for w in words)
    rows = db.execute("SELECT name FROM tools WHERE tools MATCH ? ORDER BY bm25(tools, 0, 3.0, 1.0, 1.0), rowid "
                      "LIMIT ?", (match, limit)).fetchall()
    return [name for (name,) in rows]


ENGLISH_QUERIES = [
    "hot sydney right now", "flights london paris", "weather forecast for a city", "convert currency",
    "send an email to the team", "calendar events tomorrow", "translate text", "stock price", "now",
    "book a hotel room in Rome", "what time is it in Tokyo", "exchange rate dollars euros",
]


@pytest.mark.parametrize("with_chinese", [False, True])
def test_english_rankings_are_the_same_as_before(with_chinese: bool) -> None:
    tools = [*CATALOGUE, *(CHINESE if with_chinese else ())]
    index = ToolIndex(tools)
    for query in ENGLISH_QUERIES:
        assert index.search(query, limit=len(tools), relevance=0) == _old_ranking(tools, query, len(tools)), query


def test_the_client_search_tool_loads_a_chinese_tool_for_a_chinese_query() -> None:
    from conductor.search import client_search_registry

    live = client_search_registry([], [*CATALOGUE, *CHINESE])
    found = live.get(SEARCH_TOOL).func("北京的天气预报")
    assert found["loaded"] == ["tianqi_yubao"] and "tianqi_yubao" in live


# -- 15c. a program cut short by max_rounds ends "incomplete" -----------------------------------------


ran: list[str] = []


@cd.tool
def find_user(email: str) -> dict:
    """Find a user account by email address."""
    ran.append(email)
    return {"user_id": "u_42", "name": "Ada", "email": email}


@cd.tool
def get_orders(user_id: str) -> dict:
    """Get the orders of a user by user id."""
    ran.append(user_id)
    return {"user_id": user_id, "orders": [{"id": "o1", "total": 12.5}]}


@pytest.mark.parametrize("api", ["responses", "messages"])
def test_a_program_cut_short_by_max_rounds_ends_incomplete(api: str) -> None:
    ran.clear()
    llm = cd.connect("offline", api=api, offline_model=OfflineModel(latency=LatencyModel.instant()))
    question = "What are the orders of the user with email ada@example.com?"
    result = llm.run(question, tools=[find_user, get_orders], max_rounds=1, programmatic=True)
    assert ran == ["ada@example.com"]  # the program's chain has two links; one round ran the first
    assert result.forced_final
    (program,) = result.programs
    assert program.status == "incomplete"
    assert program.output is not None and "u_42" in program.output  # what it had when it was stopped


def test_a_messages_program_is_read_by_how_it_ended() -> None:
    """Messages has only a return code: a signal's (stopped from outside) is incomplete, any other failure
    an error, as the program's own doing."""
    from conductor.programs import programs_of
    from conductor.types import Turn

    def ended(content: dict[str, Any]) -> str:
        started = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "code_execution", "input": {"code": "1/0"}}
        result = {"type": "code_execution_tool_result", "tool_use_id": "srvtoolu_1", "content": content}
        (program,) = programs_of([Turn(items=(started,)), Turn(items=(result,))])
        return program.status

    def returned(code: int) -> str:
        return ended({"type": "code_execution_result", "stdout": "", "stderr": "", "return_code": code, "content": []})

    assert returned(0) == "completed"
    assert returned(1) == "error" and returned(2) == "error"  # an exception, sys.exit(2): its own failure
    assert returned(143) == "incomplete" and returned(-15) == "incomplete"  # ended by SIGTERM from outside
    assert ended({"type": "code_execution_tool_result_error", "error_code": "execution_time_exceeded"}) == "incomplete"
    assert ended({"type": "code_execution_tool_result_error", "error_code": "unavailable"}) == "error"
