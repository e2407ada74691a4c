"""Card effects, event tables, grenades, smoke, fire, weather, Impulse 4 effects and victory
(base-rules §1 Step 1 e) and Step 5, §12-§15, §18-§19; C2 28.1, 29.1-29.5, 30)."""

from __future__ import annotations

import tempfile
import types
from pathlib import Path

import pytest
from conftest import house_data, make_game
from hypothesis import given, settings
from hypothesis import strategies as st

from solo.core.dice import Dice, ScriptedSource
from solo.core.errors import DataError
from solo.core.hexes import Hex
from solo.core.options import Options
from solo.data import event_tables
from solo.data.friendly_deck import EventTable, WoundStamp
from solo.data.tables import MoraleState
from solo.rules import (
    card_effects,
    effects,
    end_phase,
    event_cards,
    grenades,
    orders,
    smoke,
    terrain_fire,
    victory,
    weather,
)
from solo.rules.state import AmmoState, Side, Status, Wound

H = Hex.parse
TREES = H("01.16")
"""Trees on the town map; 01.17 and 01.18 below it are Trees too."""
ROAD = (H("15.09"), H("15.10"), H("15.11"))
"""Three open hexes in a straight line down the main street."""


def scenario(**over) -> dict:
    """A small town-map scenario (wind 4: smoke drifts down the map)."""
    sc = {
        "id": "effects_test",
        "name": "Effects test",
        "map": "town",
        "turns": 6,
        "wind": 4,
        "friendly": [
            {
                "id": "able",
                "name": "Able",
                "characters": [
                    {
                        "id": "able_1",
                        "name": "Sgt Lee",
                        "tq": 6,
                        "ldr": 2,
                        "weapons": [{"weapon": "m3_smg", "ws": 7}, {"weapon": "hand_grenade", "ws": 4}],
                        "hex": "05.15",
                    },
                    {
                        "id": "able_2",
                        "name": "Pvt Cole",
                        "tq": 5,
                        "weapons": [{"weapon": "m1_garand", "ws": 5}],
                        "hex": "05.16",
                    },
                    {
                        "id": "able_3",
                        "name": "Pvt Mays",
                        "tq": 5,
                        "skills": ["medic"],
                        "weapons": [{"weapon": "m1_garand", "ws": 5}],
                        "hex": "05.16",
                    },
                ],
            },
            {
                "id": "baker",
                "name": "Baker",
                "characters": [
                    {
                        "id": "baker_1",
                        "name": "Pvt Diaz",
                        "tq": 5,
                        "weapons": [{"weapon": "bar", "ws": 5}],
                        "hex": "09.15",
                    },
                ],
            },
        ],
        "enemy": [
            {
                "id": "red",
                "name": "Red",
                "alert": False,
                "characters": [
                    {
                        "id": "red_1",
                        "name": "Uffz. Krebs",
                        "tq": 5,
                        "ldr": 1,
                        "weapons": [{"weapon": "mp40", "ws": 5}],
                        "hex": "05.12",
                    },
                    {
                        "id": "red_2",
                        "name": "Gefr. Orth",
                        "tq": 5,
                        "weapons": [{"weapon": "kar98k", "ws": 4}],
                        "hex": "06.12",
                    },
                ],
            }
        ],
    }
    sc.update(over)
    return sc


def game(tmp_path, *, options: dict | None = None, **over):
    """A game of :func:`scenario` stopped at its first decision (turn 1)."""
    kw = {"options": Options.from_dict(options)} if options else {}
    return make_game(tmp_path, scenario(**over), **kw)


def script(g, rolls=(), cards=None) -> None:
    """From now on ``g`` rolls exactly ``rolls`` (then raises ChanceError); draws take the top card."""
    g.dice = Dice(ScriptedSource(list(rolls), cards=cards or {}), listener=g._on_roll)


def used_up(g) -> bool:
    """Every scripted roll was used."""
    return g.dice.source.remaining == ()


def patch_everywhere(monkeypatch, name: str, fake) -> None:
    """Replace the effect ``name`` in every rules module that holds it (they import it by name)."""
    import importlib
    import pkgutil

    import solo.rules as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        mod = importlib.import_module(f"solo.rules.{info.name}")
        if name in vars(mod):
            monkeypatch.setattr(mod, name, fake)


@pytest.fixture
def wounds(monkeypatch):
    """Record wound draws instead of making them: a list of (character id, cause)."""
    calls: list[tuple[str, str]] = []
    patch_everywhere(monkeypatch, "_wound", lambda g, ch, *, cause, rule: calls.append((ch.id, cause)))
    return calls


@pytest.fixture
def mcs(monkeypatch):
    """Record MCs instead of rolling them: a list of character ids."""
    calls: list[str] = []
    patch_everywhere(monkeypatch, "_morale_check", lambda g, ch, *, cause, rule: calls.append(ch.id))
    return calls


@pytest.fixture
def alerts(monkeypatch):
    """Record alert calls: a list of (hex, radius)."""
    calls: list[tuple[Hex, int]] = []
    patch_everywhere(monkeypatch, "_alert_near", lambda g, h, r, cause, rule: calls.append((h, r)))
    return calls


def card(card_id: str):
    return house_data().friendly_deck.card(card_id)


def next_turn(g) -> None:
    g.state.flow.turn += 1


# ---------------------------------------------------------------------------
# Card effects (base-rules §18)


def test_ws_card_applies_to_its_team_and_ends_with_the_turn(tmp_path):
    """§18: an Order card's WS modifier holds for its team this turn and is cleared in Step 5."""
    g = game(tmp_path)
    card_effects.apply_card_effect(g, card("f10"))  # Able +1 WS
    able, baker, red = g.char("able_1"), g.char("baker_1"), g.char("red_1")
    assert (
        card_effects.ws_bonus(g, able),
        card_effects.ws_bonus(g, baker),
        card_effects.ws_bonus(g, red),
    ) == (1, 0, 0)
    assert able.acted["card_ws"] == 1 and "card_ws" not in baker.acted
    end_phase.end_phase_environment(g)
    assert card_effects.ws_bonus(g, able) == 0 and "turn_effects" not in g.state.flags


