"""The ``tactical`` policy keeps out of a Known Enemy MG's fire lane (its LOS and range) when it can."""

from conftest import house_data

from solo.core.decisions import Decision, DecisionKind, Option
from solo.playtest import tactical as T
from solo.playtest.play import new_game
from solo.rules.state import Side


def _rain():
    """armour_in_the_rain: red_4 carries the MG42 (an MG)."""
    return new_game("armour_in_the_rain", seed=1, data=house_data())


def test_lanes_are_known_mgs_los_and_range_only():
    g = _rain()
    me, mg = g.char("able_1"), g.char("red_4")
    here = g.board.index[me.hex]
    mg.revealed = False
    assert not T._mg_lanes(g, me)(here)  # an unknown MG has no lane the player sees
    mg.revealed = True
    mg.hex = me.hex.__class__(me.hex.col, me.hex.row - 2)
    assert g.sight(mg, me.hex).clear
    assert T._mg_lanes(g, me)(here)
    for e in g.state.active(Side.ENEMY):
        if e is not mg:
            e.revealed = False
    rifle = g.char("red_1")
    rifle.revealed, rifle.hex = True, mg.hex
    mg.revealed = False
    assert not T._mg_lanes(g, me)(here)  # a Known rifleman is not an MG lane


def test_a_mover_picks_the_path_out_of_the_lane_when_it_costs_little(monkeypatch):
    """Two direction strings ending equally near the goal: the one out of the MG's lane wins; with
    no Known MG, the first offered (ties by the order of the options)."""
    g = _rain()
    me = g.char("able_1")
    pol = T.TacticalPolicy()
    pol._orders[me.id] = "sneak"
    keys = ("1", "2", "3", "4", "5", "6")
    goal = me.hex
    monkeypatch.setattr(T, "_goal", lambda game, ch: goal)
    monkeypatch.setattr(T, "_threats", lambda game, ch: [])
    ask = Decision(DecisionKind.ORDER_DIRECTION, "d", tuple(Option(k, k) for k in keys), actor=me.id)
    free = pol(g, ask)
    board = g.board

    def end(key):  # where a 2-hex Sneak along ``key`` stops (as the policy scores it)
        cur = board.index[me.hex]
        for _ in range(2):
            nxt = board.neighbours[cur][int(key)]
            if nxt < 0 or not board.terrain_of(board.hexes[nxt]).character_passable:
                break
            cur = nxt
        return cur

    monkeypatch.setattr(T, "_mg_lanes", lambda game, ch: lambda i: i == end(free))
    other = pol(g, ask)
    assert other != free and end(other) != end(free)
    monkeypatch.setattr(T, "_mg_lanes", lambda game, ch: lambda i: True)  # no way out: as before
    assert pol(g, ask) == free


def test_a_lane_over_the_goal_itself_is_crossed(monkeypatch):
    """A man whose goal lies in the MG's lane must cross it to get there: the path onto the goal
    wins over one that ends beside it out of the lane (mines_on_the_farm_road's farmhouse, next
    to the MG)."""
    g = _rain()
    me = g.char("able_1")
    pol = T.TacticalPolicy()
    pol._orders[me.id] = "sneak"
    keys = ("1", "2", "3", "4", "5", "6")
    board = g.board
    goal = board.hexes[board.neighbours[board.neighbours[board.index[me.hex]][1]][1]]  # 2 hexes north
    monkeypatch.setattr(T, "_goal", lambda game, ch: goal)
    monkeypatch.setattr(T, "_threats", lambda game, ch: [])
    ask = Decision(DecisionKind.ORDER_DIRECTION, "d", tuple(Option(k, k) for k in keys), actor=me.id)
    assert pol(g, ask) == "1"  # straight onto the goal
    monkeypatch.setattr(T, "_mg_lanes", lambda game, ch: lambda i: i == board.index[goal])
    assert pol(g, ask) == "1"  # the goal is in the lane: no turning aside to a hex beside it
