"""C2 31.7.3-31.7.4 Target Markers at their thresholds (mutation testing, tools/mutate): the four
priorities, "in or adjacent" (distance exactly 1), ties that do not move a marker, the single man
of priority 4, the other AFV Commander's marker that negates the closed-hatch -2, and the order of
two opposing vehicles for priority 1.

Map: tests/data/vehicle_open.yaml (all open). Helpers from tests/test_crew.py."""

from __future__ import annotations

import pytest
from test_crew import man, new_game, order, panzer, script, sherman

from solo.core.hexes import Hex
from solo.enemy import target_markers as tm

H = Hex.parse
PZ = "17.10"


def _game(tmp_path, friendly: list[dict], vehicles: list[dict] | None = None):
    game = new_game(tmp_path, vehicles=[panzer(hex_=PZ), *(vehicles or [])], friendly=friendly)
    for c in game.state.characters.values():
        c.revealed = True
    return game


def _row(n: int) -> list[dict]:
    """Friendly men f0..f(n-1) in 17.05, 17.04, ... (up the column, in the Panzer's front)."""
    return [man(f"f{i}", f"17.{5 - i:02d}") for i in range(n)]


def test_count_at_in_or_adjacent_is_distance_1(tmp_path):
    """31.7.4 priority 3 "in or adjacent": a man 1 hex away counts, 2 hexes away does not."""
    game = _game(tmp_path, [man("a", "17.05"), man("b", "17.04"), man("c", "17.03")])
    chars = [game.char(c) for c in ("a", "b", "c")]
    assert tm._count_at(game, chars, H("17.05")) == 2  # a on it, b adjacent; c 2 hexes off
    assert tm._count_at(game, chars, H("17.07")) == 0  # a is 2 hexes away


@pytest.mark.parametrize(
    ("priority", "count", "current", "beats"),
    [
        (3, 2, (3, 2), False),  # a tie does not move a priority-3 marker
        (3, 3, (3, 2), True),  # one more man does
        (3, 5, (2, 0), False),  # never over a Light AT marker
        (3, 2, (4, 1), True),
        (3, 1, (5, 0), True),
        (2, 0, (2, 0), False),  # the same priority does not move it
        (2, 0, (3, 4), True),
        (1, 0, (2, 0), True),
        (4, 1, (4, 1), False),
        (4, 1, (5, 0), True),
    ],
)
def test_beats_by_priority_and_count(priority, count, current, beats):
    """31.7.4: a marker moves only for a higher priority or, priority 3, for more characters."""
    cand = tm._Candidate(priority, H("17.05"), count, "characters", "x")
    assert tm._beats(cand, current) is beats


def test_effective_priority_at_the_marker(tmp_path):
    """What is at a marker now (31.7.4): one man is priority 4 (one counted), two are 3, none is
    nothing (5); a Friendly vehicle is 1 and a Light AT man 2."""
    game = _game(tmp_path, [man("a", "17.05"), man("b", "17.04"), man("z", "33.19")])
    v = game.state.vehicles["pz"]
    a, b = game.char("a"), game.char("b")
    seen = {"ignore_p1": False, "p1": [], "afvs": [], "chars": [a, b], "light_at": []}
    assert tm._effective(game, v, seen, H("17.03")) == (4, 1)
    assert tm._effective(game, v, seen, H("17.05")) == (3, 2)
    assert tm._effective(game, v, seen, H("17.01")) == (5, 0)
    seen["light_at"] = [b]
    assert tm._effective(game, v, seen, H("17.04")) == (2, 2)
    assert tm._effective(game, v, seen, H("17.05")) == (3, 2)
    seen["chars"] = [a]
    assert tm._effective(game, v, seen, H("17.05")) == (4, 1)


def test_best_candidate_single_man_is_priority_4_only_without_a_marker(tmp_path):
    """31.7.4 priority 4 "a single Spotted Friendly character": without a marker the nearest single
    man is the candidate (priority 4, count 1); with a marker the best hex is priority 3."""
    game = _game(tmp_path, [man("a", "17.03"), man("b", "17.14")])
    v = game.state.vehicles["pz"]
    seen = tm._candidates(game, v, "commander", game.char("pz_commander"))
    cand = tm._best_candidate(game, v, "commander", seen, has_marker=False)
    assert (cand.priority, cand.count, cand.on) == (4, 1, "character")
    assert cand.hex == H("17.14") or cand.hex == H("17.03")
    near = min(("17.03", "17.14"), key=lambda h: game.distance(v.hex, H(h)))
    assert cand.hex == H(near)
    with_marker = tm._best_candidate(game, v, "commander", seen, has_marker=True)
    assert (with_marker.priority, with_marker.count, with_marker.on) == (3, 1, "characters")


