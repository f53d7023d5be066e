"""Command line of the course package: ``python -m conductor <command> ...``.

Each command is one ``add_<name>(subparsers)`` function that defines its
arguments and sets ``handler``: a function taking the parsed arguments and
returning the exit code. A new command is one more such function listed in
:data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from .apis import API_NAMES
from .course.durable_cli import add_approve, add_worker
from .course.runner import (
    CELL_TIMEOUT,
    DEFAULT_JOBS,
    PROVIDERS,
    REFRESH_JOBS,
    CourseError,
    find_root,
    parse_value,
    refresh_notebooks,
    run_course,
)

API_TITLES = {"responses": "Responses", "chat": "Chat Completions", "messages": "Messages"}
"""Each wire API as its provider names it."""

USAGE_ERROR = 2  # argparse's own exit code for bad input


def _run_course(args: argparse.Namespace) -> int:
    """Handler of ``course``: execute the notebooks, return 0 when all ran cleanly, else 1."""
    root = find_root(Path.cwd())
    if args.save_usage and (args.provider or args.api or args.only or args.parameter):
        raise CourseError(
            "--save-usage measures one run of the whole course on the offline default: "
            "drop --provider, --api, --only and -p"
        )
    report = run_course(
        root,
        provider=args.provider,
        api=args.api,
        only=args.only or (),
        out_dir=args.out,
        parameters={name: parse_value(value) for name, value in args.parameter or ()},
        cell_timeout=args.cell_timeout,
        jobs=args.jobs,
    )
    if args.save_usage:
        from .course import cost

        if report.failures:
            print(f"usage not saved: a notebook failed; {cost.USAGE_FILE} is unchanged", file=sys.stderr)
        else:
            saved = cost.save_usage(
                [result.usage for result in report.results if result.usage is not None],
                command="python -m conductor course --save-usage",
            )
            print(f"\n{cost.format_usage(saved)}\n\nusage saved to {cost.USAGE_FILE}")
    return report.exit_code


def add_course(subparsers: argparse._SubParsersAction) -> None:
    """``course``: run every notebook headless with papermill (what ``make course`` does)."""
    parser = subparsers.add_parser(
        "course",
        help="execute every notebook in notebooks/ and demos/ headless",
        description="Execute the course notebooks with papermill, write the executed copies "
        "to --out, print a summary table, exit 1 when a notebook fails.",
    )
    parser.add_argument("--provider", choices=PROVIDERS, help="set each notebook's `provider` parameter")
    parser.add_argument(
        "--api", choices=API_NAMES, help="set each notebook's `api` parameter (default: the provider's own)"
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="PATTERN",
        help="run only notebooks matching PATTERN (a glob, or a substring of folder/name.ipynb); repeatable",
    )
    parser.add_argument("--out", type=Path, help="folder for the executed notebooks (default: build/)")
    parser.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        metavar=("NAME", "VALUE"),
        help="pass a parameter to the notebooks that define it; values convert like papermill's -p",
    )
    parser.add_argument(
        "--cell-timeout",
        type=int,
        default=CELL_TIMEOUT,
        metavar="SECONDS",
        help=f"seconds one cell may run (default: {CELL_TIMEOUT})",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=DEFAULT_JOBS,
        metavar="N",
        help=f"notebooks run at a time, each in its own kernel (default: {DEFAULT_JOBS}); the report keeps their order",
    )
    parser.add_argument(
        "--save-usage",
        action="store_true",
        help="write each notebook's measured token totals to conductor/data/course_usage.json "
        "(whole course, offline default only; `python -m conductor cost` prices them)",
    )
    parser.set_defaults(handler=_run_course)


def _run_refresh(args: argparse.Namespace) -> int:
    """Handler of ``refresh``: re-execute notebooks in place; 1 when one fails."""
    return refresh_notebooks(
        find_root(Path.cwd()), only=args.only or (), cell_timeout=args.cell_timeout, jobs=args.jobs
    ).exit_code


def add_refresh(subparsers: argparse._SubParsersAction) -> None:
    """``refresh``: re-execute notebooks on the offline default and save them, outputs included."""
    parser = subparsers.add_parser(
        "refresh",
        help="re-execute notebooks in place (offline default), ready to commit",
        description="Write the Colab bootstrap cell of conductor/course/colab.py as each selected notebook's first "
        "code cell, execute the notebook with its default parameters and save it in place without run "
        "metadata, so strict nbval compares against fresh outputs.",
    )
    parser.add_argument("--only", action="append", metavar="PATTERN", help="notebooks matching PATTERN; repeatable")
    parser.add_argument("--cell-timeout", type=int, default=CELL_TIMEOUT, metavar="SECONDS")
    parser.add_argument("-j", "--jobs", type=int, default=REFRESH_JOBS, metavar="N",
                        help=f"notebooks run at a time (default: {REFRESH_JOBS})")
    parser.set_defaults(handler=_run_refresh)


def _run_bench(args: argparse.Namespace) -> int:
    """Handler of ``bench``: measure and print one benchmark's table."""
    from .course import bench

    if args.which is None:
        rows = bench.bench_summary()
        bench.print_summary(rows)
        return 0 if all(row.ok for row in rows) else 1  # a missed bar: its row says NO, and exit 1
    elif args.which == "durable":
        from .course import durable_cli

        return durable_cli.run_bench(args)
    elif args.which == "loop":
        bench.print_loop(bench.bench_loops(args.conversations or 200))
    elif args.which == "batch":
        conversations, concurrency = args.conversations or 1000, args.concurrency or 100
        cpu = bench.bench_batch_cpu(conversations, concurrency)
        wall = bench.bench_batch_wall(conversations, concurrency, median=args.model_latency, hand_written=True)
        profile = bench.profile_batch(conversations, concurrency) if args.profile else None
        bench.print_batch(cpu, wall, profile, bench.bench_result_memory(conversations, concurrency))
        if args.ablate:
            print()
            bench.print_ablation(bench.ablate_batch(conversations, concurrency))
    elif args.which == "retry":
        from .course.simulation import simulation_table

        measured = bench.bench_retry(args.conversations) if args.conversations else bench.bench_retry()
        bench.print_retry(measured, simulation_table(args.clients))
    elif args.which == "tracing":
        bench.print_tracing(bench.bench_tracing(args.conversations or 200))
    elif args.which == "scale":
        from .course import scale

        return 0 if scale.print_bench(scale.bench()) else 1  # a missed target: its line says why, and exit 1
    elif args.which == "offline":
        try:
            cases = bench.load_cases(args.cases) if args.cases else bench.CASES
        except ValueError as exc:
            raise CourseError(str(exc)) from exc
        bench.print_offline(bench.bench_offline(bench.OFFLINE_APIS if args.api == "all" else (args.api,), cases))
    elif args.which == "programmatic":
        from .course import programmatic

        return programmatic.print_programmatic(programmatic.bench_programmatic())
    else:
        rows = bench.bench_parallel(latency=args.latency, max_workers=args.max_workers)
        bench.print_parallel(rows, args.max_workers)
    return 0


