"""A crewman's or passenger's activation and the vehicles' End Phase (C2 31).

* :func:`impulse_start`: per-Impulse vehicle state (what was loaded at the start, 31.9.4 d).
* :func:`activate` (Step 4, instead of the infantry steps): one crewman's or passenger's
  activation, in the order of the base rules' Step 4 a):

  i)   passive effects: on Impulse 1 a Bail Out order becomes Button/Open Up (closed hatch),
       Relocate or Panic (jammed hatch, hatchless Gunner, a moving AFV, the 4-man limit of
       Jeeps, Trucks and Half-Tracks); a Panic order takes his Target Marker away (31.7.4,
       31.11.2). A Gunner with a fire order then turns the turret one hexside if he must
       (31.6, :mod:`~solo.rules.vehicles.turret`). The turn comes *before* his spotting, as in
       the rules' example of play; it replaces his fire this Impulse.
  ii)  the spotting segment in his seat's LOS and his Target Marker
       (:mod:`~solo.rules.vehicles.markers`; Enemy: ``game.enemy.place_enemy_marker``;
       Friendly: a Decision, 31.7.5).
  iii) Friendly: the Driver may declare Emergency Stop (31.2), other exposed men Duck Back
       (7.19); Enemy Driver: ``game.enemy.enemy_emergency_stop`` (31.2 (1)).
  iv)  the order's action this Impulse: the Driver moves the vehicle
       (:mod:`~solo.rules.vehicles.driving`), the Gunner fires, the Loader loads, hatches flip,
       men bail out and relocate, smoke goes out (:mod:`~solo.rules.vehicles.crew_actions`).

* :func:`end_phase` (Step 5): discharger smoke fades outward, mired Jeeps and Trucks try to
  get free (28.2), per-turn vehicle state is cleared.

Readings of the rules made in the vehicle rules (each is a module constant):

* **Closed hatch and markers** (31.7.3 vs 31.8): 31.8 says a closed hatch's -2 becomes -1
  when another crewman of the same vehicle has a marker *on* the target; 31.7.3 says the
  penalty is "negated completely" by another crewman's marker *in or adjacent to* the target,
  or by the marker of the Commander of another AFV of the same side. The example of play
  follows 31.7.3, and so do we by default (the house option ``closed_hatch_marker``: ``negated``
  or ``minus_1``).
* **Commander's Leadership on crew TQCs**: 31.10.9 gives it to MCs, but the example of play
  adds the Commander's LDR 2 to the Driver's Emergency Stop TQC and to the Gunner's fire TQC;
  it is added to every crew TQC (loading, Emergency Stop retention, moving a marker) and never
  to spotting (:data:`solo.rules.vehicles.seats.LEADERSHIP_ON_CREW_TQC`).
* **Emergency Stop retention** (31.11.2 "if the vehicle is moving N hexes on the Impulse"):
  N is the larger of the hexes the speed order moves this Impulse and the hexes already
  moved this Impulse; 0 or 1 keep every order
  (:func:`solo.rules.vehicles.emergency_stop.emergency_stop`).

May import: every vehicle rule module (it is the top of :mod:`solo.rules.vehicles`), the rules
below, and the rooms below rules.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from solo.core.hexes import Hex
from solo.data.orders import TrackStep
from solo.data.tables import CheckKind
from solo.data.vehicle_types import VehicleKind
from solo.rules import morale, smoke
from solo.rules.state import Side
from solo.rules.vehicles import main_gun
from solo.rules.vehicles.crew_actions import (
    BAIL_OUT_LIMIT,
    _bail_allowed,
    _bail_out,
    _dischargers,
    _empty_seats,
    _fire,
    _flip_hatch,
    _hatch_smoke,
    _load,
    _loaded_at_start,
    _relocate,
    _replace,
)
from solo.rules.vehicles.crew_orders import FIRE_ORDERS
from solo.rules.vehicles.driving import STOP_AFTER_KEY, _drive, free_turn_step, planned_hexes
from solo.rules.vehicles.emergency_stop import emergency_stop, stop_speed
from solo.rules.vehicles.markers import (
    _clear_marker,
    _markers,
    _remove_lost_markers,
    _spotting_segment,
)
from solo.rules.vehicles.seats import (
    OUT_OF_POSITION,
    _homes,
    _is_moving,
    _occupant,
    _vtype,
    buttoned_up,
    exposed,
    seat_sees,
    uses_target_marker,
)
from solo.rules.vehicles.state import Hatch, Vehicle, vehicle_of, vehicles_of
from solo.rules.vehicles.turret import _turned_now, _turret_turn

if TYPE_CHECKING:
    from solo.core.decisions import Decision
    from solo.rules.context import GameContext
    from solo.rules.state import Character

__all__ = [
    "BAIL_OUT_LIMIT",
    "FIRE_ORDERS",
    "OUT_OF_POSITION",
    "TURRET_ORDERS",
    "activate",
    "buttoned_up",
    "emergency_stop",
    "end_phase",
    "exposed",
    "impulse_start",
    "seat_sees",
    "stop_speed",
    "uses_target_marker",
]

TURRET_ORDERS: tuple[str, ...] = ("fire_main_gun", *FIRE_ORDERS)
"""A Gunner with one of these orders may turn the turret (C2 31.6)."""
MIRED_PANIC_KEY = "mired_panic"
"""``Vehicle.acted`` key set in the End Phase: its Enemy Driver gets Panic next turn (C2 28.2)."""


# ---------------------------------------------------------------------------
# Seats, hatches and LOS (C2 31.7, 31.8)


# ---------------------------------------------------------------------------
# Crew TQ: Leadership and positions (C2 31.10.9, 31.11.2)


# ---------------------------------------------------------------------------
# Step 1: Friendly vehicle initiatives (C2 31.1)


# ---------------------------------------------------------------------------
# Step 2: Friendly crew orders (C2 31.8, 31.9, 31.11.2)


# ---------------------------------------------------------------------------
# Spotting and Target Markers (C2 31.7)


# ---------------------------------------------------------------------------
# Turret (C2 31.6)


# ---------------------------------------------------------------------------
# Emergency Stop (C2 31.2, 31.11.2)


# ---------------------------------------------------------------------------
# Step 4: the activation


def impulse_start(game: GameContext) -> None:
    """At the start of each Impulse: hexes moved reset, whether each main gun is loaded now (the
    Loader and Gunner read the START of the Impulse, C2 31.11.2), and Target Markers whose owners
    lost LOS since (smoke, movement) removed (31.7.4)."""
    flow = game.state.flow
    for v in vehicles_of(game.state).values():
        v.moved_this_impulse = 0
        v.acted["impulse_start"] = (flow.turn, flow.impulse, v.loaded.value if v.loaded is not None else None)
        if v.is_active:
            _remove_lost_markers(game, v)


def activate(game: GameContext, ch: Character) -> Generator[Decision, str, None]:
    """A crew member's activation: spotting and Target Marker, Duck Back/Emergency Stop, his order's action.

    Step 4 a) i)-iv) for a man in a vehicle (C2 31.1-31.11; see the module docstring for the
    order of the parts). Impulse 1-4 from ``game.state.flow``. Yields Friendly Decisions
    (Target Marker and turret: ORDER_TARGET; Emergency Stop and Duck Back: DUCK_BACK;
    Relocate: ORDER_TARGET; and what the fire modules ask).
    """
    vehicle = vehicle_of(game.state, ch)
    if vehicle is None or ch.seat is None or ch.seat not in vehicle.seats or not ch.is_active:
        return
    _homes(game)
    _loaded_at_start(game, vehicle)
    imp = game.state.flow.impulse
    # i) passive start-of-activation effects
    _passive(game, vehicle, ch, imp)
    if not ch.is_active or ch.vehicle != vehicle.id:
        return
    if ch.seat == "gunner" and ch.order is not None and ch.order.order in TURRET_ORDERS:
        yield from _turret_turn(game, vehicle, ch)
    # ii) spotting segment, then the Target Marker (31.7.4-31.7.5)
    _spotting_segment(game, vehicle, ch)
    yield from _markers(game, vehicle, ch)
    _remove_lost_markers(game, vehicle)
    # iii) Duck Back / Emergency Stop declaration (7.19; 31.2)
    yield from _declarations(game, vehicle, ch, imp)
    # iv) the order's action this Impulse (31.11.2)
    yield from _action(game, vehicle, ch, imp)


def _passive(game: GameContext, vehicle: Vehicle, ch: Character, imp: int) -> None:
    """Step 4 a) i) for a man in a vehicle: Bail Out replacements on Impulse 1; Panic loses his
    Target Marker (C2 31.7.4, 31.10.9, 31.11.2)."""
    assert ch.seat is not None
    order = ch.order.order if ch.order is not None else None
    if order == "panic":
        _clear_marker(game, vehicle, ch.seat, "he panics", "C2 31.7.4")
    if (
        imp == 1
        and ch.seat == "driver"
        and ch.side is Side.ENEMY
        and vehicle.acted.pop(MIRED_PANIC_KEY, False)
    ):
        _replace(game, ch, "panic", "his mired vehicle did not get free", "C2 28.2")
        return
    if imp != 1 or order != "bail_out":
        return
    vtype = _vtype(game, vehicle)
    if vtype.kind is VehicleKind.AFV:
        seat = vehicle.seats[ch.seat]
        if _is_moving(game, vehicle):
            _replace(game, ch, "panic", "AFV crew may not bail out of a moving AFV", "C2 31.11.2")
            return
        pos = vtype.position(ch.seat)
        if pos.hatch and seat.hatch is Hatch.CLOSED:
            _replace(game, ch, "button_open_up", "his hatch is closed: he opens it first", "C2 31.11.2")
            return
        if not pos.hatch or seat.hatch is Hatch.JAMMED_CLOSED:
            free = _empty_seats(game, vehicle, ch, hatch_needed=True)
            why = "his hatch is jammed shut" if pos.hatch else "his position has no hatch"
            if free:
                ch.acted["relocate_for"] = "bail_out"
                _replace(
                    game, ch, "relocate", f"{why}: he relocates to a position with a hatch", "C2 31.11.2"
                )
            else:
                _replace(game, ch, "panic", f"{why} and no empty position has a usable hatch", "C2 31.11.2")
        return
    if ch.id not in _bail_allowed(game, vehicle):
        ch.acted["relocate_for"] = "bail_limit"
        _replace(
            game,
            ch,
            "relocate",
            f"at most {BAIL_OUT_LIMIT} men bail out of a {vtype.kind.value.replace('_', '-')} per turn, "
            "highest passenger numbers first",
            "C2 31.11.2",
        )


def _declarations(
    game: GameContext, vehicle: Vehicle, ch: Character, imp: int
) -> Generator[Decision, str, None]:
    """Step 4 a) iii): Friendly Emergency Stop (Driver) or Duck Back (exposed men); the Enemy
    Driver's Emergency Stop check (C2 31.2, 7.19)."""
    from solo.core.decisions import DecisionKind

    assert ch.seat is not None
    o = game.order_def(ch)
    if ch.side is Side.ENEMY:
        if ch.seat == "driver" and o is not None and o.is_vehicle and o.id != "emergency_stop":
            hexes = stop_speed(game, vehicle, ch)
            # crew_ai makes the stop through emergency_stop() above (which applies the 31.11.2
            # retention once); only if it set the order some other way is it done here.
            if game.enemy.enemy_emergency_stop(game, ch) and (
                ch.order is None or ch.order.order != "emergency_stop"
            ):
                emergency_stop(
                    game,
                    vehicle,
                    ch,
                    reason="his Commander marked a threat",
                    rule="C2 31.2 (1)",
                    hexes=hexes,
                )
        return
    if o is None:
        return
    if ch.seat == "driver" and o.is_vehicle and o.id != "emergency_stop":
        path = planned_hexes(game, vehicle, ch)
        key = yield game.decision(
            DecisionKind.DUCK_BACK,
            f"{ch.name} ({vehicle.name} Driver, {o.name}): Emergency Stop?",
            [("no", f"Carry on with {o.name}"), ("emergency_stop", "Emergency Stop")]
            + [(f"stop_after:{h}", f"Move, and Emergency Stop on entering {h} (C2 31.2 (1))") for h in path],
            actor=ch.id,
        )
        if key == "emergency_stop":
            emergency_stop(game, vehicle, ch, reason="declared by the player", rule="C2 31.2")
        elif key.startswith("stop_after:"):
            flow = game.state.flow
            vehicle.acted[STOP_AFTER_KEY] = (flow.turn, flow.impulse, key.partition(":")[2])
        return
    if (
        o.id in ("duck_back", "panic")
        or o.track(imp) is TrackStep.NONE
        or not exposed(game, vehicle, ch.seat)
    ):
        return
    key = yield game.decision(
        DecisionKind.DUCK_BACK,
        f"{ch.name} ({vehicle.name} {ch.seat}, {o.name}): Duck Back?",
        [("no", f"Carry on with {o.name}"), ("yes", "Duck Back")],
        actor=ch.id,
    )
    if key == "yes":
        game.set_order(ch, "duck_back", source="player: Duck Back (7.19)")
        game.emit("duck_back", f"{ch.name} ducks back.", rule="7.19", actor=ch.id)


