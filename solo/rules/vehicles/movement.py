"""Vehicle movement and facing: one Impulse of a Driver's speed order, hull and turret turns.

A pure module (no game state, no events, no I/O): the engine hands in the board, the
vehicle's :class:`VehicleMoveState` (hex, hull facing, turret facing), the Driver's speed
:class:`~solo.data.orders.Order` and :class:`~solo.data.cards.DirectionString` (already read through the
Direction Counter: map directions), and gets back the new state and a :class:`MoveReport`
whose steps explain every free turn, paid turn, move, order change and stop, with the
rule and any die rolled. Rules: C2 31.4 (facing and movement), 31.5 (impassable terrain,
trees, the Enemy Alternate Movement Direction Table), 31.6 (turrets), 31.2 / 31.11.2
(Emergency Stop), 31.11.1 (Road Movement), 28.1-28.2 (weather and ground).

**How the direction slots are read** (C2 31.4, movement examples 1 and 2). A speed
order gives per Impulse a list of direction slots (:meth:`Order.slots`), one per
*movement point*; Ahead Slow is I1 [A], I2 [B], I3 [A, B], I4 [B, B]. For ``X/Y``
slot A is X and slot B is Y (``X`` alone: A = B = X). The points are spent in slot
order; the slot's direction is the direction the vehicle must move in with that point
(Reverse: the vehicle must face the opposite way and backs into the hex behind it).
For each point:

1. If the hex in the slot's direction cannot be entered, the point goes to 31.5 (below)
   and the vehicle does not turn toward that hex.
2. Else, if the vehicle faces the required way it moves 1 hex: the point is spent.
3. Else, *only for the Impulse's first point*, it makes its one free hexside change
   toward the required way ("at the start of each Impulse"); if it now faces that way
   it moves with the point. Otherwise the point is spent on one more hexside turn
   ("1 hex of movement ... at any time during an Impulse").

The free change is made only at the start of the Impulse: a vehicle already facing its
first slot's direction does not keep it for later points. This reproduces both examples
exactly (example 1, Ahead Slow 6/5 from facing 6: I1 moves; I2 free turn to 5 and moves;
I3 free turn to 6, moves, and its B point (5) is spent turning to 5; I4 moves 2.
Example 2, Ahead Slow 2/3 from facing 6: I1 free turn to 1 and the point turns to 2,
the vehicle stays; I2 free turn to 3 and moves) and the 31.5 example (the point that
finds its hex impassable is spent on one hexside turn, ending facing 1). Turns take the
shortest way; a 180° turn goes toward a Spotted Friendly in LOS for an Enemy vehicle
when exactly one side has one, else by a logged random pick (Friendly: the player's
``turn_way``, else the pick).

**31.5, Impassable hexes** (:func:`vehicle_entry`): off the map, a hex ``blocked`` says
cannot be entered (Fire, C2 29.2), a terrain or overlay that is impassable for the
vehicle's kind (jeeps and trucks: every terrain that is not ``wheeled_passable``, so
Trees and Barbed Wire too, C2 27.7). A Friendly Driver gets Emergency Stop at once. An
Enemy Driver checks whether any slot of a *later* Impulse of this turn points to a hex
it can enter from here; if so the point is spent turning 1 hexside toward the first such
direction. If not, d10 on :data:`ALTERNATE_DIRECTIONS` (0-4 the first result, 5-9 the
second) gives a Crawl order in new directions; if both new directions are impassable,
the row of the new order is read and the one result that allows movement is taken
(both: another d10; neither: Emergency Stop, [house]). The point is then read again
under the new order (Crawl's slot of this Impulse, if it has one): one paid turn.

**Trees** (31.5 notes): an AFV or Half-Track that enters a Trees hex (terrain with
``vehicles: crawl``) switches to Crawl in the same directions and moves no further
this Impulse.

**Road Movement** (31.11.1): under Road Orders the required direction of each point is
the road out of the vehicle's hex that lies ahead or within ``ROAD_REACH`` (2) hexsides
of the facing (nearest to straight ahead first; a fork at equal angles by a logged
pick), turning by the normal rules. The rule gives no extra speed on roads.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable

import attrs

from solo.core.dice import ChanceRecord, Dice, Roll
from solo.core.errors import IllegalChoiceError
from solo.core.hexes import (
    Arc,
    Direction,
    Hex,
    check_direction,
    in_arcs,
    opposite,
    rotate,
    turn_steps,
    wedge_directions,
)
from solo.data.cards import DirectionString
from solo.data.maps import Board, side_key
from solo.data.orders import Order, OrderTable, Slot, load_orders
from solo.data.terrain import VehicleEntry

__all__ = [
    "ALTERNATE_DIRECTIONS",
    "MIRED_FACES",
    "ROAD_REACH",
    "SPEED_CAPS",
    "SPEED_ORDERS",
    "AlternateRow",
    "MoveReport",
    "MoveStep",
    "SpeedCap",
    "StepKind",
    "StopReason",
    "VehicleKind",
    "VehicleMoveState",
    "alternate_row",
    "convert_speed",
    "forbidden_speeds",
    "free_turn",
    "mired_on_entry",
    "move_impulse",
    "road_direction",
    "turn_turret",
    "turn_turret_toward_hex",
    "vehicle_entry",
]


class VehicleKind(enum.Enum):
    """The four classes of vehicle (C2 31.0).

    Same ids as ``solo.data.vehicle_types.VehicleKind``; this module only reads ``kind.value``,
    so either enum may be passed.
    """

    JEEP = "jeep"
    TRUCK = "truck"
    HALF_TRACK = "half_track"
    AFV = "afv"

    @property
    def is_wheeled(self) -> bool:
        """Jeeps and Trucks: they use ``wheeled_passable`` and treat Trees as impassable (31.5)."""
        return _is_wheeled(self)


_WHEELED: tuple[str, ...] = ("jeep", "truck")


def _is_wheeled(kind: enum.Enum) -> bool:
    return kind.value in _WHEELED


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


# ---------------------------------------------------------------------------
# Data: the Enemy Alternate Movement Direction Table (31.5), speeds and conditions


@attrs.frozen
class AlternateRow:
    """One row of the Enemy Alternate Movement Direction Table (C2 31.5)."""

    current: tuple[Direction, ...]
    """The current order's direction(s), sorted (``(1,)``; ``(1, 2)`` for ``1/2 or 2/1``)."""
    low: DirectionString
    """The new order direction for a d10 of 0-4."""
    high: DirectionString
    """The new order direction for a d10 of 5-9."""

    def result(self, face: int) -> DirectionString:
        """The new directions for a d10 ``face`` 0-9. Raises :class:`ValueError` outside 0-9."""
        if not 0 <= face <= 9:
            raise ValueError(f"a d10 face is 0-9, got {face}")
        return self.low if face <= 4 else self.high


