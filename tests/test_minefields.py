"""Minefields (C2 31.5): scenario data, vehicles entering a minefield hex, men on foot [house option
``minefield_men``], and the window drawing them.

Maps: tests/data/vehicle_open.yaml (all open) for vehicles, tests/data/open_test.yaml for men.
"""

from __future__ import annotations

import attrs
import pytest
from conftest import action_game, man, maps_test_data, order, scenario_yaml, script
from test_crew import events, jeep_game, panzer, run
from test_crew import new_game as vehicle_game
from test_movement import act, moves

from solo.core.errors import DataError
from solo.core.hexes import Hex
from solo.core.options import Options
from solo.data.scenario import load_scenario
from solo.rules import minefields
from solo.rules.vehicles import crew

FAR_ENEMY = [man("ex", "11.11", name="Sch. Far")]


# ---------------------------------------------------------------------------
# Vehicles (C2 31.5)


def mined_panzer(tmp_path):
    """A Panzer at 06.04 facing 4, Crawl 4, the minefield in 06.05 just ahead."""
    game = vehicle_game(tmp_path, vehicles=[panzer(hex_="06.04", facing=4)], minefields="06.05")
    order(game, "pz_driver", "crawl", "4")
    for pos in ("commander", "gunner", "loader", "co_driver"):
        order(game, f"pz_{pos}", "spot")
    return game


@pytest.mark.parametrize(("roll", "stopped"), [(8, False), (9, True), (0, False)])
def test_afv_immobilized_on_9_only(tmp_path, roll, stopped):
    """An AFV entering a mine hex: 9 Immobilized, Driver to Emergency Stop; 8 or 0 no effect (C2 31.5)."""
    game = mined_panzer(tmp_path)
    script(game, [roll])
    run(crew.activate(game, game.char("pz_driver")))
    v = game.state.vehicles["pz"]
    assert v.hex == Hex.parse("06.05")
    assert ("immobilized" in v.damage) is stopped
    assert (game.char("pz_driver").order.order == "emergency_stop") is stopped
    ev = events(game, "minefield")
    assert len(ev) == 1 and ev[0].data["roll"] == roll and ev[0].rule == "C2 31.5"


def mined_jeep(tmp_path):
    game = jeep_game(tmp_path)
    # The Jeep at 17.10 facing 1, Ahead Slow 1 on Impulse 3; its first hex ahead is mined.
    ahead = game.board.neighbour_hex(Hex.parse("17.10"), 1)
    sc = attrs.evolve(game.scenario, minefields=str(ahead))
    game.scenario = sc
    order(game, "p1", "spot")
    return game, ahead


@pytest.mark.parametrize(("roll", "wheel_roll", "wheel"), [(7, 3, "left"), (9, 4, "right")])
def test_jeep_immobilized_on_7_to_9_with_a_wheel(tmp_path, roll, wheel_roll, wheel):
    """A Jeep entering a mine hex on 7-9: Immobilized, d6 1-3 Left Wheel, 4-6 Right Wheel, and
    Emergency Stop (C2 31.5)."""
    game, ahead = mined_jeep(tmp_path)
    script(game, [roll, wheel_roll])
    run(crew.activate(game, game.char("d1")))
    v = game.state.vehicles["jp"]
    assert v.hex == ahead and "immobilized" in v.damage
    assert game.char("d1").order.order == "emergency_stop"
    ev = events(game, "minefield")[0]
    assert ev.data["wheel"] == wheel and ev.data["roll"] == roll


def test_jeep_not_hurt_on_6(tmp_path):
    """A Jeep rolling 6 drives on through the minefield: no d6, no damage (C2 31.5)."""
    game, ahead = mined_jeep(tmp_path)
    script(game, [6])
    run(crew.activate(game, game.char("d1")))
    v = game.state.vehicles["jp"]
    assert "immobilized" not in v.damage and game.char("d1").order.order == "ahead_slow"
    assert v.hex != Hex.parse("17.10")
    ev = events(game, "minefield")[0]
    assert ev.data["immobilized"] is False and ev.data["hex"] == str(ahead)


# ---------------------------------------------------------------------------
# Men on foot [house: C2 31.5 is silent; option minefield_men]


@pytest.mark.parametrize(("tq", "roll", "ducks"), [(5, 5, False), (5, 6, True), (9, 9, True)])
def test_man_entering_a_minefield_takes_an_mc(tmp_path, tq, roll, ducks):
    """A man entering a mine hex takes an MC: pass at TQ, fail at TQ+1, natural 9 fails; failed: Duck
    Back and his move ends (option minefield_men = morale_check, §18 "minefield MC")."""
    game = action_game(tmp_path, [man("f1", "05.05", tq=tq)], FAR_ENEMY, minefields="05.06")
    ch = order(game, "f1", "sneak", "4")
    script(game, [roll])
    act(game, ch, 2)
    assert ch.hex == Hex.parse("05.06")
    assert (ch.order.order == "duck_back") is ducks
    assert len(events(game, "minefield")) == 1
    if ducks:
        assert "C2 31.5" in moves(game)[0].rule


def test_man_minefield_option_none(tmp_path):
    """With minefield_men = none a man walks through a mine hex with no roll."""
    game = action_game(
        tmp_path, [man("f1", "05.05")], FAR_ENEMY, minefields="05.06", options=Options(minefield_men="none")
    )
    ch = order(game, "f1", "sneak", "4")
    script(game, [])
    act(game, ch, 2)
    assert ch.hex == Hex.parse("05.06") and not events(game, "minefield")


def test_minefield_option_values():
    """minefield_men takes only its two readings."""
    assert Options.from_dict({"minefield_men": "none"}).minefield_men == "none"
    with pytest.raises(ValueError, match="minefield_men"):
        Options.from_dict({"minefield_men": "sometimes"})


