"""Trained medics (C2 30.0-30.2): a Friendly firing on an Enemy medic, prisoner execution after a
Friendly medic falls, and no Injured/KIA Medic table once an Enemy medic is down."""

from __future__ import annotations

import pytest
from test_combat import build, events, man, move, order, script

from solo.data.friendly_deck import WoundStamp
from solo.data.tables import MoraleState
from solo.engine.game import DecisionKind, Game
from solo.rules import fire_action, melee, wounds
from solo.rules.state import Status


@pytest.fixture
def medic_in_sight(tmp_path) -> Game:
    """Friendly able_1 (TQ 5) at 02.06; Enemy red_1 at 02.10 and the Enemy trained medic red_m at 02.09."""
    g = build(
        tmp_path,
        [man("able_1", "02.06")],
        [man("red_1", "02.10", weapon="kar98k", ws=4), man("red_m", "02.09", trained_medic=True)],
    )
    order(g, g.char("red_1"), "aimed_fire")
    order(g, g.char("able_1"), "rapid_fire")
    return g


def _fire(g: Game):
    return fire_action.fire_step(g, g.char("able_1"), g.data.orders.get("rapid_fire"))


def test_friendly_passing_tq_plus_2_does_not_fire_on_medic(medic_in_sight):
    """C2 30.2: the player picks the Enemy medic; TQ+2 (7) passes: the medic is struck, choose again."""
    g = medic_in_sight
    gen = _fire(g)
    assert next(gen).keys == ("red_1", "red_m", "hold")
    src = script(g, [7])
    d = gen.send("red_m")
    assert d.kind is DecisionKind.FIRE_TARGET and d.keys == ("red_1", "hold")
    assert events(g, "medic_fire_check")[-1].data == {
        "kind": "tqc", "target": 7, "roll": 7, "passed": True, "berserk": False,
    }  # fmt: skip
    assert src.remaining == () and not events(g, "fire")


def test_friendly_failing_tq_plus_2_fires_on_medic(medic_in_sight):
    """C2 30.2: a roll of TQ+3 (8) fails the TQC at TQ+2: he fires on the medic."""
    g = medic_in_sight
    gen = _fire(g)
    next(gen)
    script(g, [8, 9])
    with pytest.raises(StopIteration):
        gen.send("red_m")
    assert events(g, "fire")[-1].data["target"] == "red_m"


def test_natural_9_always_fails_the_medic_tqc(medic_in_sight):
    """C2 30.2, 23.1: a TQ 8 firer (TQC at 10) still fails on a natural 9 and fires on the medic."""
    g = medic_in_sight
    g.char("able_1").tq = 8
    gen = _fire(g)
    next(gen)
    script(g, [9, 9])
    with pytest.raises(StopIteration):
        gen.send("red_m")
    assert events(g, "fire")[-1].data["target"] == "red_m"


def test_berserk_failing_plain_tq_must_fire_on_medic(medic_in_sight):
    """C2 30.2: a Berserk firer rolls at his plain TQ (5); 6 fails: he fires on the medic, no decision."""
    g = medic_in_sight
    g.char("able_1").morale = MoraleState.BERSERK
    src = script(g, [6, 9])
    with pytest.raises(StopIteration):
        next(_fire(g))
    assert events(g, "fire")[-1].data["target"] == "red_m" and src.remaining == ()
    assert events(g, "medic_fire_check")[-1].data["target"] == 5


def test_berserk_passing_plain_tq_leaves_the_medic(medic_in_sight):
    """C2 30.2: a Berserk firer's roll of 5 (his TQ) passes: the medic is not among his targets."""
    g = medic_in_sight
    g.char("able_1").morale = MoraleState.BERSERK
    script(g, [5])
    assert next(_fire(g)).keys == ("red_1", "hold")


def test_no_medic_table_once_enemy_medic_down(tmp_path):
    """C2 30.2: after an Enemy trained medic is killed, a Friendly medic's death rolls no morale table."""
    g = build(
        tmp_path,
        [man("able_1", "02.02"), man("able_2", "02.04", trained_medic=True)],
        [man("red_1", "02.10"), man("red_m", "02.09", trained_medic=True)],
    )
    src = script(g, [])
    wounds.apply_wound(g, g.char("red_m"), WoundStamp.KIA, melee=False)
    wounds.apply_wound(g, g.char("able_2"), WoundStamp.KIA, melee=False)
    assert src.remaining == () and g.char("able_1").morale is MoraleState.NORMAL
    assert events(g, "medic_down") and g.state.flags["friendly_medic_hit"]


@pytest.fixture
def surrender(tmp_path) -> Game:
    """Enemy red_1 (Rout, melee order) in 05.05 with Friendlies able_1 (TQ 5) and able_2 (TQ 6)."""
    g = build(tmp_path, [man("able_1", "05.06"), man("able_2", "05.04", tq=6)], [man("red_1", "05.05")])
    move(g, able_1="05.05", able_2="05.05")
    r = g.char("red_1")
    order(g, r, "melee")
    r.morale = MoraleState.ROUT
    return g


def _surrenders(g: Game):
    return melee.melee_step(g, g.char("red_1"), g.data.orders.get("melee"))


def test_no_guard_check_before_a_medic_falls(surrender):
    """C2 30.1: without a fallen Friendly medic a prisoner is taken with no roll."""
    src = script(surrender, [])
    with pytest.raises(StopIteration):
        next(_surrenders(surrender))
    assert surrender.char("red_1").status is Status.PRISONER and src.remaining == ()


@pytest.mark.parametrize(("roll", "status"), [(6, Status.PRISONER), (7, Status.DEAD), (0, Status.PRISONER)])
def test_guard_tqc_after_medic_fell(surrender, roll, status):
    """C2 30.1: the player designates the Guard (able_2, TQ 6): 6 passes, 7 fails and kills the prisoner."""
    surrender.state.flags["friendly_medic_hit"] = True
    gen = _surrenders(surrender)
    d = next(gen)
    assert d.kind is DecisionKind.GUARD and d.keys == ("able_1", "able_2")
    script(surrender, [roll])
    with pytest.raises(StopIteration):
        gen.send("able_2")
    assert surrender.char("red_1").status is status
    assert events(surrender, "prisoner_check")[-1].actor == "able_2"


def test_guard_natural_9_kills_prisoner(surrender):
    """C2 30.1, 23.1: a lone guard with TQ 9 still fails on a natural 9."""
    surrender.state.flags["friendly_medic_hit"] = True
    surrender.char("able_2").status = Status.DEAD
    surrender.char("able_1").tq = 9
    script(surrender, [9])
    with pytest.raises(StopIteration):
        next(_surrenders(surrender))
    assert surrender.char("red_1").status is Status.DEAD
