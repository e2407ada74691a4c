"""Hex geometry: hex ids, directions, distance, lines, facing and arcs.

Pure functions over frozen values; no I/O. Conventions (``DESIGN.md``):

* Hexes are labelled ``CC.RR`` (column, row; two digits each) and are
  flat-topped, standing in columns. Whether even or odd columns sit half a hex
  lower is a per-map :class:`Stagger` (the printed maps: even columns lower,
  base-rules §17).
* **Direction 1 points up the map (row − 1); directions run clockwise**: 2 upper
  right, 3 lower right, 4 down, 5 lower left, 6 upper left.
* Internally a hex also has cube coordinates ``(x, y, z)`` with ``x + y + z = 0``:
  ``x`` is the column, ``z`` grows downwards. Cube vectors make distance,
  lines and arcs exact integer arithmetic.

A *hexspine* is a line from a hex centre through a corner; it runs along
hexsides. Such lines are where two hexes share the LOS path (16 step 2) and
where the Front/Side/Rear arcs of a vehicle meet (31.4).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any, NamedTuple

import attrs

from solo.core.errors import GeometryError

Direction = int
"""A hex direction, 1–6 (1 up the map, clockwise)."""

DIRECTIONS: tuple[Direction, ...] = (1, 2, 3, 4, 5, 6)

# Cube (x, y, z) step for each direction; index 0 unused.
_CUBE_STEPS: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0),
    (0, 1, -1),  # 1 up
    (1, 0, -1),  # 2 upper right
    (1, -1, 0),  # 3 lower right
    (0, -1, 1),  # 4 down
    (-1, 0, 1),  # 5 lower left
    (-1, 1, 0),  # 6 upper left
)

_HEX_ID = re.compile(r"^([0-9]{2})\.([0-9]{2})$")


class Stagger(enum.Enum):
    """Which columns of a map sit half a hex lower than their neighbours."""

    EVEN_LOW = "even_low"
    """Even columns are half a hex lower (the printed maps, base-rules §17)."""
    ODD_LOW = "odd_low"
    """Odd columns are half a hex lower."""


class _HexFields(NamedTuple):
    col: int
    row: int


class Hex(_HexFields):
    """A hex by column and row, labelled ``CC.RR`` (``Hex(15, 12)`` is ``15.12``).

    Columns and rows are 0–99. ``str(h)`` gives the label; :meth:`parse` reads
    it. An immutable tuple underneath, so hashing and comparison are as fast as
    the engine's hot paths need; order is column, then row. Raises
    :class:`GeometryError` outside 0–99.
    """

    __slots__ = ()

    def __new__(cls, col: int, row: int) -> Hex:
        if not (0 <= col <= 99 and 0 <= row <= 99):
            raise GeometryError(f"hex column and row must be 0-99, got {col}, {row}")
        return super().__new__(cls, col, row)

    @classmethod
    def parse(cls, label: str) -> Hex:
        """Read a ``CC.RR`` label (``"15.12"``). Raises :class:`GeometryError`."""
        if not isinstance(label, str):
            raise GeometryError(f"a hex id is a string like '15.12', got {label!r}")
        m = _HEX_ID.match(label.strip())
        if not m:
            raise GeometryError(f"bad hex id {label!r} (expected CC.RR, e.g. '15.12')")
        return cls(int(m.group(1)), int(m.group(2)))

    def __reduce__(self) -> tuple[Any, ...]:
        # Unpickled as the tuple it is, without a second range check (it was checked when
        # made): the parsed-data cache holds thousands of hexes (issue 10, start-up).
        return (tuple.__new__, (Hex, (self.col, self.row)))

    def __str__(self) -> str:
        return f"{self.col:02d}.{self.row:02d}"

    def __repr__(self) -> str:
        return f"Hex.parse({str(self)!r})"


def parse_hex(label: str) -> Hex:
    """Read a ``CC.RR`` label into a :class:`Hex`. Raises :class:`GeometryError`."""
    return Hex.parse(label)


def hex_name(h: Hex) -> str:
    """The ``CC.RR`` label of ``h``."""
    return str(h)


def check_direction(d: int) -> Direction:
    """Return ``d`` if it is a direction 1–6, else raise :class:`GeometryError`."""
    if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
        raise GeometryError(f"a direction is 1-6, got {d!r}")
    return d


# ---------------------------------------------------------------------------
# Cube coordinates


def to_cube(h: Hex, stagger: Stagger) -> tuple[int, int, int]:
    """Cube coordinates ``(x, y, z)`` of ``h`` (``x + y + z == 0``)."""
    c = h.col
    if stagger is Stagger.EVEN_LOW:
        z = h.row - (c + (c & 1)) // 2
    else:
        z = h.row - (c - (c & 1)) // 2
    return (c, -c - z, z)


def from_cube(x: int, z: int, stagger: Stagger) -> Hex:
    """The hex at cube ``(x, -x-z, z)``. Raises :class:`GeometryError` off the 00–99 grid."""
    if stagger is Stagger.EVEN_LOW:
        row = z + (x + (x & 1)) // 2
    else:
        row = z + (x - (x & 1)) // 2
    return Hex(x, row)


def _try_from_cube(x: int, z: int, stagger: Stagger) -> Hex | None:
    if not 0 <= x <= 99:
        return None
    row = z + ((x + (x & 1)) // 2 if stagger is Stagger.EVEN_LOW else (x - (x & 1)) // 2)
    if not 0 <= row <= 99:
        return None
    return Hex(x, row)


def neighbour(h: Hex, direction: Direction, stagger: Stagger) -> Hex | None:
    """The hex next to ``h`` in ``direction`` (1–6), or ``None`` off the 00–99 grid.

    Raises :class:`GeometryError` for a direction outside 1–6.
    """
    dx, _dy, dz = _CUBE_STEPS[check_direction(direction)]
    x, _y, z = to_cube(h, stagger)
    return _try_from_cube(x + dx, z + dz, stagger)


def neighbours(h: Hex, stagger: Stagger) -> Iterator[tuple[Direction, Hex]]:
    """``(direction, hex)`` for each of the six neighbours on the 00–99 grid, direction order."""
    for d in DIRECTIONS:
        n = neighbour(h, d, stagger)
        if n is not None:
            yield d, n


def cube_distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    """Hex distance between two cube coordinates."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def distance(a: Hex, b: Hex, stagger: Stagger) -> int:
    """Distance in hexes from ``a`` to ``b`` (0 for the same hex)."""
    return cube_distance(to_cube(a, stagger), to_cube(b, stagger))


