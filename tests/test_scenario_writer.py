"""The scenario writer (issue 12 item 5): load → save without edits gives the same data, and the
same text when saved again, for every shipped scenario; the saved file validates."""

import pytest

from solo.core.datafile import read, structure
from solo.core.errors import DataError
from solo.core.hexes import Hex
from solo.data.scenario import shipped_scenarios
from solo.data.scenario_draft import ScenarioDraft
from solo.data.scenario_format import Scenario
from solo.data.scenario_writer import TOP_ORDER, dump_scenario, parse_scenario_text, scenario_doc
from solo.data.validate import validate


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
def test_every_shipped_scenario_round_trips(path, tmp_path):
    sc = structure(read(path), Scenario)
    text = dump_scenario(sc)
    again = parse_scenario_text(text, "x.yaml")
    assert again == sc
    assert dump_scenario(again) == text  # the same text the second time: a stable key order
    out = tmp_path / "scenarios" / path.name
    out.parent.mkdir()
    out.write_text(text, encoding="utf-8")
    assert validate([out]) == (1, [])


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: p.stem)
def test_loaded_and_saved_without_edits_is_the_same_file(path):
    text = path.read_text(encoding="utf-8")
    assert ScenarioDraft.from_text(text, path.name).text() == text


def test_an_edit_rewrites_only_its_section_and_keeps_the_comments():
    path = next(p for p in shipped_scenarios() if p.stem == "the_churchyard")
    text = path.read_text(encoding="utf-8")
    draft = ScenarioDraft.from_text(text, path.name)
    draft.doc["turns"] = 5
    draft.add_direction_counter(Hex.parse("01.01"))
    old, new = text.splitlines(), draft.text().splitlines()
    gone = [x for x in old if x not in new]
    added = [x for x in new if x not in old]
    assert gone == ["turns: 8                           # REQUIRED: the game ends after this turn"]
    assert added == ["turns: 5", '  - {hex: "01.01"}']  # rotation 0 is the default
    assert sum(x.startswith("#") for x in new) == sum(x.startswith("#") for x in old)
    sc = parse_scenario_text(draft.text(), "x.yaml")
    assert sc.turns == 5 and len(sc.direction_counters) == 2


def test_top_keys_in_the_shipped_order_and_defaults_left_out():
    sc = structure(read(shipped_scenarios()[0]), Scenario)
    doc = scenario_doc(sc)
    keys = list(doc)
    assert keys == sorted(keys, key=TOP_ORDER.index)
    assert keys[:4] == ["id", "name", "map", "month"]
    assert "large_battle" not in doc  # False is its default
    team = doc["friendly"][0]
    assert "prepared" not in team  # default True


def test_long_description_is_folded_and_reads_back():
    sc = structure(read(shipped_scenarios()[0]), Scenario)
    import attrs

    long = " ".join(["word"] * 60)
    text = dump_scenario(attrs.evolve(sc, description=long))
    assert "description: >-\n  word word" in text
    assert parse_scenario_text(text, "x.yaml").description == long


def test_bad_text_names_file_and_line():
    with pytest.raises(DataError) as err:
        parse_scenario_text("id: x\nname: [unclosed\n", "mine.yaml")
    assert str(err.value.problems[0]).startswith("mine.yaml:")
