"""Checks, morale, wounds, fire and melee (solo.rules.firing): base-rules §7, §8, §10, §11; C2 23-30."""

from __future__ import annotations

import functools
from pathlib import Path

import attrs
import pytest
from conftest import DATA_DIR, house_data, scenario_yaml

from solo.core.chance_records import Shuffle
from solo.core.dice import Dice, ScriptedSource
from solo.core.hexes import Hex
from solo.core.options import Options
from solo.data.friendly_deck import WoundStamp
from solo.data.house import HouseData
from solo.data.maps import load_map
from solo.data.scenario import load_scenario
from solo.data.tables import CheckKind, MoraleState, RollResult
from solo.enemy import alerting
from solo.engine.game import DecisionKind, Game
from solo.rules import fire_action, firing, melee, morale, spotting, wounds
from solo.rules.state import AmmoState, CarriedWeapon, Character, Status, Wound

# ---------------------------------------------------------------------------
# Test kit: the shipped data plus tests/data/combat_map.yaml, games built from rosters


@functools.cache
def combat_data() -> HouseData:
    """The house data with the combat test map added."""
    base = house_data()
    m = load_map(DATA_DIR / "combat_map.yaml", base.terrain)
    return attrs.evolve(base, maps={**base.maps, m.id: m})


def man(cid: str, hex_: str, *, tq: int = 5, ws: int = 5, weapon: str = "m1_garand", **kw) -> dict:
    """A roster entry with one weapon."""
    return {"id": cid, "name": cid.replace("_", " ").title(), "tq": tq, "hex": hex_,
            "weapons": [{"weapon": weapon, "ws": ws}], **kw}  # fmt: skip


def build(tmp_path: Path, friendly: list[dict], enemy: list[dict], **scenario) -> Game:
    """A game on the combat test map; the engine waits at its first decision (turn 1)."""
    doc = {
        "id": "combat_test",
        "name": "Combat test",
        "map": "combat_test",
        "turns": 3,
        "friendly": [{"id": "able", "name": "Able", "characters": friendly}],
        "enemy": [{"id": "red", "name": "Red", "alert": True, "characters": enemy}],
        **scenario,
    }
    p = tmp_path / "combat_scenario.yaml"
    p.write_text(scenario_yaml(doc))
    data = combat_data()
    game = Game(load_scenario(p, data), data, dice=Dice(7))
    for ch in game.state.characters.values():
        ch.revealed = True
    game.state.flow.impulse = 2
    return game


def move(game: Game, **where: str) -> None:
    """Put characters on hexes after set-up (the sides may not start in one hex)."""
    for cid, h in where.items():
        game.char(cid).hex = Hex.parse(h)


def script(game: Game, rolls: list[int], cards: list[str] = ()) -> ScriptedSource:
    """Force the next rolls and Friendly cards (no fallback: an unscripted roll is an error)."""
    src = ScriptedSource(rolls, cards={"friendly": list(cards)})
    game.dice = Dice(src, listener=game._on_roll)
    return src


def stamps(game: Game, stamp: WoundStamp, n: int = 1) -> list[str]:
    """``n`` cards with ``stamp`` from the Friendly draw pile."""
    ids = [c for c in game.friendly_deck.in_draw_pile() if wounds._stamp_of(game, c) is stamp]
    return ids[:n]


def order(game: Game, ch: Character, order_id: str) -> None:
    game.set_order(ch, order_id, source="test")


def events(game: Game, kind: str) -> list:
    return [e for e in game.events if e.kind == kind]


def fire_at(game: Game, firer: str, target: str, order_id: str, weapon: int = 0) -> firing.FireSolution:
    """Resolve one fire action directly and return its solution."""
    f, t = game.char(firer), game.char(target)
    order(game, f, order_id)
    o = game.data.orders.get(order_id)
    sol = firing.fire_solution(game, f, t, f.weapons[weapon], o)
    assert sol is not None
    firing.resolve_fire(game, f, t, sol, o)
    return sol


def mods(sol: firing.FireSolution) -> dict[str, int]:
    return dict(sol.modifiers)


@pytest.fixture
def duel(tmp_path) -> Game:
    """Friendly able_1 (TQ 5, Garand WS 5) at 02.06; Enemy red_1 (TQ 5) at 02.10, 4 hexes, Open."""
    g = build(tmp_path, [man("able_1", "02.06")], [man("red_1", "02.10", weapon="kar98k", ws=4)])
    order(g, g.char("red_1"), "aimed_fire")  # G2: Open 0
    return g


# ---------------------------------------------------------------------------
# §7 checks


@pytest.mark.parametrize(
    ("kind", "start", "roll", "after"),
    [
        (CheckKind.MC, MoraleState.NORMAL, 5, MoraleState.NORMAL),
        (CheckKind.MC, MoraleState.NORMAL, 6, MoraleState.CAUTIOUS),
        (CheckKind.MC, MoraleState.NORMAL, 9, MoraleState.SHAKEN),
        (CheckKind.MC, MoraleState.NORMAL, 0, MoraleState.BOLD),
        (CheckKind.MC, MoraleState.AGGRESSIVE, 0, MoraleState.BERSERK),
        (CheckKind.RC, MoraleState.SHAKEN, 5, MoraleState.CAUTIOUS),
        (CheckKind.RC, MoraleState.SHAKEN, 6, MoraleState.SHAKEN),
        (CheckKind.RC, MoraleState.SHAKEN, 9, MoraleState.ROUT),
        (CheckKind.RC, MoraleState.NORMAL, 0, MoraleState.AGGRESSIVE),
        (CheckKind.RC, MoraleState.BOLD, 0, MoraleState.AGGRESSIVE),
        (CheckKind.WMC, MoraleState.NORMAL, 0, MoraleState.NORMAL),
        (CheckKind.WMC, MoraleState.NORMAL, 5, MoraleState.CAUTIOUS),
        (CheckKind.WMC, MoraleState.NORMAL, 6, MoraleState.SHAKEN),
        (CheckKind.WMC, MoraleState.NORMAL, 9, MoraleState.ROUT),
    ],
)
def test_check_tables_at_thresholds(duel, kind, start, roll, after):
    """base-rules §7: MC/RC/WMC columns at TQ 5 (pass at 5, fail at 6, 9, natural 0; RC cap Aggressive)."""
    ch = duel.char("able_1")
    ch.morale = start
    script(duel, [roll])
    morale.check(duel, ch, kind, purpose="test")
    assert ch.morale is after


