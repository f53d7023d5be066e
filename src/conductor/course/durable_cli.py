"""The command-line handlers of durable runs (``soak --crash``, ``bench durable``, ``approve``, ``worker``), kept
out of ``__main__`` so the parser stays one small edit."""

from __future__ import annotations

import argparse
import sys


def run_crash_soak(args: argparse.Namespace) -> int:
    """``soak --crash``: durable conversations on SQLite, the worker killed at random; 1 when one failed."""
    from . import durable_soak

    conversations = args.conversations if args.conversations != 10_000 else 200
    report = durable_soak.crash_soak(conversations, seed=args.seed)
    print(report.line())
    print(report.details())
    ok = report.twice == 0 and report.lost == 0 and report.same == report.conversations
    return 0 if ok else 1


def run_bench(args: argparse.Namespace) -> int:
    """``bench durable``: what durability costs per step and per conversation."""
    from . import durable_bench

    rows = durable_bench.bench(args.conversations or 50)
    durable_bench.print_bench(rows, durable_bench.model_latency_ms())
    return 0


def run_approve(args: argparse.Namespace) -> int:
    """``approve RUN_ID [CALL_ID]``: approve (or, with --reject, deny) a parked durable run's call; without a
    call id, list what the run waits on."""
    from .. import durability

    try:
        with durability.DurableClient(args.database) as client:
            pending = client.pending(args.run_id)
            if not args.call_id:
                print(pending)
                return 0
            denied = args.reject is not None or args.deny
            if denied:
                client.reject(args.run_id, args.call_id, args.reject or "")
            else:
                client.approve(args.run_id, args.call_id)
            print(f"{'rejected' if denied else 'approved'} {args.call_id} of {args.run_id}")
    except (durability.DurableError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def add_approve(subparsers: argparse._SubParsersAction) -> None:
    """``approve``: decide on a call a durable run waits on, from any process."""
    parser = subparsers.add_parser("approve", help="approve or reject a call a parked durable run waits on")
    parser.add_argument("run_id")
    parser.add_argument("call_id", nargs="?", help="the call to decide on (none: list what the run waits on)")
    parser.add_argument("--reject", metavar="REASON", help="reject the call, telling the model REASON")
    parser.add_argument("--deny", action="store_true", help="reject the call without a reason")
    parser.add_argument("--database", default="sqlite:///conductor_runs.sqlite",
                        help="the durable runs' database URL (default: sqlite:///conductor_runs.sqlite)")
    parser.set_defaults(handler=run_approve)


def run_worker(args: argparse.Namespace) -> int:
    """``worker``: serve a database's durable runs with the tools ``--tools`` names, until stopped."""
    import importlib
    import signal
    import threading

    from .. import durability
    from ..providers import connect

    module, _, attribute = args.tools.partition(":")
    try:
        tools = getattr(importlib.import_module(module), attribute or "TOOLS")
    except (ImportError, AttributeError) as exc:
        print(f"error: --tools {args.tools!r}: {exc}; name a module and a list of tools in it, "
              "e.g. --tools myapp.tools:TOOLS (the module must be importable: run from its folder or set PYTHONPATH)",
              file=sys.stderr)
        return 2
    llm = connect(args.provider, model=args.model, api=args.api)
    try:
        app = durability.durable(llm, tools=tools, database=args.database, queue=args.queue,
                                 worker_concurrency=args.concurrency, executor_id=args.executor_id)
    except durability.DurableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    print(f"serving durable runs on {durability._safe(args.database)} (queue {args.queue!r}, tools "
          f"{', '.join(app.tools.names)}, executor {args.executor_id}); Ctrl+C stops", flush=True)
    try:
        stop.wait()
    finally:
        app.shutdown()
    return 0


def add_worker(subparsers: argparse._SubParsersAction) -> None:
    """``worker``: a process that serves the durable runs of one database and queue."""
    parser = subparsers.add_parser("worker", help="serve durable runs (lesson 09) until stopped")
    parser.add_argument("--database", default="sqlite:///conductor_runs.sqlite",
                        help="the durable runs' database URL (default: sqlite:///conductor_runs.sqlite)")
    parser.add_argument("--tools", required=True, metavar="MODULE:LIST",
                        help="where the tools are: a module and the list of tools in it (a run resumes only on a "
                             "worker with the tools it started with)")
    parser.add_argument("--queue", default="conductor", help="the queue to serve (default: conductor)")
    parser.add_argument("--concurrency", type=int, default=None, help="runs at once in this worker")
    parser.add_argument("--executor-id", default="worker-1",
                        help="this worker's own id, the same across its restarts (default: worker-1)")
    parser.add_argument("--provider", default="offline", help="the model's provider (default: offline)")
    parser.add_argument("--model", default=None, help="the model (default: the provider's)")
    parser.add_argument("--api", default=None, help="the wire API (default: the provider's)")
    parser.set_defaults(handler=run_worker)