def add_bench(subparsers: argparse._SubParsersAction) -> None:
    """``bench``: performance figures measured in one run, printed as ratios."""
    parser = subparsers.add_parser(
        "bench",
        help="measure the loop's overhead, the parallel speedup or the offline model's tool calls",
        description="loop: llm.run vs a hand-written SDK loop on the zero-latency offline model. "
        "parallel: one turn of N slow tool calls, sequential vs parallel. "
        "offline: the offline model's first turn on learner-style tools and plain questions. "
        "retry: the cost of Retry + timeout when nothing fails, and the backoff strategies' simulation. "
        "batch: 1,000 conversations through cd.Orchestrator at concurrency 100: CPU against a hand-written "
        "asyncio loop on canned responses, wall time against the ideal at a lognormal model latency, and the "
        "memory kept per result. tracing: bench loop's task with cd.tracing on (spans exported in memory) over off. "
        "scale: one task over catalogues of 10, 62 and 300 tools on each API, the naive loop vs prompt caching, "
        "hosted and client tool search, namespaces, allowed tools and the floor (only the tool the task needs). "
        "programmatic: a small and a large four-call task as tool rounds and as the model's own program. "
        "durable: durable runs (DBOS) against llm.run, per step and per conversation, on SQLite and PostgreSQL.",
    )
    parser.add_argument(
        "which",
        nargs="?",
        choices=["loop", "parallel", "offline", "retry", "batch", "tracing", "scale", "programmatic", "durable"],
        help="what to measure (none: every benchmark, one table of ratios)",
    )
    parser.add_argument(
        "--conversations", type=int, help="conversations (loop: default 200; retry: 1500; batch: 1000)"
    )
    parser.add_argument("--concurrency", type=int, help="conversations at once (batch; default 100)")
    parser.add_argument(
        "--model-latency", type=float, default=0.5, help="median seconds per model request, lognormal (batch wall)"
    )
    parser.add_argument(
        "--profile", action="store_true", help="also print cProfile's top entries for one orchestrator batch (batch)"
    )
    parser.add_argument(
        "--ablate", action="store_true",
        help="also time batch cpu with the tool on threads, the SDK objects kept, no garbage collector, no deadline "
        "(batch)",
    )
    parser.add_argument("--clients", type=int, default=50, help="clients contending in the backoff simulation (retry)")
    parser.add_argument("--latency", type=float, default=0.1, help="seconds each tool sleeps (parallel)")
    parser.add_argument("--max-workers", type=int, default=8, help="parallel thread cap (parallel)")
    parser.add_argument(
        "--api", choices=["responses", "chat", "messages", "all"], default="all", help="wire format to measure (offline)"
    )
    parser.add_argument(
        "--cases", metavar="FILE_OR_MODULE", help="measure the CASES a .py file or module defines (offline)"
    )
    parser.set_defaults(handler=_run_bench)


