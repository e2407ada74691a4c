"""Spotting, alerting and hiding (base-rules §9, §5.6; C2 24.1 Eagle Eyes).

STUB CONTRACT (to be completed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solo.engine import Game
    from solo.state import Character


def impulse_start(game: Game) -> None:
    """Impulse start: every Waiting enemy tries to spot every unspotted Friendly in LOS (§9, §5.6)."""


def spotting_segment(game: Game, ch: Character) -> None:
    """Step 4 a) ii): ``ch`` tries to spot opponents in LOS (once per activation, §9)."""


def end_phase_hide(game: Game) -> None:
    """Step 5 b): a Spotted Friendly with Hide in Cover passing a TQC becomes Hidden (8.1)."""


def end_phase_alerts(game: Game) -> None:
    """Step 5 c): alert conditions 6 and 8 (§5.6)."""
