"""The Driver (C2 31.4-31.5, 31.11.1; 27.7, 28.1-28.2, 31.3): moving the vehicle by its order, what
happens on entering a hex (wire, mud, alerts), the move report.

May import: solo.rules.vehicles.movement, solo.rules.movement and the rules below, and the rooms below
rules."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from solo.core.decisions import Decision, DecisionKind
from solo.core.hexes import Arc, Hex, arc_of, rotate, wedge_directions
from solo.data.cards import DirectionString
from solo.data.orders import Order
from solo.data.vehicle_types import VehicleKind, VehicleType
from solo.rules import direction_numbers, entering, minefields
from solo.rules.context import GameContext
from solo.rules.state import Character, Side
from solo.rules.vehicles.emergency_stop import emergency_stop
from solo.rules.vehicles.markers import _refresh_markers
from solo.rules.vehicles.move_state import MoveReport
from solo.rules.vehicles.seats import _occupant, _vtype
from solo.rules.vehicles.state import Vehicle, vehicles_of

STOP_AFTER_KEY = "stop_after"
"""``vehicle.acted`` key: ``(turn, impulse, "CC.RR")``, the hex after whose entry the player
declared a Friendly Emergency Stop this Impulse (C2 31.2 (1))."""
NO_FREE_TURN_ORDERS: tuple[str, ...] = ("panic", "bail_out")
"""[house] A Driver with these orders does not make the free hexside turn (C2 31.4): he is
panicking or leaving his position."""
ALERT_RANGE = 5
"""C2 31.3 Additional Alert Rule: a moving Friendly vehicle alerts Waiting enemies this near."""
WIRE_REMOVED_KEY = "barbed_wire_removed"
"""``state.flags`` key: hexes (``"CC.RR"``) whose Barbed Wire a vehicle flattened (C2 27.7)."""


def _inverse_map(game: GameContext, ch: Character, d: int) -> int:
    """The order direction that the Direction Counter turns into map direction ``d``."""

    for od in (1, 2, 3, 4, 5, 6):
        if direction_numbers.map_direction(game, ch, od) == d:
            return od
    return d


def _on_enter(game: GameContext, vehicle: Vehicle, vtype: VehicleType) -> Callable[[Any], str | None]:
    """What happens when the vehicle enters a hex: Barbed Wire (C2 27.7), a minefield (31.5), Mud (28.2)."""
    from solo.rules.vehicles.speed_and_terrain import mired_on_entry

    def check(state: Any) -> str | None:
        h = state.hex
        removed = game.state.flags.setdefault(WIRE_REMOVED_KEY, [])
        if entering.has_wire(game, h) and str(h) not in removed:
            kind = vtype.kind
            face = game.dice.d10(f"{vehicle.name} enters Barbed Wire in {h} (C2 27.7)").total
            if kind is VehicleKind.AFV:
                result = "removed" if face <= 3 else "stop" if face == 9 else "none"
            else:
                result = (
                    "removed"
                    if face == 0
                    else "none"
                    if face <= 4
                    else "stop"
                    if face <= 8
                    else "immobilized"
                )
            text = {
                "removed": "the wire is flattened (marker removed)",
                "none": "no effect",
                "stop": "the wire fouls it: Emergency Stop",
                "immobilized": "immobilized in the wire",
            }[result]
            data: dict[str, Any] = {"vehicle": vehicle.id, "hex": str(h), "roll": face, "result": result}
            if result == "immobilized":
                wheel = game.dice.d6(f"{vehicle.name}: which wheel the wire wrecks (C2 27.7)").total
                side = "left" if wheel <= 3 else "right"
                text += f" ({side} wheel, d6 {wheel})"
                data["wheel"] = side
                if "immobilized" not in vehicle.damage:
                    vehicle.damage.append("immobilized")
            game.emit(
                "barbed_wire",
                f"{vehicle.name} enters Barbed Wire in {h}: d10 {face}, {text}.",
                rule="C2 27.7",
                data=data,
            )
            if result == "removed":
                removed.append(str(h))
            if result in ("stop", "immobilized"):
                return f"Barbed Wire in {h} (C2 27.7)"
        mined = minefields.vehicle_enters(game, vehicle, vtype.kind, h)
        if mined:
            return mined
        if vtype.kind.is_wheeled:
            mired, roll = mired_on_entry(game.board, vtype.kind, h, game.state.ground, game.dice)
            if roll is not None:
                game.emit(
                    "mired" if mired else "mud",
                    f"{vehicle.name} enters {h} off the road in Mud: d10 {roll.total}"
                    + (", Mired." if mired else ", not mired."),
                    rule="C2 28.2",
                    data={"vehicle": vehicle.id, "hex": str(h), "roll": roll.total, "mired": mired},
                )
            if mired:
                vehicle.mired = True
                return f"Mired in Mud in {h} (C2 28.2)"
        return None

    return check


def _friendly_in_los(game: GameContext) -> Callable[[Hex, tuple[int, ...]], bool]:
    """For an Enemy's 180° turn: a Spotted Friendly in LOS within the swept wedges (C2 31.4)."""
    stagger = game.board.map.stagger

    def spotted(h: Hex, sweep: tuple[int, ...]) -> bool:
        for f in game.state.active(Side.FRIENDLY):
            if not f.revealed or f.hex is None or f.hex == h:
                continue
            if not any(d in sweep for d in wedge_directions(h, f.hex, stagger)):
                continue
            if game.los.check(h, f.hex, max_range=game.state.max_los, night_range=game.night_range()).clear:
                return True
        return False

    return spotted


