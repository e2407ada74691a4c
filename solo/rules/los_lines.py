"""The line shapes of one map, as a compact table that is never evicted (base-rules §16 step 2; issue 10).

A LOS walk (:class:`~solo.rules.los.LineOfSight`) reads the hexes the centre-to-centre line from hex
A to hex B passes, as steps of board indices (a step holds two indices where the line runs along
the hexside between them, a hexspine). Lines are translation invariant in cube coordinates
(:func:`~solo.core.hexes.line_shape`), and on a map whose columns repeat every two columns (every
printed map: full or short columns, even or odd low) a board index is affine in (column, row)
within a column parity. So the line from A to B is the shape of its vector, moved to A: one
:class:`RelLine` per vector and column parity of A holds the steps as index offsets, and the line is
rebuilt with two C-level ``map`` calls over interned per-map tuples.

:class:`LineTable` keeps, per map, a 2-byte code per ordered hex pair (2n² bytes, 0.93 MB for the
682-hex shipped maps) naming the pair's :class:`RelLine` once the pair was asked (whether the whole
line lies on the map is tested once per pair), and the :class:`RelLine` s, at most one per vector and
parity (bounded by the map's size, never evicted). A line that leaves the map, and every line of a
map whose index is not affine, is computed as before and kept in a capped dict
(:data:`~solo.rules.los.SHARED_LINES`); on the shipped maps that is about 0.05 % of the pairs.

May import: core, data.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import islice
from typing import Any

from solo.core.hexes import line_shape
from solo.data.maps import Board
from solo.rules.los_answers import through_corners

Line = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], bool]
"""A line as :meth:`LineTable.line` gives it: its steps of board indices (−1 off the map), its
on-map indices once each in line order, and whether it passes exactly through hex corners."""

UNKNOWN = 0
"""Code of a pair not asked yet."""
IRREGULAR = 0xFFFF
"""Code of a pair whose line is kept in the capped dict (it leaves the map, or the map is not affine)."""
_SPINE_DIRECTIONS = ((0, 1, -1), (1, -1, 0), (1, 0, -1))
"""The cube directions from the first to the second hex of a hexspine step (line_shape sorts
the pair), numbered 1–3 in the step codes."""
_EMPTY = 1 << 20
"""A bound no room reaches (a parity class of columns the line does not enter)."""


class RelLine:
    """The line along one cube vector from a hex in a column of one parity, as index offsets.

    ``steps``: one code per step, ``4 × offset`` for a single hex, ``4 × offset + k`` for a hexspine
    step whose second hex lies in direction ``k`` (1–3) of the first; ``cells``: the offsets of the
    line's hexes once each in line order; ``corners``: whether the line passes exactly through hex
    corners; ``need``: the room (columns left and right, rows above and below in the columns of
    the same and of the other parity) the start hex must have for the line to stay on the map.
    """

    __slots__ = ("cells", "corners", "need", "steps")

    def __init__(
        self, steps: tuple[int, ...], cells: tuple[int, ...], corners: bool, need: tuple[int, ...]
    ) -> None:
        self.steps = steps
        self.cells = cells
        self.corners = corners
        self.need = need


class _Grid:
    """The affine index of a map board: index(c, r) = start(c) + r − lo(c), with start, lo, hi and
    the cube row offset repeating every two columns. ``ok`` is False when the board is not so."""

    def __init__(self, board: Board) -> None:
        m = board.map
        self.columns = columns = m.columns
        self.lo = [0, 0]
        self.hi = [-1, -1]
        self.ok = columns >= 1
        for p in (0, 1):
            if p < columns:
                rows = [r for r, i in enumerate(board.grid[p]) if i >= 0]
                if not rows:
                    self.ok = False
                    return
                self.lo[p], self.hi[p] = rows[0], rows[-1]
        self.size = [self.hi[0] - self.lo[0] + 1, self.hi[1] - self.lo[1] + 1]
        ro = board.row_offset
        self.ro = [ro[0], ro[1] if columns > 1 else ro[0] + 1]
        self.ro_step = (ro[2] - ro[0]) if columns > 2 else 1
        for c in range(columns):
            if self.row_offset(c) != ro[c]:
                self.ok = False
                return
            for r, i in enumerate(board.grid[c]):
                want = self.index(c, r) if self.lo[c & 1] <= r <= self.hi[c & 1] else -1
                if i != want:
                    self.ok = False
                    return

    def row_offset(self, c: int) -> int:
        """Row = cube z + row_offset(c), for any column (virtual ones too)."""
        return self.ro[c & 1] + (c >> 1) * self.ro_step

    def start(self, c: int) -> int:
        """The index of the first hex of column ``c`` (virtual columns too)."""
        return (c >> 1) * (self.size[0] + self.size[1]) + (c & 1) * self.size[0]

    def index(self, c: int, r: int) -> int:
        return self.start(c) + r - self.lo[c & 1]


class LineTable:
    """The line shapes of one map board (``board.base``; a board with changed terrain shares its
    map board's: lines are geometry). ``cap`` (≥ 1) bounds the dict of irregular lines.

    :meth:`line` answers for index pairs (either order); its steps are :func:`board_line`'s for
    every pair (tested on every pair of a shipped map).
    """

    def __init__(self, board: Board, cap: int) -> None:
        if cap < 1:
            raise ValueError("the shared line cache needs room for at least one entry")
        self.n = n = len(board.hexes)
        self.cap = cap
        self._board = board
        self._cube = board.cube
        self.codes = array("H", bytes(2 * n * n))
        self.rels: list[RelLine | None] = [None]
        self._rel_ids: dict[int, int] = {}
        self.irregular: dict[int, Line] = {}
        self.built: dict[int, Line] = {}
        self.built_cells: dict[int, tuple[int, ...]] = {}
        self._ints = list(range(n))
        grid = _Grid(board)
        self._grid = grid if grid.ok else None
        # Interned tuples: atoms[4i] = (i,), atoms[4i + k] = (i, the neighbour of i in direction k).
        atoms: list[tuple[int, ...]] = []
        room: list[tuple[int, ...]] = []
        for i, (x, _y, z) in enumerate(board.cube):
            atoms.append((i,))
            for dx, _dy, dz in _SPINE_DIRECTIONS:
                atoms.append((i, board.index_at_cube(x + dx, z + dz)))
            if grid.ok:
                p, q = x & 1, 1 - (x & 1)
                row = z + grid.row_offset(x)
                room.append(
                    (
                        x,
                        grid.columns - 1 - x,
                        row - grid.lo[p],
                        grid.hi[p] - row,
                        row - grid.lo[q],
                        grid.hi[q] - row,
                    )
                )
        self._atoms = atoms
        self._room = room

    @property
    def nbytes(self) -> int:
        """Bytes of the code array (the :class:`RelLine` s come on top, at most two per vector)."""
        return self.codes.itemsize * len(self.codes)

    def line(self, ia: int, ib: int) -> Line:
        """The line from index ``ia`` to ``ib``: see :data:`Line`. IndexError off the board."""
        lkey = ia * self.n + ib
        found = self.built.get(lkey)
        if found is not None:
            return found
        code = self.codes[lkey]
        if code == UNKNOWN:
            code = self._code(ia, ib)
        if code == IRREGULAR:
            return self._irregular(ia, ib)
        rel = self.rels[code]
        atoms, ints = self._atoms, self._ints
        at = ia << 2
        cells = self.built_cells.pop(lkey, None)
        found = (
            tuple([atoms[at + c] for c in rel.steps]),  # type: ignore[union-attr]  # rels[code] is built for every code handed out
            cells if cells is not None else tuple([ints[ia + c] for c in rel.cells]),  # type: ignore[union-attr]  # rels[code] is built for every code handed out
            rel.corners,  # type: ignore[union-attr]  # rels[code] is built for every code handed out
        )
        _put(self.built, lkey, found, self.cap)
        return found

    def cells(self, ia: int, ib: int) -> tuple[int, ...]:
        """The on-map indices of the line from ``ia`` to ``ib``, once each in line order (:data:`Line`'s
        second item), without building its steps. IndexError off the board."""
        lkey = ia * self.n + ib
        found = self.built.get(lkey)
        if found is not None:
            return found[1]
        cells = self.built_cells.get(lkey)
        if cells is not None:
            return cells
        code = self.codes[lkey]
        if code == UNKNOWN:
            code = self._code(ia, ib)
        if code == IRREGULAR:
            return self._irregular(ia, ib)[1]
        ints = self._ints
        cells = tuple([ints[ia + c] for c in self.rels[code].cells])  # type: ignore[union-attr]  # rels[code] is built for every code handed out
        _put(self.built_cells, lkey, cells, self.cap)
        return cells

    def walk(self, ia: int, ib: int) -> tuple[Sequence[tuple[int, ...]], int, tuple[int, ...], bool]:
        """The line from index ``ia`` to ``ib`` without building it (a walk that stops early reads
        only the steps it passes): ``(atoms, at, codes, corners)``, step ``k`` of :meth:`line`'s
        steps being ``atoms[at + codes[k]]`` (``len(codes)`` steps) and ``corners`` its corner flag.
        IndexError off the board."""
        code = self.codes[ia * self.n + ib]
        if code == UNKNOWN:
            code = self._code(ia, ib)
        if code == IRREGULAR:
            steps, _cells, corners = self._irregular(ia, ib)
            return steps, 0, tuple(range(len(steps))), corners
        rel = self.rels[code]
        return self._atoms, ia << 2, rel.steps, rel.corners  # type: ignore[union-attr]  # rels[code] is built for every code handed out

    def _irregular(self, ia: int, ib: int) -> Line:
        """A line that leaves the map (or any line of a map whose index is not affine), computed."""
        lkey = ia * self.n + ib
        found = self.irregular.get(lkey)
        if found is None:
            steps = board_line(self._board, ia, ib)
            ca, cb = self._cube[ia], self._cube[ib]
            found = (
                steps,
                tuple(dict.fromkeys(i for step in steps for i in step if i >= 0)),
                through_corners(cb[0] - ca[0], cb[2] - ca[2]),
            )
            _put(self.irregular, lkey, found, self.cap)
        return found

    def _code(self, ia: int, ib: int) -> int:
        """Find the pair's shape (made once per vector and parity), test that it stays on the map,
        and keep its code."""
        code = IRREGULAR
        if self._grid is not None:
            ca, cb = self._cube[ia], self._cube[ib]
            dx, dz, p = cb[0] - ca[0], cb[2] - ca[2], ca[0] & 1
            key = (((dx << 10) + dz) << 1) | p  # |dz| < 512 on any map (≤ 100 rows and columns)
            rel_id = self._rel_ids.get(key)
            if rel_id is None:
                rel = _relative(self._grid, dx, dz, p)
                rel_id = IRREGULAR
                if rel is not None and len(self.rels) < IRREGULAR:
                    rel_id = len(self.rels)
                    self.rels.append(rel)
                self._rel_ids[key] = rel_id
            if rel_id != IRREGULAR:
                left, right, up, down, up_other, down_other = self.rels[rel_id].need  # type: ignore[union-attr]  # rels[code] is built for every code handed out
                room = self._room[ia]
                if (
                    left <= room[0]
                    and right <= room[1]
                    and up <= room[2]
                    and down <= room[3]
                    and up_other <= room[4]
                    and down_other <= room[5]
                ):
                    code = rel_id
        self.codes[ia * self.n + ib] = code
        return code


def _relative(grid: _Grid, dx: int, dz: int, p: int) -> RelLine | None:
    """The :class:`RelLine` of cube vector (dx, ·, dz) from a hex in a column of parity ``p``, or
    None if a hexspine step's two hexes are not neighbours (not expected; such lines stay irregular)."""
    shape = line_shape((dx, -dx - dz, dz))
    size0, pair = grid.size[0], grid.size[0] + grid.size[1]
    ro, ro_step, lo = grid.ro, grid.ro_step, grid.lo
    ro_p, start_p, lo_p = grid.row_offset(p), grid.start(p), lo[p]
    steps: list[int] = []
    cells: dict[int, None] = {}
    x_lo = x_hi = 0
    rows = [[_EMPTY, -_EMPTY], [_EMPTY, -_EMPTY]]  # [min, max] relative row, same / other parity
    for step in shape:
        first = None
        for ox, _oy, oz in step:
            c = p + ox
            half, odd = c >> 1, c & 1
            rel_row = oz + ro[odd] + half * ro_step - ro_p  # the row, from the start hex's
            d = half * pair + odd * size0 - start_p + rel_row - lo[odd] + lo_p  # index(c, r) − index(p, r0)
            if first is None:
                first = d
            cells[d] = None
            x_lo, x_hi = min(x_lo, ox), max(x_hi, ox)
            span = rows[ox & 1]
            span[0], span[1] = min(span[0], rel_row), max(span[1], rel_row)
        if len(step) == 1:
            steps.append(4 * first)  # type: ignore[operator]  # a step has 1-2 hexes: first is set
        else:
            a, b = step
            direction = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
            if direction not in _SPINE_DIRECTIONS:
                return None
            steps.append(4 * first + 1 + _SPINE_DIRECTIONS.index(direction))  # type: ignore[operator]  # a step has 1-2 hexes: first is set
    need = (-x_lo, x_hi, -rows[0][0], rows[0][1], -rows[1][0], rows[1][1])
    return RelLine(tuple(steps), tuple(cells), through_corners(dx, dz), need)


def _put(cache: dict[Any, Any], key: int, value: object, cap: int) -> None:
    """``cache[key] = value``, first dropping the oldest quarter when ``cache`` holds ``cap``."""
    if len(cache) >= cap:
        for old in list(islice(cache, max(1, cap // 4))):
            del cache[old]
    cache[key] = value


def line_table(board: Board, cap: int) -> LineTable:
    """The shared :class:`LineTable` of map board ``board`` (made once, kept in ``board.shared``;
    ``cap`` bounds its irregular lines, set by the first caller)."""
    table = board.shared.get("los_line_table")
    if table is None:
        table = board.shared["los_line_table"] = LineTable(board, cap)
    return table


def board_line(board: Board, ia: int, ib: int) -> tuple[tuple[int, ...], ...]:
    """The line from index ``ia`` to ``ib`` of ``board`` as steps of board indices (−1 off the map),
    computed afresh from :func:`~solo.core.hexes.line_shape` (§16 step 2)."""
    ca, cb = board.cube[ia], board.cube[ib]
    shape = line_shape((cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]))
    x0, z0 = ca[0], ca[2]
    columns, grid, row_offset = board.map.columns, board.grid, board.row_offset
    out = []
    for step in shape:
        cells = []
        for o in step:
            x = x0 + o[0]
            if 0 <= x < columns:
                column = grid[x]
                row = z0 + o[2] + row_offset[x]
                cells.append(column[row] if 0 <= row < len(column) else -1)
            else:
                cells.append(-1)
        out.append(tuple(cells))
    return tuple(out)