def _action(game: GameContext, vehicle: Vehicle, ch: Character, imp: int) -> Generator[Decision, str, None]:
    """Step 4 a) iv): what the man's order does this Impulse (C2 31.9, 31.11.2)."""
    o = game.order_def(ch)
    if ch.seat == "driver" and ch.side is Side.FRIENDLY:
        yield from free_turn_step(game, vehicle, ch, imp)  # C2 31.4
    if o is None:
        return
    oid = o.id
    if o.is_vehicle:
        if ch.seat == "driver":
            yield from _drive(game, vehicle, ch, o, imp)
    elif oid == "fire_main_gun":
        if o.track(imp) is not TrackStep.FIRE:
            return
        if _turned_now(game, vehicle):
            game.emit(
                "no_fire",
                f"{ch.name} does not fire the main gun: the turret turned this Impulse.",
                rule="C2 31.6",
                actor=ch.id,
                data={"reason": "turret turned"},
            )
            return

        yield from main_gun.fire_main_gun(game, vehicle, ch)
    elif oid in FIRE_ORDERS:
        if o.track(imp) is not TrackStep.FIRE:
            return
        yield from _fire(game, vehicle, ch, o)
    elif oid in ("load_he", "load_ap"):
        _load(game, vehicle, ch, oid, imp)
    elif oid == "direct_firing":
        if not vehicle.acted.get("direct_firing"):
            vehicle.acted["direct_firing"] = True
            game.emit(
                "direct_firing",
                f"{ch.name} directs the {vehicle.name}'s fire: +1 WS to all its fire this turn.",
                rule="C2 31.11.2",
                actor=ch.id,
                data={"vehicle": vehicle.id},
            )
    elif oid == "smoke_grenade_hatch" and imp == 3:
        _hatch_smoke(game, vehicle, ch)
    elif oid == "smoke_dischargers" and imp == 3:
        _dischargers(game, vehicle, ch)
    elif oid == "button_open_up" and imp == 3:
        _flip_hatch(game, vehicle, ch)
    elif oid == "bail_out" and imp == 3:
        _bail_out(game, vehicle, ch)
    elif oid == "relocate" and imp == 4:
        yield from _relocate(game, vehicle, ch)