def _drive(
    game: GameContext, vehicle: Vehicle, driver: Character, o: Order, imp: int
) -> Generator[Decision, str, None]:
    """The Driver's speed order moves the vehicle this Impulse (C2 31.4-31.5, 31.11.1).

    A Friendly vehicle that must turn 180° this Impulse asks the player which way first
    (``ORDER_TARGET``: ``clockwise`` or ``anticlockwise``, 31.4; :func:`_needs_180`).

    Weather and ground first reduce a speed the conditions forbid (28.1-28.2, [house] for a
    Friendly). Enemy directions are read through the Direction Counter. The vehicle, its
    turret and every man aboard move; the Driver's order may become Crawl (Trees, the 31.5
    table) or Emergency Stop (impassable for a Friendly, Barbed Wire, Mud: Mired) — an
    Emergency Stop checks the crew's orders (:func:`emergency_stop`). A moving Friendly vehicle
    alerts Waiting enemies within 5 hexes of each hex it enters (31.3).
    """
    from solo.rules import spotting
    from solo.rules.vehicles.move_state import VehicleMoveState
    from solo.rules.vehicles.movement import move_impulse
    from solo.rules.vehicles.speed_and_terrain import convert_speed

    vtype = _vtype(game, vehicle)
    if vehicle.hex is None or not vehicle.is_active:
        return
    enemy = driver.side is Side.ENEMY
    if vehicle.immobilized:
        if o.id != "emergency_stop":
            why = "the vehicle is Mired" if vehicle.mired else "the vehicle is immobilized"
            emergency_stop(game, vehicle, driver, reason=why, rule="C2 31.2 (3)", hexes=0)
        return
    if o.id == "emergency_stop":
        return
    new_id, slowed = convert_speed(o.id, game.state.weather, game.state.ground, vtype.kind, enemy)
    if slowed is not None:
        assert driver.order is not None
        game.set_order(driver, new_id, directions=driver.order.directions, source=f"{slowed}")
        game.emit(
            "crew_order",
            f"{driver.name}: {slowed}.",
            rule="C2 28.1-28.2",
            actor=driver.id,
            data={"from": o.id, "to": new_id},
        )
        o = game.data.orders.get(new_id)
    if not o.slots(imp):
        return
    assert driver.order is not None
    given = driver.order.directions
    if given is None and not vehicle.road_orders:
        game.emit(
            "vehicle_move",
            f"{vehicle.name} does not move: {driver.name}'s {o.name} has no direction string.",
            rule="C2 31.1",
            actor=driver.id,
            data={"vehicle": vehicle.id, "hexes": 0},
        )
        return
    dirs = given
    if given is not None and enemy:
        dirs = DirectionString(
            tuple(direction_numbers.map_direction(game, driver, d) for d in given.directions)
        )
    start = VehicleMoveState(
        vehicle.hex, vehicle.facing, vehicle.turret if vehicle.turret is not None else vehicle.facing
    )
    turn_way: int | None = None
    if not enemy and not vehicle.road_orders and _needs_180(game, vehicle, vtype, start, o, dirs, imp):
        key = yield game.decision(
            DecisionKind.ORDER_TARGET,
            f"{vehicle.name} ({driver.name}, {o.name} {dirs}) turns 180° from facing {vehicle.facing}: "
            "which way? (C2 31.4)",
            [
                (
                    "clockwise",
                    f"Clockwise, through {rotate(vehicle.facing, 1)} and {rotate(vehicle.facing, 2)}",
                ),
                (
                    "anticlockwise",
                    f"Anticlockwise, through {rotate(vehicle.facing, -1)} and {rotate(vehicle.facing, -2)}",
                ),
            ],
            actor=driver.id,
        )
        turn_way = 1 if key == "clockwise" else -1
    new, report = move_impulse(
        game.board,
        vtype.kind,
        start,
        o,
        dirs,
        imp,
        is_enemy=enemy,
        turn_way=turn_way,
        blocked=lambda h: h in game.state.markers.fire,
        dice=game.dice,
        friendly_spotted_in_los=_friendly_in_los(game) if enemy else None,
        road=vehicle.road_orders,
        on_enter=_stop_after(game, vehicle, _on_enter(game, vehicle, vtype)),
        orders=game.data.orders,
    )
    vehicle.hex = new.hex
    vehicle.facing = new.facing
    if vehicle.turret is not None:
        vehicle.turret = new.turret
    for seat in vehicle.seats.values():
        c = _occupant(game, seat)
        if c is not None:
            c.hex = new.hex
    flow = game.state.flow
    moved = report.hexes_moved
    vehicle.moved_this_impulse = moved
    vehicle.acted["moved_at"] = (flow.turn, flow.impulse)
    _report_move(game, vehicle, driver, o, dirs, report)
    stopped = report.order_id == "emergency_stop" and o.id != "emergency_stop"
    if vehicle.mired and stopped:
        game.set_order(driver, "no_order", source="Mired: order removed (C2 28.2)")
    elif stopped:
        reason = next((s.text for s in report.steps if s.reason is not None), "Emergency Stop")
        emergency_stop(
            game, vehicle, driver, reason=reason, rule="C2 31.2, 31.5", hexes=max(len(o.slots(imp)), moved)
        )
    elif report.order_changed or report.road != vehicle.road_orders:
        new_dirs = report.directions
        if new_dirs is not None and enemy:
            new_dirs = DirectionString(tuple(_inverse_map(game, driver, d) for d in new_dirs.directions))
        game.set_order(driver, report.order_id, directions=new_dirs, source=f"{driver.order.source}; C2 31.5")
    vehicle.road_orders = report.road
    if vehicle.side is Side.FRIENDLY and moved:
        for step in report.steps:
            if step.kind.value == "move":
                spotting.alert_near(
                    game, step.hex, ALERT_RANGE, f"the {vehicle.name} moved to {step.hex}", "C2 31.3"
                )
    _refresh_markers(game)


