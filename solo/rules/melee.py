"""Melee (base-rules §11; C2 23.3-23.4, 30.0): the melee TQ, who strikes first, surrender and capture, a
medic who flees.

May import: solo.rules.firing and below, and the rooms below rules."""

from __future__ import annotations

from collections.abc import Generator

from solo.core.decisions import Decision
from solo.data.orders import Order
from solo.rules import spotting
from solo.rules.context import GameContext
from solo.rules.morale import duck_back
from solo.rules.skills import SKILL_DEADLY, SKILL_KNIFE_EXPERT
from solo.rules.spotting import _tracker, reveal
from solo.rules.state import Character, Side, Status
from solo.rules.wounds import apply_wound, kill, wound_draw_steps

DEFENDER_ORDERS = ("hide", "rally", "reload", "medical_aid", "carry_drag", "plan")
"""§11: +2 to the melee TQ of an attack on a man with one of these orders."""


MELEE_UNSEEN = 2
"""§11: an attacker who is Unknown (Enemy) or unspotted (Friendly)."""


MELEE_DEFENDER = 2
"""§11: a defender on one of :data:`DEFENDER_ORDERS`."""


KNIFE_EXPERT_MELEE = 1
"""C2 24.1: Knife Expert in melee."""


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


FRIENDLY_MEDIC_HIT = "friendly_medic_hit"
"""``state.flags`` key set once a Friendly trained medic is killed or Badly wounded (C2 30.1)."""


def take_prisoner(game: GameContext, ch: Character) -> Generator[Decision, str, None]:
    """``ch`` (Rout) surrenders instead of attacking and is taken prisoner (17.3; C2 23.4, 30.1).

    An Enemy prisoner taken after a Friendly trained medic fell (``state.flags``
    :data:`FRIENDLY_MEDIC_HIT`): the designated Guard (the player's ``GUARD`` decision among
    the active Friendlies in the hex, keyed by character id; the only one without asking)
    takes a TQC at once; failed (d10 > his TQ, or a natural 9), the prisoner is killed (C2 30.1).
    """
    ch.status = Status.PRISONER
    ch.order = None
    game.emit(
        "surrender",
        f"{ch.name} (Rout) surrenders instead of attacking and is taken prisoner.",
        rule="17.3; C2 23.4",
        actor=ch.id,
        data={"character": ch.id},
    )
    if ch.side is not Side.ENEMY or not game.state.flags.get(FRIENDLY_MEDIC_HIT) or ch.dummy:
        return
    guards = [c for c in game.state.at(ch.on_hex) if c.side is Side.FRIENDLY and c.is_active and not c.dummy]
    if not guards:
        return
    guard = guards[0]
    if len(guards) > 1:
        from solo.core.decisions import DecisionKind

        key = yield game.decision(
            DecisionKind.GUARD,
            f"Who guards the prisoner {ch.name}? (C2 30.1: he takes a TQC, a failure kills the prisoner)",
            [(c.id, f"{c.name} (TQ {c.effective_tq})") for c in guards],
            actor=ch.id,
        )
        guard = game.char(key)
    from solo.data.tables import CheckKind

    roll = game.dice.d10(f"TQC: {guard.name} guards the prisoner {ch.name} (C2 30.1)")
    out = game.data.checks.resolve(CheckKind.TQC, roll.total, guard.effective_tq)
    game.emit(
        "prisoner_check",
        f"{guard.name} guards {ch.name}: TQC rolled {out.roll} vs TQ {guard.effective_tq}: "
        f"{'passed, the prisoner lives' if out.passed else 'failed, the prisoner is killed'} (C2 30.1).",
        rule="C2 30.1",
        actor=guard.id,
        data={
            "prisoner": ch.id,
            "kind": "tqc",
            "target": guard.effective_tq,
            "roll": out.roll,
            "passed": out.passed,
        },
    )
    if not out.passed:
        kill(game, ch, reason=f"executed as a prisoner, {guard.name} failed his TQC", rule="C2 30.1")


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
        yield from take_prisoner(game, ch)
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
        # C2 24.1 "Draw 2 cards on a successful hit": a successful melee attack is a hit too.
        stamp = yield from wound_draw_steps(
            game, target, melee=True, deadly=ch.has_skill(SKILL_DEADLY), firer=ch
        )
        apply_wound(game, target, stamp, melee=True, reason=f"melee by {ch.name}")
        duck_back(game, ch, reason="after a successful melee attack", rule="base-rules §11")
