"""Request features add their part to a request through one path (conductor.apis.parts), in each API module.

The loop asks an API for a request and gets one with every part in it: the deferred tools of a tool search, the
program tool, the prompt cache's mark or key, the API's compaction and a program's container.
"""

from __future__ import annotations

import pytest

import conductor as cd
from conductor.apis import ChatApi, MessagesApi, RequestSettings, ResponsesApi, chat, messages, parts, responses
from conductor.tools import ToolRegistry
from conductor.types import Turn, UserMessage


@cd.tool
def get_weather(city: str) -> dict:
    """The weather in a city.

    Args:
        city: The city's name.
    """
    return {"city": city, "temperature": 21}


@cd.tool
def get_forecast(city: str) -> dict:
    """Tomorrow's weather in a city.

    Args:
        city: The city's name.
    """
    return {"city": city, "temperature": 19}


def settings(api: str, **changes: object) -> RequestSettings:
    search = {"responses": {"type": "tool_search"}, "messages": {
        "type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}}.get(api)
    base = dict(
        model="m", tools=ToolRegistry([get_weather, get_forecast]), programmatic=api != "chat", cache=True,
        cache_key="conductor-key", context="server" if api != "chat" else None, context_limit=50_000,
        deferred=frozenset({"get_forecast"}) if search else frozenset(),
        hosted_tools=(search,) if search else (), hosted_api=api if search else None,
    )
    return RequestSettings(**{**base, **changes})  # type: ignore[arg-type]


HELD = [UserMessage("q"), Turn(text_blocks=("running a program",), container="container_011"), UserMessage("go on")]


def test_every_part_of_a_messages_request() -> None:
    request = MessagesApi().request(settings("messages"), [], tools_allowed=True, conversation=HELD)
    tools = {t["name"]: t for t in request["tools"]}
    assert tools["get_forecast"]["defer_loading"] is True and "defer_loading" not in tools["get_weather"]
    assert tools["get_weather"]["allowed_callers"][0] == "direct"
    assert request["tools"][-1]["type"].startswith("code_execution_")
    assert request["cache_control"] == {"type": "ephemeral"}
    assert request["context_management"]["edits"][0]["trigger"]["value"] == 50_000
    assert request["container"] == "container_011"
    plain = MessagesApi().request(settings("messages", programmatic=False, cache=False, context=None), [],
                                  tools_allowed=True, conversation=HELD)
    assert not {"container", "cache_control", "context_management"} & set(plain)
    assert all("allowed_callers" not in t for t in plain["tools"])


def test_every_part_of_a_responses_request() -> None:
    request = ResponsesApi().request(settings("responses"), [], tools_allowed=True, conversation=HELD)
    tools = {t.get("name", t["type"]): t for t in request["tools"]}
    assert tools["get_forecast"]["defer_loading"] is True and "defer_loading" not in tools["get_weather"]
    assert tools["get_weather"]["allowed_callers"] == ["direct", "programmatic"]
    assert request["tools"][-1] == {"type": "programmatic_tool_calling"}
    assert request["prompt_cache_key"] == "conductor-key"
    assert request["context_management"] == [{"type": "compaction", "compact_threshold": 50_000}]
    assert "container" not in request  # Responses keeps a program's state itself


def test_the_tool_choice_sees_the_tool_parts() -> None:
    # allowed_tools lists the hosted tools conductor adds, the program tool among them: the tool parts come first.
    request = ResponsesApi().request(settings("responses", allowed_tools=("get_weather",)), [], tools_allowed=True)
    assert {"type": "programmatic_tool_calling"} in request["tool_choice"]["tools"]


def test_chat_carries_the_cache_key_only() -> None:
    request = ChatApi().request(settings("chat"), [], tools_allowed=True, conversation=HELD)
    assert request["prompt_cache_key"] == "conductor-key"
    assert set(chat.PARTS) == {"cache"}


def test_each_api_names_its_parts_from_the_one_list() -> None:
    known = set(parts.TOOL_PARTS) | set(parts.REQUEST_PARTS)
    for module in (chat, messages, responses):
        assert set(module.PARTS) <= known, module.__name__
    assert set(messages.PARTS) == known


@pytest.mark.parametrize("api", ["responses", "chat", "messages"])
def test_the_loop_sends_what_the_parts_add(api: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module = {"responses": responses, "chat": chat, "messages": messages}[api]
    seen = []

    def marked(request: dict, draft: parts.Draft) -> None:
        seen.append(len(draft.conversation))
        request["metadata"] = {"part": "added"}  # a field every API takes

    monkeypatch.setitem(module.PARTS, "cache", marked)
    llm = cd.connect("offline", api=api, latency_scale=0)
    llm.run("What is the weather in Oslo?", tools=[get_weather])
    assert seen and seen[0] == 1  # the first request: the question alone
    assert all(r.body.get("metadata") == {"part": "added"} for r in llm.offline.requests)


@pytest.mark.parametrize("api", ["responses", "chat", "messages"])
def test_a_new_feature_needs_no_change_to_the_loop_or_providers(api: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A feature of its own: an llm.run option, checked, whose part tags every request of the run."""
    module = {"responses": responses, "chat": chat, "messages": messages}[api]

    def check_tag(value: object, api_: str, model: str) -> str:
        if not isinstance(value, str):
            raise ValueError(f"tag= takes text, got {value!r}")
        return f"{value}@{api_}"

    def tag_part(request: dict, draft: parts.Draft) -> None:
        tag = draft.settings.features.get("tag")
        if tag is not None:
            request["metadata"] = {"tag": tag}

    monkeypatch.setitem(parts.RUN_OPTIONS, "tag", check_tag)
    monkeypatch.setattr(parts, "REQUEST_PARTS", (*parts.REQUEST_PARTS, "tag"))
    monkeypatch.setitem(module.PARTS, "tag", tag_part)
    llm = cd.connect("offline", api=api, latency_scale=0)
    llm.run("What is the weather in Oslo?", tools=[get_weather], tag="lesson")
    assert [r.body.get("metadata") for r in llm.offline.requests] == [{"tag": f"lesson@{api}"}] * 2
    llm.run("What is the weather in Oslo?", tools=[get_weather])
    assert "metadata" not in llm.offline.requests[-1].body
    with pytest.raises(ValueError, match="tag= takes text"):
        llm.run("What is the weather in Oslo?", tools=[get_weather], tag=3)
