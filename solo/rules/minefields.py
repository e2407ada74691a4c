"""Minefields (C2 31.5): the map's and the scenario's minefield hexes, what a mine does to who enters one.

The rule text gives two tables, both rolled by the player on a d10 when a vehicle enters a
minefield hex:

* Half-Track, Truck or Jeep: 0-6 no effect; 7-9 Immobilized, a d6 for the damage (1-3 Left Wheel,
  4-6 Right Wheel), the Driver's order replaced with Emergency Stop. The Wheel result has the
  31.10.8 Wheel effect (an Enemy Driver and passengers Bail Out next turn) unless the option
  ``mine_wheel_effect`` is false.
* AFV: 9 Immobilized, the Driver's order replaced with Emergency Stop (0-8 no effect).

For a man on foot the rule text is silent; the house option ``minefield_men`` says what happens
(``morale_check``: an MC, failed = Duck Back, as the §18 "minefield MC" event entry; ``none``:
nothing). A minefield stays where it is after a mine goes off (the text removes no marker).

May import: the rooms below rules and the shared effects (solo.rules.effects)."""

from __future__ import annotations

from typing import Any

from solo.core.hexes import Hex
from solo.data.vehicle_types import VehicleKind
from solo.rules.context import GameContext
from solo.rules.effects import _morale_check
from solo.rules.state import Character, Side

WHEELED_IMMOBILIZED_FROM = 7
"""C2 31.5: a Half-Track, Truck or Jeep is Immobilized on a d10 of 7-9."""
AFV_IMMOBILIZED_ON = 9
"""C2 31.5: an AFV is Immobilized on a d10 of 9."""
WHEEL_BAIL_OUT = ("force_bail_out:driver", "force_bail_out:passengers")
"""C2 31.10.8 Wheel: the next-turn Bail Out orders of an Enemy Driver and passengers (the same
``vehicle.damage`` flags a Wheel hit sets, read by the VOM)."""
IMMOBILIZED_TAG = "immobilized"
"""The ``vehicle.damage`` entry for an Immobilized vehicle (as for hits and Barbed Wire)."""


def minefield_hexes(game: GameContext) -> tuple[Hex, ...]:
    """The minefield hexes (C2 31.5): the map's (its ``minefields:``), then the scenario's, each once,
    in the order written; () for none."""
    text = getattr(game.scenario, "minefields", "") or ""
    on_map = game.board.map.minefields
    if not text:
        return on_map
    return tuple(dict.fromkeys((*on_map, *(Hex.parse(t) for t in text.split()))))


def is_minefield(game: GameContext, h: Hex | None) -> bool:
    """Whether ``h`` holds a minefield (C2 31.5)."""
    return h is not None and h in minefield_hexes(game)


def vehicle_enters(game: GameContext, vehicle: Any, kind: VehicleKind, h: Hex) -> str | None:
    """A vehicle has entered ``h``: if it is a minefield, the C2 31.5 d10 (and the d6 for the wheel of
    a Half-Track, Truck or Jeep), logged as ``minefield``. Returns the reason for an Emergency
    Stop when the vehicle is Immobilized (its ``damage`` gains ``immobilized``), else None."""
    if not is_minefield(game, h):
        return None
    d10 = game.dice.d10(f"{vehicle.name} enters the minefield in {h} (C2 31.5)").total
    data: dict[str, Any] = {"vehicle": vehicle.id, "hex": str(h), "roll": d10}
    if kind is VehicleKind.AFV:
        hit = d10 == AFV_IMMOBILIZED_ON
        text = "Immobilized" if hit else "no effect"
    else:
        hit = d10 >= WHEELED_IMMOBILIZED_FROM
        text = "Immobilized" if hit else "no effect"
        if hit:
            d6 = game.dice.d6(f"{vehicle.name}: which wheel the mine wrecks (C2 31.5)").total
            wheel = "left" if d6 <= 3 else "right"
            text += f", {wheel.capitalize()} Wheel (d6 {d6})"
            data["wheel"] = wheel
            data["wheel_roll"] = d6
            if game.options.mine_wheel_effect and vehicle.side is Side.ENEMY:
                # 31.10.8 Wheel: "Next turn Enemy Drivers and all Enemy Passengers will
                # automatically receive Bail out Orders" (option mine_wheel_effect).
                for flag in WHEEL_BAIL_OUT:
                    if flag not in vehicle.damage:
                        vehicle.damage.append(flag)
                text += "; next turn the Driver and the passengers bail out (C2 31.10.8 Wheel)"
                data["bail_out"] = True
    data["immobilized"] = hit
    if hit and IMMOBILIZED_TAG not in vehicle.damage:
        vehicle.damage.append(IMMOBILIZED_TAG)
    game.emit(
        "minefield",
        f"{vehicle.name} enters the minefield in {h}: d10 {d10}, {text}.",
        rule="C2 31.5",
        data=data,
    )
    return f"a mine in {h} (C2 31.5)" if hit else None


def man_enters(game: GameContext, ch: Character, h: Hex) -> bool:
    """A man on foot has entered ``h``: if it is a minefield and the option ``minefield_men`` is
    ``morale_check`` [house; C2 31.5 is silent], he takes an MC as the §18 "minefield MC" entry
    (failed: Duck Back). A dummy takes nothing. Returns True when a mine went off near him."""
    if not is_minefield(game, h) or game.options.minefield_men == "none":
        return False
    game.emit(
        "minefield",
        f"A mine goes off near {ch.name} in {h} [house, option minefield_men].",
        rule="C2 31.5; 18",
        actor=ch.id,
        data={"hex": str(h), "man": True},
    )
    if not ch.dummy:
        _morale_check(game, ch, cause=f"a mine in {h}", rule="C2 31.5 [house]; 7")
    return True
