"""C2 31.10.4-31.10.11 vehicle hits on the lines the full mutation run found no rule test for
(tools/mutate): AP in a passenger position and between two passengers, a round that cannot
penetrate armor, a fire started by a damage roll, the damage column's re-roll chain, a hit on a
crewman with no passenger row, and a hit on an exposed occupant by a man with no known weapon.

Map: the combat test map. Helpers from tests/test_vehicle_combat.py."""

from __future__ import annotations

import attrs
import pytest
from test_hit_thresholds import _pz, _special
from test_vehicle_combat import PANZER, _duel, build, man, script, stamps

from solo.core.hexes import Arc
from solo.data.friendly_deck import WoundStamp
from solo.data.roll_ranges import Rolls
from solo.data.vehicle_types import CrewCheck, DamageColumn, DamageRow, Location, Role
from solo.rules.state import CarriedWeapon, Status
from solo.rules.vehicles import hits
from solo.rules.vehicles import targets as vehicle_targets
from solo.rules.vehicles.targets import Ordnance, Strike


def _carrier(tmp_path, seats: dict[str, str]):
    """A Friendly Half-Track with a Driver and ``seats`` ({position: character id}) taken."""
    ht = {"id": "ht", "type": "m3a1_half_track", "side": "friendly", "hex": "03.06", "facing": 2,
          "crew": {"driver": "d1"}, "passengers": dict(seats)}  # fmt: skip
    men = [man("d1", "03.06"), *(man(cid, "03.06") for cid in seats.values())]
    game = build(tmp_path, men, [man("jerry", "19.01")], [ht, PANZER])
    return game, game.state.vehicles["ht"]


def _hit(game, v, ordnance: Ordnance, loc: Location, passengers: tuple[int, ...]) -> hits._Hit:
    ctx = hits._Hit(game, v, Strike("x", "X", ordnance, 75, "1"), {}, None)
    hits._special(ctx, loc, None, passengers)
    return ctx


def test_ap_in_a_passenger_position_kills_him_wounds_the_man_opposite_and_checks_the_rest(tmp_path):
    """31.10.8 Passenger X "AP: The Character at that position is killed. Draw a wound card for the
    Character opposite. Make a MC for every other adjacent Character (see Rule 31.10.11)": AP in
    position 3 kills 3, one wound card for 4 (opposite), an MC for 5 (adjacent) and none for 4."""
    game, ht = _carrier(tmp_path, {"passenger_3": "p3", "passenger_4": "p4", "passenger_5": "p5"})
    script(game, [], cards=stamps(game, WoundStamp.LIGHT, 3), fallback=9)
    ctx = _hit(game, ht, Ordnance.AP, Location.PASSENGER, (3,))
    assert "p3" in ctx.report["kia"] and game.char("p3").status is Status.DEAD
    assert [w["character"] for w in ctx.report["wounded"]] == ["p4"]
    assert [(c[0], c[1]) for c in ctx.checks] == [("p5", "mc")]


def test_ap_between_passengers_wounds_both_and_the_men_opposite(tmp_path):
    """31.10.8 Between Passengers X and Y "AP: Draw a Wound card for both Characters at Positions X
    and Y. Draw a Wound card for Characters occupying the positions directly opposite": between 3
    and 5 with 3, 4 and 5 taken (6 empty), one wound card each for 3, 4 and 5."""
    game, ht = _carrier(tmp_path, {"passenger_3": "p3", "passenger_4": "p4", "passenger_5": "p5"})
    script(game, [], cards=stamps(game, WoundStamp.LIGHT, 4), fallback=9)
    ctx = _hit(game, ht, Ordnance.AP, Location.BETWEEN_PASSENGERS, (3, 5))
    assert sorted(w["character"] for w in ctx.report["wounded"]) == ["p3", "p4", "p5"]
    assert ctx.report["kia"] == []


