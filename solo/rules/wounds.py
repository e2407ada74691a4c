"""Wounds (base-rules §8; C2 24.1 Tough and Deadly, C2 30 medics): the wound card draw, its effect, death and
incapacitation, the MG takeover.

May import: solo.rules.morale, solo.rules.spotting and the rooms below rules."""

from __future__ import annotations

from collections.abc import Generator

from solo.core.decisions import Decision
from solo.data.friendly_deck import WoundStamp
from solo.data.tables import CheckKind, MoraleState, RollResult, roll_result, step_morale
from solo.data.weapons import WeaponFlag
from solo.rules.context import GameContext
from solo.rules.morale import check, duck_back, morale_check
from solo.rules.skills import SKILL_TOUGH
from solo.rules.spotting import _tracker
from solo.rules.state import CarriedWeapon, Character, Side, Status, Wound


def _stamp_of(game: GameContext, card_id: str) -> WoundStamp | None:
    for card in game.data.friendly_deck.cards:
        if card.id == card_id:
            return card.stamp
    raise KeyError(card_id)


def _draw_stamp(game: GameContext, purpose: str, drawn: list[str]) -> WoundStamp:
    """Turn the top Friendly card for its stamp and discard it; an Event card: draw again,
    then shuffle deck and discards (base-rules §8, [house] as C2 25.0)."""
    deck = game.friendly_deck
    shuffle = False
    while True:
        card = deck.draw_card(game.dice, f"wound draw: {purpose}")
        deck.discard(card)
        drawn.append(card)
        stamp = _stamp_of(game, card)
        if stamp is not None:
            break
        shuffle = True
    if shuffle:
        deck.shuffle_all(game.dice, "deck and discards after an Event card in a wound draw (base-rules §8)")
    return stamp


WOUND_CARD_DECISION = "wound_card"
"""The ``DecisionKind`` value of the C2 24.1 pick: keys are the drawn card ids."""


def wound_draw(
    game: GameContext,
    target: Character,
    *,
    melee: bool = False,
    deadly: bool = False,
    firer: Character | None = None,
) -> WoundStamp:
    """:func:`wound_draw_steps` with every pick made for its side (no decision; the house rule
    ``tough_automatic``): for hits outside a fire or melee action (explosions, vehicles)."""
    gen = wound_draw_steps(game, target, melee=melee, deadly=deadly, firer=firer, ask=False)
    try:
        next(gen)
    except StopIteration as stop:
        stamp: WoundStamp = stop.value
        return stamp
    raise RuntimeError("wound_draw: a decision was asked with ask=False")  # pragma: no cover


def wound_draw_steps(
    game: GameContext,
    target: Character,
    *,
    melee: bool = False,
    deadly: bool = False,
    firer: Character | None = None,
    ask: bool = True,
) -> Generator[Decision, str, WoundStamp]:
    """Draw the wound stamp for a hit on ``target`` (base-rules §8; C2 24.1 Tough, Deadly).

    One Friendly card is turned, read and discarded (an Event card: draw again, then shuffle).
    Tough: 2 cards, one kept. Deadly (a hit in fire or melee by a Deadly firer): 2 cards, one
    applied; against a Tough target twice, then the lesser of the two results. The side that
    picks: the player for a Friendly Tough target and a Friendly Deadly firer (a ``wound_card``
    decision, keys the card ids, asked only when the two stamps differ and ``ask``); the Enemy
    keeps the lesser for his Tough men and applies the worse with his Deadly ones. Deadly
    against Tough always keeps the lesser of the two picks. Emits one ``"wound_draw"`` event.
    Severity: KIA > Bad > Light > Close Call.
    """
    _tracker(game)
    who = f"{target.name}" + (f" hit by {firer.name}" if firer is not None else "")
    drawn: list[str] = []
    tough = target.has_skill(SKILL_TOUGH)
    picks: list[str] = []

    def one() -> tuple[str, WoundStamp]:
        stamp = _draw_stamp(game, who, drawn)
        return drawn[-1], stamp

    def pick_of_two(player: bool, worse: bool, why: str) -> Generator[Decision, str, WoundStamp]:
        (ca, a), (cb, b) = one(), one()
        auto = (a if a.severity >= b.severity else b) if worse else (a if a.severity <= b.severity else b)
        if not (player and ask) or a is b:
            return auto
        from solo.core.decisions import DecisionKind

        key = yield game.decision(
            DecisionKind.WOUND_CARD,
            f"{why}: which wound card for {target.name}?",
            [(ca, f"{ca}: {a.value.replace('_', ' ')}"), (cb, f"{cb}: {b.value.replace('_', ' ')}")],
            actor=target.id if not worse else (firer.id if firer is not None else None),
        )
        picks.append(key)
        return a if key == ca else b

    friendly_firer = firer is not None and firer.side is Side.FRIENDLY
    if deadly:
        why = f"Deadly ({firer.name if firer is not None else 'firer'}, C2 24.1)"
        if tough:
            a = yield from pick_of_two(friendly_firer, True, why + ", first pair against Tough")
            b = yield from pick_of_two(friendly_firer, True, why + ", second pair against Tough")
            stamp = a if a.severity <= b.severity else b
            how = "Deadly against Tough: one of two cards, twice; the lesser result kept"
        else:
            stamp = yield from pick_of_two(friendly_firer, True, why)
            how = "Deadly: one of two cards"
    elif tough:
        stamp = yield from pick_of_two(target.side is Side.FRIENDLY, False, f"Tough ({target.name}, C2 24.1)")
        how = "Tough: one of two cards kept"
    else:
        stamp = one()[1]
        how = "one card"
    if picks:
        how += f" (the player chose {', '.join(picks)})"
    game.emit(
        "wound_draw",
        f"Wound draw for {who}: {', '.join(drawn)} → {stamp.value.replace('_', ' ')} ({how}).",
        rule="base-rules §8" + ("; C2 24.1" if tough or deadly else ""),
        actor=target.id,
        data={"target": target.id, "cards": drawn, "stamp": stamp.value, "melee": melee, "how": how},
    )
    return stamp


