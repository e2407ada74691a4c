"""Checks, morale, wounds, fire and melee (base-rules §7, §8, §10, §11; C2 23.1-23.4, 24.1, 26.0,
27.5, 27.7, 28.1, 30.0-30.1).

Public API (every function takes the :class:`~solo.engine.game.Game` first):

* checks and morale: :func:`check` (MC, RC, WMC, TQC), :func:`morale_check` (a failed MC
  gives Duck Back except in melee), :func:`change_morale`, :func:`duck_back`;
* wounds: :func:`wound_draw` (Tough, Deadly), :func:`apply_wound`, :func:`kill`;
* fire: :func:`fire_step` (the engine's F step), :func:`fire_solution` (the modified WS of one
  weapon at one target, with its breakdown), :func:`fire_options` (every legal weapon and
  target), :func:`resolve_fire` (one fire action at a chosen target);
* melee: :func:`melee_step` (the engine's X step), :func:`melee_tq`;
* fire helpers: :func:`usable_weapons`, :func:`fire_cell`, :func:`target_group`,
  :func:`same_building`;
* state helpers: :func:`reveal`, :func:`remove_dummy`, :func:`is_melee_hex`,
  :func:`known_at_impulse_start`, :func:`impulse_start`.

Known at the start of the Impulse (Aimed Fire, base-rules §10): :func:`impulse_start` takes a
snapshot of who is Known (Enemy) or Spotted (Friendly). Until the engine calls it itself, this
module installs a listener on ``game.listeners`` the first time one of its functions runs,
which takes the snapshot on every ``"impulse"`` event (emitted before the Impulse-start
spotting). For an Impulse without a snapshot, a character counts as Known at its start if he
is revealed now and was not revealed in this Impulse: not by :func:`reveal`
(``ch.acted["revealed_at"]``) and not by a ``reveal`` or successful ``spot`` event of this
Impulse.

Vehicles (C2 31.8-31.10, 32) go through :mod:`solo.rules.vehicles.combat`: occupants of vehicles are
not ordinary targets (only exposed crew under Aimed Fire,
:func:`solo.rules.vehicles.combat.is_individual_target`, on the Hatch line); vehicles themselves
are targets keyed ``"vehicle:<id>"``
(:func:`solo.rules.vehicles.combat.vehicle_fire_solutions`, resolved by
:func:`solo.rules.vehicles.combat.resolve_fire_at_vehicle`); men firing from a seat obey its arcs and the
vehicle's speed; the F steps of Load/Fire Light AT are :func:`solo.rules.vehicles.combat.light_at_step`.

Other modules' hooks, each used only if present: ``solo.enemy.orders.choose_fire_target`` /
``choose_enemy_weapon`` (Enemy target and weapon, checked for legality here),
``solo.enemy.orders.sniper_aims`` (C2 24.1), ``solo.enemy.orders.assign_on_activation`` (C2 23.5),
``solo.rules.spotting.alert_near`` (alerts 1, 3, 7), ``solo.rules.spotting.remove_dummy``,
``solo.rules.movement.move_steps`` (Run & Gun, 10.04), ``solo.rules.effects.ws_bonus`` (card WS).

Friendly fire-target decisions (``DecisionKind.FIRE_TARGET``): one option per legal target,
keyed by the target's character id, plus ``"hold"`` (hold fire). If the firer has more than one
weapon that can fire, keys are ``"<target id>|<weapon id>"``. Beyond 5 hexes, a hex holding
several legal targets is one option keyed ``"hex:CC.RR"`` (or ``"hex:CC.RR|<weapon id>"``)
and the target is picked at random (C2 23.2). Melee targets reuse ``FIRE_TARGET`` with
character ids and no ``"hold"`` (an X step always strikes).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import attrs

from solo.data.tables import (
    CheckKind,
    FireCell,
    MoraleState,
    Order,
    OrderFlag,
    Weapon,
    WeaponFlag,
    WeaponKind,
)
from solo.rules import spotting
from solo.rules.morale import change_morale, check, duck_back, morale_check
from solo.rules.skills import SKILL_DEADLY, SKILL_DODGE, SKILL_DODGE_2, SKILL_KNIFE_EXPERT, SKILL_SNIPER
from solo.rules.spotting import _tracker, known_at_impulse_start, reveal
from solo.rules.state import AmmoState, CarriedWeapon, Character, Side, Status
from solo.rules.wounds import apply_wound, wound_draw

if TYPE_CHECKING:
    from solo.core.decisions import Decision
    from solo.core.hexes import Hex
    from solo.rules.context import GameContext
    from solo.rules.los import Sight


# ---------------------------------------------------------------------------
# Constants: skills, orders, modifiers


SNIPER_BONUS = 2
"""C2 24.1: Sniper WS bonus on Impulse 4."""
SNIPER_MIN_RANGE = 3
"""C2 24.1: an Enemy sniper holds his Impulse 2 fire only if the nearest Spotted Friendly is this far."""
DODGE = {SKILL_DODGE_2: -2, SKILL_DODGE: -1}
"""C2 24.1: WS modifier against a dodger on Evade (the larger applies)."""
NIGHT_FIRE = -2
"""§15: fire beyond :data:`CLOSE_RANGE` hexes at night."""
CLOSE_RANGE = 2
"""§15, C2 28.1: night and weather fire modifiers apply beyond this many hexes."""
WEATHER_FIRE = {"rain": -1, "heavy_rain": -1, "mist": -1, "fog": -2}
"""C2 28.1: fire beyond :data:`CLOSE_RANGE` hexes unless both men are in the same building."""
BELT_WITHOUT_ASSISTANT = -3
"""14.3 (via C2 31.9.4 b): a belt-fed MG fired without an assistant."""
WIRE_FIRE = -1
"""C2 27.7: firing from a Barbed Wire hex."""
BARBED_WIRE = "barbed_wire"
"""Terrain id of the Barbed Wire overlay (C2 27.7)."""
BUILDING_TERRAIN = ("building", "fortified_building", "abbey_exterior", "abbey_interior")
"""Terrain ids that are buildings for the night (§15, §20 Q21) and weather (C2 28.1) exceptions."""
MULTI_TARGET_RANGE = 5
"""C2 23.2: beyond this many hexes a Friendly firer's target in a crowded hex is random; a hex
with both sides can be fired at only from this close."""
NATURAL_0_FIRE_CAP = MoraleState.AGGRESSIVE
"""§7: a natural-0 fire hit gives the firer +1 morale, up to Aggressive."""
MEDIC_FIRE_TQ = 2
"""C2 30.1: an Enemy fires on a Friendly trained medic only if he fails a TQC at TQ + 2."""

FIRE_WEAPON_KINDS = (WeaponKind.RIFLE, WeaponKind.SMG, WeaponKind.PISTOL, WeaponKind.MG, WeaponKind.KNIFE)
"""Weapons a fire order fires at characters (grenades are thrown, §12; AT weapons and guns are
vehicle rules)."""
DEFENDER_ORDERS = ("hide", "rally", "reload", "medical_aid", "carry_drag", "plan")
"""§11: +2 to the melee TQ of an attack on a man with one of these orders."""
MELEE_UNSEEN = 2
"""§11: an attacker who is Unknown (Enemy) or unspotted (Friendly)."""
MELEE_DEFENDER = 2
"""§11: a defender on one of :data:`DEFENDER_ORDERS`."""
KNIFE_EXPERT_MELEE = 1
"""C2 24.1: Knife Expert in melee."""
LIGHT_AT_ORDERS = ("load_light_at", "fire_light_at")
"""C2 32.1: orders whose F steps load or fire a Light AT weapon (:mod:`solo.rules.vehicles.combat`)."""

HOUSE_RULES: dict[str, str] = {
    "tough_automatic": "Tough and Deadly choices are made for the player: Tough keeps the least "
    "damaging card, Deadly (a Friendly firer) the most damaging one (C2 24.1; the other choice "
    "is never better).",
    "deadly_fire_only": "Deadly applies to fire hits, not to melee (C2 24.1 'on a successful hit').",
    "no_ammo_side_arms": "Pistols and the thrown knife never lose ammunition, and so still fire "
    "when the character is on No Ammo.",
    "duck_back_needs_order": "Duck Back replaces an order; a character holding none (a Waiting "
    "enemy) is not given one.",
    "melee_no_duck_back_on_close_call": "A Close Call in melee gives the MC without Duck Back "
    "(base-rules §7: a failed MC gives Duck Back except in melee).",
    "hexside_on_spine": "When the line reaches the target's hex along a hexspine, a hexside "
    "feature counts only if both hexsides there have one (the less protective is used).",
    "same_building": "The same building (C2 28.1) is a connected group of Building, Fortified "
    "Building or Abbey hexes.",
    "medic_flee_directions": "A fleeing trained medic's d6 is read on the map directions; if "
    "that hex cannot be entered he stays (and still never melees).",
    "mg_takeover_ws": "A comrade taking over a belt-fed MG (14.3) fires it with the WS of his first weapon.",
    "melee_natural_0": "In melee a natural 0 succeeds even against a negative melee TQ.",
    "berserk_medic_tqc": "A Berserk enemy's C2 30.1 check is an unmodified TQC.",
}
"""[house] Decisions this module makes where the rules are silent (listed for the README)."""


# ---------------------------------------------------------------------------
# Known at the start of the Impulse (Aimed Fire, base-rules §10)


# ---------------------------------------------------------------------------
# Small state helpers


def is_melee_hex(game: GameContext, h: Hex) -> bool:
    """Whether ``h`` holds active characters of both sides (no fire into it, C2 23.2)."""
    sides = {c.side for c in game.state.at(h) if c.is_active}
    return len(sides) == 2


# ---------------------------------------------------------------------------
# Checks and morale (base-rules §7)


# ---------------------------------------------------------------------------
# Wounds (base-rules §8)


# ---------------------------------------------------------------------------
# Fire (base-rules §10)


@attrs.frozen
class FireSolution:
    """One weapon aimed at one target: the modified WS and how it was made (base-rules §10)."""

    firer: str
    target: str
    weapon: str
    """Weapon id."""
    range: int
    """Hexes."""
    ws: int
    """The firer's WS for the weapon (the TQ for a thrown knife, C2 24.1)."""
    modifiers: tuple[tuple[str, int], ...]
    """Every modifier applied, by name, in the order of base-rules §10 (range first)."""
    rof: int
    """Attacks in the fire action (StG 44 by range, C2 26.0)."""
    cell: FireCell | None
    """The fire chart cell used; None when the chart is ignored (Suppressive Fire)."""
    chart_row: str | None
    group: int
    """The target's fire group G0-G6."""
    total: int
    """The modified WS: ``ws`` plus every modifier."""

    @property
    def morale_only(self) -> bool:
        """An (M) cell: a hit causes only an MC."""
        return self.cell is not None and self.cell.morale_only

    def breakdown(self) -> str:
        """``WS 5 +2 range -2 chart(building/G2) = 5``."""
        parts = " ".join(f"{v:+d} {k}" for k, v in self.modifiers if v or k == "range")
        return f"WS {self.ws} {parts} = {self.total}"


