"""C2 31.10.4 and 31.10.8 vehicle hits at their calibre thresholds (mutation testing, tools/mutate):
each special location by weapon type and calibre on both sides of its line, the penetration that
must exceed the armor, the re-roll of a destroyed hatch, the wheel and the cupola.

Map: the combat test map. Helpers from tests/test_vehicle_combat.py."""

from __future__ import annotations

import pytest
from test_vehicle_combat import PANZER, _duel, build, man, script, stamps

from solo.core.hexes import Arc
from solo.data.friendly_deck import WoundStamp
from solo.data.vehicle_types import Location, Role
from solo.rules.state import Status
from solo.rules.vehicles import hits
from solo.rules.vehicles import targets as vehicle_targets
from solo.rules.vehicles.state import Hatch
from solo.rules.vehicles.targets import Ordnance, Strike


def _special(game, v, ordnance: Ordnance, cal: int | None, loc: Location, role: Role | None = None) -> dict:
    rep: dict = {}
    ctx = hits._Hit(game, v, Strike("x", "X", ordnance, cal, "1"), rep, None)
    hits._special(ctx, loc, role, ())
    return rep


def _pz(tmp_path):
    game, _sh, pz = _duel(tmp_path)
    return game, pz


@pytest.mark.parametrize(
    ("ordnance", "cal", "rolls"),
    [(Ordnance.HE, 37, []), (Ordnance.HE, 38, [9]), (Ordnance.AP, 20, [9]), (Ordnance.SMALL_ARMS, None, [])],
)
def test_turret_ring_he_37mm_or_less_no_effect(tmp_path, ordnance, cal, rolls):
    """31.10.8 Turret Ring: small arms and HE <= 37 mm no effect; a larger HE or any AP rolls the d10
    (9: bounces off)."""
    game, pz = _pz(tmp_path)
    src = script(game, list(rolls))
    rep = _special(game, pz, ordnance, cal, Location.TURRET_RING)
    assert src.remaining == () and rep.get("turret_ring") == (rolls[0] if rolls else None)
    assert "turret_jammed" not in pz.damage and not pz.destroyed


@pytest.mark.parametrize(
    ("d10", "blown", "jammed"), [(4, True, False), (5, False, True), (8, False, True), (9, False, False)]
)
def test_turret_ring_d10_bands(tmp_path, d10, blown, jammed):
    """31.10.8 Turret Ring d10: 0-4 turret blown off (crew killed), 5-8 jammed, 9 bounces off."""
    game, pz = _pz(tmp_path)
    cid = pz.seats["commander"].occupant
    script(game, [d10])
    _special(game, pz, Ordnance.AP, 75, Location.TURRET_RING)
    assert pz.destroyed is blown and ("turret_jammed" in pz.damage) is jammed
    assert (game.char(cid).status is Status.DEAD) is blown


@pytest.mark.parametrize(
    ("ordnance", "cal", "rolls", "immobilized"),
    [
        (Ordnance.AP, 50, [], True),
        (Ordnance.AP, 49, [5], False),
        (Ordnance.AP, 49, [4], True),
        (Ordnance.HE, 75, [], True),
        (Ordnance.HE, 74, [5], False),
        (Ordnance.HE, 74, [0], True),
        (Ordnance.SMALL_ARMS, None, [], False),
    ],
)
def test_suspension_ap_50_he_75_else_d10_0_to_4(tmp_path, ordnance, cal, rolls, immobilized):
    """31.10.8 Suspension "AP >=50mm or by HE>=75mm = Vehicle immobilized. Smaller caliber HE and AP
    will immobilize the Vehicle on a 0-4 on d10"; small arms no effect."""
    game, pz = _pz(tmp_path)
    src = script(game, list(rolls))
    _special(game, pz, ordnance, cal, Location.SUSPENSION)
    assert ("immobilized" in pz.damage) is immobilized and src.remaining == ()


