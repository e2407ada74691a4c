"""The Enemy Card and Order Phase (base-rules §1 Step 3, §5; rules 9.1, 9.2; C2 23.5, 27.7, 30.2).

Every function takes the :class:`~solo.engine.game.Game` first. The phase
(:func:`enemy_card_and_order_phase`):

1. reinforcements due this turn (:func:`place_reinforcements`, base-rules §5.7);
2. pre-passes "at the start of the phase": an Enemy trained medic in a hex with
   a wounded comrade takes Medical Aid (C2 30.2); two or more enemies in a
   Barbed Wire hex: the lowest TQ takes Hide (C2 27.7);
3. team by team in scenario order, member by member (base-rules §2): skip the
   ordered, the Waiting (no order, §5.6) and those whose Unprepared draw is
   pending; an opponent in the hex gives Melee without a card (§5.3 step 3);
   the scenario's overrides come next (a first-order table, "in a Building + TQC → Aimed
   Fire", :mod:`~solo.enemy.first_orders`, §5.3 step 4);
   the others draw a card (one per character, rule 9.1; one per team in a
   Large Battle, 9.2) and read it (:func:`~solo.enemy.order_lookup.order_for`).
   The first card drawn for a team sets its initiative (9.1); a team that drew
   none draws one for its initiative. With C2 23.5 (``optional_enemy_activation``)
   only that initiative card is drawn here and orders wait for
   :func:`~solo.enemy.alerting.assign_on_activation`.

Enemy vehicle crews take their orders from the VOM (:mod:`solo.enemy.vom_orders`). Step 5 e)
returns the turn's Enemy cards to the discards (:func:`return_enemy_cards`, §5.5).

May import: :mod:`~solo.enemy.alerting`, :mod:`~solo.enemy.order_lookup`,
:mod:`~solo.enemy.order_cards`, :mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.core.hexes import Hex
from solo.data.cards import EnemyOrderCard
from solo.data.tables import MoraleState
from solo.enemy import first_orders
from solo.enemy.alerting import UNPREPARED_KEY
from solo.enemy.order_cards import _draw_for_team, _large_battle, _phase_redraw
from solo.enemy.order_lookup import (
    _Field,
    _fixed,
    _give,
    _in_wire,
    _lookup,
    _opponent_here,
    _pick,
    _wound_weight,
)
from solo.rules.state import Character, Side

if TYPE_CHECKING:
    from solo.rules.context import GameContext


# ---------------------------------------------------------------------------
# Step 3: the Enemy Card and Order Phase


def enemy_card_and_order_phase(game: GameContext) -> None:
    """Step 3 (base-rules §1, §5.3; rules 9.1, 9.2; C2 23.5, 27.7, 30.2): cards, initiatives, orders.

    Reinforcements first, then the trained-medic and barbed-wire pre-passes,
    then team by team in scenario order (see the module docstring). Sets
    ``team.initiative`` and ``team.first_card`` of every Enemy team with a man
    on the map, and remembers every card drawn in ``state.cards.enemy_this_turn``
    (``"team:<id>"`` and per character id) until :func:`return_enemy_cards`.
    """
    st = game.state
    arrived = {c.id for c in place_reinforcements(game) if c.order is None}
    _medic_prepass(game)
    _wire_prepass(game)
    deferred = bool(game.options.optional_enemy_activation)
    field = _Field(game)
    for team in st.teams.values():
        if team.side is not Side.ENEMY or team.id in st.vehicles:  # crews: the VOM (solo.enemy.vom_orders)
            continue
        on_map = [st.characters[c] for c in team.members]
        on_map = [c for c in on_map if c.is_active and c.hex is not None]
        if not on_map:
            continue
        # Passengers ride under the crew rules (solo.enemy.vom_orders), but their team still takes its
        # initiative from a card (9.1) so that they activate.
        members = [c for c in on_map if c.vehicle is None]
        waiting: list[Character] = []
        shared: EnemyOrderCard | None = None
        for ch in members:
            if ch.order is not None:
                continue
            if not ch.alert:
                waiting.append(ch)
                continue
            if ch.acted.get(UNPREPARED_KEY):
                continue
            if field.opponent_here(ch):
                _give(game, ch, _lookup(game, ch, None, via="", redraw=None, field=field))
                continue
            if deferred:
                continue
            # §5.3 step 4: the scenario's first-order table, then "in a Building + TQC → Aimed Fire".
            given = first_orders.first_order(game, field, ch, arrived=ch.id in arrived)
            if given is None:
                given = first_orders.building_aimed_fire(game, field, ch)
            if given is not None:
                _give(game, ch, given)
                continue
            if shared is not None:
                card, via = shared, "reads the team's card"
            else:
                card = _draw_for_team(game, team, f"{ch.name}'s order (9.1)")
                via = "draws"
                if _large_battle(game):
                    shared = card
            st.cards.enemy_this_turn[ch.id] = card.id
            _give(game, ch, _lookup(game, ch, card, via=via, redraw=_phase_redraw(game, ch), field=field))
        if team.first_card is None:
            why = "initiative only (C2 23.5)" if deferred else "initiative: no Alert man drew a card (9.1)"
            _draw_for_team(game, team, why)
        if waiting:
            names = ", ".join(c.name for c in waiting)
            game.emit(
                "enemy_waiting",
                f"{team.name}: {names} "
                + ("is Waiting and gets" if len(waiting) == 1 else "are Waiting and get")
                + " no order (base-rules §5.6).",
                rule="§5.6",
                actor=team.id,
                data={"team": team.id, "waiting": [c.id for c in waiting]},
            )


def return_enemy_cards(game: GameContext) -> None:
    """Step 5 e): the turn's Enemy cards go to the discards (base-rules §5.5); initiatives clear."""
    st = game.state
    for card_id in dict.fromkeys(st.cards.enemy_this_turn.values()):
        game.enemy_deck.discard(card_id)
    st.cards.enemy_this_turn.clear()
    for team in st.teams.values():
        if team.side is Side.ENEMY:
            team.initiative = None
            team.first_card = None