def test_ap_on_a_crewman_with_no_passenger_row_kills_only_him(tmp_path):
    """31.10.8 Passenger X "AP: The Character at that position is killed" read for a crew hit on a
    man with no place in the passenger rows [house] (a Panzer's Commander): he is killed, there is
    no one opposite or beside him to wound or check."""
    game, pz = _pz(tmp_path)
    cid = pz.seats["commander"].occupant
    script(game, [], fallback=9)
    ctx = hits._Hit(game, pz, Strike("x", "X", Ordnance.AP, 75, "1"), {}, None)
    hits._special(ctx, Location.CREW, Role.COMMANDER, ())
    assert ctx.report["kia"] == [cid] and ctx.report["wounded"] == [] and ctx.checks == []


def test_a_round_without_penetration_cannot_penetrate_armor(tmp_path):
    """31.10.4 "the Penetration Number must exceed the armor": a round with no penetration value
    (small arms at an AFV) hitting armor (front %D 53: upper hull) has no effect: not penetrated, no
    damage roll."""
    game, sh, pz = _duel(tmp_path)
    src = script(game, [53])
    strike = Strike("m1_garand", "M1 Garand", Ordnance.SMALL_ARMS, None, None)
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["penetrated"] is False and rep["damage"] == [] and src.remaining == ()
    assert rep["row"]["rolls"] == "53-64" and rep["row"]["armor"] == "upper_hull_front"
    assert any("cannot penetrate armor: no effect (31.10.4)" in n for n in rep["notes"])


def test_an_engine_fire_sets_the_vehicle_burning_and_everyone_checks(tmp_path):
    """31.10.8 damage "Engine fire" (Upper Hull d10 2-3): the vehicle burns (a Fire marker) and every
    occupant makes a Fire Morale Check [house]."""
    game, pz = _pz(tmp_path)
    assert not pz.on_fire
    script(game, [2], fallback=9)
    ctx = hits._Hit(game, pz, Strike("x", "X", Ordnance.AP, 75, "1"), {"damage": [], "effects": []}, None)
    hits._damage(ctx, "upper_hull", 0)
    assert pz.on_fire is True
    crew = sorted(s.occupant for s in pz.seats.values() if s.occupant)
    assert sorted(c[0] for c in ctx.checks if c[1] == "fmc") == crew


def test_the_damage_re_roll_chain_stops_after_three_re_rolls(tmp_path, monkeypatch):
    """31.10.8 damage "Re-roll on the Turret column" (Upper Hull d10 8): with a made-up Turret column
    that re-rolls on the Upper Hull (a loop), the chain stops after three re-rolls [house]: the hit
    (front %D 53, penetration 19+1d6 through any armor) rolls four damage d10s in all."""
    game, sh, pz = _duel(tmp_path)
    vt = hits._vtype(game, pz)
    loop = DamageColumn("turret", (DamageRow(Rolls(0, 9), (), (), (), (), None, "upper_hull", "loop"),))
    looped = attrs.evolve(
        vt, damage_columns=tuple(loop if c.id == "turret" else c for c in vt.damage_columns)
    )
    monkeypatch.setattr(hits, "_vtype", lambda _game, _v: looped)
    src = script(game, [53, 1, 8, 0, 8, 0])
    rep = hits.hit_vehicle(
        game, pz, Strike("x", "X", Ordnance.AP, 75, "19+1d6"), from_hex=sh.hex, aspect=Arc.FRONT
    )
    assert rep["penetrated"] is True and src.remaining == ()
    assert [(d["column"], d["d10"]) for d in rep["damage"]] == [
        ("upper_hull", 8),
        ("turret", 0),
        ("upper_hull", 8),
        ("turret", 0),
    ]
    assert len([n for n in rep["notes"] if n.startswith("re-roll on the")]) == 3


