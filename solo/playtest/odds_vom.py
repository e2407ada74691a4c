"""Exact odds of the Vehicle Order Matrix read with an Enemy Order deck (C2 31.11.3).

* :func:`vom_odds`: per crew role × VOM column × Morale State, the orders the VOM gives for the
  card's initiative modified by morale (C2 31.11.3, :func:`~solo.data.vom.modified_number`),
  counted over the cards (each equally likely, base-rules §5.5);
* :func:`load_vom_for`: the VOM of a file or a card set directory;
* :func:`vom_column_label`: a readable name for a VOM column.

Nothing here prints; :mod:`solo.cli.deck` formats these for the terminal.

May import: :mod:`solo.data` and :mod:`solo.core`, :mod:`solo.playtest.odds_deck`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from solo.core.errors import DataError, Problem
from solo.data.cards import EnemyOrderCard
from solo.data.tables import MoraleState
from solo.data.vehicle_types import CREW_ACTIVATION_ORDER, Role, VehicleKind
from solo.data.vom import (
    VOM_FILE,
    VOM_MORALES,
    Vom,
    VomColumn,
    load_vom,
    modified_number,
    vom_column,
    vom_order,
)
from solo.playtest.odds_deck import DeckLike, _as_deck, _share

__all__ = [
    "VOM_MORALES",
    "VomCellOdds",
    "VomOdds",
    "load_vom_for",
    "vom_column_label",
    "vom_odds",
]


def load_vom_for(vom: Path | str | None = None, deck: Path | str | None = None) -> Vom:
    """The VOM to read: ``vom`` (a file or a card set directory), else the ``deck`` card set's, else shipped.

    A card set directory without ``vehicle_order_matrix.yaml`` uses the shipped VOM (as
    :func:`solo.data.house.load_data` does), unless it was named as ``vom``. Raises
    :class:`~solo.core.errors.DataError` for a missing or broken file.
    """
    if vom is not None:
        p = Path(vom)
        if p.is_dir():
            f = p / VOM_FILE
            if not f.is_file():
                raise DataError([Problem(str(p), None, f"no {VOM_FILE} in this directory")])
            p = f
        return load_vom(p)
    if deck is not None and Path(deck).is_dir() and (Path(deck) / VOM_FILE).is_file():
        return load_vom(Path(deck) / VOM_FILE)
    return load_vom()


# ---------------------------------------------------------------------------
# The VOM with a deck (C2 31.11.3)


def vom_column_label(column: VomColumn | str) -> str:
    """A readable name for a VOM column, from what :func:`~solo.data.vom.vom_column` maps to it.

    ``"AFV, Target, BU"``, ``"Half-Track, No Target"``, ``"Truck/Jeep"``.
    """
    column = VomColumn(column)
    combos = [
        (kind, target, hatch)
        for kind in VehicleKind
        for target in (False, True)
        for hatch in (False, True)
        if vom_column(kind, target=target, hatch_open=hatch) is column
    ]
    kinds = sorted({k for k, _t, _h in combos}, key=list(VehicleKind).index)
    targets = {t for _k, t, _h in combos}
    hatches = {h for _k, _t, h in combos}
    parts = ["/".join(_KIND_LABELS[k] for k in kinds)]
    if len(targets) == 1:
        parts.append("Target" if targets.pop() else "No Target")
    if len(hatches) == 1:
        parts.append("OPEN" if hatches.pop() else "BU")
    return ", ".join(parts)


_KIND_LABELS = {
    VehicleKind.JEEP: "Jeep",
    VehicleKind.TRUCK: "Truck",
    VehicleKind.HALF_TRACK: "Half-Track",
    VehicleKind.AFV: "AFV",
}


@attrs.frozen
class VomCellOdds:
    """What the VOM gives one crew role in one column at one Morale State (C2 31.11.3)."""

    role: Role
    column: VomColumn
    morale: MoraleState
    modifier: int
    """The house morale modifier added to the initiative before the row is read."""
    total: int
    """Cards counted (each equally likely)."""
    orders: tuple[tuple[str, int], ...]
    """Order ids with their cards, in the role's order list; zero counts left out."""
    cells: tuple[tuple[str, int], ...]
    """Cells as written (``"crawl 6/5"``, ``"aimed_fire bow_mg"``) with their cards, rows ascending."""

    def count(self, order: str) -> int:
        """Cards giving ``order`` (an order id; 0 if none)."""
        return dict(self.orders).get(order, 0)

    def probability(self, order: str) -> Fraction:
        """The exact chance of ``order`` for a card drawn at random."""
        return Fraction(self.count(order), self.total) if self.total else Fraction(0)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {
            "role": self.role.value,
            "column": self.column.value,
            "morale": self.morale.value,
            "modifier": self.modifier,
            "total": self.total,
            "orders": {o: _share(n, self.total) for o, n in self.orders},
            "cells": {c: _share(n, self.total) for c, n in self.cells},
        }