def test_best_candidate_two_men_adjacent_is_priority_3(tmp_path):
    """31.7.4 priority 3: two men in adjacent hexes give a hex with 2 in or adjacent (no marker yet)."""
    game = _game(tmp_path, [man("a", "17.05"), man("b", "17.04")])
    v = game.state.vehicles["pz"]
    seen = tm._candidates(game, v, "commander", game.char("pz_commander"))
    cand = tm._best_candidate(game, v, "commander", seen, has_marker=False)
    assert (cand.priority, cand.count) == (3, 2)
    assert cand.hex in (H("17.05"), H("17.04"))


def test_group_hex_ties_more_on_the_hex_then_nearer(tmp_path):
    """31.7.4 priority 3 ties [house]: the same count in or adjacent, more men on the hex itself
    wins; then the hex nearer the vehicle."""
    game = _game(tmp_path, [man("a", "17.05"), man("b", "17.05"), man("c", "17.04")])
    v = game.state.vehicles["pz"]
    chars = [game.char(c) for c in ("a", "b", "c")]
    h, count = tm._best_group_hex(game, v, "commander", chars)
    assert count == 3 and h == H("17.05")  # 17.04 also has 3 in or adjacent but only 1 on it
    game2 = _game(tmp_path, [man("a", "17.05"), man("b", "17.03")])
    v2 = game2.state.vehicles["pz"]
    h2, count2 = tm._best_group_hex(game2, v2, "commander", [game2.char("a"), game2.char("b")])
    assert count2 == 2 and h2 == H("17.04")


def test_other_afv_commanders_marker_adjacent_negates_the_closed_hatch(tmp_path):
    """31.7.3 "another same-side AFV Commander's [marker] in or adjacent to the target" negates the
    -2: adjacent (1 hex) it does, 2 hexes off it does not; an opposing AFV's never does."""
    other = panzer("pz2", hex_="20.10", crew={})
    game = _game(tmp_path, [man("a", "17.04")], [other])
    v, v2 = game.state.vehicles["pz"], game.state.vehicles["pz2"]
    v2.seats["commander"].marker = H("17.03")
    assert tm._other_marker_near(game, v, "gunner", H("17.04")) is not None
    v2.seats["commander"].marker = H("17.02")
    assert tm._other_marker_near(game, v, "gunner", H("17.04")) is None
    v2.seats["commander"].marker = H("17.04")
    v2.side = v.side.__class__.FRIENDLY
    assert tm._other_marker_near(game, v, "gunner", H("17.04")) is None
    v2.side = v.side
    v2.destroyed = True
    assert tm._other_marker_near(game, v, "gunner", H("17.04")) is None


def test_crewmates_marker_adjacent_negates_and_two_off_does_not(tmp_path):
    """31.7.3: another crewman's marker in or adjacent to the target negates the -2 (1 hex: yes;
    2 hexes: no; his own marker does not count)."""
    game = _game(tmp_path, [man("a", "17.04")])
    v = game.state.vehicles["pz"]
    v.seats["commander"].marker = H("17.05")
    assert tm._other_marker_near(game, v, "gunner", H("17.04")) is not None
    assert tm._other_marker_near(game, v, "commander", H("17.04")) is None
    v.seats["commander"].marker = H("17.06")
    assert tm._other_marker_near(game, v, "gunner", H("17.04")) is None


def test_marker_tqc_target_closed_hatch_and_spot(tmp_path):
    """31.7.3 TQC to move a marker: TQ, closed hatch -2 (the Gunner sits buttoned up), +1 with Spot;
    negated by a crewmate's marker adjacent to the target."""
    game = _game(tmp_path, [man("a", "17.04")])
    v = game.state.vehicles["pz"]
    g = game.char("pz_gunner")
    tq = g.effective_tq
    assert tm._marker_tqc_target(game, v, "gunner", g, H("17.04"))[0] == tq - 2
    order(game, "pz_gunner", "spot")
    assert tm._marker_tqc_target(game, v, "gunner", g, H("17.04"))[0] == tq - 1
    v.seats["commander"].marker = H("17.05")
    assert tm._marker_tqc_target(game, v, "gunner", g, H("17.04"))[0] == tq + 1
    c = game.char("pz_commander")
    order(game, "pz_commander", "spot")
    assert tm._marker_tqc_target(game, v, "commander", c, H("17.04"))[0] == c.effective_tq + 1


