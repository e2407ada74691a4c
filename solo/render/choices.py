"""What the options of a pending Decision mean on the map (pure: no pygame, no changes to the game).

The window lets the player answer a Decision by clicking the map: a target
character or hex, a card-effect beneficiary, or a direction. These helpers
read the option keys of :mod:`solo.engine.game`, :mod:`solo.rules.firing`,
:mod:`solo.rules.effects` and :mod:`solo.rules.movement`:

* character ids (``"red_2"``), optionally with a weapon (``"red_2|bar"``);
* hexes (``"15.06"``, ``"hex:15.06"``, ``"hex:15.06|bar"``);
* vehicles (``"vehicle:panzer"``) at their hex; turret turns (``"turn_3"``) toward a hex;
* direction strings (``"5"``, ``"5/6"``): map directions for a Friendly man, read through the
  Direction Counter for an Enemy (base-rules §6; solo.rules.movement maps only Enemy moves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.core.errors import GeometryError
from solo.core.hexes import Hex, rotate, wedge_directions
from solo.rules.state import Side
from solo.rules.vehicles.state import vehicle_of, vehicles_of

if TYPE_CHECKING:
    from solo.engine.game import Decision, Game
    from solo.rules.state import Character

VEHICLE_KEY = "vehicle:"
"""Option keys naming a vehicle as a target: ``"vehicle:<id>"`` (solo.rules.firing, C2 31.10)."""

DEFAULT_ANSWERS: dict[str, str] = {
    "duck_back": "no",
    "may_move": "move",
    "give_order": "hide",
    "initiative_swap": "none",
}
"""The answer Space gives where the rules have a default: no Duck Back (7.19), carry out the
order's move (§6.7), Hide (the default order, 7.0), no initiative swap (§18)."""
FIRST_IS_DEFAULT = frozenset({"card_effect"})
"""Decisions whose first option is the [house] pick when no choice is made (solo.rules.effects)."""


def default_key(decision: Decision) -> str | None:
    """The answer Space gives to ``decision``, or None when the rules give no default."""
    kind = decision.kind.value
    key = DEFAULT_ANSWERS.get(kind)
    if key is not None and key in decision.keys:
        return key
    if kind in FIRST_IS_DEFAULT and decision.keys:
        return decision.keys[0]
    return None


def option_hex(game: Game, key: str) -> Hex | None:
    """The map hex an option key points at (a character's or a vehicle's hex, or a hex id), or None."""
    base = key.split("|", 1)[0]
    if base.startswith("hex:"):
        base = base[4:]
    if base.startswith(VEHICLE_KEY):
        v = vehicles_of(game.state).get(base[len(VEHICLE_KEY) :])
        return v.hex if v is not None else None
    ch = game.state.characters.get(base)
    if ch is not None:
        return ch.hex
    try:
        h = Hex.parse(base)
    except GeometryError:
        return None
    return h if game.board.map.has_hex(h) else None


def option_hexes(game: Game, decision: Decision) -> dict[str, Hex]:
    """Each option key that points at a map hex, with that hex (option order)."""
    if decision.kind.value in ("order_direction", "may_move", "duck_back", "play_card", "discard"):
        return {}
    out: dict[str, Hex] = {}
    for k in decision.keys:
        h = option_hex(game, k)
        if h is not None:
            out[k] = h
    return out


def keys_at(
    game: Game, decision: Decision, h: Hex, *, character: str | None = None, vehicle: str | None = None
) -> list[str]:
    """The option keys a click on hex ``h`` (on ``character``'s counter or ``vehicle``, if any) may mean.

    A click on a counter prefers the options naming that character, a click on a vehicle the
    options naming it (``"vehicle:<id>"``, C2 31.10). A Target Marker decision's "keep" is the
    click on the marker's own hex (C2 31.7.5).
    """
    hexes = option_hexes(game, decision)
    if character is not None:
        mine = [k for k in hexes if k.split("|", 1)[0] == character]
        if mine:
            return mine
    if vehicle is not None:
        mine = [k for k in hexes if k.split("|", 1)[0] == VEHICLE_KEY + vehicle]
        if mine:
            return mine
    out = [k for k, x in hexes.items() if x == h]
    if not out and "keep" in decision.keys and decision.kind.value == "order_target":
        marker = current_marker(game, decision)
        if marker is not None and marker == h:
            return ["keep"]
    return out


def current_marker(game: Game, decision: Decision) -> Hex | None:
    """The Target Marker hex of the decision's crewman (C2 31.7.3), or None."""
    ch = game.state.characters.get(decision.actor) if decision.actor else None
    if ch is None:
        return None
    v = vehicle_of(game.state, ch)
    seat = v.seats.get(ch.seat or "") if v is not None else None
    return seat.marker if seat is not None else None


def turret_keys(decision: Decision) -> dict[int, str]:
    """A turret decision's turns: map direction the turret would face → option key (``"turn_3"``, C2 31.6)."""
    out: dict[int, str] = {}
    for k in decision.keys:
        if k.startswith("turn_") and k[5:].isdigit():
            out[int(k[5:])] = k
    return out


def turret_key_towards(game: Game, decision: Decision, frm: Hex, to: Hex) -> str | None:
    """The turret option whose new facing points from ``frm`` (the vehicle's hex) toward ``to``.

    On a hexspine (two directions) the one that is an option; None if neither or both are.
    """
    keys = turret_keys(decision)
    if not keys or frm == to:
        return None
    hits = [keys[d] for d in wedge_directions(frm, to, game.board.map.stagger) if d in keys]
    return hits[0] if len(hits) == 1 else None


def counter_rotation(game: Game, h: Hex) -> int | None:
    """Hexsides the Direction Counter nearest ``h`` turns order directions clockwise (base-rules §6).

    0 without counters; None when two counters are equally near (the engine
    then picks one by a logged die roll, which the window must not make).
    """
    counters = game.scenario.direction_counters
    if not counters:
        return 0
    dist = [(game.distance(h, Hex.parse(c.hex)), c.rotation) for c in counters]
    best = min(d for d, _ in dist)
    near = {r % 6 for d, r in dist if d == best}
    return near.pop() if len(near) == 1 else None


def order_rotation(game: Game, ch: Character) -> int | None:
    """How ``ch``'s order directions turn on the map: 0 for a Friendly man (his directions are the
    map's), the nearest Direction Counter's rotation for an Enemy (base-rules §6; None on a tie)."""
    if ch.side is Side.FRIENDLY or ch.hex is None:
        return 0
    return counter_rotation(game, ch.hex)


def map_direction(rotation: int, order_direction: int) -> int:
    """The map direction (1-6) an order direction points to through a counter turned ``rotation``."""
    return rotate(order_direction, rotation % 6)


def direction_key_towards(game: Game, decision: Decision, frm: Hex, to: Hex) -> str | None:
    """The single-direction option key whose order direction points from ``frm`` toward ``to``.

    None if ``to`` lies on a hexspine (two directions), the Direction Counter
    is undecided, or that key is not among the options.
    """
    if frm == to:
        return None
    ch = game.state.characters.get(decision.actor) if decision.actor else None
    rotation = order_rotation(game, ch) if ch is not None else counter_rotation(game, frm)
    if rotation is None:
        return None
    wedge = wedge_directions(frm, to, game.board.map.stagger)
    if len(wedge) != 1:
        return None
    order_dir = rotate(wedge[0], -rotation % 6)
    key = str(order_dir)
    return key if key in decision.keys else None
