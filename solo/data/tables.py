"""House-edition tables: order definitions, spotting and fire charts, weapons, checks and morale.

Four data files under ``cards/`` are loaded into frozen tables:

* ``orders.yaml`` → :class:`OrderTable` of :class:`Order` (base-rules §4, §6; C2 31.11.2);
* ``charts.yaml`` → :class:`Charts`, the spotting and fire charts and the spotting range
  modifier (base-rules §9, §10);
* ``weapons.yaml`` → :class:`WeaponTable` of :class:`Weapon` (base-rules §10; C2 26.0, 31.10.4);
* ``checks.yaml`` → :class:`Checks`, the Morale States and the MC/RC/WMC/TQC tables (base-rules §7).

Loaders (:func:`load_orders`, :func:`load_charts`, :func:`load_weapons`, :func:`load_checks`,
:func:`load_tables`) read the shipped file when given no path and raise one
:class:`~solo.core.errors.DataError` naming every problem with its file and line. The lookups the
engine calls on hot paths (:meth:`Weapon.band_modifier`, :meth:`Charts.spot_modifier`,
:meth:`Charts.fire_cell`, :meth:`Charts.spot_range_modifier`, :meth:`Order.track`,
:meth:`Order.slots`) index tables precomputed when the objects are built.

Conventions: Impulses are 1-4; ranges are in hexes; d10 faces are 0-9; spotting and fire
groups (S0-S6, G0-G6) are the integers 0-6; a morale step of +1 is one state better.
"""

from __future__ import annotations

import enum
import re
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

import attrs

from solo.core.catalog import Catalog
from solo.core.datafile import SNAKE_ID, DataFile, DocPath, Problems, check_unique, read_card_file, structure
from solo.core.dice import DiceExpression
from solo.core.errors import DataError, Problem
from solo.core.resources import cards_dir

IMPULSES: tuple[int, ...] = (1, 2, 3, 4)
"""The four Impulses of a turn."""

GROUP_COUNT = 7
"""Columns of the spotting (S0-S6) and fire (G0-G6) charts."""

RANGE_LIMIT = 1000
"""The longest range, in hexes, a band or a weapon may reach (lookup tables are this long)."""


class Source(enum.Enum):
    """Where a value comes from (base-rules §0 tags)."""

    RULEBOOK = "rulebook"
    RECONSTRUCTED = "reconstructed"
    HOUSE = "house"


# ---------------------------------------------------------------------------
# Range bands


_BAND_TOKEN = re.compile(r"^(\d+)(?:-(\d+))?:(NA|[+-]?\d+)$")


def format_modifier(modifier: int | None) -> str:
    """``+2``, ``0``, ``-4``, or ``NA`` for ``None`` (the band notation)."""
    if modifier is None:
        return "NA"
    return "0" if modifier == 0 else f"{modifier:+d}"


@attrs.frozen
class Band:
    """One range band: hexes ``first``-``last`` (inclusive) give ``modifier`` (``None`` = NA)."""

    first: int
    last: int
    modifier: int | None

    def __str__(self) -> str:
        span = str(self.first) if self.first == self.last else f"{self.first}-{self.last}"
        return f"{span}:{format_modifier(self.modifier)}"


def _band_problems(
    bands: tuple[Band, ...], *, start: int | None, end: int | None, allow_na: bool
) -> list[str]:
    out: list[str] = []
    if not bands:
        return ["no bands (expected e.g. '1:+2 2-3:+1 4-10:0')"]
    if max(b.last for b in bands) > RANGE_LIMIT:
        out.append(f"bands reach beyond {RANGE_LIMIT} hexes")
    if start is not None and bands[0].first != start:
        out.append(f"bands must start at {start} hex(es), the first band starts at {bands[0].first}")
    expected = bands[0].first
    for band in bands:
        if band.first > band.last:
            out.append(f"band '{band}' runs backwards")
        if band.first > expected:
            gap = str(expected) if band.first - 1 == expected else f"{expected}-{band.first - 1}"
            out.append(f"gap before band '{band}': hexes {gap} have no band")
        elif band.first < expected:
            out.append(f"band '{band}' overlaps the band before it (expected it to start at {expected})")
        if band.modifier is None and not allow_na:
            out.append(f"band '{band}': NA is not allowed here")
        expected = max(expected, band.last + 1)
    if end is not None and bands[-1].last != end:
        out.append(f"bands end at {bands[-1].last}, expected them to reach {end}")
    return out


