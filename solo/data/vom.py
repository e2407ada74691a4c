"""The Vehicle Order Matrix (``cards/vehicle_order_matrix.yaml``; C2 31.11.3): :class:`Vom`.

The Enemy crews' orders: for each crew role and column (:class:`VomColumn`: an AFV crewman with
or without a Target, hatch closed (BU) or open; Half-Tracks; Trucks and Jeeps), 100 rows read at
the Enemy card's initiative number plus a house morale modifier (:func:`modified_number`).
:func:`vom_column` picks the column and :func:`vom_order` reads the cell (:class:`VomCell`: an
order id, the direction string of a Driver's move, the weapon of a fire order).
:func:`load_vom` reads and checks the file (every column covering 00-99 exactly once) and raises
one :class:`~solo.core.errors.DataError` naming every problem with its line.

May import: :mod:`solo.core`, :mod:`solo.data.cards` (direction strings), :mod:`solo.data.tables`
(Morale States), :mod:`solo.data.roll_ranges`, :mod:`solo.data.vehicle_types` (roles, kinds, mounts).
"""

from __future__ import annotations

import enum
from collections.abc import Collection
from pathlib import Path
from typing import Any

import attrs

from solo.core.bounds import PERCENT_MODIFIER
from solo.core.datafile import (
    SNAKE_ID,
    DataFile,
    DocPath,
    Problems,
    describe,
    read_card_file,
    structure,
)
from solo.data.cards import DirectionString
from solo.data.roll_ranges import Rolls, coverage
from solo.data.tables import MoraleState
from solo.data.vehicle_types import CREW_ACTIVATION_ORDER, MountId, Role, VehicleKind

VOM_FILE = "vehicle_order_matrix.yaml"
"""The Vehicle Order Matrix file under ``cards/``."""
VOM_MORALES: tuple[MoraleState, ...] = tuple(m for m in MoraleState if m is not MoraleState.ROUT)
"""The Morale States that read the VOM, best first: a Routed crewman Bails Out (C2 31.11.2)."""


class VomColumn(enum.Enum):
    """A column of the Vehicle Order Matrix (C2 31.11.3)."""

    NO_TARGET_BU = "no_target_bu"
    NO_TARGET_OPEN = "no_target_open"
    TARGET_BU = "target_bu"
    TARGET_OPEN = "target_open"
    HALF_TRACK_NO_TARGET = "half_track_no_target"
    HALF_TRACK_TARGET = "half_track_target"
    TRUCK = "truck"
    """Trucks; Jeeps use it too [house]."""


_AFV_COLUMNS = (VomColumn.NO_TARGET_BU, VomColumn.NO_TARGET_OPEN, VomColumn.TARGET_BU, VomColumn.TARGET_OPEN)
_HALF_TRACK_COLUMNS = (VomColumn.HALF_TRACK_NO_TARGET, VomColumn.HALF_TRACK_TARGET)
_BU_COLUMNS = frozenset({VomColumn.NO_TARGET_BU, VomColumn.TARGET_BU})

REQUIRED_VOM_COLUMNS: dict[Role, tuple[VomColumn, ...]] = {
    Role.COMMANDER: _AFV_COLUMNS,
    Role.DRIVER: (*_AFV_COLUMNS, *_HALF_TRACK_COLUMNS, VomColumn.TRUCK),
    Role.GUNNER: _AFV_COLUMNS,
    Role.LOADER: _AFV_COLUMNS,
    Role.CO_DRIVER: (*_AFV_COLUMNS, *_HALF_TRACK_COLUMNS),
}
"""The columns each role must have [house]: every role the four AFV columns; Drivers and
Co-drivers the Half-Track columns; Drivers the Truck column (Truck Co-drivers follow 31.9.2)."""


