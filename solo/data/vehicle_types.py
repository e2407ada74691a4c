"""Vehicles as data: vehicle types, the Vehicle Order Matrix and the AFV crew counters (C2 31.0-31.11).

Three kinds of house-edition files under ``cards/`` are loaded into frozen tables:

* ``cards/vehicles/*.yaml`` (one file per type) → :class:`VehicleTypes` of :class:`VehicleType`:
  kind, crew and passenger positions with hatches and LOS arcs (31.7.1-31.7.3, 31.8), weapons
  and where they are mounted (31.9), armor by zone with glancing values (31.10.4-31.10.5), hit
  location tables by aspect (%D, 31.10.3) and d10 damage tables (31.10.8), speeds and rounds;
* ``cards/vehicle_order_matrix.yaml`` → :class:`Vom`, the Enemy crews' order matrix (31.11.3);
* ``cards/crews.yaml`` → :class:`Crews`, the crew counters drawn at random per position (31.3).

Loaders (:func:`load_vehicle_types`, :func:`load_vom`, :func:`load_crews`) read the shipped
files when given no path and raise one :class:`~solo.core.errors.DataError` naming every problem
with its file and line. Lookups are pure functions over tables built at load time:
:func:`vom_column`, :func:`vom_order`, :func:`modified_number`, :func:`hit_location`,
:func:`damage`, :func:`armor`, :func:`position_sees`. No game rule is applied here.

Conventions: d10 faces are 0-9, %D readings 00-99, Enemy card initiative numbers 0-99.
Arcs are *relative wedges* 0-5 counted clockwise from a facing (the vehicle's hull or its
turret): Front = wedge 0, right side = wedges 1-2, Rear = wedge 3, left side = wedges 4-5,
as :data:`solo.core.hexes.HOUSE_ARCS` (``(direction - facing) % 6``).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import attrs

from solo.core import datafile
from solo.core.catalog import Catalog
from solo.core.datafile import (
    SNAKE_ID,
    DataFile,
    DocPath,
    Problems,
    check_unique,
    converter,
    describe,
    read_card_file,
    structure,
)
from solo.core.errors import DataError, Problem
from solo.core.hexes import Arc
from solo.core.resources import cards_dir, display_name
from solo.data.cards import DirectionString
from solo.data.tables import MoraleState
from solo.data.weapons import AmmoKind, Nation, WeaponKind, WeaponTable

__all__ = [
    "CREWS_FILE",
    "CREW_ACTIVATION_ORDER",
    "DAMAGE_LOCATIONS",
    "REQUIRED_VOM_COLUMNS",
    "VEHICLES_DIR",
    "VOM_FILE",
    "ArcName",
    "ArmorValue",
    "ArmorZone",
    "CrewCheck",
    "CrewCounter",
    "CrewWeapon",
    "Crews",
    "DamageColumn",
    "DamageEffect",
    "DamageRow",
    "Frame",
    "HatchState",
    "HitLocation",
    "Location",
    "Mount",
    "MountId",
    "Position",
    "Role",
    "Rolls",
    "Rounds",
    "Speed",
    "VehicleKind",
    "VehicleType",
    "VehicleTypes",
    "VehicleWeapon",
    "Vom",
    "VomCell",
    "VomColumn",
    "armor",
    "crews_from",
    "damage",
    "hit_location",
    "load_crews",
    "load_vehicle_type",
    "load_vehicle_types",
    "load_vom",
    "modified_number",
    "position_sees",
    "vehicle_type_from",
    "vom_column",
    "vom_from",
    "vom_order",
]

VEHICLES_DIR = "vehicles"
"""The folder of vehicle types under ``cards/``."""
VOM_FILE = "vehicle_order_matrix.yaml"
"""The Vehicle Order Matrix file under ``cards/``."""
CREWS_FILE = "crews.yaml"
"""The crew counters file under ``cards/``."""


# ---------------------------------------------------------------------------
# Closed sets


class VehicleKind(enum.Enum):
    """The four classes of vehicle (C2 31.0)."""

    JEEP = "jeep"
    TRUCK = "truck"
    HALF_TRACK = "half_track"
    AFV = "afv"

    @property
    def is_armored(self) -> bool:
        """Half-Tracks and AFVs: hits need a penetration roll (C2 31.10.2, 31.10.4)."""
        return self in (VehicleKind.HALF_TRACK, VehicleKind.AFV)


class Role(enum.Enum):
    """A crew position's role (C2 31.1)."""

    COMMANDER = "commander"
    DRIVER = "driver"
    GUNNER = "gunner"
    LOADER = "loader"
    CO_DRIVER = "co_driver"


CREW_ACTIVATION_ORDER: tuple[Role, ...] = (
    Role.COMMANDER,
    Role.DRIVER,
    Role.GUNNER,
    Role.LOADER,
    Role.CO_DRIVER,
)
"""Commander / Driver / Gunner / Loader / Co-driver (C2 31.1, 31.11.3)."""


class HatchState(enum.Enum):
    """Open (OPEN on the VOM) or Closed (BU, buttoned up) (C2 31.8, 31.11.3)."""

    OPEN = "open"
    CLOSED = "closed"


class Frame(enum.Enum):
    """What a position's arcs turn with: the hull or the turret (C2 31.6, 31.7.3)."""

    HULL = "hull"
    TURRET = "turret"


class ArcName(enum.Enum):
    """A named arc as written in the data files; :attr:`wedges` gives its relative wedges."""

    FRONT = "front"
    SIDES = "sides"
    LEFT_SIDE = "left_side"
    RIGHT_SIDE = "right_side"
    REAR = "rear"
    ALL = "all"

    @property
    def wedges(self) -> tuple[int, ...]:
        """Relative wedges 0-5 (0 ahead, clockwise; :data:`solo.core.hexes.HOUSE_ARCS`)."""
        return _ARC_WEDGES[self]


_ARC_WEDGES: dict[ArcName, tuple[int, ...]] = {
    ArcName.FRONT: (0,),
    ArcName.SIDES: (1, 2, 4, 5),
    ArcName.RIGHT_SIDE: (1, 2),
    ArcName.LEFT_SIDE: (4, 5),
    ArcName.REAR: (3,),
    ArcName.ALL: (0, 1, 2, 3, 4, 5),
}


class Speed(enum.Enum):
    """The Driver's movement orders (C2 31.11.2); values are order ids of ``orders.yaml``."""

    CRAWL = "crawl"
    AHEAD_SLOW = "ahead_slow"
    FORWARD = "forward"
    FAST = "fast"
    REVERSE = "reverse"


_SPEED_RANK = {Speed.CRAWL: 0, Speed.AHEAD_SLOW: 1, Speed.FORWARD: 2, Speed.FAST: 3}


class MountId(enum.Enum):
    """Which weapon of a vehicle (a VOM cell names one for crew MG fire, C2 31.9.4)."""

    MAIN_GUN = "main_gun"
    COAXIAL_MG = "coaxial_mg"
    BOW_MG = "bow_mg"
    PINTLE_MG = "pintle_mg"


class Mount(enum.Enum):
    """Where a weapon is mounted: its arcs turn with the turret, or stay with the hull."""

    TURRET = "turret"
    HULL = "hull"
    PINTLE = "pintle"


class ArmorZone(enum.Enum):
    """An armor zone of the Armor Characteristics (C2 example of play; 31.10.4)."""

    TURRET_FRONT = "turret_front"
    TURRET_SIDE = "turret_side"
    TURRET_REAR = "turret_rear"
    UPPER_HULL_FRONT = "upper_hull_front"
    LOWER_HULL_FRONT = "lower_hull_front"
    UPPER_HULL_SIDE = "upper_hull_side"
    LOWER_HULL_SIDE = "lower_hull_side"
    HULL_REAR = "hull_rear"


class Location(enum.Enum):
    """A hit location (C2 31.10.3, 31.10.8).

    Hull and turret locations (and the house ``engine``, ``hull``) send the hit to a damage
    table column; the others are the special locations of 31.10.8, resolved by weapon type.
    """

    UPPER_HULL = "upper_hull"
    LOWER_HULL = "lower_hull"
    TURRET = "turret"
    HULL_REAR = "hull_rear"
    HULL = "hull"
    """Half-Track body [house]."""
    ENGINE = "engine"
    """Engine of a Jeep, Truck or Half-Track [house]."""
    BODY = "body"
    """Truck or Jeep body: no effect [house]."""
    HATCH = "hatch"
    PERISCOPE = "periscope"
    GUNNER_SIGHT = "gunner_sight"
    TURRET_RING = "turret_ring"
    GUN_BARREL = "gun_barrel"
    COAXIAL_MG = "coaxial_mg"
    BOW_MG = "bow_mg"
    VISION_SLOT = "vision_slot"
    SUSPENSION = "suspension"
    TRACK = "track"
    WHEEL = "wheel"
    HEADLIGHT_LEFT = "headlight_left"
    HEADLIGHT_RIGHT = "headlight_right"
    CUPOLA = "cupola"
    PASSENGER = "passenger"
    BETWEEN_PASSENGERS = "between_passengers"
    CREW = "crew"
    """A Jeep, Truck or Half-Track crew member hit as a passenger is (31.10.8 Passenger X) [house]."""


