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
    unit: str = ""
    """What one step of the number is (``"hexes"``, ``"d10 faces"``, ``"WS points"``, ``"VP"``...)."""

    def __str__(self) -> str:
        return f"{self.lo}–{self.hi}"

    def check(self, value: int, written: Any = None) -> int:
        """``value`` if it lies in this range; else raise :class:`OutOfRangeError` (naming ``written``)."""
        if not self.lo <= value <= self.hi:
            raise OutOfRangeError(value if written is None else written, self)
        return value


class OutOfRangeError(ValueError):
    """A number of a data file outside its :class:`Range` (message: ``value is out of range lo–hi
    (unit)``, the unit left out when the range has none)."""

    def __init__(self, value: Any, bound: Range):
        self.value = value
        self.bound = bound
        unit = f" ({bound.unit})" if bound.unit else ""
        super().__init__(f"{value!r} is out of range {bound}{unit}")


@attrs.frozen
class Within:
    """The :class:`Range` of the numbers written inside a text field (the modifiers of range bands
    ``"1:+2 2-3:+1"``, fire chart cells ``"-5M"``): its parser checks them, the reference shows them."""

    bound: Range


def within_of(tp: Any) -> Range | None:
    """The :class:`Range` of a :class:`Within` declared on an ``Annotated`` type (or on a member of
    its union), or None."""
    for t in (tp, *typing.get_args(tp)):
        if typing.get_origin(t) is Annotated:
            for meta in t.__metadata__:
                if isinstance(meta, Within):
                    return meta.bound
    return None


def range_of(tp: Any) -> Range | None:
    """The :class:`Range` declared on an ``Annotated`` type, or None."""
    if typing.get_origin(tp) is Annotated:
        for meta in tp.__metadata__:
            if isinstance(meta, Range):
                return meta
    return None


def bound_of(tp: Any) -> Range:
    """The :class:`Range` declared on ``tp`` (one of the types below). Raises :class:`TypeError` if none."""
    bound = range_of(tp)
    if bound is None:
        raise TypeError(f"{tp!r} declares no Range")
    return bound


D10 = Annotated[int, Range(0, 9, "a d10 face", "d10 faces")]
"""A face of the d10 (0–9; base-rules §7, C2 23.1)."""
D10_2D6 = Annotated[int, Range(2, 12, "a 2d6 total", "2d6 pips")]
"""A total of two d6 (2–12; heavy rain LOS, C2 30.3)."""
TQ = Annotated[int, Range(0, 12, "a TQ", "TQ points")]
"""A character's Troop Quality (TQ) or a TQ target (C2 25.0; 0–12 with modifiers)."""
LDR = Annotated[int, Range(0, 5, "a leadership", "LDR points")]
"""A leader's leadership (LDR) bonus (C2 25.0)."""
WS = Annotated[int, Range(0, 20, "a WS", "WS points")]
"""A weapon strength (WS) printed on a counter or chart (base-rules §13)."""
MODIFIER = Annotated[int, Range(-9, 9, "a modifier", "points of the roll, TQ or WS")]
"""A modifier to a roll, a TQ or a WS (d10 faces are 0–9, so a larger modifier decides every roll)."""
MORALE_STEPS = Annotated[int, Range(-6, 6, "a morale change", "Morale State steps")]
"""A change of Morale State in steps (seven states, base-rules §7)."""
COUNT = Annotated[int, Range(0, 99, "a count", "things")]
"""A number of things (cards, men, dummies, counters, uses)."""
POSITIVE = Annotated[int, Range(1, 99, "a count of at least 1", "things")]
"""A count that must be at least 1."""
ARMOUR = Annotated[int, Range(0, 20, "an armour value", "armour points")]
"""A vehicle armour value, normal or glancing (C2 31.9)."""
RANGE = Annotated[int, Range(0, 999, "a range in hexes", "hexes")]
"""A distance in hexes (weapon ranges, capture range, band limits)."""
HEXES = Annotated[int, Range(1, 99, "a number of hexes", "hexes")]
"""A map size in columns or rows, or a move in hexes (at least 1)."""
LEVEL = Annotated[int, Range(-3, 9, "a level", "levels")]
"""An elevation or obstacle level (base-rules §10)."""
DIRECTION = Annotated[int, Range(0, 11, "a direction", "directions")]
"""A hex direction (0–5) or a wedge of a vehicle's arcs (0–11; C2 31.5)."""
TURN = Annotated[int, Range(1, 99, "a turn", "turns")]
"""A turn number, or a number of turns (at least 1)."""
MONTH = Annotated[int, Range(1, 12, "a month", "months")]
"""A month of the year (base-rules §10 seasons)."""
VP = Annotated[int, Range(0, 20, "a VP award", "VP")]
"""Victory points given for one thing (an objective, an exit, a kill, a loss; base-rules §21):
never negative (losses are subtracted); the house scenarios give 1–5."""
VP_TOTAL = Annotated[int, Range(-50, 50, "a VP total", "VP")]
"""A Friendly VP total, as a victory band's ``min_vp`` (base-rules §21; the house bands span 0–16)."""
ROW = Annotated[int, Range(1, 5, "a card row", "card rows")]
"""A row of the Cover/Open table of an Enemy Order card (base-rules §5.1)."""
INITIATIVE = Annotated[int, Range(0, 99, "an initiative number", "initiative points")]
"""An Enemy Order card's initiative number (base-rules §5.2)."""
COUNTER = Annotated[int, Range(1, 99, "a counter number", "counter numbers")]
"""The number printed on a counter (C2 25.0, C2 31.3)."""
GROUP = Annotated[int, Range(0, 6, "a chart column", "chart columns")]
"""The spotting or fire chart column (S0–S6, F0–F6) of an order (base-rules §6)."""
PF_LEVEL = Annotated[int, Range(0, 4, "a Panzerfaust Level", "Panzerfaust Levels")]
"""A scenario's Panzerfaust Level (C2 32.3)."""
PERCENT_MODIFIER = Annotated[int, Range(-99, 99, "a %D modifier", "%D points")]
"""A modifier to a percentile (%D, 00–99) roll (the VOM's morale modifiers, C2 31.11.3)."""


