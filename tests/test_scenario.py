"""Scenarios: the format, its checks with lines, the set-up rolls and the shipped scenarios (base-rules §19;
C2 23.3-23.5, 24.0, 25.0, 28.1-28.2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
import yaml
from conftest import house_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo.core.chance_records import Pick, Roll
from solo.core.dice import Dice, ScriptedSource
from solo.core.errors import DataError
from solo.core.hexes import Hex
from solo.core.options import Options
from solo.core.resources import cards_dir
from solo.data.characters import CharacterBook, load_characters
from solo.data.maps import load_map
from solo.data.scenario import load_scenario, shipped_scenarios
from solo.data.scenario_format import STANDARD_BANDS, Ground, Scenario, Victory, Weather, parse_forced_order
from solo.data.terrain import TerrainTable
from solo.engine.game import Game
from solo.rules.setup import build_state, place_reinforcements
from solo.rules.state import GameState, Side

# A compact scenario with one of everything; the bad-input tests break one line of it.
BASE = """\
id: test_case
name: Test case
map: town
turns: 6
wind: 1
friendly:
  - id: able
    characters:
      - {id: able_1, name: Sgt A, tq: 6, ldr: 2, weapons: [{weapon: m3_smg, ws: 6}], hex: "15.16"}
      - {id: able_2, name: Pvt B, tq: 5, weapons: [{weapon: m1_garand, ws: 5}], skills: [tough], hex: "14.16"}
enemy:
  - id: red
    characters:
      - {id: red_1, counter: 4, hex: "15.06"}
    cup:
      - counters: [10, 14]
        dummies: 1
        hexes: "14.07 16.07 13.06"
reinforcements:
  - {turn: 3, team: red, hexes: "15.00", cup: {counters: [19]}, order: "EV 5/6"}
options:
  night_los: 4
victory: {}
"""

# A squad rolled on the C2 25.0 table; the enemy is placed by hand, so the selection d10 is the only roll.
ROLLED = """\
id: rolled_case
name: Rolled case
map: town
turns: 6
wind: 1
friendly:
  - {id: able, roll: character_selection, hexes: "15.18 14.17 16.17"}
  - {id: baker, roll: character_selection, hexes: "11.18"}
  - {id: charlie, roll: character_selection, hexes: "05.18 06.18"}
enemy:
  - id: red
    characters:
      - {id: red_1, counter: 4, hex: "15.06"}
