"""The main gun (C2 31.9.4 d) and Observed Targets (31.7.3): which target the Gunner fires at, the to-hit
roll, HE bursts on a hex.

May import: the vehicle hit rules, solo.rules.firing and below, and the rooms below rules."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import attrs

from solo.core.decisions import Decision
from solo.core.hexes import Arc, Hex, arc_of
from solo.data.tables import CheckKind, roll_result
from solo.data.weapons import AmmoKind
from solo.rules import firing, morale, spotting, wounds
from solo.rules.context import GameContext
from solo.rules.state import Character, Side
from solo.rules.vehicles import crew_sight
from solo.rules.vehicles.hits import hit_vehicle, report_text
from solo.rules.vehicles.small_arms import _night_weather
from solo.rules.vehicles.state import Vehicle, vehicles_of
from solo.rules.vehicles.targets import (
    ASPECT_MODIFIER,
    GUNNER_SIGHT,
    HEX_TARGET,
    LDR_ON_VEHICLE_TO_HIT,
    OUT_OF_POSITION,
    VEHICLE_TARGET,
    Ordnance,
    Strike,
    _gun_terms,
    _terms_text,
    _vtype,
    commander_ldr,
    out_of_position,
    speed_fire_modifier,
    strike_of,
    target_name,
    target_speed,
    target_vehicle,
)


def _observed(game: GameContext, vehicle: Vehicle, position: str) -> tuple[list[Character], list[Vehicle]]:
    """The Observed Targets of ``position`` (31.7.3): characters and vehicles.

    Through ``crew_sight.observed_targets(game, vehicle, seat)`` (characters, vehicles or their
    ids).
    """
    chars: list[Character] = []
    vehs: list[Vehicle] = []
    for item in crew_sight.observed_targets(game, vehicle, position) or ():
        if isinstance(item, Vehicle):
            vehs.append(item)
        elif isinstance(item, Character):
            chars.append(item)
        elif isinstance(item, str) and item in vehicles_of(game.state):
            vehs.append(vehicles_of(game.state)[item])
        elif isinstance(item, str) and item in game.state.characters:
            chars.append(game.state.characters[item])
    return chars, vehs


def _loaded_at_start(game: GameContext, vehicle: Vehicle) -> bool:
    """The main gun was loaded at the START of this Impulse (31.11.2): ``solo.rules.vehicles.crew``'s record
    ``vehicle.acted["impulse_start"] = (turn, impulse, round)`` when it has one, else not loaded
    during it (``vehicle.acted["loaded_impulse"]``)."""
    flow = game.state.flow
    rec = vehicle.acted.get("impulse_start")
    if isinstance(rec, tuple | list) and len(rec) == 3 and (rec[0], rec[1]) == (flow.turn, flow.impulse):
        return rec[2] is not None and vehicle.loaded is not None
    return vehicle.loaded is not None and vehicle.acted.get("loaded_impulse") != flow.impulse


@attrs.frozen
class GunShot:
    """A main gun or Light AT shot: at a vehicle or a hex, with the terms of its modified number."""

    key: str
    """``"vehicle:<id>"`` or ``"hex:CC.RR"``."""
    hex: Hex
    range: int
    terms: tuple[tuple[str, int], ...]
    """(name, value), the first being the base TQ."""
    aspect: Arc | None
    """The aspect hit (vehicle targets)."""
    targets: int
    """Characters in the hex (hex targets)."""

    @property
    def total(self) -> int:
        """The modified TQ to roll under."""
        return sum(v for _, v in self.terms)

    def breakdown(self) -> str:
        """``TQ 5 +2 side -1 range = 6``."""
        return f"{_terms_text(list(self.terms))} = {self.total}"

    def event_data(self, impulse: int) -> dict[str, Any]:
        """What a fire event records of the shot: target key, range in hexes, terms, modified TQ,
        and whether it was the automatic Impulse 4 shot."""
        return {
            "fired": True,
            "target": self.key,
            "range": self.range,
            "terms": [list(t) for t in self.terms],
            "modified_tq": self.total,
            "automatic": impulse == 4,
        }


def _main_gun_shots(game: GameContext, vehicle: Vehicle, gunner: Character) -> list[GunShot]:
    """The Gunner's legal shots (31.9.4 d): Observed Targets in LOS, range and the turret's front arc."""
    vt = _vtype(game, vehicle)
    mg = vt.main_gun
    if mg is None or vehicle.hex is None or vehicle.loaded is None:
        return []
    weapon = game.data.weapons.get(mg.weapon)
    stagger = game.board.map.stagger
    turret = vehicle.turret if vehicle.turret is not None else vehicle.facing
    chars, vehs = _observed(game, vehicle, "gunner")
    base = _gun_terms(game, vehicle, gunner, ldr=False)
    if "gunner_sight" in vehicle.damage:
        base.append(("Gunner's sight", GUNNER_SIGHT))
    shots: list[GunShot] = []
    for v in vehs:
        if not v.is_active or v.hex is None or v.hex == vehicle.hex:
            continue
        if arc_of(vehicle.hex, turret, v.hex, stagger) is not Arc.FRONT:
            continue
        sight = game.sight(gunner, v.hex)
        rng = game.distance(vehicle.hex, v.hex)
        band = weapon.band_modifier(rng)
        if not sight.clear or band is None:
            continue
        aspect = arc_of(v.hex, v.facing, vehicle.hex, stagger)
        terms = [("Gunner's TQ", gunner.effective_tq), (f"{aspect.value} aspect", ASPECT_MODIFIER[aspect])]
        terms += base
        if LDR_ON_VEHICLE_TO_HIT:
            terms.append(("Commander's LDR", commander_ldr(game, vehicle, gunner, for_mc=False)))
        terms += [target_speed(game, v), ("range", band), ("smoke", sight.smoke)]
        terms += _night_weather(game, vehicle.hex, v.hex, rng)
        kept = tuple((k, n) for k, n in terms if n or k in ("range", "Gunner's TQ"))
        shots.append(GunShot(VEHICLE_TARGET + v.id, v.hex, rng, kept, aspect, 0))
    if vehicle.loaded.value != "he":
        return shots
    hexes: dict[Hex, int] = {}
    for c in chars:
        if c.hex is None or c.vehicle is not None or c.hex == vehicle.hex:
            continue
        hexes[c.hex] = hexes.get(c.hex, 0) + 1
    hex_terms = [("Gunner's TQ", gunner.effective_tq), *_gun_terms(game, vehicle, gunner, ldr=True)]
    if "gunner_sight" in vehicle.damage:
        hex_terms.append(("Gunner's sight", GUNNER_SIGHT))
    for h, n in hexes.items():
        if arc_of(vehicle.hex, turret, h, stagger) is not Arc.FRONT:
            continue
        rng = game.distance(vehicle.hex, h)
        if not game.sight(gunner, h).clear or weapon.band_modifier(rng) is None:
            continue
        kept = tuple((k, v) for k, v in hex_terms if v or k == "Gunner's TQ")
        shots.append(GunShot(HEX_TARGET + str(h), h, rng, kept, None, n))
    return shots


def _enemy_gun_pick(
    game: GameContext, who: Character, shots: list[GunShot], marker: Hex | None, why: str
) -> GunShot:
    """Enemy crews: a vehicle first (31.7.4 priority 1), the best modified TQ, then nearest; else the
    hex with most characters, the Target Marker's hex, nearest; then a logged random pick [house]."""
    vehs = [s for s in shots if s.key.startswith(VEHICLE_TARGET)]
    if vehs:
        best = max(s.total for s in vehs)
        pool = [s for s in vehs if s.total == best]
    else:
        most = max(s.targets for s in shots)
        pool = [s for s in shots if s.targets == most]
        if marker is not None and any(s.hex == marker for s in pool):
            pool = [s for s in pool if s.hex == marker]
    near = min(s.range for s in pool)
    pool = [s for s in pool if s.range == near]
    if len(pool) == 1:
        return pool[0]
    pick = game.dice.choice([target_name(game, s.key) for s in pool], f"{who.name}: {why} among equals")
    return pool[pick.index]


