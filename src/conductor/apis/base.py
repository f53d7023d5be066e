"""What every wire API module shares: the request settings, tool choice, and the interface.

The round loop (:mod:`conductor.rounds`) and the drivers (``run``, ``arun``,
``stream``, ``astream``) reach an API only through :class:`WireApi`: render the
neutral conversation into the API's input, build a request, send it (whole or
streamed), and read the response back into a neutral :class:`~conductor.types.Turn`.
Each API's module (:mod:`.chat`, :mod:`.messages`, :mod:`.responses`) owns its wire
fields; nothing outside those modules reads or writes them.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..types import Message, StopReason, Turn

if TYPE_CHECKING:
    from ..tools import ToolRegistry

logger = logging.getLogger(__name__)

ApiName = Literal["responses", "chat", "messages"]
API_NAMES: tuple[ApiName, ...] = ("responses", "chat", "messages")
# The names the course used before it taught three APIs: still accepted wherever an API is named.
API_ALIASES: dict[str, ApiName] = {"openai": "chat", "anthropic": "messages"}


# The model of a turn read from history= (Turn.origin is (its API, HISTORY_MODEL)): its format names the API whose
# items it holds, never the model that wrote it.
HISTORY_MODEL = ""


@dataclass(frozen=True)
class ToolChoice:
    """Which tool use the model is asked for while rounds remain, in neutral terms.

    ``auto``: the model decides; ``required``: at least one call (OpenAI
    ``"required"``, Anthropic ``{"type": "any"}``); ``tool``: a call of ``name``;
    ``none``: no calls.
    """

    mode: Literal["auto", "required", "tool", "none"] = "auto"
    name: str | None = None


@dataclass(frozen=True)
class RequestSettings:
    """What stays the same across the requests of one run."""

    model: str
    tools: ToolRegistry
    system: str | list[dict[str, Any]] | None = None  # text, or Messages text blocks (cache_control kept)
    max_tokens: int | None = None
    parallel_tool_calls: bool | None = None  # None: the API's default (parallel calls allowed)
    options: dict[str, Any] = field(default_factory=dict)  # passed to the SDK's create call as is
    tool_choice: ToolChoice = ToolChoice()
    server_state: bool = False  # Responses only: chain requests with previous_response_id (store=True)
    # Hosted tools (web search, ...): the API's own dicts, sent unchanged beside the function tools to
    # ``hosted_api``, the API they were written for (see :mod:`.hosted`).
    hosted_tools: tuple[dict[str, Any], ...] = ()
    hosted_api: ApiName | None = None
    # Tool search (conductor.search): the tools sent with "defer_loading": true to ``hosted_api``, whose
    # hosted search tool is among ``hosted_tools``.
    deferred: frozenset[str] = frozenset()
    # Tools at scale (:mod:`conductor.caching`, :mod:`conductor.context`): the prompt cache asked for (True,
    # False, "5m", "1h") and the prompt_cache_key sent on OpenAI's APIs; the tools the model may call, sent as
    # tool_choice allowed_tools on Responses and Chat Completions (every tool still sent: the prefix stays);
    # context="server": the API's own compaction, from ``context_limit`` input tokens.
    cache: bool | str = False
    cache_key: str | None = None
    allowed_tools: tuple[str, ...] | None = None
    context: str | None = None
    context_limit: int | None = None
    programmatic: bool = False  # the model may write a program that calls the tools (conductor.programs)
    # A request feature registered in conductor.apis.parts.RUN_OPTIONS: its llm.run option's setting, by name.
    features: Mapping[str, Any] = field(default_factory=dict)


# Servers known to take OpenAI's own request fields that compatible servers may not: "prompt_cache_key" and
# tool_choice {"type": "allowed_tools", ...}. An OpenAI client on any other base URL talks to an OpenAI-compatible
# server (Ollama, vLLM, llama.cpp, a gateway), which gets what they all take instead: no prompt_cache_key, and the
# tools allowed_tools= leaves out not sent. By host name; "offline.invalid" is the offline stand-in, which takes
# them as OpenAI does. Add a server of yours that takes them: cd.apis.base.OPENAI_FIELD_HOSTS.append("host").
OPENAI_FIELD_HOSTS: list[str] = ["api.openai.com", "offline.invalid"]
_compatible_said: set[str] = set()  # said once per process and server


def takes_openai_fields(base_url: Any = None) -> bool:
    """Does the server at ``base_url`` take OpenAI's own request fields (see :data:`OPENAI_FIELD_HOSTS`)?

    ``None`` is the SDK's default, OpenAI's own server.
    """
    if base_url is None:
        return True
    from urllib.parse import urlsplit

    # A string, or the SDK client's own URL object: its text is the same URL.
    if urlsplit(str(base_url)).hostname in OPENAI_FIELD_HOSTS:
        return True
    if str(base_url) not in _compatible_said:
        _compatible_said.add(str(base_url))
        logger.info(
            "%s is not OpenAI's own server: requests to it carry no prompt_cache_key, and allowed_tools= sends only "
            "the allowed tools rather than tool_choice allowed_tools (compatible servers may reject both); if it "
            "takes them, add its host to cd.apis.base.OPENAI_FIELD_HOSTS", base_url,
        )
    return False


def only_allowed(settings: RequestSettings) -> list[Any]:
    """The tools a server without tool_choice allowed_tools gets under ``allowed_tools=``: the allowed ones, and
    the one tool_choice forces (a forced tool that is not sent is a 400). The guards still refuse any other call."""
    allowed = set(settings.allowed_tools or ())
    if settings.tool_choice.mode == "tool" and settings.tool_choice.name:
        allowed.add(settings.tool_choice.name)
    return [tool for tool in settings.tools if tool.name in allowed]


_hosted_dropped: set[tuple[str, str | None, tuple[str, ...]]] = set()  # said once per process


def hosted_tools_for(settings: RequestSettings, api: ApiName) -> list[dict[str, Any]]:
    """The hosted tools to send to ``api``: the run's own on the API they were written for, none on another.

    A run moves to another API only when a model fallback takes it over; that API would refuse the
    other's dicts (a 400 that no fallback gets past), so the request goes without them, said in the log.
    """
    if not settings.hosted_tools:
        return []
    if settings.hosted_api == api:
        return list(settings.hosted_tools)
    said = (api, settings.hosted_api, tuple(str(t.get("type")) for t in settings.hosted_tools))
    if said in _hosted_dropped:
        return []
    _hosted_dropped.add(said)
    logger.warning(
        "this request goes to the %s API, which does not take the %s API's hosted tools (%s); it is sent "
        "without them", api, settings.hosted_api, ", ".join(repr(t.get("type")) for t in settings.hosted_tools),
    )
    return []


def deferred_for(settings: RequestSettings, api: ApiName) -> frozenset[str]:
    """The tools to send deferred to ``api``: none unless its hosted search goes with them (a fallback to
    another API sends every tool loaded, as that API would refuse deferred tools with no search tool)."""
    return settings.deferred if settings.hosted_api == api else frozenset()


@dataclass(frozen=True)
class HiddenPrompt:
    """Input an API adds to a request by itself, known only as a token count.

    Anthropic's tool-use system prompt is one: billed as input on every request that
    has tools, never seen in the request. A :meth:`WireApi.prompt_extras` value of this
    type is counted as these tokens, not estimated from text.
    """

    tokens: int


def tool_choice_from(value: Any, tools: ToolRegistry) -> tuple[ToolChoice, bool | None]:
    """A caller's ``tool_choice`` in any API's form, as a :class:`ToolChoice`.

    Also returns ``False`` when an Anthropic form asks for one call per turn
    (``disable_parallel_tool_use``), else ``None``. Raises ``ValueError`` naming
    the accepted forms, or the tools offered when a named tool is not one of them.
    """
    if value is None:
        return ToolChoice(), None
    parallel: bool | None = None
    if isinstance(value, str) and value in ("auto", "required", "none", "any"):
        choice = ToolChoice("required" if value == "any" else value)  # type: ignore[arg-type]
    elif isinstance(value, dict) and value.get("type") == "function" and isinstance(value.get("function"), dict):
        choice = ToolChoice("tool", value["function"].get("name"))
    elif isinstance(value, dict) and value.get("type") in ("auto", "any", "tool", "none"):
        mode = {"any": "required"}.get(value["type"], value["type"])
        choice = ToolChoice(mode, value.get("name"))  # type: ignore[arg-type]
        parallel = False if value.get("disable_parallel_tool_use") else None
    else:
        raise ValueError(
            f"unsupported tool_choice {value!r}: pass 'auto', 'required', 'none', "
            "{'type': 'function', 'function': {'name': ...}} (OpenAI) or "
            "{'type': 'auto' | 'any' | 'tool' | 'none', 'name': ...} (Anthropic)"
        )
    if choice.mode != "auto" and not len(tools):
        raise ValueError(f"tool_choice={value!r} needs tools: pass tools=[...] as well")
    if choice.mode == "tool" and choice.name not in tools:
        raise ValueError(
            f"tool_choice names {choice.name!r}, which is not among the tools offered: {', '.join(tools.names)}"
        )
    return choice, parallel


def system_text(system: str | list[dict[str, Any]] | None) -> str:
    """The text of ``system=``: a string, or the text of each of its text blocks, joined."""
    if system is None or isinstance(system, str):
        return system or ""
    return "\n\n".join(block["text"] for block in system)


def check_system(system: Any) -> str | list[dict[str, Any]] | None:
    """``system=`` as given, or an error naming the two forms it takes."""
    if system is None or isinstance(system, str):
        return system
    if isinstance(system, list) and system and all(
        isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str) for b in system
    ):
        return system
    raise ValueError(
        "system= takes text, or a list of text blocks as Anthropic's Messages API does "
        "([{'type': 'text', 'text': '...', 'cache_control': {'type': 'ephemeral'}}]) to mark a prompt cache; "
        f"got {system!r:.80}"
    )


def map_stop(native: str | None, table: dict[str, StopReason]) -> StopReason:
    """The neutral stop reason of an API's native one (``OTHER`` for what a newer API version adds)."""
    if native is None:
        return StopReason.OTHER
    return table.get(native, StopReason.OTHER)


