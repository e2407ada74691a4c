"""The ``tactical`` policy's Bazooka team (C2 32.1) and the balance count of its shots."""

from conftest import house_data

from solo.core.decisions import Decision, DecisionKind, Option
from solo.core.hexes import Hex
from solo.playtest import tactical_bazooka as tb
from solo.playtest.balance import balance_row, format_balance
from solo.playtest.batch_records import GameRecord
from solo.playtest.play import new_game
from solo.playtest.tactical import TacticalPolicy
from solo.rules.state import GivenOrder
from solo.rules.vehicles.light_at import light_at_shots
from solo.rules.vehicles.targets import LIGHT_AT

KEYS = ("fire_light_at", "load_light_at", "aimed_fire", "rapid_fire", "sneak", "evade", "hide")


def _ask(kind, keys, actor):
    return Decision(kind, kind.value, tuple(Option(k, k) for k in keys), actor=actor)


NEAR = Hex(15, 9)


def _rain(op_hex=NEAR, mate_hex=NEAR):
    """armour_in_the_rain: Operator charlie_1 and Assistant charlie_2, the Panzer IVH at 15.03."""
    g = new_game("armour_in_the_rain", seed=1, data=house_data())
    g.char("charlie_1").hex = op_hex
    g.char("charlie_2").hex = mate_hex
    return g


def test_operator_with_his_assistant_fires_and_the_assistant_loads():
    """C2 32.1: the Bazooka "fires only if loaded at the start of the Impulse"; the Assistant in
    the Operator's hex loads it, so the Operator takes Fire Light AT at a vehicle 6 hexes off."""
    g = _rain()
    op, mate = g.char("charlie_1"), g.char("charlie_2")
    assert g.distance(op.hex, g.state.vehicles["panzer"].hex) == 6
    assert "vehicle:panzer" in tb.vehicle_targets(g, op)
    assert tb.assistant(g, op) is mate
    pol = TacticalPolicy()
    assert pol(g, _ask(DecisionKind.GIVE_ORDER, KEYS, "charlie_1")) == "fire_light_at"
    assert pol(g, _ask(DecisionKind.GIVE_ORDER, KEYS, "charlie_2")) == "load_light_at"


def test_operator_alone_loads_unloaded_and_fires_loaded():
    """Alone (his Assistant away), an unloaded Operator takes Load Light AT (C2 32.1 "must be
    loaded before it can fire"); loaded, Fire Light AT."""
    g = _rain(mate_hex=Hex(12, 15))
    op = g.char("charlie_1")
    pol = TacticalPolicy()
    assert pol(g, _ask(DecisionKind.GIVE_ORDER, KEYS, "charlie_1")) == "load_light_at"
    g.state.flags[LIGHT_AT] = {"charlie_1": {"loaded": True, "rockets": 2, "assistant": "charlie_2"}}
    assert tb.loaded(g, op)
    assert pol(g, _ask(DecisionKind.GIVE_ORDER, KEYS, "charlie_1")) == "fire_light_at"


def test_no_light_at_order_beyond_aim_range():
    """Beyond AIM_RANGE hexes the team does not stop to fire (the shot is offered, C2 32.1)."""
    g = _rain(op_hex=Hex(15, 3 + tb.AIM_RANGE + 1), mate_hex=Hex(15, 3 + tb.AIM_RANGE + 1))
    assert "vehicle:panzer" not in tb.vehicle_targets(g, g.char("charlie_1"))
    g.state.vehicles["truck"].hex = Hex(15, 1)
    assert tb.bazooka_order(g, g.char("charlie_1"), KEYS) is None
    g2 = _rain(op_hex=Hex(15, 3 + tb.AIM_RANGE), mate_hex=Hex(15, 3 + tb.AIM_RANGE))
    if g2.sight(g2.char("charlie_1"), Hex(15, 3)).clear:
        assert "vehicle:panzer" in tb.vehicle_targets(g2, g2.char("charlie_1"))


