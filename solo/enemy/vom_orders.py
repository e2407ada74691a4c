"""Enemy vehicle crews' orders, Step 3: the VOM per crewman and its overrides (C2 31.1, 31.11.3).

Every function takes the :class:`~solo.engine.game.Game` first. Every decision emits an event
that explains itself (DESIGN.md "Every Enemy decision explains itself").

:func:`enemy_vehicle_orders` (the engine's Step 3 after the infantry): for each active Enemy
vehicle, crew in the order Commander / Driver / Gunner / Loader / Co-driver, an Enemy Order card
per crewman (the Commander's card is the vehicle's initiative, 31.1) read in his VOM column
(:mod:`solo.enemy.vom`); then the overrides of 31.2, 31.9.2, 31.10.8-31.10.9 and
31.11.1-31.11.3 (see :func:`assign_crew_order`; Bail Out: :mod:`solo.enemy.bail_out`).
Passengers get Bail Out on the five conditions of 31.11.3, otherwise No Order (they ride). Each
crewman and passenger gets ONE ``crew_order`` / ``passenger_order`` event whose ``data`` holds
the card, initiative, morale modifier, modified number, VOM column and cell rows, every override
with its rule, every check rolled and the final order.

Under C2 23.5 (``options.optional_enemy_activation``) the phase draws one initiative card
per vehicle (31.1) and orders passengers; crew orders wait for
:func:`assign_on_activation`, called when the vehicle's team activates.

**Flags read** (``vehicle.damage``): ``"immobilized"`` (and ``vehicle.mired``/``destroyed``): a
speed order becomes Emergency Stop (31.2 (3)); ``"main_gun_destroyed"``, ``"<mount>_destroyed"``
(``"bow_mg_destroyed"``...): orders for that weapon become Spot [house]; the ``force_*`` flags
through :mod:`solo.enemy.vom`.

**Per-turn scratch written**: ``vehicle.acted[CASCADE_KEY]`` (which the End Phase clears), and
on a crewman ``ch.acted[MOUNT_KEY]`` = the vehicle weapon (``"bow_mg"``, ``"coaxial_mg"``) his
fire order uses. A Relocate order's ``target`` is the position id to move to (or None: the
highest empty passenger position at Impulse 4, 31.11.2).

May import: :mod:`~solo.enemy.bail_out`, :mod:`~solo.enemy.vom`, :mod:`~solo.rules.vehicles.crew_sight`,
:mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from solo.core.hexes import Hex
from solo.data.tables import MoraleState
from solo.data.vehicle_types import VehicleKind, VehicleType
from solo.data.weapons import WeaponKind
from solo.enemy.bail_out import _bail_out_overrides, bailed_out_order, passenger_orders
from solo.enemy.vom import (
    _H_JAMMED_OPEN,
    _H_NONE,
    _H_OPEN,
    SPEED_ORDERS,
    _card,
    _cards,
    _CellInfo,
    _forced,
    _order_name,
    _Trace,
    _type_info,
    _TypeInfo,
    _vom_tables,
)
from solo.rules.state import Character, GivenOrder, Side, Status
from solo.rules.vehicles.crew_sight import (
    _ROLE_NAMES,
    _crew_sees,
    _opposing_characters,
    _opposing_vehicles,
    _role_name,
    _tqc,
    _vehicle_kind,
    _vtype,
    seat_sees,
)
from solo.rules.vehicles.speed_and_terrain import SPEED_CAPS, convert_speed
from solo.rules.vehicles.state import CREW_ORDER, Seat, Vehicle, vehicle_of
from solo.rules.vehicles.targets import MOUNT_KEY

if TYPE_CHECKING:
    from solo.rules.context import GameContext


# ---------------------------------------------------------------------------
# Constants

_FORWARD_RANK = {"crawl": 0, "ahead_slow": 1, "forward": 2, "fast": 3}
LOAD_ORDERS: tuple[str, ...] = ("load_he", "load_ap")
LOADER_LOS_WHOLE_CREW = True
"""[house] The Loader's ammunition choice (C2 31.11.3) reads "LOS" as the LOS of any crewman
of his vehicle (the crew talk on the intercom), not the Loader's own periscope arc."""
CASCADE_KEY = "crew_bail_out"
"""``vehicle.acted`` key: the turn the Commander received Bail Out: the whole crew bails out
(C2 31.11.3, 31.10.9)."""
_MORALE_TEXT = {m.value: m.value.capitalize() for m in MoraleState}
_CAPPED = frozenset(c.value for c in SPEED_CAPS)
"""Weather and ground ids that cap vehicle speed (C2 28.1-28.2)."""
_WHEELED = (VehicleKind.TRUCK, VehicleKind.JEEP)
_LOADS, _SPEEDS = frozenset(LOAD_ORDERS), frozenset(SPEED_ORDERS)  # membership by hash: ids read from data
# Enum members bound once: a class attribute lookup on an Enum costs ~0.1 us in Python 3.11.
_AFV, _HALF_TRACK = VehicleKind.AFV, VehicleKind.HALF_TRACK
_ROUT = MoraleState.ROUT
_ENEMY = Side.ENEMY
_ACTIVE = Status.ACTIVE