@attrs.frozen
class VomCell:
    """One VOM cell: an order id, its direction string (Driver moves) and the weapon fired."""

    rows: Rolls
    """The matrix rows (modified numbers) that give this cell, for the log."""
    order: str
    """An order id of ``orders.yaml``."""
    directions: DirectionString | None
    weapon: MountId | None
    """The vehicle weapon a fire order uses (``bow_mg``); ``None``: the crewman's own weapon."""

    def __str__(self) -> str:
        parts = [self.order]
        if self.directions is not None:
            parts.append(str(self.directions))
        if self.weapon is not None:
            parts.append(self.weapon.value)
        return " ".join(parts)


@attrs.frozen
class Vom:
    """The Vehicle Order Matrix (C2 31.11.3): per role and column, 100 rows of orders."""

    morale_modifiers: tuple[tuple[MoraleState, int], ...]
    """Added to the card's initiative number before reading a row [house]."""
    columns: tuple[tuple[Role, VomColumn, tuple[VomCell, ...]], ...]
    """The cells of each (role, column), as written (rows ascending)."""
    role_orders: tuple[tuple[Role, tuple[str, ...]], ...]
    """The orders each role may be given."""
    _tables: dict[tuple[Role, VomColumn], tuple[VomCell, ...]] = attrs.field(init=False, eq=False, repr=False)
    _modifiers: dict[MoraleState, int] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        tables: dict[tuple[Role, VomColumn], tuple[VomCell, ...]] = {}
        for role, column, cells in self.columns:
            table: list[VomCell | None] = [None] * 100
            for cell in cells:
                for r in range(max(cell.rows.first, 0), min(cell.rows.last, 99) + 1):
                    table[r] = cell
            full = tuple(c for c in table if c is not None)
            if len(full) != len(table):
                raise ValueError(f"VOM {role.value} {column.value} does not cover 00-99")
            tables[(role, column)] = full
        object.__setattr__(self, "_tables", tables)
        object.__setattr__(self, "_modifiers", dict(self.morale_modifiers))

    def has_column(self, role: Role | str, column: VomColumn | str) -> bool:
        """True if ``role`` has ``column``."""
        return (Role(role), VomColumn(column)) in self._tables

    def morale_modifier(self, morale: MoraleState | str) -> int:
        """The house modifier for ``morale`` (added to the initiative number)."""
        return self._modifiers[MoraleState(morale)]

    def order_ids(self) -> tuple[str, ...]:
        """Every order id the matrix names, sorted (for cross-checks with ``orders.yaml``)."""
        return tuple(sorted({o for _r, orders in self.role_orders for o in orders}))


def modified_number(vom: Vom, number: int, morale: MoraleState | str | None) -> int:
    """The card's initiative ``number`` (0-99) plus the morale modifier, clamped to 0-99 [house].

    ``None`` morale adds nothing. Raises :class:`ValueError` for a number outside 0-99
    (C2 31.11.3 "modify this by the Morale state").
    """
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 99:
        raise ValueError(f"an initiative number is 0-99, got {number!r}")
    if morale is None:
        return number
    modifier = vom._modifiers.get(morale)  # type: ignore[arg-type]  # fast path: a str misses, then morale_modifier
    if modifier is None:
        modifier = vom.morale_modifier(morale)
    return min(99, max(0, number + modifier))


def vom_column(kind: VehicleKind | str, *, target: bool, hatch_open: bool) -> VomColumn:
    """The VOM column for a crewman (C2 31.11.3).

    AFVs: Target or No Target × BU (hatch closed, or no hatch inside the armor) or OPEN;
    Half-Tracks: their OPEN columns (no hatches); Trucks and Jeeps: the Truck column
    [house for Jeeps]. ``target``: the crewman's or the Commander's Target Marker is on the
    board (for Drivers and Loaders: any other crewman's, 31.7.3).
    """
    k = VehicleKind(kind)
    if k is VehicleKind.AFV:
        if target:
            return VomColumn.TARGET_OPEN if hatch_open else VomColumn.TARGET_BU
        return VomColumn.NO_TARGET_OPEN if hatch_open else VomColumn.NO_TARGET_BU
    if k is VehicleKind.HALF_TRACK:
        return VomColumn.HALF_TRACK_TARGET if target else VomColumn.HALF_TRACK_NO_TARGET
    return VomColumn.TRUCK