def test_a_loaded_operator_sneaks_instead_of_evading():
    """C2 32.1: a loaded Bazooka's Operator given an order faster than Sneak loses the rocket."""
    g = _rain(op_hex=Hex(15, 19), mate_hex=Hex(15, 19))
    g.state.vehicles["panzer"].hex = Hex(30, 3)
    g.state.vehicles["truck"].hex = Hex(31, 3)
    op = g.char("charlie_1")
    assert tb.vehicle_targets(g, op) == []
    g.state.flags[LIGHT_AT] = {"charlie_1": {"loaded": True, "rockets": 2, "assistant": "charlie_2"}}
    assert tb.keeps_sneak(g, op)
    keys = ("evade", "sprint", "sneak", "hide")
    order = TacticalPolicy()(g, _ask(DecisionKind.GIVE_ORDER, keys, "charlie_1"))
    assert order in ("sneak", "hide")


def test_the_assistant_heads_for_his_operator():
    g = _rain(mate_hex=Hex(12, 15))
    assert tb.assistant_goal(g, g.char("charlie_2")) == Hex(15, 9)
    g.char("charlie_2").hex = Hex(15, 9)
    assert tb.assistant_goal(g, g.char("charlie_2")) is None


def test_fire_target_prefers_the_vehicle_for_a_light_at_shot():
    g = _rain()
    keys = ("hex:15.05", "vehicle:panzer", "hold")
    assert tb.fire_key(g, keys) == "vehicle:panzer"
    assert tb.fire_key(g, ("hex:15.05", "hold")) is None


def test_the_operator_fires_at_the_tank_before_the_truck():
    """Both the Panzer IVH (6 hexes) and the Opel truck (9 hexes) are legal Bazooka targets (C2 32.1):
    the Operator picks the tank, whichever the decision offers first; the truck when it is alone."""
    g = _rain()
    op = g.char("charlie_1")
    shots = {s.key for s in light_at_shots(g, op, tb.bazooka(g, op), soft=False)}
    assert {"vehicle:panzer", "vehicle:truck"} <= shots
    op.order = GivenOrder("fire_light_at", None, None, "player")
    pol = TacticalPolicy()
    for keys in (("vehicle:truck", "vehicle:panzer", "hold"), ("vehicle:panzer", "vehicle:truck", "hold")):
        assert pol(g, _ask(DecisionKind.FIRE_TARGET, keys, "charlie_1")) == "vehicle:panzer"
    assert pol(g, _ask(DecisionKind.FIRE_TARGET, ("vehicle:truck", "hold"), "charlie_1")) == "vehicle:truck"


def test_equal_threats_go_by_vehicle_id():
    """Two vehicles of one class: the lower id (a stable tie-break, not the order offered)."""
    g = _rain()
    g.state.vehicles["truck"].type = g.state.vehicles["panzer"].type
    assert tb.threat(g, g.state.vehicles["truck"]) == tb.threat(g, g.state.vehicles["panzer"])
    assert tb.fire_key(g, ("vehicle:truck", "vehicle:panzer")) == "vehicle:panzer"
    assert tb.fire_key(g, ("vehicle:panzer", "vehicle:truck")) == "vehicle:panzer"


def test_balance_reports_bazooka_shots_a_game():
    recs = [
        GameRecord("house", 1, "friendly", 3, 8, bazooka_shots=3),
        GameRecord("house", 2, "enemy", -1, 8, bazooka_shots=0),
    ]
    row = balance_row("armour_in_the_rain", "tactical", recs)
    assert row.bazooka_shots == 1.5
    assert format_balance([row]).splitlines()[-1].endswith("| 1.50 |")


def test_a_tactical_batch_game_counts_friendly_bazooka_shots():
    """armour_in_the_rain seed 1..3 under ``tactical``: the Bazooka fires at least once (C2 32.1)."""
    from solo.playtest.batch import play_game
    from solo.playtest.batch_setup import prepare

    spec = prepare("armour_in_the_rain", policy="tactical")
    shots = [play_game(spec.variants[0], s, "tactical").bazooka_shots for s in (1, 2, 3)]
    assert sum(shots) >= 1
    assert play_game(spec.variants[0], 1, "tactical").bazooka_shots == shots[0]  # deterministic
