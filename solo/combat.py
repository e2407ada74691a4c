"""Fire, wounds, morale checks and melee (base-rules §7, §8, §10, §11; C2 23.1–23.3, 24.1, 26.0).

STUB CONTRACT (to be completed).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from solo.tables import Order

if TYPE_CHECKING:
    from solo.engine import Decision, Game
    from solo.state import Character


def fire_step(game: Game, ch: Character, order: Order) -> Generator[Decision, str, None]:
    """An F step: one fire action (§10), or one throw for a grenade order (§12, via effects.throw)."""
    return
    yield  # pragma: no cover


def melee_step(game: Game, ch: Character, order: Order) -> Generator[Decision, str, None]:
    """An X step: one melee attack (§11)."""
    return
    yield  # pragma: no cover
