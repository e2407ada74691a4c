"""Friendly vehicle initiatives (C2 31.1) and the Friendly crew's orders (31.8, 31.9, 31.11.2): which
orders a crewman or passenger may be given.

May import: solo.rules.movement and the rules below, and the rooms below rules."""

from __future__ import annotations

from typing import Any

from solo.data.vehicle_types import Role, VehicleKind
from solo.data.weapons import WeaponKind
from solo.rules import friendly_orders
from solo.rules.context import GameContext
from solo.rules.state import Character, Side
from solo.rules.vehicles.seats import _is_crew_seat, _vtype, exposed
from solo.rules.vehicles.state import Vehicle, vehicle_of, vehicles_of

FIRE_ORDERS: tuple[str, ...] = ("aimed_fire", "rapid_fire", "suppressive_fire")
"""The fire orders a crewman or passenger may hold (C2 31.9)."""
SMALL_ARMS: tuple[WeaponKind, ...] = (WeaponKind.PISTOL, WeaponKind.SMG, WeaponKind.RIFLE, WeaponKind.MG)
"""Weapons a man may fire from a vehicle position when the position allows it (C2 31.9)."""


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

    vehicle = vehicle_of(game.state, ch)
    if vehicle is None or ch.seat is None or ch.seat not in vehicle.seats:
        return friendly_orders.friendly_order_options(game, ch)
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
            from solo.rules.vehicles.speed_and_terrain import forbidden_speeds

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
