"""Hits on vehicles (C2 31.10.3-31.10.11): hit location, penetration, the damage tables and their effects on
the vehicle and the men inside; a hit on an exposed occupant.

May import: solo.rules.vehicles.crew_morale and below, solo.rules.wounds, solo.rules.morale, and the rooms
below rules."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from solo.core.hexes import Arc, Hex, arc_of
from solo.data.friendly_deck import WoundStamp
from solo.data.tables import CheckKind, MoraleState
from solo.data.vehicle_types import (
    CrewCheck,
    DamageEffect,
    HitLocation,
    Location,
    Role,
    VehicleKind,
    hit_location,
)
from solo.data.vehicle_types import armor as armor_value
from solo.data.vehicle_types import damage as damage_row
from solo.rules import morale, wounds
from solo.rules.context import GameContext
from solo.rules.state import Character, Side, Status
from solo.rules.vehicles.crew_morale import (
    _clear_marker,
    _driver_stop,
    crew_morale_check,
    crew_reaction,
    fire_morale_check,
)
from solo.rules.vehicles.state import CREW_ORDER, Hatch, Vehicle, vehicle_of
from solo.rules.vehicles.targets import (
    COMMANDER_OWN_LDR,
    FIRE_STARTED,
    GUNNER_SIGHT,
    MAX_REROLLS,
    Ordnance,
    Strike,
    _active_occupant,
    _crew,
    _hatch_open,
    _hidden,
    _is_afv,
    _occupant,
    _occupants,
    _passengers,
    _vtype,
    strike_of,
)


def occupant_hit(
    game: GameContext, firer: Character, target: Character, *, morale_only: bool, why: str
) -> None:
    """A fire hit on an exposed occupant (C2 31.8, 31.10.31; base-rules §10).

    MC only (Suppressive, (M) cell) or a wound draw; a wounded or failing crewman with a closed
    hatch Panics, an exposed one Ducks Back, a Driver stops (31.2, 31.10.9); a crewman killed
    makes every other crewman take an MC (31.10.9), a passenger killed his neighbours (31.10.11).
    """
    vehicle = vehicle_of(game.state, target)
    if vehicle is None:
        return
    reason = f"hit by {firer.name}"
    if morale_only:
        crew_morale_check(game, vehicle, target, f"{reason}, {why}: MC only", "base-rules §10; C2 31.10.9")
        return
    ctx = _Hit(game, vehicle, strike_of(game, _first_weapon(game, firer), Ordnance.SMALL_ARMS), {}, firer)
    ctx.penetrated = True
    _wound_occupant(ctx, target, 1, reason)
    _run_checks(ctx)


def _first_weapon(game: GameContext, ch: Character) -> str:
    for cw in ch.weapons:
        if cw.weapon in game.data.weapons:
            return cw.weapon
    return "m1_garand"


class _Hit:
    """The working record of one hit: who is killed, wounded and must check, and the report."""

    def __init__(
        self,
        game: GameContext,
        vehicle: Vehicle,
        strike: Strike,
        report: dict[str, Any],
        firer: Character | None,
    ) -> None:
        self.game = game
        self.vehicle = vehicle
        self.vt = _vtype(game, vehicle)
        self.strike = strike
        self.report = report
        self.firer = firer
        self.penetrated = False
        self.killed: list[str] = []
        self.wmc: set[str] = set()
        self.checks: list[tuple[str, str, str]] = []
        """(character id, "mc" | "fmc", reason) in order."""
        cmd = _active_occupant(game, vehicle, "commander")
        self.ldr_ok = cmd is not None and cmd.morale.rank <= MoraleState.NORMAL.rank
        """The Commander's morale allowed his LDR when the hit landed (C2 example of play: the
        Gunner "still receives +2" after the Commander failed his MC in the same hit)."""
        report.setdefault("notes", [])
        report.setdefault("kia", [])
        report.setdefault("wounded", [])
        report.setdefault("mcs", [])

    def note(self, text: str) -> None:
        self.report["notes"].append(text)

    @property
    def what(self) -> str:
        return f"{self.strike.name} ({self.strike.ordnance.value})"


def _grid(position: str) -> tuple[int, int] | None:
    """Row and side of a Jeep/Truck/Half-Track position (31.10.8 Passenger X, 31.10.11) [house row 0]."""
    if position == "driver":
        return (0, 0)
    if position == "co_driver":
        return (0, 1)
    if position.startswith("passenger_"):
        n = int(position.split("_")[1])
        return ((n + 1) // 2, 0 if n % 2 else 1)
    return None


def _opposite(vehicle: Vehicle, position: str) -> str | None:
    g = _grid(position)
    if g is None:
        return None
    for p in vehicle.seats:
        h = _grid(p)
        if h is not None and h[0] == g[0] and h[1] != g[1]:
            return p
    return None


def _adjacent(vehicle: Vehicle, position: str) -> list[str]:
    """Positions orthogonally or diagonally adjacent (C2 31.10.11: 5 → 3, 4, 6, 7, 8)."""
    g = _grid(position)
    if g is None:
        return []
    out = []
    for p in vehicle.seats:
        h = _grid(p)
        if h is not None and p != position and abs(h[0] - g[0]) <= 1 and abs(h[1] - g[1]) <= 1:
            out.append(p)
    return out


def _kill(ctx: _Hit, ch: Character, why: str) -> None:
    if not ch.on_map or ch.status is Status.DEAD:
        return
    wounds.kill(ctx.game, ch, reason=f"{why} ({ctx.vehicle.name})", rule="C2 31.10.8")
    _unseat_dead(ctx.game, ctx.vehicle, ch)
    ctx.killed.append(ch.id)
    ctx.report["kia"].append(ch.id)


def _unseat_dead(game: GameContext, vehicle: Vehicle, ch: Character) -> None:
    """A dead man's seat: a KIA marker, no occupant, no Target Marker; a dead Driver stops the vehicle."""
    seat = vehicle.seats.get(ch.seat or "")
    if seat is None or seat.occupant != ch.id:
        return
    seat.occupant = None
    seat.kia = True
    seat.marker = None
    seat.marker_priority = None
    if ch.seat == "driver":
        vehicle.acted["speed"] = "emergency_stop"
        game.emit(
            "emergency_stop",
            f"{vehicle.name}: the Driver is killed; the vehicle makes an Emergency Stop.",
            rule="C2 31.11.2 Emergency Stop",
            data={"vehicle": vehicle.id},
        )


