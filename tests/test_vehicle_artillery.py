"""Artillery against vehicles, as the game runs it (C2 31.10.12).

Off-board rounds (an event card's support fire, base-rules §14) are placed on the map and explode
in Step 5 a); a round on a vehicle's hex (for 105mm also an adjacent hex) rolls d10 on the
house Indirect Fire vs AFV table (0 hit, 1-2 tracks, 3-5 exposed crew, 6-9 nothing) or vs
Half-Track / Truck / Jeep table (0-1 hit, 2-4 a wound, 5-7 MCs, 8-9 nothing). The vehicle's d10
is scripted first; later rolls come from a fallback seed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_vehicle_end_phase import events, game_with, man

from solo.core.dice import ScriptedSource
from solo.core.hexes import Hex
from solo.engine.game import Game
from solo.rules.artillery import call_support_fire
from solo.rules.state import Side

US_CREW = {
    "commander": "us_cmd_whitaker",
    "driver": "us_drv_mckee",
    "gunner": "us_gun_reyes",
    "loader": "us_ldr_nakamura",
    "co_driver": "us_cdr_gallo",
}


def sherman_game(tmp_path: Path, *, jeep: bool = False) -> Game:
    """A Friendly Sherman in 17.10 (Commander's hatch open); with ``jeep`` a Jeep in 17.10 instead."""
    if jeep:
        v = {
            "id": "v",
            "type": "jeep",
            "side": "friendly",
            "hex": "17.10",
            "facing": 1,
            "crew": {"driver": "d1"},
        }
        return game_with(tmp_path, [v], [man("d1", "17.10")], [man("e1", "01.01")])
    v = {
        "id": "v",
        "type": "m4a3_sherman",
        "side": "friendly",
        "hex": "17.10",
        "facing": 1,
        "hatches": {"commander": "open"},
        "crew": dict(US_CREW),
    }
    return game_with(tmp_path, [v], [], [man("e1", "01.01")])


def shell(game: Game, calibre: str, hex_: str | Hex) -> None:
    """A round as support fire leaves it, exploding in Step 5 a)."""
    game.state.markers.grenades.append(
        {"kind": "shell", "calibre": calibre, "hex": str(hex_), "thrower": None, "turn": game.state.flow.turn}
    )


def land(
    game: Game, calibre: str, roll: int, hex_: str | Hex = "17.10", before: tuple[int, ...] = ()
) -> dict:
    """The round explodes in Step 5 a); ``before``: rolls for men in the open, then the vehicle's d10."""
    shell(game, calibre, hex_)
    game.dice.source = ScriptedSource([*before, roll], fallback=1)
    game._end_phase()
    got = events(game, "vehicle_artillery")
    assert len(got) == 1, got
    return got[0].data


@pytest.mark.parametrize(
    ("roll", "result"),
    [(0, "hit"), (1, "track"), (2, "track"), (3, "exposed"), (5, "exposed"), (6, "none"), (9, "none")],
)
def test_indirect_fire_vs_afv_table(tmp_path, roll, result):
    """C2 31.10.12 [house table]: an 81mm round on the Sherman's hex, each band's edges."""
    game = sherman_game(tmp_path)
    d = land(game, "81mm", roll)
    assert (d["vehicle"], d["roll"], d["result"]) == ("v", roll, result)


def test_track_result_immobilizes_from_75mm(tmp_path):
    """C2 31.10.12 [house]: tracks hit by an 81mm round immobilize; a 60mm round does not."""
    game = sherman_game(tmp_path)
    land(game, "81mm", 1)
    assert "immobilized" in game.state.vehicles["v"].damage
    (tmp_path / "b").mkdir()
    game2 = sherman_game(tmp_path / "b")
    land(game2, "60mm", 2)
    assert "immobilized" not in game2.state.vehicles["v"].damage


def test_exposed_result_wounds_only_the_open_hatch(tmp_path):
    """C2 31.10.12 [house] 3-5: a wound card for each crewman at an open hatch (the Commander only)."""
    game = sherman_game(tmp_path)
    d = land(game, "81mm", 3)
    assert [w["character"] for w in d["wounded"]] == ["v_commander"]


@pytest.mark.parametrize(
    ("roll", "result"),
    [(0, "hit"), (1, "hit"), (2, "wound"), (4, "wound"), (5, "mc"), (7, "mc"), (8, "none"), (9, "none")],
)
def test_indirect_fire_vs_jeep_table(tmp_path, roll, result):
    """C2 31.10.12 [house table]: a 60mm round on a Jeep's hex, each band's edges."""
    game = sherman_game(tmp_path, jeep=True)
    d = land(game, "60mm", roll, before=(0, 0))  # the Jeep's Driver sits in the open: blast 0, MC 0
    assert (d["roll"], d["result"]) == (roll, result)


def test_105mm_next_to_a_vehicle_rolls_on_the_table(tmp_path):
    """C2 31.10.12 "for 105mm fire, these tables are also consulted if a round impacts in a hex
    adjacent to a vehicle"."""
    game = sherman_game(tmp_path)
    next_door = game.board.neighbour_hex(Hex.parse("17.10"), 1)
    d = land(game, "105mm", 6, next_door)
    assert (d["vehicle"], d["calibre"], d["result"]) == ("v", "105mm", "none")


def test_81mm_next_to_a_vehicle_does_not(tmp_path):
    """C2 31.10.12: only 105mm reaches a vehicle in an adjacent hex; an 81mm round there does not."""
    game = sherman_game(tmp_path)
    shell(game, "81mm", game.board.neighbour_hex(Hex.parse("17.10"), 1))
    game.dice.source = ScriptedSource([], fallback=1)
    game._end_phase()
    assert events(game, "vehicle_artillery") == []


def test_105mm_two_hexes_away_does_not(tmp_path):
    """C2 31.10.12: a 105mm round two hexes from the vehicle leaves it alone."""
    game = sherman_game(tmp_path)
    one = game.board.neighbour_hex(Hex.parse("17.10"), 1)
    shell(game, "105mm", game.board.neighbour_hex(one, 1))
    game.dice.source = ScriptedSource([], fallback=1)
    game._end_phase()
    assert events(game, "vehicle_artillery") == []


def test_support_fire_on_the_target_table_reaches_the_vehicle(tmp_path):
    """Base-rules §14 and C2 31.10.12 end to end: support fire on the Friendly target table (the
    Sherman's crew in 17.10) lands there (81mm: d6 1 - 1 = no scatter) and in Step 5 the Sherman
    rolls on the Indirect Fire vs AFV table."""
    game = sherman_game(tmp_path)
    # 1 round (d6 1); target face 0 -> 17.10; scatter direction 1, distance d6 1 - 1 = 0; the AFV table 6
    game.dice.source = ScriptedSource([1, 0, 1, 1, 6], fallback=1)
    assert call_support_fire(game, "81mm", "d6", target_side=Side.FRIENDLY, cause="event") == 1
    game._end_phase()
    d = events(game, "vehicle_artillery")[0].data
    assert (d["vehicle"], d["roll"], d["result"]) == ("v", 6, "none")
