"""Terrain types as data (``cards/terrain.yaml``): what each terrain does for LOS, cards and vehicles.

Every terrain of base-rules §16 and Combat!2 rule 27 is one :class:`TerrainType`.
Maps name terrain by id; the charts name rows by :attr:`TerrainType.chart_row`.
:class:`TerrainTable` looks them up by id (the :class:`~solo.core.catalog.Catalog` mixin).

May import: :mod:`solo.core` only.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import ClassVar

import attrs

from solo.core.bounds import D10, LEVEL, MONTH
from solo.core.catalog import Catalog
from solo.core.datafile import Problems, check_unique, read_card_file, structure


class LosKind(enum.Enum):
    """How a terrain affects LOS through it (base-rules §16)."""

    NONE = "none"
    """No effect (open ground, roads, barbed wire)."""
    BLOCK = "block"
    """B: an obstacle of the terrain's height."""
    SMALL = "small"
    """S: an obstacle only if either end has a low order (Sneak, Hide, Reload, Rally; C2 27.8)."""
    DEPRESSION = "depression"
    """D: ground sunk; a target here with a low order is seen only from close by (C2 27.8)."""


class VehicleEntry(enum.Enum):
    """Whether an AFV or Half-Track may enter (C2 31.5)."""

    PASS = "pass"
    CRAWL = "crawl"
    """May enter, then switches to Crawl and stops for the impulse (Trees, C2 31.5 note)."""
    IMPASSABLE = "impassable"


class Placement(enum.Enum):
    """Where a terrain may stand on a map."""

    HEX = "hex"
    """As the terrain of a whole hex."""
    HEXSIDE = "hexside"
    """Along a hexside only."""
    HEX_OR_HEXSIDE = "hex_or_hexside"
    """Either (hedge, wall, bocage)."""
    OVERLAY = "overlay"
    """A marker or counter on top of the hex's terrain (barbed wire, foxholes, trenches)."""
    HEX_OR_OVERLAY = "hex_or_overlay"
    """A whole hex, or a marker on another terrain (fortified building, crater)."""


class Abbey(enum.Enum):
    """The two kinds of Abbey hex (C2 27.5)."""

    NONE = "none"
    EXTERIOR = "exterior"
    INTERIOR = "interior"


@attrs.frozen
class TerrainType:
    """One terrain type. Heights are in half-levels (2 = one level)."""

    id: str
    """Stable snake_case id used by maps (``"trees"``)."""
    name: str
    rule: str
    """Where the rule comes from (``"11.03"``, ``"C2 27.1"``)."""
    cover: bool
    """Cover (True) or Open (False) for the Enemy Order cards (base-rules §5.4)."""
    rough: bool
    """Rough terrain for movement (Sprint → Duck Back)."""
    los: LosKind
    obstacle: LEVEL
    """Obstacle height above the hex's ground, half-levels (B and S terrain)."""
    ground_offset: LEVEL
    """Added to the hex's ground height: −1 for Depression, Stream, Trench (§16 step 3)."""
    vehicles: VehicleEntry
    """AFV and Half-Track entry (C2 31.5)."""
    wheeled_passable: bool
    """Whether Jeeps and Trucks may enter (C2 31.5: trees and barbed wire are impassable)."""
    chart_row: str
    """Row id in the spotting and fire charts (``cards/charts.yaml``)."""
    placement: Placement
    kindling: D10 | None = None
    """d10 ≤ kindling after an artillery attack starts a fire (C2 29.1–29.2); None = never."""
    growth: D10 | None = None
    """d10 ≤ growth turns a Fire to a Raging Fire (C2 29.3)."""
    spread: D10 | None = None
    """d10 ≤ spread lets a Raging Fire spread here from upwind (C2 29.4)."""
    small_months: tuple[MONTH, ...] | None = None
    """For S terrain that is small only in some months (Fields: 6, 7, 8); None = always."""
    abbey: Abbey = Abbey.NONE
    character_passable: bool = True
    """Whether characters may enter at all."""
    rough_unless_hiding: bool = False
    """Barbed wire: not Rough if a same-side character in the hex is on Hide (C2 27.7)."""
    hit_becomes: str | None = None
    """The terrain id a hex of this terrain becomes when a shell or C4 explodes in it (a Building
    hit becomes Rubble, base-rules §14, rulebook 11.14); None = it stays."""

    def is_small_in(self, month: int) -> bool:
        """Whether this S terrain counts as small in ``month`` (1–12)."""
        return self.los is LosKind.SMALL and (self.small_months is None or month in self.small_months)


