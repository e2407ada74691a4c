"""Crew spotting and Target Markers (C2 31.7): the crewman's spotting segment, placing, moving and removing
Target Markers (31.7.4 upkeep for both sides; the Enemy's choices come from game.enemy), the Friendly
marker Decision (31.7.5).

May import: solo.rules.vehicles.seats and the rules below, and the rooms below rules."""

from __future__ import annotations

from collections.abc import Generator

from solo.core.decisions import Decision
from solo.core.hexes import Hex
from solo.data.vehicle_types import VehicleKind
from solo.rules.context import GameContext
from solo.rules.state import Character, Side
from solo.rules.vehicles import crew_sight
from solo.rules.vehicles.seats import (
    _crew_tqc,
    _occupant,
    _vtype,
    closed_hatch_spotting,
    seat_sees,
    uses_target_marker,
)
from solo.rules.vehicles.state import Vehicle, vehicles_of

CLOSED_HATCH_SPOT = -2
"""Spotting (and marker TQCs) from a closed hatch or a hatchless position inside the armor (C2 31.7.3)."""
SPOT_ORDER_SPOT = 1
"""A crewman with a Spot order spots at +1 (C2 31.7.3, 31.11.2)."""
CLOSED_HATCH_MARKER_ON_TARGET = -1
"""The closed-hatch penalty when a crewmate's Target Marker is on the target hex, under the
``closed_hatch_marker = minus_1`` reading (C2 31.8)."""


def _marker_near(game: GameContext, vehicle: Vehicle, ch: Character, target_hex: Hex) -> str | None:
    """Who else has a Target Marker in or adjacent to ``target_hex`` (C2 31.7.3), or None."""
    for pos, seat in vehicle.seats.items():
        if pos == ch.seat or seat.marker is None:
            continue
        if game.distance(seat.marker, target_hex) <= 1:
            other = _occupant(game, seat)
            return f"{other.name if other else pos}'s Target Marker"
    for v in vehicles_of(game.state).values():
        if v is vehicle or v.side is not vehicle.side or not v.is_active:
            continue
        commander = v.seats.get("commander")
        if (
            commander is not None
            and commander.marker is not None
            and game.distance(commander.marker, target_hex) <= 1
        ):
            return f"the {v.name} Commander's Target Marker"
    return None


def _crewmate_marker_on(vehicle: Vehicle, ch: Character, target_hex: Hex, game: GameContext) -> str | None:
    """Which crewmate of ``ch`` has his Target Marker on ``target_hex`` (C2 31.8), or None."""
    for pos, seat in vehicle.seats.items():
        if pos != ch.seat and seat.marker == target_hex:
            other = _occupant(game, seat)
            return f"{other.name if other else pos}'s Target Marker"
    return None


def spot_modifiers(
    game: GameContext, vehicle: Vehicle, ch: Character, target_hex: Hex
) -> list[tuple[str, int]]:
    """Spotting (and marker TQC) modifiers of a crewman at ``target_hex`` (C2 31.7.3, 31.7.4).

    Closed hatch (or a hatchless seat inside the armor) -2. With the ``closed_hatch_marker``
    option ``negated`` (31.7.3, the default) another crewman's marker in or adjacent to the
    target hex negates it completely (shown as a 0 modifier naming the marker); with
    ``minus_1`` (31.8) a crewmate's marker on the target hex makes it -1. A tank Gunner (no
    hatch) takes it unless the option ``hatchless_gunner_spot`` is false
    (:func:`~solo.rules.vehicles.seats.closed_hatch_spotting`). Spot order +1.
    ``(name, value)`` pairs.
    """
    mods: list[tuple[str, int]] = []
    if ch.seat is not None and ch.seat in vehicle.seats and closed_hatch_spotting(game, vehicle, ch.seat):
        if game.options.closed_hatch_marker == "minus_1":
            helper = _crewmate_marker_on(vehicle, ch, target_hex, game)
            if helper is None:
                mods.append(("closed hatch", CLOSED_HATCH_SPOT))
            else:
                mods.append((f"closed hatch with {helper} on the target", CLOSED_HATCH_MARKER_ON_TARGET))
        else:
            helper = _marker_near(game, vehicle, ch, target_hex)
            if helper is None:
                mods.append(("closed hatch", CLOSED_HATCH_SPOT))
            else:
                mods.append((f"closed hatch negated by {helper}", 0))
    if ch.order is not None and ch.order.order == "spot":
        mods.append(("Spot order", SPOT_ORDER_SPOT))
    return mods