@pytest.mark.parametrize(
    ("roll", "modifier", "passed"), [(5, 0, True), (6, 0, False), (0, 0, True), (9, 5, False)]
)
def test_tqc_passes_or_fails_without_morale(duel, roll, modifier, passed):
    """base-rules §7, C2 23.1: a TQC passes at TQ, fails at TQ+1, and a natural 9 fails even at TQ 10."""
    ch = duel.char("able_1")
    script(duel, [roll])
    out = morale.check(duel, ch, CheckKind.TQC, modifier=modifier, purpose="test")
    assert out.passed is passed and ch.morale is MoraleState.NORMAL


def test_check_uses_effective_tq(duel):
    """base-rules §7: checks roll against TQ less wound penalties (TQ 5, Light Wound: 5 fails)."""
    ch = duel.char("able_1")
    ch.wounds.append(Wound.LIGHT)
    script(duel, [5])
    out = morale.check(duel, ch, CheckKind.MC, purpose="test")
    assert out.target == 4 and out.result is RollResult.FAILED


def test_failed_mc_gives_duck_back(duel):
    """base-rules §7, C2 31.10.6: a failed MC turns the order into Duck Back."""
    ch = duel.char("able_1")
    order(duel, ch, "rapid_fire")
    script(duel, [7])
    morale.morale_check(duel, ch, "test", "7")
    assert ch.order.order == "duck_back"


def test_failed_mc_in_melee_keeps_order(duel):
    """base-rules §7: no Duck Back for a failed MC in melee."""
    ch = duel.char("able_1")
    order(duel, ch, "melee")
    script(duel, [7])
    morale.morale_check(duel, ch, "test", "7", melee=True)
    assert ch.order.order == "melee" and ch.morale is MoraleState.CAUTIOUS


def test_change_morale_cap_never_worsens(duel):
    """base-rules §7: a gain stops at the cap and never lowers a state above it."""
    ch = duel.char("able_1")
    ch.morale = MoraleState.BOLD
    morale.change_morale(duel, ch, 2, MoraleState.AGGRESSIVE, "test", "7")
    assert ch.morale is MoraleState.AGGRESSIVE
    ch.morale = MoraleState.BERSERK
    morale.change_morale(duel, ch, 1, MoraleState.AGGRESSIVE, "test", "7")
    assert ch.morale is MoraleState.BERSERK


# ---------------------------------------------------------------------------
# §10 fire: the roll


def test_hit_at_modified_ws(duel):
    """base-rules §10: a roll equal to the modified WS hits (Garand 5, 4 hexes, Open G2: WS 5)."""
    script(duel, [5, 0], stamps(duel, WoundStamp.CLOSE_CALL))
    sol = fire_at(duel, "able_1", "red_1", "aimed_fire")
    assert sol.total == 5
    assert events(duel, "fire")[-1].data["hits"] == 1
    assert len(events(duel, "wound_draw")) == 1


def test_miss_at_modified_ws_plus_one(duel):
    """base-rules §10: a roll one over the modified WS misses (no wound draw)."""
    src = script(duel, [6])
    fire_at(duel, "able_1", "red_1", "aimed_fire")
    assert events(duel, "fire")[-1].data["hits"] == 0
    assert not events(duel, "wound_draw") and src.remaining == ()


def test_natural_9_misses_and_drops_ammo(duel):
    """base-rules §10, C2 23.1: a 9 misses even at WS 12 and drops ammo Full → Low → No."""
    f = duel.char("able_1")
    f.weapons = (CarriedWeapon("m1_garand", 12),)
    script(duel, [9, 9])
    fire_at(duel, "able_1", "red_1", "aimed_fire")
    assert f.ammo is AmmoState.LOW and events(duel, "fire")[-1].data["hits"] == 0
    fire_at(duel, "able_1", "red_1", "aimed_fire")
    assert f.ammo is AmmoState.NO


def test_no_ammo_cannot_fire_but_pistol_can(duel):
    """base-rules §10: No Ammo stops fire; pistols never lose ammunition [house: they still fire]."""
    f = duel.char("able_1")
    f.ammo = AmmoState.NO
    assert fire_action.fire_options(duel, f, duel.data.orders.get("rapid_fire")) == []
    f.weapons = (*f.weapons, CarriedWeapon("m1911", 5))
    opts = fire_action.fire_options(duel, f, duel.data.orders.get("rapid_fire"))
    assert [s.weapon for s in opts] == ["m1911"]


def test_pistol_never_loses_ammo(duel):
    """base-rules §10: a natural 9 with a pistol leaves ammo Full."""
    f = duel.char("able_1")
    f.weapons = (CarriedWeapon("m1911", 5),)
    script(duel, [9])
    fire_at(duel, "able_1", "red_1", "aimed_fire")
    assert f.ammo is AmmoState.FULL


def test_natural_0_hits_at_ws_0_and_raises_firer_morale(duel):
    """base-rules §7, §10: at modified WS 0 a natural 0 hits (+1 firer morale), a 1 misses."""
    f = duel.char("able_1")
    f.weapons = (CarriedWeapon("m1_garand", 0),)
    script(duel, [1])
    fire_at(duel, "able_1", "red_1", "aimed_fire")
    assert events(duel, "fire")[-1].data["hits"] == 0
    script(duel, [0, 0], stamps(duel, WoundStamp.CLOSE_CALL))
    fire_at(duel, "able_1", "red_1", "aimed_fire")
    assert events(duel, "fire")[-1].data["hits"] == 1 and f.morale is MoraleState.BOLD


