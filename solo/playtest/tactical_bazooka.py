"""The ``tactical`` policy's Bazooka team (C2 32.1): load, fire at Enemy vehicles, keep together.

C2 32.1: "A Bazooka must be loaded before it can fire"; it fires "only if loaded at the start of
the Impulse", and an Operator given an order faster than Sneak with a loaded Bazooka loses the
rocket. So, while an Enemy vehicle is a legal target (in LOS and range, the shots the player is
offered, :func:`~solo.rules.vehicles.light_at.light_at_shots`) within AIM_RANGE hexes:

* the **Operator** fires at the vehicle that threatens most (:func:`fire_key`: a tank over a
  Half-Track over a truck or Jeep, ties by id);
* the **Operator** takes Fire Light AT when the Bazooka is loaded or his Assistant stands in his
  hex (the Assistant loads on I2-I3, the Operator fires on the next Impulse), else Load Light AT
  (he loads this turn and fires the next);
* the **Assistant** in the Operator's hex takes Load Light AT;
* a loaded Operator never moves faster than Sneak (:func:`keeps_sneak`), and the Assistant's goal
  is the Operator's hex (:func:`assistant_goal`).

Reads only what the player sees (the Bazooka's record in ``state.flags``, never written) and never
rolls. May import: what :mod:`solo.playtest.tactical` imports, and :mod:`solo.rules.vehicles`.
"""

from __future__ import annotations

from typing import Any

from solo.core.hexes import Hex
from solo.data.vehicle_types import VehicleKind, VehicleType
from solo.data.weapons import Weapon, WeaponFlag, WeaponKind
from solo.engine.game import Game
from solo.rules.state import Character
from solo.rules.vehicles.light_at import light_at_shots
from solo.rules.vehicles.state import Vehicle
from solo.rules.vehicles.targets import LIGHT_AT, target_vehicle

AIM_RANGE = 12
"""Hexes (Bazooka band 9-12: -2, C2 32.1) beyond which the team does not stop to fire."""


def bazooka(game: Game, ch: Character) -> Weapon | None:
    """``ch``'s Bazooka (a Light AT weapon that is not one-shot, C2 32.1), or None."""
    for cw in ch.weapons:
        if cw.weapon in game.data.weapons:
            w: Weapon = game.data.weapons.get(cw.weapon)
            if w.kind is WeaponKind.LIGHT_AT and not w.has_flag(WeaponFlag.ONE_SHOT):
                return w
    return None


def _record(game: Game, op: Character) -> dict[str, Any] | None:
    """The Bazooka's record (``state.flags["light_at"][op.id]``) if the rules made one; read only."""
    rec: dict[str, Any] | None = game.state.flags.get(LIGHT_AT, {}).get(op.id)
    return rec


def loaded(game: Game, op: Character) -> bool:
    """Whether ``op``'s Bazooka is loaded (unloaded until first loaded, C2 32.1)."""
    rec = _record(game, op)
    return bool(rec and rec.get("loaded"))


def assistant(game: Game, op: Character) -> Character | None:
    """The active Assistant of Operator ``op``: the record's, else (before one is made) the first other
    active man of his team in his hex by roster order, as the rules will pick (C2 32.1), else the
    nearest man of his team on foot without a Bazooka (ties by id), who joins him."""
    rec = _record(game, op)
    if rec is not None:
        mate = game.state.characters.get(rec.get("assistant") or "")
        return mate if mate is not None and mate.is_active else None
    if op.hex is None:
        return None
    for c in game.state.at(op.hex):
        if c is not op and c.side is op.side and c.team == op.team and c.is_active:
            return c
    mates = [
        c
        for c in game.state.active(op.side)
        if c is not op
        and c.team == op.team
        and c.hex is not None
        and c.vehicle is None
        and bazooka(game, c) is None
    ]
    if not mates:
        return None
    return min(mates, key=lambda c: (game.distance(op.on_hex, c.on_hex), c.id))


def operator_of(game: Game, ch: Character) -> Character | None:
    """The Friendly Operator whose Assistant ``ch`` is (ties by id), or None."""
    for c in sorted(game.state.active(ch.side), key=lambda c: c.id):
        if c is not ch and c.team == ch.team and bazooka(game, c) is not None:
            mate = assistant(game, c)
            if mate is not None and mate.id == ch.id:
                return c
    return None


def vehicle_targets(game: Game, op: Character) -> list[str]:
    """The Enemy vehicle shots (keys) ``op``'s Bazooka has now within AIM_RANGE (C2 32.1)."""
    w = bazooka(game, op)
    if w is None or op.hex is None:
        return []
    return [s.key for s in light_at_shots(game, op, w, soft=False) if s.range <= AIM_RANGE]


def bazooka_order(game: Game, ch: Character, keys: tuple[str, ...]) -> str | None:
    """Fire or Load Light AT for the Operator or his Assistant (see the module docstring), or None."""
    if bazooka(game, ch) is not None:
        if not vehicle_targets(game, ch):
            return None
        mate = assistant(game, ch)
        team_loads = mate is not None and mate.hex == ch.hex and mate.morale.rank < 4
        want = "fire_light_at" if loaded(game, ch) or team_loads else "load_light_at"
        return want if want in keys else None
    op = operator_of(game, ch)
    if op is None or op.hex != ch.hex or loaded(game, op) or not vehicle_targets(game, op):
        return None
    return "load_light_at" if "load_light_at" in keys else None


def keeps_sneak(game: Game, ch: Character) -> bool:
    """Whether ``ch`` holds a loaded Bazooka (faster than Sneak would lose its rocket, C2 32.1)."""
    return bazooka(game, ch) is not None and loaded(game, ch)


def assistant_goal(game: Game, ch: Character) -> Hex | None:
    """The Operator's hex for his Assistant while they are apart (the team keeps together), else None."""
    op = operator_of(game, ch)
    if op is None or op.hex is None or op.hex == ch.hex:
        return None
    return op.hex


THREAT = {VehicleKind.AFV: 3, VehicleKind.HALF_TRACK: 2, VehicleKind.TRUCK: 1, VehicleKind.JEEP: 0}
"""How much an Enemy vehicle threatens the squad, by class (C2 31.0): a tank's gun and MGs over a
Half-Track's MG over a truck or Jeep that only carries men."""


def threat(game: Game, v: Vehicle) -> int:
    """:data:`THREAT` of ``v``'s class (C2 31.0)."""
    vtype: VehicleType = game.data.vehicles.get(v.type)
    return THREAT[vtype.kind]


def fire_key(game: Game, keys: tuple[str, ...]) -> str | None:
    """The Enemy vehicle among a Light AT fire decision's options (``"vehicle:<id>"`` keys) that
    threatens most (:func:`threat`: a tank over a truck), ties by vehicle id; None with no vehicle."""
    best: tuple[int, str, str] | None = None
    for k in keys:
        v = target_vehicle(game, k)
        if v is None:
            continue
        cand = (-threat(game, v), v.id, k)
        if best is None or cand < best:
            best = cand
    return best[2] if best is not None else None