def _run_exercises(args: argparse.Namespace) -> int:
    """Handler of ``exercises``: 0 when every reference passes and every wrong answer is caught, else 1."""
    from .course import exercises

    rows = exercises.verify_all(tuple(args.lesson) if args.lesson else exercises.LESSONS)
    exercises.print_report(rows, verbose=args.verbose)
    return 0 if all(row.ok for row in rows) else 1


def add_exercises(subparsers: argparse._SubParsersAction) -> None:
    """``exercises``: run every exercise's stub, reference solution and typical wrong answers."""
    parser = subparsers.add_parser(
        "exercises",
        help="check the exercises: references pass, typical wrong answers are caught",
        description="Run each exercise's stub (must say 'not attempted'), reference solution (must pass) "
        "and typical wrong answers (must fail with a message) through its check; exit 1 otherwise.",
    )
    from .course.exercises import LESSONS

    parser.add_argument("--lesson", action="append", choices=LESSONS, help="only this lesson; repeatable")
    parser.add_argument("-v", "--verbose", action="store_true", help="print the message each wrong answer got")
    parser.set_defaults(handler=_run_exercises)


def _run_soak(args: argparse.Namespace) -> int:
    """Handler of ``soak``: 0 when every promise held on every conversation, else 1."""
    from .course import soak

    if args.conversations < 1 or args.workers < 1:
        raise CourseError("--conversations and --workers must be at least 1")
    if args.crash:
        from .course import durable_cli

        return durable_cli.run_crash_soak(args)
    report = soak.soak(args.conversations, seed=args.seed, workers=args.workers, progress=not args.quiet)
    print(report.table())
    print("OK: every promise held" if report.ok else "FAILED: a counter that must be 0 is not")
    return 0 if report.ok else 1


def add_soak(subparsers: argparse._SubParsersAction) -> None:
    """``soak``: thousands of seeded random conversations with faults, checked against the loop's promises."""
    parser = subparsers.add_parser(
        "soak",
        help="run many random offline conversations with faults and check the loop's promises",
        description="Every scenario and learner-style tool, random faults of every kind, random max_rounds, "
        "both APIs, sync and async, parallel on and off, with retries, fallbacks, approvals, loop detection "
        "and budgets; prints the counters that must be 0 and exits 1 when one is not.",
    )
    parser.add_argument("--conversations", type=int, default=10_000, help="how many conversations (default 10000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random mix (the same seed, the same run)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--crash", action="store_true",
                        help="durable runs instead (default 200), the worker SIGKILLed at random and restarted")
    parser.set_defaults(handler=_run_soak)


def _run_cost(args: argparse.Namespace) -> int:
    """Handler of ``cost``: print the estimate of one course run on each default model."""
    from .course import cost

    usage = cost.load_usage()
    if args.notebooks:
        print(cost.format_usage(usage), end="\n\n")
    print(cost.format_table(cost.estimate(usage)))
    print(
        f"\ntokens measured {usage.measured} by `{usage.command}`: every model request of one run of every "
        "lesson and demo, as the offline model counts them; priced with "
        f"{cost.price_source()}"
    )
    return 0


def add_cost(subparsers: argparse._SubParsersAction) -> None:
    """``cost``: what one run of the whole course would cost on each default model, computed offline."""
    parser = subparsers.add_parser(
        "cost",
        help="estimate the cost of one course run on each default model, from the saved token counts",
        description="Price the token totals that `python -m conductor course --save-usage` saved "
        "(conductor/data/course_usage.json) for cd.connect('openai'), cd.connect('openai', api='chat') "
        "and cd.connect('anthropic'), with the bundled price table; no network.",
    )
    parser.add_argument("--notebooks", action="store_true", help="also print each notebook's token totals")
    parser.set_defaults(handler=_run_cost)


