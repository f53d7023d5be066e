"""MCP servers as tools: ``cd.mcp_server(...)`` and ``server.tools()``.

An MCP server (Model Context Protocol, the ``mcp`` SDK) offers tools described by
its own JSON schemas. This module connects to one and hands its tools over as
ordinary conductor :class:`~conductor.tools.Tool` objects, built with
``parameters=<the tool's inputSchema>``, so every MCP tool gets what ``@cd.tool``
gives: argument validation (``jsonschema``), strict schemas where possible,
retries, timeouts and fallbacks, approval, allowlists, loop detection, parallel
calls, budgets and the trace::

    with cd.mcp_server(sys.executable, "server.py") as server:   # a subprocess over stdio
        result = llm.run(question, tools=server.tools())
    server = cd.mcp_server(mcp_server_object)                     # an in-process MCPServer / FastMCP

Both forms work with ``with`` and ``async with``; without either, the connection
starts on first use and stops at :meth:`MCPConnection.close` (or when the program
ends). A stdio server's process is gone when the block exits, on errors too. A
server that does not start raises :class:`MCPServerError` naming the command and
what it wrote to stderr.

What the model reads. An MCP result flagged ``isError`` becomes an error result
(``is_error=True``) whose text is the server's own message; structured content
(``structuredContent``) goes as JSON; otherwise the text blocks, joined.

Rug pulls. A server can change a tool after a person (or a program) looked at it:
a new description that tells the model to do something else, a new schema. The
definitions ``.tools()`` read are the ones approved; before every call the
server's list is read again, and a call to a tool whose definition changed (or
that is gone) is not made: it fails with an error result saying the tools changed
since they were approved and must be read again with ``.tools()``. Any other
change to the list is logged once. The SDK's response cache is off, so what is
compared is what the server says now. (Nothing can tell whether a server changed
what a tool *does* behind an unchanged definition.)

Why a thread. The ``mcp`` SDK is async (anyio), and its client must be entered
and exited in one task. A connection therefore runs its own event loop in a
daemon thread that owns the SDK ``Client`` for the connection's whole life;
calls are handed to that loop. This gives one client that works the same from
sync code (``llm.run`` runs tools in threads), from async code (``llm.arun``),
and from a Jupyter cell whose own loop is already running. Tools made by a
connection entered with ``with`` (or started by ``.tools()``) are sync functions
that wait for the loop; tools made under ``async with`` are async functions that
``await`` it, so an async run's timeout cancels the MCP request itself. A sync
tool under a timeout also gives the request up (it watches ``cd.cancelled()``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import copy
import json
import logging
import os
import re
import shlex
import sys
import tempfile
import threading
import weakref
from collections.abc import Callable, Collection, Coroutine
from typing import Any

from .tools import Namespace, Tool, ToolOutputError

__all__ = ["mcp_server", "new_server", "MCPConnection", "MCPServerError", "MCPToolError", "MCPToolsChangedError"]

logger = logging.getLogger(__name__)

DEFAULT_START_TIMEOUT = 30.0
"""Seconds a server has to start and answer (a stdio server run by ``npx`` or ``uvx`` may install first)."""

_SHUTDOWN_WAIT = 15.0  # the SDK's stdio shutdown is bounded (stdin close, 2 s, SIGTERM, 2 s, SIGKILL): ample
_STDERR_TAIL = 2000  # characters of the server's stderr an error message quotes
_POLL = 0.05  # how often a waiting sync tool looks at cd.cancelled()
_PAGES = 100  # pages of tools/list read at most: a paginator that never ends cannot hang a call
_NAME_RE = re.compile(r"[^a-zA-Z0-9_-]")  # what conductor (and both APIs) refuse in a tool name
_COMPARED = ("name", "title", "description", "inputSchema", "annotations")  # what approving a tool approves


class MCPServerError(RuntimeError):
    """An MCP server did not start, went away, or was used after its ``with`` block ended."""


class MCPToolsChangedError(MCPServerError):
    """The server's definition of a tool changed since ``.tools()`` read it: the call was not made."""


