"""``solo batch``: play every seed under every card-set variant and compare them (issue 6 items 4-5).

    solo batch SCENARIO --seeds 1-1000 --variant A=house --variant B=my_deck/ \\
        --policy tactical --out results.csv [--jobs N] [--plots DIR] [--turns T] [--quiet] \\
        [--executor local|dask --scheduler ADDRESS]

Every input is checked before the first game (a bad seed range, variant,
scenario, path or executor: one line on standard error, exit 2, nothing
written); the CSV and the plots are written atomically after the last game.
The comparison table goes to standard output, the progress bar and the timing
to standard error.
"""

from __future__ import annotations

import argparse
import sys

from solo.cli.args import bounded
from solo.data.scenario import MAX_TURNS

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
        "--seeds", default="1-100", metavar="RANGE", help="seeds: 1-1000, 7, or 1,5,10-20 (default 1-100)"
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
    p.set_defaults(func=_cmd_batch)


def _cmd_batch(args: argparse.Namespace) -> int:
    from solo.playtest import batch, batch_plots, batch_records, batch_setup, batch_stats

    # Every check before the first game: nothing is written on bad input.
    seeds = batch_setup.parse_seeds(args.seeds)
    variants = [batch_setup.Variant.parse(v) for v in args.variant]
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
    written = []
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


def _progress_bar(total: int, *, quiet: bool):
    """A tqdm bar on standard error, or None when quiet or standard error is not a terminal."""
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # no monitor thread: the worker processes are forked after this
    return tqdm(total=total, unit="game", desc="solo batch", file=sys.stderr, dynamic_ncols=True)
