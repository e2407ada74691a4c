"""C2 31.10.3-31.10.9 vehicle hits at their lines (mutation testing, tools/mutate): an open hatch
hit with the man at it out or hidden, the hit between two passengers, the Driver and Co-driver
facing each other, the aspect of a shot from the vehicle's own hex, the "no effect" of a shot that
does not penetrate and a wounded man's Duck Back (31.10.9).

Map: the combat test map. Helpers from tests/test_vehicle_combat.py."""

from __future__ import annotations

import pytest
from test_hit_thresholds import _half_track, _pz, _special, _truck
from test_vehicle_combat import _duel, script, stamps, towards

from solo.core.hexes import Arc
from solo.data.friendly_deck import WoundStamp
from solo.data.vehicle_types import Location, Role
from solo.rules.state import GivenOrder, Status
from solo.rules.vehicles import hits
from solo.rules.vehicles import targets as vehicle_targets
from solo.rules.vehicles.state import Hatch
from solo.rules.vehicles.targets import Ordnance, Strike


@pytest.mark.parametrize(("order", "wounded"), [(None, 1), ("hide", 0), ("rally", 0)])
def test_open_hatch_small_arms_hits_the_man_out_of_it_unless_hidden(tmp_path, order, wounded):
    """31.10.8 Hatches "Open - Small arms: the Character in that position is hit"; 31.8: a crewman
    with an open hatch is out of it unless he has a Hide or Rally order."""
    game, pz = _pz(tmp_path)
    cmd = game.char(pz.seats["commander"].occupant)
    cmd.order = GivenOrder(order, None, None, "player") if order else None
    script(game, [], cards=stamps(game, WoundStamp.LIGHT, 3), fallback=5)
    rep = _special(game, pz, Ordnance.SMALL_ARMS, None, Location.HATCH, Role.COMMANDER)
    assert len(rep["wounded"]) == wounded
    assert any(("is hit" if wounded else "no one exposed") in n for n in rep["notes"])
    assert pz.seats["commander"].hatch is Hatch.OPEN


@pytest.mark.parametrize(
    ("ordnance", "order", "killed"),
    [
        (Ordnance.AP, None, True),
        (Ordnance.AP, "hide", False),
        (Ordnance.HE, "hide", True),
        (Ordnance.HE, None, True),
    ],
)
def test_open_hatch_ap_kills_the_man_out_of_it_he_kills_even_a_hidden_one(tmp_path, ordnance, order, killed):
    """31.10.8 Hatches, open: AP/HEAT kill the Character out of the hatch; HE kills him even with a
    Hide order [house reading of "in that position"]; with no one exposed the hatch is destroyed
    open ("it can never be closed")."""
    game, pz = _pz(tmp_path)
    cid = pz.seats["commander"].occupant
    cmd = game.char(cid)
    cmd.order = GivenOrder(order, None, None, "player") if order else None
    script(game, [], fallback=5)
    rep = _special(game, pz, ordnance, 75, Location.HATCH, Role.COMMANDER)
    assert (cid in rep["kia"]) is killed and (game.char(cid).status is Status.DEAD) is killed
    assert (pz.seats["commander"].hatch is Hatch.JAMMED_OPEN) is (not killed)


def test_open_hatch_with_no_one_in_the_seat_is_destroyed_open(tmp_path):
    """31.10.8 Hatches, open, AP and nobody at the hatch: the hatch is destroyed and stays open."""
    game, pz = _pz(tmp_path)
    pz.seats["commander"].occupant = None
    script(game, [], fallback=5)
    rep = _special(game, pz, Ordnance.AP, 75, Location.HATCH, Role.COMMANDER)
    assert rep["kia"] == [] and pz.seats["commander"].hatch is Hatch.JAMMED_OPEN
    game2, pz2 = _pz(tmp_path)
    pz2.seats["commander"].occupant = None
    script(game2, [], fallback=5)
    rep2 = _special(game2, pz2, Ordnance.SMALL_ARMS, None, Location.HATCH, Role.COMMANDER)
    assert rep2["wounded"] == [] and any("no one exposed" in n for n in rep2["notes"])


def _between(game, v, ordnance: Ordnance, passengers: tuple[int, ...]) -> hits._Hit:
    ctx = hits._Hit(game, v, Strike("x", "X", ordnance, None, "1"), {}, None)
    hits._special(ctx, Location.BETWEEN_PASSENGERS, None, passengers)
    return ctx


def test_between_passengers_small_arms_both_take_an_mc(tmp_path):
    """31.10.8 Between Passengers X and Y "Small arms: both Characters take an MC"; the row needs the
    two passenger numbers, with one the hit has no effect."""
    game, ht = _half_track(tmp_path)
    ht.seats["passenger_1"].occupant = "c1"
    ht.seats["cupola"].occupant = None
    game.char("c1").seat = "passenger_1"
    script(game, [], fallback=5)
    ctx = _between(game, ht, Ordnance.SMALL_ARMS, (1, 2))
    assert [c[0] for c in ctx.checks] == ["c1"] and ctx.checks[0][1] == "mc"
    ctx1 = _between(game, ht, Ordnance.SMALL_ARMS, (1,))
    assert ctx1.checks == [] and any("no effect" in n for n in ctx1.report["notes"])


