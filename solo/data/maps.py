"""Maps: the YAML map format, its loader, and :class:`Board`, the per-map geometry tables.

A map file (``maps/*.yaml``) holds::

    id: town
    name: The Town (house edition)
    columns: 35            # columns 00..34
    rows: 20               # rows 00..19 in full columns
    short_columns: even    # even columns lack the last row (rows 00..18); or odd, or none
    stagger: even_low      # even columns sit half a hex lower (base-rules §17)
    legend: {".": open, "B": building, "T": trees}
    terrain: |             # one line per row, one code per column; spaces are ignored;
      ..BB..T...           # "-" where a short column has no hex
    elevation: |           # required, same grid of digits 0-9 (levels; all 0 on a flat map)
      0001110000
    hexsides:              # optional hedges, walls and bocage along hexsides: "HEX/DIRECTION"
      - {feature: hedge, sides: "12.05/2 12.05/3"}
    overlays:              # optional markers on hexes: barbed wire, foxholes, trenches, ...
      - {feature: barbed_wire, hexes: "10.10 10.11"}
    roads:                 # optional road paths, hex by adjacent hex
      - "15.00 15.01 15.02"
    minefields: "12.04 12.05"   # optional minefield hexes (C2 31.5), as a scenario's `minefields:`

Every problem is reported with its line. :class:`Board` turns a map into flat
tables indexed by a dense hex index (hex → index, neighbours, cube coords,
heights) built once and shared, for LOS and movement on hot paths.

May import: :mod:`solo.core`, :mod:`solo.data.terrain`.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from solo.core.bounds import HEXES
from solo.core.datafile import DataFile, Problems, read, structure
from solo.core.errors import GeometryError
from solo.core.hexes import (
    DIRECTIONS,
    Direction,
    Hex,
    Stagger,
    neighbour,
    to_cube,
)
from solo.core.resources import display_name, maps_dir
from solo.data.terrain import LosKind, Placement, TerrainTable, TerrainType, load_terrain


class ShortColumns(enum.Enum):
    """Which columns lack the last row (printed maps: even columns have rows 0–18)."""

    EVEN = "even"
    ODD = "odd"
    NONE = "none"


@attrs.frozen
class _HexsideEntry:
    feature: str
    sides: str


@attrs.frozen
class _OverlayEntry:
    feature: str
    hexes: str


@attrs.frozen
class _MapFile:
    id: str
    name: str
    columns: HEXES
    rows: HEXES
    short_columns: ShortColumns
    stagger: Stagger
    legend: dict[str, str]
    terrain: str
    elevation: str
    hexsides: tuple[_HexsideEntry, ...] = ()
    overlays: tuple[_OverlayEntry, ...] = ()
    roads: tuple[str, ...] = ()
    minefields: str = ""
    """C2 31.5: the map's minefield hexes, space separated (``"12.04 12.05"``), with the effects of a
    scenario's ``minefields:`` in every scenario on the map (the scenario may add more). Empty: none."""
    notes: str = ""


