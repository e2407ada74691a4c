"""Identifiers in the player's words: the window never prints ``heavy_rain`` or ``aimed_fire``.

The engine's ids (orders, terrain, weapons, weather, seats, house rules...) reach the screen in
two ways: a label the window builds (the weather in the top bar, a crew order on the Enemy
panel, a toast) and the text of an event, which the engine writes for the log and which may
name an id (``"long_grass/S4"``, ``"MC natural_9"``). :func:`word` gives one id's words,
:func:`plain` the words of a whole line: every ``snake_case`` word in it replaced by
:func:`word`. The order and terrain names come from the game's own data (``orders.yaml``,
``terrain.yaml``...), the others from :data:`WORDS`; an id found nowhere has its underscores
turned to spaces. The log file keeps the engine's text as it is.

No pygame here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from solo.render.option_labels import OPTION_LABELS

if TYPE_CHECKING:
    from solo.data.house import HouseData

__all__ = ["IDENTIFIER", "WORDS", "plain", "word"]

IDENTIFIER = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")
"""A ``snake_case`` word (two parts or more joined by underscores)."""

WORDS: dict[str, str] = {
    # weather and ground (C2 28.1, 28.2)
    "heavy_rain": "heavy rain",
    "deep_snow": "deep snow",
    # vehicle seats (C2 31.3)
    "co_driver": "co-driver",
    # spotting and fire notes in event texts
    "with_afv": "with AFV",
    "natural_0": "natural 0",
    "natural_9": "natural 9",
    "between_passengers": "between passengers",
    "bow_mg": "bow MG",
    "coax_mg": "coaxial MG",
    "aa_mg": "AA MG",
    "main_gun": "main gun",
    # Vehicle Order Matrix columns (C2 31.11.3)
    "no_target_bu": "no target, BU",
    "no_target_open": "no target, OPEN",
    "target_bu": "target, BU",
    "target_open": "target, OPEN",
    "half_track_no_target": "Half-Track, no target",
    "half_track_target": "Half-Track, target",
}
"""Ids with words of their own (the rest come from the data, or lose their underscores)."""


def word(identifier: str, data: HouseData | None = None) -> str:
    """The player's words for one id: ``"heavy_rain"`` → ``"heavy rain"``, ``"aimed_fire"`` →
    ``"Aimed Fire"`` (the order's name, with ``data``), ``"passenger_2"`` → ``"passenger 2"``.
    An id of the data gets its name (``"hide"`` → ``"Hide"``); another word without an underscore
    is returned as it is."""
    known = WORDS.get(identifier)
    if known is not None:
        return known
    if data is not None:
        for table in (data.orders, data.terrain, data.weapons):
            if identifier in table:
                return str(table.get(identifier).name)
    if "_" not in identifier:
        return identifier
    option = OPTION_LABELS.get(identifier)
    if option is not None:
        return option.label
    for lab in OPTION_LABELS.values():  # a house option's value: "tq_minus_power"
        value = lab.values.get(identifier)
        if isinstance(value, str):
            return value
    return identifier.replace("_", " ")


def plain(text: str, data: HouseData | None = None) -> str:
    """``text`` with every ``snake_case`` word in the player's words (:func:`word`)."""
    if "_" not in text:
        return text
    return IDENTIFIER.sub(lambda m: word(m.group(0), data), text)
