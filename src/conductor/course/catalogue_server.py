"""The course catalogue's two tools as an MCP server over stdio.

    python -m conductor.course.catalogue_server

serves ``get_course_outline`` and ``search_course_content`` (:mod:`conductor.course.catalogue`)
with the ``mcp`` SDK's ``MCPServer`` (FastMCP renamed), so a lesson can connect to it as to
any other MCP server::

    with cd.mcp_server(sys.executable, "-m", "conductor.course.catalogue_server") as server:
        result = llm.run("What's in lesson 2 of the function calling course?", tools=server.tools())

Each tool is listed with the same description and JSON schema as the conductor tool it
serves, and answers with the same dict, as MCP structured content. A course name that
matches nothing is a tool error (``isError``) carrying the catalogue's message, which lists
the courses: the SDK hides the text of any other exception from the client.
:func:`build_server` gives the server object itself, to run in-process
(``cd.mcp_server(build_server())``).
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Sequence
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool as MCPTool

from conductor.course.catalogue import get_course_outline, search_course_content
from conductor.tools import Tool

__all__ = ["build_server", "main", "serve"]

INSTRUCTIONS = (
    "The course catalogue: get_course_outline gives a course's lessons, search_course_content finds "
    "passages in the lesson transcripts. Cite the lesson links the results give."
)


def _served(function: Any, tool: Tool) -> MCPTool:
    """``function`` as an MCP tool listed exactly as the conductor ``tool`` describes itself."""
    served = MCPTool.from_function(function, name=tool.name, description=tool.description, structured_output=True)
    # The SDK builds the schema from the signature (same parameters, same types) but without the
    # docstring's parameter descriptions: list the conductor tool's schema, which has them.
    return served.model_copy(update={"parameters": tool.parameters})


def _raising_tool_errors(tool: Tool) -> Any:
    """``tool``'s function, its ValueError (a message naming the fix) turned into the MCP tool error that
    carries it: the SDK hides the text of any other exception from the client."""

    @functools.wraps(tool.func)
    def call(**arguments: Any) -> Any:
        try:
            return tool.func(**arguments)
        except ValueError as exc:
            raise ToolError(str(exc)) from exc

    # The SDK builds structured output from the return annotation, and refuses a bare `dict`.
    signature = inspect.signature(tool.func, eval_str=True)
    if signature.return_annotation is dict:
        signature = signature.replace(return_annotation=dict[str, Any])
    del call.__wrapped__
    call.__signature__ = signature  # type: ignore[attr-defined]
    call.__annotations__ = {
        **{p.name: p.annotation for p in signature.parameters.values()}, "return": signature.return_annotation
    }
    return call


def serve(name: str, instructions: str, tools: Sequence[Tool]) -> MCPServer:
    """A new MCPServer serving conductor ``tools``, each listed as it describes itself.

    The SDK's ``MCPServer()`` calls ``logging.basicConfig`` (a handler on the root logger, at
    INFO by default): in a notebook that would start printing every library's INFO lines.
    The root logger is left as it was; :func:`main`, a process of its own, logs warnings.
    """
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        return MCPServer(
            name, instructions=instructions, tools=[_served(_raising_tool_errors(t), t) for t in tools]
        )
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def build_server() -> MCPServer:
    """A new MCPServer serving the catalogue's two tools (see :func:`serve`)."""
    return serve("conductor-course-catalogue", INSTRUCTIONS, [get_course_outline, search_course_content])


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")  # stderr: the client keeps it
    build_server().run()  # stdio


if __name__ == "__main__":
    main()