def _terrain_ids(game: GameContext, h: Hex) -> tuple[str, ...]:
    m = game.board.map
    return (m.terrain[h], *m.overlays.get(h, ()))


def _is_building(game: GameContext, h: Hex) -> bool:
    return any(t in BUILDING_TERRAIN for t in _terrain_ids(game, h))


def same_building(game: GameContext, a: Hex, b: Hex) -> bool:
    """Whether ``a`` and ``b`` lie in one building: connected Building/Abbey hexes (C2 28.1) [house]."""
    if not (_is_building(game, a) and _is_building(game, b)):
        return False
    board = game.board
    goal = board.index[b]
    start = board.index[a]
    seen = {start}
    frontier = [start]
    while frontier:
        i = frontier.pop()
        if i == goal:
            return True
        for n in board.neighbours[i][1:]:
            if n >= 0 and n not in seen and _is_building(game, board.hexes[n]):
                seen.add(n)
                frontier.append(n)
    return False


def _lit(game: GameContext, h: Hex) -> bool:
    return any(game.distance(x, h) <= 3 for x in game.state.markers.illuminated)


def _cell_key(cell: FireCell) -> tuple[int, int]:
    """Sort key: the more protective cell first (lower modifier; (M) before plain at a tie)."""
    return (cell.modifier, 0 if cell.morale_only else 1)