def test_priority_1_an_afv_before_a_half_track_then_the_nearest(tmp_path):
    """31.7.4 priority 1 "a Friendly vehicle": a crewman seeing two opposing vehicles takes an AFV
    before a Half-Track even when farther [house], and of two AFVs the nearer."""
    ht = {"id": "ht", "type": "m3a1_half_track", "side": "friendly", "hex": "17.06", "facing": 1}
    far = sherman("sh", hex_="17.02")
    game = _game(tmp_path, [man("a", "33.19")], [ht, far])
    v = game.state.vehicles["pz"]
    seen = tm._candidates(game, v, "commander", game.char("pz_commander"))
    assert [x.id for x in seen["p1"]] == ["sh", "ht"]
    assert [x.id for x in seen["afvs"]] == ["sh"]
    near = sherman("sh2", hex_="17.07", crew={})
    game2 = _game(tmp_path, [man("a", "33.19")], [far, near])
    v2 = game2.state.vehicles["pz"]
    seen2 = tm._candidates(game2, v2, "commander", game2.char("pz_commander"))
    assert [x.id for x in seen2["p1"]] == ["sh2", "sh"]
    assert [x.id for x in seen2["afvs"]] == ["sh2", "sh"]
    game2.state.vehicles["sh2"].on_fire = True  # a burning vehicle is no priority-1 target
    seen3 = tm._candidates(game2, v2, "commander", game2.char("pz_commander"))
    assert [x.id for x in seen3["p1"]] == ["sh"] and [x.id for x in seen3["afvs"]] == ["sh2", "sh"]


def test_gunner_with_a_fire_order_and_co_driver_ignore_priority_1(tmp_path):
    """31.7.4: "the Co-driver and a Gunner with an MG fire order ignore" priority 1."""
    game = _game(tmp_path, [man("a", "33.19")])
    v = game.state.vehicles["pz"]
    order(game, "pz_gunner", "spot")
    assert tm._candidates(game, v, "gunner", game.char("pz_gunner"))["ignore_p1"] is False
    assert tm._candidates(game, v, "co_driver", game.char("pz_co_driver"))["ignore_p1"] is True
    assert tm._candidates(game, v, "commander", game.char("pz_commander"))["ignore_p1"] is False
    order(game, "pz_gunner", "rapid_fire")
    assert tm._candidates(game, v, "gunner", game.char("pz_gunner"))["ignore_p1"] is True


def test_priority_1_a_truck_before_a_jeep(tmp_path):
    """31.7.4 priority 1 [house order]: AFV, Half-Track, Truck, then Jeep: a Truck farther off comes
    before a Jeep near by."""
    truck = {"id": "tr", "type": "opel_truck", "side": "friendly", "hex": "17.03", "facing": 1}
    jeep = {"id": "jp", "type": "jeep", "side": "friendly", "hex": "17.07", "facing": 1}
    game = _game(tmp_path, [man("a", "33.19")], [jeep, truck])
    v = game.state.vehicles["pz"]
    seen = tm._candidates(game, v, "commander", game.char("pz_commander"))
    assert [x.id for x in seen["p1"]] == ["tr", "jp"]


def test_co_driver_without_a_marker_takes_the_nearest_afv(tmp_path):
    """31.7.4: the Co-driver ignores priority 1, "but anyone without a marker and with an opposing AFV
    in LOS places it there without a roll": the nearer of two AFVs."""
    far, near = sherman("sh", hex_="17.02"), sherman("sh2", hex_="17.07", crew={})
    game = _game(tmp_path, [man("a", "33.19")], [far, near])
    v = game.state.vehicles["pz"]
    seen = tm._candidates(game, v, "co_driver", game.char("pz_co_driver"))
    cand = tm._best_candidate(game, v, "co_driver", seen, has_marker=False)
    assert (cand.priority, cand.on, cand.hex, cand.count) == (1, "afv", H("17.07"), 0)


