"""Vehicle fire and damage and Light AT weapons (solo.rules.vehicles.targets): C2 31.8-31.10, 32.0-32.3."""

from __future__ import annotations

import functools
from collections.abc import Generator
from pathlib import Path

import attrs
from conftest import DATA_DIR, house_data, make_game, scenario_yaml

from solo.core.dice import Dice, ScriptedSource
from solo.core.hexes import Arc, Hex, arc_of
from solo.data.friendly_deck import WoundStamp
from solo.data.house import HouseData
from solo.data.maps import load_map
from solo.data.scenario import load_scenario
from solo.data.tables import MoraleState
from solo.engine.game import Decision, DecisionKind, Game
from solo.rules import fire_action, firing, spotting, wounds
from solo.rules.state import CarriedWeapon, Side, Status
from solo.rules.vehicles import hazards, hits, light_at, machine_guns, main_gun
from solo.rules.vehicles import targets as vehicle_targets
from solo.rules.vehicles.state import Ammo, Hatch, Seat, Vehicle, vehicles_of
from solo.rules.vehicles.targets import Ordnance

H = Hex.parse

# ---------------------------------------------------------------------------
# Test kit


def script(
    game: Game, rolls: list[int], cards: list[str] = (), fallback: int | None = None
) -> ScriptedSource:
    """Force the next rolls (and Friendly cards); without ``fallback`` an unscripted roll is an error."""
    src = ScriptedSource(rolls, cards={"friendly": list(cards)}, fallback=fallback)
    game.dice = Dice(src, listener=game._on_roll)
    return src


def drive(gen: Generator[Decision, str, None], *answers: str) -> list[Decision]:
    """Run a rule generator to its end, answering its decisions in order."""
    left = list(answers)
    seen: list[Decision] = []
    try:
        d = next(gen)
        while True:
            seen.append(d)
            d = gen.send(left.pop(0))
    except StopIteration:
        pass
    return seen


def stamps(game: Game, stamp: WoundStamp, n: int = 1) -> list[str]:
    """``n`` Friendly cards with ``stamp`` from the draw pile."""
    return [c for c in game.friendly_deck.in_draw_pile() if wounds._stamp_of(game, c) is stamp][:n]


def events(game: Game, kind: str) -> list:
    return [e for e in game.events if e.kind == kind]


def example(tmp_path: Path, impulse: int = 2) -> Game:
    """The C2 rule 32 example after the Panzer's Impulse 1 move: in 15.11 facing 1, turret on the team.

    Orders as printed: Commander Spot, Driver Emergency Stop (from Impulse 2), Gunner Fire Main
    Gun, Loader Load HE, Co-driver Aimed Fire; Douglas Load Light AT, Buttermann Fire Light AT
    (Spotted). Both Commander and Gunner have their Target Marker on the team's hex (the
    scenario's), which the turret faces.
    """
    game = make_game(tmp_path, "example_of_play")
    pz = game.state.vehicles["panzer"]
    pz.hex = H("15.11")
    for cid in pz.crew_ids():
        game.char(cid).hex = pz.hex
    team = game.char("buttermann").hex
    stagger = game.board.map.stagger
    pz.turret = next(d for d in range(1, 7) if arc_of(pz.hex, d, team, stagger) is Arc.FRONT)
    orders = {
        "commander": "spot",
        "driver": "emergency_stop",
        "gunner": "fire_main_gun",
        "loader": "load_he",
        "co_driver": "aimed_fire",
    }
    for pos, o in orders.items():
        game.set_order(game.char(f"panzer_{pos}"), o)
    game.set_order(game.char("douglas"), "load_light_at")
    game.set_order(game.char("buttermann"), "fire_light_at")
    game.char("buttermann").revealed = True
    pz.seats["commander"].marker = team
    pz.seats["gunner"].marker = team
    game.state.flow.impulse = impulse
    return game


def step(game: Game, cid: str, *answers: str) -> list[Decision]:
    """``cid``'s F step of his order this Impulse (through solo.rules.fire_action.fire_step)."""
    ch = game.char(cid)
    return drive(fire_action.fire_step(game, ch, game.order_def(ch)), *answers)


@functools.cache
def combat_data() -> HouseData:
    """The house data with the combat test map (open ground, buildings at 10-14.02-05)."""
    base = house_data()
    m = load_map(DATA_DIR / "combat_map.yaml", base.terrain)
    return attrs.evolve(base, maps={**base.maps, m.id: m})


def man(cid: str, hex_: str, *, tq: int = 5, ws: int = 5, weapon: str = "m1_garand", **kw) -> dict:
    return {
        "id": cid,
        "name": cid.title(),
        "tq": tq,
        "hex": hex_,
        "weapons": [{"weapon": weapon, "ws": ws}],
        **kw,
    }


