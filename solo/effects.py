"""Card effects, events, grenades and explosions, the Impulse 4 effects, the End Phase environment
and victory (base-rules §12–§15, §18–§19; C2 28–30).

STUB CONTRACT (to be completed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo.tables import Order

if TYPE_CHECKING:
    from solo.engine import Game
    from solo.state import Character


def resolve_event_card(game: Game, card: Any) -> None:
    """An Event card played in Step 1 e): roll on the Friendly or Enemy event table (§18)."""


def apply_card_effect(game: Game, card: Any) -> None:
    """Apply a played Order card's effect for this turn (§18)."""


def order_targets(game: Game, ch: Character, order: Order) -> list[tuple[str, str]] | None:
    """Targets an order needs (Grenade/Smoke Grenade: a hex; Charge: an enemy), or None."""
    return None


def start_of_activation(game: Game, ch: Character) -> bool:
    """Step 4 a) i): passive effects (Rally Check on I1, Unprepared...).

    Returns False when the character does nothing more this activation.
    """
    return True


def throw(game: Game, ch: Character, order: Order) -> None:
    """The F step of a Grenade, Smoke Grenade or Rifle Grenade order: one throw (§12)."""


def impulse_four_effects(game: Game, ch: Character, order: Order) -> None:
    """Impulse 4 effects of Reload, Medical Aid, Search, Plan (§4, 7.12, 7.14)."""


def end_phase_explosions(game: Game) -> None:
    """Step 5 a): grenades, shells and C4 explode (§12, §14)."""


def end_phase_environment(game: Game) -> None:
    """Step 5 a), d): smoke fades and drifts, fire (C2 29), heavy rain to mud (C2 28.1)."""


def final_victory(game: Game) -> None:
    """The victory check at the end of the game (§19)."""