def test_priority_3_label_names_the_men_in_or_adjacent(tmp_path):
    """31.7.4 priority 3: the placement names the men in or adjacent to the hex (1 hex away counts)."""
    game = _game(
        tmp_path,
        [man("a", "17.05", name="Pvt A"), man("b", "17.04", name="Pvt B"), man("c", "17.02", name="Pvt C")],
    )
    v = game.state.vehicles["pz"]
    seen = tm._candidates(game, v, "commander", game.char("pz_commander"))
    cand = tm._best_candidate(game, v, "commander", seen, has_marker=False)
    assert cand.hex == H("17.05") and "(2: Pvt A, Pvt B)" in cand.label  # Pvt C is 3 hexes off


def test_group_hex_only_in_the_seats_sight(tmp_path):
    """31.7.4 "the hex in LOS": a group behind a buttoned-up Co-driver (front arcs only) gives him no
    hex to mark."""
    game = _game(tmp_path, [man("a", "17.13"), man("b", "17.14")])
    v = game.state.vehicles["pz"]
    chars = [game.char("a"), game.char("b")]
    from solo.rules.vehicles.crew_sight import seat_sees

    assert not any(seat_sees(game, v, "co_driver", c.hex) for c in chars)
    assert tm._best_group_hex(game, v, "co_driver", chars) is None
    assert tm._best_group_hex(game, v, "commander", chars) is not None


def test_a_tie_does_not_move_the_marker_nor_roll(tmp_path):
    """31.7.4: a marker on two men stays put for another (nearer) hex with two men: no TQC is rolled."""
    from conftest import script as plain_script

    game = _game(tmp_path, [man("a", "17.05"), man("b", "17.04"), man("c", "20.05"), man("d", "20.04")])
    v = game.state.vehicles["pz"]
    cmd = game.char("pz_commander")
    v.seats["commander"].marker = H("20.05")
    v.seats["commander"].marker_priority = 3
    seen = tm._candidates(game, v, "commander", cmd)
    assert tm._best_candidate(game, v, "commander", seen, has_marker=True).hex == H("17.05")
    plain_script(game, [])
    tm.place_enemy_marker(game, cmd)
    assert v.seats["commander"].marker == H("20.05")


def test_priority_1_a_half_track_before_a_nearer_truck(tmp_path):
    """31.7.4 priority 1 [house order]: AFV, Half-Track, Truck, then Jeep: a Half-Track farther off
    comes before a Truck near by."""
    ht = {"id": "ht", "type": "m3a1_half_track", "side": "friendly", "hex": "17.03", "facing": 1}
    truck = {"id": "tr", "type": "opel_truck", "side": "friendly", "hex": "17.07", "facing": 1}
    game = _game(tmp_path, [man("a", "33.19")], [truck, ht])
    v = game.state.vehicles["pz"]
    seen = tm._candidates(game, v, "commander", game.char("pz_commander"))
    assert [x.id for x in seen["p1"]] == ["ht", "tr"]


def test_a_vehicle_out_of_the_seats_sight_is_no_candidate(tmp_path):
    """31.7.4 "a higher priority target is in view": an opposing AFV behind a buttoned-up Co-driver
    (front arcs only) is no candidate for him; the Commander (all round) has it."""
    behind = sherman("sh", hex_="17.14", crew={})
    game = _game(tmp_path, [man("a", "33.19")], [behind])
    v = game.state.vehicles["pz"]
    co = tm._candidates(game, v, "co_driver", game.char("pz_co_driver"))
    assert co["afvs"] == [] and co["p1"] == []
    cmd = tm._candidates(game, v, "commander", game.char("pz_commander"))
    assert [x.id for x in cmd["afvs"]] == ["sh"]


def test_group_hex_between_two_men_on_the_map_edge_is_on_the_map(tmp_path):
    """31.7.4 priority 3 "a hex that would place more Friendly Characters in or adjacent": two men on
    the map's edge two hexes apart share two neighbours, one off the map: the marker goes on the
    one on the map (the off-map hex is no candidate)."""
    game = _game(tmp_path, [man("a", "01.19"), man("b", "03.19")])
    v = game.state.vehicles["pz"]
    a, b = game.char("a"), game.char("b")
    assert not game.board.map.has_hex(H("02.19"))
    for chars in ([a, b], [b, a]):
        assert tm._best_group_hex(game, v, "commander", chars) == (H("02.18"), 2)