def test_an_exposed_man_hit_by_a_man_with_no_known_weapon_draws_a_wound(tmp_path):
    """31.8 "They may be fired at by small arms ... as individual targets": a hit on a Commander out
    of his open hatch draws one wound card for him, even when the firer carries no weapon the tables
    know (read as a rifle, [house])."""
    game, _sh, pz = _duel(tmp_path)
    cmd = game.char(pz.seats["commander"].occupant)
    firer = game.char("rifle")
    firer.weapons = (CarriedWeapon("a_captured_sling", 5),)
    script(game, [], cards=stamps(game, WoundStamp.LIGHT, 2), fallback=9)
    hits.occupant_hit(game, firer, cmd, morale_only=False, why="test")
    assert [w.name for w in cmd.wounds] == ["LIGHT"]


def test_a_small_arms_hit_on_the_track_checks_only_the_man_out_of_his_hatch(tmp_path):
    """31.10.6 "closed hatches ignore MCs from non-penetrating fire": an M1 Garand hit on a Panzer's
    track (front %D 86, "MC all") gives the Commander at his open hatch an MC; each crewman behind a
    closed hatch ignores it, and the words name the hit: "M1 Garand (small_arms) hit ..."."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m1_garand")
    script(game, [86], fallback=0)
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    cmd = pz.seats["commander"].occupant
    assert [(m["character"], m["ldr"]) for m in rep["mcs"] if "ignored" not in m] == [(cmd, 0)]
    ignored = [e for e in game.events if e.kind == "check_ignored"]
    assert len(ignored) == 4
    assert all("(M1 Garand (small_arms) hit PzKpfw IV Ausf. H: track MC all)" in e.text for e in ignored)


def test_passenger_rows_start_behind_the_driver(tmp_path):
    """31.10.8 Passenger X "the Passenger directly opposite" and 31.10.11 "adjacent" [house row 0 for
    the Driver and Co-driver]: passengers 1 and 2 share the row behind them, 3 and 4 the next; 1 is
    opposite 2 (not the Co-driver), the Driver sits beside 1 but not 3."""
    _game, ht = _carrier(tmp_path, {"passenger_1": "p1", "passenger_2": "p2", "passenger_3": "p3"})
    assert hits._grid("passenger_1") == (1, 0) and hits._grid("passenger_4") == (2, 1)
    assert hits._opposite(ht, "passenger_1") == "passenger_2"
    assert hits._opposite(ht, "driver") == "co_driver"
    assert "driver" in hits._adjacent(ht, "passenger_1")
    assert "driver" not in hits._adjacent(ht, "passenger_3")


def test_passenger_6_has_both_sides_of_two_rows_beside_him(tmp_path):
    """31.10.11 "all Characters adjacent to a killed Passenger must take an MC" (the rule's example,
    5 -> 3, 4, 6, 7, 8): on the right side, 6 has 3, 4, 5, 7 and 8 beside him, his own side too."""
    _game, ht = _carrier(tmp_path, {"passenger_6": "p6"})
    assert sorted(hits._adjacent(ht, "passenger_6")) == [f"passenger_{n}" for n in (3, 4, 5, 7, 8)]


@pytest.mark.parametrize(("role", "stops"), [("driver", True), ("commander", False)])
def test_a_killed_driver_stops_the_vehicle(tmp_path, role, stops):
    """C2 31.11.2 Emergency Stop: the Driver killed (AP through his vision slot, 31.10.8) stops the
    vehicle; the Commander killed at his open hatch does not."""
    game, pz = _pz(tmp_path)
    cid = pz.seats[role].occupant
    script(game, [], fallback=9)
    loc, r = (Location.VISION_SLOT, Role.DRIVER) if role == "driver" else (Location.HATCH, Role.COMMANDER)
    rep = _special(game, pz, Ordnance.AP, 75, loc, r)
    assert cid in rep["kia"] and pz.seats[role].occupant is None and pz.seats[role].kia
    assert (pz.acted.get("speed") == "emergency_stop") is stops
    assert bool([e for e in game.events if e.kind == "emergency_stop"]) is stops


def test_a_man_killed_twice_in_one_hit_dies_once(tmp_path):
    """31.10.8 "killed": a man already killed in this hit is not killed again (one KIA, one death)."""
    game, pz = _pz(tmp_path)
    cmd = game.char(pz.seats["commander"].occupant)
    script(game, [], fallback=9)
    ctx = hits._Hit(game, pz, Strike("x", "X", Ordnance.AP, 75, "1"), {}, None)
    hits._kill(ctx, cmd, "first")
    hits._kill(ctx, cmd, "again")
    assert ctx.report["kia"] == [cmd.id] and ctx.killed == [cmd.id]


@pytest.mark.parametrize(("stamp", "ignored"), [(WoundStamp.LIGHT, True), (WoundStamp.CLOSE_CALL, False)])
def test_a_man_wounded_by_the_hit_takes_no_second_mc(tmp_path, stamp, ignored):
    """31.10.9 a wounded crewman's check is the WMC of his wound: a man with a Light Wound from this
    hit ignores the row's MC ("took a WMC in this attack"); a Close Call ("MC") is no wound, and
    he takes the MC."""
    game, pz = _pz(tmp_path)
    cmd = game.char(pz.seats["commander"].occupant)
    script(game, [], cards=stamps(game, stamp, 1), fallback=0)
    ctx = hits._Hit(game, pz, Strike("x", "X", Ordnance.SMALL_ARMS, None, None), {}, None)
    hits._wound_occupant(ctx, cmd, 1, "hit")
    ctx.checks.append((cmd.id, "mc", "MC all"))
    hits._run_checks(ctx)
    mine = [m for m in ctx.report["mcs"] if m["character"] == cmd.id]
    assert [m.get("ignored") == "took a WMC in this attack" for m in mine] == [ignored]


def test_an_mc_for_passengers_goes_to_every_passenger(tmp_path):
    """31.10.8 damage rows "MC: all, passengers" (Half-Track Engine fire): the passengers' MC goes
    to each passenger aboard, not to a crew seat."""
    game, ht = _carrier(tmp_path, {"passenger_1": "p1", "passenger_4": "p4"})
    ctx = hits._Hit(game, ht, Strike("x", "X", Ordnance.HE, 75, "1"), {}, None)
    hits._queue(ctx, [CrewCheck.PASSENGERS], "mc", "engine fire")
    assert sorted(c[0] for c in ctx.checks) == ["p1", "p4"]


def test_a_crewman_killed_after_his_mc_was_queued_takes_none(tmp_path):
    """31.10.6 the hit's MCs are for the living crew: the Co-driver, queued for the row's MC and then
    killed in the same hit, takes no MC (the others' crewman-killed MCs, 31.10.9, still come)."""
    game, pz = _pz(tmp_path)
    cod = game.char(pz.seats["co_driver"].occupant)
    script(game, [], fallback=0)
    ctx = hits._Hit(game, pz, Strike("x", "X", Ordnance.AP, 75, "1"), {}, None)
    ctx.checks.append((cod.id, "mc", "bow MG hit"))
    hits._kill(ctx, cod, "bow MG hit")
    hits._run_checks(ctx)
    assert cod.id not in [m["character"] for m in ctx.report["mcs"]]
    assert len(ctx.report["mcs"]) == 4


def test_a_destroyed_periscope_is_re_rolled(tmp_path):
    """31.10.8 "a hit on a destroyed hatch or periscope is re-rolled": with the Driver's periscope
    gone, front %D 42 (his periscope) is rolled again (60, the upper hull); a whole one stands, and
    so does a vision slot (51)."""
    game, sh, pz = _duel(tmp_path)
    pz.damage.append("periscope:driver")
    strike = vehicle_targets.strike_of(game, "m1_garand")
    script(game, [42, 60], fallback=0)
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["percent"] == 60 and any("already destroyed, re-rolled" in n for n in rep["notes"])
    game2, sh2, pz2 = _duel(tmp_path)
    script(game2, [42], fallback=0)
    rep2 = hits.hit_vehicle(game2, pz2, strike, from_hex=sh2.hex, aspect=Arc.FRONT)
    assert rep2["percent"] == 42 and not any("re-rolled" in n for n in rep2["notes"])
    game3, sh3, pz3 = _duel(tmp_path)
    script(game3, [51], fallback=0)  # the Co-driver's vision slot: no hatch or periscope to be gone
    rep3 = hits.hit_vehicle(game3, pz3, strike, from_hex=sh3.hex, aspect=Arc.FRONT)
    assert rep3["percent"] == 51 and not any("re-rolled" in n for n in rep3["notes"])


@pytest.mark.parametrize(
    ("column", "d10", "effect"),
    [
        ("upper_hull", 0, "destroyed"),
        ("turret", 2, "turret_fire"),
        ("upper_hull", 9, "immobilized"),
        ("turret", 6, "turret_jammed"),
        ("turret", 7, "main_gun_destroyed"),
    ],
)
def test_each_damage_effect_does_its_own_thing(tmp_path, column, d10, effect):
    """31.10.8 damage columns (Panzer IV): "Catastrophic hit" destroys the vehicle (not burning, the
    crew killed); a Turret fire sets it burning; a Transmission hit immobilizes it; a turret jammed
    or main gun destroyed marks that damage (the gun unloaded) -- each effect only its own."""
    game, pz = _pz(tmp_path)
    crew = [s.occupant for s in pz.seats.values() if s.occupant]
    script(game, [d10], fallback=9)
    ctx = hits._Hit(game, pz, Strike("x", "X", Ordnance.AP, 75, "1"), {"damage": [], "effects": []}, None)
    hits._damage(ctx, column, 0)
    assert ctx.report["effects"] == [effect]
    assert pz.destroyed is (effect == "destroyed") and pz.on_fire is (effect == "turret_fire")
    assert (sorted(ctx.report["kia"]) == sorted(crew)) is (effect == "destroyed")
    marks = {"immobilized", "turret_jammed", "main_gun_destroyed"}
    assert [m for m in pz.damage if m in marks] == ([effect] if effect in marks else [])
    assert (pz.loaded is None) is (effect == "main_gun_destroyed")


@pytest.mark.parametrize(("role", "cleared"), [(Role.CO_DRIVER, True), (Role.COMMANDER, False)])
def test_the_co_drivers_periscope_hit_takes_his_target_marker(tmp_path, role, cleared):
    """31.10.8 Co-Driver's Periscope "Remove their Target Marker if currently on the board"; the
    Commander's Periscope says no such thing: his marker stays."""
    game, pz = _pz(tmp_path)
    seat = pz.seats[role.value]
    seat.marker = pz.hex
    script(game, [], fallback=9)
    _special(game, pz, Ordnance.SMALL_ARMS, None, Location.PERISCOPE, role)
    assert f"periscope:{role.value}" in pz.damage
    assert (seat.marker is None) is cleared


def test_small_arms_on_a_half_tracks_co_driver_draw_him_a_wound_card(tmp_path):
    """31.10.8 Passenger X read for a Half-Track crew hit (side %D 06-11 "crew: co_driver") "Small
    Arms: Draw a wound card for the Character at that location": one card, not the vision slot's
    kill."""
    ht = {"id": "ht", "type": "m3a1_half_track", "side": "friendly", "hex": "03.06", "facing": 2,
          "crew": {"driver": "d1", "co_driver": "c2"}}  # fmt: skip
    game = build(tmp_path, [man("d1", "03.06"), man("c2", "03.06")], [man("jerry", "19.01")], [ht, PANZER])
    v = game.state.vehicles["ht"]
    script(game, [], cards=stamps(game, WoundStamp.LIGHT, 1), fallback=9)
    ctx = hits._Hit(game, v, Strike("x", "X", Ordnance.SMALL_ARMS, None, None), {}, None)
    hits._special(ctx, Location.CREW, Role.CO_DRIVER, ())
    assert [w["character"] for w in ctx.report["wounded"]] == ["c2"] and ctx.report["kia"] == []


def test_he_between_passengers_kills_both_and_wounds_each_adjacent_man_once(tmp_path):
    """31.10.8 Between Passengers X and Y "HE: The Characters in the 2 positions are killed. Draw a
    wound card for each adjacent Character": HE between 3 and 5 kills 3 and 5; 4 (beside both)
    and 1 (beside 3) draw one card each."""
    game, ht = _carrier(
        tmp_path, {"passenger_1": "p1", "passenger_3": "p3", "passenger_4": "p4", "passenger_5": "p5"}
    )
    script(game, [], cards=stamps(game, WoundStamp.LIGHT, 4), fallback=9)
    ctx = _hit(game, ht, Ordnance.HE, Location.BETWEEN_PASSENGERS, (3, 5))
    assert sorted(ctx.report["kia"]) == ["p3", "p5"]
    assert sorted(w["character"] for w in ctx.report["wounded"]) == ["p1", "p4"]


def test_the_hit_summary_gives_the_penetration_roll_against_the_armor(tmp_path):
    """31.10.4 "the Penetration Number must exceed the armor": the hit's words give the %D and
    location, then the penetration dice and total against the armor zone and value, and the
    verdict (front %D 53: upper hull, armor 8; 5+1d6 with a 1 = 6, does not penetrate)."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m4_75mm", Ordnance.AP)
    script(game, [53, 1], fallback=9)
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    text = hits.report_text(rep)
    assert text.startswith("%D 53 (front): ")
    armor = rep["armor"]
    assert f"Penetration 5+1d6 = 6 vs upper hull front armor {armor}: does not penetrate." in text


@pytest.mark.parametrize(("roll", "words"), [(0, "MC 0 vs 5 passes"), (9, "MC 9 vs 5 fails, duck back")])
def test_the_hit_summary_gives_each_check_and_its_verdict(tmp_path, roll, words):
    """31.10.6 and 31.10.9 in the hit's words: a small-arms hit on the track ("no effect", "MC all")
    gives the Commander at his open hatch an MC (d10 0 passes, 9 fails and he ducks back) and each
    crewman behind a closed hatch ignores it."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m1_garand")
    script(game, [86, roll], fallback=0)
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    text = hits.report_text(rep)
    cmd = game.char(pz.seats["commander"].occupant)
    assert " Track: no effect. " in text
    assert f"Checks: {cmd.name} {words}; " in text
    assert text.count("ignores it (closed hatch, non-penetrating fire (31.10.6))") == 4