def side_key(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """The key of the hexside between adjacent hexes ``a`` and ``b`` (order-free)."""
    return (a, b) if a <= b else (b, a)


@attrs.frozen(eq=False)
class MapDef:
    """A map: terrain, levels, hexside features, overlays and roads per hex.

    ``hexes`` lists every hex on the map in column-then-row order. Terrain,
    level and overlays are keyed by :class:`~solo.core.hexes.Hex`.
    """

    id: str
    name: str
    columns: int
    rows: int
    short_columns: ShortColumns
    stagger: Stagger
    terrain: dict[Hex, str] = attrs.field(repr=False)
    """Terrain id of every hex."""
    level: dict[Hex, int] = attrs.field(repr=False)
    """Elevation level of every hex (0 = ground level)."""
    hexsides: dict[tuple[Hex, Hex], str] = attrs.field(repr=False)
    """Feature terrain id by :func:`side_key`."""
    overlays: dict[Hex, tuple[str, ...]] = attrs.field(repr=False)
    """Overlay terrain ids per hex (barbed wire, foxholes...), only hexes that have some."""
    roads: tuple[tuple[Hex, Hex], ...] = attrs.field(repr=False)
    """Road connections, by :func:`side_key` of the two hexes, sorted."""
    source: str = ""
    minefields: tuple[Hex, ...] = attrs.field(default=(), repr=False)
    """The map's minefield hexes (C2 31.5), in the order written."""

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """Every hex of the map, column by column."""
        return tuple(self.terrain)

    def has_hex(self, h: Hex) -> bool:
        """Whether ``h`` is on this map."""
        return h in self.terrain

    def rows_in(self, col: int) -> int:
        """How many rows column ``col`` has."""
        short = (self.short_columns is ShortColumns.EVEN and col % 2 == 0) or (
            self.short_columns is ShortColumns.ODD and col % 2 == 1
        )
        return self.rows - 1 if short else self.rows

    @functools.cached_property
    def road_hexes(self) -> frozenset[Hex]:
        """Every hex a road runs through (31.11.1)."""
        return frozenset(h for pair in self.roads for h in pair)

    def is_road(self, h: Hex) -> bool:
        """Whether a road runs through ``h``."""
        return h in self.road_hexes


def load_map(path: Path | str, terrain: TerrainTable | None = None) -> MapDef:
    """Load and check a map file; ``path`` may be a map id of a shipped map (``"town"``).

    Raises :class:`~solo.core.errors.DataError` listing every problem with its line.
    """
    terrain = terrain if terrain is not None else load_terrain()
    p = Path(path)
    if not p.suffix and not p.exists():
        p = maps_dir() / f"{path}.yaml"
    doc = read(p, display_name(p))
    raw = structure(doc, _MapFile)
    return _build_map(doc, raw, terrain)


def shipped_maps() -> list[Path]:
    """Paths of the shipped maps, sorted by name."""
    return sorted(maps_dir().glob("*.yaml"))


def _parse_hex_list(text: str) -> list[tuple[str, Hex | None]]:
    out: list[tuple[str, Hex | None]] = []
    for tok in text.split():
        try:
            out.append((tok, Hex.parse(tok)))
        except GeometryError:
            out.append((tok, None))
    return out


def _build_map(doc: DataFile, raw: _MapFile, table: TerrainTable) -> MapDef:
    probs = Problems()
    if not 1 <= raw.columns <= 99:
        probs.add(doc, ("columns",), "columns must be 1-99")
    if not 1 <= raw.rows <= 99:
        probs.add(doc, ("rows",), "rows must be 1-99")
    probs.raise_if_any()

    legend: dict[str, TerrainType] = {}
    for code, tid in raw.legend.items():
        if len(code) != 1 or code.isspace() or code == "-":
            probs.add(
                doc,
                ("legend", code),
                f"legend code {code!r} must be one character, not '-' or space",
                at_key=True,
            )
            continue
        t = table.get(tid) if tid in table else None
        if t is None:
            probs.add(
                doc,
                ("legend", code),
                f"unknown terrain {tid!r} (expected one of: {', '.join(x.id for x in table)})",
            )
            continue
        if t.placement not in (Placement.HEX, Placement.HEX_OR_HEXSIDE, Placement.HEX_OR_OVERLAY):
            probs.add(
                doc,
                ("legend", code),
                f"terrain {tid!r} cannot fill a hex (placement {t.placement.value})",
            )
            continue
        legend[code] = t

    def on_map(h: Hex) -> bool:
        return h.col < raw.columns and h.row < probe.rows_in(h.col)

    probe = MapDef(
        raw.id,
        raw.name,
        raw.columns,
        raw.rows,
        raw.short_columns,
        raw.stagger,
        {},
        {},
        {},
        {},
        (),
    )
    terrain: dict[Hex, str] = {}
    level: dict[Hex, int] = {}
    grid = _grid(doc, "terrain", raw.terrain, raw, probe, probs)
    for (col, row), code, line in grid:
        if code not in legend:
            if code not in raw.legend:
                p = doc.problem(
                    ("terrain",),
                    f"unknown terrain code {code!r} at {col:02d}.{row:02d} (not in legend)",
                )
                probs.items.append(attrs.evolve(p, line=line))
            continue
        terrain[Hex(col, row)] = legend[code].id
    if raw.elevation is not None:
        for (col, row), code, line in _grid(doc, "elevation", raw.elevation, raw, probe, probs):
            if not code.isdigit():
                p = doc.problem(
                    ("elevation",),
                    f"elevation at {col:02d}.{row:02d} must be a digit, got {code!r}",
                )
                probs.items.append(attrs.evolve(p, line=line))
                continue
            level[Hex(col, row)] = int(code)
    # Column-major order: sort once so that iteration is deterministic and natural.
    terrain = dict(sorted(terrain.items()))
    for hx in terrain:
        level.setdefault(hx, 0)
    level = {hx: level[hx] for hx in terrain}

    hexsides: dict[tuple[Hex, Hex], str] = {}
    h: Hex | None
    for i, entry in enumerate(raw.hexsides):
        t = table.get(entry.feature) if entry.feature in table else None
        if t is None or t.placement not in (Placement.HEXSIDE, Placement.HEX_OR_HEXSIDE):
            probs.add(
                doc,
                ("hexsides", i, "feature"),
                f"{entry.feature!r} is not a hexside feature (expected hedge, wall or bocage)",
            )
            continue
        where = ("hexsides", i, "sides")
        for k, tok in enumerate(entry.sides.split()):
            hex_s, _, dir_s = tok.partition("/")
            try:
                h = Hex.parse(hex_s)
                d = int(dir_s)
                if d not in DIRECTIONS:
                    raise ValueError
            except (GeometryError, ValueError):
                probs.items.append(
                    doc.token_problem(
                        where, k, f"bad hexside {tok!r} (expected HEX/DIRECTION, e.g. '12.05/2')"
                    )
                )
                continue
            n = neighbour(h, d, raw.stagger)
            if not on_map(h) or n is None or not on_map(n):
                probs.items.append(
                    doc.token_problem(where, k, f"hexside {tok} is not between two hexes of the map")
                )
                continue
            key = side_key(h, n)
            if key in hexsides:
                probs.items.append(doc.token_problem(where, k, f"hexside {tok} given twice"))
                continue
            hexsides[key] = t.id

    overlays: dict[Hex, list[str]] = {}
    for i, overlay in enumerate(raw.overlays):
        t = table.get(overlay.feature) if overlay.feature in table else None
        if t is None or t.placement not in (Placement.OVERLAY, Placement.HEX_OR_OVERLAY):
            probs.add(
                doc,
                ("overlays", i, "feature"),
                f"{overlay.feature!r} is not an overlay (expected e.g. barbed_wire, foxhole, trench)",
            )
            continue
        where = ("overlays", i, "hexes")
        for k, (tok, h) in enumerate(_parse_hex_list(overlay.hexes)):
            if h is None:
                probs.items.append(doc.token_problem(where, k, f"bad hex id {tok!r} (expected CC.RR)"))
            elif not on_map(h):
                probs.items.append(doc.token_problem(where, k, f"hex {tok} is outside the map"))
            elif t.id in overlays.get(h, []):
                probs.items.append(doc.token_problem(where, k, f"{t.id} on {tok} given twice"))
            else:
                overlays.setdefault(h, []).append(t.id)

    roads: set[tuple[Hex, Hex]] = set()
    for i, path in enumerate(raw.roads):
        prev: Hex | None = None
        for k, (tok, h) in enumerate(_parse_hex_list(path)):
            if h is None:
                probs.items.append(doc.token_problem(("roads", i), k, f"bad hex id {tok!r} (expected CC.RR)"))
                prev = None
                continue
            if not on_map(h):
                probs.items.append(doc.token_problem(("roads", i), k, f"road hex {tok} is outside the map"))
                prev = None
                continue
            if prev is not None:
                if not any(neighbour(prev, d, raw.stagger) == h for d in DIRECTIONS):
                    probs.items.append(
                        doc.token_problem(("roads", i), k, f"road hexes {prev} and {tok} are not adjacent")
                    )
                else:
                    roads.add(side_key(prev, h))
            prev = h
    minefields: list[Hex] = []
    for k, (tok, h) in enumerate(_parse_hex_list(raw.minefields)):
        if h is None:
            probs.items.append(doc.token_problem(("minefields",), k, f"bad hex id {tok!r} (expected CC.RR)"))
        elif not on_map(h):
            probs.items.append(
                doc.token_problem(("minefields",), k, f"minefield hex {tok} is outside the map")
            )
        elif h in minefields:
            probs.items.append(doc.token_problem(("minefields",), k, f"minefield hex {tok} given twice"))
        else:
            minefields.append(h)
    probs.raise_if_any()
    return MapDef(
        id=raw.id,
        name=raw.name,
        columns=raw.columns,
        rows=raw.rows,
        short_columns=raw.short_columns,
        stagger=raw.stagger,
        terrain=terrain,
        level=level,
        hexsides=dict(sorted(hexsides.items())),
        overlays={h: tuple(v) for h, v in sorted(overlays.items())},
        roads=tuple(sorted(roads)),
        source=doc.name,
        minefields=tuple(minefields),
    )


def _grid(
    doc: DataFile, key: str, text: str, raw: _MapFile, probe: MapDef, probs: Problems
) -> Iterator[tuple[tuple[int, int], str, int]]:
    """Yield ((col, row), code, line) for each hex of a grid block; record shape problems."""
    base = doc.line_of((key,)) or 0
    # A block scalar ("|") starts on the line after its key.
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    first = base + 1
    if len(lines) != raw.rows:
        p = doc.problem((key,), f"{key} has {len(lines)} rows, expected {raw.rows}")
        probs.items.append(p)
    for row, line_text in enumerate(lines[: raw.rows]):
        codes = [c for c in line_text if not c.isspace()]
        line_no = first + row
        if len(codes) != raw.columns:
            probs.items.append(
                attrs.evolve(
                    doc.problem(
                        (key,),
                        f"{key} row {row:02d} has {len(codes)} hexes, expected {raw.columns}",
                    ),
                    line=line_no,
                )
            )
            continue
        for col, code in enumerate(codes):
            exists = row < probe.rows_in(col)
            if not exists:
                if code != "-":
                    probs.items.append(
                        attrs.evolve(
                            doc.problem(
                                (key,),
                                f"{col:02d}.{row:02d} is not on the map (short column): write '-'",
                            ),
                            line=line_no,
                        )
                    )
                continue
            if code == "-":
                probs.items.append(
                    attrs.evolve(
                        doc.problem((key,), f"{col:02d}.{row:02d} is on the map but has '-'"),
                        line=line_no,
                    )
                )
                continue
            yield (col, row), code, line_no


# ---------------------------------------------------------------------------
# Board: flat tables for hot paths


@attrs.frozen(eq=False)
class Board:
    """Per-map tables built once: dense hex index, neighbours, cube coords, terrain heights.

    Index ``i`` runs over :attr:`hexes` (column-major). ``neighbours[i][d]`` is
    the index of the neighbour in direction ``d`` (1–6) or −1 off the map.
    Heights are in half-levels. Built by :meth:`from_map`; shared read-only.
    """

    map: MapDef
    terrain_table: TerrainTable = attrs.field(repr=False)
    hexes: tuple[Hex, ...] = attrs.field(repr=False)
    index: dict[Hex, int] = attrs.field(repr=False)
    cube: tuple[tuple[int, int, int], ...] = attrs.field(repr=False)
    neighbours: tuple[tuple[int, ...], ...] = attrs.field(repr=False)
    ground: tuple[int, ...] = attrs.field(repr=False)
    """2 × level + ground offset (Depression, Stream, Trench −1), half-levels (§16 step 3)."""
    block_top: tuple[int, ...] = attrs.field(repr=False)
    """Top of a B obstacle (ground + obstacle), or −99 where the hex has none."""
    depression: tuple[bool, ...] = attrs.field(repr=False)
    """D terrain: depression, stream, crater, trench or foxhole (C2 27.8)."""
    abbey: tuple[int, ...] = attrs.field(repr=False)
    """0 not abbey, 1 exterior, 2 interior (C2 27.5)."""
    hexside_top: dict[tuple[int, int], int] = attrs.field(repr=False)
    """Height of a hedge/wall/bocage on the hexside between two indices (lower index first)."""
    row_offset: tuple[int, ...] = attrs.field(repr=False)
    """Per column ``x``: row = cube z + row_offset[x]."""
    grid: tuple[tuple[int, ...], ...] = attrs.field(repr=False)
    """``grid[col][row]``: the index of hex (col, row), or −1 where the map has none."""
    shared: dict[Any, Any] = attrs.field(factory=dict, repr=False)
    """Caches shared by every game on this board (LOS answers without markers, by month)."""
    changes: tuple[tuple[Hex, str], ...] = ()
    """The terrain changes this board adds to its map's (hex, new terrain id), sorted by hex; ()
    for a map's own board (a Building hit becomes Rubble, base-rules §14; :meth:`with_terrain`)."""
    base_board: Board | None = attrs.field(default=None, repr=False)
    """The map's own board this one changes, or None if it is that board (see :attr:`base`)."""

    @property
    def base(self) -> Board:
        """The map's own board, without the changes (itself if it has none)."""
        return self.base_board if self.base_board is not None else self

    def with_terrain(self, changes: dict[Hex, str]) -> Board:
        """The board of this map with the terrain of some hexes changed (``{hex: terrain id}``, the
        game's overlay: a Building hit becomes Rubble, base-rules §14).

        Built once per set of changes and shared by the games that have the same ones: its caches
        (LOS answers, roads) are its own, keyed by the changes, and the map's own board is never
        touched (its LOS cache only gains answers for lines that pass no changed hex, the same walk
        on either board; :class:`~solo.rules.los.LineOfSight`). ``{}`` gives the map's own board. Raises
        :class:`~solo.core.errors.GeometryError` for a hex off the map, KeyError for an unknown id.
        """
        base = self.base
        key = tuple(sorted((h, t) for h, t in changes.items() if base.map.terrain.get(h) != t))
        return _board_with(base, key) if key else base

    @classmethod
    def for_map(cls, m: MapDef, table: TerrainTable) -> Board:
        """The board of ``m``, built once and shared (games on one map share its caches)."""
        return _board_for(m, table)

    @classmethod
    def from_map(cls, m: MapDef, table: TerrainTable | None = None) -> Board:
        """Build the tables for ``m``."""
        table = table if table is not None else load_terrain()
        hexes = tuple(m.terrain)
        index = {h: i for i, h in enumerate(hexes)}
        cube = tuple(to_cube(h, m.stagger) for h in hexes)
        nbrs = []
        for h in hexes:
            row = [-1]
            for d in DIRECTIONS:
                n = neighbour(h, d, m.stagger)
                row.append(index.get(n, -1) if n is not None else -1)
            nbrs.append(tuple(row))
        ground, block_top, dep, abbey, hexside_top = _terrain_tables(m, table, hexes, index)
        if m.stagger is Stagger.EVEN_LOW:
            offs = tuple((x + (x & 1)) // 2 for x in range(m.columns))
        else:
            offs = tuple((x - (x & 1)) // 2 for x in range(m.columns))
        return cls(
            map=m,
            terrain_table=table,
            hexes=hexes,
            index=index,
            cube=cube,
            neighbours=tuple(nbrs),
            ground=ground,
            block_top=block_top,
            depression=dep,
            abbey=abbey,
            hexside_top=hexside_top,
            row_offset=offs,
            grid=tuple(tuple(index.get(Hex(c, r), -1) for r in range(m.rows)) for c in range(m.columns)),
        )

    def index_at_cube(self, x: int, z: int) -> int:
        """The index of the hex at cube ``(x, ·, z)``, or −1 if it is off the map."""
        if not 0 <= x < self.map.columns:
            return -1
        column = self.grid[x]
        row = z + self.row_offset[x]
        return column[row] if 0 <= row < len(column) else -1

    def idx(self, h: Hex) -> int:
        """The index of ``h``. Raises :class:`~solo.core.errors.GeometryError` if off the map."""
        try:
            return self.index[h]
        except KeyError:
            raise GeometryError(f"hex {h} is not on map {self.map.id!r}") from None

    def terrain_of(self, h: Hex) -> TerrainType:
        """The terrain type of ``h``."""
        return self.terrain_table[self.map.terrain[h]]

    def overlays_of(self, h: Hex) -> tuple[TerrainType, ...]:
        """The overlays (barbed wire, foxholes...) on ``h``."""
        return tuple(self.terrain_table[o] for o in self.map.overlays.get(h, ()))

    def is_cover(self, h: Hex) -> bool:
        """Cover (True) or Open for the Enemy cards: the terrain, an overlay or a hexside
        feature on any edge makes Cover (base-rules §5.4; smoke is added by the caller)."""
        if self.terrain_of(h).cover or any(o.cover for o in self.overlays_of(h)):
            return True
        i = self.index[h]
        return any(
            n >= 0 and ((i, n) if i < n else (n, i)) in self.hexside_top for n in self.neighbours[i][1:]
        )

    def hexside_feature(self, a: Hex, b: Hex) -> str | None:
        """The feature (hedge, wall, bocage) on the hexside between adjacent ``a`` and ``b``."""
        return self.map.hexsides.get(side_key(a, b))

    def neighbour_hex(self, h: Hex, d: Direction) -> Hex | None:
        """The neighbour of ``h`` in direction ``d`` if it is on the map."""
        n = self.neighbours[self.idx(h)][d]
        return self.hexes[n] if n >= 0 else None


def _terrain_tables(
    m: MapDef, table: TerrainTable, hexes: tuple[Hex, ...], index: dict[Hex, int]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], tuple[int, ...], dict[tuple[int, int], int]]:
    """The terrain part of a :class:`Board` of ``m``: ground, block_top, depression, abbey (per hex
    index) and hexside_top (half-levels); the rest of a board is geometry."""
    ground, block_top, dep, abbey = [], [], [], []
    for h in hexes:
        g, b, d, a = _hex_terrain(m, table, h)
        ground.append(g)
        block_top.append(b)
        dep.append(d)
        abbey.append(a)
    hexside_top: dict[tuple[int, int], int] = {}
    for (ha, hb), fid in m.hexsides.items():
        ia, ib = index[ha], index[hb]
        key = (ia, ib) if ia < ib else (ib, ia)
        hexside_top[key] = max(ground[ia], ground[ib]) + table[fid].obstacle
    return tuple(ground), tuple(block_top), tuple(dep), tuple(abbey), hexside_top


_ABBEY = {"none": 0, "exterior": 1, "interior": 2}


def _hex_terrain(m: MapDef, table: TerrainTable, h: Hex) -> tuple[int, int, bool, int]:
    """One hex's entries of the terrain tables: ground, block_top, depression, abbey."""
    t = table[m.terrain[h]]
    over = [table[o] for o in m.overlays.get(h, ())]
    offset = min([t.ground_offset, *(o.ground_offset for o in over)])
    g = 2 * m.level[h] + offset
    b = [x.obstacle for x in (t, *over) if x.los is LosKind.BLOCK]
    dep = any(x.los is LosKind.DEPRESSION for x in (t, *over))
    return g, g + max(b) if b else -99, dep, _ABBEY[t.abbey.value]


def _patched_tables(
    base: Board, m: MapDef, changed: tuple[Hex, ...]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], tuple[int, ...], dict[tuple[int, int], int]]:
    """:func:`_terrain_tables` of ``m``, a map that differs from ``base``'s only in the terrain of
    the ``changed`` hexes: ``base``'s tables with those hexes and their hexsides redone."""
    table = base.terrain_table
    ground, block_top, dep, abbey = (
        list(base.ground),
        list(base.block_top),
        list(base.depression),
        list(base.abbey),
    )
    hexside_top = dict(base.hexside_top)
    for h in changed:
        i = base.index[h]
        ground[i], block_top[i], dep[i], abbey[i] = _hex_terrain(m, table, h)
    for h in changed:
        i = base.index[h]
        for j in base.neighbours[i][1:]:
            key = (i, j) if i < j else (j, i)
            if j >= 0 and key in hexside_top:
                fid = m.hexsides[side_key(h, base.hexes[j])]
                hexside_top[key] = max(ground[i], ground[j]) + table[fid].obstacle
    return tuple(ground), tuple(block_top), tuple(dep), tuple(abbey), hexside_top


@functools.lru_cache(maxsize=32)
def with_overlays(m: MapDef, extra: tuple[tuple[Hex, str], ...]) -> MapDef:
    """``m`` with the overlays ``extra`` ((hex, terrain id), ...) added: a scenario's trenches
    (C2 27.4). Cached by map and overlays, so the games of one scenario share one board."""
    merged = {h: list(v) for h, v in m.overlays.items()}
    for h, tid in extra:
        if tid not in merged.setdefault(h, []):
            merged[h].append(tid)
    return attrs.evolve(m, overlays={h: tuple(v) for h, v in sorted(merged.items())})


@functools.lru_cache(maxsize=32)
def _board_for(m: MapDef, table: TerrainTable) -> Board:
    return Board.from_map(m, table)


@functools.lru_cache(maxsize=64)
def _board_with(base: Board, changes: tuple[tuple[Hex, str], ...]) -> Board:
    """``base`` with ``changes`` (sorted, each a real change): a new map and fresh tables and caches."""
    terrain = dict(base.map.terrain)
    for h, tid in changes:
        if h not in terrain:
            raise GeometryError(f"hex {h} is not on map {base.map.id!r}")
        base.terrain_table[tid]  # an unknown id fails here, not in a later lookup
        terrain[h] = tid
    m = attrs.evolve(base.map, terrain=terrain)
    # The geometry (hexes, index, cube, neighbours, grid) is the map's: only the terrain tables,
    # and of those only the changed hexes and their hexsides.
    tables = _patched_tables(base, m, tuple(h for h, _ in changes))
    ground, block_top, dep, abbey, hexside_top = tables
    return attrs.evolve(
        base,
        map=m,
        ground=ground,
        block_top=block_top,
        depression=dep,
        abbey=abbey,
        hexside_top=hexside_top,
        shared={},
        changes=changes,
        base_board=base,
    )