victory: {}
"""

NEW_SCENARIOS = ("night_at_the_ford", "rain_on_the_side_street", "the_churchyard")


def write(tmp_path: Path, text: str, name: str = "scenario.yaml") -> Path:
    """``text`` written to ``tmp_path/name``."""
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def broken(tmp_path: Path, old: str, new: str, base: str = BASE) -> tuple[Path, int]:
    """A copy of ``base`` with ``old`` replaced by ``new``, and the line ``new`` starts on."""
    assert old in base, old
    text = base.replace(old, new, 1)
    line = text[: text.index(new)].count("\n") + 1
    return write(tmp_path, text, "broken.yaml"), line


def problems_of(path: Path, data: Any = None) -> list[tuple[str, int | None, str]]:
    """The (file, line, message) of every problem loading ``path`` (which must fail)."""
    with pytest.raises(DataError) as info:
        load_scenario(path, data if data is not None else house_data())
    return [(p.path, p.line, p.message) for p in info.value.problems]


def assert_problem(path: Path, line: int, words: str, data: Any = None) -> None:
    """Loading ``path`` fails with a problem at ``path:line`` whose message contains ``words``."""
    found = problems_of(path, data)
    assert any(f == str(path) and ln == line and words in msg for f, ln, msg in found), found


def build(sc: Scenario, dice: Dice) -> GameState:
    """The initial state of ``sc`` with the shipped data."""
    return build_state(sc, house_data(), dice)


# ---------------------------------------------------------------------------
# The shipped scenarios


@pytest.fixture(scope="module")
def shipped() -> dict[str, Scenario]:
    """Every shipped scenario, loaded."""
    return {p.stem: load_scenario(p, house_data()) for p in shipped_scenarios()}


def test_every_shipped_scenario_loads_and_builds(shipped):
    """Each shipped scenario loads without a problem and builds a state with both sides on the map (§19)."""
    assert set(NEW_SCENARIOS) <= set(shipped)
    for sc in shipped.values():
        st = build(sc, Dice(3))
        assert st.active(Side.FRIENDLY) and st.active(Side.ENEMY), sc.id


def test_shipped_scenarios_cover_elite_night_and_heavy_rain(shipped):
    """Issue 3: one scenario with elite SS (C2 24.0), one at night or in fog, one in heavy rain (C2 28.1)."""
    new = [shipped[s] for s in NEW_SCENARIOS]
    assert any(sc.elite for sc in new)
    assert any(sc.night or sc.weather is Weather.FOG for sc in new)
    assert any(sc.weather is Weather.HEAVY_RAIN and sc.ground is Ground.NORMAL for sc in new)
    assert {sc.map for sc in new} == {"town", "countryside"}


@pytest.mark.parametrize("name", NEW_SCENARIOS)
def test_shipped_scenario_sizes(shipped, name):
    """6-10 turns, 8-12 Friendly men, 8-15 Enemy counters with dummies (event waves aside), objectives."""
    sc = shipped[name]
    st = build(sc, Dice(5))
    on_call = {c for w in st.flags.get("reinforcements", ()) if w["event"] for c in w["characters"]}
    friendly = [c for c in st.on_side(Side.FRIENDLY) if c.id not in on_call]
    enemy = [c for c in st.on_side(Side.ENEMY) if c.id not in on_call]
    assert 6 <= sc.turns <= 10
    assert 8 <= len(friendly) <= 12
    assert 8 <= len(enemy) <= 15
    assert any(c.dummy for c in enemy)
    assert sc.victory.objectives and sc.description


@pytest.mark.parametrize("name", NEW_SCENARIOS)
def test_direction_counters_lean_5_6_toward_the_friendly_edge(shipped, name):
    """Base-rules §6: through each counter, card directions 5 and 6 point toward the Friendly edge."""
    toward = {"south": {3, 4, 5}, "north": {6, 1, 2}, "west": {5, 6}, "east": {2, 3}}
    sc = shipped[name]
    assert sc.direction_counters
    for dc in sc.direction_counters:
        assert {dc.to_map(5), dc.to_map(6)} <= toward[sc.edges.friendly.value]


def test_every_placed_unit_stands_on_a_hex_it_can_enter(shipped):
    """Every set-up and entry hex of every shipped scenario is on its map and enterable (§19, 27.x)."""
    table = house_data().terrain
    for sc in shipped.values():
        m = load_map(sc.map, table)
        hexes = [c.hex for c in build(sc, Dice(1)).characters.values() if c.hex is not None]
        hexes += [Hex.parse(h) for w in sc.reinforcements for h in w.hexes.split()]
        for h in hexes:
            assert m.has_hex(h), (sc.id, h)
            kinds = (m.terrain[h], *m.overlays.get(h, ()))
            assert all(table[k].character_passable for k in kinds), (sc.id, h)


@pytest.mark.parametrize("name", (*NEW_SCENARIOS, "first_contact"))
def test_a_game_of_each_shipped_scenario_plays_to_the_end(shipped, name):
    """A whole game with a trivial policy (always the first option) ends without an exception (§1)."""
    sc = shipped[name]
    game = Game(sc, house_data(), dice=Dice(17), options=sc.game_options())
    game.play(lambda g, d: d.keys[0])
    assert game.over


def test_first_contact_rolls_nothing_at_set_up():
    """first_contact gives its wind and clear weather, so set-up takes no die (other tests script dice)."""
    sc = load_scenario("first_contact", house_data())
    st = build(sc, Dice(ScriptedSource([])))
    assert st.wind == 1 and st.max_los is None


# ---------------------------------------------------------------------------
# The character profiles


def test_the_character_book_holds_the_squad_table_and_counters():
    """characters.yaml: rows 0-8 give 3 Able, 3 Baker, 6 Charlie; 9 re-rolls; counters 1-21 (C2 24, 25)."""
    book = load_characters()
    for face in range(9):
        row = book.selection_table.row(face)
        assert (len(row.able), len(row.baker), len(row.charlie)) == (3, 3, 6)
    assert book.selection_table.row(9).reroll
    assert [p.counter for p in book.enemy] == list(range(1, 22))
    assert [p.counter for p in book.elite] == list(range(1, 22))


def test_elite_counterparts_are_better_and_some_have_skills():
    """C2 24.0-24.1 (house values): every SS counterpart has at least its regular TQ; some have skills."""
    book = load_characters()
    for n in range(1, 22):
        regular, elite = book.counter(n), book.counter(n, elite=True)
        assert elite.tq >= regular.tq and elite.role == regular.role
    assert sum(1 for p in book.elite if p.skills) >= 5
    assert any(p.ldr >= 1 for p in book.enemy if p.role.value in ("officer", "nco"))


def test_a_broken_character_book_names_its_lines(tmp_path):
    """A counter given twice and a missing selection row are reported with their lines, all at once."""
    src = (cards_dir() / "characters.yaml").read_text(encoding="utf-8")
    src = src.replace("- {roll: 9, reroll: true}", "- {roll: 8, reroll: true}")
    src = src.replace(
        "- {counter: 21, role: recruit, name: Gren. Mahler",
        "- {counter: 20, role: recruit, name: Gren. Mahler",
    )
    p = write(tmp_path, src, "characters.yaml")
    with pytest.raises(DataError) as info:
        load_characters(p)
    messages = [(pr.line, pr.message) for pr in info.value.problems]
    dup_line = src[: src.index("{counter: 20, role: recruit, name: Gren. Mahler")].count("\n") + 1
    assert any(ln == dup_line and "given twice" in m for ln, m in messages), messages
    assert any("no row for d10 face(s) 9" in m for _ln, m in messages)
    assert any("roll 8 has two rows" in m for _ln, m in messages)


# ---------------------------------------------------------------------------
# Set-up rolls: the selection table, cups, elite, wind, weather


def test_a_forced_3_gives_the_roll_3_squad(tmp_path):
    """C2 25.0: a d10 of 3 gives row 3: Sgt Mayfield's Able, Pvt Johnson's Baker, Cpl Diaz's Charlie."""
    sc = load_scenario(write(tmp_path, ROLLED), house_data())
    st = build(sc, Dice(ScriptedSource([3])))
    names = {t: [st.characters[c].name for c in st.teams[t].members] for t in ("able", "baker", "charlie")}
    assert names["able"] == ["Sgt Mayfield", "Pvt Cragg", "Pvt Patterson"]
    assert names["baker"] == ["Pvt Johnson", "Pvt Miller", "Pvt James"]
    assert names["charlie"] == [
        "Cpl Diaz",
        "Pvt Buttermann",
        "Pvt Kowalski",
        "Pvt Maloney",
        "Pvt Hall",
        "Pvt Perry",
    ]
    assert st.flags["character_selection"] == 3