DAMAGE_LOCATIONS: frozenset[Location] = frozenset(
    {
        Location.UPPER_HULL,
        Location.LOWER_HULL,
        Location.TURRET,
        Location.HULL_REAR,
        Location.HULL,
        Location.ENGINE,
    }
)
"""Locations whose hits are rolled on a damage table column."""

_CREW_LOCATIONS = frozenset({Location.HATCH, Location.PERISCOPE, Location.VISION_SLOT, Location.CREW})


class CrewCheck(enum.Enum):
    """Who makes a Morale Check or Fire Morale Check (C2 31.10.6, 31.10.10): a role, ALL or passengers."""

    COMMANDER = "commander"
    DRIVER = "driver"
    GUNNER = "gunner"
    LOADER = "loader"
    CO_DRIVER = "co_driver"
    ALL = "all"
    """All crew members."""
    PASSENGERS = "passengers"
    """All passengers [house]."""


class DamageEffect(enum.Enum):
    """A damage result of a damage table row (C2 31.10.8)."""

    DESTROYED = "destroyed"
    """Catastrophic hit: the vehicle is destroyed."""
    ENGINE_FIRE = "engine_fire"
    TURRET_FIRE = "turret_fire"
    IMMOBILIZED = "immobilized"
    TURRET_JAMMED = "turret_jammed"
    MAIN_GUN_DESTROYED = "main_gun_destroyed"


class VomColumn(enum.Enum):
    """A column of the Vehicle Order Matrix (C2 31.11.3)."""

    NO_TARGET_BU = "no_target_bu"
    NO_TARGET_OPEN = "no_target_open"
    TARGET_BU = "target_bu"
    TARGET_OPEN = "target_open"
    HALF_TRACK_NO_TARGET = "half_track_no_target"
    HALF_TRACK_TARGET = "half_track_target"
    TRUCK = "truck"
    """Trucks; Jeeps use it too [house]."""


_AFV_COLUMNS = (VomColumn.NO_TARGET_BU, VomColumn.NO_TARGET_OPEN, VomColumn.TARGET_BU, VomColumn.TARGET_OPEN)
_HALF_TRACK_COLUMNS = (VomColumn.HALF_TRACK_NO_TARGET, VomColumn.HALF_TRACK_TARGET)
_BU_COLUMNS = frozenset({VomColumn.NO_TARGET_BU, VomColumn.TARGET_BU})

REQUIRED_VOM_COLUMNS: dict[Role, tuple[VomColumn, ...]] = {
    Role.COMMANDER: _AFV_COLUMNS,
    Role.DRIVER: (*_AFV_COLUMNS, *_HALF_TRACK_COLUMNS, VomColumn.TRUCK),
    Role.GUNNER: _AFV_COLUMNS,
    Role.LOADER: _AFV_COLUMNS,
    Role.CO_DRIVER: (*_AFV_COLUMNS, *_HALF_TRACK_COLUMNS),
}
"""The columns each role must have [house]: every role the four AFV columns; Drivers and
Co-drivers the Half-Track columns; Drivers the Truck column (Truck Co-drivers follow 31.9.2)."""


# ---------------------------------------------------------------------------
# Roll ranges


@attrs.frozen(order=True)
class Rolls:
    """An inclusive range of d10 faces or %D readings: ``"25-32"``, ``"4"``, ``"00-09"``."""

    first: int
    last: int

    @classmethod
    def parse(cls, value: str | int) -> Rolls:
        """Read ``"25-32"``, ``"00-09"``, ``"4"`` or the integer ``4``. Raises :class:`ValueError`."""
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ValueError(f"expected a roll range like '25-32' or '4', got {describe(value)}")
        if isinstance(value, int):
            return cls(value, value)
        m = _ROLLS.match(value.strip())
        if not m:
            raise ValueError(f"bad roll range {value!r} (expected 'first-last' or one number, e.g. '25-32')")
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) is not None else first
        return cls(first, last)

    def __contains__(self, roll: object) -> bool:
        return isinstance(roll, int) and self.first <= roll <= self.last

    def format(self, width: int = 1) -> str:
        """``"25-32"`` (numbers padded to ``width`` digits; one number when first == last)."""
        a, b = f"{self.first:0{width}d}", f"{self.last:0{width}d}"
        return a if self.first == self.last else f"{a}-{b}"

    def __str__(self) -> str:
        return self.format()


_ROLLS = re.compile(r"^(\d{1,3})(?:\s*-\s*(\d{1,3}))?$")


def _structure_rolls(value: Any, _type: type) -> Rolls:
    return Rolls.parse(value)


converter.register_structure_hook(Rolls, _structure_rolls)


def _coverage(
    doc: DataFile,
    probs: Problems,
    rows: Sequence[tuple[Rolls, DocPath]],
    lo: int,
    hi: int,
    what: str,
    width: int,
) -> None:
    """Record gaps, overlaps and out-of-range rows so that ``rows`` cover ``lo``-``hi`` exactly once."""
    ok: list[tuple[Rolls, DocPath]] = []
    for rolls, path in rows:
        if rolls.first > rolls.last:
            probs.add(doc, path, f"{what}: rows {rolls.format(width)} run backwards")
        elif rolls.first < lo or rolls.last > hi:
            probs.add(doc, path, f"{what}: rows {rolls.format(width)} outside {lo:0{width}d}-{hi:0{width}d}")
        else:
            ok.append((rolls, path))
    ok.sort(key=lambda item: (item[0].first, item[0].last))
    expected = lo
    previous: tuple[Rolls, DocPath] | None = None
    for rolls, path in ok:
        if rolls.first > expected:
            gap = Rolls(expected, rolls.first - 1).format(width)
            probs.add(doc, path, f"{what}: gap before rows {rolls.format(width)}: {gap} give nothing")
        elif rolls.first < expected and previous is not None:
            line = doc.line_of(previous[1])
            probs.add(
                doc,
                path,
                f"{what}: rows {rolls.format(width)} overlap rows {previous[0].format(width)}"
                + (f" (line {line})" if line is not None else ""),
            )
        if previous is None or rolls.last >= expected:
            previous = (rolls, path)
        expected = max(expected, rolls.last + 1)
    if expected <= hi:
        where = ok[-1][1] if ok else (rows[0][1][:-1] if rows else ())
        probs.add(doc, where, f"{what}: {Rolls(expected, hi).format(width)} give nothing")


# ---------------------------------------------------------------------------
# Vehicle types: models


@attrs.frozen
class Position:
    """A crew or passenger position of a vehicle display (C2 31.3, 31.7, 31.8, 31.9).

    ``id`` is the role for crew (``"driver"``), ``"passenger_3"`` for passenger 3 and
    ``"cupola"`` for a Half-Track's cupola. Arcs are relative wedges 0-5 of ``frame``
    (LOS) or of the hull (fire, exposure).
    """

    id: str
    role: Role | None
    """The crew role; ``None`` for passengers and the cupola."""
    number: int | None
    """The passenger number (odd on the left, even on the right; 2k-1 and 2k share row k)."""
    hatch: bool
    """The position has a hatch (AFV crew except tank Gunners, 31.8)."""
    frame: Frame
    los_open: tuple[int, ...] | None
    """LOS wedges with the hatch open (or, without a hatch, of an exposed position)."""
    los_closed: tuple[int, ...] | None
    """LOS wedges with the hatch closed (or, without a hatch, of a position inside the armor)."""
    exposed_from: tuple[int, ...]
    """Hull wedges from which small arms may fire at the occupant with an open hatch (31.10.31)."""
    fire_arcs: tuple[int, ...]
    """Hull wedges into which the occupant may fire his own weapon (31.9.1-31.9.3)."""
    fire_kinds: tuple[WeaponKind, ...]
    """Which of his own weapons he may fire from here (empty: any)."""
    exits_via: tuple[Role, ...]
    """Hatchless positions: the hatches used to bail out (Gunner: Loader or Commander, 31.11.2)."""

    @property
    def states(self) -> tuple[HatchState, ...]:
        """The hatch states this position can be in (one for a position without a hatch)."""
        return tuple(s for s in HatchState if self._los(s) is not None)

    @property
    def fixed_state(self) -> HatchState | None:
        """The only state of a position without a hatch; ``None`` for a position with one."""
        return None if self.hatch else self.states[0]

    def _los(self, state: HatchState) -> tuple[int, ...] | None:
        return self.los_open if state is HatchState.OPEN else self.los_closed

    def sight(self, state: HatchState | None = None) -> tuple[int, ...]:
        """The LOS wedges (of :attr:`frame`) in ``state`` (``None``: the fixed state, 31.7.1-31.7.3).

        Raises :class:`ValueError` for ``None`` at a position with a hatch, or a state a
        hatchless position cannot be in.
        """
        if state is None:
            if self.hatch:
                raise ValueError(f"position {self.id!r} has a hatch: give its state")
            state = self.states[0]
        wedges = self._los(state)
        if wedges is None:
            raise ValueError(f"position {self.id!r} has no hatch and is never {state.value}")
        return wedges

    @property
    def side(self) -> str | None:
        """``"left"`` for odd passenger numbers, ``"right"`` for even ones (31.9.3); else ``None``."""
        if self.number is None:
            return None
        return "left" if self.number % 2 else "right"


