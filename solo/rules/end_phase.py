"""The End Phase's environment step (base-rules §1 Step 5 a), d); C2 28-29): smoke fades, fires grow and
spread, the weather may change.

May import: the smoke, terrain fire and weather rules below it, and the rooms below rules."""

from __future__ import annotations

from solo.rules.card_effects import clear_turn_effects
from solo.rules.context import GameContext
from solo.rules.smoke import _smoke_end_phase
from solo.rules.terrain_fire import _fire_end_phase
from solo.rules.weather import heavy_rain_mud


def end_phase_environment(game: GameContext) -> None:
    """Step 5 a), d), e): smoke fades and drifts (§13), fire damage, smoke, growth, spread and
    extinguishing (C2 29.2-29.4), illumination is removed (§15), Heavy Rain may turn the ground
    to Mud (C2 28.1), and this turn's card effects end."""
    _smoke_end_phase(game)
    _fire_end_phase(game)
    st = game.state
    if st.markers.illuminated:
        st.markers.illuminated.clear()
        game.emit("illumination", "Illumination markers are removed.", rule="15")
    heavy_rain_mud(game)
    clear_turn_effects(game)
