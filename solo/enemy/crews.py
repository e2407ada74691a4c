"""Enemy vehicle crews: orders from the Vehicle Order Matrix, Target Markers, Emergency Stop (C2 31).

Every function takes the :class:`~solo.engine.game.Game` first. Every decision emits an event
that explains itself (DESIGN.md "Every Enemy decision explains itself").

**Orders** (:func:`enemy_vehicle_orders`, the engine's Step 3 after the infantry; C2 31.1,
31.11.3). For each active Enemy vehicle, crew in the order Commander / Driver / Gunner /
Loader / Co-driver: an Enemy Order card per crewman (the Commander's card is the vehicle's
initiative, 31.1); its initiative number plus the crewman's morale modifier, clamped 00-99
(as :func:`solo.data.vom.modified_number`), is the row read in his VOM column (vehicle
kind × Target/No Target × BU/OPEN, :func:`solo.data.vom.vom_column`; the rows are read
from tables built once from :attr:`solo.data.vom.Vom.columns`, the same cells
:func:`solo.data.vom.vom_order` gives); then the overrides
of 31.2, 31.9.2, 31.10.8-31.10.9 and 31.11.1-31.11.3 (see :func:`assign_crew_order`).
Passengers get Bail Out on the five conditions of 31.11.3, otherwise No Order (they ride).
Each crewman and passenger gets ONE ``crew_order`` / ``passenger_order`` event whose
``data`` holds the card, initiative, morale modifier, modified number, VOM column and cell
rows, every override with its rule, every check rolled and the final order.

Under C2 23.5 (``options.optional_enemy_activation``) the phase draws one initiative card
per vehicle (31.1) and orders passengers; crew orders wait for
:func:`assign_on_activation`, called when the vehicle's team activates.

**Flags this module reads** (set by the vehicle combat module for "next turn" damage
results, C2 31.10.8): strings in ``vehicle.damage`` (or keys of ``vehicle.acted``),
consumed (removed) the next time the vehicle's crew get their orders:

* ``"force_button_up:<position>"``: that crewman gets Button/Open Up (a periscope hit);
* ``"force_bail_out:crew"``: every crewman gets Bail Out (a failed Track TQC);
* ``"force_bail_out:<position>"``: that crewman gets Bail Out (a Wheel/Track hit: Driver);
* ``"force_bail_out:passengers"``: every passenger gets Bail Out;
* ``"periscope:<position>"`` (persistent): with its hatch closed the position sees nothing
  (:func:`seat_sees`; C2 31.10.8 "may not spot ... while their hatch is closed");
* ``"turret_jammed"`` (persistent): the turret cannot turn (:func:`commander_turret_target`);
* ``"immobilized"`` (and ``vehicle.mired``/``destroyed``): a speed order becomes Emergency Stop
  (31.2 (3)) and passengers Bail Out (31.11.3);
* ``"main_gun_destroyed"``, ``"<mount>_destroyed"`` (``"bow_mg_destroyed"``...): orders for
  that weapon become Spot [house];
* ``state.flags["light_at"]`` (``{operator id: {"assistant": id, "carrier": id, ...}}``): the
  Light AT team members (:func:`has_light_at`).

**Per-turn scratch this module writes** (``vehicle.acted``, which the End Phase clears):
:data:`PLACED_KEY`, :data:`CASCADE_KEY`, :data:`FORCED_KEY`, :data:`ESTOP_KEY`; and on a
crewman ``ch.acted[MOUNT_KEY]`` = the vehicle weapon (``"bow_mg"``, ``"coaxial_mg"``) his
fire order uses. A Relocate order's ``target`` is the position id to move to (or None:
the highest empty passenger position at Impulse 4, 31.11.2).

**Target Markers** (C2 31.7.3-31.7.5): :func:`seat_sees` (a seat's LOS arcs by hatch
state, then the LOS), :func:`observed_targets`, :func:`place_enemy_marker` (the four
priorities of 31.7.4 with their TQCs), :func:`remove_lost_markers`, :func:`clear_marker`.
**Emergency Stop** (31.2): :func:`enemy_emergency_stop`, :func:`driver_emergency_stop`.
**Turret** (31.6): :func:`commander_turret_target`. **Smoke dischargers** (31.11.2):
:func:`smoke_discharger_hex`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from solo.core.hexes import Hex, neighbour, wedge_directions
from solo.data.tables import CheckKind, MoraleState
from solo.data.vehicle_types import HatchState, Role, VehicleKind, VehicleType
from solo.data.vom import Vom, VomCell, vom_column
from solo.data.weapons import WeaponKind
from solo.rules.state import Character, GivenOrder, Side
from solo.rules.vehicles import emergency_stop
from solo.rules.vehicles.movement import SPEED_CAPS, convert_speed
from solo.rules.vehicles.state import CREW_ORDER, Hatch, Seat, Vehicle, vehicle_of

if TYPE_CHECKING:
    from solo.rules.context import GameContext

__all__ = [
    "CASCADE_KEY",
    "ESTOP_KEY",
    "FIRE_ORDERS",
    "FORCED_KEY",
    "LIGHT_AT_ORDERS",
    "LOADER_LOS_WHOLE_CREW",
    "MARKER_ROLES",
    "MOUNT_KEY",
    "PLACED_KEY",
    "RELOCATE_FOR_KEY",
    "SPEED_ORDERS",
    "assign_crew_order",
    "assign_on_activation",
    "bailed_out_order",
    "clear_marker",
    "commander_ldr",
    "commander_turret_target",
    "driver_emergency_stop",
    "enemy_emergency_stop",
    "enemy_vehicle_orders",
    "has_light_at",
    "observed_targets",
    "passenger_orders",
    "place_enemy_marker",
    "remove_lost_markers",
    "seat_sees",
    "smoke_discharger_hex",
]

# ---------------------------------------------------------------------------
# Constants

SPEED_ORDERS: tuple[str, ...] = ("crawl", "ahead_slow", "forward", "fast", "reverse")
"""The Driver's movement orders (C2 31.11.1-31.11.2); a Driver holding one is moving."""
_FORWARD_RANK = {"crawl": 0, "ahead_slow": 1, "forward": 2, "fast": 3}
FIRE_ORDERS: tuple[str, ...] = ("aimed_fire", "rapid_fire", "suppressive_fire")
"""MG fire orders (C2 31.9.4 b-c); a Gunner holding one fires the coaxial MG."""
LOAD_ORDERS: tuple[str, ...] = ("load_he", "load_ap")
LIGHT_AT_ORDERS: tuple[str, ...] = ("load_light_at", "fire_light_at")
"""Orders that make a character part of a Light AT team (C2 31.7.4 priority 2, 32.1)."""
MARKER_ROLES: tuple[str, ...] = ("commander", "gunner", "co_driver")
"""AFV positions that place Target Markers (Drivers and Loaders do not, C2 31.7.3)."""
LOADER_LOS_WHOLE_CREW = True
"""[house] The Loader's ammunition choice (C2 31.11.3) reads "LOS" as the LOS of any crewman
of his vehicle (the crew talk on the intercom), not the Loader's own periscope arc."""
PASSENGER_BAIL_LIMIT = 4
"""At most 4 characters bail out of a Jeep, Truck or Half-Track in a turn, highest passenger
positions first (C2 31.11.2); [house] only passengers count toward it."""
MOUNT_KEY = "vehicle_weapon"
"""``ch.acted`` key: the vehicle weapon (``"bow_mg"``, ``"coaxial_mg"``, ``"pintle_mg"``) the
crewman's fire order uses this turn (from the VOM cell); absent: his own weapon."""
RELOCATE_FOR_KEY = "relocate_for"
"""``ch.acted`` key set with a Relocate that replaces a Bail Out: ``"bail_out"`` (he needs a
position with a usable hatch) or ``"bail_limit"`` (a passenger over the 4-man limit), as
:mod:`solo.rules.vehicles.crew` reads it (C2 31.11.2)."""
PLACED_KEY = "marker_placed"
"""``vehicle.acted`` key: {position: {"turn", "impulse", "hex", "priority", "on"}} of the last
Target Marker placement or move; ``"on"`` is ``"afv"``, ``"vehicle"``, ``"light_at"``,
``"characters"`` or ``"character"`` (C2 31.2 (1) reads the Commander's)."""
CASCADE_KEY = "crew_bail_out"
"""``vehicle.acted`` key: the turn the Commander received Bail Out: the whole crew bails out
(C2 31.11.3, 31.10.9)."""
FORCED_KEY = "forced_orders"
"""``vehicle.acted`` key: {"turn": n, position: (order id, why, rule)} taken from the
``force_*`` flags at the first order assignment of the turn."""
ESTOP_KEY = "emergency_stop_check"
"""``vehicle.acted`` key: the (turn, Impulse) of the Driver's 31.2 (1) TQC (once an Impulse)."""
_ROLE_NAMES = {
    "commander": "Commander",
    "driver": "Driver",
    "gunner": "Gunner",
    "loader": "Loader",
    "co_driver": "Co-driver",
}
_KIND_RANK = {VehicleKind.AFV: 0, VehicleKind.HALF_TRACK: 1, VehicleKind.TRUCK: 2, VehicleKind.JEEP: 3}
_PRIORITY_NAMES = {
    1: "a Friendly vehicle",
    2: "a Light AT weapon",
    3: "the hex with the most Spotted Friendly characters in or adjacent",
    4: "a single Friendly character",
}
_MORALE_TEXT = {m.value: m.value.capitalize() for m in MoraleState}
_COLUMN_TEXT = {
    "no_target_bu": "No Target BU",
    "no_target_open": "No Target OPEN",
    "target_bu": "Target BU",
    "target_open": "Target OPEN",
    "half_track_no_target": "Half-Track No Target",
    "half_track_target": "Half-Track Target",
    "truck": "Truck",
}
_NO_TARGET = 5
"""The effective priority of a marker with nothing observed at it."""