@attrs.frozen
class Rounds:
    """Main gun rounds carried, by kind (C2 31.0 ammo load)."""

    he: int = 0
    ap: int = 0

    def of(self, kind: AmmoKind) -> int:
        """Rounds of ``kind`` carried (0 for HEAT and small arms)."""
        if kind is AmmoKind.HE:
            return self.he
        if kind is AmmoKind.AP:
            return self.ap
        return 0


@attrs.frozen
class VehicleWeapon:
    """A weapon mounted on a vehicle (C2 31.9): which, where, fired by whom, into which arc."""

    id: MountId
    weapon: str
    """A weapon id of ``cards/weapons.yaml``."""
    mount: Mount
    fired_by: tuple[str, ...]
    """Position ids that may fire it (any one of them)."""
    arcs: tuple[int, ...]
    """Wedges it fires into, relative to the turret (turret mount) or the hull."""
    rounds: Rounds | None
    """Main gun rounds carried; ``None`` for machine guns."""

    @property
    def frame(self) -> Frame:
        """The frame of :attr:`arcs`: the turret for a turret mount, else the hull."""
        return Frame.TURRET if self.mount is Mount.TURRET else Frame.HULL


@attrs.frozen
class ArmorValue:
    """The armor of one zone: the normal value and the Glancing Blow value (31.10.4-31.10.5)."""

    zone: ArmorZone
    normal: int
    glancing: int


@attrs.frozen
class HitLocation:
    """One row of a hit location table (C2 31.10.3): %D ``rolls`` → a location.

    A penetration roll against ``armor`` (its glancing value if ``glancing``) comes first
    when ``armor`` is set; then the hit goes to damage column ``damage`` or, with no
    column, is the 31.10.8 effect of ``location``.
    """

    rolls: Rolls
    location: Location
    crew: Role | None
    """The position of a hatch, periscope, vision slot or crew hit."""
    passengers: tuple[int, ...]
    """The passenger hit (one number) or the two passengers a shot passes between."""
    armor: ArmorZone | None
    glancing: bool
    damage: str | None
    """The damage column rolled on after penetration."""
    mc: tuple[CrewCheck, ...]
    fmc: tuple[CrewCheck, ...]
    note: str

    def __str__(self) -> str:
        parts = [self.location.value]
        if self.crew is not None:
            parts.append(self.crew.value)
        parts.extend(str(n) for n in self.passengers)
        if self.glancing:
            parts.append("(glancing)")
        if self.mc:
            parts.append("MC " + "/".join(c.value for c in self.mc))
        return " ".join(parts)


@attrs.frozen
class DamageRow:
    """One row of a damage column (C2 31.10.8): d10 ``rolls`` → crew killed, checks and effects."""

    rolls: Rolls
    kia: tuple[Role, ...]
    mc: tuple[CrewCheck, ...]
    fmc: tuple[CrewCheck, ...]
    effects: tuple[DamageEffect, ...]
    location: Location | None
    """Resolve as a hit on this special location (e.g. ``suspension``)."""
    reroll: str | None
    """Roll again on this column."""
    note: str


@attrs.frozen
class DamageColumn:
    """A damage table column (d10 faces 0-9)."""

    id: str
    rows: tuple[DamageRow, ...]
    _table: tuple[DamageRow, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        table: list[DamageRow | None] = [None] * 10
        for row in self.rows:
            for face in range(max(row.rolls.first, 0), min(row.rolls.last, 9) + 1):
                table[face] = row
        if any(r is None for r in table):
            raise ValueError(f"damage column {self.id!r} does not cover 0-9")
        object.__setattr__(self, "_table", tuple(table))

    def row(self, d10: int) -> DamageRow:
        """The row for d10 face ``d10`` (0-9). Raises :class:`ValueError` for another face."""
        if isinstance(d10, bool) or not isinstance(d10, int) or not 0 <= d10 <= 9:
            raise ValueError(f"a d10 face is 0-9, got {d10!r}")
        return self._table[d10]


@attrs.frozen
class VehicleType:
    """A vehicle type: its display, weapons, armor and tables (C2 31.0-31.10)."""

    id: str
    name: str
    nation: Nation
    kind: VehicleKind
    turret: bool
    speeds: tuple[Speed, ...]
    """Allowed movement orders (Emergency Stop is always allowed, 31.2)."""
    crew: tuple[Position, ...]
    """Crew positions in activation order (31.1)."""
    passengers: tuple[Position, ...]
    """Passenger positions by number."""
    cupola: Position | None
    weapons: tuple[VehicleWeapon, ...]
    armor_values: tuple[ArmorValue, ...]
    hit_tables: tuple[tuple[Arc, tuple[HitLocation, ...]], ...]
    """Front, Side, Rear: the rows of each aspect's hit location table."""
    damage_columns: tuple[DamageColumn, ...]
    notes: str
    _positions: dict[str, Position] = attrs.field(init=False, eq=False, repr=False)
    _hits: dict[Arc, tuple[HitLocation, ...]] = attrs.field(init=False, eq=False, repr=False)
    _armor: dict[ArmorZone, ArmorValue] = attrs.field(init=False, eq=False, repr=False)
    _damage: dict[str, DamageColumn] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        positions = {p.id: p for p in (*self.crew, *self.passengers)}
        if self.cupola is not None:
            positions[self.cupola.id] = self.cupola
        object.__setattr__(self, "_positions", positions)
        hits: dict[Arc, tuple[HitLocation, ...]] = {}
        for aspect, rows in self.hit_tables:
            table: list[HitLocation | None] = [None] * 100
            for row in rows:
                for r in range(max(row.rolls.first, 0), min(row.rolls.last, 99) + 1):
                    table[r] = row
            if any(t is None for t in table):
                raise ValueError(f"{self.id}: the {aspect.value} hit location table does not cover 00-99")
            hits[aspect] = tuple(table)  # type: ignore[arg-type]
        object.__setattr__(self, "_hits", hits)
        object.__setattr__(self, "_armor", {a.zone: a for a in self.armor_values})
        object.__setattr__(self, "_damage", {c.id: c for c in self.damage_columns})

    def position(self, position: str | Role) -> Position:
        """The position with id (or crew role) ``position``. Raises :class:`KeyError`."""
        key = position.value if isinstance(position, Role) else position
        try:
            return self._positions[key]
        except KeyError:
            raise KeyError(f"{self.id} has no position {key!r}") from None

    def has_position(self, position: str | Role) -> bool:
        """True if the vehicle has this position (crew role or position id)."""
        key = position.value if isinstance(position, Role) else position
        return key in self._positions

    @property
    def roles(self) -> tuple[Role, ...]:
        """The crew roles, in activation order (31.1)."""
        return tuple(p.role for p in self.crew if p.role is not None)

    def weapon(self, mount_id: MountId | str) -> VehicleWeapon | None:
        """The weapon on ``mount_id`` (``"bow_mg"``), or ``None`` if the vehicle has none."""
        key = MountId(mount_id)
        return next((w for w in self.weapons if w.id is key), None)

    @property
    def main_gun(self) -> VehicleWeapon | None:
        """The main gun, or ``None``."""
        return self.weapon(MountId.MAIN_GUN)

    @property
    def top_speed(self) -> Speed:
        """The fastest forward speed allowed ("Top Speed" on the display)."""
        forward = [s for s in self.speeds if s in _SPEED_RANK]
        return max(forward, key=_SPEED_RANK.__getitem__) if forward else self.speeds[0]

    def column(self, column_id: str) -> DamageColumn:
        """The damage column ``column_id``. Raises :class:`KeyError`."""
        try:
            return self._damage[column_id]
        except KeyError:
            raise KeyError(f"{self.id} has no damage column {column_id!r}") from None


@attrs.frozen
class VehicleTypes(Catalog):
    """All vehicle types, by id (:meth:`get`, ``in``, iteration in file order)."""

    _ITEMS: ClassVar[str] = "types"
    _WHAT: ClassVar[str] = "vehicle type"

    types: tuple[VehicleType, ...]
    _by_id: dict[str, VehicleType] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {t.id: t for t in self.types})


