"""The ``tactical`` policy's Friendly AFV Driver (C2 31.4): speed toward the fight, stop to fire."""

from conftest import house_data

from solo.core.decisions import Decision, DecisionKind, Option
from solo.core.hexes import Arc, Hex, arc_of, rotate, turn_steps, wedge_directions
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


def _turret_ask(tank, gunner):
    """The engine's turret question (C2 31.6): keep, or one hexside either way."""
    keys = ("no", f"turn_{rotate(tank.turret, -1)}", f"turn_{rotate(tank.turret, 1)}")
    return _ask(DecisionKind.ORDER_TARGET, keys, gunner.id)


def _place(g, tank, gunner, e, front):
    """Put Known enemy ``e`` on the nearest hex the Gunner sees, in (``front``) or out of the
    turret's front arc."""
    stagger = g.board.map.stagger
    for h in sorted(g.board.hexes, key=lambda h: (g.distance(tank.hex, h), str(h))):
        if h == tank.hex or g.distance(tank.hex, h) > 8 or not g.sight(gunner, h).clear:
            continue
        if (arc_of(tank.hex, tank.turret, h, stagger) is Arc.FRONT) == front:
            e.hex, e.revealed = h, True
            return h
    raise AssertionError("no such hex in sight")


def test_the_gunner_turns_the_turret_toward_a_target_out_of_its_front_arc():
    """C2 31.6 / 31.9.4 d: the main gun fires only into the turret's front arc; a Known enemy the
    Gunner sees outside it: the turret turns one hexside the shorter way toward him."""
    g, tank, _driver = _snow()
    gunner = g.state.characters[tank.seats["gunner"].occupant]
    pol = TacticalPolicy()
    assert pol(g, _turret_ask(tank, gunner)) == "no"  # nothing Known: the turret stays
    e = g.state.active(Side.ENEMY)[0]
    h = _place(g, tank, gunner, e, front=False)
    assert ta.gun_target(g, gunner, tank) == h
    pick = pol(g, _turret_ask(tank, gunner))
    assert pick != "no"
    wants = wedge_directions(tank.hex, h, g.board.map.stagger)
    new = int(pick.partition("_")[2])
    assert min(abs(turn_steps(new, d)) for d in wants) < min(abs(turn_steps(tank.turret, d)) for d in wants)


def test_the_gunner_keeps_the_turret_on_a_target_in_its_front_arc():
    """A Known enemy in the front arc (the gun can fire at him) beats one outside it: no turn (a turn
    replaces the main gun's fire this Impulse, C2 31.6)."""
    g, tank, _driver = _snow()
    gunner = g.state.characters[tank.seats["gunner"].occupant]
    first, second = g.state.active(Side.ENEMY)[:2]
    _place(g, tank, gunner, first, front=False)
    h = _place(g, tank, gunner, second, front=True)
    assert ta.gun_target(g, gunner, tank) == h
    assert TacticalPolicy()(g, _turret_ask(tank, gunner)) == "no"
