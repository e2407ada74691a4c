"""What card, event and explosion effects do to a man or a hex, shared by the rule families
that cause them (base-rules §1 Step 5, §7, §8, §9, §12-§14, §18; C2 29).

The small steps those modules repeat: the current turn, a hex on the board and the hexes within
a radius, a side's name, the roster order; a reveal, a wound, an MC, an alert, a morale gain, a
light wound healed, a leader within reach, a team's ammunition refilled. Card effects
(:mod:`~solo.rules.card_effects`), Event tables (:mod:`~solo.rules.event_cards`), grenades
(:mod:`~solo.rules.grenades`), artillery (:mod:`~solo.rules.artillery`), smoke
(:mod:`~solo.rules.smoke`), fire in terrain (:mod:`~solo.rules.terrain_fire`) and weather
(:mod:`~solo.rules.weather`) import them from here, so a test can replace one effect
everywhere.

Where those modules keep what lasts between calls, in the state:

- ``game.state.flags["turn_effects"]``: the played Friendly Order card's "this turn" effects as a
  list of plain dicts (:mod:`~solo.rules.card_effects`; cleared in the End Phase).
- ``game.state.flags["smoke_markers"]``: one record per smoke marker
  (``{hex, state, placed, fire}``); ``game.state.markers.smoke`` is its projection
  (:mod:`~solo.rules.smoke`, whose :func:`~solo.rules.smoke.sync_los` keeps ``game.los`` in step).
- ``game.state.flags["fire_smoke_count"]``: per burning hex, how many smoke markers the fire has
  generated downwind (C2 29.2).
- ``game.state.markers.grenades``: pending grenades, smoke grenades, shells and C4 that explode
  in Step 5 a) (:mod:`~solo.rules.grenades`).

May import: :mod:`~solo.rules.morale`, :mod:`~solo.rules.wounds`, :mod:`~solo.rules.spotting` and
the rules below them, and the rooms below rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from solo.core.hexes import Hex
from solo.data.tables import MoraleState, step_morale
from solo.rules import morale, wounds
from solo.rules.state import AmmoState, Side, Status, Wound

if TYPE_CHECKING:
    from solo.rules.context import GameContext
    from solo.rules.state import Character

# ---------------------------------------------------------------------------
# Constants (rule values; [house] ones are to move into Options and the README)

BUILDING_CAP_ROWS: tuple[str, ...] = ("building", "fortified_building", "wall", "rubble")
"""Chart rows whose (M) cap holds against a grenade except from 1 hex (§12 step 7; Wall and
Rubble as Building [house])."""
NO_CAP_ROWS: tuple[str, ...] = ("rocks",)
"""Chart rows whose (M) cap never holds against grenades or artillery (§12 step 7, §14) [rulebook]."""


# ---------------------------------------------------------------------------
# Small helpers


def _turn(game: GameContext) -> int:
    return game.state.flow.turn


def _hex_of(value: str | None) -> Hex | None:
    """``value`` as a hex if it is a ``CC.RR`` label, else None."""
    if not value or len(value) != 5 or value[2] != ".":
        return None
    try:
        return Hex.parse(value)
    except ValueError:
        return None


def _on_board(game: GameContext, h: Hex | None) -> bool:
    return h is not None and h in game.board.index


def _within(game: GameContext, centre: Hex, radius: int) -> list[Hex]:
    """Hexes of the board within ``radius`` of ``centre``, nearest first then by label."""
    board = game.board
    start = board.index.get(centre)
    if start is None:
        return []
    seen = {start: 0}
    frontier = [start]
    for d in range(1, radius + 1):
        nxt = []
        for i in frontier:
            for n in board.neighbours[i][1:]:
                if n >= 0 and n not in seen:
                    seen[n] = d
                    nxt.append(n)
        frontier = nxt
    return sorted((board.hexes[i] for i in seen), key=lambda h: (seen[board.index[h]], h))


def _roster_index(game: GameContext) -> dict[str, int]:
    return {cid: i for i, cid in enumerate(game.state.characters)}


def _side_name(side: Side) -> str:
    return "Friendly" if side is Side.FRIENDLY else "Enemy"


def _reveal(game: GameContext, ch: Character, why: str, rule: str) -> None:
    """Reveal ``ch``: a Friendly becomes Spotted, an Enemy Known; a dummy is removed (§3, §9).

    Through ``solo.rules.spotting.reveal`` and ``solo.rules.spotting.remove_dummy``.
    """
    from solo.rules import spotting

    if ch.dummy:
        spotting.remove_dummy(game, ch, why, rule)
    else:
        spotting.reveal(game, ch, reason=why, rule=rule)


def _out_of_action_check(ch: Character) -> None:
    """Status after wounds are removed: an incapacitated Friendly below TQ is active again [house]."""
    if ch.status is Status.INCAPACITATED and -ch.wound_penalty < ch.tq:
        ch.status = Status.ACTIVE


def _remove_light_wound(ch: Character) -> bool:
    """Remove the newest Light Wound of ``ch``; False if he has none."""
    for i in range(len(ch.wounds) - 1, -1, -1):
        if ch.wounds[i] is Wound.LIGHT:
            del ch.wounds[i]
            _out_of_action_check(ch)
            return True
    return False


def _leaders_reach(game: GameContext, side: Side) -> list[Character]:
    """Characters of ``side`` within the LDR range of one of its active leaders, roster order."""
    leaders = [c for c in game.state.active(side) if c.ldr > 0 and not c.dummy]
    return [
        c
        for c in game.state.active(side)
        if not c.dummy and any(game.distance(c.on_hex, lead.on_hex) <= lead.ldr for lead in leaders)
    ]


def _morale_gain(game: GameContext, ch: Character, steps: int, why: str, rule: str) -> None:
    """Change ``ch``'s Morale State by ``steps`` (gains stop at Aggressive, base-rules §7, §18)."""
    before = ch.morale
    ch.morale = step_morale(before, steps, cap=MoraleState.AGGRESSIVE)
    if ch.morale is before:
        game.emit(
            "morale",
            f"{ch.name} stays {before.value.capitalize()} ({why}: no change within the cap).",
            rule=rule,
            actor=ch.id,
            data={"before": before.value, "after": before.value, "steps": steps},
        )
        return
    game.emit(
        "morale",
        f"{ch.name} goes from {before.value.capitalize()} to {ch.morale.value.capitalize()} ({why}).",
        rule=rule,
        actor=ch.id,
        data={"before": before.value, "after": ch.morale.value, "steps": steps},
    )


