"""``solo edit``: the map editor in the game's window (issue 12 item 5).

``solo edit MAP`` opens a map file (or a shipped map id: saved to ``ID.yaml`` here);
``solo edit --new CxR [--stagger even_low|odd_low] [--short-columns even|odd|none] MAP``
starts an all-open map of C columns by R rows that Ctrl+S writes to MAP. The window's
keys and tools are in :mod:`solo.render.map_editor`.

``solo edit SCENARIO.yaml`` opens a scenario (a file with ``friendly:``/``enemy:`` keys, or a
shipped scenario id: saved to ``ID.yaml`` here, a ``map:`` given as a path relative to the
shipped file rewritten to lead to the same map file from here) in the scenario editor
(:mod:`solo.render.scenario_editor`); ``solo edit --new-scenario MAP SCENARIO.yaml`` starts an
empty scenario on MAP (a shipped map id or a map file, written relative to the scenario file).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from solo.cli.args import bounded
from solo.core.errors import SoloError

NO_DISPLAY = (
    "solo edit: no display to open a window on (DISPLAY/WAYLAND_DISPLAY unset); the editor needs one "
    "(SDL_VIDEODRIVER=dummy runs it without a picture, for scripts)"
)


def _parse_size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d{1,2})x(\d{1,2})", text)
    if not m or not (1 <= int(m.group(1)) <= 99 and 1 <= int(m.group(2)) <= 99):
        raise SoloError(f"--new {text}: expected COLUMNSxROWS, 1-99 each (e.g. 35x20)")
    return int(m.group(1)), int(m.group(2))


def _cmd_edit(args: argparse.Namespace) -> int:
    import solo.render

    if not solo.render.display_available():
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    from solo.core.hexes import Stagger
    from solo.data.map_draft import load_draft, new_draft
    from solo.data.maps import ShortColumns
    from solo.render.map_editor import run_editor
    from solo.render.snapshot import parse_size

    try:
        size = parse_size(args.size)
    except ValueError as exc:
        raise SoloError(str(exc)) from None
    target = Path(args.map)
    if args.new_scenario is not None or _is_scenario(target):
        return _edit_scenario(args, target, size)
    if not target.suffix and (args.new or Path(f"{target}.yaml").exists()):
        target = Path(f"{target}.yaml")  # a map id: its file here (a shipped map saved earlier)
    if args.new:
        cols, rows = _parse_size(args.new)
        if target.exists():
            raise SoloError(f"{target} exists: edit it without --new, or name a new file")
        draft = new_draft(
            cols,
            rows,
            stagger=Stagger(args.stagger),
            short_columns=ShortColumns(args.short_columns),
            map_id=target.stem,
            name=target.stem.replace("_", " ").capitalize(),
        )
    else:
        if target.exists() and "\nlegend:" not in "\n" + target.read_text(encoding="utf-8"):
            raise SoloError(f"{target}: neither a map (no legend) nor a scenario (no friendly:/enemy:)")
        if not target.exists():
            from solo.core.resources import maps_dir

            shipped = sorted(p.stem for p in maps_dir().glob("*.yaml"))
            if target.suffix or str(target) not in shipped:
                raise SoloError(
                    f"{target}: no such map file; to start one there: solo edit --new 35x20 {target} "
                    f"(COLUMNSxROWS); to copy a shipped map, its id: {', '.join(shipped)}"
                )
        draft = load_draft(target)
        if not target.suffix and not target.exists():
            target = Path(f"{target}.yaml")
    return run_editor(draft, target, size=size, max_frames=args.frames)


def _is_scenario(target: Path) -> bool:
    """A scenario file (top-level ``friendly:``/``enemy:``), or a shipped scenario id.

    Raises SoloError (``path: cannot read: ...``, exit 2) on a file that is not UTF-8 text."""
    from solo.core.resources import maps_dir

    if target.is_file():
        from solo.core.errors import SoloError
        from solo.data.validate import unreadable

        why = unreadable(target)
        if why is not None:
            raise SoloError(f"{target}: {why}")
        head = target.read_text(encoding="utf-8")
        return any(line.startswith(("friendly:", "enemy:")) for line in head.splitlines())
    return not target.suffix and (maps_dir() / "scenarios" / f"{target}.yaml").is_file()


def _edit_scenario(args: argparse.Namespace, target: Path, size: tuple[int, int]) -> int:
    """``solo edit SCENARIO`` and ``solo edit --new-scenario MAP SCENARIO``."""
    import os

    from solo.core.errors import DataError
    from solo.core.resources import display_name, maps_dir
    from solo.data.scenario_draft import ScenarioDraft
    from solo.playtest.play import data_for
    from solo.render.scenario_editor import run_scenario_editor

    for flag, value in (("--cards", args.cards), ("--maps", args.maps)):
        if value and not Path(value).is_dir():
            raise SoloError(f"{flag} {value}: no such directory")
    data = data_for(args.cards, args.maps)
    if args.new_scenario is not None:
        if target.exists():
            raise SoloError(f"{target} exists: edit it without --new-scenario, or name a new file")
        ref = args.new_scenario
        if ref not in data.maps:
            p = Path(ref).expanduser()
            if not p.is_file():
                known = ", ".join(sorted(data.maps))
                raise SoloError(f"--new-scenario {ref}: no such map (a map id: {known}; or a map file)")
            ref = os.path.relpath(p.resolve(), target.resolve().parent)
        stem = target.stem
        draft = ScenarioDraft.new(ref, stem, stem.replace("_", " ").capitalize())
    else:
        source = target
        if not target.exists():
            source = maps_dir() / "scenarios" / f"{target}.yaml"
            target = Path(f"{target}.yaml")
        try:
            draft = ScenarioDraft.from_text(source.read_text(encoding="utf-8"), display_name(source))
        except DataError as exc:
            raise SoloError("\n".join(str(p) for p in exc.problems)) from None
        old_map = draft.doc.get("map")
        new_map = draft.relocate_map(source.parent, target.parent, data.maps)
        if new_map is not None:
            print(f"solo edit: {target} is saved here, so its map {old_map!r} is written {new_map!r}")
    try:
        return run_scenario_editor(draft, target, data, size=size, max_frames=args.frames)
    except DataError as exc:  # the scenario's map file is missing or has problems
        where = f"{target}: map {draft.doc.get('map')!r}: "
        raise SoloError("\n".join(where + str(p) for p in exc.problems)) from None


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``solo edit`` to the command's subparsers."""
    p = sub.add_parser(
        "edit",
        help="edit a map or a scenario in a window; save validates, a scenario can be played at once",
        description="Map editor (MAP) or scenario editor (SCENARIO). Palette on the left; left "
        "click/drag paints or places, right click removes. Keys: Ctrl+Z undo, Ctrl+Y redo, Ctrl+S "
        "save (and validate), Esc quit; maps: F brush/fill, L LOS; scenarios: R rotate, Del remove, "
        "C crew from the hex, P Play this.",
    )
    p.add_argument(
        "map",
        metavar="MAP|SCENARIO",
        help="a map or scenario file (or shipped id) to edit, or the file --new/--new-scenario writes",
    )
    p.add_argument(
        "--new-scenario", metavar="MAP", help="start an empty scenario on MAP (a map id or a map file)"
    )
    p.add_argument("--cards", metavar="DIR", help="a card set the scenario is checked against")
    p.add_argument("--maps", metavar="DIR", help="a folder of maps the scenario may name by id")
    p.add_argument("--new", metavar="CxR", help="start a new all-open map of C columns by R rows")
    p.add_argument("--stagger", choices=("even_low", "odd_low"), default="even_low", help="for --new")
    p.add_argument(
        "--short-columns", choices=("even", "odd", "none"), default="even", help="for --new (default even)"
    )
    p.add_argument("--size", default="1600x1000", help="window size WIDTHxHEIGHT (default 1600x1000)")
    p.add_argument("--frames", type=bounded(1), metavar="N", help="quit after N frames (tests)")
    p.set_defaults(func=_cmd_edit)
