"""The vehicle rules the game runs in the End Phase (Step 5), through ``Game._end_phase``.

C2 28.2 (a Mired Jeep or Truck's Driver makes a TQC-3 to get free; an Enemy Driver who fails
Panics next turn) and 31.10.8 (Turret/Engine Fire: d10 0 out, 1-7 burns on, 8-9 explodes, from
the end of the turn after it started). Dice are scripted without a fallback where every roll of
the End Phase is known, so an unexpected roll fails the test.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import attrs
import pytest
from conftest import DATA_DIR, house_data, scenario_yaml

from solo.core.dice import Dice, ScriptedSource
from solo.data.house import HouseData
from solo.data.maps import load_map
from solo.data.scenario import load_scenario
from solo.data.tables import MoraleState
from solo.engine.game import Game
from solo.rules.state import Phase, Status
from solo.rules.vehicles import crew
from solo.rules.vehicles.targets import FIRE_STARTED

DE_CREW = {
    "commander": "de_cmd_brandt",
    "driver": "de_drv_vogel",
    "gunner": "de_gun_adler",
    "loader": "de_ldr_baumann",
    "co_driver": "de_cdr_hahn",
}


@functools.cache
def vdata() -> HouseData:
    base = house_data()
    m = load_map(DATA_DIR / "vehicle_open.yaml", base.terrain)
    return attrs.evolve(base, maps={**base.maps, m.id: m})


def man(cid: str, hex_: str, tq: int = 5) -> dict:
    return {"id": cid, "name": cid, "tq": tq, "weapons": [{"weapon": "m1_garand", "ws": 5}], "hex": hex_}


def game_with(
    tmp_path: Path, vehicles: list[dict], friendly: list[dict], enemy: list[dict], **extra: Any
) -> Game:
    """A game on the all-open vehicle map at Impulse 4 of turn 1's Action Phase."""
    sc: dict[str, Any] = {"id": "t", "name": "Test", "map": "vehicle_open", "turns": 3, "hand": 1, **extra}
    sc["friendly"] = [{"id": "able", "name": "Able", "characters": friendly}] if friendly else []
    sc["enemy"] = [{"id": "red", "name": "Red", "alert": True, "characters": enemy}]
    sc["vehicles"] = vehicles
    p = tmp_path / "scenario.yaml"
    p.write_text(scenario_yaml(sc))
    game = Game(load_scenario(p, vdata()), vdata(), dice=Dice(1))
    game.state.flow.phase = Phase.ACTION
    game.state.flow.impulse = 4
    return game


def events(game: Game, kind: str) -> list:
    return [e for e in game.events if e.kind == kind]


# ---------------------------------------------------------------------------
# C2 28.2: Mired Jeeps and Trucks


def mired_game(tmp_path: Path) -> Game:
    """A Friendly Jeep driven by d1 and an Enemy Truck driven by e2, both Mired, in Mud."""
    jeep = {
        "id": "jp",
        "type": "jeep",
        "side": "friendly",
        "hex": "17.10",
        "facing": 1,
        "crew": {"driver": "d1"},
    }
    truck = {
        "id": "tr",
        "type": "opel_truck",
        "side": "enemy",
        "hex": "20.10",
        "facing": 1,
        "crew": {"driver": "e2"},
    }
    game = game_with(
        tmp_path,
        [jeep, truck],
        [man("d1", "17.10")],
        [man("e1", "01.01"), man("e2", "20.10")],
        ground="mud",
    )
    for v in game.state.vehicles.values():
        v.mired = True
    return game


def test_mired_tqc_minus_3_frees_at_the_threshold(tmp_path):
    """C2 28.2: Step 5, the Driver's TQC-3: TQ 5 - 3 = 2; a 2 frees the Jeep, a 3 leaves the Truck Mired."""
    game = mired_game(tmp_path)
    game.dice.source = ScriptedSource([2, 3])  # the Jeep's Driver, then the Truck's
    game._end_phase()
    checks = [e.data for e in events(game, "check") if "Mired" in e.data["purpose"]]
    assert [(c["roll"], c["target"], c["result"]) for c in checks] == [(2, 2, "passed"), (3, 2, "failed")]
    assert not game.state.vehicles["jp"].mired and game.state.vehicles["tr"].mired
    assert [e.data["vehicle"] for e in events(game, "mired")] == ["jp"]


