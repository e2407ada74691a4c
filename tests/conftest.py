"""Shared test helpers: the house data once per session, and small games from YAML snippets."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import yaml

from solo.core.dice import Dice, ScriptedSource
from solo.data.house import HouseData, load_data
from solo.data.scenario import load_scenario
from solo.engine.game import Game

DATA_DIR = Path(__file__).parent / "data"


@pytest.fixture(autouse=True, scope="session")
def _data_cache_in_tmp(tmp_path_factory):
    """The parsed-data cache of the tests (and of the processes they start) in a tmp dir."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOLO_DATA_CACHE", str(tmp_path_factory.mktemp("data-cache")))
        yield


@functools.cache
def house_data() -> HouseData:
    """The shipped house edition, loaded once."""
    return load_data()


@pytest.fixture
def data() -> HouseData:
    return house_data()


@pytest.fixture(autouse=True)
def _recent_saves_in_tmp(tmp_path_factory, monkeypatch):
    """The window's recent saves (solo.render.start) go to a test folder, never the user's."""
    import sys

    start = sys.modules.get("solo.render.start")
    if start is not None:
        path = tmp_path_factory.mktemp("user_data") / "recent.json"
        monkeypatch.setattr(start, "recent_file", lambda: path)


@pytest.fixture(autouse=True)
def _user_data_in_tmp(tmp_path_factory, monkeypatch):
    """The user data folder (platformdirs: the window's autosave) is a test folder, never the user's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg_data")))


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
        p.write_text(scenario_yaml(scenario))
        scenario = p
    sc = load_scenario(scenario, house_data())
    if rolls is not None or cards is not None:
        dice = Dice(ScriptedSource(rolls or [], cards=cards or {}, fallback=seed))
    else:
        dice = Dice(seed)
    return Game(sc, house_data(), dice=dice, **kw)


# --- small games on the test maps (movement, spotting) ---------------------------------------

TEST_MAPS = ("open_test", "features_test", "abbey_test")


@functools.cache
def maps_test_data() -> HouseData:
    """The house data plus the test maps of tests/data (open, features, abbey)."""
    import attrs

    from solo.data.maps import load_map

    base = house_data()
    extra = {m.id: m for m in (load_map(DATA_DIR / f"{n}.yaml", base.terrain) for n in TEST_MAPS)}
    return attrs.evolve(base, maps={**base.maps, **extra})


def man(cid: str, hex_: str | None, *, tq: int = 5, weapons=(("m1_garand", 5),), **kw) -> dict:
    """A character spec for a test scenario (default: an M1 Garand at WS 5)."""
    return {
        "id": cid,
        "name": kw.pop("name", cid),
        "tq": tq,
        "weapons": [{"weapon": w, "ws": ws} for w, ws in weapons],
        "hex": hex_,
        **kw,
    }


def scenario_yaml(doc: dict) -> str:
    """A test scenario ``doc`` as YAML, with ``victory: {}`` (the standard bands) unless it has its
    own: a scenario file must say how it is won (base-rules §21)."""
    if "friendly" in doc or "enemy" in doc:
        doc = {**doc, "victory": doc.get("victory", {})}
    return yaml.safe_dump(doc, sort_keys=False)


def action_game(
    tmp_path: Path,
    friendly: list[dict],
    enemy: list[dict],
    *,
    map_id: str = "open_test",
    alert: bool = True,
    options=None,
    **extra,
) -> Game:
    """A game on a test map, set to Impulse 1 of the Action Phase (the engine at its first decision)."""
    from solo.rules.state import Phase

    sc = {
        "id": "t",
        "name": "Test",
        "map": map_id,
        "turns": 3,
        "friendly": [{"id": "able", "name": "Able", "characters": friendly}],
        "enemy": [{"id": "red", "name": "Red", "alert": alert, "characters": enemy}],
        **extra,
    }
    p = tmp_path / "scenario.yaml"
    p.write_text(scenario_yaml(sc))
    game = Game(load_scenario(p, maps_test_data()), maps_test_data(), dice=Dice(1), options=options)
    game.state.flow.phase = Phase.ACTION
    game.state.flow.impulse = 1
    return game


def script(game: Game, rolls: list[int]) -> None:
    """Force the next rolls; any roll beyond them raises ChanceError."""
    game.dice.source = ScriptedSource(rolls)


def order(game: Game, cid: str, order_id: str, directions: str | None = None, target: str | None = None):
    """Give character ``cid`` an order (and direction string or target) directly; return him."""
    from solo.data.cards import DirectionString

    ch = game.char(cid)
    game.set_order(
        ch, order_id, directions=DirectionString.parse(directions) if directions else None, target=target
    )
    return ch


class FakeClock:
    """Seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t
