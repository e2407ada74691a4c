"""``solo batch``: play every seed under every card-set variant and compare them (issue 6 items 4-5).

    solo batch SCENARIO --seeds 1-1000 --variant A=house --variant B=my_deck/ \\
        --policy tactical --out results.csv [--jobs N] [--plots DIR] [--turns T] [--quiet] \\
        [--executor local|dask --scheduler ADDRESS]
    solo batch SCENARIO --variant A=house --variant B=my_deck/ --until-decided \
        [--measure friendly_win|COLUMN] [--d0 X] [--d1 Y] [--alpha 0.05] [--beta 0.05] \
        [--max-games N] [--round N]

``--until-decided`` plays paired seeds in rounds and stops when a sequential test
(:mod:`solo.playtest.batch_sequential`) accepts "no change" (H0) or "the change" (H1),
or at ``--max-games``; it prints the games played, the decision and the interval.

Every input is checked before the first game (a bad seed range, variant,
scenario, path or executor: one line on standard error, exit 2, nothing
written); the CSV and the plots are written atomically after the last game.
The comparison table goes to standard output, the progress bar and the timing
to standard error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from solo.cli.args import bounded
from solo.data.scenario import MAX_TURNS

if TYPE_CHECKING:
    from solo.playtest.batch_records import GameRecord

_DEFAULT_SEEDS = "1-100"

EXIT_OK = 0


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add the ``batch`` subcommand to the ``solo`` parser."""
    p = sub.add_parser(
        "batch",
        help="play many seeds under card-set variants and compare them (CSV, table, plots)",
        description="Play every seed under every variant with the same seeds (common random numbers), "
        "on all cores, then print per-variant means with 95% intervals and the paired difference "
        "of each variant from the first.",
    )
    p.add_argument("scenario", metavar="SCENARIO", help="shipped scenario id or a scenario file")
    p.add_argument(
        "--seeds",
        metavar="RANGE",
        help="seeds: 1-1000, 7, or 1,5,10-20 (default 1-100; with --until-decided, the seeds to take in "
        "order, default 1 up to half of --max-games)",
    )
    p.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME=DIR",
        help="a card set: DIR's card files replace the shipped ones; DIR=house (or cards/house) is the "
        "shipped set. Repeatable; the first is the baseline. Default: house=house",
    )
    p.add_argument(
        "--policy", default="tactical", help="Friendly policy: tactical, simple or random (default tactical)"
    )
    p.add_argument("--out", metavar="CSV", help="write one row per game here (sorted by variant, seed)")
    p.add_argument("--plots", metavar="DIR", help="write vp.png and enemy_orders.png here")
    p.add_argument(
        "--jobs", type=bounded(1), metavar="N", help="worker processes (default: every core; 1: in-process)"
    )
    p.add_argument("--turns", type=bounded(1, MAX_TURNS), metavar="T", help="stop every game after T turns")
    p.add_argument("--executor", default="local", choices=("local", "dask"), help="where games run")
    p.add_argument("--scheduler", metavar="ADDRESS", help="Dask scheduler address, for --executor dask")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    seq = p.add_argument_group(
        "stop when decided",
        "Two variants (A the baseline, B the change) play paired seeds in rounds until a sequential "
        "test on B - A accepts H0 (the difference is d0) or H1 (it is d1), or --max-games is reached.",
    )
    seq.add_argument("--until-decided", action="store_true", help="stop as soon as the test decides")
    seq.add_argument(
        "--measure",
        default="friendly_win",
        metavar="COLUMN",
        help="friendly_win (1 for a Friendly win: the win rate; default) or a numeric CSV column "
        "(vp, turns, enemy_killed, order_<id>...)",
    )
    seq.add_argument("--d0", type=float, default=0.0, metavar="X", help="H0: B - A is X (default 0)")
    seq.add_argument(
        "--d1",
        type=float,
        metavar="Y",
        help="H1: B - A is Y (default 0.05 for friendly_win, i.e. 5 points; needed for another measure)",
    )
    seq.add_argument("--alpha", type=float, default=0.05, help="chance of accepting H1 when H0 holds (0.05)")
    seq.add_argument("--beta", type=float, default=0.05, help="chance of accepting H0 when H1 holds (0.05)")
    seq.add_argument(
        "--max-games", type=bounded(4), default=20_000, metavar="N", help="stop after N games (default 20000)"
    )
    seq.add_argument(
        "--round", type=bounded(1), default=100, metavar="N", help="paired seeds per round (default 100)"
    )
    p.set_defaults(func=_cmd_batch)