def test_natural_0_morale_gain_capped_at_aggressive(duel):
    """base-rules §7: the natural-0 gain stops at Aggressive."""
    f = duel.char("able_1")
    f.morale = MoraleState.AGGRESSIVE
    script(duel, [0, 0], stamps(duel, WoundStamp.CLOSE_CALL))
    fire_at(duel, "able_1", "red_1", "aimed_fire")
    assert f.morale is MoraleState.AGGRESSIVE


@pytest.mark.parametrize(
    ("rolls", "hit"),
    [([1], False), ([0, 3], True), ([0, 4], False)],
)
def test_negative_ws_needs_natural_0_and_tqc(duel, rolls, hit):
    """base-rules §10: at WS -2 only a natural 0 hits, confirmed by a TQC at TQ 5 - 2 = 3."""
    f = duel.char("able_1")
    f.weapons = (CarriedWeapon("m1_garand", -2),)
    cards = stamps(duel, WoundStamp.CLOSE_CALL) if hit else []
    script(duel, [*rolls, 0] if hit else rolls, cards)
    sol = fire_at(duel, "able_1", "red_1", "aimed_fire")
    assert sol.total == -2
    assert events(duel, "fire")[-1].data["hits"] == int(hit)
    assert len(events(duel, "wound_draw")) == int(hit)


def test_firer_is_revealed(duel):
    """base-rules §9.8: a Hidden Friendly who fires becomes Spotted."""
    f = duel.char("able_1")
    f.revealed = False
    script(duel, [6])
    fire_at(duel, "able_1", "red_1", "aimed_fire")
    assert f.revealed


def test_knife_expert_throwing_from_cover_stays_hidden(tmp_path):
    """C2 24.1: a Knife Expert throwing his knife from Cover is not revealed; WS = TQ - range."""
    g = build(tmp_path, [man("able_1", "10.03", tq=6, skills=["knife_expert"])], [man("red_1", "11.03")])
    f = g.char("able_1")
    f.revealed = False
    order(g, f, "rapid_fire")
    knife = [w for w in firing.usable_weapons(g, f) if w.weapon == "knife"]
    sol = firing.fire_solution(g, f, g.char("red_1"), knife[0], g.data.orders.get("rapid_fire"))
    assert sol.ws == 6 and mods(sol)["range"] == -1
    script(g, [9])
    firing.resolve_fire(g, f, g.char("red_1"), sol, g.data.orders.get("rapid_fire"))
    assert not f.revealed and f.ammo is AmmoState.FULL


# ---------------------------------------------------------------------------
# §10 fire: hits, ROF, ammunition


def test_m_cell_hit_is_mc_only(tmp_path):
    """base-rules §10, 11.01: a hit on Rocks at G0 (-5M) causes an MC only, no wound draw."""
    g = build(tmp_path, [man("able_1", "08.05", ws=7)], [man("red_1", "08.08")])
    order(g, g.char("red_1"), "hide")
    script(g, [0, 2])
    sol = fire_at(g, "able_1", "red_1", "aimed_fire")
    assert sol.morale_only and sol.cell.modifier == -5
    assert not events(g, "wound_draw")
    assert events(g, "check")[-1].data["check"] == "mc"


def test_suppressive_fire_ignores_chart_and_hits_morale_only(duel):
    """base-rules §10: Suppressive Fire has no chart modifier and a hit is an MC only."""
    order(duel, duel.char("red_1"), "hide")  # G0 in the Open would be -2
    script(duel, [3, 2])
    sol = fire_at(duel, "able_1", "red_1", "suppressive_fire")
    assert not any(k.startswith("chart") for k in mods(sol))
    assert sol.total == 5 - 2
    assert not events(duel, "wound_draw") and events(duel, "check")[-1].data["check"] == "mc"


def test_rof_rolls_each_attack(tmp_path):
    """base-rules §10: an SMG rolls its ROF 3 at one target."""
    g = build(tmp_path, [man("able_1", "02.06", weapon="m3_smg", ws=7)], [man("red_1", "02.10")])
    src = script(g, [7, 8, 6])
    fire_at(g, "able_1", "red_1", "rapid_fire")
    assert len(events(g, "fire")[-1].data["rolls"]) == 3 and src.remaining == ()


def test_rof_stops_when_target_dies(tmp_path):
    """base-rules §10: the fire action stops once the target is killed."""
    g = build(tmp_path, [man("able_1", "02.06", weapon="m3_smg", ws=7)], [man("red_1", "02.10")])
    src = script(g, [1, 1, 1], stamps(g, WoundStamp.KIA))
    fire_at(g, "able_1", "red_1", "rapid_fire")
    assert g.char("red_1").status is Status.DEAD
    assert src.remaining == (1, 1)


def _mg_duel(tmp_path, *, assistant: bool) -> Game:
    enemy = [man("red_1", "02.02", weapon="mg42", mg_role="operator")]
    if assistant:
        enemy.append(man("red_2", "02.02", weapon="kar98k", ws=4, mg_role="assistant"))
    g = build(tmp_path, [man("able_1", "02.08")], enemy)
    order(g, g.char("able_1"), "aimed_fire")
    return g


def test_belt_mg_with_assistant_needs_two_nines(tmp_path):
    """14.3: with an assistant in the hex one 9 keeps ammo Full, two 9s drop it."""
    g = _mg_duel(tmp_path, assistant=True)
    script(g, [9, 7, 7, 7, 7])
    sol = fire_at(g, "red_1", "able_1", "rapid_fire")
    assert "no MG assistant" not in mods(sol) and g.char("red_1").ammo is AmmoState.FULL
    script(g, [9, 9, 7, 7, 7])
    fire_at(g, "red_1", "able_1", "rapid_fire")
    assert g.char("red_1").ammo is AmmoState.LOW