# ---------------------------------------------------------------------------
# Data


def test_minefield_hexes_validated(tmp_path):
    """A minefield off the map or given twice is a data error naming the file and line."""
    sc = {
        "id": "t",
        "name": "Test",
        "map": "open_test",
        "turns": 3,
        "friendly": [{"id": "able", "name": "Able", "characters": [man("f1", "01.01")]}],
        "minefields": "99.99 01.02 01.02",
    }
    p = tmp_path / "scenario.yaml"
    p.write_text(scenario_yaml(sc))
    with pytest.raises(DataError) as exc:
        load_scenario(p, maps_test_data())
    msg = str(exc.value)
    assert "99.99" in msg and "given twice" in msg and "scenario.yaml:" in msg


def test_minefield_hexes_read(tmp_path):
    """minefield_hexes gives the scenario's hexes in the order written."""
    game = action_game(tmp_path, [man("f1", "05.05")], FAR_ENEMY, minefields="07.03 05.06")
    assert minefields.minefield_hexes(game) == (Hex.parse("07.03"), Hex.parse("05.06"))
    assert minefields.is_minefield(game, Hex.parse("05.06")) and not minefields.is_minefield(game, None)


# ---------------------------------------------------------------------------
# Minefields as map terrain (a map's ``minefields:``)


def mined_map(tmp_path, base: str, hexes: str, map_id: str):
    """The test map ``base`` of tests/data with ``minefields: hexes``, written as ``map_id``."""
    from conftest import DATA_DIR

    text = (DATA_DIR / f"{base}.yaml").read_text(encoding="utf-8").replace(f"id: {base}", f"id: {map_id}", 1)
    p = tmp_path / f"{map_id}.yaml"
    p.write_text(text + f'minefields: "{hexes}"\n', encoding="utf-8")
    return p


def test_map_minefields_validated(tmp_path):
    """A map's minefield off the map, malformed or given twice is a data error with its line."""
    from solo.data.maps import load_map

    p = mined_map(tmp_path, "open_test", "99.99 05.06 05.06 5.6", "bad_mines")
    with pytest.raises(DataError) as exc:
        load_map(p)
    msg = str(exc.value)
    line = len(p.read_text(encoding="utf-8").splitlines())
    assert f"bad_mines.yaml:{line}:" in msg
    assert "99.99 is outside the map" in msg and "05.06 given twice" in msg and "'5.6'" in msg


def test_map_minefields_with_the_scenarios(tmp_path):
    """A map's minefields (C2 31.5) count in every scenario on the map, the scenario's added after
    them, each hex once; the map's own board lists them."""
    from solo.data.maps import load_map
    from solo.engine.game import Game

    m = load_map(mined_map(tmp_path, "open_test", "05.06 07.03", "open_mined"))
    assert m.minefields == (Hex.parse("05.06"), Hex.parse("07.03"))
    data = attrs.evolve(maps_test_data(), maps={**maps_test_data().maps, m.id: m})
    sc = {
        "id": "t",
        "name": "Test",
        "map": "open_mined",
        "turns": 3,
        "friendly": [{"id": "able", "name": "Able", "characters": [man("f1", "05.05")]}],
        "enemy": [{"id": "red", "name": "Red", "characters": FAR_ENEMY}],
        "minefields": "07.03 09.09",
    }
    p = tmp_path / "scenario.yaml"
    p.write_text(scenario_yaml(sc))
    from solo.core.dice import Dice

    game = Game(load_scenario(p, data), data, dice=Dice(1))
    assert minefields.minefield_hexes(game) == tuple(Hex.parse(h) for h in ("05.06", "07.03", "09.09"))


@pytest.mark.parametrize(("roll", "ducks"), [(5, False), (6, True)])
def test_man_entering_a_map_minefield_takes_an_mc(tmp_path, roll, ducks):
    """A man entering a map's minefield hex takes the MC of a scenario's (TQ 5: 5 passes, 6 fails and
    Ducks Back; option minefield_men = morale_check)."""
    from solo.data.maps import Board, load_map
    from solo.rules.los import LineOfSight

    game = action_game(tmp_path, [man("f1", "05.05")], FAR_ENEMY)
    assert minefields.minefield_hexes(game) == ()
    game.board = Board.for_map(
        load_map(mined_map(tmp_path, "open_test", "05.06", "open_mined")), game.data.terrain
    )
    game.los = LineOfSight(game.board, month=game.scenario.month)
    ch = order(game, "f1", "sneak", "4")
    script(game, [roll])
    act(game, ch, 2)
    assert ch.hex == Hex.parse("05.06")
    assert (ch.order.order == "duck_back") is ducks and len(events(game, "minefield")) == 1


def test_afv_entering_a_map_minefield_rolls_31_5(tmp_path):
    """An AFV entering a map's minefield hex rolls the C2 31.5 d10: 9 Immobilized, Emergency Stop."""
    from solo.data.maps import Board, load_map
    from solo.rules.los import LineOfSight

    game = vehicle_game(tmp_path, vehicles=[panzer(hex_="06.04", facing=4)])
    game.board = Board.for_map(
        load_map(mined_map(tmp_path, "vehicle_open", "06.05", "mined_open")), game.data.terrain
    )
    game.los = LineOfSight(game.board, month=game.scenario.month)
    order(game, "pz_driver", "crawl", "4")
    for pos in ("commander", "gunner", "loader", "co_driver"):
        order(game, f"pz_{pos}", "spot")
    script(game, [9])
    run(crew.activate(game, game.char("pz_driver")))
    v = game.state.vehicles["pz"]
    assert v.hex == Hex.parse("06.05") and "immobilized" in v.damage
    assert game.char("pz_driver").order.order == "emergency_stop"