def _spotting_segment(game: GameContext, vehicle: Vehicle, ch: Character) -> None:
    """Step 4 a) ii): ``ch`` tries to spot every unspotted opponent in his seat's LOS, once per
    activation (C2 31.7; vehicles and crews are always seen)."""
    from solo.rules import spotting

    flow = game.state.flow
    key = (flow.turn, flow.impulse)
    if ch.acted.get(spotting.SEGMENT_KEY) == key:
        return
    ch.acted[spotting.SEGMENT_KEY] = key
    if ch.seat is None:
        return
    for target in game.opponents(ch):
        if target.revealed or target.hex is None or not target.is_active:
            continue
        if not crew_sight.seat_sees(game, vehicle, ch.seat, target.hex):
            continue
        sight = game.sight(ch, target.hex, target=target)
        if not sight.clear:
            continue
        spotting.spot(game, ch, target, sight=sight, modifiers=spot_modifiers(game, vehicle, ch, target.hex))


def _place_marker(
    game: GameContext,
    vehicle: Vehicle,
    ch: Character,
    h: Hex,
    why: str,
    rule: str,
    priority: int | None = None,
) -> None:
    seat = vehicle.seats[ch.seat or ""]
    before = seat.marker
    seat.marker = h
    seat.marker_priority = priority
    verb = "moves his Target Marker" if before is not None else "places his Target Marker"
    game.emit(
        "target_marker",
        f"{ch.name} ({vehicle.name} {ch.seat}) {verb} on {h} ({why}).",
        rule=rule,
        actor=ch.id,
        data={
            "vehicle": vehicle.id,
            "position": ch.seat,
            "hex": str(h),
            "from": str(before) if before is not None else None,
            "priority": priority,
            "reason": why,
        },
    )


def _clear_marker(game: GameContext, vehicle: Vehicle, position: str, reason: str, rule: str) -> None:
    seat = vehicle.seats[position]
    if seat.marker is None:
        return
    ch = _occupant(game, seat)
    if ch is not None:
        crew_sight.clear_marker(game, ch, reason)
        if seat.marker is None:
            return
    where = seat.marker
    seat.marker = None
    seat.marker_priority = None
    who = ch.name if ch is not None else position
    game.emit(
        "target_marker",
        f"{who}'s Target Marker on {where} is removed ({reason}).",
        rule=rule,
        actor=ch.id if ch is not None else None,
        data={"vehicle": vehicle.id, "position": position, "hex": None, "from": str(where), "reason": reason},
    )


def _sees_something(game: GameContext, vehicle: Vehicle, ch: Character) -> bool:
    """LOS from ``ch``'s seat to any Spotted/Known opponent or opposing vehicle (C2 31.7.4)."""
    assert ch.seat is not None
    for o in game.opponents(ch):
        if o.revealed and o.hex is not None and seat_sees(game, vehicle, ch.seat, o.hex):
            return True
    for v in vehicles_of(game.state).values():
        if v.side is not vehicle.side and v.is_active and seat_sees(game, vehicle, ch.seat, v.on_hex):
            return True
    return False


def _remove_lost_markers(game: GameContext, vehicle: Vehicle) -> None:
    """Markers of men who lost LOS to every Spotted/Known opponent (or to the marker) go (C2 31.7.4)."""
    crew_sight.remove_lost_markers(game, vehicle)
    for pos, seat in vehicle.seats.items():
        ch = _occupant(game, seat)
        if seat.marker is not None and ch is not None and not seat_sees(game, vehicle, pos, seat.marker):
            _clear_marker(game, vehicle, pos, "the marker's hex is out of his LOS", "C2 31.7.4-31.7.5")


def refresh_markers(game: GameContext) -> None:
    """Remove every Target Marker whose owner lost LOS (C2 31.7.4: "at any time, immediately"):
    call after anything that changes LOS (weather, smoke, fire, movement)."""
    _refresh_markers(game)


def _refresh_markers(game: GameContext) -> None:
    """:func:`_remove_lost_markers` for every active vehicle (after LOS may have changed)."""
    for v in vehicles_of(game.state).values():
        if v.is_active:
            _remove_lost_markers(game, v)


