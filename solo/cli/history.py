"""``solo inspect``, ``solo branch`` and ``solo bookmark``: a log at any point, what-if branches (issue 6).

* ``solo inspect LOG [--to POINT] [--spoilers] [--list]``: rebuild the game of a
  log at a point and print what it looks like (positions, orders, morale,
  markers, the Initiative Track); ``--list`` lists every decision instead.
* ``solo branch LOG@POINT --out NEW.jsonl [--dice FILE] [--policy NAME]``:
  the log up to the point, then played on by a policy (optionally with forced
  dice and cards for the next draws); the new log names its parent and the
  branch point, and ``solo replay NEW.jsonl`` replays it exactly.
* ``solo bookmark LOG [NAME POINT] [--remove NAME]``: list, set or remove the
  named points stored in the log header.

A POINT is ``TURN.IMPULSE`` (impulse 0 = before Impulse 1; the first decision
at or after it, since the engine stops only at decisions), ``#N`` (the N-th
decision, from 0) or a bookmark name. Bad input (a malformed point, a point
past the end of the log, a log from another data version, a bad dice file)
raises :class:`~solo.core.errors.SoloError`: the main CLI prints one line and
exits 2, and nothing is written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from solo.cli.args import bounded
from solo.core.errors import SoloError

__all__ = ["add_parsers"]

EXIT_OK = 0


def _cmd_inspect(args: argparse.Namespace) -> int:
    from solo.playtest.history import History
    from solo.playtest.history_view import summary_at

    hist = History.from_log(args.log)
    if args.list:
        for p in hist.positions():
            print(p.label)
        for name, index in sorted(hist.bookmarks.items(), key=lambda kv: (kv[1], kv[0])):
            print(f"bookmark {name}: #{index}")
        return EXIT_OK
    index = hist.resolve(args.to) if args.to is not None else hist.last
    pos = hist.position(index)
    game = hist.at(index)
    head = f"{args.log}: decision #{index} of {hist.last}, turn {pos.turn} impulse {pos.impulse}"
    if args.to is not None:
        head += f" (asked for {args.to})"
    print(head + ".")
    print(summary_at(game, spoilers=args.spoilers))
    return EXIT_OK


def _cmd_branch(args: argparse.Namespace) -> int:
    from solo.cli.forced import _read_dice_file
    from solo.playtest.history import History, split_log_point
    from solo.playtest.history_branch import save_game
    from solo.playtest.history_view import summary_at
    from solo.playtest.policies import make_policy

    parent, point = split_log_point(args.source)
    out = Path(args.out)
    if out.exists() and out.resolve() == Path(parent).resolve():
        raise SoloError(f"--out {args.out} is the parent log: a branch is written to a new file")
    hist = History.from_log(parent)
    index = hist.resolve(point)
    dice, cards = _read_dice_file(args.dice) if args.dice else ([], {})
    try:
        policy = make_policy(args.policy, seed=args.policy_seed, script=args.script)
    except ValueError as exc:
        raise SoloError(str(exc)) from None
    game = hist.branch(index, forced_dice=dice, forced_cards=cards)
    pos = hist.position(index)
    game.play(policy)
    save_game(game, out, policy=args.policy)
    print(summary_at(game))
    forced = (
        f", {len(dice)} forced dice and {sum(len(v) for v in cards.values())} forced cards"
        if args.dice
        else ""
    )
    print(
        f"Branch of {parent} at decision #{index} (turn {pos.turn} impulse {pos.impulse}){forced}, "
        f"played on by the {args.policy} policy: written to {out} ({len(game.events)} events)."
    )
    return EXIT_OK


def _cmd_bookmark(args: argparse.Namespace) -> int:
    from solo.playtest.history import History

    hist = History.from_log(args.log)
    if args.remove:
        for name in args.remove:
            hist.remove_bookmark(name)
    if args.name is not None:
        if args.point is None:
            raise SoloError("a bookmark needs a NAME and a POINT (e.g. solo bookmark game.jsonl ambush 3.2)")
        index = hist.add_bookmark(args.name, args.point)
        print(f"bookmark {args.name}: #{index} ({hist.position(index).label})")
    if args.remove or args.name is not None:
        hist.save()
        print(f"{args.log}: {len(hist.bookmarks)} bookmark(s) saved.")
        return EXIT_OK
    marks = sorted(hist.bookmarks.items(), key=lambda kv: (kv[1], kv[0]))
    if not marks:
        print(f"{args.log}: no bookmarks.")
    for name, index in marks:
        print(f"{name}: {hist.position(index).label}")
    return EXIT_OK


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``inspect``, ``branch`` and ``bookmark`` to the ``solo`` command (issue 6)."""
    point_help = "TURN.IMPULSE (e.g. 3.2; 0 = before Impulse 1), #N (N-th decision) or a bookmark"
    p = sub.add_parser(
        "inspect",
        help="rebuild a game log at a point and print what it looks like",
        description="Rebuild the game of a log at a point (the first decision at or after it: the "
        "engine stops only at decisions) and print positions, orders, morale, wounds, markers and "
        "the Initiative Track. Unknown enemies show as '?' unless --spoilers.",
    )
    p.add_argument("log", help="a log written by solo run --log, solo branch or the window")
    p.add_argument("--to", metavar="POINT", help=f"where to stop: {point_help} (default: the end)")
    p.add_argument("--spoilers", action="store_true", help="show Unknown enemies and dummies as they are")
    p.add_argument("--list", action="store_true", help="list every decision of the log instead")
    p.set_defaults(func=_cmd_inspect)

    p = sub.add_parser(
        "branch",
        help="play on from a point of a log with a policy, writing a new log (a what-if)",
        description="Rebuild LOG up to POINT, optionally force the next dice and cards, and play on "
        "with a policy. The new log's header names its parent and the branch point; solo replay "
        "reproduces it exactly.",
    )
    p.add_argument("source", metavar="LOG@POINT", help=f"the parent log and the branch point: {point_help}")
    p.add_argument("--out", required=True, metavar="FILE", help="the new log to write")
    p.add_argument(
        "--dice",
        "--seed-dice",
        dest="dice",
        metavar="FILE",
        help="forced results for the next draws: a YAML list of dice, or {dice: [...], cards: {deck: [...]}}",
    )
    p.add_argument("--policy", default="simple", help="tactical, random, simple or scripted (default simple)")
    p.add_argument("--script", metavar="FILE", help="choices for the scripted policy (YAML)")
    p.add_argument("--policy-seed", type=bounded(0), default=0, metavar="N", help="seed of the random policy")
    p.set_defaults(func=_cmd_branch)

    p = sub.add_parser(
        "bookmark",
        help="list, set or remove named points of a game log (stored in its header)",
    )
    p.add_argument("log", help="a game log")
    p.add_argument("name", nargs="?", help="the bookmark's name (a letter, then letters, digits, _ or -)")
    p.add_argument("point", nargs="?", help=point_help)
    p.add_argument("--remove", action="append", metavar="NAME", help="remove this bookmark; repeatable")
    p.set_defaults(func=_cmd_bookmark)
