"""LOS through hex corners and along hexsides (base-rules §16 step 2, C2 27.3), on both staggers.

The reading pinned here (house option ``hexside_vertex_los``, default ``both_sides``): a line
through a corner (vertex) is judged as the two lines just beside it, as "a line along a hexside is
blocked only if both hexes beside it block". Along a hexspine between ``b`` and ``c``, the side of
``b`` is blocked by ``b``'s terrain or a feature on ``b``'s hexside with the step before or after;
the line is blocked only if both sides are. The hexside between ``b`` and ``c`` (the one the line
runs along) is crossed by neither side and does not block. Through a single corner where the line
passes from ``p`` into ``r`` touching ``q``: blocked only by the ``p``/``r`` hexside together with
the ``p``/``q`` or ``q``/``r`` one. Hexsides on an end hex's edge never block LOS. ``any_touch``:
every feature hexside the line touches between intervening hexes blocks.
"""

from fractions import Fraction
from functools import cache

import attrs
import pytest
import yaml
from conftest import make_game
from hypothesis import given, settings
from hypothesis import strategies as st

from solo.core.hexes import Hex, neighbours, to_cube
from solo.core.options import Options
from solo.data.maps import Board, MapDef, load_map, shipped_maps, side_key
from solo.rules.los import LineOfSight

P = Hex.parse
STAGGERS = ("even_low", "odd_low")


def open_map(tmp_path, stagger: str, columns: int = 9, rows: int = 13, buildings=()) -> MapDef:
    """An all-Open level-0 map (every column full), with Buildings on ``buildings``."""
    grid = [["." for _ in range(columns)] for _ in range(rows)]
    for name in buildings:
        h = P(name)
        grid[h.row][h.col] = "B"
    doc = {
        "id": "t",
        "name": "t",
        "columns": columns,
        "rows": rows,
        "short_columns": "none",
        "stagger": stagger,
        "legend": {".": "open", "B": "building"},
        "terrain": "\n".join("".join(r) for r in grid) + "\n",
        "elevation": "\n".join("0" * columns for _ in range(rows)) + "\n",
    }
    p = tmp_path / f"t_{stagger}.yaml"
    p.write_text(yaml.safe_dump(doc, sort_keys=False))
    return load_map(p)


def with_sides(m: MapDef, pairs, feature: str = "bocage") -> MapDef:
    """``m`` with ``feature`` on the hexside between each pair of hex names (and nothing else)."""
    return attrs.evolve(m, hexsides={side_key(P(a), P(b)): feature for a, b in pairs})


def sight(m: MapDef, a: str, b: str, reading: str = "both_sides"):
    return LineOfSight(Board.from_map(m), hexside_vertex=reading).check(P(a), P(b))


# ---------------------------------------------------------------------------
# A row line: 01.04 to 05.04 runs along the hexsides of columns 02 and 04, through the centre
# of 03.04, passing six corners. Which column-02/04 hexes lie beside it depends on the stagger.

BESIDE = {"even_low": ("02.03", "02.04", "04.03", "04.04"), "odd_low": ("02.04", "02.05", "04.04", "04.05")}


@pytest.mark.parametrize("stagger", STAGGERS)
def test_a_row_line_runs_along_hexsides_through_corners(tmp_path, stagger):
    """§16 step 2: the line 01.04-05.04 alternates hex centres and hexspines (two hexes beside)."""
    m = open_map(tmp_path, stagger)
    board = Board.from_map(m)
    los = LineOfSight(board)
    steps = los.line_indices(board.idx(P("01.04")), board.idx(P("05.04")))
    names = [sorted(str(board.hexes[i]) for i in step) for step in steps]
    b1, c1, b2, c2 = BESIDE[stagger]
    assert names == [["01.04"], [b1, c1], ["03.04"], [b2, c2], ["05.04"]]