def build(tmp_path: Path, friendly: list[dict], enemy: list[dict], vehicles: list[dict], **kw) -> Game:
    """A game on the combat test map with ``vehicles``; everyone revealed, Impulse 2."""
    doc = {
        "id": "vehicle_combat_test",
        "name": "Vehicle combat test",
        "map": "combat_test",
        "turns": 3,
        "friendly": [{"id": "able", "name": "Able", "characters": friendly}],
        "enemy": [{"id": "red", "name": "Red", "alert": True, "characters": enemy}] if enemy else [],
        "vehicles": vehicles,
        **kw,
    }
    p = tmp_path / "vc_scenario.yaml"
    p.write_text(scenario_yaml(doc))
    data = combat_data()
    game = Game(load_scenario(p, data), data, dice=Dice(3))
    for ch in game.state.characters.values():
        ch.revealed = True
    game.state.flow.impulse = 2
    return game


PANZER = {
    "id": "pz",
    "type": "panzer_ivh",
    "side": "enemy",
    "hex": "06.06",
    "facing": 2,
    "loaded": "he",
    "hatches": {"commander": "open"},
    "crew": {
        "commander": "de_cmd_brandt",
        "driver": "de_drv_vogel",
        "gunner": "de_gun_adler",
        "loader": "de_ldr_baumann",
        "co_driver": "de_cdr_hahn",
    },
}


def sherman(**kw) -> dict:
    """A Friendly M4A3 in 03.06 facing 2 with AP loaded, the first US crew counter of each role."""
    crews = house_data().crews
    crew = {r: crews.pool("us", r)[0].id for r in ("commander", "driver", "gunner", "loader", "co_driver")}
    return {"id": "sh", "type": "m4a3_sherman", "side": "friendly", "hex": "03.06", "facing": 2,
            "loaded": "ap", "crew": crew, **kw}  # fmt: skip


def towards(game: Game, frm: Hex, d: int, n: int) -> Hex:
    h = frm
    for _ in range(n):
        nxt = game.board.neighbour_hex(h, d)
        assert nxt is not None
        h = nxt
    return h


# ---------------------------------------------------------------------------
# The C2 rule 32 example of play


def test_example_douglas_loads_on_impulse_2_with_a_tqc_of_1(tmp_path):
    """C2 32.1 example: the Bazooka unloaded at the start of I2; Douglas's TQC 1 loads it (a rocket used)."""
    game = example(tmp_path)
    src = script(game, [1])
    step(game, "douglas")
    st = light_at.bazooka_state(game, game.char("buttermann"))
    assert st["loaded"] and st["rockets"] == 2 and st["assistant"] == "douglas"
    assert src.remaining == ()


def test_example_buttermann_cannot_fire_a_bazooka_loaded_this_impulse(tmp_path):
    """C2 32.1 example: loaded during I2, it was not loaded at the START of I2: no roll to fire."""
    game = example(tmp_path)
    script(game, [1])
    step(game, "douglas")
    step(game, "buttermann")
    last = events(game, "light_at_fire")[-1]
    assert last.data["fired"] is False and "start of the Impulse" in last.data["reason"]


def test_example_gunner_tqc_7_fails_on_8_and_keeps_the_round(tmp_path):
    """C2 example, 31.11.2: on I3 the Gunner's TQC is TQ 5 + 2 (Commander) = 7; an 8 fails, no penalty."""
    game = example(tmp_path, impulse=3)
    pz = game.state.vehicles["panzer"]
    script(game, [8])
    drive(main_gun.fire_main_gun(game, pz, game.char("panzer_gunner")))
    tqc = [e for e in events(game, "check") if e.actor == "panzer_gunner"][-1]
    assert (tqc.data["roll"], tqc.data["target"]) == (8, 7)
    assert pz.loaded is Ammo.HE
    assert events(game, "main_gun_fire")[-1].data["fired"] is False


def _example_impulse_3_shot(tmp_path) -> tuple[Game, ScriptedSource]:
    game = example(tmp_path)
    script(game, [1])
    step(game, "douglas")
    game.state.flow.impulse = 3
    # Douglas: nothing. Buttermann: TQC 2, to hit 4, %D 43, pen d6 1, damage d10 4, MCs 8 / 6 / 9.
    src = script(game, [2, 4, 43, 1, 4, 8, 6, 9])
    step(game, "douglas")
    decisions = step(game, "buttermann", "vehicle:panzer")
    assert decisions[0].kind is DecisionKind.FIRE_TARGET and "vehicle:panzer" in decisions[0].keys
    return game, src


def test_example_bazooka_to_hit_is_7_and_a_4_hits(tmp_path):
    """C2 32.1 example: TQ 5 +2 side +1 Emergency Halt -1 range (5 hexes) = 7; the player rolls 4 and hits."""
    game, src = _example_impulse_3_shot(tmp_path)
    assert src.remaining == ()
    shot = events(game, "light_at_fire")[-1]
    terms = dict((k, v) for k, v in shot.data["terms"])
    assert terms["side aspect"] == 2 and terms["target Emergency Stop"] == 1 and terms["range"] == -1
    assert shot.data["modified_tq"] == 7 and shot.data["roll"] == 4 and shot.data["hit"] is True