def _run_eval(args: argparse.Namespace) -> int:
    """Handler of ``eval``: the lesson 08 dataset, k trials a case; exits 1 when pass^k is under ``--min-pass-k``."""
    from . import evals
    from .course.eval_cases import CASES
    from .display import wrap
    from .providers import OFFLINE_MODEL_NAME, ProviderError, connect

    _check_eval_numbers(args)
    llm = None
    if args.provider != "offline":
        try:
            llm = connect(args.provider, api=args.api, model=args.model)
        except (ProviderError, ValueError) as exc:
            raise CourseError(str(exc)) from exc
    api = llm.api if llm is not None else args.api or "responses"
    model = llm.model if llm is not None else OFFLINE_MODEL_NAME
    where = f"{len(CASES)} cases x {args.k} trials on {args.provider}: model {model}, {API_TITLES[api]} API"
    # The JSON report is the job's artifact on stdout; what it ran on goes to the log then, and into the JSON.
    print(where, file=sys.stderr if args.json else sys.stdout)
    report = evals.evaluate(CASES, k=args.k, llm=llm, api=api, latency_scale=args.latency_scale)
    if args.json:
        print(json.dumps({"provider": args.provider, "api": api, "model": model, **json.loads(report.to_json())},
                         ensure_ascii=False, indent=1))
    else:
        print(report.table())
        failing = [row for row in report.rows() if row["passes"] < row["trials"]]
        if failing:
            print("why the failing cases failed (each case's first failed trial):")
            for row in failing:
                print(wrap(f"{row['case']} ({row['passes']}/{row['trials']} passed): {report.why(row['case'])}",
                           indent="  "))
    if args.min_pass_k is not None and not evals.gate(report, args.min_pass_k):
        print(f"FAILED: pass^{report.k} {report.pass_k:.2f} is under --min-pass-k {args.min_pass_k:.2f}", file=sys.stderr)
        return 1
    return 0


def _check_eval_numbers(args: argparse.Namespace) -> None:
    """A CourseError (exit 2, as argparse's own) naming what to pass, before a trial runs.

    Exit 1 is the --min-pass-k gate's failure: a bad number must not read as a failed evaluation,
    nor fail only after the whole dataset has run.
    """
    if args.k < 1:
        raise CourseError(f"--k is the number of trials per case: pass 1 or more (default 5), not {args.k}")
    if not math.isfinite(args.latency_scale) or args.latency_scale < 0:
        raise CourseError(
            f"--latency-scale multiplies the offline stand-in's latencies: pass a number 0 or more "
            f"(0: no waiting; default 0.02), not {args.latency_scale}"
        )
    if args.min_pass_k is not None and not 0 <= args.min_pass_k <= 1:  # NaN fails both comparisons too
        raise CourseError(
            f"--min-pass-k is the lowest pass^k the gate accepts, a share: pass a number from 0 to 1 "
            f"(e.g. 0.9), not {args.min_pass_k}"
        )


def add_eval(subparsers: argparse._SubParsersAction) -> None:
    """``eval``: the tool-use evaluation of lesson 08."""
    parser = subparsers.add_parser(
        "eval",
        help="evaluate tool use: the lesson 08 dataset, each case k times, pass^1 and pass^k",
        description="Runs the course's evaluation cases (single calls, chains, parallel calls, irrelevance, missing "
        "arguments, faults) k times each on the offline stand-in (its seed varies by trial) or, with a key, a real "
        "model, and prints the per-case rows, pass^1, pass^k, latency and cost.",
    )
    parser.add_argument("--provider", default="offline", help="offline (default), openai or anthropic")
    parser.add_argument("--api", choices=API_NAMES, help="wire API (default: the provider's)")
    parser.add_argument("--model", help="model name (default: the API's)")
    parser.add_argument("--k", type=int, default=5, help="trials per case (default 5)")
    parser.add_argument("--min-pass-k", type=float, metavar="RATE",
                        help="exit 1 when pass^k is under RATE (a CI gate), e.g. 0.9")
    parser.add_argument("--latency-scale", type=float, default=0.02,
                        help="offline stand-in's latencies scaled by this (default 0.02: seconds for the whole run)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(handler=_run_eval)


COMMANDS: tuple[Callable[[argparse._SubParsersAction], None], ...] = (
    add_course,
    add_refresh,
    add_bench,
    add_exercises,
    add_soak,
    add_cost,
    add_eval,
    add_approve,
    add_worker,
)


def build_parser() -> argparse.ArgumentParser:
    """The ``python -m conductor`` parser with every command in :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(prog="python -m conductor", description="The conductor course's commands.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add_command in COMMANDS:
        add_command(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: ``sys.argv[1:]``), run the command, return its exit code."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except CourseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        # The reader stopped early (`... | head`): as the Python docs advise, point stdout at
        # devnull so the interpreter's final flush does not raise a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