def test_priority_3_names_no_man_two_hexes_off(tmp_path):
    """31.7.4 priority 3 "in or adjacent": the label names the men on or 1 hex from the marked hex,
    not a man exactly 2 hexes from it."""
    game = _game(
        tmp_path,
        [man("a", "17.05", name="Pvt A"), man("b", "17.04", name="Pvt B"), man("c", "17.07", name="Pvt C")],
    )
    v = game.state.vehicles["pz"]
    assert game.distance(H("17.05"), H("17.07")) == 2
    seen = tm._candidates(game, v, "commander", game.char("pz_commander"))
    cand = tm._best_candidate(game, v, "commander", seen, has_marker=False)
    assert cand.hex == H("17.05")
    assert cand.label == "the hex with the most Spotted Friendly characters in or adjacent (2: Pvt A, Pvt B)"


def test_a_marker_on_a_vehicle_stays_for_another_vehicle(tmp_path):
    """31.7.4 "It will only move if a higher priority target is in view": a marker on a Friendly
    Truck (priority 1) stays when a Sherman (also priority 1, and an AFV) comes into view: no TQC."""
    truck = {"id": "tr", "type": "opel_truck", "side": "friendly", "hex": "17.04", "facing": 1}
    game = _game(tmp_path, [man("a", "33.19")], [truck, sherman("sh", hex_="17.07", crew={})])
    v = game.state.vehicles["pz"]
    cmd = game.char("pz_commander")
    v.seats["commander"].marker = H("17.04")
    v.seats["commander"].marker_priority = 1
    seen = tm._candidates(game, v, "commander", cmd)
    assert tm._effective(game, v, seen, H("17.04")) == (1, 0)
    assert tm._best_candidate(game, v, "commander", seen, has_marker=True).hex == H("17.07")
    script(game, [])
    tm.place_enemy_marker(game, cmd)
    assert v.seats["commander"].marker == H("17.04")
    assert not [e for e in game.events if e.kind == "target_marker"]


def test_a_half_tracks_co_driver_places_no_marker(tmp_path):
    """31.7.3 Target Markers are the AFV crew's ("Each ... Crew Member (not the Drivers or Loaders)"
    of an AFV): the Co-driver of an Enemy Half-Track with men in view places none."""
    eht = {"id": "eht", "type": "m3a1_half_track", "side": "enemy", "hex": "17.09", "facing": 1,
           "crew": {"driver": "hans", "co_driver": "kurt"}}  # fmt: skip
    enemy = [man("hans", "17.09"), man("kurt", "17.09")]
    game = new_game(tmp_path, vehicles=[eht], friendly=[man("a", "17.05"), man("b", "17.04")], enemy=enemy)
    for c in game.state.characters.values():
        c.revealed = True
    v = game.state.vehicles["eht"]
    co = game.char("kurt")
    assert co.seat == "co_driver" and tm._candidates(game, v, "co_driver", co)["chars"]
    script(game, [])
    tm.place_enemy_marker(game, co)
    assert v.seats["co_driver"].marker is None
    assert not [e for e in game.events if e.kind == "target_marker"]


@pytest.mark.parametrize(
    ("men", "marker", "words"),
    [
        ([], "20.05", "at the marker now: nothing, 0 Spotted characters in or adjacent"),
        ([man("c", "20.05")], "20.05", "at the marker now: priority 4, 1 Spotted character in or adjacent"),
    ],
)
def test_a_move_names_what_is_at_the_marker_now(tmp_path, men, marker, words):
    """31.7.4 priority 3 "more Friendly Characters in or adjacent to the Target Marker than its
    current position": the move (a passed TQC, d10 1) names what was at the marker: nothing, or
    priority 4 with its one man."""
    game = _game(tmp_path, [man("a", "17.05"), man("b", "17.04"), *men])
    v = game.state.vehicles["pz"]
    cmd = game.char("pz_commander")
    v.seats["commander"].marker = H(marker)
    script(game, [1])
    tm.place_enemy_marker(game, cmd)
    assert v.seats["commander"].marker == H("17.05")
    ev = [e for e in game.events if e.kind == "target_marker"][-1]
    assert words in ev.text and ev.data["tqc"]["passed"] is True and ev.data["previous"] == marker


