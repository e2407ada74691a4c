"""Vehicle crews in play: initiatives, Friendly orders, and each crewman's activation (C2 31).

The engine calls four functions (and should call :func:`impulse_start`):

* :func:`friendly_vehicle_initiatives` (Step 1): a Friendly card gives the first Friendly
  vehicle the Able value, the second Baker's, the third Charlie's (31.1).
* :func:`friendly_crew_order_options` (Step 2): the orders a Friendly crewman or passenger may
  be given from his position (31.8, 31.9, 31.11.2).
* :func:`activate` (Step 4, instead of the infantry steps): one crewman's or passenger's
  activation, in the order of the base rules' Step 4 a):

  i)   passive effects: on Impulse 1 a Bail Out order becomes Button/Open Up (closed hatch),
       Relocate or Panic (jammed hatch, hatchless Gunner, a moving AFV, the 4-man limit of
       Jeeps, Trucks and Half-Tracks); a Panic order takes his Target Marker away (31.7.4,
       31.11.2). A Gunner with a fire order then turns the turret one hexside if he must
       (31.6): toward the Commander's higher-priority marker or his own Observed Target out
       of the turret's front arc (Enemy), or as the player chooses (Friendly). The turn comes
       *before* his spotting, as in the rules' example of play (the Gunner turns, then spots
       Douglas through the new front arc); it replaces his fire this Impulse.
  ii)  the spotting segment in his seat's LOS (:func:`seat_sees`) with the closed-hatch and
       Spot-order modifiers (:func:`spot_modifiers`), once per activation; then his Target
       Marker (Enemy: ``crew_ai.place_enemy_marker``; Friendly: a Decision, 31.7.5), and
       markers whose owners lost sight of every opponent are removed.
  iii) Friendly: the Driver may declare Emergency Stop (31.2), other exposed men Duck Back
       (7.19); Enemy Driver: ``crew_ai.enemy_emergency_stop`` (31.2 (1)).
  iv)  the order's action this Impulse: the Driver moves the vehicle
       (:func:`solo.rules.vehicles.movement.move_impulse`), the Gunner fires (``vehicle_combat``), the
       Loader loads, hatches flip on Impulse 3, men bail out on Impulse 3 and relocate on
       Impulse 4, smoke goes out on Impulse 3 (31.11.2).

* :func:`end_phase` (Step 5): discharger smoke fades outward, mired Jeeps and Trucks try to
  get free (28.2), per-turn vehicle state is cleared.

Readings of the rules made here (each is also a module constant):

* **Closed hatch and markers** (31.7.3 vs 31.8): 31.8 says a closed hatch's -2 becomes -1
  when another crewman of the same vehicle has a marker *on* the target; 31.7.3 says the
  penalty is "negated completely" by another crewman's marker *in or adjacent to* the target,
  or by the marker of the Commander of another AFV of the same side. The example of play
  (the Gunner spotting Douglas with no penalty thanks to the Commander's marker) follows
  31.7.3, and so does this module (:data:`MARKER_NEGATES_CLOSED_HATCH`).
* **Commander's Leadership on crew TQCs**: 31.10.9 gives it to MCs, but the example of play
  adds the Commander's LDR 2 to the Driver's Emergency Stop TQC and to the Gunner's fire TQC;
  this module adds it to every crew TQC it rolls (loading, Emergency Stop retention, moving a
  marker) and never to spotting (:data:`LEADERSHIP_ON_CREW_TQC`).
* **Emergency Stop retention** (31.11.2 "if the vehicle is moving N hexes on the Impulse"):
  N is the larger of the hexes the speed order moves this Impulse and the hexes already
  moved this Impulse; 0 or 1 keep every order (:func:`emergency_stop`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from solo.core.hexes import Arc, Hex, in_arcs, rotate, wedge_directions
from solo.data.cards import DirectionString
from solo.data.orders import TrackStep
from solo.data.tables import CheckKind
from solo.data.vehicle_types import Role, VehicleKind, VehicleType
from solo.data.weapons import WeaponKind
from solo.rules import fire_action, morale, wounds
from solo.rules.state import Side
from solo.rules.vehicles import machine_guns, main_gun
from solo.rules.vehicles.emergency_stop import emergency_stop, stop_speed
from solo.rules.vehicles.markers import (
    _clear_marker,
    _markers,
    _refresh_markers,
    _remove_lost_markers,
    _spotting_segment,
)
from solo.rules.vehicles.seats import (
    OUT_OF_POSITION,
    _crew_tqc,
    _driver_order,
    _homes,
    _is_crew_seat,
    _is_moving,
    _occupant,
    _out_of_position,
    _vtype,
    buttoned_up,
    exposed,
    seat_sees,
    uses_target_marker,
)
from solo.rules.vehicles.state import CREW_ORDER, Ammo, Hatch, Vehicle, vehicle_of, vehicles_of

if TYPE_CHECKING:
    from solo.core.decisions import Decision
    from solo.data.orders import Order
    from solo.rules.context import GameContext
    from solo.rules.state import Character
    from solo.rules.vehicles.movement import MoveReport

__all__ = [
    "ALERT_RANGE",
    "BAIL_OUT_LIMIT",
    "BAIL_OUT_SPEED_MODIFIERS",
    "FIRE_ORDERS",
    "OUT_OF_POSITION",
    "TURRET_ORDERS",
    "activate",
    "buttoned_up",
    "emergency_stop",
    "end_phase",
    "exposed",
    "friendly_crew_order_options",
    "friendly_vehicle_initiatives",
    "impulse_start",
    "seat_sees",
    "stop_speed",
    "uses_target_marker",
]

ALERT_RANGE = 5
"""C2 31.3 Additional Alert Rule: a moving Friendly vehicle alerts Waiting enemies this near."""
BAIL_OUT_LIMIT = 4
"""At most 4 men bail out of a Jeep, Truck or Half-Track per turn, highest passenger numbers first
(C2 31.11.2)."""
BAIL_OUT_SPEED_MODIFIERS: dict[str, int] = {"ahead_slow": 1, "forward": 0, "fast": -2}
"""TQC modifiers for bailing out of a Jeep, Truck or Half-Track moving faster than Crawl, by the
Driver's order (C2 31.11.2: Ahead Slow +1, Fast -2; Forward 0 [reading])."""
FIRE_ORDERS: tuple[str, ...] = ("aimed_fire", "rapid_fire", "suppressive_fire")
"""The fire orders a crewman or passenger may hold (C2 31.9)."""
TURRET_ORDERS: tuple[str, ...] = ("fire_main_gun", *FIRE_ORDERS)
"""A Gunner with one of these orders may turn the turret (C2 31.6)."""
SMALL_ARMS: tuple[WeaponKind, ...] = (WeaponKind.PISTOL, WeaponKind.SMG, WeaponKind.RIFLE, WeaponKind.MG)
"""Weapons a man may fire from a vehicle position when the position allows it (C2 31.9)."""
MOUNT_KEY = "vehicle_weapon"
"""``ch.acted`` key (written by ``crew_ai`` for Enemy crews): the mount id his fire order uses."""
WIRE_REMOVED_KEY = "barbed_wire_removed"
"""``state.flags`` key: hexes (``"CC.RR"``) whose Barbed Wire a vehicle flattened (C2 27.7)."""
MIRED_PANIC_KEY = "mired_panic"
"""``Vehicle.acted`` key set in the End Phase: its Enemy Driver gets Panic next turn (C2 28.2)."""


