"""Enemy Card and Order Phase and Enemy order assignment (solo.enemy; base-rules §5, C2 23-30)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
import yaml
from conftest import house_data, scenario_yaml

from solo.core.dice import Dice, ScriptedSource
from solo.core.hexes import Hex
from solo.core.options import Options
from solo.data.cards import DirectionString
from solo.data.house import HouseData
from solo.data.maps import load_map
from solo.data.scenario import load_scenario
from solo.enemy import alerting, duck_back, fire_choice, order_phase
from solo.engine.game import Game
from solo.rules.state import AmmoState, Phase, Status, Wound

# A 10 x 10 test map (columns 00-09, rows 00-09; even columns half a hex lower).
#   trees 05.02 06.02; buildings 02.03 02.04 (they block 02.02 -> 02.05);
#   a fortified building at 08.04; barbed wire on open ground at 04.08 and 05.08.
MAP = {
    "id": "ai_test",
    "name": "AI test map",
    "columns": 10,
    "rows": 10,
    "short_columns": "none",
    "stagger": "even_low",
    "legend": {".": "open", "T": "trees", "B": "building", "F": "fortified_building"},
    "terrain": "\n".join(
        [
            "..... .....",
            "..... .....",
            "..... TT...",
            "..B.. .....",
            "..B.. ...F.",
            "..... .....",
            "..... .....",
            "..... .....",
            "..... .....",
            "..... .....",
        ]
    )
    + "\n",
    "elevation": "\n".join(["00000 00000"] * 10) + "\n",
    "overlays": [{"feature": "barbed_wire", "hexes": "04.08 05.08"}],
}

FAR = "04.00"
"""A Friendly hex more than 4 hexes from the usual Enemy hexes (no G/C check)."""


@pytest.fixture(scope="module")
def ai_data(tmp_path_factory: pytest.TempPathFactory) -> HouseData:
    """The house data plus the test map."""
    d = tmp_path_factory.mktemp("ai_map")
    p = d / "ai_test.yaml"
    p.write_text(yaml.safe_dump(MAP, sort_keys=False))
    base = house_data()
    return attrs.evolve(base, maps={**base.maps, "ai_test": load_map(p, base.terrain)})


def man(cid: str, hex_: str | None, **kw: Any) -> dict[str, Any]:
    """A character spec: TQ 5 with an MP40 (WS 5) unless told otherwise."""
    spec: dict[str, Any] = {"id": cid, "name": cid.capitalize(), "tq": 5, "hex": hex_}
    spec["weapons"] = kw.pop("weapons", [{"weapon": "mp40", "ws": 5}])
    spec.update(kw)
    return spec


@pytest.fixture
def build(tmp_path: Path, ai_data: HouseData):
    """``build(enemies, friendlies, rolls=..., cards=..., **scenario)``: a Game on the test map.

    Dice are strict (no fallback): an unscripted roll raises, so a test also
    proves which rolls were (not) made. Enemies form team Red (Alert) unless
    ``teams`` is given.
    """

    def make(
        enemies: list[dict] | None = None,
        friendlies: list[dict] | None = None,
        *,
        rolls: Sequence[int] = (),
        cards: Sequence[str] = (),
        teams: list[dict] | None = None,
        options: Options | None = None,
        alert: bool = True,
        prepared: bool = True,
        fallback: int | None = None,
        **extra: Any,
    ) -> Game:
        sc = {
            "id": "ai_case",
            "name": "AI case",
            "map": "ai_test",
            "turns": 3,
            "wind": 1,
            "friendly": [{"id": "able", "name": "Able", "characters": friendlies or [man("f1", FAR)]}],
            "enemy": teams
            or [
                {
                    "id": "red",
                    "name": "Red",
                    "alert": alert,
                    "prepared": prepared,
                    "characters": enemies or [],
                }
            ],
            **extra,
        }
        p = tmp_path / "scenario.yaml"
        p.write_text(scenario_yaml(sc))
        scenario = load_scenario(p, ai_data)
        dice = Dice(ScriptedSource(list(rolls), cards={"enemy": list(cards)}, fallback=fallback))
        return Game(scenario, ai_data, dice=dice, options=options)

    return make


def place(game: Game, cid: str, hex_: str) -> None:
    """Move ``cid`` to ``hex_`` (the scenario forbids the two sides starting in one hex)."""
    game.char(cid).hex = Hex.parse(hex_)


def orders_of(game: Game) -> list[Any]:
    """The enemy_order events so far."""
    return [e for e in game.events if e.kind == "enemy_order"]


def given(game: Game, cid: str) -> tuple[str, str | None, str | None]:
    """(order id, directions, target) held by character ``cid``."""
    o = game.char(cid).order
    assert o is not None, f"{cid} has no order"
    return (o.order, str(o.directions) if o.directions is not None else None, o.target)


def d10s(game: Game) -> list[int]:
    """The d10 faces rolled so far (from the roll events)."""
    return [e.data["total"] for e in game.events if e.kind == "roll" and e.data.get("kind") == "d10"]


# ---------------------------------------------------------------------------
# Card rows: morale x Cover/Open (base-rules §5.3 step 7)


@pytest.mark.parametrize(
    ("card", "hex_", "morale", "expected"),
    [
        ("e02", "04.04", "normal", ("sneak", "5/6", None)),  # Open/Normal 'SN 5/6 G'
        ("e03", "04.04", "bold", ("sprint", "5", None)),  # Open/Bold 'SP 5'
        ("e30", "04.04", "shaken", ("evade", "2/1", None)),  # Open/Shaken 'EV 2/1'
        ("e03", "04.04", "aggressive", ("run_and_gun", "5/4", None)),  # Open/Aggressive 'RG 5/4 GC'
        ("e07", "05.02", "normal", ("suppressive_fire", None, None)),  # Cover/Normal 'SF'
        ("e45", "05.02", "normal", ("evade", "5", None)),  # Cover/Normal 'EV 5'
        ("e01", "05.02", "cautious", ("rally", None, None)),  # Cover/Cautious 'RA'
        ("e01", "05.02", "bold", ("hide", None, None)),  # Cover/Bold 'HI'
    ],
)
def test_card_row_by_morale_and_cover(build, card, hex_, morale, expected) -> None:
    """base-rules §5.3 step 7: the entry read is the row of the Morale State in the Cover/Open table."""
    g = build([man("r1", hex_, morale=morale)], cards=[card])
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == expected
    ev = orders_of(g)[-1]
    assert ev.data["card"] == card
    assert ev.data["row"] == morale
    assert ev.data["column"] == ("cover" if hex_ == "05.02" else "open")


def test_event_reads_like_the_brief(build) -> None:
    """base-rules §5.3 steps 7-9: the event names card, initiative, Cover/Open, row, entry, check and rule."""
    g = build([man("r1", "04.04")], cards=["e02"])
    order_phase.enemy_card_and_order_phase(g)
    ev = orders_of(g)[-1]
    assert ev.text == (
        "R1 (Normal, in the Open) draws e02 (initiative 53): Open/Normal reads 'SN 5/6 G'; "
        "G check: no Spotted Friendly within 4 → Sneak 5/6 (9.1, §5.3 steps 7-9, 9.6)."
    )
    assert ev.data["entry"] == "SN 5/6 G"
    assert ev.data["initiative"] == 53
    assert "§5.3" in ev.rule


def test_dummy_is_ordered_like_an_unknown_enemy(build) -> None:
    """base-rules §3: a dummy reads the card like any Unknown enemy."""
    g = build([{"id": "d1", "hex": "04.04", "dummy": True}], cards=["e03"])
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "d1") == ("aimed_fire", None, None)  # Open/Normal 'AF C', no Friendly near


# ---------------------------------------------------------------------------
# Initiative, Waiting, already ordered (9.1, §5.6)


def test_team_initiative_is_the_first_card_drawn(build) -> None:
    """Rule 9.1: the first card drawn for a team sets its initiative, later cards do not."""
    g = build([man("r1", "04.04"), man("r2", "05.04")], cards=["e03", "e01"])
    order_phase.enemy_card_and_order_phase(g)
    red = g.state.teams["red"]
    assert (red.initiative, red.first_card) == (15, "e03")
    cards = g.state.cards.enemy_this_turn
    assert cards == {"team:red": "e03", "r1": "e03", "r2": "e01"}


def test_waiting_enemies_get_no_order_but_the_team_draws_for_initiative(build) -> None:
    """base-rules §5.6, rule 9.1: Waiting men get no order; the team still draws one card."""
    g = build([man("r1", "04.04"), man("r2", "05.04")], cards=["e07"], alert=False)
    order_phase.enemy_card_and_order_phase(g)
    assert g.char("r1").order is None and g.char("r2").order is None
    assert g.state.teams["red"].initiative == 71
    assert not orders_of(g)
    waiting = [e for e in g.events if e.kind == "enemy_waiting"]
    assert waiting and waiting[0].data["waiting"] == ["r1", "r2"]


def test_already_ordered_enemy_is_skipped(build) -> None:
    """base-rules §5.3 step 1: a man already holding an order draws no card."""
    g = build([man("r1", "04.04"), man("r2", "05.04")], cards=["e03", "e01"])
    g.set_order(g.char("r1"), "hide", source="test")
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("hide", None, None)
    assert g.state.cards.enemy_this_turn["r2"] == "e03"
    assert "r1" not in g.state.cards.enemy_this_turn


def test_every_team_is_placed_in_scenario_order(build) -> None:
    """base-rules §2: teams draw in scenario order; each gets its own initiative."""
    teams = [
        {"id": "red", "name": "Red", "alert": True, "characters": [man("r1", "04.04")]},
        {"id": "blue", "name": "Blue", "alert": False, "characters": [man("b1", "07.07")]},
    ]
    g = build(teams=teams, cards=["e41", "e20"])
    order_phase.enemy_card_and_order_phase(g)
    assert g.state.teams["red"].initiative == 1
    assert g.state.teams["blue"].initiative == 97


# ---------------------------------------------------------------------------
# G and C checks (5.3 step 8, 9.6)


@pytest.mark.parametrize(
    ("tq", "roll", "expected"),
    [
        (5, 5, ("grenade", "5/6", "04.07")),  # pass at TQ
        (5, 6, ("sneak", "5/6", None)),  # fail at TQ + 1
        (9, 9, ("sneak", "5/6", None)),  # a natural 9 always fails (C2 23.1)
        (1, 0, ("grenade", "5/6", "04.07")),  # a natural 0 passes
    ],
)
def test_grenade_check_thresholds(build, tq, roll, expected) -> None:
    """base-rules §5.3 step 8: G → TQC on effective TQ → Grenade at the Friendly's hex; the string is kept."""
    g = build([man("r1", "04.04", tq=tq)], [man("f1", "04.07", revealed=True)], rolls=[roll], cards=["e02"])
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == expected
    check = orders_of(g)[-1].data["checks"][0]
    assert (check["check"], check["target"], check["roll"]) == ("G", tq, roll)


