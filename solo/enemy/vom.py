"""The Vehicle Order Matrix as an Enemy crewman reads it (C2 31.11.3), and the trace of his order.

The row: the card's initiative plus the crewman's morale modifier, clamped 00-99 (as
:func:`solo.data.vom.modified_number`); the column: vehicle kind × Target/No Target ×
BU/OPEN (:func:`solo.data.vom.vom_column`; a position without a hatch reads its fixed
state, and the house options ``half_track_vom`` and ``hatchless_gunner_vom`` may change the
column, see :mod:`solo.enemy.vom_orders`). The rows are read from 100-row tables built once from
:attr:`solo.data.vom.Vom.columns` (``_vom_tables``), the same cells
:func:`solo.data.vom.vom_order` gives. ``_Trace`` records one crewman's assignment
(card, cell, each override with its rule, the checks) for his ``crew_order`` event.

**Forced orders** (``_forced``, C2 31.10.8): strings in ``vehicle.damage`` (or keys of
``vehicle.acted``) that the vehicle damage rules set for "next turn" results, consumed (removed)
the first time the vehicle's crew get their orders in a turn and kept for that turn in
``vehicle.acted[FORCED_KEY]``:

* ``"force_button_up:<position>"``: that crewman gets Button/Open Up (a periscope hit);
* ``"force_bail_out:crew"``: every crewman gets Bail Out (a failed Track TQC);
* ``"force_bail_out:<position>"``: that crewman gets Bail Out (a Wheel/Track hit: Driver);
* ``"force_bail_out:passengers"``: every passenger gets Bail Out.

May import: :mod:`~solo.rules.vehicles.crew_sight`, :mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from solo.data.vehicle_types import HatchState, VehicleType
from solo.data.vom import Vom, VomCell, vom_column
from solo.rules.state import Character
from solo.rules.vehicles.crew_orders import FIRE_ORDERS
from solo.rules.vehicles.crew_sight import _ROLE_NAMES
from solo.rules.vehicles.state import Hatch, Vehicle

if TYPE_CHECKING:
    from solo.rules.context import GameContext


# ---------------------------------------------------------------------------
# Constants

SPEED_ORDERS: tuple[str, ...] = ("crawl", "ahead_slow", "forward", "fast", "reverse")
"""The Driver's movement orders (C2 31.11.1-31.11.2); a Driver holding one is moving."""
FORCED_KEY = "forced_orders"
"""``vehicle.acted`` key: {"turn": n, position: (order id, why, rule)} taken from the
``force_*`` flags at the first order assignment of the turn."""
_COLUMN_TEXT = {
    "no_target_bu": "No Target BU",
    "no_target_open": "No Target OPEN",
    "target_bu": "Target BU",
    "target_open": "Target OPEN",
    "half_track_no_target": "Half-Track No Target",
    "half_track_target": "Half-Track Target",
    "truck": "Truck",
}
# Enum members bound once: a class attribute lookup on an Enum costs ~0.1 us in Python 3.11.
_H_NONE, _H_OPEN, _H_JAMMED_OPEN = Hatch.NONE, Hatch.OPEN, Hatch.JAMMED_OPEN


# ---------------------------------------------------------------------------
# The VOM as tables (C2 31.11.3)


@attrs.frozen
class _CellInfo:
    """A VOM cell as the order assignment and its event use it (computed once per cell)."""

    rows: str
    cell: str
    text: str
    """``"VOM Driver No Target BU rows 38-53: Crawl 1"``."""
    final: str
    """The order as the log ends with it: ``"Crawl 1"``, ``"Aimed Fire (bow mg)"``."""
    order: str
    directions: Any
    weapon: str | None


_VOM_CACHE: dict[tuple[int, int], tuple[Vom, Any, Any]] = {}
_CARD_CACHE: dict[int, tuple[Any, dict[str, Any]]] = {}


@attrs.frozen
class _TypeInfo:
    """What the order assignment reads of a vehicle type, computed once per type."""

    allowed: frozenset[str]
    """The speed orders the type may be given."""
    top: str
    """Its Top Speed (an order id)."""
    fixed_open: dict[str, bool]
    """Hatchless positions: exposed (OPEN) or inside the armor (BU)."""
    columns: tuple[tuple[str, str], tuple[str, str]]
    """The VOM column id by [target][hatch open] for this kind (:func:`vom_column`)."""