# ---------------------------------------------------------------------------
# Seats, hatches and LOS (C2 31.7, 31.8)


# ---------------------------------------------------------------------------
# Crew TQ: Leadership and positions (C2 31.10.9, 31.11.2)


# ---------------------------------------------------------------------------
# Step 1: Friendly vehicle initiatives (C2 31.1)


def friendly_vehicle_initiatives(game: GameContext) -> None:
    """Step 1: each Friendly vehicle's initiative from a new Friendly card (C2 31.1).

    The first vehicle takes the Able value, the second Baker's, the third Charlie's; a fourth
    vehicle starts a new card [house]. Event cards are discarded and another card drawn, then
    deck and discards are shuffled (as C2 25.0 for the Command team). The card is discarded.
    Vehicles count while their team has an active member, in or out of the vehicle (31.1).
    """
    st = game.state
    teams = [
        st.teams[vid]
        for vid, v in vehicles_of(st).items()
        if v.side is Side.FRIENDLY
        and vid in st.teams
        and any(st.characters[c].is_active for c in st.teams[vid].members if c in st.characters)
    ]
    for start in range(0, len(teams), 3):
        chunk = teams[start : start + 3]
        card_id = game.draw_friendly("Friendly vehicle initiative (C2 31.1)")
        card = game.data.friendly_deck.card(card_id)
        shuffle = False
        while card.initiatives is None:
            game.friendly_deck.discard(card_id)
            card_id = game.draw_friendly("Friendly vehicle initiative, redraw after an Event (C2 31.1)")
            card = game.data.friendly_deck.card(card_id)
            shuffle = True
        i = card.initiatives
        values = (("Able", i.able), ("Baker", i.baker), ("Charlie", i.charlie))
        for team, (_col, value) in zip(chunk, values, strict=False):
            team.initiative = value
        game.friendly_deck.discard(card_id)
        if shuffle:
            game.friendly_deck.shuffle_all(game.dice, "after an Event drawn for vehicle initiative (C2 31.1)")
        shown = ", ".join(
            f"{team.name} {value} ({col})" for team, (col, value) in zip(chunk, values, strict=False)
        )
        game.emit(
            "initiative",
            f"Friendly vehicle initiative from card {card.id}: {shown}.",
            rule="C2 31.1",
            data={
                "card": card.id,
                "initiatives": {team.id: value for team, (_col, value) in zip(chunk, values, strict=False)},
            },
        )


# ---------------------------------------------------------------------------
# Step 2: Friendly crew orders (C2 31.8, 31.9, 31.11.2)


def _mounted_weapon(game: GameContext, vehicle: Vehicle, position: str, *, mount: str | None = None) -> Any:
    """The machine gun ``position`` fires (coaxial, bow, pintle; ``mount`` to ask for one), or None.

    A pintle MG needs its gunner exposed (C2 31.9).
    """
    vtype = _vtype(game, vehicle)
    for w in vtype.weapons:
        if (
            w.id.value == "main_gun"
            or position not in w.fired_by
            or (mount is not None and w.id.value != mount)
        ):
            continue
        if w.mount.value == "pintle" and not exposed(game, vehicle, position):
            continue
        return w
    return None


