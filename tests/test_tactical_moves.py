"""The ``tactical`` policy's moves: Friendly exits (§19) and vehicles as transport (C2 31.11.2)."""

from conftest import house_data

from solo.core.decisions import Decision, DecisionKind, Option
from solo.core.hexes import Hex
from solo.playtest.play import new_game
from solo.playtest.tactical import EXIT_MARGIN, EXIT_PACE, EXIT_REACH, TacticalPolicy, _exit_goal
from solo.rules.state import Side, Status


def _ford(seed=1):
    return new_game("night_at_the_ford", seed=seed, data=house_data())


def _ask(kind, keys, actor):
    return Decision(kind, kind.value, tuple(Option(k, k) for k in keys), actor=actor)


def _hold_objectives(g):
    """Two other men stand on the farmhouse and the barn, so able_2 has no objective."""
    g.char("baker_1").hex = Hex(12, 5)
    g.char("baker_2").hex = Hex(13, 6)


def _clear_enemies(g):
    for e in g.state.on_side(Side.ENEMY):
        e.hex = None
        e.status = Status.DEAD


def test_exit_goal_only_when_the_turns_left_just_suffice():
    """A man with no objective heads for the north edge (night_at_the_ford's exit, §19) when the turns
    left at EXIT_PACE are no more than the hexes he needs plus EXIT_MARGIN, and he can still make
    it at EXIT_REACH a turn."""
    g = _ford()
    _hold_objectives(g)
    ch = g.char("able_2")
    ch.hex = Hex(3, 6)
    need = g.distance(ch.hex, Hex(3, 0)) + 1  # an edge hex (02.00 or 03.00), then off the map
    assert need == 7
    turns = g.scenario.turns
    # left * 3 <= 7 + 3: left 3 goes, left 4 stays (12 > 10).
    assert EXIT_PACE == 3 and EXIT_MARGIN == 3 and EXIT_REACH == 4
    g.state.flow.turn = turns - 3  # 4 turns left, this one included
    assert _exit_goal(g, ch) is None
    g.state.flow.turn = turns - 2  # 3 turns left
    assert _exit_goal(g, ch) == Hex(2, 0)  # the nearest edge hex, ties by label
    # Too far to make it: 2 turns at 4 hexes < 9 needed.
    ch.hex = Hex(3, 8)
    g.state.flow.turn = turns - 1
    assert g.distance(ch.hex, Hex(3, 0)) + 1 == 9
    assert _exit_goal(g, ch) is None


def test_exit_goal_needs_an_exit_worth_a_kill():
    g = new_game("first_contact", seed=1, data=house_data())  # no exits
    ch = g.char("able_1")
    g.state.flow.turn = g.scenario.turns
    assert _exit_goal(g, ch) is None


def test_a_man_on_the_exit_edge_steps_off_the_map_and_counts():
    """On the north edge in the last turn, he Sprints (no enemy near) and his direction leaves by the exit."""
    g = _ford()
    _clear_enemies(g)
    _hold_objectives(g)
    ch = g.char("able_2")
    ch.hex = Hex(3, 0)
    g.state.flow.turn = g.scenario.turns
    pol = TacticalPolicy()
    keys = ("sneak", "evade", "sprint", "hide")
    order = pol(g, _ask(DecisionKind.GIVE_ORDER, keys, ch.id))
    assert order == "sprint"
    dirs = ("4", "3/4", "1", "2")
    pick = pol(g, _ask(DecisionKind.ORDER_DIRECTION, dirs, ch.id))
    assert pick == "1"


def test_tactical_leaves_by_the_exit_in_night_at_the_ford():
    """Over a few seeds at least one man leaves by the north edge, and each one scores (§19)."""
    exited = 0
    for seed in (1, 2, 3, 4):
        g = _ford(seed)
        g.play(TacticalPolicy())
        out = [c for c in g.state.on_side(Side.FRIENDLY) if c.status is Status.EXITED]
        exited += len(out)
        vic = [e for e in g.events if e.kind == "victory"][-1]
        assert (f"{len(out)} exited" in vic.text) == bool(out)
    assert exited > 0


def test_men_mount_a_jeep_when_one_drive_brings_them_near_their_far_goal(monkeypatch):
    """mines_on_the_farm_road with the Germans gone and a goal at 16.06, 9 hexes up the map from the
    Jeep: one Ahead Slow move brings the Jeep within DROP_RANGE of it, so the first two men by id
    beside it mount (one per passenger seat, C2 31.11.2) and the Driver stays Stationary (Spot)."""
    from solo.playtest import tactical_transport as tt

    g = new_game("mines_on_the_farm_road", seed=1, data=house_data())
    _clear_enemies(g)
    jeep = g.state.vehicles["jeep"]
    pol = TacticalPolicy()
    goal = Hex(16, 6)
    monkeypatch.setattr("solo.playtest.tactical._goal", lambda game, ch: goal)
    assert tt.riders(g, jeep, lambda c: goal) == ["able_1", "able_2"]
    assert g.distance(g.char("able_1").hex, goal) >= tt.RIDE_MIN
    # 13.06: one drive ends 6 hexes or more from it (the minefield and map, C2 31.5): nobody rides.
    assert tt.riders(g, jeep, lambda c: Hex(12, 5)) == []
    keys = ("mount_up", "sneak", "evade", "hide")
    assert pol(g, _ask(DecisionKind.GIVE_ORDER, keys, "able_1")) == "mount_up"
    assert pol(g, _ask(DecisionKind.GIVE_ORDER, keys, "able_2")) == "mount_up"
    assert pol(g, _ask(DecisionKind.GIVE_ORDER, keys, "able_3")) != "mount_up"  # no seat left
    seats = ("vehicle:jeep|passenger_1", "vehicle:jeep|passenger_2")
    assert pol(g, _ask(DecisionKind.ORDER_TARGET, seats, "able_2")) == seats[1]  # not the same seat
    drv = pol(g, _ask(DecisionKind.GIVE_ORDER, ("spot", "crawl", "ahead_slow", "forward"), "baker_1"))
    assert drv == "spot"
    # A goal nearer than RIDE_MIN: nobody rides.
    assert tt.riders(g, jeep, lambda c: c.hex) == []


def test_the_jeep_drives_its_passenger_and_drops_him():
    """night_at_the_crossroads: the Jeep with a passenger drives (a speed order, C2 31.4) and its
    passenger Bails Out on the way (C2 31.11.2) in at least one of a few games."""
    drove = bailed = 0
    for seed in (1, 2, 3):
        g = new_game("night_at_the_crossroads", seed=seed, data=house_data())
        g.play(TacticalPolicy())
        drove += sum(1 for e in g.events if e.kind == "vehicle_move" and e.data.get("hexes", 0) > 0)
        bailed += sum(1 for e in g.events if e.kind == "bail_out" and e.data.get("bailed"))
    assert drove > 0 and bailed > 0