@attrs.frozen
class Bands:
    """Contiguous range bands; :meth:`modifier` is a tuple lookup.

    Written ``"1:+2 2-3:+1 4-10:0 11-25:-2"`` (:meth:`parse` / ``str()``); ``NA`` marks a band
    in which the weapon cannot fire. Ranges outside the bands have no modifier (``None``).
    """

    bands: tuple[Band, ...]
    _table: tuple[int | None, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        problems = _band_problems(self.bands, start=None, end=None, allow_na=True)
        if problems:
            raise ValueError("; ".join(problems))
        table: list[int | None] = [None] * (self.bands[-1].last + 1)
        for band in self.bands:
            for r in range(band.first, band.last + 1):
                table[r] = band.modifier
        object.__setattr__(self, "_table", tuple(table))

    @classmethod
    def parse(
        cls, text: str, *, start: int | None = 1, end: int | None = None, allow_na: bool = True
    ) -> Bands:
        """Read ``"1:+2 2-3:+1 4-10:0"``.

        ``start``: the range the first band must begin at (``None``: any); ``end``: the range
        the last band must reach (``None``: any). Raises :class:`ValueError` naming every
        problem (malformed token, gap, overlap, wrong start or end, NA where not allowed).
        """
        problems: list[str] = []
        bands: list[Band] = []
        tokens = text.split()
        for token in tokens:
            m = _BAND_TOKEN.match(token)
            if not m:
                problems.append(
                    f"bad band {token!r} (expected 'first-last:modifier' or 'range:modifier', "
                    "e.g. '2-3:+1', '1:+2', '1-4:NA')"
                )
                continue
            first = int(m.group(1))
            last = int(m.group(2)) if m.group(2) is not None else first
            modifier = None if m.group(3) == "NA" else int(m.group(3))
            bands.append(Band(first, last, modifier))
        if not problems:
            problems.extend(_band_problems(tuple(bands), start=start, end=end, allow_na=allow_na))
        if problems:
            raise ValueError("; ".join(problems))
        return cls(tuple(bands))

    def __str__(self) -> str:
        return " ".join(str(b) for b in self.bands)

    @property
    def first(self) -> int:
        """The shortest range with a band."""
        return self.bands[0].first

    @property
    def last(self) -> int:
        """The longest range with a band."""
        return self.bands[-1].last

    def modifier(self, range_hexes: int) -> int | None:
        """The modifier at ``range_hexes``; ``None`` for NA or a range outside the bands."""
        table = self._table
        return table[range_hexes] if 0 <= range_hexes < len(table) else None


# ---------------------------------------------------------------------------
# Orders (base-rules §4, §6)


class OrderKind(enum.Enum):
    """Who takes an order."""

    CHARACTER = "character"
    """An infantry character (base-rules §4)."""
    VEHICLE = "vehicle"
    """A vehicle's Driver: a speed order (C2 31.11.2)."""
    CREW = "crew"
    """A vehicle crew member's order other than speed (C2 31.11.2: Spot, Load HE, Bail Out...)."""


class TrackStep(enum.Enum):
    """What an order allows in one Impulse (base-rules §4 track)."""

    NONE = "-"
    MAY_MOVE = "m"
    MOVE = "M"
    MOVE_2 = "M2"
    MOVE_3 = "M3"
    """Vehicle speeds only [house]."""
    MOVE_4 = "M4"
    """Vehicle speeds only [house]."""
    FIRE = "F"
    """One fire action, or one throw for a grenade order."""
    MELEE = "X"

    @property
    def hexes(self) -> int:
        """The most hexes (or vehicle movement points) this step moves."""
        return _STEP_HEXES[self]

    @property
    def must_move(self) -> bool:
        """True for ``M``, ``M2``.. (move orders must move, 7.0; vehicles too, C2 31.1)."""
        return self.hexes > 0 and self is not TrackStep.MAY_MOVE


_STEP_HEXES = {
    TrackStep.NONE: 0,
    TrackStep.MAY_MOVE: 1,
    TrackStep.MOVE: 1,
    TrackStep.MOVE_2: 2,
    TrackStep.MOVE_3: 3,
    TrackStep.MOVE_4: 4,
    TrackStep.FIRE: 0,
    TrackStep.MELEE: 0,
}


class Slot(enum.Enum):
    """A direction slot of the HOUSE RULE direction strings (base-rules §6): for ``X/Y``, A = X, B = Y."""

    A = "A"
    B = "B"


class OrderFlag(enum.Enum):
    """Special handling of an order's steps."""

    TARGET_KNOWN_AT_IMPULSE_START = "target_known_at_impulse_start"
    """Aimed Fire: the target must be Known at the start of the Impulse [rulebook]."""
    HITS_MORALE_ONLY = "hits_morale_only"
    """Suppressive Fire: a hit causes an MC only (base-rules §10)."""
    IGNORES_FIRE_CHART = "ignores_fire_chart"
    """Suppressive Fire: no fire-chart modifier (base-rules §10)."""
    MOVES_IF_NO_TARGET = "moves_if_no_target"
    """Run & Gun: an enemy with no target moves 1 hex on an F step (10.04); F steps hold a slot."""
    ROUGH_ENDS_IN_DUCK_BACK = "rough_ends_in_duck_back"
    """Sprint: entering Rough terrain gives Duck Back at the end of the Impulse (11.0)."""
    THROWS = "throws"
    """Grenade orders: the F step is a throw (§12)."""


CARD_CODES: tuple[str, ...] = ("AF", "RF", "SF", "RG", "SN", "EV", "SP", "RA", "HI")
"""Order codes printed on Enemy Order cards (base-rules §5.1)."""

REQUIRED_ORDER_IDS: tuple[str, ...] = (
    "aimed_fire", "rapid_fire", "suppressive_fire", "run_and_gun", "sneak", "evade", "sprint",
    "charge", "melee", "grenade", "smoke_grenade", "rifle_grenade", "carry_drag", "reload",
    "medical_aid", "search", "plan", "hide", "rally", "guard", "duck_back", "waiting",
    "crawl", "ahead_slow", "forward", "fast", "reverse", "emergency_stop",
)  # fmt: skip
"""Order ids the engine refers to; an orders file must define them all."""


def _check_impulse(impulse: int) -> int:
    if not isinstance(impulse, int) or not 1 <= impulse <= 4:
        raise ValueError(f"impulse must be 1-4, got {impulse!r}")
    return impulse - 1


@attrs.frozen
class Order:
    """An order definition (base-rules §4): what it allows each Impulse and how it shows.

    Use :meth:`track` and :meth:`slots` with Impulses 1-4.
    """

    id: str
    code: str | None
    """Enemy Order card code (``"RF"``), or ``None`` if no card row names the order."""
    name: str
    kind: OrderKind
    steps: tuple[TrackStep, ...]
    """The track, Impulse 1 first (4 steps)."""
    direction_slots: tuple[tuple[Slot, ...], ...]
    """Per Impulse (Impulse 1 first), one direction slot per hex moved (base-rules §6)."""
    ws_modifier: int | None
    """WS modifier of the order's fire; ``None`` = no fire. For a vehicle speed: all fire
    from the vehicle (C2 31.11.2)."""
    melee_tq_modifier: int
    """Added to melee TQ on the order's X steps (Charge +1, 10.08)."""
    spot_group: int | None
    """Spotting chart column S0-S6 when this man is the target; ``None`` for vehicle orders."""
    fire_group: int | None
    """Fire chart column G0-G6 when this man is the target; ``None`` for vehicle orders."""
    low: bool
    """A low order for LOS (base-rules §4, §16)."""
    flags: tuple[OrderFlag, ...]
    source: Source
    rule: str
    notes: str

    def track(self, impulse: int) -> TrackStep:
        """The track step on ``impulse`` (1-4). Raises :class:`ValueError` for another Impulse."""
        return self.steps[_check_impulse(impulse)]

    def slots(self, impulse: int) -> tuple[Slot, ...]:
        """The direction slots on ``impulse`` (1-4), one per hex (base-rules §6 HOUSE RULE).

        Raises :class:`ValueError` for another Impulse.
        """
        return self.direction_slots[_check_impulse(impulse)]

    @property
    def hexes(self) -> int:
        """The most hexes the track moves in a turn (base-rules §4 "Hexes"; 10.04 moves excluded)."""
        return sum(step.hexes for step in self.steps)

    @property
    def can_fire(self) -> bool:
        """True if the order gives fire actions (its WS column is not "-")."""
        return self.ws_modifier is not None

    @property
    def is_vehicle(self) -> bool:
        """True for a Driver's speed order."""
        return self.kind is OrderKind.VEHICLE

    def has_flag(self, flag: OrderFlag) -> bool:
        """True if the order carries ``flag``."""
        return flag in self.flags


@attrs.frozen
class OrderTable(Catalog):
    """All order definitions, by id (:meth:`get`, ``in``, iteration) and by Enemy card code."""

    _ITEMS: ClassVar[str] = "orders"
    _WHAT: ClassVar[str] = "order"

    orders: tuple[Order, ...]
    _by_id: dict[str, Order] = attrs.field(init=False, eq=False, repr=False)
    _by_code: dict[str, Order] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {o.id: o for o in self.orders})
        object.__setattr__(self, "_by_code", {o.code: o for o in self.orders if o.code})

    def by_code(self, code: str) -> Order:
        """The order an Enemy card code (``"RF"``) stands for. Raises :class:`KeyError`."""
        try:
            return self._by_code[code]
        except KeyError:
            raise KeyError(f"unknown order code {code!r}") from None


