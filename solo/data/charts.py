"""The spotting and fire charts (``cards/charts.yaml``; base-rules §9, §10): :class:`Charts`.

Lines are the target's terrain (:class:`ChartRow`, named by each terrain type's ``chart_row``),
columns the spotting groups S0-S6 and fire groups G0-G6 (the integers 0-6) of the target's order;
a fire cell may hit for a Morale Check only ("(M)", :class:`FireCell`). The spotting range
modifier is range bands from 0 hexes, then a further step per so many hexes (:class:`SpotRange`).
:func:`load_charts` reads and checks the file and raises one :class:`~solo.core.errors.DataError`
naming every problem with its line; :meth:`Charts.spot_modifier`, :meth:`Charts.fire_cell` and
:meth:`Charts.spot_range_modifier` index tables built once.

May import: :mod:`solo.core`, :mod:`solo.data.bands`.
"""

from __future__ import annotations

import enum
import re
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import attrs

from solo.core.bounds import (
    FIRE_MODIFIER,
    HEXES,
    SPOT_MODIFIER,
    SPOT_RANGE_MODIFIER,
    OutOfRangeError,
    Within,
    bound_of,
)
from solo.core.datafile import DataFile, Problems, read_card_file, structure
from solo.data.bands import Bands

_SPOT_RANGE = bound_of(SPOT_RANGE_MODIFIER)
_FIRE = bound_of(FIRE_MODIFIER)

GROUP_COUNT = 7
"""Columns of the spotting (S0-S6) and fire (G0-G6) charts."""


class ChartRow(enum.StrEnum):
    """A line of the spotting and fire charts; terrain types name theirs with ``chart_row``."""

    OPEN = "open"
    ROCKS = "rocks"
    RUBBLE = "rubble"
    BUILDING = "building"
    FORTIFIED_BUILDING = "fortified_building"
    MARSH = "marsh"
    WALL = "wall"
    BOCAGE = "bocage"
    TREES = "trees"
    HEDGE = "hedge"
    LONG_GRASS = "long_grass"
    LOGS = "logs"
    DEPRESSION = "depression"
    STREAM = "stream"
    CRATER = "crater"
    FOXHOLE = "foxhole"
    TRENCH = "trench"
    ORCHARD = "orchard"
    FIELD = "field"
    FOUNTAIN = "fountain"
    ABBEY_OUTSIDE = "abbey_outside"
    """C2 27.5: the spotter or firer is outside the Abbey."""
    ABBEY_INSIDE = "abbey_inside"
    """C2 27.5: the spotter or firer is inside the Abbey."""
    HATCH = "hatch"
    """A crew member at an open hatch (C2 31.8); Open line [house]."""
    WITH_AFV = "with_afv"
    """A man in a hex with an AFV; Open line [house]."""


class FireCell(NamedTuple):
    """A fire chart cell: the WS modifier and whether a hit causes only an MC ("(M)", §10)."""

    modifier: int
    morale_only: bool

    def __str__(self) -> str:
        return f"{self.modifier}{'M' if self.morale_only else ''}"


_FIRE_CELL = re.compile(r"^([+-]?\d+)M$")


def _bounded(modifier: int, written: Any) -> int:
    bound = _FIRE
    if not bound.lo <= modifier <= bound.hi:
        raise OutOfRangeError(written, bound)
    return modifier