def target_group(game: GameContext, target: Character) -> int:
    """The fire group G0-G6 of ``target``'s order; no order: Hide, or Waiting for a Waiting enemy (§4)."""
    o = game.order_def(target)
    if o is not None and o.fire_group is not None:
        return o.fire_group
    default = "waiting" if target.side is Side.ENEMY and not target.alert else "hide"
    group = game.data.orders.get(default).fire_group
    assert group is not None
    return group


def _edge_rows(game: GameContext, firer_hex: Hex, target_hex: Hex) -> list[str]:
    """Chart rows of a hedge/wall/bocage hexside the line crosses into the target's hex (§9.5)."""
    board = game.board
    ia, ib = board.index[firer_hex], board.index[target_hex]
    top = board.hexside_top
    if not any(n >= 0 and ((ib, n) if ib < n else (n, ib)) in top for n in board.neighbours[ib][1:]):
        return []
    steps = game.los.line_indices(ia, ib)
    if len(steps) < 2:
        return []
    before = [i for i in steps[-2] if i >= 0]
    rows: list[str] = []
    for i in before:
        feature = board.hexside_feature(board.hexes[i], target_hex)
        if feature is None:
            return []  # a spine: both hexsides must carry a feature [house]
        rows.append(board.terrain_table[feature].chart_row)
    if len(rows) > 1:  # the less protective of the two
        charts = game.data.charts
        return [max(rows, key=lambda r: _cell_key(charts.fire_cell(r, 0)))]
    return rows


def fire_cell(game: GameContext, firer: Character, target: Character) -> tuple[FireCell, str, int]:
    """The fire chart cell for ``firer`` shooting at ``target``: (cell, row, group) (base-rules §10).

    Rows: the target hex's terrain (Abbey: inside or outside line by the firer's hex, C2 27.5),
    its cover overlays (foxhole in trees: the better, C2 27.6; barbed wire uses the other
    terrain, C2 27.7), and a hedge, wall or bocage hexside crossed into the hex; the most
    protective cell applies.
    """
    if target.vehicle is not None:  # an exposed crewman: the Hatch line (C2 31.8)
        from solo.rules.vehicles import combat as vehicle_combat

        return vehicle_combat.crew_fire_cell(game, target)
    board = game.board
    charts = game.data.charts
    h = target.hex
    assert h is not None and firer.hex is not None
    group = target_group(game, target)
    t = board.terrain_of(h)
    row = t.chart_row
    if t.abbey.value != "none":
        inside = board.abbey[board.index[firer.hex]] != 0
        row = "abbey_inside" if inside else "abbey_outside"
    rows = [row]
    overlays = board.map.overlays.get(h)
    if overlays:
        table = board.terrain_table
        rows.extend(table[o].chart_row for o in overlays if table[o].cover)
    rows.extend(_edge_rows(game, firer.hex, h))
    best = min(rows, key=lambda r: _cell_key(charts.fire_cell(r, group)))
    return charts.fire_cell(best, group), best, group


def _card_ws(game: GameContext, ch: Character) -> int:
    """This turn's card WS modifier (base-rules §10 row 6): :func:`solo.rules.effects.ws_bonus`."""
    from solo.rules import effects

    return int(effects.ws_bonus(game, ch))


def _assistant_present(game: GameContext, ch: Character) -> bool:
    """14.3: any other active same-side man in the firer's hex serves as assistant."""
    assert ch.hex is not None
    return any(
        c is not ch and c.side is ch.side and c.is_active and not c.dummy for c in game.state.at(ch.hex)
    )


def _is_aimed(order: Order) -> bool:
    return order.has_flag(OrderFlag.TARGET_KNOWN_AT_IMPULSE_START)


def _firer_mods(game: GameContext, firer: Character, order: Order) -> list[tuple[str, int]]:
    """The modifiers that do not depend on the target or weapon (order, wounds, morale, cards, wire)."""
    assert order.ws_modifier is not None and firer.hex is not None
    mods = [
        (f"order {order.name}", order.ws_modifier),
        ("wounds", firer.wound_penalty),
        (f"morale {firer.morale.value}", game.data.checks.morale(firer.morale).fire_ws),
        ("cards", _card_ws(game, firer)),
    ]
    if BARBED_WIRE in game.board.map.overlays.get(firer.hex, ()):
        mods.append(("firing from wire", WIRE_FIRE))
    if firer.vehicle is not None:  # firing from a vehicle: its speed, Direct Firing (C2 31.9, 31.11.2)
        from solo.rules.vehicles import combat as vehicle_combat

        mods.extend(vehicle_combat.seat_fire_modifiers(game, firer))
    return mods


def fire_solution(
    game: GameContext,
    firer: Character,
    target: Character,
    carried: CarriedWeapon,
    order: Order,
    *,
    sight: Sight | None = None,
) -> FireSolution | None:
    """The modified WS of ``firer``'s ``carried`` weapon at ``target`` under ``order`` (base-rules §10).

    Returns None if the weapon cannot fire there (range 0, beyond max range, an NA band, no
    ROF, no LOS). Does not check the target's legality (see :func:`fire_options`). Modifiers:
    range band; fire chart (not for Suppressive Fire); order; wounds; morale; cards; smoke and
    abbey on the line (13, C2 27.5); night -2 beyond 2 hexes (§15); weather (C2 28.1);
    belt-fed MG without assistant -3 (14.3); Sniper, Dodge (C2 24.1); scope (C2 26.0); firing
    from wire -1 (C2 27.7).
    """
    if firer.hex is None or target.hex is None or order.ws_modifier is None:
        return None
    return _solution(game, firer, target, carried, order, sight, _firer_mods(game, firer, order))