def test_rolled_members_take_the_team_hexes_in_order(tmp_path):
    """A rolled team's members take its set-up hexes in order, wrapping round (house set-up)."""
    sc = load_scenario(write(tmp_path, ROLLED), house_data())
    st = build(sc, Dice(ScriptedSource([3])))
    charlie = [str(st.characters[c].hex) for c in st.teams["charlie"].members]
    assert charlie == ["05.18", "06.18"] * 3
    assert all(not c.revealed and c.side is Side.FRIENDLY for c in st.characters.values() if c.team == "able")


def test_a_9_on_the_selection_table_is_rolled_again(tmp_path):
    """C2 25.0: a 9 means re-roll; 9 then 0 gives row 0 and both rolls are recorded with their purpose."""
    sc = load_scenario(write(tmp_path, ROLLED), house_data())
    dice = Dice(ScriptedSource([9, 0]))
    st = build(sc, dice)
    assert st.characters[st.teams["able"].members[0]].name == "Sgt Taylor"
    rolls = [r for r in dice.history if isinstance(r, Roll)]
    assert [r.total for r in rolls] == [9, 0]
    assert "C2 25.0" in rolls[0].purpose and "re-roll" in rolls[1].purpose


def test_the_selection_roll_is_logged_by_the_game(tmp_path):
    """The game log shows the selection d10 (a roll event) and a set-up event naming the squad (C2 25.0)."""
    sc = load_scenario(write(tmp_path, ROLLED), house_data())
    game = Game(sc, house_data(), dice=Dice(ScriptedSource([5], fallback=2)))
    roll = next(e for e in game.events if e.kind == "roll")
    assert roll.data["total"] == 5 and "C2 25.0" in roll.data["purpose"]
    setup = next(e for e in game.events if e.kind == "setup" and e.rule == "C2 25.0")
    assert "SSgt Perez" in setup.text and setup.data["roll"] == 5