def vom_order(
    vom: Vom,
    role: Role | str,
    column: VomColumn | str,
    number: int,
    *,
    morale: MoraleState | str | None = None,
) -> VomCell:
    """The VOM cell for ``role`` in ``column`` at initiative ``number`` (0-99) (C2 31.11.3).

    With ``morale`` the number is first modified by the house morale modifier and clamped
    (:func:`modified_number`); the cell's ``rows`` show which row was read. Overrides (Rout,
    Commander Bail Out, closed hatches, jammed hatches...) are the engine's. Raises
    :class:`KeyError` if the role has no such column, :class:`ValueError` for a number
    outside 0-99.
    """
    n = modified_number(vom, number, morale)
    table = vom._tables.get((role, column))  # type: ignore[arg-type]  # fast path: enum members
    if table is None:
        key = (Role(role), VomColumn(column))
        table = vom._tables.get(key)
        if table is None:
            raise KeyError(f"the VOM has no {key[1].value} column for the {key[0].value}")
    return table[n]


@attrs.frozen
class _VomRoleEntry:
    orders: tuple[str, ...]
    columns: dict[VomColumn, dict[Any, Any]]


@attrs.frozen
class _VomFile:
    morale_modifiers: dict[MoraleState, PERCENT_MODIFIER]
    directed_orders: tuple[str, ...]
    fire_orders: tuple[str, ...]
    roles: dict[Role, _VomRoleEntry]
    edition: str = "house"


def _vom_cell(
    doc: DataFile,
    probs: Problems,
    path: DocPath,
    rows: Rolls,
    text: Any,
    allowed: tuple[str, ...],
    raw: _VomFile,
) -> VomCell | None:
    if not isinstance(text, str) or not text.split():
        probs.add(doc, path, f"expected an order like 'spot' or 'crawl 1', got {describe(text)}")
        return None
    order, *rest = text.split()
    directions: DirectionString | None = None
    weapon: MountId | None = None
    ok = True
    for token in rest:
        if token in MountId._value2member_map_:
            if weapon is not None:
                probs.add(doc, path, f"{text!r}: two weapons")
                ok = False
            weapon = MountId(token)
            continue
        try:
            d = DirectionString.parse(token)
        except ValueError as exc:
            probs.add(doc, path, f"{text!r}: {token!r} is neither a direction string nor a weapon ({exc})")
            ok = False
            continue
        if directions is not None:
            probs.add(doc, path, f"{text!r}: two direction strings")
            ok = False
        directions = d
    if order not in allowed:
        probs.add(doc, path, f"order {order!r} is not in this role's orders ({', '.join(allowed)})")
        ok = False
    if order in raw.directed_orders and directions is None and ok:
        probs.add(doc, path, f"{text!r}: {order!r} needs a direction string (e.g. '{order} 6/5')")
        ok = False
    if order not in raw.directed_orders and directions is not None:
        probs.add(doc, path, f"{text!r}: only movement orders take a direction string")
        ok = False
    if weapon is not None and order not in raw.fire_orders:
        probs.add(doc, path, f"{text!r}: only fire orders ({', '.join(raw.fire_orders)}) name a weapon")
        ok = False
    return VomCell(rows, order, directions, weapon) if ok else None