def test_grenade_check_uses_wounded_tq(build) -> None:
    """base-rules §7: the TQC target is the effective TQ (a Light Wound is -1)."""
    g = build([man("r1", "04.04")], [man("f1", "04.07", revealed=True)], rolls=[5], cards=["e02"])
    g.char("r1").wounds.append(Wound.LIGHT)
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1")[0] == "sneak"
    assert orders_of(g)[-1].data["checks"][0]["target"] == 4


def test_no_check_without_a_spotted_friendly_within_4(build) -> None:
    """base-rules §5.3 step 8: a Hidden Friendly, or one 5 hexes away, allows no G check (no roll)."""
    g = build(
        [man("r1", "04.04")],
        [man("f1", "04.07"), man("f2", "04.09", revealed=True)],
        cards=["e02"],
    )
    assert g.distance(Hex.parse("04.04"), Hex.parse("04.09")) == 5
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("sneak", "5/6", None)
    assert d10s(g) == []


def test_check_needs_no_line_of_sight(build) -> None:
    """base-rules §5.3 step 8: LOS is not needed for the G check."""
    g = build([man("r1", "02.02")], [man("f1", "02.05", revealed=True)], rolls=[1], cards=["e02"])
    assert not g.sees(g.char("r1"), g.char("f1"))
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("grenade", "5/6", "02.05")


