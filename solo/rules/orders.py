"""What orders do beyond moving and firing (base-rules §4, §5.6, §7): order targets, the start of an
activation (Unprepared draws, the Rally Check 7.17), Medical Aid, Search, Plan and the Impulse 4
effects.

May import: the grenade and card-effect rules below it, and the rooms below rules."""

from __future__ import annotations

from solo.data.orders import Order
from solo.data.tables import CheckKind, roll_result
from solo.rules.context import GameContext
from solo.rules.effects import _ammo_full, _out_of_action_check, _reveal, _roster_index, _within
from solo.rules.grenades import _THROWN_ORDERS, _throw_range
from solo.rules.state import Character, Side, Status, Wound

CHARGE_RANGE = 4
"""Charge targets: Known enemies within 4 hexes (base-rules §5.3 step 8, §11) [reconstructed]."""


SEARCH_RANGE = 1
"""Search reveals Unknown enemies and dummies within 1 hex (base-rules §4) [reconstructed]."""


def _can_be_charged(game: GameContext, target: Character) -> bool:
    """A hex with 2+ defenders or a Fortified Building cannot be charged (§11; C2 27.2)."""
    h = target.hex
    if h is None:
        return False
    terrain = (game.board.terrain_of(h), *game.board.overlays_of(h))
    if any(t.id == "fortified_building" for t in terrain):
        return False
    defenders = [c for c in game.state.active(target.side) if c.hex == h]
    return len(defenders) < 2


def order_targets(game: GameContext, ch: Character, order: Order) -> list[tuple[str, str]] | None:
    """Targets an order needs, as (key, label), or None (base-rules §12, §11, §5.3).

    Grenade and Smoke Grenade: hexes 1-3 away in LOS of ``ch`` (keys ``CC.RR``); Rifle Grenade
    5-12 hexes. Charge: Known opponents within 4 hexes that can be charged (not in a Fortified
    Building, not 2+ defenders; keys character ids). None for other orders, or when there is
    no legal target (a Charge then moves by its direction string, §11).
    """
    if ch.hex is None:
        return None
    if order.id in _THROWN_ORDERS:
        lo, hi = _throw_range(order.id)
        out = []
        for h in _within(game, ch.hex, hi):
            d = game.distance(ch.hex, h)
            if d < lo or not game.sight(ch, h).clear:
                continue
            known = [c for c in game.opponents(ch) if c.hex == h and c.revealed]
            label = f"{h} ({d} hex{'es' if d > 1 else ''}, {game.board.terrain_of(h).name}"
            label += f", {len(known)} Known enemy)" if known else ")"
            out.append((str(h), label))
        return out or None
    if order.id == "charge":
        rank = _roster_index(game)
        cands = [
            c
            for c in game.opponents(ch)
            if c.revealed
            and not c.dummy
            and game.distance(ch.on_hex, c.on_hex) <= CHARGE_RANGE
            and _can_be_charged(game, c)
        ]
        cands.sort(key=lambda c: (game.distance(ch.on_hex, c.on_hex), rank[c.id]))
        return [
            (c.id, f"{c.name} on {c.on_hex} ({game.distance(ch.on_hex, c.on_hex)} hexes)") for c in cands
        ] or None
    return None


def start_of_activation(game: GameContext, ch: Character) -> bool:
    """Step 4 a) i): passive start-of-activation effects (base-rules §1 Step 4).

    An Unprepared enemy alerted earlier (``ch.acted["unprepared_draw"]``) draws his card now
    (``game.enemy.unprepared_activation``) and does nothing
    more (§5.6): returns False. A
    Rally order on Impulse 1 rolls the Rally Check (RC) against effective TQ + the LDR of the
    best other same-side leader within his LDR hexes (7.17 [house]). Returns True otherwise.
    """
    if game.enemy.unprepared_activation(game, ch):
        return False
    if game.state.flow.impulse == 1 and ch.order is not None and ch.order.order == "rally" and not ch.dummy:
        rally_check(game, ch)
    return True


def rally_check(game: GameContext, ch: Character) -> None:
    """The Rally Check of a Rally order (base-rules §7, 7.17): d10 vs effective TQ + leader LDR."""
    leaders = [
        c
        for c in game.state.active(ch.side)
        if c.id != ch.id and c.ldr > 0 and not c.dummy and game.distance(c.on_hex, ch.on_hex) <= c.ldr
    ]
    best = max(leaders, key=lambda c: c.ldr, default=None)
    bonus = best.ldr if best is not None else 0
    target = ch.effective_tq + bonus
    face = game.dice.d10(f"RC: {ch.name} (Rally, 7.17)").total
    outcome = game.data.checks.resolve(CheckKind.RC, face, target)
    before = ch.morale
    ch.morale = game.data.checks.apply(before, outcome)
    lead = f" + LDR {bonus} of {best.name}" if best is not None else ""
    game.emit(
        "rally",
        f"{ch.name} Rally Check: {face} against TQ {ch.effective_tq}{lead} = {target} "
        f"({outcome.result.value.replace('_', ' ')}): "
        f"{before.value.capitalize()} -> {ch.morale.value.capitalize()}.",
        rule="7, 7.17",
        actor=ch.id,
        data={
            "roll": face,
            "target": target,
            "leader": best.id if best else None,
            "before": before.value,
            "after": ch.morale.value,
        },
    )