def place_reinforcements(game: GameContext) -> list[Character]:
    """Step 3 a): place the reinforcements due this turn (base-rules §1, §5.7).

    Delegates to :func:`solo.rules.setup.place_reinforcements`: each due wave
    enters Alert and Prepared, with its forced order if the scenario gives one
    (e.g. Evade along a string, §5.7); those without one are ordered by this
    phase like any Alert enemy. Does nothing when the scenario has no
    reinforcements. Returns the characters placed.
    """
    if not game.state.flags.get("reinforcements"):
        return []
    from solo.rules import setup

    return list(setup.place_reinforcements(game))


# ---------------------------------------------------------------------------
# Pre-passes at the start of the phase: trained medics (C2 30.2), barbed wire (C2 27.7)


def _medic_prepass(game: GameContext) -> None:
    """C2 30.2: a trained medic starting the phase with a wounded comrade in his hex takes Medical Aid."""
    st = game.state
    for medic in st.active(Side.ENEMY):
        if not medic.trained_medic or not medic.alert or medic.order is not None:
            continue
        if medic.acted.get(UNPREPARED_KEY) or _opponent_here(game, medic):
            continue
        here = [
            w
            for w in st.at(medic.on_hex)
            if w is not medic and w.side is medic.side and w.wounds and w.is_active
        ]
        if not here:
            continue
        w = _pick(
            game, here, key=lambda x: -_wound_weight(x), purpose=f"{medic.name}: whom to treat (C2 30.2)"
        )
        _give(
            game,
            medic,
            _fixed(
                game,
                medic,
                "medical_aid",
                f"{medic.name}, a trained medic, starts the phase with wounded {w.name} in his hex: "
                "Medical Aid, no card (C2 30.2).",
                "C2 30.2",
                w.id,
            ),
        )
        if w.order is None and w.alert and not w.acted.get(UNPREPARED_KEY):
            below = w.morale.rank > MoraleState.NORMAL.rank
            oid = "rally" if below else "hide"
            why = "below Normal" if below else "Normal or better"
            _give(
                game,
                w,
                _fixed(
                    game,
                    w,
                    oid,
                    f"{w.name} is treated by {medic.name}; his morale is {w.morale.value} ({why}): "
                    f"{oid.capitalize()}, no card (C2 30.2).",
                    "C2 30.2",
                ),
            )


def _wire_prepass(game: GameContext) -> None:
    """C2 27.7: two or more enemies in a wire hex: the lowest TQ (random if tied) takes Hide first."""
    st = game.state
    seen: dict[Hex, None] = {}
    for ch in st.active(Side.ENEMY):
        if ch.on_hex in seen or not _in_wire(game, ch.on_hex):
            continue
        seen[ch.on_hex] = None
        here = [c for c in st.at(ch.on_hex) if c.side is Side.ENEMY and c.is_active]
        if len(here) < 2 or _opponent_here(game, ch):
            continue
        if any(c.order is not None and c.order.order == "hide" for c in here):
            continue
        free = [c for c in here if c.order is None and c.alert and not c.acted.get(UNPREPARED_KEY)]
        if not free:
            continue
        low = _pick(
            game, free, key=lambda c: c.effective_tq, purpose=f"lowest TQ in the wire at {ch.hex} (C2 27.7)"
        )
        _give(
            game,
            low,
            _fixed(
                game,
                low,
                "hide",
                f"{low.name} (TQ {low.effective_tq}) has the lowest TQ of the {len(here)} enemies in the "
                f"Barbed Wire at {low.hex}: Hide, before the others' orders (C2 27.7).",
                "C2 27.7",
            ),
        )


__all__ = [
    "enemy_card_and_order_phase",
    "place_reinforcements",
    "return_enemy_cards",
]
