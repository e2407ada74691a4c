"""The ``solo`` command line: a thin client of the library.

Commands print; the library never does. Bad data or bad arguments print one
line per problem (``path:line: message``) on standard error and exit with
status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from solo import __version__
from solo.errors import DataError, SoloError

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def _cmd_validate(args: argparse.Namespace) -> int:
    from solo.data import validate

    count, problems = validate(args.paths)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"solo validate: {len(problems)} problem(s) in the data", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"ok: {count} file(s) checked")
    return EXIT_OK


def _cmd_run(args: argparse.Namespace) -> int:
    from solo.data import load_data
    from solo.dice import Deck, Dice
    from solo.los import LineOfSight
    from solo.maps import Board

    data = load_data(Path(args.cards) if args.cards else None)
    if args.map not in data.maps:
        raise SoloError(f"unknown map {args.map!r} (shipped: {', '.join(sorted(data.maps))})")
    board = Board.from_map(data.maps[args.map])
    dice = Dice(args.seed)
    deck = Deck("enemy", [c.id for c in data.enemy_deck.cards])
    deck.shuffle(dice, "Enemy Order deck: shuffle at set-up")
    print(
        f"solo {__version__}: house edition loaded "
        f"({len(data.terrain.types)} terrain types, {len(data.enemy_deck.cards)} Enemy Order cards, "
        f"{len(data.friendly_deck.cards)} Friendly cards, maps: {', '.join(sorted(data.maps))})."
    )
    print(
        "The turn engine is not built yet; this run shows the seeded chance source and the "
        f"Enemy deck with seed {args.seed}."
    )
    by_id = {c.id: c for c in data.enemy_deck.cards}
    for n in range(args.cards_to_draw):
        draw = deck.draw(dice, f"Enemy Order card {n + 1}")
        card = by_id[draw.card]
        print(
            f"  draw {n + 1}: card {card.id} (initiative {card.initiative:02d}): "
            f"Normal in Cover → {card.cover.normal}; Normal in Open → {card.open.normal}"
        )
    los = LineOfSight(board)
    hexes = board.hexes
    sample = [
        (
            dice.choice(range(len(hexes)), "LOS sample").index,
            dice.choice(range(len(hexes)), "LOS sample").index,
        )
        for _ in range(200)
    ]
    clear = sum(los.check_index(a, b).clear for a, b in sample)
    print(f"  map {board.map.id}: {len(hexes)} hexes; {clear} of 200 random hex pairs in LOS.")
    return EXIT_OK


def _cmd_los(args: argparse.Namespace) -> int:
    from solo.hexes import Hex
    from solo.los import LineOfSight
    from solo.maps import Board, load_map

    board = Board.from_map(load_map(args.map))
    los = LineOfSight(board, month=args.month)
    a, b = Hex.parse(args.frm), Hex.parse(args.to)
    for h in (a, b):
        board.idx(h)
    s = los.check(a, b, low_a=args.low_from, low_b=args.low_to, viewer_tq=args.tq, max_range=args.max_range)
    verdict = "clear" if s.clear else f"blocked ({s.rule})"
    where = f" at {s.blocked_by}" if s.blocked_by else ""
    print(
        f"{a} → {b} on {board.map.id}: range {s.range}, {verdict}{where}; "
        f"modifier {s.modifier:+d} (smoke {s.smoke:+d}, abbey {s.abbey:+d})"
    )
    return EXIT_OK if s.clear else 1


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``solo`` command."""
    parser = argparse.ArgumentParser(
        prog="solo",
        description="The Enemy side of the solitaire squad wargame Combat! and Combat!2 (house edition).",
    )
    parser.add_argument("--version", action="version", version=f"solo {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("validate", help="check data files (all shipped data when no PATH is given)")
    p.add_argument("paths", nargs="*", metavar="PATH", help="YAML files or directories (card sets, maps)")
    p.set_defaults(func=_cmd_validate)

    p = sub.add_parser("run", help="headless run: load the house edition, show seeded Enemy draws")
    p.add_argument("--seed", type=int, default=1, help="seed of the chance source (default 1)")
    p.add_argument("--map", default="town", help="map id (default town)")
    p.add_argument("--cards", metavar="DIR", help="a card set directory replacing shipped files")
    p.add_argument("--draws", dest="cards_to_draw", type=int, default=5, help="Enemy cards to draw")
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("los", help="line of sight between two hexes of a map (exit 1 if blocked)")
    p.add_argument("map", help="map id (town, countryside) or a map file")
    p.add_argument("frm", metavar="FROM", help="hex id, e.g. 15.12")
    p.add_argument("to", metavar="TO", help="hex id")
    p.add_argument(
        "--low-from", action="store_true", help="the viewer has a low order (Sneak/Hide/Reload/Rally)"
    )
    p.add_argument("--low-to", action="store_true", help="the target has a low order")
    p.add_argument("--tq", type=int, help="viewer's TQ, for heavy smoke (C2 29.5)")
    p.add_argument("--month", type=int, default=6, help="month 1-12 (Fields are S terrain in 6-8)")
    p.add_argument("--max-range", type=int, help="maximum LOS from weather or night (C2 28)")
    p.set_defaults(func=_cmd_los)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``solo`` command; returns the exit status (0 ok, 2 bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_OK
    try:
        return args.func(args)
    except DataError as exc:
        for p in exc.problems:
            print(p, file=sys.stderr)
        return EXIT_BAD_INPUT
    except SoloError as exc:
        print(f"solo {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