@attrs.frozen
class OrderEntry:
    """One entry of ``orders.yaml`` as written (see the file's header)."""

    id: str
    name: str
    kind: OrderKind
    track: str
    ws_modifier: int | None
    spot_group: int | None
    fire_group: int | None
    source: Source
    rule: str
    code: str | None = None
    slots: tuple[tuple[Slot, ...], ...] = ((), (), (), ())
    melee_tq_modifier: int = 0
    low: bool = False
    flags: tuple[OrderFlag, ...] = ()
    notes: str = ""


@attrs.frozen
class OrdersFile:
    """``orders.yaml`` as written."""

    orders: tuple[OrderEntry, ...]


def _parse_track(text: str) -> tuple[tuple[TrackStep, ...], list[str]]:
    tokens = text.split()
    steps: list[TrackStep] = []
    problems: list[str] = []
    for token in tokens:
        try:
            steps.append(TrackStep(token))
        except ValueError:
            options = " ".join(s.value for s in TrackStep)
            problems.append(f"bad track step {token!r} (expected one of: {options})")
    if len(tokens) != 4:
        problems.append(f"a track has exactly 4 Impulses, got {len(tokens)} in {text!r}")
    return tuple(steps), problems


def _slot_count_problem(step: TrackStep, count: int, *, fallback: bool) -> str | None:
    if step is TrackStep.MAY_MOVE:
        ok, expected = count <= 1, "0 or 1 slot (m may move 1 hex)"
    elif step is TrackStep.FIRE and fallback:
        ok, expected = count == 1, "1 slot (moves_if_no_target, 10.04)"
    elif step.hexes:
        ok, expected = count == step.hexes, f"{step.hexes} slot(s), one per hex"
    else:
        ok, expected = count == 0, "no slots (the step does not move)"
    if ok:
        return None
    return f"track step {step.value!r} has {count} direction slot(s), expected {expected}"


def _entry_order(doc: DataFile, probs: Problems, i: int, e: OrderEntry) -> Order | None:
    at: DocPath = ("orders", i)
    before = len(probs.items)
    if not SNAKE_ID.match(e.id):
        probs.add(doc, (*at, "id"), f"order id {e.id!r} must be snake_case")
    if e.code is not None and e.code not in CARD_CODES:
        probs.add(
            doc,
            (*at, "code"),
            f"unknown card code {e.code!r} (expected one of: {', '.join(CARD_CODES)}, or null)",
        )
    steps, track_problems = _parse_track(e.track)
    for message in track_problems:
        probs.add(doc, (*at, "track"), message)
    if len(set(e.flags)) != len(e.flags):
        probs.add(doc, (*at, "flags"), "a flag is listed twice")
    fallback = OrderFlag.MOVES_IF_NO_TARGET in e.flags
    if len(e.slots) != 4:
        probs.add(doc, (*at, "slots"), f"slots has exactly 4 Impulses, got {len(e.slots)}")
    elif len(steps) == 4:
        for k, (step, slots) in enumerate(zip(steps, e.slots, strict=True)):
            problem = _slot_count_problem(step, len(slots), fallback=fallback)
            if problem:
                probs.add(doc, (*at, "slots", k), f"Impulse {k + 1}: {problem}")
    vehicle = e.kind is OrderKind.VEHICLE
    crew = e.kind is OrderKind.CREW
    if crew and e.code is not None:
        probs.add(doc, (*at, "code"), "a crew order has no card code (crews use the VOM, C2 31.11.3)")
    for field, group in (("spot_group", e.spot_group), ("fire_group", e.fire_group)):
        if group is None and not vehicle and not crew:
            probs.add(doc, (*at, field), f"{field} is required for a character order (0-6)")
        elif group is not None and not 0 <= group < GROUP_COUNT:
            probs.add(doc, (*at, field), f"{field} {group} outside 0-6")
        elif group is not None and vehicle:
            probs.add(doc, (*at, field), f"{field} must be null for a vehicle order (C2 31.7)")
    if vehicle:
        if e.code is not None:
            probs.add(doc, (*at, "code"), "a vehicle order has no card code")
        if e.low:
            probs.add(doc, (*at, "low"), "a vehicle order cannot be low")
        bad = [s.value for s in steps if s in (TrackStep.MAY_MOVE, TrackStep.FIRE, TrackStep.MELEE)]
        if bad:
            probs.add(
                doc,
                (*at, "track"),
                f"vehicle order track holds {', '.join(bad)} (expected '-' or M, M2, M3, M4)",
            )
    elif any(s in (TrackStep.MOVE_3, TrackStep.MOVE_4) for s in steps):
        probs.add(doc, (*at, "track"), "M3 and M4 are for vehicle orders only")
    if TrackStep.FIRE in steps and e.ws_modifier is None and OrderFlag.THROWS not in e.flags:
        probs.add(
            doc,
            (*at, "ws_modifier"),
            "the track has F but ws_modifier is null (give a WS modifier, or flag throws)",
        )
    if OrderFlag.THROWS in e.flags and TrackStep.FIRE not in steps:
        probs.add(doc, (*at, "flags"), "flag throws needs an F step")
    if fallback and TrackStep.FIRE not in steps:
        probs.add(doc, (*at, "flags"), "flag moves_if_no_target needs an F step")
    if e.melee_tq_modifier and TrackStep.MELEE not in steps:
        probs.add(doc, (*at, "melee_tq_modifier"), "melee_tq_modifier needs an X step")
    if len(probs.items) != before:
        return None
    return Order(
        id=e.id,
        code=e.code,
        name=e.name,
        kind=e.kind,
        steps=steps,
        direction_slots=e.slots,
        ws_modifier=e.ws_modifier,
        melee_tq_modifier=e.melee_tq_modifier,
        spot_group=e.spot_group,
        fire_group=e.fire_group,
        low=e.low,
        flags=e.flags,
        source=e.source,
        rule=e.rule,
        notes=e.notes,
    )


def orders_from(doc: DataFile) -> OrderTable:
    """Build the :class:`OrderTable` from a read ``orders.yaml``.

    Checks (base-rules §4, §6): snake_case unique ids; known unique card codes, all present;
    exactly 4 Impulses in ``track`` and ``slots``; slot counts match the track (M = 1,
    M2 = 2, m at most 1, none where it does not move); groups 0-6; every id of
    :data:`REQUIRED_ORDER_IDS`. Raises :class:`DataError` listing every problem.
    """
    raw = structure(doc, OrdersFile)
    probs = Problems()
    orders: list[Order] = []
    first_id = check_unique(
        probs,
        doc,
        [(("orders", i, "id"), e.id) for i, e in enumerate(raw.orders)],
        "duplicate order id {id!r} (first in entry {number})",
    )
    first_code = check_unique(
        probs,
        doc,
        [(("orders", i, "code"), e.code) for i, e in enumerate(raw.orders)],
        "duplicate card code {id!r} (first in entry {number})",
    )
    for i, e in enumerate(raw.orders):
        order = _entry_order(doc, probs, i, e)
        if order is not None:
            orders.append(order)
    missing_codes = [c for c in CARD_CODES if c not in first_code]
    if missing_codes:
        probs.add(doc, ("orders",), f"no order has card code(s) {', '.join(missing_codes)}", at_key=True)
    missing = [i for i in REQUIRED_ORDER_IDS if i not in first_id]
    if missing:
        probs.add(doc, ("orders",), f"missing order(s): {', '.join(missing)}", at_key=True)
    probs.raise_if_any()
    return OrderTable(tuple(orders))