def test_the_hit_summary_reads_a_fire_morale_check_by_its_reaction(tmp_path):
    """31.10.10 Fire Morale Check "read like a WMC": its record has no pass flag, so the words read
    it by the reaction: none passes; a reaction (a loss) fails, with the reaction named."""
    rep = {
        "percent": 2,
        "aspect": "rear",
        "location": "hull rear",
        "mcs": [
            {"character": "a", "name": "Hans", "check": "fmc", "roll": 3, "target": 5},
            {"character": "b", "name": "Kurt", "check": "fmc", "roll": 8, "target": 5, "reaction": "panic"},
        ],
    }
    assert hits.report_text(rep).endswith("Checks: Hans FMC 3 vs 5 passes; Kurt FMC 8 vs 5 fails, panic.")


def test_he_in_a_passenger_position_kills_him_and_wounds_each_adjacent_man_once(tmp_path):
    """31.10.8 Passenger X "HE or HEAT: The Character at that position is killed. Draw a wound card
    for each adjacent Character": HE in position 3 kills 3; 4 and 5 beside him draw one card each."""
    game, ht = _carrier(tmp_path, {"passenger_3": "p3", "passenger_4": "p4", "passenger_5": "p5"})
    script(game, [], cards=stamps(game, WoundStamp.LIGHT, 4), fallback=9)
    ctx = _hit(game, ht, Ordnance.HE, Location.PASSENGER, (3,))
    assert ctx.report["kia"] == ["p3"]
    assert sorted(w["character"] for w in ctx.report["wounded"]) == ["p4", "p5"]
