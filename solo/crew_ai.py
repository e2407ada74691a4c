"""Enemy vehicle crews: orders from the Vehicle Order Matrix and Target Markers (C2 31.7.4, 31.11.3).

STUB CONTRACT (to be completed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.state import Side

if TYPE_CHECKING:
    from solo.engine import Game


def enemy_vehicle_orders(game: Game) -> None:
    """Step 3 b) for Enemy vehicles: a card per crew member, Commander first; his card sets the
    vehicle's initiative (31.1); each order read on the VOM (31.11.3)."""
    st = game.state
    for vid, vehicle in st.vehicles.items():
        if vehicle.side is not Side.ENEMY or not vehicle.is_active:
            continue
        team = st.teams[vid]
        for cid in team.members:
            ch = st.characters[cid]
            if not ch.is_active or ch.order is not None:
                continue
            draw = game.enemy_deck.draw(
                game.dice, f"Enemy Order card for {ch.name} ({vehicle.name}) (31.11.3)"
            )
            card = game.data.enemy_deck.card(draw.card)
            st.cards.enemy_this_turn[cid] = card.id
            if team.initiative is None:
                team.initiative = card.initiative
                team.first_card = card.id
            game.set_order(ch, "spot", source=f"card {card.id} (stub)")