def _solution(
    game: GameContext,
    firer: Character,
    target: Character,
    carried: CarriedWeapon,
    order: Order,
    sight: Sight | None,
    firer_mods: list[tuple[str, int]],
) -> FireSolution | None:
    assert firer.hex is not None and target.hex is not None
    weapon = game.data.weapons.get(carried.weapon)
    rng = game.distance(firer.hex, target.hex)
    band = weapon.band_modifier(rng)
    rof = weapon.rof_at(rng)
    if band is None or rof is None:
        return None
    if sight is None:
        sight = game.sight(firer, target.hex, target=target)
    if not sight.clear:
        return None
    mods: list[tuple[str, int]] = [("range", band)]
    cell: FireCell | None = None
    row: str | None = None
    if order.has_flag(OrderFlag.IGNORES_FIRE_CHART):
        group = target_group(game, target)
    else:
        cell, row, group = fire_cell(game, firer, target)
        mods.append((f"chart {row}/G{group}", cell.modifier))
    mods.extend(firer_mods)
    mods.append(("smoke", sight.smoke))
    mods.append(("abbey", sight.abbey))
    if rng > CLOSE_RANGE:
        if game.scenario.night and not _lit(game, target.hex):
            both_in = _is_building(game, firer.hex) and _is_building(game, target.hex)
            mods.append(("night", 0 if both_in else NIGHT_FIRE))
        weather = WEATHER_FIRE.get(game.state.weather, 0)
        if weather and not same_building(game, firer.hex, target.hex):
            mods.append((f"weather {game.state.weather}", weather))
    if weapon.has_flag(WeaponFlag.BELT) and not _assistant_present(game, firer):
        mods.append(("no MG assistant", BELT_WITHOUT_ASSISTANT))
    if _is_aimed(order):
        if (
            firer.has_skill(SKILL_SNIPER)
            and game.state.flow.impulse == 4
            and 2 not in firer.acted.get("fired", ())
        ):
            mods.append(("sniper", SNIPER_BONUS))
        mods.append(("scope", weapon.aimed_modifier(rng)))
    if target.order is not None and target.order.order == "evade":
        for skill, value in DODGE.items():
            if target.has_skill(skill):
                mods.append((skill.replace("_", "-"), value))
                break
    kept = tuple((k, v) for k, v in mods if v or k == "range")
    ws = firer.tq if weapon.ws_from_tq else carried.ws
    return FireSolution(
        firer=firer.id,
        target=target.id,
        weapon=weapon.id,
        range=rng,
        ws=ws,
        modifiers=kept,
        rof=rof,
        cell=cell,
        chart_row=row,
        group=group,
        total=ws + sum(v for _, v in kept),
    )


def usable_weapons(game: GameContext, ch: Character) -> list[CarriedWeapon]:
    """The weapons ``ch`` can fire now: small arms (and, for a Friendly Knife Expert, the thrown
    knife), with ammunition unless they never lose it (base-rules §10, C2 24.1) [house]."""
    if ch.dummy or ch.trained_medic:
        return []
    weapons = game.data.weapons
    out: list[CarriedWeapon] = []
    for cw in ch.weapons:
        if cw.weapon not in weapons:
            continue
        w = weapons.get(cw.weapon)
        if w.kind not in FIRE_WEAPON_KINDS or w.rof is None:
            continue
        if w.kind is WeaponKind.KNIFE and not ch.has_skill(SKILL_KNIFE_EXPERT):
            continue
        if ch.ammo is AmmoState.NO and not _never_loses_ammo(w):
            continue
        out.append(cw)
    if (
        ch.side is Side.FRIENDLY
        and ch.has_skill(SKILL_KNIFE_EXPERT)
        and "knife" in weapons
        and not any(cw.weapon == "knife" for cw in ch.weapons)
    ):
        out.append(CarriedWeapon("knife", ch.tq))
    return out


def _never_loses_ammo(w: Weapon) -> bool:
    return w.has_flag(WeaponFlag.PISTOL) or w.has_flag(WeaponFlag.NO_AMMO)


def fire_options(game: GameContext, ch: Character, order: Order) -> list[FireSolution]:
    """Every legal (weapon, target) for a fire action of ``ch`` under ``order`` (base-rules §10).

    Targets: active opponents Known (Friendly fire) or Spotted (Enemy fire), in LOS and range;
    never the incapacitated (C2 23.3) or into a melee hex (C2 23.2); a hex with both sides
    only with Aimed Fire, ROF 1 and range <= 5 (C2 23.2 b); Aimed Fire needs a target Known
    at the start of the Impulse. Occupants of vehicles only as individual targets (C2 31.10.31);
    then the vehicles themselves (``"vehicle:<id>"``, C2 31.10); a man in a vehicle fires only
    within his seat's arcs and weapon kinds (C2 31.9). Order: weapons as carried, targets in
    roster order, then vehicles.
    """
    if ch.hex is None or not ch.is_active or order.ws_modifier is None:
        return []
    weapons = usable_weapons(game, ch)
    if not weapons:
        return []
    vc = None
    if game.state.vehicles:
        from solo.rules.vehicles import combat as vc

        if ch.vehicle is not None and vc.seat_fire_block(game, ch) is not None:
            return []
    aimed = _is_aimed(order)
    out: list[FireSolution] = []
    targets = []
    # Who stands where (melee hexes, C2 23.2), as side bits (1 Friendly, 2 Enemy; 3 both):
    # bit masks instead of sets of Side, whose enum hashing dominated this loop.
    active_sides: dict[Hex, int] = {}
    all_sides: dict[Hex, int] = {}
    active, incapacitated, friendly = Status.ACTIVE, Status.INCAPACITATED, Side.FRIENDLY
    for c in game.state.characters.values():
        h = c.hex
        status = c.status
        # c.on_map: active or incapacitated; riders make no melee hex.
        if h is not None and (status is active or status is incapacitated) and c.vehicle is None:
            bit = 1 if c.side is friendly else 2
            all_sides[h] = all_sides.get(h, 0) | bit
            if status is active:
                active_sides[h] = active_sides.get(h, 0) | bit
    for t in game.opponents(ch):
        if not t.revealed or t.dummy:
            continue
        if t.vehicle is not None and (vc is None or not vc.is_individual_target(game, t, ch, order)):
            continue
        if aimed and not known_at_impulse_start(game, t):
            continue
        assert t.hex is not None
        if active_sides.get(t.hex, 0) == 3:
            continue
        sight = game.sight(ch, t.hex, target=t)
        if sight.clear:
            targets.append((t, sight, all_sides.get(t.hex, 0) == 3))
    firer_mods = _firer_mods(game, ch, order)
    for cw in weapons:
        for t, sight, mixed in targets:
            if (
                vc is not None
                and ch.vehicle is not None
                and not vc.seat_may_fire(game, ch, game.data.weapons.get(cw.weapon), t.hex)
            ):
                continue
            sol = _solution(game, ch, t, cw, order, sight, firer_mods)
            if sol is None:
                continue
            if mixed and not (aimed and sol.rof == 1 and sol.range <= MULTI_TARGET_RANGE):
                continue
            out.append(sol)
    if vc is not None:
        out.extend(vc.vehicle_fire_solutions(game, ch, order, weapons, firer_mods))
    return out