def _row(current: str, low: str, high: str) -> AlternateRow:
    dirs = tuple(sorted(DirectionString.parse(current).directions))
    return AlternateRow(dirs, DirectionString.parse(low), DirectionString.parse(high))


ALTERNATE_DIRECTIONS: tuple[AlternateRow, ...] = (
    _row("1", "6/1", "2/1"),
    _row("2", "1/2", "3/2"),
    _row("3", "2/3", "4/3"),
    _row("4", "3/4", "5/4"),
    _row("5", "4/5", "6/5"),
    _row("6", "5/6", "1/6"),
    _row("1/2", "6/1", "3/2"),
    _row("2/3", "1/2", "4/3"),
    _row("3/4", "2/3", "5/4"),
    _row("4/5", "3/4", "6/5"),
    _row("5/6", "4/5", "1/6"),
    _row("6/1", "5/6", "2/1"),
)
"""The Enemy Alternate Movement Direction Table exactly as printed in C2 31.5 (rulebook).

Each row is the first row turned, so reading it in map directions gives the same result
as in a rotated Direction Counter's directions."""

_ALTERNATE_BY_KEY: dict[tuple[Direction, ...], AlternateRow] = {r.current: r for r in ALTERNATE_DIRECTIONS}


def alternate_row(directions: DirectionString) -> AlternateRow:
    """The row of :data:`ALTERNATE_DIRECTIONS` for an order's directions (``X/Y`` = ``Y/X``; C2 31.5)."""
    return _ALTERNATE_BY_KEY[tuple(sorted(directions.directions))]


SPEED_ORDERS: tuple[str, ...] = ("crawl", "ahead_slow", "forward", "fast")
"""The forward speed orders, slowest first (C2 31.11.2); Reverse and Emergency Stop are apart."""


@attrs.frozen
class SpeedCap:
    """A weather or ground condition that limits vehicle speed (C2 28.1-28.2)."""

    condition: str
    """``"weather"`` or ``"ground"``."""
    value: str
    """The weather or ground id (``"fog"``, ``"deep_snow"``)."""
    fastest: str
    """The fastest speed order allowed; faster Enemy orders become this one."""
    rule: str


