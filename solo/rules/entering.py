"""Entering a hex (base-rules §6 step 5, §11, §16; C2 29.2): whether a man may enter, wire, rough
ground, burning hexes.

May import: the rules below it and the rooms below rules."""

from __future__ import annotations

import enum

from solo.core.hexes import Hex
from solo.data.orders import Order
from solo.data.tables import MoraleState
from solo.rules.context import GameContext
from solo.rules.state import Character, Side, Status

ENEMY_ENTERS_HIDDEN_HEX = True
"""[house] base-rules §11 mirrored: an Enemy mover may enter the hex of a Hidden Friendly he
does not know is there; the Friendly is Spotted, a melee follows and the mover stops. False:
a Hidden Friendly's hex is simply not enterable for an Enemy mover."""

WIRE_ONLY_ORDER = "sneak"
"""C2 27.7: the only order that may leave a Barbed Wire hex."""


FORTIFIED = "fortified_building"
"""Terrain (or overlay) id of a Fortified Building: never charged (C2 27.2)."""


class Entry(enum.Enum):
    """What happens when a mover tries to enter a hex (base-rules §6 step 5)."""

    OK = "ok"
    OFF_MAP = "off the map"
    LEAVES_MAP = "leaves the map (Rout, §5.7)"
    EXITS = "leaves the map by a scenario exit (§19)"
    IMPASSABLE = "impassable terrain"
    FIRE = "a Fire hex (C2 29.2)"
    OPPONENT = "an opponent's hex (§11)"
    CHARGE_IN = "charges into an opponent's hex (§11)"
    SURPRISE = "enters an unseen opponent's hex (§11)"

    @property
    def enters(self) -> bool:
        """True if the mover goes in."""
        return self in (Entry.OK, Entry.CHARGE_IN, Entry.SURPRISE)

    @property
    def permanent(self) -> bool:
        """A block that later Impulses of this turn cannot lift (map edge, terrain, fire)."""
        return self in (Entry.OFF_MAP, Entry.IMPASSABLE, Entry.FIRE)


def entry(game: GameContext, ch: Character, order: Order, frm: Hex, d: int) -> tuple[Hex | None, Entry]:
    """May ``ch`` (with ``order``) step from ``frm`` in map direction ``d``? ``(hex, verdict)``.

    base-rules §6 step 5: not off the map (a Routed enemy leaves it when the
    option ``rout_leaves_map`` is on, §5.7), not impassable, not on fire
    (C2 29.2), not holding an opponent: only Charge and Melee enter one, and
    not a hex of two or more or a Fortified Building (§11, C2 27.2); a Friendly
    may walk into an Unknown enemy's hex (and an Enemy into a Hidden
    Friendly's, :data:`ENEMY_ENTERS_HIDDEN_HEX`): the opponents are found. A step off the map
    across a scenario exit of his side (:func:`may_exit`) is ``Entry.EXITS``.
    """
    board = game.board
    n = board.neighbours[board.index[frm]][d]
    if n < 0:
        if ch.side is Side.ENEMY and ch.morale is MoraleState.ROUT and game.options.rout_leaves_map:
            return None, Entry.LEAVES_MAP
        if ch.vehicle is None and may_exit(game, ch, frm, d):
            return None, Entry.EXITS
        return None, Entry.OFF_MAP
    to = board.hexes[n]
    if not _passable(game, to):
        return to, Entry.IMPASSABLE
    if _burning(game, to):
        return to, Entry.FIRE
    opp = _opponents_at(game, ch, to)
    if opp:
        if order.id in ("charge", "melee"):
            if len(opp) >= 2 or _fortified(game, to):
                return to, Entry.OPPONENT
            return to, Entry.CHARGE_IN
        if all(not o.revealed for o in opp) and (ch.side is Side.FRIENDLY or ENEMY_ENTERS_HIDDEN_HEX):
            return to, Entry.SURPRISE
        return to, Entry.OPPONENT
    return to, Entry.OK


def off_map_edge(game: GameContext, frm: Hex, d: int) -> str:
    """The map side (``north``, ``south``, ``east``, ``west``) a step from edge hex ``frm`` in map
    direction ``d`` leaves by (§19 exits). Directions 1 and 4 leave by the north and south; 2-3
    and 5-6 by the east or west from the last or first column, else by the north (2, 6) or south
    (3, 5) [house]."""
    if d == 1:
        return "north"
    if d == 4:
        return "south"
    if d in (2, 3):
        return "east" if frm.col == game.board.map.columns - 1 else ("north" if d == 2 else "south")
    return "west" if frm.col == 0 else ("north" if d == 6 else "south")