# ---------------------------------------------------------------------------
# The Driver (C2 31.4-31.5, 31.11.1, 27.7, 28.1-28.2, 31.3)


# ---------------------------------------------------------------------------
# Step 5 (C2 28.2, 31.11.2)


def end_phase(game: GameContext) -> None:
    """Step 5 for vehicles: per-turn state cleared (31.11.2).

    Before clearing: Fading Smoke goes into each hex adjacent to this turn's discharger Smoke
    (31.11.2); a Mired Jeep or Truck's Driver makes a TQC-3 to get free (28.2; failure: an
    Enemy Driver gets Panic next turn). Then ``Vehicle.acted`` and ``moved_this_impulse`` are
    reset, and markers whose owners lost LOS (the End Phase's smoke) are removed (31.7.4).
    """

    vehicles = list(vehicles_of(game.state).values())
    for v in vehicles:
        where = v.acted.get("discharger_hex")
        if where is not None:
            centre = Hex.parse(where)
            for d in (1, 2, 3, 4, 5, 6):
                n = game.board.neighbour_hex(centre, d)
                if n is not None:
                    smoke.place_smoke(
                        game, n, "fading", cause=f"the {v.name}'s smoke dischargers spread", rule="C2 31.11.2"
                    )
    for v in vehicles:
        panic = False
        if v.mired and v.is_active:
            driver = _occupant(game, v.seats.get("driver"))
            if driver is not None and driver.is_active:
                out = morale.check(
                    game, driver, CheckKind.TQC, modifier=-3, purpose=f"free the Mired {v.name} (C2 28.2)"
                )
                if out.passed:
                    v.mired = False
                    game.emit(
                        "mired", f"The {v.name} is free of the mud.", rule="C2 28.2", data={"vehicle": v.id}
                    )
                else:
                    panic = driver.side is Side.ENEMY
        v.acted.clear()
        v.moved_this_impulse = 0
        if panic:
            v.acted[MIRED_PANIC_KEY] = True
        if v.is_active:
            _remove_lost_markers(game, v)