def _vom_cell_odds(
    vom: Vom, cards: Sequence[EnemyOrderCard], role: Role, column: VomColumn, morale: MoraleState
) -> VomCellOdds:
    role_orders = dict(vom.role_orders)[role]
    # C2 31.11.3: the card's initiative modified by morale, clamped 00-99, is the row read.
    got = [vom_order(vom, role, column, modified_number(vom, card.initiative, morale)) for card in cards]
    orders = Counter(cell.order for cell in got)
    cells = Counter(got)
    return VomCellOdds(
        role=role,
        column=column,
        morale=morale,
        modifier=vom.morale_modifier(morale),
        total=len(got),
        orders=tuple((o, orders[o]) for o in role_orders if orders[o]),
        cells=tuple((str(c), n) for c, n in sorted(cells.items(), key=lambda kv: kv[0].rows.first)),
    )


@attrs.frozen
class VomOdds:
    """The VOM read with a deck's cards: every role × column × Morale State (C2 31.11.3)."""

    deck_source: str
    size: int
    """Cards in the deck."""
    entries: tuple[VomCellOdds, ...]
    """Roles in crew order, their columns as the VOM lists them, Morale States best first."""

    def get(self, role: Role | str, column: VomColumn | str, morale: MoraleState | str) -> VomCellOdds:
        """The odds for ``role`` in ``column`` at ``morale``. Raises ``KeyError`` if not computed."""
        key = (Role(role), VomColumn(column), MoraleState(morale))
        for e in self.entries:
            if (e.role, e.column, e.morale) == key:
                return e
        raise KeyError(f"no VOM odds for {key[0].value} {key[1].value} {key[2].value}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {
            "deck": self.deck_source,
            "size": self.size,
            "entries": [e.to_dict() for e in self.entries],
        }


def vom_odds(
    vom: Vom,
    deck: DeckLike = None,
    *,
    roles: Iterable[Role | str] | None = None,
    columns: Iterable[VomColumn | str] | None = None,
    morales: Iterable[MoraleState | str] = VOM_MORALES,
) -> VomOdds:
    """The exact chance of each VOM order per role × column × Morale State with ``deck`` (C2 31.11.3).

    A crewman's card is drawn at random from the full shuffled deck; its initiative plus his
    morale modifier, clamped to 0-99 (:func:`~solo.data.vom.modified_number`), is the row
    read in his column. ``roles``/``columns`` restrict the output (default: every role in crew
    order and every column the VOM has for it); ``morales`` defaults to :data:`VOM_MORALES`.
    The engine's overrides (Rout, Bail Out cascades, damage) are not applied. ``deck`` as
    :func:`~solo.playtest.odds_deck.deck_profile`. Raises ``ValueError`` for an unknown role,
    column or Morale State, or a deck with no card; :class:`~solo.core.errors.DataError` for a deck
    that cannot be loaded.
    """
    deck = _as_deck(deck)
    if not deck.cards:
        raise ValueError(f"{deck.source}: the deck has no card")
    want_roles = [Role(r) for r in roles] if roles is not None else list(CREW_ACTIVATION_ORDER)
    want_cols = [VomColumn(c) for c in columns] if columns is not None else None
    want_morales = [MoraleState(m) for m in morales]
    entries: list[VomCellOdds] = []
    for role in CREW_ACTIVATION_ORDER:
        if role not in want_roles:
            continue
        for r, column, _cells in vom.columns:
            if r is not role or (want_cols is not None and column not in want_cols):
                continue
            entries.extend(_vom_cell_odds(vom, deck.cards, role, column, m) for m in want_morales)
    return VomOdds(deck_source=deck.source, size=len(deck.cards), entries=tuple(entries))