def test_example_hit_location_43_is_the_lower_hull_glancing_and_still_penetrates(tmp_path):
    """C2 example, 31.10.4-31.10.5: %D 43 → Lower Hull, glancing armor 5; 7+1d6 with a 1 = 8 penetrates."""
    game, _ = _example_impulse_3_shot(tmp_path)
    rep = events(game, "light_at_fire")[-1].data["hit_report"]
    assert rep["percent"] == 43 and rep["row"]["location"] == "lower_hull" and rep["glancing"] is True
    assert rep["armor"] == 5 and rep["penetration"]["total"] == 8 and rep["penetrated"] is True


def test_example_damage_4_kills_driver_and_co_driver(tmp_path):
    """C2 example, 31.10.8: d10 4 on the lower hull column: Driver and Co-driver KIA (seats hold KIA)."""
    game, _ = _example_impulse_3_shot(tmp_path)
    pz = game.state.vehicles["panzer"]
    rep = events(game, "light_at_fire")[-1].data["hit_report"]
    assert rep["damage"][0]["d10"] == 4 and sorted(rep["kia"]) == ["panzer_co_driver", "panzer_driver"]
    assert game.char("panzer_driver").status is Status.DEAD and pz.seats["driver"].kia
    assert pz.seats["co_driver"].occupant is None
    assert vehicle_targets.speed_order(game, pz) == "emergency_stop"


def test_example_crew_morale_checks(tmp_path):
    """C2 example, 31.10.9: Commander 8 fails (Duck Back, Cautious); Gunner 6 passes (5+2); Loader 9 Panic."""
    game, _ = _example_impulse_3_shot(tmp_path)
    cmd, gun, ldr = (game.char(f"panzer_{p}") for p in ("commander", "gunner", "loader"))
    mcs = {m["character"]: m for m in events(game, "light_at_fire")[-1].data["hit_report"]["mcs"]}
    assert (mcs[cmd.id]["roll"], mcs[cmd.id]["target"]) == (8, 5)
    assert cmd.order.order == "duck_back" and cmd.morale is MoraleState.CAUTIOUS
    assert (mcs[gun.id]["roll"], mcs[gun.id]["target"]) == (6, 7) and gun.morale is MoraleState.NORMAL
    assert gun.order.order == "fire_main_gun"
    assert mcs[ldr.id]["roll"] == 9 and ldr.order.order == "panic" and ldr.morale is MoraleState.SHAKEN


def test_example_bazooka_is_unloaded_after_the_shot(tmp_path):
    """C2 32.1 example: "Finally the Bazooka Marker is flipped to its Unloaded side"."""
    game, _ = _example_impulse_3_shot(tmp_path)
    st = light_at.bazooka_state(game, game.char("buttermann"))
    assert not st["loaded"] and st["rockets"] == 2


def _he_game(tmp_path) -> Game:
    """The example on Impulse 4: the Gunner fires HE automatically at the team's hex."""
    return example(tmp_path, impulse=4)


def test_example_he_hits_on_5_first_target_4_dice_at_3_second_3_dice_at_2(tmp_path):
    """C2 31.9.4 d ii, example: TQ 5 +2 LDR -2 Emergency Stop = 5; a 5 hits; 4 dice at Blast 3, then 3."""
    game = _he_game(tmp_path)
    pz = game.state.vehicles["panzer"]
    # to hit 5; first target at random: Buttermann (pick 1 of [Buttermann, Douglas]); 4 + 3 dice, all 9s;
    # blast MCs for both (in the hex): 0, 0.
    script(game, [5, 1, 9, 9, 9, 9, 9, 9, 9, 0, 0])
    drive(main_gun.fire_main_gun(game, pz, game.char("panzer_gunner")))
    ev = events(game, "main_gun_fire")[-1]
    assert ev.data["modified_tq"] == 5
    he = ev.data["he"]
    assert he["hit"] is True
    first, second = he["targets"]
    assert (first["character"], first["dice"], first["target"]) == ("buttermann", 4, 3)
    assert (second["character"], second["dice"], second["target"]) == ("douglas", 3, 2)
    assert {m["character"] for m in he["mcs"]} == {"buttermann", "douglas"}
    assert pz.loaded is None


def test_he_hit_dice_cause_wound_draws(tmp_path):
    """C2 31.9.4 d ii: each blast die at or under Blast + cell is a hit and a wound draw."""
    game = _he_game(tmp_path)
    pz = game.state.vehicles["panzer"]
    kia = stamps(game, WoundStamp.KIA)
    script(game, [0, 1, 3, 9, 9, 9, 9, 9, 9, 0], cards=kia)
    drive(main_gun.fire_main_gun(game, pz, game.char("panzer_gunner")))
    assert game.char("buttermann").status is Status.DEAD
    assert game.char("douglas").is_active


def test_he_roll_6_lands_in_the_hex_and_hits_nobody_but_all_check(tmp_path):
    """C2 31.9.4 d ii: 6-8 lands but hits no one; everyone in or adjacent still takes an MC."""
    game = _he_game(tmp_path)
    pz = game.state.vehicles["panzer"]
    src = script(game, [6, 0, 0])
    drive(main_gun.fire_main_gun(game, pz, game.char("panzer_gunner")))
    he = events(game, "main_gun_fire")[-1].data["he"]
    assert he["hit"] is False and he["targets"] == [] and len(he["mcs"]) == 2
    assert src.remaining == ()