_WHEELED = (VehicleKind.TRUCK, VehicleKind.JEEP)
# Enum members bound once: a class attribute lookup on an Enum costs ~0.1 us in Python 3.11.
_AFV, _HALF_TRACK = VehicleKind.AFV, VehicleKind.HALF_TRACK
_ROUT = MoraleState.ROUT
_ENEMY = Side.ENEMY
_H_NONE, _H_OPEN, _H_JAMMED_OPEN = Hatch.NONE, Hatch.OPEN, Hatch.JAMMED_OPEN
_ROLES: dict[str, Role] = {r.value: r for r in Role}


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
_CAPPED = frozenset(c.value for c in SPEED_CAPS)
"""Weather and ground ids that cap vehicle speed (C2 28.1-28.2)."""


def _type_info(vtype: VehicleType) -> _TypeInfo:
    got = _TYPE_CACHE.get(id(vtype))
    if got is None or got[0] is not vtype:
        positions = (*vtype.crew, *vtype.passengers, *((vtype.cupola,) if vtype.cupola else ()))
        info = _TypeInfo(
            allowed=frozenset(sp.value for sp in vtype.speeds),
            top=vtype.top_speed.value,
            fixed_open={p.id: p.fixed_state is HatchState.OPEN for p in positions if not p.hatch},
            columns=tuple(
                tuple(vom_column(vtype.kind, target=t, hatch_open=o).value for o in (False, True))
                for t in (False, True)
            ),  # type: ignore[arg-type]
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


def _role_name(position: str) -> str:
    if position in _ROLE_NAMES:
        return _ROLE_NAMES[position]
    return position.replace("_", " ").capitalize()


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


def _vtype(game: GameContext, vehicle: Vehicle) -> VehicleType:
    return game.data.vehicles.get(vehicle.type)


def _now(game: GameContext) -> tuple[int, int]:
    flow = game.state.flow
    return (flow.turn, flow.impulse)


# ---------------------------------------------------------------------------
# LOS from a seat (31.7.1-31.7.3)


def _hatch_state(seat: Seat) -> HatchState | None:
    """The VOM/LOS hatch state of ``seat``; None for a position without a hatch (its fixed state)."""
    h = seat.hatch
    if h is Hatch.NONE:
        return None
    return HatchState.OPEN if h.is_open else HatchState.CLOSED


def _is_open(vtype: VehicleType, seat: Seat) -> bool:
    """OPEN (True) or BU (False) for the VOM and the closed-hatch TQ penalty (31.7.3, 31.11.3).

    A position without a hatch reads its fixed state (a tank Gunner inside the armor: BU).
    """
    h = seat.hatch
    if h is _H_NONE:
        return _type_info(vtype).fixed_open.get(seat.position, False)
    return h is _H_OPEN or h is _H_JAMMED_OPEN


def seat_sees(
    game: GameContext, vehicle: Vehicle, position_id: str, hex_: Hex, *, target: Character | None = None
) -> bool:
    """Whether the crewman in ``position_id`` of ``vehicle`` has LOS to ``hex_`` (C2 31.7.1-31.7.3).

    First the position's arc by hatch state (:meth:`solo.data.vehicle_types.Position.sight`:
    wedges 0-5 relative to the hull facing, or the turret facing for turret positions; a hex
    on a hexspine is seen if either wedge is; the vehicle's own hex is always inside), then
    the LOS from the vehicle's hex (:meth:`Game.sight` with weather, night and smoke, the
    occupant as viewer; ``target``: the character there, for his low order). A closed hatch
    with a ``"periscope:<position>"`` damage flag sees nothing (31.10.8). False for a vehicle
    off the map. Raises :class:`KeyError` for a position the vehicle type lacks.
    """
    vh = vehicle.hex
    if vh is None:
        return False
    vtype = _vtype(game, vehicle)
    pos = vtype.position(position_id)
    seat = vehicle.seats.get(position_id)
    state = _hatch_state(seat) if seat is not None else None
    if state is None and pos.hatch:
        state = HatchState.CLOSED
    if state is HatchState.CLOSED and f"periscope:{position_id}" in vehicle.damage:
        return False
    if hex_ != vh:
        wedges = pos.sight(state)
        if len(wedges) < 6:
            facing = vehicle.turret if (pos.frame.value == "turret" and vehicle.turret) else vehicle.facing
            dirs = wedge_directions(vh, hex_, game.board.map.stagger)
            if not any((d - facing) % 6 in wedges for d in dirs):
                return False
    viewer = game.state.characters.get(seat.occupant) if seat is not None and seat.occupant else None
    if viewer is not None and viewer.hex == vh:
        return game.sight(viewer, hex_, target=target).clear
    return game.los.check(vh, hex_, max_range=game.state.max_los, night_range=game.night_range()).clear


def _crew_sees(game: GameContext, vehicle: Vehicle, hex_: Hex, *, target: Character | None = None) -> bool:
    """Any active crewman of ``vehicle`` sees ``hex_`` from his seat."""
    chars = game.state.characters
    for pos in CREW_ORDER:
        seat = vehicle.seats.get(pos)
        if seat is None or not seat.occupant:
            continue
        ch = chars.get(seat.occupant)
        if ch is not None and ch.is_active and seat_sees(game, vehicle, pos, hex_, target=target):
            return True
    return False


# ---------------------------------------------------------------------------
# What is on the board for a vehicle's crew


def has_light_at(game: GameContext, ch: Character) -> bool:
    """Operator or assistant of a Light AT weapon (C2 31.7.4 priority 2, 32.1).

    A character carrying a weapon of kind ``light_at`` (Bazooka, Panzerfaust), holding a
    Load Light AT or Fire Light AT order, or named operator, assistant or carrier of a
    Bazooka in ``state.flags["light_at"]`` (the vehicle combat module's record, 32.1).
    """
    if ch.order is not None and ch.order.order in LIGHT_AT_ORDERS:
        return True
    teams = game.state.flags.get("light_at")
    if isinstance(teams, dict):
        for op, rec in teams.items():
            if ch.id == op or (isinstance(rec, dict) and ch.id in (rec.get("assistant"), rec.get("carrier"))):
                return True
    weapons = game.data.weapons
    for w in ch.weapons:
        try:
            if weapons.get(w.weapon).kind is WeaponKind.LIGHT_AT:
                return True
        except KeyError:
            continue
    return False


def _opposing_vehicles(game: GameContext, vehicle: Vehicle) -> list[Vehicle]:
    """Active vehicles of the other side (not destroyed or abandoned), scenario order."""
    other = vehicle.side.other
    return [v for v in game.state.vehicles.values() if v.side is other and v.is_active]


def _opposing_characters(game: GameContext, vehicle: Vehicle) -> list[Character]:
    """Spotted (Friendly) or Known (Enemy) active characters of the other side, not in vehicles."""
    return [c for c in game.state.active(vehicle.side.other) if c.revealed and c.vehicle is None]


def _vehicle_kind(game: GameContext, v: Vehicle) -> VehicleKind:
    return _vtype(game, v).kind


def observed_targets(game: GameContext, vehicle: Vehicle, seat: str | Seat) -> list[Character | Vehicle]:
    """The Observed Targets of the crewman in ``seat`` (C2 31.7.3): what his Target Marker covers.

    Spotted Friendly (for an Enemy vehicle; Known Enemy for a Friendly one) characters not
    riding in a vehicle, then active vehicles of the other side, in or adjacent to the
    seat's Target Marker; characters in roster order, then vehicles in scenario order.
    Empty without a marker. LOS and fire arcs are the caller's to check.
    """
    s = vehicle.seats[seat] if isinstance(seat, str) else seat
    m = s.marker
    if m is None:
        return []
    dist = game.distance
    out: list[Character | Vehicle] = [c for c in _opposing_characters(game, vehicle) if dist(c.hex, m) <= 1]
    out.extend(v for v in _opposing_vehicles(game, vehicle) if v.hex is not None and dist(v.hex, m) <= 1)
    return out


def commander_ldr(game: GameContext, vehicle: Vehicle) -> int:
    """The Commander's Leadership added to his crew's TQ (C2 31.10.9, 31.2 example of play).

    Counts only if the Commander is in the vehicle and active, his Morale State is Normal or
    better, and the vehicle is not on fire; else 0. The example of play adds it to the
    Driver's Emergency Stop TQC ("5 + 2 for the Commander's Leadership").
    """
    seat = vehicle.seats.get("commander")
    if seat is None or not seat.occupant or vehicle.on_fire:
        return 0
    cmd = game.state.characters.get(seat.occupant)
    if cmd is None or not cmd.is_active or cmd.vehicle != vehicle.id:
        return 0
    if cmd.morale.rank > MoraleState.NORMAL.rank:
        return 0
    return cmd.ldr


def _tqc(game: GameContext, target: int, purpose: str) -> tuple[int, bool]:
    """A TQC: d10 (0-9) <= ``target``; a natural 9 fails (C2 23.1)."""
    roll = game.dice.d10(purpose).total
    out = game.data.checks.resolve(CheckKind.TQC, roll, target)
    return roll, out.passed


# ---------------------------------------------------------------------------
# Forced orders from damage (31.10.8) and the crew-wide Bail Out (31.11.3)


_FORCE_PREFIXES = ("force_button_up:", "force_bail_out:")


def _forced(game: GameContext, vehicle: Vehicle) -> dict[str, Any]:
    """This turn's forced orders by position (``"crew"``, ``"passengers"`` or a position id).

    Taken once a turn from the ``force_*`` flags (removed from ``vehicle.damage`` and
    ``vehicle.acted``) into ``vehicle.acted[FORCED_KEY]``.
    """
    turn = game.state.flow.turn
    got = vehicle.acted.get(FORCED_KEY)
    if got is not None and got.get("turn") == turn:
        return got
    forced: dict[str, Any] = {"turn": turn}
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
    """What one crewman's order assignment did, for the ``crew_order`` event."""

    __slots__ = (
        "card",
        "cell",
        "cell_order",
        "cell_text",
        "ch",
        "checks",
        "column",
        "directions",
        "final",
        "initiative",
        "modified",
        "morale_modifier",
        "notes",
        "order",
        "overrides",
        "position",
        "relocate_to",
        "rows",
        "rules",
        "target",
        "target_why",
        "vehicle",
        "weapon",
    )

    def __init__(self, vehicle: Vehicle, position: str, ch: Character) -> None:
        self.vehicle = vehicle
        self.position = position
        self.ch = ch
        self.card: str | None = None
        self.initiative: int | None = None
        self.morale_modifier: int | None = None
        self.modified: int | None = None
        self.column: str | None = None
        self.rows: str | None = None
        self.cell: str | None = None
        self.cell_text = ""
        self.final = ""  # the VOM cell's order as text, while no override changed it
        self.cell_order = ""
        self.target: bool | None = None
        self.target_why = ""
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
                "text": f"{_order_name(game, self.order)} → {_order_name(game, new)}: {why} ({rule})",
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


# ---------------------------------------------------------------------------
# Step 3: the crews' orders


def enemy_vehicle_orders(game: GameContext) -> None:
    """Step 3 b) for Enemy vehicles: crew orders from the VOM, passengers' Bail Out (C2 31.1, 31.11.3).

    For each Enemy vehicle team, scenario order: each crewman of an active vehicle
    (Commander, Driver, Gunner, Loader, Co-driver; active, without an order) gets his order
    by :func:`assign_crew_order`; the Commander's card sets ``team.initiative`` and
    ``team.first_card`` (31.1; without a Commander the first card drawn [house]). Crewmen
    who bailed out (members of the team with no vehicle) get theirs by
    :func:`bailed_out_order` (31.11.2). A team that drew no card but has an active man on
    the map draws one for its initiative [house]. Under C2 23.5 one separate initiative
    card is drawn per vehicle team (31.1) and crew orders wait for
    :func:`assign_on_activation`. Then the passengers of active vehicles
    (:func:`passenger_orders`). Every card is kept in ``state.cards.enemy_this_turn`` (per
    crewman id, ``"team:<vehicle id>"``) until Step 5 e).
    """
    st = game.state
    deferred = bool(game.options.optional_enemy_activation)
    chars = st.characters
    for vid, vehicle in st.vehicles.items():
        if vehicle.side is not _ENEMY:
            continue
        team = st.teams.get(vid)
        if not deferred:
            if vehicle.is_active:
                ctx = _context(game, vehicle)
                seats = vehicle.seats
                for pos in CREW_ORDER:
                    seat = seats.get(pos)
                    if seat is None or not seat.occupant:
                        continue
                    ch = chars.get(seat.occupant)
                    if ch is not None and ch.is_active and ch.order is None and ch.vehicle == vid:
                        _assign(game, ctx, ch)
            if team is not None:
                for cid in team.members:
                    ch = chars.get(cid)
                    if (
                        ch is not None
                        and ch.vehicle is None
                        and ch.is_active
                        and ch.order is None
                        and ch.hex is not None
                    ):
                        bailed_out_order(game, ch)
        if (
            team is not None
            and team.first_card is None
            and any(chars[c].is_active and chars[c].hex is not None for c in team.members if c in chars)
        ):
            why = (
                "a separate initiative card (C2 31.1, 23.5)" if deferred else "no crewman drew a card [house]"
            )
            _initiative_card(game, vehicle, why)
        if vehicle.is_active:
            passenger_orders(game, vehicle)


def _initiative_card(game: GameContext, vehicle: Vehicle, why: str) -> None:
    """Draw a card for the vehicle's initiative only (C2 31.1 with 23.5; [house] with no card drawn)."""
    st = game.state
    team = st.teams[vehicle.id]
    draw = game.enemy_deck.draw(game.dice, f"Enemy Order card, {vehicle.name}: initiative ({why})")
    card = _card(game, draw.card)
    st.cards.enemy_this_turn[f"team:{vehicle.id}"] = card.id
    team.initiative = card.initiative
    team.first_card = card.id
    game.emit(
        "initiative",
        f"{vehicle.name}: card {card.id} sets the vehicle's initiative {card.initiative} ({why}).",
        rule="C2 31.1" + (", 23.5" if game.options.optional_enemy_activation else ""),
        actor=vehicle.id,
        data={"team": vehicle.id, "card": card.id, "initiative": card.initiative, "why": why},
    )


def assign_on_activation(game: GameContext, ch: Character) -> GivenOrder | None:
    """C2 23.5: give an Enemy crewman his order when his vehicle's team activates.

    The engine calls it (instead of :func:`solo.enemy.orders.assign_on_activation`) for each member of
    an Enemy vehicle team at the start of the team's activation. Crewmen in their seats get
    their VOM order (:func:`assign_crew_order`), in the order the team lists them (the
    Commander first, so his Bail Out still reaches the whole crew); crewmen who bailed out
    get :func:`bailed_out_order`. Does nothing (returns None) for anyone else: not active,
    off the map, already ordered, not of an Enemy vehicle team, or in a vehicle that is no
    longer active.
    """
    st = game.state
    if not ch.is_active or ch.order is not None or ch.hex is None or ch.side is not Side.ENEMY:
        return None
    if ch.vehicle is None:
        if ch.team not in st.vehicles:
            return None
        bailed_out_order(game, ch)
        return ch.order
    vehicle = vehicle_of(st, ch)
    if vehicle is None or ch.seat not in CREW_ORDER or not vehicle.is_active:
        return None
    assign_crew_order(game, ch)
    return ch.order


def bailed_out_order(game: GameContext, ch: Character) -> None:
    """The order of an Enemy crewman who bailed out (C2 31.11.2 "Once bailed out, Enemy Crew...").

    He draws an Enemy Order card (the first card of his vehicle team sets its initiative,
    31.1). Armed (a weapon other than Light AT or a main gun, with ammunition), with a
    Spotted Friendly in LOS now, and the card's entry (Cover/Open table, his morale row;
    Berserk reads Aggressive [house], Rout never fires) a fire order: that fire order.
    Otherwise he moves in the card's Rout direction string at the fastest rate his wounds
    allow: Sprint, Evade with a Light Wound, Sneak with a Bad Wound (base-rules §4). Emits
    one ``crew_order`` event.
    """
    from solo.data.cards import CardRow
    from solo.rules.state import AmmoState

    st = game.state
    team = st.teams.get(ch.team)
    draw = game.enemy_deck.draw(game.dice, f"Enemy Order card: {ch.name}, bailed-out crew (31.11.2)")
    card = _card(game, draw.card)
    st.cards.enemy_this_turn[ch.id] = card.id
    notes: list[str] = [f"card {card.id} ({card.initiative:02d})"]
    if team is not None and team.first_card is None and not game.options.optional_enemy_activation:
        team.initiative, team.first_card = card.initiative, card.id
        notes.append(f"it sets the team's initiative {card.initiative} (31.1)")
    weapons = game.data.weapons
    armed = ch.ammo is not AmmoState.NO and any(
        w.weapon in weapons
        and weapons.get(w.weapon).kind not in (WeaponKind.LIGHT_AT, WeaponKind.MAIN_GUN, WeaponKind.KNIFE)
        and weapons.get(w.weapon).kind.is_small_arms
        for w in ch.weapons
    )
    seen = next((f for f in game.opponents(ch) if f.revealed and game.sees(ch, f)), None)
    order: str | None = None
    directions = None
    if ch.morale is not MoraleState.ROUT and armed and seen is not None:
        row = CardRow.AGGRESSIVE if ch.morale is MoraleState.BERSERK else CardRow(ch.morale.value)
        entry = card.entry(row, in_cover=game.in_cover(ch))
        in_cover = "Cover" if game.in_cover(ch) else "Open"
        if entry.code.value in ("AF", "RF", "SF"):
            order = game.data.orders.by_code(entry.code.value).id
            notes.append(f"{in_cover}/{row.value}: {entry} and Spotted {seen.name} in LOS: fire")
        else:
            notes.append(f"{in_cover}/{row.value}: {entry} is no fire order")
    elif seen is None:
        notes.append("no Spotted Friendly in LOS")
    elif not armed:
        notes.append("no usable weapon")
    if order is None:
        order = "sneak" if ch.bad_wounds else ("evade" if ch.wounds else "sprint")
        directions = card.rout
        notes.append(
            f"moves in the Rout direction {card.rout} at his fastest rate ({_order_name(game, order)})"
        )
    game.set_order(ch, order, directions=directions, source=f"card {card.id} (31.11.2 bailed out)")
    game.emit(
        "crew_order",
        f"{ch.name} (bailed-out crew): "
        + "; ".join(notes)
        + f" → {_order_name(game, order)}"
        + (f" {directions}" if directions is not None else "")
        + ".",
        rule="31.11.2",
        actor=ch.id,
        data={
            "vehicle": ch.team,
            "position": None,
            "card": card.id,
            "initiative": card.initiative,
            "order": order,
            "directions": str(directions) if directions is not None else None,
            "notes": notes,
            "overrides": [],
            "checks": [],
        },
    )


def assign_crew_order(game: GameContext, ch: Character) -> None:
    """Give the Enemy crewman ``ch`` his order for the turn and emit one ``crew_order`` event.

    Steps (C2 31.11.3 and the rules it points to), in this order:

    1. The card: none when the Commander's Bail Out reaches the crew (31.11.3) or damage
       forces the order (``force_*`` flags, 31.10.8) or the crewman is in Rout (Bail Out,
       31.11.2) -- but the Commander always draws, his card being the vehicle's initiative
       (31.1). A Truck or Jeep Co-driver draws none either (31.9.2, [house] for Jeeps).
    2. The VOM: row = card initiative + morale modifier, clamped 00-99; column by kind ×
       Target (his or the Commander's marker on the board; Driver and Loader: any other
       crewman's; Half-Tracks [house]: the seat sees a Spotted Friendly or a Friendly
       vehicle) × BU/OPEN (a hatchless AFV position reads BU).
    3. Overrides: Rout → Bail Out; forced flags; the Commander's Bail Out → everyone Bails
       Out; a load order → the Loader's ammunition choice (31.11.3; [house] an empty kind
       takes the other, none left → Spot); Truck/Jeep Co-driver → Aimed Fire with LOS to a
       Spotted Friendly, a Pistol or SMG and a passed TQC, else No Order (31.9.2); speeds:
       immobilized → Emergency Stop (31.2), above the type's Top Speed → the Top Speed
       [house], weather/ground caps (28.1-28.2), Road Orders noted (31.11.1); Bail Out
       from an AFV: a moving AFV (the Driver holds a speed order) → Panic (31.11.2), a
       jammed-closed hatch → Relocate to an empty position with an unjammed hatch, else
       Panic (31.11.2), a hatchless Gunner → Relocate (the exits first), else Panic
       (31.11.2), a closed hatch → Button/Open Up (31.11.3); Button/Open Up with a jammed
       (or no) hatch → Spot (31.11.3).

    Sets the order with :meth:`Game.set_order` (speed orders with the VOM's direction
    string as printed, to be read through the Direction Counter at movement time; Relocate
    with ``target`` = the position to move to) and ``ch.acted[MOUNT_KEY]`` for a VOM fire
    order naming a vehicle weapon. Raises :class:`ValueError` if ``ch`` is not in a crew
    seat of a vehicle.
    """
    vehicle = vehicle_of(game.state, ch)
    if vehicle is None or ch.seat not in CREW_ORDER:
        raise ValueError(f"{ch.name} is not a crewman in a vehicle")
    _assign(game, _context(game, vehicle), ch)


@attrs.define(slots=True)
class _Ctx:
    """What every crewman's order assignment of one vehicle reads (computed once per vehicle)."""

    vehicle: Vehicle
    vtype: VehicleType
    info: _TypeInfo
    team: Any
    turn: int
    deferred: bool
    forced: dict[str, Any]
    tables: dict[tuple[str, str], tuple[_CellInfo, ...]]
    mods: dict[str, int]
    cards: dict[str, Any]
    """The Enemy Order cards by id."""


def _context(game: GameContext, vehicle: Vehicle) -> _Ctx:
    vtype = _vtype(game, vehicle)
    tables, mods = _vom_tables(game)
    st = game.state
    return _Ctx(
        vehicle,
        vtype,
        _type_info(vtype),
        st.teams.get(vehicle.id),
        st.flow.turn,
        bool(game.options.optional_enemy_activation),
        _forced(game, vehicle),
        tables,
        mods,
        _cards(game),
    )


def _assign(game: GameContext, ctx: _Ctx, ch: Character) -> None:
    """:func:`assign_crew_order` with the vehicle's context computed."""
    st = game.state
    vehicle, vtype = ctx.vehicle, ctx.vtype
    pos = ch.seat
    seat = vehicle.seats[pos]
    kind = vtype.kind
    team = ctx.team
    turn = ctx.turn
    deferred = ctx.deferred
    tr = _Trace(vehicle, pos, ch)
    forced = ctx.forced
    cascade = pos != "commander" and vehicle.acted.get(CASCADE_KEY) == turn
    forced_here = forced.get(pos) or forced.get("crew")
    rout = ch.morale is _ROUT
    truck_codriver = pos == "co_driver" and kind in _WHEELED
    reads_vom = not (cascade or forced_here or rout or truck_codriver)
    card = None
    if reads_vom or (pos == "commander" and not deferred):
        draw = game.enemy_deck.draw(
            game.dice, f"Enemy Order card: {ch.name}, {_ROLE_NAMES[pos]} of {vehicle.name} (31.11.3)"
        )
        card = ctx.cards[draw.card]
        st.cards.enemy_this_turn[ch.id] = card.id
        tr.card, tr.initiative = card.id, card.initiative
        if team is not None and team.first_card is None and not deferred:
            team.initiative = card.initiative
            team.first_card = card.id
            tr.notes.append(
                f"his card sets {vehicle.name}'s initiative {card.initiative}"
                + (" (31.1)" if pos == "commander" else " (no Commander: the first card, [house])")
            )
            tr.rules.append("31.1")
            game.emit(
                "initiative",
                f"{vehicle.name}: {ch.name}'s card {card.id} sets the vehicle's initiative "
                f"{card.initiative} (31.1).",
                rule="C2 31.1",
                actor=vehicle.id,
                data={"team": vehicle.id, "card": card.id, "initiative": card.initiative, "why": pos},
            )
    if reads_vom and card is not None:
        target, why = _uses_target(game, vehicle, vtype, pos)
        h = seat.hatch
        is_open = (
            ctx.info.fixed_open.get(pos, False) if h is _H_NONE else (h is _H_OPEN or h is _H_JAMMED_OPEN)
        )
        column = ctx.info.columns[target][is_open]
        modifier = ctx.mods[ch.morale._value_]
        modified = min(99, max(0, card.initiative + modifier))
        info = ctx.tables[(pos, column)][modified]
        tr.final, tr.cell_order = info.final, info.order
        tr.morale_modifier, tr.modified = modifier, modified
        tr.column, tr.rows, tr.cell, tr.cell_text = column, info.rows, info.cell, info.text
        tr.target, tr.target_why = target, why
        tr.order, tr.directions, tr.weapon = info.order, info.directions, info.weapon
    elif rout:
        tr.order = "bail_out"
        tr.overrides.append(
            {
                "from": "",
                "to": "bail_out",
                "why": "Rout: Bail Out",
                "rule": "31.11.2",
                "text": "Rout: Enemy crew in Rout Bail Out (31.11.2)",
            }
        )
        tr.rules.append("31.11.2")
    elif forced_here:
        order, why, rule = forced_here
        tr.order = order
        tr.overrides.append(
            {
                "from": "",
                "to": order,
                "why": why,
                "rule": rule,
                "text": f"{_order_name(game, order)}: {why} ({rule})",
            }
        )
        tr.rules.append(rule)
    elif cascade:
        tr.order = "bail_out"
        tr.overrides.append(
            {
                "from": "",
                "to": "bail_out",
                "why": "the Commander's Bail Out: the whole crew bails out",
                "rule": "31.11.3",
                "text": "Bail Out: the Commander's Bail Out reaches the whole crew (31.11.3)",
            }
        )
    # the Commander's Bail Out (or Rout, 31.10.9) reaches the whole crew (31.11.3)
    if pos == "commander" and kind is _AFV and tr.order == "bail_out":
        vehicle.acted[CASCADE_KEY] = turn
        tr.notes.append("the whole crew will bail out (31.11.3)")
    if truck_codriver and not (forced_here or rout or cascade):
        _truck_codriver(game, vehicle, tr)
    order = tr.order
    if vehicle.damage and (order in LOAD_ORDERS or order == "fire_main_gun" or tr.weapon is not None):
        _destroyed_weapon(game, vehicle, tr)
        order = tr.order
    if order in LOAD_ORDERS:
        _loader_choice(game, vehicle, tr)
    elif order in SPEED_ORDERS:
        _speed_overrides(game, vehicle, vtype, tr)
    elif order == "bail_out" and kind is _AFV:
        _bail_out_overrides(game, vehicle, vtype, seat, tr)
    if tr.order == "button_open_up" and (seat.hatch.is_jammed or seat.hatch is _H_NONE):
        why = "his hatch is jammed" if seat.hatch.is_jammed else "his position has no hatch [house]"
        tr.override(game, "spot", why, "31.11.3")
    _give_crew(game, tr)


def _uses_target(game: GameContext, vehicle: Vehicle, vtype: VehicleType, pos: str) -> tuple[bool, str]:
    """Whether the crewman reads a Target column, and why (C2 31.7.3, 31.11.3)."""
    kind = vtype.kind
    seats = vehicle.seats
    if kind is _AFV:
        if pos in ("driver", "loader"):
            for p, s in seats.items():
                if p != pos and s.marker is not None:
                    return True, f"the {_role_name(p)}'s Target Marker is on {s.marker} (31.7.3)"
            return False, "no other crewman has a Target Marker on the board (31.7.3)"
        own = seats[pos].marker
        if own is not None:
            return True, f"his Target Marker is on {own} (31.11.3)"
        cmd = seats.get("commander")
        if cmd is not None and cmd.marker is not None:
            return True, f"the Commander's Target Marker is on {cmd.marker} (31.11.3)"
        return False, "neither his nor the Commander's Target Marker is on the board (31.11.3)"
    if kind is _HALF_TRACK:
        for v in _opposing_vehicles(game, vehicle):
            if v.hex is not None and seat_sees(game, vehicle, pos, v.hex):
                return True, f"he sees {v.name} [house: Half-Tracks use no markers]"
        for c in _opposing_characters(game, vehicle):
            if seat_sees(game, vehicle, pos, c.hex, target=c):
                return True, f"he sees Spotted {c.name} [house: Half-Tracks use no markers]"
        return False, "he sees no Spotted Friendly [house: Half-Tracks use no markers]"
    return False, "Trucks and Jeeps have one column"


def _truck_codriver(game: GameContext, vehicle: Vehicle, tr: _Trace) -> None:
    """C2 31.9.2: a Truck ([house] or Jeep) Co-driver: Aimed Fire on LOS to a Spotted Friendly and a TQC."""
    ch = tr.ch
    tr.rules = ["31.9.2"]
    weapons = game.data.weapons
    armed = [
        w.weapon
        for w in ch.weapons
        if w.weapon in weapons and weapons.get(w.weapon).kind in (WeaponKind.PISTOL, WeaponKind.SMG)
    ]
    seen = next(
        (
            c
            for c in _opposing_characters(game, vehicle)
            if seat_sees(game, vehicle, tr.position, c.hex, target=c)
        ),
        None,
    )
    if not armed:
        tr.order = "no_order"
        tr.notes.append("no Pistol or SMG: No Order (31.9.2)")
        return
    if seen is None:
        tr.order = "no_order"
        tr.notes.append("no Spotted Friendly in his LOS: No Order (31.9.2)")
        return
    target = ch.effective_tq
    roll, ok = _tqc(
        game, target, f"TQC: {ch.name} ({vehicle.name} Co-driver) Aimed Fire at {seen.name} (31.9.2)"
    )
    tr.checks.append(
        {"check": "tqc", "why": "Aimed Fire (31.9.2)", "roll": roll, "target": target, "passed": ok}
    )
    tr.order = "aimed_fire" if ok else "no_order"
    tr.notes.append(
        f"LOS to Spotted {seen.name}: TQC d10 {roll} vs TQ {target} → "
        + ("passed: Aimed Fire" if ok else ("natural 9: " if roll == 9 else "") + "failed: No Order")
        + " (31.9.2)"
    )


def _loader_choice(game: GameContext, vehicle: Vehicle, tr: _Trace) -> None:
    """C2 31.11.3 Loader: which round to load when the VOM gives a load order."""
    see = (
        (lambda h, t=None: _crew_sees(game, vehicle, h, target=t))
        if LOADER_LOS_WHOLE_CREW
        else (lambda h, t=None: seat_sees(game, vehicle, tr.position, h, target=t))
    )
    opp = _opposing_vehicles(game, vehicle)
    armoured = [v for v in opp if _vehicle_kind(game, v) in (VehicleKind.AFV, VehicleKind.HALF_TRACK)]
    seen_armour = next((v for v in armoured if see(v.hex)), None)
    if seen_armour is not None:
        choice, why = "load_ap", f"LOS to Friendly {seen_armour.name}: Load AP"
    else:
        seen_man = next((c for c in _opposing_characters(game, vehicle) if see(c.hex, c)), None)
        if seen_man is not None:
            choice, why = "load_he", f"no LOS to a Friendly AFV/Half-track, LOS to {seen_man.name}: Load HE"
        elif any(_vehicle_kind(game, v) is VehicleKind.AFV for v in opp):
            choice, why = "load_ap", "no LOS to anything, a Friendly AFV on the map: Load AP"
        else:
            choice, why = "load_he", "no LOS to anything and no Friendly AFV on the map: Load HE"
    kind = choice.removeprefix("load_")
    rounds = vehicle.rounds
    if rounds and rounds.get(kind, 0) <= 0:
        other = "ap" if kind == "he" else "he"
        if rounds.get(other, 0) > 0:
            choice, why = f"load_{other}", f"{why}, but no {kind.upper()} rounds left [house]"
        else:
            tr.override(game, "spot", "no main-gun rounds left [house]", "31.11.3")
            return
    if choice != tr.order:
        tr.override(game, choice, f"ammunition choice: {why}", "31.11.3")
    else:
        tr.notes.append(f"ammunition choice: {why} (31.11.3)")


def _destroyed_weapon(game: GameContext, vehicle: Vehicle, tr: _Trace) -> None:
    """[house] An order for a destroyed weapon becomes Spot (damage of C2 31.10.8).

    Load and Fire Main Gun with ``main_gun_destroyed``; an MG fire order on a mount whose
    ``<mount>_destroyed`` flag is in ``vehicle.damage`` (``bow_mg_destroyed``...).
    """
    damage = vehicle.damage
    if (tr.order in LOAD_ORDERS or tr.order == "fire_main_gun") and "main_gun_destroyed" in damage:
        tr.override(game, "spot", "the main gun is destroyed [house]", "31.10.8")
    elif tr.weapon is not None and f"{tr.weapon}_destroyed" in damage:
        tr.override(game, "spot", f"the {tr.weapon.replace('_', ' ')} is destroyed [house]", "31.10.8")


def _speed_overrides(game: GameContext, vehicle: Vehicle, vtype: VehicleType, tr: _Trace) -> None:
    """Immobilized, Top Speed, weather/ground and Road Orders for a Driver's speed order."""
    st = game.state
    if vehicle.immobilized:
        if vehicle.destroyed:
            why = "destroyed"
        else:
            why = "immobilized" if "immobilized" in vehicle.damage else "mired"
        tr.override(game, "emergency_stop", f"the vehicle is {why}", "31.2")
        return
    info = _type_info(vtype)
    top = info.top
    rank = _FORWARD_RANK.get(tr.order)
    if rank is not None and top in _FORWARD_RANK and rank > _FORWARD_RANK[top]:
        tr.override(game, top, f"above the {vtype.name}'s Top Speed [house]", "31.11.2")
    elif tr.order not in info.allowed:
        tr.override(game, top, f"the {vtype.name} has no {_order_name(game, tr.order)} [house]", "31.11.2")
    if st.weather in _CAPPED or st.ground in _CAPPED:
        new, reason = convert_speed(tr.order, st.weather, st.ground, vtype.kind, True)
        if reason is not None:
            text, _, rule = reason.rpartition(" (")
            tr.override(game, new, text, rule.rstrip(")"))
    if vehicle.road_orders:
        tr.notes.append(f"under Road Orders: Road Move - {_order_name(game, tr.order)} (31.11.1)")
        if "31.11.1" not in tr.rules:
            tr.rules.append("31.11.1")


def _is_moving(game: GameContext, vehicle: Vehicle) -> bool:
    """The vehicle moves this turn: its Driver holds a speed order and it is not immobilized."""
    seat = vehicle.seats.get("driver")
    if seat is None or not seat.occupant or vehicle.immobilized:
        return False
    drv = game.state.characters.get(seat.occupant)
    return drv is not None and drv.is_active and drv.order is not None and drv.order.order in SPEED_ORDERS


def _empty_seat(game: GameContext, vehicle: Vehicle, pos: str) -> bool:
    seat = vehicle.seats[pos]
    if not seat.occupant:
        return True
    occ = game.state.characters.get(seat.occupant)
    return occ is None or not occ.is_active


def _relocation_seat(game: GameContext, vehicle: Vehicle, vtype: VehicleType, pos: str) -> str | None:
    """An empty crew position with an unjammed hatch; a hatchless position's exits first (31.11.2)."""
    exits = [r.value for r in vtype.position(pos).exits_via]
    order = [*exits, *[p for p in CREW_ORDER if p not in exits]]
    for p in order:
        if p == pos or p not in vehicle.seats:
            continue
        s = vehicle.seats[p]
        if s.hatch in (Hatch.OPEN, Hatch.CLOSED) and _empty_seat(game, vehicle, p):
            return p
    return None


def _bail_out_overrides(
    game: GameContext, vehicle: Vehicle, vtype: VehicleType, seat: Seat, tr: _Trace
) -> None:
    """An AFV crewman's Bail Out: moving AFV, jammed hatch, no hatch, closed hatch (31.11.2-31.11.3)."""
    if _is_moving(game, vehicle):
        tr.override(game, "panic", "AFV crew may not bail out of a moving AFV", "31.11.2")
        return
    if seat.hatch is Hatch.JAMMED_CLOSED or seat.hatch is Hatch.NONE:
        why = "his hatch is jammed closed" if seat.hatch is Hatch.JAMMED_CLOSED else "he has no hatch"
        to = _relocation_seat(game, vehicle, vtype, tr.position)
        if to is None:
            tr.override(game, "panic", f"{why} and no empty position with a working hatch", "31.11.2")
        else:
            tr.override(game, "relocate", f"{why}: relocate to the {_role_name(to)}'s position", "31.11.2")
            tr.relocate_to = to
            tr.ch.acted[RELOCATE_FOR_KEY] = "bail_out"
        return
    if seat.hatch is Hatch.CLOSED:
        tr.override(game, "button_open_up", "Bail Out with a closed hatch: Open Hatch", "31.11.3")


def _give_crew(game: GameContext, tr: _Trace) -> None:
    """Set the order and emit the ``crew_order`` event."""
    ch, vehicle, order = tr.ch, tr.vehicle, tr.order
    overrides = tr.overrides
    source = f"VOM card {tr.card}" if tr.cell is not None else "31.11.3"
    if overrides:
        source = f"{source} ({overrides[-1]['rule']})"
    directions = tr.directions
    game.set_order(
        ch,
        order,
        directions=directions,
        target=tr.relocate_to if order == "relocate" else None,
        source=source,
    )
    weapon = tr.weapon
    if weapon is not None:
        ch.acted[MOUNT_KEY] = weapon
    elif MOUNT_KEY in ch.acted:
        del ch.acted[MOUNT_KEY]
    parts: list[str] = []
    if tr.card is not None:
        if tr.column is not None:
            parts.append(
                f"card {tr.card} ({tr.initiative:02d}); {_MORALE_TEXT[ch.morale._value_]} "
                f"{tr.morale_modifier:+d} = {tr.modified:02d}; {tr.cell_text}"
            )
        else:
            parts.append(f"card {tr.card} ({tr.initiative:02d})")
    if overrides:
        parts.extend([o["text"] for o in overrides])
    if tr.notes:
        parts.extend(tr.notes)
    final = tr.final if tr.final and order == tr.cell_order else ""
    if not final:
        final = _order_name(game, order)
        if directions is not None:
            final = f"{final} {directions}"
        if weapon is not None:
            final = f"{final} ({weapon.replace('_', ' ')})"
    if tr.relocate_to is not None:
        final = f"{final} to the {_ROLE_NAMES[tr.relocate_to]}'s position"
    game.emit(
        "crew_order",
        f"{ch.name} ({_ROLE_NAMES[tr.position]}, {vehicle.name}): {'; '.join(parts)} → {final}.",
        rule=", ".join(tr.rules),
        actor=ch.id,
        data={
            "vehicle": vehicle.id,
            "position": tr.position,
            "card": tr.card,
            "initiative": tr.initiative,
            "morale": ch.morale._value_,
            "morale_modifier": tr.morale_modifier,
            "modified": tr.modified,
            "column": tr.column,
            "rows": tr.rows,
            "cell": tr.cell,
            "target": tr.target,
            "target_why": tr.target_why,
            "overrides": [
                {"from": o["from"], "to": o["to"], "why": o["why"], "rule": o["rule"]} for o in overrides
            ]
            if overrides
            else [],
            "checks": tr.checks,
            "notes": tr.notes,
            "order": order,
            "directions": str(directions) if directions is not None else None,
            "weapon": weapon,
            "relocate_to": tr.relocate_to,
            "road": vehicle.road_orders and order in SPEED_ORDERS,
        },
    )


# ---------------------------------------------------------------------------
# Passengers (31.11.3 conditions 1-5; 31.11.2 the 4-character limit)


def _passenger_bail_reason(
    game: GameContext, vehicle: Vehicle, ch: Character, forced: dict[str, Any]
) -> str | None:
    if vehicle.destroyed:
        return "3) the vehicle is destroyed and he survived"
    if vehicle.on_fire:
        return "1) the vehicle is on fire"
    if vehicle.immobilized:
        return "2) the vehicle is immobilized"
    seat = vehicle.seats.get("driver")
    if seat is not None:
        drv = game.state.characters.get(seat.occupant) if seat.occupant else None
        if seat.kia or (drv is not None and not drv.is_active):
            return "4) the driver is killed"
        if drv is not None and drv.bad_wounds > 0:
            return "4) the driver has a Bad Wound"
    if ch.morale.rank > MoraleState.NORMAL.rank:
        return f"5) his Morale State ({ch.morale.value.capitalize()}) is below Normal"
    if forced.get("passengers"):
        return "damage last turn (Wheel/Track, 31.10.8)"
    return None


def passenger_orders(game: GameContext, vehicle: Vehicle) -> None:
    """Enemy passengers: Bail Out on the five conditions of C2 31.11.3, else No Order (they ride).

    Passengers are the occupants of non-crew seats (``passenger_N`` and, [house], the
    cupola). Their orders replace any they hold. At most 4 bail out of a Jeep, Truck or
    Half-Track in a turn, highest positions first; the others Relocate (31.11.2).
    """
    st = game.state
    seated = [(p, s.occupant) for p, s in vehicle.seats.items() if s.occupant and p not in CREW_ORDER]
    if not seated:
        return
    forced = _forced(game, vehicle)
    riders: list[tuple[int, str, Character, str | None]] = []
    for pos, cid in seated:
        ch = st.characters.get(cid)
        if ch is None or not ch.is_active or ch.side is not Side.ENEMY:
            continue
        number = int(pos.rsplit("_", 1)[1]) if pos.startswith("passenger_") else 99
        riders.append((number, pos, ch, _passenger_bail_reason(game, vehicle, ch, forced)))
    bailing = sorted((r for r in riders if r[3] is not None), key=lambda r: -r[0])
    over = {r[1] for r in bailing[PASSENGER_BAIL_LIMIT:]}
    for _number, pos, ch, reason in riders:
        if reason is None:
            order, text, rule = "no_order", "rides: no Bail Out condition (31.11.3)", "31.11.3"
        elif pos in over:
            order, rule = "relocate", "31.11.2"
            ch.acted[RELOCATE_FOR_KEY] = "bail_limit"
            text = f"Bail Out ({reason}), but more than {PASSENGER_BAIL_LIMIT} bail out: Relocate (31.11.2)"
        else:
            order, text, rule = "bail_out", f"Bail Out: {reason} (31.11.3)", "31.11.3"
        game.set_order(ch, order, source=f"passenger ({rule})")
        game.emit(
            "passenger_order",
            f"{ch.name} (passenger, {vehicle.name} {pos}): {text} → {_order_name(game, order)}.",
            rule=rule,
            actor=ch.id,
            data={"vehicle": vehicle.id, "position": pos, "reason": reason, "order": order},
        )


# ---------------------------------------------------------------------------
# Target Markers (31.7.3-31.7.4)


@attrs.frozen
class _Candidate:
    priority: int
    hex: Hex
    count: int
    on: str
    """``afv``, ``vehicle``, ``light_at``, ``characters``, ``character``."""
    label: str


def _marker_tqc_target(
    game: GameContext, vehicle: Vehicle, pos: str, ch: Character, hex_: Hex
) -> tuple[int, list[str]]:
    """TQ for moving a marker to ``hex_``: closed hatch −2 unless negated, Spot +1 (C2 31.7.3)."""
    vtype = _vtype(game, vehicle)
    tq = ch.effective_tq
    parts = [f"TQ {tq}"]
    if not _is_open(vtype, vehicle.seats[pos]):
        negated = _other_marker_near(game, vehicle, pos, hex_)
        if negated:
            parts.append(f"closed hatch -2 negated ({negated})")
        else:
            tq -= 2
            parts.append("closed hatch -2")
    if ch.order is not None and ch.order.order == "spot":
        tq += 1
        parts.append("Spot order +1")
    return tq, parts


def _other_marker_near(game: GameContext, vehicle: Vehicle, pos: str, hex_: Hex) -> str | None:
    """Another crewman's marker (or another AFV Commander's) in or adjacent to ``hex_`` (31.7.3)."""
    dist = game.distance
    for p, s in vehicle.seats.items():
        if p != pos and s.marker is not None and dist(s.marker, hex_) <= 1:
            return f"the {_role_name(p)}'s marker on {s.marker}"
    for v in game.state.vehicles.values():
        if v is vehicle or v.side is not vehicle.side or not v.is_active:
            continue
        s = v.seats.get("commander")
        if s is not None and s.marker is not None and dist(s.marker, hex_) <= 1:
            return f"{v.name}'s Commander's marker on {s.marker}"
    return None


def _candidates(game: GameContext, vehicle: Vehicle, pos: str, ch: Character) -> dict[str, Any]:
    """What the crewman sees, sorted into the 31.7.4 priorities."""
    dist = game.distance
    vh = vehicle.hex
    ignore_p1 = pos == "co_driver" or (
        pos == "gunner" and ch.order is not None and ch.order.order in FIRE_ORDERS
    )
    p1: list[tuple[tuple[int, int, int], Vehicle]] = []
    afvs: list[tuple[tuple[int, int], Vehicle]] = []
    for i, v in enumerate(_opposing_vehicles(game, vehicle)):
        if v.hex is None or not seat_sees(game, vehicle, pos, v.hex):
            continue
        k = _vehicle_kind(game, v)
        if k is VehicleKind.AFV:
            afvs.append(((dist(vh, v.hex), i), v))
        if not v.on_fire:
            p1.append(((_KIND_RANK[k], dist(vh, v.hex), i), v))
    chars = [c for c in _opposing_characters(game, vehicle) if seat_sees(game, vehicle, pos, c.hex, target=c)]
    return {
        "ignore_p1": ignore_p1,
        "p1": [v for _k, v in sorted(p1, key=lambda t: t[0])],
        "afvs": [v for _k, v in sorted(afvs, key=lambda t: t[0])],
        "chars": chars,
        "light_at": sorted((c for c in chars if has_light_at(game, c)), key=lambda c: dist(vh, c.hex)),
    }


def _count_at(game: GameContext, chars: list[Character], hex_: Hex) -> int:
    dist = game.distance
    return sum(1 for c in chars if dist(c.hex, hex_) <= 1)


def _best_group_hex(
    game: GameContext, vehicle: Vehicle, pos: str, chars: list[Character]
) -> tuple[Hex, int] | None:
    """The hex in the seat's LOS with the most of ``chars`` in or adjacent (31.7.4 priority 3).

    Ties: more characters on the hex itself, then nearer the vehicle, then hex order [house].
    """
    if not chars:
        return None
    stagger = game.board.map.stagger
    has = game.board.map.has_hex
    cands: dict[Hex, None] = {}
    for c in chars:
        cands[c.hex] = None
        for d in range(1, 7):
            n = neighbour(c.hex, d, stagger)
            if n is not None and has(n):
                cands[n] = None
    best: tuple[tuple[int, int, int, Hex], Hex, int] | None = None
    for h in cands:
        count = _count_at(game, chars, h)
        on = sum(1 for c in chars if c.hex == h)
        key = (-count, -on, game.distance(vehicle.hex, h), h)
        if best is not None and key >= best[0]:
            continue
        if h != vehicle.hex and not seat_sees(game, vehicle, pos, h):
            continue
        best = (key, h, count)
    return (best[1], best[2]) if best is not None else None


def _effective(game: GameContext, vehicle: Vehicle, seen: dict[str, Any], m: Hex) -> tuple[int, int]:
    """The priority (1-4; 5 = nothing) of what is at marker ``m`` now, and the Spotted Friendly
    characters in or adjacent to it."""
    n = _count_at(game, seen["chars"], m)
    if any(v.hex == m for v in (seen["afvs"] if seen["ignore_p1"] else seen["p1"])):
        return 1, n
    if any(c.hex == m for c in seen["light_at"]):
        return 2, n
    if n >= 2:
        return 3, n
    return (4, 1) if n == 1 else (_NO_TARGET, 0)


def _beats(cand: _Candidate, current: tuple[int, int]) -> bool:
    """Whether ``cand`` is worth moving a marker for (31.7.4): a higher priority, or (3) more men."""
    pc, cc = current
    if cand.priority == 3:
        return pc >= 3 and cand.count > cc
    return cand.priority < pc


def place_enemy_marker(game: GameContext, ch: Character) -> None:
    """Place or move an Enemy crewman's Target Marker after his spotting (C2 31.7.3-31.7.4).

    Only an active Commander, Gunner or Co-driver of an Enemy AFV (Drivers and Loaders use
    no markers, 31.7.3); a Panicked one loses his marker instead. A marker with nothing in
    his LOS is removed first (:func:`remove_lost_markers`). The candidates in his seat's LOS
    (:func:`seat_sees`), by priority:

    1. a Friendly vehicle not abandoned, destroyed or on fire (no spotting roll; an AFV
       before other kinds, then the nearest [house]); the Co-driver and a Gunner with an MG
       fire order (the coaxial MG) ignore it -- but anyone without a marker and with an
       opposing AFV in LOS places it there without a roll;
    2. a Spotted Friendly with a Light AT weapon (operator or assistant: :func:`has_light_at`),
       the nearest;
    3. the hex in LOS with the most Spotted Friendly characters in or adjacent (more than at
       the marker now; ties: more on the hex, nearer, hex order [house]); without a marker
       only for two or more, else
    4. a single Spotted Friendly character, only without a marker.

    Without a marker the best candidate is placed, no roll. With one, it moves only to a
    candidate of higher priority than what is at the marker now (or, priority 3, covering
    more characters) and on a passed TQC: d10 <= TQ − 2 for a closed hatch (BU; negated by
    another crewman's marker, or another Enemy AFV Commander's, in or adjacent to the
    target), + 1 with a Spot order; a natural 9 fails; a priority-3 move of 1 hex needs no
    roll. Sets ``seat.marker`` and ``seat.marker_priority``, records the placement in
    ``vehicle.acted[PLACED_KEY]`` (for 31.2) and emits one ``target_marker`` event naming
    the priority and the TQC. Nothing to do: no event.
    """
    vehicle = vehicle_of(game.state, ch)
    if vehicle is None or vehicle.side is not Side.ENEMY or ch.seat not in MARKER_ROLES or not ch.is_active:
        return
    if vehicle.hex is None or _vehicle_kind(game, vehicle) is not VehicleKind.AFV:
        return
    pos = ch.seat
    seat = vehicle.seats[pos]
    if ch.order is not None and ch.order.order == "panic":
        if seat.marker is not None:
            clear_marker(game, ch, "he Panics", "31.7.4, 31.10.9")
        return
    remove_lost_markers(game, vehicle, positions=(pos,))
    seen = _candidates(game, vehicle, pos, ch)
    current = seat.marker
    cand = _best_candidate(game, vehicle, pos, seen, has_marker=current is not None)
    if cand is None:
        return
    role = _role_name(pos)
    if current is None:
        _put_marker(game, vehicle, ch, cand, None, None)
        return
    now = _effective(game, vehicle, seen, current)
    if cand.hex == current or not _beats(cand, now):
        return
    at_marker = (
        f"at the marker now: {'nothing' if now[0] == _NO_TARGET else f'priority {now[0]}'}, "
        f"{now[1]} Spotted character{'s' if now[1] != 1 else ''} in or adjacent"
    )
    cand = attrs.evolve(cand, label=f"{cand.label}; {at_marker}")
    if cand.priority == 3 and game.distance(current, cand.hex) == 1:
        _put_marker(game, vehicle, ch, cand, current, {"automatic": "a move of 1 hex needs no TQC (31.7.4)"})
        return
    target, parts = _marker_tqc_target(game, vehicle, pos, ch, cand.hex)
    roll, ok = _tqc(
        game,
        target,
        f"TQC: {ch.name} ({role}) moves his Target Marker to {cand.hex}, priority {cand.priority} (31.7.4)",
    )
    tqc = {"roll": roll, "target": target, "parts": parts, "passed": ok}
    if ok:
        _put_marker(game, vehicle, ch, cand, current, tqc)
        return
    verdict = "natural 9: fails" if roll == 9 else "fails"
    game.emit(
        "target_marker",
        f"{ch.name} ({role}, {vehicle.name}) sees priority {cand.priority} ({cand.label}) at {cand.hex}: "
        f"TQC d10 {roll} vs {' '.join(parts)} = {target} → {verdict}; his Target Marker stays on {current} "
        "(31.7.4).",
        rule="31.7.4, 31.7.3",
        actor=ch.id,
        data={
            "vehicle": vehicle.id,
            "position": pos,
            "priority": cand.priority,
            "hex": str(current),
            "moved": False,
            "candidate": str(cand.hex),
            "tqc": tqc,
        },
    )


def _best_candidate(
    game: GameContext, vehicle: Vehicle, pos: str, seen: dict[str, Any], *, has_marker: bool
) -> _Candidate | None:
    if not seen["ignore_p1"] and seen["p1"]:
        v = seen["p1"][0]
        on = "afv" if _vehicle_kind(game, v) is VehicleKind.AFV else "vehicle"
        return _Candidate(1, v.hex, 0, on, f"{_PRIORITY_NAMES[1]}: {v.name}")
    if seen["ignore_p1"] and not has_marker and seen["afvs"]:
        v = seen["afvs"][0]
        return _Candidate(1, v.hex, 0, "afv", f"an opposing AFV, {v.name}, with no marker on the board")
    if seen["light_at"]:
        c = seen["light_at"][0]
        return _Candidate(2, c.hex, 0, "light_at", f"{_PRIORITY_NAMES[2]}: {c.name}")
    chars = seen["chars"]
    group = _best_group_hex(game, vehicle, pos, chars)
    if group is None:
        return None
    h, count = group
    if has_marker or count >= 2:
        names = ", ".join(c.name for c in chars if game.distance(c.hex, h) <= 1)
        pr = 3 if count >= 2 or has_marker else 4
        return _Candidate(pr, h, count, "characters", f"{_PRIORITY_NAMES[3]} ({count}: {names})")
    nearest = min(chars, key=lambda c: game.distance(vehicle.hex, c.hex))
    return _Candidate(4, nearest.hex, 1, "character", f"{_PRIORITY_NAMES[4]}: {nearest.name}")


def _put_marker(
    game: GameContext,
    vehicle: Vehicle,
    ch: Character,
    cand: _Candidate,
    previous: Hex | None,
    tqc: dict[str, Any] | None,
) -> None:
    pos = ch.seat
    seat = vehicle.seats[pos]
    seat.marker = cand.hex
    seat.marker_priority = cand.priority
    turn, impulse = _now(game)
    vehicle.acted.setdefault(PLACED_KEY, {})[pos] = {
        "turn": turn,
        "impulse": impulse,
        "hex": cand.hex,
        "priority": cand.priority,
        "on": cand.on,
    }
    role = _role_name(pos)
    if previous is None:
        how = "no roll: he had no marker on the board"
        verb = f"places his Target Marker on {cand.hex}"
    elif tqc is not None and "automatic" in tqc:
        how, verb = tqc["automatic"], f"moves his Target Marker from {previous} to {cand.hex}"
    else:
        assert tqc is not None
        how = f"TQC d10 {tqc['roll']} vs {' '.join(tqc['parts'])} = {tqc['target']}: passed"
        verb = f"moves his Target Marker from {previous} to {cand.hex}"
    game.emit(
        "target_marker",
        f"{ch.name} ({role}, {vehicle.name}) {verb}: priority {cand.priority}, {cand.label} ({how}) "
        "(31.7.4).",
        rule="31.7.4",
        actor=ch.id,
        data={
            "vehicle": vehicle.id,
            "position": pos,
            "priority": cand.priority,
            "hex": str(cand.hex),
            "previous": str(previous) if previous is not None else None,
            "on": cand.on,
            "count": cand.count,
            "moved": True,
            "tqc": tqc,
        },
    )


def clear_marker(game: GameContext, ch: Character, reason: str, rule: str = "31.7.4") -> None:
    """Remove ``ch``'s Target Marker from the board (Panic, LOS lost...; C2 31.7.4) with an event.

    Does nothing if he has none or sits in no vehicle seat.
    """
    vehicle = vehicle_of(game.state, ch)
    if vehicle is None or ch.seat not in vehicle.seats:
        return
    _clear_seat(game, vehicle, ch.seat, reason, rule)


def _clear_seat(game: GameContext, vehicle: Vehicle, pos: str, reason: str, rule: str) -> None:
    seat = vehicle.seats[pos]
    if seat.marker is None:
        return
    old = seat.marker
    seat.marker = None
    seat.marker_priority = None
    who = game.state.characters[seat.occupant].name if seat.occupant in game.state.characters else "no one"
    game.emit(
        "target_marker_removed",
        f"{who} ({_role_name(pos)}, {vehicle.name}) loses his Target Marker on {old}: {reason} ({rule}).",
        rule=rule,
        actor=seat.occupant,
        data={"vehicle": vehicle.id, "position": pos, "hex": str(old), "reason": reason},
    )


def remove_lost_markers(
    game: GameContext, vehicle: Vehicle, *, positions: tuple[str, ...] | None = None
) -> None:
    """Remove the Target Markers of crewmen who lost them (C2 31.7.4), any side.

    A marker goes when its seat has no active occupant, the occupant has a Panic order, or
    he has no LOS (:func:`seat_sees`) to any Spotted/Known character or active vehicle of
    the other side; and [house] when its own hex has left his LOS (a Target Marker always
    lies in its owner's LOS: a turret or hull turn, a move, smoke). ``positions``: check only
    these seats. One ``target_marker_removed`` event per marker removed. Call it whenever LOS
    may change (after a vehicle or its targets move, turret turns, hatches flip, smoke).
    """
    chars = game.state.characters
    for pos, seat in vehicle.seats.items():
        if seat.marker is None or (positions is not None and pos not in positions):
            continue
        ch = chars.get(seat.occupant) if seat.occupant else None
        if ch is None or not ch.is_active or ch.vehicle != vehicle.id:
            _clear_seat(game, vehicle, pos, "no crewman in the position", "31.7.4")
            continue
        if ch.order is not None and ch.order.order == "panic":
            _clear_seat(game, vehicle, pos, "he Panics", "31.7.4, 31.10.9")
            continue
        if vehicle.hex is None:
            _clear_seat(game, vehicle, pos, "the vehicle is off the map", "31.7.4")
            continue
        sees = any(
            v.hex is not None and seat_sees(game, vehicle, pos, v.hex)
            for v in _opposing_vehicles(game, vehicle)
        ) or any(seat_sees(game, vehicle, pos, c.hex, target=c) for c in _opposing_characters(game, vehicle))
        if not sees:
            side = "Spotted Friendly" if vehicle.side is Side.ENEMY else "Known Enemy"
            _clear_seat(game, vehicle, pos, f"no LOS to any {side} character or vehicle", "31.7.4")
        elif seat.marker != vehicle.hex and not seat_sees(game, vehicle, pos, seat.marker):
            _clear_seat(game, vehicle, pos, "its hex is out of his LOS [house]", "31.7.4")


# ---------------------------------------------------------------------------
# Emergency Stop (31.2)


def enemy_emergency_stop(game: GameContext, driver: Character) -> bool:
    """C2 31.2 (1): the Enemy Driver's Emergency Stop when his Commander marked a threat this Impulse.

    Call at the Driver's activation (Step 4 a) iii)). If the Driver of an Enemy vehicle holds
    a speed order and his Commander placed or moved his Target Marker THIS Impulse on a
    Friendly AFV or a Friendly character with a Light AT weapon, the Driver takes a TQC:
    d10 (0-9) <= his TQ + the Commander's LDR (:func:`commander_ldr`; example of play:
    "5 + 2"); a natural 9 fails. Pass: his order becomes Emergency Stop through
    :func:`driver_emergency_stop` (:func:`solo.rules.vehicles.emergency_stop.emergency_stop` applies the
    31.11.2 crew order retention). Once an Impulse per vehicle. Emits one
    ``emergency_stop_check`` event when a TQC is rolled. Returns True if the order changed.
    """
    vehicle = vehicle_of(game.state, driver)
    if vehicle is None or vehicle.side is not Side.ENEMY or driver.seat != "driver" or not driver.is_active:
        return False
    if driver.order is None or driver.order.order not in SPEED_ORDERS:
        return False
    now = _now(game)
    placed = vehicle.acted.get(PLACED_KEY, {}).get("commander")
    if (
        placed is None
        or (placed["turn"], placed["impulse"]) != now
        or placed["on"] not in ("afv", "light_at")
    ):
        return False
    if vehicle.acted.get(ESTOP_KEY) == now:
        return False
    vehicle.acted[ESTOP_KEY] = now
    ldr = commander_ldr(game, vehicle)
    tq = driver.effective_tq
    target = tq + ldr
    what = "a Friendly AFV" if placed["on"] == "afv" else "a Friendly Light AT weapon"
    roll, ok = _tqc(game, target, f"TQC: {driver.name} Emergency Stop, the Commander marked {what} (31.2)")
    verdict = "passed" if ok else ("natural 9: fails" if roll == 9 else "fails")
    old = driver.order.order
    game.emit(
        "emergency_stop_check",
        f"{driver.name} (Driver, {vehicle.name}): the Commander placed his Target Marker this Impulse on "
        f"{what} at {placed['hex']}; TQC d10 {roll} vs TQ {tq} + LDR {ldr} = {target} → {verdict}"
        + (
            f": {_order_name(game, old)} becomes Emergency Stop."
            if ok
            else f": he keeps {_order_name(game, old)}."
        ),
        rule="31.2",
        actor=driver.id,
        data={
            "vehicle": vehicle.id,
            "roll": roll,
            "tq": tq,
            "ldr": ldr,
            "target": target,
            "passed": ok,
            "marker": str(placed["hex"]),
            "on": placed["on"],
            "from": old,
        },
    )
    if ok:
        driver_emergency_stop(game, driver, f"his Commander marked {what}", "31.2 (1)")
    return ok


def driver_emergency_stop(game: GameContext, driver: Character, reason: str, rule: str) -> bool:
    """The Driver's order becomes Emergency Stop for ``reason`` (failed MC, immobilized, killed; C2 31.2).

    Either side. :func:`solo.rules.vehicles.emergency_stop.emergency_stop` does the change (with the
    31.11.2 crew order retention by speed and its own event). Does
    nothing (returns False) if he already has Emergency Stop or is not in a Driver position;
    returns True if changed.
    """
    vehicle = vehicle_of(game.state, driver)
    if vehicle is None or driver.seat != "driver":
        return False
    if driver.order is not None and driver.order.order == "emergency_stop":
        return False

    emergency_stop.emergency_stop(game, vehicle, driver, reason=reason, rule=rule)
    return driver.order is not None and driver.order.order == "emergency_stop"


# ---------------------------------------------------------------------------
# Turret (31.6) and smoke dischargers (31.11.2)


def _in_turret_front(game: GameContext, vehicle: Vehicle, hex_: Hex) -> bool:
    if hex_ == vehicle.hex:
        return True
    facing = vehicle.turret if vehicle.turret is not None else vehicle.facing
    return any((d - facing) % 6 == 0 for d in wedge_directions(vehicle.hex, hex_, game.board.map.stagger))


def commander_turret_target(game: GameContext, vehicle: Vehicle) -> Hex | None:
    """The hex the turret must turn toward for the Commander's marker, or None (C2 31.6, 31.7.4).

    The Commander's Target Marker hex when he has one, the Gunner has none or one of lower
    priority (a higher ``marker_priority`` number; unknown counts as lowest), and the hex is
    outside the turret's front arc (wedge 0 of the turret facing; a hexspine of the front
    wedge is inside). None for a vehicle without a turret or with ``"turret_jammed"``
    damage. The crew module turns the turret 1 hexside instead of the Gunner's action, when
    his order allows turning (Fire Main Gun or an MG fire order, 31.6).
    """
    if vehicle.turret is None or vehicle.hex is None or "turret_jammed" in vehicle.damage:
        return None
    cmd = vehicle.seats.get("commander")
    if cmd is None or cmd.marker is None:
        return None
    gun = vehicle.seats.get("gunner")
    if gun is not None and gun.marker is not None:
        cp = cmd.marker_priority if cmd.marker_priority is not None else _NO_TARGET
        gp = gun.marker_priority if gun.marker_priority is not None else _NO_TARGET
        if cp >= gp:
            return None
    if _in_turret_front(game, vehicle, cmd.marker):
        return None
    return cmd.marker


def smoke_discharger_hex(game: GameContext, vehicle: Vehicle) -> Hex | None:
    """The hex adjacent to ``vehicle`` for its smoke dischargers (C2 31.11.2), or None.

    The greatest threat among the Commander's Observed Targets (:func:`observed_targets`;
    the Commander's marker must be on a threat): 1) an opposing AFV, 2) a Light AT team
    member, 3) infantry (and [house] other vehicles); then the nearest of that rank. The hex
    is the neighbour of the vehicle (on the map) closest to it; ties: the one nearer the
    hull front, then lower direction number [house]. None without a Commander's marker or a
    threat under it.
    """
    if vehicle.hex is None:
        return None
    cmd = vehicle.seats.get("commander")
    if cmd is None or cmd.marker is None:
        return None
    dist = game.distance
    best: tuple[tuple[int, int], Hex] | None = None
    for t in observed_targets(game, vehicle, cmd):
        if isinstance(t, Vehicle):
            rank = 1 if _vehicle_kind(game, t) is VehicleKind.AFV else 3
            h = t.hex
        else:
            rank = 2 if has_light_at(game, t) else 3
            h = t.hex
        if h is None:
            continue
        key = (rank, dist(vehicle.hex, h))
        if best is None or key < best[0]:
            best = (key, h)
    if best is None:
        return None
    threat = best[1]
    stagger = game.board.map.stagger
    options: list[tuple[tuple[int, int, int], Hex]] = []
    for d in range(1, 7):
        n = neighbour(vehicle.hex, d, stagger)
        if n is None or not game.board.map.has_hex(n):
            continue
        turn = min((d - vehicle.facing) % 6, (vehicle.facing - d) % 6)
        options.append(((dist(n, threat), turn, d), n))
    if not options:
        return None
    return min(options, key=lambda o: o[0])[1]