def _after_wound(game: GameContext, vehicle: Vehicle, ch: Character, reason: str) -> None:
    """Seat bookkeeping and the crew's reaction after :func:`solo.rules.wounds.apply_wound` (31.10.9)."""
    if ch.status is Status.DEAD:
        _unseat_dead(game, vehicle, ch)
        return
    if not ch.is_active:
        return
    if ch.order is not None and ch.order.order == "duck_back":
        seat = ch.seat or ""
        vt = _vtype(game, vehicle)
        if seat == "driver" or seat not in CREW_ORDER or (_is_afv(vt) and not _hatch_open(vehicle, seat)):
            crew_reaction(game, vehicle, ch, reason, "C2 31.10.9")


def _wound_occupant(ctx: _Hit, ch: Character, draws: int, why: str) -> None:
    game = ctx.game
    for _ in range(draws):
        if not ch.is_active:
            break
        stamp = wounds.wound_draw(game, ch, firer=ctx.firer)
        wounds.apply_wound(game, ch, stamp, reason=f"{why} ({ctx.vehicle.name})")
        ctx.report["wounded"].append({"character": ch.id, "stamp": stamp.value})
        if stamp in (WoundStamp.LIGHT, WoundStamp.BAD):
            ctx.wmc.add(ch.id)
        _after_wound(game, ctx.vehicle, ch, why)
        if ch.status is Status.DEAD:
            ctx.killed.append(ch.id)
            ctx.report["kia"].append(ch.id)


def _queue(ctx: _Hit, checks: Iterable[CrewCheck], kind: str, reason: str) -> None:
    for c in checks:
        if c is CrewCheck.ALL:
            people = _crew(ctx.game, ctx.vehicle)
        elif c is CrewCheck.PASSENGERS:
            people = _passengers(ctx.game, ctx.vehicle)
        else:
            one = _active_occupant(ctx.game, ctx.vehicle, c.value)
            people = [one] if one is not None else []
        for ch in people:
            ctx.checks.append((ch.id, kind, reason))


