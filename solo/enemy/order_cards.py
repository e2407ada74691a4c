"""The Enemy Order card draws and the team's initiative (base-rules §5.2, §5.5; rules 9.1, 9.2; C2 30.2).

:func:`_draw_for_team`: a card drawn in the Enemy Card and Order Phase; the first card a team
draws sets its initiative (9.1); in a Large Battle (:func:`_large_battle`) the team's card serves
every member (9.2). A trained medic who reads a fire order draws again (C2 30.2): in the phase the
extra cards stay with the turn's cards until Step 5 e) (:func:`_phase_redraw`); outside it they
are discarded at once (:func:`_loose_redraw`, §5.5).

May import: :mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`; nothing else of :mod:`solo.enemy`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from solo.data.cards import EnemyOrderCard
from solo.rules.state import Character, Team

if TYPE_CHECKING:
    from solo.rules.context import GameContext


def _large_battle(game: GameContext) -> bool:
    return bool(getattr(game.scenario, "large_battle", False))


def _draw_for_team(game: GameContext, team: Team, why: str) -> EnemyOrderCard:
    """Draw a card in the Enemy phase for ``team``; the first sets its initiative (9.1)."""
    st = game.state
    card = game.data.enemy_deck.card(
        game.enemy_deck.draw_card(game.dice, f"Enemy Order card, team {team.name}: {why}")
    )
    if team.first_card is None:
        team.first_card = card.id
        team.initiative = card.initiative
        st.cards.enemy_this_turn[f"team:{team.id}"] = card.id
        game.emit(
            "initiative",
            f"{team.name}: the first card drawn, {card.id}, sets the team's initiative {card.initiative} "
            "(9.1" + (", one card for the team: Large Battle 9.2" if _large_battle(game) else "") + ").",
            rule="9.1" + (", 9.2" if _large_battle(game) else ""),
            actor=team.id,
            data={"team": team.id, "card": card.id, "initiative": card.initiative, "why": why},
        )
    return card


def _phase_redraw(game: GameContext, ch: Character) -> Callable[[], EnemyOrderCard]:
    """Extra draws of the phase (trained medics): kept with the turn's cards until Step 5 e)."""
    count = [0]

    def draw() -> EnemyOrderCard:
        count[0] += 1
        drawn = game.enemy_deck.draw_card(game.dice, f"Enemy Order card: {ch.name} draws again (C2 30.2)")
        game.state.cards.enemy_this_turn[f"{ch.id}#{count[0] + 1}"] = drawn
        return game.data.enemy_deck.card(drawn)

    return draw


def _loose_redraw(game: GameContext, ch: Character) -> Callable[[], EnemyOrderCard]:
    """Extra draws outside the phase: discarded at once (a mid-turn card, §5.5)."""

    def draw() -> EnemyOrderCard:
        drawn = game.enemy_deck.draw_card(game.dice, f"Enemy Order card: {ch.name} draws again (C2 30.2)")
        game.enemy_deck.discard(drawn)
        return game.data.enemy_deck.card(drawn)

    return draw