class MCPToolError(ToolOutputError):
    """An MCP tool answered with ``isError``: the message is the server's own, for the model.

    A :class:`~conductor.tools.ToolOutputError` (the tool ran; the message is meant for the
    model) so that the error result reads as the server wrote it, with no Python class name.
    """


def _sdk() -> Any:
    """The ``mcp`` package, imported on first use (``import conductor`` stays light)."""
    try:
        import mcp
        import mcp.client.stdio
        import mcp.server.lowlevel
        import mcp.server.mcpserver
    except ImportError as exc:  # pragma: no cover - the course pins it
        raise ImportError(
            "cd.mcp_server needs the mcp SDK: pip install mcp==2.3.0 (it is in requirements.txt)"
        ) from exc
    return mcp


# -- what a tool is, as approved ----------------------------------------------------------------


def _definition(tool: Any) -> dict[str, Any]:
    """The parts of an MCP tool a model reads or a person approves, as plain JSON data."""
    data = tool.model_dump(mode="json", by_alias=True, exclude_none=True)
    return {key: data.get(key) for key in _COMPARED}


def _changes(before: dict[str, Any], after: dict[str, Any] | None) -> str:
    if after is None:
        return f"{before['name']} was removed"
    fields = [key for key in _COMPARED if before.get(key) != after.get(key)]
    return f"the {', '.join(fields)} of {before['name']} changed"


