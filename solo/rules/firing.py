"""Firing (base-rules §10; C2 23.1-23.2, 24.1, 26.0, 27.5, 27.7, 28.1, 30.0-30.1): the fire chart
cell, the modified WS of a weapon at a target, the ROF rolls and what a hit does.

* :func:`fire_cell` (the chart row by terrain, hexsides and the target's order group),
  :func:`target_group`, :func:`same_building`, :func:`is_melee_hex`;
* :func:`fire_solution` (the modified WS of one weapon at one target, with its breakdown, as a
  :class:`FireSolution`), :func:`usable_weapons`;
* :func:`attack_roll` (one ROF roll: natural 9, ammunition, a negative WS with its TQC; shared
  with vehicle fire) and :func:`resolve_fire` (one fire action at a chosen target: its rolls,
  hits, wounds, MCs and alerts).

Known at the start of the Impulse (Aimed Fire) is kept by :mod:`solo.rules.spotting`. Occupants
of vehicles are not ordinary targets (only exposed crew under Aimed Fire,
:func:`solo.rules.vehicles.targets.is_individual_target`, on the Hatch line, and their hits go to
:func:`solo.rules.vehicles.hits.occupant_hit`). What a character may fire at, and the F step of
an order, are :mod:`solo.rules.fire_action`; melee is :mod:`solo.rules.melee`.

``HOUSE_RULES`` names the readings taken where the rule text is silent (listed in the README).

May import: :mod:`~solo.rules.morale`, :mod:`~solo.rules.wounds`, :mod:`~solo.rules.spotting`,
:mod:`~solo.rules.card_effects`, the vehicle target and hit rules, and the rooms below rules.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.decisions import Decision
from solo.data.charts import FireCell
from solo.data.orders import Order, OrderFlag
from solo.data.tables import CheckKind, MoraleState
from solo.data.weapons import Weapon, WeaponFlag, WeaponKind
from solo.rules import card_effects, spotting
from solo.rules.morale import change_morale, check, morale_check
from solo.rules.skills import SKILL_DEADLY, SKILL_DODGE, SKILL_DODGE_2, SKILL_KNIFE_EXPERT, SKILL_SNIPER
from solo.rules.spotting import reveal
from solo.rules.state import AmmoState, CarriedWeapon, Character, Side
from solo.rules.vehicles import hits
from solo.rules.wounds import apply_wound, wound_draw_steps

if TYPE_CHECKING:
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

HOUSE_RULES: dict[str, str] = {
    "tough_automatic": "Tough and Deadly picks are the player's (a wound_card decision) in fire and "
    "melee actions; in explosions, grenades and hits from or on vehicles they are made for him: "
    "Tough keeps the least damaging card, Deadly the most damaging one (C2 24.1).",
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
    group: int | None = game.data.orders.get(default).fire_group
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
    terrain, C2 27.7), a hedge, wall or bocage hexside crossed into the hex, and the 'In hex with
    AFV/Half-Track' line when one stands there (C2 27.9); the most protective cell applies (for
    the Enemy as 27.9 says; the player would choose it too [house]).
    """
    if target.vehicle is not None:  # an exposed crewman: the Hatch line (C2 31.8)
        from solo.rules.vehicles import targets as vehicle_targets

        return vehicle_targets.crew_fire_cell(game, target)
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
    if spotting.vehicle_cover(game, h):  # C2 27.9
        rows.append(spotting.WITH_VEHICLE_ROW)
    best = min(rows, key=lambda r: _cell_key(charts.fire_cell(r, group)))
    return charts.fire_cell(best, group), best, group


def _card_ws(game: GameContext, ch: Character) -> int:
    """This turn's card WS modifier (base-rules §10 row 6): :func:`solo.rules.card_effects.ws_bonus`."""

    return int(card_effects.ws_bonus(game, ch))


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
        from solo.rules.vehicles import targets as vehicle_targets

        mods.extend(vehicle_targets.seat_fire_modifiers(game, firer))
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


