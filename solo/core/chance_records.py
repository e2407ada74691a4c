"""The records of chance: one frozen record per die roll, random pick, card draw or shuffle, and
their serialisation.

A :class:`~solo.core.dice.Dice` gives back a :class:`Roll` (d10, d6, d3, %D or a
dice expression; base-rules "Dice", C2 23.1, C2 23.7), a :class:`Pick` (a random
selection, C2 23.2), and through a :class:`~solo.core.decks.Deck` a :class:`Draw`
or a :class:`Shuffle`. Each names its *purpose* and its sequence number ``seq``
among all records of the dice.

In every record ``faces`` are the physical faces read from the dice and
``total`` is the game value.

Records serialise to plain JSON-able dicts (:func:`record_to_dict`,
:func:`record_from_dict`); the log keeps the records it needs that way.

May import: the standard library and attrs only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

__all__ = [
    "ChanceRecord",
    "Draw",
    "Pick",
    "Roll",
    "Shuffle",
    "record_from_dict",
    "record_to_dict",
]


@attrs.frozen
class Roll:
    """One die roll: d10, d6, d3, %D or a dice expression.

    Example: ``Roll(kind='d10', faces=(7,), total=7, purpose='spot: Sch. Ziegler
    -> Pvt Diaz', seq=12)``.
    """

    kind: str
    """``"d10"``, ``"d6"``, ``"d3"``, ``"%D"`` or a canonical expression (``"1d6+4"``)."""
    faces: tuple[int, ...]
    """Physical faces in the order rolled: d10 0-9, d6 1-6 (also for a d3),
    ``(tens, units)`` for %D."""
    total: int
    """The game value: the face, the d3 result, 00-99 for %D, the expression's sum."""
    purpose: str
    """Why the roll was made, for the log."""
    seq: int
    """0-based position among all records of the :class:`~solo.core.dice.Dice`."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``"type": "roll"``)."""
        return {
            "type": "roll",
            "kind": self.kind,
            "faces": list(self.faces),
            "total": self.total,
            "purpose": self.purpose,
            "seq": self.seq,
        }


@attrs.frozen
class Pick:
    """One random selection among ``size`` options (C2 23.2 "random selection").

    ``index`` is 0-based into the options; the die face read was ``index + 1``.
    """

    size: int
    """How many options there were (the die had faces 1..size)."""
    index: int
    """The 0-based index of the chosen option."""
    label: str
    """``str()`` of the chosen option, for the log."""
    purpose: str
    seq: int

    @property
    def face(self) -> int:
        """The die face read, 1..size."""
        return self.index + 1

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``"type": "pick"``)."""
        return {
            "type": "pick",
            "size": self.size,
            "index": self.index,
            "label": self.label,
            "purpose": self.purpose,
            "seq": self.seq,
        }


@attrs.frozen
class Draw:
    """One card drawn from a :class:`~solo.core.decks.Deck`."""

    deck: str
    """The deck's name."""
    card: str
    """The card id drawn."""
    purpose: str
    seq: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``"type": "draw"``)."""
        return {
            "type": "draw",
            "deck": self.deck,
            "card": self.card,
            "purpose": self.purpose,
            "seq": self.seq,
        }


@attrs.frozen
class Shuffle:
    """One shuffle of a :class:`~solo.core.decks.Deck`'s draw pile (with its discards or not)."""

    deck: str
    size: int
    """Cards in the draw pile after the shuffle."""
    with_discards: bool
    """The discards were put into the draw pile before shuffling."""
    purpose: str
    seq: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (``"type": "shuffle"``)."""
        return {
            "type": "shuffle",
            "deck": self.deck,
            "size": self.size,
            "with_discards": self.with_discards,
            "purpose": self.purpose,
            "seq": self.seq,
        }


ChanceRecord = Roll | Pick | Draw | Shuffle
"""Any record a :class:`~solo.core.dice.Dice` produces."""


def record_to_dict(record: ChanceRecord) -> dict[str, Any]:
    """A JSON-able dict of any record; :func:`record_from_dict` reads it back."""
    return record.to_dict()


def record_from_dict(data: Mapping[str, Any]) -> ChanceRecord:
    """The record written by :func:`record_to_dict`; ValueError on an unknown type."""
    d = dict(data)
    kind = d.pop("type", None)
    if kind == "roll":
        d["faces"] = tuple(d["faces"])
        return Roll(**d)
    if kind == "pick":
        return Pick(**d)
    if kind == "draw":
        return Draw(**d)
    if kind == "shuffle":
        return Shuffle(**d)
    raise ValueError(f"unknown chance record type {kind!r}")