def cup_placements(sc: Scenario, seed: int) -> dict[str, tuple[str, bool]]:
    """Where each drawn counter stands: hex -> (name, dummy), for a seed."""
    st = build(sc, Dice(seed))
    return {str(c.hex): (c.name, c.dummy) for c in st.characters.values() if c.side is Side.ENEMY and c.hex}


def test_cups_draw_the_same_for_a_seed_and_differently_for_another(shipped):
    """Base-rules §19: cup draws go through the dice, so one seed gives one set-up and other seeds others."""
    sc = shipped["the_churchyard"]
    first = cup_placements(sc, 11)
    assert cup_placements(sc, 11) == first
    assert any(cup_placements(sc, seed) != first for seed in range(12, 20))


def test_a_cup_puts_one_unknown_counter_per_hex_in_the_order_written(tmp_path):
    """Base-rules §19: one counter per set-up hex, Unknown, in the order written; extra hexes stay empty."""
    sc = load_scenario(write(tmp_path, BASE), house_data())
    dice = Dice(ScriptedSource([3, 1]))  # picks: 3rd of (10, 14, dummy), then 1st of (10, 14)
    st = build(sc, dice)
    drawn = {str(c.hex): c for c in st.characters.values() if c.team == "red" and c.id != "red_1" and c.hex}
    assert drawn["14.07"].dummy and drawn["16.07"].counter == 10 and drawn["13.06"].counter == 14
    assert not any(c.revealed for c in drawn.values())
    picks = [r for r in dice.history if isinstance(r, Pick)]
    assert [p.label for p in picks[:3]] == ["dummy", "counter 10", "counter 14"]


def test_elite_replaces_counters_by_their_ss_counterparts(tmp_path):
    """C2 24.0: `elite: true` puts SS counterpart 4 in place of counter 4; a team `elite: false` keeps it."""
    book = load_characters()
    elite = write(tmp_path, BASE.replace("turns: 6\n", "turns: 6\nelite: true\n"), "elite.yaml")
    st = build(load_scenario(elite, house_data()), Dice(1))
    red_1 = st.characters["red_1"]
    assert red_1.elite and red_1.name == book.counter(4, elite=True).name
    assert red_1.tq == book.counter(4, elite=True).tq
    kept = BASE.replace("turns: 6\n", "turns: 6\nelite: true\n").replace(
        "  - id: red\n", "  - id: red\n    elite: false\n"
    )
    st = build(load_scenario(write(tmp_path, kept, "kept.yaml"), house_data()), Dice(1))
    assert not st.characters["red_1"].elite and st.characters["red_1"].name == book.counter(4).name