def test_belt_mg_without_assistant(tmp_path):
    """14.3: alone, a belt-fed MG fires at -3 and one 9 drops ammo."""
    g = _mg_duel(tmp_path, assistant=False)
    script(g, [9, 7, 7, 7, 7])
    sol = fire_at(g, "red_1", "able_1", "rapid_fire")
    assert mods(sol)["no MG assistant"] == -3 and g.char("red_1").ammo is AmmoState.LOW


def test_hit_alerts_and_fire_alerts(duel, monkeypatch):
    """base-rules §5.6: a fire action alerts within 10 hexes (1), a hit within 3 (3)."""
    calls = []
    monkeypatch.setattr(
        spotting, "alert_near", lambda g, h, r, reason, rule: calls.append((str(h), r)), raising=False
    )
    script(duel, [1, 0], stamps(duel, WoundStamp.CLOSE_CALL))
    fire_at(duel, "able_1", "red_1", "aimed_fire")
    assert calls == [("02.06", 10), ("02.10", 3)]


# ---------------------------------------------------------------------------
# Targets (C2 23.2-23.3), decisions


def test_friendly_fire_decision_and_hold(duel):
    """13.0: a Friendly firer chooses among Known enemies in LOS and range, or holds fire."""
    f = duel.char("able_1")
    order(duel, f, "rapid_fire")
    src = script(duel, [])
    gen = fire_action.fire_step(duel, f, duel.data.orders.get("rapid_fire"))
    d = next(gen)
    assert d.kind is DecisionKind.FIRE_TARGET and d.keys == ("red_1", "hold")
    with pytest.raises(StopIteration):
        gen.send("hold")
    assert src.remaining == () and events(duel, "no_fire")[-1].data["reason"] == "hold"


def test_friendly_fire_decision_keys_with_two_weapons(duel):
    """13.0: with two weapons that can fire the keys are 'target|weapon'."""
    f = duel.char("able_1")
    f.weapons = (CarriedWeapon("m3_smg", 7), CarriedWeapon("m1911", 5))
    order(duel, f, "rapid_fire")
    gen = fire_action.fire_step(duel, f, duel.data.orders.get("rapid_fire"))
    assert next(gen).keys == ("red_1|m3_smg", "red_1|m1911", "hold")
    script(duel, [8])
    with pytest.raises(StopIteration):
        gen.send("red_1|m1911")
    assert events(duel, "fire")[-1].data["weapon"] == "m1911"


def test_unknown_enemy_is_no_target(duel):
    """base-rules §10: Friendly fire needs a Known enemy."""
    duel.char("red_1").revealed = False
    assert fire_action.fire_options(duel, duel.char("able_1"), duel.data.orders.get("rapid_fire")) == []


def test_incapacitated_is_never_a_target(duel):
    """C2 23.3: an incapacitated Friendly is no target for enemy fire."""
    duel.char("able_1").status = Status.INCAPACITATED
    assert fire_action.fire_options(duel, duel.char("red_1"), duel.data.orders.get("rapid_fire")) == []


def test_no_fire_into_melee_hex(tmp_path):
    """C2 23.2: no fire into a hex where both sides are active (a melee hex)."""
    g = build(tmp_path, [man("able_1", "02.06"), man("able_2", "02.10")], [man("red_1", "03.10")])
    move(g, red_1="02.10")
    assert fire_action.fire_options(g, g.char("able_1"), g.data.orders.get("aimed_fire")) == []


def test_mixed_hex_needs_aimed_fire_rof_1_close(tmp_path):
    """C2 23.2 b: a hex with both sides: Aimed Fire, ROF 1 and at most 5 hexes."""
    g = build(tmp_path, [man("able_1", "02.06"), man("able_2", "02.10")], [man("red_1", "03.10")])
    move(g, red_1="02.10")
    g.char("able_2").status = Status.INCAPACITATED
    f = g.char("able_1")
    assert [s.target for s in fire_action.fire_options(g, f, g.data.orders.get("aimed_fire"))] == ["red_1"]
    assert fire_action.fire_options(g, f, g.data.orders.get("rapid_fire")) == []
    f.weapons = (CarriedWeapon("m3_smg", 7),)
    assert fire_action.fire_options(g, f, g.data.orders.get("aimed_fire")) == []


def test_crowded_hex_beyond_5_is_random(tmp_path):
    """C2 23.2 a: beyond 5 hexes a Friendly's target in a crowded hex is picked at random."""
    g = build(tmp_path, [man("able_1", "02.02")], [man("red_1", "02.09"), man("red_2", "02.09")])
    f = g.char("able_1")
    order(g, f, "rapid_fire")
    gen = fire_action.fire_step(g, f, g.data.orders.get("rapid_fire"))
    assert next(gen).keys == ("hex:02.09", "hold")
    script(g, [2, 8])
    with pytest.raises(StopIteration):
        gen.send("hex:02.09")
    assert events(g, "fire")[-1].data["target"] == "red_2"


def test_aimed_fire_needs_target_known_at_impulse_start(duel):
    """base-rules §10: Aimed Fire only at a target Known when the Impulse began."""
    f, t = duel.char("able_1"), duel.char("red_1")
    t.revealed = False
    spotting.record_known_at_impulse_start(duel)
    spotting.reveal(duel, t, reason="test", rule="9")
    aimed = duel.data.orders.get("aimed_fire")
    assert fire_action.fire_options(duel, f, aimed) == []
    assert fire_action.fire_options(duel, f, duel.data.orders.get("rapid_fire"))
    duel.state.flow.impulse = 4
    duel.emit("impulse", "Impulse 4.")
    assert [s.target for s in fire_action.fire_options(duel, f, aimed)] == ["red_1"]


def test_known_at_impulse_start_reads_this_impulses_spots(duel):
    """base-rules §10: without a snapshot, a target spotted in this Impulse was not Known at its start."""
    t = duel.char("red_1")
    assert spotting.known_at_impulse_start(duel, t)
    duel.emit("spot", "spotted", actor="able_1", data={"target": "red_1", "success": True})
    assert not spotting.known_at_impulse_start(duel, t)