# -- Modifiers, by what they modify: the span of the house charts, widened by about one step ------

BAND_MODIFIER = Annotated[int, Range(-9, 4, "a range band modifier", "WS points")]
"""A weapon's range band modifier to its WS (base-rules §10; the house weapons chart spans −8 to +2:
a gun at long range to a rifle at 1 hex)."""
SPOT_RANGE_MODIFIER = Annotated[int, Range(-4, 3, "a spotting range modifier", "d10 faces")]
"""A spotting range band modifier (base-rules §9; the house chart spans −2 to +2, and −1 per ten
hexes beyond)."""
SPOT_MODIFIER = Annotated[int, Range(-6, 3, "a spotting chart modifier", "d10 faces")]
"""A cell of the spotting chart (base-rules §9; the house chart spans −5 to +2)."""
FIRE_MODIFIER = Annotated[int, Range(-6, 3, "a fire chart modifier", "WS points")]
"""A cell of the fire chart (base-rules §13; the house chart spans −5 to +1)."""
ORDER_WS_MODIFIER = Annotated[int, Range(-6, 2, "an order's WS modifier", "WS points")]
"""An order's modifier to its firer's WS (base-rules §4; the house orders span −5 to 0)."""
ORDER_TQ_MODIFIER = Annotated[int, Range(-2, 2, "an order's melee TQ modifier", "TQ points")]
"""An order's modifier to the melee TQ on its X step (base-rules §11; Charge gives +1)."""
MORALE_WS_MODIFIER = Annotated[int, Range(-3, 3, "a Morale State's fire modifier", "WS points")]
"""A Morale State's modifier to its man's fire WS (base-rules §7, C2 30.1; the house table spans
−2 to +3), falling from Berserk to Shaken."""
MORALE_TQ_MODIFIER = Annotated[int, Range(-3, 3, "a Morale State's melee modifier", "TQ points")]
"""A Morale State's modifier to its man's melee TQ (base-rules §7, §11; the house table spans
−2 to +3), falling from Berserk to Shaken."""
ROF = Annotated[int, Range(1, 6, "a rate of fire", "shots per Impulse")]
"""A weapon's rate of fire (ROF, base-rules §10; the house weapons chart spans 1–5)."""
