"""Seats and hatches (C2 31.7, 31.8) and the crew's TQ (31.10.9, 31.11.2): who sits where, what a seat sees,
Leadership and out-of-position penalties, the crew TQC.

May import: solo.rules (below the vehicle activation) and the rooms below rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solo.core.hexes import Hex, wedge_directions
from solo.data.orders import Order
from solo.data.tables import CheckKind, MoraleState
from solo.data.vehicle_types import Frame, HatchState, Position, VehicleKind, VehicleType
from solo.rules import morale
from solo.rules.context import GameContext
from solo.rules.state import Character, Side
from solo.rules.vehicles import crew_sight
from solo.rules.vehicles.state import CREW_ORDER, Hatch, Seat, Vehicle, vehicles_of


def _vtype(game: GameContext, vehicle: Vehicle) -> VehicleType:
    vtype: VehicleType = game.data.vehicles.get(vehicle.type)
    return vtype


def _hatch_state(seat: Seat) -> HatchState | None:
    """The LOS state of a seat: None for a hatchless position (its fixed state)."""
    if seat.hatch is Hatch.NONE:
        return None
    return HatchState.OPEN if seat.hatch.is_open else HatchState.CLOSED


def _state_of(pos: Position, seat: Seat) -> HatchState:
    state = _hatch_state(seat)
    if state is None or not pos.hatch:
        return pos.fixed_state or HatchState.CLOSED
    return state


def buttoned_up(game: GameContext, vehicle: Vehicle, position: str) -> bool:
    """Whether ``position`` sees through periscopes: a closed hatch, or a hatchless seat inside the
    armor like a tank Gunner (C2 31.7.3, 31.8)."""
    pos = _vtype(game, vehicle).position(position)
    return _state_of(pos, vehicle.seats[position]) is HatchState.CLOSED


def closed_hatch_spotting(game: GameContext, vehicle: Vehicle, position: str) -> bool:
    """Whether ``position`` takes the closed-hatch -2 to spot and to move a Target Marker
    (C2 31.7.3): :func:`buttoned_up`, except an AFV position without a hatch (the tank Gunner,
    31.8) when the house option ``hatchless_gunner_spot`` is false."""
    if not buttoned_up(game, vehicle, position):
        return False
    if vehicle.seats[position].hatch is Hatch.NONE and not game.options.hatchless_gunner_spot:
        return _vtype(game, vehicle).kind is not VehicleKind.AFV
    return True


def exposed(game: GameContext, vehicle: Vehicle, position: str) -> bool:
    """Whether the man in ``position`` is out of the armor: an open hatch, or an open position of a
    Jeep, Truck or Half-Track (C2 31.8, 31.10.9)."""
    return not buttoned_up(game, vehicle, position)


def in_seat_arc(game: GameContext, vehicle: Vehicle, position: str, h: Hex) -> bool:
    """Whether hex ``h`` lies in the LOS arcs of ``position`` (C2 31.7.1-31.7.3).

    Wedges are relative to the hull or, for turret positions, the turret facing; a hex on a
    hexspine counts when either of its wedges is seen; the vehicle's own hex always is.
    """
    if vehicle.hex is None:
        return False
    if h == vehicle.hex:
        return True
    pos = _vtype(game, vehicle).position(position)
    wedges = pos.sight(_state_of(pos, vehicle.seats[position]))
    if not wedges:
        return False
    facing = vehicle.turret if pos.frame is Frame.TURRET and vehicle.turret is not None else vehicle.facing
    return any((d - facing) % 6 in wedges for d in wedge_directions(vehicle.hex, h, game.board.map.stagger))


def seat_sees(game: GameContext, vehicle: Vehicle, position: str, h: Hex) -> bool:
    """Whether the man in ``position`` has LOS to hex ``h``: his seat's arcs and the map's LOS (C2 31.7).

    The Enemy's rule of sight (``game.enemy.seat_sees``: it also blinds a closed hatch with a
    periscope hit, 31.10.8).
    """
    return bool(crew_sight.seat_sees(game, vehicle, position, h))


def uses_target_marker(game: GameContext, vehicle: Vehicle, position: str) -> bool:
    """Whether ``position`` has a Target Marker: AFV Commander, Gunner, Co-driver (C2 31.7.1-31.7.3)."""
    return _vtype(game, vehicle).kind is VehicleKind.AFV and position in MARKER_POSITIONS


def _occupant(game: GameContext, seat: Seat | None) -> Character | None:
    if seat is None or seat.occupant is None:
        return None
    return game.state.characters.get(seat.occupant)


def _driver_order(game: GameContext, vehicle: Vehicle) -> Order | None:
    driver = _occupant(game, vehicle.seats.get("driver"))
    return game.order_def(driver) if driver is not None else None


def _is_moving(game: GameContext, vehicle: Vehicle) -> bool:
    """The Driver holds a speed order other than Emergency Stop and the vehicle can move (31.11.2)."""
    o = _driver_order(game, vehicle)
    return o is not None and o.is_vehicle and o.id not in _MOVING_EXCLUDED and not vehicle.immobilized


def _is_crew_seat(position: str | None) -> bool:
    return position in CREW_ORDER


def _homes(game: GameContext) -> dict[str, str]:
    """Each crewman's own position, recorded the first time it is asked (scenario set-up)."""
    homes: dict[str, str] | None = game.state.flags.get(HOME_KEY)
    if homes is None:
        homes = {}
        for v in vehicles_of(game.state).values():
            for pos, seat in v.seats.items():
                if seat.occupant is not None:
                    homes[seat.occupant] = pos
        game.state.flags[HOME_KEY] = homes
    return homes