# ---------------------------------------------------------------------------
# Spotting and fire charts (base-rules §9, §10)


class ChartRow(enum.StrEnum):
    """A line of the spotting and fire charts; terrain types name theirs with ``chart_row``."""

    OPEN = "open"
    ROCKS = "rocks"
    RUBBLE = "rubble"
    BUILDING = "building"
    FORTIFIED_BUILDING = "fortified_building"
    MARSH = "marsh"
    WALL = "wall"
    BOCAGE = "bocage"
    TREES = "trees"
    HEDGE = "hedge"
    LONG_GRASS = "long_grass"
    LOGS = "logs"
    DEPRESSION = "depression"
    STREAM = "stream"
    CRATER = "crater"
    FOXHOLE = "foxhole"
    TRENCH = "trench"
    ORCHARD = "orchard"
    FIELD = "field"
    FOUNTAIN = "fountain"
    ABBEY_OUTSIDE = "abbey_outside"
    """C2 27.5: the spotter or firer is outside the Abbey."""
    ABBEY_INSIDE = "abbey_inside"
    """C2 27.5: the spotter or firer is inside the Abbey."""
    HATCH = "hatch"
    """A crew member at an open hatch (C2 31.8); Open line [house]."""
    WITH_AFV = "with_afv"
    """A man in a hex with an AFV; Open line [house]."""


class FireCell(NamedTuple):
    """A fire chart cell: the WS modifier and whether a hit causes only an MC ("(M)", §10)."""

    modifier: int
    morale_only: bool

    def __str__(self) -> str:
        return f"{self.modifier}{'M' if self.morale_only else ''}"


_FIRE_CELL = re.compile(r"^([+-]?\d+)M$")


