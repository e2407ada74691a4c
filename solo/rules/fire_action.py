"""The fire action (base-rules §10, 13.0; C2 23.2, 24.1): what a character may fire at (men and vehicles),
the Enemy's and the player's choice of target, the F step of a fire order (Run & Gun, the Sniper's wait,
Light AT and grenade orders).

Friendly fire-target decisions (``DecisionKind.FIRE_TARGET``): one option per legal target,
keyed by the target's character id, plus ``"hold"`` (hold fire). If the firer has more than one
weapon that can fire, keys are ``"<target id>|<weapon id>"``. Beyond 5 hexes, a hex holding
several legal targets is one option keyed ``"hex:CC.RR"`` (or ``"hex:CC.RR|<weapon id>"``)
and the target is picked at random (C2 23.2). Melee targets reuse ``FIRE_TARGET`` with
character ids and no ``"hold"`` (an X step always strikes). The Enemy's choice comes from
``game.enemy`` (:mod:`solo.enemy.fire_choice`).

May import: everything in solo.rules below it (fire, the vehicle fire rules, movement, effects), and the
rooms below rules.
"""

from __future__ import annotations

from collections.abc import Generator

from solo.core.decisions import Decision
from solo.core.hexes import Hex
from solo.data.orders import Order, OrderFlag
from solo.rules import grenades
from solo.rules.context import GameContext
from solo.rules.firing import (
    MEDIC_FIRE_TQ,
    MULTI_TARGET_RANGE,
    FireSolution,
    _firer_mods,
    _is_aimed,
    _solution,
    resolve_fire_steps,
    usable_weapons,
)
from solo.rules.skills import SKILL_SNIPER
from solo.rules.spotting import _tracker, known_at_impulse_start
from solo.rules.state import Character, Side, Status
from solo.rules.vehicles import hazards, light_at, small_arms
from solo.rules.vehicles import targets as vehicle_targets
from solo.rules.vehicles.crew_sight import LIGHT_AT_ORDERS


def _is_vehicle_sol(sol: FireSolution) -> bool:
    """A solution aimed at a vehicle (``"vehicle:<id>"``, C2 31.10)."""
    return sol.target.startswith("vehicle:")


