"""Card direction strings through the Direction Counter, as the Enemy plans a move (base-rules §6).

A card's direction string (``"2/3"``) is read through the rotation of the nearest Direction
Counter. :func:`_string_toward` gives the string that points from one hex toward another (the
Sneak out of Barbed Wire toward a man's target, C2 27.7); :func:`_path` the hexes an order with a
string would take a man through this turn (an Enemy trained medic's way to a wounded comrade,
C2 30.2); ``_DIRECTION_STRINGS`` every string, in the order tried. For planning only: the
movement rules (:mod:`solo.rules.movement`) move the men.

May import: :mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`; nothing else of :mod:`solo.enemy`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.core.hexes import Hex, rotate, wedge_directions
from solo.data.cards import DirectionString
from solo.data.orders import Order, Slot, TrackStep
from solo.rules.state import Character

if TYPE_CHECKING:
    from solo.rules.context import GameContext


# ---------------------------------------------------------------------------
# Direction strings (C2 30.2)

_DIRECTION_STRINGS = tuple(
    DirectionString.parse(k)
    for k in (
        "1", "2", "3", "4", "5", "6", "1/2", "2/1", "2/3", "3/2", "3/4", "4/3",
        "4/5", "5/4", "5/6", "6/5", "6/1", "1/6",
    )
)  # fmt: skip
"""Every direction string, in the order tried when the Enemy must pick one (C2 30.2)."""


# ---------------------------------------------------------------------------
# Through the Direction Counter (base-rules §6)


def _target_hex(game: GameContext, target: str) -> Hex:
    other = game.state.characters.get(target)
    return other.hex if other is not None and other.hex is not None else Hex.parse(target)


def _counter_rotation(game: GameContext, h: Hex) -> int:
    """The rotation of the Direction Counter nearest ``h`` (base-rules §6); 0 without one.

    [house] For planning only (medic paths, wire Sneak): ties go to the first listed counter;
    the movement code breaks real ties with the dice (C2 31.11.2).
    """
    counters = getattr(game.scenario, "direction_counters", ())
    best: tuple[int, int] | None = None
    for c in counters:
        d = game.distance(h, Hex.parse(c.hex))
        if best is None or d < best[0]:
            best = (d, c.rotation)
    return best[1] if best is not None else 0


def _string_toward(game: GameContext, frm: Hex | None, to: Hex) -> DirectionString | None:
    """The card direction string pointing from ``frm`` toward ``to`` through the Direction Counter."""
    if frm is None or frm == to:
        return None
    rot = _counter_rotation(game, frm)
    wedge = wedge_directions(frm, to, game.board.map.stagger)
    return DirectionString(tuple(rotate(d, -rot) for d in wedge))


def _enterable(game: GameContext, ch: Character, h: Hex) -> bool:
    """base-rules §6 step 5 (simplified for planning): passable, not burning, no opponent in it."""
    if not game.board.terrain_of(h).character_passable or h in game.state.markers.fire:
        return False
    return not any(o.hex == h for o in game.opponents(ch))


def _path(game: GameContext, ch: Character, order: Order, ds: DirectionString, *, goal: Hex) -> list[Hex]:
    """The hexes ``order`` with ``ds`` would take ``ch`` through this turn (§6 house slots), to ``goal``."""
    board = game.board
    h = ch.on_hex
    a, b = ds.slots
    path: list[Hex] = []
    for imp in (1, 2, 3, 4):
        if order.track(imp) in (TrackStep.NONE, TrackStep.FIRE, TrackStep.MELEE):
            continue
        for slot in order.slots(imp):
            first, second = (a, b) if slot is Slot.A else (b, a)
            rot = _counter_rotation(game, h)
            nxt = None
            for d in dict.fromkeys((first, second)):
                n = board.neighbour_hex(h, rotate(d, rot))
                if n is not None and _enterable(game, ch, n):
                    nxt = n
                    break
            if nxt is None:
                break
            h = nxt
            path.append(h)
            if h == goal:
                return path
    return path
