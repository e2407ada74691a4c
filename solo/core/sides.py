"""The two sides of a game: :class:`Side` (base-rules §2)."""

from __future__ import annotations

import enum


class Side(enum.Enum):
    """Which side a character or team fights for."""

    FRIENDLY = "friendly"
    ENEMY = "enemy"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return _ENEMY if self is _FRIENDLY else _FRIENDLY  # module constants: no enum class lookups


_FRIENDLY, _ENEMY = Side.FRIENDLY, Side.ENEMY