def _run_checks(ctx: _Hit) -> None:
    """The MCs and FMCs of the hit, each man once per kind; deaths add MCs (31.10.9, 31.10.11)."""
    game, vehicle = ctx.game, ctx.vehicle
    crew_ids = {c.id for c in _crew(game, vehicle)}
    dead_crew = [cid for cid in ctx.killed if game.char(cid).seat in CREW_ORDER]
    if dead_crew:
        names = ", ".join(game.char(c).name for c in dead_crew)
        for c in _crew(game, vehicle):
            ctx.checks.append((c.id, "mc_death", f"{names} killed (31.10.9)"))
    if not _is_afv(ctx.vt):
        for cid in ctx.killed:
            dead = game.char(cid)
            for p in _adjacent(vehicle, dead.seat or ""):
                n = _active_occupant(game, vehicle, p)
                if n is not None and n.id not in crew_ids:
                    ctx.checks.append((n.id, "mc_death", f"{dead.name} killed beside him (31.10.11)"))
    done: set[tuple[str, str]] = set()
    for cid, kind, reason in ctx.checks:
        ch = game.char(cid)
        if not ch.is_active or ch.vehicle != vehicle.id:
            continue
        base = "fmc" if kind == "fmc" else "mc"
        if (cid, base) in done:
            continue
        done.add((cid, base))
        if base == "fmc":
            ctx.report["mcs"].append(fire_morale_check(game, vehicle, ch, reason))
            continue
        if cid in ctx.wmc:
            ctx.report["mcs"].append(
                {"character": cid, "name": ch.name, "check": "mc", "ignored": "took a WMC in this attack"}
            )
            continue
        penetrated = ctx.penetrated or kind == "mc_death"
        ctx.report["mcs"].append(
            crew_morale_check(
                game,
                vehicle,
                ch,
                f"{ctx.what} hit {vehicle.name}: {reason}",
                "C2 31.10.6",
                penetrated=penetrated,
                ldr=_ldr_for(ctx, ch),
            )
        )


def _ldr_for(ctx: _Hit, ch: Character) -> int:
    """The Commander's LDR for ``ch``'s MC in this hit (31.10.9, morale read when the hit landed)."""
    cmd = _active_occupant(ctx.game, ctx.vehicle, "commander")
    if not ctx.ldr_ok or cmd is None or ctx.vehicle.on_fire or (ch is cmd and not COMMANDER_OWN_LDR):
        return 0
    return cmd.ldr


def _destroyed_location(vehicle: Vehicle, row: HitLocation) -> bool:
    """A hatch or periscope already destroyed: re-roll the hit location (31.10.8)."""
    if row.crew is None:
        return False
    if row.location is Location.HATCH:
        seat = vehicle.seats.get(row.crew.value)
        return seat is not None and seat.hatch.is_jammed
    if row.location is Location.PERISCOPE:
        return f"periscope:{row.crew.value}" in vehicle.damage
    return False


def hit_vehicle(
    game: GameContext,
    vehicle: Vehicle,
    strike: Strike,
    *,
    from_hex: Hex | None,
    firer: Character | None = None,
    aspect: Arc | None = None,
) -> dict[str, Any]:
    """Resolve one hit on ``vehicle`` (C2 31.10.1-31.10.11); returns the report (no summary event).

    1. %D on the hit location table of the aspect facing ``from_hex`` (``arc_of`` of the hull;
       ``aspect`` overrides; the vehicle's own hex: Side [house]); a destroyed hatch or
       periscope is re-rolled (31.10.8).
    2. A row naming armor: the penetration roll (31.10.4) must EXCEED the zone's armor, its
       Glancing Blow value when the row says so (31.10.5); else no effect.
    3. A damage column: d10 → crew KIA, effects (catastrophic, engine/turret fire, immobilized,
       turret jammed, main gun destroyed), special location, re-roll on another column; else
       the 31.10.8 special location by weapon type and calibre.
    4. Morale: the row's MCs/FMCs, every crewman when a crewman dies (31.10.9), neighbours of
       a dead passenger (31.10.11); closed hatches ignore MCs from non-penetrating fire (31.10.6).

    Report keys: vehicle, weapon, ordnance, aspect, percent, location, row, armor_zone, armor,
    glancing, penetration {dice, faces, total}, penetrated, damage [{column, d10, ...}], effects,
    kia, wounded, mcs, notes.
    """
    vt = _vtype(game, vehicle)
    stagger = game.board.map.stagger
    if aspect is None:
        if from_hex is None or vehicle.hex is None or from_hex == vehicle.hex:
            aspect = Arc.SIDE
        else:
            aspect = arc_of(vehicle.hex, vehicle.facing, from_hex, stagger)
    report: dict[str, Any] = {
        "vehicle": vehicle.id,
        "weapon": strike.weapon,
        "ordnance": strike.ordnance.value,
        "aspect": aspect.value,
        "effects": [],
        "damage": [],
    }
    ctx = _Hit(game, vehicle, strike, report, firer)
    for _ in range(MAX_REROLLS):
        pct = game.dice.percent(
            f"hit location: {strike.name} -> {vehicle.name}, {aspect.value} (C2 31.10.3)"
        ).total
        row = hit_location(vt, aspect, pct)
        if not _destroyed_location(vehicle, row):
            break
        ctx.note(f"%D {pct:02d}: {row} already destroyed, re-rolled (31.10.8)")
    report["percent"] = pct
    report["location"] = str(row)
    report["row"] = {
        "rolls": row.rolls.format(2),
        "location": row.location.value,
        "crew": row.crew.value if row.crew else None,
        "passengers": list(row.passengers),
        "armor": row.armor.value if row.armor else None,
        "glancing": row.glancing,
        "damage": row.damage,
        "mc": [c.value for c in row.mc],
        "fmc": [c.value for c in row.fmc],
        "note": row.note,
    }
    if row.armor is not None and vt.kind.is_armored:
        if not _penetrate(ctx, row):
            _run_checks(ctx)
            return report
    else:
        ctx.penetrated = not vt.kind.is_armored
    _queue(ctx, row.mc, "mc", str(row))
    _queue(ctx, row.fmc, "fmc", str(row))
    if row.damage is not None:
        _damage(ctx, row.damage, 0)
    else:
        _special(ctx, row.location, row.crew, row.passengers)
    _run_checks(ctx)
    return report


