"""The Enemy's fire: its target and its weapon (13.0; C2 23.2, 30.1), and the Sniper (C2 24.1).

Every function takes the :class:`~solo.engine.game.Game` first. :func:`fire_options` scores every
Spotted, targetable Friendly by the modified WS ``ch`` would fire at (base-rules §10);
:func:`choose_fire_target` (:func:`choose_fire`) takes the easiest to hit, then the nearest, then
a random pick, and holds fire on a lone Friendly trained medic on a passed TQ+2 check (C2 30.1;
freely once an Enemy trained medic is down, C2 30.2); :func:`choose_enemy_weapon` picks the
weapon [house] ("Enemy weapon", base-rules §10); the fire step asks :func:`choose_enemy_fire`
for both from one scoring pass. :func:`sniper_aims`: a Sniper holds his
Impulse 2 shot for +2 WS on Impulse 4 (C2 24.1).

May import: :mod:`~solo.enemy.order_lookup` (the TQ Check), :mod:`solo.rules`, :mod:`solo.data`,
:mod:`solo.core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from solo.core.hexes import Hex, line
from solo.data.orders import Order, OrderFlag
from solo.data.tables import CheckKind, MoraleState
from solo.data.weapons import Weapon, WeaponFlag, WeaponKind
from solo.enemy.order_lookup import _tqc
from solo.rules.fire_action import SNIPER_AIM
from solo.rules.state import AmmoState, Character, Side

if TYPE_CHECKING:
    from solo.rules.context import GameContext


# ---------------------------------------------------------------------------
# Constants (rule values; [house] where the rules give none)

MEDIC_TARGET_TQ_BONUS = 2
"""C2 30.1: an Enemy fires on a Friendly trained medic only if he fails a TQ+2 roll."""
SNIPER_BONUS = 2
"""C2 24.1 Sniper: +2 WS to the Aimed Fire of Impulse 4."""
SNIPER_RANGE = 3
"""C2 24.1: the Sniper aims when the nearest Spotted Friendly is this many hexes or more away."""
ENEMY_MEDIC_DOWN = "enemy_trained_medic_down"
"""``state.flags`` key set (by the wound code) once an Enemy trained medic is killed or Badly
wounded: from then on Enemies fire on Friendly trained medics freely (C2 30.2)."""
_THROWN_KINDS = (WeaponKind.GRENADE, WeaponKind.SMOKE_GRENADE, WeaponKind.RIFLE_GRENADE)
_NOT_FIRED_BY_ENEMY = (*_THROWN_KINDS, WeaponKind.KNIFE, WeaponKind.LIGHT_AT, WeaponKind.MAIN_GUN)
"""[house] Weapons an Enemy never picks for a fire action at a man: thrown (they have their own
orders, §12), the knife (C2 24.1: an Enemy uses Knife Expert only in melee), light AT and guns
(kept for vehicles, C2 32)."""


# ---------------------------------------------------------------------------
# Target choice for Enemy fire (13.0; C2 23.2, 30.1)


@attrs.frozen
class FireOption:
    """One target an Enemy could fire at, with the weapon and the modified WS it would get."""

    target: Character
    weapon: str
    range: int
    modified_ws: int
    parts: dict[str, int]
    """The modified WS term by term: ``ws``, ``range``, ``chart``, ``smoke``, ``order``,
    ``wounds``, ``morale``, ``sniper``."""


def fire_options(game: GameContext, ch: Character, weapon_id: str | None = None) -> list[FireOption]:
    """Every Spotted, targetable Friendly ``ch`` could fire at, with its modified WS (base-rules §10).

    Targetable: active (not incapacitated, C2 23.3), Spotted, not in a melee hex
    (C2 23.2), in LOS (:meth:`Game.sight`), in range and not in an NA band of the
    weapon. With ``weapon_id`` None each target is scored with ``ch``'s best
    weapon for it (:func:`choose_enemy_weapon`). Modified WS = WS + range band +
    fire chart cell (the most protective of the target hex's terrain, overlays
    and the hexside the line enters by, in the column of the target's order
    fire group; not for Suppressive Fire) + smoke on the line + the firer's
    order, wounds and morale (+ Sniper on Impulse 4). Other modifiers (cards,
    night, weather, wire...) are left to the combat code: they do not change
    the ranking. Dummies never fire (empty list). Occupants of vehicles are
    targets only when :func:`solo.rules.vehicles.targets.is_individual_target` allows
    (C2 31.10.31).
    """
    if ch.dummy or ch.hex is None or not ch.is_active:
        return []
    weapons = [game.data.weapons.get(weapon_id)] if weapon_id is not None else _fire_weapons(game, ch)
    if not weapons:
        return []
    melee = _melee_hexes(game)
    out: list[FireOption] = []
    order = game.order_def(ch)
    for f in game.opponents(ch):
        if not f.revealed or f.hex in melee:
            continue
        if f.vehicle is not None:  # C2 31.10.31: riders only as exposed individual targets
            from solo.rules.vehicles import targets as vehicle_targets

            if not vehicle_targets.is_individual_target(game, f, ch, order):
                continue
        rng = game.distance(ch.on_hex, f.on_hex)
        usable = [w for w in weapons if w.band_modifier(rng) is not None]
        if not usable:
            continue
        sight = game.sight(ch, f.on_hex, target=f)
        if not sight.clear:
            continue
        out.append(_best_option(ch, f, usable, rng, _target_parts(game, ch, f, order, sight.modifier)))
    return out


def choose_fire_target(game: GameContext, ch: Character, weapon_id: str | None = None) -> Character | None:
    """The Friendly Enemy ``ch`` fires at (13.0; C2 23.2, 30.1), or None if there is none.

    Among :func:`fire_options`: the best modified WS (easiest to hit), then the
    nearest, then a random pick (logged through ``game.dice.choice``). A Friendly
    trained medic is a target only when there is no other and ``ch`` fails a
    TQC at TQ+2 (a Berserk man at his plain TQ; C2 30.1), unless an Enemy
    trained medic has been killed or Badly wounded (``state.flags``
    ``"enemy_trained_medic_down"``, C2 30.2). ``weapon_id`` None scores each
    target with ``ch``'s best weapon for it; pair with :func:`choose_enemy_weapon`.
    Emits a ``fire_target`` event naming the winner and why.
    """
    pick = choose_fire(game, ch, weapon_id)
    return pick.target if pick is not None else None


def choose_enemy_fire(game: GameContext, ch: Character) -> tuple[Character, str] | None:
    """The Friendly Enemy ``ch`` fires at and the weapon he fires with (13.0; C2 23.2, 30.1; [house]
    weapon), or None: :func:`choose_fire_target`, then :func:`choose_enemy_weapon` for that target,
    in one scoring pass (the weapon :func:`fire_options` scored the target with is the one
    ``choose_enemy_weapon`` picks for him). Emits the ``fire_target`` event."""
    pick = choose_fire(game, ch)
    return (pick.target, pick.weapon) if pick is not None else None


def choose_fire(game: GameContext, ch: Character, weapon_id: str | None = None) -> FireOption | None:
    """As :func:`choose_fire_target`, returning the whole :class:`FireOption` (target, weapon, WS)."""
    options = fire_options(game, ch, weapon_id)
    if not options:
        return None
    free_medics = bool(game.state.flags.get(ENEMY_MEDIC_DOWN))
    pool = [o for o in options if free_medics or not o.target.trained_medic]
    rules = "13.0, C2 23.2"
    if not pool:  # C2 30.1: only Friendly trained medics in sight
        berserk = ch.morale is MoraleState.BERSERK
        tq = ch.effective_tq + (0 if berserk else MEDIC_TARGET_TQ_BONUS)
        roll = game.dice.d10(f"TQC: {ch.name} holds fire on a trained medic? (C2 30.1)")
        out = game.data.checks.resolve(CheckKind.TQC, roll.total, tq)
        verdict = "passed: he holds his fire" if out.passed else "failed: he fires on the medic"
        game.emit(
            "fire_target",
            f"{ch.name} sees only a trained medic; TQC rolled {out.roll} vs "
            f"{'TQ' if berserk else 'TQ+2'} {tq}: {verdict} (C2 30.1).",
            rule="C2 30.1",
            actor=ch.id,
            data={
                "check": {"kind": "tqc", "target": tq, "roll": out.roll, "passed": out.passed},
                "target": None if out.passed else [o.target.id for o in options],
            },
        )
        if out.passed:
            return None
        pool = options
        rules += ", C2 30.1"
    best_ws = max(o.modified_ws for o in pool)
    easiest = [o for o in pool if o.modified_ws == best_ws]
    nearest = min(o.range for o in easiest)
    tied = [o for o in easiest if o.range == nearest]
    chosen = tied[0]
    how = "easiest to hit"
    if len(easiest) > 1:
        how += ", then nearest"
    if len(tied) > 1:
        pick = game.dice.choice(
            [o.target.name for o in tied], f"{ch.name}: fire target among equals (C2 23.2)"
        )
        chosen = tied[pick.index]
        how += ", then a random pick"
    w = game.data.weapons.get(chosen.weapon)
    terms = "".join(f" {k} {v:+d}" for k, v in chosen.parts.items() if k != "ws" and v)
    game.emit(
        "fire_target",
        f"{ch.name} picks {chosen.target.name} at {chosen.target.hex} ({chosen.range} hexes) with the "
        f"{w.name}: modified WS {chosen.modified_ws} (WS {chosen.parts['ws']}{terms}); "
        f"{how} of {len(pool)} target{'s' if len(pool) != 1 else ''} ({rules}).",
        rule=rules,
        actor=ch.id,
        data={
            "target": chosen.target.id,
            "weapon": chosen.weapon,
            "modified_ws": chosen.modified_ws,
            "range": chosen.range,
            "parts": dict(chosen.parts),
            "how": how,
            "options": [(o.target.id, o.weapon, o.modified_ws, o.range) for o in pool],
        },
    )
    return chosen


def choose_enemy_weapon(game: GameContext, ch: Character, target: Character | None = None) -> str | None:
    """The weapon Enemy ``ch`` fires with: best modified WS, ties to the first listed [house].

    With a ``target``: the best weapon against him. Without: the weapon of the
    best (modified WS, then nearest) of :func:`fire_options` over every target,
    so that :func:`choose_fire_target` can then pick the target for it (no dice,
    no event). Only weapons that can fire at the range (not NA, within max
    range); never thrown weapons, the knife, light AT or guns (see
    ``_NOT_FIRED_BY_ENEMY``); on No Ammo only pistols and weapons without
    ammunition (10.10). Returns the weapon id, or None if none can fire
    (base-rules §10 "Enemy weapon").
    """
    if ch.dummy or ch.hex is None:
        return None
    if target is None:
        options = fire_options(game, ch)
        if not options:
            return None
        order = {cw.weapon: i for i, cw in enumerate(ch.weapons)}
        best_opt = min(options, key=lambda o: (-o.modified_ws, o.range, order.get(o.weapon, 99)))
        return best_opt.weapon
    if target.hex is None:
        return None
    rng = game.distance(ch.hex, target.hex)
    usable = [w for w in _fire_weapons(game, ch) if w.band_modifier(rng) is not None]
    if not usable:
        return None
    sight = game.sight(ch, target.hex, target=target)
    parts = _target_parts(game, ch, target, game.order_def(ch), sight.modifier)
    return _best_option(ch, target, usable, rng, parts).weapon


def _fire_weapons(game: GameContext, ch: Character) -> list[Weapon]:
    out = []
    for cw in ch.weapons:
        w = game.data.weapons.get(cw.weapon)
        if w.kind in _NOT_FIRED_BY_ENEMY or w.rof is None:
            continue
        if ch.ammo is AmmoState.NO and not (w.has_flag(WeaponFlag.PISTOL) or w.has_flag(WeaponFlag.NO_AMMO)):
            continue
        out.append(w)
    return out


def _target_parts(
    game: GameContext, ch: Character, target: Character, order: Order | None, smoke: int
) -> dict[str, int]:
    """The terms of the modified WS that do not depend on the weapon: ``chart``, ``smoke``,
    ``order``, ``wounds``, ``morale``, ``sniper`` (in that order; ``order`` is ``ch``'s order)."""
    chart = 0
    if order is None or not order.has_flag(OrderFlag.IGNORES_FIRE_CHART):
        t_order = game.order_def(target) or game.data.orders.get("hide")
        chart = _fire_chart(game, ch.on_hex, target.on_hex, t_order.fire_group or 0)
    return {
        "chart": chart,
        "smoke": smoke,
        "order": (order.ws_modifier or 0) if order is not None else 0,
        "wounds": ch.wound_penalty,
        "morale": game.data.checks.morale(ch.morale).fire_ws,
        "sniper": SNIPER_BONUS if ch.acted.get(SNIPER_AIM) and game.state.flow.impulse == 4 else 0,
    }


def _best_option(
    ch: Character, target: Character, usable: list[Weapon], rng: int, fixed: dict[str, int]
) -> FireOption:
    """The :class:`FireOption` of the weapon of ``usable`` (not empty, each able to fire at ``rng``)
    with the best modified WS, ties to the first; ``fixed``: :func:`_target_parts`."""
    base = sum(fixed.values())
    best: tuple[int, Weapon, int, int] | None = None
    for w in usable:
        ws = ch.effective_tq if w.ws_from_tq else next((c.ws for c in ch.weapons if c.weapon == w.id), 0)
        band = w.band_modifier(rng) or 0
        total = ws + band + base
        if best is None or total > best[0]:
            best = (total, w, ws, band)
    assert best is not None
    total, w, ws, band = best
    return FireOption(target, w.id, rng, total, {"ws": ws, "range": band, **fixed})


def _fire_chart(game: GameContext, frm: Hex, to: Hex, group: int) -> int:
    """The most protective fire chart cell of the target hex (terrain, overlays, entry hexside; §9 5, §10)."""
    charts = game.data.charts
    board = game.board
    rows = [board.terrain_of(to).chart_row, *(o.chart_row for o in board.overlays_of(to))]
    if frm != to:
        steps = line(frm, to, board.map.stagger)
        if len(steps) >= 2:
            for h in steps[-2]:
                feature = board.hexside_feature(h, to)
                if feature is not None:
                    rows.append(board.terrain_table[feature].chart_row)
    return min(charts.fire_cell(r, group).modifier for r in rows)


def _melee_hexes(game: GameContext) -> dict[Hex, None]:
    by_side: dict[Side, dict[Hex, None]] = {Side.FRIENDLY: {}, Side.ENEMY: {}}
    for c in game.state.active():
        by_side[c.side][c.on_hex] = None
    return {h: None for h in by_side[Side.FRIENDLY] if h in by_side[Side.ENEMY]}


# ---------------------------------------------------------------------------
# Sniper (C2 24.1)


def sniper_aims(game: GameContext, ch: Character) -> bool:
    """C2 24.1: does an Enemy Sniper hold his Impulse 2 shot to fire at +2 on Impulse 4?

    Called at the start of his activation on Impulse 2. With the ``sniper``
    skill, an Aimed Fire order, and the nearest Spotted Friendly 3 or more hexes
    away, he rolls a TQC (effective TQ); on a pass he does not fire this
    Impulse and ``ch.acted["sniper_aim"]`` gives +2 WS to his Impulse 4 fire
    (counted by :func:`fire_options`). Returns True when he aims.
    """
    if game.state.flow.impulse != 2 or not ch.has_skill("sniper") or ch.hex is None:
        return False
    if ch.order is None or ch.order.order != "aimed_fire":
        return False
    spotted = [f for f in game.opponents(ch) if f.revealed]
    if not spotted:
        return False
    nearest = min(game.distance(ch.on_hex, f.on_hex) for f in spotted)
    if nearest < SNIPER_RANGE:
        return False
    out = _tqc(game, ch, ch.effective_tq, "Sniper: hold the Impulse 2 shot (C2 24.1)")
    if out.passed:
        ch.acted[SNIPER_AIM] = True
    game.emit(
        "sniper",
        f"{ch.name} (Sniper, Aimed Fire; nearest Spotted Friendly {nearest} hexes): TQC rolled {out.roll} "
        f"vs TQ {out.target}: "
        + ("passed: he holds his fire for +2 WS on Impulse 4" if out.passed else "failed: he fires as usual")
        + " (C2 24.1).",
        rule="C2 24.1",
        actor=ch.id,
        data={"roll": out.roll, "target": out.target, "passed": out.passed, "nearest": nearest},
    )
    return out.passed


__all__ = [
    "ENEMY_MEDIC_DOWN",
    "FireOption",
    "choose_enemy_fire",
    "choose_enemy_weapon",
    "choose_fire",
    "choose_fire_target",
    "fire_options",
    "sniper_aims",
]