def test_order_limit_card_forbids_orders_for_its_team_only(tmp_path):
    """§4, §18: card f47 forbids Sprint and Run & Gun to Baker team this turn."""
    g = game(tmp_path)
    card_effects.apply_card_effect(g, card("f47"))
    assert card_effects.forbidden_orders(g, g.char("baker_1")) == {"sprint", "run_and_gun"}
    assert card_effects.forbidden_orders(g, g.char("able_1")) == frozenset()


def test_discard_card_played_to_the_track_has_no_effect(tmp_path):
    """5.1: a Discard card played to the track counts for its values only."""
    g = game(tmp_path)
    card_effects.apply_card_effect(g, card("f02"))
    assert card_effects.turn_effects(g) == []
    assert g.events[-1].kind == "card_effect" and "only its values" in g.events[-1].text


def test_reroll_card_is_spent_once(tmp_path):
    """§18: card f25 allows one spotting re-roll this turn, and only one."""
    g = game(tmp_path)
    card_effects.apply_card_effect(g, card("f25"))
    assert card_effects.rerolls_left(g, "spot") == 1 and card_effects.rerolls_left(g, "fire") == 0
    assert card_effects.use_reroll(g, "spot") is True
    assert card_effects.use_reroll(g, "spot") is False


def test_team_extra_move_once_per_character(tmp_path):
    """§18: card f01 gives each Able character one extra hex in one Impulse, Baker none."""
    g = game(tmp_path)
    card_effects.apply_card_effect(g, card("f01"))
    a1, a2 = g.char("able_1"), g.char("able_2")
    assert card_effects.use_extra_move(g, a1) == 1
    assert card_effects.extra_move_hexes(g, a1) == 0
    assert card_effects.extra_move_hexes(g, a2) == 1
    assert card_effects.extra_move_hexes(g, g.char("baker_1")) == 0


def test_one_character_extra_move_goes_to_the_first_who_uses_it(tmp_path):
    """§18 [house]: without a choice, card f39's two extra hexes go to whoever uses them first."""
    g = game(tmp_path)
    card_effects.apply_card_effect(g, card("f39"))
    assert card_effects.use_extra_move(g, g.char("baker_1")) == 2
    assert card_effects.extra_move_hexes(g, g.char("able_1")) == 0


def test_morale_card_near_leader_stops_at_aggressive(tmp_path):
    """§7, §18: card f38 raises morale within LDR range of a leader; gains stop at Aggressive."""
    g = game(tmp_path)
    a2, baker = g.char("able_2"), g.char("baker_1")
    a2.morale = MoraleState.AGGRESSIVE
    g.char("able_3").morale = MoraleState.SHAKEN
    card_effects.apply_card_effect(g, card("f38"))  # Sgt Lee LDR 2 on 05.15
    assert a2.morale is MoraleState.AGGRESSIVE
    assert g.char("able_3").morale is MoraleState.CAUTIOUS
    assert g.char("able_1").morale is MoraleState.BOLD
    assert baker.morale is MoraleState.NORMAL  # 4 hexes away


def test_one_character_cards_help_the_one_most_in_need_or_the_chosen(tmp_path):
    """§18: card f29 removes a Light Wound from the chosen man, else [house] the most wounded."""
    g = game(tmp_path)
    a2, a3 = g.char("able_2"), g.char("able_3")
    a2.wounds[:] = [Wound.LIGHT]
    a3.wounds[:] = [Wound.LIGHT, Wound.LIGHT]
    assert [k for k, _ in card_effects.card_effect_options(g, card("f29"))] == ["able_3", "able_2"]
    card_effects.apply_card_effect(g, card("f29"))
    assert a3.wounds == [Wound.LIGHT]
    card_effects.apply_card_effect(g, card("f29"), choice="able_2")
    assert a2.wounds == []


def test_ammo_card_returns_a_team_to_full(tmp_path):
    """§18: card f35 returns every Baker character to Full ammo, no one else."""
    g = game(tmp_path)
    g.char("baker_1").ammo = AmmoState.NO
    g.char("able_2").ammo = AmmoState.LOW
    card_effects.apply_card_effect(g, card("f35"))
    assert g.char("baker_1").ammo is AmmoState.FULL and g.char("able_2").ammo is AmmoState.LOW


def test_friendly_initiative_swap(tmp_path):
    """§18: card f18 swaps two Friendly teams' initiatives (the chosen pair)."""
    g = game(tmp_path)
    g.state.teams["able"].initiative, g.state.teams["baker"].initiative = 10, 80
    card_effects.apply_card_effect(g, card("f18"), choice="able:baker")
    assert (g.state.teams["able"].initiative, g.state.teams["baker"].initiative) == (80, 10)


def test_swap_with_an_enemy_team_waits_for_the_enemy_initiative(tmp_path):
    """§18: card f46 is pending until the Enemy phase; [house] the last Friendly team swaps with the
    first Enemy team when that moves it earlier."""
    g = game(tmp_path)
    card_effects.apply_card_effect(g, card("f46"))
    st = g.state
    st.teams["able"].initiative, st.teams["baker"].initiative, st.teams["red"].initiative = 20, 70, 15
    assert card_effects.initiative_swap_options(g)[1][0] == "baker:red"
    card_effects.apply_initiative_swap(g)
    assert (st.teams["baker"].initiative, st.teams["red"].initiative) == (15, 70)
    assert card_effects.initiative_swap_options(g) is None


def test_event_order_card_rolls_the_table(tmp_path):
    """§18: card f20 rolls the Friendly Event table (roll 8: Static, no effect)."""
    g = game(tmp_path)
    script(g, [8])
    card_effects.apply_card_effect(g, card("f20"))
    ev = [e for e in g.events if e.kind == "event_table"][-1]
    assert ev.data == {"table": "friendly", "roll": 8, "kind": "nothing", "title": "Static"}


# ---------------------------------------------------------------------------
# Event tables (base-rules §18)


def test_shipped_event_tables_have_ten_entries_each():
    """§18: cards/events.yaml holds a Friendly and an Enemy table, one entry per d10 face."""
    t = event_tables.load_event_tables()
    assert sorted(e.roll for e in t.friendly) == list(range(10))
    assert sorted(e.roll for e in t.enemy) == list(range(10))
    assert t.edition == "house"