def shot_at_vehicle(
    game: GameContext,
    firer: Character,
    target: Vehicle,
    shot: GunShot,
    strike: Strike,
    *,
    from_hex: Hex,
    purpose: str,
    fires: str,
) -> tuple[dict[str, Any], str]:
    """The to-hit roll of a main gun or Light AT shot at a vehicle, and the hit (C2 31.9.4 d i, 32.1).

    One d10 (``purpose`` names it in the log) against the shot's modified TQ: pass at the TQ, fail
    above it, a natural 9 always misses (23.1). A hit goes to :func:`hit_vehicle` (31.10.3-31.10.11)
    from ``from_hex``. Returns the event data (``roll``, ``hit``, ``hit_report`` on a hit) and the
    text, which starts with ``fires`` ("Uffz. Kurz (Panzer IVH) fires AP").
    """
    roll = game.dice.d10(purpose).total
    hit = roll_result(roll, shot.total).passed
    data: dict[str, Any] = {"roll": roll, "hit": hit}
    text = (
        f"{fires} at {target.name} in {target.hex} "
        f"({shot.range} hexes, {shot.aspect.value if shot.aspect else ''}): {shot.breakdown()}; "
        f"d10 {roll} → {'hit' if hit else 'miss'}."
    )
    if hit:
        rep = hit_vehicle(game, target, strike, from_hex=from_hex, firer=firer, aspect=shot.aspect)
        data["hit_report"] = rep
        text += " " + report_text(rep)
    return data, text