SPEED_CAPS: tuple[SpeedCap, ...] = (
    SpeedCap("weather", "mist", "forward", "C2 28.1"),
    SpeedCap("weather", "fog", "ahead_slow", "C2 28.1"),
    SpeedCap("ground", "mud", "forward", "C2 28.2"),
    SpeedCap("ground", "snow", "forward", "C2 28.2"),
    SpeedCap("ground", "deep_snow", "ahead_slow", "C2 28.2"),
)
"""Mist, Mud, Snow: no Fast (Enemy Fast → Forward); Fog, Deep Snow: no Fast or Forward
(Enemy → Ahead Slow). C2 28.1-28.2 [rulebook]."""

ROAD_REACH = 2
"""Road Orders follow a road ahead or within this many hexsides of the facing (C2 31.11.1)."""

MIRED_FACES: tuple[int, ...] = (8, 9)
"""In Mud, a Jeep or Truck entering a hex without a road is Mired on these d10 faces (C2 28.2)."""


# ---------------------------------------------------------------------------
# Terrain


def vehicle_entry(
    board: Board, kind: VehicleKind, hex_: Hex | None, *, blocked: Callable[[Hex], bool] = lambda h: False
) -> VehicleEntry:
    """Whether a vehicle of ``kind`` may enter ``hex_`` (C2 31.5, 27.7, 29.2).

    ``IMPASSABLE`` off the map (``None``), where ``blocked`` says so (Fire), or where the
    terrain or an overlay is impassable for the kind (Jeeps and Trucks: not
    ``wheeled_passable``, which covers Trees and Barbed Wire); ``CRAWL`` for an AFV or
    Half-Track entering Trees; else ``PASS``.
    """
    if hex_ is None or not board.map.has_hex(hex_) or blocked(hex_):
        return VehicleEntry.IMPASSABLE
    types = (board.terrain_of(hex_), *board.overlays_of(hex_))
    if _is_wheeled(kind):
        return VehicleEntry.PASS if all(t.wheeled_passable for t in types) else VehicleEntry.IMPASSABLE
    if any(t.vehicles is VehicleEntry.IMPASSABLE for t in types):
        return VehicleEntry.IMPASSABLE
    if any(t.vehicles is VehicleEntry.CRAWL for t in types):
        return VehicleEntry.CRAWL
    return VehicleEntry.PASS


def mired_on_entry(
    board: Board, kind: VehicleKind, hex_: Hex, ground: str, dice: Dice
) -> tuple[bool, Roll | None]:
    """In Mud, roll d10 for a Jeep or Truck that entered ``hex_`` without a road (C2 28.2).

    Returns ``(mired, roll)``: Mired on a d10 of 8 or 9 (:data:`MIRED_FACES`); no roll
    (``(False, None)``) for other kinds, other ground, or a road hex. For use in the
    ``on_enter`` check of :func:`move_impulse`.
    """
    if ground != "mud" or not _is_wheeled(kind) or board.map.is_road(hex_):
        return (False, None)
    roll = dice.d10(f"mud: is the {kind.value.replace('_', '-')} mired in {hex_}? (C2 28.2)")
    return (roll.total in MIRED_FACES, roll)


# ---------------------------------------------------------------------------
# Speeds (28.1-28.2)


def _cap(weather: str, ground: str) -> SpeedCap | None:
    caps = [c for c in SPEED_CAPS if (weather if c.condition == "weather" else ground) == c.value]
    return min(caps, key=lambda c: SPEED_ORDERS.index(c.fastest), default=None)


def forbidden_speeds(weather: str, ground: str) -> tuple[str, ...]:
    """The speed orders vehicles may not use in ``weather`` and ``ground`` (C2 28.1-28.2).

    ``weather`` and ``ground`` are the ids of :class:`solo.data.scenario_format.Weather` and
    :class:`solo.data.scenario_format.Ground` (``"fog"``, ``"deep_snow"``); slowest first.
    """
    cap = _cap(weather, ground)
    if cap is None:
        return ()
    return SPEED_ORDERS[SPEED_ORDERS.index(cap.fastest) + 1 :]