BROKEN_EVENTS = """\
edition: house
friendly:
  - {roll: 0, kind: support_fire, rounds: d8, title: A, text: a}
  - {roll: 0, kind: nothing, count: 2, title: B, text: b}
  - {roll: 2, kind: weather, title: C, text: c}
enemy:
  - {roll: 1, kind: extra_card, title: D, text: d}
  - {roll: 2, kind: sunshine, title: E, text: e}
"""


def test_broken_event_tables_report_every_problem_with_its_line(tmp_path):
    """§18: a broken events file names each problem at its file:line (unknown kind first)."""
    p = tmp_path / "events.yaml"
    p.write_text(BROKEN_EVENTS)
    with pytest.raises(DataError) as info:
        event_tables.load_event_tables(p)
    text = str(info.value)
    assert "events.yaml:8: unknown value 'sunshine'" in text
    p.write_text(BROKEN_EVENTS.replace("sunshine", "nothing"))
    with pytest.raises(DataError) as info:
        event_tables.load_event_tables(p)
    lines = str(info.value).splitlines()
    assert any(":3: kind 'support_fire' needs 'calibre'" in x for x in lines)
    assert any(":3: rounds 'd8' must be one of: d6, d10" in x for x in lines)
    assert any(":4: roll 0 repeated (first on line 3)" in x for x in lines)
    assert any(":4: 'count' does not apply to kind 'nothing'" in x for x in lines)
    assert any(":5: kind 'weather' needs 'weather'" in x for x in lines)
    assert any(":7: extra_card gives Friendly cards: Friendly table only" in x for x in lines)
    assert any(":2: the friendly table needs ten entries" in x for x in lines)


def test_friendly_event_card_heals_the_most_wounded(tmp_path):
    """§18 (roll 1, Aid Man): the Friendly character with most Light Wounds loses one."""
    g = game(tmp_path)
    g.char("able_2").wounds[:] = [Wound.BAD, Wound.LIGHT]
    script(g, [1])
    event_cards.resolve_event_card(g, card("friendly_event"))
    assert g.char("able_2").wounds == [Wound.BAD] and used_up(g)


def test_event_ammo_goes_first_to_men_out_of_ammo(tmp_path):
    """§18 (roll 2, Bandoliers): two characters to Full, those on No ammo first."""
    g = game(tmp_path)
    g.char("able_1").ammo = AmmoState.LOW
    g.char("able_2").ammo = AmmoState.LOW
    g.char("baker_1").ammo = AmmoState.NO
    script(g, [2])
    event_cards.resolve_event_card(g, card("friendly_event"))
    assert [g.char(c).ammo for c in ("able_1", "able_2", "baker_1")] == [
        AmmoState.FULL,
        AmmoState.LOW,
        AmmoState.FULL,
    ]


def test_event_extra_card_goes_to_the_hand(tmp_path):
    """§18 (roll 3, Runner): one Friendly card drawn into the hand."""
    g = game(tmp_path)
    before = len(g.state.cards.hand)
    script(g, [3])
    event_cards.resolve_event_card(g, card("friendly_event"))
    assert len(g.state.cards.hand) == before + 1


def test_event_reveals_the_nearest_unknown_enemy(tmp_path):
    """§18 (roll 5): the Unknown enemy nearest the squad becomes Known."""
    g = game(tmp_path)
    script(g, [5])
    event_cards.resolve_event_card(g, card("friendly_event"))
    assert g.char("red_1").revealed and not g.char("red_2").revealed


def test_other_table_is_followed_once(tmp_path):
    """§18 [house]: "roll the other table" is followed once; a second chain reads as nothing."""
    g = game(tmp_path)
    script(g, [7, 6])  # Friendly 7 -> Enemy table; Enemy 6 -> Friendly table again: stop
    event_cards.resolve_event_card(g, card("friendly_event"))
    assert used_up(g)
    assert [e.data["table"] for e in g.events if e.kind == "event_table"] == ["friendly", "enemy"]


def test_illumination_only_at_night(tmp_path):
    """§15, §18 (roll 6): by day nothing; at night a marker on a target-table hex of the enemy."""
    g = game(tmp_path)
    script(g, [6])
    event_cards.resolve_event_card(g, card("friendly_event"))
    assert g.state.markers.illuminated == []
    g = game(tmp_path, night=True)
    script(g, [6, 1])
    event_cards.resolve_event_card(g, card("friendly_event"))
    assert g.state.markers.illuminated == [H("06.12")]  # target table: 05.12, 06.12, 05.12...
    end_phase.end_phase_environment(g)
    assert g.state.markers.illuminated == []


def test_event_weather_change_rolls_the_new_maximum_los(tmp_path):
    """C2 28.1 (Friendly roll 9, Ground Mist): Mist, LOS 1d6+4."""
    g = game(tmp_path)
    script(g, [9, 3])
    event_cards.resolve_event_card(g, card("friendly_event"))
    assert (g.state.weather, g.state.max_los) == ("mist", 7)


def test_fog_after_mist_never_sees_further(tmp_path):
    """C2 28.1: a Fog roll above the Mist LOS gives the Mist LOS - 1."""
    g = game(tmp_path)
    g.state.weather, g.state.max_los = "mist", 5
    script(g, [6])
    weather.change_weather(g, "fog", cause="test")
    assert g.state.max_los == 4


def test_support_fire_rounds_scatter_and_wait_for_the_end_phase(tmp_path):
    """§14 (Friendly roll 0): d10 rounds of 60mm; each aims by d10 on the target table and
    scatters d6 direction, max(0, d6 - 2) hexes."""
    g = game(tmp_path)
    script(g, [0, 2, 0, 4, 3, 1, 6, 1])
    event_cards.resolve_event_card(g, card("friendly_event"))
    assert used_up(g)
    shells = g.state.markers.grenades
    assert [s["hex"] for s in shells] == ["05.13", "06.12"]  # 05.12 + 1 hex down; 06.12 no scatter
    assert {s["calibre"] for s in shells} == {"60mm"}


def test_a_zero_on_the_rounds_d10_fires_nothing(tmp_path):
    """§14: a 0 on the d10 for rounds means no round."""
    g = game(tmp_path)
    script(g, [0, 0])
    event_cards.resolve_event_card(g, card("friendly_event"))
    assert g.state.markers.grenades == [] and used_up(g)