@pytest.mark.parametrize(
    ("ordnance", "cal", "immobilized"),
    [
        (Ordnance.AP, 37, True),
        (Ordnance.AP, 36, False),
        (Ordnance.HE, 20, True),
        (Ordnance.SMALL_ARMS, None, False),
    ],
)
def test_track_ap_37mm_or_any_he(tmp_path, ordnance, cal, immobilized):
    """31.10.8 Track "Small arms or AP < 37mm = No effect. AP >=37mm, HEAT or by any HE round = Vehicle
    immobilized" (the AFV Commander's TQC follows: scripted 0, passed)."""
    game, pz = _pz(tmp_path)
    script(game, [0] if immobilized else [])
    _special(game, pz, ordnance, cal, Location.TRACK)
    assert ("immobilized" in pz.damage) is immobilized


def test_track_commander_tqc_at_tq(tmp_path):
    """31.10.8 Track, AFV: the Commander's TQC; pass: orders as normal; fail: all crew Bail Out next
    turn."""
    game, pz = _pz(tmp_path)
    cmd = game.char(pz.seats["commander"].occupant)
    script(game, [cmd.effective_tq])
    _special(game, pz, Ordnance.AP, 75, Location.TRACK)
    assert "force_bail_out:crew" not in pz.damage
    game2, pz2 = _pz(tmp_path)
    script(game2, [game2.char(pz2.seats["commander"].occupant).effective_tq + 1])
    _special(game2, pz2, Ordnance.AP, 75, Location.TRACK)
    assert "force_bail_out:crew" in pz2.damage


def _truck(tmp_path, side: str = "enemy"):
    truck = {"id": "tr", "type": "opel_truck", "side": side, "hex": "03.06", "facing": 2,
             "crew": {"driver": "d1"}}  # fmt: skip
    if side == "enemy":
        game = build(tmp_path, [man("f1", "01.10")], [man("d1", "03.06")], [truck])
    else:
        game = build(tmp_path, [man("f1", "01.10"), man("d1", "03.06")], [man("e9", "19.01")], [truck])
    return game, game.state.vehicles["tr"]


@pytest.mark.parametrize(
    ("ordnance", "cal", "wheel"),
    [
        (Ordnance.AP, 37, False),
        (Ordnance.AP, 38, True),
        (Ordnance.HEAT, None, True),
        (Ordnance.SMALL_ARMS, None, False),
    ],
)
def test_headlight_ap_over_37mm_destroys_the_wheel(tmp_path, ordnance, cal, wheel):
    """31.10.8 Headlight "Small arms and AP <=37mm = Headlight out ... AP >37m, HEAT and HE = Headlight
    out and wheel destroyed - vehicle immobilized ... Next turn Enemy Drivers and all Enemy Passengers
    will automatically receive Bail Out Orders"."""
    game, tr = _truck(tmp_path)
    script(game, [])
    _special(game, tr, ordnance, cal, Location.HEADLIGHT_LEFT)
    assert "headlight_left" in tr.damage
    assert ("immobilized" in tr.damage) is wheel
    assert ("force_bail_out:driver" in tr.damage) is wheel and (
        "force_bail_out:passengers" in tr.damage
    ) is wheel


@pytest.mark.parametrize(("side", "bail"), [("enemy", True), ("friendly", False)])
def test_wheel_immobilizes_and_only_the_enemy_bails_out(tmp_path, side, bail):
    """31.10.8 Wheel "All = Vehicle immobilized ... Next turn Enemy Drivers and all Enemy Passengers
    will automatically receive Bail out Orders": a Friendly truck is only immobilized."""
    game, tr = _truck(tmp_path, side)
    script(game, [])
    _special(game, tr, Ordnance.SMALL_ARMS, None, Location.WHEEL)
    assert "immobilized" in tr.damage and ("force_bail_out:driver" in tr.damage) is bail


