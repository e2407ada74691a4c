"""Small arms against vehicles (C2 31.10, 31.10.1-31.10.2): the fire solutions a character has against a
vehicle and their resolution.

May import: solo.rules.vehicles.hits, solo.rules.firing and below, and the rooms below rules."""

from __future__ import annotations

from typing import Any

from solo.core.hexes import Hex
from solo.data.orders import Order, OrderFlag
from solo.data.weapons import Weapon, WeaponFlag
from solo.rules import firing, morale, spotting
from solo.rules.context import GameContext
from solo.rules.los import Sight
from solo.rules.state import AmmoState, CarriedWeapon, Character
from solo.rules.vehicles.crew_morale import crew_morale_check
from solo.rules.vehicles.hits import hit_vehicle, report_text
from solo.rules.vehicles.state import Vehicle, vehicles_of
from solo.rules.vehicles.targets import (
    VEHICLE_TARGET,
    Ordnance,
    _buttoned,
    _occupants,
    _vehicle_at_hex_sides,
    is_vehicle_target,
    seat_may_fire,
    strike_of,
    target_name,
    target_speed,
)


def vehicle_fire_solutions(
    game: GameContext,
    ch: Character,
    order: Order,
    weapons: list[CarriedWeapon],
    firer_mods: list[tuple[str, int]],
) -> list[firing.FireSolution]:
    """Fire solutions of ``ch``'s small arms at vehicles (C2 31.10, 31.10.1-31.10.3).

    One per (weapon, target vehicle) that :func:`is_vehicle_target` allows, in LOS and range,
    in a hex holding no man of the firer's side on foot; ``target`` is ``"vehicle:<id>"``.
    Modifiers: range, the firer's (``firer_mods``), smoke and Abbey on the line, night and
    weather as :func:`solo.rules.firing.fire_solution`, belt-fed MG without assistant, scope, and the
    target's speed (:func:`target_speed`) [house]. Weapons in roster order, vehicles in scenario order.
    """
    if ch.hex is None:
        return []
    out: list[firing.FireSolution] = []
    for vehicle in vehicles_of(game.state).values():
        if not is_vehicle_target(game, vehicle, ch):
            continue
        assert vehicle.hex is not None
        if _vehicle_at_hex_sides(game, vehicle.hex, ch.side):
            continue
        sight = game.sight(ch, vehicle.hex)
        if not sight.clear:
            continue
        for cw in weapons:
            w = game.data.weapons.get(cw.weapon)
            if not seat_may_fire(game, ch, w, vehicle.hex):
                continue
            sol = _small_arms_solution(game, ch, vehicle, cw, order, sight, firer_mods)
            if sol is not None:
                out.append(sol)
    return out


def _small_arms_solution(
    game: GameContext,
    ch: Character,
    vehicle: Vehicle,
    cw: CarriedWeapon,
    order: Order,
    sight: Sight,
    firer_mods: list[tuple[str, int]],
    *,
    assisted: bool | None = None,
) -> firing.FireSolution | None:
    assert ch.hex is not None and vehicle.hex is not None
    w = game.data.weapons.get(cw.weapon)
    rng = game.distance(ch.hex, vehicle.hex)
    band = w.band_modifier(rng)
    rof = w.rof_at(rng)
    if band is None or rof is None:
        return None
    mods: list[tuple[str, int]] = [
        ("range", band),
        *firer_mods,
        ("smoke", sight.smoke),
        ("abbey", sight.abbey),
    ]
    mods.extend(_night_weather(game, ch.hex, vehicle.hex, rng))
    if w.has_flag(WeaponFlag.BELT):
        has_mate = firing._assistant_present(game, ch) if assisted is None else assisted
        if not has_mate:
            mods.append(("no MG assistant", firing.BELT_WITHOUT_ASSISTANT))
    if order.has_flag(OrderFlag.TARGET_KNOWN_AT_IMPULSE_START):
        mods.append(("scope", w.aimed_modifier(rng)))
    mods.append(target_speed(game, vehicle))
    kept = tuple((k, v) for k, v in mods if v or k == "range")
    ws = ch.tq if w.ws_from_tq else cw.ws
    return firing.FireSolution(
        firer=ch.id,
        target=VEHICLE_TARGET + vehicle.id,
        weapon=w.id,
        range=rng,
        ws=ws,
        modifiers=kept,
        rof=rof,
        cell=None,
        chart_row=None,
        group=0,
        total=ws + sum(v for _, v in kept),
    )


def _night_weather(game: GameContext, frm: Hex, to: Hex, rng: int) -> list[tuple[str, int]]:
    """Night (§15) and weather (C2 28.1) fire modifiers beyond 2 hexes, as :mod:`solo.rules.firing`."""
    mods: list[tuple[str, int]] = []
    if rng > firing.CLOSE_RANGE:
        if game.scenario.night and not firing._lit(game, to):
            both_in = firing._is_building(game, frm) and firing._is_building(game, to)
            mods.append(("night", 0 if both_in else firing.NIGHT_FIRE))
        weather = firing.WEATHER_FIRE.get(game.state.weather, 0)
        if weather and not firing.same_building(game, frm, to):
            mods.append((f"weather {game.state.weather}", weather))
    return mods