# ---------------------------------------------------------------------------
# Off-board artillery (base-rules §14, house tq_minus_power; C2 29.1)


def test_shell_damage_is_tq_minus_power(tmp_path, wounds, mcs, alerts):
    """§14: in the hex d10 <= TQ - power (81mm: 4) is unharmed, else a wound draw; adjacent power 2."""
    g = game(tmp_path)
    g.state.markers.grenades.append(
        {"kind": "shell", "calibre": "81mm", "hex": "05.12", "thrower": None, "turn": 1}
    )
    script(g, [1, 4])  # red_1 in the hex: 1 <= 5-4 safe; red_2 adjacent: 4 > 5-2 hit
    grenades.end_phase_explosions(g)
    assert wounds == [("red_2", "a 81mm round on 05.12")]
    assert sorted(mcs) == ["red_1", "red_2"] and alerts == [(H("05.12"), 5)]
    assert g.state.markers.smoke[H("05.12")] == ["smoke"] and used_up(g)


def test_shell_in_trees_rolls_kindling(tmp_path, wounds, mcs, alerts):
    """C2 29.1: after an artillery attack, d10 <= the terrain's kindling value starts a fire."""
    g = game(tmp_path)
    g.state.markers.grenades.append(
        {"kind": "shell", "calibre": "105mm", "hex": str(TREES), "thrower": None, "turn": 1}
    )
    script(g, [2])
    grenades.end_phase_explosions(g)
    assert g.state.markers.fire == {TREES: "fire"}


# ---------------------------------------------------------------------------
# Grenades (base-rules §12)


def _grenade_order(g, cid, order, target):
    g.set_order(g.char(cid), order, target=target)
    return g.data.orders.get(order)


def test_grenade_targets_are_one_to_three_hexes_in_los(tmp_path):
    """§12: Grenade targets are hexes 1-3 away in LOS; a rifle grenade's 5-12."""
    g = game(tmp_path)
    a1 = g.char("able_1")
    keys = [k for k, _ in orders.order_targets(g, a1, g.data.orders.get("grenade"))]
    dists = {g.distance(a1.hex, H(k)) for k in keys}
    assert dists == {1, 2, 3} and all(g.sight(a1, H(k)).clear for k in keys)
    rifle = [k for k, _ in orders.order_targets(g, a1, g.data.orders.get("rifle_grenade"))]
    assert {g.distance(a1.hex, H(k)) for k in rifle} <= set(range(5, 13)) and rifle


def test_charge_targets_are_known_chargeable_enemies_within_four(tmp_path):
    """§11, §5.3: Charge targets Known enemies within 4, not a hex with 2+ defenders."""
    g = game(tmp_path)
    a1, r1, r2 = g.char("able_1"), g.char("red_1"), g.char("red_2")
    charge = g.data.orders.get("charge")
    assert orders.order_targets(g, a1, charge) is None  # nobody Known
    r1.revealed = r2.revealed = True
    assert [k for k, _ in orders.order_targets(g, a1, charge)] == ["red_1", "red_2"]
    r2.hex = r1.hex
    assert orders.order_targets(g, a1, charge) is None
    assert orders.order_targets(g, a1, g.data.orders.get("hide")) is None


def test_grenade_check_passes_at_tq_and_the_thrower_is_revealed(tmp_path):
    """§12 step 3: TQC at TQ 6 with a 6 passes: the grenade lands on the marker; thrower Spotted."""
    g = game(tmp_path)
    order = _grenade_order(g, "able_1", "grenade", "05.13")
    script(g, [6])
    grenades.throw(g, g.char("able_1"), order)
    rec = g.state.markers.grenades[0]
    assert (rec["hex"], rec["ws"], rec["thrower"]) == ("05.13", 4, "able_1")
    assert g.char("able_1").revealed and used_up(g)


def test_failed_grenade_check_deviates_one_hex_in_a_d6_direction(tmp_path):
    """§12 step 3: a 7 against TQ 6 fails; the d6 (3) moves it 1 hex toward direction 3."""
    g = game(tmp_path)
    order = _grenade_order(g, "able_1", "grenade", "05.13")
    script(g, [7, 3])
    grenades.throw(g, g.char("able_1"), order)
    assert g.state.markers.grenades[0]["hex"] == str(g.board.neighbour_hex(H("05.13"), 3))


def test_natural_nine_always_fails_the_grenade_check(tmp_path):
    """C2 23.1: a 9 fails the Grenade Check even for a TQ 10 thrower."""
    g = game(tmp_path)
    g.char("able_1").tq = 10
    order = _grenade_order(g, "able_1", "grenade", "05.13")
    script(g, [9, 1])
    grenades.throw(g, g.char("able_1"), order)
    assert g.state.markers.grenades[0]["hex"] == str(g.board.neighbour_hex(H("05.13"), 1))


def test_friendly_out_of_range_does_not_throw(tmp_path):
    """§12 [house]: a Friendly whose marker is out of range does not throw (no roll)."""
    g = game(tmp_path)
    order = _grenade_order(g, "able_1", "grenade", "05.10")  # 5 hexes
    script(g, [])
    grenades.throw(g, g.char("able_1"), order)
    assert g.state.markers.grenades == [] and g.events[-1].kind == "no_throw"


def test_enemy_retargets_to_the_nearest_spotted_friendly(tmp_path):
    """§12 step 2: an enemy's marker out of range moves to the nearest Spotted Friendly in range and LOS."""
    g = game(tmp_path)
    g.char("able_1").revealed = True
    order = _grenade_order(g, "red_1", "grenade", "05.19")
    script(g, [0])
    grenades.throw(g, g.char("red_1"), order)
    assert g.state.markers.grenades[0]["hex"] == "05.15"
    assert g.state.markers.grenades[0]["ws"] == grenades.GRENADE_DEFAULT_WS  # no grenade on his counter


def test_enemy_without_a_spotted_target_does_not_throw(tmp_path):
    """§12 step 2: with no Spotted Friendly in range and LOS the enemy does not throw."""
    g = game(tmp_path)
    order = _grenade_order(g, "red_1", "grenade", "05.19")
    script(g, [])
    grenades.throw(g, g.char("red_1"), order)
    assert g.state.markers.grenades == []