def test_he_roll_9_scatters_and_the_team_still_checks(tmp_path):
    """C2 31.9.4 d ii and example: a 9 lands in an adjacent hex (d6 direction); the team still takes MCs."""
    game = _he_game(tmp_path)
    pz = game.state.vehicles["panzer"]
    script(game, [9, 1, 0, 0])
    drive(main_gun.fire_main_gun(game, pz, game.char("panzer_gunner")))
    he = events(game, "main_gun_fire")[-1].data["he"]
    team = game.char("buttermann").hex
    assert he["scatter"] == 1 and he["landed"] == str(game.board.neighbour_hex(team, 1))
    assert he["targets"] == [] and {m["character"] for m in he["mcs"]} == {"buttermann", "douglas"}


def test_main_gun_needs_a_round_loaded_at_the_start_of_the_impulse(tmp_path):
    """C2 31.11.2 Fire Main Gun: a round loaded during this Impulse cannot be fired in it."""
    game = _he_game(tmp_path)
    pz = game.state.vehicles["panzer"]
    pz.acted["loaded_impulse"] = 4
    script(game, [])
    drive(main_gun.fire_main_gun(game, pz, game.char("panzer_gunner")))
    assert "not loaded at the start" in events(game, "main_gun_fire")[-1].data["reason"]


def test_main_gun_fires_only_into_the_turrets_front_arc(tmp_path):
    """C2 31.6, 31.9.4: with the turret back on direction 1 the team is out of its front arc."""
    game = _he_game(tmp_path)
    pz = game.state.vehicles["panzer"]
    pz.turret = 1
    script(game, [])
    drive(main_gun.fire_main_gun(game, pz, game.char("panzer_gunner")))
    assert "front arc" in events(game, "main_gun_fire")[-1].data["reason"] and pz.loaded is Ammo.HE


def test_no_fire_from_a_vehicle_moving_fast(tmp_path):
    """C2 31.11.2 Fast: no firing is permitted from the vehicle."""
    game = _he_game(tmp_path)
    pz = game.state.vehicles["panzer"]
    game.set_order(game.char("panzer_driver"), "fast")
    script(game, [])
    drive(main_gun.fire_main_gun(game, pz, game.char("panzer_gunner")))
    assert "Fast" in events(game, "main_gun_fire")[-1].data["reason"]


# ---------------------------------------------------------------------------
# Penetration, glancing blows, morale (31.10.4-31.10.6)


def _duel(tmp_path) -> tuple[Game, Vehicle, Vehicle]:
    game = build(tmp_path, [man("rifle", "01.10")], [man("jerry", "19.01")], [PANZER, sherman()])
    v = vehicles_of(game.state)
    return game, v["sh"], v["pz"]


def test_sherman_ap_penetration_is_5_plus_1d6(tmp_path):
    """C2 31.10.4: "The 75mm gun on a Sherman M4A3 has a penetration value of 5+1D6"."""
    game, _, _ = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m4_75mm", Ordnance.AP)
    assert strike.penetration == "5+1d6" and strike.calibre == 75


def test_penetration_must_exceed_the_armor(tmp_path):
    """C2 31.10.4: equal to the armor fails, one more penetrates (turret front 6: 5+1 fails, 5+2 goes in)."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m4_75mm", Ordnance.AP)
    script(game, [25, 1])
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["armor"] == 6 and rep["penetration"]["total"] == 6 and rep["penetrated"] is False
    assert rep["damage"] == [] and rep["mcs"] == []
    script(game, [25, 2, 9], fallback=5)
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["penetrated"] is True and rep["damage"][0]["column"] == "turret"


def test_glancing_blow_uses_the_glancing_armor(tmp_path):
    """C2 31.10.5: %D 34 on the Panzer's front is a glancing turret hit: armor 9; 5+4 fails, 5+5 goes in."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m4_75mm", Ordnance.AP)
    script(game, [34, 4])
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["glancing"] is True and rep["armor"] == 9 and rep["penetrated"] is False
    script(game, [34, 5, 9], fallback=5)
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["penetrated"] is True


def test_closed_hatches_ignore_mcs_from_non_penetrating_fire(tmp_path):
    """C2 31.10.6: a track hit [ALL] by small arms: only the Commander (open hatch) checks."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m1_garand")
    src = script(game, [86, 3])
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["row"]["location"] == "track" and "immobilized" not in pz.damage
    checked = [m for m in rep["mcs"] if "ignored" not in m]
    ignored = [m for m in rep["mcs"] if "ignored" in m]
    assert [m["character"] for m in checked] == ["pz_commander"]
    assert len(ignored) == 4 and src.remaining == ()


def test_penetrating_damage_makes_closed_hatches_check(tmp_path):
    """C2 31.10.6, 31.10.9: after a penetration the [ALL] MC includes closed hatches, with the LDR."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m4_75mm", Ordnance.AP)
    # side %D 25 lower hull (armor 3), pen 5+1; lower hull d10 1: MC all; five MCs.
    script(game, [25, 1, 1, 0, 0, 0, 0, 0])
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.SIDE)
    targets = {m["character"]: m["target"] for m in rep["mcs"]}
    assert targets == {"pz_commander": 5, "pz_driver": 7, "pz_gunner": 7, "pz_loader": 7, "pz_co_driver": 7}


