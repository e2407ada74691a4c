"""The example of play at the end of the Combat!2 rules (after 32.3), played through the public API.

The script (forced cards and dice, the printed player's answers, the choices made where the
example says nothing) is :mod:`solo.playtest.example_of_play`; every printed step is checked
here from the game's events or from the state at the start of each Impulse.
"""

from __future__ import annotations

import pytest
from conftest import house_data

from solo.core.hexes import Hex
from solo.engine.game import DecisionKind
from solo.playtest.example_of_play import (
    BUTTERMANN_DICE,
    CHARLIE_CARD,
    DOUGLAS_DICE,
    FRIENDLY_ORDERS,
    SCATTER_DIRECTION,
    TEAM_HEX,
    Played,
    lands_tail,
    play,
    play_hit,
    scatter_tail,
)
from solo.rules.state import Status


@pytest.fixture(scope="module")
def hit() -> Played:
    """The example with Impulse 4's direct hit (the printed 0-5 case)."""
    return play_hit(house_data())


# ---------------------------------------------------------------------------
# The Friendly Card Phase and the Friendly Order Phase


def test_card_gives_charlie_86(hit):
    """Example: "the Player plays card 1 from his hand. This gives Charlie Team an Initiative of 86"."""
    assert hit.one("card_played").data["card"] == CHARLIE_CARD
    assert hit.game.state.teams["charlie"].initiative == 86


def test_team_orders_offered_and_given(hit):
    """Example, 32.1: 'Load Light AT' for Douglas (the Assistant) and 'Fire Light AT' for Buttermann."""
    asked = {d.actor: d.keys for d in hit.decisions if d.kind is DecisionKind.GIVE_ORDER}
    assert "fire_light_at" in asked["buttermann"]
    assert "load_light_at" in asked["douglas"] and "fire_light_at" not in asked["douglas"]
    given = {e.actor: e.data["order"] for e in hit.events("friendly_order")}
    assert given == FRIENDLY_ORDERS


# ---------------------------------------------------------------------------
# The Enemy Card and Order Phase (31.1, 31.11.3)


def test_commander_card_73_gives_spot_and_the_initiative(hit):
    """Example, 31.1: card 3 (house e33) gives the AFV's initiative 73; No-Target/Unbuttoned → Spot."""
    d = hit.one("crew_order", actor="panzer_commander").data
    assert (d["card"], d["initiative"], d["column"], d["order"]) == ("e33", 73, "no_target_open", "spot")
    assert hit.one("initiative").data["initiative"] == 73
    assert [tuple(t) for t in hit.one("track").data["track"]] == [("panzer", 73), ("charlie", 86)]


def test_driver_card_47_gives_crawl_1(hit):
    """Example, 31.11.3: "The Driver draws card 6. Its initiative value of 47 ... 'Crawl 1'"."""
    d = hit.one("crew_order", actor="panzer_driver").data
    assert (d["card"], d["initiative"], d["order"], d["directions"]) == ("e25", 47, "crawl", "1")


def test_gunner_loader_co_driver_orders(hit):
    """Example, 31.11.3: the Gunner Fire Main Gun, the Loader Load HE, the Co-driver Aimed Fire (bow MG)."""
    got = {
        e.actor: (e.data["order"], e.data["weapon"])
        for e in hit.events("crew_order")
        if e.actor in ("panzer_gunner", "panzer_loader", "panzer_co_driver")
    }
    assert got == {
        "panzer_gunner": ("fire_main_gun", None),
        "panzer_loader": ("load_he", None),
        "panzer_co_driver": ("aimed_fire", "bow_mg"),
    }


def test_crew_order_assignment_order(hit):
    """Example, 31.11.3: cards are drawn for the Commander, then Driver, Gunner, Loader, Co-driver."""
    assert [e.actor for e in hit.events("crew_order")] == [
        "panzer_commander",
        "panzer_driver",
        "panzer_gunner",
        "panzer_loader",
        "panzer_co_driver",
    ]


# ---------------------------------------------------------------------------
# Impulse 1


def test_impulse_1_crawl_to_15_11_and_nobody_spots(hit):
    """Example, Impulse 1: the Driver moves 1 hex forward to 15.11 (facing 1); nobody can spot."""
    d = hit.one("vehicle_move", 1, "panzer_driver").data
    assert (d["start"], d["end"], d["facing"]) == ("15.12", "15.11", 1)
    assert hit.at[2]["hex"] == Hex.parse("15.11") and hit.at[2]["facing"] == 1
    assert hit.events("spot", 1) == [] and hit.events("roll", 1) == []
    assert all(m is None for m in hit.at[2]["markers"].values())


# ---------------------------------------------------------------------------
# Impulse 2