def test_elite_replacement_is_logged(tmp_path):
    """The game log says which counters became SS counterparts (C2 24.0)."""
    sc = load_scenario("the_churchyard", house_data())
    game = Game(sc, house_data(), dice=Dice(4), options=sc.game_options())
    notes = [e for e in game.events if e.kind == "setup" and e.rule == "C2 24.0"]
    assert notes and 5 in notes[0].data["counters"]


def test_the_wind_is_rolled_when_the_scenario_gives_none(tmp_path):
    """Base-rules §13, Q34: no wind in the scenario → a d6 at set-up, with its purpose."""
    sc = load_scenario(write(tmp_path, BASE.replace("wind: 1\n", "")), house_data())
    dice = Dice(ScriptedSource([1, 1, 4]))  # two cup picks, then the d6
    st = build(sc, dice)
    assert st.wind == 4
    assert "wind" in dice.history[-1].purpose


def test_fog_rolls_the_maximum_los_at_set_up(tmp_path):
    """C2 28.1: fog limits LOS to 1d6 hexes, rolled at set-up."""
    sc = load_scenario(write(tmp_path, BASE.replace("turns: 6\n", "turns: 6\nweather: fog\n")), house_data())
    st = build(sc, Dice(ScriptedSource([1, 1, 3])))  # two cup picks, then the d6
    assert st.max_los == 3 and st.weather == "fog"


def test_heavy_rain_rolls_2d6_for_the_maximum_los(tmp_path):
    """C2 28.1: heavy rain limits LOS to 2d6 hexes."""
    text = BASE.replace("turns: 6\n", "turns: 6\nweather: heavy_rain\n")
    st = build(load_scenario(write(tmp_path, text), house_data()), Dice(ScriptedSource([1, 1, 2, 5])))
    assert st.max_los == 7 and st.ground == "normal"


def test_scenario_options_reach_the_game_options(shipped):
    """C2 23.5: a scenario's `optional_enemy_activation: true` becomes the game's option."""
    sc = shipped["night_at_the_ford"]
    assert sc.game_options().optional_enemy_activation
    assert sc.game_options(Options(night_los=3)).night_los == 3


def test_reinforcements_wait_off_the_map_and_arrive_on_their_turn(shipped):
    """Base-rules §5.7: a wave stays off the map, in no team, until its turn; then it enters Alert."""
    sc = shipped["rain_on_the_side_street"]
    game = Game(sc, house_data(), dice=Dice(8), options=sc.game_options())
    wave = game.state.flags["reinforcements"][0]
    men = [game.char(c) for c in wave["characters"]]
    assert all(c.hex is None and c.id not in game.state.teams["yellow"].members for c in men)
    game.state.flow.turn = 5
    placed = place_reinforcements(game)
    assert [str(c.hex) for c in placed] == ["15.19", "13.19"]
    assert all(c.alert and c.order.order == "evade" and str(c.order.directions) == "5/6" for c in placed)
    assert all(c.id in game.state.teams["yellow"].members for c in placed)
    assert game.events[-1].kind == "reinforcements"
    assert place_reinforcements(game) == []


def test_forced_orders_read_codes_ids_and_directions():
    """Forced orders resolve against orders.yaml codes or ids: 'EV 5/6' = 'evade 5/6'; 'HI' takes none."""
    orders = house_data().orders
    assert str(parse_forced_order("EV 5/6", orders)) == "evade 5/6"
    assert parse_forced_order("evade 5/6", orders) == parse_forced_order("EV 5/6", orders)
    assert parse_forced_order("HI", orders).directions is None
    for bad in ("EV", "HI 5/6", "XX 5/6", "EV 5/3", ""):
        with pytest.raises(ValueError):
            parse_forced_order(bad, orders)


def test_objectives_are_the_friendly_objective_hexes(shipped):
    """Scenario.objectives: the Friendly objective hexes in the order written (for the policies)."""
    assert shipped["the_churchyard"].objectives == (Hex.parse("20.02"), Hex.parse("15.05"))


