"""Friendly vehicles' turns offered to the player (C2 31.4).

"The vehicle will take the shortest route to change facing ... Enemy Vehicles will turn their
front towards any spotted, Friendly Characters ... if changing direction by 180 degrees" (so a
Friendly's way round is the player's), and "a movement Order is not required for Friendly
Vehicles to turn. As long as there is a Driver ... in the Driver position of the Vehicle then
it may turn one hex-side for free once per Impulse." Dice are scripted empty: no random pick
of the way may happen.
"""

from __future__ import annotations

from pathlib import Path

from test_crew import new_game, order, run, sherman

from solo.core.decisions import DecisionKind
from solo.core.dice import ScriptedSource
from solo.engine.game import Game
from solo.rules.vehicles import crew


def tank(tmp_path: Path, impulse: int = 1) -> Game:
    """A Friendly Sherman in 17.10 facing 1 (Driver McKee), no dice left to roll."""
    game = new_game(tmp_path, vehicles=[sherman()], impulse=impulse)
    game.dice.source = ScriptedSource([])
    return game


def ways(asked) -> list:
    return [d for d in asked if d.kind is DecisionKind.ORDER_TARGET]


# ---------------------------------------------------------------------------
# The way round on a 180° turn


def test_180_turn_asks_the_player_anticlockwise(tmp_path):
    """Ahead Slow 4 from facing 1: the player picks anticlockwise; free turn to 6, then 6->5
    for a movement point (no die rolled)."""
    game = tank(tmp_path)
    order(game, "tank_driver", "ahead_slow", "4")
    asked = ways(run(crew.activate(game, game.char("tank_driver")), ["no", "anticlockwise"]))
    assert len(asked) == 1 and asked[0].keys == ("clockwise", "anticlockwise")
    move = [e for e in game.events if e.kind == "vehicle_move"][-1]
    assert "anticlockwise, the player's choice" in move.text
    assert [s["facing"] for s in move.data["steps"]] == [6, 5]


def test_180_turn_asks_the_player_clockwise(tmp_path):
    """The same order answered clockwise: 1->2 free, 2->3 for a movement point."""
    game = tank(tmp_path)
    order(game, "tank_driver", "ahead_slow", "4")
    run(crew.activate(game, game.char("tank_driver")), ["no", "clockwise"])
    move = [e for e in game.events if e.kind == "vehicle_move"][-1]
    assert [s["facing"] for s in move.data["steps"]] == [2, 3]
    assert game.state.vehicles["tank"].facing == 3


def test_a_120_turn_takes_the_shortest_way_unasked(tmp_path):
    """Ahead Slow 3 from facing 1 is two hexsides clockwise, the shortest way: no question."""
    game = tank(tmp_path)
    order(game, "tank_driver", "ahead_slow", "3")
    asked = ways(run(crew.activate(game, game.char("tank_driver")), ["no"]))
    assert asked == [] and game.state.vehicles["tank"].facing == 3


# ---------------------------------------------------------------------------
# The free hexside turn without a movement order


def test_free_turn_offered_without_a_movement_order(tmp_path):
    """No movement order: the player may turn one hexside; turn:6 turns hull and turret to 6."""
    game = tank(tmp_path)
    order(game, "tank_driver", "no_order")
    asked = ways(run(crew.activate(game, game.char("tank_driver")), ["turn:6"]))
    assert asked[0].keys == ("stay", "turn:2", "turn:6")
    v = game.state.vehicles["tank"]
    assert (str(v.hex), v.facing, v.turret) == ("17.10", 6, 6)


def test_free_turn_declined_keeps_the_facing(tmp_path):
    """Answering stay leaves the facing and emits no move."""
    game = tank(tmp_path)
    order(game, "tank_driver", "no_order")
    run(crew.activate(game, game.char("tank_driver")), ["stay"])
    assert game.state.vehicles["tank"].facing == 1
    assert not [e for e in game.events if e.kind == "vehicle_move"]


def test_free_turn_once_per_impulse(tmp_path):
    """ "once per Impulse": a second activation in the same Impulse is not offered it; the next
    Impulse is."""
    game = tank(tmp_path)
    order(game, "tank_driver", "no_order")
    run(crew.activate(game, game.char("tank_driver")), ["turn:2"])
    assert ways(run(crew.activate(game, game.char("tank_driver")))) == []
    game.state.flow.impulse = 2
    assert len(ways(run(crew.activate(game, game.char("tank_driver")), ["stay"]))) == 1


def test_free_turn_with_emergency_stop(tmp_path):
    """A stopped vehicle (Emergency Stop) may still make its free turn."""
    game = tank(tmp_path)
    order(game, "tank_driver", "emergency_stop")
    run(crew.activate(game, game.char("tank_driver")), ["turn:2"])
    assert game.state.vehicles["tank"].facing == 2


def test_no_free_turn_question_while_the_order_moves(tmp_path):
    """With a speed order that moves this Impulse the free turn belongs to the move (no question)."""
    game = tank(tmp_path)
    order(game, "tank_driver", "ahead_slow", "1")
    assert ways(run(crew.activate(game, game.char("tank_driver")), ["no"])) == []


def test_no_free_turn_when_immobilized(tmp_path):
    """An immobilized vehicle does not turn."""
    game = tank(tmp_path)
    game.state.vehicles["tank"].damage.append("immobilized")
    order(game, "tank_driver", "no_order")
    assert ways(run(crew.activate(game, game.char("tank_driver")))) == []