def test_failed_enemy_driver_panics_next_turn(tmp_path):
    """C2 28.2 "If it fails, then Enemy Drivers are given Panic Orders": his next order becomes Panic."""
    game = mired_game(tmp_path)
    game.dice.source = ScriptedSource([2, 3])
    game._end_phase()
    e2 = game.char("e2")
    game.state.flow.turn, game.state.flow.phase, game.state.flow.impulse = 2, Phase.ACTION, 1
    game.set_order(e2, "crawl")
    game.dice.source = ScriptedSource([], fallback=1)
    gen = crew.activate(game, e2)
    try:
        d = next(gen)
        while True:
            d = gen.send(d.keys[0])
    except StopIteration:
        pass
    assert e2.order is not None and e2.order.order == "panic"


def test_freed_enemy_driver_keeps_his_order(tmp_path):
    """C2 28.2: an Enemy Driver who frees his Truck is not given Panic."""
    game = mired_game(tmp_path)
    game.dice.source = ScriptedSource([2, 2])
    game._end_phase()
    assert "mired_panic" not in game.state.vehicles["tr"].acted


# ---------------------------------------------------------------------------
# C2 31.10.8: a burning vehicle's End Phase roll


def burning_game(tmp_path: Path, started: int = 0) -> Game:
    """An Enemy Panzer on fire since turn ``started`` (the game is in turn 1)."""
    pz = {
        "id": "pz",
        "type": "panzer_ivh",
        "side": "enemy",
        "name": "Panzer",
        "hex": "17.10",
        "facing": 1,
        "loaded": "he",
        "hatches": {"commander": "open"},
        "crew": dict(DE_CREW),
    }
    game = game_with(tmp_path, [pz], [man("f1", "30.18")], [man("e1", "01.01")])
    game.state.vehicles["pz"].on_fire = True
    game.state.flags[FIRE_STARTED] = {"pz": started}
    return game


@pytest.mark.parametrize("roll", [8, 9])
def test_burning_vehicle_explodes_on_8_and_9(tmp_path, roll):
    """C2 31.10.8: the game's End Phase rolls for the fire; 8-9 the vehicle explodes, the crew die."""
    game = burning_game(tmp_path)
    game.dice.source = ScriptedSource([roll])
    game._end_phase()
    pz = game.state.vehicles["pz"]
    assert pz.destroyed and events(game, "vehicle_fire_phase")[0].data["roll"] == roll
    assert all(game.char(f"pz_{p}").status is Status.DEAD for p in DE_CREW)


@pytest.mark.parametrize("roll", [1, 7])
def test_burning_vehicle_burns_on_1_to_7(tmp_path, roll):
    """C2 31.10.8: 1-7 the fire burns on and everyone aboard takes a Fire Morale Check."""
    game = burning_game(tmp_path)
    game.dice.source = ScriptedSource([roll], fallback=1)
    game._end_phase()
    pz = game.state.vehicles["pz"]
    assert pz.on_fire and not pz.destroyed
    fmcs = [e for e in events(game, "check") if "Fire Morale Check" in e.data["purpose"]]
    assert sorted(e.actor for e in fmcs) == sorted(f"pz_{p}" for p in DE_CREW)


def test_burning_vehicle_goes_out_on_0(tmp_path):
    """C2 31.10.8: 0 the fire goes out; a crewman below Normal goes up one state (Shaken to Cautious)."""
    game = burning_game(tmp_path)
    game.char("pz_gunner").morale = MoraleState.SHAKEN
    game.dice.source = ScriptedSource([0])
    game._end_phase()
    assert not game.state.vehicles["pz"].on_fire
    assert game.char("pz_gunner").morale is MoraleState.CAUTIOUS


def test_fire_started_this_turn_waits_a_turn(tmp_path):
    """C2 31.10.8: no roll at the end of the turn the fire started (no die is scripted)."""
    game = burning_game(tmp_path, started=1)
    game.dice.source = ScriptedSource([])
    game._end_phase()
    assert game.state.vehicles["pz"].on_fire and not events(game, "vehicle_fire_phase")
