"""Line of sight and visibility (base-rules §16, §13, §15; Combat!2 27.5, 27.8, 28.1, 29.5).

:class:`LineOfSight` answers "can a character in hex A see hex B?" for one
map, with the map's markers (smoke, fire) and caches every answer. The steps,
in order:

1. Limits (§16 step 1): the weather's maximum LOS (C2 28.1) and night (§15,
   unless either end is illuminated); the lower applies (C2 28.0).
2. Heavy smoke (C2 29.5): the smoke modifiers of every hex on the line, end
   hexes included, add up (Smoke −4, Fading −2, a Fire counts as its smoke);
   LOS is blocked when the total reaches twice the viewer's TQ (the rule's
   example blocks at equality, base-rules §20 Q32).
3. Same or adjacent hexes always see each other.
4. Terrain (§16 steps 2–5): the centre-to-centre line; the end hexes' own
   terrain is ignored; a line along a hexside (a hexspine) is blocked only if
   the hexes on both sides block; S terrain counts only if either end has a
   low order; heights are compared in half-levels with the blind-hex table;
   hedges, walls and bocage on a hexside between two intervening hexes block
   like an obstacle of their height; Fire markers block. Where the line passes
   through a hex corner or along a hexside (C2 27.3 with §16 step 2), the house
   option ``hexside_vertex_los`` reads the features there: ``both_sides`` (the
   default) blocks only if the line is blocked on both sides of the corner
   (:meth:`LineOfSight._crossing`, :meth:`LineOfSight._spine_sides`).
5. D terrain (C2 27.8): a character with a low order in D terrain is seen only
   from 1 hex away, +1 per level the viewer stands above it, or by a viewer
   whose hex and every hex between are D terrain.
6. Abbey (C2 27.5): Abbey hexes block LOS from outside; between two Abbey hexes
   they do not block but give −1 per Abbey hex the line passes through; an
   Abbey Interior hex cannot be seen from outside.

Answers are cached per (A, B, low orders); changing the smoke or fire of a hex
drops exactly the cached answers whose line passes through that hex. The answers
without markers of a map's own board are shared by every game on it in a table of
fixed size that keeps them all (:mod:`solo.rules.los_answers`); a board with changed
terrain (Rubble) keeps at most :data:`SHARED_ANSWERS` of its own: when full its oldest
quarter is dropped (answers are pure, so play does not change). The line shapes of a map
are a table that is never evicted (:mod:`solo.rules.los_lines`); at most
:data:`SHARED_LINES` lines per map are kept built from it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from itertools import islice
from typing import Any

import attrs

from solo.core.hexes import Hex
from solo.data.maps import Board
from solo.rules.los_answers import (
    NO_TOP,
    AnswerTable,
    affected,
    answer_table,
    board_tables,
    distance_row,
)
from solo.rules.los_lines import Line, line_table
from solo.rules.los_readers import viewer_reader

OFF = -1

SHARED_ANSWERS = 30_000
"""At most this many marker-free answers per board with changed terrain (Rubble) and month, shared
across games; a map's own board keeps every answer in a fixed-size :class:`AnswerTable`."""
HEXSIDE_VERTEX = ("both_sides", "any_touch")
"""The readings of hexside features at a hex corner (house option ``hexside_vertex_los``)."""
SHARED_LINES = 15_000
"""At most this many lines kept built (board indices) per map, shared across games; past that the
oldest quarter is rebuilt from the map's never-evicted shapes when asked (:mod:`solo.rules.los_lines`)."""

_EVERY_LOW = (0, 1, 2, 3)
_SOME_LOW = (1, 2, 3)
"""The low-order bits of a pair's keys: all four, and those with a low order at either end."""
_AS_HIGH = ("16 step 4: hexside as high as the higher end", "16 step 4: obstacle as high as the higher end")
_BLIND = ("16 step 5: blind hex behind hexside", "16 step 5: blind hex behind obstacle")
"""The rules :meth:`LineOfSight._blocks` gives, by whether the obstacle is a hex (else a hexside)."""


_Ends = tuple[int, int, tuple[int, int, int], tuple[int, int, int], int]
"""What a walk measures from its two ends: (t_hi, s_lo, chi, clo, hi) of :meth:`LineOfSight._blocks`."""