def test_incapacitated_friendly_is_no_target(build) -> None:
    """C2 23.3: an incapacitated Friendly allows no G or C check."""
    g = build([man("r1", "04.04", morale="aggressive")], [man("f1", "04.06", revealed=True)], cards=["e03"])
    g.char("f1").status = Status.INCAPACITATED
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("run_and_gun", "5/4", None)
    assert d10s(g) == []


def test_charge_check_comes_before_grenade_check(build) -> None:
    """base-rules §5.3 step 8: C is checked first; a pass gives Charge at the nearest chargeable Friendly."""
    g = build(
        [man("r1", "04.04", morale="aggressive")],
        [man("f1", "04.06", revealed=True)],
        rolls=[3],
        cards=["e03"],
    )
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("charge", "5/4", "f1")  # Open/Aggressive 'RG 5/4 GC'
    assert [c["check"] for c in orders_of(g)[-1].data["checks"]] == ["C"]


def test_failed_charge_check_falls_back_to_grenade(build) -> None:
    """base-rules §5.3 step 8: C failed → G check on that Friendly."""
    g = build(
        [man("r1", "04.04", morale="aggressive")],
        [man("f1", "04.06", revealed=True)],
        rolls=[7, 2],
        cards=["e03"],
    )
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("grenade", "5/4", "04.06")
    checks = orders_of(g)[-1].data["checks"]
    assert [(c["check"], c["passed"]) for c in checks] == [("C", False), ("G", True)]


def test_no_charge_into_a_fortified_building(build) -> None:
    """C2 27.2: no C check at a Friendly in a Fortified Building; the G check still applies."""
    g = build(
        [man("r1", "07.03", morale="aggressive")],
        [man("f1", "08.04", revealed=True)],
        rolls=[2],
        cards=["e03"],
    )
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("grenade", "5/4", "08.04")
    assert [c["check"] for c in orders_of(g)[-1].data["checks"]] == ["C", "G"]
    assert orders_of(g)[-1].data["checks"][0]["result"] == "no chargeable Friendly"


def test_no_charge_into_a_hex_with_two_defenders(build) -> None:
    """base-rules §11: a hex with two or more defenders cannot be charged."""
    g = build(
        [man("r1", "04.04", morale="aggressive")],
        [man("f1", "04.06", revealed=True), man("f2", "04.06")],
        rolls=[8],
        cards=["e03"],
    )
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("run_and_gun", "5/4", None)  # no C roll; G rolled 8 and failed
    assert d10s(g) == [8]


def test_charge_goes_to_the_nearest_chargeable_friendly(build) -> None:
    """base-rules §5.3 step 8: the nearest chargeable Friendly is the Charge target."""
    g = build(
        [man("r1", "04.04", morale="aggressive")],
        [man("f1", "04.07", revealed=True), man("f2", "04.05", revealed=True)],
        rolls=[0],
        cards=["e03"],
    )
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("charge", "5/4", "f2")


# ---------------------------------------------------------------------------
# Berserk, Rout (5.3 step 6)