def may_exit(game: GameContext, ch: Character, frm: Hex, d: int) -> bool:
    """Whether ``ch`` stepping off the map from ``frm`` in map direction ``d`` takes a scenario exit
    of his side (``victory.exits``: by ``edge`` or from one of ``hexes``; §19 special rules)."""
    exits = getattr(getattr(game.scenario, "victory", None), "exits", ())
    edge = None
    for spec in exits:
        if spec.side is not ch.side:
            continue
        if spec.hexes is not None and str(frm) in spec.hexes.split():
            return True
        if spec.edge is not None:
            edge = edge or off_map_edge(game, frm, d)
            if spec.edge.value == edge:
                return True
    return False


def _board_memo(game: GameContext) -> tuple[dict[Hex, bool], dict[Hex, bool]]:
    """Per-hex facts of the game's board now, asked once a game and board (``game.memo``):
    ``(passable by men, barbed wire laid)``. A board is frozen; a game whose terrain changes
    (Rubble, base-rules §14) gets a new board and so a new memo."""
    board = game.board
    memo = game.memo.get("entering")
    if memo is None or memo[0] is not board:
        memo = game.memo["entering"] = (board, {}, {})
    return memo[1], memo[2]


def _passable(game: GameContext, h: Hex) -> bool:
    passable = _board_memo(game)[0]
    ok = passable.get(h)
    if ok is None:
        board = game.board
        ok = board.terrain_of(h).character_passable and all(
            o.character_passable for o in board.overlays_of(h)
        )
        passable[h] = ok
    return ok


def _burning(game: GameContext, h: Hex) -> bool:
    return h in game.state.markers.fire or game.los.has_fire(h)


def has_wire(game: GameContext, h: Hex) -> bool:
    """Whether Barbed Wire lies on ``h`` (C2 27.7), unless a vehicle has flattened it (27.7 rolls)."""
    laid = _board_memo(game)[1]
    wire = laid.get(h)
    if wire is None:
        board = game.board
        wire = board.terrain_of(h).rough_unless_hiding or any(
            o.rough_unless_hiding for o in board.overlays_of(h)
        )
        laid[h] = wire
    return wire and str(h) not in game.state.flags.get("barbed_wire_removed", ())


def in_wire(game: GameContext, ch: Character, h: Hex) -> bool:
    """Whether Barbed Wire binds ``ch`` on ``h``: wire, and no other same-side man there on Hide (C2 27.7)."""
    if not has_wire(game, h):
        return False
    return not any(
        c is not ch and c.side is ch.side and c.order is not None and c.order.order == "hide"
        for c in game.state.active(ch.side)
        if c.hex == h
    )


def is_rough(game: GameContext, ch: Character, frm: Hex | None, to: Hex) -> bool:
    """Whether entering ``to`` (from ``frm``) is entering Rough terrain for ``ch`` (§16; 11.0).

    The terrain or an overlay is Rough (Barbed Wire not when a same-side man
    there is on Hide, C2 27.7); crossing a hedge, wall or bocage hexside counts
    as entering Rough terrain ([house] base-rules §16 hexsides).
    """
    board = game.board
    if board.terrain_of(to).rough:
        return True
    for o in board.overlays_of(to):
        if o.rough and not (o.rough_unless_hiding and not in_wire(game, ch, to)):
            return True
    return frm is not None and board.hexside_feature(frm, to) is not None


def _opponents_at(game: GameContext, ch: Character, h: Hex) -> list[Character]:
    """Active opponents of ``ch`` on ``h`` (the incapacitated are ignored, C2 23.3)."""
    return [o for o in game.opponents(ch) if o.hex == h]


def _casualty_here(game: GameContext, ch: Character, here: list[Character] | None = None) -> Character | None:
    """The first incapacitated man of ``ch``'s side on his hex, roster order (base-rules §4 Carry/Drag).

    ``here``: the characters on ``ch``'s hex in roster order, when the caller has them.
    """
    h, side, down = ch.hex, ch.side, Status.INCAPACITATED
    for c in game.state.characters.values() if here is None else here:
        if c.status is down and c.hex == h and c.side is side and c is not ch:
            return c
    return None


def _fortified(game: GameContext, h: Hex) -> bool:
    board = game.board
    return board.terrain_of(h).id == FORTIFIED or any(o.id == FORTIFIED for o in board.overlays_of(h))