def _own_fire_weapons(game: GameContext, vehicle: Vehicle, ch: Character) -> list[str]:
    """Names of ``ch``'s own weapons he may fire from his position (C2 31.9.1-31.9.4 a)."""
    if ch.seat is None:
        return []
    pos = _vtype(game, vehicle).position(ch.seat)
    if not pos.fire_arcs or not exposed(game, vehicle, ch.seat):
        return []
    table = game.data.weapons
    out = []
    for cw in ch.weapons:
        if cw.weapon not in table:
            continue
        w = table.get(cw.weapon)
        if w.kind not in SMALL_ARMS or w.rof is None:
            continue
        if pos.fire_kinds and w.kind not in pos.fire_kinds:
            continue
        out.append(w.name)
    return out


def friendly_crew_order_options(game: GameContext, ch: Character) -> list[tuple[str, str]]:
    """Legal orders for a Friendly crew member or passenger (C2 31.11.2), (order id, label).

    By position: Commander Spot, Direct Firing, Smoke Grenade (AFVs); Driver the speed orders
    of the vehicle type not forbidden by weather or ground (28.1-28.2; none when immobilized or
    mired) — Emergency Stop is declared in Step 4 a) iii), not given here; Gunner Fire Main Gun
    and MG fire with the coaxial MG; Loader Load HE / Load AP while rounds remain; Co-driver MG
    fire with the bow MG; anyone in an exposed position with a weapon his position may fire
    (31.9.1-31.9.4 a), or a pintle MG he serves, the fire orders; every crewman Spot,
    Button/Open Up (a hatch that is not jammed), Hide (an open AFV hatch, 31.8), Relocate and
    Bail Out. Passengers: Hide, Bail Out and fire orders where their position may fire; the
    Half-Track cupola only fire, Bail Out and Relocate (31.9.3). Never empty.
    """
    from solo.rules import movement

    vehicle = vehicle_of(game.state, ch)
    if vehicle is None or ch.seat is None or ch.seat not in vehicle.seats:
        return movement.friendly_order_options(game, ch)
    vtype = _vtype(game, vehicle)
    pos = vtype.position(ch.seat)
    seat = vehicle.seats[ch.seat]
    orders = game.data.orders
    afv = vtype.kind is VehicleKind.AFV
    gun = vtype.main_gun
    gun_ok = gun is not None and "main_gun_destroyed" not in vehicle.damage
    labels: dict[str, str] = {}

    def add(oid: str, detail: str = "") -> None:
        if oid in orders and oid not in labels:
            labels[oid] = orders.get(oid).name + (f" ({detail})" if detail else "")

    mg = _mounted_weapon(game, vehicle, ch.seat)
    own = _own_fire_weapons(game, vehicle, ch)

    def fire_orders() -> None:
        if mg is not None:
            what = f"{mg.id.value.replace('_', ' ')}, {game.data.weapons.get(mg.weapon).name}"
        elif own:
            what = ", ".join(own)
        else:
            return
        for oid in FIRE_ORDERS:
            add(oid, what)

    role = pos.role
    if role is Role.COMMANDER:
        add("spot")
        if afv:
            add("direct_firing")
            add("smoke_grenade_hatch")
    elif role is Role.DRIVER:
        add("spot")
        if not vehicle.immobilized:
            from solo.rules.vehicles.movement import forbidden_speeds

            banned = forbidden_speeds(game.state.weather, game.state.ground)
            for s in vtype.speeds:
                if s.value not in banned:
                    add(s.value)
    elif role is Role.GUNNER:
        if gun_ok:
            add("fire_main_gun")
        fire_orders()
        add("spot")
    elif role is Role.LOADER:
        if gun_ok:
            if vehicle.rounds.get("he", 0) > 0:
                add("load_he")
            if vehicle.rounds.get("ap", 0) > 0:
                add("load_ap")
        add("spot")
    elif role is Role.CO_DRIVER:
        fire_orders()
        add("spot")
    fire_orders()
    if role is not None:
        if pos.hatch and not seat.hatch.is_jammed:
            add("button_open_up")
        if afv and seat.hatch.is_open:
            add("hide")
        if len([p for p in vehicle.seats if _is_crew_seat(p)]) > 1:
            add("relocate")
        add("bail_out")
    elif ch.seat == "cupola":
        add("bail_out")
        add("relocate")
    else:
        add("hide")
        add("bail_out")
    if not labels:
        add("spot")
    return list(labels.items())


# ---------------------------------------------------------------------------
# Spotting and Target Markers (C2 31.7)


# ---------------------------------------------------------------------------
# Turret (C2 31.6)


def _commander_turret_target(game: GameContext, vehicle: Vehicle) -> Hex | None:
    """The Commander's marker when the Gunner has none or a lower-priority one (31.6, 31.7.4)."""
    return game.enemy.commander_turret_target(game, vehicle)


def _in_turret_front(game: GameContext, vehicle: Vehicle, h: Hex) -> bool:
    assert vehicle.hex is not None and vehicle.turret is not None
    if h == vehicle.hex:
        return True
    return in_arcs(vehicle.hex, vehicle.turret, h, game.board.map.stagger, (Arc.FRONT,))


def _enemy_turret_target(game: GameContext, vehicle: Vehicle, gunner: Character) -> tuple[Hex | None, str]:
    """Where an Enemy turret must turn this Impulse, and why (C2 31.6, 31.7.4)."""
    cmd = _commander_turret_target(game, vehicle)
    if cmd is not None and not _in_turret_front(game, vehicle, cmd):
        return (cmd, "toward the Commander's Target Marker (31.6, 31.7.4)")
    seat = vehicle.seats.get(gunner.seat or "")
    if seat is not None and seat.marker is not None:
        marker = seat.marker
        observed = [
            o
            for o in game.opponents(gunner)
            if o.revealed and o.hex is not None and game.distance(o.hex, marker) <= 1
        ]
        if observed and not any(
            _in_turret_front(game, vehicle, o.hex) for o in observed if o.hex is not None
        ):
            return (marker, "toward his Observed Target (31.6)")
    return (None, "")


