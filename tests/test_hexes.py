"""Hex geometry: ids, directions, distance, lines, facing and arcs (DESIGN.md conventions, 31.4)."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solo.core.errors import GeometryError
from solo.core.hexes import (
    DIRECTIONS,
    Arc,
    Hex,
    Stagger,
    arc_of,
    direction_to,
    distance,
    in_arcs,
    line,
    line_hexes,
    neighbour,
    opposite,
    rotate,
    to_cube,
    turn_steps,
    wedge_directions,
)

E = Stagger.EVEN_LOW
P = Hex.parse

hexes = st.builds(Hex, st.integers(7, 40), st.integers(7, 40))
staggers = st.sampled_from(list(Stagger))
directions = st.sampled_from(DIRECTIONS)


def test_parse_and_format_round_trip():
    """'15.12' parses to column 15 row 12 and formats back; repr reads back."""
    h = P("15.12")
    assert (h.col, h.row) == (15, 12)
    assert str(h) == "15.12"
    assert eval(repr(h)) == h


@pytest.mark.parametrize("bad", ["15.1", "1512", "a.bb", "15.123", "", "15,12", 15.12])
def test_parse_rejects_malformed_ids(bad):
    """Anything but two digits, a dot and two digits is a GeometryError."""
    with pytest.raises(GeometryError):
        Hex.parse(bad)


def test_direction_one_is_up_and_directions_run_clockwise_on_even_low_maps():
    """From odd column 15.12: 1 → 15.11, 2 → 16.11, 3 → 16.12, 4 → 15.13, 5 → 14.12, 6 → 14.11."""
    got = [str(neighbour(P("15.12"), d, E)) for d in DIRECTIONS]
    assert got == ["15.11", "16.11", "16.12", "15.13", "14.12", "14.11"]


def test_even_column_neighbours_follow_base_rules_table():
    """From even column 22.14 (base-rules §17): 2 → 23.14, 3 → 23.15, 5 → 21.15, 6 → 21.14."""
    got = {d: str(neighbour(P("22.14"), d, E)) for d in DIRECTIONS}
    assert got == {1: "22.13", 2: "23.14", 3: "23.15", 4: "22.15", 5: "21.15", 6: "21.14"}


def test_odd_low_stagger_mirrors_the_shift():
    """On an odd-low map the odd column is the lower one: 15.12 direction 2 is 16.12."""
    assert str(neighbour(P("15.12"), 2, Stagger.ODD_LOW)) == "16.12"
    assert str(neighbour(P("16.12"), 2, Stagger.ODD_LOW)) == "17.11"


def test_movement_example_1_path():
    """C2 31.4 example 1: from 22.14, direction 6 then 5 then 6 then 5, 5 reaches 17.15."""
    h = P("22.14")
    for d in (6, 5, 6, 5, 5):
        h = neighbour(h, d, E)
    assert str(h) == "17.15"


@given(hexes, hexes, staggers)
def test_distance_is_symmetric(a, b, s):
    """distance(a, b) == distance(b, a)."""
    assert distance(a, b, s) == distance(b, a, s)


@given(hexes, hexes, hexes, staggers)
def test_distance_obeys_triangle_inequality(a, b, c, s):
    """distance(a, c) <= distance(a, b) + distance(b, c)."""
    assert distance(a, c, s) <= distance(a, b, s) + distance(b, c, s)


@given(hexes, directions, staggers)
def test_neighbour_and_direction_are_inverses(h, d, s):
    """The neighbour in direction d is at distance 1 and direction_to gives d back, and back again."""
    n = neighbour(h, d, s)
    assert distance(h, n, s) == 1
    assert direction_to(h, n, s) == d
    assert neighbour(n, opposite(d), s) == h


@given(hexes, hexes, staggers)
def test_lines_are_contiguous_and_end_where_they_should(a, b, s):
    """A line starts at a, ends at b, and each step touches the previous one."""
    steps = line(a, b, s)
    assert steps[0] == (a,)
    assert steps[-1] == (b,)
    for prev, cur in itertools.pairwise(steps):
        assert any(distance(p, c, s) <= 1 for p in prev for c in cur)
    assert len(steps) >= distance(a, b, s) + 1


@given(hexes, hexes, staggers)
def test_lines_are_symmetric_as_sets(a, b, s):
    """The line from b to a touches the same hexes as the line from a to b."""
    assert set(line_hexes(a, b, s)) == set(line_hexes(b, a, s))


def test_hexspine_line_runs_between_two_hexes():
    """20.13 → 22.13 runs along the hexside between 21.13 and 21.14 (even columns lower)."""
    assert line(P("20.13"), P("22.13"), E) == (
        (P("20.13"),),
        (P("21.13"), P("21.14")),
        (P("22.13"),),
    )


def test_abbey_example_lines_pass_the_printed_hexes():
    """C2 27.5: 23.10→21.11 passes 22.10; 18.10→21.11 passes 19.11, 20.10; 18.09→21.11 passes 19.10, 20.10."""
    assert line_hexes(P("23.10"), P("21.11"), E)[1:-1] == (P("22.10"),)
    assert line_hexes(P("18.10"), P("21.11"), E)[1:-1] == (P("19.11"), P("20.10"))
    assert line_hexes(P("18.09"), P("21.11"), E)[1:-1] == (P("19.10"), P("20.10"))


def test_rotate_and_turn_steps():
    """rotate(6, 1) is 1; the shortest turn from 6 to 2 is +2 and from 2 to 6 is -2; 180° is 3."""
    assert rotate(6, 1) == 1
    assert rotate(1, -1) == 6
    assert turn_steps(6, 2) == 2
    assert turn_steps(2, 6) == -2
    assert turn_steps(1, 4) == 3


def test_direction_to_on_a_hexspine_is_ambiguous():
    """22.13 from 20.13 lies on the spine between directions 2 and 3."""
    assert wedge_directions(P("20.13"), P("22.13"), E) == (2, 3)
    assert direction_to(P("20.13"), P("22.13"), E) is None
    assert direction_to(P("15.12"), P("15.05"), E) == 1


@pytest.mark.parametrize("facing", [5, 6])
def test_arc_example_of_31_4(facing):
    """31.4: from a tank in 20.13 facing 6 (or 5), fire from 18.13 is Side, from 22.13 is Rear."""
    assert arc_of(P("20.13"), facing, P("18.13"), E) is Arc.SIDE
    assert arc_of(P("20.13"), facing, P("22.13"), E) is Arc.REAR


def test_arc_straight_ahead_and_behind():
    """A tank in 15.12 facing 1: 15.08 is Front, 15.16 is Rear, 18.12 is Side."""
    t = P("15.12")
    assert arc_of(t, 1, P("15.08"), E) is Arc.FRONT
    assert arc_of(t, 1, P("15.16"), E) is Arc.REAR
    assert arc_of(t, 1, P("18.12"), E) is Arc.SIDE


@given(hexes, directions, staggers)
def test_arcs_partition_the_map(unit, facing, s):
    """Every other hex within 6 is in exactly one arc, and each arc is non-empty."""
    seen = {Arc.FRONT: 0, Arc.SIDE: 0, Arc.REAR: 0}
    for dc in range(-6, 7):
        for dr in range(-6, 7):
            t = Hex(unit.col + dc, unit.row + dr)
            if t == unit:
                continue
            arc = arc_of(unit, facing, t, s)
            assert isinstance(arc, Arc)
            seen[arc] += 1
    assert all(seen.values())


@given(hexes, directions, staggers)
def test_arc_is_rotation_invariant(unit, facing, s):
    """The hex two steps ahead is Front and two steps behind is Rear, whatever the facing."""
    ahead = neighbour(neighbour(unit, facing, s), facing, s)
    behind = neighbour(neighbour(unit, opposite(facing), s), opposite(facing), s)
    assert arc_of(unit, facing, ahead, s) is Arc.FRONT
    assert arc_of(unit, facing, behind, s) is Arc.REAR


def test_in_arcs_counts_a_spine_for_both_sides():
    """A hex on the Front/Side spine is inside a Front-only crew LOS arc (31.7.3)."""
    assert in_arcs(P("20.13"), 6, P("18.13"), E, (Arc.FRONT,))
    assert not in_arcs(P("20.13"), 6, P("22.13"), E, (Arc.FRONT,))


def test_cube_coordinates_sum_to_zero():
    """to_cube gives x + y + z == 0."""
    assert sum(to_cube(P("15.12"), E)) == 0


def _exact_line_set(v):
    """Reference: hexes whose interior the segment 0→v crosses, by exact fractions (brute force)."""
    from fractions import Fraction

    n = max(abs(x) for x in v)
    out = set()
    for x in range(-n - 1, n + 2):
        for y in range(-n - 1, n + 2):
            c = (x, y, -x - y)
            lo, hi = Fraction(0), Fraction(1)
            for i, j in ((0, 1), (1, 2), (2, 0)):
                a, b = v[i] - v[j], c[i] - c[j]
                if a == 0:
                    if b:
                        lo, hi = Fraction(1), Fraction(0)
                    continue
                e1, e2 = sorted((Fraction(b - 1, a), Fraction(b + 1, a)))
                lo, hi = max(lo, e1), min(hi, e2)
            if lo < hi:
                out.add(c)
    return out


@given(st.integers(-12, 12), st.integers(-12, 12))
def test_line_shape_is_exactly_the_hexes_the_segment_crosses(dx, dz):
    """Every hex whose interior the centre-to-centre segment crosses is on the line, and no other (§16)."""
    from solo.core.hexes import is_hexspine_vector, line_shape

    v = (dx, -dx - dz, dz)
    if v == (0, 0, 0) or is_hexspine_vector(v):
        return
    got = {h for step in line_shape(v) for h in step}
    assert got == _exact_line_set(v)


def test_line_clips_a_hex_the_sampled_walk_missed():
    """00.03 → 09.06 passes through a corner of 02.03 (a hex a 10-point sampled walk misses)."""
    assert P("02.03") in line_hexes(P("00.03"), P("09.06"), E)


def test_a_hex_pickles_and_copies_as_itself():
    """The parsed-data cache pickles thousands of hexes (issue 10): a hex comes back equal, a Hex."""
    import copy
    import pickle

    h = Hex(15, 12)
    for back in (pickle.loads(pickle.dumps(h, protocol=proto)) for proto in (2, pickle.HIGHEST_PROTOCOL)):
        assert back == h and type(back) is Hex and hash(back) == hash(h) and str(back) == "15.12"
    assert type(copy.deepcopy(h)) is Hex and copy.deepcopy(h) == h