def parse_fire_cell(value: Any) -> FireCell:
    """Read a fire chart cell: an integer, or a string like ``"-5M"`` for an (M) cell.

    Raises :class:`ValueError`.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return FireCell(value, False)
    if isinstance(value, str):
        m = _FIRE_CELL.match(value.strip())
        if m:
            return FireCell(int(m.group(1)), True)
    raise ValueError(
        f"bad fire cell {value!r} (expected an integer, or an integer then M for a "
        "morale-only cell, e.g. -5M)"
    )


def _check_group(group: int) -> int:
    if not isinstance(group, int) or not 0 <= group < GROUP_COUNT:
        raise ValueError(f"group must be 0-6, got {group!r}")
    return group


@attrs.frozen
class SpotRange:
    """The spotting range modifier (base-rules §9): bands, then ``beyond_modifier`` more per
    further ``beyond_every`` hexes."""

    bands: Bands
    beyond_every: int
    beyond_modifier: int

    def modifier(self, range_hexes: int) -> int:
        """The modifier at ``range_hexes`` (0 or more). Raises :class:`ValueError` if negative."""
        if range_hexes < 0:
            raise ValueError(f"range must be 0 or more hexes, got {range_hexes}")
        inside = self.bands.modifier(range_hexes)
        if inside is not None:
            return inside
        last = self.bands.last
        base = self.bands.modifier(last)
        assert base is not None
        further = -(-(range_hexes - last) // self.beyond_every)
        return base + further * self.beyond_modifier


@attrs.frozen
class SpotLine:
    """A spotting chart line: the modifiers for S0-S6."""

    row: ChartRow
    cells: tuple[int, ...]


@attrs.frozen
class FireLine:
    """A fire chart line: the cells for G0-G6."""

    row: ChartRow
    cells: tuple[FireCell, ...]


@attrs.frozen
class Charts:
    """The spotting and fire charts (target terrain × group) and the spotting range modifier."""

    spotting: tuple[SpotLine, ...]
    fire: tuple[FireLine, ...]
    spot_range: SpotRange
    _spot: dict[str, tuple[int, ...]] = attrs.field(init=False, eq=False, repr=False)
    _fire: dict[str, tuple[FireCell, ...]] = attrs.field(init=False, eq=False, repr=False)
    _range: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_spot", {str(line.row): line.cells for line in self.spotting})
        object.__setattr__(self, "_fire", {str(line.row): line.cells for line in self.fire})
        # Precompute the range modifier to 100 hexes; beyond that it is computed.
        object.__setattr__(self, "_range", tuple(self.spot_range.modifier(r) for r in range(101)))

    def row_ids(self) -> tuple[str, ...]:
        """The chart-row ids charted in both charts (every :class:`ChartRow` once loaded)."""
        return tuple(str(line.row) for line in self.spotting if str(line.row) in self._fire)

    def spot_modifier(self, row: ChartRow | str, group: int) -> int:
        """Spotting chart modifier for a target in ``row`` with spot group ``group`` (S0-S6 = 0-6).

        base-rules §9. Raises :class:`KeyError` for an unknown row, :class:`ValueError` for a
        group outside 0-6.
        """
        return self._spot[row][_check_group(group)]

    def fire_cell(self, row: ChartRow | str, group: int) -> FireCell:
        """Fire chart cell ``(modifier, morale_only)`` for a target in ``row``, group G0-G6 = 0-6.

        base-rules §10. Raises :class:`KeyError` for an unknown row, :class:`ValueError` for a
        group outside 0-6.
        """
        return self._fire[row][_check_group(group)]

    def spot_range_modifier(self, range_hexes: int) -> int:
        """Spotting range modifier at ``range_hexes`` (base-rules §9: 0-1 +2 ... 21-30 -2, -1 per
        further 10). Raises :class:`ValueError` for a negative range."""
        table = self._range
        if 0 <= range_hexes < len(table):
            return table[range_hexes]
        return self.spot_range.modifier(range_hexes)


@attrs.frozen
class SpotRangeEntry:
    """``spot_range`` of ``charts.yaml`` as written."""

    bands: str
    beyond_every: int
    beyond_modifier: int


@attrs.frozen
class ChartsFile:
    """``charts.yaml`` as written."""

    spot_range: SpotRangeEntry
    spotting: dict[str, list[int]]
    fire: dict[str, list[Any]]


def _chart_lines(
    doc: DataFile, probs: Problems, section: str, rows: dict[str, list[Any]], parse: Any
) -> list[tuple[ChartRow, tuple[Any, ...]]]:
    lines: list[tuple[ChartRow, tuple[Any, ...]]] = []
    known = {r.value for r in ChartRow}
    for key, cells in rows.items():
        if key not in known:
            probs.add(
                doc,
                (section, key),
                f"unknown chart row {key!r} (expected one of: {', '.join(r.value for r in ChartRow)})",
                at_key=True,
            )
            continue
        if len(cells) != GROUP_COUNT:
            probs.add(
                doc,
                (section, key),
                f"row {key!r} has {len(cells)} columns, expected {GROUP_COUNT} (groups 0-6)",
            )
            continue
        parsed: list[Any] = []
        for k, cell in enumerate(cells):
            try:
                parsed.append(parse(cell))
            except ValueError as exc:
                probs.add(doc, (section, key, k), str(exc))
        if len(parsed) == GROUP_COUNT:
            lines.append((ChartRow(key), tuple(parsed)))
    missing = [r.value for r in ChartRow if r.value not in rows]
    if missing:
        probs.add(doc, (section,), f"missing chart row(s): {', '.join(missing)}", at_key=True)
    return lines


def charts_from(doc: DataFile) -> Charts:
    """Build :class:`Charts` from a read ``charts.yaml``.

    Checks: every :class:`ChartRow` present once in each chart, nothing else; 7 columns per
    row; fire cells an integer or ``"<n>M"``; spotting range bands from 0 without gaps,
    overlaps or NA; ``beyond_every`` at least 1. Raises :class:`DataError` listing every
    problem (base-rules §9, §10).
    """
    raw = structure(doc, ChartsFile)
    probs = Problems()
    spot_range: SpotRange | None = None
    try:
        bands = Bands.parse(raw.spot_range.bands, start=0, allow_na=False)
    except ValueError as exc:
        probs.add(doc, ("spot_range", "bands"), str(exc))
    else:
        if raw.spot_range.beyond_every < 1:
            probs.add(doc, ("spot_range", "beyond_every"), "beyond_every must be at least 1")
        else:
            spot_range = SpotRange(bands, raw.spot_range.beyond_every, raw.spot_range.beyond_modifier)

    def spot_cell(value: int) -> int:
        return value

    spotting = _chart_lines(doc, probs, "spotting", raw.spotting, spot_cell)
    fire = _chart_lines(doc, probs, "fire", raw.fire, parse_fire_cell)
    probs.raise_if_any()
    assert spot_range is not None
    return Charts(
        spotting=tuple(SpotLine(row, cells) for row, cells in spotting),
        fire=tuple(FireLine(row, cells) for row, cells in fire),
        spot_range=spot_range,
    )


# ---------------------------------------------------------------------------
# Weapons (base-rules §10; C2 26.0, 31.10.4, 32)


class Nation(enum.Enum):
    """Whose weapon it is (informative)."""

    US = "us"
    GERMAN = "german"


class WeaponKind(enum.Enum):
    """What sort of weapon it is."""

    RIFLE = "rifle"
    SMG = "smg"
    PISTOL = "pistol"
    MG = "mg"
    KNIFE = "knife"
    GRENADE = "grenade"
    SMOKE_GRENADE = "smoke_grenade"
    RIFLE_GRENADE = "rifle_grenade"
    LIGHT_AT = "light_at"
    MAIN_GUN = "main_gun"

    @property
    def is_small_arms(self) -> bool:
        """Pistols, SMGs, rifles and MGs (C2 31.8: may fire at open hatches)."""
        return self in (WeaponKind.RIFLE, WeaponKind.SMG, WeaponKind.PISTOL, WeaponKind.MG)


_THROWN = (WeaponKind.GRENADE, WeaponKind.SMOKE_GRENADE)


class WeaponFlag(enum.Enum):
    """Weapon flags of the weapons chart."""

    HEAVY = "heavy"
    """No Sprint (base-rules §4; C2 32.3)."""
    VERY_HEAVY = "very_heavy"
    """No Sprint or Run & Gun (base-rules §4; C2 32.3)."""
    BELT = "belt"
    """Belt-fed MG: assistant rule 14.3."""
    SLOW = "slow"
    """Forbids Rapid Fire to Friendly characters (§20 Q9)."""
    PISTOL = "pistol"
    """Never loses ammo."""
    AT = "at"
    """Light anti-tank weapon (C2 32)."""
    ONE_SHOT = "one_shot"
    """Discarded after one shot (Panzerfaust)."""
    NO_AMMO = "no_ammo"
    """Has no ammunition state (knife)."""


class AmmoKind(enum.Enum):
    """Kind of round, for penetration and damage tables (C2 31.10)."""

    HE = "he"
    AP = "ap"
    HEAT = "heat"
    SMALL_ARMS = "small_arms"


@attrs.frozen
class RofBeyond:
    """ROF ``rof`` beyond ``range`` hexes (StG 44: 1 beyond 13, C2 26.0)."""

    range: int
    rof: int


@attrs.frozen
class WeaponScope:
    """``modifier`` added to Aimed Fire beyond ``beyond`` hexes (M1903: +1 beyond 3, C2 26.0)."""

    beyond: int
    modifier: int


@attrs.frozen
class GrenadeBlast:
    """The §12 explosion: Near ``near_dice`` at Frag ``near_frag``, Far ``far_dice`` at ``far_frag``."""

    near_dice: int
    near_frag: int
    far_dice: int
    far_frag: int


@attrs.frozen
class AmmoProfile:
    """One kind of round: penetration dice (C2 31.10.4) and, for HE, Blast and Frag (C2 31.9.4 d)."""

    kind: AmmoKind
    penetration: DiceExpression
    """Penetration dice (``5+1d6``), read by :class:`solo.core.dice.DiceExpression`."""
    blast: int | None
    frag: int | None


@attrs.frozen
class Weapon:
    """A weapon of the weapons chart (base-rules §10): range, ROF, flags, bands, ammunition."""

    id: str
    name: str
    nation: Nation | None
    kind: WeaponKind
    max_range: int
    """No fire beyond this many hexes."""
    rof: int | None
    """Attacks per fire action; ``None`` for thrown weapons (§12)."""
    rof_beyond: RofBeyond | None
    flags: tuple[WeaponFlag, ...]
    bands: Bands | None
    """Range bands from 1 to ``max_range``; ``None`` = no range modifier."""
    ws_from_tq: bool
    """The WS is the firer's TQ (thrown knife, C2 24.1)."""
    scope: WeaponScope | None
    grenade: GrenadeBlast | None
    ammo: tuple[AmmoProfile, ...]
    source: Source
    rule: str
    notes: str
    _band_table: tuple[int | None, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if not 1 <= self.max_range <= RANGE_LIMIT:
            raise ValueError(f"max_range {self.max_range} outside 1-{RANGE_LIMIT}")
        if self.bands is None:
            table: tuple[int | None, ...] = (None,) + (0,) * self.max_range
        else:
            if self.bands.first != 1 or self.bands.last != self.max_range:
                raise ValueError(f"bands must run from 1 to max_range {self.max_range}")
            table = tuple(self.bands.modifier(r) for r in range(self.max_range + 1))
        object.__setattr__(self, "_band_table", table)

    def band_modifier(self, range_hexes: int) -> int | None:
        """The range-band WS modifier at ``range_hexes`` (base-rules §10 row 1).

        ``None`` means the weapon cannot fire there: an NA band, range 0, or beyond max range.
        """
        table = self._band_table
        return table[range_hexes] if 0 <= range_hexes < len(table) else None

    def in_range(self, range_hexes: int) -> bool:
        """True if the weapon may fire at ``range_hexes`` (within max range, not NA)."""
        return self.band_modifier(range_hexes) is not None

    def rof_at(self, range_hexes: int) -> int | None:
        """ROF at ``range_hexes`` (StG 44: 3 to 13 hexes, 1 beyond, C2 26.0); ``None`` if thrown."""
        if self.rof_beyond is not None and range_hexes > self.rof_beyond.range:
            return self.rof_beyond.rof
        return self.rof

    def aimed_modifier(self, range_hexes: int) -> int:
        """Scope bonus to Aimed Fire at ``range_hexes`` (M1903 +1 beyond 3, C2 26.0), else 0."""
        if self.scope is not None and range_hexes > self.scope.beyond:
            return self.scope.modifier
        return 0

    def has_flag(self, flag: WeaponFlag) -> bool:
        """True if the weapon carries ``flag``."""
        return flag in self.flags

    def ammo_of(self, kind: AmmoKind) -> AmmoProfile:
        """The round of ``kind``. Raises :class:`KeyError` if the weapon has none."""
        for ammo in self.ammo:
            if ammo.kind is kind:
                return ammo
        raise KeyError(f"{self.id} has no {kind.value} ammunition")


@attrs.frozen
class WeaponTable(Catalog):
    """All weapons, by id (:meth:`get`, ``in``, iteration in file order)."""

    _ITEMS: ClassVar[str] = "weapons"
    _WHAT: ClassVar[str] = "weapon"

    weapons: tuple[Weapon, ...]
    _by_id: dict[str, Weapon] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {w.id: w for w in self.weapons})


