"""Crew morale (C2 31.10.6, 31.10.9, 31.10.10): a crewman's reaction to a hit (Panic, Duck Back, the Driver's
stop), the crew MC with the Commander's Leadership, the Fire Morale Check.

May import: solo.rules.vehicles.emergency_stop and below, solo.rules.morale, and the rooms below rules."""

from __future__ import annotations

from typing import Any

from solo.data.tables import CheckKind
from solo.rules import morale
from solo.rules.context import GameContext
from solo.rules.state import Character
from solo.rules.vehicles import crew_sight, emergency_stop
from solo.rules.vehicles.state import CREW_ORDER, Vehicle
from solo.rules.vehicles.targets import _buttoned, _hatch_open, _is_afv, _vtype, commander_ldr


def crew_reaction(game: GameContext, vehicle: Vehicle, ch: Character, reason: str, rule: str) -> str:
    """What a crewman or passenger does after failing an MC or being wounded (C2 31.2, 31.10.9).

    The Driver: Emergency Stop (:func:`solo.rules.vehicles.emergency_stop.emergency_stop`). An AFV
    crewman at an open hatch: Duck Back; inside the armor: Panic (his Target Marker removed).
    Passengers and the cupola: Panic. Other Jeep/Truck/Half-Track crew: Duck Back. Returns the
    order given.
    """
    vt = _vtype(game, vehicle)
    seat = ch.seat or ""
    if seat == "driver":
        _driver_stop(game, vehicle, ch, reason, rule)
        return "emergency_stop"
    if seat not in CREW_ORDER:
        return _panic(game, vehicle, ch, reason, rule)
    if _is_afv(vt) and not _hatch_open(vehicle, seat):
        return _panic(game, vehicle, ch, reason, rule)
    if ch.order is None or ch.order.order != "duck_back":
        game.set_order(ch, "duck_back", source=f"{reason} ({rule})")
        game.emit(
            "duck_back",
            f"{ch.name} ({vehicle.name}, {seat.replace('_', ' ')}) ducks back ({reason}).",
            rule=f"{rule}; C2 31.10.9",
            actor=ch.id,
            data={"character": ch.id, "vehicle": vehicle.id, "reason": reason},
        )
    return "duck_back"


def _panic(game: GameContext, vehicle: Vehicle, ch: Character, reason: str, rule: str) -> str:
    if ch.order is None or ch.order.order != "panic":
        game.set_order(ch, "panic", source=f"{reason} ({rule})")
        game.emit(
            "panic",
            f"{ch.name} ({vehicle.name}, {(ch.seat or '').replace('_', ' ')}) panics ({reason}).",
            rule=f"{rule}; C2 31.10.9, 31.11.2",
            actor=ch.id,
            data={"character": ch.id, "vehicle": vehicle.id, "reason": reason},
        )
    _clear_marker(game, vehicle, ch.seat, "Panic (31.7.4)")
    return "panic"


def _clear_marker(game: GameContext, vehicle: Vehicle, position: str | None, why: str) -> None:
    """Remove a seat's Target Marker (31.7.4): ``game.enemy.clear_marker`` for its occupant."""
    seat = vehicle.seats.get(position or "")
    if seat is None or seat.marker is None:
        return
    ch = game.state.characters.get(seat.occupant or "")
    if ch is not None:
        crew_sight.clear_marker(game, ch, why, "C2 31.7.4")
        return
    old = seat.marker
    seat.marker = None
    seat.marker_priority = None
    game.emit(
        "target_marker_removed",
        f"{vehicle.name}: the {(position or '').replace('_', ' ')} Target Marker on {old} is removed "
        f"({why}).",
        rule="C2 31.7.4",
        actor=seat.occupant,
        data={"vehicle": vehicle.id, "position": position, "hex": str(old), "reason": why},
    )


def _driver_stop(game: GameContext, vehicle: Vehicle, driver: Character, reason: str, rule: str) -> None:
    """The Driver takes Emergency Stop (C2 31.2 (2)-(3)).

    Through :func:`solo.rules.vehicles.emergency_stop.emergency_stop` (it also applies the 31.11.2 crew
    order retention).
    """
    vehicle.acted["speed"] = "emergency_stop"
    if driver.order is not None and driver.order.order == "emergency_stop":
        return

    emergency_stop.emergency_stop(game, vehicle, driver, reason=reason, rule=rule)


def crew_morale_check(
    game: GameContext,
    vehicle: Vehicle,
    ch: Character,
    reason: str,
    rule: str,
    *,
    penetrated: bool = True,
    ldr: int | None = None,
) -> dict[str, Any]:
    """An MC for a crewman or passenger (C2 31.10.6, 31.10.9); returns its record.

    A crewman inside the armor ignores MCs from non-penetrating fire (option
    ``closed_hatch_nonpen_mc`` ``ignored``; ``taken``: he takes them). The target is his
    effective TQ + the Commander's LDR (``ldr``; None: :func:`commander_ldr` now, ``for_mc``);
    failing (his morale drops) gives :func:`crew_reaction`.
    """
    rec: dict[str, Any] = {"character": ch.id, "name": ch.name, "check": "mc"}
    if not penetrated and _buttoned(game, vehicle, ch) and game.options.closed_hatch_nonpen_mc == "ignored":
        rec["ignored"] = "closed hatch, non-penetrating fire (31.10.6)"
        game.emit(
            "check_ignored",
            f"{ch.name} ({vehicle.name}) ignores the MC: his hatch is closed and the fire did not "
            f"penetrate ({reason}).",
            rule="C2 31.10.6",
            actor=ch.id,
            data={"character": ch.id, "reason": reason},
        )
        return rec
    if ldr is None:
        ldr = commander_ldr(game, vehicle, ch, for_mc=True)
    out = morale.check(game, ch, CheckKind.MC, modifier=ldr, purpose=f"{reason} (C2 31.10.9)")
    rec.update(
        roll=out.roll,
        target=out.target,
        ldr=ldr,
        result=out.result.value,
        morale=ch.morale.value,
        passed=out.morale_steps >= 0,
    )
    if out.morale_steps < 0:
        rec["reaction"] = crew_reaction(game, vehicle, ch, f"failed MC: {reason}", rule)
    return rec


def fire_morale_check(game: GameContext, vehicle: Vehicle, ch: Character, reason: str) -> dict[str, Any]:
    """A Fire Morale Check (C2 31.10.10), read like a WMC: 0 none, <= TQ -1, > TQ -2, natural 9 -3.

    No LDR (the vehicle is on fire, 31.10.9 iii). A loss gives :func:`crew_reaction`.
    """
    before = ch.morale
    out = morale.check(game, ch, CheckKind.WMC, purpose=f"Fire Morale Check: {reason} (C2 31.10.10)")
    rec: dict[str, Any] = {
        "character": ch.id,
        "name": ch.name,
        "check": "fmc",
        "roll": out.roll,
        "target": out.target,
        "result": out.result.value,
        "morale": ch.morale.value,
    }
    if ch.morale.rank > before.rank:
        rec["reaction"] = crew_reaction(game, vehicle, ch, f"Fire Morale Check: {reason}", "C2 31.10.10")
    return rec