def _stop_after(
    game: GameContext, vehicle: Vehicle, check: Callable[[Any], str | None]
) -> Callable[[Any], str | None]:
    """``check`` (the hex-entry rules), then the player's declared Emergency Stop on entering the
    hex he named this Impulse (:data:`STOP_AFTER_KEY`; C2 31.2 (1))."""
    flow = game.state.flow
    got = vehicle.acted.get(STOP_AFTER_KEY)
    if got is None or tuple(got[:2]) != (flow.turn, flow.impulse):
        return check

    def stop(state: Any) -> str | None:
        why = check(state)
        if why is None and str(state.hex) == got[2]:
            return f"declared by the player on entering {state.hex} (C2 31.2 (1))"
        return why

    return stop


def planned_hexes(game: GameContext, vehicle: Vehicle, driver: Character) -> list[Hex]:
    """The hexes a Friendly vehicle's speed order will enter this Impulse, in order (for the
    player's Emergency Stop after entering a hex, C2 31.2 (1)).

    The move is tried without dice and without the hex-entry rolls (Mud, Barbed Wire), which may
    stop it earlier. Empty when the order does not move it this Impulse, it is immobilized, or
    the move needs a die (a road fork).
    """
    from solo.rules.vehicles.move_state import VehicleMoveState
    from solo.rules.vehicles.speed_and_terrain import convert_speed

    o = game.order_def(driver)
    imp = game.state.flow.impulse
    if vehicle.hex is None or not vehicle.is_active or vehicle.immobilized or driver.order is None:
        return []
    if o is None or not o.is_vehicle or o.id == "emergency_stop":
        return []
    vtype = _vtype(game, vehicle)
    new_id, _why = convert_speed(o.id, game.state.weather, game.state.ground, vtype.kind, False)
    o = game.data.orders.get(new_id)
    dirs = driver.order.directions
    if not o.slots(imp) or (dirs is None and not vehicle.road_orders):
        return []
    start = VehicleMoveState(
        vehicle.hex, vehicle.facing, vehicle.turret if vehicle.turret is not None else vehicle.facing
    )
    try:
        _new, report = _trial_move(game, vtype, start, o, dirs, imp, turn_way=1, road=vehicle.road_orders)
    except ValueError:
        return []
    return [step.hex for step in report.steps if step.kind.value == "move"]


