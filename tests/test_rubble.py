"""A Building hit becomes Rubble (base-rules §14, rulebook 11.14): the game's own board overlay.

The map's board and its caches are shared by every game on the map; a game whose terrain
changes gets a board of its own (the map with its changes), and the other games keep theirs.
"""

from __future__ import annotations

import attrs
import pytest
from conftest import house_data
from test_effects import game, script, used_up

from solo.core.errors import GeometryError
from solo.core.hexes import Hex
from solo.core.log import write_log
from solo.data.maps import Board
from solo.data.terrain import VehicleEntry
from solo.data.vehicle_types import VehicleKind
from solo.playtest import invariants
from solo.playtest.play import header_for, new_game, replay
from solo.playtest.policies import make_policy
from solo.rules import artillery, grenades
from solo.rules.state import Phase
from solo.rules.vehicles.speed_and_terrain import vehicle_entry

H = Hex.parse
HOUSE = H("01.06")
"""A Building on the town map, far from every man of the test scenario."""
RISE, BEYOND = H("01.11"), H("01.04")
"""From the rise (level 1) the line to 01.04 (level 0) crosses only HOUSE: the Building (2
half-levels) is as high as the higher end and blocks; Rubble (1) does not (§16 step 4)."""


def _shell(g, h: Hex, calibre: str = "81mm") -> None:
    g.state.markers.grenades.append(
        {"kind": "shell", "calibre": calibre, "hex": str(h), "thrower": None, "turn": 1}
    )


def test_a_shell_on_a_building_makes_it_rubble(tmp_path):
    """§14: a round exploding on a Building turns the hex to Rubble for the game: terrain, LOS and
    vehicle entry read Rubble (no man is near: only the C2 29.1 kindling roll, 2 > 1, no fire)."""
    g = game(tmp_path)
    assert not g.los.check(RISE, BEYOND).clear
    assert vehicle_entry(g.board, VehicleKind.AFV, HOUSE) is VehicleEntry.IMPASSABLE
    _shell(g, HOUSE)
    script(g, [2])
    grenades.end_phase_explosions(g)
    assert used_up(g) and g.state.markers.fire == {}
    assert g.state.terrain_changes == {HOUSE: "rubble"}
    assert g.board.terrain_of(HOUSE).id == "rubble" and g.board.changes == ((HOUSE, "rubble"),)
    assert g.los.check(RISE, BEYOND).clear
    assert vehicle_entry(g.board, VehicleKind.AFV, HOUSE) is VehicleEntry.PASS
    assert vehicle_entry(g.board, VehicleKind.TRUCK, HOUSE) is VehicleEntry.PASS
    ev = next(e for e in g.events if e.kind == "terrain_change")
    assert ev.data == {"hex": "01.06", "before": "building", "after": "rubble"} and "14" in ev.rule
    invariants.check_terrain(g)


@pytest.mark.parametrize(("face", "fire"), [(1, True), (2, False)])
def test_kindling_reads_the_building_that_was_hit(tmp_path, face, fire):
    """C2 29.1 reads the terrain the round hit [house order]: d10 <= 1 (the Building's kindling)
    starts a fire, 2 does not; either way the hex is Rubble afterwards."""
    g = game(tmp_path)
    _shell(g, HOUSE, "60mm")
    script(g, [face])
    grenades.end_phase_explosions(g)
    assert (HOUSE in g.state.markers.fire) is fire
    assert g.board.terrain_of(HOUSE).id == "rubble"


def test_other_games_on_the_map_keep_their_building(tmp_path):
    """§14: the map's own board and the LOS answers other games share are not touched."""
    for sub in "abc":
        (tmp_path / sub).mkdir()
    g, other = game(tmp_path / "a"), game(tmp_path / "b")
    base = g.board
    assert other.board is base and not other.los.check(RISE, BEYOND).clear  # the shared answer is cached
    _shell(g, HOUSE)
    script(g, [5])
    grenades.end_phase_explosions(g)
    assert g.board is not base and g.board.base is base and g.board.shared is not base.shared
    assert base.terrain_of(HOUSE).id == "building" and base.map.terrain[HOUSE] == "building"
    assert other.board is base and not other.los.check(RISE, BEYOND).clear
    fresh = game(tmp_path / "c")
    assert fresh.board is base and fresh.board.terrain_of(HOUSE).id == "building"
    assert not fresh.los.check(RISE, BEYOND).clear and g.los.check(RISE, BEYOND).clear


def test_games_with_the_same_rubble_share_one_board(tmp_path):
    """The boards with changes are cached by the changes: the same Rubble, the same board and caches;
    other Rubble, another board. No change gives the map's own board."""
    base = game(tmp_path).board
    one = base.with_terrain({HOUSE: "rubble"})
    assert base.with_terrain({HOUSE: "rubble"}) is one and one.with_terrain({HOUSE: "rubble"}) is one
    assert base.with_terrain({H("01.12"): "rubble"}) is not one
    assert base.with_terrain({}) is base and base.with_terrain({HOUSE: "building"}) is base
    with pytest.raises(GeometryError):
        base.with_terrain({H("40.01"): "rubble"})


