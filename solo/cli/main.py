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

from solo import __version__, build
from solo.cli.args import RANGE_MAX, TQ_MAX, bounded
from solo.cli.forced import _read_dice_file
from solo.core.errors import DataError, LogError, SoloError
from solo.data.scenario import MAX_TURNS

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def _cmd_validate(args: argparse.Namespace) -> int:
    from solo.data.validate import check

    report = check(args.paths, cards=args.cards, maps=args.maps)
    for p in report.problems:
        print(p, file=sys.stderr)
    where = report.folders() or "nothing"
    if report.problems:
        if report.unplayable:
            ids = ", ".join(sorted(set(report.unplayable)))
            print(f"solo validate: scenarios that cannot be played: {ids}", file=sys.stderr)
        print(
            f"solo validate: {len(report.problems)} problem(s) in the data (read from {where})",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    print(f"ok: {report.files} file(s) checked")
    print(f"data read from: {where}")
    return EXIT_OK


def _add_data_flags(p: argparse.ArgumentParser) -> None:
    """``--cards DIR`` and ``--maps DIR``: a designer's copy of the data (README "Your own data")."""
    p.add_argument(
        "--cards", metavar="DIR", help="a card set directory: its card files replace the shipped ones"
    )
    p.add_argument(
        "--maps",
        metavar="DIR",
        help="a map directory: its maps are added to the shipped ones (a scenario names them by id)",
    )


def _check_data_dirs(args: argparse.Namespace) -> None:
    """Refuse a --cards/--maps folder that is not there (SoloError, exit 2)."""
    for flag, value in (("--cards", args.cards), ("--maps", args.maps)):
        if value and not Path(value).is_dir():
            raise SoloError(f"{flag} {value}: no such directory")


def _parse_options(pairs: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    if not pairs:
        return out  # PyYAML is not imported to start a game (issue 10, start-up)
    import yaml

    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SoloError(f"--option takes NAME=VALUE, got {pair!r}")
        out[name] = yaml.safe_load(value)
    return out


def _cmd_run(args: argparse.Namespace) -> int:
    from solo.core.options import Options
    from solo.data.house import load_data
    from solo.playtest.play import DEFAULT_SCENARIO, header_for, new_game, summary
    from solo.playtest.policies import make_policy

    scenario = args.scenario or DEFAULT_SCENARIO
    _check_data_dirs(args)
    data = load_data(Path(args.cards) if args.cards else None, Path(args.maps) if args.maps else None)
    dice, cards = _read_dice_file(args.dice) if args.dice else ([], {})
    options = _parse_options(args.option)
    try:
        Options.from_dict(options)
        policy = make_policy(args.policy, seed=args.seed, script=args.script)
    except ValueError as exc:
        raise SoloError(str(exc)) from None
    game = new_game(
        scenario,
        seed=args.seed,
        data=data,
        dice=dice,
        cards=cards,
        options=options,
        turns=args.turns,
        card_set=args.cards,
        map_set=args.maps,
    )
    game.play(policy)
    if args.log:
        header = header_for(
            game,
            scenario,
            args.seed,
            policy=args.policy,
            dice=dice,
            cards=cards,
            options=options,
            turns=args.turns,
        )
        from solo.core.log import write_log

        write_log(args.log, header, game.events)
    print(summary(game))
    if args.log:
        print(f"Log written to {args.log} ({len(game.events)} events).")
    return EXIT_OK


def _cmd_replay(args: argparse.Namespace) -> int:
    from solo.playtest.play import replay

    if args.to:
        from solo.playtest.history import History
        from solo.playtest.history_view import summary_at

        history = History.from_log(args.log)
        print(summary_at(history.at(history.resolve(args.to)), spoilers=args.spoilers))
        return EXIT_OK

    result = replay(args.log)
    if result.ok and result.ends_early:
        print(f"{args.log}: {result.ends_early} ({result.events} events).")
        return EXIT_OK
    if result.ok:
        print(f"{args.log}: replay matches ({result.events} events).")
        return EXIT_OK
    if result.order_only:
        print(f"{args.log}: {result.order_only}.")
        return EXIT_OK
    print(result.mismatch, file=sys.stderr)
    return 1


def _cmd_los(args: argparse.Namespace) -> int:
    from solo.core.hexes import Hex
    from solo.data.maps import Board, load_map
    from solo.rules.los import LineOfSight

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


NO_DISPLAY = (
    "solo play: no display to open a window on (DISPLAY/WAYLAND_DISPLAY unset): play headless with "
    "`solo run [SCENARIO] --log FILE`, or draw the view to a PNG with `solo render SCENARIO --out view.png`"
)


def _cmd_play(args: argparse.Namespace) -> int:
    import solo.render

    _check_data_dirs(args)
    if not solo.render.display_available():
        print(NO_DISPLAY, file=sys.stderr)
        return EXIT_BAD_INPUT
    from solo.render.app import play
    from solo.render.snapshot import parse_size

    try:
        size = parse_size(args.size)
    except ValueError as exc:
        raise SoloError(str(exc)) from None
    branch_from = None
    if args.from_point:
        from solo.playtest.history import split_log_point

        if args.load or args.table or args.scenario or args.cards or args.maps:
            raise SoloError(
                "--from LOG@POINT cannot be combined with a scenario, --load, --table, --cards or --maps"
            )
        branch_from = split_log_point(args.from_point)
    return play(
        args.scenario,
        seed=args.seed,
        table=args.table,
        load=args.load,
        save=args.save,
        size=size,
        max_frames=args.frames,
        branch_from=branch_from,
        card_set=args.cards,
        map_set=args.maps,
    )


def _cmd_render(args: argparse.Namespace) -> int:
    import solo.render

    _check_data_dirs(args)
    solo.render.use_dummy_driver_if_headless()
    from solo.render.snapshot import parse_size, render_snapshot

    try:
        size = parse_size(args.size)
    except ValueError as exc:
        raise SoloError(str(exc)) from None
    if args.impulse is not None and args.turn is None:
        raise SoloError("--impulse needs --turn")
    out = render_snapshot(
        args.source,
        args.out,
        turn=args.turn,
        impulse=args.impulse,
        size=size,
        seed=args.seed,
        labels=args.labels,
        card_set=args.cards,
        map_set=args.maps,
    )
    print(f"Wrote {out} ({size[0]}x{size[1]}).")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``solo`` command."""
    parser = argparse.ArgumentParser(
        prog="solo",
        description="The Enemy side of the solitaire squad wargame Combat! and Combat!2 (house edition).",
    )
    parser.add_argument("--version", action="version", version=f"solo {__version__}, {build()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("validate", help="check data files (all shipped data when no PATH is given)")
    p.add_argument("paths", nargs="*", metavar="PATH", help="YAML files or directories (card sets, maps)")
    _add_data_flags(p)
    p.set_defaults(func=_cmd_validate)

    p = sub.add_parser("run", help="play a scenario headless with a Friendly policy; write its log")
    p.add_argument(
        "scenario", nargs="?", help="shipped scenario id or a scenario file (default: first_contact)"
    )
    p.add_argument("--seed", type=bounded(0), default=1, help="seed of the chance source (default 1)")
    p.add_argument(
        "--turns",
        type=bounded(1, MAX_TURNS),
        help="stop after this many turns, 1-99 (default: the scenario's)",
    )
    p.add_argument(
        "--policy", default="tactical", help="tactical, simple, random or scripted (default tactical)"
    )
    p.add_argument("--script", metavar="FILE", help="choices for the scripted policy (YAML)")
    p.add_argument("--log", metavar="FILE", help="write the game log (JSON Lines) here")
    p.add_argument("--dice", metavar="FILE", help="forced dice and cards, taken before the seed")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change a house option (see solo/options.py); repeatable",
    )
    _add_data_flags(p)
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("replay", help="replay a game log and check that every event matches")
    p.add_argument("log", help="a log written by solo run --log")
    p.add_argument(
        "--to",
        metavar="POINT",
        help="instead, rebuild the game at POINT (T.I, #N or a bookmark) and print it",
    )
    p.add_argument("--spoilers", action="store_true", help="with --to: show Unknown enemies")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("los", help="line of sight between two hexes of a map (exit 1 if blocked)")
    p.add_argument("map", help="map id (town, countryside) or a map file")
    p.add_argument("frm", metavar="FROM", help="hex id, e.g. 15.12")
    p.add_argument("to", metavar="TO", help="hex id")
    p.add_argument(
        "--low-from", action="store_true", help="the viewer has a low order (Sneak/Hide/Reload/Rally)"
    )
    p.add_argument("--low-to", action="store_true", help="the target has a low order")
    p.add_argument("--tq", type=bounded(0, TQ_MAX), help="viewer's TQ, for heavy smoke (C2 29.5)")
    p.add_argument(
        "--month",
        type=int,
        default=6,
        choices=range(1, 13),
        metavar="1-12",
        help="month (Fields are S terrain in 6-8)",
    )
    p.add_argument(
        "--max-range", type=bounded(1, RANGE_MAX), help="maximum LOS from weather or night (C2 28)"
    )
    p.set_defaults(func=_cmd_los)

    p = sub.add_parser(
        "play",
        help="play a scenario in a window (mouse and keys; see the README for the controls)",
        description="Open the game window; with no scenario (and no --load), the start screen first. "
        "Keys: 1-9/0 options, Enter first/default, Space default, "
        "Shift+letter an order (H Hide, S Sneak, A Aimed Fire...), T the same order to the whole team, "
        "D/M/G standing choices (Duck Back, carry on moving, rules defaults), "
        "N auto to the next turn, Ctrl+S save, Ctrl+Z undo, H review (Left/Right decision, "
        "Shift+Left/Right Impulse, PgUp/PgDn or Ctrl+Left/Right turn, B bookmark, Esc back), "
        "L hex labels, R dice in the log, F hidden information, "
        "wheel/+/- zoom, right-drag/arrows pan, Esc clear the selection, "
        "P pace of the Enemy's turn (Instant, Step: Space/click the next Enemy step and Esc the rest "
        "of the Impulse, Timed: [ faster, ] slower), click an Enemy card or counter: why.",
    )
    p.add_argument(
        "scenario",
        nargs="?",
        help="shipped scenario id or a scenario file (none: the start screen, to pick one)",
    )
    p.add_argument("--seed", type=bounded(0), default=1, help="seed of the chance source (default 1)")
    p.add_argument("--table", action="store_true", help="table mode: give every die and card yourself")
    p.add_argument(
        "--load",
        metavar="LOG",
        help="continue a saved game (a log written by Ctrl+S or solo run; a table-mode save goes on "
        "in table mode)",
    )
    p.add_argument(
        "--from",
        dest="from_point",
        metavar="LOG@POINT",
        help="branch: play on from POINT of LOG (T.I, #N or a bookmark) with your own choices; "
        "Ctrl+S writes a new log naming its parent",
    )
    p.add_argument(
        "--save", metavar="FILE", help="where Ctrl+S saves (default: the loaded log, else ./solo-...)"
    )
    p.add_argument("--size", default="1600x1000", help="window size WIDTHxHEIGHT (default 1600x1000)")
    p.add_argument(
        "--frames", type=bounded(1), metavar="N", help="quit after N frames (tests and benchmarks)"
    )
    _add_data_flags(p)
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("render", help="draw a scenario or a game log to a PNG (no display needed)")
    p.add_argument("source", metavar="SCENARIO|LOG", help="shipped scenario id, scenario file, or game log")
    p.add_argument("--out", required=True, metavar="PNG", help="the image to write")
    p.add_argument(
        "--turn", type=bounded(1), help="for a log: replay up to this turn (default: the whole log)"
    )
    p.add_argument("--impulse", type=int, choices=range(1, 5), metavar="1-4", help="and this impulse")
    p.add_argument("--size", default="1600x1000", help="image size WIDTHxHEIGHT (default 1600x1000)")
    p.add_argument("--seed", type=bounded(0), default=1, help="seed for a scenario (default 1)")
    p.add_argument("--labels", action="store_true", help="draw the hex labels")
    _add_data_flags(p)
    p.set_defaults(func=_cmd_render)
    _add_tool_parsers(sub)
    return parser


TOOL_COMMANDS = ("solo.cli.deck", "solo.cli.batch", "solo.cli.history", "solo.cli.edit")
"""Modules that add playtester and designer subcommands (each has ``add_parsers(sub)``)."""


def _add_tool_parsers(sub: argparse._SubParsersAction) -> None:
    import importlib
    import importlib.util

    for name in TOOL_COMMANDS:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).add_parsers(sub)


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
    except LogError as exc:
        if not exc.located:
            print(f"solo {args.command}: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        print(exc, file=sys.stderr)  # already "path:line: message"
        return EXIT_BAD_INPUT
    except SoloError as exc:
        print(f"solo {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `solo run | head`: the reader went away; stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