def impulse_four_effects(game: GameContext, ch: Character, order: Order) -> None:
    """Impulse 4 effects of Reload, Medical Aid, Search and Plan (base-rules §4; 7.12, 7.14; C2 30).

    Reload: ammo Full. Medical Aid (Medics and trained medics only): a TQC (+2 for a trained
    medic) removes the newest wound of the comrade most in need in the same hex (option
    ``medical_aid_range``: adjacent too). Search: Unknown opponents within 1 hex are revealed
    (dummies removed). Plan: a leader (LDR >= 1; option ``plan_roll``: d10 <= LDR) sets the top
    Friendly card aside for next turn's hand.
    """
    if order.id == "reload":
        _ammo_full(game, [ch], "Reload", "4; 10.10")
    elif order.id == "medical_aid":
        medical_aid(game, ch)
    elif order.id == "search":
        search(game, ch)
    elif order.id == "plan":
        plan(game, ch)


def medical_aid(game: GameContext, ch: Character) -> None:
    """Medical Aid on Impulse 4 (7.14; base-rules §8; C2 30.0)."""
    if not (ch.trained_medic or ch.has_skill("medic")):
        game.emit("medical_aid", f"{ch.name} is no Medic: no Medical Aid.", rule="7.14", actor=ch.id)
        return
    reach = game.options.medical_aid_range
    rank = _roster_index(game)
    severity = {Wound.BAD: 2, Wound.LIGHT: 1}
    patients = [
        c
        for c in game.state.on_side(ch.side)
        if c.id != ch.id and c.on_map and c.wounds and game.distance(c.on_hex, ch.on_hex) <= reach
    ]
    if not patients:
        game.emit(
            "medical_aid", f"{ch.name} finds no wounded comrade within reach.", rule="7.14", actor=ch.id
        )
        return
    patient = min(
        patients,
        key=lambda c: (
            c.status is not Status.INCAPACITATED,
            -severity[c.wounds[-1]],
            -len(c.wounds),
            rank[c.id],
        ),
    )
    bonus = 2 if ch.trained_medic else 0
    target = ch.effective_tq + bonus
    face = game.dice.d10(f"Medical Aid TQC: {ch.name} treats {patient.name}").total
    passed = roll_result(face, target).passed
    wound = patient.wounds[-1]
    if passed:
        patient.wounds.pop()
        _out_of_action_check(patient)
    game.emit(
        "medical_aid",
        f"{ch.name} treats {patient.name}: TQC {face} against {target}"
        + (" (trained medic +2)" if bonus else "")
        + (f": the {wound.value.capitalize()} Wound is removed." if passed else ": no effect."),
        rule="7.14; C2 30.0",
        actor=ch.id,
        data={"patient": patient.id, "roll": face, "target": target, "passed": passed, "wound": wound.value},
    )


def search(game: GameContext, ch: Character) -> None:
    """Search on Impulse 4: Unknown opponents and dummies within 1 hex are revealed (base-rules §4)."""
    found = [
        c for c in game.opponents(ch) if not c.revealed and game.distance(c.on_hex, ch.on_hex) <= SEARCH_RANGE
    ]
    if not found:
        game.emit("search", f"{ch.name} searches and finds nothing.", rule="4", actor=ch.id)
        return
    game.emit(
        "search",
        f"{ch.name} searches around {ch.hex}.",
        rule="4",
        actor=ch.id,
        data={"found": [c.id for c in found]},
    )
    for c in found:
        _reveal(game, c, f"found by {ch.name}'s Search", "4")


def plan(game: GameContext, ch: Character) -> None:
    """Plan on Impulse 4 (7.12 [house]): a Friendly leader sets one Friendly card aside."""
    if ch.side is not Side.FRIENDLY or ch.ldr < 1:
        game.emit(
            "plan", f"{ch.name} is no Friendly leader: Plan has no effect.", rule="7.12 [house]", actor=ch.id
        )
        return
    if game.options.plan_roll:
        face = game.dice.d10(f"Plan roll: {ch.name} (LDR {ch.ldr})").total
        if not roll_result(face, ch.ldr).passed:
            game.emit(
                "plan",
                f"{ch.name} plans but rolls {face} against LDR {ch.ldr}: no card.",
                rule="7.12 [house plan_roll]",
                actor=ch.id,
                data={"roll": face, "target": ch.ldr},
            )
            return
    card = game.friendly_deck.draw_card(game.dice, f"Plan: {ch.name} sets a card aside (7.12)")
    game.state.cards.plan.append(card)
    game.emit(
        "plan",
        f"{ch.name} plans ahead: card {card} is set aside for next turn's hand.",
        rule="7.12",
        actor=ch.id,
        data={"card": card},
    )