def test_ap_to_hit_at_a_vehicle_side(tmp_path):
    """C2 31.9.4 d i: TQ + 2 side aspect + own speed + target speed + range band; a hit rolls a location."""
    game, sh, pz = _duel(tmp_path)
    gunner = game.char("sh_gunner")
    sh.seats["gunner"].marker = pz.hex
    sh.turret = next(d for d in range(1, 7) if arc_of(sh.hex, d, pz.hex, game.board.map.stagger) is Arc.FRONT)
    pz.facing = next(d for d in range(1, 7) if arc_of(pz.hex, d, sh.hex, game.board.map.stagger) is Arc.SIDE)
    game.state.flow.impulse = 4
    script(game, [0, 99], fallback=4)
    drive(main_gun.fire_main_gun(game, sh, gunner), "vehicle:pz")
    ev = events(game, "main_gun_fire")[-1]
    terms = dict((k, v) for k, v in ev.data["terms"])
    assert terms["side aspect"] == 2 and terms["target standing"] == 1 and terms["range"] == 2
    assert ev.data["modified_tq"] == gunner.tq + 2 + 1 + 2 and ev.data["hit"] is True
    assert ev.data["hit_report"]["percent"] == 99 and sh.loaded is None


# ---------------------------------------------------------------------------
# Crew as targets (31.8, 31.10.31) and small arms at vehicles (31.10)


def test_open_hatch_commander_is_an_aimed_fire_target_on_the_hatch_line(tmp_path):
    """C2 31.8, 31.10.31: Aimed Fire may pick the open-hatch Commander (Hatch line); closed hatches never."""
    game, _, pz = _duel(tmp_path)
    rifle = game.char("rifle")
    rifle.hex = towards(game, pz.hex, 2, 3)
    sols = fire_action.fire_options(game, rifle, game.data.orders.get("aimed_fire"))
    crew = [s for s in sols if s.target.startswith("pz_")]
    assert [s.target for s in crew] == ["pz_commander"] and crew[0].chart_row == "hatch"
    assert any(s.target == "vehicle:pz" for s in sols)


def test_rapid_fire_cannot_pick_out_a_crewman(tmp_path):
    """C2 31.10.31: only an attacker with Aimed Fire may target a crew member; Rapid Fire hits the vehicle."""
    game, _, pz = _duel(tmp_path)
    rifle = game.char("rifle")
    rifle.hex = towards(game, pz.hex, 2, 3)
    sols = fire_action.fire_options(game, rifle, game.data.orders.get("rapid_fire"))
    assert [s.target for s in sols if "pz" in s.target] == ["vehicle:pz"]


def test_crewman_on_hide_is_not_a_target(tmp_path):
    """C2 31.10.31: the target may not have a Hide order."""
    game, _, pz = _duel(tmp_path)
    rifle = game.char("rifle")
    rifle.hex = towards(game, pz.hex, 2, 3)
    game.set_order(game.char("pz_commander"), "hide")
    aimed = game.data.orders.get("aimed_fire")
    assert not vehicle_targets.is_individual_target(game, game.char("pz_commander"), rifle, aimed)


def test_loader_is_exposed_only_to_the_front_and_right(tmp_path):
    """C2 31.10.31: the Loader may be fired on from the front or right arc of the AFV, not from the rear."""
    game, _, pz = _duel(tmp_path)
    pz.seats["loader"].hatch = Hatch.OPEN
    loader, rifle = game.char("pz_loader"), game.char("rifle")
    aimed = game.data.orders.get("aimed_fire")
    rifle.hex = towards(game, pz.hex, pz.facing, 3)
    assert vehicle_targets.is_individual_target(game, loader, rifle, aimed)
    rifle.hex = towards(game, pz.hex, (pz.facing + 2) % 6 + 1, 3)  # straight behind
    assert not vehicle_targets.is_individual_target(game, loader, rifle, aimed)


def test_shooting_the_exposed_commander_dead_makes_the_crew_check(tmp_path):
    """C2 31.8, 31.10.9: a KIA card kills the Commander at his hatch; his seat holds KIA; the crew check."""
    game, _, pz = _duel(tmp_path)
    rifle, cmd = game.char("rifle"), game.char("pz_commander")
    rifle.hex = towards(game, pz.hex, 2, 3)
    aimed = game.data.orders.get("aimed_fire")
    sol = next(s for s in fire_action.fire_options(game, rifle, aimed) if s.target == cmd.id)
    script(game, [0, 0, 0, 0, 0], cards=stamps(game, WoundStamp.KIA))
    firing.resolve_fire(game, rifle, cmd, sol, aimed)
    assert cmd.status is Status.DEAD and pz.seats["commander"].kia and pz.seats["commander"].occupant is None
    assert {e.actor for e in events(game, "check")} == {"pz_driver", "pz_gunner", "pz_loader", "pz_co_driver"}


