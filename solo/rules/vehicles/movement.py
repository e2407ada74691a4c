"""Vehicle movement and facing: one Impulse of a Driver's speed order (C2 31.4-31.5).

Turns are :mod:`solo.rules.vehicles.turning`; speed caps, terrain, the Enemy Alternate
Movement Direction Table and roads :mod:`solo.rules.vehicles.speed_and_terrain`; the state
and report classes :mod:`solo.rules.vehicles.move_state`.

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

import functools
from collections.abc import Callable

import attrs

from solo.core.chance_records import ChanceRecord
from solo.core.dice import Dice
from solo.core.hexes import (
    Direction,
    Hex,
    opposite,
    rotate,
)
from solo.data.cards import DirectionString
from solo.data.maps import Board
from solo.data.orders import Order, OrderTable, Slot, load_orders
from solo.data.terrain import VehicleEntry
from solo.data.vehicle_types import VehicleKind
from solo.rules.vehicles.move_state import (
    MoveReport,
    MoveStep,
    StepKind,
    StopReason,
    VehicleMoveState,
)
from solo.rules.vehicles.speed_and_terrain import ROAD_REACH, alternate_row, road_direction, vehicle_entry
from solo.rules.vehicles.turning import _choose_way

__all__ = [
    "ROAD_REACH",
    "MoveReport",
    "MoveStep",
    "StepKind",
    "StopReason",
    "VehicleKind",
    "VehicleMoveState",
    "alternate_row",
    "move_impulse",
    "road_direction",
    "vehicle_entry",
]


# ---------------------------------------------------------------------------
# Data: the Enemy Alternate Movement Direction Table (31.5), speeds and conditions


# ---------------------------------------------------------------------------
# Terrain


# ---------------------------------------------------------------------------
# Speeds (28.1-28.2)


# ---------------------------------------------------------------------------
# Turning


# ---------------------------------------------------------------------------
# Roads (31.11.1)


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
            # directions are None only under Road Movement Orders (move_vehicle checks it)
            current = DirectionString((move_dir,)) if run.road or run.directions is None else run.directions
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
