"""Bail Out from Enemy vehicles (C2 31.11.2-31.11.3): passengers, bailed-out crew, an AFV crewman's Bail Out.

- :func:`passenger_orders`: Enemy passengers Bail Out on the five conditions of 31.11.3 (or a
  ``"force_bail_out:passengers"`` damage flag, 31.10.8), else No Order (they ride); at most 4
  bail out of a Jeep, Truck or Half-Track in a turn, the others Relocate (31.11.2).
- :func:`bailed_out_order`: a crewman who bailed out draws a card, then fires or runs (31.11.2).
- ``_bail_out_overrides``: a VOM Bail Out from an AFV becomes Panic (a moving AFV, no way out),
  Relocate (a jammed or no hatch) or Open Hatch (a closed hatch) (31.11.2-31.11.3).

A Relocate that replaces a Bail Out sets ``ch.acted[RELOCATE_FOR_KEY]``, as
:mod:`solo.rules.vehicles.crew` reads it (31.11.2).

May import: :mod:`~solo.enemy.vom`, :mod:`solo.rules`, :mod:`solo.data`, :mod:`solo.core`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solo.data.tables import MoraleState
from solo.data.vehicle_types import VehicleType
from solo.data.weapons import WeaponKind
from solo.enemy.vom import SPEED_ORDERS, _card, _forced, _order_name, _Trace
from solo.rules.state import Character, Side
from solo.rules.vehicles.crew_sight import _role_name
from solo.rules.vehicles.state import CREW_ORDER, Hatch, Seat, Vehicle

if TYPE_CHECKING:
    from solo.rules.context import GameContext


# ---------------------------------------------------------------------------
# Constants

PASSENGER_BAIL_LIMIT = 4
"""At most 4 characters bail out of a Jeep, Truck or Half-Track in a turn, highest passenger
positions first (C2 31.11.2); [house] only passengers count toward it."""
RELOCATE_FOR_KEY = "relocate_for"
"""``ch.acted`` key set with a Relocate that replaces a Bail Out: ``"bail_out"`` (he needs a
position with a usable hatch) or ``"bail_limit"`` (a passenger over the 4-man limit), as
:mod:`solo.rules.vehicles.crew` reads it (C2 31.11.2)."""


# ---------------------------------------------------------------------------
# Crew who bailed out (31.11.2)


def bailed_out_order(game: GameContext, ch: Character) -> None:
    """The order of an Enemy crewman who bailed out (C2 31.11.2 "Once bailed out, Enemy Crew...").

    He draws an Enemy Order card (the first card of his vehicle team sets its initiative,
    31.1). Armed (a weapon other than Light AT or a main gun, with ammunition), with a
    Spotted Friendly in LOS now, and the card's entry (Cover/Open table, his morale row;
    Berserk reads Aggressive [house], Rout never fires) a fire order: that fire order.
    Otherwise he moves in the card's Rout direction string at the fastest rate his wounds
    allow: Sprint, Evade with a Light Wound, Sneak with a Bad Wound (base-rules §4). Emits
    one ``crew_order`` event.
    """
    from solo.data.cards import CardRow
    from solo.rules.state import AmmoState

    st = game.state
    team = st.teams.get(ch.team)
    card = _card(
        game, game.enemy_deck.draw_card(game.dice, f"Enemy Order card: {ch.name}, bailed-out crew (31.11.2)")
    )
    st.cards.enemy_this_turn[ch.id] = card.id
    notes: list[str] = [f"card {card.id} ({card.initiative:02d})"]
    if team is not None and team.first_card is None and not game.options.optional_enemy_activation:
        team.initiative, team.first_card = card.initiative, card.id
        notes.append(f"it sets the team's initiative {card.initiative} (31.1)")
    weapons = game.data.weapons
    armed = ch.ammo is not AmmoState.NO and any(
        w.weapon in weapons
        and weapons.get(w.weapon).kind not in (WeaponKind.LIGHT_AT, WeaponKind.MAIN_GUN, WeaponKind.KNIFE)
        and weapons.get(w.weapon).kind.is_small_arms
        for w in ch.weapons
    )
    seen = next((f for f in game.opponents(ch) if f.revealed and game.sees(ch, f)), None)
    order: str | None = None
    directions = None
    if ch.morale is not MoraleState.ROUT and armed and seen is not None:
        row = CardRow.AGGRESSIVE if ch.morale is MoraleState.BERSERK else CardRow(ch.morale.value)
        entry = card.entry(row, in_cover=game.in_cover(ch))
        in_cover = "Cover" if game.in_cover(ch) else "Open"
        if entry.code.value in ("AF", "RF", "SF"):
            order = game.data.orders.by_code(entry.code.value).id
            notes.append(f"{in_cover}/{row.value}: {entry} and Spotted {seen.name} in LOS: fire")
        else:
            notes.append(f"{in_cover}/{row.value}: {entry} is no fire order")
    elif seen is None:
        notes.append("no Spotted Friendly in LOS")
    elif not armed:
        notes.append("no usable weapon")
    if order is None:
        order = "sneak" if ch.bad_wounds else ("evade" if ch.wounds else "sprint")
        directions = card.rout
        notes.append(
            f"moves in the Rout direction {card.rout} at his fastest rate ({_order_name(game, order)})"
        )
    game.set_order(ch, order, directions=directions, source=f"card {card.id} (31.11.2 bailed out)")
    game.emit(
        "crew_order",
        f"{ch.name} (bailed-out crew): "
        + "; ".join(notes)
        + f" → {_order_name(game, order)}"
        + (f" {directions}" if directions is not None else "")
        + ".",
        rule="31.11.2",
        actor=ch.id,
        data={
            "vehicle": ch.team,
            "position": None,
            "card": card.id,
            "initiative": card.initiative,
            "order": order,
            "directions": str(directions) if directions is not None else None,
            "notes": notes,
            "overrides": [],
            "checks": [],
        },
    )


# ---------------------------------------------------------------------------
# Passengers (31.11.3 conditions 1-5; 31.11.2 the 4-character limit)


def _passenger_bail_reason(
    game: GameContext, vehicle: Vehicle, ch: Character, forced: dict[str, Any]
) -> str | None:
    if vehicle.destroyed:
        return "3) the vehicle is destroyed and he survived"
    if vehicle.on_fire:
        return "1) the vehicle is on fire"
    if vehicle.immobilized:
        return "2) the vehicle is immobilized"
    if vehicle.abandoned:
        return "4) [house] the crew has abandoned the vehicle: no driver is left"
    seat = vehicle.seats.get("driver")
    if seat is not None:
        drv = game.state.characters.get(seat.occupant) if seat.occupant else None
        if seat.kia or (drv is not None and not drv.is_active):
            return "4) the driver is killed"
        if drv is not None and drv.bad_wounds > 0:
            return "4) the driver has a Bad Wound"
    if ch.morale.rank > MoraleState.NORMAL.rank:
        return f"5) his Morale State ({ch.morale.value.capitalize()}) is below Normal"
    if forced.get("passengers"):
        return "damage last turn (Wheel/Track, 31.10.8)"
    return None


def passenger_orders(game: GameContext, vehicle: Vehicle) -> None:
    """Enemy passengers: Bail Out on the five conditions of C2 31.11.3, else No Order (they ride).

    Passengers are the occupants of non-crew seats (``passenger_N`` and, [house], the
    cupola). [house] Passengers left in a vehicle its crew has abandoned (31.11.2) Bail Out,
    read as condition 4 (no driver is left to drive it). Their orders replace any they hold. At
    most 4 bail out of a Jeep, Truck or Half-Track in a turn, highest positions first; the others
    Relocate (31.11.2).
    """
    st = game.state
    seated = [(p, s.occupant) for p, s in vehicle.seats.items() if s.occupant and p not in CREW_ORDER]
    if not seated:
        return
    forced = _forced(game, vehicle)
    riders: list[tuple[int, str, Character, str | None]] = []
    for pos, cid in seated:
        ch = st.characters.get(cid)
        if ch is None or not ch.is_active or ch.side is not Side.ENEMY:
            continue
        number = int(pos.rsplit("_", 1)[1]) if pos.startswith("passenger_") else 99
        riders.append((number, pos, ch, _passenger_bail_reason(game, vehicle, ch, forced)))
    bailing = sorted((r for r in riders if r[3] is not None), key=lambda r: -r[0])
    over = {r[1] for r in bailing[PASSENGER_BAIL_LIMIT:]}
    for _number, pos, ch, reason in riders:
        if reason is None:
            order, text, rule = "no_order", "rides: no Bail Out condition (31.11.3)", "31.11.3"
        elif pos in over:
            order, rule = "relocate", "31.11.2"
            ch.acted[RELOCATE_FOR_KEY] = "bail_limit"
            text = f"Bail Out ({reason}), but more than {PASSENGER_BAIL_LIMIT} bail out: Relocate (31.11.2)"
        else:
            order, text, rule = "bail_out", f"Bail Out: {reason} (31.11.3)", "31.11.3"
        game.set_order(ch, order, source=f"passenger ({rule})")
        game.emit(
            "passenger_order",
            f"{ch.name} (passenger, {vehicle.name} {pos}): {text} → {_order_name(game, order)}.",
            rule=rule,
            actor=ch.id,
            data={"vehicle": vehicle.id, "position": pos, "reason": reason, "order": order},
        )


# ---------------------------------------------------------------------------
# An AFV crewman's Bail Out (31.11.2-31.11.3)


def _is_moving(game: GameContext, vehicle: Vehicle) -> bool:
    """The vehicle moves this turn: its Driver holds a speed order and it is not immobilized."""
    seat = vehicle.seats.get("driver")
    if seat is None or not seat.occupant or vehicle.immobilized:
        return False
    drv = game.state.characters.get(seat.occupant)
    return drv is not None and drv.is_active and drv.order is not None and drv.order.order in SPEED_ORDERS


def _empty_seat(game: GameContext, vehicle: Vehicle, pos: str) -> bool:
    seat = vehicle.seats[pos]
    if not seat.occupant:
        return True
    occ = game.state.characters.get(seat.occupant)
    return occ is None or not occ.is_active


def _relocation_seat(game: GameContext, vehicle: Vehicle, vtype: VehicleType, pos: str) -> str | None:
    """An empty crew position with an unjammed hatch; a hatchless position's exits first (31.11.2)."""
    seats = vehicle.seats
    for p in _relocation_order(vtype, pos):
        s = seats.get(p)
        if s is not None and s.hatch in _WORKING_HATCH and _empty_seat(game, vehicle, p):
            return p
    return None


