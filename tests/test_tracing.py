"""OpenTelemetry spans in the GenAI semantic conventions (conductor.tracing)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from typing import Any

import pytest
from mcp.server.mcpserver import MCPServer
from opentelemetry import trace
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as gen_ai
from opentelemetry.trace import SpanKind, StatusCode

import conductor as cd
from conductor import tracing
from conductor.course.scenarios import get_weather, suggest_clothing
from wire import APIS

CHAIN = "上海今天天气怎么样?应该穿什么衣服?"


@pytest.fixture
def exporter():
    found = InMemorySpanExporter()
    tracing.enable(found)
    tracing.clear()
    yield found
    tracing.disable()
    tracing.clear()


def by_name(spans, prefix):
    """conductor's spans whose name starts with ``prefix`` (the SDKs add spans of their own: see ``sdk_spans``)."""
    return [s for s in spans if s.name.startswith(prefix) and s.instrumentation_scope.name == "conductor"]


def ours(spans):
    return [s for s in spans if s.instrumentation_scope.name == "conductor"]


def test_nothing_is_emitted_until_tracing_is_enabled():
    assert not tracing.enabled
    found = InMemorySpanExporter()
    tracing.enable(found)
    tracing.disable()
    llm = cd.connect("offline", latency_scale=0)
    llm.run(CHAIN, tools=[get_weather, suggest_clothing])
    assert found.get_finished_spans() == ()


@pytest.mark.parametrize("api", APIS)
def test_a_run_is_one_invoke_agent_span_over_its_chat_and_execute_tool_spans(exporter, api):
    llm = cd.connect("offline", api=api, latency_scale=0)
    result = llm.run(CHAIN, tools=[get_weather, suggest_clothing], max_rounds=2)
    spans = ours(exporter.get_finished_spans())
    [agent] = by_name(spans, "invoke_agent")
    chats, tools = by_name(spans, "chat "), by_name(spans, "execute_tool ")
    assert agent.name == "invoke_agent conductor" and len(spans) == 1 + len(chats) + len(tools)
    assert len(chats) == result.api_calls == 3
    assert [s.attributes["gen_ai.tool.name"] for s in tools] == ["get_weather", "suggest_clothing"]
    assert [s.attributes["gen_ai.tool.call.id"] for s in tools] == [c.id for c in result.tool_calls]
    for span in chats + tools:
        assert span.parent.span_id == agent.context.span_id
    conversation = agent.attributes["gen_ai.conversation.id"]
    for span in chats:
        assert span.kind is SpanKind.CLIENT and span.name == f"chat {llm.model}"
        assert span.attributes["gen_ai.operation.name"] == "chat"
        assert span.attributes["gen_ai.provider.name"] == "offline"
        assert span.attributes["gen_ai.request.model"] == llm.model
        assert span.attributes["gen_ai.response.model"]
        assert span.attributes["gen_ai.conversation.id"] == conversation
        assert len(span.attributes["gen_ai.response.finish_reasons"]) == 1
    # The usage in the spans adds up to the run's.
    for key, field in (("input_tokens", "input_tokens"), ("output_tokens", "output_tokens"),
                       ("cache_read.input_tokens", "cache_read_tokens")):
        total = sum(s.attributes[f"gen_ai.usage.{key}"] for s in chats)
        assert total == getattr(result.usage, field) == agent.attributes[f"gen_ai.usage.{key}"]
    assert sum(s.attributes["conductor.cost.usd"] for s in chats) == pytest.approx(result.cost)
    # The spans alone rebuild the run's trace (what the lesson draws its Gantt chart from).
    rebuilt = tracing.trace_of(agent, spans)
    assert [c.usage for c in rebuilt.model_calls] == [c.usage for c in result.trace.model_calls]
    assert [[c.name for c in r.tool_calls] for r in rebuilt.rounds] == [[c.name for c in r.tool_calls]
                                                                          for r in result.rounds]