def _turret_turn(game: GameContext, vehicle: Vehicle, ch: Character) -> Generator[Decision, str, bool]:
    """The Gunner turns the turret one hexside if he must (Enemy) or wants to (Friendly) (C2 31.6).

    Returns True if it turned: then neither the main gun nor the coaxial MG fires this Impulse.
    """
    from solo.core.decisions import DecisionKind
    from solo.rules.vehicles.movement import VehicleMoveState, turn_turret, turn_turret_toward_hex

    vtype = _vtype(game, vehicle)
    if not vtype.turret or vehicle.turret is None or vehicle.hex is None or "turret_jammed" in vehicle.damage:
        return False
    state = VehicleMoveState(vehicle.hex, vehicle.facing, vehicle.turret)
    if ch.side is Side.ENEMY:
        target, why = _enemy_turret_target(game, vehicle, ch)
        if target is None:
            return False
        new, step = turn_turret_toward_hex(game.board, state, target, dice=game.dice)
    else:
        o = game.order_def(ch)
        left, right = rotate(vehicle.turret, -1), rotate(vehicle.turret, 1)
        keep = ("no", f"Keep the turret facing {vehicle.turret}")
        turns = [
            (f"turn_{left}", f"Turn the turret to face {left}"),
            (f"turn_{right}", f"Turn the turret to face {right}"),
        ]
        first = None
        for m in (vehicle.seats[ch.seat or ""].marker, _commander_turret_target(game, vehicle)):
            if m is not None and m != vehicle.hex:
                _state, hint = turn_turret_toward_hex(game.board, state, m, dice=game.dice)
                if hint is not None:
                    first = f"turn_{hint.facing}"
                    break
        if first is not None:
            turns.sort(key=lambda kv: kv[0] != first)
            options = [*turns, keep]
        else:
            options = [keep, *turns]
        key = yield game.decision(
            DecisionKind.ORDER_TARGET,
            f"Turret of {vehicle.name} ({ch.name}, {o.name if o else 'no order'}): turn it? (C2 31.6)",
            options,
            actor=ch.id,
        )
        if key == "no":
            return False
        why = "the player's choice (31.6)"
        new, step = turn_turret(state, int(key.split("_")[1]), dice=game.dice)
    if step is None:
        return False
    vehicle.turret = new.turret
    vehicle.acted["turret_turned"] = game.state.flow.impulse
    game.emit(
        "turret_turn",
        f"{ch.name}: the {vehicle.name}'s {step.text}, {why}; the turn replaces firing the main gun and "
        "coaxial MG this Impulse.",
        rule="C2 31.6",
        actor=ch.id,
        data={"vehicle": vehicle.id, "turret": vehicle.turret, "reason": why},
    )
    _remove_lost_markers(game, vehicle)
    return True


def _turned_now(game: GameContext, vehicle: Vehicle) -> bool:
    """The turret turned this Impulse (``vehicle.acted["turret_turned"]``, read by ``vehicle_combat``)."""
    return bool(vehicle.acted.get("turret_turned") == game.state.flow.impulse)


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


def _loaded_at_start(game: GameContext, vehicle: Vehicle) -> bool:
    flow = game.state.flow
    rec = vehicle.acted.get("impulse_start")
    if rec is None or rec[0] != flow.turn or rec[1] != flow.impulse:
        rec = (flow.turn, flow.impulse, vehicle.loaded.value if vehicle.loaded is not None else None)
        vehicle.acted["impulse_start"] = rec
    return rec[2] is not None


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


def _replace(game: GameContext, ch: Character, order: str, why: str, rule: str) -> None:
    old = game.order_def(ch)
    o = game.data.orders.get(order)
    game.set_order(ch, order, source=f"{why} ({rule})")
    game.emit(
        "crew_order",
        f"{ch.name}: {old.name if old else 'no order'} becomes {o.name} ({why}).",
        rule=rule,
        actor=ch.id,
        data={"from": old.id if old else None, "to": order, "reason": why},
    )


def _bail_allowed(game: GameContext, vehicle: Vehicle) -> list[str]:
    """The (at most 4) men who may bail out of a Jeep, Truck or Half-Track this turn (31.11.2)."""
    turn = game.state.flow.turn
    rec = vehicle.acted.get("bail_allowed")
    if rec is not None and rec[0] == turn:
        return list(rec[1])
    vtype = _vtype(game, vehicle)
    numbered = {p.id: p.number or 0 for p in vtype.passengers}

    def rank(pos: str) -> tuple[int, int]:
        if pos in numbered:
            return (0, -numbered[pos])
        if pos == "cupola":
            return (0, -99)
        return (1, CREW_ORDER.index(pos) if pos in CREW_ORDER else 9)

    wanting = [
        (pos, seat.occupant)
        for pos, seat in vehicle.seats.items()
        if seat.occupant is not None
        and (c := game.state.characters.get(seat.occupant)) is not None
        and c.is_active
        and c.order is not None
        and c.order.order == "bail_out"
    ]
    wanting.sort(key=lambda pc: rank(pc[0]))
    allowed = [cid for _pos, cid in wanting[:BAIL_OUT_LIMIT]]
    vehicle.acted["bail_allowed"] = (turn, allowed)
    return allowed