# ---------------------------------------------------------------------------
# Adapters to the other rule modules (imported when called: they import this module too)


def _wound(game: GameContext, ch: Character, *, cause: str, rule: str) -> None:
    """One wound draw on ``ch`` and its effects (base-rules §8): ``solo.rules.wounds.wound_draw`` then
    ``solo.rules.wounds.apply_wound`` (as from fire: Duck Back and WMC, Tough drawn automatically)."""

    if not ch.on_map:
        return
    stamp = wounds.wound_draw(game, ch)
    wounds.apply_wound(game, ch, stamp, melee=False, reason=f"{cause}; {rule}")


def _morale_check(game: GameContext, ch: Character, *, cause: str, rule: str) -> None:
    """An MC on ``ch`` (base-rules §7) through ``solo.rules.morale.morale_check`` (a drop: Duck Back)."""

    morale.morale_check(game, ch, cause, rule)


def _alert_near(game: GameContext, h: Hex, radius: int, cause: str, rule: str) -> None:
    """Alert condition 5: Waiting enemies within ``radius`` of ``h`` become Alert (base-rules §5.6)."""
    from solo.rules import spotting

    spotting.alert_near(game, h, radius, cause, rule)


# ---------------------------------------------------------------------------
# "This turn" card effects (base-rules §18): stored as plain dicts, queried by other modules


# ---------------------------------------------------------------------------
# Friendly card effects (base-rules §1 Step 1 d) and e), §18)


# ---------------------------------------------------------------------------
# Event tables (base-rules §1 Step 1 e), §18)


# ---------------------------------------------------------------------------
# Weather (C2 28.1)


# ---------------------------------------------------------------------------
# Smoke markers and LOS sync (base-rules §13; C2 29.2, 29.5)


# ---------------------------------------------------------------------------
# Fire (C2 29.1–29.5)


# ---------------------------------------------------------------------------
# Off-board artillery (base-rules §14)


# ---------------------------------------------------------------------------
# Orders: targets, start of activation, throws, Impulse 4 (base-rules §4, §5.6, §7, §12)


# ---------------------------------------------------------------------------
# The End Phase (base-rules §1 Step 5)


# ---------------------------------------------------------------------------
# Victory (base-rules §19)


def _ammo_full(game: GameContext, chars: Iterable[Character], why: str, rule: str) -> None:
    done = 0
    for c in chars:
        if c.ammo is AmmoState.FULL:
            continue
        before = c.ammo
        c.ammo = AmmoState.FULL
        done += 1
        game.emit(
            "ammo",
            f"{c.name}'s ammo goes from {before.value.capitalize()} to Full ({why}).",
            rule=f"{rule}; 10",
            actor=c.id,
            data={"before": before.value},
        )
    if not done:
        game.emit("ammo", f"Nobody needs ammunition ({why}).", rule=rule)