@attrs.frozen
class AmmoEntry:
    """One round of ``ammo`` in ``weapons.yaml`` as written."""

    pen: str
    blast: int | None = None
    frag: int | None = None


@attrs.frozen
class WeaponEntry:
    """One entry of ``weapons.yaml`` as written (see the file's header)."""

    id: str
    name: str
    kind: WeaponKind
    max_range: int
    rof: int | None
    bands: str | None
    source: Source
    nation: Nation | None = None
    rof_beyond: RofBeyond | None = None
    flags: tuple[WeaponFlag, ...] = ()
    ws_from_tq: bool = False
    scope: WeaponScope | None = None
    grenade: GrenadeBlast | None = None
    ammo: dict[str, AmmoEntry] = attrs.field(factory=dict)
    rule: str = ""
    notes: str = ""


@attrs.frozen
class WeaponsFile:
    """``weapons.yaml`` as written."""

    weapons: tuple[WeaponEntry, ...]


def _entry_weapon(doc: DataFile, probs: Problems, i: int, e: WeaponEntry) -> Weapon | None:
    at: DocPath = ("weapons", i)
    before = len(probs.items)
    if not SNAKE_ID.match(e.id):
        probs.add(doc, (*at, "id"), f"weapon id {e.id!r} must be snake_case")
    if not 1 <= e.max_range <= RANGE_LIMIT:
        probs.add(doc, (*at, "max_range"), f"max_range {e.max_range} outside 1-{RANGE_LIMIT}")
    thrown = e.kind in _THROWN
    if e.rof is None and not thrown:
        probs.add(doc, (*at, "rof"), "rof is required (at least 1) except for thrown weapons")
    elif e.rof is not None and e.rof < 1:
        probs.add(doc, (*at, "rof"), f"rof must be at least 1, got {e.rof}")
    if e.rof_beyond is not None:
        if e.rof is None:
            probs.add(doc, (*at, "rof_beyond"), "rof_beyond needs a rof")
        if not 1 <= e.rof_beyond.range < e.max_range:
            probs.add(
                doc,
                (*at, "rof_beyond", "range"),
                f"rof_beyond range must be 1 to max_range - 1 ({e.max_range - 1})",
            )
        if e.rof_beyond.rof < 1:
            probs.add(doc, (*at, "rof_beyond", "rof"), "rof_beyond rof must be at least 1")
    if len(set(e.flags)) != len(e.flags):
        probs.add(doc, (*at, "flags"), "a flag is listed twice")
    if (WeaponFlag.PISTOL in e.flags) != (e.kind is WeaponKind.PISTOL):
        probs.add(doc, (*at, "flags"), "flag pistol goes with kind pistol, and only with it")
    bands: Bands | None = None
    if e.bands is None:
        if not thrown:
            probs.add(doc, (*at, "bands"), "bands are required except for thrown weapons")
    elif 1 <= e.max_range <= RANGE_LIMIT:
        try:
            bands = Bands.parse(e.bands, start=1, end=e.max_range)
        except ValueError as exc:
            probs.add(doc, (*at, "bands"), str(exc))
    if e.ws_from_tq and e.bands is None:
        probs.add(doc, (*at, "ws_from_tq"), "ws_from_tq needs bands (WS = TQ + band)")
    if e.scope is not None and not 0 <= e.scope.beyond < e.max_range:
        probs.add(doc, (*at, "scope", "beyond"), "scope beyond must be 0 to max_range - 1")
    if e.grenade is not None:
        g = e.grenade
        if min(g.near_dice, g.far_dice) < 0 or min(g.near_frag, g.far_frag) < 0:
            probs.add(doc, (*at, "grenade"), "grenade dice and frag values cannot be negative")
    ammo: list[AmmoProfile] = []
    for key, entry in e.ammo.items():
        where = (*at, "ammo", key)
        try:
            kind = AmmoKind(key)
        except ValueError:
            probs.add(
                doc,
                where,
                f"unknown ammunition {key!r} (expected one of: {', '.join(k.value for k in AmmoKind)})",
                at_key=True,
            )
            continue
        try:
            pen = DiceExpression.parse(entry.pen)
        except ValueError as exc:
            probs.add(doc, (*where, "pen"), str(exc))
            continue
        he = kind is AmmoKind.HE
        if he and (entry.blast is None or entry.frag is None):
            probs.add(doc, where, "HE needs blast and frag (C2 31.9.4 d)")
        elif not he and (entry.blast is not None or entry.frag is not None):
            probs.add(doc, where, f"{kind.value} has no blast or frag (only HE)")
        elif he and (entry.blast < 0 or entry.frag < 0):  # type: ignore[operator]
            probs.add(doc, where, "blast and frag cannot be negative")
        ammo.append(AmmoProfile(kind, pen, entry.blast, entry.frag))
    if len(probs.items) != before:
        return None
    return Weapon(
        id=e.id,
        name=e.name,
        nation=e.nation,
        kind=e.kind,
        max_range=e.max_range,
        rof=e.rof,
        rof_beyond=e.rof_beyond,
        flags=e.flags,
        bands=bands,
        ws_from_tq=e.ws_from_tq,
        scope=e.scope,
        grenade=e.grenade,
        ammo=tuple(ammo),
        source=e.source,
        rule=e.rule,
        notes=e.notes,
    )