def test_berserk_charges_along_the_berserk_string(build) -> None:
    """base-rules §5.3 step 6: Berserk → Charge + the card's berserk string, no G/C check."""
    g = build([man("r1", "04.04", morale="berserk")], [man("f1", "04.06", revealed=True)], cards=["e03"])
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("charge", "6", None)
    ev = orders_of(g)[-1]
    assert ev.data["entry"] == "berserk 6" and ev.data["row"] == "berserk"
    assert d10s(g) == []


def test_rout_evades_along_the_rout_string(build) -> None:
    """base-rules §5.3 step 6: Rout → Evade + the card's rout string."""
    g = build([man("r1", "05.02", morale="rout")], cards=["e02"])
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("evade", "2/3", None)
    assert "step 6" in orders_of(g)[-1].rule


# ---------------------------------------------------------------------------
# Conversions (5.3 step 9): No Ammo, ground, wire


@pytest.mark.parametrize(
    ("card", "hex_", "morale"), [("e07", "05.02", "normal"), ("e03", "04.04", "cautious")]
)
def test_no_ammo_fire_order_becomes_reload(build, card, hex_, morale) -> None:
    """Rule 10.10: No Ammo turns AF/RF/SF/RG into Reload."""
    g = build([man("r1", hex_, morale=morale)], cards=[card])
    g.char("r1").ammo = AmmoState.NO
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("reload", None, None)
    assert orders_of(g)[-1].data["conversions"][0]["rule"] == "10.10"


def test_no_ammo_leaves_move_orders_alone(build) -> None:
    """Rule 10.10: only fire orders become Reload."""
    g = build([man("r1", "04.04", morale="bold")], cards=["e03"])
    g.char("r1").ammo = AmmoState.NO
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("sprint", "5", None)


@pytest.mark.parametrize("ground", ["mud", "snow"])
def test_mud_and_snow_sprint_becomes_evade(build, ground) -> None:
    """C2 28.2: Mud or Snow: Sprint becomes Evade with the same directions."""
    g = build([man("r1", "04.04", morale="bold")], cards=["e03"], ground=ground)
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("evade", "5", None)
    assert orders_of(g)[-1].data["conversions"] == [
        {"from": "sprint", "to": "evade", "rule": "C2 28.2", "why": f"ground {ground}: no Sprint"}
    ]


@pytest.mark.parametrize(
    ("card", "morale", "was"),
    [("e03", "bold", "sprint"), ("e30", "shaken", "evade"), ("e03", "cautious", "run_and_gun")],
)
def test_deep_snow_moves_become_sneak(build, card, morale, was) -> None:
    """C2 28.2: Deep Snow: Sprint, Evade and Run & Gun become Sneak with the same directions."""
    g = build([man("r1", "04.04", morale=morale)], cards=[card], ground="deep_snow")
    order_phase.enemy_card_and_order_phase(g)
    order, dirs, _ = given(g, "r1")
    assert order == "sneak" and dirs is not None
    assert orders_of(g)[-1].data["conversions"][0]["from"] == was


def test_barbed_wire_move_becomes_sneak(build) -> None:
    """C2 27.7: an enemy in a Barbed Wire hex given a move order other than Sneak takes Sneak, same string."""
    g = build([man("r1", "04.08", morale="bold")], cards=["e03"])
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("sneak", "5", None)
    assert orders_of(g)[-1].data["conversions"][0]["rule"] == "C2 27.7"


def test_barbed_wire_lowest_tq_hides_first(build) -> None:
    """C2 27.7: two enemies in a wire hex: the lowest TQ takes Hide; the other moves freely."""
    g = build([man("r1", "04.08", morale="bold"), man("r2", "04.08", tq=4)], cards=["e03"])
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r2") == ("hide", None, None)
    assert given(g, "r1") == ("sprint", "5", None)  # someone Hides in the hex: no conversion
    assert g.state.cards.enemy_this_turn == {"team:red": "e03", "r1": "e03"}
    assert orders_of(g)[0].rule == "C2 27.7"


def test_barbed_wire_tie_is_a_logged_random_pick(build) -> None:
    """C2 27.7: equal lowest TQs: a random pick (logged) chooses who Hides."""
    g = build([man("r1", "04.08"), man("r2", "04.08")], rolls=[2], cards=["e03"])
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r2") == ("hide", None, None)
    picks = [e for e in g.events if e.kind == "roll" and "index" in e.data]
    assert picks and picks[0].data["size"] == 2 and "27.7" in picks[0].data["purpose"]


def test_barbed_wire_charge_without_a_string_sneaks_toward_its_target(build) -> None:
    """C2 27.7: a Charge from a row without a string becomes Sneak toward the target."""
    g = build(
        [man("r1", "04.08", morale="aggressive")],
        [man("f1", "04.06", revealed=True)],
        rolls=[0],
        cards=["e04"],
    )
    order_phase.enemy_card_and_order_phase(g)  # Open/Aggressive 'RF GC'
    assert given(g, "r1") == ("sneak", "1", "f1")


# ---------------------------------------------------------------------------
# Same hex → Melee (5.3 step 3)


