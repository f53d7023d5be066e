"""Decision policies of the offline model (scenario policies are filled in by the scenarios work).

``decide`` asks the given policies in order, then the registered ones, and
enforces the request's constraints on whatever they decide, the way a real API
constrains a real model: ``tool_choice`` none means text, ``parallel_tool_calls``
false means at most one call, and only offered tools can be called.
"""

from __future__ import annotations

from collections.abc import Iterable

from .conversation import CallTools, Conversation, Decision, Policy, Reply

_REGISTERED: list[Policy] = []


def register_policy(policy: Policy) -> Policy:
    """Add a policy every offline model consults (after its own); usable as a decorator."""
    _REGISTERED.append(policy)
    return policy


def _fallback(conversation: Conversation) -> Reply:
    return Reply("I am the offline stand-in model and have no policy for this request.")


def decide(conversation: Conversation, policies: Iterable[Policy] = ()) -> Decision:
    """The offline model's decision for one request."""
    decision: Decision | None = None
    for policy in [*policies, *_REGISTERED]:
        decision = policy(conversation)
        if decision is not None:
            break
    if decision is None:
        decision = _fallback(conversation)
    return _constrain(conversation, decision)


def _constrain(conversation: Conversation, decision: Decision) -> Decision:
    if isinstance(decision, Reply):
        return decision
    if not conversation.tools_allowed:
        return _fallback(conversation)
    calls = decision.calls
    if not conversation.parallel_tool_calls:
        calls = calls[:1]
    return CallTools(calls, decision.text)