def convert_speed(
    order_id: str, weather: str, ground: str, kind: VehicleKind, is_enemy: bool
) -> tuple[str, str | None]:
    """The speed order a vehicle keeps in ``weather`` and ``ground`` (C2 28.1-28.2).

    Returns ``(order_id, reason)``: Mist, Mud, Snow turn Fast into Forward; Fog and Deep
    Snow turn Fast and Forward into Ahead Slow (the stricter condition wins). ``reason`` is
    ``None`` when the order stands. Every kind of vehicle alike. An Enemy Driver changes
    his order at once (rulebook); a Friendly one may not be given these orders
    (:func:`forbidden_speeds`), and one he already holds when the weather worsens is
    reduced the same way [house].
    """
    cap = _cap(weather, ground)
    if cap is None or order_id not in SPEED_ORDERS:
        return (order_id, None)
    if SPEED_ORDERS.index(order_id) <= SPEED_ORDERS.index(cap.fastest):
        return (order_id, None)
    side = "Enemy" if is_enemy else "Friendly"
    what = f"{cap.condition} {cap.value.replace('_', ' ')}"
    return (
        cap.fastest,
        f"{what}: no {order_id.replace('_', ' ')} for vehicles; {side} {kind.value.replace('_', '-')} "
        f"takes {cap.fastest.replace('_', ' ')} ({cap.rule})",
    )


# ---------------------------------------------------------------------------
# Turning


def _way_name(way: int) -> str:
    return "clockwise" if way > 0 else "anticlockwise"


def _choose_way(
    facing: Direction,
    target: Direction,
    *,
    hex_: Hex,
    is_enemy: bool,
    friendly_spotted_in_los: Callable[[Hex, tuple[Direction, ...]], bool] | None,
    turn_way: int | None,
    dice: Dice | None,
    what: str,
) -> tuple[int, str, tuple[ChanceRecord, ...]]:
    """The way (+1 clockwise, −1 anticlockwise) to turn ``facing`` toward ``target`` (31.4)."""
    steps = turn_steps(facing, target)
    if steps == 0:
        raise ValueError("no turn needed")
    if steps != 3:
        return (1 if steps > 0 else -1, "", ())
    if is_enemy and friendly_spotted_in_los is not None:
        cw = friendly_spotted_in_los(hex_, (rotate(facing, 1), rotate(facing, 2)))
        acw = friendly_spotted_in_los(hex_, (rotate(facing, -1), rotate(facing, -2)))
        if cw != acw:
            way = 1 if cw else -1
            return (way, f"; 180°: {_way_name(way)}, toward a Spotted Friendly in LOS", ())
    if not is_enemy and turn_way is not None:
        if turn_way not in (1, -1):
            raise ValueError(f"turn_way is +1 (clockwise) or -1 (anticlockwise), got {turn_way!r}")
        return (turn_way, f"; 180°: {_way_name(turn_way)}, the player's choice", ())
    if dice is None:
        raise ValueError(f"{what}: a 180° turn needs dice for the random way")
    pick = dice.choice(("clockwise", "anticlockwise"), f"{what}: which way to turn 180° (C2 31.4)")
    way = 1 if pick.index == 0 else -1
    return (way, f"; 180°: {_way_name(way)} by random pick", (pick,))


def free_turn(
    state: VehicleMoveState, new_facing: Direction, *, turret_follows_hull: bool = True
) -> tuple[VehicleMoveState, MoveStep]:
    """A Friendly vehicle's free hexside change without a movement order (C2 31.4, last sentence).

    ``new_facing`` must be one hexside from the facing; the engine allows it once per
    Impulse when someone sits in the Driver position. The turret turns with the hull when
    ``turret_follows_hull`` [house]. Raises :class:`~solo.core.errors.IllegalChoiceError` for
    any other facing.
    """
    check_direction(new_facing)
    way = turn_steps(state.facing, new_facing)
    if abs(way) != 1:
        raise IllegalChoiceError(
            f"a free turn is one hexside: from facing {state.facing} to "
            f"{rotate(state.facing, -1)} or {rotate(state.facing, 1)}, not {new_facing}"
        )
    turret = rotate(state.turret, way) if turret_follows_hull else state.turret
    new = VehicleMoveState(state.hex, new_facing, turret)
    step = MoveStep(
        StepKind.FREE_TURN,
        state.hex,
        new_facing,
        f"free turn {state.facing}→{new_facing} without a movement order",
        "C2 31.4",
    )
    return (new, step)