def _half_track(tmp_path):
    ht = {"id": "ht", "type": "m3a1_half_track", "side": "friendly", "hex": "03.06", "facing": 2,
          "crew": {"driver": "d1"}, "passengers": {"cupola": "c1"}}  # fmt: skip
    game = build(tmp_path, [man("d1", "03.06"), man("c1", "03.06")], [man("jerry", "19.01")], [ht, PANZER])
    return game, game.state.vehicles["ht"]


@pytest.mark.parametrize(
    ("ordnance", "cal", "destroyed", "killed", "wounds"),
    [
        (Ordnance.HE, 75, True, True, 0),
        (Ordnance.HE, 74, False, False, 3),
        (Ordnance.AP, 37, False, False, 3),
        (Ordnance.AP, 38, False, True, 0),
        (Ordnance.SMALL_ARMS, None, False, False, 0),
    ],
)
def test_cupola_he_75_destroys_ap_37_wounds(tmp_path, ordnance, cal, destroyed, killed, wounds):
    """31.10.8 Cupola "Small arms = no effect ... AP <=37mm = Draw 3 wound cards for any Character in
    the cupola. HE>=75mm = Cupola destroyed. Any occupant is automatically killed"; AP over 37 mm
    kills (option cupola_heavy_hit, default)."""
    game, ht = _half_track(tmp_path)
    script(game, [], cards=stamps(game, WoundStamp.LIGHT, 3), fallback=5)
    rep: dict = {}
    ctx = hits._Hit(game, ht, Strike("x", "X", ordnance, cal, "1"), rep, None)
    hits._cupola_hit(ctx)
    assert ("cupola_destroyed" in ht.damage) is destroyed
    assert ("c1" in rep["kia"]) is killed
    assert len(rep["wounded"]) == wounds


def test_penetration_must_exceed_the_armor_exactly(tmp_path):
    """31.10.4: "the Penetration Number must exceed the armor": equal fails, one more penetrates."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m4_75mm", Ordnance.AP)
    script(game, [25, 1])  # front turret armor 6; 5+1 = 6
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["penetrated"] is False and rep["penetration"]["total"] == 6 and rep["armor"] == 6


def test_destroyed_hatch_is_rerolled_and_the_rerolls_are_capped(tmp_path):
    """31.10.8: a hit on a destroyed (jammed) hatch is re-rolled; after MAX_REROLLS rolls the last one
    stands [house cap]."""
    game, sh, pz = _duel(tmp_path)
    pz.seats["loader"].hatch = Hatch.JAMMED_CLOSED
    strike = vehicle_targets.strike_of(game, "m1_garand")
    rolls = [5] * hits.MAX_REROLLS
    src = script(game, rolls, fallback=9)
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["percent"] == 5 and len([n for n in rep["notes"] if "re-rolled" in n]) == hits.MAX_REROLLS
    assert src.remaining == ()
    game2, sh2, pz2 = _duel(tmp_path)
    pz2.seats["loader"].hatch = Hatch.JAMMED_CLOSED
    script(game2, [5, 42], fallback=9)
    rep2 = hits.hit_vehicle(game2, pz2, strike, from_hex=sh2.hex, aspect=Arc.FRONT)
    assert rep2["percent"] == 42 and len([n for n in rep2["notes"] if "re-rolled" in n]) == 1


def test_hatch_hit_small_arms_on_a_closed_hatch_no_effect_ap_jams(tmp_path):
    """31.10.8 Hatches: small arms on a closed hatch no effect; AP, HEAT or HE jam it closed."""
    game, pz = _pz(tmp_path)
    _special(game, pz, Ordnance.SMALL_ARMS, None, Location.HATCH, Role.LOADER)
    assert pz.seats["loader"].hatch is Hatch.CLOSED
    _special(game, pz, Ordnance.HE, 20, Location.HATCH, Role.LOADER)
    assert pz.seats["loader"].hatch is Hatch.JAMMED_CLOSED
