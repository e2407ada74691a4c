"""Scenario special rules of base-rules §14: timed barrages and C4 set by a carrier."""

from __future__ import annotations

import pytest
from test_effects import game, script

from solo.core.errors import DataError
from solo.rules import artillery, grenades
from solo.rules.state import Phase

TABLE = {"enemy": ["05.12"] * 10, "friendly": ["05.15"] * 10}


def _barrage(turn=1, rounds="2", calibre="60mm"):
    return [{"turn": turn, "at": "enemy", "calibre": calibre, "rounds": rounds}]


def test_barrage_falls_on_its_turn_and_scatters(tmp_path):
    """§14: a turn-1 barrage of 2 rounds of 60mm: each aims by d10 and scatters d6, max(0, d6 - 2) hexes."""
    g = game(tmp_path, barrages=_barrage(), target_tables=TABLE)
    g.state.markers.grenades.clear()  # the engine already called it at the start of turn 1
    script(g, [0, 4, 3, 0, 2, 2])  # round 1: aim 0, dir 4, 1 hex; round 2: aim 0, dir 2, 0 hexes
    assert artillery.scenario_barrages(g) == 2
    assert [s["hex"] for s in g.state.markers.grenades] == ["05.13", "05.12"]


def test_barrage_waits_for_its_turn(tmp_path):
    """§14: a turn-2 barrage does nothing on turn 1 (no roll, no shell)."""
    g = game(tmp_path, barrages=_barrage(turn=2), target_tables=TABLE)
    assert g.state.markers.grenades == []
    script(g, [])
    assert artillery.scenario_barrages(g) == 0


def test_barrage_rounds_on_a_d6(tmp_path):
    """§14: rounds "d6" rolls the number of rounds (here 1)."""
    g = game(tmp_path, barrages=_barrage(rounds="d6"), target_tables=TABLE)
    script(g, [1, 0, 3, 1])
    assert artillery.scenario_barrages(g) == 1


def test_barrage_is_called_by_the_engine_at_the_turn_start(tmp_path):
    """§14: the engine calls the turn-1 barrage right after the turn begins."""
    g = game(tmp_path, barrages=_barrage(rounds="1"), target_tables=TABLE)
    kinds = [e.kind for e in g.events]
    assert kinds.index("artillery") > kinds.index("turn")


@pytest.mark.parametrize(("bad", "message"), [({"rounds": "d8"}, "rounds 'd8'"), ({"turn": 99}, "turn 99")])
def test_bad_barrage_is_refused(tmp_path, bad, message):
    """§19: a barrage's turn, calibre and rounds are checked."""
    with pytest.raises(DataError, match=message):
        game(tmp_path, barrages=[{**_barrage()[0], **bad}], target_tables=TABLE)


def test_c4_set_then_explodes_next_turn_on_0_to_2(tmp_path):
    """§14: a carrier in a C4 hex sets it in the End Phase; next turn a d10 of 3 is a dud, 2 goes off."""
    g = game(tmp_path, c4={"carriers": ["able_1"], "hexes": "05.15"})
    g.state.flow.phase = Phase.END
    assert artillery.place_c4(g) == ["able_1"]
    assert artillery.place_c4(g) == []  # one charge each
    script(g, [])
    grenades.end_phase_explosions(g)  # the turn it was set: it waits, no roll
    assert g.state.markers.grenades[0]["kind"] == "c4"
    g.state.flow.turn += 1
    script(g, [3])
    grenades.end_phase_explosions(g)
    assert any("does not go off (3)" in e.text for e in g.events)
    g.state.flow.turn += 1
    for cid in ("able_1", "able_2", "able_3"):  # out of the blast
        g.char(cid).hex = g.char("baker_1").hex
    script(g, [2])
    grenades.end_phase_explosions(g)
    assert any(e.kind == "explosion" and "C4 explodes on 05.15" in e.text for e in g.events)
    assert g.state.markers.grenades == []


def test_c4_not_set_outside_its_hexes(tmp_path):
    """§14: a carrier elsewhere keeps his charge."""
    g = game(tmp_path, c4={"carriers": ["able_1"], "hexes": "05.12"})
    assert artillery.place_c4(g) == [] and g.state.markers.grenades == []