_WORKING_HATCH = (Hatch.OPEN, Hatch.CLOSED)
_RELOCATION_CACHE: dict[tuple[int, str], tuple[VehicleType, tuple[str, ...]]] = {}


def _relocation_order(vtype: VehicleType, pos: str) -> tuple[str, ...]:
    """The positions a crewman in ``pos`` tries, in order: ``pos``'s exits, then the crew order
    (31.11.2), without ``pos``; built once per vehicle type and position. KeyError for a position
    the type lacks."""
    got = _RELOCATION_CACHE.get((id(vtype), pos))
    if got is None or got[0] is not vtype:
        exits = [r.value for r in vtype.position(pos).exits_via]
        order = tuple(p for p in (*exits, *[p for p in CREW_ORDER if p not in exits]) if p != pos)
        got = (vtype, order)
        _RELOCATION_CACHE[(id(vtype), pos)] = got
    return got[1]


def _bail_out_overrides(
    game: GameContext, vehicle: Vehicle, vtype: VehicleType, seat: Seat, tr: _Trace
) -> None:
    """An AFV crewman's Bail Out: moving AFV, jammed hatch, no hatch, closed hatch (31.11.2-31.11.3)."""
    if _is_moving(game, vehicle):
        tr.override(game, "panic", "AFV crew may not bail out of a moving AFV", "31.11.2")
        return
    if seat.hatch is Hatch.JAMMED_CLOSED or seat.hatch is Hatch.NONE:
        why = "his hatch is jammed closed" if seat.hatch is Hatch.JAMMED_CLOSED else "he has no hatch"
        to = _relocation_seat(game, vehicle, vtype, tr.position)
        if to is None:
            tr.override(game, "panic", f"{why} and no empty position with a working hatch", "31.11.2")
        else:
            tr.override(game, "relocate", f"{why}: relocate to the {_role_name(to)}'s position", "31.11.2")
            tr.relocate_to = to
            tr.ch.acted[RELOCATE_FOR_KEY] = "bail_out"
        return
    if seat.hatch is Hatch.CLOSED:
        tr.override(game, "button_open_up", "Bail Out with a closed hatch: Open Hatch", "31.11.3")


__all__ = [
    "PASSENGER_BAIL_LIMIT",
    "RELOCATE_FOR_KEY",
    "bailed_out_order",
    "passenger_orders",
]
