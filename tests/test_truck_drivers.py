"""C2 31.3: an Enemy Truck whose Driver the scenario does not name gets a random Character 1-18 not in
play (every cup is emptied at set-up, so none is left in a cup).

Map: tests/data/vehicle_open.yaml (all open)."""

from __future__ import annotations

from typing import Any

import yaml
from conftest import scenario_yaml
from test_crew import crew_data

from solo.core.dice import Dice, Pick, ScriptedSource
from solo.data.scenario import load_scenario
from solo.engine.game import Game
from solo.rules.state import Side


def truck_game(tmp_path, rolls: list[int], cup: dict[str, Any] | None, counters: list[int] = ()) -> Game:
    """An Enemy Opel truck in 10.10 with no Driver named; team red has ``cup`` (hexes 20.10 on)."""
    red: dict[str, Any] = {"id": "red", "name": "Red", "alert": True, "characters": []}
    for i, n in enumerate(counters):
        red["characters"].append({"id": f"c{n}", "counter": n, "hex": f"0{i + 1}.01"})
    if cup is not None:
        red["cup"] = [cup]
    sc = {
        "id": "t",
        "name": "Test",
        "map": "vehicle_open",
        "turns": 3,
        "hand": 1,
        "wind": 1,
        "friendly": [
            {
                "id": "able",
                "name": "Able",
                "characters": [{"id": "f0", "name": "f0", "tq": 5, "hex": "33.19"}],
            }
        ],
        "enemy": [red],
        "vehicles": [{"id": "truck", "type": "opel_truck", "side": "enemy", "hex": "10.10", "facing": 1}],
    }
    p = tmp_path / "scenario.yaml"
    p.write_text(scenario_yaml(sc))
    return Game(load_scenario(p, crew_data()), crew_data(), dice=Dice(ScriptedSource(rolls, fallback=1)))


def driver_of(game: Game):
    cid = game.state.vehicles["truck"].seats["driver"].occupant
    return game.state.characters[cid] if cid else None


def picks(game: Game) -> list[Pick]:
    return [r for r in game.dice.history if isinstance(r, Pick) and "Driver" in r.purpose]


def test_driver_not_a_counter_in_play_cup_or_reinforcement(tmp_path):
    """Counters already drawn from a cup (or set up) are in play: the pick is among the others."""
    cup = {"counters": [3], "dummies": 1, "hexes": "20.10 21.10"}
    game = truck_game(tmp_path, [1, 2], cup, counters=[1])  # the last cup pick takes no roll
    d = driver_of(game)
    pick = picks(game)[0]
    assert pick.size == 16 and pick.label == "counter 4" and d.counter == 4  # 2nd of 2, 4, 5, ... 18


def test_driver_from_unused_characters_when_the_cups_have_none(tmp_path):
    """No counter 1-18 left in a cup: a random one of the counters 1-18 not in play."""
    game = truck_game(tmp_path, [1], None, counters=[1, 2])
    d = driver_of(game)
    assert d is not None and d.counter == 3 and d.side is Side.ENEMY and d.revealed
    assert (
        d.vehicle == "truck"
        and d.seat == "driver"
        and d.team == "truck"
        and d.hex == game.state.vehicles["truck"].hex
    )
    assert d.id in game.state.teams["truck"].members
    ev = [e for e in game.events if e.kind == "setup" and "Driver" in e.text]
    assert ev and "unused Characters" in ev[0].text and ev[0].rule == "C2 31.3"


def test_named_driver_draws_nothing(tmp_path):
    """A Driver named by the scenario is used; nothing is drawn for him (C2 31.3)."""
    game = truck_game(tmp_path, [], None, counters=[5])
    sc = game.scenario
    assert driver_of(game) is not None and not sc.vehicles[0].crew  # drawn: no name given
    p = tmp_path / "named.yaml"
    data = yaml.safe_load((tmp_path / "scenario.yaml").read_text())
    data["vehicles"][0]["crew"] = {"driver": "c5"}
    p.write_text(scenario_yaml(data))
    named = Game(load_scenario(p, crew_data()), crew_data(), dice=Dice(ScriptedSource([], fallback=1)))
    assert driver_of(named).id == "c5" and not picks(named)