def test_arguments_and_results_are_in_the_spans_only_with_capture_content(exporter):
    llm = cd.connect("offline", latency_scale=0)
    llm.run("北京今天天气怎么样?", tools=[get_weather])
    [span] = by_name(exporter.get_finished_spans(), "execute_tool")
    assert "gen_ai.tool.call.arguments" not in span.attributes and "gen_ai.tool.call.result" not in span.attributes
    tracing.enable(exporter, capture_content=True)
    exporter.clear()
    llm.run("北京今天天气怎么样?", tools=[get_weather])
    [span] = by_name(exporter.get_finished_spans(), "execute_tool")
    assert "北京" in span.attributes["gen_ai.tool.call.arguments"]
    assert "5" in span.attributes["gen_ai.tool.call.result"]


def test_a_failed_call_has_error_type_and_an_error_status_without_its_message(exporter):
    llm = cd.connect("offline", latency_scale=0)
    result = llm.run("What's the weather on Mars (火星)?", tools=[get_weather])
    assert result.tool_calls[0].is_error
    [span] = by_name(exporter.get_finished_spans(), "execute_tool")
    assert span.attributes["error.type"] == "ValueError"
    assert span.status.status_code is StatusCode.ERROR and "Mars" not in (span.status.description or "")


def test_orchestrated_async_runs_each_parent_their_own_spans(exporter):
    llm = cd.connect("offline", latency_scale=0)
    orch = cd.Orchestrator(llm, tools=[get_weather, suggest_clothing])
    questions = ["北京今天天气怎么样?", CHAIN, "哈尔滨今天天气怎么样?要穿什么?"]
    results = asyncio.run(orch.run_many(questions, progress=False, concurrency=3))
    spans = exporter.get_finished_spans()
    [many] = by_name(spans, "run_many")
    agents = by_name(spans, "invoke_agent")
    assert len(agents) == 3 and all(a.parent.span_id == many.context.span_id for a in agents)
    for agent in agents:
        mine = [s for s in spans if s.parent is not None and s.parent.span_id == agent.context.span_id]
        ids = {s.attributes.get("gen_ai.tool.call.id") for s in mine} - {None}
        assert ids in [{c.id for c in r.tool_calls} for r in results]
        assert len(by_name(mine, "chat")) in [r.api_calls for r in results]
    assert len(by_name(spans, "execute_tool")) == sum(len(r.tool_calls) for r in results)


def test_a_batched_run_has_its_conversations_and_rounds_under_one_span(exporter, tmp_path):
    llm = cd.connect("offline", latency_scale=0)
    orch = cd.Orchestrator(llm, tools=[get_weather, suggest_clothing])
    results = asyncio.run(orch.run_many(["北京今天天气怎么样?", CHAIN], progress=False, via="batch",
                                        state_dir=tmp_path))
    spans = exporter.get_finished_spans()
    [batch] = by_name(spans, "batch ")
    rounds = by_name(spans, "batch_round")
    assert len(rounds) == max(r.api_calls for r in results)
    agents = by_name(spans, "invoke_agent")
    assert len(agents) == 2 and all(a.parent.span_id == batch.context.span_id for a in agents)
    chats = by_name(spans, "chat")
    assert {c.attributes["conductor.batch.id"] for c in chats} == {r.attributes["conductor.batch.id"] for r in rounds}
    for span in by_name(spans, "execute_tool"):
        assert span.parent.span_id in {a.context.span_id for a in agents}


