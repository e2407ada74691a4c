"""The marker-free LOS answers of one board and month, as a compact table (base-rules §16; issue 10).

Every game on a map shares the answers its LOS walks give without smoke or fire markers
(:class:`~solo.rules.los.LineOfSight`). They are kept here as one small code per LOS key in a
flat :class:`array.array` (the key of :meth:`~solo.rules.los.LineOfSight.check_index`:
``((low index * n + high index) << 2) | low_a << 1 | low_b``), each code the index of an
interned answer. The table has a fixed size, 2 bytes × 4n² (3.7 MB for the 35 × 20 shipped
maps, n = 682 hexes), is filled as lines are walked and never drops an answer: its memory does
not grow with the number of games.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable
from math import gcd
from typing import Any, Generic, TypeVar

from solo.data.maps import Board

NO_TOP = -99
"""The top of an intervening hex with no obstacle of that kind (half-levels)."""
MAX_CODES = 0xFFFF
"""Distinct answers a table can intern (codes 1..MAX_CODES; 0 means "not walked yet")."""

A = TypeVar("A", bound=Hashable)
"""The kind of answer a table keeps (a :class:`~solo.rules.los.Sight`, or a crew's sight answer)."""


class AnswerTable(Generic[A]):
    """Answers by LOS key for keys ``0 .. 4n² − 1`` (``n`` hexes; ValueError below 1).

    ``codes[key]`` is 0 while the key has no answer, else the index in ``answers`` of its
    answer (``answers[0]`` is None, so ``answers[codes[key]]`` reads an answer or None without
    a test). Answers are interned: equal answers share one object and one code. Once
    :data:`MAX_CODES` distinct answers are held, a new distinct answer is not kept (it is
    walked again when asked: the same answer, only slower).
    """

    __slots__ = ("_filled", "_ids", "answers", "codes")

    def __init__(self, n: int) -> None:
        if n < 1:
            raise ValueError(f"an answer table needs at least one hex, got {n}")
        self.codes = array("H", bytes(2 * 4 * n * n))
        self.answers: list[A | None] = [None]
        self._ids: dict[A, int] = {}
        self._filled = 0

    def get(self, key: int) -> A | None:
        """The answer kept for ``key``, or None."""
        return self.answers[self.codes[key]]

    def put(self, key: int, answer: A, alike: tuple[int, ...] = ()) -> None:
        """Keep ``answer`` (not None) for ``key`` (IndexError for a key outside the table), and for
        the keys of the same pair whose low-order bits (``key & 3``) are in ``alike`` (the LOS
        walk's answer for them too, :meth:`~solo.rules.los.LineOfSight._walked`) where they have none."""
        code = self._ids.get(answer)
        if code is None:
            code = len(self.answers)
            if code > MAX_CODES:
                return
            self._ids[answer] = code
            self.answers.append(answer)
        codes = self.codes
        if not codes[key]:
            self._filled += 1
        codes[key] = code
        pair = key & ~3
        for low in alike:
            other = pair | low
            if not codes[other]:
                self._filled += 1
                codes[other] = code

    def clear(self) -> None:
        """Forget every answer (benchmarks and tests of a cold cache); the arrays stay the same objects."""
        codes = self.codes
        codes[:] = array("H", bytes(2 * len(codes)))
        del self.answers[1:]
        self._ids.clear()
        self._filled = 0

    def __len__(self) -> int:
        """How many keys have an answer."""
        return self._filled

    def __contains__(self, key: int) -> bool:
        return bool(self.codes[key])

    @property
    def nbytes(self) -> int:
        """Bytes of the code array (the interned answers come on top: one object per distinct answer)."""
        return self.codes.itemsize * len(self.codes)


def answer_table(board: Board, key: tuple[object, ...], n: int) -> AnswerTable[Any]:
    """The shared marker-free answers of ``board`` under ``key`` (("los", month[, reading])), made once."""
    table: AnswerTable[Any] | None = board.shared.get(key)
    if table is None:
        table = board.shared[key] = AnswerTable(n)
    return table


def affected(old: Board, new: Board) -> tuple[int, ...]:
    """The indices, sorted, where a LOS walk may read ``new`` differently from ``old`` (two boards of
    one map, base-rules §14 Rubble): the hexes whose terrain differs, and, where that changes the
    ground, the hexes across the hedges, walls and bocage on their sides (a line that touches such a
    hex's corner reads the height of those hexsides, C2 27.3). A line that passes none of them
    walks the same on both boards."""
    a, b = dict(old.changes), dict(new.changes)
    out: set[int] = set()
    for h in sorted(a.keys() | b.keys()):
        if a.get(h) == b.get(h):
            continue
        i = new.index[h]
        out.add(i)
        if old.ground[i] != new.ground[i]:
            for j in new.neighbours[i][1:]:
                if j >= 0 and ((i, j) if i < j else (j, i)) in new.hexside_top:
                    out.add(j)
    return tuple(sorted(out))


def distance_row(board: Board, i: int) -> array[int]:
    """The hex distance from index ``i`` to every index of ``board`` (an ``array('H')``), made once
    per board and kept in ``board.shared`` (at most one row per hex: 2n² bytes)."""
    rows: dict[int, array[int]] = board.shared.setdefault("los_distance_rows", {})
    row = rows.get(i)
    if row is None:
        cx, cy, cz = board.cube[i]
        row = rows[i] = array("H", (max(abs(x - cx), abs(y - cy), abs(z - cz)) for x, y, z in board.cube))
    return row


def board_tables(board: Board, month: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]]:
    """Per hex index: the top of the S terrain that counts in ``month`` (Fields only in summer, C2
    27.8; −99 for none), the level, and whether a hedge, wall or bocage is on any of its hexsides.

    Built once per board and month (kept in ``board.shared``); a board with changed terrain (§14
    Rubble) copies its map board's and redoes only the changed hexes (levels and hexsides do not
    change with terrain)."""
    key = ("los_tables", month)
    tables: tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]] | None = board.shared.get(key)
    if tables is not None:
        return tables
    m = board.map
    table = board.terrain_table
    ground = board.ground

    def small(i: int) -> int:
        h = board.hexes[i]
        kinds = [table[x] for x in (m.terrain[h], *m.overlays.get(h, ()))]
        tops = [x.obstacle for x in kinds if x.is_small_in(month)]
        return ground[i] + max(tops) if tops else NO_TOP

    base = board.base
    if base is not board:
        small_top, levels, sided = board_tables(base, month)
        patched = list(small_top)
        for h, _ in board.changes:
            i = board.index[h]
            patched[i] = small(i)
        tables = (tuple(patched), levels, sided)
    else:
        flags = [False] * len(board.hexes)
        for i, j in board.hexside_top:
            flags[i] = flags[j] = True
        levels = tuple(m.level[h] for h in board.hexes)
        tables = (tuple(small(i) for i in range(len(board.hexes))), levels, tuple(flags))
    board.shared[key] = tables
    return tables


def through_corners(dx: int, dz: int) -> bool:
    """Whether the line along cube vector (dx, ·, dz) passes exactly through hex corners.

    A corner is the centroid of three hexes, so its cube coordinates are thirds, all with the
    same non-zero residue; the points t·v with 3·t·v whole are multiples of u/3, u the vector
    divided by its gcd: they hit corners iff u's coordinates agree mod 3 and are not multiples
    of 3 (every hexspine vector, and a few others such as (1, 4, −5)).
    """
    dy = -dx - dz
    g = gcd(dx, dz)
    if g == 0:
        return False
    ux, uy, uz = dx // g, dy // g, dz // g
    return (ux - uy) % 3 == 0 and (uy - uz) % 3 == 0 and ux % 3 != 0
