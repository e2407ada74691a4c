"""Issue 10: the line shapes of a map as a compact table that is never evicted (solo.rules.los_lines)
give the lines a fresh computation gives (base-rules §16 step 2), on every map shape."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from solo.data.maps import Board, load_map, shipped_maps
from solo.rules.los import LineOfSight
from solo.rules.los_answers import through_corners
from solo.rules.los_lines import IRREGULAR, LineTable, board_line, line_table


def _fresh(board: Board, ia: int, ib: int) -> tuple:
    """The line as the shapes cache held it before the table: computed from the vector's shape."""
    steps = board_line(board, ia, ib)
    ca, cb = board.cube[ia], board.cube[ib]
    cells = tuple(dict.fromkeys(i for step in steps for i in step if i >= 0))
    return steps, cells, through_corners(cb[0] - ca[0], cb[2] - ca[2])


def _grid_map(tmp_path, columns: int, rows: int, short: str, stagger: str):
    """An open map of ``columns`` × ``rows`` with the given short columns and stagger."""

    def on(c: int, r: int) -> bool:
        return not (r == rows - 1 and ((short == "even" and c % 2 == 0) or (short == "odd" and c % 2 == 1)))

    terrain = ["".join("." if on(c, r) else "-" for c in range(columns)) for r in range(rows)]
    doc = {
        "id": f"g_{columns}_{rows}_{short}_{stagger}",
        "name": "grid",
        "columns": columns,
        "rows": rows,
        "short_columns": short,
        "stagger": stagger,
        "legend": {".": "open"},
        "terrain": "\n".join(terrain) + "\n",
        "elevation": "\n".join(t.replace(".", "0") for t in terrain) + "\n",
    }
    p = tmp_path / f"{doc['id']}.yaml"
    p.write_text(yaml.safe_dump(doc, sort_keys=False))
    return load_map(p)


def test_every_pair_of_a_shipped_map_reads_the_fresh_line():
    """On the largest shipped map, every pair's line from the table (built lazily, then read back)
    equals the fresh computation; lines that leave the map are the irregular ones, and only those."""
    board = Board.from_map(load_map(shipped_maps()[0]))
    n = len(board.hexes)
    table = LineTable(board, 15_000)
    assert table._grid is not None  # the printed maps' index is affine
    irregular = 0
    for ia in range(n):
        for ib in range(ia, n):
            want = _fresh(board, ia, ib)
            assert table.line(ia, ib) == want
            off_map = any(i < 0 for step in want[0] for i in step)
            assert (table.codes[ia * n + ib] == IRREGULAR) == off_map
            irregular += off_map
    assert 0 < irregular < n * n // 1000
    assert table.nbytes == 2 * n * n
    # Read back (from the built lines, then past them: the table's own shapes) the same.
    for ia in range(0, n, 5):
        for ib in range(ia, n, 3):
            assert table.line(ia, ib) == _fresh(board, ia, ib)