def _empty_seats(game: GameContext, vehicle: Vehicle, ch: Character, *, hatch_needed: bool) -> list[str]:
    """Empty positions ``ch`` may relocate to (C2 31.11.2).

    Crewmen go to crew seats, passengers (and the cupola's man) to passenger seats and the
    cupola; with ``hatch_needed`` only seats with a hatch that is not jammed shut. Preferred
    first: the Gunner's exit hatches, passengers the highest number.
    """
    vtype = _vtype(game, vehicle)
    crewman = _is_crew_seat(ch.seat)
    out = []
    for pos, seat in vehicle.seats.items():
        occupant = _occupant(game, seat)
        if (occupant is not None and occupant.is_active) or pos == ch.seat:
            continue
        if crewman != _is_crew_seat(pos):
            continue
        if hatch_needed and (not vtype.position(pos).hatch or seat.hatch is Hatch.JAMMED_CLOSED):
            continue
        out.append(pos)
    if ch.seat is not None:
        here = vtype.position(ch.seat)
        exits = [r.value for r in here.exits_via]
        out.sort(key=lambda p: exits.index(p) if p in exits else len(exits))
    numbered = {p.id: p.number or 0 for p in vtype.passengers}
    if not crewman:
        out.sort(key=lambda p: -numbered.get(p, 0))
    return out


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
        key = yield game.decision(
            DecisionKind.DUCK_BACK,
            f"{ch.name} ({vehicle.name} Driver, {o.name}): Emergency Stop?",
            [("no", f"Carry on with {o.name}"), ("emergency_stop", "Emergency Stop")],
            actor=ch.id,
        )
        if key == "emergency_stop":
            emergency_stop(game, vehicle, ch, reason="declared by the player", rule="C2 31.2")
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
    if o is None:
        return
    oid = o.id
    if o.is_vehicle:
        if ch.seat == "driver":
            _drive(game, vehicle, ch, o, imp)
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


def _fire(game: GameContext, vehicle: Vehicle, ch: Character, o: Order) -> Generator[Decision, str, None]:
    """A fire order's F step from a vehicle: the position's MG (coaxial, bow, pintle) through
    ``machine_guns.fire_vehicle_mg``, else his own weapon as an infantry fire action (C2 31.9)."""

    assert ch.seat is not None
    mg = _mounted_weapon(game, vehicle, ch.seat, mount=ch.acted.get(MOUNT_KEY))
    if mg is not None:
        if mg.mount.value == "turret" and _turned_now(game, vehicle):
            game.emit(
                "no_fire",
                f"{ch.name} does not fire the coaxial MG: the turret turned this Impulse.",
                rule="C2 31.6",
                actor=ch.id,
                data={"reason": "turret turned"},
            )
            return
        from solo.rules.vehicles import targets as vehicle_targets

        yield from machine_guns.fire_vehicle_mg(game, vehicle, ch, o, mount=mg.id.value)
        return
    if not _own_fire_weapons(game, vehicle, ch):
        return
    from solo.rules.vehicles import targets as vehicle_targets

    why = vehicle_targets.seat_fire_block(game, ch)
    if why:
        game.emit(
            "no_fire",
            f"{ch.name} ({vehicle.name} {ch.seat}) does not fire: {why}.",
            rule="C2 31.9",
            actor=ch.id,
            data={"reason": why},
        )
        return
    yield from fire_action.fire_step(game, ch, o)


def _load(game: GameContext, vehicle: Vehicle, ch: Character, oid: str, imp: int) -> None:
    """Load HE / Load AP (C2 31.11.2): if the main gun is unloaded at the START of Impulse 2 or 3,
    a crew TQC loads it (failure: no penalty); at the start of Impulse 4 it loads automatically.
    A round of that kind is taken from the vehicle's stock."""
    if imp == 1:
        return
    vtype = _vtype(game, vehicle)
    if vtype.main_gun is None or "main_gun_destroyed" in vehicle.damage:
        return
    kind = Ammo.HE if oid == "load_he" else Ammo.AP
    if _loaded_at_start(game, vehicle):
        game.emit(
            "load",
            f"{ch.name}: the {vehicle.name}'s main gun was loaded at the start of Impulse {imp}; "
            "he does nothing.",
            rule="C2 31.11.2",
            actor=ch.id,
            data={"vehicle": vehicle.id, "loaded": True},
        )
        return
    if vehicle.loaded is not None:
        return
    if vehicle.rounds.get(kind.value, 0) <= 0:
        game.emit(
            "load",
            f"{ch.name} cannot load: no {kind.name} rounds left in the {vehicle.name}.",
            rule="C2 31.11.2",
            actor=ch.id,
            data={"vehicle": vehicle.id, "ammo": kind.value, "rounds": 0},
        )
        return
    if imp in (2, 3):
        out = _crew_tqc(game, vehicle, ch, f"load {kind.name} on Impulse {imp} (C2 31.11.2)")
        if not out.passed:
            game.emit(
                "load",
                f"{ch.name} fails to load the {vehicle.name}'s main gun (no penalty).",
                rule="C2 31.11.2",
                actor=ch.id,
                data={"vehicle": vehicle.id, "ammo": kind.value, "loaded": False},
            )
            return
        how = "TQC passed"
    else:
        how = "automatically on Impulse 4"
    vehicle.loaded = kind
    vehicle.acted["loaded_impulse"] = imp  # not loaded at this Impulse's start (vehicle_combat)
    vehicle.rounds[kind.value] = vehicle.rounds.get(kind.value, 0) - 1
    game.emit(
        "load",
        f"{ch.name} loads {kind.name} into the {vehicle.name}'s main gun ({how}); "
        f"{vehicle.rounds[kind.value]} {kind.name} left.",
        rule="C2 31.11.2",
        actor=ch.id,
        data={
            "vehicle": vehicle.id,
            "ammo": kind.value,
            "loaded": True,
            "rounds": vehicle.rounds[kind.value],
        },
    )