# (sides with bocage, both_sides clear?, any_touch clear?); B1/C1 beside the line west of 03.04,
# B2/C2 east of it, A/E the end hexes 01.04 and 05.04, M the middle hex 03.04.
ROW_CASES = {
    "bank: both hexsides of the corner into 03.04": ([("M", "B1"), ("M", "C1")], False, False),
    "both banks": ([("M", "B1"), ("M", "C1"), ("M", "B2"), ("M", "C2")], False, False),
    "one hexside of the corner only": ([("M", "B1")], True, False),
    "one hexside on each bank, on opposite sides": ([("M", "B1"), ("M", "C2")], True, False),
    "the hexside the line runs along": ([("B1", "C1")], True, False),
    "the spotter's edge: both hexsides of its corner": ([("A", "B1"), ("A", "C1")], True, True),
    "the target's edge: both hexsides of its corner": ([("E", "B2"), ("E", "C2")], True, True),
}


@pytest.mark.parametrize("stagger", STAGGERS)
@pytest.mark.parametrize("case", sorted(ROW_CASES))
def test_bocage_at_the_corners_of_a_row_line(tmp_path, stagger, case):
    """C2 27.3 bocage at the corners of 01.04-05.04 under both readings; the bare map is clear."""
    b1, c1, b2, c2 = BESIDE[stagger]
    name = {"A": "01.04", "E": "05.04", "M": "03.04", "B1": b1, "C1": c1, "B2": b2, "C2": c2}
    pairs, clear_both, clear_any = ROW_CASES[case]
    bare = open_map(tmp_path, stagger)
    assert sight(bare, "01.04", "05.04").clear
    m = with_sides(bare, [(name[x], name[y]) for x, y in pairs])
    both = sight(m, "01.04", "05.04")
    assert both.clear is clear_both
    assert sight(m, "05.04", "01.04").clear is clear_both
    assert sight(m, "01.04", "05.04", "any_touch").clear is clear_any
    if not clear_both:
        assert both.rule == "16 step 4: hexside as high as the higher end"
        assert str(both.blocked_by) in {name[x] for pair in pairs for x in pair}


@pytest.mark.parametrize("stagger", STAGGERS)
def test_a_side_is_blocked_by_its_hex_or_its_hexside(tmp_path, stagger):
    """§16 step 2 with C2 27.3: a Building beside the line on one side and bocage on the other
    side's corner block together; either alone does not."""
    b1, c1, _b2, _c2 = BESIDE[stagger]
    building = open_map(tmp_path, stagger, buildings=(c1,))
    assert sight(building, "01.04", "05.04").clear  # one hex beside a hexspine does not block
    assert sight(with_sides(open_map(tmp_path, stagger), [("03.04", b1)]), "01.04", "05.04").clear
    mixed = with_sides(building, [("03.04", b1)])
    s = sight(mixed, "01.04", "05.04")
    assert not s.clear and s.blocked_by in (P(b1), P("03.04"))
    assert not sight(mixed, "05.04", "01.04").clear


@pytest.mark.parametrize("stagger", STAGGERS)
def test_a_hedge_blocks_at_a_corner_as_bocage_does(tmp_path, stagger):
    """A hedge (height 1, §16 hexsides) on both hexsides of the corner blocks between level-0 ends."""
    b1, c1, _b2, _c2 = BESIDE[stagger]
    m = with_sides(open_map(tmp_path, stagger), [("03.04", b1), ("03.04", c1)], feature="hedge")
    assert not sight(m, "01.04", "05.04").clear


# ---------------------------------------------------------------------------
# A single corner: a line that passes exactly through one vertex without running along a hexside.


def _corner(m: MapDef, a: str, b: str) -> tuple[str, str, str]:
    """(p, r, q): the line a-b passes from p into r exactly through the corner shared with q.

    Found with exact fractions on cube centres (a corner is the centroid of its three hexes), by
    offset neighbours, independently of the LOS code.
    """
    board = Board.from_map(m)
    ca, cb = to_cube(P(a), m.stagger), to_cube(P(b), m.stagger)
    hexes = list(board.hexes)
    for ph in hexes:
        for _d, rh in neighbours(ph, m.stagger):
            if not m.has_hex(rh) or not ph < rh:
                continue
            common = {h for _d2, h in neighbours(ph, m.stagger)} & {h for _d3, h in neighbours(rh, m.stagger)}
            for qh in sorted(common):
                cs = [to_cube(h, m.stagger) for h in (ph, rh, qh)]
                corner = [Fraction(sum(c[k] for c in cs), 3) for k in range(3)]
                t = (corner[0] - ca[0]) / (cb[0] - ca[0])
                if 0 < t < 1 and all(corner[k] == ca[k] + t * (cb[k] - ca[k]) for k in range(3)):
                    los = LineOfSight(board)
                    cells = {
                        board.hexes[i] for s in los.line_indices(board.idx(P(a)), board.idx(P(b))) for i in s
                    }
                    if ph in cells and rh in cells and qh not in cells:
                        return str(ph), str(rh), str(qh)
    raise AssertionError(f"no corner on {a}-{b}")