@settings(max_examples=40, deadline=None)
@given(
    columns=st.integers(1, 9),
    rows=st.integers(2, 8),
    short=st.sampled_from(["none", "even", "odd"]),
    stagger=st.sampled_from(["even_low", "odd_low"]),
    data=st.data(),
)
def test_every_map_shape_reads_the_fresh_line(tmp_path_factory, columns, rows, short, stagger, data):
    """Full or short columns, even or odd low, one column or many: every pair (either order) as the
    fresh computation."""
    board = Board.from_map(_grid_map(tmp_path_factory.mktemp("m"), columns, rows, short, stagger))
    n = len(board.hexes)
    table = LineTable(board, data.draw(st.integers(1, 50)))
    order = data.draw(st.permutations([(a, b) for a in range(n) for b in range(n)]))
    for ia, ib in order:
        assert table.line(ia, ib) == _fresh(board, ia, ib)
    for ia, ib in order[: len(order) // 2]:
        assert table.line(ia, ib) == _fresh(board, ia, ib)


def test_shapes_are_kept_under_eviction_pressure(tmp_path):
    """With room for 2 built lines, many boards and maps: built lines are dropped, the shapes and
    the pairs' codes never are, and every answer is the fresh line; LOS answers do not change."""
    boards = [
        Board.from_map(_grid_map(tmp_path, c, r, s, g))
        for c, r, s, g in ((7, 6, "even", "even_low"), (6, 7, "odd", "odd_low"), (5, 5, "none", "even_low"))
    ]
    m = load_map(shipped_maps()[0])
    base = Board.from_map(m)
    houses = [h for h, t in m.terrain.items() if t == "building"][:3]
    rubble = base.with_terrain(dict.fromkeys(houses, "rubble"))
    boards += [base, rubble]
    tables = []
    for board in boards:
        los = LineOfSight(board, shared_lines=2)
        assert los._lines is line_table(board.base, 2)  # a Rubble board shares its map board's shapes
        tables.append(los._lines)
    assert tables[-1] is tables[-2]
    for rnd in range(3):
        for board, table in zip(boards, tables, strict=True):
            n = len(board.hexes)
            pairs = [((7 * k + rnd) % n, (13 * k + 5) % n) for k in range(300)]
            for ia, ib in pairs:
                assert table.line(ia, ib) == _fresh(board, ia, ib)
                assert len(table.built) <= 2 and len(table.irregular) <= 2
            rels = len(table.rels)
            assert all(table.codes[ia * n + ib] for ia, ib in pairs)  # never forgotten
            for ia, ib in pairs:
                table.line(ia, ib)
            assert len(table.rels) == rels  # no shape made twice
    # LOS over the Rubble board with the tiny cap answers as a board of its own.
    scratch = LineOfSight(Board.from_map(rubble.map, base.terrain_table))
    los = LineOfSight(rubble, shared_lines=2)
    n = len(base.hexes)
    for k in range(400):
        ia, ib = (11 * k) % n, (29 * k + 3) % n
        assert los.check_index(ia, ib, k % 2 == 0, k % 3 == 0) == scratch.check_index(
            ia, ib, k % 2 == 0, k % 3 == 0
        )


def test_the_line_cap_must_hold_a_line():
    board = Board.from_map(load_map(shipped_maps()[0]))
    with pytest.raises(ValueError, match="at least one"):
        LineTable(board, 0)


def test_the_walk_and_cells_readers_and_line_indices_give_the_built_line():
    """LineTable.walk (the steps read from the shape, unbuilt) and LineTable.cells give the steps and
    cells of LineTable.line, in both orders, irregular lines included, whichever is asked first;
    LineOfSight.line_indices (firing's and spotting's step before the target) is the fresh line on
    the map board and on a Rubble board of it."""
    board = Board.from_map(load_map(shipped_maps()[0]))
    n = len(board.hexes)
    houses = sorted(h for h, t in board.map.terrain.items() if t == "building")[:3]
    rubble = board.with_terrain(dict.fromkeys(houses, "rubble"))
    pairs = [((37 * k) % n, (101 * k + 5) % n) for k in range(400)]
    # Lines that leave the map (a hexspine along its edge): the irregular ones.
    off = [
        (a, b)
        for a in range(0, n, 5)
        for b in range(n)
        if any(i < 0 for s in board_line(board, a, b) for i in s)
    ]
    assert off
    pairs += off[:: max(1, len(off) // 20)]
    for first in ("walk", "cells", "line"):
        table = LineTable(board, 15_000)
        seen_irregular = False
        for ia, ib in pairs:
            for a, b in ((ia, ib), (ib, ia)):
                want = _fresh(board, a, b)
                if first == "walk":
                    atoms, at, codes, corners = table.walk(a, b)
                    cells = table.cells(a, b)
                elif first == "cells":
                    cells = table.cells(a, b)
                    atoms, at, codes, corners = table.walk(a, b)
                else:
                    assert table.line(a, b) == want
                    atoms, at, codes, corners = table.walk(a, b)
                    cells = table.cells(a, b)
                assert tuple(atoms[at + c] for c in codes) == want[0]
                assert cells == want[1] and corners == want[2]
                assert table.line(a, b) == want
                seen_irregular |= table.codes[a * n + b] == IRREGULAR
        assert seen_irregular
    for b in (board, rubble):
        los = LineOfSight(b)
        for ia, ib in pairs[:60]:
            assert los.line_indices(ia, ib) == board_line(b, ia, ib)
            assert los.line_indices(ib, ia) == board_line(b, ib, ia)
