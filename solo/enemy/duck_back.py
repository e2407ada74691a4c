"""Duck Back on entering terrain (rule 9.4; base-rules §5.7): a moving Enemy in sight of a Spotted Friendly.

:func:`duck_back_on_entering` is asked by the movement rules each time an Enemy enters a hex
(through ``game.enemy``).

May import: :mod:`~solo.enemy.order_lookup` (the TQ Check), :mod:`solo.rules`, :mod:`solo.data`,
:mod:`solo.core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.data.tables import MoraleState
from solo.enemy.order_lookup import _tqc
from solo.rules.state import Character, Side

if TYPE_CHECKING:
    from solo.rules.context import GameContext


DUCK_BACK_EXEMPT = ("run_and_gun", "grenade", "rifle_grenade", "smoke_grenade", "charge", "duck_back")
"""Orders that never Duck Back on entering terrain (9.4; base-rules §5.7)."""


def duck_back_on_entering(game: GameContext, ch: Character) -> bool:
    """9.4 (base-rules §5.7): an Enemy who just entered a hex that is not Open ground may Duck Back.

    With LOS to a Spotted Friendly he rolls a TQC on his **printed** TQ; a pass
    turns his order into Duck Back (the caller stops his move). Exempt: Berserk
    men, and the orders Run & Gun, Grenade, Rifle Grenade, Smoke Grenade and
    Charge. Open ground: the terrain and every overlay read the Open chart row
    (barbed wire on open ground counts as Open). Emits a ``duck_back`` event
    when a TQC is rolled. Returns True when the order became Duck Back.
    """
    if ch.side is not Side.ENEMY or ch.hex is None or not ch.is_active or ch.order is None:
        return False
    if ch.morale is MoraleState.BERSERK or ch.order.order in DUCK_BACK_EXEMPT:
        return False
    board = game.board
    if board.terrain_of(ch.hex).chart_row == "open" and all(
        o.chart_row == "open" for o in board.overlays_of(ch.hex)
    ):
        return False
    seen = next((f for f in game.opponents(ch) if f.revealed and game.sees(ch, f)), None)
    if seen is None:
        return False
    out = _tqc(game, ch, ch.tq, f"Duck Back on entering {ch.hex} (9.4)")
    terrain = board.terrain_of(ch.hex).name
    was = game.data.orders.get(ch.order.order).name
    game.emit(
        "duck_back",
        f"{ch.name} enters {terrain} at {ch.hex} in sight of {seen.name}: TQC rolled {out.roll} vs printed "
        f"TQ {ch.tq}: "
        + (f"passed: {was} becomes Duck Back" if out.passed else f"failed: he carries on with {was}")
        + " (9.4).",
        rule="9.4, §5.7",
        actor=ch.id,
        data={
            "roll": out.roll,
            "target": ch.tq,
            "passed": out.passed,
            "hex": str(ch.hex),
            "seen": seen.id,
            "was": ch.order.order,
        },
    )
    if out.passed:
        game.set_order(ch, "duck_back", source="Duck Back on entering terrain (9.4)")
    return out.passed


__all__ = [
    "DUCK_BACK_EXEMPT",
    "duck_back_on_entering",
]
