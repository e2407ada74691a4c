"""Invariants checked while a game runs (the soak of issue 3): a broken one raises :class:`InvariantError`.

:func:`watch` attaches a checker to a game: it checks after every event of
the kinds that change things, and :func:`check_state` can be called any time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo.core.errors import SoloError
from solo.rules.state import Side, Status

if TYPE_CHECKING:
    from solo.core.events import Event
    from solo.engine.game import Game

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


def check_terrain(game: Game) -> None:
    """The game's board is the map's own board with the state's terrain changes (§14 Rubble), and
    the map's own board is unchanged (its terrain is the map file's)."""
    st = game.state
    board = game.board
    base = board.base
    if dict(board.changes) != {h: t for h, t in st.terrain_changes.items() if base.map.terrain[h] != t}:
        raise InvariantError(f"the board's terrain changes {board.changes} are not the state's")
    if base.changes or game.los.board is not board:
        raise InvariantError("the map's own board has changes, or the LOS is not on the game's board")
    for h, tid in st.terrain_changes.items():
        if board.terrain_of(h).id != tid:
            raise InvariantError(f"{h} is {board.terrain_of(h).id} on the board, {tid} in the state")


def check_state(game: Game) -> None:
    """Every invariant that can be read from the state alone."""
    check_cards(game)
    check_vehicles(game)
    check_terrain(game)
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


def check_vehicles(game: Game) -> None:
    """Each crewman in exactly one place; no vehicle in impassable terrain; Target Markers in LOS (C2 31)."""
    st = game.state
    vehicles = getattr(st, "vehicles", {}) or {}
    seated: dict[str, str] = {}
    for vid, v in vehicles.items():
        for pos, seat in v.seats.items():
            if seat.occupant is None:
                continue
            if seat.occupant in seated:
                raise InvariantError(
                    f"{seat.occupant} sits in two places ({seated[seat.occupant]} and {vid}.{pos})"
                )
            seated[seat.occupant] = f"{vid}.{pos}"
            ch = st.characters[seat.occupant]
            if ch.vehicle != vid or ch.seat != pos:
                raise InvariantError(f"{ch.name} is in seat {vid}.{pos} but says {ch.vehicle}.{ch.seat}")
            if ch.hex != v.hex:
                raise InvariantError(f"{ch.name} rides {v.name} in {v.hex} but stands in {ch.hex}")
        if v.hex is None or v.destroyed:
            continue
        t = game.board.terrain_of(v.hex)
        vtype = game.data.vehicles.get(v.type)
        wheeled = vtype.kind.is_wheeled
        if t.vehicles.value == "impassable" or (wheeled and not t.wheeled_passable):
            raise InvariantError(f"{v.name} stands in impassable {t.id} on {v.hex}")
    for ch in st.characters.values():
        if ch.vehicle is not None and ch.on_map and f"{ch.vehicle}.{ch.seat}" != seated.get(ch.id):
            raise InvariantError(f"{ch.name} says he rides {ch.vehicle}.{ch.seat} but is not in that seat")


def check_markers(game: Game) -> None:
    """Every Target Marker is on a hex in its owner's LOS (C2 31.7.3-31.7.4)."""
    from solo.rules.vehicles import crew_sight as crew_ai

    for v in (getattr(game.state, "vehicles", {}) or {}).values():
        if not v.is_active:
            continue
        for pos, seat in v.seats.items():
            if seat.marker is None or seat.occupant is None:
                continue
            if not crew_ai.seat_sees(game, v, pos, seat.marker):
                owner = game.state.characters[seat.occupant]
                raise InvariantError(f"{owner.name}'s Target Marker on {seat.marker} is out of his LOS")


def watch(game: Game) -> None:
    """Check invariants after every event of ``game`` from now on."""
    last_team: dict[str, Any] = {"impulse": -1, "index": -1}

    def on_event(ev: Event) -> None:
        st = game.state
        if ev.kind in ACTION_KINDS and ev.actor in st.characters:
            actor = st.characters[ev.actor]
            if actor.status is not Status.ACTIVE and not ev.data.get("as_it_fell"):
                raise InvariantError(f"{actor.name} ({actor.status.value}) acted: {ev.text}")
        if ev.kind == "track":
            check_markers(game)
            values = [v for _t, v in ev.data["track"]]
            if values != sorted(values):
                raise InvariantError(f"Initiative Track out of order: {ev.data['track']}")
            if not game.options.optional_enemy_activation:
                for ch in st.active(Side.ENEMY):
                    riding = ch.vehicle is not None and (ch.seat or "").startswith("passenger")
                    if ch.alert and ch.order is None and ch.prepared and not riding:
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