def _cmd_batch(args: argparse.Namespace) -> int:
    from solo.playtest import batch, batch_plots, batch_records, batch_setup, batch_stats

    # Every check before the first game: nothing is written on bad input.
    if args.until_decided:
        return _cmd_until_decided(args)
    _refuse_sequential_options(args)
    seeds = batch_setup.parse_seeds(args.seeds or _DEFAULT_SEEDS)
    variants = [batch_setup.Variant.parse(v) for v in args.variant]
    _check_outputs_and_executor(args)
    spec = batch_setup.prepare(args.scenario, variants, policy=args.policy, turns=args.turns)
    for v in spec.variants:
        if v.ignored:
            print(
                f"solo batch: variant {v.name}: not card files, ignored: {', '.join(v.ignored)}",
                file=sys.stderr,
            )

    total = len(seeds) * len(spec.variants)
    bar = _progress_bar(total, quiet=args.quiet)
    try:
        result = batch.run_batch(
            spec,
            seeds,
            jobs=args.jobs,
            executor=args.executor,
            scheduler=args.scheduler,
            progress=bar.update if bar is not None else None,
        )
    finally:
        if bar is not None:
            bar.close()

    ids = result.order_ids
    if args.out:
        batch_records.write_csv(args.out, result.records, ids)
    written: Sequence[Path] = ()
    if args.plots:
        written = batch_plots.write_plots(
            args.plots, result.records, result.variants, order_ids=ids, title=f"{spec.scenario}"
        )
    comp = batch_stats.compare(result.records, result.variants, order_ids=ids)
    title = (
        f"{spec.scenario}: {len(seeds)} seed(s) x {len(spec.variants)} variant(s) "
        f"({', '.join(str(v.name) + '=' + v.cards for v in spec.variants)}), policy {spec.policy}"
        + (f", {args.turns} turn(s)" if args.turns else "")
    )
    print(batch_stats.format_comparison(comp, title=title))
    if args.out:
        print(f"Wrote {args.out} ({result.games} games).")
    for p in written:
        print(f"Wrote {p}.")
    sys.stdout.flush()
    where = f"Dask at {args.scheduler}" if args.executor == "dask" else f"{result.workers} process(es)"
    print(
        f"solo batch: {result.games} games in {result.seconds:.1f} s "
        f"({result.games_per_second:.1f} games/s, {where}).",
        file=sys.stderr,
    )
    return EXIT_OK


def _refuse_sequential_options(args: argparse.Namespace) -> None:
    """The options of --until-decided, given without it: a BatchError (exit 2)."""
    from solo.playtest.batch_setup import BatchError

    given = [
        flag
        for flag, value, default in (
            ("--measure", args.measure, "friendly_win"),
            ("--d0", args.d0, 0.0),
            ("--d1", args.d1, None),
            ("--alpha", args.alpha, 0.05),
            ("--beta", args.beta, 0.05),
            ("--max-games", args.max_games, 20_000),
            ("--round", args.round, 100),
        )
        if value != default
    ]
    if given:
        raise BatchError(f"{', '.join(given)}: only with --until-decided")


