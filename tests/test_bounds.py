"""Bounds as data and messages in the designer's language (issue 14 items 1-2): every number of
the data files has a declared range; every message has a line and names no Python."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import attrs
import pytest

from solo.cli.main import main
from solo.core.bounds import D10, MODIFIER, Range, range_of
from solo.core.datafile import read_text, structure
from solo.core.errors import DataError
from solo.core.resources import cards_dir, maps_dir


def validate(*paths: Path) -> tuple[int, str]:
    """`solo validate PATH...` (in process): (exit status, what it printed)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["validate", *map(str, paths)])
    return status, err.getvalue() + out.getvalue()


def card_copy(tmp_path: Path, name: str, old: str, new: str) -> tuple[Path, int]:
    """A card set holding ``name`` with the first ``old`` replaced by ``new``; (dir, line of it)."""
    text = (cards_dir() / name).read_text(encoding="utf-8")
    assert old in text
    line = text[: text.index(old)].count("\n") + 1
    d = tmp_path / "set"
    d.mkdir(exist_ok=True)
    (d / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    return d, line


@attrs.frozen
class _Row:
    roll: D10
    mod: MODIFIER | None = None


def problems(text: str) -> list[str]:
    """The messages (``path:line: message``) of structuring ``text`` as a :class:`_Row`."""
    try:
        structure(read_text(text, "t.yaml"), _Row)
    except DataError as exc:
        return [str(p) for p in exc.problems]
    return []


def test_a_d10_face_at_its_limits_is_accepted_and_one_beyond_is_refused():
    """0 and 9 pass; 10 and -1 are `path:line: field: value is out of range 0–9`."""
    assert problems("roll: 0\n") == []
    assert problems("roll: 9\n") == []
    assert problems("roll: 10\n") == ["t.yaml:1: roll: 10 is out of range 0–9 (d10 faces)"]
    assert problems("mod: 2\nroll: -1\n") == ["t.yaml:2: roll: -1 is out of range 0–9 (d10 faces)"]


def test_an_optional_number_is_checked_when_given():
    """`mod: null` passes; `mod: 10` is out of its -9–9 range."""
    assert problems("roll: 3\nmod: null\n") == []
    assert problems("roll: 3\nmod: -9\n") == []
    assert problems("roll: 3\nmod: 10\n") == [
        "t.yaml:2: mod: 10 is out of range -9–9 (points of the roll, TQ or WS)"
    ]


def test_the_range_is_read_from_the_annotation():
    """`range_of` finds the declared Range; a plain int has none."""
    assert range_of(D10) == Range(0, 9, "a d10 face", "d10 faces")
    assert range_of(int) is None


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        (
            "checks.yaml",
            "melee_tq: 3,",
            "melee_tq: 99999999999999999999,",
            "melee_tq: 99999999999999999999 is out of range -3–3 (TQ points)",
        ),
        ("checks.yaml", "fire_ws: 3,", "fire_ws: 10,", "fire_ws: 10 is out of range -3–3 (WS points)"),
        (
            "orders.yaml",
            "ws_modifier: -2,",
            "ws_modifier: 99999999999999999999,",
            "ws_modifier: 99999999999999999999 is out of range -6–2 (WS points)",
        ),
        (
            "weapons.yaml",
            "max_range: 50,",
            "max_range: 1000,",
            "max_range: 1000 is out of range 0–999 (hexes)",
        ),
    ],
)
def test_solo_validate_refuses_a_number_out_of_range_with_its_line(tmp_path, name, old, new, message):
    """One number out of range: exit 2, `path:line: field: value is out of range lo–hi`."""
    d, line = card_copy(tmp_path, name, old, new)
    status, out = validate(d)
    assert status == 2
    assert f"{d / name}:{line}: {message}" in out.splitlines()


