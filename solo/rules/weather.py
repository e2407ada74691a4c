"""Weather (C2 28.1-28.2): the weather's LOS limit rolled at set-up, weather changes, heavy rain turning
the ground to mud.

May import: solo.rules.smoke and the rules below it, and the rooms below rules."""

from __future__ import annotations

from solo.rules.context import GameContext
from solo.rules.effects import _turn

MAX_LOS_DICE: dict[str, str] = {"heavy_rain": "2d6", "mist": "1d6+4", "fog": "1d6"}
"""The rolled maximum LOS of the weather (C2 28.1)."""


WEATHERS: tuple[str, ...] = ("clear", "rain", "heavy_rain", "mist", "fog")
"""Weather types (C2 28.1)."""


def roll_max_los(game: GameContext, weather: str) -> int | None:
    """Roll the maximum LOS of ``weather`` (C2 28.1): Heavy Rain 2d6, Mist 1d6+4, Fog 1d6; else None."""
    dice = MAX_LOS_DICE.get(weather)
    if dice is None:
        return None
    return game.dice.roll(dice, f"maximum LOS in {weather.replace('_', ' ')} (C2 28.1)").total


def setup_weather(game: GameContext) -> None:
    """Set-up: roll the weather's maximum LOS if the state has none (C2 28.1).

    ``solo.rules.setup.build_state`` already rolls it (and the wind); this guards states built
    otherwise. For the engine: call once in ``_setup`` (a no-op when the LOS is set).
    """
    st = game.state
    if st.max_los is None and st.weather in MAX_LOS_DICE:
        st.max_los = roll_max_los(game, st.weather)
        game.emit(
            "weather",
            f"{st.weather.replace('_', ' ').capitalize()}: the maximum LOS is {st.max_los} hexes.",
            rule="C2 28.1",
            data={"weather": st.weather, "max_los": st.max_los},
        )


def change_weather(game: GameContext, weather: str, *, cause: str) -> None:
    """The weather becomes ``weather`` (an event, C2 28.0): a new maximum LOS is rolled.

    Mist to Fog: a Fog roll above the Mist LOS gives the Mist LOS - 1 (C2 28.1).
    Raises ``ValueError`` for an unknown weather.
    """
    if weather not in WEATHERS:
        raise ValueError(f"unknown weather {weather!r} (expected one of {', '.join(WEATHERS)})")
    st = game.state
    before, old_los = st.weather, st.max_los
    st.weather = weather
    los = roll_max_los(game, weather)
    if weather == "fog" and before == "mist" and old_los is not None and los is not None and los > old_los:
        los = old_los - 1
    st.max_los = los
    game.emit(
        "weather",
        f"The weather changes from {before.replace('_', ' ')} to {weather.replace('_', ' ')} ({cause})"
        + (f": the maximum LOS is {los} hexes." if los is not None else ": no LOS limit."),
        rule="C2 28.1",
        data={"before": before, "weather": weather, "max_los": los},
    )
    if getattr(st, "vehicles", None):
        from solo.rules.vehicles.markers import refresh_markers

        refresh_markers(game)  # C2 31.7.4: markers out of LOS go at once


def heavy_rain_mud(game: GameContext) -> bool:
    """End of turn in Heavy Rain: d10, on a 9 the ground is Mud for the rest of the scenario and
    no more rolls are made (C2 28.1). Returns True if Mud set in now."""
    st = game.state
    if st.weather != "heavy_rain" or st.ground == "mud":
        return False
    face = game.dice.d10("heavy rain: does the ground turn to Mud? (C2 28.1)").total
    if face != 9:
        game.emit("weather", f"Heavy rain: {face}, the ground holds.", rule="C2 28.1", data={"roll": face})
        return False
    st.ground = "mud"
    st.flags["mud_from_turn"] = _turn(game)
    game.emit(
        "weather",
        "Heavy rain: a 9, the ground turns to Mud for the rest of the scenario (no Sprint).",
        rule="C2 28.1, 28.2",
        data={"roll": face, "ground": "mud"},
    )
    return True