def _cmd_until_decided(args: argparse.Namespace) -> int:
    """``solo batch --until-decided``: paired seeds in rounds until the sequential test decides."""
    from solo.playtest import batch, batch_plots, batch_records, batch_sequential, batch_setup, batch_stats

    variants = [batch_setup.Variant.parse(v) for v in args.variant]
    if len(variants) != 2:
        raise batch_setup.BatchError(
            f"--until-decided compares two variants (--variant A=... --variant B=...), got {len(variants)}"
        )
    d1 = args.d1
    if d1 is None:
        if args.measure != batch_sequential.WIN:
            raise batch_setup.BatchError(f"--measure {args.measure}: give --d1 (the difference that matters)")
        d1 = batch_sequential.DEFAULT_D1_WIN
    values = batch_sequential.WIN_VALUES if args.measure == batch_sequential.WIN else ()
    test = batch_sequential.SequentialTest(args.d0, d1, args.alpha, args.beta, values)
    seeds = batch_setup.parse_seeds(args.seeds) if args.seeds else tuple(range(1, args.max_games // 2 + 1))
    _check_outputs_and_executor(args)
    spec = batch_setup.prepare(args.scenario, variants, policy=args.policy, turns=args.turns)
    known_orders = sorted({o.id for v in spec.variants for o in v.data.orders})
    value = batch_sequential.measure_of(args.measure, known_orders)
    a, b = (v.name for v in spec.variants)

    records: list[GameRecord] = []
    seconds = 0.0
    workers = 1
    bar = _progress_bar(min(len(seeds), args.max_games // 2) * 2, quiet=args.quiet)

    def play(block: Sequence[int]) -> list[float]:
        nonlocal seconds, workers
        got = batch.run_batch(
            spec,
            block,
            jobs=args.jobs,
            executor=args.executor,
            scheduler=args.scheduler,
            progress=bar.update if bar is not None else None,
        )
        records.extend(got.records)
        seconds += got.seconds
        workers = got.workers
        by = {(r.variant, r.seed): value(r) for r in got.records}
        return [by[(b, s)] - by[(a, s)] for s in block]

    try:
        verdict = batch_sequential.until_decided(
            test, play, seeds, variants=2, round_pairs=args.round, max_games=args.max_games
        )
    finally:
        if bar is not None:
            bar.close()
    records.sort(key=lambda r: (r.variant, r.seed))
    ids = batch_records.order_columns(records, [v.data for v in spec.variants])
    if args.out:
        batch_records.write_csv(args.out, records, ids)
    written: Sequence[Path] = ()
    if args.plots:
        written = batch_plots.write_plots(
            args.plots, records, (a, b), order_ids=ids, title=f"{spec.scenario}"
        )
    comp = batch_stats.compare(records, (a, b), order_ids=ids)
    title = (
        f"{spec.scenario}: {verdict.pairs} seed(s) x 2 variant(s) "
        f"({', '.join(str(v.name) + '=' + v.cards for v in spec.variants)}), policy {spec.policy}"
        + (f", {args.turns} turn(s)" if args.turns else "")
    )
    print(batch_stats.format_comparison(comp, title=title))
    print()
    print(verdict.text(args.measure))
    if args.out:
        print(f"Wrote {args.out} ({len(records)} games).")
    for p in written:
        print(f"Wrote {p}.")
    sys.stdout.flush()
    where = f"Dask at {args.scheduler}" if args.executor == "dask" else f"{workers} process(es)"
    rate = len(records) / seconds if seconds > 0 else float("inf")
    print(
        f"solo batch: {len(records)} games in {seconds:.1f} s ({rate:.1f} games/s, {where}).",
        file=sys.stderr,
    )
    return EXIT_OK


def _progress_bar(total: int, *, quiet: bool):
    """A tqdm bar on standard error, or None when quiet or standard error is not a terminal."""
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # no monitor thread: the worker processes are forked after this
    return tqdm(total=total, unit="game", desc="solo batch", file=sys.stderr, dynamic_ncols=True)


def _check_outputs_and_executor(args: argparse.Namespace) -> None:
    """``--out``, ``--plots`` and ``--executor``/``--scheduler`` checked before the first game
    (nothing is written on bad input). Raises BatchError or DataError naming the flag."""
    from solo.playtest import batch, batch_records, batch_setup

    if args.out:
        batch_records.check_out_path(args.out)
    if args.plots:
        batch_records.check_plots_dir(args.plots)
    if args.executor == "dask":
        if not args.scheduler:
            raise batch_setup.BatchError(
                "--executor dask needs --scheduler ADDRESS (e.g. tcp://10.0.0.5:8786)"
            )
        batch.check_scheduler(args.scheduler)
    elif args.scheduler:
        raise batch_setup.BatchError("--scheduler is for --executor dask")