_TYPE_CACHE: dict[int, tuple[VehicleType, _TypeInfo]] = {}


def _type_info(vtype: VehicleType) -> _TypeInfo:
    got = _TYPE_CACHE.get(id(vtype))
    if got is None or got[0] is not vtype:
        positions = (*vtype.crew, *vtype.passengers, *((vtype.cupola,) if vtype.cupola else ()))
        info = _TypeInfo(
            allowed=frozenset(sp.value for sp in vtype.speeds),
            top=vtype.top_speed.value,
            fixed_open={p.id: p.fixed_state is HatchState.OPEN for p in positions if not p.hatch},
            columns=(
                (
                    vom_column(vtype.kind, target=False, hatch_open=False).value,
                    vom_column(vtype.kind, target=False, hatch_open=True).value,
                ),
                (
                    vom_column(vtype.kind, target=True, hatch_open=False).value,
                    vom_column(vtype.kind, target=True, hatch_open=True).value,
                ),
            ),
        )
        got = (vtype, info)
        _TYPE_CACHE[id(vtype)] = got
    return got[1]


def _cell_info(game: GameContext, cell: VomCell, pos: str, column: str) -> _CellInfo:
    """The reading of ``cell`` for ``pos`` in ``column``, with its log text."""
    parts = [_order_name(game, cell.order)]
    if cell.directions is not None:
        parts.append(str(cell.directions))
    if cell.weapon is not None:
        parts.append(cell.weapon.value.replace("_", " "))
    rows = cell.rows.format(2)
    final = parts[0]
    if cell.directions is not None:
        final = f"{final} {cell.directions}"
    if cell.weapon is not None:
        final = f"{final} ({cell.weapon.value.replace('_', ' ')})"
    return _CellInfo(
        rows=rows,
        cell=str(cell),
        text=f"VOM {_ROLE_NAMES[pos]} {_COLUMN_TEXT[column]} rows {rows}: {' '.join(parts)}",
        final=final,
        order=cell.order,
        directions=cell.directions,
        weapon=cell.weapon.value if cell.weapon is not None else None,
    )


def _vom_tables(game: GameContext) -> tuple[dict[tuple[str, str], tuple[_CellInfo, ...]], dict[str, int]]:
    """The VOM as 100-row tables of :class:`_CellInfo` keyed by (position, column) strings, and
    the morale modifiers keyed by Morale State value; built once per VOM and order table from
    the public :attr:`Vom.columns` (C2 31.11.3)."""
    vom, orders = game.data.vom, game.data.orders
    key = (id(vom), id(orders))
    got = _VOM_CACHE.get(key)
    if got is None or got[0] is not vom or got[1] is not orders:
        tables: dict[tuple[str, str], tuple[_CellInfo, ...]] = {}
        for role, column, cells in vom.columns:
            rows: list[_CellInfo] = []
            for cell in cells:
                info = _cell_info(game, cell, role.value, column.value)
                rows.extend([info] * (cell.rows.last - cell.rows.first + 1))
            tables[(role.value, column.value)] = tuple(rows)
        mods = {m.value: n for m, n in vom.morale_modifiers}
        got = (vom, orders, (tables, mods))
        _VOM_CACHE[key] = got
    return got[2]


def _cards(game: GameContext) -> dict[str, Any]:
    """The Enemy Order cards by id (an index over the deck built once)."""
    deck = game.data.enemy_deck
    got = _CARD_CACHE.get(id(deck))
    if got is None or got[0] is not deck:
        got = (deck, {c.id: c for c in deck.cards})
        _CARD_CACHE[id(deck)] = got
    return got[1]


def _card(game: GameContext, card_id: str) -> Any:
    """The Enemy Order card ``card_id``."""
    return _cards(game)[card_id]


def _order_name(game: GameContext, order_id: str) -> str:
    """The order's name (``"Button/Open Up"``), or its id if ``orders.yaml`` lacks it."""
    orders = game.data.orders
    got = _NAME_CACHE.get(id(orders))
    if got is None or got[0] is not orders:
        got = (orders, {})
        _NAME_CACHE[id(orders)] = got
    names = got[1]
    name = names.get(order_id)
    if name is None:
        try:
            name = orders.get(order_id).name
        except KeyError:
            name = order_id
        names[order_id] = name
    return name