def _is_vehicle_sol(sol: FireSolution) -> bool:
    """A solution aimed at a vehicle (``"vehicle:<id>"``, C2 31.10)."""
    return sol.target.startswith("vehicle:")


def _target_name(game: GameContext, sol: FireSolution) -> str:
    if _is_vehicle_sol(sol):
        from solo.rules.vehicles import combat as vehicle_combat

        return vehicle_combat.target_name(game, sol.target)
    return game.char(sol.target).name


def _pick_easiest(game: GameContext, ch: Character, sols: list[FireSolution], why: str) -> FireSolution:
    """Easiest to hit (best modified WS), then nearest, then random (C2 23.2, base-rules §10)."""
    best = max(s.total for s in sols)
    sols = [s for s in sols if s.total == best]
    near = min(s.range for s in sols)
    sols = [s for s in sols if s.range == near]
    if len(sols) == 1:
        return sols[0]
    names = [_target_name(game, s) for s in sols]
    pick = game.dice.choice(names, f"{ch.name}: random target among the easiest ({why}, C2 23.2)")
    return sols[pick.index]


def _local_enemy_choice(game: GameContext, ch: Character, sols: list[FireSolution]) -> FireSolution:
    """Enemy weapon (best modified WS, ties to the first carried) and target (§10; C2 23.2, 30.1)."""
    order_of = {cw.weapon: i for i, cw in enumerate(ch.weapons)}
    best_by_weapon: dict[str, int] = {}
    for s in sols:
        best_by_weapon[s.weapon] = max(best_by_weapon.get(s.weapon, -99), s.total)
    weapon = max(best_by_weapon, key=lambda w: (best_by_weapon[w], -order_of.get(w, 99)))
    mine = [s for s in sols if s.weapon == weapon]
    others = [s for s in mine if not game.char(s.target).trained_medic]
    return _pick_easiest(game, ch, others or mine, "enemy fire")


def _enemy_choice(game: GameContext, ch: Character, sols: list[FireSolution]) -> FireSolution | None:
    """The Enemy's weapon and target, or None when he holds his fire (a medic, C2 30.1).

    Through ``solo.enemy.orders.choose_fire_target(game, ch)`` and ``choose_enemy_weapon(game, ch, target)``
    when the AI offers them (they emit their own ``fire_target`` event and roll the C2 30.1 TQC);
    a choice that is not legal here (Aimed Fire at a target not Known at the Impulse start, a hex
    with both sides...) falls back to the local choice, with an event saying so. Without the AI
    functions: :func:`_local_enemy_choice` then the C2 30.1 TQC.
    """
    vehicle_sols = [s for s in sols if _is_vehicle_sol(s)]
    sols = [s for s in sols if not _is_vehicle_sol(s)]
    if not sols:  # [house] an Enemy fires at a vehicle only with no character target (C2 31.10)
        sol = _pick_easiest(game, ch, vehicle_sols, "enemy fire at a vehicle")
        _announce(game, ch, sol, "no character target: a vehicle, easiest to hit, then nearest")
        return sol
    target = game.enemy.choose_fire_target(game, ch)
    if target is None:
        if all(game.char(s.target).trained_medic for s in sols):
            return None  # the AI rolled the C2 30.1 TQC and holds fire
    else:
        weapon_id = game.enemy.choose_enemy_weapon(game, ch, target)
        mine = [s for s in sols if s.target == target.id]
        for s in mine:
            if s.weapon == weapon_id:
                return s
        if mine:
            return max(mine, key=lambda s: s.total)
    sol = _local_enemy_choice(game, ch, sols)
    _announce(game, ch, sol, "the AI's pick is not a legal target here; local choice")
    return sol


def _announce(game: GameContext, ch: Character, sol: FireSolution, how: str) -> None:
    game.emit(
        "fire_target",
        f"{ch.name} picks {_target_name(game, sol)} with the {game.data.weapons.get(sol.weapon).name} "
        f"(modified WS {sol.total}, {sol.range} hexes; {how}).",
        rule="13.0; C2 23.2",
        actor=ch.id,
        data={"target": sol.target, "weapon": sol.weapon, "modified_ws": sol.total, "how": how},
    )


SNIPER_AIM = "sniper_aim"
"""``ch.acted`` key set when an Enemy sniper holds his Impulse 2 shot (shared with solo.enemy.orders)."""


def _sniper_waits(game: GameContext, ch: Character, order: Order) -> bool:
    """C2 24.1: an Enemy sniper on Aimed Fire holds his Impulse 2 shot (for +2 on Impulse 4) if
    the nearest Spotted Friendly is 3+ hexes away and he passes a TQC (``solo.enemy.orders.sniper_aims``
    when offered)."""
    if not (
        ch.side is Side.ENEMY
        and ch.has_skill(SKILL_SNIPER)
        and _is_aimed(order)
        and game.state.flow.impulse == 2
        and ch.hex is not None
    ):
        return False
    return bool(game.enemy.sniper_aims(game, ch))


def _run_and_gun_move(game: GameContext, ch: Character, order: Order) -> Generator[Decision, str, None]:
    """10.04: an Enemy on Run & Gun with no target moves 1 hex instead (movement.move_steps)."""
    from solo.rules import movement

    game.emit(
        "run_and_gun",
        f"{ch.name} (Run & Gun) has no target and moves 1 hex instead.",
        rule="10.04",
        actor=ch.id,
    )
    movement.move_steps(game, ch, order.slots(game.state.flow.impulse), order=order)
    return
    yield  # pragma: no cover - a generator like the other steps