def kill(game: GameContext, ch: Character, *, reason: str, rule: str) -> None:
    """``ch`` is killed: status DEAD, order removed (base-rules §8)."""
    ch.status = Status.DEAD
    ch.order = None
    game.emit(
        "killed",
        f"{ch.name} is killed ({reason}).",
        rule=rule,
        actor=ch.id,
        data={"character": ch.id, "reason": reason},
    )


def _incapacitate(game: GameContext, ch: Character, reason: str) -> None:
    ch.status = Status.INCAPACITATED
    ch.order = None
    game.emit(
        "incapacitated",
        f"{ch.name} is incapacitated ({reason}): wounds equal his TQ {ch.tq}.",
        rule="base-rules §8; C2 23.3",
        actor=ch.id,
        data={"character": ch.id, "reason": reason},
    )


def _out_of_action(game: GameContext, ch: Character, reason: str) -> bool:
    """Wounds reaching TQ: an enemy dies; a Friendly is incapacitated at exactly TQ, killed above (§8)."""
    penalty = -ch.wound_penalty
    if penalty < ch.tq:
        return False
    if ch.side is Side.ENEMY or penalty > ch.tq:
        kill(game, ch, reason=f"{reason}: wounds {penalty} against TQ {ch.tq}", rule="base-rules §8")
    else:
        _incapacitate(game, ch, reason)
    return True


def _mg_takeover(game: GameContext, ch: Character) -> None:
    """14.3: a comrade in the hex takes over a belt-fed MG from a badly wounded, dead or
    incapacitated operator (with the WS of his first weapon [house])."""
    weapons = game.data.weapons
    belt = [w for w in ch.weapons if w.weapon in weapons and weapons.get(w.weapon).has_flag(WeaponFlag.BELT)]
    if not belt or ch.hex is None:
        return
    mates = [
        c
        for c in game.state.at(ch.hex)
        if c is not ch and c.side is ch.side and c.is_active and not c.dummy and not c.trained_medic
    ]
    if not mates:
        return
    mates.sort(key=lambda c: 0 if c.mg_role == "assistant" else 1)
    mate = mates[0]
    mg = belt[0]
    ws = mate.weapons[0].ws if mate.weapons else mate.tq
    ch.weapons = tuple(w for w in ch.weapons if w is not mg)
    mate.weapons = (CarriedWeapon(mg.weapon, ws), *mate.weapons)
    mate.mg_role = "operator"
    ch.mg_role = None
    game.emit(
        "mg_takeover",
        f"{mate.name} takes over the {weapons.get(mg.weapon).name} from {ch.name} (WS {ws}).",
        rule="14.3",
        actor=mate.id,
        data={"from": ch.id, "to": mate.id, "weapon": mg.weapon, "ws": ws},
    )


