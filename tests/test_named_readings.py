"""The named readings of the Combat!2 text (house options, each at both settings): where the text is
clear the default follows it; where the text and the printed example disagree the default follows
the example; where the text is silent the default is the project's reading.

* 31.11.2 ``mount_up_hatch``: "the hatch is considered to be open on Impulse 4" (Mount Up);
* 31.5 ``mine_wheel_effect``: a mine's Wheel result with the 31.10.8 Wheel effect;
* 30.1 ``medic_morale_on``: "killed or receives a Bad Wound";
* 31.9.4 d ii ``he_blast_dice``: the example's Frag dice hitting on <= Blast, or the text's reverse;
* 31.10.6 ``closed_hatch_nonpen_mc``: "Crew members with Closed hatches will ignore Morale Checks
  from non-penetrating fire";
* 31.10.7 ``hatch_grenade_wounds``: "each crew member will draw 3 wound cards";
* 31.10.8 ``cupola_heavy_hit`` (AP over 37 mm, HEAT) and ``suspension_heat`` (the text is silent).
"""

from __future__ import annotations

import attrs
import pytest
from test_crew import man as crew_man
from test_crew import new_game, order, run, sherman
from test_mount_up import adjacent
from test_vehicle_combat import PANZER, _duel, build, drive, events, man, script, stamps

from solo.core.hexes import Arc
from solo.core.options import OPTION_CHOICES, Options
from solo.data.friendly_deck import WoundStamp
from solo.data.tables import MoraleState
from solo.data.vehicle_types import Location
from solo.rules import wounds
from solo.rules.state import Status
from solo.rules.vehicles import crew, hazards, hits, main_gun, mount_up, seats
from solo.rules.vehicles import targets as vehicle_targets
from solo.rules.vehicles.state import Hatch
from solo.rules.vehicles.targets import HATCH_GRENADES, Ordnance, Strike


def _opt(game, **kw) -> None:
    game.options = attrs.evolve(game.options, **kw)


def test_every_named_reading_is_an_option_with_the_rule_default():
    """Each reading is a named option; the defaults follow the text where it is clear, the printed
    example where they disagree (31.9.4 d ii), the project's reading where the text is silent."""
    o = Options()
    assert (o.mount_up_hatch, o.mine_wheel_effect, o.medic_morale_on) == ("open_on_4", True, "killed_or_bad")
    assert (o.he_blast_dice, o.closed_hatch_nonpen_mc, o.hatch_grenade_wounds) == (
        "frag_dice",
        "ignored",
        "every_crewman",
    )
    assert (o.cupola_heavy_hit, o.suspension_heat) == ("killed", "immobilized")
    for name in ("mount_up_hatch", "medic_morale_on", "he_blast_dice", "closed_hatch_nonpen_mc"):
        assert getattr(o, name) == OPTION_CHOICES[name][0]
        with pytest.raises(ValueError, match=name):
            Options.from_dict({name: "sometimes"})


# ---------------------------------------------------------------------------
# 31.11.2 Mount Up through a closed hatch


def _mount_commander(tmp_path, value: str):
    tank = sherman(hatches={"commander": "closed"})
    game = new_game(tmp_path, vehicles=[tank], friendly=[crew_man("f0", "33.19")])
    _opt(game, mount_up_hatch=value)
    seats._homes(game)
    v = game.state.vehicles["tank"]
    cmd = game.char("tank_commander")
    v.seats["commander"].occupant = None
    cmd.vehicle, cmd.seat, cmd.hex = None, None, adjacent(game)
    for pos in ("driver", "gunner", "loader", "co_driver"):
        order(game, f"tank_{pos}", "spot")
    order(game, "tank_commander", "mount_up", target="vehicle:tank|commander")
    game.state.flow.impulse = 2
    mount_up.mount_up_step(game, cmd)
    game.state.flow.impulse = 4
    mount_up.mount_up_step(game, cmd)
    return game, v, cmd


@pytest.mark.parametrize(("value", "hatch"), [("open_on_4", Hatch.OPEN), ("stays_closed", Hatch.CLOSED)])
def test_mount_up_closed_hatch_open_on_impulse_4(tmp_path, value, hatch):
    """31.11.2 "If the crew position has a closed hatch, the hatch is considered to be open on Impulse
    4 and the crew member will enter the vehicle at the end of the turn": the hatch is open from
    Impulse 4 (``open_on_4``) or stays closed (``stays_closed``); he gets in at the end either way."""
    game, v, cmd = _mount_commander(tmp_path, value)
    assert cmd.vehicle is None and v.seats["commander"].hatch is hatch
    mount_up.end_phase(game)
    assert cmd.seat == "commander" and v.seats["commander"].hatch is hatch


# ---------------------------------------------------------------------------
# 31.5 a mine's Wheel result


