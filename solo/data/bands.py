"""Range bands (base-rules §9 spotting range, §10 weapon range bands), written ``"1:+2 2-3:+1 4-10:0"``.

:meth:`Bands.parse` reads the band notation of ``cards/charts.yaml`` and ``cards/weapons.yaml`` and
names every problem (a malformed band, a gap, an overlap, the wrong first or last range, NA where
it is not allowed); :meth:`Bands.modifier` looks a range up in a tuple built once. Ranges are in
hexes, up to :data:`RANGE_LIMIT`.

May import: :mod:`solo.core` only.
"""

from __future__ import annotations

import re

import attrs

from solo.core.bounds import BAND_MODIFIER, MODIFIER, RANGE, Range, bound_of

RANGE_LIMIT = 1000
"""The longest range, in hexes, a band or a weapon may reach (lookup tables are this long)."""


_BAND_TOKEN = re.compile(r"^(\d+)(?:-(\d+))?:(NA|[+-]?\d+)$")


def format_modifier(modifier: int | None) -> str:
    """``+2``, ``0``, ``-4``, or ``NA`` for ``None`` (the band notation)."""
    if modifier is None:
        return "NA"
    return "0" if modifier == 0 else f"{modifier:+d}"


@attrs.frozen
class Band:
    """One range band: hexes ``first``-``last`` (inclusive) give ``modifier`` (``None`` = NA)."""

    first: RANGE
    last: RANGE
    modifier: MODIFIER | None

    def __str__(self) -> str:
        span = str(self.first) if self.first == self.last else f"{self.first}-{self.last}"
        return f"{span}:{format_modifier(self.modifier)}"


def _band_problems(
    bands: tuple[Band, ...], *, start: int | None, end: int | None, allow_na: bool
) -> list[str]:
    out: list[str] = []
    if not bands:
        return ["no bands (expected e.g. '1:+2 2-3:+1 4-10:0')"]
    if max(b.last for b in bands) > RANGE_LIMIT:
        out.append(f"bands reach beyond {RANGE_LIMIT} hexes")
    if start is not None and bands[0].first != start:
        out.append(f"bands must start at {start} hex(es), the first band starts at {bands[0].first}")
    expected = bands[0].first
    for band in bands:
        if band.first > band.last:
            out.append(f"band '{band}' runs backwards")
        if band.first > expected:
            gap = str(expected) if band.first - 1 == expected else f"{expected}-{band.first - 1}"
            out.append(f"gap before band '{band}': hexes {gap} have no band")
        elif band.first < expected:
            out.append(f"band '{band}' overlaps the band before it (expected it to start at {expected})")
        if band.modifier is None and not allow_na:
            out.append(f"band '{band}': NA is not allowed here")
        expected = max(expected, band.last + 1)
    if end is not None and bands[-1].last != end:
        out.append(f"bands end at {bands[-1].last}, expected them to reach {end}")
    return out


@attrs.frozen
class Bands:
    """Contiguous range bands; :meth:`modifier` is a tuple lookup.

    Written ``"1:+2 2-3:+1 4-10:0 11-25:-2"`` (:meth:`parse` / ``str()``); ``NA`` marks a band
    in which the weapon cannot fire. Ranges outside the bands have no modifier (``None``).
    """

    bands: tuple[Band, ...]
    _table: tuple[int | None, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        problems = _band_problems(self.bands, start=None, end=None, allow_na=True)
        if problems:
            raise ValueError("; ".join(problems))
        table: list[int | None] = [None] * (self.bands[-1].last + 1)
        for band in self.bands:
            for r in range(band.first, band.last + 1):
                table[r] = band.modifier
        object.__setattr__(self, "_table", tuple(table))

    @classmethod
    def parse(
        cls,
        text: str,
        *,
        start: int | None = 1,
        end: int | None = None,
        allow_na: bool = True,
        bound: Range | None = None,
    ) -> Bands:
        """Read ``"1:+2 2-3:+1 4-10:0"``.

        ``start``: the range the first band must begin at (``None``: any); ``end``: the range
        the last band must reach (``None``: any); ``bound``: the range of a band's modifier
        (default :data:`~solo.core.bounds.BAND_MODIFIER`, WS points, base-rules §10). Raises
        :class:`ValueError` naming every problem (malformed token, a modifier out of range, gap,
        overlap, wrong start or end, NA where not allowed).
        """
        limit = bound if bound is not None else bound_of(BAND_MODIFIER)
        problems: list[str] = []
        bands: list[Band] = []
        tokens = text.split()
        for token in tokens:
            m = _BAND_TOKEN.match(token)
            if not m:
                problems.append(
                    f"bad band {token!r} (expected 'first-last:modifier' or 'range:modifier', "
                    "e.g. '2-3:+1', '1:+2', '1-4:NA')"
                )
                continue
            first = int(m.group(1))
            last = int(m.group(2)) if m.group(2) is not None else first
            modifier = None if m.group(3) == "NA" else int(m.group(3))
            if modifier is not None and not limit.lo <= modifier <= limit.hi:
                problems.append(
                    f"band {token!r}: modifier {m.group(3)} is out of range {limit} ({limit.unit})"
                )
                continue
            bands.append(Band(first, last, modifier))
        if not problems:
            problems.extend(_band_problems(tuple(bands), start=start, end=end, allow_na=allow_na))
        if problems:
            raise ValueError("; ".join(problems))
        return cls(tuple(bands))

    def __str__(self) -> str:
        return " ".join(str(b) for b in self.bands)

    @property
    def first(self) -> int:
        """The shortest range with a band."""
        return self.bands[0].first

    @property
    def last(self) -> int:
        """The longest range with a band."""
        return self.bands[-1].last

    def modifier(self, range_hexes: int) -> int | None:
        """The modifier at ``range_hexes``; ``None`` for NA or a range outside the bands."""
        table = self._table
        return table[range_hexes] if 0 <= range_hexes < len(table) else None