def resolve_fire(
    game: GameContext,
    firer: Character,
    target: Character,
    sol: FireSolution,
    order: Order,
    *,
    assisted: bool | None = None,
) -> None:
    """:func:`resolve_fire_steps` with the C2 24.1 picks made for the player (vehicle MGs, tests)."""
    gen = resolve_fire_steps(game, firer, target, sol, order, assisted=assisted, ask=False)
    for _ in gen:  # pragma: no cover - ask=False never yields
        raise RuntimeError("resolve_fire: a decision was asked with ask=False")


def resolve_fire_steps(
    game: GameContext,
    firer: Character,
    target: Character,
    sol: FireSolution,
    order: Order,
    *,
    assisted: bool | None = None,
    ask: bool = True,
) -> Generator[Decision, str, None]:
    """One fire action of ``firer`` at ``target`` as worked out in ``sol`` (base-rules §10).

    Reveals the firer (not a Knife Expert throwing from Cover), alerts within 10 hexes (alert 1),
    gives an Enemy target without an order his order (C2 23.5, through
    ``solo.enemy.alerting.assign_on_activation``, when that option is on), then ROF rolls: a natural 9
    misses and counts toward ammo; WS >= 0 hits on a natural 0 or roll <= WS; WS < 0 hits only
    on a natural 0 confirmed by a TQC against effective TQ + WS.
    A hit: MC only for Suppressive Fire or an (M) cell, else a wound draw; a natural-0 hit
    gives the firer +1 morale (cap Aggressive); alert 3. Stops when the target is out of
    action or the ammunition runs out. Ammo drops one step at the first natural 9 (a belt-fed
    MG with an assistant: the second); never for pistols and knives. ``assisted`` overrides the
    14.3 assistant test (vehicle MGs, C2 31.9.4 b). Emits one ``"fire"`` event, put in the log
    before everything the fire caused (the reveal, alerts, its dice, wound draws, Duck Back, morale
    checks: :meth:`~solo.rules.context.GameContext.mark`). A Friendly
    Tough target or Deadly firer picks his wound card through a ``wound_card`` decision (C2 24.1,
    :func:`~solo.rules.wounds.wound_draw_steps`) when ``ask``.
    """
    at = game.mark()  # the fire is narrated first, then its dice and what they did (base-rules §10)
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
            yield from _fire_hit(
                game, firer, target, entry["roll"], morale_only=morale_only, order=order, ask=ask
            )
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
        at=at,
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
    game: GameContext,
    firer: Character,
    target: Character,
    roll: int,
    *,
    morale_only: bool,
    order: Order,
    ask: bool,
) -> Generator[Decision, str, None]:
    reason = f"hit by {firer.name}"
    if target.vehicle is not None:  # an exposed crewman or passenger (C2 31.10.9, 31.10.11)
        why = "Suppressive Fire" if order.has_flag(OrderFlag.HITS_MORALE_ONLY) else "(M) cell"
        hits.occupant_hit(game, firer, target, morale_only=morale_only, why=why)
    elif morale_only:
        why = "Suppressive Fire" if order.has_flag(OrderFlag.HITS_MORALE_ONLY) else "(M) cell"
        morale_check(game, target, f"{reason}, {why}: MC only", "base-rules §10")
    else:
        stamp = yield from wound_draw_steps(
            game, target, deadly=firer.has_skill(SKILL_DEADLY), firer=firer, ask=ask
        )
        apply_wound(game, target, stamp, melee=False, reason=reason)
    if roll == 0:
        change_morale(game, firer, 1, NATURAL_0_FIRE_CAP, "natural-0 hit", "base-rules §7")
    spotting.alert_around(game, target.hex, 3, f"{target.name} hit", "base-rules §5.6 alert 3")


# ---------------------------------------------------------------------------
# Melee (base-rules §11)


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