def weapons_from(doc: DataFile) -> WeaponTable:
    """Build the :class:`WeaponTable` from a read ``weapons.yaml``.

    Checks: snake_case unique ids; max range and ROF at least 1; bands contiguous from 1 to
    max range (no gaps or overlaps; NA allowed); penetration dice like ``5+1d6``; HE with
    Blast and Frag. Raises :class:`DataError` listing every problem (base-rules §10).
    """
    raw = structure(doc, WeaponsFile)
    probs = Problems()
    weapons: list[Weapon] = []
    check_unique(
        probs,
        doc,
        [(("weapons", i, "id"), e.id) for i, e in enumerate(raw.weapons)],
        "duplicate weapon id {id!r} (first in entry {number})",
    )
    for i, e in enumerate(raw.weapons):
        weapon = _entry_weapon(doc, probs, i, e)
        if weapon is not None:
            weapons.append(weapon)
    probs.raise_if_any()
    return WeaponTable(tuple(weapons))


# ---------------------------------------------------------------------------
# Morale and checks (base-rules §7)


class MoraleState(enum.Enum):
    """The seven Morale States, best first (base-rules §7)."""

    BERSERK = "berserk"
    AGGRESSIVE = "aggressive"
    BOLD = "bold"
    NORMAL = "normal"
    CAUTIOUS = "cautious"
    SHAKEN = "shaken"
    ROUT = "rout"

    @property
    def rank(self) -> int:
        """0 for Berserk (best) to 6 for Rout (worst)."""
        return _MORALE_RANK[self]


MORALE_ORDER: tuple[MoraleState, ...] = tuple(MoraleState)
"""Morale States best first."""
_MORALE_RANK = {state: i for i, state in enumerate(MORALE_ORDER)}


def step_morale(state: MoraleState, steps: int, *, cap: MoraleState | None = None) -> MoraleState:
    """``state`` moved ``steps`` states (+ better, - worse), within Berserk..Rout.

    A gain stops at ``cap`` (None: Berserk) and never worsens a state already better than
    the cap; a loss stops at Rout (base-rules §7 gain caps).
    """
    rank = state.rank
    if steps > 0:
        best = cap.rank if cap is not None else 0
        if rank <= best:
            return state
        return MORALE_ORDER[max(best, rank - steps)]
    return MORALE_ORDER[min(len(MORALE_ORDER) - 1, rank - steps)]


class CardString(enum.Enum):
    """Which direction string of an Enemy Order card a forced order follows (base-rules §5.1)."""

    BERSERK = "berserk"
    ROUT = "rout"


@attrs.frozen
class MoraleStateRow:
    """A Morale State's modifiers and how an Enemy in it reads his card (base-rules §7)."""

    state: MoraleState
    fire_ws: int
    """Added to the WS of his fire (and to spotting, §20 Q7)."""
    melee_tq: int | None
    """Added to his melee TQ; ``None`` = as an attacker he surrenders instead (17.3)."""
    source: Source
    card_row: int | None = None
    """Row 1-5 of the Cover/Open table of an Enemy Order card."""
    card_string: CardString | None = None
    """Instead of a row: the card's berserk or rout string, with ``forced_order``."""
    forced_order: str | None = None
    """Order id taken with ``card_string`` (Charge, Evade; base-rules §5.3 step 6)."""
    notes: str = ""


class CheckKind(enum.Enum):
    """The checks of base-rules §7."""

    MC = "mc"
    RC = "rc"
    WMC = "wmc"
    TQC = "tqc"


class RollResult(enum.Enum):
    """Which column of a check table a roll reads (base-rules §7)."""

    NATURAL_0 = "natural_0"
    PASSED = "passed"
    FAILED = "failed"
    NATURAL_9 = "natural_9"

    @property
    def passed(self) -> bool:
        """True for a natural 0 or a roll at or under the target."""
        return self in (RollResult.NATURAL_0, RollResult.PASSED)


def roll_result(roll: int, target: int) -> RollResult:
    """The column a d10 ``roll`` (0-9) against ``target`` reads (base-rules §0, §7; C2 23.1).

    A 9 always fails; a 0 is a natural 0 when the target is 0 or more; otherwise the roll
    passes at or under the target. Targets are not clamped. Raises :class:`ValueError` for a
    face outside 0-9.
    """
    if not isinstance(roll, int) or not 0 <= roll <= 9:
        raise ValueError(f"a d10 face is 0-9, got {roll!r}")
    if roll == 9:
        return RollResult.NATURAL_9
    if roll == 0 and target >= 0:
        return RollResult.NATURAL_0
    return RollResult.PASSED if roll <= target else RollResult.FAILED


@attrs.frozen
class CheckTable:
    """One check of base-rules §7: its morale change per column and its gain cap."""

    id: CheckKind
    name: str
    changes_morale: bool
    natural_0: int | None
    passed: int | None
    failed: int | None
    natural_9: int | None
    gain_cap: MoraleState | None
    source: Source
    rule: str = ""
    notes: str = ""

    def morale_steps(self, result: RollResult) -> int:
        """The change of Morale State (+ better) for ``result``; 0 for a pass/fail check."""
        value = getattr(self, result.value)
        return value if value is not None else 0


@attrs.frozen
class CheckOutcome:
    """A resolved check: the roll, the column read, pass or fail, and the morale change."""

    kind: CheckKind
    roll: int
    target: int
    result: RollResult
    morale_steps: int
    """+ better, - worse; 0 for a TQC."""
    gain_cap: MoraleState | None

    @property
    def passed(self) -> bool:
        """True for a natural 0 or a roll at or under the target (never a 9)."""
        return self.result.passed


@attrs.frozen
class ChecksFile:
    """``checks.yaml`` as written."""

    morale_states: tuple[MoraleStateRow, ...]
    checks: tuple[CheckTable, ...]


@attrs.frozen
class Checks:
    """Morale States and check tables (base-rules §7)."""

    morale_rows: tuple[MoraleStateRow, ...]
    """One per :class:`MoraleState`, best first."""
    tables: tuple[CheckTable, ...]
    _rows: dict[MoraleState, MoraleStateRow] = attrs.field(init=False, eq=False, repr=False)
    _tables: dict[CheckKind, CheckTable] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_rows", {r.state: r for r in self.morale_rows})
        object.__setattr__(self, "_tables", {t.id: t for t in self.tables})

    def morale(self, state: MoraleState) -> MoraleStateRow:
        """The row of ``state``: fire WS and melee TQ modifiers, card row or string."""
        return self._rows[state]

    def table(self, kind: CheckKind) -> CheckTable:
        """The table of check ``kind``."""
        return self._tables[kind]

    def resolve(self, kind: CheckKind, roll: int, target: int) -> CheckOutcome:
        """Resolve check ``kind`` for a d10 ``roll`` (0-9) against ``target``.

        A natural 9 always fails (C2 23.1); a natural 0 is best (base-rules §7). Raises
        :class:`ValueError` for a face outside 0-9.
        """
        table = self._tables[kind]
        result = roll_result(roll, target)
        return CheckOutcome(kind, roll, target, result, table.morale_steps(result), table.gain_cap)

    def apply(self, state: MoraleState, outcome: CheckOutcome) -> MoraleState:
        """The Morale State after ``outcome`` (steps within the check's gain cap, base-rules §7)."""
        return step_morale(state, outcome.morale_steps, cap=outcome.gain_cap)


