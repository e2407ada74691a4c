"""The ``simple`` Friendly policy (issue 3 item 5): fire at what it sees, move toward the enemy or
cover, rally the shaken. Its own module so that ``tactical`` can fall back on it and ``policies``
can name both without an import circle.

May import core, data, rules and engine.
"""

from __future__ import annotations

from solo.core.hexes import Hex, wedge_directions
from solo.data.friendly_deck import FriendlyCard, WoundStamp
from solo.engine.game import Decision, DecisionKind, Game
from solo.rules.state import Character, Side


class SimplePolicy:
    """A sensible squad leader: fire at what it sees, move toward the enemy or cover, rally the shaken.

    Deterministic: it breaks ties by the order of the options.
    """

    name = "simple"

    def __call__(self, game: Game, decision: Decision) -> str:
        kind = decision.kind
        keys = decision.keys
        if kind is DecisionKind.PLAY_CARD:
            return min(keys, key=lambda k: _card_value(game, k))
        if kind is DecisionKind.DISCARD:
            return max(keys, key=lambda k: _card_value(game, k))
        if kind is DecisionKind.DUCK_BACK:
            return "no"
        if kind is DecisionKind.MAY_MOVE:
            return "move"
        if kind is DecisionKind.FIRE_TARGET:
            shots = [k for k in keys if k != "hold"]
            return shots[0] if shots else keys[0]
        if kind is DecisionKind.WOUND_CARD:  # C2 24.1: Tough keeps the lesser card, Deadly the worse
            deck = game.data.friendly_deck
            severity = {k: _stamp(deck.card(k)).severity for k in keys}
            pick = max if decision.prompt.startswith("Deadly") else min
            return pick(keys, key=lambda k: (severity[k], -keys.index(k)))
        ch = game.char(decision.actor) if decision.actor in game.state.characters else None
        if kind is DecisionKind.GIVE_ORDER and ch is not None:
            return self._order(game, ch, keys)
        if kind is DecisionKind.ORDER_DIRECTION and ch is not None:
            return self._direction(game, ch, keys)
        return keys[0]

    def _order(self, game: Game, ch: Character, keys: tuple[str, ...]) -> str:
        def first(*names: str) -> str | None:
            return next((n for n in names if n in keys), None)

        if ch.morale.rank >= 4:  # Cautious or worse
            pick = first("rally", "hide")
            if pick:
                return pick
        if "melee" in keys:
            return "melee"
        opponents = game.opponents(ch)
        # Stops at the first Known enemy in LOS (LOS answers are pure: asking fewer changes nothing).
        if any(e.revealed and game.sees(ch, e) for e in opponents):
            pick = first("aimed_fire", "rapid_fire", "suppressive_fire", "hide")
            if pick:
                return pick
        if game.in_cover(ch) and any(e.revealed for e in opponents):
            pick = first("hide", "aimed_fire")
            if pick:
                return pick
        return first("sneak", "evade", "hide") or keys[0]

    def _direction(self, game: Game, ch: Character, keys: tuple[str, ...]) -> str:
        goal = _goal(game, ch)
        if goal is None or goal == ch.hex:
            return keys[0]
        wedge = wedge_directions(ch.on_hex, goal, game.board.map.stagger)
        want = "/".join(str(d) for d in wedge) if len(wedge) == 2 else str(wedge[0])
        if want in keys:
            return want
        return next((k for k in keys if k.startswith(str(wedge[0]))), keys[0])


def _card_value(game: Game, card_id: str) -> int:
    c = game.data.friendly_deck.card(card_id)
    if c.initiatives is None:
        return 1000  # keep Event cards for last
    return c.initiatives.able + c.initiatives.baker + c.initiatives.charlie


def _stamp(card: FriendlyCard) -> WoundStamp:
    """The wound stamp of a card offered by a wound draw (base-rules §8); ValueError if it has none."""
    if card.stamp is None:
        raise ValueError(f"card {card.id} has no wound stamp (base-rules §8)")
    return card.stamp


def _goal(game: Game, ch: Character) -> Hex | None:
    """Where ``ch`` heads: the nearest Known enemy, else the nearest enemy, else the scenario objective."""
    enemies = game.state.active(Side.ENEMY)  # all on the map
    known = [e for e in enemies if e.revealed] or enemies
    if known:
        # game.distance by the board's cube coordinates (the same hexes, without two to_cube calls each)
        board = game.board
        cube, index = board.cube, board.index
        x, y, z = cube[index[ch.on_hex]]

        def near(e: Character) -> tuple[int, str]:
            ex, ey, ez = cube[index[e.on_hex]]
            return max(abs(x - ex), abs(y - ey), abs(z - ez)), e.id

        return min(known, key=near).hex
    objectives = getattr(game.scenario, "objectives", None)
    first: Hex | None = objectives[0] if objectives else None
    return first