def turn_turret(
    state: VehicleMoveState, toward: Direction, *, dice: Dice | None = None
) -> tuple[VehicleMoveState, MoveStep | None]:
    """Turn the turret one hexside toward direction ``toward`` (C2 31.6).

    The shortest way; when ``toward`` is straight behind, the way is a logged random pick
    (``dice`` must then be given, else :class:`ValueError`). Returns the new state and
    the step, or the same state and ``None`` when the turret already faces ``toward``.
    """
    check_direction(toward)
    if state.turret == toward:
        return (state, None)
    way, note, rolls = _choose_way(
        state.turret,
        toward,
        hex_=state.hex,
        is_enemy=False,
        friendly_spotted_in_los=None,
        turn_way=None,
        dice=dice,
        what="turret",
    )
    turret = rotate(state.turret, way)
    new = attrs.evolve(state, turret=turret)
    text = f"turret turns {state.turret}→{turret} toward direction {toward}{note}"
    return (new, MoveStep(StepKind.TURRET_TURN, state.hex, turret, text, "C2 31.6", rolls=rolls))


def turn_turret_toward_hex(
    board: Board, state: VehicleMoveState, target: Hex, *, dice: Dice | None = None
) -> tuple[VehicleMoveState, MoveStep | None]:
    """Turn the turret one hexside toward ``target`` if it is out of the turret's front arc (C2 31.6).

    The arc is the house arc model (:data:`solo.core.hexes.HOUSE_ARCS`); a target on the
    hexspine at the edge of the front arc counts as inside. Turns toward the nearer of the
    target's wedge directions, by :func:`turn_turret`. Returns ``(state, None)`` when no
    turn is needed. Raises :class:`~solo.core.errors.GeometryError` if ``target`` is the
    vehicle's hex.
    """
    stagger = board.map.stagger
    if in_arcs(state.hex, state.turret, target, stagger, (Arc.FRONT,)):
        return (state, None)
    wedges = wedge_directions(state.hex, target, stagger)
    toward = min(wedges, key=lambda d: abs(turn_steps(state.turret, d)))
    return turn_turret(state, toward, dice=dice)


# ---------------------------------------------------------------------------
# Roads (31.11.1)


def _road_links(board: Board) -> frozenset[tuple[Hex, Hex]]:
    links = board.shared.get("vehicle_move.road_links")
    if links is None:
        links = frozenset(board.map.roads)
        board.shared["vehicle_move.road_links"] = links
    return links


def road_direction(
    board: Board, hex_: Hex, facing: Direction, *, reverse: bool = False, dice: Dice | None = None
) -> tuple[Direction | None, tuple[ChanceRecord, ...]]:
    """The direction a vehicle under Road Orders moves in from ``hex_`` (C2 31.11.1).

    The road out of ``hex_`` that lies ahead (behind, in ``reverse``) or within
    :data:`ROAD_REACH` hexsides of it, nearest to straight ahead first; a fork at equal
    angles is a logged random pick (``dice`` needed, else :class:`ValueError`). Returns
    ``(None, ())`` when no road leaves within reach. The road straight behind is never
    taken, so a vehicle does not turn back the way it came.
    """
    front = opposite(facing) if reverse else facing
    links = _road_links(board)
    found: list[tuple[int, Direction]] = []
    for d in (1, 2, 3, 4, 5, 6):
        n = board.neighbour_hex(hex_, d)
        t = turn_steps(front, d)
        if n is not None and abs(t) <= ROAD_REACH and t != 3 and side_key(hex_, n) in links:
            found.append((abs(t), d))
    if not found:
        return (None, ())
    best = min(a for a, _ in found)
    options = [d for a, d in found if a == best]
    if len(options) == 1:
        return (options[0], ())
    if dice is None:
        raise ValueError(f"road fork at {hex_}: dice needed to pick the way")
    pick = dice.choice(options, f"road fork at {hex_}: which road to follow (C2 31.11.1)")
    return (options[pick.index], (pick,))


# ---------------------------------------------------------------------------
# One Impulse of a speed order (31.4-31.5)


@functools.cache
def _shipped_orders() -> OrderTable:
    return load_orders()


@attrs.define
class _Ctx:
    """What stays fixed during one :func:`move_impulse` call."""

    board: Board
    kind: VehicleKind
    is_enemy: bool
    blocked: Callable[[Hex], bool]
    dice: Dice | None
    spotted: Callable[[Hex, tuple[Direction, ...]], bool] | None
    turn_way: int | None
    turret_follows_hull: bool