# ---------------------------------------------------------------------------
# Step 3: the crews' orders


def enemy_vehicle_orders(game: GameContext) -> None:
    """Step 3 b) for Enemy vehicles: crew orders from the VOM, passengers' Bail Out (C2 31.1, 31.11.3).

    For each Enemy vehicle team, scenario order: each crewman of an active vehicle
    (Commander, Driver, Gunner, Loader, Co-driver; active, without an order) gets his order
    by :func:`assign_crew_order`; the Commander's card sets ``team.initiative`` and
    ``team.first_card`` (31.1; without a Commander the first card drawn [house]). Crewmen
    who bailed out (members of the team with no vehicle) get theirs by
    :func:`~solo.enemy.bail_out.bailed_out_order` (31.11.2). A team that drew no card but has
    an active man on the map draws one for its initiative [house]. Under C2 23.5 one separate
    initiative card is drawn per vehicle team (31.1) and crew orders wait for
    :func:`assign_on_activation`. Then the passengers of active or abandoned vehicles
    (:func:`~solo.enemy.bail_out.passenger_orders`). Every card is kept in
    ``state.cards.enemy_this_turn`` (per crewman id, ``"team:<vehicle id>"``) until Step 5 e).
    """
    st = game.state
    deferred = bool(game.options.optional_enemy_activation)
    chars = st.characters
    for vid, vehicle in st.vehicles.items():
        if vehicle.side is not _ENEMY:
            continue
        team = st.teams.get(vid)
        if not deferred:
            if vehicle.is_active:
                ctx = _context(game, vehicle)
                seats = vehicle.seats
                for pos in CREW_ORDER:
                    seat = seats.get(pos)
                    if seat is None or not seat.occupant:
                        continue
                    ch = chars.get(seat.occupant)
                    if ch is not None and ch.status is _ACTIVE and ch.order is None and ch.vehicle == vid:
                        _assign(game, ctx, ch)  # (ch.status is _ACTIVE: Character.is_active, inlined)
            if team is not None:
                for cid in team.members:
                    ch = chars.get(cid)
                    if (
                        ch is not None
                        and ch.vehicle is None
                        and ch.is_active
                        and ch.order is None
                        and ch.hex is not None
                    ):
                        bailed_out_order(game, ch)
        if (
            team is not None
            and team.first_card is None
            and any(chars[c].is_active and chars[c].hex is not None for c in team.members if c in chars)
        ):
            why = (
                "a separate initiative card (C2 31.1, 23.5)" if deferred else "no crewman drew a card [house]"
            )
            _initiative_card(game, vehicle, why)
        if vehicle.is_active or (vehicle.abandoned and vehicle.hex is not None and not vehicle.destroyed):
            passenger_orders(game, vehicle)  # riders of an abandoned vehicle Bail Out [house]


def _initiative_card(game: GameContext, vehicle: Vehicle, why: str) -> None:
    """Draw a card for the vehicle's initiative only (C2 31.1 with 23.5; [house] with no card drawn)."""
    st = game.state
    team = st.teams[vehicle.id]
    card = _card(
        game, game.enemy_deck.draw_card(game.dice, f"Enemy Order card, {vehicle.name}: initiative ({why})")
    )
    st.cards.enemy_this_turn[f"team:{vehicle.id}"] = card.id
    team.initiative = card.initiative
    team.first_card = card.id
    game.emit(
        "initiative",
        f"{vehicle.name}: card {card.id} sets the vehicle's initiative {card.initiative} ({why}).",
        rule="C2 31.1" + (", 23.5" if game.options.optional_enemy_activation else ""),
        actor=vehicle.id,
        data={"team": vehicle.id, "card": card.id, "initiative": card.initiative, "why": why},
    )


