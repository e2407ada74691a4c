"""solo: the Enemy side of the solitaire squad wargame Combat! and Combat!2.

The engine is a library: nothing under ``solo`` (except ``solo.render``)
imports pygame, and nothing prints. See ``README.md`` for the commands and the
Layout section for the rooms (core, data, rules, enemy, engine, playtest,
render, cli).

The names most callers want are here, loaded when first asked for (so that
importing one room does not import them all):

* ``solo.Game`` — :class:`solo.engine.game.Game`, one game and its sequence of play;
* ``solo.new_game`` — :func:`solo.playtest.play.new_game`, a game of a shipped scenario by id;
* ``solo.load_data`` — :func:`solo.data.house.load_data`, the house edition's tables, decks and maps.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

__all__ = ["Game", "__version__", "build", "load_data", "new_game"]


def build() -> str:
    """Which build of the engine runs: ``"compiled (mypyc)"`` when the installed engine modules
    are C extensions (``SOLO_COMPILE=1 pip install .``), else ``"pure Python"``. Imports nothing."""
    from importlib.util import find_spec

    spec = find_spec("solo.engine.game")
    origin = spec.origin if spec is not None else None
    return "compiled (mypyc)" if origin is not None and origin.endswith((".so", ".pyd")) else "pure Python"


def __getattr__(name: str) -> Any:
    """``solo.Game``, ``solo.new_game`` and ``solo.load_data``, imported on first use."""
    if name == "Game":
        from solo.engine.game import Game

        return Game
    if name == "new_game":
        from solo.playtest.play import new_game

        return new_game
    if name == "load_data":
        from solo.data.house import load_data

        return load_data
    raise AttributeError(f"module 'solo' has no attribute {name!r}")
