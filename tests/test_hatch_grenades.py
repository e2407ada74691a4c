"""Grenades dropped into an AFV's hatches, as the game offers and uses them (C2 31.10.7).

"If a Character starts a Turn in the same hex as an AFV of the opposing side and has a grenade
Order, they may drop a grenade through a hatch (open or closed) ... If the Character is still in
the same hex as the AFV on Impulse 3 ... makes a TQC and, if successful, places the Grenade
marker on one of the crew positions on the AFV. This Crew position may not have a Jammed hatch.
Enemy Characters will select a random Crew position on a Friendly AFV. At the end of the turn
each crew member will draw 3 wound cards."
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

from test_vehicle_end_phase import events, game_with, man

from solo.core.decisions import Decision, DecisionKind
from solo.core.dice import ScriptedSource
from solo.engine.game import Game
from solo.rules import fire_action
from solo.rules.state import Phase
from solo.rules.vehicles import hazards
from solo.rules.vehicles.state import Hatch
from solo.rules.vehicles.targets import HATCH_GRENADES

US_CREW = {
    "commander": "us_cmd_whitaker",
    "driver": "us_drv_mckee",
    "gunner": "us_gun_reyes",
    "loader": "us_ldr_nakamura",
    "co_driver": "us_cdr_gallo",
}
DE_CREW = {
    "commander": "de_cmd_brandt",
    "driver": "de_drv_vogel",
    "gunner": "de_gun_adler",
    "loader": "de_ldr_baumann",
    "co_driver": "de_cdr_hahn",
}


def afv(vid: str, vtype: str, side: str, crew: dict, **kw: Any) -> dict:
    return {"id": vid, "type": vtype, "side": side, "hex": "17.10", "facing": 1, "crew": dict(crew), **kw}


def at_impulse_3(game: Game, cid: str, target: str = "17.08") -> None:
    """The turn has begun (who is where noted), ``cid`` holds a Grenade order; Impulse 3."""
    hazards.note_turn_start(game)
    game.state.flow.phase, game.state.flow.impulse = Phase.ACTION, 3
    game.set_order(game.char(cid), "grenade", target=target)


def f_step(game: Game, cid: str, answers: list[str] = ()) -> list[Decision]:
    ch = game.char(cid)
    gen: Generator[Decision, str, None] = fire_action.fire_step(game, ch, game.data.orders.get("grenade"))
    asked: list[Decision] = []
    answers = list(answers)
    try:
        d = next(gen)
        while True:
            asked.append(d)
            d = gen.send(answers.pop(0) if answers else d.keys[0])
    except StopIteration:
        pass
    return asked


def enemy_by_sherman(tmp_path: Path, **kw: Any) -> Game:
    """Enemy e1 (TQ 5) on foot in the Friendly Sherman's hex 17.10."""
    sh = afv("sh", "m4a3_sherman", "friendly", US_CREW, **kw)
    return game_with(tmp_path, [sh], [], [man("e1", "17.10"), man("e2", "01.01")])


def test_enemy_drops_at_tq_into_a_random_hatch(tmp_path):
    """The Enemy uses it: TQC 5 passes; the position is a random pick among the four hatches
    (the Sherman's Gunner has none): pick 3 of 4 is the Loader's."""
    game = enemy_by_sherman(tmp_path)
    at_impulse_3(game, "e1")
    game.dice.source = ScriptedSource([5, 3])
    assert f_step(game, "e1") == []
    assert game.state.flags[HATCH_GRENADES] == [
        {"vehicle": "sh", "position": "loader", "thrower": "e1", "turn": 1}
    ]
    assert not events(game, "throw")


def test_enemy_fails_at_tq_plus_1(tmp_path):
    """TQC 6 against TQ 5 fails: no grenade in the AFV, and none thrown either."""
    game = enemy_by_sherman(tmp_path)
    at_impulse_3(game, "e1")
    game.dice.source = ScriptedSource([6])
    f_step(game, "e1")
    assert HATCH_GRENADES not in game.state.flags
    assert events(game, "hatch_grenade")[-1].data["roll"] == 6 and not events(game, "throw")


