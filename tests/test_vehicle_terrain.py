"""C2 27.9 Vehicles as terrain: a man on foot in a hex with an AFV or Half-Track may use the 'In hex with
AFV/Half-Track' line of the Spotting and Order/Terrain charts (the Enemy always the best); a wreck
counts by the house option ``wreck_cover``; vehicles block no LOS and no movement [house].

Map: tests/data/vehicle_open.yaml (all open). Helpers from tests/test_crew.py."""

from __future__ import annotations

import attrs
import pytest
from test_crew import man, new_game, panzer, sherman

from solo.core.hexes import Hex
from solo.core.options import Options
from solo.rules import firing, spotting

HERE = "17.10"


def game_with(tmp_path, vehicles, *, options: Options | None = None):
    """f1 on foot in 17.10 with ``vehicles``; the Enemy e1 five hexes up the column."""
    game = new_game(tmp_path, vehicles=vehicles, friendly=[man("f1", HERE)], enemy=[man("e1", "17.05")])
    if options is not None:
        game.options = options
    return game


@pytest.fixture
def better_afv_line(monkeypatch, tmp_path):
    """The with_afv line made as protective as Building (the printed values are not known; the house
    data copies the Open line), so that choosing it shows."""
    game = game_with(tmp_path, [sherman()])
    charts = game.data.charts
    monkeypatch.setitem(charts._fire, "with_afv", tuple(charts.fire_cell("building", g) for g in range(7)))
    spot = tuple(charts.spot_modifier("building", g) for g in range(7))
    monkeypatch.setitem(charts._spot, "with_afv", spot)
    return game


def test_fire_uses_the_afv_line_when_better(better_afv_line):
    """Firing at a man in a hex with an AFV: the better of the terrain and the AFV line (27.9)."""
    game = better_afv_line
    cell, row, group = firing.fire_cell(game, game.char("e1"), game.char("f1"))
    assert row == "with_afv" and cell == game.data.charts.fire_cell("building", group)


def test_spotting_rows_include_the_afv_line(better_afv_line):
    """Spotting a man in a hex with an AFV: the AFV line is one of his cover rows, and the best (27.9)."""
    game = better_afv_line
    rows = spotting.cover_rows(game, Hex.parse("17.05"), Hex.parse(HERE))
    assert ("with_afv", "in hex with AFV/Half-Track") in rows


def test_no_line_without_a_vehicle_or_with_a_jeep(tmp_path):
    """No AFV or Half-Track in the hex (a Jeep does not count): only the terrain (27.9)."""
    jeep = {"id": "jp", "type": "jeep", "side": "friendly", "hex": HERE, "facing": 1}
    for vehicles in ([sherman(hex_="20.10")], [jeep]):
        game = game_with(tmp_path, vehicles)
        assert not spotting.vehicle_cover(game, Hex.parse(HERE))
        assert [r for r, _ in spotting.cover_rows(game, Hex.parse("17.05"), Hex.parse(HERE))] == ["open"]


def test_enemy_afv_gives_cover_too(tmp_path):
    """Any side's AFV in the hex counts: the rule names the hex, not the side (27.9)."""
    game = game_with(tmp_path, [panzer(hex_=HERE)])
    assert spotting.vehicle_cover(game, Hex.parse(HERE))


@pytest.mark.parametrize(("wreck_cover", "covers"), [(True, True), (False, False)])
def test_wreck_by_option(tmp_path, wreck_cover, covers):
    """A destroyed AFV: cover while wreck_cover is true, none when false [house; 27.9 is silent]."""
    game = game_with(tmp_path, [sherman()], options=attrs.evolve(Options(), wreck_cover=wreck_cover))
    game.state.vehicles["tank"].destroyed = True
    assert spotting.vehicle_cover(game, Hex.parse(HERE)) is covers


def test_vehicles_block_no_los(tmp_path):
    """A vehicle between two men does not block their LOS [house: 27.9 gives cover only]."""
    game = game_with(tmp_path, [sherman(hex_="17.08")])
    assert game.sight(game.char("e1"), Hex.parse(HERE)).clear


def test_a_wreck_set_up_by_the_scenario(tmp_path):
    """``wrecked: true``: the vehicle starts destroyed with no crew drawn, and gives cover (27.9)."""
    game = game_with(tmp_path, [panzer(hex_=HERE, wrecked=True, crew={})])
    v = game.state.vehicles["pz"]
    assert v.destroyed and all(s.occupant is None for s in v.seats.values())
    assert spotting.vehicle_cover(game, Hex.parse(HERE))


def test_a_wreck_with_crew_is_refused(tmp_path):
    """A wreck naming a crew is a data error on its ``wrecked`` key."""
    from solo.core.errors import DataError

    with pytest.raises(DataError, match="a wreck has no crew"):
        game_with(tmp_path, [sherman(wrecked=True)])


def test_the_shipped_scenario_has_mines_a_wreck_and_a_jeep():
    """mines_on_the_farm_road exercises 31.5, 27.9, 31.11.2 and 31.3 (issue 11)."""
    from conftest import house_data

    from solo.data.scenario import load_scenario

    sc = load_scenario("mines_on_the_farm_road", house_data())
    assert sc.minefields.split() == ["12.08", "13.09", "13.10"]
    kinds = {v.id: (v.type, v.wrecked, dict(v.crew)) for v in sc.vehicles}
    assert kinds["wreck"][1] and kinds["jeep"][2] == {"driver": "baker_1"} and not kinds["truck"][2]


@pytest.mark.parametrize(("order_id", "row"), [("hide", "with_afv"), ("spot", "with_afv")])
def test_house_afv_line_beats_open_terrain(tmp_path, order_id, row):
    """C2 27.9 "Enemy Characters will always use the best terrain i.e. with the largest negative
    modifier": with the house data's own with_afv line, a man in Open next to a Sherman is fired on
    through the AFV line (Hide G0: -4 against Open -2)."""
    from test_crew import order

    game = game_with(tmp_path, [sherman()])
    order(game, "f1", order_id)
    cell, got, group = firing.fire_cell(game, game.char("e1"), game.char("f1"))
    assert got == row and cell == game.data.charts.fire_cell("with_afv", group)
    assert cell.modifier < game.data.charts.fire_cell("open", group).modifier