DRIVE_SKILL = "drive"
"""The skill that lets a Friendly Character take the Driver's position of a Jeep, Truck or Half-Track
(C2 31.3)."""


def may_drive(game: GameContext, ch: Character, vehicle: Vehicle) -> bool:
    """Whether ``ch`` may take the Driver's position of ``vehicle`` (C2 31.3): on a Friendly Jeep,
    Truck or Half-Track ("must be driven by a Friendly Character. Randomly select a Driver ... or
    you can use a Character with the Drive Skill") only the vehicle's own Driver (his team is the
    vehicle and his set-up position the Driver's) or a man with the Drive skill; on an AFV or an
    Enemy vehicle, anyone the seat rules allow."""
    if vehicle.side is not Side.FRIENDLY or _vtype(game, vehicle).kind is VehicleKind.AFV:
        return True
    own = _homes(game).get(ch.id) == "driver" and ch.team == vehicle.id
    return own or DRIVE_SKILL in ch.skills


def _out_of_position(game: GameContext, ch: Character) -> bool:
    if not _is_crew_seat(ch.seat):
        return False
    home = _homes(game).setdefault(ch.id, ch.seat or "")
    if home == ch.seat or not _is_crew_seat(home):
        return False
    return not (home == "co_driver" and ch.seat == "driver")


def crew_tq_modifiers(game: GameContext, vehicle: Vehicle, ch: Character) -> list[tuple[str, int]]:
    """TQ modifiers of a crew TQC (not spotting): the Commander's LDR, out of position -2.

    C2 31.10.9 (Leadership while the Commander is in the vehicle, Normal or better, no fire;
    see :data:`LEADERSHIP_ON_CREW_TQC`) and 31.11.2 Relocate. ``(name, value)`` pairs.
    """
    mods: list[tuple[str, int]] = []
    cmd = _occupant(game, vehicle.seats.get("commander"))
    if (
        LEADERSHIP_ON_CREW_TQC
        and cmd is not None
        and cmd is not ch
        and cmd.is_active
        and cmd.ldr > 0
        and cmd.morale.rank <= MoraleState.NORMAL.rank
        and not vehicle.on_fire
        and _is_crew_seat(ch.seat)
    ):
        mods.append((f"Commander {cmd.name} LDR", cmd.ldr))
    if _out_of_position(game, ch):
        mods.append(("out of position", OUT_OF_POSITION))
    return mods


def _crew_tqc(
    game: GameContext, vehicle: Vehicle, ch: Character, purpose: str, extra: Sequence[tuple[str, int]] = ()
) -> Any:
    """A crew TQC with :func:`crew_tq_modifiers` (and ``extra``); the check event names them."""

    mods = [*crew_tq_modifiers(game, vehicle, ch), *extra]
    shown = ", ".join(f"{n} {v:+d}" for n, v in mods)
    return morale.check(
        game,
        ch,
        CheckKind.TQC,
        modifier=sum(v for _, v in mods),
        purpose=purpose + (f"; {shown}" if shown else ""),
    )


LEADERSHIP_ON_CREW_TQC = True
"""[reading] Crew TQCs add the Commander's LDR when he is in the vehicle, Normal or better, and the
vehicle is not on fire (C2 31.10.9 conditions; the example of play adds it to the Driver's and
Gunner's TQCs). Never to spotting, never to the Commander himself."""


OUT_OF_POSITION = -2
"""A crewman out of his own position: -2 TQ on every TQC except spotting; a Co-driver in the
Driver's seat has no penalty (C2 31.11.2 Relocate)."""


MARKER_POSITIONS: tuple[str, ...] = ("commander", "gunner", "co_driver")
"""AFV positions that use Target Markers (Drivers and Loaders do not, C2 31.7.3)."""


HOME_KEY = "crew_home"
"""``state.flags`` key: each crewman's own position ``{character id: position}`` (31.11.2 Relocate)."""


_MOVING_EXCLUDED = ("emergency_stop",)