def _hatch_smoke(game: GameContext, vehicle: Vehicle, ch: Character) -> None:
    """Smoke Grenade out of the hatch: a smoke grenade marker in the vehicle's hex on Impulse 3,
    Smoke at the end of the turn (C2 31.11.2; base-rules §12)."""
    from solo.rules import effects

    assert vehicle.hex is not None
    if game.options.smoke_grenade_timing == "immediate":
        effects.place_smoke(
            game,
            vehicle.hex,
            "smoke",
            cause=f"{ch.name}'s smoke grenade from the {vehicle.name}'s hatch",
            rule="C2 31.11.2; 12 [immediate]",
            placed=game.state.flow.turn - 1,
        )
        _refresh_markers(game)
        return
    game.state.markers.grenades.append(
        {"kind": "smoke_grenade", "hex": str(vehicle.hex), "thrower": ch.id, "turn": game.state.flow.turn}
    )
    game.emit(
        "smoke_grenade",
        f"{ch.name} rolls a smoke grenade out of the {vehicle.name}'s hatch into {vehicle.hex}; "
        "it makes Smoke at the end of the turn.",
        rule="C2 31.11.2",
        actor=ch.id,
        data={"vehicle": vehicle.id, "hex": str(vehicle.hex)},
    )


def _discharger_hex(game: GameContext, vehicle: Vehicle) -> Hex | None:
    return game.enemy.smoke_discharger_hex(game, vehicle)


def _dischargers(game: GameContext, vehicle: Vehicle, ch: Character) -> None:
    """Smoke Dischargers: on Impulse 3 a Smoke marker in an adjacent hex toward the greatest threat;
    at the end of the turn Fading Smoke around it (C2 31.11.2; hex by ``crew_ai``)."""
    from solo.rules import effects

    h = _discharger_hex(game, vehicle)
    if h is None:
        return
    effects.place_smoke(
        game, h, "smoke", cause=f"{ch.name} fires the {vehicle.name}'s smoke dischargers", rule="C2 31.11.2"
    )
    vehicle.acted["discharger_hex"] = str(h)
    _refresh_markers(game)


def _flip_hatch(game: GameContext, vehicle: Vehicle, ch: Character) -> None:
    """Button/Open Up: the hatch flips when he activates on Impulse 3; no effect if jammed (31.11.2)."""
    assert ch.seat is not None
    seat = vehicle.seats[ch.seat]
    if seat.hatch in (Hatch.NONE,) or seat.hatch.is_jammed:
        game.emit(
            "hatch",
            f"{ch.name}: the hatch of the {ch.seat} position is "
            + ("jammed" if seat.hatch.is_jammed else "missing")
            + ": Button/Open Up has no effect.",
            rule="C2 31.11.2",
            actor=ch.id,
            data={"vehicle": vehicle.id, "position": ch.seat, "hatch": seat.hatch.value},
        )
        return
    seat.hatch = Hatch.CLOSED if seat.hatch is Hatch.OPEN else Hatch.OPEN
    if seat.hatch is Hatch.OPEN:  # not exposed to small arms until next turn (31.11.2, vehicle_combat)
        vehicle.acted.setdefault("hatch_opened", []).append(ch.seat)
    game.emit(
        "hatch",
        f"{ch.name} {'opens' if seat.hatch is Hatch.OPEN else 'closes'} the {ch.seat} hatch "
        f"of the {vehicle.name}.",
        rule="C2 31.11.2, 31.8",
        actor=ch.id,
        data={"vehicle": vehicle.id, "position": ch.seat, "hatch": seat.hatch.value},
    )
    _remove_lost_markers(game, vehicle)


def _leave_seat(game: GameContext, vehicle: Vehicle, ch: Character) -> None:
    assert ch.seat is not None
    _clear_marker(game, vehicle, ch.seat, "he left the position", "C2 31.7.4")
    vehicle.seats[ch.seat].occupant = None


