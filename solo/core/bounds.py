"""The range of every number in the data files, declared once next to the field.

A field of a data class is typed ``D10``, ``TQ``, ``MODIFIER``... instead of ``int``:
each is ``typing.Annotated[int, Range(lo, hi)]``, and the converter of
:mod:`solo.core.datafile` refuses a value outside ``lo``–``hi`` with
``path:line: field: value is out of range lo–hi``. ``tools/data_keys`` reads the same
annotations to write ``docs/data_keys.md``.

The ranges are what the rules allow (d10 faces 0–9, base-rules §7; a TQ or WS of a
counter, C2 25.0; armour of C2 31.9) widened only where the house data needs it; a
designer who needs more edits the range here, once.

May import: nothing of ``solo``.
"""

from __future__ import annotations

import typing
from typing import Annotated, Any

import attrs


@attrs.frozen
class Range:
    """The closed range ``lo``–``hi`` a number of the data files must lie in; ``what`` names it."""

    lo: int
    hi: int
    what: str = ""

    def __str__(self) -> str:
        return f"{self.lo}–{self.hi}"


class OutOfRangeError(ValueError):
    """A number of a data file outside its :class:`Range` (message: ``value is out of range lo–hi``)."""

    def __init__(self, value: Any, bound: Range):
        self.value = value
        self.bound = bound
        super().__init__(f"{value!r} is out of range {bound}")


def range_of(tp: Any) -> Range | None:
    """The :class:`Range` declared on an ``Annotated`` type, or None."""
    if typing.get_origin(tp) is Annotated:
        for meta in tp.__metadata__:
            if isinstance(meta, Range):
                return meta
    return None


D10 = Annotated[int, Range(0, 9, "a d10 face")]
"""A face of the d10 (0–9; base-rules §7, C2 23.1)."""
D10_2D6 = Annotated[int, Range(2, 12, "a 2d6 total")]
"""A total of two d6 (2–12; heavy rain LOS, C2 30.3)."""
TQ = Annotated[int, Range(0, 12, "a TQ")]
"""A character's Troop Quality (TQ) or a TQ target (C2 25.0; 0–12 with modifiers)."""
LDR = Annotated[int, Range(0, 5, "a leadership")]
"""A leader's leadership (LDR) bonus (C2 25.0)."""
WS = Annotated[int, Range(0, 20, "a WS")]
"""A weapon strength (WS) printed on a counter or chart (base-rules §13)."""
MODIFIER = Annotated[int, Range(-9, 9, "a modifier")]
"""A modifier to a roll, a TQ or a WS (d10 faces are 0–9, so a larger modifier decides every roll)."""
MORALE_STEPS = Annotated[int, Range(-6, 6, "a morale change")]
"""A change of Morale State in steps (seven states, base-rules §7)."""
COUNT = Annotated[int, Range(0, 99, "a count")]
"""A number of things (cards, men, dummies, counters, uses)."""
POSITIVE = Annotated[int, Range(1, 99, "a count of at least 1")]
"""A count that must be at least 1."""
ARMOUR = Annotated[int, Range(0, 20, "an armour value")]
"""A vehicle armour value, normal or glancing (C2 31.9)."""
RANGE = Annotated[int, Range(0, 999, "a range in hexes")]
"""A distance in hexes (weapon ranges, capture range, band limits)."""
HEXES = Annotated[int, Range(1, 99, "a number of hexes")]
"""A map size in columns or rows, or a move in hexes (at least 1)."""
LEVEL = Annotated[int, Range(-3, 9, "a level")]
"""An elevation or obstacle level (base-rules §10)."""
DIRECTION = Annotated[int, Range(0, 11, "a direction")]
"""A hex direction (0–5) or a wedge of a vehicle's arcs (0–11; C2 31.5)."""
TURN = Annotated[int, Range(1, 99, "a turn")]
"""A turn number, or a number of turns (at least 1)."""
MONTH = Annotated[int, Range(1, 12, "a month")]
"""A month of the year (base-rules §10 seasons)."""
VP = Annotated[int, Range(-99, 99, "victory points")]
"""Victory points (base-rules §21)."""
ROW = Annotated[int, Range(1, 5, "a card row")]
"""A row of the Cover/Open table of an Enemy Order card (base-rules §5.1)."""
INITIATIVE = Annotated[int, Range(0, 99, "an initiative number")]
"""An Enemy Order card's initiative number (base-rules §5.2)."""
COUNTER = Annotated[int, Range(1, 99, "a counter number")]
"""The number printed on a counter (C2 25.0, C2 31.3)."""
GROUP = Annotated[int, Range(0, 6, "a chart column")]
"""The spotting or fire chart column (S0–S6, F0–F6) of an order (base-rules §6)."""
PF_LEVEL = Annotated[int, Range(0, 4, "a Panzerfaust Level")]
"""A scenario's Panzerfaust Level (C2 32.3)."""
PERCENT_MODIFIER = Annotated[int, Range(-99, 99, "a %D modifier")]
"""A modifier to a percentile (%D, 00–99) roll (the VOM's morale modifiers, C2 31.11.3)."""
