"""Vehicle machine guns (C2 31.9.4 b, c; pintle MGs): coaxial, bow and pintle MG fire at characters.

May import: solo.rules.firing and below, and the rooms below rules."""

from __future__ import annotations

from collections.abc import Generator

import attrs

from solo.core.decisions import Decision
from solo.data.orders import Order, TrackStep
from solo.data.vehicle_types import MountId, VehicleWeapon
from solo.data.weapons import Weapon, WeaponFlag
from solo.rules import firing
from solo.rules.context import GameContext
from solo.rules.state import AmmoState, CarriedWeapon, Character, Side
from solo.rules.vehicles.main_gun import _observed
from solo.rules.vehicles.small_arms import _small_arms_solution, resolve_fire_at_vehicle
from solo.rules.vehicles.state import Vehicle, vehicles_of
from solo.rules.vehicles.targets import (
    GUNNER_SIGHT,
    MOUNT_KEY,
    _active_occupant,
    _gun_terms,
    _hatch_open,
    _in_wedges,
    _is_afv,
    _order_of,
    _vtype,
    is_individual_target,
    is_vehicle_target,
    speed_fire_modifier,
    target_name,
    target_vehicle,
)


def _mount_for(
    game: GameContext, vehicle: Vehicle, ch: Character, wanted: str | None
) -> VehicleWeapon | None:
    vt = _vtype(game, vehicle)
    for w in vt.weapons:
        if w.id is MountId.MAIN_GUN or ch.seat not in w.fired_by:
            continue
        if wanted is None or w.id.value == wanted:
            return w
    return None


