"""Scenario overrides of the Enemy order lookup (base-rules §5.3 step 4): the first-order table and
"in a Building + TQC → Aimed Fire" (solo.enemy.first_orders)."""

from __future__ import annotations

import pytest
import test_ai
from test_ai import given, man, orders_of

from solo.core.errors import DataError
from solo.enemy import order_phase

ai_data = test_ai.ai_data  # the fixtures of tests/test_ai.py
build = test_ai.build

TABLE = ["HI", "AF", "SN 5/6", "RF", "HI", "SF", "HI", "EV 2/3", "HI", "RA"]


def test_first_order_table_on_turn_1(build) -> None:
    """§5.3 step 4: turn 1: the d10 (2) reads the table ('SN 5/6'); the team draws only for initiative."""
    g = build([man("r1", "04.04")], rolls=[2], cards=["e03"], first_orders=TABLE)
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1") == ("sneak", "5/6", None)
    ev = orders_of(g)[-1]
    assert ev.data["card"] is None and ev.data["entry"] == "SN 5/6" and "§5.3 step 4" in ev.rule
    assert g.state.cards.enemy_this_turn == {"team:red": "e03"}


def test_first_order_table_not_after_turn_1(build) -> None:
    """§5.3 step 4: on turn 2 a man already on the map draws a card (no table roll)."""
    g = build([man("r1", "04.04")], cards=["e02"], first_orders=TABLE)
    g.state.flow.turn = 2
    order_phase.enemy_card_and_order_phase(g)
    assert orders_of(g)[-1].data["card"] == "e02"


def test_first_order_table_for_a_reinforcement(build) -> None:
    """§5.3 step 4: a reinforcement with no forced order rolls on the table as it arrives (9: Rally)."""
    wave = {"turn": 2, "team": "red", "hexes": "07.07", "characters": [man("r2", None)]}
    g = build([man("r1", "04.04")], rolls=[9], cards=["e02"], first_orders=TABLE, reinforcements=[wave])
    g.state.flow.turn = 2
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r2") == ("rally", None, None)
    assert orders_of(g)[0].data["card"] == "e02"  # r1 draws as usual


@pytest.mark.parametrize(("roll", "order"), [(5, "aimed_fire"), (0, "aimed_fire"), (6, "rapid_fire")])
def test_building_tqc_gives_aimed_fire(build, roll, order) -> None:
    """§5.3 step 4: in a Building, seeing a Spotted Friendly: TQC at TQ 5; 5 passes (Aimed Fire), 6 fails."""
    g = build(
        [man("r1", "02.04")],
        [man("f1", "00.04", revealed=True)],
        rolls=[roll],
        cards=["e02"],
        building_aimed_fire=True,
    )
    g.state.flow.turn = 2
    order_phase.enemy_card_and_order_phase(g)
    assert given(g, "r1")[0] == order
    assert bool(orders_of(g)[-1].data["card"]) is (order != "aimed_fire")


def test_building_tqc_natural_9_fails(build) -> None:
    """§5.3 step 4, C2 23.1: a TQ 9 man in a Building still fails on a natural 9 and draws."""
    g = build(
        [man("r1", "02.04", tq=9)], [man("f1", "00.04", revealed=True)], rolls=[9], cards=["e01"],
        building_aimed_fire=True,
    )  # fmt: skip
    order_phase.enemy_card_and_order_phase(g)
    assert orders_of(g)[-1].data["card"] == "e01"


def test_no_building_check_in_the_open_or_without_a_target(build) -> None:
    """§5.3 step 4: in the Open, or in a Building with no Spotted Friendly in sight, no TQC is rolled."""
    g = build([man("r1", "04.04"), man("r2", "02.04")], cards=["e02", "e03"], building_aimed_fire=True)
    order_phase.enemy_card_and_order_phase(g)
    assert [e.data["card"] for e in orders_of(g)] == ["e02", "e03"]


@pytest.mark.parametrize(
    ("table", "message"),
    [(TABLE[:9], "a first-order table has 10 orders"), ([*TABLE[:9], "SN"], "Sneak moves")],
)
def test_bad_first_order_table_is_refused(build, table, message) -> None:
    """§19: a first-order table needs ten valid orders; the error names the file and line."""
    with pytest.raises(DataError, match=message):
        build([man("r1", "04.04")], first_orders=table)
