"""The ``tactical`` policy's Friendly AFV Driver (C2 31.4): speed toward the fight, stop to fire."""

from conftest import house_data

from solo.core.decisions import Decision, DecisionKind, Option
from solo.core.hexes import Hex
from solo.playtest import tactical_afv as ta
from solo.playtest.play import new_game
from solo.playtest.tactical import TacticalPolicy, _objectives
from solo.rules.state import Side

SPEED_KEYS = ("spot", "crawl", "ahead_slow", "reverse", "button_open_up", "relocate", "bail_out")


def _ask(kind, keys, actor):
    return Decision(kind, kind.value, tuple(Option(k, k) for k in keys), actor=actor)


def _snow():
    """snow_on_the_high_street: the Friendly Sherman far east of the objectives, no Enemy Known."""
    g = new_game("snow_on_the_high_street", seed=1, data=house_data())
    tank = next(v for v in g.state.vehicles.values() if v.side is Side.FRIENDLY)
    driver = g.state.characters[tank.seats["driver"].occupant]
    for e in g.state.active(Side.ENEMY):
        e.revealed = False
    return g, tank, driver


def test_the_sherman_drives_ahead_slow_toward_a_far_objective():
    """Far from every objective, no Known enemy: the fastest speed that gains (Ahead Slow, C2 31.4)
    and then the direction whose full move ends nearest the objective."""
    g, tank, driver = _snow()
    dest = ta.destination(g, tank, _objectives(g))
    assert dest is not None and g.distance(tank.hex, dest) > ta.STANDOFF
    pol = TacticalPolicy()
    assert pol(g, _ask(DecisionKind.GIVE_ORDER, SPEED_KEYS, driver.id)) == "ahead_slow"
    keys = ("1", "2", "3", "4", "5", "6")
    pick = pol(g, _ask(DecisionKind.ORDER_DIRECTION, keys, driver.id))
    best = min(keys, key=lambda k: (ta._best(g, tank, dest, (k,), 6)[0], keys.index(k)))
    assert pick == best


def test_the_sherman_stops_to_fire_at_a_known_enemy_it_sees():
    """A Known enemy seen within STANDOFF hexes: the Driver Spots (a Stationary AFV fires best)."""
    g, tank, driver = _snow()
    e = g.state.active(Side.ENEMY)[0]
    seen = [
        h
        for h in (Hex(tank.hex.col - d, tank.hex.row) for d in range(1, ta.STANDOFF + 1))
        if h in g.board.index
    ]
    for h in seen:
        e.hex, e.revealed = h, True
        if g.sees(driver, e):
            break
    else:
        raise AssertionError("no hex in sight")
    assert ta.sees_a_target(g, driver, tank)
    assert TacticalPolicy()(g, _ask(DecisionKind.GIVE_ORDER, SPEED_KEYS, driver.id)) == "spot"


def test_a_direction_that_left_it_standing_is_not_tried_again_from_that_hex():
    g, _tank, driver = _snow()
    pol = TacticalPolicy()
    keys = ("1", "2", "3", "4", "5", "6")
    assert pol(g, _ask(DecisionKind.GIVE_ORDER, SPEED_KEYS, driver.id)) == "ahead_slow"
    first = pol(g, _ask(DecisionKind.ORDER_DIRECTION, keys, driver.id))
    assert pol(g, _ask(DecisionKind.GIVE_ORDER, SPEED_KEYS, driver.id)) == "ahead_slow"
    second = pol(g, _ask(DecisionKind.ORDER_DIRECTION, keys, driver.id))
    assert second != first


def test_the_free_turn_faces_the_way_it_goes():
    """C2 31.4 free hexside turn: the facing nearest the way to the destination; stay on a tie."""
    g, tank, driver = _snow()
    f = tank.facing
    keys = ("stay", f"turn:{f % 6 + 1}", f"turn:{(f - 2) % 6 + 1}")
    pick = ta.free_turn(g, tank, _objectives(g), keys)
    assert pick in keys
    assert TacticalPolicy()(g, _ask(DecisionKind.ORDER_TARGET, keys, driver.id)) == pick
    assert ta.free_turn(g, tank, _objectives(g), ("stay", "20.14")) is None
