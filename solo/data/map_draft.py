"""A map being edited: a mutable draft of the map format, and its writer (``solo edit``).

:class:`MapDraft` holds what ``maps/*.yaml`` holds (see :mod:`solo.data.maps`), keyed by
:class:`~solo.core.hexes.Hex`, so an editor can change one hex or hexside at a time.
:func:`dump_draft` writes it back in the shipped format with a stable key order
(:data:`KEY_ORDER`). A draft loaded from a file remembers that file's text: a top-level
section whose value was not changed is written back byte for byte (comments included), so
load → save without edits gives the same file; a changed section is written afresh under
its comments.

May import: :mod:`solo.core`, :mod:`solo.data.terrain`, :mod:`solo.data.maps`.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from pathlib import Path

import attrs
import yaml

from solo.core.datafile import read, read_text, structure
from solo.core.hexes import DIRECTIONS, Direction, Hex, Stagger, neighbour
from solo.core.resources import display_name, maps_dir
from solo.data.maps import MapDef, ShortColumns, _MapFile, load_map, side_key
from solo.data.terrain import Placement, TerrainTable, load_terrain

KEY_ORDER = (
    "id",
    "name",
    "columns",
    "rows",
    "short_columns",
    "stagger",
    "legend",
    "terrain",
    "elevation",
    "hexsides",
    "overlays",
    "roads",
    "minefields",
    "notes",
)
"""The order of the top-level keys in a written map."""

SIDES_PER_LINE = 8
"""Hexsides written on one ``hexsides`` entry line."""

_KEY_LINE = re.compile(r"^([a-z_]+):")


@attrs.define
class MapDraft:
    """A map as the editor holds it (mutable).

    ``terrain``: terrain id per hex (every hex of the map); ``level``: elevation 0-9 per hex;
    ``hexsides``: feature id by :func:`~solo.data.maps.side_key`; ``overlays``: overlay
    feature ids per hex, in the order placed; ``roads``: road paths, hex by adjacent hex;
    ``legend``: one-character code → terrain id, in file order. ``source`` is the text the
    draft was loaded from ("" for a new map).
    """

    id: str
    name: str
    columns: int
    rows: int
    short_columns: ShortColumns
    stagger: Stagger
    legend: dict[str, str]
    terrain: dict[Hex, str]
    level: dict[Hex, int]
    hexsides: dict[tuple[Hex, Hex], str] = attrs.field(factory=dict)
    overlays: dict[Hex, list[str]] = attrs.field(factory=dict)
    roads: list[list[Hex]] = attrs.field(factory=list)
    notes: str = ""
    source: str = ""
    minefields: list[Hex] = attrs.field(factory=list)
    """The map's minefield hexes (C2 31.5), in the order written."""
    original: MapDraft | None = attrs.field(default=None, repr=False, eq=False)
    """The draft as loaded, to tell which sections changed (None for a new map)."""

    def rows_in(self, col: int) -> int:
        """How many rows column ``col`` has."""
        short = (self.short_columns is ShortColumns.EVEN and col % 2 == 0) or (
            self.short_columns is ShortColumns.ODD and col % 2 == 1
        )
        return self.rows - 1 if short else self.rows

    def has_hex(self, h: Hex) -> bool:
        """Whether ``h`` is on the map."""
        return h in self.terrain

    def copy(self) -> MapDraft:
        """A deep copy (for undo), sharing :attr:`original`."""
        out = copy.deepcopy(attrs.evolve(self, original=None))
        out.original = self.original
        return out

    def road_links(self) -> tuple[tuple[Hex, Hex], ...]:
        """Every road connection by :func:`side_key`, sorted."""
        links = {side_key(a, b) for path in self.roads for a, b in itertools.pairwise(path)}
        return tuple(sorted(links))

    def to_map(self, source: str = "") -> MapDef:
        """The :class:`MapDef` of this draft (unchecked: for drawing and LOS while editing)."""
        overlays = {h: tuple(v) for h, v in sorted(self.overlays.items()) if v}
        return MapDef(
            self.id,
            self.name,
            self.columns,
            self.rows,
            self.short_columns,
            self.stagger,
            dict(sorted(self.terrain.items())),
            {h: self.level.get(h, 0) for h in sorted(self.terrain)},
            dict(sorted(self.hexsides.items())),
            overlays,
            self.road_links(),
            source,
            tuple(self.minefields),
        )