# The town example (04.09-05.05, cube step (1, 4, -5)) and its mirror on the other stagger.
CORNER_LINES = {"even_low": ("04.09", "05.05"), "odd_low": ("04.09", "05.04")}


@pytest.mark.parametrize("stagger", STAGGERS)
@pytest.mark.parametrize(
    ("sides", "clear_both", "clear_any"),
    [
        ("pr", True, False),  # a bocage ending at the corner: the line slips past its end
        ("pq", True, False),
        ("qr", True, False),
        ("pr pq", False, False),  # the corner shut on both sides
        ("pr qr", False, False),
        ("pq qr", True, False),  # both on q's side: the line passes p→r on the other side
    ],
)
def test_bocage_at_a_single_corner(tmp_path, stagger, sides, clear_both, clear_any):
    """C2 27.3 at a corner the line passes exactly through (p → r, touching q)."""
    a, b = CORNER_LINES[stagger]
    bare = open_map(tmp_path, stagger)
    p, r, q = _corner(bare, a, b)
    name = {"p": p, "r": r, "q": q}
    assert a not in (p, r, q) and b not in (p, r, q)
    m = with_sides(bare, [(name[s[0]], name[s[1]]) for s in sides.split()])
    assert sight(m, a, b).clear is clear_both
    assert sight(m, b, a).clear is clear_both
    assert sight(m, a, b, "any_touch").clear is clear_any


def test_a_hexside_crossed_away_from_its_corners_blocks_alone(tmp_path):
    """§16 hexsides: a line crossing a hexside in its middle (01.01-01.07) is blocked by it alone."""
    m = with_sides(open_map(tmp_path, "even_low"), [("01.03", "01.04")], feature="hedge")
    assert not sight(m, "01.01", "01.07").clear
    assert not sight(m, "01.01", "01.07", "any_touch").clear


# ---------------------------------------------------------------------------
# The shipped maps


@cache
def _shipped(name: str) -> MapDef:
    return load_map(next(p for p in shipped_maps() if p.stem == name))


def test_hedgerows_row_line_across_the_column_09_lane_is_blocked():
    """11.05-07.05 runs along the hexsides of columns 10 and 08 and through the sunken lane 09.05:
    the east bank's bocage (09.05/10.04 and 09.05/10.05) shuts the corner into 09.05 (C2 27.3)."""
    m = _shipped("hedgerows")
    s = sight(m, "11.05", "07.05")
    assert not s.clear and s.blocked_by == P("09.05")
    assert not sight(m, "07.05", "11.05").clear
    assert sight(attrs.evolve(m, hexsides={}), "11.05", "07.05").clear
    # The west bank alone has bocage on one hexside of its corner (08.05/09.05, not 08.04/09.05).
    east = {side_key(P("09.05"), P(x)) for x in ("10.04", "10.05")}
    west = {k: v for k, v in m.hexsides.items() if k not in east}
    assert side_key(P("08.05"), P("09.05")) in west and side_key(P("08.04"), P("09.05")) not in west
    assert sight(attrs.evolve(m, hexsides=west), "11.05", "07.05").clear
    assert not sight(attrs.evolve(m, hexsides=west), "11.05", "07.05", "any_touch").clear
    # Bocage on the other hexside of the west corner too: that bank alone blocks.
    shut = dict(west) | {side_key(P("08.04"), P("09.05")): "bocage"}
    assert not sight(attrs.evolve(m, hexsides=shut), "11.05", "07.05").clear


