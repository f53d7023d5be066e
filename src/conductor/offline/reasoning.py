"""The offline model as a reasoning model: what it thinks, and the proofs it hands out.

With ``OfflineModel(reasoning=True)`` the stand-in reasons before it answers,
as OpenAI's gpt-5.x and Claude with extended thinking do. Its reasoning is one
or two sentences built from the decision it is about to render (the question,
then the calls it will make or why it answers now), in the question's
language, so what a learner sees in a thinking block or a reasoning summary is
about the request, not filler.

Real APIs hand reasoning back in a form the client must return unchanged:
Anthropic signs each thinking block (``signature``), OpenAI encrypts each
reasoning item (``encrypted_content``). The stand-in does the same with a key
of its own, so a block that was edited, or a reasoning item that was tampered
with, is refused the way the real API refuses it. The encrypted form follows
the layout of the Fernet tokens OpenAI returns (a version byte, a timestamp,
an IV, the ciphertext and an HMAC, in URL-safe base64: ``gAAAAAB...``); the
cipher is a keystream from SHA-256, enough to make it opaque and
authenticated, not a secret worth protecting.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac

from .conversation import CallTools, Conversation, Decision
from .language import Language, language_of, say
from .preface import plan

__all__ = ["thought", "seal", "unseal", "sign", "signed"]

_QUESTION_CHARS = 80  # of the question quoted at the start of a thought
_SENTENCE_ENDS = frozenset(".?!…。？！")
_VERSION = b"\x80"  # Fernet's version byte: every token starts "gAAAAA"
_IV_BYTES = 16
_MAC_BYTES = 32
_SIGNATURE_HEADER = b"\x12\x40"  # a length-prefixed field, as in Anthropic's signatures ("Ek...")


def _asked(conversation: Conversation, language: Language) -> str:
    question = " ".join(conversation.question.split())
    if not question:
        return ""
    if len(question) > _QUESTION_CHARS:
        question = question[: _QUESTION_CHARS - 1] + "…"
    # A question that ends a sentence itself needs no full stop after the quote.
    stop = "" if question[-1] in _SENTENCE_ENDS else say(language, "。", ".")
    return say(language, f"用户问:“{question}”{stop}", f'The user asks: "{question}"{stop} ')


def _names(names: list[str], language: Language) -> str:
    return ("、" if language == "zh" else ", ").join(names)


def thought(conversation: Conversation, decision: Decision) -> str:
    """What the model reasons before rendering ``decision``: the question, then what it does about it."""
    language = language_of(conversation.question)
    asked = _asked(conversation, language)
    if isinstance(decision, CallTools) and decision.calls:
        doing = plan([(call.name, call.arguments) for call in decision.calls], language)
        plan_zh, plan_en = f"我先{doing},拿到结果后再回答。", f"I'll {doing} first, then answer from the results."
        return asked + say(language, plan_zh, plan_en)
    exchanges = conversation.exchanges()
    if exchanges:
        used = _names(list(dict.fromkeys(call.name for call, _ in exchanges)), language)
        failed = sum(result.is_error for _, result in exchanges)
        done = say(
            language,
            f"{used} 的结果已经拿到({len(exchanges)} 次调用),可以据此回答了。",
            f"I have the results of {used} ({len(exchanges)} call{'s' * (len(exchanges) != 1)}); "
            "I can answer from them now.",
        )
        if failed:
            done += say(language, f"其中 {failed} 次失败,要如实说明。", f" {failed} failed; I must say so.")
        return asked + done
    if conversation.tools_allowed:
        offered = _names(conversation.tool_names, language)
        return asked + say(language, f"这次不调用 {offered},直接回复。", f"I'll reply without calling {offered}.")
    return asked + say(language, "不需要工具,直接回复。", "No tool is needed for this; I'll reply directly.")


def _keystream(key: bytes, iv: bytes, length: int) -> bytes:
    blocks = (hashlib.sha256(key + iv + counter.to_bytes(4, "big")).digest() for counter in range(length // 32 + 1))
    return b"".join(blocks)[:length]


def seal(key: bytes, payload: bytes, created: int) -> str:
    """``payload`` encrypted and authenticated with ``key``: the same inputs give the same token."""
    iv = hmac.new(key, b"iv" + payload, hashlib.sha256).digest()[:_IV_BYTES]
    ciphertext = bytes(a ^ b for a, b in zip(payload, _keystream(key, iv, len(payload))))
    head = _VERSION + created.to_bytes(8, "big") + iv + ciphertext
    return base64.urlsafe_b64encode(head + hmac.new(key, head, hashlib.sha256).digest()).decode()


def unseal(key: bytes, token: str) -> bytes | None:
    """The payload of a token :func:`seal` made with ``key``, or None if it was altered or is not one."""
    try:
        raw = base64.urlsafe_b64decode(token.encode())
    except (binascii.Error, ValueError):
        return None
    head, mac = raw[:-_MAC_BYTES], raw[-_MAC_BYTES:]
    if len(head) < 1 + 8 + _IV_BYTES or not head.startswith(_VERSION):
        return None
    if not hmac.compare_digest(mac, hmac.new(key, head, hashlib.sha256).digest()):
        return None
    iv, ciphertext = head[9 : 9 + _IV_BYTES], head[9 + _IV_BYTES :]
    return bytes(a ^ b for a, b in zip(ciphertext, _keystream(key, iv, len(ciphertext))))


def sign(key: bytes, text: str) -> str:
    """A thinking block's signature: base64 of a MAC of its text."""
    return base64.b64encode(_SIGNATURE_HEADER + hmac.new(key, text.encode(), hashlib.sha512).digest()).decode()


def signed(key: bytes, text: str, signature: object) -> bool:
    """Does ``signature`` come from :func:`sign` for exactly this ``text``?"""
    return isinstance(signature, str) and hmac.compare_digest(signature, sign(key, text))
