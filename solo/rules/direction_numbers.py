"""Direction numbers (base-rules §6): the direction string of a move order, read through the nearest
Direction Counter for the Enemy.

May import: the rules below it and the rooms below rules."""

from __future__ import annotations

from solo.core.hexes import Hex, rotate
from solo.data.cards import DirectionString
from solo.data.orders import Order
from solo.rules.context import GameContext
from solo.rules.entering import _burning, _passable
from solo.rules.state import Character

DIRECTION_KEYS: tuple[str, ...] = (
    "1", "2", "3", "4", "5", "6", "1/2", "2/1", "2/3", "3/2", "3/4", "4/3",
    "4/5", "5/4", "5/6", "6/5", "6/1", "1/6",
)  # fmt: skip
"""Every direction string a move order may take: single directions and adjacent pairs (§6)."""
DIRECTION_NAMES: dict[int, str] = {
    1: "up",
    2: "upper right",
    3: "lower right",
    4: "down",
    5: "lower left",
    6: "upper left",
}
"""Plain words for the map directions 1-6 (DESIGN.md: 1 up the map, clockwise)."""
COUNTER_TIES_KEY = "direction_counter_ties"
"""``ch.acted`` key: Direction Counter ties already broken this turn, by hex (C2 31.11.2)."""


def needs_direction(order: Order) -> bool:
    """Whether ``order`` moves and so takes a direction string (base-rules §6)."""
    return any(step.hexes for step in order.steps)


def direction_options(game: GameContext, ch: Character) -> list[tuple[str, str]]:
    """Direction strings a Friendly move order may take: 1-6 and the adjacent pairs (§6).

    Strings whose both directions lead at once off the map, into impassable
    terrain or into a Fire hex are dropped (they could never move); if that
    drops every string, all 18 are offered.
    """
    if ch.hex is None:
        return list(_OFFERED[0])
    h = ch.hex
    board = game.board
    row = board.neighbours[board.index[h]]
    hexes = board.hexes
    open_ways = 0  # bit d - 1 set: way d is open
    for d in (1, 2, 3, 4, 5, 6):
        n = row[d]
        if n >= 0 and _passable(game, hexes[n]) and not _burning(game, hexes[n]):
            open_ways |= 1 << (d - 1)
    return list(_OFFERED[open_ways])


def _offered(open_ways: int) -> tuple[tuple[str, str], ...]:
    """The strings :func:`direction_options` offers when the ways whose bits are set are open."""
    out = tuple(
        (k, label)
        for k, label, ds in _DIRECTION_CHOICES
        if any(open_ways >> (d - 1) & 1 for d in ds.directions)
    )
    return out or tuple((k, label) for k, label, _ds in _DIRECTION_CHOICES)


def _choice(key: str) -> tuple[str, str, DirectionString]:
    ds = DirectionString.parse(key)
    a, b = ds.slots
    words = DIRECTION_NAMES[a] if a == b else f"{DIRECTION_NAMES[a]}, then {DIRECTION_NAMES[b]}"
    return key, f"{key} ({words})", ds


_DIRECTION_CHOICES = tuple(_choice(k) for k in DIRECTION_KEYS)
_OFFERED = tuple(_offered(m) for m in range(64))
"""The offered strings for each set of open ways (six bits), worked out once."""


def parse_directions(key: str) -> DirectionString:
    """A direction-string key (``"5/6"``) as a :class:`DirectionString`. Raises ``ValueError``."""
    return DirectionString.parse(key)


def map_direction(game: GameContext, ch: Character, d: int) -> int:
    """Order direction ``d`` (1-6) of ``ch`` as a map direction, through the Direction Counter.

    base-rules §6: the scenario's Direction Counter nearest ``ch`` turns the
    numbering ``rotation`` hexsides clockwise (counter direction ``d`` points
    to map direction ``d + rotation``). Equally near counters are chosen
    between by a logged random pick (C2 31.11.2), kept for the rest of the
    turn for that hex. Without counters (or off the map) ``d`` is the map's.
    """
    counters = game.scenario.direction_counters
    if not counters or ch.hex is None:
        return d
    rotation = _nearest_counter(game, ch, ch.hex)[1]
    return rotate(d, rotation % 6)


def _nearest_counter(game: GameContext, ch: Character, h: Hex) -> tuple[int, int]:
    """``(index, rotation)`` of the Direction Counter nearest ``h`` (ties by the dice)."""
    counters = game.scenario.direction_counters
    memo: tuple[dict[Hex, tuple[int, tuple[int, ...]]], tuple[Hex, ...]] | None = game.memo.get(
        "nearest_counters"
    )  # the counters are the scenario's, fixed
    if memo is None:
        memo = game.memo["nearest_counters"] = ({}, tuple(Hex.parse(c.hex) for c in counters))
    by_hex, where = memo
    found = by_hex.get(h)
    if found is None:
        dist = [game.distance(h, x) for x in where]
        best = min(dist)
        found = by_hex[h] = (best, tuple(i for i, x in enumerate(dist) if x == best))
    best, near = found
    if len(near) == 1:
        return near[0], counters[near[0]].rotation
    ties = ch.acted.setdefault(COUNTER_TIES_KEY, {})
    key = str(h)
    if key not in ties:
        labels = [f"counter at {counters[i].hex}" for i in near]
        pick = game.dice.choice(
            labels, f"Direction Counter: {ch.name} at {h} is {best} hexes from {len(near)} (C2 31.11.2)"
        )
        ties[key] = near[pick.index]
        game.emit(
            "direction_counter",
            f"{ch.name} at {h} is {best} hexes from {len(near)} Direction Counters: the one at "
            f"{counters[ties[key]].hex} is picked (C2 31.11.2).",
            rule="base-rules §6; C2 31.11.2",
            actor=ch.id,
            data={
                "hex": key,
                "candidates": [counters[i].hex for i in near],
                "picked": counters[ties[key]].hex,
            },
        )
    i = ties[key]
    return i, counters[i].rotation