def assign_on_activation(game: GameContext, ch: Character) -> GivenOrder | None:
    """C2 23.5: give an Enemy crewman his order when his vehicle's team activates.

    The engine calls it (instead of :func:`solo.enemy.alerting.assign_on_activation`) for each
    member of an Enemy vehicle team at the start of the team's activation. Crewmen in their
    seats get their VOM order (:func:`assign_crew_order`), in the order the team lists them (the
    Commander first, so his Bail Out still reaches the whole crew); crewmen who bailed out get
    :func:`~solo.enemy.bail_out.bailed_out_order`. Does nothing (returns None) for anyone else:
    not active, off the map, already ordered, not of an Enemy vehicle team, or in a vehicle
    that is no longer active.
    """
    st = game.state
    if not ch.is_active or ch.order is not None or ch.hex is None or ch.side is not Side.ENEMY:
        return None
    if ch.vehicle is None:
        if ch.team not in st.vehicles:
            return None
        bailed_out_order(game, ch)
        return ch.order
    vehicle = vehicle_of(st, ch)
    if vehicle is None or ch.seat not in CREW_ORDER or not vehicle.is_active:
        return None
    assign_crew_order(game, ch)
    return ch.order


def assign_crew_order(game: GameContext, ch: Character) -> None:
    """Give the Enemy crewman ``ch`` his order for the turn and emit one ``crew_order`` event.

    Steps (C2 31.11.3 and the rules it points to), in this order:

    1. The card: none when the Commander's Bail Out reaches the crew (31.11.3) or damage
       forces the order (``force_*`` flags, 31.10.8) or the crewman is in Rout (Bail Out,
       31.11.2) -- but the Commander always draws, his card being the vehicle's initiative
       (31.1). A Truck or Jeep Co-driver draws none either (31.9.2, [house] for Jeeps).
    2. The VOM: row = card initiative + morale modifier, clamped 00-99; column by kind ×
       Target (his or the Commander's marker on the board; Driver and Loader: any other
       crewman's; Half-Tracks [house]: the seat sees a Spotted Friendly or a Friendly
       vehicle) × BU/OPEN (a hatchless AFV position reads BU).
    3. Overrides: Rout → Bail Out; forced flags; the Commander's Bail Out → everyone Bails
       Out; a load order → the Loader's ammunition choice (31.11.3; [house] an empty kind
       takes the other, none left → Spot); Truck/Jeep Co-driver → Aimed Fire with LOS to a
       Spotted Friendly, a Pistol or SMG and a passed TQC, else No Order (31.9.2); speeds:
       immobilized → Emergency Stop (31.2), above the type's Top Speed → the Top Speed
       [house], weather/ground caps (28.1-28.2), Road Orders noted (31.11.1); Bail Out
       from an AFV: a moving AFV (the Driver holds a speed order) → Panic (31.11.2), a
       jammed-closed hatch → Relocate to an empty position with an unjammed hatch, else
       Panic (31.11.2), a hatchless Gunner → Relocate (the exits first), else Panic
       (31.11.2), a closed hatch → Button/Open Up (31.11.3); Button/Open Up with a jammed
       (or no) hatch → Spot (31.11.3).

    Sets the order with :meth:`Game.set_order` (speed orders with the VOM's direction
    string as printed, to be read through the Direction Counter at movement time; Relocate
    with ``target`` = the position to move to) and ``ch.acted[MOUNT_KEY]`` for a VOM fire
    order naming a vehicle weapon. Raises :class:`ValueError` if ``ch`` is not in a crew
    seat of a vehicle.
    """
    vehicle = vehicle_of(game.state, ch)
    if vehicle is None or ch.seat not in CREW_ORDER:
        raise ValueError(f"{ch.name} is not a crewman in a vehicle")
    _assign(game, _context(game, vehicle), ch)