def _enemy_truck_on_a_mine(tmp_path, effect: bool):
    truck = {"id": "tr", "type": "opel_truck", "side": "enemy", "hex": "17.10", "facing": 1,
             "crew": {"driver": "e_d"}, "passengers": {"passenger_1": "e_p"}}  # fmt: skip
    game = new_game(
        tmp_path,
        vehicles=[truck],
        enemy=[crew_man("e_d", "17.10"), crew_man("e_p", "17.10"), crew_man("e1", "01.01", revealed=True)],
        impulse=3,
    )
    _opt(game, mine_wheel_effect=effect)
    ahead = game.board.neighbour_hex(game.state.vehicles["tr"].hex, 1)
    game.scenario = attrs.evolve(game.scenario, minefields=str(ahead))
    order(game, "e_d", "ahead_slow", "1")
    order(game, "e_p", "spot")
    return game


@pytest.mark.parametrize("effect", [True, False])
def test_mine_wheel_result_applies_the_wheel_effect(tmp_path, effect):
    """31.5 "7-9 Immobilized; roll d6 for damage. 1-3 Left Wheel" with 31.10.8 Wheel "Next turn Enemy
    Drivers and all Enemy Passengers will automatically receive Bail out Orders": with
    ``mine_wheel_effect`` the Enemy truck's Driver and passengers are told to bail out next turn;
    without it the wheel is only logged. Immobilized and Emergency Stop either way."""
    from solo.core.dice import ScriptedSource

    game = _enemy_truck_on_a_mine(tmp_path, effect)
    game.dice.source = ScriptedSource([7, 2])
    run(crew.activate(game, game.char("e_d")))
    v = game.state.vehicles["tr"]
    assert "immobilized" in v.damage and game.char("e_d").order.order == "emergency_stop"
    assert ("force_bail_out:driver" in v.damage) is effect
    assert ("force_bail_out:passengers" in v.damage) is effect
    assert events(game, "minefield")[0].data["wheel"] == "left"


# ---------------------------------------------------------------------------
# 30.1 the Injured/KIA Medic table


def _medic_game(tmp_path, value: str):
    g = build(
        tmp_path,
        [man("able_1", "02.02"), man("able_m", "02.04", tq=1, trained_medic=True)],
        [man("red_1", "02.10")],
        [],
    )
    _opt(g, medic_morale_on=value)
    return g


@pytest.mark.parametrize(("value", "rolls"), [("killed_or_bad", False), ("out_of_action", True)])
def test_medic_table_on_a_light_wound_that_puts_him_out(tmp_path, value, rolls):
    """30.1 "If a Friendly Trained Medic is ever killed or receives a Bad Wound, then every Friendly
    Character with a LOS to that Friendly Trained Medic must roll d10": a Light wound that puts the
    TQ 1 medic out of action rolls no table (``killed_or_bad``) or does (``out_of_action``)."""
    g = _medic_game(tmp_path, value)
    src = script(g, [0], fallback=5)
    g.char("able_1").morale = MoraleState.SHAKEN
    wounds.apply_wound(g, g.char("able_m"), WoundStamp.LIGHT, melee=False)
    assert not g.char("able_m").is_active
    assert bool(g.state.flags.get("friendly_medic_hit")) is rolls
    assert (g.char("able_1").morale is MoraleState.SHAKEN) is not rolls  # a natural 0: +2
    assert (src.remaining == ()) is rolls


@pytest.mark.parametrize("value", ["killed_or_bad", "out_of_action"])
def test_medic_table_on_a_bad_wound_at_both_settings(tmp_path, value):
    """30.1 "receives a Bad Wound": the table is rolled at both settings (a natural 0: +2 morale)."""
    g = _medic_game(tmp_path, value)
    g.char("able_1").morale = MoraleState.SHAKEN
    script(g, [0], fallback=5)
    wounds.apply_wound(g, g.char("able_m"), WoundStamp.BAD, melee=False)
    assert g.state.flags.get("friendly_medic_hit") is True
    assert g.char("able_1").morale.rank < MoraleState.SHAKEN.rank


# ---------------------------------------------------------------------------
# 31.9.4 d ii HE at a hex


@pytest.mark.parametrize(
    ("value", "dice", "target"), [("frag_dice", (4, 3), (3, 2)), ("blast_dice", (3, 2), (4, 3))]
)
def test_he_blast_dice_example_or_text(tmp_path, value, dice, target):
    """31.9.4 d ii: the text "rolls a number of dice equal to the firing Weapons Blast Rating ... less
    than or equal to the Frag rating" vs the example of play (Frag 4 dice at Blast 3, then 3 at 2):
    ``frag_dice`` follows the example, ``blast_dice`` the text (Blast 3 dice at Frag 4, then 2)."""
    from test_vehicle_combat import _he_game

    game = _he_game(tmp_path)
    _opt(game, he_blast_dice=value)
    pz = game.state.vehicles["panzer"]
    script(game, [5, 1, *[9] * (dice[0] + dice[1]), 0, 0])
    drive(main_gun.fire_main_gun(game, pz, game.char("panzer_gunner")))
    first, second = events(game, "main_gun_fire")[-1].data["he"]["targets"]
    assert (first["dice"], second["dice"]) == dice
    assert (first["target"], second["target"]) == target


