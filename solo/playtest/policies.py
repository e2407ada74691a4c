"""Friendly-side policies for headless play: ``random``, ``simple``, ``scripted`` (issue 3 item 5) and
``tactical`` (issue 13, :mod:`solo.playtest.tactical`).

A policy is a callable ``(game, decision) -> key``. Policies use only the
engine's public view (the decision and the game state) and their own seeded
source; they never touch the game's dice, so a game played by a policy
replays from its inputs alone.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from solo.core.datafile import Problems, read, structure
from solo.core.dice import SeededSource
from solo.core.hexes import wedge_directions
from solo.engine.game import Decision, DecisionKind, Game
from solo.rules.state import Character, Side

PolicyFn = Callable[[Game, Decision], str]


class RandomPolicy:
    """Any legal choice, from its own seeded generator (not the game's dice)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._source = SeededSource(seed)

    def __call__(self, game: Game, decision: Decision) -> str:
        keys = decision.keys
        return keys[self._source.below(len(keys))]


class SimplePolicy:
    """A sensible squad leader: fire at what it sees, move toward the enemy or cover, rally the shaken.

    Deterministic: it breaks ties by the order of the options.
    """

    name = "simple"

    def __call__(self, game: Game, decision: Decision) -> str:
        kind = decision.kind
        keys = decision.keys
        if kind is DecisionKind.PLAY_CARD:
            return min(keys, key=lambda k: _card_value(game, k))
        if kind is DecisionKind.DISCARD:
            return max(keys, key=lambda k: _card_value(game, k))
        if kind is DecisionKind.DUCK_BACK:
            return "no"
        if kind is DecisionKind.MAY_MOVE:
            return "move"
        if kind is DecisionKind.FIRE_TARGET:
            shots = [k for k in keys if k != "hold"]
            return shots[0] if shots else keys[0]
        ch = game.char(decision.actor) if decision.actor in game.state.characters else None
        if kind is DecisionKind.GIVE_ORDER and ch is not None:
            return self._order(game, ch, keys)
        if kind is DecisionKind.ORDER_DIRECTION and ch is not None:
            return self._direction(game, ch, keys)
        return keys[0]

    def _order(self, game: Game, ch: Character, keys: tuple[str, ...]) -> str:
        def first(*names: str) -> str | None:
            return next((n for n in names if n in keys), None)

        if ch.morale.rank >= 4:  # Cautious or worse
            pick = first("rally", "hide")
            if pick:
                return pick
        if "melee" in keys:
            return "melee"
        known = [e for e in game.opponents(ch) if e.revealed and game.sees(ch, e)]
        if known:
            pick = first("aimed_fire", "rapid_fire", "suppressive_fire", "hide")
            if pick:
                return pick
        if game.in_cover(ch) and any(e.revealed for e in game.opponents(ch)):
            pick = first("hide", "aimed_fire")
            if pick:
                return pick
        return first("sneak", "evade", "hide") or keys[0]

    def _direction(self, game: Game, ch: Character, keys: tuple[str, ...]) -> str:
        goal = _goal(game, ch)
        if goal is None or goal == ch.hex:
            return keys[0]
        wedge = wedge_directions(ch.hex, goal, game.board.map.stagger)
        want = "/".join(str(d) for d in wedge) if len(wedge) == 2 else str(wedge[0])
        if want in keys:
            return want
        return next((k for k in keys if k.startswith(str(wedge[0]))), keys[0])


def _card_value(game: Game, card_id: str) -> int:
    c = game.data.friendly_deck.card(card_id)
    if c.initiatives is None:
        return 1000  # keep Event cards for last
    return c.initiatives.able + c.initiatives.baker + c.initiatives.charlie


def _goal(game: Game, ch: Character):
    """Where ``ch`` heads: the nearest Known enemy, else the nearest enemy, else the scenario objective."""
    enemies = [e for e in game.state.active(Side.ENEMY) if e.hex is not None]
    known = [e for e in enemies if e.revealed] or enemies
    if known:
        return min(known, key=lambda e: (game.distance(ch.hex, e.hex), e.id)).hex
    objectives = getattr(game.scenario, "objectives", None)
    return objectives[0] if objectives else None


@attrs.frozen
class _ScriptEntry:
    turn: int
    decision: str
    choice: str
    actor: str | None = None


@attrs.frozen
class _ScriptFile:
    choices: tuple[_ScriptEntry, ...]
    fallback: str = "simple"


class ScriptedPolicy:
    """Choices from a YAML file by turn, decision kind and actor; the rest from a fallback policy.

    The file::

        choices:
          - {turn: 1, decision: play_card, choice: f07}
          - {turn: 1, decision: give_order, actor: able_1, choice: sneak}
        fallback: simple      # or random
    """

    name = "scripted"

    def __init__(self, path: Path | str) -> None:
        doc = read(Path(path))
        raw = structure(doc, _ScriptFile)
        probs = Problems()
        kinds = {k.value for k in DecisionKind}
        for i, e in enumerate(raw.choices):
            if e.decision not in kinds:
                probs.add(
                    doc,
                    ("choices", i, "decision"),
                    f"unknown decision {e.decision!r} (expected one of: {', '.join(sorted(kinds))})",
                )
        if raw.fallback not in ("simple", "random"):
            probs.add(doc, ("fallback",), "fallback must be simple or random")
        probs.raise_if_any()
        self._entries = list(raw.choices)
        self._fallback = SimplePolicy() if raw.fallback == "simple" else RandomPolicy(0)

    def __call__(self, game: Game, decision: Decision) -> str:
        for i, e in enumerate(self._entries):
            if (
                e.turn == decision.turn
                and e.decision == decision.kind.value
                and (e.actor is None or e.actor == decision.actor)
                and e.choice in decision.keys
            ):
                del self._entries[i]
                return e.choice
        return self._fallback(game, decision)


def make_policy(name: str, *, seed: int = 0, script: Path | str | None = None) -> Any:
    """A policy by name: ``tactical``, ``random`` (seeded), ``simple`` or ``scripted`` (needs ``script``)."""
    if name == "tactical":
        from solo.playtest.tactical import TacticalPolicy

        return TacticalPolicy(fallback=SimplePolicy())
    if name == "random":
        return RandomPolicy(seed)
    if name == "simple":
        return SimplePolicy()
    if name == "scripted":
        if script is None:
            raise ValueError("the scripted policy needs a script file (--script FILE)")
        return ScriptedPolicy(script)
    raise ValueError(f"unknown policy {name!r} (expected tactical, random, simple or scripted)")
