"""Many clients, one contended server: which backoff finishes first, and with how many calls?

A discrete-event simulation on a simulated clock (nothing sleeps, so a run is
instant and the same seed gives the same figures). It follows the set-up of
AWS's "Exponential Backoff And Jitter" (AWS Architecture Blog): ``clients``
clients start at the same moment; each must get one request through; every
message crosses a network whose one-way delay is ``abs(normal(mean, sd))``; a
client whose request is refused waits the backoff of :mod:`conductor.backoff`
and tries again.

Two servers are modelled:

* ``"occ"`` (AWS's model): one row updated with optimistic concurrency. A client
  reads the row's version, then writes with that version; the write succeeds
  only if nobody wrote in between. Counted calls are writes.
* ``"rate_limit"``: a server that accepts at most ``capacity`` requests per
  ``window`` seconds and answers the rest with 429. Counted calls are requests.

Strategies: the four jitters of :data:`conductor.backoff.JITTERS` (``"none"`` is
plain exponential backoff) plus ``"no backoff"``, which retries at once.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from ..backoff import JITTERS, Jitter, backoff_delay

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "Strategy",
    "STRATEGIES",
    "LABELS",
    "Contention",
    "Trial",
    "StrategyResult",
    "simulate",
    "compare",
    "sweep",
    "format_table",
    "simulation_table",
    "chart",
]

Strategy = Literal["none", "full", "equal", "decorrelated", "no backoff"]
STRATEGIES: tuple[Strategy, ...] = ("none", "full", "equal", "decorrelated", "no backoff")
LABELS: dict[str, str] = {
    "none": "exponential, no jitter",
    "full": "full jitter",
    "equal": "equal jitter",
    "decorrelated": "decorrelated jitter",
    "no backoff": "no backoff",
}
"""How tables and charts name each strategy."""

Server = Literal["occ", "rate_limit"]
MAX_CALLS_PER_CLIENT = 10_000  # a run that needs more is a broken set-up, not a slow strategy


@dataclass(frozen=True)
class Contention:
    """The simulated set-up; times in seconds. The defaults are AWS's: 10 ms network, 5 ms base, 2 s cap."""

    clients: int = 50
    server: Server = "occ"
    base: float = 0.005
    cap: float = 2.0
    network: float = 0.010
    network_sd: float = 0.002
    capacity: int = 1  # rate_limit: requests accepted per window
    window: float = 0.010  # rate_limit: seconds per window

    def __post_init__(self) -> None:
        if isinstance(self.clients, bool) or not isinstance(self.clients, int) or self.clients < 1:
            raise ValueError(f"clients must be a whole number >= 1, got {self.clients!r}")
        if self.server not in ("occ", "rate_limit"):
            raise ValueError(f"unknown server {self.server!r}; choose 'occ' or 'rate_limit'")
        if self.capacity < 1 or self.window <= 0:
            raise ValueError("a rate-limited server needs capacity >= 1 and a window > 0 seconds")
        if self.network < 0 or self.network_sd < 0:
            raise ValueError("network delay and its sd must be >= 0 seconds")


@dataclass(frozen=True)
class Trial:
    """One simulated run: total calls and the moment the last client succeeded."""

    calls: int
    time: float


@dataclass(frozen=True)
class StrategyResult:
    """A strategy's figures averaged over ``trials`` runs of one set-up."""

    strategy: Strategy
    clients: int
    trials: int
    calls: float  # mean total calls per run
    time: float  # mean seconds until the last client succeeded

    @property
    def label(self) -> str:
        return LABELS[self.strategy]

    @property
    def calls_per_client(self) -> float:
        """Work per client: the calls one client made on average to get one request through."""
        return self.calls / self.clients


@dataclass
class _Client:
    """A client's retry state: retries made so far and the last backoff it waited."""

    retries: int = 0
    previous: float | None = None


@dataclass(order=True)
class _Event:
    """A message arriving at the server at ``time`` (``seq`` keeps equal times in order of sending)."""

    time: float
    seq: int
    client: int = field(compare=False)
    kind: str = field(compare=False)  # "read" or "write" (occ); "request" (rate_limit)
    version: int = field(compare=False, default=0)