def checks_from(doc: DataFile) -> Checks:
    """Build :class:`Checks` from a read ``checks.yaml``.

    Checks: the seven Morale States once each, best first; card rows 1-5 once each, or a
    card string with a forced order; MC, RC, WMC and TQC once each; morale checks with all
    four columns, best to worst; pass/fail checks with none. Raises :class:`DataError`
    listing every problem (base-rules §7).
    """
    raw = structure(doc, ChecksFile)
    probs = Problems()
    states = [r.state for r in raw.morale_states]
    if states != list(MORALE_ORDER):
        seen: set[MoraleState] = set()
        for i, state in enumerate(states):
            if state in seen:
                probs.add(doc, ("morale_states", i, "state"), f"morale state {state.value!r} twice")
            seen.add(state)
        missing = [s.value for s in MORALE_ORDER if s not in seen]
        if missing:
            probs.add(doc, ("morale_states",), f"missing morale state(s): {', '.join(missing)}", at_key=True)
        if not missing and len(states) == len(MORALE_ORDER):
            probs.add(
                doc,
                ("morale_states",),
                f"morale states must be listed best first: {', '.join(s.value for s in MORALE_ORDER)}",
                at_key=True,
            )
    rows_seen: dict[int, int] = {}
    for i, r in enumerate(raw.morale_states):
        at: DocPath = ("morale_states", i)
        if (r.card_row is None) == (r.card_string is None):
            probs.add(doc, at, "give exactly one of card_row (1-5) and card_string")
        if r.card_row is not None:
            if not 1 <= r.card_row <= 5:
                probs.add(doc, (*at, "card_row"), f"card_row {r.card_row} outside 1-5")
            elif r.card_row in rows_seen:
                probs.add(doc, (*at, "card_row"), f"card_row {r.card_row} used twice")
            else:
                rows_seen[r.card_row] = i
        if (r.forced_order is None) != (r.card_string is None):
            probs.add(doc, at, "forced_order goes with card_string, and only with it")
        if r.forced_order is not None and not SNAKE_ID.match(r.forced_order):
            probs.add(doc, (*at, "forced_order"), f"order id {r.forced_order!r} must be snake_case")
    kinds: dict[CheckKind, int] = {}
    for i, t in enumerate(raw.checks):
        at = ("checks", i)
        if t.id in kinds:
            probs.add(doc, (*at, "id"), f"check {t.id.value!r} twice")
        kinds[t.id] = i
        columns = (t.natural_0, t.passed, t.failed, t.natural_9)
        if t.changes_morale:
            if any(c is None for c in columns):
                probs.add(doc, at, "a morale check needs natural_0, passed, failed and natural_9")
            elif not columns[0] >= columns[1] >= columns[2] >= columns[3]:  # type: ignore[operator]
                probs.add(
                    doc, at, "columns must run best to worst: natural_0 >= passed >= failed >= natural_9"
                )
        else:
            if any(c is not None for c in columns):
                probs.add(doc, at, "a check with changes_morale false has null columns")
            if t.gain_cap is not None:
                probs.add(doc, (*at, "gain_cap"), "a check with changes_morale false has no gain_cap")
    missing_kinds = [k.value for k in CheckKind if k not in kinds]
    if missing_kinds:
        probs.add(doc, ("checks",), f"missing check(s): {', '.join(missing_kinds)}", at_key=True)
    probs.raise_if_any()
    return Checks(raw.morale_states, raw.checks)


# ---------------------------------------------------------------------------
# Loaders


ORDERS_FILE = "orders.yaml"
CHARTS_FILE = "charts.yaml"
WEAPONS_FILE = "weapons.yaml"
CHECKS_FILE = "checks.yaml"


def load_orders(path: Path | str | None = None) -> OrderTable:
    """Load ``orders.yaml`` (``None``: the shipped file). Raises :class:`DataError` (base-rules §4)."""
    return orders_from(read_card_file(path, ORDERS_FILE))


def load_charts(path: Path | str | None = None) -> Charts:
    """Load ``charts.yaml`` (``None``: the shipped file). Raises :class:`DataError` (base-rules §9-10)."""
    return charts_from(read_card_file(path, CHARTS_FILE))


def load_weapons(path: Path | str | None = None) -> WeaponTable:
    """Load ``weapons.yaml`` (``None``: the shipped file). Raises :class:`DataError` (base-rules §10)."""
    return weapons_from(read_card_file(path, WEAPONS_FILE))


def load_checks(path: Path | str | None = None) -> Checks:
    """Load ``checks.yaml`` (``None``: the shipped file). Raises :class:`DataError` (base-rules §7)."""
    return checks_from(read_card_file(path, CHECKS_FILE))


@attrs.frozen
class Tables:
    """The four house-edition tables, checked against each other."""

    orders: OrderTable
    charts: Charts
    weapons: WeaponTable
    checks: Checks


def load_tables(directory: Path | str | None = None) -> Tables:
    """Load the four tables from ``directory`` (``None``: the shipped ``cards/``).

    Besides each file's own checks, every ``forced_order`` of ``checks.yaml`` must be an
    order id of ``orders.yaml``. Raises one :class:`DataError` with the problems of all files.
    """
    base = cards_dir() if directory is None else Path(directory)
    problems: list[Problem] = []
    results: dict[str, Any] = {}
    docs: dict[str, DataFile] = {}
    builders = (
        (ORDERS_FILE, orders_from),
        (CHARTS_FILE, charts_from),
        (WEAPONS_FILE, weapons_from),
        (CHECKS_FILE, checks_from),
    )
    for filename, build in builders:
        try:
            docs[filename] = doc = read_card_file(base / filename, filename)
            results[filename] = build(doc)
        except DataError as exc:
            problems.extend(exc.problems)
    orders: OrderTable | None = results.get(ORDERS_FILE)
    checks: Checks | None = results.get(CHECKS_FILE)
    if orders is not None and checks is not None:
        probs = Problems()
        for i, row in enumerate(checks.morale_rows):
            if row.forced_order is not None and row.forced_order not in orders:
                probs.add(
                    docs[CHECKS_FILE],
                    ("morale_states", i, "forced_order"),
                    f"unknown order {row.forced_order!r} (not in {ORDERS_FILE})",
                )
        problems.extend(probs.items)
    if problems:
        raise DataError(problems)
    return Tables(
        orders=results[ORDERS_FILE],
        charts=results[CHARTS_FILE],
        weapons=results[WEAPONS_FILE],
        checks=results[CHECKS_FILE],
    )