def new_draft(
    columns: int,
    rows: int,
    *,
    stagger: Stagger = Stagger.EVEN_LOW,
    short_columns: ShortColumns = ShortColumns.EVEN,
    map_id: str = "new_map",
    name: str = "New map",
) -> MapDraft:
    """A new all-open map of ``columns`` × ``rows`` hexes (1-99 each; ValueError otherwise)."""
    if not (1 <= columns <= 99 and 1 <= rows <= 99):
        raise ValueError(f"a map is 1-99 columns by 1-99 rows, got {columns}x{rows}")
    d = MapDraft(map_id, name, columns, rows, short_columns, stagger, {".": "open"}, {}, {})
    for col in range(columns):
        for row in range(d.rows_in(col)):
            d.terrain[Hex(col, row)] = "open"
            d.level[Hex(col, row)] = 0
    return d


def load_draft(path: Path | str, table: TerrainTable | None = None) -> MapDraft:
    """Load a map file (or a shipped map id) as a draft; DataError as :func:`load_map`."""
    p = Path(path)
    if not p.suffix and not p.exists():
        p = maps_dir() / f"{path}.yaml"
    m = load_map(p, table)
    doc = read(p, display_name(p))
    raw = structure(doc, _MapFile)
    overlays: dict[Hex, list[str]] = {}
    for entry in raw.overlays:
        for tok in entry.hexes.split():
            overlays.setdefault(Hex.parse(tok), []).append(entry.feature)
    d = MapDraft(
        m.id,
        m.name,
        m.columns,
        m.rows,
        m.short_columns,
        m.stagger,
        dict(raw.legend),
        dict(m.terrain),
        dict(m.level),
        dict(m.hexsides),
        overlays,
        [[Hex.parse(t) for t in path_text.split()] for path_text in raw.roads],
        raw.notes,
        doc.text,
        list(m.minefields),
    )
    d.original = d.copy()
    return d


def parse_map(text: str, name: str, table: TerrainTable | None = None) -> MapDef:
    """Check map ``text`` as :func:`~solo.data.maps.load_map` does; DataError with lines."""
    from solo.data.maps import _build_map

    doc = read_text(text, name)
    raw = structure(doc, _MapFile)
    return _build_map(doc, raw, table if table is not None else load_terrain())


# ---------------------------------------------------------------------------
# Writing


def _scalar(key: str, value: object) -> str:
    return yaml.safe_dump({key: value}, allow_unicode=True, width=10_000, sort_keys=False)


def _grid(d: MapDraft, cell) -> list[str]:
    out = []
    for row in range(d.rows):
        chunks, chunk = [], ""
        for col in range(d.columns):
            h = Hex(col, row)
            chunk += cell(h) if row < d.rows_in(col) else "-"
            if col % 5 == 4:
                chunks.append(chunk)
                chunk = ""
        if chunk:
            chunks.append(chunk)
        out.append("  " + " ".join(chunks))
    return out


def column_comment(d: MapDraft) -> str:
    """The comment line above a grid: column groups of five and the row range."""
    groups = [f"{c:02d}-{min(c + 4, d.columns - 1):02d}" for c in range(0, d.columns, 5)]
    return f"# {' '.join(groups)}  <- columns; rows 00-{d.rows - 1:02d} top to bottom"


def _codes(d: MapDraft) -> dict[str, str]:
    """Terrain id → its first code in the legend."""
    out: dict[str, str] = {}
    for code, tid in d.legend.items():
        out.setdefault(tid, code)
    return out


def side_token(a: Hex, b: Hex, stagger: Stagger) -> str:
    """``"HEX/DIRECTION"`` of the hexside between adjacent ``a`` and ``b``, from ``a``."""
    for dd in DIRECTIONS:
        if neighbour(a, dd, stagger) == b:
            return f"{a}/{dd}"
    raise ValueError(f"{a} and {b} are not adjacent")