class _Run:
    """The mutable working state of one :func:`move_impulse` call."""

    def __init__(self, state: VehicleMoveState, order: Order, directions: DirectionString | None, road: bool):
        self.state = state
        self.order = order
        self.directions = directions
        self.road = road
        self.steps: list[MoveStep] = []
        self.pending: tuple[ChanceRecord, ...] = ()
        """Rolls made before the next step (a road fork), attached to it."""

    def add(
        self,
        kind: StepKind,
        text: str,
        rule: str,
        *,
        point: int | None = None,
        required: Direction | None = None,
        reason: StopReason | None = None,
        rolls: tuple[ChanceRecord, ...] = (),
    ) -> None:
        rolls, self.pending = self.pending + rolls, ()
        self.steps.append(
            MoveStep(kind, self.state.hex, self.state.facing, text, rule, point, required, reason, rolls)
        )


def move_impulse(
    board: Board,
    kind: VehicleKind,
    state: VehicleMoveState,
    order: Order,
    directions: DirectionString | None,
    impulse: int,
    *,
    is_enemy: bool,
    blocked: Callable[[Hex], bool] = lambda h: False,
    dice: Dice | None = None,
    friendly_spotted_in_los: Callable[[Hex, tuple[Direction, ...]], bool] | None = None,
    turn_way: int | None = None,
    road: bool = False,
    on_enter: Callable[[VehicleMoveState], str | None] | None = None,
    orders: OrderTable | None = None,
    turret_follows_hull: bool = True,
) -> tuple[VehicleMoveState, MoveReport]:
    """Run one Impulse (1-4) of a Driver's speed order (C2 31.4, 31.5, 31.11.1).

    ``directions`` are map directions (read through the Direction Counter); ``None`` only
    under Road Orders (``road=True``), where the road gives each point's direction.
    Slots are read as the module docstring says. Keywords:

    * ``is_enemy``: Enemy Drivers apply 31.5 (turn toward a later direction, the
      Alternate Movement Direction Table) and the 180° rule; Friendly ones make an
      Emergency Stop when their order requires an impassable hex.
    * ``blocked(hex)``: True for hexes no vehicle may enter now (Fire, C2 29.2).
    * ``dice``: a :class:`~solo.core.dice.Dice`, needed only for 180° turns, the 31.5 table
      and road forks (else :class:`ValueError` when one is needed).
    * ``friendly_spotted_in_los(hex, sweep)``: for an Enemy's 180° turn, whether a
      Spotted Friendly in LOS lies in the wedges of ``sweep`` (the directions the front
      passes turning that way); the way with one is taken, else a random pick.
    * ``turn_way``: a Friendly player's way for a 180° turn (+1 clockwise, −1
      anticlockwise); ``None`` = random pick.
    * ``on_enter(state)``: called after each hex entered; a returned text stops the
      vehicle with Emergency Stop (mines, barbed wire, C2 27.7; a Friendly's declared
      Emergency Stop, 31.2 (1)).
    * ``orders``: the order table (for Crawl); default the shipped ``orders.yaml``.
    * ``turret_follows_hull``: hull turns turn the turret too [house].

    Returns the new state and a :class:`MoveReport` (the Driver's order may have become
    Crawl or Emergency Stop). Raises :class:`ValueError` for a non-vehicle order, an
    Impulse outside 1-4, or missing ``directions``.
    """
    if not order.is_vehicle:
        raise ValueError(f"{order.id!r} is not a vehicle speed order")
    if directions is None and not road:
        raise ValueError("directions are needed unless the vehicle is under Road Orders")
    order.slots(impulse)  # validates the Impulse
    table = orders if orders is not None else _shipped_orders()
    run = _Run(state, order, directions, road)
    ctx = _Ctx(board, kind, is_enemy, blocked, dice, friendly_spotted_in_los, turn_way, turret_follows_hull)

    if order.id == "emergency_stop":
        run.add(
            StepKind.STOP,
            "Emergency Stop: the vehicle does not move",
            "C2 31.2",
            reason=StopReason.EMERGENCY_STOP,
        )
        return _finish(run, state, impulse)

    slots = order.slots(impulse)
    free_turn_open = True  # 31.4: one free hexside change, at the start of the Impulse only
    table_used_at: int | None = None  # 31.5: the table is read at most once per point [house]
    road_here: tuple[Hex, Direction] | None = None  # the road direction chosen in this hex
    i = 0
    while i < len(slots):
        point = i + 1
        reverse = run.order.id == "reverse"
        # Which way this point must move.
        if run.road:
            if road_here is None or road_here[0] != run.state.hex:
                d, rolls = road_direction(board, run.state.hex, run.state.facing, reverse=reverse, dice=dice)
                if d is None:
                    run.add(
                        StepKind.STOP,
                        f"Road Orders: no road ahead of {run.state.hex} within {ROAD_REACH} hexsides "
                        "of the facing; the vehicle stops [house]",
                        "C2 31.11.1",
                        reason=StopReason.ROAD_ENDS,
                        rolls=rolls,
                    )
                    break
                road_here = (run.state.hex, d)
                run.pending += rolls
            move_dir = road_here[1]
        else:
            assert run.directions is not None
            a, b = run.directions.slots
            move_dir = a if slots[i] is Slot.A else b
        need_facing = opposite(move_dir) if reverse else move_dir
        target = board.neighbour_hex(run.state.hex, move_dir)
        entry = vehicle_entry(board, kind, target, blocked=blocked)

        if entry is VehicleEntry.IMPASSABLE:
            free_turn_open = False
            where = str(target) if target is not None else "off the map"
            if not is_enemy:
                run.order = table.get("emergency_stop")
                run.add(
                    StepKind.STOP,
                    f"the order requires the impassable hex in direction {move_dir} ({where}): "
                    "Emergency Stop",
                    "C2 31.5, 31.11.2",
                    point=point,
                    required=move_dir,
                    reason=StopReason.IMPASSABLE,
                )
                break
            if table_used_at == i:
                run.add(
                    StepKind.IDLE,
                    f"the new order's direction {move_dir} is impassable too ({where}); the point is lost",
                    "C2 31.5 [house]",
                    point=point,
                    required=move_dir,
                )
                i += 1
                continue
            later = _later_direction(ctx, run, slots_from=impulse + 1)
            if later is not None:
                want = opposite(later) if reverse else later
                lead = f"direction {move_dir} is impassable ({where}); it can move in direction {later} later"
                if run.state.facing == want:
                    run.add(
                        StepKind.IDLE,
                        f"{lead}; already facing that way, the point is not used",
                        "C2 31.5",
                        point=point,
                        required=move_dir,
                    )
                else:
                    _turn(ctx, run, want, paid=True, point=point, required=move_dir, lead=lead + ": ")
                i += 1
                continue
            # 31.5: no later movement possible: the Enemy Alternate Movement Direction Table.
            current = run.directions if not run.road else DirectionString((move_dir,))
            new_dirs, text, rolls = _alternate(ctx, run.state.hex, current)
            if new_dirs is None:
                run.order = table.get("emergency_stop")
                run.add(
                    StepKind.STOP,
                    f"direction {move_dir} is impassable ({where}) for the rest of the turn; {text}: "
                    "Emergency Stop [house]",
                    "C2 31.5",
                    point=point,
                    required=move_dir,
                    reason=StopReason.BOXED_IN,
                    rolls=rolls,
                )
                break
            run.order = table.get("crawl")
            run.directions = new_dirs
            run.road = False
            run.add(
                StepKind.ORDER_CHANGE,
                f"direction {move_dir} is impassable ({where}) for the rest of the turn; {text}: "
                f"order becomes Crawl {new_dirs}",
                "C2 31.5",
                required=move_dir,
                rolls=rolls,
            )
            slots = run.order.slots(impulse)
            table_used_at = i
            continue  # read this point again under the new order

        if run.state.facing != need_facing:
            if free_turn_open and i == 0:
                free_turn_open = False
                _turn(ctx, run, need_facing, paid=False, point=None, required=move_dir, lead="")
            if run.state.facing != need_facing:
                free_turn_open = False
                _turn(ctx, run, need_facing, paid=True, point=point, required=move_dir, lead="")
                i += 1
                continue
        free_turn_open = False

        # Move one hex (31.4): forward, or back in Reverse.
        assert target is not None
        frm = run.state.hex
        run.state = attrs.evolve(run.state, hex=target)
        how = "backs" if reverse else "moves"
        run.add(
            StepKind.MOVE,
            f"{how} {frm}→{target} (direction {move_dir})",
            "C2 31.4",
            point=point,
            required=move_dir,
        )
        if on_enter is not None:
            why = on_enter(run.state)
            if why:
                run.order = table.get("emergency_stop")
                run.add(StepKind.STOP, f"{why}: Emergency Stop", "C2 31.2", reason=StopReason.ON_ENTER)
                break
        if entry is VehicleEntry.CRAWL:
            if run.order.id != "crawl":
                run.order = table.get("crawl")
                shown = "road" if run.road else str(run.directions)
                run.add(
                    StepKind.ORDER_CHANGE,
                    f"entered Trees in {target}: order becomes Crawl ({shown})",
                    "C2 31.5",
                )
            run.add(
                StepKind.STOP,
                "in Trees: no further movement this Impulse",
                "C2 31.5",
                reason=StopReason.TREES,
            )
            break
        i += 1
    return _finish(run, state, impulse)