def test_smoke_grenade_end_of_turn_timing(tmp_path):
    """§12 (smoke_grenade_timing end_of_turn): nothing in turn T, Smoke in T+1, Fading in T+2, gone after."""
    g = game(tmp_path)
    order = _grenade_order(g, "able_1", "smoke_grenade", "05.13")
    script(g, [0])
    grenades.throw(g, g.char("able_1"), order)
    assert H("05.13") not in g.state.markers.smoke
    grenades.end_phase_explosions(g)
    end_phase.end_phase_environment(g)
    assert g.state.markers.smoke == {H("05.13"): ["smoke"]}
    next_turn(g)
    end_phase.end_phase_environment(g)
    assert g.state.markers.smoke == {H("05.14"): ["fading"]}  # faded and drifted with wind 4
    next_turn(g)
    end_phase.end_phase_environment(g)
    assert g.state.markers.smoke == {}


def test_smoke_grenade_immediate_timing(tmp_path):
    """§12 (smoke_grenade_timing immediate): Smoke at once in T, Fading in T+1."""
    g = game(tmp_path, options={"smoke_grenade_timing": "immediate"})
    order = _grenade_order(g, "able_1", "smoke_grenade", "05.13")
    script(g, [0])
    grenades.throw(g, g.char("able_1"), order)
    assert g.state.markers.smoke == {H("05.13"): ["smoke"]} and g.los.smoke_at(H("05.13")) == -4
    end_phase.end_phase_environment(g)
    assert g.state.markers.smoke == {H("05.14"): ["fading"]}


def _live_grenade(g, h: str, ws: int = 4, rng: int = 2) -> None:
    g.state.markers.grenades.append(
        {
            "kind": "grenade",
            "hex": h,
            "thrower": "able_1",
            "turn": 1,
            "ws": ws,
            "range": rng,
            "weapon": "hand_grenade",
        }
    )


def test_explosion_near_three_fragment_dice(tmp_path, wounds, mcs, alerts):
    """§12 step 5: Near on d10 <= WS 4 + C (+1: Waiting in the Open, G4) = 5; three dice at 4 + 1."""
    g = game(tmp_path)
    _live_grenade(g, "05.12")
    g.char("red_2").hex = None  # only red_1 there
    script(g, [5, 5, 6, 0])
    grenades.end_phase_explosions(g)
    assert wounds == [("red_1", "grenade fragment on 05.12")] * 2
    assert g.char("red_1").revealed and used_up(g)
    ev = next(e for e in g.events if e.kind == "fragments")
    assert ev.data["near"] and ev.data["hits"] == 2 and ev.data["fragment_target"] == 5


@pytest.mark.parametrize(("fragment", "hits"), [(3, 1), (4, 0)])
def test_explosion_far_one_fragment_die(tmp_path, wounds, mcs, alerts, fragment, hits):
    """§12 step 5: a 6 against 5 is Far: one die at 2 + 1 = 3 (a 3 hits, a 4 misses)."""
    g = game(tmp_path)
    _live_grenade(g, "05.12")
    g.char("red_2").hex = None
    script(g, [6, fragment])
    grenades.end_phase_explosions(g)
    assert len(wounds) == hits and used_up(g)


def test_natural_nine_is_always_far(tmp_path, wounds, mcs, alerts):
    """C2 23.1: a 9 on the Near/Far roll is Far even against WS 12."""
    g = game(tmp_path)
    _live_grenade(g, "05.12", ws=12)
    g.char("red_2").hex = None
    script(g, [9, 0])
    grenades.end_phase_explosions(g)
    ev = next(e for e in g.events if e.kind == "fragments")
    assert not ev.data["near"] and ev.data["fragments"] == [0] and len(wounds) == 1


def test_blast_mc_everyone_in_or_adjacent(tmp_path, wounds, mcs, alerts):
    """§12 step 6: everyone in the hex or adjacent takes an MC, hit or not; alert 5 within 5."""
    g = game(tmp_path)
    _live_grenade(g, "05.12")
    g.char("red_2").hex = None
    g.char("able_2").hex = H("05.13")  # adjacent
    script(g, [5, 0, 0, 0])
    grenades.end_phase_explosions(g)
    assert sorted(mcs) == ["able_2", "red_1"]
    assert alerts == [(H("05.12"), 5)]
    assert g.state.markers.smoke[H("05.12")] == ["fading"]


def test_blast_mc_only_if_unhurt_option(tmp_path, wounds, mcs, alerts):
    """§12 step 6 (blast_mc_only_if_unhurt): in the hex only those no die hit take the MC."""
    g = game(tmp_path, options={"blast_mc_only_if_unhurt": True})
    _live_grenade(g, "05.12")
    g.char("able_2").hex = H("05.13")
    script(g, [5, 0, 9, 9, 5, 9, 9, 9])  # red_1 hit once, red_2 missed
    grenades.end_phase_explosions(g)
    assert sorted(mcs) == ["able_2", "red_2"]


def test_grenade_cap_rules(tmp_path):
    """§12 step 7: the Building (M) cap holds from 2+ hexes, not from 1; Rocks never."""
    g = game(tmp_path)
    red = g.char("red_1")
    g.set_order(red, "hide")  # G0: Building -5M
    red.hex = H("08.16")  # a Building
    assert grenades._grenade_cell(g, red, {"range": 2}) == (-5, "building", True)
    assert grenades._grenade_cell(g, red, {"range": 1}) == (-5, "building", False)


def test_grenade_leaves_fading_smoke_for_one_turn(tmp_path, wounds, mcs, alerts):
    """§12 step 8, §13: the hex holds Fading Smoke next turn, then it is gone."""
    g = game(tmp_path)
    _live_grenade(g, "10.10")
    script(g, [])
    grenades.end_phase_explosions(g)
    end_phase.end_phase_environment(g)
    assert g.state.markers.smoke == {H("10.10"): ["fading"]}
    next_turn(g)
    end_phase.end_phase_environment(g)
    assert g.state.markers.smoke == {}


# ---------------------------------------------------------------------------
# Smoke (base-rules §13; C2 29.5)


