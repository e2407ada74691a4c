"""The turret (C2 31.6): where the Gunner turns it, the Friendly choice to turn instead of firing.

May import: solo.rules.vehicles.movement, the marker rules and below, and the rooms below rules."""

from __future__ import annotations

from collections.abc import Generator

from solo.core.decisions import Decision
from solo.core.hexes import Arc, Hex, in_arcs, rotate
from solo.rules.context import GameContext
from solo.rules.state import Character, Side
from solo.rules.vehicles.markers import _remove_lost_markers
from solo.rules.vehicles.seats import _vtype
from solo.rules.vehicles.state import Vehicle


def _commander_turret_target(game: GameContext, vehicle: Vehicle) -> Hex | None:
    """The Commander's marker when the Gunner has none or a lower-priority one (31.6, 31.7.4)."""
    return game.enemy.commander_turret_target(game, vehicle)


def _in_turret_front(game: GameContext, vehicle: Vehicle, h: Hex) -> bool:
    assert vehicle.hex is not None and vehicle.turret is not None
    if h == vehicle.hex:
        return True
    return in_arcs(vehicle.hex, vehicle.turret, h, game.board.map.stagger, (Arc.FRONT,))


def _enemy_turret_target(game: GameContext, vehicle: Vehicle, gunner: Character) -> tuple[Hex | None, str]:
    """Where an Enemy turret must turn this Impulse, and why (C2 31.6, 31.7.4)."""
    cmd = _commander_turret_target(game, vehicle)
    if cmd is not None and not _in_turret_front(game, vehicle, cmd):
        return (cmd, "toward the Commander's Target Marker (31.6, 31.7.4)")
    seat = vehicle.seats.get(gunner.seat or "")
    if seat is not None and seat.marker is not None:
        marker = seat.marker
        observed = [
            o
            for o in game.opponents(gunner)
            if o.revealed and o.hex is not None and game.distance(o.hex, marker) <= 1
        ]
        if observed and not any(
            _in_turret_front(game, vehicle, o.hex) for o in observed if o.hex is not None
        ):
            return (marker, "toward his Observed Target (31.6)")
    return (None, "")


def _turret_turn(game: GameContext, vehicle: Vehicle, ch: Character) -> Generator[Decision, str, bool]:
    """The Gunner turns the turret one hexside if he must (Enemy) or wants to (Friendly) (C2 31.6).

    Returns True if it turned: then neither the main gun nor the coaxial MG fires this Impulse.
    """
    from solo.core.decisions import DecisionKind
    from solo.rules.vehicles.move_state import VehicleMoveState
    from solo.rules.vehicles.turning import turn_turret, turn_turret_toward_hex

    vtype = _vtype(game, vehicle)
    if not vtype.turret or vehicle.turret is None or vehicle.hex is None or "turret_jammed" in vehicle.damage:
        return False
    state = VehicleMoveState(vehicle.hex, vehicle.facing, vehicle.turret)
    if ch.side is Side.ENEMY:
        target, why = _enemy_turret_target(game, vehicle, ch)
        if target is None:
            return False
        new, step = turn_turret_toward_hex(game.board, state, target, dice=game.dice)
    else:
        o = game.order_def(ch)
        left, right = rotate(vehicle.turret, -1), rotate(vehicle.turret, 1)
        keep = ("no", f"Keep the turret facing {vehicle.turret}")
        turns = [
            (f"turn_{left}", f"Turn the turret to face {left}"),
            (f"turn_{right}", f"Turn the turret to face {right}"),
        ]
        first = None
        for m in (vehicle.seats[ch.seat or ""].marker, _commander_turret_target(game, vehicle)):
            if m is not None and m != vehicle.hex:
                _state, hint = turn_turret_toward_hex(game.board, state, m, dice=game.dice)
                if hint is not None:
                    first = f"turn_{hint.facing}"
                    break
        if first is not None:
            turns.sort(key=lambda kv: kv[0] != first)
            options = [*turns, keep]
        else:
            options = [keep, *turns]
        key = yield game.decision(
            DecisionKind.ORDER_TARGET,
            f"Turret of {vehicle.name} ({ch.name}, {o.name if o else 'no order'}): turn it? (C2 31.6)",
            options,
            actor=ch.id,
        )
        if key == "no":
            return False
        why = "the player's choice (31.6)"
        new, step = turn_turret(state, int(key.split("_")[1]), dice=game.dice)
    if step is None:
        return False
    vehicle.turret = new.turret
    vehicle.acted["turret_turned"] = game.state.flow.impulse
    game.emit(
        "turret_turn",
        f"{ch.name}: the {vehicle.name}'s {step.text}, {why}; the turn replaces firing the main gun and "
        "coaxial MG this Impulse.",
        rule="C2 31.6",
        actor=ch.id,
        data={"vehicle": vehicle.id, "turret": vehicle.turret, "reason": why},
    )
    _remove_lost_markers(game, vehicle)
    return True


def _turned_now(game: GameContext, vehicle: Vehicle) -> bool:
    """The turret turned this Impulse (``vehicle.acted["turret_turned"]``, read by ``vehicle_combat``)."""
    return bool(vehicle.acted.get("turret_turned") == game.state.flow.impulse)