def _body(d: MapDraft, key: str) -> list[str] | None:
    """The lines of section ``key`` written afresh, or None when the key is left out."""
    if key in ("id", "name", "columns", "rows"):
        return _scalar(key, getattr(d, key)).rstrip("\n").split("\n")
    if key in ("short_columns", "stagger"):
        return [f"{key}: {getattr(d, key).value}"]
    if key == "legend":
        return ["legend:"] + [f"  {json.dumps(c)}: {t}" for c, t in d.legend.items()]
    if key == "terrain":
        codes = _codes(d)
        return ["terrain: |", *_grid(d, lambda h: codes.get(d.terrain[h], "?"))]
    if key == "elevation":  # required on every map, all 0 on a flat one
        return ["elevation: |", *_grid(d, lambda h: str(d.level.get(h, 0)))]
    if key == "hexsides":
        if not d.hexsides:
            return None
        by_feature: dict[str, list[str]] = {}
        for (a, b), feature in sorted(d.hexsides.items()):
            by_feature.setdefault(feature, []).append(side_token(a, b, d.stagger))
        lines = ["hexsides:"]
        for feature, toks in by_feature.items():
            for i in range(0, len(toks), SIDES_PER_LINE):
                lines.append(f'  - {{feature: {feature}, sides: "{" ".join(toks[i : i + SIDES_PER_LINE])}"}}')
        return lines
    if key == "overlays":
        by_feature = {}
        for h, feats in sorted(d.overlays.items()):
            for f in feats:
                by_feature.setdefault(f, []).append(str(h))
        if not by_feature:
            return None
        return ["overlays:"] + [
            f'  - {{feature: {f}, hexes: "{" ".join(hs)}"}}' for f, hs in by_feature.items()
        ]
    if key == "roads":
        paths = [p for p in d.roads if p]
        if not paths:
            return None
        return ["roads:"] + [f'  - "{" ".join(str(h) for h in p)}"' for p in paths]
    if key == "minefields":
        if not d.minefields:
            return None
        return [f'minefields: "{" ".join(str(h) for h in d.minefields)}"']
    if key == "notes":
        if not d.notes:
            return None
        return _scalar("notes", d.notes).rstrip("\n").split("\n")
    raise KeyError(key)


def _sections(text: str) -> dict[str, tuple[list[str], list[str]]]:
    """Top-level sections of ``text``: key → (comment lines before it, its own lines)."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    pending: list[str] = []
    current: list[str] | None = None
    for line in text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"):
        m = _KEY_LINE.match(line)
        if m:
            current = [line]
            out[m.group(1)] = (pending, current)
            pending = []
        elif current is None or line.startswith("#") or not line.strip():
            pending.append(line)
        else:
            current.extend(pending)
            pending = []
            current.append(line)
    if pending and current is not None:
        current.extend(pending)
    return out


def _key_comment(line: str) -> str:
    """The ``   # ...`` comment after a key line's value ("" if none; not inside quotes)."""
    m = re.match(r"^[a-z_]+:[^#\"']*?(\s+#.*)$", line)
    return m.group(1) if m else ""


def dump_draft(d: MapDraft) -> str:
    """The map file text of ``d`` (sections in :data:`KEY_ORDER`; unchanged ones verbatim)."""
    old = _sections(d.source) if d.source else {}
    out: list[str] = []
    for key in KEY_ORDER:
        body = _body(d, key)
        if key in old and d.original is not None and _body(d.original, key) == body:
            before, lines = old[key]
            out += before + lines
            continue
        if body is None:
            continue
        if key in old:
            before, lines = old[key]
            body = [body[0] + _key_comment(lines[0]), *body[1:]] if body[0].endswith(":") else body
            out += [x for x in before if x.startswith("#") or not x.strip()]
        elif key in ("terrain", "elevation"):
            out.append(column_comment(d))
        out += body
    return "\n".join(out) + "\n"


def hex_terrains(table: TerrainTable) -> list[str]:
    """Terrain ids that can fill a hex, in table order (the editor's palette)."""
    ok = (Placement.HEX, Placement.HEX_OR_HEXSIDE, Placement.HEX_OR_OVERLAY)
    return [t.id for t in table if t.placement in ok]


def hexside_features(table: TerrainTable) -> list[str]:
    """Terrain ids that can stand on a hexside (hedge, wall, bocage...)."""
    ok = (Placement.HEXSIDE, Placement.HEX_OR_HEXSIDE)
    return [t.id for t in table if t.placement in ok]


def overlay_features(table: TerrainTable) -> list[str]:
    """Terrain ids that can lie on a hex as an overlay (barbed wire, foxholes...)."""
    ok = (Placement.OVERLAY, Placement.HEX_OR_OVERLAY)
    return [t.id for t in table if t.placement in ok]


def code_for(d: MapDraft, terrain_id: str) -> str:
    """The legend code of ``terrain_id``, adding a new one (its initial, or a free character)."""
    codes = _codes(d)
    if terrain_id in codes:
        return codes[terrain_id]
    used = set(d.legend)
    candidates = [
        terrain_id[0],
        terrain_id[0].upper(),
        *"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    ]
    code = next(c for c in candidates if c not in used and c != "-")
    d.legend[code] = terrain_id
    return code


def neighbours_of(d: MapDraft, h: Hex) -> list[tuple[Direction, Hex]]:
    """The on-map neighbours of ``h`` by direction."""
    out = []
    for dd in DIRECTIONS:
        n = neighbour(h, dd, d.stagger)
        if n is not None and d.has_hex(n):
            out.append((dd, n))
    return out
