"""Fires set by the scenario (``fires:``, C2 29.0 scenario-specific rule): validated, started at
set-up, and burning by C2 29.2-29.3 from the end of turn 1."""

from __future__ import annotations

import pytest
from conftest import make_game, maps_test_data, scenario_yaml
from test_effects import TREES, game, patch_everywhere, scenario, script

from solo.core.errors import DataError
from solo.core.hexes import Hex
from solo.data.scenario import load_scenario
from solo.rules import end_phase

BUILDING = "13.12"
"""A Building of the town map, away from every man of the test scenario."""


@pytest.fixture
def wound_draws(monkeypatch):
    """Record wound draws instead of making them: a list of (character id, cause)."""
    calls: list[tuple[str, str]] = []
    patch_everywhere(monkeypatch, "_wound", lambda g, ch, *, cause, rule: calls.append((ch.id, cause)))
    return calls


def test_scenario_fire_burns_from_set_up(tmp_path):
    """Each ``fires:`` hex holds a Fire (not Raging) before turn 1, logged under C2 29.0; it blocks LOS."""
    g = game(tmp_path, fires=f"{TREES} {BUILDING}")
    m = g.state.markers
    assert list(m.fire) == [TREES, Hex.parse(BUILDING)]
    assert set(m.fire.values()) == {"fire"}
    assert all(m.fire_started[h] == 0 for h in m.fire)
    lit = [e for e in g.events if e.kind == "burning"]
    assert [e.data["hex"] for e in lit] == [str(TREES), BUILDING]
    assert all(e.rule == "C2 29.0" and e.turn == 0 for e in lit)
    assert g.los.has_fire(TREES)


def test_no_fires_key_no_fire(tmp_path):
    """Without ``fires:`` nothing burns at set-up."""
    g = game(tmp_path)
    assert g.state.markers.fire == {}


@pytest.mark.parametrize(("face", "state"), [(2, "raging"), (3, "fire"), (9, None)])
def test_scenario_fire_rolls_growth_at_the_end_of_turn_1(tmp_path, face, state):
    """Started before turn 1, the fire rolls for growth (C2 29.3) already at the end of turn 1:
    Trees grow on d10 <= 2 (2 grows, 3 burns on), a 9 puts it out."""
    g = game(tmp_path, fires=str(TREES))
    assert g.state.flow.turn == 1
    script(g, [face])
    end_phase.end_phase_environment(g)
    assert g.state.markers.fire.get(TREES) == state
    assert g.dice.source.remaining == ()


def test_scenario_fire_wounds_a_man_who_stays_in_it(tmp_path, wound_draws):
    """A man moved into the burning hex draws a Wound card at the end of turn 1 (C2 29.2)."""
    g = game(tmp_path, fires=str(TREES))
    g.char("able_2").hex = TREES
    script(g, [5])  # growth roll: burns on
    end_phase.end_phase_environment(g)
    assert wound_draws == [("able_2", f"Fire on {TREES}")]


def _load(tmp_path, **over):
    p = tmp_path / "scenario.yaml"
    p.write_text(scenario_yaml(scenario(**over)))
    return load_scenario(p, maps_test_data())


def test_fires_validated_with_their_line(tmp_path):
    """Off the map, given twice, ground that does not burn, or a man set up in it: each a problem
    at the ``fires:`` line of the file."""
    with pytest.raises(DataError) as exc:
        _load(tmp_path, fires=f"99.99 {TREES} {TREES} 15.10 06.12")
    msg = str(exc.value)
    lines = (tmp_path / "scenario.yaml").read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.startswith("fires:"))
    assert msg.count(f"scenario.yaml:{line}:") == 4
    assert "99.99 is not on map" in msg
    assert f"hex {TREES} is given twice" in msg
    assert "15.10 is Open ground, which does not burn (C2 29.2 kindling)" in msg
    assert "06.12 burns at set-up but Gefr. Orth starts or enters there" in msg


def test_fires_accepted(tmp_path):
    """Burnable hexes with nobody in them load; the key is kept as written."""
    assert _load(tmp_path, fires=f"{TREES} {BUILDING}").fires == f"{TREES} {BUILDING}"