def _bail_out(game: GameContext, vehicle: Vehicle, ch: Character) -> None:
    """Bail Out on Impulse 3: he is placed on the vehicle's hex and leaves the display (C2 31.11.2).

    AFV crew need an open hatch and a stationary AFV (else Panic). From a Jeep, Truck or
    Half-Track moving faster than Crawl: a TQC (Ahead Slow +1, Fast -2); failure Duck Back, a 9
    Duck Back and a wound draw. His Impulse 4 move (the ``m`` step of Bail Out, taken as an
    infantryman): Enemy crewmen along the rout string of a freshly drawn Enemy card, Enemy
    passengers in a random direction, Friendly men by their order's direction string.
    """

    assert ch.seat is not None and vehicle.hex is not None
    vtype = _vtype(game, vehicle)
    seat = vehicle.seats[ch.seat]
    was_crew = _is_crew_seat(ch.seat)
    if vtype.kind is VehicleKind.AFV:
        if _is_moving(game, vehicle):
            _replace(game, ch, "panic", "AFV crew may not bail out of a moving AFV", "C2 31.11.2")
            return
        if not seat.hatch.is_open:
            game.emit(
                "bail_out",
                f"{ch.name} cannot bail out: the {ch.seat} position has no open hatch.",
                rule="C2 31.11.2",
                actor=ch.id,
                data={"vehicle": vehicle.id, "position": ch.seat, "bailed": False},
            )
            return
    position = ch.seat
    speed = _driver_order(game, vehicle) if vtype.kind is not VehicleKind.AFV else None
    _leave_seat(game, vehicle, ch)
    ch.vehicle = None
    ch.seat = None
    ch.hex = vehicle.hex
    game.emit(
        "bail_out",
        f"{ch.name} bails out of the {vehicle.name} ({position}) into {vehicle.hex}.",
        rule="C2 31.11.2",
        actor=ch.id,
        data={"vehicle": vehicle.id, "position": position, "hex": str(vehicle.hex), "bailed": True},
    )
    if speed is not None and speed.id in BAIL_OUT_SPEED_MODIFIERS and not vehicle.immobilized:
        mod = BAIL_OUT_SPEED_MODIFIERS[speed.id]
        out = morale.check(
            game,
            ch,
            CheckKind.TQC,
            modifier=mod,
            purpose=f"bail out of the {vehicle.name} at {speed.name} ({mod:+d}, C2 31.11.2)",
        )
        if not out.passed:
            morale.duck_back(game, ch, reason="a hard landing bailing out", rule="C2 31.11.2")
            if out.roll == 9:
                stamp = wounds.wound_draw(game, ch)
                wounds.apply_wound(game, ch, stamp, reason="bailing out of a moving vehicle")
    if ch.is_active and ch.side is Side.ENEMY and ch.order is not None and ch.order.order == "bail_out":
        if was_crew:
            draw = game.enemy_deck.draw(game.dice, f"rout direction for {ch.name} bailing out (C2 31.11.2)")
            card = game.data.enemy_deck.card(draw.card)
            game.enemy_deck.discard(draw.card)
            dirs = card.rout
            how = f"the rout string {dirs} of card {card.id}"
        else:
            face = game.dice.d6(f"random direction for {ch.name} bailing out (C2 31.11.2)").total
            dirs = DirectionString((face,))
            how = f"random direction {face}"
        game.set_order(ch, "bail_out", directions=dirs, source=ch.order.source)
        game.emit(
            "bail_out",
            f"{ch.name} will move 1 hex on Impulse 4 along {how}.",
            rule="C2 31.11.2",
            actor=ch.id,
            data={"directions": str(dirs)},
        )
    if not vehicle.crew_ids() and not vehicle.destroyed and not vehicle.abandoned:
        vehicle.abandoned = True
        game.emit(
            "abandoned",
            f"The {vehicle.name} is abandoned: no crewman is left inside.",
            rule="C2 31.11.2",
            data={"vehicle": vehicle.id},
        )


def _relocate(game: GameContext, vehicle: Vehicle, ch: Character) -> Generator[Decision, str, None]:
    """Relocate on Impulse 4: to an empty position, or swap with another relocating crewman
    (C2 31.11.2). Friendly: a Decision; Enemy: the first empty position with a usable hatch when
    relocating to bail out, the highest empty passenger seat for passengers, else the first
    empty crew position in Commander / Driver / Gunner / Loader / Co-driver order."""
    from solo.core.decisions import DecisionKind

    assert ch.seat is not None
    turn = game.state.flow.turn
    if ch.acted.get("relocated") == turn:
        return
    hatch_needed = ch.acted.get("relocate_for") == "bail_out"
    free = _empty_seats(game, vehicle, ch, hatch_needed=hatch_needed)
    crewman = _is_crew_seat(ch.seat)
    partners = [
        (pos, c)
        for pos, seat in vehicle.seats.items()
        if pos != ch.seat
        and (c := _occupant(game, seat)) is not None
        and c.is_active
        and c.order is not None
        and c.order.order == "relocate"
        and c.acted.get("relocated") != turn
        and crewman == _is_crew_seat(pos)
    ]
    if ch.side is Side.FRIENDLY:
        options = [(f"seat:{p}", f"Move to the empty {p} position") for p in free]
        options += [(f"swap:{p}", f"Swap places with {c.name} ({p})") for p, c in partners]
        if not options:
            return
        options.append(("stay", "Stay in place"))
        key = yield game.decision(
            DecisionKind.ORDER_TARGET, f"Relocate {ch.name} ({vehicle.name} {ch.seat})", options, actor=ch.id
        )
        if key == "stay":
            return
        kind, _, target = key.partition(":")
    elif (
        ch.order is not None
        and ch.order.target in vehicle.seats
        and ch.order.target != ch.seat
        and (ch.order.target in free or any(p == ch.order.target for p, _c in partners))
    ):
        target = ch.order.target
        kind = "seat" if target in free else "swap"
    elif free:
        if not crewman or hatch_needed:
            kind, target = "seat", free[0]
        else:
            order = {p: i for i, p in enumerate(CREW_ORDER)}
            kind, target = "seat", min(free, key=lambda p: order.get(p, len(order)))
    elif partners:
        kind, target = "swap", partners[0][0]
    else:
        game.emit(
            "relocate",
            f"{ch.name} cannot relocate: no empty position in the {vehicle.name}.",
            rule="C2 31.11.2",
            actor=ch.id,
            data={"vehicle": vehicle.id, "moved": False},
        )
        return
    old = ch.seat
    if kind == "swap":
        other = _occupant(game, vehicle.seats[target])
        assert other is not None
        _clear_marker(game, vehicle, old, "he changed position", "C2 31.7.4")
        _clear_marker(game, vehicle, target, "he changed position", "C2 31.7.4")
        vehicle.seats[old].occupant, vehicle.seats[target].occupant = other.id, ch.id
        ch.seat, other.seat = target, old
        other.acted["relocated"] = turn
        text = (
            f"{ch.name} and {other.name} swap places in the {vehicle.name}: "
            f"{ch.name} to {target}, {other.name} to {old}."
        )
    else:
        _leave_seat(game, vehicle, ch)
        vehicle.seats[target].occupant = ch.id
        ch.seat = target
        text = f"{ch.name} relocates in the {vehicle.name} from {old} to {target}."
    ch.acted["relocated"] = turn
    team = game.state.teams.get(vehicle.id)
    if team is not None:
        crew = vehicle.crew_ids()
        rest = [m for m in team.members if m not in crew]
        team.members[:] = [*crew, *rest]
    if _out_of_position(game, ch):
        text += f" Out of his own position: {OUT_OF_POSITION} TQ on TQCs except spotting."
    game.emit(
        "relocate",
        text,
        rule="C2 31.11.2",
        actor=ch.id,
        data={"vehicle": vehicle.id, "from": old, "to": target, "swap": kind == "swap", "moved": True},
    )