def test_smoke_fades_and_drifts_but_not_in_the_turn_placed(tmp_path):
    """§13: Smoke placed this turn stays; next End Phase it becomes Fading and drifts 1 hex downwind."""
    g = game(tmp_path)
    smoke.place_smoke(g, ROAD[0], "smoke", cause="test")
    assert g.los.smoke_at(ROAD[0]) == -4
    end_phase.end_phase_environment(g)
    assert g.state.markers.smoke == {ROAD[0]: ["smoke"]}
    next_turn(g)
    end_phase.end_phase_environment(g)
    assert g.state.markers.smoke == {ROAD[1]: ["fading"]}
    assert (g.los.smoke_at(ROAD[0]), g.los.smoke_at(ROAD[1])) == (0, -2)


def test_smoke_drifting_off_the_map_is_removed(tmp_path):
    """§13: a marker blown off the map edge is gone."""
    g = game(tmp_path, wind=1)
    smoke.place_smoke(g, H("15.00"), "smoke", cause="test", placed=0)
    end_phase.end_phase_environment(g)
    assert g.state.markers.smoke == {}


def test_a_marker_placed_by_another_module_is_adopted(tmp_path):
    """§13: smoke written straight into markers.smoke fades and drifts like any other."""
    g = game(tmp_path)
    g.state.markers.smoke[ROAD[0]] = ["smoke"]
    end_phase.end_phase_environment(g)
    assert g.state.markers.smoke == {ROAD[1]: ["fading"]}


def test_heavy_smoke_blocks_los_for_a_low_tq_viewer(tmp_path):
    """C2 29.5: two Smoke markers (-8) on the line block LOS for TQ 4, not for TQ 5."""
    g = game(tmp_path)
    smoke.place_smoke(g, ROAD[1], "smoke", cause="test")
    smoke.place_smoke(g, ROAD[1], "smoke", cause="test")
    assert not g.los.check(ROAD[0], ROAD[2], viewer_tq=4).clear
    assert g.los.check(ROAD[0], ROAD[2], viewer_tq=5).clear


_SMOKE_OPS = st.lists(
    st.tuples(
        st.sampled_from(["place", "raw", "end", "fire"]),
        st.integers(0, 2),
        st.sampled_from(["smoke", "fading"]),
    ),
    max_size=12,
)


@settings(max_examples=25, deadline=None)
@given(_SMOKE_OPS)
def test_los_always_matches_the_markers(ops):
    """§13, C2 29.2: after any mix of smoke, fires and End Phases, game.los holds each hex's
    smoke modifier (Smoke -4, Fading -2, Fire -2, Raging -4) and fire flag."""
    g = game(Path(tempfile.mkdtemp()))
    hexes = ROAD
    for op, i, state in ops:
        if op == "place":
            smoke.place_smoke(g, hexes[i], state, cause="test")
        elif op == "raw":
            g.state.markers.smoke.setdefault(hexes[i], []).append(state)
            smoke.sync_los(g, hexes[i])
        elif op == "fire":
            terrain_fire.start_fire(g, hexes[i], cause="test")
        else:
            next_turn(g)
            script(g, [5] * 10)
            end_phase.end_phase_environment(g)
    m = g.state.markers
    for h in {*ROAD, *m.smoke, *m.fire}:
        want = sum(smoke.SMOKE_MODIFIER[s] for s in m.smoke.get(h, ())) + smoke.FIRE_SMOKE_MODIFIER.get(
            m.fire.get(h), 0
        )
        assert g.los.smoke_at(h) == want
        assert g.los.has_fire(h) is (h in m.fire)


# ---------------------------------------------------------------------------
# Fire (C2 29.1-29.5)


@pytest.mark.parametrize(
    ("weather", "face", "lit"),
    [("clear", 2, True), ("clear", 3, False), ("heavy_rain", 1, True), ("heavy_rain", 2, False)],
)
def test_kindling_in_trees(tmp_path, weather, face, lit):
    """C2 29.1-29.2: Trees kindle on d10 <= 2; Heavy Rain adds 1 to the roll."""
    g = game(tmp_path)
    g.state.weather = weather
    script(g, [face])
    assert terrain_fire.kindle(g, TREES, cause="test") is lit
    assert (TREES in g.state.markers.fire) is lit


def test_open_ground_does_not_burn(tmp_path):
    """C2 29.2: terrain without a kindling value takes no roll."""
    g = game(tmp_path)
    script(g, [])
    assert terrain_fire.kindle(g, ROAD[0], cause="test") is False


def test_fire_blocks_los_and_counts_as_smoke(tmp_path):
    """C2 29.2: a Fire blocks LOS through its hex and counts as Fading (-2); Raging as Smoke (-4)."""
    g = game(tmp_path)
    terrain_fire.start_fire(g, ROAD[1], cause="test")
    assert not g.los.check(ROAD[0], ROAD[2]).clear
    assert g.los.smoke_at(ROAD[1]) == -2
    g.state.markers.fire[ROAD[1]] = "raging"
    smoke.sync_los(g, ROAD[1])
    assert g.los.smoke_at(ROAD[1]) == -4
    terrain_fire.extinguish(g, ROAD[1], cause="test")
    assert g.los.check(ROAD[0], ROAD[2]).clear and g.los.smoke_at(ROAD[1]) == 0


def test_fire_does_no_damage_in_the_turn_it_starts(tmp_path, wounds):
    """C2 29.2: no wound draw the turn the fire starts; one the next turn; two for a Raging Fire."""
    g = game(tmp_path)
    g.char("able_2").hex = TREES
    terrain_fire.start_fire(g, TREES, cause="test")
    script(g, [])
    end_phase.end_phase_environment(g)
    assert wounds == []
    next_turn(g)
    script(g, [5])  # growth roll: burns on
    end_phase.end_phase_environment(g)
    assert wounds == [("able_2", f"Fire on {TREES}")]
    g.state.markers.fire[TREES] = "raging"
    next_turn(g)
    script(g, [9])  # spread roll to 01.17: no
    end_phase.end_phase_environment(g)
    assert len(wounds) == 3


@pytest.mark.parametrize(("face", "state"), [(2, "raging"), (3, "fire"), (9, None)])
def test_fire_growth(tmp_path, face, state):
    """C2 29.3: Trees grow to a Raging Fire on d10 <= 2; a 9 puts the fire out with its smoke."""
    g = game(tmp_path)
    terrain_fire.start_fire(g, TREES, cause="test")
    next_turn(g)
    script(g, [face])
    end_phase.end_phase_environment(g)
    assert g.state.markers.fire.get(TREES) == state
    below = g.board.neighbour_hex(TREES, 4)
    expected = {"raging": ["smoke"], "fire": ["fading"], None: None}[state]
    assert g.state.markers.smoke.get(below) == expected


