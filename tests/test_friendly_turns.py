"""Friendly vehicles' turns and the Emergency Stop after entering a hex, offered to the player
(C2 31.4, 31.2 (1)).

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


# ---------------------------------------------------------------------------
# C2 31.2 (1): "The player may choose to issue an Emergency Stop to the Driver after moving into
# a new hex during an Impulse. Once selected the vehicle stops immediately."


def stops(game: Game) -> list:
    return [e for e in game.events if e.kind == "emergency_stop"]


def test_stop_after_entering_a_hex_is_offered_for_each_hex(tmp_path):
    """Fast 1 on Impulse 1 moves 3 hexes: the Step 4 a) iii) question offers a stop on entering each."""
    game = tank(tmp_path)
    order(game, "tank_driver", "fast", "1")
    game.dice.source = ScriptedSource([], fallback=1)
    asked = run(crew.activate(game, game.char("tank_driver")), ["no"])
    assert asked[0].kind is DecisionKind.DUCK_BACK
    assert asked[0].keys == (
        "no",
        "emergency_stop",
        "stop_after:17.09",
        "stop_after:17.08",
        "stop_after:17.07",
    )


def test_stop_after_the_second_hex(tmp_path):
    """Stop on entering 17.08: the Sherman stops there with Emergency Stop; it was moving 3 hexes
    this Impulse (31.11.2: no crewman keeps his order)."""
    game = tank(tmp_path)
    order(game, "tank_driver", "fast", "1")
    order(game, "tank_gunner", "spot")
    game.dice.source = ScriptedSource([], fallback=1)
    run(crew.activate(game, game.char("tank_driver")), ["stop_after:17.08"])
    v = game.state.vehicles["tank"]
    assert str(v.hex) == "17.08" and game.char("tank_driver").order.order == "emergency_stop"
    ev = stops(game)[-1]
    assert "31.2 (1)" in ev.data["reason"] and ev.data["hexes"] == 3
    assert game.char("tank_gunner").order.order != "spot"


def test_stop_after_one_hex_at_ahead_slow_keeps_the_crew_orders(tmp_path):
    """Ahead Slow 1 on Impulse 1 moves 1 hex: stopping on entering it (1 hex, 31.11.2) keeps the
    crew's orders."""
    game = tank(tmp_path)
    order(game, "tank_driver", "ahead_slow", "1")
    order(game, "tank_gunner", "spot")
    game.dice.source = ScriptedSource([], fallback=1)
    run(crew.activate(game, game.char("tank_driver")), ["stop_after:17.09"])
    assert str(game.state.vehicles["tank"].hex) == "17.09"
    assert game.char("tank_driver").order.order == "emergency_stop" and stops(game)[-1].data["hexes"] == 1
    assert game.char("tank_gunner").order.order == "spot"


def test_no_stop_after_when_the_order_does_not_move_now(tmp_path):
    """Crawl does not move on Impulse 2: only "no" and "emergency_stop" are offered."""
    game = tank(tmp_path, impulse=2)
    order(game, "tank_driver", "crawl", "1")
    asked = run(crew.activate(game, game.char("tank_driver")), ["no"])
    assert asked[0].keys == ("no", "emergency_stop")


def test_a_declared_stop_holds_for_its_impulse_only(tmp_path):
    """A stop declared for Impulse 1 does not stop the move of Impulse 2."""
    game = tank(tmp_path, impulse=2)
    order(game, "tank_driver", "ahead_slow", "1")
    game.state.vehicles["tank"].acted["stop_after"] = (1, 1, "17.09")
    game.dice.source = ScriptedSource([], fallback=1)
    run(crew.activate(game, game.char("tank_driver")), ["no"])
    assert str(game.state.vehicles["tank"].hex) == "17.09" and not stops(game)
    assert game.char("tank_driver").order.order == "ahead_slow"


def test_no_free_turn_for_a_panicking_driver(tmp_path):
    """[house] NO_FREE_TURN_ORDERS: a Driver with Panic does not turn the vehicle."""
    game = tank(tmp_path)
    order(game, "tank_driver", "panic")
    assert ways(run(crew.activate(game, game.char("tank_driver")))) == []


def test_free_turn_asked_only_when_a_known_opponent_is_off_the_front(tmp_path):
    """C2 31.4 "it may turn one hex-side for free once per Impulse", asked only when useful [house]:
    the only Known Enemy straight ahead (in the Front arc) or none Known: no question; the Enemy
    moved behind the tank (Rear arc): the Driver is asked."""
    from solo.core.hexes import Hex
    from solo.rules.vehicles.driving import free_turn_useful

    game = tank(tmp_path)
    order(game, "tank_driver", "no_order")
    v = game.state.vehicles["tank"]
    e1 = game.char("e1")
    e1.hex = Hex.parse("17.05")  # five hexes straight ahead (facing 1)
    assert not free_turn_useful(game, v)
    assert ways(run(crew.activate(game, game.char("tank_driver")))) == []
    e1.hex = Hex.parse("17.14")  # behind
    assert free_turn_useful(game, v)
    game.state.flow.impulse = 2
    assert len(ways(run(crew.activate(game, game.char("tank_driver")), ["stay"]))) == 1
    e1.revealed = False  # an Unknown counter is no reason to turn
    assert not free_turn_useful(game, v)