def test_opponent_in_the_hex_gives_melee_without_a_card(build) -> None:
    """base-rules §5.3 step 3: an opponent in the hex → Melee, no row read; the team still draws a card."""
    g = build([man("r1", "04.04")], [man("f1", "04.05")], cards=["e05"])
    place(g, "f1", "04.04")
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("melee", None, None)
    ev = orders_of(g)[-1]
    assert ev.data["card"] is None and ev.data["row"] is None and ev.data["column"] is None
    assert "§5.3 step 3" in ev.rule
    assert g.state.cards.enemy_this_turn == {"team:red": "e05"}
    assert g.state.teams["red"].initiative == 61


# ---------------------------------------------------------------------------
# Large battles (9.2), the optional activation rule (C2 23.5)


def test_large_battle_one_card_per_team_each_with_his_own_row(build) -> None:
    """Rule 9.2: one card per team, shared; each man reads his own morale and Cover/Open."""
    g = build(
        [man("r1", "04.04", morale="bold"), man("r2", "05.02", morale="normal")],
        cards=["e03"],
        large_battle=True,
    )
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("sprint", "5", None)  # Open/Bold
    assert given(g, "r2") == ("aimed_fire", None, None)  # Cover/Normal 'AF G', no Friendly near
    assert len(g.enemy_deck) == 49
    assert set(g.state.cards.enemy_this_turn.values()) == {"e03"}


def test_optional_activation_draws_only_the_initiative_card(build) -> None:
    """C2 23.5: in the phase only one card per team; orders wait for the team's activation."""
    g = build(
        [man("r1", "04.04", morale="bold"), man("r2", "05.04")],
        cards=["e03", "e01"],
        options=Options(optional_enemy_activation=True),
    )
    order_phase.enemy_card_and_order_phase(g)
    assert g.char("r1").order is None and g.char("r2").order is None
    assert g.state.cards.enemy_this_turn == {"team:red": "e03"}
    assert g.state.teams["red"].initiative == 15
    order = alerting.assign_on_activation(g, g.char("r1"))
    assert order is not None and order.order == "evade"  # e01 Open/Bold 'EV 6/5'
    assert g.state.cards.enemy_this_turn["r1"] == "e01"
    assert g.state.teams["red"].initiative == 15


# ---------------------------------------------------------------------------
# Prepared / Unprepared (§5.6)


def test_prepared_enemy_draws_at_once_when_alerted(build) -> None:
    """base-rules §5.6: a Prepared enemy alerted mid-turn draws at once; the card is discarded once used."""
    g = build([man("r1", "04.04", morale="bold")], cards=["e03"], alert=False)
    g.state.flow.phase = Phase.ACTION
    order = alerting.alert(g, g.char("r1"), "a weapon fired within 10 hexes", "§5.6 condition 1")
    assert g.char("r1").alert
    assert order is not None and given(g, "r1") == ("sprint", "5", None)
    assert g.enemy_deck.discards == ("e03",)
    assert g.state.teams["red"].initiative is None


def test_unprepared_enemy_draws_at_his_next_activation(build) -> None:
    """base-rules §5.6: an Unprepared enemy draws at his next activation and does nothing then."""
    g = build([man("r1", "04.04", morale="bold")], cards=["e03"], alert=False, prepared=False)
    g.state.flow.phase = Phase.ACTION
    assert alerting.alert(g, g.char("r1"), "spotted a Friendly", "§5.6 condition 9") is None
    assert g.char("r1").order is None and g.char("r1").acted[alerting.UNPREPARED_KEY]
    assert alerting.unprepared_activation(g, g.char("r1")) is True
    assert given(g, "r1") == ("sprint", "5", None)
    assert alerting.unprepared_activation(g, g.char("r1")) is False


def test_alert_in_the_end_phase_waits_for_the_next_enemy_phase(build) -> None:
    """base-rules §5.6 [house]: alerted in the End Phase, he is ordered in the next Enemy phase."""
    g = build([man("r1", "04.04")], alert=False)
    g.state.flow.phase = Phase.END
    assert alerting.alert(g, g.char("r1"), "an Alert enemy within 3 hexes", "§5.6 condition 8") is None
    assert g.char("r1").alert and g.char("r1").order is None


# ---------------------------------------------------------------------------
# Enemy trained medics (C2 30.2)


def test_medic_with_a_wounded_comrade_in_his_hex_gives_medical_aid(build) -> None:
    """C2 30.2: the medic takes Medical Aid; the wounded (Normal) takes Hide; no card for either."""
    g = build([man("m1", "04.04", trained_medic=True, weapons=[]), man("r1", "04.04")], cards=["e01"])
    g.char("r1").wounds.append(Wound.LIGHT)
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "m1") == ("medical_aid", None, "r1")
    assert given(g, "r1") == ("hide", None, None)
    assert g.state.cards.enemy_this_turn == {"team:red": "e01"}


def test_treated_man_below_normal_rallies(build) -> None:
    """C2 30.2: a treated man whose morale is below Normal takes Rally."""
    g = build([man("m1", "04.04", trained_medic=True, weapons=[]), man("r1", "04.04", morale="shaken")])
    g.char("r1").wounds.append(Wound.BAD)
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("rally", None, None)