@pytest.mark.parametrize(
    ("weather", "face", "spreads"),
    [("clear", 2, True), ("clear", 3, False), ("heavy_rain", 1, True), ("heavy_rain", 2, False)],
)
def test_raging_fire_spreads_downwind(tmp_path, weather, face, spreads):
    """C2 29.4: a Raging Fire spreads to the downwind Trees hex on d10 <= 2 (Heavy Rain +1)."""
    g = game(tmp_path)
    g.state.weather = weather
    terrain_fire.start_fire(g, TREES, cause="test")
    g.state.markers.fire[TREES] = "raging"
    next_turn(g)
    script(g, [face] + ([0] if weather == "heavy_rain" else []))  # then the mud roll
    end_phase.end_phase_environment(g)
    below = g.board.neighbour_hex(TREES, 4)
    assert (g.state.markers.fire.get(below) == "fire") is spreads
    if spreads:
        assert g.state.markers.fire_started[below] == g.state.flow.turn


def test_fire_smoke_plumes_downwind(tmp_path):
    """C2 29.2: a Fire adds a Fading marker downwind each turn to two; Raging flips them to
    Smoke and adds up to three."""
    g = game(tmp_path)
    terrain_fire.start_fire(g, TREES, cause="test")
    d1 = g.board.neighbour_hex(TREES, 4)
    d2 = g.board.neighbour_hex(d1, 4)
    d3 = g.board.neighbour_hex(d2, 4)
    for _ in range(2):
        next_turn(g)
        script(g, [5])
        end_phase.end_phase_environment(g)
    assert (g.state.markers.smoke.get(d1), g.state.markers.smoke.get(d2)) == (["fading"], ["fading"])
    next_turn(g)
    script(g, [0])  # the growth roll: Raging; no third marker for a Fire
    end_phase.end_phase_environment(g)
    assert [g.state.markers.smoke.get(x) for x in (d1, d2, d3)] == [["smoke"], ["smoke"], None]
    next_turn(g)
    terrain_fire.start_fire(g, d1, cause="test")  # nothing left to spread into
    script(g, [])
    end_phase.end_phase_environment(g)
    assert g.state.markers.smoke.get(d3) == ["smoke"]


# ---------------------------------------------------------------------------
# Weather (C2 28.1)


def test_heavy_rain_turns_to_mud_on_a_nine_only(tmp_path):
    """C2 28.1: at each end of turn in Heavy Rain a d10 of 9 (not 8) makes Mud; then no more rolls."""
    g = game(tmp_path)
    g.state.weather = "heavy_rain"
    script(g, [8])
    end_phase.end_phase_environment(g)
    assert g.state.ground == "normal"
    script(g, [9])
    end_phase.end_phase_environment(g)
    assert g.state.ground == "mud"
    script(g, [])
    end_phase.end_phase_environment(g)  # would raise ChanceError if it rolled again
    assert g.state.ground == "mud"


def test_setup_weather_rolls_a_missing_maximum_los(tmp_path):
    """C2 28.1: Fog without a maximum LOS rolls 1d6; one already set is kept."""
    g = game(tmp_path)
    g.state.weather, g.state.max_los = "fog", None
    script(g, [4])
    weather.setup_weather(g)
    assert g.state.max_los == 4
    script(g, [])
    weather.setup_weather(g)  # a second roll would raise ChanceError
    assert g.state.max_los == 4


# ---------------------------------------------------------------------------
# Start of activation and Impulse 4 (base-rules §4, §5.6, §7; 7.12, 7.14, 7.17; C2 30)


@pytest.mark.parametrize(
    ("face", "morale"), [(7, MoraleState.BOLD), (8, MoraleState.NORMAL), (0, MoraleState.AGGRESSIVE)]
)
def test_rally_check_adds_the_leaders_ldr(tmp_path, face, morale):
    """7.17 [house]: the RC is against TQ 5 + LDR 2 of the leader within 2 hexes = 7."""
    g = game(tmp_path)
    a2 = g.char("able_2")
    g.set_order(a2, "rally")
    g.state.flow.impulse = 1
    script(g, [face])
    assert orders.start_of_activation(g, a2) is True
    assert a2.morale is morale


def test_rally_check_only_on_impulse_one(tmp_path):
    """7.17: the Rally Check is rolled in Impulse 1 only."""
    g = game(tmp_path)
    g.set_order(g.char("able_2"), "rally")
    g.state.flow.impulse = 2
    script(g, [])
    assert orders.start_of_activation(g, g.char("able_2")) is True


def test_unprepared_enemy_does_nothing_this_activation(tmp_path):
    """§5.6: an Unprepared enemy alerted earlier draws his order now and does nothing more."""
    g = game(tmp_path)
    red = g.char("red_1")
    red.alert = True
    red.acted["unprepared_draw"] = True
    assert orders.start_of_activation(g, red) is False
    assert "unprepared_draw" not in red.acted
    assert orders.start_of_activation(g, red) is True


def test_reload_returns_ammo_to_full(tmp_path):
    """§4, 10.10: Reload on Impulse 4 makes ammo Full."""
    g = game(tmp_path)
    a2 = g.char("able_2")
    a2.ammo = AmmoState.NO
    orders.impulse_four_effects(g, a2, g.data.orders.get("reload"))
    assert a2.ammo is AmmoState.FULL


@pytest.mark.parametrize(
    ("trained", "face", "healed"), [(False, 5, True), (False, 6, False), (True, 7, True), (True, 8, False)]
)
def test_medical_aid_tqc(tmp_path, trained, face, healed):
    """7.14, C2 30.0: a TQC (TQ 5, trained medic +2) removes the newest wound of a comrade in the hex."""
    g = game(tmp_path)
    medic, patient = g.char("able_3"), g.char("able_2")
    medic.trained_medic = trained
    patient.wounds[:] = [Wound.LIGHT, Wound.BAD]
    script(g, [face])
    orders.impulse_four_effects(g, medic, g.data.orders.get("medical_aid"))
    assert patient.wounds == ([Wound.LIGHT] if healed else [Wound.LIGHT, Wound.BAD])