def _penetrate(ctx: _Hit, row: HitLocation) -> bool:
    """31.10.4-31.10.5: the Penetration Number must exceed the armor (glancing value if so)."""
    assert row.armor is not None
    game, strike = ctx.game, ctx.strike
    value = armor_value(ctx.vt, row.armor, row.glancing)
    ctx.report["armor_zone"] = row.armor.value
    ctx.report["glancing"] = row.glancing
    ctx.report["armor"] = value
    if strike.penetration is None:
        ctx.report["penetrated"] = False
        ctx.note(f"the {strike.name} cannot penetrate armor: no effect (31.10.4)")
        return False
    roll = game.dice.roll(
        strike.penetration,
        f"penetration: {strike.name} vs {ctx.vehicle.name} {row.armor.value.replace('_', ' ')} "
        f"{'glancing ' if row.glancing else ''}armor {value} (C2 31.10.4)",
    )
    ok = roll.total > value
    ctx.penetrated = ok
    ctx.report["penetration"] = {"dice": strike.penetration, "faces": list(roll.faces), "total": roll.total}
    ctx.report["penetrated"] = ok
    if not ok:
        ctx.note("no effect (31.10.4)")
    return ok


def _damage(ctx: _Hit, column: str, depth: int) -> None:
    """A d10 on a damage column (31.10.8): KIA, effects, special location, re-roll."""
    game, vehicle = ctx.game, ctx.vehicle
    d10 = game.dice.d10(f"damage: {vehicle.name}, {column.replace('_', ' ')} column (C2 31.10.8)").total
    row = damage_row(ctx.vt, column, d10)
    ctx.report["damage"].append(
        {
            "column": column,
            "d10": d10,
            "rows": row.rolls.format(),
            "kia": [r.value for r in row.kia],
            "mc": [c.value for c in row.mc],
            "fmc": [c.value for c in row.fmc],
            "effects": [e.value for e in row.effects],
            "location": row.location.value if row.location else None,
            "reroll": row.reroll,
            "note": row.note,
        }
    )
    for role in row.kia:
        ch = _occupant(game, vehicle, role.value)
        if ch is not None:
            _kill(ctx, ch, f"{column.replace('_', ' ')} hit, d10 {d10}")
    _queue(ctx, row.mc, "mc", f"{column.replace('_', ' ')} d10 {d10}")
    _queue(ctx, row.fmc, "fmc", f"{column.replace('_', ' ')} d10 {d10}")
    for effect in row.effects:
        _effect(ctx, effect)
    if row.location is not None:
        _special(ctx, row.location, None, ())
    if row.reroll is not None and depth < 3:
        ctx.note(f"re-roll on the {row.reroll.replace('_', ' ')} column")
        _damage(ctx, row.reroll, depth + 1)


