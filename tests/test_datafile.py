"""YAML reading with lines and the strict converter; loaders never leak anything but DataError."""

import string

import attrs
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solo.core.datafile import read_text, structure
from solo.core.errors import DataError
from solo.data.maps import load_map
from solo.data.terrain import load_terrain


@attrs.frozen
class Point:
    x: int
    y: int = 0


@attrs.frozen
class Shape:
    name: str
    points: tuple[Point, ...]
    tags: tuple[str, ...] = ()


def problems(text, cls=Shape):
    with pytest.raises(DataError) as info:
        structure(read_text(text, "f.yaml"), cls)
    return [str(p) for p in info.value.problems]


def test_every_problem_is_reported_at_once_with_its_line():
    """Three problems on three lines come back together, sorted by line."""
    got = problems("name: a\npoints:\n  - {x: 1}\n  - {x: b}\n  - {x: 2, z: 3}\nextra: 1\n")
    assert got == [
        "f.yaml:4: expected an integer, got 'b' (at points[1].x)",
        "f.yaml:5: unknown key 'z' (expected one of: x, y)",
        "f.yaml:6: unknown key 'extra' (expected one of: name, points, tags)",
    ]


def test_no_silent_coercion():
    """A string for an int, a float for an int, true for an int and a string for a list are errors."""
    assert problems("name: a\npoints: [{x: '1'}]\n")
    assert problems("name: a\npoints: [{x: 1.5}]\n")
    assert problems("name: a\npoints: [{x: true}]\n")
    assert problems("name: a\npoints: []\ntags: abc\n") == ["f.yaml:3: expected a list, got 'abc' (at tags)"]


def test_missing_key_names_the_key():
    """A missing required key is named."""
    assert problems("name: a\n") == ["f.yaml:1: missing required key 'points'"]


def test_duplicate_keys_are_problems():
    """YAML would silently keep the last of two equal keys; we report it."""
    with pytest.raises(DataError) as info:
        read_text("a: 1\nb: 2\na: 3\n", "f.yaml")
    assert str(info.value) == "f.yaml:3: duplicate key 'a' (first on line 1)"


def test_control_characters_are_a_data_error():
    """A control character in the text is malformed YAML, not a reader crash."""
    with pytest.raises(DataError):
        read_text("a: \x08\n", "f.yaml")


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 200),
    st.floats(allow_nan=False, width=16),
    st.text(string.printable, max_size=8),
)
_docs = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(
                [
                    "id",
                    "terrain",
                    "legend",
                    "rows",
                    "columns",
                    "x",
                    "name",
                    "stagger",
                    "short_columns",
                    "hexsides",
                    "roads",
                ]
            ),
            inner,
            max_size=6,
        ),
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_docs)
def test_map_and_terrain_loaders_raise_only_data_errors(tmp_path, doc):
    """Generated documents fed to the map and terrain loaders give a DataError or load, nothing else."""
    p = tmp_path / "m.yaml"
    p.write_text(yaml.safe_dump(doc))
    terrain = load_terrain()
    for load in (lambda: load_map(p, terrain), lambda: load_terrain(p)):
        try:
            load()
        except DataError as exc:
            assert exc.problems


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(string.printable, max_size=80))
def test_arbitrary_text_gives_only_data_errors(tmp_path, text):
    """Arbitrary text as a map file: a DataError, never another exception."""
    p = tmp_path / "m.yaml"
    p.write_text(text)
    with pytest.raises(DataError):
        load_map(p)


def test_a_bad_token_in_a_multiline_string_is_reported_on_its_own_line(tmp_path):
    """A bad hexside on the second line of a folded `sides` string names that line, not the first."""
    p = tmp_path / "m.yaml"
    p.write_text(
        "id: m\nname: m\ncolumns: 3\nrows: 3\nshort_columns: none\nstagger: even_low\n"
        "legend: {'.': open}\nterrain: |\n  ...\n  ...\n  ...\n"
        "hexsides:\n  - feature: hedge\n    sides: >-\n      01.01/1 01.01/2\n      01.01/9 01.01/3\n"
        "elevation: |\n  000\n  000\n  000\n"
    )
    with pytest.raises(DataError) as info:
        load_map(p)
    assert [str(x) for x in info.value.problems] == [
        f"{p}:16: bad hexside '01.01/9' (expected HEX/DIRECTION, e.g. '12.05/2')"
    ]


def test_a_short_grid_row_does_not_cascade_into_road_errors(tmp_path):
    """A grid row one hex short is one problem; roads through its hexes are not reported too."""
    p = tmp_path / "m.yaml"
    p.write_text(
        "id: m\nname: m\ncolumns: 3\nrows: 3\nshort_columns: none\nstagger: even_low\n"
        "legend: {'.': open}\nterrain: |\n  ...\n  ..\n  ...\nroads: ['01.00 01.01 01.02']\n"
        "elevation: |\n  000\n  000\n  000\n"
    )
    with pytest.raises(DataError) as info:
        load_map(p)
    assert [str(x) for x in info.value.problems] == [f"{p}:10: terrain row 01 has 2 hexes, expected 3"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: 2001-13-45\n", "bad value"),
        ("a: {<<: 5}\n", "merge keys"),
        ("a: &x [*x]\n", "aliases"),
        ("a: &y 3\nb: *y\n", "aliases"),
        ("a: " + "[" * 3000 + "]" * 3000 + "\n", "nested too deeply"),
        ("a: !foo 3\n", "bad value"),
    ],
)
def test_yaml_oddities_are_one_line_data_errors(text, message):
    """Dates out of range, merge keys, aliases, deep nesting and unknown tags: one DataError line each."""
    with pytest.raises(DataError) as info:
        read_text(text, "f.yaml")
    assert message in str(info.value)
    assert all("\n" not in p.message for p in info.value.problems)


def test_hooks_registered_before_the_converter_is_built_are_kept_in_order():
    """The converter is built on first use (issue 10, start-up); earlier registrations still count."""
    from solo.core.datafile import _Converter

    class Tag:
        pass

    conv = _Converter()
    conv.register_structure_hook(Tag, lambda v, _t: ("first", v))
    conv.register_structure_hook(Tag, lambda v, _t: ("second", v))
    assert conv._built is None
    assert conv.structure("x", Tag) == ("second", "x")
    with pytest.raises(TypeError, match="expected an integer"):
        conv.structure("7", int)  # make_converter's own strict hooks
    conv.register_structure_hook(Tag, lambda v, _t: ("third", v))  # now straight onto the converter
    assert conv.structure("x", Tag) == ("third", "x")


class _Tagged(tuple):
    """A value type for the decorator form of a structure hook."""


def test_a_hook_registered_as_a_decorator_builds_the_converter():
    """cattrs' decorator form (the type from the hook's return annotation) needs the converter."""
    from solo.core.datafile import _Converter

    conv = _Converter()

    @conv.register_structure_hook
    def _tag(value: object, _type: object) -> _Tagged:
        return _Tagged(("tag", value))

    assert conv._built is not None
    assert conv.structure(3, _Tagged) == ("tag", 3)
