"""The feature matrix (tools/feature_matrix, solo.playtest.feature_matrix): what each scenario uses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import attrs

from solo.core.hexes import Hex
from solo.data.house import HouseData
from solo.data.scenario import load_scenario
from solo.data.scenario_format import Objective
from solo.playtest.feature_matrix import (
    FEATURES,
    feature_matrix,
    format_matrix,
    scenario_features,
    terrain_in_reach,
)

REPO = Path(__file__).resolve().parents[1]


def test_vehicles_and_light_at_weapons_are_read_per_side(data: HouseData) -> None:
    """armour_in_the_rain: an Enemy AFV and truck, a Friendly bazooka, Panzerfaust Level 2 of 60s."""
    got = scenario_features(load_scenario("armour_in_the_rain", data), data)
    assert {"C2 31 afv (enemy)", "C2 31 truck (enemy)", "C2 32.1 bazooka"} <= got
    assert {"C2 32.3 Panzerfaust level 2", "C2 32.3 panzerfaust_60", "C2 28.1 weather heavy_rain"} <= got
    assert "C2 31 afv (friendly)" not in got
    assert "§15 night" not in got


def test_elite_cups_give_their_ss_skills(data: HouseData) -> None:
    """the_churchyard's SS cups hold counters with skills (C2 24.1); the rolled squad is C2 25."""
    got = scenario_features(load_scenario("the_churchyard", data), data)
    assert {
        "C2 24 Elite SS",
        "C2 24.1 skill dodge (enemy)",
        "C2 25 squad rolled on the selection table",
    } <= got
    assert {"§14 barrage", "§14 C4", "C2 29 fire (a scheduled barrage may kindle it)"} <= got


def test_terrain_counts_only_within_reach(data: HouseData) -> None:
    """The countryside's foxholes in the north-east wood (30.03-30.06) count only near the fight."""
    m = data.maps["countryside"]
    assert "foxhole" in terrain_in_reach(m, [Hex.parse("30.12")], reach=6)
    assert "foxhole" not in terrain_in_reach(m, [Hex.parse("30.12")], reach=5)
    sc = load_scenario("first_contact", data)
    far = scenario_features(attrs.evolve(sc, map="countryside"), data)
    near = attrs.evolve(
        sc, map="countryside", victory=attrs.evolve(sc.victory, objectives=(Objective(hex="29.04", vp=1),))
    )
    assert "C2 27.6 foxhole in trees" not in far
    assert "C2 27.6 foxhole in trees" in scenario_features(near, data)


def test_matrix_lists_every_feature_and_the_unused_ones(data: HouseData) -> None:
    """Every key is in the matrix; the text ends with the features no scenario uses."""
    matrix = feature_matrix([load_scenario("first_contact", data)], data)
    assert list(matrix) == list(FEATURES)
    assert matrix["C2 28.1 weather clear"] == ["first_contact"]
    text = format_matrix(matrix)
    unused = text.split("Used by no scenario")[1]
    assert "§15 night" in unused
    assert "C2 28.1 weather clear" not in unused


def test_tool_refuses_an_unknown_scenario() -> None:
    """tools/feature_matrix --scenarios nowhere: exit 2 with a one-line message, no traceback."""
    out = subprocess.run(
        [sys.executable, str(REPO / "tools" / "feature_matrix"), "--scenarios", "nowhere"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 2
    assert "unknown scenario(s) nowhere" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_scenario_fire_is_counted_from_fires(data: HouseData) -> None:
    """C2 29.0: `fire_at_the_farm` sets its barn burning with `fires:`; a scenario without the
    key does not count."""
    matrix = feature_matrix([load_scenario(i, data) for i in ("fire_at_the_farm", "first_contact")], data)
    assert matrix["C2 29.0 fire set by the scenario (fires:)"] == ["fire_at_the_farm"]


def test_minefields_of_the_map_count_like_the_scenarios(data: HouseData) -> None:
    """C2 31.5: a map's own ``minefields:`` are minefields in every scenario on it, so they count."""
    sc = load_scenario("first_contact", data)
    assert not sc.minefields.strip() and "C2 31.5 minefields" not in scenario_features(sc, data)
    mined = attrs.evolve(sc.map_of(data.maps), minefields=(Hex.parse("05.05"),))
    assert "C2 31.5 minefields" in scenario_features(attrs.evolve(sc, map_def=mined), data)