def test_enemy_ignores_a_friendly_half_track_beyond_4_hexes(tmp_path):
    """C2 31.10: Enemies fire at a Friendly Half-Track only within 4 hexes (8 for a Machine Gunner)."""
    ht = {"id": "ht", "type": "m3a1_half_track", "side": "friendly", "hex": "02.02", "facing": 3,
          "crew": {"driver": "drv"}}  # fmt: skip
    game = build(tmp_path, [man("drv", "19.11"), man("rifle", "01.10")], [man("jerry", "19.01")], [ht])
    v = game.state.vehicles["ht"]
    jerry = game.char("jerry")
    jerry.hex = towards(game, v.hex, 3, 5)
    assert not vehicle_targets.is_vehicle_target(game, v, jerry)
    jerry.hex = towards(game, v.hex, 3, 4)
    assert vehicle_targets.is_vehicle_target(game, v, jerry)
    jerry.hex = towards(game, v.hex, 3, 8)
    jerry.weapons = (CarriedWeapon("mg42", 5),)
    assert vehicle_targets.is_vehicle_target(game, v, jerry)


def test_rifle_fire_at_a_half_track_rolls_penetration(tmp_path):
    """C2 31.10.2, 31.10.4: a hit on a Half-Track's hull rolls penetration first ([house] rifles 1d3-1)."""
    ht = {"id": "ht", "type": "m3a1_half_track", "side": "enemy", "hex": "06.06", "facing": 2,
          "crew": {"driver": "hans"}}  # fmt: skip
    game = build(tmp_path, [man("rifle", "01.10")], [man("hans", "19.11"), man("jerry", "19.01")], [ht])
    v = game.state.vehicles["ht"]
    strike = vehicle_targets.strike_of(game, "m1_garand")
    script(game, [53, 2])  # side 53: hull, lower hull side armor 1; d3 of d6 face 2 = 1, minus 1 = 0
    rep = hits.hit_vehicle(game, v, strike, from_hex=H("01.10"), aspect=Arc.SIDE)
    assert rep["armor"] == 1 and rep["penetration"]["total"] == 0 and rep["penetrated"] is False


def test_passenger_neighbours_follow_the_rule_example(tmp_path):
    """C2 31.10.11: "If a Character in position 5 is killed ... MCs for positions 3, 4, 6, 7 and 8"."""
    v = Vehicle("t", "m3a1_half_track", "T", Side.ENEMY, H("01.01"), 1)
    v.seats = {f"passenger_{n}": Seat(f"passenger_{n}") for n in range(1, 11)}
    assert sorted(hits._adjacent(v, "passenger_5")) == sorted(
        ["passenger_3", "passenger_4", "passenger_6", "passenger_7", "passenger_8"]
    )
    assert hits._opposite(v, "passenger_3") == "passenger_4"


def test_bow_mg_fires_on_tq_minus_3_without_an_assistant(tmp_path):
    """C2 31.9.4 b: the Co-driver's bow MG uses his TQ - 3 (no assistant, 14.3) plus the speed modifier."""
    game, _, pz = _duel(tmp_path)
    rifle, cdr = game.char("rifle"), game.char("pz_co_driver")
    rifle.hex = towards(game, pz.hex, pz.facing, 4)
    pz.seats["co_driver"].marker = rifle.hex
    game.set_order(cdr, "aimed_fire")
    game.set_order(game.char("pz_driver"), "crawl")
    spotting.record_known_at_impulse_start(game)
    script(game, [9, 8, 8, 8])
    drive(machine_guns.fire_vehicle_mg(game, pz, cdr, "aimed_fire"))
    fire = events(game, "fire")[-1]
    mods = dict((k, v) for k, v in fire.data["modifiers"])
    assert fire.data["ws"] == cdr.tq and fire.data["weapon"] == "mg34"
    assert mods["no MG assistant"] == -3 and mods["firing vehicle Crawl"] == -2
    assert fire.data["nines_for_ammo"] == 1 and cdr.ammo.value == "low"


# ---------------------------------------------------------------------------
# Light AT: HEAT at soft targets (32.2), loading rules (32.1), Panzerfausts (32.3)


def _bazooka_team(tmp_path, target_hex: str = "12.02") -> Game:
    game = build(
        tmp_path,
        [man("ops", "12.07", weapon="bazooka"), man("ass", "12.07")],
        [man("hans", target_hex), man("fritz", target_hex)],
        [],
    )
    st = light_at.bazooka_state(game, game.char("ops"))
    st["loaded"] = True
    game.set_order(game.char("ops"), "fire_light_at")
    return game