# ---------------------------------------------------------------------------
# Vehicle types: the files as written


@attrs.frozen
class _PositionEntry:
    role: Role | None = None
    number: int | None = None
    hatch: bool = False
    frame: Frame = Frame.HULL
    los_open: tuple[ArcName, ...] | None = None
    los_closed: tuple[ArcName, ...] | None = None
    exposed_from: tuple[ArcName, ...] = ()
    fire_arcs: tuple[ArcName, ...] = ()
    fire_kinds: tuple[WeaponKind, ...] = ()
    exits_via: tuple[Role, ...] = ()
    note: str = ""


@attrs.frozen
class _WeaponEntry:
    id: MountId
    weapon: str
    mount: Mount
    fired_by: tuple[str, ...]
    arcs: tuple[ArcName, ...]
    rounds: Rounds | None = None
    note: str = ""


@attrs.frozen
class _ArmorEntry:
    normal: int
    glancing: int


@attrs.frozen
class _HitEntry:
    rolls: Rolls
    location: Location
    crew: Role | None = None
    passengers: tuple[int, ...] = ()
    armor: ArmorZone | None = None
    glancing: bool = False
    damage: str | None = None
    mc: tuple[CrewCheck, ...] = ()
    fmc: tuple[CrewCheck, ...] = ()
    note: str = ""


@attrs.frozen
class _DamageEntry:
    d10: Rolls
    kia: tuple[Role, ...] = ()
    mc: tuple[CrewCheck, ...] = ()
    fmc: tuple[CrewCheck, ...] = ()
    effects: tuple[DamageEffect, ...] = ()
    location: Location | None = None
    reroll: str | None = None
    note: str = ""


@attrs.frozen
class _VehicleFile:
    id: str
    name: str
    nation: Nation
    kind: VehicleKind
    speeds: tuple[Speed, ...]
    crew: tuple[_PositionEntry, ...]
    hit_locations: dict[Arc, tuple[_HitEntry, ...]]
    turret: bool = False
    passengers: tuple[_PositionEntry, ...] = ()
    cupola: _PositionEntry | None = None
    weapons: tuple[_WeaponEntry, ...] = ()
    armor: dict[ArmorZone, _ArmorEntry] = attrs.field(factory=dict)
    damage: dict[str, tuple[_DamageEntry, ...]] = attrs.field(factory=dict)
    edition: str = "house"
    notes: str = ""


def _wedges(arcs: tuple[ArcName, ...] | None) -> tuple[int, ...] | None:
    if arcs is None:
        return None
    return tuple(sorted({w for a in arcs for w in a.wedges}))


def _position(
    doc: DataFile, probs: Problems, where: DocPath, e: _PositionEntry, pid: str, *, turret: bool
) -> Position:
    if e.hatch and (e.los_open is None or e.los_closed is None):
        probs.add(doc, where, f"position {pid!r} has a hatch: give both los_open and los_closed (31.7.3)")
    if not e.hatch and (e.los_open is None) == (e.los_closed is None):
        probs.add(
            doc,
            where,
            f"position {pid!r} has no hatch: give exactly one of los_open (exposed) or "
            "los_closed (inside the armor)",
        )
    if e.frame is Frame.TURRET and not turret:
        probs.add(doc, (*where, "frame"), f"position {pid!r} turns with a turret the vehicle does not have")
    if e.exits_via and e.hatch:
        probs.add(
            doc, (*where, "exits_via"), f"position {pid!r} has its own hatch; exits_via is for hatchless ones"
        )
    return Position(
        id=pid,
        role=e.role,
        number=e.number,
        hatch=e.hatch,
        frame=e.frame,
        los_open=_wedges(e.los_open),
        los_closed=_wedges(e.los_closed),
        exposed_from=_wedges(e.exposed_from) or (),
        fire_arcs=_wedges(e.fire_arcs) or (),
        fire_kinds=tuple(dict.fromkeys(e.fire_kinds)),
        exits_via=e.exits_via,
    )


def _positions(
    doc: DataFile, probs: Problems, raw: _VehicleFile
) -> tuple[tuple[Position, ...], tuple[Position, ...], Position | None]:
    crew: list[Position] = []
    seen_roles: dict[Role, int] = {}
    for i, e in enumerate(raw.crew):
        where: DocPath = ("crew", i)
        if e.role is None or e.number is not None:
            probs.add(doc, where, "a crew position names its role (and no passenger number)")
            continue
        if e.role in seen_roles:
            probs.add(
                doc,
                (*where, "role"),
                f"role {e.role.value!r} twice (also crew entry {seen_roles[e.role] + 1})",
            )
            continue
        seen_roles[e.role] = i
        crew.append(_position(doc, probs, where, e, e.role.value, turret=raw.turret))
    order = [r for r in CREW_ACTIVATION_ORDER if r in seen_roles]
    if [p.role for p in crew] != order:
        probs.add(
            doc, ("crew",), "list the crew in activation order: commander, driver, gunner, loader, co_driver"
        )
    for i, e in enumerate(raw.crew):
        if raw.kind is VehicleKind.AFV and e.role is not None and not e.hatch and e.los_open is not None:
            probs.add(
                doc, ("crew", i), "an AFV position without a hatch is inside the armor: give los_closed"
            )
        if raw.kind is not VehicleKind.AFV and e.hatch:
            probs.add(doc, ("crew", i, "hatch"), "only AFV positions have hatches (31.8)")
        for j, via in enumerate(e.exits_via):
            if via not in seen_roles or not raw.crew[seen_roles[via]].hatch:
                probs.add(
                    doc,
                    ("crew", i, "exits_via", j),
                    f"exits_via {via.value!r} is not a crew position with a hatch",
                )
    passengers: list[Position] = []
    numbers: list[int] = []
    for i, e in enumerate(raw.passengers):
        where = ("passengers", i)
        if e.number is None or e.role is not None:
            probs.add(doc, where, "a passenger position names its number (and no role)")
            continue
        if e.hatch:
            probs.add(doc, (*where, "hatch"), "passenger positions have no hatch (31.8)")
        numbers.append(e.number)
        passengers.append(_position(doc, probs, where, e, f"passenger_{e.number}", turret=raw.turret))
    if numbers and numbers != list(range(1, len(numbers) + 1)):
        probs.add(
            doc, ("passengers",), f"passenger numbers must run 1-{len(numbers)} in order, got {numbers}"
        )
    if raw.passengers and raw.kind is VehicleKind.AFV:
        probs.add(doc, ("passengers",), "no Character may ride on an AFV (31.3)")
    cupola = None
    if raw.cupola is not None:
        if raw.kind is not VehicleKind.HALF_TRACK:
            probs.add(doc, ("cupola",), "only Half-Tracks have a cupola (31.7.2, 31.9.3)")
        if raw.cupola.role is not None or raw.cupola.number is not None or raw.cupola.hatch:
            probs.add(doc, ("cupola",), "the cupola has no role, number or hatch")
        cupola = _position(doc, probs, ("cupola",), raw.cupola, "cupola", turret=raw.turret)
    return tuple(crew), tuple(passengers), cupola