# ---------------------------------------------------------------------------
# The Driver (C2 31.4-31.5, 31.11.1, 27.7, 28.1-28.2, 31.3)


def _inverse_map(game: GameContext, ch: Character, d: int) -> int:
    """The order direction that the Direction Counter turns into map direction ``d``."""
    from solo.rules import movement

    for od in (1, 2, 3, 4, 5, 6):
        if movement.map_direction(game, ch, od) == d:
            return od
    return d


def _on_enter(game: GameContext, vehicle: Vehicle, vtype: VehicleType) -> Callable[[Any], str | None]:
    """What happens when the vehicle enters a hex: Barbed Wire (C2 27.7) and Mud (28.2)."""
    from solo.rules import movement
    from solo.rules.vehicles.movement import mired_on_entry

    def check(state: Any) -> str | None:
        h = state.hex
        removed = game.state.flags.setdefault(WIRE_REMOVED_KEY, [])
        if movement.has_wire(game, h) and str(h) not in removed:
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
        if vtype.kind in (VehicleKind.JEEP, VehicleKind.TRUCK):
            mired, roll = mired_on_entry(game.board, vtype.kind, h, game.state.ground, game.dice)  # type: ignore[arg-type]
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


def _drive(game: GameContext, vehicle: Vehicle, driver: Character, o: Order, imp: int) -> None:
    """The Driver's speed order moves the vehicle this Impulse (C2 31.4-31.5, 31.11.1).

    Weather and ground first reduce a speed the conditions forbid (28.1-28.2, [house] for a
    Friendly). Enemy directions are read through the Direction Counter. The vehicle, its
    turret and every man aboard move; the Driver's order may become Crawl (Trees, the 31.5
    table) or Emergency Stop (impassable for a Friendly, Barbed Wire, Mud: Mired) — an
    Emergency Stop checks the crew's orders (:func:`emergency_stop`). A moving Friendly vehicle
    alerts Waiting enemies within 5 hexes of each hex it enters (31.3).
    """
    from solo.rules import movement, spotting
    from solo.rules.vehicles.movement import VehicleMoveState, convert_speed, move_impulse

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
    new_id, why = convert_speed(o.id, game.state.weather, game.state.ground, vtype.kind, enemy)  # type: ignore[arg-type]
    if why is not None:
        assert driver.order is not None
        game.set_order(driver, new_id, directions=driver.order.directions, source=f"{why}")
        game.emit(
            "crew_order",
            f"{driver.name}: {why}.",
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
        dirs = DirectionString(tuple(movement.map_direction(game, driver, d) for d in given.directions))
    start = VehicleMoveState(
        vehicle.hex, vehicle.facing, vehicle.turret if vehicle.turret is not None else vehicle.facing
    )
    new, report = move_impulse(
        game.board,
        vtype.kind,  # type: ignore[arg-type]
        start,
        o,
        dirs,
        imp,
        is_enemy=enemy,
        blocked=lambda h: h in game.state.markers.fire,
        dice=game.dice,
        friendly_spotted_in_los=_friendly_in_los(game) if enemy else None,
        road=vehicle.road_orders,
        on_enter=_on_enter(game, vehicle, vtype),
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


# ---------------------------------------------------------------------------
# Step 5 (C2 28.2, 31.11.2)


def end_phase(game: GameContext) -> None:
    """Step 5 for vehicles: per-turn state cleared (31.11.2).

    Before clearing: Fading Smoke goes into each hex adjacent to this turn's discharger Smoke
    (31.11.2); a Mired Jeep or Truck's Driver makes a TQC-3 to get free (28.2; failure: an
    Enemy Driver gets Panic next turn). Then ``Vehicle.acted`` and ``moved_this_impulse`` are
    reset, and markers whose owners lost LOS (the End Phase's smoke) are removed (31.7.4).
    """
    from solo.rules import effects

    vehicles = list(vehicles_of(game.state).values())
    for v in vehicles:
        where = v.acted.get("discharger_hex")
        if where is not None:
            centre = Hex.parse(where)
            for d in (1, 2, 3, 4, 5, 6):
                n = game.board.neighbour_hex(centre, d)
                if n is not None:
                    effects.place_smoke(
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