def test_enemy_without_order_draws_when_fired_upon(duel, monkeypatch):
    """C2 23.5: with the optional activation rule an Enemy without an order draws it when fired upon."""
    monkeypatch.undo()
    if not hasattr(alerting, "assign_on_activation"):
        pytest.skip("solo.enemy.alerting has no assign_on_activation yet")
    duel.options = Options(optional_enemy_activation=True)
    t = duel.char("red_1")
    t.order = None
    duel.dice = Dice(5, listener=duel._on_roll)
    f = duel.char("able_1")
    rapid = duel.data.orders.get("rapid_fire")
    firing.resolve_fire(duel, f, t, firing.fire_solution(duel, f, t, f.weapons[0], rapid), rapid)
    assert t.order is not None or not t.is_active


def test_enemy_picks_easiest_target(tmp_path):
    """C2 23.2, 13.0: an Enemy fires at the easiest target (Open beats Trees)."""
    g = build(tmp_path, [man("able_1", "06.08"), man("able_2", "04.05")], [man("red_1", "05.03")])
    for cid in ("able_1", "able_2"):
        order(g, g.char(cid), "aimed_fire")
    r = g.char("red_1")
    order(g, r, "rapid_fire")
    script(g, [8])
    list(fire_action.fire_step(g, r, g.data.orders.get("rapid_fire")))
    assert events(g, "fire")[-1].data["target"] == "able_2"


def test_enemy_spares_trained_medic_with_other_targets(tmp_path):
    """C2 30.1: an Enemy does not pick a Friendly trained medic while another target exists."""
    g = build(
        tmp_path,
        [man("able_1", "06.08"), man("able_2", "04.05", trained_medic=True)],
        [man("red_1", "05.03")],
    )
    r = g.char("red_1")
    order(g, r, "rapid_fire")
    script(g, [8])
    list(fire_action.fire_step(g, r, g.data.orders.get("rapid_fire")))
    assert events(g, "fire")[-1].data["target"] == "able_1"


def test_enemy_fires_on_lone_medic_only_if_tqc_plus_2_fails(tmp_path):
    """C2 30.1: with only a medic in sight the Enemy fires if he fails a TQC at TQ + 2."""
    g = build(tmp_path, [man("able_2", "04.05", trained_medic=True)], [man("red_1", "05.03")])
    r = g.char("red_1")
    order(g, r, "rapid_fire")
    src = script(g, [7])
    list(fire_action.fire_step(g, r, g.data.orders.get("rapid_fire")))
    assert not events(g, "fire") and src.remaining == ()
    script(g, [8, 9])
    list(fire_action.fire_step(g, r, g.data.orders.get("rapid_fire")))
    assert events(g, "fire")


def test_run_and_gun_without_target_moves(duel):
    """10.04: an Enemy on Run & Gun with no target moves 1 hex instead of firing."""
    r = duel.char("red_1")
    duel.char("able_1").revealed = False
    order(duel, r, "run_and_gun")
    list(fire_action.fire_step(duel, r, duel.data.orders.get("run_and_gun")))
    assert events(duel, "run_and_gun")


# ---------------------------------------------------------------------------
# Modifiers


def test_rain_beyond_2_hexes(tmp_path):
    """C2 28.1: rain -1 beyond 2 hexes, none at 2."""
    g = build(
        tmp_path, [man("able_1", "02.02")], [man("red_1", "02.05"), man("red_2", "02.04")], weather="rain"
    )
    f, o = g.char("able_1"), g.data.orders.get("rapid_fire")
    assert mods(firing.fire_solution(g, f, g.char("red_1"), f.weapons[0], o))["weather rain"] == -1
    assert "weather rain" not in mods(firing.fire_solution(g, f, g.char("red_2"), f.weapons[0], o))


def test_fog_minus_2(tmp_path):
    """C2 28.1: fog -2 beyond 2 hexes."""
    g = build(tmp_path, [man("able_1", "02.02")], [man("red_1", "02.05")], weather="fog")
    g.state.max_los = None  # the fog's rolled LOS limit is not what this test is about
    f = g.char("able_1")
    sol = firing.fire_solution(g, f, g.char("red_1"), f.weapons[0], g.data.orders.get("rapid_fire"))
    assert mods(sol)["weather fog"] == -2


def test_weather_spares_fire_within_one_building(tmp_path):
    """C2 28.1: no weather modifier when both are in the same building; another building counts."""
    g = build(
        tmp_path, [man("able_1", "10.05")], [man("red_1", "14.05"), man("red_2", "17.05")], weather="mist"
    )
    f, o = g.char("able_1"), g.data.orders.get("rapid_fire")
    assert "weather mist" not in mods(firing.fire_solution(g, f, g.char("red_1"), f.weapons[0], o))
    f.hex = Hex(14, 4)
    assert mods(firing.fire_solution(g, f, g.char("red_2"), f.weapons[0], o))["weather mist"] == -1


def test_night_minus_2_unless_both_in_buildings(tmp_path):
    """§15: night -2 beyond 2 hexes, not when both men are in Building hexes (§20 Q21)."""
    g = build(
        tmp_path,
        [man("able_1", "02.02"), man("able_2", "14.05")],
        [man("red_1", "02.05"), man("red_2", "17.05")],
        night=True,
    )
    o = g.data.orders.get("rapid_fire")
    f = g.char("able_1")
    assert mods(firing.fire_solution(g, f, g.char("red_1"), f.weapons[0], o))["night"] == -2
    f2 = g.char("able_2")
    assert "night" not in mods(firing.fire_solution(g, f2, g.char("red_2"), f2.weapons[0], o))