def test_jammed_hatch_is_never_picked(tmp_path):
    """ "This Crew position may not have a Jammed hatch": with three jammed, the pick is the fourth
    (one option: no die)."""
    game = enemy_by_sherman(tmp_path)
    for p in ("commander", "driver", "loader"):
        game.state.vehicles["sh"].seats[p].hatch = Hatch.JAMMED_CLOSED
    at_impulse_3(game, "e1")
    game.dice.source = ScriptedSource([5])
    f_step(game, "e1")
    assert game.state.flags[HATCH_GRENADES][0]["position"] == "co_driver"


def test_not_at_turn_start_means_a_plain_throw(tmp_path):
    """He must start the turn in the AFV's hex: one who walked in later throws as ordered."""
    game = enemy_by_sherman(tmp_path)
    e1 = game.char("e1")
    e1.hex = game.board.neighbour_hex(e1.hex, 4)
    at_impulse_3(game, "e1", target="17.09")
    e1.hex = game.state.vehicles["sh"].hex
    game.dice.source = ScriptedSource([], fallback=1)
    f_step(game, "e1")
    assert HATCH_GRENADES not in game.state.flags and not events(game, "hatch_grenade")


def test_afv_gone_by_impulse_3_means_a_plain_throw(tmp_path):
    """ "If the Character is still in the same hex as the AFV on Impulse 3": the AFV left, no drop."""
    game = enemy_by_sherman(tmp_path)
    at_impulse_3(game, "e1")
    sh = game.state.vehicles["sh"]
    sh.hex = game.board.neighbour_hex(sh.hex, 1)
    game.dice.source = ScriptedSource([], fallback=1)
    f_step(game, "e1")
    assert not events(game, "hatch_grenade")


def friendly_by_panzer(tmp_path: Path) -> Game:
    pz = afv("pz", "panzer_ivh", "enemy", DE_CREW, loaded="he")
    return game_with(tmp_path, [pz], [man("f1", "17.10")], [man("e1", "01.01")])


def test_friendly_is_offered_each_hatch_or_the_throw(tmp_path):
    """The player is asked (ORDER_TARGET): each unjammed hatch, or throw as ordered; his pick
    is used and the TQC passes at TQ 5."""
    game = friendly_by_panzer(tmp_path)
    at_impulse_3(game, "f1")
    game.dice.source = ScriptedSource([5])
    asked = f_step(game, "f1", ["hatch:pz:driver"])
    assert len(asked) == 1 and asked[0].kind is DecisionKind.ORDER_TARGET
    assert asked[0].keys == (
        "hatch:pz:commander",
        "hatch:pz:driver",
        "hatch:pz:loader",
        "hatch:pz:co_driver",
        "throw",
    )
    assert game.state.flags[HATCH_GRENADES][0]["position"] == "driver"


def test_friendly_may_throw_as_ordered(tmp_path):
    """Answering ``throw``: no TQC for the hatch; the order's throw (Grenade Check) is made."""
    game = friendly_by_panzer(tmp_path)
    at_impulse_3(game, "f1")
    game.dice.source = ScriptedSource([], fallback=1)
    f_step(game, "f1", ["throw"])
    assert not events(game, "hatch_grenade") and events(game, "throw")


def test_the_grenade_explodes_in_the_end_phase(tmp_path):
    """ "At the end of the turn each crew member will draw 3 wound cards": Step 5 does it."""
    game = friendly_by_panzer(tmp_path)
    at_impulse_3(game, "f1")
    game.dice.source = ScriptedSource([5])
    f_step(game, "f1", ["hatch:pz:commander"])
    crew = [game.state.vehicles["pz"].seats[p].occupant for p in DE_CREW]
    game.dice.source = ScriptedSource([], fallback=1)
    game._end_phase()
    boom = [e for e in events(game, "hatch_grenade") if e.data.get("report") is not None]
    assert len(boom) == 1 and HATCH_GRENADES not in game.state.flags
    drawn = [w["character"] for w in boom[0].data["report"]["wounded"]]
    assert set(drawn) == set(crew)
    assert all(drawn.count(c) == 3 or not game.char(c).is_active for c in crew)


def test_the_game_notes_who_starts_the_turn_in_the_hex(tmp_path):
    """The engine records at the start of each turn who stands in an opposing AFV's hex."""
    game = enemy_by_sherman(tmp_path)
    assert game.state.flags[hazards.HATCH_GRENADE_START] == {"turn": 1, "at": {"e1": ["sh"]}}