def _put(cache: dict[int, Any], key: int, value: object, cap: int) -> None:
    """``cache[key] = value``, first dropping the oldest quarter when ``cache`` holds ``cap``."""
    if len(cache) >= cap:
        for old in list(islice(cache, max(1, cap // 4))):
            del cache[old]
    cache[key] = value


@attrs.frozen
class Sight:
    """The answer to one LOS question.

    ``smoke`` and ``abbey`` are the (≤ 0) modifiers the line carries for fire
    and spotting: smoke −4 per Smoke hex and −2 per Fading hex, end hexes
    included (§13); −1 per Abbey hex passed through inside the Abbey (27.5).
    """

    clear: bool
    rule: str
    """Why: ``"clear"``, or the rule that blocked (``"16 step 4: obstacle"``, ``"C2 29.5"``...)."""
    blocked_by: Hex | None
    """The hex (or the first hex of a hexside) that blocked, when a hex did."""
    range: int
    """Distance in hexes."""
    smoke: int = 0
    abbey: int = 0

    @property
    def modifier(self) -> int:
        """Total modifier the line gives to fire and spotting (smoke + abbey), ≤ 0."""
        return self.smoke + self.abbey

    def __bool__(self) -> bool:
        return self.clear


@attrs.frozen
class _Entry:
    """A cached answer and the hexes of the line it used, as board indices.

    ``sight`` carries the smoke on the line at the time it was cached; any
    smoke change on the line drops the entry (:meth:`LineOfSight._invalidate`).
    """

    sight: Sight
    cells: tuple[int, ...] = ()
    """The on-map indices of the line's steps, each once, in line order (the invalidation test)."""


class LineOfSight:
    """LOS on one :class:`~solo.data.maps.Board` with its smoke and fire markers, cached.

    ``month`` (1–12) decides whether Fields are S terrain (C2 27.8). Markers are
    set with :meth:`set_smoke` and :meth:`set_fire`; :meth:`check` answers.
    ``shared_answers`` and ``shared_lines`` bound the caches shared with other games on
    the board (entries; ValueError below 1). ``hexside_vertex`` is the house option
    ``hexside_vertex_los``: how hedges, walls and bocage at the corners the line passes
    through block (one of :data:`HEXSIDE_VERTEX`; ValueError otherwise).
    """

    def __init__(
        self,
        board: Board,
        *,
        month: int = 6,
        shared_answers: int = SHARED_ANSWERS,
        shared_lines: int = SHARED_LINES,
        hexside_vertex: str = "both_sides",
    ) -> None:
        if not 1 <= month <= 12:
            raise ValueError(f"month must be 1-12, got {month}")
        if hexside_vertex not in HEXSIDE_VERTEX:
            choices = ", ".join(HEXSIDE_VERTEX)
            raise ValueError(f"hexside_vertex must be one of {choices}, got {hexside_vertex!r}")
        self.hexside_vertex = hexside_vertex
        self._any_touch = hexside_vertex == "any_touch"
        if shared_answers < 1 or shared_lines < 1:
            raise ValueError("the shared LOS caches need room for at least one entry")
        self._answers_cap = shared_answers
        self._lines_cap = shared_lines
        self.board = board
        self.month = month
        self._small_top, self._levels, self._sided = board_tables(board, month)
        self._smoke: dict[int, int] = {}
        self._fire: dict[int, bool] = {}
        self.marks = 0
        """Bumped by every change of this LOS's smoke or fire markers (and :meth:`clear_cache`):
        answers kept elsewhere for one value of it stay right while it stays the same."""
        self._n = len(board.hexes)
        # Key: ((low index * n + high index) << 2) | low_a << 1 | low_b, ends sorted.
        # _static: answers without smoke or fire, shared by every game on this board and month
        # (a map's own board: an AnswerTable, read as _sights[_codes[key]]; a board with changed
        # terrain: a capped dict, _codes None); _cache: this game's answers while it has smoke or
        # fire markers. The house option is part of the shared key only when it is not the default
        # (the default keeps the key every game used before it existed).
        static_key = ("los", month) if hexside_vertex == "both_sides" else ("los", month, hexside_vertex)
        self._cache: dict[int, _Entry] = {}
        self._through: dict[int, dict[int, None]] = {}
        # The line shapes: pure geometry of the map, shared by its boards (never evicted but for
        # the few lines that leave the map, :mod:`solo.rules.los_lines`).
        self._lines = line_table(board.base, shared_lines)
        # A board with changed terrain (Rubble, base-rules §14) walks a line that passes no
        # changed hex exactly as the map's own board does (the walk reads only the line's hexes
        # and the hexsides between them): such answers are read from, and given to, the map
        # board's shared answers, and the line shapes (pure geometry) are the map board's.
        self._base_table: AnswerTable[Sight] | None = None
        self._changed: tuple[int, ...] = ()
        self._changed_set: frozenset[int] = frozenset()
        self._codes: array[int] | None = None
        self._sights: list[Sight | None] = []
        base = board.base
        if base is board:
            self._static: AnswerTable[Sight] | dict[int, Sight] = answer_table(board, static_key, self._n)
            self._codes, self._sights = self._static.codes, self._static.answers
        else:
            self._static = board.shared.setdefault(static_key, {})
            self._base_table = answer_table(base, static_key, self._n)
            self._changed = affected(base, board)
            self._changed_set = frozenset(self._changed)
        # Per changed index: its distance to every index (the quick test of _from_base).
        self._near = tuple((i, distance_row(base, i)) for i in self._changed)

    # -- markers ---------------------------------------------------------

    def smoke_at(self, h: Hex) -> int:
        """The smoke modifier of ``h`` (0, or negative: −4 Smoke, −2 Fading, summed)."""
        return self._smoke.get(self.board.idx(h), 0)

    def set_smoke(self, h: Hex, modifier: int) -> None:
        """Set the total smoke LOS modifier of ``h`` (≤ 0; 0 removes it), 13 / C2 29.2."""
        if modifier > 0:
            raise ValueError(f"a smoke modifier is 0 or negative, got {modifier}")
        i = self.board.idx(h)
        if self._smoke.get(i, 0) == modifier:
            return
        if modifier:
            self._smoke[i] = modifier
        else:
            self._smoke.pop(i, None)
        self._invalidate(i)

    def has_fire(self, h: Hex) -> bool:
        """Whether a Fire or Raging Fire marker is on ``h``."""
        return self.board.idx(h) in self._fire

    def set_fire(self, h: Hex, burning: bool) -> None:
        """Place or remove a Fire marker on ``h``: it blocks LOS through the hex (C2 29.2).

        The fire's own smoke is set separately with :meth:`set_smoke`.
        """
        i = self.board.idx(h)
        if (i in self._fire) == burning:
            return
        if burning:
            self._fire[i] = True
        else:
            self._fire.pop(i, None)
        self._invalidate(i)

    def on_board(self, board: Board) -> LineOfSight:
        """This LOS with the same month, cache sizes, smoke and fire markers on ``board``, a board of
        the same map with other terrain (:meth:`~solo.data.maps.Board.with_terrain`, base-rules §14
        Rubble); its shared caches are ``board``'s. Raises ValueError for a board of another map."""
        if board.base is not self.board.base:
            raise ValueError(f"board of map {board.map.id!r} is not a board of {self.board.map.id!r}")
        los = LineOfSight(
            board,
            month=self.month,
            shared_answers=self._answers_cap,
            shared_lines=self._lines_cap,
            hexside_vertex=self.hexside_vertex,
        )
        los._smoke = dict(self._smoke)
        los._fire = dict(self._fire)
        return los

    def clear_cache(self) -> None:
        """Forget every cached answer, shared ones too (benchmarks and tests of a cold cache; a game
        whose terrain changes gets a board of its own instead, :meth:`on_board`)."""
        self.marks += 1
        self._cache.clear()
        self._through.clear()
        self._static.clear()
        if self._base_table is not None:
            self._base_table.clear()

    def _invalidate(self, i: int) -> None:
        self.marks += 1
        keys = self._through.pop(i, None)
        if not keys:
            return
        cache = self._cache
        for key in keys:
            cache.pop(key, None)

    # -- queries ---------------------------------------------------------

    def check(
        self,
        a: Hex,
        b: Hex,
        *,
        low_a: bool = False,
        low_b: bool = False,
        viewer_tq: int | None = None,
        max_range: int | None = None,
        night_range: int | None = None,
        illuminated: bool = False,
    ) -> Sight:
        """Can ``a`` see ``b`` (and ``b`` see ``a``)?

        ``low_a``/``low_b``: whether the character at each end has a low order
        (Sneak, Hide, Reload or Rally: S terrain blocks, D terrain hides).
        ``viewer_tq``: the viewer's TQ for heavy smoke (C2 29.5); None skips the
        test. ``max_range``: the weather's maximum LOS in hexes (C2 28.1);
        ``night_range``: the night limit (§15), ignored if ``illuminated``
        (either end lit). Raises :class:`~solo.core.errors.GeometryError` if a hex
        is off the map.
        """
        index = self.board.index
        try:
            ia, ib = index[a], index[b]
        except KeyError:
            ia, ib = self.board.idx(a), self.board.idx(b)  # raises GeometryError
        return self.check_index(ia, ib, low_a, low_b, viewer_tq, max_range, night_range, illuminated)

    def check_index(
        self,
        ia: int,
        ib: int,
        low_a: bool = False,
        low_b: bool = False,
        viewer_tq: int | None = None,
        max_range: int | None = None,
        night_range: int | None = None,
        illuminated: bool = False,
    ) -> Sight:
        """:meth:`check` by :class:`~solo.data.maps.Board` indices (the hot path)."""
        if ia <= ib:
            key = (((ia * self._n + ib) << 2) | (low_a << 1)) | low_b
        else:
            key = (((ib * self._n + ia) << 2) | (low_b << 1)) | low_a
        limit = None
        if max_range is not None or night_range is not None:
            limit = max_range
            if night_range is not None and not illuminated:
                limit = night_range if limit is None else min(limit, night_range)
        marked = self._smoke or self._fire
        if marked:
            entry = self._cache.get(key)
            sight = entry.sight if entry is not None else None
        elif self._codes is not None:
            sight = self._sights[self._codes[key]]
        else:
            sight = self._static.get(key)
        if sight is None:
            if limit is not None:
                # Beyond the limit the answer is the same whatever the walk: skip it.
                cube = self.board.cube
                ca, cb = cube[ia], cube[ib]
                rng = max(abs(ca[0] - cb[0]), abs(ca[1] - cb[1]), abs(ca[2] - cb[2]))
                if rng > limit:
                    return Sight(False, "C2 28.0 maximum LOS", None, rng)
            if marked:
                sight = self._fill(key).sight
            else:
                # No markers: the answers every game on this map and month shares.
                sight = self._from_base(key) if self._base_table is not None else None
                if sight is None:
                    sight, alike = self._walked(*self._unkey(key))
                    self._share(key, sight, None, alike)
        if limit is not None and sight.range > limit:
            return Sight(False, "C2 28.0 maximum LOS", None, sight.range)
        smoke = sight.smoke
        if smoke and viewer_tq is not None and -smoke >= 2 * viewer_tq:
            return Sight(False, "C2 29.5 heavy smoke", None, sight.range, smoke, sight.abbey)
        return sight

    def from_viewer(
        self,
        ia: int,
        low_a: bool,
        viewer_tq: int | None,
        max_range: int | None,
        night_range: int | None,
        *,
        clear_only: bool = False,
    ) -> Callable[[int, bool], Sight]:
        """``lambda ib, low_b: check_index(ia, ib, low_a, low_b, viewer_tq, max_range, night_range)``.

        Not illuminated. While the map has no smoke or fire marker and no range limit applies, a
        cached answer is read without the call (the spotting scan's hot path); the same answers.

        ``clear_only`` (the spotting scan, which reads only ``.clear``): under smoke or fire
        markers a line whose marker-free answer on this board is known and blocked is answered
        with that blocked :class:`Sight` (its rule, hex and smoke may differ from
        :meth:`check_index`'s; ``.clear`` is the same) without filling this game's cache. Markers
        only add blocking: without a Fire marker on the line the walk is the marker-free one, and
        smoke only adds modifiers and C2 29.5 heavy smoke; a line with a Fire marker on it is
        answered in full (a fire on the lower hex of a hexspine step moves the step's test to the
        other hex, so the walk is not read as monotone there).
        """
        return viewer_reader(self, ia, low_a, viewer_tq, max_range, night_range, clear_only)

    def _unkey(self, key: int) -> tuple[int, int, bool, bool]:
        ia, ib = divmod(key >> 2, self._n)
        return ia, ib, bool(key & 2), bool(key & 1)

    def _fill(self, key: int) -> _Entry:
        """Compute, with this game's smoke and fire, and cache with the hexes the line passes."""
        fire = self._fire
        if self._codes is not None:
            sight = self._sights[self._codes[key]]
        else:
            sight = self._static.get(key)
            if sight is None:
                sight = self._from_base(key)
        ia, ib, low_a, low_b = self._unkey(key)
        lines = self._lines
        cells = lines.cells(ia, ib)
        if fire and (sight is None or not fire.keys().isdisjoint(cells)):
            # A fire on the line (or a line not walked yet): this game's walk. _walk reads fire
            # only on the line's own hexes, so without fire there it is the marker-free one.
            fresh = sight is None
            sight, alike = self._walked(ia, ib, low_a, low_b)
            if fresh and fire.keys().isdisjoint(cells):
                # No fire on the line after all: the marker-free answer; share it, so the
                # next game (or this one after the fire is out) does not walk it again.
                self._share(key, sight, cells, alike)
        elif sight is None:
            # Without fire the walk is the marker-free one: fill the shared answer.
            sight, alike = self._walked(ia, ib, low_a, low_b)
            self._share(key, sight, cells, alike)
        smoke_on = self._smoke
        if smoke_on and not smoke_on.keys().isdisjoint(cells):
            smoke = self._smoke_on(lines.line(ia, ib)[0])
            if smoke:
                sight = attrs.evolve(sight, smoke=smoke)
        entry = _Entry(sight, cells)
        self._cache[key] = entry
        through = self._through
        for i in cells:
            through.setdefault(i, {})[key] = None
        return entry

    def _from_base(self, key: int) -> Sight | None:
        """The map board's marker-free answer for ``key`` if its line passes no changed hex (kept
        in this board's shared answers too), else None. Only on a board with changed terrain.

        A hex ``c`` on the line from ``a`` to ``b`` lies within 2/3 of a hex of a point of the
        segment, so d(a, c) + d(c, b) ≤ d(a, b) + 1 (hex distance is a norm along the segment);
        a changed hex farther off needs no look at the line's cells."""
        table = self._base_table
        sight = table.answers[table.codes[key]]  # type: ignore[union-attr]  # only called with a base table
        if sight is None:
            return None
        ia, ib = divmod(key >> 2, self._n)
        reach = sight.range + 1  # the range is the hex distance of the ends
        for i, row in self._near:
            if row[ia] + row[ib] <= reach and i in self._lines.cells(ia, ib):
                return None
        _put(self._static, key, sight, self._answers_cap)  # type: ignore[arg-type]  # a changed board's own dict
        return sight

    def _share(
        self, key: int, sight: Sight, cells: tuple[int, ...] | None = None, alike: tuple[int, ...] = ()
    ) -> None:
        """Keep a marker-free answer in the shared answers: this board's, and the map board's too
        when the board has changed terrain its line does not pass (the same walk there). ``cells``:
        the line's, when built (else a changed hex near the line is looked for in them, as
        :meth:`_from_base` does). ``alike``: the low-order bits of the pair's keys the answer holds
        for too (:meth:`_walked`), kept in the map board's table."""
        base = self._base_table
        if base is None:
            self._static.put(key, sight, alike)  # type: ignore[union-attr]  # the map's own board: its table
            return
        _put(self._static, key, sight, self._answers_cap)  # type: ignore[arg-type]  # a changed board's own dict
        if cells is None:
            ia, ib = divmod(key >> 2, self._n)
            reach = sight.range + 1
            for i, row in self._near:
                if row[ia] + row[ib] <= reach and i in self._lines.cells(ia, ib):
                    return
            base.put(key, sight, alike)
        elif self._changed_set.isdisjoint(cells):
            base.put(key, sight, alike)

    def _line(self, ia: int, ib: int) -> Line:
        """The line from index ``ia`` to ``ib`` (ia ≤ ib): its steps, its on-map cells once each in
        line order, and whether it passes exactly through hex corners (the map's
        :class:`~solo.rules.los_lines.LineTable`)."""
        return self._lines.line(ia, ib)

    def _smoke_on(self, steps: tuple[tuple[int, ...], ...], cells: tuple[int, ...] = ()) -> int:
        """The summed smoke modifier along ``steps`` (≤ 0); 0 at once when no smoke is on ``cells``."""
        smoke = self._smoke
        if cells and smoke.keys().isdisjoint(cells):
            return 0  # every step would add smoke.get(i, 0) == 0 (off-map -1 is never smoked)
        total = 0
        for step in steps:
            if len(step) == 1:
                total += smoke.get(step[0], 0)
            else:  # along a hexspine: the line is in the clearer of the two
                total += max(smoke.get(i, 0) for i in step)
        return total

    def line_indices(self, ia: int, ib: int) -> tuple[tuple[int, ...], ...]:
        """The line from index ``ia`` to ``ib`` (either order) as steps of board indices (−1 off the
        map), §16 step 2: the map's :class:`~solo.rules.los_lines.LineTable` line, equal to
        :func:`~solo.rules.los_lines.board_line` (tested on every pair). IndexError off the board."""
        return self._lines.line(ia, ib)[0]

    def _compute(self, ia: int, ib: int, low_a: bool, low_b: bool) -> _Entry:
        """The walk's answer with this game's fire (smoke 0), with the line's cells."""
        return _Entry(self._sight(ia, ib, low_a, low_b), self._lines.cells(ia, ib))

    def _sight(self, ia: int, ib: int, low_a: bool, low_b: bool) -> Sight:
        """The walk's answer (smoke 0), the line read from its shape without building it."""
        return self._walked(ia, ib, low_a, low_b)[0]

    def _walked(self, ia: int, ib: int, low_a: bool, low_b: bool) -> tuple[Sight, tuple[int, ...]]:
        """The walk's answer (smoke 0) and the low-order bits (``low_a << 1 | low_b``) of the keys of
        the pair it answers alike: every one when neither S terrain the walk read nor C2 27.8 (an
        end in D terrain) depends on them; the three with a low order when only S terrain does."""
        board = self.board
        clear, rule, blocked, abbey_mod, rng, s_free = self._walk(ia, ib, low_a, low_b)
        where = board.hexes[blocked] if blocked >= 0 else None
        depression = board.depression
        if depression[ia] or depression[ib]:
            alike: tuple[int, ...] = ()
        elif s_free:
            alike = _EVERY_LOW
        else:
            alike = _SOME_LOW if low_a or low_b else ()
        return Sight(clear, rule, where, rng, 0, abbey_mod), alike

    def _walk(self, ia: int, ib: int, low_a: bool, low_b: bool) -> tuple[bool, str, int, int, int, bool]:
        """§16 steps 2–5, C2 27.5 and 27.8 along the line from ``ia`` to ``ib`` with this game's fire:
        (clear, rule, blocking index or OFF, abbey modifier, range, s_free); ``s_free``: no hex read
        had S terrain above its other top, so the low orders changed nothing but C2 27.8. Step ``k``
        of the line is ``atoms[at + codes[k]]`` (:meth:`~solo.rules.los_lines.LineTable.walk`): a
        walk that stops early reads only the steps it passes."""
        board = self.board
        atoms, at, codes, corners = self._lines.walk(ia, ib)
        cube = board.cube
        ca, cb = cube[ia], cube[ib]
        rng = max(abs(ca[0] - cb[0]), abs(ca[1] - cb[1]), abs(ca[2] - cb[2]))
        abbey = board.abbey
        inside = bool(abbey[ia] and abbey[ib])
        interior_from_outside = not inside and (abbey[ia] == 2 or abbey[ib] == 2)
        s_free = True  # no hex the walk read has S terrain above its other top (low orders alike)
        if rng <= 1:
            # 27.5: an Abbey Interior hex cannot be seen from outside, even next to it.
            if interior_from_outside and rng == 1:
                return (False, "C2 27.5 abbey interior", ia if abbey[ia] == 2 else ib, 0, rng, s_free)
            return (True, "clear", OFF, 0, rng, s_free)
        ground = board.ground
        block_top = board.block_top
        small_top = self._small_top
        low = low_a or low_b
        fire = self._fire
        # The ends see from their level (§16 step 3): a Depression's own dip only
        # matters through the D rule (C2 27.8), or as a low hex between others.
        levels = self._levels
        ga, gb = 2 * levels[ia], 2 * levels[ib]
        hi, lo = (ia, ib) if ga >= gb else (ib, ia)
        t_hi, s_lo = max(ga, gb), min(ga, gb)
        chi, clo = cube[hi], cube[lo]
        abbey_mod = 0
        hexside_top = board.hexside_top
        # Whether the line passes exactly through hex corners at all (a hexspine line does):
        # only then may a crossing be at a corner (_crossing); else the plain hexside test.
        prev: int | None = None
        last = len(codes) - 1
        for k in range(1, last):
            step = atoms[at + codes[k]]
            # Height of this step: for a spine pair, the lower of the two (both must block).
            h_top = 1000
            obstacle = OFF
            for i in step:
                if i < 0:
                    top = NO_TOP
                elif i in fire:
                    top = 99
                else:
                    top = ground[i]
                    bt = block_top[i]
                    if bt > top and not (inside and abbey[i]):
                        top = bt
                    small = small_top[i]
                    if small > top:
                        s_free = False
                        if low:
                            top = small
                if top < h_top:
                    h_top, obstacle = top, i
            if inside and all(i >= 0 and abbey[i] for i in step):
                abbey_mod -= 1
            if h_top > s_lo:  # else no obstacle (_blocks' first test, without its call)
                blocked = self._blocks(h_top, obstacle, t_hi, s_lo, chi, clo, hi)
                if blocked:
                    return (False, blocked, obstacle, abbey_mod, rng, s_free)
            # Hedges, walls and bocage on hexsides between two intervening hexes.
            if len(step) == 1:
                j = step[0]
                if prev is not None and j >= 0:
                    key = (prev, j) if prev < j else (j, prev)
                    if corners:
                        if key in hexside_top or (self._any_touch and (self._sided[prev] or self._sided[j])):
                            found = self._crossing(prev, j, ca, cube[ib], (t_hi, s_lo, chi, clo, hi))
                            if found is not None:
                                return (False, found[0], found[1], abbey_mod, rng, s_free)
                    else:
                        side = hexside_top.get(key)
                        if side is not None:
                            # Measured from whichever of the two hexes is nearer each end, so
                            # the answer does not depend on the direction of the walk.
                            blocked = self._blocks(side, key[0], t_hi, s_lo, chi, clo, hi, other=key[1])
                            if blocked:
                                return (False, blocked, key[0], abbey_mod, rng, s_free)
                prev = j if j >= 0 else None
            else:
                prev = None
                b, c = step
                if hexside_top and ((b >= 0 and self._sided[b]) or (c >= 0 and self._sided[c])):
                    steps = tuple([atoms[at + c] for c in codes])
                    found = self._spine_sides(steps, k, last, (t_hi, s_lo, chi, clo, hi), low, inside)
                    if found is not None:
                        return (False, found[0], found[1], abbey_mod, rng, s_free)
        if interior_from_outside:  # 27.5, when nothing between blocked first
            return (False, "C2 27.5 abbey interior", ia if abbey[ia] == 2 else ib, 0, rng, s_free)
        # C2 27.8: D terrain with a low order.
        depression = board.depression
        for end, other, low_end in ((ia, ib, low_a), (ib, ia, low_b)):
            if low_end and depression[end]:
                reach = 1 + max(0, levels[other] - levels[end])
                if rng > reach and not (
                    depression[other] and all(i >= 0 and depression[i] for c in codes for i in atoms[at + c])
                ):
                    return (False, "C2 27.8 low order in depression", end, abbey_mod, rng, s_free)
        return (True, "clear", OFF, abbey_mod, rng, s_free)

    def _feature(self, i: int, j: int, ends: _Ends) -> tuple[str, int] | None:
        """Whether a hedge, wall or bocage on the hexside between indices ``i`` and ``j`` blocks
        (§16 steps 4–5 with its height): (rule, first index of the hexside), or None."""
        key = (i, j) if i < j else (j, i)
        side = self.board.hexside_top.get(key)
        if side is None:
            return None
        # Measured from whichever of the two hexes is nearer each end, so the answer does not
        # depend on the direction of the walk.
        blocked = self._blocks(side, key[0], *ends, other=key[1])
        return None if blocked is None else (blocked, key[0])

    def _crossing(
        self, p: int, r: int, ca: tuple[int, int, int], cb: tuple[int, int, int], ends: _Ends
    ) -> tuple[str, int] | None:
        """The line goes from intervening hex ``p`` into intervening hex ``r`` (adjacent): the
        features it meets there (§16, C2 27.3); (rule, index) if they block.

        Across the hexside between them: that hexside. Exactly through one of its corners (the
        vertex of ``p``, ``r`` and a third hex ``q`` the line only touches): under ``both_sides``
        the line is blocked only if it is on both sides of the corner, by the ``p``/``r`` hexside on
        one side and the ``p``/``q`` or ``q``/``r`` hexside on the other; under ``any_touch`` by
        any of the three.
        """
        across = self._feature(p, r, ends)
        if across is None and not self._any_touch:
            return None  # both_sides needs the p/r hexside on one side
        cube = self.board.cube
        cp, cr = cube[p], cube[r]
        dx, dy, dz = cr[0] - cp[0], cr[1] - cp[1], cr[2] - cp[2]
        vx, vz = cb[0] - ca[0], cb[2] - ca[2]
        q = None
        # The two hexes next to both p and r: p plus the step rotated by ±60°.
        for ox, oz in ((-dz, -dy), (-dy, -dx)):
            qx, qz = cp[0] + ox, cp[2] + oz
            # The corner is the centroid of p, r, q: on the line when 3 × (corner − a) ∥ (b − a).
            wx = cp[0] + cr[0] + qx - 3 * ca[0]
            wz = cp[2] + cr[2] + qz - 3 * ca[2]
            if wx * vz == wz * vx:
                q = self.board.index_at_cube(qx, qz)
                break
        if q is None:
            return across
        if self._any_touch:
            if across is not None or q < 0:
                return across
            return self._feature(p, q, ends) or self._feature(q, r, ends)
        if q < 0:
            return None
        return across if (self._feature(p, q, ends) or self._feature(q, r, ends)) else None

    def _spine_sides(
        self, steps: tuple[tuple[int, ...], ...], k: int, last: int, ends: _Ends, low: bool, inside: bool
    ) -> tuple[str, int] | None:
        """Step ``k`` runs along the hexside between ``b`` and ``c`` (a hexspine), from the corner
        it shares with the step before to the one it shares with the step after (§16 step 2,
        C2 27.3); (rule, index) if the features there block.

        ``both_sides``: each side (``b`` or ``c``) is blocked by its own hex, or by a feature on its
        hexside with the step before or after; the line is blocked only if both sides are. The
        hexside between ``b`` and ``c``, which the line runs along, is crossed by neither side.
        ``any_touch``: any of the five hexsides blocks. Hexsides on an end hex's edge never do.
        """
        b, c = steps[k]
        x = steps[k - 1][0] if k > 1 else OFF
        y = steps[k + 1][0] if k + 1 < last else OFF
        feature = self._feature
        if self._any_touch:
            if b >= 0 and c >= 0:
                found = feature(b, c, ends)
                if found is not None:
                    return found
            for s in (b, c):
                for o in (x, y):
                    if s >= 0 and o >= 0:
                        found = feature(s, o, ends)
                        if found is not None:
                            return found
            return None
        sides = []
        for s in (b, c):
            if s < 0:
                return None  # off the map: nothing blocks that side
            found = None
            for o in (x, y):
                if o >= 0:
                    found = feature(s, o, ends)
                    if found is not None:
                        break
            if found is None:
                blocked = self._blocks(self._top(s, low, inside), s, *ends)
                if blocked is None:
                    return None  # this side is clear
                found = (blocked, s)
            sides.append(found)
        # Both sides blocked: report a feature (the terrain alone was tested before).
        return sides[0] if "hexside" in sides[0][0] else sides[1]

    def _top(self, i: int, low: bool, inside: bool) -> int:
        """The top of intervening hex ``i`` as :meth:`_walk` reads it (fire, B and S terrain)."""
        if i in self._fire:
            return 99
        board = self.board
        top = board.ground[i]
        bt = board.block_top[i]
        if bt > top and not (inside and board.abbey[i]):
            top = bt
        if low and self._small_top[i] > top:
            top = self._small_top[i]
        return top

    def _blocks(
        self,
        h_top: int,
        obstacle: int,
        t_hi: int,
        s_lo: int,
        chi: tuple[int, int, int],
        clo: tuple[int, int, int],
        hi: int,
        *,
        other: int | None = None,
    ) -> str | None:
        """Whether an obstacle of top ``h_top`` blocks (§16 steps 4–5); the rule if it does.

        ``other`` is given for a hexside feature: the hexside lies between
        ``obstacle`` and ``other``, and ranges are taken from the nearer of the two.
        """
        if h_top <= s_lo:
            return None
        if h_top >= t_hi:
            return _AS_HIGH[other is None]
        board = self.board
        cube = board.cube
        spots = (cube[obstacle],) if other is None else (cube[obstacle], cube[other])
        r = min(max(abs(c[0] - chi[0]), abs(c[1] - chi[1]), abs(c[2] - chi[2])) for c in spots)
        # Continuous slope: a bare hill hex next to and lower than the higher end.
        if (
            other is None
            and r == 1
            and h_top == board.ground[obstacle]
            and board.ground[obstacle] < 2 * self._levels[hi]
        ):
            return None
        base = (r + 4) // 5
        reduction = max(0, (t_hi - h_top) // 2 - 1)
        blind = max(0, base - reduction)
        d_lo = min(max(abs(c[0] - clo[0]), abs(c[1] - clo[1]), abs(c[2] - clo[2])) for c in spots)
        if d_lo <= blind:
            return _BLIND[other is None]
        return None

    def cache_size(self) -> int:
        """How many answers this game has cached while it has smoke or fire markers."""
        return len(self._cache)
