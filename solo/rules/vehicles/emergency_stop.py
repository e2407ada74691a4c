"""Emergency Stop (C2 31.2, 31.11.2): the Driver's stop, how far the vehicle still moves, and which crew
orders the stop keeps.

May import: solo.rules (below solo.rules.vehicles.crew) and the rooms below rules."""

from __future__ import annotations

from solo.rules.context import GameContext
from solo.rules.state import Character
from solo.rules.vehicles.markers import _clear_marker
from solo.rules.vehicles.seats import _crew_tqc, buttoned_up
from solo.rules.vehicles.state import Vehicle, vehicle_of

EMERGENCY_STOP_TQC_HEXES = 2
"""31.11.2: moving this many hexes when the vehicle stops, every crewman must pass a TQC to keep his
order; more, none keeps it; fewer, all keep it."""


def _moved_now(game: GameContext, vehicle: Vehicle) -> int:
    """Hexes the vehicle moved in the current Impulse (0 if it has not moved yet)."""
    flow = game.state.flow
    if vehicle.acted.get("moved_at") != (flow.turn, flow.impulse):
        return 0
    return vehicle.moved_this_impulse


def _lose_order(game: GameContext, vehicle: Vehicle, c: Character, reason: str, rule: str) -> None:
    """A crewman loses his order: Panic with a closed hatch (marker removed), Duck Back if exposed
    (C2 31.10.9, 31.11.2)."""
    if c.seat is not None and c.seat in vehicle.seats and buttoned_up(game, vehicle, c.seat):
        game.set_order(c, "panic", source=f"{reason} ({rule})")
        game.emit("panic", f"{c.name} panics ({reason}).", rule=rule, actor=c.id, data={"reason": reason})
        _clear_marker(game, vehicle, c.seat, "he panics", "C2 31.7.4")
    else:
        game.set_order(c, "duck_back", source=f"{reason} ({rule})")
        game.emit(
            "duck_back", f"{c.name} ducks back ({reason}).", rule=rule, actor=c.id, data={"reason": reason}
        )


def stop_speed(game: GameContext, vehicle: Vehicle, driver: Character) -> int:
    """How many hexes the vehicle is moving this Impulse, for 31.11.2 (see the module docstring).

    The larger of the hexes the Driver's speed order moves this Impulse and the hexes the
    vehicle already moved in it; 0 for a Driver without a speed order or outside Impulses 1-4.
    """
    o = game.order_def(driver)
    imp = game.state.flow.impulse
    points = len(o.slots(imp)) if o is not None and o.is_vehicle and 1 <= imp <= 4 else 0
    return max(points, _moved_now(game, vehicle))


def emergency_stop(
    game: GameContext,
    vehicle: Vehicle,
    driver: Character,
    *,
    reason: str,
    rule: str = "C2 31.2",
    hexes: int | None = None,
) -> None:
    """The Driver's order becomes Emergency Stop, and the crew may lose theirs (C2 31.2, 31.11.2).

    ``hexes``: how fast the vehicle is moving this Impulse (default :func:`stop_speed`, taken
    before the order changes). Emits one ``emergency_stop`` event, then
    :func:`stop_retention`. Does nothing if the Driver already has Emergency Stop.
    """
    if driver.order is not None and driver.order.order == "emergency_stop":
        return
    if hexes is None:
        hexes = stop_speed(game, vehicle, driver)
    game.set_order(driver, "emergency_stop", source=f"{reason} ({rule})")
    game.emit(
        "emergency_stop",
        f"{driver.name}: the {vehicle.name} makes an Emergency Stop ({reason}); it was moving {hexes} "
        f"hex{'es' if hexes != 1 else ''} this Impulse.",
        rule=f"{rule}, 31.11.2",
        actor=driver.id,
        data={"vehicle": vehicle.id, "reason": reason, "hexes": hexes},
    )
    stop_retention(game, vehicle, driver, hexes)


def stop_retention(game: GameContext, vehicle: Vehicle, driver: Character, hexes: int) -> None:
    """After an Emergency Stop at ``hexes`` hexes, who of the crew keeps his order (C2 31.11.2).

    0-1: every crewman keeps it; 2 (:data:`EMERGENCY_STOP_TQC_HEXES`): each makes a crew TQC
    (:func:`crew_tq_modifiers`) or loses it; 3+: none keeps it. A lost order becomes Panic
    (closed hatch; his Target Marker goes) or Duck Back (exposed). Passengers are not crew;
    men already on Panic or Duck Back roll nothing.
    """
    crew = [
        c
        for c in (game.state.characters[cid] for cid in vehicle.crew_ids())
        if c is not driver
        and c.is_active
        and c.order is not None
        and c.order.order not in ("panic", "duck_back")
    ]
    if not crew:
        return
    if hexes < EMERGENCY_STOP_TQC_HEXES:
        game.emit(
            "emergency_stop",
            f"The {vehicle.name} stopped at {hexes} hex{'es' if hexes != 1 else ''} this Impulse: every "
            "crewman keeps his order.",
            rule="C2 31.11.2",
            data={"vehicle": vehicle.id, "hexes": hexes, "kept": [c.id for c in crew]},
        )
        return
    for c in crew:
        if hexes == EMERGENCY_STOP_TQC_HEXES:
            out = _crew_tqc(
                game, vehicle, c, f"keep his order in the {vehicle.name}'s Emergency Stop (C2 31.11.2)"
            )
            if not out.passed:
                _lose_order(game, vehicle, c, "failed TQC in an Emergency Stop at 2 hexes", "C2 31.11.2")
        else:
            _lose_order(
                game, vehicle, c, f"Emergency Stop at {hexes} hexes: no crewman keeps his order", "C2 31.11.2"
            )


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

    emergency_stop(game, vehicle, driver, reason=reason, rule=rule)
    return driver.order is not None and driver.order.order == "emergency_stop"