def test_the_mcp_sdks_own_call_span_nests_under_the_execute_tool_span(exporter):
    server = MCPServer("weather")

    def get_temperature(city: str) -> dict[str, Any]:
        """The current weather in a city."""
        return {"city": city, "temperature_c": 4}

    server.add_tool(get_temperature, structured_output=True)
    llm = cd.connect("offline", latency_scale=0)
    with cd.mcp_server(server) as connection:
        llm.run("What's the current weather in 北京? Use get_temperature.", tools=connection.tools())
    spans = exporter.get_finished_spans()
    calls = [s for s in spans if s.attributes.get("mcp.method.name") == "tools/call"]
    [tool] = by_name(spans, "execute_tool")
    parents = {s.context.span_id: s.parent.span_id if s.parent else None for s in spans}

    def ancestors(span_id):
        while span_id is not None:
            yield span_id
            span_id = parents.get(span_id)

    assert calls and all(tool.context.span_id in ancestors(c.context.span_id) for c in calls)


def test_the_spans_go_to_the_global_provider_where_a_learners_processor_sees_them(exporter):
    mine = InMemorySpanExporter()
    trace.get_tracer_provider().add_span_processor(SimpleSpanProcessor(mine))
    cd.connect("offline", latency_scale=0).run("北京今天天气怎么样?", tools=[get_weather])
    assert [s.name for s in mine.get_finished_spans()] == [s.name for s in exporter.get_finished_spans()]
    mine.shutdown()


