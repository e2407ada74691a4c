"""Vehicle crews in play: their orders' actions by Impulse, spotting and Target Markers (C2 31).

STUB CONTRACT (to be completed): the engine calls these functions.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solo.engine import Decision, Game
    from solo.state import Character


def friendly_vehicle_initiatives(game: Game) -> None:
    """Step 1: each Friendly vehicle's initiative from a new Friendly card (C2 31.1).

    The first vehicle takes the Able value, the second Baker's, the third Charlie's.
    """


def friendly_crew_order_options(game: Game, ch: Character) -> list[tuple[str, str]]:
    """Legal orders for a Friendly crew member or passenger (C2 31.11.2), (order id, label)."""
    return [("spot", "Spot")]


def activate(game: Game, ch: Character) -> Generator[Decision, str, None]:
    """A crew member's activation: spotting and Target Marker, Duck Back/Emergency Stop, his order's action."""
    return
    yield  # pragma: no cover


def end_phase(game: Game) -> None:
    """Step 5 for vehicles: per-turn state cleared (31.11.2)."""