def _marker_candidates(game: GameContext, vehicle: Vehicle, ch: Character) -> list[Hex]:
    """Hexes in ``ch``'s LOS holding or adjacent to a Known opponent, nearest opponent first (31.7.5)."""
    vh, pos = vehicle.on_hex, ch.in_seat
    known = [o for o in game.opponents(ch) if o.revealed and o.hex is not None]
    known.sort(key=lambda o: game.distance(vh, o.on_hex))
    out: dict[Hex, None] = {}
    board = game.board
    for o in known:
        assert o.hex is not None
        for h in (o.hex, *(board.neighbour_hex(o.hex, d) for d in (1, 2, 3, 4, 5, 6))):
            if h is None or h in out:
                continue
            if seat_sees(game, vehicle, pos, h):
                out[h] = None
    return list(out)


def _marker_label(game: GameContext, vehicle: Vehicle, ch: Character, h: Hex) -> str:
    assert vehicle.hex is not None
    here = [o.name for o in game.opponents(ch) if o.revealed and o.hex == h]
    near = [
        o.name
        for o in game.opponents(ch)
        if o.revealed and o.hex is not None and game.distance(o.hex, h) == 1
    ]
    what = ", ".join(here) if here else "adjacent to " + ", ".join(near)
    return f"{h} ({what}; {game.distance(vehicle.hex, h)} hexes)"


def _friendly_marker(game: GameContext, vehicle: Vehicle, ch: Character) -> Generator[Decision, str, None]:
    """A Friendly crewman places or moves his Target Marker (C2 31.7.5): a Decision.

    No marker and an opposing AFV in LOS: placed on it at once, no roll. Moving a marker
    already on the board needs a TQC with the spotting modifiers (31.7.4-31.7.5); a failure
    leaves it where it is.
    """
    from solo.core.decisions import DecisionKind

    assert ch.seat is not None
    seat = vehicle.seats[ch.seat]
    if seat.marker is None:
        for v in vehicles_of(game.state).values():
            if (
                v.side is not vehicle.side
                and v.is_active
                and _vtype(game, v).kind is VehicleKind.AFV
                and seat_sees(game, vehicle, ch.in_seat, v.on_hex)
            ):
                assert v.hex is not None
                _place_marker(
                    game, vehicle, ch, v.hex, f"the opposing AFV {v.name} in LOS, no roll", "C2 31.7.5"
                )
                return
    cands = _marker_candidates(game, vehicle, ch)
    if seat.marker is None:
        if not cands:
            return
        options = [(str(h), _marker_label(game, vehicle, ch, h)) for h in cands]
        options.append(("none", "No Target Marker"))
    else:
        options = [("keep", f"Keep it on {seat.marker}")]
        options += [
            (str(h), "Move to " + _marker_label(game, vehicle, ch, h) + ", TQC")
            for h in cands
            if h != seat.marker
        ]
        if len(options) == 1:
            return
    key = yield game.decision(
        DecisionKind.ORDER_TARGET,
        f"Target Marker for {ch.name} ({vehicle.name} {ch.seat})",
        options,
        actor=ch.id,
    )
    if key in ("none", "keep"):
        return
    h = Hex.parse(key)
    if seat.marker is not None:
        out = _crew_tqc(
            game,
            vehicle,
            ch,
            f"move his Target Marker to {h} (C2 31.7.5)",
            spot_modifiers(game, vehicle, ch, h),
        )
        if not out.passed:
            game.emit(
                "target_marker",
                f"{ch.name} fails to move his Target Marker; it stays on {seat.marker}.",
                rule="C2 31.7.5",
                actor=ch.id,
                data={"vehicle": vehicle.id, "position": ch.seat, "hex": str(seat.marker), "moved": False},
            )
            return
    _place_marker(game, vehicle, ch, h, "the player's choice", "C2 31.7.5")


def _markers(game: GameContext, vehicle: Vehicle, ch: Character) -> Generator[Decision, str, None]:
    """After spotting: the crewman's Target Marker (C2 31.7.4 Enemy, 31.7.5 Friendly)."""
    if ch.seat is None or not uses_target_marker(game, vehicle, ch.seat):
        return
    if ch.order is not None and ch.order.order == "panic":
        return
    if ch.side is Side.ENEMY:
        game.enemy.place_enemy_marker(game, ch)
        return
    yield from _friendly_marker(game, vehicle, ch)