def test_medic_draws_again_on_a_fire_order(build) -> None:
    """C2 30.2: a trained medic given a fire order draws again until a non-fire order."""
    g = build([man("m1", "05.02", trained_medic=True, weapons=[])], cards=["e07", "e01", "e45"])
    order_phase.enemy_card_and_order_phase(g)  # Cover/Normal: e07 'SF', e01 'SF', e45 'EV 5'
    assert given(g, "m1") == ("evade", "5", None)
    ev = orders_of(g)[-1]
    assert ev.data["cards_read"] == ["e07", "e01", "e45"] and ev.data["card"] == "e45"
    assert sorted(g.state.cards.enemy_this_turn.values()) == ["e01", "e07", "e07", "e45"]


def test_medic_reads_g_as_a_medical_check_toward_the_wounded(build) -> None:
    """C2 30.2: G/C become M checks (no TQC): Evade with a string that reaches the wounded within 4."""
    g = build([man("m1", "04.04", trained_medic=True, weapons=[]), man("r1", "04.07")], cards=["e02"])
    g.char("r1").wounds.append(Wound.LIGHT)
    order_phase.enemy_card_and_order_phase(g)  # Open/Normal 'SN 5/6 G'
    assert given(g, "m1") == ("evade", "4", "r1")
    assert d10s(g) == []
    assert orders_of(g)[0].data["checks"][0]["path"] == ["04.05", "04.06", "04.07"]


def test_medic_gets_as_close_as_he_can(build) -> None:
    """C2 30.2: if no Evade string reaches the wounded, the one that gets closest."""
    g = build(
        [man("m1", "04.04", trained_medic=True, weapons=[]), man("r1", "04.07")],
        [man("f1", "04.05", revealed=True)],
        cards=["e02"],
    )
    g.char("r1").wounds.append(Wound.LIGHT)
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "m1")[0::2] == ("evade", "r1")
    path = [Hex.parse(h) for h in orders_of(g)[0].data["checks"][0]["path"]]
    assert Hex.parse("04.05") not in path  # never into the Friendly's hex
    assert g.distance(path[-1], Hex.parse("04.07")) == 2  # no alternating string does better here


def test_medic_picks_the_worst_wounded_of_the_closest(build) -> None:
    """C2 30.2: several wounded within 4: closest, then worst wound."""
    g = build(
        [man("m1", "04.04", trained_medic=True, weapons=[]), man("r1", "04.06"), man("r2", "06.04")],
        cards=["e02"],
    )
    assert g.distance(Hex.parse("04.04"), Hex.parse("06.04")) == 2
    g.char("r1").wounds.append(Wound.LIGHT)
    g.char("r2").wounds.append(Wound.BAD)
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "m1")[2] == "r2"


# ---------------------------------------------------------------------------
# Target and weapon choice for Enemy fire (13.0, C2 23.2, 30.1)


def test_fire_target_is_the_easiest_to_hit(build) -> None:
    """Rule 13.0: the Enemy fires at the Spotted Friendly with the best modified WS."""
    g = build(
        [man("r1", "05.00")],
        [man("f1", "05.02", revealed=True), man("f2", "03.01", revealed=True)],
    )
    for f in ("f1", "f2"):
        g.set_order(g.char(f), "rapid_fire")
    assert g.distance(Hex.parse("05.00"), Hex.parse("05.02")) == g.distance(
        Hex.parse("05.00"), Hex.parse("03.01")
    )
    assert fire_choice.choose_fire_target(g, g.char("r1"), "mp40") is g.char(
        "f2"
    )  # f1 in trees, f2 in the open
    ev = [e for e in g.events if e.kind == "fire_target"][-1]
    assert ev.data["target"] == "f2" and "easiest" in ev.text


def test_fire_target_nearest_among_the_easiest(build) -> None:
    """Rule 13.0: equal modified WS → the nearest."""
    g = build([man("r1", "04.00")], [man("f1", "04.06", revealed=True), man("f2", "04.04", revealed=True)])
    assert fire_choice.choose_fire_target(g, g.char("r1"), "mp40") is g.char("f2")  # both band 0 (4-6 hexes)


def test_fire_target_random_among_equals(build) -> None:
    """C2 23.2: equal WS and range → a random pick, logged."""
    g = build(
        [man("r1", "07.05")],
        [man("f1", "06.07", revealed=True), man("f2", "08.07", revealed=True)],
        rolls=[2],
    )
    assert fire_choice.choose_fire_target(g, g.char("r1"), "mp40") is g.char("f2")
    pick = [e for e in g.events if e.kind == "roll" and "index" in e.data][-1]
    assert pick.data["index"] == 1 and "23.2" in pick.data["purpose"]