def test_armour_out_of_range_in_a_vehicle_file(tmp_path):
    """A vehicle's glancing armour of 99999999999999999999 is refused at its line."""
    d = tmp_path / "set"
    (d / "vehicles").mkdir(parents=True)
    (d / "weapons.yaml").write_text(
        (cards_dir() / "weapons.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    for p in (cards_dir() / "vehicles").glob("*.yaml"):
        (d / "vehicles" / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    path = d / "vehicles" / "m4a3_sherman.yaml"
    text = path.read_text(encoding="utf-8")
    m = re.search(r"glancing: (\d+)", text)
    assert m is not None
    line = text[: m.start()].count("\n") + 1
    path.write_text(text[: m.start(1)] + "99999999999999999999" + text[m.end(1) :], encoding="utf-8")
    status, out = validate(d)
    assert status == 2
    assert f"{path}:{line}: glancing: 99999999999999999999 is out of range 0–20 (armour points)" in out


def test_a_list_where_a_mapping_is_expected_names_no_python_class(tmp_path):
    """`weapons.yaml` that is a list: `path:1: expected a mapping`, no `WeaponsFile`."""
    d = tmp_path / "set"
    d.mkdir()
    (d / "weapons.yaml").write_text("- a\n- b\n", encoding="utf-8")
    status, out = validate(d)
    assert status == 2
    assert f"{d / 'weapons.yaml'}:1: expected a mapping" in out.splitlines()
    assert "WeaponsFile" not in out


def test_crews_with_no_crews_names_the_key_and_no_python(tmp_path):
    """`crews: ` left empty: the line of `crews`, no `_CrewsFile` nor `NoneType`."""
    d, line = card_copy(tmp_path, "crews.yaml", "crews:\n", "crews:\nxcrews:\n")
    status, out = validate(d)
    assert status == 2
    assert "_CrewsFile" not in out and "NoneType" not in out
    assert f"{d / 'crews.yaml'}:{line}:" in out


def test_a_dropped_key_names_the_key_at_the_line_of_its_parent(tmp_path):
    """`tq` dropped from a crewman: `missing required key 'tq'` at the line of his mapping."""
    d, line = card_copy(tmp_path, "crews.yaml", "tq: 5, ldr: 2,", "ldr: 2,")
    status, out = validate(d)
    assert status == 2
    assert f"{d / 'crews.yaml'}:{line}: missing required key 'tq'" in out


def test_a_file_cut_inside_a_flow_mapping_says_it_ends_early():
    """A file cut mid-mapping: `the file ends early (last line read: N)`."""
    text = "a: 1\nb: {c: 2,\n   d: 3"
    with pytest.raises(DataError) as info:
        read_text(text, "cut.yaml")
    (p,) = info.value.problems
    assert p.line == 3
    assert p.message.startswith("malformed YAML: the file ends early (last line read: 3)")


def test_a_file_cut_before_any_data_says_so(tmp_path):
    """A scenario cut inside its comment header: `the file holds no data (last line read: 2)`."""
    sc = tmp_path / "scenarios"
    sc.mkdir()
    text = (maps_dir() / "scenarios" / "first_contact.yaml").read_text(encoding="utf-8")
    head = "\n".join(text.splitlines()[:2])
    assert head.lstrip().startswith("#")
    (sc / "cut.yaml").write_text(head, encoding="utf-8")
    status, out = validate(sc / "cut.yaml")
    assert status == 2
    assert f"{sc / 'cut.yaml'}:2: the file holds no data (last line read: 2); is it cut short?" in out


def test_an_afv_without_a_gunner_position_is_refused(tmp_path):
    """The Panzer IVH's gunner line deleted: `path:line: an AFV has a gunner position (31.3)` at `crew:`."""
    d = tmp_path / "set"
    (d / "vehicles").mkdir(parents=True)
    weapons = (cards_dir() / "weapons.yaml").read_text(encoding="utf-8")
    (d / "weapons.yaml").write_text(weapons, encoding="utf-8")
    for p in (cards_dir() / "vehicles").glob("*.yaml"):
        (d / "vehicles" / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    path = d / "vehicles" / "panzer_ivh.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    crew = lines.index("crew:") + 1
    lines = [ln for ln in lines if not ln.startswith("  - {role: gunner,")]
    path.write_text("\n".join(lines), encoding="utf-8")
    status, out = validate(d)
    assert status == 2
    assert f"{path}:{crew}: an AFV has a gunner position (31.3)" in out.splitlines()


@pytest.mark.parametrize(
    ("old", "new", "shown"), [("-2, -2]", "-2, -10]", "-10"), ("-2, -2]", "-2, 10M]", "'10M'")]
)
def test_a_fire_chart_cell_out_of_range_is_refused(tmp_path, old, new, shown):
    """A fire chart cell (a plain modifier or an (M) cell) beyond -6–3: refused at its line."""
    text = (cards_dir() / "charts.yaml").read_text(encoding="utf-8")
    start = text.index("\nfire:")
    at = text.index("  trees:", start)
    end = text.index("\n", at)
    row = text[at:end]
    assert row.endswith(old)
    d = tmp_path / "set"
    d.mkdir()
    (d / "charts.yaml").write_text(text[:at] + row[: -len(old)] + new + text[end:], encoding="utf-8")
    line = text[:at].count("\n") + 1
    status, out = validate(d)
    assert status == 2
    assert (
        f"{d / 'charts.yaml'}:{line}: trees[6]: {shown} is out of range -6–3 (WS points)" in out.splitlines()
    )


def test_a_map_without_its_elevation_block_is_refused(tmp_path):
    """The town's `elevation:` block removed: `missing required key 'elevation'` at the map's first key."""
    lines = (maps_dir() / "town.yaml").read_text(encoding="utf-8").split("\n")
    i = lines.index("elevation: |")
    j = i + 1
    while lines[j].startswith("  "):
        j += 1
    d = tmp_path / "maps"
    d.mkdir()
    (d / "town.yaml").write_text("\n".join(lines[:i] + lines[j:]), encoding="utf-8")
    status, out = validate(d / "town.yaml")
    assert status == 2
    first = next(n for n, ln in enumerate(lines, 1) if ln and not ln.startswith("#"))
    assert f"{d / 'town.yaml'}:{first}: missing required key 'elevation'" in out.splitlines()