@attrs.define(slots=True)
class _Ctx:
    """What every crewman's order assignment of one vehicle reads (computed once per vehicle)."""

    vehicle: Vehicle
    vtype: VehicleType
    kind: VehicleKind
    info: _TypeInfo
    team: Any
    turn: int
    deferred: bool
    forced: dict[str, Any]
    """This turn's forced orders by position (``_forced``; only ``"turn"`` when none)."""
    tables: dict[tuple[str, str], tuple[_CellInfo, ...]]
    mods: dict[str, int]
    cards: dict[str, Any]
    """The Enemy Order cards by id."""
    marked: bool
    """Some seat of the vehicle holds a Target Marker (no crewman's assignment moves one)."""
    readings: dict[tuple[str, str, bool], tuple[str, tuple[_CellInfo, ...]]]
    """The VOM column id and its 100 rows by (position, hatch state value, Target), filled as
    read (:func:`_column`; kept a game with the type's data: the options it reads are the game's)."""
    heard: bool
    """Someone keeps or listens to the events (else the ``crew_order`` event is not built)."""
    purposes: dict[tuple[str, str, str], str]
    """A crewman's card-draw purpose by (his name, position, vehicle name), kept a game."""
    sources: dict[str, str]
    """An order's ``source`` by card id (``"VOM card e07"``), kept a game."""


_Static = tuple[
    VehicleType, _TypeInfo, Any, Any, dict[str, Any], dict[Any, Any], Any, dict[Any, str], dict[str, str]
]
"""Type, type info, VOM tables, morale modifiers, cards, column readings, options, purposes, sources."""


def _static(game: GameContext, vehicle: Vehicle) -> _Static:
    """The data-only part of :class:`_Ctx` for ``vehicle``'s type, kept a game in ``game.memo``
    (the column readings with the options they read: new options, new readings), with the texts
    of its draws and orders (by the names and card ids they print)."""
    memo = game.memo.get("vom_orders")
    if memo is None:
        memo = game.memo["vom_orders"] = {}
    got = memo.get(vehicle.type)
    if got is None or got[6] is not game.options:
        vtype = _vtype(game, vehicle)
        tables, mods = _vom_tables(game)
        info = _type_info(vtype)
        got = memo[vehicle.type] = (vtype, info, tables, mods, _cards(game), {}, game.options, {}, {})
    return got


def _initiative_event(game: GameContext, vehicle: Vehicle, ch: Character, card: Any, pos: str) -> None:
    """The ``initiative`` event of the crewman's card that sets the vehicle's initiative (C2 31.1)."""
    game.emit(
        "initiative",
        lambda: (
            f"{vehicle.name}: {ch.name}'s card {card.id} sets the vehicle's initiative "
            f"{card.initiative} (31.1)."
        ),
        rule="C2 31.1",
        actor=vehicle.id,
        data=lambda: {"team": vehicle.id, "card": card.id, "initiative": card.initiative, "why": pos},
    )


def _context(game: GameContext, vehicle: Vehicle) -> _Ctx:
    vtype, info, tables, mods, cards, readings, _, purposes, sources = _static(game, vehicle)
    st = game.state
    marked = False
    for s in vehicle.seats.values():
        if s.marker is not None:
            marked = True
            break
    return _Ctx(
        vehicle,
        vtype,
        vtype.kind,
        info,
        st.teams.get(vehicle.id),
        st.flow.turn,
        bool(game.options.optional_enemy_activation),
        _forced(game, vehicle),
        tables,
        mods,
        cards,
        marked,
        readings,
        game.narrates or bool(game.listeners),
        purposes,
        sources,
    )


_OTHER_MARKER = ("driver", "loader")
"""The AFV crewmen whose Target column reads another crewman's marker (C2 31.7.3)."""
_NO_MARKER_WHY = {
    True: "no other crewman has a Target Marker on the board (31.7.3)",
    False: "neither his nor the Commander's Target Marker is on the board (31.11.3)",
}