def test_victory_bands_give_the_result():
    """Base-rules §19 standard bands: 15 superb ... 0 or less demotion."""
    v = Victory()
    assert v.bands == STANDARD_BANDS
    assert (v.result(15), v.result(12), v.result(1), v.result(0), v.result(-4)) == (
        "superb",
        "good",
        "poor",
        "demotion",
        "demotion",
    )


# ---------------------------------------------------------------------------
# Bad input: every problem with its file and line


def test_a_missing_map_is_named_with_its_line(tmp_path):
    """An unknown map id is reported at the `map:` line."""
    p, line = broken(tmp_path, "map: town", "map: atlantis")
    assert_problem(p, line, "unknown map 'atlantis'")


def test_a_hex_off_the_map_is_named_with_its_line(tmp_path):
    """A starting hex outside the map (an even column's missing row 19) is reported on its line."""
    p, line = broken(tmp_path, 'hex: "14.16"', 'hex: "14.19"')
    assert_problem(p, line, "not on map 'town'")


def test_a_bad_hex_in_a_cup_list_is_named_on_its_line(tmp_path):
    """A malformed set-up hex inside a cup's hex list is reported on the line of that token."""
    p, line = broken(tmp_path, 'hexes: "14.07 16.07 13.06"', 'hexes: "14.07 16.7 13.06"')
    assert_problem(p, line, "16.7")


def test_a_unit_in_terrain_it_cannot_enter_is_refused(tmp_path):
    """A unit placed on terrain with character_passable false is reported on its line (C2 31.5, 23.7)."""
    data = house_data()
    table = TerrainTable(
        tuple(
            attrs.evolve(t, character_passable=False) if t.id == "building" else t for t in data.terrain.types
        )
    )
    walled = attrs.evolve(data, terrain=table)
    p, line = broken(
        tmp_path, '{id: red_1, counter: 4, hex: "15.06"}', '{id: red_1, counter: 4, hex: "13.06"}'
    )
    assert_problem(p, line, "characters cannot enter it", walled)


def test_a_unit_on_an_opponents_hex_is_refused(tmp_path):
    """Set-up: a Friendly placed on an Enemy's hex is reported at both placements."""
    p, line = broken(tmp_path, 'hex: "14.16"', 'hex: "15.06"')
    assert_problem(p, line, "holds an opponent at set-up")


def test_a_cup_hex_holding_a_friendly_is_refused(tmp_path):
    """Set-up: a cup's set-up hex on a Friendly's hex is reported on the cup's hexes line."""
    p, line = broken(tmp_path, 'hexes: "14.07 16.07 13.06"', 'hexes: "14.07 16.07 15.16"')
    assert_problem(p, line, "holds an opponent at set-up")


def test_an_unknown_weapon_is_named(tmp_path):
    """A weapon id not in cards/weapons.yaml is reported on its line."""
    p, line = broken(tmp_path, "{weapon: m1_garand, ws: 5}], skills", "{weapon: m1_garrand, ws: 5}], skills")
    assert_problem(p, line, "unknown weapon 'm1_garrand'")


def test_an_unknown_skill_is_named(tmp_path):
    """A skill outside the closed list is reported on its line."""
    p, line = broken(tmp_path, "skills: [tough]", "skills: [lucky]")
    assert_problem(p, line, "unknown value 'lucky'")


def test_an_unknown_forced_order_is_named(tmp_path):
    """A reinforcement order that is neither a code nor an id of cards/orders.yaml is reported on its line."""
    p, line = broken(tmp_path, 'order: "EV 5/6"', 'order: "ZZ 5/6"')
    assert_problem(p, line, "unknown order 'ZZ'")


def test_a_move_order_without_direction_is_refused(tmp_path):
    """A forced move order needs its direction string (base-rules §6)."""
    p, line = broken(tmp_path, 'order: "EV 5/6"', 'order: "SN"')
    assert_problem(p, line, "give a direction string")