def rotate(facing: Direction, steps: int) -> Direction:
    """``facing`` turned ``steps`` hexsides clockwise (negative: anticlockwise)."""
    return (check_direction(facing) - 1 + steps) % 6 + 1


def opposite(direction: Direction) -> Direction:
    """The direction pointing the other way (1 ↔ 4, 2 ↔ 5, 3 ↔ 6)."""
    return rotate(direction, 3)


def turn_steps(frm: Direction, to: Direction) -> int:
    """Hexside turns from ``frm`` to ``to`` by the shortest way: −2…3 (3 = 180°, either way)."""
    d = (check_direction(to) - check_direction(frm)) % 6
    return d - 6 if d > 3 else d


# ---------------------------------------------------------------------------
# Bearings: wedges between hexspines


def wedge_of_vector(v: tuple[int, int, int]) -> tuple[Direction, ...]:
    """The direction wedge(s) holding cube vector ``v``.

    The six hexspines from a hex centre cut the plane into six 60° wedges, one
    around each direction. A vector strictly inside a wedge gives one direction;
    a vector exactly on a hexspine gives the two directions either side of it,
    clockwise order (``(6, 1)`` for the spine between 6 and 1). Raises
    :class:`GeometryError` for the zero vector.
    """
    x, y, z = v
    if x == y == z == 0:
        raise GeometryError("no direction from a hex to itself")
    # Each wedge is one strict ordering of the cube coordinates.
    if y > x > z:
        return (1,)
    if x > y > z:
        return (2,)
    if x > z > y:
        return (3,)
    if z > x > y:
        return (4,)
    if z > y > x:
        return (5,)
    if y > z > x:
        return (6,)
    # On a hexspine: exactly two coordinates are equal.
    if x == z:
        return (6, 1) if y > x else (3, 4)
    if x == y:
        return (1, 2) if x > z else (4, 5)
    return (2, 3) if x > y else (5, 6)  # y == z


def wedge_directions(a: Hex, b: Hex, stagger: Stagger) -> tuple[Direction, ...]:
    """The direction(s) from ``a`` toward ``b``: one, or two when ``b`` lies on a hexspine.

    Raises :class:`GeometryError` if ``a == b``.
    """
    ca, cb = to_cube(a, stagger), to_cube(b, stagger)
    return wedge_of_vector((cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]))


def direction_to(a: Hex, b: Hex, stagger: Stagger) -> Direction | None:
    """The direction from ``a`` toward ``b`` (the 60° wedge that holds ``b``).

    For a neighbour this is the exact direction (``neighbour(a, d) == b``).
    Returns ``None`` when ``b`` lies exactly on a hexspine between two
    directions (see :func:`wedge_directions`). Raises :class:`GeometryError` if
    ``a == b``.
    """
    w = wedge_directions(a, b, stagger)
    return w[0] if len(w) == 1 else None


