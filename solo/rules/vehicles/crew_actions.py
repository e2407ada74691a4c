"""Crew actions (C2 31.9, 31.11.2): firing from a seat, loading the main gun, hatch smoke and smoke
dischargers, opening and closing hatches, Bail Out and Relocate.

May import: the vehicle fire rules, solo.rules.fire_action and below, and the rooms below rules."""

from __future__ import annotations

from collections.abc import Generator

from solo.core.decisions import Decision
from solo.core.hexes import Hex
from solo.data.cards import DirectionString
from solo.data.orders import Order
from solo.data.tables import CheckKind
from solo.data.vehicle_types import VehicleKind
from solo.rules import fire_action, morale, smoke, wounds
from solo.rules.context import GameContext
from solo.rules.state import Character, Side
from solo.rules.vehicles import machine_guns
from solo.rules.vehicles.crew_orders import _mounted_weapon, _own_fire_weapons
from solo.rules.vehicles.markers import _clear_marker, _refresh_markers, _remove_lost_markers
from solo.rules.vehicles.seats import (
    DRIVE_SKILL,
    OUT_OF_POSITION,
    _crew_tqc,
    _driver_order,
    _is_crew_seat,
    _is_moving,
    _occupant,
    _out_of_position,
    _vtype,
    may_drive,
)
from solo.rules.vehicles.state import CREW_ORDER, Ammo, Hatch, Vehicle
from solo.rules.vehicles.targets import MOUNT_KEY
from solo.rules.vehicles.turret import _turned_now


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
    cupola; with ``hatch_needed`` only seats with a hatch that is not jammed shut. The Driver's
    position of a Friendly Jeep, Truck or Half-Track only for its own Driver or a man with the
    Drive skill, passenger or crewman (31.3, :func:`~solo.rules.vehicles.seats.may_drive`).
    Preferred first: the Gunner's exit hatches, passengers the highest number.
    """
    vtype = _vtype(game, vehicle)
    crewman = _is_crew_seat(ch.seat)
    out = []
    for pos, seat in vehicle.seats.items():
        occupant = _occupant(game, seat)
        if (occupant is not None and occupant.is_active) or pos == ch.seat:
            continue
        if pos == "driver" and not may_drive(game, ch, vehicle):
            continue
        driving = pos == "driver" and vehicle.side is Side.FRIENDLY and vtype.kind is not VehicleKind.AFV
        if crewman != _is_crew_seat(pos) and not (driving and DRIVE_SKILL in ch.skills):
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

    assert vehicle.hex is not None
    if game.options.smoke_grenade_timing == "immediate":
        smoke.place_smoke(
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

    h = _discharger_hex(game, vehicle)
    if h is None:
        return
    smoke.place_smoke(
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
        and (pos != "driver" or may_drive(game, ch, vehicle))
        and (ch.seat != "driver" or may_drive(game, c, vehicle))
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


BAIL_OUT_LIMIT = 4
"""At most 4 men bail out of a Jeep, Truck or Half-Track per turn, highest passenger numbers first
(C2 31.11.2)."""


BAIL_OUT_SPEED_MODIFIERS: dict[str, int] = {"ahead_slow": 1, "forward": 0, "fast": -2}
"""TQC modifiers for bailing out of a Jeep, Truck or Half-Track moving faster than Crawl, by the
Driver's order (C2 31.11.2: Ahead Slow +1, Fast -2; Forward 0 [reading])."""


def _loaded_at_start(game: GameContext, vehicle: Vehicle) -> bool:
    flow = game.state.flow
    rec = vehicle.acted.get("impulse_start")
    if rec is None or rec[0] != flow.turn or rec[1] != flow.impulse:
        rec = (flow.turn, flow.impulse, vehicle.loaded.value if vehicle.loaded is not None else None)
        vehicle.acted["impulse_start"] = rec
    return rec[2] is not None