def _effect(ctx: _Hit, effect: DamageEffect) -> None:
    game, vehicle = ctx.game, ctx.vehicle
    ctx.report["effects"].append(effect.value)
    if effect is DamageEffect.DESTROYED:
        _destroy(ctx, "catastrophic hit")
    elif effect in (DamageEffect.ENGINE_FIRE, DamageEffect.TURRET_FIRE):
        _catch_fire(ctx, effect.value)
    elif effect is DamageEffect.IMMOBILIZED:
        _immobilize(ctx, "damage table")
    elif effect is DamageEffect.TURRET_JAMMED:
        _mark(vehicle, "turret_jammed")
        ctx.note("turret jammed: it may not turn for the rest of the game")
    elif effect is DamageEffect.MAIN_GUN_DESTROYED:
        _mark(vehicle, "main_gun_destroyed")
        vehicle.loaded = None
        ctx.note("main gun destroyed")
    game.emit(
        "vehicle_damage",
        f"{vehicle.name}: {effect.value.replace('_', ' ')}.",
        rule="C2 31.10.8",
        data={"vehicle": vehicle.id, "effect": effect.value},
    )


def _mark(vehicle: Vehicle, marker: str) -> None:
    if marker not in vehicle.damage:
        vehicle.damage.append(marker)


def _destroy(ctx: _Hit, why: str) -> None:
    """The vehicle is destroyed; every occupant still in it is killed [house for passengers]."""
    ctx.vehicle.destroyed = True
    ctx.vehicle.on_fire = False
    for p in list(ctx.vehicle.seats):
        ch = _occupant(ctx.game, ctx.vehicle, p)
        if ch is not None:
            _kill(ctx, ch, why)
    ctx.note(f"{ctx.vehicle.name} is destroyed ({why})")


def _catch_fire(ctx: _Hit, what: str) -> None:
    """Turret/Engine Fire (31.10.8): a Fire marker, an FMC for every crewman and passenger [house]."""
    vehicle = ctx.vehicle
    _mark(vehicle, what)
    if vehicle.on_fire:
        return
    vehicle.on_fire = True
    ctx.game.state.flags.setdefault(FIRE_STARTED, {})[vehicle.id] = ctx.game.state.flow.turn
    ctx.note(f"{what.replace('_', ' ')}: the vehicle burns; every occupant makes a Fire Morale Check")
    for ch in _occupants(ctx.game, vehicle):
        ctx.checks.append((ch.id, "fmc", what.replace("_", " ")))


def _immobilize(ctx: _Hit, why: str) -> None:
    """Immobilized: a damage marker; the Driver switches to Emergency Stop (31.2 (3))."""
    vehicle = ctx.vehicle
    if "immobilized" not in vehicle.damage:
        vehicle.damage.append("immobilized")
        ctx.note(f"immobilized ({why})")
    driver = _active_occupant(ctx.game, vehicle, "driver")
    if driver is not None:
        _driver_stop(ctx.game, vehicle, driver, f"{vehicle.name} immobilized", "C2 31.2 (3)")
    else:
        vehicle.acted["speed"] = "emergency_stop"


def _force(ctx: _Hit, flag: str, why: str) -> None:
    """A next-turn order for :mod:`solo.enemy.vom` (31.10.8): a ``force_*`` flag in ``vehicle.damage``.

    ``flag``: ``bail_out:crew``, ``bail_out:driver``, ``bail_out:passengers``, ``button_up:<position>``.
    """
    _mark(ctx.vehicle, f"force_{flag}")
    ctx.note(f"next turn: {flag.replace('_', ' ').replace(':', ' for the ')} ({why})")