# A hosted MCP tool's call that OpenAI holds for approval (``mcp_approval_request``, the default for a remote MCP
# server) reaches the loop as a call named "mcp:<server label>.<tool>": a person approves or rejects it like any
# call that requires approval, and the answer goes back as ``mcp_approval_response``. The ":" keeps the name
# apart from every tool of the caller's (tool names may not hold one).
HOSTED_APPROVAL_PREFIX = "mcp:"


def is_hosted_approval(name: str) -> bool:
    """Is ``name`` a hosted MCP call awaiting approval, rather than a tool conductor runs?"""
    return name.startswith(HOSTED_APPROVAL_PREFIX)


def hosted_approval_name(server_label: str, tool: str) -> str:
    return f"{HOSTED_APPROVAL_PREFIX}{server_label}.{tool}"


# --- streaming -------------------------------------------------------------------------------


class Opened:
    """Yielded once by :meth:`WireApi.stream` when the SDK's stream is open.

    Errors before it are the SDK's own (after its retries); errors after it break
    off a response already under way (:class:`~conductor.streaming.StreamInterrupted`).
    """


OPENED = Opened()


@dataclass(frozen=True)
class Finished:
    """The end of one streamed response: the whole response the SDK assembled from its events."""

    response: Any  # the SDK's response object, as a non-streamed request returns it