def test_heat_direct_hit_kills_one_at_random_and_fragments_the_rest(tmp_path):
    """C2 32.2: a roll of 0 at a Building hex: one character (at random) killed, the others roll Far Frag."""
    game = _bazooka_team(tmp_path)
    # I2: TQC 0; to hit 0 (direct); pick Fritz; Hans rolls the far dice (house 1 die at 2): 9.
    script(game, [0, 0, 2, 9])
    step(game, "ops", "hex:12.02")
    rep = events(game, "light_at_fire")[-1].data["soft"]
    assert game.char("fritz").status is Status.DEAD and game.char("hans").is_active
    assert rep["frag"][0]["character"] == "hans" and rep["frag"][0]["dice"] == 1


def test_heat_close_and_far_by_the_operators_tq(tmp_path):
    """C2 32.2: a roll <= the modified TQ lands close (near Frag for everyone); above it, far."""
    game = _bazooka_team(tmp_path)
    tq = next(s for s in light_at.light_at_shots(game, game.char("ops"), house_data().weapons.get("bazooka")))
    script(game, [0, tq.total, 9, 9, 9, 9])
    step(game, "ops", "hex:12.02")
    rep = events(game, "light_at_fire")[-1].data["soft"]
    assert rep["near"] is True and [f["dice"] for f in rep["frag"]] == [2, 2]


def test_heat_only_at_building_rubble_rocks_abbey_fountain(tmp_path):
    """C2 32.2: Bazookas may fire at characters only in Building, Rubble, Rocks, Abbey or Fountain hexes."""
    game = _bazooka_team(tmp_path, target_hex="12.09")
    assert light_at.light_at_shots(game, game.char("ops"), house_data().weapons.get("bazooka")) == []


def test_loaded_bazooka_sprinting_loses_its_rocket(tmp_path):
    """C2 32.1: a faster move order than Sneak unloads a loaded Bazooka (the ammo is lost)."""
    game = _bazooka_team(tmp_path)
    ops = game.char("ops")
    game.set_order(ops, "sprint")
    assert light_at.light_at_order_placed(game, ops)
    assert not light_at.bazooka_state(game, ops)["loaded"]


def test_bazooka_without_rockets_in_the_hex_cannot_load(tmp_path):
    """C2 32.1: loading needs a Bazooka Ammo Marker in the hex."""
    game = _bazooka_team(tmp_path)
    ops, ass = game.char("ops"), game.char("ass")
    st = light_at.bazooka_state(game, ops)
    st["loaded"] = False
    ass.hex = H("01.01")
    game.set_order(ass, "load_light_at")
    game.set_order(ops, "load_light_at")
    script(game, [])
    step(game, "ops")
    assert not st["loaded"] and "no Bazooka rocket" in events(game, "light_at_load")[-1].text


def _pf_game(tmp_path, **enemy) -> Game:
    game = build(tmp_path, [man("rifle", "01.10")], [man("jerry", "19.01", **enemy)], [sherman()])
    sh = game.state.vehicles["sh"]
    jerry = game.char("jerry")
    jerry.hex = towards(game, sh.hex, 3, 4)
    game.state.flags[vehicle_targets.PANZERFAUST] = {"level": 2, "type": "panzerfaust_60"}
    return game


def test_panzerfaust_placement_passes_at_tq(tmp_path):
    """C2 32.3: an Enemy seeing a Friendly vehicle with a chance >= 0 rolls a TQC; at his TQ he takes one."""
    game = _pf_game(tmp_path)
    jerry = game.char("jerry")
    script(game, [jerry.tq])
    assert light_at.enemy_panzerfaust_check(game, jerry)
    assert any(w.weapon == "panzerfaust_60" for w in jerry.weapons) and jerry.order.order == "fire_light_at"
    assert game.state.flags[vehicle_targets.PANZERFAUST]["level"] == 1


def test_panzerfaust_placement_fails_above_tq(tmp_path):
    """C2 32.3: failing the TQC (TQ + 1) gives no Panzerfaust and keeps the Level."""
    game = _pf_game(tmp_path)
    jerry = game.char("jerry")
    script(game, [jerry.tq + 1])
    assert not light_at.enemy_panzerfaust_check(game, jerry)
    assert game.state.flags[vehicle_targets.PANZERFAUST]["level"] == 2 and len(jerry.weapons) == 1


def test_panzerfaust_never_for_officers_or_at_level_0(tmp_path):
    """C2 32.3: no roll for an Officer, nor when the Panzerfaust Level is 0."""
    game = _pf_game(tmp_path, ldr=2)
    script(game, [])
    assert not light_at.enemy_panzerfaust_check(game, game.char("jerry"))
    game.char("jerry").ldr = 0
    game.state.flags[vehicle_targets.PANZERFAUST]["level"] = 0
    assert not light_at.enemy_panzerfaust_check(game, game.char("jerry"))