def _special(ctx: _Hit, loc: Location, role: Role | None, passengers: tuple[int, ...]) -> None:
    """The 31.10.8 special locations, by weapon type (small arms, AP, HEAT, HE) and calibre."""
    s, game, vehicle = ctx.strike, ctx.game, ctx.vehicle
    o = s.ordnance
    cal = s.calibre or 0
    if loc is Location.HATCH and role is not None:
        _hatch_hit(ctx, role.value)
    elif loc is Location.PERISCOPE and role is not None:
        _mark(vehicle, f"periscope:{role.value}")
        ctx.note(f"{role.value.replace('_', ' ')}'s periscope destroyed: no spotting with the hatch closed")
        if role is Role.CO_DRIVER:
            _clear_marker(game, vehicle, "co_driver", "periscope destroyed (31.10.8)")
        if vehicle.side is Side.ENEMY:
            _force(ctx, f"button_up:{role.value}", "periscope destroyed (31.10.8)")
    elif loc is Location.GUNNER_SIGHT:
        _mark(vehicle, "gunner_sight")
        ctx.note(f"Gunner's sight destroyed: {GUNNER_SIGHT} to his spotting and to-hit rolls")
    elif loc is Location.TURRET_RING:
        if s.small_arms or (o is Ordnance.HE and cal <= 37):
            ctx.note("turret ring: no effect")
        else:
            d10 = game.dice.d10(f"turret ring hit on {vehicle.name} (C2 31.10.8)").total
            ctx.report["turret_ring"] = d10
            if d10 <= 4:
                ctx.note(f"turret ring d10 {d10}: turret blown off, all crew killed")
                for ch in _crew(game, vehicle):
                    _kill(ctx, ch, "turret blown off")
                _destroy(ctx, "turret blown off")
            elif d10 <= 8:
                _mark(vehicle, "turret_jammed")
                ctx.note(f"turret ring d10 {d10}: turret jammed")
            else:
                ctx.note(f"turret ring d10 {d10}: bounces off")
    elif loc is Location.GUN_BARREL:
        if s.small_arms:
            ctx.note("gun barrel: no effect")
        else:
            _mark(vehicle, "main_gun_destroyed")
            vehicle.loaded = None
            ctx.note("gun barrel hit: main gun destroyed")
    elif loc in (Location.COAXIAL_MG, Location.BOW_MG):
        if s.small_arms:
            ctx.note(f"{loc.value.replace('_', ' ')}: no effect")
        else:
            _mark(vehicle, f"{loc.value}_destroyed")
            ctx.note(f"{loc.value.replace('_', ' ')} destroyed")
    elif loc is Location.VISION_SLOT and role is not None:
        victims = ["driver", "co_driver"] if o is Ordnance.HE else [role.value]
        for p in victims:
            victim = _occupant(game, vehicle, p)
            if victim is not None:
                _kill(ctx, victim, f"shot through the {role.value.replace('_', ' ')}'s vision slot")
        _queue(ctx, (CrewCheck.ALL,), "mc", "vision slot")
    elif loc is Location.SUSPENSION:
        if s.small_arms:
            ctx.note("suspension: no effect")
        elif (o is Ordnance.HEAT and game.options.suspension_heat == "immobilized") or (
            (o is Ordnance.AP and cal >= 50) or (o is Ordnance.HE and cal >= 75)
        ):
            _immobilize(ctx, "suspension")
        else:
            d10 = game.dice.d10(f"suspension hit on {vehicle.name}, small calibre (C2 31.10.8)").total
            if d10 <= 4:
                _immobilize(ctx, f"suspension, d10 {d10}")
            else:
                ctx.note(f"suspension d10 {d10}: no effect")
    elif loc is Location.TRACK:
        _track_hit(ctx)
    elif loc is Location.WHEEL:
        _wheel_hit(ctx, "wheel")
    elif loc in (Location.HEADLIGHT_LEFT, Location.HEADLIGHT_RIGHT):
        _mark(vehicle, loc.value)
        ctx.note(f"{loc.value.replace('_', ' ')} out")
        if not (s.small_arms or (o is Ordnance.AP and cal <= 37)):
            _wheel_hit(ctx, "headlight and wheel")
    elif loc is Location.CUPOLA:
        _cupola_hit(ctx)
    elif loc is Location.PASSENGER and passengers:
        _seat_hit(ctx, f"passenger_{passengers[0]}")
    elif loc is Location.CREW and role is not None:
        _seat_hit(ctx, role.value)
    elif loc is Location.BETWEEN_PASSENGERS and len(passengers) == 2:
        _between_hit(ctx, f"passenger_{passengers[0]}", f"passenger_{passengers[1]}")
    else:
        ctx.note(f"{loc.value.replace('_', ' ')}: no effect")