def _trial_move(
    game: GameContext,
    vtype: VehicleType,
    start: Any,
    o: Order,
    dirs: DirectionString | None,
    imp: int,
    *,
    turn_way: int | None = None,
    road: bool = False,
) -> Any:
    """A Friendly vehicle's move for Impulse ``imp`` (1-4) tried without dice and without the
    hex-entry rolls (C2 31.4-31.5), fire hexes blocked: ``(new state, report)`` of
    :func:`~solo.rules.vehicles.movement.move_impulse`. Raises ``ValueError`` where the move
    needs a die (a 180° turn without ``turn_way``, a road fork)."""
    from solo.rules.vehicles.movement import move_impulse

    return move_impulse(
        game.board,
        vtype.kind,
        start,
        o,
        dirs,
        imp,
        is_enemy=False,
        blocked=lambda h: h in game.state.markers.fire,
        dice=None,
        turn_way=turn_way,
        road=road,
        orders=game.data.orders,
    )


def _needs_180(
    game: GameContext,
    vehicle: Vehicle,
    vtype: VehicleType,
    start: Any,
    o: Order,
    dirs: DirectionString | None,
    imp: int,
) -> bool:
    """Whether a Friendly vehicle's move this Impulse starts a 180° turn (C2 31.4): the move is
    tried without dice and without the hex-entry rolls; only a 180° turn would need a die."""
    try:
        _trial_move(game, vtype, start, o, dirs, imp)
    except ValueError as exc:
        return "180°" in str(exc)
    return False


def free_turn_useful(game: GameContext, vehicle: Vehicle) -> bool:
    """Whether a Friendly vehicle's free hexside turn (C2 31.4) can matter now [house]: a Known
    opponent (a revealed Enemy on foot, or an Enemy vehicle, on the map) lies outside the hull's
    Front arc, so turning brings the front armour, the bow MG or the hull-mounted arcs toward it.
    With every Known opponent in the Front arc, or none, the Driver is not asked (a speed order
    makes its own turns, 31.4)."""
    if vehicle.hex is None:
        return False
    stagger = game.board.map.stagger
    where = [
        c.hex
        for c in game.state.characters.values()
        if c.side is not vehicle.side and c.is_active and c.revealed and c.hex is not None and not c.dummy
    ]
    where += [
        v.hex
        for v in vehicles_of(game.state).values()
        if v.side is not vehicle.side and v.is_active and v.hex is not None
    ]
    here = vehicle.hex
    return any(h != here and arc_of(here, vehicle.facing, h, stagger) is not Arc.FRONT for h in where)


