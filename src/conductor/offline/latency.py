"""How long the offline model takes to answer.

A real model's latency is a time to first token (queueing plus reading the
prompt) followed by a steady time per generated token. The offline model sleeps
for real (``time.sleep`` / ``asyncio.sleep``), so timings measured in the
notebooks are measurements, not made-up numbers. The jitter of each request is
drawn from a generator seeded by the request itself, so the same request takes
the same (nominal) time on every run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["LatencyModel", "Timing"]


@dataclass(frozen=True)
class Timing:
    """The delays of one response: before the first token, and per token after it."""

    first_token: float
    per_token: float

    def total(self, tokens: int) -> float:
        """Seconds to generate ``tokens`` output tokens in one piece."""
        return self.first_token + self.per_token * tokens


@dataclass(frozen=True)
class LatencyModel:
    """Time to first token plus time per output token, with jitter.

    Args:
        ttft: mean seconds before the first token.
        per_token: mean seconds per output token after the first.
        per_input_token: seconds per prompt token not read from the prompt cache, before the first token.
        jitter: relative spread; each delay is scaled by a factor drawn
            uniformly from ``[1 - jitter, 1 + jitter]``.
        scale: multiplies every delay; 0 means no sleeping at all (tests).

    The defaults (0.25 s + 4 ms per token) make a typical tool-calling request
    of 20-80 output tokens take roughly 0.3-0.6 s, in the range of a small
    hosted model.
    """

    ttft: float = 0.25
    per_token: float = 0.004
    jitter: float = 0.2
    scale: float = 1.0
    # Reading the prompt: seconds per prompt token not read from the prompt cache, added to the first token's
    # delay (100,000 tokens a second). A cached prefix is not read again, which is why it is faster: OpenAI's
    # cookbook measured time to first token 7% lower at 1,024 cached tokens and 67% lower past 150,000.
    per_input_token: float = 0.00001

    def __post_init__(self) -> None:
        if min(self.ttft, self.per_token, self.scale, self.per_input_token) < 0:
            raise ValueError("LatencyModel delays and scale must be >= 0")
        if not 0 <= self.jitter < 1:
            raise ValueError(f"LatencyModel jitter must be in [0, 1), got {self.jitter}")

    @classmethod
    def instant(cls) -> LatencyModel:
        """A model that never sleeps (for tests)."""
        return cls(scale=0.0)

    def timing(self, key: int, prompt_tokens: int = 0) -> Timing:
        """The delays for the request identified by ``key`` (a hash of the request and seed), which reads
        ``prompt_tokens`` prompt tokens that are not in the prompt cache."""
        if self.scale == 0:
            return Timing(0.0, 0.0)
        rng = random.Random(key)
        first = (self.ttft + self.per_input_token * prompt_tokens) * (1 + self.jitter * (2 * rng.random() - 1))
        per_token = self.per_token * (1 + self.jitter * (2 * rng.random() - 1))
        return Timing(first * self.scale, per_token * self.scale)