def _medic_morale(game: GameContext, medic: Character) -> None:
    """C2 30.1: a Friendly trained medic killed or badly wounded: every Friendly with LOS rolls.

    From then on Enemy prisoners may be executed (``state.flags["friendly_medic_hit"]``, read by
    :func:`solo.rules.melee.take_prisoner`). Once an Enemy trained medic is down
    (``"enemy_trained_medic_down"``) nobody rolls on the table (C2 30.2).
    """
    game.state.flags["friendly_medic_hit"] = True
    if game.state.flags.get("enemy_trained_medic_down"):
        game.emit(
            "medic_down",
            f"The medic {medic.name} falls; an Enemy trained medic is already down, so no Friendly "
            "rolls on the Injured/KIA Medic table (C2 30.2).",
            rule="C2 30.2",
            actor=medic.id,
            data={"table": False},
        )
        return
    for c in game.state.active(Side.FRIENDLY):
        if c is medic or not game.sees(c, medic):
            continue
        roll = game.dice.d10(f"C2 30.1 medic morale: {c.name} sees {medic.name} fall").total
        result = roll_result(roll, c.effective_tq)
        steps = {
            RollResult.NATURAL_0: 2,
            RollResult.PASSED: 1,
            RollResult.FAILED: 0,
            RollResult.NATURAL_9: -1,
        }[result]
        before = c.morale
        after = step_morale(before, steps, cap=MoraleState.BERSERK)
        c.morale = after
        game.emit(
            "check",
            f"{c.name} sees the medic {medic.name} fall: d10 {roll} vs TQ {c.effective_tq} → "
            f"morale {before.value} → {after.value}.",
            rule="C2 30.1",
            actor=c.id,
            data={"check": "medic", "roll": roll, "target": c.effective_tq, "steps": steps},
        )


def apply_wound(
    game: GameContext, target: Character, stamp: WoundStamp, *, melee: bool = False, reason: str = "hit"
) -> None:
    """Apply a wound stamp to ``target`` (base-rules §8).

    Close Call: an MC (Duck Back if it fails, not in melee). Light (-1 TQ/WS) or Bad (-3): the
    wound, then out of action if wounds reach TQ (an enemy dies; a Friendly is incapacitated
    at exactly TQ, killed above); else from fire Duck Back + WMC, in melee MC + WMC. KIA:
    killed. A Friendly trained medic badly wounded, incapacitated or killed triggers the
    C2 30.1 morale rolls; a belt-fed MG operator's comrade takes over his MG (14.3).
    """
    if stamp is WoundStamp.CLOSE_CALL:
        morale_check(game, target, f"Close Call ({reason})", "base-rules §8", melee=melee)
        return
    if stamp is WoundStamp.KIA:
        kill(game, target, reason=reason, rule="base-rules §8")
    else:
        wound = Wound.LIGHT if stamp is WoundStamp.LIGHT else Wound.BAD
        target.wounds.append(wound)
        game.emit(
            "wound",
            f"{target.name} takes a {wound.value} wound ({reason}): effective TQ {target.effective_tq}.",
            rule="base-rules §8",
            actor=target.id,
            data={"character": target.id, "wound": wound.value, "effective_tq": target.effective_tq},
        )
        if not _out_of_action(game, target, reason):
            if melee:
                morale_check(game, target, f"{wound.value} wound in melee", "base-rules §8", melee=True)
            else:
                duck_back(game, target, reason=f"{wound.value} wound", rule="base-rules §8; C2 31.10.9")
            check(game, target, CheckKind.WMC, purpose=f"{wound.value} wound")
    fallen = not target.is_active
    if fallen or stamp is WoundStamp.BAD:
        _mg_takeover(game, target)
        if target.trained_medic and target.side is Side.FRIENDLY:
            # C2 30.1 "killed or receives a Bad Wound" (option medic_morale_on)
            killed_or_bad = stamp is WoundStamp.BAD or target.status is Status.DEAD
            if killed_or_bad or game.options.medic_morale_on == "out_of_action":
                _medic_morale(game, target)
        elif target.trained_medic and target.side is Side.ENEMY:
            # C2 30.2: from now on Enemies fire on Friendly medics too (read by solo.enemy.fire_choice).
            game.state.flags["enemy_trained_medic_down"] = True