def fire_step(game: GameContext, ch: Character, order: Order) -> Generator[Decision, str, None]:
    """An F step: one fire action (§10), or one throw for a grenade order (§12, via effects.throw).

    Enemy firers choose through ``solo.enemy.orders.choose_enemy_weapon``/``choose_fire_target`` when
    present (checked for legality), else easiest, nearest, random (C2 23.2); Friendly firers
    get a ``FIRE_TARGET`` decision (keys: see the module docstring). Dummies and trained medics
    never fire. An Enemy on Run & Gun with no target moves 1 hex instead (10.04).
    """
    if order.id in LIGHT_AT_ORDERS:  # C2 32.1-32.3
        from solo.rules.vehicles import combat as vehicle_combat

        yield from vehicle_combat.light_at_step(game, ch, order)
        return
    if order.has_flag(OrderFlag.THROWS):
        from solo.rules import effects

        effects.throw(game, ch, order)
        return
    _tracker(game)
    if ch.dummy or ch.trained_medic or not ch.is_active or ch.hex is None or order.ws_modifier is None:
        return
    sols = fire_options(game, ch, order)
    if sols and _sniper_waits(game, ch, order):
        return
    if not sols:
        why = "no ammunition" if not usable_weapons(game, ch) else "no legal target"
        game.emit(
            "no_fire",
            f"{ch.name} ({order.name}) does not fire: {why}.",
            rule="base-rules §10; 13.0",
            actor=ch.id,
            data={"reason": why},
        )
        if ch.side is Side.ENEMY and order.has_flag(OrderFlag.MOVES_IF_NO_TARGET):
            yield from _run_and_gun_move(game, ch, order)
        return
    if ch.side is Side.ENEMY:
        chosen = _enemy_choice(game, ch, sols)
        if chosen is None:
            return
        sol = chosen
    else:
        options = _friendly_fire_options(game, sols)
        from solo.core.decisions import DecisionKind

        key = yield game.decision(
            DecisionKind.FIRE_TARGET,
            f"{ch.name} ({order.name}): fire at",
            [(k, label) for k, label, _ in options] + [("hold", "Hold fire")],
            actor=ch.id,
        )
        if key == "hold":
            game.emit(
                "no_fire", f"{ch.name} holds his fire.", rule="13.0", actor=ch.id, data={"reason": "hold"}
            )
            return
        group = next(g for k, _, g in options if k == key)
        if len(group) == 1 or _is_vehicle_sol(group[0]):
            sol = group[0]
        else:
            names = [game.char(s.target).name for s in group]
            pick = game.dice.choice(
                names,
                f"{ch.name}: random target in {game.char(group[0].target).hex} beyond 5 hexes (C2 23.2)",
            )
            sol = group[pick.index]
    if _is_vehicle_sol(sol):
        from solo.rules.vehicles import combat as vehicle_combat

        vehicle = vehicle_combat.target_vehicle(game, sol.target)
        assert vehicle is not None
        vehicle_combat.resolve_fire_at_vehicle(game, ch, vehicle, sol, order)
        return
    resolve_fire(game, ch, game.char(sol.target), sol, order)


def _friendly_fire_options(
    game: GameContext, sols: list[FireSolution]
) -> list[tuple[str, str, list[FireSolution]]]:
    """Decision options (key, label, solutions) for a Friendly firer (C2 23.2)."""
    weapons = list(dict.fromkeys(s.weapon for s in sols))
    several = len(weapons) > 1
    out: list[tuple[str, str, list[FireSolution]]] = []
    for wid in weapons:
        wname = game.data.weapons.get(wid).name
        mine = [s for s in sols if s.weapon == wid]
        by_hex: dict[str, list[FireSolution]] = {}
        for s in mine:
            if not _is_vehicle_sol(s):
                by_hex.setdefault(str(game.char(s.target).hex), []).append(s)
        done: set[str] = set()
        for s in mine:
            if _is_vehicle_sol(s):
                suffix = f"|{wid}" if several else ""
                label = f"{_target_name(game, s)} (vehicle, {s.range} hexes, {wname}, modified WS {s.total})"
                out.append((f"{s.target}{suffix}", label, [s]))
                continue
            t = game.char(s.target)
            h = str(t.hex)
            crowd = by_hex[h]
            suffix = f"|{wid}" if several else ""
            if s.range > MULTI_TARGET_RANGE and len(crowd) > 1:
                if h in done:
                    continue
                done.add(h)
                label = (
                    f"a random one of {len(crowd)} in {h} ({s.range} hexes, {wname}, "
                    f"modified WS {min(c.total for c in crowd)}-{max(c.total for c in crowd)}; C2 23.2)"
                )
                out.append((f"hex:{h}{suffix}", label, crowd))
            else:
                label = f"{t.name} in {h} ({s.range} hexes, {wname}, modified WS {s.total})"
                out.append((f"{t.id}{suffix}", label, [s]))
    return out


def attack_roll(
    game: GameContext,
    firer: Character,
    ws: int,
    purpose: str,
    *,
    loses_ammo: bool,
    nines: int,
    nines_needed: int,
    record_tqc: bool = True,
) -> tuple[dict[str, Any], bool, int]:
    """One ROF roll of a fire action at modified WS ``ws`` (base-rules §10; C2 23.1).

    Rolls one d10 (faces 0-9) for ``purpose``. A natural 9 misses (C2 23.1) and counts toward
    ammo: at the ``nines_needed``-th one (``nines`` so far in this action) a weapon that
    ``loses_ammo`` drops ``firer.ammo`` one step (Full → Low → No). With WS >= 0 a natural 0 or
    a roll <= WS hits; with WS < 0 only a natural 0 hits, confirmed by a TQC against effective
    TQ + WS (a second d10; its roll is kept as ``"tqc"`` when ``record_tqc``).
    Returns the roll's event entry (``roll``, ``hit``, ``result``, maybe ``ammo``/``tqc``), whether
    it hit, and the updated count of natural 9s. Hit effects are the caller's.
    """
    roll = game.dice.d10(purpose).total
    entry: dict[str, Any] = {"roll": roll, "hit": False}
    hit = False
    if roll == 9:
        entry["result"] = "natural 9: miss"
        nines += 1
        if loses_ammo and nines == nines_needed and firer.ammo is not AmmoState.NO:
            firer.ammo = AmmoState.LOW if firer.ammo is AmmoState.FULL else AmmoState.NO
            entry["ammo"] = firer.ammo.value
    elif ws >= 0:
        hit = roll == 0 or roll <= ws
        entry["result"] = ("natural 0: hit" if roll == 0 else "hit") if hit else "miss"
    elif roll == 0:
        tqc = check(game, firer, CheckKind.TQC, modifier=ws, purpose=f"confirm a natural 0 at WS {ws} (§10)")
        hit = tqc.passed
        entry["result"] = "natural 0, TQC passed: hit" if hit else "natural 0, TQC failed: miss"
        if record_tqc:
            entry["tqc"] = tqc.roll
    else:
        entry["result"] = "miss (negative WS needs a natural 0)"
    entry["hit"] = hit
    return entry, hit, nines