def _vehicle_weapons(
    doc: DataFile, probs: Problems, raw: _VehicleFile, position_ids: set[str], weapons: WeaponTable | None
) -> tuple[VehicleWeapon, ...]:
    out: list[VehicleWeapon] = []
    seen: set[MountId] = set()
    for i, e in enumerate(raw.weapons):
        where: DocPath = ("weapons", i)
        if e.id in seen:
            probs.add(doc, (*where, "id"), f"weapon {e.id.value!r} twice")
        seen.add(e.id)
        if not e.fired_by:
            probs.add(doc, (*where, "fired_by"), "name the position(s) that fire it")
        for j, pid in enumerate(e.fired_by):
            if pid not in position_ids:
                probs.add(doc, (*where, "fired_by", j), f"no position {pid!r} on this vehicle")
        if e.mount is Mount.TURRET and not raw.turret:
            probs.add(doc, (*where, "mount"), "a turret mount on a vehicle without a turret")
        if (e.rounds is None) != (e.id is not MountId.MAIN_GUN):
            probs.add(doc, where, "the main gun (and only it) lists the rounds carried")
        if e.rounds is not None and (e.rounds.he < 0 or e.rounds.ap < 0):
            probs.add(doc, (*where, "rounds"), "rounds carried cannot be negative")
        if weapons is not None:
            if e.weapon not in weapons:
                probs.add(doc, (*where, "weapon"), f"unknown weapon {e.weapon!r} (not in weapons.yaml)")
            else:
                w = weapons.get(e.weapon)
                wanted = WeaponKind.MAIN_GUN if e.id is MountId.MAIN_GUN else WeaponKind.MG
                if w.kind is not wanted:
                    probs.add(
                        doc,
                        (*where, "weapon"),
                        f"{e.weapon!r} is a {w.kind.value}, expected a {wanted.value}",
                    )
                if e.rounds is not None:
                    kinds = {a.kind for a in w.ammo}
                    for kind in (AmmoKind.HE, AmmoKind.AP):
                        if e.rounds.of(kind) and kind not in kinds:
                            probs.add(doc, (*where, "rounds"), f"{e.weapon!r} has no {kind.value} ammunition")
        out.append(
            VehicleWeapon(
                id=e.id,
                weapon=e.weapon,
                mount=e.mount,
                fired_by=e.fired_by,
                arcs=_wedges(e.arcs) or (),
                rounds=e.rounds,
            )
        )
    return tuple(out)


def _hit_tables(
    doc: DataFile, probs: Problems, raw: _VehicleFile, vt: dict[str, Any]
) -> tuple[tuple[Arc, tuple[HitLocation, ...]], ...]:
    tables: list[tuple[Arc, tuple[HitLocation, ...]]] = []
    roles = {p.role for p in vt["crew"]}
    hatched = {p.role for p in vt["crew"] if p.hatch}
    numbers = {p.number for p in vt["passengers"]}
    mounts = {w.id for w in vt["weapons"]}
    for aspect in Arc:
        if aspect not in raw.hit_locations:
            probs.add(doc, ("hit_locations",), f"no {aspect.value} hit location table (31.10.3)")
            continue
        rows: list[HitLocation] = []
        ranges: list[tuple[Rolls, DocPath]] = []
        for i, e in enumerate(raw.hit_locations[aspect]):
            where: DocPath = ("hit_locations", aspect.value, i)
            ranges.append((e.rolls, (*where, "rolls")))
            _check_hit(doc, probs, where, e, raw, roles, hatched, numbers, mounts)
            rows.append(
                HitLocation(
                    rolls=e.rolls,
                    location=e.location,
                    crew=e.crew,
                    passengers=e.passengers,
                    armor=e.armor,
                    glancing=e.glancing,
                    damage=e.damage,
                    mc=e.mc,
                    fmc=e.fmc,
                    note=e.note,
                )
            )
        if not ranges:
            probs.add(doc, ("hit_locations", aspect.value), f"the {aspect.value} table has no rows")
            continue
        _coverage(doc, probs, ranges, 0, 99, f"{aspect.value} hit locations", 2)
        tables.append((aspect, tuple(rows)))
    return tuple(tables)


def _check_hit(
    doc: DataFile,
    probs: Problems,
    where: DocPath,
    e: _HitEntry,
    raw: _VehicleFile,
    roles: set[Role | None],
    hatched: set[Role | None],
    numbers: set[int | None],
    mounts: set[MountId],
) -> None:
    loc = e.location
    if loc in _CREW_LOCATIONS:
        if e.crew is None:
            probs.add(doc, where, f"a {loc.value} hit names the crew position (crew: driver ...)")
        elif e.crew not in roles:
            probs.add(doc, (*where, "crew"), f"no {e.crew.value} position on this vehicle")
        elif loc is Location.HATCH and e.crew not in hatched:
            probs.add(doc, (*where, "crew"), f"the {e.crew.value} position has no hatch (31.8)")
    elif e.crew is not None:
        probs.add(doc, (*where, "crew"), f"a {loc.value} hit names no crew position")
    wanted = {Location.PASSENGER: 1, Location.BETWEEN_PASSENGERS: 2}.get(loc, 0)
    if len(e.passengers) != wanted:
        probs.add(
            doc, where, f"a {loc.value} hit names {wanted} passenger position(s), got {len(e.passengers)}"
        )
    for j, n in enumerate(e.passengers):
        if n not in numbers:
            probs.add(doc, (*where, "passengers", j), f"no passenger position {n} on this vehicle")
    if loc in DAMAGE_LOCATIONS and e.damage is None:
        probs.add(doc, where, f"a {loc.value} hit is rolled on a damage column: give damage")
    if loc not in DAMAGE_LOCATIONS and e.damage is not None:
        probs.add(doc, (*where, "damage"), f"a {loc.value} hit is resolved by 31.10.8, not a damage column")
    if e.damage is not None and e.damage not in raw.damage:
        probs.add(doc, (*where, "damage"), f"no damage column {e.damage!r} on this vehicle")
    if e.armor is not None and e.armor not in raw.armor:
        probs.add(doc, (*where, "armor"), f"no {e.armor.value} armor on this vehicle")
    if e.glancing and e.armor is None:
        probs.add(doc, (*where, "glancing"), "a glancing hit names the armor zone it glances off")
    if not raw.kind.is_armored and e.armor is not None:
        probs.add(doc, (*where, "armor"), f"a {raw.kind.value} has no armor (31.10.1-31.10.2)")
    if raw.kind.is_armored and e.damage is not None and e.armor is None:
        probs.add(doc, where, "hits on an armored vehicle need a penetration roll before damage: give armor")
    needs = {
        Location.COAXIAL_MG: MountId.COAXIAL_MG,
        Location.BOW_MG: MountId.BOW_MG,
        Location.GUN_BARREL: MountId.MAIN_GUN,
        Location.GUNNER_SIGHT: MountId.MAIN_GUN,
    }.get(loc)
    if needs is not None and needs not in mounts:
        probs.add(doc, (*where, "location"), f"a {loc.value} hit on a vehicle without a {needs.value}")
    if loc in (Location.TURRET, Location.TURRET_RING) and not raw.turret:
        probs.add(doc, (*where, "location"), f"a {loc.value} hit on a vehicle without a turret")
    if loc is Location.CUPOLA and raw.cupola is None:
        probs.add(doc, (*where, "location"), "a cupola hit on a vehicle without a cupola")
    _check_crew_checks(doc, probs, where, e.mc, e.fmc, roles, bool(numbers))


def _check_crew_checks(
    doc: DataFile,
    probs: Problems,
    where: DocPath,
    mc: tuple[CrewCheck, ...],
    fmc: tuple[CrewCheck, ...],
    roles: set[Role | None],
    has_passengers: bool,
) -> None:
    for key, checks in (("mc", mc), ("fmc", fmc)):
        for j, c in enumerate(checks):
            if c is CrewCheck.ALL:
                continue
            if c is CrewCheck.PASSENGERS:
                if not has_passengers:
                    probs.add(doc, (*where, key, j), "passengers check on a vehicle without passengers")
                continue
            if Role(c.value) not in roles:
                probs.add(doc, (*where, key, j), f"no {c.value} position on this vehicle")


def _damage_columns(
    doc: DataFile, probs: Problems, raw: _VehicleFile, roles: set[Role | None]
) -> tuple[DamageColumn, ...]:
    columns: list[DamageColumn] = []
    has_passengers = bool(raw.passengers)
    used = {e.damage for rows in raw.hit_locations.values() for e in rows if e.damage is not None}
    used |= {e.reroll for rows in raw.damage.values() for e in rows if e.reroll is not None}
    for cid, entries in raw.damage.items():
        if not SNAKE_ID.match(cid):
            probs.add(doc, ("damage", cid), f"damage column id {cid!r} must be snake_case", at_key=True)
        if cid not in used:
            probs.add(doc, ("damage", cid), f"damage column {cid!r} is never rolled on", at_key=True)
        ranges: list[tuple[Rolls, DocPath]] = []
        rows: list[DamageRow] = []
        for i, e in enumerate(entries):
            where: DocPath = ("damage", cid, i)
            ranges.append((e.d10, (*where, "d10")))
            for j, r in enumerate(e.kia):
                if r not in roles:
                    probs.add(doc, (*where, "kia", j), f"no {r.value} position on this vehicle")
            _check_crew_checks(doc, probs, where, e.mc, e.fmc, roles, has_passengers)
            if e.reroll is not None and (e.reroll == cid or e.reroll not in raw.damage):
                probs.add(doc, (*where, "reroll"), f"re-roll on {e.reroll!r}: not another damage column")
            if e.location is not None and e.location in DAMAGE_LOCATIONS:
                probs.add(
                    doc, (*where, "location"), f"{e.location.value!r} is not a 31.10.8 special location"
                )
            turret_effects = {DamageEffect.TURRET_FIRE, DamageEffect.TURRET_JAMMED}
            if not raw.turret and turret_effects.intersection(e.effects):
                probs.add(doc, (*where, "effects"), "a turret effect on a vehicle without a turret")
            rows.append(
                DamageRow(
                    rolls=e.d10,
                    kia=e.kia,
                    mc=e.mc,
                    fmc=e.fmc,
                    effects=e.effects,
                    location=e.location,
                    reroll=e.reroll,
                    note=e.note,
                )
            )
        if not ranges:
            probs.add(doc, ("damage", cid), f"damage column {cid!r} has no rows", at_key=True)
            continue
        before = len(probs.items)
        _coverage(doc, probs, ranges, 0, 9, f"damage column {cid!r}", 1)
        if len(probs.items) == before:
            columns.append(DamageColumn(cid, tuple(rows)))
    return tuple(columns)