def test_minus_1_option_names_the_closed_hatch_minus_2_or_the_crewmates_marker(tmp_path):
    """31.8 (option closed_hatch_marker=minus_1) "If another crew member (of the same vehicle) has a
    Target Marker on the target, the TQ penalty is reduced to -1": the marker TQC's words say
    "closed hatch -2" without one and name the crewmate's marker with one."""
    import attrs

    game = _game(tmp_path, [man("a", "17.04")])
    game.options = attrs.evolve(game.options, closed_hatch_marker="minus_1")
    v = game.state.vehicles["pz"]
    g = game.char("pz_gunner")
    tq = g.effective_tq
    assert tm._marker_tqc_target(game, v, "gunner", g, H("17.04")) == (
        tq - 2,
        [f"TQ {tq}", "closed hatch -2"],
    )
    v.seats["commander"].marker = H("17.04")
    target, parts = tm._marker_tqc_target(game, v, "gunner", g, H("17.04"))
    cmd = game.char("pz_commander").name
    assert (target, parts) == (
        tq - 1,
        [f"TQ {tq}", f"closed hatch -1 ({cmd}'s Target Marker on the target, 31.8)"],
    )


@pytest.mark.parametrize(
    ("vehicle", "on"),
    [
        (
            {
                "id": "tr",
                "type": "opel_truck",
                "side": "friendly",
                "hex": "17.05",
                "facing": 1,
                "name": "Opel",
            },
            "vehicle",
        ),
        (sherman("sh", hex_="17.05", crew={}, name="Opel"), "afv"),
    ],
)
def test_priority_1_placement_names_the_vehicle(tmp_path, vehicle, on):
    """31.7.4 priority 1 "Friendly Vehicle ... no roll to spot is made": without a marker it goes on
    the vehicle, no TQC; the placement says "a Friendly vehicle" and what it is on (an AFV or
    another vehicle, read by 31.2 (1)), and counts no characters."""
    game = _game(tmp_path, [man("a", "33.19")], [vehicle])
    v = game.state.vehicles["pz"]
    script(game, [])
    tm.place_enemy_marker(game, game.char("pz_commander"))
    assert v.seats["commander"].marker == H("17.05")
    assert v.acted[tm.PLACED_KEY]["commander"]["on"] == on
    ev = [e for e in game.events if e.kind == "target_marker"][-1]
    assert "priority 1, a Friendly vehicle: Opel (no roll" in ev.text
    assert (ev.data["on"], ev.data["count"], ev.data["priority"], ev.data["previous"]) == (on, 0, 1, None)
    assert ev.data["moved"] is True


@pytest.mark.parametrize(("roll", "verdict"), [(9, "natural 9: fails"), (8, "fails")])
def test_a_failed_marker_tqc_names_a_natural_9(tmp_path, roll, verdict):
    """31.7.4 "passes a TQC" (a natural 9 always fails, base-rules §7): a failed move TQC leaves the
    marker and says why: "natural 9: fails" for a 9, "fails" for any other miss."""
    game = _game(tmp_path, [man("a", "17.05"), man("b", "17.04")])
    v = game.state.vehicles["pz"]
    cmd = game.char("pz_commander")
    v.seats["commander"].marker = H("20.05")
    script(game, [roll])
    tm.place_enemy_marker(game, cmd)
    assert v.seats["commander"].marker == H("20.05")
    ev = [e for e in game.events if e.kind == "target_marker"][-1]
    assert f"TQC d10 {roll} vs TQ {cmd.effective_tq} = {cmd.effective_tq} → {verdict}; " in ev.text
    assert ev.data["tqc"]["passed"] is False and ev.data["moved"] is False


def test_priority_2_placement_names_the_light_at_man(tmp_path):
    """31.7.4 priority 2 "Light AT weapon (either the Operator or the Assistant count here)": without a
    marker it goes on the nearest Light AT man, before a group of two; the placement says "a Light
    AT weapon" and counts no characters."""
    game = _game(tmp_path, [man("a", "17.05"), man("b", "17.04"), man("bz", "17.02", name="Pvt Z")])
    v = game.state.vehicles["pz"]
    order(game, "bz", "load_light_at")
    script(game, [])
    tm.place_enemy_marker(game, game.char("pz_commander"))
    assert v.seats["commander"].marker == H("17.02")
    ev = [e for e in game.events if e.kind == "target_marker"][-1]
    assert "priority 2, a Light AT weapon: Pvt Z (no roll" in ev.text
    assert (ev.data["on"], ev.data["count"], ev.data["priority"]) == ("light_at", 0, 2)
