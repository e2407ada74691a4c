"""The marks a man's counter shares with the panels and the vehicle displays: his order marker's
abbreviation (the Enemy card code, base-rules §5-§6 orders) and his team's colour.

Used by :mod:`solo.render.board` (the counters), :mod:`solo.render.panels` (the Initiative Track,
the Enemy cards), :mod:`solo.render.vehicle_labels` and :mod:`solo.render.vehicle_displays`.

May import: :mod:`solo.render.theme` and the game (type hints only); no other render module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solo.render import theme
from solo.rules.state import Side

if TYPE_CHECKING:
    from solo.engine.game import Game

ORDER_ABBREV: dict[str, str] = {
    "charge": "CH",
    "melee": "ML",
    "grenade": "GR",
    "smoke_grenade": "SG",
    "rifle_grenade": "RGR",
    "carry_drag": "CD",
    "reload": "RL",
    "medical_aid": "MA",
    "search": "SE",
    "plan": "PL",
    "guard": "GD",
    "duck_back": "DB",
    "waiting": "WT",
    "fire_light_at": "FAT",
    "load_light_at": "LAT",
}
"""Order marker abbreviations for orders without an Enemy card code (the card codes are used first)."""


def order_abbrev(game: Game, order_id: str) -> str:
    """The order marker's abbreviation: the Enemy card code (``"SN"``) or :data:`ORDER_ABBREV`."""
    o = game.data.orders.get(order_id)
    if o is not None and o.code:
        return o.code
    if order_id in ORDER_ABBREV:
        return ORDER_ABBREV[order_id]
    return "".join(w[0] for w in order_id.split("_")).upper()[:3]


def _team_index(game: Game, team: str) -> int:
    return list(game.state.teams).index(team) if team in game.state.teams else 0


def team_colour(game: Game, team: str) -> theme.Colour:
    """The colour of ``team``'s counters."""
    t = game.state.teams.get(team)
    friendly = t is not None and t.side is Side.FRIENDLY
    return theme.team_colour(team, friendly=friendly, index=_team_index(game, team))


_VOWELS = frozenset("aeiouyäöüéè")


def name_forms(name: str) -> tuple[str, ...]:
    """A man's name and its shorter form for a narrow cell: ``"Gefr. Baumann"``, ``"Baumann"``."""
    surname = name.split()[-1] if name.split() else name
    return (name, surname) if surname != name else (name,)


def counter_name_forms(name: str) -> tuple[str, ...]:
    """The forms of a man's surname a counter's name stripe tries in turn (a fixed rule, never a
    cut with an ellipsis): the surname, its consonant skeleton (the first letter, then the
    consonants, doubled ones once: ``"Buttermann"`` → ``"Btrmn"``), that skeleton's first four,
    then three letters (``"Btrm"``, ``"Btr"``)."""
    surname = name.split()[-1] if name.split() else name
    skel = surname[:1]
    for c in surname[1:]:
        if c.lower() in _VOWELS or c == skel[-1]:
            continue
        skel += c
    out = [surname]
    for form in (skel, skel[:4], skel[:3]):
        if form and form not in out:
            out.append(form)
    return tuple(out)