def test_fire_target_excludes_hidden_incapacitated_melee_and_out_of_range(build) -> None:
    """Rule 13.0, C2 23.2-23.3: no Hidden, incapacitated, melee-hex or out-of-range target."""
    g = build(
        [man("r1", "04.00"), man("r2", "07.06")],
        [
            man("f1", "04.03"),
            man("f2", "04.04", revealed=True),
            man("f3", "07.07", revealed=True),
            man("f4", "04.09", revealed=True),
        ],
    )
    place(g, "r2", "07.07")
    g.char("f2").status = Status.INCAPACITATED
    assert (
        fire_choice.choose_fire_target(g, g.char("r1"), "m1911") is None
    )  # f4 is 9 hexes off: M1911 reaches 7
    assert [o.target.id for o in fire_choice.fire_options(g, g.char("r1"), "mp40")] == ["f4"]


def test_friendly_trained_medic_only_if_no_other_target_and_tqc_fails(build) -> None:
    """C2 30.1: a Friendly trained medic is fired at only if alone and the firer fails TQ+2."""
    g = build([man("r1", "04.00")], [man("f1", "04.04", revealed=True, trained_medic=True)], rolls=[7, 8])
    assert fire_choice.choose_fire_target(g, g.char("r1"), "mp40") is None  # 7 <= TQ 5 + 2: holds fire
    assert fire_choice.choose_fire_target(g, g.char("r1"), "mp40") is g.char("f1")  # 8 fails


def test_friendly_medic_is_skipped_while_another_target_exists(build) -> None:
    """C2 30.1: any other target comes before the medic, whatever the WS."""
    g = build(
        [man("r1", "04.00")],
        [man("f1", "04.02", revealed=True, trained_medic=True), man("f2", "04.06", revealed=True)],
    )
    assert fire_choice.choose_fire_target(g, g.char("r1"), "mp40") is g.char("f2")


def test_enemy_weapon_best_modified_ws_ties_to_first_listed(build) -> None:
    """base-rules §10 [house]: the Enemy weapon with the best modified WS; ties to the first listed."""
    weapons = [{"weapon": "kar98k", "ws": 4}, {"weapon": "p38", "ws": 5}, {"weapon": "mp40", "ws": 5}]
    g = build(
        [man("r1", "04.00", weapons=weapons)], [man("near", "04.01", revealed=True), man("far", "04.09")]
    )
    near, far = g.char("near"), g.char("far")
    assert (
        fire_choice.choose_enemy_weapon(g, g.char("r1"), near) == "p38"
    )  # P38 and MP40 tie at +2: first listed
    far.hex = Hex.parse("04.09")
    assert (
        fire_choice.choose_enemy_weapon(g, g.char("r1"), far) == "kar98k"
    )  # 9 hexes: Kar98k 4+0, MP40 5-2, P38 5-6


def test_enemy_fire_gives_the_target_and_his_weapon_in_one_pass(build) -> None:
    """13.0, §10 [house]: choose_enemy_fire = choose_fire_target, then choose_enemy_weapon for him."""
    weapons = [{"weapon": "kar98k", "ws": 4}, {"weapon": "p38", "ws": 5}, {"weapon": "mp40", "ws": 5}]
    g = build(
        [man("r1", "04.00", weapons=weapons)],
        [man("near", "04.01", revealed=True), man("far", "04.09", revealed=True)],
    )
    r1, near, far = g.char("r1"), g.char("near"), g.char("far")
    assert fire_choice.choose_enemy_fire(g, r1) == (near, "p38")  # 1 hex: P38 and MP40 +2, first listed
    assert fire_choice.choose_enemy_weapon(g, r1, near) == "p38"
    near.status = Status.INCAPACITATED
    assert fire_choice.choose_enemy_fire(g, r1) == (far, "kar98k")  # 9 hexes: Kar98k 4+0, MP40 5-2, P38 5-6
    assert fire_choice.choose_enemy_weapon(g, r1, far) == "kar98k"
    assert [e.data["target"] for e in g.events if e.kind == "fire_target"] == ["near", "far"]
    far.status = Status.INCAPACITATED
    assert fire_choice.choose_enemy_fire(g, r1) is None


# ---------------------------------------------------------------------------
# Duck Back on entering terrain (9.4) and the Sniper (C2 24.1)


@pytest.mark.parametrize(("roll", "ducks"), [(5, True), (6, False)])
def test_duck_back_on_entering_cover_in_sight(build, roll, ducks) -> None:
    """Rule 9.4: entering terrain that is not Open ground in sight of a Spotted Friendly: TQC → Duck Back."""
    g = build([man("r1", "05.02")], [man("f1", "05.06", revealed=True)], rolls=[roll])
    g.set_order(g.char("r1"), "evade", directions=DirectionString.parse("4"))
    assert duck_back.duck_back_on_entering(g, g.char("r1")) is ducks
    assert given(g, "r1")[0] == ("duck_back" if ducks else "evade")


def test_duck_back_uses_printed_tq(build) -> None:
    """Rule 9.4: the TQC is on the printed TQ (a wound does not lower it)."""
    g = build([man("r1", "05.02")], [man("f1", "05.06", revealed=True)], rolls=[5])
    g.char("r1").wounds.append(Wound.BAD)
    g.set_order(g.char("r1"), "sneak", directions=DirectionString.parse("4"))
    assert duck_back.duck_back_on_entering(g, g.char("r1")) is True