def test_duplicate_character_ids_are_refused(tmp_path):
    """Two characters with one id: the second is reported, naming the line of the first."""
    p, line = broken(tmp_path, "{id: red_1, counter: 4", "{id: able_1, counter: 4")
    assert_problem(p, line, "duplicate character id 'able_1'")


def test_a_team_id_of_the_wrong_side_is_refused(tmp_path):
    """A Friendly team must be able/baker/charlie/com and an Enemy team a colour."""
    p, line = broken(tmp_path, "  - id: red\n", "  - id: baker\n")
    assert_problem(p, line, "not a enemy team")
    p, line = broken(tmp_path, "  - id: able\n", "  - id: green\n")
    assert_problem(p, line, "not a friendly team")


def test_a_month_outside_1_12_is_refused(tmp_path):
    """Month 13 is reported at the `month:` line."""
    p, line = broken(tmp_path, "turns: 6\n", "turns: 6\nmonth: 13\n")
    assert_problem(p, line + 1, "month: 13 is out of range 1–12")


def test_an_unknown_counter_is_refused(tmp_path):
    """A counter number outside 1-21 is reported on the line of the cup list."""
    p, line = broken(tmp_path, "counters: [10, 14]", "counters: [10, 22]")
    assert_problem(p, line, "counter 22 outside 1-21")


def test_a_counter_of_the_book_that_does_not_exist_is_refused(tmp_path):
    """A counter with no profile in the character book is reported (against a book lacking it)."""
    book = load_characters()
    thin = CharacterBook(book.friendly, book.selection_table, book.enemy[:-1], book.elite)
    p, line = broken(tmp_path, "counters: [10, 14]", "counters: [10, 21]")
    with pytest.raises(DataError) as info:
        load_scenario(p, house_data(), characters=thin)
    assert any(pr.line == line and "counter 21 has no profile" in pr.message for pr in info.value.problems)


def test_a_cup_larger_than_its_hexes_is_refused(tmp_path):
    """One counter per hex: a cup of 4 with 3 set-up hexes is reported at the cup."""
    p, line = broken(tmp_path, "counters: [10, 14]", "counters: [10, 14, 15]")
    assert_problem(p, line, "has only 3 set-up hexes")


def test_an_unknown_option_name_is_refused(tmp_path):
    """Scenario options are checked against solo.core.options.Options by name."""
    p, line = broken(tmp_path, "night_los: 4", "night_lose: 4")
    assert_problem(p, line, "unknown key 'night_lose'")


def test_a_bad_option_value_is_refused(tmp_path):
    """Scenario option values are checked by type and range."""
    p, line = broken(tmp_path, "night_los: 4", "night_los: yes")
    assert_problem(p, line, "expected an integer")
    p, line = broken(tmp_path, "night_los: 4", "night_los: 0")
    assert_problem(p, line, "night_los: 0 is out of range 1–99")


def test_a_target_table_needs_ten_hexes_on_the_map(tmp_path):
    """Base-rules §14, §19: a target table maps the ten d10 faces to hexes of the map."""
    p, line = broken(tmp_path, "options:\n", 'target_tables:\n  enemy: ["15.06", "15.07"]\noptions:\n')
    assert_problem(p, line + 1, "10 hexes")
    p, line = broken(tmp_path, "options:\n", 'target_tables:\n  enemy: ["15.06", "40.07"]\noptions:\n')
    assert_problem(p, line + 1, "not on map")


def test_every_problem_is_reported_at_once(tmp_path):
    """Several broken lines: one DataError lists all of them, sorted by line."""
    text = BASE.replace('hex: "15.06"', 'hex: "99.99"').replace("m1_garand", "m1_garrand")
    text = text.replace('order: "EV 5/6"', 'order: "ZZ"')
    found = problems_of(write(tmp_path, text))
    assert len(found) == 3
    assert [ln for _f, ln, _m in found] == sorted(ln or 0 for _f, ln, _m in found)


