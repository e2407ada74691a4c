"""``solo edit``: the map editor in the game's window (issue 12 item 5).

``solo edit MAP`` opens a map file (or a shipped map id: saved to ``ID.yaml`` here);
``solo edit --new CxR [--stagger even_low|odd_low] [--short-columns even|odd|none] MAP``
starts an all-open map of C columns by R rows that Ctrl+S writes to MAP. The window's
keys and tools are in :mod:`solo.render.map_editor`.
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
            raise SoloError(f"{target}: not a map (no legend); the scenario editor is not built yet")
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


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``solo edit`` to the command's subparsers."""
    p = sub.add_parser(
        "edit",
        help="edit a map in a window: terrain, levels, hexsides, overlays, roads, LOS; save validates",
        description="Map editor. Palette on the left; left click/drag paints, right click removes. "
        "Keys: Ctrl+Z undo, Ctrl+Y redo, Ctrl+S save (and validate), F brush/fill, L LOS, "
        "+/- zoom, arrows pan, Home fit, Esc quit. Click the id or name field to type it.",
    )
    p.add_argument(
        "map", metavar="MAP", help="a map file (or shipped map id) to edit, or the file --new writes"
    )
    p.add_argument("--new", metavar="CxR", help="start a new all-open map of C columns by R rows")
    p.add_argument("--stagger", choices=("even_low", "odd_low"), default="even_low", help="for --new")
    p.add_argument(
        "--short-columns", choices=("even", "odd", "none"), default="even", help="for --new (default even)"
    )
    p.add_argument("--size", default="1280x800", help="window size WIDTHxHEIGHT (default 1280x800)")
    p.add_argument("--frames", type=bounded(1), metavar="N", help="quit after N frames (tests)")
    p.set_defaults(func=_cmd_edit)