def parse_fire_cell(value: Any) -> FireCell:
    """Read a fire chart cell: an integer, or a string like ``"-5M"`` for an (M) cell.

    Raises :class:`ValueError`.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return FireCell(_bounded(value, value), False)
    if isinstance(value, str):
        m = _FIRE_CELL.match(value.strip())
        if m:
            return FireCell(_bounded(int(m.group(1)), value), True)
    raise ValueError(
        f"bad fire cell {value!r} (expected an integer, or an integer then M for a "
        "morale-only cell, e.g. -5M)"
    )


def _check_group(group: int) -> int:
    if not isinstance(group, int) or not 0 <= group < GROUP_COUNT:
        raise ValueError(f"group must be 0-6, got {group!r}")
    return group


@attrs.frozen
class SpotRange:
    """The spotting range modifier (base-rules §9): bands, then ``beyond_modifier`` more per
    further ``beyond_every`` hexes."""

    bands: Bands
    beyond_every: HEXES
    beyond_modifier: SPOT_RANGE_MODIFIER

    def modifier(self, range_hexes: int) -> int:
        """The modifier at ``range_hexes`` (0 or more). Raises :class:`ValueError` if negative."""
        if range_hexes < 0:
            raise ValueError(f"range must be 0 or more hexes, got {range_hexes}")
        inside = self.bands.modifier(range_hexes)
        if inside is not None:
            return inside
        last = self.bands.last
        base = self.bands.modifier(last)
        assert base is not None
        further = -(-(range_hexes - last) // self.beyond_every)
        return base + further * self.beyond_modifier


@attrs.frozen
class SpotLine:
    """A spotting chart line: the modifiers for S0-S6."""

    row: ChartRow
    cells: tuple[SPOT_MODIFIER, ...]


@attrs.frozen
class FireLine:
    """A fire chart line: the cells for G0-G6."""

    row: ChartRow
    cells: tuple[FireCell, ...]


@attrs.frozen
class Charts:
    """The spotting and fire charts (target terrain × group) and the spotting range modifier."""

    spotting: tuple[SpotLine, ...]
    fire: tuple[FireLine, ...]
    spot_range: SpotRange
    _spot: dict[str, tuple[int, ...]] = attrs.field(init=False, eq=False, repr=False)
    _fire: dict[str, tuple[FireCell, ...]] = attrs.field(init=False, eq=False, repr=False)
    _range: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_spot", {str(line.row): line.cells for line in self.spotting})
        object.__setattr__(self, "_fire", {str(line.row): line.cells for line in self.fire})
        # Precompute the range modifier to 100 hexes; beyond that it is computed.
        object.__setattr__(self, "_range", tuple(self.spot_range.modifier(r) for r in range(101)))

    def row_ids(self) -> tuple[str, ...]:
        """The chart-row ids charted in both charts (every :class:`ChartRow` once loaded)."""
        return tuple(str(line.row) for line in self.spotting if str(line.row) in self._fire)

    def spot_modifier(self, row: ChartRow | str, group: int) -> int:
        """Spotting chart modifier for a target in ``row`` with spot group ``group`` (S0-S6 = 0-6).

        base-rules §9. Raises :class:`KeyError` for an unknown row, :class:`ValueError` for a
        group outside 0-6.
        """
        return self._spot[row][_check_group(group)]

    def fire_cell(self, row: ChartRow | str, group: int) -> FireCell:
        """Fire chart cell ``(modifier, morale_only)`` for a target in ``row``, group G0-G6 = 0-6.

        base-rules §10. Raises :class:`KeyError` for an unknown row, :class:`ValueError` for a
        group outside 0-6.
        """
        return self._fire[row][_check_group(group)]

    def spot_range_modifier(self, range_hexes: int) -> int:
        """Spotting range modifier at ``range_hexes`` (base-rules §9: 0-1 +2 ... 21-30 -2, -1 per
        further 10). Raises :class:`ValueError` for a negative range."""
        table = self._range
        if 0 <= range_hexes < len(table):
            return table[range_hexes]
        return self.spot_range.modifier(range_hexes)


@attrs.frozen
class SpotRangeEntry:
    """``spot_range`` of ``charts.yaml`` as written."""

    bands: Annotated[str, Within(_SPOT_RANGE)]
    beyond_every: HEXES
    beyond_modifier: SPOT_RANGE_MODIFIER


@attrs.frozen
class ChartsFile:
    """``charts.yaml`` as written."""

    spot_range: SpotRangeEntry
    spotting: dict[str, list[SPOT_MODIFIER]]
    fire: dict[str, list[Annotated[Any, Within(_FIRE)]]]


def _chart_lines(
    doc: DataFile, probs: Problems, section: str, rows: dict[str, list[Any]], parse: Any
) -> list[tuple[ChartRow, tuple[Any, ...]]]:
    lines: list[tuple[ChartRow, tuple[Any, ...]]] = []
    known = {r.value for r in ChartRow}
    for key, cells in rows.items():
        if key not in known:
            probs.add(
                doc,
                (section, key),
                f"unknown chart row {key!r} (expected one of: {', '.join(r.value for r in ChartRow)})",
                at_key=True,
            )
            continue
        if len(cells) != GROUP_COUNT:
            probs.add(
                doc,
                (section, key),
                f"row {key!r} has {len(cells)} columns, expected {GROUP_COUNT} (groups 0-6)",
            )
            continue
        parsed: list[Any] = []
        for k, cell in enumerate(cells):
            try:
                parsed.append(parse(cell))
            except ValueError as exc:
                probs.add(doc, (section, key, k), f"{key}[{k}]: {exc}")
        if len(parsed) == GROUP_COUNT:
            lines.append((ChartRow(key), tuple(parsed)))
    missing = [r.value for r in ChartRow if r.value not in rows]
    if missing:
        probs.add(doc, (section,), f"missing chart row(s): {', '.join(missing)}", at_key=True)
    return lines


def charts_from(doc: DataFile) -> Charts:
    """Build :class:`Charts` from a read ``charts.yaml``.

    Checks: every :class:`ChartRow` present once in each chart, nothing else; 7 columns per
    row; fire cells an integer or ``"<n>M"``; spotting range bands from 0 without gaps,
    overlaps or NA; ``beyond_every`` at least 1. Raises :class:`DataError` listing every
    problem (base-rules §9, §10).
    """
    raw = structure(doc, ChartsFile)
    probs = Problems()
    spot_range: SpotRange | None = None
    try:
        bands = Bands.parse(raw.spot_range.bands, start=0, allow_na=False, bound=_SPOT_RANGE)
    except ValueError as exc:
        probs.add(doc, ("spot_range", "bands"), str(exc))
    else:
        if raw.spot_range.beyond_every < 1:
            probs.add(doc, ("spot_range", "beyond_every"), "beyond_every must be at least 1")
        else:
            spot_range = SpotRange(bands, raw.spot_range.beyond_every, raw.spot_range.beyond_modifier)

    def spot_cell(value: int) -> int:
        return value

    spotting = _chart_lines(doc, probs, "spotting", raw.spotting, spot_cell)
    fire = _chart_lines(doc, probs, "fire", raw.fire, parse_fire_cell)
    probs.raise_if_any()
    assert spot_range is not None
    return Charts(
        spotting=tuple(SpotLine(row, cells) for row, cells in spotting),
        fire=tuple(FireLine(row, cells) for row, cells in fire),
        spot_range=spot_range,
    )


CHARTS_FILE = "charts.yaml"


def load_charts(path: Path | str | None = None) -> Charts:
    """Load ``charts.yaml`` (``None``: the shipped file). Raises :class:`DataError` (base-rules §9-10)."""
    return charts_from(read_card_file(path, CHARTS_FILE))
