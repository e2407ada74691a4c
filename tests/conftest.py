"""Shared test helpers: the house data once per session, and small games from YAML snippets."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import yaml

from solo.data import HouseData, load_data
from solo.dice import Dice, ScriptedSource
from solo.engine import Game
from solo.scenario import load_scenario

DATA_DIR = Path(__file__).parent / "data"


@functools.cache
def house_data() -> HouseData:
    """The shipped house edition, loaded once."""
    return load_data()


@pytest.fixture
def data() -> HouseData:
    return house_data()


def make_game(
    tmp_path: Path,
    scenario: dict | str | Path = "first_contact",
    *,
    rolls: list[int] | None = None,
    cards: dict[str, list[str]] | None = None,
    seed: int = 1,
    **kw,
) -> Game:
    """A game of ``scenario`` (a shipped id, a path, or a dict written to YAML).

    ``rolls`` and ``cards`` force the first results (then the seed takes over):
    ``cards={"enemy": ["e07"], "friendly": ["f03"]}``.
    """
    if isinstance(scenario, dict):
        p = tmp_path / "scenario.yaml"
        p.write_text(yaml.safe_dump(scenario, sort_keys=False))
        scenario = p
    sc = load_scenario(scenario, house_data())
    if rolls is not None or cards is not None:
        dice = Dice(ScriptedSource(rolls or [], cards=cards or {}, fallback=seed))
    else:
        dice = Dice(seed)
    return Game(sc, house_data(), dice=dice, **kw)