@pytest.mark.parametrize(
    ("hex_", "order", "morale", "revealed"),
    [
        ("04.04", "evade", "normal", True),  # Open ground
        ("05.02", "charge", "normal", True),  # exempt order
        ("05.02", "run_and_gun", "normal", True),  # exempt order
        ("05.02", "evade", "berserk", True),  # Berserk is exempt
        ("05.02", "evade", "normal", False),  # no Spotted Friendly in sight
    ],
)
def test_duck_back_not_checked(build, hex_, order, morale, revealed) -> None:
    """Rule 9.4: no check in Open ground, with an exempt order, when Berserk, or with no Spotted Friendly."""
    g = build([man("r1", hex_, morale=morale)], [man("f1", "05.06", revealed=revealed)])
    g.set_order(g.char("r1"), order, directions=DirectionString.parse("4"))
    assert duck_back.duck_back_on_entering(g, g.char("r1")) is False
    assert given(g, "r1")[0] == order and d10s(g) == []


def test_sniper_holds_his_impulse_2_shot(build) -> None:
    """C2 24.1: a Sniper on Aimed Fire with the nearest Spotted Friendly 3+ hexes off aims on a TQC pass."""
    g = build([man("r1", "04.00", skills=["sniper"])], [man("f1", "04.04", revealed=True)], rolls=[4])
    g.set_order(g.char("r1"), "aimed_fire")
    g.state.flow.impulse = 2
    assert fire_choice.sniper_aims(g, g.char("r1")) is True
    g.state.flow.impulse = 4
    assert fire_choice.fire_options(g, g.char("r1"), "mp40")[0].parts["sniper"] == 2


# ---------------------------------------------------------------------------
# Through the engine


def test_phase_through_the_engine_sets_the_track(build) -> None:
    """base-rules §1 Step 3: the engine's Enemy phase gives orders and the track reads the first card."""
    g = build([man("r1", "04.04"), man("r2", "05.04")], cards=["e41", "e01"], fallback=7)
    seen: list[tuple[str, str | None]] = []

    def on_track(ev: Any) -> None:
        if ev.kind == "track":
            seen.extend((c, given(g, c)[0]) for c in ("r1", "r2"))

    g.listeners.append(on_track)
    g.apply(g.legal()[0])
    while g.pending is not None and g.pending.kind.value != "play_card":
        g.apply(g.legal()[0])
    track = next(e for e in g.events if e.kind == "track")
    assert ("red", 1) in [tuple(x) for x in track.data["track"]]
    assert seen == [("r1", "run_and_gun"), ("r2", "sneak")]  # e41 Open/Normal 'RG 5 C', e01 'SN 5/4'
    assert g.state.teams["red"].initiative is None  # Step 5 e) cleared it


def test_every_enemy_order_event_names_card_row_column_and_rule(build) -> None:
    """DESIGN.md: every enemy_order event carries card, row, column and rule."""
    g = build(
        [
            man("r1", "04.04", morale="aggressive"),
            man("r2", "05.02", morale="rout"),
            man("r3", "07.07"),
            man("r4", "04.08"),
        ],
        [man("f1", "04.06", revealed=True), man("f2", "07.06")],
        rolls=[9, 9, 9],
        cards=["e03", "e01", "e02"],
        ground="mud",
    )
    place(g, "f2", "07.07")
    order_phase.enemy_card_and_order_phase(g)
    events = orders_of(g)
    assert len(events) == 4
    for ev in events:
        assert {"card", "row", "column", "initiative", "entry", "checks", "conversions", "order"} <= set(
            ev.data
        )
        assert ev.rule
        if ev.data["card"] is not None:
            assert ev.data["row"] and ev.data["column"] in ("cover", "open") and ev.data["card"] in ev.text


# ---------------------------------------------------------------------------
# Reinforcements (base-rules §1 Step 3 a), §5.7)


def test_reinforcements_enter_alert_with_their_forced_evade(build) -> None:
    """base-rules §5.7: a due wave enters Alert and Prepared on its forced Evade; it draws no card."""
    wave = {"turn": 1, "team": "red", "hexes": "04.02", "order": "EV 5/6", "characters": [man("r9", None)]}
    g = build([man("r1", "07.07", morale="bold")], cards=["e03"], reinforcements=[wave])
    assert g.char("r9").hex is None
    order_phase.enemy_card_and_order_phase(g)
    r9 = g.char("r9")
    assert (str(r9.hex), r9.alert, r9.prepared) == ("04.02", True, True)
    assert given(g, "r9") == ("evade", "5/6", None)
    assert "r9" not in g.state.cards.enemy_this_turn


def test_reinforcements_without_an_order_read_a_card(build) -> None:
    """base-rules §5.3: a wave without a forced order is ordered by its card like any Alert enemy."""
    wave = {"turn": 1, "team": "red", "hexes": "04.02", "characters": [man("r9", None, morale="bold")]}
    g = build([man("r1", "07.07")], cards=["e03"], alert=False, reinforcements=[wave])
    order_phase.enemy_card_and_order_phase(g)
    assert g.char("r1").order is None  # still Waiting
    assert given(g, "r9") == ("sprint", "5", None)  # e03 Open/Bold 'SP 5'
    assert g.state.teams["red"].initiative == 15