def _roll_hits(
    game: GameContext,
    firer: Character,
    weapon: Weapon,
    sol: firing.FireSolution,
    order: Order,
    on_hit: Any,
    *,
    assisted: bool | None,
    stop: Any,
) -> tuple[list[dict[str, Any]], AmmoState]:
    """The ROF rolls of one fire action (base-rules §10 as :func:`solo.rules.firing.resolve_fire`)."""
    ws = sol.total
    belt = weapon.has_flag(WeaponFlag.BELT)
    has_mate = (firing._assistant_present(game, firer) if assisted is None else assisted) if belt else False
    nines_needed = 2 if belt and has_mate else 1
    loses_ammo = not firing._never_loses_ammo(weapon)
    before = firer.ammo
    nines = 0
    rolls: list[dict[str, Any]] = []
    target = target_name(game, sol.target)
    for n in range(sol.rof):
        purpose = f"fire {n + 1}/{sol.rof}: {firer.name} -> {target} ({weapon.name}, modified WS {ws}) (13.0)"
        entry, hit, nines = firing.attack_roll(
            game,
            firer,
            ws,
            purpose,
            loses_ammo=loses_ammo,
            nines=nines,
            nines_needed=nines_needed,
            record_tqc=False,
        )
        rolls.append(entry)
        if hit:
            entry["effect"] = on_hit(entry["roll"])
            if entry["roll"] == 0:  # a natural-0 hit: +1 morale (base-rules §10)
                morale.change_morale(
                    game, firer, 1, firing.NATURAL_0_FIRE_CAP, "natural-0 hit", "base-rules §7"
                )
        if stop() or (loses_ammo and firer.ammo is AmmoState.NO):
            break
    return rolls, before


def resolve_fire_at_vehicle(
    game: GameContext,
    firer: Character,
    vehicle: Vehicle,
    sol: firing.FireSolution,
    order: Order,
    *,
    assisted: bool | None = None,
) -> None:
    """One small-arms fire action at a vehicle (C2 31.10.1-31.10.3; base-rules §10 rolls).

    Each ROF hit rolls a hit location on the aspect facing the firer and is resolved by
    :func:`hit_vehicle` (penetration for Half-Tracks and AFV armor, the Jeep/Truck tables, hatch
    and periscope hits...). A Suppressive Fire hit is an MC for each exposed occupant [house].
    Ammo as base-rules §10 (``assisted``: override the 14.3 assistant test). Alerts within 10
    hexes (alert 1). Emits one ``vehicle_fire`` event with the breakdown and every hit's report,
    put in the log before everything the fire caused (:meth:`~solo.rules.context.GameContext.mark`).
    """
    at = game.mark()  # narrated first, then its dice and what they did
    weapon = game.data.weapons.get(sol.weapon)
    strike = strike_of(game, weapon.id, Ordnance.SMALL_ARMS)
    spotting.reveal(game, firer, reason="fired", rule="base-rules §9.8")
    spotting.alert_around(game, firer.hex, 10, f"{firer.name} fired", "base-rules §5.6 alert 1")
    reports: list[dict[str, Any]] = []

    def on_hit(_roll: int) -> dict[str, Any]:
        if order.has_flag(OrderFlag.HITS_MORALE_ONLY):
            rep: dict[str, Any] = {"suppressive": True, "mcs": []}
            for c in _occupants(game, vehicle):
                if _buttoned(game, vehicle, c):
                    continue
                rep["mcs"].append(
                    crew_morale_check(
                        game, vehicle, c, f"Suppressive Fire at {vehicle.name}", "base-rules §10"
                    )
                )
        else:
            assert firer.hex is not None
            rep = hit_vehicle(game, vehicle, strike, from_hex=firer.hex, firer=firer)
        reports.append(rep)
        return rep

    rolls, ammo_before = _roll_hits(
        game, firer, weapon, sol, order, on_hit, assisted=assisted, stop=lambda: not vehicle.is_active
    )
    firer.acted.setdefault("fired", []).append(game.state.flow.impulse)
    shown = ", ".join(f"{r['roll']} {r['result']}" for r in rolls)
    text = (
        f"{firer.name} ({order.name}) fires the {weapon.name} at {vehicle.name} in {vehicle.hex} "
        f"({sol.range} hexes): {sol.breakdown()}; ROF {sol.rof}: {shown}."
    )
    for rep in reports:
        text += " " + report_text(rep)
    if firer.ammo is not ammo_before:
        text += f" Ammo {ammo_before.value} → {firer.ammo.value}."
    game.emit(
        "vehicle_fire",
        text,
        rule="C2 31.10, 31.10.1-31.10.3; base-rules §10",
        actor=firer.id,
        at=at,
        data={
            "firer": firer.id,
            "vehicle": vehicle.id,
            "weapon": weapon.id,
            "order": order.id,
            "range": sol.range,
            "ws": sol.ws,
            "modifiers": [[k, v] for k, v in sol.modifiers],
            "modified_ws": sol.total,
            "rof": sol.rof,
            "rolls": rolls,
            "hits": reports,
            "ammo_before": ammo_before.value,
            "ammo_after": firer.ammo.value,
        },
    )