class _Run:
    """One trial of one strategy: an event queue, the server's state, the clients' retry state."""

    def __init__(self, strategy: Strategy, setup: Contention, rng: random.Random) -> None:
        self.strategy, self.setup, self.rng = strategy, setup, rng
        self.queue: list[_Event] = []
        self.seq = 0
        self.clients = [_Client() for _ in range(setup.clients)]
        self.version = 0  # occ: the row's version
        self.windows: dict[int, int] = {}  # rate_limit: window number -> requests accepted
        self.calls = 0
        self.finished = 0.0

    def hop(self) -> float:
        """One network crossing."""
        return abs(self.rng.normalvariate(self.setup.network, self.setup.network_sd))

    def send(self, time: float, client: int, kind: str, version: int = 0) -> None:
        self.seq += 1
        heapq.heappush(self.queue, _Event(time, self.seq, client, kind, version))

    def first_kind(self) -> str:
        return "read" if self.setup.server == "occ" else "request"

    def wait(self, client: int) -> float:
        """The refused client's backoff before its next try."""
        state = self.clients[client]
        state.retries += 1
        if self.strategy == "no backoff":
            return 0.0
        jitter: Jitter = self.strategy
        state.previous = backoff_delay(
            jitter, state.retries, base=self.setup.base, cap=self.setup.cap, previous=state.previous, rng=self.rng
        )
        return state.previous

    def refused(self, time: float, client: int) -> None:
        """The refusal travels back, the client waits, its next try travels out."""
        if self.clients[client].retries >= MAX_CALLS_PER_CLIENT:
            raise RuntimeError(f"a client made {MAX_CALLS_PER_CLIENT} calls: raise base or cap, or add capacity")
        self.send(time + self.hop() + self.wait(client) + self.hop(), client, self.first_kind())

    def accepted(self, time: float) -> None:
        self.finished = max(self.finished, time + self.hop())

    def handle(self, event: _Event) -> None:
        if event.kind == "read":  # the version travels back, the write with it travels out
            self.send(event.time + self.hop() + self.hop(), event.client, "write", self.version)
            return
        self.calls += 1
        if event.kind == "write":
            ok = event.version == self.version
            self.version += ok
        else:
            slot = int(event.time // self.setup.window)
            ok = self.windows.get(slot, 0) < self.setup.capacity
            self.windows[slot] = self.windows.get(slot, 0) + ok
        if ok:
            self.accepted(event.time)
        else:
            self.refused(event.time, event.client)

    def run(self) -> Trial:
        for client in range(self.setup.clients):
            self.send(self.hop(), client, self.first_kind())
        while self.queue:
            self.handle(heapq.heappop(self.queue))
        return Trial(self.calls, self.finished)


def simulate(strategy: Strategy, setup: Contention = Contention(), *, seed: int = 0) -> Trial:
    """One run of ``strategy`` on ``setup``, on a simulated clock seeded with ``seed``."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of: {', '.join(map(repr, STRATEGIES))}")
    return _Run(strategy, setup, random.Random(seed)).run()


def compare(
    setup: Contention = Contention(),
    strategies: Sequence[Strategy] = STRATEGIES,
    *,
    trials: int = 20,
    seed: int = 0,
) -> list[StrategyResult]:
    """Each strategy's mean calls and time over ``trials`` seeded runs of ``setup``.

    Trial ``i`` of every strategy uses the seed ``seed + i``, so strategies meet
    the same network draws at the start.
    """
    if trials < 1:
        raise ValueError(f"trials must be >= 1, got {trials!r}")
    results = []
    for strategy in strategies:
        runs = [simulate(strategy, setup, seed=seed + i) for i in range(trials)]
        results.append(
            StrategyResult(
                strategy=strategy,
                clients=setup.clients,
                trials=trials,
                calls=sum(r.calls for r in runs) / trials,
                time=sum(r.time for r in runs) / trials,
            )
        )
    return results


def sweep(
    clients: Sequence[int] = (10, 20, 30, 40, 50),
    setup: Contention = Contention(),
    strategies: Sequence[Strategy] = STRATEGIES,
    *,
    trials: int = 10,
    seed: int = 0,
) -> list[StrategyResult]:
    """:func:`compare` for each number of clients, as AWS's charts plot them."""
    return [r for n in clients for r in compare(replace(setup, clients=n), strategies, trials=trials, seed=seed)]


def format_table(results: Sequence[StrategyResult]) -> str:
    """A plain-text table: strategy, clients, mean calls, calls per client, mean time in ms.

    Times are simulated, so the figures repeat exactly for the same seed; the
    unit sits in the header so the numbers print bare.
    """
    width = max(len("strategy"), *(len(r.label) for r in results))
    lines = [
        f"{'strategy':<{width}}  {'clients':>7}  {'calls':>7}  {'per client':>10}  {'time (ms)':>9}",
        f"{'-' * width}  {'-' * 7}  {'-' * 7}  {'-' * 10}  {'-' * 9}",
    ]
    lines += [
        f"{r.label:<{width}}  {r.clients:>7}  {r.calls:>7.0f}  {r.calls_per_client:>10.1f}  {r.time * 1000:>9.0f}"
        for r in results
    ]
    return "\n".join(lines)


def simulation_table(clients: int = 50, *, server: Server = "occ", trials: int = 20, seed: int = 0) -> str:
    """The comparison of every strategy for ``clients`` clients, as a table with a one-line heading."""
    setup = Contention(clients=clients, server=server)
    if server == "occ":
        what = "one row, optimistic writes"
    else:
        what = f"at most {setup.capacity} request(s) per {setup.window * 1000:g} ms"
    heading = f"{clients} clients contending ({what}); mean of {trials} simulated runs, seed {seed}"
    return heading + "\n" + format_table(compare(setup, trials=trials, seed=seed))


def chart(results: Sequence[StrategyResult], *, title: str | None = None) -> Figure:
    """Calls and completion time per strategy: lines against clients for a sweep, bars for one set-up."""
    from ..charts import _figure  # the course's figure set-up: shown inline in Jupyter, CJK fonts

    figure = _figure((10, 4))
    calls_axes, time_axes = figure.subplots(1, 2)
    strategies = list(dict.fromkeys(r.strategy for r in results))
    client_counts = sorted({r.clients for r in results})
    for axes, value, ylabel in (
        (calls_axes, lambda r: r.calls, "total calls"),
        (time_axes, lambda r: r.time * 1000, "time until the last client is done (ms)"),
    ):
        if len(client_counts) > 1:
            for strategy in strategies:
                rows = sorted((r for r in results if r.strategy == strategy), key=lambda r: r.clients)
                axes.plot([r.clients for r in rows], [value(r) for r in rows], marker="o", label=LABELS[strategy])
            axes.set_xlabel("clients")
        else:
            axes.bar([LABELS[r.strategy].replace(", ", ",\n") for r in results], [value(r) for r in results])
            axes.tick_params(axis="x", labelsize=8)
        axes.set_ylabel(ylabel)
    if len(client_counts) > 1:
        calls_axes.legend(fontsize=8)
    figure.suptitle(title or "Backoff strategies, simulated (mean of the runs)")
    return figure


assert set(STRATEGIES[:4]) == set(JITTERS)  # the jitter strategies are exactly backoff's: keep them in step
