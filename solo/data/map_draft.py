"""A map being edited: a mutable draft of the map format, and its writer (``solo edit``).

:class:`MapDraft` holds what ``maps/*.yaml`` holds (see :mod:`solo.data.maps`), keyed by
:class:`~solo.core.hexes.Hex`, so an editor can change one hex or hexside at a time.
:func:`dump_draft` writes it back in the shipped format with a stable key order
(:data:`KEY_ORDER`). A draft loaded from a file remembers that file's text: a top-level
section whose value was not changed is written back byte for byte (comments included), so
load → save without edits gives the same file; a changed section is written afresh under
its comments, except that in the list sections (``hexsides``, ``overlays``, ``roads``) every
inner comment and every entry line whose items did not change stay as they were
(:func:`_merged`), so an edit changes only the lines of what was edited.

May import: :mod:`solo.core`, :mod:`solo.data.terrain`, :mod:`solo.data.maps`.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import yaml

from solo.core.datafile import read, read_text, structure
from solo.core.errors import GeometryError
from solo.core.hexes import DIRECTIONS, Direction, Hex, Stagger, neighbour
from solo.core.resources import display_name, maps_dir
from solo.data.maps import MapDef, ShortColumns, _MapFile, load_map, side_key
from solo.data.terrain import Placement, TerrainTable, load_terrain
from solo.data.yaml_sections import key_comment, top_sections

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


def _grid(d: MapDraft, cell: Callable[[Hex], str]) -> list[str]:
    out: list[str] = []
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
    if key == "minefields":
        if not d.minefields:
            return None
        return [f'minefields: "{" ".join(str(h) for h in d.minefields)}"']
    if key in LIST_KEYS:
        units = _units(d, key)
        return [f"{key}:", *_entries(d, key, units)] if units else None
    if key == "notes":
        if not d.notes:
            return None
        return _scalar("notes", d.notes).rstrip("\n").split("\n")
    raise KeyError(key)


LIST_KEYS = ("hexsides", "overlays", "roads")
"""The list sections; their comment lines inside are kept with the entries under them."""

_Unit = tuple[Any, ...]
"""One item of a list section: ``(side_key, feature)`` of a hexside, ``(hex, feature)`` of an
overlay, or ``(path,)`` of a road (``path`` a tuple of hexes)."""


def _units(d: MapDraft, key: str) -> list[_Unit]:
    """The items of list section ``key`` of ``d``, in the order they are written."""
    if key == "hexsides":
        return [(side, f) for side, f in sorted(d.hexsides.items())]
    if key == "overlays":
        return [(h, f) for h, feats in sorted(d.overlays.items()) for f in feats]
    return [(tuple(p),) for p in d.roads if p]


def _unit_key(key: str, unit: _Unit) -> object:
    """What names a unit across edits: a hexside by its side (its feature may change)."""
    return unit[0] if key == "hexsides" else unit


def _unit_hexes(key: str, unit: _Unit) -> set[Hex]:
    """The hexes a unit touches (to write a new one next to its neighbours)."""
    if key == "overlays":
        return {unit[0]}
    return set(unit[0])


def _entries(d: MapDraft, key: str, units: list[_Unit], tokens: dict[Any, str] | None = None) -> list[str]:
    """The entry lines (``  - ...``) of list section ``key`` for ``units``; ``tokens`` keeps
    the spelling of a hexside already written (``"14.06/5"`` rather than ``"13.07/2"``)."""
    if key == "roads":
        return [f'  - "{" ".join(str(h) for h in path)}"' for (path,) in units]
    by_feature: dict[str, list[str]] = {}
    for where, feature in units:
        if key == "hexsides":
            tok = (tokens or {}).get(where) or side_token(where[0], where[1], d.stagger)
        else:
            tok = str(where)
        by_feature.setdefault(feature, []).append(tok)
    if key == "overlays":
        return [f'  - {{feature: {f}, hexes: "{" ".join(hs)}"}}' for f, hs in by_feature.items()]
    lines = []
    for feature, toks in by_feature.items():
        for i in range(0, len(toks), SIDES_PER_LINE):
            lines.append(f'  - {{feature: {feature}, sides: "{" ".join(toks[i : i + SIDES_PER_LINE])}"}}')
    return lines


def _entry_units(d: MapDraft, key: str, text: str, tokens: dict[Any, str]) -> list[_Unit]:
    """The items of one written entry (its text after ``- ``); ValueError if unreadable.
    The spelling of each hexside goes into ``tokens``."""
    value = yaml.safe_load(text)
    if key == "roads":
        if not isinstance(value, str):
            raise ValueError(text)
        return [(tuple(Hex.parse(t) for t in value.split()),)]
    if not isinstance(value, dict):
        raise ValueError(text)
    feature = str(value["feature"])
    if key == "overlays":
        return [(Hex.parse(t), feature) for t in str(value["hexes"]).split()]
    out: list[_Unit] = []
    for tok in str(value["sides"]).split():
        hex_s, _, dir_s = tok.partition("/")
        h = Hex.parse(hex_s)
        n = neighbour(h, int(dir_s), d.stagger)
        if n is None:
            raise ValueError(tok)
        out.append((side_key(h, n), feature))
        tokens[side_key(h, n)] = tok
    return out


@attrs.define
class _Group:
    """The comment lines inside a list section and the entries under them (line, units)."""

    comments: list[str]
    entries: list[tuple[str, list[_Unit]]] = attrs.field(factory=list)


def _groups(d: MapDraft, key: str, lines: list[str], tokens: dict[Any, str]) -> list[_Group]:
    """The groups of a list section's lines after its key line; ValueError if unreadable."""
    groups: list[_Group] = []
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            if not groups or groups[-1].entries:
                groups.append(_Group([]))
            groups[-1].comments.append(line)
        elif text.startswith("- "):
            if not groups:
                groups.append(_Group([]))
            groups[-1].entries.append((line, _entry_units(d, key, text[2:], tokens)))
        else:
            raise ValueError(line)
    return groups


