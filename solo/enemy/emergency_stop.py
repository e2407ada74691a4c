"""The Enemy Driver's Emergency Stop when his Commander marks a threat this Impulse (C2 31.2 (1)).

:func:`enemy_emergency_stop` reads the Commander's placement (``PLACED_KEY``,
:mod:`solo.enemy.target_markers`), rolls the Driver's TQC once an Impulse per vehicle
(``vehicle.acted[ESTOP_KEY]``, which the End Phase clears) and stops him through
:func:`solo.rules.vehicles.emergency_stop.driver_emergency_stop` (either side).

May import: :mod:`~solo.enemy.target_markers`, :mod:`~solo.enemy.vom`, :mod:`~solo.rules.vehicles.crew_sight`,
:mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.enemy.target_markers import PLACED_KEY, _now
from solo.enemy.vom import SPEED_ORDERS, _order_name
from solo.rules.state import Character, Side
from solo.rules.vehicles.crew_sight import _tqc, commander_ldr
from solo.rules.vehicles.emergency_stop import driver_emergency_stop
from solo.rules.vehicles.state import vehicle_of

if TYPE_CHECKING:
    from solo.rules.context import GameContext


# ---------------------------------------------------------------------------
# Constants

ESTOP_KEY = "emergency_stop_check"
"""``vehicle.acted`` key: the (turn, Impulse) of the Driver's 31.2 (1) TQC (once an Impulse)."""


# ---------------------------------------------------------------------------
# Emergency Stop (31.2 (1))


def enemy_emergency_stop(game: GameContext, driver: Character) -> bool:
    """C2 31.2 (1): the Enemy Driver's Emergency Stop when his Commander marked a threat this Impulse.

    Call at the Driver's activation (Step 4 a) iii)). If the Driver of an Enemy vehicle holds
    a speed order and his Commander placed or moved his Target Marker THIS Impulse on a
    Friendly AFV or a Friendly character with a Light AT weapon, the Driver takes a TQC:
    d10 (0-9) <= his TQ + the Commander's LDR (:func:`~solo.rules.vehicles.crew_sight.commander_ldr`;
    example of play: "5 + 2"; the house option ``emergency_stop_ldr`` false leaves the plain TQ);
    a natural 9 fails. Pass: his order becomes Emergency Stop through
    :func:`~solo.rules.vehicles.emergency_stop.driver_emergency_stop`
    (:func:`solo.rules.vehicles.emergency_stop.emergency_stop` applies the
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
    ldr = commander_ldr(game, vehicle) if game.options.emergency_stop_ldr else 0
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


__all__ = [
    "ESTOP_KEY",
    "enemy_emergency_stop",
]
