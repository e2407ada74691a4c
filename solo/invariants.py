"""Invariants checked while a game runs (the soak of issue 3): a broken one raises :class:`InvariantError`.

:func:`watch` attaches a checker to a game: it checks after every event of
the kinds that change things, and :func:`check_state` can be called any time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.errors import SoloError
from solo.state import Side, Status

if TYPE_CHECKING:
    from solo.engine import Game
    from solo.events import Event

ACTION_KINDS = frozenset({"fire", "move", "melee", "throw", "spot"})
"""Event kinds that mean the actor acted: the actor must be active when they happen."""


class InvariantError(SoloError, AssertionError):
    """An invariant of the game was broken (an engine bug)."""


def check_cards(game: Game) -> None:
    """Cards are conserved across deck, hand, discard, plan and play, for both decks."""
    st = game.state
    friendly_total = len(game.data.friendly_deck.cards)
    held = len(st.cards.hand) + len(st.cards.plan) + (1 if st.cards.played else 0)
    f = len(game.friendly_deck) + len(game.friendly_deck.discards)
    if f + held != friendly_total:
        raise InvariantError(
            f"Friendly cards: {f} in deck/discards + {held} held = {f + held}, expected {friendly_total}"
        )
    out = len(dict.fromkeys(st.cards.enemy_this_turn.values()))
    e = len(game.enemy_deck) + len(game.enemy_deck.discards)
    if e + out != len(game.data.enemy_deck.cards):
        raise InvariantError(f"Enemy cards: {e} in deck/discards + {out} out, expected 50")


def check_state(game: Game) -> None:
    """Every invariant that can be read from the state alone."""
    check_cards(game)
    st = game.state
    for ch in st.characters.values():
        if ch.hex is None or not ch.on_map:
            continue
        if not game.board.map.has_hex(ch.hex):
            raise InvariantError(f"{ch.name} stands on {ch.hex}, off the map")
        t = game.board.terrain_of(ch.hex)
        if not t.character_passable:
            raise InvariantError(f"{ch.name} stands in impassable terrain ({t.id}) on {ch.hex}")
        fire = st.markers.fire.get(ch.hex)
        if fire and st.markers.fire_started.get(ch.hex, -1) != st.flow.turn and ch.acted.get("entered_fire"):
            raise InvariantError(f"{ch.name} entered the burning hex {ch.hex}")


def watch(game: Game) -> None:
    """Check invariants after every event of ``game`` from now on."""
    last_team: dict[str, int] = {"impulse": -1, "index": -1}

    def on_event(ev: Event) -> None:
        st = game.state
        if ev.kind in ACTION_KINDS and ev.actor in st.characters:
            actor = st.characters[ev.actor]
            if actor.status is not Status.ACTIVE and not ev.data.get("as_it_fell"):
                raise InvariantError(f"{actor.name} ({actor.status.value}) acted: {ev.text}")
        if ev.kind == "track":
            values = [v for _t, v in ev.data["track"]]
            if values != sorted(values):
                raise InvariantError(f"Initiative Track out of order: {ev.data['track']}")
            if not game.options.optional_enemy_activation:
                for ch in st.active(Side.ENEMY):
                    if ch.alert and ch.order is None and ch.prepared:
                        raise InvariantError(f"Alert enemy {ch.name} has no order after the Enemy phase")
        if st.flow.active_team is not None and st.flow.impulse:
            idx = st.flow.track.index(st.flow.active_team)
            if last_team["impulse"] == (st.flow.turn, st.flow.impulse) and idx < last_team["index"]:
                raise InvariantError(f"team {st.flow.active_team} activated out of Initiative Track order")
            last_team["impulse"] = (st.flow.turn, st.flow.impulse)
            last_team["index"] = idx
        if ev.kind in ("turn", "impulse", "move", "track", "game_over"):
            check_state(game)

    game.listeners.append(on_event)