def fire_vehicle_mg(
    game: GameContext, vehicle: Vehicle, ch: Character, order: Order | str, mount: str | None = None
) -> Generator[Decision, str, None]:
    """A crewman fires a vehicle MG under a fire order (C2 31.9.4 b, c; pintle MGs 31.9.1, 31.9.3).

    The mount is ``mount`` (``"bow_mg"``...), else ``ch.acted["vehicle_weapon"]`` (the VOM cell's
    weapon), else the order's ``target`` if it names a mount, else the first MG the seat fires.
    Only on the order's F steps; not when moving Fast, nor a coaxial MG when the turret turned
    this Impulse (31.6), nor a destroyed MG. WS = the firer's TQ (31.9.4 b/c) + speed + Direct
    Firing - 2 out of position (- 4 for the coaxial with a destroyed Gunner's sight) + the usual modifiers of
    :func:`solo.rules.firing.fire_solution`. Bow and pintle MGs have no assistant (-3, a single 9 for
    Low Ammo); the coaxial is assisted by the Loader [house]. Targets: AFV crews fire only at
    Observed Targets (31.7.3) of their own Target Marker; others at any Known/Spotted opponent in
    LOS; all inside the mount's arc (turret mounts turn with the turret). Vehicles that
    :func:`is_vehicle_target` allows may be targets. Friendly: ``FIRE_TARGET`` decision.
    """
    o = _order_of(game, order)
    imp = game.state.flow.impulse
    if o is None or o.ws_modifier is None or not ch.is_active or vehicle.hex is None:
        return
    if o.track(imp) is not TrackStep.FIRE:
        return
    if mount is None:
        mount = ch.acted.get(MOUNT_KEY)
    if mount is None and ch.order is not None and ch.order.target in MountId._value2member_map_:
        mount = ch.order.target
    vw = _mount_for(game, vehicle, ch, mount)

    def no(why: str) -> None:
        game.emit(
            "no_fire",
            f"{ch.name} ({vehicle.name}) does not fire the MG: {why}.",
            rule="C2 31.9.4",
            actor=ch.id,
            data={"vehicle": vehicle.id, "reason": why},
        )

    if vw is None:
        return no("his position has no MG")
    if f"{vw.id.value}_destroyed" in vehicle.damage:
        return no(f"the {vw.id.value.replace('_', ' ')} is destroyed")
    if speed_fire_modifier(game, vehicle) is None:
        return no("the vehicle moves Fast (31.11.2)")
    if vw.mount.value == "turret" and vehicle.acted.get("turret_turned") == imp:
        return no("the turret turned this Impulse (31.6)")
    vt = _vtype(game, vehicle)
    if vw.id is MountId.PINTLE_MG and _is_afv(vt) and not _hatch_open(vehicle, ch.seat or ""):
        return no("a pintle MG needs an open hatch")
    if ch.ammo is AmmoState.NO:
        return no("no ammunition")
    assisted = vw.id is MountId.COAXIAL_MG and _active_occupant(game, vehicle, "loader") is not None
    extra: list[tuple[str, int]] = _gun_terms(game, vehicle, ch, ldr=False)
    if vw.id is MountId.COAXIAL_MG and "gunner_sight" in vehicle.damage:
        extra.append(("Gunner's sight", GUNNER_SIGHT))
    carried = CarriedWeapon(vw.weapon, ch.tq)
    weapon = game.data.weapons.get(vw.weapon)
    frame = vehicle.turret if (vw.mount.value == "turret" and vehicle.turret is not None) else vehicle.facing
    if _is_afv(vt):
        chars, vehs = _observed(game, vehicle, ch.seat or "")
    else:
        chars = [c for c in game.opponents(ch) if c.revealed and not c.dummy]
        vehs = [v for v in vehicles_of(game.state).values() if v.side is not vehicle.side and v.is_active]
    sols: list[firing.FireSolution] = []
    firer_mods = [
        (f"order {o.name}", o.ws_modifier),
        ("wounds", ch.wound_penalty),
        ("cards", firing._card_ws(game, ch)),
    ]
    for t in chars:
        if t.hex is None or not t.is_active or t.hex == vehicle.hex:
            continue
        if t.vehicle is not None and not is_individual_target(game, t, ch, o):
            continue
        if not _in_wedges(game, vehicle.hex, frame, t.hex, vw.arcs, strict=True):
            continue
        if firing.is_melee_hex(game, t.hex):
            continue
        sight = game.sight(ch, t.hex, target=t)
        sol = firing._solution(game, ch, t, carried, o, sight, [*firer_mods, *extra])
        if sol is None:
            continue
        sols.append(_fix_belt(sol, weapon, assisted))
    for v in vehs:
        if v.hex is None or v.hex == vehicle.hex or not is_vehicle_target(game, v, ch):
            continue
        if not _in_wedges(game, vehicle.hex, frame, v.hex, vw.arcs, strict=True):
            continue
        sight = game.sight(ch, v.hex)
        if not sight.clear:
            continue
        sol = _small_arms_solution(game, ch, v, carried, o, sight, [*firer_mods, *extra], assisted=assisted)
        if sol is not None:
            sols.append(sol)
    if not sols:
        return no("no target in the MG's arc" + (" among his Observed Targets" if _is_afv(vt) else ""))
    if ch.side is Side.FRIENDLY:
        from solo.core.decisions import DecisionKind

        key = yield game.decision(
            DecisionKind.FIRE_TARGET,
            f"{ch.name} ({vehicle.name} {vw.id.value.replace('_', ' ')}, {o.name}): fire at",
            [
                *(
                    (s.target, f"{target_name(game, s.target)} ({s.range} hexes, modified WS {s.total})")
                    for s in sols
                ),
                ("hold", "Hold fire"),
            ],
            actor=ch.id,
        )
        if key == "hold":
            return no("the player holds fire")
        sol = next(s for s in sols if s.target == key)
    else:
        best = max(s.total for s in sols)
        pool = [s for s in sols if s.total == best]
        near = min(s.range for s in pool)
        pool = [s for s in pool if s.range == near]
        sol = pool[0]
        if len(pool) > 1:
            pick = game.dice.choice(
                [target_name(game, s.target) for s in pool], f"{ch.name}: MG target (C2 23.2)"
            )
            sol = pool[pick.index]
    hit = target_vehicle(game, sol.target)
    if hit is not None:
        resolve_fire_at_vehicle(game, ch, hit, sol, o, assisted=assisted)
    else:
        firing.resolve_fire(game, ch, game.char(sol.target), sol, o, assisted=assisted)


def _fix_belt(sol: firing.FireSolution, weapon: Weapon, assisted: bool) -> firing.FireSolution:
    """Replace combat's assistant test (other crew share the hex) with the mount's (31.9.4 b)."""
    mods = [(k, v) for k, v in sol.modifiers if k != "no MG assistant"]
    if weapon.has_flag(WeaponFlag.BELT) and not assisted:
        mods.append(("no MG assistant", firing.BELT_WITHOUT_ASSISTANT))
    return attrs.evolve(sol, modifiers=tuple(mods), total=sol.ws + sum(v for _, v in mods))