def test_sniper_plus_2_on_impulse_4(duel):
    """C2 24.1: a Sniper's Aimed shot on Impulse 4 gets +2 if he did not fire on Impulse 2."""
    f = duel.char("able_1")
    f.skills = ("sniper",)
    aimed = duel.data.orders.get("aimed_fire")
    duel.state.flow.impulse = 4
    assert mods(firing.fire_solution(duel, f, duel.char("red_1"), f.weapons[0], aimed))["sniper"] == 2
    f.acted["fired"] = [2]
    assert "sniper" not in mods(firing.fire_solution(duel, f, duel.char("red_1"), f.weapons[0], aimed))
    duel.state.flow.impulse = 2
    f.acted.clear()
    assert "sniper" not in mods(firing.fire_solution(duel, f, duel.char("red_1"), f.weapons[0], aimed))


def test_enemy_sniper_waits_on_impulse_2(duel):
    """C2 24.1: an Enemy sniper on Aimed Fire, target 3+ hexes away, holds his Impulse 2 shot on a TQC."""
    r = duel.char("red_1")
    r.skills = ("sniper",)
    src = script(duel, [4])
    list(fire_action.fire_step(duel, r, duel.data.orders.get("aimed_fire")))
    assert events(duel, "sniper") and not events(duel, "fire") and src.remaining == ()


def test_dodge_on_evade(duel):
    """C2 24.1: Dodge -1 / Dodge-2 -2 against a target on Evade only."""
    f, t = duel.char("able_1"), duel.char("red_1")
    o = duel.data.orders.get("rapid_fire")
    t.skills = ("dodge",)
    assert "dodge" not in mods(firing.fire_solution(duel, f, t, f.weapons[0], o))
    order(duel, t, "evade")
    assert mods(firing.fire_solution(duel, f, t, f.weapons[0], o))["dodge"] == -1
    t.skills = ("dodge_2",)
    assert mods(firing.fire_solution(duel, f, t, f.weapons[0], o))["dodge-2"] == -2


def test_scope_on_aimed_fire_beyond_3(duel):
    """C2 26.0: the M1903 scope adds +1 to Aimed Fire beyond 3 hexes only."""
    f, t = duel.char("able_1"), duel.char("red_1")
    f.weapons = (CarriedWeapon("m1903", 5),)
    assert (
        mods(firing.fire_solution(duel, f, t, f.weapons[0], duel.data.orders.get("aimed_fire")))["scope"] == 1
    )
    assert "scope" not in mods(
        firing.fire_solution(duel, f, t, f.weapons[0], duel.data.orders.get("rapid_fire"))
    )
    t.hex = Hex(2, 9)
    assert "scope" not in mods(
        firing.fire_solution(duel, f, t, f.weapons[0], duel.data.orders.get("aimed_fire"))
    )


def test_stg44_rof_by_range(tmp_path):
    """C2 26.0: the StG 44 has ROF 3 to 13 hexes and 1 beyond."""
    g = build(tmp_path, [man("able_1", "00.11", weapon="stg44")], [man("red_1", "13.11")])
    f, t = g.char("able_1"), g.char("red_1")
    o = g.data.orders.get("rapid_fire")
    near = next(h for h in g.board.hexes if h.row == 11 and g.distance(f.hex, h) == 13)
    far = next(h for h in g.board.hexes if h.row == 11 and g.distance(f.hex, h) == 14)
    t.hex = near
    assert firing.fire_solution(g, f, t, f.weapons[0], o).rof == 3
    t.hex = far
    assert firing.fire_solution(g, f, t, f.weapons[0], o).rof == 1


def test_firing_from_wire(tmp_path):
    """C2 27.7: -1 WS for firing from a Barbed Wire hex."""
    g = build(tmp_path, [man("able_1", "03.03")], [man("red_1", "03.06")])
    f = g.char("able_1")
    sol = firing.fire_solution(g, f, g.char("red_1"), f.weapons[0], g.data.orders.get("rapid_fire"))
    assert mods(sol)["firing from wire"] == -1


def test_wounds_and_morale_modify_ws(duel):
    """base-rules §10: the firer's wounds (-1 Light) and morale (Shaken -2) modify his WS."""
    f = duel.char("able_1")
    f.wounds.append(Wound.LIGHT)
    f.morale = MoraleState.SHAKEN
    sol = firing.fire_solution(duel, f, duel.char("red_1"), f.weapons[0], duel.data.orders.get("aimed_fire"))
    assert sol.total == 5 - 1 - 2


def test_foxhole_gives_the_better_row(tmp_path):
    """C2 27.6: a foxhole uses the better row: Open+foxhole G0 -4; Trees+foxhole G5 keeps Trees -2."""
    g = build(tmp_path, [man("able_1", "07.02")], [man("red_1", "07.05"), man("red_2", "05.08")])
    order(g, g.char("red_1"), "hide")
    order(g, g.char("red_2"), "search")
    f = g.char("able_1")
    cell, row, _ = firing.fire_cell(g, f, g.char("red_1"))
    assert (row, cell.modifier) == ("foxhole", -4)
    cell, row, _ = firing.fire_cell(g, f, g.char("red_2"))
    assert (row, cell.modifier) == ("trees", -2)


def test_hedge_hexside_on_target_edge(tmp_path):
    """base-rules §9.5, §10: fire crossing a hedge hexside into the target's hex uses the Hedge row."""
    g = build(tmp_path, [man("able_1", "14.11"), man("able_2", "14.06")], [man("red_1", "14.08")])
    order(g, g.char("red_1"), "aimed_fire")
    assert firing.fire_cell(g, g.char("able_1"), g.char("red_1"))[1] == "hedge"
    assert firing.fire_cell(g, g.char("able_2"), g.char("red_1"))[1] == "open"


def test_abbey_rows_by_firer_position(tmp_path):
    """C2 27.5: the Abbey line depends on whether the firer is inside or outside the Abbey."""
    g = build(tmp_path, [man("able_1", "18.06"), man("able_2", "18.10")], [man("red_1", "18.09")])
    order(g, g.char("red_1"), "aimed_fire")
    assert firing.fire_cell(g, g.char("able_1"), g.char("red_1"))[1] == "abbey_outside"
    assert firing.fire_cell(g, g.char("able_2"), g.char("red_1"))[1] == "abbey_inside"