class StreamIncomplete(Exception):
    """A stream that ended cleanly but too early (the model had not finished)."""


class StreamFailed(Exception):
    """The API reported a failure inside an open stream (an ``error`` event, a failed response).

    The SDKs raise their own error for this on Chat Completions and Messages; on Responses the
    event only arrives as data, so this carries its message and code the same way.
    """

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message if code is None else f"{message} (code {code})")
        self.code = code


# --- history ---------------------------------------------------------------------------------


def plain_text(index: int, content: Any) -> str:
    """Text of a string or a list of text parts; other parts are refused, naming the history entry."""
    if content is None or isinstance(content, str):
        return content or ""
    if not isinstance(content, list):
        raise ValueError(f"history[{index}] has content of type {type(content).__name__}; use a string or a list of parts")
    texts = []
    for part in content:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind != "text":
            raise ValueError(
                f"history[{index}] holds a {kind or type(part).__name__!r} part; history carries text, "
                "tool calls and tool results only: leave the part out or describe it in text"
            )
        texts.append(part.get("text", ""))
    return "".join(texts)


class WireApi(Protocol):
    """One wire API, as the round loop and the drivers see it."""

    api: ApiName

    def render(self, messages: Sequence[Message], into: list[dict[str, Any]], *, model: str) -> None:
        """Append the wire form of ``messages`` to ``into``, for requests to ``model``.

        A turn's reasoning goes back only to the model (and API) that produced it.
        """

    def request(
        self,
        settings: RequestSettings,
        messages: list[dict[str, Any]],
        *,
        tools_allowed: bool,
        continued: tuple[str, int] | None = None,
        conversation: Sequence[Message] = (),
    ) -> dict[str, Any]:
        """The create call's keyword arguments, with the part each request feature the run asked for adds
        (:mod:`.parts`: deferred tools, the program tool, the prompt cache, compaction, a program's container).

        ``continued`` (server state, Responses only): the id of the last response and how many of
        ``messages`` the server already holds. ``conversation``: the run's neutral conversation, which a part
        may read (a program's container).
        """

    def prompt_extras(self, request: dict[str, Any]) -> dict[str, Any]:
        """What a request bills as input besides the conversation: system text and tools as sent, and
        :class:`HiddenPrompt` for input the API adds by itself."""

    def output_limit(self, request: dict[str, Any], default: int) -> int:
        """The most output tokens ``request`` may generate; sets ``default`` as its limit when it has none."""

    def create(self, client: Any, kwargs: dict[str, Any]) -> Any:
        """Send one request with a sync client; the SDK's response object."""

    async def acreate(self, client: Any, kwargs: dict[str, Any]) -> Any:
        """Send one request with an async client."""

    def stream(self, client: Any, kwargs: dict[str, Any]) -> Iterator[Opened | str | Finished]:
        """Send one request streamed: :data:`OPENED`, the text deltas, then :class:`Finished`."""

    def astream(self, client: Any, kwargs: dict[str, Any]) -> AsyncIterator[Opened | str | Finished]:
        """:meth:`stream` with an async client."""

    def parse(self, response: Any) -> Turn:
        """The neutral turn of a response."""

    def read_history(self, index: int, entry: dict[str, Any]) -> list[Message] | None:
        """The neutral messages of one history entry in this API's format, or ``None`` if it is not."""
