"""The offline model: a deterministic stand-in LLM for the course.

It answers the official ``openai`` and ``anthropic`` clients through an
``httpx2.MockTransport``, on OpenAI's Responses and Chat Completions APIs and
Anthropic's Messages API (JSON and SSE), rejects what the real APIs reject with
their error texts, takes real time to answer, can be a reasoning model, and can
be told to fail the way real APIs fail::

    from conductor.offline import OfflineModel
    model = OfflineModel(seed=0)            # OfflineModel(reasoning=True): a reasoning model
    client = model.openai_client()          # client.responses / client.chat.completions; or model.anthropic_client()
    model.inject("rate_limit", retry_after=0.01)   # a 429 with the real headers and text
    model.inject("quota")                           # a 429 that no retry cures (billing)

Importing this package does not import the SDKs; the client methods do.
"""

from __future__ import annotations

from .conversation import CallTools, Conversation, Decision, PlannedCall, Policy, Reply
from .faults import FAULT_KINDS, Fault
from .latency import LatencyModel
from .model import OfflineModel, RecordedRequest
from .policies import POLICIES, decide, register_policy, unregister_policy, using_policy
from .tokens import estimate_tokens

__all__ = [
    "OfflineModel",
    "RecordedRequest",
    "Fault",
    "FAULT_KINDS",
    "LatencyModel",
    "estimate_tokens",
    "register_policy",
    "unregister_policy",
    "using_policy",
    "POLICIES",
    "decide",
    "Conversation",
    "Reply",
    "CallTools",
    "PlannedCall",
    "Decision",
    "Policy",
]