_NAME_CACHE: dict[int, tuple[Any, dict[str, str]]] = {}


# ---------------------------------------------------------------------------
# Forced orders from damage (31.10.8) and the crew-wide Bail Out (31.11.3)

_FORCE_PREFIXES = ("force_button_up:", "force_bail_out:")


def _forced(game: GameContext, vehicle: Vehicle) -> dict[str, Any]:
    """This turn's forced orders by position (``"crew"``, ``"passengers"`` or a position id).

    Taken once a turn from the ``force_*`` flags (removed from ``vehicle.damage`` and
    ``vehicle.acted``) into ``vehicle.acted[FORCED_KEY]``.
    """
    turn = game.state.flow.turn
    acted = vehicle.acted
    got: dict[str, Any] | None = acted.get(FORCED_KEY)
    if got is not None and got.get("turn") == turn:
        return got
    forced: dict[str, Any] = {"turn": turn}
    if not vehicle.damage and (not acted or (got is not None and len(acted) == 1)):
        acted[FORCED_KEY] = forced  # no flag anywhere: nothing to take (the common case)
        return forced
    flags = [d for d in vehicle.damage if d.startswith(_FORCE_PREFIXES)]
    flags += [k for k in vehicle.acted if isinstance(k, str) and k.startswith(_FORCE_PREFIXES)]
    for flag in flags:
        kind, _, where = flag.partition(":")
        if kind == "force_button_up":
            forced[where] = ("button_open_up", "a periscope hit last turn", "31.10.8")
        else:
            forced[where] = ("bail_out", "damage last turn (Track/Wheel)", "31.10.8")
    vehicle.damage[:] = [d for d in vehicle.damage if not d.startswith(_FORCE_PREFIXES)]
    for k in [k for k in vehicle.acted if isinstance(k, str) and k.startswith(_FORCE_PREFIXES)]:
        del vehicle.acted[k]
    vehicle.acted[FORCED_KEY] = forced
    return forced


# ---------------------------------------------------------------------------
# The trace of one order assignment (for the explaining event)


class _Trace:
    """What one crewman's order assignment did, for the ``crew_order`` event.

    ``info`` is the VOM cell read (None without a card or VOM reading) and ``reading`` how it
    was read: ``(morale modifier, modified number, column id, target, why target)``.
    """

    __slots__ = (
        "card",
        "ch",
        "checks",
        "directions",
        "final",
        "info",
        "initiative",
        "notes",
        "order",
        "overrides",
        "position",
        "reading",
        "relocate_to",
        "rules",
        "vehicle",
        "weapon",
    )

    def __init__(self, vehicle: Vehicle, position: str, ch: Character) -> None:
        self.vehicle = vehicle
        self.position = position
        self.ch = ch
        self.card: str | None = None
        self.initiative: int | None = None
        self.info: _CellInfo | None = None
        self.reading: tuple[int, int, str, bool, str] | None = None
        self.final = ""  # the VOM cell's order as text, while no override changed it
        self.order = "no_order"
        self.directions: Any = None
        self.weapon: str | None = None
        self.relocate_to: str | None = None
        self.overrides: list[dict[str, str]] = []
        self.checks: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.rules = ["31.11.3"]

    def override(self, game: GameContext, new: str, why: str, rule: str) -> None:
        """Replace the order by ``new`` for ``why`` (``rule``)."""
        self.overrides.append(
            {
                "from": self.order,
                "to": new,
                "why": why,
                "rule": rule,
                "text": f"{_order_name(game, self.order)} → {_order_name(game, new)}: {why} ({rule})"
                if game.narrates
                else "",
            }
        )
        if new not in SPEED_ORDERS:
            self.directions = None
        if new not in FIRE_ORDERS:
            self.weapon = None
        if new != "relocate":
            self.relocate_to = None
        self.order = new
        self.final = ""
        for r in rule.split(", "):
            if r not in self.rules:
                self.rules.append(r)


__all__ = [
    "FORCED_KEY",
    "SPEED_ORDERS",
]
