"""What a crewman sees and keeps in sight, for either side (C2 31.7.1-31.7.4, 31.10.8-31.10.9, 32.1).

- LOS from a seat by its hatch state (31.7.1-31.7.3): :func:`seat_sees`, ``_crew_sees``; a
  ``"periscope:<position>"`` damage flag (persistent) blinds a closed hatch (31.10.8).
- What a crew faces: :func:`observed_targets` (31.7.3), :func:`has_light_at` (a Light AT team
  member, 32.1; reads ``state.flags["light_at"]``, ``{operator id: {"assistant": id, "carrier":
  id, ...}}``), the opposing vehicles and characters.
- Target Markers lost (31.7.4): :func:`remove_lost_markers`, :func:`clear_marker`.
- The Commander's Leadership added to his crew's TQ (31.10.9): :func:`commander_ldr`.
- A TQ Check (C2 23.1), a vehicle's type and kind, a position's name.

The Enemy's crew decisions (:mod:`solo.enemy`) read these; none of them is a decision.

May import: :mod:`solo.rules.state`, :mod:`solo.rules.vehicles.state`, :mod:`solo.data`, :mod:`solo.core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.core.hexes import Hex, wedge_directions
from solo.data.tables import CheckKind, MoraleState
from solo.data.vehicle_types import HatchState, VehicleKind, VehicleType
from solo.data.weapons import WeaponKind
from solo.rules.state import Character, Side
from solo.rules.vehicles.state import CREW_ORDER, Hatch, Seat, Vehicle, vehicle_of

if TYPE_CHECKING:
    from solo.rules.context import GameContext


# ---------------------------------------------------------------------------
# Constants

LIGHT_AT_ORDERS: tuple[str, ...] = ("load_light_at", "fire_light_at")
"""Orders that make a character part of a Light AT team (C2 31.7.4 priority 2, 32.1)."""
_ROLE_NAMES = {
    "commander": "Commander",
    "driver": "Driver",
    "gunner": "Gunner",
    "loader": "Loader",
    "co_driver": "Co-driver",
}


# ---------------------------------------------------------------------------
# A vehicle's type and kind, a position's name, a TQ Check


def _vtype(game: GameContext, vehicle: Vehicle) -> VehicleType:
    vtype: VehicleType = game.data.vehicles.get(vehicle.type)
    return vtype


def _vehicle_kind(game: GameContext, v: Vehicle) -> VehicleKind:
    return _vtype(game, v).kind


def _role_name(position: str) -> str:
    if position in _ROLE_NAMES:
        return _ROLE_NAMES[position]
    return position.replace("_", " ").capitalize()


def _tqc(game: GameContext, target: int, purpose: str) -> tuple[int, bool]:
    """A TQC: d10 (0-9) <= ``target``; a natural 9 fails (C2 23.1)."""
    roll = game.dice.d10(purpose).total
    out = game.data.checks.resolve(CheckKind.TQC, roll, target)
    return roll, out.passed


# ---------------------------------------------------------------------------
# LOS from a seat (31.7.1-31.7.3)


def _hatch_state(seat: Seat) -> HatchState | None:
    """The VOM/LOS hatch state of ``seat``; None for a position without a hatch (its fixed state)."""
    h = seat.hatch
    if h is Hatch.NONE:
        return None
    return HatchState.OPEN if h.is_open else HatchState.CLOSED


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
    out: list[Character | Vehicle] = [
        c for c in _opposing_characters(game, vehicle) if dist(c.on_hex, m) <= 1
    ]
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


# ---------------------------------------------------------------------------
# Target Markers lost (31.7.4)


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
        ) or any(
            seat_sees(game, vehicle, pos, c.on_hex, target=c) for c in _opposing_characters(game, vehicle)
        )
        if not sees:
            side = "Spotted Friendly" if vehicle.side is Side.ENEMY else "Known Enemy"
            _clear_seat(game, vehicle, pos, f"no LOS to any {side} character or vehicle", "31.7.4")
        elif seat.marker != vehicle.hex and not seat_sees(game, vehicle, pos, seat.marker):
            _clear_seat(game, vehicle, pos, "its hex is out of his LOS [house]", "31.7.4")


# ---------------------------------------------------------------------------
# The Driver's Emergency Stop (31.2)


__all__ = [
    "LIGHT_AT_ORDERS",
    "clear_marker",
    "commander_ldr",
    "has_light_at",
    "observed_targets",
    "remove_lost_markers",
    "seat_sees",
]
