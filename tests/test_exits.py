"""Scenario exits (base-rules §19 special rules): characters leave the map by their side's exit, and an
Enemy exit costs the squad VP."""

from __future__ import annotations

from conftest import action_game
from test_movement import FAR_FRIEND, act, man, moves, order

from solo.rules import victory
from solo.rules.state import Status

ENEMY_NORTH = {"victory": {"exits": [{"side": "enemy", "edge": "north", "vp": 2}]}}


def test_enemy_takes_his_exit(tmp_path):
    """§19: an Enemy stepping off the north edge, his side's exit, leaves the game (status exited)."""
    game = action_game(tmp_path, FAR_FRIEND, [man("e1", "05.00")], **ENEMY_NORTH)
    ch = order(game, "e1", "evade", "1")
    act(game, ch, 1)
    assert ch.status is Status.EXITED and ch.hex is None
    assert moves(game)[0].data["path"] == ["05.00", None]
    assert [e.kind for e in game.events if e.kind == "exited"] == ["exited"]


def test_exit_is_only_for_its_side_and_edge(tmp_path):
    """§19: the Enemy's north exit lets no Friendly off the north edge, and no Enemy off the east edge."""
    game = action_game(tmp_path, [man("f1", "04.00")], [man("e1", "09.05")], **ENEMY_NORTH)
    f = order(game, "f1", "evade", "1")
    act(game, f, 1)
    assert f.status is Status.ACTIVE and f.hex is not None
    e = game.char("e1")
    e.hex = type(e.hex).parse(f"{game.board.map.columns - 1:02d}.05")
    order(game, "e1", "evade", "2")
    act(game, e, 1)
    assert e.status is Status.ACTIVE


def test_exit_from_listed_hexes(tmp_path):
    """§19: an exit given by hexes lets a man off the map from one of them, in any direction off it."""
    extra = {"victory": {"exits": [{"side": "friendly", "hexes": "03.00", "vp": 1}]}}
    game = action_game(tmp_path, [man("f1", "03.00")], [man("e1", "09.09")], **extra)
    f = order(game, "f1", "evade", "1")
    act(game, f, 1)
    assert f.status is Status.EXITED


def test_enemy_exit_costs_the_squad_vp(tmp_path):
    """§19: each Enemy gone by the Enemy exit counts its VP against the squad (2 here)."""
    game = action_game(tmp_path, FAR_FRIEND, [man("e1", "05.00"), man("e2", "07.07")], **ENEMY_NORTH)
    ch = order(game, "e1", "evade", "1")
    act(game, ch, 1)
    victory.final_victory(game)
    assert game.state.vp == {"friendly": -2, "enemy": 2}
    assert [e.data["enemy_exited"] for e in game.events if e.kind == "victory"] == [["e1"]]