def _hatch_hit(ctx: _Hit, position: str) -> None:
    """31.10.8 Hatches: open (a man out of it is hit) or closed (jammed by AP, HEAT, HE)."""
    game, vehicle, o = ctx.game, ctx.vehicle, ctx.strike.ordnance
    seat = vehicle.seats.get(position)
    if seat is None:
        return
    who = _active_occupant(game, vehicle, position)
    where = f"{position.replace('_', ' ')}'s hatch"
    if seat.hatch.is_open:
        if o is Ordnance.SMALL_ARMS:
            if who is not None and not _hidden(who):
                ctx.note(f"{where} (open): {who.name} is hit")
                _wound_occupant(ctx, who, 1, f"hit at the {where}")
            else:
                ctx.note(f"{where} (open): no one exposed")
        elif who is not None and (o is Ordnance.HE or not _hidden(who)):
            ctx.note(f"{where} (open): {who.name} is killed")
            _kill(ctx, who, f"hit at the {where}")
        else:
            seat.hatch = Hatch.JAMMED_OPEN
            ctx.note(f"{where} (open) destroyed: it can never be closed")
    elif o is Ordnance.SMALL_ARMS:
        ctx.note(f"{where} (closed): no effect")
    else:
        seat.hatch = Hatch.JAMMED_CLOSED
        ctx.note(f"{where} destroyed and jammed closed: it can never be opened")


def _track_hit(ctx: _Hit) -> None:
    """31.10.8 Track: immobilized by AP >=37mm, HEAT, any HE; the crew may have to bail out."""
    game, vehicle, s = ctx.game, ctx.vehicle, ctx.strike
    if s.small_arms or (s.ordnance is Ordnance.AP and (s.calibre or 0) < 37):
        ctx.note("track: no effect")
        return
    _immobilize(ctx, "track")
    if ctx.vt.kind is VehicleKind.HALF_TRACK:
        _force(ctx, "bail_out:driver", "track hit (31.10.8)")
        _force(ctx, "bail_out:passengers", "track hit (31.10.8)")
        return
    cmd = _active_occupant(game, vehicle, "commander")
    if cmd is None:
        return
    out = morale.check(game, cmd, CheckKind.TQC, purpose="track hit: does the crew stay? (C2 31.10.8)")
    ctx.report["track_tqc"] = {"roll": out.roll, "target": out.target, "passed": out.passed}
    if out.passed:
        ctx.note(f"track: Commander's TQC {out.roll} vs {out.target} passed: orders as normal next turn")
    else:
        _force(ctx, "bail_out:crew", "track hit, Commander's TQC failed (31.10.8)")


def _wheel_hit(ctx: _Hit, what: str) -> None:
    """31.10.8 Wheel: immobilized; next turn Enemy Drivers and passengers Bail Out."""
    _immobilize(ctx, what)
    if ctx.vehicle.side is Side.ENEMY:
        _force(ctx, "bail_out:driver", f"{what} hit (31.10.8)")
        _force(ctx, "bail_out:passengers", f"{what} hit (31.10.8)")


def _cupola_hit(ctx: _Hit) -> None:
    """31.10.8 Cupola [Half-Tracks]: small arms no effect; AP <= 37 mm (and HE under 75 mm [house])
    3 wound cards; HE >= 75 mm destroyed, the occupant killed; AP over 37 mm or HEAT (the text is
    silent): killed, or 3 wound cards with the option ``cupola_heavy_hit`` ``wounds``."""
    s, game, vehicle = ctx.strike, ctx.game, ctx.vehicle
    who = _active_occupant(game, vehicle, "cupola")
    cal = s.calibre or 0
    if s.small_arms:
        ctx.note("cupola: no effect (fire at its occupant individually)")
    elif s.ordnance is Ordnance.HE and cal >= 75:
        _mark(vehicle, "cupola_destroyed")
        ctx.note("cupola destroyed")
        if who is not None:
            _kill(ctx, who, "cupola destroyed")
    elif (
        (s.ordnance is Ordnance.AP and cal <= 37)
        or s.ordnance is Ordnance.HE
        or game.options.cupola_heavy_hit == "wounds"
    ):
        if who is not None:
            _wound_occupant(ctx, who, 3, "cupola hit")
    elif who is not None:
        _kill(ctx, who, "cupola hit")