def _target_name(game: GameContext, sol: FireSolution) -> str:
    if _is_vehicle_sol(sol):
        from solo.rules.vehicles import targets as vehicle_targets

        return vehicle_targets.target_name(game, sol.target)
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

    Through ``game.enemy.choose_enemy_fire(game, ch)``, the target and weapon in one scoring pass
    (:mod:`solo.enemy.fire_choice`: it emits its own ``fire_target`` event and rolls the C2 30.1 TQC);
    a choice that is not legal here (Aimed Fire at a target not Known at the Impulse start, a hex
    with both sides...) falls back to the local choice (:func:`_local_enemy_choice`), with an
    event saying so.
    """
    vehicle_sols = [s for s in sols if _is_vehicle_sol(s)]
    sols = [s for s in sols if not _is_vehicle_sol(s)]
    if not sols:  # [house] an Enemy fires at a vehicle only with no character target (C2 31.10)
        sol = _pick_easiest(game, ch, vehicle_sols, "enemy fire at a vehicle")
        _announce(game, ch, sol, "no character target: a vehicle, easiest to hit, then nearest")
        return sol
    pick = game.enemy.choose_enemy_fire(game, ch)
    if pick is None:
        if all(game.char(s.target).trained_medic for s in sols):
            return None  # the AI rolled the C2 30.1 TQC and holds fire
    else:
        target, weapon_id = pick
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
"""``ch.acted`` key set when an Enemy sniper holds his Impulse 2 shot (shared with solo.enemy.fire_choice)."""


def _sniper_waits(game: GameContext, ch: Character, order: Order) -> bool:
    """C2 24.1: an Enemy sniper on Aimed Fire holds his Impulse 2 shot (for +2 on Impulse 4) if
    the nearest Spotted Friendly is 3+ hexes away and he passes a TQC (``game.enemy.sniper_aims``)."""
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
    """An F step: one fire action (§10), or one throw for a grenade order (§12, via grenades.throw;
    a Grenade in an opposing AFV's hex may go down its hatch instead, C2 31.10.7 via
    :func:`~solo.rules.vehicles.hazards.hatch_grenade_step`).

    Enemy firers choose through ``solo.enemy.fire_choice.choose_enemy_fire`` when
    present (checked for legality), else easiest, nearest, random (C2 23.2); Friendly firers
    get a ``FIRE_TARGET`` decision (keys: see the module docstring). Dummies and trained medics
    never fire. An Enemy on Run & Gun with no target moves 1 hex instead (10.04).
    """
    if order.id in LIGHT_AT_ORDERS:  # C2 32.1-32.3
        from solo.rules.vehicles import targets as vehicle_targets

        yield from light_at.light_at_step(game, ch, order)
        return
    if order.has_flag(OrderFlag.THROWS):
        dropped = False
        if order.id == "grenade" and game.state.vehicles:
            dropped = yield from hazards.hatch_grenade_step(game, ch)  # C2 31.10.7
        if dropped:
            return
        grenades.throw(game, ch, order)
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
            lambda: f"{ch.name} ({order.name}) does not fire: {why}.",
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
        picked = yield from _friendly_target(game, ch, order, sols)
        if picked is None:
            return
        sol = picked
    if _is_vehicle_sol(sol):
        from solo.rules.vehicles import targets as vehicle_targets

        vehicle = vehicle_targets.target_vehicle(game, sol.target)
        assert vehicle is not None
        small_arms.resolve_fire_at_vehicle(game, ch, vehicle, sol, order)
        return
    yield from resolve_fire_steps(game, ch, game.char(sol.target), sol, order)


def _is_medic_sol(game: GameContext, sol: FireSolution) -> bool:
    """A solution aimed at a trained medic (C2 30.2)."""
    return not _is_vehicle_sol(sol) and game.char(sol.target).trained_medic


def _medic_tqc(game: GameContext, ch: Character, berserk: bool) -> bool:
    """C2 30.2: the Friendly firer's TQC before firing on an Enemy trained medic; True if it fails.

    The target is TQ + :data:`MEDIC_FIRE_TQ` (2), a Berserk man's plain TQ (no +3 for Berserk).
    Natural 0 passes, natural 9 fails (C2 23.1).
    """
    from solo.data.tables import CheckKind

    tq = ch.effective_tq + (0 if berserk else MEDIC_FIRE_TQ)
    roll = game.dice.d10(f"TQC: {ch.name} fires on a trained medic? (C2 30.2)")
    out = game.data.checks.resolve(CheckKind.TQC, roll.total, tq)
    if berserk:
        verdict = "passed: he leaves the medic alone" if out.passed else "failed: he must fire on the medic"
    else:
        verdict = "passed: he will not fire on the medic" if out.passed else "failed: he fires on the medic"
    game.emit(
        "medic_fire_check",
        f"{ch.name} and the trained medic: TQC rolled {out.roll} vs {'TQ' if berserk else 'TQ+2'} {tq}: "
        f"{verdict} (C2 30.2).",
        rule="C2 30.2",
        actor=ch.id,
        data={"kind": "tqc", "target": tq, "roll": out.roll, "passed": out.passed, "berserk": berserk},
    )
    return not out.passed


def _friendly_target(
    game: GameContext, ch: Character, order: Order, sols: list[FireSolution]
) -> Generator[Decision, str, FireSolution | None]:
    """The Friendly firer's target: the player's ``FIRE_TARGET`` choice (13.0; C2 23.2, 30.2).

    An Enemy trained medic (C2 30.2) may be chosen, but the firer fires on him only if he
    fails a TQC at TQ+2 (:func:`_medic_tqc`); if he passes, the medic is struck from the
    options and the player chooses again. A Berserk firer with a medic among his targets
    rolls at his plain TQ first: failed, he must fire on the medic (not the player's choice;
    several medics: a random one); passed, the medics are struck. None: he holds his fire.
    """
    from solo.core.decisions import DecisionKind
    from solo.data.tables import MoraleState

    if ch.morale is MoraleState.BERSERK and any(_is_medic_sol(game, s) for s in sols):
        medics = [s for s in sols if _is_medic_sol(game, s)]
        if _medic_tqc(game, ch, berserk=True):
            if len(medics) == 1:
                return medics[0]
            pick = game.dice.choice(
                [game.char(s.target).name for s in medics], f"{ch.name}: which trained medic (C2 30.2)"
            )
            return medics[pick.index]
        sols = [s for s in sols if not _is_medic_sol(game, s)]
    while sols:
        options = _friendly_fire_options(game, sols)
        note = " (trained medic: fires only on a failed TQC at TQ+2, C2 30.2)"
        labelled = [(k, label + (note if _medic(game, g) else "")) for k, label, g in options]
        key = yield game.decision(
            DecisionKind.FIRE_TARGET,
            f"{ch.name} ({order.name}): fire at",
            [*labelled, ("hold", "Hold fire")],
            actor=ch.id,
        )
        if key == "hold":
            break
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
        if not _is_medic_sol(game, sol) or _medic_tqc(game, ch, berserk=False):
            return sol
        sols = [s for s in sols if s.target != sol.target]
    game.emit("no_fire", f"{ch.name} holds his fire.", rule="13.0", actor=ch.id, data={"reason": "hold"})
    return None


def _medic(game: GameContext, group: list[FireSolution]) -> bool:
    """Whether a decision option's group holds a trained medic."""
    return any(_is_medic_sol(game, s) for s in group)


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