def fire_main_gun(game: GameContext, vehicle: Vehicle, gunner: Character) -> Generator[Decision, str, None]:
    """The Gunner's Fire Main Gun action this Impulse (C2 31.6, 31.9.4 d, 31.11.2).

    Impulses 2-4 only. Needs a main gun that is not destroyed, loaded at the START of the
    Impulse (``vehicle.acted["loaded_impulse"]``), a turret that did not turn this Impulse, a
    speed other than Fast, and an Observed Target (31.7.3) in LOS, range and the turret's
    front arc (``arc_of(vehicle.hex, vehicle.turret, hex) is FRONT``). A Friendly Gunner picks
    the target or holds (``FIRE_TARGET``: ``vehicle:<id>``, ``hex:CC.RR``, ``hold``); an Enemy
    one by :func:`_enemy_gun_pick`. On Impulses 2-3 a TQC (TQ + Commander's LDR - 2 out of
    position) is needed to fire (failure: no penalty); on Impulse 4 he fires automatically.
    AP/HE at a vehicle: d10 <= TQ + aspect (+2 side, +1 front/rear) + Direct Firing + own speed
    + target speed + range band (+ smoke, night, weather, Gunner's sight, morale) hits → :func:`hit_vehicle`.
    HE at a hex: :func:`he_at_hex` with TQ + Direct Firing + speed + Commander's LDR.
    The gun is then unloaded (``vehicle.loaded = None``). Emits one ``main_gun_fire`` event; a shot's
    event goes in the log before its to-hit die and what the shot did (after the TQC to fire).
    """
    imp = game.state.flow.impulse
    rule = "C2 31.9.4 d, 31.11.2"

    def no(why: str) -> None:
        game.emit(
            "main_gun_fire",
            f"{gunner.name} ({vehicle.name}) does not fire the main gun: {why}.",
            rule=rule,
            actor=gunner.id,
            data={"vehicle": vehicle.id, "fired": False, "reason": why},
        )

    if imp not in (2, 3, 4) or not gunner.is_active or not vehicle.is_active:
        return
    vt = _vtype(game, vehicle)
    if vt.main_gun is None:
        return no("the vehicle has no main gun")
    if "main_gun_destroyed" in vehicle.damage:
        return no("the main gun is destroyed")
    if not _loaded_at_start(game, vehicle):
        return no("the gun was not loaded at the start of the Impulse")
    if vehicle.acted.get("turret_turned") == imp:
        return no("the turret turned this Impulse (31.6)")
    if speed_fire_modifier(game, vehicle) is None:
        return no("the vehicle moves Fast: no fire (31.11.2)")
    shots = _main_gun_shots(game, vehicle, gunner)
    if not shots:
        return no("no Observed Target in LOS and range in the turret's front arc")
    seat = vehicle.seats.get("gunner")
    if gunner.side is Side.FRIENDLY:
        from solo.core.decisions import DecisionKind

        options = [(s.key, f"{target_name(game, s.key)} ({s.range} hexes, {s.breakdown()})") for s in shots]
        key = yield game.decision(
            DecisionKind.FIRE_TARGET,
            f"{gunner.name} ({vehicle.name}, {vehicle.loaded.value.upper() if vehicle.loaded else ''}): "
            "fire at",
            [*options, ("hold", "Hold fire")],
            actor=gunner.id,
        )
        if key == "hold":
            return no("the player holds fire")
        shot = next(s for s in shots if s.key == key)
    else:
        shot = _enemy_gun_pick(game, gunner, shots, seat.marker if seat else None, "main gun target")
    if imp in (2, 3):
        mod = commander_ldr(game, vehicle, gunner, for_mc=False)
        if out_of_position(game, vehicle, gunner):
            mod += OUT_OF_POSITION
        tqc = morale.check(
            game, gunner, CheckKind.TQC, modifier=mod, purpose="fire the main gun? (C2 31.11.2)"
        )
        if not tqc.passed:
            return no(f"TQC {tqc.roll} vs {tqc.target} failed (no penalty)")
    assert vehicle.loaded is not None
    ammo = Ordnance(vehicle.loaded.value)
    strike = strike_of(game, vt.main_gun.weapon, ammo)
    assert vehicle.hex is not None
    data: dict[str, Any] = {
        "vehicle": vehicle.id,
        "gunner": gunner.id,
        "ammo": ammo.value,
        **shot.event_data(imp),
    }
    at = game.mark()  # the shot is narrated first, then its dice and what they did
    v = target_vehicle(game, shot.key)
    if v is not None:
        rolled, text = shot_at_vehicle(
            game,
            gunner,
            v,
            shot,
            strike,
            from_hex=vehicle.hex,
            purpose=f"main gun: {gunner.name} ({vehicle.name}) -> {v.name}, {ammo.value.upper()} "
            f"(modified TQ {shot.total}) (C2 31.9.4 d i)",
            fires=f"{gunner.name} ({vehicle.name}) fires {ammo.value.upper()}",
        )
        data.update(rolled)
    else:
        rep = he_at_hex(game, gunner, shot.hex, shot.total, strike, vehicle_hex=vehicle.hex)
        data["he"] = rep
        text = (
            f"{gunner.name} ({vehicle.name}) fires HE at {shot.hex} ({shot.range} hexes): "
            f"{shot.breakdown()}; {rep['text']}"
        )
    vehicle.loaded = None
    vehicle.acted["fired_impulse"] = imp
    spotting.alert_around(
        game, vehicle.hex, 10, f"{vehicle.name} fired its main gun", "base-rules §5.6 alert 1"
    )
    game.emit("main_gun_fire", text, rule=rule + ", 31.10", actor=gunner.id, data=data, at=at)


