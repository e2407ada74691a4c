"""Vehicles in a game: their mutable state and the crews in them (Combat!2 31).

A :class:`Vehicle` stands on a hex with a hull facing and, for AFVs, a turret
facing; its display has :class:`Seat` s (crew positions and passenger
positions, named as in ``cards/vehicles/*.yaml``: ``commander``, ``driver``,
``gunner``, ``loader``, ``co_driver``, ``passenger_N``, ``cupola``). Each seat
holds at most one character (a :class:`~solo.rules.state.Character` whose
``vehicle`` and ``seat`` name it), its hatch state, and the occupant's Target
Marker hex (31.7.3). Crew and passengers stand on the vehicle's hex.

Vehicles live in ``GameState.vehicles`` (insertion order = scenario order); a
vehicle is also a team on the Initiative Track whose members are its crew in
the order Commander / Driver / Gunner / Loader / Co-driver (31.1).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

import attrs

from solo.core.errors import NotPlacedError
from solo.core.hexes import Direction, Hex
from solo.rules.state import Side

if TYPE_CHECKING:
    from solo.rules.state import Character, GameState

CREW_ORDER: tuple[str, ...] = ("commander", "driver", "gunner", "loader", "co_driver")
"""The order crews activate and receive orders in (C2 31.1, 31.11.3)."""


class Hatch(enum.Enum):
    """A seat's hatch (C2 31.8, 31.10.8): open, closed, jammed either way, or none."""

    OPEN = "open"
    CLOSED = "closed"
    JAMMED_OPEN = "jammed_open"
    """Destroyed open: can never be closed."""
    JAMMED_CLOSED = "jammed_closed"
    """Destroyed closed: can never be opened; the occupant must relocate to bail out."""
    NONE = "none"
    """No hatch (tank Gunner; jeep, truck and half-track positions)."""

    @property
    def is_open(self) -> bool:
        """Open for LOS, spotting and exposure (31.7.3, 31.8)."""
        return self in (Hatch.OPEN, Hatch.JAMMED_OPEN)

    @property
    def is_jammed(self) -> bool:
        return self in (Hatch.JAMMED_OPEN, Hatch.JAMMED_CLOSED)


@attrs.define
class Seat:
    """One position of a vehicle display."""

    position: str
    occupant: str | None = None
    """The character id in this seat, or None."""
    hatch: Hatch = Hatch.NONE
    marker: Hex | None = None
    """The occupant's Target Marker, on the map (31.7.3), or None."""
    marker_priority: int | None = None
    """The 31.7.4 priority (1 highest … 4) the marker was placed for, when known."""
    kia: bool = False
    """A KIA marker lies in the seat (31.10.8)."""


class Ammo(enum.Enum):
    """Main-gun rounds (C2 31.9.4)."""

    HE = "he"
    AP = "ap"


@attrs.define
class Vehicle:
    """One vehicle on the map (C2 31)."""

    id: str
    type: str
    """Vehicle type id (``cards/vehicles/<type>.yaml``)."""
    name: str
    side: Side
    hex: Hex | None
    facing: Direction
    turret: Direction | None = None
    """Turret facing for AFVs (31.6); None for vehicles without a turret."""
    seats: dict[str, Seat] = attrs.field(factory=dict)
    """Seats by position id, in display order."""
    loaded: Ammo | None = None
    """The round in the main gun (the Loaded marker), or None."""
    rounds: dict[str, int] = attrs.field(factory=dict)
    """Main-gun rounds left by kind (``{"he": 20, "ap": 30}``)."""
    damage: list[str] = attrs.field(factory=list)
    """Damage markers on the display (31.10.8): ``"immobilized"``, ``"turret_jammed"``..."""
    on_fire: bool = False
    destroyed: bool = False
    abandoned: bool = False
    road_orders: bool = False
    """Under Road Movement Orders (31.11.1)."""
    mired: bool = False
    """A Jeep or Truck stuck in Mud (C2 28.2)."""
    moved_this_impulse: int = 0
    """Hexes moved in the current Impulse (Emergency Stop checks, 31.11.2)."""
    acted: dict[str, Any] = attrs.field(factory=dict)
    """Per-turn scratch (cleared in the End Phase)."""

    @property
    def immobilized(self) -> bool:
        return "immobilized" in self.damage or self.mired or self.destroyed

    @property
    def is_active(self) -> bool:
        """On the map and neither destroyed nor abandoned."""
        return self.hex is not None and not self.destroyed and not self.abandoned

    @property
    def on_hex(self) -> Hex:
        """The hex of a vehicle on the map (every active one, :attr:`is_active`).
        Raises :class:`~solo.core.errors.NotPlacedError` if it has none."""
        h = self.hex
        if h is None:
            raise NotPlacedError(f"{self.name} ({self.id}) is not on a hex")
        return h

    def seat_of(self, character_id: str) -> Seat | None:
        """The seat ``character_id`` sits in, or None."""
        for seat in self.seats.values():
            if seat.occupant == character_id:
                return seat
        return None

    def crew_ids(self) -> list[str]:
        """Occupants of the crew seats, Commander first (31.1)."""
        return [o for p in CREW_ORDER if p in self.seats and (o := self.seats[p].occupant)]

    def passenger_ids(self) -> list[str]:
        """Occupants of the passenger seats (and cupola), by position."""
        return [s.occupant for p, s in self.seats.items() if p not in CREW_ORDER and s.occupant]

    def markers(self) -> list[tuple[str, Hex]]:
        """(position, hex) of every Target Marker on the board."""
        return [(p, s.marker) for p, s in self.seats.items() if s.marker is not None]


def vehicles_of(state: GameState) -> dict[str, Vehicle]:
    """``state.vehicles`` (an empty dict for states without vehicles)."""
    return getattr(state, "vehicles", {}) or {}


def vehicle_of(state: GameState, ch: Character) -> Vehicle | None:
    """The vehicle ``ch`` rides in, or None."""
    vid = getattr(ch, "vehicle", None)
    return vehicles_of(state).get(vid) if vid else None