def test_hamlet_row_lines_past_the_west_field_bocage():
    """07.14-11.14 meets the corner of 09.14 shut by bocage on both hexsides (09.14/10.13,
    09.14/10.14): blocked. 07.13-11.13 meets bocage on one hexside of its corner only
    (09.13/10.13, none on 09.13/10.12) and along the hexside 10.12/10.13: clear under the
    default reading, blocked under ``any_touch``."""
    m = _shipped("hamlet")
    s = sight(m, "07.14", "11.14")
    assert not s.clear and s.blocked_by == P("09.14")
    assert sight(attrs.evolve(m, hexsides={}), "07.14", "11.14").clear
    assert m.hexsides.get(side_key(P("09.13"), P("10.13"))) == "bocage"
    assert side_key(P("09.13"), P("10.12")) not in m.hexsides
    assert sight(m, "07.13", "11.13").clear
    assert not sight(m, "07.13", "11.13", "any_touch").clear


# ---------------------------------------------------------------------------
# Symmetry, options and caches


@cache
def _los(name: str, features: bool, reading: str) -> LineOfSight:
    m = _shipped(name)
    board = Board.from_map(m if features else attrs.evolve(m, hexsides={}))
    return LineOfSight(board, hexside_vertex=reading)


MAP_NAMES = tuple(p.stem for p in shipped_maps())


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(MAP_NAMES),
    st.booleans(),
    st.sampled_from(("both_sides", "any_touch")),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.booleans(),
    st.booleans(),
)
def test_los_is_symmetric_on_every_shipped_map(name, features, reading, i, j, la, lb):
    """LOS(a, b) == LOS(b, a) (low flags swapped), both walks uncached, on every shipped map with
    and without its hexside features, under both readings."""
    los = _los(name, features, reading)
    n = len(los.board.hexes)
    a, b = i % n, j % n
    assert los._walk(a, b, la, lb)[0] == los._walk(b, a, lb, la)[0]


@pytest.mark.parametrize("name", ["hamlet", "hedgerows"])
def test_row_lines_are_symmetric_on_the_bocage_maps(name):
    """Every line of range 2-6 from the hexes of rows 04-06 on the bocage maps, both ways."""
    los = _los(name, True, "both_sides")
    board = los.board
    starts = [i for i, h in enumerate(board.hexes) if 4 <= h.row <= 6]
    for a in starts:
        for b in range(len(board.hexes)):
            if 2 <= max(abs(x - y) for x, y in zip(board.cube[a], board.cube[b], strict=True)) <= 6:
                assert los._walk(a, b, False, False)[0] == los._walk(b, a, False, False)[0]


def test_the_reading_is_a_house_option():
    """``hexside_vertex_los``: ``both_sides`` by default, ``any_touch`` allowed, nothing else."""
    assert Options().hexside_vertex_los == "both_sides"
    assert Options.from_dict({"hexside_vertex_los": "any_touch"}).hexside_vertex_los == "any_touch"
    with pytest.raises(ValueError, match="hexside_vertex_los"):
        Options.from_dict({"hexside_vertex_los": "ignore"})
    with pytest.raises(ValueError, match="hexside_vertex"):
        LineOfSight(Board.from_map(_shipped("hamlet")), hexside_vertex="ignore")


def test_the_readings_do_not_share_cached_answers():
    """Games on one board under the two readings keep separate marker-free answers; the default
    keeps the key ("los", month) it had before the option; a board change (§14) keeps the reading."""
    board = Board.from_map(_shipped("hamlet"))
    both = LineOfSight(board)
    touch = LineOfSight(board, hexside_vertex="any_touch")
    assert both.check(P("07.13"), P("11.13")).clear
    assert not touch.check(P("07.13"), P("11.13")).clear
    assert both.check(P("07.13"), P("11.13")).clear  # answered from its own cache
    assert ("los", 6) in board.shared and ("los", 6, "any_touch") in board.shared
    assert touch.on_board(board.with_terrain({P("20.01"): "rubble"})).hexside_vertex == "any_touch"


def test_a_game_reads_the_option(tmp_path):
    """The game's LOS takes the reading from its options (default ``both_sides``)."""
    assert make_game(tmp_path).los.hexside_vertex == "both_sides"
    touch = make_game(tmp_path, options=Options.from_dict({"hexside_vertex_los": "any_touch"}))
    assert touch.los.hexside_vertex == "any_touch"