def _list_changes(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> str:
    parts = []
    if added := sorted(after.keys() - before.keys()):
        parts.append("added " + ", ".join(added))
    if removed := sorted(before.keys() - after.keys()):
        parts.append("removed " + ", ".join(removed))
    if changed := sorted(n for n in before.keys() & after.keys() if before[n] != after[n]):
        parts.append("changed " + ", ".join(changed))
    return "; ".join(parts)


def _conductor_name(name: str) -> str:
    """An MCP tool name as conductor and both APIs accept it (MCP also allows '.', and 128 characters)."""
    return _NAME_RE.sub("_", name)[:64] or "tool"


# -- what the model reads -----------------------------------------------------------------------


def _block_text(block: Any) -> str:
    kind = getattr(block, "type", None)
    if kind == "text":
        return block.text
    if kind == "resource":
        resource = block.resource
        text = getattr(resource, "text", None)
        return text if text is not None else f"[resource {resource.uri} ({resource.mime_type or 'binary'}), not shown]"
    if kind == "resource_link":
        return f"[resource {block.uri}]"
    if kind in ("image", "audio"):
        return f"[{block.mime_type} {kind}, not shown]"
    return f"[{kind} content, not shown]"


def _text(result: Any) -> str:
    return "\n\n".join(_block_text(block) for block in result.content)


def _output(result: Any, tool: str) -> Any:
    """What a tool function returns for an MCP result; raises :class:`MCPToolError` for ``isError``."""
    if result.is_error:
        # The mcp SDK's servers open every error with "Error executing tool <name>: "; the model knows which
        # call failed, so it reads the server's own words.
        text = _text(result).removeprefix(f"Error executing tool {tool}: ")
        raise MCPToolError(text or f"the MCP tool {tool} reported an error without a message")
    if result.structured_content is not None:
        return result.structured_content  # a dict: conductor sends it as JSON
    return _text(result)


# -- the event loop thread ----------------------------------------------------------------------


class _Session:
    """One connection's running part: a loop in a daemon thread, and the SDK client it owns.

    Kept apart from :class:`MCPConnection` so that the finalizer which stops it at exit
    holds no reference to the connection.
    """

    def __init__(self, label: str) -> None:
        self.label = label
        self.loop = asyncio.new_event_loop()
        self.client: Any = None
        self.stop = asyncio.Event()
        self.finished = threading.Event()  # the client has exited (the subprocess is gone)
        self.thread = threading.Thread(target=self._run_loop, name=f"mcp {label}"[:60], daemon=True)
        self.thread.start()

    def _run_loop(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            pending = asyncio.all_tasks(self.loop)
            for task in pending:
                task.cancel()
            self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()

    def submit(self, coroutine: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        if threading.current_thread() is self.thread:
            coroutine.close()
            raise RuntimeError("an MCP tool cannot be called from inside its own server's event loop")
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    async def serve(self, make_client: Callable[[], Any], ready: concurrent.futures.Future[None]) -> None:
        """Enter the client, say so, hold it until told to stop, exit it: all in this one task."""
        try:
            client = make_client()
            async with client:
                self.client = client
                ready.set_result(None)
                await self.stop.wait()
        except BaseException as exc:  # noqa: BLE001 - reported to whoever waits, never lost in the loop
            if not ready.done():
                ready.set_exception(exc)
            elif not isinstance(exc, asyncio.CancelledError):
                logger.warning("MCP server %s: the connection ended with an error: %r", self.label, exc)
        finally:
            self.client = None
            self.finished.set()

    def close(self) -> None:
        """Stop the client (and with it the subprocess), then the loop; idempotent, from any thread but the loop's."""
        if self.loop.is_closed():
            return
        try:
            self.loop.call_soon_threadsafe(self.stop.set)
        except RuntimeError:  # the loop closed in between
            return
        if not self.finished.wait(_SHUTDOWN_WAIT):
            logger.warning("MCP server %s did not shut down within %.0f s", self.label, _SHUTDOWN_WAIT)
        try:
            self.loop.call_soon_threadsafe(self.loop.stop)
        except RuntimeError:
            pass
        self.thread.join(_SHUTDOWN_WAIT)


def _wait(future: concurrent.futures.Future[Any]) -> Any:
    """Wait for a call handed to the loop; give it up once conductor has given the tool call up.

    ``cd.cancelled()`` only ever turns true for a call under a timeout or a run deadline, and
    those load :mod:`conductor.retry`; without it loaded, nothing can cancel, so just wait.
    """
    retry = sys.modules.get(f"{__package__}.retry")
    if retry is None:
        return future.result()
    while True:
        try:
            return future.result(timeout=_POLL)
        except TimeoutError:
            if retry.cancelled():
                future.cancel()  # cancels the request on the loop: the server is told
                raise MCPServerError("the call was given up (timeout or deadline)") from None


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def _connection_closed(exc: BaseException) -> bool:
    from mcp_types import CONNECTION_CLOSED
    from mcp.shared.exceptions import MCPError

    return any(isinstance(e, MCPError) and e.code == CONNECTION_CLOSED for e in _leaves(exc))


# -- the connection -----------------------------------------------------------------------------


class MCPConnection:
    """A connection to one MCP server, whose tools :meth:`tools` hands over as conductor tools.

    Made by :func:`mcp_server`. One connection runs once: after :meth:`close` (the end of
    its ``with`` block) it stays closed, and its tools' calls become error results.
    """

    def __init__(
        self,
        target: Any,
        label: str,
        *,
        start_timeout: float = DEFAULT_START_TIMEOUT,
        stdio: bool,
    ) -> None:
        self.label = label
        self.start_timeout = start_timeout
        self._target = target
        self._stdio = stdio
        self._state = "new"  # -> "running" -> "closed"
        self._lock = threading.Lock()
        self._session: _Session | None = None
        self._finalizer: weakref.finalize | None = None
        self._async = False  # entered with ``async with``: its tools are async functions
        self._errlog = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") if stdio else None
        self._read: dict[str, dict[str, Any]] = {}  # the whole list as .tools() last read it
        self._logged: set[str] = set()  # the list changes already logged

    def __repr__(self) -> str:
        return f"<MCP server {self.label} ({self._state})>"

    # -- life ------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._state == "running"

    @property
    def stderr(self) -> str:
        """What a stdio server has written to its stderr so far ("" for an in-process server)."""
        if self._errlog is None or self._errlog.closed:
            return ""
        fd = self._errlog.fileno()
        # pread: the child shares this file's offset; reading must not move where it writes.
        return os.pread(fd, os.fstat(fd).st_size, 0).decode("utf-8", errors="replace")

    def _failure(self, what: str) -> str:
        text = f"the MCP server {self.label} {what}"
        if not self._stdio:
            return text
        err = self.stderr.strip()
        if not err:
            return f"{text}; it wrote nothing to stderr"
        if len(err) > _STDERR_TAIL:
            err = "…" + err[-_STDERR_TAIL:]
        return f"{text}; its stderr:\n{err}"

    def _make_client(self) -> Any:
        mcp = _sdk()
        if self._stdio:
            transport = mcp.client.stdio.stdio_client(self._target, errlog=self._errlog)
        else:
            transport = self._target
        # cache=None: tools/list must reach the server every time, or a changed list could hide behind a TTL.
        return mcp.Client(transport, cache=None, message_handler=self._on_message)

    async def _on_message(self, message: Any) -> None:
        """A server's ``notifications/tools/list_changed`` (handshake-era servers send it): noted at once."""
        from mcp_types import ToolListChangedNotification

        if isinstance(message, ToolListChangedNotification):
            logger.warning(
                "MCP server %s says its tool list changed; calls to tools whose definitions changed will "
                "fail until .tools() reads them again", self.label,
            )

    def start(self) -> MCPConnection:
        """Start the server (a subprocess) or the in-process connection; raises :class:`MCPServerError`."""
        with self._lock:
            if self._state == "running":
                return self
            if self._state == "closed":
                raise MCPServerError(
                    f"the MCP server {self.label} was closed (its `with` block ended); "
                    f"connect again with cd.mcp_server(...)"
                )
            _sdk()
            session = _Session(self.label)
            ready: concurrent.futures.Future[None] = concurrent.futures.Future()
            served = session.submit(session.serve(self._make_client, ready))
            try:
                ready.result(timeout=self.start_timeout)
            except BaseException as exc:
                timed_out = not ready.done()
                served.cancel()  # a server still starting is stopped (its process killed)
                session.close()
                self._state = "closed"
                if not isinstance(exc, Exception):
                    raise  # KeyboardInterrupt: the process is gone all the same
                if timed_out:
                    raise MCPServerError(self._failure(
                        f"did not start: it did not answer within {self.start_timeout:g} s"
                    )) from None
                raise MCPServerError(self._failure(self._why_not_started(exc))) from exc
            self._session = session
            self._state = "running"
            self._finalizer = weakref.finalize(self, session.close)
            return self

    def _why_not_started(self, exc: BaseException) -> str:
        if _connection_closed(exc):
            return "did not start: it exited (or closed its stdout) before answering"
        leaf = _leaves(exc)[0]
        if isinstance(leaf, FileNotFoundError):
            return f"did not start: the command was not found ({leaf})"
        if isinstance(leaf, OSError):
            return f"did not start: the command could not be run ({leaf})"
        return f"did not start: {type(leaf).__name__}: {leaf}"

    def close(self) -> None:
        """Stop the connection; a stdio server's process is gone when this returns. Idempotent."""
        with self._lock:
            self._state = "closed"
            if self._finalizer is not None:
                self._finalizer()  # session.close(), once

    def __enter__(self) -> MCPConnection:
        return self.start()

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    async def __aenter__(self) -> MCPConnection:
        self._async = True
        await asyncio.to_thread(self.start)
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        # Shielded: a cancelled task still waits for the process to be gone (the wait is bounded).
        await asyncio.shield(asyncio.to_thread(self.close))

    # -- talking to the server -------------------------------------------------

    def _running_session(self) -> _Session:
        session = self._session
        if self._state != "running" or session is None or session.finished.is_set():
            if self._state == "running":
                raise MCPServerError(self._failure("is no longer connected"))
            raise MCPServerError(
                f"the MCP server {self.label} is closed: use its tools inside the `with` block that started it"
            )
        return session

    def _sync(self, make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
        session = self._running_session()
        return _wait(session.submit(make()))

    async def _async_call(self, make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
        session = self._running_session()
        return await asyncio.wrap_future(session.submit(make()))

    async def _list(self) -> list[Any]:
        """Every tool the server lists now, page by page (on the connection's loop)."""
        client = self._client()
        tools, cursor = [], None
        for _ in range(_PAGES):
            page = await self._guarded(client.list_tools(cursor=cursor))
            tools += page.tools
            cursor = page.next_cursor
            if cursor is None:
                break
        return tools

    def _client(self) -> Any:
        client = self._session.client if self._session is not None else None
        if client is None:
            raise MCPServerError(self._failure("is no longer connected"))
        return client

    async def _guarded(self, awaitable: Any) -> Any:
        """An SDK request, its connection failures as :class:`MCPServerError` and protocol errors for the model."""
        from mcp.shared.exceptions import MCPError

        try:
            return await awaitable
        except MCPError as exc:
            if _connection_closed(exc):
                raise MCPServerError(self._failure("closed the connection (it may have crashed)")) from exc
            raise MCPToolError(f"the MCP server refused the request: {exc.message} (MCP error {exc.code})") from exc
        except (OSError, EOFError) as exc:
            raise MCPServerError(self._failure(f"is no longer connected ({exc!r})")) from exc
        except Exception as exc:
            import anyio

            if isinstance(exc, (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)):
                raise MCPServerError(self._failure("is no longer connected")) from exc
            raise

    async def _call(self, name: str, approved: dict[str, Any], arguments: dict[str, Any]) -> Any:
        """Check the tool is still what was approved, then call it (on the connection's loop)."""
        listed = {tool.name: _definition(tool) for tool in await self._list()}
        self._note_list_changes(listed)
        current = listed.get(name)
        if current != approved:
            change = _changes(approved, current)
            logger.error("MCP server %s: %s since .tools() read it; the call was not made", self.label, change)
            raise MCPToolsChangedError(
                f"the MCP server {self.label}'s tools changed since they were read and approved "
                f"({change}), so the call to {name} was not made. The program must read the tools "
                f"again with .tools() (and have them approved again) before they can be used."
            )
        return await self._guarded(self._client().call_tool(name, arguments))

    def _note_list_changes(self, listed: dict[str, dict[str, Any]]) -> None:
        if listed == self._read:
            return
        change = _list_changes(self._read, listed)
        if change and change not in self._logged:
            self._logged.add(change)
            logger.warning(
                "MCP server %s: its tool list changed since .tools() read it (%s); calls to changed or "
                "removed tools fail until .tools() reads them again", self.label, change,
            )

    # -- the tools -------------------------------------------------------------

    def tools(
        self,
        allowed: Collection[str] | None = None,
        *,
        requires_approval: bool | Callable[[dict[str, Any]], bool] | Collection[str] = False,
        retry: Any = None,
        timeout: float | None = None,
        max_invalid: int | None = None,
        strict: bool | None = None,
        defer_loading: bool | None = None,
        namespace: bool | str | Namespace | None = None,
    ) -> list[Tool]:
        """The server's tools as conductor tools, built from each tool's own ``inputSchema``.

        ``allowed``: only these tools (by their MCP names); a name the server does not have
        raises ``ValueError`` listing the ones it has. ``requires_approval``: ``True`` (every
        call pauses the run for a person), a predicate on the arguments, or the names of the
        tools that need approval. ``retry=``, ``timeout=``, ``max_invalid=`` and ``strict=``
        are ``@cd.tool``'s, for every tool (give one tool its own with ``cd.tool(t, retry=...)``).
        ``defer_loading=True`` defers every tool of the server: a run sends them for a tool
        search to load (see :mod:`conductor.search`) instead of into the model's context.
        ``namespace=True`` sends them on the Responses API inside one namespace named after the server, described
        by its instructions (see :meth:`namespace`; a str names it, a :class:`~conductor.tools.Namespace` is used
        as it is): with tool search the model then reads one line for the whole server until it loads a tool.

        The definitions read now are the approved ones: a later call to a tool the server has
        changed since is not made (see the module's docstring). Call ``.tools()`` again to
        read, and approve, the current ones. Starts the connection if it is not running.
        """
        self.start()
        listing = self._sync(self._list)
        built = self._build(listing, allowed, requires_approval, retry, timeout, max_invalid, strict, defer_loading)
        return self._in_namespace(built, namespace)

    async def atools(
        self,
        allowed: Collection[str] | None = None,
        *,
        requires_approval: bool | Callable[[dict[str, Any]], bool] | Collection[str] = False,
        retry: Any = None,
        timeout: float | None = None,
        max_invalid: int | None = None,
        strict: bool | None = None,
        defer_loading: bool | None = None,
        namespace: bool | str | Namespace | None = None,
    ) -> list[Tool]:
        """:meth:`tools` without blocking the event loop while the list is read."""
        if not self.running:
            await asyncio.to_thread(self.start)
        listing = await self._async_call(self._list)
        built = self._build(listing, allowed, requires_approval, retry, timeout, max_invalid, strict, defer_loading)
        return self._in_namespace(built, namespace)

    def namespace(self, name: str | None = None, description: str | None = None) -> Namespace:
        """This server as a Responses namespace: ``name`` (by default the server's own name, with what a tool
        name cannot hold made "_") and ``description`` (by default its instructions, else "Tools of <name>")."""
        client = self._client()
        info = getattr(client, "server_info", None)
        label = name or re.sub(r"[^a-zA-Z0-9_-]", "_", getattr(info, "name", None) or self.label)[:64]
        instructions = getattr(client, "instructions", None)
        return Namespace(label, description or (instructions if isinstance(instructions, str) and
                                                instructions.strip() else f"Tools of the MCP server {label}."))

    def _in_namespace(self, tools: list[Tool], namespace: bool | str | Namespace | None) -> list[Tool]:
        if namespace is None or namespace is False:
            return tools
        if namespace is True or isinstance(namespace, str):
            namespace = self.namespace(None if namespace is True else namespace)
        if not isinstance(namespace, Namespace):
            raise TypeError(f"namespace= takes True, a name, a cd.tools.Namespace or None, got {namespace!r}")
        return [tool.with_options(namespace=namespace) for tool in tools]

    def _build(
        self,
        listing: list[Any],
        allowed: Collection[str] | None,
        requires_approval: Any,
        retry: Any,
        timeout: float | None,
        max_invalid: int | None,
        strict: bool | None,
        defer_loading: bool | None = None,
    ) -> list[Tool]:
        definitions = {tool.name: _definition(tool) for tool in listing}
        self._read = definitions
        names = list(definitions)
        chosen = names if allowed is None else self._known(allowed, names, "allowed")
        if isinstance(requires_approval, bool) or callable(requires_approval):
            rule_for = dict.fromkeys(chosen, requires_approval)
        else:
            needing = set(self._known(requires_approval, names, "requires_approval"))
            rule_for = {name: name in needing for name in chosen}
        tools, taken = [], {}
        for name in chosen:
            definition = definitions[name]
            local = _conductor_name(name)
            if local in taken:
                raise ValueError(
                    f"the MCP tools {taken[local]!r} and {name!r} of {self.label} would both be called "
                    f"{local!r} (tool names may use letters, digits, '_' and '-'); pass allowed= to pick one"
                )
            taken[local] = name
            tools.append(
                Tool(
                    self._function(name, local, definition),
                    name=local,
                    description=definition["description"] or definition["title"] or "",
                    parameters=copy.deepcopy(definition["inputSchema"]),
                    requires_approval=rule_for[name],
                    retry=retry,
                    timeout=timeout,
                    max_invalid=max_invalid,
                    strict=strict,
                    defer_loading=defer_loading,
                )
            )
        return tools

    def _known(self, names: Any, available: list[str], option: str) -> list[str]:
        if isinstance(names, str):
            names = [names]
        names = list(names)
        unknown = [name for name in names if name not in available]
        if unknown:
            raise ValueError(
                f"{option}= names {', '.join(map(repr, unknown))}, which the MCP server {self.label} does not "
                f"have; its tools are: {', '.join(available) or '(none)'}"
            )
        return names

    def _function(self, name: str, local: str, approved: dict[str, Any]) -> Callable[..., Any]:
        """The tool's function: sync, or async under ``async with`` (see the module's docstring)."""
        if self._async:

            async def call(**arguments: Any) -> Any:
                return _output(await self._async_call(lambda: self._call(name, approved, arguments)), name)

        else:

            def call(**arguments: Any) -> Any:
                return _output(self._sync(lambda: self._call(name, approved, arguments)), name)

        call.__name__ = call.__qualname__ = local
        call.__doc__ = None  # the description is the server's, never this function's
        return call


def new_server(*args: Any, **kwargs: Any) -> Any:
    """``mcp``'s ``MCPServer(*args, **kwargs)``, with the root logger left as it was.

    The SDK's constructor calls ``logging.basicConfig`` (a handler on the root logger, at INFO): in a
    notebook or a test run that starts printing every library's INFO lines. A server process of its
    own that wants them configures logging itself.
    """
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        return _sdk().server.mcpserver.MCPServer(*args, **kwargs)
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def mcp_server(
    command_or_server: Any,
    /,
    *args: str,
    env: dict[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    start_timeout: float = DEFAULT_START_TIMEOUT,
) -> MCPConnection:
    """Connect to an MCP server: ``cd.mcp_server(command, *args)`` or ``cd.mcp_server(server_object)``.

    A command (``sys.executable, "server.py"``, or ``"npx", "-y", "some-server"``) is started
    as a subprocess speaking MCP over stdio; ``env`` adds environment variables to the few
    the SDK passes on (``PATH``, ``HOME``, ...), ``cwd`` is its working directory. An
    ``mcp`` server object (``MCPServer``, FastMCP renamed, or a low-level ``Server``) runs in
    this process. An ``mcp.StdioServerParameters`` is used as it is.

    Use it in ``with`` / ``async with``: the server starts on entry (raising
    :class:`MCPServerError` with its stderr if it does not within ``start_timeout`` seconds)
    and stops on exit. Then ``.tools()`` gives its tools as conductor tools.
    """
    mcp = _sdk()
    server = command_or_server
    if isinstance(server, (mcp.server.mcpserver.MCPServer, mcp.server.lowlevel.Server)):
        if args or env or cwd:
            raise TypeError("an in-process MCP server takes no command arguments, env= or cwd=")
        return MCPConnection(server, f"{type(server).__name__} {server.name!r}", start_timeout=start_timeout,
                             stdio=False)
    if isinstance(server, mcp.StdioServerParameters):
        if args or env or cwd:
            raise TypeError("give the arguments, env and cwd inside the StdioServerParameters")
        params = server
    elif isinstance(server, (str, os.PathLike)):
        if not all(isinstance(arg, (str, os.PathLike)) for arg in args):
            raise TypeError(f"the command's arguments must be strings; got {args!r:.80}")
        params = mcp.StdioServerParameters(
            command=os.fspath(server), args=[os.fspath(a) for a in args], env=env, cwd=cwd
        )
    else:
        raise TypeError(
            f"cd.mcp_server takes a command and its arguments (cd.mcp_server(sys.executable, 'server.py')) "
            f"or an mcp server object (MCPServer / FastMCP); got a {type(server).__name__}"
        )
    label = shlex.join([params.command, *params.args])
    return MCPConnection(params, f"`{label}`", start_timeout=start_timeout, stdio=True)