def _melee_sides(game: GameContext, hexes: set[Hex]) -> tuple[dict[Hex, int], dict[Hex, int]]:
    """Who stands on ``hexes`` (melee hexes, C2 23.2), as side bits (1 Friendly, 2 Enemy; 3 both):
    ``(active men by hex, active or incapacitated men by hex)``; riders make no melee hex.

    Bit masks instead of sets of Side, whose enum hashing dominated this loop; ``hexes`` is only
    asked for membership.
    """
    active_sides: dict[Hex, int] = {}
    all_sides: dict[Hex, int] = {}
    active, incapacitated, friendly = Status.ACTIVE, Status.INCAPACITATED, Side.FRIENDLY
    for c in game.state.characters.values():
        h = c.hex
        if h not in hexes:  # None never is
            continue
        status = c.status
        # c.on_map: active or incapacitated; riders make no melee hex.
        if (status is active or status is incapacitated) and c.vehicle is None:
            bit = 1 if c.side is friendly else 2
            all_sides[h] = all_sides.get(h, 0) | bit
            if status is active:
                active_sides[h] = active_sides.get(h, 0) | bit
    return active_sides, all_sides


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
    has_vehicles = bool(game.state.vehicles)
    if has_vehicles and ch.vehicle is not None and vehicle_targets.seat_fire_block(game, ch) is not None:
        return []
    aimed = _is_aimed(order)
    out: list[FireSolution] = []
    candidates = []
    for t in game.opponents(ch):
        if not t.revealed or t.dummy:
            continue
        if t.vehicle is not None and (
            not has_vehicles or not vehicle_targets.is_individual_target(game, t, ch, order)
        ):
            continue
        if aimed and not known_at_impulse_start(game, t):
            continue
        assert t.hex is not None
        candidates.append(t)
    targets = []
    if candidates:
        active_sides, all_sides = _melee_sides(game, {t.on_hex for t in candidates})
        for t in candidates:
            if active_sides.get(t.on_hex, 0) == 3:
                continue
            sight = game.sight(ch, t.on_hex, target=t)
            if sight.clear:
                targets.append((t, sight, all_sides.get(t.on_hex, 0) == 3))
    if not targets and not has_vehicles:
        return out  # nothing to fire at: no modifiers to work out
    firer_mods = _firer_mods(game, ch, order)
    for cw in weapons:
        for t, sight, mixed in targets:
            if (
                has_vehicles
                and ch.vehicle is not None
                and not vehicle_targets.seat_may_fire(game, ch, game.data.weapons.get(cw.weapon), t.on_hex)
            ):
                continue
            sol = _solution(game, ch, t, cw, order, sight, firer_mods)
            if sol is None:
                continue
            if mixed and not (aimed and sol.rof == 1 and sol.range <= MULTI_TARGET_RANGE):
                continue
            out.append(sol)
    if has_vehicles:
        out.extend(small_arms.vehicle_fire_solutions(game, ch, order, weapons, firer_mods))
    return out
