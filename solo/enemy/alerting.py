"""Alerting the Enemy, Prepared and Unprepared (base-rules §5.6), and orders drawn on activation (C2 23.5).

:func:`alert`: a Waiting enemy becomes Alert. A Prepared one, in the Action Phase or the Enemy
phase, draws his card at once; an Unprepared one is marked (``ch.acted[UNPREPARED_KEY]``) to draw
in a) i) of his next activation and do nothing more then (:func:`unprepared_activation`).
:func:`assign_on_activation`: with C2 23.5 (``optional_enemy_activation``) an Alert enemy without
an order draws it when his team activates or when he is fired upon. A card drawn outside the
phase has its initiative ignored and is discarded once used (§5.5).

May import: :mod:`~solo.enemy.order_lookup`, :mod:`~solo.enemy.order_cards`, :mod:`solo.rules`,
:mod:`solo.data`, :mod:`solo.core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.enemy.order_cards import _draw_for_team, _large_battle, _phase_redraw
from solo.enemy.order_lookup import _can_take_order, _give, _lookup, _opponent_here, order_for
from solo.rules.state import Character, GivenOrder, Phase, Side

if TYPE_CHECKING:
    from solo.rules.context import GameContext


# ---------------------------------------------------------------------------
# Constants

UNPREPARED_KEY = "unprepared_draw"
"""``ch.acted`` key: an Unprepared enemy alerted this turn draws at his next activation (§5.6)."""


# ---------------------------------------------------------------------------
# A Waiting enemy becomes Alert (§5.6); orders on activation (C2 23.5)


def alert(game: GameContext, ch: Character, reason: str, rule: str) -> GivenOrder | None:
    """A Waiting enemy becomes Alert (base-rules §5.6); Prepared ones take an order at once.

    ``reason`` is plain words for the log ("a weapon fired within 10 hexes"),
    ``rule`` its rule ("§5.6 condition 1"). Does nothing for a Friendly, an
    inactive or an already Alert character. In the Action Phase and the Enemy
    phase a **Prepared** enemy draws a card now and takes its order (the card's
    initiative is ignored; the card is discarded once used, §5.5; in a Large
    Battle he reads his team's card, 9.2 [house]). An **Unprepared** enemy is
    marked (``ch.acted["unprepared_draw"]``) to draw in a) i) of his next
    activation and do nothing then (:func:`unprepared_activation`). Before the
    Enemy phase, the phase orders him; in the End Phase (conditions 6 and 8) he
    is simply ordered in the next Enemy phase [house]. Returns the order given
    now, if any.
    """
    if ch.side is not Side.ENEMY or ch.alert or not ch.is_active:
        return None
    ch.alert = True
    phase = game.state.flow.phase
    now = phase in (Phase.ACTION, Phase.ENEMY_CARD_ORDER)
    if not ch.prepared and phase in (
        Phase.ACTION,
        Phase.ENEMY_CARD_ORDER,
        Phase.FRIENDLY_CARD,
        Phase.FRIENDLY_ORDER,
    ):
        ch.acted[UNPREPARED_KEY] = True
        then = "Unprepared: he draws his card at his next activation and does nothing then"
    elif ch.prepared and now and ch.order is None and ch.hex is not None:
        then = "Prepared: he draws his card at once"
    elif phase in (Phase.FRIENDLY_CARD, Phase.FRIENDLY_ORDER):
        then = "he is ordered in this turn's Enemy Card and Order Phase"
    else:
        then = "he is ordered in the next Enemy Card and Order Phase"
    game.emit(
        "alert",
        f"{ch.name} becomes Alert: {reason} ({rule}); {then} (§5.6).",
        rule=f"{rule}, §5.6",
        actor=ch.id,
        data={"reason": reason, "prepared": ch.prepared, "phase": phase.value},
    )
    if not (ch.prepared and now and ch.order is None and ch.hex is not None):
        return None
    return _mid_turn_order(game, ch, "Prepared and just alerted, §5.6")


def unprepared_activation(game: GameContext, ch: Character) -> bool:
    """Step 4 a) i): an Unprepared enemy alerted earlier draws now and does nothing more (§5.6).

    Returns True when ``ch`` spends this activation drawing his card (the
    caller then ends his activation: he acts from the next Impulse); False
    otherwise. The lead calls this at the start of every Enemy activation.
    """
    if not ch.acted.pop(UNPREPARED_KEY, False):
        return False
    if not ch.is_active or ch.hex is None or ch.order is not None:
        return False
    _mid_turn_order(game, ch, "Unprepared, alerted earlier: he does nothing more this activation, §5.6")
    ch.acted["unprepared_idle"] = game.state.flow.impulse
    return True


def assign_on_activation(game: GameContext, ch: Character) -> GivenOrder | None:
    """C2 23.5: give an Alert enemy without an order his order now (team activation or fired upon).

    The lead calls it for each member at the start of a team's activation and
    when an Enemy without an order is fired upon. The card is one of the turn's
    draws (kept in ``enemy_this_turn`` until Step 5 e); in a Large Battle the
    man reads the team's initiative card (9.2). Does nothing (returns None) for
    the Waiting, the ordered, the inactive and an Unprepared man whose draw is
    pending. An opponent in the hex gives Melee without a card.
    """
    if not _can_take_order(ch) or not ch.alert or ch.acted.get(UNPREPARED_KEY):
        return None
    if _opponent_here(game, ch):
        return _give(game, ch, order_for(game, ch, None))
    st = game.state
    team = st.teams[ch.team]
    if _large_battle(game) and team.first_card is not None:
        card = game.data.enemy_deck.card(team.first_card)
        via = "reads the team's card"
    else:
        card = _draw_for_team(game, team, f"{ch.name}'s order on activation (C2 23.5)")
        via = "draws on activation (C2 23.5)"
    st.cards.enemy_this_turn[ch.id] = card.id
    return _give(game, ch, _lookup(game, ch, card, via=via, redraw=_phase_redraw(game, ch)))


def _mid_turn_order(game: GameContext, ch: Character, why: str) -> GivenOrder | None:
    """An order drawn outside the phase (§5.6): initiative ignored, the card discarded once used (§5.5)."""
    if _opponent_here(game, ch):
        return _give(game, ch, order_for(game, ch, None))
    team = game.state.teams[ch.team]
    if _large_battle(game) and team.first_card is not None:
        card = game.data.enemy_deck.card(team.first_card)
        return _give(game, ch, _lookup(game, ch, card, via="reads the team's card", redraw=None, why=why))
    drawn = game.enemy_deck.draw_card(game.dice, f"Enemy Order card: {ch.name}, {why}; initiative ignored")
    card = game.data.enemy_deck.card(drawn)
    try:
        order = _lookup(game, ch, card, via="draws", redraw=None, why=why)
    finally:
        game.enemy_deck.discard(card.id)
    return _give(game, ch, order)


__all__ = [
    "UNPREPARED_KEY",
    "alert",
    "assign_on_activation",
    "unprepared_activation",
]