def he_at_hex(
    game: GameContext,
    firer: Character,
    target_hex: Hex,
    modified_tq: int,
    strike: Strike,
    *,
    vehicle_hex: Hex | None = None,
) -> dict[str, Any]:
    """An HE round fired at a hex (C2 31.9.4 d ii); returns the report (``text`` + details).

    d10 against ``modified_tq``: 9 → scatter 1d6 hexes' direction; characters in the new hex are
    hit as for a successful roll. 0..TQ → a hit: the characters in the hex in a random order
    (logged picks), the first rolling as many d10 as the weapon's Frag rating, each further one
    one die fewer (C2 example of play: Frag 4 dice, then 3); each die hits on <= the Blast rating +
    the target's fire-chart cell (terrain/order) (option ``he_blast_dice`` ``frag_dice``; with
    ``blast_dice``, the text's reading, Blast dice hitting on <= Frag); each hit is a wound draw.
    Over the TQ: the round lands in the hex and hits nobody. Either way everyone on foot in or adjacent to the
    landing hex takes an MC (Duck Back if it fails, 31.9.4 IMPORTANT). Alerts within 3 hexes.
    """
    w = game.data.weapons.get(strike.weapon)
    try:
        he = w.ammo_of(AmmoKind.HE)
        blast, frag = he.blast or 0, he.frag or 0
    except KeyError:
        blast, frag = 0, 0
    roll = game.dice.d10(
        f"HE at {target_hex}: {firer.name} (modified TQ {modified_tq}) (C2 31.9.4 d ii)"
    ).total
    rep: dict[str, Any] = {"hex": str(target_hex), "roll": roll, "blast": blast, "frag": frag, "targets": []}
    landing: Hex | None = target_hex
    hit = False
    if roll == 9:
        d = game.dice.d6(f"HE scatter from {target_hex} (C2 31.9.4 d ii)").total
        landing = game.board.neighbour_hex(target_hex, d)
        rep["scatter"] = d
        rep["landed"] = str(landing) if landing else None
        occupied = landing is not None and any(
            c.vehicle is None and not c.dummy for c in game.state.at(landing)
        )
        hit = occupied
        words = (
            f"d10 9: scatters in direction {d} to {landing}"
            + (", which holds characters: hit as a successful roll" if occupied else "")
            if landing is not None
            else f"d10 9: scatters in direction {d} off the map"
        )
    elif roll_result(roll, modified_tq).passed:
        hit = True
        words = f"d10 {roll} → a hit on {target_hex}"
    else:
        words = f"d10 {roll} → lands in {target_hex} but hits nobody"
    rep["hit"] = hit
    if hit and landing is not None:
        dice, hit_on = (blast, frag) if game.options.he_blast_dice == "blast_dice" else (frag, blast)
        rep["targets"] = _blast_dice(game, firer, landing, dice, hit_on, f"HE on {landing}")
        for t in rep["targets"]:
            words += f"; {t['name']} {t['dice']} dice at {t['target']}: {t['faces']} → {t['hits']} hit(s)"
    rep["mcs"] = []
    if landing is not None:
        for x in [landing, *(n for _d, n in _around(game, landing))]:
            for c in game.state.at(x):
                if not c.is_active or c.dummy or c.vehicle is not None:
                    continue
                out = morale.morale_check(game, c, f"HE explodes on {landing}", "C2 31.9.4 d ii")
                rep["mcs"].append(
                    {"character": c.id, "roll": out.roll, "target": out.target, "result": out.result.value}
                )
        spotting.alert_around(game, landing, 3, f"HE explodes on {landing}", "base-rules §5.6 alert 3")
    rep["text"] = words + (f"; {len(rep['mcs'])} blast MC(s)." if rep["mcs"] else ".")
    return rep