def _seat_hit(ctx: _Hit, position: str) -> None:
    """31.10.8 Passenger X (and Jeep/Truck/Half-Track crew, [house])."""
    game, vehicle, o = ctx.game, ctx.vehicle, ctx.strike.ordnance
    who = _active_occupant(game, vehicle, position)
    opp = _opposite(vehicle, position)
    other = _active_occupant(game, vehicle, opp) if opp else None
    label = position.replace("_", " ")
    if o is Ordnance.SMALL_ARMS:
        victim = who or other
        if victim is None:
            ctx.note(f"{label} and the position opposite are empty: no effect")
        else:
            _wound_occupant(ctx, victim, 1, f"hit in the {label} position")
    elif o is Ordnance.AP:
        if who is not None:
            _kill(ctx, who, f"AP round in the {label} position")
        if other is not None:
            _wound_occupant(ctx, other, 1, f"AP round in the {label} position")
        for p in _adjacent(vehicle, position):
            n = _active_occupant(game, vehicle, p)
            if n is not None and p != opp:
                ctx.checks.append((n.id, "mc", f"AP round in the {label} position"))
    else:
        if who is not None:
            _kill(ctx, who, f"{o.value.upper()} round in the {label} position")
        for p in _adjacent(vehicle, position):
            n = _active_occupant(game, vehicle, p)
            if n is not None:
                _wound_occupant(ctx, n, 1, f"{o.value.upper()} round beside him")


def _between_hit(ctx: _Hit, x: str, y: str) -> None:
    """31.10.8 Between Passengers X and Y."""
    game, vehicle, o = ctx.game, ctx.vehicle, ctx.strike.ordnance
    a, b = _active_occupant(game, vehicle, x), _active_occupant(game, vehicle, y)
    label = f"between {x.replace('_', ' ')} and {y.replace('_', ' ')}"
    if o is Ordnance.SMALL_ARMS:
        for ch in (a, b):
            if ch is not None:
                ctx.checks.append((ch.id, "mc", f"round {label}"))
    elif o is Ordnance.AP:
        positions = [x, y, *(p for p in (_opposite(vehicle, x), _opposite(vehicle, y)) if p)]
        for p in dict.fromkeys(positions):
            ch = _active_occupant(game, vehicle, p)
            if ch is not None:
                _wound_occupant(ctx, ch, 1, f"AP round {label}")
    else:
        for ch in (a, b):
            if ch is not None:
                _kill(ctx, ch, f"{o.value.upper()} round {label}")
        near = [p for p in dict.fromkeys([*_adjacent(vehicle, x), *_adjacent(vehicle, y)]) if p not in (x, y)]
        for p in near:
            ch = _active_occupant(game, vehicle, p)
            if ch is not None:
                _wound_occupant(ctx, ch, 1, f"{o.value.upper()} round {label}")


def report_text(report: dict[str, Any]) -> str:
    """Plain words for a :func:`hit_vehicle` report (for the summary event)."""
    if report.get("suppressive"):
        return "Suppressive hit: MCs for the exposed occupants."
    parts = [f"%D {report.get('percent', 0):02d} ({report.get('aspect')}): {report.get('location')}."]
    if "armor" in report:
        pen = report.get("penetration")
        glancing = "glancing " if report.get("glancing") else ""
        zone = str(report.get("armor_zone", "")).replace("_", " ")
        if pen is not None:
            verdict = "penetrates" if report.get("penetrated") else "does not penetrate"
            parts.append(
                f"Penetration {pen['dice']} = {pen['total']} vs {zone} {glancing}armor "
                f"{report['armor']}: {verdict}."
            )
    for d in report.get("damage", ()):
        bits = [f"Damage d10 {d['d10']} on the {d['column'].replace('_', ' ')} column"]
        if d["kia"]:
            bits.append("KIA " + ", ".join(d["kia"]))
        if d["effects"]:
            bits.append(", ".join(e.replace("_", " ") for e in d["effects"]))
        if d["mc"]:
            bits.append("MC " + "/".join(d["mc"]))
        if d["note"]:
            bits.append(d["note"])
        parts.append("; ".join(bits) + ".")
    for n in report.get("notes", ()):
        parts.append(n[0].upper() + n[1:] + ".")
    mcs = []
    for m in report.get("mcs", ()):
        if "ignored" in m:
            mcs.append(f"{m['name']} ignores it ({m['ignored']})")
        else:
            verdict = "passes" if m.get("passed", True) and "reaction" not in m else "fails"
            extra = f", {m['reaction'].replace('_', ' ')}" if "reaction" in m else ""
            mcs.append(f"{m['name']} {m['check'].upper()} {m['roll']} vs {m['target']} {verdict}{extra}")
    if mcs:
        parts.append("Checks: " + "; ".join(mcs) + ".")
    return " ".join(parts)
