"""Roll ranges (``"25-32"``, ``"00-09"``, ``"4"``): the rows of the vehicle tables (C2 31.10-31.11).

:class:`Rolls` is an inclusive range of d10 faces or %D readings, structured from the YAML by the
one converter; :func:`coverage` records the gaps, overlaps and out-of-range rows so that the rows
of a hit location table (%D 00-99), a damage column (d10 0-9) or a VOM column (00-99) cover it
exactly once.

May import: :mod:`solo.core` only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import attrs

from solo.core.datafile import (
    DataFile,
    DocPath,
    Problems,
    converter,
    describe,
)


@attrs.frozen(order=True)
class Rolls:
    """An inclusive range of d10 faces or %D readings: ``"25-32"``, ``"4"``, ``"00-09"``."""

    first: int
    last: int

    @classmethod
    def parse(cls, value: str | int) -> Rolls:
        """Read ``"25-32"``, ``"00-09"``, ``"4"`` or the integer ``4``. Raises :class:`ValueError`."""
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ValueError(f"expected a roll range like '25-32' or '4', got {describe(value)}")
        if isinstance(value, int):
            return cls(value, value)
        m = _ROLLS.match(value.strip())
        if not m:
            raise ValueError(f"bad roll range {value!r} (expected 'first-last' or one number, e.g. '25-32')")
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) is not None else first
        return cls(first, last)

    def __contains__(self, roll: object) -> bool:
        return isinstance(roll, int) and self.first <= roll <= self.last

    def format(self, width: int = 1) -> str:
        """``"25-32"`` (numbers padded to ``width`` digits; one number when first == last)."""
        a, b = f"{self.first:0{width}d}", f"{self.last:0{width}d}"
        return a if self.first == self.last else f"{a}-{b}"

    def __str__(self) -> str:
        return self.format()


_ROLLS = re.compile(r"^(\d{1,3})(?:\s*-\s*(\d{1,3}))?$")


def _structure_rolls(value: Any, _type: type) -> Rolls:
    return Rolls.parse(value)


converter.register_structure_hook(Rolls, _structure_rolls)


def coverage(
    doc: DataFile,
    probs: Problems,
    rows: Sequence[tuple[Rolls, DocPath]],
    lo: int,
    hi: int,
    what: str,
    width: int,
) -> None:
    """Record gaps, overlaps and out-of-range rows so that ``rows`` cover ``lo``-``hi`` exactly once."""
    ok: list[tuple[Rolls, DocPath]] = []
    for rolls, path in rows:
        if rolls.first > rolls.last:
            probs.add(doc, path, f"{what}: rows {rolls.format(width)} run backwards")
        elif rolls.first < lo or rolls.last > hi:
            probs.add(doc, path, f"{what}: rows {rolls.format(width)} outside {lo:0{width}d}-{hi:0{width}d}")
        else:
            ok.append((rolls, path))
    ok.sort(key=lambda item: (item[0].first, item[0].last))
    expected = lo
    previous: tuple[Rolls, DocPath] | None = None
    for rolls, path in ok:
        if rolls.first > expected:
            gap = Rolls(expected, rolls.first - 1).format(width)
            probs.add(doc, path, f"{what}: gap before rows {rolls.format(width)}: {gap} give nothing")
        elif rolls.first < expected and previous is not None:
            line = doc.line_of(previous[1])
            probs.add(
                doc,
                path,
                f"{what}: rows {rolls.format(width)} overlap rows {previous[0].format(width)}"
                + (f" (line {line})" if line is not None else ""),
            )
        if previous is None or rolls.last >= expected:
            previous = (rolls, path)
        expected = max(expected, rolls.last + 1)
    if expected <= hi:
        where = ok[-1][1] if ok else (rows[0][1][:-1] if rows else ())
        probs.add(doc, where, f"{what}: {Rolls(expected, hi).format(width)} give nothing")


__all__ = [
    "Rolls",
    "coverage",
]