def test_the_attribute_names_are_the_pinned_conventions():
    names = {value for value in vars(gen_ai).values() if isinstance(value, str)}
    used = {"gen_ai.operation.name", "gen_ai.provider.name", "gen_ai.request.model", "gen_ai.response.model",
            "gen_ai.response.finish_reasons", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens",
            "gen_ai.usage.cache_read.input_tokens", "gen_ai.conversation.id", "gen_ai.tool.name",
            "gen_ai.tool.call.id", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result", "gen_ai.agent.name"}
    assert used <= names
    assert tracing.SEMCONV_VERSION in tracing.__doc__


def test_an_exporter_of_the_wrong_kind_is_refused_with_what_to_pass():
    with pytest.raises(TypeError, match="SpanExporter or SpanProcessor"):
        tracing.enable("jaeger")


def test_a_failed_request_ends_its_chat_span_with_error_type_and_a_fallback_try_has_its_own(exporter):
    down = cd.OfflineModel(latency=None, faults={"server_error": 1.0})
    broken = cd.connect("offline", offline_model=down, max_retries=0)
    with pytest.raises(Exception) as raised:
        broken.run("北京今天天气怎么样?", tools=[get_weather])
    spans = ours(exporter.get_finished_spans())
    [chat] = by_name(spans, "chat")
    [agent] = by_name(spans, "invoke_agent")
    assert chat.attributes["error.type"] == type(raised.value).__qualname__ == "InternalServerError"
    assert chat.status.status_code is StatusCode.ERROR and agent.status.status_code is StatusCode.ERROR
    exporter.clear()
    both = cd.fallback(broken, cd.connect("offline", latency_scale=0))
    result = both.run("北京今天天气怎么样?", tools=[get_weather])
    chats = by_name(ours(exporter.get_finished_spans()), "chat")
    assert [("error.type" in s.attributes) for s in chats] == [True, False, True, False]
    assert len(chats) == 2 * result.api_calls


@pytest.mark.parametrize("api", APIS)
def test_a_streamed_run_has_the_same_tree(exporter, api):
    llm = cd.connect("offline", api=api, latency_scale=0)
    events = list(llm.stream(CHAIN, tools=[get_weather, suggest_clothing], max_rounds=2))
    result = events[-1].result
    spans = ours(exporter.get_finished_spans())
    [agent] = by_name(spans, "invoke_agent")
    assert len(by_name(spans, "chat")) == result.api_calls
    assert len(by_name(spans, "execute_tool")) == len(result.tool_calls) == 2
    assert all(s.parent.span_id == agent.context.span_id for s in spans if s is not agent)
    assert agent.attributes["gen_ai.usage.input_tokens"] == result.usage.input_tokens


def test_enabled_for_turns_tracing_on_for_a_block_only():
    found = InMemorySpanExporter()
    llm = cd.connect("offline", latency_scale=0)
    with tracing.enabled_for(found, capture_content=True):
        llm.run("北京今天天气怎么样?", tools=[get_weather])
    llm.run("北京今天天气怎么样?", tools=[get_weather])
    assert not tracing.enabled and not tracing.capture_content
    assert len(ours(found.get_finished_spans())) == 4
    tracing.clear()


def test_bench_tracing_times_the_same_six_spans_a_run():
    from conductor.course import bench

    measured = bench.bench_tracing(conversations=2, rounds_per_block=1)
    assert measured.spans_per_run == 6 and measured.conversations == 2 and not tracing.enabled


@pytest.fixture
def collector():
    """An OTLP/HTTP collector on a local port: ``.url`` to send to, ``.received`` the (path, body) of each export."""
    from http.server import BaseHTTPRequestHandler, HTTPServer
    from types import SimpleNamespace

    received: list[tuple[str, bytes]] = []

    class Collector(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            received.append((self.path, self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield SimpleNamespace(url=f"http://127.0.0.1:{server.server_port}", received=received)
    server.shutdown()


def test_the_standard_otlp_variables_send_the_tree_to_a_collector(monkeypatch, collector):
    """What a learner with Jaeger, Phoenix or Langfuse does: set the endpoint, enable, and the spans arrive."""
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    if not tracing._own_provider and tracing._switch is not None:
        pytest.skip("another tracer provider was set in this process before conductor's")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.url)
    try:
        tracing.enable()
        cd.connect("offline", latency_scale=0).run(CHAIN, tools=[get_weather, suggest_clothing])
        tracing.flush()
    finally:
        tracing.disable()
    names = []
    for path, body in collector.received:
        assert path == "/v1/traces"
        request = ExportTraceServiceRequest.FromString(body)
        names += [span.name for r in request.resource_spans for s in r.scope_spans for span in s.spans]
    assert sorted(names) == sorted(["invoke_agent conductor", *["chat conductor-offline"] * 3,
                                    "execute_tool get_weather", "execute_tool suggest_clothing"])


def test_a_resumed_run_is_one_span_that_names_the_pause_it_continues(exporter):
    weather = cd.tool(get_weather, requires_approval=True)
    llm = cd.connect("offline", latency_scale=0)
    paused = llm.run("北京今天天气怎么样?", tools=[weather])
    paused.approve(paused.pending[0].id)
    result = llm.resume(paused)
    spans = ours(exporter.get_finished_spans())
    first, second = sorted(by_name(spans, "invoke_agent"), key=lambda s: s.start_time)
    assert first.attributes["conductor.stopped_by"] == "approval"
    assert second.attributes["conductor.resumed_from"] == first.attributes["conductor.pause.token"]
    [tool] = by_name(spans, "execute_tool")
    assert tool.parent.span_id == second.context.span_id
    assert sum(s.attributes["gen_ai.usage.input_tokens"] for s in by_name(spans, "chat")) == \
        result.usage.input_tokens == second.attributes["gen_ai.usage.input_tokens"]


# -- whose exporter gets the spans: enable, disable, enabled_for, bench tracing ---------------------------------


class Recording(InMemorySpanExporter):
    """An in-memory exporter that says whether it was shut down."""

    def __init__(self) -> None:
        super().__init__()
        self.shut = False

    def shutdown(self) -> None:
        self.shut = True
        super().shutdown()


def one_run() -> Any:
    return cd.connect("offline", latency_scale=0).run("北京今天天气怎么样?", tools=[get_weather])


def test_the_exporter_in_use_before_enabled_for_gets_the_spans_after_the_block(exporter):
    inside = InMemorySpanExporter()
    with tracing.enabled_for(inside, capture_content=True):
        one_run()
    assert tracing.enabled and not tracing.capture_content
    exporter.clear()
    one_run()
    assert len(ours(exporter.get_finished_spans())) == 4  # invoke_agent, 2 chat, 1 execute_tool
    assert len(ours(inside.get_finished_spans())) == 4  # the block's run only


def test_enabled_for_with_tracing_disabled_keeps_the_exporter_parked_for_a_later_enable():
    parked = Recording()
    tracing.enable(parked)
    tracing.disable()
    with tracing.enabled_for(InMemorySpanExporter()):
        one_run()
    assert not parked.shut and not tracing.enabled
    tracing.enable(parked)  # the same exporter again: it was only parked, so it still exports
    try:
        one_run()
        assert len(ours(parked.get_finished_spans())) == 4
    finally:
        tracing.disable()
        tracing.clear()


def test_an_exporter_replaced_after_disable_is_shut_down_and_one_enabled_again_is_not():
    first, second = Recording(), Recording()
    tracing.enable(first)
    tracing.disable()
    tracing.enable(first)  # the same exporter again: kept
    assert not first.shut
    tracing.disable()
    tracing.enable(second)  # another one: the parked one is let go for good
    try:
        assert first.shut and not second.shut
    finally:
        tracing.disable()
        tracing.clear()


def test_bench_tracing_leaves_the_learners_exporter_and_settings_as_they_were(exporter):
    from conductor.course import bench

    tracing.enable(exporter, capture_content=True)
    bench.bench_tracing(conversations=2, rounds_per_block=1)
    assert tracing.enabled and tracing.capture_content
    exporter.clear()
    one_run()
    spans = ours(exporter.get_finished_spans())
    assert len(spans) == 4
    [tool] = by_name(spans, "execute_tool")
    assert "gen_ai.tool.call.arguments" in tool.attributes


def test_otlp_from_the_environment_is_not_added_to_a_learners_own_tracer_provider(tmp_path, collector):
    """A learner's provider exports where its owner set it up; conductor adding OTLP would send every span twice.

    In a fresh process: the tracer provider is the process's, set once, and this one must be the learner's.
    """
    script = tmp_path / "learner.py"
    script.write_text(
        "from opentelemetry import trace\n"
        "from opentelemetry.sdk.trace import TracerProvider\n"
        "from opentelemetry.sdk.trace.export import SimpleSpanProcessor\n"
        "from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter\n"
        "import conductor as cd\n"
        "from conductor.course.scenarios import get_weather\n"
        "mine = InMemorySpanExporter()\n"
        "provider = TracerProvider()\n"
        "provider.add_span_processor(SimpleSpanProcessor(mine))\n"
        "trace.set_tracer_provider(provider)\n"
        "cd.tracing.enable()\n"
        "cd.connect('offline', latency_scale=0).run('北京今天天气怎么样?', tools=[get_weather])\n"
        "cd.tracing.flush()\n"
        "provider.shutdown()\n"
        "print(len([s for s in mine.get_finished_spans() if s.instrumentation_scope.name == 'conductor']))\n",
        encoding="utf-8",
    )
    env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": collector.url}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["4"]  # the learner's own exporter has the run's spans (invoke_agent, 2 chat, 1 tool)
    assert collector.received == []  # and nothing went to the endpoint besides


# -- one chat span per request: the Anthropic SDK's own span ---------------------------------------------------


def chat_spans(spans):
    """Every span of a model request, whoever made it (conductor's ``chat``, an SDK's own)."""
    return [s for s in spans if s.attributes.get("gen_ai.operation.name") == "chat"]


async def last_event(events: Any) -> Any:
    return [event async for event in events][-1]


@pytest.mark.parametrize("driver", ["run", "stream", "arun", "astream"])
@pytest.mark.parametrize("api", APIS)
def test_one_request_is_one_chat_span_whoever_emits_spans(exporter, api, driver):
    llm = cd.connect("offline", api=api, latency_scale=0, asynchronous=driver.startswith("a"))
    tools = [get_weather, suggest_clothing]
    if driver == "run":
        result = llm.run(CHAIN, tools=tools, max_rounds=2)
    elif driver == "stream":
        result = list(llm.stream(CHAIN, tools=tools, max_rounds=2))[-1].result
    elif driver == "arun":
        result = asyncio.run(llm.arun(CHAIN, tools=tools, max_rounds=2))
    else:
        result = asyncio.run(last_event(llm.astream(CHAIN, tools=tools, max_rounds=2))).result
    spans = exporter.get_finished_spans()
    assert [s.instrumentation_scope.name for s in chat_spans(spans)] == ["conductor"] * result.api_calls
    assert sum(s.attributes["gen_ai.usage.output_tokens"] for s in chat_spans(spans)) == result.usage.output_tokens


def learners_anthropic_client(offline: Any) -> Any:
    """``anthropic.Anthropic`` built by hand, answered by the offline stand-in (its HTTP transport)."""
    import anthropic
    import httpx2

    from conductor.offline.model import ANTHROPIC_BASE_URL

    return anthropic.Anthropic(api_key="offline", base_url=ANTHROPIC_BASE_URL,
                               http_client=httpx2.Client(transport=offline.transport()))


def test_a_learners_own_anthropic_client_gives_one_chat_span_and_keeps_its_own_spans(exporter):
    client = learners_anthropic_client(cd.OfflineModel(latency=None))
    llm = cd.connect(client, model="claude-haiku-4-5")
    result = llm.run(CHAIN, tools=[get_weather, suggest_clothing], max_rounds=2)
    assert llm.client is client and client.open_telemetry["traces"]["enabled"]  # the learner's client is untouched
    spans = exporter.get_finished_spans()
    assert [s.instrumentation_scope.name for s in chat_spans(spans)] == ["conductor"] * result.api_calls == \
        ["conductor"] * 3
    # A request the learner sends by hand, which conductor does not trace, keeps the SDK's own span.
    exporter.clear()
    client.messages.create(model="claude-haiku-4-5", max_tokens=200,
                           messages=[{"role": "user", "content": "北京今天天气怎么样?"}])
    assert [s.name for s in chat_spans(exporter.get_finished_spans())] == ["anthropic.messages.create"]


def test_bench_tracing_on_messages_counts_conductors_six_spans():
    from conductor.course import bench

    assert bench.bench_tracing(conversations=1, rounds_per_block=1, api="messages").spans_per_run == 6


# -- issue 42: a trace rebuilt from spans draws its calls with their arguments, or says they were not recorded --


def _rebuilt_labels(exporter) -> list[str]:
    from conductor import charts

    llm = cd.connect("offline", latency_scale=0)
    llm.run("北京和上海今天天气怎么样?", tools=[get_weather])
    [agent] = [s for s in exporter.get_finished_spans() if s.name.startswith("invoke_agent")]
    rebuilt = tracing.trace_of(agent, list(exporter.get_finished_spans()))
    ax = charts.plot_gantt(rebuilt).axes[0]
    return [t.get_text() for t in ax.get_yticklabels()][1:]


def test_a_gantt_rebuilt_from_spans_that_captured_content_shows_the_arguments(exporter):
    tracing.enable(exporter, capture_content=True)
    labels = _rebuilt_labels(exporter)
    assert len(labels) == 2 and all(label.startswith("get_weather(") for label in labels)
    assert all(label not in ("get_weather()", "get_weather(…)") for label in labels), labels


def test_a_gantt_rebuilt_from_spans_without_content_says_the_arguments_were_not_recorded(exporter):
    labels = _rebuilt_labels(exporter)
    assert labels == ["get_weather(…)", "get_weather(…)"], labels
    [agent] = [s for s in exporter.get_finished_spans() if s.name.startswith("invoke_agent")]
    rebuilt = tracing.trace_of(agent, list(exporter.get_finished_spans()))
    assert all(c.arguments is None for r in rebuilt.rounds for c in r.tool_calls)
