"""Light AT weapons (C2 32.0-32.3): Bazookas loaded and fired by a team, Panzerfausts placed, picked up and
fired, HEAT against vehicles and soft targets.

May import: the vehicle fire rules below it, solo.rules.firing and below, and the rooms below rules."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import attrs

from solo.core.decisions import Decision
from solo.core.hexes import Hex, arc_of
from solo.data.orders import Order
from solo.data.tables import CheckKind, roll_result
from solo.data.weapons import Weapon, WeaponFlag, WeaponKind
from solo.rules import firing, morale, skills, spotting, wounds
from solo.rules.context import GameContext
from solo.rules.los import Sight
from solo.rules.state import CarriedWeapon, Character, Side
from solo.rules.vehicles.main_gun import GunShot, _enemy_gun_pick, shot_at_vehicle
from solo.rules.vehicles.small_arms import _night_weather
from solo.rules.vehicles.state import vehicles_of
from solo.rules.vehicles.targets import (
    ASPECT_MODIFIER,
    BAZOOKA_ROCKETS,
    DEFAULT_HEAT_FRAG,
    FRIENDLY_PANZERFAUST,
    HEAT_FRAG,
    HEX_TARGET,
    LIGHT_AT,
    OFFICER_MIN_LDR,
    PANZERFAUST,
    PANZERFAUST_DEFAULT_LEVEL,
    PANZERFAUST_DEFAULT_TYPE,
    SOFT_TARGET_TERRAIN,
    VEHICLE_TARGET,
    Ordnance,
    _here,
    strike_of,
    target_name,
    target_speed,
    target_vehicle,
)


def _light_at_weapons(game: GameContext, ch: Character) -> list[Weapon]:
    out = []
    for cw in ch.weapons:
        if cw.weapon in game.data.weapons:
            w = game.data.weapons.get(cw.weapon)
            if w.kind is WeaponKind.LIGHT_AT:
                out.append(w)
    return out


def _bazooka(game: GameContext, ch: Character) -> Weapon | None:
    return next((w for w in _light_at_weapons(game, ch) if not w.has_flag(WeaponFlag.ONE_SHOT)), None)


def _panzerfaust_held(game: GameContext, ch: Character) -> Weapon | None:
    return next((w for w in _light_at_weapons(game, ch) if w.has_flag(WeaponFlag.ONE_SHOT)), None)


def bazooka_state(game: GameContext, operator: Character) -> dict[str, Any]:
    """The Bazooka of ``operator`` in ``state.flags[LIGHT_AT]`` (C2 32.1), created on first use.

    ``{"loaded": False, "rockets": 3, "assistant": id | None, "carrier": id, "loaded_at": None,
    "fired_at": None}``: unloaded with a 3-Ammo Marker; the assistant is the first other man of
    his team in his hex (roster order), who carries the rockets; else the operator carries them.
    """
    table = game.state.flags.setdefault(LIGHT_AT, {})
    st: dict[str, Any] | None = table.get(operator.id)
    if st is None:
        mate = None
        if operator.hex is not None:
            for c in game.state.at(operator.hex):
                if c is not operator and c.side is operator.side and c.team == operator.team and c.is_active:
                    mate = c.id
                    break
        st = {
            "loaded": False,
            "rockets": BAZOOKA_ROCKETS,
            "assistant": mate,
            "carrier": mate or operator.id,
            "loaded_at": None,
            "fired_at": None,
        }
        table[operator.id] = st
    return st


def _was_loaded_at_start(game: GameContext, st: dict[str, Any]) -> bool:
    here = list(_here(game))
    if st.get("fired_at") == here:
        return True
    return bool(st["loaded"]) and st.get("loaded_at") != here


def _operator_for_loader(game: GameContext, ch: Character) -> Character | None:
    """The operator whose Bazooka ``ch`` loads: his own if alone, else the one he assists (32.1)."""
    if ch.hex is None:
        return None
    if _bazooka(game, ch) is not None:
        st = bazooka_state(game, ch)
        mate = game.state.characters.get(st["assistant"] or "")
        if mate is None or not mate.is_active or mate.hex != ch.hex:
            return ch
    for c in game.state.at(ch.hex):
        if c is ch or c.side is not ch.side or not c.is_active or _bazooka(game, c) is None:
            continue
        st = bazooka_state(game, c)
        mate = game.state.characters.get(st["assistant"] or "")
        if st["assistant"] == ch.id or mate is None or not mate.is_active or mate.hex != c.hex:
            if st["assistant"] != ch.id:
                st["assistant"] = ch.id
            return c
    return None


def light_at_step(game: GameContext, ch: Character, order: Order) -> Generator[Decision, str, None]:
    """The F step of Load Light AT or Fire Light AT (C2 32.1-32.3), from
    :func:`solo.rules.fire_action.fire_step`."""
    if not ch.is_active or ch.hex is None:
        return
    if order.id == "load_light_at":
        _load_light_at(game, ch)
        return
    yield from _fire_light_at(game, ch, order)


def _load_light_at(game: GameContext, ch: Character) -> None:
    """Load Light AT (32.1): unloaded at the START of I2/I3 → a TQC to load; I4 automatic; a rocket used."""
    imp = game.state.flow.impulse
    rule = "C2 32.1"
    op = _operator_for_loader(game, ch)

    def say(text: str, **data: Any) -> None:
        game.emit("light_at_load", text, rule=rule, actor=ch.id, data={"loader": ch.id, **data})

    if op is None:
        return say(f"{ch.name} has no Bazooka to load here.", loaded=False)
    st = bazooka_state(game, op)
    if _was_loaded_at_start(game, st):
        return say(
            f"{ch.name}: {op.name}'s Bazooka was loaded at the start of the Impulse.",
            operator=op.id,
            loaded=False,
        )
    carrier = game.state.characters.get(st["carrier"])
    if st["rockets"] <= 0 or carrier is None or carrier.hex != op.hex:
        return say(f"{ch.name} cannot load: no Bazooka rocket in {op.hex}.", operator=op.id, loaded=False)
    if imp in (2, 3):
        tqc = morale.check(game, ch, CheckKind.TQC, purpose=f"load {op.name}'s Bazooka (C2 32.1)")
        if not tqc.passed:
            return say(
                f"{ch.name} fails to load the Bazooka (TQC {tqc.roll} vs {tqc.target}; no penalty).",
                operator=op.id,
                loaded=False,
                roll=tqc.roll,
            )
    st["loaded"] = True
    st["rockets"] -= 1
    st["loaded_at"] = list(_here(game))
    say(
        f"{ch.name} loads {op.name}'s Bazooka ({'automatic on Impulse 4' if imp == 4 else 'TQC passed'}); "
        f"{st['rockets']} rocket(s) left.",
        operator=op.id,
        loaded=True,
        rockets=st["rockets"],
    )


def light_at_order_placed(game: GameContext, ch: Character) -> bool:
    """A loaded Bazooka's operator given an order faster than Sneak: it is unloaded, the rocket lost (32.1).

    Call when a Friendly order is placed. Returns True if the Bazooka was unloaded.
    """
    if ch.order is None or ch.order.order not in ("run_and_gun", "evade", "sprint", "charge"):
        return False
    if _bazooka(game, ch) is None:
        return False
    st = bazooka_state(game, ch)
    if not st["loaded"]:
        return False
    st["loaded"] = False
    game.emit(
        "light_at_load",
        f"{ch.name} moves faster than Sneak with a loaded Bazooka: it is unloaded and the rocket lost.",
        rule="C2 32.1",
        actor=ch.id,
        data={"operator": ch.id, "unloaded": True},
    )
    return True


def _soft_target_hex(game: GameContext, h: Hex) -> bool:
    return any(t in SOFT_TARGET_TERRAIN for t in firing._terrain_ids(game, h))


def _light_at_terms(
    game: GameContext, ch: Character, weapon: Weapon, to: Hex, sight: Sight, rng: int
) -> list[tuple[str, int]] | None:
    band = weapon.band_modifier(rng)
    if band is None or ch.hex is None:
        return None
    terms = [
        (f"{ch.name}'s TQ", ch.effective_tq),
        ("range", band),
        (f"morale {ch.morale.value}", game.data.checks.morale(ch.morale).fire_ws),
        ("smoke", sight.smoke),
        *_night_weather(game, ch.hex, to, rng),
    ]
    if ch.side is Side.FRIENDLY and weapon.has_flag(WeaponFlag.ONE_SHOT):
        terms.append(("Friendly with a Panzerfaust", FRIENDLY_PANZERFAUST))
    return terms


def light_at_shots(game: GameContext, ch: Character, weapon: Weapon, *, soft: bool = True) -> list[GunShot]:
    """Every legal Light AT shot of ``ch`` (C2 32.1-32.3): opposing vehicles in LOS and range, and
    (``soft``) hexes of Building, Rubble, Rocks, Abbey or Fountain holding revealed opponents (32.2).

    Vehicle terms: TQ + range band + aspect (+2 side, +1 front/rear) + the target's speed +
    morale + smoke, night, weather (- 2 for a Friendly with a Panzerfaust). Soft: no aspect or speed.
    """
    if ch.hex is None:
        return []
    stagger = game.board.map.stagger
    shots: list[GunShot] = []
    for v in vehicles_of(game.state).values():
        if v.side is ch.side or not v.is_active or v.hex is None or v.hex == ch.hex:
            continue
        sight = game.sight(ch, v.hex)
        if not sight.clear:
            continue
        rng = game.distance(ch.hex, v.hex)
        terms = _light_at_terms(game, ch, weapon, v.hex, sight, rng)
        if terms is None:
            continue
        aspect = arc_of(v.hex, v.facing, ch.hex, stagger)
        terms[1:1] = [(f"{aspect.value} aspect", ASPECT_MODIFIER[aspect]), target_speed(game, v)]
        kept = tuple((k, n) for k, n in terms if n or k in ("range",) or k.endswith("TQ"))
        shots.append(GunShot(VEHICLE_TARGET + v.id, v.hex, rng, kept, aspect, 0))
    if not soft:
        return shots
    hexes: dict[Hex, int] = {}
    for c in game.opponents(ch):
        if c.hex is None or c.vehicle is not None or not c.revealed or c.dummy or c.hex == ch.hex:
            continue
        if _soft_target_hex(game, c.hex):
            hexes[c.hex] = hexes.get(c.hex, 0) + 1
    for h, n in hexes.items():
        if firing.is_melee_hex(game, h):
            continue
        sight = game.sight(ch, h)
        if not sight.clear:
            continue
        rng = game.distance(ch.hex, h)
        terms = _light_at_terms(game, ch, weapon, h, sight, rng)
        if terms is None:
            continue
        kept = tuple((k, v) for k, v in terms if v or k in ("range",) or k.endswith("TQ"))
        shots.append(GunShot(HEX_TARGET + str(h), h, rng, kept, None, n))
    return shots


def _fire_light_at(game: GameContext, ch: Character, order: Order) -> Generator[Decision, str, None]:
    """Fire Light AT (32.1, 32.3): loaded at the START of I2/I3 (a Panzerfaust always is) → a TQC
    to fire, I4 automatic; to hit, then :func:`hit_vehicle` (HEAT) or the 32.2 soft-target burst."""
    imp = game.state.flow.impulse
    rule = "C2 32.1-32.3"
    bazooka = _bazooka(game, ch)
    pf = _panzerfaust_held(game, ch)
    weapon = bazooka or pf

    def no(why: str) -> None:
        game.emit(
            "light_at_fire",
            f"{ch.name} does not fire the {weapon.name if weapon else 'Light AT weapon'}: {why}.",
            rule=rule,
            actor=ch.id,
            data={"fired": False, "reason": why},
        )

    if weapon is None:
        return no("he has no Light AT weapon")
    st = bazooka_state(game, ch) if bazooka is not None else None
    if st is not None and not (st["loaded"] and _was_loaded_at_start(game, st)):
        return no("the Bazooka was not loaded at the start of the Impulse")
    shots = light_at_shots(game, ch, weapon)
    if not shots:
        return no("no target in LOS and range")
    if ch.side is Side.FRIENDLY:
        from solo.core.decisions import DecisionKind

        key = yield game.decision(
            DecisionKind.FIRE_TARGET,
            f"{ch.name} ({weapon.name}): fire at",
            [
                *((s.key, f"{target_name(game, s.key)} ({s.range} hexes, {s.breakdown()})") for s in shots),
                ("hold", "Hold fire"),
            ],
            actor=ch.id,
        )
        if key == "hold":
            return no("the player holds fire")
        shot = next(s for s in shots if s.key == key)
    else:
        vehs = [s for s in shots if s.key.startswith(VEHICLE_TARGET)]
        if not vehs and pf is not None and not any(s.total > 0 for s in shots):
            return no("no target with a chance to hit")
        shot = _enemy_gun_pick(game, ch, vehs or shots, None, "Light AT target")
    if imp in (2, 3):
        tqc = morale.check(game, ch, CheckKind.TQC, purpose=f"fire the {weapon.name}? (C2 32.1)")
        if not tqc.passed:
            return no(f"TQC {tqc.roll} vs {tqc.target} failed (no penalty)")
    spotting.reveal(game, ch, reason=f"fired the {weapon.name}", rule="base-rules §9.8")
    data: dict[str, Any] = {"weapon": weapon.id, **shot.event_data(imp)}
    v = target_vehicle(game, shot.key)
    if v is not None:
        rolled, text = shot_at_vehicle(
            game,
            ch,
            v,
            shot,
            strike_of(game, weapon.id, Ordnance.HEAT),
            from_hex=ch.on_hex,
            purpose=f"{weapon.name}: {ch.name} -> {v.name} (modified TQ {shot.total}) (C2 32.1)",
            fires=f"{ch.name} fires the {weapon.name}",
        )
        data.update(rolled, aspect=shot.aspect.value if shot.aspect else None)
    else:
        rep = _heat_soft(game, ch, weapon, shot)
        data["soft"] = rep
        text = (
            f"{ch.name} fires the {weapon.name} at {shot.hex} ({shot.range} hexes): "
            f"{shot.breakdown()}; {rep['text']}"
        )
    spotting.alert_around(game, ch.hex, 10, f"{ch.name} fired the {weapon.name}", "base-rules §5.6 alert 1")
    if st is not None:
        st["loaded"] = False
        st["fired_at"] = list(_here(game))
        text += " The Bazooka is unloaded."
    else:
        ch.weapons = tuple(cw for cw in ch.weapons if cw.weapon != weapon.id)
        text += " The Panzerfaust is spent."
    game.emit("light_at_fire", text, rule=rule + ", 31.10", actor=ch.id, data=data)
    if pf is not None and st is None and ch.side is Side.ENEMY and ch.is_active:
        morale.duck_back(game, ch, reason="fired his Panzerfaust", rule="C2 32.3")


def _heat_frag(weapon: Weapon) -> tuple[int, int, int, int]:
    if weapon.grenade is not None:
        g = weapon.grenade
        return (g.near_dice, g.near_frag, g.far_dice, g.far_frag)
    return HEAT_FRAG.get(weapon.id, DEFAULT_HEAT_FRAG)


def _heat_soft(
    game: GameContext, ch: Character, weapon: Weapon, shot: GunShot, *, second: bool = False
) -> dict[str, Any]:
    """HEAT at a soft target (C2 32.2): 0 direct hit, <= TQ close, > TQ far, 9 scatter (a second 9 a dud).

    A direct hit kills one character picked at random (on Hide in Rocks or a Building: it lands
    close instead) and the others roll the far Frag dice; close: everyone rolls the near Frag
    dice; far: the far ones. Frag rolls ignore the target's terrain and order. Returns the report.
    """
    near_dice, near_frag, far_dice, far_frag = _heat_frag(weapon)
    h = shot.hex
    roll = game.dice.d10(f"{weapon.name} at {h}: {ch.name} (modified TQ {shot.total}) (C2 32.2)").total
    rep: dict[str, Any] = {"hex": str(h), "roll": roll, "frag": [], "second": second}
    if roll == 9:
        if second:
            rep["text"] = "d10 9 again: a dud, no effect."
            return rep
        d = game.dice.d6(f"{weapon.name} scatter from {h} (C2 32.2)").total
        new = game.board.neighbour_hex(h, d)
        rep["scatter"] = d
        if new is None or not any(c.vehicle is None and not c.dummy for c in game.state.at(new)):
            rep["text"] = (
                f"d10 9: misses, scattering in direction {d} to {new or 'off the map'}: no one there."
            )
            return rep
        inner = _heat_soft(game, ch, weapon, attrs.evolve(shot, hex=new), second=True)
        rep["scattered"] = inner
        rep["text"] = f"d10 9: misses, scattering in direction {d} to {new}, rolled again: {inner['text']}"
        return rep
    people = [c for c in game.state.at(h) if c.vehicle is None and not c.dummy and c.is_active]
    words: list[str] = []
    direct: Character | None = None
    if roll == 0 and people:
        pick = game.dice.choice([c.name for c in people], f"{weapon.name} direct hit on {h}: who? (C2 32.2)")
        direct = people[pick.index]
        cover = any(t in ("rocks", "building", "fortified_building") for t in firing._terrain_ids(game, h))
        if direct.order is not None and direct.order.order == "hide" and cover:
            words.append(f"d10 0: a direct hit on {direct.name}, who is on Hide in cover: it lands close")
            direct = None
            near = True
        else:
            wounds.kill(game, direct, reason=f"direct hit by {ch.name}'s {weapon.name}", rule="C2 32.2")
            words.append(f"d10 0: a direct hit, {direct.name} is killed")
            rep["killed"] = direct.id
            near = False
    else:
        near = roll_result(roll, shot.total).passed
        words.append(f"d10 {roll}: {'close' if near else 'far'}")
    dice, frag = (near_dice, near_frag) if near else (far_dice, far_frag)
    for c in people:
        if c is direct or not c.is_active:
            continue
        faces = [
            game.dice.d10(f"{weapon.name} fragment {i + 1}/{dice}: {c.name} (<= {frag})").total
            for i in range(dice)
        ]
        hits = sum(1 for f in faces if roll_result(f, frag).passed)
        rep["frag"].append({"character": c.id, "dice": dice, "frag": frag, "faces": faces, "hits": hits})
        words.append(f"{c.name} {dice} Frag dice at {frag}: {faces} → {hits} hit(s)")
        for _ in range(hits):
            if not c.is_active:
                break
            stamp = wounds.wound_draw(game, c, firer=ch)
            wounds.apply_wound(game, c, stamp, reason=f"{weapon.name} fragments")
    rep["near"] = near
    rep["text"] = "; ".join(words) + "."
    return rep


def panzerfaust_supply(game: GameContext) -> dict[str, Any]:
    """``{"level": int, "type": weapon id}`` of ``state.flags[PANZERFAUST]`` (C2 32.3).

    First read from ``game.scenario.panzerfaust`` (a mapping or an object with ``level`` and
    ``type``) if the scenario has it, else level :data:`PANZERFAUST_DEFAULT_LEVEL`.
    """
    flags = game.state.flags
    sup = flags.get(PANZERFAUST)
    if sup is None:
        spec = getattr(game.scenario, "panzerfaust", None)
        if isinstance(spec, dict):
            level, kind = spec.get("level", 0), spec.get("type", PANZERFAUST_DEFAULT_TYPE)
        elif spec is not None:
            level = getattr(spec, "level", 0)
            kind = getattr(spec, "type", PANZERFAUST_DEFAULT_TYPE)
        else:
            level, kind = PANZERFAUST_DEFAULT_LEVEL, PANZERFAUST_DEFAULT_TYPE
        sup = {"level": int(level), "type": str(getattr(kind, "value", kind))}
        flags[PANZERFAUST] = sup
    return sup


def _pf_barred(game: GameContext, ch: Character) -> str | None:
    """Why ``ch`` may not roll for a Panzerfaust (32.3), or None."""
    if ch.ldr >= OFFICER_MIN_LDR:
        return "an Officer"
    if ch.mg_role is not None or any(
        cw.weapon in game.data.weapons and game.data.weapons.get(cw.weapon).kind is WeaponKind.MG
        for cw in ch.weapons
    ):
        return "an MG crew member"
    if ch.has_skill(skills.SKILL_SNIPER):
        return "a Sniper"
    if _panzerfaust_held(game, ch) is not None:
        return "already holding a Panzerfaust"
    return None


def enemy_panzerfaust_check(game: GameContext, ch: Character) -> bool:
    """The 32.3 placement check when Enemy ``ch`` activates; returns True if he gets a Panzerfaust.

    With the Panzerfaust Level above 0, an Enemy on foot (not an Officer, MG crew, Sniper, or a
    man already holding one) with LOS to a Friendly vehicle whose theoretical chance to hit is 0
    or more (modified TQ >= 0, in range) makes a TQC. Passing: a Panzerfaust of the scenario's
    type is added to his weapons, the Level drops by one and he takes Fire Light AT. Emits a
    ``panzerfaust`` event when he rolls.
    """
    if ch.side is not Side.ENEMY or not ch.is_active or ch.hex is None or ch.vehicle is not None or ch.dummy:
        return False
    sup = panzerfaust_supply(game)
    if sup["level"] <= 0 or _pf_barred(game, ch) is not None:
        return False
    weapon = game.data.weapons.get(sup["type"])
    shots = [s for s in light_at_shots(game, ch, weapon, soft=False) if s.total >= 0]
    if not shots:
        return False
    best = max(shots, key=lambda s: s.total)
    tqc = morale.check(game, ch, CheckKind.TQC, purpose="Panzerfaust placement (C2 32.3)")
    data = {
        "level_before": sup["level"],
        "roll": tqc.roll,
        "target": tqc.target,
        "passed": tqc.passed,
        "vehicle": best.key,
        "chance": best.total,
    }
    if not tqc.passed:
        game.emit(
            "panzerfaust",
            f"{ch.name} sees {target_name(game, best.key)} (modified TQ {best.total}) but gets no "
            "Panzerfaust "
            f"(TQC {tqc.roll} vs {tqc.target}).",
            rule="C2 32.3",
            actor=ch.id,
            data=data,
        )
        return False
    sup["level"] -= 1
    ch.weapons = (*ch.weapons, CarriedWeapon(weapon.id, ch.tq))
    game.set_order(ch, "fire_light_at", source="Panzerfaust placement (C2 32.3)")
    game.emit(
        "panzerfaust",
        f"{ch.name} takes a {weapon.name} (TQC {tqc.roll} vs {tqc.target}; {target_name(game, best.key)} at "
        f"modified TQ {best.total}); Panzerfaust Level {sup['level']}; he takes Fire Light AT.",
        rule="C2 32.3",
        actor=ch.id,
        data={**data, "level_after": sup["level"], "weapon": weapon.id},
    )
    return True


def panzerfaust_order(game: GameContext, ch: Character) -> bool:
    """At the start of the Enemy Orders Phase, an Enemy holding a Panzerfaust takes Fire Light AT if a
    Friendly vehicle (or a Spotted Friendly in a Building, Rubble, Rocks, Abbey or Fountain hex) is
    in LOS and range with a chance to hit above 0 (C2 32.3). Returns True if the order was given."""
    if ch.side is not Side.ENEMY or not ch.is_active:
        return False
    weapon = _panzerfaust_held(game, ch)
    if weapon is None:
        return False
    shots = [s for s in light_at_shots(game, ch, weapon) if s.total > 0]
    if not shots:
        return False
    game.set_order(ch, "fire_light_at", source="holds a Panzerfaust (C2 32.3)")
    best = max(shots, key=lambda s: s.total)
    game.emit(
        "enemy_order",
        f"{ch.name} holds a {weapon.name} and sees {target_name(game, best.key)} (modified TQ {best.total}): "
        "Fire Light AT.",
        rule="C2 32.3",
        actor=ch.id,
        data={"order": "fire_light_at", "target": best.key, "chance": best.total},
    )
    return True


def panzerfaust_pickup(game: GameContext, ch: Character) -> bool:
    """A man ending his activation on a dropped Panzerfaust tries to pick it up with a TQC (32.3).

    Dropped: carried by a man on that hex who is no longer active. Not when opponents share the
    hex; Enemies: not Officers, MG crews, Snipers or holders; Friendlies: not with a Heavy or Very
    Heavy weapon, nor holding one [house]. Returns True if he picked it up.
    """
    if not ch.is_active or ch.hex is None or ch.vehicle is not None or ch.dummy:
        return False
    h = ch.hex
    if any(c.side is not ch.side and c.is_active for c in game.state.at(h)):
        return False
    if ch.side is Side.ENEMY:
        if _pf_barred(game, ch) is not None:
            return False
    else:
        heavy = any(
            cw.weapon in game.data.weapons
            and (
                game.data.weapons.get(cw.weapon).has_flag(WeaponFlag.HEAVY)
                or game.data.weapons.get(cw.weapon).has_flag(WeaponFlag.VERY_HEAVY)
            )
            for cw in ch.weapons
        )
        if heavy or _panzerfaust_held(game, ch) is not None:
            return False
    owner = next(
        (
            c
            for c in game.state.characters.values()
            if c.hex == h and not c.is_active and _panzerfaust_held(game, c) is not None
        ),
        None,
    )
    if owner is None:
        return False
    pf = _panzerfaust_held(game, owner)
    assert pf is not None
    tqc = morale.check(game, ch, CheckKind.TQC, purpose=f"pick up the {pf.name} (C2 32.3)")
    if tqc.passed:
        owner.weapons = tuple(cw for cw in owner.weapons if cw.weapon != pf.id)
        ch.weapons = (*ch.weapons, CarriedWeapon(pf.id, ch.tq))
    game.emit(
        "panzerfaust",
        f"{ch.name} {'picks up' if tqc.passed else 'fails to pick up'} the {pf.name} dropped by {owner.name} "
        f"(TQC {tqc.roll} vs {tqc.target}).",
        rule="C2 32.3",
        actor=ch.id,
        data={"pickup": tqc.passed, "from": owner.id, "weapon": pf.id, "roll": tqc.roll},
    )
    return tqc.passed