def resolve_fire(
    game: GameContext,
    firer: Character,
    target: Character,
    sol: FireSolution,
    order: Order,
    *,
    assisted: bool | None = None,
) -> None:
    """One fire action of ``firer`` at ``target`` as worked out in ``sol`` (base-rules §10).

    Reveals the firer (not a Knife Expert throwing from Cover), alerts within 10 hexes (alert 1),
    gives an Enemy target without an order his order (C2 23.5, through
    ``solo.enemy.orders.assign_on_activation``, when that option is on), then ROF rolls: a natural 9
    misses and counts toward ammo; WS >= 0 hits on a natural 0 or roll <= WS; WS < 0 hits only
    on a natural 0 confirmed by a TQC against effective TQ + WS.
    A hit: MC only for Suppressive Fire or an (M) cell, else a wound draw; a natural-0 hit
    gives the firer +1 morale (cap Aggressive); alert 3. Stops when the target is out of
    action or the ammunition runs out. Ammo drops one step at the first natural 9 (a belt-fed
    MG with an assistant: the second); never for pistols and knives. ``assisted`` overrides the
    14.3 assistant test (vehicle MGs, C2 31.9.4 b). Emits one ``"fire"`` event.
    """
    weapon = game.data.weapons.get(sol.weapon)
    imp = game.state.flow.impulse
    ws = sol.total
    knife_from_cover = weapon.kind is WeaponKind.KNIFE and game.in_cover(firer)
    if not knife_from_cover:
        reveal(game, firer, reason="fired", rule="base-rules §9.8; C2 24.1")
    spotting.alert_around(game, firer.hex, 10, f"{firer.name} fired", "base-rules §5.6 alert 1")
    if game.options.optional_enemy_activation and target.side is Side.ENEMY and target.order is None:
        game.enemy.assign_on_activation(game, target)  # C2 23.5: he draws his order when fired upon
    morale_only = order.has_flag(OrderFlag.HITS_MORALE_ONLY) or sol.morale_only
    has_mate = _assistant_present(game, firer) if assisted is None else assisted
    belt_assisted = weapon.has_flag(WeaponFlag.BELT) and has_mate
    nines_needed = 2 if belt_assisted else 1
    loses_ammo = not _never_loses_ammo(weapon)
    ammo_before = firer.ammo
    nines = 0
    rolls: list[dict[str, Any]] = []
    for n in range(sol.rof):
        purpose = (
            f"fire {n + 1}/{sol.rof}: {firer.name} -> {target.name} ({weapon.name}, modified WS {ws}) (13.0)"
        )
        entry, hit, nines = attack_roll(
            game, firer, ws, purpose, loses_ammo=loses_ammo, nines=nines, nines_needed=nines_needed
        )
        rolls.append(entry)
        if hit:
            _fire_hit(game, firer, target, entry["roll"], morale_only=morale_only, order=order)
        if not target.is_active or target.hex is None:
            break
        if loses_ammo and firer.ammo is AmmoState.NO:
            break
    firer.acted.setdefault("fired", []).append(imp)
    hits = sum(1 for r in rolls if r["hit"])
    shown = ", ".join(f"{r['roll']} {r['result']}" for r in rolls)
    text = (
        f"{firer.name} ({order.name}) fires the {weapon.name} at {target.name} in {target.hex} "
        f"({sol.range} hexes): {sol.breakdown()}; ROF {sol.rof}: {shown}."
    )
    if firer.ammo is not ammo_before:
        text += f" Ammo {ammo_before.value} → {firer.ammo.value}."
    if not target.is_active:
        text += f" {target.name} is {target.status.value}."
    game.emit(
        "fire",
        text,
        rule="base-rules §10; 13.0" + ("; 14.3" if weapon.has_flag(WeaponFlag.BELT) else ""),
        actor=firer.id,
        data={
            "firer": firer.id,
            "target": target.id,
            "weapon": weapon.id,
            "order": order.id,
            "range": sol.range,
            "ws": sol.ws,
            "modifiers": [[k, v] for k, v in sol.modifiers],
            "modified_ws": ws,
            "chart_row": sol.chart_row,
            "group": sol.group,
            "cell": str(sol.cell) if sol.cell is not None else None,
            "morale_only": morale_only,
            "rof": sol.rof,
            "rolls": rolls,
            "hits": hits,
            "ammo_before": ammo_before.value,
            "ammo_after": firer.ammo.value,
            "nines_for_ammo": nines_needed,
            "revealed": not knife_from_cover,
        },
    )


def _fire_hit(
    game: GameContext, firer: Character, target: Character, roll: int, *, morale_only: bool, order: Order
) -> None:
    reason = f"hit by {firer.name}"
    if target.vehicle is not None:  # an exposed crewman or passenger (C2 31.10.9, 31.10.11)
        from solo.rules.vehicles import combat as vehicle_combat

        why = "Suppressive Fire" if order.has_flag(OrderFlag.HITS_MORALE_ONLY) else "(M) cell"
        vehicle_combat.occupant_hit(game, firer, target, morale_only=morale_only, why=why)
    elif morale_only:
        why = "Suppressive Fire" if order.has_flag(OrderFlag.HITS_MORALE_ONLY) else "(M) cell"
        morale_check(game, target, f"{reason}, {why}: MC only", "base-rules §10")
    else:
        stamp = wound_draw(game, target, deadly=firer.has_skill(SKILL_DEADLY), firer=firer)
        apply_wound(game, target, stamp, melee=False, reason=reason)
    if roll == 0:
        change_morale(game, firer, 1, NATURAL_0_FIRE_CAP, "natural-0 hit", "base-rules §7")
    spotting.alert_around(game, target.hex, 3, f"{target.name} hit", "base-rules §5.6 alert 3")


# ---------------------------------------------------------------------------
# Melee (base-rules §11)


