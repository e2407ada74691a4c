"""Vehicle types as data (C2 31.0-31.10): :class:`VehicleTypes` of :class:`VehicleType`, one per file.

A type (``cards/vehicles/*.yaml``) has its kind, crew and passenger positions with hatches and LOS
arcs (31.7.1-31.7.3, 31.8), weapons and where they are mounted (31.9), armor by zone with
glancing values (31.10.4-31.10.5), hit location tables by aspect (%D, 31.10.3), d10 damage tables
(31.10.8), speeds and rounds; and the closed sets they are written in (roles, hatch states, hit
locations, damage effects...). Lookups are pure functions over tables built with the type:
:func:`hit_location`, :func:`damage`, :func:`armor`, :func:`position_sees`. No game rule is
applied here. Reading and checking the files is :mod:`solo.data.vehicle_type_files`; the
Vehicle Order Matrix is :mod:`solo.data.vom`, the AFV crew counters :mod:`solo.data.crew_counters`.

Conventions: d10 faces are 0-9, %D readings 00-99.
Arcs are *relative wedges* 0-5 counted clockwise from a facing (the vehicle's hull or its
turret): Front = wedge 0, right side = wedges 1-2, Rear = wedge 3, left side = wedges 4-5,
as :data:`solo.core.hexes.HOUSE_ARCS` (``(direction - facing) % 6``).

May import: :mod:`solo.core`, :mod:`solo.data.weapons`, :mod:`solo.data.roll_ranges`.
"""

from __future__ import annotations

import enum
from typing import ClassVar

import attrs

from solo.core.bounds import ARMOUR, COUNT, COUNTER, DIRECTION
from solo.core.catalog import Catalog
from solo.core.hexes import Arc
from solo.data.roll_ranges import Rolls
from solo.data.weapons import AmmoKind, Nation, WeaponKind

__all__ = [
    "CREW_ACTIVATION_ORDER",
    "DAMAGE_LOCATIONS",
    "ArcName",
    "ArmorValue",
    "ArmorZone",
    "CrewCheck",
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
    "Rounds",
    "Speed",
    "VehicleKind",
    "VehicleType",
    "VehicleTypes",
    "VehicleWeapon",
    "armor",
    "damage",
    "hit_location",
    "position_sees",
]


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

    @property
    def is_wheeled(self) -> bool:
        """Jeeps and Trucks: they use ``wheeled_passable`` and treat Trees as impassable (C2 31.5)."""
        return self in (VehicleKind.JEEP, VehicleKind.TRUCK)


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


# ---------------------------------------------------------------------------
# Models


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
    number: COUNTER | None
    """The passenger number (odd on the left, even on the right; 2k-1 and 2k share row k)."""
    hatch: bool
    """The position has a hatch (AFV crew except tank Gunners, 31.8)."""
    frame: Frame
    los_open: tuple[DIRECTION, ...] | None
    """LOS wedges with the hatch open (or, without a hatch, of an exposed position)."""
    los_closed: tuple[DIRECTION, ...] | None
    """LOS wedges with the hatch closed (or, without a hatch, of a position inside the armor)."""
    exposed_from: tuple[DIRECTION, ...]
    """Hull wedges from which small arms may fire at the occupant with an open hatch (31.10.31)."""
    fire_arcs: tuple[DIRECTION, ...]
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

    he: COUNT = 0
    ap: COUNT = 0

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
    arcs: tuple[DIRECTION, ...]
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
    normal: ARMOUR
    glancing: ARMOUR


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
    passengers: tuple[COUNTER, ...]
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
            full = tuple(t for t in table if t is not None)
            if len(full) != len(table):
                raise ValueError(f"{self.id}: the {aspect.value} hit location table does not cover 00-99")
            hits[aspect] = full
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
# Lookups


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