def test_driver_and_co_driver_sit_opposite(tmp_path):
    """31.10.8 Passenger X and 31.10.11: the Driver and the Co-driver share the front row [house row
    0], each the other's "position opposite"."""
    _game, ht = _half_track(tmp_path)
    assert "co_driver" in ht.seats
    assert hits._grid("driver") == (0, 0) and hits._grid("co_driver") == (0, 1)
    assert hits._opposite(ht, "driver") == "co_driver" and hits._opposite(ht, "co_driver") == "driver"


@pytest.mark.parametrize("where", ["none", "own"])
def test_a_hit_from_no_hex_or_the_vehicles_own_hex_is_on_the_side(tmp_path, where):
    """31.10.3 aspect: from the vehicle's own hex (or no hex) the hit uses the Side column [house]."""
    game, _sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m1_garand")
    script(game, [], fallback=9)
    frm = None if where == "none" else pz.hex
    rep = hits.hit_vehicle(game, pz, strike, from_hex=frm)
    assert rep["aspect"] == Arc.SIDE.value


def test_a_hit_from_another_hex_uses_that_hexs_arc(tmp_path):
    """31.10.3: the aspect facing the firer: a rifle two hexes straight ahead of the Panzer hits
    its Front."""
    game, _sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m1_garand")
    script(game, [], fallback=9)
    rep = hits.hit_vehicle(game, pz, strike, from_hex=towards(game, pz.hex, pz.facing, 2))
    assert rep["aspect"] == Arc.FRONT.value


@pytest.mark.parametrize(("second", "penetrated"), [(1, False), (2, True)])
def test_no_penetration_is_noted_no_effect(tmp_path, second, penetrated):
    """31.10.4 "the Penetration Number must exceed the armor" else no effect (the note says so)."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m4_75mm", Ordnance.AP)
    script(game, [25, second], fallback=9)  # front turret armor 6; 5+1 = 6 fails, 5+2 = 7 penetrates
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["penetrated"] is penetrated
    assert ("no effect (31.10.4)" in rep["notes"]) is (not penetrated)


@pytest.mark.parametrize(
    ("who", "hatch", "reacts"),
    [("driver", None, True), ("commander", "open", False), ("loader", "closed", True)],
)
def test_wounded_afv_crewman_with_duck_back_reacts_unless_out_of_an_open_hatch(tmp_path, who, hatch, reacts):
    """31.10.9: a wounded crewman "Panics" inside the armor (closed hatch) and the Driver stops
    (31.2); one out of an open hatch keeps his Duck Back."""
    game, pz = _pz(tmp_path)
    ch = game.char(pz.seats[who].occupant)
    if hatch is not None:
        pz.seats[who].hatch = Hatch.OPEN if hatch == "open" else Hatch.CLOSED
    ch.order = GivenOrder("duck_back", None, None, "player")
    script(game, [], fallback=5)
    hits._after_wound(game, pz, ch, "test")
    assert (ch.order is None or ch.order.order != "duck_back") is reacts


@pytest.mark.parametrize("who", ["d1"])
def test_wounded_truck_driver_with_duck_back_stops_the_truck(tmp_path, who):
    """31.2 and 31.10.9: a wounded Driver makes an Emergency Stop, hatch or not (a truck)."""
    game, tr = _truck(tmp_path)
    ch = game.char(who)
    ch.order = GivenOrder("duck_back", None, None, "player")
    script(game, [], fallback=5)
    hits._after_wound(game, tr, ch, "test")
    assert tr.acted.get("speed") == "emergency_stop"


def test_wounded_passenger_with_duck_back_panics(tmp_path):
    """31.10.9 and 31.10.11: a wounded passenger (here the Half-Track's cupola) Panics, even with a
    Duck Back order."""
    game, ht = _half_track(tmp_path)
    ch = game.char("c1")
    ch.order = GivenOrder("duck_back", None, None, "player")
    script(game, [], fallback=5)
    hits._after_wound(game, ht, ch, "test")
    assert ch.order is not None and ch.order.order == "panic"


@pytest.mark.parametrize(("ordnance", "both"), [(Ordnance.HE, True), (Ordnance.AP, False)])
def test_vision_slot_he_kills_driver_and_co_driver_ap_only_the_man_behind_it(tmp_path, ordnance, both):
    """31.10.8 Vision slot: HE kills the Driver and the Co-driver; AP the man behind that slot."""
    game, pz = _pz(tmp_path)
    drv, cod = pz.seats["driver"].occupant, pz.seats["co_driver"].occupant
    script(game, [], fallback=9)
    rep = _special(game, pz, ordnance, 75, Location.VISION_SLOT, Role.DRIVER)
    assert drv in rep["kia"] and (cod in rep["kia"]) is both


def test_a_killed_passenger_makes_his_neighbours_check(tmp_path):
    """31.10.11: "all Characters adjacent to a killed Passenger must take an MC" (passenger 1 killed:
    passenger 2 beside him checks)."""
    game, ht = _half_track(tmp_path)
    ht.seats["cupola"].occupant = None
    for cid, seat in (("c1", "passenger_1"), ("d1", "passenger_2")):
        for s in ht.seats.values():
            if s.occupant == cid:
                s.occupant = None
        ht.seats[seat].occupant = cid
        game.char(cid).seat = seat
    script(game, [], fallback=0)
    ctx = hits._Hit(game, ht, Strike("x", "X", Ordnance.SMALL_ARMS, None, "1"), {}, None)
    ctx.killed.append("c1")
    game.char("c1").status = Status.DEAD
    hits._run_checks(ctx)
    assert [m["character"] for m in ctx.report["mcs"]] == ["d1"]