@attrs.frozen
class TerrainTable(Catalog):
    """All terrain types, by id (:meth:`get`, ``table[id]``, ``in``, iteration in file order)."""

    _ITEMS: ClassVar[str] = "types"
    _WHAT: ClassVar[str] = "terrain"

    types: tuple[TerrainType, ...]
    _by_id: dict[str, TerrainType] = attrs.field(init=False, eq=False, repr=False)
    source: str = "cards/terrain.yaml"

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {t.id: t for t in self.types})

    def __getitem__(self, terrain_id: str) -> TerrainType:
        """The terrain type ``terrain_id`` (a bare :class:`KeyError` if none: the LOS hot path)."""
        return self._by_id[terrain_id]


@attrs.frozen
class _TerrainFile:
    terrain: tuple[TerrainType, ...]


def load_terrain(path: Path | None = None) -> TerrainTable:
    """Load and check ``cards/terrain.yaml`` (or ``path``).

    Raises :class:`~solo.core.errors.DataError` listing every problem with its line.
    """
    doc = read_card_file(path, "terrain.yaml")
    parsed = structure(doc, _TerrainFile)
    probs = Problems()
    check_unique(
        probs,
        doc,
        [(("terrain", i, "id"), t.id) for i, t in enumerate(parsed.terrain)],
        "duplicate terrain id {id!r} (also entry {index})",
    )
    for i, t in enumerate(parsed.terrain):
        if t.obstacle < 0:
            probs.add(doc, ("terrain", i, "obstacle"), "obstacle height must be 0 or more")
        for key in ("kindling", "growth", "spread"):
            v = getattr(t, key)
            if v is not None and not 0 <= v <= 9:
                probs.add(doc, ("terrain", i, key), f"{key} is a d10 face 0-9, got {v}")
        if t.small_months is not None:
            if t.los is not LosKind.SMALL:
                probs.add(doc, ("terrain", i, "small_months"), "small_months only applies to los: small")
            for j, m in enumerate(t.small_months):
                if not 1 <= m <= 12:
                    probs.add(doc, ("terrain", i, "small_months", j), f"month must be 1-12, got {m}")
        if t.hit_becomes is not None:
            after = next((x for x in parsed.terrain if x.id == t.hit_becomes), None)
            if t.hit_becomes == t.id:
                probs.add(doc, ("terrain", i, "hit_becomes"), f"{t.id} cannot become itself when hit (§14)")
            elif after is None or after.placement not in (Placement.HEX, Placement.HEX_OR_HEXSIDE):
                probs.add(
                    doc,
                    ("terrain", i, "hit_becomes"),
                    f"hit_becomes {t.hit_becomes!r} is not a terrain that fills a hex",
                )
            elif t.placement not in (Placement.HEX, Placement.HEX_OR_HEXSIDE, Placement.HEX_OR_OVERLAY):
                probs.add(doc, ("terrain", i, "hit_becomes"), "only a terrain that fills a hex can be hit")
        if t.los in (LosKind.BLOCK, LosKind.SMALL) and t.obstacle == 0:
            probs.add(doc, ("terrain", i, "obstacle"), f"los {t.los.value} needs an obstacle height > 0")
    probs.raise_if_any()
    return TerrainTable(parsed.terrain, source=doc.name)


def check_chart_rows(table: TerrainTable, chart_rows: set[str] | frozenset[str]) -> list[str]:
    """Terrain ids whose ``chart_row`` is not among ``chart_rows`` (for cross-file checks)."""
    return [t.id for t in table.types if t.chart_row not in chart_rows]


__all__ = [
    "Abbey",
    "LosKind",
    "Placement",
    "TerrainTable",
    "TerrainType",
    "VehicleEntry",
    "check_chart_rows",
    "load_terrain",
]