def test_commander_spots_buttermann_at_7_with_a_6(hit):
    """Example, Impulse 2: "TQ of 5 +1 (Fire Light AT order in the Open) + 1 (Spot) = 7. He rolls a 6"."""
    spots = hit.events("spot", 2, "panzer_commander")
    b = spots[0].data
    assert (b["target"], b["tq"], b["chart"], b["extra"], b["threshold"], b["roll"], b["success"]) == (
        "buttermann",
        5,
        1,
        {"Spot order": 1},
        7,
        6,
        True,
    )
    assert hit.at[3]["revealed"]["buttermann"]


def test_commander_fails_on_douglas_with_a_9(hit):
    """Example, Impulse 2: "The Commander then rolls to Spot Private Douglas but rolls a 9 and fails"."""
    d = hit.events("spot", 2, "panzer_commander")[1].data
    assert (d["target"], d["roll"], d["success"]) == ("douglas", 9, False)
    assert not hit.at[3]["revealed"]["douglas"]


def test_commander_marks_the_light_at_team(hit):
    """Example, 31.7.4 priority 2: "he has LOS to a Friendly Light AT Team so places his Target Marker"."""
    d = hit.one("target_marker", 2, "panzer_commander").data
    assert (d["hex"], d["priority"], d["on"], d["tqc"]) == (str(TEAM_HEX), 2, "light_at", None)
    assert hit.at[3]["markers"]["commander"] == TEAM_HEX
    marked = hit.one("target_marker", 2, "panzer_commander").seq
    assert all(e.seq < marked for e in hit.events("spot", 2, "panzer_commander"))


def test_driver_emergency_stop_tqc_7_passes_on_5(hit):
    """Example, 31.2 (1): "The TQ of the Driver is 5 + 2 (for the Commander's Leadership). He rolls a 5"."""
    d = hit.one("emergency_stop_check", 2, "panzer_driver").data
    assert (d["tq"], d["ldr"], d["target"], d["roll"], d["passed"], d["from"]) == (5, 2, 7, 5, True, "crawl")
    assert hit.at[3]["orders"]["panzer_driver"] == "emergency_stop"
    assert hit.at[3]["hex"] == Hex.parse("15.11")


def test_emergency_stop_keeps_the_crew_orders_once(hit):
    """31.11.2: stopped at 0 hexes, every crewman keeps his order (one retention event, not two)."""
    retention = [e for e in hit.events("emergency_stop", 2) if e.actor is None]
    assert len(retention) == 1 and retention[0].data["hexes"] == 0
    assert hit.at[3]["orders"]["panzer_gunner"] == "fire_main_gun"


def test_gunner_turns_the_turret_one_hexside_to_the_commanders_marker(hit):
    """Example, 31.6: "he will still rotate the turret one hex side because of the Commander's ... Marker"."""
    assert hit.at[2]["turret"] == 1
    assert hit.one("turret_turn", 2, "panzer_gunner").data["turret"] == 2
    assert hit.at[3]["turret"] == 2
    assert hit.one("no_fire", 2, "panzer_gunner").data["reason"] == "turret turned"


def test_gunner_spots_douglas_without_the_closed_hatch_penalty_and_fails(hit):
    """Example, 31.7.3: his closed-hatch -2 "is negated by the Commander's Target Marker"; a 9 fails."""
    d = hit.one("spot", 2, "panzer_gunner").data
    assert (d["target"], d["tq"], d["chart"], d["threshold"], d["roll"], d["success"]) == (
        "douglas",
        5,
        1,
        6,
        9,
        False,
    )
    assert list(d["extra"].values()) == [0] and "negated" in next(iter(d["extra"]))
    turned = hit.one("turret_turn", 2).seq
    assert hit.one("spot", 2, "panzer_gunner").seq > turned


def test_gunner_places_his_marker_on_the_team(hit):
    """Example: "The Gunner still places a Target Marker ... because he has LOS to Private Butterman"."""
    d = hit.one("target_marker", 2, "panzer_gunner").data
    assert (d["hex"], d["priority"], d["on"]) == (str(TEAM_HEX), 2, "light_at")
    assert hit.at[3]["markers"]["gunner"] == TEAM_HEX


def test_loader_does_nothing_as_the_gun_is_loaded(hit):
    """Example: "As the Main gun is loaded, the Loader does nothing" (31.11.2); he places no marker."""
    assert "loaded at the start of Impulse 2" in hit.one("load", 2, "panzer_loader").text
    assert hit.at[3]["loaded"] is not None and hit.at[3]["markers"]["loader"] is None