def test_smoke_and_fire_markers_stay_on_the_new_board(tmp_path):
    """The game's LOS on the new board keeps its smoke (§13): the smoke placed after the blast and the
    smoke already on the line both count."""
    g = game(tmp_path)
    line_hex = H("01.08")
    g.los.set_smoke(line_hex, -4)
    _shell(g, HOUSE)
    script(g, [5])
    grenades.end_phase_explosions(g)
    assert g.los.smoke_at(line_hex) == -4 and g.los.smoke_at(HOUSE) == -4
    assert g.los.check(RISE, BEYOND).smoke == -8


def test_c4_in_a_building_makes_rubble(tmp_path):
    """§14 [house]: C4 that goes off on a Building turns it to Rubble as a shell does."""
    g = game(tmp_path, c4={"carriers": ["red_1"], "hexes": "01.06"})
    g.char("red_1").hex = HOUSE
    g.state.flow.phase = Phase.END
    assert artillery.place_c4(g) == ["red_1"]
    g.state.flow.turn += 1
    g.char("red_1").hex = H("06.12")  # out of the blast
    script(g, [2, 5])  # C4 goes off on 2; kindling 5: no fire
    grenades.end_phase_explosions(g)
    assert g.state.terrain_changes == {HOUSE: "rubble"} and used_up(g)


def test_a_fortified_building_stands(tmp_path):
    """§14 [house]: a Building with a Fortified Building marker (C2 27.2) is not turned to Rubble."""
    g = game(tmp_path)
    m = g.board.map
    g.board = Board.from_map(
        attrs.evolve(m, overlays={**m.overlays, HOUSE: ("fortified_building",)}), g.board.terrain_table
    )
    assert artillery.becomes_rubble(g, HOUSE, "a 105mm round") is None
    assert g.state.terrain_changes == {} and g.board.terrain_of(HOUSE).id == "building"


def test_rubble_replays_from_the_log(tmp_path):
    """The log is the save: a churchyard game whose barrage makes Rubble replays to the same events
    (the terrain_change events among them)."""
    data = house_data()
    g = new_game("the_churchyard", seed=1, data=data)
    invariants.watch(g)
    g.play(make_policy("simple"))
    assert g.state.terrain_changes  # seed 1: a round hits a Building
    path = tmp_path / "rubble.jsonl"
    write_log(path, header_for(g, "the_churchyard", 1, policy="simple"), g.events)
    changed = {H(e.data["hex"]): e.data["after"] for e in g.events if e.kind == "terrain_change"}
    assert changed == g.state.terrain_changes
    assert replay(path, data=data).ok  # every event again, the terrain_change ones among them


def test_hit_becomes_must_name_a_hex_terrain(tmp_path):
    """cards/terrain.yaml: ``hit_becomes`` names a terrain that fills a hex, reported with its line."""
    from solo.core.errors import DataError
    from solo.core.resources import cards_dir
    from solo.data.terrain import load_terrain

    text = (cards_dir() / "terrain.yaml").read_text(encoding="utf-8")
    assert "hit_becomes: rubble" in text
    bad = tmp_path / "terrain.yaml"
    bad.write_text(text.replace("hit_becomes: rubble", "hit_becomes: barbed_wire"), encoding="utf-8")
    with pytest.raises(DataError, match=r"terrain.yaml:\d+: .*hit_becomes 'barbed_wire'"):
        load_terrain(bad)
    assert load_terrain().get("building").hit_becomes == "rubble"


def test_hit_becomes_itself_is_refused_with_its_line(tmp_path):
    """§14: ``hit_becomes: building`` on the Building itself would change nothing: refused at its line."""
    from solo.core.errors import DataError
    from solo.core.resources import cards_dir
    from solo.data.terrain import load_terrain

    text = (cards_dir() / "terrain.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "terrain.yaml"
    bad.write_text(text.replace("hit_becomes: rubble", "hit_becomes: building"), encoding="utf-8")
    with pytest.raises(DataError, match=r"terrain.yaml:\d+: building cannot become itself when hit"):
        load_terrain(bad)


def test_a_board_with_changes_has_the_tables_of_one_built_from_scratch(tmp_path):
    """Issue 10: the board with Rubble keeps the map's geometry and rebuilds only the terrain tables;
    every table is that of a board built from the changed map, and its caches are its own."""
    base = game(tmp_path).board
    changed = base.with_terrain({HOUSE: "rubble", H("01.12"): "rubble"})
    scratch = Board.from_map(changed.map, base.terrain_table)
    for field in ("hexes", "index", "cube", "neighbours", "ground", "block_top", "depression", "abbey"):
        assert getattr(changed, field) == getattr(scratch, field), field
    assert changed.hexside_top == scratch.hexside_top and changed.grid == scratch.grid
    assert changed.row_offset == scratch.row_offset
    assert changed.block_top != base.block_top and changed.shared is not base.shared and not changed.shared
    assert changed.terrain_of(HOUSE).id == "rubble" and base.terrain_of(HOUSE).id == "building"