def _assign(game: GameContext, ctx: _Ctx, ch: Character) -> None:
    """:func:`assign_crew_order` with the vehicle's context computed."""
    vehicle = ctx.vehicle
    pos = ch.in_seat
    seat = vehicle.seats[pos]
    kind = ctx.kind
    turn = ctx.turn
    tr = _Trace(vehicle, pos, ch)
    forced = ctx.forced
    cascade = pos != "commander" and vehicle.acted.get(CASCADE_KEY) == turn
    forced_here = (forced.get(pos) or forced.get("crew")) if len(forced) > 1 else None
    rout = ch.morale is _ROUT
    truck_codriver = pos == "co_driver" and kind in _WHEELED
    reads_vom = not (cascade or forced_here or rout or truck_codriver)
    if reads_vom or (pos == "commander" and not ctx.deferred):
        key = (ch.name, pos, vehicle.name)
        purpose = ctx.purposes.get(key)
        if purpose is None:
            purpose = f"Enemy Order card: {ch.name}, {_ROLE_NAMES[pos]} of {vehicle.name} (31.11.3)"
            ctx.purposes[key] = purpose
        card = ctx.cards[game.enemy_deck.draw_card(game.dice, purpose)]
        game.state.cards.enemy_this_turn[ch.id] = tr.card = card.id
        tr.initiative = initiative = card.initiative
        team = ctx.team
        if team is not None and team.first_card is None and not ctx.deferred:
            team.initiative = initiative
            team.first_card = card.id
            tr.notes.append(
                f"his card sets {vehicle.name}'s initiative {initiative}"
                + (" (31.1)" if pos == "commander" else " (no Commander: the first card, [house])")
            )
            tr.rules.append("31.1")
            _initiative_event(game, vehicle, ch, card, pos)
        if reads_vom:
            if kind is _AFV and not ctx.marked:  # no marker on the board: no Target (31.7.3, 31.11.3)
                target, why = False, _NO_MARKER_WHY[pos in _OTHER_MARKER]
            else:
                target, why = _uses_target(game, vehicle, ctx.vtype, pos)
            reading = (pos, seat.hatch._value_, target)
            got = ctx.readings.get(reading)
            if got is None:
                column = _column(game, ctx, seat, target)
                got = ctx.readings[reading] = (column, ctx.tables[(pos, column)])
            column, rows = got
            modifier = ctx.mods[ch.morale._value_]
            modified = initiative + modifier
            if modified < 0 or modified > 99:  # clamped 00-99
                modified = 0 if modified < 0 else 99
            tr.info = info = rows[modified]
            tr.reading = (modifier, modified, column, target, why)
            tr.final = info.final
            tr.order, tr.directions, tr.weapon = info.order, info.directions, info.weapon
    if rout:  # no card read: Rout, forced, the Commander's Bail Out (a Truck Co-driver below)
        tr.order = "bail_out"
        tr.overrides.append(
            {
                "from": "",
                "to": "bail_out",
                "why": "Rout: Bail Out",
                "rule": "31.11.2",
                "text": "Rout: Enemy crew in Rout Bail Out (31.11.2)",
            }
        )
        tr.rules.append("31.11.2")
    elif forced_here:
        order, why, rule = forced_here
        tr.order = order
        tr.overrides.append(
            {
                "from": "",
                "to": order,
                "why": why,
                "rule": rule,
                "text": f"{_order_name(game, order)}: {why} ({rule})" if game.narrates else "",
            }
        )
        tr.rules.append(rule)
    elif cascade:
        tr.order = "bail_out"
        tr.overrides.append(
            {
                "from": "",
                "to": "bail_out",
                "why": "the Commander's Bail Out: the whole crew bails out",
                "rule": "31.11.3",
                "text": "Bail Out: the Commander's Bail Out reaches the whole crew (31.11.3)",
            }
        )
    # the Commander's Bail Out (or Rout, 31.10.9) reaches the whole crew (31.11.3)
    if pos == "commander" and kind is _AFV and tr.order == "bail_out":
        vehicle.acted[CASCADE_KEY] = turn
        tr.notes.append("the whole crew will bail out (31.11.3)")
    if truck_codriver and not (forced_here or rout or cascade):
        _truck_codriver(game, vehicle, tr)
    order = tr.order
    if vehicle.damage and (order in LOAD_ORDERS or order == "fire_main_gun" or tr.weapon is not None):
        _destroyed_weapon(game, vehicle, tr)
        order = tr.order
    if order in _LOADS:
        _loader_choice(game, vehicle, tr)
    elif order in _SPEEDS:
        _speed_overrides(game, vehicle, ctx.vtype, tr)
    elif order == "bail_out" and kind is _AFV:
        _bail_out_overrides(game, vehicle, ctx.vtype, seat, tr)
    if tr.order == "button_open_up" and (seat.hatch.is_jammed or seat.hatch is _H_NONE):
        why = "his hatch is jammed" if seat.hatch.is_jammed else "his position has no hatch [house]"
        tr.override(game, "spot", why, "31.11.3")
    # The order given (its source: the card read, else the rule; the last override's rule) and
    # its event, built only when someone keeps or listens to events (else it takes its number).
    order = tr.order
    card_id = tr.card
    if tr.info is not None and card_id is not None:
        source = ctx.sources.get(card_id)
        if source is None:
            source = ctx.sources[card_id] = f"VOM card {card_id}"
    else:
        source = "31.11.3"
    overrides = tr.overrides
    if overrides:
        source = f"{source} ({overrides[-1]['rule']})"
    directions = tr.directions
    game.set_order(
        ch,
        order,
        directions=directions,
        target=tr.relocate_to if order == "relocate" else None,
        source=source,
    )
    weapon = tr.weapon
    if weapon is not None:
        ch.acted[MOUNT_KEY] = weapon
    elif MOUNT_KEY in ch.acted:
        del ch.acted[MOUNT_KEY]
    if ctx.heard:
        _crew_order_event(game, tr, order, directions, weapon)
    else:
        game.emit("crew_order", "", actor=ch.id)