# ---------------------------------------------------------------------------
# 31.10.6 closed hatches and non-penetrating fire


@pytest.mark.parametrize(("value", "checked"), [("ignored", 1), ("taken", 5)])
def test_suspension_all_mc_and_closed_hatches(tmp_path, value, checked):
    """31.10.6 "Crew members with Closed hatches will ignore Morale Checks from non-penetrating fire":
    a small-arms Suspension; ALL hit on the Panzer: only the open-hatch Commander checks (``ignored``)
    or all five crewmen do (``taken``)."""
    game, sh, pz = _duel(tmp_path)
    _opt(game, closed_hatch_nonpen_mc=value)
    rifle = vehicle_targets.strike_of(game, "m1_garand")
    script(game, [99], fallback=3)  # front 99: suspension; ALL
    rep = hits.hit_vehicle(game, pz, rifle, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["row"]["location"] == "suspension" and "immobilized" not in pz.damage
    assert len([m for m in rep["mcs"] if "ignored" not in m]) == checked


# ---------------------------------------------------------------------------
# 31.10.7 grenades in hatches


@pytest.mark.parametrize(("value", "drawn"), [("every_crewman", 5), ("at_the_hatch", 1)])
def test_hatch_grenade_wound_cards(tmp_path, value, drawn):
    """31.10.7 "At the end of the turn each crew member will draw 3 wound cards": every crewman draws
    (``every_crewman``) or only the man at the hatch it went down (``at_the_hatch``)."""
    game, _sh, _pz = _duel(tmp_path)
    _opt(game, hatch_grenade_wounds=value)
    dropped = {"vehicle": "pz", "position": "driver", "thrower": "rifle", "turn": 1}
    game.state.flags[HATCH_GRENADES] = [dropped]
    script(game, [], fallback=1)
    hazards.hatch_grenades_explode(game)
    rep = events(game, "hatch_grenade")[-1].data["report"]
    people = {w["character"] for w in rep["wounded"]}
    assert len(people) == drawn and "pz_driver" in people
    assert all(w["character"] == "pz_driver" for w in rep["wounded"]) is (drawn == 1)


# ---------------------------------------------------------------------------
# 31.10.8 Cupola and Suspension where the text is silent


def _half_track(tmp_path):
    ht = {"id": "ht", "type": "m3a1_half_track", "side": "friendly", "hex": "03.06", "facing": 2,
          "crew": {"driver": "d1"}, "passengers": {"cupola": "c1"}}  # fmt: skip
    game = build(tmp_path, [man("d1", "03.06"), man("c1", "03.06")], [man("jerry", "19.01")], [ht, PANZER])
    return game, game.state.vehicles["ht"]


def _hit(game, v, strike: Strike, loc: Location) -> dict:
    rep: dict = {}
    ctx = hits._Hit(game, v, strike, rep, None)
    hits._special(ctx, loc, None, ())
    return rep


@pytest.mark.parametrize("ordnance", [Ordnance.AP, Ordnance.HEAT])
@pytest.mark.parametrize(("value", "killed"), [("killed", True), ("wounds", False)])
def test_cupola_hit_by_ap_over_37mm_or_heat(tmp_path, ordnance, value, killed):
    """31.10.8 Cupola gives "AP <=37mm = Draw 3 wound cards" and "HE>=75mm = Cupola destroyed" and is
    silent on AP over 37 mm and HEAT: the occupant is killed (``killed``) or draws 3 wound cards
    (``wounds``); the cupola stands either way."""
    game, v = _half_track(tmp_path)
    _opt(game, cupola_heavy_hit=value)
    cal = 38 if ordnance is Ordnance.AP else None
    script(game, [], cards=stamps(game, WoundStamp.LIGHT, 3), fallback=5)
    rep = _hit(game, v, Strike("x", "X", ordnance, cal, "1"), Location.CUPOLA)
    assert ("c1" in rep["kia"] and game.char("c1").status is Status.DEAD) is killed
    assert (len(rep["wounded"]) == 3) is not killed
    assert "cupola_destroyed" not in v.damage


@pytest.mark.parametrize(
    ("value", "rolls", "immobilized"),
    [("immobilized", [], True), ("small_calibre", [5], False), ("small_calibre", [4], True)],
)
def test_suspension_hit_by_heat(tmp_path, value, rolls, immobilized):
    """31.10.8 Suspension "AP >=50mm or by HE>=75mm = Vehicle immobilized. Smaller caliber HE and AP
    will immobilize the Vehicle on a 0-4 on d10", silent on HEAT: immobilized (``immobilized``) or a
    d10, immobilized on 0-4 (``small_calibre``: 4 immobilizes, 5 does not)."""
    game, v = _half_track(tmp_path)
    _opt(game, suspension_heat=value)
    src = script(game, list(rolls))
    _hit(game, v, Strike("bazooka", "Bazooka", Ordnance.HEAT, None, "1"), Location.SUSPENSION)
    assert ("immobilized" in v.damage) is immobilized and src.remaining == ()