def test_co_driver_does_nothing(hit):
    """Example: "He has no LOS to any Friendly Characters so will also do nothing" (bow MG, front arc)."""
    assert hit.one("no_fire", 2, "panzer_co_driver").data["reason"].startswith("no target")
    assert hit.events("spot", 2, "panzer_co_driver") == []
    assert hit.at[3]["markers"]["co_driver"] is None


def test_douglas_loads_the_bazooka_with_a_1(hit):
    """Example, 32.1: "the Player makes a TQC to see if Pvt Douglas can load the Bazooka. He rolls a 1"."""
    d = hit.one("light_at_load", 2, "douglas").data
    assert (d["operator"], d["loaded"], d["rockets"]) == ("buttermann", True, 2)
    check = hit.one("check", 2, "douglas").data
    assert (check["roll"], check["target"], check["result"]) == (1, 5, "passed")
    assert hit.at[3]["bazooka"]["loaded"]


def test_buttermann_cannot_fire_on_impulse_2(hit):
    """Example, 32.1: "As the Bazooka was not loaded at the start of the Impulse he may not roll to fire"."""
    d = hit.one("light_at_fire", 2, "buttermann").data
    assert d["fired"] is False and "not loaded at the start" in d["reason"]
    assert hit.events("check", 2, "buttermann") == []


# ---------------------------------------------------------------------------
# Impulse 3


def test_gunner_fire_tqc_7_fails_on_8(hit):
    """Example, Impulse 3 (31.11.2): "His TQ is 5 plus 2 for the Commander = 7. The player rolls an 8"."""
    (check,) = [e.data for e in hit.events("check", 3, "panzer_gunner") if e.data["check"] == "tqc"]
    assert (check["roll"], check["target"], check["modifier"], check["result"]) == (8, 7, 2, "failed")
    assert hit.one("main_gun_fire", 3, "panzer_gunner").data["fired"] is False
    assert hit.at[4]["loaded"] is not None


def test_douglas_does_nothing_on_impulse_3(hit):
    """Example, Impulse 3: "Private Douglas will do nothing (the Bazooka is already loaded)"."""
    d = hit.one("light_at_load", 3, "douglas").data
    assert d["loaded"] is False
    assert hit.events("check", 3, "douglas") == []


def test_buttermann_fires_tqc_2_then_hits_at_7_with_a_4(hit):
    """Example, 32.1: TQC 2 passes; to hit TQ 5 +2 side +1 Emergency Halt -1 range (5 hexes) = 7; a 4 hits."""
    assert hit.one("check", 3, "buttermann").data["roll"] == 2
    d = hit.one("light_at_fire", 3, "buttermann").data
    assert [t[1] for t in d["terms"]] == [5, 2, 1, -1]
    assert (d["range"], d["modified_tq"], d["roll"], d["hit"], d["aspect"]) == (5, 7, 4, True, "side")


def test_hit_location_43_lower_hull_glancing_penetrates(hit):
    """Example, 31.10.4-5: %D 43 → Lower Hull, glancing; armor 5; 7+1d6 with a 1 = 8 penetrates."""
    h = hit.one("light_at_fire", 3, "buttermann").data["hit_report"]
    assert (h["percent"], h["row"]["location"], h["glancing"], h["armor_zone"], h["armor"]) == (
        43,
        "lower_hull",
        True,
        "lower_hull_side",
        5,
    )
    assert h["penetration"] == {"dice": "7+1d6", "faces": [1], "total": 8} and h["penetrated"]


def test_damage_4_kills_driver_and_co_driver(hit):
    """Example, 31.10.8: d10 4 on the lower hull column: Driver and Co-driver KIA; [ALL] take an MC."""
    h = hit.one("light_at_fire", 3, "buttermann").data["hit_report"]
    (dmg,) = h["damage"]
    assert (dmg["column"], dmg["d10"], dmg["kia"], dmg["mc"]) == (
        "lower_hull",
        4,
        ["driver", "co_driver"],
        ["all"],
    )
    status = hit.at[4]["status"]
    assert status["panzer_driver"] is Status.DEAD and status["panzer_co_driver"] is Status.DEAD
    assert hit.game.state.vehicles["panzer"].seats["driver"].kia