def test_medical_aid_revives_an_incapacitated_comrade(tmp_path):
    """§8 [house]: a Friendly brought below his TQ in wounds is active again."""
    g = game(tmp_path)
    patient = g.char("able_2")
    patient.wounds[:] = [Wound.LIGHT, Wound.LIGHT, Wound.BAD]  # 5 = TQ
    patient.status = Status.INCAPACITATED
    script(g, [0])
    orders.impulse_four_effects(g, g.char("able_3"), g.data.orders.get("medical_aid"))
    assert patient.status is Status.ACTIVE


def test_only_medics_give_medical_aid(tmp_path):
    """7.14: a man without the Medic skill or trained medic status cannot heal (no roll)."""
    g = game(tmp_path)
    g.char("able_3").wounds[:] = [Wound.LIGHT]
    script(g, [])
    orders.impulse_four_effects(g, g.char("able_2"), g.data.orders.get("medical_aid"))
    assert g.char("able_3").wounds == [Wound.LIGHT]


def test_search_reveals_unknowns_and_removes_dummies_within_one(tmp_path):
    """§4: Search reveals Unknown enemies within 1 hex; a dummy is removed; 2 hexes is too far."""
    g = game(tmp_path)
    a1, r1, r2 = g.char("able_1"), g.char("red_1"), g.char("red_2")
    r1.hex, r2.hex = H("05.14"), H("06.14")
    r2.dummy = True
    orders.impulse_four_effects(g, a1, g.data.orders.get("search"))
    assert r1.revealed and r2.hex is None and r2.status is not Status.ACTIVE
    r1.revealed, r1.hex = False, H("05.13")
    orders.impulse_four_effects(g, a1, g.data.orders.get("search"))
    assert not r1.revealed


def test_plan_sets_a_card_aside_for_a_leader_only(tmp_path):
    """7.12 [house]: a leader's Plan sets the top Friendly card aside; a non-leader's does nothing."""
    g = game(tmp_path)
    plan = g.data.orders.get("plan")
    orders.impulse_four_effects(g, g.char("able_2"), plan)
    assert g.state.cards.plan == []
    orders.impulse_four_effects(g, g.char("able_1"), plan)
    assert len(g.state.cards.plan) == 1


@pytest.mark.parametrize(("face", "cards"), [(2, 1), (3, 0)])
def test_plan_roll_option(tmp_path, face, cards):
    """7.12 (plan_roll): Plan also needs d10 <= LDR (2)."""
    g = game(tmp_path, options={"plan_roll": True})
    script(g, [face])
    orders.impulse_four_effects(g, g.char("able_1"), g.data.orders.get("plan"))
    assert len(g.state.cards.plan) == cards


# ---------------------------------------------------------------------------
# Victory (base-rules §19)

VICTORY = {"kill": 1, "leader_kill": 2, "friendly_killed": 2, "friendly_captured": 1}


def test_victory_points_and_winner(tmp_path):
    """§19: +1 per enemy killed, +2 per leader, -2 per Friendly killed; 9 VP is a marginal win."""
    g = game(tmp_path, victory=VICTORY)
    st = g.state
    for i in range(8):  # eight more enemies, all killed
        extra = g.char("red_2")
        clone = type(extra)(id=f"x{i}", name=f"X{i}", side=Side.ENEMY, team="red", tq=5, ldr=0, weapons=())
        clone.status = Status.DEAD
        st.characters[clone.id] = clone
    g.char("red_1").status = Status.DEAD  # a leader: 2
    g.char("baker_1").status = Status.DEAD  # -2
    victory.final_victory(g)
    assert st.vp["friendly"] == 8 and st.winner == "enemy"
    assert g.events[-1].data["band"] == "not enough"
    g.char("red_2").status = Status.ROUTED_OFF
    victory.final_victory(g)
    assert st.vp["friendly"] == 9 and st.winner == "friendly" and g.events[-1].data["band"] == "marginal"


def test_dummies_never_score_and_the_lonely_incapacitated_are_captured(tmp_path):
    """§19, C2 23.3: a dummy is no kill; an incapacitated man with no comrade within 2 is captured (-1)."""
    g = game(tmp_path, victory=VICTORY)
    r2 = g.char("red_2")
    r2.dummy, r2.status = True, Status.DEAD
    b1 = g.char("baker_1")
    b1.status = Status.INCAPACITATED
    victory.final_victory(g)
    assert b1.status is Status.PRISONER
    assert g.state.vp == {"friendly": -1, "enemy": 1}
    assert victory.vp_band(-1) == "demotion"


def test_victory_constants_without_a_scenario_section(tmp_path):
    """§19 [reconstructed]/[house]: without scenario values the module constants apply."""
    g = game(tmp_path)
    g.scenario = types.SimpleNamespace(**{k: getattr(g.scenario, k) for k in ("name", "turns", "night")})
    g.char("red_1").status = Status.DEAD
    g.char("baker_1").status = Status.DEAD
    victory.final_victory(g)
    assert g.state.vp["friendly"] == victory.VP_ENEMY_LEADER_KILLED + victory.VP_FRIENDLY_KILLED


def test_wound_stamps_are_drawn_through_combat(tmp_path):
    """§8: an End Phase wound goes through solo.rules.firing's wound draw (a KIA card kills)."""
    g = game(tmp_path)
    kia = next(c.id for c in house_data().friendly_deck.cards if c.stamp is WoundStamp.KIA)
    script(g, [], cards={"friendly": [kia]})
    effects._wound(g, g.char("red_2"), cause="test", rule="12")
    assert g.char("red_2").status is Status.DEAD


def test_event_table_entry_lookup():
    """§18: every roll 0-9 of both tables names an entry."""
    t = event_tables.load_event_tables()
    for table in EventTable:
        assert {t.entry(table, r).roll for r in range(10)} == set(range(10))


def test_blast_frag_is_not_an_option():
    """base-rules §14, Q22: oba_model takes only tq_minus_power; blast_frag is refused, not faked."""
    assert Options().oba_model == "tq_minus_power"
    with pytest.raises(ValueError, match="oba_model takes one of tq_minus_power"):
        Options.from_dict({"oba_model": "blast_frag"})