def vehicle_type_from(doc: DataFile, weapons: WeaponTable | None = None) -> VehicleType:
    """Build a :class:`VehicleType` from one read vehicle file.

    Checks: snake_case id; crew roles once each, in activation order; hatches only on AFV
    crew, with open and closed LOS (a hatchless position gives one); passenger numbers 1-N;
    no passengers on AFVs (31.3); weapons fired by existing positions, known in ``weapons``
    (if given) with the ammunition carried; armor on Half-Tracks and AFVs only, glancing at
    least normal; Front, Side and Rear hit tables each covering 00-99 exactly once, every row
    naming existing positions, armor zones and damage columns; damage columns covering 0-9
    exactly once. Raises :class:`DataError` listing every problem (C2 31.0-31.10).
    """
    raw = structure(doc, _VehicleFile)
    probs = Problems()
    if not SNAKE_ID.match(raw.id):
        probs.add(doc, ("id",), f"vehicle id {raw.id!r} must be snake_case")
    if not raw.speeds:
        probs.add(doc, ("speeds",), "list the movement orders the vehicle may be given")
    if len(set(raw.speeds)) != len(raw.speeds):
        probs.add(doc, ("speeds",), "a speed is listed twice")
    if raw.kind is VehicleKind.AFV and not raw.crew:
        probs.add(doc, ("crew",), "an AFV has crew positions (31.3)")
    if raw.kind is not VehicleKind.AFV and raw.turret:
        probs.add(doc, ("turret",), "only AFVs have turrets (31.6)")
    crew, passengers, cupola = _positions(doc, probs, raw)
    if not any(p.role is Role.DRIVER for p in crew):
        probs.add(doc, ("crew",), "every vehicle has a driver position (31.3)")
    position_ids = {p.id for p in (*crew, *passengers)} | ({"cupola"} if cupola else set())
    vweapons = _vehicle_weapons(doc, probs, raw, position_ids, weapons)
    armor_values: list[ArmorValue] = []
    for zone, a in raw.armor.items():
        if a.normal < 0 or a.glancing < a.normal:
            probs.add(
                doc, ("armor", zone.value), f"{zone.value}: glancing {a.glancing} below normal {a.normal}"
            )
        if zone.value.startswith("turret") and not raw.turret:
            probs.add(
                doc, ("armor", zone.value), f"{zone.value} armor on a vehicle without a turret", at_key=True
            )
        armor_values.append(ArmorValue(zone, a.normal, a.glancing))
    if raw.kind.is_armored and not raw.armor:
        probs.add(doc, ("kind",), f"a {raw.kind.value} has armor (31.10.4): give armor")
    if not raw.kind.is_armored and raw.armor:
        probs.add(doc, ("armor",), f"a {raw.kind.value} has no armor (31.10.1-31.10.2)", at_key=True)
    parts = {"crew": crew, "passengers": passengers, "weapons": vweapons}
    hit_tables = _hit_tables(doc, probs, raw, parts)
    columns = _damage_columns(doc, probs, raw, {p.role for p in crew})
    probs.raise_if_any()
    return VehicleType(
        id=raw.id,
        name=raw.name,
        nation=raw.nation,
        kind=raw.kind,
        turret=raw.turret,
        speeds=raw.speeds,
        crew=crew,
        passengers=passengers,
        cupola=cupola,
        weapons=vweapons,
        armor_values=tuple(armor_values),
        hit_tables=hit_tables,
        damage_columns=columns,
        notes=raw.notes,
    )


def load_vehicle_type(path: Path | str, weapons: WeaponTable | None = None) -> VehicleType:
    """Load one vehicle file (``cards/vehicles/panzer_ivh.yaml``). Raises :class:`DataError`."""
    p = Path(path)
    return vehicle_type_from(datafile.read(p, display_name(p)), weapons)


def load_vehicle_types(
    directory: Path | str | None = None, *, weapons: WeaponTable | None = None
) -> VehicleTypes:
    """Load every ``*.yaml`` of ``directory`` (``None``: the shipped ``cards/vehicles/``).

    Each file holds one type whose ``id`` is the file name without ``.yaml``. ``weapons``
    (the card set's weapons chart) checks the weapon ids, kinds and ammunition; ``None``
    skips that check. Raises one :class:`DataError` with the problems of every file (C2 31.0).
    """
    d = cards_dir() / VEHICLES_DIR if directory is None else Path(directory)
    if not d.is_dir():
        raise DataError([Problem(str(d), None, "no such vehicles directory")])
    problems: list[Problem] = []
    types: list[VehicleType] = []
    for f in sorted(d.glob("*.yaml")):
        try:
            doc = datafile.read(f, display_name(f))
            vt = vehicle_type_from(doc, weapons)
        except DataError as exc:
            problems.extend(exc.problems)
            continue
        if vt.id != f.stem:
            problems.append(doc.problem(("id",), f"vehicle id {vt.id!r} must match the file name {f.stem!r}"))
        types.append(vt)
    if not types and not problems:
        problems.append(Problem(display_name(d), None, "no vehicle types (*.yaml) in this directory"))
    if problems:
        raise DataError(problems)
    return VehicleTypes(tuple(types))


# ---------------------------------------------------------------------------
# Vehicle types: lookups


def hit_location(vtype: VehicleType, aspect: Arc | str, percent_roll: int) -> HitLocation:
    """The hit location for a %D reading ``percent_roll`` (00-99) on ``aspect`` (C2 31.10.3).

    ``aspect`` is the :class:`~solo.core.hexes.Arc` the fire comes from (``arc_of``).
    Raises :class:`ValueError` for a reading outside 0-99 or an unknown aspect.
    """
    if isinstance(percent_roll, bool) or not isinstance(percent_roll, int) or not 0 <= percent_roll <= 99:
        raise ValueError(f"a %D reading is 0-99, got {percent_roll!r}")
    return vtype._hits[Arc(aspect)][percent_roll]


def damage(vtype: VehicleType, location: str | Location, d10: int) -> DamageRow:
    """The damage row for d10 face ``d10`` (0-9) in column ``location`` (``"lower_hull"``) (C2 31.10.8).

    Raises :class:`KeyError` for a column the vehicle lacks, :class:`ValueError` for a face
    outside 0-9.
    """
    key = location.value if isinstance(location, Location) else location
    return vtype.column(key).row(d10)


def armor(vtype: VehicleType, zone: ArmorZone | str, glancing: bool = False) -> int:
    """The armor value of ``zone``, the Glancing Blow value if ``glancing`` (C2 31.10.4-31.10.5).

    The Penetration Number must exceed it. Raises :class:`KeyError` if the vehicle has no
    armor there (Jeeps and Trucks have none).
    """
    z = ArmorZone(zone)
    try:
        value = vtype._armor[z]
    except KeyError:
        raise KeyError(f"{vtype.id} has no {z.value} armor") from None
    return value.glancing if glancing else value.normal


def position_sees(
    vtype: VehicleType,
    position: str | Role,
    hatch_state: HatchState | None,
    relative_wedge: int,
    turret_relative_wedge: int | None = None,
) -> bool:
    """Whether ``position`` has LOS into a wedge (C2 31.7.1-31.7.3).

    ``relative_wedge`` is the wedge 0-5 holding the target relative to the hull facing;
    ``turret_relative_wedge`` relative to the turret facing (``None``: the turret faces
    ahead). ``hatch_state`` ``None`` means the fixed state of a hatchless position. For a
    target on a hexspine ask for both wedges. Raises :class:`KeyError` for an unknown
    position, :class:`ValueError` for a wedge outside 0-5 or a state the position cannot be in.
    """
    pos = vtype.position(position)
    wedge = relative_wedge
    if pos.frame is Frame.TURRET and turret_relative_wedge is not None:
        wedge = turret_relative_wedge
    for w in (relative_wedge, turret_relative_wedge):
        if w is not None and (isinstance(w, bool) or not isinstance(w, int) or not 0 <= w <= 5):
            raise ValueError(f"a relative wedge is 0-5, got {w!r}")
    return wedge in pos.sight(hatch_state)