def test_every_structural_problem_is_reported_at_once(tmp_path):
    """Wrong types and unknown enum values anywhere in the file come together, each with its line."""
    text = BASE.replace("skills: [tough]", "skills: [lucky]").replace("turns: 6", "turns: six")
    found = problems_of(write(tmp_path, text))
    assert {ln for _f, ln, _m in found} == {4, 10}


# ---------------------------------------------------------------------------
# Robustness: random documents give only DataError


KEYS = [
    "id",
    "name",
    "map",
    "turns",
    "friendly",
    "enemy",
    "month",
    "weather",
    "ground",
    "night",
    "hand",
    "elite",
    "large_battle",
    "direction_counters",
    "wind",
    "options",
    "reinforcements",
    "events",
    "prisoners",
    "victory",
    "edges",
    "description",
    "characters",
    "hexes",
    "cup",
    "counters",
    "dummies",
    "roll",
    "alert",
    "prepared",
    "morale",
    "hex",
    "tq",
    "ldr",
    "weapons",
    "weapon",
    "ws",
    "skills",
    "counter",
    "profile",
    "dummy",
    "team",
    "turn",
    "order",
    "objectives",
    "exits",
    "bands",
    "vp",
    "rotation",
    "friendly_killed",
]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 40),
    st.text(max_size=6),
    st.sampled_from(
        ["town", "15.06", "14.16", "99.99", "red", "able", "EV 5/6", "fog", "tough", "m1_garand", "north"]
    ),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=4),
    max_leaves=10,
)


def _load_or_data_error(path: Path, doc: Any) -> None:
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    try:
        sc = load_scenario(path, house_data())
    except DataError:
        return
    build(sc, Dice(1))  # what loads must also build


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=8))
def test_random_documents_raise_only_data_error(tmp_path_factory, doc):
    """Any YAML document gives a Scenario or a DataError, never another exception."""
    _load_or_data_error(tmp_path_factory.mktemp("fuzz") / "s.yaml", doc)


def _paths(node: Any, here: tuple = ()) -> list[tuple]:
    out = [here]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*here, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*here, i))
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=VALUES)
def test_mutated_scenarios_raise_only_data_error(tmp_path_factory, data, value):
    """A valid scenario with one node replaced by anything gives a Scenario (that builds) or a DataError."""
    doc = yaml.safe_load(BASE)
    path = data.draw(st.sampled_from(_paths(doc)[1:]))
    node = doc
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    _load_or_data_error(tmp_path_factory.mktemp("mut") / "s.yaml", doc)


# ---------------------------------------------------------------------------
# Overlays laid by the scenario (C2 27.4 special rules)


def test_scenario_overlays_reach_the_board_and_leave_the_map_alone(tmp_path):
    """C2 27.4: a scenario's trench is on its game's board (a Depression, ground -1); the map is unchanged."""
    text = BASE + 'overlays:\n  - {feature: trench, hexes: "14.10 15.10"}\n'
    sc = load_scenario(write(tmp_path, text), house_data())
    board = Game(sc, house_data(), dice=Dice(1), options=sc.game_options()).board
    h = Hex.parse("15.10")
    assert [t.id for t in board.overlays_of(h)] == ["trench"]
    assert board.ground[board.idx(h)] == 2 * sc.map_def.level[h] - 1
    assert "trench" not in house_data().maps["town"].overlays.get(h, ())
    assert load_scenario(write(tmp_path, text, "again.yaml"), house_data()).map_def is sc.map_def


def test_a_scenario_overlay_must_be_an_overlay_on_the_map(tmp_path):
    """A hex terrain (trees), a hex off the map and a hex given twice are named at their lines."""
    for entry, words in (
        ('{feature: trees, hexes: "14.10"}', "'trees' is not an overlay"),
        ('{feature: trench, hexes: "99.10"}', "not on map 'town'"),
        ('{feature: trench, hexes: "14.10 14.10"}', "given twice"),
    ):
        path, line = broken(tmp_path, "options:\n", f"overlays:\n  - {entry}\noptions:\n")
        assert_problem(path, line + 1, words)