def test_panzerfaust_fires_once_then_ducks_back(tmp_path):
    """C2 32.3: automatic on Impulse 4, one shot: the marker is removed and the Enemy Ducks Back."""
    game = _pf_game(tmp_path)
    jerry = game.char("jerry")
    script(game, [0])
    light_at.enemy_panzerfaust_check(game, jerry)
    game.state.flow.impulse = 4
    script(game, [9])  # to hit: a miss
    step(game, "jerry")
    shot = events(game, "light_at_fire")[-1]
    assert shot.data["fired"] and shot.data["automatic"] and shot.data["hit"] is False
    assert not any(w.weapon == "panzerfaust_60" for w in jerry.weapons) and jerry.order.order == "duck_back"


def test_dropped_panzerfaust_is_picked_up_with_a_tqc(tmp_path):
    """C2 32.3: a Friendly ending his activation on a dead holder's Panzerfaust picks it up on a TQC."""
    game = _pf_game(tmp_path)
    jerry, rifle = game.char("jerry"), game.char("rifle")
    script(game, [0])
    light_at.enemy_panzerfaust_check(game, jerry)
    wounds.kill(game, jerry, reason="test", rule="-")
    rifle.hex = jerry.hex
    script(game, [rifle.tq])
    assert light_at.panzerfaust_pickup(game, rifle)
    assert any(w.weapon == "panzerfaust_60" for w in rifle.weapons)
    pf = house_data().weapons.get("panzerfaust_60")
    shots = light_at.light_at_shots(game, rifle, pf)
    assert all(dict(s.terms)["Friendly with a Panzerfaust"] == -2 for s in shots)


# ---------------------------------------------------------------------------
# Fire in a vehicle (31.10.8)


def test_burning_vehicle_explodes_on_8(tmp_path):
    """C2 31.10.8 Turret/Engine Fire: at the end of a later turn, d10 8-9: the vehicle explodes."""
    game, _, pz = _duel(tmp_path)
    pz.on_fire = True
    game.state.flags[vehicle_targets.FIRE_STARTED] = {"pz": game.state.flow.turn - 1}
    script(game, [8])
    hazards.end_phase_vehicle_fires(game)
    assert pz.destroyed and all(game.char(f"pz_{p}").status is Status.DEAD for p in ("commander", "gunner"))


def test_fire_started_this_turn_is_not_rolled(tmp_path):
    """C2 31.10.8: the fire roll starts at the end of the turn after it caught fire."""
    game, _, pz = _duel(tmp_path)
    pz.on_fire = True
    game.state.flags[vehicle_targets.FIRE_STARTED] = {"pz": game.state.flow.turn}
    script(game, [])
    hazards.end_phase_vehicle_fires(game)
    assert pz.on_fire and not pz.destroyed


def test_track_hit_with_a_failed_commander_tqc_forces_bail_out(tmp_path):
    """C2 31.10.8 Track: AP immobilizes; the Commander's TQC fails: next turn the crew bail out."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m4_75mm", Ordnance.AP)
    script(game, [86, 9, 0])  # front 86: track [ALL]; Commander's TQC 9; his MC 0 (closed hatches ignore)
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert "immobilized" in pz.damage and "force_bail_out:crew" in pz.damage
    assert rep["track_tqc"]["passed"] is False
    assert game.char("pz_driver").order.order == "emergency_stop"


def test_enemy_periscope_hit_forces_button_up_next_turn(tmp_path):
    """C2 31.10.8 Periscope: the position cannot spot buttoned up; an Enemy gets Button/Open Up next turn."""
    game, sh, pz = _duel(tmp_path)
    script(game, [42])  # front 42-43: the Driver's periscope
    rifle = vehicle_targets.strike_of(game, "m1_garand")
    hits.hit_vehicle(game, pz, rifle, from_hex=sh.hex, aspect=Arc.FRONT)
    assert "periscope:driver" in pz.damage and "force_button_up:driver" in pz.damage


def test_hatch_hit_by_ap_on_a_closed_hatch_jams_it(tmp_path):
    """C2 31.10.8 Hatches: AP jams a closed hatch closed; a hit on a destroyed hatch is re-rolled."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m4_75mm", Ordnance.AP)
    script(game, [5])  # front 05-06: the Loader's hatch (closed)
    hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert pz.seats["loader"].hatch is Hatch.JAMMED_CLOSED
    script(game, [5, 99, 1])  # re-rolled to 99: suspension, immobilized; Commander's MC 1
    rep = hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert rep["percent"] == 99 and "re-rolled" in rep["notes"][0] and "immobilized" in pz.damage


def test_ap_at_an_open_hatch_kills_the_man_in_it(tmp_path):
    """C2 31.10.8 Hatches: AP on an open hatch kills its occupant (not on Hide); the crew then check."""
    game, sh, pz = _duel(tmp_path)
    strike = vehicle_targets.strike_of(game, "m4_75mm", Ordnance.AP)
    script(game, [0, 0, 0, 0, 0])  # front 00-02: the Commander's hatch (open); four crew MCs
    hits.hit_vehicle(game, pz, strike, from_hex=sh.hex, aspect=Arc.FRONT)
    assert game.char("pz_commander").status is Status.DEAD and pz.seats["commander"].hatch is Hatch.OPEN