def _finish(run: _Run, start: VehicleMoveState, impulse: int) -> tuple[VehicleMoveState, MoveReport]:
    report = MoveReport(
        impulse=impulse,
        start=start,
        end=run.state,
        order_id=run.order.id,
        directions=run.directions,
        road=run.road,
        steps=tuple(run.steps),
    )
    return (run.state, report)


def _turn(
    ctx: _Ctx,
    run: _Run,
    want: Direction,
    *,
    paid: bool,
    point: int | None,
    required: Direction,
    lead: str,
) -> None:
    """Turn the hull one hexside toward ``want`` and record it (31.4)."""
    way, note, rolls = _choose_way(
        run.state.facing,
        want,
        hex_=run.state.hex,
        is_enemy=ctx.is_enemy,
        friendly_spotted_in_los=ctx.spotted,
        turn_way=ctx.turn_way,
        dice=ctx.dice,
        what=f"vehicle in {run.state.hex}",
    )
    frm = run.state.facing
    facing = rotate(frm, way)
    turret = rotate(run.state.turret, way) if ctx.turret_follows_hull else run.state.turret
    run.state = attrs.evolve(run.state, facing=facing, turret=turret)
    if paid:
        text = f"{lead}spends movement point to turn {frm}→{facing} toward {want}{note}"
        run.add(StepKind.PAID_TURN, text, "C2 31.4", point=point, required=required, rolls=rolls)
    else:
        text = f"{lead}free turn {frm}→{facing} toward {want}{note}"
        run.add(StepKind.FREE_TURN, text, "C2 31.4", required=required, rolls=rolls)


