"""The shape of a vehicle's move (C2 31.4-31.5): where it stands and faces, each step it takes, why it
stops, the report of an Impulse's move.

May import: the rooms below rules."""

from __future__ import annotations

import enum

import attrs

from solo.core.chance_records import ChanceRecord
from solo.core.hexes import Direction, Hex, check_direction
from solo.data.cards import DirectionString


@attrs.frozen
class VehicleMoveState:
    """Where a vehicle is and which way its hull and turret face (C2 31.4, 31.6).

    ``facing`` and ``turret`` are map directions 1-6; a vehicle without a turret keeps
    ``turret == facing``. Raises :class:`~solo.core.errors.GeometryError` for a direction
    outside 1-6.
    """

    hex: Hex
    facing: Direction
    turret: Direction

    def __attrs_post_init__(self) -> None:
        check_direction(self.facing)
        check_direction(self.turret)

    @classmethod
    def at(cls, hex_: Hex | str, facing: Direction, turret: Direction | None = None) -> VehicleMoveState:
        """A state in ``hex_`` (a :class:`Hex` or ``"CC.RR"``); the turret faces the hull if not given."""
        h = Hex.parse(hex_) if isinstance(hex_, str) else hex_
        return cls(h, facing, facing if turret is None else turret)


class StepKind(enum.Enum):
    """What one step of a vehicle's Impulse did."""

    FREE_TURN = "free_turn"
    """The one free hexside change at the start of the Impulse (31.4)."""
    PAID_TURN = "paid_turn"
    """One hexside turn paid with a movement point (31.4, 31.5)."""
    MOVE = "move"
    """One hex forward (or back, in Reverse), paid with a movement point."""
    IDLE = "idle"
    """A movement point that could do nothing (31.5: already facing the way to go later)."""
    ORDER_CHANGE = "order_change"
    """The Driver's order changed: Crawl after Trees or the 31.5 table."""
    STOP = "stop"
    """Movement ends for this Impulse (:class:`StopReason`)."""
    TURRET_TURN = "turret_turn"
    """The turret turned one hexside (31.6)."""


class StopReason(enum.Enum):
    """Why a vehicle stopped before spending all its points."""

    EMERGENCY_STOP = "emergency_stop"
    """The Driver has an Emergency Stop order (31.2)."""
    IMPASSABLE = "impassable"
    """A Friendly order required an impassable hex: Emergency Stop (31.5, 31.11.2)."""
    TREES = "trees"
    """An AFV or Half-Track entered Trees: Crawl, no further movement (31.5 note)."""
    ON_ENTER = "on_enter"
    """The caller's ``on_enter`` check stopped it (mines, barbed wire, a Friendly's choice)."""
    BOXED_IN = "boxed_in"
    """No result of the 31.5 table allows movement: Emergency Stop [house]."""
    ROAD_ENDS = "road_ends"
    """Under Road Orders, no road ahead within 2 hexsides [house]."""


@attrs.frozen
class MoveStep:
    """One step of a vehicle's Impulse, with where it left the vehicle and why."""

    kind: StepKind
    hex: Hex
    """The vehicle's hex after the step."""
    facing: Direction
    """The hull facing after the step (the turret's for :attr:`StepKind.TURRET_TURN`)."""
    text: str
    """A plain sentence for the log ("free turn 6→5 toward direction 5")."""
    rule: str
    """The rule applied ("C2 31.4")."""
    point: int | None = None
    """1-based movement point of the Impulse spent by this step; ``None`` if none was."""
    required: Direction | None = None
    """The direction the point had to move in, if any."""
    reason: StopReason | None = None
    """For :attr:`StepKind.STOP`: why."""
    rolls: tuple[ChanceRecord, ...] = ()
    """The dice records made for this step (180° turns, the 31.5 table, road forks)."""


@attrs.frozen
class MoveReport:
    """Everything one Impulse of a Driver's speed order did (C2 31.4-31.5)."""

    impulse: int
    start: VehicleMoveState
    end: VehicleMoveState
    order_id: str
    """The Driver's order after the Impulse: the same, ``crawl`` (Trees, 31.5 table) or
    ``emergency_stop``."""
    directions: DirectionString | None
    """The order's directions after the Impulse (changed by the 31.5 table); ``None``
    under Road Orders."""
    road: bool
    """Whether the vehicle is still under Road Orders (31.11.1)."""
    steps: tuple[MoveStep, ...]

    @property
    def hexes_moved(self) -> int:
        """Hexes entered this Impulse (for 31.11.2 Emergency Stop crew checks)."""
        return sum(1 for s in self.steps if s.kind is StepKind.MOVE)

    @property
    def rolls(self) -> tuple[ChanceRecord, ...]:
        """Every dice record of the Impulse, in order."""
        return tuple(r for s in self.steps for r in s.rolls)

    @property
    def stop(self) -> StopReason | None:
        """Why movement stopped early, or ``None``."""
        return next((s.reason for s in self.steps if s.kind is StepKind.STOP), None)

    @property
    def order_changed(self) -> bool:
        """Whether the Driver's order or its directions changed."""
        return any(s.kind is StepKind.ORDER_CHANGE for s in self.steps) or self.order_id == "emergency_stop"