# ---------------------------------------------------------------------------
# §8 wounds


def test_tough_keeps_the_lesser(duel):
    """C2 24.1: Tough draws two cards and keeps the less damaging."""
    t = duel.char("red_1")
    t.skills = ("tough",)
    script(duel, [], [*stamps(duel, WoundStamp.KIA), *stamps(duel, WoundStamp.LIGHT)])
    assert wounds.wound_draw(duel, t) is WoundStamp.LIGHT


def test_deadly_takes_the_worse(duel):
    """C2 24.1: a Deadly firer draws two cards and takes the worse for the target."""
    script(duel, [], [*stamps(duel, WoundStamp.CLOSE_CALL), *stamps(duel, WoundStamp.BAD)])
    assert wounds.wound_draw(duel, duel.char("red_1"), deadly=True) is WoundStamp.BAD


def test_deadly_against_tough(duel):
    """C2 24.1: Deadly against Tough: the worse of two, twice, then the lesser of the two."""
    t = duel.char("red_1")
    t.skills = ("tough",)
    cards = [
        *stamps(duel, WoundStamp.CLOSE_CALL),
        *stamps(duel, WoundStamp.BAD),
        *stamps(duel, WoundStamp.LIGHT),
        *stamps(duel, WoundStamp.KIA),
    ]
    script(duel, [], cards)
    assert wounds.wound_draw(duel, t, deadly=True) is WoundStamp.BAD
    assert events(duel, "wound_draw")[-1].data["cards"] == cards


def test_event_card_in_wound_draw_draws_again_and_shuffles(duel):
    """base-rules §8 [house]: an Event card is drawn past, then deck and discards are shuffled."""
    script(duel, [], ["friendly_event", *stamps(duel, WoundStamp.LIGHT)])
    assert wounds.wound_draw(duel, duel.char("red_1")) is WoundStamp.LIGHT
    assert any(isinstance(r, Shuffle) and r.with_discards for r in duel.dice.history)
    assert duel.friendly_deck.discards == ()


def test_light_wound_from_fire(duel):
    """base-rules §8: a Light Wound: -1 TQ, Duck Back and a WMC."""
    t = duel.char("red_1")
    script(duel, [5])
    wounds.apply_wound(duel, t, WoundStamp.LIGHT, melee=False)
    assert t.wounds == [Wound.LIGHT] and t.effective_tq == 4
    assert t.order.order == "duck_back" and t.morale is MoraleState.SHAKEN


def test_bad_wound_in_melee_gives_mc_and_wmc_without_duck_back(duel):
    """base-rules §8: in melee a Bad Wound gives an MC and a WMC, no Duck Back."""
    t = duel.char("red_1")
    order(duel, t, "melee")
    src = script(duel, [0, 0])
    wounds.apply_wound(duel, t, WoundStamp.BAD, melee=True)
    assert t.effective_tq == 2 and t.order.order == "melee" and src.remaining == ()
    assert [e.data["check"] for e in events(duel, "check")] == ["mc", "wmc"]


def test_close_call_is_an_mc(duel):
    """base-rules §8: a Close Call is an MC; Duck Back if it fails."""
    t = duel.char("red_1")
    script(duel, [6])
    wounds.apply_wound(duel, t, WoundStamp.CLOSE_CALL, melee=False)
    assert t.wounds == [] and t.morale is MoraleState.CAUTIOUS and t.order.order == "duck_back"


def test_kia(duel):
    """base-rules §8: KIA kills."""
    wounds.apply_wound(duel, duel.char("able_1"), WoundStamp.KIA, melee=False)
    assert duel.char("able_1").status is Status.DEAD


def test_enemy_dies_when_wounds_reach_tq(duel):
    """base-rules §8: an enemy dies when his wound penalties reach his TQ (TQ 3, Bad Wound)."""
    t = duel.char("red_1")
    t.tq = 3
    src = script(duel, [])
    wounds.apply_wound(duel, t, WoundStamp.BAD, melee=False)
    assert t.status is Status.DEAD and src.remaining == ()


@pytest.mark.parametrize(("tq", "status"), [(4, Status.INCAPACITATED), (3, Status.DEAD), (5, Status.ACTIVE)])
def test_friendly_incapacitated_at_exactly_tq(duel, tq, status):
    """base-rules §8: wounds (Light + Bad = 4) exactly at TQ incapacitate a Friendly, above it kill."""
    ch = duel.char("able_1")
    ch.tq = tq
    ch.wounds.append(Wound.LIGHT)
    script(duel, [0])
    wounds.apply_wound(duel, ch, WoundStamp.BAD, melee=False)
    assert ch.status is status


def test_medic_down_rolls_morale(tmp_path):
    """C2 30.1: a Friendly trained medic killed: each Friendly with LOS rolls (natural 0: +2)."""
    g = build(
        tmp_path,
        [man("able_1", "02.02"), man("able_2", "02.04", trained_medic=True)],
        [man("red_1", "02.10")],
    )
    script(g, [0])
    wounds.apply_wound(g, g.char("able_2"), WoundStamp.KIA, melee=False)
    assert g.char("able_1").morale is MoraleState.AGGRESSIVE and g.state.flags["friendly_medic_hit"]


def test_mg_taken_over_by_comrade(tmp_path):
    """14.3: a comrade in the hex takes over the MG of a killed operator."""
    g = _mg_duel(tmp_path, assistant=True)
    wounds.apply_wound(g, g.char("red_1"), WoundStamp.KIA, melee=False)
    assert g.char("red_2").weapons[0] == CarriedWeapon("mg42", 4)


# ---------------------------------------------------------------------------
# §11 melee