# ---------------------------------------------------------------------------
# The Vehicle Order Matrix


@attrs.frozen
class VomCell:
    """One VOM cell: an order id, its direction string (Driver moves) and the weapon fired."""

    rows: Rolls
    """The matrix rows (modified numbers) that give this cell, for the log."""
    order: str
    """An order id of ``orders.yaml``."""
    directions: DirectionString | None
    weapon: MountId | None
    """The vehicle weapon a fire order uses (``bow_mg``); ``None``: the crewman's own weapon."""

    def __str__(self) -> str:
        parts = [self.order]
        if self.directions is not None:
            parts.append(str(self.directions))
        if self.weapon is not None:
            parts.append(self.weapon.value)
        return " ".join(parts)


@attrs.frozen
class Vom:
    """The Vehicle Order Matrix (C2 31.11.3): per role and column, 100 rows of orders."""

    morale_modifiers: tuple[tuple[MoraleState, int], ...]
    """Added to the card's initiative number before reading a row [house]."""
    columns: tuple[tuple[Role, VomColumn, tuple[VomCell, ...]], ...]
    """The cells of each (role, column), as written (rows ascending)."""
    role_orders: tuple[tuple[Role, tuple[str, ...]], ...]
    """The orders each role may be given."""
    _tables: dict[tuple[Role, VomColumn], tuple[VomCell, ...]] = attrs.field(init=False, eq=False, repr=False)
    _modifiers: dict[MoraleState, int] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        tables: dict[tuple[Role, VomColumn], tuple[VomCell, ...]] = {}
        for role, column, cells in self.columns:
            table: list[VomCell | None] = [None] * 100
            for cell in cells:
                for r in range(max(cell.rows.first, 0), min(cell.rows.last, 99) + 1):
                    table[r] = cell
            if any(c is None for c in table):
                raise ValueError(f"VOM {role.value} {column.value} does not cover 00-99")
            tables[(role, column)] = tuple(table)  # type: ignore[arg-type]
        object.__setattr__(self, "_tables", tables)
        object.__setattr__(self, "_modifiers", dict(self.morale_modifiers))

    def has_column(self, role: Role | str, column: VomColumn | str) -> bool:
        """True if ``role`` has ``column``."""
        return (Role(role), VomColumn(column)) in self._tables

    def morale_modifier(self, morale: MoraleState | str) -> int:
        """The house modifier for ``morale`` (added to the initiative number)."""
        return self._modifiers[MoraleState(morale)]

    def order_ids(self) -> tuple[str, ...]:
        """Every order id the matrix names, sorted (for cross-checks with ``orders.yaml``)."""
        return tuple(sorted({o for _r, orders in self.role_orders for o in orders}))


def modified_number(vom: Vom, number: int, morale: MoraleState | str | None) -> int:
    """The card's initiative ``number`` (0-99) plus the morale modifier, clamped to 0-99 [house].

    ``None`` morale adds nothing. Raises :class:`ValueError` for a number outside 0-99
    (C2 31.11.3 "modify this by the Morale state").
    """
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 99:
        raise ValueError(f"an initiative number is 0-99, got {number!r}")
    if morale is None:
        return number
    modifier = vom._modifiers.get(morale)  # type: ignore[call-overload]  # fast path: a member
    if modifier is None:
        modifier = vom.morale_modifier(morale)
    return min(99, max(0, number + modifier))


def vom_column(kind: VehicleKind | str, *, target: bool, hatch_open: bool) -> VomColumn:
    """The VOM column for a crewman (C2 31.11.3).

    AFVs: Target or No Target × BU (hatch closed, or no hatch inside the armor) or OPEN;
    Half-Tracks: their OPEN columns (no hatches); Trucks and Jeeps: the Truck column
    [house for Jeeps]. ``target``: the crewman's or the Commander's Target Marker is on the
    board (for Drivers and Loaders: any other crewman's, 31.7.3).
    """
    k = VehicleKind(kind)
    if k is VehicleKind.AFV:
        if target:
            return VomColumn.TARGET_OPEN if hatch_open else VomColumn.TARGET_BU
        return VomColumn.NO_TARGET_OPEN if hatch_open else VomColumn.NO_TARGET_BU
    if k is VehicleKind.HALF_TRACK:
        return VomColumn.HALF_TRACK_TARGET if target else VomColumn.HALF_TRACK_NO_TARGET
    return VomColumn.TRUCK


def vom_order(
    vom: Vom,
    role: Role | str,
    column: VomColumn | str,
    number: int,
    *,
    morale: MoraleState | str | None = None,
) -> VomCell:
    """The VOM cell for ``role`` in ``column`` at initiative ``number`` (0-99) (C2 31.11.3).

    With ``morale`` the number is first modified by the house morale modifier and clamped
    (:func:`modified_number`); the cell's ``rows`` show which row was read. Overrides (Rout,
    Commander Bail Out, closed hatches, jammed hatches...) are the engine's. Raises
    :class:`KeyError` if the role has no such column, :class:`ValueError` for a number
    outside 0-99.
    """
    n = modified_number(vom, number, morale)
    table = vom._tables.get((role, column))  # type: ignore[arg-type]  # fast path: enum members
    if table is None:
        key = (Role(role), VomColumn(column))
        table = vom._tables.get(key)
        if table is None:
            raise KeyError(f"the VOM has no {key[1].value} column for the {key[0].value}")
    return table[n]


@attrs.frozen
class _VomRoleEntry:
    orders: tuple[str, ...]
    columns: dict[VomColumn, dict[Any, Any]]


@attrs.frozen
class _VomFile:
    morale_modifiers: dict[MoraleState, int]
    directed_orders: tuple[str, ...]
    fire_orders: tuple[str, ...]
    roles: dict[Role, _VomRoleEntry]
    edition: str = "house"


def _vom_cell(
    doc: DataFile,
    probs: Problems,
    path: DocPath,
    rows: Rolls,
    text: Any,
    allowed: tuple[str, ...],
    raw: _VomFile,
) -> VomCell | None:
    if not isinstance(text, str) or not text.split():
        probs.add(doc, path, f"expected an order like 'spot' or 'crawl 1', got {describe(text)}")
        return None
    order, *rest = text.split()
    directions: DirectionString | None = None
    weapon: MountId | None = None
    ok = True
    for token in rest:
        if token in MountId._value2member_map_:
            if weapon is not None:
                probs.add(doc, path, f"{text!r}: two weapons")
                ok = False
            weapon = MountId(token)
            continue
        try:
            d = DirectionString.parse(token)
        except ValueError as exc:
            probs.add(doc, path, f"{text!r}: {token!r} is neither a direction string nor a weapon ({exc})")
            ok = False
            continue
        if directions is not None:
            probs.add(doc, path, f"{text!r}: two direction strings")
            ok = False
        directions = d
    if order not in allowed:
        probs.add(doc, path, f"order {order!r} is not in this role's orders ({', '.join(allowed)})")
        ok = False
    if order in raw.directed_orders and directions is None and ok:
        probs.add(doc, path, f"{text!r}: {order!r} needs a direction string (e.g. '{order} 6/5')")
        ok = False
    if order not in raw.directed_orders and directions is not None:
        probs.add(doc, path, f"{text!r}: only movement orders take a direction string")
        ok = False
    if weapon is not None and order not in raw.fire_orders:
        probs.add(doc, path, f"{text!r}: only fire orders ({', '.join(raw.fire_orders)}) name a weapon")
        ok = False
    return VomCell(rows, order, directions, weapon) if ok else None