def melee_tq(
    game: GameContext, attacker: Character, defender: Character, order: Order
) -> tuple[int, list[tuple[str, int]]]:
    """The melee TQ of ``attacker`` against ``defender`` and its breakdown (base-rules §11).

    Effective TQ + morale melee column + the order's X-step modifier (Charge +1 on I4) + 2 if
    the attacker is Unknown/unspotted + 2 if the defender is on Hide, Rally, Reload, Medical
    Aid, Carry/Drag or Plan (a Friendly with no order counts as on Hide) + 1 Knife Expert
    (C2 24.1). Raises ValueError for a Rout attacker (he surrenders instead).
    """
    row = game.data.checks.morale(attacker.morale)
    if row.melee_tq is None:
        raise ValueError(f"{attacker.name} is in Rout: he surrenders instead of attacking (17.3)")
    mods: list[tuple[str, int]] = [(f"morale {attacker.morale.value}", row.melee_tq)]
    mods.append((f"order {order.name}", order.melee_tq_modifier))
    mods.append(("unseen attacker", 0 if attacker.revealed else MELEE_UNSEEN))
    d_order = defender.order.order if defender.order is not None else None
    if d_order is None and defender.side is Side.FRIENDLY:
        d_order = "hide"
    mods.append((f"defender on {d_order}", MELEE_DEFENDER if d_order in DEFENDER_ORDERS else 0))
    mods.append(("Knife Expert", KNIFE_EXPERT_MELEE if attacker.has_skill(SKILL_KNIFE_EXPERT) else 0))
    mods = [(k, v) for k, v in mods if v]
    return attacker.effective_tq + sum(v for _, v in mods), mods


def _medic_flees(game: GameContext, medic: Character) -> None:
    """C2 30.0: a trained medic with an opponent in his hex moves 1 hex in a d6 direction."""
    assert medic.hex is not None
    d = game.dice.d6(f"{medic.name} (trained medic) flees the melee (C2 30.0)").total
    to = game.board.neighbour_hex(medic.hex, d)
    ok = (
        to is not None
        and game.board.terrain_of(to).character_passable
        and not game.state.markers.fire.get(to)
        and not any(c.side is not medic.side and c.is_active for c in game.state.at(to))
    )
    if ok:
        frm = medic.hex
        medic.hex = to
        game.emit(
            "medic_flees",
            f"{medic.name} (trained medic) flees from {frm} to {to} (d6 {d}).",
            rule="C2 30.0",
            actor=medic.id,
            data={"from": str(frm), "to": str(to), "direction": d},
        )
    else:
        game.emit(
            "medic_flees",
            f"{medic.name} (trained medic) cannot flee in direction {d} and stays out of the melee.",
            rule="C2 30.0",
            actor=medic.id,
            data={"direction": d},
        )


def _surrender(game: GameContext, ch: Character) -> None:
    ch.status = Status.PRISONER
    ch.order = None
    game.emit(
        "surrender",
        f"{ch.name} (Rout) surrenders instead of attacking and is taken prisoner.",
        rule="17.3; C2 23.4",
        actor=ch.id,
        data={"character": ch.id},
    )


def melee_step(game: GameContext, ch: Character, order: Order) -> Generator[Decision, str, None]:
    """An X step: one melee attack by ``ch`` in his hex (base-rules §11; C2 23.3, 30.0).

    Trained medics of the other side flee first; the incapacitated never take part. A Rout
    attacker surrenders (17.3). Target: the player's (``FIRE_TARGET`` decision, character
    ids) or, for an Enemy, a logged random pick. Alert 7; the target is revealed (a dummy is
    removed). Only the attacker rolls: natural 0 succeeds, natural 9 fails, else d10 <= melee
    TQ; success: a wound draw (melee column) and the attacker takes Duck Back.
    """
    _tracker(game)
    if ch.dummy or ch.trained_medic or not ch.is_active or ch.hex is None:
        return
    h = ch.hex
    for medic in [c for c in game.state.at(h) if c.side is not ch.side and c.is_active and c.trained_medic]:
        _medic_flees(game, medic)
    foes = [c for c in game.state.at(h) if c.side is not ch.side and c.is_active and not c.trained_medic]
    if not foes:
        game.emit("no_melee", f"{ch.name} has no one to melee in {h}.", rule="base-rules §11", actor=ch.id)
        return
    if game.data.checks.morale(ch.morale).melee_tq is None:
        _surrender(game, ch)
        return
    if len(foes) == 1:
        target = foes[0]
    elif ch.side is Side.FRIENDLY:
        from solo.core.decisions import DecisionKind

        key = yield game.decision(
            DecisionKind.FIRE_TARGET,
            f"{ch.name} ({order.name}): attack in melee",
            [(c.id, f"{c.name}{'' if c.revealed else ' (Unknown)'}") for c in foes],
            actor=ch.id,
        )
        target = game.char(key)
    else:
        pick = game.dice.choice([c.name for c in foes], f"{ch.name}: melee target (base-rules §11)")
        target = foes[pick.index]
    spotting.alert_around(game, h, 3, f"melee in {h}", "base-rules §5.6 alert 7")
    if target.dummy:
        spotting.remove_dummy(game, target, f"attacked in melee by {ch.name}", "base-rules §3, §11")
        return
    reveal(game, target, reason="in melee", rule="base-rules §11")
    mtq, mods = melee_tq(game, ch, target, order)
    roll = game.dice.d10(f"melee: {ch.name} -> {target.name} (melee TQ {mtq}) (15.0)").total
    success = roll == 0 or (roll != 9 and roll <= mtq)
    parts = " ".join(f"{v:+d} {k}" for k, v in mods)
    game.emit(
        "melee",
        f"{ch.name} attacks {target.name} in melee: TQ {ch.effective_tq} {parts} = {mtq}; "
        f"d10 {roll} → {'success' if success else 'failure'}.",
        rule="base-rules §11; 15.0",
        actor=ch.id,
        data={
            "attacker": ch.id,
            "target": target.id,
            "tq": ch.effective_tq,
            "modifiers": [[k, v] for k, v in mods],
            "melee_tq": mtq,
            "roll": roll,
            "success": success,
        },
    )
    if success:
        stamp = wound_draw(game, target, melee=True, firer=ch)
        apply_wound(game, target, stamp, melee=True, reason=f"melee by {ch.name}")
        duck_back(game, ch, reason="after a successful melee attack", rule="base-rules §11")
