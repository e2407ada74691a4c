"""Character movement by impulse tracks and direction slots (base-rules §6; C2 27.7, 29.2).

STUB CONTRACT (to be completed).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from solo.cards import DirectionString
from solo.tables import Order, TrackStep

if TYPE_CHECKING:
    from solo.engine import Decision, Game
    from solo.state import Character

_DIRECTION_KEYS = (
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "1/2",
    "2/1",
    "2/3",
    "3/2",
    "3/4",
    "4/3",
    "4/5",
    "5/4",
    "5/6",
    "6/5",
    "6/1",
    "1/6",
)


def friendly_order_options(game: Game, ch: Character) -> list[tuple[str, str]]:
    """Legal orders for a Friendly character (order id, label), base-rules §4 limits."""
    return [
        (o.id, o.name)
        for o in game.data.orders
        if o.kind.value == "character" and o.id in ("hide", "sneak", "evade", "aimed_fire", "rapid_fire")
    ]


def needs_direction(order: Order) -> bool:
    """Whether ``order`` moves and so takes a direction string (base-rules §6)."""
    return any(step.hexes for step in order.steps)


def direction_options(game: Game, ch: Character) -> list[tuple[str, str]]:
    """Direction strings a Friendly move order may take: 1-6 and adjacent pairs."""
    return [(k, k) for k in _DIRECTION_KEYS]


def parse_directions(key: str) -> DirectionString:
    """A direction-string key (``"5/6"``) as a :class:`DirectionString`."""
    return DirectionString.parse(key)


def move(game: Game, ch: Character, order: Order, step: TrackStep) -> Generator[Decision, str, None]:
    """Move ``ch`` this Impulse by ``order``'s track and slots (base-rules §6)."""
    return
    yield  # pragma: no cover


def end_of_impulse(game: Game) -> None:
    """Step 4 b): Sprint into Rough terrain → Duck Back (11.0)."""