# ---------------------------------------------------------------------------
# Lines


LineStep = tuple[Hex, ...]
"""One step of a line: a single hex, or two hexes either side of a hexspine."""


def is_hexspine_vector(v: tuple[int, int, int]) -> bool:
    """Whether cube vector ``v`` runs along a hexspine (two coordinates equal, not zero)."""
    x, y, z = v
    return v != (0, 0, 0) and (x == y or z in (x, y))


@lru_cache(maxsize=65536)
def line_shape(v: tuple[int, int, int]) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """The cube offsets a centre-to-centre line along vector ``v`` passes through.

    Returns one tuple per step from the start (offset (0,0,0)) to the end
    (offset ``v``). A step holds one offset, or two when the line runs exactly
    along the hexside between them (a hexspine line). Where the line crosses a
    hexside exactly at a sample point it enters both hexes, and both appear, as
    separate steps, in the order the line meets them. Lines are translation
    invariant, so this shape is shared by every pair of hexes with the same
    cube difference.
    """
    n = max(abs(v[0]), abs(v[1]), abs(v[2]))
    if n == 0:
        return (((0, 0, 0),),)
    if is_hexspine_vector(v):
        # Perpendicular nudge: the two sides of the spine.
        perp = _spine_perpendicular(v)
        steps: list[tuple[tuple[int, int, int], ...]] = []
        for i in range(n + 1):
            p = (v[0] * i / n, v[1] * i / n, v[2] * i / n)
            h1 = _cube_round(p[0] + perp[0], p[1] + perp[1], p[2] + perp[2])
            h2 = _cube_round(p[0] - perp[0], p[1] - perp[1], p[2] - perp[2])
            steps.append((h1,) if h1 == h2 else tuple(sorted((h1, h2))))
        return tuple(steps)
    # Exact: a hex is on the line if the line passes through its interior for
    # some t in [0, 1]. In cube coordinates the point t*v lies inside the hex
    # centred on c when |(v_i - v_j) t - (c_i - c_j)| < 1 for each pair of axes,
    # which gives an open interval of t per pair. Candidates are the hexes the
    # sampled points round to and their neighbours (the line never strays more
    # than one hex from them). A corner the line passes through exactly is only
    # touched, so the third hex there has an empty interval and is left out.
    eps = 1e-7
    d = (v[0] / n * eps, v[1] / n * eps, v[2] / n * eps)
    candidates: dict[tuple[int, int, int], None] = {}
    for i in range(n + 1):
        p = (v[0] * i / n + d[0], v[1] * i / n + d[1], v[2] * i / n + d[2])
        c = _cube_round(*p)
        candidates[c] = None
        for dx, dy, dz in _CUBE_STEPS[1:]:
            candidates[(c[0] + dx, c[1] + dy, c[2] + dz)] = None
    # Interval ends as exact fractions num/den (den > 0), compared by cross-multiplying.
    pairs = [(v[i] - v[j], i, j) for i, j in ((0, 1), (1, 2), (2, 0))]
    spans: list[tuple[float, tuple[int, int, int]]] = []
    for c in candidates:
        lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
        empty = False
        for a, i, j in pairs:
            b = c[i] - c[j]
            if a == 0:
                if b:
                    empty = True
                    break
                continue
            if a > 0:
                e1_n, e2_n, den = b - 1, b + 1, a
            else:
                e1_n, e2_n, den = -(b + 1), -(b - 1), -a
            if e1_n * lo_d > lo_n * den:
                lo_n, lo_d = e1_n, den
            if e2_n * hi_d < hi_n * den:
                hi_n, hi_d = e2_n, den
            if lo_n * hi_d >= hi_n * lo_d:
                empty = True
                break
        if not empty:
            spans.append((lo_n / lo_d, c))
    spans.sort()
    return tuple((c,) for _lo, c in spans)


def _spine_perpendicular(v: tuple[int, int, int]) -> tuple[float, float, float]:
    # A small vector at right angles to a spine vector, in cube space.
    x, y, z = v
    eps = 1e-6
    if x == y:  # spine along (1, 1, -2): perpendicular is (1, -1, 0)
        return (eps, -eps, 0.0)
    if y == z:  # spine along (-2, 1, 1): perpendicular is (0, 1, -1)
        return (0.0, eps, -eps)
    return (eps, 0.0, -eps)  # x == z: spine along (1, -2, 1), perpendicular (1, 0, -1)


