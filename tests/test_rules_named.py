"""Numbered Combat!2 rules that no other test named (tools/rule_tests): one test each, quoting the
words it tests.

Maps: tests/data/vehicle_open.yaml and the combat test map. Helpers from tests/test_crew.py and
tests/test_vehicle_combat.py."""

from __future__ import annotations

from conftest import house_data
from test_crew import man as crew_man
from test_crew import new_game
from test_vehicle_combat import _duel, script

from solo.core.hexes import Arc, Hex
from solo.rules.vehicles import hits, seats
from solo.rules.vehicles import targets as vehicle_targets
from solo.rules.vehicles.targets import Ordnance


def test_23_6_future_vehicles_are_not_shipped():
    """C2 23.6 Future Vehicles: "vehicle counters for M4A3E8, M10, PzKpfw VG AFVs, and a Kubelwagen.
    Displays and tables for these will appear in future products": the house data has the five
    vehicles with displays, none of the four future ones."""
    ids = [t.id for t in house_data().vehicles.types]
    assert sorted(ids) == ["jeep", "m3a1_half_track", "m4a3_sherman", "opel_truck", "panzer_ivh"]
    assert not any(word in i for i in ids for word in ("e8", "m10", "pzkpfw_vg", "panther", "kubel"))


def test_27_1_fountain_is_rough_and_a_half_level_obstacle():
    """C2 27.1 "Fountain hexes are Rough Terrain. Fountains are a size ½ obstacle": rough, and an
    obstacle of 1 half-level."""
    fountain = house_data().terrain["fountain"]
    assert fountain.rough is True and fountain.obstacle == 1 and fountain.rule == "C2 27.1"


def test_27_10_gardens_and_tracks_are_no_terrain():
    """C2 27.10 "gardens and tracks depicted on the maps ... are purely there for artistic effect and
    have no game purpose": no terrain type is a garden or a track."""
    ids = [t.id for t in house_data().terrain.types]
    assert ids and not [i for i in ids if "garden" in i or i in ("track", "tracks")]


def test_31_7_vehicles_and_crew_are_always_spotted(tmp_path):
    """C2 31.7 "Vehicles and their crews are always considered spotted by Characters that have LOS to
    them. Vehicles and crew may never become hidden": an Enemy crewman is never hidden from the
    player (an Enemy on foot not Known is), and a Friendly may fire at the Enemy vehicle with no
    spotting roll."""
    from test_crew import panzer
    from test_crew import script as crew_script

    from solo.playtest.history_view import is_hidden
    from solo.rules.vehicles.targets import is_vehicle_target

    game = new_game(tmp_path, vehicles=[panzer()], friendly=[crew_man("f0", "17.14")])
    cmd = game.char("pz_commander")
    cmd.revealed = False
    e1 = game.char("e1")
    e1.revealed = False
    assert not is_hidden(game, cmd) and is_hidden(game, e1)
    crew_script(game, [])  # no die may be rolled
    assert is_vehicle_target(game, game.state.vehicles["pz"], game.char("f0"))


def test_31_7_1_jeep_seats_see_all_round_and_use_no_markers(tmp_path):
    """C2 31.7.1 Jeeps: "The Driver and the Co-driver will spot as normal and have a 360 degree LOS.
    Any passengers in positions 1 or 2 have a 360 degree LOS. Jeep Drivers and Co-Drivers do not use
    Target Markers": every hex around is in the arcs of those four seats; no seat uses a marker."""
    jeep = {"id": "jp", "type": "jeep", "side": "friendly", "hex": "17.10", "facing": 1}
    game = new_game(tmp_path, vehicles=[jeep], friendly=[crew_man("f0", "33.19")])
    v = game.state.vehicles["jp"]
    ring = [game.board.neighbour_hex(Hex.parse("17.08"), 1)] + [
        game.board.neighbour_hex(game.board.neighbour_hex(v.hex, d), d) for d in range(1, 7)
    ]
    for pos in ("driver", "co_driver", "passenger_1", "passenger_2"):
        assert all(seats.in_seat_arc(game, v, pos, h) for h in ring if h is not None), pos
        assert not seats.uses_target_marker(game, v, pos)


def test_31_9_only_the_jeep_co_driver_fires(tmp_path):
    """C2 31.9 Firing from or with Vehicles, 31.9.1 "Jeeps may not normally fire weapons however the
    Co-Driver may fire to the front or right side of the vehicle if they are armed with a Pistol or
    SMG": the Jeep data gives the Co-driver front and right fire arcs, the Driver none."""
    vt = house_data().vehicles.get("jeep")
    assert not vt.position("driver").fire_arcs
    arcs = {a.value if hasattr(a, "value") else str(a) for a in vt.position("co_driver").fire_arcs}
    assert arcs == {"0", "1", "2"}  # wedges clockwise from the front: front, right front, right rear


def test_31_10_1_a_jeep_hit_rolls_its_damage_table_without_penetration(tmp_path):
    """C2 31.10.1 "A successful hit on a Jeep requires a subsequent roll on the Jeep Damage Table to
    determine a hit location": the hit rolls %D for a location and no penetration (that is for
    AFVs and Half-Tracks, 31.10.4)."""
    jeep = {"id": "jp", "type": "jeep", "side": "enemy", "hex": "17.10", "facing": 1}
    game = new_game(tmp_path, vehicles=[jeep])
    rifle = vehicle_targets.strike_of(game, "m1_garand")
    script(game, [50], fallback=5)
    rep = hits.hit_vehicle(game, game.state.vehicles["jp"], rifle, from_hex=Hex.parse("17.05"))
    assert rep["percent"] == 50 and rep["row"]["location"]
    assert "penetration" not in rep


def test_31_10_3_and_31_10_32_an_afv_hit_rolls_the_hit_location_table(tmp_path):
    """C2 31.10.3 Firing at AFVs, 31.10.32 Targeting the Vehicle: "A successful hit on an AFV ...
    requires a subsequent roll on the AFV Hit Location Table to determine a hit location": %D 34 on
    the Panzer's front is the glancing turret row; the penetration roll follows (31.10.4)."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m4_75mm", Ordnance.AP)
    script(game, [34, 4])
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["percent"] == 34 and rep["glancing"] is True and "penetration" in rep


def test_31_11_vehicle_orders_are_the_speed_and_crew_orders():
    """C2 31.11 Vehicle Orders, 31.11.1 "movement Orders are - Crawl, Reverse, Ahead Slow, Forward
    or Fast": each is a vehicle order in the house order table."""
    orders = house_data().orders
    for oid in ("crawl", "reverse", "ahead_slow", "forward", "fast"):
        assert orders.get(oid).is_vehicle, oid
    assert not orders.get("sneak").is_vehicle