def _around(game: GameContext, h: Hex) -> list[tuple[int, Hex]]:
    out = []
    for d in range(1, 7):
        n = game.board.neighbour_hex(h, d)
        if n is not None:
            out.append((d, n))
    return out


def _blast_dice(
    game: GameContext, firer: Character, h: Hex, dice: int, blast: int, what: str
) -> list[dict[str, Any]]:
    """C2 31.9.4 d ii and the example of play: targets in random order, Frag dice less one each."""
    people = [c for c in game.state.at(h) if c.vehicle is None]
    for c in list(people):
        spotting.reveal(game, c, reason=f"{what}", rule="C2 31.9.4 d ii")
    people = [c for c in game.state.at(h) if c.vehicle is None and not c.dummy]
    out: list[dict[str, Any]] = []
    k = 0
    while people:
        pick = game.dice.choice(
            [c.name for c in people], f"{what}: target {k + 1} at random (C2 31.9.4 d ii)"
        )
        t = people.pop(pick.index)
        n = max(0, dice - k)
        k += 1
        cell, row, group = firing.fire_cell(game, firer, t)
        target = blast + cell.modifier
        faces = [game.dice.d10(f"{what}: die {i + 1}/{n} for {t.name} (<= {target})").total for i in range(n)]
        hits = sum(1 for f in faces if roll_result(f, target).passed)
        rec = {
            "character": t.id,
            "name": t.name,
            "dice": n,
            "target": target,
            "cell": cell.modifier,
            "row": row,
            "group": group,
            "faces": faces,
            "hits": hits,
        }
        out.append(rec)
        for _ in range(hits):
            if not t.on_map or not t.is_active:
                break
            stamp = wounds.wound_draw(game, t, firer=firer)
            wounds.apply_wound(game, t, stamp, reason=what)
    return out