def _column(game: GameContext, ctx: _Ctx, seat: Seat, target: bool) -> str:
    """The VOM column id of the crewman in ``seat`` (C2 31.11.3).

    Hatch open or closed; a position without a hatch reads its fixed state, except a tank
    Gunner reads OPEN with the option ``hatchless_gunner_vom = open`` (31.8). A Half-Track reads
    the AFV OPEN columns with the option ``half_track_vom = afv_open`` ("Half-Tracks ... always
    use the Open columns"), else its own columns.
    """
    h = seat.hatch
    kind = ctx.vtype.kind
    if h is _H_NONE:
        is_open = ctx.info.fixed_open.get(seat.position, False)
        if kind is _AFV and not is_open and game.options.hatchless_gunner_vom == "open":
            is_open = True
    else:
        is_open = h is _H_OPEN or h is _H_JAMMED_OPEN
    if kind is _HALF_TRACK and game.options.half_track_vom == "afv_open":
        return "target_open" if target else "no_target_open"
    return ctx.info.columns[target][is_open]


def _uses_target(game: GameContext, vehicle: Vehicle, vtype: VehicleType, pos: str) -> tuple[bool, str]:
    """Whether the crewman reads a Target column, and why (C2 31.7.3, 31.11.3)."""
    kind = vtype.kind
    seats = vehicle.seats
    if kind is _AFV:
        if pos in ("driver", "loader"):
            for p, s in seats.items():
                if p != pos and s.marker is not None:
                    return True, f"the {_role_name(p)}'s Target Marker is on {s.marker} (31.7.3)"
            return False, "no other crewman has a Target Marker on the board (31.7.3)"
        own = seats[pos].marker
        if own is not None:
            return True, f"his Target Marker is on {own} (31.11.3)"
        cmd = seats.get("commander")
        if cmd is not None and cmd.marker is not None:
            return True, f"the Commander's Target Marker is on {cmd.marker} (31.11.3)"
        return False, "neither his nor the Commander's Target Marker is on the board (31.11.3)"
    if kind is _HALF_TRACK:
        if game.options.half_track_target == "never":
            return False, "Half-Track crews place no Target Markers (31.7.2; option half_track_target)"
        for v in _opposing_vehicles(game, vehicle):
            if v.hex is not None and seat_sees(game, vehicle, pos, v.hex):
                return True, f"he sees {v.name} [house: Half-Tracks use no markers]"
        for c in _opposing_characters(game, vehicle):
            if seat_sees(game, vehicle, pos, c.on_hex, target=c):
                return True, f"he sees Spotted {c.name} [house: Half-Tracks use no markers]"
        return False, "he sees no Spotted Friendly [house: Half-Tracks use no markers]"
    return False, "Trucks and Jeeps have one column"


# ---------------------------------------------------------------------------
# Overrides of the VOM order: Co-driver (31.9.2), Loader (31.11.3), damage (31.10.8), speeds