def _can_enter(ctx: _Ctx, hex_: Hex, d: Direction) -> bool:
    n = ctx.board.neighbour_hex(hex_, d)
    return vehicle_entry(ctx.board, ctx.kind, n, blocked=ctx.blocked) is not VehicleEntry.IMPASSABLE


def _later_direction(ctx: _Ctx, run: _Run, *, slots_from: int) -> Direction | None:
    """31.5: the first direction of a later Impulse's slot whose hex can be entered from here."""
    if run.road or run.directions is None:
        return None  # under Road Orders every later point takes the same road
    a, b = run.directions.slots
    for imp in range(slots_from, 5):
        for slot in run.order.slots(imp):
            d = a if slot is Slot.A else b
            if _can_enter(ctx, run.state.hex, d):
                return d
    return None


def _alternate(
    ctx: _Ctx, hex_: Hex, current: DirectionString
) -> tuple[DirectionString | None, str, tuple[ChanceRecord, ...]]:
    """31.5: new directions from the Enemy Alternate Movement Direction Table."""

    def allows(ds: DirectionString) -> bool:
        return any(_can_enter(ctx, hex_, d) for d in ds.directions)

    if ctx.dice is None:
        raise ValueError(f"vehicle in {hex_}: the 31.5 table needs dice")
    rolls: list[ChanceRecord] = []
    row = alternate_row(current)
    roll = ctx.dice.d10(f"vehicle in {hex_}: Enemy Alternate Movement Direction for {current} (C2 31.5)")
    rolls.append(roll)
    new = row.result(roll.total)
    text = f"d10 {roll.total} on the {current} row gives {new}"
    if allows(new):
        return (new, text, tuple(rolls))
    row2 = alternate_row(new)
    usable = [ds for ds in (row2.low, row2.high) if allows(ds)]
    text += f", both impassable; on the {new} row"
    if not usable:
        return (None, text + f" neither {row2.low} nor {row2.high} allows movement", tuple(rolls))
    if len(usable) == 1:
        return (usable[0], text + f" only {usable[0]} allows movement", tuple(rolls))
    roll2 = ctx.dice.d10(f"vehicle in {hex_}: Enemy Alternate Movement Direction for {new} (C2 31.5)")
    rolls.append(roll2)
    new2 = row2.result(roll2.total)
    return (new2, text + f" both results allow movement, d10 {roll2.total} gives {new2}", tuple(rolls))