def _cube_round(fx: float, fy: float, fz: float) -> tuple[int, int, int]:
    rx, ry, rz = round(fx), round(fy), round(fz)
    dx, dy, dz = abs(rx - fx), abs(ry - fy), abs(rz - fz)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return (int(rx), int(ry), int(rz))


def line(a: Hex, b: Hex, stagger: Stagger) -> tuple[LineStep, ...]:
    """The centre-to-centre line from ``a`` to ``b``, as steps of hexes.

    The first step is ``(a,)`` and the last ``(b,)``. A step of two hexes (in
    column-then-row order) means
    the line runs exactly along the hexside between them (a hexspine); LOS
    treats such a pair as blocking only if both block (base-rules §16 step 2).
    Steps may contain hexes off the 00–99 grid only if the ends are near it;
    such hexes are left out.
    """
    ca, cb = to_cube(a, stagger), to_cube(b, stagger)
    v = (cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2])
    out: list[LineStep] = []
    for step in line_shape(v):
        hexes = tuple(
            sorted(
                h
                for h in (_try_from_cube(ca[0] + o[0], ca[2] + o[2], stagger) for o in step)
                if h is not None
            )
        )
        if hexes:
            out.append(hexes)
    return tuple(out)


def line_hexes(a: Hex, b: Hex, stagger: Stagger) -> tuple[Hex, ...]:
    """Every hex the line from ``a`` to ``b`` touches, in order (spine pairs flattened)."""
    return tuple(h for step in line(a, b, stagger) for h in step)


# ---------------------------------------------------------------------------
# Arcs (31.4)


class Arc(enum.Enum):
    """The aspect of a vehicle that fire from a hex strikes (31.4)."""

    FRONT = "front"
    SIDE = "side"
    REAR = "rear"


@attrs.frozen
class ArcModel:
    """Which of the six wedges around a facing are Front, Side and Rear.

    ``wedges[k]`` is the arc of the wedge ``k`` hexsides clockwise from the
    facing (``k`` = 0 is straight ahead, 3 straight behind). The house edition
    (:data:`HOUSE_ARCS`) has a 60° Front, two 120° Sides and a 60° Rear; it
    reproduces the 31.4 example (from a tank in 20.13 facing 6 or 5, fire from
    18.13 is a Side shot and from 22.13 a Rear shot, both along hexspines).
    A player can enter the printed layout here.
    """

    wedges: tuple[Arc, Arc, Arc, Arc, Arc, Arc]

    def __attrs_post_init__(self) -> None:
        if len(self.wedges) != 6:
            raise GeometryError("an arc model names the arc of all six wedges")


HOUSE_ARCS = ArcModel((Arc.FRONT, Arc.SIDE, Arc.SIDE, Arc.REAR, Arc.SIDE, Arc.SIDE))
"""House arcs: Front = the wedge ahead, Rear = the wedge behind, Side = the rest."""

_ARC_RANK = {Arc.FRONT: 0, Arc.SIDE: 1, Arc.REAR: 2}


def arc_of(unit: Hex, facing: Direction, target: Hex, stagger: Stagger, model: ArcModel = HOUSE_ARCS) -> Arc:
    """The arc of ``unit`` (facing ``facing``) that holds ``target``.

    Fire traced along a hexspine between two arcs takes the worse aspect for the
    vehicle: Side when through Front and Side, Rear when through Side and Rear
    (31.4). Raises :class:`GeometryError` if ``target == unit``.
    """
    check_direction(facing)
    arcs = [model.wedges[(d - facing) % 6] for d in wedge_directions(unit, target, stagger)]
    return max(arcs, key=_ARC_RANK.__getitem__)


def in_arcs(
    unit: Hex,
    facing: Direction,
    target: Hex,
    stagger: Stagger,
    arcs: frozenset[Arc] | tuple[Arc, ...],
    model: ArcModel = HOUSE_ARCS,
) -> bool:
    """Whether ``target`` lies in any of ``arcs`` of ``unit`` (a spine counts for both sides).

    Used for crew LOS arcs (31.7.1–31.7.3): a hex on the boundary of a visible
    arc is visible. The unit's own hex is always inside.
    """
    if target == unit:
        return True
    check_direction(facing)
    return any(model.wedges[(d - facing) % 6] in arcs for d in wedge_directions(unit, target, stagger))


def pixel_centre(h: Hex, stagger: Stagger, size: float = 1.0) -> tuple[float, float]:
    """Centre of ``h`` in screen units for flat-topped hexes of circumradius ``size``.

    ``x`` grows to the right, ``y`` downwards; hex 00.00 of an odd-low map is at (0, 0).
    """
    x, _y, z = to_cube(h, stagger)
    return (1.5 * size * x, 3**0.5 * size * (z + x / 2))