def test_fire_at_the_farm_starts_with_the_barn_burning(tmp_path):
    """The shipped ``fire_at_the_farm`` (hedgerows map) sets the farm's barn, a Building, on fire."""
    g = make_game(tmp_path, "fire_at_the_farm")
    barn = Hex.parse("28.03")
    assert g.state.markers.fire == {barn: "fire"}
    assert g.board.map.terrain[barn] == "building"
    assert not any(c.hex == barn for c in g.state.characters.values() if c.on_map)


@pytest.mark.parametrize(("face", "state"), [(2, "raging"), (3, "fire")])
def test_fire_in_a_building_grows_on_the_building_once_it_is_rubble(tmp_path, face, state):
    """C2 29.3: growth uses the terrain where the fire started. A Building fire whose hex a shell
    then turns to Rubble (14) still grows on the Building's 2 (2 grows, 3 burns on); Rubble has
    no growth value, so reading the current terrain would never grow."""
    g = game(tmp_path, fires=BUILDING)
    h = Hex.parse(BUILDING)
    g.change_terrain(h, "rubble")
    assert g.board.terrain_of(h).id == "rubble"
    script(g, [face])
    end_phase.end_phase_environment(g)
    assert g.state.markers.fire.get(h) == state
    growth = [e for e in g.events if e.kind == "burning" and "growth" in e.text]
    assert growth[-1].data["growth"] == 2


WAVE = {
    "turn": 2,
    "team": "red",
    "hexes": "05.00 06.00",
    "characters": [
        {"id": "red_9", "name": "Gren. Neun", "tq": 4, "weapons": [{"weapon": "kar98k", "ws": 4}]},
    ],
}


def test_fire_on_a_reinforcement_entry_hex_refused_with_its_line(tmp_path):
    """C2 29.2: nobody enters a Fire, so a ``fires:`` hex may not be a wave's entry hex (nor a
    wave man's own hex): a problem at the ``fires:`` line."""
    wave = {**WAVE, "hexes": f"05.00 {BUILDING}"}
    with pytest.raises(DataError) as exc:
        _load(tmp_path, fires=BUILDING, reinforcements=[wave])
    lines = (tmp_path / "scenario.yaml").read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.startswith("fires:"))
    assert f"scenario.yaml:{line}: " in str(exc.value)
    assert f"hex {BUILDING} burns at set-up but reinforcement wave 1 (red) starts or enters there" in str(
        exc.value
    )
    assert _load(tmp_path, fires=BUILDING, reinforcements=[WAVE]).fires == BUILDING


def test_wave_enters_by_an_entry_hex_that_does_not_burn(tmp_path):
    """C2 29.2 [house]: the wave's man due at a burning entry hex enters by the wave's first
    entry hex that does not burn."""
    from solo.enemy import order_phase
    from solo.rules.terrain_fire import start_fire

    g = game(tmp_path, reinforcements=[WAVE])
    start_fire(g, Hex.parse("05.00"), cause="test")
    g.state.flow.turn = 2
    placed = order_phase.place_reinforcements(g)
    assert [c.id for c in placed] == ["red_9"] and str(g.char("red_9").hex) == "06.00"


def test_wave_waits_a_turn_while_every_entry_hex_burns(tmp_path):
    """C2 29.2 [house]: every entry hex burning, the wave waits a turn (logged), then enters."""
    from solo.enemy import order_phase
    from solo.rules.terrain_fire import extinguish, start_fire

    g = game(tmp_path, reinforcements=[WAVE])
    for h in ("05.00", "06.00"):
        start_fire(g, Hex.parse(h), cause="test")
    g.state.flow.turn = 2
    assert order_phase.place_reinforcements(g) == []
    assert g.char("red_9").hex is None
    assert "they wait until turn 3" in [e for e in g.events if e.kind == "reinforcements"][-1].text
    g.state.flow.turn = 3
    extinguish(g, Hex.parse("05.00"), cause="test")
    assert [c.id for c in order_phase.place_reinforcements(g)] == ["red_9"]
    assert str(g.char("red_9").hex) == "05.00"


def test_fires_read_the_scenarios_own_overlays(tmp_path):
    """C2 29.2 kindling: a Fortified Building overlay of the scenario (``overlays:``) on Open
    ground burns (kindling 1), so a ``fires:`` hex there loads; without it Open ground is refused."""
    with pytest.raises(DataError, match=r"15\.10 is Open ground, which does not burn"):
        _load(tmp_path, fires="15.10")
    over = [{"feature": "fortified_building", "hexes": "15.10"}]
    assert _load(tmp_path, fires="15.10", overlays=over).fires == "15.10"
