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
from solo.engine.game import Decision, DecisionKind, Game
from solo.playtest.simple_policy import SimplePolicy

__all__ = ["RandomPolicy", "ScriptedPolicy", "SimplePolicy", "make_policy"]

PolicyFn = Callable[[Game, Decision], str]


class RandomPolicy:
    """Any legal choice, from its own seeded generator (not the game's dice)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._source = SeededSource(seed)

    def __call__(self, game: Game, decision: Decision) -> str:
        keys = decision.keys
        return keys[self._source.below(len(keys))]


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


POLICY_NAMES = ("tactical", "random", "simple", "scripted")
"""The policies :func:`make_policy` makes (a log header names the one that played)."""


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