def vom_from(doc: DataFile, order_ids: Collection[str] | None = None) -> Vom:
    """Build the :class:`Vom` from a read ``vehicle_order_matrix.yaml``.

    Checks: a modifier for every Morale State; each role's orders known (against
    ``order_ids`` if given) and every cell one of them, with a direction string exactly on
    movement orders and a weapon only on fire orders; the required columns per role
    (:data:`REQUIRED_VOM_COLUMNS`); every column covering 00-99 exactly once (gaps and
    overlaps named with their lines). Raises :class:`DataError` listing every problem
    (C2 31.11.3).
    """
    raw = structure(doc, _VomFile)
    probs = Problems()
    for state in MoraleState:
        if state not in raw.morale_modifiers:
            probs.add(doc, ("morale_modifiers",), f"no modifier for morale state {state.value!r}")
    for state, mod in raw.morale_modifiers.items():
        if not -99 <= mod <= 99:
            probs.add(doc, ("morale_modifiers", state.value), f"modifier {mod} outside -99..99")
    known = set(order_ids) if order_ids is not None else None
    for key in ("directed_orders", "fire_orders"):
        for j, o in enumerate(getattr(raw, key)):
            if known is not None and o not in known:
                probs.add(doc, (key, j), f"unknown order {o!r} (not in orders.yaml)")
    columns: list[tuple[Role, VomColumn, tuple[VomCell, ...]]] = []
    role_orders: list[tuple[Role, tuple[str, ...]]] = []
    for role in CREW_ACTIVATION_ORDER:
        entry = raw.roles.get(role)
        if entry is None:
            probs.add(doc, ("roles",), f"no VOM entry for the {role.value}")
            continue
        role_orders.append((role, entry.orders))
        for j, o in enumerate(entry.orders):
            if not SNAKE_ID.match(o):
                probs.add(doc, ("roles", role.value, "orders", j), f"order id {o!r} must be snake_case")
            elif known is not None and o not in known:
                probs.add(
                    doc, ("roles", role.value, "orders", j), f"unknown order {o!r} (not in orders.yaml)"
                )
        for column in REQUIRED_VOM_COLUMNS[role]:
            if column not in entry.columns:
                probs.add(
                    doc, ("roles", role.value, "columns"), f"the {role.value} has no {column.value} column"
                )
        for column, rows in entry.columns.items():
            cpath: DocPath = ("roles", role.value, "columns", column.value)
            if not isinstance(rows, dict) or not rows:
                probs.add(doc, cpath, "expected rows like '00-09: spot'")
                continue
            cells: list[VomCell] = []
            ranges: list[tuple[Rolls, DocPath]] = []
            for key, text in rows.items():
                path = (*cpath, key)
                try:
                    rolls = Rolls.parse(key)
                except ValueError as exc:
                    probs.add(doc, path, str(exc), at_key=True)
                    continue
                ranges.append((rolls, path))
                cell = _vom_cell(doc, probs, path, rolls, text, entry.orders, raw)
                if column in _BU_COLUMNS and cell is not None and cell.order == "duck_back":
                    probs.add(
                        doc, path, "a crewman with a closed hatch Panics rather than Ducks Back (31.11.2)"
                    )
                if column not in _BU_COLUMNS and cell is not None and cell.order == "panic":
                    probs.add(
                        doc, path, "a crewman with an open hatch Ducks Back rather than Panics (31.11.2)"
                    )
                if cell is not None:
                    cells.append(cell)
            if not ranges:
                continue
            before = len(probs.items)
            _coverage(doc, probs, ranges, 0, 99, f"{role.value} {column.value}", 2)
            if len(probs.items) == before and len(cells) == len(ranges):
                cells.sort(key=lambda c: c.rows.first)
                columns.append((role, column, tuple(cells)))
    probs.raise_if_any()
    modifiers = tuple((s, raw.morale_modifiers[s]) for s in MoraleState)
    return Vom(modifiers, tuple(columns), tuple(role_orders))


def load_vom(path: Path | str | None = None, *, order_ids: Collection[str] | None = None) -> Vom:
    """Load ``vehicle_order_matrix.yaml`` (``None``: the shipped file) (C2 31.11.3).

    ``order_ids``: the known order ids (of ``orders.yaml``); ``None`` skips that check.
    Raises :class:`DataError` with every problem.
    """
    return vom_from(read_card_file(path, VOM_FILE), order_ids)


# ---------------------------------------------------------------------------
# Crew counters (31.3)


@attrs.frozen
class CrewWeapon:
    """A crewman's own weapon (usually a pistol, 31.9.4 a) and his WS with it."""

    weapon: str
    ws: int


@attrs.frozen
class CrewCounter:
    """An AFV crew counter (C2 31.3): drawn at random for its position."""

    id: str
    name: str
    nation: Nation
    role: Role
    tq: int
    ldr: int
    """Leadership; Commanders only (modifies the crew's MCs, 31.10.9)."""
    morale: MoraleState
    """The Morale State the counter starts in."""
    weapons: tuple[CrewWeapon, ...]


@attrs.frozen
class Crews:
    """The crew counter pools, by nation and role."""

    counters: tuple[CrewCounter, ...]
    _by_id: dict[str, CrewCounter] = attrs.field(init=False, eq=False, repr=False)
    _pools: dict[tuple[Nation, Role], tuple[CrewCounter, ...]] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.counters})
        pools: dict[tuple[Nation, Role], list[CrewCounter]] = {}
        for c in self.counters:
            pools.setdefault((c.nation, c.role), []).append(c)
        object.__setattr__(self, "_pools", {k: tuple(v) for k, v in pools.items()})

    def pool(self, nation: Nation | str, role: Role | str) -> tuple[CrewCounter, ...]:
        """The counters to draw from for ``role`` of a ``nation`` AFV, in file order (31.3).

        Raises :class:`KeyError` if there are none.
        """
        key = (Nation(nation), Role(role))
        try:
            return self._pools[key]
        except KeyError:
            raise KeyError(f"no {key[0].value} {key[1].value} crew counters") from None

    def get(self, counter_id: str) -> CrewCounter:
        """The counter ``counter_id``. Raises :class:`KeyError`."""
        try:
            return self._by_id[counter_id]
        except KeyError:
            raise KeyError(f"unknown crew counter {counter_id!r}") from None

    def __iter__(self) -> Iterator[CrewCounter]:
        return iter(self.counters)

    def __len__(self) -> int:
        return len(self.counters)


@attrs.frozen
class _CrewEntry:
    id: str
    name: str
    tq: int
    ldr: int = 0
    morale: MoraleState = MoraleState.NORMAL
    weapons: tuple[CrewWeapon, ...] = ()
    note: str = ""


@attrs.frozen
class _CrewsFile:
    crews: dict[Nation, dict[Role, tuple[_CrewEntry, ...]]]
    edition: str = "house"


def crews_from(doc: DataFile, weapon_ids: Collection[str] | None = None) -> Crews:
    """Build :class:`Crews` from a read ``crews.yaml``.

    Checks: snake_case ids unique in the file; TQ 1-9; LDR 0-9 and only on Commanders; a
    starting morale better than Rout; WS 0-9 with weapons known (against ``weapon_ids`` if
    given); every nation given has a pool for every role. Raises :class:`DataError` (C2 31.3).
    """
    raw = structure(doc, _CrewsFile)
    probs = Problems()
    check_unique(
        probs,
        doc,
        [
            (("crews", nation.value, role.value, i, "id"), e.id)
            for nation, pools in raw.crews.items()
            for role, entries in pools.items()
            for i, e in enumerate(entries)
        ],
        "duplicate counter id {id!r} (also {first[1]} {first[2]})",
    )
    counters: list[CrewCounter] = []
    known = set(weapon_ids) if weapon_ids is not None else None
    for nation, pools in raw.crews.items():
        for role in Role:
            if not pools.get(role):
                probs.add(doc, ("crews", nation.value), f"no {nation.value} {role.value} counters (31.3)")
        for role, entries in pools.items():
            for i, e in enumerate(entries):
                where: DocPath = ("crews", nation.value, role.value, i)
                if not SNAKE_ID.match(e.id):
                    probs.add(doc, (*where, "id"), f"counter id {e.id!r} must be snake_case")
                if not 1 <= e.tq <= 9:
                    probs.add(doc, (*where, "tq"), f"TQ {e.tq} outside 1-9")
                if not 0 <= e.ldr <= 9:
                    probs.add(doc, (*where, "ldr"), f"LDR {e.ldr} outside 0-9")
                if e.ldr and role is not Role.COMMANDER:
                    probs.add(doc, (*where, "ldr"), "only Commanders have a Leadership value (31.1)")
                if e.morale is MoraleState.ROUT:
                    probs.add(doc, (*where, "morale"), "a crew counter does not start in Rout")
                for j, w in enumerate(e.weapons):
                    if not 0 <= w.ws <= 9:
                        probs.add(doc, (*where, "weapons", j, "ws"), f"WS {w.ws} outside 0-9")
                    if known is not None and w.weapon not in known:
                        probs.add(doc, (*where, "weapons", j, "weapon"), f"unknown weapon {w.weapon!r}")
                counters.append(CrewCounter(e.id, e.name, nation, role, e.tq, e.ldr, e.morale, e.weapons))
    probs.raise_if_any()
    return Crews(tuple(counters))


def load_crews(path: Path | str | None = None, *, weapon_ids: Collection[str] | None = None) -> Crews:
    """Load ``crews.yaml`` (``None``: the shipped file) (C2 31.3).

    ``weapon_ids``: the known weapon ids; ``None`` skips that check. Raises :class:`DataError`.
    """
    return crews_from(read_card_file(path, CREWS_FILE), weapon_ids)