def _truck_codriver(game: GameContext, vehicle: Vehicle, tr: _Trace) -> None:
    """C2 31.9.2: a Truck ([house] or Jeep) Co-driver: Aimed Fire on LOS to a Spotted Friendly and a TQC."""
    ch = tr.ch
    tr.rules = ["31.9.2"]
    weapons = game.data.weapons
    armed = [
        w.weapon
        for w in ch.weapons
        if w.weapon in weapons and weapons.get(w.weapon).kind in (WeaponKind.PISTOL, WeaponKind.SMG)
    ]
    seen = next(
        (
            c
            for c in _opposing_characters(game, vehicle)
            if seat_sees(game, vehicle, tr.position, c.on_hex, target=c)
        ),
        None,
    )
    if not armed:
        tr.order = "no_order"
        tr.notes.append("no Pistol or SMG: No Order (31.9.2)")
        return
    if seen is None:
        tr.order = "no_order"
        tr.notes.append("no Spotted Friendly in his LOS: No Order (31.9.2)")
        return
    target = ch.effective_tq
    roll, ok = _tqc(
        game, target, f"TQC: {ch.name} ({vehicle.name} Co-driver) Aimed Fire at {seen.name} (31.9.2)"
    )
    tr.checks.append(
        {"check": "tqc", "why": "Aimed Fire (31.9.2)", "roll": roll, "target": target, "passed": ok}
    )
    tr.order = "aimed_fire" if ok else "no_order"
    tr.notes.append(
        f"LOS to Spotted {seen.name}: TQC d10 {roll} vs TQ {target} → "
        + ("passed: Aimed Fire" if ok else ("natural 9: " if roll == 9 else "") + "failed: No Order")
        + " (31.9.2)"
    )


def _loader_choice(game: GameContext, vehicle: Vehicle, tr: _Trace) -> None:
    """C2 31.11.3 Loader: which round to load when the VOM gives a load order."""

    def see(h: Hex, t: Character | None = None) -> bool:
        if LOADER_LOS_WHOLE_CREW:
            return _crew_sees(game, vehicle, h, target=t)
        return seat_sees(game, vehicle, tr.position, h, target=t)

    opp = _opposing_vehicles(game, vehicle)
    armoured = [v for v in opp if _vehicle_kind(game, v) in (VehicleKind.AFV, VehicleKind.HALF_TRACK)]
    seen_armour = next((v for v in armoured if see(v.on_hex)), None)
    if seen_armour is not None:
        choice, why = "load_ap", f"LOS to Friendly {seen_armour.name}: Load AP"
    else:
        seen_man = next((c for c in _opposing_characters(game, vehicle) if see(c.on_hex, c)), None)
        if seen_man is not None:
            choice, why = "load_he", f"no LOS to a Friendly AFV/Half-track, LOS to {seen_man.name}: Load HE"
        elif any(_vehicle_kind(game, v) is VehicleKind.AFV for v in opp):
            choice, why = "load_ap", "no LOS to anything, a Friendly AFV on the map: Load AP"
        else:
            choice, why = "load_he", "no LOS to anything and no Friendly AFV on the map: Load HE"
    kind = choice.removeprefix("load_")
    rounds = vehicle.rounds
    if rounds and rounds.get(kind, 0) <= 0:
        other = "ap" if kind == "he" else "he"
        if rounds.get(other, 0) > 0:
            choice, why = f"load_{other}", f"{why}, but no {kind.upper()} rounds left [house]"
        else:
            tr.override(game, "spot", "no main-gun rounds left [house]", "31.11.3")
            return
    if choice != tr.order:
        tr.override(game, choice, f"ammunition choice: {why}", "31.11.3")
    else:
        tr.notes.append(f"ammunition choice: {why} (31.11.3)")


def _destroyed_weapon(game: GameContext, vehicle: Vehicle, tr: _Trace) -> None:
    """[house] An order for a destroyed weapon becomes Spot (damage of C2 31.10.8).

    Load and Fire Main Gun with ``main_gun_destroyed``; an MG fire order on a mount whose
    ``<mount>_destroyed`` flag is in ``vehicle.damage`` (``bow_mg_destroyed``...).
    """
    damage = vehicle.damage
    if (tr.order in LOAD_ORDERS or tr.order == "fire_main_gun") and "main_gun_destroyed" in damage:
        tr.override(game, "spot", "the main gun is destroyed [house]", "31.10.8")
    elif tr.weapon is not None and f"{tr.weapon}_destroyed" in damage:
        tr.override(game, "spot", f"the {tr.weapon.replace('_', ' ')} is destroyed [house]", "31.10.8")


