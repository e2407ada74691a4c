"""Checks and morale (base-rules §7; C2 23.1): the TQC, MC, WMC and RC rolls, Duck Back (7.19) and Morale
State changes.

May import: solo.rules.spotting and the rooms below rules."""

from __future__ import annotations

from solo.data.tables import CheckKind, CheckOutcome, MoraleState, RollResult, step_morale
from solo.rules.context import GameContext
from solo.rules.spotting import _tracker
from solo.rules.state import Character


def check(
    game: GameContext,
    ch: Character,
    kind: CheckKind,
    *,
    modifier: int = 0,
    purpose: str,
    apply: bool = True,
) -> CheckOutcome:
    """Roll check ``kind`` (MC, RC, WMC or TQC) for ``ch``: a d10 against effective TQ + ``modifier``.

    A natural 9 always fails (C2 23.1); a natural 0 is best (base-rules §7). For MC, RC and
    WMC the morale change of the check table (``game.data.checks``) is applied within its gain
    cap unless ``apply`` is False; a TQC only passes or fails. Emits one ``"check"`` event.
    """
    _tracker(game)
    target = ch.effective_tq + modifier
    name = kind.name
    roll = game.dice.d10(f"{name}: {ch.name} ({purpose})").total
    checks = game.data.checks
    outcome = checks.resolve(kind, roll, target)
    before = ch.morale
    after = checks.apply(before, outcome) if apply and checks.table(kind).changes_morale else before
    ch.morale = after
    words = {
        RollResult.NATURAL_0: "natural 0",
        RollResult.PASSED: "passed",
        RollResult.FAILED: "failed",
        RollResult.NATURAL_9: "natural 9, failed",
    }[outcome.result]
    text = f"{ch.name} {name} ({purpose}): d10 {roll} vs {target} → {words}"
    if after is not before:
        text += f"; morale {before.value} → {after.value}"
    game.emit(
        "check",
        text + ".",
        rule="base-rules §7; C2 23.1",
        actor=ch.id,
        data={
            "check": kind.value,
            "roll": roll,
            "target": target,
            "modifier": modifier,
            "result": outcome.result.value,
            "morale_before": before.value,
            "morale_after": after.value,
            "purpose": purpose,
        },
    )
    return outcome


def duck_back(game: GameContext, ch: Character, *, reason: str, rule: str) -> bool:
    """Replace ``ch``'s order with Duck Back (7.19). Returns True if it changed.

    [house] A character holding no order (a Waiting enemy) is not given one.
    """
    if ch.order is None or ch.order.order == "duck_back" or not ch.is_active:
        return False
    game.set_order(ch, "duck_back", source=f"{reason} ({rule})")
    game.emit(
        "duck_back",
        f"{ch.name} ducks back ({reason}).",
        rule=rule,
        actor=ch.id,
        data={"character": ch.id, "reason": reason},
    )
    return True


def morale_check(
    game: GameContext, ch: Character, reason: str, rule: str, *, melee: bool = False, modifier: int = 0
) -> CheckOutcome:
    """An MC for ``ch``; a failed MC (morale drops) gives Duck Back, except in melee.

    base-rules §7, C2 31.10.6. Returns the check outcome.
    """
    outcome = check(game, ch, CheckKind.MC, modifier=modifier, purpose=reason)
    if outcome.morale_steps < 0 and not melee:
        duck_back(game, ch, reason=f"failed MC: {reason}", rule=f"{rule}; base-rules §7")
    return outcome


def change_morale(
    game: GameContext, ch: Character, steps: int, cap: MoraleState | None, reason: str, rule: str
) -> MoraleState:
    """Move ``ch``'s Morale State ``steps`` (+ better) within ``cap`` (None: Berserk); emit it.

    base-rules §7. A gain never worsens a state already better than the cap. Returns the new state.
    """
    before = ch.morale
    after = step_morale(before, steps, cap=cap)
    ch.morale = after
    if after is not before:
        game.emit(
            "morale",
            f"{ch.name}: morale {before.value} → {after.value} ({reason}).",
            rule=rule,
            actor=ch.id,
            data={"character": ch.id, "steps": steps, "before": before.value, "after": after.value},
        )
    return after