def free_turn_step(
    game: GameContext, vehicle: Vehicle, driver: Character, imp: int
) -> Generator[Decision, str, None]:
    """A Friendly vehicle's free hexside turn without a movement order (C2 31.4 "a movement Order
    is not required for Friendly Vehicles to turn ... it may turn one hex-side for free once per
    Impulse").

    Offered (``ORDER_TARGET``: ``stay``, ``turn:<facing>`` for each neighbouring facing) when the
    Driver's order does not move the vehicle this Impulse (no speed order, Emergency Stop, or a
    speed order with no movement this Impulse) and is not Panic or Bail Out
    (:data:`NO_FREE_TURN_ORDERS`), the vehicle is not immobilized or Mired, it has not turned
    for free this Impulse, and a turn is useful (:func:`free_turn_useful`). The turret turns with
    the hull [house].
    """
    from solo.rules.vehicles.move_state import VehicleMoveState
    from solo.rules.vehicles.turning import free_turn

    if (
        vehicle.side is not Side.FRIENDLY
        or vehicle.hex is None
        or not vehicle.is_active
        or vehicle.immobilized
    ):
        return
    o = game.order_def(driver)
    if o is not None and o.is_vehicle and o.id != "emergency_stop" and o.slots(imp):
        return
    if o is not None and o.id in NO_FREE_TURN_ORDERS:
        return
    flow = game.state.flow
    if vehicle.acted.get("free_turn_at") == (flow.turn, imp):
        return
    if not free_turn_useful(game, vehicle):
        return
    f = vehicle.facing
    key = yield game.decision(
        DecisionKind.ORDER_TARGET,
        f"{vehicle.name} ({driver.name}) may turn one hexside for free (C2 31.4), facing {f}",
        [
            ("stay", f"Keep facing {f}"),
            (f"turn:{rotate(f, 1)}", f"Turn clockwise to {rotate(f, 1)}"),
            (f"turn:{rotate(f, -1)}", f"Turn anticlockwise to {rotate(f, -1)}"),
        ],
        actor=driver.id,
    )
    if key == "stay":
        return
    start = VehicleMoveState(vehicle.hex, f, vehicle.turret if vehicle.turret is not None else f)
    new, step = free_turn(start, int(key.partition(":")[2]))
    vehicle.facing = new.facing
    if vehicle.turret is not None:
        vehicle.turret = new.turret
    vehicle.acted["free_turn_at"] = (flow.turn, imp)
    game.emit(
        "vehicle_move",
        f"{vehicle.name} ({driver.name}): {step.text}; now in {vehicle.hex} facing {new.facing}.",
        rule="C2 31.4",
        actor=driver.id,
        data={
            "vehicle": vehicle.id,
            "order": o.id if o is not None else None,
            "start": str(vehicle.hex),
            "end": str(vehicle.hex),
            "facing": new.facing,
            "turret": new.turret,
            "hexes": 0,
            "steps": [
                {
                    "kind": step.kind.value,
                    "hex": str(step.hex),
                    "facing": step.facing,
                    "text": step.text,
                    "rule": step.rule,
                }
            ],
        },
    )
    _refresh_markers(game)


def _report_move(
    game: GameContext,
    vehicle: Vehicle,
    driver: Character,
    o: Order,
    dirs: DirectionString | None,
    report: MoveReport,
) -> None:
    steps = [s.text for s in report.steps]
    shown = "road" if vehicle.road_orders else str(dirs)
    body = "; ".join(steps) if steps else "no movement"
    rules = sorted({s.rule for s in report.steps}) or ["C2 31.4"]
    game.emit(
        "vehicle_move",
        f"{vehicle.name} ({driver.name}, {o.name} {shown}): {body}; now in {report.end.hex} facing "
        f"{report.end.facing}.",
        rule=", ".join(rules),
        actor=driver.id,
        data={
            "vehicle": vehicle.id,
            "order": o.id,
            "directions": shown,
            "start": str(report.start.hex),
            "end": str(report.end.hex),
            "facing": report.end.facing,
            "turret": report.end.turret,
            "hexes": report.hexes_moved,
            "order_after": report.order_id,
            "steps": [
                {"kind": s.kind.value, "hex": str(s.hex), "facing": s.facing, "text": s.text, "rule": s.rule}
                for s in report.steps
            ],
        },
    )