@pytest.fixture
def brawl(tmp_path) -> Game:
    """Enemy red_1 (TQ 5, Charge, Aggressive, Unknown) and Friendly able_1 (Hide) in 05.05, Impulse 4."""
    g = build(tmp_path, [man("able_1", "05.05")], [man("red_1", "05.06")])
    move(g, red_1="05.05")
    r = g.char("red_1")
    r.revealed = False
    r.morale = MoraleState.AGGRESSIVE
    order(g, r, "charge")
    order(g, g.char("able_1"), "hide")
    g.state.flow.impulse = 4
    return g


def test_melee_tq_modifiers(brawl):
    """base-rules §11: 5 + Aggressive 2 + Charge 1 + unseen 2 + defender on Hide 2 (+1 Knife Expert)."""
    r, a = brawl.char("red_1"), brawl.char("able_1")
    charge = brawl.data.orders.get("charge")
    assert melee.melee_tq(brawl, r, a, charge)[0] == 12
    r.skills = ("knife_expert",)
    r.revealed = True
    order(brawl, a, "rapid_fire")
    assert melee.melee_tq(brawl, r, a, charge)[0] == 5 + 2 + 1 + 1


def test_melee_success_wounds_and_attacker_ducks_back(brawl):
    """base-rules §11: success → a melee wound draw (Light: MC + WMC) and the attacker takes Duck Back."""
    r, a = brawl.char("red_1"), brawl.char("able_1")
    src = script(brawl, [3, 2, 2], stamps(brawl, WoundStamp.LIGHT))
    list(melee.melee_step(brawl, r, brawl.data.orders.get("charge")))
    assert a.wounds == [Wound.LIGHT] and a.order.order == "hide"
    assert r.order.order == "duck_back" and src.remaining == ()
    assert events(brawl, "melee")[-1].data["melee_tq"] == 12
    assert r.revealed is False and a.revealed


def test_melee_natural_9_fails(brawl):
    """base-rules §11, C2 23.1: a natural 9 fails whatever the melee TQ."""
    r = brawl.char("red_1")
    script(brawl, [9])
    list(melee.melee_step(brawl, r, brawl.data.orders.get("charge")))
    assert not events(brawl, "wound_draw") and r.order.order == "charge"


def test_melee_fails_above_melee_tq(brawl):
    """base-rules §11: a roll over the melee TQ fails (Normal, Known attacker, defender on Rapid Fire)."""
    r = brawl.char("red_1")
    r.morale, r.revealed = MoraleState.NORMAL, True
    order(brawl, brawl.char("able_1"), "rapid_fire")
    order(brawl, r, "melee")
    script(brawl, [6])
    list(melee.melee_step(brawl, r, brawl.data.orders.get("melee")))
    assert events(brawl, "melee")[-1].data == {
        **events(brawl, "melee")[-1].data,
        "melee_tq": 5,
        "success": False,
    }


def test_rout_attacker_surrenders(brawl):
    """17.3: a Rout attacker surrenders and becomes a prisoner."""
    r = brawl.char("red_1")
    r.morale = MoraleState.ROUT
    src = script(brawl, [])
    list(melee.melee_step(brawl, r, brawl.data.orders.get("charge")))
    assert r.status is Status.PRISONER and src.remaining == ()


def test_enemy_melee_target_is_random(tmp_path):
    """base-rules §11 [house]: an Enemy picks his melee target by a logged random pick."""
    g = build(tmp_path, [man("able_1", "05.05"), man("able_2", "05.05")], [man("red_1", "05.06")])
    move(g, red_1="05.05")
    r = g.char("red_1")
    order(g, r, "melee")
    script(g, [2, 8])
    list(melee.melee_step(g, r, g.data.orders.get("melee")))
    assert events(g, "melee")[-1].data["target"] == "able_2"


def test_friendly_melee_decision_and_dummy_removed(tmp_path):
    """base-rules §3, §11: a Friendly chooses his melee target; a dummy attacked is removed."""
    g = build(
        tmp_path,
        [man("able_1", "05.06")],
        [{"id": "red_1", "hex": "05.05", "dummy": True}, man("red_2", "05.05")],
    )
    move(g, able_1="05.05")
    a = g.char("able_1")
    order(g, a, "melee")
    gen = melee.melee_step(g, a, g.data.orders.get("melee"))
    d = next(gen)
    assert d.kind is DecisionKind.FIRE_TARGET and d.keys == ("red_1", "red_2")
    src = script(g, [])
    with pytest.raises(StopIteration):
        gen.send("red_1")
    assert g.char("red_1").status is Status.EXITED and src.remaining == ()


def test_trained_medic_flees_melee(tmp_path):
    """C2 30.0: a trained medic with an opponent in his hex moves 1 hex in a d6 direction."""
    g = build(tmp_path, [man("able_1", "05.05", trained_medic=True)], [man("red_1", "05.06")])
    move(g, red_1="05.05")
    r = g.char("red_1")
    order(g, r, "melee")
    script(g, [1])
    list(melee.melee_step(g, r, g.data.orders.get("melee")))
    assert g.char("able_1").hex == Hex(5, 4) and not events(g, "melee")


def test_incapacitated_never_melee(tmp_path):
    """C2 23.3: an incapacitated character is no melee target."""
    g = build(tmp_path, [man("able_1", "05.05")], [man("red_1", "05.06")])
    move(g, red_1="05.05")
    g.char("able_1").status = Status.INCAPACITATED
    r = g.char("red_1")
    order(g, r, "melee")
    src = script(g, [])
    list(melee.melee_step(g, r, g.data.orders.get("melee")))
    assert events(g, "no_melee") and src.remaining == ()


def test_enemy_fire_through_the_ai_choice(duel, monkeypatch):
    """13.0, C2 23.2: the Enemy fires at the target and with the weapon solo.enemy.fire_choice picks."""
    r = duel.char("red_1")
    order(duel, duel.char("able_1"), "aimed_fire")
    order(duel, r, "rapid_fire")
    script(duel, [8])
    list(fire_action.fire_step(duel, r, duel.data.orders.get("rapid_fire")))
    assert events(duel, "fire")[-1].data["target"] == "able_1"
    assert events(duel, "fire_target")
