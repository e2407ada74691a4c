"""The Enemy: Enemy Card and Order Phase and Enemy order assignment (base-rules §5, §9; C2 23–30).

STUB CONTRACT (to be completed): every function takes the :class:`~solo.engine.Game`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.state import Side

if TYPE_CHECKING:
    from solo.engine import Game


def enemy_card_and_order_phase(game: Game) -> None:
    """Step 3 (base-rules §1, §5.3): reinforcements, cards per Alert enemy, team initiatives, orders."""
    st = game.state
    for team in st.teams.values():
        if team.side is not Side.ENEMY or not team.members:
            continue
        draw = game.enemy_deck.draw(game.dice, f"Enemy Order card for team {team.name} (9.1)")
        card = game.data.enemy_deck.card(draw.card)
        team.initiative = card.initiative
        team.first_card = card.id
        st.cards.enemy_this_turn[f"team:{team.id}"] = card.id
        for cid in team.members:
            ch = st.characters[cid]
            if ch.is_active and ch.alert and ch.order is None:
                game.set_order(ch, "hide", source=f"card {card.id} (stub)")


def return_enemy_cards(game: Game) -> None:
    """Step 5 e): the turn's Enemy cards go to the discards (base-rules §5.5)."""
    st = game.state
    for card_id in dict.fromkeys(st.cards.enemy_this_turn.values()):
        game.enemy_deck.discard(card_id)
    st.cards.enemy_this_turn.clear()
    for team in st.teams.values():
        if team.side is Side.ENEMY:
            team.initiative = None
            team.first_card = None