def _merged(d: MapDraft, key: str, lines: list[str]) -> list[str] | None:
    """Section ``key`` rewritten, keeping its inner comments and every entry line whose items
    did not change; a changed entry is written afresh in its place. A new item is written
    after the entry that shares most hexes with it (a hedge side next to a hedge, the pieces
    of a cut road), else at the section's start, above every inner comment. A comment goes
    with the last item under it. None if the old lines are not in the written format."""
    tokens: dict[Any, str] = {}
    try:
        groups = _groups(d, key, lines[1:], tokens)
    except (ValueError, KeyError, TypeError, yaml.YAMLError, GeometryError):
        return None
    current = {_unit_key(key, u): u for u in _units(d, key)}
    places = [(gi, ei) for gi, g in enumerate(groups) for ei in range(len(g.entries))]
    place_hexes = [{h for u in groups[gi].entries[ei][1] for h in _unit_hexes(key, u)} for gi, ei in places]
    old_keys = {_unit_key(key, u) for g in groups for _line, units in g.entries for u in units}
    added: dict[tuple[int, int], list[_Unit]] = {}
    extra: list[_Unit] = []
    for k, unit in current.items():
        if k in old_keys:
            continue
        near = [len(_unit_hexes(key, unit) & hs) for hs in place_hexes]
        best = max(range(len(places)), key=lambda i: (near[i], -i), default=None)
        if best is not None and near[best]:
            added.setdefault(places[best], []).append(unit)
        else:
            extra.append(unit)
    out = _entries(d, key, extra, tokens)  # under no comment: before the first one
    used: set[object] = set()
    for gi, g in enumerate(groups):
        body: list[str] = []
        for ei, (line, units) in enumerate(g.entries):
            now = [current[k] for u in units if (k := _unit_key(key, u)) in current and k not in used]
            used.update(_unit_key(key, u) for u in now)
            if now == units:
                body.append(line)
            elif now:
                body += _entries(d, key, now, tokens)
            body += _entries(d, key, added.get((gi, ei), []), tokens)
        if body:
            out += g.comments + body
    return out


def dump_draft(d: MapDraft) -> str:
    """The map file text of ``d`` (sections in :data:`KEY_ORDER`; unchanged ones verbatim)."""
    old = top_sections(d.source) if d.source else {}
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
            inner = _merged(d, key, lines) if key in LIST_KEYS else None
            if inner is not None:
                body = [body[0], *inner]
            if body[0].endswith((":", "|")) or key in ("id", "name"):
                body = [body[0] + key_comment(lines[0]), *body[1:]]
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
    candidates: list[str] = [
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
