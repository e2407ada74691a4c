"""Designer tool: show a map as text, and help write map files (house edition).

Usage::

    python tools/map_ascii.py show town              # honeycomb picture: terrain, roads (=), overlays (*)
    python tools/map_ascii.py show town --levels     # the same with elevation levels
    python tools/map_ascii.py show maps/town.yaml --grid   # one line per row, as in the YAML
    python tools/map_ascii.py sides town "17.00 17.01 18.00"   # hexsides around a group of hexes
    python tools/map_ascii.py blank 35 20 even       # an empty terrain grid to start a map from

In the honeycomb picture each hex is one character, one column per
character; even columns of an ``even_low`` map are drawn half a line lower, as
on the printed maps. ``=`` is a road on open ground, ``#`` a road on other
terrain. Hexside features and overlays are listed below the picture; use
``sides`` to write hexsides.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable

from solo.core.hexes import DIRECTIONS, Hex, Stagger, neighbour
from solo.data.maps import MapDef, ShortColumns, load_map

SYMBOLS: dict[str, str] = {
    "open": ".",
    "building": "B",
    "fortified_building": "X",
    "rubble": "R",
    "fountain": "F",
    "trees": "T",
    "orchard": "O",
    "long_grass": "g",
    "field": "f",
    "stream": "~",
    "depression": "d",
    "marsh": "m",
    "logs": "L",
    "rocks": "r",
    "crater": "c",
    "hedge": "h",
    "wall": "w",
    "bocage": "H",
    "abbey_exterior": "A",
    "abbey_interior": "I",
}
"""The symbol the tool draws for each terrain id (the shipped maps use the same legend)."""


def symbol(terrain_id: str) -> str:
    """The one-character symbol drawn for ``terrain_id`` (``?`` if it has none)."""
    return SYMBOLS.get(terrain_id, "?")


def _line_of(m: MapDef, h: Hex) -> int:
    """Half-row line a hex is drawn on: low columns one half-line down."""
    low = (h.col % 2 == 0) == (m.stagger is Stagger.EVEN_LOW)
    return 2 * h.row + (1 if low else 0)


def _glyph(m: MapDef, h: Hex, levels: bool) -> str:
    if levels:
        return str(m.level[h])
    if m.is_road(h):
        return "=" if m.terrain[h] == "open" else "#"
    return symbol(m.terrain[h])


def render(m: MapDef, *, levels: bool = False) -> str:
    """A honeycomb text picture of ``m``: one character per hex, one column per character.

    Each row takes two half-lines (high columns, then low columns), labelled by
    row number. Roads on open ground are ``=``, roads on other terrain ``#``;
    with ``levels`` each hex shows its level instead. Hexside features and
    overlays are summed up below the picture.
    """
    canvas = [[" "] * m.columns for _ in range(2 * m.rows + 1)]
    for h in m.hexes:
        canvas[_line_of(m, h)][h.col] = _glyph(m, h, levels)
    out = [
        f"{m.name} ({m.id}): {m.columns} columns, {len(m.hexes)} hexes",
        "     " + "".join(str(c // 10) for c in range(m.columns)),
        "     " + "".join(str(c % 10) for c in range(m.columns)),
    ]
    for y, cells in enumerate(canvas):
        text = "".join(cells).rstrip()
        if text:
            out.append((f"{y // 2:02d}   " if y % 2 == 0 else "     ") + text)
    counts: dict[str, int] = {}
    for fid in m.hexsides.values():
        counts[fid] = counts.get(fid, 0) + 1
    if counts:
        out.append("hexsides: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    over: dict[str, list[str]] = {}
    for h, ids in m.overlays.items():
        for fid in ids:
            over.setdefault(fid, []).append(str(h))
    for fid, where in sorted(over.items()):
        out.append(f"{fid}: {' '.join(where)}")
    return "\n".join(out)


def render_grid(m: MapDef) -> str:
    """The map as its YAML grid (one line per row, '-' where a short column has no hex).

    Road hexes are shown in the grid below the terrain grid as ``=``.
    """
    rows = []
    roads = []
    for r in range(m.rows):
        line, rline = [], []
        for c in range(m.columns):
            h = Hex(c, r)
            if not m.has_hex(h):
                line.append("-")
                rline.append("-")
                continue
            line.append(symbol(m.terrain[h]))
            rline.append("=" if m.is_road(h) else ".")
        rows.append(f"{r:02d}  " + "".join(line))
        roads.append(f"{r:02d}  " + "".join(rline))
    return "\n".join(["terrain:", *rows, "roads:", *roads])


def region_sides(hexes: Iterable[Hex], stagger: Stagger, on_map: Iterable[Hex]) -> list[str]:
    """The hexsides around a group of hexes, as ``HEX/DIRECTION`` tokens for a map file.

    Each side between a hex of the group and a map hex outside it is listed
    once, from the inside hex, in column-row then direction order; sides on the
    map edge are left out.
    """
    group = set(hexes)
    board = set(on_map)
    out = []
    for h in sorted(group):
        for d in DIRECTIONS:
            n = neighbour(h, d, stagger)
            if n is not None and n in board and n not in group:
                out.append(f"{h}/{d}")
    return out


def blank_grid(columns: int, rows: int, short: ShortColumns, fill: str = ".") -> str:
    """An empty terrain grid of ``fill`` codes with '-' where short columns have no hex."""
    lines = []
    for r in range(rows):
        codes = []
        for c in range(columns):
            is_short = (short is ShortColumns.EVEN and c % 2 == 0) or (
                short is ShortColumns.ODD and c % 2 == 1
            )
            codes.append("-" if is_short and r == rows - 1 else fill)
        lines.append("".join(codes))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the tool; returns the exit code (2 for bad arguments)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    show = sub.add_parser("show", help="draw a map (id or path)")
    show.add_argument("map")
    show.add_argument("--levels", action="store_true", help="draw elevation levels")
    show.add_argument("--grid", action="store_true", help="one line per row, as in the YAML")
    sides = sub.add_parser("sides", help="hexsides around a group of hexes")
    sides.add_argument("map")
    sides.add_argument("hexes", help='hex ids, e.g. "17.00 17.01 18.00"')
    blank = sub.add_parser("blank", help="an empty terrain grid")
    blank.add_argument("columns", type=int)
    blank.add_argument("rows", type=int)
    blank.add_argument("short", choices=[s.value for s in ShortColumns])
    args = ap.parse_args(argv)
    if args.cmd == "blank":
        sys.stdout.write(blank_grid(args.columns, args.rows, ShortColumns(args.short)) + "\n")
        return 0
    m = load_map(args.map)
    if args.cmd == "show":
        sys.stdout.write((render_grid(m) if args.grid else render(m, levels=args.levels)) + "\n")
        return 0
    group = [Hex.parse(t) for t in args.hexes.split()]
    sys.stdout.write(" ".join(region_sides(group, m.stagger, m.hexes)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