def test_crew_morale_checks(hit):
    """Example, 31.10.9: Commander 8 fails (Duck Back, Cautious); Gunner 6 passes (5+2); Loader 9 Panic."""
    mcs = {m["character"]: m for m in hit.one("light_at_fire", 3).data["hit_report"]["mcs"]}
    assert (mcs["panzer_commander"]["roll"], mcs["panzer_commander"]["target"]) == (8, 5)
    gunner = mcs["panzer_gunner"]
    assert (gunner["roll"], gunner["target"], gunner["ldr"], gunner["passed"]) == (6, 7, 2, True)
    assert mcs["panzer_loader"]["roll"] == 9 and not mcs["panzer_loader"]["passed"]
    at4 = hit.at[4]
    assert (at4["orders"]["panzer_commander"], at4["morale"]["panzer_commander"]) == ("duck_back", "cautious")
    assert (at4["orders"]["panzer_gunner"], at4["morale"]["panzer_gunner"]) == ("fire_main_gun", "normal")
    assert (at4["orders"]["panzer_loader"], at4["morale"]["panzer_loader"]) == ("panic", "shaken")


def test_bazooka_unloaded_after_the_shot(hit):
    """Example, 32.1: "Finally the Bazooka Marker is flipped to it's 'Unloaded' side"."""
    assert hit.at[3]["bazooka"]["loaded"] and not hit.at[4]["bazooka"]["loaded"]


# ---------------------------------------------------------------------------
# Impulse 4: the Gunner's HE shot (31.9.4 d ii)


def test_gunner_fires_he_automatically_at_tq_5(hit):
    """Example, Impulse 4: the Gunner fires automatically; TQ 5 + 2 Leader - 2 Emergency Stop = 5."""
    d = hit.one("main_gun_fire", 4, "panzer_gunner").data
    assert (d["ammo"], d["target"], d["automatic"], d["modified_tq"]) == ("he", f"hex:{TEAM_HEX}", True, 5)
    assert sorted(t[1] for t in d["terms"]) == [-2, 2, 5]


def test_he_direct_hit_blast_dice(hit):
    """Example, 0-5: the first target rolls 4 dice at Blast 3 + 0 (Fire Light AT), the other 3 at 3 - 1."""
    he = hit.one("main_gun_fire", 4).data["he"]
    assert (he["roll"], he["hit"], he["blast"], he["frag"]) == (5, True, 3, 4)
    got = [(t["character"], t["dice"], t["cell"], t["target"], t["faces"], t["hits"]) for t in he["targets"]]
    assert got == [
        ("buttermann", 4, 0, 3, BUTTERMANN_DICE, 1),
        ("douglas", 3, -1, 2, DOUGLAS_DICE, 1),
    ]
    assert [e.actor for e in hit.events("wound_draw", 4)] == ["buttermann", "douglas"]


def test_he_direct_hit_morale_checks_for_the_hex(hit):
    """Example, 31.9.4 d ii: everyone in or adjacent to the hex takes an MC after a direct hit."""
    he = hit.one("main_gun_fire", 4).data["he"]
    assert [m["character"] for m in he["mcs"]] == ["buttermann", "douglas"]
    assert [(m["roll"], m["result"]) for m in he["mcs"]] == [(5, "passed"), (6, "failed")]
    assert hit.one("duck_back", 4, "douglas").data  # his failed blast MC: Duck Back
    assert hit.events("light_at_load", 4, "douglas") == []


@pytest.mark.parametrize("face", [6, 8])
def test_he_lands_in_the_hex_hits_nobody_but_everyone_mcs(face):
    """Example: "A roll of 6-8 would mean that the HE round landed in the hex but not close enough"."""
    p = play(lands_tail(face), data=house_data())
    he = p.one("main_gun_fire", 4).data["he"]
    assert (he["roll"], he["hit"], he["targets"]) == (face, False, [])
    assert [m["character"] for m in he["mcs"]] == ["buttermann", "douglas"]
    assert p.events("wound_draw", 4) == []


def test_he_9_scatters_to_an_adjacent_hex_and_the_team_still_mcs():
    """Example: "A roll of 9 would result in the HE round landing in an adjacent hex"; the team still MCs."""
    p = play(scatter_tail(), data=house_data())
    he = p.one("main_gun_fire", 4).data["he"]
    landing = Hex.parse(he["landed"])
    assert (he["roll"], he["scatter"], he["targets"]) == (9, SCATTER_DIRECTION, [])
    assert landing == p.game.board.neighbour_hex(TEAM_HEX, SCATTER_DIRECTION)
    assert not p.game.state.at(landing)
    assert [m["character"] for m in he["mcs"]] == ["buttermann", "douglas"]


# ---------------------------------------------------------------------------
# The end of the one turn: victory (base-rules §19, the scenario's own bands)


def test_the_printed_hit_is_a_marginal_friendly_win(hit):
    """§19 victory: "VP per kill": the Driver and Co-driver KIA give 2 VP, the scenario's marginal band."""
    d = hit.one("victory").data
    assert (d["vp"], d["band"], d["winner"]) == (2, "marginal", "friendly")
    assert d["enemy_casualties"] == ["panzer_driver", "panzer_co_driver"]
