"""The command-line handlers of durable runs (``soak --crash``, ``bench durable``, ``approve``), kept out of
``__main__`` so the parser stays one small edit."""

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
            if args.reject is not None:
                client.reject(args.run_id, args.call_id, args.reject)
            else:
                client.approve(args.run_id, args.call_id)
            print(f"{'rejected' if args.reject is not None else 'approved'} {args.call_id} of {args.run_id}")
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
    parser.add_argument("--database", default="sqlite:///conductor_runs.sqlite",
                        help="the durable runs' database URL (default: sqlite:///conductor_runs.sqlite)")
    parser.set_defaults(handler=run_approve)