def _speed_overrides(game: GameContext, vehicle: Vehicle, vtype: VehicleType, tr: _Trace) -> None:
    """Immobilized, Top Speed, weather/ground and Road Orders for a Driver's speed order."""
    st = game.state
    if vehicle.immobilized:
        if vehicle.destroyed:
            why = "destroyed"
        else:
            why = "immobilized" if "immobilized" in vehicle.damage else "mired"
        tr.override(game, "emergency_stop", f"the vehicle is {why}", "31.2")
        return
    info = _type_info(vtype)
    top = info.top
    rank = _FORWARD_RANK.get(tr.order)
    if rank is not None and top in _FORWARD_RANK and rank > _FORWARD_RANK[top]:
        tr.override(game, top, f"above the {vtype.name}'s Top Speed [house]", "31.11.2")
    elif tr.order not in info.allowed:
        tr.override(game, top, f"the {vtype.name} has no {_order_name(game, tr.order)} [house]", "31.11.2")
    if st.weather in _CAPPED or st.ground in _CAPPED:
        new, reason = convert_speed(tr.order, st.weather, st.ground, vtype.kind, True)
        if reason is not None:
            text, _, rule = reason.rpartition(" (")
            tr.override(game, new, text, rule.rstrip(")"))
    if vehicle.road_orders:
        tr.notes.append(f"under Road Orders: Road Move - {_order_name(game, tr.order)} (31.11.1)")
        if "31.11.1" not in tr.rules:
            tr.rules.append("31.11.1")


# ---------------------------------------------------------------------------
# The order given and its event


def _crew_order_event(game: GameContext, tr: _Trace, order: str, directions: Any, weapon: str | None) -> None:
    """The ``crew_order`` event of ``tr``: its text when the game narrates, its data when built."""
    ch, vehicle, info, overrides = tr.ch, tr.vehicle, tr.info, tr.overrides
    modifier, modified, column, target, target_why = tr.reading or (None, None, None, None, "")

    def text() -> str:
        parts: list[str] = []
        if tr.card is not None:
            if info is not None:
                parts.append(
                    f"card {tr.card} ({tr.initiative:02d}); {_MORALE_TEXT[ch.morale._value_]} "
                    f"{modifier:+d} = {modified:02d}; {info.text}"
                )
            else:
                parts.append(f"card {tr.card} ({tr.initiative:02d})")
        if overrides:
            parts.extend([o["text"] for o in overrides])
        if tr.notes:
            parts.extend(tr.notes)
        final = tr.final if tr.final and info is not None and order == info.order else ""
        if not final:
            final = _order_name(game, order)
            if directions is not None:
                final = f"{final} {directions}"
            if weapon is not None:
                final = f"{final} ({weapon.replace('_', ' ')})"
        if tr.relocate_to is not None:
            final = f"{final} to the {_ROLE_NAMES[tr.relocate_to]}'s position"
        return f"{ch.name} ({_ROLE_NAMES[tr.position]}, {vehicle.name}): {'; '.join(parts)} → {final}."

    def data() -> dict[str, Any]:
        return {
            "vehicle": vehicle.id,
            "position": tr.position,
            "card": tr.card,
            "initiative": tr.initiative,
            "morale": ch.morale._value_,
            "morale_modifier": modifier,
            "modified": modified,
            "column": column,
            "rows": info.rows if info is not None else None,
            "cell": info.cell if info is not None else None,
            "target": target,
            "target_why": target_why,
            "overrides": [
                {"from": o["from"], "to": o["to"], "why": o["why"], "rule": o["rule"]} for o in overrides
            ]
            if overrides
            else [],
            "checks": tr.checks,
            "notes": tr.notes,
            "order": order,
            "directions": str(directions) if directions is not None else None,
            "weapon": weapon,
            "relocate_to": tr.relocate_to,
            "road": vehicle.road_orders and order in SPEED_ORDERS,
        }

    game.emit("crew_order", text, rule=", ".join(tr.rules), actor=ch.id, data=data)


__all__ = [
    "CASCADE_KEY",
    "LOADER_LOS_WHOLE_CREW",
    "MOUNT_KEY",
    "assign_crew_order",
    "assign_on_activation",
    "enemy_vehicle_orders",
]