def vom_from(doc: DataFile, order_ids: Collection[str] | None = None) -> Vom:
    """Build the :class:`Vom` from a read ``vehicle_order_matrix.yaml``.

    Checks: a modifier for every Morale State; each role's orders known (against
    ``order_ids`` if given) and every cell one of them, with a direction string exactly on
    movement orders and a weapon only on fire orders; the required columns per role
    (:data:`REQUIRED_VOM_COLUMNS`); every column covering 00-99 exactly once (gaps and
    overlaps named with their lines). Raises :class:`DataError` listing every problem
    (C2 31.11.3).
    """
    raw = structure(doc, _VomFile)
    probs = Problems()
    for state in MoraleState:
        if state not in raw.morale_modifiers:
            probs.add(doc, ("morale_modifiers",), f"no modifier for morale state {state.value!r}")
    for state, mod in raw.morale_modifiers.items():
        if not -99 <= mod <= 99:
            probs.add(doc, ("morale_modifiers", state.value), f"modifier {mod} outside -99..99")
    known = set(order_ids) if order_ids is not None else None
    for key in ("directed_orders", "fire_orders"):
        for j, o in enumerate(getattr(raw, key)):
            if known is not None and o not in known:
                probs.add(doc, (key, j), f"unknown order {o!r} (not in orders.yaml)")
    columns: list[tuple[Role, VomColumn, tuple[VomCell, ...]]] = []
    role_orders: list[tuple[Role, tuple[str, ...]]] = []
    for role in CREW_ACTIVATION_ORDER:
        entry = raw.roles.get(role)
        if entry is None:
            probs.add(doc, ("roles",), f"no VOM entry for the {role.value}")
            continue
        role_orders.append((role, entry.orders))
        for j, o in enumerate(entry.orders):
            if not SNAKE_ID.match(o):
                probs.add(doc, ("roles", role.value, "orders", j), f"order id {o!r} must be snake_case")
            elif known is not None and o not in known:
                probs.add(
                    doc, ("roles", role.value, "orders", j), f"unknown order {o!r} (not in orders.yaml)"
                )
        for column in REQUIRED_VOM_COLUMNS[role]:
            if column not in entry.columns:
                probs.add(
                    doc, ("roles", role.value, "columns"), f"the {role.value} has no {column.value} column"
                )
        for column, rows in entry.columns.items():
            cpath: DocPath = ("roles", role.value, "columns", column.value)
            if not isinstance(rows, dict) or not rows:
                probs.add(doc, cpath, "expected rows like '00-09: spot'")
                continue
            cells: list[VomCell] = []
            ranges: list[tuple[Rolls, DocPath]] = []
            for key, text in rows.items():
                path = (*cpath, key)
                try:
                    rolls = Rolls.parse(key)
                except ValueError as exc:
                    probs.add(doc, path, str(exc), at_key=True)
                    continue
                ranges.append((rolls, path))
                cell = _vom_cell(doc, probs, path, rolls, text, entry.orders, raw)
                if column in _BU_COLUMNS and cell is not None and cell.order == "duck_back":
                    probs.add(
                        doc, path, "a crewman with a closed hatch Panics rather than Ducks Back (31.11.2)"
                    )
                if column not in _BU_COLUMNS and cell is not None and cell.order == "panic":
                    probs.add(
                        doc, path, "a crewman with an open hatch Ducks Back rather than Panics (31.11.2)"
                    )
                if cell is not None:
                    cells.append(cell)
            if not ranges:
                continue
            before = len(probs.items)
            coverage(doc, probs, ranges, 0, 99, f"{role.value} {column.value}", 2)
            if len(probs.items) == before and len(cells) == len(ranges):
                cells.sort(key=lambda c: c.rows.first)
                columns.append((role, column, tuple(cells)))
    probs.raise_if_any()
    modifiers = tuple((s, raw.morale_modifiers[s]) for s in MoraleState)
    return Vom(modifiers, tuple(columns), tuple(role_orders))


def load_vom(path: Path | str | None = None, *, order_ids: Collection[str] | None = None) -> Vom:
    """Load ``vehicle_order_matrix.yaml`` (``None``: the shipped file) (C2 31.11.3).

    ``order_ids``: the known order ids (of ``orders.yaml``); ``None`` skips that check.
    Raises :class:`DataError` with every problem.
    """
    return vom_from(read_card_file(path, VOM_FILE), order_ids)


__all__ = [
    "REQUIRED_VOM_COLUMNS",
    "VOM_FILE",
    "VOM_MORALES",
    "Vom",
    "VomCell",
    "VomColumn",
    "load_vom",
    "modified_number",
    "vom_column",
    "vom_from",
    "vom_order",
]
